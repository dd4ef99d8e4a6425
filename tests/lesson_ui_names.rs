//! Lesson texts name the window's buttons, menus and tabs as the window
//! in their language shows them: in a lesson text (`de.md`, `en.md`) bold
//! is for names of the interface only (emphasis is italic), and every bold
//! name, each part of a menu path `Debug → Breakpoints...` too, is a label
//! of that language's window. A task text may use bold for emphasis, but
//! its German must not name an English-only label (`**Out**` where the
//! German window shows Heraus).

#![cfg(feature = "gui")]

use hc11lab::lesson::i18n::{ui, Ui};
use hc11lab::lesson::Lang;
use hc11lab::ui::i18n::{tr, GERMAN};
use hc11lab::ui::keys::KEYS;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every label the window shows in `lang`: its table, the lesson panel's
/// words and the key pad's buttons (`0 drop`).
fn labels(lang: Lang) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = GERMAN
        .iter()
        .map(|(en, de)| match lang {
            Lang::En => en.to_string(),
            Lang::De => de.to_string(),
        })
        .collect();
    use Ui::*;
    for k in [
        Lessons, Course, Step, Check, Answer, Hint, Done, Next, Previous, Restart, Tries, Exercise,
        Intro, Program,
    ] {
        out.insert(ui(lang, k).to_string());
    }
    for (n, what, _) in KEYS {
        if !what.is_empty() {
            out.insert(format!("{n} {}", tr(lang, what)));
        }
    }
    out
}

/// The bold spans of a Markdown text (a span may go over a line break).
fn bold(text: &str) -> Vec<String> {
    let flat = text.replace('\n', " ");
    let mut out = Vec::new();
    let mut rest = flat.as_str();
    while let Some(i) = rest.find("**") {
        let after = &rest[i + 2..];
        let Some(j) = after.find("**") else { break };
        out.push(after[..j].split_whitespace().collect::<Vec<_>>().join(" "));
        rest = &after[j + 2..];
    }
    out
}

/// The UI names a bold span stands for: the parts of a menu path.
fn names(span: &str) -> Vec<&str> {
    span.split(" → ").map(str::trim).collect()
}

fn lesson_texts() -> Vec<(PathBuf, Lang)> {
    let mut out = Vec::new();
    for course in ["lessons", "examples/course"] {
        for e in std::fs::read_dir(root().join(course)).unwrap() {
            let d = e.unwrap().path();
            if !d.join("lesson.toml").is_file() {
                continue;
            }
            out.push((d.join("de.md"), Lang::De));
            out.push((d.join("en.md"), Lang::En));
        }
    }
    out.sort();
    out
}

#[test]
fn every_bold_name_in_a_lesson_text_is_a_label_of_its_window() {
    let texts = lesson_texts();
    assert!(texts.len() >= 30, "{texts:?}");
    let mut wrong = Vec::new();
    let mut seen = 0;
    for (file, lang) in texts {
        let known = labels(lang);
        let text = std::fs::read_to_string(&file).unwrap();
        for span in bold(&text) {
            for name in names(&span) {
                seen += 1;
                if !known.contains(name) {
                    wrong.push(format!("{}: **{span}**: `{name}`", file.display()));
                }
            }
        }
    }
    assert!(seen >= 60, "only {seen} bold names");
    assert!(
        wrong.is_empty(),
        "bold in a lesson text names a label of the window in the text's language (write emphasis in *italics*):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn german_task_texts_name_no_english_only_label() {
    let english_only: BTreeSet<&str> = GERMAN
        .iter()
        .filter(|(en, de)| en != de && en.chars().count() > 2)
        .map(|(en, _)| *en)
        .collect();
    let mut wrong = Vec::new();
    for e in std::fs::read_dir(root().join("lessons")).unwrap() {
        let d = e.unwrap().path();
        let file = d.join("task.de.md");
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for span in bold(&text) {
            for name in names(&span) {
                if english_only.contains(name) {
                    wrong.push(format!("{}: **{span}**", file.display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_check_sees_what_it_must() {
    assert_eq!(
        bold("press **Run**, then **Debug →\nBreakpoints...** and *not this*"),
        ["Run", "Debug → Breakpoints..."]
    );
    let de = labels(Lang::De);
    for name in [
        "Start",
        "Schritt",
        "Über",
        "Heraus",
        "Schritt zurück",
        "Debuggen",
        "Haltepunkte...",
        "0 Einwurf",
    ] {
        assert!(de.contains(name), "{name}");
    }
    let en = labels(Lang::En);
    for name in [
        "Run",
        "Step",
        "Over",
        "Out",
        "Step back",
        "0 drop",
        "Add breakpoint",
    ] {
        assert!(en.contains(name), "{name}");
    }
}

//! Lesson texts name the window's buttons, menus and tabs as the window
//! in their language shows them: in a lesson text (`de.md`, `en.md`) bold
//! is for names of the interface only (emphasis is italic), and every bold
//! name, each part of a menu path `Debug → Breakpoints...` too, is a label
//! of that language's window. A task text may use bold for emphasis, but
//! its German must not name an English-only label (`**Out**` where the
//! German window shows Heraus).

#![cfg(feature = "gui")]

use hc11lab::lesson::ui_names::{bold_spans, span_names};
use hc11lab::lesson::Lang;
use hc11lab::ui::i18n::GERMAN;
use hc11lab::ui::labels::window_labels as labels;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The bold spans of a Markdown text (a span may go over a line break).
fn bold(text: &str) -> Vec<String> {
    bold_spans(text).into_iter().map(|(_, s)| s).collect()
}

/// The UI names a bold span stands for: the parts of a menu path.
fn names(span: &str) -> Vec<&str> {
    span_names(span)
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

/// A teacher's lesson whose English text says **Go** (no button of the
/// window) and whose German text names the English **Run**: `lesson
/// validate` names both with file and line; the right names pass.
#[test]
fn validate_flags_a_bold_name_the_window_does_not_show() {
    let course = std::env::temp_dir().join(format!("hc11lab-ui-names-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&course);
    let dir = course.join("01-sum");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["lesson.toml", "sum.asm", "de.md", "en.md"] {
        std::fs::copy(root().join("examples/course/01-sum").join(f), dir.join(f)).unwrap();
    }
    let validate = || {
        let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
            .args(["lesson", "validate"])
            .arg(&course)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, text) = validate();
    assert_eq!(code, Some(0), "{text}");

    let en = std::fs::read_to_string(dir.join("en.md")).unwrap();
    let line = en.lines().position(|l| l.contains("**Run**")).unwrap() + 1;
    std::fs::write(dir.join("en.md"), en.replacen("**Run**", "**Go**", 1)).unwrap();
    let de = std::fs::read_to_string(dir.join("de.md")).unwrap();
    let de_line = de.lines().position(|l| l.contains("**Start**")).unwrap() + 1;
    std::fs::write(dir.join("de.md"), de.replacen("**Start**", "**Run**", 1)).unwrap();
    let (code, text) = validate();
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!("en.md:{line}: **Go**: `Go` is no button"))
            && text.contains("of the English window"),
        "{text}"
    );
    assert!(
        text.contains(&format!("de.md:{de_line}: **Run**: `Run` is no button"))
            && text.contains("of the German window"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&course);
}

//! The course under `lessons/`: every lesson loads, has both texts with the
//! same steps, and every check names labels, lines and symbols the bundled
//! firmware really has.

use hc11lab::lesson::{Catalog, Kind, Lang};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn firmware() -> hc11lab::image::Program {
    let a = hc11lab::asm::assemble_file(
        &root().join("firmware/Viergewinnt.asm"),
        &Default::default(),
    );
    assert!(!a.has_errors(), "{}", a.render_diagnostics());
    a.program.expect("the firmware assembles")
}

#[test]
fn every_lesson_loads_in_both_languages() {
    let cat = Catalog::load(&root().join("lessons")).unwrap_or_else(|e| panic!("{e}"));
    assert!(cat.lessons.len() >= 10, "{} lessons", cat.lessons.len());
    for l in &cat.lessons {
        assert_eq!(l.languages(), vec![Lang::De, Lang::En], "{}", l.id);
        for lang in Lang::ALL {
            let t = l.text(lang).unwrap();
            assert!(
                !t.title.trim().is_empty() && !t.intro.trim().is_empty(),
                "{} {lang}",
                l.id
            );
            for s in &l.manifest.step {
                let st = t.step(&s.id).unwrap();
                assert!(
                    !st.heading.trim().is_empty() && !st.body.trim().is_empty(),
                    "{} {}",
                    l.id,
                    s.id
                );
                assert!(
                    !st.hints.is_empty(),
                    "{} {lang}: step {} has no hint",
                    l.id,
                    s.id
                );
                assert!(st.hints.iter().all(|h| !h.trim().is_empty()));
            }
        }
        // German texts are German: they use umlauts somewhere.
        let de = l.text(Lang::De).unwrap();
        let all: String = de.steps.iter().map(|s| s.body.clone()).collect();
        assert!(
            all.contains(['ä', 'ö', 'ü', 'Ä', 'Ö', 'Ü', 'ß']),
            "{}: no umlauts in de.md",
            l.id
        );
    }
    let ids: Vec<&str> = cat.lessons.iter().map(|l| l.id.as_str()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted, "the order keys follow the folder names");
    let list = cat.list(Lang::En);
    assert!(list
        .iter()
        .all(|e| e.kind == Kind::Lesson || cat.exercise(&e.id).is_some()));
}

#[test]
fn every_check_fits_the_firmware() {
    let program = firmware();
    let cat = Catalog::load(&root().join("lessons")).unwrap();
    let mut problems = Vec::new();
    for l in &cat.lessons {
        for p in l.problems_with(&program) {
            problems.push(format!("{}: {p}", l.id));
        }
        for s in &l.manifest.step {
            assert!(
                !s.solution.is_empty(),
                "{}: step {} has no model solution",
                l.id,
                s.id
            );
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_bundled_course_is_the_lessons_folder() {
    let disk = Catalog::load(&root().join("lessons")).unwrap();
    let bundled = hc11lab::lesson::bundled::catalog().unwrap();
    let ids = |c: &Catalog| c.lessons.iter().map(|l| l.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&bundled), ids(&disk), "update src/lesson/bundled.rs");
    for (a, b) in bundled.lessons.iter().zip(&disk.lessons) {
        assert_eq!(a.manifest, b.manifest);
        assert_eq!(a.texts, b.texts);
    }
}

#[test]
fn exercises_are_listed_beside_lessons() {
    let dir = std::env::temp_dir().join(format!("hc11lab-course-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tour = dir.join("01-tour");
    std::fs::create_dir_all(&tour).unwrap();
    for f in ["lesson.toml", "de.md", "en.md"] {
        std::fs::copy(root().join("lessons/01-tour").join(f), tour.join(f)).unwrap();
    }
    let ex = dir.join("e1-cells");
    std::fs::create_dir_all(&ex).unwrap();
    std::fs::write(
        ex.join("assignment.toml"),
        "[assignment]\nid = \"e1\"\ntitle = \"E1: Zellen\"\nentry = \"Viergewinnt.asm\"\n\n[[check]]\nname = \"assembles\"\nkind = \"assembles\"\npoints = 1\n",
    )
    .unwrap();
    std::fs::write(ex.join("task.de.md"), "# E1: Zellen zeichnen\n\nText.\n").unwrap();
    std::fs::create_dir_all(dir.join("assets")).unwrap();

    let cat = Catalog::load(&dir).unwrap();
    let list = cat.list(Lang::En);
    let summary: Vec<(String, Kind, String, Vec<Lang>)> = list
        .into_iter()
        .map(|e| (e.id, e.kind, e.title, e.languages))
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "01-tour".into(),
                Kind::Lesson,
                "Tour: Connect Four on the 68HC11".into(),
                vec![Lang::De, Lang::En]
            ),
            (
                "e1-cells".into(),
                Kind::Exercise,
                "E1: Zellen".into(),
                vec![Lang::De]
            ),
        ]
    );
    assert_eq!(cat.list(Lang::De)[1].title, "E1: Zellen zeichnen");
    let shown = hc11lab::lesson::cli::show_text(&cat, "e1-cells", Lang::De).unwrap();
    assert!(
        shown.ends_with("# E1: Zellen zeichnen\n\nText.\n"),
        "{shown}"
    );
    assert!(shown.starts_with("Übung: "), "{shown}");

    // A broken lesson is reported with its file and left out; the
    // exercise beside it still works.
    std::fs::write(tour.join("en.md"), "no title here\n").unwrap();
    let cat = Catalog::load(&dir).unwrap();
    let e = &cat.broken[0].message;
    assert!(e.contains("en.md") && e.contains("line 1"), "{e}");
    assert!(cat.lessons.is_empty() && cat.exercise("e1-cells").is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn german_texts_address_the_student_as_du() {
    // The rule `lesson validate` applies to a teacher's course too.
    let mut files = Vec::new();
    for e in std::fs::read_dir(root().join("lessons")).unwrap() {
        let d = e.unwrap().path();
        for name in ["de.md", "task.de.md", "feedback.de.toml"] {
            if d.join(name).is_file() {
                files.push(d.join(name));
            }
        }
    }
    assert!(files.len() >= 20, "{files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let found = hc11lab::lesson::validate::formal_address(&text);
        assert!(
            found.is_empty(),
            "{}: formal address (the course says du): {found:?}",
            f.display()
        );
    }
    // What the rule finds, and what it leaves alone.
    let find = |t: &str| {
        hc11lab::lesson::validate::formal_address(t)
            .into_iter()
            .map(|(l, w)| format!("{l}:{w}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(find("Drücken Sie die Taste."), ["1:Sie"]);
    assert_eq!(
        find("Dann lesen\nSie weiter und prüfen Ihr Programm."),
        ["2:Sie", "2:Ihr"]
    );
    assert_eq!(find("Wie geht es Ihnen?"), ["1:Ihnen"]);
    assert!(find("Die Konstanten sind fest. Sie verschieben nichts.").is_empty());
    assert!(find("Schreib `Sie equ 1` in die Datei.").is_empty());
    assert!(find("Drücke die Taste, dann siehst du es.").is_empty());
}

/// An exercise names each check the same in its task, in the list and in
/// the check's report: the title of `assignment.toml` is the task's heading,
/// and every check's name (its German title in the German task) starts a
/// row of the task's grading table. E1 says "page" for an LCD page in
/// both languages (the course's "Zeile" is a row of the board).
#[test]
fn exercises_name_their_checks_the_same_everywhere() {
    for id in ["e1-draw", "e3-winline", "e8-contrast"] {
        let dir = root().join("lessons").join(id);
        let a = hc11lab::grade::Assignment::load(&dir).unwrap();
        let german = hc11lab::lesson::feedback::load_german(&dir).unwrap();
        for (lang, file) in [(Lang::En, "task.en.md"), (Lang::De, "task.de.md")] {
            let task = std::fs::read_to_string(dir.join(file)).unwrap();
            let rows: Vec<&str> = task.lines().filter_map(|l| l.strip_prefix("| ")).collect();
            for c in &a.checks {
                let name = match lang {
                    Lang::En => c.name.clone(),
                    Lang::De => german[&c.name].title.clone(),
                };
                let listed = rows.iter().any(|r| {
                    r.strip_prefix(name.as_str()).is_some_and(|rest| {
                        rest.starts_with(" |") || rest.starts_with(':') || rest.starts_with(" (")
                    })
                });
                assert!(listed, "{id}/{file}: no table row for `{name}`");
            }
        }
        let cat = Catalog::load(&root().join("lessons")).unwrap();
        let ex = cat.exercise(id).unwrap();
        assert_eq!(
            a.title,
            ex.title(Lang::En),
            "{id}: title and task heading differ"
        );
    }
    let de = std::fs::read_to_string(root().join("lessons/e1-draw/task.de.md")).unwrap();
    assert!(!de.contains("in Zeile 6") && de.contains("auf Seite 6"));
}

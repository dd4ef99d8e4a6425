//! `hc11lab lesson list|show|start|check` as a user runs them.

use std::process::Command;

fn hc11lab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(args)
        .env(
            "HC11LAB_LESSONS",
            concat!(env!("CARGO_MANIFEST_DIR"), "/lessons"),
        )
        .env("LANG", "de_DE.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANGUAGE")
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn list_json_has_the_documented_shape() {
    let (code, out, err) = hc11lab(&["lesson", "list", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let arr = v.as_array().unwrap();
    assert!(arr.len() >= 12);
    for e in arr {
        let o = e.as_object().unwrap();
        let mut keys: Vec<&str> = o.keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["id", "kind", "languages", "title"]);
        assert!(["lesson", "exercise"].contains(&o["kind"].as_str().unwrap()));
    }
    let tour = arr.iter().find(|e| e["id"] == "01-tour").unwrap();
    assert_eq!(tour["kind"], "lesson");
    assert_eq!(tour["languages"], serde_json::json!(["de", "en"]));
    // LANG=de_DE: German titles.
    assert!(tour["title"].as_str().unwrap().starts_with("Rundgang"));
    let (_, en, _) = hc11lab(&["lesson", "list", "--json", "--lang", "en"]);
    assert!(en.contains("\"Tour: Connect Four on the 68HC11\""));
}

#[test]
fn show_prints_steps_hints_and_checks() {
    let (code, out, _) = hc11lab(&["lesson", "show", "04-drawcell", "--lang", "en"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("# drawCell: from the buffer to the LCD"));
    assert!(out.contains("## Step 2 of 7: IDIV: row and column"));
    assert!(out.contains("> Hint: Set a breakpoint on `Board.inc:38`"));
    assert!(out.contains("[Check: stopped at Board.inc:38; register X = 2; register D = 24]"));
    let (_, de, _) = hc11lab(&["lesson", "show", "04-drawcell"]);
    assert!(de.contains("## Schritt 2 von 7: IDIV: Zeile und Spalte"));
}

#[test]
fn bad_ids_and_languages_fail() {
    let (code, _, err) = hc11lab(&["lesson", "show", "99-nothing"]);
    assert_eq!(code, 1);
    assert!(err.contains("no lesson or exercise `99-nothing`"), "{err}");
    // An unknown language is bad usage (exit status 2), for every command.
    for cmd in [
        &["lesson", "list", "--lang", "fr"][..],
        &["lesson", "show", "01-tour", "--lang", "fr"],
        &["lesson", "check", "e1-draw", "firmware", "--lang", "fr"],
        &["lesson", "start", "e1-draw", "x", "--lang", "fr"],
    ] {
        let (code, _, err) = hc11lab(cmd);
        assert_eq!(code, 2, "{cmd:?}: {err}");
        assert!(err.contains("unknown language `fr`"), "{err}");
    }
    // `check --help` says when it exits 1.
    let (code, out, _) = hc11lab(&["lesson", "check", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("1 when it is not") && out.contains("2 for bad usage"),
        "{out}"
    );
    let (code, _, _) = hc11lab(&["lesson", "frobnicate"]);
    assert_eq!(code, 2);
}

#[test]
fn check_grades_a_submission_through_the_grader() {
    let firmware = concat!(env!("CARGO_MANIFEST_DIR"), "/firmware");
    let (code, out, err) = hc11lab(&["lesson", "check", "viergewinnt", firmware, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(keys, ["checks", "max_score", "score"]);
    assert!(v["max_score"].as_f64().unwrap() > 0.0);
    assert_eq!(
        v["score"], v["max_score"],
        "the reference firmware gets full marks"
    );
    for c in v["checks"].as_array().unwrap() {
        let mut k: Vec<&str> = c.as_object().unwrap().keys().map(String::as_str).collect();
        k.sort();
        assert_eq!(k, ["feedback", "max_score", "name", "score"]);
    }

    // A submission that does not assemble: some points lost, exit status 1.
    let dir = std::env::temp_dir().join(format!("hc11lab-lesson-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Viergewinnt.asm"), "        ldaa  #nothing\n").unwrap();
    let d = dir.to_str().unwrap();
    let (code, out, _) = hc11lab(&["lesson", "check", "viergewinnt", d, "--lang", "en"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL") && out.contains("assembles"), "{out}");
    let (code, out, _) = hc11lab(&["lesson", "check", "viergewinnt", d, "--lang", "de"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("falsch") && out.contains("wird assembliert"),
        "{out}"
    );
    // The assembler's messages in German too.
    assert!(
        out.contains("Fehler[E0004]: undefiniertes Symbol `nothing`")
            && out.contains("das Programm lässt sich nicht assemblieren")
            && !out.contains("error[")
            && !out.contains("help:"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);

    // A guided lesson is not graded.
    let (code, _, err) = hc11lab(&["lesson", "check", "01-tour", firmware]);
    assert_eq!(code, 2);
    assert!(err.contains("not an exercise"), "{err}");
}

/// A check on one's own machine names the submission by the path given
/// (a batch's reports name it by its file name only); a file inside a
/// submission keeps its path relative to it.
#[test]
fn check_names_a_missing_or_wrong_submission_by_its_whole_path() {
    let dir = std::env::temp_dir().join(format!("hc11lab lesson path {}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("not there");
    let (code, _, err) = hc11lab(&["lesson", "check", "e1-draw", missing.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with(&format!("error: cannot read {}: ", missing.display())),
        "{err}"
    );
    let file = dir.join("solution.txt");
    std::fs::write(&file, "        nop\n").unwrap();
    let (code, _, err) = hc11lab(&["lesson", "check", "e1-draw", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "{}: a submission is a folder or a .zip",
            file.display()
        )),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// One `.asm` file is a submission too: checked as the exercise's main
/// file, with the files its `include` lines name next to it (only those).
#[test]
fn check_takes_a_single_source_file_with_its_includes() {
    let dir = std::env::temp_dir().join(format!("hc11lab one file {}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let firmware = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware");
    for e in std::fs::read_dir(&firmware).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".inc") {
            std::fs::copy(&p, dir.join(&name)).unwrap();
        }
    }
    let main = dir.join("my game.asm");
    std::fs::copy(firmware.join("Viergewinnt.asm"), &main).unwrap();
    // A file the program does not include stays unread, even a broken one.
    std::fs::write(dir.join("other.asm"), "  this is not assembly\n").unwrap();
    let (code, out, err) = hc11lab(&[
        "lesson",
        "check",
        "viergewinnt",
        main.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["score"], v["max_score"], "{out}");
    // Without its includes next to it, the assembler names what is missing.
    std::fs::remove_file(dir.join("Utils.inc")).unwrap();
    let (code, out, _) = hc11lab(&[
        "lesson",
        "check",
        "viergewinnt",
        main.to_str().unwrap(),
        "--lang",
        "en",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("include file `Utils.inc` not found"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `lesson start ID DIR` gives an installed hc11lab's student the starter
/// code: the bundled Viergewinnt for an exercise that changes the game,
/// the `starter/` files for one that has them, an empty main file for the
/// base assignment; it never overwrites a file, and the copy is what
/// `lesson check` then grades. Every task text says how.
#[test]
fn start_copies_the_starter_without_overwriting_work() {
    let dir = std::env::temp_dir().join(format!("hc11lab-start-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let e1 = dir.join("my e1");
    let e1s = e1.to_str().unwrap();
    let (code, out, err) = hc11lab(&["lesson", "start", "e1-draw", e1s, "--lang", "en"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("hc11lab lesson check e1-draw {e1s}")),
        "{out}"
    );
    for (name, text) in hc11lab::firmware::FILES {
        assert_eq!(
            &std::fs::read_to_string(e1.join(name)).unwrap(),
            text,
            "{name}"
        );
    }
    // A second start refuses and keeps the student's work.
    std::fs::write(e1.join("Logic.inc"), "; my work\n").unwrap();
    let (code, _, err) = hc11lab(&["lesson", "start", "e1-draw", e1s]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("Logic.inc") && err.contains("nothing was copied"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(e1.join("Logic.inc")).unwrap(),
        "; my work\n"
    );
    // The copy is what `lesson check` grades (the starter does not do the task).
    let (code, out, _) = hc11lab(&["lesson", "check", "e1-draw", e1s, "--lang", "de"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Punkte: "), "{out}");

    // An exercise with a starter/ folder: its files.
    let e6 = dir.join("e6");
    let (code, out, err) = hc11lab(&["lesson", "start", "e6-othello", e6.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Dateien") && out.contains("Othello.asm"),
        "{out}"
    );
    let starter =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/e6-othello/starter");
    for e in std::fs::read_dir(&starter).unwrap() {
        let p = e.unwrap().path();
        assert_eq!(
            std::fs::read(&p).unwrap(),
            std::fs::read(e6.join(p.file_name().unwrap())).unwrap()
        );
    }
    // The base assignment has no starter: an empty main file.
    let base = dir.join("base");
    let (code, _, err) = hc11lab(&["lesson", "start", "viergewinnt", base.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let main = std::fs::read_to_string(base.join("Viergewinnt.asm")).unwrap();
    assert!(main.lines().all(|l| l.starts_with(';')), "{main}");
    // A guided lesson has no starter: bad usage.
    let (code, _, err) = hc11lab(&[
        "lesson",
        "start",
        "01-tour",
        dir.join("t").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not an exercise"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);

    // Every task text tells how to get its starter code.
    let lessons = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    for e in std::fs::read_dir(&lessons).unwrap() {
        let d = e.unwrap().path();
        if !d.join("assignment.toml").is_file() {
            continue;
        }
        let id = d.file_name().unwrap().to_string_lossy().into_owned();
        for lang in ["de", "en"] {
            let task = std::fs::read_to_string(d.join(format!("task.{lang}.md"))).unwrap();
            assert!(
                task.contains(&format!("hc11lab lesson start {id} ")),
                "{id}/task.{lang}.md does not say `hc11lab lesson start {id} DIR`"
            );
            assert!(
                !task.contains("`firmware/`"),
                "{id}/task.{lang}.md points at firmware/"
            );
        }
    }
}

//! `hc11lab lesson check --lang de`: every line is German (names, the
//! grader's sentences, the advice), a crash names the instruction and its
//! file:line, and a failed LCD check shows the expected picture beside the
//! student's.

use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn check(id: &str, folder: &Path, lang: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["lesson", "check", id])
        .arg(folder)
        .args(["--lang", lang])
        .env("HC11LAB_LESSONS", root().join("lessons"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Words of the grader's and the assignments' English that German output
/// must not contain (outside key lists and code in backticks).
const ENGLISH: &[&str] = &[
    " the ",
    "expected",
    "after keys",
    "differs",
    " must ",
    "score ",
    "FAIL",
    " is ",
    "random games",
    "register ",
    "should",
    "stopped",
    "never",
    "keep that name",
];

fn assert_german(text: &str, what: &str) {
    for line in text.lines() {
        // Code and key lists in backticks are not prose.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        for w in ENGLISH {
            assert!(
                !prose.contains(w),
                "{what}: English ({w:?}) in German output:\n{line}\n\nall:\n{text}"
            );
        }
    }
}

#[test]
fn every_line_of_a_german_check_is_german() {
    let firmware = root().join("firmware");
    for id in ["e1-draw", "e2-pulls", "e3-winline", "e4-computer"] {
        let text = check(id, &firmware, "de");
        assert!(text.contains("FEHL") && text.contains("Punkte: "), "{text}");
        assert_german(&text, id);
    }
    for id in ["e5-tictactoe", "e6-othello", "e7-checkers"] {
        let text = check(id, &root().join("lessons").join(id).join("starter"), "de");
        assert_german(&text, id);
    }
    // English stays English.
    let text = check("e2-pulls", &firmware, "en");
    assert!(
        text.contains("FAIL") && text.contains("createGrid keeps A and B"),
        "{text}"
    );
}

#[test]
fn a_crash_names_the_instruction_and_its_line_and_an_lcd_failure_shows_both_pictures() {
    let dir = std::env::temp_dir().join(format!("hc11lab-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in hc11lab::firmware::FILES {
        std::fs::write(dir.join(name), text).unwrap();
    }
    // An illegal opcode ($41) right after setStone in readInput.
    let input = std::fs::read_to_string(dir.join("Input.inc")).unwrap();
    let marker = "        jsr     setStone\n";
    assert!(input.contains(marker));
    std::fs::write(
        dir.join("Input.inc"),
        input.replacen(marker, &format!("{marker}        dc.b    $41\n"), 1),
    )
    .unwrap();
    let line = input[..input.find(marker).unwrap()].lines().count() + 2;
    for lang in ["de", "en"] {
        let text = check("viergewinnt", &dir, lang);
        let want = format!("Input.inc:{line} `dc.b $41`");
        assert!(text.contains(&want), "{lang}: no {want:?} in\n{text}");
        if lang == "de" {
            assert!(text.contains("ungültiger Opcode $41"), "{text}");
            assert_german(&text, "crash");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);

    // The unchanged firmware fails E1's LCD check: both pictures, side by side.
    let text = check("e1-draw", &root().join("firmware"), "en");
    let at = text.find("draw shown").unwrap();
    let after = &text[at..];
    assert!(
        after.contains("expected") && after.contains("your LCD"),
        "{after}"
    );
    let pic: Vec<&str> = after
        .lines()
        .filter(|l| l.contains(" | "))
        .take(16)
        .collect();
    assert_eq!(pic.len(), 16, "{after}");
    assert!(pic
        .iter()
        .all(|l| l.chars().any(|c| ('\u{2800}'..='\u{28FF}').contains(&c))));
}

/// A jump into memory without code at start-up: the feedback names the
/// call that went there with its line, in either language, and the checks
/// that could not run point to the failed one by its German title.
#[test]
fn a_call_into_nowhere_names_the_call_and_its_line() {
    let dir = std::env::temp_dir().join(format!("hc11lab-nowhere-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in hc11lab::firmware::FILES {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let main = std::fs::read_to_string(dir.join("Viergewinnt.asm")).unwrap();
    let marker = "        lds     #$3FFF";
    let at = main.find(marker).expect("the stack set-up");
    let line = main[..at].lines().count() + 2;
    let end = at + main[at..].find('\n').unwrap() + 1;
    let patched = format!("{}        jsr     $E000\n{}", &main[..end], &main[end..]);
    std::fs::write(dir.join("Viergewinnt.asm"), patched).unwrap();
    let text = check("viergewinnt", &dir, "en");
    let want = format!(
        "The `jsr $E000` at Start+3 ($C550, Viergewinnt.asm:{line} `jsr $E000`) went there."
    );
    assert!(text.contains(&want), "no {want:?} in\n{text}");
    let text = check("viergewinnt", &dir, "de");
    assert!(
        text.contains("Dorthin führte `jsr $E000` bei Start+3"),
        "{text}"
    );
    assert!(text.contains("(siehe `Startbild`)"), "{text}");
    assert_german(&text, "a call into nowhere");
    let _ = std::fs::remove_dir_all(&dir);
}

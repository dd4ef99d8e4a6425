//! `hc11lab lesson check --lang de`: every line is German (names, the
//! grader's sentences, the advice, the assembler's messages), at most 100
//! columns wide, a crash names the instruction and its file:line, and a
//! failed LCD check shows the expected picture and the student's.

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
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    for line in text.lines() {
        assert!(
            line.chars().count() <= 100,
            "{id}: a line of {} columns:\n{line}",
            line.chars().count()
        );
    }
    text
}

/// The report with its lines joined (a long sentence is wrapped).
fn joined(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Words of the grader's and the assignments' English that German output
/// must not contain (outside key lists and code in backticks).
const ENGLISH: &[&str] = &[
    " the ",
    "expected",
    "FEHL ",
    "error[",
    "help:",
    "keys)",
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
        assert!(
            text.contains("falsch") && text.contains("Punkte: "),
            "{text}"
        );
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
        assert!(
            joined(&text).contains(&want),
            "{lang}: no {want:?} in\n{text}"
        );
        if lang == "de" {
            assert!(joined(&text).contains("ungültiger Opcode $41"), "{text}");
            assert_german(&text, "crash");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);

    // The unchanged firmware fails E1's LCD check: both pictures of the
    // whole LCD, one above the other (side by side they would not fit).
    let text = check("e1-draw", &root().join("firmware"), "en");
    let at = text.find("draw shown").unwrap();
    let after = &text[at..];
    let (expected, yours) = (
        after.find("expected  (x=0..127, y=0..63)").expect(after),
        after.find("your LCD").expect(after),
    );
    assert!(expected < yours, "{after}");
    let braille = |part: &str| {
        part.lines()
            .skip(1)
            .take_while(|l| {
                l.trim()
                    .chars()
                    .all(|c| ('\u{2800}'..='\u{28FF}').contains(&c))
                    && !l.trim().is_empty()
            })
            .count()
    };
    assert_eq!(braille(&after[expected..]), 16, "{after}");
    assert_eq!(braille(&after[yours..]), 16, "{after}");
    // A region narrow enough goes side by side.
    let frame = hc11lab::grade::frame::Frame::default();
    let region = hc11lab::grade::frame::Rect {
        x: 36,
        y: 48,
        w: 56,
        h: 8,
    };
    let pic = hc11lab::lesson::feedback::lcd_pictures(
        &frame,
        &frame,
        region,
        hc11lab::lesson::Lang::De,
        89,
    );
    assert!(
        pic.starts_with("erwartet") && pic.lines().nth(1).is_some_and(|l| l.contains(" | ")),
        "{pic}"
    );
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
    assert!(joined(&text).contains(&want), "no {want:?} in\n{text}");
    let text = check("viergewinnt", &dir, "de");
    assert!(
        joined(&text).contains("Dorthin führte `jsr $E000` bei Start+3"),
        "{text}"
    );
    assert!(joined(&text).contains("(siehe `Startbild`)"), "{text}");
    assert_german(&text, "a call into nowhere");
    let _ = std::fs::remove_dir_all(&dir);
}

/// E1's solution with the `pulb` before `checkDrawEnd`'s `rts` missing:
/// the crash is told once, its likely cause first (the `rts` with its
/// file:line and what it took), and every later check that crashed the
/// same way, the random games too, refers to it by name instead of
/// repeating it; in German as well.
#[test]
fn the_likely_cause_comes_first_and_once() {
    let dir = std::env::temp_dir().join(format!("hc11lab-cause-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sol = root().join("tests/solutions/e1-draw");
    for e in std::fs::read_dir(&sol).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    let logic = std::fs::read(dir.join("Logic.inc")).unwrap();
    let logic = String::from_utf8_lossy(&logic).into_owned();
    let end = "checkDrawEnd\n\n        pulb\n        rts";
    assert_eq!(logic.matches(end).count(), 1);
    let line = logic[..logic.find(end).unwrap()].lines().count() + 3;
    std::fs::write(
        dir.join("Logic.inc"),
        logic.replacen(end, "checkDrawEnd\n\n        rts", 1),
    )
    .unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["lesson", "check", "e1-draw"])
        .arg(&dir)
        .args(["--json", "--lang", "en"])
        .env("HC11LAB_LESSONS", root().join("lessons"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let feedback: Vec<&str> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["feedback"].as_str().unwrap())
        .collect();
    let cause = format!("`rts` at $C50F in checkDrawEnd (Logic.inc:{line}) returned to");
    let telling: Vec<usize> = (0..feedback.len())
        .filter(|i| feedback[*i].contains(&cause))
        .collect();
    assert_eq!(telling.len(), 1, "{feedback:#?}");
    let first = feedback[telling[0]];
    // After the keys, the cause is the first thing said.
    let said = first.split_once("`: ").map_or(first, |(_, r)| r);
    assert!(said.starts_with(&cause), "{first}");
    assert!(
        first.find("a push without its pull") < first.find("illegal opcode"),
        "{first}"
    );
    let name = v["checks"][telling[0]]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let referring = feedback
        .iter()
        .filter(|f| f.contains(&format!("the same failure as in `{name}`")))
        .count();
    assert!(referring >= 5, "{feedback:#?}");
    // The random games too.
    assert!(
        feedback.last().unwrap().contains("the same failure as in"),
        "{feedback:#?}"
    );

    let text = check("e1-draw", &dir, "de");
    assert_german(&text, "a missing pull");
    let joined = joined(&text);
    assert_eq!(
        joined.matches("ist nach $05C3 zurückgekehrt").count(),
        1,
        "{text}"
    );
    assert!(
        joined.contains("derselbe Fehler wie bei `Unentschieden erkannt`"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

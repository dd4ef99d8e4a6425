//! The assignment format beyond Viergewinnt: a small exercise ("count the
//! presses of key 0 and print the count on the SCI") with its own reference
//! folder, serial, register, symbol and cycle assertions, a fixed LCD frame,
//! and differential games from a key alphabet.

use hc11lab::grade::{grade_one, Assignment, Submission};
use std::path::Path;

/// The reference: prints "HI", then counts falling edges of key 0 and
/// prints the count as a digit after each.
const REFERENCE: &str = r#"
SCSR    equ     $2E
SCDR    equ     $2F
PIO_B   equ     $8001

        org     $0040
count   ds.b    1
last    ds.b    1

        org     $C000
Start   lds     #$3FFF
        clr     count
        ldaa    #1
        staa    last
        ldx     #msg
hello   ldaa    0,x
        beq     idle
        bsr     send
        inx
        bra     hello
idle    ldaa    PIO_B
        anda    #1
        cmpa    last
        beq     idle
        staa    last
        tsta
        bne     idle            ; RELEASED
        inc     count
        ldaa    count
        adda    #'0'
        bsr     send
        bra     idle
send    brclr   SCSR, #$80, *
        staa    SCDR
        rts
msg     fcc     "HI"
        dc.b    0

        org     $FFFE
        dc.w    Start
"#;

const ASSIGNMENT: &str = r#"
[assignment]
id = "count-keys"
title = "Count key presses"
entry = "Count.asm"
reference = "reference"
required_symbols = ["count"]

[limits]
max_cycles = 2000000

[[check]]
name = "assembles"
kind = "assembles"
points = 1

[[check]]
name = "greets"
kind = "scenario"
points = 1
keys = ""
expect = [
  { serial = "HI" },
  { serial_regex = "^H" },
  { symbol = "count", equals = 0 },
  { register = "sp", equals = 0x3FFF },
  { cycles_at_most = 1000000 },
  { lcd = "frame", frame_file = "blank.txt" },
]

[[check]]
name = "counts three"
kind = "scenario"
points = 2
keys = "0,1,0,0"
feedback = "Count falling edges of key 0 only."
expect = [
  { symbol = "count", equals = 3 },
  { serial_contains = "123" },
  { serial_reference = true },
  { symbol = "count", same_as_reference = true },
]

[[check]]
name = "random keys"
kind = "differential"
points = 4
games = 4
seed = 7
generator = "keys"
alphabet = ["0", "1", "2"]
max_moves = 6
compare_lcd = false
compare = ["count"]
"#;

fn setup(dir: &Path) -> Assignment {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("reference")).unwrap();
    std::fs::write(dir.join("assignment.toml"), ASSIGNMENT).unwrap();
    std::fs::write(dir.join("reference/Count.asm"), REFERENCE).unwrap();
    let blank = vec![".".repeat(128); 64].join("\n");
    std::fs::write(dir.join("blank.txt"), blank).unwrap();
    Assignment::load(dir).unwrap()
}

fn submission(name: &str, text: String) -> Submission {
    let mut files = std::collections::BTreeMap::new();
    files.insert("Count.asm".to_string(), text.into_bytes());
    Submission::from_files(name.into(), name.into(), files, vec![]).unwrap()
}

#[test]
fn exercise_checks_grade_a_correct_and_a_wrong_counter() {
    let dir = std::env::temp_dir().join(format!("hc11lab-grade-exercise-{}", std::process::id()));
    let a = setup(&dir);
    assert_eq!(a.max_score(), 8.0);

    let good = grade_one(&a, &submission("good", REFERENCE.to_string()));
    let failed: Vec<_> = good.checks.iter().filter(|c| !c.passed).collect();
    assert!(failed.is_empty(), "{failed:#?}");
    assert_eq!(good.score, 8.0);

    // Counts the release as well as the press: greets fine, counts wrong.
    let wrong_text = REFERENCE.replace("        bne     idle            ; RELEASED\n", "");
    let wrong = grade_one(&a, &submission("wrong", wrong_text));
    let by = |n: &str| wrong.checks.iter().find(|c| c.name == n).unwrap();
    assert!(by("assembles").passed);
    assert!(by("greets").passed);
    let counts = by("counts three");
    assert!(!counts.passed);
    assert!(
        counts.output.contains("count ($0040) is $06, expected $03"),
        "{}",
        counts.output
    );
    assert!(counts.output.contains("Count falling edges of key 0 only."));
    let games = by("random keys");
    assert!(games.score < 4.0, "{}", games.output);
    assert!(games.output.contains("random games"), "{}", games.output);

    let _ = std::fs::remove_dir_all(&dir);
}

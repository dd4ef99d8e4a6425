//! E8 "contrast from a potentiometer": the reference turns each voltage on
//! AN0 into the contrast the converter's formula gives and sends it to the
//! LCD, scores full marks, the unmodified firmware fails every contrast
//! check (saying what is missing) and still plays the same games, and the
//! grader's new `lcd_volume` assertion refuses bad values clearly.

#[path = "support/exercise.rs"]
mod support;

use support::*;

/// The contrast for `volts` on AN0: the top 6 bits of the ideal 8-bit code
/// round(255 x V / 5 V) (VRL 0 V, VRH 5 V), computed here without the
/// emulator.
fn contrast_for(volts: f64) -> u8 {
    let code = (255.0 * volts / 5.0).round().clamp(0.0, 255.0) as u8;
    code >> 2
}

#[test]
fn e8_reference_sends_the_contrast_of_each_voltage() {
    let entry = solution("e8-contrast").join("Viergewinnt.asm");
    for volts in [0.0, 0.6, 1.2, 2.5, 3.3, 4.0, 5.0] {
        let want = contrast_for(volts);
        let m = run_keys(&entry, &format!("analog:AN0={volts}"));
        assert_eq!(peek_symbol(&m, "contrast", 1), [want], "{volts} V");
        assert_eq!(m.lcd().volume(), want, "{volts} V: the LCD's volume");
    }
    // Nothing driven: AN0 floats at VRH, the highest contrast.
    let m = run_keys(&entry, "");
    assert_eq!(m.lcd().volume(), 63);
    // The scripts' documented values.
    assert_eq!(
        [0.0, 2.5, 5.0, 1.2, 0.6].map(contrast_for),
        [0, 32, 63, 15, 7]
    );
}

#[test]
fn e8_solution_full_marks_original_fails() {
    let (a, g) = grader("e8-contrast");
    let solution = solution("e8-contrast");
    assert_same_as_firmware(
        &solution,
        &[
            "Board.inc",
            "Cursor.inc",
            "Debug.inc",
            "Input.inc",
            "LCDutils.inc",
            "Logic.inc",
            "Utils.inc",
            "Trainer11Register.inc",
        ],
    );
    assert_full(&grade(&a, &g, &solution));

    let r = grade(&a, &g, &firmware());
    let contrast_checks = [
        "contrast at 0 V",
        "contrast at 2.5 V",
        "contrast at 5 V",
        "contrast follows the potentiometer",
        "contrast while playing",
        "contrast after reset",
    ];
    assert_fails(&r, &contrast_checks);
    for name in contrast_checks {
        let c = r.checks.iter().find(|c| c.name == name).unwrap();
        assert!(
            c.output.contains("no symbol `contrast`")
                && c.output.contains("electronic volume is 47 ($2F)"),
            "{name}: the feedback must name the missing variable and the LCD's volume:\n{}",
            describe(&r)
        );
    }
    let same = r
        .checks
        .iter()
        .find(|c| c.name == "the game is unchanged otherwise")
        .unwrap();
    assert!(
        same.passed,
        "random games must play the same on the original:\n{}",
        describe(&r)
    );
    assert!(r.score <= 5.0, "{}", describe(&r));
}

#[test]
fn e8_contrast_sent_only_once_per_change() {
    // The LCD gets $81 and the value at the start and after a change, and
    // nothing while the potentiometer rests: an idle program stays quiet.
    let entry = solution("e8-contrast").join("Viergewinnt.asm");
    let mut s = Session::boot(&entry, hc11lab::script::QUIET_CYCLES);
    let before = s.m.lcd().command_count();
    s.keys("wait:50ms");
    assert_eq!(
        s.m.lcd().command_count(),
        before,
        "no command while resting"
    );
    s.keys("analog:AN0=2.5");
    assert_eq!(s.m.lcd().command_count(), before + 2, "$81 and the value");
    assert_eq!(s.m.lcd().volume(), 32);
    s.keys("analog:AN0=2.51,wait:50ms");
    assert_eq!(
        s.m.lcd().command_count(),
        before + 2,
        "2.51 V gives the same 6 bits: nothing to send"
    );
}

#[test]
fn lcd_volume_mistakes_are_named() {
    let parse = |expect: &str| {
        let text = format!(
            "[assignment]\nid = \"t\"\ntitle = \"T\"\nentry = \"M.asm\"\n[[check]]\nname = \"a\"\nkind = \"scenario\"\npoints = 1\nexpect = [{expect}]\n"
        );
        hc11lab::grade::Assignment::from_toml(&text, std::path::Path::new("."))
    };
    let a = parse("{ lcd_volume = 63 }").unwrap();
    let hc11lab::grade::CheckKind::Scenario(s) = &a.checks[0].kind else {
        panic!("not a scenario")
    };
    assert_eq!(
        s.expect,
        [hc11lab::grade::assignment::Assertion::LcdVolume(63)]
    );
    for (bad, says) in [
        (
            "{ lcd_volume = 64 }",
            "lcd_volume = 64: the LCD's electronic volume is 0..63",
        ),
        (
            "{ lcd_volume = -1 }",
            "lcd_volume = -1: the LCD's electronic volume is 0..63",
        ),
        (
            "{ lcd_volume = 5, equals = 5 }",
            "`equals` does not go with `lcd_volume`",
        ),
        (
            "{ lcd_volume = 5, region = [0, 0, 8, 8] }",
            "`region` does not go with `lcd_volume`",
        ),
        (
            "{ lcd_volume = 5, symbol = \"contrast\" }",
            "name exactly one of",
        ),
        ("{ lcd_volume = \"high\" }", "lcd_volume"),
    ] {
        let e = parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn e8_german_feedback_is_german() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["lesson", "check", "e8-contrast"])
        .arg(firmware())
        .args(["--lang", "de"])
        .env("HC11LAB_LESSONS", root().join("lessons"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // The report wraps long lines at 100 columns.
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains("das Kontrastregister (electronic volume) des LCD ist 47 ($2F), erwartet 32 (das Byte nach einem $81-Kommando)"),
        "{text}"
    );
    assert!(text.contains("Kontrast nach dem Reset"), "{text}");
    for english in ["expected", "after keys", " must ", "keep that name"] {
        assert!(!text.contains(english), "{english:?} in\n{text}");
    }
}

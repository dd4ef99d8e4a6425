//! The assembler on inputs that once hung it or gave wrong values without a
//! word: macros that use themselves or multiply their lines (bounded in
//! lines and time, expanded in time linear in their lines), arithmetic past
//! 64 bits, a division by zero in `.if`, an ASM11 `#if` left open. Large
//! inputs are generated here; each case runs under a deadline, so a hang
//! fails the test instead of stalling it.

#[path = "support/deadline.rs"]
mod deadline;
#[path = "support/lcg.rs"]
mod lcg;

use deadline::{hc11lab_in, scratch, within};
use hc11lab::asm::{assemble_source, AsmOptions, Assembly, Dialect};
use std::time::Duration;

fn opts(dialect: Dialect) -> AsmOptions {
    AsmOptions {
        dialect,
        ..AsmOptions::default()
    }
}

/// Assembles `text` on another thread; panics after `secs` seconds.
fn assemble_within(secs: u64, text: String, opts: AsmOptions) -> Assembly {
    within(secs, move || assemble_source("t.asm", &text, &opts))
}

fn codes(asm: &Assembly) -> Vec<&'static str> {
    asm.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// `m0` is a `nop`; each `mN` uses `m(N-1)` `fan` times; the program uses
/// `m{levels}` once at $1000 (and sets the reset vector).
fn nested(levels: usize, fan: usize) -> String {
    nested_around(" nop", levels, fan)
}

/// [`nested`] with `body` as `m0`'s one line.
fn nested_around(body: &str, levels: usize, fan: usize) -> String {
    let mut src = format!("m0 macro\n{body}\n endm\n");
    for i in 1..=levels {
        src.push_str(&format!("m{i} macro\n"));
        for _ in 0..fan {
            src.push_str(&format!(" m{}\n", i - 1));
        }
        src.push_str(" endm\n");
    }
    src.push_str(&format!(
        " org $1000\nStart m{levels}\n org $FFFE\n dc.w Start\n"
    ));
    src
}

/// A macro that uses itself twice: 2^16 expansions before the depth limit,
/// which took more than 15 minutes.
const SELF_TWICE: &str = "r macro\n nop\n r\n r\n endm\n org $C000\n r\n";

#[test]
fn a_macro_that_uses_itself_twice_stops_at_once_with_one_error() {
    let asm = assemble_within(60, SELF_TWICE.to_string(), opts(Dialect::Asm11));
    assert_eq!(codes(&asm), vec!["E0028"], "{}", asm.render_diagnostics());
    let text = asm.render_diagnostics();
    assert!(
        text.contains("macro `r` expands more than 16 levels deep")
            && text.contains("`r` uses itself")
            && text.contains("used at t.asm:7:2"),
        "{text}"
    );
    // The course dialect tries the file as ASM11 for its hint: no hang there.
    let asm = assemble_within(60, SELF_TWICE.to_string(), opts(Dialect::Course));
    assert!(asm.has_errors());
}

#[test]
fn the_commands_that_assemble_stop_on_a_runaway_macro() {
    let dir = scratch("asm-bounds-cli");
    std::fs::write(dir.join("r.asm"), SELF_TWICE).unwrap();
    for args in [
        vec!["asm", "--dialect", "asm11", "r.asm"],
        vec!["asm", "r.asm"],
        vec!["run", "--dialect", "asm11", "r.asm"],
        vec!["disasm", "r.asm"],
    ] {
        let r = hc11lab_in(&dir, &args, 120);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
    }
    // `lesson check` assembles the submission for its checks (no time
    // limit of its own there).
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join("Viergewinnt.asm"), SELF_TWICE).unwrap();
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let r = hc11lab_in(
        repo,
        &["lesson", "check", "viergewinnt", sub.to_str().unwrap()],
        240,
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fifteen_nested_doublings_assemble_in_linear_time() {
    // 32,768 `nop`s through 65,535 expansions: with each expansion's header
    // placed from the start of the growing expansion text this took 40 to
    // 80 s; it is well under a second now (the deadline only bounds a hang).
    let asm = assemble_within(120, nested(15, 2), opts(Dialect::Asm11));
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    let p = asm.program.expect("program");
    let bytes: usize = p.segments.iter().map(|s| s.bytes.len()).sum();
    assert_eq!(bytes, 32_768 + 2);
    // About 709,000 lines (3^11 comment lines, 265,720 expansions) with the line
    // limit raised: more than four times the lines above, which at the
    // square of the lines would have taken a quarter of an hour.
    let raised = AsmOptions {
        max_expansion_lines: 1_000_000,
        max_expansion_time: Duration::from_secs(600),
        ..opts(Dialect::Asm11)
    };
    let asm = assemble_within(120, nested_around("* nothing", 11, 3), raised);
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    // Messages about expanded lines still name the use in the sources.
    let src = nested_around(" ldaa #$1FF", 15, 2);
    let asm = assemble_within(120, src, opts(Dialect::Asm11));
    let text = asm.render_diagnostics();
    assert!(
        text.contains("expanded from the macro `m15` used at t.asm:")
            && text.contains("(through `m14`,"),
        "{text}"
    );
}

#[test]
fn expansion_stops_at_its_line_limit_naming_the_macro() {
    // Tripling twelve levels deep: 531,441 `nop`s.
    let asm = assemble_within(120, nested(12, 3), opts(Dialect::Asm11));
    let text = asm.render_diagnostics();
    assert!(
        text.contains(
            "expanding the macro `m12` makes more than 250000 lines; expansion stops here"
        ),
        "{text}"
    );
    let limits = AsmOptions {
        max_expansion_lines: 1000,
        ..opts(Dialect::Asm11)
    };
    let asm = assemble_within(60, nested(12, 2), limits);
    let macros = asm
        .files
        .iter()
        .find(|f| f.path.to_string_lossy().ends_with("(macros)"))
        .expect("expansion file");
    assert!(macros.text.lines().count() < 1000 + 40, "bounded");
    assert!(
        asm.render_diagnostics()
            .contains("expanding the macro `m12` makes more than 1000 lines"),
        "{}",
        asm.render_diagnostics()
    );
}

#[test]
fn expansion_stops_at_its_time_limit_naming_the_macro() {
    let limits = AsmOptions {
        max_expansion_time: Duration::ZERO,
        ..opts(Dialect::Asm11)
    };
    let asm = assemble_within(60, nested(10, 2), limits);
    let text = asm.render_diagnostics();
    assert!(
        text.contains("expanding the macro `m10` takes longer than 0.0 s; expansion stops here"),
        "{text}"
    );
}

#[test]
fn arithmetic_past_64_bits_is_an_error_not_a_wrapped_value() {
    for line in [
        " org 65536*65536*65536*65536+$C000",
        "X equ $7FFFFFFFFFFFFFFF+1",
        " dc.w -(1<<63)",
        " ds.b 5000000000*5000000000",
        " .if 3000000000*3000000000*3\n .endif",
    ] {
        let src = format!("{line}\n org $C000\nStart nop\n org $FFFE\n dc.w Start\n");
        let asm = assemble_source("t.asm", &src, &AsmOptions::default());
        let text = asm.render_diagnostics();
        assert_eq!(codes(&asm), vec!["E0006"], "{line}: {text}");
        assert!(text.contains("does not fit in 64 bits"), "{line}: {text}");
    }
    let asm = assemble_source("t.asm", " .if 1/0\n .endif\n", &AsmOptions::default());
    assert_eq!(codes(&asm), vec!["E0021"], "{}", asm.render_diagnostics());
}

#[test]
fn an_open_conditional_is_named_in_the_files_own_spelling() {
    for (dialect, open, close) in [
        (Dialect::Asm11, "#if", "#endif"),
        (Dialect::Asm11, "if", "endif"),
        (Dialect::Course, ".if", ".endif"),
    ] {
        let src = format!(" org $C000\n {open} 1\n nop\n");
        let asm = assemble_source("t.asm", &src, &opts(dialect));
        let text = asm.render_diagnostics();
        assert!(
            text.contains(&format!("this `{open}` has no `{close}`"))
                && text.contains(&format!("add `{close}`")),
            "{text}"
        );
    }
}

/// Macro sources put together from pieces (definitions that use each
/// other, themselves, arguments, conditionals), as the `macro_expansion`
/// fuzz target does with arbitrary bytes: each assembles, within its
/// limits, without a panic.
#[test]
fn random_macro_sources_always_finish_within_their_limits() {
    let pieces = [
        "a macro\n",
        "b macro\n",
        "c macro\n",
        " endm\n",
        " a\n",
        " b\n",
        " c\n",
        " a ~1~,~2~\n",
        " nop\n",
        " ldaa #~1~\n",
        " #if ~1~\n",
        " #endif\n",
        " org $C000\n",
        " fcb ~2~\n",
        "L@@ bra L@@\n",
        " b 1,2\n",
        " c $FFFF*$FFFF*$FFFF*$FFFF*$FFFF\n",
    ];
    let limits = AsmOptions {
        max_expansion_lines: 20_000,
        max_lines: 50_000,
        ..opts(Dialect::Asm11)
    };
    let mut rng = lcg::Lcg(0x6d61_6372_6f73);
    for _ in 0..300 {
        let n = 1 + rng.next(30) as usize;
        let src: String = (0..n)
            .map(|_| pieces[rng.next(pieces.len() as u64) as usize])
            .collect();
        let asm = assemble_within(60, src.clone(), limits.clone());
        if let Some(f) = asm
            .files
            .iter()
            .find(|f| f.path.to_string_lossy().ends_with("(macros)"))
        {
            assert!(f.text.lines().count() <= 20_000 + 40, "{src}");
        }
    }
}

//! cargo-fuzz target: ASM11 macro expansion on arbitrary source text. The
//! bytes are read as a source (each byte above $7F or a control character
//! picks one of a few macro lines, so definitions, self-uses and arguments
//! come up often). Whatever the text, the assembler finishes within its
//! expansion limits: no panic, no hang (libFuzzer's -timeout catches one),
//! the expansion file no longer than the line limit allows.
#![no_main]

use hc11lab::asm::{assemble_source, AsmOptions, Dialect};
use libfuzzer_sys::fuzz_target;
use std::time::Duration;

const PIECES: [&str; 12] = [
    "m macro\n",
    "n macro\n",
    " endm\n",
    " m\n",
    " n\n",
    " m ~1~,~2~\n",
    " n \\1\n",
    " nop\n",
    " #if ~1~\n",
    " #endif\n",
    " org $C000\n",
    " fcb ~1~\n",
];

const MAX_EXPANSION_LINES: usize = 5_000;

fuzz_target!(|data: &[u8]| {
    let mut src = String::new();
    for &b in data {
        if b >= 0x80 || (b < 0x20 && b != b'\n' && b != b'\t') {
            src.push_str(PIECES[usize::from(b) % PIECES.len()]);
        } else {
            src.push(char::from(b));
        }
    }
    let opts = AsmOptions {
        dialect: Dialect::Asm11,
        max_lines: 20_000,
        max_expansion_lines: MAX_EXPANSION_LINES,
        max_expansion_time: Duration::from_secs(2),
        ..AsmOptions::default()
    };
    let asm = assemble_source("fuzz.asm", &src, &opts);
    if let Some(f) = asm
        .files
        .iter()
        .find(|f| f.path.to_string_lossy().ends_with("(macros)"))
    {
        // The limit, plus the comment lines of the uses open when it is met.
        assert!(f.text.lines().count() <= MAX_EXPANSION_LINES + 40);
    }
    let _ = asm.render_diagnostics();
});

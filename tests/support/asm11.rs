//! The ASM11 dialect tests' helpers: a text assembled in `--dialect asm11`
//! and what the tests read of the result.
#![allow(dead_code)] // not every test file that shares this uses each helper

use hc11lab::asm::{assemble_source, AsmOptions, Assembly, Dialect};

/// The assembler's options for `--dialect asm11`.
pub fn options() -> AsmOptions {
    AsmOptions {
        dialect: Dialect::Asm11,
        ..AsmOptions::default()
    }
}

/// `text` assembled as the file `t.asm` in ASM11.
pub fn asm11(text: &str) -> Assembly {
    assemble_source("t.asm", text, &options())
}

/// The codes of the messages, in order.
pub fn codes(asm: &Assembly) -> Vec<&'static str> {
    asm.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// A symbol's value, if the program defines it.
pub fn symbol(asm: &Assembly, name: &str) -> Option<u16> {
    asm.symbols.iter().find(|s| s.name == name).map(|s| s.value)
}

/// Fails with the messages unless there are none.
pub fn clean(asm: &Assembly) {
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
}

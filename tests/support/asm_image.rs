//! The bytes an assembled test program put in memory, for the dialect tests.

use hc11lab::asm::Assembly;

/// The bytes from `from` up to the first address the program does not fill.
pub fn image(asm: &Assembly, from: u16) -> Vec<u8> {
    let p = asm
        .program
        .as_ref()
        .unwrap_or_else(|| panic!("no program:\n{}", asm.render_diagnostics()));
    let mut out = Vec::new();
    let mut a = from;
    while let Some(b) = p.byte_at(a) {
        out.push(b);
        a = a.wrapping_add(1);
        if a == from {
            break;
        }
    }
    out
}

//! AS11's `END`: Motorola's AS11 reads on after it (its pseudo-op table
//! lists END with the ones it ignores), so subroutines written below the
//! `END` line are assembled; its operand still names where the program
//! starts (docs/dialects.md, section as11). The other dialects stop at
//! `END`. The programs were written for this test.

#[path = "support/asm_image.rs"]
mod asm_image;
use asm_image::{assemble, image};
use hc11lab::asm::Dialect;

const BELOW_END: &str = "       ORG   $C000
START  JSR   TWICE
DONE   BRA   DONE
       END   START
* the subroutine the program calls, below END
TWICE  ASLA
       RTS
";

#[test]
fn as11_assembles_the_lines_below_end() {
    let asm = assemble(Dialect::As11, BELOW_END);
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    // jsr $C005, bra *, asla, rts
    assert_eq!(
        image(&asm, 0xC000),
        vec![0xBD, 0xC0, 0x05, 0x20, 0xFE, 0x48, 0x39]
    );
    let program = asm.program.as_ref().expect("program");
    assert_eq!(program.entry, Some(0xC000));
    assert!(program.symbol("TWICE").is_some());
}

#[test]
fn the_course_dialect_still_stops_at_end() {
    let asm = assemble(
        Dialect::Course,
        "       org   $C000\nstart  nop\n       end\n this is no code at all\n",
    );
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(image(&asm, 0xC000), vec![0x01]);
}

#[test]
fn an_error_below_end_is_reported_in_as11() {
    let asm = assemble(
        Dialect::As11,
        "       ORG   $C000\n       NOP\n       END\n       LDAA  NOWHERE\n",
    );
    let codes: Vec<&str> = asm.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, vec!["E0004"], "{}", asm.render_diagnostics());
}

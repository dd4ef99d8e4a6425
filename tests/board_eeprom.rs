//! EEPROM on the `evb`: bytes programmed and erased with
//! the reference manual's PPROG sequences and their 10 ms (20,000 E-cycle)
//! time, exact to the cycle; reads of the array while EELAT is set; plain
//! stores ignored; CONFIG programmed the same way, in effect after reset;
//! a program loaded at $B600 running from EEPROM.

use hc11lab::asm::{assemble_source, AsmOptions};
use hc11lab::board::config::{BoardConfig, BoardSetup};
use hc11lab::machine::{Halt, Machine, StopConditions, StopReason};

fn evb(src: &str) -> Machine {
    let asm = assemble_source("test.asm", src, &AsmOptions::default());
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    let setup = BoardSetup::new(BoardConfig::evb());
    Machine::with_board(asm.program.expect("program"), &setup).expect("loads")
}

fn run_to_halt(m: &mut Machine) {
    let r = m.run_until(&StopConditions::budget(1_000_000));
    assert!(
        matches!(r, StopReason::Halted(Halt::SelfLoop { .. })),
        "stopped: {r}"
    );
}

/// One operation: PPROG = `latch` ($02 program, $16 byte erase, $0E row
/// erase, $06 bulk erase), store A at 0,X, PPROG = `latch`+1 (EEPGM), wait,
/// PPROG = 0. EEPGM's write starts at some cycle T; `ldy #` (4) and `dey /
/// bne` (7 per pass) and `nops` NOPs (2) follow, so `clr PPROG` starts at
/// T + 4 + 4 + 7 * `passes` + 2 * `nops`. Before it, `ldab 0,x` reads the
/// array while EELAT is set (stored at $81); after it, the byte is stored
/// at $80. $B601 gets a plain store first, which must change nothing.
fn sequence(latch: u8, addr: u16, data: u8, passes: u16, nops: usize) -> String {
    format!(
        "\
PPROG   equ $103B
        org $E000
Start   lds #$00FF
        ldaa #$00
        staa $B601      ; a plain store: ignored, not a fault
        ldx #${addr:04X}
        ldaa #${latch:02X}
        staa PPROG      ; EELAT (and the mode bits)
        ldaa #${data:02X}
        staa 0,x        ; address and data latched
        ldab 0,x        ; the array is off the bus
        stab $81
        ldaa #${pgm:02X}
        staa PPROG      ; EEPGM: the pump starts
        ldy #{passes}
dly     dey
        bne dly
{nops}        clr PPROG       ; EEPGM and EELAT off
        ldaa 0,x
        staa $80
done    bra done
        org $B600
        dc.b $F0,$5A,$33
        org $B610
        dc.b $11
        org $FFFE
        dc.w Start
",
        pgm = latch | 1,
        nops = "        nop\n".repeat(nops)
    )
}

#[test]
fn a_byte_programmed_with_the_real_sequence_after_exactly_10_ms() {
    // $B602 holds $33; programming $5A gives $33 AND $5A = $12.
    // 4 + 4 + 7 * 2856 = 20,000 cycles: programmed.
    let mut m = evb(&sequence(0x02, 0xB602, 0x5A, 2856, 0));
    run_to_halt(&mut m);
    assert_eq!(m.peek(0x81), 0xFF, "read while EELAT is set");
    assert_eq!(m.peek(0x80), 0x12);
    assert_eq!(m.peek(0xB602), 0x12);
    assert_eq!(m.peek(0xB601), 0x5A, "the plain store did nothing");
    assert_eq!(m.board().eeprom().operations(), 1);
    // 4 + 4 + 7 * 2855 + 2 * 3 = 19,999 cycles: one short, unchanged.
    let mut m = evb(&sequence(0x02, 0xB602, 0x5A, 2855, 3));
    run_to_halt(&mut m);
    assert_eq!(m.peek(0xB602), 0x33);
    assert_eq!(m.board().eeprom().operations(), 0);
    let (at, short) = m.board().eeprom().last_clear().expect("EEPGM was cleared");
    assert!(short);
    assert!(at > 20_000);
}

#[test]
fn byte_row_and_bulk_erase() {
    // Byte erase ($16) of $B600: only that byte.
    let mut m = evb(&sequence(0x16, 0xB600, 0x00, 2856, 0));
    run_to_halt(&mut m);
    assert_eq!(m.peek_range(0xB600, 3), vec![0xFF, 0x5A, 0x33]);
    assert_eq!(m.peek(0xB610), 0x11);
    // Row erase ($0E) at $B605: the row $B600-$B60F, not $B610.
    let mut m = evb(&sequence(0x0E, 0xB605, 0x00, 2856, 0));
    run_to_halt(&mut m);
    assert_eq!(m.peek_range(0xB600, 3), vec![0xFF; 3]);
    assert_eq!(m.peek(0xB610), 0x11);
    // Bulk erase ($06): the whole array.
    let mut m = evb(&sequence(0x06, 0xB7FF, 0x00, 2856, 0));
    run_to_halt(&mut m);
    assert_eq!(m.peek_range(0xB600, 3), vec![0xFF; 3]);
    assert_eq!(m.peek(0xB610), 0xFF);
    assert_eq!(
        m.config_cell(),
        0x0D,
        "CONFIG is erased only by its own address"
    );
}

/// CONFIG ($103F) takes the same sequence; the new value takes effect at
/// the next reset: NOCOP cleared ($0D -> $09) turns the COP on.
#[test]
fn config_programmed_takes_effect_after_reset() {
    let mut m = evb(&sequence(0x02, 0x103F, 0x09, 2856, 0));
    run_to_halt(&mut m);
    assert_eq!(m.config_cell(), 0x09);
    assert_eq!(m.peek(0x103F), 0x0D, "the running chip keeps its CONFIG");
    assert_eq!(m.board().cop_deadline(), u64::MAX);
    m.reset_button();
    assert_eq!(m.peek(0x103F), 0x09);
    assert_ne!(m.board().cop_deadline(), u64::MAX, "COP on after reset");
    // Erased (byte erase at CONFIG's address): the four cells back to 1.
    let mut m = evb(&sequence(0x16, 0x103F, 0x00, 2856, 0));
    m.set_config_cell(0x08);
    run_to_halt(&mut m);
    assert_eq!(m.config_cell(), 0x0F);
}

/// EEON = 0 in CONFIG takes the EEPROM off the map at the next reset.
#[test]
fn eeon_cleared_unmaps_the_eeprom_after_reset() {
    let mut m = evb(&sequence(0x02, 0x103F, 0x0C, 2856, 0));
    run_to_halt(&mut m);
    assert_eq!(m.peek(0xB600), 0xF0);
    m.reset_button();
    assert_eq!(m.peek(0xB600), 0xFF);
    assert!(!m.board().is_loadable(0xB600));
}

/// A program loaded at $B600 runs from the EEPROM.
#[test]
fn a_program_at_b600_runs_from_eeprom() {
    let src = "\
SCSR    equ $102E
SCDR    equ $102F
        org $B600
Start   lds #$00FF
        ldaa #'E'
wait    ldab SCSR
        bpl wait
        staa SCDR
        ldaa #$A5
        staa $0080
done    bra done
        org $FFFE
        dc.w Start
";
    let mut m = evb(src);
    run_to_halt(&mut m);
    assert_eq!(m.peek(0x80), 0xA5);
    assert_eq!(m.serial_text(), "E");
    let pc = m.registers().pc;
    assert!((0xB600..=0xB7FF).contains(&pc), "halted at ${pc:04X}");
}

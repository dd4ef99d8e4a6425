//! Boards: the built-in `trainer11` keeps its map, `evb` is the
//! chip's reset map with the EVB's memory, board files are checked with
//! file:line errors, INIT moves RAM and registers in the first 64 E-cycles,
//! and the IRQ pin driven at a cycle (`--irq low@N`) interrupts exactly
//! then, level- or edge-sensitive by OPTION.IRQE.

use hc11lab::asm::{assemble_source, AsmOptions};
use hc11lab::board::bench::IrqLine;
use hc11lab::board::config::{BoardConfig, BoardSetup};
use hc11lab::image::Program;
use hc11lab::machine::{Halt, Machine, StopConditions, StopReason};
use std::path::{Path, PathBuf};

fn program(src: &str) -> Program {
    let asm = assemble_source("test.asm", src, &AsmOptions::default());
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    asm.program.expect("program")
}

fn on(board: BoardConfig, src: &str) -> Machine {
    Machine::with_board(program(src), &BoardSetup::new(board)).expect("loads")
}

fn run_to_halt(m: &mut Machine, budget: u64) {
    let r = m.run_until(&StopConditions::budget(budget));
    assert!(
        matches!(r, StopReason::Halted(Halt::SelfLoop { .. })),
        "stopped: {r}"
    );
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/boards")
        .join(name)
}

#[test]
fn trainer11_is_the_default_and_keeps_its_map() {
    let p = program("\torg $C000\nStart\tbra Start\n\torg $FFFE\n\tdc.w Start\n");
    let m = Machine::new(p).expect("loads");
    let b = m.board();
    assert_eq!(b.config(), &BoardConfig::trainer11());
    assert!(b.has_lcd() && b.has_keys() && b.has_serial());
    assert_eq!((b.register_base(), b.internal_ram_base()), (0x0000, 0x0000));
    assert!(!b.is_loadable(0x003F) && b.is_loadable(0x0040) && b.is_loadable(0x7FFF));
    assert!(!b.is_loadable(0x8000) && !b.is_loadable(0xBFFF) && b.is_loadable(0xC000));
    // The load error is word for word what it was before boards existed.
    let err = Machine::new(program("\torg $7FFE\n\tdc.b 1,2,3\n")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "segment at $7FFE puts a byte at $8000, outside RAM ($0040-$7FFF) and program memory \
         ($C000-$FFFF); move its `org`"
    );
}

#[test]
fn evb_map_is_the_chip_after_reset_with_the_evb_memory() {
    let m = on(
        BoardConfig::evb(),
        "\torg $E000\nStart\tbra Start\n\torg $FFFE\n\tdc.w Start\n",
    );
    let b = m.board();
    assert!(!b.has_lcd() && !b.has_keys() && b.has_serial());
    assert_eq!((b.register_base(), b.internal_ram_base()), (0x1000, 0x0000));
    // INIT reads $01, CONFIG $0D (EEPROM on), at their places in $1000.
    assert_eq!((m.peek(0x103D), m.peek(0x103F)), (0x01, 0x0D));
    assert_eq!(m.peek(0x0100), 0xFF, "nothing behind $0100-$0FFF");
    assert_eq!(m.peek(0xB600), 0xFF, "EEPROM erased");
    assert_eq!(m.peek(0xB800), 0xFF);
    assert_eq!(
        b.describe_loadable(),
        "RAM ($0000-$00FF, $C000-$DFFF), EEPROM ($B600-$B7FF) and program memory ($E000-$FFFF)"
    );
    let err = Machine::with_board(
        program("\torg $8000\n\tdc.b 1\n"),
        &BoardSetup::new(BoardConfig::evb()),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "segment at $8000 puts a byte at $8000, outside RAM ($0000-$00FF, $C000-$DFFF), \
         EEPROM ($B600-$B7FF) and program memory ($E000-$FFFF); move its `org`"
    );
}

/// The SCI at $102F as the terminal: the EVB programs' putchar.
#[test]
fn evb_program_sends_text_over_the_sci_at_102f() {
    let src = "\
SCSR    equ $102E
SCDR    equ $102F
        org $C000
Start   lds #$00FF
        ldx #msg
next    ldaa 0,x
        beq done
wait    ldab SCSR
        bpl wait
        staa SCDR
        inx
        bra next
done    bra done
msg     dc.b 'EVB ok',13,10,0
        org $FFFE
        dc.w Start
";
    let mut m = on(BoardConfig::evb(), src);
    run_to_halt(&mut m, 1_000_000);
    assert_eq!(m.serial_text(), "EVB ok\r\n");
}

/// INIT = $00 at cycle 3 moves the registers from $1000 to $0000, over the
/// internal RAM (registers win); the program then uses them there: the SCI
/// at $002F sends, TCNT at $000E counts, RAM at $0040 stores, $102F is
/// nothing any more.
#[test]
fn evb_init_moves_the_registers_and_the_program_uses_them() {
    let src = "
        org $E000
Start   lds #$00FF
        clr $103D       ; INIT = $00: registers to $0000
        ldd $000E       ; TCNT
        std $0080
        ldaa #'R'
wait    brclr $2E,#$80,wait ; SCSR.TDRE, direct mode now
        staa $002F      ; SCDR at its new place
        ldaa #$42
        staa $0040      ; internal RAM above the registers
        ldaa $003D      ; INIT itself, at $003D now
        staa $0082
done    bra done
        org $FFFE
        dc.w Start
";
    let mut m = on(BoardConfig::evb(), src);
    run_to_halt(&mut m, 100_000);
    assert_eq!(m.board().register_base(), 0x0000);
    assert_eq!(m.serial_text(), "R");
    // lds (3) and clr (6): ldd starts at cycle 9.
    assert_eq!(m.peek_word(0x0080), 9);
    assert_eq!(m.peek(0x0040), 0x42);
    assert_eq!(m.peek(0x0082), 0x00);
    assert_eq!(m.peek(0x103D), 0xFF, "nothing at $1000 now");
}

/// INIT = $11 puts RAM and registers at $1000: the registers win over
/// $1000-$103F, the RAM's bytes from $0040 on appear at $1040 with what
/// was loaded into them, and $0000-$00FF is empty.
#[test]
fn init_moves_the_internal_ram_with_its_contents() {
    let src = "
        org $0080
value   dc.b $77
        org $E000
Start   ldaa #$11
        staa $103D
        ldaa $1080      ; the loaded byte, moved
        staa $10C0
done    bra done
        org $FFFE
        dc.w Start
";
    let mut m = on(BoardConfig::evb(), src);
    run_to_halt(&mut m, 100_000);
    assert_eq!(
        (m.board().register_base(), m.board().internal_ram_base()),
        (0x1000, 0x1000)
    );
    assert_eq!(m.peek(0x1080), 0x77);
    assert_eq!(m.peek(0x10C0), 0x77);
    assert_eq!(m.peek(0x0080), 0xFF);
    assert_eq!(m.peek(0x103D), 0x11, "INIT still a register at $103D");
    // The reset button moves the RAM back, with its contents.
    m.reset_button();
    assert_eq!(m.board().internal_ram_base(), 0x0000);
    assert_eq!((m.peek(0x0080), m.peek(0x00C0)), (0x77, 0x77));
}

/// The write must start within the first 64 E-cycles after reset: with k
/// NOPs (2 cycles each) and `ldaa #` (2) before it, `staa INIT` starts at
/// 2k + 2: k = 30 writes at cycle 62 (taken), k = 31 at 64 (ignored).
#[test]
fn init_is_taken_only_in_the_first_64_cycles() {
    for (nops, moved) in [(30, true), (31, false)] {
        let src = format!(
            "        org $E000\nStart\n{}        ldaa #$00\n        staa $103D\ndone    bra done\n        org $FFFE\n        dc.w Start\n",
            "        nop\n".repeat(nops)
        );
        let mut m = on(BoardConfig::evb(), &src);
        run_to_halt(&mut m, 10_000);
        let base = if moved { 0x0000 } else { 0x1000 };
        assert_eq!(m.board().register_base(), base, "{nops} nops");
    }
}

/// The trainer11 takes INIT too: registers to $1000, and $0000-$003F is RAM.
#[test]
fn trainer11_init_moves_registers_and_frees_page_zero() {
    let src = "
        org $C000
Start   ldaa #$01
        staa $3D
        ldaa #$99
        staa $0010      ; RAM now (TOC1 before)
        ldaa $1000      ; PORTA at $1000
        staa $0011
done    bra done
        org $FFFE
        dc.w Start
";
    let p = program(src);
    let mut m = Machine::new(p).expect("loads");
    run_to_halt(&mut m, 10_000);
    assert_eq!(m.board().register_base(), 0x1000);
    assert_eq!(m.peek(0x0010), 0x99);
    // PORTA at reset: outputs PA3-PA6 low, inputs PA0-PA2 and PA7 undriven (1).
    assert_eq!(m.peek(0x0011), 0x87);
}

/// The IRQ pin goes low at cycle 1000 (`--irq low@1000`) and high at 1110.
/// The main loop (`bra`, 3 cycles) has boundaries at 5 + 3k; the first at
/// or after 1000 is 1001. The handler (entry 14, ldaa 3, inca 2, staa 3,
/// rti 12 = 34 cycles) re-enters at once while the pin stays low:
/// level-sensitive (IRQE = 0) at 1001, 1035, 1069, 1103 = 4 times;
/// edge-sensitive (IRQE = 1, set in the first 64 cycles) once: the vector
/// fetch clears the edge latch and the pin staying low does not set it.
#[test]
fn irq_pin_at_a_cycle_level_and_edge() {
    for (irqe, expected) in [(false, 4u8), (true, 1u8)] {
        // OPTION is written only in edge mode (within the first 64 cycles),
        // so the level run has exactly the cycle counts above.
        let option = if irqe {
            "        ldaa #$30       ; IRQE (and DLY as after reset)\n        staa $39\n"
        } else {
            ""
        };
        let src = format!(
            "        org $C000\nStart   lds #$7FFF\n{option}        cli\nloop    bra loop\n\
irq     ldaa $80\n\tinca\n\tstaa $80\n\trti\n\
             \torg $FFF2\n\tdc.w irq\n\torg $FFFE\n\tdc.w Start\n"
        );
        let mut m = Machine::new(program(&src)).expect("loads");
        m.schedule_pin(1000, IrqLine::Irq, true);
        m.schedule_pin(1110, IrqLine::Irq, false);
        // After 1110 nothing can interrupt the loop any more.
        run_to_halt(&mut m, 20_000);
        assert_eq!(m.peek(0x80), expected, "irqe {irqe}");
    }
}

/// The handler's first instruction starts 14 cycles after the entry at the
/// first boundary at or after the pin change: TCNT read there is exact.
#[test]
fn irq_entry_cycle_is_exact() {
    let src = "
        org $C000
Start   lds #$7FFF
        cli
loop    bra loop
irq     ldd $0E
        std $0080
        sei
done    bra done
        org $FFF2
        dc.w irq
        org $FFFE
        dc.w Start
";
    for (at, entry) in [(1000u64, 1001u16), (1001, 1001), (1002, 1004)] {
        let mut m = Machine::new(program(src)).expect("loads");
        m.schedule_pin(at, IrqLine::Irq, true);
        run_to_halt(&mut m, 100_000);
        assert_eq!(m.peek_word(0x80), entry + 14, "low@{at}");
    }
}

#[test]
fn board_files_load_and_errors_name_file_and_line() {
    let evb = BoardConfig::load(&data("evb-like.toml")).expect("example loads");
    let mut expected = BoardConfig::evb();
    expected.name = "evb-like".into();
    expected.description = evb.description.clone();
    assert_eq!(evb, expected);
    let made_up = BoardConfig::load(&data("lab-board.toml")).expect("example loads");
    assert_eq!(made_up.pio, Some(0x4000));
    assert!(made_up.lcd.is_some() && made_up.keys);
    let bad = BoardConfig::load(&data("bad-overlap.toml")).unwrap_err();
    assert_eq!(
        bad.to_string(),
        format!(
            "{}:6: eeprom $B600-$B7FF overlaps ram $8000-$BFFF: give each address to one kind of memory",
            data("bad-overlap.toml").display()
        )
    );
    let missing = BoardConfig::from_spec("nope.toml", Path::new("/nonexistent")).unwrap_err();
    assert!(
        missing
            .to_string()
            .starts_with("/nonexistent/nope.toml: cannot read the board file"),
        "{missing}"
    );
}

/// A made-up board from a file: PIO at $4000 with the keys, LCD select 2,
/// registers at $2000 after reset; a program reads the keys there.
#[test]
fn a_board_file_runs_a_program() {
    let cfg = BoardConfig::load(&data("lab-board.toml")).expect("loads");
    let src = "
        org $F000
Start   ldaa $4001      ; PIO_B: the keys, active low
        staa $0080
        ldaa $203D      ; INIT at the board's register base
        staa $0081
done    bra done
        org $FFFE
        dc.w Start
";
    let mut m = on(cfg, src);
    m.set_key(3, true);
    run_to_halt(&mut m, 10_000);
    assert_eq!(m.peek(0x80), 0b1111_0111);
    assert_eq!(m.peek(0x81), 0x02);
}

/// Every register of the block reads the same through the CPU (`ldaa`
/// extended) as through `--dump` (`Board::peek`), with internal RAM at the
/// same offsets holding something else: at $0000 (trainer11), at $1000
/// (evb after reset) and at $3000 (evb with INIT = $03). TCNT counts while
/// the instruction runs, so its bytes are looked for among the counts between.
#[test]
fn every_register_reads_through_the_cpu_as_through_dump_at_every_base() {
    for (board, init, base) in [
        (BoardConfig::trainer11(), None, 0x0000u16),
        (BoardConfig::evb(), None, 0x1000),
        (BoardConfig::evb(), Some(0x03u8), 0x3000),
    ] {
        let mut src = String::from("        org $C000\nStart\n");
        if let Some(v) = init {
            src.push_str(&format!("        ldaa #${v:02X}\n        staa $103D\n"));
        }
        if base != 0 {
            // Internal RAM at $0000-$003F holds a pattern the registers do not.
            src.push_str(
                "        ldx #0\nfill    ldaa #$A5\n        staa 0,x\n        inx\n        cpx #$40\n        bne fill\n",
            );
        }
        for r in 0..0x40u16 {
            src.push_str(&format!("        ldaa ${:04X}\n", base + r));
        }
        src.push_str("done    bra done\n        org $FFFE\n        dc.w Start\n");
        let mut m = on(board, &src);
        let first = 0xC000 + if init.is_some() { 5 } else { 0 } + if base != 0 { 13 } else { 0 };
        for _ in 0..1000 {
            if m.registers().pc == first {
                break;
            }
            m.step();
        }
        assert_eq!(m.board().register_base(), base);
        let mut tcnt_window = Vec::new();
        for r in 0..0x40u16 {
            let addr = base + r;
            let pc = m.registers().pc;
            let operand = match m.peek(pc) {
                0x96 => u16::from(m.peek(pc + 1)),
                0xB6 => m.peek_word(pc + 1),
                op => panic!("${pc:04X}: opcode ${op:02X}, not ldaa"),
            };
            assert_eq!(operand, addr);
            let dumped = m.peek(addr);
            let before = m.cycles();
            m.step();
            let read = m.registers().a;
            if r == 0x0E {
                // TCNT counts on while `ldaa` runs: what it read lies
                // between, and the low byte is latched for the next read.
                let after = m.peek_word(base + 0x0E);
                let span = (m.cycles() - before) as u16;
                tcnt_window = (0..=span).map(|k| after.wrapping_sub(k)).collect();
                assert!(
                    tcnt_window.iter().any(|w| (w >> 8) as u8 == read),
                    "TCNT high ${addr:04X} read ${read:02X}, counter {tcnt_window:04X?}"
                );
                continue;
            }
            if r == 0x0F {
                assert!(
                    tcnt_window.iter().any(|&w| w as u8 == read),
                    "TCNT low ${addr:04X} read ${read:02X}, latched from {tcnt_window:04X?}"
                );
                continue;
            }
            assert_eq!(
                read, dumped,
                "register ${addr:04X} (offset ${r:02X}) at base ${base:04X}: the CPU read ${read:02X}, --dump shows ${dumped:02X}"
            );
        }
    }
}

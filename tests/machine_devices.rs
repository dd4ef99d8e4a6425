//! Small programs, assembled with hc11lab's assembler, that use the board's
//! devices through the CPU: serial echo (SCI receive and transmit), the
//! real-time interrupt waking WAI, TCNT as a program sees it, an SPI write
//! collision, and the stops a run reports.

use hc11lab::asm::{assemble_source, AsmOptions};
use hc11lab::machine::{Machine, StopConditions, StopReason};
use hc11lab::script::Script;

const REGS: &str = "
PORTA   equ $00
TCNT    equ $0E
TMSK2   equ $24
TFLG2   equ $25
PACTL   equ $26
SPCR    equ $28
SPSR    equ $29
SPDR    equ $2A
SCSR    equ $2E
SCDR    equ $2F
PIO_C   equ $8002
";

fn machine(body: &str) -> Machine {
    let src = format!("{REGS}\n        org $C000\n{body}\n        org $FFFE\n        dc.w Start\n");
    let asm = assemble_source("test.asm", &src, &AsmOptions::default());
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    Machine::new(asm.program.expect("program")).expect("loads")
}

#[test]
fn serial_echo() {
    let mut m = machine(
        "
Start   lds     #$3FFF
loop    brclr   SCSR,#$20,loop      ; wait for RDRF
        ldaa    SCDR
wait    brclr   SCSR,#$80,wait      ; wait for TDRE
        staa    SCDR
        bra     loop",
    );
    m.feed_serial(b"Hi, 68HC11!");
    // 11 frames in, 11 out, 2080 E-cycles each at 9600 Bd.
    let r = m.run_until(&StopConditions::budget(13 * 2080));
    assert_eq!(r, StopReason::CycleBudget);
    assert_eq!(m.serial_text(), "Hi, 68HC11!");
}

#[test]
fn rti_wakes_wai() {
    let mut m = machine(
        "
Start   lds     #$3FFF
        clr     $0100
        ldaa    #$40
        staa    TMSK2           ; RTII
        cli
idle    wai
        bra     idle
rti_isr inc     $0100
        ldaa    #$40
        staa    TFLG2           ; clear RTIF
        rti
        org     $FFF0
        dc.w    rti_isr",
    );
    let r = m.run_until(&StopConditions::budget(100_000));
    assert_eq!(r, StopReason::CycleBudget);
    // RTR = 0: one interrupt every 8192 E-cycles.
    assert_eq!(m.peek(0x0100), (100_000 / 8192) as u8);
}

#[test]
fn tcnt_counts_e_cycles() {
    let mut m = machine(
        "
Start   ldd     TCNT            ; 4 cycles
        std     $0100           ; 5
        nop                     ; 2
        nop                     ; 2
        ldd     TCNT
        std     $0102
        stop",
    );
    // S is set after reset, so STOP is a NOP: the run ends at the budget.
    m.run_until(&StopConditions::budget(200));
    let first = m.peek_word(0x0100);
    let second = m.peek_word(0x0102);
    assert_eq!(second.wrapping_sub(first), 4 + 5 + 2 + 2);
}

#[test]
fn spi_write_collision() {
    let mut m = machine(
        "
Start   ldaa    #$52
        staa    SPCR            ; SPE, MSTR, E/16
        ldaa    PIO_C
        anda    #$3F
        staa    PIO_C           ; select the LCD
        ldaa    #$A6
        staa    SPDR            ; starts a transfer
        staa    SPDR            ; collides
        ldab    SPSR
        stab    $0100           ; WCOL set, SPIF not yet
w       tst     SPSR
        bpl     w
        ldab    SPSR
        stab    $0101
        ldab    SPDR            ; clears SPIF and WCOL
        ldab    SPSR
        stab    $0102
        bra     *",
    );
    m.run_until(&StopConditions::budget(1000));
    assert_eq!(m.peek(0x0100), 0x40, "WCOL");
    assert_eq!(m.peek(0x0101), 0xC0, "SPIF and WCOL");
    assert_eq!(m.peek(0x0102), 0x00, "cleared by SPSR then SPDR");
    assert_eq!(
        m.board().spi_traffic().lcd,
        1,
        "only the first byte went out"
    );
    assert_eq!(m.board().spi().collisions(), 1);
}

#[test]
fn run_stops_on_a_write_to_the_pio_gap_and_names_it() {
    let mut m = machine(
        "
Start   ldaa    #1
        staa    $9000
        bra     *",
    );
    assert_eq!(
        m.run_until(&StopConditions::budget(1000)),
        StopReason::UnmappedWrite {
            addr: 0x9000,
            value: 1,
            pc: 0xC002
        }
    );
}

#[test]
fn busy_program_never_settles() {
    // Writes PORTA forever: the script's actions end, but the program never
    // waits for input, so the run goes to its budget.
    let mut m = machine(
        "
Start   inc     PORTA
        bra     Start",
    );
    let r = m.run_script(&Script::parse_keys("drop").expect("keys"), 100_000_000);
    assert_eq!(r, StopReason::CycleBudget);
    assert!(m.cycles() >= 100_000_000);
}

#[test]
fn keys_script_presses_reach_pio_b() {
    // Copies PIO_B to $0100 whenever it changes from all-up.
    let mut m = machine(
        "
Start   ldaa    $8001
        cmpa    #$FF
        beq     Start
        staa    $0100
        bra     Start",
    );
    let s = Script::parse_file("press 5\nwait:100\nrelease 5\n").expect("script");
    assert_eq!(m.run_script(&s, 10_000_000), StopReason::Settled);
    assert_eq!(m.peek(0x0100), 0b1101_1111);
    assert_eq!(m.keys(), 0);
}

#[test]
fn interrupt_handler_that_only_clears_its_flag_settles() {
    // The RTI handler scans the keys: the program waits for input.
    let mut m = machine(
        "
Start   lds     #$3FFF
        ldaa    #$40
        staa    TMSK2           ; RTII
        cli
idle    wai
        bra     idle
rti_isr ldab    $8001           ; scan the keys (PIO_B)
        ldaa    #$40
        staa    TFLG2           ; clear RTIF: no output, so quiet
        rti
        org     $FFF0
        dc.w    rti_isr",
    );
    assert_eq!(
        m.run_script(&Script::parse_keys("left").expect("keys"), 10_000_000),
        StopReason::Settled
    );
    assert_eq!(m.waiting_on(), Some(hc11lab::board::InputKind::Keys));
}

#[test]
fn interrupt_loop_that_reads_no_input_runs_to_its_budget() {
    // Quiet, but it waits for the timer, not for input: never settled, and
    // not halted either (the RTI ends each WAI).
    let mut m = machine(
        "
Start   lds     #$3FFF
        ldaa    #$40
        staa    TMSK2           ; RTII
        cli
idle    wai
        bra     idle
rti_isr ldaa    #$40
        staa    TFLG2
        rti
        org     $FFF0
        dc.w    rti_isr",
    );
    assert_eq!(
        m.run_script(&Script::parse_keys("left").expect("keys"), 2_000_000),
        StopReason::CycleBudget
    );
}

/// Random bytes as a program: whatever they do to the registers, the PIO,
/// program memory or the stack, the machine neither panics nor hangs.
#[test]
fn random_programs_do_not_break_the_machine() {
    use hc11lab::image::{Program, Segment};
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..40 {
        let mut rom: Vec<u8> = (0..0x4000).map(|_| next() as u8).collect();
        rom[0x3FFE] = 0xC0;
        rom[0x3FFF] = 0x00;
        let program = Program {
            segments: vec![Segment {
                start: 0xC000,
                bytes: rom,
                name: None,
            }],
            ..Program::default()
        };
        let mut m = Machine::new(program).expect("loads");
        m.feed_serial(b"xyz");
        m.set_key(0, true);
        let stop = StopConditions {
            on_illegal: false,
            on_rom_write: false,
            on_unmapped_write: false,
            ..StopConditions::budget(200_000)
        };
        let r = m.run_until(&stop);
        assert!(
            matches!(r, StopReason::CycleBudget | StopReason::Halted(_)),
            "{r:?}"
        );
        // Views work on whatever state it left.
        assert_eq!(m.lcd_text().len(), 64);
        assert!(!m.board().registers().is_empty());
    }
}

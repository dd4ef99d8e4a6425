//! `run_until`'s hot loop tests neither the run state nor for a pending
//! interrupt while the CPU runs with X and I set: the instructions that
//! unmask (CLI, TAP, RTI) or stop it (WAI, STOP) ask the board for
//! attention. Each program here spins with I set while the real-time
//! interrupt becomes pending, then unmasks one way; `run_until` (in uneven
//! slices) must end every slice exactly where stepping one instruction at
//! a time does, with the same CPU, counts and memory. The debugger's
//! hooked run (its fast path) skips the same tests and must match its
//! slow path, which observes every step.

use hc11lab::asm::{assemble_source, AsmOptions};
use hc11lab::debug::session::Debugger;
use hc11lab::machine::{Machine, StopConditions, StopReason};

/// The RTI handler counts in $0101, notes at its first entry in $0103 how
/// many of the 40 `inc $0102` after `unmask` had run, and clears RTIF;
/// `unmask` runs once RTIF is set (the interrupt is pending), the loop
/// before it counting in $0100.
fn program(unmask: &str) -> Machine {
    let incs = "        inc     $0102\n".repeat(40);
    let src = format!(
        "
TMSK2   equ $24
TFLG2   equ $25
        org $C000
Start   lds     #$3FFF
        ldaa    #$40            ; RTII: the real-time interrupt enabled
        staa    TMSK2
loop    inc     $0100
        brclr   TFLG2,#$40,loop ; until RTIF: the interrupt is pending
{unmask}
after
{incs}
spin    bra     spin
Isr     ldab    $0101
        bne     counted
        ldaa    $0102
        staa    $0103
counted inc     $0101
        ldaa    #$40
        staa    TFLG2
        rti
        org $FFF0
        dc.w Isr
        org $FFFE
        dc.w Start
"
    );
    let asm = assemble_source("masks.asm", &src, &AsmOptions::default());
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    Machine::new(asm.program.expect("program")).expect("loads")
}

/// Runs `a` with `run_until` and `b` one `step` at a time to the same
/// budgets and requires the same machines after each; `before` of the
/// `inc`s after `unmask` run before the interrupt is taken.
fn compare(unmask: &str, total: u64, before: u8) {
    let mut a = program(unmask);
    let mut b = a.clone();
    let mut size = 311;
    while a.cycles() < total {
        let end = a.cycles() + size;
        let r = a.run_until(&StopConditions::budget(size));
        assert_eq!(r, StopReason::CycleBudget, "{unmask}");
        while b.cycles() < end {
            b.step();
        }
        assert_eq!(a.cycles(), b.cycles(), "{unmask}: cycles");
        assert_eq!(a.cpu(), b.cpu(), "{unmask}: CPU at cycle {}", a.cycles());
        assert_eq!(a.instructions(), b.instructions(), "{unmask}: instructions");
        assert_eq!(a.peek_range(0x0100, 4), b.peek_range(0x0100, 4), "{unmask}");
        size = (size * 7 + 13) % 4001 + 1;
    }
    // The handler ran, first right after the unmasking.
    assert!(
        a.peek(0x0101) > 2,
        "{unmask}: {:?}",
        a.peek_range(0x0100, 4)
    );
    assert_eq!(
        a.peek(0x0103),
        before,
        "{unmask}: incs before the interrupt"
    );
    debugger_paths_agree(unmask, total);
}

/// The debugger's fast path and its slow path, run to the same budgets.
fn debugger_paths_agree(unmask: &str, total: u64) {
    let mut fast = Debugger::new(program(unmask));
    let mut slow = Debugger::new(program(unmask));
    fast.set_history_budget(None);
    slow.set_history_budget(None);
    slow.set_fast_path(false);
    let mut size = 977;
    while fast.target().cycles() < total {
        for d in [&mut fast, &mut slow] {
            d.max_cycles = size;
            d.run();
        }
        let (f, s) = (fast.target(), slow.target());
        assert_eq!(f.cycles(), s.cycles(), "{unmask}: debugger cycles");
        assert_eq!(f.cpu(), s.cpu(), "{unmask}: debugger CPU at {}", f.cycles());
        assert_eq!(f.instructions(), s.instructions(), "{unmask}");
        assert_eq!(f.peek_range(0x0100, 4), s.peek_range(0x0100, 4), "{unmask}");
        size = (size * 5 + 7) % 6007 + 1;
    }
    assert_eq!(fast.target().peek(0x0103), slow.target().peek(0x0103));
}

#[test]
fn cli_unmasks_at_its_cycle() {
    // The CLI delay: one instruction runs first.
    compare("        cli", 200_000, 1);
}

#[test]
fn tap_unmasks_at_its_cycle() {
    // X stays set, I clears.
    compare("        ldaa    #$40\n        tap", 200_000, 1);
}

#[test]
fn rti_unmasks_at_its_cycle() {
    // A frame of its own: CCR with I clear, then B, A, X, Y, PC (`after`,
    // the first `inc`).
    compare(
        "        ldx     #after
        pshx
        ldx     #0
        pshx
        pshx
        clra
        psha
        psha
        ldaa    #$40
        psha
        rti",
        200_000,
        0,
    );
}

#[test]
fn wai_waits_at_its_cycle() {
    // Unmasked, WAI waits for the next real-time interrupt each time; the
    // pending one comes after the instruction behind CLI, the WAI.
    compare(
        "        cli\nwloop   wai\n        bra     wloop",
        200_000,
        0,
    );
}

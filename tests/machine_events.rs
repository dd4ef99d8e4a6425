//! Steps with something to report (SWI, an illegal opcode's trap, a write
//! the board refuses) ask for attention, so the debugger's quick stretch,
//! which looks at a step's event and the board's fault only when time
//! reaches a device event, still sees each one (`run_until`'s hot loop
//! looks at both after every step: its test here keeps it exact). The
//! program runs with X and I set all the time (the loops' quickest way)
//! and makes each kind of step over and over; runs in uneven slices must
//! end exactly where stepping one instruction at a time does, with the
//! same CPU, counts and memory, and the debugger's fast path where its
//! slow path does. An event taken for an ordinary step would be counted
//! as an instruction (a trap is not one) and a refused write would go
//! unnoticed (the run stops on it by default).

use hc11lab::asm::{assemble_source, AsmOptions};
use hc11lab::debug::session::Debugger;
use hc11lab::machine::{Machine, StopConditions, StopReason};

/// Counts passes in $0100, SWIs in $0101 (the handler), traps in $0102
/// (the handler steps the stacked PC over the illegal byte), and writes
/// into ROM at $E000 every pass.
const SOURCE: &str = "
        org $C000
Start   lds     #$3FFF
loop    inc     $0100
        swi
        fcb     $41             ; illegal: trapped through $FFF8
        staa    $E000           ; program memory: refused
        ldab    $0100
        andb    #3
        bne     loop
        nop
        bra     loop
Swi     inc     $0101
        rti
Trap    inc     $0102
        tsx
        ldd     7,x             ; the stacked PC: the illegal byte
        addd    #1
        std     7,x
        rti
        org $FFF6
        dc.w Swi
        dc.w Trap
        org $FFFE
        dc.w Start
";

fn program() -> Machine {
    let asm = assemble_source("events.asm", SOURCE, &AsmOptions::default());
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    Machine::new(asm.program.expect("program")).expect("loads")
}

/// Budget-only stops: the CPU takes the illegal opcode's trap, a refused
/// write is not stored, and the run goes on.
fn budget(cycles: u64) -> StopConditions {
    let mut stop = StopConditions::budget(cycles);
    stop.on_illegal = false;
    stop.on_rom_write = false;
    stop
}

fn same(a: &Machine, b: &Machine, what: &str) {
    assert_eq!(a.cycles(), b.cycles(), "{what}: cycles");
    assert_eq!(a.cpu(), b.cpu(), "{what}: CPU at cycle {}", a.cycles());
    assert_eq!(a.instructions(), b.instructions(), "{what}: instructions");
    assert_eq!(a.peek_range(0x0100, 3), b.peek_range(0x0100, 3), "{what}");
}

#[test]
fn run_until_sees_every_event_and_refused_write() {
    let mut a = program();
    let mut b = a.clone();
    let mut size = 97;
    while a.cycles() < 150_000 {
        let end = a.cycles() + size;
        assert_eq!(a.run_until(&budget(size)), StopReason::CycleBudget);
        while b.cycles() < end {
            b.step();
        }
        same(&a, &b, "run_until");
        size = (size * 7 + 13) % 1601 + 1;
    }
    let passes = a.peek(0x0100);
    assert!(passes > 20, "{:?}", a.peek_range(0x0100, 3));
    // Every pass took one SWI and one trap (the last may be under way).
    for counter in [0x0101, 0x0102] {
        assert!(passes.wrapping_sub(a.peek(counter)) <= 1, "${counter:04X}");
    }
    assert_eq!(a.peek(0xE000), program().peek(0xE000), "ROM unchanged");
}

#[test]
fn a_run_stops_before_each_refused_write() {
    let mut m = program();
    let mut reference = program();
    let store = m.program().symbol("loop").expect("loop").value + 5;
    let mut stop = budget(1_000_000);
    stop.on_rom_write = true;
    for n in 0..5 {
        let r = m.run_until(&stop);
        let StopReason::RomWrite { addr, pc, .. } = r else {
            panic!("stop {n}: {r:?}");
        };
        assert_eq!((addr, pc), (0xE000, store), "stop {n}");
        assert_eq!(m.cpu().regs.pc, store, "stop {n}: before the write");
        // Stepping reaches the same instruction with the same state.
        while reference.cpu().regs.pc != store || reference.instructions() < m.instructions() {
            reference.step();
        }
        same(&m, &reference, &format!("stop {n}"));
        reference.step();
    }
}

#[test]
fn the_debugger_paths_agree_on_every_event() {
    let mut fast = Debugger::new(program());
    let mut slow = Debugger::new(program());
    for d in [&mut fast, &mut slow] {
        d.set_history_budget(None);
    }
    slow.set_fast_path(false);
    let mut size = 211;
    let mut stops = 0;
    while fast.target().cycles() < 100_000 {
        let mut reasons = Vec::new();
        for d in [&mut fast, &mut slow] {
            d.max_cycles = size;
            reasons.push(format!("{:?}", d.run()));
        }
        assert_eq!(
            reasons[0],
            reasons[1],
            "stop at cycle {}",
            fast.target().cycles()
        );
        stops += usize::from(reasons[0].contains("BadWrite"));
        same(fast.target(), slow.target(), "debugger");
        size = (size * 5 + 7) % 2003 + 1;
    }
    assert!(stops > 5, "the refused writes stopped the runs ({stops})");
}

//! The core benchmark's programs (`benches/programs/cpu_*.asm`) run the
//! same on the bare core and on the trainer11 board: `cargo bench --bench
//! cpu` times both legs and `hc11lab run` takes the board's path, so the two
//! must end at the same cycle, instruction count, registers and memory.
//! A fault in the board's direct memory path, the run loop's bookkeeping or
//! its fast-forward would show here as a difference.

use hc11lab::asm::{assemble_file, AsmOptions};
use hc11lab::cpu::{Cpu, RamBus, StepEvent};
use hc11lab::image::Program;
use hc11lab::machine::{Machine, StopConditions, StopReason};
use std::path::Path;

/// E-cycles each program runs (about 400,000 instructions).
const BUDGET: u64 = 2_000_000;

fn program(name: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/programs")
        .join(format!("cpu_{name}.asm"));
    let asm = assemble_file(&path, &AsmOptions::default());
    match asm.program {
        Some(p) => p,
        None => panic!("{}", asm.render_diagnostics()),
    }
}

fn same_on_core_and_board(name: &str) {
    let p = program(name);

    let mut bus = RamBus::new();
    for s in &p.segments {
        bus.load(s.start, &s.bytes);
    }
    let mut cpu = Cpu::new();
    cpu.reset(&mut bus);
    let mut instructions = 0u64;
    while cpu.cycles < BUDGET {
        assert_eq!(
            cpu.step(&mut bus).event,
            StepEvent::None,
            "{name} never traps"
        );
        instructions += 1;
    }

    let mut m = Machine::new(p).expect("loads on the trainer11");
    let stop = m.run_until(&StopConditions::budget(BUDGET));
    assert_eq!(stop, StopReason::CycleBudget, "{name}");
    assert_eq!(m.cycles(), cpu.cycles, "{name}: cycles");
    assert_eq!(m.instructions(), instructions, "{name}: instructions");
    assert_eq!(m.registers(), cpu.regs, "{name}: registers");
    for (start, len) in [
        (0x0040u16, 0x10usize),
        (0x01E0, 0x20),
        (0x2000, 0x100),
        (0x3000, 0x100),
    ] {
        let core: Vec<u8> = (0..len).map(|i| bus.mem[start as usize + i]).collect();
        assert_eq!(
            m.peek_range(start, len),
            core,
            "{name}: memory at ${start:04X}"
        );
    }
}

#[test]
fn the_mixed_program_runs_the_same_on_core_and_board() {
    same_on_core_and_board("mixed");
}

#[test]
fn the_plain_program_runs_the_same_on_core_and_board() {
    same_on_core_and_board("plain");
}

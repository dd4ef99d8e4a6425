//! CPU core throughput: emulated instructions and E-cycles per second for
//! two CPU-bound 68HC11 programs, first on a flat RamBus (the core alone),
//! then on the trainer11 board through `Machine::run_until`, the path
//! `hc11lab run` takes (memory map, devices, stop rules, fast-forward).
//! The board leg assembles `benches/programs/cpu_*.asm` with hc11lab's own
//! assembler and checks that the bytes are the ones below (encoded by GNU
//! m68hc11-as), so `time hc11lab run benches/programs/cpu_plain.asm
//! --max-cycles 500000000` runs the very same program. Both legs must end
//! with the same cycle and instruction counts (exact to the cycle).
//!
//! Run with `cargo bench --no-default-features --bench cpu`.
//! `HC11_BENCH_CYCLES` sets the E-cycle budget per program and leg
//! (default 1e9, about 8 minutes of a 2 MHz board). Goal: at least 1,000 M
//! E-cycles per second.

use hc11lab::asm::{assemble_file, AsmOptions};
use hc11lab::cpu::{Cpu, RamBus, StepEvent};
use hc11lab::machine::{Machine, StopConditions, StopReason};
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

/// Mixed arithmetic: indexed loads/stores through X and Y, ADDD, JSR/RTS,
/// MUL, IDIV, BSET/BRCLR, a direct-page loop counter. Assembled with
/// m68hc11-as and linked at $C000:
///
/// ```text
/// start:  lds   #$01FF          outer:  ldx   #$2000
///         ldy   #$3000                  ldab  #64
///         stab  $40             loop:   ldaa  0,x
///         adda  #3                      staa  0,x
///         ldaa  1,y                     eora  #$55
///         staa  1,y                     ldd   2,x
///         addd  #$0101                  std   2,y
///         jsr   sub                     bset  5,x,#$01
///         brclr 6,y,#$80,skip           clr   6,y
/// skip:   inx                           iny
///         dec   $0040                   bne   loop
///         bra   outer
/// sub:    pshx                          ldaa  0,x
///         ldab  #7                      mul
///         ldx   #13                     idiv
///         xgdx                          pulx
///         std   4,x                     cpd   #$1000
///         bls   s1                      ldd   #0
/// s1:     rts
/// ```
#[rustfmt::skip]
const MIXED: &[u8] = &[
    0x8e, 0x01, 0xff, 0xce, 0x20, 0x00, 0x18, 0xce, 0x30, 0x00, 0xc6, 0x40,
    0xd7, 0x40, 0xa6, 0x00, 0x8b, 0x03, 0xa7, 0x00, 0x18, 0xa6, 0x01, 0x88,
    0x55, 0x18, 0xa7, 0x01, 0xec, 0x02, 0xc3, 0x01, 0x01, 0x18, 0xed, 0x02,
    0xbd, 0xc0, 0x3c, 0x1c, 0x05, 0x01, 0x18, 0x1f, 0x06, 0x80, 0x03, 0x18,
    0x6f, 0x06, 0x08, 0x18, 0x08, 0x7a, 0x00, 0x40, 0x26, 0xd4, 0x20, 0xc7,
    0x3c, 0xa6, 0x00, 0xc6, 0x07, 0x3d, 0xce, 0x00, 0x0d, 0x02, 0x8f, 0x38,
    0xed, 0x04, 0x1a, 0x83, 0x10, 0x00, 0x23, 0x03, 0xcc, 0x00, 0x00, 0x39,
];

/// Firmware-like: copying and bit tests through X and Y, stack traffic,
/// a short subroutine, CPX loop; no MUL/IDIV (about 4 cycles per instruction).
///
/// ```text
/// start:  lds   #$01FF
/// outer:  ldx   #$2000          ldy   #$3000
/// loop:   ldaa  0,x             staa  0,y
///         inca                  staa  1,x
///         brset 0,x,#$01,odd    bclr  2,y,#$01
/// odd:    ldd   4,x             std   4,y
///         pshx                  pulx
///         jsr   sub2            inx
///         iny                   cpx   #$2064
///         bne   loop            bra   outer
/// sub2:   psha                  pula
///         rts
/// ```
#[rustfmt::skip]
const PLAIN: &[u8] = &[
    0x8e, 0x01, 0xff, 0xce, 0x20, 0x00, 0x18, 0xce, 0x30, 0x00, 0xa6, 0x00,
    0x18, 0xa7, 0x00, 0x4c, 0xa7, 0x01, 0x1e, 0x00, 0x01, 0x04, 0x18, 0x1d,
    0x02, 0x01, 0xec, 0x04, 0x18, 0xed, 0x04, 0x3c, 0x38, 0xbd, 0xc0, 0x2e,
    0x08, 0x18, 0x08, 0x8c, 0x20, 0x64, 0x26, 0xde, 0x20, 0xd5, 0x36, 0x32,
    0x39,
];

/// Nanoseconds this thread has run on a CPU (Linux `/proc/thread-self/schedstat`),
/// so the figures stay meaningful when other processes share the cores.
fn cpu_time_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Prints one measurement line: `leg` is `cpu` (RamBus) or `board`.
fn report(leg: &str, name: &str, label: &str, secs: f64, instructions: u64, cycles: u64) {
    println!(
        "{leg}/{name:<6} {label:<8} {secs:>6.2} s  {:>6.1} M instructions/s  {:>6.1} M E-cycles/s  ({:.0}x a 2 MHz 68HC11)",
        instructions as f64 / secs / 1e6,
        cycles as f64 / secs / 1e6,
        cycles as f64 / secs / 2e6,
    );
}

/// Wall and on-CPU seconds since `start` / `cpu_start`.
fn elapsed(start: Instant, cpu_start: Option<u64>) -> (f64, f64) {
    let wall = start.elapsed().as_secs_f64();
    let on_cpu = match (cpu_start, cpu_time_ns()) {
        (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
        _ => wall,
    };
    (wall, on_cpu)
}

/// The core alone on a flat RamBus; returns (cycles, instructions).
fn bench(name: &str, code: &[u8], budget: u64) -> (u64, u64) {
    let mut bus = RamBus::new();
    bus.load(0xC000, code);
    bus.set_word(0xFFFE, 0xC000);
    let mut cpu = Cpu::new();
    cpu.reset(&mut bus);
    let mut instructions = 0u64;
    let start = Instant::now();
    let cpu_start = cpu_time_ns();
    let mut events = 0u64;
    while cpu.cycles < budget {
        // A machine loop looks at the event of every step; so does this one,
        // and it runs the core inlined as `Machine::run_until` does.
        if cpu.step_inline(&mut bus).event != StepEvent::None {
            events += 1;
        }
        instructions += 1;
    }
    assert_eq!(events, 0, "the benchmark programs never trap or wait");
    let (wall, on_cpu) = elapsed(start, cpu_start);
    report("cpu", name, "wall", wall, instructions, cpu.cycles);
    report("cpu", name, "on-CPU", on_cpu, instructions, cpu.cycles);
    println!(
        "cpu/{name:<6} {} E-cycles, {instructions} instructions, {:.2} cycles/instruction",
        cpu.cycles,
        cpu.cycles as f64 / instructions as f64
    );
    black_box(&bus.mem[0x2000..0x2100]);
    (cpu.cycles, instructions)
}

/// The same program from its source on the trainer11 board, run as
/// `hc11lab run --max-cycles BUDGET` runs it; returns (cycles, instructions).
fn bench_board(name: &str, code: &[u8], budget: u64) -> (u64, u64) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/programs")
        .join(format!("cpu_{name}.asm"));
    let asm = assemble_file(&path, &AsmOptions::default());
    let Some(program) = asm.program else {
        panic!("{}", asm.render_diagnostics());
    };
    let text = program
        .segments
        .iter()
        .find(|s| s.start == 0xC000)
        .expect("code at $C000");
    assert_eq!(
        text.bytes,
        code,
        "{} assembles to the GNU bytes",
        path.display()
    );
    let mut m = Machine::new(program).expect("loads on the trainer11");
    let start = Instant::now();
    let cpu_start = cpu_time_ns();
    let reason = m.run_until(&StopConditions::budget(budget));
    let (wall, on_cpu) = elapsed(start, cpu_start);
    assert_eq!(reason, StopReason::CycleBudget);
    report("board", name, "wall", wall, m.instructions(), m.cycles());
    report(
        "board",
        name,
        "on-CPU",
        on_cpu,
        m.instructions(),
        m.cycles(),
    );
    (m.cycles(), m.instructions())
}

fn main() {
    let budget = std::env::var("HC11_BENCH_CYCLES")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .map(|v| v as u64)
        .unwrap_or(1_000_000_000);
    for (name, code) in [("mixed", MIXED), ("plain", PLAIN)] {
        let core = bench(name, code, budget);
        let board = bench_board(name, code, budget);
        assert_eq!(
            core, board,
            "{name}: the board runs the core's cycles and instructions"
        );
    }
}

//! Emulator speed on the trainer11 board with the bundled Viergewinnt
//! firmware: E-cycles per second while the game idles in `mainLoop` (PIO_B
//! polled every pass, timer and SCI state live) and while a key script plays
//! a game (SPI and LCD busy). Goal: at least 100 million E-cycles per second.
//!
//! Run: `cargo bench --bench board`. Wall-clock time is what counts; the CPU
//! time of the process (from /proc/self/schedstat, Linux) is printed too, so
//! a figure taken on a busy machine can be judged.

use hc11lab::machine::{Machine, StopConditions, StopReason};
use hc11lab::script::Script;
use std::time::Instant;

/// Nanoseconds this thread has run on a CPU, if the kernel tells.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn report(name: &str, cycles: u64, wall: f64, cpu: Option<f64>) {
    let per_wall = cycles as f64 / wall / 1e6;
    match cpu {
        Some(c) => println!(
            "{name:<28} {cycles:>12} E-cycles  {wall:>7.3} s  {per_wall:>7.1} M E-cycles/s wall  {:>7.1} M/s CPU time",
            cycles as f64 / c / 1e6
        ),
        None => println!("{name:<28} {cycles:>12} E-cycles  {wall:>7.3} s  {per_wall:>7.1} M E-cycles/s"),
    }
}

fn measure(name: &str, f: impl FnOnce() -> u64) {
    let c0 = cpu_ns();
    let t = Instant::now();
    let cycles = f();
    let wall = t.elapsed().as_secs_f64();
    let cpu = c0.and_then(|c0| Some((cpu_ns()? - c0) as f64 / 1e9));
    report(name, cycles, wall, cpu);
}

fn main() {
    let asm = hc11lab::firmware::assemble();
    let Some(program) = asm.program else {
        eprintln!("{}", asm.render_diagnostics());
        std::process::exit(1);
    };
    let mut booted = Machine::new(program).expect("firmware loads");
    assert_eq!(
        booted.run_script(&Script::empty(), 10_000_000),
        StopReason::Settled
    );

    let game = Script::parse_keys(
        "drop,right,drop,left,left,drop,right,drop,drop,right,right,drop,left,drop,\
         left,left,left,drop,right,drop,reset",
    )
    .expect("script");
    // Fast-forward over polling loops off (every instruction emulated) and
    // on (the default); the results are equal, see tests/machine_fastforward.rs.
    for ff in [false, true] {
        let tag = if ff { "ff on" } else { "ff off" };
        let mut m = booted.clone();
        m.set_fast_forward(ff);
        measure(&format!("idle in mainLoop, {tag}"), || {
            let c0 = m.cycles();
            let r = m.run_until(&StopConditions::budget(400_000_000));
            assert_eq!(r, StopReason::CycleBudget);
            m.cycles() - c0
        });

        measure(&format!("scripted game (x10), {tag}"), || {
            let mut cycles = 0;
            for _ in 0..10 {
                let mut m = booted.clone();
                m.set_fast_forward(ff);
                let c0 = m.cycles();
                assert_eq!(m.run_script(&game, 1_000_000_000), StopReason::Settled);
                cycles += m.cycles() - c0;
            }
            cycles
        });
    }
    // Keep the booted machine alive to the end (clones above).
    booted.reset();
}

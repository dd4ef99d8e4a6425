//! Debugger overhead: E-cycles per second of the bare core, of a Debugger
//! without provenance, with snapshots, and with provenance tracking, on a
//! CPU-bound loop shaped like drawCell (load, or, store, jsr/rts, indexing),
//! then the same on the Viergewinnt firmware on the trainer11 machine, and
//! reverse execution across a run of 100 million cycles, a game to the
//! end of its key script on each of the debugger's paths, and a step over
//! a long call.
//! Run: `cargo bench --no-default-features --bench debug`.
//!
//! What each section says:
//! - the CPU-bound loop and the firmware (40 M E-cycles each): E-cycles per
//!   second of the bare core, `Machine::run_until`, and the debugger without
//!   history, with snapshots, with a watchpoint and with provenance (its
//!   question timed too, since provenance is tracked when asked), then the
//!   time of one step back;
//! - a game to the end of its key script (best of 15): each way of running
//!   it as a ratio to a plain `run_until`: the debugger's fast path
//!   (`Machine::run_hooked`, breakpoints and the profile kept as always), a
//!   conditional breakpoint inside the key-polling loop, the slow path
//!   (`set_fast_path(false)`), provenance recorded and then asked, and
//!   watchpoints on the board's cells and on `coordy`, going on at each
//!   stop as a user does;
//! - reverse execution across a run of 100 M E-cycles: 16 random jumps,
//!   each compared with a copy of the machine kept on the way forward
//!   (`exact` counts those equal), and 100 steps back;
//! - step over `jsr setStone` (about 259,000 E-cycles) on both paths,
//!   against `run_until` for the same cycles.
//!
//! Figures move with the build's code layout and with the load of the
//! machine as much as with the code: compare two builds by running their
//! bench binaries alternately in the same minutes.

use hc11lab::asm::{assemble_file, AsmOptions};
use hc11lab::cpu::{Cpu, RamBus};
use hc11lab::debug::session::Debugger;
use hc11lab::debug::session::Reason;
use hc11lab::debug::target::{Bare, Target};
use hc11lab::machine::{Machine, StopConditions};
use hc11lab::script::Script;
use std::path::Path;
use std::time::Instant;

#[rustfmt::skip]
const CODE: &[u8] = &[
    0x8E, 0x3F, 0xFF,       // C000 lds #$3FFF
    0xCE, 0x00, 0x40,       // C003 ldx #$0040
    0x18, 0xCE, 0x02, 0x00, // C006 ldy #$0200
    0xC6, 0x80,             // C00A ldab #$80
    0xA6, 0x00,             // C00C ldaa 0,x
    0x8A, 0x18,             // C00E oraa #$18
    0x18, 0xA7, 0x00,       // C010 staa 0,y
    0xBD, 0xC0, 0x20,       // C013 jsr sub
    0x08,                   // C016 inx
    0x18, 0x08,             // C017 iny
    0x5A,                   // C019 decb
    0x26, 0xF0,             // C01A bne C00C
    0x20, 0xE5,             // C01C bra C003
    0x01, 0x01,             // C01E
    0x36,                   // C020 sub: psha
    0xAB, 0x01,             // C021 adda 1,x
    0x97, 0x30,             // C023 staa $30
    0x32,                   // C025 pula
    0x39,                   // C026 rts
];

const CYCLES: u64 = 40_000_000;

fn report(name: &str, cycles: u64, secs: f64) {
    println!(
        "{name:<44} {:>8.1} M E-cycles/s ({:.2} s for {} M cycles)",
        cycles as f64 / secs / 1e6,
        secs,
        cycles / 1_000_000
    );
}

fn main() {
    // Baseline: the core on a flat RAM, no debugger.
    let mut bus = RamBus::new();
    bus.load(0xC000, CODE);
    bus.set_word(0xFFFE, 0xC000);
    let mut cpu = Cpu::new();
    cpu.reset(&mut bus);
    let t = Instant::now();
    while cpu.cycles < CYCLES {
        cpu.step(&mut bus);
    }
    report(
        "bare core (Cpu::step on RamBus)",
        cpu.cycles,
        t.elapsed().as_secs_f64(),
    );

    let configs: [(&str, bool, bool, bool); 4] = [
        ("debugger, no history, no provenance", false, false, false),
        ("debugger + history (64 MiB)", true, false, false),
        ("debugger + history + watchpoint", true, false, true),
        ("debugger + history + provenance, asked", true, true, false),
    ];
    for (name, history, prov, watch) in configs {
        let mut d = Debugger::new(Bare::from_bytes(0xC000, CODE));
        if !history {
            d.set_history_budget(None);
        }
        d.set_provenance(prov);
        if watch {
            d.add_watchpoint("change $7000").expect("watch spec");
        }
        d.max_cycles = CYCLES;
        let t = Instant::now();
        let stop = d.run();
        if prov {
            // Provenance is tracked when asked: the question is timed too.
            d.explain_address(0x7000).expect("provenance on");
        }
        let secs = t.elapsed().as_secs_f64();
        report(name, d.target().cycles(), secs);
        if let Some((n, bytes, interval)) = d.history_stats() {
            println!(
                "    ({} snapshots, {} KiB, interval {} cycles; stop: {})",
                n,
                bytes / 1024,
                interval,
                stop.message
            );
        }
        if history {
            let t = Instant::now();
            let n = 200;
            for _ in 0..n {
                d.step_back();
            }
            println!(
                "    step back: {:.2} ms each",
                t.elapsed().as_secs_f64() * 1e3 / n as f64
            );
        }
    }

    firmware();
}

fn machine() -> Machine {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm");
    let program = assemble_file(&path, &AsmOptions::default())
        .program
        .expect("firmware assembles");
    let mut m = Machine::new(program).expect("loads");
    let game = "drop,right,drop,left,drop,right,drop,left,drop,right,drop,left,drop";
    m.start_script(&Script::parse_keys(game).expect("keys"));
    m
}

fn firmware() {
    println!("-- Viergewinnt firmware (a game, then the idle loop) --");
    let mut m = machine();
    let t = Instant::now();
    let mut stop = StopConditions::budget(CYCLES);
    stop.on_rom_write = false;
    m.run_until(&stop);
    m.run_until(&StopConditions::budget(CYCLES.saturating_sub(m.cycles())));
    report(
        "Machine::run_until (no debugger)",
        m.cycles(),
        t.elapsed().as_secs_f64(),
    );
    for (name, prov) in [
        ("debugger + history", false),
        ("debugger + history + provenance, asked", true),
    ] {
        let mut d = Debugger::new(machine());
        d.set_provenance(prov);
        let t = Instant::now();
        while d.target().cycles() < CYCLES {
            d.run_for(CYCLES - d.target().cycles());
        }
        if prov {
            d.explain_pixel(60, 30).expect("provenance on");
        }
        report(name, d.target().cycles(), t.elapsed().as_secs_f64());
    }

    game_to_settled();
    window_at_max();
    step_over_a_long_call();

    // Reverse across 100 million cycles: random jumps back, each checked
    // against a clone kept on the way forward.
    const LONG: u64 = 100_000_000;
    let mut d = Debugger::new(machine());
    let mut kept: Vec<(u64, Machine)> = Vec::new();
    let t = Instant::now();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    while d.target().cycles() < LONG {
        let s = d.run_for(LONG / 16);
        if !matches!(s.reason, Reason::Budget { .. } | Reason::Settled { .. }) {
            println!("    unexpected stop: {}", s.message);
            break;
        }
        kept.push((d.index(), d.target().clone()));
    }
    let secs = t.elapsed().as_secs_f64();
    report("100 M cycles with history", d.target().cycles(), secs);
    if let Some((n, bytes, interval)) = d.history_stats() {
        println!(
            "    {} snapshots, {:.1} MiB, interval {} cycles",
            n,
            bytes as f64 / (1 << 20) as f64,
            interval
        );
    }
    let t = Instant::now();
    let mut exact = 0;
    let jumps = 16;
    for _ in 0..jumps {
        let (at, want) = &kept[(next() % kept.len() as u64) as usize];
        // Back (or forward again: the recorded future stays valid).
        d.goto(*at);
        exact += usize::from(d.index() == *at && d.target() == want);
    }
    println!(
        "    {jumps} random jumps: {:.1} ms each, {exact}/{jumps} exact",
        t.elapsed().as_secs_f64() * 1e3 / jumps as f64
    );
    let t = Instant::now();
    for _ in 0..100 {
        d.step_back();
    }
    println!(
        "    step back: {:.2} ms each",
        t.elapsed().as_secs_f64() * 1e3 / 100.0
    );
}

/// A game to the end of its key script (what `hc11lab run --keys ...`
/// does), best of 15: plain `run_until`, the debugger on its fast path
/// (breakpoints only, the profile tracked as always), with a conditional
/// breakpoint inside the key-polling loop (asked at every visit, so that
/// loop is not skipped), on its slow path, and with provenance.
fn game_to_settled() {
    println!("-- a game to the end of its key script (best of 15) --");
    let mut best = [f64::MAX; 9];
    let mut cycles = 0;
    for _ in 0..15 {
        let mut m = machine();
        let t = Instant::now();
        m.run_until(&StopConditions::budget(CYCLES));
        best[0] = best[0].min(t.elapsed().as_secs_f64());
        cycles = m.cycles();
        for (i, best) in best.iter_mut().enumerate().skip(1) {
            let mut d = Debugger::new(machine());
            d.set_history_budget(None);
            d.max_cycles = CYCLES;
            match i {
                2 => {
                    d.add_breakpoint("readInputEnd if a == 99").expect("break");
                }
                3 => d.set_fast_path(false),
                4 | 5 => d.set_provenance(true),
                6 | 7 => {
                    d.add_watchpoint("change board:64").expect("watch");
                    d.set_fast_path(i == 6);
                }
                8 => {
                    d.add_watchpoint("read coordy").expect("watch");
                }
                _ => {}
            }
            let t = Instant::now();
            // A watchpoint stops at each change of the board's cells: go
            // on after each, as a user does, to the end of the keys.
            while !matches!(
                d.run().reason,
                Reason::Settled { .. } | Reason::Budget { .. }
            ) {}
            if i == 5 {
                // The question replays the game with the tracker.
                let e = d.explain_pixel(60, 30).expect("provenance on");
                assert!(e.chain.len() > 2, "a chain to the grid's drawing");
            }
            *best = best.min(t.elapsed().as_secs_f64());
        }
    }
    let names = [
        "Machine::run_until (no debugger)",
        "debugger, fast path",
        "debugger, conditional breakpoint in a loop",
        "debugger, slow path (set_fast_path(false))",
        "debugger + provenance (recorded, not asked)",
        "provenance + first question (pixel 60,30)",
        "watchpoint on the cells, going on at each stop",
        "the same on the slow path",
        "read watchpoint on coordy, going on",
    ];
    for (name, secs) in names.iter().zip(best) {
        println!(
            "{name:<44} {:>7.2} ms ({:.2}x plain, {} cycles)",
            secs * 1e3,
            secs / best[0],
            cycles
        );
    }
}

/// Step over `jsr setStone` (the first drop: the board redrawn, about
/// 259,000 E-cycles), best of 15, on the fast and the slow path, against
/// `run_until` for the same cycles from the same state.
fn step_over_a_long_call() {
    println!("-- step over jsr setStone (best of 15) --");
    let at_call = || {
        let mut d = Debugger::new(machine());
        d.set_history_budget(None);
        d.run_to("button0+12").expect("the drop's call");
        d
    };
    let cycles = {
        let mut d = at_call();
        let from = d.target().cycles();
        d.step_over();
        d.target().cycles() - from
    };
    let mut best = [f64::MAX; 3];
    for _ in 0..15 {
        for (i, best) in best.iter_mut().enumerate() {
            let mut d = at_call();
            let t = if i == 0 {
                let mut m = d.target().clone();
                let t = Instant::now();
                m.run_until(&StopConditions::budget(cycles));
                t
            } else {
                d.set_fast_path(i == 1);
                let t = Instant::now();
                d.step_over();
                t
            };
            *best = best.min(t.elapsed().as_secs_f64());
        }
    }
    for (name, secs) in [
        "Machine::run_until, as many cycles",
        "step over, fast path",
        "step over, slow path",
    ]
    .iter()
    .zip(best)
    {
        println!(
            "{name:<44} {:>7.3} ms ({:.2}x plain, {} cycles)",
            secs * 1e3,
            secs / best[0],
            cycles
        );
    }
}

/// The window's `max` speed (`ui::session::Session::advance`): 20,000-cycle
/// slices, the data flow caught up after each, while the game plays its
/// keys and then waits for the next one; with recording on and off.
fn window_at_max() {
    println!("-- the window at max: 20,000-cycle slices, caught up after each --");
    const SLICE: u64 = 20_000;
    const RUN: u64 = 400_000_000;
    for (name, prov) in [
        ("slices, recording off", false),
        ("slices, recording on (caught up each slice)", true),
    ] {
        let mut d = Debugger::new(machine());
        d.set_provenance(prov);
        let t = Instant::now();
        while d.target().cycles() < RUN {
            d.max_cycles = SLICE;
            d.run();
            d.track_provenance();
        }
        report(name, d.target().cycles(), t.elapsed().as_secs_f64());
    }
}

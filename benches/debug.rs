//! Debugger overhead: E-cycles per second of the bare core, of a Debugger
//! without provenance, with snapshots, and with provenance tracking, on a
//! CPU-bound loop shaped like drawCell (load, or, store, jsr/rts, indexing),
//! then the same on the Viergewinnt firmware on the trainer11 machine, and
//! reverse execution across a run of 100 million cycles, a game to the
//! end of its key script on each of the debugger's paths, and a step over
//! a long call.
//! Run: `cargo bench --no-default-features --bench debug`.
//!
//! Measured on the shared 2-core machine (load 4-5 from other builds, so
//! single figures vary by 20-30%), before and after the debugger's fast path
//! (`Machine::run_hooked`, issue 18), with the command above:
//!
//! | figure                                      | before        | after         |
//! |---------------------------------------------|---------------|---------------|
//! | CPU loop: bare core                         | 282.8 M/s     | 274.5 M/s     |
//! | CPU loop: debugger, no history              |  83.3 M/s     | 137.4 M/s     |
//! | CPU loop: debugger + history                |  66.5 M/s     | 108.0 M/s     |
//! | firmware 40 M cycles: `run_until`           | 924.4 M/s     | 2068.7 M/s (*) |
//! | firmware 40 M cycles: debugger + history    |  32.2 M/s     | 650.4 M/s     |
//! | firmware 40 M cycles: + provenance          |  27.3 M/s     |  31.6 M/s     |
//! | 100 M cycles with history                   |  27.2 M/s     | 994.7 M/s     |
//! | game to settled: debugger vs `run_until`    | 3.47x (slow path) | 2.12x     |
//! | game to settled: conditional bp in the loop | -             | 2.40x         |
//! | game to settled: provenance                 | -             | 6.55x         |
//!
//! (*) the same `run_until` code both times: the machine's load.
//!
//! The firmware's idle loop is now fast-forwarded under the debugger too
//! (27x slower than `run_until` before, 3.2x after); a game, mostly real
//! work and short polling loops, was 2.1x then. Session 10 (the hooked
//! run's quick stretch, the call stack's short ways): 1.64-1.70x, the
//! conditional breakpoint 2.33x, against 2.05x and 2.79x for the session 9
//! build the same hour (goal 1.5x, not reached: each call and return still
//! goes through the hook, about 240 host instructions, and a measured loop
//! iteration steps one instruction at a time through the probe, about 600
//! each, where `run_until`'s probe runs a whole iteration for about 500).
//! Session 11 (the skip rules and the dispatch, shared by both paths):
//! `run_until` 2.80 -> 2.65 ms and the fast path 4.93 -> 4.65 ms for the
//! game, so the ratio stayed at 1.75x (the session 10 build measured 1.75x
//! that hour too; the 1.64-1.70x above were another day's). The last
//! change of the session (the device service ticking only what is due)
//! made grading 2-3% faster and this fast path 1-2% slower (1.78-1.79x
//! against 1.82-1.83x, two pairs the same hour), though callgrind counts
//! fewer instructions for both.
//! Session 12 (poll loops such as the SPIF wait skipped from their code,
//! in `run_until` and in the hooked run's quick stretch): `run_until`
//! 2.59-2.63 -> 2.40-2.44 ms, the fast path 4.71-4.73 -> 3.77-3.79 ms
//! (1.80-1.82x -> 1.55-1.58x), the conditional breakpoint 2.51-2.55x ->
//! 2.27-2.33x (two pairs, the session 11 build the same hour). On the
//! session's final build (counted loops across $80 made `run_until`
//! faster, the hooked run less so): 2.35-2.37 ms, 3.84-3.89 ms (1.64x),
//! conditional breakpoint 2.42-2.44x, against 2.64 ms, 4.75 ms (1.80x)
//! and 2.48-2.52x for the session 11 build (two pairs).
//! Session 13 (the LCD byte's device accesses the short way, no run-state
//! or interrupt test while X and I are set, the page-2 dispatch in line):
//! `run_until` 2.35-2.37 -> 2.23-2.24 ms, the fast path 3.83-3.84 ->
//! 3.72-3.74 ms, so the ratio went 1.62-1.63x -> 1.66-1.68x (the plain run
//! gained more); conditional breakpoint 2.45x -> 2.49-2.50x, provenance
//! 13.5x -> 14.1-14.4x (its own time the same, 32 ms); two pairs against
//! the session 12 build, the same hour.
//! Session 14 (the machine under 4 KiB, the per-block quick table, the
//! hook's calls and returns without a stack probe or a wide register
//! copy, the profile's rows through a slot index, the quick stretch
//! asking the CPU's note of calls and returns instead of the opcode):
//! `run_until` 2.04-2.06 -> 1.97-2.01 ms, the fast path 3.58-3.61 ->
//! 3.19-3.23 ms (1.74-1.76x -> 1.59-1.62x), the conditional breakpoint
//! 5.36-5.37 -> 4.84-4.88 ms (2.6x -> 2.4x), provenance 30.7-31.3 ->
//! 24.8-27.1 ms (15x -> 12-14x); three rounds against the session 13
//! build, both built with `RUSTFLAGS="-C llvm-args=-align-all-functions=6
//! -C llvm-args=-align-all-nofallthru-blocks=5"`.
//! Session 15 (the hook's calls and returns the short way,
//! `StepHook::quick_flow`; the quick stretch's limit tested only when it
//! changes; conditional breakpoints and hit counts whose visits repeat no
//! longer stop a loop skip; step over and out on the short ways): the
//! fast path 3.30-3.34 -> 2.96-2.98 ms (1.61-1.62x -> 1.41x), the
//! conditional breakpoint 5.08-5.09 -> 3.01-3.03 ms (2.47-2.48x ->
//! 1.42-1.44x), provenance unchanged (26.2-26.5 ms, 12.5-12.9x); the
//! final build, two rounds against the session 14 build, both aligned as
//! above (earlier in the session, five rounds at `31232ee`: 1.45-1.48x).
//! The working copy's ordinary build: 3.08 ms (1.42x) for both.
//! The reverse check below now finds all 16 jumps exact (14/16 before:
//! going back to the settled stop left the key script "settling").
//! Step over `jsr setStone` (new at the end: 259,033 E-cycles) 0.25 ms on
//! the fast path, 1.40-1.42x `run_until` for as many cycles (0.62 ms
//! before step over took the short ways; the slow path 1.31-1.37 ms).
//! Provenance and watchpoints keep the observed per-step path
//! (`--explain-pixel` as before).
//! Session 16 (provenance recorded off the hot path, `debug::lazy_provenance`:
//! the run records nothing per step, the first question replays the steps
//! since the last one with the tracker, skipping poll loops): "debugger +
//! provenance" now times the run alone, 3.12 ms (1.44x, as the fast path),
//! and a new line the run and the first question (`explain_pixel(60, 30)`,
//! whose chain goes back to the start) 20.4 ms (9.45x), against 26.3 ms
//! (12.5-13x) for the tracked run before. The provenance lines of the
//! first two sections now include a question at the end (timed), so they
//! measure the tracking: the firmware's 40 M cycles 157 M E-cycles/s
//! (31.6 before). New line: a watchpoint on the cells (`change board:64`),
//! going on at each stop to the end of the keys: 3.29 ms (1.52x) on the
//! fast path (watchpoints on RAM run there now), 30.6 ms (14.1x) on the
//! slow path, where every watchpoint ran before; `read coordy` 3.39 ms
//! (1.55x).
//! Session 17 (the quick stretch tests for a fault and a step's event
//! only after a step that reaches the next device event; events and
//! refused writes ask for attention): the fast path 2.89-2.94 -> 2.72-2.79
//! ms (1.41x -> 1.30x), the conditional breakpoint 1.44x -> 1.33-1.36x,
//! the watchpoint on the cells 1.55x -> 1.42-1.44x, `read coordy` 1.43x;
//! `run_until` unchanged (2.01-2.08 ms); three rounds against the session
//! 16 build, pinned to one core (`taskset -c 1`).
//! Session 18 (only a branch or jump back is a back-jump, the CPU's
//! `FlowNote::back`): `run_until` 2.41-2.43 -> 2.16-2.22 ms, the fast path
//! 3.02-3.03 -> 3.17-3.22 ms, so 1.25x -> 1.45-1.47x; conditional
//! breakpoint 1.29x -> 1.41-1.46x, provenance recorded 1.25x -> 1.45-1.47x,
//! the watchpoint on the cells 1.37x -> 1.57-1.61x, `read coordy` 1.38x ->
//! 1.59-1.60x (pinned, the session 17 build the same hour; with every
//! function 64-byte aligned in both builds: `run_until` 2.54 -> 2.21 ms,
//! the fast path 2.95 -> 3.02 ms, ratios 1.16x -> 1.36x and 1.30x ->
//! 1.49-1.51x for the watchpoints).
//! Session 19 (a stop no longer rebuilds the memory map's quick table or
//! walks the breakpoint and watch bits; the quick stretch's loop test
//! after branches and jumps only; a return's profile row in line; every
//! build laid out alike by `.cargo/config.toml`): fast path 1.28-1.31x,
//! conditional breakpoint 1.34x, provenance recorded 1.27-1.33x, the
//! watchpoint on the cells 1.37-1.40x, `read coordy` 1.39x, step over
//! 1.23x (pinned, two runs; `run_until` 2.39-2.48 ms). Against the session
//! 18 code, both built with that layout: watchpoints 1.51-1.52x ->
//! 1.42-1.44x and 1.53-1.55x -> 1.45-1.47x (before the in-line row).
//! Session 20 (`run_until`'s step ends on one compare and has no
//! breakpoint test without breakpoints; a watch set again keeps its
//! blocks), pinned, two rounds against the session 19 binary:
//! `run_until` 2.12-2.19 ms (2.47-2.51), the fast path 3.12-3.22 ms
//! (3.19-3.27), so fast path 1.47x, conditional breakpoint 1.51-1.55x,
//! provenance recorded 1.48-1.51x, the watchpoint on the cells 1.55x,
//! `read coordy` 1.58x, step over 1.36-1.46x: the debugger as fast as
//! before, the plain run faster. A build one commit earlier (the same
//! loops, laid out otherwise) measured `run_until` 2.26-2.32 ms and every
//! ratio at 1.35-1.50x: these figures move with the layout as much as
//! with the code.
//! Session 23 (a watchpoint stop a third of its cost: labels through
//! `Program::label_index`, the watch handed over as `WatchBits` with its
//! blocks, a read watchpoint's block keeping its direct writes), pinned,
//! two rounds against the session 22 binary: the watchpoint on the cells
//! 3.17-3.18 -> 3.07 ms, `read coordy` 3.13-3.16 -> 3.04-3.05 ms, the
//! fast path the same (2.94-2.97 ms), so the watchpoints are 3-5% over
//! it instead of 7-8% (1.51-1.54x of `run_until`, 1.99-2.04 ms).
//! Session 24 (the plan memo of counted loops in the hooked run too, the
//! hook hearing the two iterations as recorded ones; a call's or
//! return's kind by a table), pinned, six rounds against the session 23
//! code: fast path 2.92-3.01 -> 2.71-2.78 ms (1.49-1.56x -> 1.38-1.43x),
//! conditional breakpoint 1.52-1.55x -> 1.46-1.49x, provenance recorded
//! 1.48-1.50x -> 1.39-1.41x, the watchpoint on the cells 1.50-1.55x ->
//! 1.38-1.46x, `read coordy` 1.51-1.54x -> 1.41-1.44x (`run_until`
//! 1.92-1.99 ms). The plain run reuses plans within a game as well (26
//! of its 41 counted skips; 4-5% of its time), which session 23 missed.
//!
//! The command line, best of 15 wall-clock runs each (process start and
//! assembling the firmware, about 4 ms, included), old binary vs new, built
//! with `cargo build --release --no-default-features`, keys
//! `drop,left,drop,right,drop,left,drop,right,drop,left,drop,right,drop`:
//!
//! | `hc11lab run --keys ...`            | before          | after           |
//! |-------------------------------------|-----------------|-----------------|
//! | (plain)                             | 18.6 ms         | 18.4 ms         |
//! | `--break drawCell:1000` (no hit)    | 46.0 ms (2.5x)  | 33.6 ms (1.8x)  |
//! | `--break 'readInputEnd if a == 99'` | 45.6 ms (2.5x)  | 37.9 ms (2.1x)  |
//! | `--profile`                         | 45.6 ms (2.5x)  | 33.5 ms (1.8x)  |
//! | `--explain-pixel 60,30`             | 80.9 ms (4.3x)  | 89.3 ms (4.9x)  |
//!
//! (`--explain-pixel` runs the observed path as before; it measured about
//! 10% slower in these runs (best of 25: 81-84 ms before, 89-93 ms after), cause not found.) The outputs (`--json`) of old
//! and new binaries are byte-identical for
//! these and for breakpoints that hit (`drawCell:100`, `readInputEnd:300`,
//! `checkWin:3 --profile`).

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

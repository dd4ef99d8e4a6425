//! Debugger overhead: E-cycles per second of the bare core, of a Debugger
//! without provenance, with snapshots, and with provenance tracking, on a
//! CPU-bound loop shaped like drawCell (load, or, store, jsr/rts, indexing).
//! Run: `cargo bench --bench debug`.

use hc11lab::cpu::{Cpu, RamBus};
use hc11lab::debug::session::Debugger;
use hc11lab::debug::target::{Bare, Target};
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
        ("debugger + history + provenance", true, true, false),
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
}

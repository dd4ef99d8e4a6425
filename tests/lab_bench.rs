//! The chip on a lab bench: small lab programs under
//! `tests/data/lab/`, assembled with hc11lab's assembler, run against the
//! on-chip A/D converter, output compares, input captures, the pulse
//! accumulator and the pins the bench drives. Each checks exact results.

use hc11lab::asm::{assemble_file, AsmOptions};
use hc11lab::board::bench::{self, BenchAction};
use hc11lab::machine::{Halt, Machine, StopConditions, StopReason};
use std::path::PathBuf;

fn lab(name: &str) -> Machine {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/lab")
        .join(name);
    let asm = assemble_file(&path, &AsmOptions::default());
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    Machine::new(asm.program.expect("program")).expect("loads")
}

fn word(m: &Machine, addr: u16) -> u16 {
    m.peek_word(addr)
}

/// Runs until the program halts at `done` (sei / bra *), at most `budget` cycles.
fn run_to_halt(m: &mut Machine, budget: u64) {
    let r = m.run_until(&StopConditions::budget(budget));
    assert!(
        matches!(r, StopReason::Halted(Halt::SelfLoop { .. })),
        "stopped: {r}"
    );
}

fn analog(text: &str) -> BenchAction {
    bench::parse_analog(text).expect("valid")
}

#[test]
fn adc_converts_two_channels_at_known_voltages() {
    let mut m = lab("adc.asm");
    m.apply_bench(&analog("AN1=1.0"));
    m.apply_bench(&analog("AN4=0"));
    m.apply_bench(&analog("AN5=2.0"));
    m.apply_bench(&analog("AN6=2.5"));
    m.apply_bench(&analog("AN7=5"));
    run_to_halt(&mut m, 100_000);
    // 1.0 V of 5 V: round(255 / 5) = 51 = $33, four times.
    assert_eq!(m.peek_range(0x80, 4), vec![51; 4]);
    // AN4..AN7: 0 V, 2.0 V (102), 2.5 V (127.5 -> 128), 5 V (255).
    assert_eq!(m.peek_range(0x84, 4), vec![0, 102, 128, 255]);
}

/// CCF sets 128 E-cycles after the ADCTL write. The program reads TCNT
/// (`ldd TCNT`, 4 cycles, read at its start), stores it (`std`, 4), loads A
/// (2) and writes ADCTL (`staa`, 3; the write at the instruction's start),
/// so the write is 10 cycles after the first TCNT read. The poll `brclr`
/// (direct, 6 cycles, ADCTL read at its start) sees CCF in the first poll
/// at or after write + 128; the second TCNT read starts 6 cycles later.
#[test]
fn adc_ccf_timing_is_exact() {
    let mut m = lab("adc.asm");
    run_to_halt(&mut m, 100_000);
    let start = word(&m, 0x88);
    let seen = word(&m, 0x8A);
    let write = start as u64 + 10;
    // Polls start at write + 3 (after the 3-cycle staa), every 6 cycles:
    // write + 123 still sees CCF clear, write + 129 sees it set.
    let first_poll_with_ccf = (0..).map(|k| write + 3 + 6 * k).find(|&t| t >= write + 128);
    assert_eq!(first_poll_with_ccf, Some(write + 129));
    assert_eq!(seen as u64, write + 129 + 6);
    // Inputs nothing drives sit at VRH: $FF.
    assert_eq!(m.peek_range(0x80, 4), vec![0xFF; 4]);
}

#[test]
fn adc_input_changed_by_a_script_action() {
    let mut m = lab("adc_scan.asm");
    m.apply_bench(&analog("AN2=1.0"));
    let script = hc11lab::script::Script::parse_keys("wait:20000,analog:AN2=4.0").expect("parses");
    m.start_script(&script);
    let r = m.run_until(&StopConditions::budget(5_000_000));
    assert_eq!(r, StopReason::Settled);
    assert_eq!(m.waiting_on(), Some(hc11lab::board::InputKind::Analog));
    // The program copies ADR1 (SCAN of AN2) to $80 in its loop.
    assert_eq!(m.peek(0x80), 204);
}

#[test]
fn oc2_toggles_pa6_and_oc1_drives_several_pins() {
    let mut m = lab("oc.asm");
    run_to_halt(&mut m, 100_000);
    // PA6 toggles at each OC2 match; PA0-PA2 and PA7 are undriven inputs (1).
    assert_eq!(
        m.peek_range(0x80, 8),
        vec![0xC7, 0x87, 0xC7, 0x87, 0xC7, 0x87, 0xC7, 0x87]
    );
    // PA4 set by the port, PA7 an output (low); then OC1 sets PA7 and PA3,
    // clears PA5 at one match.
    assert_eq!(m.peek(0x88), 0x17);
    assert_eq!(m.peek(0x89), 0x9F);
    // CFORC forced OC3's action (set PA5) without OC3F.
    assert_eq!(m.peek(0x8A), 0xBF);
    assert_eq!(m.peek(0x8B), 0x00);
}

#[test]
fn ic1_measures_a_1khz_square_wave_as_2000_cycles() {
    let mut m = lab("ic.asm");
    m.apply_bench(&bench::parse_signal("PA2=square:1000").expect("valid"));
    run_to_halt(&mut m, 100_000);
    assert_eq!(word(&m, 0x80), 2000);
    assert_eq!(word(&m, 0x82), 4000);
    assert_eq!(word(&m, 0x84), 2000);
}

#[test]
fn ic1_on_falling_edges_with_duty_cycle() {
    // 25 % duty at 1 kHz: high 500 cycles of 2000; falling edges at 500, 2500.
    let mut m = lab("ic_falling.asm");
    m.apply_bench(&bench::parse_signal("PA2=square:1000:25").expect("valid"));
    run_to_halt(&mut m, 100_000);
    assert_eq!(word(&m, 0x80), 500);
    assert_eq!(word(&m, 0x82), 2500);
}

/// The fast-forward over polling loops gives the same machine with the
/// bench's events (conversions, signal edges, compare matches) as without it.
#[test]
fn fast_forward_is_exact_with_bench_events() {
    let cases: [(&str, &[&str]); 5] = [
        ("pa.asm", &["signal:PA7=square:1000"]),
        ("ic.asm", &["signal:PA2=square:1000"]),
        ("adc.asm", &["analog:AN1=1.0"]),
        ("oc.asm", &[]),
        ("adc_scan.asm", &["analog:AN2=3.3"]),
    ];
    for (file, actions) in cases {
        let mut runs = Vec::new();
        for ff in [true, false] {
            let mut m = lab(file);
            m.set_fast_forward(ff);
            for a in actions {
                let b = bench::parse_action(a).expect("bench").expect("valid");
                m.apply_bench(&b);
            }
            let r = m.run_until(&StopConditions::budget(300_000));
            runs.push((r, m));
        }
        assert_eq!(runs[0].0, runs[1].0, "{file}");
        assert!(runs[0].1 == runs[1].1, "{file}: machines differ");
    }
}

#[test]
fn pulse_accumulator_counts_edges_and_gated_time() {
    let mut m = lab("pa.asm");
    m.apply_bench(&bench::parse_signal("PA7=square:1000").expect("valid"));
    run_to_halt(&mut m, 100_000);
    // Rising edges at 0, 2000, 4000, ...; counting starts after cycle 0, so
    // the edges at 2000 and 4000 take PACNT from $FE to $00 at 4000, and the
    // 6-cycle poll sees PAOVF at most 6 cycles later, then `ldd TCNT`.
    let t_ovf = word(&m, 0x80) as u64;
    assert!((4006..4006 + 6).contains(&t_ovf), "t_ovf {t_ovf}");
    assert_eq!(m.peek(0x82), 0x00);
    assert_eq!(m.peek(0x83), 0x30, "PAOVF and PAIF");
    // The gate measured is the high phase [2000k, 2000k + 1000) before t_gate.
    let t_gate = word(&m, 0x85) as u64;
    let k = (t_gate - 1000) / 2000;
    let (open, close) = (2000 * k, 2000 * k + 1000);
    assert!(t_gate - close < 20, "t_gate {t_gate}");
    // E/64 ticks at multiples of 64 after reset, strictly inside the gate.
    let ticks = (open + 1..close).filter(|t| t % 64 == 0).count() as u8;
    assert_eq!(m.peek(0x84), ticks);
    assert!(ticks == 15 || ticks == 16);
}

#[test]
fn cop_resets_when_the_program_stops_feeding_it_and_not_while_it_does() {
    let mut m = lab("cop.asm");
    m.set_config_cell(0x08); // NOCOP = 0: the watchdog on after reset
    m.reset_button();
    let r = m.run_until(&StopConditions::budget(1_000_000));
    assert_eq!(r, StopReason::CycleBudget, "the second boot feeds forever");
    let resets = m.cop_resets();
    assert_eq!(resets.len(), 1, "{resets:?}");
    let reset = resets[0];
    let stuck = m.program().symbol("stuck").expect("label").value;
    assert_eq!(reset.pc, stuck, "where the program stopped feeding it");
    let last = reset.last_feed.expect("it fed three times");
    // CR = 00: one E/2^15 period after the first tick that follows the
    // last clear (RM: tolerance -0/+1 tick).
    assert_eq!(reset.cycle, (last / 32768 + 2) * 32768);
    assert_eq!(m.peek(0x80), 2, "booted twice");
    // With the watchdog off (NOCOP = 1, the board's CONFIG) nothing resets.
    let mut off = lab("cop.asm");
    let r = off.run_until(&StopConditions::budget(1_000_000));
    assert!(matches!(r, StopReason::Halted(_)), "{r}");
    assert!(off.cop_resets().is_empty());
}

#[test]
fn irq_pin_from_a_script_action_is_taken() {
    for (keys, expected) in [("", 0u8), ("wait:1000,irq:low", 1)] {
        let mut m = lab("irq.asm");
        let script = hc11lab::script::Script::parse_keys(keys).expect("parses");
        m.start_script(&script);
        let r = m.run_until(&StopConditions::budget(2_000_000));
        assert_eq!(r, StopReason::Settled, "{keys}");
        assert_eq!(m.waiting_on(), Some(hc11lab::board::InputKind::PortA));
        assert_eq!(m.peek(0x80), expected, "{keys}");
    }
}

/// STOP with OPTION.CME set: the clock monitor resets the chip through
/// $FFFC, `CLOCK_MONITOR_DELAY` E-cycles after the STOP (30 cycles of code
/// up to its end); the second boot finds CME clear and ends in `done`.
/// Without CME, the same STOP halts for good.
#[test]
fn clock_monitor_resets_a_stopped_chip_through_fffc() {
    use hc11lab::machine::{ResetCause, CLOCK_MONITOR_DELAY};
    let mut m = lab("clockmon.asm");
    run_to_halt(&mut m, 10_000);
    assert_eq!(m.peek(0x80), 2, "booted twice");
    assert_eq!(m.peek(0x81), 0xC3, "through the clock monitor vector");
    let resets = m.cop_resets();
    assert_eq!(resets.len(), 1);
    assert_eq!(resets[0].cause, ResetCause::ClockMonitor);
    assert_eq!(resets[0].cycle, 30 + CLOCK_MONITOR_DELAY);

    // The same program stepped one instruction at a time (the debugger's path).
    let mut s = lab("clockmon.asm");
    for _ in 0..100 {
        s.step();
    }
    assert_eq!(s.cop_resets(), resets);
    assert_eq!(s.peek(0x81), 0xC3);

    // CME never set: STOP halts.
    let mut off = lab("clockmon.asm");
    off.poke(0xC00F, &[0x01])
        .expect("patch ldaa #$08 to ldaa #$01"); // CR0 only
    let r = off.run_until(&StopConditions::budget(10_000));
    assert_eq!(r, StopReason::Halted(Halt::Stop));
    assert!(off.cop_resets().is_empty());
}

/// `irq:low@N` and `xirq:low@N` in a script drive the pin from cycle N (a
/// script's actions start once the program has settled after reset, here
/// at 60,000 cycles, so N lies after that): the interrupt comes at the first
/// instruction boundary at or after N, and a program spinning with only
/// XIRQ unmasked is not taken for halted while the XIRQ change is to come.
#[test]
fn scheduled_irq_and_xirq_from_a_script() {
    use hc11lab::script::Script;
    let mut m = lab("irqat.asm");
    m.start_script(&Script::parse_keys("irq:low@100000").expect("parses"));
    let r = m.run_until(&StopConditions::budget(1_000_000));
    assert!(
        matches!(r, StopReason::Halted(Halt::SelfLoop { .. })),
        "{r}"
    );
    assert_eq!(m.peek(0x80), 1, "the IRQ handler ran");
    // The spin loop's boundaries are 11 + 3k: the first at or after 100,000
    // is 100,001. Then the entry (14), ldaa 2, staa 3, sei 2, one pass of `done` 3.
    assert_eq!(m.cycles(), 100_001 + 14 + 2 + 3 + 2 + 3);

    let mut x = lab("irqat.asm");
    x.poke(0x81, &[1]).expect("RAM");
    x.start_script(&Script::parse_keys("xirq:low@100000").expect("parses"));
    let r = x.run_until(&StopConditions::budget(1_000_000));
    assert!(
        matches!(r, StopReason::Halted(Halt::SelfLoop { .. })),
        "{r}"
    );
    assert_eq!(
        x.peek(0x80),
        2,
        "the XIRQ handler ran, not a premature halt"
    );
    assert!(x.cycles() > 100_000);

    // The action reads back as it was written.
    let a = bench::parse_action("irq:low@5000")
        .expect("an action")
        .expect("valid");
    assert_eq!(a.to_string(), "irq:low@5000");
    assert!(bench::parse_action("irq:low@soon")
        .expect("an action")
        .is_err());
}

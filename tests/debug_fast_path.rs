//! The debugger's fast path (runs on the machine's hooked run with polling
//! loops fast-forwarded, `Debugger::set_fast_path`) against its slow path
//! (every step observed, nothing skipped): the same program and keys give
//! the same stops, registers, cycles, instructions, step indexes, call
//! stacks, profile tables and machine states, for plain runs, breakpoints
//! with conditions and hit counts, run-to, step over/out, budgets, and
//! reverse execution afterwards.

#[path = "machine_support/poll_loops.rs"]
mod poll_loops;

#[path = "support/lcg.rs"]
mod lcg;

#[path = "machine_support/random_loops.rs"]
mod random_loops;

use hc11lab::asm::{assemble_file, AsmOptions};
use hc11lab::debug::session::{Debugger, Reason, Stop};
use hc11lab::image::Program;
use hc11lab::machine::Machine;
use hc11lab::script::Script;
use std::path::Path;

const GAME: &str = "drop,right,drop,left,drop,right,drop,left,drop,right,drop,left,drop";

fn firmware() -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm");
    let asm = assemble_file(&path, &AsmOptions::default());
    let diags = asm.render_diagnostics();
    asm.program.unwrap_or_else(|| panic!("{diags}"))
}

fn debugger(keys: &str, fast: bool) -> Debugger<Machine> {
    let m = Machine::new(firmware()).expect("loads");
    let mut d = Debugger::new(m);
    d.set_fast_path(fast);
    let script = Script::parse_keys(keys).expect("keys");
    d.target_mut().start_script(&script);
    d
}

/// Everything a stop leaves that a user can see.
#[derive(Debug, PartialEq)]
struct Seen {
    stop: Stop,
    instructions: u64,
    profile: String,
    frames: String,
}

fn seen(d: &Debugger<Machine>, stop: Stop) -> Seen {
    Seen {
        stop,
        instructions: d.target().instructions(),
        profile: format!("{:?}", d.profile()),
        frames: format!("{:?}", d.call_stack()),
    }
}

/// Runs `commands` on a fast and a slow debugger and compares after each.
fn same_both_ways(keys: &str, setup: impl Fn(&mut Debugger<Machine>), commands: &[&str]) -> usize {
    let mut fast = debugger(keys, true);
    let mut slow = debugger(keys, false);
    setup(&mut fast);
    setup(&mut slow);
    let mut skipped = 0;
    for (i, c) in commands.iter().enumerate() {
        let run = |d: &mut Debugger<Machine>| match *c {
            "run" => d.run(),
            "over" => d.step_over(),
            "out" => d.step_out(),
            "into" => d.step_into(),
            "slice" => d.run_for(250_000),
            to => d.run_to(to).expect("location"),
        };
        let before = fast.target().fast_forward_skipped();
        let a = run(&mut fast);
        let b = run(&mut slow);
        skipped += (fast.target().fast_forward_skipped() - before) as usize;
        let (sa, sb) = (seen(&fast, a), seen(&slow, b));
        assert_eq!(sa, sb, "command {i} `{c}`");
        assert!(
            fast.target() == slow.target(),
            "machine after command {i} `{c}`"
        );
        assert_eq!(fast.registers(), slow.registers());
    }
    skipped
}

#[test]
fn a_whole_game_and_the_idle_loop_after_it() {
    let mut commands = vec!["run"];
    commands.extend(std::iter::repeat_n("slice", 20));
    let skipped = same_both_ways(GAME, |d| d.max_cycles = 30_000_000, &commands);
    assert!(skipped > 0, "the fast path skipped no polling loop");
}

#[test]
fn profile_and_budget_stops_agree() {
    let skipped = same_both_ways(
        GAME,
        |d| {
            d.set_history_budget(None);
            d.max_cycles = 1_234_567;
        },
        &["run", "run", "run", "run", "run"],
    );
    assert!(skipped > 0);
}

#[test]
fn breakpoints_with_conditions_and_hit_counts() {
    same_both_ways(
        GAME,
        |d| {
            d.add_breakpoint("getLineLength:3 if [coordy] == 5")
                .expect("break");
            d.add_breakpoint("drawCell:50").expect("break");
        },
        &["run", "run", "run", "over", "out", "run", "run", "run"],
    );
}

/// Breakpoints on the SPIF wait (`SPIwait2: tst SPSR / bpl SPIwait2`),
/// the loop the fast path skips from its code: one on its head, one on
/// its branch, each with a hit count, must stop at the same visit; so
/// must run-to either address.
#[test]
fn breakpoints_inside_a_poll_loop() {
    for spec in ["SPIwait2:700", "SPIwait2+3:300"] {
        same_both_ways(
            GAME,
            |d| {
                d.add_breakpoint(spec).expect("break");
            },
            &["run", "run", "run"],
        );
    }
    same_both_ways(GAME, |_| {}, &["SPIwait2", "SPIwait2+3", "SPIwait2", "run"]);
}

/// A conditional breakpoint in the idle loop (`mainLoop: jsr readInput;
/// bra mainLoop`, at `readInputEnd`): one that is false and reads only
/// registers or RAM gets the same answer at every visit, so the loop is
/// still skipped; one that reads the cycle count or a device register (the
/// keys, `PIO_B`) may change its answer while the program waits, so every
/// visit is asked. Each stops where the slow path stops (one turns true
/// when the board is reset by the fifth key, `buttonFlag` when a key is
/// taken).
#[test]
fn conditional_breakpoints_in_a_skipped_loop() {
    let runs = ["run", "run", "run", "run"];
    let skips = |spec: &str| {
        same_both_ways(
            GAME,
            |d| {
                d.max_cycles = 1_500_000;
                if !spec.is_empty() {
                    d.add_breakpoint(spec).expect("break");
                }
            },
            &runs,
        )
    };
    let none = skips("");
    let timed = skips("readInputEnd if cycles == 1");
    // TCNT moves with time, PORTA's pins at the timer's events, which a
    // skip of a loop that reads no timer register passes: every visit is
    // asked, as for the cycle count.
    // (`a == 99` never holds there: no stop cuts the runs short.)
    assert_eq!(skips("readInputEnd if [TCNT] == 1 && a == 99"), timed);
    assert_eq!(skips("readInputEnd if [PORTA] != 7 && a == 99"), timed);
    // The keys change only at the script's actions, SPSR (with no flag
    // set) only when a transfer ends: the loop is skipped to the next
    // event, and a condition on them that turns true is met where the
    // slow path meets it.
    let device = skips("readInputEnd if [PIO_B] == 0");
    assert!(device > timed, "{device} skipped, timed {timed}");
    assert!(device <= none, "{device} skipped, none {none}");
    skips("readInputEnd if [PIO_B] == $FE");
    skips("readInputEnd if [PIO_B] != $FF && b == 3");
    skips("mainLoop if [PIO_B] == $F7");
    skips("readInputEnd:700 if [PIO_B] == $FF");
    for spec in [
        "readInputEnd if a == 99",
        "readInputEnd if [coordy] == 200 && b != 7",
    ] {
        let n = skips(spec);
        assert!(
            n > timed,
            "`{spec}`: {n} skipped, a timed condition {timed}"
        );
        assert!(
            n <= none,
            "`{spec}`: {n} skipped, without a breakpoint {none}"
        );
    }
    // B holds the debounce timer there: its visits in the two recorded
    // iterations of the counted loop differ, so that loop is not skipped
    // (the idle loop still is); one condition turns true in the middle of
    // what the loop would skip.
    skips("readInputEnd if b == 100");
    // Hit counts: each visit counts, so a skip stops short of the visit
    // that reaches the count, and the hits it passes are added; the stops
    // come where the slow path's do.
    let counting = skips("readInputEnd:1000000");
    assert!(
        counting > timed && counting <= none,
        "{timed} {counting} {none}"
    );
    for spec in [
        "readInputEnd:2345",
        "mainLoop:777",
        "readInputEnd:1500 if a == $FF",
        "SPIwait2:5000",
    ] {
        skips(spec);
    }
    let varying = skips("readInputEnd if b == 251");
    assert!(
        varying > timed && varying < none,
        "{timed} {varying} {none}"
    );
    skips("readInputEnd if [buttonFlag] == 1");
}

#[test]
fn run_to_step_over_and_out() {
    same_both_ways(
        GAME,
        |_| {},
        &[
            "checkWin",
            "over",
            "over",
            "into",
            "out",
            "readInput",
            "over",
            "out",
            "drawBoard",
            "out",
            "run",
        ],
    );
    // Step over takes the fast path's short ways too (its return address
    // is a breakpoint address of the run): over the long calls of a drop
    // (`jsr setStone` redraws the board), inside the SPI routines, over
    // calls in the key loop and with a breakpoint inside the call.
    same_both_ways(
        GAME,
        |_| {},
        &[
            "button0+12",
            "over",
            "over",
            "over",
            "into",
            "over",
            "out",
            "LCDdata",
            "over",
            "over",
            "out",
            "out",
            "mainLoop",
            "over",
            "over",
            "over",
            "over",
        ],
    );
    same_both_ways(
        GAME,
        |d| {
            d.add_breakpoint("SPItransfer:40").expect("break");
        },
        &["button0+12", "over", "over", "out", "over", "run"],
    );
}

#[test]
fn reverse_after_a_fast_run_is_exact() {
    let mut fast = debugger(GAME, true);
    let mut slow = debugger(GAME, false);
    let mut kept = Vec::new();
    for _ in 0..40 {
        let a = fast.run_for(100_000);
        let b = slow.run_for(100_000);
        assert_eq!(a, b);
        // The settled stop too: the script's end changes the machine
        // between two steps, and going back to that index must find it.
        kept.push((fast.index(), fast.target().clone()));
        if !matches!(a.reason, Reason::Budget { .. }) {
            assert!(matches!(a.reason, Reason::Settled { .. }), "{a:?}");
            break;
        }
    }
    // Past the settled stop, so that going back to it replays from an
    // older snapshot unless the stop saved its state.
    fast.run_for(50_000);
    assert!(matches!(kept.last(), Some((_, m)) if m.script_progress().is_none()));
    for (at, want) in kept.iter().rev().step_by(3) {
        assert!(fast.goto(*at));
        assert_eq!(fast.index(), *at);
        assert!(fast.target() == want, "state at step {at}");
        assert!(slow.goto(*at));
        assert_eq!(
            format!("{:?}", fast.profile()),
            format!("{:?}", slow.profile())
        );
    }
}

/// A program from raw bytes at $C000 with reset and illegal-opcode vectors
/// pointing to $C000.
fn raw(code: &[u8]) -> Machine {
    raw_with(code, &[])
}

/// [`raw`] with more segments (vectors below $FFF8, data).
fn raw_with(code: &[u8], more: &[(u16, Vec<u8>)]) -> Machine {
    use hc11lab::image::Segment;
    let mut segments = vec![
        Segment {
            start: 0xC000,
            bytes: code.to_vec(),
            name: None,
        },
        Segment {
            start: 0xFFF8,
            bytes: vec![0xC0, 0x00, 0xC0, 0x00, 0xC0, 0x00, 0xC0, 0x00],
            name: None,
        },
    ];
    for (start, bytes) in more {
        segments.push(Segment {
            start: *start,
            bytes: bytes.clone(),
            name: None,
        });
    }
    let program = Program {
        segments,
        ..Program::default()
    };
    Machine::new(program).expect("loads")
}

#[test]
fn refused_writes_and_illegal_opcodes_stop_both_ways_alike() {
    #[rustfmt::skip]
    let rom_write: &[u8] = &[
        0x8E, 0x3F, 0xFF,       // C000 lds #$3FFF
        0xBD, 0xC0, 0x10,       // C003 jsr $C010
        0x20, 0xFB,             // C006 bra $C003
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x86, 0x05,             // C010 ldaa #5
        0xB7, 0xC1, 0x00,       // C012 staa $C100 (program memory)
        0x39,                   // C015 rts
    ];
    #[rustfmt::skip]
    let illegal: &[u8] = &[
        0x8E, 0x3F, 0xFF,       // C000 lds #$3FFF
        0x01,                   // C003 nop
        0x41,                   // C004 illegal
    ];
    for code in [rom_write, illegal] {
        let mut fast = Debugger::new(raw(code));
        let mut slow = Debugger::new(raw(code));
        slow.set_fast_path(false);
        for i in 0..6 {
            let (a, b) = (fast.run(), slow.run());
            assert!(
                !matches!(a.reason, Reason::Budget { .. }),
                "run {i}: {}",
                a.message
            );
            assert_eq!(seen(&fast, a), seen(&slow, b), "run {i}");
            assert!(fast.target() == slow.target(), "machine after run {i}");
        }
    }
}

/// The shape of the Viergewinnt key loop: a subroutine counts a RAM byte
/// with ADDA, the caller compares it with 250 (module `counted`); the
/// outer loop counts the passes in $0110, which the loop does not read, so
/// every pass meets the loop in the same state.
#[rustfmt::skip]
const DEBOUNCE: &[u8] = &[
    0x8E, 0x01, 0xFF,       // C000 lds #$01FF
    0x8D, 0x0F,             // C003 bsr $C014
    0xF6, 0x01, 0x00,       // C005 ldab $0100
    0xC1, 0xFA,             // C008 cmpb #250
    0x26, 0xF7,             // C00A bne $C003
    0x7F, 0x01, 0x00,       // C00C clr $0100
    0x7C, 0x01, 0x10,       // C00F inc $0110
    0x20, 0xEF,             // C012 bra $C003
    0x36,                   // C014 psha
    0xB6, 0x01, 0x00,       // C015 ldaa $0100
    0x8B, 0x01,             // C018 adda #1
    0xB7, 0x01, 0x00,       // C01A staa $0100
    0x32,                   // C01D pula
    0x39,                   // C01E rts
];

#[test]
fn a_counted_loop_is_skipped_with_call_stack_and_profile_exact() {
    let fast = sliced_both_ways(raw(DEBOUNCE), 40, 37_919, "debounce");
    assert!(fast.target().peek(0x0110) > 20, "passes counted");
    assert!(
        fast.target().fast_forward_skipped() > 30_000,
        "skipped {}",
        fast.target().fast_forward_skipped()
    );
}

/// A counted loop met again in the state an earlier skip began in is
/// taken from that skip's plan (`counted::PlanMemo`) on the fast path too:
/// its two iterations run unrecorded, the hook hearing every step, call,
/// return and breakpoint visit as it hears a recorded pair's. Stops, call
/// stacks, profiles, hit counts and machines stay those of the slow path,
/// with breakpoints inside the loop (conditions that repeat, one that
/// reads the cycle count and so may not be skipped over, hit counts that
/// stop in the middle of what would be skipped) and a watchpoint.
#[test]
fn a_counted_loop_met_again_reuses_its_plan_on_the_fast_path() {
    type Setup = fn(&mut Debugger<Machine>);
    // Each is set after the first ten runs, when the loop has been skipped
    // (and its plans kept) a few times.
    let cases: [(&str, Setup); 6] = [
        ("nothing set", |_| {}),
        ("a condition that repeats", |d| {
            d.add_breakpoint("$C018 if x == 99").expect("break");
        }),
        ("a hit count in the callee", |d| {
            d.add_breakpoint("$C015:4321").expect("break");
        }),
        ("a hit count on the head", |d| {
            d.add_breakpoint("$C003:9999").expect("break");
        }),
        ("a condition on the cycle count", |d| {
            d.add_breakpoint("$C008 if cycles == 1").expect("break");
        }),
        ("a watchpoint on the pass count", |d| {
            d.add_watchpoint("change $0110").expect("watch");
        }),
    ];
    for (what, setup) in cases {
        let mut m = raw(DEBOUNCE);
        let mut fast = Debugger::new(m.clone());
        m.set_fast_forward(false);
        let mut slow = Debugger::new(m);
        slow.set_fast_path(false);
        for d in [&mut fast, &mut slow] {
            d.set_history_budget(None);
        }
        let mut reused = 0;
        for i in 0..30 {
            if i == 10 {
                setup(&mut fast);
                setup(&mut slow);
                reused = fast.target().counted_plans_reused();
                assert!(reused > 0, "{what}: plans reused before");
            }
            let (a, b) = (fast.run_for(150_000), slow.run_for(150_000));
            assert_eq!(seen(&fast, a), seen(&slow, b), "{what}, run {i}");
            assert!(fast.target() == slow.target(), "{what}: machine {i}");
        }
        let after = fast.target().counted_plans_reused() - reused;
        if what.contains("cycle") {
            assert_eq!(after, 0, "{what}: every visit must be seen");
        } else {
            assert!(after > 5, "{what}: {after} plans reused");
        }
    }
}

/// Random counted loops (`machine_support/random_loops.rs`), each pass of
/// the outer loop starting over in the same state, so that the loop is
/// taken from the plan of an earlier skip on the fast path: the same
/// stops, step counts, call stacks, profiles and machines as the slow
/// path at every slice, half of them with a breakpoint on a random step
/// of the loop (hit counts, and a condition on a register).
#[test]
fn random_counted_loops_from_their_plans_on_the_fast_path() {
    use random_loops::{random_program, Restart};
    let mut rng = lcg::Lcg(0xBEEF);
    let (mut reusing, mut with_breakpoint) = (0, 0);
    let total = 120;
    for n in 0..total {
        let code = random_program(&mut rng, if n % 4 == 0 { 30 } else { 0 }, Restart::Setup);
        let m = raw(&code);
        let mut fast = Debugger::new(m.clone());
        let mut slow = Debugger::new(m);
        slow.set_fast_path(false);
        let spec = match n % 4 {
            0 | 1 => None,
            // The inner loop's head (after the 44 bytes that set
            // registers and RAM).
            2 => Some(format!("$C02C:{}", 1 + rng.next(3000))),
            _ => Some(format!("$C02C if y == {}", rng.next(65536))),
        };
        for d in [&mut fast, &mut slow] {
            d.set_history_budget(None);
            if let Some(spec) = &spec {
                d.add_breakpoint(spec).expect("break");
            }
        }
        let what = format!("program {n} ({spec:?}): {code:02X?}");
        for i in 0..15 {
            let (a, b) = (fast.run_for(7_919), slow.run_for(7_919));
            assert_eq!(seen(&fast, a), seen(&slow, b), "{what}, run {i}");
            assert!(fast.target() == slow.target(), "{what}: machine {i}");
        }
        if fast.target().counted_plans_reused() > 0 {
            reusing += 1;
            with_breakpoint += usize::from(spec.is_some());
        }
    }
    assert!(
        reusing > total / 2 && with_breakpoint > total / 5,
        "only {reusing} of {total} programs reused a plan, {with_breakpoint} with a breakpoint"
    );
}

/// The COP watchdog on and never fed: it resets the chip right after the
/// step that crosses its deadline, on the fast path as on the slow one,
/// also where the debounce loop is taken from a plan of an earlier pass
/// (whose two iterations run only where they end before the deadline).
/// NOPs in front move the deadline through the loop's steps.
#[test]
fn a_cop_timeout_near_a_planned_counted_loop() {
    let mut resets = 0;
    let mut reused = 0;
    for nops in 0..12 {
        let mut code = vec![0x01; nops];
        code.extend_from_slice(DEBOUNCE);
        let mut m = raw(&code);
        m.set_config_cell(0x08); // NOCOP = 0
        m.reset_button();
        let mut fast = Debugger::new(m.clone());
        let mut slow = Debugger::new(m);
        slow.set_fast_path(false);
        for d in [&mut fast, &mut slow] {
            d.set_history_budget(None);
        }
        for i in 0..12 {
            let (a, b) = (fast.run_for(100_000), slow.run_for(100_000));
            assert_eq!(seen(&fast, a), seen(&slow, b), "{nops} NOPs, run {i}");
            assert!(fast.target() == slow.target(), "{nops} NOPs: machine {i}");
            assert_eq!(fast.target().cop_resets(), slow.target().cop_resets());
        }
        resets += fast.target().cop_resets().len();
        reused += fast.target().counted_plans_reused();
    }
    assert!(resets > 100, "{resets} COP resets");
    assert!(reused > 100, "{reused} plans reused");
}

/// Step over calls whose callee does not come back to the return address
/// by RTS: one drops its return address and jumps back to it (the stop is
/// "back at the return address with the stack where it was"), one returns
/// past an inline byte (`tsx / inc 1,x / rts`: the stop is the end of its
/// frame), one keeps its frame and jumps to the return address. Step into
/// and out of each too. Fast and slow paths stop at the same step with the
/// same call stack.
#[test]
fn step_over_a_callee_that_jumps_back() {
    #[rustfmt::skip]
    let callees: [(&str, &[u8]); 3] = [
        ("drops its return address", &[
            0xC6, 0x05,         // C020 ldab #5
            0x5A,               // C022 decb
            0x26, 0xFD,         // C023 bne $C022
            0x38,               // C025 pulx
            0x7E, 0xC0, 0x06,   // C026 jmp $C006
        ]),
        ("returns past an inline byte", &[
            0x30,               // C020 tsx
            0x6C, 0x01,         // C021 inc 1,x (the return address's low byte)
            0x39,               // C023 rts (to $C007)
        ]),
        ("jumps to the return address, frame kept", &[
            0x86, 0x03,         // C020 ldaa #3
            0x4A,               // C022 deca
            0x27, 0x03,         // C023 beq $C028
            0x7E, 0xC0, 0x06,   // C025 jmp $C006
            0x39,               // C028 rts
        ]),
    ];
    #[rustfmt::skip]
    let code: &[u8] = &[
        0x8E, 0x01, 0xFF,       // C000 lds #$01FF
        0xBD, 0xC0, 0x20,       // C003 jsr $C020
        0x01,                   // C006 nop (the inline byte for the second)
        0x01,                   // C007 nop
        0x20, 0xF6,             // C008 bra $C000
    ];
    for (what, callee) in callees {
        let m = raw_with(code, &[(0xC020, callee.to_vec())]);
        let mut fast = Debugger::new(m.clone());
        let mut slow = Debugger::new(m);
        slow.set_fast_path(false);
        // A step out of a frame that never ends runs to the budget.
        fast.max_cycles = 100_000;
        slow.max_cycles = 100_000;
        for (i, c) in [
            "into", "over", "over", "over", "over", "into", "into", "out", "over", "over",
        ]
        .iter()
        .enumerate()
        {
            let run = |d: &mut Debugger<Machine>| match *c {
                "over" => d.step_over(),
                "out" => d.step_out(),
                _ => d.step_into(),
            };
            let (a, b) = (run(&mut fast), run(&mut slow));
            assert_eq!(seen(&fast, a), seen(&slow, b), "{what}: command {i} `{c}`");
            assert!(
                fast.target() == slow.target(),
                "{what}: machine after command {i}"
            );
        }
    }
}

/// The polling loops with rules of their own in the fast-forward (the
/// iteration that meets the event skipped; timer events a loop cannot
/// see passed over) on the debugger's fast path, against its slow path.
#[test]
fn polling_loops_with_their_own_skip_rules_agree() {
    let mut programs = Vec::new();
    for nops in [0, 3, 7, 11] {
        programs.push(poll_loops::spi_two_reads(nops));
    }
    for nops in [0, 2, 5] {
        programs.push(poll_loops::spi_interrupt(nops));
    }
    programs.push(poll_loops::rtif_wait());
    programs.push(poll_loops::rtif_wait_counting());
    programs.push(poll_loops::oc2_pin_wait());
    for (n, (code, more)) in programs.iter().enumerate() {
        let fast = sliced_both_ways(raw_with(code, more), 60, 4_999, &format!("program {n}"));
        assert!(
            fast.target().fast_forward_skipped() > 0,
            "program {n} was never skipped"
        );
    }
}

/// Runs `m` on the debugger's fast and slow paths (no history) in `slices`
/// runs of `cycles` E-cycles each, requiring the same stops and machines
/// after every one; returns the fast one.
fn sliced_both_ways(m: Machine, slices: u32, cycles: u64, what: &str) -> Debugger<Machine> {
    let mut fast = Debugger::new(m.clone());
    let mut slow = Debugger::new(m);
    slow.set_fast_path(false);
    for d in [&mut fast, &mut slow] {
        d.set_history_budget(None);
    }
    for i in 0..slices {
        let (a, b) = (fast.run_for(cycles), slow.run_for(cycles));
        assert_eq!(seen(&fast, a), seen(&slow, b), "{what}, slice {i}");
        assert!(
            fast.target() == slow.target(),
            "{what}: machine after slice {i}"
        );
    }
    fast
}

/// A program that halts in an idle loop once its last serial byte is out:
/// the fast path (whose loop skips leave the iteration in which the byte
/// goes out to run normally) halts at the instruction the slow path does.
#[test]
fn a_halt_after_output_comes_at_the_same_step() {
    for nops in 0..4usize {
        let (code, _) = poll_loops::sci_then_idle(nops);
        let m = raw_with(&code, &[]);
        let mut fast = Debugger::new(m.clone());
        let mut slow = Debugger::new(m);
        slow.set_fast_path(false);
        let (a, b) = (fast.run(), slow.run());
        assert!(matches!(a.reason, Reason::Halted { .. }), "{nops}: {a:?}");
        assert_eq!(seen(&fast, a), seen(&slow, b), "{nops} NOPs");
        assert!(fast.target() == slow.target());
        assert_eq!(fast.target().serial_text(), "A");
    }
}

/// A breakpoint inside a waiting loop whose condition reads SPSR, a
/// register that changes only when the transfer ends: the loop is skipped
/// up to that event, but the iteration that meets it runs, since its visit
/// may come after the event (here it does for some alignments: the loop
/// reads SPSR first, the visit reads it later). The stop comes where the
/// slow path's does.
#[test]
fn a_condition_on_a_device_register_in_a_skipped_loop() {
    for nops in 0..7u8 {
        let mut code: Vec<u8> = vec![
            0x86, 0x38, 0x97, 0x09, // ldaa #$38 / staa DDRD
            0x86, 0x53, 0x97, 0x28, // ldaa #$53 / staa SPCR (SPE, MSTR, slowest)
            0x86, 0x5A, 0x97, 0x2A, // ldaa #$5A / staa SPDR
            0x96, 0x29, // C00C wait: ldaa SPSR
        ];
        code.extend(std::iter::repeat_n(0x01, usize::from(nops)));
        let visit = 0xC00E + u16::from(nops);
        code.extend([0x01, 0x4D]); // nop (the breakpoint) / tsta
        let back = 0xC00Cu16.wrapping_sub(visit + 4) as u8;
        code.extend([0x2A, back, 0x20, 0xFE]); // bpl wait / bra *
        let m = raw_with(&code, &[]);
        let mut fast = Debugger::new(m.clone());
        let mut slow = Debugger::new(m);
        slow.set_fast_path(false);
        for d in [&mut fast, &mut slow] {
            d.add_breakpoint(&format!("${visit:04X} if [$29] != 0"))
                .expect("break");
        }
        let before = fast.target().fast_forward_skipped();
        let (a, b) = (fast.run(), slow.run());
        assert!(
            matches!(a.reason, Reason::Breakpoint { .. }),
            "{nops} NOPs: {a:?}"
        );
        assert_eq!(seen(&fast, a), seen(&slow, b), "{nops} NOPs");
        assert!(fast.target() == slow.target(), "{nops} NOPs: machines");
        assert!(
            fast.target().fast_forward_skipped() > before,
            "{nops} NOPs: the wait was skipped"
        );
    }
}

/// Watchpoints on RAM on the fast path (the machine tells the hook of each
/// step that made a watched access; the blocks of watched bytes leave its
/// direct path for that kind of access): the same stops, hits, machines
/// and reverse steps as the slow path, which observes every access. Loops
/// are still skipped where they touch no watched byte.
#[test]
fn watchpoints_on_the_fast_path() {
    let runs = ["run"; 12];
    for specs in [
        &["change board+136:8"][..],
        &["write timer"],
        &["change buttonFlag", "change coordy"],
        &["change player", "write $3FF8:8"],
        &["change cursorColumn"],
        &["read coordy"],
        &["access xoffset", "change board+136:8"],
        &["read $3FF0:16"],
    ] {
        let setup = |d: &mut Debugger<Machine>| {
            d.max_cycles = 1_500_000;
            for s in specs {
                d.add_watchpoint(s).expect("watch");
            }
        };
        let skipped = same_both_ways(GAME, setup, &runs);
        // (`write timer` stops in every pass of the debounce loop, a read
        // of the stack in every call.)
        if specs[0] != "write timer" && specs[0] != "read $3FF0:16" {
            assert!(skipped > 0, "{specs:?}: loops still skipped");
        }
    }
    // Reverse after watched stops, then on again.
    let mut fast = debugger(GAME, true);
    let mut slow = debugger(GAME, false);
    for d in [&mut fast, &mut slow] {
        d.add_watchpoint("change board+136:8").expect("watch");
    }
    for i in 0..4 {
        let (a, b) = (fast.run(), slow.run());
        assert_eq!(seen(&fast, a), seen(&slow, b), "run {i}");
        let (a, b) = (fast.step_back_n(5_000), slow.step_back_n(5_000));
        assert_eq!(seen(&fast, a), seen(&slow, b), "back {i}");
        assert!(fast.target() == slow.target(), "machine after back {i}");
        let (a, b) = (fast.run(), slow.run());
        assert_eq!(seen(&fast, a), seen(&slow, b), "run again {i}");
    }
    // A watchpoint on a device register keeps the observed path (and
    // still stops the same).
    for spec in ["write PIO_C", "read SPSR"] {
        let skipped = same_both_ways(
            GAME,
            |d| {
                d.max_cycles = 1_500_000;
                d.add_watchpoint(spec).expect("watch");
                d.add_watchpoint("change board:8").expect("watch");
            },
            &["run", "run", "run"],
        );
        assert_eq!(skipped, 0, "{spec}: the observed path skips nothing");
    }
}

/// A read watchpoint over code in RAM: an instruction that reads its own
/// bytes is fetching them, not reading data (as on the slow path), so the
/// first stop is at the read of the data byte after it.
#[test]
fn a_read_watchpoint_over_code_in_ram() {
    #[rustfmt::skip]
    let ram: Vec<u8> = vec![
        0xB6, 0x01, 0x01, // $0100 ldaa $0101 (its own operand)
        0xB6, 0x01, 0x10, // $0103 ldaa $0110
        0x20, 0xFE,       // $0106 bra *
    ];
    let m = raw_with(&[0x7E, 0x01, 0x00], &[(0x0100, ram)]); // jmp $0100
    let mut fast = Debugger::new(m.clone());
    let mut slow = Debugger::new(m);
    slow.set_fast_path(false);
    for d in [&mut fast, &mut slow] {
        d.add_watchpoint("read $0100:32").expect("watch");
        d.max_cycles = 10_000;
    }
    let (a, b) = (fast.run(), slow.run());
    assert!(matches!(a.reason, Reason::Watchpoint { .. }), "{a:?}");
    assert_eq!(a.pc, 0x0106, "{a:?}");
    assert_eq!(seen(&fast, a), seen(&slow, b));
}

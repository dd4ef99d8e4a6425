//! The debugger session on a bare CPU with hand-assembled code: stepping,
//! breakpoints, watchpoints, call stack, profile, reverse, provenance.

use hc11lab::debug::session::{Debugger, Reason};
use hc11lab::debug::target::{Bare, Target};
use hc11lab::image::{LineEntry, Program, Segment, SourceFile, Symbol, SymbolKind};
use std::path::PathBuf;

/// ```text
/// C000 8E 3F FF   start: lds #$3FFF
/// C003 CE 00 00          ldx #0
/// C006 BD C0 10   loop:  jsr sub
/// C009 08                inx
/// C00A 20 FA             bra loop
/// C00C 01 01 01 01       (nop)
/// C010 36         sub:   psha
/// C011 86 05             ldaa #5
/// C013 97 50             staa val
/// C015 8D 03             bsr inner
/// C017 32                pula
/// C018 39                rts
/// C019 01                nop
/// C01A 7C 00 51   inner: inc count
/// C01D 39                rts
/// C01E 38         odd:   pulx        ; drops its return address
/// C01F 6E 00             jmp 0,x     ; and jumps back by hand
/// ```
const CODE: &[u8] = &[
    0x8E, 0x3F, 0xFF, 0xCE, 0x00, 0x00, 0xBD, 0xC0, 0x10, 0x08, 0x20, 0xFA, 0x01, 0x01, 0x01, 0x01,
    0x36, 0x86, 0x05, 0x97, 0x50, 0x8D, 0x03, 0x32, 0x39, 0x01, 0x7C, 0x00, 0x51, 0x39, 0x38, 0x6E,
    0x00,
];

/// `code` at $C000 and the reset vector pointing there.
fn at_c000(code: &[u8]) -> Vec<Segment> {
    vec![
        Segment {
            start: 0xC000,
            bytes: code.to_vec(),
            name: None,
        },
        Segment {
            start: 0xFFFE,
            bytes: vec![0xC0, 0x00],
            name: None,
        },
    ]
}

fn program() -> Program {
    let label = |name: &str, value: u16| Symbol {
        name: name.into(),
        value,
        kind: SymbolKind::Label,
        defined_at: None,
        used_at: vec![],
        size: None,
    };
    let text = "start lds #$3FFF\n ldx #0\nloop jsr sub\n inx\n bra loop\n\nsub psha\n ldaa #5\n staa val\n bsr inner\n pula\n rts\n\ninner inc count\n rts\n";
    let addrs: &[(u16, u16, u32)] = &[
        (0xC000, 3, 1),
        (0xC003, 3, 2),
        (0xC006, 3, 3),
        (0xC009, 1, 4),
        (0xC00A, 2, 5),
        (0xC010, 1, 7),
        (0xC011, 2, 8),
        (0xC013, 2, 9),
        (0xC015, 2, 10),
        (0xC017, 1, 11),
        (0xC018, 1, 12),
        (0xC01A, 3, 14),
        (0xC01D, 1, 15),
    ];
    let mut p = Program {
        segments: at_c000(CODE),
        entry: Some(0xC000),
        symbols: vec![
            label("start", 0xC000),
            label("loop", 0xC006),
            label("sub", 0xC010),
            label("inner", 0xC01A),
            label("odd", 0xC01E),
            label("val", 0x0050),
            label("count", 0x0051),
        ],
        files: vec![SourceFile {
            path: PathBuf::from("t/test.asm"),
            text: text.into(),
        }],
        lines: addrs
            .iter()
            .map(|&(addr, len, line)| LineEntry {
                addr,
                len,
                file: 0,
                line,
            })
            .collect(),
    };
    p.finish();
    p
}

fn debugger() -> Debugger<Bare> {
    Debugger::new(Bare::new(program()))
}

#[test]
fn step_into_over_out() {
    let mut d = debugger();
    d.step_into();
    d.step_into();
    assert_eq!(d.registers().pc, 0xC006);
    let s = d.step_over();
    assert_eq!(s.pc, 0xC009, "{}", s.message);
    assert!(
        matches!(
            s.reason,
            Reason::Returned {
                from: 0xC010,
                to: 0xC009,
                by_return: true,
                ..
            }
        ),
        "{:?}",
        s.reason
    );
    assert!(s.message.contains("returned from sub"), "{}", s.message);
    assert_eq!(d.target().peek(0x51), 1);
    d.step_into();
    d.step_into();
    assert_eq!(d.registers().pc, 0xC006);
    let s = d.step_into();
    assert_eq!(s.pc, 0xC010);
    assert_eq!(d.call_stack()[0].label, "sub");
    assert_eq!(d.call_stack()[0].return_addr, 0xC009);
    assert_eq!(d.call_stack()[0].call_site.line, Some(3));
    d.step_into();
    d.step_into();
    d.step_into();
    d.step_into(); // bsr inner
    assert_eq!(
        d.call_stack()
            .iter()
            .map(|f| f.label.clone())
            .collect::<Vec<_>>(),
        vec!["inner", "sub"]
    );
    let s = d.step_out();
    assert_eq!(s.pc, 0xC017, "{}", s.message);
    let s = d.step_out();
    assert_eq!(s.pc, 0xC009, "{}", s.message);
    assert_eq!(d.step_out().reason, Reason::NoFrame);
}

#[test]
fn breakpoints_conditions_and_hit_counts() {
    let mut d = debugger();
    d.add_breakpoint("inner if [count] == 2").unwrap();
    let s = d.run();
    assert_eq!((s.pc, d.target().peek(0x51)), (0xC01A, 2), "{}", s.message);
    assert!(matches!(s.reason, Reason::Breakpoint { hits: 1, .. }));
    d.breakpoints.clear();
    d.add_breakpoint("test.asm:4:3").unwrap();
    let s = d.run();
    assert_eq!(s.pc, 0xC009);
    assert_eq!(
        d.registers().x,
        4,
        "third arrival at line 4 from here: x was 2 when we started at inner"
    );
    assert!(s.message.contains("breakpoint #2"), "{}", s.message);
    let s = d.run();
    assert_eq!(
        d.registers().x,
        5,
        "from the Nth hit on, every hit stops: {}",
        s.message
    );
}

#[test]
fn run_to_line_and_budget() {
    let mut d = debugger();
    let s = d.run_to("test.asm:14").unwrap();
    assert_eq!(s.pc, 0xC01A);
    assert!(matches!(s.reason, Reason::Reached { addr: 0xC01A }));
    let s = d.run_for(100);
    assert!(matches!(s.reason, Reason::Budget { .. }), "{:?}", s.reason);
    assert!(d.run_to("nosuch.asm:3").is_err());
}

#[test]
fn watchpoints_stop_after_the_instruction() {
    let mut d = debugger();
    d.add_watchpoint("change count").unwrap();
    let s = d.run();
    let Reason::Watchpoint { hits } = &s.reason else {
        panic!("{:?}", s.reason)
    };
    assert_eq!(
        (hits[0].pc, hits[0].addr, hits[0].old, hits[0].new),
        (0xC01A, 0x51, 0, 1)
    );
    assert_eq!(s.pc, 0xC01D, "stops after the inc");
    assert!(
        s.message.contains("inner") && s.message.contains("count"),
        "{}",
        s.message
    );
    d.watchpoints = Default::default();
    d.add_watchpoint("write val").unwrap();
    let s = d.run();
    let Reason::Watchpoint { hits } = &s.reason else {
        panic!("{:?}", s.reason)
    };
    assert_eq!(hits[0].pc, 0xC013);
    assert_eq!(
        hits[0].old, 5,
        "same value written again still triggers a write watch"
    );
}

#[test]
fn profile_counts_calls_and_cycles() {
    let mut d = debugger();
    d.add_breakpoint("loop:11").unwrap();
    d.run();
    let p = d.profile();
    let row = |name: &str| {
        p.rows
            .iter()
            .find(|r| r.label == name)
            .cloned()
            .expect(name)
    };
    assert_eq!(row("sub").calls, 10);
    assert_eq!(row("inner").calls, 10);
    // A call's cycles run from its JSR/BSR through its RTS.
    // inner: bsr 6 + inc ext 6 + rts 5.
    assert_eq!(row("inner").inclusive, 10 * 17);
    assert_eq!(row("inner").exclusive, 10 * 17);
    // sub: jsr 6 + psha 3 + ldaa 2 + staa 3 + inner 17 + pula 4 + rts 5.
    assert_eq!(row("sub").inclusive, 10 * 40);
    assert_eq!(row("sub").exclusive, 10 * 23);
    assert!(p.to_text().contains("sub"));
}

#[test]
fn step_over_a_callee_that_returns_by_hand() {
    // Patch the loop's jsr to call `odd`, which pulls its return address and jumps there.
    let mut p = program();
    p.segments[0].bytes[8] = 0x1E;
    let mut d = Debugger::new(Bare::new(p));
    d.step_into();
    d.step_into();
    let s = d.step_over();
    assert_eq!(s.pc, 0xC009, "{}", s.message);
    d.step_into();
    d.step_into();
    let s = d.step_into(); // into odd
    assert_eq!(s.pc, 0xC01E);
    d.step_into(); // pulx
    assert!(
        d.call_stack()[0].doubt.is_some(),
        "the frame's return address was pulled by hand"
    );
}

fn fingerprint(d: &Debugger<Bare>) -> (hc11lab::cpu::Cpu, Vec<u8>) {
    (d.target().cpu.clone(), d.target().bus.mem.to_vec())
}

#[test]
fn reverse_is_exact() {
    let mut d = debugger();
    d.set_provenance(true);
    let mut states = vec![fingerprint(&d)];
    for _ in 0..3000 {
        d.step_into();
        states.push(fingerprint(&d));
    }
    let mut seed = 12345u64;
    for _ in 0..20 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let n = (seed >> 33) % 3000;
        let now = d.index();
        let s = d.step_back_n(n.min(now));
        assert_eq!(d.index(), now - n.min(now), "{}", s.message);
        assert!(fingerprint(&d) == states[d.index() as usize]);
        // And forward again.
        let back_to = d.index() + (seed >> 40) % (3000 - d.index()).max(1);
        while d.index() < back_to {
            d.step_into();
        }
        assert!(fingerprint(&d) == states[d.index() as usize]);
    }
    let i = d.index();
    d.step_back();
    assert_eq!(d.index(), i - 1);
    assert!(fingerprint(&d) == states[(i - 1) as usize]);
}

#[test]
fn run_back_finds_the_previous_breakpoint() {
    let mut d = debugger();
    for _ in 0..500 {
        d.step_into();
    }
    d.add_breakpoint("inner if [count] == 7").unwrap();
    let s = d.run_back();
    assert_eq!(s.pc, 0xC01A, "{}", s.message);
    assert_eq!(d.target().peek(0x51), 7);
    let at = d.index();
    let s = d.run_back();
    assert_eq!(
        s.reason,
        Reason::StartOfHistory,
        "no earlier arrival with count == 7"
    );
    assert_eq!(d.index(), 0);
    // Forward again finds it at the same step.
    let s = d.run();
    assert_eq!(s.index, at);
}

#[test]
fn outside_changes_keep_reverse_exact() {
    let mut d = debugger();
    for _ in 0..50 {
        d.step_into();
    }
    d.target_mut().bus.mem[0x51] = 100;
    let changed = fingerprint(&d);
    for _ in 0..50 {
        d.step_into();
    }
    d.step_back_n(50);
    assert!(fingerprint(&d) == changed);
    d.step_back_n(10);
    assert_eq!(d.index(), 40);
    assert_ne!(d.target().peek(0x51), 100);
}

#[test]
fn provenance_of_a_store() {
    let mut d = debugger();
    d.set_provenance(true);
    for _ in 0..12 {
        d.step_into();
    }
    let e = d.explain_address(0x50).unwrap();
    assert_eq!(e.chain[0].kind, "store");
    assert_eq!(e.chain[0].label.as_deref(), Some("sub+3"));
    assert_eq!(e.chain[0].line, Some(9));
    assert_eq!(e.chain[0].source.as_deref(), Some("staa val"));
    assert_eq!(e.chain[1].kind, "immediate");
    assert_eq!(e.chain[1].instruction.as_deref(), Some("ldaa #$05"));
    assert!(e.to_text().contains("stored to val"), "{}", e.to_text());
    let e = d.explain_address(0xC001).unwrap();
    assert_eq!(e.chain[0].kind, "initial");
    assert!(debugger().explain_address(0x50).is_err(), "tracking off");
}

#[test]
fn illegal_opcode_stops_and_says_so() {
    let mut d = Debugger::new(Bare::from_bytes(0xC000, &[0x01, 0x41]));
    let s = d.run();
    assert!(
        matches!(s.reason, Reason::IllegalOpcode { addr: 0xC001, .. }),
        "{:?}",
        s.reason
    );
    assert!(s.message.contains("illegal opcode $41"), "{}", s.message);
}

/// A breakpoint on the entry (the first instruction after reset) stops the
/// first run before it, on both paths, as "break at the start" does in any
/// debugger; going on from there runs it, and after a reset it stops there
/// again. A single step at reset runs its instruction all the same.
#[test]
fn a_breakpoint_on_the_entry_stops_the_first_run_before_it() {
    for fast in [true, false] {
        let mut d = debugger();
        d.set_fast_path(fast);
        d.max_cycles = 1000;
        d.add_breakpoint("start").expect("breakpoint");
        let s = d.run();
        assert!(
            matches!(s.reason, Reason::Breakpoint { hits: 1, .. }),
            "fast {fast}: {:?}",
            s.reason
        );
        assert_eq!((s.pc, d.target().cycles()), (0xC000, 0), "fast {fast}");
        let s = d.run();
        assert!(
            !matches!(s.reason, Reason::Breakpoint { .. }),
            "fast {fast}: the loop never comes back to start: {:?}",
            s.reason
        );
        assert!(d.target().cycles() > 0);
        d.reset();
        let s = d.run();
        assert!(
            matches!(s.reason, Reason::Breakpoint { hits: 1, .. }),
            "fast {fast}, after reset: {:?}",
            s.reason
        );
    }
    for fast in [true, false] {
        let mut d = debugger();
        d.set_fast_path(fast);
        d.add_breakpoint("start").expect("breakpoint");
        let s = d.step_into();
        assert_eq!(s.pc, 0xC003, "fast {fast}: {}", s.message);
        // Step over and out from the entry go on from it too.
        let mut d = debugger();
        d.set_fast_path(fast);
        d.add_breakpoint("start").expect("breakpoint");
        let s = d.step_over();
        assert_eq!(s.pc, 0xC003, "fast {fast}: {}", s.message);
        // A program that starts with a call: step over from the entry runs
        // the call instead of stopping at the breakpoint it starts on.
        let mut p = Program {
            // jsr $C005 / bra * / rts
            segments: at_c000(&[0xBD, 0xC0, 0x05, 0x20, 0xFE, 0x39]),
            entry: Some(0xC000),
            ..Program::default()
        };
        p.finish();
        let mut d = Debugger::new(Bare::new(p));
        d.set_fast_path(fast);
        d.max_cycles = 1000;
        d.add_breakpoint("$C000").expect("breakpoint");
        let s = d.step_over();
        assert_eq!(s.pc, 0xC003, "fast {fast}: {}", s.message);
    }
}

/// A run cut into slices stops where one uninterrupted run stops, with the
/// same hit count, whatever the slice: a slice that ends right after a
/// breakpoint was asked (and said go on) does not count that visit again
/// when the next slice starts there.
#[test]
fn slices_count_each_breakpoint_visit_once() {
    for fast in [true, false] {
        let mut whole = debugger();
        whole.set_fast_path(fast);
        whole.add_breakpoint("inner:3").unwrap();
        let expected = whole.run();
        assert!(matches!(
            expected.reason,
            Reason::Breakpoint { hits: 3, .. }
        ));
        for slice in 1..=40 {
            let mut d = debugger();
            d.set_fast_path(fast);
            d.add_breakpoint("inner:3").unwrap();
            let stop = loop {
                let s = d.run_for(slice);
                if !matches!(s.reason, Reason::Budget { .. }) {
                    break s;
                }
            };
            assert!(
                matches!(stop.reason, Reason::Breakpoint { hits: 3, .. }),
                "fast {fast}, slices of {slice}: {:?}",
                stop.reason
            );
            assert_eq!(
                stop.cycles, expected.cycles,
                "fast {fast}, slices of {slice}: stopped at another visit"
            );
        }
    }
}

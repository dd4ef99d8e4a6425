//! The debugger on the bundled Viergewinnt firmware: breakpoints on labels
//! with conditions, provenance of LCD pixels (a stone, the "Turn:" text, the
//! cursor), watchpoints, the profile, and exact reverse execution across a
//! whole game.

use hc11lab::asm::{assemble_file, AsmOptions};
use hc11lab::debug::cli::{run_debug, RunRequest};
use hc11lab::debug::session::{Debugger, Reason};
use hc11lab::image::Program;
use hc11lab::machine::Machine;
use hc11lab::script::Script;
use std::path::Path;

/// Player 1 drops four stones into the middle column, player 2 beside it: player 1 wins.
const GAME: &str = "drop,right,drop,left,drop,right,drop,left,drop,right,drop,left,drop";

fn firmware() -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm");
    let asm = assemble_file(&path, &AsmOptions::default());
    let diags = asm.render_diagnostics();
    asm.program.unwrap_or_else(|| panic!("{diags}"))
}

fn debugger(keys: &str) -> Debugger<Machine> {
    let m = Machine::new(firmware()).expect("loads");
    let mut d = Debugger::new(m);
    let script = Script::parse_keys(keys).expect("keys");
    d.target_mut().start_script(&script);
    d
}

fn request(breaks: &[&str], pixels: &[&str], explain: &[&str]) -> RunRequest {
    RunRequest {
        breaks: breaks.iter().map(|s| s.to_string()).collect(),
        watches: Vec::new(),
        explain_pixels: pixels.iter().map(|s| s.to_string()).collect(),
        explain: explain.iter().map(|s| s.to_string()).collect(),
        profile: false,
        max_cycles: 50_000_000,
        trap_illegal: false,
    }
}

#[test]
fn break_at_get_line_length_after_the_first_drop() {
    let m = Machine::new(firmware()).expect("loads");
    let script = Script::parse_keys("drop").expect("keys");
    let (m, run) =
        run_debug(m, Some(&script), &request(&["getLineLength"], &[], &[])).expect("runs");
    assert_eq!(run.stop_reason, "breakpoint", "{}", run.stop.message);
    assert_eq!(
        m.registers().pc,
        m.program()
            .symbol("getLineLength")
            .map(|s| s.value)
            .unwrap_or(0)
    );
    // The first stone falls into the middle column (3) and lands on the bottom row (5).
    assert_eq!(
        (m.peek_symbol("coordx"), m.peek_symbol("coordy")),
        (Some(3), Some(5))
    );
    assert_eq!(run.call_stack[0].label, "getLineLength");
    assert!(
        run.call_stack.iter().any(|f| f.label == "checkWin"),
        "{:?}",
        run.call_stack
    );
    // The second call, and a condition over memory.
    let script = Script::parse_keys("drop").expect("keys");
    let m = Machine::new(firmware()).expect("loads");
    let (m2, run) = run_debug(
        m,
        Some(&script),
        &request(&["getLineLength:2 if [coordy] == 5"], &[], &[]),
    )
    .expect("runs");
    assert_eq!(run.stop_reason, "breakpoint");
    assert!(matches!(
        run.stop.reason,
        Reason::Breakpoint { hits: 2, .. }
    ));
    assert_eq!(m2.peek_symbol("coordy"), Some(5));
    // A source line: `lda 0,y` in drawCell (Board.inc line 60).
    let mut d = debugger("drop");
    d.add_breakpoint("Board.inc:60").expect("line has code");
    let s = d.run();
    assert!(s.message.contains("drawCellLoop+4"), "{}", s.message);
    assert_eq!(d.call_stack()[0].label, "drawCell");
}

#[test]
fn a_stone_pixel_leads_back_to_stone1_to_buffer() {
    let m = Machine::new(firmware()).expect("loads");
    let script = Script::parse_keys("drop").expect("keys");
    // Column 3, row 5: LCD column 36 + 8*3 + 3 = 63, row 8*5 + 3 = 43.
    let (_, run) = run_debug(m, Some(&script), &request(&[], &["63,43"], &[])).expect("runs");
    assert_eq!(run.stop_reason, "settled");
    let e = &run.provenance[0];
    let pixel = e.pixel.expect("pixel info");
    assert!(pixel.on);
    assert_eq!((pixel.page, pixel.column, pixel.bit), (5, 63, 3));
    let kinds: Vec<&str> = e.chain.iter().map(|l| l.kind.as_str()).collect();
    assert_eq!(
        &kinds[..4],
        &["display", "store", "load", "store"],
        "{}",
        e.to_text()
    );
    // Sent to the LCD by the SPDR write in SPItransfer ...
    assert_eq!(e.chain[1].label.as_deref(), Some("SPItransfer"));
    assert_eq!(e.chain[1].data_label.as_deref(), Some("SPDR"));
    // ... of the byte drawCell loaded with `lda 0,y` from the cell buffer ...
    assert!(e.has_link("load", "drawCellLoop"), "{}", e.to_text());
    assert_eq!(
        e.chain[2]
            .source
            .as_deref()
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")),
        Some("lda 0,y".into())
    );
    assert_eq!(e.chain[2].data_label.as_deref(), Some("board+307"));
    assert_eq!(
        e.chain[2].file.as_deref().map(|f| f.ends_with("Board.inc")),
        Some(true)
    );
    // ... which stone1ToBuffer wrote with `staa 3,x`.
    assert!(e.has_link("store", "stone1ToBuffer"), "{}", e.to_text());
    assert_eq!(e.chain[3].data_label.as_deref(), Some("board+307"));
    assert_eq!(
        e.chain[3]
            .source
            .as_deref()
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")),
        Some("staa 3,x".into())
    );
    // The JSON carries each link with address, label, file, line and source.
    let json = serde_json::to_value(&run).expect("serializes");
    let link = &json["provenance"][0]["chain"][3];
    for key in ["address", "label", "file", "line", "source"] {
        assert!(!link[key].is_null(), "{key} missing in {link}");
    }
}

#[test]
fn text_and_cursor_pixels_lead_to_rom_tables() {
    let m = Machine::new(firmware()).expect("loads");
    let script = Script::parse_keys("drop").expect("keys");
    // (1,1) is in the T of "Turn:"; (63,50) in the cursor arrow under column 3.
    let (_, run) = run_debug(
        m,
        Some(&script),
        &request(&[], &["1,1", "63,50"], &["board+307"]),
    )
    .expect("runs");
    let turn = &run.provenance[0];
    assert!(turn.has_link("load", "drawTextLoop"), "{}", turn.to_text());
    let last = turn.chain.last().expect("chain");
    assert_eq!(last.kind, "initial");
    assert!(
        last.data_label
            .as_deref()
            .is_some_and(|l| l.starts_with("turnText")),
        "{}",
        turn.to_text()
    );
    assert!(last.source.as_deref().is_some_and(|s| s.contains("dc.b")));
    let cursor = &run.provenance[1];
    assert!(
        cursor.chain.iter().any(|l| l
            .data_label
            .as_deref()
            .is_some_and(|d| d.starts_with("cursorArrow"))),
        "{}",
        cursor.to_text()
    );
    // --explain of the buffer byte itself.
    let cell = &run.provenance[2];
    assert!(cell.subject.starts_with("board+307"));
    assert_eq!(cell.chain[0].kind, "store");
    assert!(cell.has_link("store", "stone1ToBuffer"));
    assert!(run.to_text().contains("stone1ToBuffer"));
}

#[test]
fn watch_a_buffer_byte() {
    let mut d = debugger("drop");
    d.add_watchpoint("change board+307").expect("spec");
    let s = d.run();
    assert!(s.message.contains("cellToBuffer"), "{}", s.message);
    let s = d.run();
    let Reason::Watchpoint { hits } = &s.reason else {
        panic!("{}", s.message)
    };
    assert_eq!((hits[0].old, hits[0].new), (0x81, 0xBD));
    assert!(s.message.contains("stone1ToBuffer"), "{}", s.message);
}

#[test]
fn profile_of_a_drop() {
    let m = Machine::new(firmware()).expect("loads");
    let script = Script::parse_keys("drop").expect("keys");
    let mut req = request(&[], &[], &[]);
    req.profile = true;
    let (_, run) = run_debug(m, Some(&script), &req).expect("runs");
    let p = run.profile.expect("profile");
    let row = |n: &str| {
        p.rows
            .iter()
            .find(|r| r.label == n)
            .cloned()
            .unwrap_or_else(|| panic!("no {n}"))
    };
    // drawBoard draws 42 cells each time.
    assert_eq!(row("drawCell").calls, 42 * row("drawBoard").calls);
    assert!(row("drawBoard").inclusive > row("drawCell").inclusive - row("drawCell").exclusive);
    assert!(row("SPItransfer").exclusive > 0);
    assert_eq!(p.total_cycles, run.stop.cycles);
}

#[test]
fn reverse_across_a_whole_game_is_exact() {
    let mut d = debugger(GAME);
    // Forward, keeping the machine at some pseudo-random steps.
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut kept: Vec<(u64, Machine)> = Vec::new();
    loop {
        let s = d.run_for(100_000);
        if next() % 3 == 0 {
            kept.push((d.index(), d.target().clone()));
        }
        if !matches!(s.reason, Reason::Budget { .. }) {
            assert_eq!(
                s.reason,
                Reason::Settled {
                    waiting_on: "keys (PIO_B)".into()
                },
                "{}",
                s.message
            );
            break;
        }
    }
    let end = d.index();
    let final_state = d.target().clone();
    assert!(d.target().cycles() > 3_000_000);
    let (snaps, bytes, _) = d.history_stats().expect("history on");
    assert!(bytes <= 64 << 20, "{snaps} snapshots, {bytes} bytes");
    // Back to each kept point, in random order, and forward again.
    for _ in 0..12 {
        let (at, want) = &kept[(next() % kept.len() as u64) as usize];
        let now = d.index();
        if *at <= now {
            d.step_back_n(now - at);
        } else {
            while d.index() < *at {
                d.step_into();
            }
        }
        assert_eq!(d.index(), *at);
        assert!(d.target() == want, "state differs at step {at}");
        // N forward then N back gives the same state.
        let n = next() % 5000;
        for _ in 0..n {
            d.step_into();
        }
        d.step_back_n(n);
        assert!(
            d.target() == want,
            "forward {n} and back differs at step {at}"
        );
    }
    d.step_back_n(d.index());
    assert_eq!(d.index(), 0);
    while d.index() < end {
        if !matches!(d.run_for(1_000_000).reason, Reason::Budget { .. }) {
            break;
        }
    }
    assert!(
        d.target() == &final_state,
        "replaying the whole game gives the same end"
    );
}

//! Provenance on the fast path is tracked when a question comes (the run
//! records nothing per step; the first question replays the steps since the
//! last one with the tracker). On the slow path every step is tracked as it
//! runs. Both must give the same answers, for pixels, memory and registers,
//! after runs, breakpoints, single steps, steps over, going back (near and
//! far, past the replay's checkpoints), changes from outside (memory, a
//! register, a key by hand), a reset, switching paths with tracking on,
//! and more outside changes than the replay keeps.

#[path = "machine_support/viergewinnt.rs"]
mod viergewinnt;

use hc11lab::debug::provenance::RegByte;
use hc11lab::debug::session::Debugger;
use hc11lab::machine::Machine;
use hc11lab::script::Script;

const GAME: &str = "drop,right,drop,left,drop,right,drop,left,drop,right,drop,left,drop";

fn debugger(fast: bool) -> Debugger<Machine> {
    let m = Machine::new(viergewinnt::program()).expect("loads");
    let mut d = Debugger::new(m);
    d.set_fast_path(fast);
    d.set_provenance(true);
    let script = Script::parse_keys(GAME).expect("keys");
    d.target_mut().start_script(&script);
    d
}

/// Every answer compared: a grid of pixels (and the grid line the bench
/// asks about), RAM, the stack, and the registers.
fn answers(d: &Debugger<Machine>) -> Vec<String> {
    let mut out = Vec::new();
    for y in (0..64).step_by(5) {
        for x in (30..100).step_by(7) {
            out.push(format!("{:?}", d.explain_pixel(x, y)));
        }
    }
    out.push(format!("{:?}", d.explain_pixel(60, 30)));
    for a in (0x0000u16..0x0200).chain(0x3FC0..0x4000) {
        out.push(format!("{:?}", d.explain_address(a)));
    }
    for r in [
        RegByte::A,
        RegByte::B,
        RegByte::Xh,
        RegByte::Xl,
        RegByte::Yh,
        RegByte::Yl,
    ] {
        out.push(format!("{:?}", d.explain_register(r)));
    }
    out
}

fn same(fast: &Debugger<Machine>, slow: &Debugger<Machine>, what: &str) {
    assert_eq!(fast.index(), slow.index(), "{what}: step index");
    assert!(fast.target() == slow.target(), "{what}: machine");
    let (a, b) = (answers(fast), answers(slow));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "{what}");
    }
    // A chain that reaches the buffer, so the comparison is not of empty
    // answers only.
    assert!(
        a.iter().any(|e| e.contains("Store") || e.contains("store")),
        "{what}: some answer has a store"
    );
}

/// Both debuggers take `f`, then their answers are compared.
fn both(
    fast: &mut Debugger<Machine>,
    slow: &mut Debugger<Machine>,
    what: &str,
    f: impl Fn(&mut Debugger<Machine>),
) {
    f(fast);
    f(slow);
    same(fast, slow, what);
}

#[test]
fn answers_after_runs_steps_and_going_back_match_the_tracked_path() {
    let mut fast = debugger(true);
    let mut slow = debugger(false);
    both(&mut fast, &mut slow, "a slice", |d| {
        d.run_for(300_000);
    });
    both(&mut fast, &mut slow, "a breakpoint", |d| {
        d.add_breakpoint("drawCell:40").expect("bp");
        d.run();
    });
    both(&mut fast, &mut slow, "steps", |d| {
        d.breakpoints.clear();
        for _ in 0..3 {
            d.step_over();
        }
        for _ in 0..7 {
            d.step_into();
        }
    });
    both(&mut fast, &mut slow, "back 500", |d| {
        d.step_back_n(500);
    });
    both(&mut fast, &mut slow, "on to the end of the game", |d| {
        d.run();
    });
    assert!(
        fast.provenance_kept().is_some_and(|(c, _)| c >= 3),
        "the replay left checkpoints: {:?}",
        fast.provenance_kept()
    );
    both(&mut fast, &mut slow, "far back", |d| {
        d.step_back_n(600_000);
    });
    both(&mut fast, &mut slow, "a step back", |d| {
        d.step_back();
    });
    both(&mut fast, &mut slow, "forward again", |d| {
        d.run_for(400_000);
    });
}

#[test]
fn outside_changes_and_resets_are_replayed() {
    let mut fast = debugger(true);
    let mut slow = debugger(false);
    both(&mut fast, &mut slow, "a slice", |d| {
        d.run_for(900_000);
    });
    // Asked before the change is noted (no step since), then after.
    both(&mut fast, &mut slow, "a poke", |d| {
        d.target_mut().poke(0x0120, &[0x5A, 0xA5]).expect("ram");
        let mut r = d.target().registers();
        r.a = 0x77;
        d.target_mut().set_registers(r);
    });
    both(&mut fast, &mut slow, "after the poke", |d| {
        d.run_for(50_000);
    });
    both(&mut fast, &mut slow, "a key by hand", |d| {
        d.target_mut().set_key(0, true);
        d.run_for(120_000);
        d.target_mut().set_key(0, false);
        d.run_for(400_000);
    });
    both(&mut fast, &mut slow, "back across the key", |d| {
        d.step_back_n(150_000);
    });
    both(&mut fast, &mut slow, "a new future", |d| {
        d.target_mut().set_key(1, true);
        d.run_for(200_000);
    });
    both(&mut fast, &mut slow, "reset", |d| {
        d.reset();
        d.run_for(250_000);
    });
}

#[test]
fn switching_paths_keeps_the_history() {
    let mut fast = debugger(true);
    let mut slow = debugger(false);
    both(&mut fast, &mut slow, "a slice", |d| {
        d.run_for(500_000);
    });
    fast.set_fast_path(false);
    both(&mut fast, &mut slow, "tracked on", |d| {
        d.run_for(200_000);
    });
    fast.set_fast_path(true);
    both(&mut fast, &mut slow, "lazy again", |d| {
        d.run_for(300_000);
    });
}

#[test]
fn many_outside_changes_move_tracking_on_without_wrong_answers() {
    let mut fast = debugger(true);
    let mut slow = debugger(false);
    both(&mut fast, &mut slow, "a slice", |d| {
        d.run_for(400_000);
    });
    both(&mut fast, &mut slow, "300 changes", |d| {
        for i in 0..300u32 {
            d.target_mut().poke(0x0100, &[i as u8]).expect("ram");
            d.run_for(2_000);
        }
    });
    let kept = fast.provenance_kept().expect("on");
    assert!(kept.1 <= 256, "outside states kept: {kept:?}");
}

#[test]
fn with_watchpoints_and_breakpoints_on_the_fast_path() {
    let mut fast = debugger(true);
    let mut slow = debugger(false);
    for d in [&mut fast, &mut slow] {
        d.add_watchpoint("change board:64").expect("watch");
        d.add_watchpoint("read coordy").expect("watch");
        d.add_breakpoint("drawCell:25").expect("break");
    }
    for i in 0..6 {
        both(&mut fast, &mut slow, &format!("stop {i}"), |d| {
            d.run();
        });
    }
    both(&mut fast, &mut slow, "back", |d| {
        d.step_back_n(20_000);
    });
    both(&mut fast, &mut slow, "on", |d| {
        d.run();
    });
}

/// The window at `max` runs 20,000-cycle slices and catches the data flow
/// up after each. While the game waits for a key in its main loop (a call
/// of `readInput` that pushes and pulls the same bytes each time), the
/// replay tracks a few dozen iterations of the loop and runs the rest
/// without the tracker; the answers stay those of the tracked path.
#[test]
fn a_game_waiting_for_a_key_is_replayed_without_tracking_each_iteration() {
    let mut fast = debugger(true);
    let mut slow = debugger(false);
    both(&mut fast, &mut slow, "the game's keys", |d| {
        d.run();
    });
    fast.track_provenance();
    let (tracked0, skipped0) = fast.provenance_replayed().expect("lazy");
    both(&mut fast, &mut slow, "waiting in slices", |d| {
        let end = d.target().cycles() + 2_000_000;
        while d.target().cycles() < end {
            d.max_cycles = 20_000;
            d.run();
            d.track_provenance();
        }
    });
    let (tracked1, skipped1) = fast.provenance_replayed().expect("lazy");
    let (tracked, skipped) = (tracked1 - tracked0, skipped1 - skipped0);
    assert!(
        skipped > 10 * tracked,
        "while waiting: {tracked} steps tracked, {skipped} skipped"
    );
}

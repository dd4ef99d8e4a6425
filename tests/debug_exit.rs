//! The debugger (with its history, as the window runs it) names the step
//! that left the program's bytes when a run stops before an illegal opcode
//! where the program put none, and stays exactly where the run stopped.

use hc11lab::asm::{assemble_file, AsmOptions};
use hc11lab::debug::session::{Debugger, Reason};
use hc11lab::machine::{Machine, StopConditions, StopReason};
use std::path::Path;

fn machine(file: &str) -> Machine {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/run")
        .join(file);
    let asm = assemble_file(&path, &AsmOptions::default());
    let diags = asm.render_diagnostics();
    Machine::new(asm.program.unwrap_or_else(|| panic!("{diags}"))).expect("loads")
}

#[test]
fn a_stop_in_no_code_names_the_rts_and_the_session_stays_at_the_stop() {
    let mut plain = machine("push_no_pull.asm");
    assert!(matches!(
        plain.run_until(&StopConditions::budget(1_000_000)),
        StopReason::IllegalOpcode(_)
    ));
    for fast in [true, false] {
        let mut d = Debugger::new(machine("push_no_pull.asm"));
        d.set_fast_path(fast);
        let stop = d.run();
        assert!(
            matches!(stop.reason, Reason::IllegalOpcode { .. }),
            "{:?}",
            stop.reason
        );
        assert!(
            stop.message.contains(
                "`rts` at $C00B in sub+3 (push_no_pull.asm:9) returned there: it took $12C0 from the stack at $00FD"
            ),
            "{}",
            stop.message
        );
        // The look back replayed history and came back to the same state.
        assert_eq!(d.target().cpu(), plain.cpu(), "fast path {fast}");
        assert_eq!(d.target().cycles(), plain.cycles());
        // As a session without history (which cannot look back) counts.
        let mut bare = Debugger::new(machine("push_no_pull.asm"));
        bare.set_history_budget(None);
        bare.set_fast_path(fast);
        let plain_stop = bare.run();
        assert!(!plain_stop.message.contains("returned there"));
        assert_eq!(d.index(), bare.index());
        assert_eq!(stop.cycles, plain_stop.cycles);
        // And the session goes on from there as before: one step back is
        // the rts (past the refused step, which changed nothing visible).
        d.step_back();
        assert_eq!(d.target().cpu().regs.pc, 0xC00B);
    }
    // A jump: named as it is.
    let mut d = Debugger::new(machine("jump_table.asm"));
    let stop = d.run();
    assert!(
        stop.message
            .contains("`jmp $00,x` at $C006 in start+6 (jump_table.asm:5) went there"),
        "{}",
        stop.message
    );
}

//! The lesson engine on a real debugging session: [`Probe`] for a
//! [`Debugger`] over the trainer11 [`Machine`], the conversion of its
//! explanations into lesson events, and [`perform`], which carries out one
//! action of a step's model solution through the same library calls the GUI
//! makes (breakpoint by spec, run, step, keys, explain, answer).

use super::engine::{Event, Explained, LessonRun, Outcome, Probe, Subject};
use super::eval::{eval_address, EvalError};
use super::manifest::Action;
use crate::cpu::Registers;
use crate::debug::{Debugger, Explanation, Stop, Target};
use crate::image::Program;
use crate::machine::Machine;
use crate::script::{Action as KeyAction, Script};
use thiserror::Error;

/// E-cycles one `run` or `keys` of a model student may take (25 s of board
/// time): far more than any step needs, small enough that a wrong solution
/// fails in seconds instead of hanging a test.
pub const STUDENT_BUDGET: u64 = 50_000_000;

/// A model-solution action that could not be carried out.
#[derive(Debug, Error)]
pub enum PerformError {
    /// The breakpoint spec is malformed or names nothing.
    #[error(transparent)]
    Breakpoint(#[from] crate::debug::breakpoint::BreakError),
    /// The key list does not parse.
    #[error(transparent)]
    Keys(#[from] crate::script::ScriptError),
    /// An address to explain does not evaluate.
    #[error(transparent)]
    Address(#[from] EvalError),
    /// The debugger cannot explain (provenance off, no LCD, outside the picture).
    #[error(transparent)]
    Explain(#[from] crate::debug::session::ExplainError),
}

impl Probe for Debugger<Machine> {
    fn program(&self) -> Option<&Program> {
        Some(Debugger::program(self))
    }
    fn peek(&self, addr: u16) -> u8 {
        self.target().peek(addr)
    }
    fn registers(&self) -> Option<Registers> {
        Some(Debugger::registers(self))
    }
    fn paused(&self) -> bool {
        // A debugger session runs only inside a command; between commands
        // the machine stands still.
        true
    }
    fn breakpoints(&self) -> Vec<u16> {
        self.breakpoints
            .list()
            .iter()
            .filter(|b| b.enabled)
            .flat_map(|b| b.addrs.iter().copied())
            .collect()
    }
    fn pixel(&self, x: usize, y: usize) -> Option<bool> {
        (x < 128 && y < 64).then(|| Target::pixel(self.target(), x, y))
    }
    fn serial(&self) -> String {
        self.target().serial_text()
    }
}

/// `label+12` -> `label`.
fn base_label(l: &str) -> String {
    l.split('+').next().unwrap_or(l).trim().to_string()
}

/// A debugger explanation as a lesson event: the subject and every label
/// (instruction and data) along its chain.
pub fn explained(subject: Subject, e: &Explanation) -> Explained {
    let mut labels: Vec<String> = Vec::new();
    for link in &e.chain {
        for l in [&link.label, &link.data_label].into_iter().flatten() {
            let b = base_label(l);
            if !b.is_empty() && !labels.contains(&b) {
                labels.push(b);
            }
        }
    }
    Explained {
        subject,
        labels,
        traced: true,
    }
}

/// What one action did, for logs and test messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Done {
    /// A command that stopped the machine, and why.
    Stopped(Stop),
    /// A breakpoint was set (its id).
    Breakpoint(u32),
    /// Something without a stop (clear, reset).
    Nothing,
    /// An explanation was asked for; its text.
    Explained(String),
    /// An answer or Check; the engine's outcome.
    Answered(Outcome),
}

/// Key numbers of the taps in a key script.
fn taps(script: &Script) -> Vec<u8> {
    script
        .actions
        .iter()
        .filter_map(|a| match a {
            KeyAction::Tap(k) => Some(*k),
            _ => None,
        })
        .collect()
}

/// A fresh session on `machine` the way lessons need it: provenance on
/// (for explanations), reverse history off, a cycle budget per command.
pub fn student_session(machine: Machine) -> Debugger<Machine> {
    let mut d = Debugger::new(machine);
    d.set_history_budget(None);
    d.set_provenance(true);
    d.max_cycles = STUDENT_BUDGET;
    d
}

/// Carries out `action` on `session` and tells `run` what happened
/// (events, answers); then lets the engine evaluate the current step.
pub fn perform(
    session: &mut Debugger<Machine>,
    run: &mut LessonRun,
    action: &Action,
) -> Result<Done, PerformError> {
    let done = match action {
        Action::Reset => {
            session.reset();
            run.note(&Event::Reset, session);
            Done::Nothing
        }
        Action::Break(spec) => Done::Breakpoint(session.add_breakpoint(spec)?),
        Action::Clear => {
            session.breakpoints.clear();
            Done::Nothing
        }
        Action::Run => Done::Stopped(session.run()),
        Action::Step => Done::Stopped(session.step_into()),
        Action::Over => Done::Stopped(session.step_over()),
        Action::Out => Done::Stopped(session.step_out()),
        Action::Keys(list) => {
            let script = Script::parse_keys(list)?;
            let m = session.target_mut();
            // A student lets go of every key before the next press; a
            // script stopped at a breakpoint may have left one down.
            for k in 0..8 {
                m.set_key(k, false);
            }
            m.start_script(&script);
            let stop = session.run();
            // Taps begun so far (a breakpoint may stop the script early).
            let begun = session
                .target()
                .script_progress()
                .map_or(script.actions.len(), |(i, _)| i);
            let keys: Vec<u8> = taps(&Script {
                actions: script.actions.iter().take(begun).cloned().collect(),
            });
            for k in keys {
                run.note(&Event::Key(k), session);
            }
            Done::Stopped(stop)
        }
        Action::ExplainPixel(x, y) => {
            let e = session.explain_pixel(*x as usize, *y as usize)?;
            let ev = Event::Explained(explained(Subject::Pixel { x: *x, y: *y }, &e));
            run.note(&ev, session);
            Done::Explained(e.to_text())
        }
        Action::ExplainAddress(expr) => {
            let addr = eval_address(expr, Some(Debugger::program(session)))?;
            let e = session.explain_address(addr)?;
            let ev = Event::Explained(explained(Subject::Address(addr), &e));
            run.note(&ev, session);
            Done::Explained(e.to_text())
        }
        Action::Answer(text) => Done::Answered(run.answer(text, session)),
        Action::Check => Done::Answered(run.check_now(session)),
    };
    run.update(session);
    Ok(done)
}

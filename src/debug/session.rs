//! The debugging session: a [`Debugger`] wraps a target machine and runs it
//! instruction by instruction (M68HC11 RM section 3, fetch/execute; interrupts
//! section 5) under breakpoints, watchpoints and stepping commands, keeping
//! the call stack, the cycle profile, provenance (when asked) and snapshots
//! for reverse execution. Every command returns a [`Stop`] that says why.
//!
//! Owns: one debugging session (its commands, stops, history and
//! questions). Must not know about: who drives it (the window, `run
//! --break`, lessons, the grader's breakpoint checks).
//!
//! Rooms: this file holds the session's state, its making and its
//! settings; `stepping.rs` the commands and the step (single steps and the
//! fast path's runs); `stops.rs` the stop decisions and their sentences;
//! `reverse.rs` going back through history; `queries.rs` the views and the
//! provenance questions; `flow.rs` what a step does to the call stack and
//! profile; `fast.rs` the hook the machine's fast path runs with.

mod fast;
mod flow;
mod queries;
mod reverse;
mod stepping;
mod stops;

use super::breakpoint::{BreakError, Breakpoints, ConditionInput};
use super::callstack::{CallStack, StackMark};
use super::condition::{EvalContext, Reg};
use super::history::{History, DEFAULT_BUDGET};
use super::lazy_provenance::LazyProvenance;
use super::observe::AccessLog;
use super::profile::{Profile, RowDelta};
use super::provenance::Tracker;
use super::target::{Target, TargetStep};
use super::watch::{WatchError, WatchHit, Watchpoints};
use crate::cpu::Registers;
use crate::image::{LabelIndex, Program};
use crate::machine::hooked::RepeatCache;
use serde::Serialize;
use std::cell::{OnceCell, RefCell};

/// Longest provenance chain reported.
pub const MAX_CHAIN: usize = 24;

/// Why a command stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// One instruction (or interrupt entry) done: step into, step back.
    Step,
    /// Before an instruction at a breakpoint.
    Breakpoint {
        /// The breakpoint's id.
        id: u32,
        /// Its spec as written.
        spec: String,
        /// Hits counted so far.
        hits: u32,
    },
    /// After an instruction that touched a watched byte.
    Watchpoint {
        /// The accesses that triggered (instruction, address, old, new).
        hits: Vec<WatchHit>,
    },
    /// The subroutine (or handler) the command was waiting for returned.
    Returned {
        /// The subroutine's address.
        from: u16,
        /// Where it returned to.
        to: u16,
        /// Where it should have returned to (differs when the program moved
        /// the stack by hand).
        expected: u16,
        /// False if its frame was abandoned (stack reset or overwritten)
        /// rather than popped by RTS/RTI.
        by_return: bool,
    },
    /// At the address a run-to command aimed for.
    Reached {
        /// The address.
        addr: u16,
    },
    /// The CPU met an illegal opcode; it stopped before the trap (PC on the
    /// opcode, nothing stacked). Continuing takes the trap through $FFF8.
    IllegalOpcode {
        /// Where.
        addr: u16,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// The board refused a write (program memory or unmapped); the
    /// instruction was undone. Continuing runs it as the chip does (the
    /// byte is not stored).
    BadWrite {
        /// `rom` or `unmapped`.
        area: String,
        /// Address written.
        addr: u16,
        /// Value.
        value: u8,
        /// The writing instruction.
        pc: u16,
    },
    /// The key script and serial input are done and the program waits for input.
    Settled {
        /// What it polls (`keys (PIO_B)`, `serial input (SCSR.RDRF)`).
        waiting_on: String,
    },
    /// The CPU can never go on (a branch to itself, WAI or STOP with
    /// nothing that could end it).
    Halted {
        /// `self_loop`, `wai` or `stop`.
        halt: String,
        /// The sentence (`halted: a branch to itself with interrupts masked (I set)`).
        why: String,
    },
    /// The command's cycle budget is used up.
    Budget {
        /// Cycles the command ran.
        cycles: u64,
    },
    /// Going back reached the oldest state kept.
    StartOfHistory,
    /// Step out with no frame to leave.
    NoFrame,
}

/// Where and why a command stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stop {
    /// Why.
    pub reason: Reason,
    /// One sentence for people, with labels.
    pub message: String,
    /// PC now (the next instruction to run).
    pub pc: u16,
    /// E-cycles since reset.
    pub cycles: u64,
    /// Steps since the session's start (its position in history).
    pub index: u64,
    /// For a stop before an illegal opcode or a refused write, at an
    /// instruction where the program put no bytes: the sentence (also at
    /// the end of `message`) naming the step that left them, for the window
    /// to word in its language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<String>,
}

/// Why a provenance question cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExplainError {
    /// Provenance tracking is off; switch it on with `set_provenance(true)` and run again.
    #[error("provenance tracking is off: enable it before running (e.g. `--explain` does)")]
    TrackingOff,
    /// The target has no LCD.
    #[error("this target has no LCD")]
    NoLcd,
    /// The pixel is outside 128x64.
    #[error("pixel ({0},{1}) is outside the 128x64 picture")]
    OutsidePicture(usize, usize),
}

/// Everything derived from execution: saved with each snapshot, so going
/// back restores it exactly.
#[derive(Clone, Debug)]
struct Tracked {
    callstack: CallStack,
    profile: Profile,
    tracker: Option<Box<Tracker>>,
    index: u64,
}

#[derive(Clone, Debug)]
struct Saved<T> {
    target: T,
    tracked: Tracked,
}

#[derive(Clone, Copy, Debug)]
struct StepInfo {
    ts: TargetStep,
    pc: u16,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Cmd {
    Into,
    Over { depth: usize, ret: u16, sp: u16 },
    Out { depth: usize },
    Continue,
    RunTo(Vec<u16>),
}

/// Approximate bytes of a snapshot of `target` with `tracked`.
fn saved_bytes<T: Target>(target: &T, tracked: &Tracked) -> usize {
    target.heap_bytes()
        + tracked.tracker.as_ref().map_or(0, |t| t.live_bytes())
        + tracked.callstack.depth() * std::mem::size_of::<super::callstack::Frame>()
        + 4096
}

/// A read-only view of a target's registers and memory, for evaluating
/// breakpoint conditions and address expressions without side effects.
pub(crate) struct TargetView<'a, T: Target>(pub(crate) &'a T);

impl<T: Target> EvalContext for TargetView<'_, T> {
    fn reg(&self, reg: Reg) -> u64 {
        let r = self.0.cpu().regs;
        match reg {
            Reg::A => r.a as u64,
            Reg::B => r.b as u64,
            Reg::D => r.d() as u64,
            Reg::X => r.x as u64,
            Reg::Y => r.y as u64,
            Reg::Sp => r.sp as u64,
            Reg::Pc => r.pc as u64,
            Reg::Ccr => r.ccr as u64,
            Reg::Cycles => self.0.cycles(),
        }
    }
    fn peek(&self, addr: u16) -> u8 {
        self.0.peek(addr)
    }
}

/// A debugging session over a target.
pub struct Debugger<T: Target> {
    target: T,
    tracked: Tracked,
    /// The breakpoints (add with [`Debugger::add_breakpoint`]).
    pub breakpoints: Breakpoints,
    /// The watchpoints (add with [`Debugger::add_watchpoint`]).
    pub watchpoints: Watchpoints,
    history: Option<History<Saved<T>>>,
    log: AccessLog,
    hits: Vec<WatchHit>,
    replaying: bool,
    dirty: bool,
    check_first: bool,
    /// The E-cycle count at which a breakpoint here was last asked and let
    /// the run go on: a budget stop right after that ask must not ask
    /// again (counting the visit twice) when the next run starts here.
    asked_at: Option<u64>,
    spdr: Option<u16>,
    devices: Vec<(u16, u16)>,
    empty: Program,
    /// Whether commands may run on the target's fast path.
    fast: bool,
    repeat_cache: RepeatCache,
    stack_mark: StackMark,
    rows: Vec<RowDelta>,
    /// The fast path's buffers for condition inputs, kept between runs.
    visits: [Vec<ConditionInput>; 2],
    /// E-cycles one command may run before it stops with [`Reason::Budget`].
    pub max_cycles: u64,
    /// Provenance on the fast path, tracked when a question comes (module
    /// `lazy_provenance`); in a cell because questions take `&self`.
    lazy: RefCell<Option<Box<LazyProvenance<T>>>>,
    /// The program's labels by address, made at the first stop that names
    /// one (a scan of every symbol per name was most of a watchpoint
    /// stop); dropped whenever the target may have changed.
    labels: OnceCell<LabelIndex>,
}

impl<T: Target> Debugger<T> {
    /// A session on `target` with reverse execution on (default budget) and
    /// provenance off.
    pub fn new(target: T) -> Self {
        let spdr = target.spdr();
        let devices = target.device_ranges();
        let now = target.cycles();
        let mut d = Debugger {
            target,
            tracked: Tracked {
                callstack: CallStack::new(),
                profile: Profile::new(now),
                tracker: None,
                index: 0,
            },
            breakpoints: Breakpoints::new(),
            watchpoints: Watchpoints::new(),
            history: None,
            log: AccessLog::default(),
            hits: Vec::new(),
            replaying: false,
            dirty: false,
            // At reset: see `restart_tracking`.
            check_first: now == 0,
            asked_at: None,
            spdr,
            devices,
            empty: Program::default(),
            fast: true,
            repeat_cache: RepeatCache::default(),
            stack_mark: StackMark::default(),
            rows: Vec::new(),
            visits: Default::default(),
            max_cycles: 1_000_000_000,
            lazy: RefCell::new(None),
            labels: OnceCell::new(),
        };
        d.set_history_budget(Some(DEFAULT_BUDGET));
        d
    }

    /// The machine now (peek at will; change it through [`Debugger::target_mut`]).
    pub fn target(&self) -> &T {
        &self.target
    }

    /// Ends the session, giving the machine back in its current state.
    pub fn into_target(self) -> T {
        self.target
    }

    /// The machine, for changes from outside (a key pressed by hand, a
    /// memory edit): the recorded future is dropped, since it may differ now.
    pub fn target_mut(&mut self) -> &mut T {
        self.labels = OnceCell::new();
        let i = self.tracked.index;
        if let Some(h) = &mut self.history {
            // The state at this index is about to change: what was recorded
            // from here on is stale. The new state is saved (pinned) before
            // the next step, so going back across the change stays exact.
            h.truncate_from(i);
            self.dirty = true;
        }
        if let Some(lazy) = self.lazy.get_mut() {
            // The same for the provenance replays: they take the new state
            // at this index.
            lazy.changing_at(i);
            self.dirty = true;
        }
        &mut self.target
    }

    /// The stop when the key script ends. Its end changed the machine
    /// between two steps (the script is gone, the input waited on is
    /// noted), which replaying the steps to this index does not repeat: the
    /// state is saved (pinned) before the next step, as after an outside
    /// change, so going back to this point gives exactly this state.
    fn settled(&mut self, kind: crate::board::InputKind) -> Stop {
        if self.history.is_some() || self.lazy.get_mut().is_some() {
            self.dirty = true;
        }
        self.stop(Reason::Settled {
            waiting_on: kind.describe().to_string(),
        })
    }

    /// Saves the state after an outside change (see [`Debugger::target_mut`]).
    #[inline]
    fn settle_change(&mut self) {
        if self.dirty {
            self.save_changed();
        }
    }

    #[cold]
    fn save_changed(&mut self) {
        self.dirty = false;
        if let Some(lazy) = self.lazy.get_mut() {
            lazy.changed(self.tracked.index, &self.target);
        }
        if self.history.is_none() {
            return;
        }
        let saved = self.saved();
        let bytes = self.saved_bytes();
        let (i, cycles) = (self.tracked.index, self.target.cycles());
        if let Some(h) = &mut self.history {
            h.record_pinned(i, cycles, saved, bytes);
        }
    }

    /// The program (an empty one if the target has none).
    pub fn program(&self) -> &Program {
        self.target.program().unwrap_or(&self.empty)
    }

    /// Steps since the session started (the position in history).
    pub fn index(&self) -> u64 {
        self.tracked.index
    }

    /// The registers now.
    pub fn registers(&self) -> Registers {
        self.target.cpu().regs
    }

    // ---- configuration -------------------------------------------------

    /// Turns provenance tracking on (history starts now, from an empty
    /// slate) or off. On the fast path a run costs nothing more with it on:
    /// the first question after a run tracks the steps since the last one
    /// (module `lazy_provenance`; see `benches/debug.rs`). On the slow path
    /// every step is tracked as it runs.
    pub fn set_provenance(&mut self, on: bool) {
        if on && !self.provenance() {
            if self.fast {
                self.start_lazy(self.new_tracker());
            } else {
                self.tracked.tracker = Some(Box::new(self.new_tracker()));
            }
        } else if !on {
            self.tracked.tracker = None;
            *self.lazy.get_mut() = None;
        }
    }

    /// True while provenance is tracked.
    pub fn provenance(&self) -> bool {
        self.tracked.tracker.is_some() || self.lazy.borrow().is_some()
    }

    /// Lazy provenance from the present state on, `tracker` being its
    /// tracker now.
    fn start_lazy(&mut self, tracker: Tracker) {
        let lazy = LazyProvenance::new(&self.target, tracker, self.tracked.index, self.spdr);
        *self.lazy.get_mut() = Some(Box::new(lazy));
    }

    /// Tracks provenance up to now if it lags behind (the fast path's runs
    /// leave that to the first question): a caller that runs in slices and
    /// may be asked at any moment (the GUI) calls it after each slice, so
    /// that no question waits for a long replay.
    pub fn track_provenance(&mut self) {
        if self.lazy.get_mut().is_some() {
            let _ = self.caught_up();
        }
    }

    /// Checkpoints and outside states the lazy provenance keeps (`None`
    /// when it is off).
    pub fn provenance_kept(&self) -> Option<(usize, usize)> {
        self.lazy.borrow().as_ref().map(|l| l.kept())
    }

    /// Steps the lazy provenance replayed with its tracker and steps it
    /// skipped (loops whose further iterations change no answer), since
    /// tracking began (`None` when it is off or tracked as it runs).
    pub fn provenance_replayed(&self) -> Option<(u64, u64)> {
        self.lazy.borrow().as_ref().map(|l| l.replayed())
    }

    fn new_tracker(&self) -> Tracker {
        let mut t = Tracker::new();
        for &(s, e) in &self.devices {
            t.mark_device_range(s, e);
        }
        t
    }

    /// Sets the snapshot memory budget for reverse execution (`None` = off).
    /// Changing it restarts the history at the present state.
    pub fn set_history_budget(&mut self, budget: Option<usize>) {
        self.history = budget.map(|b| {
            // Provenance makes snapshots bigger: start sparser.
            let interval = if self.tracked.tracker.is_some() {
                200_000
            } else {
                20_000
            };
            History::with_interval(b, interval)
        });
        let i = self.tracked.index;
        let cycles = self.target.cycles();
        if self.history.is_some() {
            let saved = self.saved();
            let bytes = self.saved_bytes();
            if let Some(h) = &mut self.history {
                h.record(i, cycles, saved, bytes);
            }
        }
    }

    /// Snapshot statistics: (snapshots, bytes used, current interval in cycles).
    pub fn history_stats(&self) -> Option<(usize, usize, u64)> {
        self.history
            .as_ref()
            .map(|h| (h.len(), h.used(), h.interval()))
    }

    /// Adds a breakpoint from a spec (`readInput`, `$C123`, `Board.inc:40`,
    /// `getLineLength:2 if [coordy] == 5`).
    pub fn add_breakpoint(&mut self, spec: &str) -> Result<u32, BreakError> {
        let program = self.target.program().unwrap_or(&self.empty);
        self.breakpoints.add_spec(spec, program)
    }

    /// Adds a watchpoint from a spec (`board+136:8`, `change coordy`).
    pub fn add_watchpoint(&mut self, spec: &str) -> Result<u32, WatchError> {
        self.watchpoints.add_spec(spec, self.target.program())
    }

    /// Replaces the machine (after a re-assembly): breakpoints and
    /// watchpoints are re-resolved by name, history and trackers restart.
    pub fn replace_target(&mut self, target: T) {
        self.target = target;
        self.labels = OnceCell::new();
        self.spdr = self.target.spdr();
        self.devices = self.target.device_ranges();
        let program = self.target.program().unwrap_or(&self.empty);
        self.breakpoints.rebind(program);
        self.watchpoints.rebind(self.target.program());
        self.restart_tracking();
    }

    /// Resets the machine and restarts the session's history.
    pub fn reset(&mut self) {
        self.target.reset();
        self.breakpoints.reset_hits();
        self.restart_tracking();
    }

    fn restart_tracking(&mut self) {
        let prov = self.tracked.tracker.is_some();
        self.tracked = Tracked {
            callstack: CallStack::new(),
            profile: Profile::new(self.target.cycles()),
            tracker: prov.then(|| Box::new(self.new_tracker())),
            index: 0,
        };
        if self.lazy.get_mut().is_some() {
            self.start_lazy(self.new_tracker());
        }
        // A machine that has run nothing yet (just made or reset) starts
        // at its entry: a breakpoint there is the user's "break at the
        // start" and must stop the first run before the instruction, as
        // any later visit would.
        self.check_first = self.target.cycles() == 0;
        let budget = self.history.as_ref().map(|h| h.budget());
        self.set_history_budget(budget);
    }

    // ---- the step --------------------------------------------------------

    fn saved(&self) -> Saved<T> {
        Saved {
            target: self.target.clone(),
            tracked: self.tracked.clone(),
        }
    }

    fn saved_bytes(&self) -> usize {
        saved_bytes(&self.target, &self.tracked)
    }

    fn is_device(&self, addr: u16) -> bool {
        self.devices.iter().any(|&(s, e)| (s..=e).contains(&addr))
    }
}

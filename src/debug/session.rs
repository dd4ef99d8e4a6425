//! The debugging session: a [`Debugger`] wraps a target machine and runs it
//! instruction by instruction (M68HC11 RM section 3, fetch/execute; interrupts
//! section 5) under breakpoints, watchpoints and stepping commands, keeping
//! the call stack, the cycle profile, provenance (when asked) and snapshots
//! for reverse execution. Every command returns a [`Stop`] that says why.

use super::breakpoint::{find_file, BreakError, BreakSpec, Breakpoints, ConditionInput};
use super::callstack::{CallStack, Ended, Flow, StackMark};
use super::condition::{EvalContext, Reg};
use super::history::{History, DEFAULT_BUDGET};
use super::lazy_provenance::{LazyProvenance, TrackBefore};
use super::observe::AccessLog;
use super::profile::{label_text, Profile, ProfileReport, RowDelta};
use super::provenance::{RegByte, Tracker, NONE};
use super::report::{
    annotate, data_label, data_label_text, frames_report, initial_link, Explanation, FrameReport,
    PixelInfo,
};
use super::target::{FastStop, Fault, Target, TargetStep};
use super::watch::{WatchError, WatchHit, Watchpoints};
use crate::cpu::{flow_op, Instruction, Op, Registers, RunState, Step, StepEvent};
use crate::image::{LabelIndex, Program, Symbol};
use crate::machine::hooked::{
    AtBreakpoint, Interest, Iteration, RepeatCache, StepBefore, StepHook,
};
use crate::machine::stray::ProgramExit;
use serde::Serialize;
use std::cell::{OnceCell, Ref, RefCell};

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

/// What a step did to the control flow: `op` is the operation at `pc`
/// before the step (if it is one the call stack cares about), `sp_before`
/// the stack pointer then, `pc_after` where the step went.
fn flow_of(op: Option<Op>, step: &Step, pc: u16, sp_before: u16, pc_after: u16) -> Flow {
    match step.event {
        StepEvent::None => match op {
            Some(Op::Jsr | Op::Bsr) => Flow::Call {
                site: pc,
                target: pc_after,
            },
            Some(Op::Rts) => Flow::Return {
                sp_before,
                rti: false,
            },
            Some(Op::Rti) => Flow::Return {
                sp_before,
                rti: true,
            },
            _ => Flow::Plain,
        },
        StepEvent::Swi => Flow::Interrupt {
            site: pc,
            vector: 0xFFF6,
            target: pc_after,
        },
        StepEvent::Illegal(_) => Flow::Interrupt {
            site: pc,
            vector: 0xFFF8,
            target: pc_after,
        },
        StepEvent::IllegalRefused(_) => Flow::Plain,
        StepEvent::Interrupt { vector } => Flow::Interrupt {
            site: step.pc,
            vector,
            target: pc_after,
        },
        StepEvent::Waiting | StepEvent::Stopped => Flow::Plain,
    }
}

/// The call stack and profile after one step: `before` is (PC, SP, cycles)
/// before it, `after` the registers and cycles after it; the profile
/// rows the step added go to `log` too, if given.
#[inline]
fn track_flow(
    tracked: &mut Tracked,
    op: Option<Op>,
    step: &Step,
    before: (u16, u16, u64),
    after: (&Registers, u64),
    peek: &impl Fn(u16) -> u8,
    mut log: Option<&mut Vec<RowDelta>>,
) {
    if step.event == StepEvent::None {
        match op {
            Some(Op::Jsr | Op::Bsr | Op::Rts) => {
                if call_or_return_fast(tracked, op, before, after, peek, log.as_deref_mut()) {
                    return;
                }
            }
            Some(Op::Rti) => {}
            // Any other instruction (the single-step path passes every op,
            // the fast path only these four) neither calls nor returns.
            _ => {
                tracked.callstack.apply_plain(after.0.sp);
                return;
            }
        }
    }
    track_call_or_return(tracked, op, step, before, after, peek, log);
}

/// The common calls and returns the short way (the same result as
/// `CallStack::apply`, which does the rest): a JSR or BSR (`op`) that
/// pushed a frame above the innermost, an RTS from the innermost frame.
/// Arguments as for [`track_flow`]; false, changing nothing, for any other.
#[inline(always)]
fn call_or_return_fast(
    tracked: &mut Tracked,
    op: Option<Op>,
    before: (u16, u16, u64),
    after: (&Registers, u64),
    peek: &impl Fn(u16) -> u8,
    log: Option<&mut Vec<RowDelta>>,
) -> bool {
    let (regs, cycles_after) = after;
    match op {
        Some(Op::Jsr | Op::Bsr) => {
            let sp = regs.sp;
            let ret = u16::from_be_bytes([peek(sp.wrapping_add(1)), peek(sp.wrapping_add(2))]);
            tracked
                .callstack
                .call_fast(before.0, regs.pc, ret, sp, before.2)
        }
        Some(Op::Rts) => {
            let cs = &mut tracked.callstack;
            if !cs.return_fast(before.1, regs.sp, regs.pc, cycles_after) {
                return false;
            }
            // `return_fast` ends exactly the innermost frame: its row in line.
            match cs.ended.as_slice() {
                [e] => tracked.profile.on_return(e, cs.frames(), cycles_after, log),
                ended => tracked
                    .profile
                    .on_ended_logged(ended, cs.frames(), cycles_after, log),
            }
            true
        }
        _ => false,
    }
}

/// [`track_flow`] for a step that called, returned or entered an interrupt.
#[inline(never)]
fn track_call_or_return(
    tracked: &mut Tracked,
    op: Option<Op>,
    step: &Step,
    before: (u16, u16, u64),
    after: (&Registers, u64),
    peek: &dyn Fn(u16) -> u8,
    log: Option<&mut Vec<RowDelta>>,
) {
    let (pc, sp_before, cycles_before) = before;
    let (regs, cycles_after) = after;
    let flow = flow_of(op, step, pc, sp_before, regs.pc);
    tracked
        .callstack
        .apply(flow, regs.sp, regs.pc, cycles_before, cycles_after, peek);
    if !tracked.callstack.ended.is_empty() {
        tracked.profile.on_ended_logged(
            &tracked.callstack.ended,
            tracked.callstack.frames(),
            cycles_after,
            log,
        );
    }
}

/// Whether a step-over or step-out is done, and why (the call stack after
/// the step, `regs` the registers after it); `None` while it goes on.
fn cmd_done(cmd: &Cmd, callstack: &CallStack, regs: &Registers) -> Option<Reason> {
    let done = match *cmd {
        Cmd::Into => return Some(Reason::Step),
        // Back at the return address with the stack where it was also
        // counts: a callee that dropped its return address and jumped back
        // leaves no RTS to see.
        Cmd::Over { depth, ret, sp } => {
            callstack.depth() <= depth || (regs.pc == ret && regs.sp >= sp)
        }
        Cmd::Out { depth } => callstack.depth() < depth,
        Cmd::Continue | Cmd::RunTo(_) => false,
    };
    if !done {
        return None;
    }
    let ended: Option<Ended> = callstack.ended.last().copied();
    Some(match ended {
        Some(e) => Reason::Returned {
            from: e.frame.target,
            to: regs.pc,
            expected: e.frame.return_addr,
            by_return: e.returned,
        },
        None => Reason::Step,
    })
}

/// The session's part of a run on the target's fast path
/// ([`Target::run_hooked`]): the call stack, profile, step count and
/// snapshots after each step, breakpoint conditions and hit counts at
/// breakpoint addresses, and the command's own end (run to, step over,
/// step out), and the watchpoints on RAM. Used when nothing needs each
/// bus access (no watchpoint on a device register, no provenance tracked
/// step by step).
struct FastHook<'a, T: Target> {
    tracked: &'a mut Tracked,
    breakpoints: &'a mut Breakpoints,
    history: &'a mut Option<History<Saved<T>>>,
    cmd: &'a Cmd,
    /// Why the hook stopped the run.
    reason: Option<Reason>,
    /// Calls and returns may take [`StepHook::quick_flow`] (not while a
    /// single step runs, which stops after its one step).
    lean: bool,
    /// A return from a call stack this deep or less ends the command (a
    /// step over or out; 0 for the others, whose returns end nothing).
    end_depth: usize,
    /// Step over's return address, else `u32::MAX` (no address).
    over_ret: u32,
    /// PC before the last step (a faulting step's address).
    last_pc: u16,
    /// The call stack when the loop iteration being measured began, and the
    /// profile rows the iteration added since.
    mark: StackMark,
    marked: bool,
    rows: Vec<RowDelta>,
    /// What the breakpoint conditions read at their visits in the first
    /// and second iteration of a counted measurement (`visits[0]` alone in
    /// a plain one), and which of the two is being recorded.
    visits: [Vec<ConditionInput>; 2],
    visit_pass: usize,
    counted: bool,
    /// The breakpoints that counted a hit in the iteration measured (the
    /// second of a counted measurement), one id per hit.
    hits: Vec<u32>,
    /// The watchpoints (the machine reports the steps that made a watched
    /// access), the hits of the step that triggered, and a buffer for the
    /// step's watched accesses as the slow path's observer sees them.
    watchpoints: &'a mut Watchpoints,
    watch_hits: Vec<WatchHit>,
    accesses: Vec<super::observe::Access>,
}

/// Condition inputs one measured iteration may record before its visits
/// count as not repeating (a loop with many breakpoint visits is asked at
/// each).
const MAX_ITERATION_INPUTS: usize = 256;

/// Profile rows one measured iteration may add before it is given up as no
/// polling loop (the machine measures at most 48 steps).
const MAX_ITERATION_ROWS: usize = 64;

impl<T: Target> FastHook<'_, T> {
    /// Records a snapshot of `m` for the history. Out of line: the copy of
    /// the machine it builds is a stack frame of over 4 KiB, which in
    /// `after_step` cost a stack probe and a cold page at every call and
    /// return the hook heard of.
    #[cold]
    #[inline(never)]
    fn snapshot(&mut self, m: &T, cycles_after: u64) {
        let saved = Saved {
            target: m.clone_unwatched(),
            tracked: self.tracked.clone(),
        };
        let bytes = saved_bytes(m, self.tracked);
        let i = self.tracked.index;
        if let Some(h) = self.history {
            h.record(i, cycles_after, saved, bytes);
        }
    }

    /// The step at `pc` made watched accesses: true (with the reason) if a
    /// watchpoint triggers, as the slow path's check after the step.
    #[cold]
    #[inline(never)]
    fn watched(&mut self, m: &T, pc: u16) -> bool {
        use super::observe::{Access, AccessKind};
        self.accesses.clear();
        self.accesses
            .extend(m.watched_accesses().iter().map(|w| Access {
                kind: if w.write {
                    AccessKind::Write
                } else {
                    AccessKind::Read
                },
                addr: w.addr,
                value: w.value,
                old: w.old,
            }));
        // The instruction's own bytes are its fetch, not a read (the
        // machine's fetches bypass the watch, but a data read of them
        // would not): decoded as they are after the step.
        let len = Instruction::decode(pc, |a| m.peek(a)).map_or(1, |i| i.len());
        self.watchpoints
            .check(&self.accesses, pc, len, true, &mut self.watch_hits);
        if self.watch_hits.is_empty() {
            return false;
        }
        self.reason = Some(Reason::Watchpoint {
            hits: self.watch_hits.clone(),
        });
        true
    }
}

impl<T: Target> StepHook<T> for FastHook<'_, T> {
    fn interest(&self) -> Interest {
        // Step over needs no more: it ends when the call's frame ends (a
        // call or return, or a step that takes SP above a frame, all of
        // which the hook hears) or back at the return address with SP at
        // or above the call's, which is above the call's frame and every
        // frame pushed since, so the hook hears that step too.
        Interest {
            every_step: false,
            // Above the innermost frame's SP the frames fall into doubt.
            sp_above: self
                .tracked
                .callstack
                .frames()
                .last()
                .map_or(u16::MAX, |f| f.sp),
            at_cycle: self.history.as_ref().map_or(u64::MAX, |h| h.next_due()),
        }
    }

    fn plain_steps(&mut self, n: u64) {
        // What each of them did to the call stack: ended nothing, moved SP
        // no higher than the innermost frame.
        self.tracked.callstack.apply_plain(0);
        self.tracked.index += n;
    }

    fn at_breakpoint(&mut self, m: &T) -> AtBreakpoint {
        let pc = m.cpu().regs.pc;
        if let Cmd::RunTo(addrs) = self.cmd {
            if addrs.contains(&pc) {
                self.reason = Some(Reason::Reached { addr: pc });
                return AtBreakpoint::Stop;
            }
        }
        // The devices as the board maps them now (INIT may have moved the
        // registers since the run began).
        let read_kind = |a: u16| m.read_kind(a);
        let inputs = &mut self.visits[self.visit_pass];
        let visit = self
            .breakpoints
            .visit(pc, &TargetView(m), &read_kind, inputs, &mut self.hits);
        if inputs.len() > MAX_ITERATION_INPUTS || self.hits.len() > MAX_ITERATION_INPUTS {
            inputs.clear();
            self.hits.clear();
            return AtBreakpoint::Go {
                repeats: false,
                steady: false,
            };
        }
        if let Some(id) = visit.stop {
            let (spec, hits) = self
                .breakpoints
                .get(id)
                .map(|b| (b.spec.text.clone(), b.hits))
                .unwrap_or_default();
            self.reason = Some(Reason::Breakpoint { id, spec, hits });
            return AtBreakpoint::Stop;
        }
        AtBreakpoint::Go {
            repeats: visit.repeats,
            steady: visit.steady,
        }
    }

    #[inline]
    fn after_step(&mut self, m: &T, before: &StepBefore, step: &Step) -> bool {
        self.last_pc = before.pc;
        let op = flow_op(before.opcode, || before.second);
        // By reference: a copy loads the registers in one wide load right
        // after the step's narrow stores to them, which waits for those
        // (a failed store forward, about 8% of this function's time).
        let regs = &m.cpu().regs;
        let cycles_after = m.cycles();
        let log = if self.marked && self.rows.len() < MAX_ITERATION_ROWS {
            Some(&mut self.rows)
        } else {
            self.marked = false;
            None
        };
        track_flow(
            self.tracked,
            op,
            step,
            (before.pc, before.sp, before.cycles),
            (regs, cycles_after),
            &|a| m.peek(a),
            log,
        );
        self.tracked.index += 1;
        if self.history.as_ref().is_some_and(|h| h.due(cycles_after)) {
            self.snapshot(m, cycles_after);
        }
        if !m.watched_accesses().is_empty() && self.watched(m, before.pc) {
            return true;
        }
        match cmd_done(self.cmd, &self.tracked.callstack, regs) {
            Some(r) => {
                self.reason = Some(r);
                true
            }
            None => false,
        }
    }

    #[inline]
    fn quick_flow(&mut self, m: &T, pending: u64, before: &StepBefore) -> Option<u16> {
        if !self.lean {
            return None;
        }
        // The quick stretch runs outside any loop measurement, so one that
        // ended without a skip logs no more rows (the next begins with
        // `iteration_start`).
        self.marked = false;
        let regs = &m.cpu().regs;
        let op = flow_op(before.opcode, || before.second);
        // A call or return that would end a step over or out (landing on
        // its return address; a return to its frame's depth) goes the full
        // way, which stops there.
        let ends = u32::from(regs.pc) == self.over_ret
            || (op == Some(Op::Rts) && self.tracked.callstack.depth() <= self.end_depth);
        if ends
            || !call_or_return_fast(
                self.tracked,
                op,
                (before.pc, before.sp, before.cycles),
                (regs, m.cycles()),
                &|a| m.peek(a),
                None,
            )
        {
            // RTI, or a call or return the call stack takes the long way.
            return None;
        }
        self.last_pc = before.pc;
        self.tracked.index += pending + 1;
        Some(
            self.tracked
                .callstack
                .frames()
                .last()
                .map_or(u16::MAX, |f| f.sp),
        )
    }

    fn iteration_start(&mut self, which: Iteration) {
        self.tracked.callstack.mark_into(&mut self.mark);
        self.marked = true;
        self.rows.clear();
        match which {
            Iteration::Plain | Iteration::CountedFirst => {
                self.visits.iter_mut().for_each(Vec::clear);
                self.visit_pass = 0;
            }
            Iteration::CountedSecond => self.visit_pass = 1,
        }
        self.hits.clear();
        self.counted = which != Iteration::Plain;
    }

    fn may_repeat(&mut self) -> bool {
        self.marked
            && self.tracked.callstack.repeats_since(&self.mark)
            && (!self.counted || self.visits[0] == self.visits[1])
    }

    fn repeat_cap(&self) -> u64 {
        if self.hits.is_empty() {
            u64::MAX
        } else {
            self.breakpoints.room(&self.hits)
        }
    }

    fn repeated(&mut self, k: u64, steps: u64) {
        self.breakpoints.add_hits(&self.hits, k);
        if self.marked {
            self.marked = false;
            self.tracked.callstack.repeat(&self.mark, k);
            self.tracked.profile.repeat(&self.rows, k);
            self.tracked.index += k * steps;
        }
    }
}

/// Approximate bytes of a snapshot of `target` with `tracked`.
fn saved_bytes<T: Target>(target: &T, tracked: &Tracked) -> usize {
    target.heap_bytes()
        + tracked.tracker.as_ref().map_or(0, |t| t.live_bytes())
        + tracked.callstack.depth() * std::mem::size_of::<super::callstack::Frame>()
        + 4096
}

/// The tracker a question reads (see [`Debugger::caught_up`]).
enum TrackerView<'a> {
    Eager(&'a Tracker),
    Lazy(Ref<'a, Tracker>),
}

impl std::ops::Deref for TrackerView<'_> {
    type Target = Tracker;
    fn deref(&self) -> &Tracker {
        match self {
            TrackerView::Eager(t) => t,
            TrackerView::Lazy(t) => t,
        }
    }
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

    // ---- views -----------------------------------------------------------

    /// The call stack, innermost frame first, with labels.
    pub fn call_stack(&self) -> Vec<FrameReport> {
        frames_report(self.tracked.callstack.frames(), self.target.program())
    }

    /// The raw tracker (frames outermost first).
    pub fn frames(&self) -> &[super::callstack::Frame] {
        self.tracked.callstack.frames()
    }

    /// The per-subroutine cycle profile since the session (or reset) began.
    pub fn profile(&self) -> ProfileReport {
        self.tracked.profile.report(
            self.tracked.callstack.frames(),
            self.target.cycles(),
            self.target.program(),
        )
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

    /// One step with all bookkeeping. `count` increments watch hit counters.
    fn step_once(&mut self, count: bool) -> StepInfo {
        self.settle_change();
        // Normally done by `run_cmd` just before; replays need it here.
        self.target.script_poll();
        let before = self.target.cpu().regs;
        let pc = before.pc;
        let tracking = self.tracked.tracker.is_some();
        let watching = self.watchpoints.active();
        // The call stack needs only the opcode; provenance and watchpoints
        // need the whole instruction.
        let track = tracking.then(|| TrackBefore::take(&self.target));
        let target = &self.target;
        let ins = match &track {
            Some(t) => t.instruction().copied(),
            None if watching => Instruction::decode(pc, |a| target.peek(a)).ok(),
            None => None,
        };
        let op = match &ins {
            Some(i) => Some(i.info.op),
            None => flow_op(target.peek(pc), || target.peek(pc.wrapping_add(1))),
        };
        let cycles_before = self.target.cycles();
        let ts = if watching {
            self.log.clear();
            self.target.step_observed(&mut self.log)
        } else {
            self.target.step()
        };
        let after = self.target.cpu().regs;
        let cycles_after = self.target.cycles();
        let target = &self.target;
        let peek = |a: u16| target.peek(a);
        track_flow(
            &mut self.tracked,
            op,
            &ts.step,
            (pc, before.sp, cycles_before),
            (&after, cycles_after),
            &peek,
            None,
        );
        if let (Some(t), Some(track)) = (self.tracked.tracker.as_deref_mut(), &track) {
            track.apply(t, target, &ts, self.spdr);
        }
        self.hits.clear();
        if watching {
            let len = ins.map_or(1, |i| i.len());
            self.watchpoints
                .check(&self.log.accesses, pc, len, count, &mut self.hits);
        }
        self.tracked.index += 1;
        if !self.replaying {
            let due = self.history.as_ref().is_some_and(|h| h.due(cycles_after));
            if due {
                if let Some(t) = self.tracked.tracker.as_deref_mut() {
                    t.compact();
                }
                let saved = self.saved();
                let bytes = self.saved_bytes();
                let i = self.tracked.index;
                if let Some(h) = &mut self.history {
                    h.record(i, cycles_after, saved, bytes);
                }
            }
        }
        StepInfo { ts, pc }
    }

    fn stop(&mut self, reason: Reason) -> Stop {
        self.check_first = matches!(reason, Reason::Budget { .. });
        let regs = self.target.cpu().regs;
        let mut message = self.describe(&reason);
        let mut exit_words = None;
        let fault = matches!(
            reason,
            Reason::IllegalOpcode { .. } | Reason::BadWrite { .. }
        );
        if fault && !self.target.entry_named(regs.pc) {
            if let Some(exit) = self.exit_from_program() {
                let words = exit.describe(&|a| self.target.peek(a), self.program());
                message.push_str(&format!(". {words}"));
                exit_words = Some(words);
            }
        }
        Stop {
            reason,
            message,
            pc: regs.pc,
            cycles: self.target.cycles(),
            index: self.tracked.index,
            exit: exit_words,
        }
    }

    fn label(&self, addr: u16) -> String {
        label_text(self.label_for(addr), addr)
    }

    /// `Program::label_for` through the session's index.
    fn label_for(&self, addr: u16) -> Option<(&Symbol, u16)> {
        let program = self.program();
        self.labels
            .get_or_init(|| program.label_index())
            .label_for(program, addr)
    }

    /// At a stop before an illegal opcode or a refused write, at an
    /// instruction where the program put no bytes:
    /// the step that last left them, found by going back up to
    /// `EXIT_STEPS` steps in the history and replaying them (exact, as every
    /// jump in history is); the session ends where it was. None without
    /// history (`run` replays the whole run instead) or if it lies further back.
    fn exit_from_program(&mut self) -> Option<ProgramExit> {
        /// Steps looked back over (a few ms of replay).
        const EXIT_STEPS: u64 = 50_000;
        let here = self.tracked.index;
        if self.program().byte_at(self.target.cpu().regs.pc).is_some() || here == 0 {
            return None;
        }
        let oldest = self.history.as_ref()?.snapshots().first()?.index;
        let start = here.saturating_sub(EXIT_STEPS).max(oldest);
        if start >= here || !self.goto(start) {
            return None;
        }
        let mut last = None;
        self.replaying = true;
        while self.tracked.index < here {
            let regs = self.target.cpu().regs;
            let probe = ProgramExit::probe(self.program(), &regs, &|a| self.target.peek(a));
            self.step_once(false);
            let after = self.target.cpu().regs;
            let exit = probe.and_then(|p| {
                p.after(self.program(), after.pc, after.sp, &|a| self.target.peek(a))
            });
            if let Some(exit) = exit {
                last = Some(exit);
            }
        }
        self.replaying = false;
        last
    }

    /// A sentence for a stop reason.
    fn describe(&self, reason: &Reason) -> String {
        let pc = self.target.cpu().regs.pc;
        // Not every sentence names where the program is (a watchpoint's
        // names the instruction that made the access).
        let here = || self.label(pc);
        match reason {
            Reason::Step => format!("stepped; next instruction at {here} (${pc:04X})", here = here()),
            Reason::Breakpoint { id, spec, hits } => {
                format!("breakpoint #{id} `{spec}` hit (hit {hits}) at {here} (${pc:04X})", here = here())
            }
            Reason::Watchpoint { hits } => {
                use std::fmt::Write;
                // One string written in place: a watchpoint on a busy byte
                // stops often, and each stop is said.
                let mut text = String::with_capacity(96 * hits.len());
                for (i, h) in hits.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "; " };
                    let at = self.label(h.pc);
                    let _ = write!(
                        text,
                        "{sep}watchpoint #{}: the instruction at {at} (${:04X}) ",
                        h.id, h.pc
                    );
                    let _ = match h.kind {
                        super::observe::AccessKind::Read => write!(text, "read ${:02X} from ", h.new),
                        super::observe::AccessKind::Write => {
                            write!(text, "wrote ${:02X} (was ${:02X}) to ", h.new, h.old)
                        }
                    };
                    text.push_str(&data_label_text(
                        self.target.program(),
                        self.label_for(h.addr),
                        h.addr,
                        self.is_device(h.addr),
                    ));
                }
                text
            }
            Reason::Returned {
                from,
                to,
                expected,
                by_return,
            } => {
                let from = self.label(*from);
                if !by_return {
                    format!("the frame of {from} was abandoned (stack moved by hand); now at {here}", here = here())
                } else if to == expected {
                    format!("returned from {from} to {}", self.label(*to))
                } else {
                    format!(
                        "returned from {from} to {} instead of {} (the stack was changed by hand)",
                        self.label(*to),
                        self.label(*expected)
                    )
                }
            }
            Reason::Reached { addr } => format!("reached {} (${addr:04X})", self.label(*addr)),
            Reason::IllegalOpcode { addr, bytes } => {
                let b: Vec<String> = bytes.iter().map(|b| format!("${b:02X}")).collect();
                format!(
                    "illegal opcode {} at {} (${addr:04X}){}; stopped before it: nothing ran, nothing was stacked (continue to take the trap through $FFF8){}",
                    b.join(" "),
                    self.label(*addr),
                    self.line_of(*addr),
                    self.stray_hint(*addr)
                )
            }
            Reason::BadWrite {
                area,
                addr,
                value,
                pc,
            } => format!(
                "`{}` at {} (${pc:04X}){} writes ${value:02X} to {} ${addr:04X}; stopped before it took effect (continue to run it as the chip does: the byte is not stored){}{}",
                self.disasm(*pc),
                self.label(*pc),
                self.line_of(*pc),
                if area == "rom" { "program memory" } else { "unmapped" },
                self.target
                    .write_fault_hint(*addr, area == "rom")
                    .unwrap_or_default(),
                self.stray_hint(*pc)
            ),
            Reason::Settled { waiting_on } => {
                format!(
                    "{}: {waiting_on}; at {here}",
                    crate::script::SETTLED_SENTENCE,
                    here = here()
                )
            }
            Reason::Halted { why, .. } => {
                format!("{why}; at {here} (${pc:04X}){}", self.line_of(pc), here = here())
            }
            Reason::Budget { cycles } => format!("ran {cycles} E-cycles without stopping; paused at {here}", here = here()),
            Reason::StartOfHistory => "reached the oldest state kept (start of history)".into(),
            Reason::NoFrame => "no subroutine to step out of (at top level)".into(),
        }
    }

    /// Where the program is and what went to `pc`, if `pc` is outside
    /// its bytes ([`Target::stray_hint`]), or nothing.
    fn stray_hint(&self, pc: u16) -> String {
        self.target.stray_hint(pc).unwrap_or_default()
    }

    /// ` (file:line)` of the source line at `addr`, or nothing.
    fn line_of(&self, addr: u16) -> String {
        self.program()
            .source_place(addr)
            .map(|p| format!(" ({p})"))
            .unwrap_or_default()
    }

    /// The instruction at `addr` as text (`staa $C100`), or its bytes.
    fn disasm(&self, addr: u16) -> String {
        let target = &self.target;
        Instruction::text_at(addr, |a| target.peek(a))
    }

    /// A stop caused by the step itself (trap, fault, watchpoint, halt).
    fn step_stop(&mut self, info: &StepInfo) -> Option<Reason> {
        if let StepEvent::IllegalRefused(ill) = info.ts.step.event {
            return Some(Reason::IllegalOpcode {
                addr: ill.addr,
                bytes: ill.bytes[..ill.len as usize].to_vec(),
            });
        }
        if let Some(f) = info.ts.fault {
            let (area, addr, value) = match f {
                Fault::RomWrite { addr, value } => ("rom", addr, value),
                Fault::UnmappedWrite { addr, value } => ("unmapped", addr, value),
            };
            return Some(Reason::BadWrite {
                area: area.into(),
                addr,
                value,
                pc: info.pc,
            });
        }
        if !self.hits.is_empty() {
            return Some(Reason::Watchpoint {
                hits: self.hits.clone(),
            });
        }
        if let Some(h) = info.ts.halt {
            use crate::machine::Halt;
            let kind = match h {
                Halt::SelfLoop { .. } => "self_loop",
                Halt::Wai { .. } => "wai",
                Halt::Stop => "stop",
            };
            return Some(Reason::Halted {
                halt: kind.into(),
                why: h.to_string(),
            });
        }
        None
    }

    fn run_cmd(&mut self, cmd: Cmd) -> Stop {
        if cmd != Cmd::Into && self.fast_path() {
            return self.run_fast(cmd);
        }
        let start = self.target.cycles();
        let mut first = true;
        loop {
            let pc = self.target.cpu().regs.pc;
            if !first || self.checks_first(&cmd) {
                if let Cmd::RunTo(addrs) = &cmd {
                    if addrs.contains(&pc) {
                        return self.stop(Reason::Reached { addr: pc });
                    }
                }
                if self.breakpoints.maybe_at(pc) {
                    if let Some(id) = self.breakpoints.check(pc, &TargetView(&self.target)) {
                        let (spec, hits) = self
                            .breakpoints
                            .get(id)
                            .map(|b| (b.spec.text.clone(), b.hits))
                            .unwrap_or_default();
                        return self.stop(Reason::Breakpoint { id, spec, hits });
                    }
                }
            }
            first = false;
            // Script actions happen between instructions, as in
            // `Machine::run_until`; its end stops before the next step.
            if let Some(kind) = self.target.script_poll() {
                return self.settled(kind);
            }
            let ran = self.target.cycles().saturating_sub(start);
            if ran >= self.max_cycles {
                return self.stop(Reason::Budget { cycles: ran });
            }
            let info = self.step_once(true);
            if let Some(r) = self.step_stop(&info) {
                return self.stop(r);
            }
            let regs = self.target.cpu().regs;
            if let Some(reason) = cmd_done(&cmd, &self.tracked.callstack, &regs) {
                return self.stop(reason);
            }
        }
    }

    /// Whether commands run on the target's fast path
    /// ([`Target::run_hooked`]): nothing needs each bus access (no
    /// watchpoint, no provenance tracked step by step: lazy provenance
    /// needs nothing of the run) and the fast path is not switched off.
    fn fast_path(&self) -> bool {
        let watch_ok =
            !self.watchpoints.active() || self.target.can_watch(self.watchpoints.board_bits());
        self.fast && watch_ok && self.tracked.tracker.is_none()
    }

    /// Turns the fast path off (every command then steps through
    /// [`Debugger::step_into`]'s path, observing everything) or back on
    /// (the default). The results are the same either way; the switch is
    /// there to check exactly that.
    pub fn set_fast_path(&mut self, on: bool) {
        if on == self.fast {
            return;
        }
        self.fast = on;
        // Provenance moves to the path's way of tracking, with the history
        // it has.
        if on {
            if let Some(t) = self.tracked.tracker.take() {
                self.start_lazy(*t);
            }
        } else if self.lazy.get_mut().is_some() {
            let tracker = self.caught_up().map(|t| Tracker::clone(&t));
            *self.lazy.get_mut() = None;
            self.tracked.tracker = Some(Box::new(tracker.unwrap_or_else(|_| self.new_tracker())));
        }
    }

    /// Whether `cmd` stops at a breakpoint on the instruction it starts
    /// at: after a budget stop (the run was cut there, not stopped), and
    /// for a run or run-to on a machine that has run nothing yet (a
    /// breakpoint on the entry). A single step always runs its
    /// instruction, and step over or out from a fresh machine steps first.
    fn checks_first(&self, cmd: &Cmd) -> bool {
        match cmd {
            Cmd::Into => false,
            Cmd::Continue | Cmd::RunTo(_) => self.check_first,
            _ => self.check_first && self.target.cycles() != 0,
        }
    }

    /// `run_cmd` on the target's fast path: the same stops, counts and
    /// tracked state, polling loops fast-forwarded where the machine can.
    fn run_fast(&mut self, cmd: Cmd) -> Stop {
        self.settle_change();
        self.hits.clear();
        let check_first = self.checks_first(&cmd);
        let start = self.target.cycles();
        let mut bps = self.breakpoints.addresses();
        if let Cmd::RunTo(addrs) = &cmd {
            for &a in addrs {
                bps.insert(a);
            }
        }
        let mut hook = FastHook {
            tracked: &mut self.tracked,
            breakpoints: &mut self.breakpoints,
            history: &mut self.history,
            cmd: &cmd,
            reason: None,
            lean: !matches!(cmd, Cmd::Into),
            // A return leaves depth - 1 frames: step over ends at `depth`
            // or less, step out below it.
            end_depth: match cmd {
                Cmd::Over { depth, .. } => depth + 1,
                Cmd::Out { depth } => depth,
                _ => 0,
            },
            over_ret: match cmd {
                Cmd::Over { ret, .. } => u32::from(ret),
                _ => u32::MAX,
            },
            last_pc: self.target.cpu().regs.pc,
            mark: std::mem::take(&mut self.stack_mark),
            marked: false,
            rows: std::mem::take(&mut self.rows),
            visits: std::mem::take(&mut self.visits),
            visit_pass: 0,
            counted: false,
            hits: Vec::new(),
            watchpoints: &mut self.watchpoints,
            watch_hits: Vec::new(),
            accesses: Vec::new(),
        };
        let watching = hook.watchpoints.active();
        if watching {
            self.target.set_watch(Some(hook.watchpoints.board_bits()));
        }
        let end = self.target.run_hooked(
            self.max_cycles,
            &bps,
            check_first,
            &mut hook,
            &mut self.repeat_cache,
        );
        if watching {
            self.target.set_watch(None);
        }
        self.hits = std::mem::take(&mut hook.watch_hits);
        let (reason, last_pc) = (hook.reason.take(), hook.last_pc);
        // Keep the buffers for the next command.
        self.stack_mark = std::mem::take(&mut hook.mark);
        self.rows = std::mem::take(&mut hook.rows);
        self.visits = std::mem::take(&mut hook.visits);
        match end {
            FastStop::Hook => {
                let reason = reason.unwrap_or(Reason::Step);
                self.stop(reason)
            }
            FastStop::Budget => {
                let ran = self.target.cycles().saturating_sub(start);
                self.stop(Reason::Budget { cycles: ran })
            }
            FastStop::Settled(kind) => self.settled(kind),
            FastStop::Step(ts) => {
                let info = StepInfo { ts, pc: last_pc };
                match self.step_stop(&info) {
                    Some(r) => self.stop(r),
                    None => self.stop(reason.unwrap_or(Reason::Step)),
                }
            }
        }
    }

    // ---- commands --------------------------------------------------------

    /// Runs one instruction (or takes one interrupt), following calls.
    pub fn step_into(&mut self) -> Stop {
        self.run_cmd(Cmd::Into)
    }

    /// Runs one instruction; a JSR/BSR runs until its subroutine returns
    /// (recognised by its call stack frame, so a callee that moves the
    /// stack or recurses does not confuse it).
    pub fn step_over(&mut self) -> Stop {
        let pc = self.target.cpu().regs.pc;
        let target = &self.target;
        let call = Instruction::decode(pc, |a| target.peek(a))
            .ok()
            .filter(|i| matches!(i.info.op, Op::Jsr | Op::Bsr));
        if let (Some(ins), RunState::Running) = (call, &self.target.cpu().state) {
            let depth = self.tracked.callstack.depth();
            let ret = ins.next_addr();
            let sp = self.target.cpu().regs.sp;
            self.run_cmd(Cmd::Over { depth, ret, sp })
        } else {
            self.run_cmd(Cmd::Into)
        }
    }

    /// Runs until the current subroutine (or interrupt handler) returns.
    pub fn step_out(&mut self) -> Stop {
        let depth = self.tracked.callstack.depth();
        if depth == 0 {
            return self.stop(Reason::NoFrame);
        }
        self.run_cmd(Cmd::Out { depth })
    }

    /// Runs until a breakpoint, watchpoint, trap, the end of the key script
    /// or the cycle budget.
    pub fn run(&mut self) -> Stop {
        self.run_cmd(Cmd::Continue)
    }

    /// Runs for at most `cycles` E-cycles (the GUI's time slice).
    pub fn run_for(&mut self, cycles: u64) -> Stop {
        let saved = self.max_cycles;
        self.max_cycles = cycles;
        let s = self.run_cmd(Cmd::Continue);
        self.max_cycles = saved;
        s
    }

    /// Runs until the PC reaches `addr` (or another stop comes first).
    pub fn run_to_address(&mut self, addr: u16) -> Stop {
        self.run_cmd(Cmd::RunTo(vec![addr]))
    }

    /// Runs until the first instruction of a source line (`file:line`, or
    /// any breakpoint location spec) is reached.
    pub fn run_to(&mut self, location: &str) -> Result<Stop, BreakError> {
        let spec = BreakSpec::parse(location)?;
        let program = self.target.program().unwrap_or(&self.empty);
        let r = spec.resolve(program)?;
        Ok(self.run_cmd(Cmd::RunTo(r.addrs)))
    }

    /// Runs to a line of a file given by id.
    pub fn run_to_line(&mut self, file: &str, line: u32) -> Result<Stop, BreakError> {
        let program = self.target.program().unwrap_or(&self.empty);
        let name = find_file(program, file)
            .and_then(|f| program.files.get(f))
            .map(|f| f.path.to_string_lossy().into_owned())
            .unwrap_or_else(|| file.to_string());
        let addrs = BreakSpec::parse(&format!("{name}:{line}"))?
            .resolve(program)?
            .addrs;
        Ok(self.run_cmd(Cmd::RunTo(addrs)))
    }

    // ---- reverse -----------------------------------------------------------

    /// Restores the state after `index` steps: the nearest snapshot at or
    /// before it, then deterministic replay. Returns false if history is off
    /// or `index` lies before the oldest snapshot.
    pub fn goto(&mut self, index: u64) -> bool {
        self.settle_change();
        let Some(snap) = self.history.as_ref().and_then(|h| h.at_or_before(index)) else {
            return false;
        };
        let saved = snap.state.clone();
        self.restore(saved);
        self.replay_to(index);
        self.check_first = false;
        let rewound = self.lazy.get_mut().as_mut().is_none_or(|l| l.rewind(index));
        if !rewound {
            // Back before tracking began: it begins here.
            self.start_lazy(self.new_tracker());
        }
        true
    }

    fn restore(&mut self, saved: Saved<T>) {
        let prov = self.tracked.tracker.is_some();
        self.target = saved.target;
        self.tracked = saved.tracked;
        if prov && self.tracked.tracker.is_none() {
            // The snapshot predates tracking: track from here on.
            self.tracked.tracker = Some(Box::new(self.new_tracker()));
        } else if !prov {
            self.tracked.tracker = None;
        }
    }

    fn replay_to(&mut self, index: u64) {
        self.replaying = true;
        while self.tracked.index < index {
            self.step_once(false);
        }
        self.replaying = false;
    }

    /// Goes back one step, exactly.
    pub fn step_back(&mut self) -> Stop {
        let i = self.tracked.index;
        let now = (self.target.cpu().regs, self.target.cycles());
        if i == 0 || !self.goto(i - 1) {
            return self.stop(Reason::StartOfHistory);
        }
        // A refused step (an illegal opcode or a write stopped before it
        // took effect) is a step in history that changed no register and
        // no cycle: going back over it alone would show the same place, so
        // go back past it to the instruction before.
        if i >= 2 && (self.target.cpu().regs, self.target.cycles()) == now {
            self.goto(i - 2);
        }
        self.stop(Reason::Step)
    }

    /// Goes back `n` steps (stops at the start of history).
    pub fn step_back_n(&mut self, n: u64) -> Stop {
        self.settle_change();
        let i = self.tracked.index;
        let to = i.saturating_sub(n);
        let oldest = self
            .history
            .as_ref()
            .and_then(|h| h.snapshots().first().map(|s| s.index));
        match oldest {
            Some(o) if to >= o => {
                self.goto(to);
                if to == 0 {
                    self.stop(Reason::StartOfHistory)
                } else {
                    self.stop(Reason::Step)
                }
            }
            Some(o) => {
                self.goto(o);
                self.stop(Reason::StartOfHistory)
            }
            None => self.stop(Reason::StartOfHistory),
        }
    }

    /// Runs backwards to the latest earlier point where a breakpoint's
    /// condition held (hit counts are ignored going back) or a watchpoint
    /// triggered; the start of history if there is none.
    pub fn run_back(&mut self) -> Stop {
        self.settle_change();
        let cur = self.tracked.index;
        let mut end = cur;
        loop {
            let snap = self.history.as_ref().and_then(|h| h.before(end)).cloned();
            let Some(snap) = snap else {
                let oldest = self
                    .history
                    .as_ref()
                    .and_then(|h| h.snapshots().first().map(|s| s.index));
                if let Some(o) = oldest {
                    self.goto(o);
                }
                return self.stop(Reason::StartOfHistory);
            };
            let seg_start = snap.index;
            self.restore(snap.state);
            // (position, reason) of the latest hit in this segment.
            let mut best: Option<(u64, Reason)> = None;
            self.replaying = true;
            while self.tracked.index < end {
                let pc = self.target.cpu().regs.pc;
                if self.breakpoints.maybe_at(pc) {
                    if let Some(id) = self.breakpoints.check_pure(pc, &TargetView(&self.target)) {
                        let (spec, hits) = self
                            .breakpoints
                            .get(id)
                            .map(|b| (b.spec.text.clone(), b.hits))
                            .unwrap_or_default();
                        best = Some((self.tracked.index, Reason::Breakpoint { id, spec, hits }));
                    }
                }
                self.step_once(false);
                if !self.hits.is_empty() && self.tracked.index < cur {
                    best = Some((
                        self.tracked.index,
                        Reason::Watchpoint {
                            hits: self.hits.clone(),
                        },
                    ));
                }
            }
            self.replaying = false;
            if let Some((at, reason)) = best {
                self.goto(at);
                return self.stop(reason);
            }
            if seg_start == 0 {
                self.goto(0);
                return self.stop(Reason::StartOfHistory);
            }
            end = seg_start;
        }
    }

    // ---- provenance --------------------------------------------------------

    /// The tracker after the steps taken so far: the slow path's, or the
    /// lazy one caught up to now.
    fn caught_up(&self) -> Result<TrackerView<'_>, ExplainError> {
        if let Some(t) = self.tracked.tracker.as_deref() {
            return Ok(TrackerView::Eager(t));
        }
        {
            let mut cell = self.lazy.borrow_mut();
            let lazy = cell.as_deref_mut().ok_or(ExplainError::TrackingOff)?;
            // A change from outside not yet noted leaves the machine unlike
            // any replay until it is.
            let live = (!self.dirty).then_some(&self.target);
            if !lazy.catch_up(self.tracked.index, live) {
                debug_assert!(false, "the provenance replay missed the live state");
                *lazy = LazyProvenance::new(
                    &self.target,
                    self.new_tracker(),
                    self.tracked.index,
                    self.spdr,
                );
            }
        }
        Ref::filter_map(self.lazy.borrow(), |l| l.as_deref().map(|l| l.tracker()))
            .map(TrackerView::Lazy)
            .map_err(|_| ExplainError::TrackingOff)
    }

    /// Where the byte at `addr` came from: the instruction that last wrote
    /// it, where that value was loaded from, who wrote that, ...
    pub fn explain_address(&self, addr: u16) -> Result<Explanation, ExplainError> {
        let t = self.caught_up()?;
        let program = self.target.program();
        let value = self.target.peek(addr);
        let node = t.mem_node(addr);
        let target = &self.target;
        let peek = |a: u16| target.peek(a);
        let devices = |a: u16| self.is_device(a);
        let chain = if node == NONE {
            vec![initial_link(program, addr, value)]
        } else {
            annotate(&t.chain(node, MAX_CHAIN), program, &peek, &devices)
        };
        Ok(Explanation {
            subject: format!(
                "${addr:04X} ({})",
                data_label(program, addr, self.is_device(addr))
            ),
            pixel: None,
            address: Some(addr),
            value,
            chain,
        })
    }

    /// Where the value in a register byte came from.
    pub fn explain_register(&self, reg: RegByte) -> Result<Explanation, ExplainError> {
        let t = self.caught_up()?;
        let target = &self.target;
        let peek = |a: u16| target.peek(a);
        let devices = |a: u16| self.is_device(a);
        let r = self.target.cpu().regs;
        let value = match reg {
            RegByte::A => r.a,
            RegByte::B => r.b,
            RegByte::Xh => (r.x >> 8) as u8,
            RegByte::Xl => r.x as u8,
            RegByte::Yh => (r.y >> 8) as u8,
            RegByte::Yl => r.y as u8,
        };
        Ok(Explanation {
            subject: format!("register {reg:?}"),
            pixel: None,
            address: None,
            value,
            chain: annotate(
                &t.chain(t.reg_node(reg), MAX_CHAIN),
                self.target.program(),
                &peek,
                &devices,
            ),
        })
    }

    /// Where LCD pixel (x, y) (row 0 on top) came from: the display RAM
    /// byte, the SPDR write that sent it, where that value was loaded from
    /// (e.g. `lda 0,y` in drawCell reading board+136) and who wrote that
    /// (e.g. `staa 3,x` in stone1ToBuffer).
    pub fn explain_pixel(&self, x: usize, y: usize) -> Result<Explanation, ExplainError> {
        let t = self.caught_up()?;
        self.target.lcd_probe().ok_or(ExplainError::NoLcd)?;
        let (page, column, bit) = self
            .target
            .pixel_location(x, y)
            .ok_or(ExplainError::OutsidePicture(x, y))?;
        let value = self.target.lcd_ram(page, column);
        let on = self.target.pixel(x, y);
        let target = &self.target;
        let peek = |a: u16| target.peek(a);
        let devices = |a: u16| self.is_device(a);
        let node = t.lcd_node(page, column);
        let mut chain = vec![super::report::LinkReport {
            kind: "display".into(),
            text: format!(
                "pixel ({x},{y}) is bit {bit} of display RAM page {page}, column {column}: ${value:02X} (pixel {})",
                if on { "on" } else { "off" }
            ),
            address: 0,
            label: None,
            file: None,
            line: None,
            source: None,
            instruction: None,
            data_address: None,
            data_label: None,
            value,
        }];
        if node == NONE {
            chain.push(super::report::LinkReport {
                kind: "unknown".into(),
                text: "no data byte reached this display RAM byte since tracking began".into(),
                address: 0,
                label: None,
                file: None,
                line: None,
                source: None,
                instruction: None,
                data_address: None,
                data_label: None,
                value,
            });
        } else {
            chain.extend(annotate(
                &t.chain(node, MAX_CHAIN),
                self.target.program(),
                &peek,
                &devices,
            ));
        }
        Ok(Explanation {
            subject: format!("pixel ({x},{y})"),
            pixel: Some(PixelInfo {
                x,
                y,
                page,
                column,
                bit,
                on,
            }),
            address: None,
            value,
            chain,
        })
    }
}

//! The session's hook on the machine's fast path ([`Target::run_hooked`]):
//! what the session keeps after each step it hears of, its answers at
//! breakpoint addresses, and its share of a skipped loop.

use super::flow::{call_or_return_fast, cmd_done, track_flow};
use super::{saved_bytes, Cmd, Reason, Saved, TargetView, Tracked};
use crate::cpu::{flow_op, Instruction, Op, Step};
use crate::debug::breakpoint::{Breakpoints, ConditionInput};
use crate::debug::callstack::StackMark;
use crate::debug::history::History;
use crate::debug::profile::RowDelta;
use crate::debug::target::Target;
use crate::debug::watch::{WatchHit, Watchpoints};
use crate::machine::hooked::{AtBreakpoint, Interest, Iteration, StepBefore, StepHook};

/// The session's part of a run on the target's fast path
/// ([`Target::run_hooked`]): the call stack, profile, step count and
/// snapshots after each step, breakpoint conditions and hit counts at
/// breakpoint addresses, and the command's own end (run to, step over,
/// step out), and the watchpoints on RAM. Used when nothing needs each
/// bus access (no watchpoint on a device register, no provenance tracked
/// step by step).
pub(super) struct FastHook<'a, T: Target> {
    pub(super) tracked: &'a mut Tracked,
    pub(super) breakpoints: &'a mut Breakpoints,
    pub(super) history: &'a mut Option<History<Saved<T>>>,
    pub(super) cmd: &'a Cmd,
    /// Why the hook stopped the run.
    pub(super) reason: Option<Reason>,
    /// Calls and returns may take [`StepHook::quick_flow`] (not while a
    /// single step runs, which stops after its one step).
    pub(super) lean: bool,
    /// A return from a call stack this deep or less ends the command (a
    /// step over or out; 0 for the others, whose returns end nothing).
    pub(super) end_depth: usize,
    /// Step over's return address, else `u32::MAX` (no address).
    pub(super) over_ret: u32,
    /// PC before the last step (a faulting step's address).
    pub(super) last_pc: u16,
    /// The call stack when the loop iteration being measured began, and the
    /// profile rows the iteration added since.
    pub(super) mark: StackMark,
    pub(super) marked: bool,
    pub(super) rows: Vec<RowDelta>,
    /// What the breakpoint conditions read at their visits in the first
    /// and second iteration of a counted measurement (`visits[0]` alone in
    /// a plain one), and which of the two is being recorded.
    pub(super) visits: [Vec<ConditionInput>; 2],
    pub(super) visit_pass: usize,
    pub(super) counted: bool,
    /// The breakpoints that counted a hit in the iteration measured (the
    /// second of a counted measurement), one id per hit.
    pub(super) hits: Vec<u32>,
    /// The watchpoints (the machine reports the steps that made a watched
    /// access), the hits of the step that triggered, and a buffer for the
    /// step's watched accesses as the slow path's observer sees them.
    pub(super) watchpoints: &'a mut Watchpoints,
    pub(super) watch_hits: Vec<WatchHit>,
    pub(super) accesses: Vec<crate::debug::observe::Access>,
    /// The E-cycle count of the last breakpoint ask that let the run go on.
    pub(super) asked_at: Option<u64>,
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
        use crate::debug::observe::{Access, AccessKind};
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
        // Counted now: a budget stop before this instruction runs must not
        // count it again when the next run starts here.
        self.asked_at = Some(m.cycles());
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

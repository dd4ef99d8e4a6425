//! The steps of a hooked run: most in the quick stretch, which only
//! counts them or tells the hook of a call or return, the rest through the
//! full path (halts, faults, the report to the hook, the start of a loop
//! measurement).

use super::{
    calls_or_returns, flush, quick_before, CountedProbe, HookedStop, Interest, Iteration, Probe,
    QuickEnd, RepeatCache, StepBefore, StepHook,
};
use crate::cpu::{RunState, Step, StepEvent};
use crate::machine::counted::{Boundary, Recorded};
use crate::machine::poll::{PollTry, MAX_BRANCH_OFFSET};
use crate::machine::skip::LoopKind;
use crate::machine::{Breakpoints, Machine, StepOutcome, WriteUndo};

impl Machine {
    /// The hooked run's quick stretch: the steps that need no more than
    /// counting, a report to the hook (a call or a return) or a glance at
    /// a loop head that is not to be measured now run in this loop, with
    /// the tests that tell them apart; it does for them exactly what
    /// `after_hooked_step` would (no halt, no fault, no loop measurement
    /// starts). Every step it takes is an instruction that left the CPU
    /// running, ended before the first of budget end, script action, COP
    /// deadline and the hook's `at_cycle`, and (unless the hook hears of it
    /// anyway) left SP at most the hook's `sp_above`. Returns `None` before
    /// a step it leaves to the full path (at that limit, at an address in
    /// `bps` unless `first`, or when the hook wants every step), or the
    /// step it took that needs the full path.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn quick_stretch<H: StepHook<Machine>>(
        &mut self,
        budget_end: u64,
        cop_at: u64,
        bps: Option<&Breakpoints>,
        first: &mut bool,
        hook: &mut H,
        cache: &mut RepeatCache,
        interest: &mut Interest,
        pending: &mut u64,
    ) -> Option<QuickEnd> {
        let deadline = budget_end.min(self.script_deadline).min(cop_at);
        let mut limit = deadline.min(interest.at_cycle);
        if interest.every_step || self.board.now() >= limit {
            return None;
        }
        // As in `run_until`: with X and I set the step tests neither the
        // run state nor for an interrupt, and a step that changes either
        // services the devices (`Bus::attention`) and leaves the stretch.
        // Nothing else here changes the CPU (skips count time, the hook
        // only looks).
        let fast = self.running_masked();
        // The first step is not asked at a breakpoint address (the run
        // starts there); the others are.
        let mut check = !std::mem::replace(first, false);
        // The back-jump note, as in `run_until`: steps taken elsewhere (the
        // full path's probes, single steps) may have left it set.
        self.cpu.flow.back = false;
        // Every step that stays in this loop ended before `limit` (tested
        // below, and the skips end before it), so the loop's head tests
        // the limit only after the hook changed it.
        loop {
            if check && bps.is_some_and(|b| b.contains(self.cpu.regs.pc)) {
                return None;
            }
            check = true;
            let undo = WriteUndo::take(&self.cpu.regs);
            // Whether the step called or returned, from the CPU's note of
            // what it ran, cleared here (no opcode read before each step);
            // `StepBefore` is made only for the steps that leave or are
            // reported.
            self.cpu.flow.code = 0;
            let step = self.cpu.step_inline_hinted(&mut self.board, fast);
            let call = self.cpu.flow.code != 0;
            // The step began at `step.pc`, and at the board's time less its
            // cycles once they are counted (nothing else moves the clock
            // here): neither is kept across the step.
            let before = |m: &Machine| {
                let began = m.board.now() - u64::from(step.cycles);
                quick_before(&m.cpu, call, step.pc, undo.sp, began)
            };
            // A refused write, a step's event and an access to a watched
            // byte ask for attention (`Board::due_after`): only a serviced
            // step can have any; the hook hears of those.
            let serviced = self.board.due_after(step.cycles);
            if serviced {
                if self.board.has_fault() {
                    // Not counted: the step's time is not on the clock.
                    let now = self.board.now();
                    let before = quick_before(&self.cpu, call, step.pc, undo.sp, now);
                    return Some(QuickEnd::Refused(step, undo, before));
                }
                self.board.tick(step.cycles);
            } else {
                debug_assert_eq!(step.event, StepEvent::None, "an event asks for attention");
                self.board.pass(step.cycles);
            }
            let to = self.cpu.regs.pc;
            let plain = (!serviced
                || (step.event == StepEvent::None
                    && self.may_stay(fast)
                    && self.board.watched_accesses().is_empty()))
                && self.board.now() < limit;
            if !plain {
                return Some(QuickEnd::Ticked(step, before(self)));
            }
            // Only a branch or jump back can close a loop (calls and
            // returns to lower code close none), as in `run_until`.
            let back = std::mem::take(&mut self.cpu.flow.back);
            if back && self.halt_check(step.pc).is_some() {
                return Some(QuickEnd::Ticked(step, before(self)));
            }
            // One branch for both rare cases (a call or return, SP above
            // the hook's frame), sorted out behind it.
            if call | (self.cpu.regs.sp > interest.sp_above) {
                if !call {
                    return Some(QuickEnd::Ticked(step, before(self)));
                }
                self.instructions += 1;
                if let Some(sp) = hook.quick_flow(self, *pending, &before(self)) {
                    *pending = 0;
                    interest.sp_above = sp;
                    continue;
                }
                flush(hook, pending);
                if hook.after_step(self, &before(self), &step) {
                    return Some(QuickEnd::Stop(HookedStop::Hook));
                }
                *interest = hook.interest();
                limit = deadline.min(interest.at_cycle);
                if interest.every_step || self.board.now() >= limit {
                    return None;
                }
                continue;
            }
            if back && self.ff.enabled {
                if step.pc.wrapping_sub(to) <= MAX_BRANCH_OFFSET {
                    let bp = |a| bps.is_some_and(|b| b.contains(a));
                    match self.poll_loop_at(step.pc, bp) {
                        PollTry::Probe => {}
                        PollTry::Run => {
                            self.instructions += 1;
                            *pending += 1;
                            continue;
                        }
                        PollTry::Skip(poll, measured, input) => {
                            self.instructions += 1;
                            *pending += 1;
                            // Every skipped step ends before `limit`, as a
                            // step here must: plain steps for the hook
                            // (the loop moves SP nowhere, calls nothing).
                            let bound = limit.saturating_sub(1);
                            let k = self.skip_poll(poll, measured, input, bound);
                            *pending += k * poll.steps();
                            cache.skipped += k;
                            continue;
                        }
                    }
                }
                if cache.backoff.may_try(to, self.board.now()) {
                    // A loop head to measure: the full path starts it.
                    return Some(QuickEnd::Ticked(step, before(self)));
                }
            }
            self.instructions += 1;
            *pending += 1;
        }
    }

    /// Everything after a step of the hooked run that went through without
    /// a refused write (its cycles are ticked): the instruction count, the
    /// halt test, the report to the hook, and the start of a loop
    /// measurement at a back-jump. Returns the run's end if the step ends it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn after_hooked_step<H: StepHook<Machine>>(
        &mut self,
        step: Step,
        before: &StepBefore,
        cop_at: u64,
        budget_end: u64,
        bps: Option<&Breakpoints>,
        hook: &mut H,
        cache: &mut RepeatCache,
        interest: &mut Interest,
        pending: &mut u64,
        probe: &mut Option<Probe>,
    ) -> Option<HookedStop> {
        if matches!(step.event, StepEvent::None | StepEvent::Swi) {
            self.instructions += 1;
        }
        if !self.plain_forward(&step, cop_at) {
            // A running instruction before the COP deadline can only
            // halt (a back-jump); anything else gets the full test.
            let halt = if self.plain_running(&step, cop_at) {
                self.halt_check(step.pc).map(|h| StepOutcome {
                    step,
                    fault: None,
                    halt: Some(h),
                })
            } else {
                let out = self.outcome_after(step, None);
                (out.fault.is_some() || out.halt.is_some()).then_some(out)
            };
            if let Some(out) = halt {
                flush(hook, pending);
                hook.after_step(self, before, &out.step);
                return Some(HookedStop::Outcome(out));
            }
        }
        if matches!(step.event, StepEvent::IllegalRefused(_)) {
            flush(hook, pending);
            hook.after_step(self, before, &step);
            return Some(HookedStop::Outcome(StepOutcome {
                step,
                fault: None,
                halt: None,
            }));
        }
        if self.hook_hears(&step, before, interest) {
            flush(hook, pending);
            let stop = hook.after_step(self, before, &step);
            self.board.clear_watched();
            if stop {
                return Some(HookedStop::Hook);
            }
            *interest = hook.interest();
        } else {
            *pending += 1;
        }
        let to = self.cpu.regs.pc;
        if self.ff.enabled
            && to <= step.pc
            && !calls_or_returns(before)
            && step.event == StepEvent::None
            && self.cpu.state == RunState::Running
            && cache.backoff.may_try(to, self.board.now())
        {
            flush(hook, pending);
            let counted = cache.backoff.kind(to) == LoopKind::Counted;
            if counted {
                if let Some((outcome, stopped)) =
                    self.counted_from_memo(to, budget_end, bps, hook, cache, interest, pending)
                {
                    if stopped {
                        return Some(HookedStop::Hook);
                    }
                    cache
                        .backoff
                        .counted_outcome(to, self.board.now(), &outcome);
                    return None;
                }
            }
            let which = if counted {
                Iteration::CountedFirst
            } else {
                Iteration::Plain
            };
            let mut p = self.start_probe(to, false, budget_end, hook, which);
            if counted {
                let mut its = std::mem::take(&mut self.ff.recorded);
                its.iter_mut().for_each(Recorded::clear);
                p.counted = Some(Box::new(CountedProbe {
                    its,
                    pass: 0,
                    s0: Boundary::take(&self.cpu),
                    s1: None,
                }));
            }
            *probe = Some(p);
        }
        None
    }

    /// True for a step that `outcome_after` would find nothing in: an
    /// instruction that went forward while running, before `cop_at`, a COP
    /// deadline read earlier in the run (the deadline only moves later: a
    /// feed, a reset; CR can only be written in the first 64 cycles and 00
    /// is the shortest). No reset (COP), none by the clock monitor (only
    /// after STOP), no halt (only after a back-jump, WAI or STOP).
    #[inline(always)]
    fn plain_forward(&self, step: &Step, cop_at: u64) -> bool {
        self.plain_running(step, cop_at) && self.cpu.regs.pc > step.pc
    }

    /// True for an instruction that ran (no event), left the CPU running,
    /// and ended before `cop_at`: `outcome_after` can find only a halt (a
    /// back-jump) in it.
    #[inline(always)]
    fn plain_running(&self, step: &Step, cop_at: u64) -> bool {
        step.event == StepEvent::None
            && self.cpu.state == RunState::Running
            && self.board.now() < cop_at
    }

    /// A step of the hooked run taken the slow way (`out`): reported to the
    /// hook; the run's end if the step ends it.
    #[cold]
    pub(super) fn hooked_outcome<H: StepHook<Machine>>(
        &mut self,
        out: StepOutcome,
        before: &StepBefore,
        hook: &mut H,
        pending: &mut u64,
    ) -> Option<HookedStop> {
        flush(hook, pending);
        let hook_stop = hook.after_step(self, before, &out.step);
        self.board.clear_watched();
        if out.fault.is_some()
            || out.halt.is_some()
            || matches!(out.step.event, StepEvent::IllegalRefused(_))
        {
            return Some(HookedStop::Outcome(out));
        }
        hook_stop.then_some(HookedStop::Hook)
    }

    /// A quick step whose write the board refused: undone (registers and
    /// cycles as before it, PC on it, no time passed) and reported; the
    /// next step there runs it as the chip does.
    #[cold]
    pub(super) fn refused_step(&mut self, mut step: Step, before: WriteUndo) -> StepOutcome {
        let fault = self.board.take_fault();
        self.undo_step(&mut step, before);
        self.outcome_after(step, fault)
    }

    /// Whether the hook hears of `step` (from `before`) itself rather than
    /// in a count of plain steps: it asked for every step, the step has an
    /// event, calls or returns, leaves SP above the hook's frame, reaches
    /// the cycle it waits for, or made a watched access.
    pub(super) fn hook_hears(&self, step: &Step, before: &StepBefore, interest: &Interest) -> bool {
        interest.every_step
            || step.event != StepEvent::None
            || calls_or_returns(before)
            || self.cpu.regs.sp > interest.sp_above
            || self.board.now() >= interest.at_cycle
            || !self.board.watched_accesses().is_empty()
    }
}

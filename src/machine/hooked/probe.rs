//! Loop measurements in a hooked run: a plain iteration through the
//! probe's bus or two recorded ones of a counted loop, every step told to
//! the hook as any, then the skip the hook can account for.

use super::{
    flush, plain_to_counted, CountedProbe, HeardPasses, HookedStop, Interest, Iteration, Probe,
    RepeatCache, StepBefore, StepHook,
};
use crate::cpu::{Cpu, RunState, Step, StepEvent};
use crate::machine::counted::{Boundary, Counted};
use crate::machine::skip::{capped, Measured, MAX_ITERATION_STEPS};
use crate::machine::{Breakpoints, Machine, StepOutcome};

impl Machine {
    /// One step of a loop iteration being measured (through the probe's
    /// observer), reported to the hook as any step, then the measurement's
    /// bookkeeping: skip when the iteration repeated, measure again or give
    /// up. Returns the run's end if the step ends it.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn probe_step<H: StepHook<Machine>>(
        &mut self,
        probe: &mut Option<Probe>,
        before: &StepBefore,
        budget_end: u64,
        hook: &mut H,
        cache: &mut RepeatCache,
        interest: &mut Interest,
        pending: &mut u64,
    ) -> Option<HookedStop> {
        if probe.as_ref().is_some_and(|p| p.counted.is_some()) {
            return self.counted_probe_step(probe, before, hook, cache, interest, pending);
        }
        let start = self.board.now();
        let (out, flags) = self.step_probed();
        let (clean, wrote_io) = (flags.clean, flags.wrote_io);
        let (stops, hook_stop) = self.tell_probe_step(&out, before, hook, interest, pending);
        if stops {
            flush(hook, pending);
            return Some(HookedStop::Outcome(out));
        }
        if hook_stop {
            return Some(HookedStop::Hook);
        }
        let quiet = out.step.event == StepEvent::None && self.cpu.state == RunState::Running;
        let to = self.cpu.regs.pc;
        let back = to <= out.step.pc;
        let now = self.board.now();
        let p = probe.as_mut()?;
        if !quiet {
            cache.backoff.failed(p.head, now);
            *probe = None;
            return None;
        }
        if let Some(mut m) = p.measured {
            let noted = self.note_measured_step(p.steps as usize, p.t0, start, &flags, &mut m);
            p.measured = noted.then_some(m);
        }
        p.steps += 1;
        if !clean {
            // A store that changed memory (or a TCNT read): this pass
            // cannot repeat, and the rest of it runs unmeasured, as in
            // `run_until`'s probe. A loop that only changed RAM may count.
            cache.backoff.missed(p.head, now);
            if !wrote_io {
                plain_to_counted(cache, p.head);
            }
            *probe = None;
            return None;
        }
        if to == p.head || back {
            // The hook's count is complete before it is asked anything.
            flush(hook, pending);
        }
        if to == p.head {
            let same = now < p.event0
                && self.board.next_event() == p.event0
                && self.cpu_without_cycles() == p.cpu0
                && self.board.read_effects() == p.effects0;
            let (head, retried) = (p.head, p.retried);
            if same {
                if hook.may_repeat() {
                    cache.backoff.succeeded(head);
                    if let Some(p) = probe.take() {
                        self.skip_iterations(&p, hook, cache);
                    }
                    *interest = hook.interest();
                } else {
                    cache.backoff.failed(head, now);
                }
            } else if now >= p.event0 || self.board.next_event() != p.event0 {
                // The wait ended (a device event): nothing against the loop.
            } else if !retried {
                // The first pass may still settle state: once more.
                *probe = Some(self.start_probe(head, true, budget_end, hook, Iteration::Plain));
                return None;
            } else {
                // Changed registers: perhaps a counter.
                cache.backoff.failed(head, now);
                plain_to_counted(cache, head);
            }
            *probe = None;
            return None;
        }
        if back {
            if self.board.next_event() != p.event0 {
                *probe = None;
                return None;
            }
            if p.last_back == Some(to) {
                // An inner loop: that is where a program polls.
                cache.backoff.failed(p.head, now);
                *probe = None;
                if cache.backoff.may_try(to, now) {
                    *probe = Some(self.start_probe(to, false, budget_end, hook, Iteration::Plain));
                }
                return None;
            }
            p.last_back = Some(to);
        }
        if p.steps >= MAX_ITERATION_STEPS {
            if self.board.next_event() == p.event0 {
                cache.backoff.failed(p.head, now);
            }
            *probe = None;
        }
        None
    }

    /// The earliest of the budget's end, the script's next action and the
    /// COP deadline: a skip must end a whole iteration before it.
    fn skip_limit(&self, budget_end: u64) -> u64 {
        budget_end
            .min(self.script_deadline)
            .min(self.board.cop_deadline())
    }

    fn cpu_without_cycles(&self) -> Cpu {
        let mut cpu = self.cpu.clone();
        cpu.cycles = 0;
        cpu
    }

    pub(super) fn start_probe<H: StepHook<Machine>>(
        &mut self,
        head: u16,
        retried: bool,
        budget_end: u64,
        hook: &mut H,
        which: Iteration,
    ) -> Probe {
        hook.iteration_start(which);
        Probe {
            head,
            limit: self.skip_limit(budget_end),
            t0: self.board.now(),
            event0: self.board.next_event(),
            cpu0: self.cpu_without_cycles(),
            effects0: self.board.read_effects(),
            steps: 0,
            measured: Some(Measured::default()),
            last_back: None,
            retried,
            counted: None,
        }
    }

    /// Reports a step of a measurement to the hook as any step: what the
    /// hook does not hear about leaves its state as it is, apart from the
    /// count. Returns whether the step ends every run (a fault, a halt, an
    /// illegal opcode refused) and whether the hook asked to stop.
    fn tell_probe_step<H: StepHook<Machine>>(
        &mut self,
        out: &StepOutcome,
        before: &StepBefore,
        hook: &mut H,
        interest: &mut Interest,
        pending: &mut u64,
    ) -> (bool, bool) {
        let stops = out.fault.is_some()
            || out.halt.is_some()
            || matches!(out.step.event, StepEvent::IllegalRefused(_));
        let hook_stop = self.tell_step(&out.step, before, stops, hook, interest, pending);
        (stops, hook_stop)
    }

    /// Tells `hook` of `step` (from `before`) if it hears of it on its own
    /// (or `always`), else counts it among the plain steps; true if the
    /// hook asked to stop.
    pub(super) fn tell_step<H: StepHook<Machine>>(
        &mut self,
        step: &Step,
        before: &StepBefore,
        always: bool,
        hook: &mut H,
        interest: &mut Interest,
        pending: &mut u64,
    ) -> bool {
        if !always && !self.hook_hears(step, before, interest) {
            *pending += 1;
            return false;
        }
        flush(hook, pending);
        let stop = hook.after_step(self, before, step);
        self.board.clear_watched();
        *interest = hook.interest();
        stop
    }

    /// One step of a counted measurement (module `counted`): recorded,
    /// reported to the hook as any step; after iteration B, the skip if the
    /// two make a counted loop and the hook can account for it.
    fn counted_probe_step<H: StepHook<Machine>>(
        &mut self,
        probe: &mut Option<Probe>,
        before: &StepBefore,
        hook: &mut H,
        cache: &mut RepeatCache,
        interest: &mut Interest,
        pending: &mut u64,
    ) -> Option<HookedStop> {
        let mut p = probe.take()?;
        let mut cp = p.counted.take()?;
        let (out, fit) = self.step_recorded(&mut cp.its[cp.pass]);
        let (stops, hook_stop) = self.tell_probe_step(&out, before, hook, interest, pending);
        let now = self.board.now();
        let quiet = out.step.event == StepEvent::None && self.cpu.state == RunState::Running;
        let head = p.head;
        let end = |m: &mut Machine, cp: Box<CountedProbe>| m.ff.recorded = cp.its;
        if stops || hook_stop || !quiet {
            if !stops && !hook_stop {
                cache.backoff.failed(head, now);
            }
            end(self, cp);
            if stops {
                flush(hook, pending);
                return Some(HookedStop::Outcome(out));
            }
            return hook_stop.then_some(HookedStop::Hook);
        }
        p.steps += 1;
        if !fit || p.steps >= MAX_ITERATION_STEPS {
            cache.backoff.missed(head, now);
            cache.backoff.not_counted(head, true);
            end(self, cp);
            return None;
        }
        if self.cpu.regs.pc != head {
            p.counted = Some(cp);
            *probe = Some(p);
            return None;
        }
        // Back at the head: the hook's count is complete before it is asked.
        flush(hook, pending);
        if now >= p.event0 || self.board.next_event() != p.event0 {
            // The wait ended (a device event): nothing against the loop.
            end(self, cp);
            return None;
        }
        if self.board.read_effects() != p.effects0 {
            cache.backoff.missed(head, now);
            cache.backoff.not_counted(head, false);
            end(self, cp);
            return None;
        }
        let Some((s1, t1)) = cp.s1.take() else {
            // Iteration A done: B is the one the hook measures.
            cp.s1 = Some((Boundary::take(&self.cpu), now));
            cp.pass = 1;
            p.steps = 0;
            hook.iteration_start(Iteration::CountedSecond);
            p.counted = Some(cp);
            *probe = Some(p);
            return None;
        };
        let s2 = Boundary::take(&self.cpu);
        if !hook.may_repeat() {
            cache.backoff.failed(head, now);
            end(self, cp);
            return None;
        }
        let period = now - t1;
        let limit = capped(p.limit, now, period, hook.repeat_cap());
        let outcome = match self.skip_counted(&cp.its, [&cp.s0, &s1, &s2], period, limit) {
            Ok((k, varied, plan)) => {
                cache.skipped += k;
                hook.repeated(k, u64::from(p.steps));
                *interest = hook.interest();
                self.remember_plan(head, &cp.s0, &cp.its, plan);
                Counted::Skipped { period, varied }
            }
            Err(c) => c,
        };
        cache
            .backoff
            .counted_outcome(head, self.board.now(), &outcome);
        end(self, cp);
        None
    }

    /// A counted loop at `head` met in a state the plan memo knows, taken
    /// from there ([`Machine::try_planned_heard`]): the outcome and whether
    /// the hook asked to stop, or `None` to measure it the recorded way.
    /// The hook hears the two iterations as it hears recorded ones
    /// (`counted_probe_step`): their starts, every step as any, every
    /// breakpoint address (as `run_hooked` asks there), whether it can
    /// account for the skip, the skip.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn counted_from_memo<H: StepHook<Machine>>(
        &mut self,
        head: u16,
        budget_end: u64,
        bps: Option<&Breakpoints>,
        hook: &mut H,
        cache: &mut RepeatCache,
        interest: &mut Interest,
        pending: &mut u64,
    ) -> Option<(Counted, bool)> {
        let limit = self.skip_limit(budget_end);
        let mut listener = HeardPasses {
            hook,
            pending,
            cache,
            interest,
            bps,
            stopped: false,
            declined: false,
        };
        let outcome = self.try_planned_heard(head, limit, &mut listener)?;
        Some((outcome, listener.stopped))
    }

    /// Skips as many further iterations of the measured one as end before
    /// the first deadline and the next device event.
    fn skip_iterations<H: StepHook<Machine>>(
        &mut self,
        p: &Probe,
        hook: &mut H,
        cache: &mut RepeatCache,
    ) {
        let period = self.board.now() - p.t0;
        // Every measured step was an instruction (quiet).
        let steps = p.steps as u64;
        let limit = capped(p.limit, self.board.now(), period, hook.repeat_cap());
        let k = self.skip_repeats(period, steps, limit, p.measured);
        let now = self.board.now();
        cache.backoff.hold_after_skip(p.head, now, period);
        if k > 0 {
            cache.skipped += k;
            hook.repeated(k, steps);
        }
    }
}

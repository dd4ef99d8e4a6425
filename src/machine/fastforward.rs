//! Fast-forward over polling loops: `Machine::run_until` skips whole
//! iterations of a loop that provably repeats itself until the next device
//! event (a program waiting for SPIF, TDRE or a key), with every observable
//! result (cycles, instructions, registers, memory, devices) exactly as if
//! each iteration had run. Timing follows the board model of
//! [`crate::board`] (M68HC11 RM sections 8-10 for the devices polled).
//!
//! The argument, step by step:
//! 1. When control moves back to an address H (a taken branch or jump to
//!    an address at or below the instruction), the machine state
//!    S1 is noted: the CPU (all of it but its cycle counter), the device
//!    state reads can change ([`Board::read_effects`]) and the time.
//! 2. One iteration runs normally, through a bus wrapper that notes whether
//!    it wrote a register or changed a RAM byte (a store of the value a
//!    byte already holds changes nothing, so `psha`/`jsr` of the same
//!    values are fine) and whether it read TCNT (the only register whose
//!    value moves between events, [`Board::read_is_time_dependent`]).
//! 3. Back at H, with no interrupt, fault, breakpoint or other event on the
//!    way and before the board's next device event: if the CPU and the
//!    read effects equal S1, nothing wrote memory or a register, and no TCNT
//!    read happened, then the state at H is S1 again, only P cycles later.
//!    Instruction semantics do not depend on time, and every value read
//!    depends on time only through device events, so every further
//!    iteration started before the next event does exactly the same: the
//!    same N instructions, P cycles, reads and (no-op) writes.
//! 4. So k iterations are skipped at once, each of them ending before the
//!    first of: the next device event (which also bounds every
//!    interrupt, since a device raises its IRQ only at an event and the
//!    pins do not change during a run), the key script's next action and
//!    the run's budget. Time advances by k*P (the same as k*P cycles of
//!    small ticks), the CPU cycle counter by k*P and the instruction count
//!    by k*N, so `instructions` stays exact.
//! 5. The timer's events (overflow, RTI, compares: one every 8,192 cycles
//!    at least) do not count in 4 when no interrupt is possible and the
//!    iteration read no timer register and not PORTA: they only set flags
//!    and pins the loop never looks at ([`Board::next_event_seen`]). The
//!    skip passes them and the timer handles each at its own cycle when
//!    the board is serviced at the end ([`Board::advance`]).
//! 6. The iteration that meets the event is skipped too when every device
//!    read in it begins before the event and no interrupt can follow: the
//!    board is ticked from one of its instruction ends to the next, so the
//!    event is serviced at the cycle it would have been
//!    ([`Machine::skip_event_iteration`]). Else it runs normally.
//!
//! Which back-jumps start a measurement only decides how fast the same
//! result comes. Two rules keep the useless ones out (callgrind, one
//! grading: 10.83 G host instructions before, 10.08 G after):
//! * A call to lower code or a return to it (JSR, BSR, RTS, RTI) starts
//!   none: a loop closes with a branch or a jump, and that one is measured.
//!   Calls into the LCD routines below the caller were 800 k measurements
//!   per grading, of which 4 k repeated (those loops are found at their
//!   branch as well).
//! * After a skip, the loop head is not measured again for two periods
//!   ([`LoopBackoff::hold_after_skip`]): that measurement would meet the
//!   event (SPIF set, say) and run on into the code after the loop until
//!   its first store, once per SPI byte, for nothing.
//!
//! A loop of one read and a branch back (`tst SPSR / bpl`, `brclr ...,*`)
//! needs no measured iteration: [`super::poll`] reads it from its code
//! and checks the same conditions directly, then skips as here.
//!
//! A loop whose measured iteration changed RAM or registers (but wrote no
//! device register) is measured as a counted loop at its next pass
//! ([`super::counted`]): one whose counters move by fixed steps is skipped
//! up to the iteration where a counter would change a flag.
//!
//! A breakpoint inside the loop is hit during the measured iteration (the
//! run stops there as always), so a loop with one is never skipped. A loop
//! that fails the test is not tried again for a while (a growing backoff per
//! address), so counted loops cost little. The debugger's single steps
//! (`step`, `step_observed`) never fast-forward.

use super::counted::Counted;
use super::skip::{LoopKind, Measured, ProbeBus, MAX_ITERATION_STEPS};
use super::{Machine, StopConditions, StopReason};
use crate::cpu::{RunState, StepEvent};

/// Iterations measured in one try at most (moving in to inner loops).
const MAX_ATTEMPTS: u32 = 4;

impl Machine {
    /// Called by `run_until` when the instruction at `from` just sent
    /// control back to the current PC: unless it was a call or a return,
    /// measures one iteration from here and, if it repeats exactly,
    /// skips as many more as fit before `limit` and the next device event
    /// (before `skip_limit` instead when SP stayed in the range of
    /// [`StopConditions::skip_past_budget`]).
    /// Returns a stop reason if a step of the measured iteration stops the
    /// run (it is handled exactly as `run_until` would).
    #[inline(always)]
    pub(super) fn try_fast_forward(
        &mut self,
        stop: &StopConditions,
        limit: u64,
        skip_limit: u64,
        check_bps: bool,
        from: u16,
    ) -> Option<StopReason> {
        if from.wrapping_sub(self.cpu.regs.pc) <= super::poll::MAX_BRANCH_OFFSET
            && self.try_poll_loop(from, stop, limit, skip_limit, check_bps)
        {
            return None;
        }
        if self.is_call_or_return_at(from) {
            return None;
        }
        let mut head = self.cpu.regs.pc;
        for _ in 0..MAX_ATTEMPTS {
            if !self.ff.backoff.may_try(head, self.board.now()) {
                return None;
            }
            if self.ff.backoff.kind(head) == LoopKind::Counted {
                return self.try_counted_at(head, stop, limit, skip_limit, check_bps);
            }
            let outcome = self.measure_iteration(head, stop, limit, check_bps);
            match outcome {
                Iteration::Stopped(reason) => {
                    self.ff.backoff.failed(head, self.board.now());
                    return reason;
                }
                // Not the loop's fault: no backoff.
                Iteration::AtLimit | Iteration::Event => return None,
                Iteration::Inner(inner) => {
                    // An inner loop (or a call back into lower code): the
                    // innermost loop is the one that may poll.
                    self.ff.backoff.failed(head, self.board.now());
                    head = inner;
                }
                // Measured again at the loop's next pass (or backed off),
                // then as a counted loop.
                Iteration::Differs | Iteration::Dirty { .. } => {
                    self.ff.backoff.missed(head, self.board.now());
                    let io = matches!(outcome, Iteration::Dirty { wrote_io: true });
                    if !io && self.ff.backoff.kind(head) == LoopKind::Plain {
                        self.ff.backoff.set_kind(head, LoopKind::Counted);
                    }
                    return None;
                }
                Iteration::TooLong => {
                    self.ff.backoff.failed(head, self.board.now());
                    return None;
                }
                Iteration::Repeats {
                    period,
                    count,
                    sp,
                    measured,
                } => {
                    self.ff.backoff.succeeded(head);
                    self.ff.hits += 1;
                    let bound = stop.skip_bound(sp, limit, skip_limit);
                    self.skip_repeats(period, count, bound, Some(measured));
                    let now = self.board.now();
                    self.ff.backoff.hold_after_skip(head, now, period);
                    return None;
                }
            }
        }
        None
    }

    /// [`Machine::try_counted`] at `head`, with the backoff kept as for
    /// plain measurements.
    fn try_counted_at(
        &mut self,
        head: u16,
        stop: &StopConditions,
        limit: u64,
        skip_limit: u64,
        check_bps: bool,
    ) -> Option<StopReason> {
        self.ff.probes += 1;
        let outcome = self.try_counted(head, stop, limit, skip_limit, check_bps);
        self.ff
            .backoff
            .counted_outcome(head, self.board.now(), &outcome);
        match outcome {
            Counted::Skipped { .. } => {
                self.ff.hits += 1;
                None
            }
            Counted::Stopped(reason) => reason,
            _ => None,
        }
    }

    /// Runs one iteration from `head` (the current PC) and says how it went.
    pub(super) fn measure_iteration(
        &mut self,
        head: u16,
        stop: &StopConditions,
        limit: u64,
        check_bps: bool,
    ) -> Iteration {
        self.ff.probes += 1;
        let t0 = self.board.now();
        let event0 = self.board.next_event();
        let mut cpu0 = self.cpu.clone();
        cpu0.cycles = 0;
        let effects0 = self.board.read_effects();
        let i0 = self.instructions;
        let mut bus_clean = true;
        let mut last_back = None;
        // The lowest and highest SP at the iteration's instruction boundaries.
        let mut sp = (self.cpu.regs.sp, self.cpu.regs.sp);
        let mut measured = Measured::default();
        for n in 0..MAX_ITERATION_STEPS {
            let start = self.board.now();
            if start >= limit {
                return Iteration::AtLimit;
            }
            let before = super::WriteUndo::take(&self.cpu.regs);
            let mut bus = ProbeBus::new(&mut self.board);
            let step = self.cpu.step_inline(&mut bus);
            let flags = bus.flags();
            bus_clean &= flags.clean;
            let wrote_io = flags.wrote_io;
            if self.board.has_fault() {
                return Iteration::Stopped(self.fault_step(step, before, stop));
            }
            self.board.tick(step.cycles);
            // Always true: `ff.ends` holds MAX_ITERATION_STEPS.
            self.note_measured_step(n as usize, t0, start, &flags, &mut measured);
            let quiet = step.event == StepEvent::None
                && self.cpu.state == RunState::Running
                && !(check_bps && stop.breakpoints.contains(self.cpu.regs.pc));
            if quiet {
                self.instructions += 1;
            } else {
                return Iteration::Stopped(self.after_step(step, stop));
            }
            let pc = self.cpu.regs.pc;
            sp = (sp.0.min(self.cpu.regs.sp), sp.1.max(self.cpu.regs.sp));
            if pc <= step.pc {
                // An idle loop: halted, exactly as `run_until` sees it.
                if let Some(h) = self.halt_check(step.pc) {
                    return Iteration::Stopped(Some(StopReason::Halted(h)));
                }
            }
            // A store that changed memory: this pass cannot repeat, so the
            // rest of it runs on the unmeasured path.
            if !bus_clean {
                return Iteration::Dirty { wrote_io };
            }
            if pc == head {
                let now = self.board.now();
                let mut cpu1 = self.cpu.clone();
                cpu1.cycles = 0;
                let repeats = bus_clean
                    && now < event0
                    && self.board.next_event() == event0
                    && cpu1 == cpu0
                    && self.board.read_effects() == effects0;
                return if repeats {
                    Iteration::Repeats {
                        period: now - t0,
                        count: self.instructions - i0,
                        sp,
                        measured,
                    }
                } else if now >= event0 || self.board.next_event() != event0 {
                    Iteration::Event
                } else {
                    Iteration::Differs
                };
            }
            // Control went back to another address: a call into lower code,
            // a return, or an inner loop. The second time in a row to the
            // same address it is an inner loop, which is where a program
            // polls: measure that one instead.
            if pc <= step.pc {
                if self.board.next_event() != event0 {
                    return Iteration::Event;
                }
                if last_back == Some(pc) {
                    return Iteration::Inner(pc);
                }
                last_back = Some(pc);
            }
        }
        if self.board.next_event() != event0 {
            Iteration::Event
        } else {
            Iteration::TooLong
        }
    }
}

/// How a measured iteration went.
pub(super) enum Iteration {
    /// A step stopped the run, or was an event (the reason, if the run stops).
    Stopped(Option<StopReason>),
    /// The run's budget or the script's next action came first.
    AtLimit,
    /// Control went twice in a row back to this other address: an inner loop.
    Inner(u16),
    /// Back at the head in a different state (or after a TCNT read or a
    /// device event).
    Differs,
    /// A step wrote a register (`wrote_io`) or changed a RAM byte: stopped
    /// measuring there, mid-iteration.
    Dirty { wrote_io: bool },
    /// A device event came during the iteration (a transfer ended): the
    /// wait is over, which says nothing against the loop.
    Event,
    /// Not back within [`MAX_ITERATION_STEPS`].
    TooLong,
    /// Back at the head in the same state: `period` cycles, `count`
    /// instructions, SP between `sp.0` and `sp.1` at every boundary.
    Repeats {
        period: u64,
        count: u64,
        sp: (u16, u16),
        measured: Measured,
    },
}

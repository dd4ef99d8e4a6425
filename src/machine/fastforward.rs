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
use super::{Machine, StopConditions, StopReason};
use crate::board::Board;
use crate::cpu::{Bus, RunState, StepEvent};

/// Steps one measured iteration may take at most.
pub(super) const MAX_ITERATION_STEPS: u32 = 48;
/// Iterations measured in one try at most (moving in to inner loops).
const MAX_ATTEMPTS: u32 = 4;
/// Counted measurements in a row that find no counted loop before a loop
/// head is measured plainly only.
const COUNTED_STRIKES: u8 = 3;
/// Slots of the per-address backoff table.
const SLOTS: usize = 64;
/// Backoff after the first failed try, in E-cycles; doubles per failure.
const BACKOFF_BASE: u64 = 512;
/// Highest doubling of the backoff (512 << 7 = 65,536 E-cycles). Tuned on
/// grading and `cpu_plain` (callgrind; one grading of reference and
/// submission / 50 M cycles of `cpu_plain`): 3 -> 5,969 / 1,189 M host
/// instructions, 5 -> 5,944 / 1,173 M, 7 -> 5,932 / 1,168 M, 10 -> 5,928 /
/// 1,166 M. It was 3 while every SPIF wait went through the probe (then 3
/// -> 1,329 M for one submission, 5 -> 1,428 M): a loop that failed may
/// have become a polling loop by its next visit. Poll loops no longer need
/// the probe (`super::poll`), and a loop that stores on every pass fails
/// each try, so retrying it less often pays.
const BACKOFF_MAX_SHIFT: u32 = 7;

/// The fast-forward switch and its bookkeeping. Not machine state: two
/// machines that differ only here are equal (the cache only decides how
/// fast the same result is reached).
#[derive(Clone, Debug)]
pub(crate) struct FastForward {
    pub(crate) enabled: bool,
    /// Which loop heads are worth measuring now.
    backoff: Box<LoopBackoff>,
    /// Iterations skipped since the machine was made (a statistic).
    pub(crate) skipped: u64,
    /// Measured iterations, and those that repeated (statistics).
    pub(crate) probes: u64,
    /// Poll loops skipped from their code, unmeasured (a statistic).
    pub(crate) polls: u64,
    /// The loop heads [`super::poll`] decoded last.
    pub(crate) polls_seen: super::poll::PollCache,
    pub(crate) hits: u64,
    /// Buffers of the counted-loop probe ([`super::counted`]), kept
    /// between tries.
    pub(crate) recorded: [super::counted::Recorded; 2],
    /// Counted loops' plans by the state they were met in, shared with
    /// this machine's copies.
    pub(crate) plans: std::sync::Arc<std::sync::Mutex<super::counted::PlanMemo>>,
    /// Counted skips made from [`super::counted::PlanMemo`] (a statistic).
    pub(crate) plan_hits: u64,
    /// Where each instruction of the last measured iteration ended, in
    /// E-cycles from its start (kept here: no array to fill per probe).
    pub(super) ends: [u16; MAX_ITERATION_STEPS as usize],
}

impl Default for FastForward {
    fn default() -> Self {
        FastForward {
            enabled: true,
            backoff: Box::default(),
            skipped: 0,
            probes: 0,
            polls: 0,
            polls_seen: Default::default(),
            hits: 0,
            recorded: Default::default(),
            plans: Default::default(),
            plan_hits: 0,
            ends: [0; MAX_ITERATION_STEPS as usize],
        }
    }
}

impl PartialEq for FastForward {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Eq for FastForward {}

/// Per loop head (hashed into [`SLOTS`] slots): how its tries went, so a
/// loop that does not repeat is not measured again for a while. Used by
/// `run_until`'s fast-forward and by the debugger's hooked run.
#[derive(Clone, Debug)]
pub(crate) struct LoopBackoff {
    slots: [Backoff; SLOTS],
    /// The head of the last skip and the cycle before which it is not
    /// measured again (see [`LoopBackoff::hold_after_skip`]).
    hold: (u16, u64),
}

/// How the tries at one loop head went.
#[derive(Clone, Copy, Debug, Default)]
struct Backoff {
    head: u16,
    /// Failed tries in a row.
    fails: u32,
    /// The head is not tried again before this cycle.
    retry_at: u64,
    /// The last try missed once without a backoff: the first pass through
    /// a loop may still settle state (a push of a new value, an arm flag),
    /// so only a second miss in a row counts as a failure.
    missed_once: bool,
    /// Which measurement the loop gets.
    kind: LoopKind,
    /// Counted measurements in a row that found no counted loop.
    strikes: u8,
}

/// What is known of a loop head: which measurement to try there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum LoopKind {
    /// Measured plainly (one iteration that must repeat exactly).
    #[default]
    Plain,
    /// Its last plain measurement changed state: measured as a counted
    /// loop ([`super::counted`]) first.
    Counted,
    /// A counted measurement found it no counted loop: plain only, and a
    /// changing state no longer makes it a candidate.
    NotCounted,
}

impl Default for LoopBackoff {
    fn default() -> Self {
        LoopBackoff {
            slots: [Backoff::default(); SLOTS],
            hold: (0, 0),
        }
    }
}

impl LoopBackoff {
    fn slot(head: u16) -> usize {
        (head as usize ^ (head as usize >> 6)) % SLOTS
    }

    /// Whether the loop at `head` may be measured at cycle `now`.
    pub(super) fn may_try(&self, head: u16, now: u64) -> bool {
        if self.hold.0 == head && now < self.hold.1 {
            return false;
        }
        let e = &self.slots[Self::slot(head)];
        e.head != head || now >= e.retry_at
    }

    /// Iterations of the loop at `head`, `period` E-cycles each, were just
    /// skipped up to `now`, which leaves less than one period to the event
    /// that ends the skip. The iteration running into it, and the one after
    /// if the loop read the device just before the event, are not measured:
    /// such a measurement cannot repeat. From two periods on it may be
    /// again (the event may have been another device's).
    pub(super) fn hold_after_skip(&mut self, head: u16, now: u64, period: u64) {
        self.hold = (head, now.saturating_add(period.saturating_mul(2)));
    }

    /// The loop at `head` did not repeat: not tried again for a while,
    /// longer after each failure in a row.
    pub(super) fn failed(&mut self, head: u16, now: u64) {
        let e = &mut self.slots[Self::slot(head)];
        let fails = if e.head == head { e.fails + 1 } else { 1 };
        let shift = (fails - 1).min(BACKOFF_MAX_SHIFT);
        *e = Backoff {
            head,
            fails,
            retry_at: now.saturating_add(BACKOFF_BASE << shift),
            missed_once: false,
            kind: if e.head == head {
                e.kind
            } else {
                LoopKind::Plain
            },
            strikes: if e.head == head { e.strikes } else { 0 },
        };
    }

    /// The loop did not repeat this time: the first such miss at a head is
    /// forgiven (it is tried again at its next pass), a second in a row is
    /// a failure.
    pub(super) fn missed(&mut self, head: u16, now: u64) {
        let e = &mut self.slots[Self::slot(head)];
        if e.head == head && e.missed_once {
            self.failed(head, now);
        } else if e.head == head {
            e.missed_once = true;
        } else {
            *e = Backoff {
                head,
                missed_once: true,
                ..Backoff::default()
            };
        }
    }

    /// The loop at `head` repeated: it may be tried at once next time.
    pub(super) fn succeeded(&mut self, head: u16) {
        let e = &mut self.slots[Self::slot(head)];
        if e.head == head {
            *e = Backoff {
                head,
                kind: e.kind,
                strikes: 0,
                ..Backoff::default()
            };
        }
    }

    /// What is known of the loop at `head`.
    pub(super) fn kind(&self, head: u16) -> LoopKind {
        let e = &self.slots[Self::slot(head)];
        if e.head == head {
            e.kind
        } else {
            LoopKind::Plain
        }
    }

    /// A counted measurement at `head` found no counted loop. A device
    /// write or an iteration too long to record (`for_good`) makes it plain
    /// at once. A path that differs between the two iterations may be the
    /// loop's exit, so only the third such finding in a row does.
    pub(super) fn not_counted(&mut self, head: u16, for_good: bool) {
        let e = &mut self.slots[Self::slot(head)];
        if e.head == head {
            e.strikes = e.strikes.saturating_add(1);
            if for_good || e.strikes >= COUNTED_STRIKES {
                e.kind = LoopKind::NotCounted;
            }
        }
    }

    /// Notes how a counted measurement at `head` went (`now` after it,
    /// and after the skip if there was one), for `run_until` and the
    /// hooked run alike. A skip keeps the head counted if anything varied
    /// (plain if not: the cheaper measurement finds that) and holds it as
    /// after any skip; a counter at a boundary is a miss; another kind of
    /// loop a miss and a strike; a step that stopped the run a failure.
    pub(super) fn counted_outcome(&mut self, head: u16, now: u64, outcome: &Counted) {
        match *outcome {
            Counted::Skipped { period, varied } => {
                self.succeeded(head);
                let kind = if varied {
                    LoopKind::Counted
                } else {
                    LoopKind::Plain
                };
                self.set_kind(head, kind);
                self.hold_after_skip(head, now, period);
            }
            Counted::Stopped(_) => self.failed(head, now),
            Counted::Interrupted => {}
            Counted::NotNow => self.missed(head, now),
            Counted::OtherKind { for_good } => {
                self.missed(head, now);
                self.not_counted(head, for_good);
            }
        }
    }

    /// Notes what is known of the loop at `head`.
    pub(super) fn set_kind(&mut self, head: u16, kind: LoopKind) {
        let e = &mut self.slots[Self::slot(head)];
        if e.head != head {
            *e = Backoff {
                head,
                ..Backoff::default()
            };
        }
        e.kind = kind;
    }
}

/// The board as the CPU sees it during a measured iteration, noting what
/// would make the iteration unrepeatable.
struct ProbeBus<'a> {
    board: &'a mut Board,
    clean: bool,
    /// A step wrote a device register (or ROM): no counted loop either.
    wrote_io: bool,
    /// A step read something other than plain memory (a device register,
    /// the PIO): what a device event can change.
    read_io: bool,
    /// A step read a timer register or PORTA ([`Board::reads_timer`]).
    read_timer: bool,
}

impl<'a> ProbeBus<'a> {
    /// A probe's bus over `board`, nothing seen yet.
    fn new(board: &'a mut Board) -> Self {
        ProbeBus {
            board,
            clean: true,
            wrote_io: false,
            read_io: false,
            read_timer: false,
        }
    }

    /// What it saw in the step just taken.
    fn flags(&self) -> ProbeFlags {
        ProbeFlags {
            clean: self.clean,
            wrote_io: self.wrote_io,
            read_io: self.read_io,
            read_timer: self.read_timer,
        }
    }
}

impl Bus for ProbeBus<'_> {
    #[inline(always)]
    fn read(&mut self, addr: u16) -> u8 {
        if !self.board.reads_direct(addr) {
            self.read_io = true;
            if self.board.reads_timer(addr) {
                self.read_timer = true;
                if self.board.read_is_time_dependent(addr) {
                    self.clean = false;
                }
            }
        }
        self.board.read(addr)
    }

    fn peek(&self, addr: u16) -> u8 {
        self.board.peek(addr)
    }

    // Code in a direct page is never TCNT: nothing for the probe to note.
    #[inline(always)]
    fn code(&self, pc: u16) -> Option<u64> {
        self.board.code(pc)
    }

    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        // Only a RAM store of the value already there changes nothing.
        let ram = self.board.is_plain_ram(addr);
        if !(ram && self.board.peek(addr) == value) {
            self.clean = false;
            self.wrote_io |= !ram;
        }
        self.board.write(addr, value);
    }

    fn irq_vector(&self) -> Option<u16> {
        self.board.irq_vector()
    }

    fn xirq(&self) -> bool {
        self.board.xirq()
    }
}

impl Machine {
    /// [`Machine::step`] through the probe's bus: the same outcome, and what
    /// the bus saw ([`ProbeFlags`]). The debugger's hooked run measures its
    /// loop iterations with it.
    pub(super) fn step_probed(&mut self) -> (super::StepOutcome, ProbeFlags) {
        let before = super::WriteUndo::take(&self.cpu.regs);
        let mut bus = ProbeBus::new(&mut self.board);
        let step = self.cpu.step(&mut bus);
        let flags = bus.flags();
        (self.finish_step(step, before), flags)
    }

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
        let op = self.board.peek(from);
        let second = if op == 0x18 {
            self.board.peek(from.wrapping_add(1))
        } else {
            0
        };
        if is_call_or_return(op, second) {
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

    /// After a measured iteration of `period` E-cycles and `count`
    /// instructions that repeats, skips as many more as end before `limit`
    /// and the next device event the loop can see. Returns how many it
    /// skipped.
    ///
    /// Without `measured`, every device event counts and the iteration
    /// that meets one runs normally. With it (the iteration was just
    /// measured by a probe, `run_until`'s or the hooked run's, whose steps
    /// went through [`Machine::note_measured_step`]: the instruction ends
    /// are in `ff.ends`), the timer's events do not count if the loop reads no
    /// timer register ([`Board::next_event_seen`]), and the iteration that
    /// meets the event is skipped too where that is exact
    /// ([`Machine::skip_event_iteration`]).
    pub(super) fn skip_repeats(
        &mut self,
        period: u64,
        count: u64,
        limit: u64,
        measured: Option<Measured>,
    ) -> u64 {
        let now = self.board.now();
        let period = period.max(1);
        let reads_timer = measured.is_none_or(|m| m.reads_timer);
        // Asked once: time passing short of `event` changes none of what
        // it looks at (no device is serviced on the way but the timer,
        // whose service cannot enable an interrupt).
        let can_interrupt = self.board.can_interrupt();
        let event = self.board.next_event_seen_given(reads_timer, can_interrupt);
        let mut deadline = limit.min(event);
        // A short loop that reads no device may be an idle loop, which
        // halts as soon as the output in progress is out
        // (`Machine::halt_check`; at most IDLE_LOOP_MAX instructions and
        // the jump back): the iteration that ends after that runs
        // normally, so the halt comes at its end as it does one step at a
        // time.
        let quiet = count <= super::stop::IDLE_LOOP_MAX as u64 + 1
            && measured.is_none_or(|m| m.last_device_read.is_none());
        let activity = if quiet { self.board.last_activity() } else { 0 };
        if activity > now {
            deadline = deadline.min(activity);
        }
        // Every skipped iteration ends at or before deadline - 1: none
        // reaches the event.
        let mut k = deadline.saturating_sub(now).saturating_sub(1) / period;
        if k > 0 {
            self.board.advance(k * period);
        }
        if let Some(m) = measured {
            if !can_interrupt
                && activity <= now
                && self.skip_event_iteration(period, count, limit, event, m.last_device_read)
            {
                k += 1;
            }
        }
        if k == 0 {
            return 0;
        }
        // Each skipped iteration polled where the measured one did.
        if measured.is_none_or(|m| !m.unmeasured) {
            self.board.shift_input_poll(now - period, k * period);
        }
        self.cpu.cycles += k * period;
        self.instructions += k * count;
        self.ff.skipped += k;
        k
    }

    /// The iteration from now on, a repeat of the measured one, contains
    /// `event`, the next device event the loop can see (a transfer ends in
    /// it). It is the measured iteration once more, and is skipped by
    /// ticking the board from one of its instruction ends to the next as
    /// running it would, so every event in it is serviced at the same
    /// cycle, if:
    /// * it ends by `limit` (no budget, script action or COP reset inside
    ///   it, which would stop the run in the middle);
    /// * every device read of it begins before the event (each reads what
    ///   the measured iteration read; plain memory no event changes);
    /// * no interrupt can follow the event ([`Board::can_interrupt`], which
    ///   the caller asks): the CPU would take it at the next instruction
    ///   boundary.
    ///
    /// Then its path, writes (none) and end state are the measured
    /// iteration's, and the board's are the same ticks. Returns whether it
    /// skipped (the caller counts the iteration's cycles and instructions).
    fn skip_event_iteration(
        &mut self,
        period: u64,
        count: u64,
        limit: u64,
        event: u64,
        last_device_read: Option<u16>,
    ) -> bool {
        let start = self.board.now();
        let end = start.saturating_add(period);
        let steps = count as usize;
        if event >= end
            || end > limit
            || steps == 0
            || steps > self.ff.ends.len()
            || last_device_read.is_some_and(|at| start + u64::from(at) >= event)
        {
            return false;
        }
        let mut at = 0u64;
        for &e in &self.ff.ends[..steps] {
            let e = u64::from(e);
            self.board.tick((e - at) as u32);
            at = e;
        }
        debug_assert_eq!(at, period, "instruction ends add up to the period");
        true
    }

    /// Runs one iteration from `head` (the current PC) and says how it went.
    fn measure_iteration(
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

/// True for the opcode bytes (`second`: the byte after a $18 prebyte) of
/// JSR in every mode, BSR, RTS and RTI (RM appendix A).
#[inline(always)]
pub(super) fn is_call_or_return(opcode: u8, second: u8) -> bool {
    matches!(opcode, 0x9D | 0xAD | 0xBD | 0x8D | 0x39 | 0x3B) || (opcode == 0x18 && second == 0xAD)
}

/// How a measured iteration went.
enum Iteration {
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

/// What the skip needs to know of a measured iteration besides its length.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Measured {
    /// Where the last step that read a device (anything but plain memory)
    /// began, in E-cycles from the iteration's start.
    pub(super) last_device_read: Option<u16>,
    /// It read a timer register or PORTA.
    pub(super) reads_timer: bool,
    /// Not run but read from the code ([`super::poll`]): the iteration
    /// before the skip may not have been one of the loop's, so the last
    /// input poll is not moved with it (the poll skip notes the loop's
    /// own, if its read polls an input).
    pub(super) unmeasured: bool,
}

/// What the probe's bus saw in one step ([`Machine::step_probed`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct ProbeFlags {
    /// The step kept the iteration repeatable: no TCNT read, no write but
    /// a RAM store of the byte already there.
    pub(super) clean: bool,
    /// It wrote a device register (then the loop is no counted loop either).
    pub(super) wrote_io: bool,
    /// It read something other than plain memory.
    pub(super) read_io: bool,
    /// It read a timer register or PORTA.
    pub(super) read_timer: bool,
}

impl Machine {
    /// Notes step `n` (from 0) of an iteration measured from `t0`, which
    /// began at `start`, in `ff.ends` and `measured`. False if the
    /// iteration has more steps than `ff.ends` holds.
    #[inline(always)]
    pub(super) fn note_measured_step(
        &mut self,
        n: usize,
        t0: u64,
        start: u64,
        flags: &ProbeFlags,
        measured: &mut Measured,
    ) -> bool {
        let Some(end) = self.ff.ends.get_mut(n) else {
            return false;
        };
        // Offsets fit: at most 48 steps of at most 41 cycles.
        *end = (self.board.now() - t0) as u16;
        if flags.read_io {
            measured.last_device_read = Some((start - t0) as u16);
            measured.reads_timer |= flags.read_timer;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::{Op, OPCODES};

    #[test]
    fn call_or_return_matches_the_opcode_table() {
        for first in 0..=255u8 {
            for second in 0..=255u8 {
                let op = OPCODES.iter().find(|e| {
                    (e.prebyte == 0 && e.opcode == first)
                        || (e.prebyte != 0 && e.prebyte == first && e.opcode == second)
                });
                let want =
                    op.is_some_and(|e| matches!(e.op, Op::Jsr | Op::Bsr | Op::Rts | Op::Rti));
                assert_eq!(
                    is_call_or_return(first, second),
                    want,
                    "{first:02X} {second:02X}"
                );
            }
        }
    }
}

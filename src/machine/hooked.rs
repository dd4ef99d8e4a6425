//! A run with a per-step hook: the debugger's fast path. Each step is the
//! same [`Machine::step`] the debugger's single steps take (so faults,
//! halts, the COP and the clock monitor behave identically), the hook hears
//! about it (call stack, profile, history), breakpoint addresses ask the
//! hook whether to stop (conditions, hit counts), and polling loops are
//! fast-forwarded as in [`Machine::run_until`] when the hook can account
//! for the skipped iterations exactly.
//!
//! The fast-forward argument is the one of `fastforward.rs` (steps 1-6,
//! the probe's steps noting what 5 and 6 need, `Machine::note_measured_step`):
//! when control moves back to an address H, the state at H is noted (CPU
//! without its cycle counter, the device state reads change, the next device
//! event); one iteration runs through the probe's bus
//! (`Machine::step_probed`), and a write that changed a byte or touched a
//! register, or a TCNT read, ends the measurement there. Back
//! at H with everything equal and no event crossed, every further iteration
//! started before the next event, the key script's next action, the COP
//! deadline and the budget does the same N steps in P cycles; the k of them
//! that end before the first deadline are skipped at once. Calls and
//! returns start no measurement, and a head just skipped is not measured
//! again for two periods, as in `run_until` (callgrind, the 13-key game
//! with `--break drawCell:1000`: 198.0 M host instructions before the
//! second rule, 185.3 M after; it used to keep one spare iteration instead,
//! which was 193.1 M with the rule).
//! Here the measured iteration also went through the hook, which says
//! whether k more of it are a linear extension of its own state
//! ([`StepHook::may_repeat`]) and then adds them ([`StepHook::repeated`]).
//! A breakpoint address inside the loop ends the measurement (the hook must
//! see every visit: a condition may hold the k-th time), unless the hook
//! answers that the visit repeats ([`AtBreakpoint::Go`]): a condition that
//! read neither the cycle count nor a device register that time changes
//! (a steady one, such as the keys, until the next event) gets the same answer
//! from the same inputs, which every skipped iteration of a plain loop
//! has; in a counted loop the hook checks that its visits in the second
//! recorded iteration read what those in the first did (a value that
//! differs between them varies with the count, one that does not is the
//! same in every iteration, `counted.rs` step 3). A visit that counts a
//! hit (toward `drawCell:1000`) repeats as well: the skip ends before the
//! visit that would reach the count (`StepHook::repeat_cap`) and the hook
//! adds the hits of the visits skipped. The firmware's key loop with
//! `--break 'readInputEnd if a == 99'` or `--break mainLoop:5000` is
//! skipped that way.
//!
//! Most steps never reach the full path: the quick stretch
//! (`Machine::quick_stretch`) runs the steps that only need counting, a
//! report of a call or return, or a glance at a loop head not to be
//! measured now, in an inner loop with one precomputed limit, and hands
//! every other step to the full path (`after_hooked_step`), which would
//! have done the same for those.
//!
//! Poll loops of one read and a branch back (module `poll`: the SPIF
//! wait) need no measurement: the quick stretch skips them from their
//! code, as `run_until` does, and tells the hook the skipped steps as
//! plain ones (such a loop calls nothing and moves SP nowhere). One with
//! a breakpoint address on its head or branch is left to the probe.
//!
//! With a watch on RAM bytes (`Machine::set_watch`, the debugger's
//! watchpoints), a step that read or wrote a watched byte asks the board
//! for attention, so it leaves the quick stretch; the full path tells the
//! hook of it (the accesses in `Machine::watched_accesses`) and clears the
//! log. Loops go on being skipped: what a skipped iteration accesses, the
//! measured one (or, for a counted loop, the two recorded) did too, and
//! the hook heard of that.
//!
//! Counted loops (module `counted`) are measured the same way: two
//! iterations are recorded while the hook hears their steps as any, the
//! hook marks its state at the start of the second, and the skip (which
//! moves the counters on as well) is accounted as k times that one: the
//! call stack and profile do not depend on the values counted. A counted
//! loop met in a state `counted::PlanMemo` knows (the debounce count,
//! pass after pass) runs its two iterations unrecorded and takes the skip
//! from the stored plan (`Machine::counted_from_memo`); the hook hears
//! those iterations, step by step and at every breakpoint address, as it
//! hears a recorded pair.

use super::counted::{Boundary, Counted, PassListener, Recorded, StepListener};
use super::poll::PollTry;
use super::skip::{capped, LoopBackoff, LoopKind, Measured, MAX_ITERATION_STEPS};
use super::{Breakpoints, Machine, StepOutcome};
use crate::board::InputKind;
use crate::cpu::{Bus, Cpu, RunState, Step, StepEvent};

/// What was true just before a step, for the hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepBefore {
    /// PC before the step.
    pub pc: u16,
    /// SP before the step.
    pub sp: u16,
    /// The byte at PC.
    pub opcode: u8,
    /// The byte after it when `opcode` is the $18 prefix, else 0.
    pub second: u8,
    /// E-cycles before the step.
    pub cycles: u64,
}

impl StepBefore {
    /// The state of `cpu` (cycles `now`) before its next step, `peek` reading memory.
    #[inline]
    pub fn of(cpu: &Cpu, now: u64, peek: impl Fn(u16) -> u8) -> StepBefore {
        let pc = cpu.regs.pc;
        let opcode = peek(pc);
        StepBefore {
            pc,
            sp: cpu.regs.sp,
            opcode,
            second: if opcode == 0x18 {
                peek(pc.wrapping_add(1))
            } else {
                0
            },
            cycles: now,
        }
    }
}

/// Which steps a hook must hear about one by one; the others (plain
/// instructions) it is told only as a count ([`StepHook::plain_steps`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interest {
    /// Every step (the rest of this is then moot).
    pub every_step: bool,
    /// Steps after which SP is above this.
    pub sp_above: u16,
    /// Steps that end at or after this E-cycle.
    pub at_cycle: u64,
}

impl Interest {
    /// Every step, one by one.
    pub const EVERY_STEP: Interest = Interest {
        every_step: true,
        sp_above: 0,
        at_cycle: 0,
    };
}

/// True for the steps a hook always hears about: JSR (all modes), BSR,
/// RTS and RTI by their opcode bytes (RM appendix A); interrupt entries,
/// SWI, traps and waits by their step event.
///
/// (The quick stretch asks the CPU's [`crate::cpu::core::FlowNote`]
/// instead, which needs no opcode read before the step: the 13-key
/// `--break` run 90.1 -> 83.1 M host instructions. `run_until` asks only
/// at back-jumps and keeps the compares of `is_call_or_return`: with a
/// table there, its hot loop measured 5% slower on `cpu_plain`.)
#[inline(always)]
fn calls_or_returns(before: &StepBefore) -> bool {
    crate::cpu::flow_op(before.opcode, || before.second).is_some()
}

/// What was true before a step the quick stretch ran from `pc` with SP
/// `sp` at cycle `now`: the opcode bytes of the call or return it ran
/// (`call`, from the CPU's note), else a NOP's, which classifies the
/// step as what it was (the opcode matters only for calls and returns:
/// the step's event says the rest).
#[inline(always)]
fn quick_before(cpu: &Cpu, call: bool, pc: u16, sp: u16, now: u64) -> StepBefore {
    let (opcode, second) = if call {
        let [first, second] = cpu.flow.code.to_be_bytes();
        (first, second)
    } else {
        (0x01, 0)
    };
    StepBefore {
        pc,
        sp,
        opcode,
        second,
        cycles: now,
    }
}

/// Who watches a hooked run (the debugger's session). `M` is the machine.
pub trait StepHook<M> {
    /// Which steps to report one by one (asked again after each report).
    fn interest(&self) -> Interest {
        Interest::EVERY_STEP
    }
    /// `n` plain instructions ran that [`StepHook::interest`] did not ask
    /// for (told before any other call, so the hook's step count is right).
    fn plain_steps(&mut self, _n: u64) {}
    /// The next instruction is at a breakpoint address of the run: stop
    /// before it, or go on (saying whether the same state would get the
    /// same answer at another time).
    fn at_breakpoint(&mut self, m: &M) -> AtBreakpoint;
    /// After every step (`step` as the CPU reported it, `m` after it): true
    /// stops the run after it.
    fn after_step(&mut self, m: &M, before: &StepBefore, step: &Step) -> bool;
    /// The quick stretch ran a call or a return (`before`, with its opcode
    /// bytes; `m` after it) after `pending` plain steps not yet told, and
    /// nothing stops or needs the hook's every-step attention (the step
    /// ended before the hook's `at_cycle`). A hook that can take it the
    /// short way does (as `plain_steps(pending)` and `after_step` would)
    /// and returns its new `sp_above`, with the rest of its
    /// [`StepHook::interest`] unchanged and no wish to stop; `None`
    /// changes nothing, and the step goes the full way.
    #[inline]
    fn quick_flow(&mut self, _m: &M, _pending: u64, _before: &StepBefore) -> Option<u16> {
        None
    }
    /// A loop iteration starts being measured here: note your state.
    fn iteration_start(&mut self, _which: Iteration) {}
    /// The measured iteration repeats exactly: true if `k` more of it would
    /// change your state by k times what this one did (then
    /// [`StepHook::repeated`] follows).
    fn may_repeat(&mut self) -> bool {
        false
    }
    /// At most how many more iterations of the measured one may be
    /// skipped (breakpoint hits they would count must stop nowhere).
    fn repeat_cap(&self) -> u64 {
        u64::MAX
    }
    /// `k` more iterations of `steps` steps each were skipped.
    fn repeated(&mut self, _k: u64, _steps: u64) {}
}

/// Which iteration of a loop measurement starts ([`StepHook::iteration_start`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Iteration {
    /// The one iteration of a plain measurement: the loop is skipped only
    /// if it ends in the state it started in.
    Plain,
    /// The first of a counted measurement's two (A).
    CountedFirst,
    /// The second (B), the one whose effect the skip repeats. Values that
    /// differ between A and B change with every iteration, so a hook that
    /// let a breakpoint visit go on as repeating ([`AtBreakpoint::Go`])
    /// agrees to the skip ([`StepHook::may_repeat`]) only if its visits in
    /// B read what those in A read.
    CountedSecond,
}

/// The hook's answer at a breakpoint address ([`StepHook::at_breakpoint`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtBreakpoint {
    /// Stop the run before the instruction.
    Stop,
    /// Go on. `repeats`: the same registers and memory at a later cycle
    /// would get this answer again (the conditions there read neither the
    /// cycle count nor a device register, or only `steady` ones: registers
    /// that change only at device events, such as the keys on PIO_B),
    /// and what the visit changed in the hook (a hit counted) another
    /// visit changes the same way. A
    /// loop iteration being measured then goes on through the address,
    /// and the loop may be skipped: a plain loop's every visit finds the
    /// state of this one, a counted loop's the values the hook compares
    /// (see [`Iteration::CountedSecond`]); the hook caps the skip short of
    /// a hit count ([`StepHook::repeat_cap`]) and adds the hits of the
    /// skipped visits ([`StepHook::repeated`]). Otherwise the measurement
    /// ends here, as the hook must see every visit. With `steady`, a
    /// plain loop's skip ends before the next device event of any kind
    /// (the timer's included) and never takes the iteration that meets it
    /// (whose visit could come after the event); a counted loop's skip
    /// ends before every event but the timer's, which change no steady
    /// register.
    Go {
        /// See above.
        repeats: bool,
        /// See above.
        steady: bool,
    },
}

/// Why a hooked run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookedStop {
    /// The hook asked ([`StepHook::at_breakpoint`] or [`StepHook::after_step`]).
    Hook,
    /// The run's cycle budget is used up.
    Budget,
    /// The key script finished with the program waiting for this input.
    Settled(InputKind),
    /// A step that stops any run: a refused write, an illegal opcode
    /// stopped before, or a halt.
    Outcome(StepOutcome),
}

/// The per-loop backoff of the hooked fast-forward (kept by the caller
/// between runs; it only decides how fast the same result comes).
#[derive(Clone, Debug, Default)]
pub struct RepeatCache {
    backoff: LoopBackoff,
    /// Iterations skipped so far (a statistic).
    pub skipped: u64,
}

/// A loop head whose plain measurement changed RAM or registers is
/// measured as a counted loop next (unless one found it none).
fn plain_to_counted(cache: &mut RepeatCache, head: u16) {
    if cache.backoff.kind(head) == LoopKind::Plain {
        cache.backoff.set_kind(head, LoopKind::Counted);
    }
}

/// Tells `hook` about the plain steps not reported yet.
#[inline]
fn flush<M, H: StepHook<M>>(hook: &mut H, pending: &mut u64) {
    if *pending > 0 {
        hook.plain_steps(*pending);
        *pending = 0;
    }
}

/// A step the quick stretch took and leaves to the full path.
enum QuickEnd {
    /// The board refused its write (the registers before it to undo).
    Refused(Step, super::WriteUndo, StepBefore),
    /// It ran and its cycles are ticked.
    Ticked(Step, StepBefore),
    /// The hook asked to stop after a step it heard about.
    Stop(HookedStop),
}

/// The hook hearing of a counted loop's iterations taken from the plan
/// memo ([`Machine::counted_from_memo`]) as of recorded ones
/// (`counted_probe_step`, `tell_probe_step`).
struct HeardPasses<'a, H> {
    hook: &'a mut H,
    pending: &'a mut u64,
    cache: &'a mut RepeatCache,
    interest: &'a mut Interest,
    bps: Option<&'a Breakpoints>,
    /// The hook asked to stop (at a breakpoint address, or after a step).
    stopped: bool,
    /// A visit to a breakpoint address the hook must see every time:
    /// no skip (the recorded way ends its measurement there).
    declined: bool,
}

impl<H: StepHook<Machine>> StepListener for HeardPasses<'_, H> {
    type Before = StepBefore;

    fn before(&mut self, m: &Machine) -> Option<StepBefore> {
        if self.bps.is_some_and(|b| b.contains(m.cpu.regs.pc)) {
            flush(self.hook, self.pending);
            match self.hook.at_breakpoint(m) {
                // Every event that may change the answer ends a counted
                // skip (`run_hooked` at a breakpoint address).
                AtBreakpoint::Go { repeats: true, .. } => {}
                AtBreakpoint::Go { repeats: false, .. } => self.declined = true,
                AtBreakpoint::Stop => {
                    self.stopped = true;
                    return None;
                }
            }
        }
        Some(StepBefore::of(&m.cpu, m.board.now(), |a| m.board.peek(a)))
    }

    fn after(&mut self, m: &mut Machine, before: &StepBefore, step: &Step) -> bool {
        self.stopped = m.tell_step(step, before, false, self.hook, self.interest, self.pending);
        self.stopped
    }
}

impl<H: StepHook<Machine>> PassListener for HeardPasses<'_, H> {
    fn pass_start(&mut self, pass: usize) {
        self.hook.iteration_start(if pass == 0 {
            Iteration::CountedFirst
        } else {
            Iteration::CountedSecond
        });
    }

    fn pass_done(&mut self) {
        flush(self.hook, self.pending);
    }

    fn skip_cap(&mut self) -> Option<u64> {
        (!self.declined && self.hook.may_repeat()).then(|| self.hook.repeat_cap())
    }

    fn skipped(&mut self, k: u64, steps: u64) {
        self.cache.skipped += k;
        self.hook.repeated(k, steps);
        *self.interest = self.hook.interest();
    }
}

/// A loop iteration being measured.
struct Probe {
    head: u16,
    /// The first of budget end, script action and COP deadline when the
    /// measurement began.
    limit: u64,
    t0: u64,
    event0: u64,
    cpu0: Cpu,
    effects0: crate::board::ReadEffects,
    steps: u32,
    /// What the skip needs of the iteration (its instruction ends go to
    /// `ff.ends`); `None` once it has more steps than those hold.
    measured: Option<Measured>,
    last_back: Option<u16>,
    retried: bool,
    /// A counted measurement ([`super::counted`]) instead of a plain one.
    counted: Option<Box<CountedProbe>>,
}

/// The two recorded iterations of a counted measurement in the hooked run.
struct CountedProbe {
    its: [Recorded; 2],
    /// The iteration being recorded (0 = A, 1 = B).
    pass: usize,
    /// The CPU at the start of A, and at the end of A (with the time).
    s0: Boundary,
    s1: Option<(Boundary, u64)>,
}

impl Machine {
    /// Runs step by step with `hook` hearing every step, until the hook
    /// stops it, `max_cycles` pass, the key script settles, or a step
    /// faults, meets an illegal opcode or halts. Before each step at an
    /// address in `breakpoints` the hook is asked whether to stop (not at
    /// the first step unless `check_first`). Script actions happen between
    /// steps as in `run_until`. Polling loops are fast-forwarded (if
    /// [`Machine::fast_forward`] is on) where the hook agrees.
    pub fn run_hooked<H: StepHook<Machine>>(
        &mut self,
        max_cycles: u64,
        breakpoints: &Breakpoints,
        check_first: bool,
        hook: &mut H,
        cache: &mut RepeatCache,
    ) -> HookedStop {
        let start = self.board.now();
        let budget_end = start.saturating_add(max_cycles);
        let check_bps = !breakpoints.is_empty();
        let mut first = !check_first;
        let mut probe: Option<Probe> = None;
        let mut interest = hook.interest();
        let mut pending = 0u64;
        let mut cop_at = self.board.cop_deadline();
        loop {
            if probe.is_none() && self.resume_write_at.is_none() {
                let end = self.quick_stretch(
                    budget_end,
                    cop_at,
                    check_bps.then_some(breakpoints),
                    &mut first,
                    hook,
                    cache,
                    &mut interest,
                    &mut pending,
                );
                let after = match end {
                    None => None,
                    Some(QuickEnd::Stop(stop)) => Some(stop),
                    Some(QuickEnd::Refused(step, undo, before)) => {
                        let out = self.refused_step(step, undo);
                        flush(hook, &mut pending);
                        hook.after_step(self, &before, &out.step);
                        return HookedStop::Outcome(out);
                    }
                    Some(QuickEnd::Ticked(step, before)) => self.after_hooked_step(
                        step,
                        &before,
                        cop_at,
                        budget_end,
                        check_bps.then_some(breakpoints),
                        hook,
                        cache,
                        &mut interest,
                        &mut pending,
                        &mut probe,
                    ),
                };
                if let Some(stop) = after {
                    return stop;
                }
            }
            let pc = self.cpu.regs.pc;
            if !first && check_bps && breakpoints.contains(pc) {
                flush(hook, &mut pending);
                let answer = hook.at_breakpoint(self);
                match answer {
                    AtBreakpoint::Go {
                        repeats: true,
                        steady,
                    } => {
                        if let Some(p) = probe.as_mut().filter(|_| steady) {
                            // As a skip without a measured iteration:
                            // every event counts, the one that meets an
                            // event runs.
                            p.measured = None;
                        }
                    }
                    _ => {
                        if let Some(p) = probe.take() {
                            cache.backoff.failed(p.head, self.board.now());
                        }
                    }
                }
                if answer == AtBreakpoint::Stop {
                    return HookedStop::Hook;
                }
            }
            first = false;
            if self.board.now() >= self.script_deadline && self.script_tick().is_some() {
                flush(hook, &mut pending);
                return HookedStop::Settled(self.waiting_on.unwrap_or(InputKind::Keys));
            }
            let now = self.board.now();
            if now >= budget_end {
                flush(hook, &mut pending);
                return HookedStop::Budget;
            }
            if probe.as_ref().is_some_and(|p| now >= p.limit) {
                // The budget, a script action or the COP came first (the
                // limit noted when the measurement began: a script action
                // on the way changes what the loop reads): no fault of the
                // loop's.
                probe = None;
            }
            let before = StepBefore::of(&self.cpu, now, |a| self.board.peek(a));
            if probe.is_some() {
                let end = self.probe_step(
                    &mut probe,
                    &before,
                    budget_end,
                    hook,
                    cache,
                    &mut interest,
                    &mut pending,
                );
                match end {
                    Some(stop) => return stop,
                    None => continue,
                }
            }
            if now >= cop_at {
                cop_at = self.board.cop_deadline();
            }
            if self.resume_write_at.is_some() {
                // Continuing from a reported write fault: that step as the
                // chip runs it, reported as any (the loop test is skipped
                // for it, which only decides speed).
                let out = self.step();
                if let Some(stop) = self.hooked_outcome(out, &before, hook, &mut pending) {
                    return stop;
                }
                interest = hook.interest();
                continue;
            }
            // The step stays in its own variable here: copying it whole into
            // another (a `StepOutcome`, or one joined from the rare paths)
            // loaded it with one wide load across the narrow stores the CPU
            // had just made, which waits for them (a quarter of this loop's
            // time in `perf`). That is also why this end of a step is
            // written out again rather than shared with the quick
            // stretch's through a `QuickEnd` (tried: the debug bench's fast
            // path 1.73x -> 1.86x).
            let undo = super::WriteUndo::take(&self.cpu.regs);
            let step = self.cpu.step_inline(&mut self.board);
            if self.board.has_fault() {
                let out = self.refused_step(step, undo);
                flush(hook, &mut pending);
                hook.after_step(self, &before, &out.step);
                return HookedStop::Outcome(out);
            }
            self.board.tick(step.cycles);
            let after = self.after_hooked_step(
                step,
                &before,
                cop_at,
                budget_end,
                check_bps.then_some(breakpoints),
                hook,
                cache,
                &mut interest,
                &mut pending,
                &mut probe,
            );
            if let Some(stop) = after {
                return stop;
            }
        }
    }

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
    fn quick_stretch<H: StepHook<Machine>>(
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
            let undo = super::WriteUndo::take(&self.cpu.regs);
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
                if step.pc.wrapping_sub(to) <= super::poll::MAX_BRANCH_OFFSET {
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
    fn after_hooked_step<H: StepHook<Machine>>(
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

    /// One step of a loop iteration being measured (through the probe's
    /// observer), reported to the hook as any step, then the measurement's
    /// bookkeeping: skip when the iteration repeated, measure again or give
    /// up. Returns the run's end if the step ends it.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn probe_step<H: StepHook<Machine>>(
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
    fn hooked_outcome<H: StepHook<Machine>>(
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
    fn refused_step(&mut self, mut step: Step, before: super::WriteUndo) -> StepOutcome {
        let fault = self.board.take_fault();
        self.undo_step(&mut step, before);
        self.outcome_after(step, fault)
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

    fn start_probe<H: StepHook<Machine>>(
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

    /// Whether the hook hears of `step` (from `before`) itself rather than
    /// in a count of plain steps: it asked for every step, the step has an
    /// event, calls or returns, leaves SP above the hook's frame, reaches
    /// the cycle it waits for, or made a watched access.
    fn hook_hears(&self, step: &Step, before: &StepBefore, interest: &Interest) -> bool {
        interest.every_step
            || step.event != StepEvent::None
            || calls_or_returns(before)
            || self.cpu.regs.sp > interest.sp_above
            || self.board.now() >= interest.at_cycle
            || !self.board.watched_accesses().is_empty()
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
    fn tell_step<H: StepHook<Machine>>(
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
    fn counted_from_memo<H: StepHook<Machine>>(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::skip::is_call_or_return;

    #[test]
    fn call_or_return_table_matches_the_opcode_bytes() {
        for opcode in 0..=255u8 {
            for second in 0..=255u8 {
                let before = StepBefore {
                    pc: 0,
                    sp: 0,
                    opcode,
                    second: if opcode == 0x18 { second } else { 0 },
                    cycles: 0,
                };
                let want = is_call_or_return(opcode, before.second);
                assert_eq!(calls_or_returns(&before), want, "{opcode:02X} {second:02X}");
            }
        }
    }
}

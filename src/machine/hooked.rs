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
//!
//! Owns: the debugger's fast path through the machine and the hook
//! interface it is heard through ([`StepHook`]). Must not know about: the
//! debugger itself (the session is one [`StepHook`] among any).
//!
//! Rooms: this file holds the hook's side (what it hears and answers) and
//! the run's loop; `quick.rs` the quick stretch and the full path of a
//! step; `probe.rs` the loop measurements (plain and counted) and their
//! skips.

mod probe;
mod quick;

use super::counted::{Boundary, PassListener, Recorded, StepListener};
use super::skip::{LoopBackoff, LoopKind, Measured};
use super::{Breakpoints, Machine, StepOutcome};
use crate::board::InputKind;
use crate::cpu::{Bus, Cpu, Step};

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

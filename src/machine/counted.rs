//! Fast-forward over counted loops: a loop whose iterations differ only in
//! a few counters (the debounce timer of a key loop, a delay loop's index
//! register) is skipped in one go up to the iteration where a counter
//! would change a flag, with every observable result exactly as if each
//! iteration had run. The polling loops of [`super::fastforward`] are the
//! special case where nothing changes at all.
//!
//! The argument, step by step:
//! 1. Two iterations A and B run normally from the loop head H, recorded:
//!    each step's PC, cycles, registers before and after, and the bytes it
//!    read and wrote. Every write must store into plain RAM (not the
//!    program's own code), no read may be of TCNT, no device event, interrupt
//!    or breakpoint may come on the way, and the device state reads change
//!    ([`crate::board::Board::read_effects`]) must be the same at the start
//!    of A, the end of A and the end of B.
//! 2. A and B must take the same steps (PC, cycles, opcode) and access the
//!    same addresses in the same order. SP must be the same throughout.
//! 3. A value that differs between A and B ("varies") may only flow through
//!    instructions whose result is the operand plus or minus a constant or
//!    another varying value (loads, stores, transfers, pushes and pulls,
//!    ADD, SUB, INC, DEC, INX/DEX, their compares and TST; [`is_affine`]).
//!    Every other instruction must see the same registers (all of them,
//!    CCR included) and read the same bytes in A and B. So each varying
//!    value moves by a fixed step d per iteration: in iteration n it is
//!    `q_A + n*d`, as long as the loop's state at the start of each
//!    iteration moves by the same steps, which the start of A, the end of A
//!    and the end of B show (they must differ by the same amounts).
//! 4. The flags N, Z, V and C those instructions produce depend only on
//!    which side of $00 and $80 (for 16-bit values $0000 and $8000) their
//!    operands and results lie, and whether a result wrapped. While every
//!    varying value (each operand, result and compare difference, and every
//!    register and RAM byte at the end of an iteration) stays strictly
//!    inside the half it started in (1..=$7F or $81..=$FF), none of those
//!    changes, so every branch goes as in A and B. The half carry H is read
//!    by no instruction of that set; if a varying ADD sets it, every step
//!    of the loop must be of that set, and H after the skip is computed from
//!    the last ADD's operands.
//!    If no instruction of the loop reads N or V (no BMI, BPL, BVS, BVC,
//!    BGE, BLT, BGT, BLE, TPA, SWI, WAI: the firmware's key loop branches
//!    on Z only), only Z and C decide the path, and those change only
//!    where a value reaches 0 or wraps: a value may then run through
//!    1..=$FF (1..=$FFFF) across $80, and N and V may differ between A and
//!    B (every other instruction sees the same input whatever they hold).
//!    N and V after the skip come from replaying the last skipped
//!    iteration on a copy of the CPU, with the values it reads and its
//!    registers at the start extrapolated (all affine in the iteration's
//!    number), so the state is exact there too.
//! 5. So k more iterations, each ending before the next device event, the
//!    key script's next action and the run's budget, and all inside the
//!    halves, are skipped at once: time, the CPU's cycle counter and the
//!    instruction count advance by k iterations, each register and written
//!    RAM byte moves by k steps, CCR is B's (with H as above). The
//!    iteration that would cross a boundary runs normally.
//!
//! A loop met again in the very state a skip started from before (the
//! whole CPU, and every byte the two iterations read or wrote as it was
//! then) runs its two iterations without recording them and reuses that
//! skip's plan ([`PlanMemo`]): the same inputs make the same iterations,
//! and step 5 is taken from the plan as it was made. `run_until` does
//! this without breakpoints; the debugger's hooked run with its hook
//! hearing the two iterations as recorded ones
//! ([`Machine::try_planned_heard`]).

use super::skip::{LoopBackoff, LoopKind};
use super::{Machine, StopConditions, StopReason};
use crate::board::Board;
use crate::cpu::registers::flags;
use crate::cpu::{Bus, Cpu, Instruction, Op, Registers, RunState, StepEvent};

/// Steps one recorded iteration may take at most.
const MAX_STEPS: usize = super::skip::MAX_ITERATION_STEPS as usize;

/// One step of a recorded iteration.
#[derive(Clone, Copy, Debug)]
struct Rec {
    pc: u16,
    cycles: u32,
    op: Op,
    len: u16,
    before: Registers,
    after: Registers,
    /// Ranges into the iteration's `reads` and `writes`.
    reads: (usize, usize),
    writes: (usize, usize),
}

/// A recorded iteration; the buffers are kept between probes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Recorded {
    steps: Vec<Rec>,
    /// (address, value) of every bus read, fetches included.
    reads: Vec<(u16, u8)>,
    /// (address, byte before, byte written) of every bus write.
    writes: Vec<(u16, u8, u8)>,
}

impl Recorded {
    /// Empties the record for the next iteration.
    pub(super) fn clear(&mut self) {
        self.steps.clear();
        self.reads.clear();
        self.writes.clear();
    }

    fn reads_of(&self, r: &Rec) -> &[(u16, u8)] {
        &self.reads[r.reads.0..r.reads.1]
    }

    fn writes_of(&self, r: &Rec) -> &[(u16, u8, u8)] {
        &self.writes[r.writes.0..r.writes.1]
    }
}

/// The board as the CPU sees it during a recorded iteration.
struct RecordBus<'a> {
    board: &'a mut Board,
    it: &'a mut Recorded,
    /// False once a step read TCNT or wrote anything but plain RAM.
    fit: bool,
}

impl Bus for RecordBus<'_> {
    fn read(&mut self, addr: u16) -> u8 {
        if self.board.read_is_time_dependent(addr) {
            self.fit = false;
        }
        let v = self.board.read(addr);
        self.it.reads.push((addr, v));
        v
    }

    fn peek(&self, addr: u16) -> u8 {
        self.board.peek(addr)
    }

    /// Plain memory in one load, noted byte by byte as the fetch through
    /// [`Bus::read`] would read it (no such byte is TCNT).
    fn fetch(&mut self, pc: u16) -> u64 {
        match self.board.code(pc) {
            Some(code) => {
                for i in 0..crate::cpu::core::fetched_len(code) {
                    let byte = (code >> (56 - 8 * i)) as u8;
                    self.it.reads.push((pc.wrapping_add(i), byte));
                }
                code
            }
            None => crate::cpu::core::fetch_code(self, pc),
        }
    }

    fn write(&mut self, addr: u16, value: u8) {
        if !self.board.is_plain_ram(addr) {
            self.fit = false;
        }
        let old = self.board.peek(addr);
        self.it.writes.push((addr, old, value));
        self.board.write(addr, value);
    }

    fn irq_vector(&self) -> Option<u16> {
        self.board.irq_vector()
    }

    fn xirq(&self) -> bool {
        self.board.xirq()
    }
}

/// How a try at a counted loop went.
pub(super) enum Counted {
    /// Skipped iterations of `period` E-cycles each; `varied` is false if
    /// nothing changed between them (a plain polling loop, which the
    /// cheaper one-iteration measurement finds as well).
    Skipped { period: u64, varied: bool },
    /// A step stopped the run (the reason, if the run stops).
    Stopped(Option<StopReason>),
    /// The budget, the script's next action or a device event came first.
    Interrupted,
    /// The iterations are of the right kind, but a counter is at a
    /// boundary (or no whole iteration fits before the next event): try
    /// again at the next pass.
    NotNow,
    /// Not a counted loop (an instruction or access the argument does not
    /// cover); `for_good` if it wrote a device register, read TCNT or was
    /// too long to record, which it will be next time too.
    OtherKind { for_good: bool },
}

impl LoopBackoff {
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
}

/// The board when a counted loop's two iterations begin: neither may
/// reach its next event or leave a read's effect.
struct PassStart {
    event: u64,
    effects: crate::board::ReadEffects,
}

impl PassStart {
    fn of(board: &Board) -> PassStart {
        PassStart {
            event: board.next_event(),
            effects: board.read_effects(),
        }
    }
}

/// How one recorded iteration ended.
enum Pass {
    Back,
    Stopped(Option<StopReason>),
    AtLimit,
    Unfit,
}

/// The registers and the rest of the CPU (with registers and cycle counter
/// blanked) at an iteration boundary.
pub(super) struct Boundary {
    regs: Registers,
    rest: Cpu,
}

impl Boundary {
    /// `Err` unless the CPU but for its registers and cycle count is the
    /// same at the three boundaries of two iterations (`analyze` follows
    /// the registers; anything else that moved is no counted loop).
    fn same_rest(at: [&Boundary; 3]) -> Result<(), Counted> {
        let [s0, s1, s2] = at;
        if s0.rest != s1.rest || s1.rest != s2.rest {
            return Err(Counted::OtherKind { for_good: false });
        }
        Ok(())
    }

    /// The boundary `cpu` is at.
    pub(super) fn take(cpu: &Cpu) -> Boundary {
        let mut rest = cpu.clone();
        rest.cycles = 0;
        rest.regs = Registers::default();
        Boundary {
            regs: cpu.regs,
            rest,
        }
    }
}

impl Machine {
    /// Called at the head of a loop whose iterations change memory or
    /// registers: records two iterations and, if they are a counted loop
    /// (module doc), skips as many more as the counters and `limit` (or
    /// `skip_limit`, when SP stayed in [`StopConditions::skip_past_budget`])
    /// allow.
    pub(super) fn try_counted(
        &mut self,
        head: u16,
        stop: &StopConditions,
        limit: u64,
        skip_limit: u64,
        check_bps: bool,
    ) -> Counted {
        if !check_bps {
            let plans = std::sync::Arc::clone(&self.ff.plans);
            let memo = PlanMemo::lock(&plans);
            if let Some(i) = memo.find(head, &self.cpu, &self.board) {
                return self.try_planned(head, &memo.entries[i], stop, limit, skip_limit);
            }
        }
        let start = PassStart::of(&self.board);
        let s0 = Boundary::take(&self.cpu);
        let mut sp = (self.cpu.regs.sp, self.cpu.regs.sp);
        let mut its = std::mem::take(&mut self.ff.recorded);
        let result = (|| {
            let mut ends = Vec::with_capacity(2);
            for it in its.iter_mut() {
                it.clear();
                let t = self.board.now();
                let pass = self.record_pass(head, stop, limit, check_bps, it, &mut sp);
                match self.pass_end(pass, &start, t) {
                    Ok(end) => ends.push(end),
                    Err(c) => return c,
                }
            }
            let [(s1, _), (s2, period)] = [&ends[0], &ends[1]];
            let bound = stop.skip_bound(sp, limit, skip_limit);
            match self.skip_counted(&its, [&s0, s1, s2], *period, bound) {
                Ok((_, varied, plan)) => {
                    if !check_bps {
                        self.remember_plan(head, &s0, &its, plan);
                    }
                    Counted::Skipped {
                        period: *period,
                        varied,
                    }
                }
                Err(c) => c,
            }
        })();
        self.ff.recorded = its;
        result
    }

    /// [`Machine::try_counted`] for a loop met before in this very state
    /// (`entry`, found by [`PlanMemo::find`]): the two iterations run as
    /// they ran then, without recording, and the plan made then skips the
    /// rest. Exact: the registers, the rest of the CPU and every byte the
    /// iterations read before writing it are as then (plain memory, or a
    /// device register that keeps its value until the next event, which
    /// the iterations must not reach, as before), so they take the same
    /// steps, read the same values and end in the same state, and
    /// [`analyze`] would make the same plan of them.
    fn try_planned(
        &mut self,
        head: u16,
        entry: &MemoEntry,
        stop: &StopConditions,
        limit: u64,
        skip_limit: u64,
    ) -> Counted {
        let (s1, period, sp) = match self.planned_passes(head, entry, stop, limit, &mut NoListener)
        {
            Ok(end) => end,
            Err(c) => return c,
        };
        let bound = stop.skip_bound(sp, limit, skip_limit);
        match self.skip_from_entry(entry, s1, period, bound) {
            Ok(_) => entry.skipped(period),
            Err(c) => c,
        }
    }

    /// The two iterations of the loop `entry` knows, from its head (the
    /// current PC, the state `entry` was found for), run without
    /// recording, `listener` hearing of them; the registers at the end of
    /// the first, the second's E-cycles and the range SP kept, or how the
    /// try ends.
    fn planned_passes<L: PassListener>(
        &mut self,
        head: u16,
        entry: &MemoEntry,
        stop: &StopConditions,
        limit: u64,
        listener: &mut L,
    ) -> Result<(Registers, u64, (u16, u16)), Counted> {
        let start = PassStart::of(&self.board);
        let s0 = Boundary::take(&self.cpu);
        let mut sp = (self.cpu.regs.sp, self.cpu.regs.sp);
        let mut ends = Vec::with_capacity(2);
        for (pass, &steps) in entry.steps.iter().enumerate() {
            listener.pass_start(pass);
            let t = self.board.now();
            let result = self.plain_pass(head, stop, limit, steps, &mut sp, listener);
            listener.pass_done();
            ends.push(self.pass_end(result, &start, t)?);
        }
        let [(s1, _), (s2, period)] = [&ends[0], &ends[1]];
        Boundary::same_rest([&s0, s1, s2])?;
        Ok((s1.regs, *period, sp))
    }

    /// The skip of `entry`'s plan after its two iterations (`s1` the
    /// registers at the end of the first, `period` the second's E-cycles),
    /// ending before `bound`: how many iterations.
    fn skip_from_entry(
        &mut self,
        entry: &MemoEntry,
        s1: Registers,
        period: u64,
        bound: u64,
    ) -> Result<u64, Counted> {
        let reads_timer = entry
            .device_reads
            .iter()
            .any(|&a| !self.board.reads_direct(a) && self.board.reads_timer(a));
        let k = self.skip_planned(&entry.plan, s1, period, entry.steps[1], reads_timer, bound)?;
        self.ff.plan_hits += 1;
        Ok(k)
    }

    /// Keeps `plan`, made of the iterations `its` of the loop at `head`
    /// that began in `s0`, for the next time the loop is met in that state
    /// ([`PlanMemo`]), if every input can be checked then.
    pub(super) fn remember_plan(&self, head: u16, s0: &Boundary, its: &[Recorded; 2], plan: Plan) {
        if let Some(entry) = MemoEntry::new(head, s0, its, plan, &self.board) {
            PlanMemo::lock(&self.ff.plans).insert(entry);
        }
    }

    /// [`Machine::try_planned`] for the debugger's hooked run, at the head
    /// of a loop it would measure as counted: `None` unless [`PlanMemo`]
    /// knows the loop in this state and its two iterations end before
    /// `limit`, the first of the budget's end, the script's next action
    /// and the COP deadline (the hooked run resets on a COP timeout right
    /// after the step that crosses it, which `pass_step` does not look
    /// for). Then the two iterations run without
    /// recording, `listener` hearing of every step and pass as the
    /// recorded way's hook does, and the plan skips as many more as
    /// `listener` allows; the outcome is returned for the loop's backoff.
    pub(super) fn try_planned_heard(
        &mut self,
        head: u16,
        limit: u64,
        listener: &mut impl PassListener,
    ) -> Option<Counted> {
        let plans = std::sync::Arc::clone(&self.ff.plans);
        let memo = PlanMemo::lock(&plans);
        let entry = &memo.entries[memo.find(head, &self.cpu, &self.board)?];
        if self.board.now().saturating_add(entry.cycles) >= limit {
            return None;
        }
        // Same state, same steps: no fault, event or stop can come on the
        // way (none did when the plan was made); these conditions only say
        // what `pass_step` would do if one did.
        static QUIET: std::sync::OnceLock<StopConditions> = std::sync::OnceLock::new();
        let stop = QUIET.get_or_init(|| StopConditions::budget(u64::MAX));
        let (s1, period, _) = match self.planned_passes(head, entry, stop, limit, listener) {
            Ok(end) => end,
            Err(c) => return Some(c),
        };
        let Some(cap) = listener.skip_cap() else {
            return Some(Counted::Stopped(None));
        };
        let bound = super::skip::capped(limit, self.board.now(), period, cap);
        match self.skip_from_entry(entry, s1, period, bound) {
            Ok(k) => {
                listener.skipped(k, entry.steps[1] as u64);
                Some(entry.skipped(period))
            }
            Err(c) => Some(c),
        }
    }

    /// After one of a counted loop's two iterations, begun at `t`, ended
    /// as `pass`: the boundary it ended at and how long it took, or how
    /// the try ends (a stop, the next event reached, a read's effect).
    fn pass_end(&self, pass: Pass, start: &PassStart, t: u64) -> Result<(Boundary, u64), Counted> {
        match pass {
            Pass::Back => {}
            Pass::Stopped(r) => return Err(Counted::Stopped(r)),
            Pass::AtLimit => return Err(Counted::Interrupted),
            Pass::Unfit => return Err(Counted::OtherKind { for_good: true }),
        }
        if self.board.now() >= start.event || self.board.next_event() != start.event {
            return Err(Counted::Interrupted);
        }
        if self.board.read_effects() != start.effects {
            return Err(Counted::OtherKind { for_good: false });
        }
        Ok((Boundary::take(&self.cpu), self.board.now() - t))
    }

    /// One iteration of a loop [`PlanMemo`] knows, `steps` steps from
    /// `head` (the current PC), run as [`Machine::record_pass`] runs it
    /// but without recording.
    fn plain_pass<L: StepListener>(
        &mut self,
        head: u16,
        stop: &StopConditions,
        limit: u64,
        steps: usize,
        sp: &mut (u16, u16),
        listener: &mut L,
    ) -> Pass {
        for n in 0..steps {
            if self.board.now() >= limit {
                return Pass::AtLimit;
            }
            let regs = self.cpu.regs;
            let Some(before) = listener.before(self) else {
                return Pass::Stopped(None);
            };
            let mut bus = PlainBus {
                board: &mut self.board,
            };
            let step = self.cpu.step_inline(&mut bus);
            if let Some(end) = self.pass_step(step, regs, stop, false) {
                return end;
            }
            if listener.after(self, &before, &step) {
                return Pass::Stopped(None);
            }
            let pc = self.cpu.regs.pc;
            *sp = (sp.0.min(self.cpu.regs.sp), sp.1.max(self.cpu.regs.sp));
            if pc == head {
                // The same steps as then end here, and only here.
                return if n + 1 == steps {
                    Pass::Back
                } else {
                    Pass::Unfit
                };
            }
        }
        Pass::Unfit
    }

    /// After two recorded iterations `its` of a loop (the CPU at their
    /// start and ends in `at`, B took `period` E-cycles): skips as many
    /// more as the counters allow and end before `bound` and the next
    /// device event. Returns how many, and whether anything varied.
    pub(super) fn skip_counted(
        &mut self,
        its: &[Recorded; 2],
        at: [&Boundary; 3],
        period: u64,
        bound: u64,
    ) -> Result<(u64, bool, Plan), Counted> {
        Boundary::same_rest(at)?;
        let [s0, s1, s2] = at;
        let board = &self.board;
        let regs = [&s0.regs, &s1.regs, &s2.regs];
        let plan = match analyze(&its[0], &its[1], regs, |a| board.is_plain_ram(a)) {
            Ok(p) => p,
            Err(Reject::Boundary) => return Err(Counted::NotNow),
            Err(Reject::Kind) => return Err(Counted::OtherKind { for_good: false }),
        };
        // Both iterations read the same addresses (`analyze` checked).
        let reads_timer = its[1]
            .reads
            .iter()
            .any(|&(a, _)| !board.reads_direct(a) && board.reads_timer(a));
        let k = self.skip_planned(
            &plan,
            s1.regs,
            period,
            its[1].steps.len(),
            reads_timer,
            bound,
        )?;
        let varied = plan.k_max != u64::MAX;
        Ok((k, varied, plan))
    }

    /// The skip of [`Machine::skip_counted`] after B by `plan` (`s1` the
    /// registers at the end of A, `steps` B's instructions, `reads_timer`
    /// whether the loop reads a timer register): as many iterations as the
    /// counters allow and end before `bound` and the next event the loop
    /// can see. Returns how many.
    fn skip_planned(
        &mut self,
        plan: &Plan,
        s1: Registers,
        period: u64,
        steps: usize,
        reads_timer: bool,
        bound: u64,
    ) -> Result<u64, Counted> {
        let now = self.board.now();
        let deadline = bound.min(self.board.next_event_seen(reads_timer));
        let fit = deadline.saturating_sub(now).saturating_sub(1) / period.max(1);
        let k = fit.min(plan.k_max);
        if k == 0 {
            return Err(Counted::NotNow);
        }
        // The skip ends before the next event the loop can see.
        self.board.advance(k * period);
        self.board.shift_input_poll(now - period, k * period);
        self.cpu.cycles += k * period;
        self.instructions += k * steps as u64;
        self.ff.skipped += k;
        plan.apply(k, s1, &mut self.cpu.regs, &mut self.board);
        if let Some(nv) = &plan.nv {
            // N and V as the last skipped iteration (k after B) left them.
            let bits = nv.nv_after(&self.cpu, k + 1);
            let ccr = &mut self.cpu.regs.ccr;
            *ccr = (*ccr & !(flags::N | flags::V)) | bits;
        }
        Ok(k)
    }

    /// [`Machine::step`] through the recording bus, for the debugger's
    /// hooked run: the same outcome, and whether the step fits a counted
    /// loop (only RAM written, no TCNT read). A fitting instruction step is
    /// added to `it`.
    pub(super) fn step_recorded(&mut self, it: &mut Recorded) -> (super::StepOutcome, bool) {
        let (step, regs, from, fit) = self.cpu_step_recorded(it);
        let out = self.finish_step(step, super::WriteUndo::take(&regs));
        let plain = out.fault.is_none()
            && out.halt.is_none()
            && out.step.event == StepEvent::None
            && self.cpu.state == RunState::Running;
        let noted = fit && plain && self.note_step(it, &step, regs, from);
        (out, noted)
    }

    /// One CPU step through the recording bus: the step, the registers
    /// before it, where its reads and writes begin in `it`, and whether it
    /// fit a counted loop (no TCNT read, only plain RAM written).
    #[inline(always)]
    fn cpu_step_recorded(
        &mut self,
        it: &mut Recorded,
    ) -> (crate::cpu::Step, Registers, (usize, usize), bool) {
        let regs = self.cpu.regs;
        let from = (it.reads.len(), it.writes.len());
        let mut bus = RecordBus {
            board: &mut self.board,
            it,
            fit: true,
        };
        let step = self.cpu.step_inline(&mut bus);
        let fit = bus.fit;
        (step, regs, from, fit)
    }

    /// Adds the instruction `step` just ran (registers `before` it, its
    /// reads and writes from `from` on) to `it`; false if its bytes are
    /// no instruction.
    fn note_step(
        &self,
        it: &mut Recorded,
        step: &crate::cpu::Step,
        before: Registers,
        from: (usize, usize),
    ) -> bool {
        let Ok((info, _)) = Instruction::opcode_at(step.pc, |a| self.board.peek(a)) else {
            return false;
        };
        it.steps.push(Rec {
            pc: step.pc,
            cycles: step.cycles,
            op: info.op,
            len: info.byte_len().into(),
            before,
            after: self.cpu.regs,
            reads: (from.0, it.reads.len()),
            writes: (from.1, it.writes.len()),
        });
        true
    }

    /// What follows a step of a counted loop's iteration (`regs` before
    /// it), as in `run_until`: a refused write, the devices' time, a step
    /// that stops the run (an event, a breakpoint), a halt. `None` to go on.
    /// (In line: out of line a grading took 0.4% more host instructions.)
    #[inline(always)]
    fn pass_step(
        &mut self,
        step: crate::cpu::Step,
        regs: Registers,
        stop: &StopConditions,
        check_bps: bool,
    ) -> Option<Pass> {
        if self.board.has_fault() {
            let undo = super::WriteUndo::take(&regs);
            return Some(Pass::Stopped(self.fault_step(step, undo, stop)));
        }
        self.board.tick(step.cycles);
        let quiet = step.event == StepEvent::None
            && self.cpu.state == RunState::Running
            && !(check_bps && stop.breakpoints.contains(self.cpu.regs.pc));
        if !quiet {
            return Some(Pass::Stopped(self.after_step(step, stop)));
        }
        self.instructions += 1;
        if self.cpu.regs.pc <= step.pc {
            if let Some(h) = self.halt_check(step.pc) {
                return Some(Pass::Stopped(Some(StopReason::Halted(h))));
            }
        }
        None
    }

    /// Runs one iteration from `head` (the current PC), recording it.
    fn record_pass(
        &mut self,
        head: u16,
        stop: &StopConditions,
        limit: u64,
        check_bps: bool,
        it: &mut Recorded,
        sp: &mut (u16, u16),
    ) -> Pass {
        for _ in 0..MAX_STEPS {
            if self.board.now() >= limit {
                return Pass::AtLimit;
            }
            let (step, regs, from, fit) = self.cpu_step_recorded(it);
            if let Some(end) = self.pass_step(step, regs, stop, check_bps) {
                return end;
            }
            let pc = self.cpu.regs.pc;
            if !fit || !self.note_step(it, &step, regs, from) {
                return Pass::Unfit;
            }
            *sp = (sp.0.min(self.cpu.regs.sp), sp.1.max(self.cpu.regs.sp));
            if pc == head {
                return Pass::Back;
            }
        }
        Pass::Unfit
    }
}

/// The board as the CPU sees it in an iteration [`PlanMemo`] knows: as
/// [`RecordBus`] without the record (no attention asked either, so the
/// iteration runs exactly as the recorded one did).
struct PlainBus<'a> {
    board: &'a mut Board,
}

impl Bus for PlainBus<'_> {
    fn read(&mut self, addr: u16) -> u8 {
        self.board.read(addr)
    }

    fn peek(&self, addr: u16) -> u8 {
        self.board.peek(addr)
    }

    fn fetch(&mut self, pc: u16) -> u64 {
        match self.board.code(pc) {
            Some(code) => code,
            None => crate::cpu::core::fetch_code(self, pc),
        }
    }

    fn write(&mut self, addr: u16, value: u8) {
        self.board.write(addr, value);
    }

    fn irq_vector(&self) -> Option<u16> {
        self.board.irq_vector()
    }

    fn xirq(&self) -> bool {
        self.board.xirq()
    }
}

/// Who hears of each step of an iteration [`PlanMemo`] knows
/// ([`Machine::plain_pass`]): nobody in `run_until`, the debugger's hook
/// in the hooked run.
pub(super) trait StepListener {
    /// What is noted before a step.
    type Before;
    /// Notes the machine before a step, or stops the run before it (`None`).
    fn before(&mut self, m: &Machine) -> Option<Self::Before>;
    /// After a step that went on (an instruction, its time counted): true
    /// stops the run after it.
    fn after(&mut self, m: &mut Machine, before: &Self::Before, step: &crate::cpu::Step) -> bool;
}

/// `run_until`'s listener: nobody.
struct NoListener;

impl StepListener for NoListener {
    type Before = ();

    #[inline(always)]
    fn before(&mut self, _m: &Machine) -> Option<()> {
        Some(())
    }

    #[inline(always)]
    fn after(&mut self, _m: &mut Machine, _before: &(), _step: &crate::cpu::Step) -> bool {
        false
    }
}

impl PassListener for NoListener {
    #[inline(always)]
    fn pass_start(&mut self, _pass: usize) {}

    #[inline(always)]
    fn pass_done(&mut self) {}

    fn skip_cap(&mut self) -> Option<u64> {
        Some(u64::MAX)
    }

    fn skipped(&mut self, _k: u64, _steps: u64) {}
}

/// Who hears of a counted loop's iterations taken from [`PlanMemo`] in
/// the hooked run ([`Machine::try_planned_heard`]): the debugger's hook,
/// as it hears of the two recorded iterations of a measurement.
pub(super) trait PassListener: StepListener {
    /// Iteration `pass` (0 = A, 1 = B) starts at the loop's head.
    fn pass_start(&mut self, pass: usize);
    /// The iteration ended (back at the head, or cut short).
    fn pass_done(&mut self);
    /// Both ran as before: at most how many more may be skipped, or
    /// `None` if none (the hook cannot account for them).
    fn skip_cap(&mut self) -> Option<u64>;
    /// `k` more iterations of `steps` instructions each were skipped.
    fn skipped(&mut self, k: u64, steps: u64);
}

/// Counted loops skipped before, by the state they were met in: the
/// debounce count of a key loop is met again and again in the same state
/// (in one grading 10,058 skips were of 133 states), and recording its two
/// iterations and analysing them again cost most of each skip. Shared by
/// a machine and its copies (the grader's games all start from one
/// booted machine): an entry holds for any machine in that state, since
/// it keeps everything the iterations read.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlanMemo {
    entries: Vec<MemoEntry>,
    /// The slot the next new entry replaces once full.
    next: usize,
}

/// Entries a [`PlanMemo`] keeps.
const MEMO_ENTRIES: usize = 64;

/// A loop's plan and the state it was made in ([`PlanMemo`]).
#[derive(Clone, Debug)]
struct MemoEntry {
    head: u16,
    /// The CPU at the head (cycle count zeroed).
    cpu: Cpu,
    /// Every byte the two iterations read before writing it (code bytes
    /// included) and every byte they wrote, with its value before them.
    inputs: Vec<(u16, u8)>,
    /// The bytes written and the reads whose value differed between the
    /// iterations: plain RAM then, and required to be now (the map may
    /// have moved).
    ram: Vec<u16>,
    /// The reads that were no plain memory (for the timer test).
    device_reads: Vec<u16>,
    /// Instructions of A and of B.
    steps: [usize; 2],
    /// E-cycles A and B took together.
    cycles: u64,
    plan: Plan,
}

impl MemoEntry {
    /// The outcome of a skip by this entry's plan.
    fn skipped(&self, period: u64) -> Counted {
        Counted::Skipped {
            period,
            varied: self.plan.k_max != u64::MAX,
        }
    }

    /// The entry for a loop at `head` whose iterations `its` from state
    /// `s0` made `plan`, if every input can be checked later (plain
    /// memory, or a device register steady until the next event).
    fn new(
        head: u16,
        s0: &Boundary,
        its: &[Recorded; 2],
        plan: Plan,
        board: &Board,
    ) -> Option<Self> {
        let mut cpu = s0.rest.clone();
        cpu.regs = s0.regs;
        let mut written: Vec<u16> = Vec::new();
        let mut inputs = Vec::new();
        let mut device_reads = Vec::new();
        for it in its {
            for r in &it.steps {
                for &(a, v) in it.reads_of(r) {
                    if written.contains(&a) {
                        continue;
                    }
                    if !board.reads_memory(a) {
                        if !board.steady_read(a) {
                            return None;
                        }
                        device_reads.push(a);
                    }
                    inputs.push((a, v));
                }
                for &(a, before, _) in it.writes_of(r) {
                    // A byte written before it is read: its value before
                    // is part of the state `analyze` judges (`even8`).
                    if !written.contains(&a) {
                        inputs.push((a, before));
                        written.push(a);
                    }
                }
            }
        }
        let mut ram = written;
        for (ra, rb) in its[0].steps.iter().zip(&its[1].steps) {
            for (x, y) in its[0].reads_of(ra).iter().zip(its[1].reads_of(rb)) {
                if x.1 != y.1 {
                    ram.push(x.0);
                }
            }
        }
        ram.sort_unstable();
        ram.dedup();
        inputs.sort_unstable();
        inputs.dedup();
        // The same address read twice before a write reads one value
        // (plain memory, or steady): two values mean no entry.
        if inputs.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        Some(MemoEntry {
            head,
            cpu,
            inputs,
            ram,
            device_reads,
            steps: [its[0].steps.len(), its[1].steps.len()],
            cycles: its
                .iter()
                .flat_map(|it| &it.steps)
                .map(|r| u64::from(r.cycles))
                .sum(),
            plan,
        })
    }
}

impl PlanMemo {
    /// The memo behind `plans`, shared only by the copies of one machine,
    /// which one thread runs one after another: never contended (a lock
    /// poisoned by a panic elsewhere still holds sound entries).
    fn lock(plans: &std::sync::Mutex<PlanMemo>) -> std::sync::MutexGuard<'_, PlanMemo> {
        plans
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The entry for a loop at `head` met with `cpu` and `board` as then.
    fn find(&self, head: u16, cpu: &Cpu, board: &Board) -> Option<usize> {
        self.entries.iter().position(|e| {
            e.head == head
                && e.cpu.regs == cpu.regs
                && {
                    let mut c = cpu.clone();
                    c.cycles = 0;
                    c == e.cpu
                }
                && e.ram.iter().all(|&a| board.is_plain_ram(a))
                && e.inputs.iter().all(|&(a, v)| {
                    if board.reads_memory(a) {
                        board.peek(a) == v
                    } else {
                        board.steady_read(a) && board.quiet_read(a).is_some_and(|(now, _)| now == v)
                    }
                })
        })
    }

    /// Keeps `entry`, replacing the oldest once full.
    fn insert(&mut self, entry: MemoEntry) {
        if self.entries.len() < MEMO_ENTRIES {
            self.entries.push(entry);
        } else {
            self.entries[self.next] = entry;
            self.next = (self.next + 1) % MEMO_ENTRIES;
        }
    }
}

/// Why two iterations give no skip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reject {
    /// Not a counted loop.
    Kind,
    /// A counted loop with a value at a boundary now.
    Boundary,
}

/// What the skip does to the state, found by [`analyze`].
#[derive(Clone, Debug)]
pub(super) struct Plan {
    /// Iterations that may be skipped after B at most.
    k_max: u64,
    /// Each RAM byte the loop writes: (address, value at the end of A, at the end of B).
    bytes: Vec<(u16, u8, u8)>,
    /// The last step that may set H, if its operands vary: the register it
    /// adds to, before and after, in A and then in B.
    h: Option<[u8; 4]>,
    /// Set when no instruction of the loop reads N or V: the values then
    /// only had to stay clear of 0 and of wrapping, not inside their half,
    /// and N and V after the skip come from replaying the last skipped
    /// iteration ([`NvReplay`]).
    nv: Option<NvReplay>,
}

/// What replaying an iteration of a loop that never reads N or V needs:
/// every value it reads is `a + n*(b-a)` in iteration n (A is 0), its
/// registers at the start likewise.
#[derive(Clone, Debug)]
struct NvReplay {
    /// Each read of the iteration, in order: its value in A and in B.
    reads: Vec<(u8, u8)>,
    /// The registers at the start of A and of B.
    start: [Registers; 2],
    /// Instructions per iteration.
    steps: usize,
}

impl NvReplay {
    /// N and V (the rest of the CCR cleared) at the end of iteration `n`,
    /// from the CPU `cpu` (only its registers are replaced) stepping
    /// through the values that iteration reads. Exact because every value
    /// the loop computes is affine in `n` (`analyze`), and flags come from
    /// values only.
    fn nv_after(&self, cpu: &Cpu, n: u64) -> u8 {
        // Iteration n is n - 1 steps after B.
        let k = n.saturating_sub(1);
        let [a, b] = &self.start;
        let mut cpu = cpu.clone();
        cpu.state = RunState::Running;
        cpu.regs = Registers {
            a: on8(a.a, b.a, k),
            b: on8(a.b, b.b, k),
            x: on16(a.x, b.x, k),
            y: on16(a.y, b.y, k),
            ..*b
        };
        let mut bus = ReplayBus {
            reads: self.reads.iter().map(|&(x, y)| on8(x, y, k)).collect(),
            next: 0,
        };
        for _ in 0..self.steps {
            cpu.step(&mut bus);
        }
        cpu.regs.ccr & (flags::N | flags::V)
    }
}

/// A value that was `x` in one iteration and `y` in the next, `k`
/// iterations after that (each moves it by `y - x`).
fn on8(x: u8, y: u8, k: u64) -> u8 {
    y.wrapping_add(y.wrapping_sub(x).wrapping_mul(k as u8))
}

/// [`on8`] for 16-bit values.
fn on16(x: u16, y: u16, k: u64) -> u16 {
    y.wrapping_add(y.wrapping_sub(x).wrapping_mul(k as u16))
}

/// A bus that answers the reads of a replayed iteration in order and
/// drops its writes (the skip writes the bytes itself).
struct ReplayBus {
    reads: Vec<u8>,
    next: usize,
}

impl Bus for ReplayBus {
    fn read(&mut self, _addr: u16) -> u8 {
        let v = self.reads.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        v
    }

    fn peek(&self, _addr: u16) -> u8 {
        0
    }

    fn write(&mut self, _addr: u16, _value: u8) {}
}

/// The bounds on iterations a varying value gives.
struct Bounds {
    k_max: u64,
    /// The loop reads neither N nor V: a value may cross $80, only not
    /// reach 0 or wrap (which Z and C would tell).
    relaxed: bool,
}

impl Bounds {
    /// Notes a value that is `a` in iteration A and `b` in B, `wide` bits
    /// wide (8 or 16): iterations after B it may be skipped over while
    /// `a + n*(b-a)` stays strictly inside a's half, for n up to k+1.
    fn note(&mut self, a: u16, b: u16, wide: bool) -> Result<(), Reject> {
        if a == b {
            return Ok(());
        }
        let (top, half) = if wide {
            (0xFFFF_i64, 0x8000_i64)
        } else {
            (0xFF, 0x80)
        };
        let relaxed = self.relaxed;
        let half_of = |v: i64| match v {
            v if relaxed && v >= 1 && v <= top => Some((1, top)),
            v if v >= 1 && v < half => Some((1, half - 1)),
            v if v > half && v <= top => Some((half + 1, top)),
            _ => None,
        };
        let (a, b) = (i64::from(a), i64::from(b));
        let (Some(ha), Some(hb)) = (half_of(a), half_of(b)) else {
            return Err(Reject::Boundary);
        };
        if ha != hb {
            return Err(Reject::Boundary);
        }
        let d = b - a;
        // Largest n with a + n*d still inside: n = room / |d|.
        let room = if d > 0 { ha.1 - a } else { a - ha.0 };
        let n = room / d.abs();
        // Iterations after B: n - 1 (iteration B is n = 1).
        let k = u64::try_from(n - 1).unwrap_or(0);
        self.k_max = self.k_max.min(k);
        if k == 0 {
            return Err(Reject::Boundary);
        }
        Ok(())
    }

    fn note_regs(&mut self, a: &Registers, b: &Registers) -> Result<(), Reject> {
        self.note(a.a.into(), b.a.into(), false)?;
        self.note(a.b.into(), b.b.into(), false)?;
        self.note(a.x, b.x, true)?;
        self.note(a.y, b.y, true)
    }
}

/// Instructions whose results are their operands plus or minus constants
/// or other operands, with flags from those values only (RM appendix A):
/// the only ones a varying value may pass through.
fn is_affine(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        Bra | Brn
            | Jmp
            | Jsr
            | Bsr
            | Rts
            | Nop
            | Bcc
            | Bcs
            | Beq
            | Bge
            | Bgt
            | Bhi
            | Ble
            | Bls
            | Blt
            | Bmi
            | Bne
            | Bpl
            | Bvc
            | Bvs
            | Ldaa
            | Ldab
            | Ldd
            | Ldx
            | Ldy
            | Staa
            | Stab
            | Std
            | Stx
            | Sty
            | Tab
            | Tba
            | Psha
            | Pshb
            | Pshx
            | Pshy
            | Pula
            | Pulb
            | Pulx
            | Puly
            | Xgdx
            | Xgdy
            | Clr
            | Clra
            | Clrb
            | Adda
            | Addb
            | Aba
            | Suba
            | Subb
            | Sba
            | Addd
            | Subd
            | Inc
            | Inca
            | Incb
            | Dec
            | Deca
            | Decb
            | Inx
            | Dex
            | Iny
            | Dey
            | Cmpa
            | Cmpb
            | Cba
            | Cpd
            | Cpx
            | Cpy
            | Tst
            | Tsta
            | Tstb
    )
}

/// Instructions that read N or V (RM appendix A): the branches on them,
/// and those that copy or stack the whole CCR.
fn reads_n_or_v(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        Bmi | Bpl | Bvs | Bvc | Bge | Blt | Bgt | Ble | Tpa | Swi | Wai
    )
}

/// Instructions that may change H (RM appendix A; DAA, TAP and RTI
/// included to be safe).
fn may_set_h(op: Op) -> bool {
    use Op::*;
    matches!(op, Adda | Addb | Aba | Adca | Adcb | Daa | Tap | Rti)
}

/// The difference a compare forms (the flags come from it), 8 or 16 bits
/// wide, from the registers before the step and the bytes it read last
/// (the operand: immediate bytes are read as the last fetches).
fn compare_difference(op: Op, before: &Registers, reads: &[(u16, u8)]) -> Option<(u16, bool)> {
    let last = |n: usize| reads.get(reads.len().checked_sub(n)?).map(|r| r.1);
    let word = || Some(u16::from_be_bytes([last(2)?, last(1)?]));
    let d = u16::from_be_bytes([before.a, before.b]);
    match op {
        Op::Cmpa => Some((u16::from(before.a.wrapping_sub(last(1)?)), false)),
        Op::Cmpb => Some((u16::from(before.b.wrapping_sub(last(1)?)), false)),
        Op::Cba => Some((u16::from(before.a.wrapping_sub(before.b)), false)),
        Op::Cpd => Some((d.wrapping_sub(word()?), true)),
        Op::Cpx => Some((before.x.wrapping_sub(word()?), true)),
        Op::Cpy => Some((before.y.wrapping_sub(word()?), true)),
        _ => None,
    }
}

/// Decides whether iterations A and B (with the registers at the start of
/// A, the end of A and the end of B) are a counted loop, and how far it
/// may be skipped.
fn analyze(
    a: &Recorded,
    b: &Recorded,
    regs: [&Registers; 3],
    is_ram: impl Fn(u16) -> bool,
) -> Result<Plan, Reject> {
    if a.steps.len() != b.steps.len() || a.steps.is_empty() {
        return Err(Reject::Kind);
    }
    let [s0, s1, s2] = regs;
    // No instruction reads N or V: they may differ between iterations
    // (nothing's path depends on them) and are replayed for the end.
    let relaxed = !a.steps.iter().any(|r| reads_n_or_v(r.op));
    let mut bounds = Bounds {
        k_max: u64::MAX,
        relaxed,
    };
    // The CCR bits that must be the same in A and B: all but H, and but N
    // and V when nothing reads them.
    let free = if relaxed { flags::N | flags::V } else { 0 };
    let mut h_varies = false;
    let mut all_affine = true;
    let mut h_writer = None;
    for (ra, rb) in a.steps.iter().zip(&b.steps) {
        let (reads_a, reads_b) = (a.reads_of(ra), b.reads_of(rb));
        let (writes_a, writes_b) = (a.writes_of(ra), b.writes_of(rb));
        let same_path = ra.pc == rb.pc
            && ra.cycles == rb.cycles
            && ra.op == rb.op
            && reads_a.len() == reads_b.len()
            && writes_a.len() == writes_b.len()
            && reads_a.iter().zip(reads_b).all(|(x, y)| x.0 == y.0)
            && writes_a.iter().zip(writes_b).all(|(x, y)| x.0 == y.0);
        if !same_path {
            return Err(Reject::Kind);
        }
        // SP never varies; the flags but H (and free N, V) only at a boundary.
        let keep = !(flags::H | free);
        if ra.before.sp != rb.before.sp
            || ra.after.sp != rb.after.sp
            || (ra.before.ccr ^ rb.before.ccr) & keep != 0
            || (ra.after.ccr ^ rb.after.ccr) & keep != 0
        {
            return Err(Reject::Boundary);
        }
        // An instruction that reads no N or V sees the same input whatever
        // they hold.
        let masked = |r: &Registers| Registers {
            ccr: r.ccr & !free,
            ..*r
        };
        let same_in = masked(&ra.before) == masked(&rb.before) && reads_a == reads_b;
        all_affine &= is_affine(ra.op);
        if may_set_h(ra.op) {
            h_writer = None;
        }
        if same_in {
            continue;
        }
        if !is_affine(ra.op) {
            return Err(Reject::Kind);
        }
        // A differing read must be of RAM the loop counts in, never a device.
        for (x, y) in reads_a.iter().zip(reads_b) {
            if x.1 != y.1 && !is_ram(x.0) {
                return Err(Reject::Kind);
            }
            bounds.note(x.1.into(), y.1.into(), false)?;
        }
        for (x, y) in writes_a.iter().zip(writes_b) {
            bounds.note(x.2.into(), y.2.into(), false)?;
        }
        bounds.note_regs(&ra.before, &rb.before)?;
        bounds.note_regs(&ra.after, &rb.after)?;
        if let (Some((da, wide)), Some((db, _))) = (
            compare_difference(ra.op, &ra.before, reads_a),
            compare_difference(rb.op, &rb.before, reads_b),
        ) {
            bounds.note(da, db, wide)?;
        }
        if may_set_h(ra.op) {
            h_varies = true;
            let pick = |r: &Registers| if ra.op == Op::Addb { r.b } else { r.a };
            h_writer = Some([
                pick(&ra.before),
                pick(&ra.after),
                pick(&rb.before),
                pick(&rb.after),
            ]);
        }
    }
    if h_varies && !all_affine {
        return Err(Reject::Kind);
    }
    // The loop's state moves by the same step in each iteration: the start
    // of A, the end of A and the end of B are evenly spaced.
    let even8 = |x: u8, y: u8, z: u8| y.wrapping_sub(x) == z.wrapping_sub(y);
    let even16 = |x: u16, y: u16, z: u16| y.wrapping_sub(x) == z.wrapping_sub(y);
    let h_mask = if h_varies { !flags::H } else { 0xFF } & !free;
    if !(even8(s0.a, s1.a, s2.a)
        && even8(s0.b, s1.b, s2.b)
        && even16(s0.x, s1.x, s2.x)
        && even16(s0.y, s1.y, s2.y)
        && s0.sp == s1.sp
        && s1.sp == s2.sp
        && (s0.ccr ^ s1.ccr) & h_mask == 0
        && (s1.ccr ^ s2.ccr) & h_mask == 0)
    {
        return Err(Reject::Kind);
    }
    bounds.note_regs(s1, s2)?;
    let mut bytes = Vec::new();
    for (addr, start, end_a, end_b) in written_bytes(a, b) {
        if !even8(start, end_a, end_b) {
            return Err(Reject::Kind);
        }
        bounds.note(end_a.into(), end_b.into(), false)?;
        // The loop must not write its own code.
        if a.steps.iter().any(|r| addr.wrapping_sub(r.pc) < r.len) {
            return Err(Reject::Kind);
        }
        bytes.push((addr, end_a, end_b));
    }
    let nv = relaxed.then(|| NvReplay {
        reads: a
            .reads
            .iter()
            .zip(&b.reads)
            .map(|(x, y)| (x.1, y.1))
            .collect(),
        start: [*s0, *s1],
        steps: a.steps.len(),
    });
    Ok(Plan {
        k_max: bounds.k_max,
        bytes,
        h: h_writer,
        nv,
    })
}

/// Each RAM byte an iteration wrote: (address, before A, end of A, end of B).
fn written_bytes(a: &Recorded, b: &Recorded) -> Vec<(u16, u8, u8, u8)> {
    let mut out: Vec<(u16, u8, u8, u8)> = Vec::new();
    for (&(addr, old, new), &(_, _, new_b)) in a.writes.iter().zip(&b.writes) {
        match out.iter_mut().find(|e| e.0 == addr) {
            Some(e) => {
                e.2 = new;
                e.3 = new_b;
            }
            None => out.push((addr, old, new, new_b)),
        }
    }
    out
}

impl Plan {
    /// Moves the state at the end of B (`regs`, `board`) on by `k`
    /// iterations; `s1` are the registers at the end of A.
    fn apply(&self, k: u64, s1: Registers, regs: &mut Registers, board: &mut Board) {
        let s2 = *regs;
        // Every value stays inside its range (no wrap), so steps of k as
        // wrapping arithmetic are exact.
        regs.a = on8(s1.a, s2.a, k);
        regs.b = on8(s1.b, s2.b, k);
        regs.x = on16(s1.x, s2.x, k);
        regs.y = on16(s1.y, s2.y, k);
        if let Some([before_a, after_a, before_b, after_b]) = self.h {
            // H of that ADD in the last skipped iteration (k after B): the
            // carry out of bit 3 is bit 4 of operand ^ addend ^ sum, and
            // the addend is the sum minus the operand.
            let before = on8(before_a, before_b, k);
            let after = on8(after_a, after_b, k);
            let addend = after.wrapping_sub(before);
            let h = (before ^ addend ^ after) & 0x10 != 0;
            regs.ccr = (regs.ccr & !flags::H) | if h { flags::H } else { 0 };
        }
        for &(addr, end_a, end_b) in &self.bytes {
            board.write(addr, on8(end_a, end_b, k));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(a: u16, b: u16, wide: bool) -> Result<u64, Reject> {
        bounded(a, b, wide, false)
    }

    fn bounded(a: u16, b: u16, wide: bool, relaxed: bool) -> Result<u64, Reject> {
        let mut bounds = Bounds {
            k_max: u64::MAX,
            relaxed,
        };
        bounds.note(a, b, wide).map(|()| bounds.k_max)
    }

    /// With N and V unread, a value may cross $80 (and $8000), never
    /// reach 0 or wrap.
    #[test]
    fn a_loop_that_reads_no_n_or_v_counts_across_the_halves() {
        // 5, 6, ... 255: iterations 2..=k+1 after B end at 5 + (k+1) <= 255.
        assert_eq!(bounded(5, 6, false, true), Ok(249));
        assert_eq!(bounded(0x7E, 0x7F, false, true), Ok(128));
        // Down from $85 by 2 to $01.
        assert_eq!(bounded(0x85, 0x83, false, true), Ok(65));
        assert_eq!(bounded(0x8001, 0x8000, true, true), Ok(0x7FFF));
        for (a, b) in [(0x00, 0x01), (0xFF, 0x00), (0x01, 0x00), (0xFE, 0xFF)] {
            assert_eq!(
                bounded(a, b, false, true),
                Err(Reject::Boundary),
                "{a:02X} {b:02X}"
            );
        }
    }

    #[test]
    fn a_counter_may_run_up_to_its_half_but_not_onto_its_edge() {
        // 5, 6, ... 127: iterations 2..=k+1 after B end at 5 + (k+1) <= 127.
        assert_eq!(k(5, 6, false), Ok(121));
        // Down from $85 by 2: $83, ... $81, the last value inside.
        assert_eq!(k(0x85, 0x83, false), Ok(1));
        // A 16-bit DEX counter from $7000.
        assert_eq!(k(0x7000, 0x6FFF, true), Ok(0x6FFE));
        // Unchanged values bound nothing.
        assert_eq!(k(0, 0, false), Ok(u64::MAX));
    }

    #[test]
    fn values_on_a_boundary_or_across_one_skip_nothing() {
        for (a, b) in [
            (0x00, 0x01),
            (0x7F, 0x80),
            (0x80, 0x81),
            (0xFF, 0x00),
            (0x7E, 0x7F),
        ] {
            assert_eq!(k(a, b, false), Err(Reject::Boundary), "{a:02X} {b:02X}");
        }
        assert_eq!(k(0x8000, 0x7FFF, true), Err(Reject::Boundary));
        assert_eq!(k(0x0001, 0x0000, true), Err(Reject::Boundary));
    }
}

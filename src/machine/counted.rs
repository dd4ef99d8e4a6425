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
//!
//! Owns: the counted-loop strategy (record, analyse, skip, remember).
//! Must not know about: the runs that use it (`run_until`'s probe, the
//! hooked run): they hear of its iterations through [`StepListener`].
//!
//! Rooms: this file holds the try and the two recorded iterations;
//! `analysis.rs` decides from them whether the loop is a counted one and
//! how far it may be skipped (steps 2-5); `memo.rs` keeps the plans and
//! runs a loop met again in a known state without recording.

mod analysis;
mod memo;

use super::skip::{LoopBackoff, LoopKind};
use super::{Machine, StopConditions, StopReason};
use crate::board::Board;
use crate::cpu::registers::flags;
use crate::cpu::{Bus, Cpu, Instruction, Op, Registers, RunState, StepEvent};
use analysis::{analyze, Plan, Reject};
pub(super) use memo::{PassListener, PlanMemo, StepListener};

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

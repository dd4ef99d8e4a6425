//! Counted loops met again in a state a skip started from before: the
//! plan of that skip is kept ([`PlanMemo`]), and the loop's two iterations
//! run without recording (every step heard by a listener: nobody in
//! `run_until`, the debugger's hook in the hooked run) before the plan
//! skips the rest.

use super::analysis::Plan;
use super::{Boundary, Counted, Pass, PassStart, Recorded};
use crate::board::Board;
use crate::cpu::{Bus, Cpu, Registers};
use crate::machine::{Machine, StopConditions};

impl Machine {
    /// [`Machine::try_counted`] for a loop met before in this very state
    /// (`entry`, found by [`PlanMemo::find`]): the two iterations run as
    /// they ran then, without recording, and the plan made then skips the
    /// rest. Exact: the registers, the rest of the CPU and every byte the
    /// iterations read before writing it are as then (plain memory, or a
    /// device register that keeps its value until the next event, which
    /// the iterations must not reach, as before), so they take the same
    /// steps, read the same values and end in the same state, and
    /// [`analyze`] would make the same plan of them.
    pub(super) fn try_planned(
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
    pub(in crate::machine) fn remember_plan(
        &self,
        head: u16,
        s0: &Boundary,
        its: &[Recorded; 2],
        plan: Plan,
    ) {
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
    pub(in crate::machine) fn try_planned_heard(
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
        let bound = crate::machine::skip::capped(limit, self.board.now(), period, cap);
        match self.skip_from_entry(entry, s1, period, bound) {
            Ok(k) => {
                listener.skipped(k, entry.steps[1] as u64);
                Some(entry.skipped(period))
            }
            Err(c) => Some(c),
        }
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
pub(crate) trait StepListener {
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
pub(crate) trait PassListener: StepListener {
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
    pub(super) entries: Vec<MemoEntry>,
    /// The slot the next new entry replaces once full.
    next: usize,
}

/// Entries a [`PlanMemo`] keeps.
const MEMO_ENTRIES: usize = 64;

/// A loop's plan and the state it was made in ([`PlanMemo`]).
#[derive(Clone, Debug)]
pub(super) struct MemoEntry {
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
    pub(super) fn lock(plans: &std::sync::Mutex<PlanMemo>) -> std::sync::MutexGuard<'_, PlanMemo> {
        plans
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The entry for a loop at `head` met with `cpu` and `board` as then.
    pub(super) fn find(&self, head: u16, cpu: &Cpu, board: &Board) -> Option<usize> {
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

//! The run loop of [`Machine::run_until`] and the key script it plays: the
//! hot loop of ordinary instructions, the slow path of steps with something
//! to report, and the script's actions between instructions.

use super::{Machine, StepOutcome, StopConditions, StopReason, WriteUndo};
use crate::cpu::{RunState, Step, StepEvent};
use crate::script::{Progress, Script, ScriptRunner, Timing};

impl Machine {
    /// Performs the key script actions due now, as `run_until` does between
    /// instructions, for callers that step one at a time (the debugger).
    /// Returns why the script finished, if it just did.
    pub fn script_tick(&mut self) -> Option<StopReason> {
        if self.board.now() >= self.script_deadline {
            self.advance_script()
        } else {
            None
        }
    }

    /// Starts `script` with the default timing; `run_until` then plays it.
    pub fn start_script(&mut self, script: &Script) {
        self.start_script_with(script, Timing::default());
    }

    /// Starts `script` with the given timing.
    pub fn start_script_with(&mut self, script: &Script, timing: Timing) {
        self.waiting_on = None;
        self.lcd_captures.clear();
        self.script = Some(ScriptRunner::new(script, timing, self.board.now()));
        // Let the first `run_until` step ask the runner what to do.
        self.script_deadline = self.board.now();
    }

    /// Keeps a copy of the LCD as it is when each of the running script's
    /// actions in `indices` (0-based) is about to start; the run is the
    /// same with or without ([`ScriptRunner::capture_lcd_before`]).
    pub fn capture_lcd_before(&mut self, indices: &[usize]) {
        if let Some(s) = self.script.as_mut() {
            s.capture_lcd_before(indices);
        }
    }

    /// The LCDs kept by [`Machine::capture_lcd_before`] so far, by action
    /// index (a script still running hands over what it has).
    pub fn take_lcd_captures(&mut self) -> Vec<(usize, crate::board::lcd::Lcd)> {
        let mut kept = std::mem::take(&mut self.lcd_captures);
        if let Some(s) = self.script.as_mut() {
            kept.extend(s.take_captures());
        }
        kept
    }

    /// The running key script's position (action index, number of actions).
    pub fn script_progress(&self) -> Option<(usize, usize)> {
        self.script.as_ref().map(|s| s.progress())
    }

    /// Plays `script` from now until it is done and the program settled, or
    /// until another stop (budget `max_cycles`, illegal opcode, bad write, halt).
    pub fn run_script(&mut self, script: &Script, max_cycles: u64) -> StopReason {
        self.start_script(script);
        self.run_until(&StopConditions::budget(max_cycles))
    }

    /// Runs until a stop condition holds, the CPU halts, or the key script
    /// (if one was started) finishes with the program waiting for input.
    /// The budget is checked between instructions: a run ends at the first
    /// instruction boundary at or after it.
    pub fn run_until(&mut self, stop: &StopConditions) -> StopReason {
        let trap = self.cpu.trap_illegal;
        self.cpu.trap_illegal = trap || !stop.on_illegal;
        // Two copies of the hot loop: the common one has no breakpoint test.
        let reason = if stop.breakpoints.is_empty() {
            self.run_loop::<false>(stop)
        } else {
            self.run_loop::<true>(stop)
        };
        self.cpu.trap_illegal = trap;
        reason
    }

    /// `run_until`'s loop; `CHECK_BPS` if `stop` has breakpoints.
    fn run_loop<const CHECK_BPS: bool>(&mut self, stop: &StopConditions) -> StopReason {
        let budget_end = self.board.now().saturating_add(stop.max_cycles);
        let check_bps = CHECK_BPS;
        let ff = self.ff.enabled;
        // Steps taken elsewhere (single steps, the debugger) may have left
        // the back-jump note set.
        self.cpu.flow.back = false;
        // Continuing from a reported write fault: that instruction runs as
        // on the chip, through the slow path.
        if self.resume_write_at == Some(self.cpu.regs.pc) && self.board.now() < budget_end {
            let out = self.step();
            if let Some(reason) = self.after_outcome(&out, stop) {
                return reason;
            }
        }
        loop {
            self.check_cop();
            // Script actions happen between instructions.
            if self.board.now() >= self.script_deadline {
                if let Some(reason) = self.advance_script() {
                    return reason;
                }
            }
            if self.board.now() >= budget_end {
                return StopReason::CycleBudget;
            }
            // The COP deadline only moves later (a feed; CR can only be set
            // in the first 64 cycles, and 00 is the shortest), so the hot
            // loop leaving at it is enough to reset exactly there.
            let deadline = self.script_deadline.min(self.board.cop_deadline());
            let limit = budget_end.min(deadline);
            // Without a script action or COP reset ahead, the budget still
            // bounds the skip (nothing else would).
            let skip_limit = if stop.skip_past_budget.is_some() && deadline != u64::MAX {
                deadline
            } else {
                limit
            };
            // The hot loop: ordinary instructions with nothing to report stay
            // in here; everything else goes through `after_step`.
            // Running with X and I set (most programs, most of the time):
            // the CPU's step then tests neither the run state nor for an
            // interrupt. Every instruction that changes either asks for
            // attention (`Bus::attention`), so its step services the
            // devices, and only then are they tested here; known again
            // after every step that is not quiet and every back-jump (the
            // fast-forward runs steps of its own).
            let mut fast = self.running_masked();
            while self.board.now() < limit {
                let before = WriteUndo::take(&self.cpu.regs);
                let step = self.cpu.step_inline_hinted(&mut self.board, fast);
                // Every step with an event, a refused write or a change of
                // the run state or masks brings the next device event
                // forward to now (`Bus::attention`, `Board::record_fault`):
                // a step that ends short of it is an ordinary instruction
                // with nothing to report, and needs no more tests.
                let ordinary = if !self.board.due_after(step.cycles) {
                    self.board.pass(step.cycles);
                    true
                } else {
                    if self.board.has_fault() {
                        self.cpu.flow.back = false;
                        if let Some(reason) = self.fault_step(step, before, stop) {
                            return reason;
                        }
                        fast = self.running_masked();
                        continue;
                    }
                    self.board.tick(step.cycles);
                    step.event == StepEvent::None && self.may_stay(fast)
                };
                let quiet = ordinary && !(check_bps && stop.breakpoints.contains(self.cpu.regs.pc));
                if quiet {
                    self.instructions += 1;
                    // A branch or jump went back: maybe a polling loop to
                    // skip, or a branch to itself that nothing can leave.
                    // (Calls and returns to lower code close no loop.)
                    if self.cpu.flow.back {
                        if let Some(h) = self.halt_check(step.pc) {
                            return StopReason::Halted(h);
                        }
                        if ff {
                            if let Some(reason) =
                                self.try_fast_forward(stop, limit, skip_limit, check_bps, step.pc)
                            {
                                return reason;
                            }
                        }
                        // Also what a probe's own branches left.
                        self.cpu.flow.back = false;
                        fast = self.running_masked();
                    }
                } else {
                    self.cpu.flow.back = false;
                    if let Some(reason) = self.after_step(step, stop) {
                        return reason;
                    }
                    fast = self.running_masked();
                }
            }
        }
    }

    /// The CPU runs with X and I set: no interrupt can come before an
    /// instruction clears one (see `run_loop`).
    #[inline(always)]
    pub(crate) fn running_masked(&self) -> bool {
        use crate::cpu::registers::flags::{I, X};
        self.cpu.state == RunState::Running && self.cpu.regs.ccr & (X | I) == X | I
    }

    /// After a step that serviced the devices: the CPU still runs, and
    /// with X and I set if the step began so (`fast`).
    #[inline(always)]
    pub(crate) fn may_stay(&self, fast: bool) -> bool {
        if fast {
            self.running_masked()
        } else {
            self.cpu.state == RunState::Running
        }
    }

    /// The stop a single [`Machine::step`] outcome means for a run.
    fn after_outcome(&mut self, out: &StepOutcome, stop: &StopConditions) -> Option<StopReason> {
        if let Some(h) = out.halt {
            return Some(StopReason::Halted(h));
        }
        if let StepEvent::IllegalRefused(op) = out.step.event {
            return Some(StopReason::IllegalOpcode(op));
        }
        if !stop.breakpoints.is_empty() && stop.breakpoints.contains(self.cpu.regs.pc) {
            return Some(StopReason::Breakpoint(self.cpu.regs.pc));
        }
        None
    }

    /// The slow path of `run_until`: counts the step and says whether the
    /// run stops because of it.
    #[cold]
    pub(super) fn after_step(&mut self, step: Step, stop: &StopConditions) -> Option<StopReason> {
        if self.check_clock_monitor(self.board.now()) {
            if matches!(step.event, StepEvent::None) {
                self.instructions += 1;
            }
            return None;
        }
        match step.event {
            StepEvent::None | StepEvent::Swi => self.instructions += 1,
            StepEvent::Interrupt { .. } | StepEvent::Illegal(_) => {}
            StepEvent::IllegalRefused(op) => return Some(StopReason::IllegalOpcode(op)),
            StepEvent::Waiting | StepEvent::Stopped => {
                if let Some(h) = self.halt_check(step.pc) {
                    return Some(StopReason::Halted(h));
                }
            }
        }
        if step.event == StepEvent::None && self.cpu.regs.pc <= step.pc {
            if let Some(h) = self.halt_check(step.pc) {
                return Some(StopReason::Halted(h));
            }
        }
        if !stop.breakpoints.is_empty() && stop.breakpoints.contains(self.cpu.regs.pc) {
            return Some(StopReason::Breakpoint(self.cpu.regs.pc));
        }
        None
    }

    /// Out of line: inlined into `run_loop` (which calls it once per
    /// script action) it cost the hot loop registers, 2% more host
    /// instructions per grading.
    #[inline(never)]
    fn advance_script(&mut self) -> Option<StopReason> {
        let Some(runner) = self.script.as_mut() else {
            self.script_deadline = u64::MAX;
            return None;
        };
        match runner.advance(&mut self.board) {
            Progress::Continue(at) => {
                self.script_deadline = at;
                None
            }
            Progress::Finished { waiting_on } => {
                let kept = runner.take_captures();
                self.lcd_captures.extend(kept);
                self.script = None;
                self.script_deadline = u64::MAX;
                self.waiting_on = Some(waiting_on);
                Some(StopReason::Settled)
            }
        }
    }
}

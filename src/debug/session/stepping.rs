//! The commands (step into, over and out, run, run to) and the step:
//! one instruction with all bookkeeping on the observed path, or a run on
//! the machine's fast path with the session's hook.

use super::fast::FastHook;
use super::flow::{cmd_done, track_flow};
use super::{Cmd, Debugger, Reason, StepInfo, Stop, TargetView};
use crate::cpu::{flow_op, Instruction, Op, RunState};
use crate::debug::breakpoint::{find_file, BreakError, BreakSpec};
use crate::debug::lazy_provenance::TrackBefore;
use crate::debug::provenance::Tracker;
use crate::debug::target::{FastStop, Target};

impl<T: Target> Debugger<T> {
    /// One step with all bookkeeping. `count` increments watch hit counters.
    pub(super) fn step_once(&mut self, count: bool) -> StepInfo {
        self.settle_change();
        // Normally done by `run_cmd` just before; replays need it here.
        self.target.script_poll();
        let before = self.target.cpu().regs;
        let pc = before.pc;
        let tracking = self.tracked.tracker.is_some();
        let watching = self.watchpoints.active();
        // The call stack needs only the opcode; provenance and watchpoints
        // need the whole instruction.
        let track = tracking.then(|| TrackBefore::take(&self.target));
        let target = &self.target;
        let ins = match &track {
            Some(t) => t.instruction().copied(),
            None if watching => Instruction::decode(pc, |a| target.peek(a)).ok(),
            None => None,
        };
        let op = match &ins {
            Some(i) => Some(i.info.op),
            None => flow_op(target.peek(pc), || target.peek(pc.wrapping_add(1))),
        };
        let cycles_before = self.target.cycles();
        let ts = if watching {
            self.log.clear();
            self.target.step_observed(&mut self.log)
        } else {
            self.target.step()
        };
        let after = self.target.cpu().regs;
        let cycles_after = self.target.cycles();
        let target = &self.target;
        let peek = |a: u16| target.peek(a);
        track_flow(
            &mut self.tracked,
            op,
            &ts.step,
            (pc, before.sp, cycles_before),
            (&after, cycles_after),
            &peek,
            None,
        );
        if let (Some(t), Some(track)) = (self.tracked.tracker.as_deref_mut(), &track) {
            track.apply(t, target, &ts, self.spdr);
        }
        self.hits.clear();
        if watching {
            let len = ins.map_or(1, |i| i.len());
            self.watchpoints
                .check(&self.log.accesses, pc, len, count, &mut self.hits);
        }
        self.tracked.index += 1;
        if !self.replaying {
            let due = self.history.as_ref().is_some_and(|h| h.due(cycles_after));
            if due {
                if let Some(t) = self.tracked.tracker.as_deref_mut() {
                    t.compact();
                }
                let saved = self.saved();
                let bytes = self.saved_bytes();
                let i = self.tracked.index;
                if let Some(h) = &mut self.history {
                    h.record(i, cycles_after, saved, bytes);
                }
            }
        }
        StepInfo { ts, pc }
    }

    pub(super) fn run_cmd(&mut self, cmd: Cmd) -> Stop {
        if cmd != Cmd::Into && self.fast_path() {
            return self.run_fast(cmd);
        }
        let start = self.target.cycles();
        let mut first = true;
        loop {
            let pc = self.target.cpu().regs.pc;
            if !first || self.checks_first(&cmd) {
                if let Cmd::RunTo(addrs) = &cmd {
                    if addrs.contains(&pc) {
                        return self.stop(Reason::Reached { addr: pc });
                    }
                }
                if self.breakpoints.maybe_at(pc) {
                    if let Some(id) = self.breakpoints.check(pc, &TargetView(&self.target)) {
                        let (spec, hits) = self
                            .breakpoints
                            .get(id)
                            .map(|b| (b.spec.text.clone(), b.hits))
                            .unwrap_or_default();
                        return self.stop(Reason::Breakpoint { id, spec, hits });
                    }
                    self.asked_at = Some(self.target.cycles());
                }
            }
            first = false;
            // Script actions happen between instructions, as in
            // `Machine::run_until`; its end stops before the next step.
            if let Some(kind) = self.target.script_poll() {
                return self.settled(kind);
            }
            let ran = self.target.cycles().saturating_sub(start);
            if ran >= self.max_cycles {
                return self.stop(Reason::Budget { cycles: ran });
            }
            let info = self.step_once(true);
            if let Some(r) = self.step_stop(&info) {
                return self.stop(r);
            }
            let regs = self.target.cpu().regs;
            if let Some(reason) = cmd_done(&cmd, &self.tracked.callstack, &regs) {
                return self.stop(reason);
            }
        }
    }

    /// Whether commands run on the target's fast path
    /// ([`Target::run_hooked`]): nothing needs each bus access (no
    /// watchpoint, no provenance tracked step by step: lazy provenance
    /// needs nothing of the run) and the fast path is not switched off.
    fn fast_path(&self) -> bool {
        let watch_ok =
            !self.watchpoints.active() || self.target.can_watch(self.watchpoints.board_bits());
        self.fast && watch_ok && self.tracked.tracker.is_none()
    }

    /// Turns the fast path off (every command then steps through
    /// [`Debugger::step_into`]'s path, observing everything) or back on
    /// (the default). The results are the same either way; the switch is
    /// there to check exactly that.
    pub fn set_fast_path(&mut self, on: bool) {
        if on == self.fast {
            return;
        }
        self.fast = on;
        // Provenance moves to the path's way of tracking, with the history
        // it has.
        if on {
            if let Some(t) = self.tracked.tracker.take() {
                self.start_lazy(*t);
            }
        } else if self.lazy.get_mut().is_some() {
            let tracker = self.caught_up().map(|t| Tracker::clone(&t));
            *self.lazy.get_mut() = None;
            self.tracked.tracker = Some(Box::new(tracker.unwrap_or_else(|_| self.new_tracker())));
        }
    }

    /// Whether `cmd` stops at a breakpoint on the instruction it starts
    /// at: after a budget stop (the run was cut there, not stopped), and
    /// for a run or run-to on a machine that has run nothing yet (a
    /// breakpoint on the entry). A single step always runs its
    /// instruction, and step over or out from a fresh machine steps first.
    fn checks_first(&self, cmd: &Cmd) -> bool {
        match cmd {
            Cmd::Into => false,
            Cmd::Continue | Cmd::RunTo(_) => self.check_first,
            _ => self.check_first && self.target.cycles() != 0,
        }
    }

    /// `run_cmd` on the target's fast path: the same stops, counts and
    /// tracked state, polling loops fast-forwarded where the machine can.
    fn run_fast(&mut self, cmd: Cmd) -> Stop {
        self.settle_change();
        self.hits.clear();
        let check_first = self.checks_first(&cmd);
        let start = self.target.cycles();
        let mut bps = self.breakpoints.addresses();
        if let Cmd::RunTo(addrs) = &cmd {
            for &a in addrs {
                bps.insert(a);
            }
        }
        let mut hook = FastHook {
            tracked: &mut self.tracked,
            breakpoints: &mut self.breakpoints,
            history: &mut self.history,
            cmd: &cmd,
            reason: None,
            lean: !matches!(cmd, Cmd::Into),
            // A return leaves depth - 1 frames: step over ends at `depth`
            // or less, step out below it.
            end_depth: match cmd {
                Cmd::Over { depth, .. } => depth + 1,
                Cmd::Out { depth } => depth,
                _ => 0,
            },
            over_ret: match cmd {
                Cmd::Over { ret, .. } => u32::from(ret),
                _ => u32::MAX,
            },
            last_pc: self.target.cpu().regs.pc,
            mark: std::mem::take(&mut self.stack_mark),
            marked: false,
            rows: std::mem::take(&mut self.rows),
            visits: std::mem::take(&mut self.visits),
            visit_pass: 0,
            counted: false,
            hits: Vec::new(),
            watchpoints: &mut self.watchpoints,
            watch_hits: Vec::new(),
            accesses: Vec::new(),
            asked_at: None,
        };
        let watching = hook.watchpoints.active();
        if watching {
            self.target.set_watch(Some(hook.watchpoints.board_bits()));
        }
        let end = self.target.run_hooked(
            self.max_cycles,
            &bps,
            check_first,
            &mut hook,
            &mut self.repeat_cache,
        );
        if watching {
            self.target.set_watch(None);
        }
        self.hits = std::mem::take(&mut hook.watch_hits);
        let (reason, last_pc) = (hook.reason.take(), hook.last_pc);
        // Keep the buffers for the next command.
        self.stack_mark = std::mem::take(&mut hook.mark);
        self.rows = std::mem::take(&mut hook.rows);
        self.visits = std::mem::take(&mut hook.visits);
        self.asked_at = hook.asked_at;
        match end {
            FastStop::Hook => {
                let reason = reason.unwrap_or(Reason::Step);
                self.stop(reason)
            }
            FastStop::Budget => {
                let ran = self.target.cycles().saturating_sub(start);
                self.stop(Reason::Budget { cycles: ran })
            }
            FastStop::Settled(kind) => self.settled(kind),
            FastStop::Step(ts) => {
                let info = StepInfo { ts, pc: last_pc };
                match self.step_stop(&info) {
                    Some(r) => self.stop(r),
                    None => self.stop(reason.unwrap_or(Reason::Step)),
                }
            }
        }
    }

    // ---- commands --------------------------------------------------------

    /// Runs one instruction (or takes one interrupt), following calls.
    pub fn step_into(&mut self) -> Stop {
        self.run_cmd(Cmd::Into)
    }

    /// Runs one instruction; a JSR/BSR runs until its subroutine returns
    /// (recognised by its call stack frame, so a callee that moves the
    /// stack or recurses does not confuse it).
    pub fn step_over(&mut self) -> Stop {
        let pc = self.target.cpu().regs.pc;
        let target = &self.target;
        let call = Instruction::decode(pc, |a| target.peek(a))
            .ok()
            .filter(|i| matches!(i.info.op, Op::Jsr | Op::Bsr));
        if let (Some(ins), RunState::Running) = (call, &self.target.cpu().state) {
            let depth = self.tracked.callstack.depth();
            let ret = ins.next_addr();
            let sp = self.target.cpu().regs.sp;
            self.run_cmd(Cmd::Over { depth, ret, sp })
        } else {
            self.run_cmd(Cmd::Into)
        }
    }

    /// Runs until the current subroutine (or interrupt handler) returns.
    pub fn step_out(&mut self) -> Stop {
        let depth = self.tracked.callstack.depth();
        if depth == 0 {
            return self.stop(Reason::NoFrame);
        }
        self.run_cmd(Cmd::Out { depth })
    }

    /// Runs until a breakpoint, watchpoint, trap, the end of the key script
    /// or the cycle budget.
    pub fn run(&mut self) -> Stop {
        self.run_cmd(Cmd::Continue)
    }

    /// Runs for at most `cycles` E-cycles (the GUI's time slice).
    pub fn run_for(&mut self, cycles: u64) -> Stop {
        let saved = self.max_cycles;
        self.max_cycles = cycles;
        let s = self.run_cmd(Cmd::Continue);
        self.max_cycles = saved;
        s
    }

    /// Runs until the PC reaches `addr` (or another stop comes first).
    pub fn run_to_address(&mut self, addr: u16) -> Stop {
        self.run_cmd(Cmd::RunTo(vec![addr]))
    }

    /// Runs until the first instruction of a source line (`file:line`, or
    /// any breakpoint location spec) is reached.
    pub fn run_to(&mut self, location: &str) -> Result<Stop, BreakError> {
        let spec = BreakSpec::parse(location)?;
        let program = self.target.program().unwrap_or(&self.empty);
        let r = spec.resolve(program)?;
        Ok(self.run_cmd(Cmd::RunTo(r.addrs)))
    }

    /// Runs to a line of a file given by id.
    pub fn run_to_line(&mut self, file: &str, line: u32) -> Result<Stop, BreakError> {
        let program = self.target.program().unwrap_or(&self.empty);
        let name = find_file(program, file)
            .and_then(|f| program.files.get(f))
            .map(|f| f.path.to_string_lossy().into_owned())
            .unwrap_or_else(|| file.to_string());
        let addrs = BreakSpec::parse(&format!("{name}:{line}"))?
            .resolve(program)?
            .addrs;
        Ok(self.run_cmd(Cmd::RunTo(addrs)))
    }
}

//! The end of a step, and the undoing of a step whose write the board
//! refused (a write into program memory or to an unmapped address): a run
//! that stops on such a fault stops before the write took effect, and
//! continuing runs the instruction as the chip does (the byte is simply not
//! stored).

use super::{Machine, StepOutcome, StopConditions, StopReason};
use crate::board::BusFault;
use crate::cpu::{Registers, RunState, Step, StepEvent};

/// What undoing a step whose write the board refused needs: SP and CCR as
/// they were before it (its PC is the step's own). Every 68HC11 step that
/// writes memory changes no register but PC, SP and CCR: stores, the
/// read-modify-write and bit instructions, pushes, JSR/BSR, SWI, WAI and
/// interrupt or trap entry (RM appendix A); A, B, X and Y only change in
/// steps that write nothing. Noting these two instead of copying all
/// registers before every step keeps the run loop clear of a wide load of
/// bytes the previous step just stored, which cost about a quarter of its
/// time (a store-to-load forwarding stall on x86-64).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WriteUndo {
    pub(super) sp: u16,
    ccr: u8,
}

impl WriteUndo {
    #[inline(always)]
    pub(crate) fn take(regs: &Registers) -> WriteUndo {
        WriteUndo {
            sp: regs.sp,
            ccr: regs.ccr,
        }
    }

    /// The registers before the step at `pc`.
    fn restore(self, regs: &mut Registers, pc: u16) {
        regs.pc = pc;
        regs.sp = self.sp;
        regs.ccr = self.ccr;
    }
}

impl Machine {
    /// The rest of a step after the CPU ran it (`before`: the registers to
    /// undo a refused write with): the fault, the cycles, the count, then
    /// [`Machine::outcome_after`].
    pub(super) fn finish_step(&mut self, mut step: Step, before: WriteUndo) -> StepOutcome {
        // An instruction that ran with nothing refused or resumed (nearly
        // every step): the same, with `outcome_after`'s COP and clock
        // monitor tests skipped where they cannot fire (before the COP
        // deadline, the CPU running).
        if self.resume_write_at.is_none()
            && !self.board.has_fault()
            && step.event == StepEvent::None
        {
            self.board.tick(step.cycles);
            self.instructions += 1;
            if self.cpu.state != RunState::Running || self.board.now() >= self.board.cop_deadline()
            {
                return self.outcome_after(step, None);
            }
            let halt = if self.cpu.regs.pc <= step.pc {
                self.halt_check(step.pc)
            } else {
                None
            };
            return StepOutcome {
                step,
                fault: None,
                halt,
            };
        }
        let resume = self.resume_write_at.take();
        let mut fault = self.board.take_fault();
        if fault.is_some() && resume != Some(step.pc) {
            self.undo_step(&mut step, before);
        } else {
            self.board.tick(step.cycles);
            if matches!(step.event, StepEvent::None | StepEvent::Swi) {
                self.instructions += 1;
            }
            if resume == Some(step.pc) {
                fault = None;
            }
        }
        self.outcome_after(step, fault)
    }

    /// The end of every single step: the COP and clock monitor get their
    /// say, then the halt test.
    pub(super) fn outcome_after(&mut self, step: Step, fault: Option<BusFault>) -> StepOutcome {
        self.check_cop();
        if self.check_clock_monitor(self.board.now()) {
            return StepOutcome {
                step,
                fault,
                halt: None,
            };
        }
        let halt = self.halt_after(&step);
        StepOutcome { step, fault, halt }
    }

    /// Undoes a step whose write the board refused: registers and cycle
    /// count as before, PC on the instruction, no time passed. RAM writes
    /// of the same instruction cannot precede the refused byte on the
    /// trainer11 (RAM borders only on device registers); a device register
    /// written by the same instruction before it (a 16-bit store from $8003,
    /// a push from $0001 down into $FFFF) keeps that write.
    #[cold]
    pub(super) fn undo_step(&mut self, step: &mut Step, before: WriteUndo) {
        before.restore(&mut self.cpu.regs, step.pc);
        self.cpu.cycles -= step.cycles as u64;
        self.cpu.state = RunState::Running;
        step.cycles = 0;
        self.resume_write_at = Some(step.pc);
    }

    /// A step of `run_until` whose write the board refused: undone and
    /// reported if the run stops on that kind of fault, else counted as the
    /// chip runs it (the byte is simply not stored).
    #[cold]
    pub(super) fn fault_step(
        &mut self,
        step: Step,
        before: WriteUndo,
        stop: &StopConditions,
    ) -> Option<StopReason> {
        let fault = self.board.take_fault();
        let reason = match fault {
            Some(BusFault::RomWrite { addr, value, .. }) if stop.on_rom_write => {
                Some(StopReason::RomWrite {
                    addr,
                    value,
                    pc: step.pc,
                })
            }
            Some(BusFault::UnmappedWrite { addr, value, .. }) if stop.on_unmapped_write => {
                Some(StopReason::UnmappedWrite {
                    addr,
                    value,
                    pc: step.pc,
                })
            }
            _ => None,
        };
        if reason.is_some() {
            let mut step = step;
            self.undo_step(&mut step, before);
            return reason;
        }
        self.board.tick(step.cycles);
        self.after_step(step, stop)
    }
}

//! Loops whose iterations repeat exactly, for the provenance replay
//! (`debug::lazy_provenance`): an iteration measured as `run_until`'s probe
//! measures it ([`super::fastforward`], steps 1-3) that leaves the machine
//! as it found it is followed by identical iterations up to the next event
//! the loop can see, the key script's next action and the COP deadline.
//! The replay tracks enough of them to know the tracker's answers (see
//! there) and lets this module run the rest without a tracker.

use super::fastforward::Iteration;
use super::{Machine, StopConditions};
use crate::cpu::RunState;

/// What [`Machine::run_repeating_loop`] ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repeating {
    /// Steps taken: whole iterations of the loop, all alike.
    pub steps: u64,
    /// Steps one iteration takes.
    pub period_steps: u64,
    /// The cycle before which iterations from the loop's head stay alike:
    /// the next device event the loop can see, the key script's next
    /// action or the COP deadline, whichever comes first.
    pub alike_until: u64,
}

impl Machine {
    /// At a loop head (the PC, just jumped back to by a branch or jump):
    /// runs one iteration as the fast-forward's probe measures it and, if
    /// it left the machine as it found it, runs as many more as fit in
    /// `max_steps` steps in all, by skipping them exactly as `run_until`
    /// does. `None` if the iteration does not repeat or does not fit; the
    /// machine has then run part of it, so call this on a copy.
    pub fn run_repeating_loop(&mut self, max_steps: u64) -> Option<Repeating> {
        if !self.ff.enabled || self.cpu.state != RunState::Running {
            return None;
        }
        let head = self.cpu.regs.pc;
        let i0 = self.instructions;
        // Script actions and COP resets happen between steps of a replay:
        // no iteration run here may contain one.
        let deadline = self
            .script_deadline
            .min(self.board.cop_deadline())
            .saturating_sub(1);
        let stop = StopConditions::budget(u64::MAX);
        let Iteration::Repeats {
            period,
            count,
            measured,
            ..
        } = self.measure_iteration(head, &stop, deadline, false)
        else {
            return None;
        };
        if count == 0 || count > max_steps {
            return None;
        }
        let event = self
            .board
            .next_event_seen_given(measured.reads_timer, self.board.can_interrupt());
        let alike_until = event.min(deadline);
        let most = (max_steps - count) / count;
        if most > 0 {
            let now = self.board.now();
            let bound = deadline.min(
                now.saturating_add(most.saturating_mul(period))
                    .saturating_add(1),
            );
            self.skip_repeats(period, count, bound, Some(measured));
        }
        Some(Repeating {
            steps: self.instructions - i0,
            period_steps: count,
            alike_until,
        })
    }
}

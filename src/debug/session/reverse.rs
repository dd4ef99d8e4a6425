//! Going back: to any earlier step (the nearest snapshot, then an exact
//! replay), one step or n, or back to the last breakpoint or watchpoint.

use super::{Debugger, Reason, Saved, Stop, TargetView};
use crate::debug::target::Target;

impl<T: Target> Debugger<T> {
    // ---- reverse -----------------------------------------------------------

    /// Restores the state after `index` steps: the nearest snapshot at or
    /// before it, then deterministic replay. Returns false if history is off
    /// or `index` lies before the oldest snapshot.
    pub fn goto(&mut self, index: u64) -> bool {
        self.settle_change();
        let Some(snap) = self.history.as_ref().and_then(|h| h.at_or_before(index)) else {
            return false;
        };
        let saved = snap.state.clone();
        self.restore(saved);
        self.replay_to(index);
        self.check_first = false;
        let rewound = self.lazy.get_mut().as_mut().is_none_or(|l| l.rewind(index));
        if !rewound {
            // Back before tracking began: it begins here.
            self.start_lazy(self.new_tracker());
        }
        true
    }

    fn restore(&mut self, saved: Saved<T>) {
        let prov = self.tracked.tracker.is_some();
        self.target = saved.target;
        self.tracked = saved.tracked;
        if prov && self.tracked.tracker.is_none() {
            // The snapshot predates tracking: track from here on.
            self.tracked.tracker = Some(Box::new(self.new_tracker()));
        } else if !prov {
            self.tracked.tracker = None;
        }
    }

    fn replay_to(&mut self, index: u64) {
        self.replaying = true;
        while self.tracked.index < index {
            self.step_once(false);
        }
        self.replaying = false;
    }

    /// Goes back one step, exactly.
    pub fn step_back(&mut self) -> Stop {
        let i = self.tracked.index;
        let now = (self.target.cpu().regs, self.target.cycles());
        if i == 0 || !self.goto(i - 1) {
            return self.stop(Reason::StartOfHistory);
        }
        // A refused step (an illegal opcode or a write stopped before it
        // took effect) is a step in history that changed no register and
        // no cycle: going back over it alone would show the same place, so
        // go back past it to the instruction before.
        if i >= 2 && (self.target.cpu().regs, self.target.cycles()) == now {
            self.goto(i - 2);
        }
        self.stop(Reason::Step)
    }

    /// Goes back `n` steps (stops at the start of history).
    pub fn step_back_n(&mut self, n: u64) -> Stop {
        self.settle_change();
        let i = self.tracked.index;
        let to = i.saturating_sub(n);
        let oldest = self
            .history
            .as_ref()
            .and_then(|h| h.snapshots().first().map(|s| s.index));
        match oldest {
            Some(o) if to >= o => {
                self.goto(to);
                if to == 0 {
                    self.stop(Reason::StartOfHistory)
                } else {
                    self.stop(Reason::Step)
                }
            }
            Some(o) => {
                self.goto(o);
                self.stop(Reason::StartOfHistory)
            }
            None => self.stop(Reason::StartOfHistory),
        }
    }

    /// Runs backwards to the latest earlier point where a breakpoint's
    /// condition held (hit counts are ignored going back) or a watchpoint
    /// triggered; the start of history if there is none.
    pub fn run_back(&mut self) -> Stop {
        self.settle_change();
        let cur = self.tracked.index;
        let mut end = cur;
        loop {
            let snap = self.history.as_ref().and_then(|h| h.before(end)).cloned();
            let Some(snap) = snap else {
                let oldest = self
                    .history
                    .as_ref()
                    .and_then(|h| h.snapshots().first().map(|s| s.index));
                if let Some(o) = oldest {
                    self.goto(o);
                }
                return self.stop(Reason::StartOfHistory);
            };
            let seg_start = snap.index;
            self.restore(snap.state);
            // (position, reason) of the latest hit in this segment.
            let mut best: Option<(u64, Reason)> = None;
            self.replaying = true;
            while self.tracked.index < end {
                let pc = self.target.cpu().regs.pc;
                if self.breakpoints.maybe_at(pc) {
                    if let Some(id) = self.breakpoints.check_pure(pc, &TargetView(&self.target)) {
                        let (spec, hits) = self
                            .breakpoints
                            .get(id)
                            .map(|b| (b.spec.text.clone(), b.hits))
                            .unwrap_or_default();
                        best = Some((self.tracked.index, Reason::Breakpoint { id, spec, hits }));
                    }
                }
                self.step_once(false);
                if !self.hits.is_empty() && self.tracked.index < cur {
                    best = Some((
                        self.tracked.index,
                        Reason::Watchpoint {
                            hits: self.hits.clone(),
                        },
                    ));
                }
            }
            self.replaying = false;
            if let Some((at, reason)) = best {
                self.goto(at);
                return self.stop(reason);
            }
            if seg_start == 0 {
                self.goto(0);
                return self.stop(Reason::StartOfHistory);
            }
            end = seg_start;
        }
    }
}

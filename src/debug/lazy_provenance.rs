//! Provenance recorded off the hot path. On the fast path a run with
//! provenance on records nothing per step: the tracker's answers depend only
//! on the steps taken, and a machine replays its steps exactly from any state
//! it was in, so the session keeps the state where tracking began, the
//! states set from outside (a memory edit, a key pressed by hand, the key
//! script's end) and a few checkpoints, and the first question after a run
//! replays the steps since the last one with the tracker
//! ([`LazyProvenance::catch_up`]). The answers are those of a tracker that
//! saw every step as it ran (the slow path still tracks that way, and the
//! tests compare the two).
//!
//! Cost: a run is as fast as without provenance; the first question after
//! it pays for tracking the steps since the previous question, one at a
//! time but for poll loops, which it skips (about 500 host instructions per
//! tracked step, as the observed path took per step; a game's replay skips
//! a third of its steps), and for loops whose iterations repeat exactly (a
//! program waiting for a key in a loop that calls its input routine): once
//! the machine's probe has found such a loop, [`ALIKE_TRACKED`] of its
//! iterations are tracked and the rest run without the tracker, whose
//! answers they would not change (the constant says why). Going back ([`LazyProvenance::rewind`]) resumes
//! from the newest checkpoint at or before the target, so a question after
//! a step back replays at most one checkpoint spacing.

use super::provenance::{Tracker, MAX_DEPTH};
use super::target::{LcdProbe, Target, TargetStep};
use crate::cpu::{Instruction, Registers, RunState, StepEvent};

/// Steps between the checkpoints a catch-up leaves, at first (the spacing
/// doubles each time the list is thinned).
const FIRST_SPACING: u64 = 1 << 18;
/// Checkpoints kept at most (every other one is dropped beyond this, the
/// first, where tracking began, always kept).
const MAX_CHECKPOINTS: usize = 16;
/// States set from outside kept at most: beyond this the tracker catches
/// up and tracking's start moves to the present (going back before it then
/// starts tracking afresh there, as for a snapshot older than tracking).
const MAX_CHANGES: usize = 256;

/// Iterations of an exactly repeating loop tracked before the rest runs
/// untracked. A byte the loop writes is written alike in every iteration,
/// so each link of a chain behind a value goes back at most one
/// iteration, and the [`MAX_DEPTH`] links the tracker keeps (more than any
/// question reads) lie within the newest `MAX_DEPTH + 1` iterations or
/// reach bytes the loop never writes. After that many, further iterations
/// leave every answer as it was: only the node numbers differ.
pub(super) const ALIKE_TRACKED: u64 = MAX_DEPTH as u64 + 1;
/// Steps before a loop head whose iteration did not repeat is measured
/// again, at first (doubling per failure up to `<< MAX_RETRY_SHIFT`).
const RETRY_STEPS: u64 = 256;
/// Highest doubling of [`RETRY_STEPS`].
const MAX_RETRY_SHIFT: u32 = 8;
/// Steps the copy that measures a loop may run (the measured iteration
/// and a few more: the copy is dropped).
const PROBE_STEPS: u64 = 64;
/// Loop heads whose backoff is kept (hashed).
const RETRY_SLOTS: usize = 16;

/// A loop found to repeat exactly, being tracked until
/// [`ALIKE_TRACKED`] of its iterations are.
#[derive(Clone, Copy, Debug)]
struct Streak {
    /// The loop's head and the address of its jump back.
    head: u16,
    from: u16,
    /// Steps of one iteration.
    period: u64,
    /// Iterations tracked since the probe found it alike.
    tracked: u64,
    /// Its iterations stay alike until this cycle.
    alike_until: u64,
}

/// When a loop head may be measured again.
#[derive(Clone, Copy, Debug, Default)]
struct Retry {
    head: u16,
    at_index: u64,
    shift: u32,
}

/// What the tracker needs from before a step: the registers, whether the
/// CPU was waiting (WAI stacked the registers already), the instruction
/// and the LCD's data path.
pub(super) struct TrackBefore {
    regs: Registers,
    was_waiting: bool,
    ins: Option<Instruction>,
    probe: Option<LcdProbe>,
}

impl TrackBefore {
    /// Notes `target` before its next step.
    pub(super) fn take<T: Target>(target: &T) -> TrackBefore {
        Self::take_probed(target, target.lcd_probe())
    }

    /// [`TrackBefore::take`] with the LCD probe already taken (`probe`:
    /// what the last step's [`TrackBefore::apply`] returned, when nothing
    /// else ran since; script actions touch no LCD or SPI state).
    fn take_probed<T: Target>(target: &T, probe: Option<LcdProbe>) -> TrackBefore {
        let regs = target.cpu().regs;
        TrackBefore {
            regs,
            was_waiting: target.cpu().state == RunState::Waiting,
            ins: Instruction::decode(regs.pc, |a| target.peek(a)).ok(),
            probe,
        }
    }

    /// The instruction about to run (`None` for bytes that decode to none).
    pub(super) fn instruction(&self) -> Option<&Instruction> {
        self.ins.as_ref()
    }

    /// Applies the step `ts` that `target` just took to `t`; `spdr` is the
    /// SPI data register's address. Returns the LCD probe after the step.
    pub(super) fn apply<T: Target>(
        &self,
        t: &mut Tracker,
        target: &T,
        ts: &TargetStep,
        spdr: Option<u16>,
    ) -> Option<LcdProbe> {
        let after = target.cpu().regs;
        let peek = |a: u16| target.peek(a);
        match ts.step.event {
            StepEvent::None | StepEvent::Swi => {
                if let Some(ins) = &self.ins {
                    t.instruction(ins, &self.regs, &after, &peek);
                }
            }
            StepEvent::Interrupt { .. } => t.interrupt(&self.regs, self.was_waiting),
            StepEvent::Illegal(_) => t.interrupt(&self.regs, false),
            StepEvent::IllegalRefused(_) | StepEvent::Waiting | StepEvent::Stopped => {}
        }
        let after = target.lcd_probe();
        lcd_moved(t, self.probe, after, spdr);
        after
    }
}

/// What the LCD data path did between probes `p0` and `p1`, for `t`.
fn lcd_moved(t: &mut Tracker, p0: Option<LcdProbe>, p1: Option<LcdProbe>, spdr: Option<u16>) {
    if let (Some(p0), Some(p1)) = (p0, p1) {
        // The byte landing now is the one whose transfer started earlier
        // (in flight); a transfer started by this step's SPDR write
        // becomes the new one in flight.
        if p1.data_count > p0.data_count {
            t.lcd_written(p0.page as usize, p0.column as usize);
        }
        if p1.transfer_end != p0.transfer_end {
            if let Some(spdr) = spdr {
                t.in_flight = t.mem_node(spdr);
            }
        }
    }
}

/// A state after `index` steps and the tracker there.
#[derive(Clone)]
struct Point<T> {
    index: u64,
    target: T,
    tracker: Tracker,
}

/// Provenance answered when asked (see the module).
pub(super) struct LazyProvenance<T> {
    /// How far the tracker has come.
    at: Point<T>,
    /// Earlier points of the present timeline, oldest first; the first is
    /// where tracking began.
    checkpoints: Vec<Point<T>>,
    /// States set from outside, each with the step index it was set at
    /// (replays take it before that step), in order of index.
    changes: Vec<(u64, T)>,
    /// Steps between checkpoints now.
    spacing: u64,
    spdr: Option<u16>,
    /// The exactly repeating loop the replay is in, if one was found.
    streak: Option<Streak>,
    /// Backoff of loop heads that did not repeat.
    retries: [Retry; RETRY_SLOTS],
    /// Steps replayed with the tracker, and steps run without it (poll
    /// loops and repeating loops skipped).
    tracked_steps: u64,
    skipped_steps: u64,
}

impl<T: Target> LazyProvenance<T> {
    /// Tracking begins at `target` (after `index` steps) with `tracker`.
    pub(super) fn new(target: &T, tracker: Tracker, index: u64, spdr: Option<u16>) -> Self {
        let at = Point {
            index,
            target: target.clone(),
            tracker,
        };
        LazyProvenance {
            checkpoints: vec![at.clone()],
            at,
            changes: Vec::new(),
            spacing: FIRST_SPACING,
            spdr,
            streak: None,
            retries: [Retry::default(); RETRY_SLOTS],
            tracked_steps: 0,
            skipped_steps: 0,
        }
    }

    /// The tracker after `index` steps: replays the steps it has not seen.
    /// `live` is the session's machine there, unless a change from outside
    /// is still to be noted; returns false if the replay did not arrive at
    /// its registers and cycles (a change from outside that was not noted:
    /// a bug), in which case the caller starts tracking afresh.
    pub(super) fn catch_up(&mut self, index: u64, live: Option<&T>) -> bool {
        // A checkpoint between here and there is on this timeline: start
        // from the newest one (after a step back, the way forward again is
        // mostly kept).
        if let Some(c) = self
            .checkpoints
            .iter()
            .rev()
            .find(|c| c.index <= index && c.index > self.at.index)
        {
            self.at = c.clone();
            self.streak = None;
        }
        let mut next = self.changes.partition_point(|(i, _)| *i < self.at.index);
        let mut probe = self.at.target.lcd_probe();
        loop {
            if let Some((i, state)) = self.changes.get(next) {
                if *i == self.at.index {
                    self.at.target = state.clone();
                    probe = self.at.target.lcd_probe();
                    self.streak = None;
                    next += 1;
                }
            }
            if self.at.index >= index {
                break;
            }
            // As `Debugger::step_once`: script actions between steps.
            self.at.target.script_poll();
            let before = TrackBefore::take_probed(&self.at.target, probe);
            let ts = self.at.target.step();
            probe = before.apply(&mut self.at.tracker, &self.at.target, &ts, self.spdr);
            self.at.index += 1;
            self.tracked_steps += 1;
            let from = before.regs.pc;
            if self.at.target.cpu().regs.pc <= from {
                // A poll loop's further iterations read what this one read
                // and change nothing the tracker holds: skipped (up to the
                // next outside change and the goal). The iteration that
                // meets an event may be among them: the byte the LCD takes
                // then is noted as a step's would be.
                let stop = self.changes.get(next).map_or(index, |(i, _)| index.min(*i));
                let mut n = self.at.target.skip_poll_loop(from, stop - self.at.index);
                if n == 0 {
                    n = self.repeating_loop(from, stop - self.at.index);
                }
                if n > 0 {
                    self.at.index += n;
                    self.skipped_steps += n;
                    let after = self.at.target.lcd_probe();
                    lcd_moved(&mut self.at.tracker, probe, after, self.spdr);
                    probe = after;
                }
            }
            let newest = self.checkpoints.last().map_or(0, |c| c.index);
            if self.at.index >= newest + self.spacing && self.at.index < index {
                self.checkpoint();
            }
        }
        live.is_none_or(|live| {
            let (a, b) = (self.at.target.cpu(), live.cpu());
            a.regs == b.regs && self.at.target.cycles() == live.cycles()
        })
    }

    /// At a jump back from `from` to the replay's PC: follows an exactly
    /// repeating loop there. Measures the loop on a copy of the machine
    /// (its first visit, or after a backoff); once it is found alike,
    /// counts the iterations tracked, and when [`ALIKE_TRACKED`] are, runs
    /// the rest of them (at most `max_steps` steps) without the tracker.
    /// Returns the steps run so.
    fn repeating_loop(&mut self, from: u16, max_steps: u64) -> u64 {
        if !self.at.target.closes_loop(from) {
            return 0;
        }
        let head = self.at.target.cpu().regs.pc;
        let now = self.at.target.cycles();
        if let Some(st) = self.streak.as_mut() {
            if st.head == head && st.from == from && now < st.alike_until {
                st.tracked += 1;
                // Short of a whole iteration the replay's goal is near:
                // the loop is followed on from there next time.
                if st.tracked < ALIKE_TRACKED || max_steps < st.period {
                    return 0;
                }
                let mut copy = self.at.target.clone();
                if let Some(r) = copy.run_repeating_loop(max_steps) {
                    self.at.target = copy;
                    // Still alike after these: the next visit goes on.
                    st.alike_until = st.alike_until.min(r.alike_until);
                    return r.steps;
                }
                self.streak = None;
                return 0;
            }
            if st.head == head {
                self.streak = None;
            }
        }
        let slot = usize::from(head) % RETRY_SLOTS;
        let retry = self.retries[slot];
        if retry.head == head && self.at.index < retry.at_index {
            return 0;
        }
        // One iteration is run to measure it: on a copy, since an
        // iteration that does not repeat must be tracked step by step.
        let mut copy = self.at.target.clone();
        match copy.run_repeating_loop(PROBE_STEPS) {
            Some(r) if now < r.alike_until => {
                self.retries[slot] = Retry::default();
                self.streak = Some(Streak {
                    head,
                    from,
                    period: r.period_steps,
                    tracked: 0,
                    alike_until: r.alike_until,
                });
            }
            _ => {
                let shift = if retry.head == head {
                    (retry.shift + 1).min(MAX_RETRY_SHIFT)
                } else {
                    0
                };
                self.retries[slot] = Retry {
                    head,
                    at_index: self.at.index + (RETRY_STEPS << shift),
                    shift,
                };
            }
        }
        0
    }

    fn checkpoint(&mut self) {
        // Compacted first: a checkpoint's copy is then only as big as the
        // history it must keep.
        self.at.tracker.compact();
        self.checkpoints.push(self.at.clone());
        if self.checkpoints.len() > MAX_CHECKPOINTS {
            let mut keep = 0;
            self.checkpoints.retain(|_| {
                keep += 1;
                keep % 2 == 1
            });
            self.spacing *= 2;
        }
    }

    /// The session went back to step `index` (on the same timeline): the
    /// tracker resumes from the newest checkpoint at or before it. False if
    /// `index` lies before tracking began.
    pub(super) fn rewind(&mut self, index: u64) -> bool {
        if self.at.index <= index {
            return true;
        }
        match self.checkpoints.iter().rev().find(|c| c.index <= index) {
            Some(c) => {
                self.at = c.clone();
                self.streak = None;
                true
            }
            None => false,
        }
    }

    /// The machine is about to be changed from outside after `index` steps:
    /// what was noted past that point belongs to a future that will not
    /// happen now.
    pub(super) fn changing_at(&mut self, index: u64) {
        self.checkpoints.retain(|c| c.index <= index);
        self.changes.retain(|(i, _)| *i <= index);
    }

    /// `target` is the state set from outside after `index` steps (replays
    /// take it there).
    pub(super) fn changed(&mut self, index: u64, target: &T) {
        self.changes.retain(|(i, _)| *i < index);
        self.changes.push((index, target.clone()));
        if self.changes.len() > MAX_CHANGES {
            // Tracking's start moves here: catch up, keep only this point.
            self.catch_up(index, None);
            self.checkpoints = vec![self.at.clone()];
            self.changes.clear();
        }
    }

    /// The tracker as far as it has come (after [`LazyProvenance::catch_up`]).
    pub(super) fn tracker(&self) -> &Tracker {
        &self.at.tracker
    }

    /// Checkpoints and outside states kept (for tests and statistics).
    pub(super) fn kept(&self) -> (usize, usize) {
        (self.checkpoints.len(), self.changes.len())
    }

    /// Steps replayed with the tracker and steps skipped, since tracking
    /// began (for tests and statistics).
    pub(super) fn replayed(&self) -> (u64, u64) {
        (self.tracked_steps, self.skipped_steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debug::provenance::RegByte;
    use crate::debug::target::Bare;

    /// A loop that reads each byte of a table, adds 3 and stores it one
    /// further on (so every chain runs back through earlier iterations).
    const CODE: [u8; 17] = [
        0xCE, 0x01, 0x00, // ldx #$0100
        0xA6, 0x00, // ldaa 0,x
        0x8B, 0x03, // adda #3
        0xA7, 0x01, // staa 1,x
        0x08, // inx
        0x8C, 0x01, 0xF0, // cpx #$01F0
        0x26, 0xF4, // bne $C003
        0x20, 0xEF, // bra $C000
    ];

    fn answers(t: &Tracker) -> Vec<Vec<crate::debug::provenance::Link>> {
        let mut out: Vec<_> = (0x0100u16..0x01F2)
            .map(|a| t.chain(t.mem_node(a), 24))
            .collect();
        for r in [RegByte::A, RegByte::Xh, RegByte::Xl] {
            out.push(t.chain(t.reg_node(r), 24));
        }
        out
    }

    #[test]
    fn thinned_checkpoints_and_rewinds_give_the_tracked_answers() {
        let start = Bare::from_bytes(0xC000, &CODE);
        // The reference: every step tracked as it runs, answers noted.
        let (mut m, mut t) = (start.clone(), Tracker::new());
        let at = [10u64, 900, 5_000, 12_345, 20_000, 3_333, 19_999, 64, 20_000];
        let mut want = std::collections::BTreeMap::new();
        for i in 1..=20_000u64 {
            let before = TrackBefore::take(&m);
            let ts = m.step();
            before.apply(&mut t, &m, &ts, None);
            if at.contains(&i) {
                want.insert(i, answers(&t));
            }
        }
        let mut lazy = LazyProvenance::new(&start, Tracker::new(), 0, None);
        lazy.spacing = 64;
        for &i in &at {
            assert!(lazy.rewind(i), "index {i} is after tracking began");
            assert!(lazy.catch_up(i, None));
            assert_eq!(Some(&answers(lazy.tracker())), want.get(&i), "index {i}");
        }
        // 20,000 steps at 64 apart would be 312 checkpoints: thinned.
        let (kept, _) = lazy.kept();
        assert!(kept <= MAX_CHECKPOINTS, "{kept} checkpoints");
        assert!(lazy.spacing > 64);
        assert_eq!(lazy.checkpoints.first().map(|c| c.index), Some(0));
        assert!(lazy.checkpoints.windows(2).all(|w| w[0].index < w[1].index));
    }
}

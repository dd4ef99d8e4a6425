//! History for reverse execution: snapshots of the whole state every K
//! E-cycles plus deterministic replay. The machine is plain data (design
//! convention 5), so a snapshot is a clone; going back to step N restores the
//! nearest snapshot at or before N and replays forward, which gives exactly
//! the state the forward run had there (registers, memory, devices, LCD,
//! serial, key script). K adapts so the snapshots stay within a memory budget.

/// Default memory budget for snapshots.
pub const DEFAULT_BUDGET: usize = 64 << 20;
/// First snapshot interval, in E-cycles (doubled whenever the budget is hit).
pub const INITIAL_INTERVAL: u64 = 20_000;

/// One saved state.
#[derive(Clone, Debug)]
pub struct Snapshot<S> {
    /// Steps executed before this state (the time coordinate of the history).
    pub index: u64,
    /// E-cycle count of the state.
    pub cycles: u64,
    /// Estimated heap bytes of `state`.
    pub bytes: usize,
    /// Never thinned: the state right after a change from outside (a key
    /// pressed by hand), which replay from an older snapshot cannot rebuild.
    pub pinned: bool,
    /// The state.
    pub state: S,
}

/// Snapshots in step order with an adaptive interval.
#[derive(Clone, Debug)]
pub struct History<S> {
    snaps: Vec<Snapshot<S>>,
    budget: usize,
    interval: u64,
    used: usize,
    thinnings: u32,
    first_interval: u64,
}

impl<S: Clone> History<S> {
    /// An empty history with a budget in bytes (at least one snapshot is
    /// always kept, whatever the budget).
    pub fn new(budget: usize) -> Self {
        History {
            snaps: Vec::new(),
            budget,
            interval: INITIAL_INTERVAL,
            used: 0,
            thinnings: 0,
            first_interval: INITIAL_INTERVAL,
        }
    }

    /// An empty history with a given first interval in E-cycles.
    pub fn with_interval(budget: usize, interval: u64) -> Self {
        History {
            interval: interval.max(1),
            first_interval: interval.max(1),
            ..Self::new(budget)
        }
    }

    /// Cycles between snapshots now.
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// The budget in bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Bytes the snapshots hold (estimated).
    pub fn used(&self) -> usize {
        self.used
    }

    /// Number of snapshots.
    pub fn len(&self) -> usize {
        self.snaps.len()
    }

    /// True when nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.snaps.is_empty()
    }

    /// Times the interval was doubled to stay in budget.
    pub fn thinnings(&self) -> u32 {
        self.thinnings
    }

    /// True if a state at `cycles` should be recorded (the interval has
    /// passed since the last snapshot).
    #[inline]
    pub fn due(&self, cycles: u64) -> bool {
        match self.snaps.last() {
            Some(s) => cycles >= s.cycles.saturating_add(self.interval),
            None => true,
        }
    }

    /// The first E-cycle at which [`History::due`] is true.
    #[inline]
    pub fn next_due(&self) -> u64 {
        self.snaps
            .last()
            .map_or(0, |s| s.cycles.saturating_add(self.interval))
    }

    /// Records a state (callers record in increasing `index`; a state at or
    /// before the last snapshot replaces the future after it, see
    /// [`History::truncate_after`]).
    pub fn record(&mut self, index: u64, cycles: u64, state: S, bytes: usize) {
        self.insert(index, cycles, state, bytes, false);
    }

    /// Records the state right after a change from outside; it is never
    /// thinned away (see [`Snapshot::pinned`]).
    pub fn record_pinned(&mut self, index: u64, cycles: u64, state: S, bytes: usize) {
        self.insert(index, cycles, state, bytes, true);
    }

    fn insert(&mut self, index: u64, cycles: u64, state: S, bytes: usize, pinned: bool) {
        self.truncate_from(index);
        self.used += bytes;
        self.snaps.push(Snapshot {
            index,
            cycles,
            bytes,
            pinned,
            state,
        });
        while self.used > self.budget && self.snaps.iter().filter(|s| !s.pinned).count() > 2 {
            let before = self.snaps.len();
            self.thin();
            if self.snaps.len() == before {
                break;
            }
        }
    }

    /// Drops every other snapshot (the first always stays) and doubles the
    /// interval: the cost of going back doubles, the memory halves.
    fn thin(&mut self) {
        let mut i = 0usize;
        let last = self.snaps.len() - 1;
        self.snaps.retain(|s| {
            let keep = i == 0 || i % 2 == 0 || i == last || s.pinned;
            i += 1;
            keep
        });
        self.used = self.snaps.iter().map(|s| s.bytes).sum();
        self.interval = self.interval.saturating_mul(2);
        self.thinnings += 1;
    }

    /// Forgets snapshots after step `index` (the future changed: a key was
    /// pressed by hand, memory was edited).
    pub fn truncate_after(&mut self, index: u64) {
        self.truncate_from(index.saturating_add(1));
    }

    /// Forgets snapshots at step `index` and later.
    pub fn truncate_from(&mut self, index: u64) {
        while self.snaps.last().is_some_and(|s| s.index >= index) {
            if let Some(s) = self.snaps.pop() {
                self.used -= s.bytes;
            }
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.snaps.clear();
        self.used = 0;
        self.interval = self.first_interval;
        self.thinnings = 0;
    }

    /// The latest snapshot at or before step `index`.
    pub fn at_or_before(&self, index: u64) -> Option<&Snapshot<S>> {
        let i = self.snaps.partition_point(|s| s.index <= index);
        self.snaps.get(i.checked_sub(1)?)
    }

    /// The latest snapshot strictly before step `index`.
    pub fn before(&self, index: u64) -> Option<&Snapshot<S>> {
        self.at_or_before(index.checked_sub(1)?)
    }

    /// All snapshots, oldest first.
    pub fn snapshots(&self) -> &[Snapshot<S>] {
        &self.snaps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy deterministic machine: the state after n steps is a function of n.
    #[derive(Clone, Debug, PartialEq)]
    struct Toy {
        n: u64,
        acc: u64,
    }
    impl Toy {
        fn step(&mut self) {
            self.n += 1;
            self.acc = self
                .acc
                .wrapping_mul(6364136223846793005)
                .wrapping_add(self.n);
        }
    }

    fn goto(h: &History<Toy>, index: u64) -> Toy {
        let s = h.at_or_before(index).expect("first snapshot");
        let mut t = s.state.clone();
        while t.n < index {
            t.step();
        }
        t
    }

    #[test]
    fn replay_from_snapshots_is_exact_and_budget_holds() {
        let mut h = History::with_interval(1000, 7);
        let mut t = Toy { n: 0, acc: 1 };
        let mut states = vec![t.clone()];
        for _ in 0..10_000 {
            // One "cycle" per step for the toy.
            if h.due(t.n) {
                h.record(t.n, t.n, t.clone(), 100);
            }
            t.step();
            states.push(t.clone());
        }
        assert!(h.used() <= 1000, "{}", h.used());
        assert!(h.thinnings() > 0);
        assert_eq!(h.snapshots()[0].index, 0);
        for i in [0u64, 1, 17, 4999, 9999, 10_000] {
            assert_eq!(goto(&h, i), states[i as usize]);
        }
        assert_eq!(h.before(0).map(|s| s.index), None);
        assert_eq!(h.before(1).map(|s| s.index), Some(0));
    }

    #[test]
    fn truncation_and_rerecording() {
        let mut h = History::new(usize::MAX);
        for i in 0..10u64 {
            h.record(i * 10, i * 10, Toy { n: i * 10, acc: 0 }, 1);
        }
        h.truncate_after(45);
        assert_eq!(h.snapshots().last().map(|s| s.index), Some(40));
        assert_eq!(h.used(), 5);
        h.record(30, 30, Toy { n: 30, acc: 9 }, 1);
        assert_eq!(h.len(), 4);
        assert_eq!(h.at_or_before(35).map(|s| s.state.acc), Some(9));
        h.record(0, 0, Toy { n: 0, acc: 5 }, 1);
        assert_eq!(
            (h.len(), h.used()),
            (1, 1),
            "re-recording index 0 replaces it"
        );
    }

    #[test]
    fn pinned_snapshots_survive_thinning() {
        let mut h = History::with_interval(10, 1);
        h.record(0, 0, Toy { n: 0, acc: 0 }, 1);
        h.record_pinned(3, 3, Toy { n: 3, acc: 1 }, 1);
        for i in 4..100u64 {
            h.record(i, i, Toy { n: i, acc: 0 }, 1);
        }
        assert!(h.used() <= 10);
        assert!(h.snapshots().iter().any(|s| s.index == 3 && s.pinned));
    }
}

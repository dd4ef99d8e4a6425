//! Cycle profile per subroutine: calls, inclusive and exclusive E-cycles for
//! each label, built from the frames the call stack saw end (the cycle counts
//! are those of the M68HC11 RM's instruction tables, as the CPU core charges
//! them). This is what shows a student why `drawBoard` is slow.

use super::callstack::{Ended, Frame};
use crate::image::{Program, Symbol};
use rustc_hash::FxHashMap;
use serde::Serialize;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stat {
    calls: u64,
    inclusive: u64,
    exclusive: u64,
}

/// Slots of [`Rows`]' direct-mapped index.
const SLOTS: usize = 64;

/// The per-target statistics. A row is touched at every return, so a
/// hot subroutine's row is found through a small direct-mapped index by
/// address (one load and one compare); a miss asks the map, which knows
/// every row. (The map alone cost about 60 host instructions per return
/// in the debugger's fast path, callgrind, the 13-key game.)
#[derive(Clone, Debug)]
struct Rows {
    rows: Vec<(u16, Stat)>,
    /// Per slot, the index of the row last found there (0 is also "none
    /// yet": the target compare fails for it, and the map answers).
    slots: [u32; SLOTS],
    index: FxHashMap<u16, u32>,
}

impl Default for Rows {
    fn default() -> Self {
        Rows {
            rows: Vec::new(),
            slots: [0; SLOTS],
            index: FxHashMap::default(),
        }
    }
}

impl Rows {
    /// The row of `target`, made (zero) if it has none yet.
    #[inline]
    fn entry(&mut self, target: u16) -> &mut Stat {
        let slot = ((target ^ (target >> 6)) as usize) % SLOTS;
        let i = self.slots[slot] as usize;
        if self.rows.get(i).is_some_and(|r| r.0 == target) {
            return &mut self.rows[i].1;
        }
        self.entry_slow(target, slot)
    }

    #[inline(never)]
    fn entry_slow(&mut self, target: u16, slot: usize) -> &mut Stat {
        let next = self.rows.len() as u32;
        let i = *self.index.entry(target).or_insert(next);
        if i == next {
            self.rows.push((target, Stat::default()));
        }
        self.slots[slot] = i;
        &mut self.rows[i as usize].1
    }

    fn get(&self, target: u16) -> Option<&Stat> {
        let i = *self.index.get(&target)?;
        self.rows.get(i as usize).map(|r| &r.1)
    }

    fn iter(&self) -> impl Iterator<Item = &(u16, Stat)> {
        self.rows.iter()
    }
}

/// Equal when every target has the same statistics (the order rows were
/// made in and the index are bookkeeping).
impl PartialEq for Rows {
    fn eq(&self, o: &Rows) -> bool {
        self.rows.len() == o.rows.len() && self.iter().all(|(t, s)| o.get(*t) == Some(s))
    }
}

impl Eq for Rows {}

/// Accumulated per-target statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// Per call target.
    stats: Rows,
    /// Cycle count when profiling began.
    pub start_cycle: u64,
}

/// One row of the profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProfileRow {
    /// The subroutine's (or interrupt handler's) address.
    pub address: u16,
    /// Its label (`drawCell`), or `label+offset` / `$ADDR` if none starts there.
    pub label: String,
    /// Completed and still-running calls.
    pub calls: u64,
    /// Cycles from the JSR to the return, callees included (an activation
    /// inside another of the same subroutine is not counted twice).
    pub inclusive: u64,
    /// Cycles in the subroutine itself, callees excluded.
    pub exclusive: u64,
}

/// The whole profile, rows sorted by inclusive cycles, largest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProfileReport {
    /// Cycles covered (from the start of profiling to now).
    pub total_cycles: u64,
    /// Cycles outside any tracked subroutine (the main loop's own work).
    pub top_level_cycles: u64,
    /// One row per called address.
    pub rows: Vec<ProfileRow>,
}

impl Profile {
    /// Starts an empty profile at `now`.
    pub fn new(now: u64) -> Self {
        Profile {
            stats: Rows::default(),
            start_cycle: now,
        }
    }

    /// Accounts for frames that just ended; `live` is the stack after they
    /// were popped (to see whether the same subroutine is still active further
    /// out, i.e. recursion).
    pub fn on_ended(&mut self, ended: &[Ended], live: &[Frame], now: u64) {
        self.on_ended_logged(ended, live, now, None);
    }

    /// [`Profile::on_ended`], also noting what each ended frame added in
    /// `log` (for [`Profile::repeat`]).
    #[inline]
    pub(crate) fn on_ended_logged(
        &mut self,
        ended: &[Ended],
        live: &[Frame],
        now: u64,
        mut log: Option<&mut Vec<RowDelta>>,
    ) {
        if let [e] = ended {
            self.on_return(e, live, now, log);
            return;
        }
        for (i, e) in ended.iter().enumerate() {
            // Frames in `ended` after this one are further out than it.
            let outer_active = live
                .iter()
                .chain(ended[i + 1..].iter().map(|e| &e.frame))
                .any(|f| f.target == e.frame.target);
            self.add_ended(e, now, outer_active, log.as_deref_mut());
        }
    }

    /// [`Profile::on_ended_logged`] for one frame that ended (a return
    /// from the innermost call): only the live frames can be further out.
    /// In line, for the debugger's short way of a return, which runs at
    /// every RTS.
    #[inline(always)]
    pub(crate) fn on_return(
        &mut self,
        e: &Ended,
        live: &[Frame],
        now: u64,
        log: Option<&mut Vec<RowDelta>>,
    ) {
        let outer_active = live.iter().any(|f| f.target == e.frame.target);
        self.add_ended(e, now, outer_active, log);
    }

    /// Adds the ended frame `e`'s row, noting it in `log` if given.
    #[inline(always)]
    fn add_ended(
        &mut self,
        e: &Ended,
        now: u64,
        outer_active: bool,
        log: Option<&mut Vec<RowDelta>>,
    ) {
        let delta = add(
            &mut self.stats,
            &e.frame,
            now,
            outer_active,
            e.frame.child_cycles,
        );
        if let Some(log) = log {
            log.push(delta);
        }
    }

    /// Adds `k` times what the frames in `log` added: a loop iteration that
    /// repeats exactly, skipped `k` times by the fast-forward (each of its
    /// calls takes the same cycles, relative to its own start).
    pub(crate) fn repeat(&mut self, log: &[RowDelta], k: u64) {
        for d in log {
            let s = self.stats.entry(d.target);
            s.calls += k;
            s.inclusive += k * d.inclusive;
            s.exclusive += k * d.exclusive;
        }
    }

    /// The report, counting calls still running up to `now` as well.
    pub fn report(&self, live: &[Frame], now: u64, program: Option<&Program>) -> ProfileReport {
        let mut stats = self.stats.clone();
        // Each open frame's callee time is its closed children plus the open
        // frame right above it.
        let mut inner_inclusive = 0u64;
        for (i, f) in live.iter().enumerate().rev() {
            let outer_active = live[..i].iter().any(|g| g.target == f.target);
            add(
                &mut stats,
                f,
                now,
                outer_active,
                f.child_cycles + inner_inclusive,
            );
            inner_inclusive = now.saturating_sub(f.entry_cycle);
        }
        let total = now.saturating_sub(self.start_cycle);
        let mut rows: Vec<ProfileRow> = stats
            .iter()
            .map(|&(address, ref s)| ProfileRow {
                address,
                label: label_of(program, address),
                calls: s.calls,
                inclusive: s.inclusive,
                exclusive: s.exclusive,
            })
            .collect();
        rows.sort_by(|a, b| {
            b.inclusive
                .cmp(&a.inclusive)
                .then(a.address.cmp(&b.address))
        });
        let in_subroutines: u64 = rows.iter().map(|r| r.exclusive).sum();
        ProfileReport {
            total_cycles: total,
            top_level_cycles: total.saturating_sub(in_subroutines),
            rows,
        }
    }
}

/// What one ended frame added to its row (one call).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowDelta {
    target: u16,
    inclusive: u64,
    exclusive: u64,
}

#[inline(always)]
fn add(stats: &mut Rows, f: &Frame, now: u64, outer_active: bool, child: u64) -> RowDelta {
    let inclusive = now.saturating_sub(f.entry_cycle);
    let s = stats.entry(f.target);
    let delta = RowDelta {
        target: f.target,
        inclusive: if outer_active { 0 } else { inclusive },
        exclusive: inclusive.saturating_sub(child),
    };
    s.calls += 1;
    s.inclusive += delta.inclusive;
    s.exclusive += delta.exclusive;
    delta
}

/// `label`, `label+off` or `$ADDR` for an address.
pub fn label_of(program: Option<&Program>, addr: u16) -> String {
    label_text(program.and_then(|p| p.label_for(addr)), addr)
}

/// [`label_of`] from the label found for `addr` (by `label_for`).
pub fn label_text(found: Option<(&Symbol, u16)>, addr: u16) -> String {
    match found {
        Some((s, 0)) => s.name.clone(),
        Some((s, off)) if off < 0x100 => format!("{}+{off}", s.name),
        _ => format!("${addr:04X}"),
    }
}

impl ProfileReport {
    /// A fixed-width table for the terminal.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{:<24} {:>8} {:>14} {:>14} {:>6}\n",
            "subroutine", "calls", "inclusive", "exclusive", "incl%"
        );
        for r in &self.rows {
            let pct = if self.total_cycles == 0 {
                0.0
            } else {
                r.inclusive as f64 * 100.0 / self.total_cycles as f64
            };
            out.push_str(&format!(
                "{:<24} {:>8} {:>14} {:>14} {:>5.1}%\n",
                r.label, r.calls, r.inclusive, r.exclusive, pct
            ));
        }
        out.push_str(&format!(
            "total {} E-cycles, {} outside subroutines\n",
            self.total_cycles, self.top_level_cycles
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::callstack::{CallStack, Flow};
    use super::*;

    /// Drives a call stack + profile with calls at given cycle times.
    struct Sim {
        cs: CallStack,
        prof: Profile,
        sp: u16,
        mem: Vec<u8>,
    }
    impl Sim {
        fn call(&mut self, target: u16, t: u64) {
            let ret = 0xC000u16;
            self.mem[self.sp as usize] = ret as u8;
            self.mem[self.sp as usize - 1] = (ret >> 8) as u8;
            self.sp -= 2;
            let m = &self.mem;
            self.cs.apply(
                Flow::Call {
                    site: 0xC000,
                    target,
                },
                self.sp,
                target,
                t,
                t + 6,
                &|a| m[a as usize],
            );
            self.prof.on_ended(&self.cs.ended, self.cs.frames(), t);
        }
        fn ret(&mut self, t: u64) {
            let before = self.sp;
            self.sp += 2;
            let m = &self.mem;
            self.cs.apply(
                Flow::Return {
                    sp_before: before,
                    rti: false,
                },
                self.sp,
                0xC003,
                t - 5,
                t,
                &|a| m[a as usize],
            );
            self.prof.on_ended(&self.cs.ended, self.cs.frames(), t);
        }
    }

    #[test]
    fn inclusive_exclusive_and_recursion() {
        let mut s = Sim {
            cs: CallStack::new(),
            prof: Profile::new(0),
            sp: 0x3FFF,
            mem: vec![0; 0x4000],
        };
        // drawBoard (0xC100) at 10 calls drawCell (0xC200) twice, 20..50 and 60..100; returns at 120.
        s.call(0xC100, 10);
        s.call(0xC200, 20);
        s.ret(50);
        s.call(0xC200, 60);
        s.ret(100);
        s.ret(120);
        // A recursive routine 0xC300: 200..300 with an inner self-call 220..260.
        s.call(0xC300, 200);
        s.call(0xC300, 220);
        s.ret(260);
        s.ret(300);
        let r = s.prof.report(s.cs.frames(), 400, None);
        let row = |a: u16| {
            r.rows
                .iter()
                .find(|x| x.address == a)
                .cloned()
                .expect("row")
        };
        assert_eq!(
            (
                row(0xC100).calls,
                row(0xC100).inclusive,
                row(0xC100).exclusive
            ),
            (1, 110, 40)
        );
        assert_eq!(
            (
                row(0xC200).calls,
                row(0xC200).inclusive,
                row(0xC200).exclusive
            ),
            (2, 70, 70)
        );
        assert_eq!(
            (
                row(0xC300).calls,
                row(0xC300).inclusive,
                row(0xC300).exclusive
            ),
            (2, 100, 100)
        );
        assert_eq!(r.total_cycles, 400);
        assert_eq!(r.top_level_cycles, 400 - 40 - 70 - 100);
        assert_eq!(r.rows[0].address, 0xC100);
        assert!(r.to_text().contains("$C200"));
    }

    /// Rows found through the slot index add up as through a map, however
    /// many targets share a slot and in whatever order rows were made;
    /// equality compares the rows, not the order.
    #[test]
    fn rows_in_shared_slots_add_up_and_compare_by_target() {
        // All 40 in slot 0 (bits 0-5 equal to bits 6-11), and 40 more
        // spread over the slots.
        let mut targets: Vec<u16> = (0x300..0x328u16).map(|k| (k << 6) | (k & 63)).collect();
        targets.extend((0..40u16).map(|i| 0xD000 + i * 64));
        assert!(targets[..40].iter().all(|&t| (t ^ (t >> 6)) % 64 == 0));
        let mut a = Rows::default();
        let mut b = Rows::default();
        let mut want = std::collections::BTreeMap::new();
        for round in 0..3u64 {
            for (i, &t) in targets.iter().enumerate() {
                let n = (i as u64 + 1) * (round + 1);
                a.entry(t).calls += n;
                *want.entry(t).or_insert(0u64) += n;
            }
        }
        for (&t, &n) in want.iter().rev() {
            b.entry(t).calls += n;
        }
        assert_eq!(a.rows.len(), targets.len());
        for (&t, &n) in &want {
            assert_eq!(a.get(t).map(|s| s.calls), Some(n), "${t:04X}");
        }
        assert_eq!(a, b);
        b.entry(targets[3]).calls += 1;
        assert_ne!(a, b);
        let mut c = a.clone();
        c.entry(0x1234);
        assert_ne!(a, c);
    }

    #[test]
    fn open_frames_count_up_to_now() {
        let mut s = Sim {
            cs: CallStack::new(),
            prof: Profile::new(0),
            sp: 0x3FFF,
            mem: vec![0; 0x4000],
        };
        s.call(0xC100, 0);
        s.call(0xC200, 10);
        let r = s.prof.report(s.cs.frames(), 50, None);
        let row = |a: u16| {
            r.rows
                .iter()
                .find(|x| x.address == a)
                .cloned()
                .expect("row")
        };
        assert_eq!((row(0xC100).inclusive, row(0xC100).exclusive), (50, 10));
        assert_eq!((row(0xC200).inclusive, row(0xC200).exclusive), (40, 40));
    }
}

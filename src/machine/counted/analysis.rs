//! Whether two recorded iterations are a counted loop, and how far it may
//! be skipped (steps 2-5 of the argument in the parent module's doc): the
//! values that vary must move by fixed steps through affine instructions
//! only, and stay inside the halves that keep every flag and branch as it
//! was.

use super::Recorded;
use crate::board::Board;
use crate::cpu::registers::flags;
use crate::cpu::{Bus, Cpu, Op, Registers, RunState};

/// Why two iterations give no skip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reject {
    /// Not a counted loop.
    Kind,
    /// A counted loop with a value at a boundary now.
    Boundary,
}

/// What the skip does to the state, found by [`analyze`].
#[derive(Clone, Debug)]
pub(in crate::machine) struct Plan {
    /// Iterations that may be skipped after B at most.
    pub(super) k_max: u64,
    /// Each RAM byte the loop writes: (address, value at the end of A, at the end of B).
    bytes: Vec<(u16, u8, u8)>,
    /// The last step that may set H, if its operands vary: the register it
    /// adds to, before and after, in A and then in B.
    h: Option<[u8; 4]>,
    /// Set when no instruction of the loop reads N or V: the values then
    /// only had to stay clear of 0 and of wrapping, not inside their half,
    /// and N and V after the skip come from replaying the last skipped
    /// iteration ([`NvReplay`]).
    pub(super) nv: Option<NvReplay>,
}

/// What replaying an iteration of a loop that never reads N or V needs:
/// every value it reads is `a + n*(b-a)` in iteration n (A is 0), its
/// registers at the start likewise.
#[derive(Clone, Debug)]
pub(super) struct NvReplay {
    /// Each read of the iteration, in order: its value in A and in B.
    reads: Vec<(u8, u8)>,
    /// The registers at the start of A and of B.
    start: [Registers; 2],
    /// Instructions per iteration.
    steps: usize,
}

impl NvReplay {
    /// N and V (the rest of the CCR cleared) at the end of iteration `n`,
    /// from the CPU `cpu` (only its registers are replaced) stepping
    /// through the values that iteration reads. Exact because every value
    /// the loop computes is affine in `n` (`analyze`), and flags come from
    /// values only.
    pub(super) fn nv_after(&self, cpu: &Cpu, n: u64) -> u8 {
        // Iteration n is n - 1 steps after B.
        let k = n.saturating_sub(1);
        let [a, b] = &self.start;
        let mut cpu = cpu.clone();
        cpu.state = RunState::Running;
        cpu.regs = Registers {
            a: on8(a.a, b.a, k),
            b: on8(a.b, b.b, k),
            x: on16(a.x, b.x, k),
            y: on16(a.y, b.y, k),
            ..*b
        };
        let mut bus = ReplayBus {
            reads: self.reads.iter().map(|&(x, y)| on8(x, y, k)).collect(),
            next: 0,
        };
        for _ in 0..self.steps {
            cpu.step(&mut bus);
        }
        cpu.regs.ccr & (flags::N | flags::V)
    }
}

/// A value that was `x` in one iteration and `y` in the next, `k`
/// iterations after that (each moves it by `y - x`).
fn on8(x: u8, y: u8, k: u64) -> u8 {
    y.wrapping_add(y.wrapping_sub(x).wrapping_mul(k as u8))
}

/// [`on8`] for 16-bit values.
fn on16(x: u16, y: u16, k: u64) -> u16 {
    y.wrapping_add(y.wrapping_sub(x).wrapping_mul(k as u16))
}

/// A bus that answers the reads of a replayed iteration in order and
/// drops its writes (the skip writes the bytes itself).
struct ReplayBus {
    reads: Vec<u8>,
    next: usize,
}

impl Bus for ReplayBus {
    fn read(&mut self, _addr: u16) -> u8 {
        let v = self.reads.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        v
    }

    fn peek(&self, _addr: u16) -> u8 {
        0
    }

    fn write(&mut self, _addr: u16, _value: u8) {}
}

/// The bounds on iterations a varying value gives.
struct Bounds {
    k_max: u64,
    /// The loop reads neither N nor V: a value may cross $80, only not
    /// reach 0 or wrap (which Z and C would tell).
    relaxed: bool,
}

impl Bounds {
    /// Notes a value that is `a` in iteration A and `b` in B, `wide` bits
    /// wide (8 or 16): iterations after B it may be skipped over while
    /// `a + n*(b-a)` stays strictly inside a's half, for n up to k+1.
    fn note(&mut self, a: u16, b: u16, wide: bool) -> Result<(), Reject> {
        if a == b {
            return Ok(());
        }
        let (top, half) = if wide {
            (0xFFFF_i64, 0x8000_i64)
        } else {
            (0xFF, 0x80)
        };
        let relaxed = self.relaxed;
        let half_of = |v: i64| match v {
            v if relaxed && v >= 1 && v <= top => Some((1, top)),
            v if v >= 1 && v < half => Some((1, half - 1)),
            v if v > half && v <= top => Some((half + 1, top)),
            _ => None,
        };
        let (a, b) = (i64::from(a), i64::from(b));
        let (Some(ha), Some(hb)) = (half_of(a), half_of(b)) else {
            return Err(Reject::Boundary);
        };
        if ha != hb {
            return Err(Reject::Boundary);
        }
        let d = b - a;
        // Largest n with a + n*d still inside: n = room / |d|.
        let room = if d > 0 { ha.1 - a } else { a - ha.0 };
        let n = room / d.abs();
        // Iterations after B: n - 1 (iteration B is n = 1).
        let k = u64::try_from(n - 1).unwrap_or(0);
        self.k_max = self.k_max.min(k);
        if k == 0 {
            return Err(Reject::Boundary);
        }
        Ok(())
    }

    fn note_regs(&mut self, a: &Registers, b: &Registers) -> Result<(), Reject> {
        self.note(a.a.into(), b.a.into(), false)?;
        self.note(a.b.into(), b.b.into(), false)?;
        self.note(a.x, b.x, true)?;
        self.note(a.y, b.y, true)
    }
}

/// Instructions whose results are their operands plus or minus constants
/// or other operands, with flags from those values only (RM appendix A):
/// the only ones a varying value may pass through.
fn is_affine(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        Bra | Brn
            | Jmp
            | Jsr
            | Bsr
            | Rts
            | Nop
            | Bcc
            | Bcs
            | Beq
            | Bge
            | Bgt
            | Bhi
            | Ble
            | Bls
            | Blt
            | Bmi
            | Bne
            | Bpl
            | Bvc
            | Bvs
            | Ldaa
            | Ldab
            | Ldd
            | Ldx
            | Ldy
            | Staa
            | Stab
            | Std
            | Stx
            | Sty
            | Tab
            | Tba
            | Psha
            | Pshb
            | Pshx
            | Pshy
            | Pula
            | Pulb
            | Pulx
            | Puly
            | Xgdx
            | Xgdy
            | Clr
            | Clra
            | Clrb
            | Adda
            | Addb
            | Aba
            | Suba
            | Subb
            | Sba
            | Addd
            | Subd
            | Inc
            | Inca
            | Incb
            | Dec
            | Deca
            | Decb
            | Inx
            | Dex
            | Iny
            | Dey
            | Cmpa
            | Cmpb
            | Cba
            | Cpd
            | Cpx
            | Cpy
            | Tst
            | Tsta
            | Tstb
    )
}

/// Instructions that read N or V (RM appendix A): the branches on them,
/// and those that copy or stack the whole CCR.
fn reads_n_or_v(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        Bmi | Bpl | Bvs | Bvc | Bge | Blt | Bgt | Ble | Tpa | Swi | Wai
    )
}

/// Instructions that may change H (RM appendix A; DAA, TAP and RTI
/// included to be safe).
fn may_set_h(op: Op) -> bool {
    use Op::*;
    matches!(op, Adda | Addb | Aba | Adca | Adcb | Daa | Tap | Rti)
}

/// The difference a compare forms (the flags come from it), 8 or 16 bits
/// wide, from the registers before the step and the bytes it read last
/// (the operand: immediate bytes are read as the last fetches).
fn compare_difference(op: Op, before: &Registers, reads: &[(u16, u8)]) -> Option<(u16, bool)> {
    let last = |n: usize| reads.get(reads.len().checked_sub(n)?).map(|r| r.1);
    let word = || Some(u16::from_be_bytes([last(2)?, last(1)?]));
    let d = u16::from_be_bytes([before.a, before.b]);
    match op {
        Op::Cmpa => Some((u16::from(before.a.wrapping_sub(last(1)?)), false)),
        Op::Cmpb => Some((u16::from(before.b.wrapping_sub(last(1)?)), false)),
        Op::Cba => Some((u16::from(before.a.wrapping_sub(before.b)), false)),
        Op::Cpd => Some((d.wrapping_sub(word()?), true)),
        Op::Cpx => Some((before.x.wrapping_sub(word()?), true)),
        Op::Cpy => Some((before.y.wrapping_sub(word()?), true)),
        _ => None,
    }
}

/// Decides whether iterations A and B (with the registers at the start of
/// A, the end of A and the end of B) are a counted loop, and how far it
/// may be skipped.
pub(super) fn analyze(
    a: &Recorded,
    b: &Recorded,
    regs: [&Registers; 3],
    is_ram: impl Fn(u16) -> bool,
) -> Result<Plan, Reject> {
    if a.steps.len() != b.steps.len() || a.steps.is_empty() {
        return Err(Reject::Kind);
    }
    let [s0, s1, s2] = regs;
    // No instruction reads N or V: they may differ between iterations
    // (nothing's path depends on them) and are replayed for the end.
    let relaxed = !a.steps.iter().any(|r| reads_n_or_v(r.op));
    let mut bounds = Bounds {
        k_max: u64::MAX,
        relaxed,
    };
    // The CCR bits that must be the same in A and B: all but H, and but N
    // and V when nothing reads them.
    let free = if relaxed { flags::N | flags::V } else { 0 };
    let mut h_varies = false;
    let mut all_affine = true;
    let mut h_writer = None;
    for (ra, rb) in a.steps.iter().zip(&b.steps) {
        let (reads_a, reads_b) = (a.reads_of(ra), b.reads_of(rb));
        let (writes_a, writes_b) = (a.writes_of(ra), b.writes_of(rb));
        let same_path = ra.pc == rb.pc
            && ra.cycles == rb.cycles
            && ra.op == rb.op
            && reads_a.len() == reads_b.len()
            && writes_a.len() == writes_b.len()
            && reads_a.iter().zip(reads_b).all(|(x, y)| x.0 == y.0)
            && writes_a.iter().zip(writes_b).all(|(x, y)| x.0 == y.0);
        if !same_path {
            return Err(Reject::Kind);
        }
        // SP never varies; the flags but H (and free N, V) only at a boundary.
        let keep = !(flags::H | free);
        if ra.before.sp != rb.before.sp
            || ra.after.sp != rb.after.sp
            || (ra.before.ccr ^ rb.before.ccr) & keep != 0
            || (ra.after.ccr ^ rb.after.ccr) & keep != 0
        {
            return Err(Reject::Boundary);
        }
        // An instruction that reads no N or V sees the same input whatever
        // they hold.
        let masked = |r: &Registers| Registers {
            ccr: r.ccr & !free,
            ..*r
        };
        let same_in = masked(&ra.before) == masked(&rb.before) && reads_a == reads_b;
        all_affine &= is_affine(ra.op);
        if may_set_h(ra.op) {
            h_writer = None;
        }
        if same_in {
            continue;
        }
        if !is_affine(ra.op) {
            return Err(Reject::Kind);
        }
        // A differing read must be of RAM the loop counts in, never a device.
        for (x, y) in reads_a.iter().zip(reads_b) {
            if x.1 != y.1 && !is_ram(x.0) {
                return Err(Reject::Kind);
            }
            bounds.note(x.1.into(), y.1.into(), false)?;
        }
        for (x, y) in writes_a.iter().zip(writes_b) {
            bounds.note(x.2.into(), y.2.into(), false)?;
        }
        bounds.note_regs(&ra.before, &rb.before)?;
        bounds.note_regs(&ra.after, &rb.after)?;
        if let (Some((da, wide)), Some((db, _))) = (
            compare_difference(ra.op, &ra.before, reads_a),
            compare_difference(rb.op, &rb.before, reads_b),
        ) {
            bounds.note(da, db, wide)?;
        }
        if may_set_h(ra.op) {
            h_varies = true;
            let pick = |r: &Registers| if ra.op == Op::Addb { r.b } else { r.a };
            h_writer = Some([
                pick(&ra.before),
                pick(&ra.after),
                pick(&rb.before),
                pick(&rb.after),
            ]);
        }
    }
    if h_varies && !all_affine {
        return Err(Reject::Kind);
    }
    // The loop's state moves by the same step in each iteration: the start
    // of A, the end of A and the end of B are evenly spaced.
    let even8 = |x: u8, y: u8, z: u8| y.wrapping_sub(x) == z.wrapping_sub(y);
    let even16 = |x: u16, y: u16, z: u16| y.wrapping_sub(x) == z.wrapping_sub(y);
    let h_mask = if h_varies { !flags::H } else { 0xFF } & !free;
    if !(even8(s0.a, s1.a, s2.a)
        && even8(s0.b, s1.b, s2.b)
        && even16(s0.x, s1.x, s2.x)
        && even16(s0.y, s1.y, s2.y)
        && s0.sp == s1.sp
        && s1.sp == s2.sp
        && (s0.ccr ^ s1.ccr) & h_mask == 0
        && (s1.ccr ^ s2.ccr) & h_mask == 0)
    {
        return Err(Reject::Kind);
    }
    bounds.note_regs(s1, s2)?;
    let mut bytes = Vec::new();
    for (addr, start, end_a, end_b) in written_bytes(a, b) {
        if !even8(start, end_a, end_b) {
            return Err(Reject::Kind);
        }
        bounds.note(end_a.into(), end_b.into(), false)?;
        // The loop must not write its own code.
        if a.steps.iter().any(|r| addr.wrapping_sub(r.pc) < r.len) {
            return Err(Reject::Kind);
        }
        bytes.push((addr, end_a, end_b));
    }
    let nv = relaxed.then(|| NvReplay {
        reads: a
            .reads
            .iter()
            .zip(&b.reads)
            .map(|(x, y)| (x.1, y.1))
            .collect(),
        start: [*s0, *s1],
        steps: a.steps.len(),
    });
    Ok(Plan {
        k_max: bounds.k_max,
        bytes,
        h: h_writer,
        nv,
    })
}

/// Each RAM byte an iteration wrote: (address, before A, end of A, end of B).
fn written_bytes(a: &Recorded, b: &Recorded) -> Vec<(u16, u8, u8, u8)> {
    let mut out: Vec<(u16, u8, u8, u8)> = Vec::new();
    for (&(addr, old, new), &(_, _, new_b)) in a.writes.iter().zip(&b.writes) {
        match out.iter_mut().find(|e| e.0 == addr) {
            Some(e) => {
                e.2 = new;
                e.3 = new_b;
            }
            None => out.push((addr, old, new, new_b)),
        }
    }
    out
}

impl Plan {
    /// Moves the state at the end of B (`regs`, `board`) on by `k`
    /// iterations; `s1` are the registers at the end of A.
    pub(super) fn apply(&self, k: u64, s1: Registers, regs: &mut Registers, board: &mut Board) {
        let s2 = *regs;
        // Every value stays inside its range (no wrap), so steps of k as
        // wrapping arithmetic are exact.
        regs.a = on8(s1.a, s2.a, k);
        regs.b = on8(s1.b, s2.b, k);
        regs.x = on16(s1.x, s2.x, k);
        regs.y = on16(s1.y, s2.y, k);
        if let Some([before_a, after_a, before_b, after_b]) = self.h {
            // H of that ADD in the last skipped iteration (k after B): the
            // carry out of bit 3 is bit 4 of operand ^ addend ^ sum, and
            // the addend is the sum minus the operand.
            let before = on8(before_a, before_b, k);
            let after = on8(after_a, after_b, k);
            let addend = after.wrapping_sub(before);
            let h = (before ^ addend ^ after) & 0x10 != 0;
            regs.ccr = (regs.ccr & !flags::H) | if h { flags::H } else { 0 };
        }
        for &(addr, end_a, end_b) in &self.bytes {
            board.write(addr, on8(end_a, end_b, k));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(a: u16, b: u16, wide: bool) -> Result<u64, Reject> {
        bounded(a, b, wide, false)
    }

    fn bounded(a: u16, b: u16, wide: bool, relaxed: bool) -> Result<u64, Reject> {
        let mut bounds = Bounds {
            k_max: u64::MAX,
            relaxed,
        };
        bounds.note(a, b, wide).map(|()| bounds.k_max)
    }

    /// With N and V unread, a value may cross $80 (and $8000), never
    /// reach 0 or wrap.
    #[test]
    fn a_loop_that_reads_no_n_or_v_counts_across_the_halves() {
        // 5, 6, ... 255: iterations 2..=k+1 after B end at 5 + (k+1) <= 255.
        assert_eq!(bounded(5, 6, false, true), Ok(249));
        assert_eq!(bounded(0x7E, 0x7F, false, true), Ok(128));
        // Down from $85 by 2 to $01.
        assert_eq!(bounded(0x85, 0x83, false, true), Ok(65));
        assert_eq!(bounded(0x8001, 0x8000, true, true), Ok(0x7FFF));
        for (a, b) in [(0x00, 0x01), (0xFF, 0x00), (0x01, 0x00), (0xFE, 0xFF)] {
            assert_eq!(
                bounded(a, b, false, true),
                Err(Reject::Boundary),
                "{a:02X} {b:02X}"
            );
        }
    }

    #[test]
    fn a_counter_may_run_up_to_its_half_but_not_onto_its_edge() {
        // 5, 6, ... 127: iterations 2..=k+1 after B end at 5 + (k+1) <= 127.
        assert_eq!(k(5, 6, false), Ok(121));
        // Down from $85 by 2: $83, ... $81, the last value inside.
        assert_eq!(k(0x85, 0x83, false), Ok(1));
        // A 16-bit DEX counter from $7000.
        assert_eq!(k(0x7000, 0x6FFF, true), Ok(0x6FFE));
        // Unchanged values bound nothing.
        assert_eq!(k(0, 0, false), Ok(u64::MAX));
    }

    #[test]
    fn values_on_a_boundary_or_across_one_skip_nothing() {
        for (a, b) in [
            (0x00, 0x01),
            (0x7F, 0x80),
            (0x80, 0x81),
            (0xFF, 0x00),
            (0x7E, 0x7F),
        ] {
            assert_eq!(k(a, b, false), Err(Reject::Boundary), "{a:02X} {b:02X}");
        }
        assert_eq!(k(0x8000, 0x7FFF, true), Err(Reject::Boundary));
        assert_eq!(k(0x0001, 0x0000, true), Err(Reject::Boundary));
    }
}

//! Breakpoints: where (an address, a label or a source line), when (an
//! optional condition and hit count) and whether (enabled). A breakpoint stops
//! *before* the instruction at its address runs, as a hardware breakpoint on
//! the opcode fetch would (M68HC11 RM section 3, the fetch/execute cycle).
//!
//! Spec grammar (what `--break` and the GUI's breakpoint box accept):
//! ```text
//! spec     := location [ ":" N ] [ " if " condition ]
//! location := "$"HEX | "0x"HEX                  an address
//!           | NAME [ ("+"|"-") NUMBER ]         a label, optionally offset
//!           | FILE ":" LINE                     a source line; FILE has a `.` or `/`
//! ```
//! `:N` stops from the Nth hit on (hits counted only when the condition
//! holds). The condition grammar is in [`super::condition`]. Labels and lines
//! are kept by name and re-resolved when the program is re-assembled.
//!
//! Owns: breakpoint specs (parsed and placed, in `spec.rs`) and a session's
//! set of breakpoints with their visits. Must not know about: the session
//! that visits them or the machine's run loop (it gets the addresses as a
//! [`crate::machine::Breakpoints`] bit set).

mod spec;

use super::condition::{BoundExpr, EvalContext, Reg};
use crate::image::{FileId, Program};

pub use spec::{find_file, BreakError, BreakSpec, Location, Resolved};

/// What a visit to breakpoint addresses found ([`Breakpoints::visit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visit {
    /// The breakpoint whose hit count was reached, if any.
    pub stop: Option<u32>,
    /// No condition read what time changes: the same inputs at another
    /// time give the same answer (and count the same hits), until the
    /// next device event if `steady` (see [`ReadKind::Steady`]).
    pub repeats: bool,
    /// A condition read a device register whose value changes only at
    /// device events.
    pub steady: bool,
}

/// What a condition's read of an address depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadKind {
    /// Memory: it changes only when the program writes it.
    Memory,
    /// A device register whose value changes only at a device event or a
    /// write of the program's (the keys on PIO_B, SPSR and SCSR with no
    /// flag set, the A/D results): a loop skip that ends before the next
    /// event sees it the same at every visit.
    Steady,
    /// A register that changes as time passes (TCNT) or at the timer's
    /// events, which a skip may pass (the timer block, PORTA), or one
    /// whose read has an effect: every visit must be asked.
    Timed,
}

/// One value a condition read: a register or a byte of memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConditionInput {
    /// A register and its value.
    Reg(Reg, u64),
    /// A memory address and the byte there.
    Byte(u16, u8),
}

/// Evaluates through `inner`, noting what the condition read and whether
/// any of it was the cycle count or a timed or steady device register
/// ([`ReadKind`]).
struct Noting<'a, 'v> {
    inner: &'a dyn EvalContext,
    read_kind: &'a dyn Fn(u16) -> ReadKind,
    timed: std::cell::Cell<bool>,
    steady: std::cell::Cell<bool>,
    inputs: std::cell::RefCell<&'v mut Vec<ConditionInput>>,
}

impl EvalContext for Noting<'_, '_> {
    fn reg(&self, reg: Reg) -> u64 {
        if reg == Reg::Cycles {
            self.timed.set(true);
        }
        let v = self.inner.reg(reg);
        self.inputs.borrow_mut().push(ConditionInput::Reg(reg, v));
        v
    }

    fn peek(&self, addr: u16) -> u8 {
        match (self.read_kind)(addr) {
            ReadKind::Memory => {}
            ReadKind::Steady => self.steady.set(true),
            ReadKind::Timed => self.timed.set(true),
        }
        let v = self.inner.peek(addr);
        self.inputs.borrow_mut().push(ConditionInput::Byte(addr, v));
        v
    }
}

/// One breakpoint of a [`Breakpoints`] set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakpoint {
    /// Stable id (`#1`, `#2`, ...).
    pub id: u32,
    /// As written.
    pub spec: BreakSpec,
    /// Disabled breakpoints keep their place and count nothing.
    pub enabled: bool,
    /// Condition-true arrivals so far.
    pub hits: u32,
    /// Where it is placed; empty while unresolved.
    pub addrs: Vec<u16>,
    /// For line breakpoints: the line actually used.
    pub line: Option<(FileId, u32)>,
    /// Why it could not be placed in the current program (after a re-assembly).
    pub error: Option<String>,
    condition: Option<BoundExpr>,
}

impl Breakpoint {
    /// Puts the breakpoint where `r` (its spec resolved in a program) says.
    fn place(&mut self, r: Resolved) {
        self.addrs = r.addrs;
        self.line = r.line;
        self.condition = r.condition;
        self.error = None;
    }
}

/// The breakpoints of a session, with a one-bit-per-address index so the run
/// loop's check is a single load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakpoints {
    list: Vec<Breakpoint>,
    /// The enabled breakpoints' addresses, in the machine's form (a run
    /// takes a copy: one block copy, not a walk over the bits).
    bits: crate::machine::Breakpoints,
    next_id: u32,
}

impl Default for Breakpoints {
    fn default() -> Self {
        Breakpoints {
            list: Vec::new(),
            bits: crate::machine::Breakpoints::new(),
            next_id: 1,
        }
    }
}

impl Breakpoints {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses, places and adds a breakpoint; returns its id.
    pub fn add_spec(&mut self, text: &str, program: &Program) -> Result<u32, BreakError> {
        let spec = BreakSpec::parse(text)?;
        self.add(spec, program)
    }

    /// Places and adds a parsed spec; returns its id.
    pub fn add(&mut self, spec: BreakSpec, program: &Program) -> Result<u32, BreakError> {
        let r = spec.resolve(program)?;
        let id = self.next_id;
        self.next_id += 1;
        self.list.push(Breakpoint {
            id,
            spec,
            enabled: true,
            hits: 0,
            addrs: r.addrs,
            line: r.line,
            error: None,
            condition: r.condition,
        });
        self.reindex();
        Ok(id)
    }

    /// Replaces a breakpoint's spec in place (same id, same place in the
    /// list, enabled state kept, hits counted from zero). On an error the
    /// breakpoint is left as it was.
    pub fn replace(
        &mut self,
        id: u32,
        spec: BreakSpec,
        program: &Program,
    ) -> Result<(), BreakError> {
        let r = spec.resolve(program)?;
        let b = self
            .list
            .iter_mut()
            .find(|b| b.id == id)
            .ok_or(BreakError::NoSuchId(id))?;
        b.spec = spec;
        b.hits = 0;
        b.place(r);
        self.reindex();
        Ok(())
    }

    /// Removes a breakpoint.
    pub fn remove(&mut self, id: u32) -> Result<(), BreakError> {
        let before = self.list.len();
        self.list.retain(|b| b.id != id);
        if self.list.len() == before {
            return Err(BreakError::NoSuchId(id));
        }
        self.reindex();
        Ok(())
    }

    /// Removes every breakpoint.
    pub fn clear(&mut self) {
        self.list.clear();
        self.reindex();
    }

    /// Enables or disables a breakpoint.
    pub fn set_enabled(&mut self, id: u32, enabled: bool) -> Result<(), BreakError> {
        let b = self
            .list
            .iter_mut()
            .find(|b| b.id == id)
            .ok_or(BreakError::NoSuchId(id))?;
        b.enabled = enabled;
        self.reindex();
        Ok(())
    }

    /// All breakpoints, in creation order.
    pub fn list(&self) -> &[Breakpoint] {
        &self.list
    }

    /// Resets every hit counter (after a machine reset).
    pub fn reset_hits(&mut self) {
        for b in &mut self.list {
            b.hits = 0;
        }
    }

    /// Re-resolves every breakpoint against a re-assembled program: labels
    /// and lines by name. Those that no longer resolve stay in the list,
    /// unplaced, with [`Breakpoint::error`] saying why.
    pub fn rebind(&mut self, program: &Program) {
        for b in &mut self.list {
            match b.spec.resolve(program) {
                Ok(r) => b.place(r),
                Err(e) => {
                    b.addrs.clear();
                    b.line = None;
                    b.condition = None;
                    b.error = Some(e.to_string());
                }
            }
        }
        self.reindex();
    }

    fn reindex(&mut self) {
        self.bits = self
            .list
            .iter()
            .filter(|b| b.enabled)
            .flat_map(|b| b.addrs.iter().copied())
            .collect();
    }

    /// True if some enabled breakpoint sits at `pc` (cheap; call per instruction).
    #[inline]
    pub fn maybe_at(&self, pc: u16) -> bool {
        self.bits.contains(pc)
    }

    /// Every address with an enabled breakpoint, as the machine's set (so a
    /// run on the machine's fast path stops there and asks the session).
    pub fn addresses(&self) -> crate::machine::Breakpoints {
        self.bits.clone()
    }

    /// Counts a hit for every enabled breakpoint at `pc` whose condition
    /// holds and returns the first whose hit count is reached.
    pub fn check(&mut self, pc: u16, ctx: &dyn EvalContext) -> Option<u32> {
        self.visit(
            pc,
            ctx,
            &|_| ReadKind::Memory,
            &mut Vec::new(),
            &mut Vec::new(),
        )
        .stop
    }

    /// [`Breakpoints::check`], also saying whether the visit would go the
    /// same way again with the same inputs at another time: none of the
    /// conditions at `pc` read the cycle count or an address `read_kind`
    /// calls [`ReadKind::Timed`] (whose values may change while a program
    /// waits); one that read a [`ReadKind::Steady`] register goes the same
    /// way until the next device event. What the
    /// conditions read is appended to `inputs`, and the id of each
    /// breakpoint that counted a hit to `hits`: a polling loop that comes
    /// back to `pc` with those inputs the same may be skipped past it, as
    /// long as the hits it adds stop nowhere ([`Breakpoints::room`]).
    pub fn visit(
        &mut self,
        pc: u16,
        ctx: &dyn EvalContext,
        read_kind: &dyn Fn(u16) -> ReadKind,
        inputs: &mut Vec<ConditionInput>,
        hits: &mut Vec<u32>,
    ) -> Visit {
        let mut visit = Visit {
            stop: None,
            repeats: true,
            steady: false,
        };
        if !self.maybe_at(pc) {
            return visit;
        }
        let noting = Noting {
            inner: ctx,
            read_kind,
            timed: std::cell::Cell::new(false),
            steady: std::cell::Cell::new(false),
            inputs: std::cell::RefCell::new(inputs),
        };
        for b in self
            .list
            .iter_mut()
            .filter(|b| b.enabled && b.addrs.contains(&pc))
        {
            let holds = match &b.condition {
                Some(c) => c.holds(&noting),
                None => true,
            };
            if holds {
                hits.push(b.id);
                b.hits = b.hits.saturating_add(1);
                if visit.stop.is_none() && b.hits >= b.spec.hit_count.unwrap_or(1) {
                    visit.stop = Some(b.id);
                }
            }
        }
        visit.repeats &= !noting.timed.get();
        visit.steady = noting.steady.get();
        visit
    }

    /// Like [`Breakpoints::check`] but counts nothing and ignores hit counts:
    /// for running backwards, where "the previous breakpoint" is the previous
    /// arrival whose condition holds.
    pub fn check_pure(&self, pc: u16, ctx: &dyn EvalContext) -> Option<u32> {
        if !self.maybe_at(pc) {
            return None;
        }
        self.list
            .iter()
            .filter(|b| b.enabled && b.addrs.contains(&pc))
            .find(|b| b.condition.as_ref().is_none_or(|c| c.holds(ctx)))
            .map(|b| b.id)
    }

    /// How many more times a loop may repeat in which the breakpoints
    /// `hits` (one id per hit an iteration counts) count their hits,
    /// without any of them reaching its hit count (a stop).
    pub fn room(&self, hits: &[u32]) -> u64 {
        let mut room = u64::MAX;
        for b in self.list.iter().filter(|b| hits.contains(&b.id)) {
            let per_iteration = hits.iter().filter(|&&id| id == b.id).count() as u64;
            let left = u64::from(b.spec.hit_count.unwrap_or(1))
                .saturating_sub(u64::from(b.hits))
                .saturating_sub(1);
            room = room.min(left / per_iteration);
        }
        room
    }

    /// Counts `n` more hits for each id in `hits` (as often as it occurs):
    /// the visits of `n` skipped loop iterations.
    pub fn add_hits(&mut self, hits: &[u32], n: u64) {
        for &id in hits {
            if let Some(b) = self.list.iter_mut().find(|b| b.id == id) {
                b.hits = b.hits.saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
            }
        }
    }

    /// The breakpoint with this id.
    pub fn get(&self, id: u32) -> Option<&Breakpoint> {
        self.list.iter().find(|b| b.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debug::condition::Reg;
    use crate::image::{LineEntry, SourceFile, Symbol, SymbolKind};
    use std::path::PathBuf;

    pub(crate) fn program() -> Program {
        let sym = |name: &str, value: u16| Symbol {
            name: name.into(),
            value,
            kind: SymbolKind::Label,
            defined_at: None,
            used_at: vec![],
            size: None,
        };
        let mut p = Program {
            symbols: vec![
                sym("readInput", 0xC100),
                sym("drawCell", 0xC200),
                sym("coordy", 0x0190),
            ],
            files: vec![
                SourceFile {
                    path: PathBuf::from("fw/Viergewinnt.asm"),
                    text: String::new(),
                },
                SourceFile {
                    path: PathBuf::from("fw/Board.inc"),
                    text: String::new(),
                },
            ],
            lines: vec![
                LineEntry {
                    addr: 0xC200,
                    len: 2,
                    file: 1,
                    line: 19,
                },
                LineEntry {
                    addr: 0xC202,
                    len: 1,
                    file: 1,
                    line: 21,
                },
                LineEntry {
                    addr: 0xC100,
                    len: 3,
                    file: 0,
                    line: 50,
                },
            ],
            ..Program::default()
        };
        p.finish();
        p
    }

    struct Regs(u8);
    impl EvalContext for Regs {
        fn reg(&self, r: Reg) -> u64 {
            if r == Reg::A {
                self.0 as u64
            } else {
                0
            }
        }
        fn peek(&self, _addr: u16) -> u8 {
            5
        }
    }

    #[test]
    fn parses_each_form() {
        let p = |s: &str| BreakSpec::parse(s).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p("$C123").location, Location::Address(0xC123));
        assert_eq!(p("0xc123").location, Location::Address(0xC123));
        assert_eq!(
            p("readInput").location,
            Location::Label {
                name: "readInput".into(),
                offset: 0
            }
        );
        assert_eq!(
            p("drawCell+$c").location,
            Location::Label {
                name: "drawCell".into(),
                offset: 12
            }
        );
        let s = p("readInput:3");
        assert_eq!(
            (s.location.to_string(), s.hit_count),
            ("readInput".into(), Some(3))
        );
        let s = p("Board.inc:19");
        assert_eq!(
            s.location,
            Location::Line {
                file: "Board.inc".into(),
                line: 19
            }
        );
        let s = p("fw/Board.inc:19:2 if A == 4");
        assert_eq!(s.hit_count, Some(2));
        assert_eq!(
            s.condition.map(|c| c.source().to_string()),
            Some("A == 4".into())
        );
    }

    /// `room`: iterations that each count `hits` may repeat while every
    /// breakpoint stays short of its hit count; `add_hits` counts them.
    #[test]
    fn room_for_repeated_hits_stops_short_of_each_count() {
        let prog = program();
        let mut bps = Breakpoints::new();
        let a = bps.add_spec("drawCell:10", &prog).unwrap();
        let b = bps.add_spec("readInput:100", &prog).unwrap();
        assert_eq!(bps.room(&[]), u64::MAX);
        // 10 - 0 - 1 = 9 visits left before the stop: 9 iterations of one.
        assert_eq!(bps.room(&[a]), 9);
        // Two visits of `a` per iteration: 4 (8 hits, the 9th stays).
        assert_eq!(bps.room(&[a, a]), 4);
        assert_eq!(bps.room(&[b, a]), 9);
        bps.add_hits(&[a, a, b], 3);
        assert_eq!(bps.get(a).unwrap().hits, 6);
        assert_eq!(bps.get(b).unwrap().hits, 3);
        assert_eq!(bps.room(&[a]), 3);
        assert_eq!(bps.room(&[b]), 96);
        bps.add_hits(&[a], 5);
        assert_eq!(bps.room(&[a]), 0, "past its count: no room");
    }

    #[test]
    fn replace_keeps_id_place_and_enabled_state_and_fails_cleanly() {
        let prog = program();
        let mut bps = Breakpoints::new();
        let a = bps.add_spec("readInput", &prog).unwrap();
        let b = bps.add_spec("drawCell", &prog).unwrap();
        bps.set_enabled(a, false).unwrap();
        let spec = BreakSpec::parse("drawCell:2 if A == 4").unwrap();
        bps.replace(a, spec, &prog).unwrap();
        let ids: Vec<u32> = bps.list().iter().map(|b| b.id).collect();
        assert_eq!(ids, vec![a, b]);
        let first = &bps.list()[0];
        assert_eq!(first.addrs, vec![0xC200]);
        assert_eq!(first.spec.hit_count, Some(2));
        assert!(!first.enabled);
        // A spec that does not resolve leaves the breakpoint as it was.
        let bad = BreakSpec::parse("nowhere").unwrap();
        assert!(matches!(
            bps.replace(a, bad, &prog),
            Err(BreakError::UnknownLabel { .. })
        ));
        assert_eq!(bps.list()[0].spec.text, "drawCell:2 if A == 4");
        let spec = BreakSpec::parse("readInput").unwrap();
        assert_eq!(bps.replace(99, spec, &prog), Err(BreakError::NoSuchId(99)));
    }

    #[test]
    fn syntax_errors_have_columns() {
        let col = |s: &str| match BreakSpec::parse(s) {
            Err(BreakError::Syntax { column, .. }) => column,
            other => panic!("{other:?}"),
        };
        assert_eq!(col("readInput:x"), 11);
        assert_eq!(col("readInput:0"), 11);
        assert_eq!(col("Board.inc:"), 11);
        assert_eq!(col("a:b:c"), 5);
        assert_eq!(col("  "), 3);
        assert_eq!(col("$12345"), 1);
        assert!(matches!(
            BreakSpec::parse("x if A =="),
            Err(BreakError::Condition { .. })
        ));
    }

    #[test]
    fn resolves_and_rebinds_by_name() {
        let prog = program();
        let mut bps = Breakpoints::new();
        let id = bps.add_spec("readInput", &prog).unwrap();
        let line = bps.add_spec("Board.inc:20", &prog).unwrap();
        assert!(bps.maybe_at(0xC100));
        assert_eq!(
            bps.get(line).map(|b| (b.addrs.clone(), b.line)),
            Some((vec![0xC202], Some((1, 21))))
        );
        let mut moved = prog.clone();
        moved.symbols[0].value = 0xC180;
        bps.rebind(&moved);
        assert!(!bps.maybe_at(0xC100) && bps.maybe_at(0xC180));
        let mut gone = prog.clone();
        gone.symbols.remove(0);
        bps.rebind(&gone);
        assert!(bps
            .get(id)
            .and_then(|b| b.error.clone())
            .is_some_and(|e| e.contains("readInput")));
        bps.rebind(&prog);
        assert!(bps.maybe_at(0xC100));
    }

    #[test]
    fn resolve_errors() {
        let prog = program();
        let mut bps = Breakpoints::new();
        let e = bps.add_spec("readInptu", &prog).unwrap_err();
        assert!(e.to_string().contains("did you mean `readInput`"), "{e}");
        assert!(matches!(
            bps.add_spec("nofile.asm:3", &prog),
            Err(BreakError::UnknownFile { .. })
        ));
        assert!(matches!(
            bps.add_spec("Board.inc:22", &prog),
            Err(BreakError::NoCode { .. })
        ));
        assert!(matches!(
            bps.add_spec("readInput if [nosuch] == 1", &prog),
            Err(BreakError::Condition { .. })
        ));
    }

    #[test]
    fn conditions_hit_counts_and_enable() {
        let prog = program();
        let mut bps = Breakpoints::new();
        let id = bps
            .add_spec("readInput:2 if A == 4 && [coordy] == 5", &prog)
            .unwrap();
        assert_eq!(bps.check(0xC100, &Regs(3)), None);
        assert_eq!(bps.check(0xC100, &Regs(4)), None, "first true hit");
        assert_eq!(bps.check(0xC100, &Regs(4)), Some(id), "second true hit");
        assert_eq!(bps.get(id).map(|b| b.hits), Some(2));
        assert_eq!(bps.check_pure(0xC100, &Regs(4)), Some(id));
        bps.set_enabled(id, false).unwrap();
        assert_eq!(bps.check(0xC100, &Regs(4)), None);
        assert!(!bps.maybe_at(0xC100));
        bps.remove(id).unwrap();
        assert_eq!(bps.remove(id), Err(BreakError::NoSuchId(id)));
    }
}

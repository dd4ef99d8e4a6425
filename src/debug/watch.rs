//! Watchpoints: stop after an instruction that read, wrote or changed a
//! watched byte (a symbol, an address or a range such as one cell,
//! `board+136:8`). They see the CPU's bus cycles (M68HC11 RM section 3) through
//! the observing bus, so a write by a push or an interrupt entry counts too.
//!
//! Spec grammar:
//! ```text
//! spec     := [ kind " " ] location [ ":" LEN ]
//! kind     := "read" | "write" | "change" | "access"       (default: write)
//! location := "$"HEX | "0x"HEX | NAME [ ("+"|"-") NUMBER ]
//! ```
//! `change` stops only when a write stores a different value; `access` on
//! reads and writes. Opcode fetches are not reads for a watchpoint: a read
//! inside the running instruction's own bytes is taken as its fetch.

use super::observe::{Access, AccessKind};
use crate::board::watch_bits::WatchBits;
use crate::image::Program;
use serde::Serialize;

/// Which accesses trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WatchKind {
    /// Data reads.
    Read,
    /// Writes, whatever the value.
    Write,
    /// Writes that change the value.
    Change,
    /// Reads and writes.
    Access,
}

/// Where a watchpoint looks, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WatchLocation {
    /// A fixed address.
    Address(u16),
    /// A symbol plus an offset, re-resolved after re-assembly.
    Symbol {
        /// The name.
        name: String,
        /// Bytes from it.
        offset: i32,
    },
}

/// A parsed watchpoint spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchSpec {
    /// What triggers.
    pub kind: WatchKind,
    /// Where.
    pub location: WatchLocation,
    /// Bytes watched from the location; `None` = the symbol's size if the
    /// program knows it and it is at most 64 bytes, else 1.
    pub len: Option<u16>,
    /// As written.
    pub text: String,
}

/// Why a watchpoint spec was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WatchError {
    /// Malformed at this 1-based column.
    #[error("watchpoint `{spec}`, column {column}: {message}")]
    Syntax {
        /// As written.
        spec: String,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// No such symbol in the program.
    #[error("watchpoint `{spec}`: no symbol `{name}` in the program")]
    UnknownSymbol {
        /// As written.
        spec: String,
        /// The name.
        name: String,
    },
    /// No watchpoint with this id.
    #[error("no watchpoint #{0}")]
    NoSuchId(u32),
    /// The watched bytes do not all lie in $0000-$FFFF (as `--dump`
    /// refuses them).
    #[error("watchpoint `{spec}`: {why}")]
    OutOfRange {
        /// As written.
        spec: String,
        /// Which addresses.
        why: String,
    },
}

/// The range `start`, `len` bytes, if it lies in $0000-$FFFF.
fn inside(spec: &str, start: i64, len: u16) -> Result<(u16, u16), WatchError> {
    let out = |why: String| WatchError::OutOfRange {
        spec: spec.to_string(),
        why,
    };
    let Ok(first) = u16::try_from(start) else {
        return Err(out(format!(
            "{} is outside the addresses $0000-$FFFF",
            if start < 0 {
                start.to_string()
            } else {
                format!("${start:X}")
            }
        )));
    };
    if start + i64::from(len) > 0x1_0000 {
        return Err(out(format!("{len} bytes from ${first:04X} run past $FFFF")));
    }
    Ok((first, len))
}

fn number(s: &str) -> Option<i64> {
    if let Some(h) = s.strip_prefix('$') {
        i64::from_str_radix(h, 16).ok()
    } else if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix('%') {
        i64::from_str_radix(b, 2).ok()
    } else {
        s.parse().ok()
    }
}

impl WatchSpec {
    /// Parses a spec (grammar in the module docs).
    pub fn parse(text: &str) -> Result<WatchSpec, WatchError> {
        let err = |column: usize, message: &str| WatchError::Syntax {
            spec: text.to_string(),
            column,
            message: message.to_string(),
        };
        let lead = text.len() - text.trim_start().len();
        let t = text.trim();
        let (kind, rest, rest_col) = match t.split_once(char::is_whitespace) {
            Some((k, r)) => {
                let kind = match k.to_ascii_lowercase().as_str() {
                    "read" | "r" => WatchKind::Read,
                    "write" | "w" => WatchKind::Write,
                    "change" | "c" => WatchKind::Change,
                    "access" | "rw" => WatchKind::Access,
                    _ => return Err(err(lead + 1, "expected read, write, change or access")),
                };
                let rest_trim = r.trim_start();
                (kind, rest_trim, lead + 1 + t.len() - rest_trim.len())
            }
            None => (WatchKind::Write, t, lead + 1),
        };
        let (loc, len) = match rest.split_once(':') {
            Some((l, n)) => {
                let col = rest_col + l.len() + 1;
                match number(n.trim()) {
                    Some(v) if (1..=0xFFFF).contains(&v) => (l.trim(), Some(v as u16)),
                    _ => return Err(err(col, "expected a length in bytes (1..65535)")),
                }
            }
            None => (rest, None),
        };
        if loc.is_empty() {
            return Err(err(rest_col, "expected an address or a symbol"));
        }
        let location = if loc.starts_with('$') || loc.starts_with("0x") || loc.starts_with("0X") {
            match number(loc) {
                Some(v) if (0..=0xFFFF).contains(&v) => {
                    inside(t, v, len.unwrap_or(1))?;
                    WatchLocation::Address(v as u16)
                }
                _ => return Err(err(rest_col, "expected an address $0000..$FFFF")),
            }
        } else {
            let (name, offset) = match loc.find(['+', '-']) {
                Some(i) => {
                    let off = number(loc[i + 1..].trim())
                        .and_then(|o| i32::try_from(o).ok())
                        .ok_or_else(|| err(rest_col + i + 1, "expected a number after + or -"))?;
                    (loc[..i].trim(), if &loc[i..=i] == "-" { -off } else { off })
                }
                None => (loc, 0),
            };
            let ok = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            if !ok {
                return Err(err(
                    rest_col,
                    "expected an address ($0040) or a symbol (board+136)",
                ));
            }
            WatchLocation::Symbol {
                name: name.to_string(),
                offset,
            }
        };
        Ok(WatchSpec {
            kind,
            location,
            len,
            text: t.to_string(),
        })
    }

    /// The watched range (start, length) in `program`.
    pub fn resolve(&self, program: Option<&Program>) -> Result<(u16, u16), WatchError> {
        match &self.location {
            WatchLocation::Address(a) => inside(&self.text, i64::from(*a), self.len.unwrap_or(1)),
            WatchLocation::Symbol { name, offset } => {
                let sym = program.and_then(|p| p.symbol(name)).ok_or_else(|| {
                    WatchError::UnknownSymbol {
                        spec: self.text.clone(),
                        name: name.clone(),
                    }
                })?;
                let start = i64::from(sym.value) + i64::from(*offset);
                let default_len = match sym.size {
                    Some(s) if *offset == 0 && (1..=64).contains(&s) => s as u16,
                    _ => 1,
                };
                inside(&self.text, start, self.len.unwrap_or(default_len))
            }
        }
    }
}

/// One watchpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watchpoint {
    /// Stable id.
    pub id: u32,
    /// As written.
    pub spec: WatchSpec,
    /// First watched address.
    pub start: u16,
    /// Bytes watched (0 while unresolved).
    pub len: u16,
    /// Disabled ones watch nothing.
    pub enabled: bool,
    /// Times it triggered.
    pub hits: u32,
    /// Why it could not be placed after a re-assembly.
    pub error: Option<String>,
}

impl Watchpoint {
    fn covers(&self, addr: u16) -> bool {
        addr.wrapping_sub(self.start) < self.len
    }
}

/// One access that triggered a watchpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WatchHit {
    /// The watchpoint.
    pub id: u32,
    /// The instruction that made the access.
    pub pc: u16,
    /// Read or write.
    pub kind: AccessKind,
    /// The byte's address.
    pub addr: u16,
    /// Value before (equal to `new` for reads).
    pub old: u8,
    /// Value read or written.
    pub new: u8,
}

/// The watchpoints of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watchpoints {
    list: Vec<Watchpoint>,
    /// Every watched address (bit `a & 63` of word `a >> 6`), for
    /// [`Watchpoints::check`].
    bits: Vec<u64>,
    /// What the machine logs: the writes of write, change and access
    /// watchpoints and the reads of read and access ones.
    board: WatchBits,
    next_id: u32,
    active: bool,
}

impl Default for Watchpoints {
    fn default() -> Self {
        Watchpoints {
            list: Vec::new(),
            bits: vec![0; 1024],
            board: WatchBits::new(),
            next_id: 1,
            active: false,
        }
    }
}

impl Watchpoints {
    /// None yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// True when some enabled watchpoint exists (the session then observes the bus).
    #[inline]
    pub fn active(&self) -> bool {
        self.active
    }

    /// Parses, places and adds a watchpoint; returns its id.
    pub fn add_spec(&mut self, text: &str, program: Option<&Program>) -> Result<u32, WatchError> {
        let spec = WatchSpec::parse(text)?;
        let (start, len) = spec.resolve(program)?;
        let id = self.next_id;
        self.next_id += 1;
        self.list.push(Watchpoint {
            id,
            spec,
            start,
            len,
            enabled: true,
            hits: 0,
            error: None,
        });
        self.reindex();
        Ok(id)
    }

    /// Removes one.
    pub fn remove(&mut self, id: u32) -> Result<(), WatchError> {
        let n = self.list.len();
        self.list.retain(|w| w.id != id);
        if n == self.list.len() {
            return Err(WatchError::NoSuchId(id));
        }
        self.reindex();
        Ok(())
    }

    /// Enables or disables one.
    pub fn set_enabled(&mut self, id: u32, on: bool) -> Result<(), WatchError> {
        let w = self
            .list
            .iter_mut()
            .find(|w| w.id == id)
            .ok_or(WatchError::NoSuchId(id))?;
        w.enabled = on;
        self.reindex();
        Ok(())
    }

    /// All, in creation order.
    pub fn list(&self) -> &[Watchpoint] {
        &self.list
    }

    /// Re-resolves symbols after a re-assembly.
    pub fn rebind(&mut self, program: Option<&Program>) {
        for w in &mut self.list {
            match w.spec.resolve(program) {
                Ok((s, l)) => {
                    w.start = s;
                    w.len = l;
                    w.error = None;
                }
                Err(e) => {
                    w.len = 0;
                    w.error = Some(e.to_string());
                }
            }
        }
        self.reindex();
    }

    /// The accesses the machine is to log for the fast path
    /// ([`crate::machine::Machine::set_watch`]): the writes of write,
    /// change and access watchpoints, the reads of read and access ones.
    pub fn board_bits(&self) -> &WatchBits {
        &self.board
    }

    fn reindex(&mut self) {
        self.active = self.list.iter().any(|w| w.enabled && w.len > 0);
        self.bits.iter_mut().for_each(|b| *b = 0);
        self.board.clear();
        for w in self.list.iter().filter(|w| w.enabled) {
            let reads = matches!(w.spec.kind, WatchKind::Read | WatchKind::Access);
            let writes = w.spec.kind != WatchKind::Read;
            for i in 0..w.len {
                let a = w.start.wrapping_add(i);
                self.bits[(a >> 6) as usize] |= 1 << (a & 63);
                self.board.add(a, writes, reads);
            }
        }
    }

    /// The hits among one instruction's accesses. `pc` and `len` locate the
    /// instruction so its own opcode fetches are not counted as reads.
    /// `count` increments hit counters (false when replaying in reverse).
    pub fn check(
        &mut self,
        accesses: &[Access],
        pc: u16,
        len: u16,
        count: bool,
        out: &mut Vec<WatchHit>,
    ) {
        for a in accesses {
            if self.bits[(a.addr >> 6) as usize] & (1 << (a.addr & 63)) == 0 {
                continue;
            }
            let fetch = a.kind == AccessKind::Read && a.addr.wrapping_sub(pc) < len;
            for w in self
                .list
                .iter_mut()
                .filter(|w| w.enabled && w.covers(a.addr))
            {
                let hit = match (w.spec.kind, a.kind) {
                    (WatchKind::Read, AccessKind::Read) | (WatchKind::Access, AccessKind::Read) => {
                        !fetch
                    }
                    (WatchKind::Write, AccessKind::Write)
                    | (WatchKind::Access, AccessKind::Write) => true,
                    (WatchKind::Change, AccessKind::Write) => a.old != a.value,
                    _ => false,
                };
                if hit {
                    if count {
                        w.hits = w.hits.saturating_add(1);
                    }
                    out.push(WatchHit {
                        id: w.id,
                        pc,
                        kind: a.kind,
                        addr: a.addr,
                        old: a.old,
                        new: a.value,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::{Symbol, SymbolKind};

    fn program() -> Program {
        Program {
            symbols: vec![Symbol {
                name: "board".into(),
                value: 0x40,
                kind: SymbolKind::Label,
                defined_at: None,
                used_at: vec![],
                size: Some(336),
            }],
            ..Program::default()
        }
    }

    fn w(addr: u16, old: u8, value: u8) -> Access {
        Access {
            kind: AccessKind::Write,
            addr,
            value,
            old,
        }
    }
    fn r(addr: u16, value: u8) -> Access {
        Access {
            kind: AccessKind::Read,
            addr,
            value,
            old: value,
        }
    }

    #[test]
    fn parses() {
        let s = WatchSpec::parse("board+136:8").unwrap();
        assert_eq!((s.kind, s.len), (WatchKind::Write, Some(8)));
        assert_eq!(s.resolve(Some(&program())), Ok((0x40 + 136, 8)));
        let s = WatchSpec::parse("read $0190").unwrap();
        assert_eq!((s.kind, s.resolve(None)), (WatchKind::Read, Ok((0x190, 1))));
        assert_eq!(
            WatchSpec::parse("change board")
                .unwrap()
                .resolve(Some(&program())),
            Ok((0x40, 1)),
            "336 bytes is too big a default"
        );
        let col = |s: &str| match WatchSpec::parse(s) {
            Err(WatchError::Syntax { column, .. }) => column,
            other => panic!("{other:?}"),
        };
        assert_eq!(col("poke board"), 1);
        assert_eq!(col("read board:0"), 12);
        assert_eq!(col("board+x"), 7);
        assert_eq!(col("write 12ab"), 7);
        assert!(matches!(
            WatchSpec::parse("nosuch")
                .unwrap()
                .resolve(Some(&program())),
            Err(WatchError::UnknownSymbol { .. })
        ));
    }

    #[test]
    fn ranges_past_ffff_are_refused_as_dump_refuses_them() {
        let e = WatchSpec::parse("write $FFFF:2").unwrap_err().to_string();
        assert!(e.contains("2 bytes from $FFFF run past $FFFF"), "{e}");
        assert_eq!(
            WatchSpec::parse("$FFFF:1").unwrap().resolve(None),
            Ok((0xFFFF, 1))
        );
        assert_eq!(
            WatchSpec::parse("$0000:65535").unwrap().resolve(None),
            Ok((0, 0xFFFF))
        );
        assert!(matches!(
            WatchSpec::parse("board:65536"),
            Err(WatchError::Syntax { .. })
        ));
        let far = |s: &str| {
            WatchSpec::parse(s)
                .unwrap()
                .resolve(Some(&program()))
                .unwrap_err()
                .to_string()
        };
        assert!(
            far("board+999999").contains("$F427F is outside"),
            "{}",
            far("board+999999")
        );
        assert!(
            far("board-100").contains("-36 is outside"),
            "{}",
            far("board-100")
        );
        assert!(
            far("board:65535").contains("run past $FFFF"),
            "{}",
            far("board:65535")
        );
    }

    #[test]
    fn kinds_trigger_as_documented() {
        let p = program();
        let mut ws = Watchpoints::new();
        let cell = ws.add_spec("board+136:8", Some(&p)).unwrap();
        let ch = ws.add_spec("change $50", None).unwrap();
        let rd = ws.add_spec("read $C001", None).unwrap();
        let mut out = Vec::new();
        ws.check(&[w(0x40 + 139, 0x81, 0xBD)], 0xC100, 2, true, &mut out);
        assert_eq!(
            out,
            vec![WatchHit {
                id: cell,
                pc: 0xC100,
                kind: AccessKind::Write,
                addr: 0xCB,
                old: 0x81,
                new: 0xBD
            }]
        );
        out.clear();
        ws.check(
            &[w(0x50, 3, 3), r(0x40 + 136, 1)],
            0xC100,
            2,
            true,
            &mut out,
        );
        assert!(out.is_empty(), "same value is no change; read is no write");
        ws.check(&[w(0x50, 3, 4)], 0xC100, 2, true, &mut out);
        assert_eq!(out.iter().map(|h| h.id).collect::<Vec<_>>(), vec![ch]);
        out.clear();
        ws.check(&[r(0xC001, 7)], 0xC000, 3, true, &mut out);
        assert!(out.is_empty(), "an opcode fetch is not a data read");
        ws.check(&[r(0xC001, 7)], 0xD000, 3, true, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(
            ws.list().iter().find(|w| w.id == rd).map(|w| w.hits),
            Some(1)
        );
        ws.set_enabled(rd, false).unwrap();
        out.clear();
        ws.check(&[r(0xC001, 7)], 0xD000, 3, true, &mut out);
        assert!(out.is_empty());
        ws.remove(cell).unwrap();
        assert!(ws.remove(cell).is_err());
    }
}

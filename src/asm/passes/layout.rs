//! The layout walks after pass 1: placing every statement at its address
//! (repeated until symbol values settle), then the reporting walk that
//! encodes bytes, fills the listing and the address-to-line table, and
//! checks overlaps; the program's segments from the placed bytes.

use super::super::diagnostics::{did_you_mean, display_path, suggestions, Code, Diagnostic, Span};
use super::super::directives::{data_len, Item};
use super::super::encode::{encode, eval_error, show};
use super::super::expr::{eval, Env, EvalError, Expr, SymId};
use super::super::lexer::split_line;
use super::super::ListingLine;
use super::resolve::reaches;
use super::symbols::SymTable;
use super::{Kind, SectionInfo, Stmt};
use crate::image::{LineEntry, Segment, SourceFile};
use std::collections::HashMap;

/// The environment of the layout walks. In the reporting walk an undefined
/// symbol is reported where it is used (with close names as hints); a
/// defined symbol that has no value (its own definition failed, or is
/// circular) fails silently here and is reported at its definition.
pub(super) struct LayoutEnv<'t, 'd> {
    table: &'t SymTable,
    here: Option<i64>,
    diags: Option<&'d mut Vec<Diagnostic>>,
    unresolved: Option<SymId>,
}

impl Env for LayoutEnv<'_, '_> {
    fn value(&mut self, id: SymId, span: Span) -> Result<i64, EvalError> {
        let Some(sym) = self.table.get(id) else {
            return Err(EvalError::Undefined(id, span));
        };
        if let Some(v) = sym.value {
            return Ok(v);
        }
        if sym.kind.is_some() {
            self.unresolved.get_or_insert(id);
            return Err(EvalError::Undefined(id, span));
        }
        if let Some(diags) = self.diags.as_deref_mut() {
            let mut d = Diagnostic::new(
                Code::UndefinedSymbol,
                span,
                format!("undefined symbol `{}`", sym.name),
            );
            d = match did_you_mean(&suggestions(&sym.name, self.table.defined_names())) {
                Some(h) => d.hint(h),
                None => d.hint(format!(
                    "define it with a label in column 1 or `{} equ value`",
                    sym.name
                )),
            };
            diags.push(d);
        }
        Err(EvalError::Undefined(id, span))
    }
    fn here(&self) -> Result<i64, EvalError> {
        self.here.ok_or(EvalError::Unknown)
    }
    fn size(&mut self, id: SymId, span: Span) -> Result<i64, EvalError> {
        let Some(sym) = self.table.get(id).filter(|s| s.kind.is_some()) else {
            // Undefined: reported as a value would be.
            return self.value(id, span);
        };
        match sym.size {
            Some(n) => Ok(i64::from(n)),
            // A name that labels no bytes (a constant, an instruction's
            // label) has size 0 once the layout is final.
            None if self.diags.is_some() => Ok(0),
            None => Err(EvalError::Unknown),
        }
    }
}

/// Bytes one statement placed.
pub(super) struct Chunk {
    addr: u16,
    bytes: Vec<u8>,
    stmt: usize,
    section: usize,
}

/// One layout walk's state: location counters, placed bytes, listing.
pub(super) struct Layout {
    report: bool,
    lcs: Vec<Option<i64>>,
    overflowed: Vec<bool>,
    /// Symbols whose missing values made a section's location counter unknown.
    blockers: Vec<Vec<SymId>>,
    /// label -> the symbols its address waited for (for cycle messages).
    pub(super) edges: HashMap<SymId, Vec<SymId>>,
    pub(super) diags: Vec<Diagnostic>,
    pub(super) chunks: Vec<Chunk>,
    pub(super) lines: Vec<LineEntry>,
    pub(super) listing: Vec<ListingLine>,
    /// The first instruction outside the pseudo-vector slots of a
    /// BUFFALO monitor ($00C4-$00FF, where EVB programs put `jmp handler`
    /// stubs), and the first instruction of all.
    pub(super) first_code: Option<u16>,
    pub(super) first_code_any: Option<u16>,
    pub(super) end_entry: Option<u16>,
    /// Per section: labels waiting for data, and the bytes seen since.
    open: Vec<(Vec<SymId>, u32)>,
}

impl Layout {
    pub(super) fn new(report: bool, sections: usize) -> Layout {
        Layout {
            report,
            lcs: vec![Some(0); sections],
            overflowed: vec![false; sections],
            blockers: vec![Vec::new(); sections],
            edges: HashMap::new(),
            diags: Vec::new(),
            chunks: Vec::new(),
            lines: Vec::new(),
            listing: Vec::new(),
            first_code: None,
            first_code_any: None,
            end_entry: None,
            open: vec![(Vec::new(), 0); sections],
        }
    }

    /// Evaluates with the current table; in the reporting walk, errors are
    /// reported. Returns the value, or the first defined-but-unresolved
    /// symbol that stopped it.
    fn eval(
        &mut self,
        e: &Expr,
        span: Span,
        table: &SymTable,
        here: Option<i64>,
    ) -> Result<i64, Option<SymId>> {
        let mut env = LayoutEnv {
            table,
            here,
            diags: if self.report {
                Some(&mut self.diags)
            } else {
                None
            },
            unresolved: None,
        };
        match eval(e, &mut env) {
            Ok(v) => Ok(v),
            Err(err) => {
                let unresolved = env.unresolved;
                if self.report {
                    if let Some(d) = eval_error(err, span) {
                        self.diags.push(d);
                    }
                }
                Err(unresolved)
            }
        }
    }

    pub(super) fn walk(&mut self, stmts: &[Stmt], table: &mut SymTable, files: &[SourceFile]) {
        let mut cur = 0usize;
        let mut equ_exprs: HashMap<SymId, &Expr> = HashMap::new();
        if self.report {
            for s in stmts {
                if let (Some((id, _)), Kind::Equ(e, _)) = (s.label, &s.kind) {
                    equ_exprs.insert(id, e);
                }
            }
        }
        for (idx, stmt) in stmts.iter().enumerate() {
            let errors_before = self.diags.len();
            let mut entry = ListingLine {
                file: stmt.file,
                line: stmt.line,
                addr: None,
                bytes: Vec::new(),
                value: None,
                skipped: matches!(stmt.kind, Kind::Skipped),
                condition: matches!(stmt.kind, Kind::Cond(_)),
            };
            if self.report {
                record_uses(stmt, table);
            }
            // Sections and org change the counter before the label takes it.
            let org = match &stmt.kind {
                Kind::Section(id) => {
                    cur = *id;
                    None
                }
                Kind::SectionAt(id, e, span) => {
                    cur = *id;
                    Some((e, span))
                }
                Kind::Org(e, span) => Some((e, span)),
                _ => None,
            };
            if let Some((e, span)) = org {
                let v = self.eval(e, *span, table, self.lc(cur));
                let lc = match v {
                    Ok(v) if (0..=0xFFFF).contains(&v) => Some(v),
                    Ok(v) => {
                        if self.report {
                            self.diags.push(
                                Diagnostic::new(
                                    Code::OutOfRange,
                                    *span,
                                    format!("`org` address {} is out of range", show(v)),
                                )
                                .hint("addresses are $0000-$FFFF"),
                            );
                        }
                        None
                    }
                    Err(u) => {
                        self.blocked(cur, e, table);
                        self.circular_check(u, None, *span, table, &equ_exprs, errors_before);
                        None
                    }
                };
                if lc.is_some() {
                    if let Some(b) = self.blockers.get_mut(cur) {
                        b.clear();
                    }
                    if let Some(o) = self.overflowed.get_mut(cur) {
                        *o = false;
                    }
                }
                self.set_lc(cur, lc);
            }
            let here = self.lc(cur);
            // Labels (equ values are set below).
            if let Some((id, span)) = stmt.label {
                if !matches!(stmt.kind, Kind::Equ(..)) {
                    if here.is_none() {
                        let b = self.blockers.get(cur).cloned().unwrap_or_default();
                        self.edges.insert(id, b);
                    }
                    self.set_symbol(table, id, here, span);
                    if matches!(stmt.kind, Kind::Plain | Kind::Ds(..) | Kind::Dc(..)) {
                        if let Some(open) = self.open.get_mut(cur) {
                            if open.1 > 0 {
                                close(open, table);
                            }
                            open.0.push(id);
                        }
                    }
                }
            }
            entry.addr = here.and_then(|v| u16::try_from(v).ok()).filter(|_| {
                (stmt.label.is_some() && !matches!(stmt.kind, Kind::Equ(..)))
                    || matches!(
                        stmt.kind,
                        Kind::Org(..)
                            | Kind::SectionAt(..)
                            | Kind::Ds(..)
                            | Kind::Dc(..)
                            | Kind::Instr(..)
                    )
            });
            match &stmt.kind {
                Kind::Plain | Kind::Skipped | Kind::Section(_) => {}
                // The location counter jumps: data after it is no part of
                // the labels before (`cnt rmb 2` then `org $FFFE` `fdb start`
                // is two bytes, not four).
                Kind::SectionAt(..) | Kind::Org(..) => self.close_open(cur, table),
                Kind::Cond(v) => entry.value = *v,
                Kind::Include => self.close_open(cur, table),
                Kind::Equ(e, span) => {
                    let v = self.eval(e, *span, table, here);
                    let value = match v {
                        Ok(v) => Some(v),
                        Err(u) => {
                            let own = stmt.label.map(|l| l.0);
                            self.circular_check(u, own, *span, table, &equ_exprs, errors_before);
                            None
                        }
                    };
                    entry.value = value;
                    if let Some((id, span)) = stmt.label {
                        self.set_symbol(table, id, value, span);
                    }
                }
                Kind::Ds(unit, e, span) => {
                    let n = match self.eval(e, *span, table, here) {
                        Ok(n) if n >= 0 => Some(n.saturating_mul(*unit as i64)),
                        Ok(n) => {
                            if self.report {
                                self.diags.push(Diagnostic::new(
                                    Code::OutOfRange,
                                    *span,
                                    format!("cannot reserve a negative number of bytes ({n})"),
                                ));
                            }
                            None
                        }
                        Err(u) => {
                            self.blocked(cur, e, table);
                            self.circular_check(u, None, *span, table, &equ_exprs, errors_before);
                            None
                        }
                    };
                    entry.value = n;
                    match n {
                        Some(n) => {
                            self.grow(cur, n, stmt, files);
                            if let Some(open) = self.open.get_mut(cur) {
                                if !open.0.is_empty() {
                                    open.1 =
                                        open.1.saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
                                }
                            }
                        }
                        None => self.set_lc(cur, None),
                    }
                }
                Kind::Dc(unit, items) => {
                    let len = data_len(items, *unit) as i64;
                    if let Some(addr) = here.filter(|_| self.report) {
                        let mut bytes = Vec::with_capacity(len as usize);
                        for item in items {
                            match item {
                                Item::Bytes(b) => bytes.extend_from_slice(b),
                                Item::Value(e, span) => {
                                    let v = self.eval(e, *span, table, here).ok();
                                    let v = v.map(|v| self.truncate(v, *unit, *span)).unwrap_or(0);
                                    match unit {
                                        1 => bytes.push(v as u8),
                                        2 => bytes.extend_from_slice(&(v as u16).to_be_bytes()),
                                        _ => bytes.extend_from_slice(&(v as u32).to_be_bytes()),
                                    }
                                }
                            }
                        }
                        self.emit(cur, addr, bytes, idx, stmt, &mut entry, files);
                    }
                    self.advance(cur, len);
                    if let Some(open) = self.open.get_mut(cur) {
                        if !open.0.is_empty() {
                            open.1 = open.1.saturating_add(len as u32);
                        }
                    }
                }
                Kind::Instr(chosen) => {
                    self.close_open(cur, table);
                    let len = chosen.info.byte_len() as i64;
                    if let Some(addr) = here {
                        if self.first_code_any.is_none() {
                            self.first_code_any = u16::try_from(addr).ok();
                        }
                        if self.first_code.is_none() && !(0xC4..=0xFF).contains(&addr) {
                            self.first_code = u16::try_from(addr).ok();
                        }
                        if self.report && addr.saturating_add(len) > 0x1_0000 {
                            self.overflow(cur, addr, stmt, files);
                        } else if self.report {
                            let at = u16::try_from(addr).unwrap_or(0);
                            let mut env = LayoutEnv {
                                table,
                                here,
                                diags: Some(&mut self.diags),
                                unresolved: None,
                            };
                            let mut reported: Vec<Diagnostic> = Vec::new();
                            let bytes = encode(chosen, at, &mut env, &mut |d| reported.push(d));
                            self.diags.append(&mut reported);
                            if let Some(bytes) = bytes {
                                self.emit(cur, addr, bytes, idx, stmt, &mut entry, files);
                            }
                        }
                    }
                    self.advance(cur, len);
                }
                Kind::End(e) => {
                    self.close_open(cur, table);
                    if let Some((e, span)) = e {
                        if let Ok(v) = self.eval(e, *span, table, here) {
                            self.end_entry = u16::try_from(v).ok();
                        }
                    }
                }
            }
            if self.report {
                self.listing.push(entry);
            }
        }
        for s in 0..self.open.len() {
            self.close_open(s, table);
        }
    }

    fn lc(&self, section: usize) -> Option<i64> {
        self.lcs.get(section).copied().flatten()
    }

    fn set_lc(&mut self, section: usize, lc: Option<i64>) {
        if let Some(s) = self.lcs.get_mut(section) {
            *s = lc;
        }
    }

    fn advance(&mut self, section: usize, n: i64) {
        let lc = self.lc(section).map(|v| v.saturating_add(n));
        self.set_lc(section, lc);
    }

    /// Reserves `n` bytes (a `ds`), reporting a run past $FFFF.
    fn grow(&mut self, section: usize, n: i64, stmt: &Stmt, files: &[SourceFile]) {
        if let Some(lc) = self.lc(section) {
            if lc.saturating_add(n) > 0x1_0000 {
                self.overflow(section, lc, stmt, files);
            }
        }
        self.advance(section, n);
    }

    fn overflow(&mut self, section: usize, lc: i64, stmt: &Stmt, files: &[SourceFile]) {
        if !self.report || self.overflowed.get(section).copied().unwrap_or(true) {
            return;
        }
        if let Some(o) = self.overflowed.get_mut(section) {
            *o = true;
        }
        let span = line_span(stmt, files);
        self.diags.push(
            Diagnostic::new(
                Code::AddressOverflow,
                span,
                format!("this line runs past $FFFF (it starts at {})", show(lc)),
            )
            .hint("memory ends at $FFFF; check the `org` above and the sizes of `ds` lines"),
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        section: usize,
        addr: i64,
        bytes: Vec<u8>,
        idx: usize,
        stmt: &Stmt,
        entry: &mut ListingLine,
        files: &[SourceFile],
    ) {
        if !self.report || bytes.is_empty() {
            return;
        }
        if addr.saturating_add(bytes.len() as i64) > 0x1_0000 || addr < 0 {
            self.overflow(section, addr, stmt, files);
            return;
        }
        let a = addr as u16;
        self.lines.push(LineEntry {
            addr: a,
            len: bytes.len() as u16,
            file: stmt.file,
            line: stmt.line,
        });
        entry.bytes = bytes.clone();
        self.chunks.push(Chunk {
            addr: a,
            bytes,
            stmt: idx,
            section,
        });
    }

    fn truncate(&mut self, v: i64, unit: u8, span: Span) -> i64 {
        let (lo, hi, mask) = match unit {
            1 => (-128, 0xFF, 0xFF),
            2 => (-32768, 0xFFFF, 0xFFFF),
            _ => (-0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFFF),
        };
        if !(lo..=hi).contains(&v) && self.report {
            let kept = v & mask;
            let (what, range) = match unit {
                1 => ("byte", "-128..255 ($00-$FF)"),
                2 => ("word", "-32768..65535 ($0000-$FFFF)"),
                _ => ("long", "-2147483648..4294967295 ($00000000-$FFFFFFFF)"),
            };
            self.diags.push(
                Diagnostic::new(
                    Code::Truncated,
                    span,
                    format!(
                        "value {} does not fit in a {what}; {} is stored",
                        show(v),
                        show(kept)
                    ),
                )
                .hint(format!("a {what} holds {range}")),
            );
        }
        v
    }

    fn set_symbol(&mut self, table: &mut SymTable, id: SymId, value: Option<i64>, span: Span) {
        let Some(sym) = table.get_mut(id) else { return };
        if self.report && sym.value.is_some() && value.is_some() && sym.value != value {
            // The resolve walks did not settle: the value depends on itself.
            self.diags.push(
                Diagnostic::new(
                    Code::Circular,
                    span,
                    format!("the value of `{}` does not settle", sym.name),
                )
                .hint("it depends on addresses that depend on it; use a constant size or move the definition"),
            );
        }
        sym.value = value;
    }

    fn blocked(&mut self, section: usize, e: &Expr, table: &SymTable) {
        let mut found = Vec::new();
        e.for_each_symbol(&mut |id, _| {
            if table.get(id).is_some_and(|s| s.value.is_none()) {
                found.push(id);
            }
        });
        if let Some(b) = self.blockers.get_mut(section) {
            b.extend(found);
        }
    }

    /// Reports a circular definition when an evaluation failed only because
    /// of `unresolved` and that symbol's definition leads back to `own` (or
    /// to itself, for `org`/`ds`). Stays silent when an error was already
    /// reported on this line or elsewhere explains the missing value.
    fn circular_check(
        &mut self,
        unresolved: Option<SymId>,
        own: Option<SymId>,
        span: Span,
        table: &SymTable,
        equ_exprs: &HashMap<SymId, &Expr>,
        errors_before: usize,
    ) {
        if !self.report || self.diags.len() > errors_before {
            return;
        }
        let Some(u) = unresolved else { return };
        let in_cycle = match own {
            Some(o) => u == o || reaches(u, o, table, equ_exprs, &self.edges),
            None => reaches(u, u, table, equ_exprs, &self.edges),
        };
        if !in_cycle {
            return;
        }
        let name = |id: SymId| table.get(id).map(|s| s.name.clone()).unwrap_or_default();
        let msg = match own {
            Some(o) if o == u => format!("`{}` is defined in terms of itself", name(o)),
            Some(o) => format!(
                "`{}` depends on `{}`, which depends on `{}`",
                name(o),
                name(u),
                name(o)
            ),
            None => format!(
                "this value depends on `{}`, whose address depends on this line",
                name(u)
            ),
        };
        self.diags.push(
            Diagnostic::new(Code::Circular, span, msg).hint("break the cycle with a constant"),
        );
    }

    fn close_open(&mut self, section: usize, table: &mut SymTable) {
        if let Some(open) = self.open.get_mut(section) {
            close(open, table);
        }
    }
}

fn close(open: &mut (Vec<SymId>, u32), table: &mut SymTable) {
    if open.1 > 0 {
        for id in &open.0 {
            if let Some(s) = table.get_mut(*id) {
                s.size = Some(open.1);
            }
        }
    }
    open.0.clear();
    open.1 = 0;
}

/// Notes (file, line) as a use of every symbol the statement mentions.
fn record_uses(stmt: &Stmt, table: &mut SymTable) {
    let mut note = |e: &Expr| {
        e.for_each_symbol(&mut |id, _| {
            if let Some(s) = table.get_mut(id) {
                if s.used_at.last() != Some(&(stmt.file, stmt.line)) {
                    s.used_at.push((stmt.file, stmt.line));
                }
            }
        })
    };
    match &stmt.kind {
        Kind::Org(e, _) | Kind::SectionAt(_, e, _) | Kind::Equ(e, _) | Kind::Ds(_, e, _) => note(e),
        Kind::End(Some((e, _))) => note(e),
        Kind::Dc(_, items) => {
            for item in items {
                if let Item::Value(e, _) = item {
                    note(e);
                }
            }
        }
        Kind::Instr(c) => {
            for (e, _) in &c.args {
                note(e);
            }
        }
        _ => {}
    }
}

/// The span of a statement's whole line (for line-level messages).
fn line_span(stmt: &Stmt, files: &[SourceFile]) -> Span {
    let Some(f) = files.get(stmt.file) else {
        return Span::new(stmt.file, 0, 0);
    };
    let mut start = 0usize;
    for (i, l) in f.text.split_inclusive('\n').enumerate() {
        if i + 1 == stmt.line as usize {
            let body = l.trim_end_matches(['\n', '\r']);
            let lead = body.len() - body.trim_start().len();
            // The statement without its comment.
            let end = match split_line(body, start) {
                Ok(f) => f
                    .operands
                    .map(|o| o.end())
                    .or(f.mnemonic.map(|m| m.end()))
                    .or(f.label.map(|l| l.end()))
                    .unwrap_or(start + body.len()),
                Err(_) => start + body.len(),
            };
            return Span::new(stmt.file, start + lead, end.max(start + lead));
        }
        start += l.len();
    }
    Span::new(stmt.file, start, start)
}

/// Errors for bytes that two lines put at the same address.
pub(super) fn check_overlaps(
    chunks: &[Chunk],
    stmts: &[Stmt],
    files: &[SourceFile],
) -> Vec<Diagnostic> {
    let mut order: Vec<usize> = (0..chunks.len()).collect();
    order.sort_by_key(|&i| (chunks[i].addr, chunks[i].stmt));
    let mut diags = Vec::new();
    let mut reach: Option<(u32, usize)> = None; // (end, chunk index)
    for &i in &order {
        let c = &chunks[i];
        let start = c.addr as u32;
        let end = start + c.bytes.len() as u32;
        if let Some((prev_end, prev)) = reach {
            if start < prev_end {
                let (first, second) = if chunks[prev].stmt < c.stmt {
                    (prev, i)
                } else {
                    (i, prev)
                };
                let (a, b) = (&chunks[first], &chunks[second]);
                let (Some(sa), Some(sb)) = (stmts.get(a.stmt), stmts.get(b.stmt)) else {
                    continue;
                };
                let from = start.max(b.addr as u32);
                let to = prev_end.min(end).min(b.addr as u32 + b.bytes.len() as u32);
                let where_a = files
                    .get(sa.file)
                    .map(|f| format!("{}:{}", display_path(f), sa.line))
                    .unwrap_or_default();
                diags.push(
                    Diagnostic::new(
                        Code::Overlap,
                        line_span(sb, files),
                        format!(
                            "bytes at ${from:04X}-${:04X} are already used",
                            to.saturating_sub(1).max(from)
                        ),
                    )
                    .hint(format!(
                        "{where_a} put bytes there first; check the `org` lines and section sizes"
                    )),
                );
            }
        }
        if reach.is_none_or(|(e, _)| end > e) {
            reach = Some((end, i));
        }
    }
    diags
}

/// Segments: per section, chunks merged into contiguous runs, by address.
pub(super) fn segments(chunks: &[Chunk], sections: &[SectionInfo]) -> Vec<Segment> {
    let mut order: Vec<usize> = (0..chunks.len()).collect();
    order.sort_by_key(|&i| (chunks[i].section, chunks[i].addr));
    let mut segs: Vec<(usize, Segment)> = Vec::new();
    for i in order {
        let c = &chunks[i];
        if let Some((sec, last)) = segs.last_mut() {
            if *sec == c.section && last.end() == c.addr as u32 {
                last.bytes.extend_from_slice(&c.bytes);
                continue;
            }
        }
        let name = sections
            .get(c.section)
            .map(|s| s.name.clone())
            .filter(|n| !n.is_empty());
        segs.push((
            c.section,
            Segment {
                start: c.addr,
                bytes: c.bytes.clone(),
                name,
            },
        ));
    }
    let mut out: Vec<Segment> = segs.into_iter().map(|(_, s)| s).collect();
    out.sort_by_key(|s| s.start);
    out
}

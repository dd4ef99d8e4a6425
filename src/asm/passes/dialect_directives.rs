//! The parts of pass 1 that only the AS11 and ASM11 dialects (and the
//! harmless quirks every dialect accepts) need: their extra directives and
//! the checks on a chosen instruction. A child module of `passes`, so it
//! works on the same assembler state.

use super::super::diagnostics::{Code, Diagnostic, Span};
use super::super::dialect::strip_hash;
use super::super::directives::{data_len, parse_data, Directive, Item};
use super::super::encode::Chosen;
use super::symbols::Scope;
use super::{Asm, Kind, SectionInfo};
use crate::cpu::opcodes::Mode;
use crate::image::{FileId, SymbolKind};

use super::super::lexer::{is_ident_char, is_ident_start, Piece};

/// Most bytes one `bsz`/`zmb`/`fill` may produce (the whole address space).
const MAX_FILL: i64 = 0x1_0000;

impl Asm<'_> {
    /// Pass 1 of a directive from [`super::super::dialect::directive`] that
    /// the course table does not have.
    pub(super) fn dialect_directive(
        &mut self,
        d: Directive,
        file: FileId,
        line: u32,
        label: Option<Piece>,
        mspan: Span,
        ops: Option<Piece>,
    ) {
        match d {
            Directive::Zero => {
                let lbl = self.label_here(file, line, label);
                let n = self
                    .one_expr(file, ops, mspan, "byte count")
                    .and_then(|(e, span)| self.fill_count(&e, span));
                match n {
                    Some(n) => {
                        self.advance(n as i64);
                        self.push(file, line, lbl, Kind::Dc(1, vec![Item::Bytes(vec![0; n])]));
                    }
                    None => self.push(file, line, lbl, Kind::Plain),
                }
            }
            Directive::Fill => {
                let lbl = self.label_here(file, line, label);
                let kind = self.fill(file, mspan, ops).map_or(Kind::Plain, |items| {
                    self.advance(items.len() as i64);
                    Kind::Dc(1, items)
                });
                self.push(file, line, lbl, kind);
            }
            Directive::Listing => {
                let lbl = self.label_here(file, line, label);
                self.push(file, line, lbl, Kind::Plain);
            }
            Directive::Cpu => {
                let lbl = self.label_here(file, line, label);
                let name = ops.map(|o| o.text.trim().to_ascii_lowercase());
                let ok = matches!(
                    name.as_deref(),
                    Some("6811" | "68hc11" | "hc11" | "68hc711" | "68hc811")
                );
                if !ok {
                    let at = ops.map_or(mspan, |o| Span::new(file, o.start, o.end()));
                    self.error(
                        Diagnostic::new(
                            Code::Operands,
                            at,
                            "hc11lab assembles for the 68HC11 only",
                        )
                        .hint("write `cpu 6811` or remove the line"),
                    );
                }
                self.push(file, line, lbl, Kind::Plain);
            }
            Directive::Fcs => {
                let lbl = self.label_here(file, line, label);
                let Some(ops) = ops else {
                    self.error(Diagnostic::new(
                        Code::Operands,
                        mspan,
                        "missing text after `fcs`",
                    ));
                    self.push(file, line, lbl, Kind::Plain);
                    return;
                };
                let dialect = self.opts.dialect;
                let table = &mut self.table;
                let mut intern = |n: &str| table.intern(n);
                let mut p = Self::parser(ops, file, &mut intern, dialect);
                match parse_data(&mut p, 1, true) {
                    Ok(mut items) => {
                        items.push(Item::Bytes(vec![0]));
                        self.advance(data_len(&items, 1) as i64);
                        self.push(file, line, lbl, Kind::Dc(1, items));
                    }
                    Err(e) => {
                        self.error(e);
                        self.push(file, line, lbl, Kind::Plain);
                    }
                }
            }
            Directive::Segment(name) => {
                let id = match self
                    .sections
                    .iter()
                    .position(|s| s.name.eq_ignore_ascii_case(name))
                {
                    Some(id) => id,
                    None => {
                        self.sections.push(SectionInfo {
                            name: name.to_string(),
                            lc: Some(0),
                        });
                        self.sections.len() - 1
                    }
                };
                self.cur = id;
                // `#ROM $C000`: the segment's counter moves there, as `org`.
                let at = match ops {
                    Some(_) => self.one_expr(file, ops, mspan, "address"),
                    None => None,
                };
                let kind = match at {
                    Some((e, span)) => {
                        let v = self.known(&e).filter(|v| (0..=0xFFFF).contains(v));
                        self.set_lc(v);
                        Kind::SectionAt(id, e, span)
                    }
                    None => Kind::Section(id),
                };
                let lbl = self.label_here(file, line, label);
                self.push(file, line, lbl, kind);
            }
            Directive::Proc => {
                // A procedure named with an `@@` name (`Loop@@ proc`) is
                // called by that name from inside itself: the name belongs
                // to the new procedure. Any other name is global.
                use super::super::asm11::LOCAL_MARK;
                let lbl = match label {
                    Some(l) if l.text.contains(LOCAL_MARK) => {
                        self.table.enter_scope(&l.text.replace(LOCAL_MARK, "@@"));
                        self.label_here(file, line, label)
                    }
                    _ => {
                        let name = label
                            .map(|l| self.table.shown_name(l.text))
                            .unwrap_or_default();
                        let lbl = self.label_here(file, line, label);
                        self.table.enter_scope(&name);
                        lbl
                    }
                };
                self.push(file, line, lbl, Kind::Plain);
            }
            Directive::Endp => {
                let lbl = self.label_here(file, line, label);
                self.table.scope = Scope::default();
                self.push(file, line, lbl, Kind::Plain);
            }
            Directive::Set => self.set(file, line, label, mspan, ops),
            _ => {}
        }
    }

    /// ASM11's `#Uses FILE`, `#CaseOn`/`#CaseOff`, `#temp`, `next` and
    /// `#Cycles` (`def` is read as `equ` where it defines).
    pub(super) fn asm11_directive(
        &mut self,
        d: Directive,
        file: FileId,
        line: u32,
        label: Option<Piece>,
        mspan: Span,
        ops: Option<Piece>,
    ) {
        match d {
            Directive::Temp => {
                if label.is_some() {
                    let lbl = self.label_here(file, line, label);
                    self.push(file, line, lbl, Kind::Plain);
                }
                let counter = Piece {
                    text: super::super::asm11::TEMP_NAME,
                    start: mspan.start as usize,
                };
                let zero = Piece {
                    text: "0",
                    start: mspan.end as usize,
                };
                self.set(file, line, Some(counter), mspan, Some(ops.unwrap_or(zero)));
                return;
            }
            Directive::Next => return self.next_counter(file, line, label, mspan, ops),
            Directive::Cycles => {
                let start = match ops {
                    Some(o) => {
                        let e = self.one_expr(file, Some(o), mspan, "cycle count");
                        e.and_then(|(e, _)| self.known(&e)).unwrap_or(0)
                    }
                    None => 0,
                };
                self.cycles = (start, self.cycles.0);
            }
            _ => {}
        }
        let lbl = self.label_here(file, line, label);
        match d {
            Directive::Uses => {
                self.push(file, line, lbl, Kind::Include);
                match ops {
                    Some(ops) => self.include(file, ops, true),
                    None => self.error(Diagnostic::new(
                        Code::Operands,
                        mspan,
                        "missing file name after `#Uses`",
                    )),
                }
            }
            Directive::Case(on) => {
                self.table.case_sensitive = on;
                self.push(file, line, lbl, Kind::Plain);
            }
            _ => self.push(file, line, lbl, Kind::Plain),
        }
    }

    /// `NAME set VALUE`: the first `set` defines NAME like `equ`; each later
    /// one makes a new version that the lines after it see (the lines before
    /// keep the value they saw).
    fn set(
        &mut self,
        file: FileId,
        line: u32,
        label: Option<Piece>,
        mspan: Span,
        ops: Option<Piece>,
    ) {
        let ops = ops.map(strip_hash);
        let e = self.one_expr(file, ops, mspan, "value after `set`");
        let Some(label) = label else {
            self.error(
                Diagnostic::new(Code::MissingLabel, mspan, "`set` needs a name")
                    .hint("write the name in column 1: `NAME set value`"),
            );
            self.push(file, line, None, Kind::Plain);
            return;
        };
        let v = e.as_ref().and_then(|(e, _)| self.known(e));
        let lbl = self.set_version(file, line, label, v);
        match e {
            Some((e, span)) => self.push(file, line, lbl, Kind::Equ(e, span)),
            None => self.push(file, line, None, Kind::Plain),
        }
    }

    /// Defines the `set` name `label` with value `v`, or makes a new version
    /// of it if a `set` defined it before.
    fn set_version(
        &mut self,
        file: FileId,
        line: u32,
        label: Piece,
        v: Option<i64>,
    ) -> Option<(super::super::expr::SymId, Span)> {
        let existing = self.table.lookup(label.text).and_then(|id| {
            self.table
                .get(id)
                .map(|s| (id, s.kind.is_some() && s.redefinable))
        });
        match existing {
            Some((old, true)) => {
                let span = Span::new(file, label.start, label.end());
                self.table.new_version(old, label.text).map(|id| {
                    if let Some(s) = self.table.get_mut(id) {
                        s.value = v;
                        s.kind = Some(SymbolKind::Constant);
                        s.defined = Some((file, line, span));
                        s.seq = self.next_seq;
                    }
                    self.next_seq += 1;
                    (id, span)
                })
            }
            _ => {
                let lbl = self.define(file, line, label, v, SymbolKind::Constant);
                if let Some(s) = lbl.and_then(|(id, _)| self.table.get_mut(id)) {
                    s.redefinable = true;
                }
                lbl
            }
        }
    }

    /// `NAME next COUNTER[,STEP]`: NAME takes COUNTER's value, then COUNTER
    /// (a `set` name or `:temp`) grows by STEP. Both must be known here.
    fn next_counter(
        &mut self,
        file: FileId,
        line: u32,
        label: Option<Piece>,
        mspan: Span,
        ops: Option<Piece>,
    ) {
        let Some(ops) = ops else {
            self.error(
                Diagnostic::new(Code::Operands, mspan, "missing counter after `next`")
                    .hint("write `NAME next :temp,2` after `#temp`"),
            );
            self.push(file, line, None, Kind::Plain);
            return;
        };
        let (counter, step) = match super::super::asm11::value_and_size(ops) {
            Some((c, s)) => (c, Some(s)),
            None => (ops, None),
        };
        let is_name = counter
            .text
            .trim()
            .chars()
            .next()
            .is_some_and(is_ident_start)
            && counter.text.trim().chars().all(is_ident_char);
        if !is_name {
            self.error(
                Diagnostic::new(
                    Code::Operands,
                    Span::new(file, counter.start, counter.end()),
                    "the counter after `next` must be a name (`:temp` or a `set` name)",
                )
                .hint("write `NAME next :temp,2` after `#temp`"),
            );
            self.push(file, line, None, Kind::Plain);
            return;
        }
        let value = self
            .one_expr(file, Some(counter), mspan, "counter after `next`")
            .map(|(e, span)| (self.known(&e), span));
        let step = match step {
            Some(s) => self
                .one_expr(file, Some(s), mspan, "step after the counter")
                .map(|(e, span)| (self.known(&e), span)),
            None => Some((Some(1), mspan)),
        };
        let (Some((value, vspan)), Some((step, sspan))) = (value, step) else {
            self.push(file, line, None, Kind::Plain);
            return;
        };
        let (Some(value), Some(step)) = (value, step) else {
            let span = if value.is_none() { vspan } else { sspan };
            self.error(
                Diagnostic::new(Code::NotKnownYet, span, "`next` needs a value known here")
                    .hint("set the counter above this line (`#temp 0` or `COUNTER set 0`)"),
            );
            self.push(file, line, None, Kind::Plain);
            return;
        };
        let lbl = label.and_then(|l| self.define(file, line, l, Some(value), SymbolKind::Constant));
        match lbl {
            Some(_) => self.push(file, line, lbl, Kind::Equ(super::Expr::Num(value), vspan)),
            None => self.push(file, line, None, Kind::Plain),
        }
        // The counter's next value, as a later `set` would make it; known
        // here, so no statement needs to compute it again.
        let name = Piece {
            text: counter.text.trim(),
            start: counter.start,
        };
        self.set_version(file, line, name, Some(value.wrapping_add(step)));
    }

    /// A byte count that must be known in pass 1 (it decides the layout).
    fn fill_count(&mut self, e: &super::Expr, span: Span) -> Option<usize> {
        match self.known(e) {
            Some(n) if (0..=MAX_FILL).contains(&n) => usize::try_from(n).ok(),
            Some(n) => {
                self.error(Diagnostic::new(
                    Code::OutOfRange,
                    span,
                    format!("byte count {n} is out of range (0..{MAX_FILL})"),
                ));
                None
            }
            None => {
                self.error(
                    Diagnostic::new(Code::NotKnownYet, span, "the byte count must be known here")
                        .hint("use numbers or symbols defined above this line"),
                );
                None
            }
        }
    }

    /// `fill VALUE,COUNT`: COUNT copies of the byte VALUE.
    fn fill(&mut self, file: FileId, mspan: Span, ops: Option<Piece>) -> Option<Vec<Item>> {
        let Some(ops) = ops else {
            self.error(Diagnostic::new(
                Code::Operands,
                mspan,
                "missing `value,count` after `fill`",
            ));
            return None;
        };
        let dialect = self.opts.dialect;
        let table = &mut self.table;
        let mut intern = |n: &str| table.intern(n);
        let mut p = Self::parser(ops, file, &mut intern, dialect);
        let parsed = p.expr().and_then(|value| {
            if !p.eat(',') {
                return Err(p
                    .error_here(format!("expected `,` and a count, found {}", p.found()))
                    .hint("write `fill value,count`"));
            }
            let count = p.expr()?;
            if !p.at_end() {
                return Err(p.error_here(format!("unexpected {} after the count", p.found())));
            }
            Ok((value, count))
        });
        let ((value, vspan), (count, cspan)) = match parsed {
            Ok(v) => v,
            Err(d) => {
                self.error(d);
                return None;
            }
        };
        let n = self.fill_count(&count, cspan)?;
        Some(vec![Item::Value(value, vspan); n])
    }

    /// Dialect rules on an instruction whose mode is chosen: AS11 cuts a
    /// too-wide 8-bit immediate to its low byte; a bit mask written as a bare
    /// decimal number that reads differently in hexadecimal gets a warning.
    pub(super) fn dialect_checks(&mut self, mut c: Chosen, file: FileId) -> Chosen {
        if self.opts.dialect.truncates_immediates() && c.info.mode == Mode::Imm8 {
            c.truncate = true;
        }
        let bit = matches!(
            c.info.mode,
            Mode::BitDirect
                | Mode::BitIndexedX
                | Mode::BitIndexedY
                | Mode::BitBranchDirect
                | Mode::BitBranchIndexedX
                | Mode::BitBranchIndexedY
        );
        if let (true, Some((_, span))) = (bit, c.args.get(1)) {
            let text = self
                .files
                .get(file)
                .and_then(|f| f.text.get(span.start as usize..span.end as usize))
                .unwrap_or("");
            let digits = text.trim().trim_start_matches('#').trim();
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                if let (Ok(dec), Ok(hex)) = (digits.parse::<i64>(), i64::from_str_radix(digits, 16))
                {
                    if dec != hex {
                        let d = Diagnostic::new(
                            Code::MaskRadix,
                            *span,
                            format!(
                                "bit mask `{}` is read as decimal {dec} (${:02X}); some assemblers read it as ${digits}",
                                text.trim(),
                                dec & 0xFF
                            ),
                        )
                        .hint(format!("write `#${digits}` if you meant hexadecimal, or `#%...` for binary"));
                        self.error(d);
                    }
                }
            }
        }
        c
    }
}

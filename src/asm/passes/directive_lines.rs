//! Pass 1 of the course dialect's directive lines: `include`, sections,
//! `org`, `equ`, `ds`, `dc`/`fcc`, `end`, and the conditions of `.if`,
//! `.ifdef`, `.ifndef`. The other dialects' directives are in
//! `dialect_directives.rs`.

use super::super::diagnostics::{did_you_mean, suggestions, Code, Diagnostic, Span};
use super::super::directives::{data_len, parse_data, string_bytes, Directive, Item};
use super::super::encode::eval_error;
use super::super::expr::{EvalError, Expr};
use super::super::lexer::Piece;
use super::super::{as11, dialect};
use super::{Asm, Flow, Kind, SectionInfo};
use crate::image::{FileId, SymbolKind};

impl Asm<'_> {
    /// AS11's `FCC 5,HELLO`: the `n` characters of `text` as bytes.
    fn counted_fcc(
        &mut self,
        file: FileId,
        line: u32,
        lbl: Option<(super::SymId, Span)>,
        ops: Piece,
        n: usize,
        text: &str,
    ) {
        let span = Span::new(file, ops.start, ops.end());
        let chars: String = text.chars().take(n).collect();
        let bytes = if chars.chars().count() < n {
            Err(Diagnostic::new(
                Code::Operands,
                span,
                format!("`FCC {n},...` needs {n} characters after the comma"),
            )
            .hint("write as many characters as the count says, or `FCC /text/`"))
        } else {
            string_bytes(&chars, span)
        };
        match bytes {
            Ok(bytes) => {
                self.advance(bytes.len() as i64);
                self.push(file, line, lbl, Kind::Dc(1, vec![Item::Bytes(bytes)]));
            }
            Err(e) => {
                self.error(e);
                self.push(file, line, lbl, Kind::Plain);
            }
        }
    }

    pub(super) fn condition(
        &mut self,
        d: Directive,
        file: FileId,
        mspan: Span,
        ops: Option<Piece>,
    ) -> Option<i64> {
        match d {
            Directive::Ifdef | Directive::Ifndef => {
                // ASM11 sources switch lines off with a bare `#ifdef`: no
                // name is defined, so `#ifdef` alone is false, `#ifndef` true.
                if ops.is_none() && self.opts.dialect == dialect::Dialect::Asm11 {
                    return Some(i64::from(d == Directive::Ifndef));
                }
                let Some(ops) = ops else {
                    self.error(Diagnostic::new(
                        Code::Operands,
                        mspan,
                        "missing symbol name",
                    ));
                    return None;
                };
                let name = ops.text.trim();
                let defined = self
                    .table
                    .lookup(name)
                    .is_some_and(|id| self.table.is_defined(id));
                Some(i64::from(defined == (d == Directive::Ifdef)))
            }
            // The main file is the only one on the include stack.
            Directive::IfMain => Some(i64::from(self.stack.len() <= 1)),
            _ => {
                let (e, span) = match ops.and_then(|o| {
                    let asm11 = self.opts.dialect == dialect::Dialect::Asm11;
                    asm11.then(|| crate::asm::asm11::comparison(o)).flatten()
                }) {
                    Some((left, op, right)) => {
                        let (l, lspan) = self.one_expr(file, Some(left), mspan, "condition")?;
                        let (r, rspan) = self.one_expr(file, Some(right), mspan, "condition")?;
                        let span = Span::new(file, lspan.start as usize, rspan.end as usize);
                        (Expr::Binary(op, Box::new(l), Box::new(r), span), span)
                    }
                    None => self.one_expr(file, ops, mspan, "condition")?,
                };
                let value = super::super::expr::eval(
                    &e,
                    &mut super::resolve::Pass1Env {
                        table: &self.table,
                        here: self.lc(),
                    },
                );
                match value {
                    Ok(v) if d == Directive::Ifz => Some(i64::from(v == 0)),
                    Ok(v) => Some(v),
                    // A division by zero or a value past 64 bits is that
                    // mistake, not a value that is not known yet.
                    Err(
                        err @ (EvalError::DivZero(_)
                        | EvalError::BadShift(..)
                        | EvalError::Overflow(_)),
                    ) => {
                        if let Some(d) = eval_error(err, span) {
                            self.error(d);
                        }
                        None
                    }
                    Err(_) => {
                        self.error(
                            Diagnostic::new(
                                Code::NotKnownYet,
                                span,
                                "the condition of `.if` must be known here",
                            )
                            .hint("`.if` can use only symbols defined above it"),
                        );
                        None
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn directive(
        &mut self,
        d: Directive,
        file: FileId,
        line: u32,
        label: Option<Piece>,
        m: Piece,
        mspan: Span,
        ops: Option<Piece>,
    ) -> Flow {
        let word = m.text.to_ascii_lowercase();
        match d {
            Directive::Include => {
                let lbl = self.label_here(file, line, label);
                self.push(file, line, lbl, Kind::Include);
                let Some(ops) = ops else {
                    self.error(Diagnostic::new(
                        Code::Operands,
                        mspan,
                        "missing file name after `include`",
                    ));
                    return Flow::Go;
                };
                self.include(file, ops, false);
            }
            Directive::Section => {
                let name = label.or(ops);
                let Some(name) = name else {
                    self.error(
                        Diagnostic::new(Code::MissingLabel, mspan, "`Section` needs a name")
                            .hint("write the section's name in column 1: `RomSection Section`"),
                    );
                    self.push(file, line, None, Kind::Plain);
                    return Flow::Go;
                };
                let key = name.text.trim().to_lowercase();
                let id = match self
                    .sections
                    .iter()
                    .position(|s| s.name.to_lowercase() == key)
                {
                    Some(id) => id,
                    None => {
                        self.sections.push(SectionInfo {
                            name: name.text.trim().to_string(),
                            lc: Some(0),
                        });
                        self.sections.len() - 1
                    }
                };
                self.cur = id;
                self.push(file, line, None, Kind::Section(id));
            }
            Directive::Switch => {
                let Some(ops) = ops else {
                    self.error(Diagnostic::new(
                        Code::Operands,
                        mspan,
                        "missing section name after `switch`",
                    ));
                    self.push(file, line, None, Kind::Plain);
                    return Flow::Go;
                };
                let key = ops.text.trim().to_lowercase();
                match self
                    .sections
                    .iter()
                    .position(|s| !s.name.is_empty() && s.name.to_lowercase() == key)
                {
                    Some(id) => {
                        self.cur = id;
                        let lbl = self.label_here(file, line, label);
                        self.push(file, line, lbl, Kind::Section(id));
                    }
                    None => {
                        let mut d = Diagnostic::new(
                            Code::UnknownSection,
                            Span::new(file, ops.start, ops.end()),
                            format!("no section named `{}`", ops.text.trim()),
                        );
                        let names: Vec<&str> = self
                            .sections
                            .iter()
                            .skip(1)
                            .map(|s| s.name.as_str())
                            .collect();
                        if let Some(h) =
                            did_you_mean(&suggestions(ops.text.trim(), names.iter().copied()))
                        {
                            d = d.hint(h);
                        }
                        d = d.hint("declare it first: `NAME Section`");
                        self.error(d);
                        let lbl = self.label_here(file, line, label);
                        self.push(file, line, lbl, Kind::Plain);
                    }
                }
            }
            Directive::Org => {
                let e = self.one_expr(file, ops, mspan, "address after `org`");
                match e {
                    Some((e, span)) => {
                        let v = self.known(&e).filter(|v| (0..=0xFFFF).contains(v));
                        self.set_lc(v);
                        let lbl = self.label_here(file, line, label);
                        self.push(file, line, lbl, Kind::Org(e, span));
                    }
                    None => {
                        self.set_lc(None);
                        let lbl = self.label_here(file, line, label);
                        self.push(file, line, lbl, Kind::Plain);
                    }
                }
            }
            Directive::Equ => {
                let ops = ops.map(dialect::strip_hash);
                // ASM11's `NAME equ value,size`: the size is what `::NAME`
                // gives (a register's width, say).
                let (ops, size) = match ops {
                    Some(o) if self.opts.dialect == dialect::Dialect::Asm11 => {
                        match crate::asm::asm11::value_and_size(o) {
                            Some((v, n)) => (Some(v), Some(n)),
                            None => (Some(o), None),
                        }
                    }
                    o => (o, None),
                };
                let size = size.and_then(|n| self.equ_size(file, n, mspan));
                let e = self.one_expr(file, ops, mspan, &format!("value after `{word}`"));
                let Some(label) = label else {
                    self.error(
                        Diagnostic::new(
                            Code::MissingLabel,
                            mspan,
                            format!("`{word}` needs a name"),
                        )
                        .hint("write the name in column 1: `NAME equ value`"),
                    );
                    self.push(file, line, None, Kind::Plain);
                    return Flow::Go;
                };
                match e {
                    Some((e, span)) => {
                        let v = self.known(&e);
                        let lbl = self.define(file, line, label, v, SymbolKind::Constant);
                        if let (Some((id, _)), Some(n)) = (lbl, size) {
                            if let Some(sym) = self.table.get_mut(id) {
                                sym.size = Some(n);
                            }
                        }
                        self.push(file, line, lbl, Kind::Equ(e, span));
                    }
                    None => {
                        // Defined (so uses do not cascade into more errors) but without
                        // value; not attached to the line, where the layout would give
                        // it the line's address as if it were a label.
                        self.define(file, line, label, None, SymbolKind::Constant);
                        self.push(file, line, None, Kind::Plain);
                    }
                }
            }
            Directive::Ds(unit) => {
                let lbl = self.label_here(file, line, label);
                match self.one_expr(file, ops, mspan, &format!("size after `{word}`")) {
                    Some((e, span)) => {
                        match self.known(&e).filter(|v| *v >= 0) {
                            Some(n) => self.advance(n.saturating_mul(unit as i64)),
                            None => self.set_lc(None),
                        }
                        self.push(file, line, lbl, Kind::Ds(unit, e, span));
                    }
                    None => self.push(file, line, lbl, Kind::Plain),
                }
            }
            Directive::Dc(_) | Directive::Fcc => {
                let unit = if let Directive::Dc(u) = d { u } else { 1 };
                let lbl = self.label_here(file, line, label);
                let Some(ops) = ops else {
                    self.error(Diagnostic::new(
                        Code::Operands,
                        mspan,
                        format!("missing data after `{word}`"),
                    ));
                    self.push(file, line, lbl, Kind::Plain);
                    return Flow::Go;
                };
                if d == Directive::Fcc && self.opts.dialect == dialect::Dialect::As11 {
                    if let Some((n, text)) = as11::counted_fcc(ops.text) {
                        self.counted_fcc(file, line, lbl, ops, n, text);
                        return Flow::Go;
                    }
                }
                let table = &mut self.table;
                let mut intern = |n: &str| table.intern(n);
                let mut p = Self::parser(ops, file, &mut intern, self.opts.dialect);
                match parse_data(&mut p, unit, d == Directive::Fcc) {
                    Ok(items) => {
                        self.advance(data_len(&items, unit) as i64);
                        self.push(file, line, lbl, Kind::Dc(unit, items));
                    }
                    Err(e) => {
                        self.error(e);
                        self.push(file, line, lbl, Kind::Plain);
                    }
                }
            }
            Directive::End => {
                let lbl = self.label_here(file, line, label);
                let ops = self.end_operand(ops);
                let e = match ops {
                    Some(_) => self.one_expr(file, ops, mspan, "start address"),
                    None => None,
                };
                self.push(file, line, lbl, Kind::End(e));
                // Motorola's AS11 reads on after END (its table lists END
                // among the pseudo-ops it ignores), and AS11 sources put
                // subroutines below it; the other dialects stop there.
                if self.opts.dialect != dialect::Dialect::As11 {
                    return Flow::End;
                }
            }
            Directive::Zero
            | Directive::Fill
            | Directive::Listing
            | Directive::Cpu
            | Directive::Fcs
            | Directive::Segment(_)
            | Directive::Proc
            | Directive::Endp
            | Directive::Set => {
                self.dialect_directive(d, file, line, label, mspan, ops);
            }
            Directive::Macro => self.start_macro(file, line, label, mspan, ops),
            Directive::Endm => self.stray_endm(file, line, mspan),
            Directive::Def => {
                // ASM11's default value: a name defined already (by `-D`
                // or a line above) keeps its value.
                let taken = label
                    .and_then(|l| self.table.lookup(l.text))
                    .is_some_and(|id| self.table.is_defined(id));
                if taken {
                    self.push(file, line, None, Kind::Plain);
                    return Flow::Go;
                }
                return self.directive(Directive::Equ, file, line, label, m, mspan, ops);
            }
            Directive::Uses
            | Directive::Case(_)
            | Directive::Temp
            | Directive::Next
            | Directive::Cycles => {
                self.asm11_directive(d, file, line, label, mspan, ops);
            }
            Directive::If
            | Directive::Ifdef
            | Directive::Ifndef
            | Directive::Ifz
            | Directive::IfMain
            | Directive::Else
            | Directive::Endif => {}
        }
        Flow::Go
    }

    /// The size after an ASM11 `equ value,size`: a number known where it
    /// stands, 0 to 65535.
    fn equ_size(&mut self, file: FileId, n: Piece, mspan: Span) -> Option<u32> {
        let (e, span) = self.one_expr(file, Some(n), mspan, "size after the value")?;
        match self.known(&e).map(u32::try_from) {
            Some(Ok(v)) if v <= 0xFFFF => Some(v),
            _ => {
                self.error(
                    Diagnostic::new(
                        Code::Syntax,
                        span,
                        "the size after `equ value,` must be a number from 0 to 65535 known here",
                    )
                    .hint("write the size as a number: `PORTB equ REGS+4,1`"),
                );
                None
            }
        }
    }

    /// The start address field of an `END` line: ASM11's `end :Start`
    /// loses its colon; in AS11 a word that names no symbol defined above
    /// (END is the last line, so none can come later) is free text, a
    /// comment, as AS11 reads it (`END   Tells the assembler we're done`).
    fn end_operand<'a>(&mut self, ops: Option<Piece<'a>>) -> Option<Piece<'a>> {
        let mut ops = ops?;
        // `end :s19crc` asks ASM11 to put its S19 file's checksum in the
        // S9 record; the S19 hc11lab writes has its own, so the line names
        // no start address.
        if self.opts.dialect == dialect::Dialect::Asm11
            && ops.text.trim().eq_ignore_ascii_case(":s19crc")
        {
            return None;
        }
        if let Some(rest) = ops.text.strip_prefix(':') {
            ops = Piece {
                text: rest,
                start: ops.start + 1,
            };
        }
        if self.opts.dialect == dialect::Dialect::As11 {
            let t = ops.text;
            let name_end = t
                .char_indices()
                .find(|&(_, c)| !crate::asm::lexer::is_ident_char(c))
                .map_or(t.len(), |(i, _)| i);
            let name = &t[..name_end];
            let is_name = name
                .chars()
                .next()
                .is_some_and(crate::asm::lexer::is_ident_start);
            if is_name {
                let defined = self
                    .table
                    .lookup(name)
                    .is_some_and(|id| self.table.is_defined(id));
                if !defined {
                    return None;
                }
            }
        }
        Some(ops)
    }
}

//! The assembler's passes.
//!
//! Pass 1 reads the files line by line (expanding includes, deciding `.if`
//! branches), defines symbols with the values known so far, chooses every
//! instruction's addressing mode and so its size, and keeps one statement per
//! line. Then the layout walk over the statements is repeated until every
//! symbol value settles (forward references, `ds.b` sizes defined later), and
//! a final walk reports errors, encodes the bytes and fills the listing.
//! Sizes never change after pass 1, so there are no phase errors.
//!
//! This file holds the statements, pass 1's line reading and instructions,
//! and the driver; the rest by concern:
//! - `sources`: loading files and following `include`;
//! - `directive_lines`: the course dialect's directives and `.if` conditions;
//! - `dialect_directives`: the AS11/ASM11 directives (`bsz`, `fill`, `fcs`,
//!   segments, `proc`/`endp`, `set`) and the dialect checks on instructions;
//! - `macros`: ASM11 macros and pseudo-instructions;
//! - `symbols`: the symbol table, `@@` scopes, `set` versions;
//! - `resolve`: values known in pass 1, `equ` chains, cycle detection;
//! - `layout`: the layout walks, encoding, listing, overlaps, segments.

use super::diagnostics::{did_you_mean, location, suggestions, Code, Diagnostic, Span};
use super::dialect::{self, Dialect};
use super::directives::{directive, instruction, Directive, Item, DIRECTIVE_NAMES};
use super::encode::{allows_space_separated, parse_operands, select, Chosen};
use super::expr::{eval, Expr, Parser, SymId};
use super::lexer::Piece;
use super::source::{parent_dir, SourceProvider};
use super::{AsmOptions, Assembly, EntryFrom};
use crate::cpu::opcodes::{Op, OPCODES};
use crate::image::{FileId, Program, SourceFile, Symbol, SymbolKind};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod dialect_directives;
mod directive_lines;
mod layout;
mod macro_language;
mod macros;
mod resolve;
mod sources;
mod symbols;

use layout::{check_overlaps, segments, Layout};
use macros::MacroDef;
use resolve::{resolve_equs, Pass1Env};
use symbols::{Sym, SymTable};

/// How many layout walks may be needed for forward references to settle;
/// each walk resolves at least one more level of `a equ b` chains.
const MAX_RESOLVE_WALKS: usize = 32;

struct SectionInfo {
    name: String,
    lc: Option<i64>,
}

enum Kind {
    /// Blank, comment, label only, `.else`/`.endif`, or a line with an error.
    Plain,
    /// Inside a false `.if` branch.
    Skipped,
    /// `.if` and friends (shows the condition's value).
    Cond(Option<i64>),
    Include,
    Org(Expr, Span),
    Equ(Expr, Span),
    Section(usize),
    /// An ASM11 segment directive with an address (`#ROM $C000`): switch
    /// to the section, then `org` there.
    SectionAt(usize, Expr, Span),
    Ds(u8, Expr, Span),
    Dc(u8, Vec<Item>),
    Instr(Chosen),
    End(Option<(Expr, Span)>),
}

struct Stmt {
    file: FileId,
    line: u32,
    label: Option<(SymId, Span)>,
    kind: Kind,
}

struct Cond {
    active: bool,
    parent_active: bool,
    taken: bool,
    seen_else: bool,
    span: Span,
}

#[derive(PartialEq, Eq)]
enum Flow {
    Go,
    End,
}

struct Asm<'a> {
    provider: &'a dyn SourceProvider,
    opts: &'a AsmOptions,
    root: PathBuf,
    files: Vec<SourceFile>,
    identities: HashMap<PathBuf, FileId>,
    total: u64,
    diags: Vec<Diagnostic>,
    table: SymTable,
    sections: Vec<SectionInfo>,
    cur: usize,
    stmts: Vec<Stmt>,
    stack: Vec<(PathBuf, FileId)>,
    next_seq: u32,
    too_many_lines: bool,
    /// When [`AsmOptions::time_limit`] runs out.
    deadline: Option<crate::platform::Instant>,
    /// The time limit was reported (reading and resolving stopped).
    timed_out: bool,
    /// Macros defined so far, by lower-case name.
    macros: HashMap<String, MacroDef>,
    /// Unknown mnemonics as reported (index into `diags`, the word): one
    /// that names a macro defined later is told so at the end.
    unknown_words: Vec<(usize, String)>,
    /// The macro whose body is being recorded.
    defining: Option<MacroDef>,
    /// Names of the macros being expanded, outermost first.
    expanding: Vec<String>,
    /// The file holding the expanded lines, once there are any.
    expansions: Option<FileId>,
    /// Lines in that file so far.
    expansion_lines: u32,
    /// Each expansion's lines in that file and where its macro was used,
    /// so a message about an expanded line can name the use.
    expansion_uses: Vec<macros::ExpansionUse>,
    /// The expansion limits of [`AsmOptions`] and their bookkeeping.
    expansion_budget: macros::Budget,
    /// Where the last `rts` read so far is (ASM11's `:AnRTS`).
    last_rts: Option<i64>,
    /// ASM11's `:cycles` (the instructions' cycles since `#Cycles`) and
    /// `:ocycles` (the count `#Cycles` ended).
    cycles: (i64, i64),
}

/// Runs the whole assembler on `path` read through `provider`.
pub fn assemble(path: &Path, provider: &dyn SourceProvider, opts: &AsmOptions) -> Assembly {
    let mut asm = Asm {
        provider,
        opts,
        root: parent_dir(path),
        files: Vec::new(),
        identities: HashMap::new(),
        total: 0,
        diags: Vec::new(),
        table: SymTable::default(),
        sections: vec![SectionInfo {
            name: String::new(),
            lc: Some(0),
        }],
        cur: 0,
        stmts: Vec::new(),
        stack: Vec::new(),
        next_seq: 0,
        too_many_lines: false,
        deadline: opts.time_limit.map(|t| crate::platform::Instant::now() + t),
        timed_out: false,
        macros: HashMap::new(),
        unknown_words: Vec::new(),
        defining: None,
        expanding: Vec::new(),
        expansions: None,
        expansion_lines: 0,
        expansion_uses: Vec::new(),
        expansion_budget: macros::Budget::default(),
        last_rts: None,
        cycles: (0, 0),
    };
    for (name, value) in &opts.defines {
        let id = asm.table.intern(name);
        if let Some(s) = asm.table.get_mut(id) {
            s.value = Some(*value);
            s.kind = Some(SymbolKind::Constant);
            s.predefined = true;
        }
    }
    let main = match asm.load(path, None) {
        Ok(id) => id,
        Err(d) => {
            return Assembly {
                diagnostics: vec![d],
                ..Assembly::default()
            }
        }
    };
    let identity = provider.identity(path);
    asm.stack.push((identity, main));
    asm.read_file(main);
    asm.stack.pop();
    asm.finish()
}

impl Asm<'_> {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// True once the time limit has run out; the first time, says so.
    fn past_deadline(&mut self) -> bool {
        if self.timed_out {
            return true;
        }
        let Some(deadline) = self.deadline else {
            return false;
        };
        if crate::platform::Instant::now() < deadline {
            return false;
        }
        self.timed_out = true;
        let limit = self.opts.time_limit.unwrap_or_default();
        self.error(
            Diagnostic::global(
                Code::FileTooLarge,
                format!(
                    "assembling took longer than the {:.1} s allowed; it was stopped",
                    limit.as_secs_f64()
                ),
            )
            .hint("a program for the 68HC11 assembles in well under a second; look for very long files or long chains of `equ`"),
        );
        true
    }

    fn push(&mut self, file: FileId, line: u32, label: Option<(SymId, Span)>, kind: Kind) {
        self.stmts.push(Stmt {
            file,
            line,
            label,
            kind,
        });
    }

    fn lc(&self) -> Option<i64> {
        self.sections.get(self.cur).and_then(|s| s.lc)
    }

    fn set_lc(&mut self, lc: Option<i64>) {
        if let Some(s) = self.sections.get_mut(self.cur) {
            s.lc = lc;
        }
    }

    fn advance(&mut self, n: i64) {
        let lc = self.lc().map(|v| v.saturating_add(n));
        self.set_lc(lc);
    }

    /// The value of an expression if it is known in pass 1.
    fn known(&self, e: &Expr) -> Option<i64> {
        eval(
            e,
            &mut Pass1Env {
                table: &self.table,
                here: self.lc(),
            },
        )
        .ok()
    }

    fn read_file(&mut self, file: FileId) {
        // ASM11's `?` names belong to the file they are written in (in the
        // other dialects they are names like any other: all in file 0).
        let private = if self.opts.dialect == Dialect::Asm11 {
            file
        } else {
            0
        };
        let outer = std::mem::replace(&mut self.table.private_file, private);
        self.read_file_lines(file);
        self.table.private_file = outer;
    }

    fn read_file_lines(&mut self, file: FileId) {
        let text = match self.files.get(file) {
            Some(f) => f.text.clone(),
            None => return,
        };
        let mut conds: Vec<Cond> = Vec::new();
        let mut offset = 0usize;
        let mut line_no = 0u32;
        let mut ended = false;
        for raw in text.split_inclusive('\n') {
            if self.must_stop(Span::new(file, offset, offset)) {
                return;
            }
            line_no += 1;
            let base = offset;
            offset += raw.len();
            let line = raw.strip_suffix('\n').unwrap_or(raw);
            let line = line.strip_suffix('\r').unwrap_or(line);
            if self.read_line(file, line_no, line, base, &mut conds) == Flow::End {
                ended = true;
                break;
            }
        }
        self.unfinished_macro(file);
        if !ended {
            for c in conds {
                // In the file's own spelling: `#if` wants `#endif`, `if` `endif`.
                let word = self
                    .files
                    .get(c.span.file)
                    .and_then(|f| f.text.get(c.span.start as usize..c.span.end as usize))
                    .filter(|w| !w.is_empty())
                    .unwrap_or(".if")
                    .to_string();
                let lead = word.chars().next().filter(|ch| matches!(ch, '.' | '#'));
                let endif = format!("{}endif", lead.map(String::from).unwrap_or_default());
                self.error(
                    Diagnostic::new(
                        Code::Conditional,
                        c.span,
                        format!("this `{word}` has no `{endif}`"),
                    )
                    .hint(format!("add `{endif}` before the end of the file")),
                );
            }
        }
    }

    /// True if reading must stop: the time limit ran out, or the sources
    /// (includes and macro expansions counted) have too many lines, which
    /// is reported once, at `at`.
    fn must_stop(&mut self, at: Span) -> bool {
        if self.timed_out || (self.stmts.len() % 1024 == 0 && self.past_deadline()) {
            return true;
        }
        if self.stmts.len() < self.opts.max_lines {
            return false;
        }
        if !self.too_many_lines {
            self.too_many_lines = true;
            self.error(
                Diagnostic::new(
                    Code::FileTooLarge,
                    at,
                    format!(
                        "the sources have more than {} lines; reading stops here",
                        self.opts.max_lines
                    ),
                )
                .hint("assembler programs for the 68HC11 fit in far fewer lines; is this the right file?"),
            );
        }
        true
    }

    fn read_line(
        &mut self,
        file: FileId,
        line: u32,
        text: &str,
        base: usize,
        conds: &mut Vec<Cond>,
    ) -> Flow {
        let active = conds.last().is_none_or(|c| c.active);
        if active && self.record_macro_line(file, line, text, base) {
            return Flow::Go;
        }
        let marked = if self.opts.dialect == Dialect::Asm11 {
            self.asm11_names(text)
        } else {
            None
        };
        let text = marked.as_deref().unwrap_or(text);
        let fields = match dialect::split_line(self.opts.dialect, text, base) {
            Ok(f) => f,
            Err(bad) => {
                if active {
                    let len = text[bad.at - base..]
                        .chars()
                        .next()
                        .map_or(1, char::len_utf8);
                    self.error(
                        Diagnostic::new(
                            Code::Syntax,
                            Span::new(file, bad.at, bad.at + len),
                            "a label must start with a letter, `_` or `.` and consist of letters, digits, `_`, `.`, `?`",
                        )
                        .hint("labels start in column 1; indent instructions and directives"),
                    );
                    self.push(file, line, None, Kind::Plain);
                } else {
                    self.push(file, line, None, Kind::Skipped);
                }
                return Flow::Go;
            }
        };
        let dir = fields
            .mnemonic
            .and_then(|m| dialect::directive(self.opts.dialect, m.text));
        let mspan = fields.mnemonic.map(|m| Span::new(file, m.start, m.end()));
        match dir {
            Some(
                d @ (Directive::If
                | Directive::Ifdef
                | Directive::Ifndef
                | Directive::Ifz
                | Directive::IfMain),
            ) => {
                let span = mspan.unwrap_or(Span::new(file, base, base));
                let value = if active {
                    self.condition(d, file, span, fields.operands)
                } else {
                    None
                };
                let taken = value.is_some_and(|v| v != 0);
                conds.push(Cond {
                    active: active && taken,
                    parent_active: active,
                    taken,
                    seen_else: false,
                    span,
                });
                let label = if active {
                    self.label_here(file, line, fields.label)
                } else {
                    None
                };
                let kind = if active {
                    Kind::Cond(value)
                } else {
                    Kind::Skipped
                };
                self.push(file, line, label, kind);
                return Flow::Go;
            }
            Some(Directive::Else) => {
                let span = mspan.unwrap_or(Span::new(file, base, base));
                // ASM11's `#else ifdef X` / `#else if EXPR`: a further
                // branch of the same chain, closed by its one `#endif`.
                let chained = fields
                    .mnemonic
                    .and_then(|m| else_if(self.opts.dialect, text, base, m.end()));
                if let (Some((d, ops)), Some(c)) = (chained, conds.last()) {
                    if !c.seen_else {
                        let try_it = c.parent_active && !c.taken;
                        let value = if try_it {
                            self.condition(d, file, span, ops)
                        } else {
                            None
                        };
                        let taken = value.is_some_and(|v| v != 0);
                        if let Some(c) = conds.last_mut() {
                            c.active = try_it && taken;
                            c.taken |= taken;
                        }
                        let kind = if try_it {
                            Kind::Cond(value)
                        } else {
                            Kind::Skipped
                        };
                        self.push(file, line, None, kind);
                        return Flow::Go;
                    }
                }
                let parent = match conds.last_mut() {
                    None => {
                        self.error(Diagnostic::new(
                            Code::Conditional,
                            span,
                            "`.else` without `.if`",
                        ));
                        true
                    }
                    Some(c) => {
                        if c.seen_else {
                            let first = c.span;
                            self.error(
                                Diagnostic::new(
                                    Code::Conditional,
                                    span,
                                    "a second `.else` for the same `.if`",
                                )
                                .hint(format!("the `.if` is at {}", location(first, &self.files))),
                            );
                        }
                        c.seen_else = true;
                        c.active = c.parent_active && !c.taken;
                        c.taken = true;
                        c.parent_active
                    }
                };
                self.push(
                    file,
                    line,
                    None,
                    if parent { Kind::Plain } else { Kind::Skipped },
                );
                return Flow::Go;
            }
            Some(Directive::Endif) => {
                let span = mspan.unwrap_or(Span::new(file, base, base));
                let parent = match conds.pop() {
                    None => {
                        self.error(Diagnostic::new(
                            Code::Conditional,
                            span,
                            "`.endif` without `.if`",
                        ));
                        true
                    }
                    Some(c) => c.parent_active,
                };
                self.push(
                    file,
                    line,
                    None,
                    if parent { Kind::Plain } else { Kind::Skipped },
                );
                return Flow::Go;
            }
            _ => {}
        }
        if !active {
            self.push(file, line, None, Kind::Skipped);
            return Flow::Go;
        }
        let Some(m) = fields.mnemonic else {
            if let Some(l) = fields.label {
                if instruction(l.text).is_some() {
                    self.error(
                        Diagnostic::new(
                            Code::LabelLikeInstruction,
                            Span::new(file, l.start, l.end()),
                            format!("`{}` in column 1 is a label, not an instruction", l.text),
                        )
                        .hint("indent instructions with a space or tab"),
                    );
                }
            }
            let label = self.label_here(file, line, fields.label);
            self.push(file, line, label, Kind::Plain);
            return Flow::Go;
        };
        let mspan = Span::new(file, m.start, m.end());
        if let Some(d) = dir {
            return self.directive(d, file, line, fields.label, m, mspan, fields.operands);
        }
        match dialect::instruction(self.opts.dialect, m.text) {
            Some(op) => self.instruction(op, file, line, fields.label, m, mspan, fields.operands),
            None if self.repeat_body(m.text, fields.operands).is_some() => {
                let body = self
                    .repeat_body(m.text, fields.operands)
                    .unwrap_or_default();
                self.expand(body, file, line, fields.label, mspan, None, conds)
            }
            None if self.macro_body(m.text).is_some() => {
                let body = self.macro_body(m.text).unwrap_or_default();
                self.expand(
                    body,
                    file,
                    line,
                    fields.label,
                    mspan,
                    fields.operands,
                    conds,
                )
            }
            None => {
                let names = OPCODES.iter().map(|e| e.op.mnemonic()).chain(
                    DIRECTIVE_NAMES
                        .iter()
                        .map(|(n, _)| *n)
                        .filter(|n| *n != "="),
                );
                let mut unique: Vec<&str> = names.collect();
                unique.sort_unstable();
                unique.dedup();
                let mut d = Diagnostic::new(
                    Code::UnknownMnemonic,
                    mspan,
                    format!("unknown mnemonic `{}`", m.text),
                );
                if let Some(h) = did_you_mean(&suggestions(m.text, unique.into_iter())) {
                    d = d.hint(h);
                }
                if let Some(l) = fields.label {
                    if directive(l.text).is_some() || instruction(l.text).is_some() {
                        d = d.hint(format!(
                            "`{}` starts in column 1, so it is read as a label; indent it",
                            l.text
                        ));
                    }
                }
                self.unknown_words
                    .push((self.diags.len(), m.text.to_string()));
                self.error(d);
                let label = self.label_here(file, line, fields.label);
                self.push(file, line, label, Kind::Plain);
                Flow::Go
            }
        }
    }

    /// Defines a label with the current location counter.
    fn label_here(
        &mut self,
        file: FileId,
        line: u32,
        label: Option<Piece>,
    ) -> Option<(SymId, Span)> {
        let lc = self.lc();
        self.define(file, line, label?, lc, SymbolKind::Label)
    }

    fn define(
        &mut self,
        file: FileId,
        line: u32,
        label: Piece,
        value: Option<i64>,
        kind: SymbolKind,
    ) -> Option<(SymId, Span)> {
        let span = Span::new(file, label.start, label.end());
        let id = self.table.intern(label.text);
        let shown = self.table.shown_name(label.text);
        let sym = self.table.get_mut(id)?;
        if sym.kind.is_some() {
            let first = match sym.defined {
                Some((_, _, s)) => format!("first defined at {}", location(s, &self.files)),
                None => "first defined before the sources (a predefined symbol)".to_string(),
            };
            let name = sym.name.clone();
            let mut d = Diagnostic::new(
                Code::DuplicateSymbol,
                span,
                format!("`{shown}` is defined twice"),
            )
            .hint(first);
            // Only where the spellings differ is the letter case news.
            if name != shown {
                d = d.hint(format!(
                    "symbols are case-insensitive: `{shown}` and `{name}` are the same"
                ));
            }
            self.error(d);
            return None;
        }
        sym.name = shown;
        sym.value = value;
        sym.kind = Some(kind);
        sym.defined = Some((file, line, span));
        sym.seq = self.next_seq;
        self.next_seq += 1;
        Some((id, span))
    }

    /// An ASM11 line (or a macro body's `{expr}`) as the parser reads it:
    /// `@@` local labels and `:temp` marked so that they read as names,
    /// `:AnRTS` (the last `rts` above), `:cycles` and `:ocycles` put in;
    /// `None` if nothing changed.
    fn asm11_names(&self, text: &str) -> Option<String> {
        let local = super::asm11::mark_locals(text);
        let temp = super::asm11::mark_temp(local.as_deref().unwrap_or(text)).or(local);
        let line = temp.as_deref().unwrap_or(text);
        let rts = super::asm11::put_an_rts(line, self.last_rts).or(temp);
        let line = rts.as_deref().unwrap_or(text);
        super::asm11::put_cycles(line, self.cycles.0, self.cycles.1).or(rts)
    }

    fn parser<'t, 'i>(
        text: Piece<'t>,
        file: FileId,
        intern: &'i mut dyn FnMut(&str) -> SymId,
        dialect: Dialect,
    ) -> Parser<'t, 'i> {
        let mut p = Parser::new(text.text, text.start, file, intern);
        p.left_to_right = dialect.left_to_right();
        p.asm11_operators = dialect == Dialect::Asm11;
        p
    }

    /// Parses exactly one expression from an operand field.
    fn one_expr(
        &mut self,
        file: FileId,
        ops: Option<Piece>,
        mspan: Span,
        what: &str,
    ) -> Option<(Expr, Span)> {
        let Some(ops) = ops else {
            self.error(Diagnostic::new(
                Code::Operands,
                mspan,
                format!("missing {what}"),
            ));
            return None;
        };
        let table = &mut self.table;
        let mut intern = |n: &str| table.intern(n);
        let mut p = Self::parser(ops, file, &mut intern, self.opts.dialect);
        let r = p.expr().and_then(|e| {
            if p.at_end() {
                Ok(e)
            } else {
                Err(p
                    .error_here(format!("unexpected {} after the value", p.found()))
                    .hint("comments start with `;`"))
            }
        });
        match r {
            Ok(e) => Some(e),
            Err(d) => {
                self.error(d);
                None
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn instruction(
        &mut self,
        op: Op,
        file: FileId,
        line: u32,
        label: Option<Piece>,
        m: Piece,
        mspan: Span,
        ops: Option<Piece>,
    ) -> Flow {
        let lbl = self.label_here(file, line, label);
        let parsed = match ops {
            None => Ok(Vec::new()),
            Some(ops) => {
                let table = &mut self.table;
                let mut intern = |n: &str| table.intern(n);
                let mut p = Self::parser(ops, file, &mut intern, self.opts.dialect);
                parse_operands(&mut p, allows_space_separated(op))
            }
        };
        let chosen = parsed.and_then(|operands| {
            let table = &self.table;
            let here = self.lc();
            let mut known = |e: &Expr| eval(e, &mut Pass1Env { table, here }).ok();
            select(
                op,
                &m.text.to_ascii_lowercase(),
                mspan,
                operands,
                &mut known,
            )
        });
        match chosen {
            Ok(c) => {
                if op == Op::Rts {
                    self.last_rts = self.lc();
                }
                let c = self.dialect_checks(c, file);
                self.cycles.0 += i64::from(c.info.cycles);
                self.advance(c.info.byte_len() as i64);
                self.push(file, line, lbl, Kind::Instr(c));
            }
            Err(d) => {
                self.error(d);
                self.push(file, line, lbl, Kind::Plain);
            }
        }
        Flow::Go
    }

    fn finish(mut self) -> Assembly {
        let mut walks = 0;
        let edges = loop {
            walks += 1;
            if self.past_deadline() {
                break HashMap::new();
            }
            let before: Vec<Option<i64>> = self.table.syms.iter().map(|s| s.value).collect();
            resolve_equs(&self.stmts, &mut self.table);
            let mut lay = Layout::new(false, self.sections.len());
            lay.walk(&self.stmts, &mut self.table, &self.files);
            let after = self.table.syms.iter().map(|s| s.value);
            if before.into_iter().eq(after) || walks >= MAX_RESOLVE_WALKS {
                break lay.edges;
            }
        };
        if self.timed_out {
            return Assembly {
                diagnostics: self.diags,
                files: self.files,
                ..Assembly::default()
            };
        }
        let mut lay = Layout::new(true, self.sections.len());
        lay.edges = edges;
        lay.walk(&self.stmts, &mut self.table, &self.files);
        self.diags.append(&mut lay.diags);
        let overlaps = check_overlaps(&lay.chunks, &self.stmts, &self.files);
        self.diags.extend(overlaps);
        // A name used as a mnemonic before its macro was defined: the
        // macro is known now, and it, not a near instruction, is the news.
        for (i, word) in &self.unknown_words {
            let (Some(d), Some(def)) = (
                self.diags
                    .get_mut(*i)
                    .filter(|d| d.code == Code::UnknownMnemonic),
                self.macros.get(&word.to_ascii_lowercase()),
            ) else {
                continue;
            };
            d.hints = vec![format!(
                "`{}` is a macro defined later, at {}: define a macro before its first use",
                def.name,
                location(def.span, &self.files)
            )];
        }
        self.name_macro_uses();
        self.diags
            .sort_by_key(|d| d.span.map(|s| (s.file, s.start)));
        // Keep file order: main file first, then includes in reading order (stable sort above
        // already orders by file id, which is reading order).
        let mut defined: Vec<&Sym> = self
            .table
            .syms
            .iter()
            .filter(|s| s.kind.is_some() && !s.predefined && !s.shadowed)
            .collect();
        defined.sort_by_key(|s| s.seq);
        let symbols: Vec<Symbol> = defined
            .into_iter()
            .map(|s| Symbol {
                name: s.name.clone(),
                value: s.value.unwrap_or(0) as u16,
                kind: s.kind.unwrap_or(SymbolKind::Label),
                defined_at: s.defined.map(|(f, l, _)| (f, l)),
                used_at: s.used_at.clone(),
                size: s.size,
            })
            .collect();
        let has_errors = self.diags.iter().any(Diagnostic::is_error);
        if !has_errors && lay.chunks.is_empty() && !self.files.is_empty() {
            // `run` would only say "no reset vector" about it.
            let what = if self.files.first().is_some_and(|f| f.text.trim().is_empty()) {
                "the file is empty"
            } else {
                "nothing here makes a byte (only comments, `equ`s or reservations)"
            };
            self.diags.push(
                Diagnostic::new(Code::NoBytes, Span::new(0, 0, 0), format!("no program: {what}"))
                    .hint("write instructions after an `org` (`org $C000`), and the reset vector (`org $FFFE` / `dc.w Start`)"),
            );
        }
        let mut entry_from = None;
        let program = (!has_errors).then(|| {
            let mut p = Program {
                segments: segments(&lay.chunks, &self.sections),
                entry: None,
                symbols: symbols.clone(),
                files: self.files.clone(),
                lines: lay.lines.clone(),
            };
            p.finish();
            let vector = match (p.byte_at(0xFFFE), p.byte_at(0xFFFF)) {
                (Some(h), Some(l)) => Some(u16::from_be_bytes([h, l])),
                _ => None,
            };
            p.entry = vector.or(lay.end_entry).or(lay.first_code);
            entry_from = Some(match (vector, lay.end_entry) {
                (Some(_), _) => EntryFrom::ResetVector,
                (None, Some(_)) => EntryFrom::EndLine,
                _ if lay.first_code != lay.first_code_any => EntryFrom::AfterPseudoVectors,
                _ => EntryFrom::FirstInstruction,
            });
            if p.entry.is_none() {
                // Only stubs in the slots: the first of them.
                p.entry = lay.first_code_any;
            }
            p
        });
        Assembly {
            program,
            entry_from,
            diagnostics: self.diags,
            files: self.files,
            listing: lay.listing,
            symbols,
        }
    }
}

/// The condition after an `#else` on its line (ASM11's `#else ifdef X`,
/// `#else if EXPR`, `#else ifndef X`, with or without `#`), as the
/// directive and its operand; `None` when the rest of the line is a
/// comment (`#else (HC11 chip...)`) or there is none. `from` is the file
/// offset where the `#else` word ends; `base` that of the line's start.
fn else_if(
    dialect: Dialect,
    line: &str,
    base: usize,
    from: usize,
) -> Option<(Directive, Option<Piece<'_>>)> {
    if dialect != Dialect::Asm11 {
        return None;
    }
    let after = from.checked_sub(base)?;
    let end = super::lexer::comment_start(line, after);
    let rest = line.get(after..end)?;
    let word_at = rest.len() - rest.trim_start().len();
    let rest = &rest[word_at..];
    let word_len = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let word = rest[..word_len]
        .trim_start_matches('#')
        .to_ascii_lowercase();
    let d = match word.as_str() {
        "if" => Directive::If,
        "ifdef" => Directive::Ifdef,
        "ifndef" => Directive::Ifndef,
        _ => return None,
    };
    // After `ifdef` the operand is one field, text after it a comment;
    // after `if` it is the rest of the line, as after `#if` (a comparison
    // has blanks around its operator: `#else if ~1~ > ~2~`).
    let tail = &rest[word_len..];
    let gap = tail.len() - tail.trim_start().len();
    let operand = if d == Directive::If {
        tail[gap..].trim_end()
    } else {
        tail[gap..].split(char::is_whitespace).next().unwrap_or("")
    };
    Some((
        d,
        (!operand.is_empty()).then_some(Piece {
            text: operand,
            start: base + after + word_at + word_len + gap,
        }),
    ))
}

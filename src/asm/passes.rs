//! The assembler's passes.
//!
//! Pass 1 reads the files line by line (expanding includes, deciding `.if`
//! branches), defines symbols with the values known so far, chooses every
//! instruction's addressing mode and so its size, and keeps one statement per
//! line. Then the layout walk over the statements is repeated until every
//! symbol value settles (forward references, `ds.b` sizes defined later), and
//! a final walk reports errors, encodes the bytes and fills the listing.
//! Sizes never change after pass 1, so there are no phase errors.

use super::diagnostics::{
    did_you_mean, display_path, location, suggestions, Code, Diagnostic, Span,
};
use super::dialect::{self, Dialect};
use super::directives::{
    data_len, directive, instruction, parse_data, Directive, Item, DIRECTIVE_NAMES,
};
use super::encode::{
    allows_space_separated, encode, eval_error, parse_operands, select, show, Chosen,
};
use super::expr::{eval, Env, EvalError, Expr, Parser, SymId};
use super::lexer::{split_line, Piece};
use super::source::{decode, parent_dir, resolve_include, Resolved, SourceError, SourceProvider};
use super::{AsmOptions, Assembly, ListingLine};
use crate::cpu::opcodes::{Op, OPCODES};
use crate::image::{FileId, LineEntry, Program, Segment, SourceFile, Symbol, SymbolKind};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

// Directives and checks of the other dialects, kept out of this file so that
// it stays the course dialect's passes.
#[path = "dialect_passes.rs"]
mod dialect_passes;
mod macros;
mod symbols;

use macros::MacroDef;
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
    deadline: Option<std::time::Instant>,
    /// The time limit was reported (reading and resolving stopped).
    timed_out: bool,
    /// Macros defined so far, by lower-case name.
    macros: HashMap<String, MacroDef>,
    /// The macro whose body is being recorded.
    defining: Option<MacroDef>,
    /// Names of the macros being expanded, outermost first.
    expanding: Vec<String>,
    /// The file holding the expanded lines, once there are any.
    expansions: Option<FileId>,
    /// Lines in that file so far.
    expansion_lines: u32,
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
        deadline: opts.time_limit.map(|t| std::time::Instant::now() + t),
        timed_out: false,
        macros: HashMap::new(),
        defining: None,
        expanding: Vec::new(),
        expansions: None,
        expansion_lines: 0,
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

fn source_error(code_path: &str, e: &SourceError) -> (Code, String, Option<String>) {
    match e {
        SourceError::NotFound => (
            Code::Io,
            format!("cannot read `{code_path}`: file not found"),
            None,
        ),
        SourceError::Io(msg) => (Code::Io, format!("cannot read `{code_path}`: {msg}"), None),
        SourceError::TooLarge { size, limit } => (
            Code::FileTooLarge,
            format!("`{code_path}` is too large ({size} bytes; the limit is {limit} bytes)"),
            Some("assembler sources are small text files; is this the right file?".to_string()),
        ),
        SourceError::NotText(why) => (
            Code::NotText,
            format!("`{code_path}` is not a text file ({why})"),
            Some("include only assembler source text (.asm, .inc)".to_string()),
        ),
    }
}

impl Asm<'_> {
    /// Reads and decodes a file, registering it; `at` is the include's span.
    fn load(&mut self, path: &Path, at: Option<Span>) -> Result<FileId, Diagnostic> {
        let shown = path.to_string_lossy().replace('\\', "/");
        let fail = |e: SourceError| {
            let (code, msg, hint) = source_error(&shown, &e);
            let d = match at {
                Some(span) => Diagnostic::new(code, span, msg),
                None => Diagnostic::global(code, msg),
            };
            match hint {
                Some(h) => d.hint(h),
                None => d,
            }
        };
        let identity = self.provider.identity(path);
        if let Some(&id) = self.identities.get(&identity) {
            return Ok(id);
        }
        let budget = self.opts.max_total_size.saturating_sub(self.total);
        let limit = self.opts.max_file_size.min(budget);
        let bytes = self.provider.read(path, limit).map_err(|e| match e {
            SourceError::TooLarge { size, .. } if limit < self.opts.max_file_size => {
                let d = fail(SourceError::TooLarge {
                    size,
                    limit: self.opts.max_total_size,
                });
                Diagnostic {
                    message: format!(
                        "including `{shown}` makes the sources larger than {} bytes in total",
                        self.opts.max_total_size
                    ),
                    ..d
                }
            }
            e => fail(e),
        })?;
        let text = decode(&bytes).map_err(fail)?;
        self.total += bytes.len() as u64;
        let id = self.files.len();
        self.files.push(SourceFile {
            path: path.to_path_buf(),
            text,
        });
        self.identities.insert(identity, id);
        Ok(id)
    }

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
        if std::time::Instant::now() < deadline {
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
        let text = match self.files.get(file) {
            Some(f) => f.text.clone(),
            None => return,
        };
        let mut conds: Vec<Cond> = Vec::new();
        let mut offset = 0usize;
        let mut line_no = 0u32;
        let mut ended = false;
        for raw in text.split_inclusive('\n') {
            if self.timed_out || (self.stmts.len() % 1024 == 0 && self.past_deadline()) {
                return;
            }
            if self.stmts.len() >= self.opts.max_lines {
                if !self.too_many_lines {
                    self.too_many_lines = true;
                    self.error(
                        Diagnostic::new(
                            Code::FileTooLarge,
                            Span::new(file, offset, offset),
                            format!("the sources have more than {} lines; reading stops here", self.opts.max_lines),
                        )
                        .hint("assembler programs for the 68HC11 fit in far fewer lines; is this the right file?"),
                    );
                }
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
                self.error(
                    Diagnostic::new(Code::Conditional, c.span, "this `.if` has no `.endif`")
                        .hint("add `.endif` before the end of the file"),
                );
            }
        }
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
        // ASM11's `@@` local labels: marked so that they read as names.
        let marked = if self.opts.dialect == Dialect::Asm11 {
            super::asm11::mark_locals(text)
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
            Some(d @ (Directive::If | Directive::Ifdef | Directive::Ifndef)) => {
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
            None if self.macro_body(m.text).is_some() => {
                let body = self.macro_body(m.text).unwrap_or_default();
                self.expand(body, file, line, fields.label, mspan, fields.operands, conds)
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
            self.error(
                Diagnostic::new(
                    Code::DuplicateSymbol,
                    span,
                    format!("`{shown}` is defined twice"),
                )
                .hint(first)
                .hint(format!(
                    "symbols are case-insensitive: `{shown}` and `{name}` are the same"
                )),
            );
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

    fn parser<'t, 'i>(
        text: Piece<'t>,
        file: FileId,
        intern: &'i mut dyn FnMut(&str) -> SymId,
        dialect: Dialect,
    ) -> Parser<'t, 'i> {
        let mut p = Parser::new(text.text, text.start, file, intern);
        p.left_to_right = dialect.left_to_right();
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

    fn condition(
        &mut self,
        d: Directive,
        file: FileId,
        mspan: Span,
        ops: Option<Piece>,
    ) -> Option<i64> {
        match d {
            Directive::Ifdef | Directive::Ifndef => {
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
            _ => {
                let (e, span) = self.one_expr(file, ops, mspan, "condition")?;
                match self.known(&e) {
                    Some(v) => Some(v),
                    None => {
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
    fn directive(
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
                self.include(file, ops);
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
                let e = match ops {
                    Some(_) => self.one_expr(file, ops, mspan, "start address"),
                    None => None,
                };
                self.push(file, line, lbl, Kind::End(e));
                return Flow::End;
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
            Directive::If
            | Directive::Ifdef
            | Directive::Ifndef
            | Directive::Else
            | Directive::Endif => {}
        }
        Flow::Go
    }

    fn include(&mut self, file: FileId, ops: Piece) {
        let span = Span::new(file, ops.start, ops.end());
        let dir = self
            .files
            .get(file)
            .map(|f| parent_dir(&f.path))
            .unwrap_or_default();
        let path = match resolve_include(self.provider, &self.root, &dir, ops.text) {
            Resolved::Found(p) => p,
            Resolved::Escapes(_) => {
                let root = if self.root.as_os_str().is_empty() {
                    ".".to_string()
                } else {
                    self.root.to_string_lossy().replace('\\', "/")
                };
                self.error(
                    Diagnostic::new(
                        Code::IncludeEscapes,
                        span,
                        format!(
                            "`{}` is outside `{root}`, the folder of the main source file",
                            ops.text.trim()
                        ),
                    )
                    .hint("includes must stay inside the main file's folder (or below it); copy the file there"),
                );
                return;
            }
            Resolved::NotFound(p) => {
                let mut d = Diagnostic::new(
                    Code::IncludeNotFound,
                    span,
                    format!(
                        "include file `{}` not found",
                        p.to_string_lossy().replace('\\', "/")
                    ),
                );
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                // Suggest only names inside the main file's folder tree: an
                // absolute path elsewhere must not list, say, /etc.
                let folder = parent_dir(&p);
                let root = super::source::normalize(&self.root);
                let inside = super::source::normalize(&folder).starts_with(&root)
                    && (!folder.is_absolute() || root.is_absolute());
                if inside {
                    let here = self.provider.list_dir(&folder);
                    if let Some(h) =
                        did_you_mean(&suggestions(&name, here.iter().map(String::as_str)))
                    {
                        d = d.hint(h);
                    }
                } else {
                    d = d.hint(
                        "include files from the main file's folder, with a path relative to it",
                    );
                }
                self.error(d);
                return;
            }
        };
        let identity = self.provider.identity(&path);
        if self.stack.iter().any(|(p, _)| *p == identity) {
            let mut chain: Vec<String> = self
                .stack
                .iter()
                .filter_map(|(_, id)| self.files.get(*id).map(display_path))
                .collect();
            chain.push(path.to_string_lossy().replace('\\', "/"));
            self.error(
                Diagnostic::new(Code::IncludeCycle, span, "include cycle")
                    .hint(format!("{} includes itself again", chain.join(" -> ")))
                    .hint("use `.ifndef NAME` / `NAME equ 1` / `.endif` as an include guard, or remove the include"),
            );
            return;
        }
        if self.stack.len() >= self.opts.max_include_depth {
            self.error(Diagnostic::new(
                Code::IncludeCycle,
                span,
                format!(
                    "includes nest deeper than {} files",
                    self.opts.max_include_depth
                ),
            ));
            return;
        }
        let id = match self.load(&path, Some(span)) {
            Ok(id) => id,
            Err(d) => {
                self.error(d);
                return;
            }
        };
        self.stack.push((identity, id));
        self.read_file(id);
        self.stack.pop();
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
                let c = self.dialect_checks(c, file);
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
            p
        });
        Assembly {
            program,
            diagnostics: self.diags,
            files: self.files,
            listing: lay.listing,
            symbols,
        }
    }
}

struct Pass1Env<'t> {
    table: &'t SymTable,
    here: Option<i64>,
}

impl Env for Pass1Env<'_> {
    fn value(&mut self, id: SymId, _: Span) -> Result<i64, EvalError> {
        self.table
            .get(id)
            .and_then(|s| s.value)
            .ok_or(EvalError::Unknown)
    }
    fn here(&self) -> Result<i64, EvalError> {
        self.here.ok_or(EvalError::Unknown)
    }
}

/// The environment of the layout walks. In the reporting walk an undefined
/// symbol is reported where it is used (with close names as hints); a
/// defined symbol that has no value (its own definition failed, or is
/// circular) fails silently here and is reported at its definition.
struct LayoutEnv<'t, 'd> {
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
}

struct Chunk {
    addr: u16,
    bytes: Vec<u8>,
    stmt: usize,
    section: usize,
}

struct Layout {
    report: bool,
    lcs: Vec<Option<i64>>,
    overflowed: Vec<bool>,
    /// Symbols whose missing values made a section's location counter unknown.
    blockers: Vec<Vec<SymId>>,
    /// label -> the symbols its address waited for (for cycle messages).
    edges: HashMap<SymId, Vec<SymId>>,
    diags: Vec<Diagnostic>,
    chunks: Vec<Chunk>,
    lines: Vec<LineEntry>,
    listing: Vec<ListingLine>,
    first_code: Option<u16>,
    end_entry: Option<u16>,
    /// Per section: labels waiting for data, and the bytes seen since.
    open: Vec<(Vec<SymId>, u32)>,
}

impl Layout {
    fn new(report: bool, sections: usize) -> Layout {
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

    fn walk(&mut self, stmts: &[Stmt], table: &mut SymTable, files: &[SourceFile]) {
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
            };
            if self.report {
                record_uses(stmt, table);
            }
            // Sections and org change the counter before the label takes it.
            match &stmt.kind {
                Kind::Section(id) => cur = *id,
                Kind::Org(e, span) => {
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
                _ => {}
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
                        Kind::Org(..) | Kind::Ds(..) | Kind::Dc(..) | Kind::Instr(..)
                    )
            });
            match &stmt.kind {
                Kind::Plain | Kind::Skipped | Kind::Section(_) | Kind::Org(..) => {}
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
                                    if *unit == 1 {
                                        bytes.push(v as u8);
                                    } else {
                                        bytes.extend_from_slice(&(v as u16).to_be_bytes());
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
                        if self.first_code.is_none() {
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
        let (lo, hi) = if unit == 1 {
            (-128, 0xFF)
        } else {
            (-32768, 0xFFFF)
        };
        if !(lo..=hi).contains(&v) && self.report {
            let kept = if unit == 1 { v & 0xFF } else { v & 0xFFFF };
            let (what, range) = if unit == 1 {
                ("byte", "-128..255 ($00-$FF)")
            } else {
                ("word", "-32768..65535 ($0000-$FFFF)")
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

/// True if `from`'s definition leads (through `equ` expressions and the
/// symbols that label addresses waited for) to `to`.
fn reaches(
    from: SymId,
    to: SymId,
    table: &SymTable,
    equ_exprs: &HashMap<SymId, &Expr>,
    edges: &HashMap<SymId, Vec<SymId>>,
) -> bool {
    let successors = |s: SymId| {
        let mut next = Vec::new();
        if let Some(e) = equ_exprs.get(&s) {
            e.for_each_symbol(&mut |id, _| {
                if table.get(id).is_some_and(|x| x.value.is_none()) {
                    next.push(id);
                }
            });
        }
        if let Some(more) = edges.get(&s) {
            next.extend(more.iter().copied());
        }
        next
    };
    let mut seen = HashSet::new();
    let mut todo = successors(from);
    while let Some(s) = todo.pop() {
        if s == to {
            return true;
        }
        if seen.insert(s) {
            todo.extend(successors(s));
        }
    }
    false
}

/// Gives every `equ` whose value follows from other `equ`s and known
/// symbols its value, in dependency order (depth first, with an explicit
/// stack). Without it each layout walk settles only one more link of a
/// chain written backwards (`a equ b` before `b equ c`), so a long chain
/// took a walk per link. Anything it cannot settle (labels not placed yet,
/// `*`, cycles, errors) is left to the walks, which also report it.
fn resolve_equs(stmts: &[Stmt], table: &mut SymTable) {
    let mut defs: HashMap<SymId, &Expr> = HashMap::new();
    for s in stmts {
        if let (Some((id, _)), Kind::Equ(e, _)) = (s.label, &s.kind) {
            if !e.mentions_here() {
                defs.insert(id, e);
            }
        }
    }
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut marks: HashMap<SymId, Mark> = HashMap::new();
    let unknown_deps = |e: &Expr, table: &SymTable| {
        let mut deps = Vec::new();
        e.for_each_symbol(&mut |id, _| {
            if table.get(id).is_some_and(|s| s.value.is_none()) {
                deps.push(id);
            }
        });
        deps
    };
    let mut roots: Vec<SymId> = defs.keys().copied().collect();
    roots.sort_unstable();
    for root in roots {
        if marks.contains_key(&root) || table.get(root).is_some_and(|s| s.value.is_some()) {
            continue;
        }
        // (symbol, its dependencies still to visit)
        let mut stack: Vec<(SymId, Vec<SymId>)> = Vec::new();
        marks.insert(root, Mark::Open);
        stack.push((root, unknown_deps(defs[&root], table)));
        while let Some((id, deps)) = stack.last_mut() {
            let id = *id;
            if let Some(dep) = deps.pop() {
                let open = marks.get(&dep).is_some_and(|m| *m == Mark::Open);
                let settled = marks.contains_key(&dep);
                if let (false, false, Some(e)) = (open, settled, defs.get(&dep)) {
                    marks.insert(dep, Mark::Open);
                    stack.push((dep, unknown_deps(e, table)));
                }
                continue;
            }
            stack.pop();
            marks.insert(id, Mark::Done);
            let value = eval(defs[&id], &mut Pass1Env { table, here: None });
            if let (Ok(v), Some(sym)) = (value, table.get_mut(id)) {
                sym.value = Some(v);
            }
        }
    }
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
        Kind::Org(e, _) | Kind::Equ(e, _) | Kind::Ds(_, e, _) => note(e),
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

fn check_overlaps(chunks: &[Chunk], stmts: &[Stmt], files: &[SourceFile]) -> Vec<Diagnostic> {
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
fn segments(chunks: &[Chunk], sections: &[SectionInfo]) -> Vec<Segment> {
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

//! ASM11 macros and pseudo-instructions in pass 1: recording a definition
//! (`NAME macro` ... `endm`), and expanding a use by substituting its
//! arguments (`~1~` ... `~9~`, or `\1` ... `\9`) and reading the lines that
//! result as if they stood where the macro is used.
//!
//! The expanded lines are kept in one extra source file per assembly
//! (`NAME.asm (macros)`), each expansion under a comment line naming the
//! macro and where it is used, so that every byte has a line to show in the
//! listing, the debugger and messages.

use super::super::diagnostics::{location, Code, Diagnostic, Span};
use super::super::directives::Directive;
use super::super::lexer::{is_open_char, Piece};
use super::super::{asm11, dialect};
use super::{Asm, Cond, Flow, Kind};
use crate::image::{FileId, SourceFile};
use std::path::PathBuf;

/// Deepest nesting of expansions (a macro that uses itself stops here).
const MAX_DEPTH: usize = 16;

/// Most arguments a macro can refer to (`~1~` ... `~9~`).
const MAX_ARGS: usize = 9;

/// The lines of one expansion in the expansion file (its comment line
/// first, `first..=last`) and the use it came from.
pub(super) struct ExpansionUse {
    first: u32,
    last: u32,
    name: String,
    used_at: Span,
}

/// A recorded macro.
#[derive(Clone)]
pub(super) struct MacroDef {
    /// The name as written in the definition.
    pub name: String,
    /// The body lines, unchanged.
    pub body: Vec<String>,
    /// The file the definition is in and the span of its name.
    pub file: FileId,
    pub span: Span,
}

impl Asm<'_> {
    /// `NAME macro` / `macro NAME`: starts recording a definition.
    pub(super) fn start_macro(
        &mut self,
        file: FileId,
        line: u32,
        label: Option<Piece>,
        mspan: Span,
        ops: Option<Piece>,
    ) {
        self.push(file, line, None, Kind::Plain);
        if !self.expanding.is_empty() {
            self.error(Diagnostic::new(
                Code::Macro,
                mspan,
                "a macro cannot define another macro",
            ));
            return;
        }
        let name = label.or_else(|| {
            ops.map(|o| {
                let word = o.text.split([' ', '\t', ',']).next().unwrap_or("");
                Piece {
                    text: word,
                    start: o.start,
                }
            })
        });
        let Some(name) = name.filter(|n| !n.text.is_empty()) else {
            self.error(
                Diagnostic::new(Code::MissingLabel, mspan, "`macro` needs a name")
                    .hint("write the name in column 1: `NAME macro`"),
            );
            // Still record up to `endm`, so the body is not read as code.
            self.defining = Some(MacroDef {
                name: String::new(),
                body: Vec::new(),
                file,
                span: mspan,
            });
            return;
        };
        let span = Span::new(file, name.start, name.end());
        let mut problem = None;
        if dialect::instruction(self.opts.dialect, name.text).is_some()
            || dialect::directive(self.opts.dialect, name.text).is_some()
        {
            problem = Some(format!(
                "`{}` is an instruction or directive and cannot be a macro's name",
                name.text
            ));
        } else if let Some(old) = self.macros.get(&name.text.to_ascii_lowercase()) {
            problem = Some(format!(
                "macro `{}` is defined twice (first at {})",
                name.text,
                location(old.span, &self.files)
            ));
        }
        let keep = problem.is_none();
        if let Some(p) = problem {
            self.error(Diagnostic::new(Code::Macro, span, p));
        }
        self.defining = Some(MacroDef {
            // An empty name is never looked up: the body is only skipped.
            name: if keep {
                name.text.to_string()
            } else {
                String::new()
            },
            body: Vec::new(),
            file,
            span,
        });
    }

    /// While a definition is being recorded, takes `text` as a body line or
    /// as its `endm`; false if no definition is open.
    pub(super) fn record_macro_line(
        &mut self,
        file: FileId,
        line: u32,
        text: &str,
        base: usize,
    ) -> bool {
        let dialect = self.opts.dialect;
        let Some(def) = self.defining.as_mut() else {
            return false;
        };
        let word = dialect::split_line(dialect, text, base)
            .ok()
            .and_then(|f| f.mnemonic)
            .map(|m| m.text);
        if word.and_then(|w| dialect::directive(dialect, w)) == Some(Directive::Endm) {
            if let Some(def) = self.defining.take() {
                if !def.name.is_empty() {
                    self.macros.insert(def.name.to_ascii_lowercase(), def);
                }
            }
        } else {
            def.body.push(text.to_string());
        }
        self.push(file, line, None, Kind::Plain);
        true
    }

    /// At the end of `file`: a definition it started has no `endm`.
    pub(super) fn unfinished_macro(&mut self, file: FileId) {
        if self.defining.as_ref().is_some_and(|d| d.file == file) {
            if let Some(def) = self.defining.take() {
                self.error(
                    Diagnostic::new(Code::Macro, def.span, "this macro has no `endm`")
                        .hint("end the definition with a line `endm` in the same file"),
                );
            }
        }
    }

    /// `endm` with no definition open.
    pub(super) fn stray_endm(&mut self, file: FileId, line: u32, mspan: Span) {
        self.error(Diagnostic::new(
            Code::Macro,
            mspan,
            "`endm` without `macro`",
        ));
        self.push(file, line, None, Kind::Plain);
    }

    /// The body of the macro or pseudo-instruction `word`, if it is one.
    pub(super) fn macro_body(&self, word: &str) -> Option<(String, Vec<String>, bool)> {
        if let Some(def) = self.macros.get(&word.to_ascii_lowercase()) {
            return Some((def.name.clone(), def.body.clone(), false));
        }
        if self.opts.dialect != dialect::Dialect::Asm11 {
            return None;
        }
        asm11::pseudo_instruction(word).map(|body| {
            (
                word.to_ascii_lowercase(),
                body.iter().map(|l| format!("\t{l}")).collect(),
                true,
            )
        })
    }

    /// A use of a macro (or pseudo-instruction): defines the line's label,
    /// then reads the body with the arguments put in, each line in the
    /// expansion file.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn expand(
        &mut self,
        (name, body, pseudo): (String, Vec<String>, bool),
        file: FileId,
        line: u32,
        label: Option<Piece>,
        mspan: Span,
        ops: Option<Piece>,
        conds: &mut Vec<Cond>,
    ) -> Flow {
        let lbl = self.label_here(file, line, label);
        self.push(file, line, lbl, Kind::Plain);
        if pseudo {
            if let Some(o) = ops {
                self.error(
                    Diagnostic::new(
                        Code::Operands,
                        Span::new(file, o.start, o.end()),
                        format!("`{name}` takes no operand"),
                    )
                    .hint("comments start with `;`"),
                );
                return Flow::Go;
            }
        }
        if self.expanding.len() >= MAX_DEPTH {
            self.error(
                Diagnostic::new(
                    Code::Macro,
                    mspan,
                    format!("macros expand more than {MAX_DEPTH} levels deep here"),
                )
                .hint(format!("does `{name}` use itself?")),
            );
            return Flow::Go;
        }
        let args = ops.map(|o| split_args(o.text)).unwrap_or_default();
        if args.len() > MAX_ARGS {
            self.error(Diagnostic::new(
                Code::Operands,
                ops.map_or(mspan, |o| Span::new(file, o.start, o.end())),
                format!("{} arguments; a macro takes at most {MAX_ARGS}", args.len()),
            ));
            return Flow::Go;
        }
        let from = location(mspan, &self.files);
        let vfile = self.expansion_file();
        let (first, _) = self.expansion_line(vfile, &format!("; {name} at {from}"));
        let record = self.expansion_uses.len();
        self.expansion_uses.push(ExpansionUse {
            first,
            last: first,
            name: name.clone(),
            used_at: mspan,
        });
        self.expanding.push(name);
        let mut flow = Flow::Go;
        for raw in &body {
            if self.must_stop(mspan) {
                break;
            }
            let text = substitute(raw, &args);
            let (vline, base) = self.expansion_line(vfile, &text);
            if self.read_line(vfile, vline, &text, base, conds) == Flow::End {
                flow = Flow::End;
                break;
            }
        }
        self.expanding.pop();
        let last = self.expansion_lines;
        if let Some(u) = self.expansion_uses.get_mut(record) {
            u.last = last;
        }
        flow
    }

    /// Adds to every message about a line of the expansion file the use in
    /// the sources it was expanded from (through the macros between, for
    /// nested ones): the file itself is no place to look for the mistake.
    pub(super) fn name_macro_uses(&mut self) {
        let Some(vfile) = self.expansions else {
            return;
        };
        let Some(text) = self.files.get(vfile).map(|f| f.text.as_str()) else {
            return;
        };
        let line_of = |span: Span| super::super::diagnostics::line_col(text, span.start as usize).0;
        // The innermost expansion holding line `l` of the expansion file.
        let innermost = |l: u32| {
            self.expansion_uses
                .iter()
                .filter(|u| u.first <= l && l <= u.last)
                .min_by_key(|u| u.last - u.first)
        };
        for d in &mut self.diags {
            let Some(span) = d.span.filter(|s| s.file == vfile) else {
                continue;
            };
            let mut chain: Vec<&str> = Vec::new();
            let mut at = span;
            while at.file == vfile && chain.len() <= MAX_DEPTH {
                let Some(u) = innermost(line_of(at)) else {
                    break;
                };
                chain.push(&u.name);
                at = u.used_at;
            }
            let Some(outer) = chain.last().filter(|_| at.file != vfile) else {
                continue;
            };
            // The macros between, outermost first; a run of one (a macro
            // that uses itself) once, with its count.
            let mut runs: Vec<(&str, usize)> = Vec::new();
            for n in chain[..chain.len() - 1].iter().rev() {
                match runs.last_mut() {
                    Some((last, count)) if last == n => *count += 1,
                    _ => runs.push((n, 1)),
                }
            }
            let through = if runs.is_empty() {
                String::new()
            } else {
                let inner: Vec<String> = runs
                    .iter()
                    .map(|(n, c)| match c {
                        1 => format!("`{n}`"),
                        c => format!("`{n}` {c} times"),
                    })
                    .collect();
                format!(" (through {})", inner.join(", "))
            };
            d.hints.push(format!(
                "expanded from the macro `{outer}` used at {}{through}",
                location(at, &self.files)
            ));
        }
    }

    /// The file that holds every expansion, created on first use.
    fn expansion_file(&mut self) -> FileId {
        if let Some(id) = self.expansions {
            return id;
        }
        let main = self
            .files
            .first()
            .map(|f| f.path.to_string_lossy().into_owned())
            .unwrap_or_default();
        let id = self.files.len();
        self.files.push(SourceFile {
            path: PathBuf::from(format!("{main} (macros)")),
            text: String::new(),
        });
        self.expansions = Some(id);
        id
    }

    /// Appends a line to the expansion file: its number and file offset.
    fn expansion_line(&mut self, vfile: FileId, text: &str) -> (u32, usize) {
        let Some(f) = self.files.get_mut(vfile) else {
            return (0, 0);
        };
        let base = f.text.len();
        f.text.push_str(text);
        f.text.push('\n');
        self.expansion_lines += 1;
        (self.expansion_lines, base)
    }
}

/// The arguments of a macro use: the operand field split at commas outside
/// quotes and parentheses, each trimmed.
fn split_args(text: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' && is_open_char(&text[i..]) => {
                current.push(c);
                if let Some((_, next)) = chars.next() {
                    current.push(next);
                }
                continue;
            }
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '(' => depth += 1,
            None if c == ')' => depth = depth.saturating_sub(1),
            None if c == ',' && depth == 0 => {
                args.push(current.trim().to_string());
                current.clear();
                continue;
            }
            None => {}
        }
        current.push(c);
    }
    args.push(current.trim().to_string());
    args
}

/// A body line with `~N~` and `\N` (N = 1..9) replaced by argument N (empty
/// if the use gave fewer).
fn substitute(line: &str, args: &[String]) -> String {
    if !line.contains('~') && !line.contains('\\') {
        return line.to_string();
    }
    let arg = |d: u8| args.get(usize::from(d - b'1')).map_or("", String::as_str);
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len() + 16);
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        let digit = |at: usize| bytes.get(at).copied().filter(|b| (b'1'..=b'9').contains(b));
        let hit = match bytes[i] {
            b'~' => digit(i + 1)
                .filter(|_| bytes.get(i + 2) == Some(&b'~'))
                .map(|d| (d, 3)),
            b'\\' => digit(i + 1).map(|d| (d, 2)),
            _ => None,
        };
        match hit {
            Some((d, len)) => {
                out.push_str(&line[copied..i]);
                out.push_str(arg(d));
                i += len;
                copied = i;
            }
            None => i += 1,
        }
    }
    out.push_str(&line[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_split_at_top_level_commas() {
        assert_eq!(split_args("a, #$10 ,(1,2)"), vec!["a", "#$10", "(1,2)"]);
        assert_eq!(split_args("\"x,y\",'A,'B"), vec!["\"x,y\"", "'A", "'B"]);
    }

    #[test]
    fn parameters_are_replaced_in_both_spellings() {
        let args = vec!["PORTB".to_string(), "#1".to_string()];
        assert_eq!(substitute(" ldaa ~2~\n", &args), " ldaa #1\n");
        assert_eq!(substitute(" staa \\1,x", &args), " staa PORTB,x");
        assert_eq!(substitute(" ldab ~3~", &args), " ldab ");
        assert_eq!(substitute(" fcc \"~x~\"", &args), " fcc \"~x~\"");
    }
}

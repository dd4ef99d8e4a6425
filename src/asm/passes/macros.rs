//! ASM11 macros and pseudo-instructions in pass 1: recording a definition
//! (`NAME macro` ... `endm`), and expanding a use by substituting its
//! arguments (`~1~` ... `~9~`, or `\1` ... `\9`) and reading the lines that
//! result as if they stood where the macro is used.
//!
//! The expanded lines are kept in one extra source file per assembly
//! (`NAME.asm (macros)`), each expansion under a comment line naming the
//! macro and where it is used, so that every byte has a line to show in the
//! listing, the debugger and messages.

use super::super::diagnostics::{display_path, location, Code, Diagnostic, Span};
use super::super::directives::Directive;
use super::super::lexer::{is_open_char, Piece};
use super::super::{asm11, dialect};
use super::{macro_language, Asm, Cond, Flow, Kind};
use crate::image::{FileId, SourceFile};
use std::path::PathBuf;

/// Deepest nesting of expansions (a macro that uses itself stops here).
const MAX_DEPTH: usize = 16;

/// Most arguments a macro can refer to (`~1~` ... `~9~`).
const MAX_ARGS: usize = 9;

/// How often the clock is read while expanding: every this many lines.
const CLOCK_EVERY: u32 = 256;

/// The lines of one expansion in the expansion file (its comment line
/// first, `first..=last`), the use it came from, and the expansion it
/// lies in (an index into the list of uses).
pub(super) struct ExpansionUse {
    first: u32,
    last: u32,
    name: String,
    used_at: Span,
    parent: Option<usize>,
}

/// The bookkeeping of the expansion limits ([`AsmOptions`]'s
/// `max_expansion_lines` and `max_expansion_time`).
///
/// [`AsmOptions`]: super::super::AsmOptions
#[derive(Default)]
pub(super) struct Budget {
    /// Time spent in expansions that have ended.
    spent: std::time::Duration,
    /// When the outermost expansion under way began.
    since: Option<crate::platform::Instant>,
    /// The open expansions' records, outermost first.
    open: Vec<usize>,
    /// The expansion under way stops (an error was reported inside it):
    /// every enclosing one stops reading its body too.
    abandon: bool,
    /// A limit was reported: nothing expands any more.
    exhausted: bool,
    /// Expanded lines checked against the limits so far.
    checks: u32,
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
        // ASM11 calls a macro by name or, explicitly, as `@Name`.
        let word = match self.opts.dialect {
            dialect::Dialect::Asm11 => word.strip_prefix('@').unwrap_or(word),
            _ => word,
        };
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

    /// ASM11's `lsra:4`: the instruction (or pseudo-instruction) written
    /// that many times, with the line's operand, as an expansion.
    pub(super) fn repeat_body(
        &self,
        word: &str,
        ops: Option<Piece>,
    ) -> Option<(String, Vec<String>, bool)> {
        if self.opts.dialect != dialect::Dialect::Asm11 {
            return None;
        }
        let (name, count) = asm11::repeated(word)?;
        let known = dialect::instruction(self.opts.dialect, name).is_some()
            || asm11::pseudo_instruction(name).is_some();
        if !known {
            return None;
        }
        let line = match ops {
            Some(o) => format!("\t{name} {}", o.text),
            None => format!("\t{name}"),
        };
        Some((word.to_string(), vec![line; count as usize], false))
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
        // ASM11's language: a body that uses `~label~` takes the use's
        // label as text (`PORTA @? $00` defines PORTA through `~label~ set
        // ...`), so the label does not label the first byte.
        let language = self.opts.dialect == dialect::Dialect::Asm11 && !pseudo;
        let label_as_text = language
            && body
                .iter()
                .any(|l| l.to_ascii_lowercase().contains("~label~"));
        let lbl = if label_as_text {
            None
        } else {
            self.label_here(file, line, label)
        };
        self.push(file, line, lbl, Kind::Plain);
        // A body that writes the `#` itself (`aix #31` is `addd #31`) takes
        // a value, with or without the user's `#`.
        let takes_value = pseudo && body.iter().any(|l| l.contains("#~1~"));
        if pseudo {
            // A pseudo-instruction takes one operand where its body has
            // `~1~` (`jeq Label`), none elsewhere (`clrd`).
            let wants = body.iter().any(|l| l.contains("~1~"));
            let given = ops.map(|o| split_args(o.text).len());
            let problem = match (wants, given) {
                (false, Some(_)) => Some(format!("`{name}` takes no operand")),
                (true, None) if takes_value => Some(format!("`{name}` needs a value")),
                (true, None) => Some(format!("`{name}` needs a target address")),
                (true, Some(n)) if n > 1 => {
                    Some(format!("`{name}` takes one address (no indexed operand)"))
                }
                _ => None,
            };
            if let Some(message) = problem {
                let at = ops.map_or(mspan, |o| Span::new(file, o.start, o.end()));
                let hint = if takes_value {
                    format!("write `{name} #value`")
                } else if wants {
                    format!("write `{name} Label`")
                } else {
                    "comments start with `;`".to_string()
                };
                self.error(Diagnostic::new(Code::Operands, at, message).hint(hint));
                return Flow::Go;
            }
        }
        if self.expansion_budget.exhausted {
            // The limit was reported once; more uses would only repeat it.
            return Flow::Go;
        }
        if self.expanding.len() >= MAX_DEPTH {
            self.error(
                Diagnostic::new(
                    Code::Macro,
                    mspan,
                    format!(
                        "macro `{name}` expands more than {MAX_DEPTH} levels deep here; its expansion stops"
                    ),
                )
                .hint(if self.expanding.contains(&name) {
                    format!("`{name}` uses itself, so its expansion never ends")
                } else {
                    format!("macros may use other macros at most {MAX_DEPTH} levels deep")
                }),
            );
            // The whole expansion stops, not just this level: a macro that
            // uses itself twice would otherwise report 2^16 times.
            self.expansion_budget.abandon = true;
            return Flow::Go;
        }
        let mut args = ops.map(|o| split_args(o.text)).unwrap_or_default();
        if takes_value {
            for a in &mut args {
                if let Some(v) = a.strip_prefix('#') {
                    *a = v.to_string();
                }
            }
        }
        if args.len() > MAX_ARGS {
            self.error(Diagnostic::new(
                Code::Operands,
                ops.map_or(mspan, |o| Span::new(file, o.start, o.end())),
                format!("{} arguments; a macro takes at most {MAX_ARGS}", args.len()),
            ));
            return Flow::Go;
        }
        let from = self.use_location(line, mspan);
        let vfile = self.expansion_file();
        let (first, _) = self.expansion_line(vfile, &format!("; {name} at {from}"));
        let record = self.expansion_uses.len();
        self.expansion_uses.push(ExpansionUse {
            first,
            last: first,
            name: name.clone(),
            used_at: mspan,
            parent: self.expansion_budget.open.last().copied(),
        });
        if self.expanding.is_empty() {
            self.expansion_budget.since = Some(crate::platform::Instant::now());
        }
        self.expansion_budget.open.push(record);
        self.expanding.push(name.clone());
        let mut call = macro_language::Call {
            name,
            label: label.map(|l| l.text.to_string()).unwrap_or_default(),
            operands: ops.map(|o| o.text.to_string()).unwrap_or_default(),
            args,
        };
        let open_conds = conds.len();
        let mut flow = Flow::Go;
        for raw in &body {
            if self.expansion_budget.abandon || self.must_stop(mspan) || self.over_budget() {
                break;
            }
            let text = if language {
                match macro_language::substitute(raw, &call, &mut |e| self.value_while_expanding(e))
                {
                    Ok(t) => t,
                    Err(message) => {
                        self.error(Diagnostic::new(Code::Macro, mspan, message));
                        continue;
                    }
                }
            } else {
                substitute(raw, &call.args)
            };
            let (vline, base) = self.expansion_line(vfile, &text);
            let active = conds.last().is_none_or(|c| c.active);
            if let Some(control) = macro_language::control(&text).filter(|_| language && active) {
                self.push(vfile, vline, None, Kind::Plain);
                if control == macro_language::Control::Exit {
                    // Its `#if`s end with it: their `#endif`s stay unread.
                    conds.truncate(open_conds);
                    break;
                }
                if let Err(message) = macro_language::apply(control, &mut call) {
                    let at = Span::new(vfile, base, base + text.len());
                    self.error(Diagnostic::new(Code::Macro, at, message));
                }
                continue;
            }
            if self.read_line(vfile, vline, &text, base, conds) == Flow::End {
                flow = Flow::End;
                break;
            }
        }
        self.expanding.pop();
        self.expansion_budget.open.pop();
        if self.expanding.is_empty() {
            let b = &mut self.expansion_budget;
            b.abandon = false;
            b.spent += b.since.take().map(|t| t.elapsed()).unwrap_or_default();
        }
        let last = self.expansion_lines;
        if let Some(u) = self.expansion_uses.get_mut(record) {
            u.last = last;
        }
        flow
    }

    /// The value of `text` (an ASM11 `{expr}` in a macro body) with what
    /// is known at this line; `None` if it has none.
    fn value_while_expanding(&mut self, text: &str) -> Option<i64> {
        let marked = self.asm11_names(text);
        let text = marked.as_deref().unwrap_or(text);
        let table = &mut self.table;
        let mut intern = |n: &str| table.intern(n);
        let piece = Piece { text, start: 0 };
        let mut p = Self::parser(piece, 0, &mut intern, self.opts.dialect);
        let (e, _) = p.expr().ok()?;
        if !p.at_end() {
            return None;
        }
        self.known(&e)
    }

    /// `file:line:col` of a use on line `line`, its column counted from the
    /// line's own start: [`location`] counts lines from the file's start,
    /// which for uses inside the growing expansion file made expanding
    /// take time with the square of the expanded lines.
    fn use_location(&self, line: u32, span: Span) -> String {
        let Some(f) = self.files.get(span.file) else {
            return location(span, &self.files);
        };
        let before = f.text.get(..span.start as usize).unwrap_or("");
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        format!("{}:{line}:{col}", display_path(f))
    }

    /// True once the expansions have made more lines or taken longer than
    /// the options allow; the first time, says so at the outermost use,
    /// naming its macro (and the one expanding, if another).
    fn over_budget(&mut self) -> bool {
        if self.expansion_budget.exhausted {
            return true;
        }
        let too_long = self.expansion_lines as usize >= self.opts.max_expansion_lines;
        self.expansion_budget.checks = self.expansion_budget.checks.wrapping_add(1);
        let too_slow = !too_long
            && self.expansion_budget.checks % CLOCK_EVERY == 0
            && self.expansion_budget.spent
                + self
                    .expansion_budget
                    .since
                    .map(|t| t.elapsed())
                    .unwrap_or_default()
                > self.opts.max_expansion_time;
        if !too_long && !too_slow {
            return false;
        }
        self.expansion_budget.exhausted = true;
        let outer = self
            .expansion_budget
            .open
            .first()
            .and_then(|&r| self.expansion_uses.get(r))
            .map(|u| (u.name.clone(), u.used_at));
        let Some((outer, at)) = outer else {
            return true;
        };
        let what = if too_long {
            format!("makes more than {} lines", self.opts.max_expansion_lines)
        } else {
            format!(
                "takes longer than {:.1} s",
                self.opts.max_expansion_time.as_secs_f64()
            )
        };
        let mut d = Diagnostic::new(
            Code::Macro,
            at,
            format!("expanding the macro `{outer}` {what}; expansion stops here"),
        );
        if let Some(inner) = self.expanding.last().filter(|n| **n != outer) {
            d = d.hint(format!("it stopped inside `{inner}`"));
        }
        self.error(d.hint(
            "a macro that uses another macro several times multiplies the lines at every level of nesting: is that meant?",
        ));
        true
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
        // Where each line of the expansion file starts, to find a span's
        // line by bisection (there may be a message on every line).
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let line_of = |span: Span| starts.partition_point(|&s| s <= span.start as usize) as u32;
        let uses = &self.expansion_uses;
        // The innermost expansion holding line `l` of the expansion file:
        // the last to start at or before it, or the one around that.
        let innermost = |l: u32| {
            let mut at = uses.partition_point(|u| u.first <= l).checked_sub(1)?;
            loop {
                let u = uses.get(at)?;
                if l <= u.last {
                    return Some(u);
                }
                at = u.parent?;
            }
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

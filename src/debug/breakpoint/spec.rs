//! A breakpoint spec as written (`--break`, the GUI's breakpoint box):
//! parsed into a [`BreakSpec`] with column-exact errors, and placed in a
//! program ([`BreakSpec::resolve`]) by address, label or source line, with
//! a suggestion for a name that is not there.

use crate::debug::condition::{BoundExpr, ConditionError, Expr};
use crate::image::{FileId, Program};
use std::fmt;

/// Where a breakpoint is, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A fixed address.
    Address(u16),
    /// A label plus an offset (`readInput`, `drawCell+12`).
    Label {
        /// The label as written.
        name: String,
        /// Bytes from the label (may be negative).
        offset: i32,
    },
    /// A source line (`Viergewinnt.asm:120`).
    Line {
        /// The file name or a path suffix, as written.
        file: String,
        /// 1-based line number.
        line: u32,
    },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Address(a) => write!(f, "${a:04X}"),
            Location::Label { name, offset: 0 } => f.write_str(name),
            Location::Label { name, offset } if *offset > 0 => write!(f, "{name}+{offset}"),
            Location::Label { name, offset } => write!(f, "{name}{offset}"),
            Location::Line { file, line } => write!(f, "{file}:{line}"),
        }
    }
}

/// A parsed breakpoint spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BreakSpec {
    /// Where.
    pub location: Location,
    /// Stop only when this holds.
    pub condition: Option<Expr>,
    /// Stop from the Nth (condition-true) hit on; `None` = the first.
    pub hit_count: Option<u32>,
    /// The spec as written (reports echo it).
    pub text: String,
}

/// Why a breakpoint spec could not be parsed or placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BreakError {
    /// The spec text is malformed at this 1-based column.
    #[error("breakpoint `{spec}`, column {column}: {message}")]
    Syntax {
        /// The spec as written.
        spec: String,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The condition does not parse or names an unknown symbol.
    #[error("breakpoint `{spec}`, condition: {source}")]
    Condition {
        /// The spec as written.
        spec: String,
        /// The condition's error (its column is within the condition text).
        source: ConditionError,
    },
    /// No label of that name in the program.
    #[error("breakpoint `{spec}`: no label `{name}` in the program{hint}")]
    UnknownLabel {
        /// The spec as written.
        spec: String,
        /// The missing name.
        name: String,
        /// ", did you mean `x`?" or empty.
        hint: String,
    },
    /// No source file of the program matches.
    #[error("breakpoint `{spec}`: no source file `{file}` in the program")]
    UnknownFile {
        /// The spec as written.
        spec: String,
        /// The file as written.
        file: String,
    },
    /// The line and every line after it in the file produce no code.
    #[error("breakpoint `{spec}`: line {line} of `{file}` and the lines after it produce no code")]
    NoCode {
        /// The spec as written.
        spec: String,
        /// The file as written.
        file: String,
        /// The line asked for.
        line: u32,
    },
    /// No breakpoint with this id.
    #[error("no breakpoint #{0}")]
    NoSuchId(u32),
}

fn parse_number(s: &str) -> Option<i64> {
    let s = s.trim();
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

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '.')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

impl BreakSpec {
    /// Parses a spec (see the module docs for the grammar).
    pub fn parse(text: &str) -> Result<BreakSpec, BreakError> {
        let err = |column: usize, message: &str| BreakError::Syntax {
            spec: text.to_string(),
            column,
            message: message.to_string(),
        };
        let lead = text.len() - text.trim_start().len();
        let (head, condition) = match find_if(text) {
            Some(at) => {
                let cond_src = &text[at + 4..];
                let expr = Expr::parse(cond_src).map_err(|source| BreakError::Condition {
                    spec: text.to_string(),
                    source,
                })?;
                (&text[..at], Some(expr))
            }
            None => (text, None),
        };
        let head_trim = head.trim();
        if head_trim.is_empty() {
            return Err(err(lead + 1, "expected an address, a label or FILE:LINE"));
        }
        let parts: Vec<&str> = head_trim.split(':').collect();
        let col_of = |part_index: usize| -> usize {
            lead + 1
                + parts[..part_index]
                    .iter()
                    .map(|p| p.len() + 1)
                    .sum::<usize>()
        };
        let count = |s: &str, idx: usize| -> Result<u32, BreakError> {
            match parse_number(s) {
                Some(n) if n >= 1 && n <= u32::MAX as i64 => Ok(n as u32),
                _ => Err(err(col_of(idx), "expected a hit count (a number >= 1)")),
            }
        };
        let first = parts.first().copied().unwrap_or("");
        let looks_like_file = first.contains('/') || first.contains('\\') || has_extension(first);
        let (location, hit_count) = if looks_like_file {
            if parts.len() < 2 || parts.len() > 3 {
                return Err(err(col_of(0), "expected FILE:LINE or FILE:LINE:N"));
            }
            let line = match parse_number(parts[1]) {
                Some(n) if n >= 1 && n <= u32::MAX as i64 => n as u32,
                _ => return Err(err(col_of(1), "expected a line number (>= 1)")),
            };
            let hits = match parts.get(2) {
                Some(s) => Some(count(s, 2)?),
                None => None,
            };
            (
                Location::Line {
                    file: first.to_string(),
                    line,
                },
                hits,
            )
        } else {
            if parts.len() > 2 {
                return Err(err(col_of(2), "too many `:` (LABEL:N or FILE:LINE)"));
            }
            let hits = match parts.get(1) {
                Some(s) => Some(count(s, 1)?),
                None => None,
            };
            (
                parse_location(first).ok_or_else(|| {
                    err(
                        col_of(0),
                        "expected an address ($C000), a label (drawCell, drawCell+4) or FILE:LINE",
                    )
                })?,
                hits,
            )
        };
        Ok(BreakSpec {
            location,
            condition,
            hit_count,
            text: text.trim().to_string(),
        })
    }

    /// The spec for a plain address.
    pub fn at_address(addr: u16) -> BreakSpec {
        BreakSpec {
            location: Location::Address(addr),
            condition: None,
            hit_count: None,
            text: format!("${addr:04X}"),
        }
    }

    /// Resolves the location against `program`: the addresses to stop at and
    /// the condition bound to its symbols.
    pub fn resolve(&self, program: &Program) -> Result<Resolved, BreakError> {
        let spec = self.text.clone();
        let (addrs, line) = match &self.location {
            Location::Address(a) => (vec![*a], None),
            Location::Label { name, offset } => {
                let sym = program
                    .symbol(name)
                    .ok_or_else(|| BreakError::UnknownLabel {
                        spec: spec.clone(),
                        name: name.clone(),
                        hint: suggest(program, name),
                    })?;
                let addr = (sym.value as i32).wrapping_add(*offset) as u16;
                (vec![addr], None)
            }
            Location::Line { file, line } => {
                let fid = find_file(program, file).ok_or_else(|| BreakError::UnknownFile {
                    spec: spec.clone(),
                    file: file.clone(),
                })?;
                // Like most debuggers, a line without code moves to the next
                // line of the same file that has some.
                let mut best: Option<u32> = None;
                for l in program
                    .lines
                    .iter()
                    .filter(|l| l.file == fid && l.line >= *line && l.len > 0)
                {
                    if best.is_none_or(|b| l.line < b) {
                        best = Some(l.line);
                    }
                }
                let Some(actual) = best else {
                    return Err(BreakError::NoCode {
                        spec,
                        file: file.clone(),
                        line: *line,
                    });
                };
                let addrs = program
                    .addrs_of_line(fid, actual)
                    .filter(|l| l.len > 0)
                    .map(|l| l.addr)
                    .collect();
                (addrs, Some((fid, actual)))
            }
        };
        let condition = match &self.condition {
            Some(c) => Some(c.bind(program).map_err(|source| BreakError::Condition {
                spec: self.text.clone(),
                source,
            })?),
            None => None,
        };
        Ok(Resolved {
            addrs,
            line,
            condition,
        })
    }
}

/// Position of the ` if ` that starts the condition, if any.
fn find_if(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    lower.find(" if ")
}

fn has_extension(s: &str) -> bool {
    match s.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && !ext.is_empty()
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
        }
        None => false,
    }
}

fn parse_location(s: &str) -> Option<Location> {
    let s = s.trim();
    if s.starts_with('$') || s.starts_with("0x") || s.starts_with("0X") {
        let v = parse_number(s)?;
        return (0..=0xFFFF)
            .contains(&v)
            .then_some(Location::Address(v as u16));
    }
    let split = s.find(['+', '-']);
    let (name, offset) = match split {
        Some(i) => {
            let off = parse_number(&s[i + 1..])?;
            let off = if &s[i..=i] == "-" { -off } else { off };
            (s[..i].trim(), i32::try_from(off).ok()?)
        }
        None => (s, 0),
    };
    is_name(name).then(|| Location::Label {
        name: name.to_string(),
        offset,
    })
}

/// The file whose path equals or ends with `name` (case-insensitive, either slash).
pub fn find_file(program: &Program, name: &str) -> Option<FileId> {
    let want = name.replace('\\', "/").to_ascii_lowercase();
    program.files.iter().position(|f| {
        let path = f
            .path
            .to_string_lossy()
            .replace('\\', "/")
            .to_ascii_lowercase();
        path == want || path.ends_with(&format!("/{want}"))
    })
}

fn suggest(program: &Program, name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    program
        .symbols
        .iter()
        .map(|s| (edit_distance(&s.name.to_ascii_lowercase(), &lower), &s.name))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| format!(", did you mean `{n}`?"))
        .unwrap_or_default()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// A spec placed in a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Addresses to stop at (a source line may produce several runs of bytes).
    pub addrs: Vec<u16>,
    /// For line breakpoints: the file and the line actually used.
    pub line: Option<(FileId, u32)>,
    /// The condition, bound.
    pub condition: Option<BoundExpr>,
}

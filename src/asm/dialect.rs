//! The source dialects the assembler reads, and what differs between them:
//! how a line splits into fields, which extra directives exist, how
//! expressions group, and what happens to a 16-bit value used as an 8-bit
//! immediate. The specification is `docs/dialects.md`.

use super::directives::{self, Directive};
use super::lexer::{self, BadLabel, Fields, Piece};
use super::{as11, asm11};
use crate::cpu::opcodes::Op;
use std::fmt;
use std::str::FromStr;

/// A source dialect (`--dialect`, `dialect = "as11"` in assignment.toml).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// The course dialect (miniIDE's ASM11 as the Viergewinnt sources use it).
    #[default]
    Course,
    /// Motorola's freeware AS11 as the EVB manuals use it: free-text
    /// comments after the operand field, left-to-right expressions.
    As11,
    /// The full ASM11 dialect the course dialect is a subset of.
    Asm11,
}

impl Dialect {
    /// Every dialect, in the order the help text lists them.
    pub const ALL: [Dialect; 3] = [Dialect::Course, Dialect::As11, Dialect::Asm11];

    /// The name on the command line and in assignment.toml.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Course => "course",
            Dialect::As11 => "as11",
            Dialect::Asm11 => "asm11",
        }
    }

    /// The name in messages (`AS11`).
    pub fn title(self) -> &'static str {
        match self {
            Dialect::Course => "course",
            Dialect::As11 => "AS11",
            Dialect::Asm11 => "ASM11",
        }
    }

    /// True if binary operators have no precedence and group left to right
    /// (AS11: `2+3*4` is 20). ASM11 too: its sources rely on it, as in
    /// `~1~>{:mloop-1*8}&$FF` (the byte numbered `:mloop`, counting from 1)
    /// and `BUS_KHZ-:cycles-:ocycles/:temp` (a loop count).
    pub fn left_to_right(self) -> bool {
        matches!(self, Dialect::As11 | Dialect::Asm11)
    }

    /// True if a value that does not fit an 8-bit immediate is cut to its
    /// low byte with a warning instead of being an error (AS11 does that).
    pub fn truncates_immediates(self) -> bool {
        self == Dialect::As11
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Dialect, String> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown dialect `{s}`; use course, as11 or asm11"))
    }
}

/// Splits one source line into its fields as `dialect` reads it.
pub fn split_line(dialect: Dialect, line: &str, base: usize) -> Result<Fields<'_>, BadLabel> {
    match dialect {
        Dialect::Course => lexer::split_line(line, base),
        Dialect::As11 => as11::split_line(line, base),
        Dialect::Asm11 => asm11::split_line(line, base),
    }
}

/// Directives every dialect accepts beyond the course table, because they
/// cannot mean anything else: `cpu 6811` headers.
const COMMON: &[(&str, Directive)] = &[("cpu", Directive::Cpu)];

/// Looks up a mnemonic-field word as a directive of `dialect`.
pub fn directive(dialect: Dialect, word: &str) -> Option<Directive> {
    let extra: &[(&str, Directive)] = match dialect {
        Dialect::Course => &[],
        Dialect::As11 => as11::DIRECTIVES,
        Dialect::Asm11 => asm11::DIRECTIVES,
    };
    let lower = word.to_ascii_lowercase();
    let bare = lower.strip_prefix('.').unwrap_or(&lower);
    extra
        .iter()
        .chain(COMMON)
        .find(|(n, _)| *n == bare || *n == lower)
        .map(|(_, d)| *d)
        .or_else(|| directives::directive(word))
}

/// Spellings of real instructions that other assemblers accept and that
/// cannot mean anything else, so every dialect takes them.
const ALIASES: &[(&str, Op)] = &[
    ("cmpx", Op::Cpx),
    ("cmpy", Op::Cpy),
    // The 6801's names for the D loads and stores.
    ("ldad", Op::Ldd),
    ("stad", Op::Std),
];

/// Looks up an instruction mnemonic of `dialect`, aliases included. In
/// ASM11 a `!` before the mnemonic (`!jmp`) keeps the instruction as
/// written, which hc11lab always does: `!jmp` is `jmp`.
pub fn instruction(dialect: Dialect, word: &str) -> Option<Op> {
    let word = match dialect {
        Dialect::Asm11 => word.strip_prefix('!').unwrap_or(word),
        _ => word,
    };
    directives::instruction(word).or_else(|| {
        ALIASES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(word))
            .map(|(_, op)| *op)
    })
}

/// `NAME equ #100`: the `#` some assemblers allow before a constant's value
/// is dropped (a value is never an addressing mode).
pub fn strip_hash(ops: Piece<'_>) -> Piece<'_> {
    match ops.text.strip_prefix('#') {
        Some(rest) => Piece {
            text: rest,
            start: ops.start + 1,
        },
        None => ops,
    }
}

/// True if `word` is a directive only some other dialect knows (for the
/// "this file looks like ..." rule): the dialect that knows it.
pub fn foreign_directive(word: &str) -> Option<Dialect> {
    let lower = word.to_ascii_lowercase();
    if directives::directive(&lower).is_some() {
        return None;
    }
    [
        (Dialect::As11, as11::DIRECTIVES),
        (Dialect::Asm11, asm11::DIRECTIVES),
    ]
    .into_iter()
    .find(|(_, table)| table.iter().any(|(n, _)| *n == lower))
    .map(|(d, _)| d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in Dialect::ALL {
            assert_eq!(d.name().parse::<Dialect>(), Ok(d));
        }
        assert!("gnu".parse::<Dialect>().is_err());
        assert_eq!("AS11".parse::<Dialect>(), Ok(Dialect::As11));
    }

    #[test]
    fn extra_directives_belong_to_their_dialect() {
        assert_eq!(directive(Dialect::As11, "BSZ"), Some(Directive::Zero));
        assert_eq!(directive(Dialect::Course, "bsz"), None);
        assert_eq!(directive(Dialect::Course, "cpu"), Some(Directive::Cpu));
        assert_eq!(directive(Dialect::As11, "fcb"), Some(Directive::Dc(1)));
        assert_eq!(foreign_directive("nam"), Some(Dialect::As11));
        assert_eq!(foreign_directive("org"), None);
    }
}

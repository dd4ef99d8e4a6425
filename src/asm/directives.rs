//! The directives of the course dialect (ASM11 as used with miniIDE, plus the
//! common Motorola spellings): recognising them and parsing data lists.

use super::diagnostics::Span;
use super::diagnostics::{Code, Diagnostic};
use super::expr::{Expr, Parser};
use super::lexer::is_open_char;
use super::source::cp1252_byte;
use crate::cpu::opcodes::Op;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A directive word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Directive {
    /// `include FILE`
    Include,
    /// `NAME Section`: declare a section and switch to it.
    Section,
    /// `switch NAME`
    Switch,
    /// `org ADDR`
    Org,
    /// `NAME equ VALUE` (also `=`)
    Equ,
    /// `ds.b`/`ds`/`rmb` (unit 1), `ds.w`/`rmw` (unit 2): reserve space.
    Ds(u8),
    /// `dc.b`/`db`/`fcb` (unit 1), `dc.w`/`dw`/`fdb` (unit 2), ASM11's
    /// `long` (unit 4, big-endian): data.
    Dc(u8),
    /// `fcc`: a string, in quotes or between any delimiter (`fcc /text/`).
    Fcc,
    /// `.if EXPR`
    If,
    /// `.ifdef NAME`
    Ifdef,
    /// `.ifndef NAME`
    Ifndef,
    /// `.else`
    Else,
    /// `.endif`
    Endif,
    /// `end`: stop reading this file.
    End,
    /// `bsz`/`zmb COUNT` (AS11): COUNT zero bytes.
    Zero,
    /// `fill VALUE,COUNT` (AS11): COUNT bytes of VALUE.
    Fill,
    /// `opt`, `nam`, `ttl`, `page`, `spc` (AS11): listing controls, no bytes.
    Listing,
    /// `cpu 6811` (any dialect): names the processor; checked, no bytes.
    Cpu,
    /// `fcs "text"` (ASM11): the string followed by a zero byte.
    Fcs,
    /// `#RAM`, `#ROM`, `#DATA`, `#EEPROM`, `#VECTORS` (ASM11): switch to that
    /// segment, each with its own location counter.
    Segment(&'static str),
    /// `NAME proc` (ASM11): starts a procedure, the scope of `@@` labels.
    Proc,
    /// `endp` (ASM11): ends the procedure (`@@` labels are global again).
    Endp,
    /// `NAME set VALUE` (ASM11): a constant that a later `set` may change.
    Set,
    /// `NAME macro` or `macro NAME` (ASM11): starts a macro definition.
    Macro,
    /// `endm` (ASM11): ends a macro definition.
    Endm,
    /// `NAME def VALUE` (ASM11): as `equ`, unless NAME is defined already
    /// (by `-D` or above), when the line changes nothing.
    Def,
    /// `#Uses FILE` (ASM11): as `#include`, but a file already read is
    /// not read again.
    Uses,
    /// `#ifz EXPR` (ASM11): the branch is taken if EXPR is zero.
    Ifz,
    /// `#IfMain` (ASM11): the branch is taken in the main source file only.
    IfMain,
    /// `#CaseOn` (true) / `#CaseOff` (false) (ASM11): symbol names that
    /// follow are case-sensitive, or not (the default).
    Case(bool),
    /// `#Temp [VALUE]` (ASM11): sets the counter `:temp` (0 without a value).
    Temp,
    /// `#Cycles [VALUE]` (ASM11): `:ocycles` takes the cycles counted so
    /// far, and counting starts again from VALUE (0 without one).
    Cycles,
    /// `NAME next COUNTER[,STEP]` (ASM11): NAME is COUNTER's value, then
    /// COUNTER grows by STEP (1 without one); lays out tables of offsets.
    Next,
}

/// Every directive spelling (without the optional leading dot), for lookups
/// and "did you mean" hints.
pub const DIRECTIVE_NAMES: &[(&str, Directive)] = &[
    ("include", Directive::Include),
    ("section", Directive::Section),
    ("switch", Directive::Switch),
    ("org", Directive::Org),
    ("equ", Directive::Equ),
    ("=", Directive::Equ),
    ("ds.b", Directive::Ds(1)),
    ("ds", Directive::Ds(1)),
    ("rmb", Directive::Ds(1)),
    ("ds.w", Directive::Ds(2)),
    ("rmw", Directive::Ds(2)),
    ("dc.b", Directive::Dc(1)),
    ("db", Directive::Dc(1)),
    ("fcb", Directive::Dc(1)),
    ("dc.w", Directive::Dc(2)),
    ("dw", Directive::Dc(2)),
    ("fdb", Directive::Dc(2)),
    ("fcc", Directive::Fcc),
    ("if", Directive::If),
    ("ifdef", Directive::Ifdef),
    ("ifndef", Directive::Ifndef),
    ("else", Directive::Else),
    ("endif", Directive::Endif),
    ("end", Directive::End),
];

/// What a mnemonic-field word is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    /// A directive.
    Directive(Directive),
    /// An instruction (canonical name or alias).
    Op(Op),
}

/// Looks up a mnemonic-field word, case-insensitively: directives with or
/// without a leading dot, instructions by name or alias. One hash lookup
/// without allocation for words up to 16 bytes.
pub fn word(text: &str) -> Option<Word> {
    static TABLE: OnceLock<HashMap<String, Word>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut m = HashMap::new();
        for name in Op::all_mnemonics() {
            if let Some(op) = Op::from_mnemonic(name) {
                m.insert(name.to_string(), Word::Op(op));
            }
        }
        for (name, d) in DIRECTIVE_NAMES {
            m.insert(name.to_string(), Word::Directive(*d));
            m.insert(format!(".{name}"), Word::Directive(*d));
        }
        m
    });
    let mut buf = [0u8; 16];
    let bytes = text.as_bytes();
    if bytes.len() > buf.len() || !text.is_ascii() {
        return None;
    }
    let lower = buf.get_mut(..bytes.len())?;
    for (d, s) in lower.iter_mut().zip(bytes) {
        *d = s.to_ascii_lowercase();
    }
    let key = std::str::from_utf8(lower).ok()?;
    table.get(key).copied()
}

/// Looks up a directive, case-insensitively, with or without a leading dot.
pub fn directive(text: &str) -> Option<Directive> {
    match word(text) {
        Some(Word::Directive(d)) => Some(d),
        _ => None,
    }
}

/// Looks up an instruction mnemonic or alias, case-insensitively.
pub fn instruction(text: &str) -> Option<Op> {
    match word(text) {
        Some(Word::Op(op)) => Some(op),
        _ => None,
    }
}

/// One item of a data list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// String bytes (Windows-1252).
    Bytes(Vec<u8>),
    /// A value of the list's unit size.
    Value(Expr, Span),
}

/// Encodes string text to Windows-1252 bytes.
pub fn string_bytes(s: &str, span: Span) -> Result<Vec<u8>, Diagnostic> {
    s.chars()
        .map(|c| {
            cp1252_byte(c).ok_or_else(|| {
                Diagnostic::new(
                    Code::BadCharacter,
                    span,
                    format!("`{c}` has no byte in Windows-1252"),
                )
                .hint("the LCD font and the terminal use single bytes; write the value as a number")
            })
        })
        .collect()
}

/// Parses a `dc.b`/`dc.w`/`fcc` list. Strings are allowed for byte lists;
/// a quoted single character followed by an operator is a character constant.
/// For `fcc` the first item may use any delimiter (`fcc /text/`).
pub fn parse_data(p: &mut Parser, unit: u8, fcc: bool) -> Result<Vec<Item>, Diagnostic> {
    let mut items = Vec::new();
    if p.at_end() {
        return Err(p.error_here("expected data after the directive"));
    }
    let mut first = true;
    loop {
        p.skip_ws();
        if unit == 2 && p.peek() == Some('#') {
            // `fdb #label`: some assemblers allow the `#`; a word is a value.
            p.eat('#');
        }
        let save = p.pos();
        let c = p.peek().unwrap_or(' ');
        if fcc && first && !c.is_alphanumeric() && !"'\"$%@(-~<>*_.".contains(c) {
            let (s, span) = p.delimited(c)?;
            items.push(Item::Bytes(string_bytes(&s, span)?));
        } else if let Some(item) = open_char(p) {
            items.push(item?);
        } else if let Some((s, span)) = p.string()? {
            let ends_item = p.at_end() || p.peek() == Some(',');
            if ends_item && (unit == 1 || s.chars().count() != 1) {
                if unit != 1 {
                    return Err(Diagnostic::new(
                        Code::Operands,
                        span,
                        "strings are allowed in `dc.b` and `fcc` only",
                    ));
                }
                items.push(Item::Bytes(string_bytes(&s, span)?));
            } else {
                p.reset(save);
                let (e, span) = p.expr()?;
                items.push(Item::Value(e, span));
            }
        } else {
            let (e, span) = p.expr()?;
            items.push(Item::Value(e, span));
        }
        first = false;
        if p.at_end() {
            break;
        }
        if !p.eat(',') {
            return Err(p
                .error_here(format!(
                    "expected `,` between data items, found {}",
                    p.found()
                ))
                .hint("comments start with `;`"));
        }
        if p.at_end() {
            return Err(p.error_here("expected a data item after `,`"));
        }
    }
    Ok(items)
}

/// `fcb 'A,'B`: a character constant without its closing quote (see
/// [`is_open_char`]); the expression parser reads it.
fn open_char(p: &mut Parser) -> Option<Result<Item, Diagnostic>> {
    is_open_char(p.rest()).then(|| p.expr().map(|(e, span)| Item::Value(e, span)))
}

/// Number of bytes a data list takes.
pub fn data_len(items: &[Item], unit: u8) -> usize {
    items
        .iter()
        .map(|i| match i {
            Item::Bytes(b) => b.len(),
            Item::Value(..) => unit as usize,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(text: &str, unit: u8, fcc: bool) -> Result<Vec<Item>, String> {
        let mut intern = |_: &str| 0;
        let mut p = Parser::new(text, 0, 0, &mut intern);
        parse_data(&mut p, unit, fcc).map_err(|d| d.message)
    }

    #[test]
    fn directive_spellings() {
        assert_eq!(directive("DC.B"), Some(Directive::Dc(1)));
        assert_eq!(directive(".ifndef"), Some(Directive::Ifndef));
        assert_eq!(directive("Section"), Some(Directive::Section));
        assert_eq!(directive("ldaa"), None);
        assert_eq!(instruction("LDAA"), Some(Op::Ldaa));
        assert_eq!(instruction("Cmpd"), Some(Op::Cpd));
        assert_eq!(instruction("dc.b"), None);
        assert_eq!(word("averyveryverylongword"), None);
    }

    #[test]
    fn data_lists() {
        let items = data("21,$02,\"Tä\",'A'+1", 1, false).unwrap();
        assert_eq!(items.len(), 4);
        assert_eq!(items[2], Item::Bytes(vec![b'T', 0xE4]));
        assert!(matches!(items[3], Item::Value(..)));
        assert_eq!(data_len(&items, 1), 5);
        assert_eq!(
            data("/a;b/", 1, true).unwrap(),
            vec![Item::Bytes(b"a;b".to_vec())]
        );
        assert!(data("1,", 1, false).is_err());
        assert!(data("1 2", 1, false).is_err());
        assert!(data("\"ab\"", 2, false).is_err());
        assert!(data("'€'", 1, false).is_ok());
        assert!(data("'\u{4e00}'", 1, false).is_err());
    }
}

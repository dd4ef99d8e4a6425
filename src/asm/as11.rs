//! The AS11 dialect (Motorola's freeware assembler of the EVB manuals):
//! its line layout and its extra directives.
//!
//! A line is `LABEL MNEMONIC OPERANDS COMMENT`, fields separated by white
//! space. The operand field ends at the first white space outside a
//! character constant or string, and everything after it is a comment, with
//! no `;` needed. An instruction that takes no operand (`inx`, `rts`) has no
//! operand field: all text after it is a comment.

use super::directives::Directive;
use super::lexer::{is_ident_char, is_ident_start, BadLabel, Fields, Piece};
use crate::cpu::opcodes::{Mode, OPCODES};
use std::collections::HashSet;
use std::sync::OnceLock;

/// The directives AS11 has beyond the course table (`bsz`/`zmb` reserve
/// zeroed bytes, `fill value,count`, the listing controls are accepted and
/// do nothing to the image).
pub const DIRECTIVES: &[(&str, Directive)] = &[
    ("bsz", Directive::Zero),
    ("zmb", Directive::Zero),
    ("fill", Directive::Fill),
    ("opt", Directive::Listing),
    ("nam", Directive::Listing),
    ("name", Directive::Listing),
    ("ttl", Directive::Listing),
    ("page", Directive::Listing),
    ("spc", Directive::Listing),
];

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\u{1A}' || c == '\u{0C}'
}

/// True if every opcode of the mnemonic `word` is inherent, so it takes no
/// operand and the rest of its line is a comment.
pub fn takes_no_operand(word: &str) -> bool {
    static NAMES: OnceLock<HashSet<&'static str>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let mut with_operand = HashSet::new();
        let mut inherent = HashSet::new();
        for e in OPCODES {
            if e.mode == Mode::Inherent {
                inherent.insert(e.op);
            } else {
                with_operand.insert(e.op);
            }
        }
        crate::cpu::opcodes::Op::all_mnemonics()
            .filter(|n| {
                crate::cpu::opcodes::Op::from_mnemonic(n)
                    .is_some_and(|op| inherent.contains(&op) && !with_operand.contains(&op))
            })
            .collect()
    });
    let lower = word.to_ascii_lowercase();
    names.contains(lower.as_str()) || lower == "page"
}

/// Splits one AS11 line (no line break) that starts at file offset `base`.
pub fn split_line(line: &str, base: usize) -> Result<Fields<'_>, BadLabel> {
    let mut f = Fields::default();
    let Some(first) = line.chars().next() else {
        return Ok(f);
    };
    if first == '*' || first == ';' {
        return Ok(f);
    }
    let mut pos = 0;
    if !is_space(first) {
        if !is_ident_start(first) {
            return Err(BadLabel { at: base });
        }
        let end = line
            .char_indices()
            .find(|&(_, c)| !is_ident_char(c))
            .map_or(line.len(), |(i, _)| i);
        f.label = Some(Piece {
            text: &line[..end],
            start: base,
        });
        pos = end;
        if line[pos..].starts_with(':') {
            pos += 1;
        } else if let Some(c) = line[pos..].chars().next() {
            if !is_space(c) {
                return Err(BadLabel { at: base + pos });
            }
        }
    }
    pos = skip_space(line, pos);
    // `*` where the mnemonic would be: an indented comment line.
    if pos >= line.len() || line[pos..].starts_with(';') || line[pos..].starts_with('*') {
        return Ok(f);
    }
    let word_end = line[pos..]
        .char_indices()
        .find(|&(_, c)| is_space(c))
        .map_or(line.len(), |(i, _)| pos + i);
    let word = &line[pos..word_end];
    f.mnemonic = Some(Piece {
        text: word,
        start: base + pos,
    });
    if takes_no_operand(word) {
        return Ok(f);
    }
    let op_start = skip_space(line, word_end);
    if op_start >= line.len() || line[op_start..].starts_with(';') {
        return Ok(f);
    }
    let fcc = word.eq_ignore_ascii_case("fcc");
    let op_end = match bit_operands(word) {
        Some(needed) => bit_operand_end(line, op_start, needed),
        None => fcc
            .then(|| counted_fcc_end(line, op_start))
            .flatten()
            .unwrap_or_else(|| operand_end(line, op_start, fcc)),
    };
    f.operands = Some(Piece {
        text: &line[op_start..op_end],
        start: base + op_start,
    });
    Ok(f)
}

/// The older AS11 variants' `FCC 5,HELLO`: a count, a comma and that many
/// characters taken literally (blanks too). The count and the characters
/// after the comma, if `field` is written so.
pub fn counted_fcc(field: &str) -> Option<(usize, &str)> {
    let (count, rest) = field.split_once(',')?;
    if count.is_empty() || count.len() > 3 || !count.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((count.parse().ok()?, rest))
}

/// Where the operand field of a counted `FCC` that starts at `from` ends:
/// after its count of characters (or at the end of the line).
fn counted_fcc_end(line: &str, from: usize) -> Option<usize> {
    let (n, rest) = counted_fcc(&line[from..])?;
    let start = line.len() - rest.len();
    Some(
        rest.char_indices()
            .nth(n)
            .map_or(line.len(), |(i, _)| start + i),
    )
}

/// How many operands a bit instruction takes (address, mask, and for the
/// branches the target), not counting the `X`/`Y` of indexed addressing.
fn bit_operands(word: &str) -> Option<usize> {
    match word.to_ascii_lowercase().as_str() {
        "bset" | "bclr" => Some(2),
        "brset" | "brclr" => Some(3),
        _ => None,
    }
}

/// The bit instructions' operands may be separated by spaces as well as
/// commas (`BRSET 0,X $80 LOOP`), so their field runs over as many
/// space-separated words as it takes to have all operands; then comes the
/// comment.
fn bit_operand_end(line: &str, from: usize, needed: usize) -> usize {
    let mut pos = from;
    let mut count = 0usize;
    while pos < line.len() {
        let end = operand_end(line, pos, false);
        count += line[pos..end]
            .split(',')
            .map(str::trim)
            .filter(|w| {
                !w.is_empty() && !w.eq_ignore_ascii_case("x") && !w.eq_ignore_ascii_case("y")
            })
            .count();
        if count >= needed {
            return end;
        }
        pos = skip_space(line, end);
    }
    line.len()
}

fn skip_space(line: &str, mut pos: usize) -> usize {
    while let Some(c) = line[pos..].chars().next() {
        if !is_space(c) {
            break;
        }
        pos += c.len_utf8();
    }
    pos
}

/// Where the operand field that starts at `from` ends: the first white space
/// outside a character constant or string that does not follow a comma. `'c` takes the one character
/// after the quote literally (so `#' ` is a space), and a closing `'` right
/// after it belongs to the constant; `"..."` runs to its closing quote; for
/// `fcc` the first character is the delimiter and the text runs to its twin.
fn operand_end(line: &str, from: usize, fcc: bool) -> usize {
    let mut chars = line[from..].char_indices().peekable();
    if fcc {
        if let Some((_, d)) = chars.next() {
            if !d.is_alphanumeric() {
                for (_, c) in chars.by_ref() {
                    if c == d {
                        break;
                    }
                }
            }
        }
    }
    let mut after_comma = false;
    while let Some((i, c)) = chars.next() {
        // White space right after a comma belongs to the list
        // (`LDAB 0, X`, `FCB 1, 2, 5`).
        if after_comma && is_space(c) {
            continue;
        }
        after_comma = c == ',';
        match c {
            c if is_space(c) => return from + i,
            '\'' => {
                chars.next();
                if chars.peek().is_some_and(|&(_, c)| c == '\'') {
                    chars.next();
                }
            }
            '"' => {
                for (_, c) in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    line.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(line: &str) -> (Option<&str>, Option<&str>, Option<&str>) {
        let f = split_line(line, 0).expect("valid line");
        (
            f.label.map(|p| p.text),
            f.mnemonic.map(|p| p.text),
            f.operands.map(|p| p.text),
        )
    }

    #[test]
    fn free_text_after_the_operands_is_a_comment() {
        assert_eq!(
            parts("LOOP LDAA 0,X get the next byte"),
            (Some("LOOP"), Some("LDAA"), Some("0,X"))
        );
        assert_eq!(parts("     INX   next one"), (None, Some("INX"), None));
        assert_eq!(
            parts(" LDAA #'  a space"),
            (None, Some("LDAA"), Some("#' "))
        );
        assert_eq!(
            parts(" LDAA #'A' letter"),
            (None, Some("LDAA"), Some("#'A'"))
        );
        assert_eq!(
            parts(" FCC /HELLO WORLD/ greeting"),
            (None, Some("FCC"), Some("/HELLO WORLD/"))
        );
        assert_eq!(
            parts(" FCC 7,HI THERE a greeting"),
            (None, Some("FCC"), Some("7,HI THER"))
        );
        assert_eq!(parts("* a comment line"), (None, None, None));
        assert_eq!(parts("DONE"), (Some("DONE"), None, None));
        assert_eq!(parts(" PAGE new page"), (None, Some("PAGE"), None));
        assert_eq!(
            parts(" BRSET 0,X $80 LOOP wait for it"),
            (None, Some("BRSET"), Some("0,X $80 LOOP"))
        );
        assert_eq!(
            parts(" BCLR PORTB,#$01 off"),
            (None, Some("BCLR"), Some("PORTB,#$01"))
        );
    }
}

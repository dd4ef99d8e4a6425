//! The full ASM11 dialect, as far as hc11lab implements it (see
//! `docs/dialects.md`): `#`-directives (also in column 1), the segment
//! directives with one location counter each, and `fcs`.

use super::directives::Directive;
use super::lexer::{self, BadLabel, Fields, Piece};

/// The directives ASM11 has beyond the course table. `#if` and friends are
/// the course's conditionals; the segments switch between location counters.
pub const DIRECTIVES: &[(&str, Directive)] = &[
    ("#include", Directive::Include),
    ("#if", Directive::If),
    ("#ifdef", Directive::Ifdef),
    ("#ifndef", Directive::Ifndef),
    ("#else", Directive::Else),
    ("#endif", Directive::Endif),
    ("#ram", Directive::Segment("RAM")),
    ("#rom", Directive::Segment("ROM")),
    ("#data", Directive::Segment("DATA")),
    ("#eeprom", Directive::Segment("EEPROM")),
    ("#vectors", Directive::Segment("VECTORS")),
    ("fcs", Directive::Fcs),
];

/// Splits one ASM11 line: as the course dialect, except that a line starting
/// with `#` in column 1 is a directive line without a label.
pub fn split_line(line: &str, base: usize) -> Result<Fields<'_>, BadLabel> {
    if !line.starts_with('#') {
        return lexer::split_line(line, base);
    }
    let word_end = line
        .char_indices()
        .find(|&(_, c)| c == ' ' || c == '\t' || c == ';')
        .map_or(line.len(), |(i, _)| i);
    let mut f = Fields {
        label: None,
        mnemonic: Some(Piece {
            text: &line[..word_end],
            start: base,
        }),
        operands: None,
    };
    let rest = &line[word_end..];
    let ops_start = word_end + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
    let ops_end = lexer::comment_start(line, ops_start);
    let ops = line[ops_start..ops_end].trim_end_matches([' ', '\t']);
    if !ops.is_empty() {
        f.operands = Some(Piece {
            text: ops,
            start: base + ops_start,
        });
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_directives_in_column_one() {
        let f = split_line("#include \"regs.inc\" ; registers", 0).expect("line");
        assert_eq!(f.label, None);
        assert_eq!(f.mnemonic.map(|p| p.text), Some("#include"));
        assert_eq!(f.operands.map(|p| p.text), Some("\"regs.inc\""));
        let f = split_line("#ROM", 0).expect("line");
        assert_eq!(f.mnemonic.map(|p| p.text), Some("#ROM"));
        let f = split_line("start ldaa #1", 0).expect("line");
        assert_eq!(f.label.map(|p| p.text), Some("start"));
    }
}

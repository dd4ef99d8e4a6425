//! Splits one source line of the course dialect (Motorola/ASM11 style) into
//! label, mnemonic, operand field and comment.
//!
//! A label starts in column 1 (a trailing colon is allowed); a line that
//! starts with whitespace has no label unless its first word ends in `:`.
//! `;` starts a comment anywhere outside quotes; `*` or `;` in column 1 makes
//! the whole line a comment.

/// A piece of a line with its byte offset in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece<'a> {
    /// The text.
    pub text: &'a str,
    /// Offset of its first byte in the file.
    pub start: usize,
}

impl Piece<'_> {
    /// One past the last byte, as a file offset.
    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }
}

/// The fields of one line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fields<'a> {
    /// The label, without a trailing colon.
    pub label: Option<Piece<'a>>,
    /// The mnemonic or directive word.
    pub mnemonic: Option<Piece<'a>>,
    /// The operand field, trimmed, up to the comment.
    pub operands: Option<Piece<'a>>,
}

/// A line whose label is malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadLabel {
    /// Offset of the offending character.
    pub at: usize,
}

/// True for characters that may start a symbol.
pub fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '.'
}

/// True for characters that may continue a symbol.
pub fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.' || c == '?'
}

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\u{1A}' || c == '\u{0C}'
}

/// Splits `line` (no line break) that starts at file offset `base`.
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
            if !is_space(c) && c != ';' && c != '=' {
                return Err(BadLabel { at: base + pos });
            }
        }
    }
    pos = skip_space(line, pos);
    if pos >= line.len() || line[pos..].starts_with(';') {
        return Ok(f);
    }
    // The mnemonic: a word up to whitespace or a comment; `=` alone is `equ`.
    let word_end = if line[pos..].starts_with('=') {
        pos + 1
    } else {
        line[pos..]
            .char_indices()
            .find(|&(_, c)| is_space(c) || c == ';')
            .map_or(line.len(), |(i, _)| pos + i)
    };
    let word = &line[pos..word_end];
    if f.label.is_none() && word.len() > 1 && word.ends_with(':') {
        // An indented label with a colon.
        let name = &word[..word.len() - 1];
        if name.chars().next().is_some_and(is_ident_start) && name.chars().all(is_ident_char) {
            f.label = Some(Piece {
                text: name,
                start: base + pos,
            });
            let rest = skip_space(line, word_end);
            if rest >= line.len() || line[rest..].starts_with(';') {
                return Ok(f);
            }
            return split_after_label(line, base, rest, f);
        }
    }
    split_after_label(line, base, pos, f)
}

fn split_after_label<'a>(
    line: &'a str,
    base: usize,
    pos: usize,
    mut f: Fields<'a>,
) -> Result<Fields<'a>, BadLabel> {
    let word_end = if line[pos..].starts_with('=') {
        pos + 1
    } else {
        line[pos..]
            .char_indices()
            .find(|&(_, c)| is_space(c) || c == ';')
            .map_or(line.len(), |(i, _)| pos + i)
    };
    f.mnemonic = Some(Piece {
        text: &line[pos..word_end],
        start: base + pos,
    });
    let op_start = skip_space(line, word_end);
    let op_end = comment_start(line, op_start);
    let ops = line[op_start..op_end].trim_end_matches(is_space);
    if !ops.is_empty() {
        f.operands = Some(Piece {
            text: ops,
            start: base + op_start,
        });
    }
    Ok(f)
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

/// Offset of the `;` that starts the comment, not counting `;` inside quotes;
/// `line.len()` if none. An unclosed quote runs to the end of the line (the
/// expression parser reports it).
pub fn comment_start(line: &str, from: usize) -> usize {
    let mut quote: Option<char> = None;
    let mut skip = 0usize;
    for (i, c) in line[from..].char_indices() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == ';' => return from + i,
            None if c == '\'' && is_open_char(&line[from + i..]) => skip = 1,
            None if c == '"' || c == '\'' => quote = Some(c),
            None => {}
        }
    }
    line.len()
}

/// True if `text` (starting at a `'`) is a character constant without its
/// closing quote (`#'A ; comment`, `fcb 'A,'B`, `'A+1`): the character
/// after the quote is not a quote, no letter, digit, `_` or closing quote
/// follows it (a constant is one character: `'Hello, world!'` is a string
/// with a comma in it, `'A'+1` a closed constant), and no quote later on
/// the line closes a string that ends an item (`fcc 'A,B'` and
/// `fcc ' [/,=] x,'` are strings: their closing quote is followed by the
/// end, a blank, `;` or `,`; in `fcb 'A,'B` the next quote opens the next
/// item).
pub fn is_open_char(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next() == Some('\'')
        && chars.next().is_some_and(|c| c != '\'')
        && !chars
            .clone()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '\'')
        && !closes_as_string(&text[1..])
}

/// True if a quote in `rest` (the text after an opening `'`) is followed by
/// what may end a data item: the end of the line, a blank, `;` or `,`.
fn closes_as_string(rest: &str) -> bool {
    rest.char_indices().any(|(i, c)| {
        c == '\''
            && rest[i + 1..]
                .chars()
                .next()
                .is_none_or(|n| n == ',' || n == ';' || is_space(n))
    })
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
    fn an_open_character_constant_is_one_character() {
        assert!(is_open_char("'A,'B"));
        assert!(is_open_char("'A+1"));
        assert!(is_open_char("'; comment"));
        assert!(!is_open_char("'Hello, world!'"));
        assert!(!is_open_char("'x'"));
        // A quote that closes before the end, a blank, `;` or `,` ends a
        // string, whatever its second character is.
        assert!(!is_open_char("'A,B'"));
        assert!(!is_open_char("'  [/,=]  Same addr,'"));
        assert!(!is_open_char("', ' ; comma and blank"));
        assert!(is_open_char("'A,'B,'C"));
        assert!(is_open_char("'; it's a comment"));
        assert!(!is_open_char("'A'+1"));
        let line = "msg fcc 'Hello, world!' ; greeting";
        assert_eq!(comment_start(line, 0), line.find(';').unwrap_or(0));
    }

    #[test]
    fn splits_the_course_layouts() {
        assert_eq!(
            parts("board\tds.b\tboardSize ; buffer"),
            (Some("board"), Some("ds.b"), Some("boardSize"))
        );
        assert_eq!(parts("  ldaa #';' ; x"), (None, Some("ldaa"), Some("#';'")));
        assert_eq!(
            parts("putChar  brclr scsr, #$80, * ; warte"),
            (Some("putChar"), Some("brclr"), Some("scsr, #$80, *"))
        );
        assert_eq!(
            parts("loop: bra loop"),
            (Some("loop"), Some("bra"), Some("loop"))
        );
        assert_eq!(parts("   here: nop"), (Some("here"), Some("nop"), None));
        assert_eq!(parts("End"), (Some("End"), None, None));
        assert_eq!(parts("* comment"), (None, None, None));
        assert_eq!(parts("\t; comment"), (None, None, None));
        assert_eq!(parts("x=5"), (Some("x"), Some("="), Some("5")));
        assert_eq!(
            parts("\tdc.b \"a;b\",0"),
            (None, Some("dc.b"), Some("\"a;b\",0"))
        );
    }

    #[test]
    fn rejects_bad_labels() {
        assert_eq!(split_line("1abc nop", 10), Err(BadLabel { at: 10 }));
        assert_eq!(split_line("ab#c nop", 0), Err(BadLabel { at: 2 }));
    }
}

//! Edits the editor makes itself, on plain text: Tab to the dialect's
//! columns, Shift+Tab back, comment and uncomment lines, and the
//! conversions between the editor's character positions and byte offsets.
//! Each takes the text and the selection (character positions, as the text
//! widget counts them) and returns the new text and selection.

use std::ops::Range;

use crate::asm::Dialect;

/// The columns (0-based, in characters) where a dialect's sources put the
/// mnemonic, the operand and the comment: the course's as the Viergewinnt
/// sources are laid out (`drawCell        ldaa    #$0C ...`), AS11's as
/// Motorola's freeware examples (`START    LDS   #$FF      top`).
pub fn tab_stops(dialect: Dialect) -> &'static [usize] {
    match dialect {
        Dialect::Course | Dialect::Asm11 => &[16, 24, 48],
        Dialect::As11 => &[9, 15, 25],
    }
}

/// Beyond the last stop, Tab goes to the next multiple of this.
const TAB_WIDTH: usize = 8;

/// The next stop after `col`.
pub fn next_stop(dialect: Dialect, col: usize) -> usize {
    tab_stops(dialect)
        .iter()
        .copied()
        .find(|&s| s > col)
        .unwrap_or((col / TAB_WIDTH + 1) * TAB_WIDTH)
}

/// The stop before `col` (0 at the start of the line).
pub fn previous_stop(dialect: Dialect, col: usize) -> usize {
    let last = tab_stops(dialect).last().copied().unwrap_or(0);
    if col > last + TAB_WIDTH {
        return ((col - 1) / TAB_WIDTH) * TAB_WIDTH;
    }
    tab_stops(dialect)
        .iter()
        .rev()
        .copied()
        .find(|&s| s < col)
        .unwrap_or(0)
}

/// The byte offset of character position `chars` in `text` (its end if past it).
pub fn byte_of_char(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(b, _)| b)
}

/// The character position of byte offset `byte` (rounded down to a character).
pub fn char_of_byte(text: &str, byte: usize) -> usize {
    let mut b = byte.min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    text[..b].chars().count()
}

/// The byte range of 0-based line `line` (without its line break); the end
/// of the text past the last line.
pub fn line_range(text: &str, line: usize) -> Range<usize> {
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len()..text.len(),
        }
    }
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    start..end
}

/// The 0-based line and the byte column in it of byte offset `byte`.
pub fn line_of_byte(text: &str, byte: usize) -> (usize, usize) {
    let byte = byte.min(text.len());
    let before = &text[..byte];
    let line = before.bytes().filter(|&b| b == b'\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, byte - start)
}

/// The display column of a byte column in `line` (tabs to multiples of 8).
fn display_col(line: &str, byte_col: usize) -> usize {
    let mut col = 0;
    for (i, c) in line.char_indices() {
        if i >= byte_col {
            break;
        }
        col = if c == '\t' {
            (col / TAB_WIDTH + 1) * TAB_WIDTH
        } else {
            col + 1
        };
    }
    col
}

/// A changed text and the selection after the change (character positions).
pub type Edited = (String, Range<usize>);

/// The first and last 0-based line a selection touches, and whether it
/// spans several lines.
fn lines_of(text: &str, sel: &Range<usize>) -> (usize, usize) {
    let a = line_of_byte(text, byte_of_char(text, sel.start)).0;
    let mut b = line_of_byte(text, byte_of_char(text, sel.end)).0;
    // A selection ending at the start of a line does not take that line.
    if b > a && line_of_byte(text, byte_of_char(text, sel.end)).1 == 0 {
        b -= 1;
    }
    (a, b)
}

/// Replaces lines `first..=last` with `f` applied to each; the selection
/// then covers them whole.
fn map_lines(text: &str, first: usize, last: usize, f: impl Fn(&str) -> String) -> Edited {
    let start = line_range(text, first).start;
    let end = line_range(text, last).end;
    let block: Vec<String> = text[start..end].split('\n').map(f).collect();
    let block = block.join("\n");
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..start]);
    out.push_str(&block);
    out.push_str(&text[end..]);
    let a = char_of_byte(&out, start);
    let b = char_of_byte(&out, start + block.len());
    (out, a..b)
}

/// Tab: in one line, blanks up to the next column stop (a selection in the
/// line is replaced); over several lines, each line without a label moves
/// its first field to the next stop.
pub fn indent(text: &str, sel: Range<usize>, dialect: Dialect) -> Edited {
    let (first, last) = lines_of(text, &sel);
    if first != last {
        return map_lines(text, first, last, |l| {
            let lead = l.len() - l.trim_start().len();
            if lead == 0 || l.trim().is_empty() {
                return l.to_string();
            }
            let to = next_stop(dialect, display_col(l, lead));
            format!("{}{}", " ".repeat(to), l.trim_start())
        });
    }
    let a = byte_of_char(text, sel.start.min(sel.end));
    let b = byte_of_char(text, sel.start.max(sel.end));
    let range = line_range(text, first);
    let col = display_col(&text[range.start..range.end.max(a)], a - range.start);
    let pad = next_stop(dialect, col) - col;
    let mut out = String::with_capacity(text.len() + pad);
    out.push_str(&text[..a]);
    out.extend(std::iter::repeat_n(' ', pad));
    out.push_str(&text[b..]);
    let at = sel.start.min(sel.end) + pad;
    (out, at..at)
}

/// Shift+Tab: in one line, the blanks before the cursor back to the
/// previous stop (never past a non-blank); over several lines, each line
/// without a label moves its first field to the previous stop, not before
/// the first (a mnemonic in column 1 would be a label).
pub fn outdent(text: &str, sel: Range<usize>, dialect: Dialect) -> Edited {
    let (first, last) = lines_of(text, &sel);
    if first != last {
        let min = tab_stops(dialect).first().copied().unwrap_or(1);
        return map_lines(text, first, last, |l| {
            let lead = l.len() - l.trim_start().len();
            if lead == 0 || l.trim().is_empty() {
                return l.to_string();
            }
            let to = previous_stop(dialect, display_col(l, lead)).max(min);
            format!("{}{}", " ".repeat(to), l.trim_start())
        });
    }
    let at = byte_of_char(text, sel.start.min(sel.end));
    let range = line_range(text, first);
    let before = &text[range.start..at];
    let col = display_col(before, before.len());
    let to = previous_stop(dialect, col);
    let blanks = before.len() - before.trim_end_matches([' ', '\t']).len();
    // Remove blanks from the end until the column is at the stop.
    let mut cut = 0;
    while cut < blanks && display_col(before, before.len() - cut) > to {
        cut += 1;
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..at - cut]);
    out.push_str(&text[at..]);
    let c = sel.start.min(sel.end) - cut;
    (out, c..c)
}

/// Comments the selected lines (a `;` in column 1, which every dialect
/// reads as a comment line), or uncomments them when every non-empty one
/// already starts with `;`.
pub fn toggle_comment(text: &str, sel: Range<usize>) -> Edited {
    let (first, last) = lines_of(text, &sel);
    let (start, end) = (line_range(text, first).start, line_range(text, last).end);
    let all = text[start..end]
        .split('\n')
        .filter(|l| !l.trim().is_empty())
        .all(|l| l.starts_with(';'));
    map_lines(text, first, last, |l| {
        if l.trim().is_empty() {
            l.to_string()
        } else if all {
            l[1..].to_string()
        } else {
            format!(";{l}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_goes_to_the_course_columns_and_back() {
        let d = Dialect::Course;
        let (t, s) = indent("drawCell", 8..8, d);
        assert_eq!(t, "drawCell        ");
        assert_eq!(s, 16..16);
        let (t, s) = indent(&t, s, d);
        assert_eq!(t.len(), 24);
        assert_eq!(s, 24..24);
        let (t, s) = outdent(&t, s, d);
        assert_eq!(t, "drawCell        ");
        assert_eq!(s, 16..16);
        // Not past a non-blank.
        let (t, s) = outdent("ab", 2..2, d);
        assert_eq!((t.as_str(), s), ("ab", 2..2));
        assert_eq!(next_stop(d, 60), 64);
        assert_eq!(next_stop(Dialect::As11, 0), 9);
    }

    #[test]
    fn lines_without_a_label_move_together() {
        let text = "Start ldaa #1\n  inca\n\n    rts\nend";
        let all = 0..text.chars().count();
        let (t, _) = indent(text, all.clone(), Dialect::Course);
        assert_eq!(
            t,
            "Start ldaa #1\n                inca\n\n                rts\nend"
        );
        let (back, _) = outdent(&t, 0..t.chars().count(), Dialect::Course);
        assert_eq!(back, t, "not before the first stop");
    }

    #[test]
    fn comment_toggles_with_a_semicolon_in_column_one() {
        let text = "        ldaa #1\nLoop    bra Loop\n";
        let (t, s) = toggle_comment(text, 0..20);
        assert_eq!(t, ";        ldaa #1\n;Loop    bra Loop\n");
        let (back, _) = toggle_comment(&t, s);
        assert_eq!(back, text);
    }

    #[test]
    fn positions_convert_between_characters_and_bytes() {
        let t = "ä\nbc";
        assert_eq!(byte_of_char(t, 1), 2);
        assert_eq!(char_of_byte(t, 3), 2);
        assert_eq!(line_range(t, 1), 3..5);
        assert_eq!(line_of_byte(t, 4), (1, 1));
        assert_eq!(line_range(t, 5), 5..5);
    }
}

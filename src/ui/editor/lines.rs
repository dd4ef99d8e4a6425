//! Where the lines of an earlier text are in the text now. Breakpoints,
//! the line of the PC and the bytes of the last assembly belong to lines of
//! a text that was edited since; each edit moves them with the lines
//! inserted or deleted above them.
//!
//! An edit is taken as one block of changed lines between the lines both
//! texts share at their start and at their end. Inside the block, lines
//! keep their place when the block keeps its length (each line edited in
//! place); otherwise only its first line survives (Enter in the middle of a
//! line, two lines joined), the others are gone.

/// One block of changed lines (0-based line numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineEdit {
    /// The first changed line.
    pub start: u32,
    /// How many lines the block had.
    pub old_len: u32,
    /// How many lines it has now.
    pub new_len: u32,
}

/// The number of lines of `text` (a text ending in a line break has an
/// empty last line, as an editor shows it).
pub fn line_count(text: &str) -> usize {
    text.split('\n').count()
}

impl LineEdit {
    /// The block that turns `old` into `new`, `None` if they are equal.
    pub fn between(old: &str, new: &str) -> Option<LineEdit> {
        if old == new {
            return None;
        }
        let a: Vec<&str> = old.split('\n').collect();
        let b: Vec<&str> = new.split('\n').collect();
        let shorter = a.len().min(b.len());
        let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        let tail = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take(shorter - head)
            .take_while(|(x, y)| x == y)
            .count();
        Some(LineEdit {
            start: head as u32,
            old_len: (a.len() - head - tail) as u32,
            new_len: (b.len() - head - tail) as u32,
        })
    }

    /// Where line `line` of the old text is in the new one.
    pub fn map(&self, line: u32) -> Option<u32> {
        if line < self.start {
            return Some(line);
        }
        let end = self.start + self.old_len;
        if line >= end {
            return Some(line - self.old_len + self.new_len);
        }
        if self.old_len == self.new_len || (line == self.start && self.new_len > 0) {
            return Some(line);
        }
        None
    }
}

/// No line there any more.
const GONE: u32 = u32::MAX;

/// Where each line of an earlier text is now (0-based).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineMap {
    to_now: Vec<u32>,
}

impl LineMap {
    /// Every line where it was: a text of `lines` lines not edited yet.
    pub fn identity(lines: usize) -> LineMap {
        LineMap {
            to_now: (0..lines as u32).collect(),
        }
    }

    /// Where earlier line `line` is now, if it still exists.
    pub fn get(&self, line: u32) -> Option<u32> {
        self.to_now
            .get(line as usize)
            .copied()
            .filter(|&l| l != GONE)
    }

    /// Follows one more edit.
    pub fn apply(&mut self, edit: &LineEdit) {
        for l in self.to_now.iter_mut().filter(|l| **l != GONE) {
            *l = edit.map(*l).unwrap_or(GONE);
        }
    }

    /// For each line of the text now (`lines` of them), the earlier line
    /// it was, if any.
    pub fn inverse(&self, lines: usize) -> Vec<Option<u32>> {
        let mut back = vec![None; lines];
        for (old, &now) in self.to_now.iter().enumerate() {
            if let Some(slot) = back.get_mut(now as usize) {
                *slot = Some(old as u32);
            }
        }
        back
    }

    /// True while no line moved or went.
    pub fn is_identity(&self) -> bool {
        self.to_now.iter().enumerate().all(|(i, &l)| l == i as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_inserted_above_moves_the_lines_below() {
        let old = "a\nb\nc";
        let new = "a\nnew\nb\nc";
        let e = LineEdit::between(old, new).unwrap();
        assert_eq!(
            e,
            LineEdit {
                start: 1,
                old_len: 0,
                new_len: 1
            }
        );
        let mut m = LineMap::identity(3);
        m.apply(&e);
        assert_eq!((m.get(0), m.get(1), m.get(2)), (Some(0), Some(2), Some(3)));
        assert_eq!(m.inverse(4), vec![Some(0), None, Some(1), Some(2)]);
    }

    #[test]
    fn enter_in_a_line_keeps_it_and_a_deleted_line_is_gone() {
        let mut m = LineMap::identity(3);
        m.apply(&LineEdit::between("ab\nc\nd", "a\nb\nc\nd").unwrap());
        assert_eq!((m.get(0), m.get(1), m.get(2)), (Some(0), Some(2), Some(3)));
        m.apply(&LineEdit::between("a\nb\nc\nd", "a\nb\nd").unwrap());
        assert_eq!((m.get(0), m.get(1), m.get(2)), (Some(0), None, Some(2)));
        assert!(!m.is_identity());
    }

    #[test]
    fn lines_edited_in_place_keep_their_places_and_equal_texts_are_no_edit() {
        let e = LineEdit::between("x\nold1\nold2\ny", "x\nnew1\nnew2\ny").unwrap();
        assert_eq!((e.map(1), e.map(2), e.map(3)), (Some(1), Some(2), Some(3)));
        assert_eq!(LineEdit::between("same", "same"), None);
        // Repeated lines: the shared head and tail are taken whole.
        let e = LineEdit::between("\n\n", "\n\n\n").unwrap();
        assert_eq!(e.old_len, 0);
        assert_eq!(e.new_len, 1);
        assert_eq!(line_count("a\n"), 2);
    }
}

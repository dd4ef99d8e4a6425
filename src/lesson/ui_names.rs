//! In a lesson text **bold** is for the window's names only (buttons,
//! menus, tabs, keys of the key pad), each as the window in the text's
//! language shows it; emphasis is *italic*. A German text that says
//! **Run** where the German window shows Start leaves the student
//! searching, so `lesson validate` checks every bold name.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

use super::Lang;

/// The bold spans of a Markdown text with the line (1-based) each starts
/// on; a span may go over a line break (its whitespace is made one space).
/// Code in backticks is no bold (`**` in code is an operator).
pub fn bold_spans(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut open: Option<(usize, String)> = None;
    let mut in_code = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                line += 1;
                if let Some((_, s)) = &mut open {
                    s.push(' ');
                }
            }
            '`' => {
                in_code = !in_code;
                if let Some((_, s)) = &mut open {
                    s.push(c);
                }
            }
            '*' if !in_code && chars.peek() == Some(&'*') => {
                chars.next();
                match open.take() {
                    Some((at, s)) => {
                        out.push((at, s.split_whitespace().collect::<Vec<_>>().join(" ")))
                    }
                    None => open = Some((line, String::new())),
                }
            }
            _ => {
                if let Some((_, s)) = &mut open {
                    s.push(c);
                }
            }
        }
    }
    out
}

/// The window's names a bold span stands for: the parts of a menu path
/// (`Debug → Breakpoints...`).
pub fn span_names(span: &str) -> Vec<&str> {
    span.split(" → ").map(str::trim).collect()
}

/// Every name the window shows in a language. Lessons know nothing of the
/// window: the window gives its names with [`set_window_labels`] (the
/// program does so at start when it is built with the window).
pub type WindowLabels = fn(Lang) -> BTreeSet<String>;

static WINDOW_LABELS: OnceLock<WindowLabels> = OnceLock::new();

/// Makes `labels` the window's names the bold names are checked against
/// (once; later calls change nothing).
pub fn set_window_labels(labels: WindowLabels) {
    let _ = WINDOW_LABELS.set(labels);
}

/// The bold names of the lesson text `path` (in `lang`) that are no name
/// of the window in that language, as validate's problems. Without the
/// window's names (a build without the window) there is nothing to check
/// against: `None`.
pub fn unknown_names_in(path: &Path, lang: Lang) -> Option<Vec<String>> {
    let known = WINDOW_LABELS.get()?(lang);
    let Ok(text) = crate::platform::fs::read_to_string(path) else {
        return Some(Vec::new());
    };
    let window = match lang {
        Lang::De => "German",
        Lang::En => "English",
    };
    let mut out = Vec::new();
    for (line, span) in bold_spans(&text) {
        for name in span_names(&span) {
            if !known.contains(name) {
                out.push(format!(
                    "{}:{line}: **{span}**: `{name}` is no button, menu, tab or key of the {window} window (bold is for the window's names, as it shows them; write emphasis in *italics*)",
                    path.display()
                ));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bold_spans_with_their_lines() {
        assert_eq!(
            bold_spans("press **Run**, then\n**Debug →\nBreakpoints...** and *not this*"),
            [
                (1, "Run".to_string()),
                (2, "Debug → Breakpoints...".to_string())
            ]
        );
        // `**` inside code is no bold.
        assert_eq!(bold_spans("`2**3` is **Step**"), [(1, "Step".to_string())]);
        assert_eq!(
            span_names("Debug → Breakpoints..."),
            ["Debug", "Breakpoints..."]
        );
    }
}

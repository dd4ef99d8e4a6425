//! Syntax highlighting of 68HC11 sources in the course dialect: the syntax
//! definition `hc11.sublime-syntax` beside this file, loaded at start, and a
//! colour theme built from the egui visuals so code matches the rest of the
//! window in dark and light mode.

use std::ops::Range;
use std::str::FromStr;

use egui::Color32;
use syntect::highlighting::{
    Color, HighlightIterator, HighlightState, Highlighter as SynHighlighter, Theme, ThemeItem,
    ThemeSettings,
};
use syntect::highlighting::{ScopeSelectors, StyleModifier};
use syntect::parsing::{ParseState, ScopeStack, SyntaxDefinition, SyntaxSet, SyntaxSetBuilder};

/// The course dialect's syntax definition (sublime-syntax YAML).
pub const HC11_SYNTAX: &str = include_str!("hc11.sublime-syntax");

/// Why the syntax definition could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SyntaxError {
    /// The YAML or one of its regular expressions is invalid.
    #[error("68HC11 syntax definition: {0}")]
    Definition(#[from] syntect::parsing::ParseSyntaxError),
}

/// One coloured run of a line: byte range and colour.
pub type Span = (Range<usize>, Color32);

/// The loaded syntax and the two themes.
pub struct Highlighter {
    set: SyntaxSet,
    dark: Theme,
    light: Theme,
}

impl std::fmt::Debug for Highlighter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Highlighter").finish_non_exhaustive()
    }
}

fn c(r: u8, g: u8, b: u8) -> Color {
    Color { r, g, b, a: 0xFF }
}

fn theme(dark: bool) -> Theme {
    // (scope selector, dark colour, light colour)
    let rules: [(&str, Color, Color); 9] = [
        ("comment", c(0x7F, 0x9F, 0x7F), c(0x50, 0x80, 0x50)),
        ("keyword.mnemonic", c(0x6C, 0xB6, 0xFF), c(0x00, 0x4E, 0xC0)),
        (
            "keyword.control.directive",
            c(0xC5, 0x86, 0xC0),
            c(0x8B, 0x1E, 0x8B),
        ),
        ("keyword.operator", c(0xD4, 0xD4, 0xD4), c(0x55, 0x55, 0x55)),
        ("constant.numeric", c(0xE5, 0xC0, 0x7B), c(0x9A, 0x5B, 0x00)),
        (
            "constant.character, string",
            c(0xCE, 0x91, 0x78),
            c(0xA3, 0x15, 0x15),
        ),
        (
            "entity.name.label",
            c(0xFF, 0xD7, 0x00),
            c(0xA0, 0x50, 0x00),
        ),
        (
            "variable.language.register",
            c(0x4E, 0xC9, 0xB0),
            c(0x00, 0x80, 0x80),
        ),
        (
            "variable.other.symbol",
            c(0x9C, 0xDC, 0xFE),
            c(0x00, 0x10, 0x80),
        ),
    ];
    let scopes = rules
        .iter()
        .filter_map(|(sel, d, l)| {
            Some(ThemeItem {
                scope: ScopeSelectors::from_str(sel).ok()?,
                style: StyleModifier {
                    foreground: Some(if dark { *d } else { *l }),
                    background: None,
                    font_style: None,
                },
            })
        })
        .collect();
    Theme {
        name: Some(
            if dark {
                "hc11lab dark"
            } else {
                "hc11lab light"
            }
            .into(),
        ),
        author: None,
        settings: ThemeSettings {
            foreground: Some(if dark {
                c(0xDC, 0xDC, 0xDC)
            } else {
                c(0x20, 0x20, 0x20)
            }),
            ..ThemeSettings::default()
        },
        scopes,
    }
}

impl Highlighter {
    /// Loads the bundled syntax definition.
    pub fn new() -> Result<Self, SyntaxError> {
        let def = SyntaxDefinition::load_from_str(HC11_SYNTAX, true, Some("hc11"))?;
        let mut builder = SyntaxSetBuilder::new();
        builder.add(def);
        Ok(Highlighter {
            set: builder.build(),
            dark: theme(true),
            light: theme(false),
        })
    }

    /// Colours every line of `text`: one span list per line (lines as
    /// `str::lines` splits them, byte ranges into the line without its break).
    pub fn highlight(&self, text: &str, dark: bool) -> Vec<Vec<Span>> {
        let theme = if dark { &self.dark } else { &self.light };
        let Some(syntax) = self.set.syntaxes().first() else {
            return Vec::new();
        };
        let hl = SynHighlighter::new(theme);
        let mut parse = ParseState::new(syntax);
        let mut state = HighlightState::new(&hl, ScopeStack::new());
        let mut out = Vec::new();
        let mut buf = String::new();
        for line in text.lines() {
            buf.clear();
            buf.push_str(line.trim_end_matches('\r'));
            buf.push('\n');
            let spans = match parse.parse_line(&buf, &self.set) {
                Ok(ops) => {
                    let mut pos = 0;
                    let mut spans = Vec::new();
                    for (style, piece) in HighlightIterator::new(&mut state, &ops, &buf, &hl) {
                        let end = (pos + piece.len()).min(buf.len() - 1);
                        if end > pos {
                            let f = style.foreground;
                            spans.push((pos..end, Color32::from_rgb(f.r, f.g, f.b)));
                        }
                        pos += piece.len();
                    }
                    spans
                }
                // A line the parser cannot handle stays uncoloured; the
                // next line starts from the state the parser had.
                Err(_) => Vec::new(),
            };
            out.push(spans);
        }
        out
    }
}

impl Highlighter {
    /// Colours one line on its own (the course syntax carries nothing from
    /// one line to the next), for the editor's cache of lines.
    pub fn highlight_line(&self, line: &str, dark: bool) -> Vec<Span> {
        self.highlight(line, dark)
            .into_iter()
            .next()
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn colour_of(hl: &Highlighter, line: &str, word: &str) -> Color32 {
        let spans = hl.highlight(line, true);
        let start = line.find(word).unwrap();
        spans[0]
            .iter()
            .find(|(r, _)| r.start <= start && start < r.end)
            .map(|(_, c)| *c)
            .unwrap()
    }

    #[test]
    fn course_dialect_is_coloured_by_role() {
        let hl = Highlighter::new().unwrap();
        let line = "drawCell        ldaa    #$0C        ; Löscht das Terminal";
        let label = colour_of(&hl, line, "drawCell");
        let mnem = colour_of(&hl, line, "ldaa");
        let num = colour_of(&hl, line, "$0C");
        let comment = colour_of(&hl, line, "; L");
        assert_eq!(label, Color32::from_rgb(0xFF, 0xD7, 0x00));
        assert_eq!(mnem, Color32::from_rgb(0x6C, 0xB6, 0xFF));
        assert_eq!(num, Color32::from_rgb(0xE5, 0xC0, 0x7B));
        assert_eq!(comment, Color32::from_rgb(0x7F, 0x9F, 0x7F));
        let dir = colour_of(&hl, "board           ds.b    boardSize", "ds.b");
        assert_eq!(dir, Color32::from_rgb(0xC5, 0x86, 0xC0));
        let sym = colour_of(&hl, "        jsr     initLCD", "initLCD");
        assert_eq!(sym, Color32::from_rgb(0x9C, 0xDC, 0xFE));
        let star = colour_of(&hl, "*** Register ***", "Register");
        assert_eq!(star, comment);
    }

    #[test]
    fn no_look_around_and_what_follows_a_mnemonic_keeps_its_role() {
        // Look-around sends every line through fancy-regex's backtracking
        // engine: eight times slower here, seconds at a page's start.
        for bad in ["(?=", "(?!", "(?<=", "(?<!"] {
            assert!(!HC11_SYNTAX.contains(bad), "the syntax uses {bad}");
        }
        let hl = Highlighter::new().unwrap();
        let mnem = Color32::from_rgb(0x6C, 0xB6, 0xFF);
        let sym = Color32::from_rgb(0x9C, 0xDC, 0xFE);
        let comment = Color32::from_rgb(0x7F, 0x9F, 0x7F);
        let reg = Color32::from_rgb(0x4E, 0xC9, 0xB0);
        assert_eq!(colour_of(&hl, "\tbra\tstop", "bra"), mnem);
        // An operand spelled like a mnemonic is a symbol.
        assert_eq!(colour_of(&hl, "\tbra\tstop", "stop"), sym);
        assert_eq!(colour_of(&hl, "\trts;back", "rts"), mnem);
        assert_eq!(colour_of(&hl, "\trts;back", ";back"), comment);
        assert_eq!(colour_of(&hl, "\tpshx", "pshx"), mnem);
        assert_eq!(colour_of(&hl, "\tldaa\t3, x ; y", "x "), reg);
        assert_eq!(colour_of(&hl, "\tldaa\t3, x ; y", "; y"), comment);
        assert_eq!(colour_of(&hl, "\tldaa\t3,Y", "Y"), reg);
        assert_eq!(colour_of(&hl, "\tldaa\txpos", "xpos"), sym);
        assert_eq!(colour_of(&hl, "\tclr\tb", "b"), reg);
    }

    #[test]
    fn one_span_list_per_line_and_ranges_stay_in_the_line() {
        let hl = Highlighter::new().unwrap();
        let text = "a equ 1\r\n\n  rts ; x\n";
        let lines = hl.highlight(text, false);
        assert_eq!(lines.len(), 3);
        for (spans, line) in lines.iter().zip(text.lines()) {
            for (r, _) in spans {
                assert!(r.end <= line.trim_end_matches('\r').len());
            }
        }
    }
}

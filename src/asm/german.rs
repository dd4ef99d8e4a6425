//! The assembler's messages in German, for students who read the course in
//! German (`lesson check --lang de`, `grade --lang de`, the German window).
//!
//! The assembler writes its diagnostics in English, with `format!` in the
//! code. [`MESSAGES`] holds every such message and hint as written in the
//! code (its `{...}` placeholders included) with its German; a message is
//! translated by finding the template it was made from and putting the
//! values back, themselves translated when they are messages or words of
//! the assembler (`immediate value`, `extended`), else kept (symbol names,
//! numbers, code). The test `asm_german` reads the assembler's sources and
//! fails for a message that has no German here, so a new message cannot
//! reach a German student in English.

use super::diagnostics::{render, Diagnostic};
use crate::image::SourceFile;

mod table;

pub use table::{MESSAGES, NOT_MESSAGES, WORDS};

/// The German of one message or hint of the assembler; `None` if no
/// template of [`MESSAGES`] fits it (then it stays English).
pub fn german(message: &str) -> Option<String> {
    translate_message(message, 0).map(|(text, _)| text)
}

/// Values of `message` that stayed English prose in its German (a value
/// with words that is no message or word of the assembler), or the whole
/// message if no template fits. Empty: fully German. For the tests.
pub fn untranslated(message: &str) -> Vec<String> {
    match translate_message(message, 0) {
        Some((_, left)) => left,
        None => vec![message.to_string()],
    }
}

/// Translates the assembler's diagnostics rendered in `text` (by
/// [`render`] or [`super::diagnostics::render_all`], also inside a longer
/// text such as a grader's feedback): the `error[E....]: ` and
/// `warning[W....]: ` lines, the `= help: ` lines and the summary line.
/// Other lines are left as they are.
pub fn translate_rendered(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&translate_line(line));
    }
    out
}

/// A diagnostic rendered as [`render`] does, in German.
pub fn render_german(diag: &Diagnostic, files: &[SourceFile]) -> String {
    translate_rendered(&render(diag, files))
}

fn translate_line(line: &str) -> String {
    for (en, de) in [("error[", "Fehler["), ("warning[", "Warnung[")] {
        if let Some(rest) = line.strip_prefix(en) {
            if let Some((code, message)) = rest.split_once("]: ") {
                let message = german(message).unwrap_or_else(|| message.to_string());
                return format!("{de}{code}]: {message}");
            }
        }
    }
    let indent = line.len() - line.trim_start().len();
    if let Some(hint) = line.trim_start().strip_prefix("= help: ") {
        let hint = german(hint).unwrap_or_else(|| hint.to_string());
        return format!("{}= Hilfe: {hint}", &line[..indent]);
    }
    summary(line).unwrap_or_else(|| line.to_string())
}

/// `error: 2 errors, 1 warning` in German.
fn summary(line: &str) -> Option<String> {
    let (head, rest) = line.split_once(": ")?;
    let head = match head {
        "error" => "Fehler",
        "warning" => "Warnung",
        _ => return None,
    };
    let (errors, warnings) = rest.split_once(", ")?;
    let count = |part: &str, one: &str, many: &str| -> Option<String> {
        let (n, word) = part.split_once(' ')?;
        let n: usize = n.parse().ok()?;
        (word == one || word == many).then_some(n)?;
        Some(n.to_string())
    };
    let e = count(errors, "error", "errors")?;
    let w = count(warnings, "warning", "warnings")?;
    let w_word = if w == "1" { "Warnung" } else { "Warnungen" };
    Some(format!("{head}: {e} Fehler, {w} {w_word}"))
}

/// A piece of a message template.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    /// Text as it is.
    Text(String),
    /// A placeholder: its name (empty for `{}`), as written before any `:`.
    Hole(String),
}

/// Splits a `format!` template into text and placeholders (`{{`, `}}`
/// are braces).
fn pieces(template: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut inner = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    inner.push(c);
                }
                if !text.is_empty() {
                    out.push(Piece::Text(std::mem::take(&mut text)));
                }
                let name = inner.split(':').next().unwrap_or("").trim().to_string();
                out.push(Piece::Hole(name));
            }
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    out
}

/// Every way `text` fits `pieces`: the placeholders' values, in order.
fn fits<'a>(pieces: &[Piece], text: &'a str) -> Vec<Vec<&'a str>> {
    match pieces.split_first() {
        None => {
            if text.is_empty() {
                vec![Vec::new()]
            } else {
                Vec::new()
            }
        }
        Some((Piece::Text(t), rest)) => match text.strip_prefix(t.as_str()) {
            Some(r) => fits(rest, r),
            None => Vec::new(),
        },
        Some((Piece::Hole(_), rest)) => {
            let mut out = Vec::new();
            match rest.first() {
                // A placeholder at the end takes the rest.
                None => out.push(vec![text]),
                Some(Piece::Text(next)) => {
                    for (at, _) in text.match_indices(next.as_str()) {
                        for mut tail in fits(rest, &text[at..]) {
                            tail.insert(0, &text[..at]);
                            out.push(tail);
                        }
                    }
                }
                // Two placeholders side by side: the first may take any
                // prefix (rare, and short).
                Some(Piece::Hole(_)) => {
                    for at in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
                        for mut tail in fits(rest, &text[at..]) {
                            tail.insert(0, &text[..at]);
                            out.push(tail);
                        }
                    }
                }
            }
            out
        }
    }
}

/// True for a value that reads as code, a number or a name rather than
/// English: outside backticks, one token alone, or no word of letters
/// among several (`$C0DC (49372)`).
fn is_code(value: &str) -> bool {
    let outside: String = value
        .split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, p)| p)
        .collect::<Vec<_>>()
        .join("`");
    let tokens: Vec<&str> = outside.split_whitespace().collect();
    let is_word = |t: &&str| {
        let w = t.trim_matches(|c: char| c.is_ascii_punctuation() && c != '$');
        w.chars().count() >= 2 && w.chars().all(char::is_alphabetic)
    };
    !(tokens.len() > 1 && tokens.iter().any(is_word))
}

/// Splits a list (`a, b (c, d), e`) at the commas outside brackets and
/// backticks.
fn list_items(value: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut code, mut start) = (0i32, false, 0usize);
    let bytes = value.as_bytes();
    for (i, c) in value.char_indices() {
        match c {
            '`' => code = !code,
            '(' if !code => depth += 1,
            ')' if !code => depth -= 1,
            ',' if !code && depth == 0 && bytes.get(i + 1) == Some(&b' ') => {
                out.push(&value[start..i]);
                start = i + 2;
            }
            _ => {}
        }
    }
    out.push(&value[start.min(value.len())..]);
    out
}

/// The German of a placeholder's value and the English prose left in it.
fn translate_value(value: &str, depth: usize) -> (String, Vec<String>) {
    if let Some((_, de)) = WORDS.iter().find(|(en, _)| *en == value) {
        return (de.to_string(), Vec::new());
    }
    if value.is_empty() || is_code(value) {
        return (value.to_string(), Vec::new());
    }
    if let Some(t) = translate_message(value, depth + 1) {
        return t;
    }
    let items = list_items(value);
    if items.len() > 1 {
        let mut left = Vec::new();
        let parts: Vec<String> = items
            .iter()
            .map(|item| {
                let (t, l) = translate_value(item, depth + 1);
                left.extend(l);
                t
            })
            .collect();
        return (parts.join(", "), left);
    }
    (value.to_string(), vec![value.to_string()])
}

/// The best German for `message`: the template whose fit leaves the least
/// English, among those with the most text of their own.
fn translate_message(message: &str, depth: usize) -> Option<(String, Vec<String>)> {
    if depth > 4 {
        return None;
    }
    let mut best: Option<(usize, usize, String, Vec<String>)> = None;
    for (en, de) in MESSAGES {
        let en_pieces = pieces(en);
        let quoted = quoted_holes(&en_pieces);
        for values in fits(&en_pieces, message) {
            let mut left = Vec::new();
            let translated: Vec<String> = values
                .iter()
                .zip(&quoted)
                .map(|(v, q)| {
                    if *q {
                        // Code in backticks: a name, kept as written.
                        return v.to_string();
                    }
                    let (t, l) = translate_value(v, depth);
                    left.extend(l);
                    t
                })
                .collect();
            let own: usize = en_pieces
                .iter()
                .map(|p| match p {
                    Piece::Text(t) => t.len(),
                    Piece::Hole(_) => 0,
                })
                .sum();
            let better = match &best {
                None => true,
                Some((b_left, b_own, ..)) => {
                    left.len() < *b_left || (left.len() == *b_left && own > *b_own)
                }
            };
            if better {
                let text = fill(de, &en_pieces, &translated);
                best = Some((left.len(), own, text, left));
            }
        }
    }
    best.map(|(_, _, text, left)| (text, left))
}

/// For each placeholder of a template: true if it stands in backticks
/// (`` `{}` ``), where its value is code.
fn quoted_holes(pieces: &[Piece]) -> Vec<bool> {
    let mut out = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        if let Piece::Hole(_) = p {
            let before = i
                .checked_sub(1)
                .and_then(|j| pieces.get(j))
                .is_some_and(|p| matches!(p, Piece::Text(t) if t.ends_with('`')));
            let after = pieces
                .get(i + 1)
                .is_some_and(|p| matches!(p, Piece::Text(t) if t.starts_with('`')));
            out.push(before && after);
        }
    }
    out
}

/// The German template `de` with the values of the English placeholders
/// `en` put in: by name, `{}` in order, or `{N}` by position.
fn fill(de: &str, en: &[Piece], values: &[String]) -> String {
    let names: Vec<&str> = en
        .iter()
        .filter_map(|p| match p {
            Piece::Hole(n) => Some(n.as_str()),
            Piece::Text(_) => None,
        })
        .collect();
    let positional: Vec<usize> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.is_empty())
        .map(|(i, _)| i)
        .collect();
    let mut next = 0usize;
    let mut out = String::new();
    for p in pieces(de) {
        match p {
            Piece::Text(t) => out.push_str(&t),
            Piece::Hole(name) => {
                let index = if name.is_empty() {
                    let i = positional.get(next).copied();
                    next += 1;
                    i
                } else if let Ok(n) = name.parse::<usize>() {
                    Some(n)
                } else {
                    names.iter().position(|n| *n == name)
                };
                if let Some(v) = index.and_then(|i| values.get(i)) {
                    out.push_str(v);
                }
            }
        }
    }
    out
}

/// The placeholders of a template, by name (`{}` as the empty name), in
/// order. For the tests.
pub fn placeholders(template: &str) -> Vec<String> {
    pieces(template)
        .into_iter()
        .filter_map(|p| match p {
            Piece::Hole(n) => Some(n),
            Piece::Text(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_translated_with_its_values() {
        assert_eq!(
            german("undefined symbol `nowhere`").as_deref(),
            Some("undefiniertes Symbol `nowhere`")
        );
        assert_eq!(
            german("immediate value $0100 (256) is out of range").as_deref(),
            Some("Direktwert $0100 (256) liegt außerhalb des Bereichs")
        );
        assert_eq!(
            german("`staa` has no immediate addressing mode").as_deref(),
            Some("`staa` hat die Adressierungsart „unmittelbar“ nicht")
        );
        assert_eq!(
            german("`ldaa` can use: immediate (8-bit), direct, extended, indexed X, indexed Y")
                .as_deref(),
            Some("`ldaa` kann: unmittelbar (8 Bit), direkt, erweitert, indiziert X, indiziert Y")
        );
        assert_eq!(
            german("missing value after `set`").as_deref(),
            Some("es fehlt: Wert nach `set`")
        );
        assert_eq!(
            german("did you mean `ldaa`, `ldab`?").as_deref(),
            Some("meintest du `ldaa`, `ldab`?")
        );
        assert_eq!(
            german("this file looks like AS11 source: free-text comments after operands, AS11 directives (fcb, rmb); assemble with --dialect as11").as_deref(),
            Some("diese Datei sieht nach AS11-Quelltext aus: freie Kommentare nach den Operanden, AS11-Direktiven (fcb, rmb); assembliere mit --dialect as11")
        );
        assert!(untranslated("something the assembler never says").len() == 1);
    }

    #[test]
    fn a_rendered_diagnostic_reads_in_german() {
        let text = "error[E0004]: undefined symbol `foo`\n  --> a.asm:3:9\n   |\n 3 |  ldaa foo\n   |       ^^^\n   = help: did you mean `fo`?\n\nerror: 1 error, 2 warnings\n";
        assert_eq!(
            translate_rendered(text),
            "Fehler[E0004]: undefiniertes Symbol `foo`\n  --> a.asm:3:9\n   |\n 3 |  ldaa foo\n   |       ^^^\n   = Hilfe: meintest du `fo`?\n\nFehler: 1 Fehler, 2 Warnungen\n"
        );
    }

    #[test]
    fn every_addressing_mode_has_its_german() {
        // The modes are named in "`ldaa` can use: ..." and "has no ... addressing mode".
        for info in crate::cpu::opcodes::OPCODES {
            let name = info.mode.to_string();
            assert!(
                WORDS.iter().any(|(en, _)| *en == name),
                "addressing mode `{name}` has no German in WORDS"
            );
        }
    }

    #[test]
    fn german_placeholders_may_change_order() {
        let en = pieces("{} of {}");
        assert_eq!(
            fill("{1} von {0}", &en, &["a".into(), "b".into()]),
            "b von a"
        );
    }
}

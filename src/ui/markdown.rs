//! The Markdown of lesson and exercise texts, as the course writes it:
//! headings, paragraphs, `- ` / `* ` / `1. ` lists, tables, fenced code,
//! and inline `code`, **bold** and *emphasis*. Characters the window's
//! fonts cannot draw are replaced by plain ones (`→` by `->`), so no text
//! shows as boxes.

use egui::{text::LayoutJob, FontId, RichText, TextFormat};

/// Plain stand-ins for characters a font may lack.
const FALLBACKS: &[(char, &str)] = &[
    ('→', "->"),
    ('←', "<-"),
    ('↑', "^"),
    ('↓', "v"),
    ('⇒', "=>"),
    ('✔', "ok"),
    ('✓', "ok"),
    ('✗', "x"),
    ('✖', "x"),
    ('−', "-"),
    ('–', "-"),
    ('—', "-"),
    ('≥', ">="),
    ('≤', "<="),
    ('≠', "!="),
    ('×', "x"),
    ('„', "\""),
    ('“', "\""),
    ('”', "\""),
    ('‘', "'"),
    ('’', "'"),
    ('…', "..."),
    ('·', "-"),
    ('µ', "u"),
    ('•', "-"),
];

/// `text` with every character the fonts of `ctx` cannot draw at `font`
/// replaced by its plain stand-in (or `?`).
pub fn drawable(ctx: &egui::Context, font: &FontId, text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    ctx.fonts_mut(|f| {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if c.is_ascii() || f.has_glyph(font, c) {
                out.push(c);
            } else {
                match FALLBACKS.iter().find(|(k, _)| *k == c) {
                    Some((_, s)) => out.push_str(s),
                    None => out.push('?'),
                }
            }
        }
        out
    })
}

/// Shows `text` (Markdown) in `ui`, wrapped to its width.
pub fn markdown(ui: &mut egui::Ui, text: &str) {
    let body = egui::TextStyle::Body.resolve(ui.style());
    let text = drawable(ui.ctx(), &body, text);
    let mut para = String::new();
    let mut code: Option<String> = None;
    let flush = |ui: &mut egui::Ui, para: &mut String| {
        if !para.trim().is_empty() {
            let job = inline(ui, para.trim());
            ui.label(job);
        }
        para.clear();
    };
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(block) = code.as_mut() {
            if t.starts_with("```") {
                ui.label(RichText::new(block.trim_end()).monospace());
                code = None;
            } else {
                block.push_str(line);
                block.push('\n');
            }
            continue;
        }
        if t.starts_with("```") {
            flush(ui, &mut para);
            code = Some(String::new());
        } else if t.is_empty() {
            flush(ui, &mut para);
        } else if let Some(h) = heading(t) {
            flush(ui, &mut para);
            ui.add_space(4.0);
            ui.label(RichText::new(h).strong());
        } else if t.starts_with('|') {
            flush(ui, &mut para);
            if let Some(row) = table_row(t) {
                ui.label(inline(ui, &row));
            }
        } else if let Some(item) = list_item(t) {
            flush(ui, &mut para);
            para.push_str(&item);
        } else {
            if !para.is_empty() {
                para.push(' ');
            }
            para.push_str(t);
        }
    }
    flush(ui, &mut para);
    if let Some(block) = code {
        ui.label(RichText::new(block).monospace());
    }
}

/// The text of a `#`..`######` heading line, without a `{#id}` or
/// `{.class}` attribute.
fn heading(line: &str) -> Option<String> {
    let rest = line.trim_start_matches('#');
    let level = line.len() - rest.len();
    if level == 0 || level > 6 || !rest.starts_with(' ') {
        return None;
    }
    let mut h = rest.trim();
    if let Some(i) = h.rfind(" {") {
        if h.ends_with('}') {
            h = h[..i].trim_end();
        }
    }
    Some(h.to_string())
}

/// A list item as its bullet (or number) and text.
fn list_item(line: &str) -> Option<String> {
    if let Some(item) = line.strip_prefix("- ").or_else(|| line.strip_prefix("* ")) {
        return Some(format!("• {item}"));
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let rest = line.get(digits..)?;
    (digits > 0 && rest.starts_with(". ")).then(|| line.to_string())
}

/// A table row as its cells joined by ` | `; `None` for the `|---|` line.
fn table_row(line: &str) -> Option<String> {
    let cells: Vec<&str> = line
        .trim()
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect();
    let rule = cells
        .iter()
        .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':')));
    (!rule).then(|| cells.join("  |  "))
}

/// One paragraph with `code`, **bold** and *emphasis* spans.
pub fn inline(ui: &egui::Ui, text: &str) -> LayoutJob {
    let style = ui.style();
    let color = style.visuals.text_color();
    let body = egui::TextStyle::Body.resolve(style);
    let mono = FontId::monospace((body.size - 1.0).max(8.0));
    let mut job = LayoutJob::default();
    job.wrap.max_width = ui.available_width();
    let plain = TextFormat {
        font_id: body.clone(),
        color,
        ..Default::default()
    };
    let mut rest = text;
    while !rest.is_empty() {
        // The first marker: ` then ** then * (a `*` alone before a space,
        // as in `brclr scsr, #$80, *`, is a character, not emphasis).
        let code = rest.find('`');
        let bold = rest.find("**");
        let em = find_emphasis(rest);
        let first = [code, bold, em].into_iter().flatten().min();
        let Some(at) = first else {
            job.append(rest, 0.0, plain.clone());
            break;
        };
        job.append(&rest[..at], 0.0, plain.clone());
        let (marker, format) = if Some(at) == code {
            (
                "`",
                TextFormat {
                    font_id: mono.clone(),
                    color,
                    background: style.visuals.code_bg_color,
                    ..Default::default()
                },
            )
        } else if Some(at) == bold {
            (
                "**",
                TextFormat {
                    font_id: body.clone(),
                    color: style.visuals.strong_text_color(),
                    ..Default::default()
                },
            )
        } else {
            (
                "*",
                TextFormat {
                    font_id: body.clone(),
                    color,
                    italics: true,
                    ..Default::default()
                },
            )
        };
        let after = &rest[at + marker.len()..];
        let end = after.find(marker).unwrap_or(after.len());
        job.append(&after[..end], 0.0, format);
        rest = after.get(end + marker.len()..).unwrap_or("");
    }
    job
}

/// Where a single-`*` emphasis starts: a `*` not part of `**`, followed by
/// a non-space and closed later on the line.
fn find_emphasis(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'*' {
            if b.get(i + 1) == Some(&b'*') {
                i += 2;
                continue;
            }
            let next_ok = b.get(i + 1).is_some_and(|c| !c.is_ascii_whitespace());
            let closed = text[i + 1..].find('*').is_some();
            if next_ok && closed {
                return Some(i);
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_lists_and_tables_lose_their_markup() {
        assert_eq!(heading("## Step {#cell136}").as_deref(), Some("Step"));
        assert_eq!(heading("#nope"), None);
        assert_eq!(list_item("* item").as_deref(), Some("• item"));
        assert_eq!(list_item("12. twelve").as_deref(), Some("12. twelve"));
        assert_eq!(list_item("2024 was"), None);
        assert_eq!(table_row("|---|:--:|"), None);
        assert_eq!(table_row("| a | b |").as_deref(), Some("a  |  b"));
    }

    #[test]
    fn emphasis_needs_a_word_after_the_star_and_a_closing_star() {
        assert_eq!(find_emphasis("the *pages* of"), Some(4));
        assert_eq!(find_emphasis("brclr scsr, #$80, *"), None);
        assert_eq!(find_emphasis("**bold** only"), None);
    }

    #[test]
    fn every_character_of_the_course_texts_is_drawable_or_replaced() {
        // Every non-ASCII character of every lesson and exercise text.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
        let mut chars: Vec<char> = Vec::new();
        for dir in std::fs::read_dir(&root).unwrap().filter_map(Result::ok) {
            for f in std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if f.path().extension().is_some_and(|e| e == "md") {
                    let text = std::fs::read_to_string(f.path()).unwrap();
                    chars.extend(text.chars().filter(|c| !c.is_ascii()));
                }
            }
        }
        chars.sort_unstable();
        chars.dedup();
        assert!(chars.contains(&'ü'), "{chars:?}");
        let text: String = chars.iter().collect();
        let mut checked = false;
        // The harness panics on a character no font draws (tofu).
        let mut h = egui_kittest::Harness::new_ui(|ui| {
            let font = egui::TextStyle::Body.resolve(ui.style());
            let shown = drawable(ui.ctx(), &font, &text);
            ui.label(&shown);
            ui.ctx().fonts_mut(|f| {
                for c in shown.chars() {
                    assert!(c.is_ascii() || f.has_glyph(&font, c), "{c:?} in {shown}");
                }
            });
            checked = true;
        });
        h.run();
        drop(h);
        assert!(checked);
    }
}

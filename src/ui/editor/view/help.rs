//! Help for a place in the text: under the pointer after a moment, or at
//! the cursor with Ctrl+I (so it needs no mouse); an error's fix taken with
//! a click in that help or with Ctrl+. on the error's line.

use super::area::Shown;
use super::*;
use crate::ui::editor::live::{LiveDiag, LiveResult};

/// What the help is about.
#[derive(Clone, Debug)]
pub(super) enum Topic {
    Diags(Vec<LiveDiag>),
    Mnemonic(Op),
    Symbol(crate::ui::editor::live::LiveSymbol),
}

impl EditorView {
    /// The last assembly's messages about 0-based line `line` of buffer
    /// `bi`, while the line's text is still the one assembled.
    fn diags_on(
        session: &Session,
        bi: usize,
        line: usize,
        live: Option<&LiveResult>,
        lf: Option<usize>,
    ) -> Vec<LiveDiag> {
        let (Some(live), Some(lf)) = (live, lf) else {
            return Vec::new();
        };
        if !live.diags.iter().any(|d| d.file == Some(lf)) {
            return Vec::new();
        }
        let buf = &session.edits.buffers[bi];
        let text = &buf.text;
        let lt = &text[line_range(text, line)];
        let snapshot: Vec<&str> = live.files[lf].text.split('\n').collect();
        live.diags
            .iter()
            .filter(|dg| {
                dg.file == Some(lf)
                    && buf.live_to_now(dg.line) == Some(line as u32 + 1)
                    && snapshot.get(dg.line as usize - 1) == Some(&lt)
            })
            .cloned()
            .collect()
    }

    /// The help at byte column `col` of 0-based line `line`: an underlined
    /// message there, else the mnemonic or symbol there; with its bytes in
    /// the text.
    fn topic_at(
        session: &Session,
        bi: usize,
        (line, col): (usize, usize),
        live: Option<&LiveResult>,
        lf: Option<usize>,
    ) -> Option<(Range<usize>, Topic)> {
        let text = &session.edits.buffers[bi].text;
        let lr = line_range(text, line);
        let lt = &text[lr.clone()];
        let here: Vec<LiveDiag> = Self::diags_on(session, bi, line, live, lf)
            .into_iter()
            .filter(|dg| {
                let (u, _) = area::underline(dg, lt);
                u.start <= col && col <= u.end && !u.is_empty()
            })
            .collect();
        if let Some(first) = here.first() {
            let (u, _) = area::underline(first, lt);
            return Some((lr.start + u.start..lr.start + u.end, Topic::Diags(here)));
        }
        let w = word_at(lt, col)?;
        let word = &lt[w.clone()];
        let (field, _) = complete::context(&lt[..w.start]);
        let op = crate::asm::dialect::instruction(session.dialect(), word)
            .filter(|_| field == Field::Mnemonic);
        let t = match op {
            Some(op) => Topic::Mnemonic(op),
            None => Topic::Symbol(live?.symbol(word)?.clone()),
        };
        Some((lr.start + w.start..lr.start + w.end, t))
    }

    /// Help under the pointer (after a moment, staying while the pointer
    /// moves into it) or, after Ctrl+I, at the cursor (`cursor`, in
    /// characters) until the cursor moves.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hover_help(
        &mut self,
        ui: &mut egui::Ui,
        session: &mut Session,
        bi: usize,
        shown: &Shown,
        live: Option<&LiveResult>,
        lf: Option<usize>,
        cursor: usize,
    ) {
        let lang = session.lang();
        let ctx = ui.ctx().clone();
        let text = &session.edits.buffers[bi].text;
        let pointer = shown.response.hover_pos();
        let place = pointer.and_then(|p| {
            let rel = p - shown.galley_pos;
            let row = (rel.y
                / shown
                    .galley
                    .rows
                    .first()
                    .map_or(1.0, |r| r.rect().height().max(1.0))) as usize;
            let r = shown.galley.rows.get(row)?;
            if rel.x > r.rect().right() + 2.0 {
                return None;
            }
            let c = shown.galley.cursor_from_pos(rel);
            Some(line_of_byte(text, byte_of_char(text, c.index.0)))
        });
        let topic = place.and_then(|p| Self::topic_at(session, bi, p, live, lf));
        let by_pointer = self
            .hover
            .track(&ctx, topic.as_ref().map(|(r, _)| (bi, r.clone())));
        // Asked for with Ctrl+I: until the cursor moves (or Escape).
        if self.help_at.is_some_and(|at| at != (bi, cursor)) {
            self.help_at = None;
        }
        let topic = if by_pointer {
            // On the way from the word into the popup (to click a fix) the
            // pointer is over no word: the popup stays with its topic.
            topic.or_else(|| {
                self.hover_topic
                    .clone()
                    .filter(|(b, ..)| *b == bi)
                    .map(|(_, r, t)| (r, t))
            })
        } else if self.help_at.is_some() {
            let text = &session.edits.buffers[bi].text;
            let at = line_of_byte(text, byte_of_char(text, cursor));
            let t = Self::topic_at(session, bi, at, live, lf);
            if t.is_none() {
                self.help_at = None;
                session.status = tr(
                    lang,
                    "No help here: put the cursor on an instruction, a label or an underlined error.",
                )
                .into();
            }
            t
        } else {
            None
        };
        let Some((range, topic)) = topic else {
            self.hover_topic = None;
            return;
        };
        self.hover_topic = Some((bi, range.clone(), topic.clone()));
        let text = &session.edits.buffers[bi].text;
        let (line0, col) = line_of_byte(text, range.start);
        let row = &shown.galley.rows[line0.min(shown.galley.rows.len() - 1)];
        let lt = &text[line_range(text, line0)];
        let x0 = row.x_offset(egui::text::CharIndex(char_of_byte(lt, col)));
        let x1 = row.x_offset(egui::text::CharIndex(char_of_byte(lt, col + range.len())));
        let rr = row.rect().translate(shown.galley_pos.to_vec2());
        let anchor = Rect::from_min_max(
            egui::pos2(rr.left() + x0, rr.top()),
            egui::pos2(rr.left() + x1, rr.bottom()),
        );
        let line_now = line0 as u32 + 1;
        let code = self
            .derived
            .as_ref()
            .and_then(|d| d.to_live.get(line0).copied().flatten())
            .and_then(|ll| {
                live.zip(lf)
                    .and_then(|(l, lf)| l.files[lf].code.get(ll as usize - 1).cloned().flatten())
            });
        let first_stop = first_stop(session);
        let now_value = match &topic {
            Topic::Symbol(s) => session.program().cloned().and_then(|p| {
                let sym = p.symbol(&s.name)?.clone();
                crate::ui::listing::value_now(lang, session, &p, &sym)
            }),
            _ => None,
        };
        let fix = self
            .hover
            .show(ui, anchor, |ui| match &topic {
                Topic::Diags(ds) => {
                    let with: Vec<(&LiveDiag, Vec<Fix>)> = ds
                        .iter()
                        .map(|dg| (dg, hover::fixes(dg, line_now, first_stop)))
                        .collect();
                    hover::diags_ui(ui, lang, &with)
                }
                Topic::Mnemonic(op) => {
                    hover::mnemonic_ui(ui, lang, *op, code.as_ref());
                    None
                }
                Topic::Symbol(s) => {
                    if let Some(l) = live {
                        hover::symbol_ui(ui, lang, s, l, now_value.clone());
                    }
                    None
                }
            })
            .flatten();
        if let Some(f) = fix {
            if let Some(at) = self.apply_fix(session, bi, &f) {
                let id = shown.response.id;
                let mut state = egui::TextEdit::load_state(&ctx, id).unwrap_or_default();
                set_cursor(&mut state, at..at);
                state.store(&ctx, id);
            }
        }
    }

    /// Ctrl+.: the first fix of a message on the cursor's line (`cursor`
    /// in characters); returns the cursor after it.
    pub(super) fn fix_at_cursor(
        &mut self,
        session: &mut Session,
        bi: usize,
        cursor: usize,
    ) -> Option<usize> {
        let lang = session.lang();
        let live = session.edits.live().cloned();
        let lf = session.edits.live_of_buffer(bi);
        let text = &session.edits.buffers[bi].text;
        let line = line_of_byte(text, byte_of_char(text, cursor)).0;
        let diags = Self::diags_on(session, bi, line, live.as_deref(), lf);
        let stop = first_stop(session);
        let fix = diags
            .iter()
            .find_map(|d| hover::fixes(d, line as u32 + 1, stop).into_iter().next());
        match (fix, diags.first()) {
            (Some(f), _) => {
                let at = self.apply_fix(session, bi, &f)?;
                session.status = trf(lang, "Fixed: {}", &[&f.with.trim()]);
                Some(at)
            }
            (None, Some(d)) => {
                session.status = trf(lang, "No fix for: {}", &[&d.message]);
                None
            }
            (None, None) => {
                session.status = tr(lang, "No error on this line.").into();
                None
            }
        }
    }

    /// Makes the change `f`; returns the cursor (characters) after it.
    fn apply_fix(&mut self, session: &mut Session, bi: usize, f: &Fix) -> Option<usize> {
        let b = &mut session.edits.buffers[bi];
        let r = b.line_range(f.line);
        let (a, e) = (r.start + f.cols.start, r.start + f.cols.end.min(r.len()));
        let mut t = b.text.clone();
        t.get(a..e)?;
        t.replace_range(a..e, &f.with);
        let at = char_of_byte(&t, a + f.with.len());
        b.replace(t, at);
        session.edits.touched();
        self.hover.clear();
        self.help_at = None;
        Some(at)
    }
}

/// The dialect's first column after the label's.
fn first_stop(session: &Session) -> usize {
    text_ops::tab_stops(session.dialect())
        .first()
        .copied()
        .unwrap_or(8)
}

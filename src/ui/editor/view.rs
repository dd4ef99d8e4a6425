//! The editor: one file's text, edited in place, highlighted line by line
//! (each line's colours cached by its text, so typing colours one line
//! again), with the margin beside it (`gutter`), the errors underlined,
//! the current line of the running program, the lines the selection links
//! to, the find bar's matches, help under the pointer (`hover`) and
//! completion (`complete`). The editor's own keys (Tab to the dialect's
//! columns, undo, comment, completion, go to definition) are taken before
//! the text widget sees them.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use egui::text::{CCursor, CCursorRange, LayoutJob, TextFormat};
use egui::{Color32, Id, Key, KeyboardShortcut, Modifiers, Rect, Shape, Stroke, Vec2};

use super::buffer::Change;
use super::complete::{self, Completion, Field, KeyResult};
use super::find::{FindAction, FindBar, GotoAction, GotoLine};
use super::gutter::{self, Click, Row};
use super::hover::{self, Fix, HoverState};
use super::text_ops::{self, byte_of_char, char_of_byte, line_of_byte, line_range};
use crate::asm::Severity;
use crate::cpu::opcodes::Op;
use crate::ui::i18n::{tr, trf};
use crate::ui::links::{LineRole, Selection};
use crate::ui::listing::columns;
use crate::ui::session::Session;
use crate::ui::syntax::{Highlighter, Span};

/// Undo.
pub const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
/// Redo.
pub const REDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
/// Redo, the other usual way.
pub const REDO_SHIFT: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
/// Comment or uncomment the selected lines.
pub const COMMENT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Slash);
/// Open the completion list.
pub const COMPLETE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Space);
/// Go to the definition of the symbol at the cursor.
pub const DEFINITION: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F12);
/// The help the pointer would show, for the word at the cursor.
pub const HELP: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::I);
/// The first fix of an error on the cursor's line.
pub const FIX: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Period);

const PC_BG: Color32 = Color32::from_rgba_premultiplied(0x50, 0x48, 0x00, 0x60);
const SEL: Color32 = Color32::from_rgb(0xFF, 0x80, 0x00);
const WROTE: Color32 = Color32::from_rgba_premultiplied(0x70, 0x10, 0x38, 0x70);
const READ: Color32 = Color32::from_rgba_premultiplied(0x10, 0x38, 0x70, 0x70);
const MATCH: Color32 = Color32::from_rgba_premultiplied(0x60, 0x60, 0x10, 0x60);
const MATCH_NOW: Color32 = Color32::from_rgba_premultiplied(0xA0, 0x70, 0x00, 0xA0);
const ERROR_LINE: Color32 = Color32::from_rgb(0xF0, 0x40, 0x40);
const WARNING_LINE: Color32 = Color32::from_rgb(0xE0, 0xB0, 0x30);

/// Something the editor does to its text, from a key or a menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Undo the last step.
    Undo,
    /// Redo the last undone step.
    Redo,
    /// Comment or uncomment the selected lines.
    Comment,
    /// Tab: to the next column.
    Indent,
    /// Shift+Tab: to the previous column.
    Outdent,
    /// Open the completion list.
    Complete,
    /// Go to the definition of the word at the cursor.
    Definition,
    /// Open the find bar.
    Find,
    /// Open the find bar with the replace row.
    Replace,
    /// Open the go-to-line bar.
    GotoLine,
    /// Help for the word at the cursor.
    Help,
    /// The first fix of an error on the cursor's line.
    Fix,
}

/// The text widget's id for the file at `path`.
pub fn text_id(path: &std::path::Path) -> Id {
    Id::unique(("editor-text", path))
}

/// Colours of lines by their text.
#[derive(Default)]
pub struct LineColours {
    dark: bool,
    lines: HashMap<String, Vec<Span>>,
}

/// Lines kept before the cache starts over.
const COLOUR_CACHE: usize = 50_000;

impl LineColours {
    /// The colours of `line` (highlighted now if new).
    pub fn spans(&mut self, hl: Option<&Highlighter>, line: &str, dark: bool) -> &[Span] {
        if self.dark != dark || self.lines.len() > COLOUR_CACHE {
            self.lines.clear();
            self.dark = dark;
        }
        if !self.lines.contains_key(line) {
            let spans = hl.map(|h| h.highlight_line(line, dark)).unwrap_or_default();
            self.lines.insert(line.to_string(), spans);
        }
        self.lines.get(line).map_or(&[], Vec::as_slice)
    }
}

/// Underlines by 0-based line: byte range and colour.
type Underlines = HashMap<usize, Vec<(Range<usize>, Color32)>>;

/// The pieces of the text as laid out: byte range (into the whole text),
/// colour, underline; neighbours of the same look are one piece.
struct Pieces {
    out: Vec<(Range<usize>, Color32, Option<Color32>)>,
}

impl Pieces {
    fn push(&mut self, r: Range<usize>, color: Color32, under: Option<Color32>) {
        if r.is_empty() {
            return;
        }
        if let Some(last) = self.out.last_mut() {
            if last.0.end == r.start && last.1 == color && last.2 == under {
                last.0.end = r.end;
                return;
            }
        }
        self.out.push((r, color, under));
    }

    /// `line[r]` (the line starting at byte `at` of the text) in `color`,
    /// cut where underlines start and end.
    fn piece(
        &mut self,
        at: usize,
        line: &str,
        r: Range<usize>,
        color: Color32,
        under: &[(Range<usize>, Color32)],
    ) {
        let mut cuts = vec![r.start, r.end];
        for (u, _) in under {
            for p in [u.start, u.end] {
                if p > r.start && p < r.end && line.is_char_boundary(p) {
                    cuts.push(p);
                }
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        for w in cuts.windows(2) {
            let (a, b) = (w[0], w[1]);
            let u = under
                .iter()
                .find(|(u, _)| u.start <= a && b <= u.end)
                .map(|(_, c)| *c);
            self.push(at + a..at + b, color, u);
        }
    }
}

/// The whole text as one job: each line's colours from the cache.
fn layout_job(
    text: &str,
    colours: &mut LineColours,
    hl: Option<&Highlighter>,
    dark: bool,
    base: &TextFormat,
    unders: &Underlines,
) -> LayoutJob {
    let none: Vec<(Range<usize>, Color32)> = Vec::new();
    let mut pieces = Pieces { out: Vec::new() };
    let mut at = 0;
    for (i, line) in text.split('\n').enumerate() {
        let under = unders.get(&i).unwrap_or(&none);
        let spans = colours.spans(hl, line, dark);
        let mut pos = 0;
        for (r, c) in spans {
            let r = r.start.min(line.len())..r.end.min(line.len());
            if r.start > pos {
                pieces.piece(at, line, pos..r.start, base.color, under);
            }
            if r.end > r.start.max(pos) {
                pieces.piece(at, line, r.start.max(pos)..r.end, *c, under);
            }
            pos = pos.max(r.end);
        }
        if pos < line.len() {
            pieces.piece(at, line, pos..line.len(), base.color, under);
        }
        at += line.len();
        if at < text.len() {
            // The line break goes with the line's last piece.
            let color = pieces
                .out
                .last()
                .filter(|p| p.0.end == at)
                .map_or(base.color, |p| p.1);
            let u = pieces
                .out
                .last()
                .filter(|p| p.0.end == at)
                .and_then(|p| p.2);
            pieces.push(at..at + 1, color, u);
            at += 1;
        }
    }
    let mut job = LayoutJob {
        text: text.to_string(),
        keep_trailing_whitespace: true,
        ..LayoutJob::default()
    };
    job.wrap.max_width = f32::INFINITY;
    job.sections = pieces
        .out
        .into_iter()
        .map(|(r, color, under)| {
            let mut format = base.clone();
            format.color = color;
            if let Some(c) = under {
                format.underline = Stroke::new(1.5, c);
            }
            egui::text::LayoutSection {
                leading_space: 0.0,
                byte_range: egui::text::ByteIndex(r.start)..egui::text::ByteIndex(r.end),
                format,
            }
        })
        .collect();
    if job.sections.is_empty() {
        job.sections.push(egui::text::LayoutSection {
            leading_space: 0.0,
            byte_range: egui::text::ByteIndex(0)..egui::text::ByteIndex(text.len()),
            format: base.clone(),
        });
    }
    job
}

/// The last galley of the text widget, kept while nothing it depends on
/// changed: the widget asks for it every frame, and building (or only
/// hashing) the layout of a whole long file every frame is what made
/// typing in one slow. A galley points into the font atlas: it is laid out
/// again when the atlas was emptied (its fill went down) or the scale
/// changed.
#[derive(Default)]
pub struct TextGalley {
    text: String,
    key: Option<(Id, u64)>,
    fill: f32,
    galley: Option<Arc<egui::Galley>>,
}

impl TextGalley {
    /// The galley of `text` for the look `key`, laid out again only when
    /// something changed.
    pub fn get(
        &mut self,
        ui: &egui::Ui,
        text: &str,
        key: (Id, u64),
        make: impl FnOnce() -> LayoutJob,
    ) -> Arc<egui::Galley> {
        let fill = ui.ctx().fonts(|f| f.font_atlas_fill_ratio());
        if let Some(g) = &self.galley {
            if self.key == Some(key) && fill >= self.fill && self.text == text {
                return g.clone();
            }
        }
        let g = ui.fonts_mut(|f| f.layout_job(make()));
        self.text.clear();
        self.text.push_str(text);
        self.key = Some(key);
        self.fill = ui.ctx().fonts(|f| f.font_atlas_fill_ratio());
        self.galley = Some(g.clone());
        g
    }
}

/// A hash of what a galley's look depends on besides the text.
fn look_key(dark: bool, base: &TextFormat, unders: &Underlines, ppp: f32) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    dark.hash(&mut h);
    base.font_id.hash(&mut h);
    base.line_height.map(f32::to_bits).hash(&mut h);
    base.color.hash(&mut h);
    ppp.to_bits().hash(&mut h);
    let mut u: Vec<_> = unders.iter().collect();
    u.sort_by_key(|(l, _)| **l);
    for (l, v) in u {
        l.hash(&mut h);
        for (r, c) in v {
            r.hash(&mut h);
            c.hash(&mut h);
        }
    }
    h.finish()
}

/// The word (a symbol or mnemonic) around byte `col` of `line`.
pub fn word_at(line: &str, col: usize) -> Option<Range<usize>> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    let col = col.min(line.len());
    let start = line[..col]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(col, |(i, _)| i);
    let end = line[col..]
        .char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(line.len(), |(i, _)| col + i);
    let w = line.get(start..end)?;
    w.chars()
        .next()
        .filter(|c| c.is_ascii_alphabetic() || *c == '_' || *c == '.')
        .map(|_| start..end)
}

/// The lines' maps of a buffer, worked out once per text and result.
struct Derived {
    key: (usize, u64, u64),
    to_loaded: Vec<Option<u32>>,
    to_live: Vec<Option<u32>>,
}

/// The editor view of one panel.
#[derive(Default)]
pub struct EditorView {
    colours: LineColours,
    /// The find bar.
    pub find: FindBar,
    /// The go-to-line bar.
    pub goto: GotoLine,
    complete: Completion,
    hover: HoverState,
    commands: Vec<Command>,
    scroll_to: Option<(usize, u32)>,
    cursor_line: Option<(usize, u32)>,
    derived: Option<Derived>,
    /// What the help popup shows: buffer, the word's bytes, the topic.
    hover_topic: Option<(usize, Range<usize>, help::Topic)>,
    /// Help asked for at the cursor (Ctrl+I): buffer, cursor (characters).
    help_at: Option<(usize, usize)>,
    /// A selection (buffer, characters) to make once the text has the
    /// keyboard: egui keeps no selection in a text without it.
    reselect: Option<(usize, Range<usize>)>,
    galley: TextGalley,
}

/// Where a jump goes: buffer, 1-based line, byte column.
type Target = (usize, u32, usize);

impl EditorView {
    /// Does `c` next frame.
    pub fn command(&mut self, c: Command) {
        self.commands.push(c);
    }

    /// Scrolls to 1-based line `line` of buffer `buffer` next frame,
    /// leaving the cursor where it is.
    pub fn scroll_to_line(&mut self, buffer: usize, line: u32) {
        self.scroll_to = Some((buffer, line));
    }

    fn derived(&mut self, session: &Session, bi: usize) -> &Derived {
        let live_id = session.edits.live().map_or(0, |l| l.id);
        let gen = session.edits.buffers.get(bi).map_or(0, |b| b.generation);
        let key = (bi, gen, live_id);
        if self.derived.as_ref().is_none_or(|d| d.key != key) {
            let (to_loaded, to_live) = session
                .edits
                .buffers
                .get(bi)
                .map(|b| (b.now_to_loaded(), b.now_to_live()))
                .unwrap_or_default();
            self.derived = Some(Derived {
                key,
                to_loaded,
                to_live,
            });
        }
        self.derived.get_or_insert_with(|| Derived {
            key,
            to_loaded: Vec::new(),
            to_live: Vec::new(),
        })
    }

    /// Shows buffer `bi` of the session's editor.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session, bi: usize) {
        let lang = session.lang();
        let ctx = ui.ctx().clone();
        let Some(path) = session.edits.buffers.get(bi).map(|b| b.path.clone()) else {
            return;
        };
        let id = text_id(&path);
        let mut state = egui::TextEdit::load_state(&ctx, id).unwrap_or_default();
        let mut sel = cursor_chars(&state);

        // What the session asked for: a line to show, the keyboard.
        if let Some((b, line, col)) = session.edits.request.reveal {
            if b == bi {
                session.edits.request.reveal = None;
                let text = &session.edits.buffers[bi].text;
                let r = line_range(text, line.saturating_sub(1) as usize);
                let at = char_of_byte(text, (r.start + col).min(r.end));
                sel = at..at;
                self.scroll_to = Some((bi, line));
            }
        }
        if std::mem::take(&mut session.edits.request.focus) {
            ctx.memory_mut(|m| m.request_focus(id));
        }
        let focused = ctx.memory(|m| m.has_focus(id));
        if focused {
            if let Some((_, r)) = self.reselect.take().filter(|(b, _)| *b == bi) {
                sel = r;
            }
        }

        if self.complete.is_open()
            && self.complete.generation != session.edits.buffers[bi].generation
        {
            self.complete.close();
        }

        // The editor's own keys, before the text widget takes them.
        if focused {
            if let KeyResult::Accept(item, b, r) = self.complete.keys(&ctx) {
                if b == bi {
                    sel = self.accept(session, bi, r, &item.text);
                }
            }
            let take = |k: &KeyboardShortcut| ctx.input_mut(|i| i.consume_shortcut(k));
            let shift_tab = KeyboardShortcut::new(Modifiers::SHIFT, Key::Tab);
            let tab = KeyboardShortcut::new(Modifiers::NONE, Key::Tab);
            if take(&shift_tab) {
                self.commands.push(Command::Outdent);
            } else if take(&tab) {
                self.commands.push(Command::Indent);
            }
            if take(&REDO_SHIFT) || take(&REDO) {
                self.commands.push(Command::Redo);
            } else if take(&UNDO) {
                self.commands.push(Command::Undo);
            }
            if take(&COMMENT) {
                self.commands.push(Command::Comment);
            }
            if take(&COMPLETE) {
                self.commands.push(Command::Complete);
            }
            if take(&DEFINITION) {
                self.commands.push(Command::Definition);
            }
            if take(&HELP) {
                self.commands.push(Command::Help);
            }
            if take(&FIX) {
                self.commands.push(Command::Fix);
            }
            if self.help_at.is_some()
                && ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape))
            {
                self.help_at = None;
            }
        }

        // The bars above the text.
        let cursor_byte = byte_of_char(&session.edits.buffers[bi].text, sel.start);
        for c in std::mem::take(&mut self.commands) {
            match c {
                Command::Find | Command::Replace => {
                    let text = &session.edits.buffers[bi].text;
                    let a = byte_of_char(text, sel.start);
                    let b = byte_of_char(text, sel.end);
                    let selected = text.get(a..b).map(str::to_string);
                    self.find.open(c == Command::Replace, selected.as_deref());
                }
                Command::GotoLine => self.goto.open(),
                other => self.commands.push(other),
            }
        }
        let found = self.find.current.clone();
        let find = {
            let text = &session.edits.buffers[bi].text;
            self.find.ui(ui, lang, text, cursor_byte)
        };
        match find {
            Some(FindAction::Select(m)) => {
                let text = &session.edits.buffers[bi].text;
                sel = char_of_byte(text, m.start)..char_of_byte(text, m.end);
                self.scroll_to = Some((bi, line_of_byte(text, m.start).0 as u32 + 1));
            }
            Some(FindAction::Replace(m, with)) => {
                let b = &mut session.edits.buffers[bi];
                let mut t = b.text.clone();
                if t.get(m.clone()).is_some() {
                    t.replace_range(m.clone(), &with);
                    b.replace(t, sel.start);
                    session.edits.touched();
                    let text = &session.edits.buffers[bi].text;
                    let from = m.start + with.len();
                    self.find.current = None;
                    if let Some(n) = self.find.next(text, from, false) {
                        sel = char_of_byte(text, n.start)..char_of_byte(text, n.end);
                        self.find.current = Some(n);
                    } else {
                        let at = char_of_byte(text, from);
                        sel = at..at;
                    }
                }
            }
            Some(FindAction::ReplaceAll(t)) => {
                let n = super::find::matches(
                    &session.edits.buffers[bi].text,
                    &self.find.query,
                    self.find.case,
                )
                .len();
                session.edits.buffers[bi].replace(t, sel.start);
                session.edits.touched();
                session.status = trf(lang, "Replaced {} match(es).", &[&n]);
                let len = session.edits.buffers[bi].text.chars().count();
                sel = sel.start.min(len)..sel.start.min(len);
            }
            Some(FindAction::Close) => {
                // Back in the text, the match found stays selected.
                let text = &session.edits.buffers[bi].text;
                if let Some(m) = found.filter(|m| text.get(m.clone()).is_some()) {
                    self.reselect =
                        Some((bi, char_of_byte(text, m.start)..char_of_byte(text, m.end)));
                }
                ctx.memory_mut(|m| m.request_focus(id));
            }
            None => {}
        }
        let lines = session.edits.buffers[bi].lines();
        match self.goto.ui(ui, lang, lines) {
            Some(GotoAction::Line(n)) => {
                let text = &session.edits.buffers[bi].text;
                let r = line_range(text, n as usize - 1);
                let first = text[r.clone()].len() - text[r.clone()].trim_start().len();
                let at = char_of_byte(text, r.start + first);
                sel = at..at;
                self.scroll_to = Some((bi, n));
                ctx.memory_mut(|m| m.request_focus(id));
            }
            Some(GotoAction::Close) => ctx.memory_mut(|m| m.request_focus(id)),
            None => {}
        }

        // Commands on the text.
        for c in std::mem::take(&mut self.commands) {
            sel = self.run(c, session, bi, sel);
        }
        set_cursor(&mut state, sel.clone());
        state.store(&ctx, id);

        self.status_row(ui, session, bi, sel.start);
        self.text_area(ui, session, bi, id, sel);
    }

    /// The row above the text: cursor place, the assembly's state, and
    /// whether the running program is this text.
    fn status_row(&self, ui: &mut egui::Ui, session: &Session, bi: usize, cursor: usize) {
        let lang = session.lang();
        let b = &session.edits.buffers[bi];
        let byte = byte_of_char(&b.text, cursor);
        let (line, col) = line_of_byte(&b.text, byte);
        let line_text = &b.text[line_range(&b.text, line)];
        let col = char_of_byte(line_text, col) + 1;
        ui.horizontal_wrapped(|ui| {
            ui.label(
                egui::RichText::new(trf(lang, "Ln {}, Col {}", &[&(line + 1), &col]))
                    .monospace()
                    .weak(),
            );
            let live = session.edits.live();
            let state = if session.edits.assembling() {
                tr(lang, "assembling…").to_string()
            } else {
                match live {
                    Some(r) if r.errors() > 0 => trf(lang, "{} error(s)", &[&r.errors()]),
                    Some(r) => {
                        let w = r.diags.len();
                        if w > 0 {
                            trf(lang, "assembled, {} warning(s)", &[&w])
                        } else {
                            tr(lang, "assembled").to_string()
                        }
                    }
                    None => String::new(),
                }
            };
            ui.label(egui::RichText::new(state).weak());
            if session.run_is_stale() {
                ui.label(
                    egui::RichText::new(tr(
                        lang,
                        "the running program is older than this text: F7",
                    ))
                    .color(Color32::from_rgb(0xFF, 0xB0, 0x00)),
                );
            }
        });
    }

    /// Does a command; returns the selection after it.
    fn run(
        &mut self,
        c: Command,
        session: &mut Session,
        bi: usize,
        sel: Range<usize>,
    ) -> Range<usize> {
        let lang = session.lang();
        let dialect = session.dialect();
        if c != Command::Complete {
            // Its word is where the text was before this command.
            self.complete.close();
        }
        let b = &mut session.edits.buffers[bi];
        let edited = match c {
            Command::Undo => {
                return match b.undo(sel.start) {
                    Some(at) => {
                        session.edits.touched();
                        let at = at.min(session.edits.buffers[bi].text.chars().count());
                        at..at
                    }
                    None => sel,
                };
            }
            Command::Redo => {
                return match b.redo(sel.start) {
                    Some(at) => {
                        session.edits.touched();
                        let at = at.min(session.edits.buffers[bi].text.chars().count());
                        at..at
                    }
                    None => sel,
                };
            }
            Command::Comment => text_ops::toggle_comment(&b.text, sel.clone()),
            Command::Indent => text_ops::indent(&b.text, sel.clone(), dialect),
            Command::Outdent => text_ops::outdent(&b.text, sel.clone(), dialect),
            Command::Complete => {
                self.offer(session, bi, sel.start, true);
                return sel;
            }
            Command::Definition => {
                let text = &session.edits.buffers[bi].text;
                let byte = byte_of_char(text, sel.start);
                let (line, col) = line_of_byte(text, byte);
                let line_text = &text[line_range(text, line)];
                let word = word_at(line_text, col).map(|r| line_text[r].to_string());
                match word.and_then(|w| definition(session, &w).map(|t| (w, t))) {
                    Some((_, t)) => go_to(session, t),
                    None => {
                        session.status = tr(
                            lang,
                            "No definition here: put the cursor on a label or constant.",
                        )
                        .into()
                    }
                }
                return sel;
            }
            Command::Help => {
                self.hover.clear();
                self.help_at = Some((bi, sel.start));
                return sel;
            }
            Command::Fix => {
                return match self.fix_at_cursor(session, bi, sel.start) {
                    Some(at) => at..at,
                    None => sel,
                };
            }
            Command::Find | Command::Replace | Command::GotoLine => return sel,
        };
        let (text, new_sel) = edited;
        let b = &mut session.edits.buffers[bi];
        b.replace(text, sel.start);
        session.edits.touched();
        new_sel
    }

    /// Replaces the word `r` (bytes) with `with`; returns the cursor after it.
    fn accept(
        &mut self,
        session: &mut Session,
        bi: usize,
        r: Range<usize>,
        with: &str,
    ) -> Range<usize> {
        let b = &mut session.edits.buffers[bi];
        let mut t = b.text.clone();
        if t.get(r.clone()).is_none() {
            return 0..0;
        }
        t.replace_range(r.clone(), with);
        let at = char_of_byte(&t, r.start + with.len());
        let before = char_of_byte(&b.text, r.end);
        b.replace(t, before);
        session.edits.touched();
        self.complete.close();
        at..at
    }

    /// Opens (or closes) the completion list for the word before `cursor`.
    fn offer(&mut self, session: &Session, bi: usize, cursor: usize, forced: bool) {
        let text = &session.edits.buffers[bi].text;
        let byte = byte_of_char(text, cursor);
        let (line, col) = line_of_byte(text, byte);
        let r = line_range(text, line);
        let before = &text[r.start..r.start + col];
        let (field, word) = complete::context(before);
        let prefix = &before[word.clone()];
        // A word starting with a digit is a number, never a name.
        let number = prefix.starts_with(|c: char| c.is_ascii_digit());
        if !forced && (prefix.is_empty() || number) {
            self.complete.close();
            return;
        }
        let symbols = match session.edits.live() {
            Some(l) => complete::symbols_of(l),
            None => session
                .program()
                .map(|p| {
                    p.symbols
                        .iter()
                        .map(|s| (s.name.clone(), s.value, s.kind))
                        .collect()
                })
                .unwrap_or_default(),
        };
        let items = complete::candidates(field, prefix, &symbols, session.dialect());
        let only_itself = items.len() == 1 && items[0].text.eq_ignore_ascii_case(prefix);
        if items.is_empty()
            || (only_itself && !forced)
            || matches!(field, Field::Label | Field::Comment)
        {
            self.complete.close();
            return;
        }
        self.complete
            .open(bi, r.start + word.start..r.start + word.end, items);
        self.complete.generation = session.edits.buffers[bi].generation;
    }
}

/// The selection of a text widget's state, in characters (sorted).
fn cursor_chars(state: &egui::text_edit::TextEditState) -> Range<usize> {
    state.cursor.char_range().map_or(0..0, |r| {
        let s = r.as_sorted_char_range();
        s.start.0..s.end.0
    })
}

/// Puts the selection (characters) into a text widget's state.
fn set_cursor(state: &mut egui::text_edit::TextEditState, sel: Range<usize>) {
    let now = cursor_chars(state);
    if now != sel {
        state.cursor.set_char_range(Some(CCursorRange::two(
            CCursor::new(sel.start),
            CCursor::new(sel.end),
        )));
    }
}

/// Where the symbol `name` is defined, as the text is now: from the last
/// assembly, else from the running program.
pub fn definition(session: &Session, name: &str) -> Option<Target> {
    let edits = &session.edits;
    if let Some(live) = edits.live() {
        if let Some((f, line)) = live.symbol(name).and_then(|s| s.defined) {
            let b = edits.buffer_of_live(f)?;
            let now = edits.buffers.get(b)?.live_to_now(line)?;
            return Some((b, now, 0));
        }
    }
    let p = session.program()?;
    let (f, line) = p.symbol(name)?.defined_at?;
    let b = edits.find(&p.files.get(f)?.path)?;
    let now = edits.buffers.get(b)?.loaded_to_now(line)?;
    Some((b, now, 0))
}

/// Shows a place in the editor and gives it the keyboard.
pub fn go_to(session: &mut Session, (b, line, col): Target) {
    session.edits.request.reveal = Some((b, line, col));
    session.edits.request.editor = true;
    session.edits.request.focus = true;
}

mod area;
mod help;

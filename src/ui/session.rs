//! The GUI's session: the loaded program, the machine running it, the
//! breakpoints, the selection and the run state every panel reads and
//! commands. What survives a restart is [`Settings`], kept apart from the
//! runtime state. The session only calls the library (`Program`, the
//! machine); it decodes nothing and touches no device internals.

use std::path::PathBuf;
use std::sync::Arc;

use super::lcd::{LcdFrame, LcdSettings};
use super::links::{self, CellLayout, LcdRamCell, LinkInputs, Links, Selection};
use super::syntax::Highlighter;
use crate::image::{FileId, Program, SymbolKind};

/// How fast the machine runs while running.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Speed {
    /// The board's 2 MHz E clock.
    #[default]
    RealTime,
    /// Ten times the E clock.
    Times10,
    /// As many cycles as fit in a frame.
    Max,
}

impl Speed {
    /// Label for menus.
    pub fn label(self) -> &'static str {
        match self {
            Speed::RealTime => "Real time (2 MHz)",
            Speed::Times10 => "x10",
            Speed::Max => "As fast as possible",
        }
    }
}

/// A breakpoint as it is persisted: by source line when the program has
/// sources, else by address.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SavedBreakpoint {
    /// A source line (file path as opened, 1-based line).
    Line {
        /// The file's path.
        file: PathBuf,
        /// The line.
        line: u32,
    },
    /// An address.
    Addr(u16),
}

/// What is persisted between runs (eframe storage).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// LCD zoom and grid.
    pub lcd: LcdSettings,
    /// Most recent first.
    pub recent: Vec<PathBuf>,
    /// Breakpoints by program path (the bundled program is the empty path).
    pub breakpoints: Vec<(PathBuf, Vec<SavedBreakpoint>)>,
    /// Run speed.
    pub speed: Speed,
    /// Bottom panel tab.
    pub bottom_tab: BottomTab,
    /// Watch expressions (symbol names or `$addr`, optional `:len`).
    pub watches: Vec<String>,
    /// Show the frame-time overlay.
    pub frame_overlay: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lcd: LcdSettings::default(),
            recent: Vec::new(),
            breakpoints: Vec::new(),
            speed: Speed::RealTime,
            bottom_tab: BottomTab::Memory,
            watches: vec!["player".into(), "cursorColumn".into(), "cellAddress:2".into()],
            frame_overlay: false,
        }
    }
}

/// Tabs of the bottom panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BottomTab {
    /// The hex view.
    #[default]
    Memory,
    /// The SCI terminal.
    Serial,
    /// Assembly errors and load problems.
    Problems,
}

/// A problem to show in the Problems panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// `error`, `warning`, ...
    pub severity: String,
    /// The message as the library renders it.
    pub message: String,
    /// Where, if known: (file path, 1-based line, 1-based column).
    pub at: Option<(PathBuf, u32, u32)>,
}

/// Where the program came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The firmware bundled into the binary.
    Bundled,
    /// A path the user opened.
    Path(PathBuf),
}

/// The session every panel works on.
pub struct Session {
    /// Persisted settings.
    pub settings: Settings,
    /// The selection.
    pub selection: Option<Selection>,
    /// Problems of the last load.
    pub problems: Vec<Problem>,
    /// Where the program came from.
    pub origin: Option<Origin>,
    program: Option<Arc<Program>>,
    generation: usize,
    highlighter: Option<Highlighter>,
    links: Links,
    links_dirty: bool,
    breakpoints: Vec<u16>,
    reveal_line: Option<(FileId, u32)>,
    reveal_mem: Option<Selection>,
    /// Status text for the status bar.
    pub status: String,
}

impl Session {
    /// An empty session with these settings.
    pub fn new(settings: Settings) -> Self {
        let (highlighter, problems) = match Highlighter::new() {
            Ok(h) => (Some(h), Vec::new()),
            Err(e) => (
                None,
                vec![Problem {
                    severity: "error".into(),
                    message: e.to_string(),
                    at: None,
                }],
            ),
        };
        Session {
            settings,
            selection: None,
            problems,
            origin: None,
            program: None,
            generation: 0,
            highlighter,
            links: Links::default(),
            links_dirty: true,
            breakpoints: Vec::new(),
            reveal_line: None,
            reveal_mem: None,
            status: String::new(),
        }
    }

    /// Installs a program (replacing the previous one).
    pub fn set_program(&mut self, program: Program, origin: Origin) {
        self.program = Some(Arc::new(program));
        self.origin = Some(origin);
        self.generation += 1;
        self.selection = None;
        self.links_dirty = true;
        self.restore_breakpoints();
    }

    /// The loaded program.
    pub fn program(&self) -> Option<&Arc<Program>> {
        self.program.as_ref()
    }

    /// Changes whenever a new program is loaded (for caches).
    pub fn program_generation(&self) -> usize {
        self.generation
    }

    /// The syntax highlighter, if its definition loaded.
    pub fn highlighter(&self) -> Option<&Highlighter> {
        self.highlighter.as_ref()
    }

    /// The program's cell buffer layout.
    pub fn layout(&self) -> Option<CellLayout> {
        self.program.as_deref().and_then(CellLayout::from_program)
    }

    /// Memory as the CPU would read it, without side effects.
    pub fn peek(&self, addr: u16) -> u8 {
        self.program
            .as_deref()
            .and_then(|p| p.byte_at(addr))
            .unwrap_or(0)
    }

    /// True if `addr` changed in the last step or run slice.
    pub fn changed(&self, _addr: u16) -> bool {
        false
    }

    /// The program counter, when a machine runs.
    pub fn pc(&self) -> Option<u16> {
        None
    }

    /// True when the machine is not running (memory may be edited).
    pub fn is_paused(&self) -> bool {
        true
    }

    /// Stores a byte (memory edit in a paused machine).
    pub fn poke(&mut self, _addr: u16, _value: u8) {}

    /// The LCD picture now.
    pub fn lcd_frame(&self) -> LcdFrame {
        LcdFrame::default()
    }

    /// Selects something; the links follow.
    pub fn select(&mut self, sel: Selection) {
        self.selection = Some(sel);
        self.links_dirty = true;
        match sel {
            Selection::BufferByte(_) => self.reveal_mem = Some(sel),
            Selection::Pixel { .. } => {}
            Selection::Line { .. } => {}
        }
    }

    /// The links of the current selection.
    pub fn links(&mut self) -> &Links {
        if self.links_dirty {
            self.links_dirty = false;
            self.links = match self.selection {
                None => Links::default(),
                Some(sel) => {
                    let pixel_to_ram = |x: u8, y: u8| -> Option<(LcdRamCell, u8)> {
                        (x < 128 && y < 64).then_some((
                            LcdRamCell {
                                page: y / 8,
                                column: x,
                            },
                            y % 8,
                        ))
                    };
                    let ram_to_pixel = |c: LcdRamCell, bit: u8| -> Option<(u8, u8)> {
                        (c.page < 8 && c.column < 128 && bit < 8)
                            .then_some((c.column, c.page * 8 + bit))
                    };
                    let peek = |a: u16| self.peek(a);
                    let frame = self.lcd_frame();
                    let pixel_on = |x: u8, y: u8| frame.get(x as usize, y as usize);
                    let inp = LinkInputs {
                        program: self.program.as_deref(),
                        layout: self.layout(),
                        pixel_to_ram: &pixel_to_ram,
                        ram_to_pixel: &ram_to_pixel,
                        pixel_on: &pixel_on,
                        peek: &peek,
                        provenance: None,
                    };
                    links::compute(sel, &inp)
                }
            };
        }
        &self.links
    }

    /// True if a breakpoint is set at `addr`.
    pub fn has_breakpoint(&self, addr: u16) -> bool {
        self.breakpoints.contains(&addr)
    }

    /// All breakpoint addresses.
    pub fn breakpoints(&self) -> &[u16] {
        &self.breakpoints
    }

    /// Sets or clears a breakpoint at an address.
    pub fn toggle_breakpoint(&mut self, addr: u16) {
        if let Some(i) = self.breakpoints.iter().position(|a| *a == addr) {
            self.breakpoints.remove(i);
        } else {
            self.breakpoints.push(addr);
        }
        self.save_breakpoints();
    }

    /// Sets or clears a breakpoint on a source line (at its first address);
    /// a line without code gets none.
    pub fn toggle_breakpoint_line(&mut self, file: FileId, line: u32) {
        let addr = self
            .program
            .as_deref()
            .and_then(|p| p.addrs_of_line(file, line).next().map(|e| e.addr));
        match addr {
            Some(a) => self.toggle_breakpoint(a),
            None => self.status = format!("Line {line} has no code: no breakpoint there."),
        }
    }

    fn program_key(&self) -> PathBuf {
        match &self.origin {
            Some(Origin::Path(p)) => p.clone(),
            _ => PathBuf::new(),
        }
    }

    fn save_breakpoints(&mut self) {
        let Some(p) = self.program.clone() else {
            return;
        };
        let saved: Vec<SavedBreakpoint> = self
            .breakpoints
            .iter()
            .map(|&a| match p.line_at(a).filter(|e| e.addr == a) {
                Some(e) => match p.files.get(e.file) {
                    Some(f) => SavedBreakpoint::Line {
                        file: f.path.clone(),
                        line: e.line,
                    },
                    None => SavedBreakpoint::Addr(a),
                },
                None => SavedBreakpoint::Addr(a),
            })
            .collect();
        let key = self.program_key();
        self.settings.breakpoints.retain(|(k, _)| *k != key);
        if !saved.is_empty() {
            self.settings.breakpoints.push((key, saved));
        }
    }

    fn restore_breakpoints(&mut self) {
        self.breakpoints.clear();
        let Some(p) = self.program.clone() else {
            return;
        };
        let key = self.program_key();
        let Some((_, saved)) = self.settings.breakpoints.iter().find(|(k, _)| *k == key) else {
            return;
        };
        for b in saved {
            let addr = match b {
                SavedBreakpoint::Addr(a) => Some(*a),
                SavedBreakpoint::Line { file, line } => p
                    .files
                    .iter()
                    .position(|f| f.path == *file)
                    .and_then(|fi| p.addrs_of_line(fi, *line).next())
                    .map(|e| e.addr),
            };
            if let Some(a) = addr {
                if !self.breakpoints.contains(&a) {
                    self.breakpoints.push(a);
                }
            }
        }
    }

    /// Runs until the program reaches `addr` (or another stop).
    pub fn run_to(&mut self, _addr: u16) {}

    /// Asks the memory panel to show `addr`.
    pub fn reveal_memory(&mut self, addr: u16) {
        self.reveal_mem = Some(Selection::BufferByte(addr));
        self.settings.bottom_tab = BottomTab::Memory;
    }

    /// Asks the listing to show a line.
    pub fn reveal_line(&mut self, file: FileId, line: u32) {
        self.reveal_line = Some((file, line));
    }

    /// The line the listing should scroll to, once.
    pub fn take_reveal_line(&mut self) -> Option<(FileId, u32)> {
        self.reveal_line.take()
    }

    /// The memory the hex view should scroll to, once.
    pub fn take_reveal(&mut self) -> Option<Selection> {
        self.reveal_mem.take()
    }

    /// Symbol names of RAM variables and other labels, sorted by address,
    /// for the hex view.
    pub fn ram_names(&self) -> Vec<(u16, String)> {
        let mut v: Vec<(u16, String)> = self
            .program
            .as_deref()
            .map(|p| {
                p.symbols
                    .iter()
                    .filter(|s| s.kind == SymbolKind::Label)
                    .map(|s| (s.value, s.name.clone()))
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v.dedup_by_key(|(a, _)| *a);
        v
    }

    /// An address from `$hex`, `0xhex`, decimal or a symbol name.
    pub fn resolve(&self, text: &str) -> Option<u16> {
        let t = text.trim();
        if let Some(h) = t.strip_prefix('$').or_else(|| t.strip_prefix("0x")) {
            return u16::from_str_radix(h, 16).ok();
        }
        if let Ok(d) = t.parse::<u16>() {
            return Some(d);
        }
        self.program.as_deref()?.symbol(t).map(|s| s.value)
    }
}

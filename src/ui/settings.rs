//! What the window keeps between runs (eframe storage): view settings,
//! breakpoints and watches per program, speed, theme, text size, language.

use std::path::PathBuf;

use super::lcd::LcdSettings;
use super::theme::{self, Theme};
use crate::lesson::Lang;

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
    /// A breakpoint spec as the library parses it (`Board.inc:60`,
    /// `readInput:3`, `drawCell if [cellAddress].w == 136`) and whether it
    /// is enabled. What this version writes; the two above are read for
    /// settings saved by earlier versions.
    Spec {
        /// The spec text.
        text: String,
        /// Enabled (a disabled breakpoint stays in the list).
        enabled: bool,
    },
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
    /// Record data flow (provenance) while running: what the links are
    /// made of. Off, the machine runs several times faster and the links
    /// fall back to the buffer/LCD formula.
    pub record_links: bool,
    /// Watch lists of the programs not open now, by program key (the
    /// bundled program is the empty path): each program keeps its own.
    pub program_watches: Vec<(PathBuf, Vec<String>)>,
    /// The tab of the right column (normal layout).
    pub side_tab: SideTab,
    /// The tab of the single pane (compact layout).
    pub pane: Pane,
    /// Dark or light.
    pub theme: Theme,
    /// Body text size in points.
    pub font_size: u8,
    /// Language of labels and lessons; `None` follows the system.
    pub language: Option<Lang>,
    /// The program key `watches` belongs to (`None`: the bundled game's
    /// defaults).
    pub watches_program: Option<PathBuf>,
}

/// Tabs of the right column in the normal layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SideTab {
    /// Registers, call stack, breakpoints, watches.
    #[default]
    Debugger,
    /// Lessons and exercises.
    Course,
    /// The lab bench: A/D inputs, port A pins, logic analyser.
    Bench,
}

/// Tabs of the single pane in the compact layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Pane {
    /// The listing.
    #[default]
    Listing,
    /// Registers, call stack, breakpoints, watches.
    Debugger,
    /// Lessons and exercises.
    Course,
    /// The hex view.
    Memory,
    /// The SCI terminal.
    Serial,
    /// Assembly errors and load problems.
    Problems,
    /// The lab bench: A/D inputs, port A pins, logic analyser.
    Bench,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lcd: LcdSettings::default(),
            recent: Vec::new(),
            breakpoints: Vec::new(),
            speed: Speed::RealTime,
            bottom_tab: BottomTab::Memory,
            watches: vec![
                "player".into(),
                "cursorColumn".into(),
                "cellAddress:2".into(),
            ],
            frame_overlay: false,
            record_links: true,
            program_watches: Vec::new(),
            side_tab: SideTab::Debugger,
            pane: Pane::Listing,
            theme: Theme::Dark,
            font_size: theme::DEFAULT_FONT_SIZE,
            language: None,
            watches_program: None,
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

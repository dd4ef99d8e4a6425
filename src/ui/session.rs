//! The GUI's session: the loaded program, the machine running it, the
//! breakpoints, the selection and the run state every panel reads and
//! commands. What survives a restart is [`Settings`], kept apart from the
//! runtime state. The session only calls the library (`Program`, the
//! machine); it decodes nothing and touches no device internals.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::i18n::{tr, trf};
use super::lcd::{LcdFrame, HEIGHT, WIDTH};
use super::links::{self, CellLayout, LcdRamCell, LinkInputs, Links, Selection};
use super::links::{ChainLink, ProvenanceSource};
pub use super::settings::{BottomTab, Pane, SavedBreakpoint, Settings, SideTab, Speed};
use super::syntax::Highlighter;
use super::AppInput;
use crate::cpu::{Instruction, Op, Registers};
use crate::debug::breakpoint::Breakpoint;
use crate::debug::report::FrameReport;
use crate::debug::{BreakSpec, Debugger, Reason, Stop};
use crate::image::{FileId, Program, SymbolKind};
use crate::lesson::Lang;
use crate::machine::Machine;
use crate::platform::{Instant, SystemTime};
use crate::script::{Played, Script, HOLD_CYCLES};

/// E-clock of the trainer11 in Hz.
const E_HZ: f64 = 2_000_000.0;
/// E-cycles one blocking command (step over a call) may run before it
/// pauses, so a call that never returns cannot freeze the window for long.
const COMMAND_CYCLES: u64 = 4_000_000;
/// How often the links of the selection are recomputed while running.
const LINKS_EVERY: Duration = Duration::from_millis(500);
/// Wall-clock time the emulator may take per frame (all speeds: when it
/// cannot keep up, it runs slower rather than stall the window); half the
/// time between frames when they come slower than that (a browser drawing
/// in software: 100 ms a frame), up to [`FRAME_BUDGET_MAX`].
const FRAME_BUDGET: Duration = Duration::from_millis(8);
/// The most wall-clock time the emulator takes per frame, however slowly
/// frames come (the window answers a click within two of these).
const FRAME_BUDGET_MAX: Duration = Duration::from_millis(60);
/// E-cycles per `run_until` call inside a frame at full speed, so the
/// wall-clock check runs often enough.
const SLICE_CYCLES: u64 = 20_000;
/// How often the source files are checked for changes on disk.
const POLL_EVERY: Duration = Duration::from_millis(750);

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

/// A display RAM bit (page, column, bit) and the pixel (x, y) showing it.
type RamPixel = ((u8, u8, u8), (u8, u8));

/// What the machine is doing between frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Nothing runs.
    Paused,
    /// Running at the chosen speed until a stop.
    Running,
    /// Running until the instruction at this address is next (run to);
    /// other stops still apply.
    RunTo(u16),
    /// Running until the call stack is shallower than this depth (step
    /// out; step over a call is a step into it, then this).
    StepOut(usize),
}

/// Something the user did to the board, for the lessons panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserEvent {
    /// The board was reset (toolbar Reset).
    Reset,
    /// Key n went down (a click or a held key).
    Key(u8),
}

/// Most user events kept undrained (the lessons panel may be hidden).
const MAX_USER_EVENTS: usize = 64;

fn push_event(events: &mut Vec<UserEvent>, e: UserEvent) {
    if events.len() >= MAX_USER_EVENTS {
        events.remove(0);
    }
    events.push(e);
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
    /// Status text for the status bar.
    pub status: String,
    /// Wall-clock time the emulation may take per frame.
    pub frame_budget: Duration,
    program: Option<Arc<Program>>,
    dbg: Option<Debugger<Machine>>,
    generation: usize,
    highlighter: Option<Highlighter>,
    links: Links,
    links_dirty: bool,
    reveal_line: Option<(FileId, u32)>,
    reveal_mem: Option<Selection>,
    /// A bottom tab asked for since the app last looked (Problems after a
    /// failed load, Memory for "show in memory"): the compact pane follows.
    asked_tab: Option<BottomTab>,
    jump: Option<(FileId, u32)>,
    mode: Mode,
    stop: Option<String>,
    /// The last stop in German, when the window has German words for it
    /// (see [`super::debug_words`]).
    stop_shown: Option<String>,
    regs_before: Registers,
    mem_before: Vec<u8>,
    links_at: Option<Instant>,
    held: u8,
    key_down_since: [Option<u64>; 8],
    script_active: bool,
    /// What the last script started does (for its settled stop's words).
    played: Played,
    /// Cycle at which data-flow recording was switched back on, when it
    /// was off for a while since reset (the record has a gap before it).
    recording_since: Option<u64>,
    /// What the user did to the board since the lessons panel last looked.
    user_events: Vec<UserEvent>,
    /// Modification times of the source files, to reload on change.
    mtimes: Vec<(PathBuf, Option<SystemTime>)>,
    last_poll: Option<Instant>,
    /// The language shown (the saved one, else the system's).
    lang: Lang,
    /// Something changed outside a frame's normal flow (a reload): draw
    /// another frame.
    repaint: bool,
    /// The program key the current watch list belongs to.
    watches_of: Option<PathBuf>,
    /// The dialect sources are assembled in (File > Source dialect;
    /// starts as the command line's `--dialect`).
    dialect: crate::asm::Dialect,
    /// The lab bench around the chip (kept over resets and reloads).
    bench: Bench,
    /// The board an open lesson runs its program on (its name, as
    /// [`crate::lesson::program::LessonProgram::board_key`] gives it, and
    /// the board); `None`: the command line's board.
    board: Option<(String, crate::board::config::BoardSetup)>,
    /// The files open in the editor and their live assembly.
    pub edits: super::editor::edits::Edits,
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
        let settings_lang = settings.language.unwrap_or_else(Lang::from_env);
        Session {
            settings,
            selection: None,
            problems,
            origin: None,
            status: String::new(),
            frame_budget: FRAME_BUDGET,
            program: None,
            dbg: None,
            generation: 0,
            highlighter,
            links: Links::default(),
            links_dirty: true,
            reveal_line: None,
            reveal_mem: None,
            asked_tab: None,
            jump: None,
            mode: Mode::Paused,
            stop: None,
            stop_shown: None,
            regs_before: Registers::default(),
            mem_before: Vec::new(),
            links_at: None,
            held: 0,
            key_down_since: [None; 8],
            user_events: Vec::new(),
            script_active: false,
            played: Played::default(),
            mtimes: Vec::new(),
            last_poll: None,
            recording_since: None,
            lang: settings_lang,
            repaint: false,
            watches_of: None,
            dialect: crate::open::default_dialect(),
            bench: Bench::default(),
            board: None,
            edits: Default::default(),
        }
    }

    /// The language of labels and lessons.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Switches the language (saved with the settings).
    pub fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
        self.settings.language = Some(lang);
        // The link bar's notes are worded in the language.
        self.links_dirty = true;
    }

    /// True once after something changed that the window must show even
    /// without input (a reload).
    pub fn take_repaint(&mut self) -> bool {
        std::mem::take(&mut self.repaint)
    }

    /// A short name of what is loaded (for the title bar).
    pub fn title(&self) -> String {
        match &self.origin {
            Some(Origin::Bundled) => tr(self.lang, "Viergewinnt (bundled)").into(),
            Some(Origin::Path(p)) => p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.display().to_string()),
            None => tr(self.lang, "nothing loaded").into(),
        }
    }

    /// The loaded program.
    pub fn program(&self) -> Option<&Arc<Program>> {
        self.program.as_ref()
    }

    /// True unless the open program runs on a board without an LCD (`evb`,
    /// a board file without one): the window then hides the LCD.
    pub fn shows_lcd(&self) -> bool {
        self.machine().is_none_or(|m| m.board().has_lcd())
    }

    /// True unless the open program's board has no keys: the window then
    /// hides the key pad.
    pub fn shows_keys(&self) -> bool {
        self.machine().is_none_or(|m| m.board().has_keys())
    }

    /// The machine, if the program loaded onto one.
    pub fn machine(&self) -> Option<&Machine> {
        self.dbg.as_ref().map(|d| d.target())
    }

    /// The debugger driving the machine.
    pub fn debugger(&self) -> Option<&Debugger<Machine>> {
        self.dbg.as_ref()
    }

    /// True when a machine exists to run.
    pub fn has_machine(&self) -> bool {
        self.dbg.is_some()
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

    /// Memory as the CPU would read it, without side effects (the program
    /// image when no machine could be made).
    pub fn peek(&self, addr: u16) -> u8 {
        match self.machine() {
            Some(m) => m.peek(addr),
            None => self
                .program
                .as_deref()
                .and_then(|p| p.byte_at(addr))
                .unwrap_or(0),
        }
    }

    /// True if `addr` changed in the last step or run slice.
    pub fn changed(&self, addr: u16) -> bool {
        self.mem_before
            .get(addr as usize)
            .is_some_and(|b| *b != self.peek(addr))
    }

    /// Registers now, and before the last step or run slice.
    pub fn registers(&self) -> Option<(Registers, Registers)> {
        self.machine().map(|m| (m.registers(), self.regs_before))
    }

    /// The program counter, when a machine runs.
    pub fn pc(&self) -> Option<u16> {
        self.machine().map(|m| m.registers().pc)
    }

    /// E-cycles since reset.
    pub fn cycles(&self) -> u64 {
        self.machine().map_or(0, |m| m.cycles())
    }

    /// Instructions since reset.
    pub fn instructions(&self) -> u64 {
        self.machine().map_or(0, |m| m.instructions())
    }

    /// The resets and key presses the user made since the last call, oldest
    /// first (the lessons panel drains them; key scripts are not in it).
    pub fn take_user_events(&mut self) -> Vec<UserEvent> {
        std::mem::take(&mut self.user_events)
    }

    /// The keys the board sees pressed (bit n = key n).
    pub fn keys_down(&self) -> u8 {
        self.machine().map_or(0, |m| m.keys())
    }

    /// Why the machine last stopped, in words (English, as the debugger
    /// and `run` say it).
    pub fn stop_reason(&self) -> Option<&str> {
        self.stop.as_deref()
    }

    /// Why the machine last stopped, in the window's language.
    pub fn stop_text(&self) -> Option<String> {
        let en = self.stop.as_deref()?;
        if self.lang == Lang::En {
            return Some(en.to_string());
        }
        Some(
            self.stop_shown
                .clone()
                .or_else(|| super::i18n::german(en).map(str::to_string))
                .unwrap_or_else(|| en.to_string()),
        )
    }

    /// Sets the stop reason the session words itself (English; German
    /// through the label table).
    fn set_stop(&mut self, stop: Option<String>) {
        self.stop = stop;
        self.stop_shown = None;
    }

    /// The call stack as the debugger recorded it, innermost first.
    pub fn call_stack(&self) -> Vec<FrameReport> {
        self.dbg
            .as_ref()
            .map(|d| d.call_stack())
            .unwrap_or_default()
    }

    /// The run state for the toolbar, in the window's language. The
    /// session's own stop reasons are translated; the debugger's (a
    /// breakpoint, a return) are shown as the library words them.
    pub fn run_state_text(&self) -> String {
        let lang = self.lang;
        match self.mode {
            Mode::Running => tr(lang, "running").into(),
            Mode::RunTo(a) => trf(lang, "running to ${}", &[&format!("{a:04X}")]),
            Mode::StepOut(_) => tr(lang, "stepping out").into(),
            Mode::Paused => match self.stop_text() {
                Some(s) => trf(lang, "paused: {}", &[&s]),
                None => tr(lang, "paused").into(),
            },
        }
    }

    /// True while the machine runs between frames.
    pub fn is_running(&self) -> bool {
        self.mode != Mode::Paused
    }

    /// True when the machine is not running (memory may be edited).
    pub fn is_paused(&self) -> bool {
        self.mode == Mode::Paused
    }

    /// Stores a byte (memory edit in a paused machine).
    pub fn poke(&mut self, addr: u16, value: u8) {
        if !self.is_paused() {
            return;
        }
        let Some(d) = self.dbg.as_mut() else {
            return;
        };
        match d.target_mut().poke(addr, &[value]) {
            Ok(()) => {
                self.status = format!("${addr:04X} := ${value:02X}");
                self.links_dirty = true;
            }
            Err(a) => {
                self.status = trf(
                    self.lang,
                    "${} is not RAM or program memory: not changed.",
                    &[&format!("{a:04X}")],
                )
            }
        }
    }

    /// The LCD picture now.
    pub fn lcd_frame(&self) -> LcdFrame {
        match self.machine() {
            Some(m) => {
                let lcd = m.lcd();
                LcdFrame::from_fn(lcd.is_visible(), lcd.backlight(), |x, y| lcd.pixel(x, y))
            }
            None => LcdFrame::default(),
        }
    }

    /// Presses and releases board keys as the user holds them (bit n = key
    /// n). A key stays down at least the firmware's debounce hold
    /// (`script::HOLD_CYCLES`) of machine time, so a quick click counts.
    pub fn set_held_keys(&mut self, held: u8) {
        self.held = held;
        let Some(d) = self.dbg.as_mut() else {
            return;
        };
        let now = d.target().cycles();
        for n in 0..8u8 {
            let want = held >> n & 1 == 1;
            let slot = &mut self.key_down_since[n as usize];
            match (want, *slot) {
                (true, None) => {
                    *slot = Some(now);
                    d.target_mut().set_key(n, true);
                    push_event(&mut self.user_events, UserEvent::Key(n));
                }
                (false, Some(t)) if now >= t.saturating_add(HOLD_CYCLES) => {
                    *slot = None;
                    d.target_mut().set_key(n, false);
                }
                _ => {}
            }
        }
    }

    fn mark_before(&mut self) {
        let now = self
            .machine()
            .map(|m| (m.registers(), m.peek_range(0, 0x10000)));
        match now {
            Some((regs, mem)) => {
                self.regs_before = regs;
                self.mem_before = mem;
            }
            None => self.mem_before.clear(),
        }
    }

    /// True if there is a step to undo.
    pub fn can_step_back(&self) -> bool {
        self.dbg.as_ref().is_some_and(|d| d.index() > 0)
    }

    /// Starts running.
    pub fn run(&mut self) {
        if self.dbg.is_some() && self.mode == Mode::Paused {
            self.mode = Mode::Running;
            self.set_stop(None);
        }
    }

    /// Stops running.
    pub fn pause(&mut self) {
        if self.mode != Mode::Paused {
            self.mode = Mode::Paused;
            self.set_stop(Some("paused by you".into()));
            self.after_stop();
        }
    }

    /// Runs until the program reaches `addr` (or another stop).
    pub fn run_to(&mut self, addr: u16) {
        if self.dbg.is_some() {
            self.set_stop(None);
            self.mode = Mode::RunTo(addr);
        }
    }

    /// Runs to the selected listing line (its first address) or the
    /// selected byte's address; says so in the status bar when the
    /// selection has no code.
    pub fn run_to_selection(&mut self) {
        let target = match self.selection {
            Some(Selection::Line { file, line }) => self
                .program
                .as_deref()
                .and_then(|p| p.addrs_of_line(file, line).next().map(|e| e.addr)),
            _ => None,
        };
        match target {
            Some(a) if self.is_paused() => {
                self.status = trf(
                    self.lang,
                    "Running to ${}{}.",
                    &[&format!("{a:04X}"), &self.describe(a)],
                );
                self.run_to(a);
            }
            Some(_) => {}
            None => {
                self.status = tr(
                    self.lang,
                    "Run to cursor: select a listing line with code first (click its number).",
                )
                .into()
            }
        }
    }

    fn finish(&mut self, mut stop: Stop) {
        self.mode = Mode::Paused;
        if matches!(stop.reason, Reason::Settled { .. }) {
            self.script_active = false;
            // The debugger's sentence names a key script; this one may
            // have sent serial input only, or had nothing to play.
            stop.message = self.played.reword(stop.message);
        }
        // Worded in German now (the program's labels are at hand), shown
        // whenever the window is German, also after a language switch.
        self.stop_shown =
            super::debug_words::stop_words(Lang::De, &stop, self.program.as_deref(), self.played);
        self.stop = Some(stop.message);
        self.after_stop();
    }

    /// Executes one instruction (or takes one interrupt).
    pub fn step_into(&mut self) {
        if self.mode != Mode::Paused {
            return;
        }
        self.mark_before();
        if let Some(d) = self.dbg.as_mut() {
            let stop = d.step_into();
            self.finish(stop);
        }
    }

    /// Steps over a subroutine call (JSR/BSR): into it, then out of it in
    /// frame-sized slices; any other instruction is a plain step.
    pub fn step_over(&mut self) {
        if self.mode != Mode::Paused {
            return;
        }
        let Some(d) = self.dbg.as_ref() else {
            return;
        };
        let m = d.target();
        let pc = m.registers().pc;
        let is_call = Instruction::decode(pc, |a| m.peek(a))
            .is_ok_and(|i| matches!(i.info.op, Op::Jsr | Op::Bsr));
        let depth = d.frames().len();
        self.step_into();
        let entered = self.dbg.as_ref().is_some_and(|d| d.frames().len() > depth);
        if is_call && entered {
            // The step stopped with a message; the run goes on.
            self.set_stop(None);
            self.mode = Mode::StepOut(depth + 1);
        }
    }

    /// Runs until the current subroutine (or interrupt handler) returns.
    pub fn step_out(&mut self) {
        if self.mode != Mode::Paused {
            return;
        }
        let Some(depth) = self.dbg.as_ref().map(|d| d.frames().len()) else {
            return;
        };
        if depth == 0 {
            self.set_stop(Some("no subroutine to step out of (at top level)".into()));
            return;
        }
        self.mark_before();
        self.set_stop(None);
        self.mode = Mode::StepOut(depth);
    }

    /// Goes back one instruction, exactly (the debugger's reverse execution).
    pub fn step_back(&mut self) {
        if self.mode != Mode::Paused {
            return;
        }
        self.mark_before();
        if let Some(d) = self.dbg.as_mut() {
            let stop = d.step_back();
            self.finish(stop);
        }
    }

    /// Resets the board (program reloaded, CPU reset).
    pub fn reset(&mut self) {
        if let Some(d) = self.dbg.as_mut() {
            d.reset();
            // The record restarts with the machine: complete again.
            self.recording_since = None;
            self.mode = Mode::Paused;
            self.set_stop(Some("reset".into()));
            self.key_down_since = [None; 8];
            self.script_active = false;
            push_event(&mut self.user_events, UserEvent::Reset);
            self.reapply_bench();
            self.mark_before();
            self.after_stop();
        }
    }

    /// Starts a key script (`run --keys` syntax) and runs it at full speed.
    pub fn start_script(&mut self, script: &Script) {
        if let Some(d) = self.dbg.as_mut() {
            d.target_mut().start_script(script);
            self.played = script.played();
            self.script_active = true;
            self.set_stop(None);
            self.mode = Mode::Running;
        }
    }

    /// True while a key script runs.
    pub fn script_active(&self) -> bool {
        self.script_active
    }

    fn after_stop(&mut self) {
        self.links_dirty = true;
        if let (Some(pc), Some(p)) = (self.pc(), self.program.as_deref()) {
            if let Some(e) = p.line_at(pc) {
                self.jump = Some((e.file, e.line));
            }
        }
    }

    /// The line the listing should show after a stop, once.
    pub fn take_jump(&mut self) -> Option<(FileId, u32)> {
        self.jump.take()
    }

    /// Advances the machine by one frame's worth of time (`dt` of wall
    /// clock) at the chosen speed, in bounded slices.
    pub fn advance(&mut self, dt: Duration) {
        if self.mode == Mode::Paused || self.dbg.is_none() {
            return;
        }
        if self.mode == Mode::Running {
            // While running, "changed" means changed during this frame.
            self.mark_before();
        }
        let speed = if self.script_active || self.mode != Mode::Running {
            Speed::Max
        } else {
            self.settings.speed
        };
        let started = Instant::now();
        let wall = self.frame_budget.max((dt / 2).min(FRAME_BUDGET_MAX));
        let mut budget = match speed {
            Speed::RealTime => (dt.as_secs_f64() * E_HZ) as u64,
            Speed::Times10 => (dt.as_secs_f64() * E_HZ * 10.0) as u64,
            Speed::Max => u64::MAX,
        };
        while budget > 0 {
            let slice = budget.min(SLICE_CYCLES);
            budget -= slice;
            if self.run_slice(slice) || started.elapsed() >= wall {
                break;
            }
        }
        // Keys released by the user come up once their minimum hold passed.
        let held = self.held;
        self.set_held_keys(held);
        if self.links_at.is_none_or(|t| t.elapsed() >= LINKS_EVERY) {
            self.links_dirty = true;
        }
    }

    /// One slice of the current mode; true if the machine stopped.
    fn run_slice(&mut self, cycles: u64) -> bool {
        let mode = self.mode;
        let Some(d) = self.dbg.as_mut() else {
            return true;
        };
        d.max_cycles = cycles;
        let stop = match mode {
            Mode::Paused => return true,
            Mode::Running => d.run(),
            Mode::RunTo(a) => d.run_to_address(a),
            Mode::StepOut(depth) => {
                if d.frames().len() < depth {
                    Stop {
                        reason: Reason::Step,
                        message: "returned".into(),
                        pc: d.registers().pc,
                        cycles: d.target().cycles(),
                        index: d.index(),
                        exit: None,
                    }
                } else {
                    d.step_out()
                }
            }
        };
        d.max_cycles = COMMAND_CYCLES;
        // The data flow of the slice, tracked now while the slice is short
        // (runs leave it to the first question, which would otherwise wait
        // for all of them at once).
        d.track_provenance();
        match (&stop.reason, mode) {
            (Reason::Budget { .. }, _) => false,
            // Step out goes one frame up per `step_out`; keep going until
            // the frame the command started in is left.
            (Reason::Returned { .. }, Mode::StepOut(depth)) if d.frames().len() >= depth => false,
            _ => {
                self.finish(stop);
                true
            }
        }
    }

    /// Asks the memory panel to show `addr`.
    pub fn reveal_memory(&mut self, addr: u16) {
        self.reveal_mem = Some(Selection::BufferByte(addr));
        self.ask_bottom_tab(BottomTab::Memory);
    }

    /// Shows `tab` at the bottom and asks the compact pane to follow. A
    /// request, not a comparison with the tab shown before: a failed first
    /// load whose saved tab already was Problems still switches the pane.
    fn ask_bottom_tab(&mut self, tab: BottomTab) {
        self.settings.bottom_tab = tab;
        self.asked_tab = Some(tab);
    }

    /// The bottom tab asked for since the last call, once.
    pub fn take_asked_tab(&mut self) -> Option<BottomTab> {
        self.asked_tab.take()
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

    /// Labels by address (RAM variables and code), sorted, for the hex view.
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

mod bench;
mod breakpoints;
mod editing;
mod files;
mod selection;
mod serial_io;

pub use bench::{Bench, INPUT_BITS};

#[cfg(test)]
mod tests {
    use super::*;

    fn bundled() -> Session {
        let mut s = Session::new(Settings::default());
        s.open(AppInput::Bundled);
        s
    }

    /// An EVB-style program's variables in the trainer11's register block
    /// are a warning in Problems, on the line that reserves them.
    #[test]
    fn misplaced_variables_are_problems_with_their_line() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/run/evb_sum.asm");
        let mut s = Session::new(Settings::default());
        s.open(AppInput::Path(path.clone()));
        assert!(s.dbg.is_some(), "it runs: {:?}", s.problems);
        let sum = s
            .problems
            .iter()
            .find(|p| p.message.contains("variable `SUM`"))
            .unwrap_or_else(|| panic!("{:?}", s.problems));
        assert_eq!(sum.severity, "warning");
        assert!(
            sum.message.contains("help: reserve it in RAM"),
            "{}",
            sum.message
        );
        assert_eq!(sum.at, Some((path, 20, 1)));
        assert!(
            s.status.ends_with("with 2 warning(s): see Problems."),
            "{}",
            s.status
        );
        assert!(bundled().problems.is_empty());
    }

    #[test]
    fn breakpoints_persist_by_line_and_come_back_after_a_reload() {
        let mut s = bundled();
        let p = s.program().unwrap().clone();
        let draw = p.symbol("drawBoard").unwrap();
        let (file, line) = draw.defined_at.unwrap();
        // The label's own line has no code: the breakpoint goes to its address.
        s.toggle_breakpoint_line(file, line);
        assert!(s.has_breakpoint(draw.value));
        let json = serde_json::to_string(&s.settings).unwrap();
        let restored: Settings = serde_json::from_str(&json).unwrap();
        assert_eq!(restored, s.settings);
        let mut again = Session::new(restored);
        again.open(AppInput::Bundled);
        assert_eq!(again.breakpoints(), &[draw.value]);
        again.toggle_breakpoint(draw.value);
        assert!(again.breakpoints().is_empty());
        assert!(again.settings.breakpoints.is_empty());
    }

    #[test]
    fn step_back_undoes_a_step_and_step_over_runs_the_call() {
        let mut s = bundled();
        let start = s.pc().unwrap();
        s.step_into(); // lds #$3FFF
        let at_jsr = s.pc().unwrap();
        assert_ne!(at_jsr, start);
        s.step_back();
        assert_eq!(s.pc(), Some(start));
        s.step_into();
        // jsr initGame: step over runs the whole initialisation.
        s.step_over();
        for _ in 0..1000 {
            if s.is_paused() {
                break;
            }
            s.advance(Duration::from_millis(16));
        }
        assert!(s.is_paused());
        let main_loop = s.program().unwrap().symbol("mainLoop").unwrap().value;
        assert_eq!(s.pc(), Some(main_loop));
        assert!(s.lcd_frame().visible);
        assert!(
            s.stop_reason().unwrap().contains("returned from initGame"),
            "{:?}",
            s.stop_reason()
        );
    }

    #[test]
    fn real_time_runs_about_two_million_cycles_per_second() {
        let mut s = bundled();
        s.settings.speed = Speed::RealTime;
        // No wall-clock cut: the count must not depend on how fast this
        // machine is.
        s.frame_budget = Duration::from_secs(3600);
        let c0 = s.cycles();
        s.run();
        s.advance(Duration::from_millis(50));
        let c = s.cycles() - c0;
        // 50 ms at 2 MHz = 100,000 E-cycles, plus at most one instruction.
        assert!((100_000..100_042).contains(&c), "{c}");
        s.pause();
        assert!(s.is_paused());
        assert_eq!(s.stop_reason(), Some("paused by you"));
    }

    #[test]
    fn a_memory_edit_needs_a_paused_machine() {
        let mut s = bundled();
        s.poke(0x0040, 0xA5);
        assert_eq!(s.peek(0x0040), 0xA5);
        assert!(s.changed(0x0040));
        s.run();
        s.poke(0x0041, 0x5A);
        assert_ne!(s.peek(0x0041), 0x5A);
    }
}

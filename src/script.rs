//! Key scripts: what `run --keys`, `run --script`, lessons and the grader use
//! to press the trainer11's buttons and type on its serial line.
//!
//! `--keys` is a comma list run in order: `0`..`7` tap that key, `drop`,
//! `left`, `right`, `reset` (= keys 0, 1, 3, 4), `wait:N` (N E-cycles),
//! `wait:Nms` (2000 E-cycles per ms), `serial:TEXT` (send TEXT to the SCI
//! receiver; escapes `\n \r \t \\ \xNN`, and `\x2C` for a comma in a
//! `--keys` list). A script file has one action per line, `#` starts a
//! comment (except on a `serial:` line, which takes the rest of the line),
//! and besides those actions knows `press N`, `release N` (no waiting) and
//! `settle` (wait until the program is idle).
//!
//! # The lab bench
//!
//! `analog:AN0=1.2` (volts), `signal:PA2=square:1000[:DUTY]`,
//! `signal:PA2=off`, `pin:PA1=0`, `irq:low`, `xirq:high` act on the pins at
//! once and the script goes on; `irq:low@N` / `xirq:low@N` drive the pin from
//! E-cycle N after reset (at once if the action is reached later) ([`crate::board::bench`] parses them, as it
//! does `run --analog/--signal/--pin/--irq`). Conversions that ended before
//! a voltage change keep the old value.
//!
//! # Serial input
//!
//! `serial:TEXT` queues the bytes on RxD: the first arrives one frame (at
//! the baud rate the program has set) after the action, the rest back to
//! back, as a terminal sending a line would. A byte arriving while the
//! previous one is still unread is lost and sets OR, as on the chip. The
//! runner waits until the last byte has arrived, then lets the program
//! settle, as after a tap.
//!
//! # The end of a script: settled
//!
//! After the last action the runner waits until the program *waits for
//! input*: [`QUIET_CYCLES`] without output activity, during which it read an
//! input register (the keys on PIO_B, or SCSR with the receiver on:
//! [`Board::last_input_poll`]), with every queued serial byte delivered.
//! Only then does the script finish ([`Progress::Finished`]). A program that
//! computes without I/O never settles: its run ends when it halts, at a
//! breakpoint or at the cycle budget.
//!
//! # Timing of a tap, from the firmware
//!
//! A tap presses the key for [`HOLD_CYCLES`], releases it and then waits
//! until the program has settled: [`QUIET_CYCLES`] E-cycles without output
//! activity (an SPI or SCI byte, or a write that changes a port, PIO or
//! control register: [`Board::last_activity`]), counted from the release or
//! from the last activity, whichever is later. The numbers come from
//! `readInput` (firmware/Input.inc), which `mainLoop` calls once per pass;
//! cycle counts are the Reference Manual's, and each was measured on the
//! emulator with a breakpoint on `mainLoop`:
//!
//! - With `buttonFlag` clear, a pass reads PIO_B and compares it with the
//!   four key codes: 70 E-cycles (`jsr` 6, `psha`/`pshb` 3+3, `ldaa PIO_B` 4,
//!   `ldab buttonFlag` 4, `cmpb`/`beq` 2+3, `cmpa`/`bne` 2+3,
//!   `tst playerWonFlag`/`bne` 6+3, three more `cmpa`/`bne` 15,
//!   `pulb`/`pula`/`rts` 4+4+5, `bra mainLoop` 3). A press is seen within
//!   one pass.
//! - After a key was taken `buttonFlag` is set, and each pass runs `incTimer`
//!   instead: 78 E-cycles. Only when `timer` reaches 250 does the program
//!   look at PIO_B again; if the key is up it clears `buttonFlag`, otherwise
//!   it counts another 250 passes. So the next key is taken at most 250 x 78
//!   = 19,500 E-cycles (measured: 19,478; about 10 ms) after both the action
//!   is done and the key is up; meanwhile the program writes no register.
//! - The actions send to the LCD all the time (every SPI byte is activity).
//!   Measured: moving the cursor takes 9,378 E-cycles, a drop 264,705 (the
//!   whole board is redrawn), reset (`initGame`) 538,173; the longest
//!   stretch without activity inside an action is 4,990 E-cycles
//!   (`createGrid` in `initGame`, between clearing and drawing the LCD).
//!
//! Hence [`QUIET_CYCLES`] = 60,000 (30 ms): three debounce windows, twelve
//! times the longest silent stretch of an action. [`HOLD_CYCLES`] = 20,000
//! (10 ms): about 285 idle passes, so the press cannot be missed, and shorter
//! than the shortest action plus one debounce window (9,378 + 19,500), so the
//! key is already up at the first debounce check; the reset key, whose
//! `initGame` clears `buttonFlag` itself (flaw F2 in RECONSTRUCTION.md), is
//! up long before `initGame` returns and would take it again. A tap thus
//! costs about 20,000 + action + 60,000 E-cycles. If a program never becomes
//! quiet after a tap (it keeps drawing or printing), the runner stops
//! waiting after [`SETTLE_CAP_CYCLES`] and goes on with the next action.

use crate::board::bench::{self, BenchAction};
use crate::board::lcd::Lcd;
use crate::board::{Board, InputKind, E_CLOCK_HZ};
use std::fmt;

/// E-cycles a tap holds its key down (see the module doc).
pub const HOLD_CYCLES: u64 = 20_000;
/// E-cycles without output activity after which the program counts as settled.
pub const QUIET_CYCLES: u64 = 60_000;
/// E-cycles the runner waits at most for the program to settle (5 s).
pub const SETTLE_CAP_CYCLES: u64 = 10_000_000;
/// E-cycles per millisecond at the trainer11's 2 MHz E clock.
pub const CYCLES_PER_MS: u64 = E_CLOCK_HZ / 1000;

/// One step of a key script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send these bytes to the SCI receiver, wait until they arrived, settle.
    Serial(Vec<u8>),
    /// Press key n, hold it, release it, let the program settle.
    Tap(u8),
    /// Press key n and go on at once.
    Press(u8),
    /// Release key n and go on at once.
    Release(u8),
    /// Let this many E-cycles pass.
    Wait(u64),
    /// Wait until the program has settled.
    Settle,
    /// Something on the lab bench (`analog:AN0=1.2`, `signal:PA2=square:1000`,
    /// `signal:PA0=off`, `pin:PA1=0`, `irq:low`, `xirq:high`); goes on at once.
    Bench(BenchAction),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Tap(0) => write!(f, "drop"),
            Action::Tap(1) => write!(f, "left"),
            Action::Tap(3) => write!(f, "right"),
            Action::Tap(4) => write!(f, "reset"),
            Action::Tap(n) => write!(f, "{n}"),
            Action::Press(n) => write!(f, "press {n}"),
            Action::Release(n) => write!(f, "release {n}"),
            Action::Wait(n) => write!(f, "wait:{n}"),
            Action::Settle => write!(f, "settle"),
            Action::Serial(bytes) => write!(f, "serial:{}", escape_serial(bytes)),
            Action::Bench(b) => write!(f, "{b}"),
        }
    }
}

/// Where a bad item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// The n-th item (1-based) of a `--keys` list.
    Item(usize),
    /// Line n (1-based) of a script file.
    Line(usize),
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Item(n) => write!(f, "item {n}"),
            Position::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// The actions both formats accept, for error messages.
pub const VALID_KEYS_ACTIONS: &str =
    "0..7, drop, left, right, reset, wait:N, wait:Nms, serial:TEXT, analog:ANn=VOLTS, \
     signal:PIN=square:HZ[:DUTY], signal:PIN=off, pin:PIN=0|1, irq:low|high, xirq:low|high";
/// The extra actions of script files.
pub const VALID_FILE_ACTIONS: &str = "press N, release N, settle";

/// A key script that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// The item is no action.
    #[error("{at}: unknown action `{item}`; valid actions: {valid}")]
    UnknownAction {
        /// The item as written.
        item: String,
        /// Where it is.
        at: Position,
        /// The actions that format accepts.
        valid: String,
    },
    /// An empty item between two commas.
    #[error("{at}: empty action (two commas in a row?); valid actions: {VALID_KEYS_ACTIONS}")]
    Empty {
        /// Where it is.
        at: Position,
    },
    /// A number that is not one, or out of range.
    #[error("{at}: `{item}`: {problem}")]
    BadNumber {
        /// The item as written.
        item: String,
        /// Where it is.
        at: Position,
        /// What is wrong with the number.
        problem: String,
    },
}

/// What a script did by the time it ended, for the sentence of the stop
/// the run settles in: it pressed keys, it only did other things (serial
/// input, waits, the lab bench), or it had nothing to do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Played {
    /// Key actions among them: "key script done".
    #[default]
    Keys,
    /// Actions, none of them a key: "script done (no keys)".
    NoKeys,
    /// No actions: "the program settled".
    Nothing,
}

/// The sentence of a settled stop (`StopReason::Settled`, the debugger's
/// `Reason::Settled`) as the machine and the debugger word it.
pub const SETTLED_SENTENCE: &str = "key script done, program waits for input";

impl Played {
    /// `message` (a settled stop's, which begins with
    /// [`SETTLED_SENTENCE`]) as this script's end words it.
    pub fn reword(self, message: String) -> String {
        let instead = match self {
            Played::Keys => return message,
            Played::NoKeys => "script done (no keys), program waits for input",
            Played::Nothing => "the program settled and waits for input",
        };
        match message.strip_prefix(SETTLED_SENTENCE) {
            Some(rest) => format!("{instead}{rest}"),
            None => message,
        }
    }
}

/// A parsed key script.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    /// The actions, in order.
    pub actions: Vec<Action>,
}

impl Script {
    /// A script with no actions: the run only waits for the program to settle.
    pub fn empty() -> Self {
        Script::default()
    }

    /// What the script does, as its settled stop words it.
    pub fn played(&self) -> Played {
        let keys = self
            .actions
            .iter()
            .any(|a| matches!(a, Action::Tap(_) | Action::Press(_) | Action::Release(_)));
        if keys {
            Played::Keys
        } else if self.actions.is_empty() {
            Played::Nothing
        } else {
            Played::NoKeys
        }
    }

    /// Parses a `--keys` list (`reset,left,drop,wait:5ms`). An empty or
    /// all-blank string is the empty script.
    pub fn parse_keys(text: &str) -> Result<Script, ScriptError> {
        if text.trim().is_empty() {
            return Ok(Script::empty());
        }
        let actions = text
            .split(',')
            .enumerate()
            .map(|(i, item)| {
                let at = Position::Item(i + 1);
                let item = item.trim();
                if item.is_empty() {
                    return Err(ScriptError::Empty { at });
                }
                parse_common(item, at)?.ok_or_else(|| ScriptError::UnknownAction {
                    item: item.to_string(),
                    at,
                    valid: VALID_KEYS_ACTIONS.to_string(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Script { actions })
    }

    /// Parses a script file: one action per line, `#` comments.
    pub fn parse_file(text: &str) -> Result<Script, ScriptError> {
        let mut actions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let at = Position::Line(i + 1);
            let trimmed = line.trim_start();
            if trimmed.len() >= 7 && trimmed[..7].eq_ignore_ascii_case("serial:") {
                // The text is the rest of the line, `#` included.
                actions.push(Action::Serial(parse_serial_text(
                    &trimmed[7..],
                    trimmed,
                    at,
                )?));
                continue;
            }
            let item = line.split('#').next().unwrap_or("").trim();
            if item.is_empty() {
                continue;
            }
            if let Some(a) = parse_common(item, at)? {
                actions.push(a);
                continue;
            }
            let mut words = item.split_whitespace();
            let word = words.next().unwrap_or("").to_ascii_lowercase();
            let arg = words.next();
            let extra = words.next();
            let action = match (word.as_str(), arg, extra) {
                ("settle", None, _) => Action::Settle,
                ("press", Some(n), None) => Action::Press(parse_key(n, item, at)?),
                ("release", Some(n), None) => Action::Release(parse_key(n, item, at)?),
                _ => {
                    return Err(ScriptError::UnknownAction {
                        item: item.to_string(),
                        at,
                        valid: format!("{VALID_KEYS_ACTIONS}, {VALID_FILE_ACTIONS}"),
                    })
                }
            };
            actions.push(action);
        }
        Ok(Script { actions })
    }
}

impl fmt::Display for Script {
    /// The `--keys` form (press/release/settle in file words).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, a) in self.actions.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{a}")?;
        }
        Ok(())
    }
}

/// E-cycles the SCI needs at least for one received byte: a frame of 10
/// bits at its fastest rate, 16 E-cycles a bit (BAUD = $00).
pub const MIN_SERIAL_FRAME_CYCLES: u64 = 160;

/// The most serial bytes a run of `max_cycles` E-cycles can receive, one
/// frame after another at the SCI's fastest rate: more input than this is
/// never read, whatever the program does.
pub fn serial_bytes_deliverable(max_cycles: u64) -> u64 {
    (max_cycles / MIN_SERIAL_FRAME_CYCLES).saturating_add(1)
}

/// Decodes the escapes of a `serial:` text (`\n \r \t \\ \xNN`); any other
/// character stands for itself (as Latin-1: one byte each, up to U+00FF).
pub fn decode_serial_escapes(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let b = u8::try_from(c as u32)
                .map_err(|_| format!("`{c}` is not a single byte; write it as \\xNN"))?;
            out.push(b);
            continue;
        }
        match chars.next() {
            Some('n') => out.push(b'\n'),
            Some('r') => out.push(b'\r'),
            Some('t') => out.push(b'\t'),
            Some('\\') => out.push(b'\\'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                let b = (hex.len() == 2)
                    .then(|| u8::from_str_radix(&hex, 16).ok())
                    .flatten()
                    .ok_or_else(|| format!("`\\x{hex}` needs two hex digits, e.g. \\x0D"))?;
                out.push(b);
            }
            Some(other) => {
                return Err(format!(
                    "unknown escape `\\{other}`; use \\n \\r \\t \\\\ or \\xNN"
                ))
            }
            None => return Err("a lone `\\` at the end; write `\\\\` for a backslash".into()),
        }
    }
    Ok(out)
}

/// The `serial:` form of bytes: printable ASCII as is (comma and backslash
/// escaped), everything else as an escape.
fn escape_serial(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        match b {
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            b'\t' => s.push_str("\\t"),
            b'\\' => s.push_str("\\\\"),
            b',' => s.push_str("\\x2C"),
            0x20..=0x7E => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02X}")),
        }
    }
    s
}

fn parse_serial_text(text: &str, item: &str, at: Position) -> Result<Vec<u8>, ScriptError> {
    decode_serial_escapes(text).map_err(|problem| ScriptError::BadNumber {
        item: item.to_string(),
        at,
        problem,
    })
}

fn parse_key(n: &str, item: &str, at: Position) -> Result<u8, ScriptError> {
    match n.parse::<u8>() {
        Ok(k) if k < 8 => Ok(k),
        _ => Err(ScriptError::BadNumber {
            item: item.to_string(),
            at,
            problem: "the keys are numbered 0 to 7".to_string(),
        }),
    }
}

/// The actions both formats share; `Ok(None)` if `item` is none of them.
fn parse_common(item: &str, at: Position) -> Result<Option<Action>, ScriptError> {
    let lower = item.to_ascii_lowercase();
    let action = match lower.as_str() {
        "drop" => Action::Tap(0),
        "left" => Action::Tap(1),
        "right" => Action::Tap(3),
        "reset" => Action::Tap(4),
        k if k.len() == 1 && k.as_bytes()[0].is_ascii_digit() => {
            Action::Tap(parse_key(k, item, at)?)
        }
        w if w.starts_with("serial:") => Action::Serial(parse_serial_text(&item[7..], item, at)?),
        w if bench::parse_action(w).is_some() => match bench::parse_action(item) {
            Some(Ok(b)) => Action::Bench(b),
            Some(Err(problem)) => {
                return Err(ScriptError::BadNumber {
                    item: item.to_string(),
                    at,
                    problem,
                })
            }
            None => return Ok(None),
        },
        w => {
            let Some(arg) = w.strip_prefix("wait:") else {
                return Ok(None);
            };
            let (digits, scale) = match arg.strip_suffix("ms") {
                Some(d) => (d, CYCLES_PER_MS),
                None => (arg, 1),
            };
            let bad = |problem: &str| ScriptError::BadNumber {
                item: item.to_string(),
                at,
                problem: problem.to_string(),
            };
            let n: u64 = digits
                .trim()
                .parse()
                .map_err(|e: std::num::ParseIntError| {
                    if *e.kind() == std::num::IntErrorKind::PosOverflow {
                        bad("too long: a wait is at most 18446744073709551615 E-cycles")
                    } else {
                        bad("expected wait:N (E-cycles) or wait:Nms")
                    }
                })?;
            Action::Wait(n.checked_mul(scale).ok_or_else(|| bad("too long"))?)
        }
    };
    Ok(Some(action))
}

/// How long taps hold and what counts as settled (defaults: module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// E-cycles a tap holds its key.
    pub hold: u64,
    /// E-cycles without output activity that count as settled.
    pub quiet: u64,
    /// E-cycles to wait for quiet at most before going on anyway.
    pub settle_cap: u64,
    /// False (the default, the shared stop rule): the script ends only when
    /// the program waits for input. True: a quiet window alone ends it, for
    /// a grader that limits how long a program may think without output
    /// (an assignment's `idle_without_input`).
    pub end_on_quiet: bool,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            hold: HOLD_CYCLES,
            quiet: QUIET_CYCLES,
            settle_cap: SETTLE_CAP_CYCLES,
            end_on_quiet: false,
        }
    }
}

/// What the runner is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Start the next action.
    Next,
    /// Waiting for quiet since `since`, giving up at `cap_at`.
    Settling { since: u64, cap_at: u64 },
    /// Holding `key` until `until`.
    Holding { key: u8, until: u64 },
    /// Waiting until `until`.
    Waiting { until: u64 },
    /// Waiting until every queued serial byte has arrived.
    Feeding,
    /// All actions done: waiting until the program waits for input, quiet
    /// since `since` at least.
    Final { since: u64 },
}

/// What [`ScriptRunner::advance`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Call again at this board cycle (or later).
    Continue(u64),
    /// All actions done and the program waits for input (module doc).
    Finished {
        /// What it polls.
        waiting_on: InputKind,
    },
}

/// Runs a [`Script`] against a board as time passes: the machine calls
/// [`advance`](Self::advance) whenever the board's cycle reaches the
/// deadline it returned last. Starts by letting the program settle (boot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptRunner {
    actions: Vec<Action>,
    next: usize,
    phase: Phase,
    timing: Timing,
    /// True while the phase before `Next` was a settle (so the end needs
    /// no second quiet window).
    just_settled: bool,
    unsettled: u32,
    /// Action indices before which the LCD is kept (`capture_lcd_before`).
    capture_before: Vec<usize>,
    /// The LCD as it was before each of those actions started.
    captured: Vec<(usize, Lcd)>,
}

impl ScriptRunner {
    /// A runner for `script` starting at board cycle `now`.
    pub fn new(script: &Script, timing: Timing, now: u64) -> Self {
        ScriptRunner {
            actions: script.actions.clone(),
            next: 0,
            phase: Phase::Settling {
                since: now,
                cap_at: now.saturating_add(timing.settle_cap),
            },
            timing,
            just_settled: false,
            unsettled: 0,
            capture_before: Vec::new(),
            captured: Vec::new(),
        }
    }

    /// Keeps a copy of the LCD as it is when each action in `indices`
    /// (0-based) is about to start: after the one before it settled, at
    /// the cycle the key goes down. The run itself is not changed (a
    /// grader's "the last keys change nothing" compares with it).
    pub fn capture_lcd_before(&mut self, indices: &[usize]) {
        self.capture_before = indices.to_vec();
    }

    /// The LCDs kept so far, by action index, in the order the actions ran.
    pub fn take_captures(&mut self) -> Vec<(usize, Lcd)> {
        std::mem::take(&mut self.captured)
    }

    /// The index of the action in progress (or next) and the number of actions.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.actions.len())
    }

    /// How many settles gave up at the cap.
    pub fn unsettled_count(&self) -> u32 {
        self.unsettled
    }

    /// True if an action still to come can raise an interrupt (serial input
    /// for an RIE program, a pin or signal of the bench): until it has run, a
    /// waiting CPU is not halted.
    pub fn may_interrupt_later(&self) -> bool {
        let pending = self.actions.get(self.next..).unwrap_or(&[]);
        let feeding = matches!(self.phase, Phase::Feeding);
        feeding
            || pending
                .iter()
                .any(|a| matches!(a, Action::Serial(_) | Action::Bench(_)))
    }

    /// True once every action was started (the runner waits for the end).
    pub fn actions_done(&self) -> bool {
        matches!(self.phase, Phase::Final { .. })
    }

    fn settle(&mut self, now: u64) {
        self.phase = Phase::Settling {
            since: now,
            cap_at: now.saturating_add(self.timing.settle_cap),
        };
    }

    /// Does what is due at the board's current cycle and says when to call again.
    pub fn advance(&mut self, board: &mut Board) -> Progress {
        let now = board.now();
        loop {
            match self.phase {
                Phase::Settling { since, cap_at } => {
                    let quiet_end = board
                        .last_activity()
                        .max(since)
                        .saturating_add(self.timing.quiet);
                    if now < quiet_end && now < cap_at {
                        return Progress::Continue(quiet_end.min(cap_at));
                    }
                    if now < quiet_end {
                        self.unsettled += 1;
                    }
                    self.phase = Phase::Next;
                    self.just_settled = true;
                }
                Phase::Holding { key, until } => {
                    if now < until {
                        return Progress::Continue(until);
                    }
                    board.set_key(key, false);
                    self.settle(now);
                }
                Phase::Waiting { until } => {
                    if now < until {
                        return Progress::Continue(until);
                    }
                    self.phase = Phase::Next;
                    self.just_settled = false;
                }
                Phase::Feeding => {
                    if board.serial_rx_pending() > 0 {
                        // Bytes arrive at device events; look again at the next.
                        return Progress::Continue(board.next_event().max(now + 1));
                    }
                    self.settle(now);
                }
                Phase::Final { since } => return self.final_check(board, since),
                Phase::Next => {
                    let Some(action) = self.actions.get(self.next).cloned() else {
                        let since = if self.just_settled { 0 } else { now };
                        self.phase = Phase::Final { since };
                        continue;
                    };
                    if self.capture_before.contains(&self.next) {
                        self.captured.push((self.next, board.lcd().clone()));
                    }
                    self.next += 1;
                    self.just_settled = false;
                    match action {
                        Action::Tap(k) => {
                            board.set_key(k, true);
                            self.phase = Phase::Holding {
                                key: k,
                                until: now.saturating_add(self.timing.hold),
                            };
                        }
                        Action::Press(k) => board.set_key(k, true),
                        Action::Release(k) => board.set_key(k, false),
                        Action::Wait(n) => {
                            self.phase = Phase::Waiting {
                                until: now.saturating_add(n),
                            }
                        }
                        Action::Settle => self.settle(now),
                        Action::Serial(bytes) => {
                            board.feed_serial(&bytes);
                            self.phase = Phase::Feeding;
                        }
                        Action::Bench(b) => board.apply_bench(&b),
                    }
                }
            }
        }
    }

    /// The end of the script: finished when the program has been quiet for
    /// the quiet window, read an input within it and every serial byte has
    /// arrived; otherwise when to look again. A program that is quiet but
    /// polls nothing (it computes) is looked at again every quiet window.
    fn final_check(&self, board: &Board, since: u64) -> Progress {
        let now = board.now();
        let quiet = self.timing.quiet;
        let quiet_end = board.last_activity().max(since).saturating_add(quiet);
        if now < quiet_end {
            return Progress::Continue(quiet_end);
        }
        if board.serial_rx_pending() > 0 {
            return Progress::Continue(board.next_event().max(now + 1));
        }
        if self.timing.end_on_quiet {
            let waiting_on = board.last_input_poll().map_or(InputKind::Keys, |(_, k)| k);
            return Progress::Finished { waiting_on };
        }
        match board.last_input_poll() {
            Some((at, kind)) if at.saturating_add(quiet) >= now => {
                Progress::Finished { waiting_on: kind }
            }
            _ => Progress::Continue(now.saturating_add(quiet)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_list_parses_all_actions() {
        let s = Script::parse_keys("reset, left,right,drop,7,wait:100,wait:3ms,WAIT:2MS").unwrap();
        assert_eq!(
            s.actions,
            vec![
                Action::Tap(4),
                Action::Tap(1),
                Action::Tap(3),
                Action::Tap(0),
                Action::Tap(7),
                Action::Wait(100),
                Action::Wait(6000),
                Action::Wait(4000),
            ]
        );
        assert_eq!(
            s.to_string(),
            "reset,left,right,drop,7,wait:100,wait:6000,wait:4000"
        );
        assert_eq!(Script::parse_keys("  ").unwrap(), Script::empty());
    }

    #[test]
    fn keys_errors_name_item_and_position() {
        let e = Script::parse_keys("left,jump,drop").unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("item 2"), "{msg}");
        assert!(msg.contains("`jump`"), "{msg}");
        assert!(msg.contains("wait:Nms"), "{msg}");
        let e = Script::parse_keys("8").unwrap_err();
        assert!(e.to_string().contains("0 to 7"), "{e}");
        let e = Script::parse_keys("left,,drop").unwrap_err();
        assert_eq!(
            e,
            ScriptError::Empty {
                at: Position::Item(2)
            }
        );
        let e = Script::parse_keys("wait:x").unwrap_err();
        assert!(matches!(e, ScriptError::BadNumber { .. }));
        let e = Script::parse_keys("wait:99999999999999999ms").unwrap_err();
        assert!(e.to_string().contains("too long"), "{e}");
        // More digits than a u64 holds: too long too, not "expected a number".
        let e = Script::parse_keys("wait:99999999999999999999").unwrap_err();
        assert!(e.to_string().contains("too long"), "{e}");
        assert!(Script::parse_keys("press 1").is_err(), "file-only action");
    }

    #[test]
    fn file_format() {
        let text =
            "# a game\nreset\n  press 3 # hold right\nwait:10ms\nrelease 3\nsettle\n\ndrop\n";
        let s = Script::parse_file(text).unwrap();
        assert_eq!(
            s.actions,
            vec![
                Action::Tap(4),
                Action::Press(3),
                Action::Wait(20_000),
                Action::Release(3),
                Action::Settle,
                Action::Tap(0)
            ]
        );
        let e = Script::parse_file("drop\npress 9\n").unwrap_err();
        assert!(e.to_string().starts_with("line 2"), "{e}");
        let e = Script::parse_file("drop\nfly away\n").unwrap_err();
        assert!(e.to_string().contains("press N"), "{e}");
    }

    /// A board that writes a register at `busy_until`-spaced times is
    /// simulated by ticking and writing PORTA by hand.
    #[test]
    fn runner_taps_and_settles_on_quiet() {
        use crate::cpu::Bus;
        let mut board = Board::new();
        let script = Script::parse_keys("drop").unwrap();
        let timing = Timing {
            hold: 100,
            quiet: 1000,
            settle_cap: 1_000_000,
            end_on_quiet: false,
        };
        let mut r = ScriptRunner::new(&script, timing, 0);
        // Boot settle: quiet since 0.
        assert_eq!(r.advance(&mut board), Progress::Continue(1000));
        board.tick(1000);
        assert_eq!(r.advance(&mut board), Progress::Continue(1100));
        assert_eq!(board.keys(), 1, "key 0 down");
        board.tick(100);
        // Released at 1100; the program then draws until 1500.
        assert!(matches!(r.advance(&mut board), Progress::Continue(2100)));
        assert_eq!(board.keys(), 0);
        board.tick(400);
        board.write(0x0000, 0x40); // PA6: backlight off, a visible change
        board.tick(600);
        assert_eq!(r.advance(&mut board), Progress::Continue(2500));
        board.tick(300);
        board.read(crate::board::pio::PIO_B); // the program polls the keys
        board.tick(100);
        assert_eq!(
            r.advance(&mut board),
            Progress::Finished {
                waiting_on: InputKind::Keys
            }
        );
    }

    #[test]
    fn runner_finishes_only_when_the_program_polls_an_input() {
        use crate::cpu::Bus;
        let mut board = Board::new();
        let timing = Timing {
            hold: 10,
            quiet: 1000,
            settle_cap: 5000,
            end_on_quiet: false,
        };
        let mut r = ScriptRunner::new(&Script::empty(), timing, 0);
        board.tick(1000);
        // Quiet, but polled nothing: a computation. Look again a window later.
        assert_eq!(r.advance(&mut board), Progress::Continue(2000));
        board.tick(500);
        board.read(0x002E); // SCSR with the receiver on
        board.tick(500);
        assert_eq!(
            r.advance(&mut board),
            Progress::Finished {
                waiting_on: InputKind::Serial
            }
        );
    }

    #[test]
    fn serial_action_feeds_and_waits_for_the_last_byte() {
        let s = Script::parse_keys("serial:ab\\x2Cc\\n").unwrap();
        assert_eq!(s.actions, vec![Action::Serial(b"ab,c\n".to_vec())]);
        assert_eq!(s.to_string(), "serial:ab\\x2Cc\\n");
        assert!(Script::parse_keys("serial:\\q").is_err());
        assert!(Script::parse_keys("serial:\\x4").is_err());
        let mut board = Board::new();
        let timing = Timing {
            hold: 10,
            quiet: 1000,
            settle_cap: 5000,
            end_on_quiet: false,
        };
        let mut r = ScriptRunner::new(&s, timing, 0);
        board.tick(1000);
        let Progress::Continue(at) = r.advance(&mut board) else {
            panic!("still feeding")
        };
        assert_eq!(board.serial_rx_pending(), 5);
        // 9600 Bd: 2080 E-cycles a frame, the first arrives one frame on.
        assert_eq!(at, 1000 + 2080);
    }

    #[test]
    fn runner_gives_up_at_cap() {
        use crate::cpu::Bus;
        let mut board = Board::new();
        let timing = Timing {
            hold: 10,
            quiet: 1000,
            settle_cap: 5000,
            end_on_quiet: false,
        };
        let mut r = ScriptRunner::new(&Script::empty(), timing, 0);
        for i in 0..10 {
            board.tick(600);
            board.write(0x0000, if i % 2 == 0 { 0x40 } else { 0 });
        }
        // The boot settle gave up; the end waits on (so continues).
        assert!(matches!(r.advance(&mut board), Progress::Continue(_)));
        assert_eq!(r.unsettled_count(), 1);
    }
}

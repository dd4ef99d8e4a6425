//! What `hc11lab run` needs from the debugger: `--break SPEC` (repeatable),
//! `--explain-pixel X,Y`, `--explain ADDR` and `--profile`, run on the
//! trainer11 machine, with a report that serializes for `--json` and prints
//! as text otherwise. main.rs only parses arguments and calls [`run_debug`].

use super::breakpoint::BreakError;
use super::condition::{ConditionError, Expr};
use super::profile::ProfileReport;
use super::report::{Explanation, FrameReport};
use super::session::{Debugger, ExplainError, Reason, Stop};
use super::target::Target;
use crate::image::Program;
use crate::machine::Machine;
use crate::script::Script;
use serde::Serialize;

/// Why a debug run could not be set up (bad usage: exit status 2).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A `--break` spec is malformed or names something the program lacks.
    #[error(transparent)]
    Break(#[from] BreakError),
    /// A `--watch` spec is malformed or names something the program lacks.
    #[error("--watch: {0}")]
    Watch(#[from] super::watch::WatchError),
    /// `--explain-pixel` wants `X,Y` with X in 0..128 and Y in 0..64.
    #[error("--explain-pixel `{0}`: expected X,Y with X in 0..=127 and Y in 0..=63 (e.g. 63,43)")]
    BadPixel(String),
    /// `--explain` wants an address expression (`$00C8`, `board+136`).
    #[error("--explain {0}")]
    BadAddress(AddressError),
    /// The explanation cannot be made (no LCD on this target, ...).
    #[error(transparent)]
    Explain(#[from] ExplainError),
}

/// Why an address expression (`--explain`, `--dump`) has no address; the
/// text names no option, so each option's error can say its own name.
#[derive(Debug, thiserror::Error)]
pub enum AddressError {
    /// It does not parse or names an unknown symbol.
    #[error("`{text}`: {source}")]
    Expr {
        /// As given.
        text: String,
        /// The expression's error (column within `text`).
        source: ConditionError,
    },
    /// Its evaluation failed (a division by a register that is zero, a
    /// memory read outside $0000-$FFFF).
    #[error("`{text}`: {fault}")]
    Fault {
        /// As given.
        text: String,
        /// What went wrong.
        fault: super::condition::Fault,
    },
    /// It evaluates to something that is no 16-bit address.
    #[error("`{text}` is {value} (${value:X}), outside the addresses $0000-$FFFF")]
    OutOfRange {
        /// As given.
        text: String,
        /// What it evaluated to.
        value: i64,
    },
}

/// The debugger part of a `run` command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunRequest {
    /// `--break` specs, in order.
    pub breaks: Vec<String>,
    /// `--watch` specs, in order (`change board+136:8`, `read coordy`).
    pub watches: Vec<String>,
    /// `--explain-pixel` arguments as given (`63,43`).
    pub explain_pixels: Vec<String>,
    /// `--explain` arguments as given (`board+136`, `$00C8`).
    pub explain: Vec<String>,
    /// `--profile`.
    pub profile: bool,
    /// `--max-cycles` (E-cycles for the whole run).
    pub max_cycles: u64,
    /// `--trap-illegal`: illegal opcodes take the trap through $FFF8 instead of stopping.
    pub trap_illegal: bool,
}

impl RunRequest {
    /// True if any option needs the debugger (otherwise `Machine::run_until` suffices).
    pub fn wants_debugger(&self) -> bool {
        !self.breaks.is_empty()
            || !self.watches.is_empty()
            || !self.explain_pixels.is_empty()
            || !self.explain.is_empty()
            || self.profile
    }
}

/// The outcome, for `--json` (`stop`, `provenance`, `profile`, `call_stack`
/// go beside the machine's fields) and for text output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DebugRun {
    /// The stable stop name `run --json` uses (`breakpoint`, `settled`,
    /// `halted`, `cycle_budget`, `illegal_opcode`, `watchpoint`, ...). Not
    /// serialized: the run report beside which this is flattened has it.
    #[serde(skip)]
    pub stop_reason: &'static str,
    /// Where and why it stopped.
    pub stop: Stop,
    /// One explanation per `--explain-pixel` / `--explain`, in that order.
    pub provenance: Vec<Explanation>,
    /// The cycle profile, with `--profile`.
    pub profile: Option<ProfileReport>,
    /// The call stack at the stop, innermost first.
    pub call_stack: Vec<FrameReport>,
    /// What the user may not expect of the request (a breakpoint inside an
    /// instruction, which never hits), said before the stop.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl DebugRun {
    /// Readable text: the stop, the call stack, each explanation, the profile.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for n in &self.notes {
            out.push_str(&format!("note: {n}\n"));
        }
        out.push_str(&format!("stopped: {}\n", self.stop.message));
        if !self.call_stack.is_empty() {
            out.push_str("call stack:\n");
            for f in &self.call_stack {
                out.push_str(&format!(
                    "  {} (called from {}{}){}\n",
                    f.label,
                    f.call_site
                        .label
                        .clone()
                        .unwrap_or_else(|| format!("${:04X}", f.call_site.address)),
                    f.call_site
                        .line
                        .map(|l| format!(", line {l}"))
                        .unwrap_or_default(),
                    if f.doubt.is_some() {
                        " [stack changed by hand]"
                    } else {
                        ""
                    }
                ));
            }
        }
        for e in &self.provenance {
            out.push_str(&e.to_text());
        }
        if let Some(p) = &self.profile {
            out.push_str(&p.to_text());
        }
        out
    }

    /// True when the stop means the program or input failed (exit status 1):
    /// illegal opcode, refused write, cycle budget used up.
    pub fn failed(&self) -> bool {
        self.stop.reason.is_failure()
    }
}

impl Reason {
    /// The stable snake_case name (`run --json`'s `stop_reason`).
    pub fn name(&self) -> &'static str {
        match self {
            Reason::Step => "step",
            Reason::Breakpoint { .. } => "breakpoint",
            Reason::Watchpoint { .. } => "watchpoint",
            Reason::Returned { .. } => "returned",
            Reason::Reached { .. } => "reached",
            Reason::IllegalOpcode { .. } => "illegal_opcode",
            Reason::BadWrite { area, .. } if area == "rom" => "rom_write",
            Reason::BadWrite { .. } => "unmapped_write",
            Reason::Settled { .. } => "settled",
            Reason::Halted { .. } => "halted",
            Reason::Budget { .. } => "cycle_budget",
            Reason::StartOfHistory => "start_of_history",
            Reason::NoFrame => "no_frame",
        }
    }

    /// True for stops that mean the program or its input was wrong.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            Reason::IllegalOpcode { .. } | Reason::BadWrite { .. } | Reason::Budget { .. }
        )
    }
}

/// Parses `X,Y` for `--explain-pixel`.
pub fn parse_pixel(text: &str) -> Result<(usize, usize), CliError> {
    let bad = || CliError::BadPixel(text.to_string());
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let x: usize = x.trim().parse().map_err(|_| bad())?;
    let y: usize = y.trim().parse().map_err(|_| bad())?;
    if x >= 128 || y >= 64 {
        return Err(bad());
    }
    Ok((x, y))
}

/// Evaluates an address expression (`$00C8`, `board+136`, `[cellAddress].w + board`)
/// against a program and the machine's current state.
/// A value outside $0000-$FFFF is an error rather than wrapped around.
pub fn parse_address<T: Target>(
    text: &str,
    program: &Program,
    target: &T,
) -> Result<u16, AddressError> {
    let bad = |source| AddressError::Expr {
        text: text.to_string(),
        source,
    };
    let expr = Expr::parse(text).map_err(bad)?;
    let bound = expr.bind(program).map_err(bad)?;
    let value = bound
        .value(&super::session::TargetView(target))
        .map_err(|fault| AddressError::Fault {
            text: text.to_string(),
            fault,
        })?;
    u16::try_from(value).map_err(|_| AddressError::OutOfRange {
        text: text.to_string(),
        value,
    })
}

/// A note for breakpoint `spec` at `addr` in the interrupt vector table
/// ($FFD6-$FFFF, RM section 5): it holds the addresses the CPU jumps
/// through, not code, so the breakpoint never hits; the note names the
/// vector and the handler it points to.
fn vector_note(program: &Program, spec: &str, addr: u16) -> Option<String> {
    let first = addr.checked_sub(0xFFD6).map(|off| 0xFFD6 + off / 2 * 2)?;
    let name = crate::cpu::vector_name(first)?;
    let target = match (
        program.byte_at(first),
        program.byte_at(first.wrapping_add(1)),
    ) {
        (Some(h), Some(l)) => Some(u16::from_be_bytes([h, l])),
        _ => None,
    };
    let handler = target.map_or_else(String::new, |t| {
        let label = program
            .label_for(t)
            .filter(|(_, off)| *off == 0)
            .map(|(s, _)| format!(" (`{}`)", s.name))
            .unwrap_or_default();
        format!("; did you mean the code it points to, ${t:04X}{label}?")
    });
    Some(format!(
        "breakpoint `{spec}`: ${addr:04X} is in the {name} vector (${first:04X}-${:04X}), which holds an address the CPU jumps through, not an instruction, so it never hits{handler}",
        first + 1
    ))
}

/// A note for breakpoint `spec` at `addr` when `addr` lies inside the bytes
/// of a source line without being its first byte: the CPU never starts an
/// instruction there, so the breakpoint never hits (and nothing else would
/// say so).
fn inside_note(program: &Program, spec: &str, addr: u16) -> Option<String> {
    let line = program.line_at(addr)?;
    if line.addr == addr {
        return None;
    }
    let place = program
        .source_place(line.addr)
        .map(|p| format!(" ({p})"))
        .unwrap_or_default();
    let text = crate::cpu::Instruction::text_at(line.addr, |a| program.byte_at(a).unwrap_or(0));
    Some(format!(
        "breakpoint `{spec}`: ${addr:04X} is inside `{text}` at ${:04X}{place}, not where an instruction starts, so it never hits; did you mean ${:04X}?",
        line.addr, line.addr
    ))
}

/// Runs `machine` (with `script` started, if any) under the debugger as the
/// request says: breakpoints, watchpoints, provenance from the first instruction when an
/// explanation is asked for, then the explanations and profile at the stop.
/// Returns the machine in its final state (for `--lcd-text`, `--dump`, ...).
pub fn run_debug(
    machine: Machine,
    script: Option<&Script>,
    req: &RunRequest,
) -> Result<(Machine, DebugRun), CliError> {
    let mut machine = machine;
    machine.set_trap_illegal(req.trap_illegal);
    let mut d = Debugger::new(machine);
    // A command-line run never goes back: no snapshots.
    d.set_history_budget(None);
    d.max_cycles = req.max_cycles;
    let pixels = req
        .explain_pixels
        .iter()
        .map(|p| parse_pixel(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut notes = Vec::new();
    for b in &req.breaks {
        let id = d.add_breakpoint(b)?;
        let addrs = d.breakpoints.get(id).map(|bp| bp.addrs.clone());
        for a in addrs.unwrap_or_default() {
            let note = vector_note(d.program(), b, a).or_else(|| inside_note(d.program(), b, a));
            notes.extend(note);
        }
    }
    for w in &req.watches {
        d.add_watchpoint(w)?;
    }
    // Addresses are checked before the run (so a typo fails fast) and
    // evaluated again after it (an expression may read memory).
    for a in &req.explain {
        parse_address(a, d.program(), d.target()).map_err(CliError::BadAddress)?;
    }
    if !pixels.is_empty() || !req.explain.is_empty() {
        d.set_provenance(true);
    }
    if let Some(s) = script {
        d.target_mut().start_script(s);
    }
    let stop = d.run();
    let mut provenance = Vec::new();
    for &(x, y) in &pixels {
        provenance.push(d.explain_pixel(x, y)?);
    }
    for a in &req.explain {
        let addr = parse_address(a, d.program(), d.target()).map_err(CliError::BadAddress)?;
        let mut e = d.explain_address(addr)?;
        e.subject = format!("{a} = {}", e.subject);
        provenance.push(e);
    }
    let report = DebugRun {
        stop_reason: stop.reason.name(),
        profile: req.profile.then(|| d.profile()),
        call_stack: d.call_stack(),
        stop,
        provenance,
        notes,
    };
    Ok((d.into_target(), report))
}

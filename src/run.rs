//! The library side of `hc11lab run` (docs/cli.md, "Commands"): running a
//! program headless with a key script, memory dumps (`--dump`), and the
//! report `--json` prints, whatever the stop.

pub mod start;

use crate::cpu::Registers;
use crate::debug::cli::{parse_address, run_debug, CliError, DebugRun, RunRequest};
use crate::machine::{Halt, Machine, StopConditions, StopReason};
use crate::script::Script;
use serde::Serialize;
use std::collections::BTreeMap;
use thiserror::Error;

/// Budget when the command line gives none: 200,000,000 E-cycles, 100 s of
/// the real 2 MHz board: far more than the firmware needs to start and
/// settle after a key script, and about a second of wall time here. A run
/// that ends here fails (exit status 1) and its message names `--max-cycles`.
pub const DEFAULT_MAX_CYCLES: u64 = 200_000_000;

/// A `--dump` item: where and how many bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpSpec {
    /// The item as given (`player`, `board:336`, `$0190:2`): the key in `symbols`.
    pub text: String,
    /// The address expression part (`board+136`).
    pub address: String,
    /// Number of bytes, if given after `:`.
    pub len: Option<usize>,
}

/// Why a `run` request is unusable (bad usage: exit status 2).
#[derive(Debug, Error)]
pub enum RunError {
    /// A `--dump` item is malformed or names an unknown symbol.
    #[error("--dump `{item}`: {why}")]
    BadDump {
        /// The item as given.
        item: String,
        /// What is wrong, and the form expected.
        why: String,
    },
    /// A debugger option (`--break`, `--explain`, ...) is wrong.
    #[error(transparent)]
    Debug(#[from] CliError),
}

/// Splits a `--dump` list (`player,board:336,$0190:2`) into items.
pub fn parse_dumps(list: &str) -> Result<Vec<DumpSpec>, RunError> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let (address, len) = match item.rsplit_once(':') {
                Some((a, n)) => {
                    let len = parse_len(n).ok_or_else(|| RunError::BadDump {
                        item: item.to_string(),
                        why: format!(
                            "`{n}` is not a byte count; write NAME, NAME:LEN or $ADDR:LEN with LEN in 1..=65536"
                        ),
                    })?;
                    (a.to_string(), Some(len))
                }
                None => (item.to_string(), None),
            };
            Ok(DumpSpec {
                text: item.to_string(),
                address,
                len,
            })
        })
        .collect()
}

fn parse_len(text: &str) -> Option<usize> {
    let t = text.trim();
    let n = if let Some(hex) = t.strip_prefix('$') {
        usize::from_str_radix(hex, 16).ok()?
    } else {
        t.parse().ok()?
    };
    (1..=0x10000).contains(&n).then_some(n)
}

/// One dumped memory range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dump {
    /// First address.
    pub address: u16,
    /// The bytes, peeked (no side effects on devices).
    pub bytes: Vec<u8>,
}

/// Everything `run --json` prints: one object, whatever the stop.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// Stable name of the stop (`settled`, `breakpoint`, `illegal_opcode`,
    /// `cycle_budget`, `rom_write`, ...).
    pub stop_reason: String,
    /// The stop in one sentence.
    pub message: String,
    /// True when the program or input failed (exit status 1).
    pub failed: bool,
    /// With `settled`: what the program polls (`keys (PIO_B)`,
    /// `serial input (SCSR.RDRF)`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting_on: Option<String>,
    /// E-cycles since reset.
    pub cycles: u64,
    /// Instructions executed since reset.
    pub instructions: u64,
    /// Registers at the stop.
    pub registers: Registers,
    /// Everything the program sent over the SCI.
    pub serial: String,
    /// Serial input bytes the program lost (they arrived while SCDR still
    /// held an unread byte, or while the receiver was off); left out when
    /// none were.
    #[serde(skip_serializing_if = "is_zero")]
    pub serial_lost: u64,
    /// Serial input bytes never sent: typed input waits for the program to
    /// read the byte before, and it did not. Left out when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub serial_unsent: u64,
    /// Everything the program sent over the board's ACIA (the EVB's host
    /// port); left out when nothing (or the board has none).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub acia_serial: String,
    /// Input bytes for the ACIA (`--acia-in`) the program lost: they
    /// arrived while its receive data register still held an unread byte
    /// (OVRN). Left out when none were.
    #[serde(skip_serializing_if = "is_zero")]
    pub acia_lost: u64,
    /// Input bytes for the ACIA never sent: the program did not end the
    /// ACIA's master reset or, typed, did not read the byte before. Left
    /// out when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub acia_unsent: u64,
    /// The LCD: 64 strings of 128 `#`/`.`, row 0 on top; empty (and left
    /// out of `--json`) on a board without an LCD.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lcd: Vec<String>,
    /// One entry per `--dump` item, keyed as given.
    pub symbols: BTreeMap<String, Dump>,
    /// With `--trace-pin`: each traced port A pin's level at the start of the
    /// trace and every change after it (cycle, bit, level), in time order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pin_trace: Vec<crate::board::timer::PinEdge>,
    /// How many of the oldest `pin_trace` entries were dropped: the trace
    /// keeps the newest `MAX_TRACE_EDGES` (65,536). Left out when none were.
    #[serde(skip_serializing_if = "is_zero")]
    pub pin_trace_dropped: u64,
    /// The board file's LEDs at the stop: name, pin and whether it is lit.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub leds: Vec<crate::board::parts::LedState>,
    /// Every COP watchdog reset during the run: when it timed out, where the
    /// program was, and its last feed before.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cop_resets: Vec<crate::machine::CopReset>,
    /// The debugger's part (stop details, provenance, profile, call stack) when used.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub debug: Option<DebugRun>,
}

/// Runs `machine` with an optional key script as a `run` command asks.
/// Returns the final machine (for `--lcd-png`) and the report.
pub fn run(
    machine: Machine,
    script: Option<&Script>,
    request: &RunRequest,
    dumps: &[DumpSpec],
) -> Result<(Machine, RunReport), RunError> {
    // Resolve dumps before running, so a typo fails at once (exit 2).
    for d in dumps {
        resolve_dump(&machine, d)?;
    }
    // Both paths play a script (the empty one waits for the program to
    // settle), so a run counts the same cycles with and without the debugger.
    let script = script.cloned().unwrap_or_else(Script::empty);
    // Kept to replay the run when it ends where the program put no code.
    let initial = machine.clone();
    let (machine, mut stop_reason, mut message, mut failed, debug) = if request.wants_debugger() {
        let (machine, report) = run_debug(machine, Some(&script), request)?;
        let message = report.stop.message.clone();
        (
            machine,
            report.stop_reason.to_string(),
            message,
            report.failed(),
            Some(report),
        )
    } else {
        let mut machine = machine;
        machine.start_script(&script);
        let mut stop = StopConditions::budget(request.max_cycles);
        stop.on_illegal = !request.trap_illegal;
        let reason = machine.run_until(&stop);
        let failed = is_failure(&reason);
        let message = describe(&machine, &reason);
        (machine, reason.name().to_string(), message, failed, None)
    };
    // A settled stop's message names the key script that ended; a run
    // with serial input only, or with nothing to play, had none.
    message = script.played().reword(message);
    // Settled in the EVB monitor: the program gave control back to it.
    if stop_reason == "settled" {
        if let Some((reason, text, fail)) = start::monitor_stop(&machine) {
            stop_reason = reason.to_string();
            message = text;
            failed = fail;
        }
    }
    // A fault in code the program did not put there: how the CPU got there.
    // (The debugger's session names it itself when it keeps history.)
    let named = debug.as_ref().is_some_and(|d| d.stop.exit.is_some());
    if !named
        && matches!(
            stop_reason.as_str(),
            "illegal_opcode" | "rom_write" | "unmapped_write"
        )
    {
        message.push_str(&how_it_got_there(&initial, &machine, &script));
    }
    // A loop on memory nothing changes ends at no budget: say that, not
    // "give a larger --max-cycles".
    let budget = stop_reason == "cycle_budget";
    if budget || stop_reason == "halted" {
        match memory_wait_hint(&machine, budget) {
            Some(hint) => message.push_str(&format!("; {hint}")),
            None if budget => message.push_str(&budget_hint(request.max_cycles, machine.cycles())),
            None => {}
        }
    }
    // Input the run never delivered (a halt before the keys, say) would
    // otherwise look handled.
    let own_stop = matches!(
        stop_reason.as_str(),
        "settled" | "breakpoint" | "watchpoint"
    );
    if let Some((next, total)) = machine.script_progress().filter(|_| !own_stop) {
        if next < total {
            message.push_str(&format!(
                "; the key script was not played to its end: {} of its {total} action(s) left (keys, waits, serial input)",
                total - next
            ));
        }
    }
    message.push_str(&serial_loss_note(&machine));
    // The debugger's text prints its own stop: the same words as above.
    let mut debug = debug;
    if let Some(d) = debug.as_mut() {
        d.stop.message.clone_from(&message);
    }
    let waiting_on = (stop_reason == "settled")
        .then(|| machine.waiting_on().map(|k| k.describe().to_string()))
        .flatten();
    let mut symbols = BTreeMap::new();
    for d in dumps {
        let (address, len) = resolve_dump(&machine, d)?;
        symbols.insert(
            d.text.clone(),
            Dump {
                address,
                bytes: machine.peek_range(address, len),
            },
        );
    }
    let report = RunReport {
        stop_reason,
        message,
        failed,
        waiting_on,
        cycles: machine.cycles(),
        instructions: machine.instructions(),
        registers: machine.registers(),
        serial: machine.serial_text(),
        serial_lost: {
            let (overrun, off) = machine.board().serial_lost();
            overrun + off
        },
        serial_unsent: machine.board().serial_blocked() as u64,
        acia_serial: machine
            .board()
            .acia()
            .map(|a| a.output().iter().map(|&b| b as char).collect())
            .unwrap_or_default(),
        acia_lost: machine.board().acia_input_left().0,
        acia_unsent: machine.board().acia_input_left().1,
        lcd: if machine.board().has_lcd() {
            machine.lcd_text()
        } else {
            Vec::new()
        },
        symbols,
        pin_trace: machine.board().pin_trace().to_vec(),
        pin_trace_dropped: machine.board().pin_trace_dropped(),
        leds: machine.board().led_states(),
        cop_resets: machine.cop_resets().to_vec(),
        debug,
    };
    Ok((machine, report))
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What the stop message adds about serial input that did not reach the
/// program (empty if all of it did).
fn serial_loss_note(machine: &Machine) -> String {
    let (overrun, off) = machine.board().serial_lost();
    let unsent = machine.board().serial_blocked();
    let chars = |n: u64| {
        if n == 1 {
            "1 character was".to_string()
        } else {
            format!("{n} characters were")
        }
    };
    let mut note = String::new();
    if overrun > 0 {
        note.push_str(&format!(
            "; {} lost: SCDR was read too late (OR set){}",
            chars(overrun),
            if machine.board().sci().pacing() == crate::board::sci::Pacing::Wire {
                "; --serial-timing typed sends each byte once the program has read the one before"
            } else {
                ""
            }
        ));
    }
    if off > 0 {
        note.push_str(&format!(
            "; {} lost: the receiver was off (SCCR2's RE clear)",
            chars(off)
        ));
    }
    if unsent > 0 {
        note.push_str(&format!(
            "; {} not sent: typed input waits for the program to read the byte before from SCDR, and it did not",
            chars(unsent as u64)
        ));
    }
    note.push_str(&acia_loss_note(machine));
    note
}

/// The same for the ACIA's input (`--acia-in`).
fn acia_loss_note(machine: &Machine) -> String {
    let Some(acia) = machine.board().acia() else {
        return String::new();
    };
    let (lost, unsent) = machine.board().acia_input_left();
    let chars = |n: u64| {
        if n == 1 {
            "1 character for the host port (ACIA) was".to_string()
        } else {
            format!("{n} characters for the host port (ACIA) were")
        }
    };
    let mut note = String::new();
    if lost > 0 {
        note.push_str(&format!(
            "; {} lost: its receive data register was read too late (OVRN set){}",
            chars(lost),
            if acia.pacing() == crate::board::sci::Pacing::Wire {
                "; --serial-timing typed sends each byte once the program has read the one before"
            } else {
                ""
            }
        ));
    }
    if unsent > 0 {
        note.push_str(&format!(
            "; {} not sent: {}",
            chars(unsent),
            if acia.in_master_reset() {
                "the program never ended the ACIA's master reset (a control word with CR1-CR0 other than 11), so its receiver never ran"
            } else {
                "typed input waits for the program to read the byte before from the ACIA's receive data register, and it did not"
            }
        ));
    }
    note
}

/// True for the stops that mean the program or its input failed.
pub fn is_failure(stop: &StopReason) -> bool {
    matches!(
        stop,
        StopReason::CycleBudget
            | StopReason::IllegalOpcode(_)
            | StopReason::RomWrite { .. }
            | StopReason::UnmappedWrite { .. }
    )
}

/// What a budget stop adds to its message.
fn budget_hint(max_cycles: u64, ran: u64) -> String {
    // The run ends at the first instruction boundary at or after the
    // budget, so it may have run a few cycles more.
    let crossed = if ran > max_cycles {
        format!(", and the instruction that crossed it ran to its end (cycle {ran})")
    } else {
        String::new()
    };
    format!(
        " after its budget of {max_cycles} E-cycles ({:.1} s of the 2 MHz board){crossed}; give a larger --max-cycles if the program needs more",
        max_cycles as f64 / 2_000_000.0
    )
}

/// What a stop in a loop that waits on unchanging memory
/// ([`Machine::memory_wait`]) adds to its message (one clause, for after a
/// `; `): the byte, that nothing
/// writes it, and, where it lies where the chip's registers would be with
/// the register block at another base ($102E is SCSR on an EVB), what the
/// program probably meant and the board that has it so. `budget`: the
/// run stopped at its budget (else it halted, and said why already).
pub fn memory_wait_hint(machine: &Machine, budget: bool) -> Option<String> {
    use crate::board::map::Kind;
    let wait = machine.memory_wait()?;
    let board = machine.board();
    let addr = wait.addr;
    let kind = match board.kind_at(addr) {
        Kind::Rom => "program memory",
        Kind::Eeprom => "EEPROM",
        _ => "RAM",
    };
    let why =
        crate::machine::Halt::no_interrupt(machine.registers().ccr & crate::cpu::flags::I != 0);
    // A halt's message already says why nothing can leave the loop.
    let mut hint = if machine.registers().pc == wait.head && !budget {
        format!("it waits on ${addr:04X}, {kind} that nothing else writes")
    } else {
        format!(
            "the loop at ${:04X}{} waits on ${addr:04X}, {kind} that nothing else writes ({why}): it never ends, at any budget",
            wait.head,
            source_place(machine, wait.head)
        )
    };
    let base = board.register_base();
    let other = (0..16u16)
        .map(|n| n << 12)
        .find(|&b| b != base && addr.wrapping_sub(b) < 0x40);
    if let Some(other) = other {
        let offset = addr - other;
        let name = board
            .registers()
            .iter()
            .find(|r| r.address == Some(base.wrapping_add(offset)))
            .map_or_else(|| format!("register ${offset:02X}"), |r| r.name.to_string());
        let board_name = &board.setup().config.name;
        hint.push_str(&format!(
            ". With the registers at ${other:04X} that would be {name}, but the {board_name}'s are at ${base:04X}-${:04X}",
            base + 0x3F
        ));
        if other == 0x1000 && board_name != "evb" && board_name != "evbu" {
            hint.push_str("; a program written for the EVB runs with --board evb");
        }
    }
    Some(hint)
}

/// E-cycles before an illegal-opcode stop that `how_it_got_there`
/// replays one instruction at a time (about 50,000 instructions, a few ms).
const EXIT_WINDOW: u64 = 200_000;

/// For a stop before an illegal opcode or a refused write, at an
/// instruction where the program put no bytes, and no call or interrupt
/// vector the stop's hint names went there: the
/// jump, branch, return or last instruction that left the program's bytes,
/// found by replaying the run from `initial` (". " and a sentence, or
/// nothing). The commonest case is an `rts` that took a pushed byte for
/// its return address.
fn how_it_got_there(initial: &Machine, end: &Machine, script: &Script) -> String {
    let pc = end.registers().pc;
    if end.program().byte_at(pc).is_some() || end.entry_named(pc) {
        return String::new();
    }
    match initial.last_exit_from_program(
        script,
        crate::script::Timing::default(),
        end.cycles(),
        EXIT_WINDOW,
    ) {
        Some(exit) => format!(". {}", exit.describe(&|a| end.peek(a), end.program())),
        None => String::new(),
    }
}

/// ` (file:line)` of the source line at `addr`, or nothing.
fn source_place(machine: &Machine, addr: u16) -> String {
    machine
        .program()
        .source_place(addr)
        .map(|p| format!(" ({p})"))
        .unwrap_or_default()
}

/// ` in label+off` for an address among the program's own bytes (the
/// nearest label below an address outside them, thousands of bytes away,
/// would name nothing).
fn label_place(machine: &Machine, addr: u16) -> String {
    let program = machine.program();
    if program.byte_at(addr).is_none() {
        return String::new();
    }
    match program.label_for(addr) {
        Some((sym, 0)) => format!(" in {}", sym.name),
        Some((sym, off)) => format!(" in {}+{off}", sym.name),
        None => String::new(),
    }
}

/// The instruction at `addr` as text (`staa $C100`).
fn instruction_text(machine: &Machine, addr: u16) -> String {
    crate::cpu::Instruction::text_at(addr, |a| machine.peek(a))
}

/// The stop in one sentence, with the label of the address where it
/// happened, its source line and, for faults, the instruction.
fn describe(machine: &Machine, stop: &StopReason) -> String {
    let pc = machine.registers().pc;
    let at = label_place(machine, pc);
    let place = source_place(machine, pc);
    match stop {
        StopReason::RomWrite { addr, .. } | StopReason::UnmappedWrite { addr, .. } => format!(
            "{stop}: `{}`{at}{place}; stopped before it took effect (registers and memory as before it){}{}",
            instruction_text(machine, pc),
            machine
                .write_fault_hint(*addr, matches!(stop, StopReason::RomWrite { .. }))
                .unwrap_or_default(),
            machine.stray_hint(pc).unwrap_or_default()
        ),
        StopReason::IllegalOpcode(_) => format!(
            "{stop}{at}{place}; stopped before it: nothing was stacked, registers are as before \
             (--trap-illegal lets the chip take the trap through $FFF8){}",
            machine.stray_hint(pc).unwrap_or_default()
        ),
        StopReason::Settled => format!(
            "{stop}: {}; PC ${pc:04X}{at}{place}",
            machine.waiting_on().map_or("input", |k| k.describe())
        ),
        // WAI and STOP leave PC on the next instruction, which never ran:
        // the halt is theirs, so they and their line are named.
        StopReason::Halted(Halt::Wai { .. } | Halt::Stop)
            if matches!(machine.peek(pc.wrapping_sub(1)), 0x3E | 0xCF) =>
        {
            let op = pc.wrapping_sub(1);
            format!(
                "{stop}: `{}` at ${op:04X}{}{}; PC ${pc:04X}{at}{place}",
                instruction_text(machine, op),
                label_place(machine, op),
                source_place(machine, op)
            )
        }
        StopReason::Halted(_) => format!(
            "{stop}: `{}`; PC ${pc:04X}{at}{place}",
            instruction_text(machine, pc)
        ),
        _ => format!("{stop}; PC ${pc:04X}{at}{place}"),
    }
}

fn resolve_dump(machine: &Machine, d: &DumpSpec) -> Result<(u16, usize), RunError> {
    let bad = |why: String| RunError::BadDump {
        item: d.text.clone(),
        why,
    };
    let address = parse_address(&d.address, machine.program(), machine).map_err(|e| {
        bad(format!(
            "{e}; write a symbol (`player`), an expression (`board+136`) or an address (`$0190`)"
        ))
    })?;
    let len = d.len.unwrap_or_else(|| {
        machine
            .program()
            .symbol(d.address.trim())
            .and_then(|s| s.size)
            .map_or(1, |s| s as usize)
    });
    if address as usize + len > 0x10000 {
        return Err(bad(format!(
            "{len} bytes from ${address:04X} run past $FFFF"
        )));
    }
    Ok((address, len))
}

impl RunReport {
    /// Readable text for the terminal: the stop, registers, serial output and
    /// dumps (the LCD is printed separately with `--lcd-text`).
    pub fn to_text(&self) -> String {
        let r = &self.registers;
        let mut out = match &self.debug {
            Some(d) => d.to_text(),
            None => format!("stopped: {}\n", self.message),
        };
        out.push_str(&format!(
            "cycles {} ({:.3} ms of the 2 MHz board), instructions {}\n",
            self.cycles,
            self.cycles as f64 / 2000.0,
            self.instructions
        ));
        out.push_str(&format!(
            "A=${:02X} B=${:02X} X=${:04X} Y=${:04X} SP=${:04X} PC=${:04X} CCR=${:02X} ({})\n",
            r.a,
            r.b,
            r.x,
            r.y,
            r.sp,
            r.pc,
            r.ccr,
            ccr_letters(r.ccr)
        ));
        for c in &self.cop_resets {
            match c.cause {
                crate::machine::ResetCause::Cop => out.push_str(&format!(
                    "COP reset at cycle {} with PC ${:04X}; last fed {}\n",
                    c.cycle,
                    c.pc,
                    c.last_feed
                        .map_or("never since the reset before".to_string(), |t| format!(
                            "at cycle {t}"
                        ))
                )),
                crate::machine::ResetCause::ClockMonitor => out.push_str(&format!(
                    "clock monitor reset at cycle {}: STOP at PC ${:04X} with OPTION.CME set stopped the clock; restarted through $FFFC\n",
                    c.cycle,
                    c.pc.wrapping_sub(1),
                )),
            }
        }
        if self.pin_trace_dropped > 0 {
            out.push_str(&format!(
                "pin trace: {} entries kept, the {} oldest dropped (at most {} are kept)\n",
                self.pin_trace.len(),
                self.pin_trace_dropped,
                crate::board::timer::MAX_TRACE_EDGES
            ));
        }
        if !self.leds.is_empty() {
            let leds: Vec<String> = self
                .leds
                .iter()
                .map(|l| {
                    format!(
                        "{} ({}) {}",
                        l.name,
                        l.pin,
                        if l.lit { "on" } else { "off" }
                    )
                })
                .collect();
            out.push_str(&format!("LEDs: {}\n", leds.join(", ")));
        }
        if !self.serial.is_empty() {
            out.push_str(&format!("serial: {:?}\n", self.serial));
        }
        if !self.acia_serial.is_empty() {
            out.push_str(&format!("host port (ACIA): {:?}\n", self.acia_serial));
        }
        for (name, d) in &self.symbols {
            // `$` on every byte: a bare `24` reads as decimal.
            let bytes: Vec<String> = d.bytes.iter().map(|b| format!("${b:02X}")).collect();
            out.push_str(&format!(
                "{name} @ ${:04X}: {}\n",
                d.address,
                bytes.join(" ")
            ));
        }
        out
    }
}

/// `SXHINZVC` with a `-` for each clear flag.
fn ccr_letters(ccr: u8) -> String {
    "SXHINZVC"
        .chars()
        .enumerate()
        .map(|(i, c)| if ccr & (0x80 >> i) != 0 { c } else { '-' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dump_lists_split_into_items_with_lengths() {
        let d = parse_dumps("player, board:336,$0190:2,board+136:$8").expect("valid");
        assert_eq!(d.len(), 4);
        assert_eq!((d[0].address.as_str(), d[0].len), ("player", None));
        assert_eq!((d[1].address.as_str(), d[1].len), ("board", Some(336)));
        assert_eq!((d[2].address.as_str(), d[2].len), ("$0190", Some(2)));
        assert_eq!((d[3].address.as_str(), d[3].len), ("board+136", Some(8)));
        assert!(parse_dumps("board:0").is_err());
        assert!(parse_dumps("board:x").is_err());
    }

    #[test]
    fn ccr_is_spelled_out() {
        assert_eq!(ccr_letters(0xD0), "SX-I----");
        assert_eq!(ccr_letters(0x05), "-----Z-C");
    }
}

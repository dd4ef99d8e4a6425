//! Where `run` starts a program and what it says about it: the entry of a
//! program without a reset vector (its END operand, `--entry`, its first
//! instruction outside the pseudo-vector slots), the EVB monitor that
//! starts it when the board has no ROM given, and the end of a run in that
//! monitor (the program's `swi`, an interrupt without a handler).

use crate::asm::EntryFrom;
use crate::board::config::BoardSetup;
use crate::firmware::evb_monitor::{self, Returned};
use crate::image::Program;
use crate::machine::Machine;

/// True if the program sets the reset vector itself.
fn has_reset_vector(program: &Program) -> bool {
    program.byte_at(0xFFFE).is_some() && program.byte_at(0xFFFF).is_some()
}

/// A `--entry` value: a label of the program (any letter case) or an
/// address (`$C000`, `0xC000`, `%1100...`, `49152`).
pub fn parse_entry(text: &str, program: &Program) -> Result<u16, String> {
    let t = text.trim();
    if let Some(s) = program.symbol(t) {
        return Ok(s.value);
    }
    let (digits, radix) = if let Some(h) = t.strip_prefix('$') {
        (h, 16)
    } else if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix('%') {
        (b, 2)
    } else {
        (t, 10)
    };
    u16::from_str_radix(digits, radix).map_err(|_| {
        format!("`{t}` is neither a label of the program nor an address: give one such as START or $C000")
    })
}

/// Applies `run --entry` to `program` and says why the program starts
/// where it will (for [`start_note`]). The order: the reset vector, the
/// operand of the END line, `--entry`, the first instruction outside the
/// pseudo-vector slots. An `--entry` that loses to the first two is named
/// in the reason.
pub fn choose_entry(
    program: &mut Program,
    from: Option<EntryFrom>,
    entry: Option<&str>,
) -> Result<String, String> {
    let wanted = entry.map(|t| parse_entry(t, program)).transpose()?;
    let ignored = |why: &str| match (wanted, entry) {
        (Some(w), Some(t)) if Some(w) != program.entry => {
            format!("{why}; --entry {t} is not used: the program's own start comes first")
        }
        _ => why.to_string(),
    };
    if has_reset_vector(program) {
        return Ok(ignored("its reset vector"));
    }
    if from == Some(EntryFrom::EndLine) {
        return Ok(ignored("the operand of its END line"));
    }
    if let Some(w) = wanted {
        program.entry = Some(w);
        return Ok("--entry".to_string());
    }
    Ok(match from {
        Some(f) => f.describe().to_string(),
        None => "the start address of the image (its S9 record or ELF header)".to_string(),
    })
}

/// The note `run` prints once before it runs (`None` when the program
/// starts from its own reset vector): where and why it starts, and the
/// monitor that starts it.
pub fn start_note(program: &Program, setup: &BoardSetup, why: &str) -> Option<String> {
    if let Some(note) = evb_monitor::note(setup) {
        return Some(
            match program
                .entry
                .filter(|_| setup.builtin_monitor != Some(0xFFFF))
            {
                Some(_) => format!("{note} ({why})"),
                None => note,
            },
        );
    }
    let entry = program.entry?;
    if !setup.rom_image.is_empty() && !has_reset_vector(program) {
        return Some(format!(
            "the ROM given with --rom starts the machine; the program waits at ${entry:04X} ({why}) for the monitor's `G {entry:04X}`"
        ));
    }
    if has_reset_vector(program) {
        return None;
    }
    Some(format!(
        "the program has no reset vector: it starts at ${entry:04X}, {why}"
    ))
}

/// How a run that settled in the EVB monitor ended, as (stop reason,
/// message, failed), if the program gave control back to it.
pub fn monitor_stop(machine: &Machine) -> Option<(&'static str, String, bool)> {
    let setup = machine.board().setup();
    let pc = machine.registers().pc;
    if pc < 0xE000 {
        return None;
    }
    let place = |addr: u16| {
        machine
            .program()
            .source_place(addr)
            .map(|p| format!(" ({p})"))
            .unwrap_or_default()
    };
    match evb_monitor::returned(setup, |a| machine.peek(a))? {
        Returned::Swi { pc } => Some((
            "returned_to_monitor",
            format!(
                "the program returned to the monitor with `swi` at ${pc:04X}{}; the monitor printed its registers and waits for a command",
                place(pc)
            ),
            false,
        )),
        Returned::Unhandled { name, slot, pc } => {
            let at = if pc == 0 {
                String::new()
            } else {
                format!(" with the program at ${pc:04X}{}", place(pc))
            };
            Some((
                "unhandled_interrupt",
                format!(
                    "the {name} interrupt came{at}, and its pseudo-vector ${slot:04X} holds no JMP: the monitor caught it and waits for a command; put `org ${slot:04X}` / `jmp Handler` in the program, or keep the interrupt off"
                ),
                true,
            ))
        }
    }
}

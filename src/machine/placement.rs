//! Where a program's variables land on the board it runs on.
//!
//! A program written for another board (an EVB program that keeps its
//! variables at `org $0000`, say) may reserve them where this board has its
//! register block, the PIO or no memory at all. On the chip, loads and
//! stores there reach device registers or nothing, and the run goes on with
//! wrong numbers and no word of why. These warnings say it before the run,
//! with the line that reserves the variable, where RAM is, and the built-in
//! board the program fits, if one does.

use super::Machine;
use crate::board::config::{BoardConfig, BoardSetup};
use crate::board::map::Kind;
use crate::board::Board;
use crate::image::{Program, SymbolKind};
use std::fmt;
use std::path::PathBuf;

/// At most this many variables are warned about one by one; a last
/// warning counts the rest.
const MAX_LISTED: usize = 8;

/// The MC68HC11's register names (the A8's and E9's register blocks, RM
/// section 1 and appendix; with an H or L suffix for the halves of the
/// 16-bit ones, and common names of the whole block): a program may put
/// labels with these names on the register block on purpose (`PORTA rmb 1`
/// after `org $1000`).
const REGISTER_NAMES: &[&str] = &[
    "PORTA",
    "PIOC",
    "PORTC",
    "PORTB",
    "PORTCL",
    "DDRC",
    "PORTD",
    "DDRD",
    "PORTE",
    "CFORC",
    "OC1M",
    "OC1D",
    "TCNT",
    "TIC1",
    "TIC2",
    "TIC3",
    "TOC1",
    "TOC2",
    "TOC3",
    "TOC4",
    "TOC5",
    "TI4O5",
    "TCTL1",
    "TCTL2",
    "TMSK1",
    "TFLG1",
    "TMSK2",
    "TFLG2",
    "PACTL",
    "PACNT",
    "SPCR",
    "SPSR",
    "SPDR",
    "BAUD",
    "SCCR1",
    "SCCR2",
    "SCSR",
    "SCDR",
    "ADCTL",
    "ADR1",
    "ADR2",
    "ADR3",
    "ADR4",
    "BPROT",
    "OPTION",
    "COPRST",
    "PPROG",
    "HPRIO",
    "INIT",
    "TEST1",
    "CONFIG",
    "REGS",
    "REGBASE",
    "REGISTERS",
    "IOBASE",
];

/// A variable the board keeps no RAM for, with the fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementWarning {
    /// What is wrong, in one sentence.
    pub message: String,
    /// How to fix it.
    pub help: String,
    /// The file and line that reserve the variable, if known.
    pub at: Option<(PathBuf, u32)>,
}

impl fmt::Display for PlacementWarning {
    /// The assembler's layout: `warning: ...`, ` --> file:line`, `= help: ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "warning: {}", self.message)?;
        if let Some((path, line)) = &self.at {
            writeln!(f, " --> {}:{line}", path.display())?;
        }
        write!(f, "  = help: {}", self.help)
    }
}

/// A variable of `program`: a label on reserved or emitted data, with its
/// bytes.
struct Variable<'a> {
    name: &'a str,
    first: u16,
    last: u16,
    at: Option<(PathBuf, u32)>,
}

fn variables(program: &Program) -> Vec<Variable<'_>> {
    program
        .symbols
        .iter()
        .filter(|s| s.kind == SymbolKind::Label)
        .filter_map(|s| {
            let size = s.size?.max(1);
            let last = u32::from(s.value) + size - 1;
            Some(Variable {
                name: &s.name,
                first: s.value,
                last: u16::try_from(last).unwrap_or(u16::MAX),
                at: s
                    .defined_at
                    .and_then(|(file, line)| Some((program.files.get(file)?.path.clone(), line))),
            })
        })
        .collect()
}

/// What lies where a variable cannot live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoMemory {
    /// The chip's register block (after reset), first and last address.
    Registers(u16, u16),
    /// The PIO's registers.
    Pio,
    /// Nothing.
    Nothing,
}

impl NoMemory {
    /// What `board` has at `addr` where a variable cannot live; None for
    /// memory (RAM, and ROM or EEPROM, which hold constant tables).
    fn at(board: &Board, addr: u16) -> Option<NoMemory> {
        if let Some(&(first, last)) = board.device_ranges().first() {
            if (first..=last).contains(&addr) {
                return Some(NoMemory::Registers(first, last));
            }
        }
        match board.kind_at(addr) {
            Kind::Pio => Some(NoMemory::Pio),
            Kind::Unmapped => Some(NoMemory::Nothing),
            Kind::Ram | Kind::Rom | Kind::Eeprom => None,
        }
    }

    /// In words, for the warning.
    fn describe(self, board: &Board) -> String {
        let name = board_name(board);
        match self {
            NoMemory::Registers(first, last) => format!(
                "the {name}'s register block after reset (${first:04X}-${last:04X}): loads and stores there reach the chip's device registers, not memory"
            ),
            NoMemory::Pio => format!(
                "the {name}'s PIO registers: loads and stores there reach the PIO's ports, not memory"
            ),
            NoMemory::Nothing => format!(
                "no memory on the {name} (reads see $FF, the first store stops the run)"
            ),
        }
    }
}

fn board_name(board: &Board) -> &str {
    &board.setup().config.name
}

/// True if `name` is a register's name (case-insensitive, an H or L half too).
fn is_register_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    let base = upper
        .strip_suffix('H')
        .or_else(|| upper.strip_suffix('L'))
        .filter(|b| REGISTER_NAMES.contains(b));
    REGISTER_NAMES.contains(&upper.as_str()) || base.is_some()
}

/// True if every segment of `program` loads on `config` and each of `vars`
/// lies in its RAM.
fn fits(program: &Program, config: BoardConfig, vars: &[&Variable<'_>]) -> bool {
    let mut board = Board::with_setup(&BoardSetup::new(config));
    program
        .segments
        .iter()
        .all(|s| board.load(s.start, &s.bytes).is_ok())
        && vars
            .iter()
            .all(|v| (v.first..=v.last).all(|a| board.is_plain_ram(a)))
}

/// The warnings for `program` on `board` (in its state after reset).
pub fn placement_warnings(program: &Program, board: &Board) -> Vec<PlacementWarning> {
    // A program that stores to INIT may move the register block away
    // before it uses its variables: then the block after reset says
    // nothing about them.
    let moves_registers = program
        .symbols
        .iter()
        .any(|s| s.name.eq_ignore_ascii_case("INIT") && !s.used_at.is_empty());
    let vars = variables(program);
    let found: Vec<(&Variable<'_>, String)> = vars
        .iter()
        .filter(|v| !is_register_name(v.name))
        .filter_map(|v| {
            let what = (v.first..=v.last).find_map(|a| NoMemory::at(board, a))?;
            let in_block = matches!(what, NoMemory::Registers(..));
            (!(in_block && moves_registers)).then(|| (v, what.describe(board)))
        })
        .collect();
    if found.is_empty() {
        return Vec::new();
    }
    let misplaced: Vec<&Variable<'_>> = found.iter().map(|(v, _)| *v).collect();
    let current = board_name(board).to_string();
    let other = [BoardConfig::trainer11(), BoardConfig::evb()]
        .into_iter()
        .filter(|c| c.name != current)
        .find(|c| fits(program, c.clone(), &misplaced))
        .map(|c| c.name);
    let ram = board.describe_ram();
    let help = |it: &str| {
        let mut h = if ram.is_empty() {
            format!("the {current} has no RAM for variables")
        } else {
            format!("reserve {it} in RAM ({ram}) with an `org` there")
        };
        if let Some(name) = &other {
            h.push_str(&format!(
                "; if the program was written for the {name}, run it with --board {name}"
            ));
        }
        h
    };
    let mut out: Vec<PlacementWarning> = found
        .iter()
        .take(MAX_LISTED)
        .map(|(v, what)| {
            let bytes = if v.first == v.last {
                format!("${:04X}", v.first)
            } else {
                format!("${:04X}-${:04X}", v.first, v.last)
            };
            PlacementWarning {
                message: format!("variable `{}` ({bytes}) lies in {what}", v.name),
                help: help("it"),
                at: v.at.clone(),
            }
        })
        .collect();
    if found.len() > MAX_LISTED {
        let rest: Vec<&str> = found[MAX_LISTED..].iter().map(|(v, _)| v.name).collect();
        out.push(PlacementWarning {
            message: format!(
                "{} more variables lie outside the {current}'s RAM: {}",
                rest.len(),
                rest.join(", ")
            ),
            help: help("them"),
            at: None,
        });
    }
    out
}

/// For a store into program memory at `addr` (a run stopped by it): the
/// program's variable there, if one is, and the built-in board on which the
/// program loads and that byte is RAM (an EVB program keeps its variables
/// at $C000, the trainer11's program memory). Starts with ". ", to follow
/// a sentence; `None` when no other board would take the store.
pub fn rom_write_hint(
    program: &Program,
    board: &Board,
    addr: u16,
    sp: Option<u16>,
) -> Option<String> {
    // A push writes at SP and up to eight bytes below it (SWI, an
    // interrupt): then the stack, not a variable, is what lies there.
    let push = sp.is_some_and(|sp| addr <= sp && u32::from(addr) + 8 >= u32::from(sp));
    let vars = variables(program);
    let var = vars.iter().find(|v| (v.first..=v.last).contains(&addr));
    let what = match var {
        Some(v) => {
            let at =
                v.at.as_ref()
                    .map(|(path, line)| {
                        let file = path.file_name().map_or_else(
                            || path.display().to_string(),
                            |n| n.to_string_lossy().into_owned(),
                        );
                        format!(" ({file}:{line})")
                    })
                    .unwrap_or_default();
            format!("`{}`{at}", v.name)
        }
        None if push => format!(
            "The write is a push: the stack (SP ${:04X}, as lds set it)",
            sp.unwrap_or(addr)
        ),
        None => format!("${addr:04X}"),
    };
    let current = board_name(board).to_string();
    let byte = Variable {
        name: "",
        first: addr,
        last: addr,
        at: None,
    };
    let other = [BoardConfig::trainer11(), BoardConfig::evb()]
        .into_iter()
        .filter(|c| c.name != current)
        .find(|c| fits(program, c.clone(), &[var.unwrap_or(&byte)]))?;
    let fix = if push && var.is_none() {
        format!(
            "set the stack pointer to the top of RAM ({}) with lds",
            board.describe_ram()
        )
    } else {
        format!("reserve the variable in RAM ({})", board.describe_ram())
    };
    Some(format!(
        ". {what} lies in the {current}'s program memory, which a program cannot write; the {} \
         has RAM there: if the program was written for it, run it with --board {}; else {fix}",
        other.name, other.name
    ))
}

impl Machine {
    /// Warnings about variables of the program that lie where this board
    /// has no RAM (see the module doc); empty for a program that fits.
    pub fn placement_warnings(&self) -> Vec<PlacementWarning> {
        placement_warnings(&self.program, &self.board)
    }

    /// [`rom_write_hint`] for this machine's program and board.
    pub fn rom_write_hint(&self, addr: u16) -> Option<String> {
        rom_write_hint(&self.program, &self.board, addr, Some(self.cpu.regs.sp))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_names_and_their_halves_are_known() {
        for n in ["PORTA", "porta", "TCNTH", "tcntl", "TOC1", "scdr", "Regs"] {
            assert!(is_register_name(n), "{n}");
        }
        for n in ["SUM", "count", "PORTAX", "H", "L", "buttonFlag"] {
            assert!(!is_register_name(n), "{n}");
        }
    }
}

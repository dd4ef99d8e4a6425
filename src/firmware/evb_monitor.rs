//! hc11lab's own monitor for the EVB and EVBU (`firmware/evb/EvbMonitor.asm`,
//! docs/evb.md): BUFFALO's documented interface (the utility jump table,
//! the pseudo-vectors in RAM, `G` and `swi` back to the monitor) without
//! the Motorola ROM. A board whose description says `monitor = "evb"`
//! gets it in its ROM when no `--rom` is given and the program leaves the
//! ROM empty; the monitor then starts the program at its entry as `G`
//! would.

use crate::asm::{self, AsmOptions, MemoryFiles};
use crate::board::config::{BoardSetup, Monitor};
use crate::image::Program;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The source file, as the GUI and messages name it.
pub const FILE: &str = "EvbMonitor.asm";

/// Its text, bundled into the binary.
pub const SOURCE: &str = include_str!("../../firmware/evb/EvbMonitor.asm");

/// Where the program's stack pointer starts under the monitor (as
/// BUFFALO's `G` leaves it).
pub const USER_SP: u16 = 0x0041;

/// The first and last address of the pseudo-vector slots in RAM
/// ($00C4-$00FF, a three-byte `jmp handler` per interrupt).
pub const PSEUDO_VECTORS: (u16, u16) = (0x00C4, 0x00FF);

/// The assembled monitor and the addresses hc11lab needs from it.
#[derive(Debug)]
pub struct EvbMonitor {
    /// The assembled image with its symbols and lines.
    pub program: Program,
    /// The ROM word that holds the start of the program to run ($FFFF: none).
    autostart: u16,
    /// The RAM byte saying why the monitor has control: 0 not given back,
    /// 1 the program's `swi`, 2 an interrupt whose slot held no JMP.
    return_cause: u16,
    /// The RAM byte with that interrupt's slot number (0 SCI .. 19 CLM).
    stray_vector: u16,
    /// The register table (PC, Y, X, A, B, CCR, SP) in RAM.
    user_pc: u16,
}

/// Why the monitor has control at the end of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returned {
    /// The program ran `swi` at `pc` and the monitor printed the registers.
    Swi {
        /// The address of the `swi`.
        pc: u16,
    },
    /// An interrupt came whose pseudo-vector slot held no JMP.
    Unhandled {
        /// The interrupt's name (`RTI`, `TOC2`, `IRQ`).
        name: &'static str,
        /// Its slot in RAM.
        slot: u16,
        /// Where the program was (0 for the COP and clock monitor, which
        /// stack nothing).
        pc: u16,
    },
}

/// The interrupts in slot order, as the vector table at $FFD6 lists them.
const SLOT_NAMES: [&str; 20] = [
    "SCI", "SPI", "PAIE", "PAO", "TOF", "TOC5", "TOC4", "TOC3", "TOC2", "TOC1", "TIC3", "TIC2",
    "TIC1", "RTI", "IRQ", "XIRQ", "SWI", "ILLOP", "COP", "CLM",
];

/// The interrupt whose pseudo-vector slot holds `addr`, with the slot's
/// first address.
pub fn slot_at(addr: u16) -> Option<(&'static str, u16)> {
    let off = addr.checked_sub(PSEUDO_VECTORS.0)?;
    let name = SLOT_NAMES.get(usize::from(off / 3))?;
    Some((name, PSEUDO_VECTORS.0 + off / 3 * 3))
}

/// The monitor, assembled once per process (`None` would be a broken
/// build: a test keeps the source free of errors).
pub fn monitor() -> Option<&'static EvbMonitor> {
    static MONITOR: OnceLock<Option<EvbMonitor>> = OnceLock::new();
    MONITOR
        .get_or_init(|| {
            let files = MemoryFiles::new().with(format!("firmware/evb/{FILE}"), SOURCE.as_bytes());
            let path = format!("firmware/evb/{FILE}");
            let program =
                asm::assemble_with(Path::new(&path), &files, &AsmOptions::default()).program?;
            let sym = |name: &str| program.symbol(name).map(|s| s.value);
            Some(EvbMonitor {
                autostart: sym("AutoStart")?,
                return_cause: sym("ReturnCause")?,
                stray_vector: sym("StrayVector")?,
                user_pc: sym("UserPc")?,
                program,
            })
        })
        .as_ref()
}

/// The setup a machine runs `program` on when `setup`'s board has the EVB
/// monitor, no ROM image was given (`--rom`) and the program puts no byte
/// in the board's ROM: the monitor's image in the ROM, with `AutoStart`
/// set to the program's entry. `None` when the setup stays as it is.
pub fn setup_for(setup: &BoardSetup, program: &Program) -> Option<BoardSetup> {
    let cfg = &setup.config;
    if cfg.monitor != Monitor::Evb || !setup.rom_image.is_empty() {
        return None;
    }
    let in_rom = program.segments.iter().any(|s| {
        let last = s.end().saturating_sub(1);
        cfg.rom
            .iter()
            .any(|r| u32::from(r.start) <= last && s.start <= r.end)
    });
    if in_rom {
        return None;
    }
    let mon = monitor()?;
    let entry = program.entry.unwrap_or(0xFFFF);
    let mut image: Vec<(u16, Vec<u8>)> = mon
        .program
        .segments
        .iter()
        .filter(|s| s.start >= 0xE000)
        .map(|s| (s.start, s.bytes.clone()))
        .collect();
    for (start, bytes) in &mut image {
        let at = usize::from(mon.autostart.wrapping_sub(*start));
        if mon.autostart >= *start && at + 1 < bytes.len() {
            bytes[at..at + 2].copy_from_slice(&entry.to_be_bytes());
        }
    }
    let mut s = setup.clone();
    s.rom_image = Arc::new(image);
    s.builtin_monitor = Some(entry);
    Some(s)
}

/// Why the monitor has control, if the board runs it and the program gave
/// control back (its `swi`, or an interrupt without a handler). `peek`
/// reads memory without side effects.
pub fn returned(setup: &BoardSetup, peek: impl Fn(u16) -> u8) -> Option<Returned> {
    setup.builtin_monitor?;
    let mon = monitor()?;
    let word = |a: u16| u16::from_be_bytes([peek(a), peek(a.wrapping_add(1))]);
    match peek(mon.return_cause) {
        1 => Some(Returned::Swi {
            pc: word(mon.user_pc),
        }),
        2 => {
            let n = peek(mon.stray_vector);
            let name = SLOT_NAMES.get(usize::from(n)).copied()?;
            Some(Returned::Unhandled {
                name,
                slot: PSEUDO_VECTORS.0 + 3 * u16::from(n),
                pc: if n >= 18 { 0 } else { word(mon.user_pc) },
            })
        }
        _ => None,
    }
}

/// The line `run` prints once when the board runs the monitor: what it
/// is and where it starts the program.
pub fn note(setup: &BoardSetup) -> Option<String> {
    let entry = setup.builtin_monitor?;
    let start = if entry == 0xFFFF {
        "the program has no start address, so it waits at its prompt".to_string()
    } else {
        format!("it starts the program at ${entry:04X} as `G {entry:04X}` would")
    };
    Some(format!(
        "note: no --rom given: board `{}` runs hc11lab's EVB monitor in $E000-$FFFF (BUFFALO's jump table and pseudo-vectors, docs/evb.md); {start}",
        setup.config.name
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_monitor_assembles_without_diagnostics_and_keeps_to_its_ram() {
        let files = MemoryFiles::new().with(format!("firmware/evb/{FILE}"), SOURCE.as_bytes());
        let a = asm::assemble_with(
            Path::new("firmware/evb/EvbMonitor.asm"),
            &files,
            &AsmOptions::default(),
        );
        assert!(a.diagnostics.is_empty(), "{}", a.render_diagnostics());
        let m = monitor().expect("assembles");
        // Its RAM lies in BUFFALO's part, below the pseudo-vectors.
        let ram_end = m.program.symbol("RamEnd").map(|s| s.value);
        assert!(
            ram_end.is_some_and(|e| e <= PSEUDO_VECTORS.0),
            "{ram_end:?}"
        );
        assert_eq!(
            m.program.symbol("UserStack").map(|s| s.value),
            Some(USER_SP)
        );
        // Every byte is in the ROM.
        assert!(m.program.segments.iter().all(|s| s.start >= 0xE000));
    }

    #[test]
    fn slots_are_named_by_address() {
        assert_eq!(slot_at(0x00EB), Some(("RTI", 0x00EB)));
        assert_eq!(slot_at(0x00ED), Some(("RTI", 0x00EB)));
        assert_eq!(slot_at(0x00C4), Some(("SCI", 0x00C4)));
        assert_eq!(slot_at(0x00FF), Some(("CLM", 0x00FD)));
        assert_eq!(slot_at(0x0100), None);
        assert_eq!(slot_at(0x00C3), None);
    }
}

//! What a board is: where its RAM, ROM and EEPROM sit, where the chip's
//! register block and internal RAM are after reset (INIT), and which devices
//! are wired up (the PIO with keys, the LCD on the SPI, the SCI as a
//! terminal). The built-in boards are `trainer11` (the course's board) and
//! `evb` (the MC68HC11 as Motorola's EVB/EVBU leave it after reset); any
//! other board is a TOML file (docs/boards.md lists every key).
//!
//! A description is checked when it is read: ranges must not overlap, an LCD
//! or keys need a PIO, and every error names the file, the line and the fix.

use super::parts::Parts;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use toml::Spanned;

/// An inclusive address range, `$C000-$DFFF`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddrRange {
    /// First address.
    pub start: u16,
    /// Last address (inclusive).
    pub end: u16,
}

impl AddrRange {
    /// The range `start..=end`.
    pub const fn new(start: u16, end: u16) -> Self {
        AddrRange { start, end }
    }

    /// True if `addr` is inside.
    #[inline]
    pub fn contains(&self, addr: u16) -> bool {
        self.start <= addr && addr <= self.end
    }

    fn overlaps(&self, other: &AddrRange) -> bool {
        self.start <= other.end && other.start <= self.end
    }
}

impl std::fmt::Display for AddrRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "${:04X}-${:04X}", self.start, self.end)
    }
}

/// The LCD (ST7565R) on the SPI: which PIO_C select code reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LcdWiring {
    /// The slave-select code in PIO_C bits 7-6 that selects the LCD (0-3).
    pub select: u8,
}

/// A board: memory map and devices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardConfig {
    /// Its name (`trainer11`, `evb`, or the file's `name`).
    pub name: String,
    /// One line for people.
    pub description: String,
    /// INIT after reset: internal RAM at (INIT >> 4) * $1000, the register
    /// block at (INIT & $0F) * $1000.
    pub init: u8,
    /// Bytes of on-chip RAM (256 on the MC68HC11A8, 512 on the E9).
    pub internal_ram: u16,
    /// The CONFIG EEPROM cell at power-on.
    pub config: u8,
    /// External RAM.
    pub ram: Vec<AddrRange>,
    /// Program memory: loaded (or `--rom`), then read-only.
    pub rom: Vec<AddrRange>,
    /// The on-chip EEPROM, if the board's chip has one enabled.
    pub eeprom: Option<AddrRange>,
    /// Base address of the 8255-type PIO (four registers), if fitted.
    pub pio: Option<u16>,
    /// The LCD on the SPI, if fitted (needs the PIO for its select lines).
    pub lcd: Option<LcdWiring>,
    /// True if the eight keys sit on the PIO's port B.
    pub keys: bool,
    /// True if the SCI is wired to a terminal (the serial panel and `--serial-in`).
    pub serial: bool,
    /// Parts outside the chip: LEDs, switches, pots, generators, the
    /// default logic trace (none on the built-in boards).
    pub parts: Parts,
}

/// CONFIG's EEON bit: the EEPROM array is enabled.
pub const CONFIG_EEON: u8 = 0x01;

impl BoardConfig {
    /// The course's trainer11: registers at $0000 (its start-up leaves INIT
    /// at $00), 32 KiB RAM to $7FFF, the PIO at $8000 with the keys and the
    /// LCD's select lines, program memory $C000-$FFFF, the SCI as terminal.
    pub fn trainer11() -> Self {
        BoardConfig {
            name: "trainer11".into(),
            description: "the course's trainer11: LCD on the SPI, keys on the PIO".into(),
            init: 0x00,
            internal_ram: 256,
            config: 0x0C,
            ram: vec![AddrRange::new(0x0000, 0x7FFF)],
            rom: vec![AddrRange::new(0xC000, 0xFFFF)],
            eeprom: None,
            pio: Some(0x8000),
            lcd: Some(LcdWiring { select: 0 }),
            keys: true,
            serial: true,
            parts: Parts::default(),
        }
    }

    /// An MC68HC11A8 as on Motorola's EVB after reset: INIT = $01 (internal
    /// RAM $0000-$00FF, registers $1000-$103F), EEPROM $B600-$B7FF enabled
    /// (CONFIG $0D), the EVB's 8 KiB user RAM at $C000-$DFFF (where the EVB
    /// manual's examples are loaded), the monitor ROM at $E000-$FFFF (as
    /// BUFFALO on the EVB and EVBU) and the SCI as the terminal; no PIO,
    /// no LCD, no keys.
    pub fn evb() -> Self {
        BoardConfig {
            name: "evb".into(),
            description: "MC68HC11 EVB/EVBU after reset: SCI terminal, EEPROM at $B600".into(),
            init: 0x01,
            internal_ram: 256,
            config: 0x0D,
            ram: vec![AddrRange::new(0xC000, 0xDFFF)],
            rom: vec![AddrRange::new(0xE000, 0xFFFF)],
            eeprom: Some(AddrRange::new(0xB600, 0xB7FF)),
            pio: None,
            lcd: None,
            keys: false,
            serial: true,
            parts: Parts::default(),
        }
    }

    /// A built-in board by name (`trainer11`, `evb`) or a board file's path.
    pub fn from_spec(spec: &str, dir: &Path) -> Result<BoardConfig, BoardFileError> {
        match spec.trim() {
            "trainer11" => Ok(Self::trainer11()),
            "evb" => Ok(Self::evb()),
            path => Self::load(&dir.join(path)),
        }
    }

    /// Reads and checks a board file.
    pub fn load(path: &Path) -> Result<BoardConfig, BoardFileError> {
        let text = crate::platform::fs::read_limited(path, 1 << 20)
            .map_err(|e| e.to_string())
            .and_then(|b| String::from_utf8(b).map_err(|e| e.to_string()))
            .map_err(|e| BoardFileError {
                file: path.to_path_buf(),
                line: None,
                message: format!(
                    "cannot read the board file: {e}; give `trainer11`, `evb` or a .toml file"
                ),
            })?;
        Self::parse(&text, path)
    }

    /// Parses and checks the text of a board file; `file` names it in errors.
    pub fn parse(text: &str, file: &Path) -> Result<BoardConfig, BoardFileError> {
        let err = |span: Option<std::ops::Range<usize>>, message: String| BoardFileError {
            file: file.to_path_buf(),
            line: span.map(|s| line_of(text, s.start)),
            message,
        };
        let raw: RawBoard = toml::from_str(text).map_err(|e| err(e.span(), e.message().into()))?;
        let range =
            |s: &Spanned<String>| parse_range(s.get_ref()).map_err(|m| err(Some(s.span()), m));
        let byte = |s: &Spanned<Number>, what: &str| {
            let v = s
                .get_ref()
                .value()
                .map_err(|m| err(Some(s.span()), format!("`{what}`: {m}")))?;
            u8::try_from(v).map_err(|_| {
                err(
                    Some(s.span()),
                    format!("`{what}` is a byte: $00-$FF, not ${v:X}"),
                )
            })
        };
        let mut regions: Vec<(AddrRange, &'static str, std::ops::Range<usize>)> = Vec::new();
        let mut ram = Vec::new();
        for s in &raw.ram {
            let r = range(s)?;
            ram.push(r);
            regions.push((r, "ram", s.span()));
        }
        let mut rom = Vec::new();
        for s in &raw.rom {
            let r = range(s)?;
            rom.push(r);
            regions.push((r, "rom", s.span()));
        }
        let eeprom = match &raw.eeprom {
            Some(s) => {
                let r = range(s)?;
                regions.push((r, "eeprom", s.span()));
                Some(r)
            }
            None => None,
        };
        let pio = match &raw.pio {
            Some(p) => {
                let v = p
                    .base
                    .get_ref()
                    .value()
                    .map_err(|m| err(Some(p.base.span()), format!("`base`: {m}")))?;
                let base = u16::try_from(v)
                    .ok()
                    .filter(|b| *b <= 0xFFFC)
                    .ok_or_else(|| {
                        err(
                            Some(p.base.span()),
                            format!("the PIO's four registers do not fit at ${v:X}: give a base from $0000 to $FFFC"),
                        )
                    })?;
                regions.push((AddrRange::new(base, base + 3), "pio", p.base.span()));
                Some(base)
            }
            None => None,
        };
        for (i, (a, an, _)) in regions.iter().enumerate() {
            for (b, bn, span) in &regions[i + 1..] {
                if a.overlaps(b) {
                    return Err(err(
                        Some(span.clone()),
                        format!(
                            "{bn} {b} overlaps {an} {a}: give each address to one kind of memory"
                        ),
                    ));
                }
            }
        }
        let lcd = match &raw.lcd {
            Some(l) => {
                let select = l.select.as_ref().map_or(Ok(0), |s| byte(s, "select"))?;
                if select > 3 {
                    let span = l.select.as_ref().map(|s| s.span());
                    return Err(err(
                        span,
                        format!("`select` is the PIO_C code in bits 7-6: 0 to 3, not {select}"),
                    ));
                }
                if pio.is_none() {
                    return Err(err(
                        Some(l.span.clone()),
                        "the LCD's select lines are on the PIO: add `[pio] base = \"$8000\"` or remove `[lcd]`".into(),
                    ));
                }
                Some(LcdWiring { select })
            }
            None => None,
        };
        let keys = raw.keys.as_ref().is_some_and(|k| *k.get_ref());
        if keys && pio.is_none() {
            let span = raw.keys.as_ref().map(|k| k.span());
            return Err(err(
                span,
                "the keys are read on the PIO's port B: add `[pio] base = \"$8000\"` or set `keys = false`".into(),
            ));
        }
        let init = raw.init.as_ref().map_or(Ok(0x01), |s| byte(s, "init"))?;
        let internal_ram = match &raw.internal_ram {
            Some(s) => {
                let v = s
                    .get_ref()
                    .value()
                    .map_err(|m| err(Some(s.span()), format!("`internal_ram`: {m}")))?;
                if v % 256 != 0 || v > 4096 {
                    return Err(err(
                        Some(s.span()),
                        format!("`internal_ram` is a size in bytes, a multiple of 256 up to 4096 (256 on the A8, 512 on the E9), not {v}"),
                    ));
                }
                v as u16
            }
            None => 256,
        };
        let default_config = 0x0C | if eeprom.is_some() { CONFIG_EEON } else { 0 };
        let config = raw
            .config
            .as_ref()
            .map_or(Ok(default_config), |s| byte(s, "config"))?;
        let parts = super::parts::check(
            super::parts::RawParts {
                led: raw.led,
                switch: raw.switch,
                pot: raw.pot,
                generator: raw.generator,
                trace: raw.trace,
            },
            &err,
        )?;
        let name = raw.name.unwrap_or_else(|| {
            file.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "board".into())
        });
        Ok(BoardConfig {
            name,
            description: raw.description.unwrap_or_default(),
            init,
            internal_ram,
            config,
            ram,
            rom,
            eeprom,
            pio,
            lcd,
            keys,
            serial: raw.serial.unwrap_or(true),
            parts,
        })
    }
}

/// A board file that cannot be used: which file, which line, what to do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", .file.display(), .line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct BoardFileError {
    /// The board file.
    pub file: PathBuf,
    /// The 1-based line, where known.
    pub line: Option<usize>,
    /// What is wrong and how to fix it.
    pub message: String,
}

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(1, |t| t.matches('\n').count() + 1)
}

/// A number written as a TOML integer (`0xC000`, `256`) or a string in
/// the assembler's notation (`"$C000"`, `"0xC000"`, `"%1010"`, `"256"`);
/// anything else (`256.0`, an integer past 64 bits) as written, so the
/// error names the key and line (serde's untagged enums say neither).
#[derive(Debug)]
enum Number {
    Int(i64),
    Text(String),
    Other(String),
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Number;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number")
            }
            fn visit_i64<E>(self, v: i64) -> Result<Number, E> {
                Ok(Number::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Number, E> {
                Ok(i64::try_from(v).map_or(Number::Other(v.to_string()), Number::Int))
            }
            fn visit_i128<E>(self, v: i128) -> Result<Number, E> {
                Ok(Number::Other(v.to_string()))
            }
            fn visit_u128<E>(self, v: u128) -> Result<Number, E> {
                Ok(Number::Other(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Number, E> {
                Ok(Number::Other(format!("{v:?}")))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Number, E> {
                Ok(Number::Other(v.to_string()))
            }
            fn visit_str<E>(self, v: &str) -> Result<Number, E> {
                Ok(Number::Text(v.to_string()))
            }
        }
        d.deserialize_any(Visit)
    }
}

impl Number {
    fn value(&self) -> Result<u32, String> {
        match self {
            Number::Other(v) => Err(format!(
                "{v} is not a whole number from 0 to $FFFF: write it as 256, 0x100 or \"$100\""
            )),
            Number::Int(v) => u32::try_from(*v)
                .ok()
                .filter(|v| *v <= 0xFFFF)
                .ok_or_else(|| format!("{v} is not an address or byte (0 to $FFFF)")),
            Number::Text(t) => parse_number(t),
        }
    }
}

fn parse_number(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let (digits, radix) = if let Some(h) = t.strip_prefix('$') {
        (h, 16)
    } else if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix('%') {
        (b, 2)
    } else {
        (t, 10)
    };
    u32::from_str_radix(digits, radix)
        .ok()
        .filter(|v| *v <= 0xFFFF)
        .ok_or_else(|| {
            format!("`{t}` is not an address or byte: write it as \"$C000\", 0xC000 or 49152")
        })
}

fn parse_range(text: &str) -> Result<AddrRange, String> {
    let Some((a, b)) = text.split_once('-') else {
        return Err(format!(
            "`{text}` is not a range: write it as \"$C000-$DFFF\" (first and last address)"
        ));
    };
    let (start, end) = (parse_number(a)?, parse_number(b)?);
    if start > end {
        return Err(format!(
            "`{text}` ends before it starts: give the first address, then the last"
        ));
    }
    Ok(AddrRange::new(start as u16, end as u16))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    name: Option<String>,
    description: Option<String>,
    init: Option<Spanned<Number>>,
    internal_ram: Option<Spanned<Number>>,
    config: Option<Spanned<Number>>,
    #[serde(default)]
    ram: Vec<Spanned<String>>,
    #[serde(default)]
    rom: Vec<Spanned<String>>,
    eeprom: Option<Spanned<String>>,
    pio: Option<RawPio>,
    lcd: Option<RawLcd>,
    keys: Option<Spanned<bool>>,
    serial: Option<bool>,
    #[serde(default)]
    led: Vec<super::parts::RawLed>,
    #[serde(default)]
    switch: Vec<super::parts::RawSwitch>,
    #[serde(default)]
    pot: Vec<super::parts::RawPot>,
    #[serde(default)]
    generator: Vec<super::parts::RawGenerator>,
    trace: Option<Spanned<Vec<String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPio {
    base: Spanned<Number>,
}

#[derive(Debug)]
struct RawLcd {
    select: Option<Spanned<Number>>,
    span: std::ops::Range<usize>,
}

impl<'de> Deserialize<'de> for RawLcd {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Inner {
            select: Option<Spanned<Number>>,
        }
        let s = Spanned::<Inner>::deserialize(d)?;
        let span = s.span();
        Ok(RawLcd {
            select: s.into_inner().select,
            span,
        })
    }
}

/// What the machine is built on: the board and an optional ROM image the
/// user supplied (`--rom`), loaded before the program at every reset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSetup {
    /// The board.
    pub config: Arc<BoardConfig>,
    /// ROM contents as (address, bytes), every byte inside a ROM range.
    pub rom_image: Arc<Vec<(u16, Vec<u8>)>>,
}

impl BoardSetup {
    /// The board with no ROM image.
    pub fn new(config: BoardConfig) -> Self {
        BoardSetup {
            config: Arc::new(config),
            rom_image: Arc::new(Vec::new()),
        }
    }

    /// The trainer11 with no ROM image (shared, cheap to clone).
    pub fn trainer11() -> Self {
        static T: std::sync::OnceLock<BoardSetup> = std::sync::OnceLock::new();
        T.get_or_init(|| BoardSetup::new(BoardConfig::trainer11()))
            .clone()
    }

    /// Adds a ROM image (`--rom`): every segment must lie in one of the
    /// board's ROM ranges; `name` names the image in the error.
    pub fn with_rom(
        mut self,
        segments: Vec<(u16, Vec<u8>)>,
        name: &str,
    ) -> Result<BoardSetup, String> {
        for (start, bytes) in &segments {
            let last = *start as u32 + bytes.len().saturating_sub(1) as u32;
            let inside = self
                .config
                .rom
                .iter()
                .any(|r| r.start <= *start && last <= r.end as u32);
            if !bytes.is_empty() && !inside {
                let roms: Vec<String> = self.config.rom.iter().map(|r| r.to_string()).collect();
                return Err(format!(
                    "{name}: bytes at ${start:04X}-${last:04X} are outside the ROM of board `{}` ({}); \
                     a --rom image holds the monitor's ROM only",
                    self.config.name,
                    if roms.is_empty() { "it has none".to_string() } else { roms.join(", ") }
                ));
            }
        }
        self.rom_image = Arc::new(segments);
        Ok(self)
    }
}

impl Default for BoardSetup {
    fn default() -> Self {
        Self::trainer11()
    }
}

/// The board the command line chose (`--board` on `run`, `gui`, `grade`),
/// with its name as given: `Machine::new` builds on it and it overrides an
/// assignment's `board`. Set once, like the assembler dialect.
static COMMAND_LINE: std::sync::OnceLock<(String, BoardSetup)> = std::sync::OnceLock::new();

/// Sets the board of this process (named `spec` on the command line);
/// only the first call counts (made before anything is opened).
pub fn set_default_setup(spec: &str, setup: BoardSetup) {
    let _ = COMMAND_LINE.set((spec.to_string(), setup));
}

/// The board `Machine::new` uses: the command line's, else trainer11.
pub fn default_setup() -> BoardSetup {
    COMMAND_LINE
        .get()
        .map(|(_, s)| s.clone())
        .unwrap_or_else(BoardSetup::trainer11)
}

/// The board the command line chose, with its name, if it chose one.
pub fn command_line_board() -> Option<(String, BoardSetup)> {
    COMMAND_LINE.get().cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<BoardConfig, String> {
        BoardConfig::parse(text, Path::new("b.toml")).map_err(|e| e.to_string())
    }

    #[test]
    fn minimal_file_has_documented_defaults() {
        let b = parse("ram = [\"$0100-$7FFF\"]\nrom = [\"$E000-$FFFF\"]\n").unwrap();
        assert_eq!(b.name, "b");
        assert_eq!((b.init, b.internal_ram, b.config), (0x01, 256, 0x0C));
        assert!(b.serial && !b.keys && b.lcd.is_none() && b.pio.is_none());
    }

    #[test]
    fn errors_name_file_line_and_fix() {
        let e =
            parse("name = \"x\"\nram = [\"$0100-$7FFF\"]\nrom = [\"$7000-$FFFF\"]\n").unwrap_err();
        assert_eq!(
            e,
            "b.toml:3: rom $7000-$FFFF overlaps ram $0100-$7FFF: give each address to one kind of memory"
        );
        let e = parse("\n[lcd]\nselect = 0\n").unwrap_err();
        assert!(
            e.starts_with("b.toml:2: the LCD's select lines are on the PIO"),
            "{e}"
        );
        let e = parse("ram = [\"$C000\"]\n").unwrap_err();
        assert!(e.starts_with("b.toml:1: `$C000` is not a range"), "{e}");
        let e = parse("colour = 1\n").unwrap_err();
        assert!(e.starts_with("b.toml:1: unknown field `colour`"), "{e}");
    }
}

//! The selection every panel shares and the links it lights up in the
//! others: an LCD pixel, a byte of the cell buffer (Zelle/Buffer, seed
//! manual section 2.1) and a listing line.
//!
//! Two kinds of link exist and are kept apart so the views never pass one
//! off as the other:
//! - the *layout* link between a buffer byte and the LCD pixels it becomes,
//!   from the cell layout of the seed manual (cell = 8 bytes, byte k is LCD
//!   column `boardOffset + 8*Spalte + k`, bit b is pixel row `8*Zeile + b`,
//!   cell offset = `Spalte*8 + Zeile*56`), checked against the pixels the LCD
//!   actually shows;
//! - the *provenance* link (which instruction stored a byte, where it was
//!   loaded from), which only a recording debugger can give; it arrives
//!   through [`ProvenanceSource`], and without one the views say so.

use super::i18n::{tr, trf};
use crate::image::{FileId, Program};
use crate::lesson::Lang;

/// What the student has selected: one thing at a time drives all panels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Selection {
    /// An LCD pixel, x from the left (0..128), y from the top (0..64).
    Pixel {
        /// Column, 0 = left.
        x: u8,
        /// Row, 0 = top.
        y: u8,
    },
    /// A byte of memory (normally one of the cell buffer).
    BufferByte(u16),
    /// A source line of the loaded program.
    Line {
        /// Index into [`Program::files`].
        file: FileId,
        /// 1-based line number.
        line: u32,
    },
}

/// Where a byte of LCD display RAM sits: page (8-pixel band) and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LcdRamCell {
    /// Page, 0 = top band.
    pub page: u8,
    /// Column in display RAM.
    pub column: u8,
}

/// The Zelle/Buffer layout of the loaded program: where the buffer is and
/// where it lands on the LCD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellLayout {
    /// Address of the first buffer byte (symbol `board`).
    pub base: u16,
    /// Columns of cells (Spalten): 7.
    pub columns: u8,
    /// Rows of cells (Zeilen): 6.
    pub rows: u8,
    /// LCD column of the buffer's first byte (symbol `boardOffset`, 36).
    pub lcd_offset: u8,
}

/// Bytes per cell: one per LCD column of the 8x8 pixel block.
pub const CELL_BYTES: u16 = 8;

impl CellLayout {
    /// The layout of the seed's Viergewinnt: `board` at $0040, 7 x 6 cells,
    /// LCD offset 36.
    pub const VIERGEWINNT: CellLayout = CellLayout {
        base: 0x0040,
        columns: 7,
        rows: 6,
        lcd_offset: 36,
    };

    /// The layout as the program declares it: `board` and `boardOffset` from
    /// its symbols, the 7 x 6 shape of the game. `None` when the program has
    /// no `board` symbol (it then has no cell buffer to show).
    pub fn from_program(program: &Program) -> Option<CellLayout> {
        let base = program.symbol("board")?.value;
        let lcd_offset = program
            .symbol("boardOffset")
            .and_then(|s| u8::try_from(s.value).ok())
            .unwrap_or(Self::VIERGEWINNT.lcd_offset);
        Some(CellLayout {
            base,
            lcd_offset,
            ..Self::VIERGEWINNT
        })
    }

    /// Bytes in one row of cells (`rowLength`, 56).
    pub fn row_bytes(&self) -> u16 {
        self.columns as u16 * CELL_BYTES
    }

    /// Size of the buffer in bytes (`boardSize`, 336).
    pub fn len(&self) -> u16 {
        self.row_bytes() * self.rows as u16
    }

    /// True for a layout with no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True if `addr` is a byte of the buffer.
    pub fn contains(&self, addr: u16) -> bool {
        addr >= self.base && (addr as u32) < self.base as u32 + self.len() as u32
    }

    /// (Spalte, Zeile, byte k within the cell) of a buffer address.
    pub fn cell_of(&self, addr: u16) -> Option<(u8, u8, u8)> {
        if !self.contains(addr) {
            return None;
        }
        let off = addr - self.base;
        let row = off / self.row_bytes();
        let col = (off % self.row_bytes()) / CELL_BYTES;
        let k = off % CELL_BYTES;
        Some((col as u8, row as u8, k as u8))
    }

    /// Address of byte `k` of cell (Spalte `col`, Zeile `row`).
    pub fn addr_of(&self, col: u8, row: u8, k: u8) -> u16 {
        self.base
            .wrapping_add(col as u16 * CELL_BYTES + row as u16 * self.row_bytes() + k as u16)
    }

    /// The display RAM byte a buffer byte is drawn into (page = Zeile,
    /// column = offset + 8*Spalte + k).
    pub fn lcd_cell_of(&self, addr: u16) -> Option<LcdRamCell> {
        let (col, row, k) = self.cell_of(addr)?;
        let column = self.lcd_offset as u16 + col as u16 * CELL_BYTES + k as u16;
        Some(LcdRamCell {
            page: row,
            column: u8::try_from(column).ok()?,
        })
    }

    /// The buffer byte drawn into a display RAM byte, if the layout covers it.
    pub fn addr_of_lcd_cell(&self, cell: LcdRamCell) -> Option<u16> {
        let rel = (cell.column as u16).checked_sub(self.lcd_offset as u16)?;
        let col = rel / CELL_BYTES;
        if col >= self.columns as u16 || cell.page >= self.rows {
            return None;
        }
        Some(self.addr_of(col as u8, cell.page, (rel % CELL_BYTES) as u8))
    }

    /// The formula as the manual writes it, for a buffer address:
    /// `board+$88 = Spalte 3*8 + Zeile 2*56 + Byte 0`.
    pub fn formula(&self, addr: u16) -> Option<String> {
        let (col, row, k) = self.cell_of(addr)?;
        let off = addr - self.base;
        Some(format!(
            "board+${off:02X} ({off}) = Spalte {col}*8 + Zeile {row}*{} + Byte {k}",
            self.row_bytes()
        ))
    }
}

/// A source line a link points to, and what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRole {
    /// The selected line itself.
    Selected,
    /// The line stored the byte (or a byte on the way to the pixel).
    Wrote,
    /// The line loaded the byte (or read it from a device).
    Read,
    /// The line computed the value on the way (or took it as an immediate).
    Computed,
}

/// What a selection lights up elsewhere: the view-model every panel reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Links {
    /// LCD pixels to mark.
    pub pixels: Vec<(u8, u8)>,
    /// Memory bytes to mark, with the bit when the link is one bit.
    pub bytes: Vec<(u16, Option<u8>)>,
    /// Listing lines to mark.
    pub lines: Vec<(FileId, u32, LineRole)>,
    /// Sentences for the link bar (what the link is and how it was found).
    pub notes: Vec<String>,
    /// The provenance chain, newest first, one sentence per link.
    pub chain: Vec<String>,
    /// True when the links came from recorded provenance.
    pub provenance: bool,
}

impl Links {
    /// True if the pixel is one of the linked ones.
    pub fn has_pixel(&self, x: u8, y: u8) -> bool {
        self.pixels.contains(&(x, y))
    }

    /// The linked bit of a byte: `Some(None)` for the whole byte,
    /// `Some(Some(b))` for one bit, `None` when the byte is not linked.
    pub fn byte(&self, addr: u16) -> Option<Option<u8>> {
        self.bytes.iter().find(|(a, _)| *a == addr).map(|(_, b)| *b)
    }

    /// The role of a listing line in the links, if it has one.
    pub fn line(&self, file: FileId, line: u32) -> Option<LineRole> {
        self.lines
            .iter()
            .find(|(f, l, _)| *f == file && *l == line)
            .map(|(_, _, r)| *r)
    }
}

/// One link of a provenance chain: an instruction (or the display, or the
/// program image) and the data address it read or wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainLink {
    /// `display`, `store`, `push`, `load`, `device`, `computed`,
    /// `immediate`, `initial`, `unknown` or `trimmed` (the debugger's kinds).
    pub kind: String,
    /// The instruction's address, for links that are instructions.
    pub pc: Option<u16>,
    /// The memory address it read or wrote, if any.
    pub data_address: Option<u16>,
    /// One sentence for people.
    pub text: String,
}

impl ChainLink {
    fn role(&self) -> LineRole {
        match self.kind.as_str() {
            "store" | "push" => LineRole::Wrote,
            "load" | "device" => LineRole::Read,
            _ => LineRole::Computed,
        }
    }
}

/// Recorded history of what the program did, as the debugger gives it:
/// where a byte or a pixel came from, newest link first (`None` when
/// provenance is not tracked).
pub trait ProvenanceSource {
    /// The chain behind the byte at `addr`.
    fn explain_byte(&self, addr: u16) -> Option<Vec<ChainLink>>;
    /// The chain behind LCD pixel (x, y): the display RAM byte, the
    /// instruction that sent it, where that was loaded from, ...
    fn explain_pixel(&self, x: u8, y: u8) -> Option<Vec<ChainLink>>;
}

/// What the link computation needs to know about the machine.
pub struct LinkInputs<'a> {
    /// The loaded program (lines, symbols).
    pub program: Option<&'a Program>,
    /// Its cell buffer layout.
    pub layout: Option<CellLayout>,
    /// Display RAM byte and bit behind a pixel, as the LCD controller maps
    /// it (start line, ADC, COM direction); `None` off the display.
    pub pixel_to_ram: &'a dyn Fn(u8, u8) -> Option<(LcdRamCell, u8)>,
    /// The pixel showing bit `bit` of a display RAM byte.
    pub ram_to_pixel: &'a dyn Fn(LcdRamCell, u8) -> Option<(u8, u8)>,
    /// What is lit on the LCD.
    pub pixel_on: &'a dyn Fn(u8, u8) -> bool,
    /// Memory, without side effects.
    pub peek: &'a dyn Fn(u16) -> u8,
    /// Recorded provenance.
    pub provenance: Option<&'a dyn ProvenanceSource>,
    /// The language of the notes.
    pub lang: Lang,
}

/// Display RAM pages and columns scanned for a line's pixels.
const RAM_PAGES: u8 = 8;
const RAM_COLUMNS: u8 = 128;

/// Computes what `selection` lights up.
pub fn compute(selection: Selection, inp: &LinkInputs<'_>) -> Links {
    let mut links = Links::default();
    match selection {
        Selection::Pixel { x, y } => {
            links.pixels.push((x, y));
            let Some((ram, bit)) = (inp.pixel_to_ram)(x, y) else {
                links.notes.push(trf(
                    inp.lang,
                    "Pixel ({},{}) is off the display.",
                    &[&x, &y],
                ));
                return links;
            };
            links.notes.push(trf(
                inp.lang,
                "LCD RAM page {} column {} bit {}",
                &[&ram.page, &ram.column, &bit],
            ));
            let chain = inp.provenance.and_then(|p| p.explain_pixel(x, y));
            // The buffer byte the pixel was loaded from, as recorded: the
            // first load from the cell buffer in the chain.
            let recorded = chain.as_ref().and_then(|c| {
                c.iter()
                    .filter(|l| l.kind == "load")
                    .filter_map(|l| l.data_address)
                    .find(|a| inp.layout.is_some_and(|lay| lay.contains(*a)))
            });
            let by_layout = inp.layout.and_then(|l| l.addr_of_lcd_cell(ram));
            match (recorded, by_layout) {
                (Some(a), _) => {
                    if by_layout.is_some_and(|b| b != a) {
                        links.notes.push(trf(
                            inp.lang,
                            "recorded: loaded from ${}, not where the cell layout puts it",
                            &[&format!("{a:04X}")],
                        ));
                    }
                    link_buffer_byte(&mut links, inp, a, Some(bit));
                }
                (None, Some(a)) => {
                    if chain.is_some() {
                        links.notes.push(
                            tr(
                                inp.lang,
                                "no recorded load from the cell buffer behind this pixel \
                                 (yet); shown by the cell layout",
                            )
                            .into(),
                        );
                    }
                    link_buffer_byte(&mut links, inp, a, Some(bit));
                }
                // Without the program's `board` buffer (an image without
                // symbols) nothing says where the cell buffer is.
                (None, None) if inp.layout.is_none() => links.notes.push(
                    tr(
                        inp.lang,
                        "the cell buffer is unknown: the program names no `board` buffer (an image without symbols)",
                    )
                    .into(),
                ),
                (None, None) => links
                    .notes
                    .push(tr(inp.lang, "not drawn from the cell buffer (text or cursor)").into()),
            }
            match chain {
                Some(c) => add_chain(&mut links, inp, &c),
                None => links.notes.push(untracked(inp).into()),
            }
        }
        Selection::BufferByte(addr) => {
            links.bytes.push((addr, None));
            if let Some(layout) = inp.layout {
                if let Some(cell) = layout.lcd_cell_of(addr) {
                    add_pixels_of_ram(&mut links, inp, cell);
                    if let Some(f) = layout.formula(addr) {
                        links.notes.push(f);
                    }
                    links.notes.push(trf(
                        inp.lang,
                        "drawn to LCD RAM page {} column {}",
                        &[&cell.page, &cell.column],
                    ));
                }
            }
            match inp.provenance.and_then(|p| p.explain_byte(addr)) {
                Some(c) => add_chain(&mut links, inp, &c),
                None => links.notes.push(untracked(inp).into()),
            }
        }
        Selection::Line { file, line } => {
            links.lines.push((file, line, LineRole::Selected));
            let Some(program) = inp.program else {
                return links;
            };
            let pcs: Vec<u16> = program.addrs_of_line(file, line).map(|e| e.addr).collect();
            for e in program.addrs_of_line(file, line) {
                let bytes: Vec<String> = (0..e.len.min(8))
                    .filter_map(|i| program.byte_at(e.addr.wrapping_add(i)))
                    .map(|b| format!("{b:02X}"))
                    .collect();
                links.notes.push(trf(
                    inp.lang,
                    "assembled to ${}: {}",
                    &[&format!("{:04X}", e.addr), &bytes.join(" ")],
                ));
            }
            let Some(prov) = inp.provenance else {
                links.notes.push(tr(inp.lang, RECORDING_OFF).into());
                return links;
            };
            if pcs.is_empty() {
                return links;
            }
            links.provenance = true;
            let by_line =
                |c: &[ChainLink]| c.iter().any(|l| l.pc.is_some_and(|pc| pcs.contains(&pc)));
            // Buffer bytes whose recorded history passes through this line.
            if let Some(layout) = inp.layout {
                for addr in layout.base..layout.base.saturating_add(layout.len()) {
                    if prov.explain_byte(addr).is_some_and(|c| by_line(&c)) {
                        links.bytes.push((addr, None));
                    }
                }
            }
            // Display RAM bytes (and so pixels) whose history passes through
            // it; a load on this line that read the cell buffer on the way
            // (`ldaa 0,y` in drawCell) lights the buffer bytes it read.
            for page in 0..RAM_PAGES {
                for column in 0..RAM_COLUMNS {
                    let cell = LcdRamCell { page, column };
                    let Some((x, y)) = (inp.ram_to_pixel)(cell, 0) else {
                        continue;
                    };
                    let Some(chain) = prov.explain_pixel(x, y).filter(|c| by_line(c)) else {
                        continue;
                    };
                    add_pixels_of_ram(&mut links, inp, cell);
                    let read = chain
                        .iter()
                        .filter(|l| l.pc.is_some_and(|pc| pcs.contains(&pc)))
                        .filter_map(|l| l.data_address)
                        .filter(|a| inp.layout.is_some_and(|lay| lay.contains(*a)));
                    for a in read {
                        if links.byte(a).is_none() {
                            links.bytes.push((a, None));
                        }
                    }
                }
            }
            links.notes.push(trf(
                inp.lang,
                "touched in the last run: {} buffer byte(s), {} pixel(s)",
                &[&links.bytes.len(), &links.pixels.len()],
            ));
        }
    }
    links
}

const RECORDING_OFF: &str = "no recorded data flow: recording is off (Debug > Record data flow)";

/// Why a selection has no recorded chain: recording is off, or nothing
/// was recorded for it (never written since recording started).
fn untracked(inp: &LinkInputs<'_>) -> &'static str {
    if inp.provenance.is_none() {
        tr(inp.lang, RECORDING_OFF)
    } else {
        tr(
            inp.lang,
            "nothing recorded for it yet: not written since the data flow recording started",
        )
    }
}

fn add_pixels_of_ram(links: &mut Links, inp: &LinkInputs<'_>, cell: LcdRamCell) {
    for bit in 0..8 {
        if let Some(p) = (inp.ram_to_pixel)(cell, bit) {
            if !links.has_pixel(p.0, p.1) {
                links.pixels.push(p);
            }
        }
    }
}

fn link_buffer_byte(links: &mut Links, inp: &LinkInputs<'_>, addr: u16, bit: Option<u8>) {
    links.bytes.push((addr, bit));
    if let Some(f) = inp.layout.and_then(|l| l.formula(addr)) {
        links.notes.push(f);
    }
    if let (Some(b), Some((x, y))) = (bit, links.pixels.first().copied()) {
        // Say whether the LCD agrees with the buffer right now (it does not
        // between a store into the buffer and the next drawBoard).
        let buf = (inp.peek)(addr) >> b & 1 == 1;
        let lcd = (inp.pixel_on)(x, y);
        links.notes.push(if buf == lcd {
            trf(
                inp.lang,
                "bit {} = {} in the buffer and on the LCD",
                &[&b, &(buf as u8)],
            )
        } else {
            trf(
                inp.lang,
                "bit {} = {} in the buffer but {} on the LCD (not drawn since)",
                &[&b, &(buf as u8), &(lcd as u8)],
            )
        });
    }
}

/// The lines of a recorded chain, with their roles, and its sentences.
fn add_chain(links: &mut Links, inp: &LinkInputs<'_>, chain: &[ChainLink]) {
    links.provenance = true;
    for l in chain {
        links.chain.push(l.text.clone());
        let Some(e) = l.pc.and_then(|pc| inp.program.and_then(|p| p.line_at(pc))) else {
            continue;
        };
        if links.line(e.file, e.line).is_none() {
            links.lines.push((e.file, e.line, l.role()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_example_spalte_3_zeile_2_is_136() {
        let l = CellLayout::VIERGEWINNT;
        assert_eq!(l.addr_of(3, 2, 0), 0x0040 + 136);
        assert_eq!(l.cell_of(0x0040 + 136), Some((3, 2, 0)));
        assert_eq!(l.len(), 336);
        assert_eq!(
            l.formula(0x0040 + 136).as_deref(),
            Some("board+$88 (136) = Spalte 3*8 + Zeile 2*56 + Byte 0")
        );
    }

    #[test]
    fn buffer_and_lcd_cells_round_trip() {
        let l = CellLayout::VIERGEWINNT;
        for addr in l.base..l.base + l.len() {
            let cell = l.lcd_cell_of(addr).unwrap();
            assert!(cell.column >= 36 && cell.column < 92 && cell.page < 6);
            assert_eq!(l.addr_of_lcd_cell(cell), Some(addr));
        }
        assert_eq!(l.lcd_cell_of(l.base + l.len()), None);
        assert_eq!(
            l.addr_of_lcd_cell(LcdRamCell {
                page: 0,
                column: 35
            }),
            None
        );
        assert_eq!(
            l.addr_of_lcd_cell(LcdRamCell {
                page: 6,
                column: 40
            }),
            None
        );
    }

    fn straight(x: u8, y: u8) -> Option<(LcdRamCell, u8)> {
        (x < 128 && y < 64).then_some((
            LcdRamCell {
                page: y / 8,
                column: x,
            },
            y % 8,
        ))
    }
    fn straight_back(c: LcdRamCell, bit: u8) -> Option<(u8, u8)> {
        (c.page < 8 && c.column < 128).then_some((c.column, c.page * 8 + bit))
    }

    /// Inputs with the Viergewinnt layout, no program, no provenance, the
    /// display RAM mapped straight, every pixel off, memory read by `peek`.
    fn plain_inputs<'a>(peek: &'a dyn Fn(u16) -> u8) -> LinkInputs<'a> {
        LinkInputs {
            program: None,
            layout: Some(CellLayout::VIERGEWINNT),
            pixel_to_ram: &straight,
            ram_to_pixel: &straight_back,
            pixel_on: &|_, _| false,
            peek,
            provenance: None,
            lang: Lang::En,
        }
    }

    #[test]
    fn without_provenance_the_layout_links_pixel_and_byte_and_says_so() {
        let mem = [0u8; 0x10000];
        let peek = |a: u16| mem[a as usize];
        let inp = plain_inputs(&peek);
        // Pixel (63,43): column 63 = 36 + 8*3 + 3, row 43 = 8*5 + 3.
        let links = compute(Selection::Pixel { x: 63, y: 43 }, &inp);
        assert_eq!(links.bytes, vec![(0x0040 + 3 * 8 + 5 * 56 + 3, Some(3))]);
        assert!(!links.provenance);
        assert!(links.notes.iter().any(|n| n.contains("recording is off")));

        let links = compute(Selection::BufferByte(0x0040 + 136), &inp);
        assert_eq!(links.pixels.len(), 8);
        assert!(links.has_pixel(60, 16) && links.has_pixel(60, 23));
    }

    /// Without a cell layout (an image without the `board` symbol) a
    /// pixel is not claimed to be text or the cursor: the buffer is unknown.
    #[test]
    fn without_a_layout_the_buffer_is_unknown_not_text() {
        let mem = [0u8; 0x10000];
        let peek = |a: u16| mem[a as usize];
        let mut inp = LinkInputs {
            layout: None,
            ..plain_inputs(&peek)
        };
        let links = compute(Selection::Pixel { x: 63, y: 43 }, &inp);
        assert!(
            links
                .notes
                .iter()
                .any(|n| n.contains("the cell buffer is unknown")),
            "{:?}",
            links.notes
        );
        assert!(!links.notes.iter().any(|n| n.contains("text or cursor")));
        inp.layout = Some(CellLayout::VIERGEWINNT);
        // A pixel outside the board (the text on the left) is text.
        let links = compute(Selection::Pixel { x: 2, y: 2 }, &inp);
        assert!(
            links.notes.iter().any(|n| n.contains("text or cursor")),
            "{:?}",
            links.notes
        );
    }

    /// A recorded history in which the instruction at $C010 stored $0040
    /// (loaded by $C008 from $C100) and $C020 loaded $0040 and sent it to
    /// the display RAM byte of column 36, page 0.
    struct Fake;
    fn link(kind: &str, pc: Option<u16>, data: Option<u16>) -> ChainLink {
        ChainLink {
            kind: kind.into(),
            pc,
            data_address: data,
            text: format!("{kind} at {pc:?}"),
        }
    }
    impl ProvenanceSource for Fake {
        fn explain_byte(&self, addr: u16) -> Option<Vec<ChainLink>> {
            Some(if addr == 0x0040 {
                vec![
                    link("store", Some(0xC010), Some(0x0040)),
                    link("load", Some(0xC008), Some(0xC100)),
                ]
            } else {
                vec![link("unknown", None, None)]
            })
        }
        fn explain_pixel(&self, x: u8, y: u8) -> Option<Vec<ChainLink>> {
            Some(if x == 36 && y < 8 {
                vec![
                    link("display", None, None),
                    link("store", Some(0xC030), Some(0x102A)),
                    link("load", Some(0xC020), Some(0x0040)),
                    link("store", Some(0xC010), Some(0x0040)),
                ]
            } else {
                vec![link("unknown", None, None)]
            })
        }
    }

    fn entry(addr: u16, line: u32) -> crate::image::LineEntry {
        crate::image::LineEntry {
            addr,
            len: 2,
            file: 0,
            line,
        }
    }

    #[test]
    fn provenance_feeds_lines_bytes_and_pixels() {
        let program = Program {
            lines: vec![
                entry(0xC008, 5),
                entry(0xC010, 7),
                entry(0xC020, 9),
                entry(0xC030, 11),
            ],
            ..Program::default()
        };
        let peek = |_| 0u8;
        let inp = LinkInputs {
            program: Some(&program),
            layout: Some(CellLayout::VIERGEWINNT),
            pixel_to_ram: &straight,
            ram_to_pixel: &straight_back,
            pixel_on: &|_, _| false,
            peek: &peek,
            provenance: Some(&Fake),
            lang: Lang::En,
        };
        let links = compute(Selection::Pixel { x: 36, y: 2 }, &inp);
        assert_eq!(links.bytes, vec![(0x0040, Some(2))]);
        assert_eq!(links.line(0, 11), Some(LineRole::Wrote));
        assert_eq!(links.line(0, 9), Some(LineRole::Read));
        assert_eq!(links.line(0, 7), Some(LineRole::Wrote));
        assert_eq!(links.chain.len(), 4);

        let links = compute(Selection::BufferByte(0x0040), &inp);
        assert_eq!(links.line(0, 7), Some(LineRole::Wrote));
        assert_eq!(links.line(0, 5), Some(LineRole::Read));

        // The line that stored $0040: that byte, and the pixels of the
        // display byte whose history passes through it.
        let links = compute(Selection::Line { file: 0, line: 7 }, &inp);
        assert_eq!(links.byte(0x0040), Some(None));
        assert!((0..8).all(|y| links.has_pixel(36, y)));
        assert_eq!(links.pixels.len(), 8);
    }
}

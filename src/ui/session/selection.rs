//! The selection and its links: what the user picked (a listing line, a
//! memory byte, a cell, an LCD pixel), the listing lines, bytes and pixels
//! linked to it, and the debugger's provenance chains behind them.

use super::*;

impl Session {
    /// Clears the selection.
    pub fn clear_selection(&mut self) {
        self.selection = None;
        self.links_dirty = true;
    }

    /// Selects something; the links follow.
    pub fn select(&mut self, sel: Selection) {
        self.selection = Some(sel);
        self.links_dirty = true;
        match sel {
            Selection::BufferByte(_) => self.reveal_mem = Some(sel),
            // The memory view follows a pixel to the buffer byte it comes from.
            Selection::Pixel { .. } => {
                if let Some((a, _)) = self.links().bytes.first().copied() {
                    self.reveal_mem = Some(Selection::BufferByte(a));
                }
            }
            Selection::Line { .. } => {}
        }
    }

    /// The links of the current selection.
    pub fn links(&mut self) -> &Links {
        if self.links_dirty {
            self.links_dirty = false;
            self.links_at = Some(Instant::now());
            self.links = match self.selection {
                None => Links::default(),
                Some(sel) => self.compute_links(sel),
            };
        }
        &self.links
    }

    fn compute_links(&self, sel: Selection) -> Links {
        let lcd = self.machine().map(|m| m.lcd());
        // Pixel -> display RAM through the controller's own mapping (start
        // line, ADC, COM direction), and its inverse by walking all pixels.
        let pixel_to_ram = |x: u8, y: u8| -> Option<(LcdRamCell, u8)> {
            let (page, column, bit) = lcd?.ram_location(x as usize, y as usize)?;
            Some((
                LcdRamCell {
                    page: u8::try_from(page).ok()?,
                    column: u8::try_from(column).ok()?,
                },
                bit,
            ))
        };
        // ((page, column, bit), (x, y)), sorted for binary search.
        let mut inverse: Vec<RamPixel> = Vec::new();
        if lcd.is_some() {
            for y in 0..HEIGHT as u8 {
                for x in 0..WIDTH as u8 {
                    if let Some((c, b)) = pixel_to_ram(x, y) {
                        inverse.push(((c.page, c.column, b), (x, y)));
                    }
                }
            }
            inverse.sort_unstable();
        }
        let ram_to_pixel = |c: LcdRamCell, bit: u8| -> Option<(u8, u8)> {
            let key = (c.page, c.column, bit);
            inverse
                .binary_search_by(|(k, _)| k.cmp(&key))
                .ok()
                .and_then(|i| inverse.get(i))
                .map(|(_, p)| *p)
        };
        let peek = |a: u16| self.peek(a);
        let pixel_on = |x: u8, y: u8| lcd.is_some_and(|l| l.pixel(x as usize, y as usize));
        let prov = self
            .dbg
            .as_ref()
            .filter(|d| d.provenance())
            .map(|d| DebuggerProvenance(d, self.lang));
        let inp = LinkInputs {
            program: self.program.as_deref(),
            layout: self.layout(),
            pixel_to_ram: &pixel_to_ram,
            ram_to_pixel: &ram_to_pixel,
            pixel_on: &pixel_on,
            peek: &peek,
            provenance: prov.as_ref().map(|p| p as &dyn ProvenanceSource),
            lang: self.lang,
        };
        links::compute(sel, &inp)
    }

    /// Switches data-flow recording (provenance, the links' source) on or
    /// off. Off drops what was recorded; on records from now on, so the
    /// links miss what ran in between until the next reset.
    pub fn set_record_links(&mut self, on: bool) {
        self.settings.record_links = on;
        let cycles = self.cycles();
        if let Some(d) = self.dbg.as_mut() {
            let was = d.provenance();
            d.set_provenance(on);
            if on && !was {
                self.recording_since = Some(cycles);
            }
        }
        self.links_dirty = true;
    }

    /// What the links cannot show because of recording: `None` when data
    /// flow is recorded since reset, else a warning for the links panel.
    pub fn links_coverage(&self) -> Option<String> {
        let d = self.dbg.as_ref()?;
        if !d.provenance() {
            return Some(
                tr(
                    self.lang,
                    "Recording data flow is off (Debug menu): links show only the buffer/LCD \
                     formula, not which lines stored or loaded a byte.",
                )
                .into(),
            );
        }
        self.recording_since.map(|c| {
            trf(
                self.lang,
                "Data flow recorded only since cycle {}, when recording was switched back \
                 on: bytes written earlier show no writer. Reset to record from power-on.",
                &[&c],
            )
        })
    }
}

/// The debugger's provenance, as the link view-model asks for it.
struct DebuggerProvenance<'a>(&'a Debugger<Machine>, Lang);

/// The chain's links for the link view-model, each sentence in `lang`
/// (`pixel`: the pixel a pixel's chain starts at, with its display RAM
/// place and state, for the first link's words).
fn chain_links(
    chain: Vec<crate::debug::report::LinkReport>,
    lang: Lang,
    pixel: Option<crate::ui::debug_words::PixelPlace>,
) -> Vec<ChainLink> {
    chain
        .into_iter()
        .map(|l| {
            // `display`, `initial`, `unknown` and `trimmed` links are not
            // instructions: their address is no code address.
            let instruction = !matches!(
                l.kind.as_str(),
                "display" | "initial" | "unknown" | "trimmed"
            );
            let text = crate::ui::debug_words::link_words(lang, &l, pixel).unwrap_or(l.text);
            ChainLink {
                pc: instruction.then_some(l.address),
                data_address: l.data_address,
                kind: l.kind,
                text,
            }
        })
        .collect()
}

impl ProvenanceSource for DebuggerProvenance<'_> {
    fn explain_byte(&self, addr: u16) -> Option<Vec<ChainLink>> {
        self.0
            .explain_address(addr)
            .ok()
            .map(|e| chain_links(e.chain, self.1, None))
    }

    fn explain_pixel(&self, x: u8, y: u8) -> Option<Vec<ChainLink>> {
        let lcd = self.0.target().lcd();
        let (xs, ys) = (x as usize, y as usize);
        let pixel = lcd.ram_location(xs, ys).map(|(page, column, bit)| {
            crate::ui::debug_words::PixelPlace {
                x,
                y,
                page,
                column,
                bit,
                on: lcd.pixel(xs, ys),
            }
        });
        self.0
            .explain_pixel(xs, ys)
            .ok()
            .map(|e| chain_links(e.chain, self.1, pixel))
    }
}

//! Where memory lies: what answers at an address (RAM, ROM, EEPROM, the
//! PIO, the register block, nothing), what a program may be loaded to,
//! and the words load errors and placement warnings use for it.

use super::map::{self, Kind, READ_DIRECT, WRITE_DIRECT};
use super::{pio, Board, Device, PIO_BASE, UNMAPPED_READ};

impl Board {
    /// Where the register block is now (INIT's low nibble x $1000).
    pub fn register_base(&self) -> u16 {
        self.map.reg_base
    }

    /// The device address ranges (first, last): the register block where
    /// INIT put it and the PIO, if the board has one.
    pub fn device_ranges(&self) -> Vec<(u16, u16)> {
        let base = self.map.reg_base;
        let cfg = &self.setup.config;
        let mut v = vec![(base, base.wrapping_add(map::REGISTER_BLOCK - 1))];
        if let Some(p) = cfg.pio {
            v.push((p, p + 3));
        }
        if let Some(a) = cfg.acia {
            v.push((a.base, a.base + 1));
        }
        v.extend(cfg.open.iter().map(|o| (o.range.start, o.range.end)));
        v
    }

    /// True if `addr` is in [`Board::device_ranges`] (without building them).
    pub fn is_device(&self, addr: u16) -> bool {
        addr.wrapping_sub(self.map.reg_base) < map::REGISTER_BLOCK
            || self
                .setup
                .config
                .pio
                .is_some_and(|p| addr.wrapping_sub(p) < 4)
            || (self.kind_below_registers(addr) == Kind::Unmapped && self.external_at(addr))
    }

    /// Where the internal RAM is now (INIT's high nibble x $1000).
    pub fn internal_ram_base(&self) -> u16 {
        self.map.ram_base
    }

    /// Clears RAM and program memory to zero.
    pub fn clear_memory(&mut self) {
        self.mem.fill(0);
    }

    /// Stores `bytes` at `addr` directly (the loader's path: program memory
    /// and EEPROM are writable here). Bytes that would fall outside RAM,
    /// EEPROM or program memory are refused, nothing is stored, and the
    /// address of the first such byte is returned ($10000 for bytes past $FFFF).
    pub fn load(&mut self, addr: u16, bytes: &[u8]) -> Result<(), u32> {
        for i in 0..bytes.len() {
            let a = addr as u32 + i as u32;
            match u16::try_from(a) {
                Ok(a16) if self.is_loadable(a16) => {}
                _ => return Err(a),
            }
        }
        let start = addr as usize;
        if let Some(dst) = self.mem.get_mut(start..start + bytes.len()) {
            dst.copy_from_slice(bytes);
        }
        Ok(())
    }

    /// True for addresses a program may be loaded to: RAM, EEPROM and
    /// program memory, not under the register block. A read of such an
    /// address has no side effect.
    #[inline]
    pub fn is_loadable(&self, addr: u16) -> bool {
        // The halt check asks this on every backward branch: the page
        // table answers for plain pages, the decoder for the rest.
        !self.map.is_register(addr)
            && (self.map.pages[(addr >> 8) as usize] & READ_DIRECT != 0
                || self.map.is_loadable(&self.setup.config, addr))
    }

    /// True if a CPU write of `addr` just stores the byte in RAM.
    #[inline]
    pub fn is_plain_ram(&self, addr: u16) -> bool {
        if self.map.is_register(addr) {
            return false;
        }
        self.map.pages[(addr >> 8) as usize] & WRITE_DIRECT != 0
            || self.map.kind_at(&self.setup.config, addr) == Kind::Ram
    }

    /// The loadable ranges in words, for load errors.
    pub fn describe_loadable(&self) -> String {
        self.map.describe_loadable(&self.setup.config)
    }

    /// The RAM ranges in words ("$0040-$7FFF"), for messages that say
    /// where a variable belongs; empty if the board has no RAM.
    pub fn describe_ram(&self) -> String {
        self.map.describe_ram(&self.setup.config)
    }

    /// What answers at `addr` below the register block (which
    /// [`Board::device_ranges`] gives): RAM, ROM, EEPROM, the PIO or nothing.
    pub fn kind_at(&self, addr: u16) -> Kind {
        self.kind_below_registers(addr)
    }

    /// True if every byte of the 64-byte block `b` ($40 * b on) is RAM
    /// ([`Board::is_ram`]); false may still be RAM byte by byte.
    pub(crate) fn block_is_ram(&self, b: usize) -> bool {
        self.map.block_is_ram(b)
    }

    /// True if `addr` is RAM (not a register, the PIO, ROM or EEPROM): the
    /// bytes [`Board::set_watch`] can watch.
    pub(crate) fn is_ram(&self, addr: u16) -> bool {
        !self.map.is_register(addr) && self.kind_below_registers(addr) == Kind::Ram
    }

    /// What answers at `abs` (not a register): the PIO is tried right after
    /// the internal RAM, since programs poll it (keys) all the time.
    #[inline]
    pub(super) fn kind_below_registers(&self, abs: u16) -> Kind {
        if let Some(base) = self.map.pio {
            if abs.wrapping_sub(base) < 4 && !self.map.is_internal_ram(abs) {
                return Kind::Pio;
            }
        }
        self.map.kind_at(&self.setup.config, abs)
    }

    /// The PIO register (as [`Pio`] numbers them, $8000-$8003) at `abs`.
    pub(super) fn pio_register(&self, abs: u16) -> u16 {
        pio::PIO_A + abs.wrapping_sub(self.setup.config.pio.unwrap_or(PIO_BASE))
    }

    /// A read of memory below the registers (not a device).
    pub(super) fn peek_memory(&self, abs: u16) -> u8 {
        match self.kind_below_registers(abs) {
            Kind::Ram | Kind::Rom => self.mem[abs as usize],
            Kind::Eeprom if !self.map.eeprom_latched => self.mem[abs as usize],
            Kind::Pio => self.pio.peek(self.pio_register(abs), self.now),
            Kind::Eeprom => UNMAPPED_READ,
            Kind::Unmapped => self.peek_external(abs),
        }
    }
}

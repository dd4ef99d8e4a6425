//! CPU accesses: the direct path to memory (one bit of one byte per
//! access) and, off it, the register block, the PIO, watched RAM, ROM and
//! EEPROM writes and nothing; the code fetch; [`Bus`] for the board.

use super::map::Kind;
use super::{adc, pio, ports, Board, BusFault, Device, InputKind};
use super::{ACTIVITY_SCDR, ACTIVITY_SPDR, CODE_PAD, IRQ_VECTOR, UNMAPPED_READ};
use crate::cpu::Bus;

impl Board {
    /// The byte a read of `addr` returns now, if that read changes no
    /// device state (arms no flag clear, is not TCNT) and every read
    /// returns the same until the next device event or a CPU write; with
    /// the input it polls, if it is an input register (the read notes the
    /// poll, [`Board::last_input_poll`], and nothing else). Plain memory
    /// and ROM; SPSR while SPIF and WCOL are clear; SCSR while TDRE, TC,
    /// RDRF and OR are clear (a serial poll if the receiver is on); the
    /// keys on PIO_B; PORTA; PORTE, ADCTL and ADR1-ADR4. None for every
    /// other address. Due events must have been serviced (as after every
    /// step's tick). The machine's poll-loop skip reads through this
    /// ([`crate::machine`]); as `read_io` dispatches.
    pub(crate) fn quiet_read(&self, addr: u16) -> Option<(u8, Option<InputKind>)> {
        if self.reads_direct(addr) {
            return Some((self.mem[addr as usize], None));
        }
        let now = self.now;
        let reg = addr.wrapping_sub(self.map.reg_base);
        if self.map.is_register(addr) {
            return match reg {
                0x29 => self.spi.quiet_status(now).map(|v| (v, None)),
                0x2E => {
                    let poll = self.sci.receiver_enabled().then_some(InputKind::Serial);
                    self.sci.quiet_status(now).map(|v| (v, poll))
                }
                ports::addr::PORTA => Some((self.timer.porta(), Some(InputKind::PortA))),
                ports::addr::PORTE | 0x30..=0x34 => {
                    Some((self.peek_io(addr), Some(InputKind::Analog)))
                }
                _ => None,
            };
        }
        match self.kind_below_registers(addr) {
            Kind::Pio if self.pio_register(addr) == pio::PIO_B && self.setup.config.keys => {
                Some((self.pio.peek(pio::PIO_B, now), Some(InputKind::Keys)))
            }
            _ => None,
        }
    }

    /// The eight bytes from `pc` as [`Bus::code`] gives them (`pc` where
    /// [`MemoryMap::code_direct`] holds).
    #[inline(always)]
    pub(super) fn code_at(&self, pc: u16) -> u64 {
        let at = pc as usize;
        let mut bytes = [0u8; CODE_PAD];
        bytes.copy_from_slice(&self.mem[at..at + CODE_PAD]);
        u64::from_be_bytes(bytes)
    }

    /// [`Bus::fetch`] where the next page is not direct: the instruction
    /// may still lie in this one, else it is read byte by byte. Cold, so
    /// that the hot loops' fetch runs straight into the dispatch.
    #[cold]
    #[inline(never)]
    pub(super) fn fetch_cold(&mut self, pc: u16) -> u64 {
        if self.map.code_direct_in_page(pc) {
            self.code_at(pc)
        } else {
            crate::cpu::core::fetch_code(self, pc)
        }
    }

    /// The PIO data port (0 A, 1 B, 2 C) a CPU access of `abs` reaches,
    /// if one does (the register block and the internal RAM come first).
    #[inline(always)]
    pub(super) fn pio_port_at(&self, abs: u16) -> Option<usize> {
        let base = self.map.pio?;
        let r = abs.wrapping_sub(base);
        (r < 3 && !self.map.is_register(abs) && !self.map.is_internal_ram(abs))
            .then_some(r as usize)
    }

    /// A read that is not plain memory. The accesses of an LCD byte (the
    /// PIO's port C, PORTD, SPSR and SPDR) are answered here; the rest in
    /// [`Board::read_io_rest`], so this function stays small enough to need
    /// no saved registers on those paths.
    #[inline(never)]
    pub(super) fn read_io(&mut self, abs: u16) -> u8 {
        self.catch_up();
        let now = self.now;
        let addr = abs.wrapping_sub(self.map.reg_base);
        match addr {
            // SPCR and SPSR: a read only arms the SPIF clear (events due
            // were serviced above), which no interrupt looks at.
            0x28 | 0x29 => return self.spi.read(addr, now),
            // SPDR: clears SPIF (after SPSR was read with it set), which
            // the IRQ looks at if the SPI may interrupt.
            0x2A => {
                let v = self.spi.read(addr, now);
                if self.spi.interrupts_enabled() {
                    self.update_irq();
                }
                return v;
            }
            ports::addr::PORTD => return self.ports.port_d_pins(),
            _ => {}
        }
        // A data port, but not the keys: their read is an input poll, which
        // `read_io_rest` notes (and `Board::quiet_read` knows).
        match self.pio_port_at(abs) {
            Some(p) if p != 1 || !self.setup.config.keys => self.pio.port(p),
            _ => self.read_io_rest(abs),
        }
    }

    // `Board::quiet_read` knows the same input registers (the poll-loop
    // skip's side-effect-free read): a change here belongs there too.
    #[inline(never)]
    pub(super) fn read_io_rest(&mut self, abs: u16) -> u8 {
        let now = self.now;
        let addr = abs.wrapping_sub(self.map.reg_base);
        // Only a read of the timer, SPI or SCI block (SPSR then SPDR clears
        // SPIF, say) or the IRQ vector fetch can change what `update_irq`
        // looks at: the pins, OPTION and those three devices' flags.
        // Due events were serviced (and the IRQ updated) by `catch_up`.
        match addr {
            // (SPCR, SPSR and SPDR are `read_io`'s; here for completeness.)
            0x0B..=0x2F => {
                let v = match addr {
                    0x0B..=0x27 => self.timer.read(addr, now),
                    0x28..=0x2A => self.spi.read(addr, now),
                    _ => {
                        if addr == 0x2E && self.sci.receiver_enabled() {
                            self.input_poll = Some((now, InputKind::Serial));
                        }
                        let v = self.sci.read(addr, now);
                        // A typed byte is sent once the program took the
                        // one before: the read may make a new event.
                        self.event_at(self.sci.next_due());
                        v
                    }
                };
                self.update_irq();
                v
            }
            0x0000..=0x003F => match addr {
                ports::addr::PPROG => self.eeprom.pprog(),
                ports::addr::PORTA => {
                    self.input_poll = Some((now, InputKind::PortA));
                    self.timer.porta()
                }
                ports::addr::PORTE | 0x30..=0x34 => {
                    self.input_poll = Some((now, InputKind::Analog));
                    // `peek_io` takes the absolute address, as the bus sees it.
                    self.peek_io(abs)
                }
                _ => self.ports.read(addr, now),
            },
            // A watched block of RAM: the memory as the direct path reads
            // it, and the watch's log (without the lookups below).
            _ if self.map.direct_but_for_watch(abs, false) => {
                let v = self.mem[abs as usize];
                self.log_watched(abs, v, false);
                v
            }
            _ => match self.kind_below_registers(abs) {
                Kind::Pio => {
                    let reg = self.pio_register(abs);
                    if reg == pio::PIO_B && self.setup.config.keys {
                        self.input_poll = Some((now, InputKind::Keys));
                    }
                    self.pio.read(reg, now)
                }
                Kind::Unmapped if self.external_at(abs) => self.read_external(abs),
                kind => {
                    if self.map.vector_watch && (abs == IRQ_VECTOR || abs == IRQ_VECTOR + 1) {
                        // The IRQ vector fetch clears the edge latch.
                        self.irq_edge = false;
                        self.map.vector_watch = false;
                        self.map.rebuild(&self.setup.config);
                        self.update_irq();
                    }
                    let v = self.peek_memory(abs);
                    // Watched blocks come here (plain RAM otherwise is read
                    // straight from memory).
                    if kind == Kind::Ram && self.watch.on.is_some() {
                        self.log_watched(abs, v, false);
                    }
                    v
                }
            },
        }
    }

    /// A write that is not plain memory. The PIO's data latches are
    /// answered here, the rest in [`Board::write_io_rest`] (see
    /// [`Board::read_io`]).
    #[inline(never)]
    pub(super) fn write_io(&mut self, abs: u16, value: u8) {
        self.catch_up();
        // The PIO starts no transfer and raises no interrupt: no device's
        // next event or IRQ can change (the SPI reads the slave select when
        // a byte completes). A changed latch is activity.
        if let Some(p) = self.pio_port_at(abs) {
            if self.pio.write_latch(p, value) {
                self.last_activity = self.now;
            }
            return;
        }
        let now = self.now;
        let addr = abs.wrapping_sub(self.map.reg_base);
        // The data ports B, C and D and their direction registers are plain
        // latches: no device's next event or IRQ depends on them (the LCD
        // takes A0 from PORTD when a byte completes, and due events were
        // serviced above). A change is activity.
        if matches!(
            addr,
            ports::addr::PORTB
                | ports::addr::PORTC
                | ports::addr::PORTD
                | ports::addr::DDRC
                | ports::addr::DDRD
        ) {
            let before = self.ports.peek(addr, now);
            self.ports.write(addr, value, now);
            if self.ports.peek(addr, now) != before {
                self.last_activity = now;
            }
            return;
        }
        if (0x28..=0x2A).contains(&addr) {
            self.write_spi(addr, value);
            return;
        }
        self.write_io_rest(abs, value)
    }

    /// A write of SPCR, SPSR or SPDR (`addr` in the register block). SPDR
    /// is output, so activity; the other two are when they change (as in
    /// [`Board::write_io_rest`]). It can start a transfer (a new event) and
    /// clear SPIF (the IRQ, if SPIE lets the SPI interrupt: a write of SPDR
    /// leaves SPIE as it is), nothing else: no transfer is due now (due
    /// events were serviced), none is cancelled or moved later, and no
    /// other device's event depends on the SPI.
    #[inline]
    pub(super) fn write_spi(&mut self, addr: u16, value: u8) {
        let now = self.now;
        let before = (addr != ACTIVITY_SPDR).then(|| self.spi.peek(addr, now));
        self.spi.write(addr, value, now);
        if before.is_none_or(|b| self.spi.peek(addr, now) != b) {
            self.last_activity = now;
        }
        let spi = self.spi.tick(now);
        self.next_event = self.next_event.min(spi);
        self.next_other_event = self.next_other_event.min(spi);
        if addr != ACTIVITY_SPDR || self.spi.interrupts_enabled() {
            self.update_irq();
        }
    }

    #[inline(never)]
    pub(super) fn write_io_rest(&mut self, abs: u16, value: u8) {
        let now = self.now;
        let addr = abs.wrapping_sub(self.map.reg_base);
        match addr {
            0x0000..=0x003F => {
                // Output (SPDR, SCDR) and any change of a port or control
                // register is activity; the timer block, COPRST and ADCTL
                // are not: an interrupt handler clearing TFLG2, a main loop
                // feeding the COP or starting the next A/D conversion (which
                // clears CCF) changes nothing anyone sees. Only the rest
                // needs the register's value before and after.
                let output = addr == ACTIVITY_SPDR || addr == ACTIVITY_SCDR;
                let quiet_kind = (0x0B..=0x27).contains(&addr)
                    || addr == ports::addr::COPRST
                    || addr == adc::ADCTL;
                let before = (!output && !quiet_kind).then(|| self.peek_io(abs));
                match addr {
                    ports::addr::PPROG => {
                        let array = self.map.eeprom.map(|r| (r.start, r.end));
                        let config = self.map.reg_base + ports::addr::CONFIG;
                        let op = self.eeprom.write_pprog(value, now, array, config);
                        self.ports.write(addr, self.eeprom.pprog(), now);
                        if let Some(op) = op {
                            self.apply_eeprom(op);
                        }
                        if self.eeprom.latched() != self.map.eeprom_latched {
                            self.map.eeprom_latched = self.eeprom.latched();
                            self.map.rebuild(&self.setup.config);
                        }
                    }
                    ports::addr::CONFIG => self.eeprom.store(abs, value),
                    ports::addr::INIT => {
                        let old = self.ports.peek(addr, now);
                        self.ports.write(addr, value, now);
                        let init = self.ports.peek(addr, now);
                        if init != old {
                            self.remap(init);
                        }
                    }
                    0x0B..=0x27 => self.timer.write(addr, value, now),
                    // `write_io` took the SPI's registers.
                    0x2B..=0x2F => self.sci.write(addr, value, now),
                    adc::ADCTL => self.adc.write(addr, value, now),
                    ports::addr::COPRST => {
                        self.cop.write(value, now);
                    }
                    _ => {
                        self.ports.write(addr, value, now);
                        if addr == ports::addr::PORTA {
                            self.timer.write_porta(value, now);
                        }
                        if addr == ports::addr::OPTION {
                            let adpu = self.ports.peek(addr, now) & ports::OPTION_ADPU != 0;
                            self.adc.set_powered(adpu, now);
                        }
                    }
                }
                if output || before.is_some_and(|b| self.peek_io(abs) != b) {
                    self.last_activity = now;
                }
            }
            // A watched block of RAM: the store as the direct path makes
            // it, and the watch's log.
            _ if self.map.direct_but_for_watch(abs, true) => {
                self.log_watched(abs, value, true);
                self.mem[abs as usize] = value;
                return;
            }
            _ => match self.kind_below_registers(abs) {
                Kind::Ram => {
                    // Watched blocks come here (plain RAM otherwise
                    // goes straight to memory).
                    if self.watch.on.is_some() {
                        self.log_watched(abs, value, true);
                    }
                    self.mem[abs as usize] = value;
                    return;
                }
                Kind::Rom => {
                    self.record_fault(BusFault::RomWrite {
                        addr: abs,
                        value,
                        cycle: now,
                    });
                    return;
                }
                // Without the PPROG sequence a store does nothing (RM 4.4).
                Kind::Eeprom => {
                    self.eeprom.store(abs, value);
                    return;
                }
                Kind::Pio => {
                    let before = self.pio.clone();
                    self.pio.write(self.pio_register(abs), value, now);
                    if self.pio != before {
                        self.last_activity = now;
                    }
                    // The PIO starts no transfer and raises no interrupt:
                    // no device's next event or IRQ can change (the SPI
                    // reads the slave select when a byte completes).
                    return;
                }
                Kind::Unmapped if self.external_at(abs) => {
                    self.write_external(abs, value);
                    return;
                }
                Kind::Unmapped => {
                    self.record_fault(BusFault::UnmappedWrite {
                        addr: abs,
                        value,
                        cycle: now,
                    });
                    return;
                }
            },
        }
        // A write may start a transfer or change an interrupt enable.
        self.service();
    }

    /// True if a device outside the chip that is no memory answers at
    /// `abs` (an address the decoder calls unmapped): the ACIA or an open
    /// range of the board.
    #[cold]
    pub(super) fn external_at(&self, abs: u16) -> bool {
        let cfg = &self.setup.config;
        cfg.acia.is_some_and(|a| abs.wrapping_sub(a.base) < 2)
            || cfg.open.iter().any(|o| o.range.contains(abs))
    }

    /// A CPU read of the ACIA or an open range.
    fn read_external(&mut self, abs: u16) -> u8 {
        let now = self.now;
        match (&mut self.acia, self.setup.config.acia) {
            (Some(acia), Some(w)) if abs.wrapping_sub(w.base) < 2 => {
                let reg = abs.wrapping_sub(w.base);
                if reg == 0 {
                    self.input_poll = Some((now, InputKind::Serial));
                    acia.read(reg, now)
                } else {
                    // Taking a byte may schedule the next typed one.
                    let v = acia.read(reg, now);
                    self.service();
                    v
                }
            }
            _ => self.peek_external(abs),
        }
    }

    /// What a read of the ACIA or an open range at `abs` returns, without
    /// side effects ([`UNMAPPED_READ`] where neither is).
    pub(super) fn peek_external(&self, abs: u16) -> u8 {
        let cfg = &self.setup.config;
        if let (Some(acia), Some(w)) = (&self.acia, cfg.acia) {
            if abs.wrapping_sub(w.base) < 2 {
                return acia.peek(abs.wrapping_sub(w.base), self.now);
            }
        }
        cfg.open
            .iter()
            .find(|o| o.range.contains(abs))
            .map_or(UNMAPPED_READ, |o| o.read)
    }

    /// A CPU write of the ACIA (its transmit register is output: activity;
    /// it may start a frame, a new event) or an open range (taken, gone).
    fn write_external(&mut self, abs: u16, value: u8) {
        let now = self.now;
        if let (Some(acia), Some(w)) = (&mut self.acia, self.setup.config.acia) {
            if abs.wrapping_sub(w.base) < 2 {
                acia.write(abs.wrapping_sub(w.base), value, now);
                self.last_activity = now;
                self.service();
            }
        }
    }

    pub(super) fn record_fault(&mut self, fault: BusFault) {
        self.fault_count += 1;
        // The debugger's quick stretch looks for a fault only when time
        // reaches an event (`Board::due_after`): this step's tick must.
        self.next_event = 0;
        if self.fault.is_none() {
            self.fault = Some(fault);
        }
    }

    pub(super) fn peek_io(&self, abs: u16) -> u8 {
        // Events due but not yet serviced are shown as if serviced: peek on a
        // clone would be too slow for views, so devices fold `now` in.
        let now = self.now;
        let addr = abs.wrapping_sub(self.map.reg_base);
        match addr {
            0x0000..=0x003F => match addr {
                ports::addr::PPROG => self.eeprom.pprog(),
                0x0B..=0x27 => self.timer.peek(addr, now),
                0x28..=0x2A => self.spi.peek(addr, now),
                0x2B..=0x2F => self.sci.peek(addr, now),
                ports::addr::PORTA => self.timer.porta_at(now),
                ports::addr::PORTE => self.adc.port_e(),
                0x30..=0x34 => self.adc.read(addr, now),
                _ => self.ports.peek(addr, now),
            },
            _ => self.peek_memory(abs),
        }
    }
}

impl Board {
    /// True if a read of `addr` goes straight to memory: not the register
    /// block and a page of one readable kind (see [`map`]). Those bytes no
    /// device event changes (unlike the registers, the PIO and anything
    /// else behind `read_io`).
    #[inline(always)]
    pub(crate) fn reads_direct(&self, addr: u16) -> bool {
        self.map.reads_direct(addr)
    }

    /// True if a read of `addr` returns the byte in memory and nothing
    /// else: the direct path's bytes, and RAM a watch took off it (only
    /// to log the access, [`Board::set_watch`]).
    pub(crate) fn reads_memory(&self, addr: u16) -> bool {
        self.reads_direct(addr) || self.is_plain_ram(addr)
    }
}

impl Bus for Board {
    // Always inlined into the CPU's step: the fast path is one page-table
    // load and a test; everything else is the out-of-line `read_io`.
    #[inline(always)]
    fn read(&mut self, addr: u16) -> u8 {
        if self.reads_direct(addr) {
            self.mem[addr as usize]
        } else {
            self.read_io(addr)
        }
    }

    #[inline]
    fn peek(&self, addr: u16) -> u8 {
        if self.reads_direct(addr) {
            self.mem[addr as usize]
        } else {
            self.peek_io(addr)
        }
    }

    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        if self.map.writes_direct(addr) {
            self.mem[addr as usize] = value;
        } else {
            self.write_io(addr, value);
        }
    }

    #[inline(always)]
    fn code(&self, pc: u16) -> Option<u64> {
        self.map.code_direct(pc).then(|| self.code_at(pc))
    }

    #[inline(always)]
    fn fetch(&mut self, pc: u16) -> u64 {
        if self.map.code_direct_hot(pc) {
            self.code_at(pc)
        } else {
            self.fetch_cold(pc)
        }
    }

    #[inline]
    fn irq_vector(&self) -> Option<u16> {
        self.irq
    }

    /// Servicing the devices again changes nothing but makes the step one
    /// that serviced (`Board::due_after`).
    #[inline]
    fn attention(&mut self) {
        self.next_event = 0;
    }

    #[inline]
    fn xirq(&self) -> bool {
        self.xirq_pin || self.now >= self.xirq_wired_at
    }
}

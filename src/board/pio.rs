//! The trainer11's parallel I/O chip at $8000-$8003, an 8255-type PIO
//! (`PIO_A`, `PIO_B`, `PIO_C`, `PIO_CONFIG`), in mode 0.
//!
//! Port B reads the eight push buttons, one bit each, 0 = pressed. Port C
//! bits 7..6 select the SPI slave (00 = the LCD). A write to PIO_CONFIG with
//! bit 7 set is a mode word: it sets the port directions (bit 4 port A, bit 3
//! port C upper, bit 1 port B, bit 0 port C lower; 1 = input) and, as on the
//! 8255, clears the output latches; the strobed modes 1 and 2 are recorded but
//! behave as mode 0. With bit 7 clear it sets (bit 0 = 1) or clears port C bit
//! (bits 3..1). An input port reads its pins: the keys on port B, undriven
//! (1) on A and C.
//!
//! An 8255 resets with every port an input, yet the Viergewinnt program
//! never writes PIO_CONFIG and drives PIO_C as an output: on the trainer11
//! the monitor has configured the PIO before the program starts. The board's
//! reset state is that configuration, mode word $82 (A out, B in, C out).

use super::{Device, RegisterInfo};

/// Address of port A.
pub const PIO_A: u16 = 0x8000;
/// Address of port B (the keys).
pub const PIO_B: u16 = 0x8001;
/// Address of port C (bits 7..6: SPI slave select).
pub const PIO_C: u16 = 0x8002;
/// Address of the control register.
pub const PIO_CONFIG: u16 = 0x8003;

/// The mode word the monitor leaves: port A out, B in, C out, mode 0.
pub const MONITOR_MODE: u8 = 0x82;

/// The PIO with the keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pio {
    latch: [u8; 3],
    mode: u8,
    mode_writes: u64,
    keys: u8,
}

impl Default for Pio {
    fn default() -> Self {
        Self::new()
    }
}

impl Pio {
    /// The PIO as the monitor configured it (module doc), no key pressed.
    pub fn new() -> Self {
        let mut p = Pio {
            latch: [0; 3],
            mode: MONITOR_MODE,
            mode_writes: 0,
            keys: 0,
        };
        p.reset(0);
        p
    }

    /// Presses or releases key `n` (0..=7); other numbers are ignored.
    pub fn set_key(&mut self, n: u8, pressed: bool) {
        if n < 8 {
            if pressed {
                self.keys |= 1 << n;
            } else {
                self.keys &= !(1 << n);
            }
        }
    }

    /// The pressed keys, bit n = key n (1 = pressed; the port reads the inverse).
    pub fn keys(&self) -> u8 {
        self.keys
    }

    /// The last mode word written to PIO_CONFIG (or the monitor's).
    pub fn mode(&self) -> u8 {
        self.mode
    }

    /// How many mode words the program wrote since reset.
    pub fn mode_writes(&self) -> u64 {
        self.mode_writes
    }

    /// The SPI slave selected by port C bits 7..6 (0 = LCD); an input port
    /// floats high, which selects slave 3.
    pub fn spi_select(&self) -> u8 {
        self.port_c() >> 6
    }

    #[inline]
    fn input(&self, port: usize) -> (u8, u8) {
        // (mask of input bits, pin levels)
        let m = self.mode;
        match port {
            0 => (if m & 0x10 != 0 { 0xFF } else { 0 }, 0xFF),
            1 => (if m & 0x02 != 0 { 0xFF } else { 0 }, !self.keys),
            _ => {
                let hi = if m & 0x08 != 0 { 0xF0 } else { 0 };
                let lo = if m & 0x01 != 0 { 0x0F } else { 0 };
                (hi | lo, 0xFF)
            }
        }
    }

    /// Writes data port `port` (0 A, 1 B, 2 C) as a store to it does;
    /// true if its latch changed.
    #[inline]
    pub(crate) fn write_latch(&mut self, port: usize, value: u8) -> bool {
        let changed = self.latch[port] != value;
        self.latch[port] = value;
        changed
    }

    /// What a read of data port `port` (0 A, 1 B, 2 C) returns: the latch
    /// on output bits, the pins on input bits.
    #[inline]
    pub(crate) fn port(&self, port: usize) -> u8 {
        let (inputs, pins) = self.input(port);
        (self.latch[port] & !inputs) | (pins & inputs)
    }

    fn port_c(&self) -> u8 {
        self.port(2)
    }
}

impl Device for Pio {
    fn read(&mut self, addr: u16, now: u64) -> u8 {
        self.peek(addr, now)
    }

    fn peek(&self, addr: u16, _now: u64) -> u8 {
        match addr {
            PIO_A => self.port(0),
            PIO_B => self.port(1),
            PIO_C => self.port(2),
            // The 8255's control register cannot be read; the bus floats.
            _ => super::UNMAPPED_READ,
        }
    }

    fn write(&mut self, addr: u16, value: u8, _now: u64) {
        match addr {
            PIO_A => self.latch[0] = value,
            PIO_B => self.latch[1] = value,
            PIO_C => self.latch[2] = value,
            PIO_CONFIG => {
                if value & 0x80 != 0 {
                    self.mode = value;
                    self.mode_writes += 1;
                    self.latch = [0; 3];
                } else {
                    let bit = (value >> 1) & 7;
                    if value & 1 != 0 {
                        self.latch[2] |= 1 << bit;
                    } else {
                        self.latch[2] &= !(1 << bit);
                    }
                }
            }
            _ => {}
        }
    }

    fn tick(&mut self, _now: u64) -> u64 {
        u64::MAX
    }

    /// Back to the monitor's configuration with cleared latches; the keys
    /// are physical and stay as they are.
    fn reset(&mut self, _now: u64) {
        self.latch = [0; 3];
        self.mode = MONITOR_MODE;
        self.mode_writes = 0;
    }

    fn registers(&self, now: u64) -> Vec<RegisterInfo> {
        let keys: Vec<String> = (0..8)
            .filter(|k| self.keys & (1 << k) != 0)
            .map(|k| k.to_string())
            .collect();
        let keys = if keys.is_empty() {
            "no key pressed".to_string()
        } else {
            format!("pressed: {}", keys.join(", "))
        };
        let slave = match self.spi_select() {
            0 => "LCD",
            1 => "slave 1",
            2 => "slave 2",
            _ => "slave 3 (EEPROM)",
        };
        vec![
            RegisterInfo::byte("PIO_A", PIO_A, self.peek(PIO_A, now), String::new()),
            RegisterInfo::byte("PIO_B", PIO_B, self.peek(PIO_B, now), keys),
            RegisterInfo::byte(
                "PIO_C",
                PIO_C,
                self.peek(PIO_C, now),
                format!("SPI_SEL={} ({slave})", self.spi_select()),
            ),
            RegisterInfo::byte(
                "PIO_CONFIG",
                PIO_CONFIG,
                self.mode,
                format!(
                    "mode word ${:02X}: A {}, B {}, C {}/{}",
                    self.mode,
                    if self.mode & 0x10 != 0 { "in" } else { "out" },
                    if self.mode & 0x02 != 0 { "in" } else { "out" },
                    if self.mode & 0x08 != 0 { "in" } else { "out" },
                    if self.mode & 0x01 != 0 { "in" } else { "out" },
                ),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_active_low_on_port_b() {
        let mut p = Pio::new();
        assert_eq!(p.read(PIO_B, 0), 0xFF);
        p.set_key(3, true);
        assert_eq!(p.read(PIO_B, 0), 0b1111_0111);
        p.set_key(9, true);
        assert_eq!(p.keys(), 0b1000);
    }

    #[test]
    fn port_c_selects_slave() {
        let mut p = Pio::new();
        p.write(PIO_C, 0xC0, 0);
        assert_eq!(p.spi_select(), 3);
        let v = p.read(PIO_C, 0) & 0x3F;
        p.write(PIO_C, v, 0);
        assert_eq!(p.spi_select(), 0);
    }

    #[test]
    fn mode_word_sets_directions_and_clears_latches() {
        let mut p = Pio::new();
        p.write(PIO_A, 0x12, 0);
        p.write(PIO_CONFIG, 0x9B, 0); // all inputs
        assert_eq!(p.read(PIO_A, 0), 0xFF);
        assert_eq!(p.spi_select(), 3, "floating select lines");
        p.write(PIO_CONFIG, 0x80, 0); // all outputs
        assert_eq!(p.read(PIO_A, 0), 0x00);
        p.set_key(0, true);
        assert_eq!(p.read(PIO_B, 0), 0x00, "port B output reads its latch");
        assert_eq!(p.mode_writes(), 2);
    }

    #[test]
    fn bit_set_reset_on_port_c() {
        let mut p = Pio::new();
        p.write(PIO_CONFIG, 0x0F, 0); // set bit 7
        p.write(PIO_CONFIG, 0x0D, 0); // set bit 6
        assert_eq!(p.read(PIO_C, 0), 0xC0);
        p.write(PIO_CONFIG, 0x0C, 0); // clear bit 6
        assert_eq!(p.read(PIO_C, 0), 0x80);
    }
}

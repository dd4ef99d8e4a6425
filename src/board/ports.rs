//! The MC68HC11's parallel ports and system registers in the on-chip block
//! (M68HC11 RM section 7 "Parallel input/output" and the register map of
//! section 2/appendix; A/D section 12 and the system registers of section 2):
//! PORTA-PORTE, DDRC/DDRD, PIOC, the A/D registers and OPTION..CONFIG.
//!
//! On the trainer11 the chip runs in expanded mode (the PIO and program
//! memory are external), so ports B and C are the address/data bus; their
//! registers are kept as plain latches. Undriven input pins read 1. The A/D
//! converter and port E's pins are [`super::adc`]; the board routes
//! $0A and $30-$34 there.

use super::{Device, RegisterInfo};

/// Register addresses in this block (MAP_PAGE $00).
pub mod addr {
    /// Port A data.
    pub const PORTA: u16 = 0x00;
    /// Parallel I/O control.
    pub const PIOC: u16 = 0x02;
    /// Port C data.
    pub const PORTC: u16 = 0x03;
    /// Port B data.
    pub const PORTB: u16 = 0x04;
    /// Alternate latched port C.
    pub const PORTCL: u16 = 0x05;
    /// Port C data direction.
    pub const DDRC: u16 = 0x07;
    /// Port D data.
    pub const PORTD: u16 = 0x08;
    /// Port D data direction.
    pub const DDRD: u16 = 0x09;
    /// Port E data (analog inputs).
    pub const PORTE: u16 = 0x0A;
    /// A/D control/status.
    pub const ADCTL: u16 = 0x30;
    /// System configuration options (time protected).
    pub const OPTION: u16 = 0x39;
    /// COP reset.
    pub const COPRST: u16 = 0x3A;
    /// EEPROM programming control.
    pub const PPROG: u16 = 0x3B;
    /// Highest priority interrupt and misc.
    pub const HPRIO: u16 = 0x3C;
    /// RAM and register mapping (time protected).
    pub const INIT: u16 = 0x3D;
    /// Factory test.
    pub const TEST1: u16 = 0x3E;
    /// COP, ROM and EEPROM enables.
    pub const CONFIG: u16 = 0x3F;
}

/// OPTION's A/D power-up bit.
pub const OPTION_ADPU: u8 = 0x80;
/// OPTION's clock monitor enable bit.
pub const OPTION_CME: u8 = 0x08;
/// OPTION's IRQ select edge-sensitive bit (time protected).
pub const OPTION_IRQE: u8 = 0x20;

/// Bit 6 of PORTA drives the LCD backlight's dimming input: 0 = light on.
pub const PORTA_BACKLIGHT_OFF: u8 = 0x40;
/// Bit 5 of PORTD is the LCD's A0 line: 0 = command, 1 = data.
pub const PORTD_LCD_A0: u8 = 0x20;

/// CONFIG as the model's boards leave it: no security, COP off, ROM and EEPROM off.
pub const CONFIG_RESET: u8 = 0x0C;

/// Writes to time-protected bits are taken only this many E-cycles after reset.
pub const TIME_PROTECT_CYCLES: u64 = 64;

/// The port and system registers: latches with the chip's reset values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ports {
    /// Raw latch per address $00-$3F (only this block's addresses are used).
    latch: [u8; 0x40],
    reset_at: u64,
}

impl Default for Ports {
    fn default() -> Self {
        Self::new()
    }
}

impl Ports {
    /// Registers at reset.
    pub fn new() -> Self {
        let mut p = Ports {
            latch: [0; 0x40],
            reset_at: 0,
        };
        p.reset(0);
        p
    }

    /// Loads CONFIG from its EEPROM cell (the board does this at reset).
    pub fn set_config(&mut self, value: u8) {
        self.latch[addr::CONFIG as usize] = value;
    }

    /// Sets HPRIO's mode bits as the mode pins select them at reset:
    /// expanded (MDA = 1, $25 with the reset priority bits) or single-chip
    /// (MDA = 0, $05). SMOD stays 0 (no bootstrap or test mode).
    pub fn set_single_chip(&mut self, single_chip: bool) {
        let h = &mut self.latch[addr::HPRIO as usize];
        if single_chip {
            *h &= !0x20;
        } else {
            *h |= 0x20;
        }
    }

    /// Sets INIT's reset value (the board's: $00 on the trainer11, whose
    /// start-up maps the registers to $0000; $01 on the chip and the EVB).
    pub fn set_init(&mut self, value: u8) {
        self.latch[addr::INIT as usize] = value;
    }

    /// True while PORTA bit 6 is low: the LCD backlight is on.
    pub fn backlight_on(&self) -> bool {
        self.latch[addr::PORTA as usize] & PORTA_BACKLIGHT_OFF == 0
    }

    /// The LCD's A0 line: PORTD bit 5 if it is an output (DDRD bit 5),
    /// otherwise the undriven pin reads 1 (data).
    pub fn lcd_a0(&self) -> bool {
        self.port_d_pins() & PORTD_LCD_A0 != 0
    }

    /// What a read of PORTD returns (the pins: outputs from the latch).
    pub(crate) fn port_d_pins(&self) -> u8 {
        let ddrd = self.latch[addr::DDRD as usize] & 0x3F;
        let out = self.latch[addr::PORTD as usize] & ddrd;
        out | (!ddrd & 0x3F)
    }

    fn value(&self, a: u16) -> u8 {
        let l = |r: u16| self.latch[r as usize];
        match a {
            // The pins are the timer's (`Timer::porta`); this is the latch.
            addr::PORTC | addr::PORTCL => {
                let ddrc = l(addr::DDRC);
                (l(a) & ddrc) | !ddrc
            }
            addr::PORTD => self.port_d_pins(),
            addr::DDRD => l(a) & 0x3F,
            addr::PORTE => 0xFF,
            _ => l(a),
        }
    }

    fn meaning(&self, a: u16, v: u8) -> String {
        match a {
            addr::PORTA => format!(
                "PA6={} (LCD backlight {})",
                (v >> 6) & 1,
                if v & PORTA_BACKLIGHT_OFF == 0 {
                    "on"
                } else {
                    "off"
                }
            ),
            addr::PORTD => format!(
                "PD5={} (LCD A0: {})",
                (v >> 5) & 1,
                if v & PORTD_LCD_A0 != 0 {
                    "data"
                } else {
                    "command"
                }
            ),
            addr::DDRD => format!("outputs %{:06b}", v & 0x3F),
            addr::INIT => format!("RAM at ${:X}000, registers at ${:X}000", v >> 4, v & 0x0F),
            _ => format!("${v:02X}"),
        }
    }
}

const NAMES: &[(u16, &str)] = &[
    (0x00, "PORTA"),
    (0x02, "PIOC"),
    (0x03, "PORTC"),
    (0x04, "PORTB"),
    (0x05, "PORTCL"),
    (0x07, "DDRC"),
    (0x08, "PORTD"),
    (0x09, "DDRD"),
    (0x0A, "PORTE"),
    (0x39, "OPTION"),
    (0x3A, "COPRST"),
    (0x3B, "PPROG"),
    (0x3C, "HPRIO"),
    (0x3D, "INIT"),
    (0x3E, "TEST1"),
    (0x3F, "CONFIG"),
];

impl Device for Ports {
    fn read(&mut self, addr: u16, now: u64) -> u8 {
        self.peek(addr, now)
    }

    fn peek(&self, addr: u16, _now: u64) -> u8 {
        match self.latch.get(addr as usize) {
            Some(_) => self.value(addr),
            None => super::UNMAPPED_READ,
        }
    }

    fn write(&mut self, a: u16, value: u8, now: u64) {
        let protected_open = now.saturating_sub(self.reset_at) < TIME_PROTECT_CYCLES;
        let Some(slot) = self.latch.get_mut(a as usize) else {
            return;
        };
        match a {
            // Read-only registers: input port, A/D results, factory CONFIG
            // (EEPROM cell, programmed through PPROG, not by a store).
            addr::PORTE | 0x31..=0x34 | addr::CONFIG => {}
            // OPTION bits 5, 4, 1, 0 (IRQE, DLY, CR1, CR0) and INIT are
            // time protected.
            addr::OPTION => {
                let mask = if protected_open { 0xFF } else { 0xCC };
                *slot = (*slot & !mask) | (value & mask);
            }
            addr::INIT => {
                if protected_open {
                    *slot = value;
                }
            }
            _ => *slot = value,
        }
    }

    fn tick(&mut self, _now: u64) -> u64 {
        u64::MAX
    }

    /// Reset values from the register map. INIT reads $00 because the
    /// trainer11 maps the registers to $0000 (`MAP_PAGE equ $00`); CONFIG
    /// $0C (no security, COP off, ROM and EEPROM off) is assumed for a board
    /// whose program memory is external.
    fn reset(&mut self, now: u64) {
        self.latch = [0; 0x40];
        self.latch[addr::PIOC as usize] = 0x03;
        self.latch[addr::OPTION as usize] = 0x10;
        self.latch[addr::HPRIO as usize] = 0x25;
        self.latch[addr::INIT as usize] = 0x00;
        self.latch[addr::CONFIG as usize] = 0x0C;
        self.reset_at = now;
    }

    fn registers(&self, now: u64) -> Vec<RegisterInfo> {
        NAMES
            .iter()
            .map(|&(a, name)| {
                let v = self.peek(a, now);
                RegisterInfo::byte(name, a, v, self.meaning(a, v))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portd_reads_outputs_from_latch_inputs_high() {
        let mut p = Ports::new();
        p.write(addr::PORTD, 0x03, 0);
        assert_eq!(p.read(addr::PORTD, 0), 0x3F, "all inputs after reset");
        p.write(addr::DDRD, 0x3A, 0);
        // Outputs PD1, PD3-5 from the latch ($03 -> PD1), inputs PD0, PD2 high.
        assert_eq!(p.read(addr::PORTD, 0), 0x07);
        assert!(!p.lcd_a0());
        p.write(addr::PORTD, 0x23, 0);
        assert!(p.lcd_a0());
    }

    #[test]
    fn porta_backlight_bit() {
        let mut p = Ports::new();
        assert!(p.backlight_on(), "PA6 resets to 0");
        p.write(addr::PORTA, 0xFF, 0);
        assert!(!p.backlight_on());
        assert_eq!(p.read(addr::PORTA, 0), 0xFF);
        p.write(addr::PORTA, 0x00, 0);
        assert_eq!(
            p.read(addr::PORTA, 0),
            0x00,
            "the latch; the pins are the timer's"
        );
    }

    #[test]
    fn init_is_time_protected() {
        let mut p = Ports::new();
        p.write(addr::INIT, 0x01, 10);
        assert_eq!(p.read(addr::INIT, 10), 0x01);
        p.write(addr::INIT, 0x00, 100);
        assert_eq!(p.read(addr::INIT, 100), 0x01);
    }
}

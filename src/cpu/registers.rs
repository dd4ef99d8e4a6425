//! The MC68HC11 programmer's model (M68HC11 Reference Manual, section 3.1
//! "CPU Registers"): accumulators A and B (together D), index registers X and
//! Y, stack pointer, program counter and the condition code register.

/// The CPU registers. D is not stored: it is A (high byte) and B (low byte).
/// Serializes as `{a, b, x, y, sp, pc, ccr}`, the shape `run --json` prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Registers {
    /// Accumulator A (high byte of D).
    pub a: u8,
    /// Accumulator B (low byte of D).
    pub b: u8,
    /// Index register X.
    pub x: u16,
    /// Index register Y.
    pub y: u16,
    /// Stack pointer: points at the next free byte (a push writes, then decrements).
    pub sp: u16,
    /// Program counter.
    pub pc: u16,
    /// Condition code register, bits S X H I N Z V C (see [`flags`]).
    pub ccr: u8,
}

impl Registers {
    /// The double accumulator D = A:B.
    #[inline]
    pub fn d(&self) -> u16 {
        u16::from_be_bytes([self.a, self.b])
    }

    /// Sets D, i.e. A to the high byte and B to the low byte.
    #[inline]
    pub fn set_d(&mut self, d: u16) {
        let [a, b] = d.to_be_bytes();
        self.a = a;
        self.b = b;
    }

    /// True if every bit of `mask` (a [`flags`] constant or several or-ed) is set in CCR.
    #[inline]
    pub fn flag(&self, mask: u8) -> bool {
        self.ccr & mask == mask
    }

    /// Sets or clears the CCR bits of `mask`.
    #[inline]
    pub fn set_flag(&mut self, mask: u8, on: bool) {
        if on {
            self.ccr |= mask;
        } else {
            self.ccr &= !mask;
        }
    }
}

/// Bit masks of the condition code register (RM section 3, "Condition Code Register").
pub mod flags {
    /// Stop disable: when set, STOP executes as a NOP.
    pub const S: u8 = 0x80;
    /// XIRQ mask: set by reset and XIRQ entry; software can clear it but never set it.
    pub const X: u8 = 0x40;
    /// Half carry out of bit 3 (ABA, ADD, ADC only).
    pub const H: u8 = 0x20;
    /// IRQ mask: masks all maskable interrupt sources.
    pub const I: u8 = 0x10;
    /// Negative: bit 7 (or 15) of the result.
    pub const N: u8 = 0x08;
    /// Zero result.
    pub const Z: u8 = 0x04;
    /// Two's complement overflow.
    pub const V: u8 = 0x02;
    /// Carry or borrow.
    pub const C: u8 = 0x01;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d_is_a_then_b() {
        let mut r = Registers::default();
        r.set_d(0x1234);
        assert_eq!((r.a, r.b, r.d()), (0x12, 0x34, 0x1234));
    }

    #[test]
    fn flag_helpers() {
        let mut r = Registers::default();
        r.set_flag(flags::N | flags::C, true);
        assert!(r.flag(flags::N) && r.flag(flags::C) && !r.flag(flags::Z));
        r.set_flag(flags::N, false);
        assert_eq!(r.ccr, flags::C);
    }
}

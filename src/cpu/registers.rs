//! The MC68HC11 programmer's model (M68HC11 Reference Manual, section 3.1
//! "CPU Registers"): accumulators A and B (together D), index registers X and
//! Y, stack pointer, program counter and the condition code register.

/// The CPU registers. D is not stored: it is A (high byte) and B (low byte).
/// Serializes (and prints with `{:?}`) as `{a, b, x, y, sp, pc, ccr}`, the
/// shape `run --json` prints.
///
/// Each register is followed by unused bytes (`_pad_*`, always 0, not
/// printed or serialized). The compiler loads a register with a wider
/// load where it can (SP in every pull, X and Y in INX/INY), and such a
/// load cannot take its value from a store still in flight to the bytes
/// after it: without the gaps, a pull's load of SP spanned PC, which every
/// instruction writes, and waited for that store to complete.
#[derive(Clone, Copy, Default, Eq)]
#[repr(C)]
pub struct Registers {
    /// Program counter.
    pub pc: u16,
    #[doc(hidden)]
    pub _pad_pc: u16,
    /// Index register X.
    pub x: u16,
    #[doc(hidden)]
    pub _pad_x: u16,
    /// Index register Y.
    pub y: u16,
    #[doc(hidden)]
    pub _pad_y: u16,
    /// Stack pointer: points at the next free byte (a push writes, then decrements).
    pub sp: u16,
    #[doc(hidden)]
    pub _pad_sp: u16,
    /// Accumulator A (high byte of D).
    pub a: u8,
    #[doc(hidden)]
    pub _pad_a: [u8; 3],
    /// Accumulator B (low byte of D).
    pub b: u8,
    #[doc(hidden)]
    pub _pad_b: [u8; 3],
    /// Condition code register, bits S X H I N Z V C (see [`flags`]).
    pub ccr: u8,
    #[doc(hidden)]
    pub _pad_ccr: [u8; 3],
}

/// Equal when the seven registers are (the gaps are always 0). Compared
/// without a branch per field: the fast-forward compares the CPU before and
/// after every measured loop iteration.
impl PartialEq for Registers {
    #[inline]
    fn eq(&self, o: &Registers) -> bool {
        let words = (self.pc ^ o.pc) | (self.x ^ o.x) | (self.y ^ o.y) | (self.sp ^ o.sp);
        let bytes = (self.a ^ o.a) | (self.b ^ o.b) | (self.ccr ^ o.ccr);
        words | u16::from(bytes) == 0
    }
}

impl std::fmt::Debug for Registers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registers")
            .field("a", &self.a)
            .field("b", &self.b)
            .field("x", &self.x)
            .field("y", &self.y)
            .field("sp", &self.sp)
            .field("pc", &self.pc)
            .field("ccr", &self.ccr)
            .finish()
    }
}

impl serde::Serialize for Registers {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Registers", 7)?;
        s.serialize_field("a", &self.a)?;
        s.serialize_field("b", &self.b)?;
        s.serialize_field("x", &self.x)?;
        s.serialize_field("y", &self.y)?;
        s.serialize_field("sp", &self.sp)?;
        s.serialize_field("pc", &self.pc)?;
        s.serialize_field("ccr", &self.ccr)?;
        s.end()
    }
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

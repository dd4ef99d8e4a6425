//! Arithmetic, logic and shift operations with their condition codes, as the
//! M68HC11 Reference Manual, section 6 ("Instruction Set") and appendix A
//! ("Instruction Set Details") define them. Each function takes the CCR,
//! updates exactly the bits the manual lists for the instruction, and returns
//! the result.

use super::opcodes::Op;
use super::registers::flags::{C, H, N, V, Z};

/// Replaces the CCR bits of `mask` with those of `bits`.
#[inline(always)]
fn put(ccr: &mut u8, mask: u8, bits: u8) {
    *ccr = (*ccr & !mask) | (bits & mask);
}

#[inline(always)]
fn bit(cond: bool, flag: u8) -> u8 {
    if cond {
        flag
    } else {
        0
    }
}

#[inline(always)]
fn nz8_bits(r: u8) -> u8 {
    bit(r & 0x80 != 0, N) | bit(r == 0, Z)
}

#[inline(always)]
fn nz16_bits(r: u16) -> u16 {
    (bit(r & 0x8000 != 0, N) | bit(r == 0, Z)) as u16
}

/// Loads, stores, AND/OR/EOR, BIT, TAB/TBA, BSET/BCLR: N and Z from the
/// result, V cleared, C unchanged.
#[inline(always)]
pub fn logic8(ccr: &mut u8, r: u8) -> u8 {
    put(ccr, N | Z | V, nz8_bits(r));
    r
}

/// LDD/LDX/LDY/LDS and STD/STX/STY/STS: N and Z from the 16-bit value, V cleared.
#[inline(always)]
pub fn logic16(ccr: &mut u8, r: u16) -> u16 {
    put(ccr, N | Z | V, nz16_bits(r) as u8);
    r
}

/// ADD/ADC/ABA: `a + b + carry` with H, N, Z, V, C.
#[inline(always)]
pub fn add8(ccr: &mut u8, a: u8, b: u8, carry: bool) -> u8 {
    let r = a.wrapping_add(b).wrapping_add(carry as u8);
    // Carries out of each bit: set where both operands were 1, or either was 1
    // and the result bit is 0 (the manual's boolean formulas for H and C).
    let carries = (a & b) | (b & !r) | (!r & a);
    let overflow = (a & b & !r) | (!a & !b & r);
    let bits = bit(carries & 0x08 != 0, H)
        | nz8_bits(r)
        | bit(overflow & 0x80 != 0, V)
        | bit(carries & 0x80 != 0, C);
    put(ccr, H | N | Z | V | C, bits);
    r
}

/// SUB/SBC/CMP/SBA/CBA/NEG: `a - b - borrow` with N, Z, V, C (H unchanged).
#[inline(always)]
pub fn sub8(ccr: &mut u8, a: u8, b: u8, borrow: bool) -> u8 {
    let r = a.wrapping_sub(b).wrapping_sub(borrow as u8);
    let borrows = (!a & b) | (b & r) | (r & !a);
    let overflow = (a & !b & !r) | (!a & b & r);
    let bits = nz8_bits(r) | bit(overflow & 0x80 != 0, V) | bit(borrows & 0x80 != 0, C);
    put(ccr, N | Z | V | C, bits);
    r
}

/// ADDD: 16-bit `a + b` with N, Z, V, C.
#[inline(always)]
pub fn add16(ccr: &mut u8, a: u16, b: u16) -> u16 {
    let r = a.wrapping_add(b);
    let carries = (a & b) | (b & !r) | (!r & a);
    let overflow = (a & b & !r) | (!a & !b & r);
    let bits = nz16_bits(r) as u8 | bit(overflow & 0x8000 != 0, V) | bit(carries & 0x8000 != 0, C);
    put(ccr, N | Z | V | C, bits);
    r
}

/// SUBD/CPD/CPX/CPY: 16-bit `a - b` with N, Z, V, C.
#[inline(always)]
pub fn sub16(ccr: &mut u8, a: u16, b: u16) -> u16 {
    let r = a.wrapping_sub(b);
    let borrows = (!a & b) | (b & r) | (r & !a);
    let overflow = (a & !b & !r) | (!a & b & r);
    let bits = nz16_bits(r) as u8 | bit(overflow & 0x8000 != 0, V) | bit(borrows & 0x8000 != 0, C);
    put(ccr, N | Z | V | C, bits);
    r
}

/// INC: N, Z; V set when the result is $80 (the only signed overflow); C unchanged.
#[inline(always)]
pub fn inc8(ccr: &mut u8, m: u8) -> u8 {
    let r = m.wrapping_add(1);
    put(ccr, N | Z | V, nz8_bits(r) | bit(r == 0x80, V));
    r
}

/// DEC: N, Z; V set when the result is $7F; C unchanged.
#[inline(always)]
pub fn dec8(ccr: &mut u8, m: u8) -> u8 {
    let r = m.wrapping_sub(1);
    put(ccr, N | Z | V, nz8_bits(r) | bit(r == 0x7F, V));
    r
}

/// NEG: `0 - m`; V set if the result is $80, C set if the result is not 0.
#[inline(always)]
pub fn neg8(ccr: &mut u8, m: u8) -> u8 {
    let r = 0u8.wrapping_sub(m);
    put(
        ccr,
        N | Z | V | C,
        nz8_bits(r) | bit(r == 0x80, V) | bit(r != 0, C),
    );
    r
}

/// COM: one's complement; N, Z, V cleared, C set (for 6800 compatibility).
#[inline(always)]
pub fn com8(ccr: &mut u8, m: u8) -> u8 {
    let r = !m;
    put(ccr, N | Z | V | C, nz8_bits(r) | C);
    r
}

/// CLR: result 0; N, V, C cleared, Z set.
#[inline(always)]
pub fn clr8(ccr: &mut u8) -> u8 {
    put(ccr, N | Z | V | C, Z);
    0
}

/// TST: N, Z from the operand; V and C cleared.
#[inline(always)]
pub fn tst8(ccr: &mut u8, m: u8) {
    put(ccr, N | Z | V | C, nz8_bits(m));
}

/// Whether branch `op` (BRA, BRN and the conditional branches BHI to BLE)
/// is taken with condition codes `ccr` (RM appendix A, the branch tests);
/// false for every other operation. With `op` a constant, as in each
/// dispatch arm, this folds to the one test.
#[inline(always)]
pub(crate) fn branch_taken(op: Op, ccr: u8) -> bool {
    let n_xor_v = (ccr & N != 0) != (ccr & V != 0);
    match op {
        Op::Bra => true,
        Op::Bhi => ccr & (C | Z) == 0,
        Op::Bls => ccr & (C | Z) != 0,
        Op::Bcc => ccr & C == 0,
        Op::Bcs => ccr & C != 0,
        Op::Bne => ccr & Z == 0,
        Op::Beq => ccr & Z != 0,
        Op::Bvc => ccr & V == 0,
        Op::Bvs => ccr & V != 0,
        Op::Bpl => ccr & N == 0,
        Op::Bmi => ccr & N != 0,
        Op::Bge => !n_xor_v,
        Op::Blt => n_xor_v,
        Op::Bgt => !(n_xor_v || ccr & Z != 0),
        Op::Ble => n_xor_v || ccr & Z != 0,
        _ => false,
    }
}

/// Shift/rotate flags: N, Z from the result, C = the bit shifted out,
/// V = N xor C after the shift (RM appendix A, the V formula of every shift and rotate).
#[inline(always)]
fn shift_flags8(ccr: &mut u8, r: u8, carry: bool) -> u8 {
    let n = r & 0x80 != 0;
    put(
        ccr,
        N | Z | V | C,
        bit(n, N) | bit(r == 0, Z) | bit(n != carry, V) | bit(carry, C),
    );
    r
}

/// ASL/LSL: shift left, bit 7 into C, 0 into bit 0.
#[inline(always)]
pub fn asl8(ccr: &mut u8, m: u8) -> u8 {
    shift_flags8(ccr, m << 1, m & 0x80 != 0)
}

/// ASR: shift right keeping bit 7, bit 0 into C.
#[inline(always)]
pub fn asr8(ccr: &mut u8, m: u8) -> u8 {
    shift_flags8(ccr, (m >> 1) | (m & 0x80), m & 1 != 0)
}

/// LSR: shift right, 0 into bit 7, bit 0 into C (so N = 0 and V = C).
#[inline(always)]
pub fn lsr8(ccr: &mut u8, m: u8) -> u8 {
    shift_flags8(ccr, m >> 1, m & 1 != 0)
}

/// ROL: rotate left through carry.
#[inline(always)]
pub fn rol8(ccr: &mut u8, m: u8) -> u8 {
    let cin = *ccr & C;
    shift_flags8(ccr, (m << 1) | cin, m & 0x80 != 0)
}

/// ROR: rotate right through carry.
#[inline(always)]
pub fn ror8(ccr: &mut u8, m: u8) -> u8 {
    let cin = *ccr & C;
    shift_flags8(ccr, (m >> 1) | (cin << 7), m & 1 != 0)
}

/// ASLD/LSLD: 16-bit shift left of D; N, Z, V = N xor C, C = old bit 15.
#[inline(always)]
pub fn asl16(ccr: &mut u8, d: u16) -> u16 {
    let r = d << 1;
    let n = r & 0x8000 != 0;
    let c = d & 0x8000 != 0;
    put(
        ccr,
        N | Z | V | C,
        bit(n, N) | bit(r == 0, Z) | bit(n != c, V) | bit(c, C),
    );
    r
}

/// LSRD: 16-bit logical shift right of D; N cleared, Z, C = old bit 0, V = C.
#[inline(always)]
pub fn lsr16(ccr: &mut u8, d: u16) -> u16 {
    let r = d >> 1;
    let c = d & 1 != 0;
    put(ccr, N | Z | V | C, bit(r == 0, Z) | bit(c, V) | bit(c, C));
    r
}

/// DAA: decimal-adjusts A after a BCD addition (ABA/ADD/ADC), using H and C
/// as the manual's correction table does. N and Z from the result; C set when
/// the correction is $6x (a decimal carry) or C was already set. The manual
/// leaves V undefined; this model clears it (a BCD result has no signed
/// meaning, and a clear V is what the course tools show).
#[inline(always)]
pub fn daa(ccr: &mut u8, a: u8) -> u8 {
    let hi = a >> 4;
    let lo = a & 0x0F;
    let mut correction = 0u8;
    if *ccr & H != 0 || lo > 9 {
        correction |= 0x06;
    }
    // The table's upper-digit rows: C set, upper > 9, or upper = 9 with a lower
    // digit that will carry into it.
    let carry = *ccr & C != 0 || hi > 9 || (hi >= 9 && lo > 9);
    if carry {
        correction |= 0x60;
    }
    let r = a.wrapping_add(correction);
    put(ccr, N | Z | V | C, nz8_bits(r) | bit(carry, C));
    r
}

/// MUL: A * B; the result goes to D, C = bit 7 of the low byte (so ADCA #0
/// rounds the high byte). Other flags unchanged.
#[inline(always)]
pub fn mul(ccr: &mut u8, a: u8, b: u8) -> u16 {
    let r = a as u16 * b as u16;
    put(ccr, C, bit(r & 0x80 != 0, C));
    r
}

/// IDIV: D / X -> (quotient, remainder). Z if the quotient is 0, V cleared, C
/// set on a zero divisor. On division by zero the manual gives the quotient as
/// $FFFF and the remainder as indeterminate; this model leaves the dividend
/// as the remainder, which is what the 16-step shift-and-subtract divider
/// yields when every subtraction of 0 succeeds.
#[inline]
pub fn idiv(ccr: &mut u8, num: u16, den: u16) -> (u16, u16) {
    let (q, r) = match (num.checked_div(den), num.checked_rem(den)) {
        (Some(q), Some(r)) => (q, r),
        _ => (0xFFFF, num),
    };
    put(ccr, Z | V | C, bit(q == 0, Z) | bit(den == 0, C));
    (q, r)
}

/// FDIV: (D * 65536) / X -> (quotient, remainder), a binary fraction when
/// D < X. Z if the quotient is 0, V set when X <= D (overflow), C set when
/// X = 0. The manual calls the results indeterminate on overflow and gives
/// quotient $FFFF on division by zero. This model: X = 0 gives quotient $FFFF
/// and leaves D as the remainder (as IDIV does); an overflow gives the low 16
/// bits of a 16-step shift-and-subtract division, the divider the chip uses.
#[inline]
pub fn fdiv(ccr: &mut u8, num: u16, den: u16) -> (u16, u16) {
    let (q, r) = if den == 0 {
        (0xFFFF, num)
    } else {
        let den = den as u32;
        let mut r = num as u32;
        let mut q = 0u32;
        for _ in 0..16 {
            r <<= 1;
            q <<= 1;
            if r >= den {
                r -= den;
                q |= 1;
            }
        }
        (q as u16, r as u16)
    };
    put(
        ccr,
        Z | V | C,
        bit(q == 0, Z) | bit(den <= num, V) | bit(den == 0, C),
    );
    (q, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add8_half_carry_and_overflow() {
        let mut ccr = 0;
        assert_eq!(add8(&mut ccr, 0x0F, 0x01, false), 0x10);
        assert_eq!(ccr, H);
        let mut ccr = 0;
        assert_eq!(add8(&mut ccr, 0x7F, 0x01, false), 0x80);
        assert_eq!(ccr, H | N | V);
        let mut ccr = 0;
        assert_eq!(add8(&mut ccr, 0xFF, 0x00, true), 0x00);
        assert_eq!(ccr, H | Z | C);
    }

    #[test]
    fn sub8_borrow_and_overflow() {
        let mut ccr = H;
        assert_eq!(sub8(&mut ccr, 0x00, 0x01, false), 0xFF);
        assert_eq!(ccr, H | N | C, "H untouched by subtraction");
        let mut ccr = 0;
        assert_eq!(sub8(&mut ccr, 0x80, 0x01, false), 0x7F);
        assert_eq!(ccr, V);
        let mut ccr = 0;
        assert_eq!(sub8(&mut ccr, 0x05, 0x04, true), 0x00);
        assert_eq!(ccr, Z);
    }

    #[test]
    fn sixteen_bit_flags() {
        let mut ccr = 0;
        assert_eq!(add16(&mut ccr, 0x7FFF, 1), 0x8000);
        assert_eq!(ccr, N | V);
        let mut ccr = 0;
        assert_eq!(add16(&mut ccr, 0xFFFF, 1), 0);
        assert_eq!(ccr, Z | C);
        let mut ccr = 0;
        assert_eq!(sub16(&mut ccr, 0x8000, 1), 0x7FFF);
        assert_eq!(ccr, V);
        let mut ccr = 0;
        assert_eq!(sub16(&mut ccr, 1, 2), 0xFFFF);
        assert_eq!(ccr, N | C);
    }

    #[test]
    fn neg_edge_cases() {
        let mut ccr = 0;
        assert_eq!(neg8(&mut ccr, 0x80), 0x80);
        assert_eq!(ccr, N | V | C);
        let mut ccr = C | V;
        assert_eq!(neg8(&mut ccr, 0), 0);
        assert_eq!(ccr, Z);
    }

    #[test]
    fn shifts_set_v_to_n_xor_c() {
        let mut ccr = 0;
        assert_eq!(asr8(&mut ccr, 0x81), 0xC0);
        assert_eq!(ccr, N | C);
        let mut ccr = 0;
        assert_eq!(lsr8(&mut ccr, 0x01), 0x00);
        assert_eq!(ccr, Z | V | C);
        let mut ccr = C;
        assert_eq!(rol8(&mut ccr, 0x40), 0x81);
        assert_eq!(ccr, N | V);
        let mut ccr = C;
        assert_eq!(ror8(&mut ccr, 0x01), 0x80);
        assert_eq!(ccr, N | C);
        let mut ccr = 0;
        assert_eq!(asl16(&mut ccr, 0x4000), 0x8000);
        assert_eq!(ccr, N | V);
        let mut ccr = N;
        assert_eq!(lsr16(&mut ccr, 0x0001), 0);
        assert_eq!(ccr, Z | V | C);
    }

    #[test]
    fn daa_after_bcd_adds() {
        // (a, b) BCD operands: add with ADDA, then DAA must give the BCD sum.
        for (a, b) in [
            (0x19u8, 0x28u8),
            (0x99, 0x01),
            (0x45, 0x55),
            (0x09, 0x09),
            (0x50, 0x50),
        ] {
            let mut ccr = 0;
            let sum = add8(&mut ccr, a, b, false);
            let r = daa(&mut ccr, sum);
            let dec = |x: u8| (x >> 4) as u32 * 10 + (x & 15) as u32;
            let expect = dec(a) + dec(b);
            assert_eq!(
                dec(r) + if ccr & C != 0 { 100 } else { 0 },
                expect,
                "{a:02X}+{b:02X}"
            );
        }
    }

    #[test]
    fn divisions() {
        let mut ccr = 0;
        assert_eq!(idiv(&mut ccr, 100, 7), (14, 2));
        assert_eq!(ccr, 0);
        let mut ccr = V;
        assert_eq!(idiv(&mut ccr, 1234, 0), (0xFFFF, 1234));
        assert_eq!(ccr, C);
        let mut ccr = 0;
        assert_eq!(fdiv(&mut ccr, 1, 2), (0x8000, 0));
        assert_eq!(ccr, 0);
        let mut ccr = 0;
        assert_eq!(fdiv(&mut ccr, 1, 3), (0x5555, 1));
        let mut ccr = 0;
        fdiv(&mut ccr, 5, 5);
        assert_eq!(ccr & V, V);
        let mut ccr = 0;
        assert_eq!(fdiv(&mut ccr, 5, 0), (0xFFFF, 5));
        assert_eq!(ccr, V | C);
    }
}

//! Exhaustive and sampled checks of the arithmetic against plain Rust
//! arithmetic: every 8-bit operand pair for ADD/ADC/SUB/SBC/CMP flags, every
//! BCD pair for DAA, every MUL, sampled IDIV/FDIV, and every conditional
//! branch after CMPA/CPD against the signed or unsigned comparison it names
//! (M68HC11 Reference Manual, appendix A, the branch instructions).

#[path = "cpu_support/harness.rs"]
mod harness;

use harness::*;
use hc11lab::cpu::{flags, Cpu, RamBus};

/// Runs `code` from CODE with A, B, X and CCR set, for `steps` steps.
fn run(cpu: &mut Cpu, bus: &mut RamBus, a: u8, b: u8, x: u16, ccr: u8, steps: usize) {
    cpu.regs.pc = CODE;
    cpu.regs.a = a;
    cpu.regs.b = b;
    cpu.regs.x = x;
    cpu.regs.ccr = ccr;
    for _ in 0..steps {
        cpu.step(bus);
    }
}

fn nz(r: u8) -> u8 {
    (if r & 0x80 != 0 { flags::N } else { 0 }) | (if r == 0 { flags::Z } else { 0 })
}

#[test]
fn eight_bit_add_and_subtract_flags_for_every_operand_pair() {
    // ADDA #0 / ADCA #0 / SUBA #0 / SBCA #0 / CMPA #0, operand patched per pair.
    for (opcode, name) in [
        (0x8Bu8, "adda"),
        (0x89, "adca"),
        (0x80, "suba"),
        (0x82, "sbca"),
        (0x81, "cmpa"),
    ] {
        let (mut cpu, mut bus) = machine(&[opcode, 0]);
        for carry_in in [false, true] {
            for a in 0..=255u8 {
                for m in 0..=255u8 {
                    bus.mem[CODE as usize + 1] = m;
                    run(
                        &mut cpu,
                        &mut bus,
                        a,
                        0,
                        0,
                        if carry_in { flags::C } else { 0 },
                        1,
                    );
                    let c = (carry_in && (opcode == 0x89 || opcode == 0x82)) as i32;
                    let (r, carry, overflow, half) = if opcode == 0x8B || opcode == 0x89 {
                        let wide = a as i32 + m as i32 + c;
                        let signed = a as i8 as i32 + m as i8 as i32 + c;
                        let half = (a & 15) as i32 + (m & 15) as i32 + c > 15;
                        (
                            wide as u8,
                            wide > 255,
                            !(-128..=127).contains(&signed),
                            Some(half),
                        )
                    } else {
                        let wide = a as i32 - m as i32 - c;
                        let signed = a as i8 as i32 - m as i8 as i32 - c;
                        (wide as u8, wide < 0, !(-128..=127).contains(&signed), None)
                    };
                    let mut want = nz(r);
                    if carry {
                        want |= flags::C;
                    }
                    if overflow {
                        want |= flags::V;
                    }
                    if half == Some(true) {
                        want |= flags::H;
                    }
                    let ctx = format!("{name} a={a:02X} m={m:02X} c={carry_in}");
                    assert_eq!(flag_str(cpu.regs.ccr & 0x2F), flag_str(want), "{ctx}");
                    let want_a = if opcode == 0x81 { a } else { r };
                    assert_eq!(cpu.regs.a, want_a, "{ctx}");
                }
            }
        }
    }
}

#[test]
fn daa_gives_the_decimal_sum_of_every_bcd_pair() {
    // ADCA #m ; DAA
    let (mut cpu, mut bus) = machine(&[0x89, 0, 0x19]);
    let bcd = |v: u32| ((v / 10) << 4 | (v % 10)) as u8;
    for carry_in in [0u32, 1] {
        for x in 0..100u32 {
            for y in 0..100u32 {
                bus.mem[CODE as usize + 1] = bcd(y);
                run(&mut cpu, &mut bus, bcd(x), 0, 0, carry_in as u8, 2);
                let sum = x + y + carry_in;
                assert_eq!(cpu.regs.a, bcd(sum % 100), "{x}+{y}+{carry_in}");
                assert_eq!(
                    cpu.regs.ccr & flags::C != 0,
                    sum >= 100,
                    "{x}+{y}+{carry_in} carry"
                );
                assert_eq!(cpu.regs.ccr & flags::Z != 0, sum % 100 == 0);
            }
        }
    }
}

#[test]
fn mul_for_every_operand_pair() {
    let (mut cpu, mut bus) = machine(&[0x3D]);
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            run(&mut cpu, &mut bus, a, b, 0, 0, 1);
            let p = a as u16 * b as u16;
            assert_eq!(cpu.regs.d(), p);
            assert_eq!(cpu.regs.ccr, if p & 0x80 != 0 { flags::C } else { 0 });
        }
    }
}

/// A small deterministic generator for sampled operands.
fn lcg(seed: &mut u32) -> u16 {
    *seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
    (*seed >> 16) as u16
}

#[test]
fn idiv_and_fdiv_match_integer_division() {
    let (mut cpu, mut bus) = machine(&[0x02]);
    let (mut fcpu, mut fbus) = machine(&[0x03]);
    let mut seed = 1;
    for i in 0..20_000 {
        let num = lcg(&mut seed);
        let den = match i % 4 {
            0 => lcg(&mut seed) % 16 + 1,
            _ => lcg(&mut seed).max(1),
        };
        let [a, b] = num.to_be_bytes();
        run(&mut cpu, &mut bus, a, b, den, 0, 1);
        assert_eq!(
            (cpu.regs.x, cpu.regs.d()),
            (num / den, num % den),
            "idiv {num}/{den}"
        );
        assert_eq!(cpu.regs.ccr & flags::Z != 0, num / den == 0);
        // FDIV needs num < den for a defined result.
        let (n, d) = if num < den {
            (num, den)
        } else {
            (den - 1, den)
        };
        let [a, b] = n.to_be_bytes();
        run(&mut fcpu, &mut fbus, a, b, d, 0, 1);
        let wide = (n as u32) << 16;
        assert_eq!(
            (fcpu.regs.x, fcpu.regs.d()),
            ((wide / d as u32) as u16, (wide % d as u32) as u16),
            "fdiv {n}/{d}"
        );
        assert_eq!(fcpu.regs.ccr & (flags::V | flags::C), 0);
    }
}

/// (opcode, name, unsigned/signed predicate on (a, b) after `cmp a, b`)
type Cond = (u8, &'static str, fn(i64, i64, i64, i64) -> bool);

/// Branch conditions as comparisons: arguments are a, b unsigned and a, b signed.
const CONDS: &[Cond] = &[
    (0x22, "bhi", |a, b, _, _| a > b),
    (0x23, "bls", |a, b, _, _| a <= b),
    (0x24, "bcc/bhs", |a, b, _, _| a >= b),
    (0x25, "bcs/blo", |a, b, _, _| a < b),
    (0x26, "bne", |a, b, _, _| a != b),
    (0x27, "beq", |a, b, _, _| a == b),
    (0x2C, "bge", |_, _, sa, sb| sa >= sb),
    (0x2D, "blt", |_, _, sa, sb| sa < sb),
    (0x2E, "bgt", |_, _, sa, sb| sa > sb),
    (0x2F, "ble", |_, _, sa, sb| sa <= sb),
];

#[test]
fn branches_after_cmpa_follow_signed_and_unsigned_order() {
    for &(op, name, pred) in CONDS {
        // CMPA #b ; Bxx +1 ; NOP ; NOP
        let (mut cpu, mut bus) = machine(&[0x81, 0, op, 0x01, 0x01, 0x01]);
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                bus.mem[CODE as usize + 1] = b;
                run(&mut cpu, &mut bus, a, 0, 0, 0, 2);
                let taken = cpu.regs.pc == CODE + 5;
                let want = pred(a as i64, b as i64, a as i8 as i64, b as i8 as i64);
                assert_eq!(taken, want, "cmpa {a:02X},{b:02X}; {name}");
            }
        }
    }
}

#[test]
fn branches_after_cpd_follow_signed_and_unsigned_order() {
    let values = [
        0x0000u16, 0x0001, 0x007F, 0x0080, 0x00FF, 0x0100, 0x7FFE, 0x7FFF, 0x8000, 0x8001, 0xFF00,
        0xFFFE, 0xFFFF,
    ];
    for &(op, name, pred) in CONDS {
        for &d in &values {
            for &m in &values {
                // CPD #m ; Bxx +1 ; NOP ; NOP
                let [mh, ml] = m.to_be_bytes();
                let (mut cpu, mut bus) = machine(&[0x1A, 0x83, mh, ml, op, 0x01, 0x01, 0x01]);
                let [a, b] = d.to_be_bytes();
                run(&mut cpu, &mut bus, a, b, 0, 0, 2);
                let taken = cpu.regs.pc == CODE + 7;
                let want = pred(d as i64, m as i64, d as i16 as i64, m as i16 as i64);
                assert_eq!(taken, want, "cpd {d:04X},{m:04X}; {name}");
            }
        }
    }
}

#[test]
fn bcd_addition_program() {
    // Adds two 4-byte BCD numbers (big-endian) at $40 and $44 into $48 with
    // ADCA + DAA, walking X from the least significant byte:
    //   ldx #$0043 ; clc ; ldab #4
    // l: ldaa 0,x ; adca 4,x ; daa ; staa 8,x ; dex ; decb ; bne l ; swi
    let code = [
        0xCE, 0x00, 0x43, 0x0C, 0xC6, 0x04, 0xA6, 0x00, 0xA9, 0x04, 0x19, 0xA7, 0x08, 0x09, 0x5A,
        0x26, 0xF5, 0x3F,
    ];
    let bcd4 = |v: u32| {
        let mut out = [0u8; 4];
        let mut v = v;
        for byte in out.iter_mut().rev() {
            *byte = ((v / 10 % 10) << 4 | (v % 10)) as u8;
            v /= 100;
        }
        out
    };
    let mut seed = 7;
    for _ in 0..200 {
        let x = (lcg(&mut seed) as u32 * 1531) % 100_000_000;
        let y = (lcg(&mut seed) as u32 * 977) % 100_000_000;
        let (mut cpu, mut bus) = machine(&code);
        bus.set_word(0xFFF6, 0xE000);
        bus.load(0x40, &bcd4(x));
        bus.load(0x44, &bcd4(y));
        // DEX/DECB leave C alone, so the carry chains through the bytes.
        let mut steps = 0;
        while cpu.regs.pc != 0xE000 && steps < 100 {
            cpu.step(&mut bus);
            steps += 1;
        }
        let sum = x + y;
        assert_eq!(&bus.mem[0x48..0x4C], &bcd4(sum % 100_000_000), "{x} + {y}");
        let stacked_ccr = bus.mem[(SP - 8) as usize];
        assert_eq!(
            stacked_ccr & flags::C != 0,
            sum >= 100_000_000,
            "{x} + {y} carry"
        );
    }
}

/// `Cpu::went_back` marks a branch or jump to its own address or below
/// (where `run_until` looks for loops), never a call, a return or a
/// forward jump.
#[test]
fn only_branches_and_jumps_back_are_marked_back() {
    // Each case: code at CODE (PC starts at its first byte, SP at $01FF
    // with a return address to $B000 stacked), and whether the step is back.
    let cases: [(&str, &[u8], bool); 10] = [
        ("bra *", &[0x20, 0xFE], true),
        ("bra back", &[0x20, 0xF0], true),
        ("bra forward", &[0x20, 0x10], false),
        ("bne taken back (Z clear)", &[0x26, 0xF0], true),
        ("beq not taken back", &[0x27, 0xF0], false),
        ("jmp $B000", &[0x7E, 0xB0, 0x00], true),
        (
            "brclr $50,#$80,* ($50 = 0)",
            &[0x13, 0x50, 0x80, 0xFC],
            true,
        ),
        ("jsr $B000", &[0xBD, 0xB0, 0x00], false),
        ("bsr back", &[0x8D, 0xF0], false),
        ("rts to $B000", &[0x39], false),
    ];
    for (name, code, back) in cases {
        let (mut cpu, mut bus) = machine(code);
        cpu.regs.pc = CODE;
        cpu.regs.ccr &= !flags::Z;
        cpu.regs.sp = 0x01FD;
        bus.load(0x01FE, &[0xB0, 0x00]);
        bus.load(0x0050, &[0x00]);
        cpu.step(&mut bus);
        assert_eq!(cpu.went_back(), back, "{name}: PC now ${:04X}", cpu.regs.pc);
    }
}

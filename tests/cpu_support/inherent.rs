//! The inherent operations (one opcode, no operand: register transfers,
//! shifts and arithmetic of D, the index registers, flags) and the stack
//! operations, one case per opcode with its flags and E-cycles.

use super::harness::*;

pub fn inherent_ops(cov: &mut Coverage) {
    Case::new("nop", &[0x01]).ccr("NZVC").cycles(2).run(cov);
    // Shifts of D.
    Case::new("lsrd to 0", &[0x04])
        .with(|r| r.set_d(0x0001))
        .ccr("N")
        .expect(|r| r.set_d(0))
        .flags("ZVC")
        .cycles(3)
        .run(cov);
    Case::new("lsrd", &[0x04])
        .with(|r| r.set_d(0x8002))
        .expect(|r| r.set_d(0x4001))
        .flags("")
        .run(cov);
    Case::new("asld into N", &[0x05])
        .with(|r| r.set_d(0x4000))
        .expect(|r| r.set_d(0x8000))
        .flags("NV")
        .cycles(3)
        .run(cov);
    Case::new("asld out of bit 15", &[0x05])
        .with(|r| r.set_d(0x8000))
        .expect(|r| r.set_d(0))
        .flags("ZVC")
        .run(cov);
    Case::new("asld both", &[0x05])
        .with(|r| r.set_d(0xC001))
        .expect(|r| r.set_d(0x8002))
        .flags("NC")
        .run(cov);
    // CCR transfers.
    Case::new("tap all", &[0x06])
        .with(|r| r.a = 0xFF)
        .ccr("X")
        .flags("SXHINZVC")
        .cycles(2)
        .run(cov);
    Case::new("tap cannot set X", &[0x06])
        .with(|r| r.a = 0xFF)
        .ccr("")
        .flags("SHINZVC")
        .run(cov);
    Case::new("tap clears X", &[0x06])
        .with(|r| r.a = 0x00)
        .ccr("XI")
        .flags("")
        .run(cov);
    Case::new("tpa", &[0x07])
        .ccr("SXIZC")
        .expect(|r| r.a = 0xD5)
        .cycles(2)
        .run(cov);
    // INX/DEX/INY/DEY: Z only.
    Case::new("inx to 0", &[0x08])
        .with(|r| r.x = 0xFFFF)
        .ccr("NVC")
        .expect(|r| r.x = 0)
        .flags("NZVC")
        .cycles(3)
        .run(cov);
    Case::new("inx", &[0x08])
        .ccr("Z")
        .expect(|r| r.x = IX + 1)
        .flags("")
        .run(cov);
    Case::new("dex to 0", &[0x09])
        .with(|r| r.x = 1)
        .expect(|r| r.x = 0)
        .flags("Z")
        .cycles(3)
        .run(cov);
    Case::new("dex wraps", &[0x09])
        .with(|r| r.x = 0)
        .ccr("Z")
        .expect(|r| r.x = 0xFFFF)
        .flags("")
        .run(cov);
    Case::new("iny to 0", &[0x18, 0x08])
        .with(|r| r.y = 0xFFFF)
        .expect(|r| r.y = 0)
        .flags("Z")
        .cycles(4)
        .run(cov);
    Case::new("dey", &[0x18, 0x09])
        .ccr("ZC")
        .expect(|r| r.y = IY - 1)
        .flags("C")
        .cycles(4)
        .run(cov);
    // Flag instructions.
    Case::new("clv", &[0x0A])
        .ccr("NZVC")
        .flags("NZC")
        .cycles(2)
        .run(cov);
    Case::new("sev", &[0x0B]).flags("V").cycles(2).run(cov);
    Case::new("clc", &[0x0C])
        .ccr("HC")
        .flags("H")
        .cycles(2)
        .run(cov);
    Case::new("sec", &[0x0D]).flags("C").cycles(2).run(cov);
    Case::new("cli", &[0x0E])
        .ccr("XI")
        .flags("X")
        .cycles(2)
        .run(cov);
    Case::new("sei", &[0x0F]).flags("I").cycles(2).run(cov);
    // Accumulator arithmetic.
    Case::new("sba", &[0x10])
        .with(|r| {
            r.a = 0x10;
            r.b = 0x20
        })
        .ccr("H")
        .expect(|r| r.a = 0xF0)
        .flags("HNC")
        .cycles(2)
        .run(cov);
    Case::new("cba", &[0x11])
        .with(|r| {
            r.a = 0x20;
            r.b = 0x20
        })
        .flags("Z")
        .cycles(2)
        .run(cov);
    Case::new("cba signed", &[0x11])
        .with(|r| {
            r.a = 0x7F;
            r.b = 0xFF
        })
        .flags("NVC")
        .run(cov);
    Case::new("tab", &[0x16])
        .with(|r| r.a = 0x80)
        .ccr("VC")
        .expect(|r| r.b = 0x80)
        .flags("NC")
        .cycles(2)
        .run(cov);
    Case::new("tba", &[0x17])
        .with(|r| {
            r.a = 0x33;
            r.b = 0
        })
        .expect(|r| r.a = 0)
        .flags("Z")
        .cycles(2)
        .run(cov);
    Case::new("aba H", &[0x1B])
        .with(|r| {
            r.a = 0x0F;
            r.b = 0x01
        })
        .expect(|r| r.a = 0x10)
        .flags("H")
        .cycles(2)
        .run(cov);
    Case::new("aba carry", &[0x1B])
        .with(|r| {
            r.a = 0xF0;
            r.b = 0x20
        })
        .ccr("C")
        .expect(|r| r.a = 0x10)
        .flags("C")
        .run(cov);
    // MUL: D = A * B, C = bit 7 of B (the rounding bit), other flags kept.
    Case::new("mul round up", &[0x3D])
        .with(|r| {
            r.a = 0x12;
            r.b = 0x34
        })
        .expect(|r| r.set_d(0x03A8))
        .flags("C")
        .cycles(10)
        .run(cov);
    Case::new("mul keeps NZV", &[0x3D])
        .with(|r| {
            r.a = 0x10;
            r.b = 0x10
        })
        .ccr("NZVC")
        .expect(|r| r.set_d(0x0100))
        .flags("NZV")
        .run(cov);
    Case::new("mul max", &[0x3D])
        .with(|r| {
            r.a = 0xFF;
            r.b = 0xFF
        })
        .expect(|r| r.set_d(0xFE01))
        .flags("")
        .run(cov);
    // IDIV: X = D / X, D = remainder.
    Case::new("idiv", &[0x02])
        .with(|r| {
            r.set_d(100);
            r.x = 7
        })
        .ccr("NZVC")
        .expect(|r| {
            r.x = 14;
            r.set_d(2)
        })
        .flags("N")
        .cycles(41)
        .run(cov);
    Case::new("idiv quotient 0", &[0x02])
        .with(|r| {
            r.set_d(5);
            r.x = 10
        })
        .expect(|r| {
            r.x = 0;
            r.set_d(5)
        })
        .flags("Z")
        .run(cov);
    Case::new("idiv by 0", &[0x02])
        .with(|r| {
            r.set_d(1234);
            r.x = 0
        })
        .ccr("V")
        .expect(|r| {
            r.x = 0xFFFF;
            r.set_d(1234)
        })
        .flags("C")
        .run(cov);
    Case::new("idiv max", &[0x02])
        .with(|r| {
            r.set_d(0xFFFF);
            r.x = 1
        })
        .expect(|r| {
            r.x = 0xFFFF;
            r.set_d(0)
        })
        .flags("")
        .run(cov);
    // FDIV: X = (D << 16) / X, D = remainder.
    Case::new("fdiv 1/2", &[0x03])
        .with(|r| {
            r.set_d(1);
            r.x = 2
        })
        .expect(|r| {
            r.x = 0x8000;
            r.set_d(0)
        })
        .flags("")
        .cycles(41)
        .run(cov);
    Case::new("fdiv 1/3", &[0x03])
        .with(|r| {
            r.set_d(1);
            r.x = 3
        })
        .expect(|r| {
            r.x = 0x5555;
            r.set_d(1)
        })
        .flags("")
        .run(cov);
    Case::new("fdiv 0/5", &[0x03])
        .with(|r| {
            r.set_d(0);
            r.x = 5
        })
        .ccr("N")
        .expect(|r| {
            r.x = 0;
            r.set_d(0)
        })
        .flags("NZ")
        .run(cov);
    Case::new("fdiv by 0", &[0x03])
        .with(|r| {
            r.set_d(0x1234);
            r.x = 0
        })
        .expect(|r| {
            r.x = 0xFFFF;
            r.set_d(0x1234)
        })
        .flags("VC")
        .run(cov);
    Case::new("fdiv overflow X = D", &[0x03])
        .with(|r| {
            r.set_d(5);
            r.x = 5
        })
        .expect(|r| {
            r.x = 0xFFFF;
            r.set_d(5)
        })
        .flags("V")
        .run(cov);
    Case::new("fdiv largest", &[0x03])
        .with(|r| {
            r.set_d(0xFFFE);
            r.x = 0xFFFF
        })
        .expect(|r| {
            r.x = 0xFFFE;
            r.set_d(0xFFFE)
        })
        .flags("")
        .run(cov);
    // DAA after BCD additions (A holds the binary sum, H and C as ADDA left them).
    Case::new("daa 05+05", &[0x19])
        .with(|r| r.a = 0x0A)
        .expect(|r| r.a = 0x10)
        .flags("")
        .cycles(2)
        .run(cov);
    Case::new("daa 09+09 (H)", &[0x19])
        .with(|r| r.a = 0x12)
        .ccr("H")
        .expect(|r| r.a = 0x18)
        .flags("H")
        .run(cov);
    Case::new("daa 99+01", &[0x19])
        .with(|r| r.a = 0x9A)
        .expect(|r| r.a = 0x00)
        .flags("ZC")
        .run(cov);
    Case::new("daa 50+50", &[0x19])
        .with(|r| r.a = 0xA0)
        .expect(|r| r.a = 0x00)
        .flags("ZC")
        .run(cov);
    Case::new("daa 99+99 (H,C)", &[0x19])
        .with(|r| r.a = 0x32)
        .ccr("HC")
        .expect(|r| r.a = 0x98)
        .flags("HNC")
        .run(cov);
    Case::new("daa 19+28", &[0x19])
        .with(|r| r.a = 0x41)
        .ccr("H")
        .expect(|r| r.a = 0x47)
        .flags("H")
        .run(cov);
    Case::new("daa clears V", &[0x19])
        .with(|r| r.a = 0x79)
        .ccr("V")
        .expect(|r| r.a = 0x79)
        .flags("")
        .run(cov);
    Case::new("daa 45+55", &[0x19])
        .with(|r| r.a = 0x9A)
        .expect(|r| r.a = 0x00)
        .flags("ZC")
        .run(cov);
    // Stack pointer transfers: X/Y = SP + 1, SP = X/Y - 1; no flags.
    Case::new("tsx", &[0x30])
        .ccr("NZVC")
        .expect(|r| r.x = SP + 1)
        .cycles(3)
        .run(cov);
    Case::new("txs", &[0x35])
        .expect(|r| r.sp = IX - 1)
        .cycles(3)
        .run(cov);
    Case::new("tsy", &[0x18, 0x30])
        .expect(|r| r.y = SP + 1)
        .cycles(4)
        .run(cov);
    Case::new("tys", &[0x18, 0x35])
        .expect(|r| r.sp = IY - 1)
        .cycles(4)
        .run(cov);
    Case::new("ins", &[0x31])
        .ccr("Z")
        .expect(|r| r.sp = SP + 1)
        .cycles(3)
        .run(cov);
    Case::new("des", &[0x34])
        .ccr("Z")
        .expect(|r| r.sp = SP - 1)
        .cycles(3)
        .run(cov);
    Case::new("ins wraps", &[0x31])
        .with(|r| r.sp = 0xFFFF)
        .expect(|r| r.sp = 0)
        .run(cov);
    // ABX/ABY: unsigned B, no flags.
    Case::new("abx", &[0x3A])
        .with(|r| {
            r.x = 0x20F0;
            r.b = 0xFF
        })
        .ccr("C")
        .expect(|r| r.x = 0x21EF)
        .cycles(3)
        .run(cov);
    Case::new("aby", &[0x18, 0x3A])
        .with(|r| {
            r.y = 0xFFFF;
            r.b = 0x02
        })
        .expect(|r| r.y = 0x0001)
        .cycles(4)
        .run(cov);
    // Exchanges: no flags.
    Case::new("xgdx", &[0x8F])
        .with(|r| r.set_d(0x1234))
        .ccr("NZVC")
        .expect(|r| {
            r.set_d(IX);
            r.x = 0x1234
        })
        .cycles(3)
        .run(cov);
    Case::new("xgdy", &[0x18, 0x8F])
        .with(|r| r.set_d(0x0000))
        .expect(|r| {
            r.set_d(IY);
            r.y = 0
        })
        .cycles(4)
        .run(cov);
}

#[test]
fn inherent_operations() {
    inherent_ops(&mut Coverage::default());
}

pub fn stack_ops(cov: &mut Coverage) {
    Case::new("psha", &[0x36])
        .with(|r| r.a = 0x5A)
        .writes(SP, &[0x5A])
        .expect(|r| r.sp = SP - 1)
        .cycles(3)
        .run(cov);
    Case::new("pshb", &[0x37])
        .with(|r| r.b = 0xA5)
        .writes(SP, &[0xA5])
        .expect(|r| r.sp = SP - 1)
        .cycles(3)
        .run(cov);
    Case::new("pula", &[0x32])
        .with(|r| r.sp = SP - 1)
        .mem(SP, &[0xAB])
        .ccr("Z")
        .expect(|r| {
            r.a = 0xAB;
            r.sp = SP
        })
        .cycles(4)
        .run(cov);
    Case::new("pulb", &[0x33])
        .with(|r| r.sp = SP - 1)
        .mem(SP, &[0x00])
        .expect(|r| {
            r.b = 0;
            r.sp = SP
        })
        .cycles(4)
        .run(cov);
    // PSHX pushes the low byte first, so the high byte ends at the lower address.
    Case::new("pshx", &[0x3C])
        .with(|r| r.x = 0x1234)
        .writes(SP - 1, &[0x12, 0x34])
        .expect(|r| r.sp = SP - 2)
        .cycles(4)
        .run(cov);
    Case::new("pshy", &[0x18, 0x3C])
        .with(|r| r.y = 0xABCD)
        .writes(SP - 1, &[0xAB, 0xCD])
        .expect(|r| r.sp = SP - 2)
        .cycles(5)
        .run(cov);
    Case::new("pulx", &[0x38])
        .with(|r| r.sp = SP - 2)
        .mem(SP - 1, &[0x12, 0x34])
        .expect(|r| {
            r.x = 0x1234;
            r.sp = SP
        })
        .cycles(5)
        .run(cov);
    Case::new("puly", &[0x18, 0x38])
        .with(|r| r.sp = SP - 2)
        .mem(SP - 1, &[0xFE, 0xDC])
        .expect(|r| {
            r.y = 0xFEDC;
            r.sp = SP
        })
        .cycles(6)
        .run(cov);
    Case::new("rts", &[0x39])
        .with(|r| r.sp = SP - 2)
        .mem(SP - 1, &[0xC1, 0x23])
        .expect(|r| {
            r.pc = 0xC123;
            r.sp = SP
        })
        .cycles(5)
        .run(cov);
    Case::new("pshx wraps SP", &[0x3C])
        .with(|r| {
            r.x = 0x1234;
            r.sp = 0x0000
        })
        .writes(0xFFFF, &[0x12])
        .writes(0x0000, &[0x34])
        .expect(|r| r.sp = 0xFFFE)
        .run(cov);
}

#[test]
fn stack_operations() {
    stack_ops(&mut Coverage::default());
}

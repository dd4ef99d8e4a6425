//! Table-driven single-step tests for every opcode of the MC68HC11 opcode
//! table (M68HC11 Reference Manual, appendix A): registers, CCR flags, memory
//! and E-cycles after one instruction. `every_opcode_is_covered` checks that
//! the cases together run every entry of `OPCODES`.

#[path = "cpu_support/harness.rs"]
mod harness;
#[path = "cpu_support/inherent.rs"]
mod inherent;

use harness::*;
use hc11lab::cpu::opcodes::{entries_for, Mode, Op, OPCODES};
use hc11lab::cpu::{IllegalOpcode, Registers, RunState, StepEvent};
use Mode::*;

// ---- expected cycles per addressing mode, transcribed from the manual's
// ---- instruction tables (independent of src/cpu/opcodes.rs)

const ALU8: &[(Mode, u32)] = &[
    (Imm8, 2),
    (Direct, 3),
    (Extended, 4),
    (IndexedX, 4),
    (IndexedY, 5),
];
const STORE8: &[(Mode, u32)] = &[(Direct, 3), (Extended, 4), (IndexedX, 4), (IndexedY, 5)];
const ALU16: &[(Mode, u32)] = &[
    (Imm16, 4),
    (Direct, 5),
    (Extended, 6),
    (IndexedX, 6),
    (IndexedY, 7),
];
const CPD_CPY: &[(Mode, u32)] = &[
    (Imm16, 5),
    (Direct, 6),
    (Extended, 7),
    (IndexedX, 7),
    (IndexedY, 7),
];
const LOAD16: &[(Mode, u32)] = &[
    (Imm16, 3),
    (Direct, 4),
    (Extended, 5),
    (IndexedX, 5),
    (IndexedY, 6),
];
const LDY: &[(Mode, u32)] = &[
    (Imm16, 4),
    (Direct, 5),
    (Extended, 6),
    (IndexedX, 6),
    (IndexedY, 6),
];
const STORE16: &[(Mode, u32)] = &[(Direct, 4), (Extended, 5), (IndexedX, 5), (IndexedY, 6)];
const STY: &[(Mode, u32)] = &[(Direct, 5), (Extended, 6), (IndexedX, 6), (IndexedY, 6)];
const RMW: &[(Mode, u32)] = &[(Extended, 6), (IndexedX, 6), (IndexedY, 7)];
const JMP: &[(Mode, u32)] = &[(Extended, 3), (IndexedX, 3), (IndexedY, 4)];
const JSR: &[(Mode, u32)] = &[(Direct, 5), (Extended, 6), (IndexedX, 6), (IndexedY, 7)];
const BITS: &[(Mode, u32)] = &[(BitDirect, 6), (BitIndexedX, 7), (BitIndexedY, 8)];
const BRBITS: &[(Mode, u32)] = &[
    (BitBranchDirect, 6),
    (BitBranchIndexedX, 7),
    (BitBranchIndexedY, 8),
];

/// One operation run in every addressing mode it has, with the same operand
/// value and the same expected outcome.
struct Fam {
    op: Op,
    cycles: &'static [(Mode, u32)],
    value: &'static [u8],
    init: fn(&mut Registers),
    expect: fn(&mut Registers),
    /// Expected bytes at the operand address afterwards (stores, read-modify-write).
    writes: Option<&'static [u8]>,
}

fn modes_of(op: Op, cycles: &[(Mode, u32)]) -> Vec<(&'static hc11lab::cpu::OpcodeInfo, u32)> {
    let entries: Vec<_> = entries_for(op).collect();
    let mut table_modes: Vec<String> = entries.iter().map(|e| format!("{:?}", e.mode)).collect();
    let mut want_modes: Vec<String> = cycles.iter().map(|(m, _)| format!("{m:?}")).collect();
    table_modes.sort();
    want_modes.sort();
    assert_eq!(
        table_modes, want_modes,
        "{op}: addressing modes in the table"
    );
    entries
        .into_iter()
        .map(|e| {
            let c = cycles
                .iter()
                .find(|(m, _)| *m == e.mode)
                .map(|(_, c)| *c)
                .unwrap_or(0);
            (e, c)
        })
        .collect()
}

fn run_fams(cov: &mut Coverage, fams: &[Fam]) {
    for fam in fams {
        for (info, cycles) in modes_of(fam.op, fam.cycles) {
            let (case, ea) = mode_case(info, fam.value);
            let mut case = case.with(fam.init).expect(fam.expect).cycles(cycles);
            if let (Some(w), Some(a)) = (fam.writes, ea) {
                case = case.writes(a, w);
            }
            case.run(cov);
        }
    }
}

// ---- 8-bit operations on A and B in all modes ---------------------------------

fn alu8_families(cov: &mut Coverage) {
    #[rustfmt::skip]
    let fams = [
        Fam { op: Op::Ldaa, cycles: ALU8, value: &[0x80], writes: None,
              init: |r| r.ccr = f("VC"), expect: |r| { r.a = 0x80; r.ccr = f("NC") } },
        Fam { op: Op::Ldab, cycles: ALU8, value: &[0x00], writes: None,
              init: |r| { r.b = 0x55; r.ccr = f("NV") }, expect: |r| { r.b = 0; r.ccr = f("Z") } },
        Fam { op: Op::Adda, cycles: ALU8, value: &[0x01], writes: None,
              init: |r| { r.a = 0x0F; r.ccr = f("C") }, expect: |r| { r.a = 0x10; r.ccr = f("H") } },
        Fam { op: Op::Addb, cycles: ALU8, value: &[0x01], writes: None,
              init: |r| r.b = 0x7F, expect: |r| { r.b = 0x80; r.ccr = f("HNV") } },
        Fam { op: Op::Adca, cycles: ALU8, value: &[0x20], writes: None,
              init: |r| { r.a = 0x10; r.ccr = f("C") }, expect: |r| { r.a = 0x31; r.ccr = 0 } },
        Fam { op: Op::Adcb, cycles: ALU8, value: &[0x80], writes: None,
              init: |r| { r.b = 0x80; r.ccr = f("C") }, expect: |r| { r.b = 0x01; r.ccr = f("VC") } },
        Fam { op: Op::Suba, cycles: ALU8, value: &[0x20], writes: None,
              init: |r| { r.a = 0x10; r.ccr = f("H") }, expect: |r| { r.a = 0xF0; r.ccr = f("HNC") } },
        Fam { op: Op::Subb, cycles: ALU8, value: &[0x01], writes: None,
              init: |r| r.b = 0x80, expect: |r| { r.b = 0x7F; r.ccr = f("V") } },
        Fam { op: Op::Sbca, cycles: ALU8, value: &[0x0F], writes: None,
              init: |r| { r.a = 0x10; r.ccr = f("C") }, expect: |r| { r.a = 0x00; r.ccr = f("Z") } },
        Fam { op: Op::Sbcb, cycles: ALU8, value: &[0x7F], writes: None,
              init: |r| { r.b = 0x00; r.ccr = f("C") }, expect: |r| { r.b = 0x80; r.ccr = f("NC") } },
        Fam { op: Op::Cmpa, cycles: ALU8, value: &[0x05], writes: None,
              init: |r| { r.a = 0x05; r.ccr = f("NVC") }, expect: |r| r.ccr = f("Z") },
        Fam { op: Op::Cmpb, cycles: ALU8, value: &[0x02], writes: None,
              init: |r| r.b = 0x01, expect: |r| r.ccr = f("NC") },
        Fam { op: Op::Anda, cycles: ALU8, value: &[0x8F], writes: None,
              init: |r| { r.a = 0xF0; r.ccr = f("V") }, expect: |r| { r.a = 0x80; r.ccr = f("N") } },
        Fam { op: Op::Andb, cycles: ALU8, value: &[0xF0], writes: None,
              init: |r| { r.b = 0x0F; r.ccr = f("C") }, expect: |r| { r.b = 0; r.ccr = f("ZC") } },
        Fam { op: Op::Bita, cycles: ALU8, value: &[0x80], writes: None,
              init: |r| { r.a = 0x81; r.ccr = f("V") }, expect: |r| r.ccr = f("N") },
        Fam { op: Op::Bitb, cycles: ALU8, value: &[0x02], writes: None,
              init: |r| r.b = 0x01, expect: |r| r.ccr = f("Z") },
        Fam { op: Op::Eora, cycles: ALU8, value: &[0x0F], writes: None,
              init: |r| r.a = 0xFF, expect: |r| { r.a = 0xF0; r.ccr = f("N") } },
        Fam { op: Op::Eorb, cycles: ALU8, value: &[0x55], writes: None,
              init: |r| r.b = 0x55, expect: |r| { r.b = 0; r.ccr = f("Z") } },
        Fam { op: Op::Oraa, cycles: ALU8, value: &[0x80], writes: None,
              init: |r| r.a = 0x01, expect: |r| { r.a = 0x81; r.ccr = f("N") } },
        Fam { op: Op::Orab, cycles: ALU8, value: &[0x00], writes: None,
              init: |r| { r.b = 0; r.ccr = f("VC") }, expect: |r| r.ccr = f("ZC") },
        Fam { op: Op::Staa, cycles: STORE8, value: &[0xAA], writes: Some(&[0x80]),
              init: |r| { r.a = 0x80; r.ccr = f("VC") }, expect: |r| r.ccr = f("NC") },
        Fam { op: Op::Stab, cycles: STORE8, value: &[0xAA], writes: Some(&[0x00]),
              init: |r| { r.b = 0; r.ccr = f("N") }, expect: |r| r.ccr = f("Z") },
    ];
    run_fams(cov, &fams);
}

#[test]
fn alu8_in_all_modes() {
    alu8_families(&mut Coverage::default());
}

/// Carry-in and flag edge cases of the 8-bit arithmetic (immediate mode).
fn alu8_edges(cov: &mut Coverage) {
    // H on $0F + $01 and on ADC; ADC/SBC with carry in.
    Case::new("adda H", &[0x8B, 0x01])
        .with(|r| r.a = 0x0F)
        .expect(|r| r.a = 0x10)
        .flags("H")
        .cycles(2)
        .run(cov);
    Case::new("adca $FF+0+C", &[0x89, 0x00])
        .with(|r| r.a = 0xFF)
        .ccr("C")
        .expect(|r| r.a = 0x00)
        .flags("HZC")
        .run(cov);
    Case::new("adcb $08+$07+C", &[0xC9, 0x07])
        .with(|r| r.b = 0x08)
        .ccr("C")
        .expect(|r| r.b = 0x10)
        .flags("H")
        .run(cov);
    Case::new("adda $80+$80", &[0x8B, 0x80])
        .with(|r| r.a = 0x80)
        .expect(|r| r.a = 0x00)
        .flags("ZVC")
        .run(cov);
    Case::new("sbca 0-0-C", &[0x82, 0x00])
        .ccr("C")
        .expect(|r| r.a = 0xFF)
        .flags("NC")
        .run(cov);
    Case::new("sbcb $80-0-C", &[0xC2, 0x00])
        .with(|r| r.b = 0x80)
        .ccr("C")
        .expect(|r| r.b = 0x7F)
        .flags("V")
        .run(cov);
    Case::new("suba H kept", &[0x80, 0x01])
        .with(|r| r.a = 0x10)
        .ccr("H")
        .expect(|r| r.a = 0x0F)
        .flags("H")
        .run(cov);
    Case::new("cmpa signed", &[0x81, 0x01])
        .with(|r| r.a = 0x80)
        .flags("V")
        .run(cov);
    Case::new("ldaa $7F", &[0x86, 0x7F])
        .ccr("NZV")
        .expect(|r| r.a = 0x7F)
        .flags("")
        .run(cov);
}

#[test]
fn alu8_edge_cases() {
    alu8_edges(&mut Coverage::default());
}

// ---- 16-bit operations in all modes --------------------------------------------

fn alu16_families(cov: &mut Coverage) {
    #[rustfmt::skip]
    let fams = [
        Fam { op: Op::Addd, cycles: ALU16, value: &[0x00, 0x01], writes: None,
              init: |r| r.set_d(0x7FFF), expect: |r| { r.set_d(0x8000); r.ccr = f("NV") } },
        Fam { op: Op::Subd, cycles: ALU16, value: &[0x00, 0x01], writes: None,
              init: |r| { r.set_d(0x0000); r.ccr = f("H") }, expect: |r| { r.set_d(0xFFFF); r.ccr = f("HNC") } },
        Fam { op: Op::Cpd, cycles: CPD_CPY, value: &[0x12, 0x34], writes: None,
              init: |r| { r.set_d(0x1234); r.ccr = f("NVC") }, expect: |r| r.ccr = f("Z") },
        // X is also the index base in the indexed-X form: compare it with itself.
        Fam { op: Op::Cpx, cycles: ALU16, value: &[0x20, 0x00], writes: None,
              init: |r| r.ccr = f("NC"), expect: |r| r.ccr = f("Z") },
        Fam { op: Op::Cpy, cycles: CPD_CPY, value: &[0x30, 0x01], writes: None,
              init: |_| {}, expect: |r| r.ccr = f("NC") },
        Fam { op: Op::Ldd, cycles: LOAD16, value: &[0x80, 0x01], writes: None,
              init: |r| r.ccr = f("VC"), expect: |r| { r.set_d(0x8001); r.ccr = f("NC") } },
        Fam { op: Op::Ldx, cycles: LOAD16, value: &[0x00, 0x00], writes: None,
              init: |r| r.ccr = f("N"), expect: |r| { r.x = 0; r.ccr = f("Z") } },
        Fam { op: Op::Ldy, cycles: LDY, value: &[0x80, 0x00], writes: None,
              init: |r| r.ccr = f("ZV"), expect: |r| { r.y = 0x8000; r.ccr = f("N") } },
        Fam { op: Op::Lds, cycles: LOAD16, value: &[0x10, 0x00], writes: None,
              init: |r| r.ccr = f("Z"), expect: |r| { r.sp = 0x1000; r.ccr = 0 } },
        Fam { op: Op::Std, cycles: STORE16, value: &[0xAA, 0xBB], writes: Some(&[0x80, 0x00]),
              init: |r| { r.set_d(0x8000); r.ccr = f("V") }, expect: |r| r.ccr = f("N") },
        Fam { op: Op::Stx, cycles: STORE16, value: &[0xAA, 0xBB], writes: Some(&[0x20, 0x00]),
              init: |r| r.ccr = f("ZVC"), expect: |r| r.ccr = f("C") },
        Fam { op: Op::Sty, cycles: STY, value: &[0xAA, 0xBB], writes: Some(&[0x30, 0x00]),
              init: |r| r.ccr = f("N"), expect: |r| r.ccr = 0 },
        Fam { op: Op::Sts, cycles: STORE16, value: &[0xAA, 0xBB], writes: Some(&[0x00, 0x00]),
              init: |r| r.sp = 0, expect: |r| r.ccr = f("Z") },
    ];
    run_fams(cov, &fams);
}

#[test]
fn alu16_in_all_modes() {
    alu16_families(&mut Coverage::default());
}

fn alu16_edges(cov: &mut Coverage) {
    Case::new("addd carry", &[0xC3, 0x00, 0x01])
        .with(|r| r.set_d(0xFFFF))
        .expect(|r| r.set_d(0))
        .flags("ZC")
        .cycles(4)
        .run(cov);
    Case::new("addd no H", &[0xC3, 0x00, 0x01])
        .with(|r| r.set_d(0x000F))
        .expect(|r| r.set_d(0x0010))
        .flags("")
        .run(cov);
    Case::new("subd overflow", &[0x83, 0x00, 0x01])
        .with(|r| r.set_d(0x8000))
        .expect(|r| r.set_d(0x7FFF))
        .flags("V")
        .run(cov);
    Case::new("cpd 1 vs $8000", &[0x1A, 0x83, 0x80, 0x00])
        .with(|r| r.set_d(0x0001))
        .flags("NVC")
        .cycles(5)
        .run(cov);
    Case::new("cpd $8000 vs 1", &[0x1A, 0x83, 0x00, 0x01])
        .with(|r| r.set_d(0x8000))
        .flags("V")
        .run(cov);
    Case::new("cpx less", &[0x8C, 0x00, 0x01])
        .with(|r| r.x = 0)
        .flags("NC")
        .cycles(4)
        .run(cov);
    Case::new("cpx greater", &[0x8C, 0x00, 0x01])
        .with(|r| r.x = 2)
        .flags("")
        .run(cov);
    Case::new("cpy equal", &[0x18, 0x8C, 0x30, 0x00])
        .flags("Z")
        .cycles(5)
        .run(cov);
    Case::new("cpx,y page 4", &[0xCD, 0xAC, 0x00])
        .mem(IY, &[0x20, 0x00])
        .flags("Z")
        .cycles(7)
        .run(cov);
    Case::new("cpy,x page 3", &[0x1A, 0xAC, 0x00])
        .mem(IX, &[0x30, 0x01])
        .flags("NC")
        .cycles(7)
        .run(cov);
    Case::new("cpd,y page 4", &[0xCD, 0xA3, 0x00])
        .mem(IY, &[0x00, 0x00])
        .with(|r| r.set_d(1))
        .flags("")
        .cycles(7)
        .run(cov);
    Case::new("ldd 0", &[0xCC, 0x00, 0x00])
        .with(|r| r.set_d(0x1234))
        .ccr("N")
        .expect(|r| r.set_d(0))
        .flags("Z")
        .cycles(3)
        .run(cov);
    Case::new("ldx,y page 4", &[0xCD, 0xEE, 0x02])
        .mem(IY + 2, &[0xBE, 0xEF])
        .expect(|r| r.x = 0xBEEF)
        .flags("N")
        .cycles(6)
        .run(cov);
    Case::new("stx,y page 4", &[0xCD, 0xEF, 0x02])
        .writes(IY + 2, &[0x20, 0x00])
        .cycles(6)
        .run(cov);
    Case::new("ldy,x page 3", &[0x1A, 0xEE, 0x04])
        .mem(IX + 4, &[0x00, 0x42])
        .expect(|r| r.y = 0x0042)
        .cycles(6)
        .run(cov);
    Case::new("sty,x page 3", &[0x1A, 0xEF, 0x04])
        .writes(IX + 4, &[0x30, 0x00])
        .cycles(6)
        .run(cov);
    Case::new("ldd wraps at $FFFF", &[0xFC, 0xFF, 0xFF])
        .mem(0xFFFF, &[0x12])
        .mem(0x0000, &[0x34])
        .expect(|r| r.set_d(0x1234))
        .run(cov);
    Case::new("indexed offset is unsigned", &[0xA6, 0xFF])
        .mem(IX + 0xFF, &[0x42])
        .expect(|r| r.a = 0x42)
        .run(cov);
}

#[test]
fn alu16_edge_cases() {
    alu16_edges(&mut Coverage::default());
}

// ---- read-modify-write on memory and the same on A/B ----------------------------

fn rmw_families(cov: &mut Coverage) {
    #[rustfmt::skip]
    let fams = [
        Fam { op: Op::Neg, cycles: RMW, value: &[0x01], writes: Some(&[0xFF]),
              init: |_| {}, expect: |r| r.ccr = f("NC") },
        Fam { op: Op::Com, cycles: RMW, value: &[0x0F], writes: Some(&[0xF0]),
              init: |r| r.ccr = f("V"), expect: |r| r.ccr = f("NC") },
        Fam { op: Op::Lsr, cycles: RMW, value: &[0x01], writes: Some(&[0x00]),
              init: |r| r.ccr = f("N"), expect: |r| r.ccr = f("ZVC") },
        Fam { op: Op::Ror, cycles: RMW, value: &[0x01], writes: Some(&[0x80]),
              init: |r| r.ccr = f("C"), expect: |r| r.ccr = f("NC") },
        Fam { op: Op::Asr, cycles: RMW, value: &[0x81], writes: Some(&[0xC0]),
              init: |_| {}, expect: |r| r.ccr = f("NC") },
        Fam { op: Op::Asl, cycles: RMW, value: &[0x40], writes: Some(&[0x80]),
              init: |r| r.ccr = f("C"), expect: |r| r.ccr = f("NV") },
        Fam { op: Op::Rol, cycles: RMW, value: &[0x80], writes: Some(&[0x00]),
              init: |_| {}, expect: |r| r.ccr = f("ZVC") },
        Fam { op: Op::Dec, cycles: RMW, value: &[0x80], writes: Some(&[0x7F]),
              init: |r| r.ccr = f("NC"), expect: |r| r.ccr = f("VC") },
        Fam { op: Op::Inc, cycles: RMW, value: &[0x7F], writes: Some(&[0x80]),
              init: |_| {}, expect: |r| r.ccr = f("NV") },
        Fam { op: Op::Tst, cycles: RMW, value: &[0x80], writes: None,
              init: |r| r.ccr = f("ZVC"), expect: |r| r.ccr = f("N") },
        Fam { op: Op::Clr, cycles: RMW, value: &[0x55], writes: Some(&[0x00]),
              init: |r| r.ccr = f("NVC"), expect: |r| r.ccr = f("Z") },
    ];
    run_fams(cov, &fams);
}

#[test]
fn rmw_in_all_modes() {
    rmw_families(&mut Coverage::default());
}

fn rmw_edges(cov: &mut Coverage) {
    let e = EXT.to_be_bytes();
    let ext = |op: u8| [op, e[0], e[1]];
    Case::new("neg $80", &ext(0x70))
        .mem(EXT, &[0x80])
        .writes(EXT, &[0x80])
        .flags("NVC")
        .run(cov);
    Case::new("neg 0", &ext(0x70))
        .mem(EXT, &[0x00])
        .ccr("VC")
        .flags("Z")
        .run(cov);
    Case::new("inc $FF keeps C", &ext(0x7C))
        .mem(EXT, &[0xFF])
        .writes(EXT, &[0x00])
        .ccr("C")
        .flags("ZC")
        .run(cov);
    Case::new("dec 1", &ext(0x7A))
        .mem(EXT, &[0x01])
        .writes(EXT, &[0x00])
        .flags("Z")
        .run(cov);
    Case::new("rol through carry", &ext(0x79))
        .mem(EXT, &[0x40])
        .writes(EXT, &[0x81])
        .ccr("C")
        .flags("NV")
        .run(cov);
    Case::new("ror through carry", &ext(0x76))
        .mem(EXT, &[0x02])
        .writes(EXT, &[0x81])
        .ccr("C")
        .flags("NV")
        .run(cov);
    Case::new("asr keeps sign", &ext(0x77))
        .mem(EXT, &[0x80])
        .writes(EXT, &[0xC0])
        .flags("NV")
        .run(cov);
    Case::new("lsr $80", &ext(0x74))
        .mem(EXT, &[0x80])
        .writes(EXT, &[0x40])
        .ccr("N")
        .flags("")
        .run(cov);
    Case::new("asl $80", &ext(0x78))
        .mem(EXT, &[0x80])
        .writes(EXT, &[0x00])
        .flags("ZVC")
        .run(cov);
    Case::new("com 0", &ext(0x73))
        .mem(EXT, &[0x00])
        .writes(EXT, &[0xFF])
        .flags("NC")
        .run(cov);
    Case::new("tst 0", &ext(0x7D))
        .mem(EXT, &[0x00])
        .ccr("NC")
        .flags("Z")
        .run(cov);
}

#[test]
fn rmw_edge_cases() {
    rmw_edges(&mut Coverage::default());
}

fn accumulator_ops(cov: &mut Coverage) {
    // (name, opcode, on A (else B), input, output, initial flags, expected flags)
    #[rustfmt::skip]
    let cases: &[(&str, u8, bool, u8, u8, &str, &str)] = &[
        ("nega", 0x40, true, 0x01, 0xFF, "", "NC"),
        ("nega $80", 0x40, true, 0x80, 0x80, "", "NVC"),
        ("negb 0", 0x50, false, 0x00, 0x00, "VC", "Z"),
        ("coma", 0x43, true, 0x0F, 0xF0, "V", "NC"),
        ("comb", 0x53, false, 0xFF, 0x00, "N", "ZC"),
        ("lsra", 0x44, true, 0x03, 0x01, "N", "VC"),
        ("lsrb", 0x54, false, 0x80, 0x40, "C", ""),
        ("rora", 0x46, true, 0x00, 0x80, "C", "NV"),
        ("rorb", 0x56, false, 0x01, 0x00, "", "ZVC"),
        ("asra $81", 0x47, true, 0x81, 0xC0, "", "NC"),
        ("asrb", 0x57, false, 0x02, 0x01, "C", ""),
        ("asla", 0x48, true, 0xC0, 0x80, "", "NC"),
        ("aslb", 0x58, false, 0x40, 0x80, "", "NV"),
        ("rola", 0x49, true, 0x80, 0x01, "C", "VC"),
        ("rolb", 0x59, false, 0x7F, 0xFE, "", "NV"),
        ("deca", 0x4A, true, 0x00, 0xFF, "C", "NC"),
        ("decb $80", 0x5A, false, 0x80, 0x7F, "", "V"),
        ("inca $7F", 0x4C, true, 0x7F, 0x80, "", "NV"),
        ("incb $FF", 0x5C, false, 0xFF, 0x00, "C", "ZC"),
        ("tsta", 0x4D, true, 0x80, 0x80, "VC", "N"),
        ("tstb", 0x5D, false, 0x00, 0x00, "NC", "Z"),
        ("clra", 0x4F, true, 0x55, 0x00, "NVC", "Z"),
        ("clrb", 0x5F, false, 0x55, 0x00, "NC", "Z"),
    ];
    for &(name, op, is_a, input, output, init, want) in cases {
        let case = Case::new(name, &[op]).ccr(init).flags(want).cycles(2);
        let case = if is_a {
            case.with(move |r| {
                r.a = input;
                r.b = 0x5A
            })
            .expect(move |r| r.a = output)
        } else {
            case.with(move |r| {
                r.b = input;
                r.a = 0x5A
            })
            .expect(move |r| r.b = output)
        };
        case.run(cov);
    }
}

#[test]
fn accumulator_ops_on_a_and_b() {
    accumulator_ops(&mut Coverage::default());
}

// ---- branches, jumps, subroutines -------------------------------------------------

fn branches(cov: &mut Coverage) {
    // (opcode, name, CCRs under which it branches, CCRs under which it does not)
    #[rustfmt::skip]
    let table: &[(u8, &str, &[&str], &[&str])] = &[
        (0x20, "bra", &["", "NZVC"], &[]),
        (0x21, "brn", &[], &["", "NZVC"]),
        (0x22, "bhi", &["", "NV"], &["C", "Z", "ZC"]),
        (0x23, "bls", &["C", "Z", "ZC"], &["", "NV"]),
        (0x24, "bcc", &["", "NZV"], &["C"]),
        (0x25, "bcs", &["C"], &["", "NZV"]),
        (0x26, "bne", &["", "NVC"], &["Z"]),
        (0x27, "beq", &["Z"], &["", "NVC"]),
        (0x28, "bvc", &["", "NZC"], &["V"]),
        (0x29, "bvs", &["V"], &["", "NZC"]),
        (0x2A, "bpl", &["", "ZVC"], &["N"]),
        (0x2B, "bmi", &["N"], &["", "ZVC"]),
        (0x2C, "bge", &["", "NV", "Z"], &["N", "V"]),
        (0x2D, "blt", &["N", "V"], &["", "NV", "Z"]),
        (0x2E, "bgt", &["", "NV"], &["Z", "N", "V", "NVZ"]),
        (0x2F, "ble", &["Z", "N", "V", "NVZ"], &["", "NV"]),
    ];
    for &(op, name, taken, not_taken) in table {
        for (disp, target) in [
            (0x10u8, CODE + 2 + 0x10),
            (0xFE, CODE),
            (0x80, CODE + 2 - 0x80),
        ] {
            for ccr in taken {
                Case::new(format!("{name} taken {ccr} {disp:02X}"), &[op, disp])
                    .ccr(ccr)
                    .pc(target)
                    .cycles(3)
                    .run(cov);
            }
            for ccr in not_taken {
                Case::new(format!("{name} not taken {ccr}"), &[op, disp])
                    .ccr(ccr)
                    .cycles(3)
                    .run(cov);
            }
        }
    }
    // BSR: pushes the return address (low byte first, so high byte lower), goes backwards.
    Case::new("bsr backwards", &[0x8D, 0xF0])
        .writes(SP - 1, &[0xC0, 0x02])
        .expect(|r| {
            r.sp = SP - 2;
            r.pc = CODE + 2 - 0x10
        })
        .cycles(6)
        .run(cov);
    Case::new("bsr forwards", &[0x8D, 0x7F])
        .ccr("NZVC")
        .writes(SP - 1, &[0xC0, 0x02])
        .expect(|r| {
            r.sp = SP - 2;
            r.pc = CODE + 2 + 0x7F
        })
        .run(cov);
}

#[test]
fn branches_taken_and_not() {
    branches(&mut Coverage::default());
}

fn jumps(cov: &mut Coverage) {
    for (info, cycles) in modes_of(Op::Jmp, JMP) {
        let (case, ea) = mode_case(info, &[]);
        let ea = ea.unwrap_or(0);
        case.ccr("NZVC").pc(ea).cycles(cycles).run(cov);
    }
    for (info, cycles) in modes_of(Op::Jsr, JSR) {
        let (case, ea) = mode_case(info, &[]);
        let ea = ea.unwrap_or(0);
        let ret = CODE + info.byte_len() as u16;
        case.writes(SP - 1, &ret.to_be_bytes())
            .expect(move |r| {
                r.pc = ea;
                r.sp = SP - 2
            })
            .cycles(cycles)
            .run(cov);
    }
}

#[test]
fn jmp_and_jsr_in_all_modes() {
    jumps(&mut Coverage::default());
}

// ---- bit manipulation ------------------------------------------------------------

/// Operand bytes and effective address of a bit instruction in `mode`.
fn bit_operand(mode: Mode) -> (u8, u16) {
    match mode {
        BitDirect | BitBranchDirect => (DIR, DIR as u16),
        BitIndexedX | BitBranchIndexedX => (IX_OFF, IX + IX_OFF as u16),
        _ => (IY_OFF, IY + IY_OFF as u16),
    }
}

fn bit_ops(cov: &mut Coverage) {
    for (info, cycles) in modes_of(Op::Bset, BITS) {
        let (off, ea) = bit_operand(info.mode);
        let mut bytes = info.opcode_bytes();
        bytes.extend([off, 0x0F]);
        Case::new(format!("bset {}", info.mode), &bytes)
            .mem(ea, &[0x81])
            .writes(ea, &[0x8F])
            .ccr("ZVC")
            .flags("NC")
            .cycles(cycles)
            .run(cov);
        bytes.pop();
        bytes.push(0x00);
        Case::new(format!("bset none {}", info.mode), &bytes)
            .mem(ea, &[0x00])
            .flags("Z")
            .cycles(cycles)
            .run(cov);
    }
    for (info, cycles) in modes_of(Op::Bclr, BITS) {
        let (off, ea) = bit_operand(info.mode);
        let mut bytes = info.opcode_bytes();
        bytes.extend([off, 0x81]);
        Case::new(format!("bclr {}", info.mode), &bytes)
            .mem(ea, &[0x81])
            .writes(ea, &[0x00])
            .ccr("NV")
            .flags("Z")
            .cycles(cycles)
            .run(cov);
        bytes.pop();
        bytes.push(0x01);
        Case::new(format!("bclr bit 0 {}", info.mode), &bytes)
            .mem(ea, &[0xC3])
            .writes(ea, &[0xC2])
            .flags("N")
            .cycles(cycles)
            .run(cov);
    }
    // BRSET branches if all mask bits are set; BRCLR if all are clear. No flags change.
    for (op, table) in [
        (
            Op::Brset,
            [
                (0xC3u8, 0x03u8, true),
                (0xC3, 0x0C, false),
                (0xC3, 0x83, true),
                (0xC3, 0xFF, false),
            ],
        ),
        (
            Op::Brclr,
            [
                (0xC3, 0x3C, true),
                (0xC3, 0x01, false),
                (0x00, 0xFF, true),
                (0xC3, 0xC3, false),
            ],
        ),
    ] {
        for (info, cycles) in modes_of(op, BRBITS) {
            let (off, ea) = bit_operand(info.mode);
            let len = info.byte_len() as u16;
            for (value, mask, taken) in table {
                for (disp, target) in [(0x20u8, CODE + len + 0x20), (0xF0, CODE + len - 0x10)] {
                    let mut bytes = info.opcode_bytes();
                    bytes.extend([off, mask, disp]);
                    let want = if taken { target } else { CODE + len };
                    Case::new(format!("{op} {} {value:02X}/{mask:02X}", info.mode), &bytes)
                        .mem(ea, &[value])
                        .ccr("NZVC")
                        .pc(want)
                        .cycles(cycles)
                        .run(cov);
                }
            }
        }
    }
}

#[test]
fn bit_operations_in_all_modes() {
    bit_ops(&mut Coverage::default());
}

// ---- system control ---------------------------------------------------------------

fn system_ops(cov: &mut Coverage) {
    let regs = |r: &mut Registers| {
        r.a = 0x11;
        r.b = 0x22;
        r.x = 0x3344;
        r.y = 0x5566;
        r.ccr = f("NC");
    };
    // Stacked from SP down: PCL, PCH, IYL, IYH, IXL, IXH, A, B, CCR.
    let stacked = |pc: u16, ccr: u8| {
        let [ph, pl] = pc.to_be_bytes();
        [ccr, 0x22, 0x11, 0x33, 0x44, 0x55, 0x66, ph, pl]
    };
    Case::new("swi", &[0x3F])
        .with(regs)
        .mem(0xFFF6, &[0xD0, 0x00])
        .writes(SP - 8, &stacked(CODE + 1, f("NC")))
        .expect(|r| {
            r.sp = SP - 9;
            r.pc = 0xD000;
            r.ccr = f("INC")
        })
        .event(StepEvent::Swi)
        .cycles(14)
        .run(cov);
    Case::new("wai", &[0x3E])
        .with(regs)
        .writes(SP - 8, &stacked(CODE + 1, f("NC")))
        .expect(|r| r.sp = SP - 9)
        .state(RunState::Waiting)
        .cycles(14)
        .run(cov);
    // RTI: X can be cleared by RTI, not set again.
    Case::new("rti", &[0x3B])
        .with(|r| {
            r.sp = SP - 9;
            r.ccr = f("XI")
        })
        .mem(
            SP - 8,
            &[0x09, 0xBB, 0xAA, 0x12, 0x34, 0x56, 0x78, 0xC1, 0x00],
        )
        .expect(|r| {
            r.a = 0xAA;
            r.b = 0xBB;
            r.x = 0x1234;
            r.y = 0x5678;
            r.pc = 0xC100;
            r.sp = SP;
            r.ccr = 0x09
        })
        .cycles(12)
        .run(cov);
    Case::new("rti cannot set X", &[0x3B])
        .with(|r| {
            r.sp = SP - 9;
            r.ccr = 0
        })
        .mem(SP - 8, &[0xFF, 0, 0, 0, 0, 0, 0, 0xC1, 0x00])
        .expect(|r| {
            r.a = 0;
            r.b = 0;
            r.x = 0;
            r.y = 0;
            r.pc = 0xC100;
            r.sp = SP;
            r.ccr = 0xBF
        })
        .run(cov);
    Case::new("stop", &[0xCF])
        .state(RunState::Stopped)
        .cycles(2)
        .run(cov);
    Case::new("stop with S is a nop", &[0xCF])
        .ccr("S")
        .cycles(2)
        .run(cov);
    // TEST outside test mode: the illegal opcode trap, stacked PC = the opcode's address.
    Case::new("test", &[0x00])
        .with(regs)
        .mem(0xFFF8, &[0xE0, 0x00])
        .writes(SP - 8, &stacked(CODE, f("NC")))
        .expect(|r| {
            r.sp = SP - 9;
            r.pc = 0xE000;
            r.ccr = f("INC")
        })
        .event(StepEvent::Illegal(IllegalOpcode {
            addr: CODE,
            bytes: [0, 0],
            len: 1,
        }))
        .cycles(14)
        .run(cov);
}

#[test]
fn system_control() {
    system_ops(&mut Coverage::default());
}

#[test]
fn illegal_opcodes_trap() {
    let mut cov = Coverage::default();
    let holes = [
        0x41, 0x42, 0x45, 0x4B, 0x4E, 0x51, 0x52, 0x55, 0x5B, 0x5E, 0x61, 0x62, 0x65, 0x6B, 0x71,
        0x72, 0x75, 0x7B, 0x87, 0xC7,
    ];
    for op in holes {
        Case::new(format!("illegal {op:02X}"), &[op, 0x01])
            .ccr("X")
            .mem(0xFFF8, &[0xE1, 0x23])
            .writes(SP - 8, &[f("X"), 0, 0, 0x20, 0x00, 0x30, 0x00, 0xC0, 0x00])
            .expect(|r| {
                r.sp = SP - 9;
                r.pc = 0xE123;
                r.ccr = f("XI")
            })
            .event(StepEvent::Illegal(IllegalOpcode {
                addr: CODE,
                bytes: [op, 0],
                len: 1,
            }))
            .cycles(14)
            .run(&mut cov);
    }
    for pair in [
        [0x18u8, 0x00],
        [0x1A, 0x00],
        [0xCD, 0x00],
        [0x18, 0x18],
        [0x1A, 0xA6],
        [0xCD, 0x8C],
        [0x18, 0x87],
    ] {
        Case::new(format!("illegal {pair:02X?}"), &pair)
            .mem(0xFFF8, &[0xE1, 0x23])
            .writes(SP - 8, &[0, 0, 0, 0x20, 0x00, 0x30, 0x00, 0xC0, 0x00])
            .expect(|r| {
                r.sp = SP - 9;
                r.pc = 0xE123;
                r.ccr = f("I")
            })
            .event(StepEvent::Illegal(IllegalOpcode {
                addr: CODE,
                bytes: pair,
                len: 2,
            }))
            .cycles(15)
            .run(&mut cov);
    }
    assert!(
        cov.0.is_empty(),
        "illegal opcodes must not count as covered"
    );
}

#[test]
fn every_unused_opcode_behind_a_prebyte_traps() {
    // All 3 x 256 prebyte pairs: documented ones execute, the rest trap.
    for pre in [0x18u8, 0x1A, 0xCD] {
        for op in 0..=255u8 {
            let (mut cpu, mut bus) = machine(&[pre, op, 0, 0, 0]);
            bus.set_word(0xFFF8, 0xE000);
            let step = cpu.step(&mut bus);
            let documented = OPCODES.iter().any(|e| e.prebyte == pre && e.opcode == op);
            match step.event {
                StepEvent::Illegal(i) => {
                    assert!(!documented, "{pre:02X} {op:02X} trapped");
                    assert_eq!((i.bytes, i.len), ([pre, op], 2));
                    assert_eq!(cpu.regs.pc, 0xE000);
                }
                _ => assert!(documented, "{pre:02X} {op:02X} executed"),
            }
        }
    }
}

#[test]
fn table_has_exactly_the_documented_opcodes() {
    // Transcribed from the manual's opcode map pages 2-4 (page 1: every byte
    // except the three prebytes and the 20 unused codes).
    #[rustfmt::skip]
    let page2: &[u8] = &[
        0x08, 0x09, 0x1C, 0x1D, 0x1E, 0x1F, 0x30, 0x35, 0x38, 0x3A, 0x3C,
        0x60, 0x63, 0x64, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6C, 0x6D, 0x6E, 0x6F,
        0x8C, 0x8F, 0x9C, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xAB,
        0xAC, 0xAD, 0xAE, 0xAF, 0xBC, 0xCE, 0xDE, 0xDF,
        0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xEB,
        0xEC, 0xED, 0xEE, 0xEF, 0xFE, 0xFF,
    ];
    let page3: &[u8] = &[0x83, 0x93, 0xA3, 0xAC, 0xB3, 0xEE, 0xEF];
    let page4: &[u8] = &[0xA3, 0xAC, 0xEE, 0xEF];
    let holes: &[u8] = &[
        0x41, 0x42, 0x45, 0x4B, 0x4E, 0x51, 0x52, 0x55, 0x5B, 0x5E, 0x61, 0x62, 0x65, 0x6B, 0x71,
        0x72, 0x75, 0x7B, 0x87, 0xC7, 0x18, 0x1A, 0xCD,
    ];
    let mut documented: Vec<(u8, u8)> = (0..=255u8)
        .filter(|b| !holes.contains(b))
        .map(|b| (0, b))
        .collect();
    documented.extend(page2.iter().map(|&b| (0x18, b)));
    documented.extend(page3.iter().map(|&b| (0x1A, b)));
    documented.extend(page4.iter().map(|&b| (0xCD, b)));
    documented.sort();
    assert_eq!(documented.len(), 308);
    let mut table: Vec<(u8, u8)> = OPCODES.iter().map(|e| (e.prebyte, e.opcode)).collect();
    table.sort();
    assert_eq!(table, documented);
}

#[test]
fn every_opcode_is_covered() {
    let mut cov = Coverage::default();
    alu8_families(&mut cov);
    alu8_edges(&mut cov);
    alu16_families(&mut cov);
    alu16_edges(&mut cov);
    rmw_families(&mut cov);
    rmw_edges(&mut cov);
    accumulator_ops(&mut cov);
    inherent::inherent_ops(&mut cov);
    inherent::stack_ops(&mut cov);
    branches(&mut cov);
    jumps(&mut cov);
    bit_ops(&mut cov);
    system_ops(&mut cov);
    let missing: Vec<String> = OPCODES
        .iter()
        .filter(|e| !cov.0.contains(&(e.prebyte, e.opcode)))
        .map(|e| format!("{:02X} {:02X} {} {}", e.prebyte, e.opcode, e.op, e.mode))
        .collect();
    assert!(missing.is_empty(), "opcodes without a case: {missing:?}");
    assert_eq!(cov.0.len(), 308);
}

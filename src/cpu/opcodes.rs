//! The one MC68HC11 opcode table (M68HC11 Reference Manual, section 6 and
//! appendix A, "Instruction Set Details" / opcode map), read by the decoder,
//! the assembler's encoder and the disassembler alike.

use std::fmt;

/// How an instruction finds its operand; decides the operand bytes that follow
/// the opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// No operand bytes (`nop`, `inca`, `pshx`).
    Inherent,
    /// One immediate byte (`ldaa #$41`).
    Imm8,
    /// Two immediate bytes, high first (`ldx #$1000`).
    Imm16,
    /// One address byte in page 0 (`ldaa $40`).
    Direct,
    /// Two address bytes (`ldaa $C000`).
    Extended,
    /// Unsigned 8-bit offset from X (`ldaa 3,x`).
    IndexedX,
    /// Unsigned 8-bit offset from Y (`ldaa 3,y`).
    IndexedY,
    /// Signed 8-bit displacement from the next instruction (`bne loop`).
    Relative,
    /// `bset`/`bclr` on a page-0 address: address byte, mask byte.
    BitDirect,
    /// `bset`/`bclr` on X + offset: offset byte, mask byte.
    BitIndexedX,
    /// `bset`/`bclr` on Y + offset: offset byte, mask byte.
    BitIndexedY,
    /// `brset`/`brclr` on a page-0 address: address, mask, displacement.
    BitBranchDirect,
    /// `brset`/`brclr` on X + offset: offset, mask, displacement.
    BitBranchIndexedX,
    /// `brset`/`brclr` on Y + offset: offset, mask, displacement.
    BitBranchIndexedY,
}

impl Mode {
    /// Number of operand bytes after the opcode byte(s).
    pub const fn operand_len(self) -> u8 {
        match self {
            Mode::Inherent => 0,
            Mode::Imm8 | Mode::Direct | Mode::IndexedX | Mode::IndexedY | Mode::Relative => 1,
            Mode::Imm16
            | Mode::Extended
            | Mode::BitDirect
            | Mode::BitIndexedX
            | Mode::BitIndexedY => 2,
            Mode::BitBranchDirect | Mode::BitBranchIndexedX | Mode::BitBranchIndexedY => 3,
        }
    }

    /// True for the modes that address memory through X or Y.
    pub const fn is_indexed(self) -> bool {
        matches!(
            self,
            Mode::IndexedX
                | Mode::IndexedY
                | Mode::BitIndexedX
                | Mode::BitIndexedY
                | Mode::BitBranchIndexedX
                | Mode::BitBranchIndexedY
        )
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Mode::Inherent => "inherent",
            Mode::Imm8 => "immediate (8-bit)",
            Mode::Imm16 => "immediate (16-bit)",
            Mode::Direct => "direct",
            Mode::Extended => "extended",
            Mode::IndexedX => "indexed X",
            Mode::IndexedY => "indexed Y",
            Mode::Relative => "relative",
            Mode::BitDirect => "bit direct",
            Mode::BitIndexedX => "bit indexed X",
            Mode::BitIndexedY => "bit indexed Y",
            Mode::BitBranchDirect => "bit-branch direct",
            Mode::BitBranchIndexedX => "bit-branch indexed X",
            Mode::BitBranchIndexedY => "bit-branch indexed Y",
        };
        f.write_str(name)
    }
}

/// The operation an opcode performs, independent of addressing mode.
/// Variant names are the canonical Motorola mnemonics.
#[allow(missing_docs)] // each variant is the instruction of the same name
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Aba,
    Abx,
    Aby,
    Adca,
    Adcb,
    Adda,
    Addb,
    Addd,
    Anda,
    Andb,
    Asl,
    Asla,
    Aslb,
    Asld,
    Asr,
    Asra,
    Asrb,
    Bcc,
    Bclr,
    Bcs,
    Beq,
    Bge,
    Bgt,
    Bhi,
    Bita,
    Bitb,
    Ble,
    Bls,
    Blt,
    Bmi,
    Bne,
    Bpl,
    Bra,
    Brclr,
    Brn,
    Brset,
    Bset,
    Bsr,
    Bvc,
    Bvs,
    Cba,
    Clc,
    Cli,
    Clr,
    Clra,
    Clrb,
    Clv,
    Cmpa,
    Cmpb,
    Com,
    Coma,
    Comb,
    Cpd,
    Cpx,
    Cpy,
    Daa,
    Dec,
    Deca,
    Decb,
    Des,
    Dex,
    Dey,
    Eora,
    Eorb,
    Fdiv,
    Idiv,
    Inc,
    Inca,
    Incb,
    Ins,
    Inx,
    Iny,
    Jmp,
    Jsr,
    Ldaa,
    Ldab,
    Ldd,
    Lds,
    Ldx,
    Ldy,
    Lsr,
    Lsra,
    Lsrb,
    Lsrd,
    Mul,
    Neg,
    Nega,
    Negb,
    Nop,
    Oraa,
    Orab,
    Psha,
    Pshb,
    Pshx,
    Pshy,
    Pula,
    Pulb,
    Pulx,
    Puly,
    Rol,
    Rola,
    Rolb,
    Ror,
    Rora,
    Rorb,
    Rti,
    Rts,
    Sba,
    Sbca,
    Sbcb,
    Sec,
    Sei,
    Sev,
    Staa,
    Stab,
    Std,
    Stop,
    Sts,
    Stx,
    Sty,
    Suba,
    Subb,
    Subd,
    Swi,
    Tab,
    Tap,
    Tba,
    Test,
    Tpa,
    Tst,
    Tsta,
    Tstb,
    Tsx,
    Tsy,
    Txs,
    Tys,
    Wai,
    Xgdx,
    Xgdy,
}

impl Op {
    /// The canonical lower-case mnemonic (`ldaa`, `brset`).
    pub fn mnemonic(self) -> &'static str {
        OP_NAMES
            .iter()
            .find(|(op, _)| *op == self)
            .map(|(_, name)| *name)
            .unwrap_or("?")
    }

    /// Looks up a mnemonic, case-insensitively, including the aliases the
    /// Motorola manual and the course sources use (`lsla` = `asla`,
    /// `bhs` = `bcc`, `lda` = `ldaa`).
    pub fn from_mnemonic(name: &str) -> Option<Op> {
        let lower = name.to_ascii_lowercase();
        if let Some((_, op)) = ALIASES.iter().find(|(alias, _)| *alias == lower) {
            return Some(*op);
        }
        OP_NAMES
            .iter()
            .find(|(_, n)| *n == lower)
            .map(|(op, _)| *op)
    }

    /// Every mnemonic the assembler accepts, canonical names and aliases.
    pub fn all_mnemonics() -> impl Iterator<Item = &'static str> {
        OP_NAMES
            .iter()
            .map(|(_, n)| *n)
            .chain(ALIASES.iter().map(|(a, _)| *a))
    }
}

/// The condition code bits in the order [`Op::flags`] gives them.
pub const FLAG_NAMES: [char; 8] = ['S', 'X', 'H', 'I', 'N', 'Z', 'V', 'C'];

impl Op {
    /// What the instruction does to each CCR bit, S X H I N Z V C (M68HC11
    /// RM appendix A, the "Condition Codes" columns): `-` unchanged, `*`
    /// set or cleared by the result, `0` cleared, `1` set, `v` X may be
    /// cleared but never set (RTI, TAP), `?` undefined (V after DAA).
    /// `tests/cpu_flags.rs` checks every opcode of the core against it.
    pub fn flags(self) -> &'static str {
        use Op::*;
        match self {
            Aba | Adca | Adcb | Adda | Addb => "--*-****",
            Addd | Asl | Asla | Aslb | Asld | Asr | Asra | Asrb | Cba | Cmpa | Cmpb | Cpd | Cpx
            | Cpy | Neg | Nega | Negb | Rol | Rola | Rolb | Ror | Rora | Rorb | Sba | Sbca
            | Sbcb | Suba | Subb | Subd => "----****",
            Anda | Andb | Bclr | Bset | Bita | Bitb | Eora | Eorb | Ldaa | Ldab | Ldd | Lds
            | Ldx | Ldy | Oraa | Orab | Staa | Stab | Std | Sts | Stx | Sty | Tab | Tba => {
                "----**0-"
            }
            Clc => "-------0",
            Cli => "---0----",
            Clv => "------0-",
            Clr | Clra | Clrb => "----0100",
            Com | Coma | Comb => "----**01",
            Daa => "----**?*",
            Dec | Deca | Decb | Inc | Inca | Incb => "----***-",
            Dex | Dey | Inx | Iny => "-----*--",
            Fdiv => "-----***",
            Idiv => "-----*0*",
            Lsr | Lsra | Lsrb | Lsrd => "----0***",
            Mul => "-------*",
            Rti | Tap => "*v******",
            Sec => "-------1",
            Sei | Swi => "---1----",
            Sev => "------1-",
            Tst | Tsta | Tstb => "----**00",
            Abx | Aby | Bcc | Bcs | Beq | Bge | Bgt | Bhi | Ble | Bls | Blt | Bmi | Bne | Bpl
            | Bra | Brclr | Brn | Brset | Bsr | Bvc | Bvs | Des | Ins | Jmp | Jsr | Nop | Psha
            | Pshb | Pshx | Pshy | Pula | Pulb | Pulx | Puly | Rts | Stop | Test | Tpa | Tsx
            | Tsy | Txs | Tys | Wai | Xgdx | Xgdy => "--------",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

/// Alternative spellings accepted by the assembler, mapped to the canonical op.
pub const ALIASES: &[(&str, Op)] = &[
    ("lsl", Op::Asl),
    ("lsla", Op::Asla),
    ("lslb", Op::Aslb),
    ("lsld", Op::Asld),
    ("bhs", Op::Bcc),
    ("blo", Op::Bcs),
    ("lda", Op::Ldaa),
    ("ldb", Op::Ldab),
    ("sta", Op::Staa),
    ("stb", Op::Stab),
    ("ora", Op::Oraa),
    ("orb", Op::Orab),
    ("cmpd", Op::Cpd),
];

#[rustfmt::skip]
const OP_NAMES: &[(Op, &str)] = &[
    (Op::Aba, "aba"), (Op::Abx, "abx"), (Op::Aby, "aby"), (Op::Adca, "adca"),
    (Op::Adcb, "adcb"), (Op::Adda, "adda"), (Op::Addb, "addb"), (Op::Addd, "addd"),
    (Op::Anda, "anda"), (Op::Andb, "andb"), (Op::Asl, "asl"), (Op::Asla, "asla"),
    (Op::Aslb, "aslb"), (Op::Asld, "asld"), (Op::Asr, "asr"), (Op::Asra, "asra"),
    (Op::Asrb, "asrb"), (Op::Bcc, "bcc"), (Op::Bclr, "bclr"), (Op::Bcs, "bcs"),
    (Op::Beq, "beq"), (Op::Bge, "bge"), (Op::Bgt, "bgt"), (Op::Bhi, "bhi"),
    (Op::Bita, "bita"), (Op::Bitb, "bitb"), (Op::Ble, "ble"), (Op::Bls, "bls"),
    (Op::Blt, "blt"), (Op::Bmi, "bmi"), (Op::Bne, "bne"), (Op::Bpl, "bpl"),
    (Op::Bra, "bra"), (Op::Brclr, "brclr"), (Op::Brn, "brn"), (Op::Brset, "brset"),
    (Op::Bset, "bset"), (Op::Bsr, "bsr"), (Op::Bvc, "bvc"), (Op::Bvs, "bvs"),
    (Op::Cba, "cba"), (Op::Clc, "clc"), (Op::Cli, "cli"), (Op::Clr, "clr"),
    (Op::Clra, "clra"), (Op::Clrb, "clrb"), (Op::Clv, "clv"), (Op::Cmpa, "cmpa"),
    (Op::Cmpb, "cmpb"), (Op::Com, "com"), (Op::Coma, "coma"), (Op::Comb, "comb"),
    (Op::Cpd, "cpd"), (Op::Cpx, "cpx"), (Op::Cpy, "cpy"), (Op::Daa, "daa"),
    (Op::Dec, "dec"), (Op::Deca, "deca"), (Op::Decb, "decb"), (Op::Des, "des"),
    (Op::Dex, "dex"), (Op::Dey, "dey"), (Op::Eora, "eora"), (Op::Eorb, "eorb"),
    (Op::Fdiv, "fdiv"), (Op::Idiv, "idiv"), (Op::Inc, "inc"), (Op::Inca, "inca"),
    (Op::Incb, "incb"), (Op::Ins, "ins"), (Op::Inx, "inx"), (Op::Iny, "iny"),
    (Op::Jmp, "jmp"), (Op::Jsr, "jsr"), (Op::Ldaa, "ldaa"), (Op::Ldab, "ldab"),
    (Op::Ldd, "ldd"), (Op::Lds, "lds"), (Op::Ldx, "ldx"), (Op::Ldy, "ldy"),
    (Op::Lsr, "lsr"), (Op::Lsra, "lsra"), (Op::Lsrb, "lsrb"), (Op::Lsrd, "lsrd"),
    (Op::Mul, "mul"), (Op::Neg, "neg"), (Op::Nega, "nega"), (Op::Negb, "negb"),
    (Op::Nop, "nop"), (Op::Oraa, "oraa"), (Op::Orab, "orab"), (Op::Psha, "psha"),
    (Op::Pshb, "pshb"), (Op::Pshx, "pshx"), (Op::Pshy, "pshy"), (Op::Pula, "pula"),
    (Op::Pulb, "pulb"), (Op::Pulx, "pulx"), (Op::Puly, "puly"), (Op::Rol, "rol"),
    (Op::Rola, "rola"), (Op::Rolb, "rolb"), (Op::Ror, "ror"), (Op::Rora, "rora"),
    (Op::Rorb, "rorb"), (Op::Rti, "rti"), (Op::Rts, "rts"), (Op::Sba, "sba"),
    (Op::Sbca, "sbca"), (Op::Sbcb, "sbcb"), (Op::Sec, "sec"), (Op::Sei, "sei"),
    (Op::Sev, "sev"), (Op::Staa, "staa"), (Op::Stab, "stab"), (Op::Std, "std"),
    (Op::Stop, "stop"), (Op::Sts, "sts"), (Op::Stx, "stx"), (Op::Sty, "sty"),
    (Op::Suba, "suba"), (Op::Subb, "subb"), (Op::Subd, "subd"), (Op::Swi, "swi"),
    (Op::Tab, "tab"), (Op::Tap, "tap"), (Op::Tba, "tba"), (Op::Test, "test"),
    (Op::Tpa, "tpa"), (Op::Tst, "tst"), (Op::Tsta, "tsta"), (Op::Tstb, "tstb"),
    (Op::Tsx, "tsx"), (Op::Tsy, "tsy"), (Op::Txs, "txs"), (Op::Tys, "tys"),
    (Op::Wai, "wai"), (Op::Xgdx, "xgdx"), (Op::Xgdy, "xgdy"),
];

/// One row of the opcode map: an (optional prebyte, opcode) pair and what it
/// does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpcodeInfo {
    /// `0x00` for page 1, else `0x18`, `0x1A` or `0xCD`.
    pub prebyte: u8,
    /// The opcode byte after the prebyte.
    pub opcode: u8,
    /// The operation.
    pub op: Op,
    /// The addressing mode, which decides the operand bytes.
    pub mode: Mode,
    /// E-clock cycles, as the reference manual's tables give them. For branches
    /// the count is the same taken or not; `test` runs forever in test mode and
    /// is listed with 0 (outside test mode it is an illegal opcode).
    pub cycles: u8,
}

impl OpcodeInfo {
    /// Total instruction length in bytes: prebyte, opcode and operands.
    pub const fn byte_len(&self) -> u8 {
        let pre = if self.prebyte == 0 { 0 } else { 1 };
        pre + 1 + self.mode.operand_len()
    }

    /// The opcode bytes (prebyte if any, then opcode).
    pub fn opcode_bytes(&self) -> Vec<u8> {
        if self.prebyte == 0 {
            vec![self.opcode]
        } else {
            vec![self.prebyte, self.opcode]
        }
    }
}

/// The prebytes that select pages 2, 3 and 4 of the opcode map.
pub const PREBYTES: [u8; 3] = [0x18, 0x1A, 0xCD];

use Mode::*;

const fn e(prebyte: u8, opcode: u8, op: Op, mode: Mode, cycles: u8) -> OpcodeInfo {
    OpcodeInfo {
        prebyte,
        opcode,
        op,
        mode,
        cycles,
    }
}

/// Every documented opcode of the MC68HC11, page 1 then pages 2-4, in opcode
/// order within each page.
#[rustfmt::skip]
pub const OPCODES: &[OpcodeInfo] = &[
    // ---- page 1 ----------------------------------------------------------------
    e(0x00, 0x00, Op::Test,  Inherent, 0),
    e(0x00, 0x01, Op::Nop,   Inherent, 2),
    e(0x00, 0x02, Op::Idiv,  Inherent, 41),
    e(0x00, 0x03, Op::Fdiv,  Inherent, 41),
    e(0x00, 0x04, Op::Lsrd,  Inherent, 3),
    e(0x00, 0x05, Op::Asld,  Inherent, 3),
    e(0x00, 0x06, Op::Tap,   Inherent, 2),
    e(0x00, 0x07, Op::Tpa,   Inherent, 2),
    e(0x00, 0x08, Op::Inx,   Inherent, 3),
    e(0x00, 0x09, Op::Dex,   Inherent, 3),
    e(0x00, 0x0A, Op::Clv,   Inherent, 2),
    e(0x00, 0x0B, Op::Sev,   Inherent, 2),
    e(0x00, 0x0C, Op::Clc,   Inherent, 2),
    e(0x00, 0x0D, Op::Sec,   Inherent, 2),
    e(0x00, 0x0E, Op::Cli,   Inherent, 2),
    e(0x00, 0x0F, Op::Sei,   Inherent, 2),
    e(0x00, 0x10, Op::Sba,   Inherent, 2),
    e(0x00, 0x11, Op::Cba,   Inherent, 2),
    e(0x00, 0x12, Op::Brset, BitBranchDirect, 6),
    e(0x00, 0x13, Op::Brclr, BitBranchDirect, 6),
    e(0x00, 0x14, Op::Bset,  BitDirect, 6),
    e(0x00, 0x15, Op::Bclr,  BitDirect, 6),
    e(0x00, 0x16, Op::Tab,   Inherent, 2),
    e(0x00, 0x17, Op::Tba,   Inherent, 2),
    e(0x00, 0x19, Op::Daa,   Inherent, 2),
    e(0x00, 0x1B, Op::Aba,   Inherent, 2),
    e(0x00, 0x1C, Op::Bset,  BitIndexedX, 7),
    e(0x00, 0x1D, Op::Bclr,  BitIndexedX, 7),
    e(0x00, 0x1E, Op::Brset, BitBranchIndexedX, 7),
    e(0x00, 0x1F, Op::Brclr, BitBranchIndexedX, 7),
    e(0x00, 0x20, Op::Bra,   Relative, 3),
    e(0x00, 0x21, Op::Brn,   Relative, 3),
    e(0x00, 0x22, Op::Bhi,   Relative, 3),
    e(0x00, 0x23, Op::Bls,   Relative, 3),
    e(0x00, 0x24, Op::Bcc,   Relative, 3),
    e(0x00, 0x25, Op::Bcs,   Relative, 3),
    e(0x00, 0x26, Op::Bne,   Relative, 3),
    e(0x00, 0x27, Op::Beq,   Relative, 3),
    e(0x00, 0x28, Op::Bvc,   Relative, 3),
    e(0x00, 0x29, Op::Bvs,   Relative, 3),
    e(0x00, 0x2A, Op::Bpl,   Relative, 3),
    e(0x00, 0x2B, Op::Bmi,   Relative, 3),
    e(0x00, 0x2C, Op::Bge,   Relative, 3),
    e(0x00, 0x2D, Op::Blt,   Relative, 3),
    e(0x00, 0x2E, Op::Bgt,   Relative, 3),
    e(0x00, 0x2F, Op::Ble,   Relative, 3),
    e(0x00, 0x30, Op::Tsx,   Inherent, 3),
    e(0x00, 0x31, Op::Ins,   Inherent, 3),
    e(0x00, 0x32, Op::Pula,  Inherent, 4),
    e(0x00, 0x33, Op::Pulb,  Inherent, 4),
    e(0x00, 0x34, Op::Des,   Inherent, 3),
    e(0x00, 0x35, Op::Txs,   Inherent, 3),
    e(0x00, 0x36, Op::Psha,  Inherent, 3),
    e(0x00, 0x37, Op::Pshb,  Inherent, 3),
    e(0x00, 0x38, Op::Pulx,  Inherent, 5),
    e(0x00, 0x39, Op::Rts,   Inherent, 5),
    e(0x00, 0x3A, Op::Abx,   Inherent, 3),
    e(0x00, 0x3B, Op::Rti,   Inherent, 12),
    e(0x00, 0x3C, Op::Pshx,  Inherent, 4),
    e(0x00, 0x3D, Op::Mul,   Inherent, 10),
    e(0x00, 0x3E, Op::Wai,   Inherent, 14),
    e(0x00, 0x3F, Op::Swi,   Inherent, 14),
    e(0x00, 0x40, Op::Nega,  Inherent, 2),
    e(0x00, 0x43, Op::Coma,  Inherent, 2),
    e(0x00, 0x44, Op::Lsra,  Inherent, 2),
    e(0x00, 0x46, Op::Rora,  Inherent, 2),
    e(0x00, 0x47, Op::Asra,  Inherent, 2),
    e(0x00, 0x48, Op::Asla,  Inherent, 2),
    e(0x00, 0x49, Op::Rola,  Inherent, 2),
    e(0x00, 0x4A, Op::Deca,  Inherent, 2),
    e(0x00, 0x4C, Op::Inca,  Inherent, 2),
    e(0x00, 0x4D, Op::Tsta,  Inherent, 2),
    e(0x00, 0x4F, Op::Clra,  Inherent, 2),
    e(0x00, 0x50, Op::Negb,  Inherent, 2),
    e(0x00, 0x53, Op::Comb,  Inherent, 2),
    e(0x00, 0x54, Op::Lsrb,  Inherent, 2),
    e(0x00, 0x56, Op::Rorb,  Inherent, 2),
    e(0x00, 0x57, Op::Asrb,  Inherent, 2),
    e(0x00, 0x58, Op::Aslb,  Inherent, 2),
    e(0x00, 0x59, Op::Rolb,  Inherent, 2),
    e(0x00, 0x5A, Op::Decb,  Inherent, 2),
    e(0x00, 0x5C, Op::Incb,  Inherent, 2),
    e(0x00, 0x5D, Op::Tstb,  Inherent, 2),
    e(0x00, 0x5F, Op::Clrb,  Inherent, 2),
    e(0x00, 0x60, Op::Neg,   IndexedX, 6),
    e(0x00, 0x63, Op::Com,   IndexedX, 6),
    e(0x00, 0x64, Op::Lsr,   IndexedX, 6),
    e(0x00, 0x66, Op::Ror,   IndexedX, 6),
    e(0x00, 0x67, Op::Asr,   IndexedX, 6),
    e(0x00, 0x68, Op::Asl,   IndexedX, 6),
    e(0x00, 0x69, Op::Rol,   IndexedX, 6),
    e(0x00, 0x6A, Op::Dec,   IndexedX, 6),
    e(0x00, 0x6C, Op::Inc,   IndexedX, 6),
    e(0x00, 0x6D, Op::Tst,   IndexedX, 6),
    e(0x00, 0x6E, Op::Jmp,   IndexedX, 3),
    e(0x00, 0x6F, Op::Clr,   IndexedX, 6),
    e(0x00, 0x70, Op::Neg,   Extended, 6),
    e(0x00, 0x73, Op::Com,   Extended, 6),
    e(0x00, 0x74, Op::Lsr,   Extended, 6),
    e(0x00, 0x76, Op::Ror,   Extended, 6),
    e(0x00, 0x77, Op::Asr,   Extended, 6),
    e(0x00, 0x78, Op::Asl,   Extended, 6),
    e(0x00, 0x79, Op::Rol,   Extended, 6),
    e(0x00, 0x7A, Op::Dec,   Extended, 6),
    e(0x00, 0x7C, Op::Inc,   Extended, 6),
    e(0x00, 0x7D, Op::Tst,   Extended, 6),
    e(0x00, 0x7E, Op::Jmp,   Extended, 3),
    e(0x00, 0x7F, Op::Clr,   Extended, 6),
    e(0x00, 0x80, Op::Suba,  Imm8, 2),
    e(0x00, 0x81, Op::Cmpa,  Imm8, 2),
    e(0x00, 0x82, Op::Sbca,  Imm8, 2),
    e(0x00, 0x83, Op::Subd,  Imm16, 4),
    e(0x00, 0x84, Op::Anda,  Imm8, 2),
    e(0x00, 0x85, Op::Bita,  Imm8, 2),
    e(0x00, 0x86, Op::Ldaa,  Imm8, 2),
    e(0x00, 0x88, Op::Eora,  Imm8, 2),
    e(0x00, 0x89, Op::Adca,  Imm8, 2),
    e(0x00, 0x8A, Op::Oraa,  Imm8, 2),
    e(0x00, 0x8B, Op::Adda,  Imm8, 2),
    e(0x00, 0x8C, Op::Cpx,   Imm16, 4),
    e(0x00, 0x8D, Op::Bsr,   Relative, 6),
    e(0x00, 0x8E, Op::Lds,   Imm16, 3),
    e(0x00, 0x8F, Op::Xgdx,  Inherent, 3),
    e(0x00, 0x90, Op::Suba,  Direct, 3),
    e(0x00, 0x91, Op::Cmpa,  Direct, 3),
    e(0x00, 0x92, Op::Sbca,  Direct, 3),
    e(0x00, 0x93, Op::Subd,  Direct, 5),
    e(0x00, 0x94, Op::Anda,  Direct, 3),
    e(0x00, 0x95, Op::Bita,  Direct, 3),
    e(0x00, 0x96, Op::Ldaa,  Direct, 3),
    e(0x00, 0x97, Op::Staa,  Direct, 3),
    e(0x00, 0x98, Op::Eora,  Direct, 3),
    e(0x00, 0x99, Op::Adca,  Direct, 3),
    e(0x00, 0x9A, Op::Oraa,  Direct, 3),
    e(0x00, 0x9B, Op::Adda,  Direct, 3),
    e(0x00, 0x9C, Op::Cpx,   Direct, 5),
    e(0x00, 0x9D, Op::Jsr,   Direct, 5),
    e(0x00, 0x9E, Op::Lds,   Direct, 4),
    e(0x00, 0x9F, Op::Sts,   Direct, 4),
    e(0x00, 0xA0, Op::Suba,  IndexedX, 4),
    e(0x00, 0xA1, Op::Cmpa,  IndexedX, 4),
    e(0x00, 0xA2, Op::Sbca,  IndexedX, 4),
    e(0x00, 0xA3, Op::Subd,  IndexedX, 6),
    e(0x00, 0xA4, Op::Anda,  IndexedX, 4),
    e(0x00, 0xA5, Op::Bita,  IndexedX, 4),
    e(0x00, 0xA6, Op::Ldaa,  IndexedX, 4),
    e(0x00, 0xA7, Op::Staa,  IndexedX, 4),
    e(0x00, 0xA8, Op::Eora,  IndexedX, 4),
    e(0x00, 0xA9, Op::Adca,  IndexedX, 4),
    e(0x00, 0xAA, Op::Oraa,  IndexedX, 4),
    e(0x00, 0xAB, Op::Adda,  IndexedX, 4),
    e(0x00, 0xAC, Op::Cpx,   IndexedX, 6),
    e(0x00, 0xAD, Op::Jsr,   IndexedX, 6),
    e(0x00, 0xAE, Op::Lds,   IndexedX, 5),
    e(0x00, 0xAF, Op::Sts,   IndexedX, 5),
    e(0x00, 0xB0, Op::Suba,  Extended, 4),
    e(0x00, 0xB1, Op::Cmpa,  Extended, 4),
    e(0x00, 0xB2, Op::Sbca,  Extended, 4),
    e(0x00, 0xB3, Op::Subd,  Extended, 6),
    e(0x00, 0xB4, Op::Anda,  Extended, 4),
    e(0x00, 0xB5, Op::Bita,  Extended, 4),
    e(0x00, 0xB6, Op::Ldaa,  Extended, 4),
    e(0x00, 0xB7, Op::Staa,  Extended, 4),
    e(0x00, 0xB8, Op::Eora,  Extended, 4),
    e(0x00, 0xB9, Op::Adca,  Extended, 4),
    e(0x00, 0xBA, Op::Oraa,  Extended, 4),
    e(0x00, 0xBB, Op::Adda,  Extended, 4),
    e(0x00, 0xBC, Op::Cpx,   Extended, 6),
    e(0x00, 0xBD, Op::Jsr,   Extended, 6),
    e(0x00, 0xBE, Op::Lds,   Extended, 5),
    e(0x00, 0xBF, Op::Sts,   Extended, 5),
    e(0x00, 0xC0, Op::Subb,  Imm8, 2),
    e(0x00, 0xC1, Op::Cmpb,  Imm8, 2),
    e(0x00, 0xC2, Op::Sbcb,  Imm8, 2),
    e(0x00, 0xC3, Op::Addd,  Imm16, 4),
    e(0x00, 0xC4, Op::Andb,  Imm8, 2),
    e(0x00, 0xC5, Op::Bitb,  Imm8, 2),
    e(0x00, 0xC6, Op::Ldab,  Imm8, 2),
    e(0x00, 0xC8, Op::Eorb,  Imm8, 2),
    e(0x00, 0xC9, Op::Adcb,  Imm8, 2),
    e(0x00, 0xCA, Op::Orab,  Imm8, 2),
    e(0x00, 0xCB, Op::Addb,  Imm8, 2),
    e(0x00, 0xCC, Op::Ldd,   Imm16, 3),
    e(0x00, 0xCE, Op::Ldx,   Imm16, 3),
    e(0x00, 0xCF, Op::Stop,  Inherent, 2),
    e(0x00, 0xD0, Op::Subb,  Direct, 3),
    e(0x00, 0xD1, Op::Cmpb,  Direct, 3),
    e(0x00, 0xD2, Op::Sbcb,  Direct, 3),
    e(0x00, 0xD3, Op::Addd,  Direct, 5),
    e(0x00, 0xD4, Op::Andb,  Direct, 3),
    e(0x00, 0xD5, Op::Bitb,  Direct, 3),
    e(0x00, 0xD6, Op::Ldab,  Direct, 3),
    e(0x00, 0xD7, Op::Stab,  Direct, 3),
    e(0x00, 0xD8, Op::Eorb,  Direct, 3),
    e(0x00, 0xD9, Op::Adcb,  Direct, 3),
    e(0x00, 0xDA, Op::Orab,  Direct, 3),
    e(0x00, 0xDB, Op::Addb,  Direct, 3),
    e(0x00, 0xDC, Op::Ldd,   Direct, 4),
    e(0x00, 0xDD, Op::Std,   Direct, 4),
    e(0x00, 0xDE, Op::Ldx,   Direct, 4),
    e(0x00, 0xDF, Op::Stx,   Direct, 4),
    e(0x00, 0xE0, Op::Subb,  IndexedX, 4),
    e(0x00, 0xE1, Op::Cmpb,  IndexedX, 4),
    e(0x00, 0xE2, Op::Sbcb,  IndexedX, 4),
    e(0x00, 0xE3, Op::Addd,  IndexedX, 6),
    e(0x00, 0xE4, Op::Andb,  IndexedX, 4),
    e(0x00, 0xE5, Op::Bitb,  IndexedX, 4),
    e(0x00, 0xE6, Op::Ldab,  IndexedX, 4),
    e(0x00, 0xE7, Op::Stab,  IndexedX, 4),
    e(0x00, 0xE8, Op::Eorb,  IndexedX, 4),
    e(0x00, 0xE9, Op::Adcb,  IndexedX, 4),
    e(0x00, 0xEA, Op::Orab,  IndexedX, 4),
    e(0x00, 0xEB, Op::Addb,  IndexedX, 4),
    e(0x00, 0xEC, Op::Ldd,   IndexedX, 5),
    e(0x00, 0xED, Op::Std,   IndexedX, 5),
    e(0x00, 0xEE, Op::Ldx,   IndexedX, 5),
    e(0x00, 0xEF, Op::Stx,   IndexedX, 5),
    e(0x00, 0xF0, Op::Subb,  Extended, 4),
    e(0x00, 0xF1, Op::Cmpb,  Extended, 4),
    e(0x00, 0xF2, Op::Sbcb,  Extended, 4),
    e(0x00, 0xF3, Op::Addd,  Extended, 6),
    e(0x00, 0xF4, Op::Andb,  Extended, 4),
    e(0x00, 0xF5, Op::Bitb,  Extended, 4),
    e(0x00, 0xF6, Op::Ldab,  Extended, 4),
    e(0x00, 0xF7, Op::Stab,  Extended, 4),
    e(0x00, 0xF8, Op::Eorb,  Extended, 4),
    e(0x00, 0xF9, Op::Adcb,  Extended, 4),
    e(0x00, 0xFA, Op::Orab,  Extended, 4),
    e(0x00, 0xFB, Op::Addb,  Extended, 4),
    e(0x00, 0xFC, Op::Ldd,   Extended, 5),
    e(0x00, 0xFD, Op::Std,   Extended, 5),
    e(0x00, 0xFE, Op::Ldx,   Extended, 5),
    e(0x00, 0xFF, Op::Stx,   Extended, 5),
    // ---- page 2 ($18): Y instead of X ---------------------------------------------
    e(0x18, 0x08, Op::Iny,   Inherent, 4),
    e(0x18, 0x09, Op::Dey,   Inherent, 4),
    e(0x18, 0x1C, Op::Bset,  BitIndexedY, 8),
    e(0x18, 0x1D, Op::Bclr,  BitIndexedY, 8),
    e(0x18, 0x1E, Op::Brset, BitBranchIndexedY, 8),
    e(0x18, 0x1F, Op::Brclr, BitBranchIndexedY, 8),
    e(0x18, 0x30, Op::Tsy,   Inherent, 4),
    e(0x18, 0x35, Op::Tys,   Inherent, 4),
    e(0x18, 0x38, Op::Puly,  Inherent, 6),
    e(0x18, 0x3A, Op::Aby,   Inherent, 4),
    e(0x18, 0x3C, Op::Pshy,  Inherent, 5),
    e(0x18, 0x60, Op::Neg,   IndexedY, 7),
    e(0x18, 0x63, Op::Com,   IndexedY, 7),
    e(0x18, 0x64, Op::Lsr,   IndexedY, 7),
    e(0x18, 0x66, Op::Ror,   IndexedY, 7),
    e(0x18, 0x67, Op::Asr,   IndexedY, 7),
    e(0x18, 0x68, Op::Asl,   IndexedY, 7),
    e(0x18, 0x69, Op::Rol,   IndexedY, 7),
    e(0x18, 0x6A, Op::Dec,   IndexedY, 7),
    e(0x18, 0x6C, Op::Inc,   IndexedY, 7),
    e(0x18, 0x6D, Op::Tst,   IndexedY, 7),
    e(0x18, 0x6E, Op::Jmp,   IndexedY, 4),
    e(0x18, 0x6F, Op::Clr,   IndexedY, 7),
    e(0x18, 0x8C, Op::Cpy,   Imm16, 5),
    e(0x18, 0x8F, Op::Xgdy,  Inherent, 4),
    e(0x18, 0x9C, Op::Cpy,   Direct, 6),
    e(0x18, 0xA0, Op::Suba,  IndexedY, 5),
    e(0x18, 0xA1, Op::Cmpa,  IndexedY, 5),
    e(0x18, 0xA2, Op::Sbca,  IndexedY, 5),
    e(0x18, 0xA3, Op::Subd,  IndexedY, 7),
    e(0x18, 0xA4, Op::Anda,  IndexedY, 5),
    e(0x18, 0xA5, Op::Bita,  IndexedY, 5),
    e(0x18, 0xA6, Op::Ldaa,  IndexedY, 5),
    e(0x18, 0xA7, Op::Staa,  IndexedY, 5),
    e(0x18, 0xA8, Op::Eora,  IndexedY, 5),
    e(0x18, 0xA9, Op::Adca,  IndexedY, 5),
    e(0x18, 0xAA, Op::Oraa,  IndexedY, 5),
    e(0x18, 0xAB, Op::Adda,  IndexedY, 5),
    e(0x18, 0xAC, Op::Cpy,   IndexedY, 7),
    e(0x18, 0xAD, Op::Jsr,   IndexedY, 7),
    e(0x18, 0xAE, Op::Lds,   IndexedY, 6),
    e(0x18, 0xAF, Op::Sts,   IndexedY, 6),
    e(0x18, 0xBC, Op::Cpy,   Extended, 7),
    e(0x18, 0xCE, Op::Ldy,   Imm16, 4),
    e(0x18, 0xDE, Op::Ldy,   Direct, 5),
    e(0x18, 0xDF, Op::Sty,   Direct, 5),
    e(0x18, 0xE0, Op::Subb,  IndexedY, 5),
    e(0x18, 0xE1, Op::Cmpb,  IndexedY, 5),
    e(0x18, 0xE2, Op::Sbcb,  IndexedY, 5),
    e(0x18, 0xE3, Op::Addd,  IndexedY, 7),
    e(0x18, 0xE4, Op::Andb,  IndexedY, 5),
    e(0x18, 0xE5, Op::Bitb,  IndexedY, 5),
    e(0x18, 0xE6, Op::Ldab,  IndexedY, 5),
    e(0x18, 0xE7, Op::Stab,  IndexedY, 5),
    e(0x18, 0xE8, Op::Eorb,  IndexedY, 5),
    e(0x18, 0xE9, Op::Adcb,  IndexedY, 5),
    e(0x18, 0xEA, Op::Orab,  IndexedY, 5),
    e(0x18, 0xEB, Op::Addb,  IndexedY, 5),
    e(0x18, 0xEC, Op::Ldd,   IndexedY, 6),
    e(0x18, 0xED, Op::Std,   IndexedY, 6),
    e(0x18, 0xEE, Op::Ldy,   IndexedY, 6),
    e(0x18, 0xEF, Op::Sty,   IndexedY, 6),
    e(0x18, 0xFE, Op::Ldy,   Extended, 6),
    e(0x18, 0xFF, Op::Sty,   Extended, 6),
    // ---- page 3 ($1A): CPD, and Y loaded/compared through X -------------------------
    e(0x1A, 0x83, Op::Cpd,   Imm16, 5),
    e(0x1A, 0x93, Op::Cpd,   Direct, 6),
    e(0x1A, 0xA3, Op::Cpd,   IndexedX, 7),
    e(0x1A, 0xAC, Op::Cpy,   IndexedX, 7),
    e(0x1A, 0xB3, Op::Cpd,   Extended, 7),
    e(0x1A, 0xEE, Op::Ldy,   IndexedX, 6),
    e(0x1A, 0xEF, Op::Sty,   IndexedX, 6),
    // ---- page 4 ($CD): CPD and X loaded/compared through Y -------------------------
    e(0xCD, 0xA3, Op::Cpd,   IndexedY, 7),
    e(0xCD, 0xAC, Op::Cpx,   IndexedY, 7),
    e(0xCD, 0xEE, Op::Ldx,   IndexedY, 6),
    e(0xCD, 0xEF, Op::Stx,   IndexedY, 6),
];

/// Index of a prebyte's page in [`OpcodeMap`]: 0 = page 1, 1 = $18, 2 = $1A, 3 = $CD.
pub const fn page_index(prebyte: u8) -> Option<usize> {
    match prebyte {
        0x00 => Some(0),
        0x18 => Some(1),
        0x1A => Some(2),
        0xCD => Some(3),
        _ => None,
    }
}

/// A 4 x 256 lookup built from [`OPCODES`] so decoding is one array index.
pub struct OpcodeMap {
    pages: [[Option<OpcodeInfo>; 256]; 4],
}

impl OpcodeMap {
    /// Builds the map; a `const fn` so it can live in a `static`.
    pub const fn build() -> OpcodeMap {
        let mut pages = [[None; 256]; 4];
        let mut i = 0;
        while i < OPCODES.len() {
            let info = OPCODES[i];
            let page = match page_index(info.prebyte) {
                Some(p) => p,
                None => panic!("bad prebyte in opcode table"),
            };
            pages[page][info.opcode as usize] = Some(info);
            i += 1;
        }
        OpcodeMap { pages }
    }

    /// The entry for a prebyte (0 for page 1) and opcode, if documented.
    #[inline]
    pub fn get(&self, prebyte: u8, opcode: u8) -> Option<&OpcodeInfo> {
        match page_index(prebyte) {
            Some(p) => self.pages[p][opcode as usize].as_ref(),
            None => None,
        }
    }
}

/// The decode map for the whole opcode table.
pub static OPCODE_MAP: OpcodeMap = OpcodeMap::build();

/// All table entries for an operation, in table order (used by the assembler
/// to pick an addressing mode).
pub fn entries_for(op: Op) -> impl Iterator<Item = &'static OpcodeInfo> {
    OPCODES.iter().filter(move |e| e.op == op)
}

/// The calls and returns by their opcode bytes alone: JSR in its four
/// modes, BSR, RTS, RTI (RM appendix A); `second` (the byte after the $18
/// prebyte, JSR ,Y) is asked for only when `first` is $18. The debugger's
/// call stack and the machine's hooked run both ask at every call and
/// return they take the full way.
#[inline]
pub fn flow_op(first: u8, second: impl FnOnce() -> u8) -> Option<Op> {
    if first == 0x18 {
        return (second() == 0xAD).then_some(Op::Jsr);
    }
    FLOW_OPS[first as usize]
}

/// [`flow_op`] per first byte ($18 aside) as a table: one load where a
/// `match` compiled to a chain of compares whose outcome changes from one
/// call or return to the next (the debug bench's fast path, which asks at
/// every call and return, 2.85-2.87 -> 2.80-2.82 ms, pinned, three pairs).
static FLOW_OPS: [Option<Op>; 256] = {
    let mut t = [None; 256];
    t[0x9D] = Some(Op::Jsr);
    t[0xAD] = Some(Op::Jsr);
    t[0xBD] = Some(Op::Jsr);
    t[0x8D] = Some(Op::Bsr);
    t[0x39] = Some(Op::Rts);
    t[0x3B] = Some(Op::Rti);
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_no_duplicate_opcodes() {
        for (i, a) in OPCODES.iter().enumerate() {
            for b in &OPCODES[i + 1..] {
                assert!(
                    !(a.prebyte == b.prebyte && a.opcode == b.opcode),
                    "duplicate {:02X} {:02X}",
                    a.prebyte,
                    a.opcode
                );
            }
        }
    }

    #[test]
    fn table_has_one_entry_per_op_and_mode() {
        for (i, a) in OPCODES.iter().enumerate() {
            for b in &OPCODES[i + 1..] {
                assert!(
                    !(a.op == b.op && a.mode == b.mode),
                    "{:?} {:?} twice",
                    a.op,
                    a.mode
                );
            }
        }
    }

    #[test]
    fn documented_opcode_counts() {
        // The MC68HC11 has 308 opcodes: 233 on page 1 (256 minus 20 unused codes and 3 prebytes),
        // 64 on page 2, 7 on page 3 and 4 on page 4.
        let count = |p: u8| OPCODES.iter().filter(|e| e.prebyte == p).count();
        assert_eq!(count(0x00), 233);
        assert_eq!(count(0x18), 64);
        assert_eq!(count(0x1A), 7);
        assert_eq!(count(0xCD), 4);
    }

    #[test]
    fn page1_unused_codes_are_exactly_the_documented_holes() {
        let holes: Vec<u8> = (0..=255u8)
            .filter(|&op| OPCODE_MAP.get(0, op).is_none() && !PREBYTES.contains(&op))
            .collect();
        assert_eq!(
            holes,
            vec![
                0x41, 0x42, 0x45, 0x4B, 0x4E, 0x51, 0x52, 0x55, 0x5B, 0x5E, 0x61, 0x62, 0x65, 0x6B,
                0x71, 0x72, 0x75, 0x7B, 0x87, 0xC7
            ]
        );
    }

    #[test]
    fn mnemonic_round_trip() {
        for e in OPCODES {
            assert_eq!(Op::from_mnemonic(e.op.mnemonic()), Some(e.op));
        }
        assert_eq!(Op::from_mnemonic("LDA"), Some(Op::Ldaa));
        assert_eq!(Op::from_mnemonic("bhs"), Some(Op::Bcc));
    }

    /// The table names exactly the calls and returns the opcode map has
    /// (every first byte, every byte after the $18 prebyte).
    #[test]
    fn flow_ops_are_the_calls_and_returns_of_the_opcode_map() {
        for first in 0..=255u8 {
            for second in 0..=255u8 {
                let bytes = [first, second, 0, 0, 0];
                let decoded = crate::cpu::Instruction::opcode_at(0, |a| bytes[usize::from(a)])
                    .ok()
                    .map(|(info, _)| info.op)
                    .filter(|op| matches!(op, Op::Jsr | Op::Bsr | Op::Rts | Op::Rti));
                assert_eq!(
                    flow_op(first, || second),
                    decoded,
                    "${first:02X} ${second:02X}"
                );
            }
        }
    }
}

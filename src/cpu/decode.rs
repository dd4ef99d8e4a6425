//! Decoding bytes into an [`Instruction`] value from the one opcode table
//! (M68HC11 RM appendix A); `Display` of an instruction is its disassembly.

use super::opcodes::{Mode, OpcodeInfo, OPCODE_MAP, PREBYTES};
use std::fmt;

/// A decoded instruction: where it is, what the table says, and its operand bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// Address of its first byte (the prebyte, if any).
    pub addr: u16,
    /// The opcode table entry.
    pub info: OpcodeInfo,
    /// Operand bytes after the opcode; only the first `info.mode.operand_len()` count.
    pub operands: [u8; 3],
}

/// Bytes at an address that are no documented opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalOpcode {
    /// Address of the first byte.
    pub addr: u16,
    /// The offending bytes: one, or two when a prebyte is followed by an unused opcode.
    pub bytes: [u8; 2],
    /// How many of `bytes` count (1 or 2).
    pub len: u8,
}

impl fmt::Display for IllegalOpcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal opcode")?;
        for b in &self.bytes[..self.len as usize] {
            write!(f, " ${b:02X}")?;
        }
        write!(f, " at ${:04X}", self.addr)
    }
}

impl Instruction {
    /// The instruction at `addr` as text (`staa $C100`), or the illegal
    /// opcode's description, for messages.
    pub fn text_at(addr: u16, fetch: impl Fn(u16) -> u8) -> String {
        match Instruction::decode(addr, fetch) {
            Ok(i) => i.to_string(),
            Err(e) => e.to_string(),
        }
    }

    /// Decodes the instruction at `addr`, reading bytes through `fetch`
    /// (which must not have side effects: pass a `peek`).
    #[inline]
    pub fn decode(addr: u16, fetch: impl Fn(u16) -> u8) -> Result<Instruction, IllegalOpcode> {
        let (info, at) = Self::opcode_at(addr, &fetch)?;
        let mut operands = [0u8; 3];
        for (i, slot) in operands
            .iter_mut()
            .enumerate()
            .take(info.mode.operand_len() as usize)
        {
            *slot = fetch(addr.wrapping_add(at + i as u16));
        }
        Ok(Instruction {
            addr,
            info: *info,
            operands,
        })
    }

    /// The table entry of the instruction at `addr` and the length of its
    /// opcode bytes (2 after a prebyte), without reading its operands: for
    /// callers that need only the operation and the mode.
    #[inline]
    pub fn opcode_at(
        addr: u16,
        fetch: impl Fn(u16) -> u8,
    ) -> Result<(&'static OpcodeInfo, u16), IllegalOpcode> {
        let first = fetch(addr);
        let (prebyte, opcode, len) = if PREBYTES.contains(&first) {
            (first, fetch(addr.wrapping_add(1)), 2u16)
        } else {
            (0, first, 1u16)
        };
        match OPCODE_MAP.get(prebyte, opcode) {
            Some(info) => Ok((info, len)),
            None => {
                let (bytes, len) = if prebyte == 0 {
                    ([opcode, 0], 1)
                } else {
                    ([prebyte, opcode], 2)
                };
                Err(IllegalOpcode { addr, bytes, len })
            }
        }
    }

    /// Decodes from a byte slice that starts at `addr`; bytes past the slice read as 0.
    pub fn decode_slice(addr: u16, bytes: &[u8]) -> Result<Instruction, IllegalOpcode> {
        Self::decode(addr, |a| {
            bytes
                .get(a.wrapping_sub(addr) as usize)
                .copied()
                .unwrap_or(0)
        })
    }

    /// Length in bytes.
    pub fn len(&self) -> u16 {
        self.info.byte_len() as u16
    }

    /// Always false: an instruction has at least one byte (for clippy's `len` rule).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Address of the next instruction in memory.
    pub fn next_addr(&self) -> u16 {
        self.addr.wrapping_add(self.len())
    }

    /// All bytes of the instruction, prebyte first.
    pub fn bytes(&self) -> Vec<u8> {
        let mut v = self.info.opcode_bytes();
        v.extend_from_slice(&self.operands[..self.info.mode.operand_len() as usize]);
        v
    }

    /// The 8-bit immediate, direct address or index offset (first operand byte).
    pub fn byte_operand(&self) -> u8 {
        self.operands[0]
    }

    /// The 16-bit immediate or extended address (first two operand bytes).
    pub fn word_operand(&self) -> u16 {
        u16::from_be_bytes([self.operands[0], self.operands[1]])
    }

    /// The bit mask of `bset`/`bclr`/`brset`/`brclr`.
    pub fn mask(&self) -> Option<u8> {
        match self.info.mode {
            Mode::BitDirect
            | Mode::BitIndexedX
            | Mode::BitIndexedY
            | Mode::BitBranchDirect
            | Mode::BitBranchIndexedX
            | Mode::BitBranchIndexedY => Some(self.operands[1]),
            _ => None,
        }
    }

    /// Where a branch goes when taken (relative and bit-branch modes).
    pub fn branch_target(&self) -> Option<u16> {
        let disp = match self.info.mode {
            Mode::Relative => self.operands[0],
            Mode::BitBranchDirect | Mode::BitBranchIndexedX | Mode::BitBranchIndexedY => {
                self.operands[2]
            }
            _ => return None,
        };
        Some(self.next_addr().wrapping_add(disp as i8 as u16))
    }

    /// Where control goes when this instruction jumps: a branch's target,
    /// or a JMP's absolute address (not an indexed JMP, which needs X or
    /// Y; not a call).
    pub fn jump_target(&self) -> Option<u16> {
        self.branch_target().or_else(|| {
            self.absolute_address()
                .filter(|_| self.info.op == super::Op::Jmp)
        })
    }

    /// The memory address a direct or extended operand names (not indexed:
    /// that needs X or Y).
    pub fn absolute_address(&self) -> Option<u16> {
        match self.info.mode {
            Mode::Direct | Mode::BitDirect | Mode::BitBranchDirect => Some(self.operands[0] as u16),
            Mode::Extended => Some(self.word_operand()),
            _ => None,
        }
    }

    /// Formats the instruction, naming addresses through `name` where it
    /// returns a label (`jsr drawCell`, `ldaa player`).
    pub fn format_with(&self, name: &dyn Fn(u16) -> Option<String>) -> String {
        let m = self.info.op.mnemonic();
        let addr8 = |v: u8| name(v as u16).unwrap_or_else(|| format!("${v:02X}"));
        let addr16 = |v: u16| name(v).unwrap_or_else(|| format!("${v:04X}"));
        let o = &self.operands;
        match self.info.mode {
            Mode::Inherent => m.to_string(),
            Mode::Imm8 => format!("{m} #${:02X}", o[0]),
            Mode::Imm16 => format!("{m} #${:04X}", self.word_operand()),
            Mode::Direct => format!("{m} {}", addr8(o[0])),
            Mode::Extended => format!("{m} {}", addr16(self.word_operand())),
            Mode::IndexedX => format!("{m} ${:02X},x", o[0]),
            Mode::IndexedY => format!("{m} ${:02X},y", o[0]),
            Mode::Relative => format!("{m} {}", addr16(self.branch_target().unwrap_or(0))),
            Mode::BitDirect => format!("{m} {},#${:02X}", addr8(o[0]), o[1]),
            Mode::BitIndexedX => format!("{m} ${:02X},x,#${:02X}", o[0], o[1]),
            Mode::BitIndexedY => format!("{m} ${:02X},y,#${:02X}", o[0], o[1]),
            Mode::BitBranchDirect => format!(
                "{m} {},#${:02X},{}",
                addr8(o[0]),
                o[1],
                addr16(self.branch_target().unwrap_or(0))
            ),
            Mode::BitBranchIndexedX => format!(
                "{m} ${:02X},x,#${:02X},{}",
                o[0],
                o[1],
                addr16(self.branch_target().unwrap_or(0))
            ),
            Mode::BitBranchIndexedY => format!(
                "{m} ${:02X},y,#${:02X},{}",
                o[0],
                o[1],
                addr16(self.branch_target().unwrap_or(0))
            ),
        }
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format_with(&|_| None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_formats_each_mode() {
        let cases: &[(&[u8], &str)] = &[
            (&[0x86, 0x41], "ldaa #$41"),
            (&[0xCE, 0x12, 0x34], "ldx #$1234"),
            (&[0x96, 0x40], "ldaa $40"),
            (&[0xB6, 0xC0, 0x00], "ldaa $C000"),
            (&[0xA6, 0x03], "ldaa $03,x"),
            (&[0x18, 0xA6, 0x03], "ldaa $03,y"),
            (&[0x26, 0xFE], "bne $C000"),
            (&[0x15, 0x00, 0x40], "bclr $00,#$40"),
            (&[0x1E, 0x02, 0x80, 0x00], "brset $02,x,#$80,$C004"),
            (&[0x18, 0x1F, 0x02, 0x80, 0xFB], "brclr $02,y,#$80,$C000"),
            (&[0xCD, 0xEE, 0x05], "ldx $05,y"),
            (&[0x1A, 0x83, 0x00, 0x88], "cpd #$0088"),
        ];
        for (bytes, text) in cases {
            let ins = Instruction::decode_slice(0xC000, bytes).expect("documented opcode");
            assert_eq!(ins.to_string(), *text);
            assert_eq!(ins.bytes(), bytes.to_vec());
        }
    }

    #[test]
    fn illegal_opcodes_report_their_bytes() {
        let err = Instruction::decode_slice(0xC000, &[0x41]).unwrap_err();
        assert_eq!((err.bytes[0], err.len), (0x41, 1));
        let err = Instruction::decode_slice(0xC000, &[0x18, 0x86]).unwrap_err();
        assert_eq!((err.bytes, err.len), ([0x18, 0x86], 2));
        assert_eq!(err.to_string(), "illegal opcode $18 $86 at $C000");
    }
}

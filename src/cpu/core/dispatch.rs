//! From an opcode to its code. A page-1 opcode (no prebyte) is dispatched
//! on its byte: a 256-arm `match` whose arms run `execute` with that
//! byte's entry of the one opcode table [`OPCODES`] (operation, addressing
//! mode, cycle count) as constants, the entry itself a constant generic
//! argument. Behind the $18 prebyte (the Y instructions) the second byte
//! is dispatched the same way, in line; the rarer prebytes ($1A, $CD) and
//! illegal bytes go out of line (`Cpu::step_prebyte`), which looks the
//! entry up in [`INDEX`] and `match`es on its index the same way. In an optimised build every arm
//! thus becomes the code of exactly one opcode (`ldaa 3,x` fetches its
//! offset and adds X without asking which mode it is in): one indirect
//! jump per instruction instead of a table lookup, a jump on the operation
//! and another on the mode. The semantics stay in one place, `execute`;
//! this file only says which entry an opcode is, and is checked against
//! the table by its tests.

use super::{Cpu, Step};
use crate::cpu::bus::Bus;
use crate::cpu::opcodes::{page_index, OPCODES};
use seq_macro::seq;

/// Marks an opcode with no table entry in [`INDEX`].
pub(super) const NONE: u16 = u16::MAX;
/// Page 1's entries for the prebytes: `PREBYTE + n` selects page `n`
/// (1-3), so one lookup tells an opcode from a prebyte. Above every index.
pub(super) const PREBYTE: u16 = 0xFF00;

/// Entries in [`OPCODES`]; the dispatch `match` below has one arm for each.
const ENTRIES: usize = 308;
const _: () = assert!(
    OPCODES.len() == ENTRIES,
    "update ENTRIES and the seq! bound"
);

/// Per page (none, $18, $1A, $CD) and opcode byte: the index of its entry
/// in [`OPCODES`], or [`NONE`]; on page 1 the prebytes are `PREBYTE + page`.
pub(super) static INDEX: [[u16; 256]; 4] = INDEX_TABLE;
const INDEX_TABLE: [[u16; 256]; 4] = build_index();

/// Per opcode byte of page `page` (0 = no prebyte, 1 = behind $18): true
/// if it is a whole instruction's opcode (not a prebyte, not illegal),
/// whose entry [`page_entry`] gives.
const fn plain_opcodes(page: usize) -> [bool; 256] {
    let mut plain = [false; 256];
    let mut op = 0;
    while op < 256 {
        // NONE and the prebyte markers both lie above every index.
        plain[op] = INDEX_TABLE[page][op] < PREBYTE;
        op += 1;
    }
    plain
}

/// Page 1's opcodes dispatched on their byte ([`Cpu::dispatch_first`]).
const PAGE1_PLAIN: [bool; 256] = plain_opcodes(0);
/// Page 2's (behind $18: the Y-indexed and Y-register instructions),
/// dispatched on their second byte ([`Cpu::dispatch_page2`]).
const PAGE2_PLAIN: [bool; 256] = plain_opcodes(1);

/// The entry of opcode `op` of page `page` in [`OPCODES`]; 0 (any valid
/// index, never run) for a prebyte or an illegal opcode.
const fn page_entry(page: usize, op: usize) -> usize {
    let i = INDEX_TABLE[page][op];
    if i < PREBYTE {
        i as usize
    } else {
        0
    }
}

const fn build_index() -> [[u16; 256]; 4] {
    let mut index = [[NONE; 256]; 4];
    let mut i = 0;
    while i < OPCODES.len() {
        let e = &OPCODES[i];
        if let Some(page) = page_index(e.prebyte) {
            index[page][e.opcode as usize] = i as u16;
        }
        i += 1;
    }
    index[0][0x18] = PREBYTE + 1;
    index[0][0x1A] = PREBYTE + 2;
    index[0][0xCD] = PREBYTE + 3;
    index
}

impl Cpu {
    /// Runs table entry `I`; `code` holds the instruction's bytes from
    /// `addr` on, the first in the top byte.
    #[inline(always)]
    fn entry<B: Bus, const I: usize>(&mut self, bus: &mut B, addr: u16, code: u64) -> Step {
        let e = &OPCODES[I];
        let opcode_len = if e.prebyte == 0 { 1 } else { 2 };
        let operands = code << (8 * opcode_len);
        self.execute(bus, e.op, e.mode, e.cycles, addr, opcode_len, operands)
    }

    /// Runs the instruction at `addr` whose first byte is `first` (bytes in
    /// `code`, see [`Bus::code`]): a page-1 opcode straight from the byte,
    /// one jump on it and no table lookup, a page-2 one ($18) with a second
    /// jump on its second byte; the other prebytes and illegal opcodes out
    /// of line ([`Cpu::step_prebyte`]).
    #[inline(always)]
    pub(super) fn dispatch_first<B: Bus>(
        &mut self,
        bus: &mut B,
        first: u8,
        addr: u16,
        code: u64,
    ) -> Step {
        seq!(N in 0..256 {
            match first {
                #(N if PAGE1_PLAIN[N] => self.entry::<B, { page_entry(0, N) }>(bus, addr, code),)*
                0x18 => match self.dispatch_page2(bus, (code >> 48) as u8, addr, code) {
                    Some(step) => step,
                    None => self.step_prebyte(bus, first, addr, code),
                },
                _ => self.step_prebyte(bus, first, addr, code),
            }
        })
    }

    /// Runs the instruction at `addr` behind the $18 prebyte, whose second
    /// byte is `second` (bytes in `code`): like [`Cpu::dispatch_first`],
    /// one jump on the byte, for the commonest prebyte (Y-indexed code);
    /// an illegal second byte is `None`.
    #[inline(always)]
    pub(super) fn dispatch_page2<B: Bus>(
        &mut self,
        bus: &mut B,
        second: u8,
        addr: u16,
        code: u64,
    ) -> Option<Step> {
        seq!(N in 0..256 {
            match second {
                #(N if PAGE2_PLAIN[N] => Some(self.entry::<B, { page_entry(1, N) }>(bus, addr, code)),)*
                _ => None,
            }
        })
    }

    /// Runs the table entry `index` (from [`INDEX`]) for the instruction at
    /// `addr`, whose bytes `code` holds (see [`Bus::code`]).
    #[inline(always)]
    pub(super) fn dispatch<B: Bus>(
        &mut self,
        bus: &mut B,
        index: u16,
        addr: u16,
        code: u64,
    ) -> Step {
        seq!(I in 0..308 {
            match index as usize {
                #(I => self.entry::<B, I>(bus, addr, code),)*
                // INDEX holds nothing else (built above from the same table).
                _ => unreachable!("opcode table index {index} out of range"),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::opcodes::OPCODE_MAP;

    #[test]
    fn every_opcode_finds_its_own_entry() {
        let mut found = 0;
        for (page, &prebyte) in [0x00u8, 0x18, 0x1A, 0xCD].iter().enumerate() {
            for opcode in 0..=255u8 {
                let i = INDEX[page][opcode as usize];
                if page == 0 && [0x18, 0x1A, 0xCD].contains(&opcode) {
                    assert_eq!(page_index(opcode), Some((i - PREBYTE) as usize));
                    continue;
                }
                match OPCODE_MAP.get(prebyte, opcode) {
                    Some(info) => {
                        assert_ne!(i, NONE, "{prebyte:02X} {opcode:02X}");
                        assert_eq!(OPCODES[i as usize], *info);
                        found += 1;
                    }
                    None => assert_eq!(i, NONE, "{prebyte:02X} {opcode:02X} is no opcode"),
                }
            }
        }
        assert_eq!(found, ENTRIES);
    }

    #[test]
    fn page2_bytes_are_their_index_entries() {
        for op in 0..256 {
            let i = INDEX[1][op];
            assert_eq!(PAGE2_PLAIN[op], i != NONE, "18 {op:02X}");
            if PAGE2_PLAIN[op] {
                assert_eq!(page_entry(1, op), i as usize, "18 {op:02X}");
                assert_eq!(OPCODES[page_entry(1, op)].prebyte, 0x18);
                assert_eq!(OPCODES[page_entry(1, op)].opcode as usize, op);
            }
        }
    }

    #[test]
    fn page1_bytes_are_their_index_entries() {
        for op in 0..256 {
            let i = INDEX[0][op];
            assert_eq!(PAGE1_PLAIN[op], i < PREBYTE, "{op:02X}");
            if PAGE1_PLAIN[op] {
                assert_eq!(page_entry(0, op), i as usize, "{op:02X}");
                assert_eq!(OPCODES[page_entry(0, op)].prebyte, 0);
                assert_eq!(OPCODES[page_entry(0, op)].opcode as usize, op);
            }
        }
    }
}

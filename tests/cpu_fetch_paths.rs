//! The CPU takes an instruction's bytes two ways: in one load when the bus
//! offers them ([`Bus::code`], plain memory) or byte by byte through
//! [`Bus::read`] (devices, page ends, buses that log every read). Both must
//! run every opcode the same: this runs each table entry, plus the illegal
//! opcodes, with random operands and registers at random addresses (page
//! ends and the wrap at $FFFF included) both ways and compares the whole
//! CPU and memory afterwards.

use hc11lab::cpu::{Bus, Cpu, RamBus, StepEvent, OPCODES};

#[path = "support/lcg.rs"]
mod lcg;
use lcg::Lcg as Rng;

/// A RamBus that keeps the default `code` (None): every instruction byte
/// goes through `read`.
struct ByteBus(RamBus);

impl Bus for ByteBus {
    fn read(&mut self, addr: u16) -> u8 {
        self.0.read(addr)
    }
    fn peek(&self, addr: u16) -> u8 {
        self.0.peek(addr)
    }
    fn write(&mut self, addr: u16, value: u8) {
        self.0.write(addr, value)
    }
}

/// Runs `bytes` at `at` on both buses from the same random state and
/// compares everything; returns the step's event.
fn both_ways(rng: &mut Rng, at: u16, bytes: &[u8]) -> StepEvent {
    let mut ram = RamBus::new();
    for (i, b) in ram.mem.iter_mut().enumerate() {
        *b = (i as u64).wrapping_mul(0x9E37_79B9).wrapping_add(rng.0) as u8;
    }
    ram.load(at, bytes);
    let mut cpu = Cpu::new();
    cpu.regs.a = rng.next(256) as u8;
    cpu.regs.b = rng.next(256) as u8;
    cpu.regs.x = rng.next(0x10000) as u16;
    cpu.regs.y = rng.next(0x10000) as u16;
    cpu.regs.sp = rng.next(0x10000) as u16;
    // I and X set: no interrupt is taken before the instruction.
    cpu.regs.ccr = rng.next(256) as u8 | 0x50;
    cpu.regs.pc = at;
    let mut fast_cpu = cpu.clone();
    let mut fast = ram.clone();
    let mut slow = ByteBus(ram);
    assert!(fast.code(at).is_some() || at > 0xFFF8);
    let a = fast_cpu.step(&mut fast);
    let b = cpu.step(&mut slow);
    assert_eq!(a, b, "step of {bytes:02X?} at ${at:04X}");
    assert_eq!(fast_cpu, cpu, "CPU after {bytes:02X?} at ${at:04X}");
    assert!(
        fast.mem[..] == slow.0.mem[..],
        "memory after {bytes:02X?} at ${at:04X}"
    );
    a.event
}

#[test]
fn every_opcode_runs_the_same_from_one_load_and_byte_by_byte() {
    let mut rng = Rng(0x5EED);
    let mut ran = 0;
    for e in OPCODES.iter() {
        for _ in 0..24 {
            let mut bytes = Vec::new();
            if e.prebyte != 0 {
                bytes.push(e.prebyte);
            }
            bytes.push(e.opcode);
            for _ in 0..e.mode.operand_len() {
                bytes.push(rng.next(256) as u8);
            }
            // Anywhere, near a page end, or across the wrap at $FFFF.
            let at = match rng.next(4) {
                0 => rng.next(0x10000) as u16,
                1 => (rng.next(256) as u16) << 8 | (0xF8 + rng.next(8) as u16),
                2 => 0xFFFF - rng.next(5) as u16,
                _ => 0xC000 + rng.next(0x100) as u16,
            };
            both_ways(&mut rng, at, &bytes);
            ran += 1;
        }
    }
    assert_eq!(ran, OPCODES.len() * 24);
}

#[test]
fn illegal_opcodes_trap_the_same_both_ways() {
    let mut rng = Rng(7);
    let mut traps = 0;
    for prebyte in [None, Some(0x18u8), Some(0x1A), Some(0xCD)] {
        for opcode in 0..=255u8 {
            let known = OPCODES
                .iter()
                .any(|e| e.prebyte == prebyte.unwrap_or(0) && e.opcode == opcode);
            if known || (prebyte.is_none() && [0x18, 0x1A, 0xCD].contains(&opcode)) {
                continue;
            }
            let bytes: Vec<u8> = prebyte.into_iter().chain([opcode, 0x12, 0x34]).collect();
            for at in [0xC000u16, 0xC0FF, 0xFFFF] {
                if matches!(both_ways(&mut rng, at, &bytes), StepEvent::Illegal(_)) {
                    traps += 1;
                }
            }
        }
    }
    // Page 1 has 20 unused opcodes (TEST, $00, traps outside test mode).
    assert!(traps > 3 * 20, "{traps}");
}

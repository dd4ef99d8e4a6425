//! The condition-code effects the editor's help shows for each mnemonic
//! (`Op::flags`, from the reference manual's tables) against what the core
//! does: every opcode of the table, run from random registers, operands
//! and memory, changes only the flags its entry names, clears and sets the
//! ones it says, and changes each flag marked `*` at least once.

use hc11lab::cpu::opcodes::{Op, FLAG_NAMES, OPCODES};
use hc11lab::cpu::{Cpu, RamBus, Registers};

/// A small fixed-seed generator (xorshift64*), so a failure repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn byte(&mut self) -> u8 {
        self.next() as u8
    }
    fn word(&mut self) -> u16 {
        self.next() as u16
    }
}

const TRIALS: usize = 300;
const CODE: u16 = 0xC000;

#[test]
fn every_opcode_changes_only_the_flags_its_entry_names() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut failures = Vec::new();
    for e in OPCODES.iter().filter(|e| e.op != Op::Test) {
        let want = e.op.flags().as_bytes();
        assert_eq!(want.len(), 8, "{:?}", e.op);
        let mut bus = RamBus::new();
        for b in bus.mem.iter_mut() {
            *b = rng.byte();
        }
        let mut changed = [false; 8];
        for _ in 0..TRIALS {
            let mut code = e.opcode_bytes();
            code.extend((0..e.mode.operand_len()).map(|_| rng.byte()));
            bus.load(CODE, &code);
            let mut cpu = Cpu::new();
            cpu.regs = Registers {
                pc: CODE,
                x: rng.word(),
                y: rng.word(),
                // Away from the code, so a push does not overwrite it.
                sp: 0x0100 + (rng.word() & 0x3FFF),
                a: rng.byte(),
                b: rng.byte(),
                ccr: rng.byte(),
                ..Registers::default()
            };
            let before = cpu.regs.ccr;
            cpu.step(&mut bus);
            let after = cpu.regs.ccr;
            for (i, &rule) in want.iter().enumerate() {
                let bit = 0x80u8 >> i;
                let (was, is) = (before & bit != 0, after & bit != 0);
                let ok = match rule {
                    b'-' => was == is,
                    b'0' => !is,
                    b'1' => is,
                    b'v' => was || !is,
                    _ => true,
                };
                if was != is {
                    changed[i] = true;
                }
                if !ok {
                    failures.push(format!(
                        "{:?} {}: {} is `{}` but went {} -> {}",
                        e.op, e.mode, FLAG_NAMES[i], rule as char, was as u8, is as u8
                    ));
                }
            }
        }
        for (i, &rule) in want.iter().enumerate() {
            if rule == b'*' && !changed[i] {
                failures.push(format!(
                    "{:?} {}: {} is `*` but never changed in {TRIALS} runs",
                    e.op, e.mode, FLAG_NAMES[i]
                ));
            }
        }
    }
    failures.dedup();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

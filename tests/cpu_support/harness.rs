//! Shared harness for the CPU integration tests: a table-driven single-step
//! case runner on a [`RamBus`] that checks registers, cycles, event, run state
//! and the whole 64 KiB of memory, and records which opcodes ran.

#![allow(dead_code)] // each test file uses a different part of the harness

use hc11lab::cpu::opcodes::{Mode, OpcodeInfo};
use hc11lab::cpu::{Bus, Cpu, Instruction, RamBus, Registers, RunState, StepEvent};
use std::collections::BTreeSet;

/// Where case code is placed.
pub const CODE: u16 = 0xC000;
/// The direct-page operand address.
pub const DIR: u8 = 0x50;
/// The extended operand address.
pub const EXT: u16 = 0x1234;
/// X in every case unless changed; indexed-X operands sit at X + `IX_OFF`.
pub const IX: u16 = 0x2000;
/// Offset byte used in indexed-X cases.
pub const IX_OFF: u8 = 0x10;
/// Y in every case unless changed; indexed-Y operands sit at Y + `IY_OFF`.
pub const IY: u16 = 0x3000;
/// Offset byte used in indexed-Y cases.
pub const IY_OFF: u8 = 0x20;
/// Stack pointer in every case unless changed.
pub const SP: u16 = 0x01FF;

/// CCR from a string of flag letters, e.g. `f("NZ")`.
pub fn f(s: &str) -> u8 {
    s.chars()
        .map(|c| match c {
            'S' => 0x80,
            'X' => 0x40,
            'H' => 0x20,
            'I' => 0x10,
            'N' => 0x08,
            'Z' => 0x04,
            'V' => 0x02,
            'C' => 0x01,
            _ => panic!("bad flag letter {c}"),
        })
        .fold(0, |a, b| a | b)
}

/// CCR as flag letters, for messages.
pub fn flag_str(ccr: u8) -> String {
    "SXHINZVC"
        .chars()
        .enumerate()
        .filter(|(i, _)| ccr & (0x80 >> i) != 0)
        .map(|(_, c)| c)
        .collect()
}

/// The opcodes the cases have run, as (prebyte, opcode).
#[derive(Default)]
pub struct Coverage(pub BTreeSet<(u8, u8)>);

type RegFn = Box<dyn Fn(&mut Registers)>;

/// One single-step case: code bytes at [`CODE`], initial registers and memory,
/// and what must be true after one `step`.
pub struct Case {
    name: String,
    bytes: Vec<u8>,
    init: Vec<RegFn>,
    expect: Vec<RegFn>,
    mem: Vec<(u16, Vec<u8>)>,
    writes: Vec<(u16, Vec<u8>)>,
    cycles: Option<u32>,
    event: StepEvent,
    state: RunState,
}

/// The initial registers every case starts from.
pub fn base_regs() -> Registers {
    Registers {
        a: 0,
        b: 0,
        x: IX,
        y: IY,
        sp: SP,
        pc: CODE,
        ccr: 0,
        ..Registers::default()
    }
}

impl Case {
    /// A case running `bytes` from [`CODE`].
    pub fn new(name: impl Into<String>, bytes: &[u8]) -> Case {
        Case {
            name: name.into(),
            bytes: bytes.to_vec(),
            init: Vec::new(),
            expect: Vec::new(),
            mem: Vec::new(),
            writes: Vec::new(),
            cycles: None,
            event: StepEvent::None,
            state: RunState::Running,
        }
    }

    /// Changes the initial registers (applies to the expected ones too).
    pub fn with(mut self, f: impl Fn(&mut Registers) + 'static) -> Case {
        self.init.push(Box::new(f));
        self
    }

    /// Changes the expected registers (start: initial ones, PC after the instruction).
    pub fn expect(mut self, f: impl Fn(&mut Registers) + 'static) -> Case {
        self.expect.push(Box::new(f));
        self
    }

    /// Initial CCR.
    pub fn ccr(self, flags: &str) -> Case {
        let c = f(flags);
        self.with(move |r| r.ccr = c)
    }

    /// Expected CCR.
    pub fn flags(self, flags: &str) -> Case {
        let c = f(flags);
        self.expect(move |r| r.ccr = c)
    }

    /// Expected PC.
    pub fn pc(self, pc: u16) -> Case {
        self.expect(move |r| r.pc = pc)
    }

    /// Initial memory contents.
    pub fn mem(mut self, addr: u16, bytes: &[u8]) -> Case {
        self.mem.push((addr, bytes.to_vec()));
        self
    }

    /// Expected memory changes.
    pub fn writes(mut self, addr: u16, bytes: &[u8]) -> Case {
        self.writes.push((addr, bytes.to_vec()));
        self
    }

    /// Expected E-cycles of the step.
    pub fn cycles(mut self, n: u32) -> Case {
        self.cycles = Some(n);
        self
    }

    /// Expected step event (default: an ordinary instruction).
    pub fn event(mut self, e: StepEvent) -> Case {
        self.event = e;
        self
    }

    /// Expected run state afterwards (default: running).
    pub fn state(mut self, s: RunState) -> Case {
        self.state = s;
        self
    }

    /// Runs the case, panicking with a description on any difference.
    pub fn run(self, cov: &mut Coverage) {
        let mut bus = RamBus::new();
        for (a, b) in &self.mem {
            bus.load(*a, b);
        }
        bus.load(CODE, &self.bytes);
        let mut expected_mem = bus.clone();
        for (a, b) in &self.writes {
            expected_mem.load(*a, b);
        }

        let mut regs = base_regs();
        for f in &self.init {
            f(&mut regs);
        }
        let mut cpu = Cpu::new();
        cpu.regs = regs;

        let decoded = Instruction::decode(CODE, |a| bus.peek(a));
        let text = match &decoded {
            Ok(i) => i.to_string(),
            Err(e) => e.to_string(),
        };
        let mut want = regs;
        want.pc = CODE.wrapping_add(self.bytes.len() as u16);
        for f in &self.expect {
            f(&mut want);
        }

        let step = cpu.step(&mut bus);
        let ctx = format!("case `{}` ({text}, bytes {:02X?})", self.name, self.bytes);
        assert_eq!(step.pc, CODE, "{ctx}: step.pc");
        assert_eq!(step.event, self.event, "{ctx}: event");
        if let Some(c) = self.cycles {
            assert_eq!(step.cycles, c, "{ctx}: cycles");
        }
        assert_eq!(cpu.cycles, step.cycles as u64, "{ctx}: Cpu::cycles");
        assert_eq!(
            cpu.regs.ccr,
            want.ccr,
            "{ctx}: CCR is {} want {}",
            flag_str(cpu.regs.ccr),
            flag_str(want.ccr)
        );
        assert_eq!(cpu.regs, want, "{ctx}: registers");
        assert_eq!(cpu.state, self.state, "{ctx}: run state");
        if bus.mem != expected_mem.mem {
            let diffs: Vec<String> = (0..=0xFFFFu16)
                .filter(|&a| bus.mem[a as usize] != expected_mem.mem[a as usize])
                .take(8)
                .map(|a| {
                    format!(
                        "${a:04X}: is {:02X} want {:02X}",
                        bus.mem[a as usize], expected_mem.mem[a as usize]
                    )
                })
                .collect();
            panic!("{ctx}: memory differs: {}", diffs.join(", "));
        }
        if let Ok(i) = decoded {
            cov.0.insert((i.info.prebyte, i.info.opcode));
        }
    }
}

/// Builds the bytes of `info` with its memory operand placed for `mode`:
/// immediate operands are `value` itself; direct, extended and indexed
/// operands point at [`DIR`], [`EXT`], X+[`IX_OFF`] or Y+[`IY_OFF`], which
/// hold `value`. Returns the case and the operand's address (None for
/// immediate).
pub fn mode_case(info: &OpcodeInfo, value: &[u8]) -> (Case, Option<u16>) {
    let mut bytes = info.opcode_bytes();
    let ea = match info.mode {
        Mode::Imm8 | Mode::Imm16 => {
            bytes.extend_from_slice(value);
            None
        }
        Mode::Direct => {
            bytes.push(DIR);
            Some(DIR as u16)
        }
        Mode::Extended => {
            bytes.extend_from_slice(&EXT.to_be_bytes());
            Some(EXT)
        }
        Mode::IndexedX => {
            bytes.push(IX_OFF);
            Some(IX + IX_OFF as u16)
        }
        Mode::IndexedY => {
            bytes.push(IY_OFF);
            Some(IY + IY_OFF as u16)
        }
        m => panic!("mode_case: {m:?} has no plain memory operand"),
    };
    let name = format!("{} {}", info.op, info.mode);
    let mut case = Case::new(name, &bytes);
    if let Some(a) = ea {
        case = case.mem(a, value);
    }
    (case, ea)
}

/// A machine with `code` at [`CODE`], registers as in every case, and the
/// given vectors, for multi-step tests.
pub fn machine(code: &[u8]) -> (Cpu, RamBus) {
    let mut bus = RamBus::new();
    bus.load(CODE, code);
    let mut cpu = Cpu::new();
    cpu.regs = base_regs();
    (cpu, bus)
}

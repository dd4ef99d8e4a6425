//! Reset, interrupts, WAI, STOP and the illegal opcode trap (M68HC11
//! Reference Manual, section 5 "Resets and Interrupts"), run on a RamBus.

#[path = "cpu_support/harness.rs"]
mod harness;

use harness::*;
use hc11lab::cpu::{flags, Bus, Cpu, RamBus, Registers, RunState, StepEvent};

const HANDLER: u16 = 0xD000;
const RTI: u8 = 0x3B;
const NOP: u8 = 0x01;

fn odd_regs() -> Registers {
    Registers {
        a: 0xA1,
        b: 0xB2,
        x: 0x1357,
        y: 0x2468,
        sp: SP,
        pc: CODE,
        ccr: f("HNVC"),
        ..Registers::default()
    }
}

#[test]
fn reset_fetches_the_vector_and_masks_everything() {
    let mut bus = RamBus::new();
    bus.set_word(0xFFFE, 0xC123);
    let mut cpu = Cpu::new();
    assert_eq!(cpu.regs.ccr, f("SXI"));
    cpu.regs.ccr = 0;
    cpu.regs.a = 0x42;
    cpu.state = RunState::Stopped;
    cpu.reset(&mut bus);
    assert_eq!(cpu.regs.pc, 0xC123);
    assert_eq!(cpu.regs.ccr, f("SXI"));
    assert_eq!(cpu.regs.a, 0x42, "reset leaves A alone");
    assert_eq!(cpu.state, RunState::Running);
}

#[test]
fn swi_rti_round_trip_restores_every_register() {
    let (mut cpu, mut bus) = machine(&[0x3F, NOP]);
    bus.set_word(0xFFF6, HANDLER);
    bus.load(HANDLER, &[RTI]);
    cpu.regs = odd_regs();
    let s = cpu.step(&mut bus);
    assert_eq!((s.event, s.cycles, s.pc), (StepEvent::Swi, 14, CODE));
    assert_eq!(cpu.regs.pc, HANDLER);
    assert_eq!(cpu.regs.sp, SP - 9);
    assert!(cpu.regs.flag(flags::I) && !cpu.regs.flag(flags::X));
    // The stack from SP+1 up: CCR, B, A, XH, XL, YH, YL, PCH, PCL.
    assert_eq!(
        &bus.mem[(SP - 8) as usize..=SP as usize],
        &[f("HNVC"), 0xB2, 0xA1, 0x13, 0x57, 0x24, 0x68, 0xC0, 0x01]
    );
    let s = cpu.step(&mut bus);
    assert_eq!((s.event, s.cycles, s.pc), (StepEvent::None, 12, HANDLER));
    let mut want = odd_regs();
    want.pc = CODE + 1;
    assert_eq!(cpu.regs, want);
    assert_eq!(cpu.cycles, 26);
}

#[test]
fn irq_is_masked_by_i_and_taken_when_clear() {
    let (mut cpu, mut bus) = machine(&[NOP, NOP, NOP]);
    bus.set_word(0xFFF2, HANDLER);
    bus.irq = true;
    cpu.regs.ccr = f("I");
    let s = cpu.step(&mut bus);
    assert_eq!(
        (s.event, cpu.regs.pc),
        (StepEvent::None, CODE + 1),
        "masked"
    );
    cpu.regs.ccr = f("X");
    let s = cpu.step(&mut bus);
    assert_eq!(s.event, StepEvent::Interrupt { vector: 0xFFF2 });
    assert_eq!((s.pc, s.cycles), (CODE + 1, 14));
    assert_eq!(cpu.regs.pc, HANDLER);
    assert_eq!(cpu.regs.ccr, f("XI"), "IRQ sets I only");
    assert_eq!(
        bus.mem[(SP - 8) as usize],
        f("X"),
        "stacked CCR before masking"
    );
    assert_eq!(&bus.mem[(SP - 1) as usize..=SP as usize], &[0xC0, 0x01]);
}

/// A bus whose maskable source is a device vector, as a board reports it.
struct DeviceBus {
    ram: RamBus,
    pending: Option<u16>,
}

impl Bus for DeviceBus {
    fn read(&mut self, addr: u16) -> u8 {
        self.ram.read(addr)
    }
    fn peek(&self, addr: u16) -> u8 {
        self.ram.peek(addr)
    }
    fn write(&mut self, addr: u16, value: u8) {
        self.ram.write(addr, value)
    }
    fn irq_vector(&self) -> Option<u16> {
        self.pending
    }
}

#[test]
fn device_interrupt_uses_the_vector_the_bus_names() {
    let (mut cpu, ram) = machine(&[NOP]);
    let mut bus = DeviceBus {
        ram,
        pending: Some(0xFFD6),
    };
    bus.ram.set_word(0xFFD6, 0xD6D6);
    cpu.regs.ccr = 0;
    let s = cpu.step(&mut bus);
    assert_eq!(s.event, StepEvent::Interrupt { vector: 0xFFD6 });
    assert_eq!(cpu.regs.pc, 0xD6D6);
}

#[test]
fn xirq_masked_by_x_only_and_sets_x_and_i() {
    let (mut cpu, mut bus) = machine(&[NOP, NOP]);
    bus.set_word(0xFFF4, HANDLER);
    bus.xirq = true;
    cpu.regs.ccr = f("X");
    let s = cpu.step(&mut bus);
    assert_eq!(s.event, StepEvent::None, "X set masks XIRQ");
    // I does not mask XIRQ.
    cpu.regs.ccr = f("I");
    let s = cpu.step(&mut bus);
    assert_eq!(s.event, StepEvent::Interrupt { vector: 0xFFF4 });
    assert_eq!(s.cycles, 14);
    assert_eq!(cpu.regs.pc, HANDLER);
    assert_eq!(cpu.regs.ccr, f("XI"));
    assert_eq!(
        bus.mem[(SP - 8) as usize],
        f("I"),
        "stacked CCR has X clear"
    );
    // Still asserted, but now masked: the handler runs.
    bus.load(HANDLER, &[NOP, RTI]);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::None);
    // RTI restores X clear, and the still-asserted XIRQ is taken again at once.
    assert_eq!(cpu.step(&mut bus).event, StepEvent::None);
    assert_eq!(cpu.regs.ccr, f("I"));
    assert_eq!(
        cpu.step(&mut bus).event,
        StepEvent::Interrupt { vector: 0xFFF4 }
    );
}

#[test]
fn xirq_has_priority_over_irq() {
    let (mut cpu, mut bus) = machine(&[NOP]);
    bus.set_word(0xFFF4, 0xD400);
    bus.set_word(0xFFF2, 0xD200);
    bus.xirq = true;
    bus.irq = true;
    cpu.regs.ccr = 0;
    assert_eq!(
        cpu.step(&mut bus).event,
        StepEvent::Interrupt { vector: 0xFFF4 }
    );
    assert_eq!(cpu.regs.pc, 0xD400);
}

#[test]
fn cli_and_tap_let_one_instruction_run_before_a_pending_irq() {
    for code in [[0x0E, NOP, NOP], [0x06, NOP, NOP]] {
        let (mut cpu, mut bus) = machine(&code);
        bus.set_word(0xFFF2, HANDLER);
        bus.irq = true;
        cpu.regs.ccr = f("I");
        cpu.regs.a = 0; // for TAP: CCR becomes 0
        assert_eq!(cpu.step(&mut bus).event, StepEvent::None);
        assert!(!cpu.regs.flag(flags::I));
        let s = cpu.step(&mut bus);
        assert_eq!(
            (s.event, s.pc),
            (StepEvent::None, CODE + 1),
            "{code:02X?}: next instruction runs"
        );
        let s = cpu.step(&mut bus);
        assert_eq!(
            s.event,
            StepEvent::Interrupt { vector: 0xFFF2 },
            "{code:02X?}"
        );
        assert_eq!(s.pc, CODE + 2);
    }
}

#[test]
fn wai_waits_then_vectors_without_stacking_again() {
    let (mut cpu, mut bus) = machine(&[0x3E, NOP]);
    bus.set_word(0xFFF2, HANDLER);
    bus.load(HANDLER, &[RTI]);
    cpu.regs = odd_regs();
    cpu.regs.ccr = 0;
    let s = cpu.step(&mut bus);
    assert_eq!((s.event, s.cycles), (StepEvent::None, 14));
    assert_eq!(cpu.state, RunState::Waiting);
    assert_eq!(cpu.regs.sp, SP - 9);
    for _ in 0..5 {
        let s = cpu.step(&mut bus);
        assert_eq!((s.event, s.cycles, s.pc), (StepEvent::Waiting, 4, CODE + 1));
    }
    assert_eq!(cpu.cycles, 14 + 5 * 4);
    bus.irq = true;
    let s = cpu.step(&mut bus);
    assert_eq!(
        (s.event, s.cycles),
        (StepEvent::Interrupt { vector: 0xFFF2 }, 2)
    );
    assert_eq!(cpu.state, RunState::Running);
    assert_eq!(cpu.regs.pc, HANDLER);
    assert_eq!(
        cpu.regs.sp,
        SP - 9,
        "registers were stacked by WAI, not again"
    );
    assert!(cpu.regs.flag(flags::I));
    bus.irq = false;
    cpu.step(&mut bus); // RTI
    let mut want = odd_regs();
    want.ccr = 0;
    want.pc = CODE + 1;
    assert_eq!(cpu.regs, want);
}

#[test]
fn wai_with_i_set_ignores_irq_but_not_xirq() {
    let (mut cpu, mut bus) = machine(&[0x3E]);
    bus.set_word(0xFFF4, HANDLER);
    cpu.regs.ccr = f("I");
    cpu.step(&mut bus);
    bus.irq = true;
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Waiting);
    bus.xirq = true;
    let s = cpu.step(&mut bus);
    assert_eq!(s.event, StepEvent::Interrupt { vector: 0xFFF4 });
    assert_eq!(cpu.regs.ccr, f("XI"));
    assert_eq!(cpu.regs.pc, HANDLER);
}

#[test]
fn wai_with_x_set_ignores_xirq() {
    let (mut cpu, mut bus) = machine(&[0x3E]);
    cpu.regs.ccr = f("XI");
    cpu.step(&mut bus);
    bus.xirq = true;
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Waiting);
    assert_eq!(cpu.state, RunState::Waiting);
}

#[test]
fn stop_halts_until_xirq_or_unmasked_irq() {
    // XIRQ with X set: STOP ends and the next instruction runs, no vector.
    let (mut cpu, mut bus) = machine(&[0xCF, 0x86, 0x42]);
    cpu.regs.ccr = f("XI");
    assert_eq!(cpu.step(&mut bus).cycles, 2);
    assert_eq!(cpu.state, RunState::Stopped);
    bus.irq = true; // masked by I: does not end STOP
    for _ in 0..3 {
        let s = cpu.step(&mut bus);
        assert_eq!((s.event, s.pc, s.cycles), (StepEvent::Stopped, CODE + 1, 4));
    }
    bus.xirq = true;
    let s = cpu.step(&mut bus);
    assert_eq!((s.event, s.pc), (StepEvent::None, CODE + 1));
    assert_eq!(cpu.regs.a, 0x42, "LDAA after STOP ran");
    assert_eq!(cpu.regs.sp, SP, "nothing stacked");

    // XIRQ with X clear: serviced.
    let (mut cpu, mut bus) = machine(&[0xCF, NOP]);
    bus.set_word(0xFFF4, HANDLER);
    cpu.regs.ccr = f("I");
    cpu.step(&mut bus);
    bus.xirq = true;
    let s = cpu.step(&mut bus);
    assert_eq!(
        (s.event, s.cycles),
        (StepEvent::Interrupt { vector: 0xFFF4 }, 14)
    );
    assert_eq!(cpu.regs.pc, HANDLER);
    assert_eq!(&bus.mem[(SP - 1) as usize..=SP as usize], &[0xC0, 0x01]);

    // Unmasked IRQ: serviced.
    let (mut cpu, mut bus) = machine(&[0xCF, NOP]);
    bus.set_word(0xFFF2, HANDLER);
    cpu.step(&mut bus);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Stopped);
    bus.irq = true;
    assert_eq!(
        cpu.step(&mut bus).event,
        StepEvent::Interrupt { vector: 0xFFF2 }
    );
    assert_eq!(cpu.state, RunState::Running);
}

#[test]
fn reset_ends_wai_and_stop() {
    for code in [[0x3Eu8], [0xCF]] {
        let (mut cpu, mut bus) = machine(&code);
        bus.set_word(0xFFFE, 0xC000);
        cpu.step(&mut bus);
        assert_ne!(cpu.state, RunState::Running);
        cpu.reset(&mut bus);
        assert_eq!(cpu.state, RunState::Running);
        assert_eq!(cpu.regs.pc, 0xC000);
    }
}

#[test]
fn illegal_opcode_stacks_its_own_address() {
    // Handler: RTI straight back re-runs the illegal opcode, so it traps again.
    let (mut cpu, mut bus) = machine(&[NOP, 0x41]);
    bus.set_word(0xFFF8, HANDLER);
    bus.load(HANDLER, &[RTI]);
    cpu.regs.ccr = 0;
    cpu.step(&mut bus);
    let s = cpu.step(&mut bus);
    assert!(
        matches!(s.event, StepEvent::Illegal(i) if i.addr == CODE + 1 && i.bytes == [0x41, 0] && i.len == 1)
    );
    assert_eq!(s.pc, CODE + 1);
    assert_eq!(&bus.mem[(SP - 1) as usize..=SP as usize], &[0xC0, 0x01]);
    assert_eq!(cpu.regs.ccr, f("I"));
    cpu.step(&mut bus); // RTI
    assert_eq!(cpu.regs.pc, CODE + 1);
    assert!(matches!(cpu.step(&mut bus).event, StepEvent::Illegal(_)));
    // A prebyte pair stacks the prebyte's address.
    let (mut cpu, mut bus) = machine(&[0x1A, 0x00]);
    bus.set_word(0xFFF8, HANDLER);
    let s = cpu.step(&mut bus);
    assert!(matches!(s.event, StepEvent::Illegal(i) if i.len == 2 && i.bytes == [0x1A, 0x00]));
    assert_eq!(&bus.mem[(SP - 1) as usize..=SP as usize], &[0xC0, 0x00]);
}

#[test]
fn test_opcode_traps_like_an_illegal_opcode() {
    let (mut cpu, mut bus) = machine(&[0x00]);
    bus.set_word(0xFFF8, HANDLER);
    let s = cpu.step(&mut bus);
    assert!(matches!(s.event, StepEvent::Illegal(i) if i.bytes[0] == 0 && i.len == 1));
    assert_eq!(cpu.regs.pc, HANDLER);
    assert_eq!(&bus.mem[(SP - 1) as usize..=SP as usize], &[0xC0, 0x00]);
}

/// Records every bus access, to check that instructions read and write each
/// location once, in the chip's order (reads may have side effects).
#[derive(Default)]
struct Recorder {
    ram: RamBus,
    log: Vec<(char, u16, u8)>,
}

impl Bus for Recorder {
    fn read(&mut self, addr: u16) -> u8 {
        let v = self.ram.read(addr);
        self.log.push(('r', addr, v));
        v
    }
    fn peek(&self, addr: u16) -> u8 {
        self.ram.peek(addr)
    }
    fn write(&mut self, addr: u16, value: u8) {
        self.log.push(('w', addr, value));
        self.ram.write(addr, value)
    }
}

fn accesses(code: &[u8], setup: impl Fn(&mut Cpu, &mut RamBus)) -> Vec<(char, u16)> {
    let (mut cpu, ram) = machine(code);
    let mut bus = Recorder {
        ram,
        log: Vec::new(),
    };
    setup(&mut cpu, &mut bus.ram);
    cpu.step(&mut bus);
    bus.log
        .iter()
        .map(|&(k, a, _)| (k, a))
        .filter(|&(_, a)| !(CODE..CODE + 8).contains(&a))
        .collect()
}

#[test]
fn data_accesses_happen_once_in_order() {
    let nothing = |_: &mut Cpu, _: &mut RamBus| {};
    assert_eq!(accesses(&[0xB6, 0x10, 0x00], nothing), [('r', 0x1000)]);
    assert_eq!(
        accesses(&[0x7C, 0x10, 0x00], nothing),
        [('r', 0x1000), ('w', 0x1000)]
    );
    assert_eq!(
        accesses(&[0x7F, 0x10, 0x00], nothing),
        [('r', 0x1000), ('w', 0x1000)]
    );
    assert_eq!(accesses(&[0x7D, 0x10, 0x00], nothing), [('r', 0x1000)]);
    assert_eq!(
        accesses(&[0xFC, 0x10, 0x00], nothing),
        [('r', 0x1000), ('r', 0x1001)]
    );
    assert_eq!(
        accesses(&[0xFD, 0x10, 0x00], nothing),
        [('w', 0x1000), ('w', 0x1001)]
    );
    assert_eq!(
        accesses(&[0x14, 0x40, 0x01], nothing),
        [('r', 0x0040), ('w', 0x0040)]
    );
    assert_eq!(
        accesses(&[0x12, 0x40, 0x01, 0x00], nothing),
        [('r', 0x0040)]
    );
    assert_eq!(
        accesses(&[0x3C], nothing),
        [('w', SP), ('w', SP - 1)],
        "PSHX: low byte first"
    );
    assert_eq!(
        accesses(&[0xBD, 0x10, 0x00], nothing),
        [('w', SP), ('w', SP - 1)],
        "JSR pushes the return address low byte first"
    );
}

#[test]
fn cycles_accumulate_over_steps() {
    // LDAA #1 (2), LDX $40 (4), INX (3), BRA * (3)
    let (mut cpu, mut bus) = machine(&[0x86, 0x01, 0xDE, 0x40, 0x08, 0x20, 0xFE]);
    let total: u64 = (0..5).map(|_| cpu.step(&mut bus).cycles as u64).sum();
    assert_eq!(total, 2 + 4 + 3 + 3 + 3);
    assert_eq!(cpu.cycles, total);
    assert_eq!(cpu.regs.pc, CODE + 5);
}

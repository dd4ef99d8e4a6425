//! The MC68HC11 CPU: fetch, decode through the one opcode table, execute, and
//! the interrupt machinery (M68HC11 Reference Manual, section 5 "Resets and
//! Interrupts", section 6 and appendix A "Instruction Set Details").
//!
//! Where the manual leaves room for a choice, this model does the following:
//! * Timing: an instruction costs the E-cycles the opcode table gives (a
//!   branch costs the same taken or not). Entering an interrupt from normal
//!   execution (IRQ, XIRQ, device sources) costs [`INTERRUPT_CYCLES`] = 14,
//!   the SWI sequence: both stack the same 9 bytes and fetch a vector.
//! * WAI costs its table count (14) and stacks everything at once; each later
//!   `step` while waiting costs [`WAIT_SLICE`] = 4 cycles and reports
//!   `Waiting`; leaving the wait for an interrupt costs [`WAKE_CYCLES`] = 2
//!   (the vector fetch). STOP reports `Stopped` slices of the same size.
//! * STOP with S set is a NOP. Otherwise it ends on XIRQ (serviced if X is
//!   clear; with X set execution resumes after the STOP without vectoring) or
//!   on an unmasked IRQ (serviced); an IRQ while I is set does not end STOP.
//! * Illegal opcodes, and TEST ($00) outside test mode, trap through $FFF8
//!   with the address of the illegal opcode's first byte (the prebyte, if
//!   any) as the stacked PC; [`ILLEGAL_CYCLES`] = 14, 15 with a prebyte.
//!   That is the chip. A debugger wants to stop *before* the trap, as gdb
//!   shows SIGILL: with [`Cpu::trap_illegal`] off the step reports
//!   [`StepEvent::IllegalRefused`], takes no cycles and changes nothing (PC
//!   stays on the opcode), and the next step at the same address takes the
//!   trap as the chip would ("continue from the stop").
//! * CLI and TAP clearing I let one more instruction run before a pending
//!   IRQ is taken, as the manual describes for both; RTI has no such delay.
//! * DAA clears V (the manual leaves it undefined). IDIV and FDIV by zero
//!   give X = $FFFF and leave D (the remainder) unchanged; an FDIV overflow
//!   (X <= D) gives the low 16 bits of the chip's shift-and-subtract
//!   division. The reasons sit beside the code in `alu.rs`.
//! * The chip's dummy bus cycles (irrelevant reads of the next byte or of
//!   $FFFF) are not issued: each operand is read once, read-modify-write
//!   instructions (CLR too) read then write their location once.
//! * All bytes of an instruction (prebyte, opcode, operands) are fetched
//!   before its data accesses, so BRSET/BRCLR read their displacement
//!   before the data byte. The chip's bus cycle order within an
//!   instruction is not modelled; it could only matter to code running in
//!   the register block, where a read has effects. From plain memory ([`Bus::code`]) the bytes come in
//!   one load, which is what makes the fetch cheap.

mod dispatch;
mod execute;

use super::bus::Bus;
use super::decode::IllegalOpcode;
use super::opcodes::OPCODES;
use super::registers::{flags, Registers};

/// Reset vector (RM section 5, interrupt vector assignments).
pub const RESET_VECTOR: u16 = 0xFFFE;
/// Illegal opcode trap vector.
pub const ILLEGAL_VECTOR: u16 = 0xFFF8;
/// Software interrupt vector.
pub const SWI_VECTOR: u16 = 0xFFF6;
/// XIRQ pin vector.
pub const XIRQ_VECTOR: u16 = 0xFFF4;

/// The interrupt vector at `addr`, if it is the first byte of one: the
/// MC68HC11's table from $FFD6 (SCI) to $FFFE (reset), RM section 5.
pub fn vector_name(addr: u16) -> Option<&'static str> {
    const NAMES: [&str; 21] = [
        "SCI",
        "SPI",
        "pulse accumulator input edge",
        "pulse accumulator overflow",
        "timer overflow",
        "TIC4/TOC5",
        "TOC4",
        "TOC3",
        "TOC2",
        "TOC1",
        "TIC3",
        "TIC2",
        "TIC1",
        "real-time interrupt",
        "IRQ",
        "XIRQ",
        "SWI",
        "illegal opcode",
        "COP failure",
        "clock monitor",
        "reset",
    ];
    let off = addr.checked_sub(0xFFD6)?;
    (off % 2 == 0).then(|| NAMES.get(usize::from(off / 2)).copied())?
}

/// E-cycles to enter an interrupt from normal execution (stack 9 bytes, set
/// the masks, fetch the vector): the SWI sequence of the manual.
pub const INTERRUPT_CYCLES: u32 = 14;
/// E-cycles of an illegal opcode trap on a one-byte opcode (the SWI sequence);
/// one more when a prebyte was fetched before the unused opcode.
pub const ILLEGAL_CYCLES: u32 = 14;
/// E-cycles one `step` accounts while the CPU waits in WAI or sits in STOP:
/// small enough that a board sees an interrupt source within a few cycles.
pub const WAIT_SLICE: u32 = 4;
/// E-cycles to leave WAI for an interrupt: registers are already stacked,
/// only the vector is fetched.
pub const WAKE_CYCLES: u32 = 2;

/// What the CPU is doing between instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunState {
    /// Executing instructions.
    Running,
    /// After WAI: registers are stacked, waiting for an unmasked interrupt.
    Waiting,
    /// After STOP (with S clear): clocks halted until XIRQ, an unmasked IRQ or reset.
    Stopped,
}

/// The MC68HC11 core: registers, elapsed E-cycles and run state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cpu {
    /// The programmer's model.
    pub regs: Registers,
    /// E-cycles since construction.
    pub cycles: u64,
    /// Running, waiting (WAI) or stopped (STOP).
    pub state: RunState,
    /// Set by CLI or TAP when they clear I: the manual delays the clearing so
    /// the next instruction always runs before a pending IRQ is taken.
    irq_delay: bool,
    /// True (the chip, the default): an illegal opcode traps through $FFF8.
    /// False: the step stops before it (see the module doc).
    pub trap_illegal: bool,
    /// The address of the last illegal opcode refused: a step there takes
    /// the trap (continuing from the stop), once.
    resume_trap_at: Option<u16>,
    /// The calls and returns run (see [`FlowNote`]).
    pub(crate) flow: FlowNote,
}

/// A note the JSR, BSR, RTS and RTI arms leave: the opcode bytes of the
/// call or return (the first byte high, the byte after a $18 prebyte low,
/// else 0), never 0. The debugger's fast path clears it before a step and
/// finds a call or return by a note there after it, instead of reading
/// and classifying the opcode before every step (one store in those arms
/// rather than a count and the code: the core benchmark's calls pay for
/// it). Not part of the CPU's state: every note equals every other, so
/// runs that skip iterations of a loop with calls in it (the
/// fast-forward) compare equal to runs that step through them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FlowNote {
    /// The last call's or return's opcode bytes, or 0 if cleared since.
    pub(crate) code: u16,
    /// Set by a branch or jump (BRA, Bcc, BRSET, BRCLR, JMP) that went to
    /// its own address or below, cleared by the next one that did not:
    /// a loop may close there. Calls, returns, traps and interrupts leave
    /// it alone. `Machine::run_until` clears it when it looks and looks for
    /// polling loops and halts only after a step that set it.
    pub(crate) back: bool,
}

impl Cpu {
    /// True if the last branch or jump went back to its own address or
    /// below and nothing has cleared the note since (see `FlowNote`).
    pub fn went_back(&self) -> bool {
        self.flow.back
    }
}

impl FlowNote {
    /// Notes a call or return with its opcode bytes.
    #[inline(always)]
    fn note(&mut self, code: u16) {
        self.code = code;
    }
}

impl PartialEq for FlowNote {
    fn eq(&self, _: &FlowNote) -> bool {
        true
    }
}

impl Eq for FlowNote {}

/// What a [`Step`] did besides (or instead of) an ordinary instruction.
/// A step with any event but `None` asks its bus for attention
/// ([`Bus::attention`]), so a run that looks at steps only when time
/// reaches a device event still sees every one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepEvent {
    /// An ordinary instruction ran.
    None,
    /// An illegal opcode was met and trapped through $FFF8; also TEST ($00)
    /// outside test mode.
    Illegal(IllegalOpcode),
    /// An illegal opcode was met with [`Cpu::trap_illegal`] off: nothing
    /// ran, no cycles passed, PC is on the opcode. Stepping again takes the trap.
    IllegalRefused(IllegalOpcode),
    /// An interrupt (IRQ, XIRQ, device source) was taken instead of an
    /// instruction; `vector` is the vector's address (e.g. $FFF2).
    Interrupt {
        /// Address of the vector the new PC was read from.
        vector: u16,
    },
    /// SWI executed: registers stacked, vectored through $FFF6.
    Swi,
    /// In WAI with no interrupt yet: cycles passed, nothing executed.
    Waiting,
    /// In STOP: nothing runs until XIRQ, an unmasked IRQ or reset.
    Stopped,
}

/// The outcome of one [`Cpu::step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Address of the instruction (or of the trap, or where the CPU waited).
    pub pc: u16,
    /// E-cycles this step took.
    pub cycles: u32,
    /// What happened.
    pub event: StepEvent,
}

impl Default for Cpu {
    fn default() -> Self {
        Self::new()
    }
}

impl Cpu {
    /// Power-on state: S, X and I set, other registers 0, PC 0, running.
    /// Call [`Cpu::reset`] to fetch the reset vector.
    pub fn new() -> Cpu {
        Cpu {
            regs: Registers {
                ccr: flags::S | flags::X | flags::I,
                ..Registers::default()
            },
            cycles: 0,
            state: RunState::Running,
            irq_delay: false,
            trap_illegal: true,
            resume_trap_at: None,
            flow: FlowNote::default(),
        }
    }

    /// The reset sequence: S, X and I set (the manual leaves H N Z V C
    /// indeterminate; this model clears them), PC read from $FFFE, state
    /// running. A, B, X, Y and SP keep their values, as on the chip.
    pub fn reset<B: Bus>(&mut self, bus: &mut B) {
        self.regs.ccr = flags::S | flags::X | flags::I;
        self.regs.pc = read16(bus, RESET_VECTOR);
        self.state = RunState::Running;
        self.irq_delay = false;
        self.resume_trap_at = None;
    }

    /// Runs one instruction, or enters one interrupt, or waits one slice in
    /// WAI/STOP. Interrupts are checked before each fetch.
    #[inline]
    pub fn step<B: Bus>(&mut self, bus: &mut B) -> Step {
        self.step_inline(bus)
    }

    /// [`Cpu::step`] inlined into its caller: for the one hot loop that runs
    /// most instructions (`Machine::run_until`), where keeping the CPU's
    /// state in host registers across instructions pays; everything else
    /// calls `step`.
    #[inline(always)]
    pub fn step_inline<B: Bus>(&mut self, bus: &mut B) -> Step {
        self.step_inline_hinted(bus, false)
    }

    /// [`Cpu::step_inline`] for a caller that knows, if `running_masked`,
    /// that the CPU is running with X and I set: then neither the run state
    /// nor a pending interrupt is tested. The caller must learn of every
    /// step that changes either, through [`Bus::attention`] (the machine's
    /// hot loop, `Machine::run_until`).
    #[inline(always)]
    pub fn step_inline_hinted<B: Bus>(&mut self, bus: &mut B, running_masked: bool) -> Step {
        // Not `step_running` in the unmasked arm: that would inline a
        // second copy of the whole dispatch; both ways share this one.
        let step = 'step: {
            if !running_masked {
                match self.state {
                    RunState::Running => {}
                    RunState::Waiting => break 'step self.step_waiting(bus),
                    RunState::Stopped => break 'step self.step_stopped(bus),
                }
                if let Some(step) = self.take_interrupt(bus) {
                    break 'step step;
                }
            }
            self.fetch_and_run(bus)
        };
        self.cycles += step.cycles as u64;
        step
    }

    #[inline(always)]
    fn step_running<B: Bus>(&mut self, bus: &mut B) -> Step {
        match self.take_interrupt(bus) {
            Some(step) => step,
            None => self.fetch_and_run(bus),
        }
    }

    /// Enters the interrupt the CPU takes at this instruction boundary, if
    /// any.
    #[inline(always)]
    fn take_interrupt<B: Bus>(&mut self, bus: &mut B) -> Option<Step> {
        // With X and I both set (reset, and most polling programs) no
        // interrupt can be taken: one test. The CLI/TAP delay is set only
        // by clearing I, so it is always taken at the next boundary here.
        if self.regs.ccr & (flags::X | flags::I) != flags::X | flags::I {
            // The CLI/TAP delay covers exactly one instruction boundary.
            let delayed = std::mem::take(&mut self.irq_delay);
            // XIRQ has priority over every I-maskable source (RM section 5, "Interrupts").
            if self.regs.ccr & flags::X == 0 && bus.xirq() {
                return Some(self.enter_interrupt(bus, XIRQ_VECTOR, INTERRUPT_CYCLES, true));
            }
            if self.regs.ccr & flags::I == 0 && !delayed {
                if let Some(vector) = bus.irq_vector() {
                    return Some(self.enter_interrupt(bus, vector, INTERRUPT_CYCLES, false));
                }
            }
        }
        None
    }

    /// Fetches the instruction at PC and runs it.
    #[inline(always)]
    fn fetch_and_run<B: Bus>(&mut self, bus: &mut B) -> Step {
        let pc = self.regs.pc;
        let code = bus.fetch(pc);
        self.dispatch_first(bus, (code >> 56) as u8, pc, code)
    }

    /// An instruction behind the rarer prebytes ($1A, $CD), or an illegal
    /// opcode (behind $18 too): looked up in the table. Out of line, so the
    /// hot loop holds only the jumps on page 1's and page 2's bytes.
    #[inline(never)]
    pub(super) fn step_prebyte<B: Bus>(
        &mut self,
        bus: &mut B,
        first: u8,
        pc: u16,
        code: u64,
    ) -> Step {
        let mut index = dispatch::INDEX[0][first as usize];
        let mut bytes = [first, 0];
        let mut len = 1u8;
        if index != dispatch::NONE {
            // A prebyte: its page's opcode follows.
            let page = (index - dispatch::PREBYTE) as usize;
            bytes[1] = (code >> 48) as u8;
            index = dispatch::INDEX[page][bytes[1] as usize];
            len = 2;
        }
        if index == dispatch::NONE {
            return self.illegal(
                bus,
                IllegalOpcode {
                    addr: pc,
                    bytes,
                    len,
                },
            );
        }
        self.dispatch(bus, index, pc, code)
    }

    // Cold (as `step_stopped` and `fetch_code`): the hot loops inline the
    // step, and code placed between its fetch and its dispatch spreads
    // that path over more cache lines.
    #[cold]
    fn step_waiting<B: Bus>(&mut self, bus: &mut B) -> Step {
        let pc = self.regs.pc;
        let vector = if self.regs.ccr & flags::X == 0 && bus.xirq() {
            Some((XIRQ_VECTOR, true))
        } else if self.regs.ccr & flags::I == 0 {
            bus.irq_vector().map(|v| (v, false))
        } else {
            None
        };
        match vector {
            Some((vector, xirq)) => {
                self.state = RunState::Running;
                self.irq_delay = false;
                self.set_masks(xirq);
                self.regs.pc = read16(bus, vector);
                bus.attention();
                Step {
                    pc,
                    cycles: WAKE_CYCLES,
                    event: StepEvent::Interrupt { vector },
                }
            }
            None => {
                bus.attention();
                Step {
                    pc,
                    cycles: WAIT_SLICE,
                    event: StepEvent::Waiting,
                }
            }
        }
    }

    /// STOP is left by XIRQ (serviced if X is clear; with X set the CPU just
    /// goes on after the STOP; RM appendix A, STOP) or by an unmasked IRQ. An IRQ
    /// while I is set does not end STOP (the manual lists "RESET, XIRQ, or an
    /// unmasked IRQ" as the ways out). The chip's clocks are halted while
    /// stopped; the slice this reports only lets a board advance the outside
    /// world (a key, the XIRQ pin) so something can end the STOP. The
    /// oscillator start-up delay (OPTION.DLY) is the board's business.
    #[cold]
    fn step_stopped<B: Bus>(&mut self, bus: &mut B) -> Step {
        let wake = bus.xirq() || (self.regs.ccr & flags::I == 0 && bus.irq_vector().is_some());
        if wake {
            self.state = RunState::Running;
            self.irq_delay = false;
            self.step_running(bus)
        } else {
            bus.attention();
            Step {
                pc: self.regs.pc,
                cycles: WAIT_SLICE,
                event: StepEvent::Stopped,
            }
        }
    }

    /// Sets I, and X too for XIRQ (RM section 5: XIRQ entry sets both; every other
    /// interrupt sets I only).
    #[inline]
    fn set_masks(&mut self, xirq: bool) {
        self.regs.ccr |= flags::I;
        if xirq {
            self.regs.ccr |= flags::X;
        }
    }

    /// Stacks PC, Y, X, A, B, CCR the way every interrupt does (RM section 5,
    /// interrupt stacking order): PCL at SP, then PCH, IYL, IYH, IXL,
    /// IXH, A, B, CCR, so after stacking CCR is at SP+1 and PCL at SP+9.
    fn stack_registers<B: Bus>(&mut self, bus: &mut B) {
        let r = self.regs;
        self.push16(bus, r.pc);
        self.push16(bus, r.y);
        self.push16(bus, r.x);
        self.push8(bus, r.a);
        self.push8(bus, r.b);
        self.push8(bus, r.ccr);
    }

    fn enter_interrupt<B: Bus>(
        &mut self,
        bus: &mut B,
        vector: u16,
        cycles: u32,
        xirq: bool,
    ) -> Step {
        let pc = self.regs.pc;
        self.stack_registers(bus);
        self.set_masks(xirq);
        self.regs.pc = read16(bus, vector);
        bus.attention();
        Step {
            pc,
            cycles,
            event: StepEvent::Interrupt { vector },
        }
    }

    /// An illegal opcode: the trap, or (with `trap_illegal` off) a step that
    /// stops before it and arms the trap for the next step at this address.
    #[cold]
    fn illegal<B: Bus>(&mut self, bus: &mut B, illegal: IllegalOpcode) -> Step {
        if self.trap_illegal || self.resume_trap_at == Some(illegal.addr) {
            self.resume_trap_at = None;
            return self.illegal_trap(bus, illegal);
        }
        self.regs.pc = illegal.addr;
        self.resume_trap_at = Some(illegal.addr);
        bus.attention();
        Step {
            pc: illegal.addr,
            cycles: 0,
            event: StepEvent::IllegalRefused(illegal),
        }
    }

    /// The illegal opcode trap (RM section 5, "Illegal Opcode Trap"): the stacked
    /// return address is the address of the first byte of the illegal opcode
    /// (the prebyte, if any), so a handler can look at it; I is set and the
    /// PC comes from $FFF8. Returning with RTI runs the bad opcode again.
    fn illegal_trap<B: Bus>(&mut self, bus: &mut B, illegal: IllegalOpcode) -> Step {
        self.regs.pc = illegal.addr;
        self.stack_registers(bus);
        self.set_masks(false);
        self.regs.pc = read16(bus, ILLEGAL_VECTOR);
        bus.attention();
        Step {
            pc: illegal.addr,
            cycles: ILLEGAL_CYCLES + illegal.len as u32 - 1,
            event: StepEvent::Illegal(illegal),
        }
    }

    #[inline(always)]
    fn push8<B: Bus>(&mut self, bus: &mut B, v: u8) {
        bus.write(self.regs.sp, v);
        self.regs.sp = self.regs.sp.wrapping_sub(1);
    }

    /// Pushes a word low byte first, so the high byte ends at the lower address.
    #[inline(always)]
    fn push16<B: Bus>(&mut self, bus: &mut B, v: u16) {
        let [hi, lo] = v.to_be_bytes();
        self.push8(bus, lo);
        self.push8(bus, hi);
    }

    #[inline(always)]
    fn pull8<B: Bus>(&mut self, bus: &mut B) -> u8 {
        self.regs.sp = self.regs.sp.wrapping_add(1);
        bus.read(self.regs.sp)
    }

    #[inline(always)]
    fn pull16<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let hi = self.pull8(bus);
        let lo = self.pull8(bus);
        u16::from_be_bytes([hi, lo])
    }
}

/// The instruction at `pc` read byte by byte through the bus, for a bus
/// that has no [`Bus::code`] there (devices, a page boundary, a bus that
/// logs every read): the opcode (after a prebyte), then exactly the operand
/// bytes its table entry has, in the form `Bus::code` gives. An illegal
/// opcode's bytes stop after the opcode, as the chip's fetch does.
#[cold]
pub(crate) fn fetch_code<B: Bus>(bus: &mut B, pc: u16) -> u64 {
    let first = bus.read(pc);
    let mut code = u64::from(first) << 56;
    // A prebyte's page is known only from the byte after it.
    let prebyte = dispatch::INDEX[0][first as usize];
    let mut read = 1;
    if prebyte >= dispatch::PREBYTE && prebyte != dispatch::NONE {
        code |= u64::from(bus.read(pc.wrapping_add(1))) << 48;
        read = 2;
    }
    for i in read..fetched_len(code) {
        code |= u64::from(bus.read(pc.wrapping_add(i))) << (56 - 8 * i);
    }
    code
}

/// How many of the bytes in `code` (an instruction's bytes in the form
/// [`Bus::code`] gives) the chip fetches: the opcode (after a prebyte)
/// and its operands, or the bytes up to an illegal opcode. [`fetch_code`]
/// reads exactly these; a bus that notes every read but has the bytes in
/// one load notes them.
pub(crate) fn fetched_len(code: u64) -> u16 {
    let first = (code >> 56) as u8;
    let mut index = dispatch::INDEX[0][first as usize];
    let mut len = 1;
    if index >= dispatch::PREBYTE {
        if index == dispatch::NONE {
            return len;
        }
        let second = (code >> 48) as u8;
        len = 2;
        index = dispatch::INDEX[(index - dispatch::PREBYTE) as usize][second as usize];
        if index == dispatch::NONE {
            return len;
        }
    }
    len + u16::from(OPCODES[index as usize].mode.operand_len())
}

/// Reads a big-endian word (high byte at `addr`), wrapping at $FFFF.
#[inline(always)]
fn read16<B: Bus>(bus: &mut B, addr: u16) -> u16 {
    let hi = bus.read(addr);
    let lo = bus.read(addr.wrapping_add(1));
    u16::from_be_bytes([hi, lo])
}

/// Writes a big-endian word (high byte at `addr`), wrapping at $FFFF.
#[inline(always)]
fn write16<B: Bus>(bus: &mut B, addr: u16, v: u16) {
    let [hi, lo] = v.to_be_bytes();
    bus.write(addr, hi);
    bus.write(addr.wrapping_add(1), lo);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::bus::RamBus;

    /// A bus that counts its reads (all bytes $01 but the first two).
    struct Counting {
        bytes: [u8; 2],
        reads: u16,
    }

    impl Bus for Counting {
        fn read(&mut self, addr: u16) -> u8 {
            self.reads += 1;
            self.peek(addr)
        }
        fn peek(&self, addr: u16) -> u8 {
            self.bytes.get(addr as usize).copied().unwrap_or(0x01)
        }
        fn write(&mut self, _: u16, _: u8) {}
    }

    /// `fetch_code` reads exactly an instruction's bytes as the decoder
    /// counts them (`fetched_len` says how many), for every opcode, every
    /// prebyte's second byte and every illegal opcode.
    #[test]
    fn fetch_code_reads_the_bytes_the_decoder_counts() {
        use crate::cpu::decode::Instruction;
        for first in 0..=255u8 {
            for second in 0..=255u8 {
                let mut bus = Counting {
                    bytes: [first, second],
                    reads: 0,
                };
                let code = fetch_code(&mut bus, 0);
                let len = match Instruction::decode(0, |a| bus.peek(a)) {
                    Ok(i) => i.len(),
                    Err(e) => u16::from(e.len),
                };
                assert_eq!(bus.reads, len, "${first:02X} ${second:02X}");
                let full = u64::from_be_bytes([first, second, 1, 1, 1, 1, 1, 1]);
                assert_eq!(fetched_len(full), len, "${first:02X} ${second:02X}");
                let keep = !0u64 << (64 - 8 * u32::from(len));
                assert_eq!(full & keep, code, "${first:02X} ${second:02X}");
            }
        }
    }

    fn ram_with(code: &[u8]) -> RamBus {
        let mut bus = RamBus::new();
        bus.load(0xC000, code);
        bus.set_word(RESET_VECTOR, 0xC000);
        bus
    }

    #[test]
    fn power_on_and_reset() {
        let mut cpu = Cpu::new();
        assert_eq!(cpu.regs.ccr, flags::S | flags::X | flags::I);
        assert_eq!(
            (cpu.regs.pc, cpu.cycles, &cpu.state),
            (0, 0, &RunState::Running)
        );
        let mut bus = ram_with(&[]);
        cpu.reset(&mut bus);
        assert_eq!(cpu.regs.pc, 0xC000);
    }

    #[test]
    fn step_reports_pc_cycles_and_event() {
        let mut bus = ram_with(&[0x86, 0x41, 0x18, 0xCE, 0x12, 0x34]);
        let mut cpu = Cpu::new();
        cpu.reset(&mut bus);
        let s = cpu.step(&mut bus);
        assert_eq!((s.pc, s.cycles, s.event), (0xC000, 2, StepEvent::None));
        let s = cpu.step(&mut bus);
        assert_eq!((s.pc, s.cycles), (0xC002, 4));
        assert_eq!(
            (cpu.regs.a, cpu.regs.y, cpu.regs.pc),
            (0x41, 0x1234, 0xC006)
        );
        assert_eq!(cpu.cycles, 6);
    }

    #[test]
    fn cli_delay_is_cleared_by_any_boundary() {
        // CLI; then XIRQ is taken at once (not delayed), and the IRQ delay
        // does not leak into the handler.
        let mut bus = ram_with(&[0x0E, 0x01]);
        bus.set_word(XIRQ_VECTOR, 0xD000);
        bus.load(0xD000, &[0x0E, 0x01, 0x01]);
        let mut cpu = Cpu::new();
        cpu.reset(&mut bus);
        cpu.regs.ccr = flags::I;
        cpu.step(&mut bus);
        bus.xirq = true;
        assert_eq!(
            cpu.step(&mut bus).event,
            StepEvent::Interrupt {
                vector: XIRQ_VECTOR
            }
        );
        assert!(!cpu.irq_delay);
    }
}

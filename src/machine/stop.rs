//! The stop rules (docs/ARCHITECTURE.md, "Stop rules"): why a run ends
//! ([`StopReason`], [`StopConditions`], the breakpoint addresses of a run)
//! and when the CPU can never go on by itself ([`Halt`]: a loop nothing can
//! leave, WAI or STOP with no interrupt that could end it).

use super::Machine;
use crate::cpu::{Bus, IllegalOpcode, RunState, Step, StepEvent};

/// Instructions an idle loop's body may have at most (see `Machine::halt_check`).
pub(super) const IDLE_LOOP_MAX: usize = 16;

/// Why the CPU can never go on by itself (a [`StopReason::Halted`] stop).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// A branch or jump to itself (`bra *`, `jmp *`) with no interrupt that
    /// could leave it.
    SelfLoop {
        /// The address of the branch or jump.
        pc: u16,
        /// True if interrupts are masked (I set); false if none is enabled.
        masked: bool,
    },
    /// WAI with no interrupt that could wake it.
    Wai {
        /// True if interrupts are masked (I set); false if none is enabled.
        masked: bool,
    },
    /// STOP with S clear stopped the clocks, and neither XIRQ nor IRQ is asserted.
    Stop,
}

impl Halt {
    /// Why no interrupt can come, in words: I is set (`masked`) or no
    /// source is enabled.
    pub fn no_interrupt(masked: bool) -> &'static str {
        if masked {
            "interrupts masked: I set"
        } else {
            "no interrupt source enabled"
        }
    }
}

impl std::fmt::Display for Halt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = Halt::no_interrupt;
        match self {
            Halt::SelfLoop { masked, .. } => write!(
                f,
                "halted: an endless loop that nothing can leave ({})",
                why(*masked)
            ),
            Halt::Wai { masked } => write!(f, "halted: WAI with {}", why(*masked)),
            Halt::Stop => write!(
                f,
                "halted: STOP stopped the clock and no XIRQ or IRQ can wake it"
            ),
        }
    }
}

/// Why a run stopped (none of these is an error of the emulator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The cycle budget of the run is used up.
    CycleBudget,
    /// The next instruction is at a breakpoint address.
    Breakpoint(u16),
    /// The CPU met an illegal opcode. With stopping on illegal opcodes on
    /// (the default) nothing ran: PC is on the opcode, nothing is stacked;
    /// the next run or step takes the trap through $FFF8.
    IllegalOpcode(IllegalOpcode),
    /// The program wrote into program memory. The instruction was undone
    /// (registers and cycles as before it, PC on it); the next run or step
    /// executes it as the chip does (the byte is not stored).
    RomWrite {
        /// The address written.
        addr: u16,
        /// The value.
        value: u8,
        /// Address of the instruction that wrote.
        pc: u16,
    },
    /// The program wrote to an address with nothing behind it ($8004-$BFFF);
    /// undone like [`StopReason::RomWrite`].
    UnmappedWrite {
        /// The address written.
        addr: u16,
        /// The value.
        value: u8,
        /// Address of the instruction that wrote.
        pc: u16,
    },
    /// The key script and serial input are done and the program waits for
    /// input ([`Machine::waiting_on`] says which; see [`crate::script`]).
    Settled,
    /// The CPU can never go on (see [`Halt`]).
    Halted(Halt),
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::CycleBudget => write!(f, "cycle budget used up"),
            StopReason::Breakpoint(a) => write!(f, "breakpoint at ${a:04X}"),
            StopReason::IllegalOpcode(op) => write!(f, "{op}"),
            StopReason::RomWrite { addr, value, pc } => write!(
                f,
                "write of ${value:02X} to program memory ${addr:04X} by the instruction at ${pc:04X}"
            ),
            StopReason::UnmappedWrite { addr, value, pc } => write!(
                f,
                "write of ${value:02X} to unmapped ${addr:04X} by the instruction at ${pc:04X}"
            ),
            StopReason::Settled => f.write_str(crate::script::SETTLED_SENTENCE),
            StopReason::Halted(h) => write!(f, "{h}"),
        }
    }
}

impl StopReason {
    /// The stable snake_case name used by `run --json` (`"settled"`, `"breakpoint"`).
    pub fn name(&self) -> &'static str {
        match self {
            StopReason::CycleBudget => "cycle_budget",
            StopReason::Breakpoint(_) => "breakpoint",
            StopReason::IllegalOpcode(_) => "illegal_opcode",
            StopReason::RomWrite { .. } => "rom_write",
            StopReason::UnmappedWrite { .. } => "unmapped_write",
            StopReason::Settled => "settled",
            StopReason::Halted(_) => "halted",
        }
    }
}

/// A set of breakpoint addresses, one bit per address (a lookup per step is
/// one shift and one load).
#[derive(Clone, PartialEq, Eq)]
pub struct Breakpoints {
    bits: Box<[u64; 1024]>,
    count: usize,
}

impl Default for Breakpoints {
    fn default() -> Self {
        Breakpoints {
            bits: Box::new([0; 1024]),
            count: 0,
        }
    }
}

impl std::fmt::Debug for Breakpoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|a| format!("${a:04X}")))
            .finish()
    }
}

impl Breakpoints {
    /// No breakpoints.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `addr`; true if it was new.
    pub fn insert(&mut self, addr: u16) -> bool {
        let (w, b) = (addr as usize >> 6, addr & 63);
        let new = self.bits[w] & (1 << b) == 0;
        self.bits[w] |= 1 << b;
        self.count += new as usize;
        new
    }

    /// Removes `addr`; true if it was set.
    pub fn remove(&mut self, addr: u16) -> bool {
        let (w, b) = (addr as usize >> 6, addr & 63);
        let was = self.bits[w] & (1 << b) != 0;
        self.bits[w] &= !(1 << b);
        self.count -= was as usize;
        was
    }

    /// True if `addr` is a breakpoint.
    #[inline]
    pub fn contains(&self, addr: u16) -> bool {
        self.bits[addr as usize >> 6] & (1 << (addr & 63)) != 0
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The addresses, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        (0..=u16::MAX).filter(|&a| self.contains(a))
    }
}

impl FromIterator<u16> for Breakpoints {
    fn from_iter<T: IntoIterator<Item = u16>>(iter: T) -> Self {
        let mut b = Breakpoints::new();
        for a in iter {
            b.insert(a);
        }
        b
    }
}

/// When [`Machine::run_until`] stops besides a finished key script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StopConditions {
    /// E-cycles this run may take at most (counted from its start).
    pub max_cycles: u64,
    /// Stop before executing an instruction at one of these addresses (not
    /// at the very first instruction of the run, so a run can continue from
    /// a breakpoint).
    pub breakpoints: Breakpoints,
    /// Stop before an illegal opcode (false: the CPU takes the trap
    /// through $FFF8 and goes on, as `--trap-illegal` asks).
    pub on_illegal: bool,
    /// Stop before a write into program memory (false: the write is
    /// ignored, as on the chip, and the run goes on).
    pub on_rom_write: bool,
    /// Stop before a write to an unmapped address (false: ignored).
    pub on_unmapped_write: bool,
    /// Let the polling-loop fast-forward skip past `max_cycles` when SP
    /// stays inside this range (low, high) all through the skipped loop.
    /// The skip still ends before the next device event and the key
    /// script's next action (without a script or a running COP there is
    /// no skip past the budget); the run then stops at the first
    /// instruction boundary after it. For a caller that cuts a long run
    /// into slices only to look at SP in between (the grader's stack
    /// guard): a waiting program is skipped in one go instead of one slice
    /// at a time, and every look it misses would have seen SP in the range.
    /// Everything else is as without it.
    pub skip_past_budget: Option<(u16, u16)>,
}

impl StopConditions {
    /// Run for at most `max_cycles`, stopping on illegal opcodes, program
    /// memory writes and unmapped writes; no breakpoints.
    pub fn budget(max_cycles: u64) -> Self {
        StopConditions {
            max_cycles,
            breakpoints: Breakpoints::new(),
            on_illegal: true,
            on_rom_write: true,
            on_unmapped_write: true,
            skip_past_budget: None,
        }
    }

    /// How far a skip may go: `skip_limit` when SP stayed (`sp`: lowest,
    /// highest) all through the skipped loop in
    /// [`StopConditions::skip_past_budget`], else `limit`.
    #[inline(always)]
    pub(crate) fn skip_bound(&self, sp: (u16, u16), limit: u64, skip_limit: u64) -> u64 {
        let past = self
            .skip_past_budget
            .is_some_and(|(low, high)| low <= sp.0 && sp.1 <= high);
        if past {
            skip_limit
        } else {
            limit
        }
    }
}

impl Machine {
    /// Whether the CPU can never go on after `step` (see [`Halt`]): a
    /// branch or jump back into an idle loop, WAI or STOP, each with no
    /// interrupt that could end it. Cheap unless control went back.
    #[inline]
    pub(super) fn halt_after(&self, step: &Step) -> Option<Halt> {
        let back = self.cpu.regs.pc <= step.pc && step.event == StepEvent::None;
        if back || matches!(step.event, StepEvent::Waiting | StepEvent::Stopped) {
            self.halt_check(step.pc)
        } else {
            None
        }
    }

    /// The halt test after a step at `from` (the CPU's PC is where it went).
    #[inline]
    pub(super) fn halt_check(&self, from: u16) -> Option<Halt> {
        // Most back-jumps (RTS, a conditional branch up a loop) cannot close
        // an idle loop: only a jump to itself or an unconditional BRA/JMP can
        // (see `idle_loop`). Cheap, and first, because it runs on every one.
        if self.cpu.state == RunState::Running
            && from != self.cpu.regs.pc
            && !self.unconditional_jump_at(from)
        {
            return None;
        }
        self.halt_check_full(from)
    }

    /// The loop nothing can leave that the CPU is at the head of (PC), as a
    /// run halted in it finds it (`run_until`'s `Halt::SelfLoop`): the
    /// address of its jump back, at most 16 instructions on (`IDLE_LOOP_MAX`).
    /// For messages about a stopped machine, not on any hot path.
    pub fn endless_loop_back(&self) -> Option<u16> {
        let head = self.cpu.regs.pc;
        let mut at = head;
        for _ in 0..=IDLE_LOOP_MAX {
            let ins = crate::cpu::Instruction::decode(at, |a| self.board.peek(a)).ok()?;
            if ins.jump_target() == Some(head) {
                return self.halt_check(at).map(|_| at);
            }
            at = at.wrapping_add(ins.len());
        }
        None
    }

    /// True if the instruction at `addr` is a BRA or a JMP (extended, ,X or ,Y).
    fn unconditional_jump_at(&self, addr: u16) -> bool {
        match self.board.peek(addr) {
            0x20 | 0x7E | 0x6E => true,
            0x18 => self.board.peek(addr.wrapping_add(1)) == 0x6E,
            _ => false,
        }
    }

    /// [`Machine::halt_check`] past the quick test.
    #[cold]
    fn halt_check_full(&self, from: u16) -> Option<Halt> {
        // The loop's shape first: it depends on the code alone and rules
        // out most back-jumps (`bra mainLoop` over a `jsr`) at once.
        if self.cpu.state == RunState::Running && !self.idle_loop(from, self.cpu.regs.pc) {
            return None;
        }
        let masked = self.cpu.regs.ccr & crate::cpu::flags::I != 0;
        if self.may_be_interrupted() {
            return None;
        }
        // A byte still going out on the SCI or SPI is output the program
        // made: the run goes on (the loop is fast-forwarded) until it is out.
        // In STOP the chip's clocks, and so the shifters, stand still.
        if self.cpu.state != RunState::Stopped && self.board.last_activity() > self.board.now() {
            return None;
        }
        match self.cpu.state {
            RunState::Waiting => Some(Halt::Wai { masked }),
            RunState::Stopped => Some(Halt::Stop),
            // The shape was checked first.
            RunState::Running => Some(Halt::SelfLoop {
                pc: self.cpu.regs.pc,
                masked,
            }),
        }
    }

    /// True if something other than the program's own next instruction may
    /// still run: an interrupt (XIRQ unmasked and asserted or to be driven,
    /// an I-maskable source with I clear) or a reset by a running COP
    /// watchdog. Without any, a loop that changes nothing never ends.
    pub(crate) fn may_be_interrupted(&self) -> bool {
        let masked = self.cpu.regs.ccr & crate::cpu::flags::I != 0;
        // XIRQ wakes only if unmasked and asserted: nothing on the board
        // drives the pin during a run unless a user does, and then it is
        // asserted now. The IRQ pin counts among the I-maskable sources.
        // A pin the script is still to drive may assert XIRQ or IRQ.
        let later = self
            .script
            .as_ref()
            .is_some_and(|s| s.may_interrupt_later());
        let unmasked_x = self.cpu.regs.ccr & crate::cpu::flags::X == 0;
        let xirq = unmasked_x && (self.board.xirq() || self.board.xirq_scheduled() || later);
        let irq_possible = !masked && (self.board.can_interrupt() || later);
        // A running COP watchdog will reset the chip.
        xirq || irq_possible || self.board.cop_deadline() != u64::MAX
    }

    /// True if the instruction at `from`, which just sent control back to
    /// `to`, closes a loop nothing inside can leave: a branch or jump to
    /// itself (a conditional one too: nothing changes the flags, or the
    /// tested byte when it is RAM or program memory), or an unconditional
    /// BRA/JMP back over straight-line code that touches no memory and no
    /// device (`End: nop / bra End`, `inx / bra *-1`): at most
    /// [`IDLE_LOOP_MAX`] instructions of inherent mode, no stack, no flow.
    fn idle_loop(&self, from: u16, to: u16) -> bool {
        let peek = |a: u16| self.board.peek(a);
        if from == to {
            let op = peek(from);
            let second = peek(from.wrapping_add(1));
            return match op {
                0x20..=0x2F | 0x7E | 0x6E => true,
                0x18 => match second {
                    0x6E => true,
                    0x1E | 0x1F => {
                        let off = peek(from.wrapping_add(2));
                        self.board
                            .is_loadable(self.cpu.regs.y.wrapping_add(off as u16))
                    }
                    _ => false,
                },
                0x12 | 0x13 => self.board.is_loadable(second as u16),
                0x1E | 0x1F => self
                    .board
                    .is_loadable(self.cpu.regs.x.wrapping_add(second as u16)),
                _ => false,
            };
        }
        if !self.unconditional_jump_at(from) {
            return false;
        }
        let mut at = to;
        for _ in 0..IDLE_LOOP_MAX {
            if at == from {
                return true;
            }
            // Only the opcode matters: an inherent instruction has no operands.
            let Ok((info, len)) = crate::cpu::Instruction::opcode_at(at, peek) else {
                return false;
            };
            use crate::cpu::{Mode, Op};
            let pure = info.mode == Mode::Inherent
                && !matches!(
                    info.op,
                    Op::Psha
                        | Op::Pshb
                        | Op::Pshx
                        | Op::Pshy
                        | Op::Pula
                        | Op::Pulb
                        | Op::Pulx
                        | Op::Puly
                        | Op::Rts
                        | Op::Rti
                        | Op::Swi
                        | Op::Wai
                        | Op::Stop
                        | Op::Test
                        | Op::Cli
                        | Op::Tap
                );
            if !pure {
                return false;
            }
            at = at.wrapping_add(len);
        }
        false
    }
}

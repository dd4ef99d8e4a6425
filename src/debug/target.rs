//! What the debugger drives: a machine it can step (observed or not), peek,
//! clone for snapshots and reset. `Machine` (the trainer11 board) is the real
//! target; [`Bare`] is a core on a flat RAM (M68HC11 RM section 3 memory,
//! no devices) for tests and benchmarks.

use super::breakpoint::ReadKind;
use super::observe::{AccessObserver, NoObserver, ObservingBus};
use crate::board::watch_bits::WatchBits;
use crate::cpu::{Bus, Cpu, RamBus, Registers, Step};
use crate::image::Program;
use crate::machine::hooked::{AtBreakpoint, RepeatCache, StepBefore, StepHook};
use std::sync::Arc;

/// A write the board refused during a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A write into program memory (not stored).
    RomWrite {
        /// Address written.
        addr: u16,
        /// Value.
        value: u8,
    },
    /// A write where nothing is mapped.
    UnmappedWrite {
        /// Address written.
        addr: u16,
        /// Value.
        value: u8,
    },
}

/// What one target step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetStep {
    /// The CPU's report.
    pub step: Step,
    /// A refused write, if any (the step was undone: it stops the debugger
    /// before the instruction takes effect).
    pub fault: Option<Fault>,
    /// Set when the CPU can never go on after this step.
    pub halt: Option<crate::machine::Halt>,
}

/// The LCD data path as the provenance tracker mirrors it: when the SPI's
/// current (or last) transfer ends, data bytes the LCD took, and where the
/// next one will land.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LcdProbe {
    /// The E-cycle at which the SPI transfer in progress (or the last one)
    /// ends: it changes exactly when an SPDR write starts a transfer (a write
    /// lost to a collision or an uncleared SPIF leaves it as it is).
    pub transfer_end: u64,
    /// Display data bytes the LCD received since reset.
    pub data_count: u64,
    /// The display RAM page the next data byte goes to.
    pub page: u8,
    /// The column the next data byte goes to.
    pub column: u8,
}

/// Why [`Target::run_hooked`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastStop {
    /// The hook asked.
    Hook,
    /// The cycle budget is used up.
    Budget,
    /// The key script finished with the program waiting for this input.
    Settled(crate::board::InputKind),
    /// A step that stops any run (fault, illegal opcode, halt).
    Step(TargetStep),
}

/// A steppable, clonable machine.
pub trait Target: Clone {
    /// The CPU (registers, run state).
    fn cpu(&self) -> &Cpu;
    /// E-cycles since reset.
    fn cycles(&self) -> u64;
    /// Memory as a read would see it, without side effects.
    fn peek(&self, addr: u16) -> u8;
    /// One step (instruction, interrupt entry or wait slice) with every bus
    /// access reported to `obs`; devices advance with it.
    fn step_observed<O: AccessObserver>(&mut self, obs: &mut O) -> TargetStep;
    /// Performs the key script actions due now (call before each step, as
    /// `Machine::run_until` does between instructions); returns what the
    /// program waits on if the script just finished with it settled.
    fn script_poll(&mut self) -> Option<crate::board::InputKind> {
        None
    }
    /// One step without observation (the fast path).
    fn step(&mut self) -> TargetStep {
        self.step_observed(&mut NoObserver)
    }
    /// After a step from `from` that sent control back: skips whole
    /// iterations of the poll loop it closed, at most `max_steps` steps,
    /// where that is exact and the skipped ones repeat the one just run
    /// without changing anything (see `Machine::skip_poll_loop`). Returns
    /// the steps skipped (none by default).
    fn skip_poll_loop(&mut self, _from: u16, _max_steps: u64) -> u64 {
        0
    }
    /// True if the jump back from `from` may close a loop that
    /// [`Target::run_repeating_loop`] can follow (not a call or a return).
    /// False by default.
    fn closes_loop(&self, _from: u16) -> bool {
        false
    }
    /// At a loop head just jumped back to: runs the loop's iterations
    /// while they repeat exactly, at most `max_steps` steps (see
    /// `Machine::run_repeating_loop`, which leaves a machine half through
    /// an iteration when it gives `None`: call it on a copy). `None` by
    /// default.
    fn run_repeating_loop(&mut self, _max_steps: u64) -> Option<crate::machine::Repeating> {
        None
    }
    /// Runs with `hook` hearing every step until it stops the run, the
    /// budget of `max_cycles` is used, the key script settles or a step
    /// faults, meets an illegal opcode or halts; at an address in
    /// `breakpoints` the hook is asked first (not at the first step unless
    /// `check_first`). The machine overrides this with its fast path
    /// ([`crate::machine::hooked`]); this one steps one at a time.
    fn run_hooked<H: StepHook<Self>>(
        &mut self,
        max_cycles: u64,
        breakpoints: &crate::machine::Breakpoints,
        check_first: bool,
        hook: &mut H,
        _cache: &mut RepeatCache,
    ) -> FastStop {
        let start = self.cycles();
        let mut first = !check_first;
        loop {
            let pc = self.cpu().regs.pc;
            if !first && breakpoints.contains(pc) && hook.at_breakpoint(self) == AtBreakpoint::Stop
            {
                return FastStop::Hook;
            }
            first = false;
            if let Some(kind) = self.script_poll() {
                return FastStop::Settled(kind);
            }
            let now = self.cycles();
            if now.saturating_sub(start) >= max_cycles {
                return FastStop::Budget;
            }
            let before = StepBefore::of(self.cpu(), now, |a| self.peek(a));
            let ts = self.step();
            let hook_stop = hook.after_step(self, &before, &ts.step);
            if ts.fault.is_some()
                || ts.halt.is_some()
                || matches!(ts.step.event, crate::cpu::StepEvent::IllegalRefused(_))
            {
                return FastStop::Step(ts);
            }
            if hook_stop {
                return FastStop::Hook;
            }
        }
    }
    /// Back to the state after loading: memory reloaded, CPU reset.
    fn reset(&mut self);
    /// The loaded program (symbols, lines), if any.
    fn program(&self) -> Option<&Program>;
    /// For a stop at `pc` outside the program's bytes: where the program
    /// is and what went there (`machine::stray::outside_hint`; a machine
    /// also names a pending interrupt).
    fn stray_hint(&self, pc: u16) -> Option<String> {
        let sp = self.cpu().regs.sp;
        crate::machine::stray::outside_hint(self.program()?, sp, pc, &|a| self.peek(a), None)
    }
    /// True if [`Target::stray_hint`] names what went to `pc` (a call or
    /// an interrupt vector; `machine::stray::entry_named`).
    fn entry_named(&self, pc: u16) -> bool {
        let sp = self.cpu().regs.sp;
        crate::machine::stray::entry_named(sp, pc, &|a| self.peek(a), None)
    }
    /// For a store refused at `addr` (`rom`: into program memory): a stack
    /// pointer never set (a machine also names its RAM, and the board with
    /// RAM where a variable in program memory lies).
    fn write_fault_hint(&self, addr: u16, _rom: bool) -> Option<String> {
        crate::machine::stray::unset_stack_hint(self.cpu().regs.sp, addr, None)
    }
    /// Address ranges whose reads come from devices, not from the last write.
    fn device_ranges(&self) -> Vec<(u16, u16)> {
        Vec::new()
    }
    /// True if `addr` is in [`Target::device_ranges`] now.
    fn is_device(&self, addr: u16) -> bool {
        self.device_ranges()
            .iter()
            .any(|&(s, e)| (s..=e).contains(&addr))
    }
    /// True if the target can watch CPU accesses to the addresses of
    /// `bits` during [`Target::run_hooked`] ([`Target::set_watch`]).
    fn can_watch(&self, _bits: &WatchBits) -> bool {
        false
    }
    /// Watches CPU accesses during [`Target::run_hooked`], or stops
    /// (`None`): the bytes whose writes and whose reads are watched. A
    /// step that made one is told to the hook, which finds the accesses
    /// in [`Target::watched_accesses`].
    fn set_watch(&mut self, _bits: Option<&WatchBits>) {}
    /// The watched accesses of the step the hook is told about.
    fn watched_accesses(&self) -> &[crate::board::WatchedAccess] {
        &[]
    }
    /// A copy for a snapshot (without a watch installed).
    fn clone_unwatched(&self) -> Self {
        self.clone()
    }
    /// What a breakpoint condition's read of `addr` depends on (every
    /// device register [`ReadKind::Timed`] unless the target knows better).
    fn read_kind(&self, addr: u16) -> ReadKind {
        if self.is_device(addr) {
            ReadKind::Timed
        } else {
            ReadKind::Memory
        }
    }
    /// The SPI data register's address, if the target has an LCD on SPI.
    fn spdr(&self) -> Option<u16> {
        None
    }
    /// The LCD data path counters, if the target has one.
    fn lcd_probe(&self) -> Option<LcdProbe> {
        None
    }
    /// Display RAM (page, column, bit) behind picture pixel (x, y).
    fn pixel_location(&self, _x: usize, _y: usize) -> Option<(usize, usize, u8)> {
        None
    }
    /// Whether picture pixel (x, y) is dark.
    fn pixel(&self, _x: usize, _y: usize) -> bool {
        false
    }
    /// Display RAM byte.
    fn lcd_ram(&self, _page: usize, _column: usize) -> u8 {
        0
    }
    /// Approximate heap bytes of a clone (for the snapshot budget).
    fn heap_bytes(&self) -> usize;
}

/// A CPU on 64 KiB of RAM, optionally with a program's symbols and lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bare {
    /// The core.
    pub cpu: Cpu,
    /// The memory.
    pub bus: RamBus,
    /// What was loaded, for labels and lines.
    pub program: Option<Arc<Program>>,
    image: Vec<(u16, Vec<u8>)>,
}

impl Bare {
    /// Loads `program`'s segments into RAM and resets the CPU (PC from $FFFE,
    /// or the program's entry if it has no reset vector).
    pub fn new(program: Program) -> Bare {
        let mut b = Bare {
            cpu: Self::debug_cpu(),
            bus: RamBus::new(),
            image: program
                .segments
                .iter()
                .map(|s| (s.start, s.bytes.clone()))
                .collect(),
            program: Some(Arc::new(program)),
        };
        b.reset();
        b
    }

    /// Raw bytes at `addr`, reset vector pointing there, no symbols.
    pub fn from_bytes(addr: u16, bytes: &[u8]) -> Bare {
        let mut b = Bare {
            cpu: Self::debug_cpu(),
            bus: RamBus::new(),
            program: None,
            image: vec![
                (addr, bytes.to_vec()),
                (0xFFFE, addr.to_be_bytes().to_vec()),
            ],
        };
        b.reset();
        b
    }

    /// A CPU that stops before an illegal opcode instead of trapping, as
    /// the debugger wants (the trap is taken when the user continues).
    fn debug_cpu() -> Cpu {
        let mut cpu = Cpu::new();
        cpu.trap_illegal = false;
        cpu
    }

    /// The registers.
    pub fn regs(&self) -> Registers {
        self.cpu.regs
    }
}

impl Target for Bare {
    fn cpu(&self) -> &Cpu {
        &self.cpu
    }
    fn cycles(&self) -> u64 {
        self.cpu.cycles
    }
    fn peek(&self, addr: u16) -> u8 {
        self.bus.peek(addr)
    }
    fn step_observed<O: AccessObserver>(&mut self, obs: &mut O) -> TargetStep {
        let step = self.cpu.step(&mut ObservingBus::new(&mut self.bus, obs));
        TargetStep {
            step,
            fault: None,
            halt: None,
        }
    }
    fn step(&mut self) -> TargetStep {
        TargetStep {
            step: self.cpu.step(&mut self.bus),
            fault: None,
            halt: None,
        }
    }
    fn reset(&mut self) {
        self.bus = RamBus::new();
        for (addr, bytes) in &self.image {
            self.bus.load(*addr, bytes);
        }
        self.cpu = Self::debug_cpu();
        self.cpu.reset(&mut self.bus);
        let has_vector = self
            .image
            .iter()
            .any(|(a, b)| (*a as usize) <= 0xFFFE && (*a as usize + b.len()) >= 0x10000);
        if let (false, Some(entry)) = (has_vector, self.program.as_ref().and_then(|p| p.entry)) {
            self.cpu.regs.pc = entry;
        }
    }
    fn program(&self) -> Option<&Program> {
        self.program.as_deref()
    }
    fn heap_bytes(&self) -> usize {
        0x10000 + std::mem::size_of::<Self>()
    }
}

/// SPDR's offset in the register block (at $002A on the trainer11,
/// `MAP_PAGE equ $00`).
const TRAINER11_SPDR: u16 = 0x002A;

impl Target for crate::machine::Machine {
    fn cpu(&self) -> &Cpu {
        crate::machine::Machine::cpu(self)
    }
    fn cycles(&self) -> u64 {
        crate::machine::Machine::cycles(self)
    }
    #[inline]
    fn peek(&self, addr: u16) -> u8 {
        crate::machine::Machine::peek(self, addr)
    }
    fn step_observed<O: AccessObserver>(&mut self, obs: &mut O) -> TargetStep {
        let out = crate::machine::Machine::step_observed(self, obs);
        machine_step(out)
    }
    fn step(&mut self) -> TargetStep {
        let out = crate::machine::Machine::step(self);
        machine_step(out)
    }
    fn skip_poll_loop(&mut self, from: u16, max_steps: u64) -> u64 {
        crate::machine::Machine::skip_poll_loop(self, from, max_steps)
    }
    fn closes_loop(&self, from: u16) -> bool {
        !self.is_call_or_return_at(from)
    }
    fn run_repeating_loop(&mut self, max_steps: u64) -> Option<crate::machine::Repeating> {
        crate::machine::Machine::run_repeating_loop(self, max_steps)
    }
    fn run_hooked<H: StepHook<Self>>(
        &mut self,
        max_cycles: u64,
        breakpoints: &crate::machine::Breakpoints,
        check_first: bool,
        hook: &mut H,
        cache: &mut RepeatCache,
    ) -> FastStop {
        use crate::machine::hooked::HookedStop;
        match crate::machine::Machine::run_hooked(
            self,
            max_cycles,
            breakpoints,
            check_first,
            hook,
            cache,
        ) {
            HookedStop::Hook => FastStop::Hook,
            HookedStop::Budget => FastStop::Budget,
            HookedStop::Settled(kind) => FastStop::Settled(kind),
            HookedStop::Outcome(out) => FastStop::Step(machine_step(out)),
        }
    }
    fn script_poll(&mut self) -> Option<crate::board::InputKind> {
        match self.script_tick() {
            Some(crate::machine::StopReason::Settled) => self.waiting_on(),
            _ => None,
        }
    }
    fn reset(&mut self) {
        crate::machine::Machine::reset(self)
    }
    fn program(&self) -> Option<&Program> {
        Some(crate::machine::Machine::program(self).as_ref())
    }
    fn stray_hint(&self, pc: u16) -> Option<String> {
        crate::machine::Machine::stray_hint(self, pc)
    }
    fn entry_named(&self, pc: u16) -> bool {
        crate::machine::Machine::entry_named(self, pc)
    }
    fn write_fault_hint(&self, addr: u16, rom: bool) -> Option<String> {
        crate::machine::Machine::write_fault_hint(self, addr, rom)
    }
    fn device_ranges(&self) -> Vec<(u16, u16)> {
        // On-chip registers and the PIO, where the board has them now.
        self.board().device_ranges()
    }
    fn is_device(&self, addr: u16) -> bool {
        self.board().is_device(addr)
    }
    fn can_watch(&self, bits: &WatchBits) -> bool {
        self.can_watch(bits)
    }
    fn set_watch(&mut self, bits: Option<&WatchBits>) {
        crate::machine::Machine::set_watch(self, bits);
    }
    fn watched_accesses(&self) -> &[crate::board::WatchedAccess] {
        crate::machine::Machine::watched_accesses(self)
    }
    fn clone_unwatched(&self) -> Self {
        crate::machine::Machine::clone_unwatched(self)
    }
    fn read_kind(&self, addr: u16) -> ReadKind {
        let board = self.board();
        if !board.is_device(addr) {
            ReadKind::Memory
        } else if board.steady_read(addr) {
            ReadKind::Steady
        } else {
            ReadKind::Timed
        }
    }
    fn spdr(&self) -> Option<u16> {
        Some(self.board().register_base() + TRAINER11_SPDR)
    }
    fn lcd_probe(&self) -> Option<LcdProbe> {
        let lcd = self.lcd();
        Some(LcdProbe {
            transfer_end: self.board().spi().busy_until(),
            data_count: lcd.data_count(),
            page: lcd.page(),
            column: lcd.column(),
        })
    }
    fn pixel_location(&self, x: usize, y: usize) -> Option<(usize, usize, u8)> {
        self.lcd().ram_location(x, y)
    }
    fn pixel(&self, x: usize, y: usize) -> bool {
        self.lcd().pixel(x, y)
    }
    fn lcd_ram(&self, page: usize, column: usize) -> u8 {
        self.lcd().ram(page, column)
    }
    fn heap_bytes(&self) -> usize {
        // Memory, display RAM and device state; the program is shared (Arc).
        0x10000 + 0x2000 + self.serial_text().len()
    }
}

fn machine_step(out: crate::machine::StepOutcome) -> TargetStep {
    use crate::board::BusFault;
    let fault = out.fault.map(|f| match f {
        BusFault::RomWrite { addr, value, .. } => Fault::RomWrite { addr, value },
        BusFault::UnmappedWrite { addr, value, .. } => Fault::UnmappedWrite { addr, value },
    });
    TargetStep {
        step: out.step,
        fault,
        halt: out.halt,
    }
}

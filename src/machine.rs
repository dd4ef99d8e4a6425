//! The machine: an MC68HC11 core on the trainer11 board with a loaded
//! program; one step, or run until a stop condition (docs/ARCHITECTURE.md, "Stop rules";
//! the CPU follows the M68HC11 Reference Manual, the board is [`crate::board`]).
//!
//! Stopping is not failing: [`Machine::run_until`] returns a [`StopReason`].
//! The whole machine is plain data (`Clone`, `PartialEq`), so a snapshot is a
//! clone and two runs can be compared. Views only peek.

use crate::board::config::BoardSetup;
use crate::board::lcd::Lcd;
use crate::board::render;
use crate::board::watch_bits::WatchBits;
use crate::board::{Board, BusFault, InputKind};
use crate::cpu::{Bus, Cpu, IllegalOpcode, Registers, RunState, Step, StepEvent};
use crate::image::Program;
use crate::script::{Progress, Script, ScriptRunner, Timing};
use std::sync::Arc;

mod counted;
mod fastforward;
pub mod hooked;
pub mod observe;
pub mod placement;
mod poll;
pub mod stray;
pub use poll::MemoryWait;

/// Instructions an idle loop's body may have at most (see `Machine::halt_check`).
const IDLE_LOOP_MAX: usize = 16;

/// A program that cannot be loaded onto the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// A segment has bytes outside the board's memory (on the trainer11: RAM
    /// $0040-$7FFF and program memory $C000-$FFFF): on the registers, a
    /// device, an unmapped gap or past $FFFF.
    #[error(
        "segment{} at ${start:04X} puts a byte at ${addr:04X}, outside {memory}; move its `org`",
        name.as_ref().map(|n| format!(" {n}")).unwrap_or_default()
    )]
    OutsideMemory {
        /// The board's loadable memory in words ("RAM ($0040-$7FFF) and
        /// program memory ($C000-$FFFF)").
        memory: String,
        /// The segment's section name, if known.
        name: Option<String>,
        /// The segment's start address.
        start: u16,
        /// The first address that cannot be loaded ($10000 = past the end).
        addr: u32,
    },
    /// Neither a reset vector at $FFFE nor a start address.
    #[error(
        "the program has no reset vector at $FFFE and no start address; \
         add `org $FFFE` and `dc.w Start`"
    )]
    NoStart,
}

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
    /// Why no interrupt can come, in words: I is set (`masked`), or I is
    /// clear but no device interrupt is on and nothing drives the IRQ pin
    /// (which is always enabled while I is clear).
    pub fn no_interrupt(masked: bool) -> &'static str {
        if masked {
            "interrupts masked: I set"
        } else {
            "I clear, but no device interrupt is enabled and the IRQ pin, enabled, is driven by nothing (`run --irq low` drives it)"
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

/// What undoing a step whose write the board refused needs: SP and CCR as
/// they were before it (its PC is the step's own). Every 68HC11 step that
/// writes memory changes no register but PC, SP and CCR: stores, the
/// read-modify-write and bit instructions, pushes, JSR/BSR, SWI, WAI and
/// interrupt or trap entry (RM appendix A); A, B, X and Y only change in
/// steps that write nothing. Noting these two instead of copying all
/// registers before every step keeps the run loop clear of a wide load of
/// bytes the previous step just stored, which cost about a quarter of its
/// time (a store-to-load forwarding stall on x86-64).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WriteUndo {
    sp: u16,
    ccr: u8,
}

impl WriteUndo {
    #[inline(always)]
    pub(crate) fn take(regs: &Registers) -> WriteUndo {
        WriteUndo {
            sp: regs.sp,
            ccr: regs.ccr,
        }
    }

    /// The registers before the step at `pc`.
    fn restore(self, regs: &mut Registers, pc: u16) {
        regs.pc = pc;
        regs.sp = self.sp;
        regs.ccr = self.ccr;
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

/// What reset the chip in a [`CopReset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResetCause {
    /// The COP watchdog timed out (vector $FFFA).
    Cop,
    /// The clock monitor (OPTION.CME) saw the clock stop: STOP with CME set
    /// (vector $FFFC).
    ClockMonitor,
}

/// E-cycles from the end of a STOP instruction until the clock monitor
/// resets the chip. The RM gives the monitor's RC delay only as a range
/// (no clock for about 5 to 100 microseconds is detected); this model takes
/// 10 microseconds, 20 E-cycles at 2 MHz, counted as if the clock ran.
pub const CLOCK_MONITOR_DELAY: u64 = 20;

/// A watchdog reset: the COP timed out (the program stopped feeding it
/// $55/$AA at COPRST; vector $FFFA), or the clock monitor saw the clock stop
/// (STOP with OPTION.CME set; vector $FFFC). The chip restarted through the
/// vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CopReset {
    /// Which watchdog.
    pub cause: ResetCause,
    /// The cycle the watchdog timed out.
    pub cycle: u64,
    /// Where the program was when it did (the instruction boundary at or
    /// after the timeout: the machine resets between instructions).
    pub pc: u16,
    /// The cycle of the program's last feed since the reset before, if any.
    pub last_feed: Option<u64>,
}

/// What one [`Machine::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepOutcome {
    /// The CPU's report: address, cycles, event (instruction, interrupt,
    /// illegal opcode trap, wait, stop).
    pub step: Step,
    /// A write the board refused during the step, if any. The step was then
    /// undone (see [`StopReason::RomWrite`]) and `step.cycles` is 0.
    pub fault: Option<BusFault>,
    /// Set when the CPU can never go on after this step.
    pub halt: Option<Halt>,
}

/// An MC68HC11 on the trainer11 board running a program.
///
/// Kept under 4 KiB (the LCD's display RAM and the fast-forward's loop
/// table are boxed). The same code with 1.8 KB of padding in the memory
/// map graded 10% slower (0.121 -> 0.131 CPU-s per submission, aligned
/// builds, alternating runs), with the same host instructions. The likely
/// cause: in a larger struct two fields can lie 4,096 bytes apart, and a
/// load after a store to its twin waits for the store (4K aliasing); the
/// CPU's registers are stored and the map's quick table is read at every
/// step, and with the padding they were such twins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    cpu: Cpu,
    board: Board,
    program: Arc<Program>,
    instructions: u64,
    script: Option<ScriptRunner>,
    script_deadline: u64,
    /// What the program waited on when the script finished.
    waiting_on: Option<InputKind>,
    /// The address of an instruction whose write fault was reported and
    /// undone: the next step there executes it as the chip does.
    resume_write_at: Option<u16>,
    /// The polling-loop fast-forward switch and cache (not compared: see
    /// [`fastforward`]).
    ff: fastforward::FastForward,
    /// Every COP watchdog reset so far.
    cop_resets: Vec<CopReset>,
    /// The LCDs a finished script kept ([`Machine::capture_lcd_before`]).
    lcd_captures: Vec<(usize, crate::board::lcd::Lcd)>,
}

impl Machine {
    /// Loads `program` onto a fresh board and resets the CPU (PC from $FFFE,
    /// or the program's start address if it has no reset vector). The board
    /// is the one the command line chose (`--board`), else the trainer11.
    pub fn new(program: impl Into<Arc<Program>>) -> Result<Machine, LoadError> {
        Self::with_board(program, &crate::board::config::default_setup())
    }

    /// Like [`Machine::new`] on the board `setup` describes (and its ROM
    /// image, which a program's own bytes may overwrite).
    pub fn with_board(
        program: impl Into<Arc<Program>>,
        setup: &BoardSetup,
    ) -> Result<Machine, LoadError> {
        let program = program.into();
        // On a board with the EVB monitor and no ROM given, the monitor.
        let monitor = crate::firmware::evb_monitor::setup_for(setup, &program);
        let board = Self::loaded_board(&program, monitor.as_ref().unwrap_or(setup))?;
        let mut m = Machine {
            cpu: Cpu::new(),
            board,
            program,
            instructions: 0,
            script: None,
            script_deadline: u64::MAX,
            waiting_on: None,
            resume_write_at: None,
            ff: fastforward::FastForward::default(),
            cop_resets: Vec::new(),
            lcd_captures: Vec::new(),
        };
        m.cpu.trap_illegal = false;
        m.reset_cpu();
        Ok(m)
    }

    /// Whether an illegal opcode traps through $FFF8 as on the chip (true)
    /// or stops the run before it (false, the default) in [`Machine::step`];
    /// `run_until` follows [`StopConditions::on_illegal`].
    pub fn set_trap_illegal(&mut self, on: bool) {
        self.cpu.trap_illegal = on;
    }

    /// What the program waited on when the key script finished (settled).
    pub fn waiting_on(&self) -> Option<InputKind> {
        self.waiting_on
    }

    /// Turns the fast-forward over polling loops in `run_until` on or off
    /// (on by default). Results are the same either way, only the speed
    /// differs; the switch exists to check exactly that.
    pub fn set_fast_forward(&mut self, on: bool) {
        self.ff.enabled = on;
    }

    /// True if `run_until` fast-forwards over polling loops.
    pub fn fast_forward(&self) -> bool {
        self.ff.enabled
    }

    /// Loop iterations `run_until` skipped (counted as executed in
    /// [`Machine::instructions`]) since this machine was made.
    pub fn fast_forward_skipped(&self) -> u64 {
        self.ff.skipped
    }

    /// Fast-forward statistics: (iterations measured, of them repeating,
    /// iterations skipped).
    pub fn fast_forward_stats(&self) -> (u64, u64, u64) {
        (self.ff.probes, self.ff.hits, self.ff.skipped)
    }

    /// Counted-loop skips that reused the plan of an earlier skip from the
    /// same state (`counted::PlanMemo`), since this machine or the one it
    /// was copied from was made (a statistic).
    pub fn counted_plans_reused(&self) -> u64 {
        self.ff.plan_hits
    }

    /// Skips made from a poll loop's code, without a measured iteration
    /// (the commonest waits: one read and a branch back), since this
    /// machine was made. Each is also counted in the skipped iterations.
    pub fn poll_loops_skipped(&self) -> u64 {
        self.ff.polls
    }

    fn loaded_board(program: &Program, setup: &BoardSetup) -> Result<Board, LoadError> {
        let mut board = Board::with_setup(setup);
        for seg in &program.segments {
            board
                .load(seg.start, &seg.bytes)
                .map_err(|addr| LoadError::OutsideMemory {
                    memory: board.describe_loadable(),
                    name: seg.name.clone(),
                    start: seg.start,
                    addr,
                })?;
        }
        if !Self::has_reset_vector(program, setup) && program.entry.is_none() {
            return Err(LoadError::NoStart);
        }
        Ok(board)
    }

    /// True if the program or the board's ROM image sets the reset vector.
    fn has_reset_vector(program: &Program, setup: &BoardSetup) -> bool {
        let in_rom = |a: u16| {
            setup
                .rom_image
                .iter()
                .any(|(s, b)| a >= *s && ((a - *s) as usize) < b.len())
        };
        (program.byte_at(0xFFFE).is_some() || in_rom(0xFFFE))
            && (program.byte_at(0xFFFF).is_some() || in_rom(0xFFFF))
    }

    fn reset_cpu(&mut self) {
        self.cpu.reset(&mut self.board);
        let has_vector = Self::has_reset_vector(&self.program, self.board.setup());
        if let (false, Some(entry)) = (has_vector, self.program.entry) {
            self.cpu.regs.pc = entry;
        }
    }

    /// Back to the state right after [`Machine::new`]: memory reloaded,
    /// devices and CPU reset, counters at zero, keys up, no script.
    pub fn reset(&mut self) {
        // The program loaded once, so it loads again.
        let setup = self.board.setup().clone();
        if let Ok(board) = Self::loaded_board(&self.program, &setup) {
            self.board = board;
        }
        let trap = self.cpu.trap_illegal;
        self.cpu = Cpu::new();
        self.cpu.trap_illegal = trap;
        self.instructions = 0;
        self.script = None;
        self.script_deadline = u64::MAX;
        self.waiting_on = None;
        self.resume_write_at = None;
        self.cop_resets.clear();
        self.reset_cpu();
    }

    /// The board's reset button: the devices and the CPU reset (PC from the
    /// reset vector), while RAM, the serial log, the keys and the cycle
    /// count stay, as they do on the board. A running key script goes on.
    pub fn reset_button(&mut self) {
        self.board.reset();
        self.resume_write_at = None;
        self.reset_cpu();
    }

    /// Runs one instruction (or one interrupt entry, or one wait slice) and
    /// advances the devices by its cycles. A running key script is not
    /// advanced here; `run_until` drives it. A refused write undoes the
    /// instruction (see [`StopReason::RomWrite`]) unless the previous step
    /// reported that very fault, in which case it runs as on the chip.
    pub fn step(&mut self) -> StepOutcome {
        let before = WriteUndo::take(&self.cpu.regs);
        let step = self.cpu.step(&mut self.board);
        self.finish_step(step, before)
    }

    /// [`Machine::step`] with every CPU bus access reported to `obs`: the
    /// debugger's watchpoints and provenance see reads and writes this way
    /// while the unobserved path stays as it is.
    pub fn step_observed<O: observe::AccessObserver>(&mut self, obs: &mut O) -> StepOutcome {
        let before = WriteUndo::take(&self.cpu.regs);
        let mut bus = observe::ObservingBus::new(&mut self.board, obs);
        let step = self.cpu.step(&mut bus);
        self.finish_step(step, before)
    }

    /// The COP watchdog resets the chip if it timed out: devices reset, the
    /// CPU restarts from the COP failure vector $FFFA; the event is kept.
    #[inline]
    fn check_cop(&mut self) {
        let deadline = self.board.cop_deadline();
        if self.board.now() >= deadline {
            self.cop_reset(deadline);
        }
    }

    #[cold]
    fn cop_reset(&mut self, deadline: u64) {
        self.watchdog_reset(ResetCause::Cop, deadline, 0xFFFA);
    }

    /// A reset by a watchdog: recorded, devices reset, the CPU restarts
    /// through `vector`.
    fn watchdog_reset(&mut self, cause: ResetCause, cycle: u64, vector: u16) {
        self.cop_resets.push(CopReset {
            cause,
            cycle,
            pc: self.cpu.regs.pc,
            last_feed: self.board.cop_last_feed(),
        });
        self.board.reset();
        self.resume_write_at = None;
        self.cpu.reset(&mut self.board);
        self.cpu.regs.pc = self.peek_word(vector);
    }

    /// The clock monitor: with OPTION.CME set, a STOP stops the clock the
    /// monitor watches, and [`CLOCK_MONITOR_DELAY`] later it resets the chip
    /// through $FFFC (RM 5.4, "Clock monitor reset"). Called after a step
    /// that left the CPU stopped; true if it reset.
    fn check_clock_monitor(&mut self, stopped_at: u64) -> bool {
        if self.cpu.state != RunState::Stopped || !self.board.clock_monitor_enabled() {
            return false;
        }
        let due = stopped_at.saturating_add(CLOCK_MONITOR_DELAY);
        if let Some(wait) = due.checked_sub(self.board.now()) {
            self.board.tick(wait as u32);
            self.cpu.cycles += wait;
        }
        self.cpu.state = RunState::Running;
        self.watchdog_reset(ResetCause::ClockMonitor, due, 0xFFFC);
        true
    }

    /// Every COP watchdog reset since the machine was made or reset.
    pub fn cop_resets(&self) -> &[CopReset] {
        &self.cop_resets
    }

    /// Sets the CONFIG EEPROM cell; it takes effect at the next reset
    /// ([`Machine::reset_button`]). `$08` turns the COP watchdog on.
    pub fn set_config_cell(&mut self, value: u8) {
        self.board.set_config_cell(value);
    }

    /// The CONFIG EEPROM cell (what the chip loads at the next reset).
    pub fn config_cell(&self) -> u8 {
        self.board.config_cell()
    }

    /// The rest of a step after the CPU ran it (`before`: the registers to
    /// undo a refused write with): the fault, the cycles, the count, then
    /// [`Machine::outcome_after`].
    pub(super) fn finish_step(&mut self, mut step: Step, before: WriteUndo) -> StepOutcome {
        // An instruction that ran with nothing refused or resumed (nearly
        // every step): the same, with `outcome_after`'s COP and clock
        // monitor tests skipped where they cannot fire (before the COP
        // deadline, the CPU running).
        if self.resume_write_at.is_none()
            && !self.board.has_fault()
            && step.event == StepEvent::None
        {
            self.board.tick(step.cycles);
            self.instructions += 1;
            if self.cpu.state != RunState::Running || self.board.now() >= self.board.cop_deadline()
            {
                return self.outcome_after(step, None);
            }
            let halt = if self.cpu.regs.pc <= step.pc {
                self.halt_check(step.pc)
            } else {
                None
            };
            return StepOutcome {
                step,
                fault: None,
                halt,
            };
        }
        let resume = self.resume_write_at.take();
        let mut fault = self.board.take_fault();
        if fault.is_some() && resume != Some(step.pc) {
            self.undo_step(&mut step, before);
        } else {
            self.board.tick(step.cycles);
            if matches!(step.event, StepEvent::None | StepEvent::Swi) {
                self.instructions += 1;
            }
            if resume == Some(step.pc) {
                fault = None;
            }
        }
        self.outcome_after(step, fault)
    }

    /// The end of every single step: the COP and clock monitor get their
    /// say, then the halt test.
    pub(super) fn outcome_after(&mut self, step: Step, fault: Option<BusFault>) -> StepOutcome {
        self.check_cop();
        if self.check_clock_monitor(self.board.now()) {
            return StepOutcome {
                step,
                fault,
                halt: None,
            };
        }
        let halt = self.halt_after(&step);
        StepOutcome { step, fault, halt }
    }

    /// Undoes a step whose write the board refused: registers and cycle
    /// count as before, PC on the instruction, no time passed. RAM writes
    /// of the same instruction cannot precede the refused byte on the
    /// trainer11 (RAM borders only on device registers); a device register
    /// written by the same instruction before it (a 16-bit store from $8003,
    /// a push from $0001 down into $FFFF) keeps that write.
    #[cold]
    pub(super) fn undo_step(&mut self, step: &mut Step, before: WriteUndo) {
        before.restore(&mut self.cpu.regs, step.pc);
        self.cpu.cycles -= step.cycles as u64;
        self.cpu.state = RunState::Running;
        step.cycles = 0;
        self.resume_write_at = Some(step.pc);
    }

    /// Whether the CPU can never go on after `step` (see [`Halt`]): a
    /// branch or jump back into an idle loop, WAI or STOP, each with no
    /// interrupt that could end it. Cheap unless control went back.
    #[inline]
    fn halt_after(&self, step: &Step) -> Option<Halt> {
        let back = self.cpu.regs.pc <= step.pc && step.event == StepEvent::None;
        if back || matches!(step.event, StepEvent::Waiting | StepEvent::Stopped) {
            self.halt_check(step.pc)
        } else {
            None
        }
    }

    /// The halt test after a step at `from` (the CPU's PC is where it went).
    #[inline]
    fn halt_check(&self, from: u16) -> Option<Halt> {
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

    /// Performs the key script actions due now, as `run_until` does between
    /// instructions, for callers that step one at a time (the debugger).
    /// Returns why the script finished, if it just did.
    pub fn script_tick(&mut self) -> Option<StopReason> {
        if self.board.now() >= self.script_deadline {
            self.advance_script()
        } else {
            None
        }
    }

    /// Starts `script` with the default timing; `run_until` then plays it.
    pub fn start_script(&mut self, script: &Script) {
        self.start_script_with(script, Timing::default());
    }

    /// Starts `script` with the given timing.
    pub fn start_script_with(&mut self, script: &Script, timing: Timing) {
        self.waiting_on = None;
        self.lcd_captures.clear();
        self.script = Some(ScriptRunner::new(script, timing, self.board.now()));
        // Let the first `run_until` step ask the runner what to do.
        self.script_deadline = self.board.now();
    }

    /// Keeps a copy of the LCD as it is when each of the running script's
    /// actions in `indices` (0-based) is about to start; the run is the
    /// same with or without ([`ScriptRunner::capture_lcd_before`]).
    pub fn capture_lcd_before(&mut self, indices: &[usize]) {
        if let Some(s) = self.script.as_mut() {
            s.capture_lcd_before(indices);
        }
    }

    /// The LCDs kept by [`Machine::capture_lcd_before`] so far, by action
    /// index (a script still running hands over what it has).
    pub fn take_lcd_captures(&mut self) -> Vec<(usize, crate::board::lcd::Lcd)> {
        let mut kept = std::mem::take(&mut self.lcd_captures);
        if let Some(s) = self.script.as_mut() {
            kept.extend(s.take_captures());
        }
        kept
    }

    /// The running key script's position (action index, number of actions).
    pub fn script_progress(&self) -> Option<(usize, usize)> {
        self.script.as_ref().map(|s| s.progress())
    }

    /// Plays `script` from now until it is done and the program settled, or
    /// until another stop (budget `max_cycles`, illegal opcode, bad write, halt).
    pub fn run_script(&mut self, script: &Script, max_cycles: u64) -> StopReason {
        self.start_script(script);
        self.run_until(&StopConditions::budget(max_cycles))
    }

    /// Runs until a stop condition holds, the CPU halts, or the key script
    /// (if one was started) finishes with the program waiting for input.
    /// The budget is checked between instructions: a run ends at the first
    /// instruction boundary at or after it.
    pub fn run_until(&mut self, stop: &StopConditions) -> StopReason {
        let trap = self.cpu.trap_illegal;
        self.cpu.trap_illegal = trap || !stop.on_illegal;
        // Two copies of the hot loop: the common one has no breakpoint test.
        let reason = if stop.breakpoints.is_empty() {
            self.run_loop::<false>(stop)
        } else {
            self.run_loop::<true>(stop)
        };
        self.cpu.trap_illegal = trap;
        reason
    }

    /// `run_until`'s loop; `CHECK_BPS` if `stop` has breakpoints.
    fn run_loop<const CHECK_BPS: bool>(&mut self, stop: &StopConditions) -> StopReason {
        let budget_end = self.board.now().saturating_add(stop.max_cycles);
        let check_bps = CHECK_BPS;
        let ff = self.ff.enabled;
        // Steps taken elsewhere (single steps, the debugger) may have left
        // the back-jump note set.
        self.cpu.flow.back = false;
        // Continuing from a reported write fault: that instruction runs as
        // on the chip, through the slow path.
        if self.resume_write_at == Some(self.cpu.regs.pc) && self.board.now() < budget_end {
            let out = self.step();
            if let Some(reason) = self.after_outcome(&out, stop) {
                return reason;
            }
        }
        loop {
            self.check_cop();
            // Script actions happen between instructions.
            if self.board.now() >= self.script_deadline {
                if let Some(reason) = self.advance_script() {
                    return reason;
                }
            }
            if self.board.now() >= budget_end {
                return StopReason::CycleBudget;
            }
            // The COP deadline only moves later (a feed; CR can only be set
            // in the first 64 cycles, and 00 is the shortest), so the hot
            // loop leaving at it is enough to reset exactly there.
            let deadline = self.script_deadline.min(self.board.cop_deadline());
            let limit = budget_end.min(deadline);
            // Without a script action or COP reset ahead, the budget still
            // bounds the skip (nothing else would).
            let skip_limit = if stop.skip_past_budget.is_some() && deadline != u64::MAX {
                deadline
            } else {
                limit
            };
            // The hot loop: ordinary instructions with nothing to report stay
            // in here; everything else goes through `after_step`.
            // Running with X and I set (most programs, most of the time):
            // the CPU's step then tests neither the run state nor for an
            // interrupt. Every instruction that changes either asks for
            // attention (`Bus::attention`), so its step services the
            // devices, and only then are they tested here; known again
            // after every step that is not quiet and every back-jump (the
            // fast-forward runs steps of its own).
            let mut fast = self.running_masked();
            while self.board.now() < limit {
                let before = WriteUndo::take(&self.cpu.regs);
                let step = self.cpu.step_inline_hinted(&mut self.board, fast);
                // Every step with an event, a refused write or a change of
                // the run state or masks brings the next device event
                // forward to now (`Bus::attention`, `Board::record_fault`):
                // a step that ends short of it is an ordinary instruction
                // with nothing to report, and needs no more tests.
                let ordinary = if !self.board.due_after(step.cycles) {
                    self.board.pass(step.cycles);
                    true
                } else {
                    if self.board.has_fault() {
                        self.cpu.flow.back = false;
                        if let Some(reason) = self.fault_step(step, before, stop) {
                            return reason;
                        }
                        fast = self.running_masked();
                        continue;
                    }
                    self.board.tick(step.cycles);
                    step.event == StepEvent::None && self.may_stay(fast)
                };
                let quiet = ordinary && !(check_bps && stop.breakpoints.contains(self.cpu.regs.pc));
                if quiet {
                    self.instructions += 1;
                    // A branch or jump went back: maybe a polling loop to
                    // skip, or a branch to itself that nothing can leave.
                    // (Calls and returns to lower code close no loop.)
                    if self.cpu.flow.back {
                        if let Some(h) = self.halt_check(step.pc) {
                            return StopReason::Halted(h);
                        }
                        if ff {
                            if let Some(reason) =
                                self.try_fast_forward(stop, limit, skip_limit, check_bps, step.pc)
                            {
                                return reason;
                            }
                        }
                        // Also what a probe's own branches left.
                        self.cpu.flow.back = false;
                        fast = self.running_masked();
                    }
                } else {
                    self.cpu.flow.back = false;
                    if let Some(reason) = self.after_step(step, stop) {
                        return reason;
                    }
                    fast = self.running_masked();
                }
            }
        }
    }

    /// The CPU runs with X and I set: no interrupt can come before an
    /// instruction clears one (see `run_loop`).
    #[inline(always)]
    pub(crate) fn running_masked(&self) -> bool {
        use crate::cpu::registers::flags::{I, X};
        self.cpu.state == RunState::Running && self.cpu.regs.ccr & (X | I) == X | I
    }

    /// After a step that serviced the devices: the CPU still runs, and
    /// with X and I set if the step began so (`fast`).
    #[inline(always)]
    pub(crate) fn may_stay(&self, fast: bool) -> bool {
        if fast {
            self.running_masked()
        } else {
            self.cpu.state == RunState::Running
        }
    }

    /// A step of `run_until` whose write the board refused: undone and
    /// reported if the run stops on that kind of fault, else counted as the
    /// chip runs it (the byte is simply not stored).
    #[cold]
    fn fault_step(
        &mut self,
        step: Step,
        before: WriteUndo,
        stop: &StopConditions,
    ) -> Option<StopReason> {
        let fault = self.board.take_fault();
        let reason = match fault {
            Some(BusFault::RomWrite { addr, value, .. }) if stop.on_rom_write => {
                Some(StopReason::RomWrite {
                    addr,
                    value,
                    pc: step.pc,
                })
            }
            Some(BusFault::UnmappedWrite { addr, value, .. }) if stop.on_unmapped_write => {
                Some(StopReason::UnmappedWrite {
                    addr,
                    value,
                    pc: step.pc,
                })
            }
            _ => None,
        };
        if reason.is_some() {
            let mut step = step;
            self.undo_step(&mut step, before);
            return reason;
        }
        self.board.tick(step.cycles);
        self.after_step(step, stop)
    }

    /// The stop a single [`Machine::step`] outcome means for a run.
    fn after_outcome(&mut self, out: &StepOutcome, stop: &StopConditions) -> Option<StopReason> {
        if let Some(h) = out.halt {
            return Some(StopReason::Halted(h));
        }
        if let StepEvent::IllegalRefused(op) = out.step.event {
            return Some(StopReason::IllegalOpcode(op));
        }
        if !stop.breakpoints.is_empty() && stop.breakpoints.contains(self.cpu.regs.pc) {
            return Some(StopReason::Breakpoint(self.cpu.regs.pc));
        }
        None
    }

    /// The slow path of `run_until`: counts the step and says whether the
    /// run stops because of it.
    #[cold]
    fn after_step(&mut self, step: Step, stop: &StopConditions) -> Option<StopReason> {
        if self.check_clock_monitor(self.board.now()) {
            if matches!(step.event, StepEvent::None) {
                self.instructions += 1;
            }
            return None;
        }
        match step.event {
            StepEvent::None | StepEvent::Swi => self.instructions += 1,
            StepEvent::Interrupt { .. } | StepEvent::Illegal(_) => {}
            StepEvent::IllegalRefused(op) => return Some(StopReason::IllegalOpcode(op)),
            StepEvent::Waiting | StepEvent::Stopped => {
                if let Some(h) = self.halt_check(step.pc) {
                    return Some(StopReason::Halted(h));
                }
            }
        }
        if step.event == StepEvent::None && self.cpu.regs.pc <= step.pc {
            if let Some(h) = self.halt_check(step.pc) {
                return Some(StopReason::Halted(h));
            }
        }
        if !stop.breakpoints.is_empty() && stop.breakpoints.contains(self.cpu.regs.pc) {
            return Some(StopReason::Breakpoint(self.cpu.regs.pc));
        }
        None
    }

    /// Out of line: inlined into `run_loop` (which calls it once per
    /// script action) it cost the hot loop registers, 2% more host
    /// instructions per grading.
    #[inline(never)]
    fn advance_script(&mut self) -> Option<StopReason> {
        let Some(runner) = self.script.as_mut() else {
            self.script_deadline = u64::MAX;
            return None;
        };
        match runner.advance(&mut self.board) {
            Progress::Continue(at) => {
                self.script_deadline = at;
                None
            }
            Progress::Finished { waiting_on } => {
                let kept = runner.take_captures();
                self.lcd_captures.extend(kept);
                self.script = None;
                self.script_deadline = u64::MAX;
                self.waiting_on = Some(waiting_on);
                Some(StopReason::Settled)
            }
        }
    }

    /// Applies a lab-bench action (`--analog`, `--signal`, `--pin`, IRQ) now.
    pub fn apply_bench(&mut self, action: &crate::board::bench::BenchAction) {
        self.board.apply_bench(action);
    }

    /// Drives the IRQ or XIRQ pin `low` (asserted) or high from cycle `at`
    /// on (`run --irq low@N`); see [`Board::schedule_pin`].
    pub fn schedule_pin(&mut self, at: u64, line: crate::board::bench::IrqLine, low: bool) {
        self.board.schedule_pin(at, line, low);
    }

    /// Logs the changes of port A bits `mask` from now on (`--trace-pin`).
    pub fn trace_pins(&mut self, mask: u8) {
        self.board.trace_pins(mask);
    }

    /// The CPU (registers, cycle count, run state).
    pub fn cpu(&self) -> &Cpu {
        &self.cpu
    }

    /// The CPU registers.
    pub fn registers(&self) -> Registers {
        self.cpu.regs
    }

    /// Sets the CPU registers (the debugger's register edit).
    pub fn set_registers(&mut self, regs: Registers) {
        self.cpu.regs = regs;
    }

    /// E-cycles since reset.
    pub fn cycles(&self) -> u64 {
        self.board.now()
    }

    /// Instructions executed since reset (interrupt entries, traps and wait
    /// slices do not count; SWI does).
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// True if every address of `bits` is RAM, where
    /// [`Machine::set_watch`] can watch.
    pub fn can_watch(&self, bits: &WatchBits) -> bool {
        bits.blocks().all(|b| {
            self.board.block_is_ram(b) || bits.addresses_in(b).all(|a| self.board.is_ram(a))
        })
    }

    /// Watches the CPU's accesses to RAM during a hooked run, or stops
    /// (`None`): the bytes whose writes and whose reads are watched (only
    /// RAM, see [`Machine::can_watch`]). A step that made a watched access
    /// is told to the hook, with the accesses in
    /// [`Machine::watched_accesses`] (the debugger's watchpoints on its
    /// fast path). The run is the same either way.
    pub fn set_watch(&mut self, bits: Option<&WatchBits>) {
        self.board.set_watch(bits);
    }

    /// A copy without the watch (a snapshot taken during a watched run:
    /// the same machine, its memory paths as without a watch).
    pub fn clone_unwatched(&self) -> Machine {
        let mut c = self.clone();
        c.board.set_watch(None);
        c
    }

    /// The watched accesses of the step the hook is told about.
    pub fn watched_accesses(&self) -> &[crate::board::WatchedAccess] {
        self.board.watched_accesses()
    }

    /// The board (devices, memory) for views.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The loaded program.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// The byte at `addr` as a read would return it, without side effects.
    #[inline]
    pub fn peek(&self, addr: u16) -> u8 {
        self.board.peek(addr)
    }

    /// The big-endian word at `addr`.
    pub fn peek_word(&self, addr: u16) -> u16 {
        u16::from_be_bytes([self.peek(addr), self.peek(addr.wrapping_add(1))])
    }

    /// `len` bytes from `addr` on, without side effects.
    pub fn peek_range(&self, addr: u16, len: usize) -> Vec<u8> {
        self.board.peek_range(addr, len)
    }

    /// The byte at the address of symbol `name` (case-insensitive), if the program has it.
    pub fn peek_symbol(&self, name: &str) -> Option<u8> {
        self.program.symbol(name).map(|s| self.peek(s.value))
    }

    /// Stores bytes into RAM or program memory without side effects (the
    /// debugger's memory edit); refuses other addresses, naming the first.
    pub fn poke(&mut self, addr: u16, bytes: &[u8]) -> Result<(), u32> {
        self.board.load(addr, bytes)
    }

    /// The LCD controller.
    pub fn lcd(&self) -> &Lcd {
        self.board.lcd()
    }

    /// The LCD picture as 64 rows of 128 `#`/`.`, row 0 on top.
    pub fn lcd_text(&self) -> Vec<String> {
        render::lcd_text(self.board.lcd())
    }

    /// Everything the program sent on the serial line.
    pub fn serial_text(&self) -> String {
        self.board.serial_text()
    }

    /// The pressed keys, bit n = key n.
    pub fn keys(&self) -> u8 {
        self.board.keys()
    }

    /// Presses or releases key `n` (0..=7) by hand.
    pub fn set_key(&mut self, n: u8, pressed: bool) {
        self.board.set_key(n, pressed);
    }

    /// Queues bytes for the program's serial receiver.
    pub fn feed_serial(&mut self, bytes: &[u8]) {
        self.board.feed_serial(bytes);
    }

    /// How serial input is sent from now on: typed (the next byte once the
    /// program read the one before) or on the wire, back to back.
    pub fn set_serial_pacing(&mut self, pacing: crate::board::sci::Pacing) {
        self.board.set_serial_pacing(pacing);
    }
}

#[cfg(test)]
mod tests {
    /// See [`Machine`]: no two of its fields may be 4 KiB apart.
    #[test]
    fn the_machine_fits_in_4_kib() {
        let size = std::mem::size_of::<super::Machine>();
        assert!(size < 4096, "Machine is {size} bytes: box a cold part");
    }

    use super::*;
    use crate::image::Segment;

    fn program(code: &[u8]) -> Program {
        Program {
            segments: vec![
                Segment {
                    start: 0xC000,
                    bytes: code.to_vec(),
                    name: Some("RomSection".into()),
                },
                Segment {
                    start: 0xFFFE,
                    bytes: vec![0xC0, 0x00],
                    name: None,
                },
            ],
            ..Program::default()
        }
    }

    #[test]
    fn loads_and_resets_to_vector() {
        let m = Machine::new(program(&[0x01])).unwrap();
        assert_eq!(m.registers().pc, 0xC000);
        assert_eq!(m.peek(0xC000), 0x01);
    }

    #[test]
    fn segment_outside_memory_is_named() {
        let mut p = program(&[0x01]);
        p.segments.push(Segment {
            start: 0x8000,
            bytes: vec![1],
            name: Some("Pio".into()),
        });
        let e = Machine::new(p).unwrap_err();
        assert_eq!(
            e,
            LoadError::OutsideMemory {
                memory: "RAM ($0040-$7FFF) and program memory ($C000-$FFFF)".into(),
                name: Some("Pio".into()),
                start: 0x8000,
                addr: 0x8000
            }
        );
        assert!(e.to_string().contains("$8000"));
        let p = Program {
            segments: vec![Segment {
                start: 0xC000,
                bytes: vec![1],
                name: None,
            }],
            ..Program::default()
        };
        assert_eq!(Machine::new(p.clone()).unwrap_err(), LoadError::NoStart);
        let p = Program {
            entry: Some(0xC000),
            ..p
        };
        assert_eq!(Machine::new(p).unwrap().registers().pc, 0xC000);
    }

    #[test]
    fn budget_breakpoint_and_rom_write() {
        // C000: LDAA #1 ; C002: STAA $C100 ; C005: BRA C000
        let code = [0x86, 0x01, 0xB7, 0xC1, 0x00, 0x20, 0xF9];
        let mut m = Machine::new(program(&code)).unwrap();
        let mut stop = StopConditions::budget(1000);
        stop.on_rom_write = false;
        stop.breakpoints.insert(0xC005);
        assert_eq!(m.run_until(&stop), StopReason::Breakpoint(0xC005));
        assert_eq!(m.instructions(), 2);
        assert_eq!(m.cycles(), 2 + 4);
        assert_eq!(m.board().fault_count(), 1);
        let stop = StopConditions::budget(1000);
        assert_eq!(
            m.run_until(&stop),
            StopReason::RomWrite {
                addr: 0xC100,
                value: 1,
                pc: 0xC002
            }
        );
        let r = m.run_until(&StopConditions {
            on_rom_write: false,
            ..StopConditions::budget(100)
        });
        assert_eq!(r, StopReason::CycleBudget);
        assert!(m.cycles() >= 100);
    }

    #[test]
    fn illegal_opcode_and_stop() {
        let mut m = Machine::new(program(&[0x41])).unwrap();
        assert!(matches!(
            m.run_until(&StopConditions::budget(100)),
            StopReason::IllegalOpcode(IllegalOpcode { addr: 0xC000, .. })
        ));
        // CLRA? no: $CF is STOP; with S set it is a NOP, so clear S first:
        // TPA(07) ANDA #$7F(84 7F) TAP(06) STOP(CF)
        let mut m = Machine::new(program(&[0x07, 0x84, 0x7F, 0x06, 0xCF, 0x01])).unwrap();
        assert_eq!(
            m.run_until(&StopConditions::budget(1000)),
            StopReason::Halted(Halt::Stop)
        );
    }

    #[test]
    fn machine_is_plain_data() {
        let code = [0x86, 0x01, 0x97, 0x50, 0x20, 0xFA];
        let mut a = Machine::new(program(&code)).unwrap();
        let b = a.clone();
        assert_eq!(a, b);
        a.step();
        assert_ne!(a, b);
        a.reset();
        assert_eq!(a, b);
    }

    #[test]
    fn reset_button_keeps_ram() {
        // C000: INC $0100 ; C003: BRA *
        let mut m = Machine::new(program(&[0x7C, 0x01, 0x00, 0x20, 0xFE])).unwrap();
        m.run_until(&StopConditions::budget(20));
        assert_eq!(m.peek(0x0100), 1);
        let cycles = m.cycles();
        m.reset_button();
        assert_eq!(m.registers().pc, 0xC000);
        assert_eq!(m.cycles(), cycles);
        m.run_until(&StopConditions::budget(20));
        assert_eq!(m.peek(0x0100), 2, "RAM survived the reset");
        m.reset();
        assert_eq!((m.peek(0x0100), m.cycles()), (0, 0));
    }

    #[test]
    fn script_with_idle_program_settles() {
        // LDAA PIO_B; BRA back: polls the keys, never writes a register.
        let mut m = Machine::new(program(&[0xB6, 0x80, 0x01, 0x20, 0xFB])).unwrap();
        let s = Script::parse_keys("drop,wait:1000").unwrap();
        assert_eq!(m.run_script(&s, 10_000_000), StopReason::Settled);
        let t = Timing::default();
        // boot settle + hold + settle + wait + final settle, each phase
        // ending at the first instruction boundary (a 7-cycle loop) after it.
        let want = t.quiet + t.hold + t.quiet + 1000 + t.quiet;
        assert!((want..want + 5 * 7).contains(&m.cycles()), "{}", m.cycles());
        assert_eq!(m.keys(), 0);
        assert_eq!(m.waiting_on(), Some(InputKind::Keys));
    }

    #[test]
    fn quiet_program_that_polls_nothing_never_settles() {
        // INC $0050; BRA back: a computation without I/O (a RAM counter)
        // runs to the budget, it does not settle.
        let mut m = Machine::new(program(&[0x7C, 0x00, 0x50, 0x20, 0xFB])).unwrap();
        assert_eq!(
            m.run_script(&Script::empty(), 1_000_000),
            StopReason::CycleBudget
        );
        assert!((1_000_000..1_000_006).contains(&m.cycles()));
        // DEX; BRA back touches no memory: an idle loop, halted.
        let mut m = Machine::new(program(&[0x09, 0x20, 0xFD])).unwrap();
        let r = m.run_script(&Script::empty(), 1_000_000);
        assert_eq!(
            r,
            StopReason::Halted(Halt::SelfLoop {
                pc: 0xC000,
                masked: true
            })
        );
    }

    #[test]
    fn branch_to_itself_halts_unless_an_interrupt_can_leave_it() {
        let mut m = Machine::new(program(&[0x20, 0xFE])).unwrap();
        let r = m.run_until(&StopConditions::budget(1000));
        assert_eq!(
            r,
            StopReason::Halted(Halt::SelfLoop {
                pc: 0xC000,
                masked: true
            })
        );
        assert_eq!(m.cycles(), 3, "one pass through the branch");
        // CLI, then BRA *: I clear but no source enabled.
        let mut m = Machine::new(program(&[0x0E, 0x20, 0xFE])).unwrap();
        let r = m.run_until(&StopConditions::budget(1000));
        assert_eq!(
            r,
            StopReason::Halted(Halt::SelfLoop {
                pc: 0xC001,
                masked: false
            })
        );
        // CLI; LDAA #$40; STAA TMSK2 (RTII); BRA *: the RTI can leave it.
        let mut m = Machine::new(program(&[0x0E, 0x86, 0x40, 0x97, 0x24, 0x20, 0xFE])).unwrap();
        assert_eq!(
            m.run_until(&StopConditions::budget(1000)),
            StopReason::CycleBudget
        );
        // WAI with I set: nothing wakes it.
        let mut m = Machine::new(program(&[0x8E, 0x7F, 0xFF, 0x3E])).unwrap();
        let r = m.run_until(&StopConditions::budget(1000));
        assert_eq!(r, StopReason::Halted(Halt::Wai { masked: true }));
    }

    #[test]
    fn script_budget_stops_first() {
        let mut m = Machine::new(program(&[0xB6, 0x80, 0x01, 0x20, 0xFB])).unwrap();
        let s = Script::parse_keys("wait:100000").unwrap();
        assert_eq!(m.run_script(&s, 50_000), StopReason::CycleBudget);
        // The script goes on with the next run.
        assert_eq!(
            m.run_until(&StopConditions::budget(u64::MAX)),
            StopReason::Settled
        );
    }
}

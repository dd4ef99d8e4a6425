//! The machine: an MC68HC11 core on the trainer11 board with a loaded
//! program; one step, or run until a stop condition (docs/ARCHITECTURE.md, "Stop rules";
//! the CPU follows the M68HC11 Reference Manual, the board is [`crate::board`]).
//!
//! Stopping is not failing: [`Machine::run_until`] returns a [`StopReason`].
//! The whole machine is plain data (`Clone`, `PartialEq`), so a snapshot is a
//! clone and two runs can be compared. Views only peek.
//!
//! Owns: the machine (CPU, board, program and the running key script), its
//! single step and its runs, the stop rules, and the exact fast-forward over
//! waiting and counted loops. Must not know about: the debugger, lessons,
//! grading or the window (they build on it; the debugger plugs in through
//! [`observe`] and [`hooked`]).
//!
//! Rooms: this file holds the machine, its making, its single step and its
//! views; `run.rs` the run loop of [`Machine::run_until`] and the key
//! script; `stop.rs` the stop rules (why a run ends, when the CPU can never
//! go on); `fault.rs` the end of a step and the undoing of a refused write;
//! `watchdog.rs` the COP and clock monitor resets. The fast-forward family
//! imports one way: `skip.rs` (what every skip shares) below, the
//! strategies `poll.rs` and `counted.rs` above it, and the two runs that
//! use them, `fastforward.rs` (`run_until`'s) and `hooked.rs` (the
//! debugger's), on top; their state is [`Machine`]'s `FastForward`.

use crate::board::config::BoardSetup;
use crate::board::lcd::Lcd;
use crate::board::render;
use crate::board::watch_bits::WatchBits;
use crate::board::{Board, BusFault, InputKind};
use crate::cpu::{Bus, Cpu, Registers, Step};
use crate::image::Program;
use crate::script::ScriptRunner;
use std::sync::Arc;

mod counted;
mod fastforward;
mod fault;
pub mod hooked;
pub mod observe;
pub mod placement;
mod poll;
mod repeating;
mod run;
mod skip;
mod stop;
pub mod stray;
mod watchdog;
use fault::WriteUndo;
pub use poll::MemoryWait;
pub use repeating::Repeating;
use skip::{LoopBackoff, MAX_ITERATION_STEPS};
pub use stop::{Breakpoints, Halt, StopConditions, StopReason};
pub use watchdog::{CopReset, ResetCause, CLOCK_MONITOR_DELAY};

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
    ff: FastForward,
    /// Every COP watchdog reset so far.
    cop_resets: Vec<CopReset>,
    /// The LCDs a finished script kept ([`Machine::capture_lcd_before`]).
    lcd_captures: Vec<(usize, crate::board::lcd::Lcd)>,
}

/// The fast-forward switch and its bookkeeping, for every strategy. Not machine state: two
/// machines that differ only here are equal (the cache only decides how
/// fast the same result is reached).
#[derive(Clone, Debug)]
pub(crate) struct FastForward {
    pub(crate) enabled: bool,
    /// Which loop heads are worth measuring now.
    backoff: Box<LoopBackoff>,
    /// Iterations skipped since the machine was made (a statistic).
    pub(crate) skipped: u64,
    /// Measured iterations, and those that repeated (statistics).
    pub(crate) probes: u64,
    /// Poll loops skipped from their code, unmeasured (a statistic).
    pub(crate) polls: u64,
    /// The loop heads [`poll`] decoded last.
    pub(crate) polls_seen: poll::PollCache,
    pub(crate) hits: u64,
    /// Buffers of the counted-loop probe ([`counted`]), kept
    /// between tries.
    pub(crate) recorded: [counted::Recorded; 2],
    /// Counted loops' plans by the state they were met in, shared with
    /// this machine's copies.
    pub(crate) plans: std::sync::Arc<std::sync::Mutex<counted::PlanMemo>>,
    /// Counted skips made from [`counted::PlanMemo`] (a statistic).
    pub(crate) plan_hits: u64,
    /// Where each instruction of the last measured iteration ended, in
    /// E-cycles from its start (kept here: no array to fill per probe).
    ends: [u16; MAX_ITERATION_STEPS as usize],
}

impl Default for FastForward {
    fn default() -> Self {
        FastForward {
            enabled: true,
            backoff: Box::default(),
            skipped: 0,
            probes: 0,
            polls: 0,
            polls_seen: Default::default(),
            hits: 0,
            recorded: Default::default(),
            plans: Default::default(),
            plan_hits: 0,
            ends: [0; MAX_ITERATION_STEPS as usize],
        }
    }
}

impl PartialEq for FastForward {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Eq for FastForward {}

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
            ff: FastForward::default(),
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

    /// Queues bytes for the board's ACIA receiver (the EVB's host port);
    /// false if the board has none.
    pub fn feed_acia(&mut self, bytes: &[u8]) -> bool {
        self.board.feed_acia(bytes)
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
    use crate::cpu::IllegalOpcode;
    use crate::image::Segment;
    use crate::script::{Script, Timing};

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

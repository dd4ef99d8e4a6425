//! A board: the memory map and the devices behind it — the MC68HC11's
//! on-chip ports, timer, SPI, SCI, A/D, COP and EEPROM (M68HC11 Reference
//! Manual sections 4-12) and what the board wires to them. Which memory sits
//! where and which devices exist is the board's description
//! ([`config::BoardConfig`]: the built-in `trainer11` and `evb`, or a TOML
//! file); [`map`] decodes addresses. On the default trainer11: registers at
//! $0000, RAM to $7FFF, the 8255-type PIO at $8000 with the eight keys and
//! the select lines of the NHD-C12864A1Z LCD (ST7565R) on the SPI bus,
//! program memory at $C000.
//!
//! Time: the machine calls [`Board::tick`] after every CPU step with the
//! cycles the step took. A register access is timed at the start of the
//! instruction that makes it (the CPU does not report bus cycles within an
//! instruction); device events (SPI byte done, SCI frame done, timer flags)
//! are handled at their exact cycle but become visible to the program at the
//! first access at or after it. Everything is a function of the cycle count,
//! so runs are deterministic.
//!
//! Owns: the memory map, every device and what the lab bench does to the
//! pins. Must not know about: the machine that steps it (it is told the
//! cycles), the CPU's instructions (it serves the `Bus` trait), the
//! debugger, lessons, grading or the window.

pub mod adc;
pub mod bench;
pub mod config;
pub mod cop;
pub mod eeprom;
pub mod lcd;
pub mod map;
pub mod parts;
pub mod pio;
pub mod ports;
pub mod render;
pub mod sci;
pub mod spi;
pub mod timer;
pub mod watch_bits;

use crate::cpu::Bus;
use adc::Adc;
use config::{BoardConfig, BoardSetup};
use lcd::Lcd;
use map::{Kind, MemoryMap, READ_DIRECT, WRITE_DIRECT};
use pio::Pio;
use ports::Ports;
use sci::Sci;
use spi::Spi;
use timer::Timer;
use watch_bits::WatchBits;

/// The E clock of the trainer11 (8 MHz crystal / 4), in Hz.
pub const E_CLOCK_HZ: u64 = 2_000_000;
/// First address after the trainer11's on-chip register block ($0000-$003F).
pub const REGISTERS_END: u16 = 0x0040;
/// First RAM address of the trainer11.
pub const RAM_START: u16 = 0x0040;
/// Last RAM address of the trainer11.
pub const RAM_END: u16 = 0x7FFF;
/// Address of `PIO_A` on the trainer11; `PIO_B`, `PIO_C` and `PIO_CONFIG` follow.
pub const PIO_BASE: u16 = 0x8000;
/// First address of the trainer11's program memory (loaded, then read-only).
pub const ROM_START: u16 = 0xC000;
/// What a read of an address with nothing behind it returns ($8004-$BFFF
/// on the trainer11): the data bus is pulled up, so an undriven read sees
/// all ones. Also what the EEPROM array reads while EELAT is set.
pub const UNMAPPED_READ: u8 = 0xFF;
/// The IRQ pin's vector; its fetch clears the edge latch (IRQE = 1).
const IRQ_VECTOR: u16 = 0xFFF2;
/// Bytes the one-load code fetch reads ([`Bus::code`]); as many lie past
/// the address space in the board's memory, never written.
const CODE_PAD: usize = 8;

const ACTIVITY_SPDR: u16 = 0x2A;
const ACTIVITY_SCDR: u16 = 0x2F;

/// One register of a device, as the views show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterInfo {
    /// The name from the register map (`SPCR`, `PIO_B`, `page`).
    pub name: &'static str,
    /// Its CPU address, or `None` for a register inside an off-chip controller
    /// (the LCD's page and column registers are not memory mapped).
    pub address: Option<u16>,
    /// Its current value (as [`Device::peek`] returns it).
    pub value: u16,
    /// Width in bits (8, or 16 for TCNT and the compare registers).
    pub width: u8,
    /// What the value means right now, in words (`SPIF=1 (transfer done)`).
    pub meaning: String,
}

impl RegisterInfo {
    /// An 8-bit memory-mapped register.
    pub fn byte(name: &'static str, address: u16, value: u8, meaning: String) -> Self {
        RegisterInfo {
            name,
            address: Some(address),
            value: value as u16,
            width: 8,
            meaning,
        }
    }
}

/// The shape every board device has: CPU accesses, time, reset and a
/// description of its registers for the views.
///
/// `now` is the board's cycle count (E-cycles since power-on). `read` may
/// have side effects (reading SPSR arms the clearing of SPIF); `peek` never
/// has.
pub trait Device {
    /// A CPU read of the register at `addr`.
    fn read(&mut self, addr: u16, now: u64) -> u8;
    /// What a read of `addr` would return, without side effects.
    fn peek(&self, addr: u16, now: u64) -> u8;
    /// A CPU write to the register at `addr`.
    fn write(&mut self, addr: u16, value: u8, now: u64);
    /// Brings the device up to cycle `now` and returns the cycle of its next
    /// own event (`u64::MAX` if none is pending).
    fn tick(&mut self, now: u64) -> u64;
    /// Hardware reset at cycle `now`.
    fn reset(&mut self, now: u64);
    /// Its registers with their values and meanings.
    fn registers(&self, now: u64) -> Vec<RegisterInfo>;
}

/// A bus access the board did not take: the machine can stop on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusFault {
    /// A CPU write into program memory ($C000-$FFFF on the trainer11); the
    /// byte was not stored.
    RomWrite {
        /// The address written.
        addr: u16,
        /// The value the program tried to store.
        value: u8,
        /// The board cycle of the instruction that wrote.
        cycle: u64,
    },
    /// A CPU write to an address with nothing behind it ($8004-$BFFF on the
    /// trainer11).
    UnmappedWrite {
        /// The address written.
        addr: u16,
        /// The value the program tried to store.
        value: u8,
        /// The board cycle of the instruction that wrote.
        cycle: u64,
    },
}

/// An input a program can poll while it waits: what `settled` says it waits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InputKind {
    /// The keys on the PIO's port B ($8001).
    Keys,
    /// The SCI receiver: a read of SCSR while RE is set (polling RDRF).
    Serial,
    /// The analog inputs: a read of PORTE, ADCTL or ADR1-ADR4.
    Analog,
    /// Port A's pins: a read of PORTA (switches, a signal on PA0-PA2, PA7).
    PortA,
}

impl InputKind {
    /// How `run --json`'s `waiting_on` names it.
    pub fn describe(self) -> &'static str {
        match self {
            InputKind::Keys => "keys (PIO_B)",
            InputKind::Serial => "serial input (SCSR.RDRF)",
            InputKind::Analog => "analog inputs (PORTE, A/D)",
            InputKind::PortA => "port A pins (PORTA)",
        }
    }
}

/// Bytes the SPI sent to slaves the board does not model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpiTraffic {
    /// Bytes that reached the LCD (slave select 00).
    pub lcd: u64,
    /// Bytes sent with slave select 01, 10, 11 (nothing modelled there: the
    /// firmware calls 11 "EEPROM"); they go nowhere and read back $FF.
    pub other: [u64; 3],
}

/// The device state a CPU read can change (see [`Board::read_effects`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadEffects {
    spi: (u8, bool, u8),
    sci: (u8, bool, bool),
    tcnt_buffer: Option<u8>,
    irq: Option<u16>,
}

/// A board: memory and devices, plain data.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    now: u64,
    next_event: u64,
    /// The next event of every device but the timer (the pins, the A/D,
    /// the SPI, the SCI): with no interrupt enabled, a program that reads
    /// no timer register cannot tell the timer's events from plain time
    /// passing (see [`Board::next_event_seen`]).
    next_other_event: u64,
    /// `next_event` and `next_other_event` without the SPI, as the last
    /// full [`Board::service`] found them: until then only the SPI can
    /// have an event due (most events are its byte ends), and
    /// [`Board::service_due`] services it alone.
    next_not_spi: (u64, u64),
    /// The 64 KiB address space, and [`CODE_PAD`] bytes past $FFFF that
    /// are never written (so the eight-byte code load needs no bounds test).
    mem: Box<[u8; 0x10000 + CODE_PAD]>,
    /// The address decoder (page table, register and internal RAM bases).
    map: MemoryMap,
    /// The board description and its ROM image.
    setup: BoardSetup,
    /// What lies under the internal RAM (external memory it hides); the
    /// two swap places when INIT moves the internal RAM.
    shadow: Vec<u8>,
    eeprom: eeprom::Eeprom,
    /// The IRQ pin's edge latch (IRQE = 1), cleared by the vector fetch.
    irq_edge: bool,
    /// Pin changes due at a cycle (`--irq low@N`), sorted by cycle.
    pin_schedule: Vec<(u64, bench::IrqLine, bool)>,
    ports: Ports,
    adc: Adc,
    cop: cop::Cop,
    /// The CONFIG EEPROM cell; it takes effect at the next reset.
    config_cell: u8,
    timer: Timer,
    spi: Spi,
    sci: Sci,
    pio: Pio,
    lcd: Box<Lcd>,
    irq: Option<u16>,
    irq_pin: bool,
    xirq_pin: bool,
    fault: Option<BusFault>,
    fault_count: u64,
    last_activity: u64,
    /// The cycle and kind of the last read of an input register.
    input_poll: Option<(u64, InputKind)>,
    spi_traffic: SpiTraffic,
    /// The debugger's watched bytes and the accesses to them (see
    /// [`Board::set_watch`]).
    watch: Watch,
}

/// A CPU access to a byte the debugger watches (`Machine::set_watch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchedAccess {
    /// The address.
    pub addr: u16,
    /// The byte there before (for a read, the byte read).
    pub old: u8,
    /// The byte written or read.
    pub value: u8,
    /// A write (else a read).
    pub write: bool,
}

/// What the debugger watches (one bit per address: bytes whose writes and
/// bytes whose reads are logged) and the accesses to them since the log
/// was last cleared. Not machine state: a copy starts without it and two
/// boards compare equal whatever it holds (the debugger installs it for a
/// run and takes it away after).
#[derive(Debug, Default)]
struct Watch {
    /// What is watched now, if anything.
    on: Option<Box<WatchSet>>,
    /// The last set taken away, kept for the next (the debugger sets the
    /// watch before every run and takes it away after: no allocation per
    /// stop).
    spare: Option<Box<WatchSet>>,
}

#[derive(Debug)]
struct WatchSet {
    bits: WatchBits,
    log: Vec<WatchedAccess>,
}

impl Clone for Watch {
    fn clone(&self) -> Self {
        Watch::default()
    }
}

impl PartialEq for Watch {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Watch {}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("now", &self.now)
            .field("ports", &self.ports)
            .field("timer", &self.timer)
            .field("spi", &self.spi)
            .field("sci", &self.sci)
            .field("pio", &self.pio)
            .field("lcd", &self.lcd)
            .field("fault", &self.fault)
            .finish_non_exhaustive()
    }
}

impl Default for Board {
    fn default() -> Self {
        Self::new()
    }
}

impl Board {
    /// A trainer11 at power-on: memory all zero, devices in their reset
    /// state (with the SCI and PIO set up as the trainer11's monitor leaves
    /// them, see [`Sci::new`] and [`Pio::new`]).
    pub fn new() -> Self {
        Self::with_setup(&BoardSetup::trainer11())
    }

    /// The board `setup` describes at power-on: memory all zero (the
    /// EEPROM erased, $FF), its ROM image loaded, devices in their reset
    /// state.
    pub fn with_setup(setup: &BoardSetup) -> Self {
        let cfg = &setup.config;
        let mut board = Board {
            now: 0,
            next_event: 0,
            next_other_event: 0,
            next_not_spi: (0, 0),
            mem: Box::new([0; 0x10000 + CODE_PAD]),
            map: MemoryMap::new(cfg, cfg.init, false),
            setup: setup.clone(),
            shadow: vec![0; cfg.internal_ram as usize],
            eeprom: eeprom::Eeprom::default(),
            irq_edge: false,
            pin_schedule: Vec::new(),
            ports: Ports::new(),
            adc: Adc::new(),
            cop: cop::Cop::new(cfg.config, 0),
            config_cell: cfg.config,
            timer: Timer::new(),
            spi: Spi::new(),
            sci: Sci::new(),
            pio: Pio::new(),
            lcd: Box::new(Lcd::new()),
            irq: None,
            irq_pin: false,
            xirq_pin: false,
            fault: None,
            fault_count: 0,
            last_activity: 0,
            input_poll: None,
            spi_traffic: SpiTraffic::default(),
            watch: Watch::default(),
        };
        if let Some(r) = cfg.eeprom {
            board.mem[r.start as usize..=r.end as usize].fill(0xFF);
        }
        for (start, bytes) in setup.rom_image.iter() {
            let s = *start as usize;
            if let Some(dst) = board.mem.get_mut(s..s + bytes.len()) {
                dst.copy_from_slice(bytes);
            }
        }
        board.reset();
        // The parts outside the chip take their power-on positions.
        if !cfg.parts.is_empty() {
            for action in cfg.parts.default_actions() {
                board.apply_bench_now(&action);
            }
            if cfg.parts.trace_mask != 0 {
                board.timer.trace_pins(cfg.parts.trace_mask, board.now);
            }
            board.service();
        }
        board
    }

    /// The board's description.
    pub fn config(&self) -> &BoardConfig {
        &self.setup.config
    }

    /// The board's description and ROM image, to build another like it.
    pub fn setup(&self) -> &BoardSetup {
        &self.setup
    }

    /// True if the board has the LCD (the GUI shows its panel only then).
    pub fn has_lcd(&self) -> bool {
        self.setup.config.lcd.is_some()
    }

    /// True if the board has the eight keys on the PIO.
    pub fn has_keys(&self) -> bool {
        self.setup.config.keys
    }

    /// True if the SCI is wired to a terminal (serial panel, `--serial-in`).
    pub fn has_serial(&self) -> bool {
        self.setup.config.serial
    }

    /// Where the register block is now (INIT's low nibble x $1000).
    pub fn register_base(&self) -> u16 {
        self.map.reg_base
    }

    /// The device address ranges (first, last): the register block where
    /// INIT put it and the PIO, if the board has one.
    pub fn device_ranges(&self) -> Vec<(u16, u16)> {
        let base = self.map.reg_base;
        let mut v = vec![(base, base.wrapping_add(map::REGISTER_BLOCK - 1))];
        if let Some(p) = self.setup.config.pio {
            v.push((p, p + 3));
        }
        v
    }

    /// True if `addr` is in [`Board::device_ranges`] (without building them).
    pub fn is_device(&self, addr: u16) -> bool {
        addr.wrapping_sub(self.map.reg_base) < map::REGISTER_BLOCK
            || self
                .setup
                .config
                .pio
                .is_some_and(|p| addr.wrapping_sub(p) < 4)
    }

    /// Where the internal RAM is now (INIT's high nibble x $1000).
    pub fn internal_ram_base(&self) -> u16 {
        self.map.ram_base
    }

    /// The EEPROM programming state (PPROG, operations done).
    pub fn eeprom(&self) -> &eeprom::Eeprom {
        &self.eeprom
    }

    /// Hardware reset of every device (memory is kept, as on the board);
    /// the cycle count goes on. INIT goes back to the board's reset value
    /// (the internal RAM moves back with its contents), CONFIG is loaded
    /// from its EEPROM cell (EEON decides whether the EEPROM is mapped).
    pub fn reset(&mut self) {
        let now = self.now;
        self.ports.reset(now);
        self.ports.set_config(self.config_cell);
        self.ports.set_init(self.setup.config.init);
        self.eeprom.reset();
        self.irq_edge = false;
        self.map.eeprom_latched = false;
        self.map.vector_watch = false;
        let eeon = self.config_cell & config::CONFIG_EEON != 0;
        self.map.eeprom = self.setup.config.eeprom.filter(|_| eeon);
        self.remap(self.setup.config.init);
        self.cop = cop::Cop::new(self.config_cell, now);
        self.adc.reset(now);
        self.timer.reset(now);
        self.spi.reset(now);
        self.sci.reset(now);
        self.pio.reset(now);
        self.lcd.reset(now);
        self.fault = None;
        self.last_activity = now;
        self.service();
    }

    /// Clears RAM and program memory to zero.
    pub fn clear_memory(&mut self) {
        self.mem.fill(0);
    }

    /// Stores `bytes` at `addr` directly (the loader's path: program memory
    /// and EEPROM are writable here). Bytes that would fall outside RAM,
    /// EEPROM or program memory are refused, nothing is stored, and the
    /// address of the first such byte is returned ($10000 for bytes past $FFFF).
    pub fn load(&mut self, addr: u16, bytes: &[u8]) -> Result<(), u32> {
        for i in 0..bytes.len() {
            let a = addr as u32 + i as u32;
            match u16::try_from(a) {
                Ok(a16) if self.is_loadable(a16) => {}
                _ => return Err(a),
            }
        }
        let start = addr as usize;
        if let Some(dst) = self.mem.get_mut(start..start + bytes.len()) {
            dst.copy_from_slice(bytes);
        }
        Ok(())
    }

    /// True for addresses a program may be loaded to: RAM, EEPROM and
    /// program memory, not under the register block. A read of such an
    /// address has no side effect.
    #[inline]
    pub fn is_loadable(&self, addr: u16) -> bool {
        // The halt check asks this on every backward branch: the page
        // table answers for plain pages, the decoder for the rest.
        !self.map.is_register(addr)
            && (self.map.pages[(addr >> 8) as usize] & READ_DIRECT != 0
                || self.map.is_loadable(&self.setup.config, addr))
    }

    /// True if a CPU write of `addr` just stores the byte in RAM.
    #[inline]
    pub fn is_plain_ram(&self, addr: u16) -> bool {
        if self.map.is_register(addr) {
            return false;
        }
        self.map.pages[(addr >> 8) as usize] & WRITE_DIRECT != 0
            || self.map.kind_at(&self.setup.config, addr) == Kind::Ram
    }

    /// The loadable ranges in words, for load errors.
    pub fn describe_loadable(&self) -> String {
        self.map.describe_loadable(&self.setup.config)
    }

    /// The RAM ranges in words ("$0040-$7FFF"), for messages that say
    /// where a variable belongs; empty if the board has no RAM.
    pub fn describe_ram(&self) -> String {
        self.map.describe_ram(&self.setup.config)
    }

    /// What answers at `addr` below the register block (which
    /// [`Board::device_ranges`] gives): RAM, ROM, EEPROM, the PIO or nothing.
    pub fn kind_at(&self, addr: u16) -> Kind {
        self.kind_below_registers(addr)
    }

    /// Moves the internal RAM (with its contents) and the register block
    /// to where `init` puts them.
    fn remap(&mut self, init: u8) {
        let old = self.map.ram_base as usize;
        let new = (((init >> 4) as u16) << 12) as usize;
        let size = self.shadow.len();
        if old != new && size > 0 {
            // Swap the internal RAM out (the hidden memory comes back),
            // then in at its new place (hiding what is there).
            self.mem[old..old + size].swap_with_slice(&mut self.shadow);
            self.mem[new..new + size].swap_with_slice(&mut self.shadow);
        }
        self.map.set_init(&self.setup.config, init);
    }

    /// Advances time by `cycles` E-cycles (called after every CPU step).
    #[inline]
    pub fn tick(&mut self, cycles: u32) {
        self.advance(u64::from(cycles));
    }

    /// True if a tick of `cycles` after this step would service the
    /// devices: time reaches the next event, or the step asked for
    /// attention ([`Bus::attention`]: it changed the CPU's run state or
    /// masks, or reports an event) or had a write refused. So a step for
    /// which this is false is an ordinary instruction with nothing to
    /// report, and `run_until`'s hot loop and the debugger's quick stretch
    /// test for the rest only after a step for which it is true. Then
    /// [`Board::tick`]; else
    /// [`Board::pass`].
    #[inline(always)]
    pub(crate) fn due_after(&self, cycles: u32) -> bool {
        self.now + u64::from(cycles) >= self.next_event
    }

    /// Time passes by `cycles`, short of the next event
    /// ([`Board::due_after`] said so): nothing to service.
    #[inline(always)]
    pub(crate) fn pass(&mut self, cycles: u32) {
        debug_assert!(!self.due_after(cycles), "pass only short of the next event");
        self.now += u64::from(cycles);
    }

    /// E-cycles since power-on.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The cycle of the next device event (SPI byte done, SCI frame done or
    /// byte received, timer flag): until then no device changes on its own.
    pub fn next_event(&self) -> u64 {
        self.next_event
    }

    /// Advances time by `cycles` in one go if that ends before the next
    /// device event, and says whether it did. Exactly the same as any
    /// sequence of [`Board::tick`]s adding up to `cycles`: none of them
    /// reaches `next_event`, so none services a device, and device state is
    /// a function of the cycle count between events (the timer computes
    /// TCNT from it). (The machine's fast-forward uses
    /// `Board::advance`, which may also pass the timer's events.)
    pub fn skip_idle(&mut self, cycles: u64) -> bool {
        match self.now.checked_add(cycles) {
            Some(end) if end < self.next_event => {
                self.now = end;
                true
            }
            _ => false,
        }
    }

    /// True if a CPU read of `addr` can return a different value at two
    /// cycles between the same two device events. Only TCNT (register
    /// offsets $0E, $0F) does: it counts E-cycles. Every other register's read value is a
    /// function of device state, which changes only at events, on writes
    /// and on reads (see [`Board::read_effects`]): the PIO and port latches
    /// and the keys, SPSR/SPDR and SCSR/SCDR after the device's `tick`
    /// (a no-op before its event), the timer's flags, captures, PACNT and
    /// port A's pins (every compare match, input edge of a bench signal and
    /// gated-accumulator tick is an event), the A/D results and CCF (every
    /// conversion end is an event).
    pub fn read_is_time_dependent(&self, addr: u16) -> bool {
        matches!(addr.wrapping_sub(self.map.reg_base), 0x0E | 0x0F)
    }

    /// The first device event a program can tell apart from time passing,
    /// if it reads no timer register (`reads_timer` false): with no
    /// interrupt possible ([`Board::can_interrupt`]), the timer's events
    /// (the overflow, RTI, compare matches, PORTA's pins, the pulse
    /// accumulator) only set flags and pins such a program never looks
    /// at, and feed no other device (the LCD backlight follows PORTA, and
    /// it is the same whenever it is looked at), so it runs the same
    /// through them. Else the next event of all.
    pub(crate) fn next_event_seen(&self, reads_timer: bool) -> u64 {
        self.next_event_seen_given(reads_timer, reads_timer || self.can_interrupt())
    }

    /// [`Board::next_event_seen`] with [`Board::can_interrupt`] already
    /// asked (`can_interrupt` is its answer, or true).
    #[inline]
    pub(crate) fn next_event_seen_given(&self, reads_timer: bool, can_interrupt: bool) -> u64 {
        if reads_timer || can_interrupt {
            self.next_event
        } else {
            self.next_other_event
        }
    }

    /// [`Board::tick`] for any number of cycles: time moves on and the
    /// devices with an event due are serviced once, at the end. A
    /// fast-forward that ends before [`Board::next_event_seen`] (with the
    /// same `reads_timer`) passes only timer events this way, and the timer
    /// handles each at its own cycle however late it is ticked (a 41-cycle
    /// IDIV ticks it late too), so the board ends exactly as after small
    /// ticks.
    #[inline]
    /// True if it serviced (time reached the next event).
    pub(crate) fn advance(&mut self, cycles: u64) -> bool {
        self.now += cycles;
        let due = self.now >= self.next_event;
        if due {
            self.service_due();
        }
        due
    }

    /// True if a CPU read of `addr` is of the timer: its registers
    /// (CFORC-PACNT) or PORTA, whose pins the compares and captures use.
    #[inline]
    pub(crate) fn reads_timer(&self, addr: u16) -> bool {
        let a = addr.wrapping_sub(self.map.reg_base);
        a == ports::addr::PORTA || (0x0B..=0x27).contains(&a)
    }

    /// The byte a read of `addr` returns now, if that read changes no
    /// device state (arms no flag clear, is not TCNT) and every read
    /// returns the same until the next device event or a CPU write; with
    /// the input it polls, if it is an input register (the read notes the
    /// poll, [`Board::last_input_poll`], and nothing else). Plain memory
    /// and ROM; SPSR while SPIF and WCOL are clear; SCSR while TDRE, TC,
    /// RDRF and OR are clear (a serial poll if the receiver is on); the
    /// keys on PIO_B; PORTA; PORTE, ADCTL and ADR1-ADR4. None for every
    /// other address. Due events must have been serviced (as after every
    /// step's tick). The machine's poll-loop skip reads through this
    /// ([`crate::machine`]); as `read_io` dispatches.
    pub(crate) fn quiet_read(&self, addr: u16) -> Option<(u8, Option<InputKind>)> {
        if self.reads_direct(addr) {
            return Some((self.mem[addr as usize], None));
        }
        let now = self.now;
        let reg = addr.wrapping_sub(self.map.reg_base);
        if self.map.is_register(addr) {
            return match reg {
                0x29 => self.spi.quiet_status(now).map(|v| (v, None)),
                0x2E => {
                    let poll = self.sci.receiver_enabled().then_some(InputKind::Serial);
                    self.sci.quiet_status(now).map(|v| (v, poll))
                }
                ports::addr::PORTA => Some((self.timer.porta(), Some(InputKind::PortA))),
                ports::addr::PORTE | 0x30..=0x34 => {
                    Some((self.peek_io(addr), Some(InputKind::Analog)))
                }
                _ => None,
            };
        }
        match self.kind_below_registers(addr) {
            Kind::Pio if self.pio_register(addr) == pio::PIO_B && self.setup.config.keys => {
                Some((self.pio.peek(pio::PIO_B, now), Some(InputKind::Keys)))
            }
            _ => None,
        }
    }

    /// True if every byte of the 64-byte block `b` ($40 * b on) is RAM
    /// ([`Board::is_ram`]); false may still be RAM byte by byte.
    pub(crate) fn block_is_ram(&self, b: usize) -> bool {
        self.map.block_is_ram(b)
    }

    /// True if `addr` is RAM (not a register, the PIO, ROM or EEPROM): the
    /// bytes [`Board::set_watch`] can watch.
    pub(crate) fn is_ram(&self, addr: u16) -> bool {
        !self.map.is_register(addr) && self.kind_below_registers(addr) == Kind::Ram
    }

    /// Watches CPU accesses to RAM (see [`Board::is_ram`]), or stops
    /// watching (`None`): the bytes whose writes and whose reads are
    /// watched. Their 64-byte blocks leave the
    /// direct path for that kind of access; each watched access is logged
    /// ([`Board::watched_accesses`]) and asks for attention, so the step
    /// that made it leaves the machine's hot loop. The accesses themselves
    /// are the same either way.
    pub(crate) fn set_watch(&mut self, bits: Option<&WatchBits>) {
        match bits {
            Some(bits) => {
                let mut set = self
                    .watch
                    .on
                    .take()
                    .or_else(|| self.watch.spare.take())
                    .unwrap_or_else(|| {
                        Box::new(WatchSet {
                            bits: WatchBits::new(),
                            log: Vec::new(),
                        })
                    });
                // The debugger sets the same watch again before each run
                // (every stop): then nothing is copied.
                if set.bits != *bits {
                    set.bits = bits.clone();
                }
                set.log.clear();
                let blocks = set.bits.block_bits();
                self.watch.on = Some(set);
                self.map.set_watch(Some(blocks));
            }
            None => {
                if let Some(set) = self.watch.on.take() {
                    self.watch.spare = Some(set);
                }
                self.map.set_watch(None);
            }
        }
    }

    /// The watched accesses since [`Board::clear_watched`] (none while
    /// nothing is watched).
    pub(crate) fn watched_accesses(&self) -> &[WatchedAccess] {
        self.watch.on.as_ref().map_or(&[], |w| &w.log)
    }

    /// Empties the log of watched accesses.
    pub(crate) fn clear_watched(&mut self) {
        if let Some(w) = &mut self.watch.on {
            w.log.clear();
        }
    }

    /// True if a read of the device register at `addr` returns the same
    /// until the next device event the machine's loop skips end before
    /// (whatever the loop reads) or a CPU write: [`Board::quiet_read`]'s
    /// registers but PORTA, whose pins the timer's events move (a skip of
    /// a loop that reads no timer register passes those).
    pub(crate) fn steady_read(&self, addr: u16) -> bool {
        !self.reads_timer(addr) && self.quiet_read(addr).is_some()
    }

    /// Notes a read of an input register at cycle `at` (the last of the
    /// reads a skipped poll loop made, [`Board::quiet_read`]).
    pub(crate) fn note_input_poll(&mut self, at: u64, kind: InputKind) {
        self.input_poll = Some((at, kind));
    }

    /// All device state a CPU read can change, as a value to compare. Reads
    /// change only these: SPSR arms the SPIF/WCOL clear, SPDR clears them
    /// when armed; SCSR arms the TDRE/TC and RDRF/OR clears, SCDR clears
    /// RDRF/OR when armed; a TCNT high-byte read fills the 16-bit read
    /// buffer, a low-byte read empties it; the IRQ line follows the flags.
    /// PIO and port reads have no side effect. So if this is equal before
    /// and after a stretch of code that wrote no register and crossed no
    /// device event, the devices are exactly as they were.
    pub fn read_effects(&self) -> ReadEffects {
        ReadEffects {
            spi: self.spi.read_state(),
            sci: self.sci.read_state(),
            tcnt_buffer: self.timer.read_state(),
            irq: self.irq,
        }
    }

    /// The cycle of the last output activity: a byte sent on the SPI or
    /// SCI (until its transfer ends), or a write that changed a port, PIO
    /// or control register (timer registers and COPRST do not count). A
    /// program polling in its main loop has none, one that draws or prints
    /// has. The key-script runner settles on this.
    pub fn last_activity(&self) -> u64 {
        self.last_activity
            .max(self.spi.busy_until())
            .max(self.sci.busy_until())
    }

    /// The cycle and kind of the program's last read of an input register
    /// (the keys on PIO_B, SCSR while the receiver is on): a program that
    /// reads one while it writes nothing is waiting for input.
    pub fn last_input_poll(&self) -> Option<(u64, InputKind)> {
        self.input_poll
    }

    /// Moves the last input poll `by` cycles later if it happened at or after
    /// `since`: the fast-forward skips whole loop iterations, each of which
    /// polls at the same offset, so the last poll moves with them.
    pub(crate) fn shift_input_poll(&mut self, since: u64, by: u64) {
        if let Some((t, kind)) = self.input_poll {
            if t >= since {
                self.input_poll = Some((t + by, kind));
            }
        }
    }

    /// True if an I-maskable interrupt can become pending: the IRQ pin is
    /// asserted or a device (timer, SPI, SCI) has an interrupt enabled.
    pub fn can_interrupt(&self) -> bool {
        self.irq_pin
            || self.irq_edge
            || !self.pin_schedule.is_empty()
            || self.timer.interrupts_enabled()
            || self.spi.interrupts_enabled()
            || self.sci.interrupts_enabled()
    }

    /// Sets analog input ANn (`channel` 0..=7) to `millivolts` from now on
    /// (a potentiometer or a script's `analog:` action); conversions that
    /// ended before keep the old value. Other channels are ignored.
    pub fn set_analog(&mut self, channel: u8, millivolts: u32) {
        self.catch_up();
        self.adc.set_input(channel, millivolts, self.now);
        self.service();
    }

    /// Does what the lab bench does to the pins (a voltage, a signal
    /// generator, a level, the IRQ/XIRQ pins) from this cycle on.
    pub fn apply_bench(&mut self, action: &bench::BenchAction) {
        self.catch_up();
        self.apply_bench_now(action);
        self.service();
    }

    /// Drives the IRQ (`line` Irq) or XIRQ pin `low` (asserted) or high
    /// from cycle `at` on (`run --irq low@N`): the change is a device event,
    /// so the first instruction boundary at or after `at` sees it.
    pub fn schedule_pin(&mut self, at: u64, line: bench::IrqLine, low: bool) {
        let i = self.pin_schedule.partition_point(|(t, _, _)| *t <= at);
        self.pin_schedule.insert(i, (at, line, low));
        self.next_event = self.next_event.min(at);
        self.next_other_event = self.next_other_event.min(at);
        self.next_not_spi = (self.next_not_spi.0.min(at), self.next_not_spi.1.min(at));
    }

    fn set_irq_level(&mut self, low: bool) {
        let irqe = self.ports.peek(ports::addr::OPTION, self.now) & ports::OPTION_IRQE != 0;
        if low && !self.irq_pin && irqe {
            // A falling edge: latched until the vector fetch.
            self.irq_edge = true;
            self.map.watch_vector_page();
        }
        self.irq_pin = low;
    }

    fn apply_bench_now(&mut self, action: &bench::BenchAction) {
        use bench::{BenchAction, Drive, IrqLine, SignalSpec, Square};
        let now = self.now;
        match *action {
            BenchAction::Analog {
                channel,
                millivolts,
            } => self.adc.set_input(channel, millivolts, now),
            BenchAction::Signal { pin, spec } => {
                let drive = match spec {
                    SignalSpec::Off => Drive::Open,
                    SignalSpec::Square {
                        millihertz,
                        duty_percent,
                    } => Drive::Square(Square {
                        millihertz,
                        duty_percent,
                        start: now,
                    }),
                };
                self.timer.set_input(pin.index(), drive, now);
            }
            BenchAction::Pin { pin, high } => {
                self.timer.set_input(pin.index(), Drive::Level(high), now)
            }
            BenchAction::Irq { line, low } => match line {
                IrqLine::Irq => self.set_irq_level(low),
                IrqLine::Xirq => self.xirq_pin = low,
            },
            BenchAction::IrqAt { line, low, at } => self.schedule_pin(at, line, low),
        }
    }

    /// True if the XIRQ pin is to be pulled low at a later cycle (so a
    /// program waiting with X clear is not halted).
    pub fn xirq_scheduled(&self) -> bool {
        self.pin_schedule
            .iter()
            .any(|&(_, line, low)| low && line == bench::IrqLine::Xirq)
    }

    /// Sets the CONFIG EEPROM cell (as a programmer would); like on the chip
    /// it takes effect at the next reset. NOCOP = 0 ($08) turns the COP on.
    pub fn set_config_cell(&mut self, value: u8) {
        self.config_cell = value;
    }

    /// The CONFIG EEPROM cell.
    pub fn config_cell(&self) -> u8 {
        self.config_cell
    }

    /// The cycle the COP watchdog times out (`u64::MAX` if it is off).
    pub fn cop_deadline(&self) -> u64 {
        self.cop
            .deadline(self.ports.peek(ports::addr::OPTION, self.now) & 0x03)
    }

    /// True if OPTION's CME bit (clock monitor enable, bit 3) is set.
    pub fn clock_monitor_enabled(&self) -> bool {
        self.ports.peek(ports::addr::OPTION, self.now) & ports::OPTION_CME != 0
    }

    /// The cycle of the program's last completed $55/$AA clear since reset.
    pub fn cop_last_feed(&self) -> Option<u64> {
        self.cop.last_feed()
    }

    /// Logs the changes of port A bits `mask` from now on (`--trace-pin`),
    /// starting with their levels now.
    pub fn trace_pins(&mut self, mask: u8) {
        self.catch_up();
        self.timer.trace_pins(mask, self.now);
    }

    /// The logged port A pin changes, oldest first.
    pub fn pin_trace(&self) -> &[timer::PinEdge] {
        self.timer.pin_trace()
    }

    /// The port A bits the pin trace logs now (`--trace-pin`, the board's
    /// `trace`, the GUI's analyser).
    pub fn trace_mask(&self) -> u8 {
        self.timer.trace_mask()
    }

    /// True if the IRQ pin is driven low (asserted) from outside.
    pub fn irq_pin_low(&self) -> bool {
        self.irq_pin
    }

    /// True if the XIRQ pin is driven low (asserted) from outside.
    pub fn xirq_pin_low(&self) -> bool {
        self.xirq_pin
    }

    /// How many of the oldest traced changes were dropped to keep the trace
    /// within [`timer::MAX_TRACE_EDGES`].
    pub fn pin_trace_dropped(&self) -> u64 {
        self.timer.pin_trace_dropped()
    }

    /// The board's LEDs (its file's `[[led]]`) as port A's pins light them now.
    pub fn led_states(&self) -> Vec<parts::LedState> {
        self.setup
            .config
            .parts
            .led_states(self.timer.porta_at(self.now))
    }

    /// The voltage on ANn in millivolts (`None` for channels past 7).
    pub fn analog(&self, channel: u8) -> Option<u32> {
        self.adc.input(channel)
    }

    /// The A/D converter.
    pub fn adc(&self) -> &Adc {
        &self.adc
    }

    /// Serial bytes queued for the receiver that have not arrived yet.
    pub fn serial_rx_pending(&self) -> usize {
        self.sci.rx_pending()
    }

    /// True if a bus fault is waiting to be taken.
    #[inline]
    pub fn has_fault(&self) -> bool {
        self.fault.is_some()
    }

    /// Takes the first bus fault since the last call, if any.
    pub fn take_fault(&mut self) -> Option<BusFault> {
        self.fault.take()
    }

    /// How many bus faults happened since power-on.
    pub fn fault_count(&self) -> u64 {
        self.fault_count
    }

    /// Presses (`true`) or releases key `n` (0..=7); other numbers are ignored.
    pub fn set_key(&mut self, n: u8, pressed: bool) {
        self.pio.set_key(n, pressed);
    }

    /// The pressed keys, bit n = key n.
    pub fn keys(&self) -> u8 {
        self.pio.keys()
    }

    /// Drives the IRQ pin (true = asserted); nothing on the trainer11 drives it.
    pub fn set_irq_pin(&mut self, asserted: bool) {
        self.set_irq_level(asserted);
        self.update_irq();
    }

    /// Drives the XIRQ pin (true = asserted).
    pub fn set_xirq_pin(&mut self, asserted: bool) {
        self.xirq_pin = asserted;
    }

    /// Queues bytes to arrive on the SCI receiver (RxD), one frame after another.
    pub fn feed_serial(&mut self, bytes: &[u8]) {
        self.sci.feed(bytes, self.now);
        self.service();
    }

    /// The LCD controller.
    pub fn lcd(&self) -> &Lcd {
        &self.lcd
    }

    /// The SCI (serial output log).
    pub fn sci(&self) -> &Sci {
        &self.sci
    }

    /// The SPI.
    pub fn spi(&self) -> &Spi {
        &self.spi
    }

    /// The PIO with the keys.
    pub fn pio(&self) -> &Pio {
        &self.pio
    }

    /// The port and system registers.
    pub fn ports(&self) -> &Ports {
        &self.ports
    }

    /// The main timer.
    pub fn timer(&self) -> &Timer {
        &self.timer
    }

    /// What the SPI sent where.
    pub fn spi_traffic(&self) -> SpiTraffic {
        self.spi_traffic
    }

    /// Everything the SCI transmitted, as text (each byte one Latin-1 char).
    pub fn serial_text(&self) -> String {
        self.sci.text()
    }

    /// Peeks `len` bytes from `addr` on (wrapping at $FFFF), no side effects.
    pub fn peek_range(&self, addr: u16, len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| self.peek(addr.wrapping_add(i as u16)))
            .collect()
    }

    /// All register views: on-chip registers by address, then the PIO, then
    /// the LCD controller's internal state.
    pub fn registers(&self) -> Vec<RegisterInfo> {
        let now = self.now;
        let base = self.map.reg_base;
        let mut v = self.ports.registers(now);
        let pins = self.timer.porta_at(now);
        for r in v.iter_mut() {
            match r.address {
                Some(ports::addr::PORTA) => {
                    r.value = pins as u16;
                    r.meaning = format!(
                        "pins %{pins:08b}; PA6={} (LCD backlight {})",
                        (pins >> 6) & 1,
                        if pins & ports::PORTA_BACKLIGHT_OFF == 0 {
                            "on"
                        } else {
                            "off"
                        }
                    );
                }
                Some(ports::addr::PORTE) => {
                    r.value = self.adc.port_e() as u16;
                    r.meaning = format!("pins %{:08b}", self.adc.port_e());
                }
                _ => {}
            }
        }
        v.extend(self.adc.registers(now));
        v.extend(self.timer.registers(now));
        v.extend(self.spi.registers(now));
        v.extend(self.sci.registers(now));
        v.sort_by_key(|r| r.address);
        for r in v.iter_mut() {
            r.address = r.address.map(|a| a.wrapping_add(base));
        }
        if let Some(pio_base) = self.setup.config.pio {
            let mut p = self.pio.registers(now);
            for r in p.iter_mut() {
                r.address = r
                    .address
                    .map(|a| a.wrapping_sub(PIO_BASE).wrapping_add(pio_base));
            }
            v.extend(p);
        }
        if self.setup.config.lcd.is_some() {
            v.extend(self.lcd.registers());
        }
        v
    }

    fn service(&mut self) {
        let now = self.now;
        while let Some(&(at, line, low)) = self.pin_schedule.first() {
            if at > now {
                break;
            }
            self.pin_schedule.remove(0);
            self.apply_bench_now(&bench::BenchAction::Irq { line, low });
        }
        // Only a device with an event due needs its tick (the SPI's byte
        // ends are most events; the others' ticks would return these).
        let timer = match self.timer.next_due() {
            due if due <= now => self.timer.tick(now),
            due => due,
        };
        let mut next = u64::MAX;
        if let Some(&(at, _, _)) = self.pin_schedule.first() {
            next = next.min(at);
        }
        next = next.min(self.adc.next_event(now));
        let spi = self.spi.tick(now);
        if let Some(byte) = self.spi.take_completed() {
            self.route_spi(byte);
        }
        next = next.min(match self.sci.next_due() {
            due if due <= now => self.sci.tick(now),
            due => due,
        });
        self.next_not_spi = (next.min(timer), next);
        self.next_other_event = next.min(spi);
        self.next_event = next.min(spi).min(timer);
        // PORTA bit 6 low lights the backlight, whoever drives the pin.
        self.lcd
            .set_backlight(self.timer.porta() & ports::PORTA_BACKLIGHT_OFF == 0);
        self.update_irq();
    }

    /// Delivers a finished SPI byte to the slave the PIO selects, with A0
    /// (PORTD bit 5) as it is at the end of the byte.
    fn route_spi(&mut self, byte: u8) {
        let select = self.pio.spi_select();
        match self.setup.config.lcd {
            Some(l) if self.setup.config.pio.is_some() && select == l.select => {
                self.spi_traffic.lcd += 1;
                let a0 = self.ports.lcd_a0();
                self.lcd.receive(byte, a0, self.now);
            }
            _ => {
                let slot = (select as usize).checked_sub(1);
                if let Some(c) = slot.and_then(|i| self.spi_traffic.other.get_mut(i)) {
                    *c += 1;
                }
            }
        }
    }

    fn update_irq(&mut self) {
        // IRQE decides which of the two counts; mostly neither is set.
        let pin = (self.irq_pin || self.irq_edge)
            && if self.ports.peek(ports::addr::OPTION, self.now) & ports::OPTION_IRQE != 0 {
                self.irq_edge
            } else {
                self.irq_pin
            };
        self.irq = if pin {
            Some(0xFFF2)
        } else {
            self.timer
                .irq_vector()
                .or_else(|| self.spi.irq_vector())
                .or_else(|| self.sci.irq_vector())
        };
    }

    #[inline]
    fn catch_up(&mut self) {
        if self.now >= self.next_event {
            self.service_due();
        }
    }

    /// Services the devices with an event due now, after time passed (not
    /// after a change to a device, which needs [`Board::service`]): the
    /// SPI alone when only it can be due, which is most times.
    #[inline]
    fn service_due(&mut self) {
        if self.now < self.next_not_spi.0 {
            self.service_spi();
        } else {
            self.service();
        }
    }

    /// [`Board::service`] with no other device due: nothing but the SPI's
    /// state, the slave's byte and the IRQ can change (the backlight
    /// follows PORTA, which only timer events and writes change), and the
    /// IRQ only if the SPI may interrupt (every other source changes only
    /// at its own events or a write, both of which update it).
    #[inline(never)]
    fn service_spi(&mut self) {
        let spi = self.spi.tick(self.now);
        if let Some(byte) = self.spi.take_completed() {
            self.route_spi(byte);
        }
        self.next_other_event = self.next_not_spi.1.min(spi);
        self.next_event = self.next_not_spi.0.min(spi);
        if self.spi.interrupts_enabled() {
            self.update_irq();
        }
    }

    /// The eight bytes from `pc` as [`Bus::code`] gives them (`pc` where
    /// [`MemoryMap::code_direct`] holds).
    #[inline(always)]
    fn code_at(&self, pc: u16) -> u64 {
        let at = pc as usize;
        let mut bytes = [0u8; CODE_PAD];
        bytes.copy_from_slice(&self.mem[at..at + CODE_PAD]);
        u64::from_be_bytes(bytes)
    }

    /// [`Bus::fetch`] where the next page is not direct: the instruction
    /// may still lie in this one, else it is read byte by byte. Cold, so
    /// that the hot loops' fetch runs straight into the dispatch.
    #[cold]
    #[inline(never)]
    fn fetch_cold(&mut self, pc: u16) -> u64 {
        if self.map.code_direct_in_page(pc) {
            self.code_at(pc)
        } else {
            crate::cpu::core::fetch_code(self, pc)
        }
    }

    /// The PIO data port (0 A, 1 B, 2 C) a CPU access of `abs` reaches,
    /// if one does (the register block and the internal RAM come first).
    #[inline(always)]
    fn pio_port_at(&self, abs: u16) -> Option<usize> {
        let base = self.map.pio?;
        let r = abs.wrapping_sub(base);
        (r < 3 && !self.map.is_register(abs) && !self.map.is_internal_ram(abs))
            .then_some(r as usize)
    }

    /// A read that is not plain memory. The accesses of an LCD byte (the
    /// PIO's port C, PORTD, SPSR and SPDR) are answered here; the rest in
    /// [`Board::read_io_rest`], so this function stays small enough to need
    /// no saved registers on those paths.
    #[inline(never)]
    fn read_io(&mut self, abs: u16) -> u8 {
        self.catch_up();
        let now = self.now;
        let addr = abs.wrapping_sub(self.map.reg_base);
        match addr {
            // SPCR and SPSR: a read only arms the SPIF clear (events due
            // were serviced above), which no interrupt looks at.
            0x28 | 0x29 => return self.spi.read(addr, now),
            // SPDR: clears SPIF (after SPSR was read with it set), which
            // the IRQ looks at if the SPI may interrupt.
            0x2A => {
                let v = self.spi.read(addr, now);
                if self.spi.interrupts_enabled() {
                    self.update_irq();
                }
                return v;
            }
            ports::addr::PORTD => return self.ports.port_d_pins(),
            _ => {}
        }
        // A data port, but not the keys: their read is an input poll, which
        // `read_io_rest` notes (and `Board::quiet_read` knows).
        match self.pio_port_at(abs) {
            Some(p) if p != 1 || !self.setup.config.keys => self.pio.port(p),
            _ => self.read_io_rest(abs),
        }
    }

    // `Board::quiet_read` knows the same input registers (the poll-loop
    // skip's side-effect-free read): a change here belongs there too.
    #[inline(never)]
    fn read_io_rest(&mut self, abs: u16) -> u8 {
        let now = self.now;
        let addr = abs.wrapping_sub(self.map.reg_base);
        // Only a read of the timer, SPI or SCI block (SPSR then SPDR clears
        // SPIF, say) or the IRQ vector fetch can change what `update_irq`
        // looks at: the pins, OPTION and those three devices' flags.
        // Due events were serviced (and the IRQ updated) by `catch_up`.
        match addr {
            // (SPCR, SPSR and SPDR are `read_io`'s; here for completeness.)
            0x0B..=0x2F => {
                let v = match addr {
                    0x0B..=0x27 => self.timer.read(addr, now),
                    0x28..=0x2A => self.spi.read(addr, now),
                    _ => {
                        if addr == 0x2E && self.sci.receiver_enabled() {
                            self.input_poll = Some((now, InputKind::Serial));
                        }
                        self.sci.read(addr, now)
                    }
                };
                self.update_irq();
                v
            }
            0x0000..=0x003F => match addr {
                ports::addr::PPROG => self.eeprom.pprog(),
                ports::addr::PORTA => {
                    self.input_poll = Some((now, InputKind::PortA));
                    self.timer.porta()
                }
                ports::addr::PORTE | 0x30..=0x34 => {
                    self.input_poll = Some((now, InputKind::Analog));
                    // `peek_io` takes the absolute address, as the bus sees it.
                    self.peek_io(abs)
                }
                _ => self.ports.read(addr, now),
            },
            // A watched block of RAM: the memory as the direct path reads
            // it, and the watch's log (without the lookups below).
            _ if self.map.direct_but_for_watch(abs, false) => {
                let v = self.mem[abs as usize];
                self.log_watched(abs, v, false);
                v
            }
            _ => match self.kind_below_registers(abs) {
                Kind::Pio => {
                    let reg = self.pio_register(abs);
                    if reg == pio::PIO_B && self.setup.config.keys {
                        self.input_poll = Some((now, InputKind::Keys));
                    }
                    self.pio.read(reg, now)
                }
                kind => {
                    if self.map.vector_watch && (abs == IRQ_VECTOR || abs == IRQ_VECTOR + 1) {
                        // The IRQ vector fetch clears the edge latch.
                        self.irq_edge = false;
                        self.map.vector_watch = false;
                        self.map.rebuild(&self.setup.config);
                        self.update_irq();
                    }
                    let v = self.peek_memory(abs);
                    // Watched blocks come here (plain RAM otherwise is read
                    // straight from memory).
                    if kind == Kind::Ram && self.watch.on.is_some() {
                        self.log_watched(abs, v, false);
                    }
                    v
                }
            },
        }
    }

    /// What answers at `abs` (not a register): the PIO is tried right after
    /// the internal RAM, since programs poll it (keys) all the time.
    #[inline]
    fn kind_below_registers(&self, abs: u16) -> Kind {
        if let Some(base) = self.map.pio {
            if abs.wrapping_sub(base) < 4 && !self.map.is_internal_ram(abs) {
                return Kind::Pio;
            }
        }
        self.map.kind_at(&self.setup.config, abs)
    }

    /// The PIO register (as [`Pio`] numbers them, $8000-$8003) at `abs`.
    fn pio_register(&self, abs: u16) -> u16 {
        pio::PIO_A + abs.wrapping_sub(self.setup.config.pio.unwrap_or(PIO_BASE))
    }

    /// A read of memory below the registers (not a device).
    fn peek_memory(&self, abs: u16) -> u8 {
        match self.kind_below_registers(abs) {
            Kind::Ram | Kind::Rom => self.mem[abs as usize],
            Kind::Eeprom if !self.map.eeprom_latched => self.mem[abs as usize],
            Kind::Pio => self.pio.peek(self.pio_register(abs), self.now),
            Kind::Eeprom | Kind::Unmapped => UNMAPPED_READ,
        }
    }

    /// Does a finished EEPROM operation to the array or the CONFIG cell.
    fn apply_eeprom(&mut self, op: eeprom::Operation) {
        let config_addr = self.map.reg_base + ports::addr::CONFIG;
        let array = self.map.eeprom;
        match op {
            eeprom::Operation::Program { addr, data } => {
                if addr == config_addr {
                    // The A8's CONFIG has four cells (bits 3-0).
                    self.config_cell &= data | 0xF0;
                } else if array.is_some_and(|r| r.contains(addr)) {
                    self.mem[addr as usize] &= data;
                }
            }
            eeprom::Operation::Erase { start, end, config } => {
                if config {
                    self.config_cell |= 0x0F;
                }
                if let Some(r) = array {
                    for a in start.max(r.start)..=end.min(r.end) {
                        self.mem[a as usize] = 0xFF;
                    }
                }
            }
        }
    }

    /// A write that is not plain memory. The PIO's data latches are
    /// answered here, the rest in [`Board::write_io_rest`] (see
    /// [`Board::read_io`]).
    #[inline(never)]
    fn write_io(&mut self, abs: u16, value: u8) {
        self.catch_up();
        // The PIO starts no transfer and raises no interrupt: no device's
        // next event or IRQ can change (the SPI reads the slave select when
        // a byte completes). A changed latch is activity.
        if let Some(p) = self.pio_port_at(abs) {
            if self.pio.write_latch(p, value) {
                self.last_activity = self.now;
            }
            return;
        }
        let now = self.now;
        let addr = abs.wrapping_sub(self.map.reg_base);
        // The data ports B, C and D and their direction registers are plain
        // latches: no device's next event or IRQ depends on them (the LCD
        // takes A0 from PORTD when a byte completes, and due events were
        // serviced above). A change is activity.
        if matches!(
            addr,
            ports::addr::PORTB
                | ports::addr::PORTC
                | ports::addr::PORTD
                | ports::addr::DDRC
                | ports::addr::DDRD
        ) {
            let before = self.ports.peek(addr, now);
            self.ports.write(addr, value, now);
            if self.ports.peek(addr, now) != before {
                self.last_activity = now;
            }
            return;
        }
        if (0x28..=0x2A).contains(&addr) {
            self.write_spi(addr, value);
            return;
        }
        self.write_io_rest(abs, value)
    }

    /// An access to a RAM byte in a watched block ([`Board::set_watch`]):
    /// logged if the byte is watched for it, with a request for attention,
    /// so the machine's hot loop leaves its stretch after this step
    /// (`Bus::attention`). `value` is the byte written or read.
    #[cold]
    #[inline(never)]
    fn log_watched(&mut self, addr: u16, value: u8, write: bool) {
        let old = self.mem[addr as usize];
        if let Some(w) = &mut self.watch.on {
            let watched = if write {
                w.bits.watches_write(addr)
            } else {
                w.bits.watches_read(addr)
            };
            if watched {
                w.log.push(WatchedAccess {
                    addr,
                    old,
                    value,
                    write,
                });
                self.next_event = 0;
            }
        }
    }

    /// A write of SPCR, SPSR or SPDR (`addr` in the register block). SPDR
    /// is output, so activity; the other two are when they change (as in
    /// [`Board::write_io_rest`]). It can start a transfer (a new event) and
    /// clear SPIF (the IRQ, if SPIE lets the SPI interrupt: a write of SPDR
    /// leaves SPIE as it is), nothing else: no transfer is due now (due
    /// events were serviced), none is cancelled or moved later, and no
    /// other device's event depends on the SPI.
    #[inline]
    fn write_spi(&mut self, addr: u16, value: u8) {
        let now = self.now;
        let before = (addr != ACTIVITY_SPDR).then(|| self.spi.peek(addr, now));
        self.spi.write(addr, value, now);
        if before.is_none_or(|b| self.spi.peek(addr, now) != b) {
            self.last_activity = now;
        }
        let spi = self.spi.tick(now);
        self.next_event = self.next_event.min(spi);
        self.next_other_event = self.next_other_event.min(spi);
        if addr != ACTIVITY_SPDR || self.spi.interrupts_enabled() {
            self.update_irq();
        }
    }

    #[inline(never)]
    fn write_io_rest(&mut self, abs: u16, value: u8) {
        let now = self.now;
        let addr = abs.wrapping_sub(self.map.reg_base);
        match addr {
            0x0000..=0x003F => {
                // Output (SPDR, SCDR) and any change of a port or control
                // register is activity; the timer block, COPRST and ADCTL
                // are not: an interrupt handler clearing TFLG2, a main loop
                // feeding the COP or starting the next A/D conversion (which
                // clears CCF) changes nothing anyone sees. Only the rest
                // needs the register's value before and after.
                let output = addr == ACTIVITY_SPDR || addr == ACTIVITY_SCDR;
                let quiet_kind = (0x0B..=0x27).contains(&addr)
                    || addr == ports::addr::COPRST
                    || addr == adc::ADCTL;
                let before = (!output && !quiet_kind).then(|| self.peek_io(abs));
                match addr {
                    ports::addr::PPROG => {
                        let array = self.map.eeprom.map(|r| (r.start, r.end));
                        let config = self.map.reg_base + ports::addr::CONFIG;
                        let op = self.eeprom.write_pprog(value, now, array, config);
                        self.ports.write(addr, self.eeprom.pprog(), now);
                        if let Some(op) = op {
                            self.apply_eeprom(op);
                        }
                        if self.eeprom.latched() != self.map.eeprom_latched {
                            self.map.eeprom_latched = self.eeprom.latched();
                            self.map.rebuild(&self.setup.config);
                        }
                    }
                    ports::addr::CONFIG => self.eeprom.store(abs, value),
                    ports::addr::INIT => {
                        let old = self.ports.peek(addr, now);
                        self.ports.write(addr, value, now);
                        let init = self.ports.peek(addr, now);
                        if init != old {
                            self.remap(init);
                        }
                    }
                    0x0B..=0x27 => self.timer.write(addr, value, now),
                    // `write_io` took the SPI's registers.
                    0x2B..=0x2F => self.sci.write(addr, value, now),
                    adc::ADCTL => self.adc.write(addr, value, now),
                    ports::addr::COPRST => {
                        self.cop.write(value, now);
                    }
                    _ => {
                        self.ports.write(addr, value, now);
                        if addr == ports::addr::PORTA {
                            self.timer.write_porta(value, now);
                        }
                        if addr == ports::addr::OPTION {
                            let adpu = self.ports.peek(addr, now) & ports::OPTION_ADPU != 0;
                            self.adc.set_powered(adpu, now);
                        }
                    }
                }
                if output || before.is_some_and(|b| self.peek_io(abs) != b) {
                    self.last_activity = now;
                }
            }
            // A watched block of RAM: the store as the direct path makes
            // it, and the watch's log.
            _ if self.map.direct_but_for_watch(abs, true) => {
                self.log_watched(abs, value, true);
                self.mem[abs as usize] = value;
                return;
            }
            _ => match self.kind_below_registers(abs) {
                Kind::Ram => {
                    // Watched blocks come here (plain RAM otherwise
                    // goes straight to memory).
                    if self.watch.on.is_some() {
                        self.log_watched(abs, value, true);
                    }
                    self.mem[abs as usize] = value;
                    return;
                }
                Kind::Rom => {
                    self.record_fault(BusFault::RomWrite {
                        addr: abs,
                        value,
                        cycle: now,
                    });
                    return;
                }
                // Without the PPROG sequence a store does nothing (RM 4.4).
                Kind::Eeprom => {
                    self.eeprom.store(abs, value);
                    return;
                }
                Kind::Pio => {
                    let before = self.pio.clone();
                    self.pio.write(self.pio_register(abs), value, now);
                    if self.pio != before {
                        self.last_activity = now;
                    }
                    // The PIO starts no transfer and raises no interrupt:
                    // no device's next event or IRQ can change (the SPI
                    // reads the slave select when a byte completes).
                    return;
                }
                Kind::Unmapped => {
                    self.record_fault(BusFault::UnmappedWrite {
                        addr: abs,
                        value,
                        cycle: now,
                    });
                    return;
                }
            },
        }
        // A write may start a transfer or change an interrupt enable.
        self.service();
    }

    fn record_fault(&mut self, fault: BusFault) {
        self.fault_count += 1;
        // The debugger's quick stretch looks for a fault only when time
        // reaches an event (`Board::due_after`): this step's tick must.
        self.next_event = 0;
        if self.fault.is_none() {
            self.fault = Some(fault);
        }
    }

    fn peek_io(&self, abs: u16) -> u8 {
        // Events due but not yet serviced are shown as if serviced: peek on a
        // clone would be too slow for views, so devices fold `now` in.
        let now = self.now;
        let addr = abs.wrapping_sub(self.map.reg_base);
        match addr {
            0x0000..=0x003F => match addr {
                ports::addr::PPROG => self.eeprom.pprog(),
                0x0B..=0x27 => self.timer.peek(addr, now),
                0x28..=0x2A => self.spi.peek(addr, now),
                0x2B..=0x2F => self.sci.peek(addr, now),
                ports::addr::PORTA => self.timer.porta_at(now),
                ports::addr::PORTE => self.adc.port_e(),
                0x30..=0x34 => self.adc.read(addr, now),
                _ => self.ports.peek(addr, now),
            },
            _ => self.peek_memory(abs),
        }
    }
}

impl Board {
    /// True if a read of `addr` goes straight to memory: not the register
    /// block and a page of one readable kind (see [`map`]). Those bytes no
    /// device event changes (unlike the registers, the PIO and anything
    /// else behind `read_io`).
    #[inline(always)]
    pub(crate) fn reads_direct(&self, addr: u16) -> bool {
        self.map.reads_direct(addr)
    }

    /// True if a read of `addr` returns the byte in memory and nothing
    /// else: the direct path's bytes, and RAM a watch took off it (only
    /// to log the access, [`Board::set_watch`]).
    pub(crate) fn reads_memory(&self, addr: u16) -> bool {
        self.reads_direct(addr) || self.is_plain_ram(addr)
    }
}

impl Bus for Board {
    // Always inlined into the CPU's step: the fast path is one page-table
    // load and a test; everything else is the out-of-line `read_io`.
    #[inline(always)]
    fn read(&mut self, addr: u16) -> u8 {
        if self.reads_direct(addr) {
            self.mem[addr as usize]
        } else {
            self.read_io(addr)
        }
    }

    #[inline]
    fn peek(&self, addr: u16) -> u8 {
        if self.reads_direct(addr) {
            self.mem[addr as usize]
        } else {
            self.peek_io(addr)
        }
    }

    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        if self.map.writes_direct(addr) {
            self.mem[addr as usize] = value;
        } else {
            self.write_io(addr, value);
        }
    }

    #[inline(always)]
    fn code(&self, pc: u16) -> Option<u64> {
        self.map.code_direct(pc).then(|| self.code_at(pc))
    }

    #[inline(always)]
    fn fetch(&mut self, pc: u16) -> u64 {
        if self.map.code_direct_hot(pc) {
            self.code_at(pc)
        } else {
            self.fetch_cold(pc)
        }
    }

    #[inline]
    fn irq_vector(&self) -> Option<u16> {
        self.irq
    }

    /// Servicing the devices again changes nothing but makes the step one
    /// that serviced (`Board::due_after`).
    #[inline]
    fn attention(&mut self) {
        self.next_event = 0;
    }

    #[inline]
    fn xirq(&self) -> bool {
        self.xirq_pin
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SPI bytes back to back while the timer toggles OC2 and the A/D
    /// scans: the board that services the SPI alone when only it is due
    /// (`service_due`) equals, cycle by cycle, one that runs the full
    /// service at every due event.
    #[test]
    fn the_spi_alone_is_serviced_as_the_full_service_would() {
        let mut a = Board::new();
        a.write(0x39, 0x80); // OPTION.ADPU
        a.write(0x30, 0x20); // ADCTL: SCAN of AN0
        a.write(0x16, 0x00); // TOC1 = $0080, TOC2 = $0133 (OC2 toggles PA6)
        a.write(0x17, 0x80);
        a.write(0x18, 0x01);
        a.write(0x19, 0x33);
        a.write(0x20, 0x40); // TCTL1: OC2 toggles
        a.write(0x28, spi::spcr::SPE | spi::spcr::MSTR); // E/2
        a.write(0x2A, 0x55);
        let mut b = a.clone();
        let mut next = 0u8;
        for _ in 0..40_000 {
            a.tick(1);
            b.now += 1;
            if b.now >= b.next_event {
                b.service();
            }
            for board in [&mut a, &mut b] {
                if board.peek(0x29) & 0x80 != 0 {
                    board.read(0x29);
                    board.read(0x2A);
                    board.write(0x2A, next);
                }
            }
            next = next.wrapping_add(1);
            assert!(a == b, "the boards differ at cycle {}", a.now());
        }
        let t = a.spi_traffic();
        assert!(t.other.iter().sum::<u64>() + t.lcd > 1000, "{t:?}");
    }

    /// The PIO's data ports answer at $8000-$8002 unless the internal RAM
    /// or the register block is moved over them (INIT), which win.
    #[test]
    fn the_internal_ram_and_the_registers_hide_the_pio() {
        let mut b = Board::new();
        b.write(0x8002, 0x3C);
        assert_eq!(b.read(0x8002), 0x3C, "port C's latch");
        // INIT $80: the internal RAM at $8000-$80FF.
        let mut ram = b.clone();
        ram.write(ports::addr::INIT, 0x80);
        ram.write(0x8002, 0xA5);
        assert_eq!(ram.read(0x8002), 0xA5);
        assert_eq!(ram.pio.port(2), 0x3C, "the store went to the RAM");
        // INIT $08: the registers at $8000-$803F ($8002 is PIOC).
        let mut regs = b.clone();
        regs.write(ports::addr::INIT, 0x08);
        regs.write(0x8002, 0x40);
        assert_eq!(regs.pio.port(2), 0x3C, "the store went to PIOC");
        assert_eq!(regs.read(0x8002), regs.ports.peek(ports::addr::PIOC, 0));
    }

    /// `block_is_ram` answers true only for blocks whose every byte is RAM
    /// (the watch's quick test), and for most of a board's RAM: on the
    /// trainer11 (PIO at $8000, RAM to $7FFF), with the registers and the
    /// internal RAM moved by INIT, and on the EVB (EEPROM, RAM at $C000).
    #[test]
    fn block_is_ram_only_where_every_byte_is_ram() {
        use config::{BoardConfig, BoardSetup};
        let mut boards = vec![
            Board::new(),
            Board::with_setup(&BoardSetup::new(BoardConfig::evb())),
        ];
        for init in [0x80, 0x08, 0x71] {
            let mut b = Board::new();
            b.write(ports::addr::INIT, init);
            boards.push(b);
        }
        for b in &boards {
            let mut whole = 0;
            for block in 0..1024usize {
                let all = (0..64).all(|i| b.is_ram(((block << 6) | i) as u16));
                assert!(
                    !b.block_is_ram(block) || all,
                    "block ${:04X} is not all RAM",
                    block << 6
                );
                whole += usize::from(b.block_is_ram(block));
            }
            assert!(whole >= 120, "{whole} blocks");
        }
    }

    /// `Bus::fetch`, which takes an instruction in one load where it can,
    /// gives the bytes the fetch through `Bus::read` gives, at every
    /// address: with the registers moved by INIT, across page ends before
    /// the PIO, the register block and $FFFF, and with watched blocks.
    #[test]
    fn fetch_gives_the_bytes_a_byte_by_byte_fetch_reads() {
        use crate::cpu::decode::Instruction;
        let mut b = Board::new();
        let mut seed = 0x9E37_79B9u32;
        let mut bytes = vec![0u8; 0x10000];
        for v in bytes.iter_mut() {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            *v = seed as u8;
        }
        b.load(0x0040, &bytes[0x0040..0x8000]).expect("RAM");
        b.load(0xC000, &bytes[0xC000..]).expect("ROM");
        for init in [0x00, 0x01, 0x7B] {
            let mut board = b.clone();
            board.write(ports::addr::INIT, init);
            for watched in [false, true] {
                if watched {
                    let mut bits = WatchBits::new();
                    bits.add(0x7F00, true, true);
                    board.set_watch(Some(&bits));
                }
                for pc in 0..=0xFFFFu16 {
                    let len = match Instruction::decode(pc, |a| board.peek(a)) {
                        Ok(i) => i.len(),
                        Err(e) => u16::from(e.len),
                    };
                    let keep = !0u64 << (64 - 8 * u32::from(len.min(8)));
                    let one = board.clone().fetch(pc) & keep;
                    let by_byte = crate::cpu::core::fetch_code(&mut board.clone(), pc) & keep;
                    assert_eq!(one, by_byte, "INIT ${init:02X}, watch {watched}: ${pc:04X}");
                }
            }
        }
    }

    /// SPIF with SPIE set raises the SPI's interrupt, and reading SPSR then
    /// SPDR takes it away again (the IRQ is brought up to date after the
    /// SPDR read); with SPIE clear SPIF raises none.
    #[test]
    fn the_spi_interrupt_follows_spif_only_with_spie() {
        for spie in [true, false] {
            let mut b = Board::new();
            let enable = if spie { spi::spcr::SPIE } else { 0 };
            b.write(0x28, spi::spcr::SPE | spi::spcr::MSTR | enable); // E/2
            b.write(0x2A, 0x55);
            assert_eq!(b.irq_vector(), None, "a transfer under way");
            for _ in 0..64 {
                b.tick(1);
            }
            assert!(b.peek(0x29) & 0x80 != 0, "SPIF is set");
            let raised = spie.then_some(0xFFD8);
            assert_eq!(b.irq_vector(), raised, "SPIE {spie}: after the byte");
            b.read(0x29);
            assert_eq!(b.irq_vector(), raised, "SPIE {spie}: SPSR read");
            b.read(0x2A);
            assert_eq!(b.irq_vector(), None, "SPIE {spie}: SPDR read clears SPIF");
            b.write(0x2A, 0xAA);
            assert_eq!(b.irq_vector(), None, "SPIE {spie}: the next byte");
        }
    }

    /// The debugger sets the watch before every run and takes it away
    /// after; a set that is the same as the last reuses its blocks, a
    /// different one takes its own: each run logs exactly its own bytes.
    #[test]
    fn a_watch_set_again_or_changed_logs_its_own_bytes() {
        let bits = |addrs: &[u16]| {
            let mut b = WatchBits::new();
            for &a in addrs {
                b.add(a, true, false);
            }
            b
        };
        let mut board = Board::new();
        for (writes, store, logged) in [
            (bits(&[0x0100]), 0x0100, true),
            (bits(&[0x0100]), 0x0100, true),
            (bits(&[0x2000]), 0x0100, false),
            (bits(&[0x2000]), 0x2000, true),
            (bits(&[0x0100, 0x2000]), 0x0100, true),
            (bits(&[]), 0x2000, false),
        ] {
            board.set_watch(Some(&writes));
            board.write(store, 0x5A);
            assert_eq!(
                board.watched_accesses().len(),
                usize::from(logged),
                "store to ${store:04X}"
            );
            board.set_watch(None);
            assert!(board.watched_accesses().is_empty());
        }
    }

    /// `is_device` answers as a search of `device_ranges` does, wherever
    /// INIT puts the registers (the default board with its PIO at $8000,
    /// and the EVB without one).
    #[test]
    fn is_device_follows_the_device_ranges() {
        let evb = crate::board::config::BoardSetup::new(crate::board::config::BoardConfig::evb());
        for (name, board) in [
            ("trainer11", Board::new()),
            ("evb", Board::with_setup(&evb)),
        ] {
            for init in [None, Some(0x08), Some(0x0F), Some(0x81)] {
                let mut b = board.clone();
                if let Some(v) = init {
                    b.write(b.register_base() + ports::addr::INIT, v);
                    assert_eq!(b.register_base(), u16::from(v & 0x0F) << 12, "{name}");
                }
                let ranges = b.device_ranges();
                for a in 0..=0xFFFFu16 {
                    let want = ranges.iter().any(|&(s, e)| (s..=e).contains(&a));
                    assert_eq!(b.is_device(a), want, "{name} INIT {init:?} ${a:04X}");
                }
            }
        }
    }

    #[test]
    fn starting_a_conversion_is_not_activity() {
        let mut b = Board::new();
        b.tick(100);
        let before = b.last_activity();
        b.write(0x30, 0x20); // ADCTL: start SCAN conversions of AN0
        assert_eq!(b.last_activity(), before);
        b.write(0x39, 0x80); // OPTION.ADPU: a control register changed
        assert!(b.last_activity() > before);
    }

    #[test]
    fn memory_map_ram_rom_unmapped() {
        let mut b = Board::new();
        b.write(0x0040, 0x12);
        b.write(0x7FFF, 0x34);
        assert_eq!(b.read(0x0040), 0x12);
        assert_eq!(b.read(0x7FFF), 0x34);
        assert_eq!(b.read(0x9000), 0xFF);
        assert_eq!(b.peek(0xBFFF), 0xFF);
        b.write(0x9000, 1);
        assert!(matches!(
            b.take_fault(),
            Some(BusFault::UnmappedWrite { addr: 0x9000, .. })
        ));
        assert!(b.take_fault().is_none());
    }

    #[test]
    fn rom_write_is_a_fault_and_not_stored() {
        let mut b = Board::new();
        b.load(0xC000, &[0xAA]).unwrap();
        b.write(0xC000, 0x55);
        assert_eq!(b.read(0xC000), 0xAA);
        assert_eq!(
            b.take_fault(),
            Some(BusFault::RomWrite {
                addr: 0xC000,
                value: 0x55,
                cycle: 0
            })
        );
        assert_eq!(b.fault_count(), 1);
    }

    #[test]
    fn load_refuses_registers_and_pio() {
        let mut b = Board::new();
        assert_eq!(b.load(0x0030, &[1]), Err(0x0030));
        assert_eq!(b.load(0x7FFF, &[1, 2]), Err(0x8000));
        assert_eq!(b.load(0xFFFF, &[1, 2]), Err(0x10000));
        assert!(b.load(0xFFFE, &[1, 2]).is_ok());
    }

    #[test]
    fn keys_read_on_pio_b_active_low() {
        let mut b = Board::new();
        assert_eq!(b.read(0x8001), 0xFF);
        b.set_key(0, true);
        b.set_key(4, true);
        assert_eq!(b.read(0x8001), 0b1110_1110);
        b.set_key(0, false);
        assert_eq!(b.read(0x8001), 0b1110_1111);
    }

    /// The firmware's LCDSend path: select the LCD on PIO_C, A0 on PORTD
    /// bit 5, SPDR write, poll SPSR, read SPDR.
    #[test]
    fn spi_byte_reaches_lcd_as_command_or_data() {
        let mut b = Board::new();
        b.write(0x08, 0x03); // PORTD
        b.write(0x09, 0x3A); // DDRD
        b.write(0x28, 0x52); // SPCR: SPE, MSTR, E/16
        let pc = b.read(0x8002) & 0x3F;
        b.write(0x8002, pc); // select the LCD
        b.write(0x2A, 0xAF); // display on, A0 = 0: command
        let mut polls = 0;
        while b.read(0x29) & 0x80 == 0 {
            b.tick(6);
            polls += 1;
            assert!(polls < 100);
        }
        assert!(b.now() >= 128);
        let _ = b.read(0x2A);
        assert_eq!(b.read(0x29) & 0x80, 0, "SPIF cleared by SPSR, SPDR");
        assert!(b.lcd().display_on());
        // Data byte at page 0, column 0.
        b.write(0x08, 0x23);
        b.write(0x2A, 0x81);
        b.tick(200);
        assert_eq!(b.lcd().ram(0, 0), 0x81);
        assert_eq!(b.spi_traffic().lcd, 2);
    }

    #[test]
    fn deselected_lcd_gets_nothing() {
        let mut b = Board::new();
        b.write(0x09, 0x3A);
        b.write(0x08, 0x20);
        b.write(0x28, 0x52);
        b.write(0x8002, 0xC0);
        b.write(0x2A, 0x55);
        b.tick(200);
        assert_eq!(b.lcd().ram(0, 0), 0);
        assert_eq!(b.spi_traffic().other, [0, 0, 1]);
    }

    #[test]
    fn porta_bit6_low_is_backlight() {
        let mut b = Board::new();
        b.write(0x00, 0x40);
        assert!(!b.lcd().backlight());
        b.write(0x00, 0x00);
        assert!(b.lcd().backlight());
    }

    #[test]
    fn serial_output_reaches_log() {
        let mut b = Board::new();
        // putChar: brclr SCSR,#$80,* then staa SCDR.
        assert_ne!(b.read(0x2E) & 0x80, 0);
        b.write(0x2F, b'H');
        assert_ne!(b.read(0x2E) & 0x80, 0, "TDR moved to the shifter at once");
        b.write(0x2F, b'i');
        assert_eq!(b.read(0x2E) & 0x80, 0, "second byte waits in TDR");
        b.tick(2 * 2080);
        assert_eq!(b.serial_text(), "Hi");
    }

    #[test]
    fn activity_is_output_or_a_visible_change() {
        let mut b = Board::new();
        b.tick(100);
        b.write(0x00, 0x00); // PORTA unchanged
        b.write(0x3A, 0x55); // COPRST
        b.write(0x25, 0x40); // TFLG2
        b.write(0x8002, 0x00); // PIO_C unchanged
        assert_eq!(b.last_activity(), 0);
        b.write(0x8002, 0xC0);
        assert_eq!(b.last_activity(), 100);
        b.tick(100);
        b.write(0x00, 0x40);
        assert_eq!(b.last_activity(), 200);
        b.tick(100);
        b.read(0x2E); // SCSR with TDRE set, then SCDR: a frame goes out
        b.write(0x2F, b'x'); // and keeps the board active to its end
        assert_eq!(b.last_activity(), 300 + 2080);
    }

    #[test]
    fn registers_are_listed_in_address_order() {
        let b = Board::new();
        let regs = b.registers();
        let names: Vec<_> = regs.iter().map(|r| r.name).collect();
        for n in ["PORTA", "DDRD", "TCNT", "SPCR", "SCSR", "PIO_B", "page"] {
            assert!(names.contains(&n), "{n} missing");
        }
        let addrs: Vec<_> = regs.iter().filter_map(|r| r.address).collect();
        assert!(addrs.first() == Some(&0));
    }
}

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

pub mod acia;
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

mod bus_access;
mod memory;
mod schedule;
mod serial_input;
mod setup;
mod watch;

pub use watch::WatchedAccess;

use crate::cpu::Bus;
use adc::Adc;
use config::{BoardConfig, BoardSetup};
use lcd::Lcd;
use map::MemoryMap;
use pio::Pio;
use ports::Ports;
use sci::Sci;
use spi::Spi;
use timer::Timer;
use watch::Watch;

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
/// E-cycles from a port A pin going low to the CPU seeing XIRQ through
/// the board's wire (`xirq_pa`). The chip synchronizes the pin, and the
/// model reads TCNT at the start of an instruction, 2 to 4 cycles before
/// the chip's data cycle, so a compare set from a TCNT read matches that
/// much early: 5 makes BUFFALO's trace (OC5 set 87 cycles after its
/// `LDX TCNT`, "to end of rti") stop after exactly one user instruction,
/// as on the EVB.
pub const XIRQ_WIRE_DELAY: u64 = 5;
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
    acia: Option<(bool, bool, bool)>,
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
    /// The board's MC6850 ACIA, if it has one (the EVB's host port).
    acia: Option<Box<acia::Acia>>,
    irq: Option<u16>,
    irq_pin: bool,
    xirq_pin: bool,
    /// The cycle from which the board's wire from a port A pin (the EVB's
    /// PA3) asserts XIRQ: [`XIRQ_WIRE_DELAY`] after the pin went low;
    /// `u64::MAX` while it is high or there is no wire.
    xirq_wired_at: u64,
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

    /// The EEPROM programming state (PPROG, operations done).
    pub fn eeprom(&self) -> &eeprom::Eeprom {
        &self.eeprom
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

    /// True if the XIRQ pin is low (asserted): driven from outside, or by
    /// the port A pin the board wires to it.
    pub fn xirq_pin_low(&self) -> bool {
        self.xirq_pin || self.now >= self.xirq_wired_at
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

    /// Serial bytes queued for the receivers (the SCI's and the ACIA's)
    /// that have not arrived yet.
    pub fn serial_rx_pending(&self) -> usize {
        self.sci.rx_pending() + self.acia.as_ref().map_or(0, |a| a.rx_pending())
    }

    /// The board's ACIA (the EVB's host port), if it has one.
    pub fn acia(&self) -> Option<&acia::Acia> {
        self.acia.as_deref()
    }

    /// Queues bytes to arrive on the ACIA's receiver, as its pacing says
    /// ([`acia::Acia::feed`]); false (nothing queued) if the board has no
    /// ACIA.
    pub fn feed_acia(&mut self, bytes: &[u8]) -> bool {
        let now = self.now;
        let Some(a) = self.acia.as_mut() else {
            return false;
        };
        a.feed(bytes, now);
        self.service();
        true
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

    /// How bytes fed to the SCI are sent from now on: on the wire, back to
    /// back (the default), or as a person types ([`sci::Pacing`]).
    /// The board's ACIA, if it has one, sends its input the same way.
    pub fn set_serial_pacing(&mut self, pacing: sci::Pacing) {
        self.sci.set_pacing(pacing);
        if let Some(a) = self.acia.as_mut() {
            a.set_pacing(pacing);
        }
    }

    /// The ACIA's input bytes: (lost because its receive data register
    /// still held an unread byte, OVRN; not sent because the program has
    /// not ended the master reset or, typed, not read the byte before).
    /// (0, 0) on a board without an ACIA.
    pub fn acia_input_left(&self) -> (u64, u64) {
        self.acia
            .as_ref()
            .map_or((0, 0), |a| (a.lost(), a.rx_blocked() as u64))
    }

    /// Serial input bytes the program lost: (arrived while SCDR still held
    /// an unread byte, OR; arrived while the receiver was off).
    pub fn serial_lost(&self) -> (u64, u64) {
        self.sci.lost()
    }

    /// Serial input bytes not sent because the program has not read the
    /// one before (typed pacing).
    pub fn serial_blocked(&self) -> usize {
        self.sci.rx_blocked()
    }

    /// Queues bytes to arrive on the SCI receiver (RxD), as the pacing says.
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
        if let (Some(a), Some(w)) = (&self.acia, self.setup.config.acia) {
            v.extend(a.registers(w.base, now));
        }
        if self.setup.config.lcd.is_some() {
            v.extend(self.lcd.registers());
        }
        v
    }
}

#[cfg(test)]
mod tests;

//! Power-on, hardware reset and INIT: the board a description builds, the
//! devices' reset, the register block and internal RAM moving where INIT
//! puts them, the CONFIG cell and the COP it decides, finished EEPROM
//! operations.

use super::acia::Acia;
use super::config::{self, BoardSetup};
use super::map::MemoryMap;
use super::watch::Watch;
use super::{cop, eeprom, ports, Board, Device, SpiTraffic, CODE_PAD};
use super::{Adc, Lcd, Pio, Ports, Sci, Spi, Timer};

impl Board {
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
            acia: cfg.acia.map(|a| Box::new(Acia::new(a.clock_hz))),
            irq: None,
            irq_pin: false,
            xirq_pin: false,
            xirq_wired_at: u64::MAX,
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

    /// Hardware reset of every device (memory is kept, as on the board);
    /// the cycle count goes on. INIT goes back to the board's reset value
    /// (the internal RAM moves back with its contents), CONFIG is loaded
    /// from its EEPROM cell (EEON decides whether the EEPROM is mapped).
    pub fn reset(&mut self) {
        let now = self.now;
        self.ports.reset(now);
        self.ports.set_config(self.config_cell);
        self.ports.set_init(self.setup.config.init);
        self.ports
            .set_single_chip(self.setup.config.mode == config::Mode::SingleChip);
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
        if let Some(a) = &mut self.acia {
            a.reset(now);
        }
        self.fault = None;
        self.last_activity = now;
        self.service();
    }

    /// Moves the internal RAM (with its contents) and the register block
    /// to where `init` puts them.
    pub(super) fn remap(&mut self, init: u8) {
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

    /// Does a finished EEPROM operation to the array or the CONFIG cell.
    pub(super) fn apply_eeprom(&mut self, op: eeprom::Operation) {
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
}

//! Time and device events: ticks, the next event each device has, the
//! servicing of what is due (the SPI alone when only it can be), the IRQ
//! line, the pins the bench drives at a cycle, and what the machine's
//! fast-forward asks of time (the next event a program can tell apart,
//! quiet and steady reads).

use super::{bench, ports, Board, Device, InputKind, ReadEffects};

impl Board {
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
        // A pin wired to XIRQ makes the timer's pin events interrupts.
        if reads_timer || can_interrupt || self.setup.config.xirq_pa.is_some() {
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
            acia: self.acia.as_ref().map(|a| a.read_state()),
        }
    }

    /// The cycle of the last output activity: a byte sent on the SPI or
    /// SCI (until its transfer ends), or a write that changed a port, PIO
    /// or control register (timer registers and COPRST do not count). A
    /// program polling in its main loop has none, one that draws or prints
    /// has. The key-script runner settles on this. An input byte arriving
    /// on the SCI or the ACIA counts too: the runner then waits for quiet
    /// after it, so a program has time to take a typed byte it answers
    /// with nothing (a key it drops, the last byte of a line it stores).
    pub fn last_activity(&self) -> u64 {
        self.last_activity
            .max(self.spi.busy_until())
            .max(self.sci.busy_until())
            .max(self.sci.last_arrival())
            .max(
                self.acia
                    .as_ref()
                    .map_or(0, |a| a.busy_until().max(a.last_arrival())),
            )
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
        self.event_at(at);
    }

    /// A device (not the SPI) has a new event at `at`: the board services
    /// it then (events are only ever brought earlier here; a full
    /// [`Board::service`] recomputes them all).
    #[inline]
    pub(super) fn event_at(&mut self, at: u64) {
        self.next_event = self.next_event.min(at);
        self.next_other_event = self.next_other_event.min(at);
        self.next_not_spi = (self.next_not_spi.0.min(at), self.next_not_spi.1.min(at));
    }

    pub(super) fn set_irq_level(&mut self, low: bool) {
        let irqe = self.ports.peek(ports::addr::OPTION, self.now) & ports::OPTION_IRQE != 0;
        if low && !self.irq_pin && irqe {
            // A falling edge: latched until the vector fetch.
            self.irq_edge = true;
            self.map.watch_vector_page();
        }
        self.irq_pin = low;
    }

    pub(super) fn apply_bench_now(&mut self, action: &bench::BenchAction) {
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
            || self
                .setup
                .config
                .xirq_pa
                .is_some_and(|bit| self.timer.compare_drives(bit))
    }

    pub(super) fn service(&mut self) {
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
        if let Some(a) = &mut self.acia {
            next = next.min(a.tick(now));
        }
        self.next_not_spi = (next.min(timer), next);
        self.next_other_event = next.min(spi);
        self.next_event = next.min(spi).min(timer);
        // PORTA bit 6 low lights the backlight, whoever drives the pin.
        self.lcd
            .set_backlight(self.timer.porta() & ports::PORTA_BACKLIGHT_OFF == 0);
        if let Some(bit) = self.setup.config.xirq_pa {
            self.xirq_wired_at = if self.timer.porta() & (1 << bit) == 0 {
                self.timer.out_changed_at(bit) + crate::board::XIRQ_WIRE_DELAY
            } else {
                u64::MAX
            };
            if self.xirq_wired_at > now {
                // Seen then: an event, so a skip stops there.
                self.next_not_spi = (
                    self.next_not_spi.0.min(self.xirq_wired_at),
                    self.next_not_spi.1.min(self.xirq_wired_at),
                );
                self.next_other_event = self.next_other_event.min(self.xirq_wired_at);
                self.next_event = self.next_event.min(self.xirq_wired_at);
            }
        }
        self.update_irq();
    }

    /// Delivers a finished SPI byte to the slave the PIO selects, with A0
    /// (PORTD bit 5) as it is at the end of the byte.
    pub(super) fn route_spi(&mut self, byte: u8) {
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

    pub(super) fn update_irq(&mut self) {
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
    pub(super) fn catch_up(&mut self) {
        if self.now >= self.next_event {
            self.service_due();
        }
    }

    /// Services the devices with an event due now, after time passed (not
    /// after a change to a device, which needs [`Board::service`]): the
    /// SPI alone when only it can be due, which is most times.
    #[inline]
    pub(super) fn service_due(&mut self) {
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
    pub(super) fn service_spi(&mut self) {
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
}

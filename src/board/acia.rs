//! An MC6850 ACIA outside the chip (the EVB's host port at $9800): two
//! addresses, the control register (write) and status register (read) at
//! the base, the transmit data register (write) and receive data register
//! (read) at base + 1 (MC6850 data sheet).
//!
//! Control register: CR1-CR0 the clock divide (00 /1, 01 /16, 10 /64,
//! 11 master reset), CR4-CR2 the word (7 or 8 data bits, parity, 1 or 2
//! stop bits), CR6-CR5 the transmitter control, CR7 the receive interrupt
//! enable. Status register: RDRF (bit 0), TDRE (1), DCD (2), CTS (3), FE
//! (4), OVRN (5), PE (6), IRQ (7).
//!
//! What the model assumes where the data sheet leaves a choice or the board
//! decides:
//! - The chip needs a master reset after power-on; until then, and while
//!   CR1-CR0 = 11, every status bit reads 0 (TDRE too) and nothing is sent.
//!   A control word that ends the reset sets TDRE. This is what BUFFALO
//!   probes for: status 0 after the reset, TDRE after the setup.
//! - DCD and CTS are wired low (carrier present, clear to send): they read 0.
//! - The transmit and receive clock is the board's `clock_hz` (the EVB's
//!   baud-rate generator); a bit lasts `divide` clock periods, a frame is a
//!   start bit, the data bits, the parity bit if any and the stop bits.
//!   Times are whole E-cycles (rounded up).
//! - A byte written while the shifter is idle moves to it at once (TDRE
//!   stays set); one written while a frame is going out waits in TDR
//!   (TDRE clear) until that frame ends.
//! - A byte that arrives while RDRF is set is lost (counted,
//!   [`Acia::lost`]). As the data sheet describes the overrun, OVRN shows
//!   only once the valid byte before it has been read: that read leaves
//!   RDRF set and raises OVRN, and the next read of the receive data
//!   register (the same byte again) clears both. No framing or parity
//!   errors (the bytes fed in are whole).
//! - Input fed to the receiver ([`Acia::feed`]) waits while the chip is in
//!   master reset: the terminal on the port starts sending once the
//!   program has set the port up (bytes sent earlier would only be lost).
//!   From then on they arrive as the SCI's do ([`Pacing`]): on the wire,
//!   one frame after another; or typed, each one frame after the program
//!   read the byte before from the receive data register plus the gap,
//!   and after a carriage return or line feed only once this port's
//!   transmitter has been idle for the gap (at most [`super::sci::LINE_WAIT_CAP`]
//!   E-cycles after the read), so a program that answers a line on this
//!   port loses nothing while it prints.
//! - The IRQ output is not wired to the chip (BUFFALO polls the ACIA): the
//!   status register's IRQ bit shows it, nothing else sees it.

use super::sci::Pacing;
use super::serial_input::SerialInput;
use super::{RegisterInfo, E_CLOCK_HZ};

/// Status: receive data register full.
pub const RDRF: u8 = 0x01;
/// Status: transmit data register empty.
pub const TDRE: u8 = 0x02;
/// Status: receiver overrun.
pub const OVRN: u8 = 0x20;
/// Status: the IRQ output is asserted.
pub const IRQ: u8 = 0x80;

/// The clock the EVB's ACIA is taken to run from when a board gives none:
/// 614,400 Hz, so BUFFALO's divide-by-64 setting is 9600 Bd.
pub const DEFAULT_CLOCK_HZ: u32 = 614_400;

/// The ACIA: registers, shifters and the bytes it sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acia {
    clock_hz: u32,
    control: u8,
    /// True from power-on until a control word ends the master reset.
    in_reset: bool,
    tdr: Option<u8>,
    /// The frame going out and the cycle it ends.
    shifting: Option<(u8, u64)>,
    rdr: u8,
    rdrf: bool,
    ovrn: bool,
    /// A byte was lost while RDRF was set; OVRN rises at the next read of
    /// the receive data register.
    overrun_pending: bool,
    /// Input on its way; none arrives during the master reset.
    rx: SerialInput,
    log: Vec<u8>,
    /// The cycle the transmitter's last frame ended.
    last_done: u64,
    /// Bytes lost because RDRF was still set when they arrived (OVRN).
    lost_overrun: u64,
    /// The cycle the last input byte arrived (0 before the first).
    last_arrival: u64,
}

impl Acia {
    /// An ACIA at power-on, clocked at `clock_hz`: waiting for its master reset.
    pub fn new(clock_hz: u32) -> Self {
        Acia {
            clock_hz: clock_hz.max(1),
            control: 0,
            in_reset: true,
            tdr: None,
            shifting: None,
            rdr: 0,
            rdrf: false,
            ovrn: false,
            overrun_pending: false,
            rx: SerialInput::new(),
            log: Vec::new(),
            last_done: 0,
            lost_overrun: 0,
            last_arrival: 0,
        }
    }

    /// How input bytes are sent from now on (as the SCI's, [`Pacing`]).
    pub fn set_pacing(&mut self, pacing: Pacing) {
        self.rx.set_pacing(pacing);
    }

    /// How input bytes are sent.
    pub fn pacing(&self) -> Pacing {
        self.rx.pacing()
    }

    /// Input bytes lost since power-on because they arrived while the
    /// receive data register still held an unread byte (OVRN).
    pub fn lost(&self) -> u64 {
        self.lost_overrun
    }

    /// Queued bytes that wait for the program (it has not ended the master
    /// reset, or, typed, has not read the byte before), so none is on its
    /// way.
    pub fn rx_blocked(&self) -> usize {
        self.rx.blocked()
    }

    /// True while the chip waits for its master reset to end (nothing is
    /// sent or received).
    pub fn in_master_reset(&self) -> bool {
        self.in_reset
    }

    /// E-cycles one frame takes at the current control word.
    pub fn frame_cycles(&self) -> u64 {
        let divide: u64 = match self.control & 0x03 {
            0 => 1,
            1 => 16,
            _ => 64,
        };
        // CR4-CR2: 000 7E2, 001 7O2, 010 7E1, 011 7O1, 100 8N2, 101 8N1,
        // 110 8E1, 111 8O1.
        let bits: u64 = match (self.control >> 2) & 7 {
            0 | 1 => 1 + 7 + 1 + 2,
            2 | 3 => 1 + 7 + 1 + 1,
            4 => 1 + 8 + 2,
            5 => 1 + 8 + 1,
            _ => 1 + 8 + 1 + 1,
        };
        (bits * divide * E_CLOCK_HZ).div_ceil(u64::from(self.clock_hz))
    }

    /// The status register as a read at `now` returns it (as after
    /// `tick(now)`; without changing anything).
    pub fn status(&self, now: u64) -> u8 {
        let mut tdr_empty = self.tdr.is_none();
        if let (false, Some((_, done))) = (tdr_empty, self.shifting) {
            // The frame ends and TDR moves into the shifter.
            tdr_empty = now >= done;
        }
        // A byte that arrives now sets RDRF; one lost to an overrun shows
        // nothing until the byte before it is read.
        let rdrf = self.rdrf || (now >= self.rx.next && !self.rx.queue.is_empty());
        self.status_of(tdr_empty, rdrf, self.ovrn)
    }

    fn status_now(&self) -> u8 {
        self.status_of(self.tdr.is_none(), self.rdrf, self.ovrn)
    }

    fn status_of(&self, tdr_empty: bool, rdrf: bool, ovrn: bool) -> u8 {
        if self.in_reset {
            return 0;
        }
        let mut s = 0;
        if rdrf {
            s |= RDRF;
        }
        if tdr_empty {
            s |= TDRE;
        }
        if ovrn {
            s |= OVRN;
        }
        let rie = self.control & 0x80 != 0;
        let tie = self.control & 0x60 == 0x20;
        if (rie && (rdrf || ovrn)) || (tie && tdr_empty) {
            s |= IRQ;
        }
        s
    }

    /// A CPU read of register `reg` (0 status, 1 receive data) at `now`.
    pub fn read(&mut self, reg: u16, now: u64) -> u8 {
        self.tick(now);
        if reg & 1 == 0 {
            self.status_now()
        } else {
            if self.overrun_pending && !self.ovrn {
                // The valid byte before the overrun: OVRN shows now, RDRF
                // stays until the overrun is reset by the next read.
                self.overrun_pending = false;
                self.ovrn = true;
                return self.rdr;
            }
            let taken = self.rdrf;
            self.rdrf = false;
            self.ovrn = false;
            if taken {
                let (frame, busy) = (self.frame_cycles(), self.busy_until());
                self.rx.after_read(self.rdr, now, frame, busy);
            }
            self.rdr
        }
    }

    /// What a read of `reg` would return at `now`, without side effects.
    pub fn peek(&self, reg: u16, now: u64) -> u8 {
        if reg & 1 == 0 {
            self.status(now)
        } else {
            self.rdr
        }
    }

    /// A CPU write of register `reg` (0 control, 1 transmit data) at `now`.
    pub fn write(&mut self, reg: u16, value: u8, now: u64) {
        self.tick(now);
        if reg & 1 == 0 {
            if value & 0x03 == 0x03 {
                // Master reset: the registers clear, nothing goes out, and
                // input waits until the port is set up again.
                self.in_reset = true;
                self.tdr = None;
                self.shifting = None;
                self.rdrf = false;
                self.ovrn = false;
                self.overrun_pending = false;
                self.rx.stop();
                self.control = value;
            } else {
                let ends_reset = self.in_reset;
                self.in_reset = false;
                self.control = value;
                if ends_reset && !self.rx.queue.is_empty() {
                    self.rx.next = now + self.rx.gap() + self.frame_cycles();
                }
            }
        } else if !self.in_reset {
            self.tdr = Some(value);
            self.start_next(now);
        }
    }

    /// Moves TDR into the idle shifter.
    fn start_next(&mut self, at: u64) {
        if self.shifting.is_none() {
            if let Some(b) = self.tdr.take() {
                self.shifting = Some((b, at + self.frame_cycles()));
                let (frame, busy) = (self.frame_cycles(), self.busy_until());
                self.rx.output_started(at, frame, busy);
            }
        }
    }

    /// Brings the ACIA up to cycle `now`; returns the cycle of its next
    /// event (a frame sent, a byte received), `u64::MAX` if none.
    pub fn tick(&mut self, now: u64) -> u64 {
        while let Some((b, done)) = self.shifting {
            if now < done {
                break;
            }
            self.log.push(b);
            self.shifting = None;
            self.last_done = done;
            self.start_next(done);
        }
        while now >= self.rx.next {
            let at = self.rx.next;
            if let Some(b) = self.rx.queue.pop_front() {
                self.last_arrival = at;
                if self.rdrf {
                    self.overrun_pending = !self.ovrn;
                    self.lost_overrun += 1;
                } else {
                    self.rdr = b;
                    self.rdrf = true;
                }
            }
            // Typed: the next byte waits until the program reads this one.
            let frame = self.frame_cycles();
            self.rx.arrived(at, frame, self.rdrf);
        }
        self.next_due()
    }

    /// The cycle of the next event; a tick before it changes nothing.
    pub fn next_due(&self) -> u64 {
        self.shifting.map_or(u64::MAX, |(_, t)| t).min(self.rx.next)
    }

    /// Queues bytes to arrive on RxD, the first one frame after `now`: in
    /// master reset, once the program ends it; typed, once the program has
    /// read the byte still waiting in the receive data register.
    pub fn feed(&mut self, bytes: &[u8], now: u64) {
        let frame = self.frame_cycles();
        self.rx.feed(bytes, now, frame, self.in_reset, self.rdrf);
    }

    /// Bytes queued on RxD that are on their way (bytes that wait for the
    /// program are [`Acia::rx_blocked`]).
    pub fn rx_pending(&self) -> usize {
        self.rx.pending()
    }

    /// Every byte sent since power-on.
    pub fn output(&self) -> &[u8] {
        &self.log
    }

    /// The cycle the last input byte arrived on RxD (0 before the first).
    pub fn last_arrival(&self) -> u64 {
        self.last_arrival
    }

    /// The cycle the frame going out ends, or when the last one ended.
    pub fn busy_until(&self) -> u64 {
        self.shifting.map_or(self.last_done, |(_, t)| t)
    }

    /// The fields a CPU read can change, for the fast-forward's check.
    pub fn read_state(&self) -> (bool, bool, bool) {
        (self.rdrf, self.ovrn, self.overrun_pending)
    }

    /// A hardware reset of the board: the 6850 has no reset pin, so only
    /// the program's master reset clears it; the log is kept.
    pub fn reset(&mut self, _now: u64) {}

    /// Its two registers as the views show them, at `base`.
    pub fn registers(&self, base: u16, now: u64) -> Vec<RegisterInfo> {
        let s = self.status(now);
        let state = if self.in_reset {
            "master reset".to_string()
        } else {
            let rate = u64::from(self.clock_hz)
                / match self.control & 3 {
                    0 => 1,
                    1 => 16,
                    _ => 64,
                };
            format!("{rate} Bd")
        };
        vec![
            RegisterInfo::byte(
                "ACIA_SR",
                base,
                s,
                format!(
                    "{state}; RDRF={} TDRE={} OVRN={} IRQ={} (control ${:02X})",
                    s & 1,
                    (s >> 1) & 1,
                    (s >> 5) & 1,
                    s >> 7,
                    self.control
                ),
            ),
            RegisterInfo::byte(
                "ACIA_DR",
                base.wrapping_add(1),
                self.rdr,
                "received byte".into(),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What BUFFALO's probe reads: 0 after the master reset, TDRE after
    /// the setup word.
    #[test]
    fn master_reset_then_setup_sets_tdre() {
        let mut a = Acia::new(DEFAULT_CLOCK_HZ);
        a.write(0, 0x03, 0);
        assert_eq!(a.read(0, 1) & 0x7F, 0);
        a.write(0, 0x12, 2);
        assert_eq!(a.read(0, 3) & TDRE, TDRE);
    }

    #[test]
    fn bytes_go_out_a_frame_apart() {
        let mut a = Acia::new(DEFAULT_CLOCK_HZ);
        a.write(0, 0x03, 0);
        a.write(0, 0x16, 0); // /64, 8N1: 10 bits at 9600 Bd
        let frame = a.frame_cycles();
        assert_eq!(frame, 2084);
        a.write(1, b'a', 10);
        assert_eq!(a.read(0, 11) & TDRE, TDRE, "moved to the shifter");
        a.write(1, b'b', 12);
        assert_eq!(a.read(0, 13) & TDRE, 0, "waits in TDR");
        assert_eq!(a.tick(10 + frame - 1), 10 + frame);
        assert_eq!(a.output(), b"");
        a.tick(10 + frame);
        assert_eq!(a.output(), b"a");
        assert_eq!(a.read(0, 10 + frame) & TDRE, TDRE);
        a.tick(10 + 2 * frame);
        assert_eq!(a.output(), b"ab");
    }

    #[test]
    fn a_byte_not_read_in_time_is_an_overrun() {
        let mut a = Acia::new(DEFAULT_CLOCK_HZ);
        a.write(0, 0x03, 0);
        a.write(0, 0x16, 0);
        let frame = a.frame_cycles();
        a.feed(b"xy", 0);
        assert_eq!(a.read(0, frame) & RDRF, RDRF);
        // 'y' is lost, but OVRN waits for the read of 'x'.
        assert_eq!(a.read(0, 2 * frame) & (RDRF | OVRN), RDRF);
        assert_eq!(a.lost(), 1);
        assert_eq!(a.read(1, 2 * frame), b'x');
        assert_eq!(a.read(0, 2 * frame + 1) & (RDRF | OVRN), RDRF | OVRN);
        assert_eq!(a.read(1, 2 * frame + 2), b'x', "the valid byte again");
        assert_eq!(a.read(0, 2 * frame + 3) & (RDRF | OVRN), 0);
    }

    /// Typed input: the next byte comes a gap after the read of the one
    /// before, and only once the master reset has ended.
    #[test]
    fn typed_input_waits_for_the_reset_and_for_each_read() {
        let mut a = Acia::new(DEFAULT_CLOCK_HZ);
        a.set_pacing(Pacing::Typed { gap: 100 });
        a.feed(b"pq", 0);
        assert_eq!(a.tick(1_000_000), u64::MAX, "held in master reset");
        assert_eq!(a.rx_blocked(), 2);
        a.write(0, 0x03, 1_000_000);
        a.write(0, 0x16, 1_000_000);
        let frame = a.frame_cycles();
        let first = 1_000_000 + 100 + frame;
        assert_eq!(a.tick(first - 1), first);
        assert_eq!(a.read(0, first) & RDRF, RDRF);
        assert_eq!(a.tick(first + 10 * frame), u64::MAX, "waits for the read");
        assert_eq!(a.read(0, first + 10 * frame) & OVRN, 0);
        let read_at = first + 10 * frame;
        assert_eq!(a.read(1, read_at), b'p');
        assert_eq!(a.tick(read_at), read_at + 100 + frame);
        assert_eq!(a.read(1, read_at + 100 + frame), b'q');
        assert_eq!(a.lost(), 0);
    }

    #[test]
    fn nothing_moves_before_the_master_reset() {
        let mut a = Acia::new(DEFAULT_CLOCK_HZ);
        assert_eq!(a.read(0, 0), 0);
        a.write(1, b'z', 1);
        assert_eq!(a.tick(1_000_000), u64::MAX);
        assert_eq!(a.output(), b"");
    }
}

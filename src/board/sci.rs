//! The MC68HC11 serial communications interface (M68HC11 RM section 9):
//! BAUD, SCCR1, SCCR2, SCSR, SCDR.
//!
//! Bit time = 16 x prescale (SCP1:SCP0 = 1, 3, 4, 13) x 2^SCR E-cycles; a
//! frame is start + 8 (or 9 with M) data + stop bits. A write to SCDR loads
//! the transmit data register; TDRE and TC clear only if SCSR was read with
//! them set before (the chip's two-step clearing sequence). With TE set the
//! transmitter moves the byte to its shifter as soon as that is free (TDRE
//! rises again at once) and the byte reaches the serial log when its frame
//! ends; TC rises when the shifter runs dry. Setting TE queues an idle
//! preamble frame first. RDRF clears by reading SCSR then SCDR, and a byte
//! arriving while RDRF is still set is lost and sets OR (counted,
//! [`Sci::lost`]). The IDLE flag, wake-up and break are not modelled.
//!
//! Received bytes (fed by the machine) arrive as [`Pacing`] says: on the
//! wire, one frame after another, as a terminal sends a pasted line; or
//! typed, as a person types: each byte one frame after the program read the
//! one before from SCDR plus a gap, and after a carriage return or line feed
//! only once the program's answer is out (the transmitter idle for the gap,
//! at most [`LINE_WAIT_CAP`] E-cycles after the read).
//!
//! The trainer11's monitor sets the SCI up before it starts a user program
//! (the Viergewinnt sources call `putChar` but never write BAUD or SCCR2), so
//! the board's reset state is that setup: 9600 baud (BAUD $30 at E = 2 MHz:
//! 2 MHz / (16 x 13) = 9615 Bd) with TE and RE set.

use super::serial_input::SerialInput;
use super::{Device, RegisterInfo};

const BAUD: u16 = 0x2B;
const SCCR1: u16 = 0x2C;
const SCCR2: u16 = 0x2D;
const SCSR: u16 = 0x2E;
const SCDR: u16 = 0x2F;

/// SCSR: transmit data register empty.
pub const TDRE: u8 = 0x80;
/// SCSR: transmission complete.
pub const TC: u8 = 0x40;
/// SCSR: receive data register full.
pub const RDRF: u8 = 0x20;
/// SCSR: overrun.
pub const OR: u8 = 0x08;

/// SCCR2 bits.
pub mod sccr2 {
    /// Transmit interrupt enable (TDRE).
    pub const TIE: u8 = 0x80;
    /// Transmission complete interrupt enable.
    pub const TCIE: u8 = 0x40;
    /// Receive interrupt enable (RDRF, OR).
    pub const RIE: u8 = 0x20;
    /// Transmitter enable.
    pub const TE: u8 = 0x08;
    /// Receiver enable.
    pub const RE: u8 = 0x04;
}

/// BAUD as the trainer11's monitor leaves it: 9600 Bd at E = 2 MHz.
pub const MONITOR_BAUD: u8 = 0x30;
/// SCCR2 as the monitor leaves it: TE and RE, no interrupts.
pub const MONITOR_SCCR2: u8 = sccr2::TE | sccr2::RE;

/// How queued input bytes are sent to RxD.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pacing {
    /// Back to back, one frame after another (a pasted line, a file).
    #[default]
    Wire,
    /// As a person types: the next byte starts `gap` E-cycles after the
    /// program read the one before (see the module doc).
    Typed {
        /// E-cycles between the read of a byte and the start of the next.
        gap: u64,
    },
}

/// The gap [`Pacing::Typed`] leaves by default: 10 ms of the 2 MHz board
/// (a fast typist), time for a program to echo and act on a key.
pub const TYPED_GAP: u64 = 20_000;

/// The longest a typed byte after a carriage return waits for the
/// program's answer to end: 10 s of the 2 MHz board (a program that prints
/// without pause still gets its input).
pub const LINE_WAIT_CAP: u64 = 20_000_000;

/// What the transmit shifter is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shifter {
    Idle,
    /// Sending the idle preamble after TE was set, until the cycle given.
    Preamble(u64),
    /// Sending a byte, until the cycle given.
    Byte(u8, u64),
}

/// The SCI with its serial log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sci {
    baud: u8,
    sccr1: u8,
    sccr2: u8,
    scsr: u8,
    armed_tx: bool,
    armed_rx: bool,
    tdr: u8,
    rdr: u8,
    shifter: Shifter,
    last_done: u64,
    rx: SerialInput,
    log: Vec<u8>,
    /// Bytes lost because RDRF was still set when they arrived (OR).
    lost_overrun: u64,
    /// Bytes that arrived while the receiver was off (RE clear).
    lost_receiver_off: u64,
    /// The cycle the last input byte arrived (0 before the first).
    last_arrival: u64,
}

impl Default for Sci {
    fn default() -> Self {
        Self::new()
    }
}

impl Sci {
    /// The cycle of its next event (a frame sent, a byte received): `tick`
    /// at an earlier cycle changes nothing and returns this.
    #[inline]
    pub fn next_due(&self) -> u64 {
        let tx = match self.shifter {
            Shifter::Idle => u64::MAX,
            Shifter::Preamble(t) | Shifter::Byte(_, t) => t,
        };
        tx.min(self.rx.next)
    }

    /// The SCI as the monitor hands it to the program (see the module doc).
    pub fn new() -> Self {
        let mut s = Sci {
            baud: 0,
            sccr1: 0,
            sccr2: 0,
            scsr: 0,
            armed_tx: false,
            armed_rx: false,
            tdr: 0,
            rdr: 0,
            shifter: Shifter::Idle,
            last_done: 0,
            rx: SerialInput::new(),
            log: Vec::new(),
            lost_overrun: 0,
            lost_receiver_off: 0,
            last_arrival: 0,
        };
        s.reset(0);
        s
    }

    /// The fields a register read can change (SCSR and the two clear arms),
    /// for the machine's fast-forward check.
    pub fn read_state(&self) -> (u8, bool, bool) {
        (self.scsr, self.armed_tx, self.armed_rx)
    }

    /// SCSR as a read at `now` returns it, if that read arms no flag clear
    /// (TDRE, TC, RDRF and OR all clear): then reading it again changes
    /// nothing until the next frame event
    /// ([`crate::board::Board::quiet_read`]).
    pub(crate) fn quiet_status(&self, now: u64) -> Option<u8> {
        let v = self.scsr_at(now);
        (v & (TDRE | TC | RDRF | OR) == 0).then_some(v)
    }

    /// E-cycles per bit at the current BAUD setting.
    pub fn bit_cycles(&self) -> u64 {
        let prescale = [1, 3, 4, 13][((self.baud >> 4) & 3) as usize];
        16 * prescale * (1u64 << (self.baud & 7))
    }

    /// E-cycles per frame (10 bits, 11 with SCCR1's M bit).
    pub fn frame_cycles(&self) -> u64 {
        let bits = if self.sccr1 & 0x10 != 0 { 11 } else { 10 };
        bits * self.bit_cycles()
    }

    /// Every byte transmitted since power-on.
    pub fn output(&self) -> &[u8] {
        &self.log
    }

    /// The output as text, each byte one Latin-1 character (control
    /// characters such as the firmware's form feed $0C are kept).
    pub fn text(&self) -> String {
        self.log.iter().map(|&b| b as char).collect()
    }

    /// Queues bytes to arrive on RxD, the first one frame after `now` (with
    /// typed pacing, one frame after the program read the byte still
    /// waiting in SCDR, if there is one).
    pub fn feed(&mut self, bytes: &[u8], now: u64) {
        let frame = self.frame_cycles();
        self.rx
            .feed(bytes, now, frame, false, self.scsr & RDRF != 0);
    }

    /// How input bytes are sent from now on.
    pub fn set_pacing(&mut self, pacing: Pacing) {
        self.rx.set_pacing(pacing);
    }

    /// How input bytes are sent.
    pub fn pacing(&self) -> Pacing {
        self.rx.pacing()
    }

    /// Input bytes lost since power-on: (arrived while RDRF was still set,
    /// so OR rose; arrived while the receiver was off).
    pub fn lost(&self) -> (u64, u64) {
        (self.lost_overrun, self.lost_receiver_off)
    }

    /// Queued bytes that wait for the program (typed pacing: it has not
    /// read the byte before from SCDR), so none is on its way.
    pub fn rx_blocked(&self) -> usize {
        self.rx.blocked()
    }

    /// The cycle the last input byte arrived on RxD (0 before the first):
    /// the run waits for quiet after it, so the program has time to take
    /// a byte that it answers with nothing ([`super::Board::last_activity`]).
    pub fn last_arrival(&self) -> u64 {
        self.last_arrival
    }

    /// The cycle the transmitter's current frame ends, or when the last ended.
    pub fn busy_until(&self) -> u64 {
        match self.shifter {
            Shifter::Idle => self.last_done,
            Shifter::Preamble(t) | Shifter::Byte(_, t) => t,
        }
    }

    /// True if any SCI interrupt is enabled (TIE, TCIE, RIE, ILIE).
    pub fn interrupts_enabled(&self) -> bool {
        self.sccr2 & (sccr2::TIE | sccr2::TCIE | sccr2::RIE | 0x10) != 0
    }

    /// True while the receiver is enabled (RE): a read of SCSR then polls
    /// for received bytes.
    pub fn receiver_enabled(&self) -> bool {
        self.sccr2 & sccr2::RE != 0
    }

    /// Bytes queued on RxD that have not arrived yet.
    /// (With typed pacing, only while one is on its way: bytes that wait
    /// for the program to read the one before are [`Sci::rx_blocked`].)
    pub fn rx_pending(&self) -> usize {
        self.rx.pending()
    }

    /// The SCI interrupt vector ($FFD6) if an enabled flag is set.
    pub fn irq_vector(&self) -> Option<u16> {
        let c = self.sccr2;
        let s = self.scsr;
        let pending = (c & sccr2::TIE != 0 && s & TDRE != 0)
            || (c & sccr2::TCIE != 0 && s & TC != 0)
            || (c & sccr2::RIE != 0 && s & (RDRF | OR) != 0);
        pending.then_some(0xFFD6)
    }

    /// Moves TDR into the free shifter if there is a byte and TE is set.
    fn start_next(&mut self, at: u64) {
        if self.shifter == Shifter::Idle && self.sccr2 & sccr2::TE != 0 && self.scsr & TDRE == 0 {
            self.shifter = Shifter::Byte(self.tdr, at + self.frame_cycles());
            self.scsr |= TDRE;
            self.scsr &= !TC;
            let (frame, busy) = (self.frame_cycles(), self.busy_until());
            self.rx.output_started(at, frame, busy);
        }
    }

    /// SCSR as it will be once `tick(now)` has run (for `peek`).
    fn scsr_at(&self, now: u64) -> u8 {
        let mut s = self.scsr;
        let mut shifter = self.shifter;
        while let Shifter::Preamble(done) | Shifter::Byte(_, done) = shifter {
            if now < done {
                break;
            }
            shifter = Shifter::Idle;
            if s & TDRE == 0 && self.sccr2 & sccr2::TE != 0 {
                shifter = Shifter::Byte(self.tdr, done + self.frame_cycles());
                s |= TDRE;
                s &= !TC;
            } else {
                s |= TC;
            }
        }
        if now >= self.rx.next && self.sccr2 & sccr2::RE != 0 && !self.rx.queue.is_empty() {
            s |= if s & RDRF != 0 { OR } else { RDRF };
        }
        s
    }

    fn describe_scsr(s: u8) -> String {
        format!(
            "TDRE={} TC={} RDRF={} OR={}",
            (s >> 7) & 1,
            (s >> 6) & 1,
            (s >> 5) & 1,
            (s >> 3) & 1
        )
    }
}

impl Device for Sci {
    fn read(&mut self, addr: u16, now: u64) -> u8 {
        self.tick(now);
        match addr {
            SCSR => {
                if self.scsr & (TDRE | TC) != 0 {
                    self.armed_tx = true;
                }
                if self.scsr & (RDRF | OR) != 0 {
                    self.armed_rx = true;
                }
                self.scsr
            }
            SCDR => {
                if self.armed_rx {
                    let taken = self.scsr & RDRF != 0;
                    self.scsr &= !(RDRF | OR);
                    self.armed_rx = false;
                    if taken {
                        let (frame, busy) = (self.frame_cycles(), self.busy_until());
                        self.rx.after_read(self.rdr, now, frame, busy);
                    }
                }
                self.rdr
            }
            _ => self.peek(addr, now),
        }
    }

    fn peek(&self, addr: u16, now: u64) -> u8 {
        match addr {
            BAUD => self.baud,
            SCCR1 => self.sccr1,
            SCCR2 => self.sccr2,
            SCSR => self.scsr_at(now),
            SCDR => self.rdr,
            _ => super::UNMAPPED_READ,
        }
    }

    fn write(&mut self, addr: u16, value: u8, now: u64) {
        self.tick(now);
        match addr {
            BAUD => self.baud = value,
            SCCR1 => self.sccr1 = value,
            SCCR2 => {
                let te_rising = value & sccr2::TE != 0 && self.sccr2 & sccr2::TE == 0;
                self.sccr2 = value;
                if te_rising && self.shifter == Shifter::Idle {
                    self.shifter = Shifter::Preamble(now + self.frame_cycles());
                    self.scsr &= !TC;
                }
                self.start_next(now);
            }
            SCSR => {}
            SCDR => {
                self.tdr = value;
                if self.armed_tx {
                    self.scsr &= !(TDRE | TC);
                    self.armed_tx = false;
                }
                self.start_next(now);
            }
            _ => {}
        }
    }

    fn tick(&mut self, now: u64) -> u64 {
        loop {
            match self.shifter {
                Shifter::Preamble(done) | Shifter::Byte(_, done) if now >= done => {
                    if let Shifter::Byte(b, _) = self.shifter {
                        self.log.push(b);
                    }
                    self.shifter = Shifter::Idle;
                    self.last_done = done;
                    self.start_next(done);
                    if self.shifter == Shifter::Idle {
                        self.scsr |= TC;
                    }
                }
                _ => break,
            }
        }
        while now >= self.rx.next {
            let at = self.rx.next;
            if let Some(b) = self.rx.queue.pop_front() {
                self.last_arrival = at;
                if self.sccr2 & sccr2::RE == 0 {
                    self.lost_receiver_off += 1;
                } else if self.scsr & RDRF != 0 {
                    self.scsr |= OR;
                    self.lost_overrun += 1;
                } else {
                    self.rdr = b;
                    self.scsr |= RDRF;
                }
            }
            // Typed: the next byte waits until the program reads this one.
            let frame = self.frame_cycles();
            self.rx.arrived(at, frame, self.scsr & RDRF != 0);
        }
        self.next_due()
    }

    /// Resets to the monitor's setup (module doc); the serial log is kept
    /// across resets so a run's whole output stays visible.
    fn reset(&mut self, now: u64) {
        self.baud = MONITOR_BAUD;
        self.sccr1 = 0;
        self.sccr2 = MONITOR_SCCR2;
        self.scsr = TDRE | TC;
        self.armed_tx = false;
        self.armed_rx = false;
        self.tdr = 0;
        self.rdr = 0;
        self.shifter = Shifter::Idle;
        self.last_done = now;
        self.rx.clear();
    }

    fn registers(&self, now: u64) -> Vec<RegisterInfo> {
        let baud_rate = super::E_CLOCK_HZ / self.bit_cycles();
        let scsr = self.peek(SCSR, now);
        vec![
            RegisterInfo::byte("BAUD", BAUD, self.baud, format!("{baud_rate} Bd")),
            RegisterInfo::byte(
                "SCCR1",
                SCCR1,
                self.sccr1,
                format!("M={}", (self.sccr1 >> 4) & 1),
            ),
            RegisterInfo::byte(
                "SCCR2",
                SCCR2,
                self.sccr2,
                format!(
                    "TE={} RE={} TIE={} RIE={}",
                    (self.sccr2 >> 3) & 1,
                    (self.sccr2 >> 2) & 1,
                    (self.sccr2 >> 7) & 1,
                    (self.sccr2 >> 5) & 1
                ),
            ),
            RegisterInfo::byte("SCSR", SCSR, scsr, Self::describe_scsr(scsr)),
            RegisterInfo::byte("SCDR", SCDR, self.rdr, "received byte".to_string()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// putChar: `brclr SCSR,#$80,*` then `staa SCDR`.
    fn put_char(s: &mut Sci, c: u8, now: &mut u64) {
        while s.read(SCSR, *now) & TDRE == 0 {
            *now += 7;
        }
        s.write(SCDR, c, *now);
        *now += 4;
    }

    #[test]
    fn monitor_setup_is_9600_baud() {
        let s = Sci::new();
        assert_eq!(s.bit_cycles(), 208);
        assert_eq!(s.frame_cycles(), 2080);
        assert_eq!(super::super::E_CLOCK_HZ / s.bit_cycles(), 9615);
    }

    #[test]
    fn frames_paced_by_baud() {
        let mut s = Sci::new();
        let mut now = 0;
        for &c in b"abc" {
            put_char(&mut s, c, &mut now);
        }
        // 'a' goes to the shifter at 0, 'b' waits in TDR until 2080, so
        // putChar('c') waits for TDRE until then; 'c' moves on at 4160.
        assert!((2080..2080 + 8).contains(&now), "now = {now}");
        s.tick(3 * 2080 - 1);
        assert_eq!(s.output(), b"ab");
        assert_eq!(s.peek(SCSR, 3 * 2080 - 1) & TC, 0);
        s.tick(3 * 2080 + 4);
        assert_eq!(s.text(), "abc");
        assert_eq!(s.peek(SCSR, 6300) & (TDRE | TC), TDRE | TC);
    }

    #[test]
    fn write_without_reading_scsr_does_not_clear_tdre() {
        let mut s = Sci::new();
        s.write(SCDR, b'x', 0);
        // TDRE never cleared, so the transmitter sees nothing to send.
        assert_eq!(s.tick(10_000), u64::MAX);
        assert_eq!(s.output(), b"");
    }

    #[test]
    fn baud_prescaler_and_rate() {
        let mut s = Sci::new();
        s.write(BAUD, 0x22, 0); // SCP=2 (/4), SCR=2 (/4)
        assert_eq!(s.bit_cycles(), 16 * 4 * 4);
        s.write(SCCR1, 0x10, 0);
        assert_eq!(s.frame_cycles(), 11 * 256);
    }

    #[test]
    fn te_rising_sends_preamble_first() {
        let mut s = Sci::new();
        s.write(SCCR2, 0, 0);
        s.read(SCSR, 0);
        s.write(SCDR, b'z', 1);
        assert_eq!(s.tick(5000), u64::MAX, "TE clear: nothing moves");
        s.write(SCCR2, sccr2::TE, 5000);
        s.tick(5000 + 2080);
        assert_eq!(s.output(), b"", "preamble frame first");
        s.tick(5000 + 2 * 2080);
        assert_eq!(s.output(), b"z");
    }

    #[test]
    fn receive_sets_rdrf_and_overrun() {
        let mut s = Sci::new();
        s.feed(b"AB", 0);
        s.tick(2079);
        assert_eq!(s.peek(SCSR, 2079) & RDRF, 0);
        assert_eq!(s.read(SCSR, 2080) & RDRF, RDRF);
        assert_eq!(s.read(SCDR, 2081), b'A');
        assert_eq!(s.read(SCSR, 2082) & RDRF, 0);
        // 'B' at 4160 arrives; nobody reads it; no third byte so no overrun.
        assert_eq!(s.read(SCSR, 4160) & RDRF, RDRF);
        s.feed(b"C", 4160);
        assert_eq!(s.read(SCSR, 6240) & OR, OR);
        assert_eq!(s.read(SCDR, 6241), b'B');
        assert_eq!(s.read(SCSR, 6242) & (RDRF | OR), 0);
    }

    #[test]
    fn interrupts() {
        let mut s = Sci::new();
        assert_eq!(s.irq_vector(), None);
        s.write(SCCR2, MONITOR_SCCR2 | sccr2::TIE, 0);
        assert_eq!(s.irq_vector(), Some(0xFFD6));
    }
}

//! Input bytes on their way to a serial receiver, shared by the SCI and the
//! EVB's ACIA: the queue, the cycle the next byte arrives, and typed pacing
//! (the SCI's module doc): with [`Pacing::Typed`], a byte is sent only once
//! the program has read the one before, and after a line end only once the
//! transmitter has been idle for the gap (at most [`LINE_WAIT_CAP`] E-cycles
//! after the read). The devices pass what only they know: their frame
//! length, when their transmitter is busy until, and whether their receive
//! register is full.

use super::sci::{Pacing, LINE_WAIT_CAP};
use std::collections::VecDeque;

/// The input side of a serial line (see the module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SerialInput {
    /// Bytes not arrived yet.
    pub(super) queue: VecDeque<u8>,
    /// The cycle the next queued byte has arrived; `u64::MAX` while none
    /// is on its way (queue empty, the device not ready, or typed input
    /// waiting for the program to read the byte before).
    pub(super) next: u64,
    pacing: Pacing,
    /// Typed pacing after a line end was read: the next byte waits for the
    /// transmitter to be idle for the gap, until this cycle at the latest.
    line_wait_until: Option<u64>,
}

impl SerialInput {
    /// Nothing queued, bytes sent on the wire.
    pub(super) fn new() -> Self {
        SerialInput {
            queue: VecDeque::new(),
            next: u64::MAX,
            pacing: Pacing::Wire,
            line_wait_until: None,
        }
    }

    /// How bytes are sent from now on.
    pub(super) fn set_pacing(&mut self, pacing: Pacing) {
        self.pacing = pacing;
    }

    /// How bytes are sent.
    pub(super) fn pacing(&self) -> Pacing {
        self.pacing
    }

    /// The gap typed bytes leave (0 on the wire).
    pub(super) fn gap(&self) -> u64 {
        match self.pacing {
            Pacing::Typed { gap } => gap,
            Pacing::Wire => 0,
        }
    }

    /// Drops what is queued (a reset of the device).
    pub(super) fn clear(&mut self) {
        self.queue.clear();
        self.stop();
    }

    /// No byte is on its way until the device schedules one again.
    pub(super) fn stop(&mut self) {
        self.next = u64::MAX;
        self.line_wait_until = None;
    }

    /// Queued bytes that wait for the program, so none is on its way.
    pub(super) fn blocked(&self) -> usize {
        if self.next == u64::MAX {
            self.queue.len()
        } else {
            0
        }
    }

    /// Queued bytes on their way.
    pub(super) fn pending(&self) -> usize {
        if self.next == u64::MAX {
            0
        } else {
            self.queue.len()
        }
    }

    /// Queues `bytes`, the first to arrive one frame after `now` unless the
    /// device holds input back (`held`) or, typed, the program has not read
    /// the byte in the receive register (`full`) or a line's answer is
    /// awaited.
    pub(super) fn feed(&mut self, bytes: &[u8], now: u64, frame: u64, held: bool, full: bool) {
        let waiting = held
            || (matches!(self.pacing, Pacing::Typed { .. })
                && (full || self.line_wait_until.is_some()));
        if self.queue.is_empty() && !waiting {
            self.next = now + frame;
        }
        self.queue.extend(bytes.iter().copied());
    }

    /// The byte due now arrived at `at` (the device has taken it from
    /// the queue); `full`: the receive register holds an unread byte.
    /// Schedules the next: typed, it waits until the program reads.
    pub(super) fn arrived(&mut self, at: u64, frame: u64, full: bool) {
        self.line_wait_until = None;
        let typed = matches!(self.pacing, Pacing::Typed { .. }) && full;
        self.next = if self.queue.is_empty() || typed {
            u64::MAX
        } else {
            at + frame
        };
    }

    /// With typed pacing, schedules the next queued byte after the program
    /// read `read` at `now` (a line end waits for the answer).
    pub(super) fn after_read(&mut self, read: u8, now: u64, frame: u64, busy_until: u64) {
        let Pacing::Typed { gap } = self.pacing else {
            return;
        };
        if self.queue.is_empty() {
            return;
        }
        let line_end = read == b'\r' || read == b'\n';
        self.line_wait_until = line_end.then_some(now + LINE_WAIT_CAP);
        self.next = self.typed_start(now + gap, gap, busy_until) + frame;
    }

    /// When the next typed byte starts: at `earliest`, and while a line's
    /// answer is awaited, also `gap` after the transmitter's frame ends,
    /// but no later than the cap.
    fn typed_start(&self, earliest: u64, gap: u64, busy_until: u64) -> u64 {
        match self.line_wait_until {
            Some(cap) => earliest.max(busy_until + gap).min(cap),
            None => earliest,
        }
    }

    /// The transmitter started a frame (busy until `busy_until`): a typed
    /// byte that waits for a line's answer and has not started yet waits on.
    pub(super) fn output_started(&mut self, at: u64, frame: u64, busy_until: u64) {
        let (Pacing::Typed { gap }, Some(_)) = (self.pacing, self.line_wait_until) else {
            return;
        };
        if self.next == u64::MAX {
            return;
        }
        let start = self.next.saturating_sub(frame);
        if start > at {
            self.next = self.typed_start(start, gap, busy_until) + frame;
        }
    }
}

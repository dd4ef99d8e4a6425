//! The session's serial ports: what the program sent on the SCI and on
//! the board's host-port ACIA, and the lines the user types to them (as a
//! person types: each byte once the program has read the one before).

use super::*;

impl Session {
    /// Everything the program sent on the serial line.
    pub fn serial_text(&self) -> String {
        self.machine().map(|m| m.serial_text()).unwrap_or_default()
    }

    /// What the program sent through the board's ACIA (the EVB's host
    /// port); `None` on a board without one.
    pub fn acia_text(&self) -> Option<String> {
        let acia = self.machine()?.board().acia()?;
        Some(acia.output().iter().map(|&b| char::from(b)).collect())
    }

    /// Queues typed bytes for the program's serial receiver (the SCI's
    /// RDR, M68HC11 RM section 9); they arrive at the line's baud rate as
    /// the machine runs.
    pub fn send_serial(&mut self, bytes: &[u8]) -> bool {
        self.typed(|m| {
            m.feed_serial(bytes);
            true
        })
    }

    /// True if the open program's board has a second serial port, the
    /// EVB's host-port ACIA.
    pub fn has_acia(&self) -> bool {
        self.machine().is_some_and(|m| m.board().acia().is_some())
    }

    /// Queues typed bytes for the board's ACIA receiver (the EVB's host
    /// port), as a person types them; false without a program or an ACIA.
    pub fn send_acia(&mut self, bytes: &[u8]) -> bool {
        self.typed(|m| m.feed_acia(bytes))
    }

    /// Sets the machine's input to arrive as a person types it (what is
    /// typed in the panel, docs/cli.md), then feeds it; false without a
    /// program.
    fn typed(&mut self, feed: impl FnOnce(&mut Machine) -> bool) -> bool {
        let Some(d) = self.dbg.as_mut() else {
            return false;
        };
        let typed = crate::board::sci::Pacing::Typed {
            gap: crate::board::sci::TYPED_GAP,
        };
        d.target_mut().set_serial_pacing(typed);
        feed(d.target_mut())
    }
}

//! The debugger's watch on RAM bytes: which blocks leave the direct path,
//! and the log of watched accesses. Not machine state.

use super::watch_bits::WatchBits;
use super::Board;

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
pub(super) struct Watch {
    /// What is watched now, if anything.
    pub(super) on: Option<Box<WatchSet>>,
    /// The last set taken away, kept for the next (the debugger sets the
    /// watch before every run and takes it away after: no allocation per
    /// stop).
    spare: Option<Box<WatchSet>>,
}

/// The watched bytes and the log of accesses to them.
#[derive(Debug)]
pub(super) struct WatchSet {
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

impl Board {
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

    /// An access to a RAM byte in a watched block ([`Board::set_watch`]):
    /// logged if the byte is watched for it, with a request for attention,
    /// so the machine's hot loop leaves its stretch after this step
    /// (`Bus::attention`). `value` is the byte written or read.
    #[cold]
    #[inline(never)]
    pub(super) fn log_watched(&mut self, addr: u16, value: u8, write: bool) {
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
}

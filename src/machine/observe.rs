//! Observing the bus: a transparent adapter that reports every CPU read and
//! write (M68HC11 RM section 3, "Memory": each bus cycle is one byte) to an
//! observer, so watchpoints and provenance see an instruction's accesses
//! without the normal run path paying for it.

use crate::cpu::Bus;

/// Whether a bus cycle read or wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AccessKind {
    /// The CPU read a byte (opcode fetches included).
    Read,
    /// The CPU wrote a byte.
    Write,
}

/// One observed bus access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Access {
    /// Read or write.
    pub kind: AccessKind,
    /// The address.
    pub addr: u16,
    /// The byte read, or the byte written.
    pub value: u8,
    /// For writes: the byte the address held before (as `peek` saw it).
    pub old: u8,
}

/// Receives the accesses an [`ObservingBus`] forwards.
pub trait AccessObserver {
    /// Called after each read with the value the bus returned.
    fn on_read(&mut self, addr: u16, value: u8);
    /// Called before each write is forwarded; `old` is what `peek` returned.
    fn on_write(&mut self, addr: u16, value: u8, old: u8);
}

/// An observer that records nothing: stepping through it is the plain path.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl AccessObserver for NoObserver {
    #[inline(always)]
    fn on_read(&mut self, _addr: u16, _value: u8) {}
    #[inline(always)]
    fn on_write(&mut self, _addr: u16, _value: u8, _old: u8) {}
}

/// Records every access of one step, in order (a handful per instruction;
/// an interrupt entry writes nine bytes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccessLog {
    /// The accesses since the last [`AccessLog::clear`].
    pub accesses: Vec<Access>,
}

impl AccessLog {
    /// Forgets the recorded accesses, keeping the allocation.
    pub fn clear(&mut self) {
        self.accesses.clear();
    }

    /// The writes only.
    pub fn writes(&self) -> impl Iterator<Item = &Access> {
        self.accesses.iter().filter(|a| a.kind == AccessKind::Write)
    }
}

impl AccessObserver for AccessLog {
    fn on_read(&mut self, addr: u16, value: u8) {
        self.accesses.push(Access {
            kind: AccessKind::Read,
            addr,
            value,
            old: value,
        });
    }
    fn on_write(&mut self, addr: u16, value: u8, old: u8) {
        self.accesses.push(Access {
            kind: AccessKind::Write,
            addr,
            value,
            old,
        });
    }
}

/// A [`Bus`] that forwards to `inner` and reports each access to `observer`.
///
/// `Cpu::step` is generic over the bus, so a step through this adapter is
/// monomorphised separately and the unobserved path is untouched.
pub struct ObservingBus<'a, B: Bus, O: AccessObserver> {
    /// The bus that really answers.
    pub inner: &'a mut B,
    /// Who hears about each access.
    pub observer: &'a mut O,
}

impl<'a, B: Bus, O: AccessObserver> ObservingBus<'a, B, O> {
    /// Wraps `inner`, reporting to `observer`.
    pub fn new(inner: &'a mut B, observer: &'a mut O) -> Self {
        ObservingBus { inner, observer }
    }
}

impl<B: Bus, O: AccessObserver> Bus for ObservingBus<'_, B, O> {
    #[inline]
    fn read(&mut self, addr: u16) -> u8 {
        let value = self.inner.read(addr);
        self.observer.on_read(addr, value);
        value
    }
    #[inline]
    fn peek(&self, addr: u16) -> u8 {
        self.inner.peek(addr)
    }
    #[inline]
    fn write(&mut self, addr: u16, value: u8) {
        let old = self.inner.peek(addr);
        self.observer.on_write(addr, value, old);
        self.inner.write(addr, value);
    }
    #[inline]
    fn irq_vector(&self) -> Option<u16> {
        self.inner.irq_vector()
    }
    #[inline]
    fn xirq(&self) -> bool {
        self.inner.xirq()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::RamBus;

    #[test]
    fn forwards_and_records_in_order() {
        let mut ram = RamBus::new();
        ram.mem[0x40] = 7;
        let mut log = AccessLog::default();
        {
            let mut bus = ObservingBus::new(&mut ram, &mut log);
            assert_eq!(bus.read(0x40), 7);
            bus.write(0x40, 9);
            assert_eq!(bus.peek(0x40), 9);
        }
        assert_eq!(ram.mem[0x40], 9);
        assert_eq!(
            log.accesses,
            vec![
                Access {
                    kind: AccessKind::Read,
                    addr: 0x40,
                    value: 7,
                    old: 7
                },
                Access {
                    kind: AccessKind::Write,
                    addr: 0x40,
                    value: 9,
                    old: 7
                },
            ]
        );
        assert_eq!(log.writes().count(), 1);
    }

    #[test]
    fn interrupt_lines_pass_through() {
        let mut ram = RamBus::new();
        ram.irq = true;
        let mut obs = NoObserver;
        let bus = ObservingBus::new(&mut ram, &mut obs);
        assert_eq!(bus.irq_vector(), Some(0xFFF2));
        assert!(!bus.xirq());
    }
}

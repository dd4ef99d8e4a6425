//! The memory bus the core talks to (M68HC11 RM section 3, "Memory"): the board
//! maps devices behind it; a plain 64 KiB RAM serves tests and benchmarks.

/// What the CPU sees of memory and interrupt lines.
///
/// `read` may have side effects (reading SPSR then SPDR clears SPIF), `peek`
/// never does: views, the debugger, lessons and the grader only peek.
pub trait Bus {
    /// A CPU read of one byte; devices may react to it.
    fn read(&mut self, addr: u16) -> u8;
    /// The byte at `addr` as a read would return it, without side effects.
    fn peek(&self, addr: u16) -> u8;
    /// A CPU write of one byte.
    fn write(&mut self, addr: u16, value: u8);
    /// The eight bytes from `pc` on (the first in the top byte) when they
    /// are plain memory that reading cannot change, so the CPU can take an
    /// instruction's opcode and operands in one load; `None` (the default)
    /// makes it fetch each byte of the instruction through [`Bus::read`],
    /// all of them before the instruction's data accesses. A bus that must
    /// see every read (a recorder, an observer) keeps the default.
    #[inline(always)]
    fn code(&self, pc: u16) -> Option<u64> {
        let _ = pc;
        None
    }
    /// The instruction at `pc` in the form [`Bus::code`] gives: its eight
    /// bytes where `code` has them, else fetched byte by byte through
    /// [`Bus::read`] (exactly the instruction's bytes). A bus may answer
    /// this itself to keep the common case free of the `Option`.
    #[inline(always)]
    fn fetch(&mut self, pc: u16) -> u64
    where
        Self: Sized,
    {
        match self.code(pc) {
            Some(code) => code,
            None => crate::cpu::core::fetch_code(self, pc),
        }
    }
    /// The vector address of the highest-priority pending I-maskable interrupt
    /// (`$FFF2` for the IRQ pin, `$FFD6` for the SCI, ...), if any.
    fn irq_vector(&self) -> Option<u16> {
        None
    }
    /// True while the XIRQ pin is asserted (low).
    fn xirq(&self) -> bool {
        false
    }
    /// The CPU just changed what its next step must test: it left Running
    /// (WAI, a STOP that halts the clocks) or cleared I or X (CLI, TAP,
    /// RTI); or the step has an event to report (any
    /// [`crate::cpu::StepEvent`] but `None`: an interrupt or trap taken,
    /// SWI, a WAI or STOP slice, an illegal opcode refused). A board makes
    /// its next device event due at once ([`crate::board::Board`]), so a
    /// run that tests these only when time reaches an event (the machine's
    /// hot loop, the debugger's quick stretch) sees this step. Nothing by
    /// default.
    #[inline(always)]
    fn attention(&mut self) {}
}

/// A flat 64 KiB of RAM with no devices: for tests and the core benchmark.
#[derive(Clone, PartialEq, Eq)]
pub struct RamBus {
    /// The whole address space.
    pub mem: Box<[u8; 0x10000]>,
    /// IRQ pin level the tests drive (true = asserted).
    pub irq: bool,
    /// XIRQ pin level the tests drive (true = asserted).
    pub xirq: bool,
}

impl Default for RamBus {
    fn default() -> Self {
        RamBus {
            mem: Box::new([0; 0x10000]),
            irq: false,
            xirq: false,
        }
    }
}

impl RamBus {
    /// A zero-filled RAM.
    pub fn new() -> Self {
        Self::default()
    }

    /// Copies `bytes` to `addr` (wrapping at $FFFF).
    pub fn load(&mut self, addr: u16, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            self.mem[addr.wrapping_add(i as u16) as usize] = *b;
        }
    }

    /// Sets a 16-bit big-endian word, e.g. a vector.
    pub fn set_word(&mut self, addr: u16, value: u16) {
        self.load(addr, &value.to_be_bytes());
    }
}

impl std::fmt::Debug for RamBus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RamBus")
            .field("irq", &self.irq)
            .field("xirq", &self.xirq)
            .finish_non_exhaustive()
    }
}

impl Bus for RamBus {
    #[inline]
    fn read(&mut self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    #[inline]
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    #[inline]
    fn write(&mut self, addr: u16, value: u8) {
        self.mem[addr as usize] = value;
    }
    #[inline(always)]
    fn code(&self, pc: u16) -> Option<u64> {
        let at = pc as usize;
        let bytes = self.mem.get(at..at + 8)?;
        Some(u64::from_be_bytes(bytes.try_into().ok()?))
    }
    fn irq_vector(&self) -> Option<u16> {
        self.irq.then_some(0xFFF2)
    }
    fn xirq(&self) -> bool {
        self.xirq
    }
}

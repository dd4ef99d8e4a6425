//! The address decoder: which kind of memory or device answers at each
//! address, given the board ([`super::config::BoardConfig`]), INIT (where
//! the register block and internal RAM are) and the EEPROM state.
//!
//! Speed: the CPU's reads and writes of plain memory must cost a constant
//! check. A 256-entry table says per 256-byte page whether a read (RAM,
//! ROM, EEPROM not being programmed) or a write (RAM) may go straight to the
//! memory array; the register block (64 bytes) is excluded by comparing the
//! address against its base. Everything else (devices, unmapped addresses,
//! pages shared by two kinds, EEPROM while its latch is set, ROM writes)
//! takes the slow path, which asks [`MemoryMap::kind_at`].
//!
//! Priority as on the chip (M68HC11 RM 4.1 and the INIT description):
//! registers over internal RAM, internal RAM over everything else.

use super::config::{AddrRange, BoardConfig};

/// What answers at one address (registers are decided before this; an
/// ACIA or open range of the board answers where this says `Unmapped`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Nothing: reads see $FF, writes are a fault.
    Unmapped,
    /// Read-write memory (internal or external).
    Ram,
    /// Program memory: loaded, then read-only.
    Rom,
    /// The on-chip EEPROM array: read like ROM, written by programming.
    Eeprom,
    /// The PIO's registers.
    Pio,
}

/// Page flag: reads of this page may go straight to memory.
pub const READ_DIRECT: u8 = 1;
/// Page flag: writes to this page may go straight to memory.
pub const WRITE_DIRECT: u8 = 2;
/// Page flag: the register block lies in this page, so the direct flags
/// hold only for its other addresses. With it the hot path of a read or
/// write is one page-table load for every other page.
pub const REGISTERS: u8 = 4;

/// 64-byte blocks in the address space (see `MemoryMap::quick`).
const BLOCKS: usize = 1024;
/// `MemoryMap::quick` bit: reads of the block go straight to memory.
const QUICK_READ: u8 = 1;
/// `MemoryMap::quick` bit: writes to the block go straight to memory.
const QUICK_WRITE: u8 = 2;

/// Blocks whose writes and whose reads the debugger watches (one bit per
/// 64-byte block each, see [`MemoryMap::set_watch`]).
pub type WatchedBlocks = ([u64; BLOCKS / 64], [u64; BLOCKS / 64]);

/// Size of the on-chip register block.
pub const REGISTER_BLOCK: u16 = 0x40;

/// The decoder's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryMap {
    /// Per page: [`READ_DIRECT`] | [`WRITE_DIRECT`] | [`REGISTERS`].
    /// Change it only through [`MemoryMap::rebuild`] or
    /// [`MemoryMap::watch_vector_page`], which keep the quick tables below
    /// in step.
    pub pages: [u8; 256],
    /// Per 64-byte block: [`QUICK_READ`] if reads go straight to memory,
    /// [`QUICK_WRITE`] if writes do (the hot test of every CPU access is
    /// one bit of this). Blocks, not pages, because the register block is
    /// one: the rest of its page (the internal RAM's variables, at INIT's
    /// reset value) needs no second test. One table of bits rather than
    /// two of bools keeps the machine under 4 KiB (see `Machine`).
    quick: [u8; BLOCKS],
    /// Per page: all of it reads straight from memory.
    page_read: [bool; 256],
    /// Per page: it and the next page both read straight from memory, so
    /// eight bytes from any address in it may be taken in one load (never
    /// page $FF, after which the address space wraps).
    quick_code: [bool; 256],
    /// Base of the register block.
    pub reg_base: u16,
    /// Base of the internal RAM.
    pub ram_base: u16,
    /// Size of the internal RAM.
    pub ram_size: u16,
    /// The EEPROM range when the array is enabled (CONFIG.EEON at reset).
    pub eeprom: Option<AddrRange>,
    /// True while the EEPROM's latch (EELAT) takes it off the read bus.
    pub eeprom_latched: bool,
    /// True while an edge on IRQ waits for its vector fetch (page $FF slow).
    pub vector_watch: bool,
    /// The PIO's base (the board's, kept here for the slow path's speed).
    pub pio: Option<u16>,
    /// 64-byte blocks whose writes, and whose reads, leave the direct path
    /// (one bit each), while the debugger watches bytes in them
    /// ([`MemoryMap::set_watch`]).
    watch: Option<Box<WatchedBlocks>>,
}

impl MemoryMap {
    /// The map for `board` with INIT = `init` and the EEPROM `enabled`.
    pub fn new(board: &BoardConfig, init: u8, eeprom_enabled: bool) -> Self {
        let mut m = MemoryMap {
            pages: [0; 256],
            quick: [0; BLOCKS],
            page_read: [false; 256],
            quick_code: [false; 256],
            reg_base: 0,
            ram_base: 0,
            ram_size: board.internal_ram,
            eeprom: board.eeprom.filter(|_| eeprom_enabled),
            eeprom_latched: false,
            vector_watch: false,
            pio: board.pio,
            watch: None,
        };
        m.set_init(board, init);
        m
    }

    /// Moves the internal RAM and the register block as INIT says and
    /// rebuilds the page table.
    pub fn set_init(&mut self, board: &BoardConfig, init: u8) {
        self.ram_base = ((init >> 4) as u16) << 12;
        self.reg_base = ((init & 0x0F) as u16) << 12;
        self.rebuild(board);
    }

    /// Recomputes the page flags from the kinds of each page's bytes.
    pub fn rebuild(&mut self, board: &BoardConfig) {
        // A page is one kind unless a boundary of some range falls inside it.
        let mut split = [false; 256];
        let mut mark = |b: u32| {
            if b & 0xFF != 0 && b < 0x10000 {
                split[(b >> 8) as usize] = true;
            }
        };
        let ranges = board
            .ram
            .iter()
            .chain(board.rom.iter())
            .chain(self.eeprom.iter());
        for r in ranges {
            mark(r.start as u32);
            mark(r.end as u32 + 1);
        }
        if let Some(b) = board.pio {
            mark(b as u32);
            mark(b as u32 + 4);
        }
        // The ACIA and open ranges answer where the map has no memory; a
        // page they share with memory must take the slow path.
        if let Some(a) = board.acia {
            mark(a.base as u32);
            mark(a.base as u32 + 2);
        }
        for o in &board.open {
            mark(o.range.start as u32);
            mark(o.range.end as u32 + 1);
        }
        mark(self.ram_base as u32);
        mark(self.ram_base as u32 + self.ram_size as u32);
        for page in 0..256u16 {
            let kind = self.kind_at(board, page << 8);
            let uniform = !split[page as usize];
            self.pages[page as usize] = match (uniform, kind) {
                (true, Kind::Ram) => READ_DIRECT | WRITE_DIRECT,
                (true, Kind::Rom) => READ_DIRECT,
                (true, Kind::Eeprom) if !self.eeprom_latched => READ_DIRECT,
                _ => 0,
            };
        }
        if self.vector_watch {
            self.pages[0xFF] &= !READ_DIRECT;
        }
        // The block is 64 bytes at a multiple of $1000: always inside one page.
        self.pages[(self.reg_base >> 8) as usize] |= REGISTERS;
        self.sync_quick();
    }

    /// Takes page $FF off the direct read path until the IRQ vector fetch
    /// (an edge on IRQ is latched until then).
    pub fn watch_vector_page(&mut self) {
        self.vector_watch = true;
        self.pages[0xFF] &= !READ_DIRECT;
        self.sync_quick();
    }

    /// Takes the writes of the 64-byte blocks set in `blocks.0` (bit `b`
    /// of word `b / 64` for block `b`) and the reads of those in
    /// `blocks.1` off the direct path, or (`None`) puts every block back
    /// as the page table says.
    pub fn set_watch(&mut self, blocks: Option<WatchedBlocks>) {
        if blocks.is_none() && self.watch.is_none() {
            return;
        }
        // The debugger sets the watch before every run and takes it away
        // after: only the blocks watched before or now change (a whole
        // rebuild per stop was most of a watchpoint stop's cost).
        let mut touched = [0u64; BLOCKS / 64];
        for (writes, reads) in [self.watch.as_deref(), blocks.as_ref()]
            .into_iter()
            .flatten()
        {
            for (t, (w, r)) in touched.iter_mut().zip(writes.iter().zip(reads)) {
                *t |= w | r;
            }
        }
        self.watch = blocks.map(Box::new);
        for (word, &bits) in touched.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let b = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.quick[b] = self.block_quick(b);
            }
        }
    }

    fn sync_quick(&mut self) {
        for (i, &p) in self.pages.iter().enumerate() {
            self.page_read[i] = p & (READ_DIRECT | REGISTERS) == READ_DIRECT;
        }
        for b in 0..BLOCKS {
            self.quick[b] = self.block_quick(b);
        }
        for i in 0..256 {
            self.quick_code[i] = i < 255 && self.page_read[i] && self.page_read[i + 1];
        }
    }

    /// True if every byte of 64-byte block `b` is RAM (not the register
    /// block): its page is RAM throughout. False says nothing (a page
    /// that is RAM only in part).
    pub fn block_is_ram(&self, b: usize) -> bool {
        self.pages.get(b / 4).is_some_and(|p| p & WRITE_DIRECT != 0)
            && !self.is_register((b as u16) << 6)
    }

    /// Block `b`'s [`QUICK_READ`] and [`QUICK_WRITE`] bits: as its page
    /// says, none for the register block, less what the watch takes off.
    fn block_quick(&self, b: usize) -> u8 {
        let p = self.pages[b / 4];
        // The register block is 64-byte aligned, so one block.
        if self.is_register((b as u16) << 6) {
            return 0;
        }
        let bit = |flag: u8, quick: u8| if p & flag != 0 { quick } else { 0 };
        let mut q = bit(READ_DIRECT, QUICK_READ) | bit(WRITE_DIRECT, QUICK_WRITE);
        if let Some((writes, reads)) = self.watch.as_deref() {
            if writes[b / 64] & (1 << (b % 64)) != 0 {
                q &= !QUICK_WRITE;
            }
            if reads[b / 64] & (1 << (b % 64)) != 0 {
                q &= !QUICK_READ;
            }
        }
        q
    }

    /// True if a read (`write` false) or write of `addr` would go straight
    /// to memory but for the watch ([`MemoryMap::set_watch`]): a watched
    /// block of RAM, where the access is a plain one that is logged.
    pub fn direct_but_for_watch(&self, addr: u16, write: bool) -> bool {
        let flag = if write { WRITE_DIRECT } else { READ_DIRECT };
        self.pages[(addr >> 8) as usize] & flag != 0 && !self.is_register(addr)
    }

    /// True if a read of `addr` goes straight to memory: a page of one
    /// readable kind, and not the register block.
    #[inline(always)]
    pub fn reads_direct(&self, addr: u16) -> bool {
        self.quick[(addr >> 6) as usize] & QUICK_READ != 0
    }

    /// True if the eight bytes from `pc` on may be read straight from
    /// memory in one go: all in pages whose reads are direct (never the
    /// register block's), and not across $FFFF. The first test is the
    /// hot one: `pc`'s page and the next both direct.
    #[inline(always)]
    pub fn code_direct(&self, pc: u16) -> bool {
        self.code_direct_hot(pc) || self.code_direct_in_page(pc)
    }

    /// The hot half of [`Self::code_direct`]: `pc`'s page and the next
    /// both direct.
    #[inline(always)]
    pub fn code_direct_hot(&self, pc: u16) -> bool {
        self.quick_code[(pc >> 8) as usize]
    }

    /// The other half of [`Self::code_direct`]: all eight bytes in `pc`'s
    /// page, which is direct.
    #[inline(always)]
    pub fn code_direct_in_page(&self, pc: u16) -> bool {
        pc & 0xFF <= 0xF8 && self.page_read[(pc >> 8) as usize]
    }

    /// True if a write of `addr` goes straight to memory (see [`Self::reads_direct`]).
    #[inline(always)]
    pub fn writes_direct(&self, addr: u16) -> bool {
        self.quick[(addr >> 6) as usize] & QUICK_WRITE != 0
    }

    /// True if `addr` is in the register block.
    #[inline]
    pub fn is_register(&self, addr: u16) -> bool {
        addr.wrapping_sub(self.reg_base) < REGISTER_BLOCK
    }

    /// True if `addr` is in the internal RAM.
    #[inline]
    pub fn is_internal_ram(&self, addr: u16) -> bool {
        (addr.wrapping_sub(self.ram_base) as u32) < self.ram_size as u32
    }

    /// What answers at `addr` below the registers.
    pub fn kind_at(&self, board: &BoardConfig, addr: u16) -> Kind {
        if self.is_internal_ram(addr) {
            return Kind::Ram;
        }
        if self.eeprom.is_some_and(|r| r.contains(addr)) {
            return Kind::Eeprom;
        }
        if board.rom.iter().any(|r| r.contains(addr)) {
            return Kind::Rom;
        }
        if board.ram.iter().any(|r| r.contains(addr)) {
            return Kind::Ram;
        }
        if board.pio.is_some_and(|b| addr >= b && addr - b < 4) {
            return Kind::Pio;
        }
        Kind::Unmapped
    }

    /// True if a program may be loaded at `addr`: RAM, ROM or EEPROM that
    /// is not under the registers.
    pub fn is_loadable(&self, board: &BoardConfig, addr: u16) -> bool {
        !self.is_register(addr)
            && matches!(
                self.kind_at(board, addr),
                Kind::Ram | Kind::Rom | Kind::Eeprom
            )
    }

    /// The runs of RAM, ROM and EEPROM (not under the registers), in
    /// address order: (kind, first, last).
    fn memory_runs(&self, board: &BoardConfig) -> Vec<(Kind, u16, u16)> {
        let mut runs: Vec<(Kind, u16, u16)> = Vec::new();
        for a in 0..=0xFFFFu16 {
            let k = if self.is_register(a) {
                Kind::Unmapped
            } else {
                self.kind_at(board, a)
            };
            if !matches!(k, Kind::Ram | Kind::Rom | Kind::Eeprom) {
                continue;
            }
            match runs.last_mut() {
                Some((lk, _, end)) if *lk == k && end.wrapping_add(1) == a => *end = a,
                _ => runs.push((k, a, a)),
            }
        }
        runs
    }

    /// The RAM ranges, for messages: "$0040-$7FFF", "$0000-$00FF, $C000-$DFFF";
    /// empty if the board has none.
    pub fn describe_ram(&self, board: &BoardConfig) -> String {
        ranges_of(&self.memory_runs(board), Kind::Ram)
    }

    /// The loadable ranges in words, for load errors: "RAM ($0040-$7FFF)
    /// and program memory ($C000-$FFFF)".
    pub fn describe_loadable(&self, board: &BoardConfig) -> String {
        let runs = self.memory_runs(board);
        let mut parts = Vec::new();
        for (kind, name) in [
            (Kind::Ram, "RAM"),
            (Kind::Eeprom, "EEPROM"),
            (Kind::Rom, "program memory"),
        ] {
            let r = ranges_of(&runs, kind);
            if !r.is_empty() {
                parts.push(format!("{name} ({r})"));
            }
        }
        match parts.len() {
            0 => "any memory (the board has none)".into(),
            1 => parts.remove(0),
            n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
        }
    }
}

/// The runs of `kind` among `runs` as text: "$0000-$00FF, $C000-$DFFF";
/// empty if there are none.
fn ranges_of(runs: &[(Kind, u16, u16)], kind: Kind) -> String {
    let r: Vec<String> = runs
        .iter()
        .filter(|(k, _, _)| *k == kind)
        .map(|(_, s, e)| format!("${s:04X}-${e:04X}"))
        .collect();
    r.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block tables answer what the page flags and the register block
    /// say, at every address, for every board, INIT, EEPROM latch and
    /// vector watch: reads and writes direct exactly where the page is
    /// and the address is not a register.
    #[test]
    fn block_tables_follow_the_pages_and_the_register_block() {
        for cfg in [BoardConfig::trainer11(), BoardConfig::evb()] {
            for init in [0x00, 0x01, 0x10, 0x9B, 0xF0] {
                for (latched, watch) in [(false, false), (true, false), (false, true)] {
                    let mut m = MemoryMap::new(&cfg, init, true);
                    m.eeprom_latched = latched;
                    m.rebuild(&cfg);
                    if watch {
                        m.watch_vector_page();
                    }
                    for a in 0..=0xFFFFu16 {
                        let p = m.pages[usize::from(a >> 8)];
                        let reg = m.is_register(a);
                        assert_eq!(m.reads_direct(a), p & READ_DIRECT != 0 && !reg, "${a:04X}");
                        assert_eq!(
                            m.writes_direct(a),
                            p & WRITE_DIRECT != 0 && !reg,
                            "${a:04X}"
                        );
                    }
                }
            }
        }
    }

    /// `code_direct` says yes only where all eight bytes from the address
    /// read straight from memory and do not wrap past $FFFF; and it says
    /// yes for every address of a page whose next page is direct too.
    #[test]
    fn code_direct_only_over_direct_bytes() {
        for (name, cfg) in [
            ("trainer11", BoardConfig::trainer11()),
            ("evb", BoardConfig::evb()),
        ] {
            for init in [0x00, 0x01, 0x10, 0x9B] {
                let mut m = MemoryMap::new(&cfg, init, true);
                for watch in [false, true] {
                    if watch {
                        m.watch_vector_page();
                    }
                    for pc in 0..=0xFFFFu16 {
                        let all =
                            (0..8u16).all(|i| pc.checked_add(i).is_some_and(|a| m.reads_direct(a)));
                        if m.code_direct(pc) {
                            assert!(all, "{name} INIT={init:02X}: ${pc:04X}");
                        }
                        let page = usize::from(pc >> 8);
                        if page < 255 && m.page_read[page] && m.page_read[page + 1] {
                            assert!(m.code_direct(pc), "{name}: ${pc:04X} not taken");
                        }
                    }
                }
            }
        }
    }

    /// `set_watch` changes only the blocks watched before or now; after
    /// any sequence of watches the quick table is the one a whole rebuild
    /// gives (the registers moved, the vector page watched, an overlap).
    #[test]
    fn a_watch_changes_the_quick_table_as_a_rebuild_would() {
        let cfg = BoardConfig::evb();
        let block = |bs: &[usize]| {
            let mut w = [0u64; BLOCKS / 64];
            for &b in bs {
                w[b / 64] |= 1 << (b % 64);
            }
            w
        };
        let sets = [
            Some((block(&[1, 2, 64]), block(&[]))),
            Some((block(&[2, 3]), block(&[2, 1023]))),
            Some((block(&[]), block(&[0, 40, 64]))),
            None,
            Some((block(&[5]), block(&[5]))),
            None,
        ];
        for init in [0x01, 0x10] {
            let mut m = MemoryMap::new(&cfg, init, true);
            m.watch_vector_page();
            for set in sets {
                m.set_watch(set);
                let mut whole = m.clone();
                whole.sync_quick();
                assert_eq!(m.quick, whole.quick, "INIT ${init:02X}, {set:?}");
            }
            let mut fresh = MemoryMap::new(&cfg, init, true);
            fresh.watch_vector_page();
            assert_eq!(m.quick, fresh.quick, "INIT ${init:02X}: unwatched again");
        }
    }

    #[test]
    fn trainer11_pages() {
        let b = BoardConfig::trainer11();
        let m = MemoryMap::new(&b, 0x00, false);
        assert_eq!(m.pages[0x00], READ_DIRECT | WRITE_DIRECT | REGISTERS);
        assert!(!m.reads_direct(0x003F) && m.reads_direct(0x0040));
        assert!(!m.writes_direct(0x0000) && m.writes_direct(0x00FF));
        assert_eq!(m.pages[0x7F], READ_DIRECT | WRITE_DIRECT);
        assert_eq!(m.pages[0x80], 0);
        assert_eq!(m.pages[0xBF], 0);
        assert_eq!(m.pages[0xC0], READ_DIRECT);
        assert!(m.is_register(0x003F) && !m.is_register(0x0040));
        assert_eq!(
            m.describe_loadable(&b),
            "RAM ($0040-$7FFF) and program memory ($C000-$FFFF)"
        );
    }

    #[test]
    fn evb_pages() {
        let b = BoardConfig::evb();
        let m = MemoryMap::new(&b, 0x01, true);
        assert_eq!(m.pages[0x00], READ_DIRECT | WRITE_DIRECT);
        assert_eq!(m.pages[0x01], 0);
        assert_eq!(m.pages[0x10], REGISTERS);
        assert_eq!(m.pages[0xB6], READ_DIRECT);
        assert_eq!(m.kind_at(&b, 0xB800), Kind::Unmapped);
        assert!(m.is_register(0x103F));
        assert_eq!(
            m.describe_loadable(&b),
            "RAM ($0000-$00FF, $C000-$DFFF), EEPROM ($B600-$B7FF) and program memory ($E000-$FFFF)"
        );
    }
}

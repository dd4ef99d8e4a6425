//! The bytes a watch covers, as the board takes them
//! ([`crate::machine::Machine::set_watch`]): one bit per address for the
//! writes and one for the reads that are logged, and which 64-byte blocks
//! hold any. The debugger asks before every run whether the board can
//! watch them and hands them over again; with the blocks beside the bits
//! both questions look at the few words of the watched blocks, not at
//! 2 x 8 KiB of bits (together a third of a watchpoint stop's cost).

/// Words of one bit per address (bit `a & 63` of word `a >> 6`).
const WORDS: usize = 1024;

/// Words of one bit per 64-byte block (bit `w & 63` of word `w >> 6` for
/// the address word `w`).
const BLOCK_WORDS: usize = WORDS / 64;

/// The addresses whose writes and whose reads are watched, with the blocks
/// that hold any of each (always exact: only [`WatchBits::add`] and
/// [`WatchBits::clear`] change them).
#[derive(Clone, Debug)]
pub struct WatchBits {
    writes: Vec<u64>,
    reads: Vec<u64>,
    write_blocks: [u64; BLOCK_WORDS],
    read_blocks: [u64; BLOCK_WORDS],
}

impl Default for WatchBits {
    fn default() -> Self {
        WatchBits {
            writes: vec![0; WORDS],
            reads: vec![0; WORDS],
            write_blocks: [0; BLOCK_WORDS],
            read_blocks: [0; BLOCK_WORDS],
        }
    }
}

impl PartialEq for WatchBits {
    /// Equal blocks leave every other word zero in both: only the words
    /// of the watched blocks are compared.
    fn eq(&self, other: &Self) -> bool {
        self.write_blocks == other.write_blocks
            && self.read_blocks == other.read_blocks
            && self
                .blocks()
                .all(|w| self.writes[w] == other.writes[w] && self.reads[w] == other.reads[w])
    }
}

impl Eq for WatchBits {}

impl WatchBits {
    /// Nothing watched.
    pub fn new() -> Self {
        Self::default()
    }

    /// Watches the writes (`write`) and the reads (`read`) of `addr`.
    pub fn add(&mut self, addr: u16, write: bool, read: bool) {
        let (w, bit) = ((addr >> 6) as usize, 1u64 << (addr & 63));
        if write {
            self.writes[w] |= bit;
            self.write_blocks[w / 64] |= 1 << (w % 64);
        }
        if read {
            self.reads[w] |= bit;
            self.read_blocks[w / 64] |= 1 << (w % 64);
        }
    }

    /// Watches nothing again.
    pub fn clear(&mut self) {
        let words: Vec<usize> = self.blocks().collect();
        for w in words {
            self.writes[w] = 0;
            self.reads[w] = 0;
        }
        self.write_blocks = [0; BLOCK_WORDS];
        self.read_blocks = [0; BLOCK_WORDS];
    }

    /// True if writes of `addr` are watched.
    #[inline]
    pub fn watches_write(&self, addr: u16) -> bool {
        self.writes[(addr >> 6) as usize] & (1 << (addr & 63)) != 0
    }

    /// True if reads of `addr` are watched.
    #[inline]
    pub fn watches_read(&self, addr: u16) -> bool {
        self.reads[(addr >> 6) as usize] & (1 << (addr & 63)) != 0
    }

    /// The blocks with a watched write and those with a watched read (bit
    /// `b & 63` of word `b >> 6` for the block at `b * 64`), as
    /// [`super::map::MemoryMap::set_watch`] takes them.
    pub fn block_bits(&self) -> ([u64; BLOCK_WORDS], [u64; BLOCK_WORDS]) {
        (self.write_blocks, self.read_blocks)
    }

    /// The watched addresses of block `b` (`b * 64` on), in order.
    pub fn addresses_in(&self, b: usize) -> impl Iterator<Item = u16> {
        let mut bits =
            self.writes.get(b).copied().unwrap_or(0) | self.reads.get(b).copied().unwrap_or(0);
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let i = bits.trailing_zeros();
                bits &= bits - 1;
                ((b as u16) << 6) | i as u16
            })
        })
    }

    /// The blocks (address words) with anything watched, in order.
    pub fn blocks(&self) -> impl Iterator<Item = usize> + '_ {
        (0..BLOCK_WORDS).flat_map(move |i| {
            let mut bits = self.write_blocks[i] | self.read_blocks[i];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    i * 64 + b
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks follow the bits, equality ignores how the set was made,
    /// and a cleared set equals a new one (so a stale block would show).
    #[test]
    fn blocks_follow_the_bits() {
        let mut a = WatchBits::new();
        assert_eq!(a.blocks().next(), None);
        a.add(0x0041, true, false);
        a.add(0x7FFF, false, true);
        a.add(0x0042, true, true);
        assert_eq!(a.blocks().collect::<Vec<_>>(), vec![1, 0x1FF]);
        let addresses: Vec<u16> = a.blocks().flat_map(|b| a.addresses_in(b)).collect();
        assert_eq!(addresses, vec![0x0041, 0x0042, 0x7FFF]);
        let (w, r) = a.block_bits();
        assert_eq!((w[0], r[0], r[7]), (1 << 1, 1 << 1, 1 << 63));
        assert!(a.watches_write(0x0041) && !a.watches_read(0x0041));
        assert!(a.watches_read(0x7FFF) && !a.watches_write(0x7FFF));
        let mut b = WatchBits::new();
        b.add(0x0042, true, true);
        assert_ne!(a, b);
        b.add(0x7FFF, false, true);
        assert_ne!(a, b, "one write less");
        b.add(0x0041, true, false);
        assert_eq!(a, b);
        b.add(0x0041, false, true);
        assert_ne!(a, b, "a read more in the same block");
        b.clear();
        assert_eq!(b.blocks().next(), None);
        assert_eq!(b, WatchBits::new());
        assert_eq!(b.writes, vec![0; WORDS]);
        assert_eq!(b.reads, vec![0; WORDS]);
    }
}

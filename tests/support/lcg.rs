//! A small deterministic generator for randomised tests (random programs,
//! operands, games): a 64-bit linear congruential generator, the upper
//! bits taken. Shared so every test that uses it draws the same sequence
//! from the same seed.

/// The generator's state; start it with any seed.
pub struct Lcg(pub u64);

#[allow(dead_code)] // not every test uses every draw
impl Lcg {
    /// A number below `n` (`n` > 0).
    pub fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }

    /// A random byte.
    pub fn byte(&mut self) -> u8 {
        self.next(256) as u8
    }
}

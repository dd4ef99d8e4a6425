//! Fuzz-style robustness test of the grader's untrusted inputs: mutates a
//! real `assignment.toml` and a real submission zip with a fixed-seed PRNG
//! (so any failure reproduces) and checks that nothing panics and what is
//! accepted stays within the promised limits. The same properties as the
//! cargo-fuzz targets `assignment_toml` and `zip_reader` in fuzz/, in a form
//! that runs in `cargo test`.

use hc11lab::grade::assignment::{Limits, MAX_POINTS};
use hc11lab::grade::submission::zip_from_bytes;
use hc11lab::grade::Assignment;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// xorshift64*: small, fast and good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// One to four random edits: flip, overwrite, insert, delete, duplicate.
fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(b.len().max(1));
        match rng.below(5) {
            0 if !b.is_empty() => b[at] ^= 1 << rng.below(8),
            1 if !b.is_empty() => b[at] = rng.next() as u8,
            2 => b.insert(at.min(b.len()), rng.next() as u8),
            3 if !b.is_empty() => {
                b.remove(at);
            }
            _ => {
                let end = (at + rng.below(64)).min(b.len());
                let piece = b[at.min(end)..end].to_vec();
                let to = rng.below(b.len() + 1);
                b.splice(to..to, piece);
            }
        }
    }
    b
}

#[test]
fn mutated_assignment_tomls_never_panic() {
    let seed = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/viergewinnt/assignment.toml"),
    )
    .unwrap();
    let mut rng = Rng(0x5EED_1707);
    for i in 0..3000 {
        let data = mutate(&mut rng, &seed);
        let text = String::from_utf8_lossy(&data);
        let r = catch_unwind(AssertUnwindSafe(|| {
            Assignment::from_toml(&text, Path::new("/nonexistent-fuzz-dir"))
        }));
        let Ok(parsed) = r else {
            panic!("mutation {i} panicked:\n{text}");
        };
        if let Ok(a) = parsed {
            assert!(a.max_score().is_finite(), "mutation {i}");
            assert!(a
                .checks
                .iter()
                .all(|c| (0.0..=MAX_POINTS).contains(&c.points)));
        }
    }
}

#[test]
fn mutated_zips_never_panic_and_stay_inside() {
    let mut seed = Vec::new();
    {
        let mut z = zip::ZipWriter::new(std::io::Cursor::new(&mut seed));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, text) in [
            (
                "alice/Main.asm",
                "        include \"Utils.inc\"\n        rts\n",
            ),
            ("alice/Utils.inc", "util    nop\n        rts\n"),
            ("alice/notes.txt", "not a source"),
        ] {
            z.start_file(name, opts).unwrap();
            z.write_all(text.as_bytes()).unwrap();
        }
        z.finish().unwrap();
    }
    let limits = Limits {
        max_file_bytes: 64 * 1024,
        max_total_bytes: 256 * 1024,
        max_files: 16,
        ..Limits::default()
    };
    assert!(zip_from_bytes("seed.zip", &seed, &limits).is_ok());
    let mut rng = Rng(0x2170_2170);
    for i in 0..3000 {
        let data = mutate(&mut rng, &seed);
        let r = catch_unwind(AssertUnwindSafe(|| zip_from_bytes("m.zip", &data, &limits)));
        let Ok(read) = r else {
            panic!("mutation {i} panicked");
        };
        if let Ok(sub) = read {
            assert!(sub.files.len() <= limits.max_files);
            for p in sub.files.keys() {
                assert!(
                    !p.starts_with('/') && !p.split('/').any(|c| c == ".."),
                    "{p}"
                );
            }
        }
    }
}

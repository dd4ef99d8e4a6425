//! Fuzz-style robustness test of the loaders: mutates the seed files in
//! tests/data/gnu with a fixed-seed PRNG (so any failure reproduces) and
//! checks that no input makes a loader panic. The same mutations as the
//! cargo-fuzz targets in fuzz/, in a form that runs in `cargo test`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use hc11lab::image::elf::parse_elf;
use hc11lab::image::load::load_bytes;
use hc11lab::image::s19::{parse_s19, write_s19};

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

fn seed(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/gnu")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn get32(b: &[u8], off: usize) -> usize {
    b.get(off..off + 4)
        .map_or(0, |s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]) as usize)
}

/// Values that sit on the edges of the checks.
const INTERESTING: [u32; 12] = [
    0,
    1,
    2,
    0x20,
    0x28,
    0x46,
    0x7F,
    0xFF,
    0xFFFF,
    0x1_0000,
    0x7FFF_FFFF,
    0xFFFF_FFFF,
];

/// Mutates an ELF file, aiming half the time at the headers and tables,
/// where one changed field changes what the loader does.
fn mutate_elf(rng: &mut Rng, data: &mut Vec<u8>) {
    let hot = {
        let ph = get32(data, 28);
        let sh = get32(data, 32);
        [(0, 52), (ph, ph + 96), (sh, sh + 40 * 17)]
    };
    for _ in 0..1 + rng.below(6) {
        let len = data.len();
        if len == 0 {
            return;
        }
        let off = if rng.below(2) == 0 {
            let (a, b) = hot[rng.below(hot.len())];
            (a + rng.below(b.saturating_sub(a).max(1))).min(len - 1)
        } else {
            rng.below(len)
        };
        match rng.below(8) {
            0 => data[off] ^= 1 << rng.below(8),
            1 => data[off] = rng.next() as u8,
            2 => {
                let v = INTERESTING[rng.below(INTERESTING.len())];
                let v = if rng.below(2) == 0 {
                    v
                } else {
                    (len as u32).wrapping_sub(rng.below(64) as u32)
                };
                let o = off & !3;
                if o + 4 <= len {
                    data[o..o + 4].copy_from_slice(&v.to_be_bytes());
                }
            }
            3 => {
                let v = INTERESTING[rng.below(INTERESTING.len())] as u16;
                let o = off & !1;
                if o + 2 <= len {
                    data[o..o + 2].copy_from_slice(&v.to_be_bytes());
                }
            }
            4 => data.truncate(rng.below(len + 1)),
            5 => {
                let from = rng.below(len);
                let n = rng.below(64).min(len - from);
                let chunk = data[from..from + n].to_vec();
                let at = rng.below(len);
                let end = (at + n).min(len);
                data[at..end].copy_from_slice(&chunk[..end - at]);
            }
            6 => data.insert(off, rng.next() as u8),
            _ => {
                data.remove(off);
            }
        }
    }
}

/// Recomputes the checksum of every record line it can, so mutations reach
/// past the checksum test to counts, addresses and overlaps.
fn fix_checksums(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let hex = line.get(2..).unwrap_or("");
        let bytes: Option<Vec<u8>> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
            .collect();
        match bytes {
            Some(mut b) if line.starts_with('S') && hex.len() % 2 == 0 && b.len() >= 2 => {
                b.pop();
                b[0] = (b.len()) as u8;
                let sum = b.iter().fold(0u8, |a, &x| a.wrapping_add(x));
                out.push_str(&line[..2]);
                for x in &b {
                    out.push_str(&format!("{x:02X}"));
                }
                out.push_str(&format!("{:02X}", !sum));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Mutates S-record text line- and character-wise.
fn mutate_s19(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    const CHARS: &[u8] = b"0123456789ABCDEFabcdefS \t\r\x00xG7\xC3";
    for _ in 0..1 + rng.below(4) {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len());
        match rng.below(7) {
            0 | 1 => {
                let mut b = lines[i].clone().into_bytes();
                if !b.is_empty() {
                    let at = rng.below(b.len());
                    b[at] = CHARS[rng.below(CHARS.len())];
                }
                lines[i] = String::from_utf8_lossy(&b).into_owned();
            }
            2 => {
                let l = lines[i].clone();
                lines.insert(rng.below(lines.len() + 1), l);
            }
            3 => {
                lines.remove(i);
            }
            4 => {
                let mut cut = rng.below(lines[i].len() + 1);
                while !lines[i].is_char_boundary(cut) {
                    cut -= 1;
                }
                lines[i].truncate(cut);
            }
            5 => {
                // Retype the record: S1 <-> S2/S3/S5/S6/S7/S8/S9 with a valid layout.
                let kind = b"0123456789"[rng.below(10)] as char;
                if lines[i].len() > 2 && lines[i].is_char_boundary(2) {
                    lines[i].replace_range(1..2, &kind.to_string());
                }
            }
            _ => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
        }
    }
    let text = lines.join(if rng.below(4) == 0 { "\r\n" } else { "\n" });
    if rng.below(2) == 0 {
        fix_checksums(&text)
    } else {
        text
    }
}

/// Runs `f` on one input; a panic fails the test with what reproduces it.
fn no_panic(what: &str, iteration: usize, input: &[u8], f: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(f)).is_err() {
        let dump =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-crash-{what}-{iteration}"));
        let _ = std::fs::write(&dump, input);
        panic!(
            "{what} panicked at iteration {iteration}; input saved to {}",
            dump.display()
        );
    }
}

#[test]
fn mutated_elf_files_never_panic() {
    let seeds = [
        seed("loop.elf"),
        seed("loop_nodebug.elf"),
        seed("calls_inc.o"),
    ];
    let mut rng = Rng(0x68C1_1ABCD_u64);
    for i in 0..12_000 {
        let mut data = seeds[i % seeds.len()].clone();
        mutate_elf(&mut rng, &mut data);
        no_panic("elf", i, &data, || {
            if let Ok((program, _)) = parse_elf(&data, None) {
                // Whatever loads must be writable and read back the same.
                let back = parse_s19(&write_s19(&program)).expect("own S19 reads back");
                assert_eq!(back.program.entry, program.entry.or(Some(0)));
            }
        });
    }
}

#[test]
fn mutated_s19_files_never_panic() {
    let seeds = [
        String::from_utf8(seed("loop.s19")).unwrap(),
        String::from_utf8(seed("loop_s3.s19")).unwrap(),
    ];
    let mut rng = Rng(0x5195_1995);
    for i in 0..10_000 {
        let text = mutate_s19(&mut rng, &seeds[i % seeds.len()]);
        no_panic("s19", i, text.as_bytes(), || {
            if let Ok(f) = parse_s19(&text) {
                let again = parse_s19(&write_s19(&f.program)).expect("own S19 reads back");
                assert_eq!(again.program.segments, f.program.segments);
            }
            let _ = load_bytes(text.as_bytes(), Path::new("fuzz.s19"));
        });
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(42);
    for i in 0..3_000 {
        let len = rng.below(200);
        let mut data: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if i % 2 == 0 && data.len() >= 20 {
            // A plausible 68HC11 ELF32 big-endian identification, random rest.
            data[..8].copy_from_slice(b"\x7FELF\x01\x02\x01\x00");
            data[18..20].copy_from_slice(&70u16.to_be_bytes());
        }
        no_panic("bytes", i, &data, || {
            let _ = load_bytes(&data, Path::new("fuzz.bin"));
            let _ = parse_s19(&String::from_utf8_lossy(&data));
        });
    }
}

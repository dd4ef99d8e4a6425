//! Bad input never panics: random bytes and random token soup (mnemonics,
//! directives, numbers, quotes, punctuation, labels) go through the whole
//! assembler, the diagnostics renderer, the listing and the disassembler.

use hc11lab::asm::{assemble_with, disassemble, listing, AsmOptions, MemoryFiles};
use std::path::Path;

/// A small deterministic generator (64-bit LCG), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() as usize) % items.len()]
    }
}

const TOKENS: &[&str] = &[
    "ldaa",
    "staa",
    "bset",
    "brclr",
    "brset",
    "bra",
    "jsr",
    "ldx",
    "cpd",
    "rts",
    "lda",
    "org",
    "equ",
    "ds.b",
    "dc.b",
    "dc.w",
    "fcc",
    "include",
    "Section",
    "switch",
    ".if",
    ".ifdef",
    ".else",
    ".endif",
    "end",
    "#",
    ",",
    ",x",
    ",y",
    "x",
    "y",
    "*",
    "<",
    ">",
    "(",
    ")",
    "+",
    "-",
    "%",
    "$",
    "$FF",
    "$10000",
    "%101",
    "@7",
    "0x1F",
    "1Fh",
    "'a'",
    "'",
    "\"",
    "\"abc\"",
    ";",
    ":",
    "=",
    "~",
    "!",
    "<<",
    ">>",
    "&&",
    "label",
    "Label",
    "board",
    "9999999999999999999999",
    "-128",
    "255",
    "\t",
    " ",
    "ä",
    "€",
    "中",
    "/",
    "\\",
    "a.inc",
    "../x.inc",
];

fn soup(rng: &mut Rng, lines: usize) -> String {
    let mut s = String::new();
    for _ in 0..lines {
        if rng.next() % 3 != 0 {
            s.push(' ');
        }
        for _ in 0..(rng.next() % 7) {
            s.push_str(rng.pick(TOKENS));
            if rng.next() % 2 == 0 {
                s.push(' ');
            }
        }
        s.push_str(if rng.next() % 4 == 0 { "\r\n" } else { "\n" });
    }
    s
}

fn run(files: &MemoryFiles) {
    let asm = assemble_with(Path::new("main.asm"), files, &AsmOptions::default());
    let _ = asm.render_diagnostics();
    let _ = listing(&asm);
    if let Some(p) = &asm.program {
        let _ = disassemble(p);
    }
}

#[test]
fn random_token_soup_never_panics() {
    let mut rng = Rng(0x5EED);
    for _ in 0..300 {
        let main = soup(&mut rng, 40);
        let inc = soup(&mut rng, 10);
        let files = MemoryFiles::new().with("main.asm", main).with("a.inc", inc);
        run(&files);
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(42);
    for round in 0..200 {
        let len = (rng.next() % 2000) as usize;
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if round % 2 == 0 {
            // Mostly printable, so that the text passes the binary check.
            for b in &mut bytes {
                if *b < 0x20 && *b != b'\n' {
                    *b = b' ';
                }
            }
        }
        run(&MemoryFiles::new().with("main.asm", bytes));
    }
}

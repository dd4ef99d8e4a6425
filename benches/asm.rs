//! Assembler speed: lines per second on a large generated source (100k
//! lines) and on a Viergewinnt-sized one (~1500 lines over 8 files); also on
//! the bundled `firmware/Viergewinnt.asm` when it is present. Goal: the whole
//! Viergewinnt in under 5 ms.
//!
//! Run: `cargo bench --bench asm`

use hc11lab::asm::{assemble_file, assemble_with, AsmOptions, Assembly, MemoryFiles};
use std::path::Path;
use std::time::{Duration, Instant};

/// A varied body of code: labels, all operand forms, data, comments
/// (about 2.4 bytes of output per line).
fn body(lines: usize, tag: &str) -> String {
    let mut s = String::with_capacity(lines * 40);
    for n in 0..lines {
        let block = n - n % 16;
        match n % 16 {
            0 => s.push_str(&format!("{tag}L{n}\tpsha\t\t; Zähler für Zeile {n}\n")),
            1 => s.push_str(&format!("\tldaa\t#{}\n", n % 200)),
            2 => s.push_str("\tldx\t#board+rowLength*2\n"),
            3 => s.push_str("\tstaa\tPORTD\n"),
            4 => s.push_str("\tldd\tcellAddress\n"),
            5 => s.push_str(&format!("\tbne\t{tag}L{block}\n")),
            6 => s.push_str("\tbrclr\tscsr, #$80, *\n"),
            7 => s.push_str("\tbset\t0,x,#%00100000\n"),
            8 => s.push_str("\tldaa\t3,y\n"),
            9 => s.push_str(&format!("\tjsr\t{tag}L{block}\n")),
            10 => s.push_str("; ---------------------------------------------\n"),
            11 => s.push_str("\tdc.b\t$3C,$40,$40,$7C,$00\t; u\n"),
            12 => s.push_str("\tcpd\t#boardSize\n"),
            13 => s.push_str("\txgdy\n"),
            14 => s.push_str("\tpula\n"),
            _ => s.push_str("\trts\n"),
        }
    }
    s
}

/// A large body that fits in 64 KiB: per 16 lines, 5 emit 8 bytes; the
/// rest are constants with expressions, comments, label lines and `.if`.
fn sparse_body(lines: usize) -> String {
    let mut s = String::with_capacity(lines * 40);
    for n in 0..lines {
        let block = n - n % 16;
        match n % 16 {
            0 => s.push_str(&format!("s{n}\tpsha\t\t; Zähler {n}\n")),
            1 => s.push_str(&format!("\tldaa\t#c{block}&$7F\n")),
            2 => s.push_str(&format!("c{block}\tequ\t({n}*3+7)%256\n")),
            3 => s.push_str("\tstaa\tPORTD\n"),
            4 => s.push_str("; ---------------------------------------------\n"),
            5 => s.push_str(&format!("\tbne\ts{block}\n")),
            6 => s.push_str(&format!("w{block}\n")),
            7 => s.push_str(&format!("\t.if\tc{block} > 100\n")),
            8 => s.push_str("\tnop\t; only when large\n"),
            9 => s.push_str("\t.endif\n"),
            10 => s.push_str(&format!("d{block}\tequ\tc{block}+w{block}-s{block}\n")),
            11 => s.push_str("*\tcomment line in Motorola style\n"),
            12 => s.push_str(&format!("e{block}\t=\t$1234>>4|%1010\n")),
            13 => s.push('\n'),
            14 => s.push_str("\tpula\n"),
            _ => s.push_str("\trts\n"),
        }
    }
    s
}

const HEADER: &str = "\
PORTD\tequ\t$08\n\
SCSR\tequ\t$2E\n\
RamSection\tSection\n\
\torg\t$0040\n\
board\tds.b\tboardSize\n\
cellAddress\tds.w\t1\n\
RomSection\tSection\n\
\torg\t$8000\n";

const FOOTER: &str = "\
boardSize\tequ\t336\n\
rowLength\tequ\t56\n";

fn time(label: &str, lines: usize, iters: usize, mut f: impl FnMut() -> Assembly) {
    let mut times: Vec<Duration> = Vec::with_capacity(iters);
    for _ in 0..iters {
        let t = Instant::now();
        let asm = f();
        times.push(t.elapsed());
        assert!(
            asm.program.is_some(),
            "{label}: {}",
            asm.render_diagnostics()
        );
    }
    times.sort();
    let median = times[times.len() / 2];
    let best = times[0];
    println!(
        "{label:<32} {lines:>7} lines  median {:>9.3} ms  best {:>9.3} ms  {:>12.0} lines/s",
        median.as_secs_f64() * 1e3,
        best.as_secs_f64() * 1e3,
        lines as f64 / median.as_secs_f64()
    );
}

fn main() {
    let opts = AsmOptions::default();

    // Viergewinnt-sized: a main file including 7 files, ~1500 lines in all.
    let mut files = MemoryFiles::new();
    let mut main = String::from(HEADER);
    let mut total = 0;
    for k in 0..7 {
        let name = format!("Part{k}.inc");
        let text = body(200, &format!("p{k}"));
        total += text.lines().count();
        files.insert(&name, text);
        main.push_str(&format!("\tinclude\t{name}\n"));
    }
    main.push_str(FOOTER);
    total += main.lines().count();
    files.insert("Viergewinnt.asm", main);
    time("viergewinnt-sized (memory)", total, 200, || {
        assemble_with(Path::new("Viergewinnt.asm"), &files, &opts)
    });

    let fw = Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm");
    if fw.exists() {
        let first = assemble_file(&fw, &opts);
        let lines: usize = first.files.iter().map(|f| f.text.lines().count()).sum();
        time("firmware/Viergewinnt.asm (disk)", lines, 200, || {
            assemble_file(&fw, &opts)
        });
    }

    // Large: 100k lines in one file (max_file_size raised for it).
    let big = format!(
        "{}{}{FOOTER}",
        HEADER.replace("$8000", "$0200"),
        sparse_body(100_000)
    );
    let lines = big.lines().count();
    let big_files = MemoryFiles::new().with("big.asm", big);
    let big_opts = AsmOptions {
        max_file_size: 64 << 20,
        max_total_size: 64 << 20,
        ..AsmOptions::default()
    };
    time("100k-line source (memory)", lines, 5, || {
        assemble_with(Path::new("big.asm"), &big_files, &big_opts)
    });
}

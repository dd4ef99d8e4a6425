//! The bytes an assembled test program put in memory, and the bytes GNU as
//! makes of the same program, for the dialect tests.

use hc11lab::asm::{assemble_source, AsmOptions, Assembly, Dialect};

/// `text` assembled as the file `t.asm` in `dialect`.
#[allow(dead_code)] // not every test that shares this file assembles so
pub fn assemble(dialect: Dialect, text: &str) -> Assembly {
    let opts = AsmOptions {
        dialect,
        ..AsmOptions::default()
    };
    assemble_source("t.asm", text, &opts)
}

/// The bytes from `from` up to the first address the program does not fill.
pub fn image(asm: &Assembly, from: u16) -> Vec<u8> {
    let p = asm
        .program
        .as_ref()
        .unwrap_or_else(|| panic!("no program:\n{}", asm.render_diagnostics()));
    let mut out = Vec::new();
    let mut a = from;
    while let Some(b) = p.byte_at(a) {
        out.push(b);
        a = a.wrapping_add(1);
        if a == from {
            break;
        }
    }
    out
}

/// The bytes GNU `m68hc11-as` (Debian's binutils-m68hc1x, the independent
/// oracle) makes of `gnu_source`, its text linked at $C000 (`name` tells
/// the temporary folder apart).
#[allow(dead_code)] // not every test that shares this file asks GNU as
pub fn gnu_bytes(gnu_source: &str, name: &str) -> Vec<u8> {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("hc11lab-{name}-gnu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let step = |cmd: &mut Command| {
        let out = cmd.output().unwrap_or_else(|e| {
            panic!("cannot run {cmd:?} ({e}); install binutils-m68hc1x, the independent oracle")
        });
        assert!(
            out.status.success(),
            "{cmd:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    std::fs::write(dir.join("p.s"), gnu_source).expect("write source");
    step(
        Command::new("m68hc11-as")
            .args(["-m68hc11", "-o"])
            .arg(dir.join("p.o"))
            .arg(dir.join("p.s")),
    );
    step(
        Command::new("m68hc11-ld")
            .args([
                "-m",
                "m68hc11elf",
                "--no-relax",
                "-Ttext=0xc000",
                "-e",
                "0xc000",
                "-o",
            ])
            .arg(dir.join("p.elf"))
            .arg(dir.join("p.o")),
    );
    step(
        Command::new("m68hc11-objcopy")
            .args(["-O", "binary", "-j", ".text"])
            .arg(dir.join("p.elf"))
            .arg(dir.join("p.bin")),
    );
    let gnu = std::fs::read(dir.join("p.bin")).expect("read the binary");
    let _ = std::fs::remove_dir_all(&dir);
    gnu
}

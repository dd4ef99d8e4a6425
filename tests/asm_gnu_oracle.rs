//! Independent check against GNU binutils for the 68HC11 (`m68hc11-as`,
//! `m68hc11-ld`, `m68hc11-objcopy`, `m68hc11-objdump`, Debian package
//! binutils-m68hc1x): every opcode of the table in every addressing mode,
//! with several operand values and branch displacements up to the -128/+127
//! ends, must assemble to identical bytes with hc11lab and GNU as; and
//! hc11lab's disassembly of those bytes must agree with objdump on mnemonic,
//! operand values and length.
//!
//! GNU syntax differences handled by the generator: `*addr` selects direct
//! addressing, a plain number is extended; bit instructions separate the
//! mask with a space (`bset *0x40 #0x80`, `brset 3,x #0x80 target`); numbers
//! are `0x..`; labels end in `:`. The link uses `--no-relax` so that no
//! branch or address is rewritten.

use hc11lab::asm::{assemble_source, disassemble_memory, AsmOptions};
use hc11lab::cpu::opcodes::{Mode, Op, OPCODES};
use std::path::{Path, PathBuf};
use std::process::Command;

const ORG: u16 = 0xC000;

fn tool(name: &str) -> String {
    let ok = Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{name}` is not installed: install the GNU binutils for the 68HC11 \
         (Debian/Ubuntu: `apt-get install binutils-m68hc1x`); this test needs them as an independent oracle"
    );
    name.to_string()
}

/// Both sources: hc11lab's dialect and GNU as syntax, line for line.
fn sources() -> (String, String) {
    let mut ours = format!("        org     ${ORG:04X}\n");
    let mut gnu = String::from("        .text\n");
    let mut n = 0usize;
    let mut label = || {
        n += 1;
        format!("L{n}")
    };
    let v8 = [0x00u32, 0x01, 0x7F, 0x80, 0xFF];
    let v16 = [0x0000u32, 0x0100, 0x7FFF, 0xFFFF];
    let disps = [-128i32, -1, 0, 1, 127];
    for e in OPCODES {
        let m = e.op.mnemonic();
        let len = e.byte_len() as i32;
        match e.mode {
            Mode::Inherent => {
                ours.push_str(&format!("        {m}\n"));
                gnu.push_str(&format!("        {m}\n"));
            }
            Mode::Imm8 => {
                for v in v8 {
                    ours.push_str(&format!("        {m} #${v:02X}\n"));
                    gnu.push_str(&format!("        {m} #0x{v:02x}\n"));
                }
            }
            Mode::Imm16 => {
                for v in v16 {
                    ours.push_str(&format!("        {m} #${v:04X}\n"));
                    gnu.push_str(&format!("        {m} #0x{v:04x}\n"));
                }
            }
            Mode::Direct => {
                for v in v8 {
                    ours.push_str(&format!("        {m} ${v:02X}\n"));
                    gnu.push_str(&format!("        {m} *0x{v:02x}\n"));
                }
            }
            Mode::Extended => {
                for v in v16 {
                    ours.push_str(&format!("        {m} >${v:04X}\n"));
                    gnu.push_str(&format!("        {m} 0x{v:04x}\n"));
                }
            }
            Mode::IndexedX | Mode::IndexedY => {
                let r = if e.mode == Mode::IndexedX { 'x' } else { 'y' };
                for v in v8 {
                    ours.push_str(&format!("        {m} ${v:02X},{r}\n"));
                    gnu.push_str(&format!("        {m} 0x{v:02x},{r}\n"));
                }
            }
            Mode::Relative => {
                for d in disps {
                    let l = label();
                    ours.push_str(&format!("{l}      {m} {l}+{len}{d:+}\n"));
                    gnu.push_str(&format!("{l}:     {m} {l}+{len}{d:+}\n"));
                }
            }
            Mode::BitDirect | Mode::BitIndexedX | Mode::BitIndexedY => {
                for (a, mask) in [(0x00u32, 0x00u32), (0x7F, 0x80), (0xFF, 0xFF), (0x40, 0x01)] {
                    let (o, g) = match e.mode {
                        Mode::BitDirect => (format!("${a:02X}"), format!("*0x{a:02x}")),
                        Mode::BitIndexedX => (format!("${a:02X},x"), format!("0x{a:02x},x")),
                        _ => (format!("${a:02X},y"), format!("0x{a:02x},y")),
                    };
                    ours.push_str(&format!("        {m} {o},#${mask:02X}\n"));
                    gnu.push_str(&format!("        {m} {g} #0x{mask:02x}\n"));
                }
            }
            Mode::BitBranchDirect | Mode::BitBranchIndexedX | Mode::BitBranchIndexedY => {
                for (i, d) in disps.iter().enumerate() {
                    let (a, mask) = [
                        (0x00u32, 0x00u32),
                        (0x7F, 0x80),
                        (0xFF, 0xFF),
                        (0x40, 0x01),
                        (0x10, 0x55),
                    ][i];
                    let (o, g) = match e.mode {
                        Mode::BitBranchDirect => (format!("${a:02X}"), format!("*0x{a:02x}")),
                        Mode::BitBranchIndexedX => (format!("${a:02X},x"), format!("0x{a:02x},x")),
                        _ => (format!("${a:02X},y"), format!("0x{a:02x},y")),
                    };
                    let l = label();
                    ours.push_str(&format!("{l}      {m} {o},#${mask:02X},{l}+{len}{d:+}\n"));
                    gnu.push_str(&format!("{l}:     {m} {g} #0x{mask:02x} {l}+{len}{d:+}\n"));
                }
            }
        }
    }
    (ours, gnu)
}

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().expect("tool runs");
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Assembles and links the GNU source; returns the .text bytes and objdump -d.
fn gnu_build(dir: &Path, source: &str) -> (Vec<u8>, String) {
    let (as_, ld, objcopy, objdump) = (
        tool("m68hc11-as"),
        tool("m68hc11-ld"),
        tool("m68hc11-objcopy"),
        tool("m68hc11-objdump"),
    );
    let s = dir.join("all.s");
    std::fs::write(&s, source).expect("write source");
    run(Command::new(as_)
        .args(["-m68hc11", "-o"])
        .arg(dir.join("all.o"))
        .arg(&s));
    run(Command::new(ld)
        .args([
            "-m",
            "m68hc11elf",
            "--no-relax",
            &format!("-Ttext=0x{ORG:04x}"),
            "-e",
            &format!("0x{ORG:04x}"),
            "-o",
        ])
        .arg(dir.join("all.elf"))
        .arg(dir.join("all.o")));
    run(Command::new(objcopy)
        .args(["-O", "binary", "-j", ".text"])
        .arg(dir.join("all.elf"))
        .arg(dir.join("all.bin")));
    let bytes = std::fs::read(dir.join("all.bin")).expect("binary");
    let dump = run(Command::new(objdump).args(["-d"]).arg(dir.join("all.elf")));
    (bytes, String::from_utf8_lossy(&dump.stdout).into_owned())
}

/// Numbers in an operand text (`$1F`, `0x1f`, decimal), ignoring objdump's
/// `<symbol+offset>` notes.
fn numbers(text: &str) -> Vec<i64> {
    let mut clean = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => clean.push(c),
            _ => {}
        }
    }
    let mut out = Vec::new();
    let bytes = clean.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c == '$' || (c == '0' && bytes.get(i + 1) == Some(&b'x')) {
            let start = if c == '$' { i + 1 } else { i + 2 };
            let end = (start..bytes.len())
                .find(|&j| !(bytes[j] as char).is_ascii_hexdigit())
                .unwrap_or(bytes.len());
            out.push(i64::from_str_radix(&clean[start..end], 16).expect("hex"));
            i = end;
        } else if c.is_ascii_digit() {
            let end = (i..bytes.len())
                .find(|&j| !(bytes[j] as char).is_ascii_digit())
                .unwrap_or(bytes.len());
            out.push(clean[i..end].parse().expect("decimal"));
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

fn registers(text: &str) -> Vec<char> {
    let t = text.to_ascii_lowercase();
    ["x", "y"]
        .iter()
        .filter(|r| t.contains(&format!(",{r}")))
        .map(|r| r.chars().next().unwrap_or(' '))
        .collect()
}

#[test]
fn every_opcode_assembles_like_gnu_as_and_disassembles_like_objdump() {
    let (ours_src, gnu_src) = sources();
    let dir = std::env::temp_dir().join(format!("hc11lab-gnu-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let _cleanup = Scratch(dir.clone());

    let asm = assemble_source("all.asm", &ours_src, &AsmOptions::default());
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    let program = asm.program.expect("program");
    assert_eq!(program.segments.len(), 1);
    let ours = &program.segments[0].bytes;
    let (gnu, dump) = gnu_build(&dir, &gnu_src);
    assert_eq!(ours.len(), gnu.len(), "total length differs");
    if ours != &gnu {
        let at = ours.iter().zip(&gnu).position(|(a, b)| a != b).unwrap_or(0);
        let line = program
            .line_at(ORG + at as u16)
            .map(|l| l.line)
            .unwrap_or(0);
        panic!(
            "first difference at ${:04X} (all.asm line {line}: `{}`): hc11lab {:02X?}, GNU {:02X?}",
            ORG as usize + at,
            ours_src.lines().nth(line as usize - 1).unwrap_or(""),
            &ours[at..(at + 5).min(ours.len())],
            &gnu[at..(at + 5).min(gnu.len())]
        );
    }

    // Disassembly: objdump's rows vs. ours, instruction by instruction.
    // objdump shows at most 4 bytes per row; a 5-byte instruction continues
    // on a row with bytes only.
    let mut rows: Vec<(u16, usize, String, String)> = Vec::new();
    for l in dump.lines() {
        let Some((addr, rest)) = l.trim_start().split_once(":\t") else {
            continue;
        };
        let Ok(addr) = u16::from_str_radix(addr, 16) else {
            continue;
        };
        let mut parts = rest.split('\t');
        let bytes = parts.next().unwrap_or("").split_whitespace().count();
        match parts.next() {
            Some(m) => {
                let operands = parts.next().unwrap_or("").trim().to_string();
                rows.push((addr, bytes, m.trim().to_string(), operands));
            }
            None => {
                if let Some(last) = rows.last_mut() {
                    last.1 += bytes;
                }
            }
        }
    }
    let fetch = |a: u16| ours.get(a.wrapping_sub(ORG) as usize).copied().unwrap_or(0);
    let mine = disassemble_memory(&fetch, ORG, rows.len(), None);
    assert_eq!(
        rows.len(),
        program.lines.len(),
        "one objdump row per source line"
    );
    let mut problems = Vec::new();
    for ((addr, len, mnemonic, operands), d) in rows.iter().zip(&mine) {
        let (my_m, my_ops) = d.text.split_once(' ').unwrap_or((&d.text, ""));
        // objdump calls $00 `bgnd` (the 68HC12 name); on the 68HC11 it is `test`.
        let gnu_op = if mnemonic == "bgnd" {
            Some(Op::Test)
        } else {
            Op::from_mnemonic(mnemonic)
        };
        let same = *addr == d.addr
            && *len == d.bytes.len()
            && gnu_op.is_some()
            && gnu_op == Op::from_mnemonic(my_m)
            && numbers(operands) == numbers(my_ops)
            && registers(operands) == registers(my_ops);
        if !same {
            problems.push(format!("${addr:04X}: objdump `{mnemonic} {operands}` ({len} bytes), hc11lab `{}` ({} bytes)", d.text, d.bytes.len()));
        }
    }
    assert!(
        problems.is_empty(),
        "{} disagreements:\n{}",
        problems.len(),
        problems.join("\n")
    );
    // Every table entry was exercised.
    let modes: std::collections::HashSet<(u8, u8)> =
        OPCODES.iter().map(|e| (e.prebyte, e.opcode)).collect();
    assert_eq!(modes.len(), OPCODES.len());
}

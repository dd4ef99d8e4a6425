//! Oracle test: GNU objdump for the 68HC11 (Debian's binutils-m68hc1x) must
//! decode every entry of the opcode table with the same mnemonic, length and
//! addressing mode, and must call every other prebyte/opcode pair undefined.
//! objdump names opcode $00 `bgnd` (the 68HC12 name); on the 68HC11 it is TEST.

use hc11lab::cpu::opcodes::{Mode, Op, OPCODES, OPCODE_MAP, PREBYTES};
use std::collections::HashMap;
use std::process::Command;

const OBJDUMP: &str = "m68hc11-objdump";
const NOP: u8 = 0x01;
/// NOPs after each item: objdump resynchronises within them even if it
/// thought an item was longer (an instruction is at most 5 bytes).
const PAD: usize = 4;

/// What we expect at an address.
enum Expect {
    Documented(&'static hc11lab::cpu::OpcodeInfo),
    Undefined(Vec<u8>),
}

/// One decoded objdump line: byte count and text (mnemonic + operands).
struct Line {
    len: usize,
    mnemonic: String,
    operands: String,
}

fn run_objdump(bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("hc11lab-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("opcodes.bin");
    std::fs::write(&file, bytes).expect("write temp file");
    let out = Command::new(OBJDUMP)
        .args(["-b", "binary", "-m", "m68hc11", "-D"])
        .arg(&file)
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        Ok(o) => panic!("{OBJDUMP} failed: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => panic!(
            "{OBJDUMP} not found ({e}). This oracle test needs GNU binutils for the 68HC11: \
             install it with `sudo apt-get install binutils-m68hc1x` (CI installs it)."
        ),
    }
}

/// Parses objdump's listing into address -> line. Long instructions wrap
/// their bytes onto a continuation line without text; those bytes are added
/// to the instruction before.
fn parse(listing: &str) -> HashMap<usize, Line> {
    let mut lines: HashMap<usize, Line> = HashMap::new();
    let mut last: Option<usize> = None;
    for raw in listing.lines() {
        let mut fields = raw.split('\t');
        let Some(addr) = fields.next().and_then(|a| a.trim().strip_suffix(':')) else {
            continue;
        };
        let Ok(addr) = usize::from_str_radix(addr, 16) else {
            continue;
        };
        let nbytes = fields
            .next()
            .map(|b| b.split_whitespace().count())
            .unwrap_or(0);
        match fields.next() {
            Some(mnemonic) => {
                let operands = fields.collect::<Vec<_>>().join("\t").trim().to_string();
                lines.insert(
                    addr,
                    Line {
                        len: nbytes,
                        mnemonic: mnemonic.trim().to_string(),
                        operands,
                    },
                );
                last = Some(addr);
            }
            None => {
                if let Some(line) = last.and_then(|a| lines.get_mut(&a)) {
                    line.len += nbytes;
                }
            }
        }
    }
    lines
}

/// The addressing mode objdump's operand text shows, for the operand bytes
/// this test emits ($12, $34, $56).
fn mode_of(operands: &str) -> Option<Mode> {
    if operands.is_empty() {
        return Some(Mode::Inherent);
    }
    match operands {
        "#0x12" => return Some(Mode::Imm8),
        "#0x1234" => return Some(Mode::Imm16),
        _ => {}
    }
    let parts: Vec<&str> = operands.split(", ").collect();
    let first = parts.first()?;
    let kind = if first.starts_with('*') {
        'd'
    } else if first.ends_with(",x") {
        'x'
    } else if first.ends_with(",y") {
        'y'
    } else if first.starts_with("0x0x") {
        return (parts.len() == 1).then_some(Mode::Relative);
    } else if *first == "0x1234" {
        return (parts.len() == 1).then_some(Mode::Extended);
    } else {
        return None;
    };
    Some(match (kind, parts.len()) {
        ('d', 1) => Mode::Direct,
        ('d', 2) => Mode::BitDirect,
        ('d', 3) => Mode::BitBranchDirect,
        ('x', 1) => Mode::IndexedX,
        ('x', 2) => Mode::BitIndexedX,
        ('x', 3) => Mode::BitBranchIndexedX,
        ('y', 1) => Mode::IndexedY,
        ('y', 2) => Mode::BitIndexedY,
        ('y', 3) => Mode::BitBranchIndexedY,
        _ => return None,
    })
}

#[test]
fn objdump_agrees_with_the_opcode_table() {
    let mut bytes = Vec::new();
    let mut items: Vec<(usize, Expect)> = Vec::new();
    for info in OPCODES {
        items.push((bytes.len(), Expect::Documented(info)));
        bytes.extend(info.opcode_bytes());
        bytes.extend(&[0x12, 0x34, 0x56][..info.mode.operand_len() as usize]);
        bytes.extend([NOP; PAD]);
    }
    for op in 0..=255u8 {
        if OPCODE_MAP.get(0, op).is_none() && !PREBYTES.contains(&op) {
            items.push((bytes.len(), Expect::Undefined(vec![op])));
            bytes.push(op);
            bytes.extend([NOP; PAD]);
        }
    }
    for pre in PREBYTES {
        for op in 0..=255u8 {
            if OPCODE_MAP.get(pre, op).is_none() {
                items.push((bytes.len(), Expect::Undefined(vec![pre, op])));
                bytes.extend([pre, op]);
                bytes.extend([NOP; PAD]);
            }
        }
    }
    let lines = parse(&run_objdump(&bytes));

    let mut errors = Vec::new();
    let mut documented = 0;
    let mut undefined = 0;
    for (addr, expect) in &items {
        let Some(line) = lines.get(addr) else {
            errors.push(format!(
                "{addr:#x}: objdump has no instruction here (misaligned)"
            ));
            continue;
        };
        match expect {
            Expect::Documented(info) => {
                documented += 1;
                let name = if line.mnemonic == "bgnd" {
                    "test"
                } else {
                    line.mnemonic.as_str()
                };
                let what = format!(
                    "{:02X} {:02X} ({} {})",
                    info.prebyte, info.opcode, info.op, info.mode
                );
                if Op::from_mnemonic(name) != Some(info.op) {
                    errors.push(format!("{what}: objdump says `{}`", line.mnemonic));
                }
                if line.len != info.byte_len() as usize {
                    errors.push(format!(
                        "{what}: objdump length {} vs table {}",
                        line.len,
                        info.byte_len()
                    ));
                }
                if mode_of(&line.operands) != Some(info.mode) {
                    errors.push(format!("{what}: objdump operands `{}`", line.operands));
                }
            }
            Expect::Undefined(b) => {
                undefined += 1;
                if line.mnemonic != ".byte" || line.len != b.len() {
                    errors.push(format!(
                        "{b:02X?}: undefined in the table, objdump decodes `{} {}` ({} bytes)",
                        line.mnemonic, line.operands, line.len
                    ));
                }
            }
        }
    }
    assert!(
        errors.is_empty(),
        "{} disagreements:\n{}",
        errors.len(),
        errors.join("\n")
    );
    assert_eq!(documented, 308);
    assert_eq!(undefined, 20 + 3 * 256 - (64 + 7 + 4));
}

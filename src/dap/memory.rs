//! Memory as the client's memory and disassembly views see it: the 64 KiB
//! of the 68HC11's address space read without side effects (a device
//! register reads as a peek shows it), written where the board keeps RAM
//! or program memory, and disassembled with the program's labels.

use super::protocol::{memory_reference, DisassembledInstruction};
use super::sources::Sources;
use crate::cpu::Instruction;
use crate::image::SymbolKind;
use crate::machine::Machine;
use base64::Engine as _;

/// A memory reference as the client sends it back: `0xC123` (what this
/// server hands out), `$C123`, a decimal number or a label.
pub fn parse_reference(text: &str, m: &Machine) -> Result<i64, String> {
    let t = text.trim();
    let parsed = match t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .or_else(|| t.strip_prefix('$'))
    {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => t.parse::<i64>().ok(),
    };
    parsed
        .or_else(|| m.program().symbol(t).map(|s| i64::from(s.value)))
        .ok_or_else(|| {
            format!("`{t}` is no memory reference (an address such as 0xC000, or a label)")
        })
}

/// What `readMemory` answers: (address text, base64 data, unreadable bytes).
pub fn read(m: &Machine, start: i64, count: i64) -> (String, String, i64) {
    let count = count.clamp(0, 0x10000);
    if !(0..=0xFFFF).contains(&start) {
        // Nothing below $0000 or above $FFFF can be read.
        return (start.to_string(), String::new(), count);
    }
    let len = count.min(0x10000 - start);
    let bytes = m.peek_range(start as u16, len as usize);
    (
        memory_reference(start as u16),
        base64::engine::general_purpose::STANDARD.encode(bytes),
        count - len,
    )
}

/// Decodes `writeMemory`'s data.
pub fn decode(data: &str) -> Result<Vec<u8>, String> {
    base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|e| format!("the data is not base64: {e}"))
}

/// Where a write of `len` bytes at `start` fits in the address space.
pub fn check_range(start: i64, len: usize) -> Result<u16, String> {
    if start < 0 || start.saturating_add(len as i64) > 0x10000 {
        return Err(format!(
            "{len} bytes at {start} do not fit in the addresses $0000-$FFFF"
        ));
    }
    Ok(start as u16)
}

/// `count` instructions from the `offset`-th instruction around `base`
/// (negative: before it), exactly `count` of them: places outside the
/// address space are filler marked invalid.
pub fn disassemble(
    m: &Machine,
    sources: &Sources,
    base: i64,
    offset: i64,
    count: i64,
) -> Vec<DisassembledInstruction> {
    let count = count.clamp(0, 4096) as usize;
    // Nothing lies further away than the whole address space.
    let offset = offset.clamp(-0x10000, 0x10000);
    let base = base.clamp(-0x20000, 0x30000);
    let mut starts: Vec<i64> = Vec::with_capacity(count);
    let mut at = base;
    if offset < 0 {
        let back = (-offset) as usize;
        let mut before = starts_before(m, base, back);
        // Filler below $0000, one byte each.
        let missing = back - before.len();
        let first = before.first().copied().unwrap_or(base);
        let mut pad: Vec<i64> = (1..=missing as i64).rev().map(|k| first - k).collect();
        pad.append(&mut before);
        starts = pad.into_iter().take(count).collect();
    } else {
        for _ in 0..offset {
            at += step(m, at);
        }
    }
    if let Some(&last) = starts.last() {
        at = last + step(m, last);
    }
    while starts.len() < count {
        starts.push(at);
        at += step(m, at);
    }
    let program = m.program();
    let names = program.label_index();
    let name = |a: u16| {
        names
            .label_for(program, a)
            .filter(|(_, off)| *off == 0)
            .map(|(s, _)| s.name.clone())
    };
    let mut last_file = None;
    starts
        .into_iter()
        .map(|a| {
            let Ok(addr) = u16::try_from(a) else {
                return DisassembledInstruction {
                    address: a.to_string(),
                    instruction_bytes: None,
                    instruction: "(no memory)".into(),
                    symbol: None,
                    location: None,
                    line: None,
                    presentation_hint: Some("invalid".into()),
                };
            };
            let line = program.line_at(addr).filter(|l| l.addr == addr);
            let location = line
                .filter(|l| last_file != Some(l.file))
                .map(|l| sources.source(l.file));
            if let Some(l) = line {
                last_file = Some(l.file);
            }
            let symbol = program
                .symbols
                .iter()
                .find(|s| s.kind == SymbolKind::Label && s.value == addr)
                .map(|s| s.name.clone());
            let (text, bytes, hint) = match Instruction::decode(addr, |x| m.peek(x)) {
                Ok(i) if u32::from(addr) + u32::from(i.len()) <= 0x10000 => {
                    (i.format_with(&name), i.bytes(), None)
                }
                _ => {
                    let b = m.peek(addr);
                    (
                        format!("fcb ${b:02X}"),
                        vec![b],
                        Some("invalid".to_string()),
                    )
                }
            };
            DisassembledInstruction {
                address: memory_reference(addr),
                instruction_bytes: Some(
                    bytes
                        .iter()
                        .map(|b| format!("{b:02X}"))
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                instruction: text,
                symbol,
                location,
                line: line.map(|l| i64::from(l.line)),
                presentation_hint: hint,
            }
        })
        .collect()
}

/// Bytes from `addr` to the next instruction (1 outside memory or for an
/// illegal opcode, which shows as one data byte).
fn step(m: &Machine, addr: i64) -> i64 {
    match u16::try_from(addr) {
        Ok(a) => match Instruction::decode(a, |x| m.peek(x)) {
            Ok(i) if u32::from(a) + u32::from(i.len()) <= 0x10000 => i64::from(i.len()),
            _ => 1,
        },
        Err(_) => 1,
    }
}

/// Up to `n` instruction starts that end exactly at `base`, nearest last.
/// Decoding runs forward, so going back means finding an earlier start
/// whose instructions land on `base`: the program's own line starts first,
/// then each byte before.
fn starts_before(m: &Machine, base: i64, n: usize) -> Vec<i64> {
    if base <= 0 {
        return Vec::new();
    }
    let lowest = (base - 4 * n as i64 - 8).max(0);
    let program = m.program();
    let mut candidates: Vec<i64> = program
        .lines
        .iter()
        .filter(|l| l.len > 0)
        .map(|l| i64::from(l.addr))
        .filter(|&a| a >= lowest && a < base)
        .collect();
    candidates.extend(lowest..base);
    for s in candidates {
        let mut walk = Vec::new();
        let mut a = s;
        while a < base {
            walk.push(a);
            a += step(m, a);
        }
        if a == base && (walk.len() >= n || s == 0) {
            let skip = walk.len().saturating_sub(n);
            return walk.split_off(skip);
        }
    }
    // Nothing lands exactly: one byte per place.
    ((base - n as i64).max(0)..base).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine() -> Machine {
        let p = crate::open::open(None).expect("bundled").program;
        Machine::new(p).expect("machine")
    }

    #[test]
    fn reads_clip_at_the_address_space() {
        let m = machine();
        let (addr, data, unreadable) = read(&m, 0xFFFE, 4);
        assert_eq!(addr, "0xFFFE");
        assert_eq!(decode(&data).expect("b64").len(), 2);
        assert_eq!(unreadable, 2);
        let (_, data, unreadable) = read(&m, -1, 3);
        assert!(data.is_empty());
        assert_eq!(unreadable, 3);
        assert!(check_range(0xFFFF, 2).is_err());
        assert_eq!(check_range(0x40, 2), Ok(0x40));
    }

    #[test]
    fn references_are_addresses_or_labels() {
        let m = machine();
        assert_eq!(parse_reference("0x00C8", &m), Ok(0xC8));
        assert_eq!(parse_reference("$C8", &m), Ok(0xC8));
        assert_eq!(parse_reference("200", &m), Ok(200));
        let board = m.program().symbol("board").expect("board").value;
        assert_eq!(parse_reference("board", &m), Ok(i64::from(board)));
        assert!(parse_reference("nosuch", &m).is_err());
    }

    #[test]
    fn disassembly_goes_back_and_forth_with_labels() {
        let m = machine();
        let s = Sources::new(m.program(), false);
        let draw = i64::from(m.program().symbol("drawCell").expect("drawCell").value);
        let fwd = disassemble(&m, &s, draw, 0, 5);
        assert_eq!(fwd.len(), 5);
        assert_eq!(fwd[0].symbol.as_deref(), Some("drawCell"));
        assert!(fwd[0].location.is_some() && fwd[0].line.is_some());
        let back = disassemble(&m, &s, draw, -3, 5);
        assert_eq!(back.len(), 5);
        assert_eq!(back[3].address, fwd[0].address, "{back:?}");
        assert_eq!(back[4].address, fwd[1].address);
        // Before $0000 and past $FFFF: filler.
        let low = disassemble(&m, &s, 0, -2, 3);
        assert_eq!(low.len(), 3);
        assert_eq!(low[0].presentation_hint.as_deref(), Some("invalid"));
        assert_eq!(low[2].address, "0x0000");
        let high = disassemble(&m, &s, 0xFFFE, 0, 4);
        assert_eq!(high.len(), 4);
        assert_eq!(high[3].presentation_hint.as_deref(), Some("invalid"));
        // A call names its target.
        let calls = disassemble(&m, &s, draw, 0, 40);
        assert!(calls
            .iter()
            .any(|i| i.instruction.starts_with("jsr ") && !i.instruction.contains('$')));
    }
}

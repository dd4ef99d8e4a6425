//! The disassembler: a program's segments (or any memory range) back to
//! 68HC11 mnemonics, using the one opcode table through
//! [`Instruction::decode`], with the program's labels and source lines.

use crate::cpu::decode::Instruction;
use crate::cpu::opcodes::Mode;
pub use crate::cpu::vector_name;
use crate::image::{FileId, Program, SymbolKind};
use std::collections::HashMap;
use std::fmt::Write;

/// One disassembled instruction or data row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisasmLine {
    /// Address of the first byte.
    pub addr: u16,
    /// The bytes shown on this row.
    pub bytes: Vec<u8>,
    /// `ldaa #$41`, `jsr drawCell`, or `fcb $12,$34` for data.
    pub text: String,
    /// Labels at this address (in definition order).
    pub labels: Vec<String>,
    /// The source line that produced these bytes, if known.
    pub source: Option<(FileId, u32)>,
    /// True when the bytes are shown as data (`fcb`).
    pub is_data: bool,
}

/// Bytes per `fcb` row.
const DATA_PER_ROW: usize = 8;

struct Names {
    by_addr: HashMap<u16, Vec<String>>,
}

impl Names {
    fn new(program: Option<&Program>) -> Names {
        let mut by_addr: HashMap<u16, Vec<String>> = HashMap::new();
        if let Some(p) = program {
            for s in p.symbols.iter().filter(|s| s.kind == SymbolKind::Label) {
                by_addr.entry(s.value).or_default().push(s.name.clone());
            }
        }
        Names { by_addr }
    }

    fn labels(&self, addr: u16) -> Vec<String> {
        self.by_addr.get(&addr).cloned().unwrap_or_default()
    }

    fn name(&self, addr: u16) -> Option<String> {
        self.by_addr.get(&addr).and_then(|v| v.first().cloned())
    }
}

/// Whether the source line of a line entry is an instruction (as opposed
/// to data): its mnemonic field names an opcode.
fn source_is_code(program: &Program, file: FileId, line: u32) -> Option<bool> {
    let text = program.files.get(file)?.line_text(line)?;
    let fields = super::lexer::split_line(text, 0).ok()?;
    let m = fields.mnemonic?;
    Some(super::directives::instruction(m.text).is_some())
}

fn data_line(addr: u16, bytes: &[u8], names: &Names, source: Option<(FileId, u32)>) -> DisasmLine {
    let items: Vec<String> = bytes.iter().map(|b| format!("${b:02X}")).collect();
    DisasmLine {
        addr,
        bytes: bytes.to_vec(),
        text: format!("fcb {}", items.join(",")),
        labels: names.labels(addr),
        source,
        is_data: true,
    }
}

fn code_line(ins: &Instruction, names: &Names, source: Option<(FileId, u32)>) -> DisasmLine {
    let word = ins.word_operand();
    // In the course dialect `$0040` would assemble as direct; an extended
    // operand below $100 is written `>$0040` so the text assembles back to
    // the same bytes.
    let text = if ins.info.mode == Mode::Extended && word <= 0xFF {
        let target = names.name(word).unwrap_or_else(|| format!("${word:04X}"));
        format!("{} >{target}", ins.info.op.mnemonic())
    } else {
        ins.format_with(&|a| names.name(a))
    };
    DisasmLine {
        addr: ins.addr,
        bytes: ins.bytes(),
        text,
        labels: names.labels(ins.addr),
        source,
        is_data: false,
    }
}

/// A vector's row: `fdb target ; name vector`, the target by its label
/// where there is one.
fn vector_line(
    addr: u16,
    bytes: [u8; 2],
    name: &str,
    names: &Names,
    source: Option<(FileId, u32)>,
) -> DisasmLine {
    let target = u16::from_be_bytes(bytes);
    let shown = names
        .name(target)
        .unwrap_or_else(|| format!("${target:04X}"));
    DisasmLine {
        addr,
        bytes: bytes.to_vec(),
        text: format!("fdb {shown} ; {name} vector"),
        labels: names.labels(addr),
        source,
        is_data: true,
    }
}

/// Disassembles every segment of a program into rows. Where the program
/// knows the source line of an address, that line decides between code and
/// data; elsewhere bytes are decoded as code and undecodable bytes become
/// `fcb`.
pub fn disassemble_lines(program: &Program) -> Vec<DisasmLine> {
    let names = Names::new(Some(program));
    let mut out = Vec::new();
    for seg in &program.segments {
        let end = seg.end();
        let mut pos = seg.start as u32;
        let byte = |a: u32| {
            seg.bytes
                .get((a - seg.start as u32) as usize)
                .copied()
                .unwrap_or(0)
        };
        while pos < end {
            let addr = pos as u16;
            let entry = program.line_at(addr).filter(|e| e.addr == addr).copied();
            let source = entry.map(|e| (e.file, e.line));
            let code = entry.and_then(|e| source_is_code(program, e.file, e.line));
            let avail = (end - pos) as usize;
            // The vector table holds addresses, not code (unless the
            // source says so).
            if let Some(name) = vector_name(addr).filter(|_| avail >= 2 && code != Some(true)) {
                let bytes = [byte(pos), byte(pos + 1)];
                out.push(vector_line(addr, bytes, name, &names, source));
                pos += 2;
                continue;
            }
            let decoded = Instruction::decode(addr, |a| {
                let a = a as u32;
                if a < end && a >= seg.start as u32 {
                    byte(a)
                } else {
                    0
                }
            })
            .ok()
            .filter(|i| i.len() as usize <= avail);
            let as_code = match (code, &decoded, entry) {
                (Some(false), _, _) => None,
                (_, Some(ins), Some(e)) if code == Some(true) => {
                    (ins.len() == e.len).then_some(ins)
                }
                (_, Some(ins), _) => Some(ins),
                _ => None,
            };
            match as_code {
                Some(ins) => {
                    out.push(code_line(ins, &names, source));
                    pos += ins.len() as u32;
                }
                None => {
                    // Data: the whole line entry (in rows), or one byte if unknown.
                    let len = match (code, entry) {
                        (Some(false), Some(e)) => (e.len as usize).min(avail),
                        _ => 1,
                    };
                    let mut off = 0;
                    while off < len {
                        let n = (len - off).min(DATA_PER_ROW);
                        let a = pos + off as u32;
                        let bytes: Vec<u8> = (0..n as u32).map(|i| byte(a + i)).collect();
                        let src = if off == 0 { source } else { None };
                        out.push(data_line(a as u16, &bytes, &names, src));
                        off += n;
                    }
                    pos += len as u32;
                }
            }
        }
    }
    out
}

/// The disassembly of a program as text: per segment a header, then label
/// lines (`name:`), the source line (`; file:line  text`) above the
/// instruction it produced, and `ADDR  BYTES  instruction` rows.
pub fn disassemble(program: &Program) -> String {
    let rows = disassemble_lines(program);
    let mut out = String::new();
    let mut seg_iter = program.segments.iter().peekable();
    let mut current_end: u32 = 0;
    for row in &rows {
        if row.addr as u32 >= current_end {
            for seg in seg_iter.by_ref() {
                if (seg.start as u32..seg.end()).contains(&(row.addr as u32)) {
                    let name = seg.name.as_deref().unwrap_or("(no section)");
                    let _ = writeln!(
                        out,
                        "{}; segment {name}: ${:04X}-${:04X} ({} bytes)",
                        if out.is_empty() { "" } else { "\n" },
                        seg.start,
                        seg.end().saturating_sub(1),
                        seg.bytes.len()
                    );
                    current_end = seg.end();
                    break;
                }
            }
        }
        for l in &row.labels {
            let _ = writeln!(out, "{l}:");
        }
        if let Some((file, line)) = row.source {
            if let Some(f) = program.files.get(file) {
                let name = f
                    .path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let text = f.line_text(line).unwrap_or("").trim();
                let _ = writeln!(out, "                    ; {name}:{line}  {text}");
            }
        }
        let bytes: Vec<String> = row.bytes.iter().map(|b| format!("{b:02X}")).collect();
        let shown = if row.is_data && row.bytes.len() > 5 {
            format!("{} ..", bytes[..5].join(" "))
        } else {
            bytes.join(" ")
        };
        let _ = writeln!(out, "{:04X}  {shown:<17}  {}", row.addr, row.text);
    }
    out
}

/// Disassembles `count` rows of memory from `start`, reading through `fetch`
/// (which must not have side effects: a `peek`), for the GUI's memory and
/// listing views. Labels and source lines come from `program` if given.
pub fn disassemble_memory(
    fetch: &dyn Fn(u16) -> u8,
    start: u16,
    count: usize,
    program: Option<&Program>,
) -> Vec<DisasmLine> {
    let names = Names::new(program);
    let mut out = Vec::with_capacity(count);
    let mut addr = start;
    for _ in 0..count {
        let source = program
            .and_then(|p| p.line_at(addr))
            .filter(|e| e.addr == addr)
            .map(|e| (e.file, e.line));
        match Instruction::decode(addr, fetch) {
            Ok(ins) => {
                out.push(code_line(&ins, &names, source));
                addr = ins.next_addr();
            }
            Err(_) => {
                out.push(data_line(addr, &[fetch(addr)], &names, source));
                addr = addr.wrapping_add(1);
            }
        }
    }
    out
}

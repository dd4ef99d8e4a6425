//! Serializable reports of the debugger's findings (for `run --json`, the
//! GUI and lessons): provenance chains annotated with labels and source
//! lines, call stack frames, stops. Addresses are those of the 68HC11 memory
//! map (M68HC11 RM section 3); lines come from the program's line map.

use super::callstack::{Doubt, Frame, FrameKind};
use super::profile::label_of;
use super::provenance::{Link, NodeKind};
use crate::cpu::Instruction;
use crate::image::{Program, Symbol};
use serde::Serialize;

/// Where an address is in the sources.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SourceRef {
    /// The address.
    pub address: u16,
    /// `label` or `label+offset`.
    pub label: Option<String>,
    /// The source file's path as opened.
    pub file: Option<String>,
    /// 1-based line.
    pub line: Option<u32>,
    /// The line's text, trimmed.
    pub source: Option<String>,
}

/// Looks an address up in the program.
pub fn source_ref(program: Option<&Program>, addr: u16) -> SourceRef {
    let mut r = SourceRef {
        address: addr,
        ..SourceRef::default()
    };
    let Some(p) = program else { return r };
    r.label = p.label_for(addr).map(|(s, off)| {
        if off == 0 {
            s.name.clone()
        } else {
            format!("{}+{off}", s.name)
        }
    });
    if let Some(l) = p.line_at(addr) {
        if let Some(f) = p.files.get(l.file) {
            r.file = Some(f.path.to_string_lossy().into_owned());
            r.source = f.line_text(l.line).map(|t| t.trim().to_string());
        }
        r.line = Some(l.line);
    }
    r
}

/// A name for a data address: `board+136`, `coordy`, or a register
/// constant such as `SPDR` for device addresses.
pub fn data_label(program: Option<&Program>, addr: u16, device: bool) -> String {
    data_label_text(
        program,
        program.and_then(|p| p.label_for(addr)),
        addr,
        device,
    )
}

/// [`data_label`] from the label found for `addr` (by `label_for`).
pub fn data_label_text(
    program: Option<&Program>,
    found: Option<(&Symbol, u16)>,
    addr: u16,
    device: bool,
) -> String {
    if let Some(p) = program.filter(|_| device) {
        if let Some(s) = p.symbols.iter().find(|s| {
            s.kind == crate::image::SymbolKind::Constant
                && s.value == addr
                && s.name.chars().all(|c| !c.is_ascii_lowercase())
        }) {
            return s.name.clone();
        }
    }
    if let Some((s, off)) = found {
        let within = s
            .size
            .map_or(off < 0x100, |size| (off as u32) < size.max(1));
        if within {
            return if off == 0 {
                s.name.clone()
            } else {
                format!("{}+{off}", s.name)
            };
        }
    }
    format!("${addr:04X}")
}

fn disassemble(program: Option<&Program>, peek: &dyn Fn(u16) -> u8, pc: u16) -> Option<String> {
    let ins = Instruction::decode(pc, peek).ok()?;
    Some(ins.format_with(&|a| {
        program
            .and_then(|p| p.label_for(a))
            .filter(|(_, off)| *off == 0)
            .map(|(s, _)| s.name.clone())
    }))
}

/// One link of a provenance chain, ready to show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LinkReport {
    /// `display`, `store`, `push`, `load`, `device`, `computed`, `immediate`,
    /// `initial` (the program image's byte), `unknown` or `trimmed`.
    pub kind: String,
    /// One readable sentence.
    pub text: String,
    /// The instruction's address (for `initial`: the data address; for
    /// `display`: 0).
    pub address: u16,
    /// Label (+offset) of `address`.
    pub label: Option<String>,
    /// Source file of `address`.
    pub file: Option<String>,
    /// Source line of `address`.
    pub line: Option<u32>,
    /// The source line's text.
    pub source: Option<String>,
    /// The instruction, disassembled with labels.
    pub instruction: Option<String>,
    /// The memory address read or written, if any.
    pub data_address: Option<u16>,
    /// Its name (`board+136`).
    pub data_label: Option<String>,
    /// The byte's value at that point.
    pub value: u8,
}

/// What a pixel is, in display RAM terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PixelInfo {
    /// Picture x (0 = left).
    pub x: usize,
    /// Picture y (0 = top).
    pub y: usize,
    /// Display RAM page.
    pub page: usize,
    /// Display RAM column.
    pub column: usize,
    /// Bit within the byte (0 = top row of the page).
    pub bit: u8,
    /// Whether the pixel is dark now.
    pub on: bool,
}

/// The answer to "where does this come from?".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// What was asked about (`pixel (63,19)`, `$00C8 (board+136)`).
    pub subject: String,
    /// For pixels: the display RAM position.
    pub pixel: Option<PixelInfo>,
    /// For memory: the address.
    pub address: Option<u16>,
    /// The byte's current value.
    pub value: u8,
    /// Newest first: the instruction that wrote the byte, where its value
    /// was loaded from, who wrote that, ...
    pub chain: Vec<LinkReport>,
}

impl Explanation {
    /// Readable multi-line text: the subject, then one line per link.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}:\n", self.subject);
        for (i, l) in self.chain.iter().enumerate() {
            let arrow = if i == 0 { "  " } else { "  <- " };
            out.push_str(arrow);
            out.push_str(&l.text);
            out.push('\n');
        }
        out
    }

    /// True if some link is of `kind` at an instruction labelled `label`
    /// (exactly or as `label+n`): for lessons and tests.
    pub fn has_link(&self, kind: &str, label: &str) -> bool {
        self.chain.iter().any(|l| {
            l.kind == kind
                && l.label.as_deref().is_some_and(|x| {
                    x.eq_ignore_ascii_case(label)
                        || x.to_ascii_lowercase()
                            .starts_with(&format!("{}+", label.to_ascii_lowercase()))
                })
        })
    }
}

fn kind_name(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Unknown => "unknown",
        NodeKind::Trimmed => "trimmed",
        NodeKind::Immediate => "immediate",
        NodeKind::Load => "load",
        NodeKind::Device => "device",
        NodeKind::Store => "store",
        NodeKind::Push => "push",
        NodeKind::Computed => "computed",
        NodeKind::Initial => "initial",
    }
}

/// Annotates raw links. `is_device` says which addresses are device registers.
pub fn annotate(
    links: &[Link],
    program: Option<&Program>,
    peek: &dyn Fn(u16) -> u8,
    is_device: &dyn Fn(u16) -> bool,
) -> Vec<LinkReport> {
    let mut out = Vec::new();
    for l in links {
        if l.kind == NodeKind::Initial {
            out.push(initial_link(program, l.addr, l.value));
            continue;
        }
        let at = source_ref(program, l.pc);
        let ins = disassemble(program, peek, l.pc);
        let dlabel = data_label(program, l.addr, is_device(l.addr));
        let place = || {
            let mut s = format!(
                "`{}` at {}",
                ins.clone().unwrap_or_else(|| "?".into()),
                at.label.clone().unwrap_or_else(|| format!("${:04X}", l.pc))
            );
            if let (Some(f), Some(line)) = (&at.file, at.line) {
                let short = std::path::Path::new(f)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| f.clone());
                s.push_str(&format!(" ({short}:{line})"));
            }
            s
        };
        let (text, has_data, has_ins) = match l.kind {
            NodeKind::Store => (
                format!("${:02X} stored to {dlabel} by {}", l.value, place()),
                true,
                true,
            ),
            NodeKind::Push => (
                format!(
                    "${:02X} pushed to the stack at {dlabel} by {}",
                    l.value,
                    place()
                ),
                true,
                true,
            ),
            NodeKind::Load => (
                format!("${:02X} loaded from {dlabel} by {}", l.value, place()),
                true,
                true,
            ),
            NodeKind::Device => (
                format!(
                    "${:02X} read from device register {dlabel} by {}",
                    l.value,
                    place()
                ),
                true,
                true,
            ),
            NodeKind::Computed => {
                let other = l.other.map(|o| match o.kind {
                    NodeKind::Immediate => format!(" with the constant ${:02X}", o.value),
                    NodeKind::Load | NodeKind::Device => format!(
                        " with ${:02X} from {}",
                        o.value,
                        data_label(program, o.addr, is_device(o.addr))
                    ),
                    _ => format!(" with ${:02X} computed at ${:04X}", o.value, o.pc),
                });
                (
                    format!(
                        "${:02X} computed by {}{}",
                        l.value,
                        place(),
                        other.unwrap_or_default()
                    ),
                    false,
                    true,
                )
            }
            NodeKind::Immediate => (
                format!("${:02X} is a constant of {}", l.value, place()),
                false,
                true,
            ),
            NodeKind::Unknown => (
                "a register value from before tracking started (or from reset)".to_string(),
                false,
                false,
            ),
            NodeKind::Trimmed => (
                "older history was dropped to bound memory".to_string(),
                false,
                false,
            ),
            NodeKind::Initial => (String::new(), true, false),
        };
        out.push(LinkReport {
            kind: kind_name(l.kind).to_string(),
            text,
            address: if has_ins { l.pc } else { 0 },
            label: if has_ins { at.label } else { None },
            file: if has_ins { at.file } else { None },
            line: if has_ins { at.line } else { None },
            source: if has_ins { at.source } else { None },
            instruction: if has_ins { ins } else { None },
            data_address: has_data.then_some(l.addr),
            data_label: has_data.then_some(dlabel.clone()),
            value: l.value,
        });
    }
    out
}

/// The link for a byte nobody wrote since tracking began: it is what the
/// program image (or reset) put there.
pub fn initial_link(program: Option<&Program>, addr: u16, value: u8) -> LinkReport {
    let at = source_ref(program, addr);
    let dlabel = data_label(program, addr, false);
    let from_image = program.and_then(|p| p.byte_at(addr)).is_some();
    let mut text = if from_image {
        format!("${value:02X} at {dlabel} is part of the program image, unchanged since loading")
    } else {
        format!("${value:02X} at {dlabel} was not written since tracking began")
    };
    if let (Some(f), Some(line)) = (&at.file, at.line) {
        let short = std::path::Path::new(f)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| f.clone());
        text.push_str(&format!(" ({short}:{line}"));
        if let Some(src) = &at.source {
            text.push_str(&format!(": {src}"));
        }
        text.push(')');
    }
    LinkReport {
        kind: "initial".into(),
        text,
        address: addr,
        label: at.label,
        file: at.file,
        line: at.line,
        source: at.source,
        instruction: None,
        data_address: Some(addr),
        data_label: Some(dlabel),
        value,
    }
}

/// One call stack frame, for views and `--json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FrameReport {
    /// `call` or `interrupt`.
    pub kind: String,
    /// Vector address, for interrupts.
    pub vector: Option<u16>,
    /// The subroutine or handler.
    pub target: u16,
    /// Its label.
    pub label: String,
    /// Where it was called from.
    pub call_site: SourceRef,
    /// Where it will return to.
    pub return_addr: u16,
    /// Label of the return address.
    pub return_label: String,
    /// SP after the entry pushed.
    pub sp: u16,
    /// Why the frame is not trusted, if it is not.
    pub doubt: Option<Doubt>,
}

/// Frames innermost first, annotated.
pub fn frames_report(frames: &[Frame], program: Option<&Program>) -> Vec<FrameReport> {
    frames
        .iter()
        .rev()
        .map(|f| FrameReport {
            kind: match f.kind {
                FrameKind::Call => "call".into(),
                FrameKind::Interrupt { .. } => "interrupt".into(),
            },
            vector: match f.kind {
                FrameKind::Interrupt { vector } => Some(vector),
                FrameKind::Call => None,
            },
            target: f.target,
            label: label_of(program, f.target),
            call_site: source_ref(program, f.call_site),
            return_addr: f.return_addr,
            return_label: label_of(program, f.return_addr),
            sp: f.sp,
            doubt: f.doubt,
        })
        .collect()
}

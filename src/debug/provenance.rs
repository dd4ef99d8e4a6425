//! Provenance: where every byte came from. A shadow of the registers and of
//! memory holds, per byte, a node saying which instruction produced it and
//! from what (a load from an address, an immediate, a computation, a store),
//! following the data paths of each instruction as the M68HC11 RM section 6
//! and appendix A describe them. The display RAM of the LCD gets the node of
//! the SPDR write whose transfer delivered the byte, so a pixel can be
//! followed back to the instruction that sent it, the buffer byte it was
//! loaded from and the instruction that last wrote that byte.
//!
//! Nodes live in one table and refer to each other by index; inputs are
//! always older (smaller index) than the node, which makes the periodic
//! mark-and-compact a single backward and a single forward pass. Compaction
//! keeps the newest [`MAX_DEPTH`] links behind every live value and cuts the
//! older history, so the table stays bounded however long the program runs.
//!
//! Owns: the provenance shadow of registers, memory and display RAM. Must
//! not know about: the session that asks (it is fed one step at a time).
//!
//! The data paths of each instruction and interrupt entry (which node a
//! step makes of what) are in `paths.rs`; the table, its compaction and the
//! chains questions follow are here.

use crate::cpu::{Instruction, Mode, Registers};
use serde::Serialize;

mod paths;

/// Index of a node in the tracker's table.
pub type NodeId = u32;

/// "No history": a register after reset, or memory never written since
/// tracking began (so it holds what the program image put there).
pub const NONE: NodeId = 0;
/// History more than [`MAX_DEPTH`] links behind every current value, dropped.
pub const CUT: NodeId = 1;

/// Links kept behind each current value when the table is compacted (the
/// newest ones; older history becomes [`CUT`]).
pub const MAX_DEPTH: u32 = 40;

/// Display RAM geometry of the ST7565R: 9 pages of 132 columns.
pub const LCD_PAGES: usize = 9;
/// Columns per display RAM page.
pub const LCD_COLUMNS: usize = 132;

/// What a node records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// See [`NONE`].
    Unknown,
    /// See [`CUT`].
    Trimmed,
    /// An immediate operand or a constant of the instruction (`ldaa #5`, `clra`,
    /// the return address a JSR pushes).
    Immediate,
    /// Loaded from memory `addr`; `input` is that memory byte's node.
    Load,
    /// Read from a device register at `addr` (its value comes from the device).
    Device,
    /// Stored to memory `addr`; `input` is the value's node.
    Store,
    /// Pushed on the stack at `addr`; pulling it back gives `input` unchanged.
    Push,
    /// Computed by the instruction from `input` and `other`.
    Computed,
    /// Only in chains, never stored: the memory byte at `addr` was not
    /// written since tracking began (it holds what the image or reset put there).
    Initial,
}

/// One node of the provenance graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Main input (see [`NodeKind`]).
    pub input: NodeId,
    /// Second input of a computation.
    pub other: NodeId,
    /// Address of the instruction that made this node.
    pub pc: u16,
    /// The memory address involved (loads, stores), else 0.
    pub addr: u16,
    /// What it records.
    pub kind: NodeKind,
    /// The byte's value when the node was made.
    pub value: u8,
}

const UNKNOWN_NODE: Node = Node {
    input: NONE,
    other: NONE,
    pc: 0,
    addr: 0,
    kind: NodeKind::Unknown,
    value: 0,
};

/// Indices of the register bytes in `Tracker::regs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegByte {
    /// Accumulator A.
    A = 0,
    /// Accumulator B.
    B = 1,
    /// X high byte.
    Xh = 2,
    /// X low byte.
    Xl = 3,
    /// Y high byte.
    Yh = 4,
    /// Y low byte.
    Yl = 5,
}

/// Where the next node table compaction starts, in nodes (16 bytes each).
pub const INITIAL_GC_THRESHOLD: usize = 1 << 20;
/// The threshold never grows past this (64 MiB of nodes).
pub const MAX_GC_THRESHOLD: usize = 1 << 22;

/// The provenance shadow state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tracker {
    nodes: Vec<Node>,
    mem: Vec<NodeId>,
    regs: [NodeId; 6],
    lcd: Vec<NodeId>,
    /// One bit per address: reads there come from a device, not from the last store.
    device: Vec<u64>,
    gc_threshold: usize,
    /// Node of the SPDR write whose transfer is on the wire (see the session).
    pub in_flight: NodeId,
    compactions: u64,
    depth_limit: u32,
}

impl Default for Tracker {
    fn default() -> Self {
        Self::new()
    }
}

impl Tracker {
    /// Empty history: every register and byte is [`NONE`].
    pub fn new() -> Self {
        let mut nodes = Vec::with_capacity(1 << 12);
        nodes.push(UNKNOWN_NODE);
        nodes.push(Node {
            kind: NodeKind::Trimmed,
            ..UNKNOWN_NODE
        });
        Tracker {
            nodes,
            mem: vec![NONE; 0x10000],
            regs: [NONE; 6],
            lcd: vec![NONE; LCD_PAGES * LCD_COLUMNS],
            device: vec![0; 1024],
            gc_threshold: INITIAL_GC_THRESHOLD,
            in_flight: NONE,
            compactions: 0,
            depth_limit: MAX_DEPTH,
        }
    }

    /// Declares `start..=end` as device registers: loads from there start a
    /// new chain instead of following the last store (SPDR reads the
    /// received byte, not the one written).
    pub fn mark_device_range(&mut self, start: u16, end: u16) {
        for a in start..=end {
            self.device[(a >> 6) as usize] |= 1 << (a & 63);
        }
    }

    #[inline]
    fn is_device(&self, a: u16) -> bool {
        self.device[(a >> 6) as usize] & (1 << (a & 63)) != 0
    }

    /// The node for a memory byte.
    pub fn mem_node(&self, addr: u16) -> NodeId {
        self.mem[addr as usize]
    }

    /// The node for a register byte.
    pub fn reg_node(&self, r: RegByte) -> NodeId {
        self.regs[r as usize]
    }

    /// The node of a display RAM byte.
    pub fn lcd_node(&self, page: usize, column: usize) -> NodeId {
        if page < LCD_PAGES && column < LCD_COLUMNS {
            self.lcd[page * LCD_COLUMNS + column]
        } else {
            NONE
        }
    }

    /// Records that the display RAM byte at (page, column) was written with
    /// the byte of the transfer now completing ([`Tracker::in_flight`]).
    pub fn lcd_written(&mut self, page: usize, column: usize) {
        if page < LCD_PAGES && column < LCD_COLUMNS {
            self.lcd[page * LCD_COLUMNS + column] = self.in_flight;
        }
    }

    /// A node by id.
    pub fn node(&self, id: NodeId) -> Node {
        self.nodes.get(id as usize).copied().unwrap_or(UNKNOWN_NODE)
    }

    /// Nodes in the table now.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Compactions run so far.
    pub fn compactions(&self) -> u64 {
        self.compactions
    }

    /// Approximate heap bytes in use (for the history's memory budget).
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + (self.mem.len() + self.lcd.len()) * 4
            + self.device.len() * 8
    }

    /// Heap bytes a clone takes (a clone's node table is only as long as it is full).
    pub fn live_bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
            + (self.mem.len() + self.lcd.len()) * 4
            + self.device.len() * 8
    }

    /// Forgets all history (after a reset or when tracking is switched on).
    pub fn clear(&mut self) {
        let device = std::mem::take(&mut self.device);
        *self = Tracker::new();
        self.device = device;
    }

    #[inline]
    fn push(&mut self, n: Node) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(n);
        id
    }

    fn imm(&mut self, pc: u16, value: u8) -> NodeId {
        self.push(Node {
            pc,
            value,
            kind: NodeKind::Immediate,
            ..UNKNOWN_NODE
        })
    }

    fn load(&mut self, pc: u16, addr: u16, value: u8) -> NodeId {
        let (kind, input) = if self.is_device(addr) {
            (NodeKind::Device, NONE)
        } else {
            (NodeKind::Load, self.mem[addr as usize])
        };
        self.push(Node {
            input,
            pc,
            addr,
            kind,
            value,
            ..UNKNOWN_NODE
        })
    }

    fn store(&mut self, pc: u16, addr: u16, value_node: NodeId, value: u8) {
        let id = self.push(Node {
            input: value_node,
            pc,
            addr,
            kind: NodeKind::Store,
            value,
            ..UNKNOWN_NODE
        });
        self.mem[addr as usize] = id;
    }

    fn push_byte(&mut self, pc: u16, addr: u16, value_node: NodeId, value: u8) {
        let id = self.push(Node {
            input: value_node,
            pc,
            addr,
            kind: NodeKind::Push,
            value,
            ..UNKNOWN_NODE
        });
        self.mem[addr as usize] = id;
    }

    /// A byte pulled from the stack: what was pushed there comes back as it
    /// was, so a value's trip through `psha`/`pula` leaves no trace.
    fn pull(&mut self, pc: u16, addr: u16, value: u8) -> NodeId {
        let tag = self.mem[addr as usize];
        let n = self.node(tag);
        if n.kind == NodeKind::Push {
            n.input
        } else {
            self.load(pc, addr, value)
        }
    }

    fn computed(&mut self, pc: u16, input: NodeId, other: NodeId, value: u8) -> NodeId {
        self.push(Node {
            input,
            other,
            pc,
            kind: NodeKind::Computed,
            value,
            ..UNKNOWN_NODE
        })
    }

    #[inline]
    fn set(&mut self, r: RegByte, n: NodeId) {
        self.regs[r as usize] = n;
    }
    #[inline]
    fn get(&self, r: RegByte) -> NodeId {
        self.regs[r as usize]
    }

    fn maybe_compact(&mut self) {
        if self.nodes.len() >= self.gc_threshold {
            self.compact();
            if self.nodes.len() > self.gc_threshold / 2 {
                if self.gc_threshold < MAX_GC_THRESHOLD {
                    self.gc_threshold *= 2;
                } else {
                    // Still too much history at the largest table: keep
                    // fewer links behind each value.
                    self.depth_limit = (self.depth_limit / 2).max(4);
                    self.compact();
                }
            }
        }
    }

    /// Drops every node that is not among the newest [`MAX_DEPTH`] links
    /// behind some register, memory or display byte; links to dropped nodes
    /// become [`CUT`].
    pub fn compact(&mut self) {
        let n = self.nodes.len();
        // Distance from the nearest root; u32::MAX = unreachable.
        let mut dist = vec![u32::MAX; n];
        let roots = self
            .mem
            .iter()
            .chain(self.lcd.iter())
            .chain(self.regs.iter())
            .chain(std::iter::once(&self.in_flight));
        for &r in roots {
            if let Some(d) = dist.get_mut(r as usize) {
                *d = 0;
            }
        }
        // Every user of a node is newer than it, so walking from the newest
        // node down, a node's distance is final when it is reached.
        for i in (2..n).rev() {
            let d = dist[i];
            if d < self.depth_limit {
                let node = self.nodes[i];
                for input in [node.input, node.other] {
                    let slot = &mut dist[input as usize];
                    *slot = (*slot).min(d + 1);
                }
            }
        }
        let mut new_id = vec![CUT; n];
        new_id[NONE as usize] = NONE;
        let mut kept = 2usize;
        for i in 2..n {
            if dist[i] < self.depth_limit {
                let mut node = self.nodes[i];
                node.input = new_id[node.input as usize];
                node.other = new_id[node.other as usize];
                new_id[i] = kept as NodeId;
                self.nodes[kept] = node;
                kept += 1;
            }
        }
        self.nodes.truncate(kept);
        let remap = |x: &mut NodeId| *x = new_id.get(*x as usize).copied().unwrap_or(NONE);
        self.mem.iter_mut().for_each(remap);
        self.lcd.iter_mut().for_each(remap);
        self.regs.iter_mut().for_each(remap);
        remap(&mut self.in_flight);
        self.compactions += 1;
    }

    /// The chain of links behind a node, newest first, at most `max` long.
    /// At a computation the chain follows the input that came from memory
    /// (a load or a store) in preference to an immediate; the other input is
    /// kept in [`Link::other`].
    pub fn chain(&self, start: NodeId, max: usize) -> Vec<Link> {
        let mut out = Vec::new();
        let mut id = start;
        while out.len() < max {
            let n = self.node(id);
            let next = match n.kind {
                NodeKind::Computed => {
                    let (a, b) = (self.node(n.input), self.node(n.other));
                    let weak = |k: NodeKind| matches!(k, NodeKind::Immediate | NodeKind::Unknown);
                    if weak(a.kind) && !weak(b.kind) {
                        (n.other, n.input)
                    } else {
                        (n.input, n.other)
                    }
                }
                _ => (n.input, NONE),
            };
            out.push(Link {
                kind: n.kind,
                pc: n.pc,
                addr: n.addr,
                value: n.value,
                other: (next.1 != NONE).then(|| {
                    let o = self.node(next.1);
                    OtherInput {
                        kind: o.kind,
                        pc: o.pc,
                        addr: o.addr,
                        value: o.value,
                    }
                }),
            });
            let terminal = matches!(
                n.kind,
                NodeKind::Unknown
                    | NodeKind::Trimmed
                    | NodeKind::Immediate
                    | NodeKind::Device
                    | NodeKind::Initial
            );
            if terminal || next.0 == NONE {
                // A load with no history read the initial contents (the
                // program image); a store of a never-set register, unknown.
                let tail = match n.kind {
                    NodeKind::Load => Some(NodeKind::Initial),
                    NodeKind::Store | NodeKind::Push => Some(NodeKind::Unknown),
                    _ => None,
                };
                if let Some(kind) = tail.filter(|_| out.len() < max) {
                    out.push(Link {
                        kind,
                        pc: 0,
                        addr: n.addr,
                        value: n.value,
                        other: None,
                    });
                }
                break;
            }
            id = next.0;
        }
        out
    }
}

/// The memory address an instruction's operand names, computed from the
/// registers before it ran (RM section 6.2, addressing modes).
pub fn effective_address(ins: &Instruction, before: &Registers) -> Option<u16> {
    let off = ins.operands[0] as u16;
    match ins.info.mode {
        Mode::Direct | Mode::BitDirect | Mode::BitBranchDirect => Some(off),
        Mode::Extended => Some(ins.word_operand()),
        Mode::IndexedX | Mode::BitIndexedX | Mode::BitBranchIndexedX => {
            Some(before.x.wrapping_add(off))
        }
        Mode::IndexedY | Mode::BitIndexedY | Mode::BitBranchIndexedY => {
            Some(before.y.wrapping_add(off))
        }
        Mode::Inherent | Mode::Imm8 | Mode::Imm16 | Mode::Relative => None,
    }
}

/// A computation's second input, summarised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OtherInput {
    /// What it was.
    pub kind: NodeKind,
    /// Its instruction.
    pub pc: u16,
    /// Its memory address, if a load.
    pub addr: u16,
    /// Its value.
    pub value: u8,
}

/// One step of a provenance chain, before it is annotated with source lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Link {
    /// What happened.
    pub kind: NodeKind,
    /// The instruction's address.
    pub pc: u16,
    /// The memory address read or written (loads, stores, pushes).
    pub addr: u16,
    /// The byte's value at that point.
    pub value: u8,
    /// For computations: the input not followed.
    pub other: Option<OtherInput>,
}

#[cfg(test)]
mod tests {
    use super::RegByte::*;
    use super::*;

    /// Runs a tiny straight-line program by hand: the test supplies the
    /// instruction bytes and the registers after; memory is a Vec.
    struct Sim {
        t: Tracker,
        regs: Registers,
        mem: Vec<u8>,
    }

    impl Sim {
        fn new() -> Self {
            Sim {
                t: Tracker::new(),
                regs: Registers {
                    sp: 0x3FFF,
                    ..Registers::default()
                },
                mem: vec![0; 0x10000],
            }
        }
        /// Executes `bytes` at `pc`: `f` performs the architectural effect.
        fn exec(&mut self, pc: u16, bytes: &[u8], f: impl FnOnce(&mut Registers, &mut Vec<u8>)) {
            let ins = Instruction::decode_slice(pc, bytes).expect("legal");
            let before = self.regs;
            f(&mut self.regs, &mut self.mem);
            let mem = &self.mem;
            self.t
                .instruction(&ins, &before, &self.regs, &|a| mem[a as usize]);
        }
    }

    #[test]
    fn store_load_through_stack_and_lcd() {
        let mut s = Sim::new();
        // C000 ldaa #$18 ; C002 oraa 2,x (x=$40) ; C004 staa 2,x
        s.regs.x = 0x0040;
        s.mem[0x42] = 0x81;
        s.exec(0xC000, &[0x86, 0x18], |r, _| r.a = 0x18);
        s.exec(0xC002, &[0xAA, 0x02], |r, m| r.a |= m[0x42]);
        s.exec(0xC004, &[0xA7, 0x02], |r, m| m[0x42] = r.a);
        // D000 ldy #$40 ; D004 ldaa 2,y ; D006 psha ; D007 clra ; D008 pula ; D009 staa $2A (SPDR)
        s.exec(0xD000, &[0x18, 0xCE, 0x00, 0x40], |r, _| r.y = 0x40);
        s.exec(0xD004, &[0x18, 0xA6, 0x02], |r, m| r.a = m[0x42]);
        s.exec(0xD007, &[0x36], |r, m| {
            m[r.sp as usize] = r.a;
            r.sp -= 1;
        });
        s.exec(0xD008, &[0x4F], |r, _| r.a = 0);
        s.exec(0xD009, &[0x32], |r, m| {
            r.sp += 1;
            r.a = m[r.sp as usize];
        });
        s.t.mark_device_range(0x0000, 0x003F);
        s.exec(0xD00A, &[0x97, 0x2A], |r, m| m[0x2A] = r.a);
        s.t.in_flight = s.t.mem_node(0x2A);
        s.t.lcd_written(2, 60);
        let chain = s.t.chain(s.t.lcd_node(2, 60), 16);
        let kinds: Vec<(NodeKind, u16, u16)> =
            chain.iter().map(|l| (l.kind, l.pc, l.addr)).collect();
        assert_eq!(
            kinds,
            vec![
                (NodeKind::Store, 0xD00A, 0x2A),
                (NodeKind::Load, 0xD004, 0x42),
                (NodeKind::Store, 0xC004, 0x42),
                (NodeKind::Computed, 0xC002, 0),
                (NodeKind::Load, 0xC002, 0x42),
                (NodeKind::Initial, 0, 0x42),
            ],
            "{chain:#?}"
        );
        assert_eq!(chain[1].value, 0x99);
        assert_eq!(
            chain[3].other.map(|o| (o.kind, o.pc, o.value)),
            Some((NodeKind::Immediate, 0xC000, 0x18))
        );
        // A device register read starts afresh.
        s.exec(0xD00C, &[0x96, 0x2A], |r, _| r.a = 0xFF);
        let c = s.t.chain(s.t.reg_node(A), 8);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].kind, NodeKind::Device);
    }

    #[test]
    fn exchanges_and_sixteen_bit_moves() {
        let mut s = Sim::new();
        s.mem[0x60] = 0x00;
        s.mem[0x61] = 0x88;
        // ldd $60 ; xgdx ; stx $70
        s.exec(0xC000, &[0xDC, 0x60], |r, m| {
            r.set_d(u16::from_be_bytes([m[0x60], m[0x61]]))
        });
        s.exec(0xC002, &[0x8F], |r, _| {
            let d = r.d();
            r.set_d(r.x);
            r.x = d;
        });
        s.exec(0xC003, &[0xDF, 0x70], |r, m| {
            m[0x70] = (r.x >> 8) as u8;
            m[0x71] = r.x as u8;
        });
        let c = s.t.chain(s.t.mem_node(0x71), 8);
        assert_eq!(
            c.iter().map(|l| (l.kind, l.addr)).collect::<Vec<_>>(),
            vec![
                (NodeKind::Store, 0x71),
                (NodeKind::Load, 0x61),
                (NodeKind::Initial, 0x61)
            ]
        );
        assert_eq!(c[1].value, 0x88);
    }

    #[test]
    fn interrupt_frames_restore_register_history() {
        let mut s = Sim::new();
        s.exec(0xC000, &[0x86, 0x42], |r, _| r.a = 0x42);
        let a_node = s.t.reg_node(A);
        let before = s.regs;
        s.t.interrupt(&before, false);
        s.regs.sp -= 9;
        s.exec(0xE000, &[0x4F], |r, _| r.a = 0);
        s.exec(0xE001, &[0x3B], |r, _| {
            r.sp += 9;
            r.a = 0x42;
        });
        assert_eq!(s.t.reg_node(A), a_node);
    }

    #[test]
    fn compaction_keeps_recent_history_and_cuts_the_rest() {
        let mut s = Sim::new();
        // inc $50 a thousand times, with garbage in between.
        for _ in 0..1000 {
            s.exec(0xC000, &[0x7C, 0x00, 0x50], |_, m| {
                m[0x50] = m[0x50].wrapping_add(1)
            });
            s.exec(0xC003, &[0x86, 0x07], |r, _| r.a = 7);
        }
        s.exec(0xC005, &[0xD6, 0x50], |r, m| r.b = m[0x50]);
        let before = s.t.chain(s.t.reg_node(B), 30);
        let count = s.t.node_count();
        s.t.compact();
        assert!(s.t.node_count() < 100, "{} -> {}", count, s.t.node_count());
        let after = s.t.chain(s.t.reg_node(B), 30);
        assert_eq!(before, after, "the newest links survive");
        let all = s.t.chain(s.t.reg_node(B), 10_000);
        // The load in B, then up to MAX_DEPTH links behind the store it read, then the cut.
        assert!(all.len() <= MAX_DEPTH as usize + 2, "{}", all.len());
        assert_eq!(all.last().map(|l| l.kind), Some(NodeKind::Trimmed));
        assert_eq!(s.t.chain(s.t.reg_node(A), 5)[0].kind, NodeKind::Immediate);
    }

    #[test]
    fn effective_addresses() {
        let r = Registers {
            x: 0x100,
            y: 0x200,
            ..Registers::default()
        };
        let ea =
            |b: &[u8]| effective_address(&Instruction::decode_slice(0xC000, b).expect("legal"), &r);
        assert_eq!(ea(&[0x96, 0x40]), Some(0x40));
        assert_eq!(ea(&[0xB6, 0x12, 0x34]), Some(0x1234));
        assert_eq!(ea(&[0xA6, 0x05]), Some(0x105));
        assert_eq!(ea(&[0x18, 0xA6, 0xFF]), Some(0x2FF));
        assert_eq!(ea(&[0x1C, 0x03, 0x80]), Some(0x103));
        assert_eq!(ea(&[0x86, 0x40]), None);
    }
}

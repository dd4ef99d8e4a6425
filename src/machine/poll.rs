//! Poll loops skipped from their code, without a measured iteration.
//!
//! The commonest wait there is reads one byte and branches back until a
//! bit changes: `tst SPSR / bpl` (the firmware's SPIF wait, once per LCD
//! byte), `brclr SCSR,x,#$80,*` (TDRE), `ldaa flag / beq` (a flag
//! an interrupt handler sets). The probe of [`super::fastforward`] finds
//! such a loop by running one more iteration through a watching bus and
//! comparing the machine before and after: exact, but several times the
//! cost of the iteration, once per wait.
//!
//! Here the loop is read from its code instead: at a back-jump whose
//! target H holds one of these forms ([`PollLoop::decode`]), the state at
//! H repeats if
//! * the byte read returns the same value at every read until the next
//!   device event and reading it changes nothing but the note that an
//!   input was polled ([`crate::board::Board::quiet_read`]: plain memory,
//!   SPSR or SCSR with no flag to clear, the keys, PORTA, the A/D
//!   registers); the skip notes the last read's poll;
//! * with that value the reading instruction leaves the CPU as it is (its
//!   flags, and A or B for a load, already hold what it would set) and
//!   the branch is taken, back to H;
//! * no interrupt is pending now (one can only become pending at a device
//!   event, which ends the skip as it ends every skip).
//!
//! Then one iteration from H gives the same state, and so do all until the
//! event: the same argument as the probe's, with the one read and the
//! instruction's effect checked directly. The skip itself is the probe's
//! ([`Machine::skip_repeats`], with the event iteration and the unseen
//! timer events as there), from the instruction ends and the read's
//! offset (0: a read is timed at the start of its instruction) that the
//! opcode table gives. Anything else, or a breakpoint on the head or the
//! branch, goes to the probe as before.

use super::skip::Measured;
use super::{Machine, StopConditions};
use crate::board::InputKind;
use crate::cpu::alu;
use crate::cpu::opcodes::{Mode, Op, OpcodeInfo, OPCODE_MAP};
use crate::cpu::registers::flags::{I, X};
use crate::cpu::{Bus, Registers};

/// The farthest a poll loop's branch lies after its head, in bytes (a
/// `tst ext,y`-sized read of three bytes; a `brset` branches at its head).
pub(super) const MAX_BRANCH_OFFSET: u16 = 3;

/// A loop of one read: `tst`, `ldaa`, `ldab`, `bita` or `bitb` of a byte
/// followed by a conditional branch back to it, or a `brset`/`brclr` to
/// itself. As read from the code at its head; the indexed address is
/// taken with X or Y as they are when it is used (the loop changes neither).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PollLoop {
    /// The reading instruction's operation.
    read: Op,
    /// Where it reads: the address, or the offset from X or Y.
    operand: Operand,
    /// `brset`/`brclr`: the mask; unused otherwise.
    mask: u8,
    /// The branch back (`read` itself for `brset`/`brclr`).
    branch: Op,
    /// How far the branch lies after the head, in bytes (0 for a
    /// `brset`/`brclr`).
    branch_at: u16,
    /// E-cycles of the reading instruction and of the branch (0 for a
    /// `brset`/`brclr`, which is both).
    cycles: [u8; 2],
}

/// Where a poll loop's read goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operand {
    /// Direct or extended: this address.
    Absolute(u16),
    /// Indexed: this offset from X.
    FromX(u8),
    /// Indexed: this offset from Y.
    FromY(u8),
}

impl PollLoop {
    /// The poll loop whose code from its head on is `code` (eight bytes,
    /// the first in the top byte), if it is one.
    pub(super) fn decode(code: u64) -> Option<PollLoop> {
        let byte = |i: u16| (code >> (56 - 8 * u32::from(i))) as u8;
        let first = byte(0);
        let (prebyte, opcode) = if first == 0x18 {
            (0x18, byte(1))
        } else {
            (0, first)
        };
        let info: &OpcodeInfo = OPCODE_MAP.get(prebyte, opcode)?;
        let len = u16::from(info.byte_len());
        let at = len - u16::from(info.mode.operand_len());
        let operand = match info.mode {
            Mode::Direct | Mode::BitBranchDirect => Operand::Absolute(u16::from(byte(at))),
            Mode::Extended => Operand::Absolute(u16::from_be_bytes([byte(at), byte(at + 1)])),
            Mode::IndexedX | Mode::BitBranchIndexedX => Operand::FromX(byte(at)),
            Mode::IndexedY | Mode::BitBranchIndexedY => Operand::FromY(byte(at)),
            _ => return None,
        };
        // The instruction at `branch_at` (`len_at` bytes, its displacement
        // the last) branches back to the head.
        let back = |branch_at: u16, len_at: u16| {
            let rel = byte(branch_at + len_at - 1) as i8;
            (branch_at + len_at).wrapping_add(rel as u16) == 0
        };
        match info.op {
            Op::Brset | Op::Brclr if back(0, len) => Some(PollLoop {
                read: info.op,
                operand,
                mask: byte(at + 1),
                branch: info.op,
                branch_at: 0,
                cycles: [info.cycles, 0],
            }),
            Op::Tst | Op::Ldaa | Op::Ldab | Op::Bita | Op::Bitb => {
                let branch = OPCODE_MAP.get(0, byte(len))?;
                let conditional = branch.mode == Mode::Relative
                    && !matches!(branch.op, Op::Bra | Op::Brn | Op::Bsr);
                (conditional && back(len, 2)).then_some(PollLoop {
                    read: info.op,
                    operand,
                    mask: 0,
                    branch: branch.op,
                    branch_at: len,
                    cycles: [info.cycles, branch.cycles],
                })
            }
            _ => None,
        }
    }

    /// The byte the loop reads with these registers.
    fn addr(&self, regs: &Registers) -> u16 {
        match self.operand {
            Operand::Absolute(a) => a,
            Operand::FromX(off) => regs.x.wrapping_add(u16::from(off)),
            Operand::FromY(off) => regs.y.wrapping_add(u16::from(off)),
        }
    }

    /// E-cycles of one iteration.
    fn period(&self) -> u64 {
        u64::from(self.cycles[0]) + u64::from(self.cycles[1])
    }

    /// Instructions of one iteration.
    pub(super) fn steps(&self) -> u64 {
        if self.cycles[1] == 0 {
            1
        } else {
            2
        }
    }

    /// The registers after the loop's read of `value` from `regs` (for
    /// BRSET and BRCLR, which set nothing, `regs` as they are).
    #[inline(always)]
    fn after_read(&self, regs: &Registers, value: u8) -> Registers {
        let mut r = *regs;
        match self.read {
            Op::Tst => alu::tst8(&mut r.ccr, value),
            Op::Ldaa => r.a = alu::logic8(&mut r.ccr, value),
            Op::Ldab => r.b = alu::logic8(&mut r.ccr, value),
            Op::Bita => {
                alu::logic8(&mut r.ccr, r.a & value);
            }
            Op::Bitb => {
                alu::logic8(&mut r.ccr, r.b & value);
            }
            _ => {}
        }
        r
    }

    /// What one iteration from `regs` (at the head) that reads `value`
    /// does: whether it leaves every register as it is, and whether it
    /// branches back. (In line: a call cost about 40 host instructions
    /// per poll skip, one skip per LCD byte.)
    #[inline(always)]
    fn iteration(&self, regs: &Registers, value: u8) -> (bool, bool) {
        match self.read {
            Op::Brset => return (true, !value & self.mask == 0),
            Op::Brclr => return (true, value & self.mask == 0),
            Op::Tst | Op::Ldaa | Op::Ldab | Op::Bita | Op::Bitb => {}
            _ => return (false, alu::branch_taken(self.branch, regs.ccr)),
        }
        // The read changes at most A, B and the flags.
        let after = self.after_read(regs, value);
        let kept = after.a == regs.a && after.b == regs.b && after.ccr == regs.ccr;
        (kept, alu::branch_taken(self.branch, after.ccr))
    }
}

/// A loop the CPU is in that waits on a byte of memory nothing can change
/// ([`Machine::memory_wait`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryWait {
    /// The byte the loop reads.
    pub addr: u16,
    /// The loop's reading instruction.
    pub head: u16,
}

/// Slots of [`PollCache`].
const CACHE_SLOTS: usize = 16;

/// The last loop heads decoded, with the code each was decoded from (so a
/// program that rewrites its loop is decoded again) and what it was. Only
/// decides how fast the same result comes, like the probe's backoff.
#[derive(Clone, Debug, Default)]
pub(crate) struct PollCache {
    slots: [Option<(u16, u64, Option<PollLoop>)>; CACHE_SLOTS],
}

impl PollCache {
    /// The poll loop at `head` whose code is `code`, decoded once.
    #[inline]
    fn get(&mut self, head: u16, code: u64) -> Option<PollLoop> {
        let slot = &mut self.slots[usize::from(head) % CACHE_SLOTS];
        match *slot {
            Some((h, c, poll)) if h == head && c == code => poll,
            _ => {
                let poll = PollLoop::decode(code);
                *slot = Some((head, code, poll));
                poll
            }
        }
    }
}

/// What to do at a back-jump, by [`Machine::poll_loop_at`].
pub(super) enum PollTry {
    /// No poll loop here (or one whose read has an effect and that stays):
    /// the probe may measure it.
    Probe,
    /// A poll loop that leaves, or changes a register, in its next
    /// iteration: nothing to skip or measure now.
    Run,
    /// A poll loop that repeats from here: skip it with
    /// [`Machine::skip_poll`] (the input its read polls, if any).
    Skip(PollLoop, Measured, Option<InputKind>),
}

impl Machine {
    /// Called when the instruction at `from` just sent control back to the
    /// current PC, within [`MAX_BRANCH_OFFSET`] bytes: whether that is a
    /// poll loop in a state that repeats (see the module doc).
    /// `breakpoint(a)` says whether the run stops at address `a`: a loop
    /// with one on its head or its branch is left to the probe, which
    /// stops there (the run must see every visit: a hit count or a
    /// condition may hold at any of them).
    pub(super) fn poll_loop_at(&mut self, from: u16, breakpoint: impl Fn(u16) -> bool) -> PollTry {
        let head = self.cpu.regs.pc;
        let Some(code) = self.board.code(head) else {
            return PollTry::Probe;
        };
        let Some(poll) = self.ff.polls_seen.get(head, code) else {
            return PollTry::Probe;
        };
        if from != head.wrapping_add(poll.branch_at) || breakpoint(head) || breakpoint(from) {
            return PollTry::Probe;
        }
        let addr = poll.addr(&self.cpu.regs);
        let Some((value, input)) = self.board.quiet_read(addr) else {
            // A read with an effect (SPIF set, say): the probe may find a
            // repeat, unless the loop leaves with this value.
            let (_, back) = poll.iteration(&self.cpu.regs, self.board.peek(addr));
            return if back { PollTry::Probe } else { PollTry::Run };
        };
        let (kept, back) = poll.iteration(&self.cpu.regs, value);
        if !(kept && back) || self.interrupt_pending() {
            return PollTry::Run;
        }
        let measured = Measured {
            last_device_read: (!self.board.reads_direct(addr)).then_some(0),
            reads_timer: self.board.reads_timer(addr),
            unmeasured: true,
        };
        PollTry::Skip(poll, measured, input)
    }

    /// The loop the CPU is in, if it is a one-read poll loop (`ldaa flag /
    /// beq`, `brclr flag,#1,*`; PC on its read or its branch) on a byte of
    /// RAM, ROM or EEPROM, in a state that goes round again, with no
    /// interrupt or COP reset that could run other code
    /// (`Machine::may_be_interrupted`). Nothing but the CPU writes
    /// memory and this loop writes none, so it never ends: a run stopped
    /// here by its budget would stop at any budget (`run` says so instead
    /// of asking for a larger one). For messages, not on any hot path.
    pub fn memory_wait(&self) -> Option<MemoryWait> {
        if self.cpu.state != crate::cpu::RunState::Running || self.may_be_interrupted() {
            return None;
        }
        let pc = self.cpu.regs.pc;
        // The read is at most `MAX_BRANCH_OFFSET` bytes before the branch.
        (0..=MAX_BRANCH_OFFSET).find_map(|back| {
            let head = pc.wrapping_sub(back);
            let code = (0..8u16).fold(0u64, |c, i| {
                c << 8 | u64::from(self.board.peek(head.wrapping_add(i)))
            });
            let poll = PollLoop::decode(code)?;
            if head != pc && head.wrapping_add(poll.branch_at) != pc {
                return None;
            }
            let addr = poll.addr(&self.cpu.regs);
            if !self.board.is_loadable(addr) {
                return None;
            }
            // From the head, the read sets what it sets once; then (and
            // on the branch, after it) a read that leaves every register
            // and flag as they are and a branch back go round for ever.
            let value = self.board.peek(addr);
            let regs = if head == pc {
                poll.after_read(&self.cpu.regs, value)
            } else {
                self.cpu.regs
            };
            let (kept, back_to_head) = poll.iteration(&regs, value);
            (kept && back_to_head).then_some(MemoryWait { addr, head })
        })
    }

    /// Skips the iterations of `poll` (found by [`Machine::poll_loop_at`]
    /// just now) that fit before `bound` and the next event the loop can
    /// see, as [`Machine::skip_repeats`] skips a measured loop's; the
    /// last skipped read of an input register is noted as a poll. Returns
    /// how many.
    pub(super) fn skip_poll(
        &mut self,
        poll: PollLoop,
        measured: Measured,
        input: Option<InputKind>,
        bound: u64,
    ) -> u64 {
        self.ff.ends[0] = u16::from(poll.cycles[0]);
        self.ff.ends[1] = poll.period() as u16;
        let k = self.skip_repeats(poll.period(), poll.steps(), bound, Some(measured));
        if k > 0 {
            self.ff.polls += 1;
            // The read is at the start of the iteration, the last of which
            // ends now.
            if let Some(kind) = input {
                let last = self.board.now() - poll.period();
                self.board.note_input_poll(last, kind);
            }
        }
        k
    }

    /// The provenance replay's use of the above: after a step (taken with
    /// [`Machine::step`]) from `from` that sent control back, skips the
    /// iterations of the poll loop it closed, if any, that fit in
    /// `max_steps` steps and end before the key script's next action, the
    /// COP deadline and the next event the loop can see (or, where that is
    /// exact, the iteration that meets it). Returns the steps skipped.
    /// Each skipped iteration reads what the one just run read and changes
    /// nothing, so a tracker that saw that one needs to see no more of
    /// them (module `debug::lazy_provenance`).
    pub fn skip_poll_loop(&mut self, from: u16, max_steps: u64) -> u64 {
        let head = self.cpu.regs.pc;
        if !self.ff.enabled
            || from.wrapping_sub(head) > MAX_BRANCH_OFFSET
            || self.cpu.state != crate::cpu::RunState::Running
        {
            return 0;
        }
        let PollTry::Skip(poll, measured, input) = self.poll_loop_at(from, |_| false) else {
            return 0;
        };
        let most = max_steps / poll.steps();
        if most == 0 {
            return 0;
        }
        let now = self.board.now();
        // As the hooked run's quick stretch: every skipped iteration ends
        // before the script's next action and the COP deadline; and at
        // most `most` of them (the one meeting an event included).
        let bound = self
            .script_deadline
            .min(self.board.cop_deadline())
            .saturating_sub(1)
            .min(
                now.saturating_add(most.saturating_mul(poll.period()))
                    .saturating_add(1),
            );
        self.skip_poll(poll, measured, input, bound) * poll.steps()
    }

    /// `run_until`'s use of the above at a back-jump from `from`: skips up
    /// to `limit`, or `skip_limit` with SP in the range of
    /// [`StopConditions::skip_past_budget`]. False to let the probe
    /// measure the loop.
    pub(super) fn try_poll_loop(
        &mut self,
        from: u16,
        stop: &StopConditions,
        limit: u64,
        skip_limit: u64,
        check_bps: bool,
    ) -> bool {
        let bp = |a| check_bps && stop.breakpoints.contains(a);
        match self.poll_loop_at(from, bp) {
            PollTry::Probe => false,
            PollTry::Run => true,
            PollTry::Skip(poll, measured, input) => {
                let sp = self.cpu.regs.sp;
                let bound = stop.skip_bound((sp, sp), limit, skip_limit);
                self.skip_poll(poll, measured, input, bound);
                true
            }
        }
    }

    /// True if the CPU would take an interrupt at the next instruction
    /// boundary (XIRQ with X clear, an IRQ source with I clear).
    fn interrupt_pending(&self) -> bool {
        let ccr = self.cpu.regs.ccr;
        (ccr & X == 0 && self.board.xirq()) || (ccr & I == 0 && self.board.irq_vector().is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::opcodes::OPCODES;
    use crate::cpu::registers::flags::{C, N, Z};

    /// Eight code bytes from `bytes` (the rest $01, NOP).
    fn code(bytes: &[u8]) -> u64 {
        let mut b = [0x01u8; 8];
        b[..bytes.len()].copy_from_slice(bytes);
        u64::from_be_bytes(b)
    }

    /// Every instruction of the table followed by BPL back to it (or, for
    /// a bit branch, with its own displacement back) decodes as a poll
    /// loop exactly when it is one of the reading forms, with the table's
    /// cycles and the branch where it is.
    #[test]
    fn decode_finds_exactly_the_reading_forms_of_the_table() {
        let mut found = 0;
        for e in OPCODES {
            let mut bytes = Vec::new();
            if e.prebyte != 0 {
                bytes.push(e.prebyte);
            }
            bytes.push(e.opcode);
            bytes.extend([0x29, 0x80, 0x00][..e.mode.operand_len() as usize].iter());
            let len = bytes.len() as u8;
            let bit_branch = matches!(
                e.mode,
                Mode::BitBranchDirect | Mode::BitBranchIndexedX | Mode::BitBranchIndexedY
            );
            if bit_branch {
                *bytes.last_mut().expect("operands") = len.wrapping_neg();
            } else {
                bytes.extend([0x2A, (len + 2).wrapping_neg()]);
            }
            let poll = PollLoop::decode(code(&bytes));
            let reads = matches!(e.op, Op::Tst | Op::Ldaa | Op::Ldab | Op::Bita | Op::Bitb)
                && matches!(
                    e.mode,
                    Mode::Direct | Mode::Extended | Mode::IndexedX | Mode::IndexedY
                );
            let want = reads || matches!(e.op, Op::Brset | Op::Brclr);
            assert_eq!(poll.is_some(), want, "{:?} {}", e.op, e.mode);
            if let Some(p) = poll {
                found += 1;
                assert_eq!(p.cycles[0], e.cycles, "{:?} {}", e.op, e.mode);
                if bit_branch {
                    assert_eq!(
                        (p.branch_at, p.steps(), p.period()),
                        (0, 1, u64::from(e.cycles))
                    );
                } else {
                    assert_eq!(p.branch, Op::Bpl);
                    assert_eq!((p.branch_at, p.steps()), (u16::from(len), 2));
                    assert_eq!(p.period(), u64::from(e.cycles) + 3);
                }
            }
        }
        // tst 3 modes, four loads/bits x 4 modes, brset/brclr x 3 modes.
        assert_eq!(found, 3 + 4 * 4 + 2 * 3);
    }

    #[test]
    fn decode_rejects_branches_elsewhere_and_unconditional_ones() {
        // TST $0029 then BPL one byte short, BRA back, BSR back.
        for bytes in [
            [0x7D, 0x00, 0x29, 0x2A, 0xFC],
            [0x7D, 0x00, 0x29, 0x20, 0xFB],
            [0x7D, 0x00, 0x29, 0x8D, 0xFB],
        ] {
            assert_eq!(PollLoop::decode(code(&bytes)), None, "{bytes:02X?}");
        }
        // BRCLR $29,#$80 to the next instruction; LDAA #$80 / BPL back.
        assert_eq!(PollLoop::decode(code(&[0x13, 0x29, 0x80, 0x00])), None);
        assert_eq!(PollLoop::decode(code(&[0x86, 0x80, 0x2A, 0xFC])), None);
        let p = PollLoop::decode(code(&[0x18, 0x1F, 0x10, 0x80, 0xFB])).expect("brclr 0,y");
        let regs = Registers {
            y: 0x1019,
            ..Registers::default()
        };
        assert_eq!(p.addr(&regs), 0x1029);
    }

    /// A loop repeats only from a state its iteration keeps: TST clears C,
    /// a load must find the value already in the accumulator.
    #[test]
    fn an_iteration_keeps_the_registers_only_when_they_hold_its_result() {
        let tst = PollLoop::decode(code(&[0x7D, 0x00, 0x29, 0x2A, 0xFB])).expect("tst");
        let mut regs = Registers {
            ccr: Z,
            ..Registers::default()
        };
        assert_eq!(tst.iteration(&regs, 0x00), (true, true));
        assert_eq!(tst.iteration(&regs, 0x80), (false, false));
        regs.ccr = Z | C;
        assert_eq!(tst.iteration(&regs, 0x00), (false, true));
        let ldaa = PollLoop::decode(code(&[0x96, 0x29, 0x2A, 0xFC])).expect("ldaa");
        regs.ccr = Z;
        assert_eq!(ldaa.iteration(&regs, 0x00), (true, true));
        regs.a = 0x01;
        regs.ccr = 0;
        assert_eq!(ldaa.iteration(&regs, 0x01), (true, true));
        assert_eq!(ldaa.iteration(&regs, 0x02), (false, true));
        let brset = PollLoop::decode(code(&[0x12, 0x50, 0x03, 0xFC])).expect("brset");
        regs.ccr = N;
        assert_eq!(brset.iteration(&regs, 0x07), (true, true));
        assert_eq!(brset.iteration(&regs, 0x05), (true, false));
    }

    #[test]
    fn the_cache_decodes_a_rewritten_loop_again() {
        let mut cache = PollCache::default();
        let tst = code(&[0x7D, 0x00, 0x29, 0x2A, 0xFB]);
        assert!(cache.get(0xC008, tst).is_some());
        assert!(cache.get(0xC008, tst).is_some());
        // The branch turned into BRA: no poll loop any more.
        assert_eq!(
            cache.get(0xC008, code(&[0x7D, 0x00, 0x29, 0x20, 0xFB])),
            None
        );
        // Another head in the same slot.
        assert!(cache.get(0xC018, tst).is_some());
    }
}

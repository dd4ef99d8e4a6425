//! The call stack as the program built it: JSR/BSR and interrupt entries
//! (M68HC11 RM section 5.4, the nine-byte interrupt stack frame) push frames,
//! RTS/RTI pop them. It is reconstructed from what ran, never by scanning
//! memory, and it survives programs that move the stack pointer by hand:
//! frames it can no longer vouch for are marked, not dropped or trusted.

use serde::Serialize;

/// Most frames kept; deeper recursion drops the oldest (marked in the report).
pub const MAX_FRAMES: usize = 4096;

/// How a frame was entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum FrameKind {
    /// JSR or BSR: two bytes of return address.
    Call,
    /// An interrupt, SWI or illegal-opcode trap: nine bytes (CCR, B, A, X, Y, PC).
    Interrupt {
        /// The vector address it went through ($FFF2 IRQ, $FFF6 SWI, ...).
        vector: u16,
    },
}

impl FrameKind {
    /// Bytes the entry pushed.
    pub fn stacked_bytes(self) -> u16 {
        match self {
            FrameKind::Call => 2,
            FrameKind::Interrupt { .. } => 9,
        }
    }
}

/// Why a frame is no longer trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Doubt {
    /// The stack pointer rose into or past the stacked return address
    /// without an RTS/RTI (pulled by hand, `ins`, `lds`, `txs`).
    StackMovedAbove,
    /// An RTS/RTI returned from a deeper frame, skipping this one's bytes.
    SkippedByReturn,
}

/// One activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// How it was entered.
    #[serde(flatten)]
    pub kind: FrameKind,
    /// Address of the JSR/BSR, or of the instruction the interrupt preempted.
    pub call_site: u16,
    /// Where the call went: the subroutine (or handler) address.
    pub target: u16,
    /// The return address as pushed.
    pub return_addr: u16,
    /// SP right after the entry pushed its bytes; they are at `sp+1 ..= sp+n`.
    pub sp: u16,
    /// E-cycle count when the frame was entered (before the JSR ran).
    pub entry_cycle: u64,
    /// Cycles spent in frames called from this one (for the profile).
    pub child_cycles: u64,
    /// `None` while the stack looks as the program left it.
    pub doubt: Option<Doubt>,
}

/// What one step did to the control flow, as the call stack needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Anything that neither calls nor returns.
    Plain,
    /// JSR/BSR at `site` to `target`.
    Call {
        /// Address of the JSR/BSR.
        site: u16,
        /// The subroutine.
        target: u16,
    },
    /// An interrupt entry (also SWI and the illegal-opcode trap).
    Interrupt {
        /// The preempted (or trapping) instruction.
        site: u16,
        /// The vector address.
        vector: u16,
        /// The handler address (PC after the step).
        target: u16,
    },
    /// RTS (`rti == false`) or RTI, which ran with SP = `sp_before`.
    Return {
        /// SP before the return pulled anything.
        sp_before: u16,
        /// True for RTI.
        rti: bool,
    },
}

/// A frame that ended at this step, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The frame.
    pub frame: Frame,
    /// True if a return instruction popped it; false if it was discarded
    /// because the program overwrote or abandoned its stack bytes.
    pub returned: bool,
    /// Where execution went, for returned frames.
    pub returned_to: u16,
}

/// The call stack at the start of a loop iteration (see [`CallStack::mark_into`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct StackMark {
    frames: Vec<Frame>,
    pushes: u64,
    truncated: bool,
}

/// The call stack tracker.
#[derive(Clone, Debug, Default)]
pub struct CallStack {
    frames: Vec<Frame>,
    /// Frames that ended during the last [`CallStack::apply`] (innermost first).
    pub ended: Vec<Ended>,
    /// True once frames were dropped for exceeding [`MAX_FRAMES`].
    pub truncated: bool,
    /// Serial number of the last push, so "step over" can recognise its frame.
    pushes: u64,
    /// The fewest frames since the last [`CallStack::mark_into`], lowered
    /// further to a frame that was marked in doubt: the frames below it
    /// are as they were at the mark (the one at `low - 1` but for its
    /// callee cycles). A bookkeeping aid for `repeats_since`, not part of
    /// the stack's value (equality ignores it).
    low: usize,
}

impl PartialEq for CallStack {
    fn eq(&self, o: &CallStack) -> bool {
        self.frames == o.frames
            && self.ended == o.ended
            && self.truncated == o.truncated
            && self.pushes == o.pushes
    }
}

impl Eq for CallStack {}

impl CallStack {
    /// An empty stack.
    pub fn new() -> Self {
        Self::default()
    }

    /// The frames, outermost first.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// Number of frames.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Total pushes so far (an id for the newest frame).
    pub fn pushes(&self) -> u64 {
        self.pushes
    }

    /// Forgets everything (after a reset).
    pub fn clear(&mut self) {
        self.frames.clear();
        self.ended.clear();
        self.truncated = false;
        self.low = 0;
    }

    /// Updates the stack after one step. `sp_after`/`pc_after` are the
    /// registers after the step; `peek` reads memory after it (to fetch the
    /// pushed return address); `cycle_before`/`cycle_after` the E-cycle count
    /// around it. Frames that ended are left in [`CallStack::ended`].
    pub fn apply(
        &mut self,
        flow: Flow,
        sp_after: u16,
        pc_after: u16,
        cycle_before: u64,
        cycle_after: u64,
        peek: &dyn Fn(u16) -> u8,
    ) {
        self.ended.clear();
        let word = |a: u16| u16::from_be_bytes([peek(a), peek(a.wrapping_add(1))]);
        match flow {
            Flow::Plain => {}
            Flow::Call { site, target } => {
                let frame = Frame {
                    kind: FrameKind::Call,
                    call_site: site,
                    target,
                    return_addr: word(sp_after.wrapping_add(1)),
                    sp: sp_after,
                    entry_cycle: cycle_before,
                    child_cycles: 0,
                    doubt: None,
                };
                self.push(frame, cycle_before);
            }
            Flow::Interrupt {
                site,
                vector,
                target,
            } => {
                let frame = Frame {
                    kind: FrameKind::Interrupt { vector },
                    call_site: site,
                    target,
                    return_addr: word(sp_after.wrapping_add(8)),
                    sp: sp_after,
                    entry_cycle: cycle_before,
                    child_cycles: 0,
                    doubt: None,
                };
                self.push(frame, cycle_before);
            }
            Flow::Return { sp_before, rti } => {
                // The frame this return belongs to is the one whose bytes start
                // right above SP; anything above it in our list was abandoned.
                let matching = self.frames.iter().rposition(|f| {
                    f.sp == sp_before && matches!(f.kind, FrameKind::Interrupt { .. }) == rti
                });
                match matching {
                    Some(i) => {
                        while self.frames.len() > i + 1 {
                            self.pop(false, pc_after, cycle_after, Some(Doubt::SkippedByReturn));
                        }
                        self.pop(true, pc_after, cycle_after, None);
                    }
                    None => {
                        // A return into no known frame: either a computed jump
                        // (`pshx; rts`, SP below the top frame: nothing to pop),
                        // or the stack was unwound by hand: frames now wholly
                        // above SP are gone.
                        while self
                            .frames
                            .last()
                            .is_some_and(|f| f.sp.wrapping_add(f.kind.stacked_bytes()) < sp_after)
                        {
                            self.pop(false, pc_after, cycle_after, Some(Doubt::StackMovedAbove));
                        }
                    }
                }
            }
        }
        // A frame whose stacked bytes are (partly) above SP was popped by
        // hand; keep it, marked, until a return or a push settles it.
        self.mark_above(sp_after);
    }

    /// A JSR/BSR at `site` to `target` that pushed `return_addr` and left
    /// SP at `sp_after`, taken the short way when nothing else happens to
    /// the stack (the common case): no frame at or below the new one's SP
    /// (none is overwritten), room for one more. Returns false, changing
    /// nothing, when [`CallStack::apply`] must do it.
    #[inline]
    pub fn call_fast(
        &mut self,
        site: u16,
        target: u16,
        return_addr: u16,
        sp_after: u16,
        cycle_before: u64,
    ) -> bool {
        if self.frames.len() >= MAX_FRAMES || self.frames.last().is_some_and(|f| f.sp <= sp_after) {
            return false;
        }
        self.ended.clear();
        self.pushes += 1;
        self.frames.push(Frame {
            kind: FrameKind::Call,
            call_site: site,
            target,
            return_addr,
            sp: sp_after,
            entry_cycle: cycle_before,
            child_cycles: 0,
            doubt: None,
        });
        true
    }

    /// An RTS that ran with SP = `sp_before` and went to `pc_after` with SP
    /// `sp_after`, taken the short way when it returns from the innermost
    /// frame (a call whose bytes start right above `sp_before`); `ended`
    /// then holds that frame. Returns false, changing nothing, when
    /// [`CallStack::apply`] must do it.
    #[inline]
    pub fn return_fast(
        &mut self,
        sp_before: u16,
        sp_after: u16,
        pc_after: u16,
        cycle_after: u64,
    ) -> bool {
        if !self
            .frames
            .last()
            .is_some_and(|f| f.sp == sp_before && f.kind == FrameKind::Call)
        {
            return false;
        }
        self.ended.clear();
        self.pop(true, pc_after, cycle_after, None);
        self.mark_above(sp_after);
        true
    }

    /// Marks the frames whose stacked bytes SP has risen into.
    #[inline]
    fn mark_above(&mut self, sp_after: u16) {
        for (i, f) in self.frames.iter_mut().enumerate().rev() {
            if sp_after > f.sp {
                f.doubt.get_or_insert(Doubt::StackMovedAbove);
                self.low = self.low.min(i);
            } else {
                break;
            }
        }
    }

    fn push(&mut self, frame: Frame, now: u64) {
        // A live frame's bytes lie above everything pushed later; frames at or
        // below the new one's SP were overwritten, so they are over.
        while self.frames.last().is_some_and(|f| f.sp <= frame.sp) {
            self.pop(false, frame.call_site, now, Some(Doubt::StackMovedAbove));
        }
        if self.frames.len() >= MAX_FRAMES {
            self.frames.remove(0);
            self.truncated = true;
            self.low = 0;
        }
        self.pushes += 1;
        self.frames.push(frame);
    }

    /// [`CallStack::apply`] for a step that neither called nor returned
    /// (`Flow::Plain`), made cheap for the common case: nothing ended, and
    /// SP not above the innermost frame.
    #[inline]
    pub fn apply_plain(&mut self, sp_after: u16) {
        if !self.ended.is_empty() {
            self.ended.clear();
        }
        if self.frames.last().is_some_and(|f| sp_after > f.sp) {
            self.apply(Flow::Plain, sp_after, 0, 0, 0, &|_| 0);
        }
    }

    /// Notes the stack now in `mark`, to compare with after one loop
    /// iteration (reusing its allocation).
    pub(crate) fn mark_into(&mut self, mark: &mut StackMark) {
        self.low = self.frames.len();
        mark.frames.clear();
        mark.frames.extend_from_slice(&self.frames);
        mark.pushes = self.pushes;
        mark.truncated = self.truncated;
    }

    /// True if the stack is as at `mark` but for the callee cycles of its
    /// innermost frame: the iteration since `mark` called and returned (or
    /// did neither), so another one like it changes the stack the same way.
    pub(crate) fn repeats_since(&self, mark: &StackMark) -> bool {
        let n = self.frames.len();
        if n != mark.frames.len() || self.truncated != mark.truncated {
            return false;
        }
        if n == 0 {
            return true;
        }
        // The stack never had fewer than n frames since the mark, and none
        // was put in doubt: all are as they were but for the innermost
        // frame's callee cycles, which only grow.
        self.low >= n || self.same_as_mark(mark)
    }

    /// [`CallStack::repeats_since`] by comparing every frame.
    fn same_as_mark(&self, mark: &StackMark) -> bool {
        let n = self.frames.len();
        if n != mark.frames.len() || self.truncated != mark.truncated {
            return false;
        }
        if n == 0 {
            return true;
        }
        let (top, rest) = (&self.frames[n - 1], &self.frames[..n - 1]);
        let (mtop, mrest) = (&mark.frames[n - 1], &mark.frames[..n - 1]);
        rest == mrest
            && top.child_cycles >= mtop.child_cycles
            && Frame {
                child_cycles: mtop.child_cycles,
                ..*top
            } == *mtop
    }

    /// Applies `k` more iterations like the one since `mark` (see
    /// [`CallStack::repeats_since`]): the innermost frame's callee cycles
    /// and the push count grow k times as much again.
    pub(crate) fn repeat(&mut self, mark: &StackMark, k: u64) {
        self.pushes += k * (self.pushes - mark.pushes);
        if let (Some(top), Some(mtop)) = (self.frames.last_mut(), mark.frames.last()) {
            top.child_cycles += k * (top.child_cycles - mtop.child_cycles);
        }
    }

    #[inline]
    fn pop(&mut self, returned: bool, to: u16, now: u64, doubt: Option<Doubt>) {
        let Some(mut frame) = self.frames.pop() else {
            return;
        };
        self.low = self.low.min(self.frames.len());
        if frame.doubt.is_none() {
            frame.doubt = doubt;
        }
        let inclusive = now.saturating_sub(frame.entry_cycle);
        if let Some(parent) = self.frames.last_mut() {
            parent.child_cycles += inclusive;
        }
        self.ended.push(Ended {
            frame,
            returned,
            returned_to: to,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stack in a byte array, for feeding `apply` with real pushed bytes.
    struct Mem(Vec<u8>);
    impl Mem {
        fn push_word(&mut self, sp: &mut u16, w: u16) {
            self.0[*sp as usize] = w as u8;
            *sp -= 1;
            self.0[*sp as usize] = (w >> 8) as u8;
            *sp -= 1;
        }
    }

    fn call(cs: &mut CallStack, mem: &mut Mem, sp: &mut u16, site: u16, target: u16, t: u64) {
        mem.push_word(sp, site + 3);
        let m = &mem.0;
        cs.apply(Flow::Call { site, target }, *sp, target, t, t + 6, &|a| {
            m[a as usize]
        });
    }

    fn ret(cs: &mut CallStack, mem: &Mem, sp: &mut u16, t: u64) {
        let before = *sp;
        let to = u16::from_be_bytes([mem.0[*sp as usize + 1], mem.0[*sp as usize + 2]]);
        *sp += 2;
        cs.apply(
            Flow::Return {
                sp_before: before,
                rti: false,
            },
            *sp,
            to,
            t,
            t + 5,
            &|a| mem.0[a as usize],
        );
    }

    /// A small deterministic generator: each call gives a number below `n`.
    fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    /// The short ways (`call_fast`, `return_fast`) leave the stack exactly
    /// as `apply` would, over random calls, returns, interrupts and hand-made
    /// SP moves (pushes over live frames, pulls into them, `lds`).
    #[test]
    fn short_ways_agree_with_apply() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let (mut slow, mut fast) = (CallStack::new(), CallStack::new());
        let mut sp: u16 = 0x01FF;
        let mut shortcuts = 0;
        for t in 0..20_000u64 {
            let ret_addr = 0xC000 + next(0x100) as u16;
            let (flow, sp_after) = match next(8) {
                0..=2 => {
                    let sp_after = sp.wrapping_sub(2);
                    let site = 0xC000 + next(0x1000) as u16;
                    let target = 0xD000 + next(16) as u16;
                    (Flow::Call { site, target }, sp_after)
                }
                3..=5 => (
                    Flow::Return {
                        sp_before: sp,
                        rti: false,
                    },
                    sp.wrapping_add(2),
                ),
                6 => (
                    Flow::Interrupt {
                        site: 0xC010,
                        vector: 0xFFF2,
                        target: 0xE000,
                    },
                    sp.wrapping_sub(9),
                ),
                // SP moved by hand: pushes, pulls, a new stack.
                _ => (Flow::Plain, sp.wrapping_add(next(7) as u16).wrapping_sub(3)),
            };
            let pc_after = match flow {
                Flow::Call { target, .. } => target,
                _ => ret_addr,
            };
            let peek = |a: u16| {
                if a & 1 == 0 {
                    (ret_addr >> 8) as u8
                } else {
                    ret_addr as u8
                }
            };
            slow.apply(flow, sp_after, pc_after, t * 10, t * 10 + 6, &peek);
            let took = match flow {
                Flow::Call { site, target } => {
                    let ret = u16::from_be_bytes([peek(sp_after + 1), peek(sp_after + 2)]);
                    fast.call_fast(site, target, ret, sp_after, t * 10)
                }
                Flow::Return {
                    sp_before,
                    rti: false,
                } => fast.return_fast(sp_before, sp_after, pc_after, t * 10 + 6),
                _ => false,
            };
            if took {
                shortcuts += 1;
            } else {
                fast.apply(flow, sp_after, pc_after, t * 10, t * 10 + 6, &peek);
            }
            assert_eq!(fast, slow, "step {t}: {flow:?}");
            sp = if next(50) == 0 { 0x01FF } else { sp_after };
        }
        assert!(shortcuts > 5_000, "{shortcuts}");
    }

    /// The quick answer of `repeats_since` (the stack never went below the
    /// mark's depth) never differs from comparing every frame, over random
    /// iterations of calls, returns, interrupts and hand-made SP moves.
    #[test]
    fn repeats_since_agrees_with_comparing_frames() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut cs = CallStack::new();
        let mut mark = StackMark::default();
        let mut sp: u16 = 0x01FF;
        let (mut quick, mut repeats) = (0, 0);
        for t in 0..20_000u64 {
            if next(6) == 0 {
                cs.mark_into(&mut mark);
            }
            let (flow, sp_after) = match next(8) {
                0..=2 => (
                    Flow::Call {
                        site: 0xC000,
                        target: 0xD000 + next(4) as u16,
                    },
                    sp.wrapping_sub(2),
                ),
                3..=5 => (
                    Flow::Return {
                        sp_before: sp,
                        rti: false,
                    },
                    sp.wrapping_add(2),
                ),
                6 => (Flow::Plain, sp.wrapping_add(next(5) as u16).wrapping_sub(2)),
                _ => (Flow::Plain, sp),
            };
            cs.apply(flow, sp_after, 0xC123, t * 10, t * 10 + 6, &|_| 0xC0);
            sp = if next(40) == 0 { 0x01FF } else { sp_after };
            let full = cs.same_as_mark(&mark);
            assert_eq!(cs.repeats_since(&mark), full, "step {t}");
            quick += usize::from(cs.low >= cs.depth());
            repeats += usize::from(full);
        }
        assert!(quick > 1_000 && repeats > 1_000, "{quick} {repeats}");
    }

    #[test]
    fn nested_calls_and_returns() {
        let mut cs = CallStack::new();
        let mut mem = Mem(vec![0; 0x4000]);
        let mut sp = 0x3FFF;
        call(&mut cs, &mut mem, &mut sp, 0xC000, 0xC100, 0);
        call(&mut cs, &mut mem, &mut sp, 0xC105, 0xC200, 10);
        assert_eq!(cs.depth(), 2);
        assert_eq!(cs.frames()[1].return_addr, 0xC108);
        assert_eq!(cs.frames()[1].sp, 0x3FFB);
        ret(&mut cs, &mem, &mut sp, 40);
        assert_eq!(cs.ended.len(), 1);
        assert!(cs.ended[0].returned);
        assert_eq!(cs.ended[0].returned_to, 0xC108);
        assert_eq!(cs.frames()[0].child_cycles, 35);
        ret(&mut cs, &mem, &mut sp, 50);
        assert_eq!(cs.depth(), 0);
        assert!(cs.frames().iter().all(|f| f.doubt.is_none()));
    }

    #[test]
    fn return_address_pulled_by_hand_is_marked_then_settled() {
        let mut cs = CallStack::new();
        let mut mem = Mem(vec![0; 0x4000]);
        let mut sp = 0x3FFF;
        call(&mut cs, &mut mem, &mut sp, 0xC000, 0xC100, 0);
        // pulx: the callee takes its return address off the stack.
        sp += 2;
        cs.apply(Flow::Plain, sp, 0xC101, 6, 11, &|_| 0);
        assert_eq!(cs.frames()[0].doubt, Some(Doubt::StackMovedAbove));
        // pshx; rts back to the same place: the frame ends normally.
        sp -= 2;
        cs.apply(Flow::Plain, sp, 0xC102, 11, 15, &|_| 0);
        ret(&mut cs, &mem, &mut sp, 20);
        assert_eq!(cs.depth(), 0);
        assert!(cs.ended[0].returned);
    }

    #[test]
    fn abandoned_frames_are_discarded_by_the_next_push() {
        let mut cs = CallStack::new();
        let mut mem = Mem(vec![0; 0x4000]);
        let mut sp = 0x3FFF;
        call(&mut cs, &mut mem, &mut sp, 0xC000, 0xC100, 0);
        call(&mut cs, &mut mem, &mut sp, 0xC100, 0xC200, 6);
        // lds #$3FFF: a restart; then a new call at the top of the stack.
        sp = 0x3FFF;
        cs.apply(Flow::Plain, sp, 0xC000, 12, 15, &|_| 0);
        assert!(cs.frames().iter().all(|f| f.doubt.is_some()));
        call(&mut cs, &mut mem, &mut sp, 0xC003, 0xC300, 20);
        assert_eq!(cs.depth(), 1);
        assert_eq!(cs.frames()[0].target, 0xC300);
        assert_eq!(cs.ended.len(), 2);
        assert!(cs.ended.iter().all(|e| !e.returned));
    }

    #[test]
    fn return_from_deeper_frame_skips_and_computed_jump_pops_nothing() {
        let mut cs = CallStack::new();
        let mut mem = Mem(vec![0; 0x4000]);
        let mut sp = 0x3FFF;
        call(&mut cs, &mut mem, &mut sp, 0xC000, 0xC100, 0);
        let outer_sp = sp;
        call(&mut cs, &mut mem, &mut sp, 0xC100, 0xC200, 6);
        // Callee drops its own return address (ins; ins) and returns from the outer frame.
        sp = outer_sp;
        cs.apply(Flow::Plain, sp, 0xC201, 12, 15, &|_| 0);
        ret(&mut cs, &mem, &mut sp, 20);
        assert_eq!(cs.depth(), 0);
        assert_eq!(cs.ended.len(), 2);
        assert_eq!(cs.ended[0].frame.doubt, Some(Doubt::StackMovedAbove));
        assert!(cs.ended[1].returned);
        // pshx; rts as a computed jump inside a frame: nothing pops.
        call(&mut cs, &mut mem, &mut sp, 0xC000, 0xC100, 30);
        let jump_sp = sp - 2;
        mem.0[jump_sp as usize + 1] = 0xC4;
        mem.0[jump_sp as usize + 2] = 0x00;
        cs.apply(
            Flow::Return {
                sp_before: jump_sp,
                rti: false,
            },
            sp,
            0xC400,
            40,
            45,
            &|a| mem.0[a as usize],
        );
        assert_eq!(cs.depth(), 1);
        assert!(cs.ended.is_empty());
    }

    #[test]
    fn interrupts_and_rti() {
        let mut cs = CallStack::new();
        let mut mem = vec![0u8; 0x4000];
        // Nine bytes stacked: PC at sp+8..sp+9.
        let sp_after = 0x3FFF - 9;
        mem[sp_after as usize + 8] = 0xC1;
        mem[sp_after as usize + 9] = 0x23;
        cs.apply(
            Flow::Interrupt {
                site: 0xC123,
                vector: 0xFFF2,
                target: 0xD000,
            },
            sp_after,
            0xD000,
            0,
            12,
            &|a| mem[a as usize],
        );
        assert_eq!(cs.frames()[0].return_addr, 0xC123);
        assert_eq!(cs.frames()[0].kind, FrameKind::Interrupt { vector: 0xFFF2 });
        // An RTS at that SP is not the interrupt's return.
        cs.apply(
            Flow::Return {
                sp_before: sp_after,
                rti: true,
            },
            0x3FFF,
            0xC123,
            20,
            32,
            &|a| mem[a as usize],
        );
        assert_eq!(cs.depth(), 0);
        assert!(cs.ended[0].returned);
    }

    #[test]
    fn runaway_recursion_is_bounded() {
        let mut cs = CallStack::new();
        let mut sp: u16 = 0xFFFF;
        for i in 0..(MAX_FRAMES as u64 + 10) {
            sp = sp.wrapping_sub(2);
            cs.apply(
                Flow::Call {
                    site: 0xC000,
                    target: 0xC000,
                },
                sp,
                0xC000,
                i,
                i + 6,
                &|_| 0,
            );
        }
        assert_eq!(cs.depth(), MAX_FRAMES);
        assert!(cs.truncated);
    }
}

//! What a step does to the session's call stack and profile (the single
//! step's path and the fast path's hook share it), and when a step over or
//! step out is done.

use super::{Cmd, Reason, Tracked};
use crate::cpu::{Op, Registers, Step, StepEvent};
use crate::debug::callstack::{CallStack, Ended, Flow};
use crate::debug::profile::RowDelta;

/// What a step did to the control flow: `op` is the operation at `pc`
/// before the step (if it is one the call stack cares about), `sp_before`
/// the stack pointer then, `pc_after` where the step went.
fn flow_of(op: Option<Op>, step: &Step, pc: u16, sp_before: u16, pc_after: u16) -> Flow {
    match step.event {
        StepEvent::None => match op {
            Some(Op::Jsr | Op::Bsr) => Flow::Call {
                site: pc,
                target: pc_after,
            },
            Some(Op::Rts) => Flow::Return {
                sp_before,
                rti: false,
            },
            Some(Op::Rti) => Flow::Return {
                sp_before,
                rti: true,
            },
            _ => Flow::Plain,
        },
        StepEvent::Swi => Flow::Interrupt {
            site: pc,
            vector: 0xFFF6,
            target: pc_after,
        },
        StepEvent::Illegal(_) => Flow::Interrupt {
            site: pc,
            vector: 0xFFF8,
            target: pc_after,
        },
        StepEvent::IllegalRefused(_) => Flow::Plain,
        StepEvent::Interrupt { vector } => Flow::Interrupt {
            site: step.pc,
            vector,
            target: pc_after,
        },
        StepEvent::Waiting | StepEvent::Stopped => Flow::Plain,
    }
}

/// The call stack and profile after one step: `before` is (PC, SP, cycles)
/// before it, `after` the registers and cycles after it; the profile
/// rows the step added go to `log` too, if given.
#[inline]
pub(super) fn track_flow(
    tracked: &mut Tracked,
    op: Option<Op>,
    step: &Step,
    before: (u16, u16, u64),
    after: (&Registers, u64),
    peek: &impl Fn(u16) -> u8,
    mut log: Option<&mut Vec<RowDelta>>,
) {
    if step.event == StepEvent::None {
        match op {
            Some(Op::Jsr | Op::Bsr | Op::Rts) => {
                if call_or_return_fast(tracked, op, before, after, peek, log.as_deref_mut()) {
                    return;
                }
            }
            Some(Op::Rti) => {}
            // Any other instruction (the single-step path passes every op,
            // the fast path only these four) neither calls nor returns.
            _ => {
                tracked.callstack.apply_plain(after.0.sp);
                return;
            }
        }
    }
    track_call_or_return(tracked, op, step, before, after, peek, log);
}

/// The common calls and returns the short way (the same result as
/// `CallStack::apply`, which does the rest): a JSR or BSR (`op`) that
/// pushed a frame above the innermost, an RTS from the innermost frame.
/// Arguments as for [`track_flow`]; false, changing nothing, for any other.
#[inline(always)]
pub(super) fn call_or_return_fast(
    tracked: &mut Tracked,
    op: Option<Op>,
    before: (u16, u16, u64),
    after: (&Registers, u64),
    peek: &impl Fn(u16) -> u8,
    log: Option<&mut Vec<RowDelta>>,
) -> bool {
    let (regs, cycles_after) = after;
    match op {
        Some(Op::Jsr | Op::Bsr) => {
            let sp = regs.sp;
            let ret = u16::from_be_bytes([peek(sp.wrapping_add(1)), peek(sp.wrapping_add(2))]);
            tracked
                .callstack
                .call_fast(before.0, regs.pc, ret, sp, before.2)
        }
        Some(Op::Rts) => {
            let cs = &mut tracked.callstack;
            if !cs.return_fast(before.1, regs.sp, regs.pc, cycles_after) {
                return false;
            }
            // `return_fast` ends exactly the innermost frame: its row in line.
            match cs.ended.as_slice() {
                [e] => tracked.profile.on_return(e, cs.frames(), cycles_after, log),
                ended => tracked
                    .profile
                    .on_ended_logged(ended, cs.frames(), cycles_after, log),
            }
            true
        }
        _ => false,
    }
}

/// [`track_flow`] for a step that called, returned or entered an interrupt.
#[inline(never)]
fn track_call_or_return(
    tracked: &mut Tracked,
    op: Option<Op>,
    step: &Step,
    before: (u16, u16, u64),
    after: (&Registers, u64),
    peek: &dyn Fn(u16) -> u8,
    log: Option<&mut Vec<RowDelta>>,
) {
    let (pc, sp_before, cycles_before) = before;
    let (regs, cycles_after) = after;
    let flow = flow_of(op, step, pc, sp_before, regs.pc);
    tracked
        .callstack
        .apply(flow, regs.sp, regs.pc, cycles_before, cycles_after, peek);
    if !tracked.callstack.ended.is_empty() {
        tracked.profile.on_ended_logged(
            &tracked.callstack.ended,
            tracked.callstack.frames(),
            cycles_after,
            log,
        );
    }
}

/// Whether a step-over or step-out is done, and why (the call stack after
/// the step, `regs` the registers after it); `None` while it goes on.
pub(super) fn cmd_done(cmd: &Cmd, callstack: &CallStack, regs: &Registers) -> Option<Reason> {
    let done = match *cmd {
        Cmd::Into => return Some(Reason::Step),
        // Back at the return address with the stack where it was also
        // counts: a callee that dropped its return address and jumped back
        // leaves no RTS to see.
        Cmd::Over { depth, ret, sp } => {
            callstack.depth() <= depth || (regs.pc == ret && regs.sp >= sp)
        }
        Cmd::Out { depth } => callstack.depth() < depth,
        Cmd::Continue | Cmd::RunTo(_) => false,
    };
    if !done {
        return None;
    }
    let ended: Option<Ended> = callstack.ended.last().copied();
    Some(match ended {
        Some(e) => Reason::Returned {
            from: e.frame.target,
            to: regs.pc,
            expected: e.frame.return_addr,
            by_return: e.returned,
        },
        None => Reason::Step,
    })
}

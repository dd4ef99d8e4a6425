//! What to tell a user whose program ran where it put no code, or pushed
//! before it set the stack pointer: the two commonest ways a program
//! written for a board with a monitor (BUFFALO on the EVB sets SP and
//! answers `jsr OUTA`) goes wrong on a bare board. Shared by `run`'s stop
//! message and the debugger's.

use crate::cpu::{Instruction, Registers};
use crate::image::Program;

/// For a stop at `pc` outside the program's bytes (code run where the
/// program put none): where the program is, the call that went there if
/// the return address on the stack (SP `sp`) shows one, and the monitor
/// routine a call into the BUFFALO jump table meant. `None` inside the
/// program or for a program without bytes. Starts with ". ", to follow a
/// sentence.
pub fn outside_hint(
    program: &Program,
    sp: u16,
    pc: u16,
    peek: &dyn Fn(u16) -> u8,
    pending: Option<u16>,
) -> Option<String> {
    if program.segments.is_empty() || program.byte_at(pc).is_some() {
        return None;
    }
    let mut hint = format!(
        ". ${pc:04X} holds none of the program's bytes (it loads {})",
        loaded_ranges(program)
    );
    let place = |a: u16| {
        program
            .source_place(a)
            .map(|p| format!(" ({p})"))
            .unwrap_or_default()
    };
    if let Some(site) = call_site(sp, pc, peek) {
        hint.push_str(&format!(
            "; the `{}` at ${site:04X}{} went there",
            Instruction::text_at(site, peek),
            place(site)
        ));
    } else if let Some((mut what, vector, site)) = vectored_entry(sp, pc, peek, pending) {
        if let Some(site) = site {
            what.push_str(&place(site));
        }
        let set_by = if (vector..=vector + 1).any(|a| program.byte_at(a).is_some()) {
            "the program's vector points outside it"
        } else {
            "the program never set it"
        };
        hint.push_str(&format!(
            "; {what} went there through its vector ${vector:04X}, which holds ${pc:04X}: \
             {set_by}. A monitor such as BUFFALO fills the vectors (and leads them to jumps \
             in RAM that a program sets); without one, put the handler's address in the \
             vector (`org ${vector:04X}` / `fdb handler`)"
        ));
    }
    if let Some(name) = buffalo_routine(pc) {
        hint.push_str(&format!(
            ". ${pc:04X} is {name} in the jump table of the EVB's BUFFALO monitor, which is not \
             loaded: run with --board evb --rom BUFFALO.s19 (your copy of the monitor), or write \
             the routine in the program"
        ));
    }
    Some(hint)
}

/// True if [`outside_hint`] names what went to `pc` (a call whose return
/// address is on the stack, or an interrupt through its vector): then a
/// replay for the step that left the program has nothing to add.
pub fn entry_named(sp: u16, pc: u16, peek: &dyn Fn(u16) -> u8, pending: Option<u16>) -> bool {
    call_site(sp, pc, peek).is_some() || vectored_entry(sp, pc, peek, pending).is_some()
}

/// For a write fault at `addr` by a push or call with SP (`sp`) still at
/// $0000, its value after reset: the program never set the stack pointer.
/// `ram` names the board's RAM (`the trainer11's RAM is $0040-$7FFF`) if
/// known. Starts with ". ", to follow a sentence.
pub fn unset_stack_hint(sp: u16, addr: u16, ram: Option<&str>) -> Option<String> {
    // A push writes at SP and below: from $0000 that wraps to $FFFF.
    if sp != 0 || !(addr == 0 || addr >= 0xFFF7) {
        return None;
    }
    let ram = ram.map(|r| format!("; {r}")).unwrap_or_default();
    Some(format!(
        ". SP is $0000, as after reset: the program pushes or calls before it sets the \
         stack pointer. Set it first (`lds #` the top of your stack{ram}); a monitor such \
         as BUFFALO does that before it starts a program"
    ))
}

/// The last step of a run that went from the program's own bytes to an
/// address outside them ([`super::Machine::last_exit_from_program`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramExit {
    /// The instruction that went (its first byte).
    pub from: u16,
    /// Where it went.
    pub to: u16,
    /// SP before it.
    pub sp: u16,
    /// The two bytes above SP before it (what an RTS takes).
    pub stacked: u16,
    /// How it went.
    pub kind: ExitKind,
}

/// How a step left the program's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitKind {
    /// An RTS took a return address from the stack.
    Return,
    /// An RTI did.
    ReturnFromInterrupt,
    /// A branch, jump or call went there.
    Jump,
    /// The instruction before ran on into it.
    RanOn,
    /// An interrupt was taken (before or after the instruction at `from`)
    /// and its vector led there.
    Interrupt {
        /// The vector it went through.
        vector: u16,
    },
}

impl ProgramExit {
    /// How the step got there, as a sentence about `to`: the instruction,
    /// its place in `program` (` in sub+3 (a.asm:9)`), and for a return
    /// what it took from the stack.
    pub fn describe(&self, peek: &dyn Fn(u16) -> u8, program: &Program) -> String {
        let ins = Instruction::text_at(self.from, peek);
        let from = self.from;
        let place = |a: u16| place_in(program, a);
        match self.kind {
            ExitKind::Return => format!(
                "`rts` at ${from:04X}{} returned there: it took ${:04X} from the stack at ${:04X}, which is no return address a `jsr` left (a push without its pull, or a pull too many, before the `rts`?)",
                place(from),
                self.stacked,
                self.sp.wrapping_add(1)
            ),
            ExitKind::ReturnFromInterrupt => format!(
                "`rti` at ${from:04X}{} returned there with the return address it found on the stack (does the handler leave the stack as the interrupt found it?)",
                place(from)
            ),
            ExitKind::Jump => format!("`{ins}` at ${from:04X}{} went there", place(from)),
            ExitKind::Interrupt { vector } => {
                let name = crate::cpu::vector_name(vector).unwrap_or("an");
                let what = if name.ends_with("interrupt") {
                    format!("The {name}")
                } else {
                    format!("The {name} interrupt")
                };
                format!(
                    "{what} came with the program at `{ins}` at ${from:04X}{} and went to ${:04X} through its vector ${vector:04X}: is its handler where the vector points?",
                    place(from),
                    self.to
                )
            }
            ExitKind::RanOn => format!(
                "The program ran on into it from `{ins}` at ${from:04X}{}, its last instruction before it (no jump or return went there): is a `bra`, `jmp` or `rts` missing at the end of the code?",
                place(from)
            ),
        }
    }

    /// What the step about to run from `regs` needs noted to tell, after
    /// it, whether it left the program's bytes ([`ExitProbe::after`]):
    /// `None` when it starts outside them (it cannot leave them).
    pub fn probe(
        program: &Program,
        regs: &Registers,
        peek: &dyn Fn(u16) -> u8,
    ) -> Option<ExitProbe> {
        program.byte_at(regs.pc)?;
        let stacked =
            u16::from_be_bytes([peek(regs.sp.wrapping_add(1)), peek(regs.sp.wrapping_add(2))]);
        Some(ExitProbe {
            ins: Instruction::decode(regs.pc, peek).ok()?,
            sp: regs.sp,
            stacked,
        })
    }
}

/// A step about to run inside the program's bytes ([`ProgramExit::probe`]).
#[derive(Clone, Copy, Debug)]
pub struct ExitProbe {
    ins: Instruction,
    sp: u16,
    stacked: u16,
}

impl ExitProbe {
    /// The step ended at `to` with the stack pointer at `sp`: the exit, if
    /// that is outside the program's bytes, by the instruction itself or
    /// by an interrupt taken before or after it (its nine stacked bytes
    /// show it; `peek` reads the vector that led there).
    pub fn after(
        self,
        program: &Program,
        to: u16,
        sp: u16,
        peek: &dyn Fn(u16) -> u8,
    ) -> Option<ProgramExit> {
        if program.byte_at(to).is_some() {
            return None;
        }
        let kind = interrupt_entry(&self.ins, self.sp, to, sp, peek)
            .map(|vector| ExitKind::Interrupt { vector })
            .or_else(|| exit_kind(&self.ins, to));
        kind.map(|kind| ProgramExit {
            from: self.ins.addr,
            to,
            sp: self.sp,
            stacked: self.stacked,
            kind,
        })
    }
}

/// ` in label+off (file:line)` for an address among the program's bytes:
/// what follows an instruction's address in a sentence.
pub fn place_in(program: &Program, addr: u16) -> String {
    let label = match program.label_for(addr) {
        Some((s, 0)) => format!(" in {}", s.name),
        Some((s, off)) => format!(" in {}+{off}", s.name),
        None => String::new(),
    };
    let line = program
        .source_place(addr)
        .map(|p| format!(" ({p})"))
        .unwrap_or_default();
    format!("{label}{line}")
}

/// The vector of an interrupt the step of `ins` (SP `before`) took on the
/// way to `to` (SP `after`): the stack holds nine more bytes than the
/// instruction alone leaves (none, when the interrupt came before it) and
/// a hardware vector holds `to`. `None` for a step without one.
fn interrupt_entry(
    ins: &Instruction,
    before: u16,
    to: u16,
    after: u16,
    peek: &dyn Fn(u16) -> u8,
) -> Option<u16> {
    use crate::cpu::opcodes::Mode;
    use crate::cpu::Op;
    let word = |a: u16| u16::from_be_bytes([peek(a), peek(a.wrapping_add(1))]);
    let own: i32 = match ins.info.op {
        Op::Jsr | Op::Bsr => -2,
        Op::Rts => 2,
        Op::Rti => 9,
        Op::Jmp => 0,
        _ if matches!(
            ins.info.mode,
            Mode::Relative
                | Mode::BitBranchDirect
                | Mode::BitBranchIndexedX
                | Mode::BitBranchIndexedY
        ) =>
        {
            0
        }
        _ => return None,
    };
    let stacked_pc = word(after.wrapping_add(8));
    let took = |delta: i32| after == before.wrapping_add_signed((delta - 9) as i16);
    // Before the instruction: the frame returns to it; after it: to
    // wherever it went.
    if !((took(0) && stacked_pc == ins.addr) || took(own)) {
        return None;
    }
    // XIRQ down to the SCI: the interrupts a device or pin raises (SWI and
    // the illegal-opcode trap are instructions, the resets stack nothing).
    (0xFFD6..=0xFFF4).rev().step_by(2).find(|&v| word(v) == to)
}

/// How the step of `ins` from its address to `to` went, if it went by the
/// instruction itself (not an interrupt taken before it).
fn exit_kind(ins: &Instruction, to: u16) -> Option<ExitKind> {
    use crate::cpu::opcodes::Mode;
    use crate::cpu::Op;
    let next = ins.addr.wrapping_add(ins.len());
    match ins.info.op {
        Op::Rts => Some(ExitKind::Return),
        Op::Rti => Some(ExitKind::ReturnFromInterrupt),
        Op::Jmp | Op::Jsr | Op::Bsr => Some(ExitKind::Jump),
        _ if matches!(
            ins.info.mode,
            Mode::Relative
                | Mode::BitBranchDirect
                | Mode::BitBranchIndexedX
                | Mode::BitBranchIndexedY
        ) =>
        {
            Some(ExitKind::Jump)
        }
        _ if to == next => Some(ExitKind::RanOn),
        _ => None,
    }
}

impl super::Machine {
    /// Replays the run from `self` (the machine as the run began, before
    /// its key script was started; `script` is started here with `timing`) up to
    /// `stop_cycles`, where the run stopped before an illegal opcode,
    /// and returns the last step that left the program's own bytes.
    /// Exact (runs are deterministic) and only for messages: the last
    /// `window` E-cycles are stepped one instruction at a time, the time
    /// before them run as usual; an exit earlier than that is not found.
    pub fn last_exit_from_program(
        &self,
        script: &crate::script::Script,
        timing: crate::script::Timing,
        stop_cycles: u64,
        window: u64,
    ) -> Option<ProgramExit> {
        use super::{StopConditions, StopReason};
        let mut m = self.clone();
        m.start_script_with(script, timing);
        let start = stop_cycles.saturating_sub(window);
        if m.cycles() < start {
            let reason = m.run_until(&StopConditions::budget(start - m.cycles()));
            if reason != StopReason::CycleBudget {
                return None;
            }
        }
        let program = self.program.clone();
        let mut last = None;
        // One instruction per run: a run ends at the first boundary after
        // its budget (made once: its breakpoint set is 8 KiB).
        let one = StopConditions::budget(1);
        while m.cycles() <= stop_cycles {
            let probe = ProgramExit::probe(&program, &m.registers(), &|a| m.peek(a));
            let reason = m.run_until(&one);
            let regs = m.registers();
            if let Some(exit) =
                probe.and_then(|p| p.after(&program, regs.pc, regs.sp, &|a| m.peek(a)))
            {
                last = Some(exit);
            }
            if reason != StopReason::CycleBudget {
                break;
            }
        }
        last
    }

    /// [`outside_hint`] for this machine: its program, its stack and the
    /// interrupt pending now.
    pub fn stray_hint(&self, pc: u16) -> Option<String> {
        let hint = outside_hint(
            self.program(),
            self.registers().sp,
            pc,
            &|a| self.peek(a),
            crate::cpu::Bus::irq_vector(self.board()),
        )?;
        Some(match self.reset_into(pc) {
            Some(why) => format!("{hint}. {why}"),
            None => hint,
        })
    }

    /// [`entry_named`] for this machine (its stack and pending interrupt).
    pub fn entry_named(&self, pc: u16) -> bool {
        entry_named(
            self.registers().sp,
            pc,
            &|a| self.peek(a),
            crate::cpu::Bus::irq_vector(self.board()),
        )
    }

    /// Why the CPU is at `pc` when a watchdog reset just put it there (no
    /// instruction ran since): the reset, and the vector the program left
    /// unset. Without it a stop at $0000 would not say how it got there.
    fn reset_into(&self, pc: u16) -> Option<String> {
        let last = self.cop_resets().last()?;
        let vector = match last.cause {
            super::ResetCause::Cop => 0xFFFA,
            super::ResetCause::ClockMonitor => 0xFFFC,
        };
        let target = u16::from_be_bytes([self.peek(vector), self.peek(vector + 1)]);
        // The reset's own instant: it comes at the first instruction
        // boundary after the timeout (the longest instruction, IDIV or
        // FDIV, takes 41 E-cycles), and nothing has run since.
        let since = self.cycles().checked_sub(last.cycle)?;
        if target != pc || since > 41 {
            return None;
        }
        let what = match last.cause {
            super::ResetCause::Cop => format!(
                "The COP watchdog reset the chip at cycle {} ({}) and the CPU went through its vector ${vector:04X}, which holds ${target:04X}: feed the COP (write $55, then $AA, to COPRST) or keep it off (the NOCOP bit of CONFIG set), and point the vector at a handler",
                last.cycle,
                last.last_feed
                    .map_or("never fed".to_string(), |t| format!("last fed at cycle {t}"))
            ),
            super::ResetCause::ClockMonitor => format!(
                "The clock monitor reset the chip at cycle {} and the CPU went through its vector ${vector:04X}, which holds ${target:04X}: set the vector",
                last.cycle
            ),
        };
        Some(what)
    }

    /// For a store the board refused at `addr` (`rom`: into program
    /// memory): a stack pointer never set ([`unset_stack_hint`], with the
    /// board's RAM), else the variable there and the built-in board with
    /// RAM at that address (`placement::rom_write_hint`).
    pub fn write_fault_hint(&self, addr: u16, rom: bool) -> Option<String> {
        let board = self.board();
        let ram = format!(
            "the {}'s RAM is {}",
            board.setup().config.name,
            board.describe_ram()
        );
        unset_stack_hint(self.registers().sp, addr, Some(&ram))
            .or_else(|| rom.then(|| self.rom_write_hint(addr)).flatten())
    }
}

/// The program's bytes as address ranges (`$C000-$C00C, $FFFE-$FFFF`),
/// adjacent segments joined, at most four named.
fn loaded_ranges(program: &Program) -> String {
    let mut ranges: Vec<(u32, u32)> = program
        .segments
        .iter()
        .filter(|s| !s.bytes.is_empty())
        .map(|s| {
            let start = u32::from(s.start);
            (start, start + s.bytes.len() as u32 - 1)
        })
        .collect();
    ranges.sort_unstable();
    let mut joined: Vec<(u32, u32)> = Vec::new();
    for (a, b) in ranges {
        match joined.last_mut() {
            Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
            _ => joined.push((a, b)),
        }
    }
    let mut text: Vec<String> = joined
        .iter()
        .take(4)
        .map(|&(a, b)| format!("${a:04X}-${:04X}", b.min(0xFFFF)))
        .collect();
    if joined.len() > 4 {
        text.push(format!("{} more", joined.len() - 4));
    }
    text.join(", ")
}

/// The JSR or BSR that just went to `target`, from the return address on
/// top of the stack (SP `sp`): a JSR extended or direct, or a BSR, right
/// before it whose target is `target`.
pub fn call_site(sp: u16, target: u16, peek: &dyn Fn(u16) -> u8) -> Option<u16> {
    let word = |a: u16| u16::from_be_bytes([peek(a), peek(a.wrapping_add(1))]);
    let ret = word(sp.wrapping_add(1));
    let ext = ret.wrapping_sub(3);
    if peek(ext) == 0xBD && word(ext.wrapping_add(1)) == target {
        return Some(ext);
    }
    let short = ret.wrapping_sub(2);
    let operand = peek(short.wrapping_add(1));
    let goes = match peek(short) {
        0x9D => u16::from(operand) == target,
        0x8D => ret.wrapping_add(operand as i8 as u16) == target,
        _ => false,
    };
    goes.then_some(short)
}

/// The SWI or interrupt whose entry just went to `pc`: the nine bytes of
/// its frame above SP (`sp`) return to right after an SWI whose vector
/// holds `pc`, or the interrupt still pending (`pending`, the vector of
/// the highest-priority source, whose flag the handler has not cleared
/// yet) has a vector holding `pc`. Its words, its vector and, for an SWI,
/// its address.
fn vectored_entry(
    sp: u16,
    pc: u16,
    peek: &dyn Fn(u16) -> u8,
    pending: Option<u16>,
) -> Option<(String, u16, Option<u16>)> {
    let word = |a: u16| u16::from_be_bytes([peek(a), peek(a.wrapping_add(1))]);
    let ret = word(sp.wrapping_add(8));
    let swi = crate::cpu::SWI_VECTOR;
    if peek(ret.wrapping_sub(1)) == 0x3F && word(swi) == pc {
        let site = ret.wrapping_sub(1);
        return Some((format!("the `swi` at ${site:04X}"), swi, Some(site)));
    }
    let vector = pending.filter(|&v| word(v) == pc)?;
    let name = crate::cpu::vector_name(vector).unwrap_or("pending");
    let what = if name.ends_with("interrupt") {
        format!("the {name}")
    } else {
        format!("the {name} interrupt")
    };
    Some((what, vector, None))
}

/// The routine of the BUFFALO monitor's jump table (EVB, EVBU; one JMP
/// every three bytes from $FFA0, as its manual lists them) at `addr`.
fn buffalo_routine(addr: u16) -> Option<&'static str> {
    const TABLE: [&str; 17] = [
        "UPCASE", "WCHEK", "DCHEK", "INIT", "INPUT", "OUTPUT", "OUTLHL", "OUTRHL", "OUTA",
        "OUT1BY", "OUT1BS", "OUT2BS", "OUTCRL", "OUTSTR", "OUTST0", "INCHAR", "VECINT",
    ];
    let off = addr.checked_sub(0xFFA0)?;
    if off % 3 != 0 {
        return None;
    }
    TABLE.get(usize::from(off / 3)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_buffalo_table_every_three_bytes() {
        assert_eq!(buffalo_routine(0xFFA0), Some("UPCASE"));
        assert_eq!(buffalo_routine(0xFFB8), Some("OUTA"));
        assert_eq!(buffalo_routine(0xFFCD), Some("INCHAR"));
        assert_eq!(buffalo_routine(0xFFD0), Some("VECINT"));
        assert_eq!(buffalo_routine(0xFFD3), None);
        assert_eq!(buffalo_routine(0xFFB9), None);
        assert_eq!(buffalo_routine(0xFF9D), None);
    }

    /// A JSR extended, a JSR direct and a BSR (forward and back) are found
    /// from the return address; another return address finds nothing.
    #[test]
    fn the_call_is_found_from_the_return_address() {
        let mut mem = vec![0u8; 0x10000];
        mem[0xC005..0xC008].copy_from_slice(&[0xBD, 0xFF, 0xB8]); // jsr $FFB8
        mem[0xC010..0xC012].copy_from_slice(&[0x9D, 0x40]); // jsr $40
        mem[0xC020..0xC022].copy_from_slice(&[0x8D, 0xFE]); // bsr to itself
        let at = |ret: u16| {
            let mut m = mem.clone();
            m[0x00FE] = (ret >> 8) as u8;
            m[0x00FF] = ret as u8;
            m
        };
        for (ret, target, site) in [
            (0xC008u16, 0xFFB8u16, Some(0xC005u16)),
            (0xC012, 0x0040, Some(0xC010)),
            (0xC022, 0xC020, Some(0xC020)),
            (0xC008, 0xFFBB, None),
            (0xC030, 0xFFB8, None),
        ] {
            let m = at(ret);
            assert_eq!(
                call_site(0x00FD, target, &|a| m[a as usize]),
                site,
                "return ${ret:04X}"
            );
        }
    }

    #[test]
    fn only_an_unset_stack_pointer_is_blamed() {
        assert!(unset_stack_hint(0, 0xFFFF, None).is_some());
        assert!(unset_stack_hint(0, 0x0000, Some("x")).is_some_and(|h| h.contains("; x)")));
        assert!(unset_stack_hint(0x00FF, 0xFFFF, None).is_none());
        assert!(unset_stack_hint(0, 0xC100, None).is_none());
    }
}

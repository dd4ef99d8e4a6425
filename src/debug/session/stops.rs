//! Stop decisions: which stop a step itself makes (a trap, a refused
//! write, a watchpoint, a halt) and the [`Stop`] a command returns, with
//! its sentence for people.

use super::{Debugger, Reason, StepInfo, Stop};
use crate::cpu::{Instruction, StepEvent};
use crate::debug::profile::label_text;
use crate::debug::report::data_label_text;
use crate::debug::target::{Fault, Target};
use crate::image::Symbol;
use crate::machine::stray::ProgramExit;

impl<T: Target> Debugger<T> {
    pub(super) fn stop(&mut self, reason: Reason) -> Stop {
        let asked_here = self.asked_at.take() == Some(self.target.cycles());
        self.check_first = matches!(reason, Reason::Budget { .. }) && !asked_here;
        let regs = self.target.cpu().regs;
        let mut message = self.describe(&reason);
        let mut exit_words = None;
        let fault = matches!(
            reason,
            Reason::IllegalOpcode { .. } | Reason::BadWrite { .. }
        );
        if fault && !self.target.entry_named(regs.pc) {
            if let Some(exit) = self.exit_from_program() {
                let words = exit.describe(&|a| self.target.peek(a), self.program());
                message.push_str(&format!(". {words}"));
                exit_words = Some(words);
            }
        }
        Stop {
            reason,
            message,
            pc: regs.pc,
            cycles: self.target.cycles(),
            index: self.tracked.index,
            exit: exit_words,
        }
    }

    pub(super) fn label(&self, addr: u16) -> String {
        label_text(self.label_for(addr), addr)
    }

    /// `Program::label_for` through the session's index.
    pub(super) fn label_for(&self, addr: u16) -> Option<(&Symbol, u16)> {
        let program = self.program();
        self.labels
            .get_or_init(|| program.label_index())
            .label_for(program, addr)
    }

    /// At a stop before an illegal opcode or a refused write, at an
    /// instruction where the program put no bytes:
    /// the step that last left them, found by going back up to
    /// `EXIT_STEPS` steps in the history and replaying them (exact, as every
    /// jump in history is); the session ends where it was. None without
    /// history (`run` replays the whole run instead) or if it lies further back.
    fn exit_from_program(&mut self) -> Option<ProgramExit> {
        /// Steps looked back over (a few ms of replay).
        const EXIT_STEPS: u64 = 50_000;
        let here = self.tracked.index;
        if self.program().byte_at(self.target.cpu().regs.pc).is_some() || here == 0 {
            return None;
        }
        let oldest = self.history.as_ref()?.snapshots().first()?.index;
        let start = here.saturating_sub(EXIT_STEPS).max(oldest);
        if start >= here || !self.goto(start) {
            return None;
        }
        let mut last = None;
        self.replaying = true;
        while self.tracked.index < here {
            let regs = self.target.cpu().regs;
            let probe = ProgramExit::probe(self.program(), &regs, &|a| self.target.peek(a));
            self.step_once(false);
            let to = self.target.cpu().regs.pc;
            if let Some(exit) = probe.and_then(|p| p.after(self.program(), to)) {
                last = Some(exit);
            }
        }
        self.replaying = false;
        last
    }

    /// A sentence for a stop reason.
    pub(super) fn describe(&self, reason: &Reason) -> String {
        let pc = self.target.cpu().regs.pc;
        // Not every sentence names where the program is (a watchpoint's
        // names the instruction that made the access).
        let here = || self.label(pc);
        match reason {
            Reason::Step => format!("stepped; next instruction at {here} (${pc:04X})", here = here()),
            Reason::Breakpoint { id, spec, hits } => {
                format!("breakpoint #{id} `{spec}` hit (hit {hits}) at {here} (${pc:04X})", here = here())
            }
            Reason::Watchpoint { hits } => {
                use std::fmt::Write;
                // One string written in place: a watchpoint on a busy byte
                // stops often, and each stop is said.
                let mut text = String::with_capacity(96 * hits.len());
                for (i, h) in hits.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "; " };
                    let at = self.label(h.pc);
                    let _ = write!(
                        text,
                        "{sep}watchpoint #{}: the instruction at {at} (${:04X}) ",
                        h.id, h.pc
                    );
                    let _ = match h.kind {
                        crate::debug::observe::AccessKind::Read => write!(text, "read ${:02X} from ", h.new),
                        crate::debug::observe::AccessKind::Write => {
                            write!(text, "wrote ${:02X} (was ${:02X}) to ", h.new, h.old)
                        }
                    };
                    text.push_str(&data_label_text(
                        self.target.program(),
                        self.label_for(h.addr),
                        h.addr,
                        self.is_device(h.addr),
                    ));
                }
                text
            }
            Reason::Returned {
                from,
                to,
                expected,
                by_return,
            } => {
                let from = self.label(*from);
                if !by_return {
                    format!("the frame of {from} was abandoned (stack moved by hand); now at {here}", here = here())
                } else if to == expected {
                    format!("returned from {from} to {}", self.label(*to))
                } else {
                    format!(
                        "returned from {from} to {} instead of {} (the stack was changed by hand)",
                        self.label(*to),
                        self.label(*expected)
                    )
                }
            }
            Reason::Reached { addr } => format!("reached {} (${addr:04X})", self.label(*addr)),
            Reason::IllegalOpcode { addr, bytes } => {
                let b: Vec<String> = bytes.iter().map(|b| format!("${b:02X}")).collect();
                format!(
                    "illegal opcode {} at {} (${addr:04X}){}; stopped before it: nothing ran, nothing was stacked (continue to take the trap through $FFF8){}",
                    b.join(" "),
                    self.label(*addr),
                    self.line_of(*addr),
                    self.stray_hint(*addr)
                )
            }
            Reason::BadWrite {
                area,
                addr,
                value,
                pc,
            } => format!(
                "`{}` at {} (${pc:04X}){} writes ${value:02X} to {} ${addr:04X}; stopped before it took effect (continue to run it as the chip does: the byte is not stored){}{}",
                self.disasm(*pc),
                self.label(*pc),
                self.line_of(*pc),
                if area == "rom" { "program memory" } else { "unmapped" },
                self.target
                    .write_fault_hint(*addr, area == "rom")
                    .unwrap_or_default(),
                self.stray_hint(*pc)
            ),
            Reason::Settled { waiting_on } => {
                format!(
                    "{}: {waiting_on}; at {here}",
                    crate::script::SETTLED_SENTENCE,
                    here = here()
                )
            }
            Reason::Halted { why, .. } => {
                format!("{why}; at {here} (${pc:04X}){}", self.line_of(pc), here = here())
            }
            Reason::Budget { cycles } => format!("ran {cycles} E-cycles without stopping; paused at {here}", here = here()),
            Reason::StartOfHistory => "reached the oldest state kept (start of history)".into(),
            Reason::NoFrame => "no subroutine to step out of (at top level)".into(),
        }
    }

    /// Where the program is and what went to `pc`, if `pc` is outside
    /// its bytes ([`Target::stray_hint`]), or nothing.
    fn stray_hint(&self, pc: u16) -> String {
        self.target.stray_hint(pc).unwrap_or_default()
    }

    /// ` (file:line)` of the source line at `addr`, or nothing.
    fn line_of(&self, addr: u16) -> String {
        self.program()
            .source_place(addr)
            .map(|p| format!(" ({p})"))
            .unwrap_or_default()
    }

    /// The instruction at `addr` as text (`staa $C100`), or its bytes.
    fn disasm(&self, addr: u16) -> String {
        let target = &self.target;
        Instruction::text_at(addr, |a| target.peek(a))
    }

    /// A stop caused by the step itself (trap, fault, watchpoint, halt).
    pub(super) fn step_stop(&mut self, info: &StepInfo) -> Option<Reason> {
        if let StepEvent::IllegalRefused(ill) = info.ts.step.event {
            return Some(Reason::IllegalOpcode {
                addr: ill.addr,
                bytes: ill.bytes[..ill.len as usize].to_vec(),
            });
        }
        if let Some(f) = info.ts.fault {
            let (area, addr, value) = match f {
                Fault::RomWrite { addr, value } => ("rom", addr, value),
                Fault::UnmappedWrite { addr, value } => ("unmapped", addr, value),
            };
            return Some(Reason::BadWrite {
                area: area.into(),
                addr,
                value,
                pc: info.pc,
            });
        }
        if !self.hits.is_empty() {
            return Some(Reason::Watchpoint {
                hits: self.hits.clone(),
            });
        }
        if let Some(h) = info.ts.halt {
            use crate::machine::Halt;
            let kind = match h {
                Halt::SelfLoop { .. } => "self_loop",
                Halt::Wai { .. } => "wai",
                Halt::Stop => "stop",
            };
            return Some(Reason::Halted {
                halt: kind.into(),
                why: h.to_string(),
            });
        }
        None
    }
}

//! Running a program for a check: booting it, running key scripts in
//! chunks with the stack watched, and why a run ended early.

use super::*;

/// Upper end of the RAM the stack may live in (the trainer11's RAM ends at $7FFF).
pub(super) const RAM_TOP: u16 = 0x7FFF;

/// E-cycles run between two looks at the stack pointer.
pub(super) const CHUNK_CYCLES: u64 = 1024;

/// Why a run ended early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunFailure {
    /// The cycle budget ran out (an endless loop, or a program that never becomes idle).
    Budget {
        /// The budget in E-cycles.
        cycles: u64,
        /// Where the program was.
        at: String,
        /// True if the program was still writing to devices (never idle).
        busy: bool,
        /// The loop it was in waits on memory nothing writes
        /// (`run::memory_wait_hint`): what, and why no budget is enough.
        waits_on: Option<String>,
    },
    /// An illegal opcode.
    Illegal {
        /// The machine's description (`illegal opcode $41 at $C123`).
        what: String,
        /// Label and offset of the address.
        at: String,
        /// The JSR or BSR that went there (`` `jsr $E000` at main+3 ($C003) ``),
        /// if the return address on the stack shows one.
        via: Option<String>,
        /// Otherwise, for an address outside the program's bytes, the
        /// jump, return or last instruction that left them (a sentence,
        /// [`crate::machine::stray::ProgramExit::describe`]), found by a replay.
        exit: Option<String>,
    },
    /// A write into program memory.
    RomWrite {
        /// The address written (label and offset if the program names it).
        addr: String,
        /// The instruction that wrote.
        at: String,
        /// True if the write came from the stack (pointer in program memory).
        stack: bool,
        /// For a writing instruction outside the program's bytes: how the
        /// CPU got there (as for [`RunFailure::Illegal`]).
        exit: Option<String>,
    },
    /// A write to an address with nothing behind it.
    UnmappedWrite {
        /// The address written.
        addr: u16,
        /// The instruction that wrote.
        at: String,
        /// For a writing instruction outside the program's bytes: how the
        /// CPU got there (as for [`RunFailure::Illegal`]).
        exit: Option<String>,
    },
    /// The stack pointer went below the end of the variables.
    StackOverflow {
        /// The stack pointer.
        sp: u16,
        /// The lowest address the stack may use.
        floor: u16,
        /// What the floor is (symbol name).
        floor_name: String,
        /// Where the program was.
        at: String,
    },
    /// STOP executed with nothing to wake the CPU.
    Stopped {
        /// Where.
        at: String,
    },
    /// Another failure, with the stack pointer below the variables' end
    /// when it came: the likely cause (the guard never saw SP above the
    /// variables, so it did not fire: `lds` set it there from the start).
    StackAmongVariables {
        /// The stack pointer then.
        sp: u16,
        /// The lowest address the stack may use.
        floor: u16,
        /// What the floor is (symbol name).
        floor_name: String,
        /// The failure itself.
        then: Box<RunFailure>,
    },
}

impl std::fmt::Display for RunFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunFailure::Budget {
                cycles,
                at,
                busy,
                waits_on,
            } => {
                write!(
                    f,
                    "stopped after {cycles} E-cycles ({} ms of board time), the cycle budget, at {at}: ",
                    cycles / 2000
                )?;
                if let Some(w) = waits_on {
                    write!(f, "{w}")
                } else if *busy {
                    write!(f, "the program never became idle (it kept writing to the LCD or the ports); is there an endless loop, e.g. a branch back to the start instead of the main loop?")
                } else {
                    write!(f, "is there an endless loop?")
                }
            }
            // The replayed exit from the program's bytes is the likely
            // cause: it comes first, then what the CPU did after it (the
            // advice of the symptom alone, such as where variables belong,
            // would send the student to the wrong place).
            RunFailure::Illegal {
                what,
                at,
                via: None,
                exit: Some(cause),
            } => write!(
                f,
                "{} Then the CPU met bytes that are no instruction: {what} at {at}.",
                sentence(cause)
            ),
            RunFailure::Illegal { what, at, via, exit: None } => {
                write!(
                    f,
                    "{what} at {at}: the CPU met bytes that are no instruction; is data in the code path, or a jump to a wrong address?"
                )?;
                match via {
                    Some(via) => write!(f, " The {via} went there."),
                    None => Ok(()),
                }
            }
            RunFailure::Illegal { via: Some(via), what, at, .. } => write!(
                f,
                "{what} at {at}: the CPU met bytes that are no instruction; is data in the code path, or a jump to a wrong address? The {via} went there."
            ),
            RunFailure::RomWrite { addr, at, exit: Some(cause), .. } => write!(
                f,
                "{} Then an instruction at {at}, outside the program, wrote into program memory (ROM) at {addr}.",
                sentence(cause)
            ),
            RunFailure::UnmappedWrite { addr, at, exit: Some(cause) } => write!(
                f,
                "{} Then an instruction at {at}, outside the program, wrote to ${addr:04X}, where nothing is mapped.",
                sentence(cause)
            ),
            RunFailure::RomWrite { addr, at, stack: true, exit: None } => write!(
                f,
                "the stack ran into the program: a push wrote to program memory at {addr} (instruction at {at}); set the stack pointer into RAM (`lds #$3FFF`) before the first jsr"
            ),
            RunFailure::RomWrite { addr, at, stack: false, exit: None } => write!(
                f,
                "write into program memory (ROM) at {addr} by the instruction at {at}; variables belong in RAM (RamSection)"
            ),
            RunFailure::UnmappedWrite { addr, at, exit: None } => write!(
                f,
                "write to ${addr:04X}, where nothing is mapped, by the instruction at {at}"
            ),
            RunFailure::StackOverflow { sp, floor, floor_name, at } => write!(
                f,
                "stack overflow: the stack pointer reached ${sp:04X}, below ${floor:04X} ({floor_name}), so pushes overwrite the variables (at {at}); is a subroutine calling itself, or a push without its pull?"
            ),
            RunFailure::Stopped { at } => write!(f, "the CPU executed STOP at {at} and nothing wakes it"),
            RunFailure::StackAmongVariables { sp, floor, floor_name, then } => write!(
                f,
                "{then} At that point the stack pointer is ${sp:04X}, below ${floor:04X} ({floor_name}): the stack lies among the variables, where their stores overwrite return addresses; set it above them (`lds #$3FFF`, the top of RAM)"
            ),
        }
    }
}

/// `failure` with the stack named as its likely cause when SP lies in RAM
/// below the guard's floor as it happens (a guard that never armed).
fn with_stack_cause(failure: RunFailure, guard: Option<&StackGuard>, m: &Machine) -> RunFailure {
    let sp = m.registers().sp;
    match guard {
        Some(g)
            if !matches!(failure, RunFailure::StackOverflow { .. })
                && (0x0040..g.floor.saturating_sub(1)).contains(&sp) =>
        {
            RunFailure::StackAmongVariables {
                sp,
                floor: g.floor,
                floor_name: g.floor_name.clone(),
                then: Box::new(failure),
            }
        }
        _ => failure,
    }
}

impl RunFailure {
    /// The failure as told without the replayed exit (what a run that does
    /// not replay says about the same stop, such as a random game's).
    pub fn without_cause(&self) -> RunFailure {
        match self {
            RunFailure::Illegal { what, at, via, .. } => RunFailure::Illegal {
                what: what.clone(),
                at: at.clone(),
                via: via.clone(),
                exit: None,
            },
            RunFailure::RomWrite {
                addr, at, stack, ..
            } => RunFailure::RomWrite {
                addr: addr.clone(),
                at: at.clone(),
                stack: *stack,
                exit: None,
            },
            RunFailure::UnmappedWrite { addr, at, .. } => RunFailure::UnmappedWrite {
                addr: *addr,
                at: at.clone(),
                exit: None,
            },
            RunFailure::StackAmongVariables {
                sp,
                floor,
                floor_name,
                then,
            } => RunFailure::StackAmongVariables {
                sp: *sp,
                floor: *floor,
                floor_name: floor_name.clone(),
                then: Box::new(then.without_cause()),
            },
            other => other.clone(),
        }
    }
}

/// `text` as a sentence: a capital first letter and a closing full stop
/// (none after a question mark).
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    if !out.ends_with(['.', '?', '!']) {
        out.push('.');
    }
    out
}

/// The replayed exit's sentence ([`ProgramExit::describe`], which follows
/// the symptom and says "there") made to stand first: it names the address
/// the CPU went to (`` `rts` at $C50F in checkDrawEnd (Logic.inc:439)
/// returned to $05C3: ...``).
///
/// [`ProgramExit::describe`]: crate::machine::stray::ProgramExit::describe
pub fn exit_as_cause(describe: &str, to: u16) -> String {
    let to = format!("${to:04X}");
    // "ran on into it" says later that no jump "went there": that stays.
    if describe.contains("ran on into it from") {
        return describe.replacen("ran on into it from", &format!("ran on into {to} from"), 1);
    }
    describe
        .replacen(" returned there", &format!(" returned to {to}"), 1)
        .replacen(" went there", &format!(" went to {to}"), 1)
}

/// E-cycles before a stop at an illegal opcode that [`explain_exit`]
/// replays one instruction at a time.
const EXIT_WINDOW: u64 = 200_000;

/// A run from `start` (a machine before `script` started) failed: for an
/// illegal opcode or refused write outside the program's bytes that no
/// call went to, the
/// jump, return or last instruction that left them, from a replay (exact:
/// runs are deterministic). `end` is the machine where the run stopped.
pub(super) fn explain_exit(
    mut failure: RunFailure,
    start: &Machine,
    (script, timing): (&Script, Timing),
    end: &Machine,
) -> RunFailure {
    let inner = match &mut failure {
        RunFailure::StackAmongVariables { then, .. } => then.as_mut(),
        other => other,
    };
    let exit = match inner {
        RunFailure::Illegal {
            via: None, exit, ..
        }
        | RunFailure::RomWrite { exit, .. }
        | RunFailure::UnmappedWrite { exit, .. } => Some(exit),
        _ => None,
    };
    if let Some(exit) = exit {
        let program = end.program();
        if program.byte_at(end.registers().pc).is_none() {
            *exit = start
                .last_exit_from_program(script, timing, end.cycles(), EXIT_WINDOW)
                .map(|e| exit_as_cause(&e.describe(&|a| end.peek(a), program), e.to));
        }
    }
    failure
}

/// `label+off ($ADDR)` for an address, from the program's symbols.
pub(super) fn locate(program: &Program, addr: u16) -> String {
    match program.label_for(addr) {
        Some((s, 0)) => format!("{} (${addr:04X})", s.name),
        Some((s, off)) if off < 0x400 => format!("{}+{off} (${addr:04X})", s.name),
        _ => format!("${addr:04X}"),
    }
}

/// Watches the stack pointer: once it has been set into RAM above the
/// variables, it must stay there.
#[derive(Clone, Debug)]
pub(super) struct StackGuard {
    pub(super) floor: u16,
    pub(super) floor_name: String,
    pub(super) armed: bool,
}

impl StackGuard {
    pub(super) fn new(program: &Program, symbol: Option<&str>) -> Option<StackGuard> {
        if let Some(name) = symbol {
            if let Some(s) = program.symbol(name) {
                return Some(StackGuard {
                    floor: s.value,
                    floor_name: format!("`{}`", s.name),
                    armed: false,
                });
            }
        }
        // Default: the end of the highest variable (RAM label + its size).
        let (end, name) = program
            .symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Label && (0x0040..=RAM_TOP).contains(&s.value))
            .map(|s| (u32::from(s.value) + s.size.unwrap_or(1).max(1), &s.name))
            .max_by_key(|(end, _)| *end)?;
        Some(StackGuard {
            floor: u16::try_from(end).unwrap_or(RAM_TOP),
            floor_name: format!("the end of the variables, after `{name}`"),
            armed: false,
        })
    }

    pub(super) fn check(&mut self, m: &Machine) -> Result<(), RunFailure> {
        let sp = m.registers().sp;
        // SP points at the next free byte, so SP == floor - 1 means the byte below the floor is used.
        let inside = sp >= self.floor.saturating_sub(1) && sp <= RAM_TOP;
        if inside {
            self.armed = true;
            Ok(())
        } else if self.armed && sp < self.floor {
            Err(RunFailure::StackOverflow {
                sp,
                floor: self.floor,
                floor_name: self.floor_name.clone(),
                at: locate(m.program(), m.registers().pc),
            })
        } else {
            Ok(())
        }
    }
}

/// Why a bounded run ended before it was done.
pub(super) enum Cut {
    /// The program failed on the way (or its stack left its place).
    Failed(RunFailure),
    /// The budget ran out first.
    Budget,
}

/// Runs `m` under `stop` for at most `budget` E-cycles, in chunks so the
/// stack guard looks at SP between them, until `done` returns a value for
/// a stop (it sees every stop that is no failure).
pub(super) fn run_chunked<T>(
    m: &mut Machine,
    stop: &mut StopConditions,
    budget: u64,
    guard: &mut Option<StackGuard>,
    done: impl FnMut(&Machine, &StopReason) -> Option<T>,
) -> Result<T, Cut> {
    run_chunked_with(m, stop, budget, guard, true, done)
}

/// [`run_chunked`], with the skip past a chunk's end on or off (the same
/// result either way; tests compare).
///
/// The guard looks at the first instruction boundary at or after every
/// multiple of [`CHUNK_CYCLES`] from the start. A waiting program may be
/// fast-forwarded past some of those marks when SP stays where the guard
/// allows it all through the skipped loop (every look it misses would
/// pass); the marks after the skip are the same, so the first look that
/// fails is the same look.
pub(super) fn run_chunked_with<T>(
    m: &mut Machine,
    stop: &mut StopConditions,
    budget: u64,
    guard: &mut Option<StackGuard>,
    skip_past: bool,
    mut done: impl FnMut(&Machine, &StopReason) -> Option<T>,
) -> Result<T, Cut> {
    let start = m.cycles();
    loop {
        let used = m.cycles() - start;
        if used >= budget {
            return Err(Cut::Budget);
        }
        let mark = (used / CHUNK_CYCLES + 1) * CHUNK_CYCLES;
        stop.max_cycles = (mark - used).min(budget - used);
        stop.skip_past_budget = match guard.as_ref() {
            _ if !skip_past => None,
            None => Some((0, u16::MAX)),
            Some(g) if g.armed => Some((g.floor.saturating_sub(1), u16::MAX)),
            Some(_) => None,
        };
        let reason = m.run_until(stop);
        if let Some(g) = guard.as_mut() {
            g.check(m).map_err(Cut::Failed)?;
        }
        if let Some(failure) = stop_failure(m, reason) {
            return Err(Cut::Failed(with_stack_cause(failure, guard.as_ref(), m)));
        }
        if let Some(v) = done(m, &reason) {
            return Ok(v);
        }
    }
}

/// Plays `script` on `m` within `budget` E-cycles. Ok(true) if the program
/// settled at the end, Ok(false) if it was still busy when the script ended.
pub(super) fn run_script(
    m: &mut Machine,
    script: &Script,
    timing: Timing,
    budget: u64,
    guard: &mut Option<StackGuard>,
) -> Result<bool, RunFailure> {
    run_script_capturing(m, script, timing, budget, guard, &[])
}

/// [`run_script`], keeping the LCD before each action in `capture_before`
/// ([`Machine::capture_lcd_before`]; `Machine::take_lcd_captures` after).
pub(super) fn run_script_capturing(
    m: &mut Machine,
    script: &Script,
    timing: Timing,
    budget: u64,
    guard: &mut Option<StackGuard>,
    capture_before: &[usize],
) -> Result<bool, RunFailure> {
    m.start_script_with(script, timing);
    m.capture_lcd_before(capture_before);
    if let Some(g) = guard.as_mut() {
        g.check(m)?;
    }
    let mut stop = StopConditions::budget(CHUNK_CYCLES);
    let ended = run_chunked(m, &mut stop, budget, guard, |_, reason| match reason {
        // A program that halts (a branch to itself, WAI with nothing to
        // wake it) has ended as surely as one waiting for keys.
        StopReason::Settled | StopReason::Halted(Halt::SelfLoop { .. } | Halt::Wai { .. }) => {
            Some(true)
        }
        _ => None,
    });
    match ended {
        Ok(settled) => Ok(settled),
        Err(Cut::Failed(f)) => Err(f),
        Err(Cut::Budget) => Err(RunFailure::Budget {
            cycles: budget,
            at: locate(m.program(), m.registers().pc),
            busy: m.board().last_activity().saturating_add(timing.quiet) > m.cycles(),
            waits_on: crate::run::memory_wait_hint(m, true),
        }),
    }
}

/// A stop reason that ends a run as a failure (for `run_script` and the breakpoint checks).
pub(super) fn stop_failure(m: &Machine, reason: StopReason) -> Option<RunFailure> {
    let program = m.program();
    match reason {
        StopReason::IllegalOpcode(op) => Some(RunFailure::Illegal {
            what: format!(
                "illegal opcode {}",
                hex_bytes(op.bytes.get(..usize::from(op.len)).unwrap_or(&[]))
            ),
            at: locate(program, op.addr),
            via: crate::machine::stray::call_site(m.registers().sp, op.addr, &|a| m.peek(a)).map(
                |site| {
                    let text = crate::cpu::Instruction::text_at(site, |a| m.peek(a));
                    format!("`{text}` at {}", locate(program, site))
                },
            ),
            exit: None,
        }),
        StopReason::RomWrite { addr, pc, .. } => {
            // The machine stops before the writing instruction takes effect,
            // so SP is as before it: a push writes at SP, SP-1, ... SP-8.
            let sp = m.registers().sp;
            let stack = addr <= sp && u32::from(addr) + 8 >= u32::from(sp);
            Some(RunFailure::RomWrite {
                addr: locate(program, addr),
                at: locate(program, pc),
                stack,
                exit: None,
            })
        }
        StopReason::UnmappedWrite { addr, pc, .. } => Some(RunFailure::UnmappedWrite {
            addr,
            at: locate(program, pc),
            exit: None,
        }),
        StopReason::Halted(Halt::Stop) => Some(RunFailure::Stopped {
            at: locate(program, m.registers().pc),
        }),
        StopReason::CycleBudget
        | StopReason::Breakpoint(_)
        | StopReason::Settled
        | StopReason::Halted(_) => None,
    }
}

/// The LCD as the grader compares it.
pub fn frame_of(m: &Machine) -> Frame {
    frame_of_lcd(m.lcd())
}

/// The visible picture of an LCD controller (as [`frame_of`]).
pub fn frame_of_lcd(lcd: &crate::board::lcd::Lcd) -> Frame {
    let mut f = Frame::default();
    if !lcd.is_visible() {
        return f;
    }
    for (y, row) in f.rows.iter_mut().enumerate().take(HEIGHT) {
        *row = lcd.row_bits(y);
    }
    f
}

/// A program assembled and booted: the machine right after the boot settled.
#[derive(Clone, Debug)]
pub(super) struct Booted {
    pub(super) machine: Machine,
    pub(super) boot_cycles: u64,
    pub(super) guard: Option<StackGuard>,
}

/// Settings of the runs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Timings {
    pub(super) scenario: Timing,
    pub(super) game: Timing,
}

pub(super) fn boot(
    program: Program,
    limits: &crate::grade::assignment::Limits,
    board: &crate::board::config::BoardSetup,
    t: &Timings,
) -> Result<Booted, String> {
    let program = Arc::new(program);
    let mut machine = Machine::with_board(program.clone(), board).map_err(|e| e.to_string())?;
    let fresh = machine.clone();
    let mut guard = StackGuard::new(&program, limits.stack_guard.as_deref());
    // Start-up may take the whole budget to become idle: a program that
    // never does (an endless loop through its init) is stopped by the budget.
    let startup = Timing {
        settle_cap: limits.max_cycles,
        ..t.scenario
    };
    let script = Script::empty();
    let settled = run_script(
        &mut machine,
        &script,
        startup,
        limits.max_cycles,
        &mut guard,
    )
    .map_err(|e| {
        let e = explain_exit(e, &fresh, (&script, startup), &machine);
        format!("while starting up: {e}")
    })?;
    if !settled {
        let e = RunFailure::Budget {
            cycles: limits.max_cycles,
            at: locate(&program, machine.registers().pc),
            busy: true,
            waits_on: crate::run::memory_wait_hint(&machine, true),
        };
        return Err(format!("while starting up: {e}"));
    }
    let boot_cycles = machine.cycles();
    Ok(Booted {
        machine,
        boot_cycles,
        guard,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::{assemble_file, AsmOptions};
    use crate::grade::assignment::Limits;

    /// Plays `keys` on a booted `program`, the skip past a chunk's end on
    /// or off; the outcome as text and the machine's cycle count.
    fn play(program: &Program, keys: &str, skip_past: bool) -> (String, u64) {
        let limits = Limits::default();
        let t = Timing::default();
        let timings = Timings {
            scenario: t,
            game: t,
        };
        let booted = boot(
            program.clone(),
            &limits,
            &crate::board::config::default_setup(),
            &timings,
        )
        .expect("boots");
        let (mut m, mut guard) = (booted.machine, booted.guard);
        let script = Script::parse_keys(keys).expect("keys");
        m.start_script_with(&script, t);
        let mut stop = StopConditions::budget(CHUNK_CYCLES);
        let r = run_chunked_with(
            &mut m,
            &mut stop,
            limits.max_cycles,
            &mut guard,
            skip_past,
            |_, reason| matches!(reason, StopReason::Settled).then_some(()),
        );
        let text = match r {
            Ok(()) => "settled".to_string(),
            Err(Cut::Failed(f)) => f.to_string(),
            Err(Cut::Budget) => "budget".to_string(),
        };
        (text, m.cycles())
    }

    fn corpus(name: &str) -> Program {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/grade_corpus")
            .join(name)
            .join("Viergewinnt.asm");
        assemble_file(&path, &AsmOptions::default())
            .program
            .expect("assembles")
    }

    #[test]
    fn skipping_past_chunk_ends_changes_no_outcome() {
        // A recursion that overflows the stack after some waiting (the
        // guard's first failing look must be the same look), and the
        // firmware as it should be (the same cycle at the end).
        for (name, keys, want) in [
            (
                "stack_overflow",
                "drop,left,drop,right,drop,drop",
                "stack overflow",
            ),
            ("correct", "drop,wait:30ms,left,drop,right,drop", "settled"),
        ] {
            let p = corpus(name);
            let on = play(&p, keys, true);
            let off = play(&p, keys, false);
            assert!(on.0.contains(want), "{name}: {}", on.0);
            assert_eq!(on, off, "{name}");
        }
    }
}

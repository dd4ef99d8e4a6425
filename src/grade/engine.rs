//! Running an assignment's checks on one submission: assemble it, boot it on
//! a [`Machine`], play key scripts, and compare what it shows with what the
//! assignment (or the reference solution after the same keys) expects.
//!
//! Every run is bounded: a cycle budget per scenario and per move of a game, a guard
//! that stops a stack growing into the variables, and the machine's own stops
//! for illegal opcodes (the chip traps through $FFF8) and writes into program
//! memory. The reference solution is run once per key script and cached.

use super::assignment::{
    Assertion, Assignment, Check, CheckKind, Differential, Expected, Generator, LcdExpected,
    MemSpec, ReferenceSource, Reg, Scenario, SerialExpected,
};
use super::error::GradeError;
use super::frame::{Frame, HEIGHT, WIDTH};
use super::result::{round2, CheckResult, LcdEvidence, SubmissionResult, SubmissionStatus};
use super::submission::Submission;
use crate::asm::{assemble_with, AsmOptions, MemoryFiles};
use crate::cpu::{Instruction, Registers};
use crate::image::{Program, SymbolKind};
use crate::machine::{Machine, StopConditions, StopReason};
use crate::script::{Action, Script, Timing};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

mod stops;

/// E-cycles run between two looks at the stack pointer.
const CHUNK_CYCLES: u64 = 1024;

/// Longest wait for idle after a move of a differential game (1 s of board time).
const GAME_SETTLE_CAP: u64 = 2_000_000;

/// Games that ran out of cycles before the rest are not played (they would too).
const GAME_BUDGET_FAILURES: u32 = 2;

/// Longest assembler output quoted in feedback.
const MAX_DIAGNOSTICS_CHARS: usize = 6000;

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
    },
    /// An illegal opcode.
    Illegal {
        /// The machine's description (`illegal opcode $41 at $C123`).
        what: String,
        /// Label and offset of the address.
        at: String,
    },
    /// A write into program memory.
    RomWrite {
        /// The address written (label and offset if the program names it).
        addr: String,
        /// The instruction that wrote.
        at: String,
        /// True if the write came from the stack (pointer in program memory).
        stack: bool,
    },
    /// A write to an address with nothing behind it.
    UnmappedWrite {
        /// The address written.
        addr: u16,
        /// The instruction that wrote.
        at: String,
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
}

impl std::fmt::Display for RunFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunFailure::Budget { cycles, at, busy } => {
                write!(
                    f,
                    "stopped after {cycles} E-cycles ({} ms of board time), the cycle budget, at {at}: ",
                    cycles / 2000
                )?;
                if *busy {
                    write!(f, "the program never became idle (it kept writing to the LCD or the ports); is there an endless loop, e.g. a branch back to the start instead of the main loop?")
                } else {
                    write!(f, "is there an endless loop?")
                }
            }
            RunFailure::Illegal { what, at } => write!(
                f,
                "{what} at {at}: the CPU met bytes that are no instruction; is data in the code path, or a jump to a wrong address?"
            ),
            RunFailure::RomWrite { addr, at, stack: true } => write!(
                f,
                "the stack ran into the program: a push wrote to program memory at {addr} (instruction at {at}); set the stack pointer into RAM (`lds #$3FFF`) before the first jsr"
            ),
            RunFailure::RomWrite { addr, at, stack: false } => write!(
                f,
                "write into program memory (ROM) at {addr} by the instruction at {at}; variables belong in RAM (RamSection)"
            ),
            RunFailure::UnmappedWrite { addr, at } => write!(
                f,
                "write to ${addr:04X}, where nothing is mapped, by the instruction at {at}"
            ),
            RunFailure::StackOverflow { sp, floor, floor_name, at } => write!(
                f,
                "stack overflow: the stack pointer reached ${sp:04X}, below ${floor:04X} ({floor_name}), so pushes overwrite the variables (at {at}); is a subroutine calling itself, or a push without its pull?"
            ),
            RunFailure::Stopped { at } => write!(f, "the CPU executed STOP at {at} and nothing wakes it"),
        }
    }
}

/// `label+off ($ADDR)` for an address, from the program's symbols.
fn locate(program: &Program, addr: u16) -> String {
    match program.label_for(addr) {
        Some((s, 0)) => format!("{} (${addr:04X})", s.name),
        Some((s, off)) if off < 0x400 => format!("{}+{off} (${addr:04X})", s.name),
        _ => format!("${addr:04X}"),
    }
}

/// Watches the stack pointer: once it has been set into RAM above the
/// variables, it must stay there.
#[derive(Clone, Debug)]
struct StackGuard {
    floor: u16,
    floor_name: String,
    armed: bool,
}

/// Upper end of the RAM the stack may live in (the trainer11's RAM ends at $7FFF).
const RAM_TOP: u16 = 0x7FFF;

impl StackGuard {
    fn new(program: &Program, symbol: Option<&str>) -> Option<StackGuard> {
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

    fn check(&mut self, m: &Machine) -> Result<(), RunFailure> {
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
enum Cut {
    /// The program failed on the way (or its stack left its place).
    Failed(RunFailure),
    /// The budget ran out first.
    Budget,
}

/// Runs `m` under `stop` for at most `budget` E-cycles, in chunks so the
/// stack guard looks at SP between them, until `done` returns a value for
/// a stop (it sees every stop that is no failure).
fn run_chunked<T>(
    m: &mut Machine,
    stop: &mut StopConditions,
    budget: u64,
    guard: &mut Option<StackGuard>,
    mut done: impl FnMut(&Machine, &StopReason) -> Option<T>,
) -> Result<T, Cut> {
    let start = m.cycles();
    loop {
        let used = m.cycles() - start;
        if used >= budget {
            return Err(Cut::Budget);
        }
        stop.max_cycles = CHUNK_CYCLES.min(budget - used);
        let reason = m.run_until(stop);
        if let Some(g) = guard.as_mut() {
            g.check(m).map_err(Cut::Failed)?;
        }
        if let Some(failure) = stop_failure(m, reason) {
            return Err(Cut::Failed(failure));
        }
        if let Some(v) = done(m, &reason) {
            return Ok(v);
        }
    }
}

/// Plays `script` on `m` within `budget` E-cycles. Ok(true) if the program
/// settled at the end, Ok(false) if it was still busy when the script ended.
fn run_script(
    m: &mut Machine,
    script: &Script,
    timing: Timing,
    budget: u64,
    guard: &mut Option<StackGuard>,
) -> Result<bool, RunFailure> {
    m.start_script_with(script, timing);
    if let Some(g) = guard.as_mut() {
        g.check(m)?;
    }
    let mut stop = StopConditions::budget(CHUNK_CYCLES);
    let ended = run_chunked(m, &mut stop, budget, guard, |_, reason| match reason {
        StopReason::Settled => Some(true),
        StopReason::ScriptDone => Some(false),
        _ => None,
    });
    match ended {
        Ok(settled) => Ok(settled),
        Err(Cut::Failed(f)) => Err(f),
        Err(Cut::Budget) => Err(RunFailure::Budget {
            cycles: budget,
            at: locate(m.program(), m.registers().pc),
            busy: m.board().last_activity().saturating_add(timing.quiet) > m.cycles(),
        }),
    }
}

/// A stop reason that ends a run as a failure (for `run_script` and the breakpoint checks).
fn stop_failure(m: &Machine, reason: StopReason) -> Option<RunFailure> {
    let program = m.program();
    match reason {
        StopReason::IllegalOpcode(op) => Some(RunFailure::Illegal {
            what: format!(
                "illegal opcode {}",
                hex_bytes(op.bytes.get(..usize::from(op.len)).unwrap_or(&[]))
            ),
            at: locate(program, op.addr),
        }),
        StopReason::RomWrite { addr, pc, .. } => {
            let sp = m.registers().sp;
            // A push writes at SP and then decrements, so a stack write is at SP+1..SP+9.
            let stack = addr > sp && u32::from(addr) <= u32::from(sp) + 9;
            Some(RunFailure::RomWrite {
                addr: locate(program, addr),
                at: locate(program, pc),
                stack,
            })
        }
        StopReason::UnmappedWrite { addr, pc, .. } => Some(RunFailure::UnmappedWrite {
            addr,
            at: locate(program, pc),
        }),
        StopReason::Stopped => Some(RunFailure::Stopped {
            at: locate(program, m.registers().pc),
        }),
        StopReason::CycleBudget
        | StopReason::Breakpoint(_)
        | StopReason::Settled
        | StopReason::ScriptDone => None,
    }
}

/// The LCD as the grader compares it.
pub fn frame_of(m: &Machine) -> Frame {
    let lcd = m.lcd();
    let mut f = Frame::default();
    if !lcd.is_visible() {
        return f;
    }
    for (y, row) in f.rows.iter_mut().enumerate().take(HEIGHT) {
        let mut bits = 0u128;
        for x in 0..WIDTH {
            if lcd.pixel(x, y) {
                bits |= 1 << x;
            }
        }
        *row = bits;
    }
    f
}

/// The address and bytes of a spec in a program's memory, or why they cannot be read.
fn read_spec(
    program: &Program,
    peek: impl Fn(u16) -> u8,
    spec: &MemSpec,
) -> Result<(u16, Vec<u8>), String> {
    let base = match &spec.symbol {
        Some(name) => {
            let s = program.symbol(name).ok_or_else(|| {
                format!(
                    "the program defines no symbol `{name}`; the checks read it, so keep that name"
                )
            })?;
            s.value.wrapping_add(spec.offset)
        }
        None => spec.offset,
    };
    let bytes = (0..spec.len).map(|i| peek(base.wrapping_add(i))).collect();
    Ok((base, bytes))
}

/// What a finished run looked like, for assertions.
#[derive(Clone, Debug)]
struct Observation {
    frame: Frame,
    regs: Registers,
    serial: String,
    memory: Vec<u8>,
    cycles: u64,
    program: Arc<Program>,
}

impl Observation {
    fn take(m: &Machine, cycles: u64) -> Observation {
        Observation {
            frame: frame_of(m),
            regs: m.registers(),
            serial: m.serial_text(),
            memory: m.peek_range(0, 0x10000),
            cycles,
            program: m.program().clone(),
        }
    }

    /// The bytes of a spec, or why they cannot be read.
    fn read(&self, spec: &MemSpec) -> Result<(u16, Vec<u8>), String> {
        read_spec(
            &self.program,
            |a| self.memory.get(usize::from(a)).copied().unwrap_or(0),
            spec,
        )
    }

    fn register(&self, reg: Reg) -> u16 {
        reg.read(&self.regs)
    }
}

fn hex_bytes(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("${x:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the bytes at `spec` differ from what was wanted: short ones in full,
/// long ones (a board) by count and the first differing 8-byte row.
fn describe_bytes(spec: &MemSpec, addr: u16, got: &[u8], want: &[u8], whose: &str) -> String {
    if got.len() <= 8 {
        return format!(
            "{spec} (${addr:04X}) is {}, {whose} {}",
            hex_bytes(got),
            hex_bytes(want)
        );
    }
    let diffs = got.iter().zip(want).filter(|(a, b)| a != b).count();
    let first = got.iter().zip(want).position(|(a, b)| a != b).unwrap_or(0);
    let from = first - first % 8;
    let to = (from + 8).min(got.len());
    let at = match &spec.symbol {
        Some(name) => format!("{name}+{}", usize::from(spec.offset) + from),
        None => format!("${:04X}", usize::from(spec.offset) + from),
    };
    format!(
        "{spec} differs in {diffs} byte(s); from {at} (${:04X}) on it is {}, {whose} {}",
        usize::from(addr) + from,
        hex_bytes(got.get(from..to).unwrap_or(&[])),
        hex_bytes(want.get(from..to).unwrap_or(&[]))
    )
}

fn value_bytes(v: u64, len: usize) -> Vec<u8> {
    (0..len)
        .rev()
        .map(|i| if i < 8 { (v >> (8 * i)) as u8 } else { 0 })
        .collect()
}

/// A program assembled and booted: the machine right after the boot settled.
#[derive(Clone, Debug)]
struct Booted {
    machine: Machine,
    boot_cycles: u64,
    guard: Option<StackGuard>,
}

/// Settings of the runs.
#[derive(Clone, Copy, Debug)]
struct Timings {
    scenario: Timing,
    game: Timing,
}

fn boot(
    program: Program,
    limits: &super::assignment::Limits,
    t: &Timings,
) -> Result<Booted, String> {
    let program = Arc::new(program);
    let mut machine = Machine::new(program.clone()).map_err(|e| e.to_string())?;
    let mut guard = StackGuard::new(&program, limits.stack_guard.as_deref());
    // Start-up may take the whole budget to become idle: a program that
    // never does (an endless loop through its init) is stopped by the budget.
    let startup = Timing {
        settle_cap: limits.max_cycles,
        ..t.scenario
    };
    let settled = run_script(
        &mut machine,
        &Script::empty(),
        startup,
        limits.max_cycles,
        &mut guard,
    )
    .map_err(|e| format!("while starting up: {e}"))?;
    if !settled {
        let e = RunFailure::Budget {
            cycles: limits.max_cycles,
            at: locate(&program, machine.registers().pc),
            busy: true,
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

/// One move of a reference game: the keys and what the reference showed after them.
#[derive(Clone, Debug)]
struct RefMove {
    script: Script,
    label: String,
    frame: Frame,
    compared: Vec<Vec<u8>>,
}

/// The reference solution, booted, with its cached runs.
#[derive(Debug)]
struct Reference {
    booted: Booted,
    scenarios: HashMap<String, Observation>,
    /// Per differential check (by index in the assignment): its games.
    games: HashMap<usize, Vec<Vec<RefMove>>>,
    /// Per breakpoint check (by index): what the reference showed there.
    breaks: HashMap<usize, Observation>,
}

/// An assignment ready to grade: its reference solution assembled, booted
/// and run through every scenario and game once.
#[derive(Debug)]
pub struct Grader {
    assignment: Assignment,
    reference: Option<Reference>,
    reference_files: Vec<(String, String)>,
    timings: Timings,
    cache: Option<ResultCache>,
}

/// Results by program: one slot per distinct program, filled once.
type ResultCache = Mutex<HashMap<Vec<u8>, Arc<OnceLock<Vec<CheckResult>>>>>;

/// Everything about a program that can change its results: the bytes, the
/// start, and the symbols (the checks read memory by symbol, messages name labels).
fn program_key(p: &Program) -> Vec<u8> {
    let mut k = Vec::new();
    for s in &p.segments {
        k.extend_from_slice(&s.start.to_le_bytes());
        k.extend_from_slice(&(s.bytes.len() as u32).to_le_bytes());
        k.extend_from_slice(&s.bytes);
    }
    k.extend_from_slice(&p.entry.map_or(0x1_0000u32, u32::from).to_le_bytes());
    for s in &p.symbols {
        k.extend_from_slice(s.name.as_bytes());
        k.push(0);
        k.extend_from_slice(&s.value.to_le_bytes());
        k.push(u8::from(s.kind == SymbolKind::Label));
        k.extend_from_slice(&s.size.unwrap_or(u32::MAX).to_le_bytes());
    }
    k
}

/// Reads a reference folder: every source file in it, by relative path.
fn read_reference(assignment: &Assignment) -> Result<Option<Submission>, GradeError> {
    match &assignment.reference {
        None => Ok(None),
        Some(ReferenceSource::Folder(dir)) => {
            let sub = Submission::load(dir, &assignment.limits)
                .map_err(|e| GradeError::Reference(format!("{}: {e}", dir.display())))?;
            Ok(Some(sub))
        }
        Some(ReferenceSource::Bundled) => {
            let raw = crate::firmware::FILES
                .iter()
                .map(|(name, text)| (name.to_string(), text.as_bytes().to_vec()))
                .collect();
            let sub = Submission::from_files(
                "bundled firmware".into(),
                Path::new(crate::firmware::FOLDER).to_path_buf(),
                raw,
                Vec::new(),
            )
            .map_err(|e| GradeError::Reference(format!("bundled firmware: {e}")))?;
            Ok(Some(sub))
        }
    }
}

/// The assembler's input for a submission: its files, with the course's
/// provided files (from the reference) next to its entry file. A provided
/// file always comes from the course: the student's copy, if any, is left
/// out, so test data and register definitions cannot be changed.
fn source_files(sub: &Submission, entry: &str, provided: &[(String, String)]) -> MemoryFiles {
    let wanted: Vec<(String, &String)> = provided
        .iter()
        .map(|(name, text)| (provided_path(entry, name), text))
        .collect();
    let mut files = MemoryFiles::new();
    for (path, src) in &sub.files {
        if !wanted.iter().any(|(w, _)| path.eq_ignore_ascii_case(w)) {
            files.insert(path, src.text.as_bytes().to_vec());
        }
    }
    for (path, text) in wanted {
        files.insert(&path, text.as_bytes().to_vec());
    }
    files
}

/// Where a provided file sits in a submission: beside its entry file.
fn provided_path(entry: &str, name: &str) -> String {
    match entry.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{name}"),
        None => name.to_string(),
    }
}

/// Notes for provided files the submission brought in a changed copy of
/// (that copy was not used).
fn replaced_notes(sub: &Submission, entry: &str, provided: &[(String, String)]) -> Vec<String> {
    provided
        .iter()
        .filter_map(|(name, text)| {
            let wanted = provided_path(entry, name);
            let (path, src) = sub
                .files
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(&wanted))?;
            let same = |a: &str, b: &str| a.replace("\r\n", "\n").trim_end() == b.replace("\r\n", "\n").trim_end();
            (!same(&src.text, text)).then(|| {
                format!("{path} differs from the course's copy; it is provided by the course, so the course's {name} was used instead")
            })
        })
        .collect()
}

/// Refuses an assignment that names a symbol the reference solution does
/// not define (a typo would otherwise fail every student's check).
fn check_symbols(assignment: &Assignment, reference: &Program) -> Result<(), GradeError> {
    for (place, name) in assignment.symbols_named() {
        if reference.symbol(&name).is_some() {
            continue;
        }
        let known = reference.symbols.iter().map(|s| s.name.as_str());
        let hint = crate::asm::diagnostics::did_you_mean(&crate::asm::diagnostics::suggestions(
            &name, known,
        ))
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
        return Err(GradeError::Assignment {
            path: assignment.dir.join("assignment.toml"),
            message: format!("{place}: `{name}` is not a symbol of the reference solution{hint}"),
        });
    }
    Ok(())
}

/// Assembles a submission; Err carries the rendered diagnostics.
fn assemble(
    sub: &Submission,
    entry: &str,
    provided: &[(String, String)],
    limits: &super::assignment::Limits,
) -> Result<Program, String> {
    let files = source_files(sub, entry, provided);
    let opts = AsmOptions {
        max_file_size: limits.max_file_bytes,
        max_total_size: limits.max_total_bytes.saturating_mul(2),
        max_lines: limits.max_source_lines,
        time_limit: Some(std::time::Duration::from_millis(limits.max_assemble_ms)),
        ..AsmOptions::default()
    };
    let asm = assemble_with(Path::new(entry), &files, &opts);
    match asm.program {
        Some(p) if !asm.has_errors() => Ok(p),
        _ => {
            let mut text = asm.render_diagnostics();
            if text.len() > MAX_DIAGNOSTICS_CHARS {
                let cut = (0..=MAX_DIAGNOSTICS_CHARS)
                    .rev()
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(0);
                text.truncate(cut);
                text.push_str("\n... (more diagnostics cut)");
            }
            Err(text)
        }
    }
}

/// A tiny deterministic generator (SplitMix64) so the same seed makes the same games.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// The random numbers of game `game` of a check seeded with `seed`.
fn game_rng(seed: u64, game: u32) -> SplitMix {
    SplitMix::new(seed ^ (u64::from(game) + 1).wrapping_mul(0xA24B_AED4_963E_E407))
}

/// The taps that walk a wrapping cursor from column `cursor` to `target`
/// (key 3 right, key 1 left; the short way unless `long_way`) and drop
/// there (key 0).
fn drop_keys(cursor: u8, target: u8, columns: u8, long_way: bool) -> Vec<Action> {
    let n = u64::from(columns.max(1));
    let right = (u64::from(target) + n - u64::from(cursor)) % n;
    let left = (n - right) % n;
    let go_right = (right <= left) != long_way;
    let (key, count) = if go_right { (3u8, right) } else { (1u8, left) };
    let mut actions: Vec<Action> = (0..count).map(|_| Action::Tap(key)).collect();
    actions.push(Action::Tap(0));
    actions
}

/// Makes the moves of one game while it is played on the reference.
struct MoveMaker {
    rng: SplitMix,
    heights: Vec<u8>,
    cursor: u8,
}

impl MoveMaker {
    fn new(gen: &Generator, seed: u64, game: u32) -> MoveMaker {
        let (columns, start) = match gen {
            Generator::Connect4 {
                columns,
                start_column,
                ..
            } => (*columns, *start_column),
            Generator::Keys { .. } => (0, 0),
        };
        MoveMaker {
            rng: game_rng(seed, game),
            heights: vec![0; usize::from(columns)],
            cursor: start,
        }
    }

    /// The next move's actions and a short description; None if no move is possible.
    fn next(&mut self, gen: &Generator) -> Option<(Vec<Action>, String)> {
        match gen {
            Generator::Keys { alphabet } => {
                let pick = alphabet.get(self.rng.below(alphabet.len() as u64) as usize)?;
                let script = Script::parse_keys(pick).ok()?;
                Some((script.actions, pick.clone()))
            }
            Generator::Connect4 { columns, rows, .. } => {
                let open: Vec<u8> = (0..*columns)
                    .filter(|c| self.heights.get(usize::from(*c)).is_some_and(|h| h < rows))
                    .collect();
                let target = *open.get(self.rng.below(open.len() as u64) as usize)?;
                // Mostly the short way round, sometimes the long way (tests the wrap-around).
                let long_way = self.rng.below(4) == 0;
                let actions = drop_keys(self.cursor, target, *columns, long_way);
                self.cursor = target;
                if let Some(h) = self.heights.get_mut(usize::from(target)) {
                    *h += 1;
                }
                Some((actions, format!("drop in column {}", target + 1)))
            }
        }
    }
}

/// The outcome of one check on one submission before it becomes a [`CheckResult`].
struct Outcome {
    fraction: f64,
    text: String,
    lcd: Option<LcdEvidence>,
    /// False when the check did not run: its advice would not help.
    advice: bool,
}

impl Outcome {
    fn pass(text: impl Into<String>) -> Outcome {
        Outcome {
            fraction: 1.0,
            text: text.into(),
            lcd: None,
            advice: true,
        }
    }

    fn fail(text: impl Into<String>) -> Outcome {
        Outcome {
            fraction: 0.0,
            text: text.into(),
            lcd: None,
            advice: true,
        }
    }

    fn not_run(why: impl std::fmt::Display) -> Outcome {
        Outcome {
            advice: false,
            ..Outcome::fail(format!("not run: {why}"))
        }
    }
}

/// Every check not run: the first says why in full, the rest refer to it.
fn all_not_run(checks: &[Check], why: &str, short: &str) -> Vec<CheckResult> {
    checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let text = if i == 0 { why } else { short };
            to_result(c, Outcome::not_run(text))
        })
        .collect()
}

fn to_result(check: &Check, o: Outcome) -> CheckResult {
    let passed = o.fraction >= 1.0;
    let mut output = o.text;
    if !passed && o.advice && !check.feedback.is_empty() {
        if !output.is_empty() {
            output.push('\n');
        }
        output.push_str(&check.feedback);
    }
    CheckResult {
        name: check.name.clone(),
        score: round2(check.points * o.fraction.clamp(0.0, 1.0)),
        max_score: check.points,
        passed,
        visibility: check.visibility,
        output,
        lcd: o.lcd,
    }
}

/// Evaluates assertions on a finished run; returns the failures and LCD evidence.
fn evaluate(
    expect: &[Assertion],
    got: &Observation,
    reference: Option<&Observation>,
) -> (Vec<String>, Option<LcdEvidence>) {
    let mut failures = Vec::new();
    let mut lcd = None;
    for a in expect {
        match a {
            Assertion::Memory { spec, expected } => {
                let (addr, bytes) = match got.read(spec) {
                    Ok(x) => x,
                    Err(e) => {
                        failures.push(e);
                        continue;
                    }
                };
                let want = match expected {
                    Expected::Value(v) => value_bytes(*v, bytes.len()),
                    Expected::Bytes(b) => b.clone(),
                    Expected::Reference => match reference.map(|r| r.read(spec)) {
                        Some(Ok((_, b))) => b,
                        Some(Err(e)) => {
                            failures.push(format!("reference solution: {e}"));
                            continue;
                        }
                        None => continue,
                    },
                };
                if bytes != want {
                    let whose = if *expected == Expected::Reference {
                        "the reference has"
                    } else {
                        "expected"
                    };
                    failures.push(describe_bytes(spec, addr, &bytes, &want, whose));
                }
            }
            Assertion::Register { reg, expected } => {
                let v = got.register(*reg);
                let want = match expected {
                    Expected::Value(v) => *v as u16,
                    Expected::Bytes(_) => continue,
                    Expected::Reference => match reference {
                        Some(r) => r.register(*reg),
                        None => continue,
                    },
                };
                if v != want {
                    failures.push(format!(
                        "register {} is ${v:04X}, expected ${want:04X}",
                        reg.name()
                    ));
                }
            }
            Assertion::Lcd { expected, region } => {
                let want = match expected {
                    LcdExpected::Frame(f) => **f,
                    LcdExpected::Reference => match reference {
                        Some(r) => r.frame,
                        None => continue,
                    },
                };
                if let Some(d) = got.frame.diff(&want, *region) {
                    let whose = if *expected == LcdExpected::Reference {
                        "from the reference solution's"
                    } else {
                        "from the expected picture"
                    };
                    failures.push(format!(
                        "the LCD differs {whose} in {} pixel(s) of {region}, first at x={}, y={}",
                        d.pixels, d.first.0, d.first.1
                    ));
                    lcd.get_or_insert(LcdEvidence {
                        actual: got.frame,
                        expected: want,
                        region: *region,
                    });
                }
            }
            Assertion::Serial(s) => {
                let text = &got.serial;
                let ok = match s {
                    SerialExpected::Equals(t) => text == t,
                    SerialExpected::Contains(t) => text.contains(t.as_str()),
                    SerialExpected::Regex(r) => r.is_match(text),
                    SerialExpected::Reference => reference.is_none_or(|r| &r.serial == text),
                };
                if !ok {
                    let want = match s {
                        SerialExpected::Equals(t) => format!("exactly {t:?}"),
                        SerialExpected::Contains(t) => format!("something containing {t:?}"),
                        SerialExpected::Regex(r) => format!("text matching /{}/", r.as_str()),
                        SerialExpected::Reference => format!(
                            "what the reference sent, {:?}",
                            reference.map(|r| r.serial.as_str()).unwrap_or_default()
                        ),
                    };
                    let shown: String = text.chars().take(200).collect();
                    failures.push(format!("the serial output was {shown:?}, expected {want}"));
                }
            }
            Assertion::Flag { flag, set } => {
                let is_set = got.regs.ccr & stops::flag_mask(*flag) != 0;
                if is_set != *set {
                    failures.push(format!(
                        "flag {flag} is {}, expected {} (CCR ${:02X})",
                        u8::from(is_set),
                        u8::from(*set),
                        got.regs.ccr
                    ));
                }
            }
            Assertion::Connect4 { board, equal } => match got.read(board) {
                Ok((_, bytes)) => failures.extend(stops::connect4_problem(&bytes, *equal)),
                Err(e) => failures.push(e),
            },
            Assertion::CyclesAtMost(max) => {
                if got.cycles > *max {
                    failures.push(format!(
                        "took {} E-cycles, more than the {max} allowed",
                        got.cycles
                    ));
                }
            }
        }
    }
    (failures, lcd)
}

/// A note when the program sits in a branch to itself (`bra *`).
fn stuck_note(m: &Machine) -> Option<String> {
    let pc = m.registers().pc;
    let ins = Instruction::decode(pc, |a| m.peek(a)).ok()?;
    let target = ins.branch_target().or_else(|| {
        ins.absolute_address()
            .filter(|_| ins.info.op == crate::cpu::Op::Jmp)
    })?;
    (target == pc).then(|| {
        format!(
            "the program is stuck in a loop on itself at {} (`{ins}`)",
            locate(m.program(), pc)
        )
    })
}

impl Grader {
    /// Prepares an assignment: reads, assembles and boots the reference and
    /// runs it through every scenario and game. Fails if the reference does
    /// not assemble or does not pass its own checks.
    pub fn new(assignment: Assignment) -> Result<Grader, GradeError> {
        let limits = &assignment.limits;
        let timings = Timings {
            scenario: Timing {
                hold: limits.hold_cycles,
                quiet: limits.quiet_cycles,
                settle_cap: limits.settle_cap_cycles,
            },
            game: Timing {
                hold: limits.hold_cycles,
                quiet: limits.game_quiet_cycles,
                settle_cap: limits.settle_cap_cycles.min(GAME_SETTLE_CAP),
            },
        };
        // Key scripts are validated now, so a typo fails the assignment, not every student.
        for c in &assignment.checks {
            match &c.kind {
                CheckKind::Scenario(s) => {
                    Script::parse_keys(&s.keys).map_err(|e| GradeError::Assignment {
                        path: assignment.dir.join("assignment.toml"),
                        message: format!("check `{}`: keys: {e}", c.name),
                    })?;
                }
                CheckKind::Differential(Differential {
                    generator: Generator::Keys { alphabet },
                    ..
                }) => {
                    for k in alphabet {
                        Script::parse_keys(k).map_err(|e| GradeError::Assignment {
                            path: assignment.dir.join("assignment.toml"),
                            message: format!("check `{}`: alphabet: {e}", c.name),
                        })?;
                    }
                }
                _ => {}
            }
        }
        let reference_sub = read_reference(&assignment)?;
        let reference_files: Vec<(String, String)> = reference_sub
            .as_ref()
            .map(|s| {
                s.files
                    .iter()
                    .map(|(p, t)| (p.clone(), t.text.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let mut grader = Grader {
            reference: None,
            reference_files,
            timings,
            assignment,
            cache: Some(ResultCache::default()),
        };
        if let Some(sub) = reference_sub {
            let entry = sub
                .find_entry(&grader.assignment.entry)
                .map_err(|e| GradeError::Reference(e.to_string()))?;
            let program = assemble(&sub, &entry, &[], &grader.assignment.limits)
                .map_err(|d| GradeError::Reference(format!("does not assemble:\n{d}")))?;
            check_symbols(&grader.assignment, &program)?;
            let booted = boot(program, &grader.assignment.limits, &grader.timings)
                .map_err(GradeError::Reference)?;
            let mut reference = Reference {
                booted,
                scenarios: HashMap::new(),
                games: HashMap::new(),
                breaks: HashMap::new(),
            };
            for (i, c) in grader.assignment.checks.iter().enumerate() {
                match &c.kind {
                    CheckKind::Scenario(s) => {
                        if !reference.scenarios.contains_key(&s.keys) {
                            let obs = grader
                                .run_scenario(&reference.booted, s)
                                .map(|(o, _)| o)
                                .map_err(|e| {
                                    GradeError::Reference(format!(
                                        "check `{}`: keys `{}`: {e}",
                                        c.name, s.keys
                                    ))
                                })?;
                            reference.scenarios.insert(s.keys.clone(), obs);
                        }
                    }
                    CheckKind::Differential(d) => {
                        let games = grader.reference_games(&reference.booted, d).map_err(|e| {
                            GradeError::Reference(format!("check `{}`: {e}", c.name))
                        })?;
                        reference.games.insert(i, games);
                    }
                    CheckKind::Breakpoint(b) => {
                        let run = grader.run_break(&reference.booted, b).map_err(|e| {
                            GradeError::Reference(format!("check `{}`: {e}", c.name))
                        })?;
                        reference.breaks.insert(i, run.into_observation());
                    }
                    CheckKind::Assembles | CheckKind::Games(_) => {}
                }
            }
            grader.reference = Some(reference);
        }
        Ok(grader)
    }

    /// The assignment being graded.
    pub fn assignment(&self) -> &Assignment {
        &self.assignment
    }

    /// The reference solution's source files (path, text): the starter code
    /// the similarity report leaves out.
    pub fn reference_files(&self) -> &[(String, String)] {
        &self.reference_files
    }

    /// The provided files (name, text) a submission may omit.
    fn provided(&self) -> Vec<(String, String)> {
        self.assignment
            .provided
            .iter()
            .filter_map(|name| {
                self.reference_files
                    .iter()
                    .find(|(p, _)| {
                        p.rsplit('/')
                            .next()
                            .is_some_and(|f| f.eq_ignore_ascii_case(name))
                    })
                    .map(|(_, t)| (name.clone(), t.clone()))
            })
            .collect()
    }

    fn run_scenario(
        &self,
        booted: &Booted,
        s: &Scenario,
    ) -> Result<(Observation, Machine), String> {
        let mut m = booted.machine.clone();
        let mut guard = booted.guard.clone();
        let script = Script::parse_keys(&s.keys).map_err(|e| e.to_string())?;
        let budget = s.max_cycles.unwrap_or(self.assignment.limits.max_cycles);
        let start = m.cycles();
        let settled = run_script(&mut m, &script, self.timings.scenario, budget, &mut guard)
            .map_err(|e| e.to_string())?;
        if self.assignment.limits.require_idle && !settled {
            return Err(format!(
                "the program never became idle (it kept writing to the LCD or the ports for {} E-cycles after a key); is there an endless loop, e.g. a branch back to the start instead of the main loop?",
                self.timings.scenario.settle_cap
            ));
        }
        let obs = Observation::take(&m, booted.boot_cycles + (m.cycles() - start));
        Ok((obs, m))
    }

    fn reference_games(
        &self,
        booted: &Booted,
        d: &Differential,
    ) -> Result<Vec<Vec<RefMove>>, String> {
        let mut games = Vec::new();
        for g in 0..d.games {
            let mut maker = MoveMaker::new(&d.generator, d.seed, g);
            let mut m = booted.machine.clone();
            let mut guard = booted.guard.clone();
            let mut moves = Vec::new();
            let mut ended_at: Option<u32> = None;
            let budget = self.assignment.limits.max_cycles;
            for n in 0..d.max_moves {
                if ended_at.is_some_and(|e| n >= e + d.after_end) {
                    break;
                }
                let Some((actions, label)) = maker.next(&d.generator) else {
                    break;
                };
                let script = Script { actions };
                run_script(&mut m, &script, self.timings.game, budget, &mut guard)
                    .map_err(|e| format!("game {}, move {}: {e}", g + 1, n + 1))?;
                let program = m.program().clone();
                let read = |spec: &MemSpec| read_spec(&program, |a| m.peek(a), spec);
                let compared = d
                    .compare
                    .iter()
                    .map(|spec| read(spec).map(|(_, b)| b))
                    .collect::<Result<Vec<_>, _>>()?;
                if ended_at.is_none() {
                    if let Some(until) = &d.until {
                        let (_, b) = read(until)?;
                        if b.iter().any(|&x| x != 0) {
                            ended_at = Some(n + 1);
                        }
                    }
                }
                moves.push(RefMove {
                    script,
                    label,
                    frame: frame_of(&m),
                    compared,
                });
            }
            games.push(moves);
        }
        Ok(games)
    }

    fn check_differential(
        &self,
        booted: &Booted,
        d: &Differential,
        games: &[Vec<RefMove>],
    ) -> Outcome {
        let mut passed = 0u32;
        let mut out_of_cycles = 0u32;
        let mut skipped = 0usize;
        let mut first_failure: Option<(String, Option<LcdEvidence>)> = None;
        let budget = self.assignment.limits.max_cycles;
        for (g, moves) in games.iter().enumerate() {
            if out_of_cycles >= GAME_BUDGET_FAILURES {
                skipped = games.len() - g;
                break;
            }
            let mut m = booted.machine.clone();
            let mut guard = booted.guard.clone();
            let mut keys_so_far: Vec<String> = Vec::new();
            let mut failure: Option<(String, Option<LcdEvidence>)> = None;
            for (n, mv) in moves.iter().enumerate() {
                keys_so_far.push(mv.script.to_string());
                let what = format!("move {} ({})", n + 1, mv.label);
                if let Err(e) =
                    run_script(&mut m, &mv.script, self.timings.game, budget, &mut guard)
                {
                    if matches!(e, RunFailure::Budget { .. }) {
                        out_of_cycles += 1;
                    }
                    failure = Some((format!("in {what}: {e}"), None));
                    break;
                }
                let mut diffs = Vec::new();
                let mut evidence = None;
                if d.compare_lcd {
                    let frame = frame_of(&m);
                    if let Some(df) = frame.diff(&mv.frame, super::frame::Rect::FULL) {
                        diffs.push(format!(
                            "the LCD differs in {} pixel(s), first at x={}, y={}",
                            df.pixels, df.first.0, df.first.1
                        ));
                        evidence = Some(LcdEvidence {
                            actual: frame,
                            expected: mv.frame,
                            region: super::frame::Rect::FULL,
                        });
                    }
                }
                for (spec, want) in d.compare.iter().zip(&mv.compared) {
                    match read_spec(m.program(), |a| m.peek(a), spec) {
                        Ok((_, b)) if &b == want => {}
                        Ok((addr, b)) => {
                            diffs.push(describe_bytes(spec, addr, &b, want, "the reference has"))
                        }
                        Err(e) => diffs.push(e),
                    }
                }
                if !diffs.is_empty() {
                    failure = Some((format!("after {what}: {}", diffs.join("; ")), evidence));
                    break;
                }
            }
            match failure {
                None => passed += 1,
                Some((text, ev)) => {
                    if first_failure.is_none() {
                        let keys = keys_so_far.join(",");
                        first_failure = Some((
                            format!(
                                "game {} differs {text}\n  keys from the start: {keys}",
                                g + 1
                            ),
                            ev,
                        ));
                    }
                }
            }
        }
        let total = games.len().max(1) as u32;
        let mut text =
            format!("{passed} of {total} random games played exactly like the reference solution");
        let mut lcd = None;
        if let Some((t, ev)) = first_failure {
            let _ = write!(text, "\nfirst difference: {t}");
            lcd = ev;
        }
        if skipped > 0 {
            let _ = write!(
                text,
                "\nthe last {skipped} game(s) were not played: {GAME_BUDGET_FAILURES} games already ran out of cycles"
            );
        }
        Outcome {
            fraction: f64::from(passed) / f64::from(total),
            lcd,
            ..Outcome::fail(text)
        }
    }

    /// Grades one submission; never panics on bad input and always returns a
    /// result with one entry per check.
    pub fn grade(&self, sub: &Submission) -> SubmissionResult {
        let checks = &self.assignment.checks;
        let mut notes = sub.notes.clone();
        let not_run = |why: &str| all_not_run(checks, why, "the submission could not be read");
        let entry = match sub.find_entry(&self.assignment.entry) {
            Ok(e) => e,
            Err(e) => {
                let msg = e.to_string();
                return self.finish(
                    sub,
                    SubmissionStatus::Rejected(msg.clone()),
                    notes,
                    not_run(&msg),
                );
            }
        };
        let provided = self.provided();
        let dir = entry
            .rsplit_once('/')
            .map_or(String::new(), |(d, _)| format!("{d}/"));
        let missing: Vec<&String> = provided
            .iter()
            .map(|(name, _)| name)
            .filter(|name| {
                !sub.files
                    .keys()
                    .any(|k| k.eq_ignore_ascii_case(&format!("{dir}{name}")))
            })
            .collect();
        notes.extend(replaced_notes(sub, &entry, &provided));
        let results = match assemble(sub, &entry, &provided, &self.assignment.limits) {
            Err(d) => checks
                .iter()
                .map(|c| {
                    let o = match c.kind {
                        CheckKind::Assembles => Outcome::fail(format!("does not assemble:\n{d}")),
                        _ => Outcome::not_run("the program does not assemble"),
                    };
                    to_result(c, o)
                })
                .collect(),
            Ok(program) => {
                for name in missing {
                    let used = program.files.iter().any(|f| {
                        f.path
                            .file_name()
                            .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(name))
                    });
                    if used {
                        notes.push(format!(
                            "{name} is not in the submission; the course's copy was used"
                        ));
                    }
                }
                for name in &self.assignment.required_symbols {
                    if program.symbol(name).is_none() {
                        notes.push(format!(
                            "the program defines no `{name}`; the checks read it, so keep that name from the starter code"
                        ));
                    }
                }
                self.cached(&program, || self.run_checks(program.clone()))
            }
        };
        self.finish(sub, SubmissionStatus::Graded, notes, results)
    }

    /// Runs every check on an assembled program.
    fn run_checks(&self, program: Program) -> Vec<CheckResult> {
        let booted = boot(program, &self.assignment.limits, &self.timings);
        let mut results = Vec::new();
        let mut first_not_run: Option<&str> = None;
        for (i, c) in self.assignment.checks.iter().enumerate() {
            let outcome = match (&c.kind, &booted) {
                (CheckKind::Assembles, _) => Outcome::pass("assembles without errors"),
                (_, Err(e)) => match first_not_run {
                    None => {
                        first_not_run = Some(&c.name);
                        Outcome::not_run(e)
                    }
                    Some(first) => {
                        Outcome::not_run(format!("the program did not start (see `{first}`)"))
                    }
                },
                (CheckKind::Scenario(s), Ok(b)) => {
                    let reference = self
                        .reference
                        .as_ref()
                        .and_then(|r| r.scenarios.get(&s.keys));
                    match self.run_scenario(b, s) {
                        // The program failed to run: the check's advice is about something else.
                        Err(e) => Outcome {
                            advice: false,
                            ..Outcome::fail(format!("after keys `{}`: {e}", s.keys))
                        },
                        Ok((obs, m)) => {
                            let (failures, lcd) = evaluate(&s.expect, &obs, reference);
                            if failures.is_empty() {
                                Outcome::pass("passed")
                            } else {
                                let mut text = format!(
                                    "after keys `{}`:\n  - {}",
                                    s.keys,
                                    failures.join("\n  - ")
                                );
                                if let Some(n) = stuck_note(&m) {
                                    let _ = write!(text, "\n  ({n})");
                                }
                                Outcome {
                                    lcd,
                                    ..Outcome::fail(text)
                                }
                            }
                        }
                    }
                }
                (CheckKind::Breakpoint(bc), Ok(b)) => self.check_break(i, b, bc),
                (CheckKind::Games(g), Ok(b)) => self.check_games(b, g),
                (CheckKind::Differential(d), Ok(b)) => {
                    match self.reference.as_ref().and_then(|r| r.games.get(&i)) {
                        Some(games) => self.check_differential(b, d, games),
                        None => Outcome::not_run("no reference games"),
                    }
                }
            };
            results.push(to_result(c, outcome));
        }
        results
    }

    /// The check results of a program, from the cache when an identical
    /// program (same bytes, same symbols) was graded before: runs are
    /// deterministic, so it would get the same results again.
    fn cached(
        &self,
        program: &Program,
        run: impl FnOnce() -> Vec<CheckResult>,
    ) -> Vec<CheckResult> {
        let Some(cache) = &self.cache else {
            return run();
        };
        let key = program_key(program);
        let cell = match cache.lock() {
            Ok(mut map) => map.entry(key).or_default().clone(),
            Err(_) => return run(),
        };
        cell.get_or_init(run).clone()
    }

    /// Turns the cache of identical programs on or off (on by default).
    pub fn set_cache(&mut self, on: bool) {
        self.cache = on.then(Default::default);
    }

    fn finish(
        &self,
        sub: &Submission,
        status: SubmissionStatus,
        notes: Vec<String>,
        checks: Vec<CheckResult>,
    ) -> SubmissionResult {
        SubmissionResult {
            submission: sub.name.clone(),
            folder: String::new(),
            score: SubmissionResult::total(&checks),
            max_score: round2(self.assignment.max_score()),
            status,
            notes,
            checks,
        }
    }

    /// A result for a submission that could not be read at all.
    pub fn rejected(&self, name: &str, why: &str) -> SubmissionResult {
        let checks = all_not_run(
            &self.assignment.checks,
            why,
            "the submission could not be read",
        );
        SubmissionResult {
            submission: name.to_string(),
            folder: String::new(),
            score: 0.0,
            max_score: round2(self.assignment.max_score()),
            status: SubmissionStatus::Rejected(why.to_string()),
            notes: Vec::new(),
            checks,
        }
    }

    /// A result for a submission when the assignment could not even be
    /// prepared (its reference failed): every check not run, status internal error.
    pub fn unprepared_result(assignment: &Assignment, name: &str, why: &str) -> SubmissionResult {
        let checks = all_not_run(&assignment.checks, why, "the grader could not start");
        SubmissionResult {
            submission: name.to_string(),
            folder: String::new(),
            score: 0.0,
            max_score: round2(assignment.max_score()),
            status: SubmissionStatus::InternalError(why.to_string()),
            notes: Vec::new(),
            checks,
        }
    }

    /// A result for a submission on which the grader itself failed.
    pub fn internal_error(&self, name: &str, why: &str) -> SubmissionResult {
        let mut r = self.rejected(name, &format!("internal grader error: {why}"));
        r.status = SubmissionStatus::InternalError(why.to_string());
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_is_deterministic_and_spread() {
        let mut a = SplitMix::new(7);
        let mut b = SplitMix::new(7);
        let xs: Vec<u64> = (0..5).map(|_| a.below(7)).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.below(7)).collect();
        assert_eq!(xs, ys);
        let mut c = SplitMix::new(1);
        let mut seen = [false; 7];
        for _ in 0..200 {
            seen[c.below(7) as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn connect4_moves_walk_the_cursor_and_fill_columns() {
        let gen = Generator::Connect4 {
            columns: 7,
            rows: 6,
            start_column: 3,
        };
        let mut mk = MoveMaker::new(&gen, 42, 0);
        let mut drops = 0;
        let mut col: i32 = 3;
        while let Some((actions, label)) = mk.next(&gen) {
            for a in &actions {
                match a {
                    Action::Tap(1) => col = (col + 6) % 7,
                    Action::Tap(3) => col = (col + 1) % 7,
                    Action::Tap(0) => drops += 1,
                    other => panic!("unexpected {other:?}"),
                }
            }
            assert_eq!(label, format!("drop in column {}", col + 1));
        }
        // Every column filled to the top, then no move is left.
        assert_eq!(drops, 42);
        assert!(mk.heights.iter().all(|h| *h == 6));
    }

    #[test]
    fn value_bytes_are_big_endian() {
        assert_eq!(value_bytes(0x1234, 2), [0x12, 0x34]);
        assert_eq!(value_bytes(1, 1), [1]);
        assert_eq!(value_bytes(1, 3), [0, 0, 1]);
    }
}

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
use super::frame::{Frame, HEIGHT};
use super::result::{round2, CheckResult, LcdEvidence, SubmissionResult, SubmissionStatus};
use super::submission::Submission;
use crate::asm::{assemble_with, AsmOptions, MemoryFiles};
use crate::cpu::{Instruction, Registers};
use crate::image::{Program, SymbolKind};
use crate::machine::{Halt, Machine, StopConditions, StopReason};
use crate::script::{Action, Script, Timing};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

mod games;
mod observe;
mod prepare;
mod record;
mod run;
mod stops;

pub use games::SplitMix;
use games::*;
use observe::*;
use prepare::*;
pub use record::PREPARED_FILE;
use run::*;
pub use run::{frame_of, frame_of_lcd, RunFailure};

/// The reference solution, booted, with its cached runs.
#[derive(Debug)]
struct Reference {
    /// The reference program itself, to run it through its own checks.
    program: Program,
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
    /// Games that begin with the same moves share them ([`Grader::set_shared_moves`]).
    shared_moves: bool,
    /// Whether the reference's runs came from the prepared record.
    prepared: Prepared,
}

/// Where the reference's runs came from (see [`record`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prepared {
    /// No reference, or no record beside the assignment: the reference was run.
    NotThere,
    /// Read from the assignment's [`PREPARED_FILE`].
    Used,
    /// A record was there but not used (the reason); the reference was run.
    Ignored(String),
}

/// Results by program: one slot per distinct program, filled once.
type ResultCache = Mutex<HashMap<Vec<u8>, Arc<OnceLock<Vec<CheckResult>>>>>;

impl Grader {
    /// Prepares an assignment: reads, assembles and boots the reference and
    /// runs it through every scenario and game. Fails if the reference does
    /// not assemble, cannot run its scenarios, or lacks a provided file;
    /// [`Grader::check_reference`] judges its fixed assertions.
    pub fn new(assignment: Assignment) -> Result<Grader, GradeError> {
        let limits = &assignment.limits;
        let timings = Timings {
            scenario: Timing {
                hold: limits.hold_cycles,
                quiet: limits.quiet_cycles,
                settle_cap: limits.settle_cap_cycles,
                end_on_quiet: limits.idle_without_input,
            },
            game: Timing {
                hold: limits.hold_cycles,
                quiet: limits.game_quiet_cycles,
                settle_cap: limits.settle_cap_cycles.min(GAME_SETTLE_CAP),
                end_on_quiet: limits.idle_without_input,
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
        missing_provided(&assignment, &reference_files)?;
        let mut grader = Grader {
            reference: None,
            reference_files,
            timings,
            assignment,
            cache: Some(ResultCache::default()),
            shared_moves: true,
            prepared: Prepared::NotThere,
        };
        if let Some(sub) = reference_sub {
            let program = if let Some(ReferenceSource::Image(image)) = &grader.assignment.reference
            {
                super::reference::load(image).map_err(GradeError::Reference)?
            } else {
                let entry = sub
                    .find_entry(&grader.assignment.entry)
                    .map_err(|e| GradeError::Reference(e.to_string()))?;
                let (limits, dialect) = (&grader.assignment.limits, grader.assignment.dialect);
                assemble(&sub, &entry, &[], limits, dialect)
                    .map_err(|d| GradeError::Reference(format!("does not assemble:\n{d}")))?
            };
            check_symbols(&grader.assignment, &program)?;
            let booted = boot(
                program.clone(),
                &grader.assignment.limits,
                &grader.assignment.board_setup,
                &grader.timings,
            )
            .map_err(GradeError::Reference)?;
            let mut reference = Reference {
                program,
                booted,
                scenarios: HashMap::new(),
                games: HashMap::new(),
                breaks: HashMap::new(),
            };
            let recorded =
                match record::load(&grader.assignment, reference.booted.machine.program()) {
                    Ok(Some(runs)) => match grader.covered(&runs) {
                        Ok(()) => Some(runs),
                        Err(why) => {
                            grader.prepared = Prepared::Ignored(why);
                            None
                        }
                    },
                    Ok(None) => None,
                    Err(why) => {
                        grader.prepared = Prepared::Ignored(why);
                        None
                    }
                };
            if let Some(runs) = recorded {
                reference.scenarios = runs.scenarios;
                reference.games = runs.games;
                reference.breaks = runs.breaks;
                grader.prepared = Prepared::Used;
            }
            let checks = if grader.prepared == Prepared::Used {
                &[][..]
            } else {
                &grader.assignment.checks[..]
            };
            for (i, c) in checks.iter().enumerate() {
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

    /// The reference solution run through every check of the assignment, as
    /// if a student had handed it in; `None` without a reference. Checks
    /// that compare with the reference pass by construction, so a failure
    /// here is a fixed assertion (`playerWonFlag equals 1`, a breakpoint's
    /// register value, ...) the reference itself breaks: grading against it
    /// would take points from correct solutions.
    pub fn check_reference(&self) -> Option<Vec<CheckResult>> {
        let program = &self.reference.as_ref()?.program;
        Some(self.cached(program, || self.run_checks(program.clone())))
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
        // The screens `lcd = "unchanged"` compares with (validated: at
        // most as many last keys as the script has).
        let last_keys: Vec<u32> = s
            .expect
            .iter()
            .filter_map(Assertion::unchanged_last_keys)
            .collect();
        let before = |n: u32| script.actions.len().saturating_sub(n as usize);
        let capture: Vec<usize> = last_keys.iter().map(|&n| before(n)).collect();
        let settled = run_script_capturing(
            &mut m,
            &script,
            self.timings.scenario,
            budget,
            &mut guard,
            &capture,
        )
        .map_err(|e| {
            let run = (&script, self.timings.scenario);
            explain_exit(e, &booted.machine, run, &m).to_string()
        })?;
        let kept = m.take_lcd_captures();
        if self.assignment.limits.require_idle && !settled {
            return Err(format!(
                "the program never became idle (it kept writing to the LCD or the ports for {} E-cycles after a key); is there an endless loop, e.g. a branch back to the start instead of the main loop?",
                self.timings.scenario.settle_cap
            ));
        }
        let mut obs = Observation::take(&m, booted.boot_cycles + (m.cycles() - start));
        obs.before_last = last_keys
            .iter()
            .filter_map(|&n| {
                let lcd = kept.iter().find(|(i, _)| *i == before(n))?;
                Some((n, frame_of_lcd(&lcd.1)))
            })
            .collect();
        Ok((obs, m))
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
        let (limits, dialect) = (&self.assignment.limits, self.assignment.dialect);
        let results = match assemble(sub, &entry, &provided, limits, dialect) {
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
                let board = crate::board::Board::with_setup(&self.assignment.board_setup);
                for w in crate::machine::placement::placement_warnings(&program, &board) {
                    let at = w.at.as_ref().map_or(String::new(), |(path, line)| {
                        let name = path
                            .file_name()
                            .map_or_else(|| path.to_string_lossy(), |n| n.to_string_lossy());
                        format!(" ({name}:{line})")
                    });
                    notes.push(format!("{}{at}; {}", w.message, w.help));
                }
                self.cached(&program, || self.run_checks(program.clone()))
            }
        };
        self.finish(sub, SubmissionStatus::Graded, notes, results)
    }

    /// Runs every check on an assembled program.
    fn run_checks(&self, program: Program) -> Vec<CheckResult> {
        let booted = boot(
            program,
            &self.assignment.limits,
            &self.assignment.board_setup,
            &self.timings,
        );
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
                                // Where the reference ends in a loop too,
                                // ending so is no fault.
                                let reference_ends = reference.is_some_and(|r| r.in_endless_loop);
                                if let Some(n) = stuck_note(&m).filter(|_| !reference_ends) {
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

    /// Turns the sharing of game openings on or off (on by default):
    /// random games whose first moves are the same as an earlier game's
    /// continue from the machine that game reached after them instead of
    /// playing them again. The emulation is deterministic, so this only
    /// changes the speed (the tests compare both ways).
    pub fn set_shared_moves(&mut self, on: bool) {
        self.shared_moves = on;
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
            assert_eq!(label, format!("drop in column {col}"));
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

//! The lesson engine: a [`LessonRun`] walks through a lesson's steps and
//! evaluates each step's checks on the live machine through the [`Probe`]
//! trait (what a debugging session can tell: breakpoints, where it stopped,
//! memory, registers, LCD, terminal) plus the [`Event`]s the student caused
//! (keys, resets, explanations). Wrong tries unlock hints.

use super::catalog::Lesson;
use super::eval::{eval_address, eval_expr, parse_number, resolve_location};
use super::i18n::{ui, Lang, Ui};
use super::manifest::{Check, RegName, Step, Value};
use super::progress::LessonProgress;
use super::text::Choice;
use crate::cpu::Registers;
use crate::image::Program;
use std::sync::Arc;

/// What the engine may ask a live session. Implemented for the debugger
/// session, the GUI's session and fakes in tests; looking never changes the
/// machine.
pub trait Probe {
    /// The loaded program (symbols, lines), if any.
    fn program(&self) -> Option<&Program>;
    /// A byte of memory, without side effects.
    fn peek(&self, addr: u16) -> u8;
    /// The registers, if a machine is loaded.
    fn registers(&self) -> Option<Registers>;
    /// True while the machine is not running (paused, stopped at a breakpoint).
    fn paused(&self) -> bool;
    /// Addresses of the enabled breakpoints.
    fn breakpoints(&self) -> Vec<u16>;
    /// LCD pixel (x, y), row 0 on top; `None` without an LCD.
    fn pixel(&self, x: usize, y: usize) -> Option<bool>;
    /// Everything the program wrote to the serial terminal.
    fn serial(&self) -> String;
}

/// What an explanation was about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// An LCD pixel.
    Pixel {
        /// Column 0..127.
        x: u8,
        /// Row 0..63.
        y: u8,
    },
    /// A byte of memory.
    Address(u16),
}

/// The student asked where something came from, and got this answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// The pixel or byte.
    pub subject: Subject,
    /// Labels (without `+offset`) in the answer's chain: of the instructions
    /// (`stone1ToBuffer`) and of the data they read or wrote (`playerText`).
    pub labels: Vec<String>,
    /// True if the labels come from recorded provenance (what the program
    /// did). Without it (a view that only knows the buffer layout) a
    /// check's `via` cannot be judged and is not required.
    pub traced: bool,
}

/// Something the student did that a check may wait for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Key 0..7 was tapped.
    Key(u8),
    /// The machine was reset.
    Reset,
    /// An explanation was asked for.
    Explained(Explained),
}

/// The result of evaluating one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The check holds.
    pub ok: bool,
    /// What is (not yet) so, in the run's language.
    pub message: String,
}

impl Verdict {
    fn ok(message: impl Into<String>) -> Verdict {
        Verdict {
            ok: true,
            message: message.into(),
        }
    }
    fn no(message: impl Into<String>) -> Verdict {
        Verdict {
            ok: false,
            message: message.into(),
        }
    }
}

/// What kind of answer the current step wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// No question: the step is done in the debugger.
    None,
    /// A number (decimal, `$hex`, `%bin` or an expression like `board+136`).
    Number,
    /// One of the step's choices.
    Choice,
}

/// A step as the panel shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepView<'a> {
    /// 0-based index.
    pub index: usize,
    /// Number of steps.
    pub count: usize,
    /// The step's id.
    pub id: &'a str,
    /// Heading.
    pub heading: &'a str,
    /// Text (Markdown).
    pub body: &'a str,
    /// The hints unlocked so far.
    pub hints: &'a [String],
    /// Hints the step has in all.
    pub hints_total: usize,
    /// Answer choices (for [`Question::Choice`]).
    pub choices: &'a [Choice],
    /// The answer it wants, if any.
    pub question: Question,
    /// Completed.
    pub done: bool,
    /// Wrong tries so far.
    pub tries: u32,
}

/// The result of an answer or of pressing Check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The step's checks all hold (or the answer was right).
    pub passed: bool,
    /// The run moved on to the next step (or finished).
    pub advanced: bool,
    /// A hint became visible because of this wrong try.
    pub hint_unlocked: bool,
    /// What to tell the student, in the run's language.
    pub message: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct StepState {
    done: bool,
    tries: u32,
    /// Per check: an event check that already happened during the step.
    latched: Vec<bool>,
    keys: [u32; 8],
}

/// One student's way through one lesson.
#[derive(Clone, Debug)]
pub struct LessonRun {
    lesson: Arc<Lesson>,
    lang: Lang,
    current: usize,
    states: Vec<StepState>,
    feedback: Option<Verdict>,
}

impl LessonRun {
    /// Starts `lesson` at its first step.
    pub fn new(lesson: Arc<Lesson>, lang: Lang) -> LessonRun {
        let states = lesson
            .manifest
            .step
            .iter()
            .map(|s| StepState {
                latched: vec![false; s.check.len()],
                ..StepState::default()
            })
            .collect();
        LessonRun {
            lesson,
            lang,
            current: 0,
            states,
            feedback: None,
        }
    }

    /// Continues from saved progress: done steps stay done, the run starts
    /// at the first step not done; ids no longer in the lesson are ignored.
    pub fn resume(lesson: Arc<Lesson>, lang: Lang, progress: &LessonProgress) -> LessonRun {
        let mut run = LessonRun::new(lesson, lang);
        for (i, s) in run.lesson.manifest.step.iter().enumerate() {
            if let Some(st) = run.states.get_mut(i) {
                st.done = progress.done.iter().any(|d| d == &s.id);
                st.tries = progress.tries.get(&s.id).copied().unwrap_or(0);
            }
        }
        run.current = run
            .states
            .iter()
            .position(|s| !s.done)
            .unwrap_or(run.states.len());
        run
    }

    /// The saved form of this run.
    pub fn progress(&self) -> LessonProgress {
        let steps = &self.lesson.manifest.step;
        LessonProgress {
            done: steps
                .iter()
                .zip(&self.states)
                .filter(|(_, st)| st.done)
                .map(|(s, _)| s.id.clone())
                .collect(),
            tries: steps
                .iter()
                .zip(&self.states)
                .filter(|(_, st)| st.tries > 0)
                .map(|(s, st)| (s.id.clone(), st.tries))
                .collect(),
            completed: self.finished(),
        }
    }

    /// The lesson.
    pub fn lesson(&self) -> &Arc<Lesson> {
        &self.lesson
    }

    /// The language texts and messages are shown in.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Switches the language (progress and checks are unaffected).
    pub fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
    }

    /// Index of the step being worked on (`step_count()` when finished).
    pub fn current(&self) -> usize {
        self.current
    }

    /// Number of steps.
    pub fn step_count(&self) -> usize {
        self.states.len()
    }

    /// All steps done.
    pub fn finished(&self) -> bool {
        self.current >= self.states.len()
    }

    /// The last feedback (from Check, an answer or an explanation).
    pub fn feedback(&self) -> Option<&Verdict> {
        self.feedback.as_ref()
    }

    /// Wrong tries on step `index`.
    pub fn tries(&self, index: usize) -> u32 {
        self.states.get(index).map_or(0, |s| s.tries)
    }

    /// Starts the lesson over (all steps open again, tries kept at zero).
    pub fn restart(&mut self) {
        *self = LessonRun::new(self.lesson.clone(), self.lang);
    }

    /// Step `index` as the panel shows it, in the run's language.
    pub fn view(&self, index: usize) -> Option<StepView<'_>> {
        let step = self.lesson.manifest.step.get(index)?;
        let st = self.states.get(index)?;
        let text = self.lesson.step_text(self.lang, &step.id)?;
        let unlocked = (st.tries as usize).min(text.hints.len());
        Some(StepView {
            index,
            count: self.states.len(),
            id: &step.id,
            heading: &text.heading,
            body: &text.body,
            hints: text.hints.get(..unlocked).unwrap_or(&[]),
            hints_total: text.hints.len(),
            choices: &text.choices,
            question: question_of(step),
            done: st.done,
            tries: st.tries,
        })
    }

    /// The current step's view (`None` when finished).
    pub fn current_view(&self) -> Option<StepView<'_>> {
        self.view(self.current)
    }

    fn step(&self) -> Option<&Step> {
        self.lesson.manifest.step.get(self.current)
    }

    /// Records something the student did; returns true if the current step
    /// was completed by it. An explanation of something the step does not
    /// ask about counts as a wrong try.
    pub fn note(&mut self, event: &Event, probe: &dyn Probe) -> bool {
        let Some(step) = self.step().cloned() else {
            return false;
        };
        let lang = self.lang;
        let i = self.current;
        let mut wrong_explanation: Option<String> = None;
        if let Some(st) = self.states.get_mut(i) {
            if let Event::Key(k) = event {
                if let Some(c) = st.keys.get_mut(*k as usize) {
                    *c += 1;
                }
            }
            let mut asked_explanation = false;
            let mut matched = false;
            for (ci, check) in step.check.iter().enumerate() {
                let hit = match (check, event) {
                    (Check::Key(k), Event::Key(_)) => {
                        st.keys.get(k.key as usize).copied().unwrap_or(0) >= k.count
                    }
                    (Check::Reset(_), Event::Reset) => true,
                    (Check::Explained(e), Event::Explained(x)) => {
                        asked_explanation = true;
                        let v = explained_matches(e, x, probe.program(), lang);
                        if !v.ok {
                            wrong_explanation = Some(v.message);
                        }
                        matched |= v.ok;
                        v.ok
                    }
                    _ => false,
                };
                if hit {
                    if let Some(l) = st.latched.get_mut(ci) {
                        *l = true;
                    }
                }
            }
            if !asked_explanation || matched {
                wrong_explanation = None;
            }
        }
        if let Some(message) = wrong_explanation {
            let hint_unlocked = self.count_wrong_try();
            self.feedback = Some(Verdict::no(hint_message(lang, message, hint_unlocked)));
            return false;
        }
        self.update(probe)
    }

    /// Evaluates the current step on the machine now; completes it and moves
    /// on when all its checks hold. Returns true if a step was completed.
    /// Call it after every command (each frame in the GUI).
    pub fn update(&mut self, probe: &dyn Probe) -> bool {
        let verdicts = self.evaluate(probe);
        if verdicts.is_empty() || !verdicts.iter().all(|v| v.ok) {
            return false;
        }
        self.complete_current();
        true
    }

    /// Every check of the current step, evaluated now (empty when finished).
    pub fn evaluate(&self, probe: &dyn Probe) -> Vec<Verdict> {
        let Some(step) = self.step() else {
            return Vec::new();
        };
        let st = self.states.get(self.current);
        step.check
            .iter()
            .enumerate()
            .map(|(ci, c)| {
                let latched = st.and_then(|s| s.latched.get(ci)).copied().unwrap_or(false);
                if c.is_event() {
                    if latched {
                        Verdict::ok(ui(self.lang, Ui::Done))
                    } else {
                        Verdict::no(pending_event(c, self.lang))
                    }
                } else {
                    evaluate_state(c, probe, self.lang)
                }
            })
            .collect()
    }

    /// The student pressed Check: completes the step if its checks hold,
    /// else counts a wrong try (which may unlock a hint) and says what is missing.
    pub fn check_now(&mut self, probe: &dyn Probe) -> Outcome {
        if self.finished() {
            return self.finished_outcome();
        }
        let verdicts = self.evaluate(probe);
        if verdicts.iter().all(|v| v.ok) {
            self.complete_current();
            let message = ui(self.lang, Ui::Done).to_string();
            self.feedback = Some(Verdict::ok(message.clone()));
            return Outcome {
                passed: true,
                advanced: true,
                hint_unlocked: false,
                message,
            };
        }
        let missing = verdicts
            .into_iter()
            .find(|v| !v.ok)
            .map(|v| v.message)
            .unwrap_or_default();
        let hint_unlocked = self.count_wrong_try();
        let message = hint_message(
            self.lang,
            format!("{}: {missing}", ui(self.lang, Ui::NotYet)),
            hint_unlocked,
        );
        self.feedback = Some(Verdict::no(message.clone()));
        Outcome {
            passed: false,
            advanced: false,
            hint_unlocked,
            message,
        }
    }

    /// The student answered the current step's question.
    pub fn answer(&mut self, text: &str, probe: &dyn Probe) -> Outcome {
        if self.finished() {
            return self.finished_outcome();
        }
        let lang = self.lang;
        let Some(step) = self.step().cloned() else {
            return self.finished_outcome();
        };
        let Some((ci, check)) = step.check.iter().enumerate().find(|(_, c)| c.is_answer()) else {
            // Nothing to answer: treat it like pressing Check.
            return self.check_now(probe);
        };
        let verdict = match check {
            Check::Number(n) => match value_of(&n.equals, probe.program()) {
                Ok(want) => match eval_expr(text, probe.program()) {
                    Ok(got) if got.abs_diff(want) <= n.tolerance => {
                        Verdict::ok(ui(lang, Ui::RightAnswer))
                    }
                    Ok(got) => Verdict::no(format!("{}: {got}", ui(lang, Ui::WrongAnswer))),
                    Err(_) => Verdict::no(match lang {
                        Lang::De => format!(
                            "„{}“ ist keine Zahl (z. B. 200, $C8 oder %11001000).",
                            text.trim()
                        ),
                        Lang::En => format!(
                            "`{}` is not a number (e.g. 200, $C8 or %11001000).",
                            text.trim()
                        ),
                    }),
                },
                Err(e) => Verdict::no(e.to_string()),
            },
            Check::Choice(c) => {
                let t = text.trim().trim_end_matches(')').to_ascii_lowercase();
                if t == c.answer.to_ascii_lowercase() {
                    Verdict::ok(ui(lang, Ui::RightAnswer))
                } else {
                    Verdict::no(ui(lang, Ui::WrongAnswer))
                }
            }
            _ => Verdict::no(String::new()),
        };
        if verdict.ok {
            if let Some(l) = self
                .states
                .get_mut(self.current)
                .and_then(|s| s.latched.get_mut(ci))
            {
                *l = true;
            }
            let advanced = self.update(probe);
            let message = if advanced {
                verdict.message
            } else {
                // Right answer, but a state check of the step is still open.
                let rest = self
                    .evaluate(probe)
                    .into_iter()
                    .find(|v| !v.ok)
                    .map(|v| v.message)
                    .unwrap_or_default();
                format!("{}. {}: {rest}", verdict.message, ui(lang, Ui::NotYet))
            };
            self.feedback = Some(Verdict::ok(message.clone()));
            Outcome {
                passed: true,
                advanced,
                hint_unlocked: false,
                message,
            }
        } else {
            let hint_unlocked = self.count_wrong_try();
            let message = hint_message(lang, verdict.message, hint_unlocked);
            self.feedback = Some(Verdict::no(message.clone()));
            Outcome {
                passed: false,
                advanced: false,
                hint_unlocked,
                message,
            }
        }
    }

    fn finished_outcome(&self) -> Outcome {
        Outcome {
            passed: true,
            advanced: false,
            hint_unlocked: false,
            message: ui(self.lang, Ui::Finished).to_string(),
        }
    }

    /// Counts a wrong try on the current step; true if it unlocked a hint.
    fn count_wrong_try(&mut self) -> bool {
        let hints = self
            .step()
            .and_then(|s| self.lesson.step_text(self.lang, &s.id))
            .map_or(0, |t| t.hints.len());
        match self.states.get_mut(self.current) {
            Some(st) => {
                st.tries += 1;
                st.tries as usize <= hints
            }
            None => false,
        }
    }

    /// Marks the current step done without its checks and moves on, so
    /// `lesson validate` can play the steps after one whose model solution
    /// fails (students cannot skip a step).
    pub fn pass_over_current(&mut self) {
        if !self.finished() {
            self.complete_current();
        }
    }

    fn complete_current(&mut self) {
        if let Some(st) = self.states.get_mut(self.current) {
            st.done = true;
        }
        // Feedback about the finished step (an earlier "not yet") must not
        // linger under the next one.
        self.feedback = Some(Verdict::ok(ui(self.lang, Ui::Done)));
        // Move to the next step that is not done (resumed runs may have
        // later steps done already).
        let n = self.states.len();
        let mut next = self.current + 1;
        while next < n && self.states.get(next).is_some_and(|s| s.done) {
            next += 1;
        }
        self.current = next;
        if let Some(st) = self.states.get_mut(next) {
            // Events count from the moment a step begins.
            st.latched.iter_mut().for_each(|l| *l = false);
            st.keys = [0; 8];
        }
    }
}

fn question_of(step: &Step) -> Question {
    match step.question() {
        Some(Check::Number(_)) => Question::Number,
        Some(Check::Choice(_)) => Question::Choice,
        _ => Question::None,
    }
}

fn hint_message(lang: Lang, message: String, hint_unlocked: bool) -> String {
    if hint_unlocked {
        format!("{message} {}", ui(lang, Ui::HintUnlocked))
    } else {
        message
    }
}

/// The value of a manifest number.
pub fn value_of(v: &Value, program: Option<&Program>) -> Result<i64, super::eval::EvalError> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Expr(e) => eval_expr(e, program),
    }
}

fn pending_event(c: &Check, lang: Lang) -> String {
    match (c, lang) {
        (Check::Key(k), Lang::De) => format!("Taste {} noch nicht gedrückt", k.key),
        (Check::Key(k), Lang::En) => format!("key {} not pressed yet", k.key),
        (Check::Reset(_), Lang::De) => "noch kein Reset".into(),
        (Check::Reset(_), Lang::En) => "no reset yet".into(),
        (Check::Explained(_), Lang::De) => "noch nicht erklären lassen".into(),
        (Check::Explained(_), Lang::En) => "not explained yet".into(),
        (_, Lang::De) => "Frage noch nicht beantwortet".into(),
        (_, Lang::En) => "question not answered yet".into(),
    }
}

/// Describes `label+off` for an address, for messages.
fn where_is(program: Option<&Program>, addr: u16) -> String {
    match program.and_then(|p| p.label_for(addr)) {
        Some((s, 0)) => format!("{} (${addr:04X})", s.name),
        Some((s, off)) => format!("{}+{off} (${addr:04X})", s.name),
        None => format!("${addr:04X}"),
    }
}

/// Checks a value against the bounds; `Err` describes the miss.
fn compare(
    got: i64,
    bounds: [(&Option<Value>, &str); 4],
    program: Option<&Program>,
) -> Result<bool, String> {
    for (b, op) in bounds {
        let Some(v) = b else { continue };
        let want = value_of(v, program).map_err(|e| e.to_string())?;
        let ok = match op {
            "=" => got == want,
            "≠" => got != want,
            "≥" => got >= want,
            _ => got <= want,
        };
        if !ok {
            return Err(format!("{op} {want}"));
        }
    }
    Ok(true)
}

fn reg_value(r: &Registers, reg: RegName) -> i64 {
    match reg {
        RegName::A => r.a as i64,
        RegName::B => r.b as i64,
        RegName::D => r.d() as i64,
        RegName::X => r.x as i64,
        RegName::Y => r.y as i64,
        RegName::Sp => r.sp as i64,
        RegName::Pc => r.pc as i64,
        RegName::Ccr => r.ccr as i64,
    }
}

/// Byte 3 of a cell, as `getCellOccupancy` reads it: `$81` empty,
/// `$BD` player 1, `$A5` player 2 (Logic.inc:132-139).
fn occupancy(byte3: u8) -> u8 {
    match byte3 {
        0xBD => 1,
        0xA5 => 2,
        _ => 0,
    }
}

/// Evaluates a state check on the machine now.
pub fn evaluate_state(c: &Check, probe: &dyn Probe, lang: Lang) -> Verdict {
    let program = probe.program();
    let de = lang == Lang::De;
    match c {
        Check::Breakpoint(b) => match resolve_location(&b.at, program) {
            Ok(addrs) => {
                let set = probe.breakpoints();
                if addrs.iter().any(|a| set.contains(a)) {
                    Verdict::ok(format!("{} ✓", b.at))
                } else if de {
                    Verdict::no(format!(
                        "kein Haltepunkt auf {}",
                        where_is(program, addrs[0])
                    ))
                } else {
                    Verdict::no(format!("no breakpoint on {}", where_is(program, addrs[0])))
                }
            }
            Err(e) => Verdict::no(e.to_string()),
        },
        Check::Stopped(s) => match resolve_location(&s.at, program) {
            Ok(addrs) => {
                let Some(regs) = probe.registers() else {
                    return Verdict::no(if de {
                        "kein Programm geladen"
                    } else {
                        "no program loaded"
                    });
                };
                if !probe.paused() {
                    Verdict::no(if de {
                        "das Programm läuft noch"
                    } else {
                        "the program is still running"
                    })
                } else if addrs.contains(&regs.pc) {
                    Verdict::ok(where_is(program, regs.pc))
                } else if de {
                    Verdict::no(format!(
                        "das Programm steht bei {}, nicht bei {}",
                        where_is(program, regs.pc),
                        s.at
                    ))
                } else {
                    Verdict::no(format!(
                        "the program is at {}, not at {}",
                        where_is(program, regs.pc),
                        s.at
                    ))
                }
            }
            Err(e) => Verdict::no(e.to_string()),
        },
        Check::Memory(m) => match eval_address(&m.at, program) {
            Ok(addr) => {
                let got = if m.size == 2 {
                    (probe.peek(addr) as i64) << 8 | probe.peek(addr.wrapping_add(1)) as i64
                } else {
                    probe.peek(addr) as i64
                };
                let bounds = [
                    (&m.equals, "="),
                    (&m.not_equals, "≠"),
                    (&m.min, "≥"),
                    (&m.max, "≤"),
                ];
                match compare(got, bounds, program) {
                    Ok(_) => Verdict::ok(format!("{} = {got}", m.at)),
                    Err(want) => Verdict::no(if de {
                        format!("{} ist {got} (${got:X}), verlangt: {want}", m.at)
                    } else {
                        format!("{} is {got} (${got:X}), wanted: {want}", m.at)
                    }),
                }
            }
            Err(e) => Verdict::no(e.to_string()),
        },
        Check::Register(r) => {
            let Some(regs) = probe.registers() else {
                return Verdict::no(if de {
                    "kein Programm geladen"
                } else {
                    "no program loaded"
                });
            };
            let got = reg_value(&regs, r.reg);
            let name = format!("{:?}", r.reg).to_ascii_uppercase();
            let bounds = [
                (&r.equals, "="),
                (&r.not_equals, "≠"),
                (&r.min, "≥"),
                (&r.max, "≤"),
            ];
            match compare(got, bounds, program) {
                Ok(_) => Verdict::ok(format!("{name} = {got}")),
                Err(want) => Verdict::no(if de {
                    format!("{name} ist {got} (${got:X}), verlangt: {want}")
                } else {
                    format!("{name} is {got} (${got:X}), wanted: {want}")
                }),
            }
        }
        Check::Cell(cell) => {
            let Some(board) = program.and_then(|p| p.symbol("board")) else {
                return Verdict::no(if de {
                    "kein Symbol `board`"
                } else {
                    "no symbol `board`"
                });
            };
            let rows: Vec<u8> = match cell.row {
                Some(r) => vec![r],
                None => (0..6).collect(),
            };
            let found = rows.iter().any(|&row| {
                let a = board
                    .value
                    .wrapping_add(cell.column as u16 * 8 + row as u16 * 56 + 3);
                occupancy(probe.peek(a)) == cell.player
            });
            let what = match (cell.player, de) {
                (0, true) => "leer".to_string(),
                (0, false) => "empty".to_string(),
                (p, true) => format!("ein Stein von Spieler {p}"),
                (p, false) => format!("a stone of player {p}"),
            };
            let place = match (cell.row, de) {
                (Some(r), true) => format!("Spalte {}, Zeile {r}", cell.column),
                (Some(r), false) => format!("column {}, row {r}", cell.column),
                (None, true) => format!("Spalte {}", cell.column),
                (None, false) => format!("column {}", cell.column),
            };
            if found {
                Verdict::ok(format!("{place}: {what}"))
            } else if de {
                Verdict::no(format!("{place}: noch nicht {what}"))
            } else {
                Verdict::no(format!("{place}: not yet {what}"))
            }
        }
        Check::Pixel(p) => match probe.pixel(p.x as usize, p.y as usize) {
            Some(on) if on == p.on => Verdict::ok(format!("({}, {})", p.x, p.y)),
            Some(_) => Verdict::no(match (p.on, de) {
                (true, true) => format!("Pixel ({}, {}) ist noch aus", p.x, p.y),
                (true, false) => format!("pixel ({}, {}) is still off", p.x, p.y),
                (false, true) => format!("Pixel ({}, {}) ist noch an", p.x, p.y),
                (false, false) => format!("pixel ({}, {}) is still on", p.x, p.y),
            }),
            None => Verdict::no(if de { "kein LCD" } else { "no LCD" }),
        },
        Check::Serial(s) => {
            if probe.serial().contains(&s.contains) {
                Verdict::ok(format!("{:?}", s.contains))
            } else if de {
                Verdict::no(format!("das Terminal zeigt noch nicht {:?}", s.contains))
            } else {
                Verdict::no(format!("the terminal does not show {:?} yet", s.contains))
            }
        }
        // Event checks are not state: see `LessonRun::evaluate`.
        other => Verdict::no(pending_event(other, lang)),
    }
}

/// Whether an explanation is the one an `explained` check asks for.
fn explained_matches(
    e: &super::manifest::ExplainedCheck,
    x: &Explained,
    program: Option<&Program>,
    lang: Lang,
) -> Verdict {
    let de = lang == Lang::De;
    let subject_ok = match (x.subject, e.pixel, e.region, &e.address) {
        (Subject::Pixel { x, y }, Some([px, py]), _, _) => x == px && y == py,
        (Subject::Pixel { x, y }, _, Some([x0, y0, x1, y1]), _) => {
            (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
        }
        (Subject::Address(a), _, _, Some(expr)) => eval_address(expr, program) == Ok(a),
        _ => false,
    };
    if !subject_ok {
        let want = match (e.pixel, e.region, &e.address) {
            (Some([px, py]), _, _) => format!("({px}, {py})"),
            (_, Some([x0, y0, x1, y1]), _) => format!("({x0}, {y0})..({x1}, {y1})"),
            (_, _, Some(a)) => a.clone(),
            _ => String::new(),
        };
        return Verdict::no(if de {
            format!("Das war nicht das Gesuchte: gefragt ist {want}")
        } else {
            format!("That is not the one: the step asks about {want}")
        });
    }
    if let Some(via) = e.via.as_ref().filter(|_| x.traced) {
        if !x.labels.iter().any(|r| r.eq_ignore_ascii_case(via)) {
            return Verdict::no(if de {
                format!("Die Erklärung führt nicht durch `{via}` (erst dorthin laufen lassen)")
            } else {
                format!(
                    "The explanation does not lead through `{via}` (run the program there first)"
                )
            });
        }
    }
    Verdict::ok(ui(lang, Ui::Done))
}

/// Parses a student's number the way answers are read (for the panel's
/// input validation): decimal, `$hex`, `%bin`, `0x`, or an expression.
pub fn parse_answer(text: &str, program: Option<&Program>) -> Option<i64> {
    parse_number(text).or_else(|| eval_expr(text, program).ok())
}

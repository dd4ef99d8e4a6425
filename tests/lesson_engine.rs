//! The lesson engine on a fake session: steps complete when their checks
//! hold, events count only during their step, wrong tries unlock hints,
//! progress survives a save and a load, texts switch language.

use hc11lab::cpu::Registers;
use hc11lab::image::{LineEntry, Program, SourceFile, Symbol, SymbolKind};
use hc11lab::lesson::{
    Event, Explained, Lang, Lesson, LessonRun, Probe, Progress, Question, Subject,
};
use std::sync::Arc;

struct Fake {
    program: Program,
    mem: Vec<u8>,
    regs: Registers,
    paused: bool,
    bps: Vec<u16>,
    lcd: Vec<bool>,
    serial: String,
}

impl Fake {
    fn new() -> Fake {
        let sym = |name: &str, value: u16, kind| Symbol {
            name: name.into(),
            value,
            kind,
            defined_at: None,
            used_at: vec![],
            size: None,
        };
        let mut program = Program {
            symbols: vec![
                sym("board", 0x0040, SymbolKind::Label),
                sym("cellAddress", 0x0190, SymbolKind::Label),
                sym("player", 0x0197, SymbolKind::Label),
                sym("drawCell", 0xC17A, SymbolKind::Label),
                sym("readInput", 0xC2D8, SymbolKind::Label),
                sym("boardOffset", 36, SymbolKind::Constant),
            ],
            files: vec![SourceFile {
                path: "Board.inc".into(),
                text: String::new(),
            }],
            lines: vec![LineEntry {
                addr: 0xC1A3,
                len: 2,
                file: 0,
                line: 60,
            }],
            ..Program::default()
        };
        program.finish();
        Fake {
            program,
            mem: vec![0; 0x10000],
            regs: Registers {
                pc: 0xC54D,
                ..Registers::default()
            },
            paused: true,
            bps: vec![],
            lcd: vec![false; 128 * 64],
            serial: String::new(),
        }
    }
}

impl Probe for Fake {
    fn program(&self) -> Option<&Program> {
        Some(&self.program)
    }
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    fn registers(&self) -> Option<Registers> {
        Some(self.regs)
    }
    fn paused(&self) -> bool {
        self.paused
    }
    fn breakpoints(&self) -> Vec<u16> {
        self.bps.clone()
    }
    fn pixel(&self, x: usize, y: usize) -> Option<bool> {
        self.lcd.get(y * 128 + x).copied()
    }
    fn serial(&self) -> String {
        self.serial.clone()
    }
}

const MANIFEST: &str = r#"
[lesson]
order = 1
[[step]]
id = "bp"
check = [{ kind = "breakpoint", at = "drawCell" }]
[[step]]
id = "stop"
check = [
  { kind = "stopped", at = "Board.inc:60" },
  { kind = "memory", at = "cellAddress", size = 2, equals = 136 },
]
[[step]]
id = "addr"
check = [{ kind = "number", equals = "board+136" }]
[[step]]
id = "pick"
check = [{ kind = "choice", answer = "b" }]
[[step]]
id = "keys"
check = [{ kind = "key", key = 0, count = 2 }, { kind = "cell", column = 3, player = 1 }]
[[step]]
id = "explain"
check = [{ kind = "explained", region = [60, 40, 63, 43], via = "stone1ToBuffer" }, { kind = "pixel", x = 61, y = 41, on = true }]
[[step]]
id = "reset"
check = [{ kind = "reset" }, { kind = "register", reg = "a", equals = 0 }, { kind = "serial", contains = "\f" }]
"#;

fn text(lang: Lang) -> String {
    let (t, hint) = match lang {
        Lang::De => ("Test", "Hinweis"),
        Lang::En => ("Test", "Hint"),
    };
    let mut s = format!("# {t} {lang}\n\nIntro {lang}.\n");
    for id in ["bp", "stop", "addr", "pick", "keys", "explain", "reset"] {
        s.push_str(&format!("\n## Step {id} {{#{id}}}\nDo {id} ({lang}).\n"));
        s.push_str(&format!("### {hint} {{.hint}}\n{hint} 1 {id} {lang}\n"));
        s.push_str(&format!("### {hint} {{.hint}}\n{hint} 2 {id} {lang}\n"));
        if id == "pick" {
            s.push_str("### Choices {.choices}\n- a) eins\n- b) zwei\n");
        }
    }
    s
}

fn lesson() -> Arc<Lesson> {
    let de = text(Lang::De);
    let en = text(Lang::En);
    Arc::new(Lesson::from_sources("t", MANIFEST, &[(Lang::De, &de), (Lang::En, &en)]).unwrap())
}

#[test]
fn a_student_walks_through_every_check_kind() {
    let mut m = Fake::new();
    let mut run = LessonRun::new(lesson(), Lang::En);
    assert_eq!(run.step_count(), 7);

    // 1: breakpoint. Nothing holds before the student acts.
    assert!(!run.update(&m));
    m.bps.push(0xC2D8);
    assert!(!run.update(&m), "a breakpoint elsewhere does not count");
    m.bps.push(0xC17A);
    assert!(run.update(&m));
    assert_eq!(run.current(), 1);

    // 2: stopped at a source line with a memory value.
    m.regs.pc = 0xC1A3;
    m.paused = false;
    m.mem[0x0191] = 136;
    assert!(!run.update(&m), "running is not stopped");
    m.paused = true;
    m.mem[0x0191] = 8;
    assert!(!run.update(&m));
    let v = run.evaluate(&m);
    assert!(v[0].ok && !v[1].ok);
    assert!(
        v[1].message.contains("cellAddress is 8"),
        "{}",
        v[1].message
    );
    m.mem[0x0191] = 136;
    assert!(run.update(&m));

    // 3: a number; a wrong answer is a wrong try and unlocks a hint.
    assert_eq!(run.current_view().unwrap().question, Question::Number);
    assert!(run.current_view().unwrap().hints.is_empty());
    let o = run.answer("136", &m);
    assert!(!o.passed && o.hint_unlocked);
    assert_eq!(run.current_view().unwrap().hints, ["Hint 1 addr en"]);
    let o = run.answer("what", &m);
    assert!(
        !o.passed && o.message.contains("not a number"),
        "{}",
        o.message
    );
    assert_eq!(run.current_view().unwrap().hints.len(), 2);
    let o = run.answer("42", &m);
    assert!(!o.hint_unlocked, "no third hint to unlock");
    assert_eq!(run.tries(2), 3);
    let o = run.answer("$C8", &m);
    assert!(o.passed && o.advanced);

    // 4: multiple choice.
    let view = run.current_view().unwrap();
    assert_eq!(view.question, Question::Choice);
    assert_eq!(view.choices.len(), 2);
    assert!(!run.answer("a", &m).passed);
    assert!(run.answer("B)", &m).advanced);

    // 5: key taps count from the step's start; the buffer must show the stone.
    assert!(!run.note(&Event::Key(0), &m));
    assert!(!run.note(&Event::Key(1), &m));
    assert!(!run.note(&Event::Key(0), &m), "two taps but no stone yet");
    let cell = 0x40 + 3 * 8 + 5 * 56 + 3;
    m.mem[cell] = 0xA5; // player 2's ring: not player 1
    assert!(!run.update(&m));
    m.mem[cell] = 0xBD;
    assert!(run.update(&m));

    // 6: explanations: the wrong pixel is a wrong try; the right one
    // must lead through the routine.
    let far = Event::Explained(Explained {
        subject: Subject::Pixel { x: 10, y: 10 },
        labels: vec!["stone1ToBuffer".into()],
        traced: true,
    });
    assert!(!run.note(&far, &m));
    assert_eq!(run.tries(5), 1);
    assert!(run.feedback().is_some_and(|f| !f.ok));
    let shallow = Event::Explained(Explained {
        subject: Subject::Pixel { x: 61, y: 41 },
        labels: vec!["drawCell".into()],
        traced: true,
    });
    assert!(!run.note(&shallow, &m));
    assert_eq!(run.tries(5), 2);
    let good = Event::Explained(Explained {
        subject: Subject::Pixel { x: 61, y: 41 },
        labels: vec!["drawCell".into(), "STONE1TOBUFFER".into()],
        traced: true,
    });
    assert!(!run.note(&good, &m), "pixel still off");
    m.lcd[41 * 128 + 61] = true;
    assert!(run.update(&m), "the explanation stays counted");

    // 7: a reset event plus register and serial state; Check counts tries.
    m.regs.a = 5;
    let o = run.check_now(&m);
    assert!(!o.passed && o.hint_unlocked && o.message.starts_with("Not yet"));
    assert!(!run.note(&Event::Reset, &m));
    m.regs.a = 0;
    assert!(!run.update(&m));
    m.serial.push('\u{c}');
    let o = run.check_now(&m);
    assert!(o.passed && o.advanced);
    assert!(run.finished());
    assert!(run.progress().completed);
    assert!(run.answer("1", &m).passed);
}

#[test]
fn events_before_a_step_do_not_count() {
    let mut m = Fake::new();
    let lesson = lesson();
    // Skip to step 4 by resuming.
    let p = hc11lab::lesson::LessonProgress {
        done: vec!["bp".into(), "stop".into(), "addr".into()],
        ..Default::default()
    };
    let mut run = LessonRun::resume(lesson, Lang::De, &p);
    assert_eq!(run.current(), 3);
    // Keys pressed during step 4 must not count for step 5.
    run.note(&Event::Key(0), &m);
    run.note(&Event::Key(0), &m);
    assert!(run.answer("b", &m).advanced);
    m.mem[0x40 + 3 * 8 + 3] = 0xBD;
    assert!(!run.update(&m));
    run.note(&Event::Key(0), &m);
    assert!(!run.update(&m));
    assert!(run.note(&Event::Key(0), &m));
}

#[test]
fn language_switch_changes_text_not_progress() {
    let m = Fake::new();
    let mut run = LessonRun::new(lesson(), Lang::De);
    assert_eq!(run.current_view().unwrap().body, "Do bp (de).");
    let o = run.check_now(&m);
    assert!(
        o.message
            .starts_with("Noch nicht: kein Haltepunkt auf drawCell"),
        "{}",
        o.message
    );
    run.set_lang(Lang::En);
    let v = run.current_view().unwrap();
    assert_eq!(v.body, "Do bp (en).");
    assert_eq!(v.hints, ["Hint 1 bp en"]);
    assert_eq!(run.lesson().title(Lang::De), "Test de");
}

#[test]
fn progress_round_trips_through_disk() {
    let mut m = Fake::new();
    let lesson = lesson();
    let mut run = LessonRun::new(lesson.clone(), Lang::En);
    m.bps.push(0xC17A);
    assert!(run.update(&m));
    run.answer("1", &m); // wrong: step 2 has no question -> counts as Check
    let dir = std::env::temp_dir().join(format!("hc11lab-lesson-progress-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut all = Progress::load(&dir).unwrap();
    all.language = Some(Lang::En);
    all.set_lesson(&lesson.id, run.progress());
    all.save(&dir).unwrap();

    let back = Progress::load(&dir).unwrap();
    assert_eq!(back, all);
    let resumed = LessonRun::resume(lesson, Lang::En, &back.lesson("t"));
    assert_eq!(resumed.current(), 1);
    assert_eq!(resumed.tries(1), 1);
    assert_eq!(resumed.current_view().unwrap().hints.len(), 1);
    assert_eq!(resumed.progress(), run.progress());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn manifest_and_texts_must_fit() {
    let de = text(Lang::De);
    let en = text(Lang::En);
    let broken_en = en.replace("{#keys}", "{#other}");
    let e = Lesson::from_sources("t", MANIFEST, &[(Lang::De, &de), (Lang::En, &broken_en)])
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("en.md has no section for step `keys`"),
        "{e}"
    );
    let fewer_hints = en.replacen("### Hint {.hint}\nHint 2 bp en\n", "", 1);
    let e = Lesson::from_sources("t", MANIFEST, &[(Lang::De, &de), (Lang::En, &fewer_hints)])
        .unwrap_err();
    assert!(e.to_string().contains("hints"), "{e}");
    let wrong_choice = MANIFEST.replace("answer = \"b\"", "answer = \"c\"");
    let e = Lesson::from_sources("t", &wrong_choice, &[(Lang::De, &de)]).unwrap_err();
    assert!(e.to_string().contains("no choice `c`"), "{e}");
    assert!(Lesson::from_sources("t", MANIFEST, &[]).is_err());
}

#[test]
fn an_untraced_explanation_is_judged_by_its_subject_only() {
    let mut m = Fake::new();
    let p = hc11lab::lesson::LessonProgress {
        done: ["bp", "stop", "addr", "pick", "keys"]
            .map(String::from)
            .to_vec(),
        ..Default::default()
    };
    let mut run = LessonRun::resume(lesson(), Lang::En, &p);
    assert_eq!(run.current(), 5);
    m.lcd[41 * 128 + 61] = true;
    let layout_only = Event::Explained(Explained {
        subject: Subject::Pixel { x: 61, y: 41 },
        labels: vec!["board".into()],
        traced: false,
    });
    assert!(run.note(&layout_only, &m));
    assert_eq!(run.tries(5), 0);
}

#[test]
fn old_feedback_does_not_linger_after_a_step_is_done() {
    let mut m = Fake::new();
    let mut run = LessonRun::new(lesson(), Lang::En);
    assert!(!run.check_now(&m).passed);
    assert!(run.feedback().is_some_and(|f| !f.ok));
    m.bps.push(0xC17A);
    assert!(run.update(&m));
    assert!(run.feedback().is_some_and(|f| f.ok && f.message == "Done"));
}

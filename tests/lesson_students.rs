//! A scripted student completes every lesson of the course on the real
//! firmware, in German and in English: for every step it first checks that
//! the step is not already done, then performs the step's model solution
//! through the debugger session (breakpoints, run, keys, explanations,
//! answers) and checks that the engine saw the step done.

use hc11lab::lesson::live::{perform, student_session};
use hc11lab::lesson::manifest::Action;
use hc11lab::lesson::{Catalog, Lang, Lesson, LessonRun, Question};
use hc11lab::machine::Machine;
use std::path::Path;
use std::sync::Arc;

fn course() -> Catalog {
    Catalog::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons")).unwrap()
}

fn session() -> hc11lab::debug::Debugger<Machine> {
    let program = hc11lab::firmware::program().expect("bundled firmware assembles");
    student_session(Machine::new(program.clone()).expect("loads"))
}

fn walk(lesson: &Arc<Lesson>, lang: Lang) {
    let mut s = session();
    let mut run = LessonRun::new(lesson.clone(), lang);
    for (i, step) in lesson.manifest.step.iter().enumerate() {
        assert_eq!(
            run.current(),
            i,
            "{} {lang}: before step {}",
            lesson.id,
            step.id
        );
        let view = run.current_view().expect("a view");
        assert!(!view.body.is_empty() && !view.heading.is_empty());
        assert!(
            !run.update(&s),
            "{} {lang}: step `{}` is already done before the student acts",
            lesson.id,
            step.id
        );
        let mut log = Vec::new();
        for a in step.actions() {
            let done = perform(&mut s, &mut run, &a)
                .unwrap_or_else(|e| panic!("{} step `{}` action {a:?}: {e}", lesson.id, step.id));
            log.push(format!("{a:?} -> {done:?}"));
        }
        assert_eq!(
            run.current(),
            i + 1,
            "{} {lang}: step `{}` not done after its solution.\nchecks: {:?}\nactions:\n{}",
            lesson.id,
            step.id,
            run.evaluate(&s),
            log.join("\n")
        );
        assert_eq!(
            run.tries(i),
            0,
            "{} step `{}`: the model solution made a wrong try",
            lesson.id,
            step.id
        );
    }
    assert!(run.finished() && run.progress().completed, "{}", lesson.id);
}

macro_rules! lesson_test {
    ($name:ident, $id:literal) => {
        #[test]
        fn $name() {
            let cat = course();
            let lesson = cat.lesson($id).expect($id);
            walk(lesson, Lang::De);
            walk(lesson, Lang::En);
        }
    };
}

lesson_test!(tour, "01-tour");
lesson_test!(cell, "02-cell");
lesson_test!(buffer, "03-buffer");
lesson_test!(drawcell, "04-drawcell");
lesson_test!(input, "05-input");
lesson_test!(cursor, "06-cursor");
lesson_test!(setstone, "07-setstone");
lesson_test!(checkwin, "08-checkwin");
lesson_test!(linelength, "08b-linelength");
lesson_test!(stack, "09-stack");
lesson_test!(text, "10-text");
lesson_test!(serial, "11-serial");
lesson_test!(lcd_init, "12-lcd-init");
lesson_test!(profile, "13-profile");

#[test]
fn every_lesson_has_a_test_above() {
    let ids: Vec<String> = course().lessons.iter().map(|l| l.id.clone()).collect();
    let src = include_str!("lesson_students.rs");
    for id in ids {
        assert!(
            src.contains(&format!("\"{id}\")")),
            "add lesson_test!(…, \"{id}\")"
        );
    }
}

#[test]
fn a_wrong_answer_unlocks_the_hint_and_progress_survives() {
    let cat = course();
    let lesson = cat.lesson("03-buffer").unwrap().clone();
    let mut s = session();
    let mut run = LessonRun::new(lesson.clone(), Lang::De);
    assert_eq!(run.current_view().unwrap().question, Question::Number);
    assert!(run.current_view().unwrap().hints.is_empty());
    let o = perform(&mut s, &mut run, &Action::Answer("42".into())).unwrap();
    assert!(
        matches!(o, hc11lab::lesson::live::Done::Answered(ref o) if !o.passed && o.hint_unlocked)
    );
    let hints = run.current_view().unwrap().hints.to_vec();
    assert_eq!(hints.len(), 1);
    assert!(hints[0].contains("boardSize"), "{hints:?}");
    perform(&mut s, &mut run, &Action::Answer("336".into())).unwrap();
    assert_eq!(run.current(), 1);
    // 136 is the relative address; the step asks for the absolute one.
    perform(&mut s, &mut run, &Action::Answer("136".into())).unwrap();
    assert_eq!(run.tries(1), 1);

    let dir = std::env::temp_dir().join(format!("hc11lab-students-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut all = hc11lab::lesson::Progress::default();
    all.set_lesson(&lesson.id, run.progress());
    all.save(&dir).unwrap();
    let back = hc11lab::lesson::Progress::load(&dir).unwrap();
    let resumed = LessonRun::resume(lesson, Lang::En, &back.lesson("03-buffer"));
    assert_eq!(resumed.current(), 1);
    assert_eq!(resumed.tries(1), 1);
    assert_eq!(
        resumed.current_view().unwrap().hints.len(),
        1,
        "the unlocked hint stays unlocked"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn state_checks_fail_on_the_wrong_stop() {
    let cat = course();
    let lesson = cat.lesson("04-drawcell").unwrap().clone();
    let mut s = session();
    let mut run = LessonRun::new(lesson, Lang::En);
    // An unconditional breakpoint stops at the first cell, not at 136.
    for a in ["reset", "break drawCell", "run"] {
        perform(&mut s, &mut run, &Action::parse(a).unwrap()).unwrap();
    }
    assert_eq!(run.current(), 0);
    // The breakpoint is set and the machine stopped at drawCell, but at the wrong cell.
    let v = run.evaluate(&s);
    assert!(v[0].ok && v[1].ok, "{v:?}");
    assert!(
        !v[2].ok && v[2].message.contains("cellAddress is 0"),
        "{v:?}"
    );
    let o = perform(&mut s, &mut run, &Action::Check).unwrap();
    assert!(
        matches!(o, hc11lab::lesson::live::Done::Answered(ref o) if !o.passed && o.hint_unlocked)
    );
    assert_eq!(run.tries(0), 1);
}

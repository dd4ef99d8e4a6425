//! The course in the window, clicked through with egui_kittest (no window
//! opens): open an exercise (its starter copied into the data folder and
//! loaded), Check it (feedback and points from the course's grader), Hand
//! in (the zip the grader takes, graded the same); File > Save a copy of
//! the sources; the next-lesson button; the serial input line reaching the
//! program's receiver; a lesson on a program of its own loading it on its
//! board (and the next lesson going back to Viergewinnt).
#![cfg(feature = "gui")]

use std::path::PathBuf;

use egui::Vec2;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use hc11lab::lesson::{Catalog, Lang};
use hc11lab::ui::app::App;
use hc11lab::ui::course::CourseTab;
use hc11lab::ui::exercises::CheckState;
use hc11lab::ui::session::{Origin, Settings, SideTab, Speed};
use hc11lab::ui::AppInput;

#[path = "support/exercise.rs"]
mod support;
use support::copy_tree;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hc11lab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn harness(app: App) -> Harness<'static, App> {
    Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(120)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

#[test]
fn open_check_and_hand_in_an_exercise() {
    let data = scratch("course-exercise");
    let settings = Settings {
        side_tab: SideTab::Course,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Bundled, None).with_course_dir(data.clone());
    let mut h = harness(app);
    h.run();
    h.get_by_label("Exercises").click();
    h.run();
    assert_eq!(h.state().course.tab, CourseTab::Exercises);
    // E2 (stack pulls) is graded at breakpoints: quick to check.
    h.state_mut().course.exercises.select("e2-pulls");
    h.run();
    h.get_by_label("Start (copy the starter code)").click();
    h.run();
    let work = data.join("exercises").join("e2-pulls");
    let main = work.join("Viergewinnt.asm");
    assert!(main.is_file(), "starter not copied");
    assert_eq!(
        h.state().session.origin,
        Some(Origin::Path(main.clone())),
        "the copy is not what is open"
    );
    assert!(h.state().session.has_machine());

    h.get_by_label("Check").click();
    h.step();
    let start = std::time::Instant::now();
    while matches!(
        h.state().course.exercises.result("e2-pulls"),
        Some(CheckState::Running)
    ) && start.elapsed().as_secs() < 120
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    let Some(CheckState::Done(r)) = h.state().course.exercises.result("e2-pulls").cloned() else {
        panic!("{:?}", h.state().course.exercises.result("e2-pulls"));
    };
    // The unchanged game assembles but does not do the task.
    assert!(r.score < r.max_score && r.max_score > 0.0, "{r:?}");
    assert!(r.checks.iter().any(|c| c.passed), "{r:?}");
    h.run();
    h.get_by_label_contains("Points:");
    assert!(h
        .query_all_by_label_contains(&r.checks[0].name)
        .next()
        .is_some());

    h.get_by_label("Hand in").click();
    h.run();
    let zip = data.join("exercises").join("e2-pulls.zip");
    assert!(zip.is_file(), "no hand-in zip");
    h.get_by_label_contains("Hand-in zip written:");
    // The zip is what the grader takes: same points as the folder.
    let cat = Catalog::load_default().unwrap();
    let graded = hc11lab::lesson::check::check(&cat, "e2-pulls", &zip).unwrap();
    assert_eq!(graded.score, r.score);
    drop(h);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn save_a_copy_of_the_bundled_sources_and_open_it() {
    let dir = scratch("save-copy");
    let app = App::with_settings(Settings::default(), AppInput::Bundled, None);
    let mut h = harness(app);
    h.run();
    let main = h.state_mut().session.save_sources_to(&dir).expect("saved");
    assert_eq!(main, dir.join("Viergewinnt.asm"));
    for (name, text) in hc11lab::firmware::FILES {
        assert_eq!(
            &std::fs::read_to_string(dir.join(name)).unwrap(),
            text,
            "{name}"
        );
    }
    assert_eq!(h.state().session.origin, Some(Origin::Path(main)));
    assert!(h.state().session.has_machine());
    // A second save into the same folder overwrites nothing.
    let again = h.state_mut().session.save_sources_to(&dir);
    assert!(again.unwrap_err().contains("exists already"));
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_finished_lesson_offers_the_next_one() {
    let data = scratch("next-lesson");
    // The tour done, as saved progress says.
    let cat = Catalog::load_default().unwrap();
    let tour = cat.lesson("01-tour").unwrap().clone();
    let mut progress = hc11lab::lesson::Progress::default();
    progress.set_lesson(
        "01-tour",
        hc11lab::lesson::progress::LessonProgress {
            done: tour.manifest.step.iter().map(|s| s.id.clone()).collect(),
            completed: true,
            ..Default::default()
        },
    );
    progress.save(&data).unwrap();
    let settings = Settings {
        side_tab: SideTab::Course,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Bundled, None).with_course_dir(data.clone());
    let mut h = harness(app);
    h.state_mut().course.lessons.open("01-tour");
    h.run();
    let (next, _) = h
        .state()
        .course
        .lessons
        .next_lesson()
        .expect("a lesson after the tour");
    h.get_by_label("Next lesson").click();
    h.run();
    let open = h
        .state()
        .course
        .lessons
        .run()
        .map(|r| r.lesson().id.clone());
    assert_eq!(open.as_deref(), Some(next.as_str()));
    drop(h);
    let _ = std::fs::remove_dir_all(&data);
}

/// The scripted run plays the course as a student does (what the browser
/// test drives in the page through `?autorun=`): a wrong and a right answer
/// to a lesson step, an exercise started, Checked and handed in; the report
/// says where each ended.
#[test]
fn a_scripted_run_answers_a_lesson_step_checks_and_hands_in() {
    let data = scratch("autorun-course");
    let done = data.join("done.txt");
    let autorun = hc11lab::ui::autorun::Autorun::parse(&format!(
        "frames=1;data={};lesson=03-buffer;answer=335;answer=336;check=e2-pulls;handin=e2-pulls;done={}",
        data.display(),
        done.display()
    ))
    .unwrap();
    let app = App::with_settings(Settings::default(), AppInput::Bundled, Some(autorun));
    let mut h = harness(app);
    let start = std::time::Instant::now();
    while !done.is_file() && start.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    let report = std::fs::read_to_string(&done).expect("the report");
    let line = |key: &str| {
        report
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_default()
            .to_string()
    };
    let steps = line("lesson 03-buffer step 2 of ");
    assert!(steps.parse::<u32>().is_ok_and(|n| n > 2), "{report}");
    let check = line("check e2-pulls score ");
    let (score, rest) = check.split_once(" of ").expect(&report);
    let max: f64 = rest.split(' ').next().unwrap().parse().unwrap();
    assert!(score.parse::<f64>().unwrap() < max && max > 0.0, "{report}");
    let zip = data.join("exercises").join("e2-pulls.zip");
    assert_eq!(line("handin "), zip.display().to_string(), "{report}");
    assert!(zip.is_file());
    assert!(line("lcd_rect ").split(' ').count() == 4, "{report}");
    // The answers were saved as progress: the lesson resumes at step 2.
    let progress = hc11lab::lesson::Progress::load(&data).unwrap();
    assert_eq!(progress.lesson("03-buffer").done.len(), 1);
    drop(h);
    let _ = std::fs::remove_dir_all(&data);
}

/// A program that sends back every byte it receives on the SCI.
const ECHO: &str = "
                include Trainer11Register.inc
                org     $C000
Start           lds     #$00FF
                ldaa    #$30
                staa    BAUD
                ldaa    #$0C
                staa    SCCR2
Loop            brclr   SCSR, #$20, Loop
                ldaa    SCDR
                brclr   SCSR, #$80, *
                staa    SCDR
                bra     Loop
                org     VRESET
                dc.w    Start
";

/// A scratch folder `name` with [`ECHO`] as `echo.asm` and the register
/// include it needs.
fn echo_folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    let inc = hc11lab::firmware::FILES
        .iter()
        .find(|(n, _)| *n == "Trainer11Register.inc")
        .unwrap()
        .1;
    std::fs::write(dir.join("Trainer11Register.inc"), inc).unwrap();
    std::fs::write(dir.join("echo.asm"), ECHO).unwrap();
    dir
}

#[test]
fn the_serial_input_line_reaches_the_programs_receiver() {
    let dir = echo_folder("serial-echo");
    let settings = Settings {
        speed: Speed::Max,
        bottom_tab: hc11lab::ui::session::BottomTab::Serial,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Path(dir.join("echo.asm")), None);
    let mut h = harness(app);
    h.run();
    assert!(
        h.state().session.has_machine(),
        "{:?}",
        h.state().session.problems
    );
    h.get_by_label("Send:").click();
    h.run();
    h.get_by_label("Send:").type_text("Hi");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.get_by_label_contains("byte(s) sent");
    h.state_mut().session.run();
    for _ in 0..30 {
        h.step();
    }
    // "Hi" and the CR come back (the terminal hides the CR).
    let echoed = h.state().session.serial_text();
    assert_eq!(echoed, "Hi\r");
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A script of serial input only ends in a stop that says so: "script
/// done (no keys)", not "key script done" (the debugger's sentence, which
/// `run` words the same way); in German too.
#[test]
fn a_serial_script_settles_without_naming_keys() {
    let dir = echo_folder("serial-script");
    let settings = Settings {
        speed: Speed::Max,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Path(dir.join("echo.asm")), None);
    let mut h = harness(app);
    h.run();
    for (script, lang, words) in [
        (
            "serial:Hi",
            Lang::En,
            "script done (no keys), program waits for input",
        ),
        ("serial:Ho", Lang::De, "Skript fertig (ohne Tasten)"),
        (
            "drop,serial:Hu",
            Lang::En,
            "key script done, program waits for input",
        ),
    ] {
        let s = &mut h.state_mut().session;
        s.set_lang(lang);
        s.start_script(&hc11lab::script::Script::parse_keys(script).unwrap());
        for _ in 0..60 {
            h.step();
            if !h.state().session.script_active() {
                break;
            }
        }
        let text = h.state().session.stop_text().unwrap_or_default();
        assert!(text.starts_with(words), "{script}: {text}");
    }
    assert_eq!(h.state().session.serial_text(), "HiHoHu");
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_course_folders_are_shown_with_place_and_reason_and_reload() {
    let root = scratch("course-broken");
    let data = scratch("course-broken-data");
    let lessons = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    // One good lesson, one whose lesson.toml breaks on line 3.
    copy_tree(&lessons.join("01-tour"), &root.join("01-tour"));
    copy_tree(&lessons.join("01-tour"), &root.join("02-broken"));
    let good = std::fs::read_to_string(root.join("02-broken/lesson.toml")).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    lines[2] = "order = = 2";
    let broken = root.join("02-broken").join("lesson.toml");
    std::fs::write(&broken, lines.join("\n")).unwrap();
    let loaded = Catalog::load(&root).unwrap();
    assert_eq!(loaded.broken.len(), 1, "{:?}", loaded.broken);

    let settings = Settings {
        side_tab: SideTab::Course,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Bundled, None).with_course(data, root.clone());
    let mut h = harness(app);
    h.run();
    assert!(
        h.query_by_label_contains("1 course folder(s) left out")
            .is_some(),
        "no notice of the broken folder"
    );
    let place = format!("{}:3", broken.display());
    assert!(
        h.query_by_label(&place).is_some(),
        "no file:line {place} for the broken lesson"
    );
    // The parser's reason is shown, and the good lesson still works.
    let message = &loaded.broken[0].message;
    assert!(h.query_by_label(message).is_some(), "no reason {message}");
    assert_eq!(h.state().course.lessons.next_lesson(), None);
    h.state_mut().course.lessons.open("01-tour");
    h.run();
    assert!(h.state().course.lessons.run().is_some(), "good lesson lost");

    // Fixed on disk, Reload course takes it in.
    std::fs::write(&broken, good).unwrap();
    h.get_by_label("Reload course").click();
    h.run();
    assert!(h.state().course.broken.is_empty());
    assert!(h.query_by_label_contains("left out").is_none());
    assert_eq!(
        h.state().course.lessons.next_lesson().map(|(id, _)| id),
        Some("02-broken".to_string())
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// A lesson on a program of its own (the example course's `01-sum`:
/// `program = "sum.asm"`, `board = "evb"`) loads that program on that board
/// when it is opened, names it above its steps, and its checks see it; a
/// lesson on Viergewinnt opened after it loads Viergewinnt on trainer11
/// again. Without an open lesson the panel says once to pick one.
#[test]
fn a_lesson_opens_its_own_program_on_its_board() {
    let data = scratch("course-own-program");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let course = scratch("course-own-program-course");
    copy_tree(&root.join("examples/course/01-sum"), &course.join("01-sum"));
    copy_tree(&root.join("lessons/01-tour"), &course.join("02-tour"));
    let settings = Settings {
        side_tab: SideTab::Course,
        language: Some(Lang::En),
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Bundled, None)
        .with_course(data.clone(), course.clone());
    let mut h = harness(app);
    h.run();
    // The picker's box says "Pick a lesson." (exactly one box does);
    // no label under it repeats it.
    h.get_by(|n| {
        n.role() == egui::accesskit::Role::ComboBox
            && n.value().as_deref() == Some("Pick a lesson.")
    });
    assert_eq!(h.query_all_by_label("Pick a lesson.").count(), 0);
    assert_eq!(h.query_all_by_label_contains("Pick a lesson").count(), 0);
    h.state_mut().course.lessons.open("01-sum");
    h.run();
    let sum = course.join("01-sum").join("sum.asm");
    assert_eq!(h.state().session.origin, Some(Origin::Path(sum)));
    assert_eq!(h.state().session.board_key(), Some("evb"));
    assert!(h.state().session.has_machine());
    assert!(h
        .query_by_label_contains("Program: sum.asm on evb")
        .is_some());
    // The checks look at that program: `loop` is one of its labels.
    assert!(h.state().session.resolve("loop").is_some());
    assert!(h.state().session.resolve("mainLoop").is_none());

    h.state_mut().course.lessons.open("02-tour");
    h.run();
    assert_eq!(h.state().session.origin, Some(Origin::Bundled));
    assert_eq!(h.state().session.board_key(), Some("trainer11"));
    assert!(h.state().session.resolve("mainLoop").is_some());
    drop(h);
    let _ = std::fs::remove_dir_all(&data);
    let _ = std::fs::remove_dir_all(&course);
}

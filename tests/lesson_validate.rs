//! `hc11lab lesson validate`: the shipped course passes (so a broken lesson
//! fails CI), planted mistakes are caught with file, step and name, one
//! broken folder leaves the others working, and no solution source ships
//! under `lessons/`. An exercise copied into a scratch course and broken
//! (a reference image failing its own checks, a provided file missing, a
//! solution source in `reference/`) fails; `lesson reference` refuses a
//! solution that fails the checks, and grading never takes the student's
//! copy of a provided file.

#[path = "support/exercise.rs"]
mod support;

use hc11lab::lesson::validate::{
    validate_course, validate_exercise_dir, validate_lesson_dir, FolderReport,
};
use hc11lab::lesson::{Catalog, Lang};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch folder removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("hc11lab-validate-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Copies lesson `id` of the shipped course into the scratch course.
    fn lesson(&self, id: &str) -> PathBuf {
        let to = self.0.join(id);
        std::fs::create_dir_all(&to).unwrap();
        for f in ["lesson.toml", "de.md", "en.md"] {
            std::fs::copy(root().join("lessons").join(id).join(f), to.join(f)).unwrap();
        }
        to
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn replace_in(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", file.display());
    std::fs::write(file, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn the_shipped_course_validates() {
    let reports = validate_course(
        &root().join("lessons"),
        Some(&root().join("tests").join("solutions")),
    )
    .unwrap();
    let text = hc11lab::lesson::validate::report_text(&reports);
    let bad: Vec<&FolderReport> = reports.iter().filter(|r| !r.ok()).collect();
    assert!(bad.is_empty(), "{text}");
    let ids: Vec<&str> = reports.iter().map(|r| r.id.as_str()).collect();
    for id in [
        "01-tour",
        "08b-linelength",
        "13-profile",
        "e1-draw",
        "e6-othello",
        "e7-checkers",
        "viergewinnt",
    ] {
        assert!(ids.contains(&id), "{id} not validated:\n{text}");
    }
    // Every exercise with solution sources had its image compared and its
    // starter graded (a note says so); none was skipped for lack of a source.
    for r in reports.iter().filter(|r| r.kind == "exercise") {
        assert!(
            !r.notes.iter().any(|n| n.contains("no solution source")),
            "{text}"
        );
    }
}

#[test]
fn a_planted_label_typo_names_file_step_and_label() {
    let s = Scratch::new("typo");
    let dir = s.lesson("08-checkwin");
    replace_in(
        &dir.join("lesson.toml"),
        "{ kind = \"stopped\", at = \"checkWin\" }",
        "{ kind = \"stopped\", at = \"chekWin\" }",
    );
    let r = validate_lesson_dir(&dir);
    assert!(!r.ok());
    let all = r.problems.join("\n");
    assert!(
        all.contains("lesson.toml") && all.contains("step `break`") && all.contains("chekWin"),
        "{all}"
    );
}

#[test]
fn a_step_its_solution_does_not_complete_is_an_error() {
    let s = Scratch::new("unsolved");
    let dir = s.lesson("08b-linelength");
    // The counter is 2 at this stop, never 5.
    replace_in(
        &dir.join("lesson.toml"),
        "{ kind = \"register\", reg = \"x\", equals = 2 }",
        "{ kind = \"register\", reg = \"x\", equals = 5 }",
    );
    let r = validate_lesson_dir(&dir);
    let all = r.problems.join("\n");
    // It fails alike in both languages: said once, without a language.
    assert_eq!(all.matches("step `count`").count(), 1, "{all}");
    assert!(!all.contains("(de)") && !all.contains("(en)"), "{all}");
}

#[test]
fn a_text_pointing_at_a_missing_line_and_a_missing_language_are_errors() {
    let s = Scratch::new("texts");
    let dir = s.lesson("02-cell");
    replace_in(&dir.join("en.md"), "`Board.inc:134`", "`Board.inc:99999`");
    std::fs::remove_file(dir.join("de.md")).unwrap();
    let r = validate_lesson_dir(&dir);
    let all = r.problems.join("\n");
    assert!(
        all.contains("en.md") && all.contains("Board.inc:99999"),
        "{all}"
    );
    assert!(all.contains("de.md: missing"), "{all}");
}

#[test]
fn one_broken_folder_leaves_the_others_working() {
    let s = Scratch::new("broken");
    s.lesson("01-tour");
    let broken = s.lesson("02-cell");
    std::fs::write(broken.join("en.md"), "no title here\n").unwrap();

    let cat = Catalog::load(&s.0).unwrap();
    assert_eq!(cat.lessons.len(), 1);
    assert_eq!(cat.lessons[0].id, "01-tour");
    assert_eq!(cat.broken.len(), 1);
    assert!(cat.broken[0].message.contains("en.md"), "{:?}", cat.broken);
    assert!(hc11lab::lesson::cli::show_text(&cat, "01-tour", Lang::En).is_ok());
    let e = hc11lab::lesson::cli::show_text(&cat, "02-cell", Lang::En).unwrap_err();
    assert!(e.to_string().contains("broken"), "{e}");

    let reports = validate_course(&s.0, None).unwrap();
    let by_id = |id: &str| reports.iter().find(|r| r.id == id).unwrap();
    assert!(by_id("01-tour").ok(), "{:?}", by_id("01-tour"));
    assert!(!by_id("02-cell").ok());

    // The binary: list works and names the broken folder; validate fails.
    let bin = env!("CARGO_BIN_EXE_hc11lab");
    let out = Command::new(bin)
        .args(["lesson", "list", "--lang", "en"])
        .env("HC11LAB_LESSONS", &s.0)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("01-tour") && !stdout.contains("02-cell"),
        "{stdout}"
    );
    assert!(
        stderr.contains("02-cell") && stderr.contains("en.md"),
        "{stderr}"
    );
    let out = Command::new(bin)
        .args(["lesson", "validate"])
        .arg(&s.0)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("ok   lesson    01-tour") && stdout.contains("FAIL lesson    02-cell"),
        "{stdout}"
    );
}

#[test]
fn no_solution_source_ships_under_lessons() {
    // Every solution file that differs from the course's own files (the
    // firmware, a starter, a provided file) must not appear under lessons/.
    let mut shipped = Vec::new();
    let mut stack = vec![root().join("lessons")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                assert_ne!(
                    p.file_name().unwrap(),
                    "solution",
                    "{} ships a solution folder",
                    p.display()
                );
                stack.push(p);
            } else if let Ok(t) = std::fs::read_to_string(&p) {
                shipped.push(t.replace("\r\n", "\n"));
            }
        }
    }
    let firmware: Vec<String> = hc11lab::firmware::FILES
        .iter()
        .map(|(_, t)| t.replace("\r\n", "\n"))
        .collect();
    let solutions = root().join("tests").join("solutions");
    let mut checked = 0;
    for ex in std::fs::read_dir(&solutions).unwrap() {
        let ex = ex.unwrap().path();
        let starter = root()
            .join("lessons")
            .join(ex.file_name().unwrap())
            .join("starter");
        for f in std::fs::read_dir(&ex).unwrap() {
            let f = f.unwrap().path();
            let text = std::fs::read_to_string(&f).unwrap().replace("\r\n", "\n");
            let course_file = firmware.contains(&text)
                || std::fs::read_to_string(starter.join(f.file_name().unwrap()))
                    .is_ok_and(|s| s.replace("\r\n", "\n") == text)
                || std::fs::read_to_string(
                    root()
                        .join("lessons")
                        .join(ex.file_name().unwrap())
                        .join("reference")
                        .join(f.file_name().unwrap()),
                )
                .is_ok_and(|s| s.replace("\r\n", "\n") == text);
            if !course_file {
                checked += 1;
                assert!(
                    !shipped.contains(&text),
                    "{} (a solution) is shipped under lessons/",
                    f.display()
                );
            }
        }
    }
    assert!(checked >= 6, "only {checked} solution files compared");
    // And the binary bundles only lesson texts, no exercise folder.
    for (id, ..) in hc11lab::lesson::bundled::LESSONS {
        assert!(!id.starts_with('e') && *id != "viergewinnt", "{id}");
    }
}

#[test]
fn a_stale_reference_image_is_caught() {
    let a = hc11lab::grade::Assignment::load(&root().join("lessons/e1-draw")).unwrap();
    let image = root().join("lessons/e1-draw/reference/reference.s19");
    let sol = root().join("tests/solutions/e1-draw");
    hc11lab::lesson::validate::image_is_current(&a, &image, &sol).unwrap();
    // A changed solution no longer matches the shipped image.
    let s = Scratch::new("stale");
    for f in std::fs::read_dir(&sol).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, s.0.join(f.file_name().unwrap())).unwrap();
    }
    let main = s.0.join("Viergewinnt.asm");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(
        &main,
        text.replacen("        lds ", "        nop\n        lds ", 1),
    )
    .unwrap();
    let e = hc11lab::lesson::validate::image_is_current(&a, &image, &s.0).unwrap_err();
    assert!(e.contains("hc11lab lesson reference"), "{e}");
}

/// A copy of exercise `id` in scratch course `s`, checked to validate
/// before it is broken (without solution sources, as a lecturer's copy of
/// the course is often checked).
fn exercise_copy(s: &Scratch, id: &str) -> PathBuf {
    let to = s.0.join(id);
    support::copy_tree(&root().join("lessons").join(id), &to);
    let r = validate_exercise_dir(&to, None);
    assert!(r.ok(), "the unbroken copy of {id} fails: {:?}", r.problems);
    to
}

fn problems(dir: &Path) -> String {
    let r = validate_exercise_dir(dir, None);
    assert!(!r.ok(), "{} validates although broken", dir.display());
    r.problems.join("\n")
}

/// The starter of E2 (the firmware, pulls still swapped) is a wrong
/// solution: as E2's reference it breaks the fixed register assertions.
fn write_firmware_as_reference(dir: &Path) {
    let a = hc11lab::grade::Assignment::load(dir).unwrap();
    let (s19, sym) =
        hc11lab::lesson::validate::assemble_reference(&a, &support::firmware()).unwrap();
    std::fs::write(dir.join("reference/reference.s19"), s19).unwrap();
    std::fs::write(dir.join("reference/reference.sym"), sym).unwrap();
}

#[test]
fn a_reference_image_failing_its_own_checks_is_an_error() {
    let s = Scratch::new("ownchecks");
    let dir = exercise_copy(&s, "e2-pulls");
    write_firmware_as_reference(&dir);
    let all = problems(&dir);
    assert!(
        all.contains("e2-pulls")
            && all.contains("reference.s19")
            && all.contains("fails its own check `createGrid keeps A and B`"),
        "{all}"
    );
    // What differs is named, the advice to students is not repeated.
    assert!(
        all.contains("register a was $0012 at the breakpoint and is $0034 after the return"),
        "{all}"
    );
    let advice = hc11lab::grade::Assignment::load(&dir).unwrap().checks[1]
        .feedback
        .clone();
    assert!(!all.contains(advice.trim()), "{all}");
}

#[test]
fn lesson_reference_refuses_a_solution_failing_the_checks() {
    let s = Scratch::new("refuse");
    let dir = exercise_copy(&s, "e2-pulls");
    let image = dir.join("reference/reference.s19");
    let before = std::fs::read(&image).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["lesson", "reference"])
        .arg(&dir)
        .arg(support::firmware())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("createGrid keeps A and B") && stderr.contains("nothing written"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(&image).unwrap(),
        before,
        "the image was changed"
    );
}

#[test]
fn a_provided_file_missing_from_reference_is_a_course_error() {
    let s = Scratch::new("provided");
    let dir = exercise_copy(&s, "e6-othello");
    std::fs::remove_file(dir.join("reference/Positions.inc")).unwrap();
    let all = problems(&dir);
    assert!(
        all.contains("Positions.inc") && all.contains("provided"),
        "{all}"
    );
    // Grading refuses rather than taking the student's copy.
    let a = hc11lab::grade::Assignment::load(&dir).unwrap();
    let e = hc11lab::grade::engine::Grader::new(a)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("course error") && e.contains("Positions.inc"),
        "{e}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["lesson", "check", "e6-othello", "--lang", "en"])
        .arg(dir.join("starter"))
        .env("HC11LAB_LESSONS", &s.0)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(!stdout.contains("score"), "{stdout}");
    assert!(
        stderr.contains("course error") && stderr.contains("Positions.inc"),
        "{stdout}\n{stderr}"
    );
}

#[test]
fn a_source_in_reference_that_is_not_the_starters_is_an_error() {
    let s = Scratch::new("leak");
    // Starter = the bundled firmware.
    let dir = exercise_copy(&s, "e8-contrast");
    let logic = dir.join("reference/Logic.inc");
    let text = std::fs::read_to_string(&logic).unwrap();
    std::fs::write(&logic, format!("{text}; the solution\n")).unwrap();
    std::fs::write(dir.join("reference/Contrast.inc"), "; the solution\n").unwrap();
    let all = problems(&dir);
    assert!(
        all.contains("Logic.inc: differs from the starter's Logic.inc")
            && all.contains("Contrast.inc: not a file of the starter")
            && all.contains("put only the starter's sources there"),
        "{all}"
    );
    // Starter = the exercise's starter/ folder.
    let dir = exercise_copy(&s, "e6-othello");
    let main = dir.join("reference/Othello.asm");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(&main, format!("{text}; the solution\n")).unwrap();
    let all = problems(&dir);
    assert!(
        all.contains("Othello.asm: differs from the starter's Othello.asm"),
        "{all}"
    );
}

/// The example course outside `lessons/` has a lesson on a program of its
/// own (`program`, `board` in its lesson.toml): it validates on that
/// program, and validate says which program it played.
#[test]
fn the_example_course_validates_on_its_own_program() {
    let reports = validate_course(&root().join("examples/course"), None).unwrap();
    let text = hc11lab::lesson::validate::report_text(&reports);
    assert!(
        !reports.is_empty() && reports.iter().all(FolderReport::ok),
        "{text}"
    );
    assert!(
        text.contains("ok   lesson    01-sum (played on sum.asm on evb)"),
        "{text}"
    );
    // The shipped course names the bundled program.
    let r = validate_lesson_dir(&root().join("lessons/01-tour"));
    assert_eq!(
        r.program.as_deref(),
        Some("the bundled Viergewinnt on trainer11")
    );
    // `lesson show` names it too, and the steps run on it.
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["lesson", "show", "01-sum", "--lang", "en"])
        .env("HC11LAB_LESSONS", root().join("examples/course"))
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("Program: sum.asm on evb"), "{shown}");
    assert!(shown.contains("[Check: stopped at loop]"), "{shown}");
}

/// A lesson on a program of its own: `program` is read relative to the
/// lesson folder, in its `dialect`, on its `board`; a missing program or
/// board file is an error that names it, and the names of the checks are
/// looked up in that program, not in Viergewinnt.
#[test]
fn program_board_and_dialect_keys_choose_what_a_lesson_runs_on() {
    let s = Scratch::new("program");
    let dir = s.0.join("02-own");
    std::fs::create_dir_all(&dir).unwrap();
    // AS11: free-text comments after the operands.
    std::fs::write(
        dir.join("count.asm"),
        "        org $C000\nStart   lds #$00FF\n        ldaa #3 three passes\nloop    deca count down\n        bne loop\ncountEnd bra countEnd\n        org $FFFE\n        dc.w Start\n",
    )
    .unwrap();
    let manifest = "[lesson]\nprogram = \"count.asm\"\nboard = \"evb\"\ndialect = \"as11\"\n\n[[step]]\nid = \"end\"\nsolution = [\"break countEnd\", \"run\"]\ncheck = [{ kind = \"stopped\", at = \"countEnd\" }, { kind = \"register\", reg = \"a\", equals = 0 }]\n";
    std::fs::write(dir.join("lesson.toml"), manifest).unwrap();
    std::fs::write(
        dir.join("en.md"),
        "# Count\n\n## To the end {#end}\nRun to `countEnd` (`count.asm:6`).\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("de.md"),
        "# Zählen\n\n## Bis zum Ende {#end}\nLass es bis `countEnd` laufen (`count.asm:6`).\n",
    )
    .unwrap();
    let r = validate_lesson_dir(&dir);
    assert!(r.ok(), "{:?}", r.problems);
    assert_eq!(r.program.as_deref(), Some("count.asm on evb, dialect as11"));

    // Read in the course dialect it does not assemble: named with the file.
    std::fs::write(
        dir.join("lesson.toml"),
        manifest.replace("dialect = \"as11\"\n", ""),
    )
    .unwrap();
    let all = validate_lesson_dir(&dir).problems.join("\n");
    assert!(
        all.contains("count.asm does not assemble") && all.contains("count.asm:3"),
        "{all}"
    );

    // A program that is not there, and a board file that is not there.
    std::fs::write(
        dir.join("lesson.toml"),
        manifest.replace("count.asm", "gone.asm"),
    )
    .unwrap();
    let all = validate_lesson_dir(&dir).problems.join("\n");
    assert!(all.contains("gone.asm"), "{all}");
    std::fs::write(
        dir.join("lesson.toml"),
        manifest.replace("\"evb\"", "\"lab.toml\""),
    )
    .unwrap();
    let all = validate_lesson_dir(&dir).problems.join("\n");
    assert!(all.contains("lab.toml") && all.contains("board"), "{all}");

    // Without the keys the lesson runs on Viergewinnt, which has no `countEnd`.
    std::fs::write(
        dir.join("lesson.toml"),
        manifest
            .replace("program = \"count.asm\"\n", "")
            .replace("board = \"evb\"\n", ""),
    )
    .unwrap();
    let r = validate_lesson_dir(&dir);
    assert_eq!(
        r.program.as_deref(),
        Some("the bundled Viergewinnt on trainer11, dialect as11")
    );
    assert!(
        r.problems
            .join("\n")
            .contains("`countEnd` is not a symbol of the program"),
        "{:?}",
        r.problems
    );
}

/// Validate reports every problem of a broken lesson in one run: several
/// bad steps of the manifest at once; then, with the manifest right, a
/// text mismatch, a label typo, formal German and two failing model
/// solutions (one a wrong answer, said with what it answered and what was
/// expected) together.
#[test]
fn every_problem_of_a_lesson_is_reported_in_one_run() {
    let s = Scratch::new("all");
    let dir = s.lesson("03-buffer");
    let manifest = std::fs::read_to_string(dir.join("lesson.toml")).unwrap();
    // Two steps with errors the parser reports together.
    let two = format!(
        "{manifest}\n[[step]]\nid = \"x y\"\ncheck = [{{ kind = \"reset\" }}]\n[[step]]\nid = \"z\"\nsolution = [\"fly\"]\ncheck = [{{ kind = \"reset\" }}]\n"
    );
    std::fs::write(dir.join("lesson.toml"), &two).unwrap();
    let all = validate_lesson_dir(&dir).problems.join("\n");
    assert!(all.contains("`x y`") && all.contains("`fly`"), "{all}");

    // The manifest parses: everything else at once.
    let mut m = manifest.clone();
    let answer = m
        .lines()
        .find(|l| l.contains("\"answer "))
        .expect("03-buffer answers a question")
        .to_string();
    m = m.replacen(
        &answer,
        &answer.replacen("\"answer ", "\"answer 5 + ", 1),
        1,
    );
    m = m.replacen("at = \"getCellAddress\"", "at = \"getCellAdress\"", 1);
    std::fs::write(dir.join("lesson.toml"), &m).unwrap();
    let de = std::fs::read_to_string(dir.join("de.md")).unwrap();
    let de = de.replacen("\n## ", "\nDrücken Sie bitte weiter.\n\n## ", 1);
    std::fs::write(dir.join("de.md"), de).unwrap();
    let r = validate_lesson_dir(&dir);
    let all = r.problems.join("\n");
    assert!(all.contains("getCellAdress"), "{all}");
    assert!(all.contains("de.md:") && all.contains("`Sie`"), "{all}");
    assert!(all.contains("the model solution answered `5 + "), "{all}");
    assert!(all.contains(", expected "), "{all}");
    assert!(!all.contains("question not answered yet"), "{all}");
    // The same wrong answer in both languages is one problem.
    assert_eq!(
        all.matches("the model solution answered `5 + ").count(),
        1,
        "{all}"
    );
    assert!(r.problems.len() >= 3, "{all}");
}

/// `lesson validate` given one lesson folder (not its course) validates
/// that lesson; a folder with no lesson or exercise is an error, not
/// "0 folders checked" and success.
#[test]
fn validate_takes_one_lesson_folder_and_refuses_an_empty_one() {
    let bin = env!("CARGO_BIN_EXE_hc11lab");
    let out = Command::new(bin)
        .args(["lesson", "validate"])
        .arg(root().join("examples/course/01-sum"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("ok   lesson    01-sum (played on sum.asm on evb)")
            && stdout.contains("1 folders checked"),
        "{stdout}"
    );
    let s = Scratch::new("empty-course");
    let out = Command::new(bin)
        .args(["lesson", "validate"])
        .arg(&s.0)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no lesson or exercise in it"), "{stderr}");
}

/// `rom = "mon.s19"` puts a monitor under the lesson's program, as
/// `run --rom` does: the machine boots from the monitor's reset vector
/// into the program, whose call into the monitor the steps follow.
/// Without the key (the EVB's own monitor answers at $E010) they fail.
#[test]
fn a_lesson_runs_its_program_over_a_rom_of_its_own() {
    let s = Scratch::new("rom");
    let dir = s.0.join("01-mon");
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_hc11lab");
    let monitor = s.0.join("mon.asm");
    std::fs::write(
        &monitor,
        "            org     $E000\nreset       lds     #$00FF\n            jmp     $C000\n            org     $E010\ngetAnswer   ldaa    #$42\n            rts\n            org     $FFFE\n            dc.w    reset\n",
    )
    .unwrap();
    let out = Command::new(bin)
        .arg("asm")
        .arg(&monitor)
        .arg("-o")
        .arg(dir.join("mon.s19"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(
        dir.join("user.asm"),
        "            org     $C000\nmain        jsr     $E010\n            staa    $0040\ndone        bra     done\n",
    )
    .unwrap();
    let manifest = "[lesson]\nprogram = \"user.asm\"\nboard = \"evb\"\nrom = \"mon.s19\"\n\n[[step]]\nid = \"call\"\nsolution = [\"break $E010\", \"run\"]\ncheck = [{ kind = \"stopped\", at = \"$E010\" }]\n\n[[step]]\nid = \"back\"\nsolution = [\"out\"]\ncheck = [{ kind = \"register\", reg = \"a\", equals = 66 }]\n";
    std::fs::write(dir.join("lesson.toml"), manifest).unwrap();
    std::fs::write(
        dir.join("en.md"),
        "# Monitor\n\n## Call {#call}\nPress **Run**.\n\n## Back {#back}\nPress **Out**.\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("de.md"),
        "# Monitor\n\n## Aufruf {#call}\nDrück **Start**.\n\n## Zurück {#back}\nDrück **Heraus**.\n",
    )
    .unwrap();
    let r = validate_lesson_dir(&dir);
    assert!(r.ok(), "{:?}", r.problems);
    assert_eq!(
        r.program.as_deref(),
        Some("user.asm on evb, ROM mon.s19"),
        "{r:?}"
    );
    std::fs::write(
        dir.join("lesson.toml"),
        manifest.replace("rom = \"mon.s19\"\n", ""),
    )
    .unwrap();
    // Without it the EVB runs hc11lab's own monitor, whose code at $E010
    // is no `getAnswer`: the call is made, but A does not come back 66.
    let r = validate_lesson_dir(&dir);
    let all = r.problems.join("\n");
    assert!(
        all.contains("step `back`") && all.contains("wanted: = 66"),
        "{all}"
    );
}

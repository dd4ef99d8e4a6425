//! `hc11lab lesson validate [DIR]`: everything a lecturer must know before
//! handing a changed course to students, folder by folder. A lesson must
//! parse in both languages with the same steps, every label and FILE:LINE it
//! names (checks, breakpoints of the model solution, `File.inc:LINE` in the
//! texts) must exist in the firmware, and each step's model solution,
//! played headless, must complete that step and no step may be done before
//! it. An exercise must parse, have a task text in both languages, its
//! `reference/` must hold every provided file and no source but the
//! starter's, its reference must boot and pass its own checks (and, where
//! the solution source is at hand, be what that source assembles to and
//! score full marks), and its starter must not score full marks. A broken folder is
//! reported and the others are still checked.

use super::catalog::{Exercise, Lesson};
use super::i18n::Lang;
use super::live::{perform, student_session};
use super::reference;
use crate::grade::assignment::ReferenceSource;
use crate::grade::{Assignment, Grader, Submission, SubmissionResult};
use crate::image::Program;
use crate::machine::Machine;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What validation found in one folder of the course.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FolderReport {
    /// The folder name (`08-checkwin`, `e1-draw`).
    pub id: String,
    /// `lesson`, `exercise`, or empty for a folder that is neither.
    pub kind: &'static str,
    /// Errors: the folder is not fit for students.
    pub problems: Vec<String>,
    /// Remarks that are not errors (a check skipped, and why).
    pub notes: Vec<String>,
}

impl FolderReport {
    /// True if no problem was found.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Where the solution sources are: `DIR/../tests/solutions` of a source
/// tree, if it exists.
pub fn default_solutions(root: &Path) -> Option<PathBuf> {
    let dir = root.parent()?.join("tests").join("solutions");
    dir.is_dir().then_some(dir)
}

/// Validates every lesson and exercise folder under `root`. `solutions`
/// holds `ID/` folders with the exercises' solution sources (optional).
pub fn validate_course(root: &Path, solutions: Option<&Path>) -> Result<Vec<FolderReport>, String> {
    let entries = std::fs::read_dir(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let firmware = crate::firmware::program();
    let mut out = Vec::new();
    for d in dirs {
        if d.join("lesson.toml").is_file() {
            out.push(validate_lesson_dir(&d, firmware));
        } else if d.join("assignment.toml").is_file() {
            out.push(validate_exercise_dir(&d, solutions));
        }
    }
    Ok(out)
}

fn folder_id(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Validates one lesson folder against the bundled firmware.
pub fn validate_lesson_dir(dir: &Path, firmware: Option<&Program>) -> FolderReport {
    let mut r = FolderReport {
        id: folder_id(dir),
        kind: "lesson",
        ..Default::default()
    };
    let lesson = match Lesson::load(dir) {
        Ok(l) => Arc::new(l),
        Err(e) => {
            r.problems.push(e.to_string());
            return r;
        }
    };
    let Some(program) = firmware else {
        r.problems
            .push("the bundled firmware does not assemble: nothing to check against".into());
        return r;
    };
    r.problems = lesson_problems(&lesson, dir, program);
    r
}

/// Every problem of a loaded lesson: languages, names, texts' FILE:LINE,
/// and the model solutions played on `program`.
pub fn lesson_problems(lesson: &Arc<Lesson>, dir: &Path, program: &Program) -> Vec<String> {
    let mut out = Vec::new();
    let manifest = dir.join("lesson.toml");
    for lang in Lang::ALL {
        if !lesson.texts.contains_key(&lang) {
            out.push(format!(
                "{}: missing: every lesson has a German and an English text with the same steps",
                dir.join(format!("{}.md", lang.code())).display()
            ));
        }
    }
    for p in lesson.problems_with(program) {
        out.push(format!("{}: {p}", manifest.display()));
    }
    for s in &lesson.manifest.step {
        for a in &s.solution {
            if let Some(spec) = a.trim().strip_prefix("break ") {
                let loc = spec.split(" if ").next().unwrap_or(spec);
                let loc = strip_count(loc.trim());
                if let Err(e) = super::eval::resolve_location(loc, Some(program)) {
                    out.push(format!(
                        "{}: step `{}`: solution `{a}`: {e}",
                        manifest.display(),
                        s.id
                    ));
                }
            }
        }
        if s.solution.is_empty() {
            out.push(format!(
                "{}: step `{}` has no `solution` (the model student's actions)",
                manifest.display(),
                s.id
            ));
        }
    }
    for (lang, text) in &lesson.texts {
        let file = dir.join(format!("{}.md", lang.code()));
        let mut all = vec![text.intro.as_str()];
        for st in &text.steps {
            all.push(&st.body);
            all.extend(st.hints.iter().map(String::as_str));
        }
        for chunk in all {
            for place in file_lines(chunk) {
                if let Err(e) = text_place(&place, program) {
                    out.push(format!("{}: `{place}`: {e}", file.display()));
                }
            }
        }
    }
    if !out.is_empty() {
        // Playing a lesson whose names do not resolve only repeats them.
        return out;
    }
    for lang in lesson.languages() {
        if let Err(e) = play(lesson, lang, program) {
            out.push(format!("{} ({lang}): {e}", manifest.display()));
        }
    }
    out
}

/// A `File.inc:LINE` a text points at must be a line with something on it
/// (an instruction, a label, a comment) in a file of the program.
fn text_place(place: &str, program: &Program) -> Result<(), String> {
    let (file, line) = place.rsplit_once(':').unwrap_or((place, ""));
    let line: usize = line.parse().map_err(|_| "not FILE:LINE".to_string())?;
    let Some(src) = program.files.iter().find(|f| {
        f.path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(file))
    }) else {
        return Err(format!("the program has no file `{file}`"));
    };
    match src.text.lines().nth(line.wrapping_sub(1)) {
        Some(t) if !t.trim().is_empty() => Ok(()),
        Some(_) => Err(format!("line {line} of `{file}` is empty")),
        None => Err(format!(
            "`{file}` has only {} lines",
            src.text.lines().count()
        )),
    }
}

/// `drawCell:3` -> `drawCell` (a hit count is not part of the place);
/// `Board.inc:60` stays.
fn strip_count(loc: &str) -> &str {
    match loc.rsplit_once(':') {
        Some((head, n)) if n.trim().parse::<u32>().is_ok() && !head.contains('.') => head,
        _ => loc,
    }
}

/// `File.inc:LINE` places quoted in backticks in a text.
fn file_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            continue;
        }
        let Some((file, line)) = part.trim().rsplit_once(':') else {
            continue;
        };
        let ext_ok = [".inc", ".asm"]
            .iter()
            .any(|e| file.to_ascii_lowercase().ends_with(e));
        let simple = file
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        if ext_ok && simple && line.parse::<u32>().is_ok() {
            out.push(part.trim().to_string());
        }
    }
    out
}

/// Plays every step's model solution headless in `lang`: a step must not be
/// done before its actions and must be done after them, without a wrong try.
pub fn play(lesson: &Arc<Lesson>, lang: Lang, program: &Program) -> Result<(), String> {
    let machine = Machine::new(program.clone()).map_err(|e| e.to_string())?;
    let mut s = student_session(machine);
    let mut run = super::LessonRun::new(lesson.clone(), lang);
    for (i, step) in lesson.manifest.step.iter().enumerate() {
        if run.update(&s) {
            return Err(format!(
                "step `{}` is done before the student does anything (its checks hold already)",
                step.id
            ));
        }
        for a in step.actions() {
            perform(&mut s, &mut run, &a)
                .map_err(|e| format!("step `{}`: solution action {a:?}: {e}", step.id))?;
        }
        if run.current() != i + 1 {
            let open: Vec<String> = run
                .evaluate(&s)
                .iter()
                .filter(|v| !v.ok)
                .map(|v| v.message.clone())
                .collect();
            return Err(format!(
                "step `{}`: its checks do not hold after its solution: {}",
                step.id,
                open.join("; ")
            ));
        }
        if run.tries(i) > 0 {
            return Err(format!(
                "step `{}`: the model solution made a wrong try",
                step.id
            ));
        }
    }
    Ok(())
}

/// Validates one exercise folder; `solutions` holds `ID/` solution sources.
pub fn validate_exercise_dir(dir: &Path, solutions: Option<&Path>) -> FolderReport {
    let mut r = FolderReport {
        id: folder_id(dir),
        kind: "exercise",
        ..Default::default()
    };
    match Exercise::load(dir) {
        Ok(ex) => {
            for lang in Lang::ALL {
                if !ex.texts.contains_key(&lang) {
                    r.problems.push(format!(
                        "{}: missing: every exercise has a task text in German and English",
                        dir.join(format!("task.{}.md", lang.code())).display()
                    ));
                }
            }
        }
        Err(e) => {
            r.problems.push(e.to_string());
            return r;
        }
    }
    if dir.join("solution").exists() {
        r.problems.push(format!(
            "{}: solution sources must not ship with the course: move them to tests/solutions/{} and ship `reference/{}` (`hc11lab lesson reference`)",
            dir.join("solution").display(),
            r.id,
            reference::IMAGE
        ));
    }
    let assignment = match Assignment::load(dir) {
        Ok(a) => a,
        Err(e) => {
            r.problems.push(e.to_string());
            return r;
        }
    };
    match super::feedback::load_german(dir) {
        Ok(german) => {
            let file = dir.join(super::feedback::GERMAN_FILE);
            for c in &assignment.checks {
                if !german.contains_key(&c.name) {
                    r.problems.push(format!(
                        "{}: no German name and advice for check `{}` (`lesson check --lang de` would show English)",
                        file.display(),
                        c.name
                    ));
                }
            }
            for name in german.keys() {
                if !assignment.checks.iter().any(|c| &c.name == name) {
                    r.problems.push(format!(
                        "{}: `{name}` is not a check of assignment.toml",
                        file.display()
                    ));
                }
            }
        }
        Err(e) => r.problems.push(e),
    }
    let missing = provided_problems(&assignment);
    if !missing.is_empty() {
        // The grader refuses such an assignment; nothing more can be checked.
        r.problems.extend(missing);
        return r;
    }
    r.problems.extend(starter_problems(&assignment));
    let grader = match Grader::new(assignment.clone()) {
        Ok(g) => g,
        Err(e) => {
            r.problems
                .push(format!("{}: {e}", dir.join("assignment.toml").display()));
            return r;
        }
    };
    // The shipped image against its own fixed assertions: this needs no
    // solution source, so a course without tests/solutions is checked too.
    if let Some(ReferenceSource::Image(image)) = &assignment.reference {
        r.problems.extend(own_check_failures(
            &r.id,
            &image.display().to_string(),
            &assignment,
            &grader,
        ));
    }
    let max = assignment.max_score();
    // The reference: its source (where at hand) must score full marks, and
    // a shipped image must be what that source assembles to.
    let source = match &assignment.reference {
        Some(ReferenceSource::Folder(d)) => Some(d.clone()),
        Some(ReferenceSource::Image(image)) => {
            let sol = solutions.map(|s| s.join(&r.id)).filter(|d| d.is_dir());
            match &sol {
                Some(sol) => {
                    if let Err(e) = image_is_current(&assignment, image, sol) {
                        r.problems.push(e);
                    }
                }
                None => r.notes.push(format!(
                    "no solution source for `{}` (tests/solutions/{}): the reference image was not compared with it",
                    r.id, r.id
                )),
            }
            sol
        }
        Some(ReferenceSource::Bundled) | None => None,
    };
    let graded = match (&assignment.reference, &source) {
        (Some(ReferenceSource::Bundled), _) => Some((
            "the bundled firmware (the reference)".to_string(),
            grade_bundled(&grader),
        )),
        (_, Some(d)) => Some((d.display().to_string(), grade_folder(&grader, d))),
        _ => None,
    };
    if let Some((what, result)) = graded {
        match result {
            Ok(res) if res.score + 1e-9 >= max => {}
            Ok(res) => r.problems.push(format!(
                "the reference solution ({what}) scores {} of {max}: {}",
                res.score,
                failed_checks(&res)
            )),
            Err(e) => r.problems.push(format!("{what}: {e}")),
        }
    }
    // The starter: its own folder, else the course firmware for exercises
    // that change the game (the task says so); the base assignment has none.
    let starter = if dir.join("starter").is_dir() {
        Some((
            dir.join("starter").display().to_string(),
            grade_folder(&grader, &dir.join("starter")),
        ))
    } else if assignment
        .entry
        .eq_ignore_ascii_case(crate::firmware::MAIN_FILE)
        && !matches!(assignment.reference, Some(ReferenceSource::Bundled))
    {
        Some((
            "the bundled firmware (the starter)".to_string(),
            grade_bundled(&grader),
        ))
    } else {
        None
    };
    if let Some((what, result)) = starter {
        match result {
            Ok(res) if res.score + 1e-9 >= max => r.problems.push(format!(
                "the starter ({what}) already scores full marks ({max}): the checks test nothing of the task"
            )),
            Ok(res) => r
                .notes
                .push(format!("starter ({what}) scores {} of {max}", res.score)),
            Err(e) => r.problems.push(format!("{what}: {e}")),
        }
    }
    r
}

/// The checks the grader's reference fails when graded as a submission,
/// one message each naming the exercise, `what` (the image or solution),
/// the check and what differs (without the check's advice to students).
pub fn own_check_failures(
    id: &str,
    what: &str,
    assignment: &Assignment,
    grader: &Grader,
) -> Vec<String> {
    let Some(results) = grader.check_reference() else {
        return Vec::new();
    };
    results
        .iter()
        .filter(|c| !c.passed)
        .map(|c| {
            let advice = assignment
                .checks
                .iter()
                .find(|k| k.name == c.name)
                .map(|k| k.feedback.trim())
                .filter(|f| !f.is_empty());
            let text = c.output.trim_end();
            let text = advice
                .and_then(|a| text.strip_suffix(a))
                .unwrap_or(text)
                .trim_end();
            format!(
                "{id}: the reference ({what}) fails its own check `{}`: {text}",
                c.name
            )
        })
        .collect()
}

/// A file listed in `provided` that the course does not supply: the grader
/// refuses the assignment, since it would otherwise take the student's copy.
fn provided_problems(assignment: &Assignment) -> Vec<String> {
    let dir = match &assignment.reference {
        Some(ReferenceSource::Image(image)) => image.parent().map(Path::to_path_buf),
        Some(ReferenceSource::Folder(d)) => Some(d.clone()),
        Some(ReferenceSource::Bundled) | None => None,
    };
    let Some(dir) = dir else {
        return Vec::new();
    };
    assignment
        .provided
        .iter()
        .filter(|name| !dir.join(name).is_file())
        .map(|name| {
            format!(
                "{}: missing: it is listed in `provided`, so the grader must take the course's copy from here (else it would use the student's); put it back (`hc11lab lesson reference` writes it)",
                dir.join(name).display()
            )
        })
        .collect()
}

/// The sources the exercise gives students, by file name: its `starter/`,
/// else the bundled firmware for an exercise on Viergewinnt, else none
/// (as `write_reference` copies them).
fn starter_sources(assignment: &Assignment) -> Result<Vec<(String, String)>, String> {
    let starter = assignment.dir.join("starter");
    if starter.is_dir() {
        let sub = Submission::load(&starter, &assignment.limits)
            .map_err(|e| format!("{}: {e}", starter.display()))?;
        return Ok(sub
            .files
            .iter()
            .map(|(path, src)| (base_name(path).to_string(), src.text.clone()))
            .collect());
    }
    if assignment
        .entry
        .eq_ignore_ascii_case(crate::firmware::MAIN_FILE)
    {
        return Ok(crate::firmware::FILES
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect());
    }
    Ok(Vec::new())
}

fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Sources in the folder of a shipped reference image that are not the
/// starter's: `reference/` reaches students with the course, so anything
/// else there may be (part of) the solution. Provided files are the
/// course's own and are left out.
fn starter_problems(assignment: &Assignment) -> Vec<String> {
    let Some(ReferenceSource::Image(image)) = &assignment.reference else {
        return Vec::new();
    };
    let Some(dir) = image.parent() else {
        return Vec::new();
    };
    let starter = match starter_sources(assignment) {
        Ok(s) => s,
        Err(e) => return vec![e],
    };
    let shipped = match Submission::load(dir, &assignment.limits) {
        Ok(s) => s,
        Err(e) => return vec![format!("{}: {e}", dir.display())],
    };
    let norm = |t: &str| t.replace("\r\n", "\n");
    let fix = "put only the starter's sources there (`hc11lab lesson reference` writes them); solution sources belong in tests/solutions";
    let mut out = Vec::new();
    for (path, src) in &shipped.files {
        let name = base_name(path);
        if assignment
            .provided
            .iter()
            .any(|p| p.eq_ignore_ascii_case(name))
        {
            continue;
        }
        let file = dir.join(path);
        match starter.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some((_, text)) if norm(text) == norm(&src.text) => {}
            Some(_) => out.push(format!(
                "{}: differs from the starter's {name}; {fix}",
                file.display()
            )),
            None => out.push(format!(
                "{}: not a file of the starter; {fix}",
                file.display()
            )),
        }
    }
    out
}

/// The names of the checks that lost points.
fn failed_checks(r: &SubmissionResult) -> String {
    r.checks
        .iter()
        .filter(|c| c.score + 1e-9 < c.max_score)
        .map(|c| format!("`{}` {}/{}", c.name, c.score, c.max_score))
        .collect::<Vec<_>>()
        .join(", ")
}

fn grade_folder(grader: &Grader, dir: &Path) -> Result<SubmissionResult, String> {
    let sub = Submission::load(dir, &grader.assignment().limits).map_err(|e| e.to_string())?;
    Ok(grader.grade(&sub))
}

fn grade_bundled(grader: &Grader) -> Result<SubmissionResult, String> {
    let raw = crate::firmware::FILES
        .iter()
        .map(|(name, text)| (name.to_string(), text.as_bytes().to_vec()))
        .collect();
    let sub = Submission::from_files(
        "bundled firmware".into(),
        PathBuf::from(crate::firmware::FOLDER),
        raw,
        Vec::new(),
    )
    .map_err(|e| e.to_string())?;
    Ok(grader.grade(&sub))
}

/// Assembles the solution in `sol` and compares it with the shipped image
/// and symbols; Err says how to bring them up to date.
pub fn image_is_current(assignment: &Assignment, image: &Path, sol: &Path) -> Result<(), String> {
    let (s19, sym) = assemble_reference(assignment, sol)?;
    let fix = format!(
        "run `hc11lab lesson reference {} {}` and commit the result",
        assignment.dir.display(),
        sol.display()
    );
    let shipped = super::read_course_file(image).unwrap_or_default();
    if shipped.replace("\r\n", "\n") != s19 {
        return Err(format!(
            "{} is not what {} assembles to: {fix}",
            image.display(),
            sol.display()
        ));
    }
    let sym_path = reference::symbols_path(image);
    let shipped = super::read_course_file(&sym_path).unwrap_or_default();
    if shipped.replace("\r\n", "\n") != sym {
        return Err(format!(
            "{} does not list the symbols of {}: {fix}",
            sym_path.display(),
            sol.display()
        ));
    }
    Ok(())
}

/// Assembles the solution folder `sol` of `assignment` into the texts of
/// `reference.s19` and `reference.sym`.
pub fn assemble_reference(assignment: &Assignment, sol: &Path) -> Result<(String, String), String> {
    let sub = Submission::load(sol, &assignment.limits).map_err(|e| e.to_string())?;
    let entry = sub
        .find_entry(&assignment.entry)
        .map_err(|e| e.to_string())?;
    let mut files = crate::asm::MemoryFiles::new();
    for (path, src) in &sub.files {
        files.insert(path, src.text.as_bytes().to_vec());
    }
    let asm = crate::asm::assemble_with(Path::new(&entry), &files, &Default::default());
    match asm.program {
        Some(p) if !asm.has_errors() => Ok(reference::write(&p)),
        _ => Err(format!(
            "{} does not assemble:\n{}",
            sol.display(),
            asm.render_diagnostics()
        )),
    }
}

/// Writes `reference/reference.s19` and `reference/reference.sym` of the
/// exercise in `dir` from the solution in `sol`, and beside them the
/// starter's sources (the exercise's `starter/`, else the bundled firmware
/// for an exercise on Viergewinnt) and the provided files from `sol`
/// (`hc11lab lesson reference`). The grader takes the provided files from
/// there, and the similarity report leaves the starter code out.
///
/// Refuses (and writes nothing) when the solution fails one of the
/// exercise's own checks: every correct student would lose those points.
pub fn write_reference(dir: &Path, sol: &Path) -> Result<PathBuf, String> {
    let assignment = Assignment::load(dir).map_err(|e| e.to_string())?;
    let (s19, sym) = assemble_reference(&assignment, sol)?;
    solution_passes(&assignment, sol)?;
    let out = dir.join("reference");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let write =
        |p: PathBuf, t: &str| std::fs::write(&p, t).map_err(|e| format!("{}: {e}", p.display()));
    write(out.join(reference::IMAGE), &s19)?;
    write(out.join(reference::SYMBOLS), &sym)?;
    let starter = dir.join("starter");
    if starter.is_dir() {
        let sub = Submission::load(&starter, &assignment.limits).map_err(|e| e.to_string())?;
        for (path, src) in &sub.files {
            let name = path.rsplit('/').next().unwrap_or(path);
            write(out.join(name), &src.text)?;
        }
    } else if assignment
        .entry
        .eq_ignore_ascii_case(crate::firmware::MAIN_FILE)
    {
        for (name, text) in crate::firmware::FILES {
            write(out.join(name), text)?;
        }
    }
    for name in &assignment.provided {
        let from = sol.join(name);
        let text =
            super::read_course_file(&from).map_err(|e| format!("{}: {e}", from.display()))?;
        write(out.join(name), &text)?;
    }
    Ok(out.join(reference::IMAGE))
}

/// Grades the solution in `sol` as the reference of `assignment` against
/// the checks that do not need a reference; Err lists every failure.
pub fn solution_passes(assignment: &Assignment, sol: &Path) -> Result<(), String> {
    let mut own = assignment.clone();
    own.reference = Some(ReferenceSource::Folder(sol.to_path_buf()));
    let grader = Grader::new(own.clone()).map_err(|e| format!("{}: {e}", sol.display()))?;
    let id = folder_id(&assignment.dir);
    let failures = own_check_failures(&id, &sol.display().to_string(), &own, &grader);
    if failures.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{}\nnothing written: fix the solution (students who do what the checks ask would lose these points)",
        failures.join("\n")
    ))
}

/// Readable report: per folder `ok` or its problems, then a summary line.
pub fn report_text(reports: &[FolderReport]) -> String {
    let mut out = String::new();
    for r in reports {
        let mark = if r.ok() { "ok  " } else { "FAIL" };
        out.push_str(&format!("{mark} {:<9} {}\n", r.kind, r.id));
        for p in &r.problems {
            out.push_str(&format!(
                "     error: {}\n",
                p.replace('\n', "\n            ")
            ));
        }
        for n in &r.notes {
            out.push_str(&format!("     note: {n}\n"));
        }
    }
    let bad = reports.iter().filter(|r| !r.ok()).count();
    out.push_str(&format!(
        "{} folders checked, {} with errors\n",
        reports.len(),
        bad
    ));
    out
}

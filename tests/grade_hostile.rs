//! A course's worst batch: names that collide with each other and
//! with the reports, spreadsheet formulas as names, a second batch into the
//! same folder, an interrupted one, fifos, devices and huge sparse files,
//! pathological sources. Every case is made at test time in a temporary
//! folder and graded with a tiny assignment, so the whole file runs in
//! seconds. Each test fails without the fix it is named after.

use hc11lab::grade::result::{BatchReport, SubmissionStatus};
use hc11lab::grade::similarity::SimilarityOptions;
use hc11lab::grade::{batch::grade_paths, report, Assignment, Grader};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A tiny program: stores 42 in `result` and idles.
const PROGRAM: &str = concat!(
    "        org $0040\n",
    "result  ds.b 1\n",
    "        org $C000\n",
    "start   lds #$00FF\n",
    "        ldaa #42\n",
    "        staa result\n",
    "idle    bra idle\n",
    "        org $FFFE\n",
    "        dc.w start\n",
);

const ASSIGNMENT: &str = r#"
[assignment]
id = "hostile"
title = "Hostile batch"
entry = "Main.asm"
reference = "ref"
required_symbols = ["result"]

[[check]]
name = "assembles"
kind = "assembles"
points = 1

[[check]]
name = "=stores 42"
kind = "scenario"
points = 2
feedback = "-store 42 in result"
keys = ""
expect = [{ symbol = "result", equals = 42 }]
"#;

/// A fresh temporary folder for one test.
fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hc11lab-hostile-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The assignment folder (with its reference) inside `dir`.
fn assignment(dir: &Path) -> Grader {
    let a = dir.join("assignment");
    std::fs::create_dir_all(a.join("ref")).unwrap();
    std::fs::write(a.join("assignment.toml"), ASSIGNMENT).unwrap();
    std::fs::write(a.join("ref/Main.asm"), PROGRAM).unwrap();
    Grader::new(Assignment::load(&a).unwrap()).unwrap()
}

fn folder_sub(batch: &Path, name: &str, source: &str) {
    let d = batch.join(name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("Main.asm"), source).unwrap();
}

fn zip_sub(path: &Path, entries: &[(&str, &[u8])]) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in entries {
        z.start_file(*name, opts).unwrap();
        z.write_all(data).unwrap();
    }
    z.finish().unwrap();
}

fn grade(grader: &Grader, paths: &[PathBuf]) -> BatchReport {
    grade_paths(
        grader,
        paths,
        Some(2),
        &SimilarityOptions::default(),
        &|_, _| {},
    )
    .unwrap()
}

/// Every check of submission `i` as debug text, one a line (what the
/// tests below search for a message).
fn checks_text(report: &BatchReport, i: usize) -> String {
    let text: Vec<String> = report.submissions[i]
        .checks
        .iter()
        .map(|c| format!("{c:?}"))
        .collect();
    text.join("\n")
}

/// Every file under `dir`, relative, sorted (hidden bookkeeping files too).
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

/// The batch's `*/results.json` files.
fn results_files(out: &Path) -> Vec<String> {
    tree(out)
        .into_iter()
        .filter(|f| f.ends_with("/results.json"))
        .collect()
}

/// Checks what every batch must give: one row, one folder, one
/// results.json per submission, nothing else left, the reports intact.
fn one_of_each(report: &BatchReport, out: &Path) {
    let n = report.submissions.len();
    let mut names: Vec<&str> = report
        .submissions
        .iter()
        .map(|s| s.submission.as_str())
        .collect();
    names.dedup();
    assert_eq!(names.len(), n, "names repeat: {names:?}");
    let mut folders: Vec<String> = report
        .submissions
        .iter()
        .map(|s| s.folder.to_lowercase())
        .collect();
    folders.sort();
    folders.dedup();
    assert_eq!(folders.len(), n, "folders repeat: {folders:?}");
    assert_eq!(results_files(out).len(), n, "{:?}", tree(out));
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    assert!(csv.starts_with("submission,score,max_score,"), "{csv}");
    assert_eq!(csv.lines().count(), n + 1, "{csv}");
    let json: BatchReport =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(json.submissions.len(), n);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let anchors = html.matches("<h2 id=\"s-").count();
    assert_eq!(anchors, n);
    for s in &report.submissions {
        let r = out.join(&s.folder).join("results.json");
        assert!(r.is_file(), "{} has no {}", s.submission, r.display());
        assert!(
            html.contains(&format!("id=\"s-{}\"", s.folder)),
            "{}",
            s.folder
        );
    }
    let stray: Vec<String> = tree(out)
        .into_iter()
        .filter(|f| f.contains(".tmp") || f.contains("staging") || f.contains("journal"))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

#[test]
fn names_that_collide_get_their_own_folders() {
    let dir = tmp("collide");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    for name in ["a b", "a_b", "A_B", "x", "x-2", "x-3"] {
        folder_sub(&batch, name, PROGRAM);
    }
    zip_sub(&batch.join("x.zip"), &[("Main.asm", PROGRAM.as_bytes())]);
    let other = dir.join("elsewhere/x");
    folder_sub(&dir.join("elsewhere"), "x", PROGRAM);
    let report = grade(&grader, &[batch.clone(), other]);
    assert_eq!(report.submissions.len(), 8);
    let out = dir.join("out");
    report::write_reports(&report, &out).unwrap();
    one_of_each(&report, &out);
    // A name that is already safe keeps its folder; the original name stays
    // in the reports.
    let by = |n: &str| {
        report
            .submissions
            .iter()
            .find(|s| s.submission == n)
            .unwrap()
    };
    // Folders differ ignoring case too (macOS and Windows ignore it).
    assert_eq!(by("A_B").folder, "A_B");
    assert_eq!(by("a b").folder, "a_b-2");
    assert_eq!(by("a_b").folder, "a_b-3");
    assert_eq!(by("x-2").folder, "x-2");
    // The renamed ones say which input they are and who kept the name; a
    // submission really called x-2 has no such note.
    let renamed: Vec<String> = ["x-4", "x-5"]
        .iter()
        .flat_map(|n| by(n).notes.clone())
        .collect();
    assert_eq!(renamed.len(), 2, "{renamed:?}");
    for input in ["`batch/x.zip`", "`elsewhere/x`"] {
        assert!(
            renamed.iter().any(|n| n.contains(input)
                && n.contains("has the name `x` of another submission")
                && n.contains("(`batch/x` kept the name)")),
            "{input}: {renamed:?}"
        );
    }
    assert!(by("x-2").notes.is_empty(), "{:?}", by("x-2").notes);
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    assert!(csv.contains("\r\na b,3,3,1,2,graded,a_b-2\r\n"), "{csv}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn submissions_named_like_reports_do_not_stop_the_batch() {
    let dir = tmp("reportnames");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    folder_sub(&batch, "grades.csv", PROGRAM);
    folder_sub(&batch, "junit.xml", PROGRAM);
    folder_sub(&batch, "NUL", PROGRAM);
    folder_sub(&batch, "shard.json", PROGRAM);
    zip_sub(
        &batch.join("report.json.zip"),
        &[("Main.asm", PROGRAM.as_bytes())],
    );
    let report = grade(&grader, std::slice::from_ref(&batch));
    let out = dir.join("out");
    report::write_reports(&report, &out).unwrap();
    one_of_each(&report, &out);
    assert!(out.join("report.json").is_file());
    assert!(out.join("_grades.csv/results.json").is_file());
    assert!(out.join("_report.json/results.json").is_file());
    // `--shard` writes shard.json beside the reports.
    assert!(out.join("_shard.json/results.json").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spreadsheet_formulas_are_neutralised_in_csv_and_exact_in_json() {
    let dir = tmp("formula");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    let names = ["=HYPERLINK(\"x\")", "+1", "-2", "@SUM(A1)", "\tx", "\rx"];
    for n in names {
        folder_sub(&batch, n, PROGRAM);
    }
    let report = grade(&grader, std::slice::from_ref(&batch));
    let out = dir.join("out");
    report::write_reports(&report, &out).unwrap();
    one_of_each(&report, &out);
    for file in ["grades.csv", "similarity.csv"] {
        let csv = std::fs::read_to_string(out.join(file)).unwrap();
        for line in csv.split("\r\n") {
            for cell in line.split(',') {
                let cell = cell.trim_start_matches('"');
                assert!(
                    !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "{file}: formula cell {cell:?} in {csv}"
                );
            }
        }
    }
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    assert!(csv.contains("\"'=stores 42\""), "{csv}");
    assert!(csv.contains("\"'=HYPERLINK(\"\"x\"\")\""), "{csv}");
    let json: BatchReport =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let mut got: Vec<&str> = json
        .submissions
        .iter()
        .map(|s| s.submission.as_str())
        .collect();
    let mut want = names.to_vec();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_batch_leaves_only_its_own_results() {
    let dir = tmp("stale");
    let grader = assignment(&dir);
    let first = dir.join("first");
    for n in ["alice", "bob", "carol"] {
        folder_sub(&first, n, PROGRAM);
    }
    let second = dir.join("second");
    folder_sub(&second, "alice", PROGRAM);
    folder_sub(&second, "dave", "garbage\n");
    let out = dir.join("out");
    // Something of the teaching assistant's own that must survive.
    std::fs::create_dir_all(out.join("notes")).unwrap();
    std::fs::write(out.join("notes/todo.txt"), "mine").unwrap();
    let r1 = grade(&grader, std::slice::from_ref(&first));
    report::write_reports(&r1, &out).unwrap();
    assert_eq!(results_files(&out).len(), 3);
    let r2 = grade(&grader, std::slice::from_ref(&second));
    let done = report::write_reports_noting(&r2, &out).unwrap();
    one_of_each(&r2, &out);
    assert!(!out.join("bob").exists() && !out.join("carol").exists());
    assert_eq!(
        std::fs::read_to_string(out.join("notes/todo.txt")).unwrap(),
        "mine"
    );
    assert!(
        done.notes.iter().any(|n| n.contains("removed 2 file(s)")),
        "{:?}",
        done.notes
    );
    let json = std::fs::read_to_string(out.join("report.json")).unwrap();
    assert!(!json.contains("\"bob\""), "{json}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reports_of_an_older_version_are_replaced_too() {
    let dir = tmp("legacy");
    let grader = assignment(&dir);
    let out = dir.join("out");
    // What hc11lab wrote before it kept a manifest.
    std::fs::create_dir_all(out.join("bob")).unwrap();
    std::fs::write(out.join("bob/results.json"), "{}").unwrap();
    std::fs::write(out.join("report.json"), "{}").unwrap();
    let batch = dir.join("batch");
    folder_sub(&batch, "alice", PROGRAM);
    let r = grade(&grader, std::slice::from_ref(&batch));
    report::write_reports(&r, &out).unwrap();
    one_of_each(&r, &out);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_batch_is_found_and_cleared() {
    let dir = tmp("interrupted");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    folder_sub(&batch, "alice", PROGRAM);
    folder_sub(&batch, "bob", PROGRAM);
    let out = dir.join("out");
    let r = grade(&grader, std::slice::from_ref(&batch));
    report::write_reports(&r, &out).unwrap();
    // A batch killed while staging its reports, and one killed while moving
    // them in (bob's result moved, the journal still there).
    std::fs::create_dir_all(out.join(".hc11lab-staging-999-1/carol")).unwrap();
    std::fs::write(out.join(".hc11lab-staging-999-1/grades.csv"), "half").unwrap();
    std::fs::write(
        out.join(".hc11lab-grade-journal"),
        "grades.csv\nzoe/results.json\n",
    )
    .unwrap();
    std::fs::create_dir_all(out.join("zoe")).unwrap();
    std::fs::write(out.join("zoe/results.json"), "{}").unwrap();
    let done = report::write_reports_noting(&r, &out).unwrap();
    one_of_each(&r, &out);
    assert!(!out.join("zoe").exists());
    let notes = done.notes.join("\n");
    assert!(
        notes.contains("stopped before its reports were complete"),
        "{notes}"
    );
    assert!(
        notes.contains("stopped while it moved its reports"),
        "{notes}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_that_is_a_file_is_refused_before_grading() {
    let dir = tmp("outfile");
    let out = dir.join("report.txt");
    std::fs::write(&out, "x").unwrap();
    let e = report::output::prepare_out(&out).unwrap_err().to_string();
    assert!(e.contains("not a folder"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_sparse_files_are_not_read() {
    let dir = tmp("special");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    folder_sub(&batch, "alice", PROGRAM);
    let fifo = batch.join("bob.zip");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo is needed for this test");
    std::os::unix::fs::symlink("/dev/zero", batch.join("zero.zip")).unwrap();
    // A 2 GB sparse zip, and a folder whose source is a 2 GB sparse file.
    let sparse = std::fs::File::create(batch.join("sparse.zip")).unwrap();
    sparse.set_len(2 << 30).unwrap();
    std::fs::create_dir_all(batch.join("carol")).unwrap();
    let big = std::fs::File::create(batch.join("carol/Main.asm")).unwrap();
    big.set_len(2 << 30).unwrap();
    // A fifo inside a folder submission is skipped with a note.
    folder_sub(&batch, "dave", PROGRAM);
    std::process::Command::new("mkfifo")
        .arg(batch.join("dave/Extra.inc"))
        .status()
        .unwrap();
    let report = grade(&grader, std::slice::from_ref(&batch));
    let out = dir.join("out");
    report::write_reports(&report, &out).unwrap();
    one_of_each(&report, &out);
    let status = |n: &str| {
        let s = report
            .submissions
            .iter()
            .find(|s| s.submission == n)
            .unwrap();
        match &s.status {
            SubmissionStatus::Rejected(m) => m.clone(),
            other => format!("{other:?}"),
        }
    };
    assert!(status("bob").contains("is a fifo"), "{}", status("bob"));
    assert!(
        status("zero").contains("character device"),
        "{}",
        status("zero")
    );
    assert!(
        status("sparse").contains("max_zip_bytes")
            || status("sparse").contains("bytes a submission's zip"),
        "{}",
        status("sparse")
    );
    assert!(
        status("carol").contains("more than the"),
        "{}",
        status("carol")
    );
    let dave = report
        .submissions
        .iter()
        .find(|s| s.submission == "dave")
        .unwrap();
    assert_eq!(dave.score, 3.0);
    assert!(
        dave.notes.iter().any(|n| n.contains("Extra.inc: a fifo")),
        "{:?}",
        dave.notes
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `a0 equ a1+1`, `a1 equ a2+1`, ... `aN equ 1`: each written before the
/// one it needs.
fn equ_chain(n: usize) -> String {
    let mut src = String::new();
    for i in 0..n {
        src.push_str(&format!("a{i} equ a{}+1\n", i + 1));
    }
    src.push_str(&format!("a{n} equ 1\n"));
    src
}

#[test]
fn long_forward_equ_chains_resolve() {
    use hc11lab::asm::{assemble_source, AsmOptions};
    let asm = assemble_source("chain.asm", &equ_chain(20_000), &AsmOptions::default());
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    let a0 = asm.symbols.iter().find(|s| s.name == "a0").unwrap();
    assert_eq!(a0.value, 20_001);
}

#[test]
fn assembly_has_its_own_time_and_size_limits() {
    use hc11lab::asm::{assemble_source, AsmOptions};
    let opts = AsmOptions {
        time_limit: Some(std::time::Duration::ZERO),
        ..AsmOptions::default()
    };
    let asm = assemble_source("chain.asm", &equ_chain(100), &opts);
    assert!(asm.program.is_none());
    let text = asm.render_diagnostics();
    assert!(
        text.contains("took longer than the 0.0 s allowed"),
        "{text}"
    );

    let dir = tmp("asmlimits");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    let many = format!("{}{PROGRAM}", "\n".repeat(150_000));
    folder_sub(&batch, "long", &many);
    let report = grade(&grader, std::slice::from_ref(&batch));
    let out = &report.submissions[0].checks[0].output;
    assert!(out.contains("more than 100000 lines"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn hc11lab(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn deep_expressions_are_refused_everywhere_they_are_parsed() {
    let deep = "(".repeat(5000) + "1" + &")".repeat(5000);
    let prefix = format!("--explain={}1", "-".repeat(5000));
    let fw = "firmware/Viergewinnt.asm";
    for args in [
        vec!["run", fw, "--max-cycles", "1000", "--dump", &deep],
        vec!["run", fw, "--max-cycles", "1000", "--explain", &deep],
        vec!["run", fw, "--max-cycles", "1000", &prefix],
    ] {
        let (code, _, err) = hc11lab(&args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("nests more than 64 levels"), "{err}");
    }
    let cond = format!("Start if {deep} == 1");
    let (code, _, err) = hc11lab(&["run", fw, "--max-cycles", "1000", "--break", &cond]);
    assert_ne!(code, 0);
    assert!(err.contains("nests more than 64 levels"), "{err}");
    // A source operand, and an assignment's breakpoint condition.
    let dir = tmp("deep");
    std::fs::write(dir.join("deep.asm"), format!("        ldaa #{deep}\n")).unwrap();
    let src = dir.join("deep.asm");
    let (code, _, err) = hc11lab(&["asm", src.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let toml = ASSIGNMENT.to_string()
        + &format!(
            "\n[[check]]\nname = \"deep\"\nkind = \"breakpoint\"\npoints = 1\nat = \"start if {deep}\"\nexpect = [{{ flag = \"z\", equals = 1 }}]\n"
        );
    let e = Assignment::from_toml(&toml, &dir).unwrap_err();
    assert!(e.contains("nests more than 64 levels"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dump_addresses_never_wrap_and_name_their_own_option() {
    let fw = "firmware/Viergewinnt.asm";
    for (item, want) in [
        ("$FFFF+2", "outside the addresses $0000-$FFFF"),
        ("0-1", "outside the addresses $0000-$FFFF"),
        ("1<<64", "shift by 64"),
        ("nosuch+1", "unknown symbol `nosuch`"),
    ] {
        let (code, _, err) = hc11lab(&["run", fw, "--max-cycles", "1000", "--dump", item]);
        assert_eq!(code, 2, "{item}: {err}");
        assert!(err.contains(want), "{item}: {err}");
        assert!(err.contains("--dump"), "{item}: {err}");
        assert!(!err.contains("--explain"), "{item}: {err}");
    }
    let (code, _, err) = hc11lab(&["run", fw, "--max-cycles", "1000", "--explain", "$10000"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--explain `$10000` is 65536"), "{err}");
}

#[test]
fn forty_copies_make_one_group_and_a_bounded_report() {
    let dir = tmp("copies");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    // About 130 KB of varied instructions in an extra file (not assembled,
    // but compared), copied 40 times; 10 small edits of it; 50 of their own.
    let mut big = String::new();
    let mut x: u64 = 88172645463325252;
    for _ in 0..13_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let op = [
            "ldaa #1", "staa 0,x", "inx", "ldab 2,y", "aba", "psha", "pula", "tab",
        ];
        big.push_str(&format!("        {}\n", op[(x % 8) as usize]));
    }
    let sub = |name: &str, extra: &str| {
        folder_sub(&batch, name, PROGRAM);
        std::fs::write(batch.join(name).join("Extra.inc"), extra).unwrap();
    };
    for i in 0..40 {
        sub(&format!("copy{i:02}"), &big);
    }
    for i in 0..10 {
        sub(
            &format!("edit{i:02}"),
            &format!("{}{big}", "        mul\n".repeat(i + 1)),
        );
    }
    for i in 0..50 {
        sub(&format!("own{i:02}"), &"        nop\n".repeat(i + 1));
    }
    let report = grade(&grader, std::slice::from_ref(&batch));
    assert_eq!(report.similarity.identical.len(), 1);
    assert_eq!(report.similarity.identical[0].len(), 40);
    let out = dir.join("out");
    report::write_reports(&report, &out).unwrap();
    one_of_each(&report, &out);
    let size = std::fs::metadata(out.join("report.json")).unwrap().len();
    assert!(size < 3_000_000, "report.json is {size} bytes");
    let size = std::fs::metadata(out.join("similarity.html"))
        .unwrap()
        .len();
    assert!(size < 3_000_000, "similarity.html is {size} bytes");
    let html = std::fs::read_to_string(out.join("similarity.html")).unwrap();
    assert!(html.contains("40 submissions have identical sources"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_absolute_include_suggests_nothing_outside_the_submission() {
    let dir = tmp("absinclude");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    let src =
        format!("        include \"/etc/passwdx\"\n        include \"/etc/hostnam\"\n{PROGRAM}");
    folder_sub(&batch, "mallory", &src);
    let report = grade(&grader, std::slice::from_ref(&batch));
    let out = &report.submissions[0].checks[0].output;
    assert!(out.contains("E0011"), "{out}");
    assert!(!out.contains("did you mean"), "{out}");
    assert!(
        !out.contains("`passwd`") && !out.contains("`hostname`"),
        "{out}"
    );
    assert!(out.contains("main file's folder"), "{out}");
    // On disk too (hc11lab asm): only names from the main file's folder.
    let main = batch.join("mallory/Main.asm");
    let (code, _, err) = hc11lab(&["asm", main.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(!err.contains("did you mean"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn assignment_toml_is_validated_strictly_before_grading() {
    let dir = tmp("strict");
    let _ = assignment(&dir);
    let a = dir.join("assignment");
    let try_toml = |toml: &str| -> String {
        std::fs::write(a.join("assignment.toml"), toml).unwrap();
        match Assignment::load(&a).map(Grader::new) {
            Err(e) | Ok(Err(e)) => e.to_string(),
            Ok(Ok(_)) => "accepted".into(),
        }
    };
    let cases: [(String, &str); 7] = [
        (ASSIGNMENT.replace("points = 2", "points = 1e308"), "`points` must be a number from 0 to 10000"),
        (ASSIGNMENT.replace("points = 2", "points = inf"), "`points`"),
        (ASSIGNMENT.replace("reference = \"ref\"", "reference = \"ref\"\nprovided = [\"../secret.inc\"]"), "plain name"),
        (ASSIGNMENT.replace("reference = \"ref\"", "reference = \"ref\"\nbogus = 1"), "unknown field `bogus`"),
        (ASSIGNMENT.replacen("[[check]]", "[limits]\nstack_gaurd = \"result\"\n\n[[check]]", 1), "unknown field `stack_gaurd`"),
        (ASSIGNMENT.replacen("[[check]]", "[limits]\nstack_guard = \"reslut\"\n\n[[check]]", 1), "stack_guard: `reslut` is not a symbol of the reference solution; did you mean `result`?"),
        (ASSIGNMENT.replace("symbol = \"result\"", "symbol = \"resutl\""), "check `=stores 42`: `resutl` is not a symbol"),
    ];
    for (toml, want) in cases {
        let e = try_toml(&toml);
        assert!(e.contains(want), "want {want:?}, got {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cr_only_line_endings_are_lines() {
    let dir = tmp("cr");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    folder_sub(&batch, "mac", &PROGRAM.replace('\n', "\r"));
    let report = grade(&grader, std::slice::from_ref(&batch));
    let s = &report.submissions[0];
    assert_eq!(s.score, 3.0, "{:?}", s.checks);
    assert!(
        s.notes.iter().any(|n| n.contains("carriage return only")),
        "{:?}",
        s.notes
    );
    // The assembler alone reads them as lines too.
    let asm = hc11lab::asm::assemble_source(
        "mac.asm",
        &PROGRAM.replace('\n', "\r"),
        &hc11lab::asm::AsmOptions::default(),
    );
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_duplicate_zip_entry_is_mentioned() {
    let dir = tmp("dupzip");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    std::fs::create_dir_all(&batch).unwrap();
    // The zip writer refuses a second name, so write two and rename one in
    // the bytes (same length: the archive stays valid).
    let zip = batch.join("twice.zip");
    zip_sub(
        &zip,
        &[("Main.asm", b"garbage\n"), ("Main.xsm", PROGRAM.as_bytes())],
    );
    let bytes = std::fs::read(&zip).unwrap();
    let needle = b"Main.xsm";
    let mut fixed = bytes.clone();
    for i in 0..bytes.len() - needle.len() {
        if &bytes[i..i + needle.len()] == needle {
            fixed[i..i + needle.len()].copy_from_slice(b"Main.asm");
        }
    }
    std::fs::write(&zip, fixed).unwrap();
    let report = grade(&grader, std::slice::from_ref(&batch));
    let s = &report.submissions[0];
    assert!(
        s.notes
            .iter()
            .any(|n| n.contains("holds Main.asm more than once")),
        "{:?} {:?}",
        s.notes,
        s.status
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn grade_command_line_mistakes_cost_seconds() {
    let dir = tmp("cli");
    let _ = assignment(&dir);
    let a = dir.join("assignment");
    let batch = dir.join("batch");
    folder_sub(&batch, "alice", PROGRAM);
    let (a, b) = (a.to_str().unwrap(), batch.to_str().unwrap());
    // Usage goes to stderr.
    let (code, out, err) = hc11lab(&["grade", "--assignment", a]);
    assert_eq!(code, 2);
    assert!(
        out.is_empty() && err.contains("usage: hc11lab grade"),
        "{out} / {err}"
    );
    // --jobs out of range is refused at once.
    let (code, _, err) = hc11lab(&["grade", "--assignment", a, b, "--jobs", "100000"]);
    assert_eq!(code, 2);
    assert!(err.contains("--jobs 100000: use 1..256"), "{err}");
    // --out that is a file is refused before grading (nothing is graded).
    let file = dir.join("out.txt");
    std::fs::write(&file, "x").unwrap();
    let (code, out, err) = hc11lab(&[
        "grade",
        "--assignment",
        a,
        b,
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("is a file, not a folder"), "{err}");
    assert!(!out.contains("graded"), "{out}");
    // A second run into the same folder says what it replaced.
    let out_dir = dir.join("out");
    let o = out_dir.to_str().unwrap();
    let (code, _, err) = hc11lab(&["grade", "--assignment", a, b, "--out", o]);
    assert_eq!(code, 0, "{err}");
    std::fs::create_dir_all(out_dir.join(".hc11lab-staging-1-1")).unwrap();
    let (code, out, err) = hc11lab(&["grade", "--assignment", a, b, "--out", o]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("note: ") && out.contains("stopped before its reports were complete"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A submission written for another board (its variable at $0010, the
/// trainer11's register block) fails its checks like on the chip, and its
/// notes say why, with the line and the fix.
#[test]
fn a_variable_in_the_register_block_is_named_in_the_notes() {
    let dir = tmp("placement");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    folder_sub(&batch, "evb style", &PROGRAM.replace("$0040", "$0010"));
    folder_sub(&batch, "fine", PROGRAM);
    let report = grade(&grader, std::slice::from_ref(&batch));
    let by_name = |n: &str| {
        report
            .submissions
            .iter()
            .find(|s| s.submission == n)
            .unwrap_or_else(|| panic!("{n}"))
    };
    let evb = by_name("evb style");
    assert!(evb.score < evb.max_score, "the store went to a register");
    let note = evb
        .notes
        .iter()
        .find(|n| n.contains("variable `result` ($0010)"))
        .unwrap_or_else(|| panic!("{:?}", evb.notes));
    assert!(
        note.contains("register block after reset ($0000-$003F)"),
        "{note}"
    );
    assert!(note.contains("(Main.asm:2)"), "{note}");
    assert!(note.contains("reserve it in RAM ($0040-$7FFF)"), "{note}");
    assert!(
        by_name("fine").notes.is_empty(),
        "{:?}",
        by_name("fine").notes
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A submission that waits on a RAM byte nothing writes runs out of its
/// budget, and its check says why more cycles would not help.
#[test]
fn a_wait_on_memory_is_explained_in_the_failed_check() {
    let dir = tmp("memwait");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    folder_sub(
        &batch,
        "waits",
        &PROGRAM.replace("idle    bra idle", "idle    ldaa $0050\n        beq idle"),
    );
    let report = grade(&grader, std::slice::from_ref(&batch));
    let text = checks_text(&report, 0);
    assert!(
        text.contains("waits on $0050, RAM that nothing else writes (interrupts masked: I set): it never ends, at any budget"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run that halts in a loop of a few instructions nothing can leave
/// (`inx / bra busy`, not only `bra *`) names it in the failed check.
#[test]
fn an_endless_loop_of_a_few_instructions_is_named_in_the_failed_check() {
    let dir = tmp("busyloop");
    // A reference that ends waiting for keys (PIO_B), as Viergewinnt does.
    let waits = PROGRAM.replace("idle    bra idle", "idle    ldab $8001\n        bra idle");
    let a = dir.join("assignment");
    std::fs::create_dir_all(a.join("ref")).unwrap();
    std::fs::write(a.join("assignment.toml"), ASSIGNMENT).unwrap();
    std::fs::write(a.join("ref/Main.asm"), &waits).unwrap();
    let grader = Grader::new(Assignment::load(&a).unwrap()).unwrap();
    let batch = dir.join("batch");
    folder_sub(
        &batch,
        "busy",
        &waits.replace("        ldaa #42\n", "busy    inx\n        bra busy\n"),
    );
    let report = grade(&grader, std::slice::from_ref(&batch));
    let text = checks_text(&report, 0);
    assert!(
        text.contains(
            "stuck in an endless loop at busy ($C003) (`inx; bra $C003`) that nothing can leave"
        ),
        "{text}"
    );
    // Where the reference ends in a loop too (the tiny assignment's own),
    // ending so is no fault: no note.
    let grader = assignment(&dir.join("halting"));
    let batch = dir.join("batch2");
    folder_sub(
        &batch,
        "busy",
        &PROGRAM.replace("        ldaa #42\n", "busy    inx\n        bra busy\n"),
    );
    let report = grade(&grader, std::slice::from_ref(&batch));
    let text = format!("{:?}", report.submissions[0].checks);
    assert!(text.contains("expected $2A"), "{text}");
    assert!(!text.contains("endless loop"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program that sets SP among its variables from the start (the guard
/// never sees it above them, so it never fires) and crashes when a store
/// overwrites a return address gets the stack named as the cause.
#[test]
fn a_stack_set_among_the_variables_is_named_as_the_cause() {
    let dir = tmp("lowstack");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    let source = concat!(
        "        org $0040\n",
        "result  ds.b 1\n",
        "buf     ds.b 32\n",
        "        org $C000\n",
        "start   lds #$0050\n",
        "        jsr clear\n",
        "idle    bra idle\n",
        "clear   ldx #buf\n",
        "loop    clr 0,x\n",
        "        inx\n",
        "        cpx #buf+32\n",
        "        bne loop\n",
        "        rts\n",
        "        org $FFFE\n",
        "        dc.w start\n",
    );
    folder_sub(&batch, "lowstack", source);
    let report = grade(&grader, std::slice::from_ref(&batch));
    let text = checks_text(&report, 0);
    assert!(
        text.contains("At that point the stack pointer is $0050, below $0061"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a batch folder holds besides submissions (a stray file, a hidden
/// folder) is named as not graded; an --out made inside the batch folder is
/// never graded as a submission, on the first run or the next.
#[test]
fn stray_entries_are_named_and_an_out_inside_the_batch_is_not_graded() {
    let dir = tmp("strays");
    let _ = assignment(&dir);
    let batch = dir.join("batch");
    folder_sub(&batch, "alice", PROGRAM);
    std::fs::write(batch.join("notes.txt"), "x").unwrap();
    std::fs::create_dir_all(batch.join(".backup")).unwrap();
    let out = batch.join("out");
    let a = dir.join("assignment");
    let args = [
        "grade",
        "--assignment",
        a.to_str().unwrap(),
        batch.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "1",
    ];
    for _ in 0..2 {
        let (code, text, err) = hc11lab(&args);
        assert_eq!(code, 0, "{err}");
        assert!(
            text.contains("note: not graded, as no submission")
                && text.contains(".backup/, notes.txt, out/ (hc11lab grade's reports)"),
            "{text}"
        );
        assert!(text.contains("graded 1 submission(s)"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crash_after_an_unbalanced_push_names_the_rts_that_went_there() {
    let dir = tmp("rts");
    let grader = assignment(&dir);
    let batch = dir.join("batch");
    folder_sub(
        &batch,
        "pushy",
        concat!(
            "        org $0040\n",
            "result  ds.b 1\n",
            "        org $C000\n",
            "start   lds #$00FF\n",
            "        jsr sub\n",
            "idle    bra idle\n",
            "sub     ldaa #42\n",
            "        psha\n",
            "        staa result\n",
            "        rts\n",
            "        org $FFFE\n",
            "        dc.w start\n",
        ),
    );
    let report = grade(&grader, &[batch.join("pushy")]);
    let text = checks_text(&report, 0);
    assert!(
        text.contains("`rts` at $C00D in sub+5 (Main.asm:10) returned there: it took $2AC0 from the stack at $00FD"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

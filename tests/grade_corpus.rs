//! The grading corpus: student-like submissions (tests/grade_corpus/, made
//! by make_corpus.py from the firmware) plus three the test makes itself (a
//! zip with `../` entries, a 50 MB source, a correct zip), graded as one
//! batch with the base assignment. Scores, messages and the similarity report
//! are golden files (tests/golden/grade/; re-record with UPDATE_GOLDEN=1).

use hc11lab::grade::assignment::CheckKind;
use hc11lab::grade::result::{fmt_points, BatchReport, SubmissionStatus};
use hc11lab::grade::similarity::SimilarityOptions;
use hc11lab::grade::{batch::grade_paths, report, Assignment, Grader};
use std::io::Write;

#[path = "support/exercise.rs"]
mod support;
use std::path::{Path, PathBuf};
use support::copy_tree;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn zip_folder(src: &Path, zip: &Path, prefix: &str, extra: &[(&str, &[u8])]) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(zip).unwrap());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut names: Vec<_> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for p in names {
        let name = format!("{prefix}{}", p.file_name().unwrap().to_string_lossy());
        z.start_file(name, opts).unwrap();
        z.write_all(&std::fs::read(&p).unwrap()).unwrap();
    }
    for (name, data) in extra {
        z.start_file(*name, opts).unwrap();
        z.write_all(data).unwrap();
    }
    z.finish().unwrap();
}

/// The batch folder: the committed corpus plus the generated submissions.
fn make_batch(dir: &Path) -> PathBuf {
    let corpus = root().join("tests/grade_corpus");
    let batch = dir.join("batch");
    let _ = std::fs::remove_dir_all(&batch);
    std::fs::create_dir_all(&batch).unwrap();
    for e in std::fs::read_dir(&corpus).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &batch.join(e.file_name()));
        }
    }
    let correct = corpus.join("correct");
    zip_folder(
        &correct,
        &batch.join("correct_zip.zip"),
        "Viergewinnt/",
        &[],
    );
    zip_folder(
        &correct,
        &batch.join("zip_slip.zip"),
        "",
        &[("../../evil.inc", b"; would land outside\n")],
    );
    let huge = batch.join("huge_source");
    std::fs::create_dir_all(&huge).unwrap();
    let line = ";".repeat(99) + "\n";
    std::fs::write(huge.join("Viergewinnt.asm"), line.repeat(500_000)).unwrap();
    batch
}

/// Scores, statuses, notes and feedback of every check, as text.
fn messages(r: &BatchReport) -> String {
    let mut out = String::new();
    for s in &r.submissions {
        let status = match &s.status {
            SubmissionStatus::Graded => "graded".to_string(),
            SubmissionStatus::Rejected(m) => format!("rejected: {m}"),
            SubmissionStatus::InternalError(m) => format!("internal error: {m}"),
        };
        out.push_str(&format!(
            "== {} {}/{} ({status})\n",
            s.submission,
            fmt_points(s.score),
            fmt_points(s.max_score)
        ));
        for n in &s.notes {
            out.push_str(&format!("note: {n}\n"));
        }
        for c in &s.checks {
            out.push_str(&format!(
                "[{}] {} {}/{}\n",
                if c.passed { "pass" } else { "FAIL" },
                c.name,
                fmt_points(c.score),
                fmt_points(c.max_score)
            ));
            if !c.passed {
                for l in c.output.lines() {
                    out.push_str(&format!("    {l}\n"));
                }
            }
        }
    }
    out
}

fn golden(name: &str, actual: &str) {
    let path = root().join("tests/golden/grade").join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} missing: run with UPDATE_GOLDEN=1", path.display()));
    if expected != actual {
        let out = std::env::temp_dir().join(format!("actual-{name}"));
        std::fs::write(&out, actual).unwrap();
        panic!(
            "{name} differs from the golden file; actual written to {} (re-record with UPDATE_GOLDEN=1)",
            out.display()
        );
    }
}

#[test]
fn corpus_grades_as_recorded() {
    let tmp = std::env::temp_dir().join(format!("hc11lab-grade-corpus-{}", std::process::id()));
    let batch = make_batch(&tmp);
    let mut assignment = Assignment::load(&root().join("lessons/viergewinnt")).unwrap();
    // Fewer games than the shipped 20 keep the test fast; grade_firmware
    // plays all 20 on the firmware and the restyled submission.
    for c in &mut assignment.checks {
        if let CheckKind::Differential(d) = &mut c.kind {
            d.games = 4;
        }
    }
    let grader = Grader::new(assignment).unwrap();
    let report = grade_paths(
        &grader,
        std::slice::from_ref(&batch),
        Some(2),
        &SimilarityOptions::default(),
        &|_, _| {},
    )
    .unwrap();

    let by = |name: &str| {
        report
            .submissions
            .iter()
            .find(|s| s.submission == name)
            .unwrap_or_else(|| panic!("{name} not graded"))
    };
    let full = report.max_score;
    for name in ["correct", "restyled", "copied", "latin1", "correct_zip"] {
        assert_eq!(by(name).score, full, "{name} should score full marks");
    }
    assert!(by("latin1")
        .notes
        .iter()
        .any(|n| n.contains("Windows-1252")));
    assert!(by("no_wraparound")
        .notes
        .iter()
        .any(|n| n.contains("course's copy")));
    for (name, part) in [
        ("zip_slip", "points outside the submission"),
        ("huge_source", "more than the 1000000 bytes"),
        ("binary_garbage", "not a text file"),
        ("wrong_name", "found vier_gewinnt_final.asm"),
    ] {
        let s = by(name);
        assert_eq!(s.score, 0.0, "{name}");
        assert!(
            matches!(&s.status, SubmissionStatus::Rejected(m) if m.contains(part)),
            "{name}: {:?}",
            s.status
        );
    }
    for (name, part) in [
        ("does_not_assemble", "E0004"),
        ("include_outside", "E0012"),
        ("endless_loop", "never became idle"),
        ("illegal_opcode", "illegal opcode $41"),
        ("stack_overflow", "stack overflow"),
        ("rom_variable", "program memory (ROM)"),
    ] {
        let text: String = by(name).checks.iter().map(|c| c.output.clone()).collect();
        assert!(text.contains(part), "{name}: {text}");
    }
    for name in ["no_wraparound", "diagonal_off_by_one", "never_wins"] {
        let s = by(name);
        assert!(s.score > 0.0 && s.score < full, "{name}: {}", s.score);
    }
    let flagged: Vec<(&str, &str)> = report
        .similarity
        .pairs
        .iter()
        .map(|p| (p.a.as_str(), p.b.as_str()))
        .collect();
    assert!(flagged.contains(&("copied", "restyled")), "{flagged:?}");

    golden("grades.csv", &report::grades_csv(&report));
    golden("messages.txt", &messages(&report));
    golden("similarity.csv", &report::similarity_csv(&report));

    let out = tmp.join("out");
    let written = report::write_reports(&report, &out).unwrap();
    for s in &report.submissions {
        assert!(written.contains(&out.join(&s.submission).join("results.json")));
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("data:image/png;base64,"));
    let _ = std::fs::remove_dir_all(&tmp);
}

//! Report writers over a [`BatchReport`]: `grades.csv`, `report.json`,
//! `report.html`, `junit.xml`, Gradescope's `results.json` per submission,
//! and `similarity.html` + `similarity.csv`. All output is deterministic
//! (no timestamps, submissions in name order).

pub mod html;
pub mod output;

pub use output::{folder_names, safe_dir_name};

use super::error::GradeError;
use super::result::{fmt_points, BatchReport, SubmissionResult, SubmissionStatus};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A CSV cell from text: quoted when needed (RFC 4180), and text that a
/// spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`,
/// tab or CR, as OWASP's CSV-injection advice lists them) gets a leading
/// `'`, which spreadsheets show as text. Names and notes are the students'
/// own, so every text cell goes through here; report.json keeps them exact.
pub fn csv_field(s: &str) -> String {
    let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let s = if formula {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if formula || s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// The one-line summary `hc11lab grade` prints when done.
pub fn summary_line(report: &BatchReport) -> String {
    let n = report.submissions.len();
    let mean = if n == 0 {
        0.0
    } else {
        report.submissions.iter().map(|s| s.score).sum::<f64>() / n as f64
    };
    let full = report
        .submissions
        .iter()
        .filter(|s| s.score >= s.max_score)
        .count();
    let count = |f: fn(&SubmissionStatus) -> bool| {
        report.submissions.iter().filter(|s| f(&s.status)).count()
    };
    let rejected = count(|s| matches!(s, SubmissionStatus::Rejected(_)));
    let internal = count(|s| matches!(s, SubmissionStatus::InternalError(_)));
    let sim = &report.similarity;
    let mut line = format!(
        "graded {n} submission(s) for {}: mean {} of {}, {full} with full marks, {rejected} rejected, {internal} internal error(s); {} suspicious pair(s)",
        report.assignment,
        fmt_points(mean),
        fmt_points(report.max_score),
        sim.pairs.len() + sim.omitted_pairs
    );
    if !sim.identical.is_empty() {
        let copies: usize = sim.identical.iter().map(Vec::len).sum();
        line.push_str(&format!(
            ", {} group(s) of identical submissions ({copies} submissions)",
            sim.identical.len()
        ));
    }
    line
}

/// `grades.csv`: `submission,score,max_score`, one column per check, then
/// the status and the submission's folder under `--out`.
pub fn grades_csv(report: &BatchReport) -> String {
    let mut out = String::from("submission,score,max_score");
    for name in &report.check_names {
        out.push(',');
        out.push_str(&csv_field(name));
    }
    out.push_str(",status,folder\r\n");
    for (s, folder) in report
        .submissions
        .iter()
        .zip(folder_names(&report.submissions))
    {
        out.push_str(&csv_field(&s.submission));
        let _ = write!(out, ",{},{}", fmt_points(s.score), fmt_points(s.max_score));
        for name in &report.check_names {
            let score = s
                .checks
                .iter()
                .find(|c| &c.name == name)
                .map_or_else(String::new, |c| fmt_points(c.score));
            out.push(',');
            out.push_str(&score);
        }
        let status = match &s.status {
            SubmissionStatus::Graded => "graded",
            SubmissionStatus::Rejected(_) => "rejected",
            SubmissionStatus::InternalError(_) => "internal_error",
        };
        let _ = write!(out, ",{status},{}\r\n", csv_field(&folder));
    }
    out
}

/// Gradescope's `results.json` for one submission of a batch (see
/// [`super::autograder::gradescope`]; no execution time or tags here).
pub fn gradescope_json(result: &SubmissionResult) -> String {
    super::autograder::gradescope::results_json(result, None, None)
}

/// Escapes text for XML attributes and content; drops characters XML 1.0 forbids.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => {}
            c => out.push(c),
        }
    }
    out
}

/// JUnit XML: a test suite per submission, a test case per check.
pub fn junit_xml(report: &BatchReport) -> String {
    let tests: usize = report.submissions.iter().map(|s| s.checks.len()).sum();
    let failures: usize = report
        .submissions
        .iter()
        .flat_map(|s| &s.checks)
        .filter(|c| !c.passed)
        .count();
    let errors = report
        .submissions
        .iter()
        .filter(|s| matches!(s.status, SubmissionStatus::InternalError(_)))
        .count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">",
        xml_escape(&report.assignment)
    );
    for s in &report.submissions {
        let f = s.checks.iter().filter(|c| !c.passed).count();
        let e = usize::from(matches!(s.status, SubmissionStatus::InternalError(_)));
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\" errors=\"{e}\">",
            xml_escape(&s.submission),
            s.checks.len()
        );
        let _ = writeln!(
            out,
            "    <properties><property name=\"score\" value=\"{}\"/><property name=\"max_score\" value=\"{}\"/></properties>",
            fmt_points(s.score),
            fmt_points(s.max_score)
        );
        for c in &s.checks {
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\"",
                xml_escape(&s.submission),
                xml_escape(&c.name)
            );
            if c.passed {
                out.push_str("/>\n");
            } else {
                let first = c.output.lines().next().unwrap_or("failed");
                let _ = writeln!(
                    out,
                    ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>",
                    xml_escape(first),
                    xml_escape(&format!(
                        "{} of {} points\n{}",
                        fmt_points(c.score),
                        fmt_points(c.max_score),
                        c.output
                    ))
                );
            }
        }
        if !s.notes.is_empty() {
            let _ = writeln!(
                out,
                "    <system-out>{}</system-out>",
                xml_escape(&s.notes.join("\n"))
            );
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// `similarity.csv`: one row per suspicious pair.
pub fn similarity_csv(report: &BatchReport) -> String {
    let mut out =
        String::from("a,b,score,shared,a_fingerprints,b_fingerprints,a_lines,b_lines\r\n");
    for p in &report.similarity.pairs {
        let ranges = |side: &dyn Fn(&super::similarity::MatchRange) -> String| {
            p.matches.iter().map(side).collect::<Vec<_>>().join("; ")
        };
        let a = ranges(&|m| format!("{}:{}-{}", m.a.file, m.a.first, m.a.last));
        let b = ranges(&|m| format!("{}:{}-{}", m.b.file, m.b.first, m.b.last));
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{}\r\n",
            csv_field(&p.a),
            csv_field(&p.b),
            fmt_points(p.score),
            p.shared,
            p.a_fingerprints,
            p.b_fingerprints,
            csv_field(&a),
            csv_field(&b)
        );
    }
    out
}

/// Writes every report into `out`, replacing what an earlier batch wrote
/// there (see [`output`]); returns the files written.
pub fn write_reports(report: &BatchReport, out: &Path) -> Result<Vec<PathBuf>, GradeError> {
    write_reports_noting(report, out).map(|r| r.files)
}

/// The reports of a batch as (path relative to `--out`, text).
pub fn report_files(report: &BatchReport) -> Result<output::Files, GradeError> {
    let json = serde_json::to_string_pretty(report).map_err(|e| GradeError::Report {
        what: "report.json".into(),
        message: e.to_string(),
    })?;
    let mut files: output::Files = vec![
        ("grades.csv".into(), grades_csv(report)),
        ("report.json".into(), json + "\n"),
        ("report.html".into(), html::report_html(report)),
        ("junit.xml".into(), junit_xml(report)),
        ("similarity.csv".into(), similarity_csv(report)),
        ("similarity.html".into(), html::similarity_html(report)),
    ];
    for (s, folder) in report
        .submissions
        .iter()
        .zip(folder_names(&report.submissions))
    {
        files.push((
            format!("{folder}/{}", output::RESULTS_FILE),
            gradescope_json(s),
        ));
    }
    Ok(files)
}

/// [`write_reports`], also saying what it found of earlier batches in `out`
/// (stale results removed, an interrupted batch cleared up).
pub fn write_reports_noting(
    report: &BatchReport,
    out: &Path,
) -> Result<output::Replaced, GradeError> {
    output::replace_batch(out, &report_files(report)?)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::grade::assignment::Visibility;
    use crate::grade::frame::{Frame, Rect};
    use crate::grade::result::{CheckResult, LcdEvidence};
    use crate::grade::similarity::{LineRange, MatchRange, SimilarPair, SimilarityReport};

    /// A small synthetic batch used by the writer tests.
    pub(crate) fn sample() -> BatchReport {
        let check = |name: &str, score: f64, max: f64, vis, out: &str| CheckResult {
            name: name.into(),
            score,
            max_score: max,
            passed: score == max,
            visibility: vis,
            output: out.into(),
            lcd: None,
        };
        let mut failed_lcd = check(
            "start screen",
            0.0,
            2.0,
            Visibility::Visible,
            "LCD differs at 3 pixels, first at x=40, y=2 <here>",
        );
        failed_lcd.lcd = Some(LcdEvidence {
            actual: Frame::from_fn(|x, _| x == 40),
            expected: Frame::default(),
            region: Rect::FULL,
        });
        BatchReport {
            assignment: "viergewinnt".into(),
            title: "Vier Gewinnt".into(),
            check_names: vec![
                "assembles".into(),
                "start screen".into(),
                "games, hidden".into(),
            ],
            max_score: 5.0,
            submissions: vec![
                SubmissionResult {
                    submission: "alice".into(),
                    folder: String::new(),
                    score: 5.0,
                    max_score: 5.0,
                    status: SubmissionStatus::Graded,
                    notes: vec![],
                    checks: vec![
                        check("assembles", 1.0, 1.0, Visibility::Visible, "assembles"),
                        check("start screen", 2.0, 2.0, Visibility::Visible, "ok"),
                        check(
                            "games, hidden",
                            2.0,
                            2.0,
                            Visibility::Hidden,
                            "20 of 20 games",
                        ),
                    ],
                },
                SubmissionResult {
                    submission: "bob \"b\"".into(),
                    folder: String::new(),
                    score: 1.5,
                    max_score: 5.0,
                    status: SubmissionStatus::Graded,
                    notes: vec!["Viergewinnt.asm is not UTF-8".into()],
                    checks: vec![
                        check("assembles", 1.0, 1.0, Visibility::Visible, "assembles"),
                        failed_lcd,
                        check(
                            "games, hidden",
                            0.5,
                            2.0,
                            Visibility::Hidden,
                            "5 of 20 games & more",
                        ),
                    ],
                },
            ],
            similarity: SimilarityReport {
                identical: vec![],
                omitted_pairs: 0,
                options: None,
                pairs: vec![SimilarPair {
                    a: "alice".into(),
                    b: "bob \"b\"".into(),
                    score: 0.9,
                    shared: 30,
                    a_fingerprints: 33,
                    b_fingerprints: 31,
                    matches: vec![MatchRange {
                        a: LineRange {
                            file: "Logic.inc".into(),
                            first: 10,
                            last: 12,
                            text: "ldaa #1\nstaa <x>\nrts".into(),
                        },
                        b: LineRange {
                            file: "Logic.inc".into(),
                            first: 20,
                            last: 22,
                            text: "lda #1\nsta y\nrts".into(),
                        },
                        instructions: 3,
                    }],
                }],
            },
        }
    }

    #[test]
    fn csv_layout() {
        let csv = grades_csv(&sample());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "submission,score,max_score,assembles,start screen,\"games, hidden\",status,folder"
        );
        assert_eq!(lines[1], "alice,5,5,1,2,2,graded,alice");
        assert_eq!(lines[2], "\"bob \"\"b\"\"\",1.5,5,1,0,0.5,graded,bob__b_");
    }

    #[test]
    fn csv_cells_are_never_formulas() {
        assert_eq!(csv_field("=HYPERLINK(1)"), "\"'=HYPERLINK(1)\"");
        assert_eq!(csv_field("+1"), "\"'+1\"");
        assert_eq!(csv_field("-2+3"), "\"'-2+3\"");
        assert_eq!(csv_field("@SUM(A1)"), "\"'@SUM(A1)\"");
        assert_eq!(csv_field("\tx"), "\"'\tx\"");
        assert_eq!(csv_field("\r=1"), "\"'\r=1\"");
        assert_eq!(csv_field("=a,\"b\""), "\"'=a,\"\"b\"\"\"");
        assert_eq!(csv_field("anna"), "anna");
        assert_eq!(csv_field("a-b=c"), "a-b=c");
    }

    #[test]
    fn gradescope_shape() {
        let r = sample();
        let v: serde_json::Value =
            serde_json::from_str(&gradescope_json(&r.submissions[1])).unwrap();
        assert_eq!(v["score"], 1.5);
        assert_eq!(v["tests"].as_array().unwrap().len(), 3);
        assert_eq!(v["tests"][2]["visibility"], "hidden");
        assert_eq!(v["tests"][1]["max_score"], 2.0);
        assert_eq!(v["tests"][1]["status"], "failed");
        assert!(v["output"].as_str().unwrap().contains("UTF-8"));
    }

    #[test]
    fn junit_counts_and_escapes() {
        let x = junit_xml(&sample());
        assert!(x.contains("tests=\"6\" failures=\"2\" errors=\"0\""), "{x}");
        assert!(x.contains("name=\"bob &quot;b&quot;\""));
        assert!(x.contains("&lt;here&gt;"));
        assert!(!x.contains("<here>"));
    }

    #[test]
    fn similarity_csv_ranges() {
        let c = similarity_csv(&sample());
        assert!(c.contains("Logic.inc:10-12"), "{c}");
        assert!(c
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("alice,\"bob \"\"b\"\"\",0.9,30,33,31"));
    }

    #[test]
    fn summary() {
        assert_eq!(
            summary_line(&sample()),
            "graded 2 submission(s) for viergewinnt: mean 3.25 of 5, 1 with full marks, 0 rejected, 0 internal error(s); 1 suspicious pair(s)"
        );
    }

    #[test]
    fn writes_all_files() {
        let dir = std::env::temp_dir().join(format!("hc11lab-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let files = write_reports(&sample(), &dir).unwrap();
        for f in [
            "grades.csv",
            "report.json",
            "report.html",
            "junit.xml",
            "similarity.csv",
            "similarity.html",
            "alice/results.json",
            "bob__b_/results.json",
        ] {
            assert!(files.contains(&dir.join(f)), "{f} missing: {files:?}");
        }
        let back: BatchReport =
            serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap())
                .unwrap();
        assert_eq!(back, sample());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

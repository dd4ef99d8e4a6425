//! Gradescope's `results.json`, as its autograder specification lists
//! the fields: at the top `score`, `execution_time` (seconds), `output`
//! (here Markdown: `output_format` `md`), `visibility` and
//! `stdout_visibility`; per test `name`, `number`, `score`, `max_score`,
//! `status` (`passed`/`failed`), `output` (plain text), `visibility` (the
//! check's, so hidden checks stay hidden until the assignment says) and
//! `tags` (the kind of check).

use super::{fit, Budget};
use crate::grade::assignment::{Assignment, CheckKind};
use crate::grade::result::{fmt_points, SubmissionResult, SubmissionStatus};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// The kind of a check as a tag (`scenario`, `differential`, ...).
fn kind_tag(kind: &CheckKind) -> &'static str {
    match kind {
        CheckKind::Assembles => "assembles",
        CheckKind::Scenario(_) => "scenario",
        CheckKind::Differential(_) => "differential",
        CheckKind::Breakpoint(_) => "breakpoint",
        CheckKind::Games(_) => "games",
    }
}

/// Text for Markdown with the characters that would format it escaped;
/// backticks are kept (the grader's remarks quote code in them).
fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '!'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `results.json` for one graded submission. `assignment` adds each test's
/// tag (its kind), `seconds` the `execution_time`.
pub fn results_json(
    result: &SubmissionResult,
    assignment: Option<&Assignment>,
    seconds: Option<f64>,
) -> String {
    results_json_with_errors(result, assignment, seconds, &[])
}

/// [`results_json`] for a submission that does not assemble: the
/// assembler's errors (`file:line: message`) head the output.
pub fn results_json_with_errors(
    result: &SubmissionResult,
    assignment: Option<&Assignment>,
    seconds: Option<f64>,
    format_errors: &[String],
) -> String {
    let build = |b: Budget| {
        let mut output = String::new();
        match &result.status {
            SubmissionStatus::Graded => {
                let _ = writeln!(
                    output,
                    "**{} of {} points**",
                    fmt_points(result.score),
                    fmt_points(result.max_score)
                );
            }
            SubmissionStatus::Rejected(m) => {
                let _ = writeln!(
                    output,
                    "**Your submission could not be graded:** {}",
                    md(&b.cut(m))
                );
            }
            SubmissionStatus::InternalError(m) => {
                let _ = writeln!(
                    output,
                    "**The grader failed on your submission** (not your fault; staff have been told): {}",
                    md(&b.cut(m))
                );
            }
        }
        if !format_errors.is_empty() {
            output.push_str("\nYour program does not assemble:\n\n```\n");
            for e in b.list(format_errors) {
                output.push_str(&e.replace("```", "'''"));
                output.push('\n');
            }
            output.push_str("```\n");
        }
        let notes = b.list(&result.notes);
        if !notes.is_empty() {
            output.push('\n');
            for n in notes {
                let _ = writeln!(output, "- {}", md(&n));
            }
        }
        let tests: Vec<Value> = result
            .checks
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut t = json!({
                    "name": c.name,
                    "number": (i + 1).to_string(),
                    "score": c.score,
                    "max_score": c.max_score,
                    "status": if c.passed { "passed" } else { "failed" },
                    "output": b.cut(&c.output),
                    "visibility": c.visibility.as_str(),
                });
                let kind = assignment
                    .and_then(|a| a.checks.iter().find(|k| k.name == c.name))
                    .map(|k| kind_tag(&k.kind));
                if let Some(tag) = kind {
                    t["tags"] = json!([tag]);
                }
                t
            })
            .collect();
        let mut doc = json!({
            "score": result.score,
            "output": output,
            "output_format": "md",
            "visibility": "visible",
            "stdout_visibility": "hidden",
            "tests": tests,
        });
        if let Some(s) = seconds {
            // Whole seconds, as the specification's example gives them.
            doc["execution_time"] = json!(s.ceil() as u64);
        }
        doc
    };
    fit(
        build,
        &format!(
            "{{\"score\": {}, \"output\": \"The results were too large to report.\"}}\n",
            result.score
        ),
    )
}

/// `results.json` for a course that could not be graded at all (its
/// assignment or reference broken): no points, and the reason.
pub fn course_error(why: &str) -> String {
    let b = Budget {
        text: Some(20_000),
        items: 0,
        images: false,
    };
    serde_json::to_string_pretty(&json!({
        "score": 0.0,
        "output": format!(
            "**The autograder is not set up correctly** (not your fault; tell the course staff):\n\n```\n{}\n```\n",
            b.cut(why)
        ),
        "output_format": "md",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": [],
    }))
    .unwrap_or_default()
        + "\n"
}

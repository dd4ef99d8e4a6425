//! PrairieLearn's external grader `results.json`: `gradable`, `score` as
//! a fraction from 0 to 1, `message`, `output`, `format_errors` (a
//! submission that cannot be graded: `gradable` false, so the student is
//! not charged an attempt), `tests` (`name`, `description`, `points`,
//! `max_points`, `message`, `output`) and `images` (`label`, `url` as a
//! `data:` URL): for a failed LCD check the student's LCD and the expected
//! one. PrairieLearn has no visibility per test, so checks that are not
//! `visible` show their points but not their output.

use super::{fit, Budget};
use crate::grade::assignment::{Assignment, Check, CheckKind};
use crate::grade::result::{fmt_points, SubmissionResult, SubmissionStatus};
use base64::Engine as _;
use serde_json::{json, Value};

/// What a check does, in a line (PrairieLearn shows it under the name).
fn description(check: &Check) -> String {
    match &check.kind {
        CheckKind::Assembles => "the program assembles without errors".into(),
        CheckKind::Scenario(s) if s.keys.is_empty() => {
            "after reset, without keys: LCD, memory and registers as expected".into()
        }
        CheckKind::Scenario(s) => {
            let keys: Vec<&str> = s.keys.split(',').collect();
            if keys.len() <= 8 {
                format!("after the keys `{}`: LCD, memory and registers as expected", s.keys)
            } else {
                format!(
                    "after {} keys (`{},...`): LCD, memory and registers as expected",
                    keys.len(),
                    keys[..6].join(",")
                )
            }
        }
        CheckKind::Differential(d) => format!(
            "{} random games (seed {}), played on your program and on the reference solution: the same after every move",
            d.games, d.seed
        ),
        CheckKind::Breakpoint(b) => format!("stopped at the breakpoint `{}`", b.at),
        CheckKind::Games(g) => format!("{} random games, every move checked", g.games),
    }
}

/// A PNG as a `data:` URL.
fn data_url(png: &[u8]) -> String {
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

/// `results.json` for one submission. `format_errors` are the assembler's
/// errors (`file:line: message`) of a submission that does not assemble:
/// with them, or when the submission could not be read, it is not gradable.
pub fn results_json(
    result: &SubmissionResult,
    assignment: &Assignment,
    format_errors: &[String],
) -> String {
    // What a student may see: output of checks that are not visible is
    // replaced; PrairieLearn has no due-date visibility to wait for.
    let shown = result.student_view(false, false);
    let graded = matches!(shown.status, SubmissionStatus::Graded);
    let gradable = graded && format_errors.is_empty();
    let build = |b: Budget| {
        let message = match &shown.status {
            SubmissionStatus::Graded if gradable => format!(
                "{} of {} points",
                fmt_points(shown.score),
                fmt_points(shown.max_score)
            ),
            SubmissionStatus::Graded => {
                "Your program does not assemble: fix the errors listed, then submit again (this submission does not count)."
                    .into()
            }
            SubmissionStatus::Rejected(m) => format!(
                "Your submission could not be graded (it does not count): {}",
                b.cut(m)
            ),
            SubmissionStatus::InternalError(m) => format!(
                "The grader failed on your submission (not your fault; it does not count; tell the course staff): {}",
                b.cut(m)
            ),
        };
        let mut output = String::new();
        for n in b.list(&shown.notes) {
            output.push_str("Note: ");
            output.push_str(&n);
            output.push('\n');
        }
        let mut images = Vec::new();
        let tests: Vec<Value> = shown
            .checks
            .iter()
            .map(|c| {
                let check = assignment.checks.iter().find(|k| k.name == c.name);
                if let (Some(lcd), true) = (&c.lcd, b.images) {
                    images.push(json!({
                        "label": format!("{}: your LCD", c.name),
                        "url": data_url(&crate::grade::png::frame_png(&lcd.actual)),
                    }));
                    images.push(json!({
                        "label": format!("{}: expected", c.name),
                        "url": data_url(&crate::grade::png::frame_png(&lcd.expected)),
                    }));
                }
                json!({
                    "name": c.name,
                    "description": check.map(description).unwrap_or_default(),
                    "points": c.score,
                    "max_points": c.max_score,
                    "message": b.cut(c.output.lines().next().unwrap_or_default()),
                    "output": b.cut(&c.output),
                })
            })
            .collect();
        let mut doc = json!({
            "gradable": gradable,
            "message": message,
            "output": output,
            "tests": tests,
            "images": images,
        });
        if gradable {
            let fraction = if shown.max_score > 0.0 {
                (shown.score / shown.max_score).clamp(0.0, 1.0)
            } else {
                0.0
            };
            doc["score"] = json!(fraction);
        } else {
            let errors = if format_errors.is_empty() {
                vec![message.clone()]
            } else {
                b.list(format_errors)
            };
            doc["format_errors"] = json!(errors);
        }
        doc
    };
    let last = if gradable {
        format!(
            "{{\"gradable\": true, \"score\": {}, \"message\": \"The results were too large to report.\"}}\n",
            if shown.max_score > 0.0 { shown.score / shown.max_score } else { 0.0 }
        )
    } else {
        "{\"gradable\": false, \"format_errors\": [\"The results were too large to report.\"]}\n"
            .into()
    };
    fit(build, &last)
}

/// `results.json` for a course that could not be graded at all: not
/// gradable (the student is not charged), with the reason.
pub fn course_error(why: &str) -> String {
    let b = Budget {
        text: Some(20_000),
        items: 0,
        images: false,
    };
    let message = format!(
        "The autograder is not set up correctly (not your fault; this submission does not count; tell the course staff): {}",
        b.cut(why)
    );
    serde_json::to_string_pretty(&json!({
        "gradable": false,
        "message": message,
        "format_errors": [message],
        "output": "",
        "tests": [],
    }))
    .unwrap_or_default()
        + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::report::tests::sample;

    fn assignment() -> Assignment {
        let toml = "[assignment]\nid = \"t\"\ntitle = \"t\"\nentry = \"Main.asm\"\n\n[[check]]\nname = \"assembles\"\nkind = \"assembles\"\npoints = 1\n";
        Assignment::from_toml(toml, std::path::Path::new(".")).unwrap()
    }

    /// The score is a fraction, hidden checks keep their points but not
    /// their output, and a failed LCD check brings both pictures.
    #[test]
    fn fields_scores_and_hidden_checks() {
        let bob = &sample().submissions[1];
        let v: Value = serde_json::from_str(&results_json(bob, &assignment(), &[])).unwrap();
        assert_eq!(v["gradable"], true);
        assert_eq!(v["score"], 0.3);
        assert_eq!(
            v["tests"][0]["description"],
            "the program assembles without errors"
        );
        assert_eq!(v["tests"][2]["output"], "(hidden)");
        assert_eq!(v["tests"][2]["points"], 0.5);
        let images = v["images"].as_array().unwrap();
        assert_eq!(images.len(), 2);
        assert_eq!(images[0]["label"], "start screen: your LCD");
        assert_eq!(images[1]["label"], "start screen: expected");
        assert!(v["output"].as_str().unwrap().contains("UTF-8"));
        // Not assembling: not gradable, the errors listed, no score.
        let errors = ["Main.asm:3: unknown mnemonic `ldx`".to_string()];
        let v: Value = serde_json::from_str(&results_json(bob, &assignment(), &errors)).unwrap();
        assert_eq!(v["gradable"], false);
        assert_eq!(v["format_errors"][0], errors[0]);
        assert!(v.get("score").is_none());
    }

    /// Student text of any size still gives a file within 1 MB, cut with a note.
    #[test]
    fn huge_output_is_cut_to_one_megabyte() {
        let mut r = sample().submissions[1].clone();
        r.checks[0].output = "x".repeat(3 << 20);
        r.notes = vec!["n".repeat(1000); 5000];
        let json = results_json(&r, &assignment(), &[]);
        assert!(
            json.len() <= super::super::MAX_RESULTS_BYTES,
            "{}",
            json.len()
        );
        let v: Value = serde_json::from_str(&json).unwrap();
        assert!(v["tests"][0]["output"]
            .as_str()
            .unwrap()
            .contains("cut: results.json"));
        assert_eq!(v["score"], 0.3);
        let gs = crate::grade::autograder::gradescope::results_json(&r, None, Some(0.2));
        assert!(gs.len() <= super::super::MAX_RESULTS_BYTES, "{}", gs.len());
        let v: Value = serde_json::from_str(&gs).unwrap();
        assert_eq!(v["execution_time"], 1);
        assert_eq!(v["score"], 1.5);
    }
}

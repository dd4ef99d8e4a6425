//! `hc11lab grade --gradescope`: one submission graded in place, results in
//! Gradescope's `results.json` format; a broken submission still gets a file.

use hc11lab::grade::assignment::CheckKind;
use hc11lab::grade::run_gradescope;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A trimmed copy of the base assignment (three checks) in a temp folder, so
/// the test runs in seconds (the reference is the bundled firmware).
fn small_assignment(dir: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(root().join("lessons/viergewinnt/assignment.toml")).unwrap();
    let mut out = String::new();
    let mut checks = 0;
    for block in text.split("\n[[check]]") {
        if out.is_empty() {
            out.push_str(block);
            continue;
        }
        // assembles, start screen, player 1 wins vertically
        let keep = block.contains("name = \"assembles\"")
            || block.contains("name = \"start screen\"")
            || block.contains("name = \"player 1 wins vertically\"");
        if keep {
            checks += 1;
            out.push_str("\n[[check]]");
            out.push_str(block);
        }
    }
    assert_eq!(checks, 3);
    let a = dir.join("assignment");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::write(a.join("assignment.toml"), out).unwrap();
    let parsed = hc11lab::grade::Assignment::load(&a).unwrap();
    assert!(parsed
        .checks
        .iter()
        .all(|c| !matches!(c.kind, CheckKind::Differential(_))));
    a
}

#[test]
fn gradescope_results_for_good_and_broken_submissions() {
    let tmp = std::env::temp_dir().join(format!("hc11lab-gradescope-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let assignment = small_assignment(&tmp);

    let results = tmp.join("results/results.json");
    let r = run_gradescope(
        &assignment,
        &root().join("tests/grade_corpus/restyled"),
        &results,
    )
    .unwrap();
    assert_eq!(r.score, 8.0);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(v["score"], 8.0);
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 3);
    for t in tests {
        assert_eq!(t["score"], t["max_score"]);
        assert_eq!(t["visibility"], "visible");
        assert_eq!(t["status"], "passed");
    }

    let empty = tmp.join("empty_submission");
    std::fs::create_dir_all(&empty).unwrap();
    let r = run_gradescope(&assignment, &empty, &results).unwrap();
    assert_eq!(r.score, 0.0);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(v["score"], 0.0);
    assert!(
        v["output"]
            .as_str()
            .unwrap()
            .contains("Viergewinnt.asm is missing"),
        "{v}"
    );
    assert_eq!(v["tests"].as_array().unwrap().len(), 3);
    let _ = std::fs::remove_dir_all(&tmp);
}

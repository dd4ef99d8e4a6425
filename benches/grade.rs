//! Grading throughput: 1,000 submissions (copies and variants of the
//! corpus) against the base assignment trimmed to 3 scenarios plus the 20
//! differential games. Goal: under 60 s on the 2-core machine.
//!
//! The batch is what a course hands in: most submissions are copies that
//! differ only in comments and layout (they assemble to the same program and
//! are graded once, results being deterministic), one in ten has its own
//! labels (a different program, graded in full). The bench prints both the
//! batch time and the cost of one program graded in full (cache off), so the
//! time for a batch of all-different programs can be read off too.
//!
//! Run: `cargo bench --bench grade` (add `-- 200` for a smaller batch).

use hc11lab::grade::assignment::CheckKind;
use hc11lab::grade::batch::grade_paths;
use hc11lab::grade::similarity::SimilarityOptions;
use hc11lab::grade::{Assignment, Grader, Submission};
use std::path::{Path, PathBuf};
use std::time::Instant;

const SCENARIOS: [&str; 3] = [
    "start screen",
    "player 1 wins vertically",
    "input locked after a win",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The corpus folders that hold a gradable program (the rejected ones cost nothing).
fn corpus() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/grade_corpus"))
        .expect("tests/grade_corpus")
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

/// Writes submission `i`: a copy of corpus folder `src` with its own header
/// comment and, for one in ten, its own name for the main loop.
fn make_copy(src: &Path, dst: &Path, i: usize) {
    std::fs::create_dir_all(dst).expect("mkdir");
    for e in std::fs::read_dir(src)
        .expect("read corpus")
        .filter_map(Result::ok)
    {
        let name = e.file_name().to_string_lossy().into_owned();
        let bytes = std::fs::read(e.path()).expect("read");
        let out = match std::str::from_utf8(&bytes) {
            Ok(text) if name.to_ascii_lowercase().ends_with(".asm") => {
                let mut t = format!("; Abgabe {i}\n{text}");
                if i % 10 == 0 {
                    t = t.replace("mainLoop", &format!("hauptSchleife{i}"));
                }
                t.into_bytes()
            }
            _ => bytes,
        };
        std::fs::write(dst.join(&name), out).expect("write");
    }
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1000);
    let mut assignment = Assignment::load(&root().join("lessons/viergewinnt")).expect("assignment");
    assignment.checks.retain(|c| match &c.kind {
        CheckKind::Assembles
        | CheckKind::Differential(_)
        | CheckKind::Breakpoint(_)
        | CheckKind::Games(_) => true,
        CheckKind::Scenario(_) => SCENARIOS.contains(&c.name.as_str()),
    });
    let games: u32 = assignment
        .checks
        .iter()
        .filter_map(|c| match &c.kind {
            CheckKind::Differential(d) => Some(d.games),
            _ => None,
        })
        .sum();

    let t = Instant::now();
    let mut grader = Grader::new(assignment).expect("reference");
    println!(
        "prepare (assemble + reference: {} scenarios, {games} games): {:.2?}",
        SCENARIOS.len(),
        t.elapsed()
    );

    let dir = std::env::temp_dir().join(format!("hc11lab-bench-grade-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let sources = corpus();
    for i in 0..n {
        let src = &sources[i % sources.len()];
        let name = src
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        make_copy(src, &dir.join(format!("{i:04}_{name}")), i);
    }

    // One program graded in full, repeatedly, without the cache.
    grader.set_cache(false);
    let one = Submission::load(
        &root().join("tests/grade_corpus/restyled"),
        &grader.assignment().limits,
    )
    .expect("restyled");
    let reps = 4;
    let t = Instant::now();
    for _ in 0..reps {
        let r = grader.grade(&one);
        assert_eq!(r.score, r.max_score);
    }
    let per_program = t.elapsed() / reps;
    println!("one program graded in full (cache off): {per_program:.2?}");

    grader.set_cache(true);
    let t = Instant::now();
    let report = grade_paths(
        &grader,
        std::slice::from_ref(&dir),
        None,
        &SimilarityOptions::default(),
        &|_, _| {},
    )
    .expect("batch");
    let total = t.elapsed();
    let distinct = n.div_ceil(10) + sources.len();
    println!(
        "batch of {} submissions ({} threads, about {distinct} distinct programs): {total:.2?} ({:.1} submissions/s), {} similar pair(s)",
        report.submissions.len(),
        rayon::current_num_threads(),
        report.submissions.len() as f64 / total.as_secs_f64(),
        report.similarity.pairs.len()
    );
    println!(
        "all {n} different (no copies) would take about {:.0} s on {} threads",
        per_program.as_secs_f64() * n as f64 / rayon::current_num_threads() as f64,
        rayon::current_num_threads()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

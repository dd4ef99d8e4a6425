//! Grading throughput on what a class hands in: N *distinct* submissions
//! (default 100; `-- 1000` for a whole class), each the bundled firmware
//! with its own number of NOPs after `Start` (so every one assembles to a
//! different program and is graded in full: the result cache never hits),
//! against the base assignment trimmed to 3 scenarios plus the 20
//! differential games. Goal: at most 0.12 CPU-seconds per
//! distinct submission, i.e. 1,000 in under 60 s on 2 cores.
//!
//! Prints the wall time, the process's CPU time (all threads, from
//! /proc/self/stat) and both per submission. Run:
//! `cargo bench --no-default-features --bench grade -- 1000`.

use hc11lab::grade::assignment::CheckKind;
use hc11lab::grade::batch::grade_paths;
use hc11lab::grade::similarity::SimilarityOptions;
use hc11lab::grade::{Assignment, Grader, Submission};
use std::path::Path;
use std::time::Instant;

const SCENARIOS: [&str; 3] = [
    "start screen",
    "player 1 wins vertically",
    "input locked after a win",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The process's CPU time (user + system, all threads) in seconds, if the
/// kernel tells (Linux `/proc/self/stat`, in clock ticks of 1/100 s).
fn process_cpu_secs() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name in parentheses; utime and stime are
    // fields 14 and 15 of the whole line.
    let rest = s.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// Writes submission `i`: the firmware sources with `i` NOPs after the
/// stack set-up in `Start` (run once per reset: the game plays the same,
/// the bytes differ).
fn make_variant(dst: &Path, i: usize) {
    std::fs::create_dir_all(dst).expect("mkdir");
    let firmware = root().join("firmware");
    for e in std::fs::read_dir(&firmware)
        .expect("read firmware")
        .filter_map(Result::ok)
    {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".asm") && !name.ends_with(".inc") {
            continue;
        }
        let bytes = std::fs::read(e.path()).expect("read");
        let out = if name == "Viergewinnt.asm" {
            let text = String::from_utf8_lossy(&bytes);
            let anchor = "lds     #$3FFF";
            let at = text.find(anchor).expect("Start in Viergewinnt.asm");
            let line_end = at + text[at..].find('\n').expect("end of line");
            let nops = "        nop\n".repeat(i);
            format!("{}\n{nops}{}", &text[..line_end], &text[line_end + 1..]).into_bytes()
        } else {
            bytes
        };
        std::fs::write(dst.join(&name), out).expect("write");
    }
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(100);
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
    for i in 0..n {
        make_variant(&dir.join(format!("student {i:04}")), i);
    }

    // One program graded in full, repeatedly, without the cache.
    grader.set_cache(false);
    let one = Submission::load(&dir.join("student 0001"), &grader.assignment().limits)
        .expect("variant 1");
    let reps = 3;
    let t = Instant::now();
    for _ in 0..reps {
        let r = grader.grade(&one);
        assert_eq!(r.score, r.max_score, "a NOP variant scores full marks");
    }
    let per_program = t.elapsed() / reps;
    println!("one program graded in full: {per_program:.2?}");

    // The batch: every submission distinct, so the cache cannot help.
    grader.set_cache(true);
    let cpu0 = process_cpu_secs();
    let t = Instant::now();
    let report = grade_paths(
        &grader,
        std::slice::from_ref(&dir),
        None,
        &SimilarityOptions::default(),
        &|_, _| {},
    )
    .expect("batch");
    let wall = t.elapsed().as_secs_f64();
    let full = report
        .submissions
        .iter()
        .filter(|r| r.score == r.max_score)
        .count();
    let count = report.submissions.len();
    println!(
        "batch of {count} distinct submissions ({} threads): {wall:.2} s wall, {:.3} s wall per submission, {full} with full marks",
        rayon::current_num_threads(),
        wall / count as f64,
    );
    if let (Some(a), Some(b)) = (cpu0, process_cpu_secs()) {
        let cpu = b - a;
        println!(
            "CPU time {cpu:.2} s: {:.3} CPU-s per distinct submission (goal 0.12); 1,000 would take about {:.0} s on 2 cores",
            cpu / count as f64,
            cpu / count as f64 * 1000.0 / 2.0
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

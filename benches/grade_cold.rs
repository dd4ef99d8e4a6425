//! Grading one submission from a cold process, as a course platform does
//! it (one container per submission): `hc11lab grade --platform gradescope`
//! on the base assignment (all 14 checks, the reference the bundled
//! firmware), a full-marks submission, the results file written. Goal:
//! under 0.3 s wall on one core.
//!
//! Measured twice: without a prepared reference (the process runs the
//! reference through every check, then the submission) and with one
//! (`grade --prepare` wrote `reference.prepared` beside assignment.toml, as
//! `setup.sh` does when Gradescope builds the image). Prints the median and
//! fastest wall time per grading and the CPU time of the graders (user +
//! system of all their threads, from this process's /proc/self/stat
//! children fields, 10 ms ticks). Pin to one core for the goal's setting:
//! `cargo bench --no-default-features --bench grade_cold --no-run`, then
//! `taskset -c 1 cargo bench --no-default-features --bench grade_cold -- 20`.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// CPU seconds (user + system) of this process's waited-for children.
fn children_cpu_secs() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let f: Vec<&str> = s.rsplit_once(')')?.1.split_whitespace().collect();
    // cutime and cstime are fields 16 and 17 of the line.
    let cu: f64 = f.get(13)?.parse().ok()?;
    let cs: f64 = f.get(14)?.parse().ok()?;
    Some((cu + cs) / 100.0)
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from)
        .expect("read_dir")
        .filter_map(Result::ok)
    {
        let p = e.path();
        if p.is_dir() {
            copy_tree(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

/// `runs` cold gradings; (median wall, fastest wall, CPU per grading).
fn measure(assignment: &Path, platform_root: &Path, runs: usize) -> (Duration, Duration, f64) {
    let mut walls = Vec::new();
    let cpu_before = children_cpu_secs().unwrap_or(0.0);
    for _ in 0..runs {
        let t = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
            .args(["grade", "--platform", "gradescope", "--platform-root"])
            .arg(platform_root)
            .arg("--assignment")
            .arg(assignment)
            .output()
            .expect("run hc11lab");
        walls.push(t.elapsed());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.starts_with("50 of 50 points"), "{text}");
    }
    let cpu = children_cpu_secs().unwrap_or(0.0) - cpu_before;
    walls.sort();
    (walls[walls.len() / 2], walls[0], cpu / runs as f64)
}

fn main() {
    let runs: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10);
    let tmp = std::env::temp_dir().join(format!("hc11lab-bench-cold-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let assignment = tmp.join("viergewinnt");
    std::fs::create_dir_all(&assignment).expect("mkdir");
    std::fs::copy(
        root().join("lessons/viergewinnt/assignment.toml"),
        assignment.join("assignment.toml"),
    )
    .expect("assignment.toml");
    copy_tree(
        &root().join("tests/grade_corpus/restyled"),
        &tmp.join("autograder/submission"),
    );
    println!(
        "cores this process may use: {}",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    let (median, fastest, cpu) = measure(&assignment, &tmp, runs);
    println!(
        "cold grading, reference run in the process: median {median:.2?}, fastest {fastest:.2?}, CPU {cpu:.3} s per grading ({runs} runs)"
    );

    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["grade", "--prepare", "--assignment"])
        .arg(&assignment)
        .output()
        .expect("run hc11lab --prepare");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (median, fastest, cpu) = measure(&assignment, &tmp, runs);
    println!(
        "cold grading, prepared reference:         median {median:.2?}, fastest {fastest:.2?}, CPU {cpu:.3} s per grading ({runs} runs)"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

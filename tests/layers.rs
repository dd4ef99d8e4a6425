//! The layers of the code, read from the sources: a module below never
//! names one above it. Lessons build on grading, the debugger on the
//! machine, everything on the core; the fast-forward family imports one
//! way (the shared vocabulary in `machine/skip.rs` below, the strategies
//! above it). A change that makes a lower layer reach up fails here with
//! the file and line.

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir` (recursively), or `dir` itself if it is one.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if dir.is_file() {
        out.push(dir.to_path_buf());
        return out;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(sources(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out
}

/// The lines of the files in `roots` that name any of `forbidden` in code
/// (comments and doc comments are left out: they may point upwards).
fn offences(roots: &[&str], forbidden: &[&str]) -> Vec<String> {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for root in roots {
        let files = sources(&top.join(root));
        assert!(!files.is_empty(), "{root}: no sources found");
        for file in files {
            let text = fs::read_to_string(&file).expect("source is text");
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for f in forbidden {
                    if code.contains(f) {
                        found.push(format!(
                            "{}:{}: names `{f}`: {}",
                            file.strip_prefix(top).unwrap_or(&file).display(),
                            i + 1,
                            line.trim()
                        ));
                    }
                }
            }
        }
    }
    found
}

fn assert_none(roots: &[&str], forbidden: &[&str]) {
    let found = offences(roots, forbidden);
    assert!(found.is_empty(), "layer rule broken:\n{}", found.join("\n"));
}

#[test]
fn grading_knows_nothing_of_lessons_or_the_window() {
    assert_none(
        &["src/grade.rs", "src/grade"],
        &["crate::lesson", "crate::ui", "egui", "eframe"],
    );
}

#[test]
fn the_core_knows_nothing_above_it() {
    assert_none(
        &[
            "src/cpu.rs",
            "src/cpu",
            "src/asm.rs",
            "src/asm",
            "src/image.rs",
            "src/image",
            "src/board.rs",
            "src/board",
        ],
        &[
            "crate::machine",
            "crate::debug",
            "crate::grade",
            "crate::lesson",
            "crate::ui",
            "crate::dap",
        ],
    );
}

#[test]
fn the_machine_knows_nothing_of_the_debugger_or_the_course() {
    assert_none(
        &["src/machine.rs", "src/machine"],
        &[
            "crate::debug",
            "crate::grade",
            "crate::lesson",
            "crate::ui",
            "crate::dap",
        ],
    );
}

#[test]
fn the_debugger_and_the_adapter_know_nothing_of_the_window() {
    assert_none(
        &["src/debug.rs", "src/debug", "src/dap.rs", "src/dap"],
        &["crate::ui", "egui", "eframe"],
    );
}

#[test]
fn the_fast_forward_family_imports_one_way() {
    // The shared vocabulary names no strategy.
    assert_none(
        &["src/machine/skip.rs"],
        &["poll::", "counted::", "fastforward::", "hooked::"],
    );
    // The strategies name neither each other's driver nor the hooked run.
    assert_none(
        &[
            "src/machine/poll.rs",
            "src/machine/counted.rs",
            "src/machine/counted",
        ],
        &["fastforward::", "hooked::"],
    );
}

//! Golden tests of the assembler's text outputs: the listing, symbol file and
//! disassembly of a small program, and the rendered diagnostics of a set of
//! broken sources (`tests/golden/asm/broken/<case>/`). Re-record with
//! `UPDATE_GOLDEN=1 cargo test --test asm_golden` and review the diff.

use hc11lab::asm::{assemble_with, disassemble, listing, symbol_file, AsmOptions, MemoryFiles};
use std::path::{Path, PathBuf};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/asm")
}

/// Compares `actual` with the golden file, or writes it with UPDATE_GOLDEN=1.
fn check_golden(path: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, actual).expect("write golden file");
        return None;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    let first = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(expected.lines().count().min(actual.lines().count()));
    Some(format!(
        "{} differs from line {}:\n  expected: {:?}\n  actual:   {:?}\n(re-record with UPDATE_GOLDEN=1)",
        path.display(),
        first + 1,
        expected.lines().nth(first).unwrap_or("<end>"),
        actual.lines().nth(first).unwrap_or("<end>")
    ))
}

/// Every file under `dir`, keyed by its path relative to `dir`.
fn load_dir(dir: &Path) -> (MemoryFiles, Vec<PathBuf>) {
    let mut files = MemoryFiles::new();
    let mut names = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).expect("case folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("inside").to_path_buf();
                files.insert(&rel, std::fs::read(&p).expect("case file"));
                names.push(rel);
            }
        }
    }
    (files, names)
}

#[test]
fn listing_symbols_and_disassembly_of_a_small_program() {
    let (files, _) = load_dir(&golden_dir().join("small"));
    let asm = assemble_with(Path::new("main.asm"), &files, &AsmOptions::default());
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    let program = asm.program.as_ref().expect("program");
    let problems: Vec<String> = [
        ("small.lst", listing(&asm)),
        ("small.sym", symbol_file(program)),
        ("small.dis", disassemble(program)),
    ]
    .iter()
    .filter_map(|(name, text)| check_golden(&golden_dir().join(name), text))
    .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn rendered_diagnostics_of_broken_sources() {
    let root = golden_dir().join("broken");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("broken cases")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 11);
    let mut problems = Vec::new();
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let (mut files, names) = load_dir(&case);
        let mut opts = AsmOptions::default();
        match name.as_str() {
            "binary_file" => files.insert(
                "logo.bin",
                b"\x7fELF\x01\x01\x01\x00\x00\x00\xff\xfe".to_vec(),
            ),
            "too_large" => {
                opts.max_file_size = 4096;
                files.insert("big.inc", "; padding\n".repeat(500));
            }
            _ => {}
        }
        let main = names
            .iter()
            .find(|n| n.file_name().is_some_and(|f| f == "main.asm"))
            .expect("main.asm in every case")
            .clone();
        let asm = assemble_with(&main, &files, &opts);
        assert!(asm.has_errors(), "{name}: no error");
        assert!(asm.program.is_none(), "{name}: a program despite errors");
        let out = asm.render_diagnostics();
        if let Some(p) = check_golden(&root.join(format!("{name}.txt")), &out) {
            problems.push(p);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

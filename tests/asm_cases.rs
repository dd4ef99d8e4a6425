//! Runs every `tests/asm/*.asm` case and checks its inline expectations:
//! `; => 86 41` (the bytes of the line; `; =>` alone: no bytes),
//! `; error[E0003]` or `; error[E0003]: text` (a diagnostic with that code on
//! the line whose message contains the text), `; warning[W0001]...`.
//! Every diagnostic must be expected; all mismatches are reported together.

use hc11lab::asm::diagnostics::line_col;
use hc11lab::asm::{assemble_source, AsmOptions, Severity};
use std::collections::HashMap;
use std::path::Path;

enum Expect {
    Bytes(Vec<u8>),
    Diag(Severity, String, String),
}

fn parse_expectation(line: &str) -> Option<Expect> {
    if line.starts_with('*') {
        return None; // documentation lines of the case
    }
    if let Some(i) = line.rfind("; =>") {
        let hex = line[i + 4..].trim();
        if hex.starts_with("no bytes") {
            return Some(Expect::Bytes(Vec::new()));
        }
        let bytes = hex
            .split_whitespace()
            .map(|h| {
                u8::from_str_radix(h, 16).unwrap_or_else(|_| panic!("bad hex `{h}` in `{line}`"))
            })
            .collect();
        return Some(Expect::Bytes(bytes));
    }
    for (tag, sev) in [
        ("; error[", Severity::Error),
        ("; warning[", Severity::Warning),
    ] {
        if let Some(i) = line.rfind(tag) {
            let rest = &line[i + tag.len()..];
            let close = rest.find(']').expect("closing ] of the code");
            let code = rest[..close].to_string();
            let text = rest[close + 1..].trim_start_matches(':').trim().to_string();
            return Some(Expect::Diag(sev, code, text));
        }
    }
    None
}

fn check_case(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("readable case");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let asm = assemble_source(&name, &text, &AsmOptions::default());
    let mut problems = Vec::new();
    let mut bytes_by_line: HashMap<u32, Vec<u8>> = HashMap::new();
    for l in asm.listing.iter().filter(|l| l.file == 0) {
        bytes_by_line.entry(l.line).or_default().extend(&l.bytes);
    }
    let mut diags_by_line: HashMap<u32, Vec<(usize, bool)>> = HashMap::new();
    for (i, d) in asm.diagnostics.iter().enumerate() {
        let line = d.span.map_or(0, |s| line_col(&text, s.start as usize).0);
        diags_by_line.entry(line).or_default().push((i, false));
    }
    for (n, line) in text.lines().enumerate() {
        let n = n as u32 + 1;
        match parse_expectation(line) {
            Some(Expect::Bytes(want)) => {
                let got = bytes_by_line.get(&n).cloned().unwrap_or_default();
                if got != want {
                    problems.push(format!(
                        "{name}:{n}: bytes {got:02X?}, expected {want:02X?}: {line}"
                    ));
                }
            }
            Some(Expect::Diag(sev, code, msg)) => {
                let found = diags_by_line.get_mut(&n).and_then(|v| {
                    v.iter_mut().find(|(i, used)| {
                        let d = &asm.diagnostics[*i];
                        !*used
                            && d.severity == sev
                            && d.code.as_str() == code
                            && d.message.contains(&msg)
                    })
                });
                match found {
                    Some(entry) => entry.1 = true,
                    None => problems.push(format!(
                        "{name}:{n}: expected {sev}[{code}] `{msg}`: {line}"
                    )),
                }
            }
            None => {}
        }
    }
    for (line, list) in &diags_by_line {
        for (i, used) in list {
            if !used {
                let d = &asm.diagnostics[*i];
                problems.push(format!(
                    "{name}:{line}: unexpected {}[{}]: {}",
                    d.severity,
                    d.code.as_str(),
                    d.message
                ));
            }
        }
    }
    problems
}

#[test]
fn inline_expectations_of_every_case_hold() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/asm");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/asm exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 4, "cases missing in {}", dir.display());
    let problems: Vec<String> = cases.iter().flat_map(|c| check_case(c)).collect();
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

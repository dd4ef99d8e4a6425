//! Running the hc11lab binary on the EVB test programs (tests/data/evb),
//! for the EVB monitor's and the ACIA's tests.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

/// `hc11lab ARGS`, its output kept.
pub fn hc11lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(args)
        .output()
        .expect("run hc11lab")
}

/// The path of `name` in tests/data/evb.
pub fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/evb")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The run's `--json` report.
pub fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

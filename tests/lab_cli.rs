//! `hc11lab run` with the lab bench options: `--analog`,
//! `--signal`, `--trace-pin` edges in `--json`, and clear usage errors.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn lab(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/lab")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .arg("run")
        .args(args)
        .output()
        .expect("hc11lab starts");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn analog_option_reaches_the_converter() {
    let file = lab("adc.asm");
    let (code, out, err) = run(&[
        &file,
        "--analog",
        "AN1=1.0",
        "--analog",
        "AN5=2",
        "--dump",
        "single:4,multi:4",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["stop_reason"], "halted");
    assert_eq!(
        v["symbols"]["single:4"]["bytes"],
        serde_json::json!([51, 51, 51, 51])
    );
    assert_eq!(
        v["symbols"]["multi:4"]["bytes"],
        serde_json::json!([255, 102, 255, 255])
    );
}

#[test]
fn trace_pin_lists_oc2_edges_exactly() {
    let file = lab("oc.asm");
    let (code, out, err) = run(&[&file, "--trace-pin", "PA6", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    let trace = v["pin_trace"].as_array().expect("pin_trace");
    // The level at the start, then eight toggles 500 E-cycles apart.
    assert_eq!(trace[0]["cycle"], 0);
    assert_eq!(trace[0]["level"], false);
    let edges: Vec<(u64, bool)> = trace[1..]
        .iter()
        .map(|e| (e["cycle"].as_u64().expect("cycle"), e["level"] == true))
        .collect();
    assert_eq!(edges.len(), 8, "{edges:?}");
    for (i, w) in edges.windows(2).enumerate() {
        assert_eq!(w[1].0 - w[0].0, 500, "edge {i}");
        assert_ne!(w[1].1, w[0].1);
    }
    assert!(trace.iter().all(|e| e["bit"] == 6));
}

#[test]
fn signal_option_feeds_input_capture() {
    let file = lab("ic.asm");
    let (code, out, err) = run(&[
        &file,
        "--signal",
        "PA2=square:1000",
        "--dump",
        "period:2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        v["symbols"]["period:2"]["bytes"],
        serde_json::json!([0x07, 0xD0])
    );
}

#[test]
fn bad_bench_options_are_usage_errors() {
    let file = lab("adc.asm");
    for (args, needle) in [
        (vec!["--analog", "AN9=1"], "AN0..AN7"),
        (vec!["--analog", "AN0=7"], "from 0 to 5"),
        (vec!["--signal", "PA4=square:10"], "PA0, PA1, PA2"),
        (vec!["--trace-pin", "PB1"], "PA0..PA7"),
        (vec!["--keys", "analog:AN0=x"], "item 1"),
    ] {
        let mut all = vec![file.as_str()];
        all.extend(args.iter().copied());
        let (code, _, err) = run(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn cop_reset_is_reported_with_where_the_program_was() {
    let file = lab("cop.asm");
    let (code, out, err) = run(&[&file, "--config", "$08", "--max-cycles", "500000", "--json"]);
    assert_eq!(code, 1, "the second boot feeds forever: budget; {err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    let resets = v["cop_resets"].as_array().expect("cop_resets");
    assert_eq!(resets.len(), 1);
    let last = resets[0]["last_feed"].as_u64().expect("fed");
    assert_eq!(
        resets[0]["cycle"].as_u64(),
        Some((last / 32768 + 2) * 32768)
    );
    // Without --config the watchdog is off: the program hangs in `stuck`.
    let (_, out, _) = run(&[&file, "--json"]);
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["stop_reason"], "halted");
    assert!(v.get("cop_resets").is_none());
}

//! Parts outside the chip declared in a board file:
//! `tests/data/boards/parts-lab.toml` puts LEDs, switches, a push button, a
//! pot, a signal generator and a default logic trace around the chip, and
//! `tests/data/boards/parts_lab.asm` uses them. Each test runs `hc11lab run`
//! and checks the program's exact results with the parts' defaults and with
//! command-line options overriding them.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/boards")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// `run --json` of parts_lab.asm on parts-lab.toml with `extra` options.
fn run(extra: &[&str]) -> Value {
    let board = data("parts-lab.toml");
    let prog = data("parts_lab.asm");
    let mut args = vec![
        "run", "--board", &board, &prog, "--json", "--dump", "$0080:6",
    ];
    args.extend_from_slice(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(&args)
        .output()
        .expect("run hc11lab");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(v["stop_reason"], "halted", "{v}");
    v
}

/// The six result bytes at $80: ADR1, PORTA, PORTE, 0, IC1 period (word).
fn results(v: &Value) -> Vec<u64> {
    v["symbols"]["$0080:6"]["bytes"]
        .as_array()
        .expect("dump")
        .iter()
        .map(|b| b.as_u64().expect("byte"))
        .collect()
}

/// (name, pin, lit) of each LED in `--json`.
fn leds(v: &Value) -> Vec<(String, String, bool)> {
    v["leds"]
        .as_array()
        .expect("leds in --json")
        .iter()
        .map(|l| {
            (
                l["name"].as_str().expect("name").to_string(),
                l["pin"].as_str().expect("pin").to_string(),
                l["lit"].as_bool().expect("lit"),
            )
        })
        .collect()
}

fn led(name: &str, pin: &str, lit: bool) -> (String, String, bool) {
    (name.to_string(), pin.to_string(), lit)
}

#[test]
fn switches_light_leds_with_the_boards_defaults_and_with_pin_overrides() {
    // start (PA0) is 0 at power-on: green off; mode (PE0) is 1: amber on;
    // PA5 stays 0: red (active low) on. The button on PA1 is released (1).
    let v = run(&[]);
    let r = results(&v);
    assert_eq!(
        r[1], 0x86,
        "PORTA: PA7, PA2 (generator high), PA1 (button) high"
    );
    assert_eq!(r[2] & 0x01, 1, "PORTE bit 0: the mode switch");
    assert_eq!(
        leds(&v),
        vec![
            led("green", "PA6", false),
            led("red", "PA5", true),
            led("amber", "PA4", true)
        ]
    );
    // The command line overrides the switches: start on, mode off, button pressed.
    let v = run(&["--pin", "PA0=1", "--pin", "PE0=0", "--pin", "PA1=0"]);
    let r = results(&v);
    assert_eq!(r[1], 0x85, "PORTA: PA7, PA2, PA0 high; PA1 pressed");
    assert_eq!(r[2] & 0x01, 0);
    assert_eq!(
        leds(&v),
        vec![
            led("green", "PA6", true),
            led("red", "PA5", true),
            led("amber", "PA4", false)
        ]
    );
}

#[test]
fn the_pot_is_read_by_the_converter_at_its_default_and_overridden() {
    // 2.0 V of VRH 5 V: round(255 * 2 / 5) = 102.
    assert_eq!(results(&run(&[]))[0], 102);
    // --analog overrides the pot: 4.0 V = 204.
    assert_eq!(results(&run(&["--analog", "AN1=4.0"]))[0], 204);
}

#[test]
fn the_generator_is_measured_by_input_capture() {
    // 500 Hz at 2 MHz E: 4000 cycles between rising edges.
    let r = results(&run(&[]));
    assert_eq!(r[4] * 256 + r[5], 4000);
    // --signal replaces it: 1 kHz = 2000 cycles.
    let r = results(&run(&["--signal", "PA2=square:1000"]));
    assert_eq!(r[4] * 256 + r[5], 2000);
}

#[test]
fn the_default_trace_is_in_json_and_trace_pin_replaces_it() {
    let v = run(&[]);
    let trace: Vec<(u64, u64, bool)> = v["pin_trace"]
        .as_array()
        .expect("pin_trace without --trace-pin")
        .iter()
        .map(|e| {
            (
                e["cycle"].as_u64().expect("cycle"),
                e["bit"].as_u64().expect("bit"),
                e["level"].as_bool().expect("level"),
            )
        })
        .collect();
    // PA2 and PA6 at power-on, then the 500 Hz, 25 % wave on PA2 (high
    // 1000 of 4000 cycles) until the stop; PA6 stays low (start is off).
    assert_eq!(
        trace,
        vec![
            (0, 2, true),
            (0, 6, false),
            (1000, 2, false),
            (4000, 2, true),
            (5000, 2, false),
            (8000, 2, true),
        ]
    );
    let v = run(&["--trace-pin", "PA5"]);
    assert_eq!(
        v["pin_trace"],
        serde_json::json!([{"cycle": 0, "bit": 5, "level": false}])
    );
}

#[test]
fn a_generator_declared_off_leaves_the_pin_open() {
    let dir = std::env::temp_dir().join(format!("hc11lab-parts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let text = std::fs::read_to_string(data("parts-lab.toml"))
        .expect("board")
        .replace("on = true", "on = false");
    let board = dir.join("off.toml");
    std::fs::write(&board, text).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args([
            "run",
            "--board",
            &board.to_string_lossy(),
            &data("parts_lab.asm"),
            "--json",
        ])
        .output()
        .expect("run hc11lab");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    // Nothing toggles PA2: the capture never comes, the program settles
    // polling TFLG1 for the first edge.
    assert_eq!(v["stop_reason"], "settled", "{v}");
    assert!(
        v["message"].as_str().expect("message").contains(" in w1 "),
        "{v}"
    );
    assert!(v["symbols"].as_object().is_some_and(|s| s.is_empty()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_parts_are_errors_with_file_line_and_fix() {
    let dir = std::env::temp_dir().join(format!("hc11lab-parts-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases = [
        (
            "[[led]]\npin = \"PA1\"\n",
            ":2: an LED goes on an output pin: PA3..PA7",
        ),
        (
            "[[led]]\npin = \"PB0\"\n",
            "ports B and C are the address/data bus",
        ),
        (
            "[[switch]]\npin = \"PA3\"\n",
            ":2: a switch goes on an input pin",
        ),
        (
            "[[pot]]\ninput = \"AN1\"\nmin = 1\nvolts = 0.5\n",
            ":4: `volts` must lie between",
        ),
        (
            "[[pot]]\ninput = \"AN1\"\nmax = 5.5\n",
            ":3: `max` is a voltage from VRL 0 to VRH 5",
        ),
        (
            "[[generator]]\npin = \"PA2\"\nhz = 1000\nduty = 100\n",
            ":4: `duty` is the percent",
        ),
        (
            "[[generator]]\npin = \"PA4\"\nhz = 10\n",
            ":2: a generator goes on PA0, PA1, PA2",
        ),
        (
            "[[switch]]\npin = \"PA2\"\n[[generator]]\npin = \"PA2\"\nhz = 10\n",
            ":4: PA2 already has switch `switch1`: give each part its own pin",
        ),
        (
            "trace = [\"PB2\"]\n",
            ":1: `trace`: `PB2` is not a port A pin",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.toml"));
        std::fs::write(&path, text).expect("write");
        let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
            .args([
                "run",
                "--board",
                &path.to_string_lossy(),
                &data("parts_lab.asm"),
            ])
            .output()
            .expect("run hc11lab");
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        let want = if want.starts_with(':') {
            format!("{}{want}", path.display())
        } else {
            want.to_string()
        };
        assert!(err.contains(&want), "{text}\n{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A long run keeps the newest `MAX_TRACE_EDGES` (65,536) trace entries
/// at most, dropping the oldest a quarter at a time, and says how many it
/// dropped. toggle_pa4.asm flips PA4 every 8 cycles: entry 0 is PA4's
/// level at the start, entry k (k >= 1) the write at cycle 8k - 1.
#[test]
fn the_pin_trace_is_capped_and_reports_what_it_dropped() {
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args([
            "run",
            &data("toggle_pa4.asm"),
            "--trace-pin",
            "PA4",
            "--max-cycles",
            "1000000",
            "--json",
        ])
        .output()
        .expect("run hc11lab");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let trace = v["pin_trace"].as_array().expect("pin_trace");
    let dropped = v["pin_trace_dropped"].as_u64().expect("pin_trace_dropped");
    // 125,001 entries up to cycle 999,999: 65,536 dropped (four quarters
    // of 16,384), 59,465 kept.
    assert_eq!((trace.len(), dropped), (59_465, 65_536));
    assert!(trace.len() <= hc11lab::board::timer::MAX_TRACE_EDGES);
    for (i, e) in trace.iter().enumerate() {
        let k = dropped + i as u64;
        assert_eq!(e["cycle"].as_u64(), Some(8 * k - 1), "entry {k}");
        assert_eq!(e["level"].as_bool(), Some(k % 2 == 1), "entry {k}");
    }
    // The text report says it too; a short run drops nothing and has no field.
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args([
            "run",
            &data("toggle_pa4.asm"),
            "--trace-pin",
            "PA4",
            "--max-cycles",
            "1000000",
        ])
        .output()
        .expect("run hc11lab");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "pin trace: 59465 entries kept, the 65536 oldest dropped (at most 65536 are kept)"
        ),
        "{text}"
    );
    let v = run(&[]);
    assert!(v.get("pin_trace_dropped").is_none(), "{v}");
}

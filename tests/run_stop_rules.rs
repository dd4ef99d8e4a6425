//! `hc11lab run` as a user drives it from a shell: the stop rules (halted,
//! settled with what the program waits on, the cycle budget, faults that
//! stop before they take effect), serial input from each of its sources,
//! strict JSON, the same counts with and without the debugger, and pipes
//! and closed streams for every subcommand.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_hc11lab")
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/run")
        .join(name)
}

fn hc11lab(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("hc11lab starts")
}

/// A JSON value that refuses an object with the same key twice.
struct Strict;

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Strict;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!("key `{key}` twice")));
            }
            map.next_value::<Strict>()?;
        }
        Ok(Strict)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        while seq.next_element::<Strict>()?.is_some() {}
        Ok(Strict)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_str<E>(self, _: &str) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict)
    }
}

/// Runs with `--json`, checks the output is exactly one strict object, returns it.
fn run_json(args: &[&str]) -> (Value, i32) {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = hc11lab(&all);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    serde_json::from_str::<Strict>(&text)
        .unwrap_or_else(|e| panic!("not one strict JSON object ({e}): {text}"));
    let v: Value = serde_json::from_str(&text).expect("json");
    (v, out.status.code().unwrap_or(-1))
}

fn reg(v: &Value, r: &str) -> u64 {
    v["registers"][r].as_u64().expect("register")
}

#[test]
fn compute_only_program_halts_with_exact_cycles_and_its_result() {
    let path = data("compute.asm");
    let (v, code) = run_json(&[path.to_str().unwrap(), "--dump", "result"]);
    assert_eq!(v["stop_reason"], "halted", "{v}");
    assert_eq!(code, 0);
    // lds 3 + ldy 4 + 200 x (ldx 3 + 25,000 x (dex 3 + bne 3) + dey 4 + bne 3)
    // + ldd 3 + std (direct) 4 + sei 2 + one pass of `bra done` 3.
    let want = 3 + 4 + 200 * (3 + 25_000 * 6 + 4 + 3) + 3 + 4 + 2 + 3;
    assert_eq!(v["cycles"], want);
    assert_eq!(v["instructions"], 2 + 200 * (1 + 2 * 25_000 + 2) + 4);
    assert_eq!(
        v["symbols"]["result"]["bytes"],
        serde_json::json!([0xBE, 0xEF])
    );
    let msg = v["message"].as_str().unwrap();
    assert!(msg.contains("compute.asm:15"), "{msg}");
    assert!(msg.contains("interrupts masked"), "{msg}");
    assert!(
        v.get("waiting_on").is_none(),
        "only a settled run waits on input"
    );
}

#[test]
fn max_cycles_ends_the_run_exactly_and_names_the_option() {
    let path = data("compute.asm");
    let (v, code) = run_json(&[path.to_str().unwrap(), "--max-cycles", "1000000"]);
    assert_eq!(v["stop_reason"], "cycle_budget");
    assert_eq!(code, 1);
    let cycles = v["cycles"].as_u64().unwrap();
    // The longest instruction on the way is 4 E-cycles.
    assert!((1_000_000..1_000_004).contains(&cycles), "{cycles}");
    let message = v["message"].as_str().unwrap();
    assert!(message.contains("--max-cycles"), "{message}");
    // The message says which is the budget and which the cycles run.
    assert!(
        message.contains("after its budget of 1000000 E-cycles"),
        "{message}"
    );
    if cycles > 1_000_000 {
        assert!(
            message.contains(&format!("ran to its end (cycle {cycles})")),
            "{message}"
        );
    }
    let (v, _) = run_json(&[path.to_str().unwrap(), "--max-cycles", "1"]);
    let message = v["message"].as_str().unwrap();
    let cycles = v["cycles"].as_u64().unwrap();
    assert!(cycles > 1, "{cycles}");
    assert!(
        message.contains(&format!("ran to its end (cycle {cycles})")),
        "{message}"
    );
}

#[test]
fn illegal_opcode_stops_before_the_trap_and_trap_illegal_takes_it() {
    let path = data("illegal.asm");
    let (v, code) = run_json(&[path.to_str().unwrap(), "--dump", "$7FF6:10"]);
    assert_eq!(
        (v["stop_reason"].as_str(), code),
        (Some("illegal_opcode"), 1)
    );
    assert_eq!(reg(&v, "pc"), 0xC007, "PC on the opcode");
    assert_eq!(reg(&v, "sp"), 0x7FFF, "nothing stacked");
    assert_eq!((reg(&v, "a"), reg(&v, "b")), (0x12, 0x34));
    assert_eq!(v["cycles"], 3 + 2 + 2, "the opcode took no cycles");
    assert_eq!(
        v["symbols"]["$7FF6:10"]["bytes"],
        serde_json::json!(vec![0; 10])
    );
    let msg = v["message"].as_str().unwrap();
    assert!(
        msg.contains("illegal.asm:5") && msg.contains("$41"),
        "{msg}"
    );

    let (v, code) = run_json(&[path.to_str().unwrap(), "--trap-illegal", "--dump", "$0050"]);
    assert_eq!(
        (v["stop_reason"].as_str(), code),
        (Some("halted"), 0),
        "{v}"
    );
    assert_eq!(
        v["symbols"]["$0050"]["bytes"],
        serde_json::json!([0x99]),
        "the handler ran"
    );
    assert_eq!(reg(&v, "sp"), 0x7FFF - 9, "the trap stacked 9 bytes");
    // 7 cycles, the trap (14), ldaa # 2, staa dir 3, sei 2, bra 3.
    assert_eq!(v["cycles"], 7 + 14 + 2 + 3 + 2 + 3);
}

#[test]
fn rom_write_stops_before_it_takes_effect() {
    let path = data("romw.asm");
    let (v, code) = run_json(&[path.to_str().unwrap(), "--dump", "$C100"]);
    assert_eq!((v["stop_reason"].as_str(), code), (Some("rom_write"), 1));
    assert_eq!(reg(&v, "pc"), 0xC005, "PC on the store");
    assert_eq!(v["cycles"], 3 + 2, "the store took no cycles");
    assert_eq!(v["symbols"]["$C100"]["bytes"], serde_json::json!([0]));
    let msg = v["message"].as_str().unwrap();
    assert!(
        msg.contains("staa $C100") && msg.contains("romw.asm:4"),
        "{msg}"
    );
}

#[test]
fn serial_echo_from_every_input_and_waiting_on_serial() {
    let echo = data("echo.asm");
    let echo = echo.to_str().unwrap();
    let (v, _) = run_json(&[echo, "--serial-in", "hi\\x2C there\\n"]);
    assert_eq!(v["serial"], "hi, there\n");
    assert_eq!(v["stop_reason"], "settled");
    assert_eq!(v["waiting_on"], "serial input (SCSR.RDRF)");
    // Serial input only: no key script to call done.
    let message = v["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("script done (no keys), program waits for input: serial"),
        "{message}"
    );
    // With a breakpoint (the debugger's path) the same words.
    let (v, _) = run_json(&[echo, "--serial-in", "a", "--break", "$FFFF"]);
    let message = v["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("script done (no keys)"), "{message}");

    let dir = std::env::temp_dir().join(format!("hc11lab-serial-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("in.txt");
    std::fs::write(&file, b"from a file\r\n").unwrap();
    let (v, _) = run_json(&[echo, "--serial-in-file", file.to_str().unwrap()]);
    assert_eq!(v["serial"], "from a file\r\n");

    let mut child = Command::new(bin())
        .args(["run", echo, "--serial-in-file", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"via stdin").unwrap();
    let out = child.wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["serial"], "via stdin");

    let (v, _) = run_json(&[echo, "--keys", "serial:ab,wait:1ms,serial:c\\x2Cd"]);
    assert_eq!(v["serial"], "abc,d");

    let script = dir.join("s.txt");
    std::fs::write(
        &script,
        "# a comment line\nserial:x # not a comment\nsettle\n",
    )
    .unwrap();
    let (v, _) = run_json(&[echo, "--script", script.to_str().unwrap()]);
    assert_eq!(v["serial"], "x # not a comment");
    let _ = std::fs::remove_dir_all(&dir);

    let bad = hc11lab(&["run", echo, "--serial-in", "\\q"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown escape"));
}

#[test]
fn a_reader_too_slow_for_the_baud_rate_loses_bytes_with_overrun() {
    let path = data("slow_reader.asm");
    let (v, _) = run_json(&[
        path.to_str().unwrap(),
        "--serial-in",
        "ABCDEFGH",
        "--serial-timing",
        "wire",
        "--dump",
        "$0100:16",
    ]);
    let bytes: Vec<u64> = v["symbols"]["$0100:16"]["bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .collect();
    // First byte read at once (no overrun); the next read finds OR set and
    // holds the byte that arrived first after the read (later ones lost).
    assert_eq!(
        (bytes[0] & 0x28, bytes[1]),
        (0x20, u64::from(b'A')),
        "{bytes:02X?}"
    );
    assert_eq!(bytes[2] & 0x28, 0x28, "OR set: {bytes:02X?}");
    assert_eq!(bytes[3], u64::from(b'B'));
    assert_eq!(v["waiting_on"], "serial input (SCSR.RDRF)");
    // The lost bytes are counted and named in the message.
    let lost = v["serial_lost"].as_u64().unwrap_or(0);
    assert!(lost >= 1, "{v}");
    let message = v["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!(
            "{lost} character{} lost: SCDR was read too late (OR set)",
            if lost == 1 { " was" } else { "s were" }
        )),
        "{message}"
    );
    // Typed, as the default, each byte waits for the read of the one
    // before: none is lost, and the reader gets them in order.
    let (v, _) = run_json(&[
        path.to_str().unwrap(),
        "--serial-in",
        "ABCDEFGH",
        "--dump",
        "$0100:16",
    ]);
    assert!(v.get("serial_lost").is_none(), "{v}");
    let bytes: Vec<u64> = v["symbols"]["$0100:16"]["bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .collect();
    assert_eq!(bytes[1], u64::from(b'A'), "{bytes:02X?}");
    assert_eq!(bytes[2] & 0x28, 0x20, "no OR: {bytes:02X?}");
    assert_eq!(bytes[3], u64::from(b'B'), "{bytes:02X?}");
}

#[test]
fn the_game_waits_on_the_keys() {
    let (v, code) = run_json(&["--keys", "drop"]);
    assert_eq!((v["stop_reason"].as_str(), code), (Some("settled"), 0));
    assert_eq!(v["waiting_on"], "keys (PIO_B)");
    let message = v["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("key script done, program waits for input: keys"),
        "{message}"
    );
    // Nothing to play: the program only settled.
    let (v, _) = run_json(&[]);
    let message = v["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("the program settled and waits for input: keys"),
        "{message}"
    );
}

#[test]
fn debugger_runs_count_like_plain_runs() {
    for keys in [
        "drop",
        "drop,left,drop",
        "right,right,drop,reset",
        "wait:5ms",
    ] {
        let (plain, _) = run_json(&["--keys", keys]);
        for extra in [
            &["--profile"][..],
            &["--break", "$B000"][..],
            &["--explain-pixel", "63,43"][..],
        ] {
            let mut args = vec!["--keys", keys];
            args.extend_from_slice(extra);
            let (dbg, _) = run_json(&args);
            for field in ["stop_reason", "cycles", "instructions", "registers"] {
                assert_eq!(
                    dbg[field], plain[field],
                    "{field} with {extra:?} on --keys {keys}"
                );
            }
        }
    }
}

/// Every subcommand whose stdout is a pipe its reader closed at once, or a
/// closed descriptor, or a full disk: never a panic; a closed pipe is quiet,
/// a full disk one line.
#[test]
fn closed_and_full_stdout_for_every_subcommand() {
    let fw = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm");
    let fw = fw.to_str().unwrap();
    let s19 = std::env::temp_dir().join(format!("hc11lab-pipe-{}.s19", std::process::id()));
    let s19s = s19.to_str().unwrap();
    assert!(hc11lab(&["asm", fw, "-o", s19s]).status.success());
    // A submission for `lesson check`: the bundled firmware's folder (it
    // scores what it scores; only the output matters here).
    let sub = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("firmware");
    let assignment = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lessons/viergewinnt");
    let out_dir = std::env::temp_dir().join(format!("hc11lab-pipe-out-{}", std::process::id()));
    let commands: Vec<Vec<&str>> = vec![
        vec!["--help"],
        vec!["asm", fw],
        vec!["disasm", s19s],
        vec!["run", "--keys", "drop", "--lcd-text"],
        vec!["run", "--keys", "drop", "--json"],
        vec!["lesson", "list"],
        vec!["lesson", "show", "01-tour"],
        vec!["lesson", "check", "viergewinnt", sub.to_str().unwrap()],
        vec![
            "grade",
            "--assignment",
            assignment.to_str().unwrap(),
            sub.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ],
    ];
    for args in &commands {
        let line = args
            .iter()
            .map(|a| format!("'{a}'"))
            .collect::<Vec<_>>()
            .join(" ");
        // The reader closes its end before the program gets to write.
        let mut child = Command::new(bin())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(101), "closed pipe: {args:?}: {err}");
        assert!(!err.contains("panicked"), "closed pipe: {args:?}: {err}");
        assert!(!err.contains("standard output"), "quiet: {args:?}: {err}");
        for (how, shell) in [
            ("closed pipe", format!("'{}' {line} | true", bin())),
            ("closed descriptor", format!("'{}' {line} >&-", bin())),
            ("full disk", format!("'{}' {line} >/dev/full", bin())),
        ] {
            let out = Command::new("sh")
                .args(["-c", &format!("{shell}; echo \"exit=$?\" >&2")])
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!err.contains("panicked"), "{how}: {args:?}: {err}");
            assert!(!err.contains("exit=101"), "{how}: {args:?}: {err}");
            if how == "full disk" && !matches!(args[0], "asm") {
                assert!(
                    err.contains("cannot write to standard output"),
                    "{how}: {args:?}: {err}"
                );
            }
            if how == "closed pipe" {
                assert!(!err.contains("standard output"), "quiet: {args:?}: {err}");
            }
        }
    }
    let _ = std::fs::remove_file(&s19);
    let _ = std::fs::remove_dir_all(&out_dir);
}

/// Continue (the GUI's F5) from a fault stop does what the chip does: the
/// trap through $FFF8, or the write ignored, and the program goes on.
#[test]
fn continue_from_a_fault_stop_runs_the_instruction_as_the_chip_does() {
    use hc11lab::debug::session::{Debugger, Reason};
    use hc11lab::machine::Machine;
    let load = |name: &str| {
        let a = hc11lab::asm::assemble_file(&data(name), &hc11lab::asm::AsmOptions::default());
        Machine::new(a.program.expect("assembles")).expect("loads")
    };
    let mut d = Debugger::new(load("illegal.asm"));
    let s = d.run();
    assert!(
        matches!(s.reason, Reason::IllegalOpcode { addr: 0xC007, .. }),
        "{s:?}"
    );
    assert_eq!((d.registers().pc, d.registers().sp), (0xC007, 0x7FFF));
    let s = d.run();
    assert!(matches!(s.reason, Reason::Halted { .. }), "{s:?}");
    assert_eq!(d.target().peek(0x0050), 0x99, "the handler ran");

    let mut d = Debugger::new(load("romw.asm"));
    let s = d.run();
    assert!(
        matches!(s.reason, Reason::BadWrite { addr: 0xC100, .. }),
        "{s:?}"
    );
    assert_eq!(d.registers().pc, 0xC005);
    let s = d.run();
    assert!(matches!(s.reason, Reason::Halted { .. }), "{s:?}");
    assert_eq!(d.target().peek(0xC100), 0, "ROM kept its byte");
}

/// A CPU waiting for an interrupt that only a later script action (the IRQ
/// pin) can raise is not halted before that action has run.
#[test]
fn a_pin_the_script_drives_later_can_still_wake_a_waiting_cpu() {
    let path = data("wai_irq.asm");
    let path = path.to_str().unwrap();
    let (v, _) = run_json(&[path, "--dump", "$0080"]);
    assert_eq!(v["stop_reason"], "halted", "nothing drives IRQ: {v}");
    assert!(v["message"].as_str().unwrap().contains("WAI"), "{v}");
    let (v, _) = run_json(&[path, "--keys", "wait:5000,irq:low", "--dump", "$0080"]);
    assert_eq!(v["stop_reason"], "halted", "{v}");
    assert_eq!(
        v["symbols"]["$0080"]["bytes"],
        serde_json::json!([0x42]),
        "{v}"
    );
}

#[test]
fn a_stop_where_the_program_put_nothing_names_what_went_there() {
    let cases = [
        (
            "push_no_pull.asm",
            "`rts` at $C00B in sub+3 (push_no_pull.asm:9) returned there: it took $12C0 from the stack at $00FD",
        ),
        (
            "jump_table.asm",
            "`jmp $00,x` at $C006 in start+6 (jump_table.asm:5) went there",
        ),
        (
            "runs_on.asm",
            "The program ran on into it from `staa $40` at $C005 in start+5 (runs_on.asm:5)",
        ),
    ];
    for (file, want) in cases {
        let path = data(file);
        let path = path.to_str().unwrap();
        let (v, code) = run_json(&[path]);
        assert_eq!(
            (v["stop_reason"].as_str(), code),
            (Some("illegal_opcode"), 1)
        );
        let message = v["message"].as_str().unwrap_or_default();
        assert!(message.contains(want), "{file}: {message}");
        // The debugger's path says the same, in its text too.
        let out = hc11lab(&["run", path, "--break", "$FFF0"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(want), "{file} with --break: {text}");
    }
}

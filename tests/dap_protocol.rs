//! `hc11lab dap` as a protocol server: malformed frames and requests out
//! of order are answered and the session goes on, TCP with `--port`, the
//! serial line in the Debug Console, exceptions, the program's end, pause
//! while running, and hit counts that stay exact however the run is
//! sliced. Every message is checked against the protocol's schema.

mod dap_support;

use dap_support::client::{read_frames, Client};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/run")
        .join(name)
}

fn firmware() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("firmware")
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hc11lab-dap-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.asm"));
    std::fs::write(&path, text).expect("write");
    path
}

/// Waits until the console's `category` output contains `text`.
fn wait_output(c: &mut Client, category: &str, text: &str) -> String {
    let start = Instant::now();
    loop {
        let out = c.output(category);
        if out.contains(text) {
            return out;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no `{text}` in the {category} output: {out:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn malformed_frames_and_requests_out_of_order_are_answered_and_the_session_goes_on() {
    let mut c = Client::start();
    // Before initialize.
    let e = c.call_err("stackTrace", json!({"threadId": 1}));
    assert!(e.contains("initialize"), "{e}");
    c.call("initialize", json!({"adapterID": "hc11lab"}));
    let e = c.call_err("initialize", json!({}));
    assert!(e.contains("already"), "{e}");
    // A length that is no number, then JSON that is no JSON: no request to
    // answer, so the console says so.
    c.send_raw(b"Content-Length: abc\r\n\r\n");
    c.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    // A request without a command names its seq: answered.
    let body = br#"{"seq":1001,"type":"request"}"#;
    c.expect(1001);
    c.send_raw(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    c.send_raw(body);
    let r = c.response(1001);
    assert_eq!(r["success"], false);
    // Out of order and unknown.
    let e = c.call_err("configurationDone", Value::Null);
    assert!(e.contains("launch"), "{e}");
    let e = c.call_err("frobnicate", json!({}));
    assert!(e.contains("frobnicate"), "{e}");
    let e = c.call_err("launch", json!({"program": "/no/such/file.asm"}));
    assert!(e.contains("/no/such/file.asm"), "{e}");
    let e = c.call_err("launch", json!({"keys": "jump"}));
    assert!(e.contains("keys"), "{e}");
    let e = c.call_err("launch", json!({"dialect": "gas"}));
    assert!(e.contains("gas"), "{e}");
    // An assembly error names file and line.
    let bad = scratch(
        "bad",
        "        org $C000\nStart   ldaa #1\n        frob 3\n",
    );
    let e = c.call_err("launch", json!({"program": bad}));
    assert!(e.contains("bad.asm:3"), "{e}");
    let problems = c.output("stderr");
    assert!(problems.contains("Content-Length: abc"), "{problems}");
    assert!(problems.contains("not valid JSON"), "{problems}");
    assert!(
        problems.contains("bad.asm:3"),
        "the diagnostics on the console: {problems}"
    );
    // The session still works.
    c.call(
        "launch",
        json!({"program": firmware(), "speed": "max", "stopOnEntry": true}),
    );
    c.event("initialized");
    let e = c.call_err("continue", json!({"threadId": 1}));
    assert!(e.contains("configurationDone"), "{e}");
    let e = c.call_err("launch", json!({}));
    assert!(e.contains("already"), "{e}");
    c.call("configurationDone", Value::Null);
    assert_eq!(c.stopped()["reason"], "entry");
    let e = c.call_err("configurationDone", Value::Null);
    assert!(e.contains("already"), "{e}");
    let e = c.call_err("variables", json!({"variablesReference": 999_999_999}));
    assert!(e.contains("reference"), "{e}");
    let e = c.call_err("variables", json!({"variablesReference": "three"}));
    assert!(e.contains("arguments"), "{e}");
    // Numbers at the ends of their range are answered, not a crash.
    let r = c.call(
        "readMemory",
        json!({"memoryReference": "0xFFFF", "offset": i64::MAX, "count": i64::MAX}),
    );
    assert_eq!(r["unreadableBytes"], 65536);
    let d = c.call(
        "disassemble",
        json!({"memoryReference": "0x0000", "offset": i64::MIN, "instructionOffset": i64::MAX, "instructionCount": 3}),
    );
    assert_eq!(d["instructions"].as_array().map(Vec::len), Some(3));
    let b = c.call(
        "setBreakpoints",
        json!({"source": {"path": firmware().join("Board.inc")}, "breakpoints": [{"line": i64::MAX}, {"line": -5}]}),
    );
    assert_eq!(b["breakpoints"][0]["verified"], false);
    assert_eq!(b["breakpoints"][1]["verified"], false);
    let st = c.call(
        "stackTrace",
        json!({"threadId": 1, "startFrame": u64::MAX, "levels": u64::MAX}),
    );
    assert_eq!(st["stackFrames"], json!([]));
    let e = c.call_err("source", json!({"source": {"sourceReference": i64::MIN}}));
    assert!(e.contains("reference"), "{e}");
    let e = c.call_err(
        "setVariable",
        json!({"variablesReference": 1, "name": "A", "value": "99999999999999999999"}),
    );
    assert!(e.contains("number too large"), "{e}");
    let t = c.call("threads", Value::Null);
    assert_eq!(t["threads"][0]["id"], 1);
    c.disconnect();
}

#[test]
fn tcp_serves_one_client_after_another() {
    let mut server = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["dap", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hc11lab dap --port 0");
    let mut err = BufReader::new(server.stderr.take().expect("stderr"));
    let mut line = String::new();
    err.read_line(&mut line).expect("the port line");
    let addr = line.trim().rsplit(' ').next().expect("address").to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    for _ in 0..2 {
        let stream = std::net::TcpStream::connect(&addr).expect("connect");
        let rx = read_frames(stream.try_clone().expect("clone"));
        let mut c = Client::over(Box::new(stream), rx, None);
        c.init_launch(json!({"program": firmware(), "stopOnEntry": true}));
        c.call("configurationDone", Value::Null);
        assert_eq!(c.stopped()["reason"], "entry");
        let top = c.top()["name"].as_str().unwrap_or("").to_ascii_lowercase();
        assert_eq!(top, "start");
        c.disconnect();
    }
    let _ = server.kill();
    let _ = server.wait();
}

#[test]
fn serial_output_reaches_the_console_and_typed_lines_the_program() {
    let mut c = Client::start();
    c.init_launch(json!({"program": data("echo.asm"), "serialIn": "hi\\n"}));
    c.call("configurationDone", Value::Null);
    wait_output(&mut c, "stdout", "hi\n");
    // A Debug Console line goes to the serial input (with a line end).
    let r = c.call("evaluate", json!({"expression": "abc", "context": "repl"}));
    assert!(
        r["result"].as_str().unwrap_or("").contains("4 bytes"),
        "{r}"
    );
    wait_output(&mut c, "stdout", "hi\nabc\n");
    // `?` evaluates instead, also while running.
    let r = c.call("evaluate", json!({"expression": "?SP", "context": "repl"}));
    assert_eq!(r["result"], "$7FFF (32767)");
    // The LCD request while running: this board has an LCD nobody drew on.
    let screen = c.call("hc11lab/lcd", Value::Null);
    assert_eq!(screen["running"], true);
    // Pause while it runs (in real time, waiting for input).
    c.call("pause", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["reason"], "pause");
    // A second pause finds nothing running: no harm.
    c.call("pause", json!({"threadId": 1}));
    c.disconnect();
}

#[test]
fn an_illegal_opcode_is_an_exception_and_a_halt_ends_the_program() {
    let mut c = Client::start();
    c.init_launch(json!({"program": data("illegal.asm"), "speed": "max"}));
    c.call("setExceptionBreakpoints", json!({"filters": ["illegal"]}));
    c.call("configurationDone", Value::Null);
    let s = c.stopped();
    assert_eq!(s["reason"], "exception");
    assert_eq!(s["text"], "illegal_opcode");
    assert!(
        s["description"]
            .as_str()
            .unwrap_or("")
            .contains("illegal opcode $41"),
        "{s}"
    );
    // Going on takes the trap, whose handler halts.
    c.call("continue", json!({"threadId": 1}));
    let exited = c.event("exited");
    assert_eq!(exited["exitCode"], 0);
    c.event("terminated");
    assert!(
        c.output("console").contains("halted"),
        "{}",
        c.output("console")
    );
    let e = c.call_err("next", json!({"threadId": 1}));
    assert!(e.contains("ended"), "{e}");
    c.disconnect();

    // With the filter off, the chip's trap runs without a stop.
    let mut c = Client::start();
    c.init_launch(json!({"program": data("illegal.asm"), "speed": "max"}));
    c.call("setExceptionBreakpoints", json!({"filters": []}));
    c.call("configurationDone", Value::Null);
    assert_eq!(c.event("exited")["exitCode"], 0);
    c.disconnect();

    // A write into program memory.
    let mut c = Client::start();
    c.init_launch(json!({"program": data("romw.asm"), "speed": "max"}));
    c.call("configurationDone", Value::Null);
    let s = c.stopped();
    assert_eq!(s["reason"], "exception");
    assert_eq!(s["text"], "rom_write");
    c.disconnect();
}

#[test]
fn max_cycles_ends_the_program_with_status_one() {
    let mut c = Client::start();
    c.init_launch(json!({"program": data("echo.asm"), "maxCycles": 20_000, "speed": "max"}));
    c.call("configurationDone", Value::Null);
    assert_eq!(c.event("exited")["exitCode"], 1);
    c.event("terminated");
    assert!(c.output("console").contains("maxCycles"));
    c.disconnect();
}

/// The debugger counts a breakpoint's visit before a run's budget ends; a
/// run cut there must not count it again in the next slice.
#[test]
fn hit_counts_stay_exact_in_slices_of_any_size() {
    for slice in [1, 7, 50_000] {
        let mut c = Client::start();
        c.init_launch(json!({"program": firmware(), "speed": "max", "sliceCycles": slice}));
        c.call(
            "setFunctionBreakpoints",
            json!({"breakpoints": [{"name": "drawCell", "hitCondition": ">= 30"}]}),
        );
        c.call("configurationDone", Value::Null);
        c.stopped();
        let r = c.call(
            "evaluate",
            json!({"expression": "cellAddress", "context": "watch"}),
        );
        assert_eq!(r["result"], "$00E8 (232)", "slices of {slice} E-cycles");
        c.disconnect();
    }
}

#[test]
fn running_without_debugging_ignores_breakpoints() {
    let mut c = Client::start();
    c.init_launch(json!({"program": data("illegal.asm"), "noDebug": true, "speed": "max"}));
    let b = c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "Start"}]}),
    );
    assert_eq!(b["breakpoints"][0]["verified"], false);
    c.call("configurationDone", Value::Null);
    // The illegal opcode still stops: it is the program's fault, not a breakpoint.
    assert_eq!(c.stopped()["reason"], "exception");
    c.disconnect();
}

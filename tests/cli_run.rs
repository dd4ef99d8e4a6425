//! `hc11lab run` as a user and a grader run it: the JSON contract of DESIGN
//! ("Command line"), exit statuses, PNG output, dumps and explanations.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn hc11lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(args)
        .output()
        .expect("run hc11lab")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// `run ARGS` (with `--json` among them): the stop message.
fn message(args: &[&str]) -> String {
    json(&hc11lab(args))["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hc11lab-cli-run-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes a tiny program (code at $C000, reset vector) and returns its path.
fn program(dir: &std::path::Path, body: &str) -> String {
    let path = dir.join("p.asm");
    let text = format!("\torg $C000\nStart\tlds #$3FFF\n{body}\n\torg $FFFE\n\tdc.w Start\n");
    std::fs::write(&path, text).expect("write source");
    path.to_string_lossy().into_owned()
}

#[test]
fn json_has_every_field_of_the_contract() {
    let out = hc11lab(&[
        "run",
        "--keys",
        "right,drop",
        "--json",
        "--dump",
        "player,board:336,$0190:2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["stop_reason"], "settled");
    assert!(v["cycles"].as_u64().unwrap_or(0) > 0);
    assert!(v["instructions"].as_u64().unwrap_or(0) > 0);
    for r in ["a", "b", "x", "y", "sp", "pc", "ccr"] {
        assert!(v["registers"][r].is_u64(), "register {r}");
    }
    assert_eq!(
        v["serial"], "\u{c}",
        "initGame clears the terminal with a form feed"
    );
    let lcd = v["lcd"].as_array().expect("lcd rows");
    assert_eq!(lcd.len(), 64);
    assert!(lcd.iter().all(|r| r.as_str().map(str::len) == Some(128)));
    // Player 1 dropped in column 4: player 2 is next.
    assert_eq!(v["symbols"]["player"]["address"], 0x0197);
    assert_eq!(v["symbols"]["player"]["bytes"], serde_json::json!([2]));
    assert_eq!(
        v["symbols"]["board:336"]["bytes"].as_array().map(Vec::len),
        Some(336)
    );
    assert_eq!(v["symbols"]["$0190:2"]["address"], 0x0190);
    // Bottom row (5), column 4: cell offset 4*8 + 5*56 = 312; byte 3 has the filled stone.
    assert_eq!(v["symbols"]["board:336"]["bytes"][312 + 3], 0xBD);
}

#[test]
fn illegal_opcode_stops_with_status_1_and_json() {
    let dir = scratch("illegal");
    let src = program(&dir, "\tldaa #1\n\tfcb $41");
    let out = hc11lab(&["run", &src, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["stop_reason"], "illegal_opcode");
    assert_eq!(v["registers"]["a"], 1);
    assert!(v["message"].as_str().unwrap_or("").contains("$41"), "{v}");
}

#[test]
fn test_opcode_is_illegal_outside_test_mode() {
    let dir = scratch("test-op");
    let src = program(&dir, "\ttest");
    let out = hc11lab(&["run", &src, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["stop_reason"], "illegal_opcode");
}

#[test]
fn an_endless_loop_uses_up_the_budget_exactly() {
    let dir = scratch("loop");
    // A loop that keeps sending on the SCI never settles.
    let src = program(&dir, "loop\tinc $2F\n\tbra loop");
    let out = hc11lab(&["run", &src, "--max-cycles", "100000", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["stop_reason"], "cycle_budget");
    let cycles = v["cycles"].as_u64().expect("cycles");
    assert!((100_000..100_010).contains(&cycles), "{cycles}");
}

#[test]
fn rom_write_is_reported() {
    let dir = scratch("rom");
    let src = program(&dir, "\tldaa #7\n\tstaa $C000\nhere\tbra here");
    let out = hc11lab(&["run", &src, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["stop_reason"], "rom_write");
}

#[test]
fn lcd_png_is_written_and_text_matches() {
    let dir = scratch("png");
    let png = dir.join("lcd.png");
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["run", "--lcd-text", "--lcd-png"])
        .arg(&png)
        .output()
        .expect("run hc11lab");
    assert!(out.status.success());
    let bytes = std::fs::read(&png).expect("png written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().take(64).filter(|l| l.len() == 128).count(), 64);
}

#[test]
fn explain_pixel_in_json_follows_the_stone_back_to_stone1_to_buffer() {
    let out = hc11lab(&[
        "run",
        "--keys",
        "drop",
        "--explain-pixel",
        "63,43",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let chain = v["provenance"][0]["chain"].as_array().expect("chain");
    let labels: Vec<String> = chain
        .iter()
        .map(|l| l["label"].as_str().unwrap_or("").to_string())
        .collect();
    assert!(
        labels.iter().any(|l| l.starts_with("drawCell")),
        "{labels:?}"
    );
    assert!(
        labels.iter().any(|l| l.starts_with("stone1ToBuffer")),
        "{labels:?}"
    );
    assert!(chain
        .iter()
        .all(|l| l["line"].is_u64() || l["line"].is_null()));
}

#[test]
fn break_on_a_label_after_the_first_drop() {
    let out = hc11lab(&[
        "run",
        "--keys",
        "drop",
        "--break",
        "getLineLength",
        "--json",
        "--dump",
        "coordx,coordy",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["stop_reason"], "breakpoint");
    assert_eq!(v["symbols"]["coordx"]["bytes"], serde_json::json!([3]));
    assert_eq!(v["symbols"]["coordy"]["bytes"], serde_json::json!([5]));
}

#[test]
fn bad_options_exit_2_with_the_fix() {
    let out = hc11lab(&["run", "--keys", "drop,jump"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("valid actions"));
    let out = hc11lab(&["run", "--dump", "nosuchsymbol"]);
    assert_eq!(out.status.code(), Some(2));
    let out = hc11lab(&["run", "--break", "nosuchlabel"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_source_with_errors_exits_1_with_file_line() {
    let dir = scratch("asm-error");
    let src = program(&dir, "\tldx nowhere");
    let out = hc11lab(&["run", &src]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("p.asm:3:"));
}

#[test]
fn watch_stops_after_the_instruction_that_read_or_changed_a_byte() {
    let out = hc11lab(&[
        "run",
        "--keys",
        "drop",
        "--watch",
        "read coordy",
        "--json",
        "--dump",
        "coordy",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["stop_reason"], "watchpoint");
    let message = v["message"].as_str().unwrap_or_default();
    assert!(message.contains("read $05 from coordy"), "{message}");
    // The first change of the cell buffer is the grid being drawn.
    let out = hc11lab(&["run", "--watch", "change board:64", "--json"]);
    let v = json(&out);
    assert_eq!(v["stop_reason"], "watchpoint");
    assert!(v["message"]
        .as_str()
        .is_some_and(|m| m.contains("cellToBuffer") && m.contains("wrote $FF (was $00)")));
    // A misspelt kind or an unknown symbol is a usage error with the spec.
    for spec in ["chnge board", "change nosuch"] {
        let out = hc11lab(&["run", "--watch", spec]);
        assert_eq!(out.status.code(), Some(2), "{spec}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--watch") && err.contains(spec), "{err}");
    }
}

/// A path that does not exist: one line, starting `error:`, saying it
/// once (anyhow's chain printed the lesson check's twice), for each command
/// and option that reads a file.
#[test]
fn missing_files_are_one_error_line_each() {
    let cases: [&[&str]; 6] = [
        &["run", "/nonexistent/prog.asm"],
        &["disasm", "/nonexistent/prog.s19"],
        &["run", "--rom", "/nonexistent/mon.s19"],
        &["run", "--board", "/nonexistent/b.toml"],
        &["run", "--script", "/nonexistent/keys.txt"],
        &["lesson", "check", "e1-draw", "/nonexistent/sub"],
    ];
    for args in cases {
        let out = hc11lab(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert_eq!(
            err.matches("No such file").count(),
            1,
            "{args:?} says it once: {err}"
        );
    }
    let rom = hc11lab(&["run", "--rom", "/nonexistent/mon.s19"]);
    assert!(String::from_utf8_lossy(&rom.stderr).starts_with("error: cannot read --rom "));
}

/// An EVB-like board without a monitor in its ROM (a board file saying
/// `monitor = "none"`), for the messages about a missing monitor.
fn bare_evb(dir: &std::path::Path) -> String {
    let path = dir.join("bare-evb.toml");
    std::fs::write(
        &path,
        "init = \"$01\"\nconfig = \"$0D\"\nram = [\"$C000-$DFFF\"]\nrom = [\"$E000-$FFFF\"]\neeprom = \"$B600-$B7FF\"\nmonitor = \"none\"\n",
    )
    .expect("write board");
    path.to_string_lossy().into_owned()
}

/// A program for the EVB that calls the BUFFALO monitor (`jsr OUTA`) on a
/// board whose ROM holds no monitor stops in the empty jump table: the
/// message says that the address holds none of the program, which call
/// went there and which monitor routine it meant, and names no label
/// thousands of bytes away. (The built-in `evb` runs hc11lab's monitor,
/// which answers the call: tests/evb_monitor.rs.)
#[test]
fn a_call_into_the_missing_buffalo_monitor_is_explained() {
    let dir = scratch("buffalo");
    let board = bare_evb(&dir);
    let path = dir.join("hello.asm");
    std::fs::write(
        &path,
        "OUTA\tequ $FFB8\n\torg $C000\nstart\tlds #$00FF\n\tldaa #'H'\n\tjsr OUTA\n\tswi\n",
    )
    .expect("write source");
    let out = hc11lab(&["run", "--board", &board, path.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    let msg = v["message"].as_str().expect("message");
    assert!(msg.starts_with("illegal opcode $00 at $FFB8;"), "{msg}");
    assert!(!msg.contains("start+"), "{msg}");
    assert!(
        msg.contains("$FFB8 holds none of the program's bytes (it loads $C000-$C008)"),
        "{msg}"
    );
    assert!(
        msg.contains("the `jsr $FFB8` at $C005 (hello.asm:5) went there"),
        "{msg}"
    );
    assert!(
        msg.contains("$FFB8 is OUTA in the jump table of the EVB's BUFFALO monitor"),
        "{msg}"
    );
    // The debugger's message (here through --profile) says the same.
    let msg = message(&[
        "run",
        "--board",
        &board,
        path.to_str().unwrap(),
        "--profile",
        "--json",
    ]);
    assert!(msg.starts_with("illegal opcode $00 at $FFB8"), "{msg}");
    assert!(
        msg.contains("the `jsr $FFB8` at $C005 (hello.asm:5) went there. $FFB8 is OUTA"),
        "{msg}"
    );
    // A BSR that goes past the program's end: no monitor named.
    let p = program(&dir, "\tbsr Start+$40");
    let msg = message(&["run", &p, "--json"]);
    assert!(msg.contains("holds none of the program's bytes"), "{msg}");
    assert!(msg.contains("the `bsr $C040` at $C003"), "{msg}");
    assert!(!msg.contains("BUFFALO"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A call before the program sets SP pushes from $0000 into $FFFF: the
/// write fault says that SP was never set and where the board's RAM is.
#[test]
fn a_push_before_the_stack_pointer_is_set_says_so() {
    let dir = scratch("nosp");
    let path = dir.join("nosp.asm");
    std::fs::write(
        &path,
        "\torg $C000\nStart\tjsr Sub\nSub\trts\n\torg $FFFE\n\tdc.w Start\n",
    )
    .expect("write source");
    let out = hc11lab(&["run", path.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let msg = json(&out)["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        msg.starts_with("write of $C0 to program memory $FFFF"),
        "{msg}"
    );
    assert!(
        msg.contains("SP is $0000, as after reset: the program pushes or calls before it sets the stack pointer"),
        "{msg}"
    );
    assert!(msg.contains("the trainer11's RAM is $0040-$7FFF"), "{msg}");
    let msg = message(&["run", path.to_str().unwrap(), "--profile", "--json"]);
    assert!(
        msg.contains("SP is $0000, as after reset") && msg.contains("the trainer11's RAM is"),
        "{msg}"
    );
    // With SP set, a write to program memory says nothing of the stack.
    let p = program(&dir, "\tstaa $C100");
    let msg = message(&["run", &p, "--json"]);
    assert!(msg.starts_with("write of"), "{msg}");
    assert!(!msg.contains("SP is"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An interrupt or SWI through a vector the program never set (an EVB
/// program that relies on the monitor's vectors): the message names the
/// entry, the vector and what it holds, on both of run's paths.
#[test]
fn an_entry_through_an_unset_vector_is_explained() {
    let dir = scratch("vectors");
    let board = bare_evb(&dir);
    let rti = dir.join("rti.asm");
    std::fs::write(
        &rti,
        "\torg $C000\nstart\tlds #$0041\n\tldx #$1000\n\tldaa #$40\n\tstaa $24,x\n\tcli\n\
         wait\tbra wait\n",
    )
    .expect("write source");
    for extra in [None, Some("--profile")] {
        let mut args = vec!["run", "--board", &board, rti.to_str().unwrap(), "--json"];
        args.extend(extra);
        let msg = message(&args);
        assert!(
            msg.contains("the real-time interrupt went there through its vector $FFF0, which holds $0000: the program never set it"),
            "{extra:?}: {msg}"
        );
        assert!(msg.contains("`org $FFF0` / `fdb handler`"), "{msg}");
    }
    let swi = program(&dir, "\tswi");
    let msg = message(&["run", &swi, "--json"]);
    assert!(
        msg.contains("the `swi` at $C003 (p.asm:3) went there through its vector $FFF6"),
        "{msg}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--break` on the program's first instruction stops before it (cycle 0);
/// one on an operand byte never hits, and the run says so before its stop
/// (text and JSON), naming the instruction and where it starts.
#[test]
fn a_break_at_the_entry_hits_and_one_inside_an_instruction_is_named() {
    let dir = scratch("entrybreak");
    let p = program(&dir, "loop\tinca\n\tbra loop");
    let v = json(&hc11lab(&[
        "run",
        &p,
        "--break",
        "Start",
        "--max-cycles",
        "1000",
        "--json",
    ]));
    assert_eq!(v["stop_reason"], "breakpoint", "{v}");
    assert_eq!(v["cycles"], 0, "{v}");
    let out = hc11lab(&["run", &p, "--break", "$C001", "--max-cycles", "1000"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(
            "note: breakpoint `$C001`: $C001 is inside `lds #$3FFF` at $C000 (p.asm:2)"
        ),
        "{text}"
    );
    assert!(text.contains("did you mean $C000?"), "{text}");
    let v = json(&hc11lab(&[
        "run",
        &p,
        "--break",
        "$C001",
        "--max-cycles",
        "1000",
        "--json",
    ]));
    assert!(
        v["notes"][0]
            .as_str()
            .unwrap_or("")
            .contains("$C001 is inside"),
        "{v}"
    );
    // A breakpoint where an instruction starts gets no note.
    let v = json(&hc11lab(&[
        "run",
        &p,
        "--break",
        "loop",
        "--max-cycles",
        "1000",
        "--json",
    ]));
    assert!(v.get("notes").is_none(), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A WAI or STOP that can never end is named with its own line, not the
/// instruction after it (where PC points, which never ran).
#[test]
fn a_halt_in_wai_or_stop_names_that_instruction() {
    let dir = scratch("waistop");
    let p = program(&dir, "\tsei\n\twai\ndone\tbra done");
    let m = message(&["run", &p, "--json"]);
    assert!(
        m.contains("`wai` at $C004 in Start+4 (p.asm:4); PC $C005 in done"),
        "{m}"
    );
    let p = program(&dir, "\ttpa\n\tanda #$7F\n\ttap\n\tstop\ndone\tbra done");
    let m = message(&["run", &p, "--json"]);
    assert!(m.contains("`stop` at $C007 in Start+7 (p.asm:6)"), "{m}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Keys and serial input a run never delivered (the program halted first)
/// are named in the stop message; a run that played them all says nothing.
#[test]
fn input_a_halted_program_never_got_is_named() {
    let dir = scratch("unplayed");
    let p = program(&dir, "done\tbra done");
    let m = message(&[
        "run",
        &p,
        "--keys",
        "drop,left",
        "--serial-in",
        "hi",
        "--json",
    ]);
    assert!(
        m.contains("not played to its end: 3 of its 3 action(s) left"),
        "{m}"
    );
    let m = message(&["run", "--keys", "drop", "--json"]);
    assert!(!m.contains("not played"), "{m}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stop right after a COP reset through a vector the program never set
/// says the watchdog took it there (the illegal opcode alone did not).
#[test]
fn a_stop_after_a_cop_reset_names_the_watchdog() {
    let dir = scratch("copreset");
    let p = program(&dir, "loop\tinx\n\tbra loop");
    let m = message(&["run", &p, "--config", "$08", "--json"]);
    assert!(m.contains("illegal opcode"), "{m}");
    assert!(
        m.contains("The COP watchdog reset the chip at cycle")
            && m.contains("$FFFA, which holds $0000"),
        "{m}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `run --json` on a program that does not assemble or load still prints
/// one JSON object saying why (the diagnostics stay on stderr), exit 1.
#[test]
fn json_names_an_assembly_or_load_error() {
    let dir = scratch("jsonerr");
    let bad = dir.join("bad.asm");
    std::fs::write(&bad, "\tldaa nowhere\n").expect("write");
    let out = hc11lab(&["run", bad.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["stop_reason"], "assembly_error", "{v}");
    assert_eq!(v["failed"], true);
    assert!(
        v["message"]
            .as_str()
            .unwrap_or("")
            .contains("undefined symbol `nowhere`"),
        "{v}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[E0004]"));
    let s19 = dir.join("bad.s19");
    std::fs::write(&s19, "S10600008601393A\n").expect("write");
    let v = json(&hc11lab(&["run", s19.to_str().unwrap(), "--json"]));
    assert_eq!(v["stop_reason"], "load_error", "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text report writes every dumped byte with `$` (a bare `24` reads as
/// decimal) and names a call site by file and line, as everything else does.
#[test]
fn dumps_are_hex_with_dollars_and_the_call_stack_names_files() {
    let out = hc11lab(&["run", "--keys", "drop", "--dump", "cursorColumn,board:2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("cursorColumn @ $0192: $"), "{text}");
    let line = text.lines().find(|l| l.starts_with("board:2 @ ")).unwrap();
    assert_eq!(line.matches('$').count(), 3, "{line}");
    let out = hc11lab(&["run", "--break", "drawCell"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("drawCell (called from drawBoardLoop, Board.inc:"),
        "{text}"
    );
    assert!(
        text.contains("(called from Start+3, Viergewinnt.asm:"),
        "{text}"
    );
}

/// An interrupt whose vector leads to RAM where the program put no code,
/// reached a few instructions after it came: the message names the
/// interrupt, its vector and where the program was, not the `bra` it
/// interrupted as if the branch had gone there; with the debugger too.
#[test]
fn an_interrupt_into_stray_code_is_named_not_the_branch_it_interrupted() {
    let dir = scratch("stray-interrupt");
    let board = bare_evb(&dir);
    let path = dir.join("rti.asm");
    // Two NOPs stored at $00EB at run time (no program bytes there), then
    // the zero after them is the illegal opcode.
    std::fs::write(
        &path,
        "\torg $C000\nstart\tlds #$00C0\n\tldd #$0101\n\tstd $00EB\n\tldaa #$40\n\tstaa $1024\n\tcli\nloop\tbra loop\n\torg $FFF0\n\tfdb $00EB\n\torg $FFFE\n\tfdb start\n",
    )
    .expect("write source");
    for extra in [None, Some("--profile")] {
        let mut args = vec!["run", "--board", &board, path.to_str().unwrap(), "--json"];
        args.extend(extra);
        let msg = message(&args);
        assert!(
            msg.contains("illegal opcode $00 at $00ED")
                && msg.contains("The real-time interrupt came with the program at `bra $C00E` at $C00E in loop (rti.asm:8) and went to $00EB through its vector $FFF0"),
            "{extra:?}: {msg}"
        );
        assert!(!msg.contains("went there"), "{extra:?}: {msg}");
    }
}

/// A WAI with I clear and nothing enabled: the stop says the IRQ pin is
/// enabled (it always is while I is clear) but driven by nothing, and
/// names the option that drives it; with `--irq low` the IRQ comes.
#[test]
fn a_wait_with_only_the_irq_pin_enabled_names_the_pin_and_the_option() {
    let dir = scratch("wai-irq");
    let board = bare_evb(&dir);
    let path = dir.join("wai.asm");
    std::fs::write(
        &path,
        "\torg $C000\nstart\tlds #$00FF\n\tcli\n\twai\nhere\tbra here\nirq\tldaa #$2A\n\tstaa $0010\n\tswi\n\torg $FFF2\n\tfdb irq\n\torg $FFF6\n\tfdb here\n\torg $FFFE\n\tfdb start\n",
    )
    .expect("write source");
    let msg = message(&["run", "--board", &board, path.to_str().unwrap(), "--json"]);
    assert!(
        msg.contains("the IRQ pin, enabled, is driven by nothing (`run --irq low` drives it)"),
        "{msg}"
    );
    assert!(!msg.contains("no interrupt source enabled"), "{msg}");
    let out = hc11lab(&[
        "run",
        "--board",
        &board,
        path.to_str().unwrap(),
        "--irq",
        "low",
        "--dump",
        "$0010:1",
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["symbols"]["$0010:1"]["bytes"][0], 0x2A, "{v}");
}

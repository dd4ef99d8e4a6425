//! Boards on the command line: `run --board evb`, a
//! board file, `--rom` with a monitor of our own (assembled by hc11lab into
//! S19) booting to its prompt and echoing `--serial-in`, `--irq low@N`,
//! errors for a bad board or ROM, and `board = "..."` in assignment.toml.

use hc11lab::grade::assignment::Assignment;
use serde_json::Value;
use std::path::{Path, PathBuf};
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

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hc11lab-board-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/boards")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.to_string_lossy().into_owned()
}

/// The monitor assembled by `hc11lab asm` into S19.
fn monitor_s19(dir: &Path) -> String {
    let s19 = dir.join("monitor.s19").to_string_lossy().into_owned();
    let out = hc11lab(&["asm", &data("monitor.asm"), "-o", &s19]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    s19
}

#[test]
fn rom_monitor_boots_to_its_prompt_and_answers_serial_input() {
    let dir = scratch("rom");
    let rom = monitor_s19(&dir);
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        "--rom",
        &rom,
        "--serial-in",
        "ab\r",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["stop_reason"], "settled");
    assert_eq!(v["waiting_on"], "serial input (SCSR.RDRF)");
    assert_eq!(v["serial"], "tiny monitor 1.0\r\n> ab\r\n> ");
    // A program given with the ROM is loaded too; the ROM's vector boots.
    let prog = write(&dir, "p.asm", "\torg $C000\nHere\tdc.b $42\n");
    let out = hc11lab(&[
        "run", "--board", "evb", "--rom", &rom, &prog, "--json", "--dump", "$C000:1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["serial"], "tiny monitor 1.0\r\n> ");
    assert_eq!(v["symbols"]["$C000:1"]["bytes"], serde_json::json!([0x42]));
}

#[test]
fn rom_outside_the_boards_rom_is_refused() {
    let dir = scratch("romout");
    let rom = monitor_s19(&dir);
    // A ROM at $C000 does not fit the evb's $E000-$FFFF.
    let low = write(&dir, "low.asm", "\torg $C000\n\tdc.b 1\n");
    let low_s19 = dir.join("low.s19").to_string_lossy().into_owned();
    assert!(hc11lab(&["asm", &low, "-o", &low_s19]).status.success());
    let out = hc11lab(&["run", "--board", "evb", "--rom", &low_s19]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bytes at $C000-$C000 are outside the ROM of board `evb` ($E000-$FFFF)"),
        "{err}"
    );
    // On the trainer11 ($C000-$FFFF) the same monitor's ROM fits.
    let out = hc11lab(&[
        "run",
        "--board",
        "trainer11",
        "--rom",
        &rom,
        "--max-cycles",
        "1000",
        "--json",
    ]);
    assert_eq!(json(&out)["stop_reason"], "cycle_budget");
}

#[test]
fn run_on_evb_and_on_a_board_file() {
    let dir = scratch("evb");
    let prog = write(
        &dir,
        "p.asm",
        "SCSR\tequ $102E\nSCDR\tequ $102F\n\torg $C000\nStart\tlds #$00FF\n\tldaa #'!'\n\
         w\tldab SCSR\n\tbpl w\n\tstaa SCDR\nd\tbra d\n\torg $FFFE\n\tdc.w Start\n",
    );
    let out = hc11lab(&["run", "--board", "evb", &prog, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json(&out)["serial"], "!");
    // No LCD on the evb: none in the report, and asking for its picture is an error.
    assert!(json(&out).get("lcd").is_none());
    let out = hc11lab(&["run", "--board", "evb", &prog, "--lcd-text"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("this board has no LCD"));
    let out = hc11lab(&["run", "--board", &data("evb-like.toml"), &prog, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json(&out)["serial"], "!");
    // On the trainer11 the same program does not load-check its addresses
    // the same way: $102F is RAM there, so nothing is sent.
    let out = hc11lab(&["run", &prog, "--json", "--max-cycles", "100000"]);
    assert_eq!(json(&out)["serial"], "");
    assert_eq!(json(&out)["lcd"].as_array().map(Vec::len), Some(64));
}

#[test]
fn bad_board_names_the_file_and_line() {
    let out = hc11lab(&["run", "--board", "nope.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: --board: nope.toml: cannot read the board file"),
        "{err}"
    );
    let out = hc11lab(&["run", "--board", &data("bad-overlap.toml")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad-overlap.toml:6: eeprom $B600-$B7FF overlaps ram"),
        "{err}"
    );
}

/// `--irq low@1000`: the loop's boundaries are 5 + 3k, the interrupt is
/// entered at 1001 and the handler's TCNT read comes 14 cycles later.
#[test]
fn irq_low_at_a_cycle_from_the_command_line() {
    let dir = scratch("irq");
    let prog = write(
        &dir,
        "p.asm",
        "\torg $C000\nStart\tlds #$7FFF\n\tcli\nloop\tbra loop\nirq\tldd $0E\n\tstd $0080\n\
         \tsei\nd\tbra d\n\torg $FFF2\n\tdc.w irq\n\torg $FFFE\n\tdc.w Start\n",
    );
    let out = hc11lab(&[
        "run", &prog, "--irq", "low@1000", "--json", "--dump", "$0080:2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["stop_reason"], "halted");
    assert_eq!(
        v["symbols"]["$0080:2"]["bytes"],
        serde_json::json!([0x03, 0xF7])
    );
    let out = hc11lab(&["run", &prog, "--irq", "low@soon"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a cycle count"));
}

#[test]
fn assignment_names_its_board() {
    let dir = scratch("assignment");
    let text = |board: &str| {
        format!(
            "[assignment]\nid = \"a\"\ntitle = \"A\"\nentry = \"a.asm\"\nboard = \"{board}\"\n\n\
             [[check]]\nname = \"builds\"\npoints = 1\nkind = \"assembles\"\n"
        )
    };
    let a = Assignment::from_toml(&text("evb"), &dir).expect("parses");
    assert_eq!(a.board, "evb");
    assert_eq!(a.board_setup.config.name, "evb");
    std::fs::copy(data("lab-board.toml"), dir.join("lab.toml")).expect("copy");
    let a = Assignment::from_toml(&text("lab.toml"), &dir).expect("parses");
    assert_eq!(a.board_setup.config.pio, Some(0x4000));
    let e = Assignment::from_toml(&text("missing.toml"), &dir).unwrap_err();
    assert!(e.starts_with("board `missing.toml`: "), "{e}");
    let none = Assignment::from_toml(
        &text("trainer11").replace("board = \"trainer11\"\n", ""),
        &dir,
    )
    .expect("parses");
    assert_eq!(none.board, "trainer11");
}

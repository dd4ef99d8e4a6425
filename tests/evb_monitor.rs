//! hc11lab's EVB monitor (docs/evb.md) as a user meets it: `run --board
//! evb|evbu` with no `--rom` starts an EVB program through the monitor, the
//! jump table's routines behave as BUFFALO documents them, the
//! pseudo-vectors lead interrupts to the program's handlers, `swi` comes
//! back to the monitor with the registers printed, and the run says where
//! the program started and why. The programs are in tests/data/evb.

#[path = "support/evb_run.rs"]
mod evb_run;
use evb_run::{data, hc11lab, json};

/// What the monitor prints before a program it starts: its banner, then
/// the prompt with the `G` it types for the program.
fn started(addr: &str) -> String {
    format!(
        "\r\n\0hc11lab EVB monitor 1.0 (BUFFALO interface; HELP lists the commands)\r\n\0>G {addr}\r\n"
    )
}

/// The program's part of the serial output: after the monitor's `G` line.
fn after_g(serial: &str) -> &str {
    serial.split_once(">G ").map_or("", |(_, rest)| {
        rest.split_once("\r\n").map_or("", |(_, r)| r)
    })
}

/// The ticks program counts ten real-time interrupts through the $00EB
/// pseudo-vector, prints with OUTSTRG and OUT1BSP, reads a key with INCHAR
/// and returns with swi: on `evb` and on `evbu`, with no ROM given, the
/// same output, and the run ends in the monitor with exit status 0.
#[test]
fn an_evb_program_runs_unchanged_on_evb_and_evbu_without_a_rom() {
    for board in ["evb", "evbu"] {
        let out = hc11lab(&[
            "run",
            "--board",
            board,
            "--dialect",
            "as11",
            &data("ticks.asm"),
            "--serial-in",
            "x",
            "--json",
        ]);
        assert_eq!(out.status.code(), Some(0), "{board}: {:?}", out);
        let v = json(&out);
        let serial = v["serial"].as_str().unwrap_or_default();
        assert!(serial.starts_with(&started("B600")), "{board}: {serial:?}");
        // OUTSTRG starts a line (CR LF NUL), OUT1BSP prints $0A and a
        // space, INCHAR echoes, OUTCRLF, then swi prints the registers as
        // BUFFALO does and the prompt follows.
        assert_eq!(
            after_g(serial),
            "\r\n\0Counting ticks0A x\r\n\0\r\n\0P-B622 Y-0000 X-0001 A-0D B-00 C-F4 S-0041 \r\n\0>",
            "{board}"
        );
        assert_eq!(v["stop_reason"], "returned_to_monitor", "{board}");
        let message = v["message"].as_str().unwrap_or_default();
        assert!(
            message
                .starts_with("the program returned to the monitor with `swi` at $B622 (ticks.asm:"),
            "{message}"
        );
        // The run says once what starts the program.
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.matches("hc11lab's EVB monitor").count(), 1, "{err}");
        assert!(
            err.contains(&format!(
                "board `{board}` runs hc11lab's EVB monitor in $E000-$FFFF"
            )) && err.contains(
                "starts the program at $B600 as `G B600` would (the operand of its END line)"
            ),
            "{err}"
        );
    }
}

/// Each routine of the jump table returns and prints what the EVB manual
/// documents.
#[test]
fn the_jump_table_routines_behave_as_documented() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("routines.asm"),
        "--serial-in",
        "k",
        "--json",
        "--dump",
        "$0000:14",
    ]);
    let v = json(&out);
    assert_eq!(v["stop_reason"], "returned_to_monitor", "{v}");
    let bytes: Vec<u64> = v["symbols"]["$0000:14"]["bytes"]
        .as_array()
        .expect("dump")
        .iter()
        .map(|b| b.as_u64().unwrap_or(0))
        .collect();
    let z = |ccr: u64| ccr & 0x04 != 0;
    assert_eq!(bytes[0], u64::from(b'Q'), "UPCASE");
    assert_eq!(bytes[1], u64::from(b'7'), "UPCASE leaves a digit");
    assert!(z(bytes[2]), "WCHEK: a comma is white space");
    assert!(!z(bytes[3]), "WCHEK: CR is not");
    assert!(z(bytes[4]), "DCHEK: CR is a delimiter");
    assert_eq!(bytes[5], 0, "INPUT with nothing typed");
    assert!(z(bytes[6]), "INPUT sets Z on nothing");
    // DATA is at $C060 (routines.asm's symbol table).
    assert_eq!(bytes[7] << 8 | bytes[8], 0xC061, "OUT1BYT moves X on");
    assert_eq!(bytes[9], u64::from(b' '), "OUT2BSP leaves the space in A");
    assert_eq!(bytes[12], 0x0D, "OUTCRLF leaves CR in A");
    assert_eq!(bytes[13], u64::from(b'k'), "INCHAR returns the key");
    let serial = v["serial"].as_str().unwrap_or_default();
    assert!(
        after_g(serial)
            == "A7-3C4D5E 6F abc\r\n\0k\r\n\0P-C05F Y-0000 X-C067 A-6B B-00 C-F0 S-0041 \r\n\0>",
        "{serial:?}"
    );
    // OUTSTRG0 leaves X on the $04 that ends the text (TEXT is $C064).
    assert_eq!(bytes[10] << 8 | bytes[11], 0xC067);
}

/// A program that begins with a stub in the pseudo-vector slots starts
/// after it, and the run says why; `--entry` names a start where the
/// program gives none; a program's END operand comes first.
#[test]
fn the_start_is_the_first_instruction_outside_the_slots_and_named() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("stubs_first.asm"),
        "--json",
        "--dump",
        "$0010:1",
    ]);
    let v = json(&out);
    assert_eq!(v["stop_reason"], "returned_to_monitor", "{v}");
    assert_eq!(v["symbols"]["$0010:1"]["bytes"][0], 1, "MAIN ran");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("starts the program at $C000 as `G C000` would (its first instruction after the pseudo-vector stubs at $00C4-$00FF"),
        "{err}"
    );
    // --entry CAPTURE: the stub's target instead (an RTI with nothing
    // stacked: the program goes astray, but it started where asked).
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("stubs_first.asm"),
        "--entry",
        "capture",
        "--json",
        "--dump",
        "$0010:1",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("at $C005 as `G C005` would (--entry)"),
        "{err}"
    );
    assert_eq!(
        json(&out)["symbols"]["$0010:1"]["bytes"][0],
        0,
        "MAIN did not run"
    );
    // The END operand wins over --entry, and the note says so.
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("ticks.asm"),
        "--entry",
        "$B610",
        "--serial-in",
        "x",
        "--json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("(the operand of its END line; --entry $B610 is not used: the program's own start comes first)"),
        "{err}"
    );
    let bad = hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("stubs_first.asm"),
        "--entry",
        "nowhere",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr)
            .contains("error: --entry: `nowhere` is neither a label of the program nor an address"),
        "{:?}",
        bad
    );
}

/// An interrupt whose slot holds no JMP is caught by the monitor, which
/// names it; the run fails.
#[test]
fn an_interrupt_without_a_handler_is_named() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("no_handler.asm"),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["stop_reason"], "unhandled_interrupt");
    let message = v["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("the RTI interrupt came with the program at $C006 (no_handler.asm:8), and its pseudo-vector $00EB holds no JMP"),
        "{message}"
    );
    let serial = v["serial"].as_str().unwrap_or_default();
    assert!(
        serial
            .contains("Interrupt without a handler: RTI (its pseudo-vector at $00EB holds no JMP)"),
        "{serial:?}"
    );
}

/// After the program returns, the monitor answers its commands: R, MD,
/// G (again, from an address) and HELP; an unknown word gets "What?".
#[test]
fn the_monitor_answers_its_commands() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("stubs_first.asm"),
        "--serial-in",
        "md c000 c00f\rR\rhelp\rfoo\rG C000\r",
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["stop_reason"], "returned_to_monitor", "{v}");
    let serial = v["serial"].as_str().unwrap_or_default();
    assert!(
        serial.contains("md c000 c00f\r\n\r\n\0C000 86 01 97 10 3F 3B 00 00 00 00 00 00 00 00 00 00  ....?;..........\r\n\0>"),
        "{serial:?}"
    );
    assert!(
        serial.contains("R\r\n\r\n\0P-C004 Y-0000 X-0000 A-01 B-00 C-D0 S-0041 "),
        "{serial:?}"
    );
    assert!(serial.contains("MD addr [last]  memory dump"), "{serial:?}");
    assert!(serial.contains("foo\r\n\r\n\0What?"), "{serial:?}");
    assert_eq!(serial.matches("P-C004").count(), 3, "{serial:?}");
}

/// PE0 high at reset (the boot jumper moved: `--pin PE0=1`) starts the
/// EEPROM at $B600 at once, as BUFFALO does: no banner, no `G`, and the
/// stack pointer still at $0000 (a program started so sets it itself).
#[test]
fn pe0_high_starts_the_eeprom() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evbu",
        "--dialect",
        "as11",
        &data("ticks.asm"),
        "--pin",
        "PE0=1",
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["serial"], "", "{v}");
    let message = v["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("by the instruction at $B603: `jsr $FFC7` in START+3 (ticks.asm:21)")
            && message.contains("SP is $0000, as after reset"),
        "{message}"
    );
}

/// With BUFFALO 3.4 (your own copy: HC11LAB_BUFFALO_S19=buf34.s19, not
/// shipped) started with `G`, the ticks program writes what it writes
/// under hc11lab's monitor.
#[test]
#[ignore = "needs BUFFALO 3.4's S19 in HC11LAB_BUFFALO_S19"]
fn the_monitor_writes_what_buffalo_writes() {
    let Ok(rom) = std::env::var("HC11LAB_BUFFALO_S19") else {
        panic!("set HC11LAB_BUFFALO_S19 to BUFFALO 3.4's S19");
    };
    let ours = json(&hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("ticks.asm"),
        "--serial-in",
        "x",
        "--json",
    ]));
    let theirs = json(&hc11lab(&[
        "run",
        "--board",
        "evb",
        "--rom",
        &rom,
        "--dialect",
        "as11",
        &data("ticks.asm"),
        "--serial-in",
        "\rG B600\rx",
        "--json",
    ]));
    let (a, b) = (
        ours["serial"].as_str().unwrap_or_default(),
        theirs["serial"].as_str().unwrap_or_default(),
    );
    assert_eq!(after_g(a), after_g(b), "{a:?}\n{b:?}");
}

/// The EVB's host port: an MC6850 ACIA at $9800 that needs a master reset
/// (status 0 until a control word ends it, then TDRE) and sends what is
/// written to $9801, and the D flip-flop at $4000 that takes writes and
/// reads $FF, as BUFFALO probes them; the EVBU has neither, so the same
/// write there is a fault.
#[test]
fn the_evb_host_port_acia_and_flip_flop_answer_as_buffalo_expects() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        &data("host_port.asm"),
        "--json",
        "--max-cycles",
        "20000",
        "--dump",
        "$0010:3",
    ]);
    let v = json(&out);
    let bytes = &v["symbols"]["$0010:3"]["bytes"];
    assert_eq!(bytes[0], 0, "status after the master reset: {v}");
    assert_eq!(bytes[1], 0x02, "TDRE after the setup: {v}");
    assert_eq!(bytes[2], 0xFF, "the flip-flop reads $FF: {v}");
    assert_eq!(v["acia_serial"], "Hi", "{v}");
    assert_eq!(v["serial"], "", "nothing on the SCI: {v}");
    let text = hc11lab(&[
        "run",
        "--board",
        "evb",
        &data("host_port.asm"),
        "--max-cycles",
        "20000",
    ]);
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("host port (ACIA): \"Hi\""),
        "{text:?}"
    );
    let out = hc11lab(&["run", "--board", "evbu", &data("host_port.asm"), "--json"]);
    let v = json(&out);
    assert_eq!(v["stop_reason"], "unmapped_write", "{v}");
    assert!(
        v["message"].as_str().unwrap_or_default().contains("$9800"),
        "{v}"
    );
}

/// The EVBU's MC68HC11E9 has 512 bytes of RAM: a program that keeps its
/// variables at $0100-$01FF runs there under the monitor; on the EVB
/// (256 bytes) the same program cannot load, and the error says where.
#[test]
fn evbu_variables_above_0100_run_and_the_evb_refuses_them() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evbu",
        "--dialect",
        "as11",
        &data("e9_ram.asm"),
        "--json",
        "--dump",
        "$0100:2,$01FF:1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v = json(&out);
    assert_eq!(v["stop_reason"], "returned_to_monitor", "{v}");
    assert_eq!(v["symbols"]["$0100:2"]["bytes"][0], 0x12, "{v}");
    assert_eq!(v["symbols"]["$0100:2"]["bytes"][1], 0x35, "{v}");
    assert_eq!(v["symbols"]["$01FF:1"]["bytes"][0], 0xA5, "{v}");
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("e9_ram.asm"),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v = json(&out);
    assert_eq!(v["stop_reason"], "load_error", "{v}");
    assert!(
        v["message"].as_str().unwrap_or_default().contains("$0100"),
        "{v}"
    );
}

/// Commands typed while the monitor prints: typed (the default) every
/// character arrives and nothing is lost; on the wire (back to back at the
/// baud rate) characters that come while SCDR still holds one are lost, as
/// on the chip, and the run counts them and says how to avoid it.
#[test]
fn typed_input_reaches_the_monitor_and_wire_input_loses_what_it_overruns() {
    let run = |timing: &str| {
        json(&hc11lab(&[
            "run",
            "--board",
            "evb",
            "--dialect",
            "as11",
            &data("stubs_first.asm"),
            "--serial-in",
            "MD C000 C00F\rMD C000 C00F\r",
            "--serial-timing",
            timing,
            "--json",
        ]))
    };
    let typed = run("typed");
    assert!(typed.get("serial_lost").is_none(), "{typed}");
    let serial = typed["serial"].as_str().unwrap_or_default();
    assert_eq!(serial.matches(">MD C000 C00F\r\n").count(), 2, "{serial:?}");
    assert_eq!(serial.matches("C000 86 01").count(), 2, "{serial:?}");
    let wire = run("wire");
    let lost = wire["serial_lost"].as_u64().unwrap_or(0);
    assert!(lost > 0, "{wire}");
    let message = wire["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!(
            "{lost} characters were lost: SCDR was read too late (OR set); --serial-timing typed sends each byte once the program has read the one before"
        )),
        "{message}"
    );
}

/// BUFFALO 3.72 built for its D-series target (your own copy, made
/// consistent as docs/evb.md shows: HC11LAB_BUFFALO372_S19=buf372.s19, not
/// shipped) answers ASM, BR, G, T, MD and RM on the d3-like board file.
#[test]
#[ignore = "needs BUFFALO 3.72's S19 in HC11LAB_BUFFALO372_S19"]
fn buffalo_372_answers_its_commands_on_the_d3_like_board() {
    let Ok(rom) = std::env::var("HC11LAB_BUFFALO372_S19") else {
        panic!("set HC11LAB_BUFFALO372_S19 to BUFFALO 3.72's S19");
    };
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/boards");
    let board = dir.join("d3-like.toml").to_string_lossy().into_owned();
    let steps = dir.join("d3_steps.asm").to_string_lossy().into_owned();
    let v = json(&hc11lab(&[
        "run",
        "--board",
        &board,
        "--rom",
        &rom,
        &steps,
        "--serial-in",
        "\rASM 1000\r\x01BR 1004\rG 1000\rT\rT\rMD 1100 110F\rRM\r\rG\r",
        "--json",
    ]));
    assert_eq!(v["stop_reason"], "settled", "{v}");
    assert!(v.get("serial_lost").is_none(), "{v}");
    // Without NULs and trailing spaces, CR LF as new lines.
    let serial: String = v["serial"]
        .as_str()
        .unwrap_or_default()
        .replace('\0', "")
        .replace("\r\n", "\n")
        .lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    for line in [
        "1000 LDAA #$01       >",
        "1004 0000 0000 0000",
        "P-1004 Y-0000 X-0000 A-01 B-02 C-D0 S-0083",
        "MUL                  P-1005 Y-0000 X-0000 A-00 B-02 C-90 S-0083",
        "ABA                  P-1009 Y-0000 X-0000 A-02 B-02 C-90 S-0083",
        "1100 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 ................",
        ">RM\nP-1009 Y-0000 X-0000 A-02 B-02 C-90 S-0083\nP-1009\n",
        "P-100A Y-0000 X-0000 A-02 B-02 C-90 S-0083\n>",
    ] {
        assert!(serial.contains(line), "{line:?} not in\n{serial}");
    }
}

/// The input-buffer routines ($FF91-$FF9A): a program started with
/// `G C000   hello there` reads the rest of its line with WSKIP, READBUFF
/// and INCBUFF and steps back with DECBUFF; started with nothing after the
/// address (the monitor's own `G C000`), WSKIP finds the CR at once.
#[test]
fn the_buffer_routines_read_the_rest_of_the_g_line() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("line_args.asm"),
        "--serial-in",
        "G C000   hello there\r",
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["stop_reason"], "returned_to_monitor", "{v}");
    let serial = v["serial"].as_str().unwrap_or_default();
    assert!(
        after_g(serial).starts_with("-\r\n\0P-C024 "),
        "nothing after the address: {serial:?}"
    );
    assert!(
        serial.contains(">G C000   hello there\r\nhelloo\r\n\0P-C01E "),
        "{serial:?}"
    );
}

/// CHKABRT ($FF9D): a key other than CTRL-X, DEL or CTRL-W is read and
/// dropped (the program goes on), CTRL-W holds the program until the next
/// key, CTRL-X and DEL end it at the monitor's prompt.
#[test]
fn chkabrt_drops_keys_waits_on_ctrl_w_and_aborts_on_ctrl_x() {
    let calls = |serial_in: &str, keys: Option<&str>| {
        let mut args = vec![
            "run",
            "--board",
            "evb",
            "--dialect",
            "as11",
            &data("abort_key.asm"),
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
        args.extend(["--serial-in", serial_in, "--json", "--dump", "$0000:2"].map(String::from));
        if let Some(k) = keys {
            args.extend(["--keys".to_string(), k.to_string()]);
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let v = json(&hc11lab(&argv));
        let b = &v["symbols"]["$0000:2"]["bytes"];
        let n = b[0].as_u64().unwrap_or(0) << 8 | b[1].as_u64().unwrap_or(0);
        (n, v["serial"].as_str().unwrap_or_default().to_string())
    };
    // A dropped key: the program calls on while the run waits longer.
    let (short, serial) = calls("a", None);
    let (long, _) = calls("a", Some("wait:200000"));
    assert!(after_g(&serial) == "*", "{serial:?}");
    assert!(long > short, "{short} {long}");
    // CTRL-W: no call while it waits for the next key.
    let (short, _) = calls("\x17", None);
    let (long, _) = calls("\x17", Some("wait:200000"));
    assert_eq!(short, long);
    let (resumed, serial) = calls("\x17x", Some("wait:200000"));
    assert!(resumed > long, "the next key goes on: {long} {resumed}");
    assert!(after_g(&serial) == "*", "{serial:?}");
    for abort in ["\x18", "\x7f", "a\x17b\x18"] {
        let (_, serial) = calls(abort, None);
        assert!(after_g(&serial) == "*\r\n\0>", "{abort:?}: {serial:?}");
    }
}

/// HEXBIN, BUFFARG and TERMARG ($FF85-$FF8B) leave their number in
/// SHFTREG ($0096) and count characters that are no hex digit in TMP1
/// ($00C0), where BUFFALO keeps them: BUFFARG reads `1a2B3` after `G
/// C000` (the last four digits stay), TERMARG reads `4g,` typed on the
/// terminal, HEXBIN counts an `x` and shifts in an `e`.
#[test]
fn hexbin_buffarg_and_termarg_fill_shftreg_and_tmp1() {
    let v = json(&hc11lab(&[
        "run",
        "--board",
        "evb",
        "--dialect",
        "as11",
        &data("hex_args.asm"),
        "--serial-in",
        "7g5 G C000 1a2B3\r4g,",
        "--json",
        "--dump",
        "$0000:11",
    ]));
    assert_eq!(v["stop_reason"], "returned_to_monitor", "{v}");
    let bytes: Vec<u64> = v["symbols"]["$0000:11"]["bytes"]
        .as_array()
        .expect("dump")
        .iter()
        .map(|b| b.as_u64().unwrap_or(0))
        .collect();
    assert_eq!(bytes[0], 0x0D, "BUFFARG ends on the CR");
    assert_eq!(bytes[1..3], [0xA2, 0xB3], "BUFFARG: the last four digits");
    assert_eq!(bytes[3], 0, "BUFFARG: no bad character");
    assert_eq!(bytes[4], u64::from(b','), "TERMARG ends on the comma");
    assert_eq!(bytes[5..7], [0x00, 0x04], "TERMARG: the digit 4");
    assert_eq!(bytes[7], 1, "TERMARG: the g counted");
    assert_eq!(bytes[8], 2, "HEXBIN: the x counted");
    assert_eq!(bytes[9..11], [0x00, 0x4E], "HEXBIN: the e shifted in");
    let serial = v["serial"].as_str().unwrap_or_default();
    assert!(
        serial.contains(">G C000 1a2B3\r\n4g,\r\n"),
        "TERMARG echoes: {serial:?}"
    );
}

/// BUFFALO 3.4 as converted to ASM11 (tonypdmtr/buffalo `buf34.asm`, not
/// shipped; its command table is one `cmd` macro per command, so this
/// checks ASM11's macro language end to end): assembled by hc11lab, it
/// boots on `evb` and answers MD and HELP.
/// `HC11LAB_BUF34_ASM11=buf34.asm cargo test --test evb_monitor -- --ignored`
#[test]
#[ignore = "needs the ASM11 source of BUFFALO 3.4 in HC11LAB_BUF34_ASM11"]
fn buffalo_34_converted_to_asm11_assembles_and_answers() {
    let Ok(src) = std::env::var("HC11LAB_BUF34_ASM11") else {
        panic!("set HC11LAB_BUF34_ASM11 to tonypdmtr/buffalo's buf34.asm");
    };
    let s19 = std::env::temp_dir().join(format!("hc11lab-buf34-asm11-{}.s19", std::process::id()));
    let s19_path = s19.to_string_lossy().into_owned();
    let asm = hc11lab(&["asm", "--dialect", "asm11", &src, "-o", &s19_path]);
    assert_eq!(asm.status.code(), Some(0), "{asm:?}");
    let v = json(&hc11lab(&[
        "run",
        "--board",
        "evb",
        "--rom",
        &s19_path,
        "--serial-in",
        "\rMD E000\rHELP\r",
        "--json",
    ]));
    let _ = std::fs::remove_file(&s19);
    let serial = v["serial"].as_str().unwrap_or_default();
    assert!(serial.contains("BUFFALO 3.4"), "{serial}");
    assert!(serial.contains("E000 CE 10 0A"), "MD answered: {serial}");
    assert!(
        serial.contains("MD [<addr1> [<addr2>]]"),
        "HELP answered: {serial}"
    );
}

//! Input typed to the EVB's second serial port, the host port's MC6850
//! ACIA at $9800 (`run --acia-in`): it reaches the program as
//! `--serial-in` reaches the SCI, paced the same way (`--serial-timing`),
//! what the program sends there is shown, and bytes it lost or never took
//! are counted and named. The programs are in tests/data/evb.

#[path = "support/evb_run.rs"]
mod evb_run;
use evb_run::{data, hc11lab, json};

/// The echo program answers on the ACIA what was typed to it, line by
/// line; the answer is `acia_serial` in `--json` and the `host port
/// (ACIA)` line of the text report, and nothing went to the SCI.
#[test]
fn typed_acia_input_reaches_the_program_and_its_answer_is_shown() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        &data("acia_echo.asm"),
        "--acia-in",
        "hi\rab\r",
        "--json",
        "--dump",
        "$0010:1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v = json(&out);
    assert_eq!(v["acia_serial"], "hi\rOK\r\nab\rOK\r\n", "{v}");
    assert_eq!(v["symbols"]["$0010:1"]["bytes"][0], 6, "{v}");
    assert!(v.get("acia_lost").is_none(), "{v}");
    assert!(v.get("acia_unsent").is_none(), "{v}");
    assert_eq!(v["serial"], "", "{v}");
    let text = hc11lab(&[
        "run",
        "--board",
        "evb",
        &data("acia_echo.asm"),
        "--acia-in",
        "hi\r",
    ]);
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("host port (ACIA): \"hi\\rOK\\r\\n\""),
        "{text:?}"
    );
}

/// A program that takes each byte five frames after it came: typed input
/// (the default) waits for each read and loses nothing; on the wire the
/// bytes come back to back, those that arrive while the receive data
/// register is full are lost (the program sees OVRN, as on the chip), and
/// the run counts them and says how to avoid it.
#[test]
fn wire_acia_input_overruns_a_slow_reader_and_typed_input_does_not() {
    let run = |timing: &str| {
        json(&hc11lab(&[
            "run",
            "--board",
            "evb",
            &data("acia_slow.asm"),
            "--acia-in",
            "abcdefgh",
            "--serial-timing",
            timing,
            "--json",
            "--dump",
            "$0010:2,$0020:8",
        ]))
    };
    let typed = run("typed");
    assert!(typed.get("acia_lost").is_none(), "{typed}");
    assert_eq!(typed["symbols"]["$0010:2"]["bytes"][0], 8, "{typed}");
    assert_eq!(
        typed["symbols"]["$0010:2"]["bytes"][1], 0,
        "no OVRN: {typed}"
    );
    let got: Vec<u8> = typed["symbols"]["$0020:8"]["bytes"]
        .as_array()
        .expect("dump")
        .iter()
        .map(|b| b.as_u64().unwrap_or(0) as u8)
        .collect();
    assert_eq!(got, b"abcdefgh", "{typed}");
    let wire = run("wire");
    let lost = wire["acia_lost"].as_u64().unwrap_or(0);
    assert!(lost > 0, "{wire}");
    // OVRN shows once the byte before the loss was read (MC6850).
    assert_eq!(
        wire["symbols"]["$0010:2"]["bytes"][1], 0x20,
        "OVRN seen: {wire}"
    );
    let message = wire["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!(
            "{lost} characters for the host port (ACIA) were lost: its receive data register was read too late (OVRN set); --serial-timing typed sends each byte once the program has read the one before"
        )),
        "{message}"
    );
}

/// Input waits for the program to set the port up: a program that never
/// ends the ACIA's master reset receives nothing, and the run says so.
#[test]
fn acia_input_waits_for_the_master_reset_and_is_named_when_never_sent() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evb",
        &data("acia_never_set_up.asm"),
        "--acia-in",
        "xyz",
        "--json",
        "--max-cycles",
        "200000",
    ]);
    let v = json(&out);
    assert_eq!(v["acia_unsent"], 3, "{v}");
    let message = v["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(
            "3 characters for the host port (ACIA) were not sent: the program never ended the ACIA's master reset"
        ),
        "{message}"
    );
}

/// A board without an ACIA refuses the option before anything runs.
#[test]
fn acia_input_on_a_board_without_an_acia_is_refused() {
    let out = hc11lab(&[
        "run",
        "--board",
        "evbu",
        &data("acia_echo.asm"),
        "--acia-in",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--acia-in: board `evbu` has no ACIA"), "{err}");
}

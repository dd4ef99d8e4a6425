//! `hc11lab asm` and `hc11lab disasm` as a user runs them: exit codes, files
//! written, messages that name file:line:column.

use std::path::PathBuf;
use std::process::Command;

fn hc11lab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hc11lab"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hc11lab-cli-asm-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn assembles_the_firmware_to_s19_listing_and_symbols() {
    let dir = scratch("fw");
    let out = hc11lab()
        .args(["asm", "firmware/Viergewinnt.asm", "-o"])
        .arg(dir.join("v.s19"))
        .arg("--listing")
        .arg(dir.join("v.lst"))
        .arg("--symbols")
        .arg(dir.join("v.sym"))
        .output()
        .expect("run hc11lab");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s19 = std::fs::read_to_string(dir.join("v.s19")).expect("s19 written");
    let parsed = hc11lab::image::s19::parse_s19(&s19).expect("our S19 reads back");
    let program = hc11lab::firmware::program().expect("bundled firmware");
    assert_eq!(parsed.program.entry, program.entry);
    for seg in &program.segments {
        for (i, b) in seg.bytes.iter().enumerate() {
            let addr = seg.start + i as u16;
            assert_eq!(
                parsed.program.byte_at(addr),
                Some(*b),
                "byte at ${addr:04X}"
            );
        }
    }
    let listing = std::fs::read_to_string(dir.join("v.lst")).expect("listing written");
    assert!(
        listing.contains("C1A3  18 A6 00"),
        "drawCell's lda 0,y in the listing"
    );
    let symbols = std::fs::read_to_string(dir.join("v.sym")).expect("symbols written");
    assert!(
        symbols
            .lines()
            .any(|l| l.eq_ignore_ascii_case("board $0040")),
        "{symbols}"
    );
}

#[test]
fn a_broken_source_exits_1_and_names_file_line_column() {
    let dir = scratch("broken");
    let src = dir.join("broken.asm");
    std::fs::write(&src, "start\tldaa #1\n\tldaaa #2\n\tjmp nowhere\n").expect("write");
    let out = hc11lab()
        .arg("asm")
        .arg(&src)
        .output()
        .expect("run hc11lab");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("broken.asm:2:2"), "{err}");
    assert!(err.contains("ldaa"), "suggests the closest mnemonic: {err}");
    assert!(
        err.contains("nowhere"),
        "reports the second error too: {err}"
    );
}

#[test]
fn disassembles_an_s19_and_rejects_garbage() {
    let dir = scratch("dis");
    let s19 = dir.join("p.s19");
    std::fs::write(&s19, "S106000086013939\nS9030000FC\n").expect("write");
    let out = hc11lab()
        .arg("disasm")
        .arg(&s19)
        .output()
        .expect("run hc11lab");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("ldaa #$01"), "{text}");
    assert!(text.contains("rts"), "{text}");

    let bad = dir.join("bad.s19");
    std::fs::write(&bad, "S10600008601393A\n").expect("write");
    let out = hc11lab()
        .arg("disasm")
        .arg(&bad)
        .output()
        .expect("run hc11lab");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
}

#[test]
fn bad_usage_exits_2() {
    let out = hc11lab().args(["asm"]).output().expect("run hc11lab");
    assert_eq!(out.status.code(), Some(2));
    let out = hc11lab()
        .args(["frobnicate"])
        .output()
        .expect("run hc11lab");
    assert_eq!(out.status.code(), Some(2));
}

/// A listing written to a reader that goes away (`--listing /dev/stdout |
/// head`) ends quietly with success, as output to standard output does;
/// the listing (150 KB) is larger than a pipe holds, so the write meets the
/// closed pipe.
#[test]
fn a_listing_to_a_closed_pipe_is_no_error() {
    let firmware = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm");
    let mut child = hc11lab()
        .arg("asm")
        .arg(&firmware)
        .args(["--listing", "/dev/stdout"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start hc11lab");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("Broken pipe"), "{err}");
}

/// A file named as an image is loaded, never assembled: a `.s19` that is no
/// S-record text, an empty one or a cut-short record get the loader's
/// located error; Intel HEX and raw binaries say how to convert them; a
/// `.s19` with old-Mac CR line ends loads; loader warnings name the file;
/// assembler errors are printed with one `error` prefix.
#[test]
fn files_named_as_images_are_loaded_and_their_problems_named() {
    let dir = scratch("images");
    let case = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).expect("write");
        let out = hc11lab()
            .arg("disasm")
            .arg(&p)
            .output()
            .expect("run hc11lab");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, _, err) = case("text.s19", b"hello world\nS9030000FC\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("text.s19: line 1: not an S-record"), "{err}");
    let (code, _, err) = case("short.s19", b"S1");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("S1 record too short"), "{err}");
    let (code, _, err) = case("empty.s19", b"");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("the file is empty"), "{err}");
    let (code, _, err) = case("p.hex", b":0300000086013940\n:00000001FF\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("Intel HEX") && err.contains("-O srec"),
        "{err}"
    );
    let (code, _, err) = case("p.bin", &[0x86, 0x01, 0x39, 0x00]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("raw binary") && err.contains("-O srec"),
        "{err}"
    );
    let (code, out, err) = case("mac.s19", b"S106000086013939\rS9030000FC\r");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("ldaa #$01"), "{out}");
    let (code, _, err) = case("nos9.s19", b"S106000086013939\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(err.starts_with("warning: "), "{err}");
    assert!(err.contains("nos9.s19: no S7/S8/S9 end record"), "{err}");
    let (code, _, err) = case("bad.asm", b"\tldaa nowhere\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.starts_with("error[E"), "one prefix: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

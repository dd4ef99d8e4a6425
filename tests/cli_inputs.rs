//! Every file a user names is read within bounds (docs/cli.md, "Inputs and
//! their limits"): only regular files (a fifo, a folder or a device gets a
//! message that says so, at once), sizes checked before reading, serial
//! input no longer than a run can take; outputs never replace an input or
//! each other; floods of warnings are capped. Each command runs as a child
//! process with a deadline, so a hang fails the test instead of stalling it.

#[path = "support/deadline.rs"]
mod deadline;

use deadline::{hc11lab_in, run_with_deadline, scratch};
use std::path::{Path, PathBuf};

/// A small program that ends in a loop, for `run`.
const PROGRAM: &str = " org $C000\nStart lds #$00FF\nLoop bra Loop\n org $FFFE\n dc.w Start\n";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_refused_at_once_wherever_a_file_is_named() {
    let dir = scratch("inputs-special");
    deadline::mkfifo(&dir.join("fifo"));
    std::fs::write(dir.join("p.asm"), PROGRAM).unwrap();
    for special in ["fifo", "/dev/zero"] {
        let is = if special == "fifo" {
            "a fifo"
        } else {
            "a device"
        };
        for args in [
            vec!["asm", special],
            vec!["disasm", special],
            vec!["run", special],
            vec!["run", "p.asm", "--rom", special, "--board", "evb"],
            vec!["run", "p.asm", "--script", special],
            vec!["run", "p.asm", "--serial-in-file", special],
            vec!["run", "p.asm", "--board", special],
        ] {
            let r = hc11lab_in(&dir, &args, 60);
            assert!(r.code == 1 || r.code == 2, "{args:?}: {}", r.stderr);
            assert!(
                r.stderr.contains(is) && r.stderr.contains("not a regular file"),
                "{args:?}: {}",
                r.stderr
            );
        }
    }
    // A folder where a file is wanted says so too.
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    for args in [
        vec!["asm", "sub"],
        vec!["run", "p.asm", "--script", "sub"],
        vec!["run", "p.asm", "--rom", "sub"],
    ] {
        let r = hc11lab_in(&dir, &args, 60);
        assert!(
            r.stderr.contains("it is a folder"),
            "{args:?}: {}",
            r.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_huge_source_is_refused_by_its_size_before_it_is_read() {
    let dir = scratch("inputs-huge");
    // 3 GB, sparse: reading it would take minutes and all the memory.
    let big = std::fs::File::create(dir.join("big.asm")).unwrap();
    big.set_len(3 << 30).unwrap();
    for cmd in ["run", "asm", "disasm"] {
        let r = hc11lab_in(&dir, &[cmd, "big.asm"], 60);
        assert_eq!(r.code, 1, "{cmd}: {}", r.stderr);
        assert!(
            r.stderr.contains("E0014") && r.stderr.contains("3221225472 bytes"),
            "{cmd}: {}",
            r.stderr
        );
    }
    // An image is refused by the image limit.
    let big = std::fs::File::create(dir.join("big.s19")).unwrap();
    big.set_len(1 << 30).unwrap();
    let r = hc11lab_in(&dir, &["disasm", "big.s19"], 60);
    assert!(
        r.stderr.contains("more than the 16777216 bytes allowed"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serial_input_is_read_only_as_far_as_the_run_can_take_it() {
    let dir = scratch("inputs-serial");
    std::fs::write(dir.join("p.asm"), PROGRAM).unwrap();
    std::fs::write(dir.join("in.bin"), vec![b'x'; 100_000]).unwrap();
    // 1,600 E-cycles take at most 11 bytes at the SCI's fastest rate.
    let args = [
        "run",
        "p.asm",
        "--serial-in-file",
        "in.bin",
        "--max-cycles",
        "1600",
    ];
    let r = hc11lab_in(&dir, &args, 60);
    assert!(
        r.stderr.contains("only the first 11 bytes are sent"),
        "{}",
        r.stderr
    );
    // Standard input that never ends (as `yes | hc11lab run ...`) is read
    // no further than that either.
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hc11lab"));
    cmd.current_dir(&dir).args([
        "run",
        "p.asm",
        "--serial-in-file",
        "-",
        "--max-cycles",
        "16000",
    ]);
    let r = run_with_deadline(cmd, Some(vec![b'y'; 64 << 20]), 60);
    assert!(
        r.stderr.contains("only the first 101 bytes are sent"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_course_whose_reference_image_is_a_fifo_or_device_is_refused() {
    let dir = scratch("inputs-course");
    let course = dir.join("course");
    let ex = course.join("e1-draw");
    copy_tree(&repo().join("lessons/e1-draw"), &ex);
    let image = ex.join("reference/reference.s19");
    for special in ["fifo", "zero"] {
        std::fs::remove_file(&image).unwrap();
        if special == "fifo" {
            deadline::mkfifo(&image);
        } else {
            std::os::unix::fs::symlink("/dev/zero", &image).unwrap();
        }
        let r = hc11lab_in(&dir, &["lesson", "validate", "course"], 120);
        assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains("reference.s19") && r.stdout.contains("not a regular file"),
            "{}",
            r.stdout
        );
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hc11lab"));
        cmd.current_dir(&dir)
            .env("HC11LAB_LESSONS", &course)
            .args(["lesson", "check", "e1-draw"])
            .arg(repo().join("tests/solutions/e1-draw"));
        let r = run_with_deadline(cmd, None, 120);
        assert!(
            r.stderr.contains("reference.s19") && r.stderr.contains("not a regular file"),
            "{}",
            r.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[cfg(unix)]
#[test]
fn a_main_file_that_is_no_regular_file_is_named_as_such_by_lesson_check() {
    let dir = scratch("inputs-entry");
    let cases: [(&str, &str); 3] = [
        ("fifo", "not a regular file"),
        ("link", "symbolic link"),
        ("folder", "it is a folder"),
    ];
    for (kind, said) in cases {
        let sub = dir.join(kind);
        std::fs::create_dir_all(&sub).unwrap();
        let main = sub.join("Viergewinnt.asm");
        match kind {
            "fifo" => deadline::mkfifo(&main),
            "link" => {
                std::os::unix::fs::symlink(repo().join("firmware/Viergewinnt.asm"), &main).unwrap()
            }
            _ => std::fs::create_dir_all(&main).unwrap(),
        }
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hc11lab"));
        cmd.current_dir(repo())
            .args(["lesson", "check", "viergewinnt"])
            .arg(&sub);
        let r = run_with_deadline(cmd, None, 120);
        assert_eq!(r.code, 1, "{kind}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("Viergewinnt.asm") && r.stderr.contains(said),
            "{kind}: {}{}",
            r.stdout,
            r.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn includes_that_are_folders_or_devices_say_what_they_are() {
    let dir = scratch("inputs-include");
    std::fs::create_dir_all(dir.join("dir.inc")).unwrap();
    std::fs::write(
        dir.join("p.asm"),
        format!(" include \"dir.inc\"\n include \"/dev/zero\"\n{PROGRAM}"),
    )
    .unwrap();
    let r = hc11lab_in(&dir, &["asm", "p.asm"], 60);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("cannot include `dir.inc`: it is a folder, not a regular file"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("did you mean"), "{}", r.stderr);
    assert!(
        r.stderr.contains("`\"/dev/zero\"` is outside")
            || r.stderr.contains("`/dev/zero` is outside"),
        "{}",
        r.stderr
    );
    #[cfg(unix)]
    {
        deadline::mkfifo(&dir.join("pipe.inc"));
        std::fs::write(dir.join("q.asm"), format!(" include pipe.inc\n{PROGRAM}")).unwrap();
        let r = hc11lab_in(&dir, &["asm", "q.asm"], 60);
        assert!(
            r.stderr
                .contains("`pipe.inc`: it is a fifo, device or socket"),
            "{}",
            r.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outputs_never_replace_an_input_or_each_other() {
    let dir = scratch("inputs-outputs");
    std::fs::write(dir.join("Lib.inc"), "Value equ 1\n").unwrap();
    let source = format!(" include Lib.inc\n{PROGRAM}");
    std::fs::write(dir.join("p.asm"), &source).unwrap();
    std::fs::write(dir.join("x.s19"), "keep").unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    for (args, said) in [
        (
            vec!["asm", "p.asm", "-o", "p.asm"],
            "-o p.asm is the source p.asm",
        ),
        (
            vec!["asm", "p.asm", "--listing", "./sub/../p.asm"],
            "is the source",
        ),
        (
            vec!["asm", "p.asm", "--symbols", "Lib.inc"],
            "is the included file Lib.inc",
        ),
        (
            vec!["asm", "p.asm", "-o", "x.s19", "--listing", "x.s19"],
            "-o and --listing both name x.s19",
        ),
        (
            vec![
                "asm",
                "p.asm",
                "-o",
                "new.s19",
                "--symbols",
                "sub/../new.s19",
            ],
            "both name",
        ),
        (
            vec!["run", "p.asm", "--lcd-png", "p.asm"],
            "--lcd-png p.asm is the source",
        ),
        (
            vec!["run", "p.asm", "--lcd-png", "Lib.inc"],
            "is the source Lib.inc",
        ),
    ] {
        let r = hc11lab_in(&dir, &args, 60);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(said), "{args:?}: {}", r.stderr);
    }
    assert_eq!(std::fs::read_to_string(dir.join("p.asm")).unwrap(), source);
    assert_eq!(
        std::fs::read_to_string(dir.join("Lib.inc")).unwrap(),
        "Value equ 1\n"
    );
    assert_eq!(std::fs::read_to_string(dir.join("x.s19")).unwrap(), "keep");
    assert!(!dir.join("new.s19").exists());
    // Different files, and a device, are written as before.
    let r = hc11lab_in(
        &dir,
        &["asm", "p.asm", "-o", "x.s19", "--listing", "/dev/null"],
        60,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(std::fs::read_to_string(dir.join("x.s19"))
        .unwrap()
        .starts_with("S0"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// S1 records of one data byte at `addr`, `n` of them, then S9.
fn records_at(addr: u16, n: usize) -> String {
    let [hi, lo] = addr.to_be_bytes();
    let sum = 4u8.wrapping_add(hi).wrapping_add(lo).wrapping_add(0xA5);
    let line = format!("S104{hi:02X}{lo:02X}A5{:02X}\n", !sum);
    line.repeat(n) + "S9030000FC\n"
}

#[test]
fn floods_of_warnings_are_capped() {
    let dir = scratch("inputs-flood");
    std::fs::write(dir.join("flood.s19"), records_at(0xC000, 200_000)).unwrap();
    let r = hc11lab_in(&dir, &["disasm", "flood.s19"], 60);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warnings = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning"))
        .count();
    assert_eq!(warnings, 11, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "199989 more records overwrite bytes loaded before (the first 10 are listed)"
        ),
        "{}",
        r.stderr
    );
    // The assembler's warnings too: one per line of a long file.
    let mut src = String::from(" org $1000\n");
    src.push_str(&" ldaa #$1FF\n".repeat(20_000));
    src.push_str(" org $FFFE\n dc.w $1000\n");
    std::fs::write(dir.join("w.asm"), src).unwrap();
    for args in [
        vec!["asm", "w.asm", "--dialect", "as11"],
        vec!["run", "w.asm", "--dialect", "as11", "--max-cycles", "1000"],
    ] {
        let cmd = args[0];
        let r = hc11lab_in(&dir, &args, 60);
        assert!(
            r.stderr.contains("19975 more warnings in w.asm not shown"),
            "{cmd}: {}",
            r.stderr
        );
        assert!(
            r.stderr.lines().count() < 400,
            "{cmd}: {} lines",
            r.stderr.lines().count()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn board_file_numbers_name_the_key_the_line_and_what_is_allowed() {
    let dir = scratch("inputs-board");
    std::fs::write(dir.join("p.asm"), PROGRAM).unwrap();
    for (text, shown) in [
        ("internal_ram = 256.0\n", "256.0"),
        (
            "\ninternal_ram = 99999999999999999999\n",
            "99999999999999999999",
        ),
        ("\n\ninit = true\n", "true"),
    ] {
        std::fs::write(dir.join("b.toml"), text).unwrap();
        let r = hc11lab_in(&dir, &["run", "p.asm", "--board", "b.toml"], 60);
        assert_eq!(r.code, 2, "{}", r.stderr);
        let line = text.matches('\n').count();
        let key = text.trim().split(' ').next().unwrap();
        assert!(
            r.stderr.contains(&format!(
                "b.toml:{line}: `{key}`: {shown} is not a whole number"
            )),
            "{}",
            r.stderr
        );
        assert!(!r.stderr.contains("untagged"), "{}", r.stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn program_bytes_over_the_rom_image_are_named() {
    let dir = scratch("inputs-rom");
    std::fs::write(
        dir.join("mon.asm"),
        " org $E000\nMon ldaa #1\n bra Mon\n org $FFFE\n dc.w Mon\n",
    )
    .unwrap();
    let r = hc11lab_in(&dir, &["asm", "mon.asm", "-o", "mon.s19"], 60);
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::fs::write(
        dir.join("p.asm"),
        " org $C000\nStart bra Start\n org $E001\n fcb 1,2\n org $FFFE\n dc.w Start\n",
    )
    .unwrap();
    let args = [
        "run",
        "p.asm",
        "--board",
        "evb",
        "--rom",
        "mon.s19",
        "--max-cycles",
        "100",
    ];
    let r = hc11lab_in(&dir, &args, 60);
    assert!(
        r.stderr.contains(
            "the program's bytes at $E001-$E002, $FFFE-$FFFF lie over the --rom image mon.s19"
        ),
        "{}",
        r.stderr
    );
    // Beside the ROM, nothing is said.
    std::fs::write(dir.join("q.asm"), " org $C000\nStart bra Start\n").unwrap();
    let r = hc11lab_in(
        &dir,
        &[
            "run",
            "q.asm",
            "--board",
            "evb",
            "--rom",
            "mon.s19",
            "--max-cycles",
            "100",
        ],
        60,
    );
    assert!(!r.stderr.contains("lie over"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn debugger_values_never_wrap_or_divide_by_zero_quietly() {
    let dir = repo();
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--max-cycles", "1000"];
        args.extend_from_slice(extra);
        hc11lab_in(&dir, &args, 60)
    };
    for (args, said) in [
        (vec!["--break", "mainLoop if 1/0 == 0"], "division by zero"),
        (vec!["--break", "mainLoop if 5%0"], "division by zero"),
        (
            vec!["--break", "mainLoop if [$10000] == 0"],
            "$10000 is outside",
        ),
        (vec!["--break", "mainLoop if [-1] == 0"], "-1 is outside"),
        (vec!["--explain", "1/0"], "division by zero"),
        (
            vec!["--watch", "write $FFFF:2"],
            "2 bytes from $FFFF run past $FFFF",
        ),
        (vec!["--watch", "write board:65536"], "1..65535"),
        (vec!["--watch", "board+999999"], "$F427F is outside"),
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(said), "{args:?}: {}", r.stderr);
    }
    // The reset vector's bytes are data: a breakpoint there never hits.
    let r = run(&["--break", "$FFFE"]);
    assert!(
        r.stdout
            .contains("note: breakpoint `$FFFE`: $FFFE is in the reset vector")
            && r.stdout
                .contains("did you mean the code it points to, $C54D (`Start`)?"),
        "{}",
        r.stdout
    );
}

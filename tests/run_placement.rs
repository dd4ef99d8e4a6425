//! Variables a program reserves where the board has no RAM (its register
//! block, the PIO, nothing): `run` and the machine warn before the run,
//! with the line, where RAM is and the board the program fits.

use hc11lab::board::config::{BoardConfig, BoardSetup};
use hc11lab::machine::Machine;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn hc11lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(args)
        .output()
        .expect("run hc11lab")
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/run")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hc11lab-placement-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write source");
    path
}

/// `run ARGS --json`: the stop reason and the message.
fn stop(args: &[&str]) -> (String, String) {
    let mut args = args.to_vec();
    args.push("--json");
    let out = hc11lab(&args);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let text = |k: &str| report[k].as_str().unwrap_or_default().to_string();
    (text("stop_reason"), text("message"))
}

fn machine(path: &Path, board: BoardConfig) -> Machine {
    let opened = hc11lab::open::open(Some(path)).expect("assembles");
    Machine::with_board(opened.program, &BoardSetup::new(board)).expect("loads")
}

#[test]
fn an_evb_program_on_the_trainer11_is_told_where_its_variables_went() {
    let path = data("evb_sum.asm");
    let out = hc11lab(&["run", &path, "--dump", "SUM"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: variable `SUM` ($0010-$0011) lies in the trainer11's register block after reset ($0000-$003F)"),
        "{err}"
    );
    assert!(
        err.contains("evb_sum.asm:20"),
        "the line that reserves it: {err}"
    );
    assert!(
        err.contains("warning: variable `CNT` ($0012-$0013)"),
        "{err}"
    );
    assert!(err.contains("reserve it in RAM ($0040-$7FFF)"), "{err}");
    assert!(err.contains("run it with --board evb"), "{err}");
    // The run itself is the chip's: the stores went to registers.
    assert!(out.status.success(), "{err}");

    // On the board it was written for: no warning, and the sum is there.
    let out = hc11lab(&["run", &path, "--board", "evb", "--dump", "SUM"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("warning"), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    // 1 + 2 + ... + 1000 = 500500 = $7A314, $A314 in 16 bits.
    assert!(text.contains("SUM @ $0010: $A3 $14"), "{text}");
}

#[test]
fn register_definitions_and_programs_that_move_the_registers_are_left_alone() {
    // The Motorola idiom: the register block described with labels.
    let regs = scratch(
        "regs.asm",
        "\torg $1000\nPORTA\trmb 1\n\trmb 2\nPORTC\trmb 1\nPORTB\trmb 1\n\torg $E000\nStart\tldaa PORTA\n\tstaa PORTB\nHere\tbra Here\n\torg $FFFE\n\tfdb Start\n",
    );
    assert!(machine(&regs, BoardConfig::evb())
        .placement_warnings()
        .is_empty());
    // A program that stores to INIT may move the block before it uses $0010.
    let moved = scratch(
        "moved.asm",
        "INIT\tequ $3D\n\torg $C000\nStart\tldaa #$01\n\tstaa INIT\n\tclr Var\nHere\tbra Here\n\torg $0010\nVar\trmb 1\n\torg $FFFE\n\tfdb Start\n",
    );
    assert!(machine(&moved, BoardConfig::trainer11())
        .placement_warnings()
        .is_empty());
    // The course's own programs fit their board.
    let bundled = Machine::new(hc11lab::firmware::assemble().program.expect("firmware"))
        .expect("bundled firmware loads");
    assert!(bundled.placement_warnings().is_empty());
}

#[test]
fn a_variable_on_the_pio_or_in_no_memory_is_named_too() {
    let path = scratch(
        "nowhere.asm",
        "\torg $C000\nStart\tldaa #1\n\tstaa Flag\nHere\tbra Here\n\torg $8001\nKeys\trmb 1\n\torg $9000\nFlag\trmb 1\n\torg $FFFE\n\tfdb Start\n",
    );
    let w = machine(&path, BoardConfig::trainer11()).placement_warnings();
    assert_eq!(w.len(), 2, "{w:#?}");
    assert!(
        w[0].message
            .contains("`Keys` ($8001) lies in the trainer11's PIO registers"),
        "{}",
        w[0]
    );
    assert!(
        w[1].message
            .contains("`Flag` ($9000) lies in no memory on the trainer11"),
        "{}",
        w[1]
    );
    assert_eq!(w[1].at.as_ref().map(|a| a.1), Some(8));
    // Neither fits the EVB (its code is at $C000, RAM there): no board to suggest.
    assert!(!w[1].help.contains("--board"), "{}", w[1]);
}

#[test]
fn many_misplaced_variables_end_in_one_count() {
    let mut src = String::from("\torg $C000\nStart\tbra Start\n\torg $0000\n");
    for i in 0..12 {
        src.push_str(&format!("v{i}\trmb 1\n"));
    }
    src.push_str("\torg $FFFE\n\tfdb Start\n");
    let path = scratch("many.asm", &src);
    let w = machine(&path, BoardConfig::trainer11()).placement_warnings();
    assert_eq!(w.len(), 9, "eight named, one count: {w:#?}");
    assert!(
        w[8].message
            .starts_with("4 more variables lie outside the trainer11's RAM: v8, v9, v10, v11"),
        "{}",
        w[8]
    );
    assert!(w[8].help.contains("reserve them in RAM"), "{}", w[8]);
}

/// A program for another board: a wait for SCSR's TDRE at $102E (the
/// EVB's register block) polls plain RAM on the trainer11.
const POLL_RAM: &str = "\torg $C000\nStart\tlds #$3FFF\n\tldaa #$55\nWait\tldaa $102E\n\tbpl Wait\nHere\tbra Here\n\torg $FFFE\n\tfdb Start\n";

#[test]
fn a_wait_on_memory_nothing_writes_is_said_to_never_end() {
    let path = scratch("pollram.asm", POLL_RAM);
    let path = path.to_string_lossy();
    for extra in [&[][..], &["--break", "$FFF0"][..]] {
        let mut args = vec!["run", path.as_ref(), "--max-cycles", "100000"];
        args.extend_from_slice(extra);
        let (reason, message) = stop(&args);
        assert_eq!(reason, "cycle_budget", "{message}");
        assert!(
            message.contains("the loop at $C005 (pollram.asm:4) waits on $102E, RAM that nothing else writes (interrupts masked: I set): it never ends, at any budget"),
            "{extra:?}: {message}"
        );
        assert!(
            message.contains("that would be SCSR, but the trainer11's are at $0000-$003F"),
            "{message}"
        );
        assert!(message.contains("--board evb"), "{message}");
        assert!(!message.contains("larger --max-cycles"), "{message}");
    }
    // The machine finds it from the loop's head too, before its first read.
    let mut m = machine(Path::new(path.as_ref()), BoardConfig::trainer11());
    m.step();
    m.step();
    assert_eq!(m.registers().pc, 0xC005);
    let wait = m.memory_wait().expect("a wait on memory");
    assert_eq!((wait.addr, wait.head), (0x102E, 0xC005));
}

#[test]
fn a_halt_in_brclr_on_memory_says_what_it_waits_on() {
    let path = scratch(
        "brclr.asm",
        "\torg $C000\nStart\tldy #$1000\nWait\tbrclr $2E,y,#$80,Wait\n\torg $FFFE\n\tfdb Start\n",
    );
    let (reason, message) = stop(&["run", path.to_string_lossy().as_ref()]);
    assert_eq!(reason, "halted", "{message}");
    assert!(message.ends_with("; it waits on $102E, RAM that nothing else writes. With the registers at $1000 that would be SCSR, but the trainer11's are at $0000-$003F; a program written for the EVB runs with --board evb"), "{message}");
}

#[test]
fn a_wait_an_interrupt_could_end_gets_the_budget_advice() {
    // The RTI interrupt is on (TMSK2 RTII, CLI): its handler could write
    // the byte, so more cycles might help.
    let path = scratch(
        "rti.asm",
        "\torg $C000\nStart\tlds #$3FFF\n\tldaa #$40\n\tstaa $24\n\tcli\nWait\tldaa $0050\n\tbeq Wait\nHere\tbra Here\nIsr\tldaa #$40\n\tstaa $25\n\trti\n\torg $FFF0\n\tfdb Isr\n\torg $FFFE\n\tfdb Start\n",
    );
    let (reason, message) = stop(&[
        "run",
        path.to_string_lossy().as_ref(),
        "--max-cycles",
        "100000",
    ]);
    assert_eq!(reason, "cycle_budget", "{message}");
    assert!(message.contains("give a larger --max-cycles"), "{message}");
    assert!(!message.contains("waits on"), "{message}");
}

/// An EVB program that keeps its variables among its code at $C000 (the
/// EVB's RAM, the trainer11's program memory): the store that stops the
/// run names the variable, its line and the board with RAM there, on the
/// plain run and the debugger's; on the EVB it runs to its end. A store
/// into program memory on no board's RAM gets no such hint.
#[test]
fn a_variable_in_program_memory_names_the_board_with_ram_there() {
    let path = scratch(
        "sum_at_c000.asm",
        "* Sum of a table, AS11 style\n\tORG\t$C000\nTABLE\tFCB\t1,2,3,4,5\nSUM\tRMB\t2\n\
         START\tLDS\t#$00FF\n\tLDX\t#TABLE\n\tCLRA\n\tCLRB\n\tSTD\tSUM\n\
         LOOP\tLDAB\t0,X\n\tCLRA\n\tADDD\tSUM\n\tSTD\tSUM\n\tINX\n\tCPX\t#SUM\n\tBNE\tLOOP\n\
         HERE\tBRA\tHERE\n\tORG\t$FFFE\n\tFDB\tSTART\n",
    );
    let p = path.to_str().unwrap();
    let hint = "`SUM` (sum_at_c000.asm:4) lies in the trainer11's program memory, which a program cannot write; the evb has RAM there: if the program was written for it, run it with --board evb; else reserve the variable in RAM ($0040-$7FFF)";
    let (reason, msg) = stop(&["run", p]);
    assert_eq!(reason, "rom_write", "{msg}");
    assert!(msg.contains(hint), "{msg}");
    let (reason, msg) = stop(&["run", p, "--profile"]);
    assert_eq!(reason, "rom_write", "{msg}");
    assert!(msg.contains(hint), "{msg}");
    let (reason, msg) = stop(&["run", p, "--board", "evb", "--dump", "SUM"]);
    assert_eq!(reason, "halted", "{msg}");

    let rom = scratch(
        "rom_store.asm",
        "\tORG\t$E000\nSTART\tLDS\t#$00FF\n\tSTAA\tSTART\nHERE\tBRA\tHERE\n\tORG\t$FFFE\n\tFDB\tSTART\n",
    );
    let (reason, msg) = stop(&["run", rom.to_str().unwrap()]);
    assert_eq!(reason, "rom_write", "{msg}");
    assert!(!msg.contains("has RAM there"), "{msg}");
}

/// An EVB program whose stack is at the top of the EVB's RAM ($DFFF, the
/// trainer11's program memory): its first JSR's push is named as the stack
/// with the fix for it, not as a variable to move.
#[test]
fn a_stack_in_program_memory_is_named_as_the_stack() {
    let path = scratch(
        "evb_stack.asm",
        "\tORG\t$C000\nSTART\tLDS\t#$DFFF\n\tJSR\tSUB\nHERE\tBRA\tHERE\nSUB\tRTS\n\tORG\t$FFFE\n\tFDB\tSTART\n",
    );
    let (reason, msg) = stop(&["run", path.to_str().unwrap()]);
    assert_eq!(reason, "rom_write", "{msg}");
    assert!(
        msg.contains("The write is a push: the stack (SP $DFFF, as lds set it) lies in the trainer11's program memory"),
        "{msg}"
    );
    assert!(
        msg.contains("else set the stack pointer to the top of RAM ($0040-$7FFF) with lds"),
        "{msg}"
    );
    assert!(!msg.contains("reserve the variable"), "{msg}");
}

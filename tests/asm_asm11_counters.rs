//! More of what public ASM11 programs use (docs/dialects.md, section
//! asm11): `equ value,size`, the `:temp` counter with `#temp` and `next`,
//! `[` for a register's offset, text after an instruction that takes no
//! operand, `negd`/`aix`/`aiy`, left-to-right expressions, the cycle
//! counters `:cycles`/`:ocycles` with `#Cycles`, a procedure named with an
//! `@@` name, a bare `#ifdef`, `end :s19crc`, the numbered segments
//! `#Seg1`..`#Seg9`, and include files found through the search path. Every program here was written for these
//! tests; the bytes are the M68HC11 reference manual's, and the expansions
//! are checked against GNU `m68hc11-as`.

#[path = "support/asm_image.rs"]
mod asm_image;
use asm_image::{gnu_bytes, image};
#[path = "support/asm11.rs"]
mod asm11_support;
use asm11_support::{asm11, clean, codes, options, symbol};
use hc11lab::asm::{assemble_source, assemble_with, AsmOptions, MemoryFiles};
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn equ_with_a_size_gives_the_value_and_the_size() {
    let asm = asm11(
        "REGS    equ   $1000
PORTB   equ   REGS+$04,1
TCNT    equ   REGS+$0E,2
        org   $C000
        ldab  #::TCNT
        ldab  #::PORTB
        ldaa  PORTB
",
    );
    clean(&asm);
    assert_eq!(symbol(&asm, "PORTB"), Some(0x1004));
    assert_eq!(
        image(&asm, 0xC000),
        vec![0xC6, 0x02, 0xC6, 0x01, 0xB6, 0x10, 0x04]
    );
}

#[test]
fn next_lays_out_a_table_of_offsets_from_temp() {
    let asm = asm11(
        "        #temp
CI.ON   next  :temp,2
CI.DTA  next  :temp,2
FLAG    next  :temp
MODE    next  :temp
        #temp 10
TEN     next  :temp,4
COUNT   set   $20
FIRST   next  COUNT,3
SECOND  next  COUNT
        org   $C000
        ldab  #CI.DTA
        ldab  #MODE
        ldab  #:temp
        ldab  #SECOND
        ldab  #COUNT
",
    );
    clean(&asm);
    assert_eq!(symbol(&asm, "CI.ON"), Some(0));
    assert_eq!(symbol(&asm, "FLAG"), Some(4));
    assert_eq!(symbol(&asm, "TEN"), Some(10));
    assert_eq!(symbol(&asm, "FIRST"), Some(0x20));
    assert_eq!(
        image(&asm, 0xC000),
        vec![0xC6, 0x02, 0xC6, 0x05, 0xC6, 0x0E, 0xC6, 0x23, 0xC6, 0x24]
    );
}

#[test]
fn next_needs_a_name_for_its_counter() {
    let asm = asm11("A       next  5,2\n");
    assert_eq!(codes(&asm), vec!["E0022"], "{}", asm.render_diagnostics());
    let asm = asm11("A       next\n");
    assert_eq!(codes(&asm), vec!["E0022"], "{}", asm.render_diagnostics());
}

#[test]
fn a_bracket_takes_a_registers_offset_from_the_block() {
    let asm = asm11(
        "REGS    equ   $1000
TFLG1   equ   REGS+$23
BPROT   equ   REGS+$35
PPROG   equ   REGS+$3B
        org   $C000
        ldx   #REGS
        sta   [TFLG1,x
        brclr [TFLG1,x,1,*
        clr   [BPROT
        stb   [PPROG
",
    );
    clean(&asm);
    assert_eq!(
        image(&asm, 0xC000),
        vec![
            0xCE, 0x10, 0x00, // ldx #REGS
            0xA7, 0x23, // sta $23,x
            0x1F, 0x23, 0x01, 0xFC, // brclr $23,x,1,*
            0x7F, 0x00, 0x35, // clr $0035 (clr has no direct form)
            0xD7, 0x3B, // stab $3B
        ]
    );
    // The course dialect has no such prefix.
    let course = assemble_source(
        "t.asm",
        "REGS equ $1000\n org $C000\n ldaa [REGS\n",
        &AsmOptions::default(),
    );
    assert!(course.has_errors());
}

#[test]
fn text_after_an_instruction_without_operand_is_a_comment() {
    let asm = asm11(" org $C000\n tsta WAS THE NUMBER NEGATIVE?\n inx next entry\n");
    clean(&asm);
    assert_eq!(image(&asm, 0xC000), vec![0x4D, 0x08]);
    // The course dialect keeps telling students where a comment starts.
    let course = assemble_source("t.asm", " org $C000\n tsta WAS\n", &AsmOptions::default());
    assert_eq!(codes(&course), vec!["E0022"]);
}

const NEGATE_AND_ADD: &str = "        org   $C000
        negd
        aix   #31
        aix   -1
        aiy   #$100
";

const NEGATE_AND_ADD_GNU: &str = "        coma
        comb
        addd #1
        xgdx
        addd #31
        xgdx
        xgdx
        addd #-1
        xgdx
        xgdy
        addd #0x100
        xgdy
";

#[test]
fn negd_and_aix_expand_as_the_application_notes_write_them() {
    let asm = asm11(NEGATE_AND_ADD);
    clean(&asm);
    assert_eq!(
        image(&asm, 0xC000),
        gnu_bytes(NEGATE_AND_ADD_GNU, "asm11-negd")
    );
    let asm = asm11(" org $C000\n aix\n");
    assert_eq!(codes(&asm), vec!["E0022"], "{}", asm.render_diagnostics());
}

/// `negd` leaves C set only when D was 0, so an `adca #0` after it carries
/// into a third byte: the 24-bit negation of $000000 stays $000000 and
/// that of $000001 is $FFFFFF.
#[test]
fn negd_carries_into_a_third_byte_as_the_floating_point_notes_need() {
    for (value, want) in [
        (0x00_0000u32, 0x00_0000u32),
        (0x00_0001, 0xFF_FFFF),
        (0x01_0000, 0xFF_0000),
    ] {
        let src = format!(
            "        org   $C000
        lds   #$7F00
        ldaa  #{hi}
        coma
        psha
        ldd   #{lo}
        negd
        std   $51
        pula
        adca  #0
        staa  $50
        bra   *
",
            hi = value >> 16,
            lo = value & 0xFFFF
        );
        let asm = asm11(&src);
        clean(&asm);
        let program = asm.program.clone().expect("program");
        let mut m = hc11lab::machine::Machine::new(program).expect("loads");
        let mut r = m.registers();
        r.pc = 0xC000;
        m.set_registers(r);
        for _ in 0..12 {
            m.step();
        }
        let got = (u32::from(m.peek(0x50)) << 16)
            | (u32::from(m.peek(0x51)) << 8)
            | u32::from(m.peek(0x52));
        assert_eq!(got, want, "-${value:06X}");
    }
}

#[test]
fn expressions_group_from_left_to_right() {
    let asm =
        asm11(" org $C000\n ldab #2+3*4\n ldab #(2+3)*4\n ldab #$1234>1-1*8&$FF\n ldab #2+(3*4)\n");
    clean(&asm);
    // ((($1234 >> 1) - 1) * 8) & $FF = $48C8 & $FF = $C8
    assert_eq!(
        image(&asm, 0xC000),
        vec![0xC6, 20, 0xC6, 20, 0xC6, 0xC8, 0xC6, 14]
    );
}

/// Inside a value `<` and `>` shift; a condition compares where blanks
/// stand around the operator.
#[test]
fn angles_shift_in_values_and_compare_in_conditions() {
    let asm = asm11(
        "CR      equ   13
ROM     equ   $C000
        org   ROM
        ldd   #CR<8|3
        ldab  #$1234>8
        #if ROM < $D000
        ldaa  #1
        #else
        ldaa  #2
        #endif
        #if ROM>8 <> $C0
        ldaa  #3
        #endif
        #if ROM >= $C000
        ldaa  #4
        #endif
",
    );
    clean(&asm);
    assert_eq!(
        image(&asm, 0xC000),
        vec![0xCC, 0x0D, 0x03, 0xC6, 0x12, 0x86, 0x01, 0x86, 0x04]
    );
}

/// The delay loop public ASM11 programs compute from the cycles of their
/// instructions.
#[test]
fn cycles_counts_the_instructions_since_cycles() {
    let asm = asm11(
        "BUS_KHZ equ   2000
        org   $C000
                #Cycles
Delay   proc
        pshx
        ldx   #DELAY@@
                #Cycles
Loop@@  dex
        bne   Loop@@
                #temp :cycles
        pulx
        rts
DELAY@@ equ   BUS_KHZ-:cycles-:ocycles/:temp
LOOP    equ   :temp
",
    );
    clean(&asm);
    // pshx 4 + ldx # 3 = 7 before; dex 3 + bne 3 = 6 a pass; pulx 5 +
    // rts 5 after: (2000 - 16 - 7) / 6 = 329.
    assert_eq!(symbol(&asm, "LOOP"), Some(6));
    assert_eq!(image(&asm, 0xC000)[..4], [0x3C, 0xCE, 0x01, 0x49]);
}

#[test]
fn a_procedure_named_with_a_local_name_calls_itself_by_it() {
    let asm = asm11(
        "        org   $C000
Print   proc
        ldaa  #1
        bra   Out
Loop@@  proc
        inx
Out     ldaa  ,x
        bne   Loop@@
        rts
",
    );
    clean(&asm);
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x86, 0x01, 0x20, 0x01, 0x08, 0xA6, 0x00, 0x26, 0xFB, 0x39]
    );
}

#[test]
fn a_bare_ifdef_switches_lines_off() {
    let asm = asm11(
        "        org   $C000
        #ifdef
        ldaa  #1
        #endif
        #ifndef
        ldaa  #2
        #endif
",
    );
    clean(&asm);
    assert_eq!(image(&asm, 0xC000), vec![0x86, 0x02]);
    let course = assemble_source("t.asm", " .ifdef\n .endif\n", &AsmOptions::default());
    assert!(course.has_errors());
}

#[test]
fn end_s19crc_names_no_start_address() {
    let asm = asm11(" org $C000\nStart nop\n end :s19crc\n");
    clean(&asm);
    let asm2 = asm11(" org $C000\nStart nop\n end :Start\n");
    clean(&asm2);
    assert_eq!(asm2.program.as_ref().and_then(|p| p.entry), Some(0xC000));
}

/// An include not next to its file is looked for in the search path;
/// what it includes in turn is found next to it. The grader's options
/// have no search path, so a submission cannot reach out.
#[test]
fn includes_are_found_through_the_search_path() {
    let files = MemoryFiles::new()
        .with(
            "repo/prog/main.asm",
            " #Uses mcu.inc\n org $C000\n ldaa #VALUE\n",
        )
        .with("repo/mcu.inc", " #Uses regs.inc\n")
        .with("repo/regs.inc", "VALUE equ 7\n");
    let main = Path::new("repo/prog/main.asm");
    let without = assemble_with(main, &files, &options());
    assert!(
        codes(&without).contains(&"E0011"),
        "{}",
        without.render_diagnostics()
    );
    let opts = AsmOptions {
        include_dirs: vec![PathBuf::from("repo")],
        ..options()
    };
    let with = assemble_with(main, &files, &opts);
    clean(&with);
    assert_eq!(image(&with, 0xC000), vec![0x86, 0x07]);
}

/// `asm -I DIR`, and the folder hc11lab runs in, from the command line.
#[test]
fn asm_finds_includes_with_dash_i_and_in_the_current_folder() {
    let dir = std::env::temp_dir().join(format!("hc11lab-include-path-{}", std::process::id()));
    let prog = dir.join("prog");
    std::fs::create_dir_all(&prog).expect("folder");
    std::fs::write(
        prog.join("main.asm"),
        " #include common.inc\n org $C000\n ldaa #CR\n",
    )
    .expect("main");
    std::fs::write(dir.join("common.inc"), "CR equ 13\n").expect("include");
    let exe = env!("CARGO_BIN_EXE_hc11lab");
    let run = |cwd: &Path, args: &[&str]| {
        Command::new(exe)
            .current_dir(cwd)
            .args(["asm", "--dialect", "asm11"])
            .args(args)
            .output()
            .expect("hc11lab runs")
    };
    let alone = run(&prog, &["main.asm"]);
    assert!(!alone.status.success());
    assert!(String::from_utf8_lossy(&alone.stderr).contains("common.inc"));
    let with_i = run(&prog, &["-I", "..", "main.asm"]);
    assert!(
        with_i.status.success(),
        "{}",
        String::from_utf8_lossy(&with_i.stderr)
    );
    let from_root = run(&dir, &["prog/main.asm"]);
    assert!(
        from_root.status.success(),
        "{}",
        String::from_utf8_lossy(&from_root.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn numbered_segments_keep_their_own_counters() {
    let asm = asm11(
        "        #Seg1 $C000
        nop
        #SEG2 $D000
        inx
        #Seg1
        rts
",
    );
    clean(&asm);
    assert_eq!(image(&asm, 0xC000), vec![0x01, 0x39]);
    assert_eq!(image(&asm, 0xD000), vec![0x08]);
}

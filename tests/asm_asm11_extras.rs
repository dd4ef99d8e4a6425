//! What public ASM11 programs use beyond the constructs of
//! `tests/asm_dialect_asm11.rs` (docs/dialects.md, section asm11): the
//! `#`-directives for listing, options and case (`#ListOff`, `#ExtraOn`,
//! `#CaseOn`, ...), `#Uses`, `#ifz`/`#ifnz`/`#IfMain`, `def`, `?name`
//! labels private to their file, repeated instructions (`lsra:4`), the
//! extra mnemonics (`pshd`, `clrx`, `jeq`, ...), `!jmp`, `long`,
//! `:AnRTS` and `::NAME`.
//! Every program here was written for these tests; the bytes are the
//! M68HC11 reference manual's, and the extra mnemonics are checked against
//! GNU `m68hc11-as` as an independent oracle.

#[path = "support/asm_image.rs"]
mod asm_image;
use asm_image::{gnu_bytes, image};
#[path = "support/asm11.rs"]
mod asm11_support;
use asm11_support::{asm11, codes, options, symbol};
use hc11lab::asm::{assemble_source, assemble_with, AsmOptions, MemoryFiles};
use std::path::Path;

/// The listing, option and message directives change no byte, in any
/// spelling of their case, also in column 1.
#[test]
fn listing_and_option_directives_are_accepted_and_change_nothing() {
    let asm = asm11(
        "#ListOff
                    #ExtraOn
                    #OptRtsOff
                    #OptRelOn
#ListOn
                    #Cycles
                    #Hint     this text is for the listing only
                    #Message  so is this
                    #Memory   $C000 $C0FF
                    #extraoff
                    org       $C000
                    ldaa      #1
",
    );
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(image(&asm, 0xC000), vec![0x86, 0x01]);
    // Other dialects do not have them.
    let course = assemble_source(
        "t.asm",
        " #ExtraOn\n org $C000\n nop\n",
        &AsmOptions::default(),
    );
    assert!(course.has_errors());
}

/// `#CaseOn` makes the names after it case-sensitive; `#CaseOff` (and
/// the default) does not; a name defined before `#CaseOn` is still found
/// when written the same way.
#[test]
fn case_on_makes_names_case_sensitive() {
    let asm = asm11(
        "                    org       $C000
Before              ldaa      #1
                    #CaseOn
Value               equ       1
VALUE               equ       2
                    ldaa      #Value
                    ldaa      #VALUE
                    bra       Before
",
    );
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x86, 0x01, 0x86, 0x01, 0x86, 0x02, 0x20, 0xF8]
    );
    // Without `#CaseOn` the two spellings are one name, defined twice.
    let insensitive = asm11(
        "                    org       $C000
Value               equ       1
VALUE               equ       2
",
    );
    assert_eq!(codes(&insensitive), vec!["E0005"]);
    // After `#CaseOn` a name written in another case is another name.
    let other = asm11(
        "                    #CaseOn
                    org       $C000
Value               equ       1
                    ldaa      #value
",
    );
    assert_eq!(
        codes(&other),
        vec!["E0004"],
        "{}",
        other.render_diagnostics()
    );
}

/// `#Uses` includes a file once, however often it is named; `#include`
/// would read it again.
#[test]
fn uses_reads_a_file_once() {
    let files = MemoryFiles::new()
        .with(
            "main.asm",
            "                    org       $C000
                    #Uses     lib.inc
                    #Uses     lib.inc
                    fcb       Twice
",
        )
        .with(
            "lib.inc",
            "Twice               equ       2\n                    nop\n",
        );
    let asm = assemble_with(Path::new("main.asm"), &files, &options());
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(image(&asm, 0xC000), vec![0x01, 0x02]);
}

/// `?name` labels are private to the file they are written in: two files
/// may each have their own `?Loop`.
#[test]
fn question_mark_labels_are_private_to_their_file() {
    let files = MemoryFiles::new()
        .with(
            "main.asm",
            "                    org       $C000
?Loop               bra       ?Loop
                    #include  part.inc
                    bra       ?Loop
",
        )
        .with("part.inc", "?Loop               bra       ?Loop\n");
    let asm = assemble_with(Path::new("main.asm"), &files, &options());
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    // main: C000 bra C000; part: C002 bra C002; main again: C004 bra C000.
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x20, 0xFE, 0x20, 0xFE, 0x20, 0xFA]
    );
}

/// `#ifz` takes its branch when the value is zero, `#ifnz` when it is not,
/// `#IfMain` in the main file only.
#[test]
fn ifz_ifnz_and_ifmain() {
    let files = MemoryFiles::new()
        .with(
            "main.asm",
            "Zero                equ       0
                    org       $C000
                    #ifz      Zero
                    fcb       1
                    #else
                    fcb       2
                    #endif
                    #ifnz     Zero
                    fcb       3
                    #endif
#IfMain
                    fcb       4
#endif
                    #include  part.inc
",
        )
        .with(
            "part.inc",
            "#IfMain\n                    fcb       5\n#else\n                    fcb       6\n#endif\n",
        );
    let asm = assemble_with(Path::new("main.asm"), &files, &options());
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(image(&asm, 0xC000), vec![1, 4, 6]);
}

/// `def` defines a name as `equ` does, unless it is defined already (by
/// `-D` or above): then the line changes nothing.
#[test]
fn def_gives_a_default_value() {
    let src = "Speed               def       10
Speed               def       20
                    org       $C000
                    fcb       Speed
";
    let asm = asm11(src);
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(image(&asm, 0xC000), vec![10]);
    let opts = AsmOptions {
        defines: vec![("SPEED".to_string(), 7)],
        ..options()
    };
    let given = assemble_source("t.asm", src, &opts);
    assert!(
        given.diagnostics.is_empty(),
        "{}",
        given.render_diagnostics()
    );
    assert_eq!(image(&given, 0xC000), vec![7]);
}

/// `lsra:4` is the instruction four times, with its operand if it has one.
#[test]
fn a_count_after_the_mnemonic_repeats_it() {
    let asm = asm11(
        "                    org       $C000
Start               lsra:4
                    inx:2
                    asl:2     $10,x
                    clrd:2
",
    );
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(
        image(&asm, 0xC000),
        vec![
            0x44, 0x44, 0x44, 0x44, // lsra x4
            0x08, 0x08, // inx x2
            0x68, 0x10, 0x68, 0x10, // asl $10,x x2
            0x4F, 0x5F, 0x4F, 0x5F, // clrd x2
        ]
    );
    assert_eq!(symbol(&asm, "Start"), Some(0xC000));
    // A count needs a mnemonic that exists, and a count from 1 on.
    assert_eq!(codes(&asm11(" org $C000\n foo:2\n")), vec!["E0003"]);
    assert_eq!(codes(&asm11(" org $C000\n inx:0\n")), vec!["E0003"]);
}

/// `:AnRTS` is the address of the last `rts` above; `::NAME` the number
/// of bytes the line labelled NAME places, also when NAME comes later.
#[test]
fn an_rts_and_the_size_of_a_label() {
    let asm = asm11(
        "                    org       $C000
First               rts
Print               proc
Loop@@              ldaa      ,x
                    beq       Done@@
                    inx
                    bra       Loop@@
Done@@              equ       :AnRTS
                    ldab      #::Table
                    ldx       #Table+::Table
Table               fcc       'ABC'
",
    );
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(symbol(&asm, "Print.Done@@"), Some(0xC000));
    assert_eq!(
        image(&asm, 0xC000),
        vec![
            0x39, // rts
            0xA6, 0x00, // ldaa 0,x
            0x27, 0xFB, // beq C000
            0x08, // inx
            0x20, 0xF9, // bra C001
            0xC6, 0x03, // ldab #3
            0xCE, 0xC0, 0x10, // ldx #C00D+3
            b'A', b'B', b'C',
        ]
    );
    // With no `rts` above, `:AnRTS` has no value.
    assert!(asm11(" org $C000\n bra :AnRTS\n rts\n").has_errors());
}

/// `long` places 32-bit values, high byte first; a value that does not
/// fit is cut with a warning, as in `fdb`.
#[test]
fn long_places_four_bytes_each() {
    let asm = asm11(
        "                    org       $C000
Pi                  long      $82490FDB,-1,'A'
",
    );
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x82, 0x49, 0x0F, 0xDB, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x41]
    );
    let wide = asm11(" org $C000\n long $123456789\n");
    assert_eq!(image(&wide, 0xC000), vec![0x23, 0x45, 0x67, 0x89]);
    assert!(!wide.has_errors(), "{}", wide.render_diagnostics());
    assert_eq!(wide.diagnostics.len(), 1, "{}", wide.render_diagnostics());
}

/// A `!` before a mnemonic keeps the instruction as written (ASM11 then
/// neither shortens nor warns); hc11lab never shortens, so the bytes are
/// the instruction's.
#[test]
fn a_bang_before_the_mnemonic_keeps_the_instruction() {
    let asm = asm11(
        "                    org       $C000
Table               !jmp      Start
Start               !bra      Start
                    !jsr      Start
",
    );
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x7E, 0xC0, 0x03, 0x20, 0xFE, 0xBD, 0xC0, 0x03]
    );
    let course = assemble_source("t.asm", " org $C000\n !jmp $C000\n", &AsmOptions::default());
    assert_eq!(codes(&course), vec!["E0003"]);
}

/// The extra mnemonics take the operand their expansion needs, and say
/// so when it is wrong.
#[test]
fn extra_mnemonics_check_their_operand() {
    assert_eq!(codes(&asm11(" org $C000\n jeq\n")), vec!["E0022"]);
    assert_eq!(codes(&asm11(" org $C000\n jeq 0,x\n")), vec!["E0022"]);
    assert_eq!(codes(&asm11(" org $C000\n pshd 1\n")), vec!["E0022"]);
}

const EXTRAS: &str = "                    org       $C000
Top                 pshd
                    puld
                    clrx
                    clry
                    jeq       Top
                    jne       Far
                    jcs       Top
                    jcc       Top
                    jhi       Top
                    jls       Top
                    jge       Top
                    jlt       Top
                    jgt       Top
                    jle       Top
                    jmi       Top
                    jpl       Top
                    jhs       Top
                    jlo       Top
                    jvs       Top
                    jvc       Top
Far                 rts
";

/// The same instructions as [`EXTRAS`] written out for GNU as.
const GNU: &str = "        .text
top:    pshb
        psha
        pula
        pulb
        ldx #0
        ldy #0
        bne 1f
        jmp top
1:      beq 2f
        jmp far
2:      bcc 3f
        jmp top
3:      bcs 4f
        jmp top
4:      bls 5f
        jmp top
5:      bhi 6f
        jmp top
6:      blt 7f
        jmp top
7:      bge 8f
        jmp top
8:      ble 9f
        jmp top
9:      bgt 10f
        jmp top
10:     bpl 11f
        jmp top
11:     bmi 12f
        jmp top
12:     blo 13f
        jmp top
13:     bhs 14f
        jmp top
14:     bvc 15f
        jmp top
15:     bvs 16f
        jmp top
16:
far:    rts
";

#[test]
fn extra_mnemonics_match_gnu_as() {
    let gnu = gnu_bytes(GNU, "asm11-extras");
    let ours = asm11(EXTRAS);
    assert!(ours.diagnostics.is_empty(), "{}", ours.render_diagnostics());
    assert_eq!(image(&ours, 0xC000), gnu);
}

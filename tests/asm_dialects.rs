//! The AS11 and ASM11 dialects (`--dialect`, docs/dialects.md), the quirks
//! every dialect accepts, the "this file looks like AS11 source" rule and the
//! cap of 25 shown errors per file. Every program here was written for these
//! tests. Encodings are the M68HC11 reference manual's (the opcode table is
//! checked against GNU as in `asm_gnu_oracle.rs`).

#[path = "support/asm_image.rs"]
mod asm_image;
use asm_image::{gnu_bytes, image};
use hc11lab::asm::{assemble_source, assemble_with, AsmOptions, Assembly, Dialect, MemoryFiles};
use std::path::Path;

fn opts(dialect: Dialect) -> AsmOptions {
    AsmOptions {
        dialect,
        ..AsmOptions::default()
    }
}

fn assemble(dialect: Dialect, text: &str) -> Assembly {
    assemble_source("t.asm", text, &opts(dialect))
}

fn codes(asm: &Assembly) -> Vec<&'static str> {
    asm.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// One AS11 line after `org $C000`, its bytes.
fn as11(line: &str) -> Vec<u8> {
    let asm = assemble(Dialect::As11, &format!(" ORG $C000\n{line}\n"));
    image(&asm, 0xC000)
}

#[test]
fn as11_constructs_and_their_bytes() {
    // Free-text comment after the operand field, no `;`.
    assert_eq!(as11(" LDAA $10 load the flag"), vec![0x96, 0x10]);
    // An instruction without operand: the whole rest is a comment.
    assert_eq!(as11(" INX next entry"), vec![0x08]);
    assert_eq!(as11(" CLRA set A to 0 ; really"), vec![0x4F]);
    // Numbers: $ hex, % binary, @ octal, 'c character, decimal otherwise.
    assert_eq!(
        as11(" FCB $1F,%101,@17,'Z,31 five bytes"),
        vec![0x1F, 0x05, 0x0F, b'Z', 31]
    );
    // `*` is the location counter.
    assert_eq!(as11(" BRA * forever"), vec![0x20, 0xFE]);
    assert_eq!(as11(" FDB *+2 next word"), vec![0xC0, 0x02]);
    // Expressions group left to right: 2+3*4 = 20, 10-2-3 = 5.
    assert_eq!(as11(" LDAB #2+3*4 twenty"), vec![0xC6, 20]);
    assert_eq!(as11(" FCB 10-2-3"), vec![5]);
    // FCC with any delimiter, spaces inside.
    assert_eq!(as11(" FCC /A B/ text"), b"A B".to_vec());
    assert_eq!(as11(" FCC 'OK' quoted"), b"OK".to_vec());
    // BSZ and ZMB reserve zeroed bytes; FILL value,count.
    assert_eq!(as11(" BSZ 3\n FCB 1"), vec![0, 0, 0, 1]);
    assert_eq!(as11(" ZMB 2\n FCB 1"), vec![0, 0, 1]);
    assert_eq!(as11(" FILL $AA,3 pattern"), vec![0xAA, 0xAA, 0xAA]);
    // RMB reserves without bytes.
    assert_eq!(as11(" RMB 2\n FCB 7"), Vec::<u8>::new());
    // Listing controls produce nothing.
    assert_eq!(
        as11(" NAM DEMO\n TTL A TITLE\n OPT L\n PAGE\n SPC 2\n NOP"),
        vec![0x01]
    );
    // A character constant may be a space: `#' `.
    assert_eq!(as11(" LDAA #'  a blank"), vec![0x86, 0x20]);
    // Bit instructions with space-separated operands, then a comment.
    assert_eq!(
        as11("WAIT BRCLR 0,X $20 WAIT until set"),
        vec![0x1F, 0x00, 0x20, 0xFC]
    );
    assert_eq!(as11(" BSET $40,#$80 on"), vec![0x14, 0x40, 0x80]);
    // EQU with `#`, FDB with `#`.
    assert_eq!(
        as11("TEN EQU #10\n FCB TEN\n FDB #TEN"),
        vec![10, 0x00, 0x0A]
    );
    // AS11 reads on after END (tests/asm_as11_end.rs).
    assert_eq!(as11(" NOP\n END\n NOP"), vec![0x01, 0x01]);
}

#[test]
fn as11_truncates_a_wide_immediate_with_a_warning() {
    let asm = assemble(Dialect::As11, " ORG $C000\n LDAA #$1234 too wide\n");
    assert_eq!(image(&asm, 0xC000), vec![0x86, 0x34]);
    assert_eq!(codes(&asm), vec!["W0001"]);
    // The course dialect keeps it an error.
    let asm = assemble(Dialect::Course, "  org $C000\n  ldaa #$1234\n");
    assert_eq!(codes(&asm), vec!["E0006"]);
}

#[test]
fn quirks_every_dialect_accepts() {
    for d in Dialect::ALL {
        let src = " org $C000\n cpu 6811\n ldaa #'A\n fcb 'B,'C\n ldab #&12\n cmpx #$1234\n cmpy #$10\nten equ #10\n fdb #ten\n";
        let asm = assemble(d, src);
        assert_eq!(
            image(&asm, 0xC000),
            vec![
                0x86, b'A', b'B', b'C', 0xC6, 12, 0x8C, 0x12, 0x34, 0x18, 0x8C, 0x00, 0x10, 0x00,
                0x0A
            ],
            "{d}"
        );
        assert!(asm.diagnostics.is_empty(), "{d}: {:?}", codes(&asm));
    }
    let asm = assemble(Dialect::Course, " cpu 6809\n");
    assert_eq!(codes(&asm), vec!["E0022"]);
}

/// A quoted string whose second character is no letter or digit is still a
/// string when its quote closes on the line (monitor command tables are
/// written so); only a quote that no item-ending quote follows is a lone
/// character constant.
#[test]
fn strings_with_commas_and_punctuation_are_strings_in_every_dialect() {
    for d in Dialect::ALL {
        let asm = assemble(
            d,
            " org $C000\n fcc 'A,B'\n fcc '  [/,=] x,' ; table\n fcb 'C,'D\n fcc ', '\n",
        );
        assert!(asm.diagnostics.is_empty(), "{d}: {:?}", codes(&asm));
        let mut want = b"A,B".to_vec();
        want.extend_from_slice(b"  [/,=] x,");
        want.extend_from_slice(b"CD, ");
        assert_eq!(image(&asm, 0xC000), want, "{d}");
    }
}

#[test]
fn bare_decimal_bit_masks_warn_where_hex_would_differ() {
    for d in Dialect::ALL {
        // `#80` is decimal 80 = $50 in every dialect; `#8` reads the same in
        // hexadecimal, so only the first warns.
        let asm = assemble(d, " org $C000\n bset $40,#80\n bclr $40,#8\n");
        assert_eq!(
            image(&asm, 0xC000),
            vec![0x14, 0x40, 0x50, 0x15, 0x40, 0x08],
            "{d}"
        );
        assert_eq!(codes(&asm), vec!["W0003"], "{d}");
    }
}

/// One program: count down from 5 and store each count, then a table and a
/// string; written three times.
const COURSE: &str = "\
; counts down
count   equ     5
        org     $C000
start   ldaa    #count          ; from five
loop    staa    $20
        deca
        bne     loop
        ldx     #table
        bra     *
table   dc.b    1,2,3
        dc.w    start
text    fcc     \"Hi\"
";

const AS11: &str = "\
* counts down
COUNT   EQU     5
        ORG     $C000
START   LDAA    #COUNT          from five
LOOP    STAA    $20
        DECA                    one less
        BNE     LOOP            until zero
        LDX     #TABLE
        BRA     *               stay
TABLE   FCB     1,2,3
        FDB     START
TEXT    FCC     /Hi/
        END
";

const ASM11: &str = "\
; counts down
count   equ     5
#ROM
        org     $C000
start   ldaa    #count          ; from five
loop    staa    $20
        deca
        bne     loop
        ldx     #table
        bra     *
#DATA
        org     $C00C
table   fcb     1,2,3
        fdb     start
text    fcc     'Hi'
";

#[test]
fn one_program_in_three_dialects_is_one_image() {
    let course = image(&assemble(Dialect::Course, COURSE), 0xC000);
    let as11 = image(&assemble(Dialect::As11, AS11), 0xC000);
    let asm11 = image(&assemble(Dialect::Asm11, ASM11), 0xC000);
    assert_eq!(
        course,
        vec![
            0x86, 0x05, 0x97, 0x20, 0x4A, 0x26, 0xFB, 0xCE, 0xC0, 0x0C, 0x20, 0xFE, 1, 2, 3, 0xC0,
            0x00, b'H', b'i'
        ]
    );
    assert_eq!(as11, course);
    assert_eq!(asm11, course);
}

#[test]
fn as11_source_read_as_course_gets_one_error_saying_so() {
    let asm = assemble(Dialect::Course, AS11);
    assert_eq!(codes(&asm), vec!["E0026"]);
    let d = &asm.diagnostics[0];
    assert!(
        d.message
            .starts_with("this file looks like AS11 source: free-text comments after operands"),
        "{}",
        d.message
    );
    assert!(
        d.message.ends_with("assemble with --dialect as11"),
        "{}",
        d.message
    );
    // The same file in its own dialect has nothing to say.
    assert!(assemble(Dialect::As11, AS11).diagnostics.is_empty());
}

#[test]
fn asm11_source_read_as_course_gets_one_error_saying_so() {
    let asm = assemble(Dialect::Course, ASM11);
    assert_eq!(codes(&asm), vec!["E0026"], "{}", asm.render_diagnostics());
    assert!(asm.diagnostics[0].message.contains("ASM11 source"));
}

#[test]
fn a_typo_in_course_source_is_not_called_another_dialect() {
    // AS11 would read `2` as a comment, but two mistakes are not a dialect.
    let asm = assemble(Dialect::Course, "  org $C000\n  ldaa #1 2\n  ldab #3 4\n");
    assert_eq!(codes(&asm), vec!["E0008", "E0008"]);
}

#[test]
fn follow_on_errors_are_not_reported() {
    // The definition fails once; its three uses say nothing more.
    let src = "  org $C000\nlimit equ $\n  ldaa #limit\n  ldab #limit\n  cmpa #limit\n";
    let asm = assemble(Dialect::Course, src);
    assert_eq!(codes(&asm), vec!["E0009"]);
}

#[test]
fn at_most_25_errors_per_file_are_shown() {
    let src = "  org $C000\n".to_string() + &"  ldaa #$1FF\n".repeat(40);
    let asm = assemble(Dialect::Course, &src);
    assert_eq!(codes(&asm).len(), 40, "the assembly keeps them all");
    let shown = asm.render_diagnostics();
    assert_eq!(shown.matches("error[E0006]").count(), 25);
    assert!(
        shown.contains("15 more errors in t.asm not shown"),
        "{shown}"
    );
}

#[test]
fn asm11_hash_directives_segments_and_fcs() {
    let files = MemoryFiles::new()
        .with(
            "main.asm",
            b"#include \"defs.inc\"\n#RAM\n org $0040\nflag rmb 1\n#ROM\n org $C000\n#ifdef FAST\n ldaa #1\n#else\n ldaa #2\n#endif\n staa flag\n fcs \"ok\"\n#VECTORS\n org $FFFE\n fdb $C000\n".to_vec(),
        )
        .with("defs.inc", b"SLOW equ 1\n".to_vec());
    let asm = assemble_with(Path::new("main.asm"), &files, &opts(Dialect::Asm11));
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x86, 0x02, 0x97, 0x40, b'o', b'k', 0x00]
    );
    assert_eq!(image(&asm, 0xFFFE), vec![0xC0, 0x00]);
    // `#include` is not course syntax.
    let asm = assemble_with(Path::new("main.asm"), &files, &opts(Dialect::Course));
    assert!(asm.has_errors());
}

#[test]
fn course_sources_read_the_same_as_before() {
    // The course dialect knows none of the AS11 directives; one is enough
    // to name the dialect.
    let asm = assemble(Dialect::Course, "  org $C000\n  bsz 2\n");
    assert_eq!(codes(&asm), vec!["E0026"]);
    assert!(
        asm.diagnostics[0]
            .message
            .contains("looks like AS11 source: AS11 directives (bsz)"),
        "{}",
        asm.diagnostics[0].message
    );
    // An unknown word that no dialect knows stays an unknown mnemonic.
    let asm = assemble(Dialect::Course, "  org $C000\n  ldq 2\n");
    assert_eq!(codes(&asm), vec!["E0003"]);
    // A `;` comment with a quote in it still ends the operand field.
    let asm = assemble(
        Dialect::Course,
        "  org $C000\n  ldaa #';' ; semicolon\n  ldab #'x ; open\n",
    );
    assert_eq!(image(&asm, 0xC000), vec![0x86, b';', 0xC6, b'x']);
}

#[test]
fn dialect_flag_on_asm_and_run() {
    let dir = std::env::temp_dir().join(format!("hc11lab-dialects-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("store.as11");
    std::fs::write(
        &src,
        "* store a byte\n        ORG  $C000\nSTART   LDAA #$5A   the value\n        STAA $20    into RAM\n        BRA  *      done\n        ORG  $FFFE\n        FDB  START\n",
    )
    .expect("write source");
    let exe = env!("CARGO_BIN_EXE_hc11lab");
    let run = |args: &[&str]| {
        std::process::Command::new(exe)
            .args(args)
            .output()
            .expect("run hc11lab")
    };
    let path = src.to_str().expect("utf-8 path");
    let out = run(&["run", path, "--dialect", "as11", "--dump", "$0020:1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("@ $0020: $5A"));
    let out = run(&["asm", path]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error[E0026]: this file looks like AS11 source"),
        "{err}"
    );
    assert!(err.contains("error: 1 error"), "{err}");
    let out = run(&["asm", path, "--dialect", "as11"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["asm", path, "--dialect", "gnu"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mangled_sources_never_crash_any_dialect() {
    // Deterministic mutations of the three programs with the characters the
    // dialect lexers treat specially (quotes, delimiters, multi-byte text).
    let tricky = [
        '\'', '"', '#', ',', ' ', '\t', ';', '*', '/', '&', '$', '%', '@', 'é', '中', 'x',
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for base in [COURSE, AS11, ASM11] {
        for _ in 0..300 {
            let mut chars: Vec<char> = base.chars().collect();
            for _ in 0..1 + next() % 4 {
                let at = (next() % chars.len() as u64) as usize;
                chars[at] = tricky[(next() % tricky.len() as u64) as usize];
            }
            let text: String = chars.into_iter().collect();
            for d in Dialect::ALL {
                let asm = assemble(d, &text);
                // Rendering walks every span: it must fit the text.
                let _ = asm.render_diagnostics();
            }
        }
    }
}

/// The three-dialect program in GNU syntax, for `m68hc11-as` as the oracle.
const GNU: &str = "\
start:  ldaa #5
loop:   staa *0x20
        deca
        bne loop
        ldx #table
        bra .
table:  .byte 1,2,3
        .word start
        .ascii \"Hi\"
";

#[test]
fn the_three_dialect_program_matches_gnu_as() {
    let gnu = gnu_bytes(GNU, "dialects");
    assert_eq!(image(&assemble(Dialect::As11, AS11), 0xC000), gnu);
    assert_eq!(image(&assemble(Dialect::Asm11, ASM11), 0xC000), gnu);
    assert_eq!(image(&assemble(Dialect::Course, COURSE), 0xC000), gnu);
}

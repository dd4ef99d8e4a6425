//! What public AS11 and ASM11 sources for the EVB use beyond the course's
//! language (docs/dialects.md, "Written by others"): indented `*` comment
//! lines, blanks after the commas of a list, `#` before every term of an
//! immediate operand, ASM11's `?name` labels, `@Macro` calls, `#else`
//! followed by `ifdef`/`if` on its line, `end :Start`, and where a program
//! without a reset vector starts. Every program here was written for these
//! tests; the bytes are the M68HC11 reference manual's.

#[path = "support/asm_image.rs"]
mod asm_image;
use asm_image::{assemble, image};
use hc11lab::asm::{Assembly, Dialect, EntryFrom};

fn entry(asm: &Assembly) -> Option<u16> {
    asm.program.as_ref().and_then(|p| p.entry)
}

/// Indented comment lines, blanks after a list's commas and `#a+#b` are
/// read alike in every dialect.
#[test]
fn comments_blanks_in_lists_and_repeated_immediate_marks() {
    let src = " org $C000
   * an indented comment line, star first
\t* and one after a tab
 ldab 0, x
 ldaa 2,  y
 fcb 1, 2, 5
 fdb $1234, $5678
Two equ 2
Five equ 5
 ldaa #Two+#Five
 addd #$10+#1
";
    for d in Dialect::ALL {
        let asm = assemble(d, src);
        assert!(
            asm.diagnostics.is_empty(),
            "{d}: {}",
            asm.render_diagnostics()
        );
        assert_eq!(
            image(&asm, 0xC000),
            vec![
                0xE6, 0x00, // ldab 0,x
                0x18, 0xA6, 0x02, // ldaa 2,y
                1, 2, 5, // fcb
                0x12, 0x34, 0x56, 0x78, // fdb
                0x86, 7, // ldaa #7
                0xC3, 0x00, 0x11, // addd #$11
            ],
            "{d}"
        );
    }
}

/// A `*` after a label or in the operand field is no comment: `*` stays
/// the location counter there.
#[test]
fn a_star_in_the_operand_is_still_the_location_counter() {
    let asm = assemble(Dialect::As11, " org $C000\nHere bra *\n ldx #*+2\n");
    assert_eq!(image(&asm, 0xC000), vec![0x20, 0xFE, 0xCE, 0xC0, 0x04]);
}

/// ASM11's `?name` labels are names; `@Name` calls the macro `Name`.
#[test]
fn asm11_question_mark_labels_and_at_macro_calls() {
    let asm = assemble(
        Dialect::Asm11,
        " org $C000
Twice macro
 inca
 inca
 endm
?Loop deca
 bne ?Loop
 @Twice
 Twice
 ldx #?Loop
",
    );
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x4A, 0x26, 0xFD, 0x4C, 0x4C, 0x4C, 0x4C, 0xCE, 0xC0, 0x00]
    );
    // `@` calls only macros: an instruction written so is named.
    let asm = assemble(Dialect::Asm11, " org $C000\n @nop\n");
    assert!(asm.program.is_none());
}

/// `#else ifdef X` (and `#else if EXPR`) continue one chain closed by one
/// `#endif`: the first true branch is taken, the rest skipped; words
/// after a plain `#else` are a comment.
#[test]
fn asm11_else_ifdef_chains_take_the_first_true_branch() {
    let chain = |defines: &str| {
        let src = format!(
            "{defines}
 org $C000
 #ifdef CHIP_D
 ldaa #1
 #else ifdef CHIP_A
 ldaa #2
 #else if WIDTH > 8
 ldaa #3
 #else (any other chip)
 ldaa #4
 #endif
 nop
"
        );
        let asm = assemble(Dialect::Asm11, &src);
        assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
        image(&asm, 0xC000)
    };
    assert_eq!(chain("CHIP_D\nCHIP_A\nWIDTH equ 16"), vec![0x86, 1, 0x01]);
    assert_eq!(chain("CHIP_A\nWIDTH equ 16"), vec![0x86, 2, 0x01]);
    assert_eq!(chain("WIDTH equ 16"), vec![0x86, 3, 0x01]);
    assert_eq!(chain("WIDTH equ 8"), vec![0x86, 4, 0x01]);
    // Nested inside a skipped branch, a chain stays skipped.
    let asm = assemble(
        Dialect::Asm11,
        " org $C000\n #ifdef NONE\n #ifdef ALSO\n nop\n #else ifdef NONE\n inx\n #endif\n #else\n iny\n #endif\n",
    );
    assert_eq!(image(&asm, 0xC000), vec![0x18, 0x08]);
    // An `#else` after the chain's plain `#else` is still one too many.
    let asm = assemble(
        Dialect::Asm11,
        " org $C000\n #ifdef A\n #else\n #else ifdef B\n #endif\n",
    );
    assert!(asm.render_diagnostics().contains("a second `.else`"));
}

/// The start of a program: its reset vector, else the operand of its END
/// line (`END START`, ASM11's `end :Start`), else its first instruction
/// after the pseudo-vector stubs at $00C4-$00FF.
#[test]
fn the_start_address_and_why() {
    let asm = assemble(
        Dialect::Asm11,
        " org $C000\n nop\nStart ldaa #1\n swi\n end :Start\n",
    );
    assert_eq!(entry(&asm), Some(0xC001));
    assert_eq!(asm.entry_from, Some(EntryFrom::EndLine));
    let asm = assemble(
        Dialect::As11,
        " ORG $C000\n NOP\nSTART LDAA #1\n END START\n",
    );
    assert_eq!(entry(&asm), Some(0xC001));
    // AS11's END with free text after it: a comment, not a start.
    let asm = assemble(Dialect::As11, " ORG $C000\n NOP\n END of the program\n");
    assert_eq!(entry(&asm), Some(0xC000));
    assert_eq!(asm.entry_from, Some(EntryFrom::FirstInstruction));
    // Stubs in the pseudo-vector slots come first in the file; the start
    // is the first instruction after them.
    let asm = assemble(
        Dialect::As11,
        " ORG $00EB\n JMP TICK\n ORG $C000\nMAIN LDS #$0041\n CLI\nTICK RTI\n",
    );
    assert_eq!(entry(&asm), Some(0xC000));
    assert_eq!(asm.entry_from, Some(EntryFrom::AfterPseudoVectors));
    // A reset vector wins over everything.
    let asm = assemble(
        Dialect::As11,
        " ORG $C000\nA NOP\nB NOP\n ORG $FFFE\n FDB B\n END A\n",
    );
    assert_eq!(entry(&asm), Some(0xC001));
    assert_eq!(asm.entry_from, Some(EntryFrom::ResetVector));
}

/// The 6801's spellings of the D loads and stores.
#[test]
fn ldad_and_stad_are_ldd_and_std() {
    for d in Dialect::ALL {
        let asm = assemble(d, " org $C000\n ldad #$1234\n stad $40\n");
        assert_eq!(
            image(&asm, 0xC000),
            vec![0xCC, 0x12, 0x34, 0xDD, 0x40],
            "{d}"
        );
    }
}

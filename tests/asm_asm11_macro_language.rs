//! ASM11's macro language beyond `~1~`..`~9~` (docs/dialects.md, section
//! asm11): `~label~`, `~0~`, `~@~`, `~N.from.length~`, `:N`, `{expr}`
//! and the body directives `mreq`, `mstr`, `mdef`, `mset`, `mexit` and
//! `merror`. The programs were written for these tests, in the style of
//! public ASM11 monitors (a register table and a command table).

#[path = "support/asm_image.rs"]
mod asm_image;
use asm_image::image;
#[path = "support/asm11.rs"]
mod asm11_support;
use asm11_support::{asm11, clean, symbol};

const REGISTERS: &str = "REGS    equ   $1000
?       macro Offset
        mreq  1:Offset
~label~ set   REGS+~1~
        endm
PORTA   @?    $00
SCSR    @?    $2E
        org   $C000
Start   ldaa  SCSR
";

/// `~label~` gives the use's label as text: the body defines it, and the
/// label does not also label an address.
#[test]
fn a_macro_defines_the_label_of_its_use() {
    let asm = asm11(REGISTERS);
    clean(&asm);
    assert_eq!(symbol(&asm, "PORTA"), Some(0x1000));
    assert_eq!(symbol(&asm, "SCSR"), Some(0x102E));
    assert_eq!(image(&asm, 0xC000), vec![0xB6, 0x10, 0x2E]);
}

#[test]
fn a_missing_required_parameter_is_named() {
    let asm = asm11(&format!("{REGISTERS}NOWHERE @?\n"));
    let text = asm.render_diagnostics();
    assert!(asm.has_errors());
    assert!(
        text.contains("macro `?` needs its parameter 1 (Offset)"),
        "{text}"
    );
}

const COMMANDS: &str = "cmd     macro 'CMD'[,CMD]
        mreq  1:'CMD'[,CMD]
        mstr  1
        mdef  2,~1.2.{:1-2}~
        fcb   :1-2
        fcc   ~1~
        dw    ~2~
        endm
        org   $C000
Table   @cmd  MD
        @cmd  'GO',Run
        fcb   4
MD      rts
Run     rts
";

/// A command table: `mstr` quotes the name, `:1` is its length (quotes
/// included), `mdef` gives the routine the command's own name when the
/// use names none, `{...}` computes the part's length.
#[test]
fn a_command_table_from_one_macro() {
    let asm = asm11(COMMANDS);
    clean(&asm);
    let md = symbol(&asm, "MD").expect("MD");
    let run = symbol(&asm, "Run").expect("Run");
    assert_eq!((md, run), (0xC00B, 0xC00C));
    assert_eq!(
        image(&asm, 0xC000),
        vec![
            2, b'M', b'D', 0xC0, 0x0B, // MD -> MD
            2, b'G', b'O', 0xC0, 0x0C, // GO -> Run
            4, 0x39, 0x39,
        ]
    );
}

/// `~0~` is the macro's name, `~@~` the operands as written; a macro and a
/// label may share a name.
#[test]
fn name_and_operands_as_written() {
    let asm = asm11(
        "OUTA    macro [#]Character
        ldaa  ~@~
        jsr   ~0~
        endm
        org   $C000
        @OUTA #'A'
        rts
OUTA    rts
",
    );
    clean(&asm);
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x86, 0x41, 0xBD, 0xC0, 0x06, 0x39, 0x39]
    );
}

/// A 7-bit string whose last character has bit 7 set, as monitors keep
/// command names: `mset` with `\@` for a quote, `mexit` inside an `#if`
/// (whose `#endif` then stays unread), `merror`.
#[test]
fn mset_mexit_and_merror() {
    let src = "Str7    macro String
        mreq  1:String
        mset  1,~@~
        mstr  1
        #if :1 < 3
        merror Null string not allowed
        mexit
        #endif
        #if :1 = 3
        fcb   ~1~|$80
        mexit
        #endif
        mset  2,\\@~1.2.{:1-3}~\\@,
        mset  3,\\@~1.{:1-1}.1~\\@|$80
        fcc   ~2~~3~
        endm
        org   $C000
        @Str7 ASM
        @Str7 X
        nop
";
    let asm = asm11(src);
    clean(&asm);
    assert_eq!(
        image(&asm, 0xC000),
        vec![b'A', b'S', b'M' | 0x80, b'X' | 0x80, 0x01]
    );
    let asm = asm11(&src.replace("@Str7 X", "@Str7 ''"));
    let text = asm.render_diagnostics();
    assert!(text.contains("Null string not allowed"), "{text}");
}

/// `\N` is parameter N as well, unless more digits follow: then `\` is
/// the remainder (`~1~\100`).
#[test]
fn backslash_parameters_and_the_remainder() {
    let asm = asm11("put macro\n ldaa #~1~\\100\n staa \\2\n endm\n org $C000\n put 1234,$40\n");
    clean(&asm);
    assert_eq!(image(&asm, 0xC000), vec![0x86, 34, 0x97, 0x40]);
}

/// Parameters inside `{...}` are put in before it is computed, and the
/// counters (`:temp`) have their values there.
#[test]
fn braces_compute_with_parameters_and_counters() {
    let asm = asm11(
        "span    macro First,Last
        fcb   {~2~-~1~+1}
        #temp 7
        fcb   {:temp*2}
        endm
        org   $C000
        @span 3,10
",
    );
    clean(&asm);
    assert_eq!(image(&asm, 0xC000), vec![8, 14]);
}

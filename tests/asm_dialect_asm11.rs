//! ASM11's procedures with `@@` local labels, `set`, the high/low byte
//! functions, macros with parameters and the pseudo-instructions `clrd`,
//! `incd`, `decd` (docs/dialects.md, section asm11). Every program here was
//! written for these tests; the bytes are the M68HC11 reference manual's and
//! one program is checked against GNU `m68hc11-as` as an independent oracle.

#[path = "support/asm_image.rs"]
mod asm_image;
use asm_image::{assemble, gnu_bytes, image};
use hc11lab::asm::{assemble_source, listing, AsmOptions, Assembly, Dialect};

fn asm11(text: &str) -> Assembly {
    assemble(Dialect::Asm11, text)
}

fn codes(asm: &Assembly) -> Vec<&'static str> {
    asm.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

fn symbol(asm: &Assembly, name: &str) -> Option<u16> {
    asm.symbols.iter().find(|s| s.name == name).map(|s| s.value)
}

#[test]
fn proc_scopes_local_labels() {
    let asm = asm11(
        "        org   $C000
First   proc
        ldab  #3
Loop@@  decb
        bne   Loop@@
        bra   Done@@
Done@@  rts
        endp
Second  proc
Loop@@  bra   Loop@@
_@@     bra   _@@
",
    );
    assert_eq!(
        image(&asm, 0xC000),
        vec![0xC6, 0x03, 0x5A, 0x26, 0xFD, 0x20, 0x00, 0x39, 0x20, 0xFE, 0x20, 0xFE]
    );
    // Each proc has its own `Loop@@`; the symbol table names the proc.
    assert_eq!(symbol(&asm, "First.Loop@@"), Some(0xC002));
    assert_eq!(symbol(&asm, "Second.Loop@@"), Some(0xC008));
    assert_eq!(symbol(&asm, "Second._@@"), Some(0xC00A));
    assert_eq!(symbol(&asm, "First"), Some(0xC000));
}

#[test]
fn a_local_label_is_unknown_outside_its_proc() {
    let asm = asm11(
        "        org   $C000
One     proc
Here@@  nop
        endp
        bra   Here@@
",
    );
    assert_eq!(codes(&asm), vec!["E0004"], "{}", asm.render_diagnostics());
    assert!(asm.render_diagnostics().contains("`Here@@`"));
    // Twice in one proc is a duplicate, named as written.
    let asm = asm11(" org $C000\nP proc\nX@@ nop\nX@@ nop\n");
    assert_eq!(codes(&asm), vec!["E0005"]);
    assert!(asm
        .render_diagnostics()
        .contains("`P.X@@` is defined twice"));
    // `@@` inside a string stays text.
    assert_eq!(
        image(&asm11(" org $C000\n fcc \"a@@\"\n"), 0xC000),
        b"a@@".to_vec()
    );
}

#[test]
fn set_redefines_and_equ_does_not() {
    let asm = asm11(
        "        org   $C000
        fcb   n
n       set   1
        fcb   n
n       set   n*5
        fcb   n
n       set   n+1
        ldaa  #n
",
    );
    // A use above the first `set` sees the first value.
    assert_eq!(image(&asm, 0xC000), vec![1, 1, 5, 0x86, 6]);
    assert_eq!(symbol(&asm, "n"), Some(6));
    assert_eq!(asm.symbols.iter().filter(|s| s.name == "n").count(), 1);
    // `set` cannot change an `equ`, nor `equ` a `set`.
    let asm = asm11(" org $C000\nk equ 1\nk set 2\nm set 1\nm equ 2\n");
    assert_eq!(codes(&asm), vec!["E0005", "E0005"]);
    // The course dialect has no `set`: the file is taken for ASM11.
    let asm = assemble(Dialect::Course, "k set 2\n");
    assert_eq!(codes(&asm), vec!["E0026"]);
}

#[test]
fn high_and_low_byte_functions() {
    let asm = asm11(
        "        org   $C000
Table   fcb   0
        ldaa  #high(Table+$1FF)
        ldab  #low(Table+$1FF)
        ldaa  #>Table
        ldab  #<Table
        fcb   high($ABCD),low($ABCD)
",
    );
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x00, 0x86, 0xC1, 0xC6, 0xFF, 0x86, 0xC0, 0xC6, 0x00, 0xAB, 0xCD]
    );
}

#[test]
fn macros_with_parameters_expand_and_are_listed() {
    let src = "        org   $C000
store   macro
        ldaa  ~1~
        staa  \\2
        endm
copy2   macro
        store ~1~,~2~
        store ~1~+1,~2~+1
        endm
Start   store #$55,$20
        copy2 $30,$40
        rts
";
    let asm = asm11(src);
    assert_eq!(
        image(&asm, 0xC000),
        vec![
            0x86, 0x55, 0x97, 0x20, // store #$55,$20
            0x96, 0x30, 0x97, 0x40, 0x96, 0x31, 0x97, 0x41, // copy2 $30,$40
            0x39
        ]
    );
    // The label of the line using a macro labels the first expanded byte.
    assert_eq!(symbol(&asm, "Start"), Some(0xC000));
    let lst = listing(&asm);
    assert!(
        lst.contains("t.asm (macros)     2  C000  86 55                   ldaa  #$55"),
        "{lst}"
    );
    assert!(lst.contains("staa  $20"), "{lst}");
    // The body lines of the definition are listed without bytes.
    assert!(lst.contains("t.asm              3                                ldaa  ~1~"));
    // The expansion file names each use.
    let exp = asm
        .files
        .iter()
        .find(|f| f.path.to_string_lossy() == "t.asm (macros)");
    let exp = exp.expect("expansion file");
    assert!(
        exp.text.starts_with("; store at t.asm:10:9\n"),
        "{}",
        exp.text
    );
    // A byte of an expansion leads back to its expanded line.
    let p = asm.program.as_ref().expect("program");
    let place = p
        .lines
        .iter()
        .find(|l| l.addr == 0xC000)
        .expect("line entry");
    assert_eq!(p.files[place.file].path.to_string_lossy(), "t.asm (macros)");
}

#[test]
fn macro_errors_are_reported_once_and_never_loop() {
    let asm = asm11(" org $C000\nm macro\n nop\n");
    assert_eq!(codes(&asm), vec!["E0028"]);
    assert!(asm.render_diagnostics().contains("no `endm`"));
    let asm = asm11(" endm\n");
    assert_eq!(codes(&asm), vec!["E0028"]);
    let asm = asm11("ldaa macro\n nop\n endm\n");
    assert_eq!(codes(&asm), vec!["E0028"]);
    // A macro that uses itself stops at the depth limit with one error.
    let asm = asm11(" org $C000\nr macro\n nop\n r\n endm\n r\n");
    assert_eq!(codes(&asm), vec!["E0028"], "{}", asm.render_diagnostics());
    // ... and names the use in the sources, once for the levels between.
    assert!(
        asm.render_diagnostics()
            .contains("expanded from the macro `r` used at t.asm:6:2 (through `r` 15 times)"),
        "{}",
        asm.render_diagnostics()
    );
    // An error inside an expansion points into the expansion file, and
    // names the use it came from.
    let asm = asm11(" org $C000\nm macro\n ldaa ~1~\n endm\n m undefined_thing\n");
    assert_eq!(codes(&asm), vec!["E0004"]);
    let text = asm.render_diagnostics();
    assert!(text.contains("t.asm (macros):2"), "{text}");
    assert!(
        text.contains("expanded from the macro `m` used at t.asm:5:2"),
        "{text}"
    );
    // Nested: the outermost use, through the inner macro; a line of the
    // outer body after the inner expansion belongs to the outer one.
    let asm = asm11(concat!(
        " org $C000\n",
        "in macro\n ldaa #1\n endm\n",
        "out macro\n in\n jsr nowhere\n endm\n",
        " nop\n out\n",
    ));
    let text = asm.render_diagnostics();
    assert!(
        text.contains("expanded from the macro `out` used at t.asm:10:2\n"),
        "{text}"
    );
    assert!(!text.contains("through"), "{text}");
}

#[test]
fn pseudo_instructions_expand_to_real_ones() {
    let asm = asm11(" org $C000\nL clrd\n incd\n decd ; D-1\n");
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x4F, 0x5F, 0xC3, 0x00, 0x01, 0x83, 0x00, 0x01]
    );
    assert_eq!(symbol(&asm, "L"), Some(0xC000));
    let lst = listing(&asm);
    assert!(lst.contains("C000  4F                      clra"), "{lst}");
    assert!(
        lst.contains("C002  C3 00 01                addd #1"),
        "{lst}"
    );
    // Only ASM11 has them.
    assert_eq!(codes(&assemble(Dialect::Course, " clrd\n")), vec!["E0003"]);
    assert_eq!(codes(&asm11(" clrd a\n")), vec!["E0022"]);
}

/// The program below written out in GNU syntax (macros expanded by hand).
const GNU: &str = "\
start:  ldab #3
l1:     decb
        bne l1
        ldaa #0x55
        staa *0x20
        clra
        clrb
        addd #1
        subd #1
        ldaa #0xc0
        ldab #0x17
        .byte 2,3
l2:     bra l2
";

const ASM11_PROGRAM: &str = "        org   $C000
put     macro
        ldaa  ~1~
        staa  ~2~
        endm
Start   proc
        ldab  #3
Loop@@  decb
        bne   Loop@@
        put   #$55,$20
        clrd
        incd
        decd
        ldaa  #high(Tail)
        ldab  #low(Tail)
k       set   2
        fcb   k
k       set   k+1
        fcb   k
        endp
Tail    proc
Loop@@  bra   Loop@@
";

#[test]
fn asm11_constructs_match_gnu_as() {
    let gnu = gnu_bytes(GNU, "asm11");
    assert_eq!(image(&asm11(ASM11_PROGRAM), 0xC000), gnu);
}

#[test]
fn a_segment_directive_with_an_address_moves_its_counter() {
    // `#RAM $40` / `#ROM $C000` as public ASM11 programs write them: switch
    // and `org` in one line; switching back continues where it stopped.
    let asm = asm11(
        "\
#RAM      $0040
flag      rmb   1
#ROM      $C000
Start     ldaa  #1
          staa  flag
#RAM
count     rmb   1
#ROM
          inc   count
#VECTORS  $FFFE
          fdb   Start
",
    );
    assert_eq!(symbol(&asm, "flag"), Some(0x40));
    assert_eq!(symbol(&asm, "count"), Some(0x41));
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x86, 0x01, 0x97, 0x40, 0x7C, 0x00, 0x41]
    );
    assert_eq!(image(&asm, 0xFFFE), vec![0xC0, 0x00]);
    let lst = listing(&asm);
    assert!(
        lst.contains("    3  C000                  #ROM      $C000"),
        "{lst}"
    );
}

#[test]
fn a_macro_bomb_stops_at_the_line_limit_with_an_error() {
    // Each level uses the one below twice: 2^12 expansions of `nop`.
    let mut src = String::from(" org $C000\nm0 macro\n nop\n endm\n");
    for i in 1..=12 {
        src.push_str(&format!("m{i} macro\n m{}\n m{}\n endm\n", i - 1, i - 1));
    }
    src.push_str(" m12\n");
    let opts = AsmOptions {
        dialect: Dialect::Asm11,
        max_lines: 1000,
        ..AsmOptions::default()
    };
    let asm = assemble_source("t.asm", &src, &opts);
    assert_eq!(codes(&asm), vec!["E0014"], "{}", asm.render_diagnostics());
    assert!(asm.render_diagnostics().contains("more than 1000 lines"));
}

#[test]
fn macro_forms_and_local_labels_in_bodies() {
    // `macro NAME` as well as `NAME macro`; `@@` names in a body belong to
    // the proc the macro is used in.
    let src = "        org   $C000
        macro wait
Loop@@  brclr ~1~,#$80,Loop@@
        endm
A       proc
        wait  $10
        endp
B       proc
        wait  $11
";
    let asm = asm11(src);
    assert_eq!(
        image(&asm, 0xC000),
        vec![0x13, 0x10, 0x80, 0xFC, 0x13, 0x11, 0x80, 0xFC]
    );
    assert_eq!(symbol(&asm, "A.Loop@@"), Some(0xC000));
    assert_eq!(symbol(&asm, "B.Loop@@"), Some(0xC004));
    // Used twice in one proc, its label is defined twice.
    let asm = asm11(&format!("{src}        wait  $12\n"));
    assert_eq!(codes(&asm), vec!["E0005"]);
    // A body cannot define a macro.
    let asm = asm11(" org $C000\nouter macro\n macro inner\n endm\n outer\n");
    assert!(
        codes(&asm).contains(&"E0028"),
        "{}",
        asm.render_diagnostics()
    );
}

/// A macro used before its definition gets the definition's place and the
/// rule, not a near instruction's name (`store` is not `stop`).
#[test]
fn a_macro_used_before_its_definition_says_so() {
    let src = "        org   $C000
Start   store #$55,$20
        rts
store   macro
        ldaa  ~1~
        staa  \\2
        endm
";
    let asm = asm11(src);
    assert_eq!(codes(&asm), vec!["E0003"]);
    let hints = &asm.diagnostics[0].hints;
    assert_eq!(
        hints,
        &vec![
            "`store` is a macro defined later, at t.asm:4:1: define a macro before its first use"
                .to_string()
        ]
    );
}

#[test]
fn sources_that_make_no_byte_get_a_warning() {
    for dialect in [Dialect::Course, Dialect::Asm11] {
        let empty = assemble(dialect, "");
        assert_eq!(codes(&empty), vec!["W0004"]);
        assert!(empty.render_diagnostics().contains("the file is empty"));
        let equs = assemble(dialect, "; registers\nPORTA equ $1000\n");
        assert_eq!(codes(&equs), vec!["W0004"]);
        // One byte is a program.
        assert!(codes(&assemble(dialect, " org $C000\n nop\n")).is_empty());
    }
}

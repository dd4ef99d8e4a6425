//! The older AS11 variants' `FCC` with a count (`FCC 5,HELLO`): that many
//! characters after the comma, blanks included, then the comment
//! (docs/dialects.md, section as11). The programs were written for this
//! test.

#[path = "support/asm_image.rs"]
mod asm_image;
use asm_image::image;
use hc11lab::asm::{assemble_source, AsmOptions, Assembly, Dialect};

fn as11(text: &str) -> Assembly {
    let opts = AsmOptions {
        dialect: Dialect::As11,
        ..AsmOptions::default()
    };
    assemble_source("t.asm", text, &opts)
}

#[test]
fn a_count_takes_that_many_characters() {
    let asm = as11(
        "       ORG   $C000
MSG    FCC   7,HI THERE and the rest is a comment
       FCC   /OK/
       FCB   4
",
    );
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    assert_eq!(
        image(&asm, 0xC000),
        vec![b'H', b'I', b' ', b'T', b'H', b'E', b'R', b'O', b'K', 4]
    );
}

#[test]
fn too_few_characters_for_the_count_is_an_error() {
    let asm = as11("       ORG   $C000\n       FCC   9,SHORT\n");
    let codes: Vec<&str> = asm.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, vec!["E0022"], "{}", asm.render_diagnostics());
}

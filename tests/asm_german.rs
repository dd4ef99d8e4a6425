//! The assembler's messages in German (`hc11lab::asm::german`): every
//! message and hint written in the assembler's code has its German, so a
//! new message fails here until it gets one; the German templates use only
//! the English placeholders and say du; and the diagnostics of real broken
//! programs (every case of `tests/asm`, the broken golden sources, the
//! dialect triage, macros, includes) come out German with no English prose
//! left, values such as symbol names kept as they are.

use hc11lab::asm::german::{
    german, placeholders, translate_rendered, untranslated, MESSAGES, NOT_MESSAGES, WORDS,
};
use hc11lab::asm::{assemble_file, assemble_source, AsmOptions, Dialect};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// A string literal's value: escapes resolved, a `\` at a line's end
/// joining the next line without its indentation.
fn unescape(raw: &str) -> String {
    let mut out = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\n') => {
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
            }
            Some('u') => {
                let hex: String = chars
                    .by_ref()
                    .skip_while(|c| *c == '{')
                    .take_while(|c| *c != '}')
                    .collect();
                if let Some(ch) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    out.push(ch);
                }
            }
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                if let Ok(b) = u8::from_str_radix(&hex, 16) {
                    out.push(char::from(b));
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// The string literals of a Rust source outside comments and its test
/// module, with their lines.
fn literals(src: &str) -> Vec<(usize, String)> {
    let src = match src.find("#[cfg(test)]") {
        Some(i) => &src[..i],
        None => src,
    };
    let b = src.as_bytes();
    let line_of = |i: usize| src[..i].matches('\n').count() + 1;
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(b.len(), |n| i + n);
        } else if src[i..].starts_with("/*") {
            i = src[i..].find("*/").map_or(b.len(), |n| i + n + 2);
        } else if b[i] == b'\'' {
            // A char literal ('a', '\n', '"'), else a lifetime.
            let rest = &src[i + 1..];
            let len = if let Some(escaped) = rest.strip_prefix('\\') {
                escaped.find('\'').map(|n| n + 1)
            } else {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), Some('\'')) => Some(c.len_utf8()),
                    _ => None,
                }
            };
            i += 1 + len.map_or(0, |n| n + 1);
        } else if b[i] == b'r'
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            && matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
        {
            let hashes = src[i + 1..].chars().take_while(|c| *c == '#').count();
            let start = i + 1 + hashes;
            if b.get(start) != Some(&b'"') {
                i += 1;
                continue;
            }
            let end_mark = format!("\"{}", "#".repeat(hashes));
            let end = src[start + 1..]
                .find(&end_mark)
                .map_or(b.len(), |n| start + 1 + n);
            out.push((line_of(i), src[start + 1..end].to_string()));
            i = end + end_mark.len();
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push((line_of(i), unescape(&src[i + 1..j.min(b.len())])));
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// Every message and hint in the assembler's code has its German: text
/// with a space in it, in the code of `src/asm/` (not the listing or the
/// disassembler, which write no messages), is a key of `MESSAGES` or named
/// in `NOT_MESSAGES`.
#[test]
fn every_message_of_the_assembler_has_its_german() {
    let mut files = Vec::new();
    rust_files(&root().join("src/asm"), &mut files);
    assert!(files.len() >= 15, "{files:?}");
    let skip = ["listing.rs", "disasm.rs", "german.rs"];
    let mut missing = Vec::new();
    let mut seen = 0;
    for f in files {
        // The German itself (src/asm/german.rs and its table) is no message.
        if skip.iter().any(|s| f.ends_with(s)) || f.parent().is_some_and(|d| d.ends_with("german"))
        {
            continue;
        }
        let src = std::fs::read_to_string(&f).unwrap();
        for (line, text) in literals(&src) {
            let prose = text.contains(' ') && text.chars().any(|c| c.is_ascii_alphabetic());
            if !prose || NOT_MESSAGES.contains(&text.as_str()) {
                continue;
            }
            seen += 1;
            if !MESSAGES.iter().any(|(en, _)| *en == text) {
                missing.push(format!(
                    "{}:{line}: {text:?}",
                    f.strip_prefix(root()).unwrap_or(&f).display()
                ));
            }
        }
    }
    assert!(
        seen >= 150,
        "only {seen} messages found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "messages of the assembler without German: add each, as written in the code, with its German to MESSAGES in src/asm/german/table.rs (or, if students never read it as a sentence, to NOT_MESSAGES):\n{}",
        missing.join("\n")
    );
}

/// The scan finds what it must: a message in a `format!` over lines, a
/// hint, an escape; and not what it must not: comments, char literals,
/// the test module.
#[test]
fn the_scan_reads_rust_literals() {
    let src = r##"
        // "a comment"
        let c = '"';
        let d = Diagnostic::new(Code::X, s, format!(
            "the `{x}` is \
             too \"big\"",
        ))
        .hint(r#"raw "text""#);
        fn f<'a>(x: &'a str) {}
        #[cfg(test)]
        mod tests { "in a test" }
    "##;
    let found: Vec<String> = literals(src).into_iter().map(|(_, t)| t).collect();
    assert_eq!(found, ["the `{x}` is too \"big\"", "raw \"text\""]);
}

/// German templates use the English placeholders (by name, or `{}`/`{N}`
/// for positional ones, no more than the English has), differ from the
/// English where there are words to translate, and say du.
#[test]
fn german_templates_fit_their_english() {
    let mut keys = std::collections::BTreeSet::new();
    for (en, de) in MESSAGES {
        assert!(keys.insert(*en), "{en:?} is in MESSAGES twice");
        let en_holes = placeholders(en);
        let de_holes = placeholders(de);
        let positional = en_holes.iter().filter(|h| h.is_empty()).count();
        let mut used_positional = 0;
        for h in &de_holes {
            if h.is_empty() {
                used_positional += 1;
            } else if let Ok(n) = h.parse::<usize>() {
                assert!(
                    n < en_holes.len(),
                    "{de:?}: `{{{n}}}` but {en:?} has {} placeholders",
                    en_holes.len()
                );
            } else {
                assert!(
                    en_holes.contains(h),
                    "{de:?}: `{{{h}}}` is no placeholder of {en:?}"
                );
            }
        }
        assert!(
            used_positional <= positional,
            "{de:?} has more `{{}}` than {en:?}"
        );
        let words = en
            .split(|c: char| !c.is_alphabetic())
            .filter(|w| w.len() > 2)
            .count();
        if words > 1 {
            assert_ne!(en, de, "no German for {en:?}");
        }
        assert!(
            hc11lab::lesson::validate::formal_address(de).is_empty(),
            "{de:?}: the course says du"
        );
    }
    for (en, de) in WORDS {
        assert_ne!(en, de);
    }
}

/// Every diagnostic of the source, message and hints, reads German with no
/// English prose left; returns how many were checked.
fn all_german(name: &str, asm: &hc11lab::asm::Assembly) -> usize {
    let mut n = 0;
    for d in &asm.diagnostics {
        for text in std::iter::once(&d.message).chain(&d.hints) {
            let left = untranslated(text);
            assert!(
                left.is_empty(),
                "{name}: {text:?} has English left in German: {left:?}"
            );
            n += 1;
        }
    }
    // The echoed source lines (`12 | ...`) are the student's own text.
    let rendered: String = translate_rendered(&asm.render_diagnostics())
        .lines()
        .filter(|l| !l.contains(" | "))
        .collect::<Vec<_>>()
        .join("\n");
    for word in [
        "error[",
        "warning[",
        "help:",
        "did you mean",
        " is out of range",
    ] {
        assert!(!rendered.contains(word), "{name}: {word:?} in\n{rendered}");
    }
    n
}

#[test]
fn the_diagnostics_of_broken_programs_read_in_german() {
    let mut checked = 0;
    for e in std::fs::read_dir(root().join("tests/asm")).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        for dialect in Dialect::ALL {
            let opts = AsmOptions {
                dialect,
                ..AsmOptions::default()
            };
            checked += all_german(&name, &assemble_source(&name, &text, &opts));
        }
    }
    for e in std::fs::read_dir(root().join("tests/golden/asm/broken")).unwrap() {
        let dir = e.unwrap().path();
        let main = if dir.join("main.asm").is_file() {
            dir.join("main.asm")
        } else {
            dir.join("proj/main.asm")
        };
        if main.is_file() {
            let name = dir.display().to_string();
            checked += all_german(&name, &assemble_file(&main, &AsmOptions::default()));
        }
    }
    // Messages the cases above do not make: macros, dialects, the triage,
    // data directives, a file of no bytes.
    let snippets = [
        "m1 macro\n nop\n",
        "m2 macro\nm3 macro\n endm\n endm\n",
        " endm\n",
        "ldaa macro\n endm\n",
        "rec macro\n rec\n endm\n org $C000\n rec\n",
        " org $C000\n fill 1\n",
        " org $C000\n fill 1,x y\n",
        " org $C000\n set 1\n",
        " cpu 6809\n",
        " org $C000\n bset 0,x,#10\n",
        " org $C000\n dc.b 1 2\n",
        " org $C000\n dc.b\n",
        " org $C000\n dc.b 1,\n",
        " org $C000\n ldaa #'ab'\n",
        " org $C000\n ldaa #''\n",
        " org $C000\n ldaa \"x\"\n",
        "; only a comment\n",
        "",
        " org $FFFF\n dc.w 1\n",
        " org $C000\n ds.b -1\n",
        " org $C000\nA nop\n org $C000\nB nop\n",
        " org $C000\n ldaa 1,x 2\n",
        " org $C000\n jmp #1\n",
        " org $C000\n bra #1\n",
        " org $C000\n bra 1,2\n",
        " org $C000\n brset #1,#2,x\n",
        " .if\n .endif\n",
        " .if 1\n .else\n .else\n .endif\n",
        " .if 1\n",
        " include\n",
        " switch\n",
        " Section\n",
        " org\n",
        "x equ\n",
        "1abc nop\n",
        " org $C000\n ldaa #$\n ldab #%2\n ldd #@9\n ldx #&a\n",
        " org $C000\n ldaa #1<<99\n",
        " org $C000\nstart nop\nstart2 nop\nSTART nop\n",
        " org $C000\n ldaa #stat\nstart nop\n",
        " org $C000\n fcb 1,2\n rmb 3\n ldaa #1 load it\n ldab #2 and this\n ldx #3 and that\n staa $40 store\n stab $41 store\n",
        "        .text\n        .globl main\n        .section .data\n        .byte 1\n        .word 2\n        .ascii \"x\"\n",
    ];
    for (i, src) in snippets.iter().enumerate() {
        for dialect in Dialect::ALL {
            let opts = AsmOptions {
                dialect,
                ..AsmOptions::default()
            };
            checked += all_german(
                &format!("snippet {i} ({dialect})"),
                &assemble_source("p.asm", src, &opts),
            );
        }
    }
    assert!(checked >= 150, "only {checked} messages checked");
}

#[test]
fn values_stay_as_written() {
    // Symbol names, numbers and code are not translated.
    let asm = assemble_source(
        "p.asm",
        " org $C000\n ldaa #byte\n jsr direct\n",
        &AsmOptions::default(),
    );
    let text = translate_rendered(&asm.render_diagnostics());
    assert!(text.contains("undefiniertes Symbol `byte`"), "{text}");
    assert!(text.contains("undefiniertes Symbol `direct`"), "{text}");
    assert!(text.contains("Fehler["), "{text}");
    assert_eq!(german("nothing like a message"), None);
}

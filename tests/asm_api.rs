//! The assembler's library API as other layers use it: the `Program` it
//! fills (segments, entry, symbols, lines, files), file loading (includes on
//! disk and in memory, encodings, limits), and the disassembler round trip.

use hc11lab::asm::{
    assemble_file, assemble_source, assemble_with, disassemble, disassemble_memory, listing,
    symbol_file, AsmOptions, Code, MemoryFiles,
};
use hc11lab::cpu::opcodes::OPCODES;
use hc11lab::image::SymbolKind;
use std::path::{Path, PathBuf};

fn codes(asm: &hc11lab::asm::Assembly) -> Vec<&'static str> {
    asm.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

const GAME: &str = "        include regs.inc
RamSection      Section
                org     $0040
board           ds.b    boardSize
cellAddress     ds.w    1
player
                ds.b    1
RomSection      Section
                org     $C000
Start           lds     #$3FFF
                ldx     #board
                staa    PORTD
                bra     Start
                switch  RamSection
ramEnd          equ     *
                switch  RomSection
text            dc.b    3,$01,$02,$03
boardSize       equ     336
VSection        Section
                org     $FFFE
                dc.w    Start
";

#[test]
fn program_is_filled_completely() {
    let files = MemoryFiles::new()
        .with("game/main.asm", GAME)
        .with("game/Regs.inc", "PORTD equ $08\n");
    let asm = assemble_with(Path::new("game/main.asm"), &files, &AsmOptions::default());
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    let p = asm.program.as_ref().expect("program");
    // Files: main first, include resolved case-insensitively.
    assert_eq!(p.files[0].path, PathBuf::from("game/main.asm"));
    assert_eq!(p.files[1].path, PathBuf::from("game/Regs.inc"));
    // Segments: named by section, sorted by address; RAM has no bytes.
    let segs: Vec<(u16, usize, Option<&str>)> = p
        .segments
        .iter()
        .map(|s| (s.start, s.bytes.len(), s.name.as_deref()))
        .collect();
    assert_eq!(
        segs,
        vec![
            (0xC000, 14, Some("RomSection")),
            (0xFFFE, 2, Some("VSection"))
        ]
    );
    assert_eq!(p.entry, Some(0xC000));
    // Symbols: values, kinds, sizes, definitions and uses.
    let board = p.symbol("BOARD").expect("board");
    assert_eq!(
        (board.value, board.kind, board.size),
        (0x0040, SymbolKind::Label, Some(336))
    );
    assert_eq!(board.defined_at, Some((0, 4)));
    assert_eq!(board.used_at, vec![(0, 11)]);
    assert_eq!(
        p.symbol("cellAddress").map(|s| (s.value, s.size)),
        Some((0x0190, Some(2)))
    );
    assert_eq!(
        p.symbol("player").map(|s| (s.value, s.size)),
        Some((0x0192, Some(1)))
    );
    assert_eq!(
        p.symbol("ramEnd").map(|s| (s.value, s.kind)),
        Some((0x0193, SymbolKind::Constant))
    );
    assert_eq!(p.symbol("text").map(|s| s.size), Some(Some(4)));
    assert_eq!(p.symbol("Start").map(|s| s.size), Some(None));
    assert_eq!(p.symbol("PORTD").map(|s| s.defined_at), Some(Some((1, 1))));
    // Lines: every line with bytes, sorted by address.
    let lines: Vec<(u16, u16, u32)> = p.lines.iter().map(|l| (l.addr, l.len, l.line)).collect();
    assert_eq!(
        lines,
        vec![
            (0xC000, 3, 10),
            (0xC003, 3, 11),
            (0xC006, 2, 12),
            (0xC008, 2, 13),
            (0xC00A, 4, 17),
            (0xFFFE, 2, 21)
        ]
    );
    assert_eq!(p.line_at(0xC004).map(|l| l.line), Some(11));
    // Symbol file: sorted by value, then name.
    let sym = symbol_file(p);
    assert!(sym.starts_with("PORTD $0008\nboard $0040\n"), "{sym}");
    assert!(sym.ends_with("text $C00A\n"), "{sym}");
    // Listing: the symbol table cross-references definitions and uses.
    let lst = listing(&asm);
    assert!(
        lst.contains("board        $0040  label      336  main.asm:4   main.asm:11"),
        "{lst}"
    );
}

/// A data label's size ends where `org` moves the location counter: the
/// vector after it belongs to no variable (`--dump CNT` showed four bytes).
#[test]
fn an_org_ends_the_size_of_the_data_before_it() {
    let src = "\torg $C000\nStart\tbra Start\n\torg $0010\nSUM\trmb 2\nCNT\trmb 2\n\torg $FFFE\n\tfdb Start\n";
    let files = MemoryFiles::new().with("p.asm", src);
    let asm = assemble_with(Path::new("p.asm"), &files, &AsmOptions::default());
    let p = asm.program.as_ref().expect("program");
    assert_eq!(p.symbol("SUM").map(|s| s.size), Some(Some(2)));
    assert_eq!(p.symbol("CNT").map(|s| s.size), Some(Some(2)));
}

#[test]
fn entry_without_reset_vector_is_the_first_instruction() {
    let asm = assemble_source(
        "a.asm",
        "  org $0100\n  dc.b 1\n  org $C100\ngo nop\n  bra go\n",
        &AsmOptions::default(),
    );
    assert_eq!(asm.program.and_then(|p| p.entry), Some(0xC100));
}

#[test]
fn all_errors_of_all_files_are_reported() {
    let files = MemoryFiles::new()
        .with(
            "m.asm",
            "  org $C000\n  include a.inc\n  ldaaa #1\n  jsr nowhere\n",
        )
        .with("a.inc", "  ldaa #$100\n  bra far\nx equ 1\nx equ 2\n");
    let asm = assemble_with(Path::new("m.asm"), &files, &AsmOptions::default());
    assert!(asm.program.is_none());
    assert_eq!(
        codes(&asm),
        vec!["E0003", "E0004", "E0006", "E0004", "E0005"]
    );
    // The listing and symbols exist despite the errors.
    assert!(!asm.listing.is_empty());
    assert!(asm.symbols.iter().any(|s| s.name == "x"));
}

#[test]
fn windows_sources_crlf_and_cp1252_decode() {
    // "; Größe\r\n" in Windows-1252, then a string with an umlaut.
    let mut src: Vec<u8> =
        b"; Gr\xf6\xdfe\r\n  org $C000\r\nt dc.b \"\xe4\"\r\n\tldaa\t#1\t; tab\r\n".to_vec();
    src.extend_from_slice(b"  bra t\r\n");
    let files = MemoryFiles::new().with("w.asm", src);
    let asm = assemble_with(Path::new("w.asm"), &files, &AsmOptions::default());
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    let p = asm.program.expect("program");
    assert!(p.files[0].text.starts_with("; Größe\r\n"));
    assert_eq!(p.files[0].line_text(3), Some("t dc.b \"ä\""));
    assert_eq!(p.segments[0].bytes, vec![0xE4, 0x86, 0x01, 0x20, 0xFB]);
}

#[test]
fn predefined_symbols_feed_ifdef() {
    let src = "  .ifndef MAP_PAGE\nMAP_PAGE equ $00\n  .endif\n  org $C000\n  ldaa #MAP_PAGE\n";
    let mut opts = AsmOptions::default();
    assert_eq!(
        assemble_source("a.asm", src, &opts)
            .program
            .map(|p| p.segments[0].bytes.clone()),
        Some(vec![0x86, 0])
    );
    opts.defines.push(("map_page".into(), 0x10));
    assert_eq!(
        assemble_source("a.asm", src, &opts)
            .program
            .map(|p| p.segments[0].bytes.clone()),
        Some(vec![0x86, 0x10])
    );
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("hc11lab-asm-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn files_on_disk_include_limits_and_binary() {
    let dir = TempDir::new("disk");
    let proj = dir.0.join("proj");
    std::fs::create_dir_all(proj.join("Lib")).expect("dirs");
    std::fs::write(
        proj.join("main.asm"),
        "  org $C000\n  include lib\\util.INC\n  include \"big.inc\"\n",
    )
    .expect("main");
    std::fs::write(proj.join("Lib/Util.inc"), "  nop\n").expect("util");
    // A 50 MB file (sparse) must be refused at once, not read.
    let big = std::fs::File::create(proj.join("big.inc")).expect("big");
    big.set_len(50 * 1024 * 1024).expect("sparse");
    let asm = assemble_file(&proj.join("main.asm"), &AsmOptions::default());
    assert_eq!(codes(&asm), vec!["E0014"]);
    assert_eq!(asm.files.len(), 2, "main and Lib/Util.inc were read");
    // Main file missing, or binary.
    let asm = assemble_file(&proj.join("nope.asm"), &AsmOptions::default());
    assert_eq!(asm.diagnostics[0].code, Code::Io);
    assert!(asm.render_diagnostics().contains("file not found"));
    std::fs::write(proj.join("bin.asm"), [0x4Du8, 0x5A, 0x90, 0x00, 0x03]).expect("bin");
    let asm = assemble_file(&proj.join("bin.asm"), &AsmOptions::default());
    assert_eq!(codes(&asm), vec!["E0002"]);
    // An include that leaves the tree through a symbolic link.
    #[cfg(unix)]
    {
        std::fs::write(dir.0.join("secret.inc"), "  nop\n").expect("secret");
        std::os::unix::fs::symlink(dir.0.join("secret.inc"), proj.join("link.inc"))
            .expect("symlink");
        std::fs::write(proj.join("sneaky.asm"), "  include link.inc\n").expect("sneaky");
        let asm = assemble_file(&proj.join("sneaky.asm"), &AsmOptions::default());
        assert_eq!(codes(&asm), vec!["E0012"]);
    }
}

#[test]
fn every_opcode_disassembles_and_assembles_back() {
    // One instruction per table entry with non-trivial operands, all in a row.
    let mut bytes = Vec::new();
    for e in OPCODES {
        bytes.extend(e.opcode_bytes());
        bytes.extend(&[0x12u8, 0x34, 0x05][..e.mode.operand_len() as usize]);
    }
    let fetch = |a: u16| {
        bytes
            .get(a.wrapping_sub(0xC000) as usize)
            .copied()
            .unwrap_or(0)
    };
    let rows = disassemble_memory(&fetch, 0xC000, OPCODES.len(), None);
    assert!(rows.iter().all(|r| !r.is_data));
    let mut src = String::from("  org $C000\n");
    for r in &rows {
        src.push_str(&format!("  {}\n", r.text));
    }
    let asm = assemble_source("round.asm", &src, &AsmOptions::default());
    assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
    let p = asm.program.expect("program");
    assert_eq!(p.segments[0].bytes, bytes);
    // And through the program's own disassembly text.
    let text = disassemble(&p);
    assert!(text.contains("C000  00                 test"), "{text}");
}

#[test]
fn disassembly_shows_labels_sources_and_data() {
    let src = "  org $C000\nmain ldaa msg\n  jsr main\nmsg dc.b $01,$02\n  ldaa >$0040\n";
    let asm = assemble_source("d.asm", src, &AsmOptions::default());
    let p = asm.program.expect("program");
    let text = disassemble(&p);
    assert!(
        text.contains("main:\n                    ; d.asm:2  main ldaa msg\nC000  B6 C0 06"),
        "{text}"
    );
    assert!(text.contains("jsr main"), "{text}");
    // `$01` would decode as `nop`: the source line says it is data.
    assert!(text.contains("msg:\n                    ; d.asm:4  msg dc.b $01,$02\nC006  01 02              fcb $01,$02"), "{text}");
    assert!(text.contains("ldaa >$0040"), "{text}");
}

#[test]
fn line_limit_stops_reading() {
    let opts = AsmOptions {
        max_lines: 100,
        ..AsmOptions::default()
    };
    let asm = assemble_source("many.asm", &"  nop\n".repeat(1000), &opts);
    assert_eq!(codes(&asm), vec!["E0014"]);
    assert_eq!(asm.listing.len(), 100);
}

/// A single-quoted string with a comma in it is one string in every
/// dialect (`'Hello, world!'` was read as the character `'H` followed by
/// junk); `fcb 'A,'B` stays two character constants.
#[test]
fn single_quoted_strings_may_hold_commas() {
    for dialect in [
        hc11lab::asm::Dialect::Course,
        hc11lab::asm::Dialect::As11,
        hc11lab::asm::Dialect::Asm11,
    ] {
        let opts = AsmOptions {
            dialect,
            ..AsmOptions::default()
        };
        let src = " org $C000\nmsg fcc 'Hi, you!' ; greeting\npair fcb 'A,'B\nsum fcb 'A+1,0\n";
        let asm = assemble_source("s.asm", src, &opts);
        assert!(
            asm.diagnostics.is_empty(),
            "{dialect:?}: {}",
            asm.render_diagnostics()
        );
        let p = asm.program.as_ref().expect("program");
        let bytes: Vec<u8> = p.segments.iter().flat_map(|s| s.bytes.clone()).collect();
        assert_eq!(bytes, b"Hi, you!ABB\0".to_vec(), "{dialect:?}");
    }
}

/// binutils' syntax is no dialect here: one error that says so and how to
/// run such a program (as an ELF file), instead of one per directive; a
/// single stray `.globl` in a course file is an ordinary error.
#[test]
fn gnu_as_source_is_named_with_the_way_to_run_it() {
    let gnu = "        .sect .text\n        .globl _start\n_start: lds #0x3fff\nloop:   bra loop\n        .sect .vectors\n        .word _start\n";
    let asm = assemble_source("prog.s", gnu, &AsmOptions::default());
    assert_eq!(codes(&asm), vec!["E0026"], "{}", asm.render_diagnostics());
    let text = asm.render_diagnostics();
    assert!(
        text.contains("looks like GNU as source: GNU directives (.sect, .globl, .word)"),
        "{text}"
    );
    assert!(text.contains("`hc11lab run prog.elf`"), "{text}");
    let typo = " org $C000\n .globl Start\nStart bra Start\n org $FFFE\n dc.w Start\n";
    let asm = assemble_source("typo.asm", typo, &AsmOptions::default());
    assert_eq!(codes(&asm), vec!["E0003"], "{}", asm.render_diagnostics());
}

/// The vector table is addresses, not code: an S19 without source showed
/// the reset vector $C000 as `subb #$00`.
#[test]
fn vectors_disassemble_as_addresses_with_their_names() {
    let s19 = b"S106C0000120FD1B\nS107FFF0C000C00089\nS105FFFEC0003D\nS903C0003C\n";
    let loaded = hc11lab::image::load::load_bytes(s19, Path::new("v.s19")).expect("a valid S19");
    let text = disassemble(&loaded.program);
    assert!(
        text.contains("FFF0  C0 00              fdb $C000 ; real-time interrupt vector"),
        "{text}"
    );
    assert!(
        text.contains("FFF2  C0 00              fdb $C000 ; IRQ vector"),
        "{text}"
    );
    assert!(
        text.contains("FFFE  C0 00              fdb $C000 ; reset vector"),
        "{text}"
    );
    assert!(!text.contains("subb"), "{text}");
    assert_eq!(hc11lab::asm::disasm::vector_name(0xFFD6), Some("SCI"));
    assert_eq!(hc11lab::asm::disasm::vector_name(0xFFD7), None);
    assert_eq!(hc11lab::asm::disasm::vector_name(0xFFD4), None);
}

/// `Program::label_index` answers as `label_for` at every address: on the
/// firmware, and where labels share an address (`player` and the byte after
/// it, `RamSection`'s start) or a constant sits between them.
#[test]
fn label_index_answers_as_label_for() {
    let firmware = Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm");
    let shared = "  org $C000\na\nb       nop\nc\nd       equ $C001\n        nop\ne       ds.b 2\n";
    let files = MemoryFiles::new()
        .with("game/main.asm", GAME)
        .with("game/Regs.inc", "PORTD equ $08\n");
    let opts = AsmOptions::default();
    let programs = [
        assemble_file(&firmware, &opts).program,
        assemble_with(Path::new("game/main.asm"), &files, &opts).program,
        assemble_source("s.asm", shared, &opts).program,
    ];
    for p in programs.iter().map(|p| p.as_ref().expect("assembles")) {
        let index = p.label_index();
        for addr in 0..=0xFFFFu16 {
            let want = p.label_for(addr).map(|(s, off)| (s.name.as_str(), off));
            let got = index
                .label_for(p, addr)
                .map(|(s, off)| (s.name.as_str(), off));
            assert_eq!(got, want, "at ${addr:04X}");
        }
    }
}

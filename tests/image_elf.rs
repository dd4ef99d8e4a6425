//! The ELF loader against the GNU 68HC11 toolchain: programs from
//! tests/data/gnu are assembled and linked at test time, loaded, and compared
//! with what objcopy, nm and objdump say about the same file.

#[path = "image_support/gnu.rs"]
mod gnu;

use std::collections::BTreeMap;
use std::path::Path;

use hc11lab::image::elf::{parse_elf, ElfError};
use hc11lab::image::load::{load_file, Format};
use hc11lab::image::s19::parse_s19;
use hc11lab::image::{Program, SymbolKind};

/// Every loaded byte by address.
fn memory(program: &Program) -> BTreeMap<u16, u8> {
    program
        .segments
        .iter()
        .flat_map(|s| {
            (s.start as u32..)
                .map(|a| a as u16)
                .zip(s.bytes.iter().copied())
        })
        .collect()
}

/// Checks segments against objcopy's S-records, symbols against nm, entry
/// against `main`, and (if `lines`) every instruction's line against objdump -l.
fn check_against_gnu(program: &Program, elf: &Path, lines: bool) {
    let srec = gnu::objcopy_srec(elf, &[]);
    let from_objcopy = parse_s19(&srec).expect("objcopy's S19 loads").program;
    // Compared byte by byte: objcopy merges adjacent sections, the loader
    // keeps one segment per PT_LOAD (named after its sections).
    assert_eq!(
        memory(program),
        memory(&from_objcopy),
        "loaded bytes differ from objcopy -O srec"
    );
    let (ours, theirs) = (program.segments.len(), from_objcopy.segments.len());
    assert!(ours >= theirs, "{ours} segments, objcopy has {theirs} runs");

    let nm = gnu::nm(elf);
    assert_eq!(program.entry, Some(nm["main"].0), "entry is main");
    for (name, (addr, kind)) in &nm {
        let sym = program
            .symbol(name)
            .unwrap_or_else(|| panic!("symbol {name} (nm: {addr:04X} {kind}) missing"));
        assert_eq!(sym.value, *addr, "value of {name}");
        let expected = if *kind == 'A' {
            SymbolKind::Constant
        } else {
            SymbolKind::Label
        };
        assert_eq!(sym.kind, expected, "kind of {name} (nm type {kind})");
    }
    assert_eq!(program.symbols.len(), nm.len(), "no symbols beyond nm's");

    if lines {
        let oracle = gnu::objdump_lines(elf);
        assert!(!oracle.is_empty(), "objdump -l printed no lines");
        for (addr, (path, line)) in &oracle {
            let entry = program
                .line_at(*addr)
                .unwrap_or_else(|| panic!("no line for ${addr:04X} (objdump: {path}:{line})"));
            let file = &program.files[entry.file];
            let name = Path::new(path).file_name().expect("file name");
            assert_eq!(
                (file.path.file_name(), entry.line),
                (Some(name), *line),
                "line of ${addr:04X}"
            );
        }
    }
}

/// The 1-based number of the first line of `file` (in tests/data/gnu) that contains `needle`.
fn line_of(file: &str, needle: &str) -> u32 {
    let text = std::fs::read_to_string(gnu::data_dir().join(file)).expect("read source");
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i as u32 + 1)
        .unwrap_or_else(|| panic!("{needle:?} not in {file}"))
}

#[test]
fn loop_with_dwarf_matches_gnu_tools() {
    let dir = gnu::scratch("loop-g");
    gnu::copy_in(&dir, &["loop.s"]);
    let elf = gnu::assemble_and_link(&dir, &["loop.s"], &["-g"], "trainer11.ld");
    let loaded = load_file(&elf).expect("loads");
    assert_eq!(loaded.format, Format::Elf);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let p = &loaded.program;
    check_against_gnu(p, &elf, true);

    // Three PT_LOADs: .data in RAM, .text in ROM, the reset vector.
    let names: Vec<_> = p.segments.iter().map(|s| s.name.as_deref()).collect();
    assert_eq!(names, [Some(".data"), Some(".text"), Some(".vectors")]);
    let main = p.symbol("main").expect("main").value;
    assert_eq!(p.byte_at(0xFFFE), Some((main >> 8) as u8));
    assert_eq!(p.byte_at(0xFFFF), Some(main as u8));
    assert_eq!(p.byte_at(p.symbol("table").expect("table").value), Some(1));

    // The main file is read from disk; add3's first instruction is its line.
    assert_eq!(p.files.len(), 1);
    assert_eq!(p.files[0].path, dir.join("loop.s"));
    assert!(p.files[0].text.contains("add3: B = B + 3"));
    let add3 = p.symbol("add3").expect("add3").value;
    let entry = p.line_at(add3).expect("line of add3");
    let expected = line_of("loop.s", "addb\t#3");
    assert_eq!((entry.file, entry.line, entry.len), (0, expected, 2));
    assert_eq!(
        p.files[0].line_text(entry.line).map(str::trim),
        Some("addb\t#3")
    );
    assert_eq!(
        p.addrs_of_line(0, expected)
            .map(|l| l.addr)
            .collect::<Vec<_>>(),
        [add3]
    );
}

#[test]
fn without_debug_info_there_are_no_lines() {
    let dir = gnu::scratch("loop-nog");
    gnu::copy_in(&dir, &["loop.s"]);
    let elf = gnu::assemble_and_link(&dir, &["loop.s"], &[], "trainer11.ld");
    let loaded = load_file(&elf).expect("loads");
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    check_against_gnu(&loaded.program, &elf, false);
    assert!(loaded.program.lines.is_empty());
    assert!(loaded.program.files.is_empty());
}

#[test]
fn dwarf_versions_2_and_5_give_the_same_lines() {
    let mut tables = Vec::new();
    for (name, flag) in [("g2", "--gdwarf2"), ("g5", "--gdwarf-5"), ("g", "-g")] {
        let dir = gnu::scratch(&format!("dwarf-{name}"));
        gnu::copy_in(&dir, &["loop.s"]);
        let elf = gnu::assemble_and_link(&dir, &["loop.s"], &[flag], "trainer11.ld");
        let loaded = load_file(&elf).expect("loads");
        assert!(loaded.warnings.is_empty(), "{flag}: {:?}", loaded.warnings);
        check_against_gnu(&loaded.program, &elf, true);
        tables.push(loaded.program.lines);
    }
    assert!(!tables[0].is_empty());
    assert_eq!(tables[0], tables[1]);
    assert_eq!(tables[0], tables[2]);
}

#[test]
fn included_file_gets_its_own_file_id() {
    let dir = gnu::scratch("calls");
    gnu::copy_in(&dir, &["calls.s", "calls_inc.s"]);
    let elf = gnu::assemble_and_link(&dir, &["calls.s"], &["-g"], "trainer11.ld");
    let loaded = load_file(&elf).expect("loads");
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let p = &loaded.program;
    check_against_gnu(p, &elf, true);
    let files: Vec<_> = p.files.iter().map(|f| f.path.clone()).collect();
    assert_eq!(files, [dir.join("calls.s"), dir.join("calls_inc.s")]);
    let putmsg = p.symbol("putmsg").expect("putmsg").value;
    let entry = p.line_at(putmsg).expect("line of putmsg");
    assert_eq!(
        (entry.file, entry.line),
        (1, line_of("calls_inc.s", "ldaa\t0,x"))
    );
    assert_eq!(p.symbol("message").expect("message").value, 0x0040);
    assert_eq!(p.byte_at(0x0040), Some(b'H'));
}

#[test]
fn data_stored_in_rom_loads_at_its_load_address() {
    let dir = gnu::scratch("copy");
    gnu::copy_in(&dir, &["copy.s"]);
    let elf = gnu::assemble_and_link(&dir, &["copy.s"], &["-g"], "trainer11_rom.ld");
    let loaded = load_file(&elf).expect("loads");
    let p = &loaded.program;
    check_against_gnu(p, &elf, true);
    let image = p.symbol("__data_image").expect("__data_image");
    assert_eq!(image.kind, SymbolKind::Constant);
    assert_eq!(p.symbol("__data_size").map(|s| s.value), Some(4));
    // Runs at $0040 (greeting's address) but is stored after the code.
    assert_eq!(p.symbol("greeting").map(|s| s.value), Some(0x0040));
    assert_eq!(p.byte_at(0x0040), None);
    let stored: Vec<_> = (0..4).map(|i| p.byte_at(image.value + i)).collect();
    assert_eq!(stored, [Some(0x12), Some(0x34), Some(0x56), Some(0x78)]);
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(
        loaded.warnings[0].contains(&format!(
            "runs at $0040 but is stored at ${:04X}",
            image.value
        )),
        "{}",
        loaded.warnings[0]
    );
}

#[test]
fn missing_source_keeps_lines_and_warns() {
    let dir = gnu::scratch("missing-src");
    gnu::copy_in(&dir, &["loop.s"]);
    let elf = gnu::assemble_and_link(&dir, &["loop.s"], &["-g"], "trainer11.ld");
    std::fs::remove_file(dir.join("loop.s")).expect("remove source");
    let loaded = load_file(&elf).expect("loads");
    let p = &loaded.program;
    assert_eq!(p.files.len(), 1);
    assert_eq!(p.files[0].path, dir.join("loop.s"));
    assert_eq!(p.files[0].text, "");
    assert!(!p.lines.is_empty());
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(loaded.warnings[0].starts_with(&format!(
        "source file {} named by the line table was not found",
        dir.join("loop.s").display()
    )));
}

#[test]
fn object_files_load_by_section() {
    let dir = gnu::scratch("object");
    std::fs::write(
        dir.join("only.s"),
        "\t.text\nstart:\tldaa\t#1\n\tjsr\tsub\nsub:\trts\n",
    )
    .expect("write");
    gnu::tool("m68hc11-as", &["-o", "only.o", "only.s"], &dir);
    let bytes = std::fs::read(dir.join("only.o")).expect("read");
    let (p, warnings) = parse_elf(&bytes, None).expect("a text-only object loads");
    assert_eq!(p.entry, None);
    assert_eq!(p.segments.len(), 1);
    assert_eq!(p.segments[0].name.as_deref(), Some(".text"));
    assert_eq!(p.segments[0].start, 0);
    assert_eq!(&p.segments[0].bytes[..2], &[0x86, 0x01]);
    assert_eq!(p.symbol("sub").map(|s| s.value), Some(5));
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("relocations are not applied")),
        "{warnings:?}"
    );

    // loop.s has .text, .data and .vectors, all at 0 before linking.
    gnu::copy_in(&dir, &["loop.s"]);
    gnu::tool("m68hc11-as", &["-o", "loop.o", "loop.s"], &dir);
    let bytes = std::fs::read(dir.join("loop.o")).expect("read");
    let err = parse_elf(&bytes, None).expect_err("sections overlap");
    assert!(matches!(err, ElfError::Overlap { .. }));
    assert!(err.to_string().contains("link it with m68hc11-ld"), "{err}");
}

#[test]
fn prebuilt_elf_finds_its_source_beside_it() {
    // Built with comp_dir "." (see tests/data/gnu/README.md), so the source
    // is found relative to the ELF's folder.
    let elf = gnu::data_dir().join("loop.elf");
    let loaded = load_file(&elf).expect("loads");
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let p = &loaded.program;
    assert_eq!(p.files.len(), 1);
    assert_eq!(p.files[0].path, gnu::data_dir().join("loop.s"));
    let add3 = p.symbol("add3").expect("add3").value;
    assert_eq!(
        p.line_at(add3).map(|l| l.line),
        Some(line_of("loop.s", "addb\t#3"))
    );
    check_against_gnu(p, &elf, true);

    let plain = load_file(&gnu::data_dir().join("loop_nodebug.elf")).expect("loads");
    assert_eq!(plain.program.segments, p.segments);
    assert_eq!(plain.program.symbols, p.symbols);
    assert!(plain.program.lines.is_empty());
}

#[test]
fn line_table_without_debug_info_is_still_read() {
    // Without .debug_info no compilation unit points at .debug_line; the
    // loader then reads the line programs one after the other.
    let dir = gnu::scratch("no-info");
    gnu::copy_in(&dir, &["calls.s", "calls_inc.s"]);
    let elf = gnu::assemble_and_link(&dir, &["calls.s"], &["-g"], "trainer11.ld");
    let full = load_file(&elf).expect("loads");
    gnu::tool(
        "m68hc11-objcopy",
        &[
            "--remove-section=.debug_info",
            "--remove-section=.debug_abbrev",
            "--remove-section=.debug_aranges",
            "out.elf",
            "stripped.elf",
        ],
        &dir,
    );
    let stripped = load_file(&dir.join("stripped.elf")).expect("loads");
    assert!(stripped.warnings.is_empty(), "{:?}", stripped.warnings);
    assert_eq!(stripped.program.lines, full.program.lines);
    assert_eq!(stripped.program.files, full.program.files);
}

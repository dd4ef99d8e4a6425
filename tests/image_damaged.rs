//! Damaged ELF and S19 inputs: each must give a message that names the
//! field or line at fault. All messages are kept in one golden file,
//! tests/golden/image/damaged.txt (re-record with UPDATE_GOLDEN=1).

#[path = "image_support/gnu.rs"]
mod gnu;

use std::path::Path;

use hc11lab::image::elf::parse_elf;
use hc11lab::image::load::load_bytes;
use hc11lab::image::s19::parse_s19;

/// Offsets in the ELF32 file header.
const E_TYPE: usize = 16;
const E_MACHINE: usize = 18;
const E_PHOFF: usize = 28;
const E_SHOFF: usize = 32;
const E_PHENTSIZE: usize = 42;
const E_SHNUM: usize = 48;
const E_SHSTRNDX: usize = 50;

fn get32(b: &[u8], off: usize) -> u32 {
    u32::from_be_bytes(b[off..off + 4].try_into().unwrap())
}
fn put32(b: &mut [u8], off: usize, v: u32) {
    b[off..off + 4].copy_from_slice(&v.to_be_bytes());
}
fn put16(b: &mut [u8], off: usize, v: u16) {
    b[off..off + 2].copy_from_slice(&v.to_be_bytes());
}

/// Offset of program header `i` of the prebuilt ELF.
fn phdr(b: &[u8], i: usize) -> usize {
    get32(b, E_PHOFF) as usize + 32 * i
}

/// Offset of section header `i`.
fn shdr(b: &[u8], i: usize) -> usize {
    get32(b, E_SHOFF) as usize + 40 * i
}

/// Index of the section called `name` (looked up with readelf's layout: the
/// prebuilt file's section order is fixed, see tests/data/gnu/README.md).
fn section(name: &str) -> usize {
    [
        "",
        ".text",
        ".data",
        ".vectors",
        ".debug_line",
        ".debug_info",
        ".debug_abbrev",
        ".debug_aranges",
        ".debug_str",
        ".symtab",
        ".strtab",
        ".shstrtab",
    ]
    .iter()
    .position(|n| *n == name)
    .unwrap()
}

/// One S-record with a correct checksum; `addr` has 2, 3 or 4 bytes.
fn rec(kind: u8, addr: &[u8], data: &[u8]) -> String {
    let count = (addr.len() + data.len() + 1) as u8;
    let mut sum = count;
    let mut s = format!("S{kind}{count:02X}");
    for b in addr.iter().chain(data) {
        sum = sum.wrapping_add(*b);
        s.push_str(&format!("{b:02X}"));
    }
    s.push_str(&format!("{:02X}", !sum));
    s
}

/// Result of loading an ELF, as one golden line.
fn elf_outcome(bytes: &[u8]) -> String {
    match parse_elf(bytes, None) {
        Ok((p, w)) => format!(
            "ok, {} segments, {} lines; warnings: {}",
            p.segments.len(),
            p.lines.len(),
            if w.is_empty() {
                "none".to_string()
            } else {
                w.join(" | ")
            }
        ),
        Err(e) => format!("error: {e}"),
    }
}

/// Result of loading S19 text, as one golden line.
fn s19_outcome(text: &str) -> String {
    match parse_s19(text) {
        Ok(f) => format!(
            "ok, {} segments, entry {:?}; warnings: {}",
            f.program.segments.len(),
            f.program.entry,
            if f.warnings.is_empty() {
                "none".to_string()
            } else {
                f.warnings
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" | ")
            }
        ),
        Err(e) => format!("error: {e}"),
    }
}

fn damaged_elf_cases() -> Vec<(&'static str, Vec<u8>)> {
    let good = std::fs::read(gnu::data_dir().join("loop.elf")).expect("prebuilt ELF");
    let len = good.len();
    let mut cases: Vec<(&'static str, Vec<u8>)> = Vec::new();
    let mut case = |name, f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        f(&mut b);
        cases.push((name, b));
    };
    case("elf intact", &|_| {});
    case("elf empty file", &|b| b.clear());
    case("elf bad magic", &|b| b[..4].copy_from_slice(b"MZ\x90\x00"));
    case("elf truncated to 10 bytes", &|b| b.truncate(10));
    case("elf truncated to 40 bytes", &|b| b.truncate(40));
    case("elf truncated to 100 bytes", &|b| b.truncate(100));
    case("elf truncated to 400 bytes", &|b| b.truncate(400));
    case("elf e_machine 40", &|b| put16(b, E_MACHINE, 40));
    case("elf e_machine 62", &|b| put16(b, E_MACHINE, 62));
    case("elf EI_CLASS 2", &|b| b[4] = 2);
    case("elf EI_CLASS 7", &|b| b[4] = 7);
    case("elf EI_DATA 1, e_machine little-endian", &|b| {
        b[5] = 1;
        b[E_MACHINE..E_MACHINE + 2].copy_from_slice(&[70, 0]);
    });
    case("elf e_type 4", &|b| put16(b, E_TYPE, 4));
    case("elf e_phentsize 56", &|b| put16(b, E_PHENTSIZE, 56));
    case("elf e_phoff past end", &|b| {
        put32(b, E_PHOFF, len as u32 - 40)
    });
    case("elf e_shstrndx 99", &|b| put16(b, E_SHSTRNDX, 99));
    case("elf e_shnum 0", &|b| put16(b, E_SHNUM, 0));
    case("elf segment 1 p_offset past end", &|b| {
        let o = phdr(b, 1);
        put32(b, o + 4, len as u32 + 100);
    });
    case("elf segment 1 p_filesz past end", &|b| {
        let o = phdr(b, 1);
        put32(b, o + 16, len as u32);
    });
    case("elf segment 1 p_paddr $FFF0", &|b| {
        let o = phdr(b, 1);
        put32(b, o + 12, 0xFFF0);
    });
    case("elf segment 1 p_paddr $10000", &|b| {
        let o = phdr(b, 1);
        put32(b, o + 12, 0x1_0000);
    });
    case("elf segment 1 p_paddr $0042 overlaps .data", &|b| {
        let o = phdr(b, 1);
        put32(b, o + 8, 0x42);
        put32(b, o + 12, 0x42);
    });
    case("elf .text sh_offset past end", &|b| {
        let o = shdr(b, section(".text"));
        put32(b, o + 16, len as u32);
    });
    case("elf .text sh_name outside .shstrtab", &|b| {
        let o = shdr(b, section(".text"));
        put32(b, o, 5000);
    });
    case("elf .symtab sh_link to .text", &|b| {
        let o = shdr(b, section(".symtab"));
        put32(b, o + 24, section(".text") as u32);
    });
    case("elf .symtab sh_entsize 12", &|b| {
        let o = shdr(b, section(".symtab"));
        put32(b, o + 36, 12);
    });
    case("elf .debug_line version 99", &|b| {
        let o = get32(b, shdr(b, section(".debug_line")) + 16) as usize;
        put16(b, o + 4, 99);
    });
    case("elf .debug_line cut short", &|b| {
        let o = shdr(b, section(".debug_line"));
        put32(b, o + 20, 30);
    });
    case("elf e_entry $12345", &|b| put32(b, 24, 0x12345));
    cases
}

fn damaged_s19_cases() -> Vec<(&'static str, String)> {
    let s0 = rec(0, &[0, 0], b"demo");
    let d1 = rec(1, &[0xC0, 0x00], &[0x86, 0x41, 0x39]);
    let d2 = rec(1, &[0xC0, 0x03], &[0x01, 0x02]);
    let s9 = rec(9, &[0xC0, 0x00], &[]);
    let good = format!("{s0}\n{d1}\n{d2}\n{s9}\n");
    let mut bad_sum = d2.clone();
    bad_sum.replace_range(d2.len() - 2.., "00");
    let mut non_hex = d1.clone();
    non_hex.replace_range(9..10, "G");
    let v = vec![
        ("s19 intact", good.clone()),
        (
            "s19 CRLF, blank lines, trailing blanks",
            good.replace('\n', "  \r\n\r\n"),
        ),
        (
            "s19 bad checksum on line 3",
            format!("{s0}\n{d1}\n{bad_sum}\n{s9}\n"),
        ),
        ("s19 non-hex digit", format!("{s0}\n{non_hex}\n{s9}\n")),
        ("s19 odd digit count", format!("{s0}\n{d1}0\n{s9}\n")),
        (
            "s19 byte count too big",
            format!(
                "{s0}\nS1{}\n{s9}\n",
                &rec(1, &[0xC0, 0], &[1, 2])[2..].replacen("05", "09", 1)
            ),
        ),
        ("s19 too short", format!("{s0}\nS102C0\n{s9}\n")),
        ("s19 unknown type S4", format!("{s0}\nS4030000FC\n{s9}\n")),
        ("s19 not a record", format!("{s0}\nhello\n{s9}\n")),
        ("s19 empty", "\n \r\n".to_string()),
        (
            "s19 S2 above $FFFF",
            format!("{}\n{s9}\n", rec(2, &[0x01, 0x00, 0x00], &[1])),
        ),
        (
            "s19 S3 below $10000",
            format!(
                "{}\n{}\n",
                rec(3, &[0, 0, 0xC0, 0x00], &[1, 2]),
                rec(7, &[0, 0, 0xC0, 0], &[])
            ),
        ),
        (
            "s19 S2 with S8",
            format!(
                "{}\n{}\n",
                rec(2, &[0, 0xC0, 0x00], &[1, 2]),
                rec(8, &[0, 0xC0, 0x01], &[])
            ),
        ),
        (
            "s19 S8 above $FFFF",
            format!(
                "{}\n{}\n",
                rec(2, &[0, 0xC0, 0x00], &[1]),
                rec(8, &[1, 0, 0], &[])
            ),
        ),
        (
            "s19 S1 past $FFFF",
            format!("{}\n{s9}\n", rec(1, &[0xFF, 0xFE], &[1, 2, 3])),
        ),
        (
            "s19 S5 count right",
            format!("{s0}\n{d1}\n{d2}\n{}\n{s9}\n", rec(5, &[0, 2], &[])),
        ),
        (
            "s19 S5 count wrong",
            format!("{s0}\n{d1}\n{d2}\n{}\n{s9}\n", rec(5, &[0, 3], &[])),
        ),
        (
            "s19 S6 count wrong",
            format!("{d1}\n{}\n{s9}\n", rec(6, &[0, 0, 7], &[])),
        ),
        ("s19 missing terminator", format!("{s0}\n{d1}\n")),
        ("s19 record after terminator", format!("{d1}\n{s9}\n{d2}\n")),
        (
            "s19 overlapping records",
            format!("{d1}\n{d2}\n{}\n{s9}\n", rec(1, &[0xC0, 0x02], &[0xFF])),
        ),
    ];
    v
}

#[test]
fn damaged_inputs_give_clear_messages() {
    let mut golden = String::new();
    for (name, bytes) in damaged_elf_cases() {
        golden.push_str(&format!("{name}: {}\n", elf_outcome(&bytes)));
    }
    for (name, text) in damaged_s19_cases() {
        golden.push_str(&format!("{name}: {}\n", s19_outcome(&text)));
    }
    // Through the file loader, the message starts with the file name.
    let elf = damaged_elf_cases().remove(7).1;
    let err = load_bytes(&elf, Path::new("game.elf")).unwrap_err();
    golden.push_str(&format!("load_bytes game.elf: {err}\n"));
    let err = load_bytes(b"S1030000FB\nS1030000FF\n", Path::new("game.s19")).unwrap_err();
    golden.push_str(&format!("load_bytes game.s19: {err}\n"));

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/image/damaged.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &golden).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .expect("golden file missing: run with UPDATE_GOLDEN=1 and review it");
    assert_eq!(
        golden, expected,
        "messages changed; re-record with UPDATE_GOLDEN=1 and review the diff"
    );
}

/// The key facts of each message, independent of the golden file's wording.
#[test]
fn messages_name_the_field() {
    let cases = damaged_elf_cases();
    let msg = |name: &str| {
        let (_, b) = cases.iter().find(|(n, _)| *n == name).unwrap();
        elf_outcome(b)
    };
    assert!(msg("elf intact").starts_with("ok, 3 segments"));
    assert!(msg("elf bad magic").contains("not an ELF file: it starts with 4D 5A 90 00"));
    assert!(msg("elf truncated to 10 bytes").contains("truncated"));
    assert!(msg("elf truncated to 100 bytes").contains("program header table"));
    assert!(msg("elf truncated to 400 bytes").contains("section header table"));
    assert!(msg("elf e_machine 40").contains("ELF for machine 40 (ARM), expected 70 (68HC11)"));
    assert!(msg("elf EI_CLASS 2").contains("ELF64"));
    assert!(msg("elf EI_DATA 1, e_machine little-endian").contains("big-endian"));
    assert!(msg("elf segment 1 p_offset past end").contains("program header 1 (PT_LOAD): p_offset"));
    assert!(msg("elf segment 1 p_paddr $FFF0").contains("p_paddr $FFF0 reach past $FFFF"));
    assert!(msg("elf e_shstrndx 99").contains("e_shstrndx = 99"));
    assert!(msg("elf .debug_line version 99").starts_with("ok, 3 segments, 0 lines; warnings:"));

    let s19 = damaged_s19_cases();
    let msg = |name: &str| {
        let (_, t) = s19.iter().find(|(n, _)| *n == name).unwrap();
        s19_outcome(t)
    };
    assert!(msg("s19 intact").starts_with("ok, 1 segments, entry Some(49152); warnings: none"));
    assert_eq!(
        msg("s19 CRLF, blank lines, trailing blanks"),
        msg("s19 intact")
    );
    assert!(msg("s19 bad checksum on line 3").starts_with("error: line 3: bad checksum: expected "));
    assert!(msg("s19 non-hex digit").contains("line 2: non-hex character 'G' at column 10"));
    assert!(msg("s19 S2 above $FFFF").contains("line 1: address $10000 is above $FFFF"));
    assert!(msg("s19 S5 count wrong")
        .contains("line 4: S5 count record says 3 data records came before it, the file has 2"));
    assert!(msg("s19 missing terminator").contains("no S7/S8/S9 end record"));
}

//! The S19 reader and writer against GNU objcopy: objcopy's S-records (S1/S9,
//! S3/S7, short records) load to the same bytes as the ELF they came from,
//! and objcopy accepts what `write_s19` writes (it verifies every checksum).

#[path = "image_support/gnu.rs"]
mod gnu;

use std::collections::BTreeMap;

use hc11lab::image::elf::parse_elf;
use hc11lab::image::load::{load_file, Format};
use hc11lab::image::s19::{parse_s19, write_s19, write_s19_with, S19WriteOptions};
use hc11lab::image::{Program, Segment};

fn memory(program: &Program) -> BTreeMap<u32, u8> {
    program
        .segments
        .iter()
        .flat_map(|s| (s.start as u32..).zip(s.bytes.iter().copied()))
        .collect()
}

#[test]
fn objcopy_variants_load_the_same_bytes_as_the_elf() {
    let dir = gnu::scratch("s19-objcopy");
    gnu::copy_in(&dir, &["calls.s", "calls_inc.s"]);
    let elf = gnu::assemble_and_link(&dir, &["calls.s"], &[], "trainer11.ld");
    let (from_elf, _) = parse_elf(&std::fs::read(&elf).unwrap(), Some(&elf)).unwrap();
    for extra in [
        &[][..],
        &["--srec-forceS3"][..],
        &["--srec-len=4"][..],
        &["--srec-len=64", "--srec-forceS3"][..],
    ] {
        let text = gnu::objcopy_srec(&elf, extra);
        let first_data = text.lines().nth(1).unwrap();
        if extra.contains(&"--srec-forceS3") {
            assert!(first_data.starts_with("S3"), "{first_data}");
            assert!(text.lines().last().unwrap().starts_with("S7"));
        }
        let f = parse_s19(&text).unwrap_or_else(|e| panic!("{extra:?}: {e}"));
        assert!(f.warnings.is_empty(), "{:?}", f.warnings);
        // objcopy names the S0 header after its output path, cut to 40 bytes.
        let header = f.header.unwrap();
        let out = dir.join("objcopy.s19");
        assert!(
            !header.is_empty() && out.to_str().unwrap().starts_with(&header),
            "{header}"
        );
        assert_eq!(f.program.entry, from_elf.entry, "{extra:?}");
        assert_eq!(memory(&f.program), memory(&from_elf), "{extra:?}");
        // Adjacent records merge: one segment per contiguous run.
        assert_eq!(f.program.segments.len(), 2, "{extra:?}");
    }
    // The loader tells S19 by content, whatever the name.
    let renamed = dir.join("program.bin");
    std::fs::copy(dir.join("objcopy.s19"), &renamed).unwrap();
    let loaded = load_file(&renamed).unwrap();
    assert_eq!(loaded.format, Format::S19);
    assert_eq!(memory(&loaded.program), memory(&from_elf));
}

#[test]
fn objcopy_accepts_what_write_s19_writes() {
    let dir = gnu::scratch("s19-write");
    let program = Program {
        segments: vec![
            Segment {
                start: 0x0040,
                bytes: (0..=255u8).collect(),
                name: None,
            },
            Segment {
                start: 0xC000,
                bytes: b"\x8E\x3F\xFF\x86\x41\x20\xFE".to_vec(),
                name: Some(".text".into()),
            },
            Segment {
                start: 0xFFFE,
                bytes: vec![0xC0, 0x00],
                name: None,
            },
        ],
        entry: Some(0xC000),
        ..Program::default()
    };
    for per in [1, 16, 32, 252] {
        let text = write_s19_with(
            &program,
            &S19WriteOptions {
                header: "written".into(),
                bytes_per_record: per,
            },
        );
        let path = dir.join(format!("w{per}.s19"));
        std::fs::write(&path, &text).unwrap();
        // objcopy checks each checksum; re-emitting as S19 with a different
        // record length must give the same bytes back.
        let p = path.to_str().unwrap();
        let out = dir.join(format!("w{per}.out.s19"));
        gnu::tool(
            "m68hc11-objcopy",
            &[
                "-I",
                "srec",
                "-O",
                "srec",
                "--srec-len=7",
                p,
                out.to_str().unwrap(),
            ],
            &dir,
        );
        let back = parse_s19(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(
            memory(&back.program),
            memory(&program),
            "{per} bytes per record"
        );
        assert_eq!(back.program.entry, Some(0xC000));
        let ours = parse_s19(&text).unwrap();
        assert_eq!(ours.program.segments.len(), 3);
        assert_eq!(ours.header.as_deref(), Some("written"));
        assert_eq!(memory(&ours.program), memory(&program));
        let longest = text
            .lines()
            .filter(|l| l.starts_with("S1"))
            .map(str::len)
            .max()
            .unwrap();
        assert_eq!(longest, 4 + 4 + 2 * per.min(256) + 2, "{per}");
    }
}

#[test]
fn round_trip_of_a_loaded_elf() {
    let elf = gnu::data_dir().join("loop.elf");
    let loaded = load_file(&elf).unwrap();
    let text = write_s19(&loaded.program);
    assert!(text.starts_with(&format!(
        "S0{:02X}0000{}",
        3 + "loop.s".len(),
        "loop.s"
            .bytes()
            .map(|b| format!("{b:02X}"))
            .collect::<String>()
    )));
    let back = parse_s19(&text).unwrap();
    assert!(back.warnings.is_empty());
    assert_eq!(back.program.entry, loaded.program.entry);
    assert_eq!(memory(&back.program), memory(&loaded.program));
    assert!(text.lines().all(|l| l == l.to_uppercase()));
}

//! cargo-fuzz target: the ELF reader (headers, segments, symbols, DWARF line
//! table) and format detection on arbitrary bytes.
#![no_main]

use std::path::Path;

use hc11lab::image::elf::parse_elf;
use hc11lab::image::load::load_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = parse_elf(data, None);
    let _ = load_bytes(data, Path::new("fuzz.bin"));
});

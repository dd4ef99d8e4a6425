//! cargo-fuzz target: the S19 reader on arbitrary text, and the writer on
//! whatever it accepts (the result must read back to the same segments).
#![no_main]

use hc11lab::image::s19::{parse_s19, write_s19};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(file) = parse_s19(&text) {
        let again = parse_s19(&write_s19(&file.program));
        assert_eq!(
            again.map(|f| f.program.segments).ok(),
            Some(file.program.segments)
        );
    }
});

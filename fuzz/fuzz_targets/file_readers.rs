//! cargo-fuzz target: the readers of the files a user names, on arbitrary
//! bytes in a regular file. The first byte picks the limit; the bounded
//! reader returns the file exactly when it fits and refuses it otherwise,
//! the head reader returns a prefix of it; then the program loader (S19,
//! ELF, or the assembler for a source) and the assembler's file reader
//! take the same file, and none of them may panic.
#![no_main]

use hc11lab::image::load::load_file;
use hc11lab::platform::fs::{read_head, read_limited, ReadError};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

fn scratch() -> PathBuf {
    std::env::temp_dir().join(format!("hc11lab-fuzz-read-{}", std::process::id()))
}

fuzz_target!(|data: &[u8]| {
    let limit = u64::from(data.first().copied().unwrap_or(0)) * 16;
    let dir = scratch();
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join("input.s19");
    if std::fs::write(&file, data).is_err() {
        return;
    }
    match read_limited(&file, limit) {
        Ok(bytes) => assert!(bytes == data && data.len() as u64 <= limit),
        Err(ReadError::TooLarge { size, .. }) => {
            assert!(data.len() as u64 > limit && size == data.len() as u64)
        }
        Err(e) => panic!("a regular file refused: {e}"),
    }
    if let Ok((head, more)) = read_head(&file, limit) {
        assert!(data.starts_with(&head));
        assert_eq!(more, data.len() as u64 > limit);
        assert_eq!(head.len() as u64, (data.len() as u64).min(limit));
    }
    let _ = load_file(&file);
    let asm = dir.join("input.asm");
    if std::fs::write(&asm, data).is_ok() {
        let _ = hc11lab::open::open(Some(&asm));
    }
});

//! cargo-fuzz target: the grader's zip reader on arbitrary bytes. It may
//! refuse a submission, but never panic, and what it reads stays inside the
//! submission and within the limits.
#![no_main]

use hc11lab::grade::assignment::Limits;
use hc11lab::grade::submission::zip_from_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_file_bytes: 64 * 1024,
        max_total_bytes: 256 * 1024,
        max_files: 16,
        ..Limits::default()
    };
    if let Ok(sub) = zip_from_bytes("fuzz.zip", data, &limits) {
        assert!(sub.files.len() <= limits.max_files);
        let total: usize = sub.files.values().map(|f| f.text.len()).sum();
        // Decoding Windows-1252 can at most triple a byte (U+20AC is 3 bytes).
        assert!(total as u64 <= 3 * limits.max_total_bytes);
        for path in sub.files.keys() {
            assert!(!path.starts_with('/') && !path.split('/').any(|c| c == ".." || c.is_empty()));
        }
    }
});

//! cargo-fuzz target: `assignment.toml` parsing and validation on arbitrary
//! text. It may refuse anything, but never panic, and what it accepts must
//! be within the limits validation promises.
#![no_main]

use hc11lab::grade::assignment::MAX_POINTS;
use hc11lab::grade::Assignment;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(a) = Assignment::from_toml(&text, Path::new("/nonexistent-fuzz-dir")) {
        assert!(!a.checks.is_empty());
        assert!(a.max_score().is_finite());
        for c in &a.checks {
            assert!((0.0..=MAX_POINTS).contains(&c.points));
        }
        for p in &a.provided {
            assert!(!p.contains('/') && !p.contains('\\') && p != "..");
        }
        let _ = a.symbols_named();
    }
});

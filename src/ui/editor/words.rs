//! The editor's labels and messages in German (the window's table in
//! `i18n.rs` asks here for what it does not have).

/// The German of `en`, if this table has it.
pub fn german(en: &str) -> Option<&'static str> {
    GERMAN.iter().find(|(e, _)| *e == en).map(|(_, d)| *d)
}

/// English label -> German label.
pub const GERMAN: &[(&str, &str)] = &[];

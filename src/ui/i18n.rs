//! The window's labels, menus and messages in German: every label is
//! written in English in the code and looked up here (`tr(lang, "Run")`),
//! so a label without a German entry shows in English instead of failing;
//! the test `gui_i18n` finds such labels in the sources.

use crate::lesson::Lang;

/// `en` in `lang`: the German entry of the table, else `en` itself.
pub fn tr(lang: Lang, en: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::De => german(en).unwrap_or(en),
    }
}

/// The German of `en`, if the table has it.
pub fn german(en: &str) -> Option<&'static str> {
    GERMAN.iter().find(|(e, _)| *e == en).map(|(_, d)| *d)
}

/// English label -> German label.
pub const GERMAN: &[(&str, &str)] = &[];

//! Every name the window shows in a language (its labels, menus and tabs,
//! the lessons panel's words, the key pad's buttons), so a lesson text's
//! **bold** names can be checked against what the student sees:
//! `lesson validate` and the shipped course's test use it.

use std::collections::BTreeSet;

use super::i18n::{tr, GERMAN};
use super::keys::KEYS;
use crate::lesson::i18n::{ui, Ui};
use crate::lesson::Lang;

/// The names the window shows in `lang`.
pub fn window_labels(lang: Lang) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = GERMAN
        .iter()
        .map(|(en, de)| match lang {
            Lang::En => en.to_string(),
            Lang::De => de.to_string(),
        })
        .collect();
    use Ui::*;
    for k in [
        Lessons, Course, Step, Check, Answer, Hint, Done, Next, Previous, Restart, Tries, Exercise,
        Intro, Program,
    ] {
        out.insert(ui(lang, k).to_string());
    }
    // The key pad labels its buttons "0 drop", "1 left", ...
    for (n, what, _) in KEYS {
        if !what.is_empty() {
            out.insert(format!("{n} {}", tr(lang, what)));
        }
    }
    out
}

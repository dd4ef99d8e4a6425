//! The languages of the course (German, the workshop's, and English):
//! lesson texts, the window and the grader's feedback speak them. The
//! language follows the system (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`,
//! `LANG`, POSIX precedence) and can be switched at any time.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A language a lesson text can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// German (the workshop's language).
    De,
    /// English.
    En,
}

impl Lang {
    /// Every supported language, in the order lists show them.
    pub const ALL: [Lang; 2] = [Lang::De, Lang::En];

    /// The ISO 639-1 code (`de`, `en`), also the text file's stem (`de.md`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::De => "de",
            Lang::En => "en",
        }
    }

    /// The language's own name, for a switcher.
    pub fn name(self) -> &'static str {
        match self {
            Lang::De => "Deutsch",
            Lang::En => "English",
        }
    }

    /// The other language (for a two-state switch).
    pub fn other(self) -> Lang {
        match self {
            Lang::De => Lang::En,
            Lang::En => Lang::De,
        }
    }

    /// Parses a code or a locale name: `de`, `DE`, `de_AT.UTF-8`, `en-GB`.
    /// `C`, `POSIX` and unknown languages give `None`.
    pub fn parse(text: &str) -> Option<Lang> {
        let t = text.trim();
        let head: String = t
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<String>()
            .to_ascii_lowercase();
        match head.as_str() {
            "de" | "deu" | "ger" | "german" | "deutsch" => Some(Lang::De),
            "en" | "eng" | "english" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language of the environment: the first set, non-empty one of
    /// `LANGUAGE` (a `:` list, first supported entry), `LC_ALL`,
    /// `LC_MESSAGES`, `LANG`; English if none names German or English. (In
    /// a page: the address's `?lang=de`, see [`crate::platform::setting`].)
    pub fn from_env() -> Lang {
        Lang::from_vars(crate::platform::setting)
    }

    /// [`Lang::from_env`] over any variable lookup (for tests).
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Lang {
        // POSIX: LC_ALL overrides LC_MESSAGES overrides LANG. GNU gettext
        // consults LANGUAGE first, unless the locale is "C".
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .find_map(|k| get(k).filter(|v| !v.trim().is_empty()));
        let is_c = locale
            .as_deref()
            .is_some_and(|l| matches!(l.trim(), "C" | "POSIX") || l.starts_with("C."));
        if !is_c {
            if let Some(list) = get("LANGUAGE") {
                if let Some(l) = list.split(':').find_map(Lang::parse) {
                    return l;
                }
            }
        }
        locale.as_deref().and_then(Lang::parse).unwrap_or(Lang::En)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

//! Languages of the course (German, the workshop's, and English) and the few
//! interface strings the lesson engine shows itself.

/// The course's languages live with grading, whose feedback speaks them
/// too (lessons build on grading).
pub use crate::grade::lang::Lang;

/// Interface strings of the lesson engine and panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ui {
    /// Label of the lesson picker.
    Lessons,
    /// Heading of the panel.
    Course,
    /// "Step 3 of 7".
    Step,
    /// Word between step number and count.
    Of,
    /// Button: evaluate the step now.
    Check,
    /// Button: submit an answer.
    Answer,
    /// Heading of the hints.
    Hint,
    /// Shown when a step is done.
    Done,
    /// Shown when the lesson is complete.
    Finished,
    /// Button: next step.
    Next,
    /// Button: previous step.
    Previous,
    /// Button: restart the lesson.
    Restart,
    /// Label: number of wrong tries.
    Tries,
    /// Feedback: the step's checks do not hold yet.
    NotYet,
    /// Feedback: the answer is wrong.
    WrongAnswer,
    /// Feedback: the answer is right.
    RightAnswer,
    /// Feedback: a hint was unlocked.
    HintUnlocked,
    /// Placeholder of the answer field.
    YourAnswer,
    /// Label of an exercise in the list.
    Exercise,
    /// Shown when no lesson is open.
    PickLesson,
    /// Heading of the intro.
    Intro,
    /// Label of the line naming the program a lesson runs on.
    Program,
}

/// The interface string `key` in `lang`.
pub fn ui(lang: Lang, key: Ui) -> &'static str {
    use Ui::*;
    match (lang, key) {
        (Lang::De, Lessons) => "Lektionen",
        (Lang::En, Lessons) => "Lessons",
        (Lang::De, Course) => "Kurs",
        (Lang::En, Course) => "Course",
        (Lang::De, Step) => "Schritt",
        (Lang::En, Step) => "Step",
        (Lang::De, Of) => "von",
        (Lang::En, Of) => "of",
        (Lang::De, Check) => "Prüfen",
        (Lang::En, Check) => "Check",
        (Lang::De, Answer) => "Antworten",
        (Lang::En, Answer) => "Answer",
        (Lang::De, Hint) => "Hinweis",
        (Lang::En, Hint) => "Hint",
        (Lang::De, Done) => "Erledigt",
        (Lang::En, Done) => "Done",
        (Lang::De, Finished) => "Lektion abgeschlossen.",
        (Lang::En, Finished) => "Lesson complete.",
        (Lang::De, Next) => "Weiter",
        (Lang::En, Next) => "Next",
        (Lang::De, Previous) => "Zurück",
        (Lang::En, Previous) => "Back",
        (Lang::De, Restart) => "Neu beginnen",
        (Lang::En, Restart) => "Start over",
        (Lang::De, Tries) => "Fehlversuche",
        (Lang::En, Tries) => "Wrong tries",
        (Lang::De, NotYet) => "Noch nicht",
        (Lang::En, NotYet) => "Not yet",
        (Lang::De, WrongAnswer) => "Leider falsch",
        (Lang::En, WrongAnswer) => "Not right",
        (Lang::De, RightAnswer) => "Richtig",
        (Lang::En, RightAnswer) => "Right",
        (Lang::De, HintUnlocked) => "Ein Hinweis ist jetzt sichtbar.",
        (Lang::En, HintUnlocked) => "A hint is now shown.",
        (Lang::De, YourAnswer) => "Deine Antwort",
        (Lang::En, YourAnswer) => "Your answer",
        (Lang::De, Exercise) => "Übung",
        (Lang::En, Exercise) => "Exercise",
        (Lang::De, PickLesson) => "Wähle eine Lektion.",
        (Lang::En, PickLesson) => "Pick a lesson.",
        (Lang::De, Intro) => "Worum es geht",
        (Lang::En, Intro) => "What this is about",
        (Lang::De, Program) => "Programm",
        (Lang::En, Program) => "Program",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> Lang {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Lang::from_vars(|k| m.get(k).cloned())
    }

    #[test]
    fn parses_locales() {
        assert_eq!(Lang::parse("de_DE.UTF-8"), Some(Lang::De));
        assert_eq!(Lang::parse("de-AT"), Some(Lang::De));
        assert_eq!(Lang::parse("en_GB"), Some(Lang::En));
        assert_eq!(Lang::parse("EN"), Some(Lang::En));
        assert_eq!(Lang::parse("C"), None);
        assert_eq!(Lang::parse("fr_FR.UTF-8"), None);
        assert_eq!(Lang::parse(""), None);
    }

    #[test]
    fn environment_precedence() {
        assert_eq!(env(&[]), Lang::En);
        assert_eq!(env(&[("LANG", "de_DE.UTF-8")]), Lang::De);
        assert_eq!(
            env(&[("LANG", "de_DE.UTF-8"), ("LC_ALL", "en_US.UTF-8")]),
            Lang::En
        );
        assert_eq!(
            env(&[("LANG", "en_US"), ("LC_MESSAGES", "de_CH")]),
            Lang::De
        );
        assert_eq!(env(&[("LANG", "de_DE"), ("LC_ALL", "")]), Lang::De);
        assert_eq!(
            env(&[("LANG", "en_US"), ("LANGUAGE", "fr:de:en")]),
            Lang::De
        );
        // LANGUAGE is ignored under the C locale (GNU gettext).
        assert_eq!(env(&[("LANG", "C"), ("LANGUAGE", "de")]), Lang::En);
        assert_eq!(env(&[("LANG", "fr_FR")]), Lang::En);
    }

    #[test]
    fn every_string_exists_in_both_languages() {
        use Ui::*;
        let keys = [
            Lessons,
            Step,
            Of,
            Check,
            Answer,
            Hint,
            Done,
            Finished,
            Next,
            Previous,
            Restart,
            Tries,
            NotYet,
            WrongAnswer,
            RightAnswer,
            HintUnlocked,
            YourAnswer,
            Exercise,
            PickLesson,
            Intro,
            Program,
        ];
        // The course says du, its window too.
        for k in keys {
            let de = ui(Lang::De, k);
            assert!(
                crate::lesson::validate::formal_address(de).is_empty(),
                "{k:?}: {de}"
            );
        }
        for k in keys {
            assert!(!ui(Lang::De, k).is_empty());
            assert!(!ui(Lang::En, k).is_empty());
            assert_ne!(ui(Lang::De, k), ui(Lang::En, k), "{k:?}");
        }
        assert_eq!(Lang::De.other(), Lang::En);
    }
}

//! The course on disk: every folder under `lessons/` with a `lesson.toml`
//! is a lesson (texts in `de.md` / `en.md`), every folder with an
//! `assignment.toml` an exercise graded by the grader. The base assignment
//! `lessons/viergewinnt/` is listed as an exercise too, so
//! `hc11lab lesson check viergewinnt PATH` grades a whole game.

use super::i18n::Lang;
use super::manifest::{Check, Manifest, ManifestError};
use super::text::{LessonText, StepText, TextError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use thiserror::Error;

/// A lesson folder that cannot be used.
#[derive(Debug, Error)]
pub enum LessonError {
    /// A file or folder could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// `lesson.toml` is malformed.
    #[error("{path}: {source}")]
    Manifest {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: ManifestError,
    },
    /// A text file is malformed.
    #[error("{path}: {source}")]
    Text {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: TextError,
    },
    /// Manifest and texts do not fit together.
    #[error("lesson `{lesson}`: {message}")]
    Mismatch {
        /// The lesson id.
        lesson: String,
        /// What does not fit.
        message: String,
    },
    /// `assignment.toml` lacks the `[assignment]` table or does not parse.
    #[error("{path}: {message}")]
    Assignment {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// No lesson or exercise has this id.
    #[error("no lesson or exercise `{0}` (see `hc11lab lesson list`)")]
    NotFound(String),
}

/// A loaded lesson: manifest plus texts.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// The folder name (`02-cell`).
    pub id: String,
    /// The folder, if it came from disk.
    pub dir: Option<PathBuf>,
    /// The steps and checks.
    pub manifest: Manifest,
    /// The texts by language (at least one).
    pub texts: BTreeMap<Lang, LessonText>,
}

impl Lesson {
    /// Builds a lesson from a manifest's text and its texts, and checks
    /// that they fit: the same step ids everywhere, the same number of
    /// hints and the same choice keys in every language, and every choice
    /// check's answer among the choices.
    pub fn from_sources(
        id: &str,
        manifest: &str,
        texts: &[(Lang, &str)],
    ) -> Result<Lesson, LessonError> {
        let path = PathBuf::from(id);
        let manifest = Manifest::parse(manifest).map_err(|source| LessonError::Manifest {
            path: path.join("lesson.toml"),
            source,
        })?;
        let mut parsed = BTreeMap::new();
        for (lang, src) in texts {
            let t = LessonText::parse(src).map_err(|source| LessonError::Text {
                path: path.join(format!("{}.md", lang.code())),
                source,
            })?;
            parsed.insert(*lang, t);
        }
        let lesson = Lesson {
            id: id.to_string(),
            dir: None,
            manifest,
            texts: parsed,
        };
        lesson.validate()?;
        Ok(lesson)
    }

    /// Loads `lesson.toml` and the `de.md` / `en.md` that exist from `dir`.
    pub fn load(dir: &Path) -> Result<Lesson, LessonError> {
        let id = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let read = |p: PathBuf| {
            super::read_course_file(&p).map_err(|source| LessonError::Io { path: p, source })
        };
        let manifest = read(dir.join("lesson.toml"))?;
        let mut texts = Vec::new();
        for lang in Lang::ALL {
            let p = dir.join(format!("{}.md", lang.code()));
            if p.is_file() {
                texts.push((lang, read(p)?));
            }
        }
        let refs: Vec<(Lang, &str)> = texts.iter().map(|(l, t)| (*l, t.as_str())).collect();
        let mut lesson = Lesson::from_sources(&id, &manifest, &refs).map_err(|e| match e {
            LessonError::Manifest { source, .. } => LessonError::Manifest {
                path: dir.join("lesson.toml"),
                source,
            },
            LessonError::Text { path, source } => LessonError::Text {
                path: dir.join(path.file_name().unwrap_or_default()),
                source,
            },
            other => other,
        })?;
        lesson.dir = Some(dir.to_path_buf());
        Ok(lesson)
    }

    fn mismatch(&self, message: String) -> LessonError {
        LessonError::Mismatch {
            lesson: self.id.clone(),
            message,
        }
    }

    fn validate(&self) -> Result<(), LessonError> {
        if self.texts.is_empty() {
            return Err(self.mismatch("no text: add `de.md` and/or `en.md`".into()));
        }
        let mut reference: Option<(Lang, &LessonText)> = None;
        for (lang, text) in &self.texts {
            for s in &self.manifest.step {
                let Some(st) = text.step(&s.id) else {
                    return Err(self.mismatch(format!(
                        "{lang}.md has no section for step `{}` (add `## ... {{#{}}}`)",
                        s.id, s.id
                    )));
                };
                if st.body.trim().is_empty() {
                    return Err(self.mismatch(format!("{lang}.md: step `{}` has no text", s.id)));
                }
                let choice = s.check.iter().find_map(|c| match c {
                    Check::Choice(c) => Some(c),
                    _ => None,
                });
                match choice {
                    Some(c) if !st.choices.iter().any(|ch| ch.key == c.answer.to_ascii_lowercase()) => {
                        return Err(self.mismatch(format!(
                            "{lang}.md: step `{}` has no choice `{}` (`### ... {{.choices}}` with `- {}) ...`)",
                            s.id, c.answer, c.answer
                        )))
                    }
                    None if !st.choices.is_empty() => {
                        return Err(self.mismatch(format!(
                            "{lang}.md: step `{}` lists choices but has no `choice` check",
                            s.id
                        )))
                    }
                    _ => {}
                }
            }
            for st in &text.steps {
                if self.manifest.step(&st.id).is_none() {
                    return Err(self.mismatch(format!(
                        "{lang}.md: section `{}` is not a step of lesson.toml",
                        st.id
                    )));
                }
            }
            if let Some((rl, rt)) = reference {
                for s in &self.manifest.step {
                    let (a, b) = (rt.step(&s.id), text.step(&s.id));
                    let (Some(a), Some(b)) = (a, b) else { continue };
                    if a.hints.len() != b.hints.len() {
                        return Err(self.mismatch(format!(
                            "step `{}`: {rl}.md has {} hints, {lang}.md {}",
                            s.id,
                            a.hints.len(),
                            b.hints.len()
                        )));
                    }
                    let keys =
                        |t: &StepText| t.choices.iter().map(|c| c.key.clone()).collect::<Vec<_>>();
                    if keys(a) != keys(b) {
                        return Err(self.mismatch(format!(
                            "step `{}`: the choices of {rl}.md and {lang}.md differ",
                            s.id
                        )));
                    }
                }
            } else {
                reference = Some((*lang, text));
            }
        }
        Ok(())
    }

    /// The text in `lang`, or in the other language if it has none.
    pub fn text(&self, lang: Lang) -> Option<&LessonText> {
        self.texts.get(&lang).or_else(|| self.texts.values().next())
    }

    /// The text of step `id` in `lang` (or the other language).
    pub fn step_text(&self, lang: Lang, id: &str) -> Option<&StepText> {
        self.text(lang).and_then(|t| t.step(id))
    }

    /// The title in `lang` (or the other language).
    pub fn title(&self, lang: Lang) -> &str {
        self.text(lang).map_or("", |t| t.title.as_str())
    }

    /// The languages it has texts in.
    pub fn languages(&self) -> Vec<Lang> {
        self.texts.keys().copied().collect()
    }
}

/// Lesson or exercise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A guided lesson (`lesson.toml`).
    Lesson,
    /// An exercise graded by the grader (`assignment.toml`).
    Exercise,
}

/// One line of `hc11lab lesson list --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListEntry {
    /// The folder name.
    pub id: String,
    /// `lesson` or `exercise`.
    pub kind: Kind,
    /// The title in the requested language.
    pub title: String,
    /// Languages it has texts in.
    pub languages: Vec<Lang>,
}

/// An exercise folder as the list shows it (grading is the grader's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exercise {
    /// The folder name.
    pub id: String,
    /// The folder.
    pub dir: PathBuf,
    /// `[assignment] title`.
    pub title: String,
    /// Languages with a task text (`task.de.md` or `de.md`, ...).
    pub languages: Vec<Lang>,
    /// The task texts by language.
    pub texts: BTreeMap<Lang, String>,
}

impl Exercise {
    /// The title in `lang`: the first `# ` heading of its task text, else
    /// the assignment's title.
    pub fn title(&self, lang: Lang) -> String {
        self.texts
            .get(&lang)
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("# "))
                    .map(|h| h.trim().to_string())
            })
            .unwrap_or_else(|| self.title.clone())
    }
}

#[derive(Deserialize)]
struct AssignmentHead {
    assignment: AssignmentTitle,
}

#[derive(Deserialize)]
struct AssignmentTitle {
    title: Option<String>,
    id: Option<String>,
}

impl Exercise {
    /// Reads the title from `dir/assignment.toml`.
    pub fn load(dir: &Path) -> Result<Exercise, LessonError> {
        let path = dir.join("assignment.toml");
        let text = super::read_course_file(&path).map_err(|source| LessonError::Io {
            path: path.clone(),
            source,
        })?;
        let head: AssignmentHead = toml::from_str(&text).map_err(|e| LessonError::Assignment {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let id = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let title = head
            .assignment
            .title
            .or(head.assignment.id)
            .unwrap_or_else(|| id.clone());
        let mut texts = BTreeMap::new();
        for l in Lang::ALL {
            for name in [format!("task.{}.md", l.code()), format!("{}.md", l.code())] {
                if let Ok(t) = super::read_course_file(&dir.join(&name)) {
                    texts.insert(l, t);
                    break;
                }
            }
        }
        Ok(Exercise {
            id,
            dir: dir.to_path_buf(),
            title,
            languages: texts.keys().copied().collect(),
            texts,
        })
    }
}

/// A course folder that could not be loaded: it is left out, and said so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenFolder {
    /// The folder.
    pub dir: PathBuf,
    /// Why (names the file and, where known, the line).
    pub message: String,
}

/// Every lesson and exercise of a `lessons/` folder.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// The lessons, in list order (`order`, then id).
    pub lessons: Vec<Arc<Lesson>>,
    /// The exercises, by id.
    pub exercises: Vec<Exercise>,
    /// Folders left out because they are broken (the others still work).
    pub broken: Vec<BrokenFolder>,
}

impl Catalog {
    /// Loads every lesson and exercise folder under `root`. Folders with
    /// neither file are skipped; a broken one is left out and listed in
    /// [`Catalog::broken`] (list, show, check and the GUI say so), so one
    /// mistake does not take the whole course down. Only an unreadable
    /// `root` is an error.
    pub fn load(root: &Path) -> Result<Catalog, LessonError> {
        let entries = std::fs::read_dir(root).map_err(|source| LessonError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        let mut cat = Catalog::default();
        for d in dirs {
            let loaded = if d.join("lesson.toml").is_file() {
                Lesson::load(&d).map(|l| cat.lessons.push(Arc::new(l)))
            } else if d.join("assignment.toml").is_file() {
                Exercise::load(&d).map(|e| cat.exercises.push(e))
            } else {
                Ok(())
            };
            if let Err(e) = loaded {
                cat.broken.push(BrokenFolder {
                    dir: d.clone(),
                    message: e.to_string(),
                });
            }
        }
        cat.sort();
        Ok(cat)
    }

    /// Puts lessons in list order: `order`, then id.
    pub fn sort(&mut self) {
        self.lessons.sort_by(|a, b| {
            let key = |l: &Lesson| (l.manifest.lesson.order.unwrap_or(u32::MAX), l.id.clone());
            key(a).cmp(&key(b))
        });
        self.exercises.sort_by(|a, b| a.id.cmp(&b.id));
    }

    /// The course a user means: the folder [`find_root`] finds (lessons and
    /// exercises), else the lessons bundled into the binary.
    pub fn load_default() -> Result<Catalog, LessonError> {
        match find_root() {
            Some(root) => Catalog::load(&root),
            None => super::bundled::catalog(),
        }
    }

    /// One line per broken folder: `folder: message` (empty if none).
    pub fn broken_text(&self) -> String {
        self.broken
            .iter()
            .map(|b| format!("left out {}: {}\n", b.dir.display(), b.message))
            .collect()
    }

    /// The lesson with this id.
    pub fn lesson(&self, id: &str) -> Option<&Arc<Lesson>> {
        self.lessons.iter().find(|l| l.id == id)
    }

    /// The exercise with this id.
    pub fn exercise(&self, id: &str) -> Option<&Exercise> {
        self.exercises.iter().find(|e| e.id == id)
    }

    /// Lessons, then exercises, with titles in `lang`.
    pub fn list(&self, lang: Lang) -> Vec<ListEntry> {
        let lessons = self.lessons.iter().map(|l| ListEntry {
            id: l.id.clone(),
            kind: Kind::Lesson,
            title: l.title(lang).to_string(),
            languages: l.languages(),
        });
        let exercises = self.exercises.iter().map(|e| ListEntry {
            id: e.id.clone(),
            kind: Kind::Exercise,
            title: e.title(lang),
            languages: e.languages.clone(),
        });
        lessons.chain(exercises).collect()
    }
}

/// Where the course is on disk: `$HC11LAB_LESSONS`, else `./lessons`, else
/// the `lessons/` folder of the source tree hc11lab was built from, if it
/// still exists; `None` means: use the bundled lessons.
pub fn find_root() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HC11LAB_LESSONS").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(p));
    }
    [
        PathBuf::from("lessons"),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lessons"),
    ]
    .into_iter()
    .find(|p| p.is_dir())
}

impl Lesson {
    /// Every place where a check names something the program must have: a
    /// location, a symbol, an expression. Returns one message per problem
    /// (empty: the lesson fits the program). For lecturers and the tests.
    pub fn problems_with(&self, program: &crate::image::Program) -> Vec<String> {
        use super::engine::value_of;
        use super::eval::{eval_address, resolve_location};
        let p = Some(program);
        let mut out = Vec::new();
        for s in &self.manifest.step {
            let mut push = |what: String| out.push(format!("step `{}`: {what}", s.id));
            for c in &s.check {
                let mut values = Vec::new();
                match c {
                    Check::Breakpoint(a) | Check::Stopped(a) => {
                        if let Err(e) = resolve_location(&a.at, p) {
                            push(e.to_string());
                        }
                    }
                    Check::Memory(m) => {
                        if let Err(e) = eval_address(&m.at, p) {
                            push(e.to_string());
                        }
                        values.extend([&m.equals, &m.not_equals, &m.min, &m.max]);
                    }
                    Check::Register(r) => values.extend([&r.equals, &r.not_equals, &r.min, &r.max]),
                    Check::Cell(_) if program.symbol("board").is_none() => {
                        push("a `cell` check needs the symbol `board`".into());
                    }
                    Check::Explained(e) => {
                        if let Some(a) = &e.address {
                            if let Err(err) = eval_address(a, p) {
                                push(err.to_string());
                            }
                        }
                        if let Some(v) = &e.via {
                            if program.symbol(v).is_none() {
                                push(format!("`via = \"{v}\"` is not a label of the program"));
                            }
                        }
                    }
                    Check::Number(n) => {
                        if let Err(e) = value_of(&n.equals, p) {
                            push(e.to_string());
                        }
                    }
                    _ => {}
                }
                for v in values.into_iter().flatten() {
                    if let Err(e) = value_of(v, p) {
                        push(e.to_string());
                    }
                }
            }
        }
        out
    }
}

//! A lesson's text in one language: a Markdown file split into the title,
//! an intro and one section per step, with hints and answer choices marked
//! by heading attributes, so a lecturer writes plain Markdown and no code.
//!
//! ```markdown
//! # Die Zelle                       <- title (the first `# ` heading)
//! Intro paragraphs ...
//! ## Eine leere Zelle {#empty}      <- the text of step `empty`
//! What to do ...
//! ### Hinweis {.hint}               <- a hint, shown after a wrong try
//! ### Antworten {.choices}          <- answer choices: `- a) text`
//! - a) ...
//! ```
//!
//! Headings inside fenced code blocks (```) are text, not structure.

use thiserror::Error;

/// A malformed lesson text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TextError {
    /// The file has no `# Title` line before its first section.
    #[error("line {line}: the text must start with a `# Title` heading")]
    NoTitle {
        /// 1-based line where a title was expected.
        line: usize,
    },
    /// A `## ` heading has no `{#id}`.
    #[error("line {line}: step heading `{heading}` needs an id, e.g. `## {heading} {{#my-step}}`")]
    MissingId {
        /// 1-based line.
        line: usize,
        /// The heading's text.
        heading: String,
    },
    /// Two steps have the same id.
    #[error("line {line}: step id `{id}` is used twice")]
    DuplicateId {
        /// 1-based line of the second one.
        line: usize,
        /// The id.
        id: String,
    },
    /// A `{.hint}`/`{.choices}` section before any step.
    #[error(
        "line {line}: `{{.{class}}}` must be inside a step (after a `## ... {{#id}}` heading)"
    )]
    OutsideStep {
        /// 1-based line.
        line: usize,
        /// `hint` or `choices`.
        class: String,
    },
    /// A heading attribute the format does not know.
    #[error("line {line}: unknown heading attribute `{attr}` (known: `{{#id}}` on `##`, `{{.hint}}`, `{{.choices}}` on `###`)")]
    UnknownAttribute {
        /// 1-based line.
        line: usize,
        /// The attribute as written.
        attr: String,
    },
    /// A choices list item that is not `- key) text`.
    #[error("line {line}: a choice must look like `- a) text`")]
    BadChoice {
        /// 1-based line.
        line: usize,
    },
    /// A code fence is never closed.
    #[error("line {line}: code block opened here is never closed")]
    OpenFence {
        /// 1-based line of the opening fence.
        line: usize,
    },
}

/// One answer choice of a multiple-choice step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The key the check names (`a`, `b`, ...), language-independent.
    pub key: String,
    /// What the student reads.
    pub text: String,
}

/// The text of one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepText {
    /// The id that links it to the manifest's step.
    pub id: String,
    /// The heading, without `##` and the attribute.
    pub heading: String,
    /// What the student reads and does (Markdown).
    pub body: String,
    /// Hints in the order they unlock (Markdown).
    pub hints: Vec<String>,
    /// Answer choices, if the step asks a multiple-choice question.
    pub choices: Vec<Choice>,
}

/// A whole lesson text in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonText {
    /// The title (the first `# ` heading).
    pub title: String,
    /// Text between the title and the first step.
    pub intro: String,
    /// The steps in file order.
    pub steps: Vec<StepText>,
}

impl LessonText {
    /// The text of step `id`.
    pub fn step(&self, id: &str) -> Option<&StepText> {
        self.steps.iter().find(|s| s.id == id)
    }

    /// Parses a lesson text.
    pub fn parse(source: &str) -> Result<LessonText, TextError> {
        #[derive(PartialEq)]
        enum Part {
            Intro,
            Body,
            Hint,
            Choices,
        }
        let mut title: Option<String> = None;
        let mut intro = String::new();
        let mut steps: Vec<StepText> = Vec::new();
        let mut part = Part::Intro;
        let mut fence: Option<(usize, String)> = None;
        for (i, raw) in source.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.trim_end_matches('\r');
            let trimmed = line.trim_start();
            if let Some((_, marker)) = &fence {
                if trimmed.starts_with(marker.as_str()) {
                    fence = None;
                }
            } else if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                fence = Some((line_no, trimmed.chars().take(3).collect()));
            } else if let Some(h) = heading(line) {
                let (text, attr) = split_attr(h.text);
                match (h.level, attr) {
                    (1, None) if title.is_none() => {
                        title = Some(text.to_string());
                        continue;
                    }
                    (2, Some(a)) if a.starts_with('#') => {
                        if title.is_none() {
                            return Err(TextError::NoTitle { line: line_no });
                        }
                        let id = a.trim_start_matches('#').trim().to_string();
                        if steps.iter().any(|s| s.id == id) {
                            return Err(TextError::DuplicateId { line: line_no, id });
                        }
                        steps.push(StepText {
                            id,
                            heading: text.to_string(),
                            body: String::new(),
                            hints: Vec::new(),
                            choices: Vec::new(),
                        });
                        part = Part::Body;
                        continue;
                    }
                    (2, None) => {
                        return Err(TextError::MissingId {
                            line: line_no,
                            heading: text.to_string(),
                        })
                    }
                    (3, Some(a)) if a == ".hint" || a == ".choices" => {
                        let class = a.trim_start_matches('.').to_string();
                        let Some(step) = steps.last_mut() else {
                            return Err(TextError::OutsideStep {
                                line: line_no,
                                class,
                            });
                        };
                        if class == "hint" {
                            step.hints.push(String::new());
                            part = Part::Hint;
                        } else {
                            part = Part::Choices;
                        }
                        continue;
                    }
                    // A plain sub-heading ends hints/choices and goes back
                    // to the step's body.
                    (3, None) if part == Part::Hint || part == Part::Choices => {
                        part = Part::Body;
                    }
                    (_, Some(a)) => {
                        return Err(TextError::UnknownAttribute {
                            line: line_no,
                            attr: a.to_string(),
                        })
                    }
                    _ => {}
                }
            } else if title.is_none() && !trimmed.is_empty() {
                return Err(TextError::NoTitle { line: line_no });
            }
            match part {
                Part::Intro => push_line(&mut intro, line),
                Part::Body => {
                    if let Some(s) = steps.last_mut() {
                        push_line(&mut s.body, line);
                    }
                }
                Part::Hint => {
                    if let Some(h) = steps.last_mut().and_then(|s| s.hints.last_mut()) {
                        push_line(h, line);
                    }
                }
                Part::Choices => {
                    if trimmed.is_empty() {
                        continue;
                    }
                    let choice =
                        parse_choice(trimmed).ok_or(TextError::BadChoice { line: line_no })?;
                    if let Some(s) = steps.last_mut() {
                        s.choices.push(choice);
                    }
                }
            }
        }
        if let Some((line, _)) = fence {
            return Err(TextError::OpenFence { line });
        }
        let title = title.ok_or(TextError::NoTitle { line: 1 })?;
        let mut text = LessonText {
            title,
            intro: intro.trim().to_string(),
            steps,
        };
        for s in &mut text.steps {
            s.body = s.body.trim().to_string();
            for h in &mut s.hints {
                *h = h.trim().to_string();
            }
        }
        Ok(text)
    }
}

struct Heading<'a> {
    level: usize,
    text: &'a str,
}

/// An ATX heading (`#`..`######` followed by a space).
fn heading(line: &str) -> Option<Heading<'_>> {
    let t = line.trim_start();
    if line.len() - t.len() > 3 {
        return None; // indented code
    }
    let level = t.chars().take_while(|c| *c == '#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let rest = &t[level..];
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
        return None;
    }
    Some(Heading {
        level,
        text: rest.trim(),
    })
}

/// Splits `Text {attr}` into (`Text`, Some(`attr`)).
fn split_attr(text: &str) -> (&str, Option<&str>) {
    if let Some(body) = text.strip_suffix('}') {
        if let Some(open) = body.rfind('{') {
            let attr = body[open + 1..].trim();
            if attr.starts_with('#') || attr.starts_with('.') {
                return (body[..open].trim(), Some(attr));
            }
        }
    }
    (text, None)
}

/// `- a) text` or `* a) text`.
fn parse_choice(line: &str) -> Option<Choice> {
    let rest = line
        .strip_prefix("- ")
        .or_else(|| line.strip_prefix("* "))?
        .trim_start();
    let close = rest.find(')')?;
    let key = rest[..close].trim();
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let text = rest[close + 1..].trim();
    if text.is_empty() {
        return None;
    }
    Some(Choice {
        key: key.to_ascii_lowercase(),
        text: text.to_string(),
    })
}

fn push_line(buf: &mut String, line: &str) {
    buf.push_str(line);
    buf.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
# Die Zelle

Eine Zelle hat 8 Bytes.

## Leere Zelle {#empty}
Setzen Sie einen Haltepunkt.

```
## kein Schritt {#nope}
```
### Hinweis {.hint}
Erster Hinweis.
### Hinweis {.hint}
Zweiter Hinweis.

## Frage {#q}
Welches Muster?
### Antworten {.choices}
- a) `$81`
- B) `$BD`
### Mehr
Noch Text.
";

    #[test]
    fn parses_sections_hints_choices() {
        let t = LessonText::parse(SAMPLE).unwrap();
        assert_eq!(t.title, "Die Zelle");
        assert_eq!(t.intro, "Eine Zelle hat 8 Bytes.");
        assert_eq!(t.steps.len(), 2);
        let s = &t.steps[0];
        assert_eq!(
            (s.id.as_str(), s.heading.as_str()),
            ("empty", "Leere Zelle")
        );
        assert!(
            s.body.contains("## kein Schritt"),
            "fenced heading is text: {}",
            s.body
        );
        assert_eq!(s.hints, vec!["Erster Hinweis.", "Zweiter Hinweis."]);
        let q = t.step("q").unwrap();
        assert_eq!(q.choices.len(), 2);
        assert_eq!(q.choices[1].key, "b");
        assert_eq!(q.choices[1].text, "`$BD`");
        assert!(q.body.contains("### Mehr") && q.body.contains("Noch Text."));
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            LessonText::parse("# T\n## Step\n"),
            Err(TextError::MissingId {
                line: 2,
                heading: "Step".into()
            })
        );
        assert_eq!(
            LessonText::parse("Hallo\n# T\n"),
            Err(TextError::NoTitle { line: 1 })
        );
        assert_eq!(
            LessonText::parse("# T\n## A {#a}\n## B {#a}\n"),
            Err(TextError::DuplicateId {
                line: 3,
                id: "a".into()
            })
        );
        assert_eq!(
            LessonText::parse("# T\n### H {.hint}\n"),
            Err(TextError::OutsideStep {
                line: 2,
                class: "hint".into()
            })
        );
        assert_eq!(
            LessonText::parse("# T\n## A {#a}\n### C {.choices}\nkein Punkt\n"),
            Err(TextError::BadChoice { line: 4 })
        );
        assert_eq!(
            LessonText::parse("# T\n## A {#a}\n```\ncode\n"),
            Err(TextError::OpenFence { line: 3 })
        );
        assert!(matches!(
            LessonText::parse("# T\n## A {#a}\n### X {.tip}\n"),
            Err(TextError::UnknownAttribute { line: 3, .. })
        ));
        assert_eq!(LessonText::parse(""), Err(TextError::NoTitle { line: 1 }));
    }
}

//! What `hc11lab lesson list` and `hc11lab lesson show` print, as library
//! functions so that tests and the binary share them.

use super::catalog::{Catalog, Kind, LessonError};
use super::i18n::{ui, Lang, Ui};
use super::manifest::Check;

/// `lesson list --json`: an array of `{"id", "kind", "title", "languages"}`.
pub fn list_json(cat: &Catalog, lang: Lang) -> String {
    serde_json::to_string_pretty(&cat.list(lang)).unwrap_or_else(|_| "[]".into())
}

/// `lesson list`: one line per lesson or exercise.
pub fn list_text(cat: &Catalog, lang: Lang) -> String {
    let entries = cat.list(lang);
    let width = entries.iter().map(|e| e.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for e in entries {
        let kind = match e.kind {
            Kind::Lesson => "",
            Kind::Exercise => ui(lang, Ui::Exercise),
        };
        let langs: Vec<&str> = e.languages.iter().map(|l| l.code()).collect();
        out.push_str(&format!(
            "{:width$}  {}{}{}  [{}]\n",
            e.id,
            kind,
            if kind.is_empty() { "" } else { ": " },
            e.title,
            langs.join(",")
        ));
    }
    out
}

/// One line saying what a check wants, for lecturers, in `lang`.
pub fn describe_check(c: &Check, lang: Lang) -> String {
    let de = lang == Lang::De;
    match c {
        Check::Breakpoint(a) if de => format!("Haltepunkt auf {}", a.at),
        Check::Breakpoint(a) => format!("breakpoint at {}", a.at),
        Check::Stopped(a) if de => format!("angehalten bei {}", a.at),
        Check::Stopped(a) => format!("stopped at {}", a.at),
        Check::Memory(m) => format!(
            "{} {}{} {}",
            if de { "Speicher" } else { "memory" },
            m.at,
            if m.size == 2 { ".w" } else { "" },
            bounds(&m.equals, &m.not_equals, &m.min, &m.max)
        ),
        Check::Register(r) => format!(
            "{} {} {}",
            if de { "Register" } else { "register" },
            format!("{:?}", r.reg).to_ascii_uppercase(),
            bounds(&r.equals, &r.not_equals, &r.min, &r.max)
        ),
        Check::Cell(c) => match (c.row, de) {
            (Some(r), true) => format!("Feld Spalte {} Zeile {r} = Spieler {}", c.column, c.player),
            (Some(r), false) => format!("cell column {} row {r} = player {}", c.column, c.player),
            (None, true) => format!(
                "Feld Spalte {} (beliebige Zeile) = Spieler {}",
                c.column, c.player
            ),
            (None, false) => format!("cell column {} (any row) = player {}", c.column, c.player),
        },
        Check::Pixel(p) => format!(
            "{} ({}, {}) {}",
            if de { "Pixel" } else { "pixel" },
            p.x,
            p.y,
            match (p.on, de) {
                (true, true) => "an",
                (false, true) => "aus",
                (true, false) => "on",
                (false, false) => "off",
            }
        ),
        Check::Key(k) if de => format!("Taste {} {}-mal gedrückt", k.key, k.count),
        Check::Key(k) => format!("key {} tapped {}x", k.key, k.count),
        Check::Reset(_) if de => "Reset der Maschine".into(),
        Check::Reset(_) => "machine reset".into(),
        Check::Explained(e) => {
            let what = match (e.pixel, e.region, &e.address) {
                (Some([x, y]), _, _) if de => format!("Pixel ({x}, {y})"),
                (Some([x, y]), _, _) => format!("pixel ({x}, {y})"),
                (_, Some([x0, y0, x1, y1]), _) if de => {
                    format!("ein Pixel in ({x0}, {y0})..({x1}, {y1})")
                }
                (_, Some([x0, y0, x1, y1]), _) => format!("a pixel in ({x0}, {y0})..({x1}, {y1})"),
                (_, _, Some(a)) => a.clone(),
                _ => String::new(),
            };
            match (&e.via, de) {
                (Some(v), true) => format!("erklärt: {what} über {v}"),
                (None, true) => format!("erklärt: {what}"),
                (Some(v), false) => format!("explained {what} via {v}"),
                (None, false) => format!("explained {what}"),
            }
        }
        Check::Number(n) => format!(
            "{} = {}{}",
            if de { "Antwort" } else { "answer" },
            value(&n.equals),
            if n.tolerance > 0 {
                format!(" ± {}", n.tolerance)
            } else {
                String::new()
            }
        ),
        Check::Choice(c) if de => format!("Auswahl {}", c.answer),
        Check::Choice(c) => format!("choice {}", c.answer),
        Check::Serial(s) if de => format!("Terminal zeigt {:?}", s.contains),
        Check::Serial(s) => format!("terminal shows {:?}", s.contains),
    }
}

fn value(v: &super::manifest::Value) -> String {
    match v {
        super::manifest::Value::Int(i) => i.to_string(),
        super::manifest::Value::Expr(e) => e.clone(),
    }
}

fn bounds(
    eq: &Option<super::manifest::Value>,
    ne: &Option<super::manifest::Value>,
    min: &Option<super::manifest::Value>,
    max: &Option<super::manifest::Value>,
) -> String {
    let mut parts = Vec::new();
    for (v, op) in [(eq, "="), (ne, "!="), (min, ">="), (max, "<=")] {
        if let Some(v) = v {
            parts.push(format!("{op} {}", value(v)));
        }
    }
    parts.join(", ")
}

/// `lesson show ID`: the whole text in `lang` with every step's checks and
/// hints (for lecturers and for reading without the GUI).
pub fn show_text(cat: &Catalog, id: &str, lang: Lang) -> Result<String, LessonError> {
    if let Some(ex) = cat.exercise(id) {
        let place = format!("{}: {}\n", ui(lang, Ui::Exercise), ex.dir.display());
        // The task text has its own title.
        return Ok(
            match ex.texts.get(&lang).or_else(|| ex.texts.values().next()) {
                Some(text) => format!("{place}\n{text}"),
                None => format!("# {}\n\n{place}", ex.title),
            },
        );
    }
    if let Some(b) = cat
        .broken
        .iter()
        .find(|b| b.dir.file_name().is_some_and(|n| n == id))
    {
        return Err(LessonError::Mismatch {
            lesson: id.to_string(),
            message: format!("the folder is broken and left out: {}", b.message),
        });
    }
    let lesson = cat
        .lesson(id)
        .ok_or_else(|| LessonError::NotFound(id.to_string()))?;
    let Some(text) = lesson.text(lang) else {
        return Err(LessonError::NotFound(id.to_string()));
    };
    let program = match super::program::LessonProgram::of(lesson) {
        Ok(p) => p.describe(lang),
        Err(e) => e,
    };
    let mut out = format!(
        "# {}\n\n{}: {program}\n\n{}\n",
        text.title,
        ui(lang, Ui::Program),
        text.intro
    );
    let n = lesson.manifest.step.len();
    for (i, s) in lesson.manifest.step.iter().enumerate() {
        let Some(st) = text.step(&s.id) else { continue };
        out.push_str(&format!(
            "\n## {} {} {} {}: {}\n\n{}\n",
            ui(lang, Ui::Step),
            i + 1,
            ui(lang, Ui::Of),
            n,
            st.heading,
            st.body
        ));
        for c in &st.choices {
            out.push_str(&format!("- {}) {}\n", c.key, c.text));
        }
        for h in &st.hints {
            out.push_str(&format!(
                "\n> {}: {}\n",
                ui(lang, Ui::Hint),
                h.replace('\n', "\n> ")
            ));
        }
        out.push_str(&format!(
            "\n[{}: {}]\n",
            ui(lang, Ui::Check),
            s.check
                .iter()
                .map(|c| describe_check(c, lang))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    Ok(out)
}

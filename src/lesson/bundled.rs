//! The course compiled into the binary, so an installed `hc11lab` has its
//! lessons without a `lessons/` folder (like the bundled firmware). A test
//! keeps this list equal to the folders under `lessons/`.

use super::catalog::{Catalog, Lesson, LessonError};
use super::i18n::Lang;
use std::sync::Arc;

/// One bundled lesson: (folder name, `lesson.toml`, `de.md`, `en.md`).
pub type Bundled = (&'static str, &'static str, &'static str, &'static str);

macro_rules! lesson {
    ($dir:literal) => {
        (
            $dir,
            include_str!(concat!("../../lessons/", $dir, "/lesson.toml")),
            include_str!(concat!("../../lessons/", $dir, "/de.md")),
            include_str!(concat!("../../lessons/", $dir, "/en.md")),
        )
    };
}

/// Every lesson of the course, in folder order.
pub const LESSONS: &[Bundled] = &[
    lesson!("01-tour"),
    lesson!("02-cell"),
    lesson!("03-buffer"),
    lesson!("04-drawcell"),
    lesson!("05-input"),
    lesson!("06-cursor"),
    lesson!("07-setstone"),
    lesson!("08-checkwin"),
    lesson!("08b-linelength"),
    lesson!("09-stack"),
    lesson!("10-text"),
    lesson!("11-serial"),
    lesson!("12-lcd-init"),
    lesson!("13-profile"),
];

/// The bundled lessons as a catalog (no exercises: grading needs their folders).
pub fn catalog() -> Result<Catalog, LessonError> {
    let mut cat = Catalog::default();
    for (id, manifest, de, en) in LESSONS {
        let l = Lesson::from_sources(id, manifest, &[(Lang::De, de), (Lang::En, en)])?;
        cat.lessons.push(Arc::new(l));
    }
    cat.sort();
    Ok(cat)
}

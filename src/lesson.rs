//! Guided lessons (issue 9): lesson folders under `lessons/` (a TOML manifest
//! plus German and English Markdown) turned into steps whose checks are
//! evaluated on the live machine, with hints, answers and saved progress.

pub mod i18n;
pub mod manifest;
pub mod text;

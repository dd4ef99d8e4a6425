//! The recovery file: every few seconds the unsaved texts go to
//! `<data folder>/recovery.json` (written in the background, whole or not at
//! all), and a window that finds it there at start offers them back: after
//! a crash, a kill or a power cut nothing typed is lost. A clean close
//! leaves it empty.

use std::path::{Path, PathBuf};

use super::buffer::FileFormat;

/// One unsaved file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedFile {
    /// The path as the program names it (`untitled-1.asm` for a new file).
    pub path: PathBuf,
    /// A new file, never saved.
    pub untitled: bool,
    /// The text.
    pub text: String,
    /// How the file is stored on disk.
    pub format: FileFormat,
}

/// What the recovery file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Saved {
    /// The program the files belong to (`None`: the bundled Viergewinnt).
    pub program: Option<PathBuf>,
    /// The unsaved files.
    pub files: Vec<SavedFile>,
}

/// The recovery file in the data folder `dir`.
pub fn path_in(dir: &Path) -> PathBuf {
    dir.join("recovery.json")
}

/// The unsaved files of an earlier window, if the file holds any.
pub fn read(path: &Path) -> Option<Saved> {
    let text = crate::platform::fs::read_to_string(path).ok()?;
    let saved: Saved = serde_json::from_str(&text).ok()?;
    (!saved.files.is_empty()).then_some(saved)
}

/// Writes `saved` (an empty one when nothing is unsaved) in the
/// background; the old file stays whole until the new one is complete.
pub fn write(path: PathBuf, saved: Saved) {
    crate::platform::spawn("hc11lab-recovery", move || {
        let Ok(json) = serde_json::to_vec(&saved) else {
            return;
        };
        if let Err(e) = crate::platform::fs::write(&path, &json) {
            eprintln!(
                "hc11lab: cannot write the recovery file {}: {e}",
                path.display()
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_file_offers_nothing_and_a_full_one_comes_back() {
        let dir = std::env::temp_dir().join(format!("hc11lab-recovery-{}", std::process::id()));
        let p = path_in(&dir);
        assert_eq!(read(&p), None);
        let saved = Saved {
            program: Some("/x/main.asm".into()),
            files: vec![SavedFile {
                path: "/x/main.asm".into(),
                untitled: false,
                text: "  nop\n".into(),
                format: FileFormat::default(),
            }],
        };
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(&p, serde_json::to_vec(&saved).expect("json")).expect("write");
        assert_eq!(read(&p), Some(saved));
        std::fs::write(&p, b"{\"files\": []}").expect("write");
        assert_eq!(read(&p), None);
        std::fs::write(&p, b"not json").expect("write");
        assert_eq!(read(&p), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

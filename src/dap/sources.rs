//! The program's source files as the client sees them: a file on disk by
//! its absolute path, or (the bundled Viergewinnt, macro expansions) by a
//! reference whose text the `source` request returns.

use super::protocol::Source;
use crate::image::{FileId, Program};
use std::path::{Path, PathBuf};

/// The program's files, each with the path the client knows it by.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    /// Per file: its canonical path when it is on disk and the program
    /// was read from there.
    disk: Vec<Option<PathBuf>>,
    names: Vec<String>,
}

impl Sources {
    /// The files of `program`; `on_disk` is false for sources that were
    /// not read from disk (the bundled firmware).
    pub fn new(program: &Program, on_disk: bool) -> Sources {
        let disk = program
            .files
            .iter()
            .map(|f| {
                on_disk
                    .then(|| std::fs::canonicalize(&f.path).ok())
                    .flatten()
                    .filter(|p| p.is_file())
            })
            .collect();
        let names = program
            .files
            .iter()
            .map(|f| {
                f.path
                    .file_name()
                    .map_or_else(|| f.path.to_string_lossy(), |n| n.to_string_lossy())
                    .into_owned()
            })
            .collect();
        Sources { disk, names }
    }

    /// The client's `Source` for file `fid`.
    pub fn source(&self, fid: FileId) -> Source {
        let name = self.names.get(fid).cloned();
        match self.disk.get(fid).cloned().flatten() {
            Some(p) => Source {
                name,
                path: Some(p.to_string_lossy().into_owned()),
                source_reference: None,
            },
            None => Source {
                name,
                path: None,
                source_reference: Some(fid as i64 + 1),
            },
        }
    }

    /// The file a client's `Source` means, or why none.
    pub fn file_of(&self, program: &Program, source: &Source) -> Result<FileId, String> {
        if let Some(r) = source.source_reference.filter(|&r| r > 0) {
            return usize::try_from(r - 1)
                .ok()
                .filter(|&fid| fid < program.files.len())
                .ok_or_else(|| format!("no source with reference {r}"));
        }
        let Some(path) = source.path.as_deref() else {
            return Err("the source has neither a path nor a reference".into());
        };
        let canonical = std::fs::canonicalize(path).ok();
        if let Some(c) = &canonical {
            if let Some(fid) = self.disk.iter().position(|d| d.as_ref() == Some(c)) {
                return Ok(fid);
            }
        }
        // Sources that are not on disk (the bundled firmware) go by their
        // name, when exactly one file has it.
        if self.disk.iter().all(Option::is_none) {
            let name = Path::new(path)
                .file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase());
            let same: Vec<FileId> = self
                .names
                .iter()
                .enumerate()
                .filter(|(_, n)| Some(n.to_ascii_lowercase()) == name)
                .map(|(i, _)| i)
                .collect();
            if let [fid] = same.as_slice() {
                return Ok(*fid);
            }
        }
        Err(format!(
            "{path} is not a source file of the loaded program ({})",
            self.names.join(", ")
        ))
    }

    /// The path string the debugger's breakpoint specs name file `fid` by.
    pub fn spec_path(program: &Program, fid: FileId) -> String {
        program
            .files
            .get(fid)
            .map(|f| f.path.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_files_go_by_reference() {
        let p = crate::open::open(None).expect("bundled").program;
        let s = Sources::new(&p, false);
        let src = s.source(0);
        assert_eq!(src.source_reference, Some(1));
        assert_eq!(src.name.as_deref(), Some("Viergewinnt.asm"));
        assert_eq!(s.file_of(&p, &src), Ok(0));
        let by_name = Source {
            path: Some("/elsewhere/Board.inc".into()),
            ..Source::default()
        };
        let fid = s.file_of(&p, &by_name).expect("by name");
        assert_eq!(s.names[fid], "Board.inc");
        assert!(s
            .file_of(
                &p,
                &Source {
                    path: Some("/x/none.asm".into()),
                    ..Source::default()
                }
            )
            .is_err());
    }

    #[test]
    fn files_on_disk_go_by_canonical_path() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware");
        let p = crate::open::open(Some(&dir)).expect("firmware").program;
        let s = Sources::new(&p, true);
        let src = s.source(0);
        let path = src.path.clone().expect("path");
        assert!(Path::new(&path).is_absolute());
        assert_eq!(s.file_of(&p, &src), Ok(0));
        let dotted = Source {
            path: Some(
                dir.join(".")
                    .join("Input.inc")
                    .to_string_lossy()
                    .into_owned(),
            ),
            ..Source::default()
        };
        let fid = s.file_of(&p, &dotted).expect("input");
        assert_eq!(s.names[fid], "Input.inc");
    }
}

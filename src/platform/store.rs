//! A small file tree held in memory: the browser's files (the page has no
//! file system). Paths are absolute after [`normalize`] (a relative path
//! starts at `/`, the page's working folder); folders exist explicitly, so
//! writing into a missing folder fails as on a disk. Keeping the copy in the
//! page's storage across reloads is the caller's (`platform/web.rs`); this
//! part is plain data, tested on every target.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Component, Path, PathBuf};

/// One file: its bytes and when it was last written (milliseconds since
/// the Unix epoch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredFile {
    /// The content.
    pub bytes: Vec<u8>,
    /// Last write, ms since 1970.
    pub modified_ms: u64,
}

/// What a path is in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// A file of this many bytes, written at this time (ms since 1970).
    File(u64, u64),
    /// A folder.
    Dir,
}

/// The tree: files by path, and every folder (the root `/` always).
#[derive(Clone, Debug, Default)]
pub struct Store {
    files: BTreeMap<String, StoredFile>,
    dirs: BTreeSet<String>,
}

/// `path` as the store keys it: absolute, `/`-separated, without `.`, `..`
/// (above the root stays at the root) or a trailing `/`.
pub fn normalize(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop();
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    format!("/{}", parts.join("/"))
}

fn parent_of(key: &str) -> Option<&str> {
    if key == "/" {
        return None;
    }
    match key.rfind('/') {
        Some(0) => Some("/"),
        Some(i) => Some(&key[..i]),
        None => None,
    }
}

fn not_found(key: &str) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("{key}: no such file"))
}

/// True if `key` lies in folder `dir` (at any depth) or is `dir` itself.
fn under(key: &str, dir: &str) -> bool {
    key == dir || dir == "/" || key.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

impl Store {
    /// An empty tree with only the root folder.
    pub fn new() -> Store {
        Store {
            files: BTreeMap::new(),
            dirs: BTreeSet::from(["/".to_string()]),
        }
    }

    /// What is at `path`, if anything.
    pub fn node(&self, path: &Path) -> Option<Node> {
        let key = normalize(path);
        if let Some(f) = self.files.get(&key) {
            return Some(Node::File(f.bytes.len() as u64, f.modified_ms));
        }
        self.dirs.contains(&key).then_some(Node::Dir)
    }

    /// The file's content.
    pub fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let key = normalize(path);
        match self.files.get(&key) {
            Some(f) => Ok(f.bytes.clone()),
            None if self.dirs.contains(&key) => Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                format!("{key} is a folder, not a file"),
            )),
            None => Err(not_found(&key)),
        }
    }

    /// Writes (or replaces) a file in an existing folder. Returns what the
    /// file held before, so a caller that cannot keep the change (the
    /// page's storage is full) can put it back with [`Store::restore`].
    pub fn write(
        &mut self,
        path: &Path,
        bytes: &[u8],
        now_ms: u64,
    ) -> io::Result<Option<StoredFile>> {
        let key = normalize(path);
        if self.dirs.contains(&key) {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                format!("{key} is a folder"),
            ));
        }
        let parent = parent_of(&key).unwrap_or("/");
        if !self.dirs.contains(parent) {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{parent}: no such folder"),
            ));
        }
        Ok(self.files.insert(
            key,
            StoredFile {
                bytes: bytes.to_vec(),
                modified_ms: now_ms,
            },
        ))
    }

    /// Puts back what [`Store::write`] returned (`None`: the file did not
    /// exist before).
    pub fn restore(&mut self, path: &Path, before: Option<StoredFile>) {
        let key = normalize(path);
        match before {
            Some(f) => {
                self.files.insert(key, f);
            }
            None => {
                self.files.remove(&key);
            }
        }
    }

    /// Adds a file as it was stored earlier (loading the page's storage):
    /// its folders are made as needed.
    pub fn insert_loaded(&mut self, path: &Path, file: StoredFile) {
        let key = normalize(path);
        if let Some(parent) = parent_of(&key) {
            self.make_dirs(parent);
        }
        self.dirs.remove(&key);
        self.files.insert(key, file);
    }

    fn make_dirs(&mut self, key: &str) -> Vec<String> {
        let mut made = Vec::new();
        let mut at = Some(key);
        while let Some(k) = at {
            if self.dirs.contains(k) {
                break;
            }
            made.push(k.to_string());
            at = parent_of(k);
        }
        for d in &made {
            self.dirs.insert(d.clone());
        }
        made
    }

    /// Makes the folder and those above it; returns the folders it made.
    /// A file in the way is an error.
    pub fn create_dir_all(&mut self, path: &Path) -> io::Result<Vec<String>> {
        let key = normalize(path);
        let mut at = Some(key.as_str());
        while let Some(k) = at {
            if self.files.contains_key(k) {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{k} is a file, not a folder"),
                ));
            }
            at = parent_of(k);
        }
        Ok(self.make_dirs(&key))
    }

    /// The names directly in folder `path`, each with what it is, by name.
    pub fn read_dir(&self, path: &Path) -> io::Result<Vec<(String, Node)>> {
        let key = normalize(path);
        if !self.dirs.contains(&key) {
            return Err(if self.files.contains_key(&key) {
                io::Error::new(io::ErrorKind::NotADirectory, format!("{key} is a file"))
            } else {
                not_found(&key)
            });
        }
        let prefix = if key == "/" {
            "/".to_string()
        } else {
            format!("{key}/")
        };
        let direct = |k: &String| {
            k.strip_prefix(&prefix)
                .filter(|rest| !rest.is_empty() && !rest.contains('/'))
                .map(str::to_string)
        };
        let mut out: Vec<(String, Node)> = self
            .dirs
            .iter()
            .filter_map(|d| direct(d).map(|n| (n, Node::Dir)))
            .chain(self.files.iter().filter_map(|(k, f)| {
                direct(k).map(|n| (n, Node::File(f.bytes.len() as u64, f.modified_ms)))
            }))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    /// Removes one file.
    pub fn remove_file(&mut self, path: &Path) -> io::Result<StoredFile> {
        let key = normalize(path);
        self.files.remove(&key).ok_or_else(|| not_found(&key))
    }

    /// Removes a folder with everything in it; returns the files and the
    /// folders removed (the root itself stays).
    pub fn remove_dir_all(&mut self, path: &Path) -> io::Result<(Vec<String>, Vec<String>)> {
        let key = normalize(path);
        if !self.dirs.contains(&key) {
            return Err(not_found(&key));
        }
        let files: Vec<String> = self
            .files
            .keys()
            .filter(|k| under(k, &key))
            .cloned()
            .collect();
        let dirs: Vec<String> = self
            .dirs
            .iter()
            .filter(|d| under(d, &key) && d.as_str() != "/")
            .cloned()
            .collect();
        for f in &files {
            self.files.remove(f);
        }
        for d in &dirs {
            self.dirs.remove(d);
        }
        Ok((files, dirs))
    }

    /// Every file at or under `path`, by path.
    pub fn files_under(&self, path: &Path) -> Vec<(String, &StoredFile)> {
        let key = normalize(path);
        self.files
            .iter()
            .filter(|(k, _)| under(k, &key))
            .map(|(k, f)| (k.clone(), f))
            .collect()
    }

    /// Every folder at or under `path` that holds no file and no folder.
    pub fn empty_dirs_under(&self, path: &Path) -> Vec<String> {
        let key = normalize(path);
        self.dirs
            .iter()
            .filter(|d| under(d, &key) && d.as_str() != "/")
            .filter(|d| {
                let prefix = format!("{d}/");
                !self.files.keys().any(|k| k.starts_with(&prefix))
                    && !self.dirs.iter().any(|o| o.starts_with(&prefix))
            })
            .cloned()
            .collect()
    }
}

/// `path` made absolute the way the store sees it (for identities).
pub fn absolute(path: &Path) -> PathBuf {
    PathBuf::from(normalize(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> &Path {
        Path::new(s)
    }

    #[test]
    fn paths_are_absolute_and_plain() {
        assert_eq!(
            normalize(p("lessons/e1-draw/./x.asm")),
            "/lessons/e1-draw/x.asm"
        );
        assert_eq!(normalize(p("/a/b/../c/")), "/a/c");
        assert_eq!(normalize(p("../../x")), "/x");
        assert_eq!(normalize(p("")), "/");
    }

    #[test]
    fn files_need_their_folder_and_folders_are_listed() {
        let mut s = Store::new();
        let e = s.write(p("/work/a.asm"), b"nop", 1).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert_eq!(s.create_dir_all(p("/work/lib")).unwrap().len(), 2);
        s.write(p("/work/a.asm"), b"nop", 1).unwrap();
        s.write(p("work/lib/b.inc"), b"rts", 2).unwrap();
        assert_eq!(s.read(p("/work/lib/b.inc")).unwrap(), b"rts");
        assert_eq!(
            s.read_dir(p("/work")).unwrap(),
            vec![
                ("a.asm".to_string(), Node::File(3, 1)),
                ("lib".to_string(), Node::Dir)
            ]
        );
        assert_eq!(s.node(p("/work/lib")), Some(Node::Dir));
        assert_eq!(
            s.read(p("/work/lib")).unwrap_err().kind(),
            io::ErrorKind::IsADirectory
        );
        assert_eq!(
            s.read_dir(p("/work/a.asm")).unwrap_err().kind(),
            io::ErrorKind::NotADirectory
        );
        assert!(s.create_dir_all(p("/work/a.asm/x")).is_err());
    }

    #[test]
    fn a_write_can_be_taken_back() {
        let mut s = Store::new();
        s.write(p("/a"), b"old", 1).unwrap();
        let before = s.write(p("/a"), b"new", 2).unwrap();
        s.restore(p("/a"), before);
        assert_eq!(s.read(p("/a")).unwrap(), b"old");
        let none = s.write(p("/b"), b"x", 3).unwrap();
        s.restore(p("/b"), none);
        assert!(s.node(p("/b")).is_none());
    }

    #[test]
    fn removing_a_folder_takes_what_is_in_it_only() {
        let mut s = Store::new();
        s.create_dir_all(p("/d/e")).unwrap();
        s.create_dir_all(p("/de")).unwrap();
        s.write(p("/d/e/x"), b"1", 1).unwrap();
        s.write(p("/de/y"), b"2", 1).unwrap();
        let (files, dirs) = s.remove_dir_all(p("/d")).unwrap();
        assert_eq!(files, vec!["/d/e/x".to_string()]);
        assert_eq!(dirs.len(), 2);
        assert_eq!(s.read(p("/de/y")).unwrap(), b"2");
        assert!(s.node(p("/d")).is_none());
        assert_eq!(s.empty_dirs_under(p("/")), Vec::<String>::new());
        s.create_dir_all(p("/empty")).unwrap();
        assert_eq!(s.empty_dirs_under(p("/")), vec!["/empty".to_string()]);
    }

    #[test]
    fn loaded_files_bring_their_folders() {
        let mut s = Store::new();
        s.insert_loaded(
            p("/data/exercises/e1/V.asm"),
            StoredFile {
                bytes: b"x".to_vec(),
                modified_ms: 5,
            },
        );
        assert_eq!(s.node(p("/data/exercises")), Some(Node::Dir));
        assert_eq!(s.files_under(p("/data")).len(), 1);
    }
}

//! Loading source files: where bytes come from (disk or memory), decoding
//! (UTF-8, else Windows-1252 as on the course's Windows PCs), size and
//! binary checks, and resolving `include` names the way ASM11 on Windows did
//! (case-insensitive fallback, `\` or `/`), never leaving the main file's folder tree.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// Why a source file could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// No file at this path.
    #[error("file not found")]
    NotFound,
    /// The operating system refused to read it (message from the OS).
    #[error("{0}")]
    Io(String),
    /// Larger than the configured limit.
    #[error("file is {size} bytes, more than the limit of {limit} bytes")]
    TooLarge {
        /// Size of the file in bytes (at least `limit + 1`).
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// Contains NUL bytes or too many control characters.
    #[error("not a text file ({0})")]
    NotText(String),
}

/// Where the assembler gets its files from: the disk, a zip read into memory,
/// a map of test files.
pub trait SourceProvider {
    /// Reads a whole file, refusing files larger than `limit` bytes without
    /// reading them entirely.
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, SourceError>;
    /// True if `path` is an existing file.
    fn is_file(&self, path: &Path) -> bool;
    /// What `path` is when something is there that is no regular file (`a
    /// folder`), so a message can say so instead of "not found".
    fn not_regular(&self, _path: &Path) -> Option<&'static str> {
        None
    }
    /// The names of the entries (files and folders) directly in `dir`.
    fn list_dir(&self, dir: &Path) -> Vec<String>;
    /// A path that identifies the file's real location (symbolic links
    /// resolved), used for cycle detection and the folder-tree check.
    fn identity(&self, path: &Path) -> PathBuf;
}

/// Files on disk.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsProvider;

impl SourceProvider for FsProvider {
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, SourceError> {
        use crate::platform::fs::{read_limited, ReadError};
        read_limited(path, limit).map_err(|e| match e {
            ReadError::NotFound => SourceError::NotFound,
            ReadError::TooLarge { size, limit } => SourceError::TooLarge { size, limit },
            e => SourceError::Io(e.to_string()),
        })
    }

    fn is_file(&self, path: &Path) -> bool {
        crate::platform::fs::is_file(path)
    }

    fn not_regular(&self, path: &Path) -> Option<&'static str> {
        let meta = crate::platform::fs::metadata(path).ok()?;
        if meta.is_file() {
            None
        } else if meta.is_dir() {
            Some("a folder")
        } else {
            Some("a fifo, device or socket")
        }
    }

    fn list_dir(&self, dir: &Path) -> Vec<String> {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let Ok(entries) = crate::platform::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries.map(|e| e.name).collect();
        names.sort();
        names
    }

    fn identity(&self, path: &Path) -> PathBuf {
        let p = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        crate::platform::fs::canonicalize(p).unwrap_or_else(|_| {
            let abs = std::env::current_dir()
                .map(|d| d.join(p))
                .unwrap_or_else(|_| p.to_path_buf());
            normalize(&abs)
        })
    }
}

/// Files held in memory, keyed by a normalised relative path (`lib/x.inc`):
/// for tests and for submissions read from a zip.
#[derive(Clone, Debug, Default)]
pub struct MemoryFiles {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl MemoryFiles {
    /// An empty set of files.
    pub fn new() -> MemoryFiles {
        MemoryFiles::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: impl AsRef<Path>, bytes: impl Into<Vec<u8>>) {
        self.files.insert(normalize(path.as_ref()), bytes.into());
    }

    /// Adds a file (builder style).
    pub fn with(mut self, path: impl AsRef<Path>, bytes: impl Into<Vec<u8>>) -> MemoryFiles {
        self.insert(path, bytes);
        self
    }
}

impl SourceProvider for MemoryFiles {
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, SourceError> {
        let bytes = self
            .files
            .get(&normalize(path))
            .ok_or(SourceError::NotFound)?;
        if bytes.len() as u64 > limit {
            return Err(SourceError::TooLarge {
                size: bytes.len() as u64,
                limit,
            });
        }
        Ok(bytes.clone())
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(&normalize(path))
    }

    fn not_regular(&self, path: &Path) -> Option<&'static str> {
        (!self.is_file(path) && !self.list_dir(path).is_empty()).then_some("a folder")
    }

    fn list_dir(&self, dir: &Path) -> Vec<String> {
        let dir = normalize(dir);
        let mut names: Vec<String> = self
            .files
            .keys()
            .filter_map(|k| {
                let rest = k.strip_prefix(&dir).ok()?;
                rest.components()
                    .next()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
            })
            .collect();
        names.dedup();
        names
    }

    fn identity(&self, path: &Path) -> PathBuf {
        normalize(path)
    }
}

/// Removes `.` and resolves `..` lexically; leading `..` that cannot be
/// resolved are kept.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir) | Some(Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    out.iter().collect()
}

/// The folder that holds `path` ("" for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Splits an include name into its parts, accepting `\` (the course's Windows
/// sources) as well as `/`, and stripping optional quotes or angle brackets.
pub fn include_parts(name: &str) -> Vec<&str> {
    let trimmed = name.trim();
    let unquoted = strip_quotes(trimmed);
    unquoted
        .split(['/', '\\'])
        .filter(|p| !p.is_empty())
        .collect()
}

fn strip_quotes(s: &str) -> &str {
    for (open, close) in [('"', '"'), ('\'', '\''), ('<', '>')] {
        if s.len() >= 2 && s.starts_with(open) && s.ends_with(close) {
            return &s[1..s.len() - 1];
        }
    }
    s
}

/// How an include name resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// Found: the path to open (shown in messages).
    Found(PathBuf),
    /// Leaves the main file's folder tree.
    Escapes(PathBuf),
    /// Nothing by that name, even ignoring case.
    NotFound(PathBuf),
    /// Something by that name that is no regular file (what it is).
    NotRegular(PathBuf, &'static str),
}

/// True if the folder `dir` is `root` or below it, by their names (no
/// `..` leads out of it).
pub fn is_inside(dir: &Path, root: &Path) -> bool {
    let (dir, root) = (normalize(dir), normalize(root));
    dir.starts_with(&root)
        && !dir
            .components()
            .skip(root.components().count())
            .any(|c| c == Component::ParentDir)
}

/// Resolves `name` (as written after `include`) relative to `dir`, the folder of
/// the including file; `root` is the folder of the main file, which includes
/// may not leave. Each part falls back to a case-insensitive match.
pub fn resolve_include(
    provider: &dyn SourceProvider,
    root: &Path,
    dir: &Path,
    name: &str,
) -> Resolved {
    let parts = include_parts(name);
    let written = Path::new(strip_quotes(name.trim())).to_path_buf();
    // Absolute include paths are resolved as given and then checked against the tree.
    let mut cur = if written.is_absolute() {
        written.clone()
    } else {
        dir.to_path_buf()
    };
    let lexical = normalize(&if written.is_absolute() {
        written.clone()
    } else {
        dir.join(parts.iter().collect::<PathBuf>())
    });
    let root_n = normalize(root);
    let escapes_lexically = !written.is_absolute()
        && (!lexical.starts_with(&root_n)
            || lexical
                .components()
                .skip(root_n.components().count())
                .any(|c| c == Component::ParentDir));
    if escapes_lexically {
        return Resolved::Escapes(lexical);
    }
    if !written.is_absolute() {
        let n = parts.len();
        for (i, part) in parts.iter().enumerate() {
            match *part {
                "." => continue,
                ".." => {
                    cur = normalize(&cur.join(".."));
                    continue;
                }
                _ => {}
            }
            let exact = cur.join(part);
            let last = i + 1 == n;
            let exists = if last {
                provider.is_file(&exact)
            } else {
                !provider.list_dir(&exact).is_empty()
            };
            if exists {
                cur = exact;
                continue;
            }
            let lower = part.to_lowercase();
            let found = provider
                .list_dir(&cur)
                .into_iter()
                .find(|entry| entry.to_lowercase() == lower);
            match found {
                Some(entry) => cur = cur.join(entry),
                None => return Resolved::NotFound(lexical),
            }
        }
    }
    let not_regular = if provider.is_file(&cur) {
        None
    } else {
        match provider.not_regular(&cur) {
            Some(kind) => Some(kind),
            None => return Resolved::NotFound(lexical),
        }
    };
    // Symbolic links (or an absolute path) may still lead out of the tree;
    // that is said first, whatever is there (`/dev/zero`, a folder).
    let real = provider.identity(&cur);
    let real_root = provider.identity(root);
    if !real.starts_with(&real_root) {
        return Resolved::Escapes(cur);
    }
    match not_regular {
        Some(kind) => Resolved::NotRegular(cur, kind),
        None => Resolved::Found(cur),
    }
}

/// Decodes source bytes: NUL bytes or many control characters mean "not a
/// text file"; valid UTF-8 is taken as is (a BOM is dropped); anything else is
/// read as Windows-1252, which the course's editors wrote.
pub fn decode(bytes: &[u8]) -> Result<String, SourceError> {
    // Windows editors save "Unicode" as UTF-16: a byte-order mark, or a
    // NUL beside every character of plain ASCII text.
    let head = &bytes[..bytes.len().min(64)];
    let bom = head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]);
    let nul_half = |parity: usize| {
        head.len() >= 8
            && head
                .iter()
                .enumerate()
                .all(|(i, &b)| (i % 2 == parity) == (b == 0))
    };
    if bom || nul_half(0) || nul_half(1) {
        return Err(SourceError::NotText(
            "it is UTF-16 text; save it as UTF-8 (or ANSI/Latin-1)".to_string(),
        ));
    }
    if let Some(pos) = bytes.iter().position(|&b| b == 0) {
        return Err(SourceError::NotText(format!("NUL byte at offset {pos}")));
    }
    let controls = bytes
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1A))
        .count();
    if controls > 8 && controls * 100 > bytes.len() {
        return Err(SourceError::NotText(format!(
            "{controls} control characters"
        )));
    }
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| cp1252_char(b)).collect(),
    };
    Ok(lone_cr_to_lf(&text).unwrap_or(text))
}

/// Text whose lines end in a carriage return alone (classic Mac OS) with
/// each such CR made a line feed, so its lines are lines; `None` if it has
/// no lone CR. CR LF pairs stay as they are.
pub fn lone_cr_to_lf(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes.get(i) == Some(&b'\r') && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Windows-1252 characters of bytes $80-$9F (undefined ones map to the C1 control).
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}', '\u{178}',
];

/// The character of a Windows-1252 byte.
pub fn cp1252_char(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_HIGH[(b - 0x80) as usize],
        _ => b as char,
    }
}

/// The Windows-1252 byte of a character, if it has one (strings in `dc.b`).
pub fn cp1252_byte(c: char) -> Option<u8> {
    let u = c as u32;
    if u < 0x80 || (0xA0..=0xFF).contains(&u) {
        return Some(u as u8);
    }
    CP1252_HIGH
        .iter()
        .position(|&h| h == c)
        .map(|i| 0x80 + i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_utf8_and_windows_1252() {
        assert_eq!(decode("Größe".as_bytes()).unwrap(), "Größe");
        assert_eq!(decode(b"Gr\xF6\xDFe \x80").unwrap(), "Größe €");
        assert_eq!(decode(b"\xEF\xBB\xBFabc").unwrap(), "abc");
        assert!(matches!(decode(b"ab\0c"), Err(SourceError::NotText(_))));
        // UTF-16 with and without its byte-order mark, both byte orders.
        let utf16: Vec<u8> = "\tldaa #1\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "\tldaa #1\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        for bytes in [[&[0xFF, 0xFE][..], &utf16].concat(), utf16.clone(), be] {
            match decode(&bytes) {
                Err(SourceError::NotText(why)) => assert!(why.contains("UTF-16"), "{why}"),
                other => panic!("{other:?}"),
            }
        }
        let garbage: Vec<u8> = (0..200u8).map(|i| (i % 7) + 1).collect();
        assert!(matches!(decode(&garbage), Err(SourceError::NotText(_))));
        for b in 0..=255u8 {
            assert_eq!(cp1252_byte(cp1252_char(b)), Some(b));
        }
    }

    #[test]
    fn normalizes_paths() {
        assert_eq!(normalize(Path::new("a/./b/../c")), PathBuf::from("a/c"));
        assert_eq!(normalize(Path::new("../a/..")), PathBuf::from(".."));
    }

    #[test]
    fn resolves_includes_case_insensitively_inside_the_tree() {
        let files = MemoryFiles::new()
            .with("fw/main.asm", "")
            .with("fw/Trainer11Register.inc", "")
            .with("fw/lib/Util.inc", "")
            .with("secret.inc", "");
        let root = Path::new("fw");
        assert_eq!(
            resolve_include(&files, root, root, "trainer11Register.inc"),
            Resolved::Found(PathBuf::from("fw/Trainer11Register.inc"))
        );
        assert_eq!(
            resolve_include(&files, root, root, "\"LIB\\util.inc\""),
            Resolved::Found(PathBuf::from("fw/lib/Util.inc"))
        );
        assert_eq!(
            resolve_include(&files, root, Path::new("fw/lib"), "../lib/Util.inc"),
            Resolved::Found(PathBuf::from("fw/lib/Util.inc"))
        );
        assert!(matches!(
            resolve_include(&files, root, root, "../secret.inc"),
            Resolved::Escapes(_)
        ));
        assert!(matches!(
            resolve_include(&files, root, root, "nope.inc"),
            Resolved::NotFound(_)
        ));
        assert_eq!(
            resolve_include(&files, root, root, "LIB"),
            Resolved::NotRegular(PathBuf::from("fw/lib"), "a folder")
        );
    }
}

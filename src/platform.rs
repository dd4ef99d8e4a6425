//! What differs between the desktop and the browser: the clock, background
//! work, files, the user's file dialogs and launch settings. The rest of the
//! crate is the same on every target; code that needs one of these goes
//! through here instead of `std`, so the WebAssembly build needs no `cfg`
//! anywhere else.
//!
//! In the browser the files live in a small tree in the page's memory
//! (`store.rs`), kept in the browser's storage across reloads; the course
//! is unpacked into `/lessons` when the page starts, the student's work
//! lives under `/data` (progress, exercise copies) and `/files` (what was
//! opened or saved).
//!
//! Owns: the choice of clock, of threads, of file store and of dialogs per
//! target.
//! Must not know about: the emulator, the assembler or the window.

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
use native as imp;
pub mod store;
#[cfg(target_arch = "wasm32")]
pub mod web;
#[cfg(target_arch = "wasm32")]
use web as imp;

use std::path::PathBuf;
use std::time::Duration;

/// A monotonic clock that also works in the browser (`std::time::Instant`
/// panics on `wasm32-unknown-unknown`); on the desktop it is `std`'s.
pub use web_time::Instant;
/// Wall-clock time, for file times and report stamps; `std`'s on the desktop.
pub use web_time::{SystemTime, UNIX_EPOCH};

/// True in a browser page: the user's files there are the page's own
/// copies, which the user's editor on the computer cannot reach.
pub const IN_PAGE: bool = cfg!(target_arch = "wasm32");

/// Runs `f` in the background: on a named thread on the desktop. Where no
/// thread can be started (the browser, or the system refused one) `f` runs
/// before this returns, so the caller's channel still gets its answer.
pub fn spawn(name: &str, f: impl FnOnce() + Send + 'static) {
    imp::spawn(name, f)
}

/// Calls `f` every `every` for as long as the program runs: from a named
/// thread on the desktop, from the page's timer in the browser (between
/// frames, never inside one). `false` if it could not be set up.
pub fn spawn_periodic(name: &str, every: Duration, f: impl FnMut() + Send + 'static) -> bool {
    imp::spawn_periodic(name, every, f)
}

/// How many threads parallel work (grading a batch) may use: the machine's
/// cores on the desktop, 1 where there are no threads.
pub fn parallelism() -> usize {
    imp::parallelism()
}

/// A message for whoever runs the program: standard error on the desktop,
/// the browser's console in a page.
pub fn note(message: &str) {
    imp::note(message)
}

/// A launch setting by its environment variable's name: the variable on
/// the desktop; in a page the address's query parameter of the same name
/// without `HC11LAB_`, in lower case (`?autorun=keys=drop` for
/// `HC11LAB_AUTORUN`). `None` if unset or empty.
pub fn setting(name: &str) -> Option<String> {
    imp::setting(name).filter(|v| !v.is_empty())
}

/// The user's own data folder for hc11lab (lesson progress, exercise
/// copies): `$XDG_DATA_HOME/hc11lab`, `~/.local/share/hc11lab` or
/// `%APPDATA%\hc11lab` on the desktop, `/data` in the browser's store.
pub fn data_dir() -> Option<PathBuf> {
    imp::data_dir()
}

/// The files the user works on: the real file system on the desktop, the
/// page's own store (kept in the browser's storage) in a browser.
pub mod fs {
    use super::imp;
    use super::SystemTime;
    use std::io;
    use std::path::{Path, PathBuf};

    /// The whole file.
    pub fn read(path: &Path) -> io::Result<Vec<u8>> {
        imp::read(path)
    }

    /// The whole file as UTF-8 text.
    pub fn read_to_string(path: &Path) -> io::Result<String> {
        let bytes = read(path)?;
        String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    /// What a directory entry or path is.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Kind {
        /// A regular file.
        File,
        /// A folder.
        Dir,
        /// A symbolic link (only where links are not followed).
        Symlink,
        /// Anything else, in words (`fifo`, `socket`, `character device`).
        Special(&'static str),
    }

    /// What [`metadata`] tells about a path.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Metadata {
        /// What it is.
        pub kind: Kind,
        /// Its size in bytes (0 for a folder).
        pub len: u64,
        /// When it was last changed, if known.
        pub modified: Option<SystemTime>,
    }

    impl Metadata {
        /// A regular file.
        pub fn is_file(&self) -> bool {
            self.kind == Kind::File
        }

        /// A folder.
        pub fn is_dir(&self) -> bool {
            self.kind == Kind::Dir
        }
    }

    /// One entry of a folder.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct DirEntry {
        /// Its name in the folder.
        pub name: String,
        /// The folder's path joined with the name.
        pub path: PathBuf,
        /// What it is (a symbolic link is not followed).
        pub kind: Kind,
    }

    /// What the path is, following symbolic links.
    pub fn metadata(path: &Path) -> io::Result<Metadata> {
        imp::metadata(path, true)
    }

    /// What the path itself is: a symbolic link is [`Kind::Symlink`].
    pub fn symlink_metadata(path: &Path) -> io::Result<Metadata> {
        imp::metadata(path, false)
    }

    /// True if `path` is a regular file (links followed).
    pub fn is_file(path: &Path) -> bool {
        metadata(path).is_ok_and(|m| m.is_file())
    }

    /// True if `path` is a folder (links followed).
    pub fn is_dir(path: &Path) -> bool {
        metadata(path).is_ok_and(|m| m.is_dir())
    }

    /// True if anything is at `path`.
    pub fn exists(path: &Path) -> bool {
        metadata(path).is_ok()
    }

    /// The entries of a folder, in no particular order, read lazily (a
    /// caller may stop after as many as it wants to look at). Entries that
    /// cannot be read are left out.
    pub fn read_dir(path: &Path) -> io::Result<impl Iterator<Item = DirEntry>> {
        imp::read_dir(path)
    }

    /// Makes the folder and every missing folder above it.
    pub fn create_dir_all(path: &Path) -> io::Result<()> {
        imp::create_dir_all(path)
    }

    /// Replaces the file with `bytes` as one step: the old content stays
    /// whole until the new one is complete (a temporary file beside it,
    /// then a rename), so a full disk or a crash never leaves half a file.
    /// In a page a full browser storage is [`io::ErrorKind::StorageFull`]
    /// and the file keeps its old content.
    pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
        imp::write(path, bytes)
    }

    /// Copies a file's bytes (not its permissions) to `to`.
    pub fn copy(from: &Path, to: &Path) -> io::Result<()> {
        write(to, &read(from)?)
    }

    /// Removes a file.
    pub fn remove_file(path: &Path) -> io::Result<()> {
        imp::remove_file(path)
    }

    /// Removes a folder and everything in it.
    pub fn remove_dir_all(path: &Path) -> io::Result<()> {
        imp::remove_dir_all(path)
    }

    /// The path with symbolic links resolved and made absolute.
    pub fn canonicalize(path: &Path) -> io::Result<PathBuf> {
        imp::canonicalize(path)
    }

    /// When the file was last changed, if the store knows.
    pub fn modified(path: &Path) -> Option<SystemTime> {
        imp::modified(path)
    }

    /// Hands a file the program wrote to the user outside the program: on
    /// the desktop it already is where the message names it (nothing to
    /// do); in a page it is downloaded.
    pub fn offer(path: &Path) -> io::Result<()> {
        imp::offer(path)
    }

    /// The page's own files with their sizes (`None` on the desktop, where
    /// the user's files are the file system's), the course left out.
    pub fn stored_files() -> Option<Vec<(PathBuf, u64)>> {
        imp::stored_files()
    }

    /// Bytes of the browser's storage the page's files take, and how many
    /// the browser is known to allow at most (`None` on the desktop).
    pub fn storage_use() -> Option<(u64, u64)> {
        imp::storage_use()
    }

    /// Why a file the user named was not read.
    #[derive(Debug, thiserror::Error)]
    pub enum ReadError {
        /// Nothing at that path.
        #[error("No such file or directory")]
        NotFound,
        /// A folder, fifo, device or socket: never opened, since reading a
        /// fifo waits for a writer and a device such as `/dev/zero` never ends.
        #[error("it is {0}, not a regular file{why}", why = not_regular_why(.0))]
        NotRegular(&'static str),
        /// Larger than the limit; `size` is what the file system said, or
        /// the bytes read before reading stopped.
        #[error("it is {size} bytes, more than the {limit} bytes allowed")]
        TooLarge {
            /// Bytes (at least `limit + 1`).
            size: u64,
            /// The limit in bytes.
            limit: u64,
        },
        /// Its size was within the limit when looked at, but more than
        /// `limit` bytes turned up while reading (it grew meanwhile);
        /// reading stopped one byte past the limit, so its size is unknown.
        #[error("it grew past the {limit} bytes allowed while it was read")]
        Grew {
            /// The limit in bytes.
            limit: u64,
        },
        /// The system refused (permissions, I/O).
        #[error("{0}")]
        Io(io::Error),
    }

    /// Why a file of this kind is not opened.
    fn not_regular_why(kind: &str) -> &'static str {
        if kind.contains("fifo") {
            ": reading it would wait for a writer"
        } else if kind.contains("device") {
            ": reading it might never end"
        } else {
            ""
        }
    }

    /// The whole file, if it is a regular file of at most `limit` bytes. The
    /// kind and size are checked before a byte is read, and no more than
    /// `limit + 1` bytes are ever read (a file that grows meanwhile is
    /// refused too).
    pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
        read_regular(path, limit, true)
    }

    /// [`read_limited`] as UTF-8 text, its error an `io::Error` (kind
    /// `NotFound` for a missing file) for callers that report those.
    pub fn read_to_string_limited(path: &Path, limit: u64) -> io::Result<String> {
        let bytes = read_limited(path, limit).map_err(|e| match e {
            ReadError::NotFound => io::Error::new(io::ErrorKind::NotFound, e.to_string()),
            ReadError::Io(e) => e,
            e => io::Error::new(io::ErrorKind::InvalidInput, e.to_string()),
        })?;
        String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    /// The first `limit` bytes of a regular file (all of a shorter one), and
    /// whether it has more; the rest is never read.
    pub fn read_head(path: &Path, limit: u64) -> Result<(Vec<u8>, bool), ReadError> {
        let mut bytes = read_regular(path, limit, false)?;
        let more = bytes.len() as u64 > limit;
        bytes.truncate(limit as usize);
        Ok((bytes, more))
    }

    #[cfg(not(target_arch = "wasm32"))]
    use imp::read_regular;

    /// The browser's store holds only the files the user gave it, so there
    /// is no fifo or device to refuse; the size is checked after the read.
    #[cfg(target_arch = "wasm32")]
    fn read_regular(path: &Path, limit: u64, whole: bool) -> Result<Vec<u8>, ReadError> {
        let mut bytes = imp::read(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => ReadError::NotFound,
            _ => ReadError::Io(e),
        })?;
        let size = bytes.len() as u64;
        if whole && size > limit {
            return Err(ReadError::TooLarge { size, limit });
        }
        bytes.truncate(limit.saturating_add(1) as usize);
        Ok(bytes)
    }
}

/// The user's file dialogs: the system's on the desktop, the browser's file
/// input in a page (whose answer comes later, as the file contents).
pub mod dialog {
    use super::imp;
    use std::path::PathBuf;

    /// What the user is asked for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Want {
        /// A program: one or more files (an `.asm` with its includes, an
        /// `.s19`, an ELF, a `.zip`).
        Files,
        /// A folder with a program in it.
        Folder,
    }

    /// One file the user picked in a page: its path inside the pick (a
    /// folder's files keep their folder, `game/Board.inc`) and bytes.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct PickedFile {
        /// `/`-separated, relative.
        pub name: String,
        /// The content.
        pub bytes: Vec<u8>,
    }

    /// The user's answer.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Picked {
        /// A path on the desktop's file system.
        Path(PathBuf),
        /// Files read from the page's file input or dropped on the page.
        Files(Vec<PickedFile>),
        /// Nothing chosen, or no dialog available.
        Nothing,
    }

    /// Asks the user: on the desktop the answer is returned; in a page the
    /// browser's file input opens, `None` is returned, and the answer comes
    /// from [`take`] once the files are read (the waker is called then).
    pub fn pick(want: Want) -> Option<Picked> {
        imp::pick(want)
    }

    /// An answer that came after [`pick`] returned, once.
    pub fn take() -> Option<Picked> {
        imp::take_picked()
    }

    /// Called when an answer arrives between frames (the window asks for
    /// one to show it).
    pub fn set_waker(waker: impl Fn() + Send + Sync + 'static) {
        imp::set_waker(Box::new(waker))
    }

    /// A folder to save a copy of the sources into: the system's folder
    /// dialog on the desktop; in a page a new folder of the page's store
    /// named after `suggested` (under `/files`). `None`: nothing chosen.
    pub fn pick_save_folder(suggested: &str) -> Option<PathBuf> {
        imp::pick_save_folder(suggested)
    }

    /// Where [`save_as`] put the bytes.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Saved {
        /// Written to this file.
        To(PathBuf),
        /// Handed to the browser as a download.
        Downloaded,
        /// The user closed the dialog (or there is none).
        Cancelled,
    }

    /// Saves `bytes` as a file the user chooses: the system's save dialog
    /// (suggesting `name`) on the desktop, a download of `name` in a page.
    pub fn save_as(name: &str, bytes: &[u8]) -> std::io::Result<Saved> {
        imp::save_as(name, bytes)
    }
}

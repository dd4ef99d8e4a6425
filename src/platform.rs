//! What differs between the desktop and the browser: the clock, background
//! work and files. The rest of the crate is the same on every target; code
//! that needs one of these goes through here instead of `std`, so the
//! WebAssembly build needs no `cfg` anywhere else.
//!
//! Owns: the choice of clock, of threads and of file store per target.
//! Must not know about: the emulator, the assembler or the window.

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
use native as imp;

/// A monotonic clock that also works in the browser (`std::time::Instant`
/// panics on `wasm32-unknown-unknown`); on the desktop it is `std`'s.
pub use web_time::Instant;
/// Wall-clock time, for file times and report stamps; `std`'s on the desktop.
pub use web_time::{SystemTime, UNIX_EPOCH};

/// Runs `f` in the background: on a named thread on the desktop. Where no
/// thread can be started (the browser, or the system refused one) `f` runs
/// before this returns, so the caller's channel still gets its answer.
pub fn spawn(name: &str, f: impl FnOnce() + Send + 'static) {
    imp::spawn(name, f)
}

/// How many threads parallel work (grading a batch) may use: the machine's
/// cores on the desktop, 1 where there are no threads.
pub fn parallelism() -> usize {
    imp::parallelism()
}

/// The files the user works on: the real file system on the desktop.
pub mod fs {
    use super::imp;
    use super::SystemTime;
    use std::io;
    use std::path::Path;

    /// The whole file.
    pub fn read(path: &Path) -> io::Result<Vec<u8>> {
        imp::read(path)
    }

    /// The whole file as UTF-8 text.
    pub fn read_to_string(path: &Path) -> io::Result<String> {
        let bytes = read(path)?;
        String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    /// Replaces the file with `bytes` as one step: the old content stays
    /// whole until the new one is complete (a temporary file beside it,
    /// then a rename), so a full disk or a crash never leaves half a file.
    pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
        imp::write(path, bytes)
    }

    /// When the file was last changed, if the store knows.
    pub fn modified(path: &Path) -> Option<SystemTime> {
        imp::modified(path)
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

/// The folder for the app's own files (the editor's recovery file), made
/// if missing: the user's data folder on the desktop; `None` where there
/// is none (the browser keeps no such files yet).
pub fn data_dir() -> Option<std::path::PathBuf> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        native::data_dir()
    }
    #[cfg(target_arch = "wasm32")]
    {
        None
    }
}

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

//! Standard output and error for the command line, dependable in pipes:
//! `hc11lab disasm x.s19 | head` must not panic when `head` closes the
//! pipe, and `>/dev/full` must say once what went wrong.
//!
//! [`out`] writes to stdout; after the first failure it writes nothing more
//! and remembers why. A closed pipe (EPIPE) is the reader's choice, so it
//! ends the output quietly, as command-line tools do; any other error is
//! reported by [`finish`] as one line naming standard output. Work that
//! writes files (grade reports) goes on either way, so nothing is lost.
//! [`err`] writes to stderr and ignores failures: there is nowhere left to
//! report them.

use std::io::{ErrorKind, Write};
use std::sync::Mutex;

/// Why stdout stopped taking output, if it did.
static STDOUT_FAILED: Mutex<Option<std::io::Error>> = Mutex::new(None);

/// Writes `text` to stdout (see the module doc).
pub fn out(text: &str) {
    let Ok(mut failed) = STDOUT_FAILED.lock() else {
        return;
    };
    if failed.is_some() {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        *failed = Some(e);
    }
}

/// Writes `text` to stderr, ignoring failures.
pub fn err(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    let _ = stderr.flush();
}

/// What went wrong with stdout, as one line for stderr, unless nothing did
/// or the reader closed the pipe (which is not an error of ours).
pub fn finish() -> Option<String> {
    let failed = STDOUT_FAILED.lock().ok()?;
    match failed.as_ref() {
        Some(e) if e.kind() != ErrorKind::BrokenPipe => {
            Some(format!("error: cannot write to standard output: {e}"))
        }
        _ => None,
    }
}

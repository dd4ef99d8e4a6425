//! Running hc11lab, or a piece of the library, under a deadline: the
//! robustness tests feed inputs that once made it hang, and a test must
//! fail, not hang, if one does again. The deadlines are generous (the
//! machine may be busy); they bound a hang, they do not measure speed.

#![allow(dead_code)] // not every test uses every helper

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a finished command left.
pub struct Ran {
    /// The exit status (-1 if killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `hc11lab ARGS` in `dir` with standard input closed; panics if it
/// has not finished after `secs` seconds (and kills it).
pub fn hc11lab_in(dir: &Path, args: &[&str], secs: u64) -> Ran {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hc11lab"));
    cmd.args(args).current_dir(dir);
    run_with_deadline(cmd, None, secs)
}

/// Runs `cmd`, writing `input` (if any) to its standard input from a
/// thread; panics if it has not finished after `secs` seconds.
pub fn run_with_deadline(mut cmd: Command, input: Option<Vec<u8>>, secs: u64) -> Ran {
    let what = format!("{cmd:?}");
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = cmd.spawn().expect("start hc11lab");
    if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
        std::thread::spawn(move || {
            // The reader may stop early (that is the point): ignore EPIPE.
            let _ = std::io::Write::write_all(&mut stdin, &bytes);
        });
    }
    // Drain the pipes while waiting, so a chatty child never blocks.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_thread = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = |v: Vec<u8>| String::from_utf8_lossy(&v).into_owned();
    Ran {
        code: status.code().unwrap_or(-1),
        stdout: text(out_thread.join().unwrap_or_default()),
        stderr: text(err_thread.join().unwrap_or_default()),
    }
}

/// Runs `f` on a thread; panics if it has not returned after `secs`
/// seconds (the thread is left behind, the test fails).
pub fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("did not finish within {secs} s"))
}

/// Makes a fifo at `path` (with `mkfifo`, which the tests need).
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo is needed for this test");
}

/// A fresh scratch folder for one test.
pub fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hc11lab-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

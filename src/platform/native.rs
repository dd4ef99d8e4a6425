//! The desktop: `std`'s threads and file system.

use std::io::{self, Write};
use std::path::Path;
use std::time::SystemTime;

pub fn spawn(name: &str, f: impl FnOnce() + Send + 'static) {
    // `Builder::spawn` consumes the closure even when it fails, so the
    // closure is handed over through a slot that stays ours on failure.
    let slot = std::sync::Arc::new(std::sync::Mutex::new(Some(f)));
    let theirs = std::sync::Arc::clone(&slot);
    let started = std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            let job = theirs.lock().ok().and_then(|mut s| s.take());
            if let Some(job) = job {
                job();
            }
        });
    if started.is_err() {
        let job = slot.lock().ok().and_then(|mut s| s.take());
        if let Some(job) = job {
            job();
        }
    }
}

pub fn parallelism() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    std::fs::read(path)
}

pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        if let Ok(meta) = std::fs::metadata(path) {
            // Keep the file's permissions (an executable script stays one).
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

pub fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// `$XDG_DATA_HOME/hc11lab`, `%APPDATA%\hc11lab` or
/// `~/.local/share/hc11lab`, made if missing.
pub fn data_dir() -> Option<std::path::PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
    };
    let dir = var("XDG_DATA_HOME")
        .or_else(|| var("APPDATA"))
        .map(|d| d.join("hc11lab"))
        .or_else(|| var("HOME").map(|h| h.join(".local").join("share").join("hc11lab")))?;
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_replaces_the_whole_file_and_keeps_no_temporary() {
        let dir = std::env::temp_dir().join(format!("hc11lab-platform-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("p.asm");
        write(&file, b"first version, longer\n").expect("write");
        write(&file, b"second\n").expect("write");
        assert_eq!(std::fs::read(&file).expect("read"), b"second\n");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .expect("dir")
            .filter_map(|e| e.ok().map(|e| e.file_name()))
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("p.asm")]);
        assert!(modified(&file).is_some());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn spawn_runs_the_job() {
        let (tx, rx) = std::sync::mpsc::channel();
        spawn("hc11lab-test", move || {
            let _ = tx.send(7);
        });
        assert_eq!(rx.recv().ok(), Some(7));
    }
}

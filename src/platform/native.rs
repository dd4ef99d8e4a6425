//! The desktop: `std`'s threads and file system.

use crate::platform::fs::ReadError;
use std::io::{self, Read, Write};
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

/// What a path is when it is no regular file (links followed), in words.
fn not_regular(ft: std::fs::FileType) -> Option<&'static str> {
    if ft.is_file() {
        return None;
    }
    if ft.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return Some("a fifo (named pipe)");
        }
        if ft.is_char_device() || ft.is_block_device() {
            return Some("a device");
        }
        if ft.is_socket() {
            return Some("a socket");
        }
    }
    Some("a special file")
}

fn read_error(e: io::Error) -> ReadError {
    if e.kind() == io::ErrorKind::NotFound {
        ReadError::NotFound
    } else {
        ReadError::Io(e)
    }
}

/// Reads a regular file, at most `limit + 1` bytes; with `whole`, one
/// larger than `limit` is refused, before reading when its size says so.
pub fn read_regular(path: &Path, limit: u64, whole: bool) -> Result<Vec<u8>, ReadError> {
    // The kind is checked before opening: opening a fifo blocks until a
    // writer comes.
    let meta = std::fs::metadata(path).map_err(read_error)?;
    if let Some(kind) = not_regular(meta.file_type()) {
        return Err(ReadError::NotRegular(kind));
    }
    if whole && meta.len() > limit {
        return Err(ReadError::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // A fifo swapped in after the check must not block the open either
    // (O_NONBLOCK of Linux's common architectures, asm-generic/fcntl.h;
    // it changes nothing for a regular file).
    #[cfg(all(
        target_os = "linux",
        any(
            target_arch = "x86_64",
            target_arch = "x86",
            target_arch = "aarch64",
            target_arch = "arm",
            target_arch = "riscv64"
        )
    ))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(0o4000);
    }
    let file = options.open(path).map_err(read_error)?;
    let meta = file.metadata().map_err(read_error)?;
    if let Some(kind) = not_regular(meta.file_type()) {
        return Err(ReadError::NotRegular(kind));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if whole && bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
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
    fn only_regular_files_within_the_limit_are_read() {
        use crate::platform::fs::{read_head, read_limited};
        let dir = std::env::temp_dir().join(format!("hc11lab-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let small = dir.join("small.txt");
        std::fs::write(&small, b"0123456789").expect("write");
        assert_eq!(read_limited(&small, 10).expect("fits"), b"0123456789");
        let e = read_limited(&small, 9).unwrap_err();
        assert!(
            matches!(e, ReadError::TooLarge { size: 10, limit: 9 }),
            "{e}"
        );
        assert_eq!(
            read_head(&small, 4).expect("head"),
            (b"0123".to_vec(), true)
        );
        assert_eq!(
            read_head(&small, 10).expect("all"),
            (b"0123456789".to_vec(), false)
        );
        // A sparse file of 1 GiB is refused by its size, before any read.
        let big = dir.join("big.bin");
        std::fs::File::create(&big)
            .and_then(|f| f.set_len(1 << 30))
            .expect("sparse file");
        let e = read_limited(&big, 1 << 20).unwrap_err().to_string();
        assert!(e.contains("1073741824 bytes, more than the 1048576"), "{e}");
        let e = read_limited(&dir, 100).unwrap_err().to_string();
        assert!(e.contains("a folder"), "{e}");
        assert!(matches!(
            read_limited(&dir.join("none"), 1),
            Err(ReadError::NotFound)
        ));
        #[cfg(unix)]
        {
            let e = read_limited(Path::new("/dev/zero"), 100)
                .unwrap_err()
                .to_string();
            assert!(e.contains("a device"), "{e}");
            let e = read_head(Path::new("/dev/zero"), 100)
                .unwrap_err()
                .to_string();
            assert!(e.contains("a device"), "{e}");
            let fifo = dir.join("fifo");
            let made = std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .is_ok_and(|s| s.success());
            assert!(made, "mkfifo is needed for this test");
            // Without the check this would block for ever: no writer comes.
            let e = read_limited(&fifo, 100).unwrap_err().to_string();
            assert!(
                e.contains("a fifo") && e.contains("wait for a writer"),
                "{e}"
            );
        }
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

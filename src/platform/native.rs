//! The desktop: `std`'s threads and file system, the system's dialogs.

use super::dialog::{Picked, Saved, Want};
use super::fs::{DirEntry, Kind, Metadata, ReadError};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

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

pub fn spawn_periodic(name: &str, every: Duration, mut f: impl FnMut() + Send + 'static) -> bool {
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || loop {
            std::thread::sleep(every);
            f();
        })
        .is_ok()
}

pub fn note(message: &str) {
    crate::stdio::err(&format!("{message}\n"));
}

pub fn setting(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

pub fn data_dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(x) = var("XDG_DATA_HOME") {
        return Some(x.join("hc11lab"));
    }
    if let Some(a) = var("APPDATA") {
        return Some(a.join("hc11lab"));
    }
    var("HOME").map(|h| h.join(".local").join("share").join("hc11lab"))
}

pub fn parallelism() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    std::fs::read(path)
}

/// What a file type is, in words, when it is neither a regular file, a
/// folder nor a symbolic link.
fn kind_of(ft: std::fs::FileType) -> Kind {
    if ft.is_file() {
        return Kind::File;
    }
    if ft.is_dir() {
        return Kind::Dir;
    }
    if ft.is_symlink() {
        return Kind::Symlink;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return Kind::Special("fifo");
        }
        if ft.is_char_device() {
            return Kind::Special("character device");
        }
        if ft.is_block_device() {
            return Kind::Special("block device");
        }
        if ft.is_socket() {
            return Kind::Special("socket");
        }
    }
    Kind::Special("special file")
}

pub fn metadata(path: &Path, follow: bool) -> io::Result<Metadata> {
    let m = if follow {
        std::fs::metadata(path)?
    } else {
        std::fs::symlink_metadata(path)?
    };
    Ok(Metadata {
        kind: kind_of(m.file_type()),
        len: m.len(),
        modified: m.modified().ok(),
    })
}

pub fn read_dir(path: &Path) -> io::Result<impl Iterator<Item = DirEntry>> {
    Ok(std::fs::read_dir(path)?.filter_map(|e| {
        let e = e.ok()?;
        Some(DirEntry {
            name: e.file_name().to_string_lossy().into_owned(),
            path: e.path(),
            kind: kind_of(e.file_type().ok()?),
        })
    }))
}

pub fn create_dir_all(path: &Path) -> io::Result<()> {
    std::fs::create_dir_all(path)
}

pub fn remove_file(path: &Path) -> io::Result<()> {
    std::fs::remove_file(path)
}

pub fn remove_dir_all(path: &Path) -> io::Result<()> {
    std::fs::remove_dir_all(path)
}

pub fn canonicalize(path: &Path) -> io::Result<PathBuf> {
    std::fs::canonicalize(path)
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

pub fn offer(_path: &Path) -> io::Result<()> {
    Ok(())
}

pub fn stored_files() -> Option<Vec<(PathBuf, u64)>> {
    None
}

pub fn storage_use() -> Option<(u64, u64)> {
    None
}

#[cfg(feature = "gui")]
pub fn pick(want: Want) -> Option<Picked> {
    let dialog = rfd::FileDialog::new();
    let picked = match want {
        Want::Folder => dialog.pick_folder(),
        Want::Files => dialog
            .add_filter(
                "68HC11 programs",
                &["asm", "s", "a11", "s19", "s28", "elf", "out", "zip"],
            )
            .add_filter("All files", &["*"])
            .pick_file(),
    };
    Some(picked.map_or(Picked::Nothing, Picked::Path))
}

#[cfg(not(feature = "gui"))]
pub fn pick(_want: Want) -> Option<Picked> {
    Some(Picked::Nothing)
}

/// Every answer is given before `pick` returns: none comes later.
pub fn take_picked() -> Option<Picked> {
    None
}

pub fn set_waker(_waker: Box<dyn Fn() + Send + Sync>) {}

#[cfg(feature = "gui")]
pub fn pick_save_folder(_suggested: &str) -> Option<PathBuf> {
    rfd::FileDialog::new().pick_folder()
}

#[cfg(not(feature = "gui"))]
pub fn pick_save_folder(_suggested: &str) -> Option<PathBuf> {
    None
}

#[cfg(feature = "gui")]
pub fn save_as(name: &str, bytes: &[u8]) -> io::Result<Saved> {
    match rfd::FileDialog::new().set_file_name(name).save_file() {
        Some(path) => write(&path, bytes).map(|()| Saved::To(path)),
        None => Ok(Saved::Cancelled),
    }
}

#[cfg(not(feature = "gui"))]
pub fn save_as(_name: &str, _bytes: &[u8]) -> io::Result<Saved> {
    Ok(Saved::Cancelled)
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
        return Err(ReadError::Grew { limit });
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
    fn a_limited_read_refuses_folders_and_large_files_and_lists_kinds() {
        use crate::platform::fs::read_limited;
        let dir = std::env::temp_dir().join(format!("hc11lab-bounded-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).expect("temp dir");
        let file = dir.join("a.asm");
        std::fs::write(&file, b"12345").expect("write");
        assert_eq!(read_limited(&file, 5).expect("fits"), b"12345");
        assert!(matches!(
            read_limited(&file, 4),
            Err(ReadError::TooLarge { size: 5, limit: 4 })
        ));
        assert!(matches!(
            read_limited(&dir.join("sub"), 100),
            Err(ReadError::NotRegular(_))
        ));
        let mut kinds: Vec<(String, Kind)> = read_dir(&dir)
            .expect("list")
            .map(|e| (e.name, e.kind))
            .collect();
        kinds.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            kinds,
            vec![("a.asm".into(), Kind::File), ("sub".into(), Kind::Dir)]
        );
        assert_eq!(metadata(&file, true).expect("meta").len, 5);
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

//! Watches the loaded program's source files in the background (a thread on
//! the desktop, the page's timer in a browser) and asks for a frame when one
//! changes on disk: a paused window draws nothing without input, so the
//! session's own check (run once per frame) would not see an edit made in
//! another editor until the mouse moved.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::platform::SystemTime;

/// How often the files are looked at.
const EVERY: Duration = Duration::from_millis(750);

type Watched = Vec<(PathBuf, Option<SystemTime>)>;

/// The watcher thread's shared list.
pub struct SourceWatcher {
    files: Arc<Mutex<Watched>>,
}

fn mtime(p: &std::path::Path) -> Option<SystemTime> {
    crate::platform::fs::modified(p)
}

impl SourceWatcher {
    /// Starts watching; it lasts as long as the process (it only reads
    /// file times and asks `ctx` for a frame).
    pub fn start(ctx: &egui::Context) -> SourceWatcher {
        let files: Arc<Mutex<Watched>> = Arc::default();
        let shared = Arc::clone(&files);
        let ctx = ctx.clone();
        let started = crate::platform::spawn_periodic("hc11lab-watch", EVERY, move || {
            let Ok(list) = shared.lock().map(|l| l.clone()) else {
                return;
            };
            if list.iter().any(|(p, t)| mtime(p) != *t) {
                // The frame reloads (Session::poll_source_change) and
                // hands over the new times.
                ctx.request_repaint();
            }
        });
        if !started {
            crate::platform::note("hc11lab: no file watcher; edits show on the next input");
        }
        SourceWatcher { files }
    }

    /// The files (with their times at load) to watch from now on.
    pub fn watch(&self, files: &[(PathBuf, Option<SystemTime>)]) {
        if let Ok(mut l) = self.files.lock() {
            if l.as_slice() != files {
                *l = files.to_vec();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_asks_for_a_frame_without_any_input() {
        let dir = std::env::temp_dir().join(format!("hc11lab-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.asm");
        std::fs::write(&file, "  nop\n").unwrap();
        let ctx = egui::Context::default();
        let asked = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = std::sync::Arc::clone(&asked);
        ctx.set_request_repaint_callback(move |_| {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        });
        let count = || asked.load(std::sync::atomic::Ordering::SeqCst);
        let w = SourceWatcher::start(&ctx);
        // Unchanged: no frame asked for.
        w.watch(&[(file.clone(), mtime(&file))]);
        std::thread::sleep(EVERY * 2);
        assert_eq!(count(), 0);
        // Changed on disk since the load (an older time on record).
        w.watch(&[(file.clone(), Some(SystemTime::UNIX_EPOCH))]);
        std::thread::sleep(EVERY * 2);
        assert!(count() > 0);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! The browser: no threads and no file system. Files live in the page's
//! [`Store`]; every file and folder the user makes is also written to the
//! browser's `localStorage` (one item per file), so it is there again after
//! a reload, and a write the storage cannot take fails with
//! [`io::ErrorKind::StorageFull`] and leaves the old content. The course is
//! unpacked from `lessons.zip` beside the page into `/lessons` when the page
//! starts ([`mount_course`]): read-only and not kept (the page brings it
//! again). File dialogs are the browser's file input, whose files arrive
//! after the click; downloads are links the page clicks itself.

use super::dialog::{Picked, PickedFile, Saved, Want};
use super::fs::{DirEntry, Kind, Metadata};
use super::store::{self, Node, Store, StoredFile};
use super::{SystemTime, UNIX_EPOCH};
use base64::Engine;
use std::cell::RefCell;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// `localStorage` key of a file: this prefix and the file's path.
const FILE_KEY: &str = "hc11lab.fs:";
/// `localStorage` key of a folder made explicitly (it may hold nothing).
const DIR_KEY: &str = "hc11lab.dir:";
/// Where the course is unpacked: read-only, never written to storage.
pub const COURSE: &str = "/lessons";
/// Where the user's programs go when they are opened from the computer.
pub const FILES: &str = "/files";
/// The data folder (lesson progress, exercise copies).
pub const DATA: &str = "/data";
/// The largest course archive unpacked (all files together).
const MAX_COURSE_BYTES: u64 = 64 << 20;
/// `localStorage` holds 5 million UTF-16 code units per site in Chromium
/// (10 MB; the browser test fills it to the brim); others about as much.
const STORAGE_LIMIT: u64 = 10 << 20;

thread_local! {
    static STORE: RefCell<Option<Store>> = const { RefCell::new(None) };
    static PICKED: RefCell<Vec<Picked>> = const { RefCell::new(Vec::new()) };
    static WAKER: RefCell<Option<Box<dyn Fn()>>> = const { RefCell::new(None) };
}

/// The store, loaded from `localStorage` on first use.
fn with_store<R>(f: impl FnOnce(&mut Store) -> R) -> R {
    STORE.with(|s| {
        let mut s = s.borrow_mut();
        let store = s.get_or_insert_with(load_saved);
        f(store)
    })
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

fn encode(file: &StoredFile) -> String {
    match std::str::from_utf8(&file.bytes) {
        Ok(text) => format!("t{}:{text}", file.modified_ms),
        Err(_) => format!(
            "b{}:{}",
            file.modified_ms,
            base64::engine::general_purpose::STANDARD.encode(&file.bytes)
        ),
    }
}

fn decode(value: &str) -> Option<StoredFile> {
    let (head, body) = value.split_once(':')?;
    let modified_ms = head.get(1..)?.parse().ok()?;
    let bytes = match head.as_bytes().first()? {
        b't' => body.as_bytes().to_vec(),
        b'b' => base64::engine::general_purpose::STANDARD
            .decode(body)
            .ok()?,
        _ => return None,
    };
    Some(StoredFile { bytes, modified_ms })
}

/// Every file and folder the page's storage holds for us.
fn load_saved() -> Store {
    let mut store = Store::new();
    let Some(ls) = local_storage() else {
        return store;
    };
    let n = ls.length().unwrap_or(0);
    let keys: Vec<String> = (0..n).filter_map(|i| ls.key(i).ok().flatten()).collect();
    for key in keys {
        if let Some(path) = key.strip_prefix(FILE_KEY) {
            let value = ls.get_item(&key).ok().flatten().unwrap_or_default();
            match decode(&value) {
                Some(file) => store.insert_loaded(Path::new(path), file),
                None => note(&format!(
                    "hc11lab: the browser's storage holds a damaged copy of {path}; it was left out"
                )),
            }
        } else if let Some(path) = key.strip_prefix(DIR_KEY) {
            let _ = store.create_dir_all(Path::new(path));
        }
    }
    store
}

fn is_course(key: &str) -> bool {
    key == COURSE || key.starts_with(&format!("{COURSE}/"))
}

fn read_only(key: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!("{key} is part of the course, which the page cannot change (Start an exercise for your own copy)"),
    )
}

fn storage_full(what: &str) -> io::Error {
    let used = storage_use().map_or(0, |(u, _)| u);
    io::Error::new(
        io::ErrorKind::StorageFull,
        format!(
            "the browser's storage for this page is full ({} KB used): {what} was not saved. \
             Download what you need (File > Files in the browser) and delete what you no longer need",
            used / 1024
        ),
    )
}

fn set_item(key: &str, value: &str, what: &str) -> io::Result<()> {
    let Some(ls) = local_storage() else {
        return Err(io::Error::other(format!(
            "the browser gives this page no storage: {what} was not saved (a private window, or storage switched off)"
        )));
    };
    ls.set_item(key, value).map_err(|_| storage_full(what))
}

fn remove_item(key: &str) {
    if let Some(ls) = local_storage() {
        let _ = ls.remove_item(key);
    }
}

pub fn spawn(_name: &str, f: impl FnOnce() + Send + 'static) {
    f()
}

pub fn spawn_periodic(_name: &str, every: Duration, mut f: impl FnMut() + Send + 'static) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let tick = Closure::<dyn FnMut()>::new(move || f());
    let ms = i32::try_from(every.as_millis()).unwrap_or(i32::MAX);
    let ok = window
        .set_interval_with_callback_and_timeout_and_arguments_0(tick.as_ref().unchecked_ref(), ms)
        .is_ok();
    // The timer lives as long as the page.
    tick.forget();
    ok
}

pub fn parallelism() -> usize {
    1
}

pub fn note(message: &str) {
    web_sys::console::log_1(&JsValue::from_str(message));
}

pub fn setting(name: &str) -> Option<String> {
    let key = name.strip_prefix("HC11LAB_").unwrap_or(name).to_lowercase();
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(&key)
}

pub fn data_dir() -> Option<PathBuf> {
    Some(PathBuf::from(DATA))
}

pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    with_store(|s| s.read(path))
}

fn time_of(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

pub fn metadata(path: &Path, _follow: bool) -> io::Result<Metadata> {
    match with_store(|s| s.node(path)) {
        Some(Node::File(len, ms)) => Ok(Metadata {
            kind: Kind::File,
            len,
            modified: Some(time_of(ms)),
        }),
        Some(Node::Dir) => Ok(Metadata {
            kind: Kind::Dir,
            len: 0,
            modified: None,
        }),
        None => Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("{}: no such file or folder", store::normalize(path)),
        )),
    }
}

pub fn read_dir(path: &Path) -> io::Result<impl Iterator<Item = DirEntry>> {
    let entries = with_store(|s| s.read_dir(path))?;
    let base = path.to_path_buf();
    Ok(entries.into_iter().map(move |(name, node)| DirEntry {
        path: base.join(&name),
        name,
        kind: match node {
            Node::File(..) => Kind::File,
            Node::Dir => Kind::Dir,
        },
    }))
}

pub fn create_dir_all(path: &Path) -> io::Result<()> {
    let key = store::normalize(path);
    if with_store(|s| s.node(path)) == Some(Node::Dir) {
        return Ok(());
    }
    if is_course(&key) {
        return Err(read_only(&key));
    }
    let made = with_store(|s| s.create_dir_all(path))?;
    for d in &made {
        if let Err(e) = set_item(&format!("{DIR_KEY}{d}"), "", d) {
            with_store(|s| {
                let _ = s.remove_dir_all(Path::new(d));
            });
            return Err(e);
        }
    }
    Ok(())
}

pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let key = store::normalize(path);
    if is_course(&key) {
        return Err(read_only(&key));
    }
    let now = now_ms();
    let before = with_store(|s| s.write(path, bytes, now))?;
    let file = StoredFile {
        bytes: bytes.to_vec(),
        modified_ms: now,
    };
    if let Err(e) = set_item(&format!("{FILE_KEY}{key}"), &encode(&file), &key) {
        with_store(|s| s.restore(path, before));
        return Err(e);
    }
    Ok(())
}

pub fn remove_file(path: &Path) -> io::Result<()> {
    let key = store::normalize(path);
    if is_course(&key) {
        return Err(read_only(&key));
    }
    with_store(|s| s.remove_file(path))?;
    remove_item(&format!("{FILE_KEY}{key}"));
    Ok(())
}

pub fn remove_dir_all(path: &Path) -> io::Result<()> {
    let key = store::normalize(path);
    if is_course(&key) || key == "/" {
        return Err(read_only(&key));
    }
    let (files, dirs) = with_store(|s| s.remove_dir_all(path))?;
    for f in files {
        remove_item(&format!("{FILE_KEY}{f}"));
    }
    for d in dirs {
        remove_item(&format!("{DIR_KEY}{d}"));
    }
    Ok(())
}

pub fn canonicalize(path: &Path) -> io::Result<PathBuf> {
    metadata(path, true).map(|_| store::absolute(path))
}

pub fn modified(path: &Path) -> Option<SystemTime> {
    metadata(path, true).ok().and_then(|m| m.modified)
}

pub fn offer(path: &Path) -> io::Result<()> {
    let bytes = read(path)?;
    let name = path.file_name().map_or_else(
        || "download".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    download(&name, &bytes)
}

pub fn stored_files() -> Option<Vec<(PathBuf, u64)>> {
    Some(with_store(|s| {
        s.files_under(Path::new("/"))
            .into_iter()
            .filter(|(k, _)| !is_course(k))
            .map(|(k, f)| (PathBuf::from(k), f.bytes.len() as u64))
            .collect()
    }))
}

pub fn storage_use() -> Option<(u64, u64)> {
    let ls = local_storage()?;
    let n = ls.length().ok()?;
    let mut units = 0u64;
    for i in 0..n {
        let Some(key) = ls.key(i).ok().flatten() else {
            continue;
        };
        let value = ls.get_item(&key).ok().flatten().unwrap_or_default();
        units += (key.encode_utf16().count() + value.encode_utf16().count()) as u64;
    }
    Some((units * 2, STORAGE_LIMIT))
}

/// Offers `bytes` as a download named `name` (a link the page clicks).
pub fn download(name: &str, bytes: &[u8]) -> io::Result<()> {
    let js = |e: JsValue| io::Error::other(format!("the browser refused the download: {e:?}"));
    let window = web_sys::window().ok_or_else(|| io::Error::other("no window"))?;
    let document = window
        .document()
        .ok_or_else(|| io::Error::other("no document"))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/octet-stream");
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(js)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js)?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(js)?
        .dyn_into()
        .map_err(|_| io::Error::other("no link element"))?;
    a.set_href(&url);
    a.set_download(name);
    a.style().set_property("display", "none").map_err(js)?;
    let body = document
        .body()
        .ok_or_else(|| io::Error::other("no page body"))?;
    body.append_child(&a).map_err(js)?;
    a.click();
    let _ = body.remove_child(&a);
    // The browser reads the blob after the click returns: let it go later.
    let revoke = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    let _ = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000);
    Ok(())
}

fn deliver(picked: Picked) {
    PICKED.with(|p| p.borrow_mut().push(picked));
    WAKER.with(|w| {
        if let Some(w) = w.borrow().as_ref() {
            w();
        }
    });
}

/// Reads the files of a file list (a file input's or a drop's) and hands
/// them over as one answer; a folder's files keep their path inside it.
fn read_files(files: web_sys::FileList) {
    let list: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    wasm_bindgen_futures::spawn_local(async move {
        let mut out = Vec::new();
        for file in list {
            let relative = js_sys::Reflect::get(&file, &JsValue::from_str("webkitRelativePath"))
                .ok()
                .and_then(|v| v.as_string())
                .filter(|s| !s.is_empty());
            let name = relative.unwrap_or_else(|| file.name());
            match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                Ok(buffer) => out.push(PickedFile {
                    name,
                    bytes: js_sys::Uint8Array::new(&buffer).to_vec(),
                }),
                Err(e) => note(&format!(
                    "hc11lab: the browser could not read {name}: {e:?}"
                )),
            }
        }
        deliver(if out.is_empty() {
            Picked::Nothing
        } else {
            Picked::Files(out)
        });
    });
}

pub fn pick(want: Want) -> Option<Picked> {
    let made = (|| -> Result<(), JsValue> {
        let document = web_sys::window()
            .and_then(|w| w.document())
            .ok_or_else(|| JsValue::from_str("no document"))?;
        let input: web_sys::HtmlInputElement = document.create_element("input")?.dyn_into()?;
        input.set_type("file");
        match want {
            Want::Files => input.set_multiple(true),
            Want::Folder => input.set_attribute("webkitdirectory", "")?,
        }
        let source = input.clone();
        let changed = Closure::once_into_js(move || match source.files() {
            Some(files) => read_files(files),
            None => deliver(Picked::Nothing),
        });
        input.add_event_listener_with_callback("change", changed.unchecked_ref())?;
        let cancelled = Closure::once_into_js(move || deliver(Picked::Nothing));
        input.add_event_listener_with_callback("cancel", cancelled.unchecked_ref())?;
        input.click();
        Ok(())
    })();
    match made {
        Ok(()) => None,
        Err(e) => {
            note(&format!("hc11lab: no file dialog: {e:?}"));
            Some(Picked::Nothing)
        }
    }
}

pub fn take_picked() -> Option<Picked> {
    PICKED.with(|p| {
        let mut p = p.borrow_mut();
        (!p.is_empty()).then(|| p.remove(0))
    })
}

pub fn set_waker(waker: Box<dyn Fn() + Send + Sync>) {
    WAKER.with(|w| *w.borrow_mut() = Some(waker));
}

/// A new folder under `/files` named after `suggested` (`name`, `name-2`, ...).
pub fn fresh_folder(suggested: &str) -> io::Result<PathBuf> {
    let clean: String = suggested
        .chars()
        .map(|c| if c == '/' || c == '\\' { '_' } else { c })
        .collect();
    let clean = match clean.trim() {
        "" | "." | ".." => "program".to_string(),
        c => c.to_string(),
    };
    let mut n = 1;
    loop {
        let name = if n == 1 {
            clean.clone()
        } else {
            format!("{clean}-{n}")
        };
        let dir = Path::new(FILES).join(name);
        if with_store(|s| s.node(&dir)).is_none() {
            create_dir_all(&dir)?;
            return Ok(dir);
        }
        n += 1;
    }
}

pub fn pick_save_folder(suggested: &str) -> Option<PathBuf> {
    match fresh_folder(suggested) {
        Ok(d) => Some(d),
        Err(e) => {
            note(&format!("hc11lab: {e}"));
            None
        }
    }
}

pub fn save_as(name: &str, bytes: &[u8]) -> io::Result<Saved> {
    download(name, bytes).map(|()| Saved::Downloaded)
}

/// Files dropped on the page arrive like picked ones: listened to before
/// the window's own handler (which only knows their names).
pub fn listen_for_drops() -> Result<(), JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let dropped = Closure::<dyn FnMut(web_sys::DragEvent)>::new(|event: web_sys::DragEvent| {
        if let Some(files) = event.data_transfer().and_then(|d| d.files()) {
            if files.length() > 0 {
                read_files(files);
            }
        }
    });
    let options = web_sys::AddEventListenerOptions::new();
    options.set_capture(true);
    window.add_event_listener_with_callback_and_add_event_listener_options(
        "drop",
        dropped.as_ref().unchecked_ref(),
        &options,
    )?;
    dropped.forget();
    Ok(())
}

/// Unpacks the course archive (`lessons.zip`: a course folder, as
/// `scripts/pack-lessons.py` packs it, or the lesson folders at its top)
/// into [`COURSE`]. Returns how many files.
pub fn mount_course(bytes: &[u8]) -> Result<usize, String> {
    let mut archive =
        zip::ZipArchive::new(io::Cursor::new(bytes)).map_err(|e| format!("lessons.zip: {e}"))?;
    let names: Vec<String> = archive.file_names().map(str::to_string).collect();
    // One folder around the lesson folders (`lessons/02-cell/lesson.toml`)
    // is the course folder: its name does not matter.
    let tops: std::collections::BTreeSet<&str> =
        names.iter().filter_map(|n| n.split('/').next()).collect();
    let wrapped = tops.len() == 1
        && names.iter().any(|n| {
            let parts: Vec<&str> = n.split('/').collect();
            parts.len() == 3 && (parts[2] == "lesson.toml" || parts[2] == "assignment.toml")
        });
    let mut total = 0u64;
    let mut count = 0;
    let now = now_ms();
    for i in 0..archive.len() {
        let mut entry = archive
            .by_index(i)
            .map_err(|e| format!("lessons.zip: {e}"))?;
        if entry.is_dir() {
            continue;
        }
        let name = entry.name().to_string();
        let inner = match name.split_once('/') {
            Some((_, rest)) if wrapped => rest.to_string(),
            _ => name.clone(),
        };
        let path = Path::new(COURSE).join(&inner);
        let key = store::normalize(&path);
        if !is_course(&key) {
            continue;
        }
        total += entry.size();
        if total > MAX_COURSE_BYTES {
            return Err(format!(
                "lessons.zip: more than {} MB unpacked",
                MAX_COURSE_BYTES >> 20
            ));
        }
        let mut content = Vec::new();
        io::Read::read_to_end(&mut entry, &mut content)
            .map_err(|e| format!("lessons.zip: {name}: {e}"))?;
        with_store(|s| {
            s.insert_loaded(
                &path,
                StoredFile {
                    bytes: content,
                    modified_ms: now,
                },
            )
        });
        count += 1;
    }
    Ok(count)
}

/// Milliseconds since the page started loading (the browser's clock).
pub fn page_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

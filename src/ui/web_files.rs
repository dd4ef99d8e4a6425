//! Files that come from outside the program's own file system, and the
//! page's files. In a browser the file dialog and a drop on the page hand
//! over file contents, not paths: they are copied into a folder of the
//! page's files (`/files/NAME`, kept in the browser's storage) and opened
//! from there; a `.zip` is unpacked into one. File > Download the sources
//! saves the program's sources as a zip (a save dialog on the desktop, a
//! download in a page), and File > Files in the browser lists what the page
//! keeps, how much of the browser's storage it takes, and downloads or
//! deletes it. On the desktop the dialogs answer with paths and only the
//! download shows.

use std::io::Write;
use std::path::{Path, PathBuf};

use egui::{Color32, RichText};

use super::i18n::{tr, trf};
use super::session::Session;
use super::AppInput;
use crate::platform::dialog::{self, Picked, PickedFile, Saved};
use crate::platform::fs;

/// Where a page keeps the programs the user opened from the computer.
pub const PAGE_FILES: &str = "/files";
/// Most entries unpacked from one zip.
const MAX_ZIP_ENTRIES: usize = 2000;
/// Most bytes unpacked from one zip (all files together).
const MAX_ZIP_BYTES: u64 = 32 << 20;

thread_local! {
    /// Where the answer of the browser's dialog goes when [`pick_into`]
    /// asked (the folder, what to open then) instead of a new folder of
    /// the page's files. The answer comes in a later frame, and the dialog
    /// is modal: the next answer (files, or Nothing when cancelled) is it.
    static INTO: std::cell::RefCell<Option<(PathBuf, PathBuf)>> =
        const { std::cell::RefCell::new(None) };
}

/// Asks for files to put into folder `dir` (a file of the same name is
/// replaced), then opens `open`. In a page this is how files edited on the
/// computer reach the student's exercise copy, which lives in the page.
pub fn pick_into(session: &mut Session, dir: &Path, open: &Path) {
    INTO.with(|i| *i.borrow_mut() = Some((dir.to_path_buf(), open.to_path_buf())));
    match dialog::pick(dialog::Want::Files) {
        Some(picked) => open_picked(session, picked),
        None => {
            session.status = tr(session.lang(), "Choose the files in the browser's dialog…").into()
        }
    }
}

/// Opens what the user picked: a path as it is, files read in a page
/// copied into the page's files first ([`import_into`]), or into the
/// folder [`pick_into`] named.
pub fn open_picked(session: &mut Session, picked: Picked) {
    let lang = session.lang();
    if let Some((dir, open)) = INTO.with(|i| i.borrow_mut().take()) {
        let Picked::Files(files) = picked else {
            session.status = tr(lang, "Nothing copied: no file chosen.").into();
            return;
        };
        match put_into(&dir, &files) {
            Ok(names) => {
                session.open(AppInput::Path(open.clone()));
                crate::platform::note(&format!(
                    "hc11lab: put {} into {} and opened {} ({})",
                    names.join(", "),
                    dir.display(),
                    open.display(),
                    if session.has_machine() {
                        "loaded"
                    } else {
                        "not loaded: see Problems"
                    }
                ));
                if session.has_machine() {
                    session.status = trf(
                        lang,
                        "Copied into {}: {}.",
                        &[&dir.display(), &names.join(", ")],
                    );
                }
            }
            Err(e) => session.status = e,
        }
        return;
    }
    match picked {
        Picked::Path(p) => session.open(AppInput::Path(p)),
        Picked::Files(files) => match import_into(Path::new(PAGE_FILES), &files) {
            Ok(path) => {
                session.open(AppInput::Path(path.clone()));
                crate::platform::note(&format!(
                    "hc11lab: opened {} ({})",
                    path.display(),
                    if session.has_machine() {
                        "loaded"
                    } else {
                        "not loaded: see Problems"
                    }
                ));
                if session.has_machine() {
                    session.status = trf(
                        lang,
                        "Opened {}: a copy kept in the browser as {}.",
                        &[&session.title(), &path.display()],
                    );
                }
            }
            Err(e) => session.status = e,
        },
        Picked::Nothing => {
            session.status = tr(
                lang,
                "No file chosen (or no file dialog available: pass the path on the command line, `hc11lab gui PATH`).",
            )
            .into()
        }
    }
}

/// The files of a zip, by their path inside it (`..` and absolute names
/// refused, the systems' litter left out), within fixed limits.
pub fn unzip(name: &str, bytes: &[u8]) -> Result<Vec<PickedFile>, String> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| format!("{name}: not a zip archive I can read ({e})"))?;
    if archive.len() > MAX_ZIP_ENTRIES {
        return Err(format!(
            "{name}: more than {MAX_ZIP_ENTRIES} entries; zip only the program's folder"
        ));
    }
    let mut out = Vec::new();
    let mut total = 0u64;
    for i in 0..archive.len() {
        let entry = archive
            .by_index(i)
            .map_err(|e| format!("{name}: entry {i}: {e}"))?;
        let raw = entry.name().to_string();
        let Some(parts) = crate::grade::submission::normalize(&raw) else {
            return Err(format!(
                "{name}: `{raw}` points outside the archive; it was not opened"
            ));
        };
        let junk = parts
            .iter()
            .any(|c| c == "__MACOSX" || c == ".DS_Store" || c == "Thumbs.db");
        if entry.is_dir() || parts.is_empty() || junk {
            continue;
        }
        total += entry.size();
        if total > MAX_ZIP_BYTES {
            return Err(format!(
                "{name}: more than {} MB unpacked; zip only the program's folder",
                MAX_ZIP_BYTES >> 20
            ));
        }
        let mut content = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(entry, MAX_ZIP_BYTES + 1),
            &mut content,
        )
        .map_err(|e| format!("{name}: {raw}: {e}"))?;
        out.push(PickedFile {
            name: parts.join("/"),
            bytes: content,
        });
    }
    if out.is_empty() {
        return Err(format!("{name}: the archive holds no files"));
    }
    Ok(out)
}

fn stem(name: &str) -> String {
    let file = name.rsplit('/').next().unwrap_or(name);
    Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
}

fn is_ext(name: &str, ext: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// True if folder `dir` holds exactly `files` (so opening the same files
/// again reuses it instead of making another copy).
fn holds_exactly(dir: &Path, files: &[PickedFile]) -> bool {
    let mut count = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            return false;
        };
        for e in entries {
            match e.kind {
                fs::Kind::Dir => stack.push(e.path),
                _ => count += 1,
            }
        }
    }
    count == files.len()
        && files
            .iter()
            .all(|f| fs::read(&dir.join(&f.name)).is_ok_and(|b| b == f.bytes))
}

/// Copies picked or dropped files into a folder under `root` and returns
/// what to open: a `.zip` is unpacked; files of one folder (a folder
/// picked or zipped whole) go into a folder of that name, loose files into
/// one named after the first `.asm` (else the first file). A folder of
/// that name that holds the same files is used again, else `NAME-2`, ...
/// One loose file opens as itself, anything else as its folder.
pub fn import_into(root: &Path, files: &[PickedFile]) -> Result<PathBuf, String> {
    if let [one] = files {
        if is_ext(&one.name, "zip") {
            let inner = unzip(&one.name, &one.bytes)?;
            return import_named(root, &stem(&one.name), &inner);
        }
    }
    let Some(first) = files.first() else {
        return Err("no files".into());
    };
    let name = files
        .iter()
        .find(|f| is_ext(&f.name, "asm"))
        .map_or_else(|| stem(&first.name), |f| stem(&f.name));
    import_named(root, &name, files)
}

/// Writes `files` into folder `dir` (made if missing), replacing files of
/// the same name and leaving the others: a `.zip` is unpacked, one folder
/// around everything (a picked folder) is left out. Returns the names.
pub fn put_into(dir: &Path, files: &[PickedFile]) -> Result<Vec<String>, String> {
    let unzipped;
    let files = match files {
        [one] if is_ext(&one.name, "zip") => {
            unzipped = unzip(&one.name, &one.bytes)?;
            &unzipped[..]
        }
        _ => files,
    };
    let (_, files) = without_top(files)?;
    for f in &files {
        let path = dir.join(&f.name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::write(&path, &f.bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(files.into_iter().map(|f| f.name).collect())
}

/// The files with clean relative names; if one folder holds them all (a
/// picked folder, a zip of one), its name and the files without it.
fn without_top(files: &[PickedFile]) -> Result<(Option<String>, Vec<PickedFile>), String> {
    let clean: Vec<PickedFile> = files
        .iter()
        .filter_map(|f| {
            let parts = crate::grade::submission::normalize(&f.name)?;
            (!parts.is_empty()).then(|| PickedFile {
                name: parts.join("/"),
                bytes: f.bytes.clone(),
            })
        })
        .collect();
    if clean.is_empty() {
        return Err("none of the files has a name that can be kept".into());
    }
    let top = clean[0].name.split_once('/').map(|(t, _)| t.to_string());
    Ok(match top {
        Some(t) if clean.iter().all(|f| f.name.starts_with(&format!("{t}/"))) => {
            let inner = clean
                .iter()
                .map(|f| PickedFile {
                    name: f.name[t.len() + 1..].to_string(),
                    bytes: f.bytes.clone(),
                })
                .collect();
            (Some(t), inner)
        }
        _ => (None, clean),
    })
}

fn import_named(root: &Path, name: &str, files: &[PickedFile]) -> Result<PathBuf, String> {
    // One folder around everything (a picked folder, a zip of one): it
    // names the copy.
    let (top, files) = without_top(files)?;
    let name = top.unwrap_or_else(|| name.to_string());
    let name = match name.trim() {
        "" | "." | ".." => "program".to_string(),
        n => n.to_string(),
    };
    let dir = (1..)
        .map(|n| {
            root.join(if n == 1 {
                name.clone()
            } else {
                format!("{name}-{n}")
            })
        })
        .find(|d| !fs::exists(d) || holds_exactly(d, &files))
        .unwrap_or_else(|| root.join(&name));
    for f in &files {
        let path = dir.join(&f.name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::write(&path, &f.bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(match files.as_slice() {
        [one] if !one.name.contains('/') => dir.join(&one.name),
        _ => dir,
    })
}

/// A zip of `files` (path inside the zip, bytes), deflated.
pub fn zip_files(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        zip.start_file(name.as_str(), options)
            .map_err(|e| format!("{name}: {e}"))?;
        zip.write_all(bytes).map_err(|e| format!("{name}: {e}"))?;
    }
    zip.finish()
        .map(|c| c.into_inner())
        .map_err(|e| e.to_string())
}

/// The program's sources as a zip (their paths relative to the main file).
pub fn sources_zip(session: &Session) -> Result<Vec<u8>, String> {
    let files: Vec<(String, Vec<u8>)> = session
        .source_files()
        .into_iter()
        .map(|(p, text)| {
            let name = p
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            (name, text.into_bytes())
        })
        .collect();
    if files.is_empty() {
        return Err(tr(
            session.lang(),
            "nothing to save: the program has no source files",
        )
        .into());
    }
    zip_files(&files)
}

/// Every file under `dir` as (path relative to `dir`, bytes).
fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((d, prefix)) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let rel = if prefix.is_empty() {
                e.name.clone()
            } else {
                format!("{prefix}/{}", e.name)
            };
            match e.kind {
                fs::Kind::Dir => stack.push((e.path, rel)),
                _ => {
                    if let Ok(b) = fs::read(&e.path) {
                        out.push((rel, b));
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The page's files grouped as the user thinks of them: each program under
/// `/files`, each exercise copy, each other file; with its size in bytes.
pub fn groups(files: &[(PathBuf, u64)]) -> Vec<(PathBuf, u64)> {
    let mut out: Vec<(PathBuf, u64)> = Vec::new();
    for (path, len) in files {
        let parts: Vec<String> = path
            .components()
            .filter_map(|c| match c {
                std::path::Component::Normal(p) => Some(p.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect();
        let depth = match parts.first().map(String::as_str) {
            Some("files") => 2,
            Some("data") if parts.get(1).map(String::as_str) == Some("exercises") => 3,
            _ => parts.len(),
        };
        let group: PathBuf = std::iter::once("/".to_string())
            .chain(parts.into_iter().take(depth))
            .collect();
        match out.iter_mut().find(|(g, _)| *g == group) {
            Some((_, total)) => *total += len,
            None => out.push((group, *len)),
        }
    }
    out.sort();
    out
}

/// The File menu's part for files from outside and the page's files, and
/// the window listing the page's files.
#[derive(Default)]
pub struct WebFiles {
    /// The window with the page's files is open.
    pub open: bool,
    /// Asked once: the next click on Delete deletes this.
    confirm: Option<PathBuf>,
    message: Option<String>,
}

impl WebFiles {
    /// File menu entries: download the sources; in a page also the page's
    /// files.
    pub fn menu(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let lang = session.lang();
        let t = |s: &'static str| tr(lang, s);
        if ui
            .button(t("Download the sources (.zip)…"))
            .on_hover_text(t(
                "The program's source files in one zip, saved where you choose (in a browser: downloaded)",
            ))
            .clicked()
        {
            let name = format!("{}.zip", session.program_stem());
            session.status = match sources_zip(session).and_then(|z| {
                dialog::save_as(&name, &z).map_err(|e| e.to_string())
            }) {
                Ok(Saved::To(p)) => trf(lang, "Saved {}.", &[&p.display()]),
                Ok(Saved::Downloaded) => trf(lang, "Downloaded {}.", &[&name]),
                Ok(Saved::Cancelled) => t("Not saved.").into(),
                Err(e) => e,
            };
            ui.close();
        }
        if fs::stored_files().is_some() && ui.button(t("Files in the browser…")).clicked() {
            self.open = true;
            ui.close();
        }
    }

    /// Once per frame: opens what a browser dialog or a drop delivered, and
    /// shows the window with the page's files when it is open.
    pub fn show(&mut self, ctx: &egui::Context, session: &mut Session) {
        while let Some(picked) = dialog::take() {
            open_picked(session, picked);
        }
        if !self.open {
            return;
        }
        let Some(files) = fs::stored_files() else {
            return;
        };
        let lang = session.lang();
        let t = |s: &'static str| tr(lang, s);
        let mut open = self.open;
        egui::Window::new(t("Files in the browser"))
            .open(&mut open)
            .default_width(460.0)
            .show(ctx, |ui| {
                if let Some((used, limit)) = fs::storage_use() {
                    ui.label(trf(
                        lang,
                        "This page keeps {} KB in the browser's storage (about {} KB allowed).",
                        &[&(used / 1024), &(limit / 1024)],
                    ));
                }
                ui.add(
                    egui::Label::new(
                        RichText::new(t(
                            "Your files stay in this browser only: download what you want to keep elsewhere.",
                        ))
                        .weak(),
                    )
                    .wrap(),
                );
                ui.separator();
                let list = groups(&files);
                if list.is_empty() {
                    ui.label(t("(none)"));
                }
                egui::ScrollArea::vertical()
                    .max_height(320.0)
                    .show(ui, |ui| {
                        for (group, size) in &list {
                            self.row(ui, session, group, *size);
                        }
                    });
                if let Some(m) = &self.message {
                    ui.separator();
                    ui.add(egui::Label::new(m.as_str()).wrap());
                }
            });
        self.open = open;
    }

    fn row(&mut self, ui: &mut egui::Ui, session: &mut Session, group: &Path, size: u64) {
        let lang = session.lang();
        let t = |s: &'static str| tr(lang, s);
        ui.horizontal(|ui| {
            ui.label(RichText::new(group.display().to_string()).monospace());
            ui.label(RichText::new(format!("{:.1} KB", size as f64 / 1024.0)).weak());
            let is_dir = fs::is_dir(group);
            if ui.small_button(t("Open")).clicked() {
                session.open(AppInput::Path(group.to_path_buf()));
            }
            if ui.small_button(t("Download")).clicked() {
                let result = if is_dir {
                    let name = format!("{}.zip", stem(&group.display().to_string()));
                    zip_files(&files_of(group))
                        .and_then(|z| dialog::save_as(&name, &z).map_err(|e| e.to_string()))
                        .map(|_| ())
                } else {
                    fs::offer(group).map_err(|e| e.to_string())
                };
                self.message = result.err();
            }
            let asking = self.confirm.as_deref() == Some(group);
            let label = if asking {
                t("Really delete?")
            } else {
                t("Delete")
            };
            let delete =
                ui.small_button(RichText::new(label).color(Color32::from_rgb(0xE0, 0x60, 0x60)));
            if delete.clicked() {
                if asking {
                    let removed = if is_dir {
                        fs::remove_dir_all(group)
                    } else {
                        fs::remove_file(group)
                    };
                    self.message = Some(match removed {
                        Ok(()) => trf(lang, "Deleted {}.", &[&group.display()]),
                        Err(e) => format!("{}: {e}", group.display()),
                    });
                    self.confirm = None;
                } else {
                    self.confirm = Some(group.to_path_buf());
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> PickedFile {
        PickedFile {
            name: name.into(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("hc11lab-import-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch");
        d
    }

    #[test]
    fn loose_files_go_into_a_folder_named_after_the_program() {
        let root = scratch("loose");
        let files = [file("Board.inc", "x equ 1\n"), file("Game.asm", "\tnop\n")];
        let opened = import_into(&root, &files).expect("imported");
        assert_eq!(opened, root.join("Game"));
        assert_eq!(
            std::fs::read_to_string(root.join("Game/Board.inc")).unwrap(),
            "x equ 1\n"
        );
        // The same files again: the same folder; other files: a new one.
        assert_eq!(import_into(&root, &files).unwrap(), root.join("Game"));
        let changed = [file("Board.inc", "x equ 2\n"), file("Game.asm", "\tnop\n")];
        assert_eq!(import_into(&root, &changed).unwrap(), root.join("Game-2"));
        // One file opens as itself.
        assert_eq!(
            import_into(&root, &[file("one.s19", "S9030000FC\n")]).unwrap(),
            root.join("one/one.s19")
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_picked_folder_keeps_its_name_and_a_zip_is_unpacked() {
        let root = scratch("folder");
        let files = [
            file("game/src/Utils.inc", "rts\n"),
            file("game/Viergewinnt.asm", "\tnop\n"),
        ];
        assert_eq!(import_into(&root, &files).unwrap(), root.join("game"));
        assert!(root.join("game/src/Utils.inc").is_file());
        let zipped = zip_files(&[
            ("Viergewinnt.asm".into(), b"\tnop\n".to_vec()),
            ("__MACOSX/._x".into(), b"junk".to_vec()),
        ])
        .unwrap();
        let z = PickedFile {
            name: "hand-in.zip".into(),
            bytes: zipped,
        };
        let opened = import_into(&root, &[z]).unwrap();
        assert_eq!(opened, root.join("hand-in/Viergewinnt.asm"));
        assert!(!root.join("hand-in/__MACOSX").exists());
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn files_put_into_a_copy_replace_their_namesakes_and_keep_the_rest() {
        let work = scratch("into");
        std::fs::write(work.join("Game.asm"), "old\n").unwrap();
        std::fs::write(work.join("Board.inc"), "kept\n").unwrap();
        let names = put_into(&work, &[file("Game.asm", "new\n")]).unwrap();
        assert_eq!(names, ["Game.asm"]);
        assert_eq!(
            std::fs::read_to_string(work.join("Game.asm")).unwrap(),
            "new\n"
        );
        assert_eq!(
            std::fs::read_to_string(work.join("Board.inc")).unwrap(),
            "kept\n"
        );
        // A picked folder's own name and a zip's are left out.
        put_into(&work, &[file("mine/Board.inc", "mine\n")]).unwrap();
        assert_eq!(
            std::fs::read_to_string(work.join("Board.inc")).unwrap(),
            "mine\n"
        );
        let zipped = zip_files(&[("Game.asm".into(), b"zipped\n".to_vec())]).unwrap();
        let z = PickedFile {
            name: "e1-draw.zip".into(),
            bytes: zipped,
        };
        assert_eq!(put_into(&work, &[z]).unwrap(), ["Game.asm"]);
        assert_eq!(
            std::fs::read_to_string(work.join("Game.asm")).unwrap(),
            "zipped\n"
        );
        assert!(put_into(&work, &[file("../x.asm", "no\n")]).is_err());
        assert!(!work.join("../x.asm").exists());
        let _ = std::fs::remove_dir_all(&work);
    }

    #[test]
    fn a_zip_that_climbs_out_is_refused() {
        let evil = zip_files(&[("../../etc/x.asm".into(), b"nop".to_vec())]).unwrap();
        let e = unzip("evil.zip", &evil).unwrap_err();
        assert!(e.contains("outside the archive"), "{e}");
        assert!(unzip("no.zip", b"PK not really").is_err());
    }

    #[test]
    fn the_page_files_are_grouped_by_program_and_exercise() {
        let files = [
            (PathBuf::from("/files/game/a.asm"), 10),
            (PathBuf::from("/files/game/lib/b.inc"), 5),
            (PathBuf::from("/data/exercises/e1-draw/V.asm"), 7),
            (PathBuf::from("/data/exercises/e1-draw.zip"), 3),
            (PathBuf::from("/data/lesson-progress.json"), 2),
        ];
        assert_eq!(
            groups(&files),
            vec![
                (PathBuf::from("/data/exercises/e1-draw"), 7),
                (PathBuf::from("/data/exercises/e1-draw.zip"), 3),
                (PathBuf::from("/data/lesson-progress.json"), 2),
                (PathBuf::from("/files/game"), 15),
            ]
        );
    }
}

//! The hc11lab desktop app (eframe + egui): one file per panel, all reading
//! and commanding one [`session::Session`]. The window shows how a listing
//! line turns bytes of the cell buffer into LCD pixels; every action is a
//! library call (`Program`, the machine), no emulator logic lives here.
//!
//! Owns: the window, its panels, settings and what the user sees. Must not
//! know about: how anything is computed (assembling, running, grading and
//! lessons are library calls, the same the tests make).

pub mod app;
pub mod autorun;
pub mod bench_panel;
pub mod cells;
pub mod course;
pub mod debug_words;
pub mod editor;
pub mod exercises;
pub mod goto;
pub mod i18n;
pub mod keys;
pub mod labels;
pub mod layout;
pub mod lcd;
pub mod lessons_panel;
pub mod links;
pub mod listing;
pub mod load;
pub mod markdown;
pub mod memory;
pub mod panels;
pub mod registers;
pub mod serial;
pub mod session;
pub mod settings;
pub mod side;
pub mod syntax;
pub mod texture;
pub mod theme;
pub mod watcher;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod web_files;

use std::path::PathBuf;

/// What the app opens on start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum AppInput {
    /// The Viergewinnt firmware bundled into the binary.
    #[default]
    Bundled,
    /// A `.asm` file, a folder (its main `.asm`), an `.s19` or an ELF file.
    Path(PathBuf),
}

/// Opens the hc11lab window on `initial` and runs until it is closed (on
/// the desktop; a page starts through `ui::web`).
///
/// The window title starts with `hc11lab`. With `HC11LAB_AUTORUN` set, a key
/// script runs at start (see [`autorun`]).
#[cfg(not(target_arch = "wasm32"))]
pub fn run_app(initial: AppInput) -> eframe::Result<()> {
    let autorun = autorun::Autorun::from_env();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("hc11lab")
            .with_inner_size(
                autorun
                    .as_ref()
                    .and_then(|a| a.size)
                    .unwrap_or([1280.0, 800.0]),
            )
            // Small screens work too (the layout turns compact).
            .with_min_inner_size([480.0, 300.0]),
        persist_window: autorun.is_none(),
        // Dithering costs a few operations per pixel in the fragment shader;
        // the window has no gradients to dither, and under a software
        // rasterizer every pixel's shader time counts.
        dithering: false,
        ..Default::default()
    };
    eframe::run_native(
        "hc11lab",
        options,
        Box::new(move |cc| Ok(Box::new(app::App::new(cc, initial, autorun)))),
    )
}

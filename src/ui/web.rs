//! The page's start (WebAssembly only): unpack the course from
//! `lessons.zip` beside the page into the page's files, listen for files
//! dropped on the page, then run the same [`App`] as the desktop on the
//! page's canvas (`<canvas id="hc11lab_canvas">`). `?autorun=` in the
//! address takes what `HC11LAB_AUTORUN` takes on the desktop
//! ([`super::autorun`]); its report goes to the browser's console.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::app::App;
use super::autorun::Autorun;
use super::AppInput;
use crate::platform::{note, web as page};

/// The canvas the window is drawn on.
const CANVAS: &str = "hc11lab_canvas";
/// The course archive, beside `index.html`.
const COURSE_ZIP: &str = "lessons.zip";
/// The element that says the page is loading (removed at the first frame).
const LOADING: &str = "hc11lab_loading";

/// Starts the page (called once from `main`).
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        if let Err(e) = run().await {
            let message = format!("hc11lab could not start: {e:?}");
            note(&message);
            show_loading_text(&message);
        }
    });
}

fn show_loading_text(text: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(LOADING))
    {
        el.set_text_content(Some(text));
    }
}

/// The bytes at `url` (same site), or `None` if the server has none.
async fn fetch_bytes(url: &str) -> Result<Option<Vec<u8>>, JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response =
        wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url))
            .await?
            .dyn_into()?;
    if !response.ok() {
        return Ok(None);
    }
    let buffer = wasm_bindgen_futures::JsFuture::from(response.array_buffer()?).await?;
    Ok(Some(js_sys::Uint8Array::new(&buffer).to_vec()))
}

async fn run() -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let canvas: web_sys::HtmlCanvasElement = document
        .get_element_by_id(CANVAS)
        .ok_or("no canvas with id hc11lab_canvas in the page")?
        .dyn_into()?;
    note(&format!(
        "hc11lab: started {:.0} ms after the page started loading",
        page::page_ms()
    ));
    show_loading_text("Loading the course…");
    match fetch_bytes(COURSE_ZIP).await {
        Ok(Some(bytes)) => match page::mount_course(&bytes) {
            Ok(n) => note(&format!("hc11lab: course unpacked ({n} files)")),
            Err(e) => note(&format!("hc11lab: {e}; the bundled lessons are used")),
        },
        Ok(None) => note("hc11lab: no lessons.zip beside the page; the bundled lessons are used"),
        Err(e) => note(&format!(
            "hc11lab: lessons.zip could not be fetched ({e:?}); the bundled lessons are used"
        )),
    }
    note(&format!(
        "hc11lab: course ready at {:.0} ms",
        page::page_ms()
    ));
    page::listen_for_drops()?;
    plain_webgl_context(&canvas);
    let autorun = Autorun::from_env();
    let options = eframe::WebOptions {
        // As on the desktop: no gradients to dither, and every shaded pixel
        // counts under a software rasterizer.
        dithering: false,
        ..Default::default()
    };
    eframe::WebRunner::new()
        .start(
            canvas,
            options,
            Box::new(move |cc| {
                Ok(Box::new(PageApp {
                    app: App::new(cc, AppInput::Bundled, autorun),
                    first_frame: true,
                }))
            }),
        )
        .await
}

/// Creates the canvas's WebGL 2 context without multisampling before
/// eframe asks for it (a canvas keeps the context it was first given, and
/// eframe asks with the browser's defaults, which multisample). egui
/// smooths its own edges (feathering), so the samples only cost: four per
/// pixel under a software rasterizer such as SwiftShader. If the browser
/// has no WebGL 2, eframe falls back as it would have.
fn plain_webgl_context(canvas: &web_sys::HtmlCanvasElement) {
    let options = js_sys::Object::new();
    for (key, on) in [
        ("antialias", false),
        ("depth", false),
        ("stencil", false),
        ("premultipliedAlpha", true),
        ("preserveDrawingBuffer", false),
    ] {
        let _ = js_sys::Reflect::set(&options, &JsValue::from_str(key), &JsValue::from_bool(on));
    }
    if let Err(e) = canvas.get_context_with_context_options("webgl2", &options) {
        note(&format!(
            "hc11lab: no plain WebGL 2 context ({e:?}); the browser's default is used"
        ));
    }
}

/// The app with what only the page does: say when the first frame was drawn.
struct PageApp {
    app: App,
    first_frame: bool,
}

impl eframe::App for PageApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.app.ui(ui, frame);
        if std::mem::take(&mut self.first_frame) {
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(LOADING))
            {
                el.remove();
            }
            // Said once the browser has painted it: a timer set now runs
            // after the task that draws this frame.
            let said = Closure::once_into_js(|| {
                note(&format!(
                    "hc11lab: first frame {:.0} ms after the page started loading",
                    page::page_ms()
                ))
            });
            if let Some(w) = web_sys::window() {
                let _ = w
                    .set_timeout_with_callback_and_timeout_and_arguments_0(said.unchecked_ref(), 0);
            }
        }
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        self.app.clear_color(visuals)
    }

    fn persist_egui_memory(&self) -> bool {
        self.app.persist_egui_memory()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.app.save(storage)
    }

    /// The page may be closed or reloaded at any moment (a browser does not
    /// reliably say so first): the settings are saved every two seconds.
    fn auto_save_interval(&self) -> std::time::Duration {
        std::time::Duration::from_secs(2)
    }
}

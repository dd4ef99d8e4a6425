//! A texture uploaded to the GPU again only when its picture changed: the
//! LCD and the cell buffer show the same picture in most frames, and with a
//! software renderer every upload costs.

use egui::{ColorImage, TextureHandle, TextureId, TextureOptions};

/// The texture of a panel's picture and the picture it holds.
#[derive(Default)]
pub struct CachedTexture {
    tex: Option<(TextureHandle, ColorImage)>,
}

impl CachedTexture {
    /// Makes the texture show `image` (uploading it only if it differs from
    /// what it shows) and returns its id for painting.
    pub fn show(&mut self, ctx: &egui::Context, name: &str, image: ColorImage) -> TextureId {
        match &mut self.tex {
            Some((t, old)) => {
                if *old != image {
                    t.set(image.clone(), TextureOptions::NEAREST);
                    *old = image;
                }
                t.id()
            }
            None => {
                let t = ctx.load_texture(name, image.clone(), TextureOptions::NEAREST);
                let id = t.id();
                self.tex = Some((t, image));
                id
            }
        }
    }
}

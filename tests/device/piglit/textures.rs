//! GL texture objects as shader_runner's `texture …` and `texparameter`
//! commands leave them, with the texel contents of piglit's helpers in
//! tests/util/piglit-util-gl.c (`piglit_rgbw_texture`,
//! `piglit_miptree_texture`, `piglit_depth_texture`). Row 0 of an image is t = 0, in GL and in Vulkan
//! alike, so the rows are uploaded as they are.

use super::script::{CompareFunc, DepthMode, Filter, TexParam, TexTarget, TextureCmd};

/// Texels of one texture object: RGBA floats or depth values, per level.
#[derive(Clone, Debug, PartialEq)]
pub enum Texels {
    Rgba(Vec<Vec<[f32; 4]>>),
    Depth(Vec<Vec<f32>>),
}

/// A texture object bound to a unit.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureObject {
    pub target: TexTarget,
    pub width: u32,
    pub height: u32,
    pub texels: Texels,
    pub min_filter: Filter,
    pub mag_filter: Filter,
    /// TEXTURE_COMPARE_MODE is COMPARE_R_TO_TEXTURE.
    pub compare: bool,
    pub compare_func: CompareFunc,
    pub depth_mode: DepthMode,
}

impl TextureObject {
    /// The object a `texture …` command creates (and binds to its unit).
    pub fn create(cmd: &TextureCmd) -> (u32, TextureObject) {
        let plain = |target, width, height, texels| TextureObject {
            target,
            width,
            height,
            texels,
            min_filter: Filter::Nearest,
            mag_filter: Filter::Nearest,
            compare: false,
            compare_func: CompareFunc::Lequal,
            depth_mode: DepthMode::Luminance,
        };
        match *cmd {
            TextureCmd::Rgbw {
                unit,
                width,
                height,
            } => (
                unit,
                plain(
                    TexTarget::D2,
                    width,
                    height,
                    Texels::Rgba(vec![rgbw(width, height)]),
                ),
            ),
            TextureCmd::Miptree { unit } => {
                // color_wheel: one solid colour per level, 8x8 down to 1x1.
                let wheel = [
                    [1.0, 0.0, 0.0, 1.0],
                    [0.0, 1.0, 0.0, 1.0],
                    [0.0, 0.0, 1.0, 1.0],
                    [1.0, 1.0, 1.0, 1.0],
                ];
                let levels = (0..4)
                    .map(|l| vec![wheel[l]; (8usize >> l) * (8usize >> l)])
                    .collect();
                let mut t = plain(TexTarget::D2, 8, 8, Texels::Rgba(levels));
                t.min_filter = Filter::NearestMipmapNearest;
                (unit, t)
            }
            TextureCmd::Shadow {
                unit,
                target,
                width,
                height,
            } => {
                let row: Vec<f32> = (0..width)
                    .map(|x| x as f32 / (width.max(2) - 1) as f32)
                    .collect();
                let texels = (0..height).flat_map(|_| row.iter().copied()).collect();
                let mut t = plain(target, width, height, Texels::Depth(vec![texels]));
                t.compare = true;
                t.compare_func = CompareFunc::Greater;
                (unit, t)
            }
        }
    }

    /// Applies `texparameter`.
    pub fn set(&mut self, param: TexParam) {
        match param {
            TexParam::CompareFunc(f) => self.compare_func = f,
            TexParam::DepthMode(m) => self.depth_mode = m,
            TexParam::MinFilter(f) => self.min_filter = f,
            TexParam::MagFilter(f) => self.mag_filter = f,
        }
    }

    /// Levels the minification filter can reach: all of them with a mipmap
    /// filter, level 0 otherwise.
    pub fn levels_used(&self) -> usize {
        let n = match &self.texels {
            Texels::Rgba(l) => l.len(),
            Texels::Depth(l) => l.len(),
        };
        match self.min_filter {
            Filter::Nearest | Filter::Linear => 1,
            _ => n,
        }
    }
}

/// piglit_rgbw_image: red at (x < w/2, y < h/2), green right of it, blue
/// above it, white in the other quadrant; alpha 1.
fn rgbw(w: u32, h: u32) -> Vec<[f32; 4]> {
    let mut out = Vec::with_capacity((w * h) as usize);
    for y in 0..h {
        for x in 0..w {
            out.push(if x < w / 2 && y < h / 2 {
                [1.0, 0.0, 0.0, 1.0]
            } else if y < h / 2 {
                [0.0, 1.0, 0.0, 1.0]
            } else if x < w / 2 {
                [0.0, 0.0, 1.0, 1.0]
            } else {
                [1.0, 1.0, 1.0, 1.0]
            });
        }
    }
    out
}

//! piglit's probes over read-back frames, and the pixel comparison of two
//! backends' frames (the differential oracle).
//!
//! * `probe rgba|rgb x y …` and `relative probe …` (piglit_probe_pixel_rgba):
//!   the pixel is read as floats, byte / 255, and fails when any channel
//!   differs from the expected value by more than the tolerance (0.01 unless
//!   a `tolerance` command changed it).
//! * `probe all rgba|rgb …` (piglit_probe_rect_rgba on an 8-bit window,
//!   probe_rect_ubyte): every pixel is read as bytes; the expected byte is
//!   the expected value × 255 truncated, the tolerance ceil(tolerance × 255)
//!   bytes (3 by default); a channel fails when it differs by more.
//! * `probe depth x y d` (piglit_probe_pixel_depth): fails unless
//!   |depth − d| < 0.01.

use crate::harness::SceneFrame;

use super::gl::{Plan, Probe, ProbeKind};

/// One failed probe.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeFailure {
    pub line: usize,
    pub message: String,
}

/// Checks every probe of `plan` against the frames a backend read.
pub fn check(plan: &Plan, frames: &[SceneFrame]) -> Vec<ProbeFailure> {
    plan.probes()
        .filter_map(|p| match frames.get(p.frame) {
            None => Some(ProbeFailure {
                line: p.line,
                message: format!(
                    "no read-back {} (the backend read {})",
                    p.frame,
                    frames.len()
                ),
            }),
            Some(f) => check_one(p, f).err().map(|message| ProbeFailure {
                line: p.line,
                message,
            }),
        })
        .collect()
}

fn inside(f: &SceneFrame, x: i32, y: i32) -> Result<(u32, u32), String> {
    if x < 0 || y < 0 || x as u32 >= f.width || y as u32 >= f.height {
        Err(format!(
            "pixel ({x}, {y}) is outside the {}x{} window",
            f.width, f.height
        ))
    } else {
        Ok((x as u32, y as u32))
    }
}

fn check_one(p: &Probe, f: &SceneFrame) -> Result<(), String> {
    match &p.kind {
        ProbeKind::Pixel { x, y, expected } => {
            let (x, y) = inside(f, *x, *y)?;
            let got = f.rgba_at(x, y);
            let bad = (0..expected.len()).any(|i| (got[i] - expected[i]).abs() > p.tolerance[i]);
            if bad {
                return Err(format!(
                    "probe at ({x}, {y}): expected {expected:?}, observed {:?} (tolerance {:?})",
                    &got[..expected.len()],
                    &p.tolerance[..expected.len()]
                ));
            }
            Ok(())
        }
        ProbeKind::All { expected } => {
            let n = expected.len();
            let want: Vec<i32> = expected.iter().map(|&e| (e * 255.0) as u8 as i32).collect();
            let tol: Vec<i32> = p.tolerance[..n]
                .iter()
                .map(|&t| (t * 255.0).ceil() as i32)
                .collect();
            for y in 0..f.height {
                for x in 0..f.width {
                    let got = f.rgba8_at(x, y);
                    if (0..n).any(|i| (got[i] as i32 - want[i]).abs() > tol[i]) {
                        return Err(format!(
                            "probe all: pixel ({x}, {y}) is {:?}, expected {:?} (bytes, tolerance {:?})",
                            &got[..n],
                            want,
                            tol
                        ));
                    }
                }
            }
            Ok(())
        }
        ProbeKind::Depth { x, y, expected } => {
            let (x, y) = inside(f, *x, *y)?;
            match f.depth_at(x, y) {
                None => Err("probe depth without a depth buffer ([require] depthbuffer)".into()),
                Some(d) if (d - expected).abs() < 0.01 => Ok(()),
                Some(d) => Err(format!(
                    "probe depth at ({x}, {y}): expected {expected}, observed {d}"
                )),
            }
        }
    }
}

/// How two backends' frames compare: pixels (and depth samples) compared,
/// and the ones that differ by more than `max_byte_diff` in a channel (or
/// 1e-5 in depth).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameDiff {
    pub pixels: usize,
    pub depth_samples: usize,
    /// The differing pixels (the first 250 000: four whole frames).
    pub mismatches: Vec<Mismatch>,
    pub mismatch_count: usize,
    pub depth_mismatches: usize,
}

/// A pixel two backends drew differently: (frame, x, y, one's RGBA, the
/// other's).
pub type Mismatch = (usize, u32, u32, [u8; 4], [u8; 4]);

/// Compares frame by frame, pixel by pixel.
pub fn compare(a: &[SceneFrame], b: &[SceneFrame], max_byte_diff: u8) -> Result<FrameDiff, String> {
    if a.len() != b.len() {
        return Err(format!("{} frames against {}", a.len(), b.len()));
    }
    let mut diff = FrameDiff::default();
    for (k, (fa, fb)) in a.iter().zip(b).enumerate() {
        if (fa.width, fa.height) != (fb.width, fb.height) {
            return Err(format!("frame {k}: sizes differ"));
        }
        for y in 0..fa.height {
            for x in 0..fa.width {
                let (pa, pb) = (fa.rgba8_at(x, y), fb.rgba8_at(x, y));
                diff.pixels += 1;
                if (0..4).any(|i| pa[i].abs_diff(pb[i]) > max_byte_diff) {
                    diff.mismatch_count += 1;
                    if diff.mismatches.len() < 250_000 {
                        diff.mismatches.push((k, x, y, pa, pb));
                    }
                }
                if let (Some(da), Some(db)) = (fa.depth_at(x, y), fb.depth_at(x, y)) {
                    diff.depth_samples += 1;
                    if (da - db).abs() > 1e-5 {
                        diff.depth_mismatches += 1;
                    }
                }
            }
        }
    }
    Ok(diff)
}

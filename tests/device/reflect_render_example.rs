//! Runs examples/render.rs (the embedding example: compile a vertex and
//! fragment program, bind them from the reflection, upload a checkerboard
//! texture, draw the quad sampling it with TEX offscreen, write a PNG) and
//! checks the picture's pixels.
//!
//! Without a Vulkan device the example exits with 3: the test then prints
//! SKIPPED, except under CI=true, where it fails (like tests/device/harness).

use std::path::Path;
use std::process::Command;

const LVP_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
const VALIDATION_LAYER: &str = "/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json";

fn in_ci() -> bool {
    matches!(std::env::var("CI").as_deref(), Ok("true" | "1" | "yes"))
}

fn decode(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(path).expect("the PNG exists"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("one frame");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

#[test]
fn render_example_draws_the_textured_quad() {
    let dir = std::env::temp_dir().join(format!("nvp4c-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png_path = dir.join("quad.png");
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["run", "--quiet", "--example", "render", "--"])
        .arg(&png_path)
        .env("MESA_SHADER_CACHE_DISABLE", "true");
    if std::env::var_os("VK_DRIVER_FILES").is_none() && Path::new(LVP_ICD).exists() {
        cmd.env("VK_DRIVER_FILES", LVP_ICD);
    }
    let validating = Path::new(VALIDATION_LAYER).exists();
    if validating {
        // The loader enables the layer; without a messenger it logs every
        // message to stdout, which the test then rejects.
        cmd.env("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation");
    }
    let output = cmd.output().expect("cargo runs the example");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(3) {
        assert!(!in_ci(), "no Vulkan device under CI=true: {stderr}");
        eprintln!("SKIPPED: no Vulkan device (install mesa-vulkan-drivers): {stderr}");
        return;
    }
    assert!(
        output.status.success(),
        "the example failed:\n{stdout}\n{stderr}"
    );
    if validating {
        assert!(
            !stdout.contains("Validation") && !stderr.contains("Validation Error"),
            "validation messages:\n{stdout}\n{stderr}"
        );
    }

    let (width, height, pixels) = decode(&png_path);
    assert_eq!((width, height), (64, 64));
    let at = |x: u32, y: u32| {
        let i = 4 * (y * width + x) as usize;
        [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]]
    };
    // The clear colour.
    const BLACK: [u8; 4] = [0, 0, 0, 255];
    // The texture (examples/render.rs, `checkerboard`) is 8×8 texels:
    // EVEN = (255, 160, 0, 255) where x + y is even, ODD = (0, 64, 200, 255)
    // where it is odd, MARK = (0, 255, 0, 255) at texel (7, 0). The program
    // multiplies each texel by `tint` = (1, 1, 0.5, 1): only ODD's blue
    // changes, 200 → 100 (exact in UNORM8: 200/255 · 0.5 · 255 = 100).
    const EVEN: [u8; 4] = [255, 160, 0, 255];
    const ODD: [u8; 4] = [0, 64, 100, 255];
    const MARK: [u8; 4] = [0, 255, 0, 255];
    // The quad is scaled by 0.5 (the modelview matrix): it covers pixels 16..48 in x
    // and y, texture coordinates (0, 0) at the top left (Vulkan's y points
    // down) to (1, 1); with NEAREST filtering texel (i, j) fills pixels
    // 16 + 4i .. 20 + 4i across and 16 + 4j .. 20 + 4j down.
    let texel_pixel = |i: u32, j: u32, dx: u32, dy: u32| at(16 + 4 * i + dx, 16 + 4 * j + dy);
    // Outside the quad.
    assert_eq!(at(2, 2), BLACK);
    assert_eq!(at(60, 33), BLACK);
    assert_eq!(at(15, 30), BLACK);
    assert_eq!(at(48, 30), BLACK);
    assert_eq!(at(30, 48), BLACK);
    // Every texel, at two of its pixels (the corners of its 4×4 block).
    for j in 0..8 {
        for i in 0..8 {
            let expected = match (i, j) {
                (7, 0) => MARK,
                _ if (i + j) % 2 == 0 => EVEN,
                _ => ODD,
            };
            assert_eq!(texel_pixel(i, j, 0, 0), expected, "texel ({i}, {j})");
            assert_eq!(texel_pixel(i, j, 3, 3), expected, "texel ({i}, {j})");
        }
    }
    // The orientation, by hand: the mark is at the top right, and the
    // other corners are EVEN (top left, bottom right) and ODD (bottom left).
    assert_eq!(at(45, 17), MARK);
    assert_eq!(at(16, 16), EVEN);
    assert_eq!(at(47, 47), EVEN);
    assert_eq!(at(17, 46), ODD);
    assert_eq!(at(19, 16), EVEN); // the last pixel of texel (0, 0)
    assert_eq!(at(20, 16), ODD); // the first of texel (1, 0)
    let _ = std::fs::remove_dir_all(&dir);
}

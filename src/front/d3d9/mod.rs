//! The Direct3D 9 shader bytecode front end: vs_1_1, vs_2_0, vs_2_x,
//! vs_3_0 (and the `_sw` versions), ps_1_1 to ps_1_4, ps_2_0, ps_2_x,
//! ps_3_0, to the same [`crate::ir::Program`] the assembly family gives.
//!
//! ```text
//! bytes ──decode──▶ Shader (instructions with byte ranges, comments, CTAB)
//!       ──disasm──▶ Listing (Microsoft's syntax; the text diagnostics point into)
//!       ──check───▶ diagnostics E30xx-E31xx per version (docs/diagnostics.md)
//!       ──lower───▶ ir::Program (docs/interface.md "Direct3D 9")
//! ```
//!
//! [`table`] is the one place that says what an opcode and a register type
//! are in each version; every other module reads it.
//!
//! ```
//! let bytes = nvp4c::front::d3d9::assemble::assemble_bytes(
//!     "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmul r0, r0, c0\nmov oC0, r0\n").unwrap();
//! let compiled = nvp4c::compile_bytes(&bytes, &nvp4c::Options::default()).unwrap();
//! assert_eq!(compiled.stage, nvp4c::Stage::Fragment);
//! assert_eq!(compiled.reflection.textures[0].unit, 0);
//! ```

pub mod assemble;
pub mod check;
pub mod ctab;
pub mod decode;
pub mod disasm;
pub mod lower;
pub mod names;
pub mod reflect;
pub mod table;
pub mod testgen;

use crate::diag::{Diagnostic, Diagnostics};
use crate::span::Span;
use table::SamplerType;

/// How Direct3D 9 shaders are converted where Direct3D 9 and Vulkan differ
/// (docs/interface.md, "Direct3D 9"; docs/semantics.md).
///
/// ```
/// let mut options = nvp4c::Options::default();
/// options.d3d9.flip_y = true;
/// assert!(options.d3d9.integer_pixel_centers);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct D3d9Options {
    /// `vPos` holds the pixel's integer coordinates, as Direct3D 9 puts
    /// pixel centres at integers: `FragCoord.xy - 0.5`. Off: `FragCoord`
    /// as Vulkan gives it (centres at .5). Default: on.
    pub integer_pixel_centers: bool,
    /// Negate y of the position a vertex shader writes: Direct3D 9's clip
    /// space has y up, Vulkan's y down. Default: off (flip with a negative
    /// viewport height instead, as docs/interface.md describes).
    pub flip_y: bool,
    /// Add `position.w × (x, y)` of the D3D9 state block's position-offset
    /// row to the position a vertex shader writes (the half-pixel offset
    /// of Direct3D 9's rasterisation rules, done in the shader rather than
    /// in the viewport; docs/interface.md). Default: off.
    pub half_pixel_offset: bool,
    /// The texture type of each ps_1_x texture stage 0-7 (ps_1_x declares
    /// none; Direct3D 9 takes it from the bound texture). Default: 2D.
    pub ps1x_stage_types: [SamplerType; 8],
    /// Clamp every ps_1_x arithmetic result to ±this value
    /// (D3DCAPS9.PixelShader1xMaxValue: at least 1, 8 for ps_1_4 class
    /// hardware). Default: `None`, no clamp (float precision, as shader
    /// model 2 hardware runs ps_1_x).
    pub ps1x_max_value: Option<f32>,
    /// Clamp ps_1_x constants to [-1, 1] when read ("c#: -1 to +1", ps_1_x
    /// Registers). Default: on.
    pub ps1x_clamp_constants: bool,
    /// Bit n: texture stage n has D3DTTFF_PROJECTED set, so ps_1_1-1_3
    /// `tex`/`texbem`/`texbeml` divide the coordinates by w. Default: 0.
    pub ps1x_projected_stages: u8,
    /// D3DSHADE_FLAT: colour varyings are not interpolated (`Flat` on the
    /// pixel shader's colour inputs). Default: off.
    pub flat_shading: bool,
}

impl Default for D3d9Options {
    fn default() -> D3d9Options {
        D3d9Options {
            integer_pixel_centers: true,
            flip_y: false,
            half_pixel_offset: false,
            ps1x_stage_types: [SamplerType::T2D; 8],
            ps1x_max_value: None,
            ps1x_clamp_constants: true,
            ps1x_projected_stages: 0,
            flat_shading: false,
        }
    }
}

/// Decodes, disassembles and checks a shader: its listing and every
/// problem found (spans into the listing).
///
/// ```
/// let bytes = nvp4c::front::d3d9::assemble::assemble_bytes("vs_1_1\nlrp r0, r1, r2, r3\n").unwrap();
/// let (listing, diags) = nvp4c::front::d3d9::disassemble_checked(&bytes, &nvp4c::Options::default());
/// assert_eq!(listing.text, "vs_1_1\nlrp r0, r1, r2, r3\n");
/// assert_eq!(diags.iter().next().unwrap().code, "E3100"); // lrp needs vs_2_0
/// ```
pub fn disassemble_checked(
    bytes: &[u8],
    options: &crate::Options,
) -> (disasm::Listing, Diagnostics) {
    let shader = decode::decode(bytes);
    let listing = disasm::disassemble(&shader);
    let mut diags = decode_diagnostics(&shader, &listing);
    if !diags.iter().any(Diagnostic::is_error) {
        diags.extend(check::check(&shader, &listing, options).0);
    }
    sort(&mut diags);
    (listing, Diagnostics(diags))
}

/// The listing diagnostics of `bytes` point into (an empty text when the
/// bytes do not even start with a version token).
pub fn listing(bytes: &[u8]) -> String {
    disasm::disassemble(&decode::decode(bytes)).text
}

/// Decodes, checks and lowers a shader to the IR; diagnostics point into
/// [`listing`] of the same bytes.
pub fn check_bytecode(
    bytes: &[u8],
    options: &crate::Options,
) -> Result<(crate::ir::Program, Diagnostics), Diagnostics> {
    checked(bytes, options).map(|c| (c.program, c.warnings))
}

/// Compiles a shader: [`check_bytecode`], then the shared back end, then
/// the Direct3D 9 reflection ([`reflect::annotate`]).
pub(crate) fn compile(
    bytes: &[u8],
    options: &crate::Options,
) -> Result<crate::Compiled, Diagnostics> {
    let Checked {
        shader,
        listing,
        analysis,
        program,
        warnings,
    } = checked(bytes, options)?;
    let mut compiled = crate::finish(program, warnings, &listing.text, options)?;
    reflect::annotate(&mut compiled.reflection, &shader, &analysis);
    Ok(compiled)
}

struct Checked {
    shader: decode::Shader,
    listing: disasm::Listing,
    analysis: check::Analysis,
    program: crate::ir::Program,
    warnings: Diagnostics,
}

fn checked(bytes: &[u8], options: &crate::Options) -> Result<Checked, Diagnostics> {
    let shader = decode::decode(bytes);
    let listing = disasm::disassemble(&shader);
    let mut diags = decode_diagnostics(&shader, &listing);
    if diags.iter().any(Diagnostic::is_error) {
        options.warnings.apply(&mut diags);
        sort(&mut diags);
        return Err(Diagnostics(diags));
    }
    let (more, analysis) = check::check(&shader, &listing, options);
    diags.extend(more);
    // -A/-W/-D (Options::warnings): silenced warnings dropped, denied
    // ones made errors, which fail the check below.
    options.warnings.apply(&mut diags);
    sort(&mut diags);
    let Some(analysis) = analysis.filter(|_| !diags.iter().any(Diagnostic::is_error)) else {
        return Err(Diagnostics(diags));
    };
    match lower::lower(&shader, &listing, &analysis, options) {
        Ok(program) => Ok(Checked {
            shader,
            listing,
            analysis,
            program,
            warnings: Diagnostics(diags),
        }),
        Err(d) => {
            diags.push(d);
            Err(Diagnostics(diags))
        }
    }
}

fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by_key(|d| d.primary_span().map(|s| s.start));
}

/// The decoder's problems as diagnostics at the instruction (or operand)
/// on its listing line, with the byte offset.
fn decode_diagnostics(shader: &decode::Shader, listing: &disasm::Listing) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for e in &shader.errors {
        let span = match e.instruction {
            Some(i) => listing.param_span(i, e.param),
            None => listing
                .lines
                .iter()
                .zip(&shader.instructions)
                .find(|(_, inst)| inst.offset == e.offset)
                .map(|(l, _)| l.span)
                .or_else(|| {
                    listing
                        .skipped
                        .iter()
                        .find(|(o, _)| *o == e.offset)
                        .map(|(_, s)| *s)
                })
                .unwrap_or_else(|| {
                    if e.offset == 0 && !listing.text.is_empty() {
                        listing.header
                    } else {
                        listing.end_span()
                    }
                }),
        };
        let rule = crate::codes::lookup(e.code).map_or("", |c| c.rule);
        out.push(
            Diagnostic::error(e.code, e.message.clone())
                .primary(span, "here")
                .note(format!("at byte offset {:#x} of the shader", e.offset))
                .note(rule.to_string()),
        );
    }
    if shader.trailing > 0 {
        if let Some(end) = shader.end {
            out.push(
                Diagnostic::warning(
                    "W3000",
                    format!(
                        "{} bytes follow the end token and are ignored",
                        shader.trailing
                    ),
                )
                .primary(listing.end_span(), "the shader ends here")
                .note(format!("the end token is at byte offset {end:#x}")),
            );
        }
    }
    out
}

/// A diagnostic at an instruction's parameter, with its byte offset.
pub(crate) fn at(
    code: &'static str,
    message: impl Into<String>,
    span: Span,
    offset: usize,
) -> Diagnostic {
    let rule = crate::codes::lookup(code).map_or("", |c| c.rule);
    Diagnostic::error(code, message)
        .primary(span, "here")
        .note(format!("at byte offset {offset:#x} of the shader"))
        .note(rule.to_string())
}

//! nvp4c: a compiler from NVIDIA's NV_gpu_program4 assembly to SPIR-V.
//!
//! ```
//! let source = "!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n";
//! let compiled = nvp4c::compile(source, &nvp4c::Options::default()).expect("valid program");
//! assert_eq!(compiled.spirv[0], 0x0723_0203); // the SPIR-V magic number
//! ```
//!
//! The API:
//!
//! * [`compile`], [`compile_bytes`]: a program to validated SPIR-V, with its
//!   [`reflect::Reflection`] (what to bind where, with the Cg names) and
//!   warnings; or every [`Diagnostic`] found ([`Diagnostics::render`],
//!   [`diag::json`], the code registry [`codes`]). [`Options`] picks the
//!   [`TargetEnv`], the binding layout ([`layout`]: sets, bindings, push
//!   and specialization constants), the GL [`limits::Limits`], the Vulkan
//!   [`device_limits::DeviceLimits`], clip-space conventions and debug
//!   information.
//! * Bytecode ([`front::Format`]: Adobe AGAL, Direct3D 9 shader tokens) is
//!   recognised by [`compile_bytes`] and [`check_bytes`] from its first
//!   bytes; its diagnostics point into [`source_listing`], the
//!   disassembly ([`front::disassemble`]).
//! * [`state`]: the `state.*` block's layout, and [`state::GlState`], which
//!   fills it from GL-like state.
//! * [`check`]: the front end alone, giving the checked [`ir::Program`]
//!   (instructions from the [`isa`] table), which [`interp::run`] executes.
//! * [`link::check_pipeline`]: whether vertex, geometry and fragment
//!   programs fit together; [`lsp::serve`]: the language server.
//!
//! The library does no I/O, and no panic crosses the API. Internally the
//! pipeline is text → `syntax` (tokens, syntax tree) → `check` (the IR) →
//! `spirv` (words) → validation (docs/architecture.md); those modules are
//! public for the tests, benches and fuzz targets only, hidden from the
//! documentation and unstable.

#![warn(missing_docs)]

// Internal and unstable (the checker behind `check`; for tests and benches).
#[doc(hidden)]
pub mod check;
pub mod codes;
pub mod device_limits;
pub mod diag;
pub mod fixed_function;
pub mod front;
pub mod interp;
pub mod ir;
pub mod isa;
pub mod layout;
pub mod limits;
pub mod link;
pub mod lsp;
#[cfg(unix)]
mod pages;
pub mod reflect;
pub mod span;
pub mod state;
// Internal and unstable (the SPIR-V back end; for tests, benches and the CLI).
#[doc(hidden)]
pub mod spirv;
// Internal and unstable (lexer, parser, syntax tree; for tests, fuzzing and the LSP).
#[doc(hidden)]
pub mod syntax;
// Internal and unstable (the random program generator of the differential tests).
#[doc(hidden)]
pub mod testgen;

pub use diag::{Diagnostic, Diagnostics, Severity, WarningControl, WarningLevel};
pub use isa::Stage;
use span::Span;

/// The Vulkan environment the SPIR-V is produced and validated for.
///
/// ```
/// let mut options = nvp4c::Options::default();
/// options.target_env = nvp4c::TargetEnv::Vulkan1_2;
/// let compiled = nvp4c::compile("!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n", &options).unwrap();
/// assert_eq!(compiled.spirv[1], 0x0001_0500); // SPIR-V 1.5
/// ```
///
/// Environments are ordered oldest first, so `env >= TargetEnv::Vulkan1_1`
/// asks whether an environment has what Vulkan 1.1 brought (SPIR-V 1.3's
/// subgroup operations, which NV_gpu_program5's TGALL, TGANY and TGEQ need).
///
/// ```
/// assert!(nvp4c::TargetEnv::Vulkan1_2 > nvp4c::TargetEnv::Vulkan1_1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum TargetEnv {
    /// SPIR-V 1.0; loads everywhere.
    #[default]
    Vulkan1_0,
    /// SPIR-V 1.3.
    Vulkan1_1,
    /// SPIR-V 1.5.
    Vulkan1_2,
    /// SPIR-V 1.6.
    Vulkan1_3,
}

impl TargetEnv {
    /// (major, minor) SPIR-V version emitted for this environment.
    ///
    /// ```
    /// assert_eq!(nvp4c::TargetEnv::Vulkan1_1.spirv_version(), (1, 3));
    /// ```
    pub fn spirv_version(self) -> (u8, u8) {
        match self {
            TargetEnv::Vulkan1_0 => (1, 0),
            TargetEnv::Vulkan1_1 => (1, 3),
            TargetEnv::Vulkan1_2 => (1, 5),
            TargetEnv::Vulkan1_3 => (1, 6),
        }
    }
    /// The name `--target-env` takes, e.g. `vulkan1.1`.
    ///
    /// ```
    /// assert_eq!(nvp4c::TargetEnv::Vulkan1_1.name(), "vulkan1.1");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            TargetEnv::Vulkan1_0 => "vulkan1.0",
            TargetEnv::Vulkan1_1 => "vulkan1.1",
            TargetEnv::Vulkan1_2 => "vulkan1.2",
            TargetEnv::Vulkan1_3 => "vulkan1.3",
        }
    }
}

/// Compile options. `Options::default()` targets Vulkan 1.0, validates,
/// and uses the per-stage descriptor sets of docs/interface.md.
///
/// ```
/// let mut options = nvp4c::Options::default();
/// options.descriptor_set = Some(5);
/// let source = "!!NVfp4.0\nMOV result.color, program.local[0];\nEND\n";
/// let compiled = nvp4c::compile(source, &options).unwrap();
/// assert_eq!(compiled.reflection.uniform_blocks[0].set, 5);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// The Vulkan version to produce and validate SPIR-V for.
    pub target_env: TargetEnv,
    /// Run spirv-val in process on the output (on by default). A module
    /// that fails is an internal compiler error and is never returned.
    pub validate: bool,
    /// Descriptor set for this program's uniform blocks and textures,
    /// whatever its type: a shorthand that overrides `layout`'s per-stage
    /// `set`. `None` leaves `layout` alone.
    pub descriptor_set: Option<u32>,
    /// The descriptor sets, binding numbers, push constants and
    /// specialization constants the renderer chooses, per program type
    /// (docs/interface.md, "Binding layout"). Default: the fixed layout of
    /// docs/interface.md, "Descriptor sets".
    pub layout: layout::BindingLayout,
    /// The entry point's name. Default `main`.
    pub entry_point: String,
    /// Negate y of the clip-space position a vertex or geometry program
    /// writes (GL's y points up, Vulkan's down), after the program (vertex)
    /// or at each EMIT (geometry); docs/interface.md, "Clip space". Apply it
    /// to the last stage before rasterization only. Default off.
    pub invert_y: bool,
    /// The clip-space depth convention of `result.position`: with
    /// [`layout::DepthRange::Gl`] a vertex or geometry program's z in
    /// [−w, w] becomes Vulkan's [0, w] (docs/interface.md, "Clip space").
    /// Default [`layout::DepthRange::Vulkan`] (written as computed).
    pub depth_range: layout::DepthRange,
    /// GL's `VERTEX_PROGRAM_TWO_SIDE`: a fragment program's
    /// `fragment.color` (and `.secondary`) is the back colour the vertex
    /// or geometry program wrote (`result.color.back`, Location 2 and 3)
    /// for back-facing primitives, the front colour otherwise
    /// (docs/interface.md, "Varyings"). Default off: the front colour,
    /// GL's default.
    pub two_sided_color: bool,
    /// How many of GL's user clip planes (`state.clip[0..n-1].plane`, 0 to
    /// 6) a position-invariant vertex program clips against, as
    /// `ClipDistance[0..n-1]` (ARB_vertex_program section 2.14.4.5.1:
    /// "user clipping is performed"); which are enabled is run-time state
    /// (`state::CLIP_PLANE_ENABLES`). Default 6. 0 writes no clip distance,
    /// for devices without `shaderClipDistance`.
    pub user_clip_planes: u32,
    /// Declare transform feedback capture in a vertex, tessellation
    /// evaluation or geometry program, the last stage before rasterization
    /// (docs/interface.md, "Transform feedback"; E1263 for another program
    /// type, E1264 for a record larger than `device_limits` allow): the
    /// `Xfb` execution mode
    /// and `XfbBuffer`/`XfbStride`/`Offset` on every result, and, when the
    /// program has EMITS (NV_gpu_program5 2.X.8.Z), a copy of its results
    /// for each vertex stream 1 to 3 (`Stream k`, transform feedback buffer
    /// k, its own Locations), written at each `EMITS k`. The device then
    /// needs VK_EXT_transform_feedback's `transformFeedback` feature.
    /// Default off: no capture decorations, and the vertices of streams
    /// above 0 go nowhere.
    pub transform_feedback: bool,
    /// Whether the pipeline's device enables Vulkan's
    /// `shaderTessellationAndGeometryPointSize` feature (docs/interface.md,
    /// "Point size"). With it (the default: desktop drivers and lavapipe
    /// have it), a geometry program with `PRIMITIVE_OUT POINTS` or a
    /// tessellation evaluation program in point mode that never writes
    /// `result.pointsize` writes GL's default point size 1.0 (Vulkan asks
    /// such stages to write `PointSize`,
    /// VUID-VkGraphicsPipelineCreateInfo-Geometry-07725, renamed
    /// `-shaderTessellationAndGeometryPointSize-08776` in later specs).
    /// Without it those stages must not touch `PointSize` (their points
    /// are 1.0 wide): nothing is written, and a geometry or tessellation
    /// program reading or writing a point size is refused (E1262).
    pub shader_tessellation_and_geometry_point_size: bool,
    /// A vertex program that writes no `result.pointsize` writes GL's
    /// default point size 1.0, for a pipeline that draws it as points with
    /// no later stage: Vulkan then requires `PointSize`
    /// (VUID-VkGraphicsPipelineCreateInfo-Vertex-07722, renamed
    /// `-topology-08773` in later specs), and nvp4c cannot
    /// know the topology (docs/interface.md, "Point size"). Default off:
    /// the extra output costs every vertex program a component.
    pub vertex_point_size: bool,
    /// The Vulkan device the module is for: programs that exceed its
    /// limits are refused with E0810-E0822 instead of failing at pipeline
    /// creation (docs/limits.md, "Device limits"). Default:
    /// [`device_limits::DeviceLimits::desktop`].
    pub device_limits: device_limits::DeviceLimits,
    /// Emit debug information: the program text (OpSource), a source
    /// location per instruction (OpString, OpLine) and names for every
    /// declared variable (OpName), so SPIR-V debuggers show the assembly.
    /// Default off.
    pub debug_info: bool,
    /// The program's file name in debug information. Default `program`.
    pub source_name: Option<String>,
    /// Implementation-dependent limits the checker enforces (docs/limits.md).
    pub limits: limits::Limits,
    /// Declare `SignedZeroInfNanPreserve` for 32-bit floats, so the device
    /// keeps the signs of zeros and IEEE infinities and NaNs as the spec's
    /// arithmetic does (docs/semantics.md). Needs a device with
    /// `shaderSignedZeroInfNanPreserveFloat32` (VK_KHR_shader_float_controls,
    /// core in Vulkan 1.2). Default: off, so the module loads everywhere.
    pub preserve_signed_zero_inf_nan: bool,
    /// Run the spirv-tools optimizer (its performance passes, in process) on
    /// the module, and validate the result again when `validate` is set.
    /// Calls are inlined only when that stays bounded
    /// ([`spirv::inlining_is_bounded`]). Default: off. Drivers optimise
    /// themselves (on lavapipe `-O` made no measurable difference to render
    /// time), and spirv-opt's cost grows much faster than the program on
    /// code with hundreds of branches (seconds for some 800-line programs,
    /// docs/performance.md), so leave it off for untrusted programs.
    pub optimize: bool,
    /// Larger sources are refused with `E0004` before any work is done, so an
    /// embedder can bound the time and memory a hostile program costs.
    /// Default: 128 MiB.
    pub max_source_bytes: usize,
    /// How Direct3D 9 shaders are converted where Direct3D 9 and Vulkan
    /// differ (docs/interface.md, "Direct3D 9"); Direct3D 9 bytecode is
    /// recognised by its version token.
    pub d3d9: front::d3d9::D3d9Options,
    /// Which warnings are reported, silenced or turned into errors, per
    /// code (the CLI's `-A`/`-W`/`-D`, `-w`, `--deny-warnings`). Default:
    /// every warning is reported and none fails the compile.
    pub warnings: WarningControl,
    /// How AGAL programs are read and converted (text as AGAL assembly,
    /// Stage3D clip space); AGAL bytecode is recognised by its magic byte.
    pub agal: front::agal::AgalOptions,
}

impl Options {
    /// The layout of programs of type `stage`, with `descriptor_set`
    /// applied.
    ///
    /// ```
    /// let mut options = nvp4c::Options::default();
    /// options.descriptor_set = Some(4);
    /// assert_eq!(options.stage_layout(nvp4c::Stage::Vertex).set, 4);
    /// ```
    pub fn stage_layout(&self, stage: Stage) -> layout::StageLayout {
        let mut l = self.layout.stage(stage).clone();
        if let Some(set) = self.descriptor_set {
            l.set = set;
        }
        l
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            target_env: TargetEnv::Vulkan1_0,
            validate: true,
            descriptor_set: None,
            layout: layout::BindingLayout::default(),
            entry_point: "main".to_string(),
            invert_y: false,
            depth_range: layout::DepthRange::Vulkan,
            user_clip_planes: state::MAX_CLIP_PLANES,
            two_sided_color: false,
            transform_feedback: false,
            shader_tessellation_and_geometry_point_size: true,
            vertex_point_size: false,
            device_limits: device_limits::DeviceLimits::default(),
            debug_info: false,
            source_name: None,
            limits: limits::Limits::default(),
            max_source_bytes: 128 << 20,
            optimize: false,
            preserve_signed_zero_inf_nan: false,
            d3d9: front::d3d9::D3d9Options::default(),
            warnings: WarningControl::default(),
            agal: front::agal::AgalOptions::default(),
        }
    }
}

/// A compiled program: the SPIR-V words, the program type, the
/// reflection, and any warnings.
///
/// ```
/// let source = "!!NVvp4.0\nTEMP unused;\nMOV result.position, vertex.position;\nEND\n";
/// let compiled = nvp4c::compile(source, &nvp4c::Options::default()).unwrap();
/// assert_eq!(compiled.stage, nvp4c::Stage::Vertex);
/// assert_eq!(compiled.reflection.inputs[0].bindings, ["vertex.position"]);
/// assert_eq!(compiled.warnings.len(), 1); // `unused` is never used
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Compiled {
    /// The SPIR-V module, validated for `Options::target_env` when
    /// `Options::validate` is set.
    pub spirv: Vec<u32>,
    /// The program type, from the header.
    pub stage: Stage,
    /// What the module expects from the renderer: bindings, Locations,
    /// block offsets, with the program's (and Cg's) names (docs/reflection.md).
    pub reflection: reflect::Reflection,
    /// Warnings (never errors).
    pub warnings: Diagnostics,
}

/// Parses and checks a program: the front end alone, for tools that want
/// the IR (the interpreter, the language server).
///
/// ```
/// let (program, warnings) = nvp4c::check("!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n", &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.stage, nvp4c::Stage::Fragment);
/// assert!(warnings.is_empty());
/// ```
pub fn check(source: &str, options: &Options) -> Result<(ir::Program, Diagnostics), Diagnostics> {
    if let Some((stage, version)) = front::agal::assembly_target(source, options) {
        return warning_control(
            front::agal::check_assembly(source, stage, version, options),
            options,
        );
    }
    too_large(source.len(), options)?;
    // The checker takes each statement as the parser reads it: the
    // program's syntax tree is never built whole (docs/architecture.md).
    let (parsed, mut diags) =
        syntax::parse_with(source, options.limits.max_instructions as usize, |header| {
            check::ProgramChecker::new(header, options).source_text(source)
        });
    let Some(parsed) = parsed else {
        return Err(Diagnostics(diags));
    };
    let (program, more) = parsed.sink.finish(parsed.header_span, Some(parsed.end));
    diags.extend(more);
    options.warnings.apply(&mut diags);
    diags.sort_by_key(|d| d.primary_span().map(|s| s.start));
    match program {
        Some(p) if !diags.iter().any(Diagnostic::is_error) => Ok((p, Diagnostics(diags))),
        _ => Err(Diagnostics(diags)),
    }
}

/// `Options::warnings` applied to a front end's result: silenced warnings
/// dropped, denied ones made errors (which fail the check).
fn warning_control(
    checked: Result<(ir::Program, Diagnostics), Diagnostics>,
    options: &Options,
) -> Result<(ir::Program, Diagnostics), Diagnostics> {
    match checked {
        Ok((program, Diagnostics(mut diags))) => {
            options.warnings.apply(&mut diags);
            if diags.iter().any(Diagnostic::is_error) {
                Err(Diagnostics(diags))
            } else {
                Ok((program, Diagnostics(diags)))
            }
        }
        Err(Diagnostics(mut diags)) => {
            options.warnings.apply(&mut diags);
            Err(Diagnostics(diags))
        }
    }
}

/// Compiles a program given as bytes: bytes that are not UTF-8 (the
/// spec's programs are ASCII) are reported as `E0003`, one diagnostic per
/// run of them, unless they are inside a comment ([`source_text`]).
///
/// ```
/// let err = nvp4c::compile_bytes(b"!!NVfp4.0\nMOV result.color, \xff;\nEND\n", &nvp4c::Options::default()).unwrap_err();
/// assert_eq!(err.iter().next().unwrap().code, "E0003");
/// let latin1_comment = b"!!NVfp4.0\n# d\xe9grad\xe9\nMOV result.color, 1;\nEND\n";
/// assert!(nvp4c::compile_bytes(latin1_comment, &nvp4c::Options::default()).is_ok());
/// ```
pub fn compile_bytes(source: &[u8], options: &Options) -> Result<Compiled, Diagnostics> {
    let Some(format) = front::Format::of(source) else {
        let text = source_text(source)?;
        return compile(&text, options);
    };
    guarded(|| {
        check_options(options)?;
        too_large(source.len(), options)?;
        match format {
            // The Direct3D 9 front end adds its part of the reflection
            // (front::d3d9::reflect) after the shared back end.
            front::Format::D3d9 => front::d3d9::compile(source, options),
            front::Format::Agal => {
                let listing = source_listing(source);
                let (program, warnings) = check_bytes(source, options)?;
                finish(program, warnings, &listing, options)
            }
        }
    })
}

/// [`check`] for a program given as bytes: bytecode (AGAL by its magic
/// byte, Direct3D 9 by its version token: [`front::Format`]) or text (see
/// [`compile_bytes`]). Diagnostics point into [`source_listing`] of the
/// same bytes.
///
/// ```
/// let bytes = nvp4c::front::agal::assemble("mov oc, v0", nvp4c::Stage::Fragment, 1).unwrap().bytes;
/// let (program, _) = nvp4c::check_bytes(&bytes, &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.stage, nvp4c::Stage::Fragment);
/// let bytes = nvp4c::front::d3d9::assemble::assemble_bytes("vs_2_0\ndcl_position v0\nmov oPos, v0\n").unwrap();
/// let (program, _) = nvp4c::check_bytes(&bytes, &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.stage, nvp4c::Stage::Vertex);
/// ```
pub fn check_bytes(
    source: &[u8],
    options: &Options,
) -> Result<(ir::Program, Diagnostics), Diagnostics> {
    match front::Format::of(source) {
        Some(front::Format::Agal) => {
            warning_control(front::agal::check_bytecode(source, options), options)
        }
        Some(front::Format::D3d9) => {
            too_large(source.len(), options)?;
            front::d3d9::check_bytecode(source, options)
        }
        None => check(&source_text(source)?, options),
    }
}

/// The text the diagnostics of [`compile_bytes`] and [`check_bytes`] point
/// into: the program itself, or for bytecode its disassembly (one line per
/// instruction, [`front::disassemble`]). Render diagnostics against it.
///
/// ```
/// let bytes = nvp4c::front::agal::assemble("mov oc, v0", nvp4c::Stage::Fragment, 1).unwrap().bytes;
/// assert!(nvp4c::source_listing(&bytes).ends_with("mov oc, v0\n"));
/// let bytes = nvp4c::front::d3d9::assemble::assemble_bytes("ps_2_0\nmov oC0, c0\n").unwrap();
/// assert_eq!(nvp4c::source_listing(&bytes), "ps_2_0\nmov oC0, c0\n");
/// assert_eq!(nvp4c::source_listing(b"!!NVfp4.0\nEND\n"), "!!NVfp4.0\nEND\n");
/// ```
pub fn source_listing(source: &[u8]) -> std::borrow::Cow<'_, str> {
    match front::listing(source) {
        Some(listing) => std::borrow::Cow::Owned(listing),
        // The text the assembly front end reads (Latin-1 comments as `?`,
        // offsets kept), or as much as can be shown of bytes it refuses.
        None => source_text(source).unwrap_or_else(|_| String::from_utf8_lossy(source)),
    }
}

/// Makes mimalloc, the allocator of the command line (src/main.rs),
/// return memory to the system as soon as it is free. Its default, a purge
/// delay of one second (mimalloc 3's `mi_option_purge_delay`), keeps the
/// pages of what a compile has freed — the statements the lowering
/// consumes — while the module's words grow in new ones, so the peak is
/// the IR and the module together ("Session 7" in docs/performance.md:
/// 238 → 170 MB for a 10 MB program). Call it at the start of `main` of
/// a program whose global allocator is `mimalloc::MiMalloc`.
#[cfg(feature = "mimalloc")]
pub fn return_freed_memory_at_once() {
    // The mimalloc crate exposes no options without its `extended`
    // feature, whose `cty` dependency is not available here; the C
    // function is in the library the crate links.
    unsafe extern "C" {
        fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    }
    /// `mi_option_purge_delay` in mimalloc 3's `mi_option_e` (mimalloc.h).
    const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;
    // Naming the crate links it (and so the C library) into any binary
    // that calls this.
    let _ = mimalloc::MiMalloc;
    // SAFETY: `mi_option_set` only stores an option value; mimalloc reads
    // it on its next purge.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) }
}

/// `E0004` when a program is larger than `Options::max_source_bytes`.
fn too_large(len: usize, options: &Options) -> Result<(), Diagnostics> {
    if len <= options.max_source_bytes {
        return Ok(());
    }
    Err(Diagnostics(vec![Diagnostic::error(
        "E0004",
        format!(
            "the program is {len} bytes, more than the {} allowed",
            options.max_source_bytes
        ),
    )
    .primary(Span::new(0, 0), "program starts here")
    .note(
        "Options::max_source_bytes bounds the size of programs nvp4c accepts",
    )]))
}

/// The program text of `bytes`: the same text when they are UTF-8; bytes
/// that are not UTF-8 inside `#` comments (which are not program text)
/// replaced by `?`, so every offset stays the same; or `E0003` for each
/// run of such bytes outside a comment, naming them.
///
/// ```
/// assert_eq!(nvp4c::source_text(b"!!NVfp4.0\nEND\n").unwrap(), "!!NVfp4.0\nEND\n");
/// assert_eq!(nvp4c::source_text(b"# caf\xe9\n").unwrap(), "# caf?\n");
/// let err = nvp4c::source_text(b"\xff").unwrap_err();
/// assert!(err.0[0].message.contains("byte 0xFF"));
/// ```
pub fn source_text(bytes: &[u8]) -> Result<std::borrow::Cow<'_, str>, Diagnostics> {
    syntax::lexer::program_text(bytes).map_err(Diagnostics)
}

/// Compiles one program to SPIR-V.
///
/// On error, every diagnostic found is returned (errors and warnings).
/// No panic crosses this function and it does no I/O.
///
/// ```
/// let source = "!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n";
/// match nvp4c::compile(source, &nvp4c::Options::default()) {
///     Ok(compiled) => assert_eq!(compiled.reflection.outputs[0].location, Some(0)),
///     Err(diagnostics) => panic!("{}", diagnostics.render("prog.fp", source, false)),
/// }
/// ```
pub fn compile(source: &str, options: &Options) -> Result<Compiled, Diagnostics> {
    guarded(|| compile_unguarded(source, options))
}

fn guarded(f: impl FnOnce() -> Result<Compiled, Diagnostics>) -> Result<Compiled, Diagnostics> {
    // A panic would be a bug; it must not cross the API. It becomes an
    // internal error instead (the fuzz targets check there are none).
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(_) => Err(Diagnostics(vec![Diagnostic::error(
            "E9001",
            "internal compiler error: the compiler panicked",
        )
        .primary(Span::new(0, 0), "while compiling this program")
        .note("this is a bug in nvp4c; please report it with the program")])),
    }
}

/// The options that cannot be satisfied, as `E0005` (the renderer's
/// request, not the program, is at fault).
fn check_options(options: &Options) -> Result<(), Diagnostics> {
    let mut problems = Vec::new();
    if options.user_clip_planes > state::MAX_CLIP_PLANES {
        problems.push(format!(
            "user_clip_planes is {}; GL has {} user clip planes (state.clip[0..5])",
            options.user_clip_planes,
            state::MAX_CLIP_PLANES
        ));
    }
    if options.entry_point.is_empty() || options.entry_point.contains('\0') {
        problems.push(format!(
            "entry_point {:?} is not a name (it must be non-empty, without NUL)",
            options.entry_point
        ));
    }
    for stage in [Stage::Vertex, Stage::Geometry, Stage::Fragment] {
        let l = options.layout.stage(stage);
        if !l.push_constant_offset.is_multiple_of(16) {
            problems.push(format!(
                "the {stage} layout's push_constant_offset {} is not a multiple of 16 (the std140 alignment of the uvec4 arrays)",
                l.push_constant_offset
            ));
        }
        for (i, a) in l.specialize.iter().enumerate() {
            if a.spec_id > u32::MAX - 3 {
                problems.push(format!(
                    "{} has SpecId {}: its four components need SpecIds up to {} + 3",
                    a.param, a.spec_id, a.spec_id
                ));
            }
            for b in &l.specialize[..i] {
                if a.param == b.param {
                    problems.push(format!("the {stage} layout specializes {} twice", a.param));
                } else if a.spec_id.abs_diff(b.spec_id) < 4 {
                    problems.push(format!(
                        "the {stage} layout gives {} SpecIds {}..{} and {} SpecIds {}..{}: they overlap",
                        b.param,
                        b.spec_id,
                        b.spec_id.saturating_add(3),
                        a.param,
                        a.spec_id,
                        a.spec_id.saturating_add(3)
                    ));
                }
            }
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let mut d = Diagnostic::error("E0005", "the compile options cannot be satisfied")
        .primary(Span::new(0, 0), "while compiling this program");
    for p in problems {
        d = d.note(p);
    }
    Err(Diagnostics(vec![d.note(
        "docs/interface.md, \"Binding layout\", says what each option may be",
    )]))
}

fn compile_unguarded(source: &str, options: &Options) -> Result<Compiled, Diagnostics> {
    check_options(options)?;
    let (program, warnings) = check(source, options)?;
    finish(program, warnings, source, options)
}

/// Lowers, validates, reflects and optimises a checked program; `source`
/// is the text its spans point into.
fn finish(
    mut program: ir::Program,
    warnings: Diagnostics,
    source: &str,
    options: &Options,
) -> Result<Compiled, Diagnostics> {
    // What the steps after the lowering read of the statements, gathered
    // first: the lowering frees the statements as it lowers them
    // (docs/performance.md, "Session 7").
    let body_facts = reflect::BodyFacts::of(&program);
    let unit_spans = device_limits::UnitSpans::of(&program);
    let inline = options.optimize && spirv::inlining_is_bounded(&program);
    let spirv = spirv::lower_consuming(&mut program, options, Some(source))
        .map_err(|e| Diagnostics(vec![lower_error(e)]))?;
    let program = &program;
    let validate = |words: &[u32]| -> Result<(), Diagnostics> {
        if !options.validate {
            return Ok(());
        }
        spirv::validate(words, options.target_env).map_err(|message| {
            Diagnostics(vec![Diagnostic::error(
                "E9000",
                "internal compiler error: the generated SPIR-V failed validation",
            )
            .primary(Span::new(0, 0), "while compiling this program")
            .note(format!("spirv-val: {message}"))
            .note("this is a bug in nvp4c; the module was not written. Please report it with the program.")])
        })
    };
    validate(&spirv)?;
    // The reflection describes the interface the program declares, so it is
    // read from the module before optimisation (which may drop unused
    // variables; Vulkan allows the extra bindings and Locations).
    let reflection =
        reflect::reflect_with(program, &body_facts, &spirv, source, options).map_err(|what| {
            Diagnostics(vec![lower_error(spirv::LowerError::Internal {
                what: format!("cannot reflect the module: {what}"),
                span: Span::new(0, 0),
            })])
        })?;
    // A module the device cannot create a pipeline with is refused here,
    // on the binding that exceeds the limit (docs/limits.md, "Device
    // limits").
    let over = device_limits::check(program, &unit_spans, &reflection, source, options);
    if !over.is_empty() {
        let mut all = warnings.0;
        all.extend(over);
        all.sort_by_key(|d| d.primary_span().map(|s| s.start));
        return Err(Diagnostics(all));
    }
    let spirv = if options.optimize {
        let optimized = spirv::optimize(&spirv, options.target_env, inline).map_err(|what| {
            Diagnostics(vec![lower_error(spirv::LowerError::Internal {
                what: format!("the SPIR-V optimizer failed: {what}"),
                span: Span::new(0, 0),
            })])
        })?;
        validate(&optimized)?;
        optimized
    } else {
        spirv
    };
    Ok(Compiled {
        spirv,
        stage: program.stage,
        reflection,
        warnings,
    })
}

fn lower_error(e: spirv::LowerError) -> Diagnostic {
    match e {
        spirv::LowerError::Unsupported { what, span } => Diagnostic::error("E0900", format!("not supported yet: {what}"))
            .primary(span, "nvp4c cannot lower this yet")
            .note("the program is valid, but this nvp4c does not translate it to SPIR-V yet; README.md lists what is supported"),
        spirv::LowerError::Internal { what, span } => Diagnostic::error("E9001", format!("internal compiler error: {what}"))
            .primary(span, "while lowering this")
            .note("this is a bug in nvp4c; please report it with the program"),
    }
}

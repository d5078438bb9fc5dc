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
//!   [`TargetEnv`], descriptor set and [`limits::Limits`].
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
pub mod diag;
pub mod front;
pub mod interp;
pub mod ir;
pub mod isa;
pub mod limits;
pub mod link;
pub mod lsp;
pub mod reflect;
pub mod span;
// Internal and unstable (the SPIR-V back end; for tests, benches and the CLI).
#[doc(hidden)]
pub mod spirv;
// Internal and unstable (lexer, parser, syntax tree; for tests, fuzzing and the LSP).
#[doc(hidden)]
pub mod syntax;
// Internal and unstable (the random program generator of the differential tests).
#[doc(hidden)]
pub mod testgen;

pub use diag::{Diagnostic, Diagnostics, Severity};
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
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
    /// Descriptor set for this program's uniform blocks and textures;
    /// `None` picks the per-stage default of docs/interface.md.
    pub descriptor_set: Option<u32>,
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
}

impl Default for Options {
    fn default() -> Options {
        Options {
            target_env: TargetEnv::Vulkan1_0,
            validate: true,
            descriptor_set: None,
            limits: limits::Limits::default(),
            max_source_bytes: 128 << 20,
            optimize: false,
            preserve_signed_zero_inf_nan: false,
            d3d9: front::d3d9::D3d9Options::default(),
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
    if source.len() > options.max_source_bytes {
        return Err(Diagnostics(vec![Diagnostic::error(
            "E0004",
            format!(
                "the program is {} bytes, more than the {} allowed",
                source.len(),
                options.max_source_bytes
            ),
        )
        .primary(Span::new(0, 0), "program starts here")
        .note(
            "Options::max_source_bytes bounds the size of programs nvp4c accepts",
        )]));
    }
    // The checker takes each statement as the parser reads it: the
    // program's syntax tree is never built whole (docs/architecture.md).
    let (parsed, mut diags) =
        syntax::parse_with(source, options.limits.max_instructions as usize, |stage| {
            check::ProgramChecker::new(stage, options)
        });
    let Some(parsed) = parsed else {
        return Err(Diagnostics(diags));
    };
    let (program, more) = parsed.sink.finish(parsed.header, Some(parsed.end));
    diags.extend(more);
    diags.sort_by_key(|d| d.primary_span().map(|s| s.start));
    match program {
        Some(p) if !diags.iter().any(Diagnostic::is_error) => Ok((p, Diagnostics(diags))),
        _ => Err(Diagnostics(diags)),
    }
}

/// Compiles a program given as bytes: invalid UTF-8 (the spec's programs
/// are ASCII) is reported as `E0003` at the first bad byte.
///
/// ```
/// let err = nvp4c::compile_bytes(b"!!NVfp4.0\nMOV result.color, \xff;\nEND\n", &nvp4c::Options::default()).unwrap_err();
/// assert_eq!(err.iter().next().unwrap().code, "E0003");
/// ```
pub fn compile_bytes(source: &[u8], options: &Options) -> Result<Compiled, Diagnostics> {
    match front::Format::of(source) {
        Some(front::Format::D3d9) => {
            too_large(source.len(), options)?;
            guarded(|| front::d3d9::compile(source, options))
        }
        None => compile(source_text(source)?, options),
    }
}

/// [`check`] for a program given as bytes: Direct3D 9 bytecode
/// (recognised by its version token, [`front::Format`]) or text (see
/// [`compile_bytes`]). Diagnostics point into [`source_listing`] of the
/// same bytes.
///
/// ```
/// let bytes = nvp4c::front::d3d9::assemble::assemble_bytes("ps_2_0\nmov oC0, c0\n").unwrap();
/// let (program, _) = nvp4c::check_bytes(&bytes, &nvp4c::Options::default()).unwrap();
/// assert_eq!(program.stage, nvp4c::Stage::Fragment);
/// ```
pub fn check_bytes(
    source: &[u8],
    options: &Options,
) -> Result<(ir::Program, Diagnostics), Diagnostics> {
    match front::Format::of(source) {
        Some(front::Format::D3d9) => {
            too_large(source.len(), options)?;
            front::d3d9::check_bytecode(source, options)
        }
        None => check(source_text(source)?, options),
    }
}

/// The text the diagnostics of [`compile_bytes`] and [`check_bytes`] point
/// into: the program itself, or for bytecode its disassembly (one line per
/// instruction, [`front::disassemble`]). Render diagnostics against it.
///
/// ```
/// let bytes = nvp4c::front::d3d9::assemble::assemble_bytes("ps_2_0\nmov oC0, c0\n").unwrap();
/// assert_eq!(nvp4c::source_listing(&bytes), "ps_2_0\nmov oC0, c0\n");
/// assert_eq!(nvp4c::source_listing(b"!!NVfp4.0\nEND\n"), "!!NVfp4.0\nEND\n");
/// ```
pub fn source_listing(source: &[u8]) -> std::borrow::Cow<'_, str> {
    match front::Format::of(source) {
        Some(front::Format::D3d9) => std::borrow::Cow::Owned(front::d3d9::listing(source)),
        None => String::from_utf8_lossy(source),
    }
}

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

/// The program text of `bytes`, or `E0003` at the first byte that is not
/// UTF-8.
///
/// ```
/// assert_eq!(nvp4c::source_text(b"!!NVfp4.0\nEND\n").unwrap(), "!!NVfp4.0\nEND\n");
/// assert!(nvp4c::source_text(b"\xff").is_err());
/// ```
pub fn source_text(bytes: &[u8]) -> Result<&str, Diagnostics> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        Diagnostics(vec![Diagnostic::error(
            "E0003",
            "the program is not valid UTF-8 text",
        )
        .primary(Span::new(at, at + 1), "invalid byte here")
        .note("section 2.X.2: program strings are ASCII text")])
    })
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

fn compile_unguarded(source: &str, options: &Options) -> Result<Compiled, Diagnostics> {
    let (program, warnings) = check(source, options)?;
    finish(&program, warnings, source, options)
}

/// Lowers, validates, reflects and optimises a checked program; `source`
/// is the text its spans point into.
pub(crate) fn finish(
    program: &ir::Program,
    warnings: Diagnostics,
    source: &str,
    options: &Options,
) -> Result<Compiled, Diagnostics> {
    let spirv = spirv::lower(program, options).map_err(|e| Diagnostics(vec![lower_error(e)]))?;
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
    let reflection = reflect::reflect(program, &spirv, source).map_err(|what| {
        Diagnostics(vec![lower_error(spirv::LowerError::Internal {
            what: format!("cannot reflect the module: {what}"),
            span: Span::new(0, 0),
        })])
    })?;
    let spirv = if options.optimize {
        let inline = spirv::inlining_is_bounded(program);
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

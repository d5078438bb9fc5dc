//! The reference interpreter: runs a checked [`ir::Program`] on one set of
//! inputs exactly as NV_gpu_program4 section 2.X defines execution.
//!
//! It is the test oracle for the SPIR-V backend and the engine of
//! `nvp4c run`. It reads only the IR and the instruction table
//! ([`crate::isa`]); it shares no code with the backend, so the two are
//! independent readings of the spec.
//!
//! ```
//! use nvp4c::interp::{self, Inputs, RunOptions};
//!
//! let source = "!!NVfp4.0\n\
//!               TEMP r;\n\
//!               ADD r, fragment.texcoord[0], program.local[1];\n\
//!               MUL result.color, r, 2;\n\
//!               END\n";
//! let (program, _warnings) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
//! let mut inputs = Inputs::default();
//! inputs.attribs.insert("fragment.texcoord[0]".into(), interp::floats([0.5, 0.25, 0.0, 1.0]));
//! inputs.local.insert(1, interp::floats([1.0, 1.0, 1.0, 1.0]));
//! let outcome = interp::run(&program, &inputs, &RunOptions::default()).unwrap();
//! let color = &outcome.results["result.color"];
//! assert_eq!(color.floats(), [3.0, 2.5, 2.0, 4.0]);
//! assert_eq!(color.written, 0xf);
//! assert!(!outcome.killed);
//! ```
//!
//! # Model
//!
//! * **Registers** are typeless: a temporary is four 32-bit patterns,
//!   read as float, signed or unsigned by bit reinterpretation according to
//!   the type the instruction asks for (section 2.X.3.1, 2.X.4).
//! * **Operands** are loaded as section 2.X.4.2 says: the element (with
//!   relative addressing), the swizzle, the negation, the absolute value,
//!   then the negation outside `|...|`.
//! * **Results** are clamped (SAT, SSAT), then written under the write mask
//!   and the condition code mask; the condition code register named by
//!   `.CC0`/`.CC1` is updated for exactly the written components (section
//!   2.X.4.3), with integer overflow and carry for ADD, SUB, MAD and SAD.
//! * **Constants** take their bits from [`ir::Literal::bits`]: a literal
//!   used directly in an instruction is read as the operand's type; one in
//!   a declared `PARAM` as the declared type, floating-point if none
//!   (section 2.X.3.3, "Constant Bindings").
//! * **Flow** is the IR's tree: `IF` passes when any component of the
//!   swizzled test passes; `REP` takes the floor of a float count or an
//!   integer count once and runs the body while it stays positive; `BRK`
//!   and `CONT` act on the innermost `REP`; `CAL` pushes a call, `RET` pops
//!   one and ends the program when the call stack is empty; a called
//!   subroutine also returns at the next label (section 2.X.5, CAL).
//!
//! # Where the spec leaves things open
//!
//! The interpreter always computes a value, but it tracks what the spec
//! leaves undefined, so a differential test knows what not to compare:
//!
//! * per component: [`Vec4::undefined`] and [`ResultValue::undefined`]
//!   mark values that are undefined (an unwritten temporary or result, the
//!   `w` of XPD/NRM/RFL, the `z`/`w` of SCS, integer division by zero,
//!   shifts by 32 or more, S24/U24 operands out of range, float-to-integer
//!   conversions that do not fit, LG2/RSQ of a non-positive value, POW
//!   where `2^(b·log2 a)` has no value, SAT/SSAT of a NaN, and anything
//!   computed from those);
//! * per run: [`Outcome::undefined`] lists events that make the rest of
//!   the run undefined (a branch on an undefined condition code, a call
//!   past `MAX_PROGRAM_CALL_DEPTH`, an `EMIT` past `VERTICES_OUT`, which
//!   is dropped).
//!
//! Choices where the spec allows several behaviours:
//!
//! * **Relative addressing** outside an array is undefined in the spec;
//!   nvp4c clamps the element into `[0, n-1]` (docs/interface.md), for
//!   reads and writes alike, and so does the interpreter.
//! * **Call depth:** a `CAL` issued while `max_call_depth` calls are
//!   active has no effect, execution continues after it (issue 38: "In the
//!   initial implementation of this extension, such instructions will have
//!   no effect"); the event is recorded in [`Outcome::undefined`].
//! * **Precision:** `H`, `SHORT` and `LONG` do not change anything; every
//!   float operation is IEEE single precision with denormals kept.
//! * **Saturation of NaN** is not defined (section 2.X.4.1): the
//!   component is marked undefined; its value is 0 for SAT, -1 for SSAT.
//! * **Undefined values** otherwise follow docs/semantics.md where it picks
//!   one (integer division by zero gives all ones, the flags of -A-B are
//!   those of the plain add of the loaded values, POW(x, 0) = 1), so that
//!   traces read the same as the GPU; they stay marked undefined.
//! * **Transcendentals** (`Approx*` of the pseudocode) are computed in
//!   double precision and rounded to single; special values follow IEEE
//!   (issue 18): RCP(±0) = ±INF, RSQ(+0) = +INF, LG2(0) = -INF, LG2(<0) =
//!   NaN, EX2(-INF) = 0. FRC never returns 1.0 (the spec says [0, 1)).
//! * **DDX/DDY** return zero: one fragment is run, as if every fragment of
//!   its quad had the same inputs.
//! * **Inputs** not given are zero (attributes, `program.env`,
//!   `program.local`, `state.*`); buffer words past the end of a given
//!   buffer read as zero and undefined.
//! * **Textures** are not modelled: a program containing a texture
//!   instruction fails with [`InterpError::Unsupported`]. **Images** are
//!   ([`Inputs::images`]; docs/semantics.md, "Images").
//! * **KIL** ends the invocation ("exit" in its pseudocode);
//!   [`Outcome::killed`] is set and the results hold what was written
//!   before it.
//!
//! Program options that add fixed-function work are applied after the run,
//! as the spec describes them: `ARB_position_invariant` writes
//! `result.position` from `state.matrix.mvp` and the user clip planes'
//! `result.clip[n]`, `ARB_fog_*` blends `result.color` with the fog colour
//! (docs/semantics.md, "Options"). The renderer's clip-space conversions
//! (`Options::invert_y`, `Options::depth_range`) are interface mappings of
//! the module, not program semantics, and are not applied.
//!
//! Geometry programs run once per input primitive: `EMIT` appends the
//! current results to [`Outcome::vertices`] and makes them undefined again,
//! `ENDPRIM` starts a new output primitive.

mod alu;
mod fixed_function;
mod half;
mod image;
mod machine;
mod names;
mod value;
mod wide;

pub use image::{image_handle_arrays, image_units, Image, ImageUnitUse};
pub use names::{
    attribute_aliases, attribute_name, canonical_result_name, patch_suffix, per_vertex_name,
    result_name, state_name,
};
pub use value::Vec4;
pub use wide::Wide4;

use crate::ir::{self, CcReg};
use crate::isa::{CcFlags, DataType};
use crate::span::Span;
use std::collections::BTreeMap;
use std::fmt;

/// The values a program reads, as raw 32-bit patterns.
///
/// Keys of `attribs` and `state` are the names [`attribute_name`],
/// [`per_vertex_name`] and [`state_name`] give (`fragment.texcoord[0]`,
/// `vertex[2].position`, `state.matrix.mvp.row[0]`); spellings listed by
/// [`attribute_aliases`] are accepted too. Anything not given reads as
/// zero.
///
/// ```
/// use nvp4c::interp::{self, Inputs};
/// let mut inputs = Inputs::default();
/// inputs.set("fragment.color", interp::floats([1.0, 0.5, 0.25, 1.0])).unwrap();
/// inputs.set("program.local[0]", interp::floats([2.0; 4])).unwrap();
/// assert_eq!(inputs.local[&0], interp::floats([2.0; 4]));
/// # let (program, _) = nvp4c::check("!!NVfp4.0\nMUL result.color, fragment.color, program.local[0];\nEND\n", &nvp4c::Options::default()).unwrap();
/// let outcome = interp::run(&program, &inputs, &Default::default()).unwrap();
/// assert_eq!(outcome.results["result.color"].floats(), [2.0, 1.0, 0.5, 2.0]);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Inputs {
    /// Attribute bindings by name.
    pub attribs: BTreeMap<String, [u32; 4]>,
    /// The 64-bit components of the attributes a vertex program declares
    /// `LONG ATTRIB` (NV_gpu_program5 2.X.3.1, set with VertexAttribL*), by
    /// attribute name: raw bits, read as the instruction's type. An
    /// attribute missing here reads zero bits.
    pub attribs64: BTreeMap<String, [u64; 4]>,
    /// `program.env[n]`.
    pub env: BTreeMap<u32, [u32; 4]>,
    /// `program.local[n]`.
    pub local: BTreeMap<u32, [u32; 4]>,
    /// GL state bindings by [`state_name`].
    pub state: BTreeMap<String, [u32; 4]>,
    /// `program.buffer[b]` as 32-bit words: element `n` of a `BUFFER`
    /// variable is word `n` (broadcast to x, y, z, w), element `n` of a
    /// `BUFFER4` variable is words `4n..4n+4` (NV_parameter_buffer_object,
    /// section 2.X.3.6).
    pub buffers: BTreeMap<u32, Vec<u32>>,
    /// NV_shader_storage_buffer_object's `program.storage[a]` as 32-bit
    /// words (byte offset 4·w is word w); LDB, STB and ATOMB read and
    /// write them, and the run's [`Outcome::storage`] holds the result.
    pub storage: BTreeMap<u32, Vec<u32>>,
    /// ARB_shader_subroutine's `program.subroutine[n]` (NV_gpu_program5
    /// edits): the SUBROUTINENUM each subroutine parameter holds, which
    /// selects what CALI calls; an unset one holds 0.
    pub subroutine: BTreeMap<u32, u32>,
    /// NV_shader_atomic_counters' `program.counter[a]`: counter `b` is
    /// word `b`; ATOMCTR reads and writes them, and the run's
    /// [`Outcome::counters`] holds the result.
    pub counters: BTreeMap<u32, Vec<u32>>,
    /// EXT_shader_image_load_store's image units by unit number (`image[n]`):
    /// LOADIM, STOREIM and ATOMIM read and write them, and the run's
    /// [`Outcome::images`] holds the result. [`image_units`] gives the
    /// units a program accesses and the texel layout it reads them with
    /// ([`image_handle_arrays`] the same for image handles).
    pub images: BTreeMap<u32, Image>,
    /// NV_bindless_texture's image handles: element `h` of each descriptor
    /// array of a target and format (docs/interface.md, "Bindless
    /// images"), the image handle `h` names in the accesses of that target
    /// and format; laid out as an image unit of that format. A handle
    /// without an image here, or at or past the array's 8 elements,
    /// names no image: its loads return zero, its stores and atomics do
    /// nothing. The run's [`Outcome::bindless_images`] holds the result.
    pub bindless_images: BTreeMap<(crate::ir::BindlessImageArray, u32), Image>,
    /// The GPU memory of LOAD, STORE and ATOM (NV_shader_buffer_load,
    /// NV_shader_buffer_store): buffers by the GPU address of their first
    /// byte (a multiple of 4), as 32-bit words (address `base + 4·w` is
    /// word `w`); the run's [`Outcome::global`] holds them afterwards. An
    /// access outside all of them is undefined (an [`UndefinedEvent`]).
    pub global: BTreeMap<u64, Vec<u32>>,
    /// Attribute components whose value the spec leaves undefined (bit `i`:
    /// component `i`), by attribute name: e.g. a fragment attribute
    /// interpolated from a vertex result that was undefined. Reads of them
    /// are undefined, and so is what is computed from them.
    pub undefined_attribs: BTreeMap<String, u8>,
}

impl Inputs {
    /// Sets an input by its binding name: `program.env[n]`,
    /// `program.local[n]`, `state.…`, `program.buffer[b]` (the vector's
    /// four words become the buffer's words 0 to 3; set
    /// [`Inputs::buffers`] directly for more), `program.subroutine[n]` (the
    /// vector's `x`), or an attribute name.
    ///
    /// Fails for a name that is no binding, e.g. `color` or `program.foo`.
    ///
    /// ```
    /// let mut inputs = nvp4c::interp::Inputs::default();
    /// inputs.set("program.env[3]", [1, 2, 3, 4]).unwrap();
    /// inputs.set("state.matrix.mvp.row[0]", [0; 4]).unwrap();
    /// inputs.set("vertex.attrib[1]", [0; 4]).unwrap();
    /// assert_eq!(inputs.env[&3], [1, 2, 3, 4]);
    /// assert!(inputs.set("color", [0; 4]).is_err());
    /// assert!(inputs.set("program.local[x]", [0; 4]).is_err());
    /// ```
    pub fn set(&mut self, name: &str, value: [u32; 4]) -> Result<(), String> {
        let index = |prefix: &str| -> Option<Result<u32, String>> {
            let rest = name.strip_prefix(prefix)?;
            Some(
                rest.strip_suffix(']')
                    .and_then(|n| n.trim().parse::<u32>().ok())
                    .ok_or_else(|| format!("`{name}`: expected `{prefix}N]`")),
            )
        };
        if let Some(n) = index("program.env[") {
            self.env.insert(n?, value);
        } else if let Some(n) = index("program.local[") {
            self.local.insert(n?, value);
        } else if let Some(n) = index("program.buffer[") {
            self.buffers.insert(n?, value.to_vec());
        } else if let Some(n) = index("program.subroutine[") {
            self.subroutine.insert(n?, value[0]);
        } else if name.starts_with("state.") {
            self.state.insert(name.to_string(), value);
        } else if name.starts_with("program.") {
            return Err(format!(
                "`{name}`: the program parameters are program.env[n], program.local[n], program.buffer[b] and program.subroutine[n]"
            ));
        } else if name.contains('.') {
            self.attribs.insert(name.to_string(), value);
        } else {
            return Err(format!(
                "`{name}` is not a binding name (e.g. fragment.texcoord[0], program.local[2], state.matrix.mvp.row[0])"
            ));
        }
        Ok(())
    }
}

/// The bits of four floats.
///
/// ```
/// assert_eq!(nvp4c::interp::floats([1.0, 0.0, -2.0, 0.5])[0], 0x3f80_0000);
/// ```
pub fn floats(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// The bits of four signed integers.
///
/// ```
/// assert_eq!(nvp4c::interp::ints([-1, 0, 1, 2]), [u32::MAX, 0, 1, 2]);
/// ```
pub fn ints(v: [i32; 4]) -> [u32; 4] {
    v.map(|x| x as u32)
}

/// How to run.
///
/// ```
/// let mut options = nvp4c::interp::RunOptions::default();
/// options.trace = true;
/// options.max_steps = 1000;
/// let (program, _) = nvp4c::check("!!NVfp4.0\nREP;\nBRK (FL.x);\nENDREP;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let err = nvp4c::interp::run(&program, &Default::default(), &options).unwrap_err();
/// assert!(matches!(err, nvp4c::interp::InterpError::StepLimit { limit: 1000, .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunOptions {
    /// MAX_PROGRAM_CALL_DEPTH_NV: how many CALs may be active at once.
    pub max_call_depth: u32,
    /// MAX_PROGRAM_EXEC_INSTRUCTIONS_NV: a program whose BRAs can loop
    /// (`ir::Program::branches_loop`) ends abnormally at the first BRA
    /// executed when this many statements have run (docs/semantics.md,
    /// "Branches").
    pub max_exec_instructions: u32,
    /// Statements (instructions and flow control) executed before the run
    /// stops with [`InterpError::StepLimit`].
    pub max_steps: u64,
    /// Record a [`TraceStep`] per executed statement.
    pub trace: bool,
    /// At most this many trace steps are kept (the first ones).
    pub max_trace: usize,
    /// `Options::user_clip_planes`: the user clip planes a
    /// position-invariant vertex program clips against.
    pub user_clip_planes: u32,
    /// `Options::two_sided_color`: a back-facing fragment
    /// (`fragment.facing` x < 0) reads `fragment.color.back` and
    /// `fragment.color.back.secondary` for its colours.
    pub two_sided_color: bool,
    /// Mark a relative read or write outside its array undefined, as the
    /// specification leaves it (section 2.X.4.2), instead of taking the
    /// element nvp4c clamps the index to (the default, which is what the
    /// compiled program does). For comparing with another implementation,
    /// whose out-of-range element is its own.
    pub out_of_range_undefined: bool,
    /// Evaluate the float arithmetic of each instruction with several
    /// roundings (MAD, the dot products, LRP, XPD, X2D) in double
    /// precision and round its result once, as an implementation with
    /// fused multiply-adds or wider intermediates does: the ARB
    /// specifications set only a floor ("The minimum precision requirements
    /// (1 part in 10^5 or roughly 17 bits)", ARB_vertex_program issue 22),
    /// so either result is correct. Off (the default): every operation rounds to single
    /// precision in the specification's order, as the compiled module
    /// does on lavapipe. For comparing with another implementation.
    pub wide_intermediates: bool,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            max_call_depth: crate::limits::Limits::default().max_call_depth,
            max_exec_instructions: crate::limits::Limits::default().max_exec_instructions,
            max_steps: 10_000_000,
            trace: false,
            max_trace: 100_000,
            user_clip_planes: crate::state::MAX_CLIP_PLANES,
            two_sided_color: false,
            out_of_range_undefined: false,
            wide_intermediates: false,
        }
    }
}

impl RunOptions {
    /// The run options matching the limits a program was checked with.
    ///
    /// ```
    /// let mut options = nvp4c::Options::default();
    /// options.limits.max_call_depth = 4;
    /// assert_eq!(nvp4c::interp::RunOptions::from_options(&options).max_call_depth, 4);
    /// ```
    pub fn from_options(options: &crate::Options) -> RunOptions {
        RunOptions {
            max_call_depth: options.limits.max_call_depth,
            max_exec_instructions: options.limits.max_exec_instructions,
            user_clip_planes: options.user_clip_planes,
            two_sided_color: options.two_sided_color,
            ..RunOptions::default()
        }
    }
}

/// The final value of one result binding.
///
/// ```
/// use nvp4c::interp::{self, RunOptions};
/// let (program, _) = nvp4c::check("!!NVfp4.0\nMOV result.color.xy, 0.5;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let outcome = interp::run(&program, &Default::default(), &RunOptions::default()).unwrap();
/// let color = &outcome.results["result.color"];
/// assert_eq!((color.written, color.undefined, color.defined()), (0b0011, 0b1100, 0b0011));
/// assert_eq!(color.floats()[..2], [0.5, 0.5]);
/// assert_eq!(color.types[0], nvp4c::isa::DataType::Float);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResultValue {
    /// The raw bits; zero where never written.
    pub bits: [u32; 4],
    /// Components written (bit i = component i).
    pub written: u8,
    /// Components whose value is undefined by the spec: never written, or
    /// written with an undefined value.
    pub undefined: u8,
    /// The data type of the instruction that last wrote each component.
    pub types: [DataType; 4],
}

impl ResultValue {
    /// The components read as floats.
    ///
    /// ```
    /// # let (program, _) = nvp4c::check("!!NVfp4.0\nMOV result.color, {1, 2, 3, 4};\nEND\n", &nvp4c::Options::default()).unwrap();
    /// # let outcome = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
    /// assert_eq!(outcome.results["result.color"].floats(), [1.0, 2.0, 3.0, 4.0]);
    /// ```
    pub fn floats(&self) -> [f32; 4] {
        self.bits.map(f32::from_bits)
    }
    /// The components read as signed integers.
    ///
    /// ```
    /// # let (program, _) = nvp4c::check("!!NVfp4.0\nOUTPUT out = result.color;\nMOV.S out, {-1, 2, 3, 4};\nEND\n", &nvp4c::Options::default()).unwrap();
    /// # let outcome = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
    /// assert_eq!(outcome.results["result.color"].ints(), [-1, 2, 3, 4]);
    /// ```
    pub fn ints(&self) -> [i32; 4] {
        self.bits.map(|b| b as i32)
    }
    /// Components written with a value the spec defines.
    ///
    /// ```
    /// # let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nMOV result.color.x, 1;\nMOV result.color.y, t.x;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// # let outcome = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
    /// // y was written from an unwritten temporary; z and w never written.
    /// assert_eq!(outcome.results["result.color"].defined(), 0b0001);
    /// ```
    pub fn defined(&self) -> u8 {
        self.written & !self.undefined & 0xf
    }
}

/// One vertex a geometry program emitted.
///
/// ```
/// let source = "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 2;\n\
///               MOV result.position, vertex[0].position;\nEMIT;\nENDPRIM;\nEMIT;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// let outcome = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
/// let primitives: Vec<u32> = outcome.vertices.iter().map(|v| v.primitive).collect();
/// assert_eq!(primitives, [0, 1]);
/// assert!(outcome.vertices[0].results.contains_key("result.position"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EmittedVertex {
    /// Output primitive number: 0, then one more after each `ENDPRIM`.
    pub primitive: u32,
    /// The vertex stream: 0 for EMIT, the operand of EMITS
    /// (NV_gpu_program5 2.X.8.Z).
    pub stream: u32,
    /// Every result binding at the `EMIT`, by [`result_name`].
    pub results: BTreeMap<String, ResultValue>,
}

/// An event after which the spec does not define the run.
///
/// ```
/// let source = "!!NVfp4.0\nTEMP t;\nMOVC t, fragment.color;\nMOVC t, t;\nIF GT1.x;\nENDIF;\nMOV result.color, t;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// let outcome = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
/// // CC1 was never written: the IF branches on undefined flags.
/// let event = &outcome.undefined[0];
/// assert_eq!(&source[event.span.range()], "IF GT1.x");
/// assert!(!event.what.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UndefinedEvent {
    /// The statement.
    pub span: Span,
    /// What is undefined, in words.
    pub what: String,
}

/// What a run produced.
///
/// ```
/// let source = "!!NVfp4.0\nKIL fragment.color.x;\nMOV result.color, 1;\nEND\n";
/// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
/// let mut inputs = nvp4c::interp::Inputs::default();
/// inputs.set("fragment.color", nvp4c::interp::floats([-1.0; 4])).unwrap();
/// let outcome = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
/// assert!(outcome.killed);
/// assert_eq!(outcome.results["result.color"].written, 0); // KIL ended the run first
/// assert_eq!(outcome.steps, 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Outcome {
    /// Every result binding the program declares, by [`result_name`].
    pub results: BTreeMap<String, ResultValue>,
    /// A KIL discarded the fragment.
    pub killed: bool,
    /// Geometry programs: the emitted vertices in order.
    pub vertices: Vec<EmittedVertex>,
    /// The storage buffers after the run ([`Inputs::storage`] changed by
    /// STB and ATOMB; one invocation, so BAR has nothing to wait for).
    pub storage: BTreeMap<u32, Vec<u32>>,
    /// The atomic counter buffers after the run ([`Inputs::counters`]
    /// changed by ATOMCTR).
    pub counters: BTreeMap<u32, Vec<u32>>,
    /// The image units after the run ([`Inputs::images`] changed by
    /// STOREIM and ATOMIM).
    pub images: BTreeMap<u32, Image>,
    /// The bindless image handles' images after the run
    /// ([`Inputs::bindless_images`] changed by STOREIM and ATOMIM).
    pub bindless_images: BTreeMap<(crate::ir::BindlessImageArray, u32), Image>,
    /// The GPU memory after the run ([`Inputs::global`] changed by STORE
    /// and ATOM).
    pub global: BTreeMap<u64, Vec<u32>>,
    /// A compute program's shared memory after the run, one entry per
    /// byte of `SHARED_MEMORY`, `None` where never written (its contents
    /// are undefined at the start, NV_compute_program5 2.X.3.Y); the one
    /// invocation is the whole work group.
    pub shared: Vec<Option<u8>>,
    /// Events that leave the rest of the run undefined (see the module
    /// documentation), the first at each statement; empty for a run the
    /// spec defines completely.
    pub undefined: Vec<UndefinedEvent>,
    /// Notes on nvp4c's choices where the spec is silent, e.g. a relative
    /// index clamped into its array.
    pub notes: Vec<UndefinedEvent>,
    /// Statements executed.
    pub steps: u64,
    /// With [`RunOptions::trace`]: the executed statements.
    pub trace: Vec<TraceStep>,
    /// More steps ran than [`RunOptions::max_trace`] keeps.
    pub trace_truncated: bool,
}

impl Outcome {
    /// The result `name`, in any spelling [`canonical_result_name`]
    /// accepts (`result.color[0]` finds `result.color`).
    ///
    /// ```
    /// # let (program, _) = nvp4c::check("!!NVfp4.0\nMOV result.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
    /// # let outcome = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap();
    /// assert_eq!(outcome.result("result.color[0]").unwrap().floats(), [1.0; 4]);
    /// assert!(outcome.result("result.depth").is_none());
    /// ```
    pub fn result(&self, name: &str) -> Option<&ResultValue> {
        self.results
            .get(name)
            .or_else(|| self.results.get(&canonical_result_name(name)))
    }
}

/// One executed statement.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nADDC result.color, fragment.color, 1;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let mut options = nvp4c::interp::RunOptions::default();
/// options.trace = true;
/// let outcome = nvp4c::interp::run(&program, &Default::default(), &options).unwrap();
/// let step = &outcome.trace[0];
/// assert_eq!(step.what, "ADD.CC0");
/// let write = step.write.as_ref().unwrap();
/// assert_eq!((write.target.as_str(), write.mask, write.bits[0]), ("result.color", 0xf, 1.0f32.to_bits()));
/// assert_eq!(step.cc.as_ref().unwrap().mask, 0xf);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TraceStep {
    /// The statement's source text.
    pub span: Span,
    /// What happened, e.g. `ADD.S.CC0`, `IF: taken`, `REP: 3 iterations`,
    /// `BRK: not taken`, `end of REP body: repeat (2 left)`.
    pub what: String,
    /// The value written, for instructions.
    pub write: Option<TraceWrite>,
    /// The condition code update, for instructions that have one.
    pub cc: Option<TraceCc>,
}

/// The destination update of one instruction.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP a[2];\nMOV.U a[1].y, 7;\nMOV result.color, a[1];\nEND\n", &nvp4c::Options::default()).unwrap();
/// let mut options = nvp4c::interp::RunOptions::default();
/// options.trace = true;
/// let outcome = nvp4c::interp::run(&program, &Default::default(), &options).unwrap();
/// let write = outcome.trace[0].write.as_ref().unwrap();
/// assert_eq!((write.target.as_str(), write.mask, write.bits[1]), ("a[1]", 0b0010, 7));
/// assert_eq!((write.ty, write.undefined), (nvp4c::isa::DataType::Unsigned, 0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TraceWrite {
    /// The variable written, with the element for arrays, e.g. `R0`,
    /// `result.color`, `arr[2]`.
    pub target: String,
    /// Components actually written (write mask and condition code mask).
    pub mask: u8,
    /// The clamped result (all four components, written or not).
    pub bits: [u32; 4],
    /// The data type the value was written with.
    pub ty: DataType,
    /// Result components whose value is undefined.
    pub undefined: u8,
}

/// A condition code update.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nTEMP t;\nSUBC1 t.x, 0, 1;\nMOV result.color, t;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let mut options = nvp4c::interp::RunOptions::default();
/// options.trace = true;
/// let outcome = nvp4c::interp::run(&program, &Default::default(), &options).unwrap();
/// let cc = outcome.trace[0].cc.as_ref().unwrap();
/// assert_eq!((cc.reg, cc.mask), (nvp4c::ir::CcReg(1), 0b0001));
/// assert!(cc.flags[0].sf); // 0 - 1 is negative
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TraceCc {
    /// CC0 or CC1.
    pub reg: CcReg,
    /// Components updated.
    pub mask: u8,
    /// The register's flags after the instruction.
    pub flags: [CcFlags; 4],
}

/// Why a run failed.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n", &nvp4c::Options::default()).unwrap();
/// let err = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap_err();
/// assert!(matches!(err, nvp4c::interp::InterpError::Unsupported { .. }));
/// assert!(err.to_string().contains("TEX"));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum InterpError {
    /// Something the interpreter does not model (textures).
    Unsupported {
        /// What is not modelled, e.g. `TEX`.
        what: String,
        /// The instruction.
        span: Span,
    },
    /// The step limit was reached (an endless loop?). `partial` holds the
    /// state at that point, with its trace.
    StepLimit {
        /// [`RunOptions::max_steps`].
        limit: u64,
        /// The outcome so far.
        partial: Box<Outcome>,
    },
    /// The IR breaks an invariant the checker guarantees (a bug).
    Internal {
        /// The broken invariant.
        what: String,
        /// Where it was found.
        span: Span,
    },
}

impl InterpError {
    /// Where in the source the error is, when it has a place.
    ///
    /// ```
    /// let source = "!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n";
    /// let (program, _) = nvp4c::check(source, &nvp4c::Options::default()).unwrap();
    /// let err = nvp4c::interp::run(&program, &Default::default(), &Default::default()).unwrap_err();
    /// assert!(source[err.span().unwrap().range()].starts_with("TEX"));
    /// ```
    pub fn span(&self) -> Option<Span> {
        match self {
            InterpError::Unsupported { span, .. } | InterpError::Internal { span, .. } => {
                Some(*span)
            }
            InterpError::StepLimit { .. } => None,
        }
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InterpError::Unsupported { what, .. } => {
                write!(f, "the interpreter does not support {what}")
            }
            InterpError::StepLimit { limit, .. } => write!(
                f,
                "stopped after {limit} executed statements (an endless loop?)"
            ),
            InterpError::Internal { what, .. } => write!(f, "internal interpreter error: {what}"),
        }
    }
}

impl std::error::Error for InterpError {}

/// Runs `program` once on `inputs`.
///
/// Fails with [`InterpError::Unsupported`] before executing anything if the
/// program uses a texture instruction, and with [`InterpError::StepLimit`]
/// when [`RunOptions::max_steps`] statements have run. Never panics.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVvp4.0\nDP4 result.position.x, vertex.position, program.env[0];\nEND\n", &nvp4c::Options::default()).unwrap();
/// let mut inputs = nvp4c::interp::Inputs::default();
/// inputs.set("vertex.position", nvp4c::interp::floats([1.0, 2.0, 3.0, 1.0])).unwrap();
/// inputs.set("program.env[0]", nvp4c::interp::floats([1.0, 1.0, 1.0, 10.0])).unwrap();
/// let outcome = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
/// assert_eq!(outcome.results["result.position"].floats()[0], 16.0);
/// ```
pub fn run(
    program: &ir::Program,
    inputs: &Inputs,
    options: &RunOptions,
) -> Result<Outcome, InterpError> {
    let mut outcome = machine::Machine::new(program, inputs, options)?.run()?;
    fixed_function::apply(program, inputs, options, &mut outcome);
    Ok(outcome)
}

/// The attribute names a program reads (the keys of [`Inputs::attribs`]
/// that matter), canonical forms only. Per-vertex attributes of a geometry
/// program are listed for every input vertex.
///
/// ```
/// let (program, _) = nvp4c::check("!!NVfp4.0\nADD result.color, fragment.color, fragment.texcoord[1];\nEND\n", &nvp4c::Options::default()).unwrap();
/// assert_eq!(nvp4c::interp::attribute_inputs(&program), ["fragment.color", "fragment.texcoord[1]"]);
/// ```
pub fn attribute_inputs(program: &ir::Program) -> Vec<String> {
    let mut names = std::collections::BTreeSet::new();
    let vertices = match program.stage {
        crate::Stage::TessControl | crate::Stage::TessEval => crate::check::MAX_PATCH_VERTICES,
        _ => program.geometry.map_or(1, |g| g.input.vertex_count()),
    };
    let output_vertices = program.tess_control.map_or(0, |t| t.vertices_out);
    for var in &program.variables {
        if let ir::VarKind::Attrib(bindings) = &var.kind {
            for b in bindings {
                match b {
                    ir::AttribBinding::PerVertex {
                        vertex: None,
                        binding,
                    } => {
                        for v in 0..vertices {
                            names.insert(per_vertex_name(v, binding));
                        }
                    }
                    ir::AttribBinding::OutputVertex {
                        vertex: None,
                        binding,
                    } => {
                        for v in 0..output_vertices {
                            names.insert(attribute_name(
                                program.stage,
                                &ir::AttribBinding::OutputVertex {
                                    vertex: Some(v),
                                    binding: *binding,
                                },
                            ));
                        }
                    }
                    _ => {
                        names.insert(attribute_name(program.stage, b));
                    }
                }
            }
        }
    }
    names.into_iter().collect()
}

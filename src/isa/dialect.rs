//! The language a program is written in: its header and the options in
//! effect (a [`Dialect`]).
//!
//! NV_gpu_program4 is defined as an edit of the ARB assembly family
//! ("change the header from `!!ARBfp1.0` to `!!NVfp4.0`"), and every member
//! of the family is the ARB language plus features. A header gives the
//! program type and a base language; each `OPTION` adds features. Which
//! opcodes, modifiers, bindings, declarations and limits exist then follows
//! from the features alone, as data: the instruction table's columns
//! ([`Column`], [`super::OpInfo::in_column`]), the option table
//! ([`OPTIONS`]) and the properties below, read by lexer, checker,
//! backend, interpreter and language server alike.
//!
//! ```
//! use nvp4c::isa::{Dialect, Features, Header, Column};
//! let mut d = Dialect::new(Header::ArbFp1);
//! assert_eq!(d.column(), Column::ArbFp);
//! d.enable(Features::NV_FP2);
//! assert_eq!(d.column(), Column::Fp2);
//! assert!(d.has(Features::NV_FP), "NV_fragment_program2 includes NV_fragment_program");
//! assert_eq!(d.cc_registers(), 1);
//! ```

use super::{CcCondition, Stage};
use std::fmt;

/// The header on a program's first characters (section 2.X.2 of each
/// program type's specification). It fixes the program type and the base
/// language.
///
/// ```
/// use nvp4c::isa::Header;
/// assert_eq!(Header::parse("!!ARBvp1.0\nEND"), Some(Header::ArbVp1));
/// assert_eq!(Header::ArbFp1.stage(), nvp4c::Stage::Fragment);
/// assert_eq!(Header::NvGp4.text(), "!!NVgp4.0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Header {
    /// `!!NVvp4.0`: NV_vertex_program4.
    NvVp4,
    /// `!!NVfp4.0`: NV_fragment_program4.
    NvFp4,
    /// `!!NVgp4.0`: NV_geometry_program4.
    NvGp4,
    /// `!!ARBvp1.0`: ARB_vertex_program.
    ArbVp1,
    /// `!!ARBfp1.0`: ARB_fragment_program.
    ArbFp1,
    /// `!!NVvp5.0`: NV_gpu_program5's vertex programs.
    NvVp5,
    /// `!!NVtcp5.0`: NV_tessellation_program5's tessellation control programs.
    NvTcp5,
    /// `!!NVtep5.0`: NV_tessellation_program5's tessellation evaluation programs.
    NvTep5,
    /// `!!NVgp5.0`: NV_gpu_program5's geometry programs.
    NvGp5,
    /// `!!NVfp5.0`: NV_gpu_program5's fragment programs.
    NvFp5,
    /// `!!NVcp5.0`: NV_compute_program5.
    NvCp5,
    /// `!!VP1.0`: NV_vertex_program.
    Vp1,
    /// `!!VP1.1`: NV_vertex_program1_1.
    Vp11,
    /// `!!VP2.0`: NV_vertex_program2.
    Vp2,
    /// `!!FP1.0`: NV_fragment_program.
    Fp1,
}

impl Header {
    /// Every header nvp4c reads.
    pub const ALL: [Header; 15] = [
        Header::NvVp4,
        Header::NvFp4,
        Header::NvGp4,
        Header::ArbVp1,
        Header::ArbFp1,
        Header::NvVp5,
        Header::NvTcp5,
        Header::NvTep5,
        Header::NvGp5,
        Header::NvFp5,
        Header::NvCp5,
        Header::Vp1,
        Header::Vp11,
        Header::Vp2,
        Header::Fp1,
    ];

    /// The header as written.
    pub fn text(self) -> &'static str {
        match self {
            Header::NvVp4 => "!!NVvp4.0",
            Header::NvFp4 => "!!NVfp4.0",
            Header::NvGp4 => "!!NVgp4.0",
            Header::ArbVp1 => "!!ARBvp1.0",
            Header::ArbFp1 => "!!ARBfp1.0",
            Header::NvVp5 => "!!NVvp5.0",
            Header::NvTcp5 => "!!NVtcp5.0",
            Header::NvTep5 => "!!NVtep5.0",
            Header::NvGp5 => "!!NVgp5.0",
            Header::NvFp5 => "!!NVfp5.0",
            Header::NvCp5 => "!!NVcp5.0",
            Header::Vp1 => "!!VP1.0",
            Header::Vp11 => "!!VP1.1",
            Header::Vp2 => "!!VP2.0",
            Header::Fp1 => "!!FP1.0",
        }
    }

    /// The header at the very start of `source` ("without any preceding
    /// whitespace"), if it is one nvp4c reads.
    pub fn parse(source: &str) -> Option<Header> {
        Header::ALL
            .into_iter()
            .find(|h| source.starts_with(h.text()))
    }

    /// The program type.
    pub fn stage(self) -> Stage {
        match self {
            Header::NvVp4
            | Header::ArbVp1
            | Header::NvVp5
            | Header::Vp1
            | Header::Vp11
            | Header::Vp2 => Stage::Vertex,
            Header::NvFp4 | Header::ArbFp1 | Header::NvFp5 | Header::Fp1 => Stage::Fragment,
            Header::NvGp4 | Header::NvGp5 => Stage::Geometry,
            Header::NvTcp5 => Stage::TessControl,
            Header::NvTep5 => Stage::TessEval,
            Header::NvCp5 => Stage::Compute,
        }
    }

    /// The features every program with this header has.
    pub fn base(self) -> Features {
        match self {
            Header::NvVp4 | Header::NvFp4 | Header::NvGp4 => Features::NV4,
            Header::ArbVp1 => Features::ARB_VP,
            Header::ArbFp1 => Features::ARB_FP,
            // NV_gpu_program5 is an edit of NV_gpu_program4: everything of
            // NV4 holds, and the NV5 feature adds to it. It "may use the
            // LDC opcode without needing to declare "OPTION
            // NV_parameter_buffer_object2"" ("Dependencies on
            // NV_parameter_buffer_object2"), and "the LOAD opcode without
            // needing to declare "OPTION NV_shader_buffer_load""
            // ("Dependencies on NV_shader_buffer_load").
            Header::NvVp5
            | Header::NvTcp5
            | Header::NvTep5
            | Header::NvGp5
            | Header::NvFp5
            | Header::NvCp5 => Features(
                Features::NV4.0
                    | Features::NV5.0
                    | Features::PARAMETER_BUFFERS2.0
                    | Features::SHADER_BUFFER_LOAD.0,
            ),
            // The older NV headers are the languages the ARB family was
            // built from: each is an ARB base plus what the matching NV
            // option has, restricted by its own column and fixed registers
            // (crate::check::legacy).
            Header::Vp1 => Features(Features::ARB_VP.0 | Features::NV_VP1.0),
            Header::Vp11 => Features(Features::ARB_VP.0 | Features::NV_VP1.0 | Features::NV_VP11.0),
            Header::Vp2 => Features(Features::ARB_VP.0 | Features::NV_VP2.0 | Features::NV_VP20.0),
            // NV_fragment_program_option is NV_fragment_program's
            // instruction set on ARB_fragment_program: FP1.0 is that
            // option restricted by the FP1 column.
            Header::Fp1 => Features(Features::ARB_FP.0 | Features::NV_FP.0 | Features::NV_FP1.0),
        }
    }

    /// The specification that defines the header's language.
    pub fn spec(self) -> &'static str {
        match self {
            Header::NvVp4 => "NV_vertex_program4",
            Header::NvFp4 => "NV_fragment_program4",
            Header::NvGp4 => "NV_geometry_program4",
            Header::ArbVp1 => "ARB_vertex_program",
            Header::ArbFp1 => "ARB_fragment_program",
            Header::NvVp5 | Header::NvGp5 | Header::NvFp5 => "NV_gpu_program5",
            Header::NvTcp5 | Header::NvTep5 => "NV_tessellation_program5",
            Header::NvCp5 => "NV_compute_program5",
            Header::Vp1 => "NV_vertex_program",
            Header::Vp11 => "NV_vertex_program1_1",
            Header::Vp2 => "NV_vertex_program2",
            Header::Fp1 => "NV_fragment_program",
        }
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// A set of language features: a base language (from the header) and what
/// the options add.
///
/// ```
/// use nvp4c::isa::Features;
/// let f = Features::ARB_FP | Features::NV_FP;
/// assert!(f.contains(Features::NV_FP) && !f.contains(Features::NV_FP2));
/// assert!(f.intersects(Features::NV_FP | Features::NV4));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Features(u32);

impl Features {
    /// No feature.
    pub const NONE: Features = Features(0);
    /// NV_gpu_program4 and its program types (`!!NVvp4.0`, `!!NVfp4.0`, `!!NVgp4.0`).
    pub const NV4: Features = Features(1);
    /// ARB_vertex_program (`!!ARBvp1.0`).
    pub const ARB_VP: Features = Features(1 << 1);
    /// ARB_fragment_program (`!!ARBfp1.0`).
    pub const ARB_FP: Features = Features(1 << 2);
    /// `OPTION NV_vertex_program2;` (NV_vertex_program2_option).
    pub const NV_VP2: Features = Features(1 << 3);
    /// `OPTION NV_vertex_program3;` (NV_vertex_program3).
    pub const NV_VP3: Features = Features(1 << 4);
    /// `OPTION NV_fragment_program;` (NV_fragment_program_option).
    pub const NV_FP: Features = Features(1 << 5);
    /// `OPTION NV_fragment_program2;` (NV_fragment_program2).
    pub const NV_FP2: Features = Features(1 << 6);
    /// `OPTION ARB_fragment_program_shadow;`: the SHADOW targets.
    pub const SHADOW: Features = Features(1 << 7);
    /// `OPTION ARB_draw_buffers;` (or `ATI_draw_buffers`): `result.color[n]`.
    pub const DRAW_BUFFERS: Features = Features(1 << 8);
    /// `OPTION NV_parameter_buffer_object;`.
    pub const PARAMETER_BUFFERS: Features = Features(1 << 9);
    /// `OPTION ARB_position_invariant;`.
    pub const POSITION_INVARIANT: Features = Features(1 << 10);
    /// `OPTION ARB_fog_exp;`.
    pub const FOG_EXP: Features = Features(1 << 11);
    /// `OPTION ARB_fog_exp2;`.
    pub const FOG_EXP2: Features = Features(1 << 12);
    /// `OPTION ARB_fog_linear;`.
    pub const FOG_LINEAR: Features = Features(1 << 13);
    /// `OPTION ARB_precision_hint_fastest;`.
    pub const PRECISION_FASTEST: Features = Features(1 << 14);
    /// `OPTION ARB_precision_hint_nicest;`.
    pub const PRECISION_NICEST: Features = Features(1 << 15);
    /// `OPTION ARB_fragment_coord_origin_upper_left;`.
    pub const ORIGIN_UPPER_LEFT: Features = Features(1 << 16);
    /// `OPTION ARB_fragment_coord_pixel_center_integer;`.
    pub const PIXEL_CENTER_INTEGER: Features = Features(1 << 17);
    /// NV_gpu_program5 and its program types (`!!NVvp5.0` ... `!!NVcp5.0`);
    /// always together with [`Features::NV4`].
    pub const NV5: Features = Features(1 << 18);
    /// `OPTION NV_shader_storage_buffer;`: STORAGE, LDB, STB, ATOMB.
    pub const STORAGE_BUFFER: Features = Features(1 << 19);
    /// `!!VP1.0` (NV_vertex_program) and its successors `!!VP1.1`.
    pub const NV_VP1: Features = Features(1 << 20);
    /// `!!VP1.1` (NV_vertex_program1_1): ABS DPH RCC SUB and position
    /// invariance.
    pub const NV_VP11: Features = Features(1 << 21);
    /// `!!VP2.0` (NV_vertex_program2); always with [`Features::NV_VP2`].
    pub const NV_VP20: Features = Features(1 << 22);
    /// `!!FP1.0` (NV_fragment_program); always with [`Features::NV_FP`].
    pub const NV_FP1: Features = Features(1 << 23);
    /// `OPTION NV_shader_thread_shuffle;`: SHFIDX, SHFUP, SHFDOWN, SHFXOR.
    pub const THREAD_SHUFFLE: Features = Features(1 << 24);
    /// `OPTION NV_shader_thread_group;`: TGBALLOT, the QSWZ instructions,
    /// the thread bindings and `state.thread.*`.
    pub const THREAD_GROUP: Features = Features(1 << 25);
    /// `OPTION NV_parameter_buffer_object2;`: CBUFFER declarations and the
    /// LDC instruction; part of every NV_gpu_program5 header
    /// (NV_gpu_program5, "Dependencies on NV_parameter_buffer_object2").
    pub const PARAMETER_BUFFERS2: Features = Features(1 << 26);
    /// `OPTION NV_bindless_texture;`: textures and images named by a
    /// handle, `handle(a.x)`, in the texture instructions and in LOADIM,
    /// STOREIM and ATOMIM.
    pub const BINDLESS_TEXTURE: Features = Features(1 << 29);
    /// `OPTION NV_shader_atomic_counters;`: COUNTER declarations and the
    /// ATOMCTR instruction.
    pub const ATOMIC_COUNTERS: Features = Features(1 << 27);
    /// `OPTION NV_shader_buffer_load;`: the LOAD instruction in
    /// NV_gpu_program4 programs; part of every NV_gpu_program5 header
    /// (NV_gpu_program5, "Dependencies on NV_shader_buffer_load").
    pub const SHADER_BUFFER_LOAD: Features = Features(1 << 30);
    /// `OPTION NV_shader_atomic_float;`: F32 ADD and EXCH atomics (which
    /// ATOMB and ATOMS have whenever the extension is supported).
    pub const ATOMIC_FLOAT: Features = Features(1 << 28);
    /// `OPTION NV_gpu_program5_mem_extended;`: the F16, F16X2, F16X4 and
    /// 8- and 16-bit integer vector storage modifiers on the load and
    /// store instructions (NV_gpu_program5_mem_extended 2.X.6).
    pub const MEM_EXTENDED: Features = Features(1 << 31);
    /// Any of the older NV headers, whose registers are fixed names
    /// rather than declarations.
    pub const NV_LEGACY: Features =
        Features(Features::NV_VP1.0 | Features::NV_VP20.0 | Features::NV_FP1.0);

    /// Any of the three fog options.
    pub const FOG: Features =
        Features(Features::FOG_EXP.0 | Features::FOG_EXP2.0 | Features::FOG_LINEAR.0);
    /// The vertex languages of the ARB family with an NV option.
    pub const NV_VERTEX_OPTIONS: Features = Features(Features::NV_VP2.0 | Features::NV_VP3.0);
    /// The fragment languages of the ARB family with an NV option.
    pub const NV_FRAGMENT_OPTIONS: Features = Features(Features::NV_FP.0 | Features::NV_FP2.0);

    /// Whether every feature of `other` is in `self`.
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }
    /// Whether any feature of `other` is in `self`.
    pub const fn intersects(self, other: Features) -> bool {
        self.0 & other.0 != 0
    }
    /// Both sets.
    pub const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }
    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Features {
    type Output = Features;
    fn bitor(self, rhs: Features) -> Features {
        self.union(rhs)
    }
}

impl std::ops::BitOrAssign for Features {
    fn bitor_assign(&mut self, rhs: Features) {
        *self = self.union(rhs);
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NAMES: [(Features, &str); 32] = [
            (Features::NV4, "NV4"),
            (Features::ARB_VP, "ARB_VP"),
            (Features::ARB_FP, "ARB_FP"),
            (Features::NV_VP2, "NV_VP2"),
            (Features::NV_VP3, "NV_VP3"),
            (Features::NV_FP, "NV_FP"),
            (Features::NV_FP2, "NV_FP2"),
            (Features::SHADOW, "SHADOW"),
            (Features::DRAW_BUFFERS, "DRAW_BUFFERS"),
            (Features::PARAMETER_BUFFERS, "PARAMETER_BUFFERS"),
            (Features::POSITION_INVARIANT, "POSITION_INVARIANT"),
            (Features::FOG_EXP, "FOG_EXP"),
            (Features::FOG_EXP2, "FOG_EXP2"),
            (Features::FOG_LINEAR, "FOG_LINEAR"),
            (Features::PRECISION_FASTEST, "PRECISION_FASTEST"),
            (Features::PRECISION_NICEST, "PRECISION_NICEST"),
            (Features::ORIGIN_UPPER_LEFT, "ORIGIN_UPPER_LEFT"),
            (Features::PIXEL_CENTER_INTEGER, "PIXEL_CENTER_INTEGER"),
            (Features::NV5, "NV5"),
            (Features::STORAGE_BUFFER, "STORAGE_BUFFER"),
            (Features::NV_VP1, "NV_VP1"),
            (Features::NV_VP11, "NV_VP11"),
            (Features::NV_VP20, "NV_VP20"),
            (Features::NV_FP1, "NV_FP1"),
            (Features::THREAD_SHUFFLE, "THREAD_SHUFFLE"),
            (Features::THREAD_GROUP, "THREAD_GROUP"),
            (Features::PARAMETER_BUFFERS2, "PARAMETER_BUFFERS2"),
            (Features::BINDLESS_TEXTURE, "BINDLESS_TEXTURE"),
            (Features::ATOMIC_COUNTERS, "ATOMIC_COUNTERS"),
            (Features::ATOMIC_FLOAT, "ATOMIC_FLOAT"),
            (Features::MEM_EXTENDED, "MEM_EXTENDED"),
            (Features::SHADER_BUFFER_LOAD, "SHADER_BUFFER_LOAD"),
        ];
        let names: Vec<&str> = NAMES
            .iter()
            .filter(|(flag, _)| self.contains(*flag))
            .map(|(_, n)| *n)
            .collect();
        write!(f, "Features({})", names.join(" | "))
    }
}

/// A column of the instruction table: one language level, with its own
/// set of opcodes and modifiers (Table X.13 of NV_gpu_program4, Table X.5
/// of ARB_vertex_program, ARB_fragment_program and each NV option).
/// NV_gpu_program5 and the older NV headers add columns here.
///
/// ```
/// use nvp4c::isa::Column;
/// assert_eq!(Column::ALL.len(), Column::COUNT);
/// assert_eq!(Column::Vp3.spec(), "NV_vertex_program3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    /// NV_gpu_program4 (Table X.13).
    Nv4,
    /// NV_gpu_program5 (its Table X.13 update).
    Nv5,
    /// ARB_vertex_program.
    ArbVp,
    /// ARB_vertex_program with NV_vertex_program2_option.
    Vp2,
    /// ARB_vertex_program with NV_vertex_program3.
    Vp3,
    /// ARB_fragment_program.
    ArbFp,
    /// ARB_fragment_program with NV_fragment_program_option.
    FpOption,
    /// ARB_fragment_program with NV_fragment_program2.
    Fp2,
    /// `!!VP1.0`: NV_vertex_program.
    NvVp1,
    /// `!!VP1.1`: NV_vertex_program1_1.
    NvVp11,
    /// `!!VP2.0`: NV_vertex_program2.
    NvVp2,
    /// `!!FP1.0`: NV_fragment_program.
    NvFp1,
}

impl Column {
    /// How many columns the table has.
    pub const COUNT: usize = 12;
    /// Every column, in the table's order.
    pub const ALL: [Column; Column::COUNT] = [
        Column::Nv4,
        Column::Nv5,
        Column::ArbVp,
        Column::Vp2,
        Column::Vp3,
        Column::ArbFp,
        Column::FpOption,
        Column::Fp2,
        Column::NvVp1,
        Column::NvVp11,
        Column::NvVp2,
        Column::NvFp1,
    ];

    /// The column's position in [`super::OpInfo`]'s columns.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The specification whose instruction table the column transcribes.
    pub fn spec(self) -> &'static str {
        match self {
            Column::Nv4 => "NV_gpu_program4",
            Column::Nv5 => "NV_gpu_program5",
            Column::ArbVp => "ARB_vertex_program",
            Column::Vp2 => "NV_vertex_program2_option",
            Column::Vp3 => "NV_vertex_program3",
            Column::ArbFp => "ARB_fragment_program",
            Column::FpOption => "NV_fragment_program_option",
            Column::Fp2 => "NV_fragment_program2",
            Column::NvVp1 => "NV_vertex_program",
            Column::NvVp11 => "NV_vertex_program1_1",
            Column::NvVp2 => "NV_vertex_program2",
            Column::NvFp1 => "NV_fragment_program",
        }
    }

    /// [`Column::describe`] for programs of one type: the NV4 column names
    /// only that type's header; a column of the other type is `None`.
    ///
    /// ```
    /// use nvp4c::{isa::Column, Stage};
    /// assert_eq!(Column::Nv4.describe_for(Stage::Fragment).unwrap(), "NV_gpu_program4 (`!!NVfp4.0`)");
    /// assert_eq!(Column::Fp2.describe_for(Stage::Vertex), None);
    /// ```
    pub fn describe_for(self, stage: Stage) -> Option<String> {
        let vertex = matches!(
            self,
            Column::ArbVp
                | Column::Vp2
                | Column::Vp3
                | Column::NvVp1
                | Column::NvVp11
                | Column::NvVp2
        );
        match self {
            Column::Nv4 => Header::ALL
                .into_iter()
                .find(|h| h.base() == Features::NV4 && h.stage() == stage)
                .map(|h| format!("NV_gpu_program4 (`{h}`)")),
            Column::Nv5 => Header::ALL
                .into_iter()
                .find(|h| h.base().contains(Features::NV5) && h.stage() == stage)
                .map(|h| format!("{} (`{h}`)", h.spec())),
            _ if vertex == (stage == Stage::Vertex)
                && matches!(stage, Stage::Vertex | Stage::Fragment) =>
            {
                Some(self.describe().to_string())
            }
            _ => None,
        }
    }

    /// How a program reaches this column: the header and option, e.g.
    /// `!!ARBfp1.0 with OPTION NV_fragment_program2`.
    pub fn describe(self) -> &'static str {
        match self {
            Column::Nv4 => "NV_gpu_program4 (`!!NVvp4.0`, `!!NVfp4.0`, `!!NVgp4.0`)",
            Column::Nv5 => "NV_gpu_program5 (`!!NVvp5.0`, `!!NVtcp5.0`, `!!NVtep5.0`, `!!NVgp5.0`, `!!NVfp5.0`, `!!NVcp5.0`)",
            Column::ArbVp => "`!!ARBvp1.0`",
            Column::Vp2 => "`!!ARBvp1.0` with `OPTION NV_vertex_program2`",
            Column::Vp3 => "`!!ARBvp1.0` with `OPTION NV_vertex_program3`",
            Column::ArbFp => "`!!ARBfp1.0`",
            Column::FpOption => "`!!ARBfp1.0` with `OPTION NV_fragment_program`",
            Column::Fp2 => "`!!ARBfp1.0` with `OPTION NV_fragment_program2`",
            Column::NvVp1 => "`!!VP1.0`",
            Column::NvVp11 => "`!!VP1.1`",
            Column::NvVp2 => "`!!VP2.0`",
            Column::NvFp1 => "`!!FP1.0`",
        }
    }
}

/// How the program's code is divided by labels (section 2.X.5 of
/// NV_gpu_program4; "Vertex Program Branching" of NV_vertex_program2_option;
/// "Fragment Program Branching" of NV_fragment_program2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelModel {
    /// No labels (ARB_vertex_program, ARB_fragment_program, the
    /// NV_fragment_program option: "execute a sequence of instructions
    /// without branching").
    None,
    /// NV_gpu_program4: a label starts a subroutine block that ends "just
    /// before the next instruction label or the end of the program".
    Subroutines,
    /// The NV options on ARB headers: labels mark places in one instruction
    /// stream; execution runs through them, and ends at the end of the
    /// program text even inside a subroutine ("A vertex program will also
    /// terminate after executing the last instruction in the program").
    Flat,
}

/// What address registers a program has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressModel {
    /// None: relative addressing uses integer temporaries (NV_gpu_program4)
    /// or does not exist (ARB_fragment_program).
    None,
    /// `ADDRESS` declarations whose registers have one accessible
    /// component, `x` (ARB_vertex_program 2.14.3.5).
    ArbScalar,
    /// `ADDRESS` declarations of four-component registers
    /// (NV_vertex_program2_option, NV_vertex_program3).
    ArbVector,
    /// One predefined register, `A0`, whose `x` is the index of the
    /// innermost LOOP (NV_fragment_program2 3.11.3.Y).
    LoopIndex,
}

/// The language of one program: the header and the features its options
/// add. A small value, copied wherever a rule depends on the language.
///
/// ```
/// use nvp4c::isa::{Dialect, Features, Header, LabelModel};
/// let nv4 = Dialect::new(Header::NvFp4);
/// assert_eq!(nv4.labels(), LabelModel::Subroutines);
/// let mut vp = Dialect::new(Header::ArbVp1);
/// assert_eq!(vp.labels(), LabelModel::None);
/// vp.enable(Features::NV_VP3);
/// assert_eq!((vp.labels(), vp.cc_registers()), (LabelModel::Flat, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dialect {
    /// The header.
    pub header: Header,
    /// The header's base language and what the options add.
    pub features: Features,
}

impl Dialect {
    /// The dialect of a program with this header and no options.
    pub fn nv4(stage: Stage) -> Dialect {
        let header = match stage {
            Stage::Vertex => Header::NvVp4,
            Stage::Fragment => Header::NvFp4,
            Stage::Geometry => Header::NvGp4,
            Stage::TessControl => Header::NvTcp5,
            Stage::TessEval => Header::NvTep5,
            Stage::Compute => Header::NvCp5,
        };
        Dialect::new(header)
    }

    /// The dialect of a header before any option.
    pub fn new(header: Header) -> Dialect {
        Dialect {
            header,
            features: header.base(),
        }
    }

    /// The program type.
    pub fn stage(self) -> Stage {
        self.header.stage()
    }

    /// Whether any feature of `f` is in effect.
    pub fn has(self, f: Features) -> bool {
        self.features.intersects(f)
    }

    /// Adds the features of an option (with the ones they include:
    /// NV_vertex_program3 is NV_vertex_program2 plus more, and
    /// NV_fragment_program2 is NV_fragment_program plus more).
    pub fn enable(&mut self, f: Features) {
        self.features |= f;
        if f.contains(Features::NV_VP3) {
            self.features |= Features::NV_VP2;
        }
        if f.contains(Features::NV_FP2) {
            self.features |= Features::NV_FP;
        }
    }

    /// The instruction table column of this language.
    pub fn column(self) -> Column {
        let f = self.features;
        if f.contains(Features::NV_FP1) {
            Column::NvFp1
        } else if f.contains(Features::NV_VP20) {
            Column::NvVp2
        } else if f.contains(Features::NV_VP11) {
            Column::NvVp11
        } else if f.contains(Features::NV_VP1) {
            Column::NvVp1
        } else if f.contains(Features::NV5) {
            Column::Nv5
        } else if f.contains(Features::NV4) {
            Column::Nv4
        } else if f.contains(Features::ARB_VP) {
            if f.contains(Features::NV_VP3) {
                Column::Vp3
            } else if f.contains(Features::NV_VP2) {
                Column::Vp2
            } else {
                Column::ArbVp
            }
        } else if f.contains(Features::NV_FP2) {
            Column::Fp2
        } else if f.contains(Features::NV_FP) {
            Column::FpOption
        } else {
            Column::ArbFp
        }
    }

    /// Whether the header is one of the ARB family's (`!!ARBvp1.0`,
    /// `!!ARBfp1.0`), with or without NV options.
    pub fn is_arb(self) -> bool {
        self.has(Features::ARB_VP | Features::ARB_FP)
    }

    /// Whether NV_gpu_program4's stand-alone modifiers (`.F`, `.CC1`,
    /// `.SAT`, Table X.14) exist; the ARB family has only opcode suffixes.
    pub fn standalone_modifiers(self) -> bool {
        self.has(Features::NV4)
    }

    /// How many condition code registers there are: none in the ARB base
    /// languages, one ("a single four-component vector") with
    /// NV_vertex_program2 and the NV fragment options, two (CC0, CC1) in
    /// NV_gpu_program4 and NV_vertex_program3.
    pub fn cc_registers(self) -> u8 {
        if self.has(Features::NV4 | Features::NV_VP3) {
            2
        } else if self.has(Features::NV_VP2 | Features::NV_FP) {
            1
        } else {
            0
        }
    }

    /// Whether a Table X.16 condition code test exists: all of them in
    /// NV_gpu_program4; `EQ GE GT LE LT NE TR FL` (the `<ccMaskRule>` of the
    /// NV options) in the ARB family.
    pub fn cc_test_exists(self, test: CcCondition) -> bool {
        use CcCondition as C;
        match self.cc_registers() {
            0 => false,
            _ if self.has(Features::NV4) => true,
            _ => matches!(
                test,
                C::Eq | C::Ge | C::Gt | C::Le | C::Lt | C::Ne | C::Tr | C::Fl
            ),
        }
    }

    /// Whether operands may take the absolute value operator `|x|`.
    pub fn absolute_value(self) -> bool {
        self.has(Features::NV4 | Features::NV_VP2 | Features::NV_FP)
    }

    /// Whether a scalar constant used as an operand takes a swizzle or
    /// scalar suffix: the ARB base grammars require one where a scalar
    /// is read (`POW R1.x, R1.x, 0.5.x;`), and the NV options and
    /// NV_gpu_program4 forbid it ("The ARB_vertex_program spec has a minor
    /// grammar bug ... The NV_vertex_program2_option grammar will correct
    /// this problem").
    pub fn scalar_constant_suffix(self) -> bool {
        !self.has(Features::NV4 | Features::NV_VP2 | Features::NV_FP)
    }

    /// Whether the `SHORT` and `LONG` declaration modifiers exist, and
    /// whether `LONG` may declare an OUTPUT (NV_fragment_program_option
    /// allows both on TEMP and OUTPUT; NV_gpu_program4 allows LONG on TEMP
    /// only).
    pub fn size_modifiers(self) -> Option<SizeModifiers> {
        if self.has(Features::NV4) {
            Some(SizeModifiers {
                long_outputs: false,
            })
        } else if self.has(Features::NV_FP) {
            Some(SizeModifiers { long_outputs: true })
        } else {
            None
        }
    }

    /// Whether every variable bound to one result must have the same size
    /// (NV_fragment_program_option 3.11.3.4).
    pub fn one_size_per_result(self) -> bool {
        self.has(Features::NV_FP)
    }

    /// Whether `INT`/`UINT`/`FLOAT` declarations, interpolation modifiers
    /// and the integer data types exist (NV_gpu_program4 only).
    pub fn typed_variables(self) -> bool {
        self.has(Features::NV4)
    }

    /// The address registers the language has.
    pub fn address_model(self) -> AddressModel {
        if self.has(Features::ARB_VP) {
            if self.has(Features::NV_VP2) {
                AddressModel::ArbVector
            } else {
                AddressModel::ArbScalar
            }
        } else if self.has(Features::NV_FP2) {
            AddressModel::LoopIndex
        } else {
            AddressModel::None
        }
    }

    /// What labels mean.
    pub fn labels(self) -> LabelModel {
        if self.has(Features::NV4) {
            LabelModel::Subroutines
        } else if self.has(Features::NV_VP2 | Features::NV_FP2) {
            LabelModel::Flat
        } else {
            LabelModel::None
        }
    }

    /// Whether the opcode names (and their suffixed variants) are reserved
    /// keywords that may not name variables: the ARB family's rule
    /// ("ABS, ABS_SAT, ADD, ..."; the NV options: "all the instruction names
    /// (and variants) listed in Table X.5 are reserved"). NV_gpu_program4
    /// reserves only the binding roots.
    pub fn reserves_opcodes(self) -> bool {
        self.is_arb()
    }

    /// The words that start a binding and are reserved keywords (section
    /// 2.X.2 of each program type): `fragment` (fragment programs),
    /// `vertex` (vertex and geometry programs), `primitive` (NV_gpu_program4
    /// fragment and geometry programs), `program`, `result`, `state`,
    /// `texture`.
    pub fn reserves_root(self, root: &str) -> bool {
        let stage = self.stage();
        match root {
            "program" | "result" | "state" => true,
            // ARB_vertex_program reserves `texture` too, though its
            // grammar uses it only as a state member.
            "texture" => true,
            // EXT_shader_image_load_store's NV_gpu_program5 grammar:
            // <imageUseDS> ::= "image" <arrayMemAbs>.
            "image" => self.has(Features::NV5),
            "fragment" => stage == Stage::Fragment,
            "vertex" => !matches!(stage, Stage::Fragment | Stage::Compute),
            "invocation" => stage == Stage::Compute,
            "primitive" => {
                self.has(Features::NV4) && !matches!(stage, Stage::Vertex | Stage::Compute)
            }
            _ => false,
        }
    }

    /// The constant offsets `[A0.x + n]` may add in relative addressing:
    /// ARB_vertex_program's `<addrRegPosOffset>` (0 to 63) and
    /// `<addrRegNegOffset>` (0 to 64), NV_fragment_program2's (0 to 9);
    /// `None` where the offset is bounded by the array instead
    /// (NV_gpu_program4: "[0,<n>-1]"). NV_vertex_program2_option's grammar
    /// drops ARB's bound (`<arrayMemRelOffset> ::= "+" <integer> | "-"
    /// <integer>`; Cg's vp40 output writes `c[A0.x + 106]`): any 32-bit
    /// offset.
    pub fn relative_offsets(self) -> Option<(i32, i32)> {
        if self.has(Features::NV_VP20) {
            // NV_vertex_program2 <vp2-progParamPosOff> 0 to 255,
            // <vp2-progParamNegOff> 0 to 256.
            Some((-256, 255))
        } else if self.has(Features::NV_VP2) {
            Some((-i32::MAX, i32::MAX))
        } else if self.has(Features::ARB_VP) {
            Some((-64, 63))
        } else if self.has(Features::NV_FP2) {
            // `fragment.texcoord[A0.x + n]`: <addrRegPosOffset> 0 to 9.
            Some((0, 9))
        } else {
            None
        }
    }

    /// Whether RSQ reads the absolute value of its operand: ARB_vertex_program
    /// 2.14.5.22 and ARB_fragment_program 3.11.5.22 ("tmp =
    /// fabs(ScalarLoad(op0))"), kept by their NV options; NV_gpu_program4
    /// reads the operand as is (RSQ of a value <= 0 is undefined there).
    pub fn rsq_of_absolute_value(self) -> bool {
        self.is_arb()
    }

    /// Whether LOOP and REP take their counts only from program parameters
    /// (NV_fragment_program2: "a fragment program will fail to load if the
    /// vector operand is not a program parameter"), and need one.
    pub fn loop_counts_from_parameters(self) -> bool {
        self.has(Features::NV_FP2)
    }

    /// Whether `_SSAT`/`.SSAT` (clamp to [-1, 1]) exists besides `_SAT`.
    pub fn signed_saturation(self) -> bool {
        self.has(Features::NV4 | Features::NV_FP2)
    }

    /// Whether attribute and result arrays may be indexed by an address
    /// register directly in the binding (`vertex.attrib[A0.x+1]`,
    /// NV_vertex_program3; `fragment.texcoord[A0.x+1]`,
    /// NV_fragment_program2), not only through a declared array.
    pub fn relative_bindings(self) -> bool {
        self.has(Features::NV_VP3 | Features::NV_FP2)
    }

    /// Whether a texture target exists in this language: the five of the
    /// ARB grammar (`1D 2D 3D CUBE RECT`), the SHADOW1D/2D/RECT targets with
    /// ARB_fragment_program_shadow, and every NV_gpu_program4 target.
    pub fn texture_target_exists(self, target: &str) -> bool {
        match target {
            "1D" | "2D" | "3D" | "CUBE" | "RECT" => true,
            "SHADOW1D" | "SHADOW2D" | "SHADOWRECT" => self.has(Features::NV4 | Features::SHADOW),
            // NV_gpu_program5 <texTarget> ::= "ARRAYCUBE" | "SHADOWARRAYCUBE".
            "ARRAYCUBE" | "SHADOWARRAYCUBE" => self.has(Features::NV5),
            _ => self.has(Features::NV4),
        }
    }

    /// Whether texel offsets `(1, -2)` exist (NV_gpu_program4).
    pub fn texel_offsets(self) -> bool {
        self.has(Features::NV4)
    }

    /// Whether the registers start with defined values rather than
    /// undefined ones: in NV_vertex_program and NV_vertex_program2 the
    /// temporaries and address registers are "initialized to (0,0,0,0) at
    /// every vertex program invocation" (2.14.1.3, 2.14.1.4) and every
    /// result register "is initialized to (0,0,0,1)" (2.14.1.5).
    pub fn fixed_registers_initialised(self) -> bool {
        self.has(Features::NV_VP1 | Features::NV_VP20)
    }

    /// Whether a relative read outside its array gives (0,0,0,0):
    /// NV_vertex_program 2.14.1.9, "Relative addressing reads outside of
    /// the 0 to 95 inclusive range always read the value (0,0,0,0)"
    /// (`!!VP1.0`, `!!VP1.1`). Elsewhere it is undefined and nvp4c clamps
    /// the index (docs/semantics.md).
    pub fn relative_reads_outside_are_zero(self) -> bool {
        self.has(Features::NV_VP1)
    }

    /// Whether EXP and LOG have NV_vertex_program's special values
    /// (2.14.1.10.15-16: EXP of -INF or an underflowing result is
    /// (0,0,0,1), of +INF or an overflowing one (+INF,0,+INF,1); LOG of 0
    /// is (-INF,1,-INF,1), of +-INF (+INF,1,+INF,1)), where the ARB
    /// pseudocode gives NaN in y. NV_vertex_program2 specifies only z's.
    pub fn exp_log_special_values(self) -> bool {
        self.has(Features::NV_VP1)
    }

    /// Whether integer constants are read as integers where the operand's
    /// type is an integer (NV_gpu_program4); in the ARB family every value
    /// is floating-point and `3` is the float 3.0.
    pub fn integer_constants(self) -> bool {
        self.has(Features::NV4)
    }
}

/// Where `SHORT` and `LONG` may be written ([`Dialect::size_modifiers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeModifiers {
    /// Whether `LONG OUTPUT` is allowed.
    pub long_outputs: bool,
}

/// One program option (section 2.X.6; each ARB spec's "Program Options").
///
/// ```
/// use nvp4c::isa::{option_info, Header};
/// let o = option_info("NV_fragment_program2").unwrap();
/// assert!(o.headers.contains(&Header::ArbFp1) && !o.headers.contains(&Header::NvFp4));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct OptionInfo {
    /// The option's name, as written after `OPTION`.
    pub name: &'static str,
    /// The headers of the programs that may name it.
    pub headers: &'static [Header],
    /// What it adds to the dialect.
    pub features: Features,
    /// On this header, the option exists only together with these features
    /// (ARB_fragment_program_shadow on `!!ARBvp1.0` needs NV_vertex_program3,
    /// whose texture instructions it extends).
    pub requires: Option<(Header, Features)>,
    /// A group of options of which a program may name at most one (`fog`,
    /// `precision`), with the rule that says so.
    pub exclusive: Option<(&'static str, &'static str)>,
    /// Where it is defined.
    pub spec: &'static str,
    /// What it does, for messages and the language server.
    pub summary: &'static str,
}

const VP: &[Header] = &[Header::NvVp4, Header::ArbVp1, Header::NvVp5];
const FP: &[Header] = &[Header::NvFp4, Header::ArbFp1, Header::NvFp5];
const ARB_VP: &[Header] = &[Header::ArbVp1];
const NV_VP11: &[Header] = &[Header::Vp11, Header::Vp2];
const ARB_FP: &[Header] = &[Header::ArbFp1];
const NV4: &[Header] = &[
    Header::NvVp4,
    Header::NvFp4,
    Header::NvGp4,
    Header::NvVp5,
    Header::NvTcp5,
    Header::NvTep5,
    Header::NvGp5,
    Header::NvFp5,
    Header::NvCp5,
];
const NV5: &[Header] = &[
    Header::NvVp5,
    Header::NvTcp5,
    Header::NvTep5,
    Header::NvGp5,
    Header::NvFp5,
    Header::NvCp5,
];
const SHADOW_HEADERS: &[Header] = &[Header::NvFp4, Header::ArbFp1, Header::ArbVp1, Header::NvFp5];

const FOG_RULE: &str = "ARB_fragment_program 3.11.4.5.1: \"A fragment program that specifies more than one of the program options \"ARB_fog_exp\", \"ARB_fog_exp2\", and \"ARB_fog_linear\", will fail to load.\"";
const HINT_RULE: &str = "ARB_fragment_program 3.11.4.5.2: \"A fragment program that specifies both the \"ARB_precision_hint_fastest\" and \"ARB_precision_hint_nicest\" program options will fail to load.\"";

/// Every option nvp4c knows, with the headers it exists on.
#[rustfmt::skip]
pub static OPTIONS: &[OptionInfo] = &[
    // name                                  headers         features                          requires          exclusive                   spec                                  summary
    OptionInfo { name: "ARB_position_invariant", headers: VP, features: Features::POSITION_INVARIANT, requires: None, exclusive: None, spec: "ARB_vertex_program 2.14.4.5.1", summary: "the position is computed as the fixed-function pipeline does, from state.matrix.mvp and vertex.position" },
    OptionInfo { name: "ARB_fog_exp", headers: FP, features: Features::FOG_EXP, requires: None, exclusive: Some(("fog", FOG_RULE)), spec: "ARB_fragment_program 3.11.4.5.1", summary: "EXP fog is applied to result.color after the program" },
    OptionInfo { name: "ARB_fog_exp2", headers: FP, features: Features::FOG_EXP2, requires: None, exclusive: Some(("fog", FOG_RULE)), spec: "ARB_fragment_program 3.11.4.5.1", summary: "EXP2 fog is applied to result.color after the program" },
    OptionInfo { name: "ARB_fog_linear", headers: FP, features: Features::FOG_LINEAR, requires: None, exclusive: Some(("fog", FOG_RULE)), spec: "ARB_fragment_program 3.11.4.5.1", summary: "LINEAR fog is applied to result.color after the program" },
    OptionInfo { name: "ARB_precision_hint_fastest", headers: FP, features: Features::PRECISION_FASTEST, requires: None, exclusive: Some(("precision hint", HINT_RULE)), spec: "ARB_fragment_program 3.11.4.5.2", summary: "a hint to favour speed over precision (nvp4c computes at full precision either way)" },
    OptionInfo { name: "ARB_precision_hint_nicest", headers: FP, features: Features::PRECISION_NICEST, requires: None, exclusive: Some(("precision hint", HINT_RULE)), spec: "ARB_fragment_program 3.11.4.5.2", summary: "a hint to favour precision over speed (nvp4c computes at full precision either way)" },
    OptionInfo { name: "ARB_fragment_program_shadow", headers: SHADOW_HEADERS, features: Features::SHADOW, requires: Some((Header::ArbVp1, Features::NV_VP3)), exclusive: None, spec: "ARB_fragment_program_shadow", summary: "the SHADOW1D, SHADOW2D and SHADOWRECT texture targets (always available in NV_gpu_program4)" },
    OptionInfo { name: "ARB_draw_buffers", headers: FP, features: Features::DRAW_BUFFERS, requires: None, exclusive: None, spec: "ARB_draw_buffers", summary: "result.color[n]: one colour output per draw buffer" },
    OptionInfo { name: "ATI_draw_buffers", headers: FP, features: Features::DRAW_BUFFERS, requires: None, exclusive: None, spec: "ATI_draw_buffers (NV_fragment_program4 2.X.6: the same as ARB_draw_buffers)", summary: "result.color[n]: one colour output per draw buffer" },
    OptionInfo { name: "ARB_fragment_coord_origin_upper_left", headers: FP, features: Features::ORIGIN_UPPER_LEFT, requires: None, exclusive: None, spec: "ARB_fragment_coord_conventions 3.11.4.5.3", summary: "fragment.position has its origin at the upper left of the window" },
    OptionInfo { name: "ARB_fragment_coord_pixel_center_integer", headers: FP, features: Features::PIXEL_CENTER_INTEGER, requires: None, exclusive: None, spec: "ARB_fragment_coord_conventions 3.11.4.5.3", summary: "fragment.position has pixel centres at integers" },
    OptionInfo { name: "NV_vertex_program2", headers: ARB_VP, features: Features::NV_VP2, requires: None, exclusive: None, spec: "NV_vertex_program2_option", summary: "branches, subroutines, condition codes, four-component address registers, clip distances and more" },
    OptionInfo { name: "NV_vertex_program3", headers: ARB_VP, features: Features::NV_VP3, requires: None, exclusive: None, spec: "NV_vertex_program3", summary: "NV_vertex_program2 plus texture lookups, the address register stack, relative attribute addressing and a second condition code" },
    OptionInfo { name: "NV_fragment_program", headers: ARB_FP, features: Features::NV_FP, requires: None, exclusive: None, spec: "NV_fragment_program_option", summary: "precision suffixes, condition codes, |abs|, SHORT/LONG and the NV_fragment_program instructions" },
    OptionInfo { name: "NV_fragment_program2", headers: ARB_FP, features: Features::NV_FP2, requires: None, exclusive: None, spec: "NV_fragment_program2", summary: "NV_fragment_program plus IF/LOOP/REP/BRK, subroutines, NRM DIV DP2 DP2A TXL and fragment.facing" },
    OptionInfo { name: "NV_position_invariant", headers: NV_VP11, features: Features::POSITION_INVARIANT, requires: None, exclusive: None, spec: "NV_vertex_program1_1 2.14.B", summary: "the position is computed as the fixed-function pipeline does; the program does not write o[HPOS]" },
    OptionInfo { name: "NV_shader_storage_buffer", headers: NV5, features: Features::STORAGE_BUFFER, requires: None, exclusive: None, spec: "NV_shader_storage_buffer_object 2.X.6", summary: "STORAGE declarations and the LDB, STB and ATOMB instructions on shader storage buffers" },
    OptionInfo { name: "NV_shader_atomic_counters", headers: NV5, features: Features::ATOMIC_COUNTERS, requires: None, exclusive: None, spec: "NV_shader_atomic_counters 2.X.6", summary: "COUNTER declarations (program.counter[a][b]) and the ATOMCTR instruction (INCR, DECR, GET) on atomic counter buffers" },
    OptionInfo { name: "NV_shader_atomic_float", headers: NV5, features: Features::ATOMIC_FLOAT, requires: None, exclusive: None, spec: "NV_shader_atomic_float, \"Dependencies on NV_gpu_program5\"", summary: "F32 with the ADD and EXCH atomics: ATOM and ATOMIM need the option (E1230); ATOMB and ATOMS have them without it, as their specifications say" },
    OptionInfo { name: "NV_gpu_program5_mem_extended", headers: NV5, features: Features::MEM_EXTENDED, requires: None, exclusive: None, spec: "NV_gpu_program5_mem_extended 2.X.6", summary: "the F16, F16X2, F16X4, S8X2, S8X4, S16X2, S16X4, U8X2, U8X4, U16X2 and U16X4 storage modifiers on LDC, LDB, STB, LDS, STS, LOAD, STORE, LOADIM and STOREIM" },
    OptionInfo { name: "NV_shader_atomic_int64", headers: NV5, features: Features::NONE, requires: None, exclusive: None, spec: "NV_shader_atomic_int64, \"Dependencies on NV_gpu_program5, NV_compute_program5, and NV_shader_storage_buffer_object\"", summary: "S64 with the ADD, MIN, MAX, AND, OR, XOR, EXCH and CSWAP atomics and U64 with MIN, MAX, AND, OR and XOR (U64 ADD, EXCH and CSWAP need no option) on ATOMB, ATOMS and ATOM, as 64-bit SPIR-V atomics (Int64Atomics: shaderBufferInt64Atomics, shaderSharedInt64Atomics)" },
    OptionInfo { name: "NV_shader_atomic_float64", headers: NV5, features: Features::NONE, requires: None, exclusive: None, spec: "NV_shader_atomic_float64, \"Dependencies on NV_gpu_program5\"", summary: "F64 with the ADD and EXCH atomics on ATOMB, ATOMS and ATOM (ADD as a 64-bit compare-and-swap loop, EXCH on the bits: Int64Atomics)" },
    OptionInfo { name: "NV_shader_atomic_fp16_vector", headers: NV5, features: Features::NONE, requires: None, exclusive: None, spec: "NV_shader_atomic_fp16_vector, \"Dependencies on NV_compute_program5\" (ATOMB), \"Dependencies on NV_shader_storage_buffer_object\" (ATOMS), \"Dependencies on EXT_shader_image_load_store and NV_gpu_program5\" (ATOMIM)", summary: "F16X2 and F16X4 with the ADD, MIN, MAX and EXCH atomics on ATOMB, ATOMS and ATOM (compare-and-swap loops on each packed pair of halves); F16X2 on ATOMIM as a compare-and-swap loop on an R32ui view of the rg16f image (the unit's loads and stores through the same words; handles through the R32ui handle array); F16X4 on BUFFER ATOMIM as two such loops through an R32ui texel buffer view of twice the elements, on other targets refused (E1245: a 64-bit texel, Vulkan needs VK_EXT_shader_image_atomic_int64)" },
    OptionInfo { name: "NV_shader_thread_group", headers: NV5, features: Features::THREAD_GROUP, requires: None, exclusive: None, spec: "NV_shader_thread_group 2.X.6", summary: "TGBALLOT (a subgroup ballot) and QSWZ0-3/QSWZX/QSWZY (quad broadcast/swap), the thread bindings (threadid and the masks: subgroup built-ins; helperthread), state.thread.warpsize (SubgroupSize) from --target-env vulkan1.1, and state.thread.warpspersm/smcount (State block rows 408, 409); warpid and smid are E1141" },
    OptionInfo { name: "NV_shader_thread_shuffle", headers: NV5, features: Features::THREAD_SHUFFLE, requires: None, exclusive: None, spec: "NV_shader_thread_shuffle 2.X.6", summary: "the SHFIDX, SHFUP, SHFDOWN and SHFXOR instructions: exchange a value between the threads of a thread group (subgroup operations, --target-env vulkan1.1)" },
    OptionInfo { name: "NV_shader_buffer_load", headers: NV4, features: Features::SHADER_BUFFER_LOAD, requires: None, exclusive: None, spec: "NV_shader_buffer_load 2.X.6", summary: "the LOAD instruction: a load from a GPU address (implied by the NV_gpu_program5 headers; --target-env vulkan1.2, docs/interface.md, \"GPU addresses\")" },
    OptionInfo { name: "NV_parameter_buffer_object2", headers: NV4, features: Features::PARAMETER_BUFFERS2, requires: None, exclusive: None, spec: "NV_parameter_buffer_object2 2.X.6", summary: "CBUFFER declarations (program.buffer[a] as bytes) and the LDC instruction (implied by the NV_gpu_program5 headers)" },
    OptionInfo { name: "NV_bindless_texture", headers: NV5, features: Features::BINDLESS_TEXTURE, requires: None, exclusive: None, spec: "NV_bindless_texture, \"Interactions with NV_gpu_program4, NV_gpu_program5\", 2.X.5.Y", summary: "textures and images named by a handle, `handle(a.x)`, in the texture instructions (a descriptor array per target indexed by the handle) and in LOADIM, STOREIM, ATOMIM (a storage image array per target and format; a handle past it is an invalid access)" },
    OptionInfo { name: "NV_parameter_buffer_object", headers: NV4, features: Features::PARAMETER_BUFFERS, requires: None, exclusive: None, spec: "NV_parameter_buffer_object", summary: "BUFFER/BUFFER4 declarations bound to program.buffer[n]" },
];

/// The row of an option by name.
pub fn option_info(name: &str) -> Option<&'static OptionInfo> {
    OPTIONS.iter().find(|o| o.name == name)
}

/// The options a program with `header` may name.
pub fn options_of(header: Header) -> impl Iterator<Item = &'static OptionInfo> {
    OPTIONS.iter().filter(move |o| o.headers.contains(&header))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_header_reads_back() {
        for h in Header::ALL {
            assert_eq!(Header::parse(h.text()), Some(h));
            assert!(Dialect::new(h).features.contains(h.base()));
        }
        assert_eq!(Header::parse(" !!ARBfp1.0"), None);
    }

    #[test]
    fn columns_follow_the_options() {
        let mut d = Dialect::new(Header::ArbVp1);
        assert_eq!(d.column(), Column::ArbVp);
        d.enable(Features::NV_VP2);
        assert_eq!(d.column(), Column::Vp2);
        d.enable(Features::NV_VP3);
        assert_eq!(d.column(), Column::Vp3);
        for (i, c) in Column::ALL.iter().enumerate() {
            assert_eq!(c.index(), i);
        }
    }

    #[test]
    fn option_names_are_unique() {
        for (i, a) in OPTIONS.iter().enumerate() {
            assert!(
                OPTIONS[i + 1..].iter().all(|b| b.name != a.name),
                "{}",
                a.name
            );
        }
    }
}

//! Implementation-dependent limits (NV_gpu_program4 Table X.21 and the
//! ARB_vertex_program / ARB_fragment_program limits). The spec leaves them
//! to the implementation; the defaults are those of a GeForce 8-class
//! implementation, documented with their sources in docs/limits.md.
//!
//! ```
//! let mut options = nvp4c::Options::default();
//! options.limits.max_if_depth = 1;
//! let source = "!!NVfp4.0\nTEMP t;\nMOVC t, fragment.color;\nIF GT.x;\nIF GT.y;\nMOV result.color, t;\nENDIF;\nENDIF;\nEND\n";
//! let errors = nvp4c::compile(source, &options).unwrap_err();
//! assert!(errors.has_errors());
//! ```

/// Limits the checker enforces. Every field is a count.
///
/// `Limits::default()` is the GeForce 8-class set; change fields to match
/// another implementation (the struct is `#[non_exhaustive]`, so start from
/// the default):
///
/// ```
/// let mut limits = nvp4c::limits::Limits::default();
/// assert_eq!(limits.max_call_depth, 32);
/// limits.max_texture_units = 16;
/// let mut options = nvp4c::Options::default();
/// options.limits = limits;
/// assert!(nvp4c::compile("!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[16], 2D;\nEND\n", &options).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// MAX_PROGRAM_IF_DEPTH_NV: an IF nested inside this many IF blocks fails.
    pub max_if_depth: u32,
    /// MAX_PROGRAM_LOOP_DEPTH_NV: a REP nested inside this many REP blocks fails.
    pub max_loop_depth: u32,
    /// MAX_PROGRAM_CALL_DEPTH_NV: the call stack depth.
    pub max_call_depth: u32,
    /// MAX_PROGRAM_INSTRUCTIONS_ARB.
    pub max_instructions: u32,
    /// MAX_PROGRAM_TEMPORARIES_ARB (vec4 temporaries, array elements counted).
    pub max_temporaries: u32,
    /// MAX_PROGRAM_PARAMETERS_ARB (vec4 parameters, array elements counted).
    pub max_parameters: u32,
    /// MAX_PROGRAM_ENV_PARAMETERS_ARB.
    pub max_env_parameters: u32,
    /// MAX_PROGRAM_LOCAL_PARAMETERS_ARB.
    pub max_local_parameters: u32,
    /// MAX_PROGRAM_ATTRIBS_ARB.
    pub max_attribs: u32,
    /// MAX_PROGRAM_ADDRESS_REGISTERS_ARB: ADDRESS registers a vertex
    /// program declares.
    pub max_address_registers: u32,
    /// MAX_PROGRAM_ATTRIB_COMPONENTS_NV: attribute components read.
    pub max_attrib_components: u32,
    /// MAX_PROGRAM_RESULT_COMPONENTS_NV: result components written.
    pub max_result_components: u32,
    /// MAX_TEXTURE_IMAGE_UNITS.
    pub max_texture_units: u32,
    /// MAX_VERTEX_TEXTURE_IMAGE_UNITS_ARB: how many different texture units
    /// one vertex program may use (NV_vertex_program3 2.14.3.7). 16, what
    /// every Vulkan device gives a stage (maxPerStageDescriptorSamplers).
    pub max_vertex_texture_units: u32,
    /// MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV.
    pub max_buffer_bindings: u32,
    /// MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV, in 32-bit words (16384 words
    /// is 64 KiB, NV_parameter_buffer_object issue 8).
    pub max_buffer_size: u32,
    /// MAX_PROGRAM_OUTPUT_VERTICES_NV: the largest VERTICES_OUT.
    pub max_output_vertices: u32,
    /// MAX_PROGRAM_TOTAL_OUTPUT_COMPONENTS_NV: VERTICES_OUT times the result
    /// components written.
    pub max_total_output_components: u32,
    /// MAX_PROGRAM_EXEC_INSTRUCTIONS_NV (NV_vertex_program2_option): a
    /// program whose BRAs can loop ends abnormally once it has executed
    /// this many instructions (checked at each BRA; docs/semantics.md,
    /// "Branches"). 65536, the value NV_vertex_program2 fixes.
    pub max_exec_instructions: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_if_depth: 64,
            max_loop_depth: 64,
            max_call_depth: 32,
            max_instructions: 65536,
            max_temporaries: 32768,
            max_parameters: 65536,
            max_env_parameters: 256,
            max_local_parameters: 1024,
            max_attribs: 32,
            max_address_registers: 2,
            max_attrib_components: 64,
            max_result_components: 64,
            max_texture_units: 32,
            max_vertex_texture_units: 16,
            max_buffer_bindings: 14,
            max_buffer_size: 16384,
            max_output_vertices: 1024,
            max_total_output_components: 1024,
            max_exec_instructions: 65536,
        }
    }
}

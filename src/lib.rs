//! nvp4c: a compiler from NVIDIA's NV_gpu_program4 assembly to SPIR-V.

pub mod diag;
pub mod ir;
pub mod isa;
pub mod span;
pub mod syntax;

/// The Vulkan environment the SPIR-V is produced and validated for.
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
    pub fn spirv_version(self) -> (u8, u8) {
        match self {
            TargetEnv::Vulkan1_0 => (1, 0),
            TargetEnv::Vulkan1_1 => (1, 3),
            TargetEnv::Vulkan1_2 => (1, 5),
            TargetEnv::Vulkan1_3 => (1, 6),
        }
    }
}

/// Compile options.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    pub target_env: TargetEnv,
    /// Run spirv-val in process on the output (on by default). A module
    /// that fails is an internal compiler error and is never returned.
    pub validate: bool,
    /// Descriptor set for this program's uniform blocks and textures;
    /// `None` picks the per-stage default of docs/interface.md.
    pub descriptor_set: Option<u32>,
}

impl Default for Options {
    fn default() -> Options {
        Options { target_env: TargetEnv::Vulkan1_0, validate: true, descriptor_set: None }
    }
}

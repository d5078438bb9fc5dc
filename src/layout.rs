//! Where a module's resources go, as the renderer chooses: the descriptor
//! set and binding numbers of each program type, which parameters are
//! push constants, and which are specialization constants
//! (docs/interface.md, "Binding layout"). The defaults are the fixed
//! numbering of docs/interface.md, "Descriptor sets".
//!
//! The layout is given per program type, so one [`crate::Options`] serves
//! every program of a pipeline (the CLI's `STAGE=` forms do the same):
//!
//! ```
//! use nvp4c::{layout::PushConstants, Options, Stage};
//! let mut options = Options::default();
//! // Vertex and fragment program in one descriptor set, without collisions:
//! options.layout.fragment.set = 0;
//! options.layout.fragment.uniform_binding = 8;
//! options.layout.fragment.texture_binding = 48;
//! // The fragment program's program.local as push constants after the
//! // vertex program's 64 bytes:
//! options.layout.fragment.push_constants = PushConstants::Local;
//! options.layout.fragment.push_constant_offset = 64;
//! let fp = "!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[1], 2D;\nEND\n";
//! let r = nvp4c::compile(fp, &options).unwrap().reflection;
//! assert_eq!((r.textures[0].set, r.textures[0].binding), (0, 49));
//! ```

use crate::isa::Stage;

/// The layout of every program type.
///
/// ```
/// let layout = nvp4c::layout::BindingLayout::default();
/// assert_eq!(layout.stage(nvp4c::Stage::Geometry).set, 1);
/// assert_eq!(layout.stage(nvp4c::Stage::Fragment).texture_binding, 32);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BindingLayout {
    /// `!!NVvp4.0` programs (default set 0).
    pub vertex: StageLayout,
    /// `!!NVgp4.0` programs (default set 1).
    pub geometry: StageLayout,
    /// `!!NVfp4.0` programs (default set 2).
    pub fragment: StageLayout,
    /// `!!NVtcp5.0` programs (default set 3).
    pub tess_control: StageLayout,
    /// `!!NVtep5.0` programs (default set 4).
    pub tess_eval: StageLayout,
    /// `!!NVcp5.0` programs (default set 0: a compute pipeline has no other stage).
    pub compute: StageLayout,
}

impl Default for BindingLayout {
    fn default() -> BindingLayout {
        BindingLayout {
            vertex: StageLayout::with_set(0),
            geometry: StageLayout::with_set(1),
            fragment: StageLayout::with_set(2),
            tess_control: StageLayout::with_set(3),
            tess_eval: StageLayout::with_set(4),
            compute: StageLayout::with_set(0),
        }
    }
}

impl BindingLayout {
    /// The layout of programs of type `stage`.
    pub fn stage(&self, stage: Stage) -> &StageLayout {
        match stage {
            Stage::Vertex => &self.vertex,
            Stage::Geometry => &self.geometry,
            Stage::Fragment => &self.fragment,
            Stage::TessControl => &self.tess_control,
            Stage::TessEval => &self.tess_eval,
            Stage::Compute => &self.compute,
        }
    }
    /// The layout of programs of type `stage`, to change.
    pub fn stage_mut(&mut self, stage: Stage) -> &mut StageLayout {
        match stage {
            Stage::Vertex => &mut self.vertex,
            Stage::Geometry => &mut self.geometry,
            Stage::Fragment => &mut self.fragment,
            Stage::TessControl => &mut self.tess_control,
            Stage::TessEval => &mut self.tess_eval,
            Stage::Compute => &mut self.compute,
        }
    }
    /// Every program type's layout, to change them all.
    pub fn all_mut(&mut self) -> [&mut StageLayout; 6] {
        [
            &mut self.vertex,
            &mut self.geometry,
            &mut self.fragment,
            &mut self.tess_control,
            &mut self.tess_eval,
            &mut self.compute,
        ]
    }
}

/// The `program.subroutine` block's binding past the uniform binding base
/// (docs/interface.md, "Subroutine parameters").
pub const SUBROUTINE_BINDING_OFFSET: u32 = 19;

/// Where one program type's resources go (docs/interface.md, "Binding
/// layout"). The binding numbers inside the set keep their order: with
/// `uniform_binding` = *u* and `texture_binding` = *t*, `program.env` is at
/// *u*, `program.local` at *u* + 1, the State block at *u* + 2,
/// `program.buffer[b]` at *u* + 3 + *b* and `texture[n]` at *t* + *n* (like
/// glslang's `--shift-ubo-binding` / `--shift-texture-binding` and
/// `--resource-set-binding`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StageLayout {
    /// The descriptor set of the program's uniform blocks and textures.
    pub set: u32,
    /// The binding of `program.env`; the other uniform blocks follow it.
    /// Default 0.
    pub uniform_binding: u32,
    /// The binding of `texture[0]`; `texture[n]` is at this + *n*.
    /// Default 32.
    pub texture_binding: u32,
    /// Which of `program.env` and `program.local` are push constants
    /// instead of uniform blocks. Default [`PushConstants::None`].
    pub push_constants: PushConstants,
    /// Byte offset (a multiple of 16) of this program's push constants in
    /// the pipeline's push constant range, so that programs of several
    /// stages use disjoint ranges. Default 0.
    pub push_constant_offset: u32,
    /// Parameters that become specialization constants.
    pub specialize: Vec<Specialization>,
}

impl StageLayout {
    fn with_set(set: u32) -> StageLayout {
        StageLayout {
            set,
            uniform_binding: 0,
            texture_binding: DEFAULT_TEXTURE_BINDING,
            push_constants: PushConstants::None,
            push_constant_offset: 0,
            specialize: Vec::new(),
        }
    }
    /// The binding of `program.env`.
    pub fn env_binding(&self) -> u32 {
        self.uniform_binding
    }
    /// The binding of `program.local`.
    pub fn local_binding(&self) -> u32 {
        self.uniform_binding.saturating_add(1)
    }
    /// The binding of the State block.
    pub fn state_binding(&self) -> u32 {
        self.uniform_binding.saturating_add(2)
    }
    /// The binding of `program.buffer[b]`.
    pub fn buffer_binding(&self, b: u32) -> u32 {
        self.uniform_binding.saturating_add(3).saturating_add(b)
    }
    /// The binding of the `program.subroutine` block (ARB_shader_subroutine's
    /// subroutine parameters, read by CALI): *u* + 19, after the sixteen
    /// `program.buffer` blocks.
    pub fn subroutine_binding(&self) -> u32 {
        self.uniform_binding
            .saturating_add(SUBROUTINE_BINDING_OFFSET)
    }
    /// The binding of `texture[n]`.
    pub fn texture_binding(&self, n: u32) -> u32 {
        self.texture_binding.saturating_add(n)
    }
    /// The binding of NV_shader_storage_buffer_object's
    /// `program.storage[a]`: 32 past the texture base (64 + *a* by
    /// default), after the 32 texture units.
    pub fn storage_binding(&self, a: u32) -> u32 {
        self.texture_binding.saturating_add(32).saturating_add(a)
    }
    /// The binding of EXT_shader_image_load_store's `image[n]` (a storage
    /// image): 48 past the texture base (80 + *n* by default), after the
    /// 32 texture units and 16 bindings kept for storage buffers.
    pub fn image_binding(&self, n: u32) -> u32 {
        self.texture_binding.saturating_add(48).saturating_add(n)
    }
    /// The binding of NV_bindless_texture's array of `target` (`TexTarget
    /// as u32`, in the order of `ir::TexTarget`): 64 past the texture base
    /// (96 + target by default).
    pub fn bindless_binding(&self, target: u32) -> u32 {
        self.texture_binding
            .saturating_add(64)
            .saturating_add(target)
    }
    /// The binding of NV_bindless_texture's image handle array of `array`
    /// (docs/interface.md, "Bindless images"): 80 past the texture base,
    /// after the bindless texture arrays, then 32 per target
    /// (`BindlessImageArray::target_number`) plus the format's number
    /// (`BindlessImageArray::format_number`): 112 + 32 × target + format
    /// by default (2D `U32`: 153).
    pub fn bindless_image_binding(&self, array: crate::ir::BindlessImageArray) -> u32 {
        let per_target = crate::ir::BindlessImageArray::FORMATS_PER_TARGET;
        self.texture_binding
            .saturating_add(80)
            .saturating_add(array.target_number().saturating_mul(per_target))
            .saturating_add(array.format_number())
    }
    /// The binding of NV_shader_atomic_counters' `program.counter[a]`:
    /// after the four `program.storage` bindings (68 + *a* by default).
    pub fn counter_binding(&self, a: u32) -> u32 {
        self.storage_binding(crate::check::MAX_STORAGE_BINDINGS.saturating_add(a))
    }
    /// The specialization of `program.env[n]` / `program.local[n]`, if any.
    pub fn specialization(&self, param: Param) -> Option<&Specialization> {
        self.specialize.iter().find(|s| s.param == param)
    }
}

/// The binding of `texture[0]` by default: room for `program.buffer[0..15]`
/// and the other blocks below it.
pub const DEFAULT_TEXTURE_BINDING: u32 = 32;

/// Which parameter arrays of a program are push constants
/// (docs/interface.md, "Push constants"). The push constant block holds
/// `program.local` first, then `program.env`, each as many `uvec4` as the
/// program can reach.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PushConstants {
    /// Both are uniform blocks.
    #[default]
    None,
    /// `program.local` is a push constant; it must fit the device's
    /// `maxPushConstantsSize` (E0820 otherwise).
    Local,
    /// `program.env` is a push constant; it must fit.
    Env,
    /// Both are push constants; they must fit.
    EnvAndLocal,
    /// Each of `program.local`, then `program.env`, is a push constant if
    /// it fits in what is left of `maxPushConstantsSize`, otherwise a
    /// uniform block.
    Fit,
}

/// A program parameter that can be specialized.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    /// `program.env[n]`.
    Env(u32),
    /// `program.local[n]`.
    Local(u32),
}

impl Param {
    /// The binding as written; `str::parse` reads it back.
    ///
    /// ```
    /// use nvp4c::layout::Param;
    /// assert_eq!(Param::Env(2).text(), "program.env[2]");
    /// assert_eq!("program.local[3]".parse::<Param>(), Ok(Param::Local(3)));
    /// assert!("program.buffer[0]".parse::<Param>().is_err());
    /// ```
    pub fn text(self) -> String {
        match self {
            Param::Env(n) => format!("program.env[{n}]"),
            Param::Local(n) => format!("program.local[{n}]"),
        }
    }
}

impl std::str::FromStr for Param {
    type Err = String;
    fn from_str(s: &str) -> Result<Param, String> {
        let s = s.trim();
        let index = |rest: &str| -> Option<u32> { rest.strip_suffix(']')?.trim().parse().ok() };
        if let Some(rest) = s.strip_prefix("program.env[") {
            index(rest).map(Param::Env)
        } else if let Some(rest) = s.strip_prefix("program.local[") {
            index(rest).map(Param::Local)
        } else {
            None
        }
        .ok_or_else(|| {
            format!("`{s}`: a specialization constant is `program.env[n]` or `program.local[n]`")
        })
    }
}

impl std::fmt::Display for Param {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// A parameter whose value the renderer gives at pipeline creation
/// (`VkSpecializationInfo`) instead of in a buffer, so the driver can fold
/// it into the code (docs/interface.md, "Specialization constants"). Its
/// four 32-bit components are the specialization constants `spec_id` to
/// `spec_id + 3` (raw bits, as the parameter blocks hold them).
///
/// ```
/// use nvp4c::layout::{Param, Specialization};
/// let mut options = nvp4c::Options::default();
/// options.layout.fragment.specialize.push(Specialization::new(Param::Local(0), 10));
/// let src = "!!NVfp4.0\nMOV result.color, program.local[0];\nEND\n";
/// let r = nvp4c::compile(src, &options).unwrap().reflection;
/// assert_eq!(r.specialization_constants[0].spec_ids, [10, 11, 12, 13]);
/// assert!(r.uniform_blocks.is_empty()); // nothing is read from a buffer
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Specialization {
    /// The parameter.
    pub param: Param,
    /// The SpecId of its x component; y, z and w follow.
    pub spec_id: u32,
    /// The value when the pipeline does not specialize it (raw bits).
    pub default: [u32; 4],
}

impl Specialization {
    /// `param` as constants `spec_id..spec_id + 4`, default zero.
    pub fn new(param: Param, spec_id: u32) -> Specialization {
        Specialization {
            param,
            spec_id,
            default: [0; 4],
        }
    }
}

/// Which clip-space depth convention a vertex or geometry program's
/// `result.position` follows (docs/interface.md, "Clip space").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DepthRange {
    /// Vulkan's: z in [0, w]; the position is written as computed.
    #[default]
    Vulkan,
    /// GL's: z in [−w, w], converted to Vulkan's as z′ = (z + w) / 2.
    Gl,
}

#[cfg(test)]
mod tests {
    use crate::ir::BindlessImageArray;

    /// Every target and format number names one image handle array, whose
    /// numbers are those again, at a binding of its own below the next
    /// target's (docs/interface.md, "Bindless images").
    #[test]
    fn image_handle_array_numbers_round_trip_to_distinct_bindings() {
        let layout = crate::Options::default().stage_layout(crate::isa::Stage::Fragment);
        let mut bindings = std::collections::BTreeSet::new();
        for target in 0..crate::ir::ImageTarget::ALL.len() as u32 {
            for format in 0..BindlessImageArray::FORMATS_PER_TARGET {
                let Some(array) = BindlessImageArray::from_numbers(target, format) else {
                    // 24 storage modifiers, then the F, S, U formatted stores.
                    assert_eq!(format, 27, "the first number without an array");
                    break;
                };
                assert_eq!(
                    (array.target_number(), array.format_number()),
                    (target, format)
                );
                let binding = layout.bindless_image_binding(array);
                assert_eq!(binding, 112 + 32 * target + format);
                assert!(bindings.insert(binding));
            }
        }
        assert_eq!(bindings.len(), 11 * 27);
    }
}

//! Textures for runs: images with every mip level, cube face and array layer
//! uploaded from known texel values, samplers, uniform texel buffers, and the
//! descriptor set that puts `texture[n]` at binding 32 + n next to the uniform
//! blocks (docs/interface.md, "Textures").

use ash::vk;

use super::device::{HostBuffer, Object, Scope};
use super::{HarnessError, Result, VkContext};

/// `texture[n]` is at binding 32 + n of the stage's set.
pub const FIRST_TEXTURE_BINDING: u32 = 32;

/// What kind of texture a unit holds; the image view type follows it, and the
/// program's target must match (docs/interface.md, "Textures").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureKind {
    /// 1D, SHADOW1D.
    D1,
    /// 2D, RECT, SHADOW2D, SHADOWRECT.
    D2,
    /// 3D.
    D3,
    /// CUBE, SHADOWCUBE: six layers, +X, -X, +Y, -Y, +Z, -Z.
    Cube,
    /// ARRAY1D, SHADOWARRAY1D.
    Array1D,
    /// ARRAY2D, SHADOWARRAY2D.
    Array2D,
    /// ARRAYCUBE: six square layers per cube, faces as for `Cube`.
    CubeArray,
    /// BUFFER: a uniform texel buffer (`levels[0]` holds the texels).
    Buffer,
}

/// The sampler of a unit. Default: NEAREST filtering, NEAREST mipmaps,
/// CLAMP_TO_EDGE, no comparison, LOD range [0, 1000].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerDesc {
    pub filter: vk::Filter,
    pub mipmap: vk::SamplerMipmapMode,
    pub address: vk::SamplerAddressMode,
    /// A depth comparison (SHADOW targets), e.g. `LESS_OR_EQUAL` for GL's
    /// LEQUAL: the result is 1 when the reference is <= the texel.
    pub compare: Option<vk::CompareOp>,
    pub min_lod: f32,
    pub max_lod: f32,
    /// t's (and r's) address mode when it differs from s's `address`
    /// (AGAL's clamp_u_repeat_v, repeat_u_clamp_v).
    pub address_v: Option<vk::SamplerAddressMode>,
    /// Anisotropic filtering (1.0: off); needs the device's samplerAnisotropy.
    pub max_anisotropy: f32,
}

impl Default for SamplerDesc {
    fn default() -> Self {
        SamplerDesc {
            filter: vk::Filter::NEAREST,
            mipmap: vk::SamplerMipmapMode::NEAREST,
            address: vk::SamplerAddressMode::CLAMP_TO_EDGE,
            compare: None,
            min_lod: 0.0,
            max_lod: 1000.0,
            address_v: None,
            max_anisotropy: 1.0,
        }
    }
}

/// A texture bound to `texture[unit]` for one run.
#[derive(Clone, Debug)]
pub struct Texture {
    pub unit: u32,
    pub kind: TextureKind,
    /// A format whose texels are whole 32-bit words: `R32G32B32A32_*` (4 words),
    /// `R32_*`, `D32_SFLOAT`, `R8G8B8A8_*` (1 word).
    pub format: vk::Format,
    /// Size of level 0 (height 1 for 1D kinds, depth 1 except 3D). For a buffer,
    /// `width` is the number of texels.
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    /// Array layers (6 for a cube map, 1 otherwise unless an array).
    pub layers: u32,
    /// Texels of each mip level, level 0 first: every layer of the level in
    /// order, each row-major, as raw words.
    pub levels: Vec<Vec<u32>>,
    pub sampler: SamplerDesc,
    /// The binding, when not the default 32 + `unit` (a binding layout with
    /// another texture binding base, docs/interface.md).
    pub binding: Option<u32>,
    /// The element of the binding's descriptor array (0 but for
    /// NV_bindless_texture's arrays, docs/interface.md "Bindless textures").
    pub element: u32,
}

/// Words per texel of the formats the harness uploads.
fn texel_words(format: vk::Format) -> Result<usize> {
    use vk::Format as F;
    match format {
        F::R32G32B32A32_SFLOAT | F::R32G32B32A32_SINT | F::R32G32B32A32_UINT => Ok(4),
        F::R32_SFLOAT
        | F::R32_SINT
        | F::R32_UINT
        | F::D32_SFLOAT
        | F::R8G8B8A8_UNORM
        | F::R8G8B8A8_SNORM
        | F::R8G8B8A8_UINT
        | F::R8G8B8A8_SINT => Ok(1),
        other => Err(HarnessError::Job(format!(
            "texture format {other:?}: the harness uploads formats of whole 32-bit words"
        ))),
    }
}

fn is_depth(format: vk::Format) -> bool {
    format == vk::Format::D32_SFLOAT
}

impl Texture {
    /// A texture of one level; `texels` holds every layer.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        unit: u32,
        kind: TextureKind,
        format: vk::Format,
        width: u32,
        height: u32,
        depth: u32,
        layers: u32,
        levels: Vec<Vec<u32>>,
    ) -> Texture {
        Texture {
            unit,
            kind,
            format,
            width,
            height,
            depth,
            layers,
            levels,
            sampler: SamplerDesc::default(),
            binding: None,
            element: 0,
        }
    }

    /// The binding the texture is bound at.
    pub fn binding(&self) -> u32 {
        self.binding.unwrap_or(FIRST_TEXTURE_BINDING + self.unit)
    }

    /// The same texture at another binding.
    pub fn at_binding(mut self, binding: u32) -> Texture {
        self.binding = Some(binding);
        self
    }

    /// The same texture as element `element` of the descriptor array at
    /// `binding`.
    pub fn at_element(mut self, binding: u32, element: u32) -> Texture {
        self.binding = Some(binding);
        self.element = element;
        self
    }

    /// A 2D RGBA32F texture with these levels (each `[f32; 4]` per texel).
    pub fn rgba32f_2d(unit: u32, width: u32, height: u32, levels: Vec<Vec<[f32; 4]>>) -> Texture {
        let levels = levels
            .into_iter()
            .map(|l| l.into_iter().flat_map(|t| t.map(f32::to_bits)).collect())
            .collect();
        Texture::new(
            unit,
            TextureKind::D2,
            vk::Format::R32G32B32A32_SFLOAT,
            width,
            height,
            1,
            1,
            levels,
        )
    }

    /// A uniform texel buffer of `format` holding `texels` (raw words).
    pub fn buffer(unit: u32, format: vk::Format, texels: Vec<u32>) -> Result<Texture> {
        let n = (texels.len() / texel_words(format)?) as u32;
        Ok(Texture::new(
            unit,
            TextureKind::Buffer,
            format,
            n,
            1,
            1,
            1,
            vec![texels],
        ))
    }

    /// The same texture with another sampler.
    pub fn with_sampler(mut self, sampler: SamplerDesc) -> Texture {
        self.sampler = sampler;
        self
    }

    /// Width, height and depth of mip level `level`.
    pub fn level_extent(&self, level: u32) -> vk::Extent3D {
        let shrink = |x: u32| (x >> level).max(1);
        vk::Extent3D {
            width: shrink(self.width),
            height: if matches!(self.kind, TextureKind::D1 | TextureKind::Array1D) {
                1
            } else {
                shrink(self.height)
            },
            depth: if self.kind == TextureKind::D3 {
                shrink(self.depth)
            } else {
                1
            },
        }
    }

    fn check(&self) -> Result<()> {
        let words = texel_words(self.format)?;
        let bad = |m: String| Err(HarnessError::Job(format!("texture[{}]: {m}", self.unit)));
        if self.levels.is_empty() {
            return bad("no levels".into());
        }
        if self.kind == TextureKind::Buffer && self.levels.len() != 1 {
            return bad("a buffer texture has one level".into());
        }
        if self.kind == TextureKind::Cube && (self.layers != 6 || self.width != self.height) {
            return bad("a cube map has 6 square layers".into());
        }
        if self.kind == TextureKind::CubeArray
            && (self.layers == 0 || !self.layers.is_multiple_of(6) || self.width != self.height)
        {
            return bad("a cube map array has 6 square layers per cube".into());
        }
        for (i, data) in self.levels.iter().enumerate() {
            let e = self.level_extent(i as u32);
            let want = (e.width * e.height * e.depth * self.layers) as usize * words;
            if data.len() != want {
                return bad(format!(
                    "level {i} has {} words, its {}x{}x{} x {} layers need {want}",
                    data.len(),
                    e.width,
                    e.height,
                    e.depth,
                    self.layers
                ));
            }
        }
        Ok(())
    }
}

/// What a unit's descriptor points at.
enum Bound {
    Image(vk::ImageView, vk::Sampler),
    Texel(vk::BufferView),
}

impl Scope<'_> {
    /// The image, view and sampler of `t`, its texels uploaded, left in
    /// SHADER_READ_ONLY_OPTIMAL.
    fn texture_image(&mut self, t: &Texture) -> Result<Bound> {
        let aspect = if is_depth(t.format) {
            vk::ImageAspectFlags::DEPTH
        } else {
            vk::ImageAspectFlags::COLOR
        };
        let (image_type, view_type) = match t.kind {
            TextureKind::D1 => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D),
            TextureKind::Array1D => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D_ARRAY),
            TextureKind::D2 => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D),
            TextureKind::Array2D => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D_ARRAY),
            TextureKind::Cube => (vk::ImageType::TYPE_2D, vk::ImageViewType::CUBE),
            TextureKind::CubeArray => (vk::ImageType::TYPE_2D, vk::ImageViewType::CUBE_ARRAY),
            TextureKind::D3 => (vk::ImageType::TYPE_3D, vk::ImageViewType::TYPE_3D),
            TextureKind::Buffer => {
                return Err(HarnessError::Job("a buffer is not an image".into()))
            }
        };
        let levels = t.levels.len() as u32;
        let flags = if matches!(t.kind, TextureKind::Cube | TextureKind::CubeArray) {
            vk::ImageCreateFlags::CUBE_COMPATIBLE
        } else {
            vk::ImageCreateFlags::empty()
        };
        let image = self.bound_image(
            &vk::ImageCreateInfo::default()
                .flags(flags)
                .image_type(image_type)
                .format(t.format)
                .extent(t.level_extent(0))
                .mip_levels(levels)
                .array_layers(t.layers)
                .samples(vk::SampleCountFlags::TYPE_1)
                .tiling(vk::ImageTiling::OPTIMAL)
                .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST)
                .sharing_mode(vk::SharingMode::EXCLUSIVE)
                .initial_layout(vk::ImageLayout::UNDEFINED),
        )?;
        let range = vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: 0,
            level_count: levels,
            base_array_layer: 0,
            layer_count: t.layers,
        };
        let view = unsafe {
            self.dev().create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(view_type)
                    .format(t.format)
                    .subresource_range(range),
                None,
            )
        }
        .vk("vkCreateImageView")?;
        self.own(Object::ImageView(view));

        // Every level in one staging buffer, one copy region per level.
        let staging: Vec<u32> = t.levels.concat();
        let staging = self.buffer(0, vk::BufferUsageFlags::TRANSFER_SRC, &staging)?;
        let mut regions = Vec::with_capacity(t.levels.len());
        let mut offset = 0u64;
        for (i, data) in t.levels.iter().enumerate() {
            regions.push(vk::BufferImageCopy {
                buffer_offset: offset,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspect,
                    mip_level: i as u32,
                    base_array_layer: 0,
                    layer_count: t.layers,
                },
                image_offset: vk::Offset3D { x: 0, y: 0, z: 0 },
                image_extent: t.level_extent(i as u32),
            });
            offset += data.len() as u64 * 4;
        }
        let barrier = |old, new, src, dst| {
            vk::ImageMemoryBarrier::default()
                .image(image)
                .old_layout(old)
                .new_layout(new)
                .src_access_mask(src)
                .dst_access_mask(dst)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .subresource_range(range)
        };
        let to_transfer = barrier(
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::AccessFlags::empty(),
            vk::AccessFlags::TRANSFER_WRITE,
        );
        let to_read = barrier(
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            vk::AccessFlags::TRANSFER_WRITE,
            vk::AccessFlags::SHADER_READ,
        );
        let src = staging.buffer;
        self.submit(|dev, cb| unsafe {
            dev.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_transfer],
            );
            dev.cmd_copy_buffer_to_image(
                cb,
                src,
                image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &regions,
            );
            dev.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::ALL_GRAPHICS,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_read],
            );
        })?;

        let s = t.sampler;
        let mut info = vk::SamplerCreateInfo::default()
            .mag_filter(s.filter)
            .min_filter(s.filter)
            .mipmap_mode(s.mipmap)
            .address_mode_u(s.address)
            .address_mode_v(s.address_v.unwrap_or(s.address))
            .address_mode_w(s.address_v.unwrap_or(s.address))
            .min_lod(s.min_lod)
            .max_lod(s.max_lod)
            .border_color(vk::BorderColor::FLOAT_TRANSPARENT_BLACK);
        if s.max_anisotropy > 1.0 {
            info = info
                .anisotropy_enable(true)
                .max_anisotropy(s.max_anisotropy);
        }
        if let Some(op) = s.compare {
            info = info.compare_enable(true).compare_op(op);
        }
        let sampler = unsafe { self.dev().create_sampler(&info, None) }.vk("vkCreateSampler")?;
        self.own(Object::Sampler(sampler));
        Ok(Bound::Image(view, sampler))
    }

    /// A uniform texel buffer holding `t.levels[0]`.
    fn texel_buffer(&mut self, t: &Texture) -> Result<Bound> {
        let buf: HostBuffer =
            self.buffer(0, vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER, &t.levels[0])?;
        let view = unsafe {
            self.dev().create_buffer_view(
                &vk::BufferViewCreateInfo::default()
                    .buffer(buf.buffer)
                    .format(t.format)
                    .offset(0)
                    .range(t.levels[0].len() as u64 * 4),
                None,
            )
        }
        .vk("vkCreateBufferView")?;
        self.own(Object::BufferView(view));
        Ok(Bound::Texel(view))
    }

    /// The pipeline layout and descriptor set of a run: sets `0..=set`, all empty
    /// except `set`, which holds the (binding, buffer) uniform buffers of
    /// [`Scope::uniform_set`] and every texture at binding 32 + unit (a combined
    /// image sampler, or a uniform texel buffer for [`TextureKind::Buffer`]).
    pub fn resource_set(
        &mut self,
        set: u32,
        stage: vk::ShaderStageFlags,
        buffers: &[(u32, &HostBuffer)],
        textures: &[Texture],
    ) -> Result<(vk::PipelineLayout, vk::DescriptorSet)> {
        if textures.is_empty() {
            return self.uniform_set(set, stage, buffers);
        }
        if set > 7 {
            return Err(HarnessError::Job(format!(
                "descriptor set {set}: the harness supports sets 0..=7"
            )));
        }
        let (params, ds) = self.resource_descriptor_set(stage, buffers, textures)?;
        let empty = unsafe {
            self.dev()
                .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default(), None)
        }
        .vk("vkCreateDescriptorSetLayout")?;
        self.own(Object::SetLayout(empty));
        let set_layouts: Vec<_> = (0..=set)
            .map(|s| if s == set { params } else { empty })
            .collect();
        let layout = unsafe {
            self.dev().create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&set_layouts)
                    .push_constant_ranges(&self.push_constant_ranges),
                None,
            )
        }
        .vk("vkCreatePipelineLayout")?;
        self.own(Object::PipelineLayout(layout));
        Ok((layout, ds))
    }

    /// The descriptor set layout and one descriptor set holding the (binding,
    /// buffer) uniform buffers and every texture at binding 32 + unit, visible to
    /// `stage`, without a pipeline layout: for runs whose stages each have their
    /// own set (`Device::run_scene`).
    pub fn resource_descriptor_set(
        &mut self,
        stage: vk::ShaderStageFlags,
        buffers: &[(u32, &HostBuffer)],
        textures: &[Texture],
    ) -> Result<(vk::DescriptorSetLayout, vk::DescriptorSet)> {
        let mut units: Vec<(u32, u32)> =
            textures.iter().map(|t| (t.binding(), t.element)).collect();
        units.sort_unstable();
        if units.windows(2).any(|w| w[0] == w[1]) {
            return Err(HarnessError::Job("a texture unit is listed twice".into()));
        }
        let mut bound = Vec::with_capacity(textures.len());
        for t in textures {
            t.check()?;
            bound.push(match t.kind {
                TextureKind::Buffer => self.texel_buffer(t)?,
                _ => self.texture_image(t)?,
            });
        }
        let ty_of = |b: &Bound| match b {
            Bound::Image(..) => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            Bound::Texel(_) => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        };
        let mut bindings: Vec<_> = buffers
            .iter()
            .map(|&(b, _)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(stage)
            })
            .collect();
        for (t, b) in textures.iter().zip(&bound) {
            // The elements of one array share its binding.
            if let Some(array) = bindings.iter_mut().find(|x| x.binding == t.binding()) {
                array.descriptor_count = array.descriptor_count.max(t.element + 1);
                continue;
            }
            bindings.push(
                vk::DescriptorSetLayoutBinding::default()
                    .binding(t.binding())
                    .descriptor_type(ty_of(b))
                    .descriptor_count(t.element + 1)
                    .stage_flags(stage),
            );
        }
        let params = unsafe {
            self.dev().create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
        }
        .vk("vkCreateDescriptorSetLayout")?;
        self.own(Object::SetLayout(params));

        let count = |ty| bound.iter().filter(|b| ty_of(b) == ty).count() as u32;
        let mut sizes = vec![vk::DescriptorPoolSize {
            ty: vk::DescriptorType::UNIFORM_BUFFER,
            descriptor_count: buffers.len().max(1) as u32,
        }];
        for ty in [
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        ] {
            if count(ty) > 0 {
                sizes.push(vk::DescriptorPoolSize {
                    ty,
                    descriptor_count: count(ty),
                });
            }
        }
        let pool = unsafe {
            self.dev().create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(1)
                    .pool_sizes(&sizes),
                None,
            )
        }
        .vk("vkCreateDescriptorPool")?;
        self.own(Object::DescriptorPool(pool));
        let layouts = [params];
        let ds = unsafe {
            self.dev().allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&layouts),
            )
        }
        .vk("vkAllocateDescriptorSets")?[0];
        let buffer_infos: Vec<_> = buffers
            .iter()
            .map(|&(_, b)| {
                [vk::DescriptorBufferInfo {
                    buffer: b.buffer,
                    offset: 0,
                    range: vk::WHOLE_SIZE,
                }]
            })
            .collect();
        let image_infos: Vec<_> = bound
            .iter()
            .map(|b| match b {
                Bound::Image(view, sampler) => [vk::DescriptorImageInfo {
                    sampler: *sampler,
                    image_view: *view,
                    image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                }],
                Bound::Texel(_) => [vk::DescriptorImageInfo::default()],
            })
            .collect();
        let texel_views: Vec<_> = bound
            .iter()
            .map(|b| match b {
                Bound::Texel(v) => [*v],
                Bound::Image(..) => [vk::BufferView::null()],
            })
            .collect();
        let mut writes: Vec<_> = buffers
            .iter()
            .zip(&buffer_infos)
            .map(|(&(b, _), info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(ds)
                    .dst_binding(b)
                    .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                    .buffer_info(info)
            })
            .collect();
        for (i, (t, b)) in textures.iter().zip(&bound).enumerate() {
            let w = vk::WriteDescriptorSet::default()
                .dst_set(ds)
                .dst_binding(t.binding())
                .dst_array_element(t.element)
                .descriptor_type(ty_of(b));
            writes.push(match b {
                Bound::Image(..) => w.image_info(&image_infos[i]),
                Bound::Texel(_) => w.texel_buffer_view(&texel_views[i]),
            });
        }
        unsafe { self.dev().update_descriptor_sets(&writes, &[]) };
        Ok((params, ds))
    }
}

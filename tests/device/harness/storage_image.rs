//! Storage images (EXT_shader_image_load_store's `image[n]`, binding 80 + n;
//! NV_bindless_texture's image handle arrays) of compute and fragment runs
//! ([`Device::run_compute`](super::Device::run_compute),
//! [`Device::run_fragment`](super::Device::run_fragment)): made, uploaded
//! before the run and read back after it.

use ash::vk;

use super::device::{host_barrier, Descriptor, HostBuffer, Object, Scope};
use super::texture::TextureKind;
use super::{HarnessError, Result, VkContext};

/// A storage image of a compute or fragment run: its texels as raw words (layer by
/// layer, row by row, `texel_words` words per texel), uploaded before the
/// run and read back after it. A [`TextureKind::Buffer`] image is a
/// storage texel buffer.
#[derive(Clone, Debug)]
pub struct StorageImage {
    pub binding: u32,
    /// The element of the binding's descriptor array (0 but for the
    /// arrays of NV_bindless_texture's image handles; the binding's
    /// descriptor count is one past its highest element).
    pub element: u32,
    pub kind: TextureKind,
    pub format: vk::Format,
    /// Width, height, depth (1 where the kind has none).
    pub extent: [u32; 3],
    /// Array layers (1 for the kinds without).
    pub layers: u32,
    /// The texels' bytes, as little-endian words.
    pub words: Vec<u32>,
    /// Samples per texel (1: a single-sample image). A multisample image
    /// (2D or 2D array; the device's `shaderStorageImageMultisample`)
    /// starts cleared to zero and is not read back (Vulkan copies no
    /// multisample image to a buffer): `words` must be empty, and a
    /// program reads it back through LOADIM.
    pub samples: u32,
    /// The format of the view bound, when it is not `format`: the image is
    /// made with MUTABLE_FORMAT (an R32_UINT view of an R16G16_SFLOAT
    /// image for ATOMIM.F16X2, docs/interface.md "Images"); a texel
    /// buffer's view has it (an R32_UINT view of an rgba16f texel buffer
    /// for ATOMIM.F16X4, twice the elements).
    pub view_format: Option<vk::Format>,
}

/// A storage image made for a run: its descriptor, and (for an image, not
/// a texel buffer) the image and the staging buffer it is filled from and
/// read back into.
pub(crate) struct BoundImage {
    pub(crate) descriptor: Descriptor,
    image: Option<(vk::Image, vk::BufferImageCopy)>,
    pub(crate) staging: HostBuffer,
    /// A multisample image: cleared instead of uploaded, not downloaded.
    multisample: bool,
}

impl BoundImage {
    fn range() -> vk::ImageSubresourceRange {
        vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: vk::REMAINING_ARRAY_LAYERS,
        }
    }

    fn barrier(
        dev: &ash::Device,
        cb: vk::CommandBuffer,
        image: vk::Image,
        old: vk::ImageLayout,
        from: (vk::AccessFlags, vk::PipelineStageFlags),
        to: (vk::AccessFlags, vk::PipelineStageFlags),
    ) {
        let b = vk::ImageMemoryBarrier::default()
            .image(image)
            .old_layout(old)
            .new_layout(vk::ImageLayout::GENERAL)
            .src_access_mask(from.0)
            .dst_access_mask(to.0)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .subresource_range(Self::range());
        unsafe {
            dev.cmd_pipeline_barrier(
                cb,
                from.1,
                to.1,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[b],
            )
        };
    }

    /// Copies the staging buffer into the image (GENERAL layout), before
    /// the run whose shaders at `stage` (COMPUTE_SHADER, FRAGMENT_SHADER)
    /// access it.
    pub(crate) fn upload(
        &self,
        dev: &ash::Device,
        cb: vk::CommandBuffer,
        stage: vk::PipelineStageFlags,
    ) {
        let Some((image, region)) = self.image else {
            return;
        };
        Self::barrier(
            dev,
            cb,
            image,
            vk::ImageLayout::UNDEFINED,
            (
                vk::AccessFlags::empty(),
                vk::PipelineStageFlags::TOP_OF_PIPE,
            ),
            (
                vk::AccessFlags::TRANSFER_WRITE,
                vk::PipelineStageFlags::TRANSFER,
            ),
        );
        if self.multisample {
            let zero = vk::ClearColorValue { uint32: [0; 4] };
            unsafe {
                dev.cmd_clear_color_image(
                    cb,
                    image,
                    vk::ImageLayout::GENERAL,
                    &zero,
                    &[Self::range()],
                )
            };
        } else {
            unsafe {
                dev.cmd_copy_buffer_to_image(
                    cb,
                    self.staging.buffer,
                    image,
                    vk::ImageLayout::GENERAL,
                    &[region],
                )
            };
        }
        Self::barrier(
            dev,
            cb,
            image,
            vk::ImageLayout::GENERAL,
            (
                vk::AccessFlags::TRANSFER_WRITE,
                vk::PipelineStageFlags::TRANSFER,
            ),
            (
                vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
                stage,
            ),
        );
    }

    /// Copies the image back into the staging buffer, after the run whose
    /// shaders at `stage` wrote it.
    pub(crate) fn download(
        &self,
        dev: &ash::Device,
        cb: vk::CommandBuffer,
        stage: vk::PipelineStageFlags,
    ) {
        let Some((image, region)) = self.image.filter(|_| !self.multisample) else {
            return;
        };
        Self::barrier(
            dev,
            cb,
            image,
            vk::ImageLayout::GENERAL,
            (vk::AccessFlags::SHADER_WRITE, stage),
            (
                vk::AccessFlags::TRANSFER_READ,
                vk::PipelineStageFlags::TRANSFER,
            ),
        );
        unsafe {
            dev.cmd_copy_image_to_buffer(
                cb,
                image,
                vk::ImageLayout::GENERAL,
                self.staging.buffer,
                &[region],
            )
        };
        host_barrier(
            dev,
            cb,
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_WRITE,
        );
    }
}

impl Scope<'_> {
    /// The image (or texel buffer) of `i`, with its view.
    pub(crate) fn storage_image(&mut self, i: &StorageImage) -> Result<BoundImage> {
        if i.kind == TextureKind::Buffer {
            let staging = self.buffer(0, vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER, &i.words)?;
            let view = unsafe {
                self.dev().create_buffer_view(
                    &vk::BufferViewCreateInfo::default()
                        .buffer(staging.buffer)
                        .format(i.view_format.unwrap_or(i.format))
                        .offset(0)
                        .range(i.words.len() as u64 * 4),
                    None,
                )
            }
            .vk("vkCreateBufferView")?;
            self.own(Object::BufferView(view));
            return Ok(BoundImage {
                descriptor: Descriptor::StorageTexelBuffer(view),
                image: None,
                staging,
                multisample: false,
            });
        }
        let multisample = i.samples > 1;
        if multisample
            && (!i.words.is_empty() || !matches!(i.kind, TextureKind::D2 | TextureKind::Array2D))
        {
            return Err(HarnessError::Job(
                "a multisample storage image is 2D or 2D array and starts cleared (no words)"
                    .into(),
            ));
        }
        let (image_type, view_type) = match i.kind {
            TextureKind::D1 => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D),
            TextureKind::Array1D => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D_ARRAY),
            TextureKind::D2 => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D),
            TextureKind::Array2D => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D_ARRAY),
            TextureKind::D3 => (vk::ImageType::TYPE_3D, vk::ImageViewType::TYPE_3D),
            other => {
                return Err(HarnessError::Job(format!(
                    "storage images of kind {other:?} are not supported by the harness"
                )))
            }
        };
        let extent = vk::Extent3D {
            width: i.extent[0],
            height: i.extent[1],
            depth: i.extent[2],
        };
        let image = self.bound_image(
            &vk::ImageCreateInfo::default()
                .image_type(image_type)
                .format(i.format)
                .extent(extent)
                .mip_levels(1)
                .array_layers(i.layers)
                .samples(vk::SampleCountFlags::from_raw(i.samples.max(1)))
                .flags(if i.view_format.is_some() {
                    vk::ImageCreateFlags::MUTABLE_FORMAT
                } else {
                    vk::ImageCreateFlags::empty()
                })
                .tiling(vk::ImageTiling::OPTIMAL)
                .usage(
                    vk::ImageUsageFlags::STORAGE
                        | vk::ImageUsageFlags::TRANSFER_SRC
                        | vk::ImageUsageFlags::TRANSFER_DST,
                )
                .sharing_mode(vk::SharingMode::EXCLUSIVE)
                .initial_layout(vk::ImageLayout::UNDEFINED),
        )?;
        let view = unsafe {
            self.dev().create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(view_type)
                    .format(i.view_format.unwrap_or(i.format))
                    .subresource_range(BoundImage::range()),
                None,
            )
        }
        .vk("vkCreateImageView")?;
        self.own(Object::ImageView(view));
        // A multisample image has no staging contents (one word keeps the
        // buffer valid).
        let staging_words: &[u32] = if multisample { &[0] } else { &i.words };
        let staging = self.buffer(
            0,
            vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST,
            staging_words,
        )?;
        let region = vk::BufferImageCopy {
            buffer_offset: 0,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: i.layers,
            },
            image_offset: vk::Offset3D { x: 0, y: 0, z: 0 },
            image_extent: extent,
        };
        Ok(BoundImage {
            descriptor: Descriptor::StorageImage(view),
            image: Some((image, region)),
            staging,
            multisample,
        })
    }
}

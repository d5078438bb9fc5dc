//! Compute runs ([`Device::run_compute`]): one compute program dispatched
//! over a grid of work groups, its storage buffers (NV_shader_storage_buffer
//! object's `program.storage[a]`, binding 64 + a of set 0 by default,
//! docs/interface.md) and storage images (EXT_shader_image_load_store's
//! `image[n]`, binding 80 + n) uploaded before and read back after.

use ash::vk;

use super::device::{host_barrier, Descriptor, Device, HostBuffer, Object, Scope};
use super::texture::TextureKind;
use super::{HarnessError, Result, VkContext};

/// The 32-bit words of a buffer or image read back after a run.
pub type Words = Vec<u32>;

/// A storage image of a compute run: its texels as raw words (layer by
/// layer, row by row, `texel_words` words per texel), uploaded before the
/// dispatch and read back after it. A [`TextureKind::Buffer`] image is a
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

/// A buffer a compute run reaches by GPU address (LOAD, STORE, ATOM;
/// docs/interface.md, "GPU addresses"): made with SHADER_DEVICE_ADDRESS
/// usage, its `vkGetBufferDeviceAddress` written to `program.env[env]` as
/// x = low 32 bits, y = high 32 bits (what PK64 packs into a LONG
/// register), and read back after the run.
#[derive(Clone, Debug)]
pub struct AddressedBuffer {
    pub words: Vec<u32>,
    /// The `program.env` element that receives its address.
    pub env: u32,
}

/// A compute dispatch.
#[derive(Clone, Debug)]
pub struct ComputeJob {
    /// Work groups in x, y, z (`vkCmdDispatch`).
    pub groups: [u32; 3],
    /// Storage buffers: (binding, initial 32-bit words). Each is read back.
    pub storage: Vec<(u32, Vec<u32>)>,
    /// Storage images, read back too.
    pub images: Vec<StorageImage>,
    /// Their descriptor set (default 0, a compute program's).
    pub descriptor_set: u32,
    /// `program.env[i]` (binding 0 of the set, a uniform buffer), raw
    /// bits; bound when it or `addressed` is not empty.
    pub env: Vec<[u32; 4]>,
    /// Buffers reached by GPU address, read back too.
    pub addressed: Vec<AddressedBuffer>,
}

impl ComputeJob {
    pub fn new(groups: [u32; 3], storage: Vec<(u32, Vec<u32>)>) -> ComputeJob {
        ComputeJob {
            groups,
            storage,
            images: Vec::new(),
            descriptor_set: 0,
            env: Vec::new(),
            addressed: Vec::new(),
        }
    }
}

impl Device {
    /// Dispatches `spirv` (a `GLCompute` entry point `main`) and returns each
    /// storage buffer's words after the run, in the job's order.
    pub fn run_compute(&self, spirv: &[u32], job: &ComputeJob) -> Result<Vec<Vec<u32>>> {
        Ok(self.run_compute_images(spirv, job)?.0)
    }

    /// [`Device::run_compute`], also returning each storage image's words
    /// after the run, in the job's order.
    pub fn run_compute_images(
        &self,
        spirv: &[u32],
        job: &ComputeJob,
    ) -> Result<(Vec<Words>, Vec<Words>)> {
        let (storage, images, _) = self.run_compute_all(spirv, job)?;
        Ok((storage, images))
    }

    /// [`Device::run_compute_images`], also returning each buffer of
    /// [`ComputeJob::addressed`] after the run, in the job's order.
    pub fn run_compute_all(
        &self,
        spirv: &[u32],
        job: &ComputeJob,
    ) -> Result<(Vec<Words>, Vec<Words>, Vec<Words>)> {
        if !job.addressed.is_empty() && !self.buffer_device_address() {
            return Err(HarnessError::Job(
                "buffers reached by GPU address need bufferDeviceAddress, which the device lacks"
                    .into(),
            ));
        }
        if job.groups.iter().any(|&g| g == 0 || g > 1024) {
            return Err(HarnessError::Job(format!(
                "{:?} work groups; each dimension is 1..=1024",
                job.groups
            )));
        }
        self.run(|d| {
            let mut s = Scope::new(d);
            let mut buffers: Vec<(u32, HostBuffer)> = Vec::new();
            for (binding, words) in &job.storage {
                let buf = s.buffer(
                    words.len() as u64 * 4,
                    vk::BufferUsageFlags::STORAGE_BUFFER,
                    words,
                )?;
                buffers.push((*binding, buf));
            }
            let mut descriptors: Vec<(u32, u32, Descriptor)> = buffers
                .iter()
                .map(|(b, buf)| {
                    (
                        *b,
                        0,
                        Descriptor::Buffer(vk::DescriptorType::STORAGE_BUFFER, buf.buffer),
                    )
                })
                .collect();
            // GPU addresses: the buffers, then their addresses in env.
            let mut env = job.env.clone();
            let mut addressed = Vec::new();
            for a in &job.addressed {
                let buf = s.buffer(
                    a.words.len() as u64 * 4,
                    vk::BufferUsageFlags::STORAGE_BUFFER
                        | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS,
                    &a.words,
                )?;
                let address = s.device_address(&buf);
                let i = a.env as usize;
                if env.len() <= i {
                    env.resize(i + 1, [0; 4]);
                }
                env[i][0] = address as u32;
                env[i][1] = (address >> 32) as u32;
                addressed.push(buf);
            }
            if !env.is_empty() {
                let words: Vec<u32> = env.iter().flatten().copied().collect();
                let buf = s.buffer(
                    words.len() as u64 * 4,
                    vk::BufferUsageFlags::UNIFORM_BUFFER,
                    &words,
                )?;
                descriptors.push((
                    0,
                    0,
                    Descriptor::Buffer(vk::DescriptorType::UNIFORM_BUFFER, buf.buffer),
                ));
            }
            let mut images = Vec::new();
            for image in &job.images {
                let bound = s.storage_image(image)?;
                descriptors.push((image.binding, image.element, bound.descriptor));
                images.push(bound);
            }
            let (layout, set) = s.descriptor_set_elements(
                job.descriptor_set,
                vk::ShaderStageFlags::COMPUTE,
                &descriptors,
            )?;
            let module = s.shader(spirv)?;
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"main");
            let info = vk::ComputePipelineCreateInfo::default()
                .stage(stage)
                .layout(layout);
            let pipeline = s.compute_pipeline(&info)?;
            let set_index = job.descriptor_set;
            let groups = job.groups;
            s.submit(|dev, cb| unsafe {
                for i in &images {
                    i.upload(dev, cb);
                }
                dev.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
                dev.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::COMPUTE,
                    layout,
                    set_index,
                    &[set],
                    &[],
                );
                dev.cmd_dispatch(cb, groups[0], groups[1], groups[2]);
                for i in &images {
                    i.download(dev, cb);
                }
                host_barrier(
                    dev,
                    cb,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::AccessFlags::SHADER_WRITE,
                );
            })?;
            let storage = buffers
                .iter()
                .zip(&job.storage)
                .map(|((_, b), (_, words))| {
                    let mut w = b.read_words();
                    w.truncate(words.len());
                    w
                })
                .collect();
            let images = images
                .iter()
                .zip(&job.images)
                .map(|(b, i)| {
                    let mut w = b.staging.read_words();
                    w.truncate(i.words.len());
                    w
                })
                .collect();
            let addressed = addressed
                .iter()
                .zip(&job.addressed)
                .map(|(b, a)| {
                    let mut w = b.read_words();
                    w.truncate(a.words.len());
                    w
                })
                .collect();
            Ok((storage, images, addressed))
        })
    }
}

/// A storage image made for a run: its descriptor, and (for an image, not
/// a texel buffer) the image and the staging buffer it is filled from and
/// read back into.
struct BoundImage {
    descriptor: Descriptor,
    image: Option<(vk::Image, vk::BufferImageCopy)>,
    staging: HostBuffer,
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
    /// the dispatch.
    fn upload(&self, dev: &ash::Device, cb: vk::CommandBuffer) {
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
                vk::PipelineStageFlags::COMPUTE_SHADER,
            ),
        );
    }

    /// Copies the image back into the staging buffer, after the dispatch.
    fn download(&self, dev: &ash::Device, cb: vk::CommandBuffer) {
        let Some((image, region)) = self.image.filter(|_| !self.multisample) else {
            return;
        };
        Self::barrier(
            dev,
            cb,
            image,
            vk::ImageLayout::GENERAL,
            (
                vk::AccessFlags::SHADER_WRITE,
                vk::PipelineStageFlags::COMPUTE_SHADER,
            ),
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
    fn storage_image(&mut self, i: &StorageImage) -> Result<BoundImage> {
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
        let image = unsafe {
            self.dev().create_image(
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
                None,
            )
        }
        .vk("vkCreateImage")?;
        self.own(Object::Image(image));
        let req = unsafe { self.dev().get_image_memory_requirements(image) };
        let memory = self.allocate(req, vk::MemoryPropertyFlags::DEVICE_LOCAL)?;
        unsafe { self.dev().bind_image_memory(image, memory, 0) }.vk("vkBindImageMemory")?;
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

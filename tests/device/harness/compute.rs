//! Compute runs ([`Device::run_compute`]): one compute program dispatched
//! over a grid of work groups, its storage buffers (NV_shader_storage_buffer
//! object's `program.storage[a]`, binding 64 + a of set 0 by default,
//! docs/interface.md) and storage images (EXT_shader_image_load_store's
//! `image[n]`, binding 80 + n) uploaded before and read back after.

use ash::vk;

use super::device::{host_barrier, Descriptor, Device, HostBuffer, Scope};
use super::storage_image::StorageImage;
use super::HarnessError;
use super::Result;

/// The 32-bit words of a buffer or image read back after a run.
pub type Words = Vec<u32>;

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
                    i.upload(dev, cb, vk::PipelineStageFlags::COMPUTE_SHADER);
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
                    i.download(dev, cb, vk::PipelineStageFlags::COMPUTE_SHADER);
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

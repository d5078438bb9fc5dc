//! Compute runs ([`Device::run_compute`]): one compute program dispatched
//! over a grid of work groups, its storage buffers (NV_shader_storage_buffer
//! object's `program.storage[a]`, binding 64 + a of set 0 by default,
//! docs/interface.md) uploaded before and read back after.

use ash::vk;

use super::device::{host_barrier, Device, HostBuffer, Scope};
use super::{HarnessError, Result};

/// A compute dispatch.
#[derive(Clone, Debug)]
pub struct ComputeJob {
    /// Work groups in x, y, z (`vkCmdDispatch`).
    pub groups: [u32; 3],
    /// Storage buffers: (binding, initial 32-bit words). Each is read back.
    pub storage: Vec<(u32, Vec<u32>)>,
    /// Their descriptor set (default 0, a compute program's).
    pub descriptor_set: u32,
}

impl ComputeJob {
    pub fn new(groups: [u32; 3], storage: Vec<(u32, Vec<u32>)>) -> ComputeJob {
        ComputeJob {
            groups,
            storage,
            descriptor_set: 0,
        }
    }
}

impl Device {
    /// Dispatches `spirv` (a `GLCompute` entry point `main`) and returns each
    /// storage buffer's words after the run, in the job's order.
    pub fn run_compute(&self, spirv: &[u32], job: &ComputeJob) -> Result<Vec<Vec<u32>>> {
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
            let refs: Vec<(u32, &HostBuffer)> = buffers.iter().map(|(b, buf)| (*b, buf)).collect();
            let (layout, set) = s.buffer_set(
                job.descriptor_set,
                vk::ShaderStageFlags::COMPUTE,
                &refs,
                vk::DescriptorType::STORAGE_BUFFER,
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
                host_barrier(
                    dev,
                    cb,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::AccessFlags::SHADER_WRITE,
                );
            })?;
            Ok(buffers
                .iter()
                .zip(&job.storage)
                .map(|((_, b), (_, words))| {
                    let mut w = b.read_words();
                    w.truncate(words.len());
                    w
                })
                .collect())
        })
    }
}

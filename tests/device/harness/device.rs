//! Instance/device creation, the shared per-process device, validation-message
//! capture, and [`Scope`], the per-run owner of Vulkan objects.

use std::ffi::{c_void, CStr};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use ash::{ext, vk};

use super::{HarnessError, Result, VkContext};

const LVP_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";
/// How long a single submission may run before the run fails with `Timeout`.
const FENCE_TIMEOUT: Duration = Duration::from_secs(60);

/// A Vulkan device for running shaders. See the module docs of `harness`.
pub struct Device {
    inner: Mutex<Inner>,
    /// Validation messages, written by the debug-utils callback (whose user-data
    /// pointer points here, so it lives in a Box that outlives the messenger).
    messages: Box<Mutex<Vec<String>>>,
    /// Whether VK_LAYER_KHRONOS_validation is active.
    pub validation: bool,
    /// The physical device's name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// Per-vertex bytes one transform feedback pass can capture (0: no xfb).
    pub(crate) xfb_max_bytes: u32,
    /// `geometryStreams` is enabled and 4 transform feedback streams and
    /// buffers are there: EMITS to streams 1 to 3 can be captured.
    pub(crate) geometry_streams: bool,
    /// VK_EXT_depth_clip_control is enabled: a pipeline may ask for GL's
    /// clip-space depth range [-w, w] (`negativeOneToOne`).
    pub depth_clip_control: bool,
}

/// What [`Device::subgroups`] reports.
#[derive(Clone, Copy, Debug)]
pub struct Subgroups {
    /// `subgroupSize`: invocations per subgroup.
    pub size: u32,
    /// `supportedStages`.
    pub stages: vk::ShaderStageFlags,
    /// `supportedOperations`.
    pub operations: vk::SubgroupFeatureFlags,
}

/// The Vulkan objects; behind the `Device`'s mutex, which serialises runs.
pub(crate) struct Inner {
    _entry: ash::Entry,
    instance: ash::Instance,
    debug: Option<(ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    pub(crate) physical: vk::PhysicalDevice,
    pub(crate) device: ash::Device,
    pub(crate) queue: vk::Queue,
    pub(crate) memory: vk::PhysicalDeviceMemoryProperties,
    pub(crate) command_pool: vk::CommandPool,
    /// VK_EXT_transform_feedback, when the device has it.
    pub(crate) xfb: Option<ext::transform_feedback::Device>,
    /// Per-vertex bytes one transform feedback buffer/stream can take.
    pub(crate) xfb_max_bytes: u32,
    /// See `Device::geometry_streams`.
    pub(crate) geometry_streams: bool,
    /// VK_EXT_depth_clip_control (with `depthClipControl`) is enabled.
    pub(crate) depth_clip_control: bool,
    /// Vulkan 1.2's `bufferDeviceAddress` is enabled: buffers with
    /// SHADER_DEVICE_ADDRESS usage, for LOAD/STORE/ATOM's GPU addresses
    /// (docs/interface.md, "GPU addresses").
    pub(crate) buffer_device_address: bool,
    /// Set once the device has been destroyed (`Device::close`).
    destroyed: bool,
}

unsafe extern "system" fn debug_callback(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    if data.is_null() || user.is_null() {
        return vk::FALSE;
    }
    // SAFETY: the layer passes a valid callback-data struct; `user` is the
    // `Box<Mutex<Vec<String>>>` of the owning `Device`, alive while the messenger is.
    let data = unsafe { &*data };
    let text = |p: *const std::ffi::c_char| {
        if p.is_null() {
            String::new()
        } else {
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    };
    let level = if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR) {
        "error"
    } else {
        "warning"
    };
    let line = format!(
        "[{level}] {}: {}",
        text(data.p_message_id_name),
        text(data.p_message)
    );
    let messages = unsafe { &*(user as *const Mutex<Vec<String>>) };
    messages
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(line);
    vk::FALSE
}

/// Points the loader at lavapipe (unless the caller chose a driver) and disables
/// Mesa's on-disk shader cache.
fn configure_environment() {
    if std::env::var_os("VK_DRIVER_FILES").is_none()
        && std::env::var_os("VK_ICD_FILENAMES").is_none()
        && std::path::Path::new(LVP_ICD).exists()
    {
        std::env::set_var("VK_DRIVER_FILES", LVP_ICD);
    }
    std::env::set_var("MESA_SHADER_CACHE_DISABLE", "true");
}

fn ci_mode() -> bool {
    std::env::var("CI")
        .map(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "1" | "yes"))
        .unwrap_or(false)
}

static SHARED: OnceLock<std::result::Result<Device, String>> = OnceLock::new();

/// The process-wide device, created on first use. The error (a `NoDevice` or the
/// creation failure) is remembered, so every test sees the same outcome.
pub fn shared_device() -> Result<&'static Device> {
    let init = || {
        Device::new().map_err(|e| match e {
            HarnessError::NoDevice(m) => m,
            other => other.to_string(),
        })
    };
    match SHARED.get_or_init(init) {
        Ok(d) => Ok(d),
        Err(e) => Err(HarnessError::NoDevice(e.clone())),
    }
}

/// The shared device, or `None` after a loud "SKIPPED" line on stderr when there is
/// no Vulkan device. With `CI=true` a missing device panics instead: in CI, execution
/// tests must fail, never skip.
pub fn device_or_skip() -> Option<&'static Device> {
    match shared_device() {
        Ok(d) => Some(d),
        Err(e) if ci_mode() => panic!(
            "CI=true and no usable Vulkan device, execution tests cannot run: {e} \
             (install mesa-vulkan-drivers and vulkan-validationlayers)"
        ),
        Err(e) => {
            // Written to the real stderr, not through `eprintln!`, which the test
            // runner captures (and hides) for passing tests.
            use std::io::Write;
            static BANNER: std::sync::Once = std::sync::Once::new();
            let mut err = std::io::stderr();
            BANNER.call_once(|| {
                let _ = writeln!(
                    err,
                    "\n********************************************************************\n\
                     SKIPPED: no Vulkan device (install mesa-vulkan-drivers): {e}\n\
                     Execution tests pass without running. Set CI=true to make them fail.\n\
                     ********************************************************************"
                );
            });
            let test = std::thread::current().name().unwrap_or("?").to_string();
            let _ = writeln!(err, "SKIPPED: no Vulkan device: {test}");
            None
        }
    }
}

impl Device {
    /// Creates an instance and a device on the first physical device that supports
    /// Vulkan 1.3 and graphics. Prefer [`shared_device`]: creation takes time.
    pub fn new() -> Result<Device> {
        configure_environment();
        let messages: Box<Mutex<Vec<String>>> = Box::new(Mutex::new(Vec::new()));
        let entry = unsafe { ash::Entry::load() }
            .map_err(|e| HarnessError::NoDevice(format!("cannot load the Vulkan loader: {e}")))?;
        let (inner, validation, name) = unsafe { create(entry, &messages)? };
        let early: Vec<String> = std::mem::take(&mut *lock(&messages));
        for m in &early {
            eprintln!("harness: message during device creation: {m}");
        }
        if !validation {
            eprintln!(
                "harness: WARNING: VK_LAYER_KHRONOS_validation is not installed; \
                 running without validation (install vulkan-validationlayers)"
            );
        }
        Ok(Device {
            xfb_max_bytes: inner.xfb_max_bytes,
            geometry_streams: inner.geometry_streams,
            depth_clip_control: inner.depth_clip_control,
            inner: Mutex::new(inner),
            messages,
            validation,
            name,
        })
    }

    /// The device's subgroups (Vulkan 1.1 `VkPhysicalDeviceSubgroupProperties`):
    /// their size, the stages that have subgroup operations and which
    /// operations. NV_gpu_program5's thread groups are these subgroups
    /// (docs/interface.md, "Thread groups").
    /// Whether `bufferDeviceAddress` is enabled (modules using LOAD, STORE
    /// or ATOM need it; reflection's `device_features` says so).
    pub fn buffer_device_address(&self) -> bool {
        lock(&self.inner).buffer_device_address
    }

    pub fn subgroups(&self) -> Subgroups {
        let inner = lock(&self.inner);
        let mut sub = vk::PhysicalDeviceSubgroupProperties::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut sub);
        // SAFETY: `physical` came from this instance, which is alive while
        // the lock is held.
        unsafe {
            inner
                .instance
                .get_physical_device_properties2(inner.physical, &mut props)
        };
        Subgroups {
            size: sub.subgroup_size,
            stages: sub.supported_stages,
            operations: sub.supported_operations,
        }
    }

    /// Runs `f` with exclusive use of the device. Validation messages emitted while
    /// `f` runs (including while its `Scope` destroys its objects) become an error.
    pub(crate) fn run<T>(&self, f: impl FnOnce(&Inner) -> Result<T>) -> Result<T> {
        let inner = lock(&self.inner);
        lock(&self.messages).clear();
        let result = f(&inner);
        let messages = std::mem::take(&mut *lock(&self.messages));
        drop(inner);
        if messages.is_empty() {
            result
        } else {
            Err(HarnessError::Validation {
                messages,
                run_error: result.err().map(Box::new),
            })
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

unsafe fn create(
    entry: ash::Entry,
    messages: &Mutex<Vec<String>>,
) -> Result<(Inner, bool, String)> {
    let version = entry
        .try_enumerate_instance_version()
        .vk("vkEnumerateInstanceVersion")?
        .unwrap_or(vk::API_VERSION_1_0);
    if version < vk::API_VERSION_1_3 {
        return Err(HarnessError::NoDevice(format!(
            "the Vulkan loader supports {}.{}, the harness needs 1.3",
            vk::api_version_major(version),
            vk::api_version_minor(version)
        )));
    }
    let layers = entry
        .enumerate_instance_layer_properties()
        .vk("vkEnumerateInstanceLayerProperties")?;
    let validation = layers
        .iter()
        .any(|l| l.layer_name_as_c_str() == Ok(VALIDATION_LAYER));
    let instance_exts = entry
        .enumerate_instance_extension_properties(None)
        .vk("vkEnumerateInstanceExtensionProperties")?;
    // The validation layer provides debug utils itself; the loader usually does too.
    let debug_utils = validation
        || instance_exts
            .iter()
            .any(|e| e.extension_name_as_c_str() == Ok(ext::debug_utils::NAME));

    let app = vk::ApplicationInfo::default()
        .application_name(c"nvp4c-test-harness")
        .api_version(vk::API_VERSION_1_3);
    let layer_names = if validation {
        vec![VALIDATION_LAYER.as_ptr()]
    } else {
        vec![]
    };
    let ext_names = if debug_utils {
        vec![ext::debug_utils::NAME.as_ptr()]
    } else {
        vec![]
    };
    let user = messages as *const Mutex<Vec<String>> as *mut c_void;
    let mut messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::ERROR
                | vk::DebugUtilsMessageSeverityFlagsEXT::WARNING,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION,
        )
        .pfn_user_callback(Some(debug_callback))
        .user_data(user);
    let mut instance_info = vk::InstanceCreateInfo::default()
        .application_info(&app)
        .enabled_layer_names(&layer_names)
        .enabled_extension_names(&ext_names);
    if debug_utils {
        instance_info = instance_info.push_next(&mut messenger_info);
    }
    let instance = entry
        .create_instance(&instance_info, None)
        .map_err(|e| HarnessError::NoDevice(format!("vkCreateInstance failed: {e}")))?;

    // From here on, destroy what was created if a later step fails.
    let mut partial = Partial {
        instance: &instance,
        debug: None,
        device: None,
    };
    if debug_utils {
        let loader = ext::debug_utils::Instance::new(&entry, &instance);
        let messenger = loader
            .create_debug_utils_messenger(&messenger_info, None)
            .vk("vkCreateDebugUtilsMessengerEXT")?;
        partial.debug = Some((loader, messenger));
    }

    let physicals = instance
        .enumerate_physical_devices()
        .map_err(|e| HarnessError::NoDevice(format!("vkEnumeratePhysicalDevices: {e}")))?;
    let mut chosen = None;
    for &pd in &physicals {
        let props = instance.get_physical_device_properties(pd);
        if props.api_version < vk::API_VERSION_1_3 {
            continue;
        }
        let families = instance.get_physical_device_queue_family_properties(pd);
        if let Some(qf) = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS))
        {
            chosen = Some((pd, qf as u32, props));
            break;
        }
    }
    let Some((physical, queue_family, props)) = chosen else {
        return Err(HarnessError::NoDevice(format!(
            "{} physical device(s), none with Vulkan 1.3 and a graphics queue",
            physicals.len()
        )));
    };
    let name = props
        .device_name_as_c_str()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();

    let device_exts = instance
        .enumerate_device_extension_properties(physical)
        .vk("vkEnumerateDeviceExtensionProperties")?;
    let has_xfb = device_exts
        .iter()
        .any(|e| e.extension_name_as_c_str() == Ok(ext::transform_feedback::NAME));
    let has_clip_control = device_exts
        .iter()
        .any(|e| e.extension_name_as_c_str() == Ok(ext::depth_clip_control::NAME));
    let has_atomic_float = device_exts
        .iter()
        .any(|e| e.extension_name_as_c_str() == Ok(ext::shader_atomic_float::NAME));

    // What the device supports.
    let mut s11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut s12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut s13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut sxfb = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default();
    let mut sclip = vk::PhysicalDeviceDepthClipControlFeaturesEXT::default();
    let mut sfloat = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default();
    let mut s2 = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut s11)
        .push_next(&mut s12)
        .push_next(&mut s13);
    if has_xfb {
        s2 = s2.push_next(&mut sxfb);
    }
    if has_clip_control {
        s2 = s2.push_next(&mut sclip);
    }
    if has_atomic_float {
        s2 = s2.push_next(&mut sfloat);
    }
    instance.get_physical_device_features2(physical, &mut s2);
    let s = s2.features;
    if s13.dynamic_rendering == vk::FALSE {
        return Err(HarnessError::NoDevice(format!(
            "{name} lacks dynamicRendering"
        )));
    }

    // What the harness enables: what compiled programs may need, when supported.
    // (Not robustBufferAccess: it would hide out-of-bounds reads.)
    let core = vk::PhysicalDeviceFeatures {
        geometry_shader: s.geometry_shader,
        // Geometry programs reading or writing PointSize (GeometryPointSize).
        shader_tessellation_and_geometry_point_size: s.shader_tessellation_and_geometry_point_size,
        tessellation_shader: s.tessellation_shader,
        shader_clip_distance: s.shader_clip_distance,
        shader_cull_distance: s.shader_cull_distance,
        shader_float64: s.shader_float64,
        shader_int64: s.shader_int64,
        shader_int16: s.shader_int16,
        independent_blend: s.independent_blend,
        image_cube_array: s.image_cube_array,
        shader_image_gather_extended: s.shader_image_gather_extended,
        sample_rate_shading: s.sample_rate_shading,
        depth_clamp: s.depth_clamp,
        large_points: s.large_points,
        fragment_stores_and_atomics: s.fragment_stores_and_atomics,
        vertex_pipeline_stores_and_atomics: s.vertex_pipeline_stores_and_atomics,
        // AGAL's anisotropic sampler filters.
        sampler_anisotropy: s.sampler_anisotropy,
        // Image units (docs/interface.md, "Images"): RG32, R16 and R8
        // storage formats, and units only written by formatted stores.
        shader_storage_image_extended_formats: s.shader_storage_image_extended_formats,
        shader_storage_image_write_without_format: s.shader_storage_image_write_without_format,
        // 2DMS / ARRAY2DMS image units (StorageImageMultisample).
        shader_storage_image_multisample: s.shader_storage_image_multisample,
        ..Default::default()
    };
    let mut e11 = vk::PhysicalDeviceVulkan11Features::default()
        .shader_draw_parameters(s11.shader_draw_parameters == vk::TRUE);
    let mut e12 = vk::PhysicalDeviceVulkan12Features::default()
        .shader_float16(s12.shader_float16 == vk::TRUE)
        .shader_int8(s12.shader_int8 == vk::TRUE)
        .scalar_block_layout(s12.scalar_block_layout == vk::TRUE)
        .uniform_buffer_standard_layout(s12.uniform_buffer_standard_layout == vk::TRUE)
        .vulkan_memory_model(s12.vulkan_memory_model == vk::TRUE)
        // 64-bit atomics (Int64Atomics: NV_shader_atomic_int64,
        // NV_shader_atomic_float64; docs/interface.md, "Storage buffers").
        .shader_buffer_int64_atomics(s12.shader_buffer_int64_atomics == vk::TRUE)
        .shader_shared_int64_atomics(s12.shader_shared_int64_atomics == vk::TRUE)
        // Storage buffer atomics at Device scope (ATOMB), which the
        // memory model feature otherwise forbids.
        .vulkan_memory_model_device_scope(s12.vulkan_memory_model_device_scope == vk::TRUE)
        // LOAD, STORE and ATOM: PhysicalStorageBuffer pointers made from
        // GPU addresses (docs/interface.md, "GPU addresses").
        .buffer_device_address(s12.buffer_device_address == vk::TRUE);
    let mut e13 = vk::PhysicalDeviceVulkan13Features::default()
        .dynamic_rendering(true)
        .maintenance4(s13.maintenance4 == vk::TRUE)
        .shader_demote_to_helper_invocation(s13.shader_demote_to_helper_invocation == vk::TRUE)
        .shader_terminate_invocation(s13.shader_terminate_invocation == vk::TRUE);
    let mut exfb = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default()
        .transform_feedback(sxfb.transform_feedback == vk::TRUE)
        .geometry_streams(sxfb.geometry_streams == vk::TRUE);
    let use_xfb = has_xfb && sxfb.transform_feedback == vk::TRUE;
    // GL's clip-space depth for the piglit runner (Device::run_scene).
    let use_clip_control = has_clip_control && sclip.depth_clip_control == vk::TRUE;
    let mut eclip =
        vk::PhysicalDeviceDepthClipControlFeaturesEXT::default().depth_clip_control(true);
    // ATOMIM.ADD/EXCH.F32 (NV_shader_atomic_float) on r32f images.
    let mut efloat = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default()
        .shader_image_float32_atomics(sfloat.shader_image_float32_atomics == vk::TRUE)
        .shader_image_float32_atomic_add(sfloat.shader_image_float32_atomic_add == vk::TRUE);

    let priorities = [1.0f32];
    let queue_info = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(queue_family)
        .queue_priorities(&priorities)];
    let mut dev_ext_names = Vec::new();
    if use_xfb {
        dev_ext_names.push(ext::transform_feedback::NAME.as_ptr());
    }
    if use_clip_control {
        dev_ext_names.push(ext::depth_clip_control::NAME.as_ptr());
    }
    if has_atomic_float {
        dev_ext_names.push(ext::shader_atomic_float::NAME.as_ptr());
    }
    let mut device_info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queue_info)
        .enabled_extension_names(&dev_ext_names)
        .enabled_features(&core)
        .push_next(&mut e11)
        .push_next(&mut e12)
        .push_next(&mut e13);
    if use_xfb {
        device_info = device_info.push_next(&mut exfb);
    }
    if use_clip_control {
        device_info = device_info.push_next(&mut eclip);
    }
    if has_atomic_float {
        device_info = device_info.push_next(&mut efloat);
    }
    let device = instance
        .create_device(physical, &device_info, None)
        .vk("vkCreateDevice")?;
    partial.device = Some(device.clone());

    let mut xfb_max_bytes = 0;
    let mut geometry_streams = false;
    if use_xfb {
        let mut xp = vk::PhysicalDeviceTransformFeedbackPropertiesEXT::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut xp);
        instance.get_physical_device_properties2(physical, &mut p2);
        xfb_max_bytes = xp
            .max_transform_feedback_buffer_data_stride
            .min(xp.max_transform_feedback_buffer_data_size)
            .min(xp.max_transform_feedback_stream_data_size);
        geometry_streams = sxfb.geometry_streams == vk::TRUE
            && xp.max_transform_feedback_streams >= 4
            && xp.max_transform_feedback_buffers >= 4;
    }

    let queue = device.get_device_queue(queue_family, 0);
    let command_pool = device
        .create_command_pool(
            &vk::CommandPoolCreateInfo::default()
                .queue_family_index(queue_family)
                .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER),
            None,
        )
        .vk("vkCreateCommandPool")?;
    let memory = instance.get_physical_device_memory_properties(physical);
    let xfb = use_xfb.then(|| ext::transform_feedback::Device::new(&instance, &device));
    let debug = partial.debug.take();
    partial.device = None;
    std::mem::forget(partial);
    Ok((
        Inner {
            _entry: entry,
            instance,
            debug,
            physical,
            device,
            queue,
            memory,
            command_pool,
            xfb,
            xfb_max_bytes,
            geometry_streams,
            depth_clip_control: use_clip_control,
            buffer_device_address: s12.buffer_device_address == vk::TRUE,
            destroyed: false,
        },
        validation,
        name,
    ))
}

/// Cleans up a half-created device when `create` fails part-way.
struct Partial<'a> {
    instance: &'a ash::Instance,
    debug: Option<(ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    device: Option<ash::Device>,
}

impl Drop for Partial<'_> {
    fn drop(&mut self) {
        unsafe {
            if let Some(d) = self.device.take() {
                d.destroy_device(None);
            }
            if let Some((loader, m)) = self.debug.take() {
                loader.destroy_debug_utils_messenger(m, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}

impl Device {
    /// Destroys the device and returns `Err(Validation)` if the validation layer
    /// complained on the way (e.g. about Vulkan objects a run failed to destroy).
    /// Dropping a `Device` does the same but can only print the messages.
    pub fn close(mut self) -> Result<()> {
        let messages = self.destroy();
        if messages.is_empty() {
            Ok(())
        } else {
            Err(HarnessError::Validation {
                messages,
                run_error: None,
            })
        }
    }

    fn destroy(&mut self) -> Vec<String> {
        let inner = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        if inner.destroyed {
            return Vec::new();
        }
        inner.destroyed = true;
        lock(&self.messages).clear();
        unsafe {
            let _ = inner.device.device_wait_idle();
            inner.device.destroy_command_pool(inner.command_pool, None);
            inner.device.destroy_device(None);
        }
        // Leak reports come with vkDestroyDevice, while the messenger still exists.
        let messages = std::mem::take(&mut *lock(&self.messages));
        unsafe {
            if let Some((loader, m)) = inner.debug.take() {
                loader.destroy_debug_utils_messenger(m, None);
            }
            inner.instance.destroy_instance(None);
        }
        messages
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        for m in self.destroy() {
            eprintln!("harness: validation message while destroying the device: {m}");
        }
    }
}

/// A host-visible, coherent buffer, persistently mapped.
#[derive(Clone, Copy)]
pub(crate) struct HostBuffer {
    pub buffer: vk::Buffer,
    pub ptr: *mut u8,
    pub size: u64,
}

impl HostBuffer {
    /// Copies the buffer's contents out as 32-bit words.
    pub fn read_words(&self) -> Vec<u32> {
        let n = (self.size / 4) as usize;
        let mut out = vec![0u32; n];
        // SAFETY: `ptr` maps `size` bytes of coherent memory, alive for the scope;
        // the GPU is idle when the harness reads.
        unsafe {
            std::ptr::copy_nonoverlapping(self.ptr, out.as_mut_ptr() as *mut u8, n * 4);
        }
        out
    }
}

/// A Vulkan object a [`Scope`] destroys when dropped.
/// One descriptor of [`Scope::descriptor_set`].
#[derive(Clone, Copy, Debug)]
pub enum Descriptor {
    /// A uniform or storage buffer.
    Buffer(vk::DescriptorType, vk::Buffer),
    /// A storage image view, in the GENERAL layout.
    StorageImage(vk::ImageView),
    /// A storage texel buffer's view.
    StorageTexelBuffer(vk::BufferView),
}

impl Descriptor {
    fn ty(&self) -> vk::DescriptorType {
        match self {
            Descriptor::Buffer(ty, _) => *ty,
            Descriptor::StorageImage(_) => vk::DescriptorType::STORAGE_IMAGE,
            Descriptor::StorageTexelBuffer(_) => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
        }
    }
}

pub(crate) enum Object {
    Buffer(vk::Buffer),
    Memory(vk::DeviceMemory),
    Image(vk::Image),
    ImageView(vk::ImageView),
    Shader(vk::ShaderModule),
    Pipeline(vk::Pipeline),
    PipelineLayout(vk::PipelineLayout),
    SetLayout(vk::DescriptorSetLayout),
    DescriptorPool(vk::DescriptorPool),
    CommandBuffer(vk::CommandBuffer),
    Fence(vk::Fence),
    Sampler(vk::Sampler),
    BufferView(vk::BufferView),
}

/// The Vulkan objects of one run; destroyed (after waiting for the device to be
/// idle) when the scope is dropped, on success and on every error path.
pub(crate) struct Scope<'a> {
    pub d: &'a Inner,
    objects: Vec<Object>,
    /// Push constant ranges of the pipeline layouts the scope creates
    /// (empty unless a run sets them).
    pub push_constant_ranges: Vec<vk::PushConstantRange>,
}

impl<'a> Scope<'a> {
    pub fn new(d: &'a Inner) -> Scope<'a> {
        Scope {
            d,
            objects: Vec::new(),
            push_constant_ranges: Vec::new(),
        }
    }

    pub(crate) fn dev(&self) -> &ash::Device {
        &self.d.device
    }

    /// Hands `o` to the scope, which destroys it when dropped.
    pub(crate) fn own(&mut self, o: Object) {
        self.objects.push(o);
    }

    /// An image made from `info`, owned by the scope, with device-local
    /// memory bound to it.
    pub(crate) fn bound_image(&mut self, info: &vk::ImageCreateInfo<'_>) -> Result<vk::Image> {
        let image = unsafe { self.dev().create_image(info, None) }.vk("vkCreateImage")?;
        self.own(Object::Image(image));
        let req = unsafe { self.dev().get_image_memory_requirements(image) };
        let memory = self.allocate(req, vk::MemoryPropertyFlags::DEVICE_LOCAL)?;
        unsafe { self.dev().bind_image_memory(image, memory, 0) }.vk("vkBindImageMemory")?;
        Ok(image)
    }

    fn memory_type(&self, bits: u32, want: vk::MemoryPropertyFlags) -> Option<u32> {
        let m = &self.d.memory;
        (0..m.memory_type_count).find(|&i| {
            bits & (1 << i) != 0 && m.memory_types[i as usize].property_flags.contains(want)
        })
    }

    pub(crate) fn allocate(
        &mut self,
        req: vk::MemoryRequirements,
        want: vk::MemoryPropertyFlags,
    ) -> Result<vk::DeviceMemory> {
        self.allocate_with(req, want, vk::MemoryAllocateFlags::empty())
    }

    /// [`Scope::allocate`] with `VkMemoryAllocateFlagsInfo` flags
    /// (DEVICE_ADDRESS for a buffer whose GPU address is taken).
    fn allocate_with(
        &mut self,
        req: vk::MemoryRequirements,
        want: vk::MemoryPropertyFlags,
        flags: vk::MemoryAllocateFlags,
    ) -> Result<vk::DeviceMemory> {
        let index = self
            .memory_type(req.memory_type_bits, want)
            .or_else(|| {
                // Device-local is a preference, host-visible is not.
                if want.contains(vk::MemoryPropertyFlags::HOST_VISIBLE) {
                    None
                } else {
                    self.memory_type(req.memory_type_bits, vk::MemoryPropertyFlags::empty())
                }
            })
            .ok_or(HarnessError::Vulkan {
                call: "choosing a memory type",
                result: vk::Result::ERROR_FEATURE_NOT_PRESENT,
            })?;
        let mut flags_info = vk::MemoryAllocateFlagsInfo::default().flags(flags);
        let mut info = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(index);
        if !flags.is_empty() {
            info = info.push_next(&mut flags_info);
        }
        let memory = unsafe { self.dev().allocate_memory(&info, None) }.vk("vkAllocateMemory")?;
        self.objects.push(Object::Memory(memory));
        Ok(memory)
    }

    /// A host-visible buffer of `size` bytes (at least 16), zero-filled, then
    /// filled with `data` from the start.
    pub fn buffer(
        &mut self,
        size: u64,
        usage: vk::BufferUsageFlags,
        data: &[u32],
    ) -> Result<HostBuffer> {
        let size = size.max(16).max(data.len() as u64 * 4);
        let buffer = unsafe {
            self.dev().create_buffer(
                &vk::BufferCreateInfo::default()
                    .size(size)
                    .usage(usage)
                    .sharing_mode(vk::SharingMode::EXCLUSIVE),
                None,
            )
        }
        .vk("vkCreateBuffer")?;
        self.objects.push(Object::Buffer(buffer));
        let req = unsafe { self.dev().get_buffer_memory_requirements(buffer) };
        // A buffer whose GPU address is taken needs memory allocated for it
        // (VUID-vkBindBufferMemory-bufferDeviceAddress-03339).
        let flags = if usage.contains(vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS) {
            vk::MemoryAllocateFlags::DEVICE_ADDRESS
        } else {
            vk::MemoryAllocateFlags::empty()
        };
        let memory = self.allocate_with(
            req,
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
            flags,
        )?;
        unsafe { self.dev().bind_buffer_memory(buffer, memory, 0) }.vk("vkBindBufferMemory")?;
        let ptr = unsafe {
            self.dev()
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
        }
        .vk("vkMapMemory")? as *mut u8;
        // SAFETY: the mapping covers at least `size` bytes.
        unsafe {
            std::ptr::write_bytes(ptr, 0, size as usize);
            std::ptr::copy_nonoverlapping(data.as_ptr() as *const u8, ptr, data.len() * 4);
        }
        Ok(HostBuffer { buffer, ptr, size })
    }

    /// The GPU address of a buffer made with SHADER_DEVICE_ADDRESS usage
    /// (`vkGetBufferDeviceAddress`), what LOAD, STORE and ATOM take.
    pub fn device_address(&self, buffer: &HostBuffer) -> u64 {
        unsafe {
            self.dev().get_buffer_device_address(
                &vk::BufferDeviceAddressInfo::default().buffer(buffer.buffer),
            )
        }
    }

    /// A 2D single-sample image with a view, in device-local memory when possible.
    pub fn image(
        &mut self,
        format: vk::Format,
        usage: vk::ImageUsageFlags,
        aspect: vk::ImageAspectFlags,
        width: u32,
        height: u32,
    ) -> Result<(vk::Image, vk::ImageView)> {
        self.image_samples(
            format,
            usage,
            aspect,
            width,
            height,
            vk::SampleCountFlags::TYPE_1,
        )
    }

    /// [`Scope::image`] with `samples` samples per pixel.
    pub fn image_samples(
        &mut self,
        format: vk::Format,
        usage: vk::ImageUsageFlags,
        aspect: vk::ImageAspectFlags,
        width: u32,
        height: u32,
        samples: vk::SampleCountFlags,
    ) -> Result<(vk::Image, vk::ImageView)> {
        let image = self.bound_image(
            &vk::ImageCreateInfo::default()
                .image_type(vk::ImageType::TYPE_2D)
                .format(format)
                .extent(vk::Extent3D {
                    width,
                    height,
                    depth: 1,
                })
                .mip_levels(1)
                .array_layers(1)
                .samples(samples)
                .tiling(vk::ImageTiling::OPTIMAL)
                .usage(usage)
                .sharing_mode(vk::SharingMode::EXCLUSIVE)
                .initial_layout(vk::ImageLayout::UNDEFINED),
        )?;
        let view = unsafe {
            self.dev().create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(vk::ImageViewType::TYPE_2D)
                    .format(format)
                    .subresource_range(subresource_range(aspect)),
                None,
            )
        }
        .vk("vkCreateImageView")?;
        self.objects.push(Object::ImageView(view));
        Ok((image, view))
    }

    pub fn shader(&mut self, words: &[u32]) -> Result<vk::ShaderModule> {
        let module = unsafe {
            self.dev()
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None)
        }
        .vk("vkCreateShaderModule")?;
        self.objects.push(Object::Shader(module));
        Ok(module)
    }

    /// The pipeline layout of a run: sets `0..=set`, all empty except `set`, which
    /// holds binding 0 (`program.env`) and binding 1 (`program.local`) as uniform
    /// buffers visible to `stage`. Returns the layout and the allocated set, written
    /// to point at `env` and `local`.
    pub fn parameter_set(
        &mut self,
        set: u32,
        stage: vk::ShaderStageFlags,
        env: &HostBuffer,
        local: &HostBuffer,
    ) -> Result<(vk::PipelineLayout, vk::DescriptorSet)> {
        self.uniform_set(set, stage, &[(0, env), (1, local)])
    }

    /// Like [`Scope::parameter_set`], with any list of (binding, buffer) uniform
    /// buffers: env/local (0, 1), the `State` block (2), `program.buffer[b]` (3 + b).
    /// Uploads uniform block images (from [`super::uniform_blocks`]), keeping
    /// their bindings.
    pub fn uniform_buffers(
        &mut self,
        blocks: &[(u32, Vec<u32>)],
    ) -> Result<Vec<(u32, HostBuffer)>> {
        blocks
            .iter()
            .map(|(binding, words)| {
                Ok((
                    *binding,
                    self.buffer(0, vk::BufferUsageFlags::UNIFORM_BUFFER, words)?,
                ))
            })
            .collect()
    }

    pub fn uniform_set(
        &mut self,
        set: u32,
        stage: vk::ShaderStageFlags,
        buffers: &[(u32, &HostBuffer)],
    ) -> Result<(vk::PipelineLayout, vk::DescriptorSet)> {
        self.buffer_set(set, stage, buffers, vk::DescriptorType::UNIFORM_BUFFER)
    }

    /// A pipeline layout whose set `set` holds `buffers` as descriptors of
    /// type `ty` (uniform or storage buffers), the sets below it empty.
    pub fn buffer_set(
        &mut self,
        set: u32,
        stage: vk::ShaderStageFlags,
        buffers: &[(u32, &HostBuffer)],
        ty: vk::DescriptorType,
    ) -> Result<(vk::PipelineLayout, vk::DescriptorSet)> {
        let descriptors: Vec<(u32, Descriptor)> = buffers
            .iter()
            .map(|&(b, buf)| (b, Descriptor::Buffer(ty, buf.buffer)))
            .collect();
        self.descriptor_set(set, stage, &descriptors)
    }

    /// A pipeline layout whose set `set` holds `descriptors` (buffers,
    /// storage images, texel buffers) at their bindings, the sets below it
    /// empty, and the set.
    pub fn descriptor_set(
        &mut self,
        set: u32,
        stage: vk::ShaderStageFlags,
        descriptors: &[(u32, Descriptor)],
    ) -> Result<(vk::PipelineLayout, vk::DescriptorSet)> {
        let elements: Vec<_> = descriptors.iter().map(|&(b, d)| (b, 0, d)).collect();
        self.descriptor_set_elements(set, stage, &elements)
    }

    /// [`Scope::descriptor_set`] with array elements: (binding, element,
    /// descriptor); a binding's descriptor count is one past its highest
    /// element, and every element must be given (Vulkan 1.0 has no
    /// partially bound arrays).
    pub fn descriptor_set_elements(
        &mut self,
        set: u32,
        stage: vk::ShaderStageFlags,
        descriptors: &[(u32, u32, Descriptor)],
    ) -> Result<(vk::PipelineLayout, vk::DescriptorSet)> {
        if set > 7 {
            return Err(HarnessError::Job(format!(
                "descriptor set {set}: the harness supports sets 0..=7"
            )));
        }
        let mut bindings: Vec<vk::DescriptorSetLayoutBinding> = Vec::new();
        for &(b, e, d) in descriptors {
            match bindings.iter_mut().find(|l| l.binding == b) {
                Some(l) => l.descriptor_count = l.descriptor_count.max(e + 1),
                None => bindings.push(
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b)
                        .descriptor_type(d.ty())
                        .descriptor_count(e + 1)
                        .stage_flags(stage),
                ),
            }
        }
        let params = unsafe {
            self.dev().create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
        }
        .vk("vkCreateDescriptorSetLayout")?;
        self.objects.push(Object::SetLayout(params));
        let empty = unsafe {
            self.dev()
                .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default(), None)
        }
        .vk("vkCreateDescriptorSetLayout")?;
        self.objects.push(Object::SetLayout(empty));
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
        self.objects.push(Object::PipelineLayout(layout));

        let mut sizes: Vec<vk::DescriptorPoolSize> = Vec::new();
        for (_, _, d) in descriptors {
            match sizes.iter_mut().find(|p| p.ty == d.ty()) {
                Some(p) => p.descriptor_count += 1,
                None => sizes.push(vk::DescriptorPoolSize {
                    ty: d.ty(),
                    descriptor_count: 1,
                }),
            }
        }
        if sizes.is_empty() {
            sizes.push(vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                descriptor_count: 1,
            });
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
        self.objects.push(Object::DescriptorPool(pool));
        let layouts = [params];
        let ds = unsafe {
            self.dev().allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&layouts),
            )
        }
        .vk("vkAllocateDescriptorSets")?[0];
        let buffer_infos: Vec<_> = descriptors
            .iter()
            .map(|(_, _, d)| {
                [vk::DescriptorBufferInfo {
                    buffer: match d {
                        Descriptor::Buffer(_, b) => *b,
                        _ => vk::Buffer::null(),
                    },
                    offset: 0,
                    range: vk::WHOLE_SIZE,
                }]
            })
            .collect();
        let image_infos: Vec<_> = descriptors
            .iter()
            .map(|(_, _, d)| match d {
                Descriptor::StorageImage(view) => [vk::DescriptorImageInfo {
                    sampler: vk::Sampler::null(),
                    image_view: *view,
                    image_layout: vk::ImageLayout::GENERAL,
                }],
                _ => [vk::DescriptorImageInfo::default()],
            })
            .collect();
        let texel_views: Vec<_> = descriptors
            .iter()
            .map(|(_, _, d)| match d {
                Descriptor::StorageTexelBuffer(v) => [*v],
                _ => [vk::BufferView::null()],
            })
            .collect();
        let writes: Vec<_> = descriptors
            .iter()
            .enumerate()
            .map(|(i, (b, e, d))| {
                let w = vk::WriteDescriptorSet::default()
                    .dst_set(ds)
                    .dst_binding(*b)
                    .dst_array_element(*e)
                    .descriptor_type(d.ty());
                match d {
                    Descriptor::Buffer(..) => w.buffer_info(&buffer_infos[i]),
                    Descriptor::StorageImage(_) => w.image_info(&image_infos[i]),
                    Descriptor::StorageTexelBuffer(_) => w.texel_buffer_view(&texel_views[i]),
                }
            })
            .collect();
        unsafe { self.dev().update_descriptor_sets(&writes, &[]) };
        Ok((layout, ds))
    }

    pub fn compute_pipeline(
        &mut self,
        info: &vk::ComputePipelineCreateInfo<'_>,
    ) -> Result<vk::Pipeline> {
        let pipeline = unsafe {
            self.dev().create_compute_pipelines(
                vk::PipelineCache::null(),
                std::slice::from_ref(info),
                None,
            )
        }
        .map_err(|(_, result)| HarnessError::Vulkan {
            call: "vkCreateComputePipelines",
            result,
        })?[0];
        self.objects.push(Object::Pipeline(pipeline));
        Ok(pipeline)
    }

    pub fn graphics_pipeline(
        &mut self,
        info: &vk::GraphicsPipelineCreateInfo<'_>,
    ) -> Result<vk::Pipeline> {
        let pipeline = unsafe {
            self.dev().create_graphics_pipelines(
                vk::PipelineCache::null(),
                std::slice::from_ref(info),
                None,
            )
        }
        .map_err(|(_, result)| HarnessError::Vulkan {
            call: "vkCreateGraphicsPipelines",
            result,
        })?[0];
        self.objects.push(Object::Pipeline(pipeline));
        Ok(pipeline)
    }

    /// Records one command buffer with `record`, submits it and waits for it.
    pub fn submit(&mut self, record: impl FnOnce(&ash::Device, vk::CommandBuffer)) -> Result<()> {
        let cb = unsafe {
            self.dev().allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(self.d.command_pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(1),
            )
        }
        .vk("vkAllocateCommandBuffers")?[0];
        self.objects.push(Object::CommandBuffer(cb));
        let fence = unsafe {
            self.dev()
                .create_fence(&vk::FenceCreateInfo::default(), None)
        }
        .vk("vkCreateFence")?;
        self.objects.push(Object::Fence(fence));
        unsafe {
            self.dev()
                .begin_command_buffer(
                    cb,
                    &vk::CommandBufferBeginInfo::default()
                        .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
                )
                .vk("vkBeginCommandBuffer")?;
            record(self.dev(), cb);
            self.dev().end_command_buffer(cb).vk("vkEndCommandBuffer")?;
            let cbs = [cb];
            let submit = vk::SubmitInfo::default().command_buffers(&cbs);
            self.dev()
                .queue_submit(self.d.queue, &[submit], fence)
                .vk("vkQueueSubmit")?;
            match self
                .dev()
                .wait_for_fences(&[fence], true, FENCE_TIMEOUT.as_nanos() as u64)
            {
                Ok(()) => Ok(()),
                Err(vk::Result::TIMEOUT) => Err(HarnessError::Timeout),
                Err(result) => Err(HarnessError::Vulkan {
                    call: "vkWaitForFences",
                    result,
                }),
            }
        }
    }
}

impl Drop for Scope<'_> {
    fn drop(&mut self) {
        let dev = &self.d.device;
        unsafe {
            let _ = dev.device_wait_idle();
            while let Some(o) = self.objects.pop() {
                match o {
                    Object::Buffer(b) => dev.destroy_buffer(b, None),
                    Object::Memory(m) => dev.free_memory(m, None),
                    Object::Image(i) => dev.destroy_image(i, None),
                    Object::ImageView(v) => dev.destroy_image_view(v, None),
                    Object::Shader(s) => dev.destroy_shader_module(s, None),
                    Object::Pipeline(p) => dev.destroy_pipeline(p, None),
                    Object::PipelineLayout(l) => dev.destroy_pipeline_layout(l, None),
                    Object::SetLayout(l) => dev.destroy_descriptor_set_layout(l, None),
                    Object::DescriptorPool(p) => dev.destroy_descriptor_pool(p, None),
                    Object::CommandBuffer(cb) => {
                        dev.free_command_buffers(self.d.command_pool, &[cb])
                    }
                    Object::Fence(f) => dev.destroy_fence(f, None),
                    Object::Sampler(s) => dev.destroy_sampler(s, None),
                    Object::BufferView(v) => dev.destroy_buffer_view(v, None),
                }
            }
        }
    }
}

pub(crate) fn subresource_range(aspect: vk::ImageAspectFlags) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: aspect,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    }
}

/// A whole-image layout transition.
#[allow(clippy::too_many_arguments)]
pub(crate) fn image_barrier(
    dev: &ash::Device,
    cb: vk::CommandBuffer,
    image: vk::Image,
    aspect: vk::ImageAspectFlags,
    from: (vk::ImageLayout, vk::AccessFlags, vk::PipelineStageFlags),
    to: (vk::ImageLayout, vk::AccessFlags, vk::PipelineStageFlags),
) {
    let barrier = vk::ImageMemoryBarrier::default()
        .image(image)
        .old_layout(from.0)
        .new_layout(to.0)
        .src_access_mask(from.1)
        .dst_access_mask(to.1)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .subresource_range(subresource_range(aspect));
    unsafe {
        dev.cmd_pipeline_barrier(
            cb,
            from.2,
            to.2,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[barrier],
        )
    };
}

/// Makes writes by `stage` visible to the host.
pub(crate) fn host_barrier(
    dev: &ash::Device,
    cb: vk::CommandBuffer,
    stage: vk::PipelineStageFlags,
    access: vk::AccessFlags,
) {
    let barrier = vk::MemoryBarrier::default()
        .src_access_mask(access)
        .dst_access_mask(vk::AccessFlags::HOST_READ);
    unsafe {
        dev.cmd_pipeline_barrier(
            cb,
            stage,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &[barrier],
            &[],
            &[],
        )
    };
}

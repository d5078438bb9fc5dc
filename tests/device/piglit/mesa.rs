//! Mesa's OpenGL as an independent oracle: the same plan drawn by Mesa's
//! llvmpipe through the compatibility profile, with the programs given to
//! `glProgramStringARB` exactly as the file has them. Mesa's ARB program
//! compiler, fixed-function stages and rasteriser share no code with nvp4c.
//!
//! The context is EGL's, on Mesa's surfaceless platform
//! (EGL_MESA_platform_surfaceless): no window system, drawing into a
//! framebuffer object of 250×250 RGBA8 (and DEPTH_COMPONENT24 when the file
//! requires a depth buffer), read back with `glReadPixels`. EGL is loaded
//! at run time (`khronos-egl`, `dynamic`), and the ~45 GL entry points the
//! runner needs are a typed table filled through `eglGetProcAddress`
//! (Mesa's EGL returns every GL function, EGL_KHR_get_all_proc_addresses).
//! `gl_generator` or `glow` would generate hundreds; glow has none of the
//! ARB program entry points.
//!
//! Debian packages: libegl1 (the GLVND loader), libegl-mesa0 (Mesa's EGL)
//! and libgl1-mesa-dri (llvmpipe); scripts/test.sh installs them.

use std::ffi::{c_void, CStr};
use std::sync::Mutex;

use khronos_egl as egl;

use crate::harness::SceneFrame;

use super::gl::{DrawCall, Mat4, Plan, Step};
use super::script::{CompareFunc, DepthMode, Filter, ShaderTest, TexTarget};
use super::textures::{Texels, TextureObject};
use super::vulkan::RunError;

type GLenum = u32;
type GLuint = u32;
type GLint = i32;
type GLsizei = i32;

const GL_NO_ERROR: GLenum = 0;
const GL_TRIANGLE_STRIP: GLenum = 0x0005;
const GL_DEPTH_BUFFER_BIT: GLenum = 0x0100;
const GL_COLOR_BUFFER_BIT: GLenum = 0x4000;
const GL_DEPTH_TEST: GLenum = 0x0B71;
const GL_PACK_ALIGNMENT: GLenum = 0x0D05;
const GL_UNPACK_ALIGNMENT: GLenum = 0x0CF5;
const GL_TEXTURE_1D: GLenum = 0x0DE0;
const GL_TEXTURE_2D: GLenum = 0x0DE1;
const GL_TEXTURE_RECTANGLE: GLenum = 0x84F5;
const GL_UNSIGNED_BYTE: GLenum = 0x1401;
const GL_FLOAT: GLenum = 0x1406;
const GL_MODELVIEW: GLenum = 0x1700;
const GL_PROJECTION: GLenum = 0x1701;
const GL_DEPTH_COMPONENT: GLenum = 0x1902;
const GL_RGBA: GLenum = 0x1908;
const GL_VERSION: GLenum = 0x1F02;
const GL_RENDERER: GLenum = 0x1F01;
const GL_EXTENSIONS: GLenum = 0x1F03;
const GL_NEAREST: GLint = 0x2600;
const GL_LINEAR: GLint = 0x2601;
const GL_NEAREST_MIPMAP_NEAREST: GLint = 0x2700;
const GL_LINEAR_MIPMAP_NEAREST: GLint = 0x2701;
const GL_NEAREST_MIPMAP_LINEAR: GLint = 0x2702;
const GL_LINEAR_MIPMAP_LINEAR: GLint = 0x2703;
const GL_TEXTURE_MAG_FILTER: GLenum = 0x2800;
const GL_TEXTURE_MIN_FILTER: GLenum = 0x2801;
const GL_TEXTURE_WRAP_S: GLenum = 0x2802;
const GL_TEXTURE_WRAP_T: GLenum = 0x2803;
const GL_VERTEX_ARRAY: GLenum = 0x8074;
const GL_TEXTURE_COORD_ARRAY: GLenum = 0x8078;
const GL_RGBA8: GLenum = 0x8058;
const GL_INTENSITY: GLint = 0x8049;
const GL_LUMINANCE: GLint = 0x1909;
const GL_ALPHA: GLint = 0x1906;
const GL_RED: GLint = 0x1903;
const GL_CLAMP_TO_EDGE: GLint = 0x812F;
const GL_TEXTURE_MAX_LEVEL: GLenum = 0x813D;
const GL_DEPTH_COMPONENT24: GLenum = 0x81A6;
const GL_TEXTURE0: GLenum = 0x84C0;
const GL_VERTEX_PROGRAM_ARB: GLenum = 0x8620;
const GL_PROGRAM_ERROR_POSITION_ARB: GLenum = 0x864B;
const GL_FRAGMENT_PROGRAM_ARB: GLenum = 0x8804;
const GL_PROGRAM_ERROR_STRING_ARB: GLenum = 0x8874;
const GL_PROGRAM_FORMAT_ASCII_ARB: GLenum = 0x8875;
const GL_DEPTH_TEXTURE_MODE: GLenum = 0x884B;
const GL_TEXTURE_COMPARE_MODE: GLenum = 0x884C;
const GL_TEXTURE_COMPARE_FUNC: GLenum = 0x884D;
const GL_COMPARE_R_TO_TEXTURE: GLint = 0x884E;
const GL_FRAMEBUFFER_COMPLETE: GLenum = 0x8CD5;
const GL_COLOR_ATTACHMENT0: GLenum = 0x8CE0;
const GL_DEPTH_ATTACHMENT: GLenum = 0x8D00;
const GL_FRAMEBUFFER: GLenum = 0x8D40;
const GL_RENDERBUFFER: GLenum = 0x8D41;

/// EGL_PLATFORM_SURFACELESS_MESA.
const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;

macro_rules! gl_table {
    ($($name:ident: fn($($arg:ty),*) $(-> $ret:ty)?;)*) => {
        /// The GL entry points the runner calls, from `eglGetProcAddress`.
        #[allow(non_snake_case)]
        struct Gl {
            $($name: unsafe extern "system" fn($($arg),*) $(-> $ret)?,)*
        }

        impl Gl {
            fn load(egl: &egl::DynamicInstance<egl::EGL1_5>) -> Result<Gl, String> {
                Ok(Gl {
                    $($name: {
                        let f = egl
                            .get_proc_address(stringify!($name))
                            .ok_or_else(|| format!("eglGetProcAddress({}) failed", stringify!($name)))?;
                        // SAFETY: the entry point has this signature in the GL
                        // specification (and Mesa's glapi).
                        unsafe { std::mem::transmute::<extern "system" fn(), unsafe extern "system" fn($($arg),*) $(-> $ret)?>(f) }
                    },)*
                })
            }
        }
    };
}

gl_table! {
    glGetString: fn(GLenum) -> *const u8;
    glGetError: fn() -> GLenum;
    glGetIntegerv: fn(GLenum, *mut GLint);
    glGenFramebuffers: fn(GLsizei, *mut GLuint);
    glBindFramebuffer: fn(GLenum, GLuint);
    glGenRenderbuffers: fn(GLsizei, *mut GLuint);
    glBindRenderbuffer: fn(GLenum, GLuint);
    glRenderbufferStorage: fn(GLenum, GLenum, GLsizei, GLsizei);
    glFramebufferRenderbuffer: fn(GLenum, GLenum, GLenum, GLuint);
    glCheckFramebufferStatus: fn(GLenum) -> GLenum;
    glViewport: fn(GLint, GLint, GLsizei, GLsizei);
    glClearColor: fn(f32, f32, f32, f32);
    glClearDepth: fn(f64);
    glClear: fn(GLenum);
    glEnable: fn(GLenum);
    glDisable: fn(GLenum);
    glPixelStorei: fn(GLenum, GLint);
    glReadPixels: fn(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, *mut c_void);
    glGenProgramsARB: fn(GLsizei, *mut GLuint);
    glBindProgramARB: fn(GLenum, GLuint);
    glProgramStringARB: fn(GLenum, GLenum, GLsizei, *const c_void);
    glProgramEnvParameter4fvARB: fn(GLenum, GLuint, *const f32);
    glProgramLocalParameter4fvARB: fn(GLenum, GLuint, *const f32);
    glMatrixMode: fn(GLenum);
    glLoadMatrixd: fn(*const f64);
    glColor4fv: fn(*const f32);
    glMultiTexCoord4fv: fn(GLenum, *const f32);
    glClientActiveTexture: fn(GLenum);
    glVertexPointer: fn(GLint, GLenum, GLsizei, *const c_void);
    glTexCoordPointer: fn(GLint, GLenum, GLsizei, *const c_void);
    glEnableClientState: fn(GLenum);
    glDisableClientState: fn(GLenum);
    glDrawArrays: fn(GLenum, GLint, GLsizei);
    glGenTextures: fn(GLsizei, *mut GLuint);
    glDeleteTextures: fn(GLsizei, *const GLuint);
    glBindTexture: fn(GLenum, GLuint);
    glActiveTexture: fn(GLenum);
    glTexImage1D: fn(GLenum, GLint, GLint, GLsizei, GLint, GLenum, GLenum, *const c_void);
    glTexImage2D: fn(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, *const c_void);
    glTexParameteri: fn(GLenum, GLenum, GLint);
    glFinish: fn();
}

/// One GL context, current on the calling thread while it lives.
pub struct Mesa {
    egl: egl::DynamicInstance<egl::EGL1_5>,
    display: egl::Display,
    context: egl::Context,
    gl: Gl,
    /// `GL_RENDERER`, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub renderer: String,
    pub version: String,
    extensions: String,
}

/// Mesa's GL state is per context, and contexts are current per thread: the
/// runs are serialised.
static MESA_LOCK: Mutex<()> = Mutex::new(());

/// Runs `f` with a fresh GL context (so no state carries over between
/// files), or says why there is none.
pub fn with_context<T>(f: impl FnOnce(&Mesa) -> T) -> Result<T, String> {
    let _guard = MESA_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mesa = Mesa::new()?;
    let out = f(&mesa);
    drop(mesa);
    Ok(out)
}

impl Mesa {
    fn new() -> Result<Mesa, String> {
        // SAFETY: libEGL.so.1 is the EGL ABI.
        let egl = unsafe {
            egl::DynamicInstance::<egl::EGL1_5>::load_required_from_filename("libEGL.so.1")
        }
        .map_err(|e| {
            format!("cannot load libEGL.so.1 (install libegl1 libegl-mesa0 libgl1-mesa-dri): {e}")
        })?;
        // SAFETY: the surfaceless platform takes EGL_DEFAULT_DISPLAY.
        let display = unsafe {
            egl.get_platform_display(
                PLATFORM_SURFACELESS_MESA,
                egl::DEFAULT_DISPLAY,
                &[egl::ATTRIB_NONE],
            )
        }
        .map_err(|e| format!("eglGetPlatformDisplay(SURFACELESS_MESA): {e}"))?;
        egl.initialize(display)
            .map_err(|e| format!("eglInitialize: {e}"))?;
        let fail = |what: String| {
            let _ = egl.terminate(display);
            what
        };
        egl.bind_api(egl::OPENGL_API)
            .map_err(|e| fail(format!("eglBindAPI(OPENGL): {e}")))?;
        let config = egl
            .choose_first_config(
                display,
                // Mesa's surfaceless platform offers pbuffer configs only.
                &[
                    egl::SURFACE_TYPE,
                    egl::PBUFFER_BIT,
                    egl::RENDERABLE_TYPE,
                    egl::OPENGL_BIT,
                    egl::NONE,
                ],
            )
            .map_err(|e| fail(format!("eglChooseConfig: {e}")))?
            .ok_or_else(|| fail("no EGL config renders OpenGL".into()))?;
        // No attributes: a compatibility-profile context, which keeps the
        // ARB assembly programs and the fixed-function pipeline.
        let context = egl
            .create_context(display, config, None, &[egl::NONE])
            .map_err(|e| fail(format!("eglCreateContext: {e}")))?;
        egl.make_current(display, None, None, Some(context))
            .map_err(|e| fail(format!("eglMakeCurrent (surfaceless): {e}")))?;
        let gl = Gl::load(&egl).map_err(fail)?;
        let string = |name| unsafe {
            let p = (gl.glGetString)(name);
            if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p as *const _).to_string_lossy().into_owned()
            }
        };
        let renderer = string(GL_RENDERER);
        let version = string(GL_VERSION);
        let extensions = string(GL_EXTENSIONS);
        Ok(Mesa {
            egl,
            display,
            context,
            gl,
            renderer,
            version,
            extensions,
        })
    }

    /// Whether the context advertises `GL_…` extension `name`.
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.split_whitespace().any(|e| e == name)
    }

    fn error(&self, what: &str) -> Result<(), RunError> {
        let e = unsafe { (self.gl.glGetError)() };
        if e == GL_NO_ERROR {
            Ok(())
        } else {
            Err(RunError::Backend(format!("{what}: GL error 0x{e:04X}")))
        }
    }

    /// Loads one ARB program; a load failure is a compile error with GL's
    /// error position and string.
    fn program(&self, target: GLenum, text: &str, first_line: usize) -> Result<GLuint, RunError> {
        let gl = &self.gl;
        unsafe {
            let mut id = 0;
            (gl.glGenProgramsARB)(1, &mut id);
            (gl.glBindProgramARB)(target, id);
            while (gl.glGetError)() != GL_NO_ERROR {}
            (gl.glProgramStringARB)(
                target,
                GL_PROGRAM_FORMAT_ASCII_ARB,
                text.len() as GLsizei,
                text.as_ptr() as *const c_void,
            );
            let mut position = -1;
            (gl.glGetIntegerv)(GL_PROGRAM_ERROR_POSITION_ARB, &mut position);
            let e = (gl.glGetError)();
            if e != GL_NO_ERROR || position != -1 {
                let message = {
                    let p = (gl.glGetString)(GL_PROGRAM_ERROR_STRING_ARB);
                    if p.is_null() {
                        String::new()
                    } else {
                        CStr::from_ptr(p as *const _).to_string_lossy().into_owned()
                    }
                };
                let at = position.max(0) as usize;
                return Err(RunError::Compile {
                    stage: if target == GL_VERTEX_PROGRAM_ARB {
                        "vertex"
                    } else {
                        "fragment"
                    },
                    codes: vec!["GL_INVALID_OPERATION"],
                    line: first_line + text[..at.min(text.len())].matches('\n').count(),
                    report: format!("Mesa: {message} (error position {position})"),
                });
            }
            (gl.glEnable)(target);
            Ok(id)
        }
    }

    /// Draws the plan; one frame per read.
    pub fn render(&self, test: &ShaderTest, plan: &Plan) -> Result<Vec<SceneFrame>, RunError> {
        let gl = &self.gl;
        let (w, h) = (plan.width as GLsizei, plan.height as GLsizei);
        unsafe {
            let (mut fbo, mut color, mut depth) = (0, 0, 0);
            (gl.glGenFramebuffers)(1, &mut fbo);
            (gl.glBindFramebuffer)(GL_FRAMEBUFFER, fbo);
            (gl.glGenRenderbuffers)(1, &mut color);
            (gl.glBindRenderbuffer)(GL_RENDERBUFFER, color);
            (gl.glRenderbufferStorage)(GL_RENDERBUFFER, GL_RGBA8, w, h);
            (gl.glFramebufferRenderbuffer)(
                GL_FRAMEBUFFER,
                GL_COLOR_ATTACHMENT0,
                GL_RENDERBUFFER,
                color,
            );
            if plan.depth {
                (gl.glGenRenderbuffers)(1, &mut depth);
                (gl.glBindRenderbuffer)(GL_RENDERBUFFER, depth);
                (gl.glRenderbufferStorage)(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
                (gl.glFramebufferRenderbuffer)(
                    GL_FRAMEBUFFER,
                    GL_DEPTH_ATTACHMENT,
                    GL_RENDERBUFFER,
                    depth,
                );
            }
            if (gl.glCheckFramebufferStatus)(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE {
                return Err(RunError::Backend(
                    "the framebuffer object is incomplete".into(),
                ));
            }
            (gl.glViewport)(0, 0, w, h);
            (gl.glPixelStorei)(GL_PACK_ALIGNMENT, 1);
            (gl.glPixelStorei)(GL_UNPACK_ALIGNMENT, 1);
            // The same start as the Vulkan target: colour 0, depth 1.
            (gl.glClearColor)(0.0, 0.0, 0.0, 0.0);
            (gl.glClearDepth)(1.0);
            (gl.glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        }
        self.error("setting up the framebuffer")?;
        if let Some(p) = &test.vertex_program {
            self.program(GL_VERTEX_PROGRAM_ARB, &p.text, p.first_line)?;
        }
        if let Some(p) = &test.fragment_program {
            self.program(GL_FRAGMENT_PROGRAM_ARB, &p.text, p.first_line)?;
        }
        let mut frames = Vec::new();
        let mut textures: Vec<GLuint> = Vec::new();
        for step in &plan.steps {
            match step {
                Step::Clear { color, depth } => unsafe {
                    let mut bits = 0;
                    if let Some(c) = color {
                        (gl.glClearColor)(c[0], c[1], c[2], c[3]);
                        bits |= GL_COLOR_BUFFER_BIT;
                    }
                    if let Some(d) = depth {
                        (gl.glClearDepth)(f64::from(*d));
                        bits |= GL_DEPTH_BUFFER_BIT;
                    }
                    (gl.glClear)(bits);
                },
                Step::Draw(d) => {
                    unsafe {
                        (gl.glDeleteTextures)(textures.len() as GLsizei, textures.as_ptr());
                    }
                    textures = self.draw(d)?;
                    self.error(&format!("the draw of line {}", d.line))?;
                }
                Step::Read => frames.push(self.read(plan)),
                Step::Probe(_) => {}
            }
        }
        unsafe { (gl.glFinish)() };
        self.error("the test's commands")?;
        Ok(frames)
    }

    fn load_matrix(&self, mode: GLenum, m: &Mat4) {
        // GL matrices are column-major.
        let mut cols = [0f64; 16];
        for c in 0..4 {
            for r in 0..4 {
                cols[c * 4 + r] = m[r][c];
            }
        }
        unsafe {
            (self.gl.glMatrixMode)(mode);
            (self.gl.glLoadMatrixd)(cols.as_ptr());
        }
    }

    /// Sets the draw's GL state and draws its rectangle as piglit_draw_rect
    /// does: a 4-float vertex array (and a 2-float texture coordinate array
    /// for `draw rect tex`) as a GL_TRIANGLE_STRIP.
    fn draw(&self, d: &DrawCall) -> Result<Vec<GLuint>, RunError> {
        let gl = &self.gl;
        self.load_matrix(GL_PROJECTION, &d.projection);
        self.load_matrix(GL_MODELVIEW, &d.modelview);
        unsafe {
            for (target, env, local) in [
                (GL_VERTEX_PROGRAM_ARB, &d.env_vp, &d.local_vp),
                (GL_FRAGMENT_PROGRAM_ARB, &d.env_fp, &d.local_fp),
            ] {
                for (&i, v) in env {
                    (gl.glProgramEnvParameter4fvARB)(target, i, v.as_ptr());
                }
                for (&i, v) in local {
                    (gl.glProgramLocalParameter4fvARB)(target, i, v.as_ptr());
                }
            }
            (gl.glColor4fv)(d.color.as_ptr());
            for (unit, t) in d.texcoords.iter().enumerate() {
                (gl.glMultiTexCoord4fv)(GL_TEXTURE0 + unit as GLenum, t.as_ptr());
            }
            if d.depth_test {
                (gl.glEnable)(GL_DEPTH_TEST);
            } else {
                (gl.glDisable)(GL_DEPTH_TEST);
            }
        }
        let mut names = Vec::new();
        for (&unit, t) in &d.textures {
            names.push(self.texture(unit, t));
        }
        let verts: Vec<f32> = d.vertices.iter().flat_map(|v| v.position).collect();
        let tex: Option<Vec<f32>> = d.vertices[0].texcoord0.map(|_| {
            d.vertices
                .iter()
                .flat_map(|v| {
                    let t = v.texcoord0.unwrap_or([0.0; 4]);
                    [t[0], t[1]]
                })
                .collect()
        });
        unsafe {
            (gl.glVertexPointer)(4, GL_FLOAT, 0, verts.as_ptr() as *const c_void);
            (gl.glEnableClientState)(GL_VERTEX_ARRAY);
            if let Some(t) = &tex {
                (gl.glClientActiveTexture)(GL_TEXTURE0);
                (gl.glTexCoordPointer)(2, GL_FLOAT, 0, t.as_ptr() as *const c_void);
                (gl.glEnableClientState)(GL_TEXTURE_COORD_ARRAY);
            }
            (gl.glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
            (gl.glDisableClientState)(GL_VERTEX_ARRAY);
            if tex.is_some() {
                (gl.glDisableClientState)(GL_TEXTURE_COORD_ARRAY);
            }
        }
        Ok(names)
    }

    /// Creates and binds the texture object as piglit's helper does
    /// (including its `glEnable(GL_TEXTURE_2D)` for 2D textures).
    fn texture(&self, unit: u32, t: &TextureObject) -> GLuint {
        let gl = &self.gl;
        let target = match t.target {
            TexTarget::D1 => GL_TEXTURE_1D,
            TexTarget::D2 => GL_TEXTURE_2D,
            TexTarget::Rect => GL_TEXTURE_RECTANGLE,
        };
        let filter = |f: Filter| match f {
            Filter::Nearest => GL_NEAREST,
            Filter::Linear => GL_LINEAR,
            Filter::NearestMipmapNearest => GL_NEAREST_MIPMAP_NEAREST,
            Filter::LinearMipmapNearest => GL_LINEAR_MIPMAP_NEAREST,
            Filter::NearestMipmapLinear => GL_NEAREST_MIPMAP_LINEAR,
            Filter::LinearMipmapLinear => GL_LINEAR_MIPMAP_LINEAR,
        };
        unsafe {
            let mut name = 0;
            (gl.glActiveTexture)(GL_TEXTURE0 + unit);
            (gl.glGenTextures)(1, &mut name);
            (gl.glBindTexture)(target, name);
            (gl.glTexParameteri)(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
            (gl.glTexParameteri)(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
            (gl.glTexParameteri)(target, GL_TEXTURE_MIN_FILTER, filter(t.min_filter));
            (gl.glTexParameteri)(target, GL_TEXTURE_MAG_FILTER, filter(t.mag_filter));
            let levels = match &t.texels {
                Texels::Rgba(l) => l.len(),
                Texels::Depth(l) => l.len(),
            };
            (gl.glTexParameteri)(target, GL_TEXTURE_MAX_LEVEL, levels as GLint - 1);
            for level in 0..levels {
                let (lw, lh) = ((t.width >> level).max(1), (t.height >> level).max(1));
                let (internal, format, data): (GLint, GLenum, Vec<f32>) = match &t.texels {
                    Texels::Rgba(l) => (
                        GL_RGBA as GLint,
                        GL_RGBA,
                        l[level].iter().flatten().copied().collect(),
                    ),
                    Texels::Depth(l) => (
                        GL_DEPTH_COMPONENT as GLint,
                        GL_DEPTH_COMPONENT,
                        l[level].clone(),
                    ),
                };
                let ptr = data.as_ptr() as *const c_void;
                if target == GL_TEXTURE_1D {
                    (gl.glTexImage1D)(
                        target,
                        level as GLint,
                        internal,
                        lw as GLsizei,
                        0,
                        format,
                        GL_FLOAT,
                        ptr,
                    );
                } else {
                    (gl.glTexImage2D)(
                        target,
                        level as GLint,
                        internal,
                        lw as GLsizei,
                        lh as GLsizei,
                        0,
                        format,
                        GL_FLOAT,
                        ptr,
                    );
                }
            }
            if t.compare {
                (gl.glTexParameteri)(target, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_R_TO_TEXTURE);
            }
            let func = match t.compare_func {
                CompareFunc::Never => 0x0200,
                CompareFunc::Less => 0x0201,
                CompareFunc::Equal => 0x0202,
                CompareFunc::Lequal => 0x0203,
                CompareFunc::Greater => 0x0204,
                CompareFunc::Notequal => 0x0205,
                CompareFunc::Gequal => 0x0206,
                CompareFunc::Always => 0x0207,
            };
            (gl.glTexParameteri)(target, GL_TEXTURE_COMPARE_FUNC, func);
            if matches!(t.texels, Texels::Depth(_)) {
                let mode = match t.depth_mode {
                    DepthMode::Luminance => GL_LUMINANCE,
                    DepthMode::Intensity => GL_INTENSITY,
                    DepthMode::Alpha => GL_ALPHA,
                    DepthMode::Red => GL_RED,
                };
                (gl.glTexParameteri)(target, GL_DEPTH_TEXTURE_MODE, mode);
            }
            if target == GL_TEXTURE_2D {
                (gl.glEnable)(GL_TEXTURE_2D);
            }
            name
        }
    }

    fn read(&self, plan: &Plan) -> SceneFrame {
        let (w, h) = (plan.width, plan.height);
        let n = (w * h) as usize;
        let mut bytes = vec![0u8; 4 * n];
        let mut depth = vec![0f32; n];
        unsafe {
            (self.gl.glReadPixels)(
                0,
                0,
                w as GLsizei,
                h as GLsizei,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                bytes.as_mut_ptr() as *mut c_void,
            );
            if plan.depth {
                (self.gl.glReadPixels)(
                    0,
                    0,
                    w as GLsizei,
                    h as GLsizei,
                    GL_DEPTH_COMPONENT,
                    GL_FLOAT,
                    depth.as_mut_ptr() as *mut c_void,
                );
            }
        }
        SceneFrame {
            width: w,
            height: h,
            rgba8: bytes
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect(),
            depth: plan.depth.then_some(depth),
        }
    }
}

impl Drop for Mesa {
    fn drop(&mut self) {
        let _ = self.egl.make_current(self.display, None, None, None);
        let _ = self.egl.destroy_context(self.display, self.context);
        let _ = self.egl.terminate(self.display);
    }
}

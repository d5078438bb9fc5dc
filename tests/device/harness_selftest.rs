//! Self-tests of the Vulkan execution harness (tests/device/harness/), with shaders built
//! by hand with rspirv (independent of the compiler).

use crate::harness;
use crate::harness::{
    fbits, ibits, Capture, FragmentJob, HarnessError, Input, Kind, VertexJob, KILL_SENTINEL,
};
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, MemoryModel, SelectionControl, StorageClass,
};

/// A tiny SPIR-V 1.0 shader builder for the tests.
struct Spv {
    b: Builder,
    main: u32,
    f32: u32,
    i32: u32,
    u32: u32,
    bool: u32,
    vec4: u32,
    ivec4: u32,
    uvec4: u32,
    interface: Vec<u32>,
}

impl Spv {
    fn new(capabilities: &[Capability]) -> Spv {
        let mut b = Builder::new();
        b.set_version(1, 0);
        b.capability(Capability::Shader);
        for &c in capabilities {
            b.capability(c);
        }
        b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
        let f32 = b.type_float(32, None);
        let i32 = b.type_int(32, 1);
        let u32 = b.type_int(32, 0);
        let bool = b.type_bool();
        let vec4 = b.type_vector(f32, 4);
        let ivec4 = b.type_vector(i32, 4);
        let uvec4 = b.type_vector(u32, 4);
        let main = b.id();
        Spv {
            b,
            main,
            f32,
            i32,
            u32,
            bool,
            vec4,
            ivec4,
            uvec4,
            interface: Vec::new(),
        }
    }

    fn var(&mut self, ty: u32, sc: StorageClass) -> u32 {
        let p = self.b.type_pointer(None, sc, ty);
        let v = self.b.variable(p, None, sc, None);
        if matches!(sc, StorageClass::Input | StorageClass::Output) {
            self.interface.push(v);
        }
        v
    }

    fn located(&mut self, ty: u32, sc: StorageClass, location: u32) -> u32 {
        let v = self.var(ty, sc);
        self.b
            .decorate(v, Decoration::Location, [Operand::LiteralBit32(location)]);
        v
    }

    fn input(&mut self, ty: u32, location: u32) -> u32 {
        self.located(ty, StorageClass::Input, location)
    }

    fn output(&mut self, ty: u32, location: u32) -> u32 {
        self.located(ty, StorageClass::Output, location)
    }

    fn builtin(&mut self, ty: u32, sc: StorageClass, bi: BuiltIn) -> u32 {
        let v = self.var(ty, sc);
        self.b
            .decorate(v, Decoration::BuiltIn, [Operand::BuiltIn(bi)]);
        v
    }

    fn uint(&mut self, v: u32) -> u32 {
        self.b.constant_bit32(self.u32, v)
    }

    fn float(&mut self, v: f32) -> u32 {
        self.b.constant_bit32(self.f32, v.to_bits())
    }

    /// `uniform { uvec4 v[256]; }` at (set, binding), like docs/interface.md.
    fn params(&mut self, set: u32, binding: u32) -> u32 {
        let n = self.uint(256);
        let arr = self.b.type_array(self.uvec4, n);
        self.b
            .decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(16)]);
        let st = self.b.type_struct([arr]);
        self.b.decorate(st, Decoration::Block, []);
        self.b
            .member_decorate(st, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
        let v = self.var(st, StorageClass::Uniform);
        self.b
            .decorate(v, Decoration::DescriptorSet, [Operand::LiteralBit32(set)]);
        self.b
            .decorate(v, Decoration::Binding, [Operand::LiteralBit32(binding)]);
        v
    }

    fn begin(&mut self) {
        let void = self.b.type_void();
        let fn_ty = self.b.type_function(void, vec![]);
        self.b
            .begin_function(void, Some(self.main), FunctionControl::NONE, fn_ty)
            .unwrap();
        self.b.begin_block(None).unwrap();
    }

    fn load(&mut self, ty: u32, ptr: u32) -> u32 {
        self.b.load(ty, None, ptr, None, []).unwrap()
    }

    fn store(&mut self, ptr: u32, value: u32) {
        self.b.store(ptr, value, None, []).unwrap()
    }

    /// `block.v[index]` as uvec4.
    fn param(&mut self, block: u32, index: u32) -> u32 {
        let zero = self.uint(0);
        let idx = self.uint(index);
        let ptr = self.b.type_pointer(None, StorageClass::Uniform, self.uvec4);
        let p = self.b.access_chain(ptr, None, block, [zero, idx]).unwrap();
        self.load(self.uvec4, p)
    }

    /// Pointer to member/element `index` of an Output aggregate.
    fn out_elem(&mut self, ty: u32, base: u32, index: u32) -> u32 {
        let idx = self.uint(index);
        let ptr = self.b.type_pointer(None, StorageClass::Output, ty);
        self.b.access_chain(ptr, None, base, [idx]).unwrap()
    }

    fn finish(mut self, model: ExecutionModel, modes: &[ExecutionMode]) -> Vec<u32> {
        self.b.ret().unwrap();
        self.b.end_function().unwrap();
        self.b
            .entry_point(model, self.main, "main", self.interface.clone());
        for &m in modes {
            self.b.execution_mode(self.main, m, []);
        }
        self.b.module().assemble()
    }
}

fn frag(s: Spv) -> Vec<u32> {
    s.finish(ExecutionModel::Fragment, &[ExecutionMode::OriginUpperLeft])
}

fn device() -> Option<&'static harness::Device> {
    harness::device_or_skip()
}

fn expect_validation_error<T: std::fmt::Debug>(r: harness::Result<T>) {
    match r {
        Err(HarnessError::Validation { messages, .. }) => {
            assert!(!messages.is_empty());
            eprintln!("expected validation error(s): {messages:#?}");
        }
        other => panic!("expected a validation error, got {other:?}"),
    }
}

/// Special float bit patterns that must survive unchanged.
const SPECIAL: [u32; 8] = [
    0x7FC0_1234, // quiet NaN with payload
    0xFFC0_0001, // negative quiet NaN with payload
    0x8000_0000, // -0.0
    0x0000_0001, // smallest denormal
    0x807F_FFFF, // largest negative denormal
    0x7F80_0000, // +inf
    0xFF80_0000, // -inf
    0x3F80_0001, // 1.0000001
];

/// Location 5 (vec4) + bitcast(program.local[0]) → Location 0;
/// Location 14 (ivec4, flat) → Location 2 (uvec4); Location 6 (vec4) → Location 3.
fn copy_add_local_fs() -> Vec<u32> {
    let mut s = Spv::new(&[]);
    let in5 = s.input(s.vec4, 5);
    let in14 = s.input(s.ivec4, 14);
    s.b.decorate(in14, Decoration::Flat, []);
    let in6 = s.input(s.vec4, 6);
    let out0 = s.output(s.vec4, 0);
    let out2 = s.output(s.uvec4, 2);
    let out3 = s.output(s.vec4, 3);
    let local = s.params(2, 1);
    s.begin();
    let a = s.load(s.vec4, in5);
    let l = s.param(local, 0);
    let lf = s.b.bitcast(s.vec4, None, l).unwrap();
    let sum = s.b.f_add(s.vec4, None, a, lf).unwrap();
    s.store(out0, sum);
    let i = s.load(s.ivec4, in14);
    let u = s.b.bitcast(s.uvec4, None, i).unwrap();
    s.store(out2, u);
    let c = s.load(s.vec4, in6);
    s.store(out3, c);
    frag(s)
}

#[test]
fn fragment_varyings_local_and_outputs_are_exact() {
    let Some(dev) = device() else { return };
    let n = 150; // more than one row of 64
    let local0 = [1.5f32, -2.0, 0.25, 1024.0];
    let mut cases = Vec::new();
    for i in 0..n {
        let f = i as f32;
        let s = SPECIAL[i % SPECIAL.len()];
        cases.push(vec![
            Input::float(5, [f, -f * 0.5, f * 1e-3, 3.0 - f]),
            Input::int(14, [i as i32, -(i as i32), i32::MIN + i as i32, 7]),
            Input::float_bits(6, [s, s ^ 0x8000_0000, 0x0040_0000 + i as u32, s]),
        ]);
    }
    let job = FragmentJob {
        local: vec![fbits(local0)],
        outputs: vec![(0, Kind::Float), (2, Kind::Uint), (3, Kind::Float)],
        ..FragmentJob::new(cases.clone())
    };
    let out = dev.run_fragment(&copy_add_local_fs(), &job).unwrap();
    assert_eq!((out.width, out.height), (64, 3));
    for (i, case) in cases.iter().enumerate() {
        let a = harness::to_f32(case[0].bits);
        let want: [f32; 4] = std::array::from_fn(|c| a[c] + local0[c]);
        assert_eq!(out.bits(i), fbits(want), "case {i} Location 0");
        assert_eq!(out.color(i, 2), case[1].bits, "case {i} Location 2");
        assert_eq!(out.color(i, 3), case[2].bits, "case {i} Location 3");
        assert!(!out.killed(i));
    }
}

#[test]
fn fragment_interpolated_varyings_keep_ordinary_values() {
    let Some(dev) = device() else { return };
    // With the program's own (smooth) interpolation, normal numbers, infinities and
    // NaNs still arrive unchanged on a point.
    let cases: Vec<_> = (0..20)
        .map(|i| {
            vec![
                Input::float(5, [0.0; 4]),
                Input::int(14, [0; 4]),
                Input::float_bits(
                    6,
                    [
                        0x7FC0_1234,
                        0xFF80_0000,
                        (i as f32 * 0.37).to_bits(),
                        0xC2F6_E979,
                    ],
                ),
            ]
        })
        .collect();
    let job = FragmentJob {
        flat_varyings: false,
        ..FragmentJob::new(cases.clone())
    };
    let out = dev.run_fragment(&copy_add_local_fs(), &job).unwrap();
    for (i, case) in cases.iter().enumerate() {
        assert_eq!(out.color(i, 3), case[2].bits, "case {i}");
    }
}

#[test]
fn fragment_coordinates_map_cases_to_pixels() {
    let Some(dev) = device() else { return };
    let mut s = Spv::new(&[]);
    let fc = s.builtin(s.vec4, StorageClass::Input, BuiltIn::FragCoord);
    let out0 = s.output(s.vec4, 0);
    s.begin();
    let v = s.load(s.vec4, fc);
    s.store(out0, v);
    let fs = frag(s);
    for (n, width) in [(1usize, None), (64, None), (130, None), (10, Some(4))] {
        let job = FragmentJob {
            width,
            z: 0.25,
            ..FragmentJob::new(vec![vec![]; n])
        };
        let out = dev.run_fragment(&fs, &job).unwrap();
        let w = out.width as usize;
        for i in 0..n {
            let want = [(i % w) as f32 + 0.5, (i / w) as f32 + 0.5, 0.25, 1.0];
            assert_eq!(out.f32(i), want, "case {i} of {n} (width {w})");
        }
    }
}

#[test]
fn fragment_env_and_local_use_their_bindings_and_default_to_zero() {
    let Some(dev) = device() else { return };
    let mut s = Spv::new(&[]);
    let env = s.params(2, 0);
    let local = s.params(2, 1);
    let outs: Vec<u32> = (0..4).map(|l| s.output(s.uvec4, l)).collect();
    s.begin();
    for (o, (block, index)) in outs
        .iter()
        .zip([(env, 255), (local, 255), (env, 0), (local, 7)])
    {
        let v = s.param(block, index);
        s.store(*o, v);
    }
    let fs = frag(s);
    let mut env_vals = vec![[0u32; 4]; 256];
    env_vals[255] = [1, 2, 3, 4];
    env_vals[0] = [0xFFFF_FFFF, 0, 0x8000_0000, 42];
    let mut local_vals = vec![[0u32; 4]; 255];
    local_vals.push([5, 6, 7, 8]);
    let job = FragmentJob {
        env: env_vals,
        local: local_vals,
        outputs: (0..4).map(|l| (l, Kind::Uint)).collect(),
        ..FragmentJob::new(vec![vec![]; 3])
    };
    let out = dev.run_fragment(&fs, &job).unwrap();
    for i in 0..3 {
        assert_eq!(out.color(i, 0), [1, 2, 3, 4]);
        assert_eq!(out.color(i, 1), [5, 6, 7, 8]);
        assert_eq!(out.color(i, 2), [0xFFFF_FFFF, 0, 0x8000_0000, 42]);
        assert_eq!(out.color(i, 3), [0; 4], "unset local must read zero");
    }
}

/// `if (in0.x < 0) kill; out0 = in0;`
fn kil_fs() -> Vec<u32> {
    let mut s = Spv::new(&[]);
    let in0 = s.input(s.vec4, 0);
    let out0 = s.output(s.vec4, 0);
    s.begin();
    let v = s.load(s.vec4, in0);
    let x = s.b.composite_extract(s.f32, None, v, [0]).unwrap();
    let zero = s.float(0.0);
    let neg = s.b.f_ord_less_than(s.bool, None, x, zero).unwrap();
    let kill = s.b.id();
    let merge = s.b.id();
    s.b.selection_merge(merge, SelectionControl::NONE).unwrap();
    s.b.branch_conditional(neg, kill, merge, []).unwrap();
    s.b.begin_block(Some(kill)).unwrap();
    s.b.kill().unwrap();
    s.b.begin_block(Some(merge)).unwrap();
    s.store(out0, v);
    frag(s)
}

#[test]
fn fragment_kil_leaves_the_clear_value() {
    let Some(dev) = device() else { return };
    let cases: Vec<_> = (0..70)
        .map(|i| {
            vec![Input::float(
                0,
                [if i % 3 == 0 { -1.0 } else { i as f32 }, 1.0, 2.0, 3.0],
            )]
        })
        .collect();
    let out = dev
        .run_fragment(&kil_fs(), &FragmentJob::new(cases.clone()))
        .unwrap();
    for (i, case) in cases.iter().enumerate() {
        if i % 3 == 0 {
            assert!(out.killed(i), "case {i} should be killed");
            assert_eq!(
                out.bits(i),
                KILL_SENTINEL,
                "the NaN sentinel must survive the clear"
            );
        } else {
            assert!(!out.killed(i), "case {i} should not be killed");
            assert_eq!(out.bits(i), case[0].bits);
        }
    }
    // A job-chosen clear value.
    let job = FragmentJob {
        clear: [9, 8, 7, 6],
        ..FragmentJob::new(cases)
    };
    let out = dev.run_fragment(&kil_fs(), &job).unwrap();
    assert_eq!(out.bits(0), [9, 8, 7, 6]);
    assert!(out.killed(0) && !out.killed(1));
}

#[test]
fn fragment_depth_is_read_back() {
    let Some(dev) = device() else { return };
    let mut s = Spv::new(&[]);
    let in0 = s.input(s.vec4, 0);
    let out0 = s.output(s.vec4, 0);
    let depth = s.builtin(s.f32, StorageClass::Output, BuiltIn::FragDepth);
    s.begin();
    let v = s.load(s.vec4, in0);
    let x = s.b.composite_extract(s.f32, None, v, [0]).unwrap();
    s.store(depth, x);
    s.store(out0, v);
    let fs = s.finish(
        ExecutionModel::Fragment,
        &[
            ExecutionMode::OriginUpperLeft,
            ExecutionMode::DepthReplacing,
        ],
    );
    let xs = [0.0f32, 0.125, 0.5, 1.0];
    let job = FragmentJob {
        depth: true,
        ..FragmentJob::new(xs.iter().map(|&x| vec![Input::float(0, [x; 4])]).collect())
    };
    let out = dev.run_fragment(&fs, &job).unwrap();
    for (i, &x) in xs.iter().enumerate() {
        assert_eq!(out.depth_f32(i), Some(x));
    }
}

#[test]
fn fragment_validation_errors_fail_the_run() {
    let Some(dev) = device() else { return };
    if !dev.validation {
        eprintln!("validation layer missing; skipping the validation self-test");
        return;
    }
    // The fragment program reads Location 9, which the job does not provide.
    let mut s = Spv::new(&[]);
    let in9 = s.input(s.vec4, 9);
    let out0 = s.output(s.vec4, 0);
    s.begin();
    let v = s.load(s.vec4, in9);
    s.store(out0, v);
    let fs = frag(s);
    let cases = vec![vec![Input::float(5, [1.0; 4])]; 4];
    expect_validation_error(dev.run_fragment(&fs, &FragmentJob::new(cases)));

    // An integer output written to a float attachment.
    let mut s = Spv::new(&[]);
    let out0 = s.output(s.uvec4, 0);
    s.begin();
    let one = s.uint(1);
    let v =
        s.b.composite_construct(s.uvec4, None, [one, one, one, one])
            .unwrap();
    s.store(out0, v);
    let fs = frag(s);
    let job = FragmentJob {
        outputs: vec![(0, Kind::Float)],
        ..FragmentJob::new(vec![vec![]; 2])
    };
    expect_validation_error(dev.run_fragment(&fs, &job));

    // The device is still usable afterwards, and clean runs pass.
    let cases = vec![vec![Input::float(0, [1.0; 4])]];
    dev.run_fragment(&kil_fs(), &FragmentJob::new(cases))
        .unwrap();
}

#[test]
fn job_errors_are_reported() {
    let Some(dev) = device() else { return };
    let cases = vec![vec![Input::float(3, [1.0; 4])], vec![Input::int(3, [1; 4])]];
    assert!(matches!(
        dev.run_fragment(&kil_fs(), &FragmentJob::new(cases)),
        Err(HarnessError::Job(_))
    ));
    assert!(matches!(
        dev.run_fragment(&kil_fs(), &FragmentJob::new(vec![])),
        Err(HarnessError::Job(_))
    ));
    let vs = block_vs();
    let job = VertexJob::new(vec![vec![]], vec![Capture::Location(7)]);
    assert!(matches!(
        dev.run_vertex(&vs, &job),
        Err(HarnessError::Job(_))
    ));
    assert!(matches!(
        dev.run_vertex(&[0x0723_0203, 1, 2], &job),
        Err(HarnessError::Spirv(_))
    ));
}

/// gl_PerVertex { Position, PointSize, ClipDistance[1] }:
/// Position = Location 0; PointSize = 2.5; ClipDistance[0] = in3.w;
/// Location 5 = Location 3 + bitcast(program.env[1]).
fn block_vs() -> Vec<u32> {
    let mut s = Spv::new(&[Capability::ClipDistance]);
    let in0 = s.input(s.vec4, 0);
    let in3 = s.input(s.vec4, 3);
    let one = s.uint(1);
    let clip_ty = s.b.type_array(s.f32, one);
    let block = s.b.type_struct([s.vec4, s.f32, clip_ty]);
    s.b.decorate(block, Decoration::Block, []);
    for (m, bi) in [BuiltIn::Position, BuiltIn::PointSize, BuiltIn::ClipDistance]
        .into_iter()
        .enumerate()
    {
        s.b.member_decorate(block, m as u32, Decoration::BuiltIn, [Operand::BuiltIn(bi)]);
    }
    let pv = s.var(block, StorageClass::Output);
    let out5 = s.output(s.vec4, 5);
    let env = s.params(0, 0);
    s.begin();
    let p = s.load(s.vec4, in0);
    let pos = s.out_elem(s.vec4, pv, 0);
    s.store(pos, p);
    let ps = s.out_elem(s.f32, pv, 1);
    let size = s.float(2.5);
    s.store(ps, size);
    let v3 = s.load(s.vec4, in3);
    let w = s.b.composite_extract(s.f32, None, v3, [3]).unwrap();
    let idx0 = s.uint(0);
    let idx2 = s.uint(2);
    let fptr = s.b.type_pointer(None, StorageClass::Output, s.f32);
    let clip0 = s.b.access_chain(fptr, None, pv, [idx2, idx0]).unwrap();
    s.store(clip0, w);
    let e = s.param(env, 1);
    let ef = s.b.bitcast(s.vec4, None, e).unwrap();
    let sum = s.b.f_add(s.vec4, None, v3, ef).unwrap();
    s.store(out5, sum);
    s.finish(ExecutionModel::Vertex, &[])
}

#[test]
fn vertex_block_outputs_are_captured_exactly() {
    let Some(dev) = device() else { return };
    let env1 = [0.5f32, -1.0, 100.0, 0.0];
    let n = 7; // not a multiple of 3
    let vertices: Vec<_> = (0..n)
        .map(|i| {
            let s = SPECIAL[i % SPECIAL.len()];
            vec![
                Input::float_bits(0, [s, 0x3F80_0000 + i as u32, s ^ 0x8000_0000, 0x0000_0003]),
                Input::float(3, [i as f32, 2.0 * i as f32, -3.0, 0.75 * i as f32]),
            ]
        })
        .collect();
    let job = VertexJob {
        env: vec![[0; 4], fbits(env1)],
        ..VertexJob::new(
            vertices.clone(),
            vec![
                Capture::Position,
                Capture::Location(5),
                Capture::PointSize,
                Capture::ClipDistance,
            ],
        )
    };
    let out = dev.run_vertex(&block_vs(), &job).unwrap();
    assert_eq!(out.vertices.len(), n);
    for (i, v) in vertices.iter().enumerate() {
        assert_eq!(out.position(i), v[0].bits, "vertex {i} Position");
        let a = harness::to_f32(v[1].bits);
        let want: [f32; 4] = std::array::from_fn(|c| a[c] + env1[c]);
        assert_eq!(out.location(i, 5), fbits(want), "vertex {i} Location 5");
        assert_eq!(out.vertices[i].point_size, Some(2.5f32.to_bits()));
        assert_eq!(out.vertices[i].clip_distance, Some(vec![v[1].bits[3]]));
    }
}

/// Plain built-in variables: Position = Location 0; Location 13 (int) =
/// Location 6.x + VertexIndex; Location 14 (ivec4) = Location 6.
fn plain_vs() -> Vec<u32> {
    let mut s = Spv::new(&[]);
    let in0 = s.input(s.vec4, 0);
    let in6 = s.input(s.ivec4, 6);
    let vid = s.builtin(s.i32, StorageClass::Input, BuiltIn::VertexIndex);
    let pos = s.builtin(s.vec4, StorageClass::Output, BuiltIn::Position);
    let out13 = s.output(s.i32, 13);
    let out14 = s.output(s.ivec4, 14);
    s.begin();
    let p = s.load(s.vec4, in0);
    s.store(pos, p);
    let a = s.load(s.ivec4, in6);
    let x = s.b.composite_extract(s.i32, None, a, [0]).unwrap();
    let id = s.load(s.i32, vid);
    let sum = s.b.i_add(s.i32, None, x, id).unwrap();
    s.store(out13, sum);
    s.store(out14, a);
    s.finish(ExecutionModel::Vertex, &[])
}

#[test]
fn vertex_plain_outputs_integers_and_vertex_index() {
    let Some(dev) = device() else { return };
    let n = 4;
    let vertices: Vec<_> = (0..n)
        .map(|i| {
            vec![
                Input::float(0, [i as f32, 1.0, 2.0, 1.0]),
                Input::int(6, [1000 * i, -1, i32::MAX, i32::MIN]),
            ]
        })
        .collect();
    let job = VertexJob {
        first_vertex: 5,
        ..VertexJob::new(
            vertices.clone(),
            vec![
                Capture::Position,
                Capture::Location(13),
                Capture::Location(14),
            ],
        )
    };
    let out = dev.run_vertex(&plain_vs(), &job).unwrap();
    for (i, v) in vertices.iter().enumerate() {
        assert_eq!(out.position(i), v[0].bits);
        assert_eq!(
            out.location(i, 13),
            ibits([1000 * i as i32 + 5 + i as i32, 0, 0, 0]),
            "vertex {i}: scalar int output + VertexIndex"
        );
        assert_eq!(out.location(i, 14), v[1].bits);
    }
}

/// Position, PointSize, ClipDistance[4], Locations 0..=13 and a vec4[14] array at
/// Location 14: 484 bytes per vertex. Captured in one pass, and again with the
/// per-pass limit lowered to 256 bytes so the harness must split it into passes.
#[test]
fn vertex_many_outputs_and_split_passes() {
    let Some(dev) = device() else { return };
    let mut s = Spv::new(&[Capability::ClipDistance]);
    let in0 = s.input(s.vec4, 0);
    let pos = s.builtin(s.vec4, StorageClass::Output, BuiltIn::Position);
    let psize = s.builtin(s.f32, StorageClass::Output, BuiltIn::PointSize);
    let four = s.uint(4);
    let clip_ty = s.b.type_array(s.f32, four);
    let clip = s.builtin(clip_ty, StorageClass::Output, BuiltIn::ClipDistance);
    let outs: Vec<(u32, u32)> = (0..14).map(|l| (l, s.output(s.vec4, l))).collect();
    let fourteen = s.uint(14);
    let arr_ty = s.b.type_array(s.vec4, fourteen);
    let arr = s.output(arr_ty, 14);
    s.begin();
    let v = s.load(s.vec4, in0);
    s.store(pos, v);
    let x = s.b.composite_extract(s.f32, None, v, [0]).unwrap();
    s.store(psize, x);
    for c in 0..4 {
        let p = s.out_elem(s.f32, clip, c);
        let k = s.float(c as f32);
        let val = s.b.f_add(s.f32, None, x, k).unwrap();
        s.store(p, val);
    }
    let add = |s: &mut Spv, l: u32| {
        let k = s.float(l as f32);
        let kv = s.b.composite_construct(s.vec4, None, [k, k, k, k]).unwrap();
        s.b.f_add(s.vec4, None, v, kv).unwrap()
    };
    for &(l, o) in &outs {
        let val = add(&mut s, l);
        s.store(o, val);
    }
    for e in 0..14 {
        let val = add(&mut s, 14 + e);
        let p = s.out_elem(s.vec4, arr, e);
        s.store(p, val);
    }
    let vs = s.finish(ExecutionModel::Vertex, &[]);

    let mut capture = vec![Capture::Position, Capture::PointSize, Capture::ClipDistance];
    capture.extend((0..28).map(Capture::Location));
    let vertices: Vec<_> = (0..5)
        .map(|i| vec![Input::float(0, [i as f32, 0.5, -2.0, 1.0])])
        .collect();
    let job = VertexJob::new(vertices.clone(), capture);
    let whole = dev.run_vertex(&vs, &job).unwrap();
    let split = dev.run_vertex_limited(&vs, &job, 256).unwrap();
    assert!(
        matches!(
            dev.run_vertex_limited(&vs, &job, 128),
            Err(HarnessError::Job(_))
        ),
        "the 224-byte array cannot fit a 128-byte pass"
    );
    for out in [&whole, &split] {
        for (i, v) in vertices.iter().enumerate() {
            let a = harness::to_f32(v[0].bits);
            let rec = &out.vertices[i];
            assert_eq!(rec.position, Some(v[0].bits));
            assert_eq!(rec.point_size, Some(a[0].to_bits()));
            let clip: Vec<u32> = (0..4).map(|c| (a[0] + c as f32).to_bits()).collect();
            assert_eq!(rec.clip_distance.as_ref(), Some(&clip));
            for l in 0..28 {
                let want = fbits(a.map(|c| c + l as f32));
                assert_eq!(out.location(i, l), want, "vertex {i} Location {l}");
            }
        }
    }
}

#[test]
fn vertex_validation_errors_fail_the_run() {
    let Some(dev) = device() else { return };
    if !dev.validation {
        eprintln!("validation layer missing; skipping the validation self-test");
        return;
    }
    // Location 0 is a vec4 in the program, but the job feeds it as uvec4.
    let job = VertexJob::new(
        vec![vec![Input::uint(0, [1, 2, 3, 4]), Input::int(6, [0; 4])]; 3],
        vec![Capture::Position],
    );
    expect_validation_error(dev.run_vertex(&plain_vs(), &job));
    // And a correct job right after passes.
    let job = VertexJob::new(
        vec![vec![Input::float(0, [1.0; 4]), Input::int(6, [0; 4])]; 3],
        vec![Capture::Position],
    );
    dev.run_vertex(&plain_vs(), &job).unwrap();
}

#[test]
fn a_private_device_runs_and_closes_without_leaks() {
    let Some(_) = device() else { return };
    // Destroying a device with live child objects is reported by the validation
    // layer, so a clean close shows the runs destroyed everything they created.
    let dev = harness::Device::new().unwrap();
    let cases = vec![
        vec![Input::float(0, [-1.0; 4])],
        vec![Input::float(0, [1.0; 4])],
    ];
    let out = dev
        .run_fragment(&kil_fs(), &FragmentJob::new(cases))
        .unwrap();
    assert!(out.killed(0) && !out.killed(1));
    let job = VertexJob::new(
        vec![vec![Input::float(0, [1.0; 4]), Input::int(6, [0; 4])]; 2],
        vec![Capture::Position],
    );
    dev.run_vertex(&plain_vs(), &job).unwrap();
    // A failing run must clean up too.
    let bad = VertexJob::new(
        vec![vec![Input::uint(0, [1; 4]), Input::int(6, [0; 4])]],
        vec![Capture::Position],
    );
    assert!(dev.run_vertex(&plain_vs(), &bad).is_err() || !dev.validation);
    dev.close().unwrap();
}

#[test]
fn fragment_unread_varyings_are_allowed() {
    let Some(dev) = device() else { return };
    // Cases may carry varyings the program does not read.
    let cases = vec![vec![
        Input::float(0, [1.0, 2.0, 3.0, 4.0]),
        Input::uint(7, [1; 4]),
        Input::float(29, [5.0; 4]),
    ]];
    let out = dev
        .run_fragment(&kil_fs(), &FragmentJob::new(cases))
        .unwrap();
    assert_eq!(out.f32(0), [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn vertex_unread_attributes_and_no_attributes_are_allowed() {
    let Some(dev) = device() else { return };
    let job = VertexJob::new(
        vec![
            vec![
                Input::float(0, [1.0; 4]),
                Input::int(6, [0; 4]),
                Input::uint(9, [3; 4])
            ];
            2
        ],
        vec![Capture::Position],
    );
    let out = dev.run_vertex(&plain_vs(), &job).unwrap();
    assert_eq!(out.position_f32(1), [1.0; 4]);

    // A program without inputs: Position = (VertexIndex, 0, 0, 1) as floats.
    let mut s = Spv::new(&[]);
    let vid = s.builtin(s.i32, StorageClass::Input, BuiltIn::VertexIndex);
    let pos = s.builtin(s.vec4, StorageClass::Output, BuiltIn::Position);
    s.begin();
    let id = s.load(s.i32, vid);
    let f = s.b.convert_s_to_f(s.f32, None, id).unwrap();
    let zero = s.float(0.0);
    let one = s.float(1.0);
    let v =
        s.b.composite_construct(s.vec4, None, [f, zero, zero, one])
            .unwrap();
    s.store(pos, v);
    let vs = s.finish(ExecutionModel::Vertex, &[]);
    let out = dev
        .run_vertex(
            &vs,
            &VertexJob::new(vec![vec![]; 5], vec![Capture::Position]),
        )
        .unwrap();
    for i in 0..5 {
        assert_eq!(out.position_f32(i), [i as f32, 0.0, 0.0, 1.0]);
    }
}

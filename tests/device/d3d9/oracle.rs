//! The second, independent oracle: for every fixture vkd3d-compiler 2.1
//! could translate to SPIR-V itself (tests/fixtures/d3d9/*/NAME.vkd3d.spv),
//! the device runs vkd3d's module and nvp4c's on the same inputs and
//! constants, and the results must agree. Where they do not, the
//! difference is either nvp4c's bug or one of vkd3d's documented
//! deviations below.
//!
//! vkd3d's modules have their own interface, read here from the module and
//! its conventions: constants in one float block, textures as separate
//! images and samplers, pixel inputs t# at Location n and colours at 8 + n
//! (ps_3_0: the register number), vertex outputs oT# at n, oD# at 8 + n,
//! oFog at 11 (vs_3_0: the register number). The test rebinds vkd3d's
//! block to nvp4c's `c#` binding and joins each image and sampler into one
//! combined image sampler at nvp4c's binding, so both modules read the
//! same descriptors.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rspirv::binary::Assemble;
use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{Decoration, Op, StorageClass};

use super::exec_texture::grid;
use crate::harness::{self, Capture, FragmentJob, Input, TextureKind, VertexJob};
use nvp4c::front::d3d9::{
    decode,
    table::{RegType, SamplerType},
};

/// Differences that are vkd3d-compiler 2.1's, not nvp4c's: (fixture,
/// output register, why). Each was read in vkd3d's SPIR-V and checked
/// against the instruction pages; the test also fails when a listed
/// deviation no longer shows, so the list stays true.
const VKD3D_DEVIATIONS: &[(&str, &str, &str)] = &[
    (
        "vs_3_0_indexing",
        "o1",
        "vkd3d ignores the aL index of a written output register: \
         `mul o[aL + 1], ...` stores every iteration to %o1, so o1 holds \
         the last iteration's value (v3 * c6) instead of v1 * c4",
    ),
    (
        "vs_3_0_indexing",
        "o2",
        "the same: o2 is never written by vkd3d's module",
    ),
    (
        "vs_3_0_indexing",
        "o3",
        "the same: o3 is never written by vkd3d's module",
    ),
    (
        "vs_lighting.vs_3_0",
        "o2",
        "vkd3d lowers `log` to GLSL.std.450 Log2 of the source as it is; the \
         log - vs page defines log2(|src|), so lit's pow of a negative \
         n.h (HLSL's lit) is NaN in vkd3d's module and 0 here",
    ),
    (
        "ps_screen.ps_3_0",
        "oC0",
        "vkd3d's module has no input variable for v0 (dcl_color v0) when \
         the shader also declares vPos and vFace, so its v0 reads are \
         undefined; its vPos is FragCoord (pixel centres at .5) where \
         Direct3D 9's are integers",
    ),
];

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/d3d9");
    let mut out = Vec::new();
    for dir in ["compiled", "hand"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.to_string_lossy().ends_with(".vkd3d.spv") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A small deterministic generator for the inputs.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // Multiples of 1/16 in [-2, 2]: exact in binary, away from the
        // texel and comparison boundaries the shaders test.
        ((self.0 >> 33) % 64) as f32 / 16.0 - 2.0 + 1.0 / 32.0
    }
    fn unit(&mut self) -> f32 {
        (self.next() + 2.0) / 4.0
    }
}

/// vkd3d's module rebound to nvp4c's descriptors: every descriptor set to
/// `set`, its constant block to binding 0, each image/sampler pair (named
/// `tN`/`sN`) joined into a combined image sampler at binding 32 + N.
fn rebind(module: &[u32], set: u32) -> Vec<u32> {
    let mut m = rspirv::dr::load_words(module).expect("vkd3d's module loads");
    let mut names: BTreeMap<u32, String> = BTreeMap::new();
    for i in &m.debug_names {
        if let (Op::Name, Some(Operand::IdRef(id)), Some(Operand::LiteralString(n))) =
            (i.class.opcode, i.operands.first(), i.operands.get(1))
        {
            names.insert(*id, n.clone());
        }
    }
    // Variables: id -> (storage class, pointer type).
    let mut vars: BTreeMap<u32, (StorageClass, u32)> = BTreeMap::new();
    for i in &m.types_global_values {
        if i.class.opcode == Op::Variable {
            if let Some(Operand::StorageClass(sc)) = i.operands.first() {
                vars.insert(i.result_id.unwrap(), (*sc, i.result_type.unwrap()));
            }
        }
    }
    // Pointer type -> pointee; types by id.
    let mut pointee: BTreeMap<u32, u32> = BTreeMap::new();
    let mut ops: BTreeMap<u32, Op> = BTreeMap::new();
    for i in &m.types_global_values {
        if let Some(id) = i.result_id {
            ops.insert(id, i.class.opcode);
        }
        if i.class.opcode == Op::TypePointer {
            if let Some(Operand::IdRef(t)) = i.operands.get(1) {
                pointee.insert(i.result_id.unwrap(), *t);
            }
        }
    }
    let images: Vec<(u32, u32)> = vars
        .iter()
        .filter(|(_, (sc, pty))| {
            *sc == StorageClass::UniformConstant && ops.get(&pointee[pty]) == Some(&Op::TypeImage)
        })
        .map(|(id, (_, pty))| (*id, pointee[pty]))
        .collect();
    let samplers: Vec<u32> = vars
        .iter()
        .filter(|(_, (sc, pty))| {
            *sc == StorageClass::UniformConstant && ops.get(&pointee[pty]) == Some(&Op::TypeSampler)
        })
        .map(|(id, _)| *id)
        .collect();
    let unit = |id: u32| -> u32 {
        names
            .get(&id)
            .and_then(|n| n[1..].parse().ok())
            .unwrap_or(0)
    };
    // New types: a sampled image of each image type and a pointer to it.
    let mut next_id = m.header.as_ref().unwrap().bound;
    let mut fresh = || {
        next_id += 1;
        next_id - 1
    };
    let mut combined_ptr: BTreeMap<u32, (u32, u32)> = BTreeMap::new(); // image var -> (sampled type, ptr type)
    let mut new_types = Vec::new();
    for &(var, img_ty) in &images {
        // vkd3d declares an OpTypeSampledImage for each image it samples.
        let existing = m.types_global_values.iter().find(|i| {
            i.class.opcode == Op::TypeSampledImage
                && i.operands.first() == Some(&Operand::IdRef(img_ty))
        });
        let sampled = match existing {
            Some(i) => i.result_id.unwrap(),
            None => {
                let id = fresh();
                new_types.push(Instruction::new(
                    Op::TypeSampledImage,
                    None,
                    Some(id),
                    vec![Operand::IdRef(img_ty)],
                ));
                id
            }
        };
        let ptr = fresh();
        new_types.push(Instruction::new(
            Op::TypePointer,
            None,
            Some(ptr),
            vec![
                Operand::StorageClass(StorageClass::UniformConstant),
                Operand::IdRef(sampled),
            ],
        ));
        combined_ptr.insert(var, (sampled, ptr));
    }
    // The new types and the image variables (now of the combined type)
    // go last, after every type they refer to.
    let mut moved = Vec::new();
    m.types_global_values.retain(|i| {
        let is_image = i.class.opcode == Op::Variable
            && i.result_id.is_some_and(|id| combined_ptr.contains_key(&id));
        if is_image {
            let mut v = i.clone();
            v.result_type = Some(combined_ptr[&i.result_id.unwrap()].1);
            moved.push(v);
        }
        !is_image
    });
    m.types_global_values.extend(new_types);
    m.types_global_values.extend(moved);
    m.types_global_values.retain(|i| {
        !(i.class.opcode == Op::Variable && i.result_id.is_some_and(|id| samplers.contains(&id)))
    });
    // Decorations: one set; the block at 0; combined samplers at 32 + unit.
    let blocks: Vec<u32> = vars
        .iter()
        .filter(|(_, (sc, _))| *sc == StorageClass::Uniform)
        .map(|(id, _)| *id)
        .collect();
    m.annotations.retain(
        |i| !matches!(i.operands.first(), Some(Operand::IdRef(id)) if samplers.contains(id)),
    );
    m.debug_names.retain(
        |i| !matches!(i.operands.first(), Some(Operand::IdRef(id)) if samplers.contains(id)),
    );
    for i in m.annotations.iter_mut() {
        let (Some(Operand::IdRef(target)), Some(Operand::Decoration(d))) =
            (i.operands.first().cloned(), i.operands.get(1).cloned())
        else {
            continue;
        };
        match d {
            Decoration::DescriptorSet => i.operands[2] = Operand::LiteralBit32(set),
            Decoration::Binding if blocks.contains(&target) => {
                i.operands[2] = Operand::LiteralBit32(0)
            }
            Decoration::Binding if combined_ptr.contains_key(&target) => {
                i.operands[2] = Operand::LiteralBit32(32 + unit(target))
            }
            _ => {}
        }
    }
    // Code: a load of an image becomes a load of the combined sampler and
    // OpImage; a load of a sampler goes; OpSampledImage of the two is the
    // combined load itself.
    let mut combined_of: BTreeMap<u32, u32> = BTreeMap::new(); // image load result -> combined load result
    let mut replace: BTreeMap<u32, u32> = BTreeMap::new();
    for f in m.functions.iter_mut() {
        for b in f.blocks.iter_mut() {
            let mut out = Vec::with_capacity(b.instructions.len());
            for i in b.instructions.drain(..) {
                match i.class.opcode {
                    Op::Load => {
                        let Some(Operand::IdRef(ptr)) = i.operands.first() else {
                            out.push(i);
                            continue;
                        };
                        if samplers.contains(ptr) {
                            continue;
                        }
                        if let Some(&(sampled, _)) = combined_ptr.get(ptr) {
                            let c = fresh();
                            out.push(Instruction::new(
                                Op::Load,
                                Some(sampled),
                                Some(c),
                                vec![Operand::IdRef(*ptr)],
                            ));
                            out.push(Instruction::new(
                                Op::Image,
                                i.result_type,
                                i.result_id,
                                vec![Operand::IdRef(c)],
                            ));
                            combined_of.insert(i.result_id.unwrap(), c);
                            continue;
                        }
                        out.push(i);
                    }
                    Op::SampledImage => {
                        let Some(Operand::IdRef(img)) = i.operands.first() else {
                            out.push(i);
                            continue;
                        };
                        match combined_of.get(img) {
                            Some(&c) => {
                                replace.insert(i.result_id.unwrap(), c);
                            }
                            None => out.push(i),
                        }
                    }
                    _ => out.push(i),
                }
            }
            b.instructions = out;
        }
    }
    for f in m.functions.iter_mut() {
        for b in f.blocks.iter_mut() {
            for i in b.instructions.iter_mut() {
                for o in i.operands.iter_mut() {
                    if let Operand::IdRef(id) = o {
                        if let Some(&r) = replace.get(id) {
                            *id = r;
                        }
                    }
                }
            }
        }
    }
    m.header.as_mut().unwrap().bound = next_id;
    m.assemble()
}

/// An input or output register and the Location each module gives it.
struct Slot {
    register: String,
    ours: Option<u32>,
    theirs: Option<u32>,
    mask: u8,
}

fn vkd3d_location(reg: decode::Register, pixel: bool, sm3: bool, output: bool) -> Option<u32> {
    match (reg.ty, pixel, sm3, output) {
        (RegType::Input, false, _, false) => Some(reg.num),
        (RegType::Input | RegType::Output, _, true, _) => Some(reg.num),
        (RegType::Texture, true, false, false) => Some(reg.num),
        (RegType::Input, true, false, false) => Some(8 + reg.num),
        (RegType::TexCrdOut, false, false, true) => Some(reg.num),
        (RegType::AttrOut, false, false, true) => Some(8 + reg.num),
        (RegType::RastOut, false, false, true) if reg.num == 1 => Some(11),
        _ => None,
    }
}

#[test]
fn vkd3d_compiler_s_spir_v_agrees_with_nvp4c_s_on_the_device() {
    let Some(dev) = harness::device_or_skip() else {
        return;
    };
    let mut failures = Vec::new();
    let mut compared = 0;
    for spv in fixtures() {
        let name = spv
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".vkd3d.spv", "");
        let bytes = std::fs::read(spv.with_file_name(format!("{name}.d3dbc"))).unwrap();
        let ours = super::compile_bytes(&bytes, &nvp4c::Options::default());
        let shader = decode::decode(&bytes);
        let v = shader.version.unwrap();
        let pixel = v.is_pixel();
        let sm3 = v.major == 3;
        let set = if pixel { 2 } else { 0 };
        let theirs = rebind(&words(&std::fs::read(&spv).unwrap()), set);
        let d3d9 = ours.reflection.d3d9.as_ref().unwrap();
        let mut slots = Vec::new();
        for r in &d3d9.registers {
            // Built-ins (position, point size) are compared as such.
            if r.built_in.is_some() {
                continue;
            }
            let Some(reg) = parse_register(&r.register) else {
                continue;
            };
            let output = r.direction == nvp4c::front::d3d9::reflect::Direction::Output;
            let mask = r
                .mask
                .chars()
                .fold(0u8, |m, c| m | 1 << "xyzw".find(c).unwrap_or(0));
            slots.push(Slot {
                register: r.register.clone(),
                ours: r.location,
                theirs: vkd3d_location(reg, pixel, sm3, output),
                mask,
            });
        }
        // Textures: a grid on every unit either module samples, of its
        // declared type, its texels scaled into [0, 1] as a colour
        // texture's are (ps_1_x reads them as colours and offsets).
        let textures: Vec<harness::Texture> = d3d9
            .samplers
            .iter()
            .map(|s| {
                let mut t = match s.texture_type {
                    SamplerType::Cube => {
                        grid(s.unit, TextureKind::Cube, 2, 2, 1, 6, 1, s.unit as f32)
                    }
                    SamplerType::Volume => {
                        grid(s.unit, TextureKind::D3, 4, 4, 4, 1, 1, s.unit as f32)
                    }
                    _ => grid(s.unit, TextureKind::D2, 4, 4, 1, 1, 3, s.unit as f32),
                };
                for level in t.levels.iter_mut() {
                    for w in level.iter_mut() {
                        *w = (f32::from_bits(*w) / 8.0).to_bits();
                    }
                }
                t
            })
            .collect();
        let mut rng = Lcg(name.len() as u64 * 7919 + 17);
        let constants: Vec<[u32; 4]> = (0..256)
            .map(|_| harness::fbits([rng.next(), rng.next(), rng.next(), rng.next()]))
            .collect();
        const CASES: usize = 8;
        if pixel {
            // Per case, a value for every input register; each module gets
            // the registers it declares at its own Locations.
            let values: Vec<BTreeMap<String, [f32; 4]>> = (0..CASES)
                .map(|_| {
                    (0..10)
                        .flat_map(|n| [format!("t{n}"), format!("v{n}")])
                        .map(|r| (r, [rng.unit(), rng.unit(), rng.unit(), rng.unit() + 1.0]))
                        .collect()
                })
                .collect();
            let their_inputs: Vec<(u32, String)> = input_locations(&theirs)
                .into_iter()
                .map(|l| {
                    let reg = if sm3 {
                        format!("v{l}")
                    } else if l >= 8 {
                        format!("v{}", l - 8)
                    } else {
                        format!("t{l}")
                    };
                    (l, reg)
                })
                .collect();
            let our_inputs: Vec<(u32, String)> = slots
                .iter()
                .filter(|s| !s.register.starts_with('o'))
                .filter_map(|s| s.ours.map(|l| (l, s.register.clone())))
                .collect();
            let job = |which: bool| FragmentJob {
                env: constants.clone(),
                textures: textures.clone(),
                // nvp4c's b# words and D3D9 state block, all zero (vkd3d's
                // bump matrix is a specialization constant, 0 by default).
                buffers: if which { zero_buffers() } else { Vec::new() },
                ..FragmentJob::new(
                    values
                        .iter()
                        .map(|case| {
                            let regs = if which { &our_inputs } else { &their_inputs };
                            regs.iter()
                                .map(|(l, r)| Input::float(*l, case[r]))
                                .collect()
                        })
                        .collect(),
                )
            };
            let a = dev
                .run_fragment(&ours.spirv, &job(true))
                .unwrap_or_else(|e| panic!("{name}: nvp4c's module: {e:?}"));
            let b = dev
                .run_fragment(&theirs, &job(false))
                .unwrap_or_else(|e| panic!("{name}: vkd3d's module: {e:?}"));
            for (&loc, _) in a.colors.iter() {
                if !b.colors.contains_key(&loc) {
                    continue;
                }
                for (k, case_values) in values.iter().enumerate() {
                    let (mut x, y) = (a.color_f32(k, loc), b.color_f32(k, loc));
                    // vkd3d saturates the ps_1_x colour (r0) as a fixed-point
                    // render target would; nvp4c leaves that to the target
                    // (docs/semantics.md), so compare what such a target holds.
                    if v.is_sm1() {
                        x = x.map(|c| c.clamp(0.0, 1.0));
                    }
                    if a.killed(k) != b.killed(k) {
                        failures.push(format!(
                            "{name} case {k}: killed {} here, {} in vkd3d's",
                            a.killed(k),
                            b.killed(k)
                        ));
                        continue;
                    }
                    if a.killed(k) {
                        continue;
                    }
                    let reg = format!("oC{loc}");
                    if !agree(x, y, 0xf) && !deviation(&name, &reg) {
                        failures.push(format!(
                            "{name} case {k} {reg}: {x:?} here, {y:?} in vkd3d's (inputs {:?})",
                            case_values
                                .iter()
                                .filter(|(r, _)| our_inputs.iter().any(|(_, o)| o == *r))
                                .collect::<Vec<_>>()
                        ));
                    }
                }
            }
        } else {
            let attributes: Vec<Vec<Input>> = (0..CASES)
                .map(|_| {
                    (0..16u32)
                        .filter(|n| slots.iter().any(|s| s.register == format!("v{n}")))
                        // Non-negative: a negative blend index or mova
                        // source addresses outside the constant file,
                        // which Direct3D leaves undefined.
                        .map(|n| {
                            Input::float(
                                n,
                                [
                                    rng.next().abs(),
                                    rng.next().abs(),
                                    rng.next().abs(),
                                    rng.next().abs(),
                                ],
                            )
                        })
                        .collect()
                })
                .collect();
            let outputs: Vec<&Slot> = slots
                .iter()
                .filter(|s| s.register.starts_with('o'))
                .collect();
            let capture = |which: bool| -> Vec<Capture> {
                let mut c = vec![Capture::Position];
                c.extend(outputs.iter().filter_map(|s| {
                    (if which { s.ours } else { s.theirs }).map(Capture::Location)
                }));
                c
            };
            let job = |which: bool| VertexJob {
                env: constants.clone(),
                textures: textures.clone(),
                buffers: if which { zero_buffers() } else { Vec::new() },
                ..VertexJob::new(attributes.clone(), capture(which))
            };
            let a = dev
                .run_vertex(&ours.spirv, &job(true))
                .unwrap_or_else(|e| panic!("{name}: nvp4c's module: {e:?}"));
            let b = dev
                .run_vertex(&theirs, &job(false))
                .unwrap_or_else(|e| panic!("{name}: vkd3d's module: {e:?}"));
            for (k, case_attributes) in attributes.iter().enumerate() {
                let (x, y) = (a.position_f32(k), b.position_f32(k));
                if !agree(x, y, 0xf) && !deviation(&name, "position") {
                    failures.push(format!(
                        "{name} vertex {k} position: {x:?} here, {y:?} in vkd3d's (inputs {:?})",
                        case_attributes
                    ));
                }
                for s in &outputs {
                    let (Some(l1), Some(l2)) = (s.ours, s.theirs) else {
                        continue;
                    };
                    let (x, y) = (a.location_f32(k, l1), b.location_f32(k, l2));
                    if !agree(x, y, s.mask) && !deviation(&name, &s.register) {
                        failures.push(format!(
                            "{name} vertex {k} {}: {x:?} here, {y:?} in vkd3d's (inputs {:?})",
                            s.register, case_attributes
                        ));
                    }
                }
            }
        }
        compared += 1;
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for (f, r, why) in VKD3D_DEVIATIONS {
        let seen = SEEN.with(|s| s.borrow().contains(&(f.to_string(), r.to_string())));
        assert!(
            seen,
            "{f} {r} agrees with vkd3d now; remove the deviation ({why})"
        );
    }
    assert!(compared >= 30, "only {compared} fixtures compared");
}

/// The Locations of a module's inputs.
fn input_locations(module: &[u32]) -> Vec<u32> {
    let m = rspirv::dr::load_words(module).unwrap();
    let inputs: Vec<u32> = m
        .types_global_values
        .iter()
        .filter(|i| {
            i.class.opcode == Op::Variable
                && i.operands.first() == Some(&Operand::StorageClass(StorageClass::Input))
        })
        .filter_map(|i| i.result_id)
        .collect();
    m.annotations
        .iter()
        .filter_map(|i| match i.operands.as_slice() {
            [Operand::IdRef(id), Operand::Decoration(Decoration::Location), Operand::LiteralBit32(l)] if inputs.contains(id) => Some(*l),
            _ => None,
        })
        .collect()
}

fn zero_buffers() -> Vec<(u32, Vec<[u32; 4]>)> {
    vec![(0, vec![[0; 4]; 4]), (1, vec![[0; 4]; 17])]
}

thread_local! {
    static SEEN: std::cell::RefCell<std::collections::BTreeSet<(String, String)>> = Default::default();
}

/// Whether a disagreement is a listed vkd3d deviation (and notes it seen).
fn deviation(fixture: &str, register: &str) -> bool {
    let listed = VKD3D_DEVIATIONS
        .iter()
        .any(|(f, r, _)| fixture == *f && *r == register);
    if listed {
        SEEN.with(|s| {
            s.borrow_mut()
                .insert((fixture.to_string(), register.to_string()))
        });
    }
    listed
}

fn agree(a: [f32; 4], b: [f32; 4], mask: u8) -> bool {
    (0..4).filter(|c| mask & (1 << c) != 0).all(|c| {
        let (x, y) = (a[c], b[c]);
        x.to_bits() == y.to_bits()
            || (x.is_nan() && y.is_nan())
            || (x - y).abs() <= 1e-4 * x.abs().max(y.abs()).max(1.0)
    })
}

fn parse_register(name: &str) -> Option<decode::Register> {
    let split = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    let (prefix, digits) = name.split_at(split);
    let num = digits.parse().unwrap_or(0);
    let ty = match prefix {
        "v" => RegType::Input,
        "t" => RegType::Texture,
        "o" => RegType::Output,
        "oT" => RegType::TexCrdOut,
        "oD" => RegType::AttrOut,
        "oFog" => {
            return Some(decode::Register {
                ty: RegType::RastOut,
                num: 1,
            })
        }
        "oPos" | "oPts" | "vPos" | "vFace" => return None,
        _ => return None,
    };
    Some(decode::Register { ty, num })
}

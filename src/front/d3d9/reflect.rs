//! What the reflection adds for a Direct3D 9 shader (docs/reflection.md,
//! "Direct3D 9"): the version, the CTAB constant table, each declared
//! register with its semantic and the Location or built-in it became, the
//! samplers with their declared texture types, the constants the shader
//! defines itself; and Direct3D 9 names on the generic facts (`c5` instead
//! of `program.env[5]`, the CTAB names as the parameters' names).

use serde::{Deserialize, Serialize};

use super::check::Analysis;
use super::ctab::{self, ConstantTable, RegisterSet};
use super::decode::Shader;
use super::lower::{varying_slot, Varying};
use super::table::{RegType, SamplerType, Version};
use crate::reflect::{BuiltIn, CgName, Reflection};

/// The Direct3D 9 part of a shader's reflection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct D3d9Reflection {
    /// `vs_3_0`, `ps_2_x`, ...
    pub version: String,
    /// The CTAB constant table, when the shader has one.
    pub constant_table: Option<ConstantTable>,
    /// Declared inputs and outputs (and the fixed output registers of
    /// vs_1_1-2_x, the colour and texture inputs of ps_1_x-2_x).
    pub registers: Vec<D3d9Register>,
    /// Samplers (`s#`, or ps_1_x texture stages) and their texture types.
    pub samplers: Vec<D3d9Sampler>,
    /// Constant registers the shader defines (`def`, `defi`, `defb`): their
    /// block elements are not read; the shader's values win.
    pub defined_constants: Vec<String>,
}

/// Whether a register is read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Read by the shader (`v#`, `t#`, `vPos`).
    Input,
    /// Written by the shader (`o#`, `oPos`, `oT#`, `oD#`).
    Output,
}

/// One input or output register.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct D3d9Register {
    /// `v0`, `o3`, `oT1`, `oPos`, `t0`, `vPos`.
    pub register: String,
    /// `input` or `output`.
    pub direction: Direction,
    /// The usage, e.g. `texcoord`, and its index; `None` where the register
    /// has a fixed meaning.
    pub usage: Option<String>,
    /// The usage index.
    pub usage_index: u8,
    /// The declared components, e.g. `xy`.
    pub mask: String,
    /// The Location it is at (varyings, vertex inputs).
    pub location: Option<u32>,
    /// The SPIR-V built-in it is (`Position`, `PointSize`, `FragCoord`,
    /// `FrontFacing`).
    pub built_in: Option<BuiltIn>,
}

/// One sampler.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct D3d9Sampler {
    /// `s0` (or the ps_1_x stage, `t0`).
    pub register: String,
    /// `2d`, `cube`, `volume`, `1d`.
    pub texture_type: SamplerType,
    /// The texture unit (`texture[unit]`: binding 32 + unit by default).
    pub unit: u32,
    /// The CTAB name.
    pub name: Option<String>,
}

fn mask_text(m: u8) -> String {
    ['x', 'y', 'z', 'w']
        .iter()
        .enumerate()
        .filter(|(c, _)| m & (1 << c) != 0)
        .map(|(_, l)| *l)
        .collect()
}

fn varying_location(v: Varying) -> (Option<u32>, Option<BuiltIn>) {
    match v {
        Varying::Position => (None, Some(BuiltIn::Position)),
        Varying::PointSize => (None, Some(BuiltIn::PointSize)),
        Varying::Color(n) => (Some(u32::from(n)), None),
        Varying::Fog => (Some(4), None),
        Varying::TexCoord(n) => (Some(5 + n), None),
        Varying::Generic(n) => (Some(14 + n), None),
    }
}

/// Adds the Direct3D 9 facts and names to a shader's reflection.
pub fn annotate(reflection: &mut Reflection, shader: &Shader, analysis: &Analysis) {
    let Some(version) = shader.version else {
        return;
    };
    let table = shader
        .comments
        .iter()
        .find_map(|c| ctab::parse(&c.data).and_then(Result::ok));
    let lookup = |set: RegisterSet, n: u32| -> Vec<CgName> {
        let Some(t) = &table else { return Vec::new() };
        t.constants
            .iter()
            .filter(|c| c.set == set && (c.index..c.index + c.count.max(1)).contains(&n))
            .map(|c| CgName {
                name: c.name.clone(),
                ty: c.ty.clone(),
                row: (c.count > 1).then_some(n - c.index),
            })
            .collect()
    };
    // The blocks by what they hold (their bindings follow the layout's
    // uniform_binding): c# is program.env, i# program.local, b#
    // program.buffer[0], the Direct3D 9 state program.buffer[1]
    // (docs/interface.md, "Direct3D 9").
    for block in &mut reflection.uniform_blocks {
        let (name, set) = match block.binding_name.as_str() {
            "program.env" => ("c", Some(RegisterSet::Float4)),
            "program.local" => ("i", Some(RegisterSet::Int4)),
            "program.buffer[0]" => ("b", Some(RegisterSet::Bool)),
            "program.buffer[1]" => ("d3d9.state", None),
            _ => continue,
        };
        block.binding_name = name.to_string();
        for p in &mut block.parameters {
            if let Some(set) = set {
                p.binding = format!("{}{}", set.letter(), p.element);
                p.cg = lookup(set, p.element);
            } else {
                p.binding = state_element_name(p.element);
            }
        }
    }
    // c# and i# the layout made push or specialization constants.
    let register = |binding: &str| -> Option<(RegisterSet, u32)> {
        let (set, rest) = if let Some(r) = binding.strip_prefix("program.env[") {
            (RegisterSet::Float4, r)
        } else {
            (RegisterSet::Int4, binding.strip_prefix("program.local[")?)
        };
        Some((set, rest.strip_suffix(']')?.parse().ok()?))
    };
    if let Some(push) = &mut reflection.push_constants {
        for p in &mut push.parameters {
            if let Some((set, n)) = register(&p.binding) {
                p.binding = format!("{}{n}", set.letter());
                p.cg = lookup(set, n);
            }
        }
    }
    for s in &mut reflection.specialization_constants {
        if let Some((set, n)) = register(&s.binding) {
            s.binding = format!("{}{n}", set.letter());
            s.cg = lookup(set, n);
        }
    }
    for t in &mut reflection.textures {
        t.cg = lookup(RegisterSet::Sampler, t.unit);
    }
    let mut registers = Vec::new();
    let name = |r| super::disasm::register_name(r, version);
    for d in &analysis.decls {
        let (direction, varying) = match (d.reg.ty, version.is_vertex()) {
            (RegType::Input, true) => (Direction::Input, None),
            (RegType::Output, _) => (
                Direction::Output,
                d.usage.and_then(|(u, i)| varying_slot(u, i, true, false)),
            ),
            (RegType::Input, false) if version.major >= 3 => (
                Direction::Input,
                d.usage.and_then(|(u, i)| varying_slot(u, i, false, true)),
            ),
            (RegType::Input, false) => (Direction::Input, Some(Varying::Color(d.reg.num as u8))),
            (RegType::Texture, false) => (Direction::Input, Some(Varying::TexCoord(d.reg.num))),
            (RegType::MiscType, _) => (Direction::Input, None),
            _ => continue,
        };
        let (location, built_in) = match (d.reg.ty, varying) {
            (RegType::Input, None) if version.is_vertex() => (Some(d.reg.num), None),
            (RegType::MiscType, _) => (
                None,
                Some(if d.reg.num == 0 {
                    BuiltIn::FragCoord
                } else {
                    BuiltIn::FrontFacing
                }),
            ),
            (_, Some(v)) => varying_location(v),
            _ => (None, None),
        };
        registers.push(D3d9Register {
            register: name(d.reg),
            direction,
            usage: d.usage.map(|(u, _)| u.name().to_string()),
            usage_index: d.usage.map_or(0, |(_, i)| i),
            mask: mask_text(d.mask),
            location,
            built_in,
        });
    }
    // The fixed registers of vertex shaders before 3_0 and ps_1_x inputs.
    let mut fixed = std::collections::BTreeMap::new();
    for inst in &shader.instructions {
        let regs = inst
            .dst
            .iter()
            .map(|d| (d.reg, d.mask, Direction::Output))
            .chain(inst.srcs.iter().map(|s| (s.reg, 0xf, Direction::Input)));
        for (reg, mask, dir) in regs {
            let slot = match (reg.ty, dir) {
                (RegType::RastOut, Direction::Output) => match reg.num {
                    0 => Some(Varying::Position),
                    1 => Some(Varying::Fog),
                    _ => Some(Varying::PointSize),
                },
                (RegType::AttrOut, Direction::Output) => Some(Varying::Color(reg.num as u8)),
                (RegType::TexCrdOut, Direction::Output) => Some(Varying::TexCoord(reg.num)),
                (RegType::Input, Direction::Input) if version.is_pixel() && version.major == 1 => {
                    Some(Varying::Color(reg.num as u8))
                }
                _ => None,
            };
            if let Some(slot) = slot {
                fixed.entry((reg, dir)).or_insert((slot, 0u8)).1 |= mask;
            }
        }
    }
    if version.is_pixel() && version.major == 1 {
        for stage in ps1x_texcoords(shader, version) {
            fixed.insert(
                (
                    super::decode::Register {
                        ty: RegType::Texture,
                        num: stage,
                    },
                    Direction::Input,
                ),
                (Varying::TexCoord(stage), 0xf),
            );
        }
    }
    for ((reg, dir), (slot, mask)) in fixed {
        let (location, built_in) = varying_location(slot);
        registers.push(D3d9Register {
            register: name(reg),
            direction: dir,
            usage: None,
            usage_index: 0,
            mask: mask_text(mask),
            location,
            built_in,
        });
    }
    let samplers = reflection
        .textures
        .iter()
        .map(|t| {
            let declared = analysis
                .decls
                .iter()
                .find(|d| d.reg.ty == RegType::Sampler && d.reg.num == t.unit)
                .map(|d| d.sampler);
            let ty = declared.unwrap_or(match t.target.as_deref() {
                Some("CUBE") => SamplerType::Cube,
                Some("3D") => SamplerType::Volume,
                Some("1D") => SamplerType::T1D,
                _ => SamplerType::T2D,
            });
            D3d9Sampler {
                register: if version.major == 1 {
                    format!("t{}", t.unit)
                } else {
                    format!("s{}", t.unit)
                },
                texture_type: ty,
                unit: t.unit,
                name: t.cg.first().map(|n| n.name.clone()),
            }
        })
        .collect();
    let mut defined_constants: Vec<String> = analysis
        .float_defs
        .keys()
        .map(|n| format!("c{n}"))
        .chain(analysis.int_defs.keys().map(|n| format!("i{n}")))
        .chain(analysis.bool_defs.keys().map(|n| format!("b{n}")))
        .collect();
    defined_constants.sort();
    reflection.d3d9 = Some(D3d9Reflection {
        version: version.name(),
        constant_table: table,
        registers,
        samplers,
        defined_constants,
    });
}

/// The texture coordinate sets a ps_1_x shader reads.
fn ps1x_texcoords(shader: &Shader, version: Version) -> Vec<u32> {
    use super::table::Op;
    let mut out = Vec::new();
    for inst in &shader.instructions {
        let Some(d) = &inst.dst else { continue };
        let stages: Vec<u32> = match inst.form.op {
            Op::Tex
            | Op::TexCoord
            | Op::TexBem
            | Op::TexBemL
            | Op::TexDp3
            | Op::TexDp3Tex
            | Op::TexM3x2Pad
            | Op::TexM3x2Tex
            | Op::TexM3x2Depth
            | Op::TexM3x3Pad
            | Op::TexM3x3
            | Op::TexM3x3Tex
            | Op::TexM3x3Spec
            | Op::TexM3x3VSpec => vec![d.reg.num],
            Op::TexKill if version.level() <= super::table::L1_3 => vec![d.reg.num],
            _ => inst
                .srcs
                .iter()
                .filter(|s| s.reg.ty == RegType::Texture && version.level() == super::table::L1_4)
                .map(|s| s.reg.num)
                .collect(),
        };
        out.extend(stages);
    }
    out.sort();
    out.dedup();
    out
}

fn state_element_name(element: u32) -> String {
    match element {
        e if e < 16 && e % 2 == 0 => format!("bumpenvmat[{}]", e / 2),
        e if e < 16 => format!("bumpenvlscale_loffset[{}]", e / 2),
        16 => "position_offset".to_string(),
        e => format!("element[{e}]"),
    }
}

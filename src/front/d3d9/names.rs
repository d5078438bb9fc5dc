//! Direct3D 9 register names for the interpreter (`nvp4c run shader.pso
//! --set c5=1,2,3,4 --set v0=...`): where a value named as the shader
//! names it goes among [`crate::interp::Inputs`], and what the shader calls
//! each result. The bindings are docs/interface.md's: `c#` is
//! `program.env[#]`, `i#` `program.local[#]`, `b#` word # of
//! `program.buffer[0]`, the D3D9 state block `program.buffer[1]`.
//!
//! ```
//! use nvp4c::front::d3d9::names::{run_input, RunInput};
//! let bytes = nvp4c::front::d3d9::assemble::assemble_bytes(
//!     "ps_3_0\ndcl_texcoord0 v0.xy\ndcl_texcoord1 v0.zw\nadd oC0, v0, c0\n").unwrap();
//! let (program, _) = nvp4c::check_bytes(&bytes, &nvp4c::Options::default()).unwrap();
//! assert_eq!(run_input(&bytes, &program, "c0").unwrap(), vec![RunInput::Binding("program.env[0]".into())]);
//! // v0 packs two semantics: the value goes to both.
//! assert_eq!(run_input(&bytes, &program, "v0").unwrap().len(), 2);
//! assert!(run_input(&bytes, &program, "v1").is_err());
//! ```

use std::collections::BTreeMap;

use super::decode;
use super::lower::{BOOL_BUFFER, POSITION_OFFSET_ELEMENT, STATE_BUFFER};
use super::table::RegType;
use crate::interp;
use crate::ir::{Program, VarKind};

/// Where one named value goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunInput {
    /// A vector under the interpreter's binding name (`program.env[5]`,
    /// `vertex.attrib[0]`, `fragment.texcoord[1]`).
    Binding(String),
    /// Words of a `program.buffer[b]`: the value's components, at most
    /// `count`.
    Words {
        /// The buffer.
        buffer: u32,
        /// Its first word written.
        word: u32,
        /// How many words the value may have.
        count: usize,
    },
}

/// The names [`run_input`] accepts besides the shader's registers.
pub const STATE_NAMES: &str = "bumpenvmat[n] (M00, M01, M10, M11 of stage n), bumpenvl[n] (LSCALE, LOFFSET of stage n), position_offset (x, y)";

/// Where the value named `name` goes: a constant register (`c5`, `i0`,
/// `b3`), an input register (`v0`, `t1`, `vPos`, `vFace`), a ps_3_0 input
/// semantic (`texcoord0`, `color1`), or D3D9 state ([`STATE_NAMES`]).
pub fn run_input(bytes: &[u8], program: &Program, name: &str) -> Result<Vec<RunInput>, String> {
    let name = name.trim();
    let numbered = |prefix: &str| -> Option<u32> {
        let rest = name.strip_prefix(prefix)?;
        (!rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
            .then(|| rest.parse().ok())
            .flatten()
    };
    let indexed = |prefix: &str| -> Option<Result<u32, String>> {
        let rest = name.strip_prefix(prefix)?;
        Some(
            rest.strip_suffix(']')
                .and_then(|n| n.trim().parse::<u32>().ok())
                .filter(|&n| n < 8)
                .ok_or_else(|| format!("`{name}`: expected `{prefix}N]` with N from 0 to 7")),
        )
    };
    if let Some(n) = numbered("c") {
        return Ok(vec![RunInput::Binding(format!("program.env[{n}]"))]);
    }
    if let Some(n) = numbered("i") {
        return Ok(vec![RunInput::Binding(format!("program.local[{n}]"))]);
    }
    if let Some(n) = numbered("b") {
        return Ok(vec![RunInput::Words {
            buffer: BOOL_BUFFER,
            word: n,
            count: 1,
        }]);
    }
    if let Some(n) = indexed("bumpenvmat[") {
        return Ok(vec![RunInput::Words {
            buffer: STATE_BUFFER,
            word: 8 * n?,
            count: 4,
        }]);
    }
    if let Some(n) = indexed("bumpenvl[") {
        return Ok(vec![RunInput::Words {
            buffer: STATE_BUFFER,
            word: 8 * n? + 4,
            count: 2,
        }]);
    }
    if name == "position_offset" {
        return Ok(vec![RunInput::Words {
            buffer: STATE_BUFFER,
            word: 4 * POSITION_OFFSET_ELEMENT,
            count: 2,
        }]);
    }
    // An input variable of that name: v#/t# below ps_3_0 and in vertex
    // shaders, vPos, vFace, ps_3_0's semantics.
    let attribute = |var_name: &str| -> Option<String> {
        program.variables.iter().find_map(|v| match &v.kind {
            VarKind::Attrib(b) if v.name.as_deref() == Some(var_name) => {
                Some(interp::attribute_name(program.stage, &b[0]))
            }
            _ => None,
        })
    };
    if let Some(binding) = attribute(name) {
        return Ok(vec![RunInput::Binding(binding)]);
    }
    // A ps_3_0 input register: every semantic declared on it.
    if let Some(n) = numbered("v") {
        let shader = decode::decode(bytes);
        let bindings: Vec<RunInput> = shader
            .instructions
            .iter()
            .filter_map(|i| {
                let d = i.decl?;
                let r = i.dst.as_ref()?.reg;
                (r.ty == RegType::Input && r.num == n)
                    .then(|| attribute(&format!("{}{}", d.usage.name(), d.index)))
                    .flatten()
            })
            .map(RunInput::Binding)
            .collect();
        if !bindings.is_empty() {
            return Ok(bindings);
        }
    }
    let mut reads: Vec<String> = program
        .variables
        .iter()
        .filter(|v| matches!(v.kind, VarKind::Attrib(_)))
        .filter_map(|v| v.name.clone())
        .collect();
    reads.sort();
    reads.dedup();
    Err(format!(
        "`{name}` is no register the shader reads (it reads {}; constants are c#, i#, b#; state is {STATE_NAMES})",
        if reads.is_empty() {
            "no inputs".to_string()
        } else {
            reads.join(", ")
        }
    ))
}

/// The shader's name of each result, by the interpreter's name for it
/// (`result.color` → `oC0`, `result.texcoord[0]` → `oT0` or `texcoord0`).
pub fn result_names(program: &Program) -> BTreeMap<String, String> {
    program
        .variables
        .iter()
        .filter_map(|v| match &v.kind {
            VarKind::Result(b) => Some((interp::result_name(&b[0]), v.name.clone()?)),
            _ => None,
        })
        .collect()
}

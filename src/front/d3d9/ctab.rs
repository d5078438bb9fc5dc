//! The CTAB constant table compilers put in a comment block: which named
//! constant lives in which registers (D3DXSHADER_CONSTANTTABLE,
//! D3DXSHADER_CONSTANTINFO and D3DXSHADER_TYPEINFO of d3dx9shader.h). The
//! reflection uses it to name `c#`, `i#`, `b#` and `s#`.
//!
//! Layout, offsets in bytes from the start of the table (the word after
//! the `CTAB` FourCC): the header is seven words (size 28, creator string,
//! version, constant count, constant-info offset, flags, target string);
//! each constant info is five words (name, register set and index as two
//! 16-bit halves, register count and a reserved half, type info, default
//! value); a type info is class, type, rows, columns, elements and struct
//! member count as 16-bit halves, then the struct member info offset.
//! Strings are NUL-terminated. Every offset is checked: a damaged table is
//! an `Err`, never a panic.
//!
//! ```
//! // A table with one constant, `float4 tint` in c2.
//! let mut t = vec![0x4241_5443u32, 28, 0, 0xFFFF_0200, 1, 28, 0, 0];
//! t.extend([48, 2 | 2 << 16, 1, 56, 0]);          // name at 48, FLOAT4 set, c2, 1 register
//! t.extend([u32::from_le_bytes(*b"tint"), 0]);     // "tint\0"
//! t.extend([1 | 3 << 16, 1 | 4 << 16, 0, 0]);      // vector, float, 1x4
//! let table = nvp4c::front::d3d9::ctab::parse(&t).unwrap().unwrap();
//! let c = &table.constants[0];
//! assert_eq!((c.name.as_str(), c.index, c.count), ("tint", 2, 1));
//! assert_eq!(c.describe(), "float4 tint: c2");
//! ```

use super::table::Version;

/// Which register file a constant is in (D3DXREGISTER_SET).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RegisterSet {
    /// `b#`.
    Bool,
    /// `i#`.
    Int4,
    /// `c#`.
    Float4,
    /// `s#`.
    Sampler,
}

impl RegisterSet {
    /// The register letter.
    pub fn letter(self) -> char {
        match self {
            RegisterSet::Bool => 'b',
            RegisterSet::Int4 => 'i',
            RegisterSet::Float4 => 'c',
            RegisterSet::Sampler => 's',
        }
    }
}

/// How a matrix constant's registers hold it (D3DXPARAMETER_CLASS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatrixLayout {
    /// Each register holds a row (D3DXPC_MATRIX_ROWS).
    RowMajor,
    /// Each register holds a column (D3DXPC_MATRIX_COLUMNS, HLSL's default).
    ColumnMajor,
}

/// One named constant.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Constant {
    /// The name, e.g. `worldViewProj`.
    pub name: String,
    /// Its register file.
    pub set: RegisterSet,
    /// The first register.
    pub index: u32,
    /// How many registers.
    pub count: u32,
    /// The HLSL type, e.g. `float4x4`, `sampler2D`, `float4[8]`.
    #[serde(rename = "type")]
    pub ty: String,
    /// Matrix layout: rows of the type are registers (`row_major`) or its
    /// columns are (`column_major`, HLSL's default); `None` otherwise.
    pub matrix: Option<MatrixLayout>,
}

impl Constant {
    /// `float4x4 worldViewProj: c0-c3`.
    pub fn describe(&self) -> String {
        let l = self.set.letter();
        let range = if self.count > 1 {
            format!("{l}{}-{l}{}", self.index, self.index + self.count - 1)
        } else {
            format!("{l}{}", self.index)
        };
        format!("{} {}: {range}", self.ty, self.name)
    }
}

/// A parsed constant table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ConstantTable {
    /// The creator string, e.g. `Microsoft (R) HLSL Shader Compiler 9.29.952.3111`.
    pub creator: String,
    /// The target string, e.g. `ps_3_0`.
    pub target: String,
    /// The version word, as the assembler writes it (`vs_3_0`); `None`
    /// when it is no shader version.
    #[serde(with = "version_name")]
    pub version: Option<Version>,
    /// The constants.
    pub constants: Vec<Constant>,
}

/// A version in JSON: its name, which [`super::assemble::parse_version`]
/// reads back.
mod version_name {
    use super::Version;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<Version>, s: S) -> Result<S::Ok, S::Error> {
        v.map(Version::name).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Version>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(name) => super::super::assemble::parse_version(&name)
                .map(Some)
                .ok_or_else(|| serde::de::Error::custom(format!("`{name}` is no shader version"))),
        }
    }
}

/// The CTAB FourCC, `CTAB` little-endian.
pub const FOURCC: u32 = 0x4241_5443;

/// Parses a comment block's words: `None` if it is no CTAB.
pub fn parse(data: &[u32]) -> Option<Result<ConstantTable, String>> {
    if data.first() != Some(&FOURCC) {
        return None;
    }
    let bytes: Vec<u8> = data[1..].iter().flat_map(|w| w.to_le_bytes()).collect();
    Some(parse_table(&bytes))
}

fn word(b: &[u8], at: usize) -> Result<u32, String> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| format!("offset {at} is past the table's {} bytes", b.len()))
}

fn half(b: &[u8], at: usize) -> Result<u16, String> {
    b.get(at..at + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| format!("offset {at} is past the table's {} bytes", b.len()))
}

fn string(b: &[u8], at: u32) -> Result<String, String> {
    let at = at as usize;
    let rest = b
        .get(at..)
        .ok_or_else(|| format!("string offset {at} is past the table's {} bytes", b.len()))?;
    let end = rest
        .iter()
        .position(|&c| c == 0)
        .ok_or_else(|| format!("the string at offset {at} has no terminating NUL"))?;
    Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
}

fn parse_table(b: &[u8]) -> Result<ConstantTable, String> {
    let size = word(b, 0)?;
    if size < 28 {
        return Err(format!("the header size is {size}, not 28"));
    }
    let creator = word(b, 4)?;
    let version = Version::from_token(word(b, 8)?);
    let count = word(b, 12)?;
    let info = word(b, 16)? as usize;
    let target = word(b, 24)?;
    if (count as usize).saturating_mul(20) > b.len() {
        return Err(format!("{count} constants cannot fit in {} bytes", b.len()));
    }
    let mut constants = Vec::with_capacity(count as usize);
    for k in 0..count as usize {
        let at = info + 20 * k;
        let name = string(b, word(b, at)?)?;
        let set = match half(b, at + 4)? {
            0 => RegisterSet::Bool,
            1 => RegisterSet::Int4,
            2 => RegisterSet::Float4,
            3 => RegisterSet::Sampler,
            s => return Err(format!("constant `{name}` has register set {s}")),
        };
        let index = u32::from(half(b, at + 6)?);
        let regs = u32::from(half(b, at + 8)?);
        let (ty, matrix) = type_name(b, word(b, at + 12)? as usize, 0)?;
        constants.push(Constant {
            name,
            set,
            index,
            count: regs,
            ty,
            matrix,
        });
    }
    Ok(ConstantTable {
        creator: if creator == 0 {
            String::new()
        } else {
            string(b, creator)?
        },
        target: if target == 0 {
            String::new()
        } else {
            string(b, target)?
        },
        version,
        constants,
    })
}

/// The HLSL spelling of a D3DXSHADER_TYPEINFO, and the matrix layout.
fn type_name(b: &[u8], at: usize, depth: u32) -> Result<(String, Option<MatrixLayout>), String> {
    if depth > 8 {
        return Err("struct types nest deeper than 8".to_string());
    }
    let class = half(b, at)?;
    let ty = half(b, at + 2)?;
    let rows = half(b, at + 4)?;
    let columns = half(b, at + 6)?;
    let elements = half(b, at + 8)?;
    let members = half(b, at + 10)?;
    let member_info = word(b, at + 12)? as usize;
    let scalar = match ty {
        0 => "void",
        1 => "bool",
        2 => "int",
        3 => "float",
        4 => "string",
        5 => "texture",
        6 => "texture1D",
        7 => "texture2D",
        8 => "texture3D",
        9 => "textureCUBE",
        10 => "sampler",
        11 => "sampler1D",
        12 => "sampler2D",
        13 => "sampler3D",
        14 => "samplerCUBE",
        _ => "unknown",
    };
    let (mut name, matrix) = match class {
        0 => (scalar.to_string(), None),
        1 => (format!("{scalar}{columns}"), None),
        2 => (
            format!("{scalar}{rows}x{columns}"),
            Some(MatrixLayout::RowMajor),
        ),
        3 => (
            format!("{scalar}{rows}x{columns}"),
            Some(MatrixLayout::ColumnMajor),
        ),
        5 => {
            let mut fields = Vec::new();
            for m in 0..usize::from(members) {
                let field = member_info + 8 * m;
                let field_name = string(b, word(b, field)?)?;
                let (field_ty, _) = type_name(b, word(b, field + 4)? as usize, depth + 1)?;
                fields.push(format!("{field_ty} {field_name};"));
            }
            (format!("struct {{ {} }}", fields.join(" ")), None)
        }
        _ => (scalar.to_string(), None),
    };
    if elements > 1 {
        name.push_str(&format!("[{elements}]"));
    }
    Ok((name, matrix))
}

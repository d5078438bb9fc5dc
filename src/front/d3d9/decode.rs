//! Tokens to instructions: the version token, instruction tokens (with the
//! length field from shader model 2, from the table in shader model 1),
//! destination, source, relative-address and predicate tokens, `dcl` and
//! `def*` forms, comment blocks anywhere, and the end token
//! (ddk-shader-code-format.md; FACTS-d3d9-token-values.md §1-§9). Every
//! instruction keeps its byte range, every parameter its byte offset, so
//! diagnostics can say where a problem is in the file.
//!
//! Decoding never fails outright: problems are collected as
//! [`DecodeError`]s and decoding goes on where the stream still makes
//! sense (a shader model 1 instruction of unknown length, or a token that
//! is no instruction token, ends it).
//!
//! ```
//! use nvp4c::front::d3d9::{decode, table::{Op, RegType}};
//! // ps_2_0: add_pp r0, r0, c1.x (FACTS §11)
//! let words = [0xFFFF_0200, 0x0300_0002, 0x802F_0000, 0x80E4_0000, 0xA000_0001, 0x0000_FFFF];
//! let bytes: Vec<u8> = words.iter().flat_map(|w: &u32| w.to_le_bytes()).collect();
//! let shader = decode::decode(&bytes);
//! assert!(shader.errors.is_empty());
//! let add = &shader.instructions[0];
//! assert_eq!((add.form.op, add.offset, add.len), (Op::Add, 4, 16));
//! let dst = add.dst.as_ref().unwrap();
//! assert!(dst.pp && !dst.sat);
//! assert_eq!((add.srcs[1].reg.ty, add.srcs[1].reg.num, add.srcs[1].swizzle), (RegType::Const, 1, [0; 4]));
//! ```

use super::table::{self, Comparison, Form, RegType, SamplerType, Shape, SrcMod, Usage, Version};

/// A register: its type and number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Register {
    /// The register file.
    pub ty: RegType,
    /// The number (for `c#`, 0-8191 across CONST-CONST4).
    pub num: u32,
}

/// A relative address: `[a0.x]`, `[aL]` (with the destination or source
/// register number as the offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelAddr {
    /// `a0` or `aL`.
    pub reg: Register,
    /// The component of `a0` (the first of the token's swizzle).
    pub component: u8,
    /// Byte offset of the address token; `None` in vs_1_1, where `a0.x` is
    /// implied.
    pub offset: Option<usize>,
    /// The raw address token (0 when implied).
    pub token: u32,
}

/// A destination parameter (FACTS §3).
#[derive(Clone, Debug, PartialEq)]
pub struct Dst {
    /// The register written.
    pub reg: Register,
    /// Write mask, bit i = component i.
    pub mask: u8,
    /// `_sat`.
    pub sat: bool,
    /// `_pp`.
    pub pp: bool,
    /// `_centroid` (declarations).
    pub centroid: bool,
    /// ps_1_x result shift: 1 `_x2`, 2 `_x4`, 3 `_x8`, -1 `_d2`, -2 `_d4`,
    /// -3 `_d8` (others are invalid; the checker reports them).
    pub shift: i8,
    /// Relative addressing (vs_3_0 `o[aL + n]`).
    pub rel: Option<RelAddr>,
    /// The raw token.
    pub token: u32,
    /// Its byte offset.
    pub offset: usize,
}

/// A source parameter (FACTS §4), also the predicate and label tokens.
#[derive(Clone, Debug, PartialEq)]
pub struct Src {
    /// The register read.
    pub reg: Register,
    /// Component selected for x, y, z, w.
    pub swizzle: [u8; 4],
    /// Source modifier.
    pub modifier: SrcMod,
    /// Relative addressing.
    pub rel: Option<RelAddr>,
    /// The raw token.
    pub token: u32,
    /// Its byte offset.
    pub offset: usize,
}

/// What a `dcl` declares (FACTS §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decl {
    /// Usage (inputs and vs_3_0 outputs).
    pub usage: Usage,
    /// Usage index.
    pub index: u8,
    /// Texture type (samplers).
    pub sampler: SamplerType,
    /// The raw declaration token.
    pub token: u32,
}

/// One instruction with its parameters.
#[derive(Clone, Debug)]
pub struct Instruction {
    /// What the opcode is in this version (or, for an opcode the version
    /// lacks, the closest version's form; the checker reports it).
    pub form: &'static Form,
    /// The instruction token.
    pub token: u32,
    /// Byte offset of the instruction token.
    pub offset: usize,
    /// Bytes of the whole instruction.
    pub len: usize,
    /// Bits 16-23.
    pub control: u32,
    /// Bit 30: ps_1_x co-issue (`+`).
    pub coissue: bool,
    /// The destination.
    pub dst: Option<Dst>,
    /// The predicate (`(p0.x)`, `(!p0)`), shader model 2 and 3.
    pub predicate: Option<Src>,
    /// The sources.
    pub srcs: Vec<Src>,
    /// `dcl`'s declaration.
    pub decl: Option<Decl>,
    /// `def`/`defi`/`defb`'s raw values.
    pub values: Vec<u32>,
}

impl Instruction {
    /// The comparison of `if_*`, `break_*`, `setp_*`.
    pub fn comparison(&self) -> Option<Comparison> {
        match self.form.control {
            table::Control::Comparison => Comparison::decode(self.control),
            _ => None,
        }
    }
    /// The mnemonic as written: `texldp`, `if_gt`, `setp_ne`, `callnz`.
    pub fn mnemonic(&self) -> String {
        let mut name = self.form.name.to_string();
        match self.form.control {
            table::Control::Comparison => {
                name.push('_');
                name.push_str(self.comparison().map_or("??", |c| c.name()));
            }
            table::Control::TexLd => match self.control {
                1 => name.push('p'),
                2 => name.push('b'),
                _ => {}
            },
            table::Control::None => {}
        }
        name
    }
}

/// A comment block (`0xFFFE` with its length): anywhere in the stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    /// Byte offset of the comment token.
    pub offset: usize,
    /// The comment's words (after the token).
    pub data: Vec<u32>,
    /// Index of the instruction that follows it.
    pub before: usize,
}

impl Comment {
    /// The FourCC of the first word, e.g. `CTAB`, when it is printable.
    pub fn fourcc(&self) -> Option<String> {
        let w = *self.data.first()?;
        let bytes = w.to_le_bytes();
        bytes
            .iter()
            .all(|b| b.is_ascii_graphic())
            .then(|| bytes.iter().map(|&b| b as char).collect())
    }
}

/// Tokens the decoder could not make an instruction of (an unknown
/// opcode skipped by its length, or an instruction cut short by the end of
/// the stream): the listing shows them so diagnostics have a line.
#[derive(Clone, Debug, PartialEq)]
pub struct Skipped {
    /// Byte offset of the first token.
    pub offset: usize,
    /// The tokens.
    pub words: Vec<u32>,
    /// Index of the instruction that follows them.
    pub before: usize,
}

/// A problem in the token stream itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The diagnostic code (E30xx).
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// Byte offset of the token at fault.
    pub offset: usize,
    /// The instruction it belongs to, if any.
    pub instruction: Option<usize>,
    /// The instruction's parameter (0 destination or first, in token
    /// order), if the error is at one.
    pub param: Option<ParamRef>,
}

/// Which parameter of an instruction a problem is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamRef {
    /// The destination.
    Dst,
    /// The predicate.
    Predicate,
    /// Source `i`.
    Src(usize),
    /// `dcl`'s declaration token.
    Decl,
}

/// A decoded shader.
#[derive(Clone, Debug)]
pub struct Shader {
    /// From the version token; `None` when the stream does not start with
    /// one.
    pub version: Option<Version>,
    /// The instructions in order.
    pub instructions: Vec<Instruction>,
    /// The comment blocks.
    pub comments: Vec<Comment>,
    /// Tokens that are no instruction.
    pub skipped: Vec<Skipped>,
    /// Byte offset of the end token, if there is one.
    pub end: Option<usize>,
    /// Bytes after the end token.
    pub trailing: usize,
    /// Problems of the stream.
    pub errors: Vec<DecodeError>,
}

/// Whether `bytes` start with a Direct3D 9 version token (0xFFFE or
/// 0xFFFF in the high half, a major version of 1 to 3): how `nvp4c`
/// recognises a shader file by its content.
///
/// ```
/// assert!(nvp4c::front::d3d9::decode::is_d3d9(&[0x00, 0x02, 0xFF, 0xFF]));
/// assert!(!nvp4c::front::d3d9::decode::is_d3d9(b"!!NVfp4.0"));
/// ```
pub fn is_d3d9(bytes: &[u8]) -> bool {
    let Some(word) = bytes.get(..4) else {
        return false;
    };
    let token = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
    Version::from_token(token).is_some_and(|v| (1..=3).contains(&v.major))
}

/// Decodes a shader; see the module documentation.
pub fn decode(bytes: &[u8]) -> Shader {
    let mut d = Decoder {
        words: bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        shader: Shader {
            version: None,
            instructions: Vec::new(),
            comments: Vec::new(),
            skipped: Vec::new(),
            end: None,
            trailing: 0,
            errors: Vec::new(),
        },
    };
    if !bytes.len().is_multiple_of(4) {
        d.error(
            "E3002",
            format!(
                "the shader is {} bytes, not a whole number of 32-bit tokens",
                bytes.len()
            ),
            bytes.len() / 4 * 4,
        );
    }
    d.run();
    d.shader
}

struct Decoder {
    words: Vec<u32>,
    shader: Shader,
}

/// Why the parameters of one instruction could not be read.
struct Truncated;

impl Decoder {
    fn error(&mut self, code: &'static str, message: String, offset: usize) {
        self.shader.errors.push(DecodeError {
            code,
            message,
            offset,
            instruction: None,
            param: None,
        });
    }

    fn skip(&mut self, from: usize, to: usize) {
        let to = to.min(self.words.len());
        if from < to {
            self.shader.skipped.push(Skipped {
                offset: from * 4,
                words: self.words[from..to].to_vec(),
                before: self.shader.instructions.len(),
            });
        }
    }

    fn run(&mut self) {
        let Some(&first) = self.words.first() else {
            self.error("E3000", "the file is empty: no version token".into(), 0);
            return;
        };
        let Some(version) = Version::from_token(first) else {
            self.error(
                "E3000",
                format!("{first:#010x} is not a version token (0xFFFEmmnn for a vertex shader, 0xFFFFmmnn for a pixel shader)"),
                0,
            );
            return;
        };
        self.shader.version = Some(version);
        if !version.is_supported() {
            self.error(
                "E3001",
                format!(
                    "{} is not a Direct3D 9 shader version",
                    version_text(version)
                ),
                0,
            );
            return;
        }
        let mut pos = 1;
        loop {
            let Some(&token) = self.words.get(pos) else {
                self.error(
                    "E3002",
                    "the shader ends without an end token (0x0000FFFF)".into(),
                    pos * 4,
                );
                return;
            };
            if token == table::END {
                self.shader.end = Some(pos * 4);
                self.shader.trailing = (self.words.len() - pos - 1) * 4;
                return;
            }
            let opcode = (token & 0xffff) as u16;
            if opcode == table::COMMENT {
                let len = ((token >> 16) & 0x7fff) as usize;
                if token & 0x8000_0000 != 0 {
                    self.error(
                        "E3005",
                        format!("comment token {token:#010x} has bit 31 set"),
                        pos * 4,
                    );
                }
                let end = pos + 1 + len;
                if end > self.words.len() {
                    self.error(
                        "E3002",
                        format!(
                            "the comment block claims {len} tokens but only {} remain",
                            self.words.len() - pos - 1
                        ),
                        pos * 4,
                    );
                    return;
                }
                self.shader.comments.push(Comment {
                    offset: pos * 4,
                    data: self.words[pos + 1..end].to_vec(),
                    before: self.shader.instructions.len(),
                });
                pos = end;
                continue;
            }
            if token & 0x8000_0000 != 0 {
                self.error(
                    "E3005",
                    format!("expected an instruction token, found {token:#010x} (bit 31 marks a parameter token)"),
                    pos * 4,
                );
                self.skip(pos, self.words.len());
                return;
            }
            let Some(form) = table::any_form(opcode, version) else {
                let sm2_length = (token >> 24) & 0xf;
                self.error(
                    "E3003",
                    format!("unknown opcode {opcode:#06x} in instruction token {token:#010x}"),
                    pos * 4,
                );
                if version.is_sm1() {
                    // Shader model 1 instructions carry no length: the rest
                    // cannot be found.
                    self.skip(pos, self.words.len());
                    return;
                }
                let next = (pos + 1 + sm2_length as usize).min(self.words.len());
                self.skip(pos, next);
                pos = next;
                continue;
            };
            match self.instruction(pos, token, form, version) {
                Ok(next) => pos = next,
                Err(Truncated) => return,
            }
        }
    }

    /// Decodes the instruction at `pos`; the position after it.
    fn instruction(
        &mut self,
        pos: usize,
        token: u32,
        form: &'static Form,
        version: Version,
    ) -> Result<usize, Truncated> {
        let index = self.shader.instructions.len();
        let sm1 = version.is_sm1();
        let declared_len = ((token >> 24) & 0xf) as usize;
        let mut r = Reader {
            words: &self.words,
            pos: pos + 1,
            limit: if sm1 {
                self.words.len()
            } else {
                (pos + 1 + declared_len).min(self.words.len())
            },
            version,
            errors: Vec::new(),
        };
        let mut inst = Instruction {
            form,
            token,
            offset: pos * 4,
            len: 0,
            control: (token >> 16) & 0xff,
            coissue: token & 0x4000_0000 != 0,
            dst: None,
            predicate: None,
            srcs: Vec::new(),
            decl: None,
            values: Vec::new(),
        };
        let predicated = token & 0x1000_0000 != 0;
        let result = (|| -> Result<(), ()> {
            if form.shape == Shape::Dcl {
                let t = r.next()?;
                let dst_peek = r.peek()?;
                let dst_ty = ((dst_peek >> 28) & 7) | ((dst_peek >> 8) & 0x18);
                let is_sampler = RegType::decode(dst_ty, version) == Some((RegType::Sampler, 0));
                inst.decl = Some(r.decl(t, is_sampler));
            }
            if form.dst.is_some() {
                inst.dst = Some(r.dst()?);
            }
            if let Shape::Def(n) = form.shape {
                for _ in 0..n {
                    inst.values.push(r.next()?);
                }
            }
            if predicated && !sm1 {
                inst.predicate = Some(r.src(ParamRef::Predicate)?);
            }
            for i in 0..form.srcs.len() {
                inst.srcs.push(r.src(ParamRef::Src(i))?);
            }
            Ok(())
        })();
        let errors = std::mem::take(&mut r.errors);
        let consumed = r.pos - (pos + 1);
        for (message, offset, param) in errors {
            self.shader.errors.push(DecodeError {
                code: "E3005",
                message,
                offset,
                instruction: Some(index),
                param,
            });
        }
        if result.is_err() {
            if sm1 || pos + 1 + declared_len > self.words.len() {
                self.shader.errors.push(DecodeError {
                    code: "E3002",
                    message: format!(
                        "the shader ends inside `{}` (instruction token {token:#010x})",
                        inst.mnemonic()
                    ),
                    offset: pos * 4,
                    instruction: None,
                    param: None,
                });
                self.skip(pos, self.words.len());
                return Err(Truncated);
            }
            self.shader.errors.push(DecodeError {
                code: "E3004",
                message: format!(
                    "instruction token {token:#010x} says {declared_len} parameter tokens follow, but `{}` needs more",
                    inst.mnemonic()
                ),
                offset: pos * 4,
                instruction: None,
                param: None,
            });
            // The length field is all there is to go on.
            self.skip(pos, pos + 1 + declared_len);
            return Ok(pos + 1 + declared_len);
        }
        let next = if sm1 {
            if declared_len != 0 {
                self.shader.errors.push(DecodeError {
                    code: "E3004",
                    message: format!(
                        "instruction token {token:#010x} has a length ({declared_len}) in bits 24-27, which shader model 1 leaves 0"
                    ),
                    offset: pos * 4,
                    instruction: Some(index),
                    param: None,
                });
            }
            r.pos
        } else {
            if consumed != declared_len {
                self.shader.errors.push(DecodeError {
                    code: "E3004",
                    message: format!(
                        "instruction token {token:#010x} says {declared_len} parameter tokens follow, but `{}` has {consumed}",
                        inst.mnemonic()
                    ),
                    offset: pos * 4,
                    instruction: Some(index),
                    param: None,
                });
            }
            pos + 1 + declared_len
        };
        inst.len = (next - pos) * 4;
        self.shader.instructions.push(inst);
        Ok(next)
    }
}

type ParamError = (String, usize, Option<ParamRef>);

struct Reader<'w> {
    words: &'w [u32],
    pos: usize,
    limit: usize,
    version: Version,
    errors: Vec<ParamError>,
}

impl Reader<'_> {
    fn peek(&self) -> Result<u32, ()> {
        if self.pos < self.limit {
            Ok(self.words[self.pos])
        } else {
            Err(())
        }
    }

    fn next(&mut self) -> Result<u32, ()> {
        let w = self.peek()?;
        self.pos += 1;
        Ok(w)
    }

    /// A parameter token: bit 31 must be set.
    fn param(&mut self, what: ParamRef) -> Result<(u32, usize), ()> {
        let offset = self.pos * 4;
        let t = self.next()?;
        if t & 0x8000_0000 == 0 {
            self.errors.push((
                format!("parameter token {t:#010x} does not have bit 31 set"),
                offset,
                Some(what),
            ));
        }
        Ok((t, offset))
    }

    fn register(&mut self, t: u32, offset: usize, what: ParamRef) -> Register {
        let n = ((t >> 28) & 7) | ((t >> 8) & 0x18);
        let num = t & 0x7ff;
        match RegType::decode(n, self.version) {
            Some((ty, base)) => Register {
                ty,
                num: base + num,
            },
            None => {
                self.errors.push((
                    format!("register type {n} in token {t:#010x} is not a register type"),
                    offset,
                    Some(what),
                ));
                Register {
                    ty: RegType::Temp,
                    num,
                }
            }
        }
    }

    /// The address token after a relative-addressed parameter (shader
    /// model 2 and 3), or vs_1_1's implied `a0.x`.
    fn rel(&mut self, what: ParamRef) -> Result<RelAddr, ()> {
        if self.version.is_sm1() {
            return Ok(RelAddr {
                reg: Register {
                    ty: RegType::Addr,
                    num: 0,
                },
                component: 0,
                offset: None,
                token: 0,
            });
        }
        let (t, offset) = self.param(what)?;
        let reg = self.register(t, offset, what);
        Ok(RelAddr {
            reg,
            component: ((t >> 16) & 3) as u8,
            offset: Some(offset),
            token: t,
        })
    }

    fn dst(&mut self) -> Result<Dst, ()> {
        let (t, offset) = self.param(ParamRef::Dst)?;
        let reg = self.register(t, offset, ParamRef::Dst);
        let shift = (((t >> 24) & 0xf) as i8) << 4 >> 4;
        let rel = if t & 0x2000 != 0 {
            Some(self.rel(ParamRef::Dst)?)
        } else {
            None
        };
        Ok(Dst {
            reg,
            mask: ((t >> 16) & 0xf) as u8,
            sat: t & 0x10_0000 != 0,
            pp: t & 0x20_0000 != 0,
            centroid: t & 0x40_0000 != 0,
            shift,
            rel,
            token: t,
            offset,
        })
    }

    fn src(&mut self, what: ParamRef) -> Result<Src, ()> {
        let (t, offset) = self.param(what)?;
        let reg = self.register(t, offset, what);
        let modifier = match SrcMod::decode((t >> 24) & 0xf) {
            Some(m) => m,
            None => {
                self.errors.push((
                    format!(
                        "source modifier {} in token {t:#010x} is not a modifier",
                        (t >> 24) & 0xf
                    ),
                    offset,
                    Some(what),
                ));
                SrcMod::None
            }
        };
        let rel = if t & 0x2000 != 0 {
            Some(self.rel(what)?)
        } else {
            None
        };
        Ok(Src {
            reg,
            swizzle: std::array::from_fn(|i| ((t >> (16 + 2 * i)) & 3) as u8),
            modifier,
            rel,
            token: t,
            offset,
        })
    }

    fn decl(&mut self, t: u32, sampler: bool) -> Decl {
        let offset = (self.pos - 1) * 4;
        if t & 0x8000_0000 == 0 {
            self.errors.push((
                format!("declaration token {t:#010x} does not have bit 31 set"),
                offset,
                Some(ParamRef::Decl),
            ));
        }
        let usage = match Usage::decode(t & 0x1f) {
            Some(u) => u,
            None => {
                self.errors.push((
                    format!(
                        "usage {} in declaration token {t:#010x} is not a D3DDECLUSAGE",
                        t & 0x1f
                    ),
                    offset,
                    Some(ParamRef::Decl),
                ));
                Usage::Position
            }
        };
        let sampler_type = if sampler {
            match SamplerType::decode((t >> 27) & 0xf) {
                Some(s) => s,
                None => {
                    self.errors.push((
                        format!(
                            "texture type {} in declaration token {t:#010x} is not a D3DSAMPLER_TEXTURE_TYPE",
                            (t >> 27) & 0xf
                        ),
                        offset,
                        Some(ParamRef::Decl),
                    ));
                    SamplerType::Unknown
                }
            }
        } else {
            SamplerType::Unknown
        };
        Decl {
            usage,
            index: ((t >> 16) & 0xf) as u8,
            sampler: sampler_type,
            token: t,
        }
    }
}

fn version_text(v: Version) -> String {
    let kind = if v.is_vertex() { "vs" } else { "ps" };
    format!(
        "{kind}_{}_{} (version token {:#010x})",
        v.major,
        v.minor,
        v.token()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::d3d9::table::Op;

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn sm1_lengths_come_from_the_table() {
        // ps_1_1: tex t0 / add r0.rgb, r0, r1 / +mov r0.a, t0 (FACTS §11).
        let s = decode(&bytes(&[
            0xFFFF0101, 0x00000042, 0xB00F0000, 0x00000002, 0x80070000, 0x80E40000, 0x80E40001,
            0x40000001, 0x80080000, 0xB0E40000, 0x0000FFFF,
        ]));
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let ops: Vec<_> = s.instructions.iter().map(|i| i.form.op).collect();
        assert_eq!(ops, [Op::Tex, Op::Add, Op::Mov]);
        assert!(s.instructions[2].coissue);
        assert_eq!(s.end, Some(40));
    }

    #[test]
    fn vs_1_1_relative_addressing_has_no_address_token() {
        let s = decode(&bytes(&[
            0xFFFE0101, 0x00000001, 0x800F0000, 0xA0E42003, 0x0000FFFF,
        ]));
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let src = &s.instructions[0].srcs[0];
        assert_eq!(src.reg.num, 3);
        assert_eq!(src.rel.unwrap().offset, None);
    }

    #[test]
    fn the_predicate_token_follows_the_destination() {
        // ps_3_0: (p0.x) mov r0, c1
        let s = decode(&bytes(&[
            0xFFFF0300, 0x13000001, 0x800F0000, 0xB0001000, 0xA0E40001, 0x0000FFFF,
        ]));
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let i = &s.instructions[0];
        assert_eq!(i.predicate.as_ref().unwrap().reg.ty, RegType::Predicate);
        assert_eq!(i.srcs[0].reg.num, 1);
    }

    #[test]
    fn comments_anywhere_and_a_wrong_length_is_reported() {
        let s = decode(&bytes(&[
            0xFFFF0200, 0x0001FFFE, 0x42415443, 0x02000001, 0x800F0800, 0x80E40000, 0x0000FFFF,
        ]));
        assert_eq!(s.comments.len(), 1);
        assert_eq!(s.comments[0].fourcc().as_deref(), Some("CTAB"));
        assert!(s.errors.is_empty());
        let s = decode(&bytes(&[
            0xFFFF0200, 0x03000001, 0x800F0800, 0x80E40000, 0x80E40000, 0x0000FFFF,
        ]));
        assert_eq!(s.errors[0].code, "E3004");
    }

    #[test]
    fn truncation_is_an_error_not_a_panic() {
        for n in 0..6 {
            let words = [
                0xFFFF0300, 0x13000001, 0x800F0000, 0xB0001000, 0xA0E40001, 0x0000FFFF,
            ];
            let s = decode(&bytes(&words[..n]));
            assert!(!s.errors.is_empty());
        }
    }
}

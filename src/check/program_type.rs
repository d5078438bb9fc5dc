//! The program-type declarations NV_gpu_program5's family adds:
//! `INVOCATIONS` (geometry programs, NV_gpu_program5 2.X.7.Y), `VERTICES_OUT`
//! of tessellation control programs, `TESS_MODE`, `TESS_SPACING`,
//! `TESS_VERTEX_ORDER`, `TESS_POINT_MODE` (NV_tessellation_program5
//! 2.X.7.Y) and `GROUP_SIZE` (NV_compute_program5 2.X.7.Y), each checked
//! against its program type and its "fails to load" rules (E1100-E1103),
//! into the IR's layouts.

use super::{Checker, ProgramText};
use crate::diag::Diagnostic;
use crate::ir;
use crate::isa::{Features, Stage};
use crate::span::Span;
use crate::syntax::ast::LayoutArg;

/// MAX_PATCH_VERTICES_NV: the largest patch (Vulkan's minimum
/// `maxTessellationPatchSize`, and every GL implementation's value).
pub const MAX_PATCH_VERTICES: u32 = 32;
/// MAX_COMPUTE_LOCAL_WORK_SIZE per dimension: Vulkan's minimum
/// `maxComputeWorkGroupSize` (128, 128, 64).
pub const MAX_GROUP_SIZE: [u32; 3] = [128, 128, 64];
/// Vulkan's minimum `maxComputeWorkGroupInvocations`.
pub const MAX_GROUP_INVOCATIONS: u32 = 128;
/// MAX_GEOMETRY_PROGRAM_INVOCATIONS_NV: Vulkan's minimum
/// `maxGeometryShaderInvocations` (32).
pub const MAX_GEOMETRY_INVOCATIONS: u32 = 32;

/// One NV5 declaration as read.
pub(super) struct LayoutDecl {
    pub keyword: &'static str,
    pub keyword_span: Span,
    pub span: Span,
    pub args: Vec<LayoutArg>,
}

/// The program types that take a declaration, and the spec that says so.
fn declared_by(keyword: &str) -> (&'static [Stage], &'static str) {
    match keyword {
        "INVOCATIONS" => (&[Stage::Geometry], "NV_gpu_program5 2.X.7.Y: INVOCATIONS is a geometry program declaration"),
        "TESS_MODE" | "TESS_SPACING" | "TESS_VERTEX_ORDER" | "TESS_POINT_MODE" => (
            &[Stage::TessEval],
            "NV_tessellation_program5 2.X.7.Y: TESS_MODE, TESS_SPACING, TESS_VERTEX_ORDER and TESS_POINT_MODE are tessellation evaluation program declarations",
        ),
        "SHARED_MEMORY" => (&[Stage::Compute], "NV_compute_program5 2.X.7.Y: SHARED_MEMORY is a compute program declaration"),
        _ => (&[Stage::Compute], "NV_compute_program5 2.X.7.Y: GROUP_SIZE is a compute program declaration"),
    }
}

impl Checker<'_> {
    /// Records one NV5 declaration; wrong program types are reported here.
    pub(super) fn layout_declaration(&mut self, decl: LayoutDecl) {
        let (stages, rule) = declared_by(decl.keyword);
        if !stages.contains(&self.stage) || !self.dialect.has(Features::NV5) {
            self.error(
                Diagnostic::error(
                    "E1100",
                    format!("`{}` in a {} program", decl.keyword, self.dialect.header),
                )
                .primary(
                    decl.keyword_span,
                    format!("not a declaration of `{}` programs", self.dialect.header),
                )
                .note(rule),
            );
            return;
        }
        self.layout_decls.push(decl);
    }

    /// The declarations of `keyword`, the second and later reported (E1101:
    /// "Each of these may be included at most once").
    pub(super) fn single(&mut self, keyword: &str) -> Option<(Span, Vec<LayoutArg>)> {
        let found: Vec<(Span, Vec<LayoutArg>)> = self
            .layout_decls
            .iter()
            .filter(|d| d.keyword == keyword)
            .map(|d| (d.span, d.args.clone()))
            .collect();
        for extra in found.iter().skip(1) {
            self.error(
                Diagnostic::error("E1101", format!("`{keyword}` declared twice"))
                    .primary(extra.0, "second declaration")
                    .secondary(found[0].0, "first declaration")
                    .note("NV_tessellation_program5 and NV_compute_program5 2.X.7.Y: a program fails to load with more than one declaration of each kind"),
            );
        }
        found.into_iter().next()
    }

    fn bad_argument(&mut self, span: Span, message: String, rule: &str) {
        self.error(
            Diagnostic::error("E1103", message)
                .primary(span, "this argument")
                .note(rule.to_string()),
        );
    }

    /// A positive integer argument no greater than `max`.
    fn count_argument(
        &mut self,
        arg: &LayoutArg,
        keyword: &str,
        max: u32,
        rule: &str,
    ) -> Option<u32> {
        let value = match arg {
            LayoutArg::Int(n) => n.value(),
            LayoutArg::Word(_) => None,
        };
        match value {
            Some(n) if n >= 1 && n <= u64::from(max) => Some(n as u32),
            _ => {
                self.bad_argument(
                    arg.span(),
                    format!("`{keyword} {}` is not between 1 and {max}", arg.text()),
                    rule,
                );
                None
            }
        }
    }

    fn missing(&mut self, keyword: &str, text: &ProgramText, rule: &str) {
        self.error(
            Diagnostic::error(
                "E1102",
                format!("{} program without `{keyword}`", self.dialect.header),
            )
            .primary(text.header, format!("this {} program", self.stage))
            .secondary(text.end, "program ends here")
            .note(rule.to_string()),
        );
    }

    /// INVOCATIONS of a geometry program: 1 without it.
    pub(super) fn geometry_invocations(&mut self) -> u32 {
        const RULE: &str = "NV_gpu_program5 2.X.7.Y: INVOCATIONS takes a positive count no greater than MAX_GEOMETRY_PROGRAM_INVOCATIONS_NV (32, docs/limits.md)";
        match self.single("INVOCATIONS") {
            Some((_, args)) => self
                .count_argument(&args[0], "INVOCATIONS", MAX_GEOMETRY_INVOCATIONS, RULE)
                .unwrap_or(1),
            None => 1,
        }
    }

    /// A tessellation control program's VERTICES_OUT (read by the geometry
    /// declarations' code, which already reports a second one).
    pub(super) fn tess_control_layout(
        &mut self,
        text: &ProgramText,
        vertices_out: Option<(Span, String)>,
    ) -> Option<ir::TessControlLayout> {
        const RULE: &str = "NV_tessellation_program5 2.X.7.Y: \"The single argument must be a positive integer less than or equal to the value of the implementation-dependent limit MAX_PATCH_VERTICES_NV\" (32, docs/limits.md); \"A program will fail to load unless it contains exactly one VERTICES_OUT declaration.\"";
        let Some((span, text_value)) = vertices_out else {
            self.missing("VERTICES_OUT", text, RULE);
            return None;
        };
        match text_value.parse::<u32>() {
            Ok(n) if (1..=MAX_PATCH_VERTICES).contains(&n) => {
                Some(ir::TessControlLayout { vertices_out: n })
            }
            _ => {
                self.bad_argument(
                    span,
                    format!(
                        "`VERTICES_OUT {text_value}` is not between 1 and {MAX_PATCH_VERTICES}"
                    ),
                    RULE,
                );
                None
            }
        }
    }

    /// A tessellation evaluation program's declarations.
    pub(super) fn tess_eval_layout(&mut self, text: &ProgramText) -> Option<ir::TessEvalLayout> {
        const MODE_RULE: &str = "NV_tessellation_program5 2.X.7.Y: \"The single argument must be \"TRIANGLES\", \"QUADS\", or \"ISOLINES\". A tessellation evaluation program will fail to load if it has no primitive generation mode declaration.\"";
        let mode = match self.single("TESS_MODE") {
            None => {
                self.missing("TESS_MODE", text, MODE_RULE);
                None
            }
            Some((_, args)) => match args[0].text() {
                "TRIANGLES" => Some(ir::TessMode::Triangles),
                "QUADS" => Some(ir::TessMode::Quads),
                "ISOLINES" => Some(ir::TessMode::Isolines),
                other => {
                    self.bad_argument(
                        args[0].span(),
                        format!("unknown tessellation mode `{other}`"),
                        MODE_RULE,
                    );
                    None
                }
            },
        };
        let spacing = match self.single("TESS_SPACING") {
            None => Some(ir::TessSpacing::Equal),
            Some((_, args)) => match args[0].text() {
                "EQUAL" => Some(ir::TessSpacing::Equal),
                "FRACTIONAL_ODD" => Some(ir::TessSpacing::FractionalOdd),
                "FRACTIONAL_EVEN" => Some(ir::TessSpacing::FractionalEven),
                other => {
                    self.bad_argument(args[0].span(), format!("unknown tessellation spacing `{other}`"), "NV_tessellation_program5 2.X.7.Y: \"The single argument must be \"EQUAL\", \"FRACTIONAL_ODD\", or \"FRACTIONAL_EVEN\".\"");
                    None
                }
            },
        };
        let clockwise = match self.single("TESS_VERTEX_ORDER") {
            None => Some(false),
            Some((_, args)) => match args[0].text() {
                "CW" => Some(true),
                "CCW" => Some(false),
                other => {
                    self.bad_argument(args[0].span(), format!("unknown vertex order `{other}`"), "NV_tessellation_program5 2.X.7.Y: \"The single argument must be \"CW\" or \"CCW\".\"");
                    None
                }
            },
        };
        let point_mode = self.single("TESS_POINT_MODE").is_some();
        Some(ir::TessEvalLayout {
            mode: mode?,
            spacing: spacing?,
            clockwise: clockwise?,
            point_mode,
        })
    }

    /// A compute program's GROUP_SIZE.
    pub(super) fn compute_layout(&mut self, text: &ProgramText) -> Option<ir::ComputeLayout> {
        const RULE: &str = "NV_compute_program5 2.X.7.Y: \"The statement must have one to three unsigned integer arguments. Each argument must be less than or equal to the value of the implementation-dependent limit MAX_COMPUTE_LOCAL_WORK_SIZE for its corresponding dimension\" (128, 128, 64 and 128 invocations in all: Vulkan's minimums, docs/limits.md); \"A program will fail to load unless it contains exactly one GROUP_SIZE declaration.\"";
        let Some((span, args)) = self.single("GROUP_SIZE") else {
            self.missing("GROUP_SIZE", text, RULE);
            return None;
        };
        if args.len() > 3 {
            self.bad_argument(
                args[3].span(),
                format!("GROUP_SIZE has {} sizes; at most three", args.len()),
                RULE,
            );
            return None;
        }
        let mut size = [1u32; 3];
        let mut ok = true;
        for (i, arg) in args.iter().enumerate() {
            match self.count_argument(arg, "GROUP_SIZE", MAX_GROUP_SIZE[i], RULE) {
                Some(n) => size[i] = n,
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        let total = size.iter().map(|&n| u64::from(n)).product::<u64>();
        if total > u64::from(MAX_GROUP_INVOCATIONS) {
            self.bad_argument(
                span,
                format!(
                    "GROUP_SIZE {}×{}×{} is {total} invocations; at most {MAX_GROUP_INVOCATIONS}",
                    size[0], size[1], size[2]
                ),
                RULE,
            );
            return None;
        }
        let shared_memory = self.shared_memory_size();
        Some(ir::ComputeLayout {
            group_size: size,
            shared_memory,
        })
    }
}

/// What kind of unit a variable names: texture image units (TEXTURE,
/// NV_gpu_program5 2.X.3.8) or image units (IMAGE,
/// EXT_shader_image_load_store 2.X.3.X). The two declarations have the
/// same grammar and rules, with their own words and codes.
pub(super) struct UnitKind {
    root: crate::syntax::ast::Root,
    /// `texture` or `image`.
    word: &'static str,
    /// Bad binding, array or index.
    code: &'static str,
    /// A unit out of range.
    range_code: &'static str,
    rule: &'static str,
    range_rule: &'static str,
}

pub(super) const TEXTURE_UNITS: UnitKind = UnitKind {
    root: crate::syntax::ast::Root::Texture,
    word: "texture",
    code: "E1104",
    range_code: "E0441",
    rule: "NV_gpu_program5 2.X.3.8: texture variables are bound to `texture[a]` or, in an array, `texture[a..b]`; \"the list of texture image units assigned to the array must increase consecutively\"",
    range_rule: "NV_gpu_program5 2.X.3.8: \"A program will fail to compile if <a> or <b> is negative or greater than or equal to the number of texture image units supported\" (docs/limits.md)",
};

pub(super) const IMAGE_UNITS: UnitKind = UnitKind {
    root: crate::syntax::ast::Root::Image,
    word: "image",
    code: "E1190",
    range_code: "E1191",
    rule: "EXT_shader_image_load_store, NV_gpu_program5 2.X.3.X: image variables are bound to `image[a]` or, in an array, `image[a..b]`; \"the list of image units assigned to the array must increase consecutively\"",
    range_rule: "EXT_shader_image_load_store, NV_gpu_program5 2.X.3.X: \"A program will fail to compile if <a> or <b> is negative or greater than or equal to the number of image units supported, or if <a> is greater than <b>\" (MAX_IMAGE_UNITS: 8, docs/limits.md)",
};

/// MAX_IMAGE_UNITS_EXT: OpenGL's minimum, 8 (docs/limits.md).
pub const MAX_IMAGE_UNITS: u32 = 8;

/// Texture variables (NV_gpu_program5 section 2.X.3.8): `TEXTURE t =
/// texture[n];` or `TEXTURE t[] = { texture[a..b], ... };`, and image
/// variables (EXT_shader_image_load_store 2.X.3.X): `IMAGE i = image[n];`.
/// They name units and are used only as the texture (image) of a texture
/// (image) instruction, so the checker resolves them to units there and
/// the IR keeps only the unit.
impl Checker<'_> {
    pub(super) fn texture_declaration(
        &mut self,
        kind: &UnitKind,
        d: &crate::syntax::ast::Declaration,
        name: &crate::syntax::ast::Ident,
        size: Option<&crate::syntax::ast::ArraySize>,
        init: &crate::syntax::ast::Init,
    ) {
        if self.reserved_name(name) {
            return;
        }
        let known = self.unit_variable_declared(name).is_some();
        let units = self.texture_units(kind, d, name, size, init);
        // A declaration reported as wrong still establishes its name (with
        // no units), so its uses are not reported again.
        if !known {
            let map = if kind.root == crate::syntax::ast::Root::Image {
                &mut self.images
            } else {
                &mut self.textures
            };
            map.insert(name.name.clone(), (units.unwrap_or_default(), name.span));
        }
    }

    /// Where a name was established, if it was (any variable, texture or
    /// image variable).
    fn unit_variable_declared(&self, name: &crate::syntax::ast::Ident) -> Option<Span> {
        self.names
            .get(&name.name)
            .map(|s| s.span)
            .or_else(|| self.textures.get(&name.name).map(|t| t.1))
            .or_else(|| self.images.get(&name.name).map(|t| t.1))
    }

    fn texture_units(
        &mut self,
        kind: &UnitKind,
        d: &crate::syntax::ast::Declaration,
        name: &crate::syntax::ast::Ident,
        size: Option<&crate::syntax::ast::ArraySize>,
        init: &crate::syntax::ast::Init,
    ) -> Option<Vec<u32>> {
        use crate::syntax::ast::{Init, InitItem, PathHead};
        let word = kind.word;
        if let Some(prev) = self.unit_variable_declared(name) {
            self.error(
                Diagnostic::error("E0300", format!("`{}` is declared twice", name.name))
                    .primary(name.span, "declared again here")
                    .secondary(prev, "first declared here")
                    .note("section 2.X.3: each variable name may be established only once"),
            );
            return None;
        }
        let items: Vec<&InitItem> = match init {
            Init::Single(item) => vec![item],
            Init::List(items, _) => items.iter().collect(),
        };
        let not_a_unit = |c: &mut Self, span: Span| {
            c.error(
                Diagnostic::error(
                    kind.code,
                    format!(
                        "{word} variable `{}` bound to something other than `{word}[n]`",
                        name.name
                    ),
                )
                .primary(span, format!("not a {word} unit"))
                .note(kind.rule),
            );
        };
        let mut units = Vec::new();
        for item in items {
            let InitItem::Binding(path) = item else {
                not_a_unit(self, d.span);
                return None;
            };
            if !matches!(path.head, PathHead::Root(r, _) if r == kind.root) {
                not_a_unit(self, path.span);
                return None;
            }
            let mut first_last = None;
            if let [crate::syntax::ast::PathPart::Index(ix, _)] = path.parts.as_slice() {
                match ix {
                    crate::syntax::ast::IndexExpr::Int(n) => {
                        first_last = n.value().map(|v| (v, v));
                    }
                    crate::syntax::ast::IndexExpr::Range(a, b) if size.is_some() => {
                        first_last = a.value().zip(b.value());
                    }
                    _ => {}
                }
            }
            let Some((a, b)) = first_last.filter(|(a, b)| a <= b) else {
                self.error(
                    Diagnostic::error(
                        kind.code,
                        format!(
                            "{word} variable `{}` needs `{word}[n]`{}",
                            name.name,
                            if size.is_some() {
                                format!(" or `{word}[a..b]`")
                            } else {
                                String::new()
                            }
                        ),
                    )
                    .primary(path.span, format!("not a {word} unit or range"))
                    .note(kind.rule),
                );
                return None;
            };
            let max = u64::from(self.unit_limit(kind));
            if b >= max {
                self.error(
                    Diagnostic::error(kind.range_code, format!("{word} unit {b} is out of range"))
                        .primary(path.span, format!("units are 0 to {}", max - 1))
                        .note(kind.range_rule),
                );
                return None;
            }
            for u in a..=b {
                if units.last().is_some_and(|&last: &u32| last + 1 != u as u32) {
                    self.error(
                        Diagnostic::error(
                            kind.code,
                            format!(
                                "the {word} units of `{}` do not increase consecutively",
                                name.name
                            ),
                        )
                        .primary(
                            path.span,
                            format!("{word}[{u}] after {word}[{}]", units.last().unwrap_or(&0)),
                        )
                        .note(kind.rule),
                    );
                    return None;
                }
                units.push(u as u32);
            }
        }
        if let Some(len) = size.and_then(|s| s.len.as_ref()).and_then(|n| n.value()) {
            if len != units.len() as u64 {
                self.error(
                    Diagnostic::error(
                        kind.code,
                        format!(
                            "{word} array `{}[{len}]` is bound to {} units",
                            name.name,
                            units.len()
                        ),
                    )
                    .primary(d.span, "sizes differ")
                    .note(kind.rule),
                );
                return None;
            }
        }
        Some(units)
    }

    /// How many units of the kind there are.
    pub(super) fn unit_limit(&self, kind: &UnitKind) -> u32 {
        if kind.root == crate::syntax::ast::Root::Image {
            MAX_IMAGE_UNITS
        } else {
            self.options.limits.max_texture_units
        }
    }

    /// The unit a texture (image) variable operand names: `t` or `t[n]`
    /// (a constant index; NV_gpu_program5's `<texVarName> <optArrayMem>`,
    /// `<imageVarName> <optArrayMem>`). `None` when the operand is not
    /// such a variable; `Some(None)` when it is and was reported.
    pub(super) fn texture_variable_unit(
        &mut self,
        kind: &UnitKind,
        operand: &crate::syntax::ast::Operand,
    ) -> Option<Option<TextureUse>> {
        use crate::syntax::ast::{IndexExpr, PathHead, PathPart};
        let word = kind.word;
        let PathHead::Name(id) = &operand.path.head else {
            return None;
        };
        let map = if kind.root == crate::syntax::ast::Root::Image {
            &self.images
        } else {
            &self.textures
        };
        let (units, _) = map.get(&id.name)?.clone();
        if units.is_empty() {
            // Its declaration was reported.
            return Some(None);
        }
        let unit = match operand.path.parts.as_slice() {
            [] if units.len() == 1 => Some(TextureUse::Unit(units[0])),
            [PathPart::Index(IndexExpr::Int(n), span)] => match n.value() {
                Some(i) if (i as usize) < units.len() => Some(TextureUse::Unit(units[i as usize])),
                _ => {
                    self.error(
                        Diagnostic::error(
                            kind.code,
                            format!(
                                "`{}[{}]` is past the end of a {word} array of {}",
                                id.name,
                                n.text.as_str(),
                                units.len()
                            ),
                        )
                        .primary(*span, "index out of range")
                        .note(format!(
                            "{}; an array has one element per unit it is bound to",
                            kind.rule
                        )),
                    );
                    None
                }
            },
            // NV_gpu_program5 2.X.2, <texVarName> <optArrayMem>: an
            // index from a register picks the texture unit at run time.
            [PathPart::Index(
                IndexExpr::Relative {
                    register,
                    component,
                    offset,
                },
                span,
            )] => {
                let off = super::instr::relative_offset(offset.as_deref());
                match self.relative_index(
                    register,
                    component,
                    off,
                    *span,
                    units.len() as u32,
                    &id.name,
                ) {
                    Some(crate::ir::Index::Relative { address, offset }) => {
                        Some(TextureUse::Selected {
                            units,
                            address: *address,
                            offset,
                        })
                    }
                    _ => None,
                }
            }
            _ => {
                self.error(
                    Diagnostic::error(
                        kind.code,
                        format!("`{}` needs one index to select a {word} unit", id.name),
                    )
                    .primary(
                        operand.span,
                        format!("a {word} array of {} units", units.len()),
                    )
                    .note(kind.rule),
                );
                None
            }
        };
        Some(unit)
    }
}

/// The texture a texture variable operand names.
pub(super) enum TextureUse {
    /// `t` or `t[n]`: one unit.
    Unit(u32),
    /// `t[A0.x + n]`: one of the array's units, chosen at run time by the
    /// address operand plus the offset.
    Selected {
        units: Vec<u32>,
        address: crate::ir::Operand,
        offset: i32,
    },
}

impl Checker<'_> {
    /// NV_gpu_program5, "Geometry Program Output Primitives": "A program
    /// will fail to load if it contains and EMITS instruction and the output
    /// primitive type specified by the PRIMITIVE_OUT declaration is not
    /// POINTS" (E1142, at each EMITS).
    pub(super) fn emits_needs_points(&mut self, program: &ir::Program) {
        let Some(layout) = program.geometry else {
            return;
        };
        if layout.output == ir::PrimitiveOut::Points {
            return;
        }
        let mut spans = Vec::new();
        for sub in &program.subroutines {
            super::rules::walk(&sub.body, &mut |s| {
                if let ir::Stmt::EmitStream { span, .. } = s {
                    spans.push(*span);
                }
            });
        }
        spans.sort_by_key(|s| s.start);
        spans.dedup();
        for span in spans {
            self.error(
                Diagnostic::error("E1142", "EMITS in a geometry program whose PRIMITIVE_OUT is not POINTS")
                    .primary(span, "emits to a vertex stream")
                    .note("NV_gpu_program5, Geometry Program Output Primitives: \"Geometry programs may write to multiple vertex streams only if the specified output primitive type is POINTS.\""),
            );
        }
    }
}

//! `!!FP1.0` (NV_fragment_program): its fixed registers rewritten into the
//! ARB_fragment_program statements with the same meaning, as the vertex
//! headers are in the parent module.
//!
//! NV_fragment_program_option is this language's instruction set on
//! ARB_fragment_program, so once the registers are bindings and
//! declarations, the ARB checker with that option (and the table's `FP1`
//! column) reads the program:
//!
//! | FP1.0 | ARB form |
//! |---|---|
//! | `R0`–`R31` (fp32) | `LONG TEMP Rn;` |
//! | `H0`–`H63` (fp16) | `SHORT TEMP Hn;` |
//! | `RC`, `HC` (write-only) | `LONG TEMP RC;`, `SHORT TEMP HC;` |
//! | `f[WPOS]`, `f[COL0]`, `f[COL1]`, `f[FOGC]`, `f[TEXn]` | `fragment.position`, `fragment.color`, `fragment.color.secondary`, `fragment.fogcoord`, `fragment.texcoord[n]` |
//! | `o[COLR]`, `o[COLH]` | `result.color` |
//! | `o[DEPR]` | `result.depth` (both take the depth from `.z`) |
//! | `p[n]` | `program.local[n]` |
//! | `TEXn, 2D` (texture unit) | `texture[n], 2D` |
//! | `DEFINE name = c;` | `PARAM name = c;` |
//! | `DECLARE name;` (k-th) | `PARAM name = program.local[64 + k];` |
//!
//! NV_fragment_program's revision 55 notes (Revision History) that "the H
//! and R registers are guaranteed not to overlap": `H0` and `R0` are
//! different registers, so each is its own temporary here.

use super::{binding, register_declaration, rewrite_head};
use crate::diag::Diagnostic;
use crate::isa::Header;
use crate::span::Span;
use crate::syntax::ast::{
    Arg, DeclKind, Declaration, Ident, IndexExpr, Init, InitItem, Operand, Path, PathHead,
    PathPart, Root, Statement, Text, VarModifier,
};
use std::collections::{HashMap, HashSet};

/// NV_fragment_program Table X.1 and the ARB_fragment_program binding of
/// each attribute register: members after `fragment`, and an index.
const ATTRIBUTES: [(&str, &[&str], Option<u32>); 12] = [
    ("WPOS", &["position"], None),
    ("COL0", &["color"], None),
    ("COL1", &["color", "secondary"], None),
    ("FOGC", &["fogcoord"], None),
    ("TEX0", &["texcoord"], Some(0)),
    ("TEX1", &["texcoord"], Some(1)),
    ("TEX2", &["texcoord"], Some(2)),
    ("TEX3", &["texcoord"], Some(3)),
    ("TEX4", &["texcoord"], Some(4)),
    ("TEX5", &["texcoord"], Some(5)),
    ("TEX6", &["texcoord"], Some(6)),
    ("TEX7", &["texcoord"], Some(7)),
];

/// Table X.3: the output registers, their binding after `result`, and how
/// many of the 64 register slots each takes (section 3.11.3: fp32 two,
/// fp16 one).
const OUTPUTS: [(&str, &str, u32); 3] = [
    ("COLR", "color", 2),
    ("COLH", "color", 1),
    ("DEPR", "depth", 2),
];

/// `MAX_FRAGMENT_PROGRAM_LOCAL_PARAMETERS_NV` "must be at least 64"
/// (section 3.11.2): `p[0]`..`p[63]`; the named local parameters of
/// DECLARE follow them in `program.local`.
pub(crate) const NUMBERED_LOCALS: u32 = 64;

/// Section 3.11.3: the limit when ARB_fragment_program's
/// MAX_PROGRAM_INSTRUCTIONS_ARB does not apply.
const MAX_INSTRUCTIONS: usize = 1024;

const REGISTERS_RULE: &str = "NV_fragment_program 3.11.3: <srcRegister> is f[WPOS], f[COL0], f[COL1], f[FOGC], f[TEX0]..f[TEX7], R0..R31 or H0..H63; <dstRegister> R0..R31, H0..H63, o[COLR], o[COLH], o[DEPR], RC or HC; parameters are constants, p[n], or names from DEFINE and DECLARE";

/// A name from DEFINE or DECLARE.
#[derive(Clone, Debug)]
enum Named {
    /// DEFINE: the constant's scalar values as written (for the
    /// one-parameter rule) and its initializer.
    Constant(Vec<f64>, Init),
    /// DECLARE: `program.local[index]`.
    Local(u32),
    /// A DEFINE or DECLARE whose value was refused: its uses are dropped
    /// without a second diagnostic.
    Invalid,
}

/// The rewriter of `!!FP1.0` programs.
pub(crate) struct Fragment {
    declared: HashSet<Text>,
    names: HashMap<Text, Named>,
    declares: u32,
    instructions: usize,
    over_limit: Option<Span>,
    /// First writes of `o[COLR]`, `o[COLH]`, `o[DEPR]`.
    outputs: [Option<Span>; 3],
    /// Register slots taken by temporaries (section 3.11.3's 64), and the
    /// register that went over.
    slots: u32,
    over_slots: Option<Span>,
    /// The target each texture unit is used with.
    targets: HashMap<u32, (Text, Span)>,
}

/// A parameter an instruction reads, for the one-parameter rule.
enum Param {
    Local(String, Span),
    Constant(Vec<f64>, Span),
}

impl Fragment {
    pub(crate) fn new() -> Fragment {
        Fragment {
            declared: HashSet::new(),
            names: HashMap::new(),
            declares: 0,
            instructions: 0,
            over_limit: None,
            outputs: [None; 3],
            slots: 0,
            over_slots: None,
            targets: HashMap::new(),
        }
    }

    pub(crate) fn statement(
        &mut self,
        st: &Statement,
        out: &mut Vec<Statement>,
        diags: &mut Vec<Diagnostic>,
    ) {
        match st {
            Statement::Option(id) => diags.push(not_in_fp1(
                id.span,
                "`OPTION`",
                "the program is the header, instructions, DEFINE and DECLARE statements, and END",
            )),
            Statement::Label(id, _) => diags.push(not_in_fp1(
                id.span,
                "a label",
                "there are no branches or labels",
            )),
            Statement::Error(_) => out.push(st.clone()),
            Statement::Decl(d) => self.declaration(d, out, diags),
            Statement::Instruction(inst) => {
                self.instructions += 1;
                if self.instructions > MAX_INSTRUCTIONS && self.over_limit.is_none() {
                    self.over_limit = Some(inst.span);
                }
                let mut inst = inst.clone();
                let base = inst.opcode.name.split('_').next().unwrap_or("").to_string();
                let kil = base == "KIL";
                let texture =
                    ["TEX", "TEXC", "TXP", "TXPC", "TXD", "TXDC"].contains(&base.as_str());
                // The unit and target are the last two operands before
                // any texel offset (refused below).
                let n = inst
                    .args
                    .iter()
                    .position(|a| matches!(a, Arg::Offset(..)))
                    .unwrap_or(inst.args.len());
                let mut ok = true;
                let mut attribs: Vec<(String, Span)> = Vec::new();
                let mut params: Vec<Param> = Vec::new();
                let target = n.checked_sub(1).and_then(|t| inst.args.get(t)).cloned();
                for k in 0..inst.args.len() {
                    let Arg::Operand(op) = &mut inst.args[k] else {
                        diags.push(not_in_fp1(
                            inst.args[k].span(),
                            "a texel offset",
                            "<texImageId> is a unit and a target",
                        ));
                        ok = false;
                        continue;
                    };
                    // `KIL EQ.xyzw`: the condition code test, which the ARB
                    // checker reads under NV_fragment_program_option.
                    if kil {
                        let test = matches!(&op.path.head, PathHead::Name(id)
                            if crate::isa::CcCondition::parse_rule(&id.name).is_some());
                        if !test {
                            diags.push(not_in_fp1(op.span, "KIL with an operand", "<KILop-instruction> ::= <KILop> <ccMask>: KIL takes a condition code test such as `KIL LT.x;`"));
                            ok = false;
                        }
                        continue;
                    }
                    if texture && n >= 2 && k == n - 1 {
                        continue;
                    }
                    if let (true, Some(target)) = (texture && n >= 2 && k == n - 2, &target) {
                        ok &= self.texture_unit(op, target, diags);
                        continue;
                    }
                    match self.operand(op, k == 0, out, diags) {
                        Ok(Some(Read::Attrib(name))) => attribs.push((name, op.path.span)),
                        Ok(Some(Read::Param(p))) => params.push(p),
                        Ok(None) => {}
                        Err(()) => ok = false,
                    }
                }
                if let Some(d) = two_attributes(&attribs) {
                    diags.push(d);
                    ok = false;
                }
                if let Some(d) = two_parameters(&params) {
                    diags.push(d);
                    ok = false;
                }
                if ok {
                    out.push(Statement::Instruction(inst));
                }
            }
        }
    }

    /// DEFINE and DECLARE become PARAM declarations; nothing else is a
    /// statement of the language.
    fn declaration(
        &mut self,
        d: &Declaration,
        out: &mut Vec<Statement>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let (name, init, local) = match &d.kind {
            DeclKind::Define { name, init } => (name, Some(init), false),
            DeclKind::Declare { name, init } => (name, init.as_ref(), true),
            _ => {
                diags.push(
                    Diagnostic::error("E1211", "ARB declarations do not exist in `!!FP1.0` programs")
                        .primary(d.keyword, "not a statement of this language")
                        .note("NV_fragment_program 3.11.3: <instructionStatement> is an <instruction>, a <constantDefinition> (DEFINE) or a <localDeclaration> (DECLARE); the registers are fixed names")
                        .note("help: write `DEFINE name = {…};` for a constant, or use R0..R31 / H0..H63 for temporaries"),
                );
                return;
            }
        };
        if let Err(diag) = self.check_new_name(name) {
            diags.push(diag);
            return;
        }
        let values = match init.map(|i| self.resolve_init(i)) {
            Some(Err(diag)) => {
                diags.push(diag);
                self.names.insert(name.name.clone(), Named::Invalid);
                return;
            }
            Some(Ok(v)) => Some(v),
            None => None,
        };
        let span = name.span;
        let init = if local {
            // Section 3.11.2: named local parameters are set by the
            // application (ProgramNamedParameterNV); nvp4c gives the k-th
            // DECLARE `program.local[64 + k]` (docs/interface.md), after
            // the numbered `p[0]`..`p[63]`.
            let index = NUMBERED_LOCALS + self.declares;
            self.declares += 1;
            self.names.insert(name.name.clone(), Named::Local(index));
            Init::Single(InitItem::Binding(binding(
                Root::Program,
                span,
                &["local"],
                Some(index),
                span,
            )))
        } else {
            // The grammar gives every DEFINE a value.
            let Some((values, init)) = values else {
                return;
            };
            self.names
                .insert(name.name.clone(), Named::Constant(values, init.clone()));
            init
        };
        out.push(Statement::Decl(Box::new(Declaration {
            modifiers: Vec::new(),
            kind: DeclKind::Param {
                name: name.clone(),
                size: None,
                init,
            },
            keyword: d.keyword,
            span: d.span,
        })));
    }

    /// Section 3.11.2: names may not be keywords, register or texture unit
    /// names, nor an earlier DEFINE or DECLARE.
    fn check_new_name(&self, name: &Ident) -> Result<(), Diagnostic> {
        let n = name.name.as_str();
        if self.names.contains_key(&name.name) {
            return Err(Diagnostic::error("E1212", format!("`{n}` is already defined"))
                .primary(name.span, "a second DEFINE or DECLARE of this name")
                .note("NV_fragment_program 3.11.2: \"A fragment program will also fail to load if a DEFINE or DECLARE instruction attempts to re-define a named parameter specified in a previous DEFINE or DECLARE instruction.\""));
        }
        let reserved = temp_register(n).is_some()
            || n.strip_prefix("TEX")
                .and_then(register_number)
                .is_some_and(|u| u < 16)
            || matches!(
                n,
                "RC" | "HC" | "f" | "o" | "p" | "END" | "DEFINE" | "DECLARE"
            )
            // <ccMaskRule> and <texImageTarget> words.
            || matches!(
                n,
                "EQ" | "GE" | "GT" | "LE" | "LT" | "NE" | "TR" | "FL" | "CUBE" | "RECT"
            )
            || is_instruction_name(n);
        if reserved {
            return Err(Diagnostic::error("E1212", format!("`{n}` cannot name a constant or local parameter"))
                .primary(name.span, "a keyword, register or texture unit name")
                .note("NV_fragment_program 3.11.2: \"Keywords defined in the grammar (including instruction names) can not be used as constant names, nor can strings that start with numbers, or strings that specify valid temporary register or texture numbers (e.g., \"R0\"-\"R31\", \"H0\"-\"H63\"\", \"TEX0\"-\"TEX15\"). A fragment program will fail to load if a DEFINE or DECLARE instruction specifies an invalid constant or local parameter name.\""));
        }
        Ok(())
    }

    /// The values and the ARB initializer of a DEFINE or DECLARE value: a
    /// constant as written, or an earlier DEFINE's name.
    fn resolve_init(&self, init: &Init) -> Result<(Vec<f64>, Init), Diagnostic> {
        if let Init::Single(InitItem::Binding(Path {
            head: PathHead::Name(id),
            ..
        })) = init
        {
            return match self.names.get(&id.name) {
                Some(Named::Constant(v, i)) => Ok((v.clone(), i.clone())),
                _ => Err(undefined_name(id)),
            };
        }
        let mut values = Vec::new();
        let mut init = init.clone();
        let items: &mut [InitItem] = match &mut init {
            Init::Single(i) => std::slice::from_mut(i),
            Init::List(v, _) => v,
        };
        for item in items.iter_mut() {
            // A <namedScalarConstant> in a list: the DEFINE'd scalar.
            if let InitItem::Binding(Path {
                head: PathHead::Name(id),
                ..
            }) = item
            {
                match self.names.get(&id.name) {
                    Some(Named::Constant(v, Init::Single(InitItem::Scalar(s)))) if v.len() == 1 => {
                        *item = InitItem::Scalar(crate::syntax::ast::SignedNumber {
                            span: id.span,
                            ..s.clone()
                        });
                    }
                    Some(Named::Constant(..)) => {
                        return Err(Diagnostic::error("E1210", format!("`{}` is a vector constant inside a vector constant", id.name))
                            .primary(id.span, "a list item is a scalar")
                            .note("NV_fragment_program 3.11.3: <vectorConstantList> items are <scalarConstant>s: a number or a <namedScalarConstant>"));
                    }
                    _ => return Err(undefined_name(id)),
                }
            }
            match item {
                InitItem::Scalar(s) => values.push(signed_value(s.negative, &s.number)),
                InitItem::Vector(v) => values.extend(v.components.iter().map(|c| signed_value(c.negative, &c.number))),
                InitItem::Binding(p) => {
                    return Err(Diagnostic::error("E1210", "bindings do not exist in `!!FP1.0` programs")
                        .primary(p.span, "not a constant")
                        .note("NV_fragment_program 3.11.3: <optionalLocalValue> and <constantDefinition> take a <vectorConstant> or <scalarConstant>"))
                }
            }
        }
        if let Init::List(v, _) = &init {
            // Section 3.11.2: "{2}" is "{2,0,0,1}".
            let fill = [0.0, 0.0, 1.0];
            for k in v.len()..4 {
                values.push(fill[k - 1]);
            }
        }
        Ok((values, init))
    }

    /// `TEXn` before the target: `texture[n]`, and the section 3.11.3 rule
    /// that a unit is used with one target.
    fn texture_unit(
        &mut self,
        op: &mut Operand,
        target: &Arg,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let unit = match &op.path.head {
            PathHead::Name(id) if op.path.parts.is_empty() && !op.negate && op.abs.is_none() => id
                .name
                .strip_prefix("TEX")
                .and_then(register_number)
                .filter(|&u| u < 16)
                .map(|u| (u, id.span)),
            _ => None,
        };
        let Some((unit, span)) = unit else {
            diags.push(
                Diagnostic::error("E1210", "expected a texture image unit `TEX0`..`TEX15`")
                    .primary(op.span, "not a texture unit of `!!FP1.0`")
                    .note("NV_fragment_program 3.11.3: <texImageId> ::= <texImageUnit> \",\" <texImageTarget>; <texImageUnit> is \"TEX0\" to \"TEX15\""),
            );
            return false;
        };
        if let Arg::Operand(Operand {
            path:
                Path {
                    head: PathHead::Name(t),
                    parts,
                    ..
                },
            ..
        }) = target
        {
            if parts.is_empty() {
                match self.targets.get(&unit) {
                    Some((first, first_span)) if *first != t.name => {
                        diags.push(
                            Diagnostic::error("E1217", format!("texture unit {unit} used with two targets"))
                                .primary(t.span, format!("`{}` here", t.name))
                                .secondary(*first_span, format!("`{first}` here"))
                                .note("NV_fragment_program 3.11.3: \"A fragment program fails to load if multiple texture lookup instructions reference different targets for the same texture image unit.\""),
                        );
                        return false;
                    }
                    Some(_) => {}
                    None => {
                        self.targets.insert(unit, (t.name.clone(), t.span));
                    }
                }
            }
        }
        op.path = binding(Root::Texture, span, &[], Some(unit), span);
        true
    }

    /// Rewrites one operand; says which attribute or parameter it reads.
    fn operand(
        &mut self,
        op: &mut Operand,
        destination: bool,
        out: &mut Vec<Statement>,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<Option<Read>, ()> {
        let path = &mut op.path;
        let head = match &path.head {
            PathHead::Name(id) => id.clone(),
            PathHead::Root(root, span) => {
                diags.push(
                    Diagnostic::error("E1210", format!("`{}` bindings do not exist in `!!FP1.0` programs", root.name()))
                        .primary(*span, "not a register of this language")
                        .note(REGISTERS_RULE)
                        .note("help: bindings are ARB syntax; write the fixed register, or change the header to `!!ARBfp1.0`"),
                );
                return Err(());
            }
            // Section 3.11.2: embedded scalar and vector constants.
            PathHead::Vector(v) => {
                let mut values: Vec<f64> = v
                    .components
                    .iter()
                    .map(|c| signed_value(c.negative, &c.number))
                    .collect();
                let fill = [0.0, 0.0, 1.0];
                for k in values.len()..4 {
                    values.push(fill[k - 1]);
                }
                return Ok(Some(Read::Param(Param::Constant(values, v.span))));
            }
            PathHead::Number(n) => {
                // <signedScalarConstant>: the sign belongs to the constant.
                let negative = op.negate ^ op.abs.unwrap_or(false);
                return Ok(Some(Read::Param(Param::Constant(
                    vec![signed_value(negative, n)],
                    n.span(),
                ))));
            }
        };
        let name = head.name.as_str();
        let word = match path.parts.first() {
            Some(PathPart::Index(IndexExpr::Word(w), s)) => Some((w.clone(), *s)),
            _ => None,
        };
        match name {
            "f" => {
                let Some((w, _)) = word else {
                    diags.push(bad_index(
                        &head,
                        path,
                        "an attribute name such as `f[TEX0]`",
                    ));
                    return Err(());
                };
                let Some(&(_, members, index)) = ATTRIBUTES.iter().find(|a| a.0 == w.name.as_str())
                else {
                    diags.push(unknown_mnemonic(
                        &w,
                        "attribute",
                        ATTRIBUTES.iter().map(|a| a.0),
                    ));
                    return Err(());
                };
                rewrite_head(path, Root::Fragment, head.span, members, index);
                Ok(Some(Read::Attrib(w.name.to_string())))
            }
            "o" => {
                let Some((w, _)) = word else {
                    diags.push(bad_index(&head, path, "an output name such as `o[COLR]`"));
                    return Err(());
                };
                let Some(k) = OUTPUTS.iter().position(|a| a.0 == w.name.as_str()) else {
                    diags.push(unknown_mnemonic(&w, "output", OUTPUTS.iter().map(|a| a.0)));
                    return Err(());
                };
                if destination {
                    if self.outputs[k].is_none() {
                        self.outputs[k] = Some(w.span);
                        self.take_slots(OUTPUTS[k].2, w.span);
                    }
                    // Section 3.11.1.3: "A fragment program will fail to
                    // load if it writes to both o[COLR] and o[COLH]."
                    if let (Some(colr), Some(colh)) = (self.outputs[0], self.outputs[1]) {
                        if k < 2 && (self.outputs[k] == Some(w.span)) {
                            let (first, second) = if k == 0 { (colh, colr) } else { (colr, colh) };
                            diags.push(
                                Diagnostic::error("E1215", "the program writes both `o[COLR]` and `o[COLH]`")
                                    .primary(second, "the second color output")
                                    .secondary(first, "the other one")
                                    .note("NV_fragment_program 3.11.1.3: \"A fragment program will fail to load if it writes to both o[COLR] and o[COLH].\""),
                            );
                            return Err(());
                        }
                    }
                }
                rewrite_head(path, Root::Result, head.span, &[OUTPUTS[k].1], None);
                Ok(None)
            }
            "p" => {
                let n = match path.parts.first() {
                    Some(PathPart::Index(IndexExpr::Int(i), s)) => i
                        .value()
                        .filter(|&n| n < u64::from(NUMBERED_LOCALS))
                        .ok_or(*s),
                    _ => Err(head.span),
                };
                let n = match n {
                    Ok(n) => n as u32,
                    Err(span) => {
                        diags.push(
                            Diagnostic::error("E1210", "`p[n]` needs a local parameter number from 0 to 63")
                                .primary(head.span.to(span), "not a numbered local parameter")
                                .note("NV_fragment_program 3.11.3: <numberedLocal> ::= \"p\" \"[\" <localNumber> \"]\", <localNumber> from 0 to MAX_FRAGMENT_PROGRAM_LOCAL_PARAMETERS_NV - 1, which nvp4c takes as 64 (the least allowed, section 3.11.2)"),
                        );
                        return Err(());
                    }
                };
                rewrite_head(path, Root::Program, head.span, &["local"], Some(n));
                Ok(Some(Read::Param(Param::Local(
                    format!("program.local[{n}]"),
                    path.span,
                ))))
            }
            "RC" | "HC" => {
                if !destination {
                    diags.push(
                        Diagnostic::error("E1210", format!("`{name}` is write-only"))
                            .primary(head.span, "read here")
                            .note("NV_fragment_program 3.11.1.2: \"RC and HC are treated as unnumbered, write-only temporary registers\"; <srcRegister> has neither"),
                    );
                    return Err(());
                }
                self.declare_temp(&head, name == "RC", 0, out);
                Ok(None)
            }
            _ => {
                if let Some(fp32) = temp_register(name) {
                    self.declare_temp(&head, fp32, if fp32 { 2 } else { 1 }, out);
                    return Ok(None);
                }
                match self.names.get(&head.name) {
                    Some(Named::Constant(v, _)) => {
                        Ok(Some(Read::Param(Param::Constant(v.clone(), head.span))))
                    }
                    Some(Named::Local(i)) => Ok(Some(Read::Param(Param::Local(
                        format!("program.local[{i}]"),
                        head.span,
                    )))),
                    Some(Named::Invalid) => Err(()),
                    None => {
                        diags.push(undefined_name(&head));
                        Err(())
                    }
                }
            }
        }
    }

    fn take_slots(&mut self, n: u32, span: Span) {
        self.slots += n;
        if self.slots > 64 && self.over_slots.is_none() {
            self.over_slots = Some(span);
        }
    }

    /// `LONG TEMP Rn;` or `SHORT TEMP Hn;` at the register's first use.
    fn declare_temp(&mut self, head: &Ident, fp32: bool, slots: u32, out: &mut Vec<Statement>) {
        if !self.declared.insert(head.name.clone()) {
            return;
        }
        self.take_slots(slots, head.span);
        let precision = if fp32 {
            VarModifier::Long
        } else {
            VarModifier::Short
        };
        out.push(register_declaration(
            vec![(precision, head.span)],
            DeclKind::Temp {
                names: vec![(head.clone(), None)],
            },
            head,
        ));
    }

    pub(crate) fn finish(&self, header: Span, end: Span, diags: &mut Vec<Diagnostic>) {
        if let Some(span) = self.over_limit {
            diags.push(
                Diagnostic::error("E1219", format!("`!!FP1.0` program with {} instructions; at most {MAX_INSTRUCTIONS} are allowed", self.instructions))
                    .primary(span, format!("instruction {} is one too many", MAX_INSTRUCTIONS + 1))
                    .note("NV_fragment_program 3.11.3: \"A fragment program fails to load if it contains more than the maximum number of executable instructions. ... Otherwise, the limit is 1024.\" DEFINE and DECLARE do not count"),
            );
        }
        if let Some(span) = self.over_slots {
            diags.push(
                Diagnostic::error("E1218", format!("the program's temporary and output registers take {} of 64 slots", self.slots))
                    .primary(span, "this register goes past 64")
                    .note("NV_fragment_program 3.11.3: \"A fragment program fails to load if its total temporary and output register count exceeds 64. Each fp32 temporary or output register used by the program (R0-R31, o[COLR], and o[DEPR]) counts as two registers; each fp16 temporary or output register used by the program (H0-H63 and o[COLH]) count as a single register.\"")
                    .note("help: use H registers (one slot) where half precision is enough"),
            );
        }
        if self.outputs.iter().all(Option::is_none) {
            diags.push(
                Diagnostic::error("E1216", "`!!FP1.0` program writes no output register")
                    .primary(end, "the program ends without writing o[COLR], o[COLH] or o[DEPR]")
                    .secondary(header, "a fragment program")
                    .note("NV_fragment_program 3.11.1.3: \"A fragment program will fail to load if it does not write to at least one output register.\""),
            );
        }
    }
}

/// What an operand reads, for the one-register rules.
enum Read {
    Attrib(String),
    Param(Param),
}

/// An opcode of the grammar with its suffixes: `MUL`, `MULR`, `ADDHC`,
/// `MOVRC_SAT` (3.11.3's <VECTORop>, <BINop>, ... spell every combination).
fn is_instruction_name(n: &str) -> bool {
    let n = n.strip_suffix("_SAT").unwrap_or(n);
    let n = n
        .strip_suffix('C')
        .filter(|b| !b.is_empty())
        .map_or(n, |b| {
            // `TEXC`, `TXPC`, `TXDC`: C is the only suffix; `ADDC`, `ADDRC`.
            b
        });
    let base = n
        .strip_suffix(['R', 'H', 'X'])
        .filter(|b| crate::isa::OpInfo::lookup(b).is_some())
        .unwrap_or(n);
    crate::isa::OpInfo::lookup(base).is_some() || crate::isa::OpInfo::lookup(n).is_some()
}

/// `R0`..`R31` (Some(true)) or `H0`..`H63` (Some(false)).
fn temp_register(name: &str) -> Option<bool> {
    if let Some(n) = name.strip_prefix('R').and_then(register_number) {
        return (n < 32).then_some(true);
    }
    if let Some(n) = name.strip_prefix('H').and_then(register_number) {
        return (n < 64).then_some(false);
    }
    None
}

fn register_number(digits: &str) -> Option<u32> {
    super::register_number(digits)
}

fn signed_value(negative: bool, n: &crate::syntax::ast::Number) -> f64 {
    let text = match n {
        crate::syntax::ast::Number::Int(i) => i.text.as_str(),
        crate::syntax::ast::Number::Float { text, .. } => text.as_str(),
    };
    let v: f64 = text.parse().unwrap_or(f64::NAN);
    if negative {
        -v
    } else {
        v
    }
}

/// Section 3.11.1.1: "each fragment program instruction can use at most one
/// unique attribute register".
fn two_attributes(reads: &[(String, Span)]) -> Option<Diagnostic> {
    let (first, first_span) = reads.first()?;
    let (_, other) = reads.iter().find(|(n, _)| n != first)?;
    Some(
        Diagnostic::error("E1213", "instruction reads two different fragment attribute registers")
            .primary(*other, "a second attribute register")
            .secondary(*first_span, "the first")
            .note("NV_fragment_program 3.11.3: \"A fragment program fails to load if any instruction sources more than one unique fragment attribute register.\"")
            .note("help: copy one of them to a temporary register with MOV first"),
    )
}

/// Section 3.11.2: one unique program parameter per instruction, unless
/// every one is a constant and together they have at most four unique
/// scalar values (counted as written: no swizzle, negation or absolute
/// value).
fn two_parameters(params: &[Param]) -> Option<Diagnostic> {
    let rule = "NV_fragment_program 3.11.2: \"each fragment program instruction can normally use at most one unique program parameter. The only exception to this rule is if all program parameter references specify named or embedded constants that taken together contain no more than four unique scalar values.\"";
    let mut locals: Vec<(&str, Span)> = Vec::new();
    let mut constants: Vec<(&[f64], Span)> = Vec::new();
    for p in params {
        match p {
            Param::Local(n, s) if !locals.iter().any(|(m, _)| m == n) => locals.push((n, *s)),
            Param::Local(..) => {}
            Param::Constant(v, s) if !constants.iter().any(|(w, _)| *w == v.as_slice()) => {
                constants.push((v, *s))
            }
            Param::Constant(..) => {}
        }
    }
    let first_local = locals.first().map(|l| l.1);
    let second = locals
        .get(1)
        .map(|l| l.1)
        .or_else(|| first_local.and(constants.first().map(|c| c.1)));
    if let (Some(first), Some(second)) = (first_local, second) {
        return Some(
            Diagnostic::error(
                "E1214",
                "instruction reads two different program parameters",
            )
            .primary(second, "a second program parameter")
            .secondary(first, "the first")
            .note(rule)
            .note("help: copy one of them to a temporary register with MOV first"),
        );
    }
    let mut unique: Vec<u64> = Vec::new();
    for (v, _) in &constants {
        for x in v.iter() {
            if !unique.contains(&x.to_bits()) {
                unique.push(x.to_bits());
            }
        }
    }
    if constants.len() > 1 && unique.len() > 4 {
        return Some(
            Diagnostic::error(
                "E1214",
                format!(
                    "instruction's constants have {} unique scalar values; at most four merge",
                    unique.len()
                ),
            )
            .primary(
                constants[constants.len() - 1].1,
                "this constant does not fit in the merged vector",
            )
            .secondary(constants[0].1, "the first constant")
            .note(rule)
            .note("help: copy one of them to a temporary register with MOV first"),
        );
    }
    None
}

fn undefined_name(id: &Ident) -> Diagnostic {
    Diagnostic::error("E1210", format!("`{}` is not a register or named parameter of `!!FP1.0`", id.name))
        .primary(id.span, "no such register, and no earlier DEFINE or DECLARE of it")
        .note(REGISTERS_RULE)
        .note("NV_fragment_program 3.11.2: \"A fragment program will fail to load if an instruction contains a named parameter not specified in a previous DEFINE or DECLARE instruction.\"")
}

fn unknown_mnemonic<'a>(
    w: &Ident,
    what: &str,
    all: impl Iterator<Item = &'a str> + Clone,
) -> Diagnostic {
    let mut d = Diagnostic::error(
        "E1210",
        format!("`{}` is not a fragment {what} register", w.name),
    )
    .primary(w.span, format!("no such {what} register"));
    if let Some(s) = crate::check::did_you_mean(&w.name, all.clone()) {
        d = d.note(format!("did you mean `{s}`?"));
    }
    d.note(format!(
        "the {what} registers are {}",
        all.collect::<Vec<_>>().join(", ")
    ))
    .note(REGISTERS_RULE)
}

fn bad_index(head: &Ident, path: &Path, expected: &str) -> Diagnostic {
    Diagnostic::error(
        "E1210",
        format!(
            "`{}` needs a register name in `!!FP1.0` programs",
            head.name
        ),
    )
    .primary(path.span, format!("expected {expected}"))
    .note(REGISTERS_RULE)
}

fn not_in_fp1(span: Span, what: &str, why: &str) -> Diagnostic {
    Diagnostic::error(
        "E1211",
        format!("{what} does not exist in `{}` programs", Header::Fp1),
    )
    .primary(span, "not in this language's grammar")
    .note(format!("NV_fragment_program 3.11.3: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::{Init, InitItem};

    /// The rewritten statements of an `!!FP1.0` program, as text, and the
    /// codes of the diagnostics.
    fn rewrite(body: &str) -> (Vec<String>, Vec<&'static str>) {
        let src = format!("!!FP1.0\n{body}\nEND\n");
        let (ast, diags) = crate::syntax::parse(&src);
        assert!(diags.is_empty(), "{diags:?}");
        let ast = ast.unwrap();
        let mut f = Fragment::new();
        let (mut out, mut diags) = (Vec::new(), Vec::new());
        for st in &ast.statements {
            f.statement(st, &mut out, &mut diags);
        }
        f.finish(ast.header, ast.end.unwrap(), &mut diags);
        let text = out.iter().map(statement_text).collect();
        (text, diags.iter().map(|d| d.code).collect())
    }

    fn path_text(p: &Path) -> String {
        let mut s = match &p.head {
            PathHead::Name(id) => id.name.to_string(),
            PathHead::Root(r, _) => r.name().to_string(),
            PathHead::Vector(v) => format!("{{{}}}", v.components.len()),
            PathHead::Number(_) => "number".to_string(),
        };
        for part in &p.parts {
            match part {
                PathPart::Member(m) => s += &format!(".{}", m.name),
                PathPart::Index(IndexExpr::Int(i), _) => s += &format!("[{}]", i.text),
                PathPart::Index(IndexExpr::Word(w), _) => s += &format!("[{}]", w.name),
                PathPart::Index(..) => s += "[?]",
            }
        }
        s
    }

    fn statement_text(st: &Statement) -> String {
        match st {
            Statement::Decl(d) => match &d.kind {
                DeclKind::Temp { names } => {
                    let m = match d.modifiers.first() {
                        Some((VarModifier::Long, _)) => "LONG ",
                        Some((VarModifier::Short, _)) => "SHORT ",
                        _ => "",
                    };
                    format!("{m}TEMP {}", names[0].0.name)
                }
                DeclKind::Param { name, init, .. } => {
                    let init = match init {
                        Init::Single(InitItem::Binding(p)) => path_text(p),
                        Init::Single(InitItem::Scalar(_)) => "scalar".to_string(),
                        Init::List(v, _) => format!("list of {}", v.len()),
                        Init::Single(InitItem::Vector(_)) => "vector".to_string(),
                    };
                    format!("PARAM {} = {init}", name.name)
                }
                _ => "other declaration".to_string(),
            },
            Statement::Instruction(i) => {
                let args: Vec<String> = i
                    .args
                    .iter()
                    .map(|a| match a {
                        Arg::Operand(o) => path_text(&o.path),
                        Arg::Offset(..) | Arg::VariableOffset(..) => "offset".to_string(),
                        Arg::Handle(..) => "handle".to_string(),
                    })
                    .collect();
                format!("{} {}", i.opcode.name, args.join(", "))
            }
            _ => "other".to_string(),
        }
    }

    #[test]
    fn temporaries_are_long_and_short_temps_declared_at_first_use() {
        let (out, codes) = rewrite(
            "MOVR R0, f[TEX3];\nMOVH H5, R0;\nMOVRC RC, H5;\nMOVHC HC, R0;\nMOVR o[COLR], H5;",
        );
        assert_eq!(codes, Vec::<&str>::new());
        assert_eq!(
            out,
            [
                "LONG TEMP R0",
                "MOVR R0, fragment.texcoord[3]",
                "SHORT TEMP H5",
                "MOVH H5, R0",
                "LONG TEMP RC",
                "MOVRC RC, H5",
                "SHORT TEMP HC",
                "MOVHC HC, R0",
                "MOVR result.color, H5",
            ]
        );
    }

    #[test]
    fn attributes_and_outputs_are_the_arb_bindings() {
        let (out, codes) = rewrite("MOVR R0, f[WPOS];\nADDR R0, R0, f[COL0];\nADDR R0, R0, f[COL1];\nADDR R0, R0, f[FOGC];\nMOVR o[DEPR].z, R0;\nMOVH o[COLH], R0;");
        assert_eq!(codes, Vec::<&str>::new());
        assert_eq!(
            &out[1..],
            [
                "MOVR R0, fragment.position",
                "ADDR R0, R0, fragment.color",
                "ADDR R0, R0, fragment.color.secondary",
                "ADDR R0, R0, fragment.fogcoord",
                "MOVR result.depth.z, R0",
                "MOVH result.color, R0",
            ]
        );
    }

    #[test]
    fn locals_defines_and_declares_are_params() {
        let (out, codes) = rewrite(
            "DEFINE k = {1, 2};\nDEFINE k2 = k;\nDECLARE a;\nDECLARE b = 3;\nMULR R0, p[7], a;\nMOVR o[COLR], b;\nMOVR o[COLR], k2;",
        );
        // `MULR R0, p[7], a` reads two local parameters: refused.
        assert_eq!(codes, ["E1214"]);
        assert_eq!(
            out,
            [
                "PARAM k = list of 2",
                "PARAM k2 = list of 2",
                "PARAM a = program.local[64]",
                "PARAM b = program.local[65]",
                "LONG TEMP R0",
                "MOVR result.color, b",
                "MOVR result.color, k2",
            ]
        );
    }

    #[test]
    fn texture_units_become_texture_bindings_and_kil_keeps_its_test() {
        let (out, codes) =
            rewrite("TEX R0, f[TEX0], TEX2, 2D;\nTXP R1, p[0], TEX15, CUBE;\nKIL EQ.xyzw;\nMOVR o[COLR], R0;");
        assert_eq!(codes, Vec::<&str>::new());
        assert_eq!(
            out,
            [
                "LONG TEMP R0",
                "TEX R0, fragment.texcoord[0], texture[2], 2D",
                "LONG TEMP R1",
                "TXP R1, program.local[0], texture[15], CUBE",
                "KIL EQ.xyzw",
                "MOVR result.color, R0",
            ]
        );
    }

    #[test]
    fn constants_merge_into_one_parameter_up_to_four_values() {
        // NV_fragment_program 3.11.2's own examples.
        assert_eq!(
            rewrite("MADR o[COLR], f[COL0], 2, -1;").1,
            Vec::<&str>::new()
        );
        assert_eq!(rewrite("ADDR o[COLR], {1,2,3,4}, 4;").1, Vec::<&str>::new());
        assert_eq!(rewrite("ADDR o[COLR], {1,2,3,4}, -4;").1, ["E1214"]);
        assert_eq!(rewrite("ADDR o[COLR], {1,2,3,4}, |-4|;").1, ["E1214"]);
        assert_eq!(
            rewrite("ADDR o[COLR], {1,2,3,4}, -{-1,-2,-3,-4};").1,
            ["E1214"]
        );
        assert_eq!(
            rewrite("ADDR o[COLR], {1,2,3,4}, {4,5,6,7}.x;").1,
            ["E1214"]
        );
        // A constant with a local parameter is two parameters.
        assert_eq!(rewrite("ADDR o[COLR], p[1], 1;").1, ["E1214"]);
        // The same local twice is one.
        assert_eq!(rewrite("ADDR o[COLR], p[1], p[1];").1, Vec::<&str>::new());
    }

    #[test]
    fn registers_and_names_outside_the_language_are_refused() {
        assert_eq!(rewrite("MOVR o[COLR], H64;").1, ["E1210"]);
        assert_eq!(rewrite("MOVR o[COLR], p[64];").1, ["E1210"]);
        assert_eq!(rewrite("MOVR o[COLR], RC;").1, ["E1210"]);
        assert_eq!(rewrite("MOVR o[COLR], f[TEX8];").1, ["E1210"]);
        assert_eq!(rewrite("MOVR o[COLX], f[TEX0];").1, ["E1210", "E1216"]);
        assert_eq!(rewrite("MOVR o[COLR], fragment.color;").1, ["E1210"]);
        assert_eq!(rewrite("MOVR o[COLR], undefined;").1, ["E1210"]);
        assert_eq!(
            rewrite("DEFINE a = 1;\nDECLARE a;\nMOVR o[COLR], a;").1,
            ["E1212"]
        );
        assert_eq!(
            rewrite("DEFINE TEX3 = 1;\nMOVR o[COLR], f[COL0];").1,
            ["E1212"]
        );
        assert_eq!(
            rewrite("DEFINE MUL = 1;\nMOVR o[COLR], f[COL0];").1,
            ["E1212"]
        );
        assert_eq!(rewrite("PARAM a = 1;\nMOVR o[COLR], f[COL0];").1, ["E1211"]);
        assert_eq!(
            rewrite("OPTION NV_fragment_program2;\nMOVR o[COLR], f[COL0];").1,
            ["E1211"]
        );
        assert_eq!(rewrite("KIL f[COL0];\nMOVR o[COLR], f[COL0];").1, ["E1211"]);
        assert_eq!(
            rewrite("TEX R0, f[TEX0], TEX0, 2D, (1, 1);\nMOVR o[COLR], R0;").1,
            ["E1211"]
        );
        assert_eq!(
            rewrite("DEFINE MULRC_SAT = 1;\nMOVR o[COLR], f[COL0];").1,
            ["E1212"]
        );
        assert_eq!(
            rewrite("DEFINE TEXC = 1;\nMOVR o[COLR], f[COL0];").1,
            ["E1212"]
        );
        assert_eq!(
            rewrite("DEFINE GT = 1;\nMOVR o[COLR], f[COL0];").1,
            ["E1212"]
        );
        // Named scalars inside a vector constant (<vectorConstantList>).
        let (out, codes) = rewrite("DEFINE pi = 3.14;\nDEFINE v = {pi, -1, pi};\nMOVR o[COLR], v;");
        assert_eq!(codes, Vec::<&str>::new());
        assert_eq!(out[1], "PARAM v = list of 3");
        assert_eq!(
            rewrite("DEFINE v = {1, 2};\nDEFINE w = {v, 1};\nMOVR o[COLR], w;").1,
            ["E1210"]
        );
        assert_eq!(
            rewrite("DEFINE w = {nope, 1};\nMOVR o[COLR], f[COL0];").1,
            ["E1210"]
        );
        // Names that only start like opcodes are names.
        assert_eq!(
            rewrite("DEFINE MULTIPLIER = 1;\nMOVR o[COLR], MULTIPLIER;").1,
            Vec::<&str>::new()
        );
    }

    #[test]
    fn define_and_declare_are_names_in_other_headers() {
        let src = "!!ARBfp1.0\nPARAM DEFINE = 1;\nPARAM DECLARE = 2;\nADD result.color, DEFINE, DECLARE;\nEND\n";
        assert!(crate::check(src, &crate::Options::default()).is_ok());
    }

    #[test]
    fn a_whole_program_checks() {
        let src = "!!FP1.0\nDEFINE half = {0.5, 0.25, 2, 1};\nDECLARE tint = 1;\nMULR R0, f[TEX0], half;\nMULX H2, R0, tint;\nTEX R1, f[TEX1], TEX2, 2D;\nSUBRC RC.x, f[COL0], 0.5;\nKIL LT.x;\nMOVR o[COLR], H2;\nMOVR o[DEPR].z, f[WPOS];\nEND\n";
        let (_, diags) = crate::check(src, &crate::Options::default()).unwrap();
        assert!(diags.0.iter().all(|d| d.code.starts_with('W')), "{diags:?}");
    }
}

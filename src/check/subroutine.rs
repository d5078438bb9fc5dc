//! Indirect subroutine calls: ARB_shader_subroutine's "Dependencies on
//! NV_gpu_program5" (implied by every NV_gpu_program5 header). A label may
//! carry a SUBROUTINENUM (`batman SUBROUTINENUM(0):`); a SUBROUTINETYPE
//! groups such labels (`SUBROUTINETYPE Hero { batman, robin };`, each
//! statement adding to the type); a SUBROUTINE variable of a type is bound
//! to subroutine parameters (`SUBROUTINE Hero h = program.subroutine[0];`);
//! `CALI h` calls the label whose SUBROUTINENUM the parameter holds.
//!
//! The checker resolves each CALI to its candidates, (SUBROUTINENUM,
//! subroutine) pairs, in `ir::Stmt::CallIndirect`; the backend switches on
//! the parameter, the interpreter looks it up.

use super::flow::Flat;
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, ParamBinding, Stmt, SubId, Subroutine, VarId, VarKind, VarType};
use crate::isa::DataType;
use crate::span::Span;
use crate::syntax::ast::{
    self, Ident, IndexExpr, Init, InitItem, IntLit, PathHead, PathPart, Root, Text,
};
use std::collections::HashMap;

/// MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV: the minimum the spec requires,
/// 1024 ("Add new implementation dependent state").
pub(crate) const MAX_SUBROUTINE_PARAMETERS: u32 = 1024;
/// MAX_PROGRAM_SUBROUTINENUM_NV: the minimum, 256. "All SUBROUTINENUMs
/// must be greater than or equal to zero, and less than the value of
/// MAX_PROGRAM_SUBROUTINE_NUM_NV."
pub(crate) const MAX_SUBROUTINE_NUM: u32 = 256;

const TYPE_RULE: &str = "ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.5: \"A <SUBROUTINETYPE_statement> associates one or more subroutine labels with a \"type\"\" and \"Functions that will be used for indirect subroutine calls must all be assigned a unique unsigned integer SUBROUTINENUM using the modified <instLabel> grammar rule.\"";
const DECL_RULE: &str = "ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.2: <SUBROUTINE_statement> ::= \"SUBROUTINE\" <establishedName> <establishName> \"=\" <progSubroutineParam> | ... <optArraySize> \"=\" \"{\" <progSubroutineInitList> \"}\"; <progSubroutineParam> ::= \"program\" \".\" \"subroutine\" <arrayMemAbs>";

/// What the program declared about indirect calls so far.
#[derive(Default)]
pub(crate) struct SubroutineDecls {
    /// Each SUBROUTINETYPE: where it was first declared, and its labels as
    /// named by every statement that adds to it.
    types: HashMap<Text, (Span, Vec<Ident>)>,
    /// The SUBROUTINE variables, with their type.
    vars: HashMap<VarId, Text>,
    /// The type each `program.subroutine[n]` was given first, and where.
    params: HashMap<u32, (Text, Span)>,
    /// Labels with a SUBROUTINENUM: label name → (number, label).
    nums: HashMap<Text, (u32, Ident)>,
    /// The label of each SUBROUTINENUM.
    num_owner: HashMap<u32, Ident>,
    /// Labels whose SUBROUTINENUM was reported as wrong (not reported
    /// again as having none).
    bad_nums: std::collections::HashSet<Text>,
    /// The type of each CALI, in order ([`Flat::Cali`] holds its index).
    pub(crate) calls: Vec<(Text, Span)>,
}

impl SubroutineDecls {
    /// Whether `var` is a SUBROUTINE variable.
    pub(crate) fn is_subroutine_var(&self, var: VarId) -> bool {
        self.vars.contains_key(&var)
    }
}

impl Checker<'_> {
    /// `SUBROUTINETYPE name { labels };`: creates the type if it does not
    /// exist and adds the labels to it (checked at the end, when every
    /// label is known).
    pub(super) fn subroutine_type_declaration(
        &mut self,
        d: &ast::Declaration,
        name: &Ident,
        labels: &[Ident],
    ) {
        if !self.no_modifiers(d, "SUBROUTINETYPE") || self.reserved_name(name) {
            return;
        }
        let entry = self
            .subroutines
            .types
            .entry(name.name.clone())
            .or_insert((name.span, Vec::new()));
        entry.1.extend(labels.iter().cloned());
    }

    /// `SUBROUTINE type name = program.subroutine[n];` or an array of
    /// them: a parameter variable whose elements are subroutine parameters.
    pub(super) fn subroutine_declaration(
        &mut self,
        d: &ast::Declaration,
        ty: &Ident,
        name: &Ident,
        size: Option<&ast::ArraySize>,
        init: &Init,
    ) {
        if !self.no_modifiers(d, "SUBROUTINE") || self.reserved_name(name) {
            return;
        }
        if !self.subroutines.types.contains_key(&ty.name) {
            let known: Vec<&str> = self.subroutines.types.keys().map(|k| k.as_str()).collect();
            let mut e =
                Diagnostic::error("E1223", format!("`{}` is not a SUBROUTINETYPE", ty.name))
                    .primary(ty.span, "no SUBROUTINETYPE of this name is declared before");
            if let Some(s) = super::did_you_mean(&ty.name, known) {
                e = e.note(format!("did you mean `{s}`?"));
            }
            self.error(e.note(DECL_RULE).note(
                "the type is an <establishedName>: a `SUBROUTINETYPE` statement declares it first",
            ));
            return;
        }
        let items: Vec<&InitItem> = match init {
            Init::Single(i) => vec![i],
            Init::List(items, _) => items.iter().collect(),
        };
        let mut params: Vec<(u32, Span)> = Vec::new();
        for item in items {
            let Some((first, last)) = subroutine_params(item) else {
                self.error(
                    Diagnostic::error(
                        "E1223",
                        format!("`{}` is not bound to `program.subroutine[n]`", name.name),
                    )
                    .primary(
                        item.span(),
                        "expected `program.subroutine[n]` or `program.subroutine[a..b]`",
                    )
                    .note(DECL_RULE),
                );
                return;
            };
            if first > last || last >= u64::from(MAX_SUBROUTINE_PARAMETERS) {
                self.error(
                    Diagnostic::error("E1223", format!("subroutine parameter {} is out of range", first.max(last)))
                        .primary(item.span(), format!("subroutine parameters are numbered 0 to {} (a range goes up)", MAX_SUBROUTINE_PARAMETERS - 1))
                        .note("ARB_shader_subroutine, NV_gpu_program5 edits, 2.14.1: \"The number of scalars is given by the implementation-dependent value MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV\" (1024, the minimum)"),
                );
                return;
            }
            params.extend((first..=last).map(|n| (n as u32, item.span())));
        }
        let declared = match size.map(|s| (s, s.len.as_ref())) {
            Some((_, Some(n))) => Some((self.array_len(n), n.span)),
            _ => None,
        };
        match (size, declared) {
            (None, _) if params.len() != 1 => {
                self.error(
                    Diagnostic::error(
                        "E1223",
                        format!(
                            "`{}` binds {} subroutine parameters but is not an array",
                            name.name,
                            params.len()
                        ),
                    )
                    .primary(d.span, "write `name[]` to declare an array")
                    .note(DECL_RULE),
                );
                return;
            }
            (_, Some((n, span))) if n as usize != params.len() => {
                self.error(
                    Diagnostic::error(
                        "E1223",
                        format!(
                            "`{}` is declared with {n} elements but binds {}",
                            name.name,
                            params.len()
                        ),
                    )
                    .primary(span, "the declared size")
                    .note(DECL_RULE),
                );
                return;
            }
            _ => {}
        }
        for &(n, span) in &params {
            match self.subroutines.params.get(&n) {
                Some((other, first)) if *other != ty.name => {
                    let (other, first) = (other.clone(), *first);
                    self.error(
                        Diagnostic::error("E1224", format!("`program.subroutine[{n}]` is given two SUBROUTINETYPEs, `{other}` and `{}`", ty.name))
                            .primary(span, format!("bound here to a `{}` variable", ty.name))
                            .secondary(first, format!("bound here to a `{other}` variable"))
                            .note("ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.5: \"A program subroutine parameter may only be assigned to subroutine variables of a single SUBROUTINETYPE.\""),
                    );
                    // The variable is still declared, so its CALIs are
                    // not reported again.
                }
                Some(_) => {}
                None => {
                    self.subroutines.params.insert(n, (ty.name.clone(), span));
                }
            }
        }
        let var = self.add_var(ir::Variable {
            name: Some(name.name.to_string()),
            span: name.span,
            kind: VarKind::Param(
                params
                    .iter()
                    .map(|&(n, _)| ParamBinding::Subroutine(n))
                    .collect(),
            ),
            ty: VarType::Typed(DataType::Unsigned),
            precision: ir::Precision::Default,
            array_len: size.map(|_| params.len() as u32),
            interpolation: ir::Interpolation::default(),
        });
        self.subroutines.vars.insert(var, ty.name.clone());
        self.declare_name(name, var);
    }

    /// The SUBROUTINETYPE and SUBROUTINE grammar rules take no `<varMods>`.
    fn no_modifiers(&mut self, d: &ast::Declaration, keyword: &str) -> bool {
        let Some(&(m, span)) = d.modifiers.first() else {
            return true;
        };
        self.error(
            Diagnostic::error("E1223", format!("`{keyword}` takes no `{}` modifier", m.name()))
                .primary(span, "not part of this declaration")
                .note("ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.2: <namingStatement> ::= ... | <SUBROUTINETYPE_statement> | <SUBROUTINE_statement>, without <varMods>; a subroutine parameter is an unsigned integer"),
        );
        false
    }

    /// A label's `SUBROUTINENUM(n)`.
    pub(super) fn subroutine_num(&mut self, label: &Ident, n: &IntLit) {
        let value = n.value().filter(|&v| v < u64::from(MAX_SUBROUTINE_NUM));
        let Some(value) = value else {
            self.subroutines.bad_nums.insert(label.name.clone());
            self.error(
                Diagnostic::error("E1221", format!("SUBROUTINENUM {} is out of range", n.text))
                    .primary(n.span, format!("SUBROUTINENUMs are 0 to {}", MAX_SUBROUTINE_NUM - 1))
                    .note("ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.5: \"All SUBROUTINENUMs must be greater than or equal to zero, and less than the value of MAX_PROGRAM_SUBROUTINE_NUM_NV\" (256, the minimum)"),
            );
            return;
        };
        let value = value as u32;
        if let Some(owner) = self.subroutines.num_owner.get(&value) {
            if owner.name != label.name {
                let first = owner.span;
                let owner = owner.name.clone();
                self.subroutines.bad_nums.insert(label.name.clone());
                self.error(
                    Diagnostic::error("E1221", format!("SUBROUTINENUM {value} is given to `{owner}` and `{}`", label.name))
                        .primary(n.span, "given again here")
                        .secondary(first, format!("`{owner}` has it"))
                        .note("ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.5: subroutines \"must all be assigned a unique unsigned integer SUBROUTINENUM\""),
                );
                return;
            }
        }
        self.subroutines.num_owner.insert(value, label.clone());
        self.subroutines
            .nums
            .insert(label.name.clone(), (value, label.clone()));
    }

    /// `CALI var (cc)`: the variable must be a SUBROUTINE variable, an
    /// element of one for an array (`CALI heroes[A0.x]`).
    pub(super) fn cali(&mut self, inst: &ast::Instruction, o: &ast::Operand) -> Option<Flat> {
        let name = match &o.path.head {
            PathHead::Name(id) if !o.negate && o.abs.is_none() => id,
            _ => {
                self.error(
                    Diagnostic::error("E1222", "CALI takes a SUBROUTINE variable")
                        .primary(o.span, "not a subroutine variable")
                        .note("ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.2: <CALI_instruction> ::= <CALIop> <opModifiers> <subroutineVarName> <optArrayMem> <optBranchCond>"),
                );
                return None;
            }
        };
        let sym = self.names.get(&name.name).copied();
        let Some(ty) = sym.and_then(|s| self.subroutines.vars.get(&s.var).cloned()) else {
            let mut e = Diagnostic::error(
                "E1222",
                format!("`{}` is not a SUBROUTINE variable", name.name),
            )
            .primary(name.span, "CALI calls through a SUBROUTINE variable");
            if let Some(s) = sym {
                e = e.secondary(self.var(s.var).span, "declared here");
            }
            self.error(e.note("ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.5: \"Subroutines may be called indirectly using the CALI instruction ... set through a \"subroutine\" parameter\"; declare one with `SUBROUTINE type name = program.subroutine[n];`"));
            return None;
        };
        let var = sym?.var;
        let (index, rest) = self.index(var, &o.path.parts, name.span)?;
        if let Some(extra) = rest.first() {
            let span = match extra {
                PathPart::Member(m) => m.span,
                PathPart::Index(_, s) => *s,
            };
            self.error(
                Diagnostic::error("E1222", "CALI's subroutine variable takes no suffix")
                    .primary(span, "remove this")
                    .note("ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.2: <subroutineVarName> <optArrayMem>, no swizzle"),
            );
            return None;
        }
        let cond = match &inst.cc_mask {
            Some(m) => Some(self.cc_test(m)?),
            None => None,
        };
        let selector = ir::Operand {
            var,
            index,
            swizzle: ir::Swizzle([0; 4]),
            negate: false,
            abs: false,
            negate_abs: false,
            ty: DataType::Unsigned,
            span: o.span,
        };
        self.subroutines.calls.push((ty, inst.span));
        let call = self.subroutines.calls.len() - 1;
        Some(Flat::Cali(selector, call, cond, inst.span))
    }

    /// A SUBROUTINE variable used as an ordinary operand (reported; it is
    /// read only by CALI).
    pub(super) fn subroutine_var_misused(&mut self, var: VarId, span: Span) {
        let declared = self.var(var).span;
        self.error(
            Diagnostic::error("E1222", "a SUBROUTINE variable is read only by CALI")
                .primary(span, "used as an operand")
                .secondary(declared, "declared with SUBROUTINE here")
                .note("ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.5: a subroutine parameter's value \"refers to one of a set of subroutines\"; it is not a number the program can read"),
        );
    }

    /// The candidates of each CALI (indexed as `calls`), once every label
    /// is known (`labels`: name → subroutine). Also reports the
    /// SUBROUTINETYPE labels that are not labels with a SUBROUTINENUM, and
    /// a CALI whose type has no subroutine.
    pub(super) fn resolve_indirect_calls(
        &mut self,
        labels: &HashMap<String, SubId>,
    ) -> Vec<Option<Vec<(u32, SubId)>>> {
        let mut types: Vec<(Text, (Span, Vec<Ident>))> = self
            .subroutines
            .types
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        types.sort_by_key(|(_, (span, _))| span.start);
        let mut candidates: HashMap<Text, Vec<(u32, SubId)>> = HashMap::new();
        for (ty, (_, members)) in &types {
            let mut list: Vec<(u32, SubId)> = Vec::new();
            for label in members {
                let num = self.subroutines.nums.get(&label.name).map(|(n, _)| *n);
                match (labels.get(label.name.as_str()), num) {
                    (Some(&sub), Some(num)) => list.push((num, sub)),
                    _ if self.subroutines.bad_nums.contains(&label.name) => {}
                    (found, _) => {
                        let why = if found.is_some() {
                            "this label has no `SUBROUTINENUM(n)`"
                        } else {
                            "no such label"
                        };
                        self.error(
                            Diagnostic::error("E1220", format!("`{}` in SUBROUTINETYPE `{ty}` is not a label with a SUBROUTINENUM", label.name))
                                .primary(label.span, why)
                                .note(TYPE_RULE)
                                .note(format!("write the label as `{} SUBROUTINENUM(n):`", label.name)),
                        );
                    }
                }
            }
            list.sort();
            list.dedup();
            candidates.insert(ty.clone(), list);
        }
        let calls = std::mem::take(&mut self.subroutines.calls);
        let resolved = calls
            .iter()
            .map(|(ty, span)| {
                let list = candidates.get(ty).cloned().unwrap_or_default();
                if list.is_empty() {
                    self.error(
                        Diagnostic::error("E1226", format!("CALI through SUBROUTINETYPE `{ty}`, which has no subroutine"))
                            .primary(*span, "nothing this call could call")
                            .note("ARB_shader_subroutine, issue (2): \"Attempting to link a program that calls a function pointer with no potential associations produces a link error.\""),
                    );
                    return None;
                }
                Some(list)
            })
            .collect();
        self.subroutines.calls = calls;
        resolved
    }

    /// "Programs that may potentially cause infinite recursion through
    /// indirect calls will fail to compile" (2.X.5): a CALI whose candidate
    /// can reach the subroutine the CALI is in again.
    pub(super) fn indirect_recursion(&mut self, program: &ir::Program) {
        // Only a CALI can recurse indirectly; without one, the walk of
        // every subroutine's transfers below is not needed.
        if self.subroutines.calls.is_empty() {
            return;
        }
        let count = program.subroutines.len();
        let edges: Vec<Vec<SubId>> = (0..count)
            .map(|i| {
                program
                    .transfers(SubId(i as u32))
                    .into_iter()
                    .map(|(_, t)| t)
                    .filter(|t| (t.0 as usize) < count)
                    .collect()
            })
            .collect();
        let reaches = |from: SubId, to: SubId| {
            let mut seen = vec![false; count];
            let mut stack = vec![from];
            while let Some(s) = stack.pop() {
                if s == to {
                    return true;
                }
                if std::mem::replace(&mut seen[s.0 as usize], true) {
                    continue;
                }
                stack.extend(edges[s.0 as usize].iter().copied());
            }
            false
        };
        let mut reported: Vec<Span> = Vec::new();
        for (i, sub) in program.subroutines.iter().enumerate() {
            let mut calls: Vec<(Vec<(u32, SubId)>, Span)> = Vec::new();
            super::rules::walk(&sub.body, &mut |s| {
                if let Stmt::CallIndirect { targets, span, .. } = s {
                    calls.push((targets.clone(), *span));
                }
            });
            for (targets, span) in calls {
                let hit = targets.iter().find(|&&(_, t)| reaches(t, SubId(i as u32)));
                if let (Some(&(_, t)), false) = (hit, reported.contains(&span)) {
                    reported.push(span);
                    let callee = label_name(program.sub(t));
                    self.error(
                        Diagnostic::error("E1225", format!("CALI can recurse: `{callee}` leads back to the subroutine that calls it"))
                            .primary(span, format!("may call `{callee}`"))
                            .note("ARB_shader_subroutine, NV_gpu_program5 edits, 2.X.5: \"Programs that may potentially cause infinite recursion through indirect calls will fail to compile.\""),
                    );
                }
            }
        }
    }
}

fn label_name(sub: &Subroutine) -> &str {
    sub.name.as_deref().unwrap_or("<start>")
}

/// `program.subroutine[n]` or `program.subroutine[a..b]`: the first and
/// last parameter.
fn subroutine_params(item: &InitItem) -> Option<(u64, u64)> {
    let InitItem::Binding(p) = item else {
        return None;
    };
    match (&p.head, p.parts.as_slice()) {
        (PathHead::Root(Root::Program, _), [PathPart::Member(m), PathPart::Index(ix, _)])
            if m.name.as_str() == "subroutine" =>
        {
            match ix {
                IndexExpr::Int(n) => n.value().map(|v| (v, v)),
                IndexExpr::Range(a, b) => Some((a.value()?, b.value()?)),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::{Options, TargetEnv};

    /// A CALI through an array element with a condition, in each
    /// NV_gpu_program5 program type, for every target environment: the
    /// module passes spirv-val.
    #[test]
    fn indirect_calls_validate_in_every_program_type_and_environment() {
        let body = "SUBROUTINETYPE T { f, g };\nSUBROUTINE T s[] = { program.subroutine[2..3] };\nINT TEMP a;\nTEMP c;\nf SUBROUTINENUM(4):\nADD c, c, 1;\nRET;\ng SUBROUTINENUM(9):\nMUL c, c, 2;\nRET;\nmain:\nMOV c, 0;\nMOVC.S a, {1, 0, 0, 0};\nCALI s[a.x] (NE.x);\n";
        let programs = [
            format!("!!NVvp5.0\n{body}MOV result.position, c;\nEND\n"),
            format!("!!NVfp5.0\n{body}MOV result.color, c;\nEND\n"),
            format!("!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\n{body}MOV result.position, c;\nEMIT;\nEND\n"),
            format!("!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\nSTORAGE b = program.storage[0];\n{body}STB.F32 c.x, b[0];\nEND\n"),
        ];
        for src in &programs {
            for env in [
                TargetEnv::Vulkan1_0,
                TargetEnv::Vulkan1_1,
                TargetEnv::Vulkan1_3,
            ] {
                let options = Options {
                    target_env: env,
                    ..Options::default()
                };
                let compiled = crate::compile(src, &options);
                assert!(
                    compiled.is_ok(),
                    "{src} ({env:?}): {}",
                    compiled
                        .err()
                        .map(|d| d.render("t", src, false))
                        .unwrap_or_default()
                );
            }
        }
    }

    /// The candidates are the type's labels in SUBROUTINENUM order, each
    /// statement of the type adding to it.
    #[test]
    fn a_cali_calls_the_labels_of_its_type_in_number_order() {
        let src = "!!NVfp5.0\nSUBROUTINETYPE T { g };\nSUBROUTINETYPE T { f };\nSUBROUTINE T s = program.subroutine[0];\nTEMP c;\nf SUBROUTINENUM(4):\nMOV c, 1;\nRET;\ng SUBROUTINENUM(9):\nMOV c, 2;\nRET;\nmain:\nCALI s;\nMOV result.color, c;\nEND\n";
        let (program, _) = crate::check(src, &Options::default()).unwrap();
        let crate::ir::Stmt::CallIndirect { targets, .. } = &program.sub(program.entry).body[0]
        else {
            panic!("not a CALI: {:?}", program.sub(program.entry).body[0]);
        };
        let named: Vec<(u32, &str)> = targets
            .iter()
            .map(|&(n, t)| (n, program.sub(t).name.as_deref().unwrap_or("")))
            .collect();
        assert_eq!(named, [(4, "f"), (9, "g")]);
    }
}

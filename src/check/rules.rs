//! Whole-program rules, checked once the IR is built: limits (ARB_vertex_program
//! and ARB_fragment_program section 2.X.3.9 via NV_gpu_program4, Table X.21),
//! rules about bindings across variables, and option-dependent rules.

use super::census::Census;
use super::{Checker, ProgramText};
use crate::diag::Diagnostic;
use crate::ir::{
    AttribBinding, Block, Index, Operand, ParamBinding, Program, ResultBinding, Stmt, VarId,
    VarKind,
};
use crate::isa::Stage;
use crate::span::Span;
use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// Calls `f` on every statement of a block, depth first, in source order.
///
/// Generic rather than over `dyn FnMut`: each whole-program rule's walk
/// gets its own copy with the closure inlined, instead of an indirect call
/// per statement (docs/performance.md, "Session 10 (checker)").
pub(crate) fn walk<F: FnMut(&Stmt)>(block: &Block, f: &mut F) {
    for s in block {
        f(s);
        for b in s.blocks() {
            walk(b, f);
        }
    }
}

/// Calls `f` on every operand a statement reads, including the address
/// operands of relative indices: the statement's own operands first, then
/// their addresses level by level, then the destination's address.
///
/// No list is built: this runs for every statement of several
/// whole-program walks, and collecting the operands into a `Vec` first was
/// an allocation per statement (docs/performance.md, "Session 8").
pub(crate) fn for_each_operand<'a>(s: &'a Stmt, mut f: impl FnMut(&'a Operand)) {
    let mut deeper = false;
    for o in s.operands() {
        f(o);
        deeper |= matches!(o.index, Index::Relative { .. });
    }
    // The addresses `depth` relative indices down, in operand order.
    let mut depth = 1;
    while deeper {
        deeper = false;
        'operands: for o in s.operands() {
            let mut a = o;
            for _ in 0..depth {
                match &a.index {
                    Index::Relative { address, .. } => a = address,
                    _ => continue 'operands,
                }
            }
            f(a);
            deeper |= matches!(a.index, Index::Relative { .. });
        }
        depth += 1;
    }
    if let Some(d) = s.dest() {
        if let Index::Relative { address, .. } = &d.index {
            f(address);
        }
    }
}

impl Checker<'_> {
    pub(super) fn program_rules(&mut self, p: &Program, text: &ProgramText, census: &Census) {
        self.limit_rules(p, text);
        self.component_rules(p, census);
        self.vertex_texture_units(p, census);
        self.relative_array_rules(p, census);
        self.buffer_rules(p);
        self.binding_rules(p);
    }

    pub(super) fn has_option(&self, name: &str) -> bool {
        self.options_seen.iter().any(|(n, _)| n == name)
    }

    fn option_span(&self, name: &str) -> Option<Span> {
        self.options_seen
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }

    /// Section 2.X.3.9 (ARB_vertex_program/ARB_fragment_program limits) and
    /// the option-dependent reductions of NV_fragment_program4 and
    /// NV_vertex_program4.
    fn limit_rules(&mut self, p: &Program, text: &ProgramText) {
        let limits = self.options.limits.clone();
        let fog = ["ARB_fog_exp", "ARB_fog_exp2", "ARB_fog_linear"]
            .into_iter()
            .find(|f| self.has_option(f));
        let (instr_cut, why) = match fog {
            Some("ARB_fog_exp") => (3, " minus 3 (ARB_fog_exp)"),
            Some("ARB_fog_exp2") => (4, " minus 4 (ARB_fog_exp2)"),
            Some(_) => (2, " minus 2 (ARB_fog_linear)"),
            None if self.has_option("ARB_position_invariant") => {
                (4, " minus 4 (ARB_position_invariant)")
            }
            None => (0, ""),
        };
        let instructions = &text.instructions;
        let max = limits.max_instructions.saturating_sub(instr_cut) as usize;
        if instructions.len() > max {
            self.error(
                Diagnostic::error("E0800", format!("{} instructions, more than the limit of {max}", instructions.len()))
                    .primary(instructions[max], "the first instruction past the limit")
                    .note(format!("ARB_vertex_program / ARB_fragment_program: a program fails to load if it exceeds MAX_PROGRAM_INSTRUCTIONS_ARB ({}){why}; see docs/limits.md", limits.max_instructions)),
            );
        }
        let fog_cut = u32::from(fog.is_some());
        let count = |kind: fn(&VarKind) -> bool| -> (u32, Option<Span>) {
            let mut n = 0;
            let mut last = None;
            for v in &p.variables {
                if kind(&v.kind) {
                    n += v.len();
                    last = Some(v.span);
                }
            }
            (n, last)
        };
        // ADDRESS registers are temporaries in the IR; they count against
        // their own limit (ARB_vertex_program 2.14.3.7), not this one.
        let addresses: Vec<Span> = self.address_vars.iter().map(|&v| p.var(v).span).collect();
        let (temps, tspan) = count(|k| matches!(k, VarKind::Temp));
        let temps = temps - addresses.len() as u32;
        let tmax = limits.max_temporaries.saturating_sub(fog_cut);
        if temps > tmax {
            self.error(
                Diagnostic::error("E0801", format!("{temps} temporaries, more than the limit of {tmax}"))
                    .primary(tspan.unwrap_or_default(), "declared here, among others")
                    .note("ARB_vertex_program / ARB_fragment_program: a program fails to load if it uses more than MAX_PROGRAM_TEMPORARIES_ARB temporary vectors (array elements counted); see docs/limits.md"),
            );
        }
        let amax = limits.max_address_registers;
        if addresses.len() as u32 > amax {
            let mut spans = addresses.clone();
            spans.sort_by_key(|s| s.start);
            self.error(
                Diagnostic::error("E0809", format!("{} address registers, more than the limit of {amax}", spans.len()))
                    .primary(spans[amax as usize], "one too many")
                    .note("ARB_vertex_program 2.14.3.7: \"Each address register declared in the program, using the <ADDRESS_statement> grammar rule, counts against this limit\" (MAX_PROGRAM_ADDRESS_REGISTERS_ARB); \"A program that exceeds any of these resource limits will fail to load.\" See docs/limits.md"),
            );
        }
        let (params, pspan) = count(|k| matches!(k, VarKind::Param(_)));
        let pmax = limits.max_parameters.saturating_sub(2 * fog_cut);
        if params > pmax {
            self.error(
                Diagnostic::error("E0802", format!("{params} program parameters, more than the limit of {pmax}"))
                    .primary(pspan.unwrap_or_default(), "declared here, among others")
                    .note("ARB_vertex_program / ARB_fragment_program: a program fails to load if it uses more than MAX_PROGRAM_PARAMETERS_ARB parameter vectors; see docs/limits.md"),
            );
        }
        let mut attribs: BTreeMap<String, Span> = BTreeMap::new();
        for v in &p.variables {
            if let VarKind::Attrib(b) = &v.kind {
                for a in b {
                    attribs.entry(format!("{a:?}")).or_insert(v.span);
                }
            }
        }
        let amax = limits.max_attribs.saturating_sub(fog_cut);
        if attribs.len() as u32 > amax {
            let span = attribs.values().max().copied().unwrap_or_default();
            self.error(
                Diagnostic::error("E0803", format!("{} attribute bindings, more than the limit of {amax}", attribs.len()))
                    .primary(span, "one of them")
                    .note("ARB_vertex_program / ARB_fragment_program: a program fails to load if it uses more than MAX_PROGRAM_ATTRIBS_ARB attributes; see docs/limits.md"),
            );
        }
        for v in &p.variables {
            if let VarKind::Param(bs) = &v.kind {
                for b in bs {
                    let (n, max, what) = match b {
                        ParamBinding::Env(n) => (*n, limits.max_env_parameters, "program.env"),
                        ParamBinding::Local(n) => {
                            (*n, limits.max_local_parameters, "program.local")
                        }
                        _ => continue,
                    };
                    if n >= max {
                        self.error(
                            Diagnostic::error("E0804", format!("`{what}[{n}]` is past the last parameter ({})", max - 1))
                                .primary(v.span, format!("{what} has {max} entries"))
                                .note("ARB_vertex_program section 2.14.1.1: program environment and local parameters are numbered 0 to MAX_PROGRAM_ENV_PARAMETERS_ARB-1 and MAX_PROGRAM_LOCAL_PARAMETERS_ARB-1; see docs/limits.md"),
                        );
                        return;
                    }
                }
            }
            if let VarKind::Buffer(b) = &v.kind {
                if b.buffer >= limits.max_buffer_bindings {
                    self.error(
                        Diagnostic::error("E0805", format!("parameter buffer binding {} is past the last one ({})", b.buffer, limits.max_buffer_bindings - 1))
                            .primary(v.span, "bound here")
                            .note("NV_parameter_buffer_object: binding points are numbered 0 to MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV-1; see docs/limits.md"),
                    );
                }
            }
        }
        if let Some(g) = p.geometry {
            let span = self.vertices_out_decl.unwrap_or(text.header);
            if g.vertices_out > limits.max_output_vertices {
                self.error(
                    Diagnostic::error("E0725", format!("VERTICES_OUT {} is more than the limit of {}", g.vertices_out, limits.max_output_vertices))
                        .primary(span, "vertex limit")
                        .note("NV_geometry_program4 section 2.X.7: the vertex limit may not exceed MAX_PROGRAM_OUTPUT_VERTICES_NV; see docs/limits.md"),
                );
            } else {
                let results: BTreeSet<String> = p
                    .variables
                    .iter()
                    .filter_map(|v| {
                        if let VarKind::Result(b) = &v.kind {
                            Some(b.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>())
                        } else {
                            None
                        }
                    })
                    .flatten()
                    .collect();
                let components = 4 * results.len() as u32;
                if g.vertices_out.saturating_mul(components) > limits.max_total_output_components {
                    self.error(
                        Diagnostic::error("E0726", format!("VERTICES_OUT {} times {components} result components is more than {}", g.vertices_out, limits.max_total_output_components))
                            .primary(span, "vertex limit")
                            .note("NV_geometry_program4 section 2.X.7: the product of the vertex limit and the result components written may not exceed MAX_PROGRAM_TOTAL_OUTPUT_COMPONENTS_NV; see docs/limits.md"),
                    );
                }
            }
        }
    }

    /// Sections 2.X.3.2 and 2.X.3.5: MAX_PROGRAM_ATTRIB_COMPONENTS_NV and
    /// MAX_PROGRAM_RESULT_COMPONENTS_NV. Counted as the spec allows: a
    /// component of a binding counts when an instruction reads it (through
    /// its swizzle) or writes it (through its write mask); for an array, the
    /// components used count for every binding of the array.
    fn component_rules(&mut self, p: &Program, census: &Census) {
        // The components read and written of each variable, by id (ids
        // are dense): a flag byte per variable instead of a hash-map entry
        // per operand (docs/performance.md, "Session 8").
        let (read, written) = (&census.read, &census.written);
        let mut attrib: BTreeMap<String, u8> = BTreeMap::new();
        let mut result: BTreeMap<String, u8> = BTreeMap::new();
        for (v, m) in p.variables.iter().zip(read).filter(|(_, m)| **m != 0) {
            if let VarKind::Attrib(bs) = &v.kind {
                for b in bs {
                    *attrib.entry(format!("{b:?}")).or_default() |= m;
                }
            }
        }
        for (v, m) in p.variables.iter().zip(written).filter(|(_, m)| **m != 0) {
            if let VarKind::Result(bs) = &v.kind {
                for b in bs {
                    *result.entry(format!("{b:?}")).or_default() |= m;
                }
            }
        }
        let count = |m: &BTreeMap<String, u8>| m.values().map(|x| x.count_ones()).sum::<u32>();
        let limits = &self.options.limits;
        let (attrib_max, result_max) = (limits.max_attrib_components, limits.max_result_components);
        let span = p
            .subroutines
            .get(p.entry.0 as usize)
            .map(|s| s.span)
            .unwrap_or_default();
        let (a, r) = (count(&attrib), count(&result));
        if a > attrib_max {
            self.error(
                Diagnostic::error("E0806", format!("{a} attribute components are read, more than the limit of {attrib_max}"))
                    .primary(span, "this program")
                    .note("section 2.X.3.2: \"Programs that use more attribute binding components than this limit will fail to load\" (MAX_PROGRAM_ATTRIB_COMPONENTS_NV; see docs/limits.md)"),
            );
        }
        if r > result_max {
            self.error(
                Diagnostic::error("E0807", format!("{r} result components are written, more than the limit of {result_max}"))
                    .primary(span, "this program")
                    .note("section 2.X.3.5: \"Programs that require more result binding components than this limit will fail to load\" (MAX_PROGRAM_RESULT_COMPONENTS_NV; see docs/limits.md)"),
            );
        }
    }

    /// NV_vertex_program3 2.14.3.7: "If the number of texture image units
    /// referenced by a vertex program exceeds this limit
    /// [MAX_VERTEX_TEXTURE_IMAGE_UNITS_ARB], the program will fail to load."
    /// Any unit number may be used; what is limited is how many.
    fn vertex_texture_units(&mut self, p: &Program, census: &Census) {
        if p.stage != crate::isa::Stage::Vertex {
            return;
        }
        let units = &census.vertex_texture_units;
        let max = self.options.limits.max_vertex_texture_units;
        if units.len() as u32 > max {
            let (&unit, &span) = units.iter().nth(max as usize).expect("more than max units");
            self.error(
                Diagnostic::error("E0808", format!("{} texture units are used, more than the {max} a vertex program may use", units.len()))
                    .primary(span, format!("texture[{unit}] is one too many"))
                    .note("NV_vertex_program3 2.14.3.7: \"If the number of texture image units referenced by a vertex program exceeds this limit, the program will fail to load.\" (MAX_VERTEX_TEXTURE_IMAGE_UNITS_ARB; docs/limits.md)"),
            );
        }
    }

    /// Sections 2.X.3.2, 2.X.3.3 and 2.X.3.5: a binding may be used in at
    /// most one array that is accessed with relative addressing.
    fn relative_array_rules(&mut self, p: &Program, census: &Census) {
        let relative = census
            .relative
            .iter()
            .enumerate()
            .filter(|(_, &r)| r)
            .map(|(v, _)| VarId(v as u32));
        let mut owner: HashMap<String, VarId> = HashMap::default();
        for v in relative {
            let var = p.var(v);
            let keys: Vec<String> = match &var.kind {
                VarKind::Attrib(b) => b.iter().map(|x| format!("A{x:?}")).collect(),
                VarKind::Result(b) => b.iter().map(|x| format!("R{x:?}")).collect(),
                VarKind::Param(b) => b
                    .iter()
                    .filter(|x| !matches!(x, ParamBinding::Constant(_)))
                    .map(|x| format!("P{x:?}"))
                    .collect(),
                _ => continue,
            };
            let mut seen_here = BTreeSet::new();
            for k in keys {
                if !seen_here.insert(k.clone()) {
                    self.error(
                        Diagnostic::error("E0328", "a binding appears twice in a relatively addressed array")
                            .primary(var.span, "this array is indexed with a register")
                            .note("section 2.X.3.3: \"A program will fail to load if any program parameter binding is used more than once in a single array accessed using relative addressing\""),
                    );
                    break;
                }
                if let Some(&first) = owner.get(&k) {
                    let other = p.var(first).span;
                    self.error(
                        Diagnostic::error("E0328", "a binding is used in two relatively addressed arrays")
                            .primary(var.span, "this array is indexed with a register ...")
                            .secondary(other, "... and so is this one, with a binding in common")
                            .note("sections 2.X.3.2, 2.X.3.3 and 2.X.3.5: a binding may be used in no more than one array variable accessed with relative addressing"),
                    );
                    return;
                }
                owner.insert(k, v);
            }
        }
    }

    /// NV_parameter_buffer_object section 2.X.3.6: BUFFER and BUFFER4 may
    /// not share a binding point.
    fn buffer_rules(&mut self, p: &Program) {
        let mut kinds: HashMap<u32, (bool, Span)> = HashMap::default();
        for v in &p.variables {
            if let VarKind::Buffer(b) = &v.kind {
                match kinds.get(&b.buffer) {
                    Some(&(vec4, first)) if vec4 != b.vec4 => {
                        self.error(
                            Diagnostic::error("E0329", format!("BUFFER and BUFFER4 both bind program.buffer[{}]", b.buffer))
                                .primary(v.span, if b.vec4 { "declared BUFFER4" } else { "declared BUFFER" })
                                .secondary(first, if vec4 { "declared BUFFER4 here" } else { "declared BUFFER here" })
                                .note("section 2.X.3.6: \"A program will fail to load if a variable declared as \"BUFFER\" and another variable declared as \"BUFFER4\" use the same buffer binding point.\""),
                        );
                    }
                    Some(_) => {}
                    None => {
                        kinds.insert(b.buffer, (b.vec4, v.span));
                    }
                }
            }
        }
    }

    /// NV_gpu_program5's LONG vertex attributes (2.X.3.1; read with
    /// VertexAttribL*): 64-bit components come from vertex arrays, so the
    /// binding is a generic attribute or one of its conventional aliases;
    /// and four 64-bit components take two Vulkan Locations, n and n + 1
    /// (docs/interface.md, "64-bit vertex attributes"), which no other
    /// attribute the program binds may use.
    fn long_attrib_rules(&mut self, p: &Program) {
        use crate::spirv::{attrib_slot, InterfaceSlot};
        // Each Location bound: whether LONG, where, and the binding's name.
        let mut taken: BTreeMap<u32, (bool, Span, String)> = BTreeMap::new();
        for (i, v) in p.variables.iter().enumerate() {
            let VarKind::Attrib(bs) = &v.kind else {
                continue;
            };
            let long = p.long_storage(VarId(i as u32));
            for b in bs {
                let name = crate::interp::attribute_name(Stage::Vertex, b);
                let location = match attrib_slot(Stage::Vertex, b) {
                    Some(InterfaceSlot::Location(l)) => l,
                    _ if long => {
                        self.error(
                            Diagnostic::error("E1260", format!("LONG ATTRIB bound to `{name}`, which is no vertex array attribute"))
                                .primary(v.span, "a LONG attribute")
                                .note("NV_gpu_program5 issue (6): 64-bit vertex attribute components are specified with \"the VertexAttribL* and VertexAttribLPointer APIs\", which set generic attributes; `vertex.id` and `vertex.instance` are 32-bit integers the GL computes")
                                .note("declare the attribute without LONG: a 64-bit instruction promotes a 32-bit operand (`MOV.S64 t, id;`, 2.X.4.1)"),
                        );
                        continue;
                    }
                    _ => continue,
                };
                let spans = if long {
                    vec![location, location.saturating_add(1)]
                } else {
                    vec![location]
                };
                for l in spans {
                    match taken.get(&l) {
                        // Another binding (or another size) at a Location a
                        // LONG attribute takes; two 32-bit bindings of one
                        // Location are E0220's aliasing rule.
                        Some((other_long, span, other))
                            if (long || *other_long) && (*other_long != long || *other != name) =>
                        {
                            self.error(
                                Diagnostic::error("E1261", format!("`{name}` and `{other}` both use vertex input Location {l}"))
                                    .primary(v.span, format!("{name} here"))
                                    .secondary(*span, format!("{other} here"))
                                    .note("a LONG vertex attribute's four 64-bit components take two Locations, n and n + 1 (Vulkan: a 64-bit four-component input \"consumes two consecutive locations\"; docs/interface.md, \"64-bit vertex attributes\")")
                                    .note("bind the LONG attribute to `vertex.attrib[n]` with `vertex.attrib[n + 1]` unused, or pass the value as two 32-bit attributes and rebuild it with PK64 (NV_gpu_program5 issue (6))"),
                            );
                            // One report: the rest follows from it.
                            return;
                        }
                        Some(_) => {}
                        None => {
                            taken.insert(l, (long, v.span, name.clone()));
                        }
                    }
                }
            }
        }
    }

    fn binding_rules(&mut self, p: &Program) {
        match p.stage {
            Stage::Vertex => {
                self.long_attrib_rules(p);
                // NV_vertex_program4: conventional and generic attributes of
                // one row of the aliasing table may not both be bound.
                let mut generic: BTreeMap<u32, Span> = BTreeMap::new();
                let mut conventional: Vec<(u32, &str, Span)> = Vec::new();
                for v in &p.variables {
                    if let VarKind::Attrib(bs) = &v.kind {
                        for b in bs {
                            match b {
                                AttribBinding::Generic(n) => {
                                    generic.entry(*n).or_insert(v.span);
                                }
                                AttribBinding::Position => {
                                    conventional.push((0, "vertex.position", v.span))
                                }
                                AttribBinding::Normal => {
                                    conventional.push((2, "vertex.normal", v.span))
                                }
                                AttribBinding::Color(c) if !c.secondary => {
                                    conventional.push((3, "vertex.color", v.span))
                                }
                                AttribBinding::Color(_) => {
                                    conventional.push((4, "vertex.color.secondary", v.span))
                                }
                                AttribBinding::FogCoord => {
                                    conventional.push((5, "vertex.fogcoord", v.span))
                                }
                                AttribBinding::TexCoord(n) => {
                                    conventional.push((8 + n, "vertex.texcoord", v.span))
                                }
                                _ => {}
                            }
                        }
                    }
                }
                for (n, name, span) in conventional {
                    if let Some(&g) = generic.get(&n) {
                        self.error(
                            Diagnostic::error("E0220", format!("`{name}` and `vertex.attrib[{n}]` are both bound"))
                                .primary(span, format!("{name} here"))
                                .secondary(g, format!("vertex.attrib[{n}] here"))
                                .note("NV_vertex_program4 section 2.X.3.2: \"a vertex program will fail to load if it binds both a conventional vertex attribute and a generic vertex attribute listed in the same row of Table X.X\""),
                        );
                        return;
                    }
                }
                if let Some(opt) = self.option_span("ARB_position_invariant") {
                    if let Some(v) = p.variables.iter().find(|v| matches!(&v.kind, VarKind::Result(b) if b.contains(&ResultBinding::Position))) {
                        self.error(
                            Diagnostic::error("E0702", "result.position is bound in a position-invariant program")
                                .primary(v.span, "result.position")
                                .secondary(opt, "the option that computes the position")
                                .note("NV_vertex_program4: \"When the position-invariant option is specified in a vertex program, vertex programs can no longer declare (explicitly or implicitly) a result variable bound to \"result.position\".\""),
                        );
                    }
                }
            }
            Stage::Fragment => {
                if !self.has_option("ARB_draw_buffers") && !self.has_option("ATI_draw_buffers") {
                    if let Some(v) = p.variables.iter().find(|v| matches!(&v.kind, VarKind::Result(b) if b.iter().any(|r| matches!(r, ResultBinding::FragColor(n) if *n > 0)))) {
                        self.error(
                            Diagnostic::error("E0703", "result.color[n] needs OPTION ARB_draw_buffers")
                                .primary(v.span, "a second colour output")
                                .note("NV_fragment_program4: \"If this option is not specified, a fragment program that attempts to bind \"result.color[n]\" will fail to load, and only \"result.color\" will be allowed.\"")
                                .note("add `OPTION ARB_draw_buffers;` at the top of the program"),
                        );
                    }
                }
            }
            Stage::Geometry | Stage::TessControl | Stage::TessEval | Stage::Compute => {}
        }
    }
}

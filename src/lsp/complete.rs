//! Completion. What is offered depends on where the cursor is in its
//! statement, read from the text (the statement being typed is usually
//! not valid yet):
//!
//! * the first word of a statement: the opcodes of the document's dialect
//!   (its header and options: `isa::OpInfo::in_dialect`), each with the
//!   suffix forms the dialect spells once the base name is typed (Table
//!   X.15; the ARB family's `R`/`H`/`X`, `C`, `_SAT`), declaration
//!   keywords of the dialect, `OPTION`, `END`;
//! * after an opcode and a `.`: its stand-alone modifiers (Table X.14;
//!   NV_gpu_program4 only);
//! * after `OPTION`: the options of the header (`isa::options_of`);
//! * in an operand: declared names (labels after `CAL`), binding roots,
//!   and after `root.` or `root.member.` the members the binding tables
//!   allow there (`state.matrix.` offers `modelview`, `projection`, …);
//!   after `texture[n],` the texture targets.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionResponse, Documentation, MarkupContent,
    MarkupKind, Position,
};

use super::analysis::{opcode_hover, DocumentIndex, SymbolKind};
use super::bindings::{members_after, roots};
use super::Snapshot;
use crate::isa::{
    options_of, split_opcode, AddressModel, Dialect, Features, Header, Stage, INSTRUCTIONS,
};

/// The declaration keywords of a dialect: the ARB family's (ARB_vertex_program
/// 2.14.2, ARB_fragment_program 3.11.2: `ADDRESS` in vertex programs),
/// NV_fragment_program_option's `SHORT`/`LONG` precision, and
/// NV_gpu_program4's (section 2.X.2: types, interpolation, buffers).
fn declaration_keywords(dialect: Dialect) -> Vec<&'static str> {
    let mut out = vec!["ATTRIB", "PARAM", "TEMP", "OUTPUT", "ALIAS"];
    if dialect.has(Features::NV4) {
        out.extend(["INT", "UINT", "FLOAT", "FLAT", "CENTROID", "NOPERSPECTIVE"]);
        out.extend(["SHORT", "LONG"]);
        if dialect.has(Features::PARAMETER_BUFFERS) {
            out.extend(["BUFFER", "BUFFER4"]);
        }
        if dialect.stage() == Stage::Geometry {
            out.extend(["PRIMITIVE_IN", "PRIMITIVE_OUT", "VERTICES_OUT"]);
        }
    } else if dialect.has(Features::NV_FRAGMENT_OPTIONS) {
        out.extend(["SHORT", "LONG"]);
    }
    if matches!(
        dialect.address_model(),
        AddressModel::ArbScalar | AddressModel::ArbVector
    ) {
        out.push("ADDRESS");
    }
    out
}
const TARGETS: &[&str] = &[
    "1D",
    "2D",
    "3D",
    "CUBE",
    "RECT",
    "SHADOW1D",
    "SHADOW2D",
    "SHADOWRECT",
    "SHADOWCUBE",
    "ARRAY1D",
    "ARRAY2D",
    "SHADOWARRAY1D",
    "SHADOWARRAY2D",
    "BUFFER",
];

fn item(label: &str, kind: CompletionItemKind, detail: Option<String>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        ..CompletionItem::default()
    }
}

/// The completion items at `position`.
pub(crate) fn complete(
    snapshot: &Snapshot,
    index: Option<&DocumentIndex>,
    position: Position,
) -> Option<CompletionResponse> {
    let text = &snapshot.text;
    let header = crate::syntax::lexer::read_header(text).ok()?.0;
    let dialect = index.map_or(Dialect::new(header), |i| i.dialect());
    let offset = snapshot.offset(position).min(text.len());
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line = &text[line_start..offset];
    if line.contains('#') || line.trim_start().starts_with("!!") {
        return None;
    }
    // The statement so far, without a leading label.
    let mut statement = line.rsplit(';').next().unwrap_or("");
    if let Some((before, after)) = statement.split_once(':') {
        if before
            .trim()
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        {
            statement = after;
        }
    }
    let word_start = statement
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '[' | ']')))
        .map_or(0, |i| i + 1);
    let word = &statement[word_start..];
    let before = statement[..word_start].trim();

    let mut items = Vec::new();
    if before.is_empty() {
        if let Some((opcode, _)) = word.split_once('.') {
            modifiers(opcode, dialect, &mut items);
        } else {
            opcodes(dialect, word, &mut items);
            let mut keywords = declaration_keywords(dialect);
            keywords.extend(["OPTION", "END"]);
            items.extend(
                keywords
                    .into_iter()
                    .filter(|k| k.starts_with(word))
                    .map(|k| item(k, CompletionItemKind::KEYWORD, None)),
            );
        }
    } else if before == "OPTION" {
        for o in offered_options(header).filter(|o| o.name.starts_with(word)) {
            let mut i = item(o.name, CompletionItemKind::CONSTANT, Some(o.spec.into()));
            i.documentation = Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: o.summary.to_string(),
            }));
            items.push(i);
        }
    } else if let Some(dot) = word.rfind('.') {
        // A binding, member by member (a declared name's `.` is a swizzle).
        let prefix = &word[..dot];
        for (member, doc) in members_after(dialect, prefix) {
            let mut i = item(member, CompletionItemKind::FIELD, Some(doc.path.clone()));
            i.documentation = Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: format!("{}\n\nSpec: {}", doc.meaning, doc.spec),
            }));
            items.push(i);
        }
    } else if before.ends_with(',') && previous_operand_is_texture(before) {
        items.extend(
            TARGETS
                .iter()
                .map(|t| item(t, CompletionItemKind::ENUM_MEMBER, None)),
        );
    } else {
        let opcode = before.split_whitespace().next().unwrap_or("");
        let call = split_opcode(opcode).is_ok_and(|s| s.info.name == "CAL");
        if call {
            // Labels, also those after the statement being typed, which
            // the parser reads as part of it until a `;` comes.
            let mut labels: Vec<&str> = text
                .lines()
                .filter_map(|l| {
                    let (name, _) = l.split('#').next()?.split_once(':')?;
                    let name = name.trim();
                    let valid = !name.is_empty()
                        && name
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
                    valid.then_some(name)
                })
                .filter(|n| n.starts_with(word))
                .collect();
            labels.dedup();
            items.extend(
                labels
                    .into_iter()
                    .map(|l| item(l, CompletionItemKind::FUNCTION, None)),
            );
        } else if let Some(index) = index {
            for s in index.symbols() {
                if s.kind != SymbolKind::Label && s.name.starts_with(word) {
                    let kind = CompletionItemKind::VARIABLE;
                    let detail = snapshot
                        .text
                        .get(s.statement.range())
                        .map(|t| t.trim().to_string());
                    items.push(item(&s.name, kind, detail));
                }
            }
        }
        if !call {
            items.extend(
                roots(dialect)
                    .into_iter()
                    .filter(|r| r.starts_with(word))
                    .map(|r| item(r, CompletionItemKind::MODULE, None)),
            );
        }
    }
    Some(CompletionResponse::Array(items))
}

/// The options a program with `header` may name (the option table's
/// headers; what one needs beside it, its hover says).
fn offered_options(header: Header) -> impl Iterator<Item = &'static crate::isa::OptionInfo> {
    options_of(header)
}

/// Opcodes of the dialect starting with `word`; once `word` names a whole
/// opcode, its suffixed forms too.
fn opcodes(dialect: Dialect, word: &str, items: &mut Vec<CompletionItem>) {
    for info in INSTRUCTIONS {
        if info.in_dialect(dialect).is_none() {
            continue;
        }
        let documentation = opcode_hover(info.name).map(|value| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            })
        });
        let mut add = |form: &str| {
            let mut i = item(
                form,
                CompletionItemKind::KEYWORD,
                Some(info.summary.to_string()),
            );
            i.documentation = documentation.clone();
            items.push(i);
        };
        if info.name.starts_with(word) {
            add(info.name);
        }
        if word.starts_with(info.name) {
            for form in suffixed_forms(info.name, dialect) {
                if form.starts_with(word) && form != info.name {
                    add(&form);
                }
            }
        }
    }
}

/// Every suffixed form of an opcode the table allows in a dialect, in Table
/// X.15's order (precision, condition code, clamping), e.g. `ADDR`,
/// `ADDC1_SAT`, `ADDX` (NV_fragment_program_option's fixed point).
pub(crate) fn suffixed_forms(name: &str, dialect: Dialect) -> Vec<String> {
    let Some(info) = crate::isa::OpInfo::lookup(name) else {
        return Vec::new();
    };
    let groups = info.modifier_groups_in(dialect);
    let has = |s: &str| groups.iter().any(|(_, suffixes)| suffixes.contains(&s));
    let precision: Vec<&str> = ["", "R", "H", "X"]
        .into_iter()
        .filter(|p| p.is_empty() || has(p))
        .collect();
    let cc: Vec<&str> = ["", "C", "C0", "C1"]
        .into_iter()
        .filter(|c| c.is_empty() || has(c))
        .collect();
    let clamp: Vec<&str> = ["", "_SAT", "_SSAT"]
        .into_iter()
        .filter(|c| c.is_empty() || has(c))
        .collect();
    let mut out = Vec::new();
    for p in &precision {
        for c in &cc {
            for s in &clamp {
                let form = format!("{name}{p}{c}{s}");
                if split_opcode(&form).is_ok_and(|split| split.info.name == name) {
                    out.push(form);
                }
            }
        }
    }
    out
}

/// The stand-alone modifiers of an opcode (Table X.14), after `OP.`.
fn modifiers(opcode: &str, dialect: Dialect, items: &mut Vec<CompletionItem>) {
    let Ok(split) = split_opcode(opcode) else {
        return;
    };
    for (standalone, _) in split.info.modifier_groups_in(dialect) {
        for m in standalone {
            let meaning =
                crate::isa::Modifier::standalone(m).map(|m| m.kind().describe().to_string());
            items.push(item(m, CompletionItemKind::KEYWORD, meaning));
        }
    }
}

/// Whether the operand before the last comma is `texture[n]`.
fn previous_operand_is_texture(before: &str) -> bool {
    let without_comma = before.trim_end_matches(',').trim_end();
    let last = without_comma.rsplit([',', ' ']).next().unwrap_or("");
    last.starts_with("texture[") && last.ends_with(']')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixed_forms_follow_the_modifier_groups() {
        let nv4 = Dialect::new(Header::NvFp4);
        let add = suffixed_forms("ADD", nv4);
        assert!(add.contains(&"ADDR_SAT".to_string()) && add.contains(&"ADDHC1_SSAT".to_string()));
        assert_eq!(add.len(), 3 * 4 * 3);
        // AND: integer only, with a condition code update.
        assert_eq!(
            suffixed_forms("AND", nv4),
            ["AND", "ANDC", "ANDC0", "ANDC1"]
        );
        assert_eq!(suffixed_forms("BRK", nv4), ["BRK"]);
        // The ARB family: `_SAT` only; NV_fragment_program_option adds
        // R/H/X precision and the one condition code C.
        assert_eq!(
            suffixed_forms("ADD", Dialect::new(Header::ArbFp1)),
            ["ADD", "ADD_SAT"]
        );
        let mut nvfp = Dialect::new(Header::ArbFp1);
        nvfp.enable(Features::NV_FP);
        let add = suffixed_forms("ADD", nvfp);
        assert!(add.contains(&"ADDXC_SAT".to_string()) && add.contains(&"ADDH".to_string()));
        assert!(
            !add.iter().any(|f| f.contains("C1") || f.contains("SSAT")),
            "{add:?}"
        );
    }

    /// Whether the checker accepts `OPTION name;` after `header`.
    fn option_accepted(header: &str, name: &str) -> bool {
        let source = format!("{header}\nOPTION {name};\nEND\n");
        let at = header.len() + 8;
        let options = crate::Options::default();
        let diagnostics = match crate::check(&source, &options) {
            Ok((_, warnings)) => warnings.0,
            Err(d) => d.0,
        };
        !diagnostics
            .iter()
            .any(|d| d.is_error() && d.primary_span().is_some_and(|s| s.start as usize == at))
    }

    /// Completion offers, after `OPTION`, exactly the options the checker
    /// accepts for the header.
    #[test]
    fn options_are_those_the_checker_accepts() {
        for header in Header::ALL {
            let offered: Vec<&str> = offered_options(header).map(|o| o.name).collect();
            for o in crate::isa::OPTIONS {
                assert_eq!(
                    offered.contains(&o.name),
                    option_accepted(header.text(), o.name),
                    "OPTION {} in a {header} program",
                    o.name
                );
            }
        }
        assert!(option_accepted("!!NVfp4.0", "ARB_fog_linear"));
        assert!(!option_accepted("!!NVvp4.0", "ARB_fog_linear"));
    }

    /// The opcodes offered are those of the dialect: `LOOP` and `BRA` only
    /// with the NV options, `ARL` only in vertex programs, `TEX` in ARB
    /// vertex programs only with NV_vertex_program3.
    #[test]
    fn opcodes_are_those_of_the_dialect() {
        let names = |d: Dialect| -> Vec<String> {
            let mut items = Vec::new();
            opcodes(d, "", &mut items);
            items.into_iter().map(|i| i.label).collect()
        };
        let arb_fp = names(Dialect::new(Header::ArbFp1));
        assert!(arb_fp.iter().any(|n| n == "TEX") && arb_fp.iter().any(|n| n == "KIL"));
        assert!(!arb_fp
            .iter()
            .any(|n| n == "LOOP" || n == "ARL" || n == "IF"));
        let mut fp2 = Dialect::new(Header::ArbFp1);
        fp2.enable(Features::NV_FP2);
        let fp2 = names(fp2);
        assert!(fp2.iter().any(|n| n == "LOOP") && fp2.iter().any(|n| n == "BRK"));
        let arb_vp = names(Dialect::new(Header::ArbVp1));
        assert!(arb_vp.iter().any(|n| n == "ARL") && !arb_vp.iter().any(|n| n == "TEX"));
        let mut vp2 = Dialect::new(Header::ArbVp1);
        vp2.enable(Features::NV_VP2);
        let vp2 = names(vp2);
        assert!(vp2.iter().any(|n| n == "BRA") && vp2.iter().any(|n| n == "ARA"));
        // Every opcode offered is one the checker takes in that dialect.
        for header in Header::ALL {
            for name in names(Dialect::new(header)) {
                let info = crate::isa::OpInfo::lookup(&name).unwrap();
                assert!(
                    info.in_dialect(Dialect::new(header)).is_some(),
                    "{name} in {header}"
                );
            }
        }
    }

    /// Declaration keywords follow the dialect.
    #[test]
    fn declaration_keywords_follow_the_dialect() {
        let vp = declaration_keywords(Dialect::new(Header::ArbVp1));
        assert!(vp.contains(&"ADDRESS") && !vp.contains(&"INT") && !vp.contains(&"SHORT"));
        let fp = declaration_keywords(Dialect::new(Header::ArbFp1));
        assert!(!fp.contains(&"ADDRESS") && !fp.contains(&"SHORT"));
        let mut nvfp = Dialect::new(Header::ArbFp1);
        nvfp.enable(Features::NV_FP);
        assert!(declaration_keywords(nvfp).contains(&"LONG"));
        let gp = declaration_keywords(Dialect::new(Header::NvGp4));
        assert!(gp.contains(&"PRIMITIVE_IN") && gp.contains(&"FLAT") && !gp.contains(&"ADDRESS"));
    }
}

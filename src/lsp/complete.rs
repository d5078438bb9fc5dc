//! Completion. What is offered depends on where the cursor is in its
//! statement, read from the text (the statement being typed is usually
//! not valid yet):
//!
//! * the first word of a statement: opcodes of the program type (each
//!   with its valid Table X.15 suffix forms once the base name is typed,
//!   from `isa::INSTRUCTIONS`), declaration keywords, `OPTION`, `END`;
//! * after an opcode and a `.`: its stand-alone modifiers (Table X.14);
//! * after `OPTION`: the options the checker accepts for the program type;
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
use crate::isa::{split_opcode, Stage, INSTRUCTIONS};

const DECLARATIONS: &[&str] = &[
    "ATTRIB",
    "PARAM",
    "TEMP",
    "OUTPUT",
    "ALIAS",
    "BUFFER",
    "BUFFER4",
    "INT",
    "UINT",
    "FLOAT",
    "SHORT",
    "LONG",
    "FLAT",
    "CENTROID",
    "NOPERSPECTIVE",
];
const GEOMETRY_DECLARATIONS: &[&str] = &["PRIMITIVE_IN", "PRIMITIVE_OUT", "VERTICES_OUT"];
const OPTIONS: &[&str] = &[
    "ARB_position_invariant",
    "ARB_fog_linear",
    "ARB_fog_exp",
    "ARB_fog_exp2",
    "ARB_precision_hint_fastest",
    "ARB_precision_hint_nicest",
    "ARB_draw_buffers",
    "ARB_fragment_program_shadow",
    "NV_parameter_buffer_object",
];
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
    let stage = crate::syntax::lexer::read_header(text).ok()?.0.stage();
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
            modifiers(opcode, &mut items);
        } else {
            opcodes(stage, word, &mut items);
            let mut keywords: Vec<&str> = DECLARATIONS.to_vec();
            if stage == Stage::Geometry {
                keywords.extend(GEOMETRY_DECLARATIONS);
            }
            keywords.extend(["OPTION", "END"]);
            items.extend(
                keywords
                    .into_iter()
                    .filter(|k| k.starts_with(word))
                    .map(|k| item(k, CompletionItemKind::KEYWORD, None)),
            );
        }
    } else if before == "OPTION" {
        let header = text.get(index.map_or(0..0, |i| i.header.range()))?.trim();
        for name in OPTIONS.iter().filter(|o| o.starts_with(word)) {
            if option_accepted(header, name) {
                items.push(item(name, CompletionItemKind::CONSTANT, None));
            }
        }
    } else if let Some(dot) = word.rfind('.') {
        // A binding, member by member (a declared name's `.` is a swizzle).
        let prefix = &word[..dot];
        for (member, doc) in members_after(stage, prefix) {
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
                roots(stage)
                    .into_iter()
                    .filter(|r| r.starts_with(word))
                    .map(|r| item(r, CompletionItemKind::MODULE, None)),
            );
        }
    }
    Some(CompletionResponse::Array(items))
}

/// Opcodes of the program type starting with `word`; once `word` names a
/// whole opcode, its suffixed forms too.
fn opcodes(stage: Stage, word: &str, items: &mut Vec<CompletionItem>) {
    for info in INSTRUCTIONS {
        if info.only_stage.is_some_and(|s| s != stage) {
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
            for form in suffixed_forms(info.name) {
                if form.starts_with(word) && form != info.name {
                    add(&form);
                }
            }
        }
    }
}

/// Every suffixed form of an opcode the table allows, in Table X.15's order
/// (precision, condition code, clamping), e.g. `ADDR`, `ADDC1_SAT`.
pub(crate) fn suffixed_forms(name: &str) -> Vec<String> {
    let Some(info) = crate::isa::OpInfo::lookup(name) else {
        return Vec::new();
    };
    let groups = info.modifier_groups();
    let has = |s: &str| groups.iter().any(|(_, suffixes)| suffixes.contains(&s));
    let precision: Vec<&str> = ["", "R", "H"]
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
fn modifiers(opcode: &str, items: &mut Vec<CompletionItem>) {
    let Ok(split) = split_opcode(opcode) else {
        return;
    };
    for (standalone, _) in split.info.modifier_groups() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixed_forms_follow_the_modifier_groups() {
        let add = suffixed_forms("ADD");
        assert!(add.contains(&"ADDR_SAT".to_string()) && add.contains(&"ADDHC1_SSAT".to_string()));
        assert_eq!(add.len(), 3 * 4 * 3);
        // AND: integer only, with a condition code update.
        assert_eq!(suffixed_forms("AND"), ["AND", "ANDC", "ANDC0", "ANDC1"]);
        assert_eq!(suffixed_forms("BRK"), ["BRK"]);
    }

    #[test]
    fn options_are_those_the_checker_accepts() {
        assert!(option_accepted("!!NVfp4.0", "ARB_fog_linear"));
        assert!(!option_accepted("!!NVvp4.0", "ARB_fog_linear"));
        assert!(option_accepted("!!NVvp4.0", "ARB_position_invariant"));
    }
}

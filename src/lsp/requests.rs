//! The requests thread: answers each request against the newest version of
//! its document (module documentation of `lsp`), with the handlers for
//! hover, definition, references, highlights, rename, symbols, code
//! actions and completion.

use std::collections::HashMap;
use std::sync::mpsc::Receiver;

use lsp_server::{ErrorCode, Message, Request, Response};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentHighlightRequest, DocumentSymbolRequest, GotoDefinition,
    HoverRequest, PrepareRenameRequest, References, Rename, Request as RequestTrait,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CompletionParams,
    DocumentHighlight, DocumentHighlightKind, DocumentHighlightParams, DocumentSymbol,
    DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams, GotoDefinitionResponse,
    Hover, HoverContents, HoverParams, Location, MarkupContent, MarkupKind, PrepareRenameResponse,
    Range, ReferenceParams, RenameParams, TextDocumentPositionParams, TextEdit, Uri, WorkspaceEdit,
};

use super::analysis::{contains, DocumentIndex, Symbol, SymbolKind};
use super::probe::Prober;
use super::{json_diagnostics, json_range, lock, to_lsp_diagnostics, Shared, Snapshot};
use crate::check::bindings::{decode, root_of};
use crate::isa::Stage;
use crate::span::Span;
use crate::syntax::lexer::{Lexer, Tok};
use crate::Options;

/// A request and the version of its document when it arrived.
pub(crate) struct Job {
    pub request: Request,
    pub version: Option<i32>,
}

/// A handler's failure: an LSP error code and message.
type Failure = (ErrorCode, String);

pub(crate) fn serve(
    jobs: &Receiver<Job>,
    shared: &Shared,
    out: &impl Fn(Message),
    options: Options,
) {
    let mut handler = Handler {
        options,
        probers: HashMap::new(),
    };
    for job in jobs {
        let id = job.request.id.clone();
        if lock(&shared.cancelled).remove(&id) {
            out(Message::Response(Response::new_err(
                id,
                ErrorCode::RequestCanceled as i32,
                "cancelled by the client".into(),
            )));
            continue;
        }
        let snapshot = uri_of(&job.request).and_then(|uri| shared.current(&uri));
        let modified = |s: &Option<std::sync::Arc<Snapshot>>| match (job.version, s) {
            (Some(v), Some(s)) => v != s.version,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if modified(&snapshot) {
            out(Message::Response(content_modified(id)));
            continue;
        }
        let response = handler.handle(job.request, snapshot.as_deref());
        // The document changed while the answer was computed: its ranges
        // would point into a text the client no longer has.
        let now = snapshot.as_ref().and_then(|s| shared.current(&s.uri));
        let changed = match (&snapshot, &now) {
            (Some(a), Some(b)) => a.version != b.version,
            (Some(_), None) => true,
            _ => false,
        };
        if changed {
            out(Message::Response(content_modified(id)));
        } else if lock(&shared.cancelled).remove(&id) {
            out(Message::Response(Response::new_err(
                id,
                ErrorCode::RequestCanceled as i32,
                "cancelled by the client".into(),
            )));
        } else {
            out(Message::Response(response));
        }
        // Cancellations that arrived after their answer are kept no longer.
        let mut cancelled = lock(&shared.cancelled);
        if cancelled.len() > 1024 {
            cancelled.clear();
        }
    }
}

fn content_modified(id: lsp_server::RequestId) -> Response {
    Response::new_err(
        id,
        ErrorCode::ContentModified as i32,
        "the document changed; ask again".into(),
    )
}

fn uri_of(request: &Request) -> Option<Uri> {
    let uri = request.params.pointer("/textDocument/uri")?;
    serde_json::from_value(uri.clone()).ok()
}

struct Handler {
    options: Options,
    /// Probes by document prelude (header and options).
    probers: HashMap<(Stage, String), Prober>,
}

fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, Failure> {
    serde_json::from_value(request.params)
        .map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

fn value(v: impl serde::Serialize) -> Result<serde_json::Value, Failure> {
    serde_json::to_value(v).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

/// What a position request is about: the document, its index and the byte
/// offset.
struct At<'s> {
    snapshot: &'s Snapshot,
    index: &'s DocumentIndex,
    offset: u32,
}

impl Handler {
    fn handle(&mut self, request: Request, snapshot: Option<&Snapshot>) -> Response {
        let id = request.id.clone();
        let result = self.dispatch(request, snapshot);
        match result {
            Ok(v) => Response::new_ok(id, v),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    fn at<'s>(
        &self,
        snapshot: Option<&'s Snapshot>,
        p: &TextDocumentPositionParams,
    ) -> Option<At<'s>> {
        let snapshot = snapshot?;
        let index = snapshot.index()?;
        let offset = snapshot.offset(p.position) as u32;
        Some(At {
            snapshot,
            index,
            offset,
        })
    }

    fn dispatch(
        &mut self,
        request: Request,
        snapshot: Option<&Snapshot>,
    ) -> Result<serde_json::Value, Failure> {
        match request.method.as_str() {
            HoverRequest::METHOD => {
                let p: HoverParams = params(request)?;
                let at = self.at(snapshot, &p.text_document_position_params);
                value(at.and_then(|at| self.hover(&at)))
            }
            GotoDefinition::METHOD => {
                let p: GotoDefinitionParams = params(request)?;
                let at = self.at(snapshot, &p.text_document_position_params);
                value(at.and_then(|at| {
                    let (symbol, _) = at.index.symbol_at(at.offset)?;
                    Some(GotoDefinitionResponse::Scalar(Location {
                        uri: at.snapshot.uri.clone(),
                        range: at.snapshot.range(symbol.name_span),
                    }))
                }))
            }
            References::METHOD => {
                let p: ReferenceParams = params(request)?;
                let declaration = p.context.include_declaration;
                let at = self.at(snapshot, &p.text_document_position);
                value(at.and_then(|at| {
                    let (symbol, _) = at.index.symbol_at(at.offset)?;
                    let mut spans: Vec<Span> = Vec::new();
                    if declaration {
                        spans.push(symbol.name_span);
                    }
                    spans.extend(at.index.references_to(&symbol).iter().map(|r| r.span));
                    Some(
                        spans
                            .into_iter()
                            .map(|s| Location {
                                uri: at.snapshot.uri.clone(),
                                range: at.snapshot.range(s),
                            })
                            .collect::<Vec<_>>(),
                    )
                }))
            }
            DocumentHighlightRequest::METHOD => {
                let p: DocumentHighlightParams = params(request)?;
                let at = self.at(snapshot, &p.text_document_position_params);
                value(at.and_then(|at| {
                    let (symbol, _) = at.index.symbol_at(at.offset)?;
                    let mut out = vec![DocumentHighlight {
                        range: at.snapshot.range(symbol.name_span),
                        kind: Some(DocumentHighlightKind::WRITE),
                    }];
                    out.extend(
                        at.index
                            .references_to(&symbol)
                            .iter()
                            .map(|r| DocumentHighlight {
                                range: at.snapshot.range(r.span),
                                kind: Some(if r.write {
                                    DocumentHighlightKind::WRITE
                                } else {
                                    DocumentHighlightKind::READ
                                }),
                            }),
                    );
                    Some(out)
                }))
            }
            PrepareRenameRequest::METHOD => {
                let p: TextDocumentPositionParams = params(request)?;
                let at = self.at(snapshot, &p).ok_or_else(not_renamable)?;
                let (symbol, span) = at.index.symbol_at(at.offset).ok_or_else(not_renamable)?;
                value(PrepareRenameResponse::RangeWithPlaceholder {
                    range: at.snapshot.range(span),
                    placeholder: symbol.name.clone(),
                })
            }
            Rename::METHOD => {
                let p: RenameParams = params(request)?;
                let at = self
                    .at(snapshot, &p.text_document_position)
                    .ok_or_else(not_renamable)?;
                let (symbol, _) = at.index.symbol_at(at.offset).ok_or_else(not_renamable)?;
                check_new_name(at.index, &symbol, &p.new_name)?;
                let mut edits = vec![TextEdit {
                    range: at.snapshot.range(symbol.name_span),
                    new_text: p.new_name.clone(),
                }];
                edits.extend(at.index.references_to(&symbol).iter().map(|r| TextEdit {
                    range: at.snapshot.range(r.span),
                    new_text: p.new_name.clone(),
                }));
                value(WorkspaceEdit {
                    changes: Some(HashMap::from([(at.snapshot.uri.clone(), edits)])),
                    ..WorkspaceEdit::default()
                })
            }
            DocumentSymbolRequest::METHOD => {
                let _: DocumentSymbolParams = params(request)?;
                value(snapshot.and_then(|s| self.symbols(s)))
            }
            CodeActionRequest::METHOD => {
                let p: CodeActionParams = params(request)?;
                value(snapshot.map(|s| self.code_actions(s, p.range)))
            }
            Completion::METHOD => {
                let p: CompletionParams = params(request)?;
                let Some(snapshot) = snapshot else {
                    return value(None::<()>);
                };
                let position = p.text_document_position.position;
                let index = snapshot.index();
                value(super::complete::complete(snapshot, index, position))
            }
            method => Err((
                ErrorCode::MethodNotFound,
                format!("nvp4c does not handle `{method}`"),
            )),
        }
    }

    /// The prober for a document's program type and options.
    fn prober(&mut self, snapshot: &Snapshot) -> Option<&mut Prober> {
        let index = snapshot.index()?;
        let mut prelude = snapshot.text.get(index.header.range())?.trim().to_string();
        prelude.push('\n');
        for (name, _) in &index.options() {
            prelude.push_str(&format!("OPTION {name};\n"));
        }
        let key = (index.stage, prelude);
        let options = &self.options;
        Some(
            self.probers
                .entry(key.clone())
                .or_insert_with(|| Prober::new(key.0, key.1, options)),
        )
    }

    fn hover(&mut self, at: &At<'_>) -> Option<Hover> {
        let text = &at.snapshot.text;
        let (markdown, span) = if contains(at.index.header, at.offset) {
            let header = text.get(at.index.header.range())?.trim();
            let mut out = format!("**{header}** — {}", header_meaning(header));
            if let Some(entry) = self.prober(at.snapshot).and_then(|p| p.entry_point()) {
                out.push_str(&format!("\n\n{entry}"));
            }
            let start = at.index.header.start
                + (text[at.index.header.range()].len()
                    - text[at.index.header.range()].trim_start().len()) as u32;
            (
                out,
                Span::new(start as usize, start as usize + header.len()),
            )
        } else if let Some((site, base)) = at.index.binding_at(at.offset) {
            // The site's spans are relative to its statement.
            let stage = at.index.stage;
            let statement = text.get(base as usize..)?;
            let moved = |s: Span| Span::new((s.start + base) as usize, (s.end + base) as usize);
            let (root, root_span) = root_of(&site.path)?;
            match decode(
                at.index.dialect(),
                root,
                root_span,
                &site.path,
                site.in_declaration,
            ) {
                Ok(decoded) => {
                    let written = statement.get(decoded.span.range())?.to_string();
                    let mut out = format!("**{written}**");
                    let doc = super::bindings::describe(at.index.dialect(), &written);
                    if let Some(doc) = doc {
                        out.push_str(&format!(" — {}", doc.meaning));
                    }
                    let target = site.texture_target.clone();
                    let binding = decoded.binding.clone();
                    let span = moved(decoded.span);
                    if let Some(prober) = self.prober(at.snapshot) {
                        let lines = prober.describe(&binding, target.as_deref());
                        if !lines.is_empty() {
                            out.push_str("\n\nIn SPIR-V (docs/interface.md):");
                            for l in lines {
                                out.push_str(&format!("\n* {l}"));
                            }
                        }
                    }
                    if let Some(doc) = doc {
                        out.push_str(&format!("\n\nSpec: {}", doc.spec));
                        // The ARB family defines its bindings in its own
                        // "Program Variables" sections.
                        match at.index.program_header {
                            crate::isa::Header::ArbVp1 => out
                                .push_str("; for `!!ARBvp1.0`: ARB_vertex_program section 2.14.3"),
                            crate::isa::Header::ArbFp1 => out.push_str(
                                "; for `!!ARBfp1.0`: ARB_fragment_program section 3.11.3",
                            ),
                            _ => {}
                        }
                    }
                    (out, span)
                }
                Err(d) => {
                    let written = statement.get(site.path.span.range())?;
                    (
                        format!(
                            "**{written}** — not a binding of a {stage} program: {}",
                            d.message
                        ),
                        moved(site.path.span),
                    )
                }
            }
        } else if let Some((name, span)) = at.index.option_at(at.offset) {
            (option_hover(&name, at.index.program_header), span)
        } else if let Some((name, span)) = at.index.target_at(at.offset) {
            (target_hover(&name)?, span)
        } else {
            at.index.hover(text, at.offset)?
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: markdown,
            }),
            range: Some(at.snapshot.range(span)),
        })
    }

    fn symbols(&self, snapshot: &Snapshot) -> Option<DocumentSymbolResponse> {
        let index = snapshot.index()?;
        let symbols = index
            .symbols()
            .into_iter()
            .map(|s| {
                let kind = match s.kind {
                    SymbolKind::Label => lsp_types::SymbolKind::FUNCTION,
                    SymbolKind::Param | SymbolKind::Texture => lsp_types::SymbolKind::CONSTANT,
                    SymbolKind::Attrib | SymbolKind::Output => lsp_types::SymbolKind::FIELD,
                    SymbolKind::Temp
                    | SymbolKind::Alias
                    | SymbolKind::Buffer
                    | SymbolKind::Address => lsp_types::SymbolKind::VARIABLE,
                };
                let keyword = snapshot
                    .text
                    .get(s.statement.range())
                    .and_then(|t| t.split_whitespace().next())
                    .unwrap_or("");
                #[allow(deprecated)]
                DocumentSymbol {
                    name: s.name.clone(),
                    detail: (s.kind != SymbolKind::Label).then(|| keyword.to_string()),
                    kind,
                    tags: None,
                    deprecated: None,
                    range: snapshot.range(s.span),
                    selection_range: snapshot.range(s.name_span),
                    children: None,
                }
            })
            .collect();
        Some(DocumentSymbolResponse::Nested(symbols))
    }

    /// Quick fixes: the "did you mean" replacements on the range.
    fn code_actions(&self, snapshot: &Snapshot, wanted: Range) -> Vec<CodeActionOrCommand> {
        let diagnostics = snapshot.diagnostics(&self.options);
        let lsp = to_lsp_diagnostics(snapshot, diagnostics);
        json_diagnostics(snapshot, diagnostics)
            .into_iter()
            .zip(lsp)
            .filter_map(|(d, lsp)| {
                let s = d.suggestion?;
                let r = json_range(snapshot, &s.span);
                if r.end < wanted.start || wanted.end < r.start {
                    return None;
                }
                let edit = TextEdit {
                    range: r,
                    new_text: s.replacement.clone(),
                };
                Some(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("Replace with `{}`", s.replacement),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![lsp]),
                    edit: Some(WorkspaceEdit {
                        changes: Some(HashMap::from([(snapshot.uri.clone(), vec![edit])])),
                        ..WorkspaceEdit::default()
                    }),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                }))
            })
            .collect()
    }
}

fn not_renamable() -> Failure {
    (
        ErrorCode::InvalidRequest,
        "only declared names and labels can be renamed (not opcodes, keywords or bindings)".into(),
    )
}

/// A new name must be one word that the lexer reads as a name wherever
/// the old one stood (not a reserved binding word, not a declaration
/// keyword where a statement starts), and must not be taken in its
/// namespace (labels, or everything else).
fn check_new_name(index: &DocumentIndex, symbol: &Symbol, new: &str) -> Result<(), Failure> {
    let invalid = |why: String| Err((ErrorCode::InvalidParams, why));
    let inside = format!(", {new}");
    let word_at_start = lex_one(index.program_header, new, true);
    let word_inside = lex_one(index.program_header, &inside, false);
    let is_word = |t: Option<Tok<'_>>| matches!(t, Some(Tok::Word(w)) if w == new);
    // Section 2.X.2: <identifier> ::= [a-zA-Z_$][a-zA-Z0-9_$]* (the lexer
    // also reads `2D` as a word, for texture targets).
    let identifier = new.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && new
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if !identifier
        || !is_word(word_inside)
        || (symbol.kind == SymbolKind::Label && !is_word(word_at_start))
    {
        return invalid(format!(
            "`{new}` is not a name: names are a letter, `_` or `$` followed by letters, digits, `_` and `$`, and not a reserved word (section 2.X.2)"
        ));
    }
    let label = symbol.kind == SymbolKind::Label;
    if new != symbol.name && index.symbol_named(new, label).is_some() {
        return invalid(format!("`{new}` is already declared in this program"));
    }
    Ok(())
}

/// The last token of `text` when it lexes cleanly (`statement_start`: as
/// the first word of a statement, else after a comma).
fn lex_one(header: crate::isa::Header, text: &str, statement_start: bool) -> Option<Tok<'_>> {
    let mut lexer = Lexer::new(text, 0, header);
    let tokens: Vec<Tok<'_>> = (&mut lexer).map(|(_, t, _)| t).collect();
    if !lexer.diagnostics.is_empty() {
        return None;
    }
    match (statement_start, tokens.as_slice()) {
        (true, [t]) => Some(*t),
        (false, [Tok::Comma, t]) => Some(*t),
        _ => None,
    }
}

/// What a program header selects.
fn header_meaning(header: &str) -> String {
    let (spec, what) = match header {
        "!!NVvp4.0" => ("NV_vertex_program4", "a vertex program"),
        "!!NVfp4.0" => ("NV_fragment_program4", "a fragment program"),
        "!!NVgp4.0" => ("NV_geometry_program4", "a geometry program"),
        "!!NVvp5.0" => ("NV_gpu_program5", "a vertex program"),
        "!!NVfp5.0" => ("NV_gpu_program5", "a fragment program"),
        "!!NVgp5.0" => ("NV_gpu_program5", "a geometry program"),
        "!!NVtcp5.0" => ("NV_tessellation_program5", "a tessellation control program"),
        "!!NVtep5.0" => (
            "NV_tessellation_program5",
            "a tessellation evaluation program",
        ),
        "!!NVcp5.0" => ("NV_compute_program5", "a compute program"),
        "!!ARBvp1.0" => ("ARB_vertex_program", "a vertex program"),
        "!!ARBfp1.0" => ("ARB_fragment_program", "a fragment program"),
        "!!VP1.0" => ("NV_vertex_program", "a vertex program"),
        "!!VP1.1" => ("NV_vertex_program1_1", "a vertex program"),
        "!!VP2.0" => ("NV_vertex_program2", "a vertex program"),
        "!!VSP1.0" => ("NV_vertex_program", "a vertex state program"),
        "!!FP1.0" => ("NV_fragment_program", "a fragment program"),
        _ => return "a program header".into(),
    };
    format!("{what} ({spec}); the header decides the program type, and with it the opcodes, bindings and options that exist")
}

/// What an `OPTION` does, from the option table (`isa::OPTIONS`: every
/// option nvp4c knows, with its spec and the headers it exists on).
fn option_hover(name: &str, header: crate::isa::Header) -> String {
    let Some(o) = crate::isa::option_info(name) else {
        return format!(
            "**OPTION {name}** — not an option nvp4c knows (the options of a `{header}` program: {})",
            crate::isa::options_of(header)
                .map(|o| format!("`{}`", o.name))
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let mut out = format!("**OPTION {name}** — {}", o.summary);
    if !o.headers.contains(&header) {
        let headers: Vec<String> = o.headers.iter().map(|h| format!("`{h}`")).collect();
        out.push_str(&format!(
            "\n\nNot an option of `{header}` programs: only of {}.",
            headers.join(", ")
        ));
    }
    if let Some((h, f)) = o.requires.filter(|(h, _)| *h == header) {
        let needs: Vec<&str> = crate::isa::options_of(h)
            .filter(|n| n.features.contains(f))
            .map(|n| n.name)
            .collect();
        out.push_str(&format!(
            "\n\nIn a `{h}` program only together with `OPTION {}`.",
            needs.join("` or `OPTION ")
        ));
    }
    if let Some((group, rule)) = o.exclusive {
        out.push_str(&format!("\n\nAt most one {group} option: {rule}"));
    }
    out.push_str(&format!("\n\nSpec: {}", o.spec));
    out
}

/// What a texture target is (section 2.X.4.4, Table X.17).
fn target_hover(name: &str) -> Option<String> {
    let meaning = match name {
        "1D" => "one-dimensional texture; coordinate s in x",
        "2D" => "two-dimensional texture; s, t in x, y",
        "3D" => "three-dimensional texture; s, t, r in x, y, z",
        "CUBE" => "cube map; direction in x, y, z",
        "RECT" => "rectangle texture; unnormalized s, t in x, y",
        "SHADOW1D" => "1D depth texture compared with the reference in z",
        "SHADOW2D" => "2D depth texture compared with the reference in z",
        "SHADOWRECT" => "rectangle depth texture compared with the reference in z",
        "SHADOWCUBE" => "cube depth texture compared with the reference in w",
        "ARRAY1D" => "1D array texture; s in x, layer in y",
        "ARRAY2D" => "2D array texture; s, t in x, y, layer in z",
        "SHADOWARRAY1D" => "1D array depth texture; layer in y, reference in z",
        "SHADOWARRAY2D" => "2D array depth texture; layer in z, reference in w",
        "BUFFER" => "buffer texture (TXF and TXQ only); texel number in x",
        _ => return None,
    };
    Some(format!(
        "**{name}** — texture target: {meaning}\n\nIn SPIR-V: docs/interface.md, \"Textures\" (hover `texture[n]` for its set and binding)\n\nSpec: NV_gpu_program4 section 2.X.4.4, Table X.17"
    ))
}

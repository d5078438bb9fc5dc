//! The language server (`nvp4c lsp`): diagnostics on open and on every
//! change, hover on opcodes (from the instruction table) and names, go to
//! definition for variables and labels, document symbols, and quick fixes
//! for "did you mean" suggestions.
//!
//! [`serve`] runs the protocol over any [`lsp_server::Connection`]: the CLI
//! passes one on standard input/output, tests an in-memory one.
//!
//! ```
//! use lsp_server::{Connection, Message, Notification, Request, RequestId};
//! let (server, client) = Connection::memory();
//! let thread = std::thread::spawn(move || nvp4c::lsp::serve(&server));
//! let send = |m: Message| client.sender.send(m).unwrap();
//! send(Request::new(RequestId::from(1), "initialize".into(), serde_json::json!({"capabilities": {}})).into());
//! let Ok(Message::Response(init)) = client.receiver.recv() else { panic!() };
//! assert!(init.response_result.unwrap()["capabilities"]["hoverProvider"].as_bool().unwrap());
//! send(Notification::new("initialized".into(), serde_json::json!({})).into());
//! send(Request::new(RequestId::from(2), "shutdown".into(), ()).into());
//! let Ok(Message::Response(_)) = client.receiver.recv() else { panic!() };
//! send(Notification::new("exit".into(), ()).into());
//! thread.join().unwrap().unwrap();
//! ```

// Internal and unstable (the syntax-tree queries behind hover and definition).
#[doc(hidden)]
pub mod analysis;

use std::collections::HashMap;
use std::error::Error;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument,
    Notification as NotificationTrait, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, DocumentSymbolRequest, GotoDefinition, HoverRequest, Request as RequestTrait,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, DiagnosticRelatedInformation, DiagnosticSeverity,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams,
    GotoDefinitionResponse, Hover, HoverContents, HoverParams, HoverProviderCapability, Location,
    MarkupContent, MarkupKind, NumberOrString, OneOf, Position, PublishDiagnosticsParams, Range,
    ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit,
    Uri, WorkspaceEdit,
};

use crate::diag::json::{to_json, JsonDiagnostic, JsonSpan, LineIndex};
use crate::span::Span;
use crate::Options;
use analysis::{DocumentIndex, SymbolKind};

/// The error type of [`serve`]: a protocol error or a closed connection.
///
/// ```
/// let e: nvp4c::lsp::ServerError = "connection closed".into();
/// assert_eq!(e.to_string(), "connection closed");
/// ```
pub type ServerError = Box<dyn Error + Send + Sync>;

/// What the server offers, sent in the `initialize` response.
///
/// ```
/// let caps = nvp4c::lsp::capabilities();
/// assert!(caps.hover_provider.is_some() && caps.definition_provider.is_some());
/// ```
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

/// Runs the server until the client sends `shutdown` and `exit` (or the
/// connection closes). The module documentation has a complete example
/// over an in-memory connection.
///
/// ```
/// use lsp_server::{Connection, Message, Notification, Request, RequestId};
/// let (server, client) = Connection::memory();
/// let thread = std::thread::spawn(move || nvp4c::lsp::serve(&server));
/// let send = |m: Message| client.sender.send(m).unwrap();
/// send(Request::new(RequestId::from(1), "initialize".into(), serde_json::json!({"capabilities": {}})).into());
/// let Ok(Message::Response(_)) = client.receiver.recv() else { panic!() };
/// send(Notification::new("initialized".into(), serde_json::json!({})).into());
/// let doc = serde_json::json!({"textDocument": {"uri": "file:///a.fp", "languageId": "nvp4", "version": 1,
///     "text": "!!NVfp4.0\nMOVV result.color, 1;\nEND\n"}});
/// send(Notification::new("textDocument/didOpen".into(), doc).into());
/// let Ok(Message::Notification(n)) = client.receiver.recv() else { panic!() };
/// assert_eq!(n.method, "textDocument/publishDiagnostics");
/// assert_eq!(n.params["diagnostics"][0]["code"], "E0400");
/// send(Request::new(RequestId::from(2), "shutdown".into(), ()).into());
/// let Ok(Message::Response(_)) = client.receiver.recv() else { panic!() };
/// send(Notification::new("exit".into(), ()).into());
/// thread.join().unwrap().unwrap();
/// ```
pub fn serve(connection: &Connection) -> Result<(), ServerError> {
    let (id, _params) = connection.initialize_start()?;
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo { name: "nvp4c".into(), version: Some(env!("CARGO_PKG_VERSION").into()) },
    });
    connection.initialize_finish(id, result)?;
    let mut server = Server::default();
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                connection
                    .sender
                    .send(Message::Response(server.request(request)))?;
            }
            Message::Notification(notification) => {
                for out in server.notification(notification) {
                    connection.sender.send(Message::Notification(out))?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// The open documents.
#[derive(Default)]
struct Server {
    documents: HashMap<Uri, String>,
    options: Options,
}

impl Server {
    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            HoverRequest::METHOD => params::<HoverParams>(request).map(|p| {
                let doc = &p.text_document_position_params;
                serde_json::to_value(self.hover(&doc.text_document.uri, doc.position))
            }),
            GotoDefinition::METHOD => params::<GotoDefinitionParams>(request).map(|p| {
                let doc = &p.text_document_position_params;
                serde_json::to_value(self.definition(&doc.text_document.uri, doc.position))
            }),
            DocumentSymbolRequest::METHOD => params::<DocumentSymbolParams>(request)
                .map(|p| serde_json::to_value(self.symbols(&p.text_document.uri))),
            CodeActionRequest::METHOD => params::<CodeActionParams>(request)
                .map(|p| serde_json::to_value(self.code_actions(&p.text_document.uri, p.range))),
            method => {
                return Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("nvp4c does not handle `{method}`"),
                )
            }
        };
        match result {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err(e)) => Response::new_err(id, ErrorCode::InternalError as i32, e.to_string()),
            Err(e) => Response::new_err(id, ErrorCode::InvalidParams as i32, e),
        }
    }

    fn notification(&mut self, n: Notification) -> Vec<Notification> {
        let uri = match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                self.documents
                    .insert(p.text_document.uri.clone(), p.text_document.text);
                p.text_document.uri
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                // Full synchronisation: the last change is the whole text.
                let Some(change) = p.content_changes.into_iter().last() else {
                    return Vec::new();
                };
                self.documents
                    .insert(p.text_document.uri.clone(), change.text);
                p.text_document.uri
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                self.documents.remove(&p.text_document.uri);
                return vec![publish(p.text_document.uri, Vec::new())];
            }
            _ => return Vec::new(),
        };
        let diagnostics = self.diagnostics(&uri);
        vec![publish(uri, diagnostics)]
    }

    /// Every diagnostic of a document, in the JSON form.
    fn json_diagnostics(&self, uri: &Uri) -> Vec<JsonDiagnostic> {
        let Some(text) = self.documents.get(uri) else {
            return Vec::new();
        };
        let file = file_name(uri);
        let diagnostics = match crate::compile(text, &self.options) {
            Ok(compiled) => compiled.warnings,
            Err(diagnostics) => diagnostics,
        };
        diagnostics
            .iter()
            .map(|d| to_json(d, &file, text))
            .collect()
    }

    fn diagnostics(&self, uri: &Uri) -> Vec<lsp_types::Diagnostic> {
        let Some(text) = self.documents.get(uri) else {
            return Vec::new();
        };
        let index = LineIndex::new(text);
        self.json_diagnostics(uri)
            .into_iter()
            .map(|d| {
                let primary = d.spans.iter().find(|s| s.primary);
                let related: Vec<DiagnosticRelatedInformation> = d
                    .spans
                    .iter()
                    .filter(|s| !s.primary && !s.label.is_empty())
                    .map(|s| DiagnosticRelatedInformation {
                        location: Location {
                            uri: uri.clone(),
                            range: json_range(&index, s),
                        },
                        message: s.label.clone(),
                    })
                    .collect();
                let mut message = d.message.clone();
                if let Some(label) = primary.filter(|s| !s.label.is_empty()) {
                    message.push_str(&format!(": {}", label.label));
                }
                for note in &d.notes {
                    message.push_str(&format!("\n{note}"));
                }
                if let Some(s) = &d.suggestion {
                    message.push_str(&format!("\ndid you mean `{}`?", s.replacement));
                }
                lsp_types::Diagnostic {
                    range: primary.map_or_else(Range::default, |s| json_range(&index, s)),
                    severity: Some(if d.severity == crate::Severity::Error {
                        DiagnosticSeverity::ERROR
                    } else {
                        DiagnosticSeverity::WARNING
                    }),
                    code: Some(NumberOrString::String(d.code.clone())),
                    source: Some("nvp4c".into()),
                    message,
                    related_information: (!related.is_empty()).then_some(related),
                    ..lsp_types::Diagnostic::default()
                }
            })
            .collect()
    }

    /// The document's text, syntax tree index and line index.
    fn document(&self, uri: &Uri) -> Option<(&str, DocumentIndex)> {
        let text = self.documents.get(uri)?;
        // Bounded like compilation, so hovering in a huge file stays cheap.
        let max = self.options.limits.max_instructions as usize;
        let (ast, _) = crate::syntax::parse_bounded(text, max);
        Some((text, DocumentIndex::new(&ast?, text.len())))
    }

    fn hover(&self, uri: &Uri, position: Position) -> Option<Hover> {
        let (text, index) = self.document(uri)?;
        let lines = LineIndex::new(text);
        let offset = lines.offset(position.line as usize, position.character as usize) as u32;
        let (markdown, span) = index.hover(text, offset)?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: markdown,
            }),
            range: Some(range(&lines, span)),
        })
    }

    fn definition(&self, uri: &Uri, position: Position) -> Option<GotoDefinitionResponse> {
        let (text, index) = self.document(uri)?;
        let lines = LineIndex::new(text);
        let offset = lines.offset(position.line as usize, position.character as usize) as u32;
        let (symbol, _) = index.symbol_at(offset)?;
        Some(GotoDefinitionResponse::Scalar(Location {
            uri: uri.clone(),
            range: range(&lines, symbol.name_span),
        }))
    }

    fn symbols(&self, uri: &Uri) -> Option<DocumentSymbolResponse> {
        let (text, index) = self.document(uri)?;
        let lines = LineIndex::new(text);
        let symbols = index
            .symbols
            .iter()
            .map(|s| {
                let kind = match s.kind {
                    SymbolKind::Label => lsp_types::SymbolKind::FUNCTION,
                    SymbolKind::Param => lsp_types::SymbolKind::CONSTANT,
                    SymbolKind::Attrib | SymbolKind::Output => lsp_types::SymbolKind::FIELD,
                    SymbolKind::Temp | SymbolKind::Alias | SymbolKind::Buffer => {
                        lsp_types::SymbolKind::VARIABLE
                    }
                };
                let keyword = text
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
                    range: range(&lines, s.span),
                    selection_range: range(&lines, s.name_span),
                    children: None,
                }
            })
            .collect();
        Some(DocumentSymbolResponse::Nested(symbols))
    }

    /// Quick fixes: the "did you mean" replacements on the range.
    fn code_actions(&self, uri: &Uri, wanted: Range) -> Vec<CodeActionOrCommand> {
        let Some(text) = self.documents.get(uri) else {
            return Vec::new();
        };
        let lines = LineIndex::new(text);
        let lsp_diagnostics = self.diagnostics(uri);
        self.json_diagnostics(uri)
            .into_iter()
            .zip(lsp_diagnostics)
            .filter_map(|(d, lsp)| {
                let s = d.suggestion?;
                let r = json_range(&lines, &s.span);
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
                        changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                        ..WorkspaceEdit::default()
                    }),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                }))
            })
            .collect()
    }
}

fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, String> {
    serde_json::from_value(request.params).map_err(|e| format!("invalid parameters: {e}"))
}

fn publish(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        },
    )
}

/// The last path segment of a URI, for the diagnostics' file names.
fn file_name(uri: &Uri) -> String {
    let path = uri.path().as_str();
    path.rsplit('/').next().unwrap_or(path).to_string()
}

fn position(lines: &LineIndex, offset: usize) -> Position {
    let (line, character) = lines.line_utf16(offset);
    Position::new(line as u32, character as u32)
}

fn range(lines: &LineIndex, span: Span) -> Range {
    Range::new(
        position(lines, span.start as usize),
        position(lines, span.end as usize),
    )
}

fn json_range(lines: &LineIndex, span: &JsonSpan) -> Range {
    range(
        lines,
        Span {
            start: span.byte_start,
            end: span.byte_end,
        },
    )
}

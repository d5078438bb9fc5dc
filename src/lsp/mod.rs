//! The language server (`nvp4c lsp`): diagnostics as the program is
//! edited, hover (opcodes from the instruction table, modifiers, bindings
//! with their meaning and where the back end puts them, texture targets,
//! options, the header, declared names), completion (opcodes with their
//! valid suffixes, modifiers, bindings member by member, declared names and
//! labels, options, texture targets), go to definition, find references,
//! document highlights, rename of declared names and labels, document
//! symbols, and quick fixes for "did you mean" suggestions.
//!
//! [`serve`] runs the protocol over any [`lsp_server::Connection`]: the CLI
//! passes one on standard input/output, tests an in-memory one.
//!
//! **Staying fast on big files.** The main loop only stores each new text
//! (a [`Snapshot`] per version) and hands work to two threads:
//!
//! * the *diagnostics* thread waits until the document has been quiet for
//!   [`DEBOUNCE`], then parses and checks the newest version only — no
//!   lowering and no SPIR-V validation on keystrokes (on open and save the
//!   program is also lowered, without validation, for the errors only the
//!   back end finds) — and publishes unless a newer version has arrived;
//! * the *requests* thread answers requests in order, each against the
//!   newest version, whose syntax index it builds once (parse only) and
//!   shares with later requests. A request cancelled with `$/cancelRequest`
//!   before it runs is answered `RequestCancelled`; one whose document
//!   changed after it was sent is answered `ContentModified` (the client
//!   asks again), so no answer ever points into a text that is gone.
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
// Internal and unstable (the binding documentation behind hover and completion).
#[doc(hidden)]
pub mod bindings;
mod complete;
mod probe;
mod requests;

use std::collections::{HashMap, HashSet};
use std::error::Error;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, RequestId};
use lsp_types::notification::{
    Cancel, DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as NotificationTrait, PublishDiagnostics,
};
use lsp_types::{
    CompletionOptions, DiagnosticRelatedInformation, DiagnosticSeverity,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, HoverProviderCapability, Location, NumberOrString, OneOf, Position,
    PublishDiagnosticsParams, Range, RenameOptions, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri, WorkDoneProgressOptions,
};

use crate::diag::json::{to_json, JsonDiagnostic, JsonSpan, LineIndex};
use crate::span::Span;
use crate::{Diagnostic, Options};
use analysis::DocumentIndex;

/// The error type of [`serve`]: a protocol error or a closed connection.
///
/// ```
/// let e: nvp4c::lsp::ServerError = "connection closed".into();
/// assert_eq!(e.to_string(), "connection closed");
/// ```
pub type ServerError = Box<dyn Error + Send + Sync>;

/// How long a document must stay unchanged before its diagnostics are
/// computed: typing faster than this costs no analysis at all.
pub const DEBOUNCE: Duration = Duration::from_millis(100);

/// What the server offers, sent in the `initialize` response.
///
/// ```
/// let caps = nvp4c::lsp::capabilities();
/// assert!(caps.hover_provider.is_some() && caps.definition_provider.is_some());
/// assert!(caps.completion_provider.is_some() && caps.rename_provider.is_some());
/// ```
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), " ".into(), ",".into()]),
            ..CompletionOptions::default()
        }),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        ..ServerCapabilities::default()
    }
}

/// One version of an open document, shared by the threads; its syntax
/// index and diagnostics are computed at most once, by whichever thread
/// needs them first.
pub(crate) struct Snapshot {
    pub uri: Uri,
    pub version: i32,
    pub text: String,
    index: OnceLock<Option<DocumentIndex>>,
    diagnostics: OnceLock<Vec<Diagnostic>>,
}

impl Snapshot {
    fn new(uri: Uri, version: i32, text: String) -> Snapshot {
        Snapshot {
            uri,
            version,
            text,
            index: OnceLock::new(),
            diagnostics: OnceLock::new(),
        }
    }

    /// The syntax index (parse only): of the whole program, or of the
    /// statements read before a syntax error the parser could not recover
    /// from (a program being typed). `None` without a header.
    pub fn index(&self, options: &Options) -> Option<&DocumentIndex> {
        self.index
            .get_or_init(|| {
                let (program_header, header_end) =
                    crate::syntax::lexer::read_header(&self.text).ok()?;
                // Bounded like compilation, so a huge file stays cheap.
                let max = options.limits.max_instructions as usize;
                let mut statements = Vec::new();
                let (parsed, _) =
                    crate::syntax::parse_with(&self.text, max, |_| Collect(&mut statements));
                let end = parsed.map(|p| p.end);
                let ast = crate::syntax::ast::Ast {
                    stage: program_header.stage(),
                    program_header,
                    header: Span::new(0, header_end),
                    statements,
                    end,
                };
                Some(DocumentIndex::new(&ast, self.text.len()))
            })
            .as_ref()
    }

    /// Parse and check: every error and warning, without lowering.
    pub fn diagnostics(&self, options: &Options) -> &[Diagnostic] {
        self.diagnostics
            .get_or_init(|| match crate::check(&self.text, options) {
                Ok((_, warnings)) => warnings.0,
                Err(diagnostics) => diagnostics.0,
            })
    }
}

/// Collects the statements the parser reads into a vector that outlives
/// the parse, so a program that cannot be read to its `END` still has
/// the ones before the error.
struct Collect<'v>(&'v mut Vec<crate::syntax::ast::Statement>);

impl crate::syntax::StatementSink for Collect<'_> {
    fn statement(&mut self, statement: crate::syntax::ast::Statement) {
        self.0.push(statement);
    }
}

/// State shared by the main loop and the worker threads.
#[derive(Default)]
pub(crate) struct Shared {
    /// The newest version of each open document.
    pub documents: Mutex<HashMap<Uri, Arc<Snapshot>>>,
    /// Requests the client cancelled before they were answered.
    pub cancelled: Mutex<HashSet<RequestId>>,
}

impl Shared {
    pub fn current(&self, uri: &Uri) -> Option<Arc<Snapshot>> {
        lock(&self.documents).get(uri).cloned()
    }
    fn is_current(&self, snapshot: &Snapshot) -> bool {
        lock(&self.documents)
            .get(&snapshot.uri)
            .is_some_and(|s| s.version == snapshot.version)
    }
}

/// A poisoned lock only means another thread panicked while holding it;
/// the maps stay usable.
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Work for the diagnostics thread.
enum DiagnosticsJob {
    /// A new version: check it once the document has been quiet.
    Changed(Arc<Snapshot>),
    /// Opened or saved: check and lower it now.
    Full(Arc<Snapshot>),
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
/// let doc = serde_json::json!({"textDocument": {"uri": "file:///a.fp", "languageId": "nvasm", "version": 1,
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

    let options = Options::default();
    let shared = Arc::new(Shared::default());
    let (diagnostics_tx, diagnostics_rx) = mpsc::channel::<DiagnosticsJob>();
    let (requests_tx, requests_rx) = mpsc::channel::<requests::Job>();
    let diagnostics_thread = {
        let shared = Arc::clone(&shared);
        let sender = connection.sender.clone();
        let out = move |m: Message| {
            let _ = sender.send(m);
        };
        let options = options.clone();
        std::thread::Builder::new()
            .name("nvp4c-lsp-diagnostics".into())
            .spawn(move || diagnostics_loop(&diagnostics_rx, &shared, &out, &options))?
    };
    let requests_thread = {
        let shared = Arc::clone(&shared);
        let sender = connection.sender.clone();
        let out = move |m: Message| {
            let _ = sender.send(m);
        };
        let options = options.clone();
        std::thread::Builder::new()
            .name("nvp4c-lsp-requests".into())
            .spawn(move || requests::serve(&requests_rx, &shared, &out, options))?
    };

    let result = main_loop(connection, &shared, &diagnostics_tx, &requests_tx);
    // Closing the channels ends both threads.
    drop(diagnostics_tx);
    drop(requests_tx);
    let _ = diagnostics_thread.join();
    let _ = requests_thread.join();
    result
}

fn main_loop(
    connection: &Connection,
    shared: &Shared,
    diagnostics: &mpsc::Sender<DiagnosticsJob>,
    requests: &mpsc::Sender<requests::Job>,
) -> Result<(), ServerError> {
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                // The version the client saw when it asked.
                let version = request
                    .params
                    .pointer("/textDocument/uri")
                    .and_then(|u| serde_json::from_value::<Uri>(u.clone()).ok())
                    .and_then(|uri| shared.current(&uri))
                    .map(|s| s.version);
                requests.send(requests::Job { request, version })?;
            }
            Message::Notification(n) => notification(n, connection, shared, diagnostics)?,
            Message::Response(_) => {}
        }
    }
    Ok(())
}

fn notification(
    n: Notification,
    connection: &Connection,
    shared: &Shared,
    diagnostics: &mpsc::Sender<DiagnosticsJob>,
) -> Result<(), ServerError> {
    let store = |uri: Uri, version: i32, text: String| {
        let snapshot = Arc::new(Snapshot::new(uri.clone(), version, text));
        lock(&shared.documents).insert(uri, Arc::clone(&snapshot));
        snapshot
    };
    match n.method.as_str() {
        Cancel::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp_types::CancelParams>(n.params) {
                let id = match p.id {
                    NumberOrString::Number(n) => RequestId::from(n),
                    NumberOrString::String(s) => RequestId::from(s),
                };
                lock(&shared.cancelled).insert(id);
            }
        }
        DidOpenTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) {
                let d = p.text_document;
                diagnostics.send(DiagnosticsJob::Full(store(d.uri, d.version, d.text)))?;
            }
        }
        DidChangeTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                // Full synchronisation: the last change is the whole text.
                if let Some(change) = p.content_changes.into_iter().last() {
                    let d = p.text_document;
                    diagnostics.send(DiagnosticsJob::Changed(store(
                        d.uri,
                        d.version,
                        change.text,
                    )))?;
                }
            }
        }
        DidSaveTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(n.params) {
                if let Some(s) = shared.current(&p.text_document.uri) {
                    diagnostics.send(DiagnosticsJob::Full(s))?;
                }
            }
        }
        DidCloseTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) {
                lock(&shared.documents).remove(&p.text_document.uri);
                connection.sender.send(Message::Notification(publish(
                    p.text_document.uri,
                    Vec::new(),
                    None,
                )))?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The diagnostics thread: coalesces changes until the documents are quiet
/// for [`DEBOUNCE`], then publishes the newest version of each.
fn diagnostics_loop(
    jobs: &mpsc::Receiver<DiagnosticsJob>,
    shared: &Shared,
    out: &impl Fn(Message),
    options: &Options,
) {
    // By URI text (a `Uri` caches its parts inside, so it is no map key
    // for clippy).
    let mut pending: HashMap<String, Arc<Snapshot>> = HashMap::new();
    loop {
        let job = if pending.is_empty() {
            match jobs.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        } else {
            match jobs.recv_timeout(DEBOUNCE) {
                Ok(job) => job,
                Err(RecvTimeoutError::Timeout) => {
                    for (_, snapshot) in pending.drain() {
                        if shared.is_current(&snapshot) {
                            let diagnostics = snapshot.diagnostics(options).to_vec();
                            send_diagnostics(shared, out, &snapshot, &diagnostics);
                        }
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return,
            }
        };
        match job {
            DiagnosticsJob::Changed(snapshot) => {
                pending.insert(snapshot.uri.as_str().to_string(), snapshot);
            }
            DiagnosticsJob::Full(snapshot) => {
                pending.remove(snapshot.uri.as_str());
                if shared.is_current(&snapshot) {
                    // Lowered too (not validated): E0900 and the back end's
                    // other findings.
                    let mut full = options.clone();
                    full.validate = false;
                    let diagnostics = match crate::compile(&snapshot.text, &full) {
                        Ok(compiled) => compiled.warnings.0,
                        Err(diagnostics) => diagnostics.0,
                    };
                    send_diagnostics(shared, out, &snapshot, &diagnostics);
                }
            }
        }
    }
}

fn send_diagnostics(
    shared: &Shared,
    out: &impl Fn(Message),
    snapshot: &Snapshot,
    diagnostics: &[Diagnostic],
) {
    // A newer version arrived while this one was checked: it will be
    // published instead.
    if !shared.is_current(snapshot) {
        return;
    }
    let lsp = to_lsp_diagnostics(snapshot, diagnostics);
    out(Message::Notification(publish(
        snapshot.uri.clone(),
        lsp,
        Some(snapshot.version),
    )));
}

/// The JSON form of each diagnostic (spans, suggestions).
pub(crate) fn json_diagnostics(
    snapshot: &Snapshot,
    diagnostics: &[Diagnostic],
) -> Vec<JsonDiagnostic> {
    let file = file_name(&snapshot.uri);
    diagnostics
        .iter()
        .map(|d| to_json(d, &file, &snapshot.text))
        .collect()
}

/// The LSP message of a diagnostic: its message, then the primary label
/// when it says something the message does not (rustc's labels often
/// repeat it: "`R7` is not declared" / "not declared"), then the notes and
/// the suggestion.
///
/// ```
/// use nvp4c::lsp::lsp_message;
/// assert_eq!(lsp_message("`R7` is not declared", "not declared", &[], None), "`R7` is not declared");
/// assert_eq!(lsp_message("ADD does not support `HI`", "not supported here", &["section 2.X.4.1".into()], None),
///            "ADD does not support `HI`: not supported here\nsection 2.X.4.1");
/// ```
pub fn lsp_message(
    message: &str,
    label: &str,
    notes: &[String],
    suggestion: Option<&str>,
) -> String {
    let mut out = message.to_string();
    let normalise = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric() || c.is_whitespace())
            .collect::<String>()
            .to_lowercase()
    };
    let label_words = normalise(label);
    if !label_words.trim().is_empty() && !normalise(message).contains(label_words.trim()) {
        out.push_str(": ");
        out.push_str(label);
    }
    for note in notes {
        out.push('\n');
        out.push_str(note);
    }
    if let Some(s) = suggestion {
        out.push_str(&format!("\ndid you mean `{s}`?"));
    }
    out
}

pub(crate) fn to_lsp_diagnostics(
    snapshot: &Snapshot,
    diagnostics: &[Diagnostic],
) -> Vec<lsp_types::Diagnostic> {
    let index = LineIndex::new(&snapshot.text);
    json_diagnostics(snapshot, diagnostics)
        .into_iter()
        .map(|d| {
            let primary = d.spans.iter().find(|s| s.primary);
            let related: Vec<DiagnosticRelatedInformation> = d
                .spans
                .iter()
                .filter(|s| !s.primary && !s.label.is_empty())
                .map(|s| DiagnosticRelatedInformation {
                    location: Location {
                        uri: snapshot.uri.clone(),
                        range: json_range(&index, s),
                    },
                    message: s.label.clone(),
                })
                .collect();
            let message = lsp_message(
                &d.message,
                primary.map_or("", |s| s.label.as_str()),
                &d.notes,
                d.suggestion.as_ref().map(|s| s.replacement.as_str()),
            );
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

fn publish(
    uri: Uri,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        },
    )
}

/// The last path segment of a URI, for the diagnostics' file names.
fn file_name(uri: &Uri) -> String {
    let path = uri.path().as_str();
    path.rsplit('/').next().unwrap_or(path).to_string()
}

pub(crate) fn position(lines: &LineIndex, offset: usize) -> Position {
    let (line, character) = lines.line_utf16(offset);
    Position::new(line as u32, character as u32)
}

pub(crate) fn range(lines: &LineIndex, span: Span) -> Range {
    Range::new(
        position(lines, span.start as usize),
        position(lines, span.end as usize),
    )
}

pub(crate) fn json_range(lines: &LineIndex, span: &JsonSpan) -> Range {
    range(
        lines,
        Span {
            start: span.byte_start,
            end: span.byte_end,
        },
    )
}

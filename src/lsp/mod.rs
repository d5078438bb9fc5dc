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
//! **Staying fast on big files.** The client sends edits, not texts
//! (incremental synchronisation); the main loop applies each to the text
//! and its line starts ([`text`]) and stores a new [`Snapshot`], doing no
//! analysis. Two threads do the rest:
//!
//! * the *requests* thread answers requests in order, each against the
//!   newest version. Its syntax index is made from the last index built and
//!   the edits since ([`analysis::DocumentIndex::edited`]): only the
//!   statements an edit touches are read again, so a hover after an edit
//!   costs about the same on a file of 30 000 lines as on one of 30, and it
//!   never waits for a check. A request cancelled with `$/cancelRequest`
//!   before it runs is answered `RequestCancelled`; one whose document
//!   changed after it was sent is answered `ContentModified` (the client
//!   asks again), so no answer ever points into a text that is gone;
//! * the *diagnostics* thread waits until the document has been quiet for
//!   [`DEBOUNCE`], then parses and checks the newest version — no
//!   lowering and no SPIR-V validation on keystrokes — and publishes
//!   unless a newer version has arrived. Errors only the back end finds
//!   (`E0900`, device limits) come from lowering the program (without
//!   validation): on open and save at once, and otherwise once the checked
//!   version has stayed unchanged for [`LOWER_AFTER`] more. Until then the
//!   last lowering's findings are kept, moved with the text around them
//!   (one that an edit touched is dropped, to be found again or not by
//!   the next lowering), so they do not flicker away while one types.
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
// Internal and unstable (the document text, line starts and edits).
mod complete;
mod probe;
mod requests;
#[doc(hidden)]
pub mod text;

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

use crate::diag::json::{to_json, JsonDiagnostic, JsonSpan};
use crate::span::Span;
use crate::{Diagnostic, Options};
use analysis::DocumentIndex;
use text::{LineStarts, Text, TextChange};

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

/// How long a checked version must stay unchanged before it is also
/// lowered (without validation) for the errors only the back end finds.
pub const LOWER_AFTER: Duration = Duration::from_millis(400);

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
                change: Some(TextDocumentSyncKind::INCREMENTAL),
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

/// Where a snapshot's syntax index comes from.
enum IndexFrom {
    /// Reading the whole text.
    Scratch,
    /// An older version's index and the change from that version's text to
    /// this one.
    Edit(Arc<DocumentIndex>, TextChange),
}

/// One version of an open document, shared by the threads; its syntax
/// index and diagnostics are computed at most once, by whichever thread
/// needs them first.
pub(crate) struct Snapshot {
    pub uri: Uri,
    pub version: i32,
    pub text: String,
    pub lines: LineStarts,
    /// What changed from the version before (`None`: opened, or the text
    /// did not change).
    pub change: Option<TextChange>,
    from: IndexFrom,
    index: OnceLock<Option<Arc<DocumentIndex>>>,
    diagnostics: OnceLock<Vec<Diagnostic>>,
}

impl Snapshot {
    fn opened(uri: Uri, version: i32, text: String) -> Snapshot {
        let text = Text::new(text);
        Snapshot {
            uri,
            version,
            text: text.text,
            lines: text.lines,
            change: None,
            from: IndexFrom::Scratch,
            index: OnceLock::new(),
            diagnostics: OnceLock::new(),
        }
    }

    /// The next version: `changes` applied to this one's text. Its index
    /// will be made from the newest index there is (this version's, or the
    /// one this version's would have been made from) and the edits since.
    fn changed(
        &self,
        version: i32,
        changes: Vec<lsp_types::TextDocumentContentChangeEvent>,
    ) -> Snapshot {
        // Room for what the edits insert, so applying them copies the
        // text once.
        let inserted: usize = changes.iter().map(|c| c.text.len()).sum();
        let mut copy = String::with_capacity(self.text.len() + inserted);
        copy.push_str(&self.text);
        let mut text = Text {
            text: copy,
            lines: self.lines.clone(),
        };
        let change = text.apply(changes);
        let unchanged = TextChange {
            start: self.text.len(),
            old_end: self.text.len(),
            new_end: self.text.len(),
        };
        let from = match (self.index.get(), &self.from) {
            (Some(Some(index)), _) => {
                IndexFrom::Edit(Arc::clone(index), change.unwrap_or(unchanged))
            }
            (Some(None), _) | (None, IndexFrom::Scratch) => IndexFrom::Scratch,
            (None, IndexFrom::Edit(index, before)) => IndexFrom::Edit(
                Arc::clone(index),
                change.map_or(*before, |c| before.then(c)),
            ),
        };
        let index = OnceLock::new();
        if change.is_none() {
            if let Some(done) = self.index.get() {
                let _ = index.set(done.clone());
            }
        }
        Snapshot {
            uri: self.uri.clone(),
            version,
            text: text.text,
            lines: text.lines,
            change,
            from,
            index,
            diagnostics: OnceLock::new(),
        }
    }

    /// The syntax index (`analysis`); `None` without a header.
    pub fn index(&self) -> Option<&DocumentIndex> {
        self.index
            .get_or_init(|| {
                match &self.from {
                    IndexFrom::Scratch => DocumentIndex::new(&self.text),
                    IndexFrom::Edit(index, change) => index.edited(&self.text, *change),
                }
                .map(Arc::new)
            })
            .as_deref()
    }

    /// Parse and check: every error and warning, without lowering.
    pub fn diagnostics(&self, options: &Options) -> &[Diagnostic] {
        self.diagnostics
            .get_or_init(|| match crate::check(&self.text, options) {
                Ok((_, warnings)) => warnings.0,
                Err(diagnostics) => diagnostics.0,
            })
    }

    /// The LSP range of a span of the text.
    pub fn range(&self, span: Span) -> Range {
        self.lines.range(&self.text, span)
    }

    /// The byte offset of an LSP position.
    pub fn offset(&self, position: Position) -> usize {
        self.lines.offset(&self.text, position)
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
    let store = |snapshot: Snapshot| {
        let snapshot = Arc::new(snapshot);
        lock(&shared.documents).insert(snapshot.uri.clone(), Arc::clone(&snapshot));
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
                let snapshot = Snapshot::opened(d.uri, d.version, d.text);
                diagnostics.send(DiagnosticsJob::Full(store(snapshot)))?;
            }
        }
        DidChangeTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                // Edits to a document that is not open are not ours to apply.
                let d = p.text_document;
                if let Some(previous) = shared.current(&d.uri) {
                    let snapshot = previous.changed(d.version, p.content_changes);
                    diagnostics.send(DiagnosticsJob::Changed(store(snapshot)))?;
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

/// What the diagnostics thread keeps of the last lowering of a document.
struct Lowered {
    /// The diagnostics only lowering found (not the check's), with the
    /// spans of the version last published.
    diagnostics: Vec<Diagnostic>,
    /// What changed since that version.
    change: Option<TextChange>,
}

impl Lowered {
    /// The findings moved to the newest text; those an edit touched are
    /// left out.
    fn carried(&self) -> Vec<Diagnostic> {
        let Some(change) = self.change else {
            return self.diagnostics.clone();
        };
        self.diagnostics
            .iter()
            .filter_map(|d| {
                let mut d = d.clone();
                for label in &mut d.labels {
                    label.span = change.map_span(label.span)?;
                }
                Some(d)
            })
            .collect()
    }
}

/// The diagnostics thread: coalesces changes until the documents are quiet
/// for [`DEBOUNCE`], then publishes the newest version of each; lowers a
/// checked version that stays quiet for [`LOWER_AFTER`] more.
fn diagnostics_loop(
    jobs: &mpsc::Receiver<DiagnosticsJob>,
    shared: &Shared,
    out: &impl Fn(Message),
    options: &Options,
) {
    // By URI text (a `Uri` caches its parts inside, so it is no map key
    // for clippy).
    let mut pending: HashMap<String, Arc<Snapshot>> = HashMap::new();
    let mut to_lower: HashMap<String, Arc<Snapshot>> = HashMap::new();
    let mut lowered: HashMap<String, Lowered> = HashMap::new();
    let lower = |snapshot: &Snapshot, lowered: &mut HashMap<String, Lowered>| {
        let mut full = options.clone();
        full.validate = false;
        let all = match crate::compile(&snapshot.text, &full) {
            Ok(compiled) => compiled.warnings.0,
            Err(diagnostics) => diagnostics.0,
        };
        let checked = snapshot.diagnostics(options);
        let only_lowering = all.iter().filter(|d| !checked.contains(d)).cloned();
        lowered.insert(
            snapshot.uri.as_str().to_string(),
            Lowered {
                diagnostics: only_lowering.collect(),
                change: None,
            },
        );
        send_diagnostics(shared, out, snapshot, &all);
    };
    loop {
        let wait = if !pending.is_empty() {
            Some(DEBOUNCE)
        } else if !to_lower.is_empty() {
            Some(LOWER_AFTER)
        } else {
            None
        };
        let job = match wait.map_or_else(
            || jobs.recv().map_err(|_| RecvTimeoutError::Disconnected),
            |t| jobs.recv_timeout(t),
        ) {
            Ok(job) => job,
            Err(RecvTimeoutError::Disconnected) => return,
            Err(RecvTimeoutError::Timeout) if !pending.is_empty() => {
                for (uri, snapshot) in pending.drain() {
                    if shared.is_current(&snapshot) {
                        let mut diagnostics = snapshot.diagnostics(options).to_vec();
                        if let Some(l) = lowered.get(&uri) {
                            diagnostics.extend(l.carried());
                            diagnostics.sort_by_key(|d| d.primary_span().map(|s| s.start));
                        }
                        send_diagnostics(shared, out, &snapshot, &diagnostics);
                        to_lower.insert(uri, snapshot);
                    }
                }
                continue;
            }
            Err(RecvTimeoutError::Timeout) => {
                for (_, snapshot) in to_lower.drain() {
                    if shared.is_current(&snapshot) {
                        lower(&snapshot, &mut lowered);
                    }
                }
                continue;
            }
        };
        match job {
            DiagnosticsJob::Changed(snapshot) => {
                let uri = snapshot.uri.as_str().to_string();
                if let (Some(l), Some(c)) = (lowered.get_mut(&uri), snapshot.change) {
                    l.change = Some(l.change.map_or(c, |before| before.then(c)));
                }
                to_lower.remove(&uri);
                pending.insert(uri, snapshot);
            }
            DiagnosticsJob::Full(snapshot) => {
                let uri = snapshot.uri.as_str();
                pending.remove(uri);
                to_lower.remove(uri);
                if shared.is_current(&snapshot) {
                    lower(&snapshot, &mut lowered);
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
                        range: json_range(snapshot, s),
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
                range: primary.map_or_else(Range::default, |s| json_range(snapshot, s)),
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

pub(crate) fn json_range(snapshot: &Snapshot, span: &JsonSpan) -> Range {
    snapshot.range(Span {
        start: span.byte_start,
        end: span.byte_end,
    })
}

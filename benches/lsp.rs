//! The language server on a big file (docs/performance.md, "Language
//! server"): a 30 000-line program is open, five quick edits arrive (five
//! keystrokes, each a `didChange` with the range it replaced, as clients
//! send them with the incremental synchronisation the server asks for),
//! then a hover; the figure is the time from the hover request to its
//! answer. The server answers against the newest version, whose syntax
//! index it makes from the last one by re-reading the statements the edits
//! touched, with no check, lowering or validation in the way
//! (src/lsp/mod.rs, src/lsp/analysis.rs).
//!
//! A second benchmark sends each version as the whole text (full
//! synchronisation, for clients without incremental edits): the server
//! then finds the changed range by comparing the texts.
//!
//! ```text
//! cargo bench --bench lsp
//! ```
//!
//! `NVP4C_LSP_ONCE=1` runs one sample without criterion and prints its
//! time, for instruction counts that do not depend on the machine's load
//! (docs/performance.md: the server's request handler under callgrind).
#[path = "common/mod.rs"]
mod common;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::json;

const URI: &str = "file:///big.vp";
const LINES: usize = 30_000;

/// A valid Cg-style vertex program of at least `LINES` lines.
fn program() -> String {
    let mut blocks = 1;
    loop {
        let text = common::cg_program_instructions(blocks * common::INSTRUCTIONS_PER_BLOCK);
        if text.lines().count() >= LINES {
            return text;
        }
        blocks += 1;
    }
}

struct Session {
    client: Connection,
    thread: Option<std::thread::JoinHandle<()>>,
    next_id: i32,
    version: i32,
}

impl Session {
    fn start(text: &str) -> Session {
        let (server, client) = Connection::memory();
        let thread =
            std::thread::spawn(move || nvp4c::lsp::serve(&server).expect("the server runs"));
        let mut s = Session {
            client,
            thread: Some(thread),
            next_id: 1,
            version: 1,
        };
        s.request("initialize", json!({"capabilities": {}}));
        s.notify("initialized", json!({}));
        s.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "nvasm", "version": 1, "text": text}}),
        );
        // The first diagnostics: the document is in.
        loop {
            if let Ok(Message::Notification(n)) = s.client.receiver.recv() {
                if n.method == "textDocument/publishDiagnostics" {
                    break;
                }
            }
        }
        s
    }

    fn notify(&self, method: &str, params: serde_json::Value) {
        self.client
            .sender
            .send(Notification::new(method.into(), params).into())
            .unwrap();
    }

    fn request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let id = self.next_id;
        self.next_id += 1;
        self.client
            .sender
            .send(Request::new(RequestId::from(id), method.into(), params).into())
            .unwrap();
        loop {
            if let Ok(Message::Response(r)) = self.client.receiver.recv() {
                if r.id == RequestId::from(id) {
                    return r.response_result.expect("an answer");
                }
            }
        }
    }

    fn edit(&mut self, text: &str) {
        self.version += 1;
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": self.version}, "contentChanges": [{"text": text}]}),
        );
    }

    /// Replaces the characters `from..to` of line `line` with `text`.
    fn edit_range(&mut self, line: usize, from: usize, to: usize, text: &str) {
        self.version += 1;
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": self.version}, "contentChanges": [{
                "range": {"start": {"line": line, "character": from}, "end": {"line": line, "character": to}},
                "text": text
            }]}),
        );
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.request("shutdown", serde_json::Value::Null);
        self.notify("exit", serde_json::Value::Null);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The program, the hover request, and where the edits go: typing `12345`
/// after `R0` in the last instruction.
struct Setup {
    text: String,
    at: usize,
    line: usize,
    column: usize,
    hover: serde_json::Value,
}

fn setup() -> Setup {
    let text = program();
    eprintln!(
        "lsp bench: {} lines, {} bytes",
        text.lines().count(),
        text.len()
    );
    let at = text
        .rfind("MOV result.position, R0")
        .expect("the last instruction")
        + 23;
    let line = text[..at].matches('\n').count();
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    // Hover on the opcode of an instruction in the middle of the file.
    let middle = text.lines().count() as u32 / 2;
    let hover = json!({"textDocument": {"uri": URI}, "position": {"line": middle, "character": 1}});
    Setup {
        text,
        at,
        line,
        column,
        hover,
    }
}

fn hover_after_edits(c: &mut Criterion) {
    let s = setup();
    let mut session = Session::start(&s.text);
    let mut g = c.benchmark_group("lsp");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2));
    g.bench_function("hover after 5 edits, 30000 lines", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                for (n, digit) in "12345".chars().enumerate() {
                    let column = s.column + n;
                    session.edit_range(s.line, column, column, &digit.to_string());
                }
                let t = Instant::now();
                let answer = session.request("textDocument/hover", s.hover.clone());
                total += t.elapsed();
                assert!(answer["contents"]["value"].is_string(), "{answer}");
                // Back to the original text, then let the diagnostics of
                // the last edit go out, so that each sample starts from a
                // quiet server.
                session.edit_range(s.line, s.column, s.column + 5, "");
                std::thread::sleep(nvp4c::lsp::DEBOUNCE * 3);
            }
            total
        })
    });
    g.finish();
}

fn hover_after_full_text_edits(c: &mut Criterion) {
    let s = setup();
    let edits: Vec<String> = (1..=5)
        .map(|n| format!("{}{}{}", &s.text[..s.at], &"12345"[..n], &s.text[s.at..]))
        .collect();
    let mut session = Session::start(&s.text);
    let mut g = c.benchmark_group("lsp");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2));
    g.bench_function("hover after 5 full-text edits, 30000 lines", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                for e in &edits {
                    session.edit(e);
                }
                let t = Instant::now();
                let answer = session.request("textDocument/hover", s.hover.clone());
                total += t.elapsed();
                assert!(answer["contents"]["value"].is_string(), "{answer}");
                session.edit(&s.text);
                std::thread::sleep(nvp4c::lsp::DEBOUNCE * 3);
            }
            total
        })
    });
    g.finish();
}

/// One sample: open, a first hover (the whole file is indexed), the
/// first diagnostics, five keystrokes, the hover that is measured.
fn once() {
    let s = setup();
    let mut session = Session::start(&s.text);
    session.request("textDocument/hover", s.hover.clone());
    for (n, digit) in "12345".chars().enumerate() {
        let column = s.column + n;
        session.edit_range(s.line, column, column, &digit.to_string());
    }
    let t = Instant::now();
    let answer = session.request("textDocument/hover", s.hover.clone());
    let elapsed = t.elapsed();
    assert!(answer["contents"]["value"].is_string(), "{answer}");
    eprintln!("lsp bench: hover after 5 edits answered in {elapsed:?}");
}

criterion_group!(benches, hover_after_edits, hover_after_full_text_edits);

fn main() {
    if std::env::var_os("NVP4C_LSP_ONCE").is_some() {
        once();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

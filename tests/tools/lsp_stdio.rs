//! `nvp4c lsp`: the language server over standard input/output, driven by
//! scripted JSON-RPC sessions: initialize, didOpen, hover (opcodes, names,
//! every kind of binding, targets, options, the header), definition,
//! references, document highlights, prepareRename and rename, completion,
//! documentSymbol, codeAction, didChange, cancellation, shutdown, exit.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

const URI: &str = "file:///work/prog.fp";

/// Has an error (`MOVV`), a subroutine, and names to look up.
const PROGRAM: &str = "!!NVfp4.0
PARAM tint = program.local[0];
TEMP color;
MOVV color, fragment.color;
CAL shade;
MOV result.color, color;
RET;
shade:
ADDR_SAT color, color, tint;
RET;
END
";

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: mpsc::Receiver<Value>,
    next_id: i64,
}

fn read_message(reader: &mut BufReader<ChildStdout>) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nvp4c"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nvp4c lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            while let Some(m) = read_message(&mut stdout) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 1,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn receive(&self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s")
    }

    /// Sends a request and returns its result (other messages on the way
    /// are skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.receive();
            if m["id"] == id {
                assert!(m.get("error").is_none(), "{method} failed: {m}");
                return m["result"].clone();
            }
        }
    }

    fn diagnostics(&self) -> Vec<Value> {
        loop {
            let m = self.receive();
            if m["method"] == "textDocument/publishDiagnostics" {
                assert_eq!(m["params"]["uri"], URI);
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }
}

/// The LSP position of the `nth` occurrence of `needle` plus `delta`
/// characters (the program is ASCII, so UTF-16 columns are bytes).
fn position_of(needle: &str, nth: usize, delta: usize) -> Value {
    let offset = PROGRAM
        .match_indices(needle)
        .nth(nth)
        .expect("in the program")
        .0
        + delta;
    let line = PROGRAM[..offset].matches('\n').count();
    let column = offset - PROGRAM[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": column})
}

fn at(needle: &str, nth: usize, delta: usize) -> Value {
    json!({"textDocument": {"uri": URI}, "position": position_of(needle, nth, delta)})
}

#[test]
fn scripted_session() {
    let mut client = Client::start();
    let init = client.request("initialize", json!({"capabilities": {}, "processId": null}));
    let caps = &init["capabilities"];
    assert_eq!(caps["hoverProvider"], true);
    assert_eq!(caps["definitionProvider"], true);
    assert_eq!(caps["documentSymbolProvider"], true);
    assert_eq!(
        caps["textDocumentSync"]["change"], 2,
        "incremental synchronisation"
    );
    assert_eq!(caps["referencesProvider"], true);
    assert_eq!(caps["renameProvider"]["prepareProvider"], true);
    assert_eq!(caps["completionProvider"]["triggerCharacters"][0], ".");
    assert_eq!(init["serverInfo"]["name"], "nvp4c");
    client.notify("initialized", json!({}));

    // didOpen: the error is published with its range, code and the fix.
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "nvp4", "version": 1, "text": PROGRAM}}),
    );
    let diags = client.diagnostics();
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["code"], "E0400");
    assert_eq!(diags[0]["severity"], 1);
    assert_eq!(diags[0]["source"], "nvp4c");
    assert_eq!(
        diags[0]["range"]["start"],
        json!({"line": 3, "character": 0})
    );
    assert_eq!(diags[0]["range"]["end"], json!({"line": 3, "character": 4}));
    assert!(diags[0]["message"]
        .as_str()
        .unwrap()
        .contains("did you mean `MOV`?"));

    // Quick fix for it.
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": diags[0]["range"], "context": {"diagnostics": []}}),
    );
    assert_eq!(actions[0]["title"], "Replace with `MOV`");
    assert_eq!(actions[0]["edit"]["changes"][URI][0]["newText"], "MOV");

    // Hover on a suffixed opcode: the table's description, suffixes and section.
    let hover = client.request("textDocument/hover", at("ADDR_SAT", 0, 2));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("**ADD**"), "{text}");
    assert!(
        text.contains("`_SAT`: clamp the result to [0, 1]"),
        "{text}"
    );
    assert!(
        text.contains("`R`: floating-point at full (32-bit) precision"),
        "{text}"
    );
    assert!(text.contains("section 2.X.8.Z, ADD"), "{text}");
    assert_eq!(hover["range"]["start"], position_of("ADDR_SAT", 0, 0));

    // Hover on a name: its declaration and type.
    let hover = client.request("textDocument/hover", at("tint;", 0, 1));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("PARAM tint = program.local[0];"), "{text}");
    assert!(text.contains("**tint** — parameter"), "{text}");

    // Go to definition: a variable, then a label.
    let def = client.request("textDocument/definition", at("color, fragment", 0, 2));
    assert_eq!(def["uri"], URI);
    assert_eq!(def["range"]["start"], position_of("color;", 0, 0));
    let def = client.request("textDocument/definition", at("shade;", 0, 0));
    assert_eq!(def["range"]["start"], position_of("shade:", 0, 0));

    // Nothing to show on punctuation.
    let none = client.request("textDocument/hover", at(";", 0, 1));
    assert!(none.is_null(), "{none}");

    // Document symbols: declarations and the subroutine.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let names: Vec<(&str, i64)> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["kind"].as_i64().unwrap()))
        .collect();
    // CONSTANT = 14, VARIABLE = 13, FUNCTION = 12.
    assert_eq!(names, [("tint", 14), ("color", 13), ("shade", 12)]);
    let shade = &symbols[2];
    assert_eq!(shade["range"]["start"], position_of("shade:", 0, 0));
    assert_eq!(shade["range"]["end"], position_of("END", 0, 0));

    // didChange: the fixed program has no diagnostics.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": PROGRAM.replace("MOVV", "MOV")}]}),
    );
    assert_eq!(client.diagnostics(), Vec::<Value>::new());
    // ...and a new error after another change.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 3}, "contentChanges": [{"text": PROGRAM.replace("MOVV", "MOV").replace("tint;", "tnt;")}]}),
    );
    let diags = client.diagnostics();
    assert_eq!(diags[0]["code"], "E0301", "{diags:#?}");

    // Unknown requests get MethodNotFound, and the server keeps going.
    client.send(
        json!({"jsonrpc": "2.0", "id": 99, "method": "textDocument/formatting", "params": {}}),
    );
    loop {
        let m = client.receive();
        if m["id"] == 99 {
            assert_eq!(m["error"]["code"], -32601);
            break;
        }
    }

    let shutdown = client.request("shutdown", Value::Null);
    assert!(shutdown.is_null());
    client.notify("exit", Value::Null);
    let status = client.child.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// A program with one binding of each kind, a texture, an option, a
/// subroutine and a name used several times.
const BINDINGS: &str = "!!NVfp4.0
OPTION ARB_draw_buffers;
PARAM mvp[4] = { state.matrix.mvp };
PARAM tint = program.local[2];
TEMP color;
MUL color, fragment.texcoord[1], tint;
TEX color, color, texture[3], 2D;
ADD color, color, state.light[0].diffuse;
CAL shade;
MOV result.color[1], color;
RET;
shade:
MUL color, color, mvp[0];
RET;
END
";

fn at_in(text: &str, needle: &str, delta: usize) -> Value {
    let offset = text.find(needle).expect("in the program") + delta;
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": column}})
}

impl Client {
    fn open(&mut self, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "nvasm", "version": 1, "text": text}}),
        );
        self.diagnostics()
    }

    fn hover_text(&mut self, text: &str, needle: &str, delta: usize) -> String {
        let hover = self.request("textDocument/hover", at_in(text, needle, delta));
        hover["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("a hover on `{needle}`: {hover}"))
            .to_string()
    }

    fn labels(&mut self, text: &str, needle: &str, delta: usize) -> Vec<String> {
        let items = self.request("textDocument/completion", at_in(text, needle, delta));
        items
            .as_array()
            .unwrap_or_else(|| panic!("completion items: {items}"))
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    }
}

#[test]
fn hover_on_bindings_shows_their_meaning_and_interface_slot() {
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    assert_eq!(client.open(BINDINGS), Vec::<Value>::new());

    // An attribute: the meaning and the back end's Location
    // (docs/interface.md: fragment.texcoord[n] is Location 5 + n).
    let text = client.hover_text(BINDINGS, "fragment.texcoord", 3);
    assert!(
        text.starts_with("**fragment.texcoord[1]** — interpolated texture coordinate set n"),
        "{text}"
    );
    assert!(text.contains("`Location 6`, `vec4`, smooth"), "{text}");
    assert!(
        text.contains("NV_fragment_program4 section 2.X.3.2"),
        "{text}"
    );

    // A result: draw buffer 1 is Location 1.
    let text = client.hover_text(BINDINGS, "result.color[1]", 8);
    assert!(
        text.contains("**result.color[1]** — color for draw buffer n"),
        "{text}"
    );
    assert!(text.contains("output `Location 1`, `vec4`"), "{text}");

    // GL state: the State block at set 2, binding 2; light 0's diffuse
    // color is row 222, byte offset 3552 (docs/interface.md).
    let text = client.hover_text(BINDINGS, "state.light", 7);
    assert!(
        text.contains("**state.light[0].diffuse** — diffuse color of light n"),
        "{text}"
    );
    assert!(
        text.contains("uniform block `State` (set 2, binding 2), byte offset 3552"),
        "{text}"
    );
    // A whole matrix in a declaration: its first and last rows.
    let text = client.hover_text(BINDINGS, "state.matrix.mvp", 2);
    assert!(
        text.contains("byte offset 1152") && text.contains("byte offset 1200"),
        "{text}"
    );

    // program.local[2]: ProgramLocal at binding 1, element 2 at +32.
    let text = client.hover_text(BINDINGS, "program.local", 9);
    assert!(
        text.contains("uniform block `ProgramLocal` (set 2, binding 1), byte offset 32"),
        "{text}"
    );

    // A texture unit with its target: binding 32 + 3.
    let text = client.hover_text(BINDINGS, "texture[3]", 1);
    assert!(
        text.contains("**texture[3]** — texture image unit n"),
        "{text}"
    );
    assert!(
        text.contains("`texture[3]`, 2D → combined image sampler `sampler2D` (set 2, binding 35)"),
        "{text}"
    );

    // The target, the option and the header.
    let text = client.hover_text(BINDINGS, "2D;", 0);
    assert!(
        text.starts_with("**2D** — texture target: two-dimensional texture"),
        "{text}"
    );
    let text = client.hover_text(BINDINGS, "ARB_draw_buffers", 4);
    assert!(
        text.starts_with(
            "**OPTION ARB_draw_buffers** — result.color[n]: one colour output per draw buffer"
        ),
        "{text}"
    );
    let text = client.hover_text(BINDINGS, "!!NVfp4.0", 3);
    assert!(
        text.starts_with("**!!NVfp4.0** — a fragment program (NV_fragment_program4)"),
        "{text}"
    );
    assert!(
        text.contains("SPIR-V `Fragment` entry point `main`, execution modes `OriginUpperLeft`"),
        "{text}"
    );

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert!(client.child.wait().unwrap().success());
}

#[test]
fn references_highlights_and_rename_of_declared_names() {
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    client.open(BINDINGS);

    // Every use of `color`, with and without its declaration.
    let refs = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": URI}, "position": at_in(BINDINGS, "color, color, texture", 0)["position"], "context": {"includeDeclaration": true}}),
    );
    let lines: Vec<i64> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["range"]["start"]["line"].as_i64().unwrap())
        .collect();
    assert_eq!(lines, [4, 5, 6, 6, 7, 7, 9, 12, 12]);
    let refs = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": URI}, "position": at_in(BINDINGS, "shade;", 0)["position"], "context": {"includeDeclaration": false}}),
    );
    assert_eq!(refs.as_array().unwrap().len(), 1, "{refs}");

    // Highlights: writes (the declaration, destinations) and reads.
    let highlights = client.request(
        "textDocument/documentHighlight",
        at_in(BINDINGS, "tint;", 0),
    );
    let kinds: Vec<i64> = highlights
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["kind"].as_i64().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [3, 2],
        "declaration (Write), use (Read): {highlights}"
    );

    // prepareRename: a name yes, a binding or an opcode no.
    let ok = client.request("textDocument/prepareRename", at_in(BINDINGS, "tint;", 1));
    assert_eq!(ok["placeholder"], "tint");
    for (needle, delta) in [("state.light", 2), ("MUL color", 1), ("texture[3]", 0)] {
        let id = 500 + delta as i64;
        client.send(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/prepareRename", "params": at_in(BINDINGS, needle, delta)}));
        loop {
            let m = client.receive();
            if m["id"] == id {
                assert!(
                    m["error"]["message"]
                        .as_str()
                        .unwrap()
                        .contains("only declared names and labels"),
                    "{m}"
                );
                break;
            }
        }
    }

    // rename: every place, and refused for a reserved word or a taken name.
    let mut params = at_in(BINDINGS, "tint;", 0);
    params["newName"] = json!("gain");
    let edit = client.request("textDocument/rename", params.clone());
    let edits = edit["changes"][URI].as_array().unwrap();
    assert_eq!(edits.len(), 2);
    assert!(edits.iter().all(|e| e["newText"] == "gain"));
    for (name, why) in [
        ("state", "not a name"),
        ("color", "already declared"),
        ("2x", "not a name"),
    ] {
        params["newName"] = json!(name);
        client.send(
            json!({"jsonrpc": "2.0", "id": 700, "method": "textDocument/rename", "params": params}),
        );
        loop {
            let m = client.receive();
            if m["id"] == 700 {
                assert!(
                    m["error"]["message"]
                        .as_str()
                        .is_some_and(|e| e.contains(why)),
                    "{name}: {m}"
                );
                break;
            }
        }
    }
    // A label is renamed at its definition and its CAL.
    let mut params = at_in(BINDINGS, "shade:", 0);
    params["newName"] = json!("lighting");
    let edit = client.request("textDocument/rename", params);
    assert_eq!(edit["changes"][URI].as_array().unwrap().len(), 2);

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert!(client.child.wait().unwrap().success());
}

#[test]
fn completion_offers_opcodes_suffixes_modifiers_bindings_and_names() {
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    let text = "!!NVfp4.0
OPTION ARB_fog_exp;
PARAM tint = program.local[2];
TEMP color;
ADD
MUL.
MOV color, state.matrix.
MOV color, state.light[0].
MOV color, t
TEX color, color, texture[0], 
CAL s
shade:
RET;
END
";
    client.open(text);
    // Opcodes at the start of a statement; suffixed forms once the base
    // name is typed (Table X.15's order), and none of another stage.
    let labels = client.labels(text, "ADD\n", 3);
    for form in ["ADD", "ADDR", "ADDC1", "ADDR_SAT", "ADDHC0_SSAT"] {
        assert!(labels.contains(&form.to_string()), "{form} in {labels:?}");
    }
    let labels = client.labels(text, "ADD\n", 1);
    assert!(
        labels.contains(&"ADD".into()) && labels.contains(&"AND".into()),
        "{labels:?}"
    );
    assert!(!labels.contains(&"ADDR".into()), "{labels:?}");
    let labels = client.labels(text, "TEX color", 1);
    assert!(
        labels.contains(&"TEMP".into()) && labels.contains(&"TXB".into()),
        "{labels:?}"
    );
    assert!(
        !labels.contains(&"EMIT".into()),
        "EMIT is a geometry opcode: {labels:?}"
    );
    // Stand-alone modifiers of MUL, S24 included.
    let labels = client.labels(text, "MUL.", 4);
    for m in ["F", "S", "CC1", "SAT", "S24", "HI"] {
        assert!(labels.contains(&m.to_string()), "{m} in {labels:?}");
    }
    // Binding members.
    let labels = client.labels(text, "state.matrix.", 13);
    assert_eq!(
        labels,
        ["modelview", "projection", "mvp", "texture", "program"]
    );
    let labels = client.labels(text, "state.light[0].", 15);
    assert!(
        labels.contains(&"spot".into()) && labels.contains(&"half".into()),
        "{labels:?}"
    );
    // Declared names and binding roots in an operand; labels after CAL.
    let labels = client.labels(text, "color, t\n", 8);
    assert!(
        labels.contains(&"tint".into()) && labels.contains(&"texture".into()),
        "{labels:?}"
    );
    assert!(!labels.contains(&"shade".into()), "{labels:?}");
    let labels = client.labels(text, "CAL s", 5);
    assert_eq!(labels, ["shade"]);
    // Texture targets after the unit; options the program type accepts.
    let labels = client.labels(text, "texture[0], ", 12);
    assert!(
        labels.contains(&"2D".into()) && labels.contains(&"SHADOWARRAY2D".into()),
        "{labels:?}"
    );
    let labels = client.labels(text, "OPTION A", 7);
    assert!(labels.contains(&"ARB_fog_linear".into()), "{labels:?}");
    assert!(
        !labels.contains(&"ARB_position_invariant".into()),
        "a vertex program option: {labels:?}"
    );

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert!(client.child.wait().unwrap().success());
}

#[test]
fn cancelled_and_stale_requests_are_not_answered_with_results() {
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    // A big program keeps the requests thread busy long enough that the
    // next requests wait in its queue.
    let mut big = String::from("!!NVfp4.0\nTEMP a;\n");
    for _ in 0..20_000 {
        big.push_str("ADD a, a, fragment.color;\n");
    }
    big.push_str("MOV result.color, a;\nEND\n");
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "nvasm", "version": 1, "text": big}}),
    );
    let hover = |id: i64| json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {"textDocument": {"uri": URI}, "position": {"line": 2, "character": 1}}});
    // 1: builds the index; 2: cancelled before it runs; 3: asked before a
    // change, so its answer would be for a text that is gone.
    client.send(hover(1));
    client.send(hover(2));
    client.send(json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}}));
    client.send(hover(3));
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": big.replace("TEMP a;", "TEMP a, b;")}]}),
    );
    client.send(hover(4));
    let mut answers = std::collections::BTreeMap::new();
    while answers.len() < 4 {
        let m = client.receive();
        if let Some(id) = m["id"].as_i64() {
            answers.insert(id, m);
        }
    }
    assert_eq!(
        answers[&2]["error"]["code"], -32800,
        "cancelled: {}",
        answers[&2]
    );
    // Request 1 may have finished before the change; 3 was queued behind it.
    assert_eq!(
        answers[&3]["error"]["code"], -32801,
        "content modified: {}",
        answers[&3]
    );
    assert!(
        answers[&4]["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .starts_with("**ADD**"),
        "{}",
        answers[&4]
    );

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert!(client.child.wait().unwrap().success());
}

#[test]
fn diagnostics_do_not_repeat_their_label() {
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    let diags = client.open("!!NVfp4.0\nMOV result.color, R7;\nEND\n");
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.starts_with("`R7` is not declared\n"), "{message}");
    assert!(!message.contains(": not declared"), "{message}");
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert!(client.child.wait().unwrap().success());
}

/// Issue 15 item 9: the language server reads the older NV headers with
/// the compiler's rewrite, so their diagnostics carry their own codes and
/// point at the register as written.
#[test]
fn the_language_server_reports_the_older_headers_rules_where_they_are_written() {
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    let text = "!!VP1.0\nMOV o[HPOS], v[OPOS];\nMOV R12, v[NRML];\nEND\n";
    let diags = client.open(text);
    assert_eq!(codes_and_lines(&diags), [("E1200".to_string(), 2)]);
    assert_eq!(diags[0]["range"]["start"]["character"], 4, "{}", diags[0]);
    let diags = client.open("!!FP1.0\nMOVR o[COLR], f[TEX0];\nEND\n");
    assert!(diags.is_empty(), "{diags:?}");
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert!(client.child.wait().unwrap().success());
}

impl Client {
    /// Sends a `didChange` that replaces the characters `from..to` of
    /// `line` with `text` (incremental synchronisation).
    fn edit(&mut self, version: i32, line: usize, from: usize, to: usize, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{
                "range": {"start": {"line": line, "character": from}, "end": {"line": line, "character": to}},
                "text": text
            }]}),
        );
    }
}

fn codes_and_lines(diags: &[Value]) -> Vec<(String, i64)> {
    diags
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// Lowering errors (E0900, device limits) are found only by the back end,
/// which does not run on each keystroke: they are kept across edits (moved
/// with the text), and the program is lowered again, without a save, once
/// it has been quiet for `lsp::LOWER_AFTER`.
#[test]
fn lowering_errors_stay_across_edits_and_come_back_when_idle() {
    let program = "!!NVgp4.0\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.position, vertex[0].attrib[16];\nEMIT;\nEND\n";
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    // Opening lowers at once.
    let diags = client.open(program);
    assert_eq!(codes_and_lines(&diags), [("E0900".to_string(), 4)]);

    // A line inserted above: the check's publication keeps the finding,
    // one line further down; the lowering when idle confirms it.
    client.edit(2, 4, 0, 0, "# the position from an attribute\n");
    assert_eq!(
        codes_and_lines(&client.diagnostics()),
        [("E0900".to_string(), 5)]
    );
    assert_eq!(
        codes_and_lines(&client.diagnostics()),
        [("E0900".to_string(), 5)]
    );
    // The edit moved the hover too: the binding is on line 5 now.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": 5, "character": 25}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("**vertex[0].attrib[16]**"), "{text}");

    // Fixed (the vertex position instead): the edit touched the finding,
    // so it goes, and the lowering finds nothing.
    let column = "MOV result.position, ".len();
    client.edit(3, 5, column, column + 20, "vertex[0].position");
    assert_eq!(client.diagnostics(), Vec::<Value>::new());
    assert_eq!(client.diagnostics(), Vec::<Value>::new());

    // Broken again, with no save: the check sees nothing wrong, the
    // lowering when idle finds it.
    client.edit(4, 5, column, column + 18, "vertex[0].attrib[16]");
    assert_eq!(client.diagnostics(), Vec::<Value>::new());
    assert_eq!(
        codes_and_lines(&client.diagnostics()),
        [("E0900".to_string(), 5)]
    );

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert!(client.child.wait().unwrap().success());
}

/// The parser cannot recover from `OPTION ;` (nothing to skip to before
/// the option sequence ends), but the index reads each statement on its
/// own: hover, definition and references work in the rest of the file.
#[test]
fn an_unreadable_statement_does_not_stop_the_index() {
    let program = "!!NVfp4.0\nOPTION ;\nTEMP color;\nMOV color, fragment.color;\nMOV result.color, color;\nEND\n";
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    let diags = client.open(program);
    assert_eq!(diags[0]["code"], "E0100", "{diags:#?}");
    let hover = client.hover_text(program, "color;\nEND", 1);
    assert!(hover.contains("TEMP color;"), "{hover}");
    let refs = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": URI}, "position": {"line": 2, "character": 6}, "context": {"includeDeclaration": true}}),
    );
    assert_eq!(refs.as_array().unwrap().len(), 3, "{refs}");
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert!(client.child.wait().unwrap().success());
}

/// The ARB family and its NV options: completion offers the dialect's
/// opcodes and declarations, hovers explain every option, `ADDRESS`
/// registers, NV_fragment_program2's loop index `A0`, and the bindings of
/// the dialect (and say which are not).
#[test]
fn arb_programs_get_completion_and_hovers_of_their_dialect() {
    let vp = "!!ARBvp1.0\nOPTION NV_vertex_program2;\nADDRESS A0;\nPARAM c[4] = { program.env[0..3] };\nARL A0.x, vertex.attrib[1].x;\nMOV result.position, c[A0.x + 1];\nMOV result.color, vertex.id;\n\nEND\n";
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    client.open(vp);
    // Opcodes: NV_vertex_program2's BRA and ARA, no fragment opcode, no
    // NV_gpu_program4-only one; declarations: ADDRESS, no INT.
    let blank = at_in(vp, "\n\nEND", 1);
    let items = client.request("textDocument/completion", blank.clone());
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for wanted in ["ARL", "ARA", "BRA", "DP4", "ADDRESS", "PARAM", "END"] {
        assert!(labels.contains(&wanted), "{wanted} in {labels:?}");
    }
    for unwanted in ["KIL", "TEX", "LOOP", "INT", "FLAT", "I2F", "EMIT"] {
        assert!(!labels.contains(&unwanted), "{unwanted} in {labels:?}");
    }
    // The address register and its use.
    let hover = client.hover_text(vp, "A0.x + 1", 0);
    assert!(hover.contains("ADDRESS A0;"), "{hover}");
    assert!(hover.contains("**A0** — address register"), "{hover}");
    // The option.
    let hover = client.hover_text(vp, "NV_vertex_program2", 3);
    assert!(
        hover.contains("**OPTION NV_vertex_program2** — branches"),
        "{hover}"
    );
    assert!(hover.contains("Spec: NV_vertex_program2_option"), "{hover}");
    // `vertex.id` is NV_vertex_program4's, not this dialect's.
    let hover = client.hover_text(vp, "vertex.id", 8);
    assert!(
        hover.contains("not a binding of a vertex program"),
        "{hover}"
    );
    // The ARB opcode.
    let hover = client.hover_text(vp, "ARL", 1);
    assert!(hover.starts_with("**ARL**"), "{hover}");

    // Every option of the table gets its summary and spec, on every header.
    for o in nvp4c::isa::OPTIONS {
        for header in nvp4c::isa::Header::ALL {
            let text = format!("{header}\nOPTION {};\nEND\n", o.name);
            client.notify(
                "textDocument/didOpen",
                json!({"textDocument": {"uri": URI, "languageId": "nvasm", "version": 1, "text": text}}),
            );
            let hover = client.hover_text(&text, o.name, 2);
            assert!(hover.contains(o.summary), "{}: {hover}", o.name);
            assert!(hover.contains(o.spec), "{}: {hover}", o.name);
            assert_eq!(
                hover.contains("Not an option of"),
                !o.headers.contains(&header),
                "{} in {header}: {hover}",
                o.name
            );
        }
    }

    // NV_fragment_program2: LOOP, the predefined loop index A0, and
    // fragment.facing (not in plain ARB_fragment_program).
    let fp = "!!ARBfp1.0\nOPTION NV_fragment_program2;\nPARAM c[4] = { program.local[0..3] };\nTEMP r;\nLOOP {3, 0, 1};\nADD r, r, c[A0.x];\nENDLOOP;\nMUL r, r, fragment.facing.x;\nMOV result.color, r;\nEND\n";
    client.open(fp);
    let hover = client.hover_text(fp, "A0.x]", 0);
    assert!(hover.starts_with("**A0** — the loop index"), "{hover}");
    let hover = client.hover_text(fp, "fragment.facing", 10);
    assert!(hover.contains("**fragment.facing** — facing"), "{hover}");
    assert!(
        hover.contains("for `!!ARBfp1.0`: ARB_fragment_program section 3.11.3"),
        "{hover}"
    );
    let items = client.request("textDocument/completion", at_in(fp, "fragment.facing", 9));
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"facing") && !labels.contains(&"attrib"),
        "{labels:?}"
    );
    let items = client.request("textDocument/completion", at_in(fp, "ADD r", 3));
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for wanted in ["ADDH", "ADDX", "ADDC", "ADDRC_SAT", "ADD_SSAT"] {
        assert!(labels.contains(&wanted), "{wanted} in {labels:?}");
    }
    assert!(!labels.iter().any(|l| l.contains("C1")), "{labels:?}");

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert!(client.child.wait().unwrap().success());
}

/// A parameter buffer range, `program.buffer[a..b]` (NV_gpu_program5
/// 2.X.3.6), is a uniform block per binding point (docs/interface.md,
/// "Ranges of parameter buffers"): the hover names each, at binding 3 + b.
#[test]
fn hover_on_a_parameter_buffer_range_names_each_binding_points_block() {
    const RANGE: &str = "!!NVfp5.0
BUFFER4 b[] = { program.buffer[1..2] };
INT TEMP i;
MOV.S i, 1;
MOV result.color, b[i.x][0];
END
";
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    assert_eq!(client.open(RANGE), Vec::<Value>::new());
    let text = client.hover_text(RANGE, "program.buffer", 3);
    for (b, binding) in [(1, 4), (2, 5)] {
        assert!(
            text.contains(&format!(
                "`program.buffer[{b}]` → uniform block `ProgramBuffer` (set 2, binding {binding})"
            )),
            "{text}"
        );
    }
}

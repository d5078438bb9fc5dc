//! `nvp4c lsp`: the language server over standard input/output, driven by
//! a scripted JSON-RPC session (initialize, didOpen, hover, definition,
//! documentSymbol, codeAction, didChange, shutdown, exit).

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
    assert_eq!(caps["textDocumentSync"], 1, "full synchronisation");
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
    client.send(json!({"jsonrpc": "2.0", "id": 99, "method": "textDocument/rename", "params": {}}));
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

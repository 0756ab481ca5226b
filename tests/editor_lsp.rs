//! `forex lsp` end to end: the real binary driven over stdio with JSON-RPC messages
//! framed by `Content-Length` headers, as an editor does.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Guards against a hung server only; no test outcome depends on timing.
const PATIENCE: Duration = Duration::from_secs(120);

struct Client {
    child: Child,
    stdin: ChildStdin,
    inbox: mpsc::Receiver<Value>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_forex"))
            .args(["lsp", "--timeout", "30"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start forex lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, inbox) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if tx.send(message).is_err() {
                    return;
                }
            }
        });
        Client { child, stdin, inbox }
    }

    fn send(&mut self, message: Value) {
        let body = serde_json::to_string(&message).unwrap();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its response's `result`.
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let response = self.wait(|m| m["id"] == json!(id));
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    /// The next message satisfying `want` (others are skipped).
    fn wait(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.inbox.recv_timeout(PATIENCE).expect("the server answers");
            if want(&m) {
                return m;
            }
        }
    }

    /// The next diagnostics published for `uri` that satisfy `want`.
    fn diagnostics(&mut self, uri: &str, want: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let m = self.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && want(m["params"]["diagnostics"].as_array().unwrap())
        });
        m["params"]["diagnostics"].as_array().unwrap().clone()
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
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

const BROKEN: &str = "program p {\n  int h, l;\n  l = l + 1;\n}\n\ntuple ni {\n  forall a: p, b: p;\n  pre a.l == b.l;\n  post a.l == b.zz;\n}\n";

const FIXED: &str = "program p {\n  int h, l;\n  l = l + 1;\n}\n\ntuple ni {\n  forall a: p, b: p;\n  pre a.l == b.l;\n  post a.l == b.l;\n}\n\ntuple leak {\n  forall a: p, b: p;\n  pre a.l == b.l;\n  post a.h == b.h;\n}\n";

fn range(line: u32, from: u32, to: u32) -> Value {
    json!({"start": {"line": line, "character": from}, "end": {"line": line, "character": to}})
}

#[test]
fn session_diagnostics_verdicts_and_navigation() {
    let uri = "file:///tmp/forex-lsp-test/ni.fe";
    let mut c = Client::start();
    let init = c.request(1, "initialize", json!({"capabilities": {}, "processId": null}));
    assert_eq!(init["capabilities"]["hoverProvider"], true);
    c.notify("initialized", json!({}));

    // An input error is published at its span (`zz`, line 9 col 17 → 0-based 8:16..18).
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "forex", "version": 1, "text": BROKEN}}),
    );
    let diags = c.diagnostics(uri, |_| true);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["range"], range(8, 16, 18));
    assert_eq!(diags[0]["severity"], 1);
    assert!(diags[0]["message"].as_str().unwrap().contains("has no variable `zz`"));

    // The fix clears it.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": FIXED}]}),
    );
    assert!(c.diagnostics(uri, |_| true).is_empty());

    // Navigation on the fixed text: `b.l` in the post of `ni` (line 8).
    let at = json!({"textDocument": {"uri": uri}, "position": {"line": 8, "character": 14}});
    let hover = c.request(2, "textDocument/hover", at.clone());
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("`b.l`: `int`"), "{text}");
    let def = c.request(3, "textDocument/definition", at);
    assert_eq!(def["range"], range(1, 9, 10), "the declaration of `l`");
    let symbols =
        c.request(4, "textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let names: Vec<&str> =
        symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["p", "ni", "leak"]);

    // Saving publishes one verdict per tuple, on the tuple's name.
    c.notify("textDocument/didSave", json!({"textDocument": {"uri": uri}}));
    let verdicts = c.diagnostics(uri, |d| d.len() == 2);
    let ni = &verdicts[0];
    assert_eq!(ni["code"], "verified");
    assert_eq!(ni["severity"], 3);
    assert_eq!(ni["range"], range(5, 6, 8));
    assert!(ni["message"].as_str().unwrap().starts_with("✓ `ni` verified in"));
    let leak = &verdicts[1];
    assert_eq!(leak["code"], "violated");
    assert_eq!(leak["severity"], 1);
    assert_eq!(leak["range"], range(11, 6, 10));
    assert!(leak["message"].as_str().unwrap().contains("∀ a: h="), "{leak}");

    let shutdown = c.request(5, "shutdown", Value::Null);
    assert!(shutdown.is_null());
    c.notify("exit", Value::Null);
    let status = c.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

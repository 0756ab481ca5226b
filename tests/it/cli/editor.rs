//! The editor branch's end-to-end tests: `forex lsp` over stdio, CI report formats,
//! sharding.
//!
//! `forex lsp`: the real binary driven over stdio with JSON-RPC messages
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

mod reports {
    //! CI reports end to end: `--format sarif` (validated structurally, and by Microsoft's
    //! SARIF validator when `npx` can install it) and `--format github` annotations.

    use assert_cmd::Command;
    use forex::report::sarif::Log;

    fn forex() -> Command {
        Command::cargo_bin("forex").unwrap()
    }

    /// One violated and one verified tuple.
    const FILES: [&str; 2] = ["examples/ni_leak.fe", "examples/ni.fe"];

    fn sarif_text() -> String {
        let out = forex()
            .args(["prove", "--format", "sarif", "--timeout", "30"])
            .args(FILES)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn sarif_has_one_result_per_violated_tuple_at_its_location() {
        let log: Log = serde_json::from_str(&sarif_text()).expect("SARIF deserialises");
        assert_eq!(log.version, "2.1.0");
        assert_eq!(log.runs.len(), 1);
        let results = &log.runs[0].results;
        assert_eq!(results.len(), 1, "only the violated tuple: {results:?}");
        let r = &results[0];
        assert_eq!((r.rule_id.as_str(), r.level.as_str()), ("violated", "error"));
        let at = &r.locations[0].physical_location;
        assert_eq!(at.artifact_location.uri, "examples/ni_leak.fe");
        let region = at.region.as_ref().expect("a region");
        assert!(region.start_line > 1, "the tuple's line, after the program");
        assert!(r.message.text.contains("is violated"), "{}", r.message.text);
    }

    #[test]
    fn sarif_passes_the_microsoft_validator() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("forex.sarif");
        std::fs::write(&path, sarif_text()).unwrap();
        let run = std::process::Command::new("npx")
            .args(["-y", "@microsoft/sarif-multitool", "validate"])
            .arg(&path)
            .output();
        let out = match run {
            Ok(out) if out.status.success() => out,
            other => {
                println!(
                    "note: skipped: npx or @microsoft/sarif-multitool is unavailable ({other:?})"
                );
                return;
            }
        };
        // The validator exits 0 even on errors: read what it prints.
        let text = String::from_utf8_lossy(&out.stdout);
        let errors: Vec<&str> = text.lines().filter(|l| l.contains(": error ")).collect();
        assert!(errors.is_empty(), "validator errors:\n{text}");
    }

    #[test]
    fn github_format_prints_workflow_annotations() {
        let out = forex()
            .args(["prove", "--format", "github", "--timeout", "30"])
            .args(FILES)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].starts_with("::error file=examples/ni_leak.fe,line="), "{text}");
        assert!(lines[0].contains(",title=forex%3A "), "{text}");
        assert!(lines[0].contains("::tuple `"), "{text}");
        assert_eq!(lines[1], "forex: 1 verified, 1 violated, 0 unknown, 0 error");
    }
}

mod shard {
    use assert_cmd::Command;
    use serde_json::Value;
    use std::collections::BTreeSet;

    fn forex() -> Command {
        Command::cargo_bin("forex").unwrap()
    }

    /// A folder of a few quick tuples (files copied from examples/, with subfolders).
    fn suite() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sub")).unwrap();
        for (from, to) in [
            ("examples/ni.fe", "ni.fe"),
            ("examples/ni_leak.fe", "sub/ni_leak.fe"),
            ("examples/gni.fe", "gni.fe"),
            ("examples/three_copies.fe", "sub/three.fe"),
        ] {
            std::fs::copy(from, dir.path().join(to)).unwrap();
        }
        std::fs::write(dir.path().join("bad.fe"), "program p { int x; x = y; }\n").unwrap();
        dir
    }

    fn results(json: &[u8]) -> BTreeSet<(String, String, String)> {
        let v: Value = serde_json::from_slice(json).unwrap();
        let row = |r: &Value| {
            let s = |k: &str| r[k].as_str().unwrap_or("").to_string();
            (s("file"), s("tuple"), s("verdict"))
        };
        v["results"].as_array().unwrap().iter().map(row).collect()
    }

    #[test]
    fn two_shards_merged_equal_the_unsharded_run() {
        let dir = suite();
        let path = dir.path().to_str().unwrap();
        let run = |extra: &[&str]| {
            let out = forex()
                .args(["prove", "--format", "json", "--timeout", "30", "--jobs", "1"])
                .args(extra)
                .arg(path)
                .output()
                .unwrap();
            out.stdout
        };
        let all = run(&[]);
        let (one, two) = (run(&["--shard", "1/2"]), run(&["--shard", "2/2"]));
        let (r1, r2) = (results(&one), results(&two));
        assert!(r1.is_disjoint(&r2), "{r1:?} {r2:?}");
        let union: BTreeSet<_> = r1.union(&r2).cloned().collect();
        assert_eq!(union, results(&all));
        assert!(union.len() >= 5, "{union:?}");

        let (a, b) = (dir.path().join("1.json"), dir.path().join("2.json"));
        std::fs::write(&a, &one).unwrap();
        std::fs::write(&b, &two).unwrap();
        let merged = forex().args(["report", "merge"]).arg(&a).arg(&b).output().unwrap();
        assert_eq!(merged.status.code(), Some(3), "the bad file's error is the worst verdict");
        assert_eq!(results(&merged.stdout), results(&all));
        let v: Value = serde_json::from_slice(&merged.stdout).unwrap();
        let u: Value = serde_json::from_slice(&all).unwrap();
        for k in ["verified", "violated", "unknown", "error"] {
            assert_eq!(v["summary"][k], u["summary"][k], "{k}");
        }
    }

    #[test]
    fn bad_shard_is_a_usage_error() {
        forex().args(["prove", "--shard", "3/2", "examples/ni.fe"]).assert().code(3);
    }
}

mod defects {
    use assert_cmd::Command;

    fn forex() -> Command {
        Command::cargo_bin("forex").unwrap()
    }

    /// Runs `forex args…` with stdout on a pipe whose reader is already gone.
    fn exit_code_on_closed_pipe(args: &[&str]) -> Option<i32> {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        std::process::Command::new(env!("CARGO_BIN_EXE_forex"))
            .args(args)
            .stdout(writer)
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
            .code()
    }

    #[test]
    fn closed_pipe_is_not_a_panic() {
        assert_eq!(
            exit_code_on_closed_pipe(&["check", "examples/ni.fe", "examples/gni.fe"]),
            Some(0)
        );
        let run = ["run", "examples/gni.fe", "--program", "pad", "--set", "h=1", "--choices", "7"];
        assert_eq!(exit_code_on_closed_pipe(&run), Some(0));
    }

    #[test]
    fn run_help_example_names_a_real_program() {
        let help = forex().args(["run", "--help"]).output().unwrap();
        let text = String::from_utf8(help.stdout).unwrap();
        let example = text.lines().find(|l| l.contains("forex run examples/")).expect("an example");
        let args: Vec<&str> =
            example.split_whitespace().skip_while(|w| *w != "forex").skip(1).collect();
        forex().args(&args).assert().success();
    }

    #[test]
    fn check_accepts_folders() {
        let out = forex().args(["check", "examples"]).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.lines().count() >= 10, "{text}");
        assert!(text.contains("ni_leak.fe: ok"), "{text}");
    }
}

mod bit_vectors {
    use assert_cmd::Command;

    #[test]
    fn bit_vector_counterexample_replays_from_the_json_report() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("bv.json");
        Command::cargo_bin("forex")
            .unwrap()
            .args(["prove", "--format", "json", "--timeout", "30", "--output"])
            .arg(&report)
            .arg("examples/bv_leak.fe")
            .assert()
            .code(1);
        let text = std::fs::read_to_string(&report).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let h = &v["results"][0]["counterexample"]["copies"][0]["initial"]["h"];
        assert!(h["value"].is_string(), "bit-vector values are strings: {h}");
        let out = Command::cargo_bin("forex")
            .unwrap()
            .args(["run", "--replay"])
            .arg(&report)
            .arg("examples/bv_leak.fe")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("confirmed:"), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    }
}

mod output_path {
    use assert_cmd::Command;

    #[test]
    fn unwritable_output_fails_before_proving() {
        let dir = tempfile::tempdir().unwrap();
        let smt = dir.path().join("smt");
        let out = Command::cargo_bin("forex")
            .unwrap()
            .args(["prove", "--output"])
            .arg(dir.path().join("no/such/folder/report.json"))
            .arg("--dump-smt")
            .arg(&smt)
            .arg("examples/ni.fe")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3));
        assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
        // Nothing was proved: no SMT query was dumped.
        let dumped = std::fs::read_dir(&smt).map_or(0, |d| d.count());
        assert_eq!(dumped, 0);
    }
}

/// After a save, hovering a verified tuple's name shows the ∃ strategy its proof found.
#[test]
fn hover_on_a_verified_tuple_shows_its_strategy() {
    let uri = "file:///tmp/forex-lsp-test/gni.fe";
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/gni.fe")).unwrap();
    let (line, col) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("tuple gni").map(|c| (i as u32, c as u32 + 6)))
        .expect("the tuple's line");
    let mut c = Client::start();
    c.request(1, "initialize", json!({"capabilities": {}, "processId": null}));
    c.notify("initialized", json!({}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "forex", "version": 1, "text": text}}),
    );
    c.notify("textDocument/didSave", json!({"textDocument": {"uri": uri}}));
    let verdicts = c.diagnostics(uri, |d| d.len() == 1);
    assert_eq!(verdicts[0]["code"], "verified");
    let at =
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": col + 1}});
    let hover = c.request(2, "textDocument/hover", at);
    let md = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(md.contains("the ∃ side chooses") && md.contains("`c.r := "), "{hover}");
    c.request(3, "shutdown", Value::Null);
    c.notify("exit", Value::Null);
    c.child.wait().unwrap();
}

//! The MCP server as Claude Code runs it: `cg mcp` as a child process, JSON-RPC
//! lines on its stdin and stdout.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
}

impl Client {
    fn start(dir: &Path) -> Client {
        Client::start_with(dir, &[])
    }

    fn start_with(dir: &Path, args: &[&std::ffi::OsStr]) -> Client {
        Client::start_env(dir, args, &[])
    }

    fn start_env(dir: &Path, args: &[&std::ffi::OsStr], env: &[(&str, &str)]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cg"))
            .args(["mcp", "--project"])
            .arg(dir)
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut c = Client { child, stdin: Some(stdin), lines, next_id: 0 };
        let init = c.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "codegraph", "{init}");
        c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        c
    }

    fn send(&mut self, v: Value) {
        self.raw(format!("{v}\n").as_bytes());
    }

    fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a request and returns its response (skipping notifications).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.request_with_notifications(method, params).0
    }

    /// Sends a request; returns its response and the notifications before it.
    fn request_with_notifications(&mut self, method: &str, params: Value) -> (Value, Vec<Value>) {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut notes = Vec::new();
        loop {
            let line = self.lines.recv_timeout(Duration::from_secs(60)).expect("a response within 60 s");
            let v: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout is not JSON-RPC ({e}): {line}"));
            if v["id"] == id {
                return (v, notes);
            }
            notes.push(v);
        }
    }

    /// Calls a tool; returns (is_error, text).
    fn call(&mut self, name: &str, args: Value) -> (bool, String) {
        let r = self.request("tools/call", json!({"name": name, "arguments": args}));
        if r.get("error").is_some() {
            return (true, r["error"]["message"].as_str().unwrap_or("").to_string());
        }
        let text = r["result"]["content"][0]["text"].as_str().unwrap_or("").to_string();
        (r["result"]["isError"] == true, text)
    }

    fn call_json(&mut self, name: &str, args: Value) -> Value {
        let (err, text) = self.call(name, args.clone());
        assert!(!err, "{name} {args}: {text}");
        serde_json::from_str(&text).unwrap()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Source files under `fixtures/extract/` (one or two per language).
const FIXTURE_FILES: u64 = 15;

fn fixture_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/extract");
    for lang in fs::read_dir(&src).unwrap().flatten() {
        for file in fs::read_dir(lang.path()).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().to_string();
            if !name.ends_with(".golden") {
                let to = dir.path().join(lang.file_name()).join(name);
                fs::create_dir_all(to.parent().unwrap()).unwrap();
                fs::copy(file.path(), to).unwrap();
            }
        }
    }
    fs::write(dir.path().join("CLAUDE.md"), "# Rules\nQuery first.\n").unwrap();
    dir
}

#[test]
fn every_tool_answers_on_a_fixture_project() {
    let dir = fixture_project();
    let p = dir.path();
    let other = tempfile::tempdir().unwrap();
    let mut c = Client::start_with(p, &["--allow".as_ref(), other.path().as_os_str()]);

    let tools = c.request("tools/list", json!({}));
    let list = tools["result"]["tools"].as_array().unwrap();
    let mut names: Vec<&str> = list.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "codegraph_callees",
            "codegraph_callers",
            "codegraph_context",
            "codegraph_describe",
            "codegraph_docs",
            "codegraph_graph",
            "codegraph_hierarchy",
            "codegraph_impact",
            "codegraph_imports",
            "codegraph_init",
            "codegraph_link",
            "codegraph_links",
            "codegraph_query",
            "codegraph_refs",
            "codegraph_remove",
            "codegraph_scan",
            "codegraph_search",
            "codegraph_signature",
            "codegraph_signatures",
            "codegraph_snippet",
            "codegraph_status",
            "codegraph_summary",
            "codegraph_symbol",
            "codegraph_sync_git",
            "codegraph_tree",
            "codegraph_unlink",
            "codegraph_update",
            "codegraph_update_batch",
            "codegraph_update_docs",
        ]
    );
    for t in list {
        assert!(t["description"].as_str().unwrap().len() > 40, "{t}");
        assert_eq!(t["inputSchema"]["type"], "object", "{t}");
    }

    // Before init: a clear message, except for init and scan.
    let (err, text) = c.call("codegraph_query", json!({"term": "Player"}));
    assert!(err && text.contains("call codegraph_init"), "{text}");
    assert!(!c.call("codegraph_scan", json!({})).0);

    let (init, notes) = c.request_with_notifications(
        "tools/call",
        json!({"name": "codegraph_init", "arguments": {}, "_meta": {"progressToken": "init-1"}}),
    );
    let init: Value = serde_json::from_str(init["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(init["files_indexed"], FIXTURE_FILES);
    let progress: Vec<&Value> = notes.iter().filter(|n| n["method"] == "notifications/progress").collect();
    assert!(!progress.is_empty(), "no progress notification: {notes:?}");
    assert_eq!(progress[0]["params"]["progressToken"], "init-1");
    assert_eq!(progress[0]["params"]["total"], FIXTURE_FILES as f64);

    let q = c.call_json("codegraph_query", json!({"term": "player", "limit": 2}));
    assert_eq!(q["truncated"], true);
    assert!(q["total_matches"].as_u64().unwrap() > 2);
    assert_eq!(q["files"][0]["file"], "typescript/player.ts");
    assert_eq!(q["files"][0]["matches"][0]["type"], "struct");

    let s = c.call_json("codegraph_signature", json!({"file": "rust/shapes.rs"}));
    assert_eq!(s["types"][0]["name"], "Point");
    // Regression: fields at their default were repeated on every item.
    let text = s.to_string();
    for default in ["\"is_static\":false", "\"is_async\":false", "\"parent\":null", "\"visibility\":null", ":[]"] {
        assert!(!text.contains(default), "{default} in {text}");
    }
    let snip = c.call_json("codegraph_snippet", json!({"file": "rust/shapes.rs", "start": 8, "end": 11}));
    assert_eq!(
        snip,
        json!({"file": "rust/shapes.rs", "start": 8, "end": 11, "text": "pub struct Point {\n    pub x: f64,\n    y: f64,\n}\n"})
    );
    let card = c.call_json("codegraph_symbol", json!({"symbol": "Point"}));
    assert_eq!((card["symbol"]["file"].as_str(), card["code"]["start"].as_u64()), (Some("rust/shapes.rs"), Some(8)));
    let found = c.call_json("codegraph_search", json!({"query": "id generator", "limit": 3}));
    assert_eq!(found["subwords"], json!(["id", "generator"]));
    let top = &found["results"][0];
    assert_eq!(
        (top["name"].as_str(), top["file"].as_str(), top["line"].as_u64()),
        (Some("idGenerator"), Some("typescript/player.ts"), Some(48))
    );
    assert!(top["text"].as_str().unwrap().starts_with("export function* idGenerator()"), "{top}");
    let (err, text) = c.call("codegraph_search", json!({"query": " - "}));
    assert!(err && text.contains("empty query"), "{text}");
    // As a symbol picker: an abbreviation finds the name the words do not.
    let picked = c.call_json("codegraph_search", json!({"query": "idGen", "names": true, "limit": 3}));
    assert_eq!(picked["results"][0]["name"], "idGenerator", "{picked}");
    let (err, text) = c.call("codegraph_search", json!({"query": "idGen", "names": true, "files": true}));
    assert!(err && text.contains("names"), "{text}");
    // Every tool takes max_tokens: its longest lists are cut to fit, marked.
    let full = c.call_json("codegraph_tree", json!({"depth": 0}));
    let cut = c.call_json("codegraph_tree", json!({"depth": 0, "max_tokens": 60}));
    assert!(full.to_string().len() > 240 && full["truncated"] == false, "{full}");
    assert!(cut.to_string().len() <= 240 && cut["truncated"] == true, "{cut}");
    assert!(c.call_json("codegraph_status", json!({"max_tokens": 5000}))["statistics"]["files"].as_u64().is_some());
    // Not a git repository: said, with what to use instead.
    let (err, text) = c.call("codegraph_sync_git", json!({}));
    assert!(err && text.contains("not in a git repository") && text.contains("cg update"), "{text}");
    let n = c.call_json("codegraph_graph", json!({"seed": "rust/shapes.rs", "relations": ["imports"]}));
    assert_eq!(n["nodes"][0]["name"], "rust/shapes.rs", "{n}");
    let (err, text) = c.call("codegraph_graph", json!({"seed": "Point", "relations": ["friends"]}));
    assert!(err && text.contains("unknown relation"), "{text}");
    let bundle = c.call_json("codegraph_context", json!({"task": "fix idGenerator", "budget": 2000}));
    assert_eq!(bundle["snippets"][0]["path"], "typescript/player.ts", "{bundle}");
    assert_eq!(bundle["focus"][0]["qualified_name"], "player.idGenerator", "{bundle}");
    assert!(bundle["limits"]["used_estimate"].as_u64().unwrap() <= 2000);
    let (err, text) = c.call("codegraph_context", json!({"task": "x", "hints": ["../outside.rs"]}));
    assert!(err && text.contains("outside the project"), "{text}");
    let sub = c.call_json("codegraph_query", json!({"term": "generator", "mode": "subword"}));
    assert_eq!(sub["files"][0]["file"], "typescript/player.ts", "{sub}");
    let many = c.call_json("codegraph_signatures", json!({"path": "typescript", "limit": 1}));
    assert_eq!((many["signatures"].as_array().unwrap().len(), many["omitted"].as_u64()), (1, Some(1)));
    assert_eq!(
        c.call_json("codegraph_describe", json!({"section": "purpose", "content": "Fixtures."}))["success"],
        true
    );
    let sum = c.call_json("codegraph_summary", json!({}));
    assert!(sum["content"].as_str().unwrap().contains("Fixtures."));
    let tree = c.call_json("codegraph_tree", json!({"depth": 1, "include_stats": true}));
    assert_eq!((tree["entries"][0]["name"].as_str(), tree["entries"][0]["files"].as_u64()), (Some("c"), Some(2)));
    assert!(tree["entries"][0].get("path").is_none(), "names, not repeated paths: {tree}");
    let status = c.call_json("codegraph_status", json!({}));
    assert_eq!(status["statistics"]["files"], FIXTURE_FILES);
    assert!(c.call_json("codegraph_docs", json!({}))["content"].as_str().unwrap().contains("Query first."));
    assert_eq!(c.call_json("codegraph_update_docs", json!({}))["imported"][0], "CLAUDE.md");
    assert_eq!(c.call_json("codegraph_links", json!({}))["links"], json!([]));
    // Updates through the server, seen by its next query without a restart.
    assert_eq!(c.call_json("codegraph_query", json!({"term": "brand_new_fn"}))["total_matches"], 0);
    fs::write(p.join("rust/added.rs"), "// top\npub fn brand_new_fn() {}\n").unwrap();
    let up = c.call_json("codegraph_update", json!({"file": "rust/added.rs", "from_line": 1, "to_line": 2}));
    assert_eq!(
        (up["success"].clone(), up["file"].clone(), up["added"].clone()),
        (json!(true), json!("rust/added.rs"), json!(["rust/added.rs"]))
    );
    assert_eq!(up["lines_updated"], 2);
    let q = c.call_json("codegraph_query", json!({"term": "brand_new_fn"}));
    assert_eq!(q["files"][0]["matches"][0]["line"], 2, "{q}");
    assert_eq!(q["generation"], up["generation"]);
    fs::write(p.join("rust/added.rs"), "pub fn brand_new_fn() {}\n").unwrap();
    fs::write(p.join("rust/second.rs"), "fn brand_new_fn_caller() { brand_new_fn() }\n").unwrap();
    let batch = c.call_json(
        "codegraph_update_batch",
        json!({"files": [{"file": "rust/added.rs"}, {"file": "rust/second.rs", "from_line": 1, "to_line": 1}]}),
    );
    assert_eq!(
        (batch["updated"].clone(), batch["added"].clone()),
        (json!(["rust/added.rs"]), json!(["rust/second.rs"]))
    );
    let q = c.call_json("codegraph_query", json!({"term": "brand_new_fn"}));
    assert_eq!(q["total_matches"], 2, "{q}");
    assert_eq!(q["files"][0]["matches"][0]["line"], 1, "line numbers follow the edit: {q}");
    // A batch naming a missing file changes nothing.
    let (err, text) =
        c.call("codegraph_update_batch", json!({"files": [{"file": "rust/second.rs"}, {"file": "rust/nope.rs"}]}));
    assert!(err && text.contains("does not exist"), "{text}");
    let (err, text) = c.call("codegraph_update", json!({"file": "../outside.rs"}));
    assert!(err && text.contains("outside the project"), "{text}");
    let rm = c.call_json("codegraph_remove", json!({"file": "rust/second.rs"}));
    assert_eq!(rm["removed"], json!(["rust/second.rs"]));
    assert_eq!(c.call_json("codegraph_query", json!({"term": "brand_new_fn"}))["total_matches"], 1);
    let (err, text) = c.call("codegraph_remove", json!({"file": "rust/second.rs"}));
    assert!(err && text.contains("not in the index"), "{text}");
    // An edit not yet applied is flagged in answers.
    fs::write(p.join("rust/added.rs"), "\n\npub fn brand_new_fn() {}\n").unwrap();
    let q = c.call_json("codegraph_query", json!({"term": "brand_new_fn"}));
    assert_eq!(q["changed_since_indexed"], json!(["rust/added.rs"]), "{q}");
    c.call_json("codegraph_update", json!({"file": "rust/added.rs"}));
    fs::remove_file(p.join("rust/added.rs")).unwrap();
    fs::remove_file(p.join("rust/second.rs")).unwrap();
    let gone = c.call_json("codegraph_update", json!({"file": "rust/added.rs"}));
    assert_eq!(gone["removed"], json!(["rust/added.rs"]));

    // Links across two projects (the other one allowed with --allow).
    fs::write(other.path().join("lib.go"), "package lib\nfunc PlayerFactory() {}\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cg")).arg("init").current_dir(other.path()).output().unwrap();
    assert!(out.status.success());
    let l = c.call_json("codegraph_link", json!({"path": other.path(), "name": "lib"}));
    assert_eq!(l["files_available"], 1);
    let q = c.call_json("codegraph_query", json!({"term": "PlayerFactory", "include_dependencies": true}));
    assert_eq!(q["files"][0]["project"], "lib");
    assert_eq!(c.call_json("codegraph_unlink", json!({"name": "lib"}))["success"], true);
}

#[test]
fn bad_input_gets_an_error_the_agent_can_act_on_and_the_server_keeps_going() {
    let dir = fixture_project();
    let out = Command::new(env!("CARGO_BIN_EXE_cg")).arg("init").current_dir(dir.path()).output().unwrap();
    assert!(out.status.success());
    let mut c = Client::start(dir.path());
    let cases = [
        ("codegraph_query", json!({}), "term"),
        ("codegraph_query", json!({"term": "x", "bogus": 1}), "unknown field"),
        ("codegraph_query", json!({"term": "(", "mode": "regex"}), "invalid regex"),
        ("codegraph_query", json!({"term": "x", "mode": "fuzzy"}), "unknown mode"),
        ("codegraph_query", json!({"term": "x", "type_filter": ["klass"]}), "unknown line type"),
        ("codegraph_query", json!({"term": "   "}), "empty search term"),
        ("codegraph_signature", json!({"file": "../outside.rs"}), "outside the project"),
        ("codegraph_signature", json!({"file": "/etc/passwd"}), "outside the project"),
        ("codegraph_signature", json!({"file": "nope.rs"}), "not in the index"),
        ("codegraph_signatures", json!({"path": "../**"}), "outside the project"),
        ("codegraph_snippet", json!({"file": "../outside.rs", "start": 1}), "outside the project"),
        ("codegraph_snippet", json!({"file": "/etc/passwd", "start": 1}), "outside the project"),
        ("codegraph_snippet", json!({"file": "nope.rs", "start": 1}), "not an indexed file"),
        ("codegraph_snippet", json!({"file": "rust/shapes.rs", "start": 100000}), "past the end"),
        ("codegraph_describe", json!({"section": "mood", "content": "x"}), "unknown summary section"),
        ("codegraph_link", json!({"path": "/nonexistent/project"}), "does not exist"),
        // Regression: init, link and scan took any path on the machine.
        ("codegraph_init", json!({"path": "/tmp"}), "outside the project"),
        ("codegraph_init", json!({"path": ".."}), "outside the project"),
        ("codegraph_init", json!({"path": ""}), "empty path"),
        ("codegraph_scan", json!({"path": "/"}), "outside the project"),
        // Regression: an empty file ran a full rescan; a reversed range was taken.
        ("codegraph_update", json!({"file": ""}), "empty file"),
        ("codegraph_update_batch", json!({"files": [{"file": " "}]}), "empty file"),
        ("codegraph_update", json!({"file": "a.rs", "from_line": 10, "to_line": 5}), "not a range"),
        ("codegraph_link", json!({"path": "/tmp"}), "--allow"),
        ("codegraph_nonexistent", json!({}), "tool"),
    ];
    for (tool, args, message) in cases {
        let (err, text) = c.call(tool, args.clone());
        assert!(err, "{tool} {args} succeeded: {text}");
        assert!(text.to_lowercase().contains(message), "{tool} {args}: {text}");
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc", dir.path().join("escape")).unwrap();
        let (err, text) = c.call("codegraph_signature", json!({"file": "escape/passwd"}));
        assert!(err && text.contains("outside the project"), "{text}");
        for tool in ["codegraph_init", "codegraph_scan", "codegraph_link"] {
            let (err, text) = c.call(tool, json!({"path": "escape"}));
            assert!(err && text.contains("outside the project"), "{tool}: {text}");
        }
    }
    // A huge limit is capped, not refused.
    let q = c.call_json("codegraph_query", json!({"term": "e", "mode": "contains", "limit": 1_000_000_000u64}));
    let shown: usize = q["files"].as_array().unwrap().iter().map(|f| f["matches"].as_array().unwrap().len()).sum();
    assert!(shown <= 1000 && shown > 0);
    // Still serving.
    assert_eq!(c.call_json("codegraph_status", json!({}))["statistics"]["files"], FIXTURE_FILES);
}

#[test]
fn query_results_equal_cg_query_json_and_a_new_generation_is_seen_without_restart() {
    let dir = fixture_project();
    let cg =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_cg")).args(args).current_dir(dir.path()).output().unwrap();
    assert!(cg(&["init"]).status.success());
    let mut c = Client::start(dir.path());
    for (term, mode) in [("player", "exact"), ("vortex", "contains"), ("^calc", "regex"), ("ser", "starts_with")] {
        let cli: Value = serde_json::from_slice(&cg(&["query", term, "--mode", mode, "--json"]).stdout).unwrap();
        let mcp = c.call_json("codegraph_query", json!({"term": term, "mode": mode}));
        // One shape: the CLI prints what the tool answers.
        assert_eq!(mcp, cli, "{term} {mode}");
    }
    let before = c.call_json("codegraph_query", json!({"term": "brand_new_name"}));
    assert_eq!(before["total_matches"], 0);
    fs::write(dir.path().join("rust/new.rs"), "fn brand_new_name() {}\n").unwrap();
    assert!(cg(&["init"]).status.success());
    let after = c.call_json("codegraph_query", json!({"term": "brand_new_name"}));
    assert_eq!(after["total_matches"], 1);
}

#[test]
fn auto_update_follows_a_burst_of_edits_without_a_call() {
    let dir = fixture_project();
    let p = dir.path();
    let status = Command::new(env!("CARGO_BIN_EXE_cg")).arg("init").current_dir(p).output().unwrap();
    assert!(status.status.success());
    let config = p.join(".codegraph/config.json");
    let mut cfg: Value = serde_json::from_str(&fs::read_to_string(&config).unwrap()).unwrap();
    cfg["auto_update"] = json!(true);
    fs::write(&config, cfg.to_string()).unwrap();
    let mut c = Client::start(p);
    // Give the watcher a moment to subscribe, then change many files at once.
    std::thread::sleep(Duration::from_millis(500));
    for i in 0..30 {
        fs::write(p.join(format!("rust/burst{i}.rs")), format!("pub fn burst_marker_{i}() {{}}\n")).unwrap();
    }
    fs::remove_file(p.join("rust/shapes.rs")).unwrap();
    let mut seen = Value::Null;
    for _ in 0..100 {
        seen = c.call_json("codegraph_query", json!({"term": "burst_marker_", "mode": "starts_with"}));
        if seen["total_matches"] == 30 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(seen["total_matches"], 30, "{seen}");
    let status = c.call_json("codegraph_status", json!({}));
    assert_eq!(status["statistics"]["files"], FIXTURE_FILES - 1 + 30, "{status}");
    // The burst came in as few generations (debounced), not one per file.
    assert!(status["generation"].as_u64().unwrap() <= 4, "{status}");
}

/// `/proc/PID/status` fields of the server, in kB or as counted.
#[cfg(target_os = "linux")]
fn proc_status(pid: u32, field: &str) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|rest| rest.trim_start_matches(':').split_whitespace().next().map(str::to_string))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Regression: a malformed, empty or 32 MB request line got no reply at all (the
/// client waited forever); 2,000 pipelined calls grew the server to 1.4 GB and 381
/// threads; the server did not exit when stdin closed.
#[test]
fn hostile_requests_are_all_answered_with_bounded_threads_and_memory() {
    let dir = fixture_project();
    let out = Command::new(env!("CARGO_BIN_EXE_cg")).arg("init").current_dir(dir.path()).output().unwrap();
    assert!(out.status.success());
    let mut c = Client::start(dir.path());
    let pid = c.child.id();
    let answer = |c: &mut Client| -> Value {
        let line = c.lines.recv_timeout(Duration::from_secs(30)).expect("an answer within 30 s");
        serde_json::from_str(&line).unwrap()
    };
    for (raw, code) in [
        (b"{not json\n".to_vec(), -32700),
        (b"\n".to_vec(), -32700),
        (b"[]\n".to_vec(), -32600),
        (b"{\"id\": 5, \"method\": \"tools/list\"}\n".to_vec(), -32600),
    ] {
        c.raw(&raw);
        let v = answer(&mut c);
        assert_eq!(v["error"]["code"], code, "{}: {v}", String::from_utf8_lossy(&raw));
    }
    // A 20 MB line: answered, not buffered whole, and the next call still works.
    let mut huge =
        br#"{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"codegraph_query","arguments":{"term":""#
            .to_vec();
    huge.extend(std::iter::repeat_n(b'a', 20 << 20));
    huge.extend_from_slice(b"\"}}}\n");
    c.raw(&huge);
    let v = answer(&mut c);
    assert_eq!(v["error"]["code"], -32600, "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("longer than"), "{v}");
    assert_eq!(c.call_json("codegraph_status", json!({}))["statistics"]["files"], FIXTURE_FILES);
    // 2,000 pipelined calls: every one answered.
    let mut batch = String::new();
    for i in 0..2000 {
        let term = ["player", "Point", "Server", "render"][i % 4];
        batch.push_str(
            &json!({"jsonrpc": "2.0", "id": 10_000 + i, "method": "tools/call",
            "params": {"name": "codegraph_query", "arguments": {"term": term}}})
            .to_string(),
        );
        batch.push('\n');
    }
    c.raw(batch.as_bytes());
    let mut ids = std::collections::HashSet::new();
    #[cfg(target_os = "linux")]
    let mut most_threads = 0;
    while ids.len() < 2000 {
        let v = answer(&mut c);
        assert!(v["result"]["isError"] != true, "{v}");
        ids.insert(v["id"].as_u64().unwrap());
        #[cfg(target_os = "linux")]
        {
            most_threads = most_threads.max(proc_status(pid, "Threads"));
        }
    }
    #[cfg(target_os = "linux")]
    {
        assert!(most_threads <= 32, "{most_threads} threads");
        let peak_kb = proc_status(pid, "VmHWM");
        assert!(peak_kb < 300 * 1024, "peak RSS {peak_kb} kB");
    }
    // stdin closes: the server exits.
    drop(c.stdin.take());
    let started = std::time::Instant::now();
    loop {
        if c.child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the server did not exit when stdin closed");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The default answer is sized for an agent: about 4 KB of the best matches, with
/// the total, how many are shown and how to get more (it was ~16 KB on a Go tree).
#[test]
fn default_query_answers_fit_a_byte_budget_and_say_how_to_get_more() {
    let dir = tempfile::tempdir().unwrap();
    let body: String = (0..400).map(|i| format!("fn user_{i}() {{ widget_call(\"widget {i} here\"); }}\n")).collect();
    fs::write(dir.path().join("w.rs"), format!("pub struct Widget;\n{body}")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cg")).arg("init").current_dir(dir.path()).output().unwrap();
    assert!(out.status.success());
    let mut c = Client::start(dir.path());
    let (err, text) = c.call("codegraph_query", json!({"term": "widget"}));
    assert!(!err, "{text}");
    assert!(text.len() <= 4096 + 200, "{} bytes", text.len());
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["total_matches"], 401);
    assert_eq!(v["truncated"], true);
    assert!(v["hint"].as_str().unwrap().contains("max_tokens"), "{v}");
    assert_eq!(v["files"][0]["matches"][0]["type"], "struct", "definitions first: {v}");
    let shown = v["shown"].as_u64().unwrap();
    let listed: u64 =
        v["files"].as_array().unwrap().iter().map(|f| f["matches"].as_array().unwrap().len() as u64).sum();
    assert_eq!(shown, listed);
    assert!(shown >= 10, "{shown}");
    // More when asked: by tokens, or by an explicit limit.
    let (_, big) = c.call("codegraph_query", json!({"term": "widget", "max_tokens": 4000}));
    assert!(big.len() > 3 * text.len() && big.len() <= 16_000 + 200, "{}", big.len());
    let all = c.call_json("codegraph_query", json!({"term": "widget", "limit": 300}));
    assert_eq!(all["shown"], 300);
    assert!(all.get("hint").is_none());
}

/// The graph tools answer what `cg refs/callers/callees/imports/hierarchy/impact
/// --json` print, on the Go graph fixture.
#[test]
fn graph_tools_equal_the_cli_json() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/graph/go");
    for entry in
        ["go.mod", "store/store.go", "store/store_test.go", "billing/invoice.go", "billing/charge.go", "cmd/main.go"]
    {
        let to = dir.path().join(entry);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(src.join(entry), to).unwrap();
    }
    let cg =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_cg")).args(args).current_dir(dir.path()).output().unwrap();
    assert!(cg(&["init"]).status.success());
    let mut c = Client::start(dir.path());
    let cases: [(&str, Value, &[&str]); 6] = [
        ("codegraph_refs", json!({"symbol": "Store.Add"}), &["refs", "Store.Add"]),
        ("codegraph_callers", json!({"symbol": "Store.Add", "depth": 2}), &["callers", "Store.Add", "--depth", "2"]),
        ("codegraph_callees", json!({"symbol": "main"}), &["callees", "main"]),
        ("codegraph_imports", json!({"file": "cmd/main.go"}), &["imports", "cmd/main.go"]),
        ("codegraph_hierarchy", json!({"symbol": "Base"}), &["hierarchy", "Base"]),
        ("codegraph_impact", json!({"target": "Store.Add"}), &["impact", "Store.Add"]),
    ];
    for (tool, params, args) in cases {
        let mut args = args.to_vec();
        args.push("--json");
        let out = cg(&args);
        let cli: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{args:?}: {out:?}"));
        assert_eq!(c.call_json(tool, params), cli, "{tool}");
    }
    let refs = c.call_json("codegraph_refs", json!({"symbol": "Store.Add"}));
    // (The third is `a.Add(2)` through the interface `Adder`: a possible dispatch.)
    assert_eq!(refs["total"], 3);
    assert_eq!(refs["references"][0]["text"], "s.Add(1)");
    assert_eq!(refs["references"][0]["in"], "main.fill");
    let (err, text) = c.call("codegraph_refs", json!({"symbol": "NoSuchThing"}));
    assert!(err && text.contains("no definition matches"), "{text}");
}

/// A graph tool whose walk passes the time limit (`CG_TOOL_SECS`, 10 s by
/// default) answers what it found and says it was cut; within the limit the
/// answer is whole and says nothing of it.
#[test]
fn a_graph_tool_past_its_time_limit_answers_and_says_it_was_cut() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("lib.py"), "def target(x):\n    return x + 1\n").unwrap();
    let mut callers = String::from("from lib import target\n\n\n");
    for i in 0..200 {
        callers.push_str(&format!("def caller_{i}(x):\n    return target(x)\n\n\n"));
    }
    fs::write(dir.path().join("callers.py"), callers).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cg")).arg("init").current_dir(dir.path()).output().unwrap();
    assert!(out.status.success(), "{out:?}");

    let mut c = Client::start_env(dir.path(), &[], &[("CG_TOOL_SECS", "0")]);
    for (tool, args) in [
        ("codegraph_callers", json!({"symbol": "target", "depth": 3})),
        ("codegraph_impact", json!({"target": "target"})),
        ("codegraph_refs", json!({"symbol": "target"})),
    ] {
        let v = c.call_json(tool, args);
        let cut = v["cut"].as_str().unwrap_or_else(|| panic!("{tool}: {v}"));
        assert!(cut.contains("time limit"), "{cut}");
    }
    let v = c.call_json("codegraph_callers", json!({"symbol": "target"}));
    assert!(v["total"].as_u64().unwrap() < 200, "{v}");

    let mut c = Client::start(dir.path());
    let v = c.call_json("codegraph_callers", json!({"symbol": "target", "limit": 1000}));
    assert!(v.get("cut").is_none(), "{v}");
    assert_eq!(v["total"], 200);
}

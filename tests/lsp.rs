//! `cg lsp` as an editor runs it: a child process speaking Content-Length
//! frames on stdin and stdout, on the Go graph fixture. Its answers are the
//! CLI's (`cg refs`, `cg callers`, `cg callees`, `cg search`); saves update the
//! index; bad frames and unknown methods get errors and the server goes on.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

struct Client {
    child: Child,
    stdin: ChildStdin,
    frames: Receiver<Value>,
    next: u64,
}

impl Client {
    fn start(root: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cg"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, frames) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                r.read_exact(&mut body).unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        let mut c = Client { child, stdin, frames, next: 0 };
        let uri = uri(root);
        let init = c.request(
            "initialize",
            json!({"processId": null, "rootUri": uri, "capabilities": {},
                   "workspaceFolders": [{"uri": uri, "name": "shop"}]}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "codegraph", "{init}");
        assert_eq!(init["result"]["capabilities"]["referencesProvider"], true);
        c.notify("initialized", json!({}));
        c
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn frame(&mut self, v: Value) {
        let body = v.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.frame(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The response to a request (notifications before it skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.frame(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(json!(id))
    }

    fn response(&mut self, id: Value) -> Value {
        loop {
            let v = self.frames.recv_timeout(Duration::from_secs(30)).expect("an answer within 30 s");
            if v["id"] == id && v.get("method").is_none() {
                return v;
            }
        }
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let v = self.request(method, params);
        assert!(v.get("error").is_none(), "{method}: {v}");
        v["result"].clone()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uri(p: &Path) -> String {
    format!("file://{}", p.display())
}

fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/graph/go");
    for entry in
        ["go.mod", "store/store.go", "store/store_test.go", "billing/invoice.go", "billing/charge.go", "cmd/main.go"]
    {
        let to = dir.path().join(entry);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(src.join(entry), to).unwrap();
    }
    let root = fs::canonicalize(dir.path()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cg")).arg("init").current_dir(&root).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    (dir, root)
}

fn cli(root: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_cg")).args(args).arg("--json").current_dir(root).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{args:?}: {out:?}"))
}

/// `file:line` (1-based) of LSP locations, relative to the root, sorted.
fn places(root: &Path, locations: &Value) -> Vec<String> {
    let prefix = uri(root) + "/";
    let mut out: Vec<String> = locations
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let file = l["uri"].as_str().unwrap().strip_prefix(&prefix).unwrap().to_string();
            format!("{file}:{}", l["range"]["start"]["line"].as_u64().unwrap() + 1)
        })
        .collect();
    out.sort();
    out
}

fn at(root: &Path, file: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri(&root.join(file))}, "position": {"line": line - 1, "character": character}})
}

#[test]
fn every_capability_answers_as_the_cli_does() {
    let (_dir, root) = project();
    let mut c = Client::start(&root);

    // Definition: `s.Add(1)` in main.go (line 11, `Add` at column 3) is Store.Add.
    let defs = c.result("textDocument/definition", at(&root, "cmd/main.go", 11, 3));
    assert_eq!(places(&root, &defs), ["store/store.go:18"]);
    // The name's own range on that line.
    assert_eq!(defs[0]["range"]["start"]["character"], 16);
    assert_eq!(defs[0]["range"]["end"]["character"], 19);
    // `a.Add(2)`: through the interface Adder.
    assert_eq!(
        places(&root, &c.result("textDocument/definition", at(&root, "cmd/main.go", 12, 3))),
        ["store/store.go:10"]
    );
    // Off an identifier, and outside the project: nothing.
    assert_eq!(c.result("textDocument/definition", at(&root, "cmd/main.go", 11, 7)), json!([]));
    let outside = json!({"textDocument": {"uri": "file:///etc/hostname"}, "position": {"line": 0, "character": 0}});
    assert_eq!(c.result("textDocument/definition", outside), json!([]));
    // Past the end of the file.
    assert_eq!(c.result("textDocument/definition", at(&root, "cmd/main.go", 500, 0)), json!([]));

    // References: the CLI's, and the declaration when asked.
    let mut params = at(&root, "store/store.go", 18, 17);
    params["context"] = json!({"includeDeclaration": false});
    let refs = places(&root, &c.result("textDocument/references", params.clone()));
    let cli_refs = cli(&root, &["refs", "Store.Add"]);
    let mut want: Vec<String> = cli_refs["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{}:{}", r["file"].as_str().unwrap(), r["line"]))
        .collect();
    want.sort();
    assert_eq!(refs, want);
    assert!(!refs.is_empty());
    params["context"] = json!({"includeDeclaration": true});
    let with = places(&root, &c.result("textDocument/references", params));
    assert_eq!(with.len(), refs.len() + 1);
    assert!(with.contains(&"store/store.go:18".to_string()));

    // Hover: the declaration line, the kind, the qualified name, where.
    let hover = c.result("textDocument/hover", at(&root, "cmd/main.go", 11, 3));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("func (s *Store) Add(n int) {") && text.contains("store.Store.Add"), "{text}");
    assert!(text.contains("store/store.go:18"), "{text}");

    // Document symbols, nested by extent: Store's methods are declared outside
    // its body in Go, so the file's definitions are all at the top here.
    let symbols =
        c.result("textDocument/documentSymbol", json!({"textDocument": {"uri": uri(&root.join("store/store.go"))}}));
    let names: Vec<&str> = symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    for n in ["Base", "Flush", "Adder", "Store", "Add", "New"] {
        assert!(names.contains(&n) || symbols.to_string().contains(&format!("\"name\":\"{n}\"")), "{n}: {symbols}");
    }
    let adder = symbols.as_array().unwrap().iter().find(|s| s["name"] == "Adder").unwrap();
    assert_eq!(adder["children"][0]["name"], "Add", "the interface's method is its child: {adder}");

    // Workspace symbols: the CLI's search, in its order.
    let found = c.result("workspace/symbol", json!({"query": "add"}));
    let got: Vec<String> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let file = s["location"]["uri"].as_str().unwrap().strip_prefix(&(uri(&root) + "/")).unwrap().to_string();
            format!("{file}:{}", s["location"]["range"]["start"]["line"].as_u64().unwrap() + 1)
        })
        .collect();
    let search = cli(&root, &["search", "add", "--names", "--limit", "100"]);
    let want: Vec<String> = search["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{}:{}", r["file"].as_str().unwrap(), r["line"]))
        .collect();
    assert_eq!(got, want);
    assert_eq!(c.result("workspace/symbol", json!({"query": ""})), json!([]));
    // A prefix being typed and an abbreviation find names the words search
    // does not (no name holds the subword `flu` or `adr`).
    for (typed, first) in [("Flu", "Flush"), ("adr", "Adder"), ("store.Fl", "Flush")] {
        let found = c.result("workspace/symbol", json!({"query": typed}));
        assert_eq!(found[0]["name"], first, "{typed}: {found}");
        assert!(cli(&root, &["search", "--names", typed])["results"][0]["name"] == first, "{typed}");
    }

    // Implementation: the interface method's implementations.
    let impls = places(&root, &c.result("textDocument/implementation", at(&root, "store/store.go", 10, 1)));
    assert!(impls.contains(&"store/store.go:18".to_string()), "{impls:?}");

    // Type hierarchy: direct supertypes and subtypes, as `cg hierarchy`
    // (Store embeds Base and implements Adder).
    let items = c.result("textDocument/prepareTypeHierarchy", at(&root, "store/store.go", 13, 6));
    assert_eq!(items[0]["name"], "Store", "{items}");
    let up = c.result("typeHierarchy/supertypes", json!({"item": items[0]}));
    let mut names: Vec<&str> = up.as_array().unwrap().iter().map(|i| i["detail"].as_str().unwrap()).collect();
    names.sort();
    let h = cli(&root, &["hierarchy", "Store"]);
    let mut want: Vec<&str> = h["hierarchy"][0]["supertypes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["symbol"]["qualified_name"].as_str().unwrap())
        .collect();
    want.sort();
    assert_eq!(names, want);
    assert_eq!(names, ["store.Adder", "store.Base"]);
    let base = c.result("textDocument/prepareTypeHierarchy", at(&root, "store/store.go", 4, 6));
    let down = c.result("typeHierarchy/subtypes", json!({"item": base[0]}));
    assert_eq!(down[0]["detail"], "store.Store", "{down}");
    // A method is no type.
    assert_eq!(c.result("textDocument/prepareTypeHierarchy", at(&root, "store/store.go", 18, 17)), json!([]));

    // Call hierarchy: incoming and outgoing, as `cg callers` / `cg callees`.
    let items = c.result("textDocument/prepareCallHierarchy", at(&root, "store/store.go", 18, 17));
    assert_eq!(items.as_array().unwrap().len(), 1);
    let item = items[0].clone();
    assert_eq!(item["name"], "Add");
    let incoming = c.result("callHierarchy/incomingCalls", json!({"item": item}));
    let mut from: Vec<String> =
        incoming.as_array().unwrap().iter().map(|i| i["from"]["detail"].as_str().unwrap().to_string()).collect();
    from.sort();
    let callers = cli(&root, &["callers", "Store.Add"]);
    let mut want: Vec<String> = callers["callers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["symbol"]["qualified_name"].as_str().map(str::to_string))
        .collect();
    want.sort();
    assert_eq!(from, want);
    assert_eq!(incoming[0]["fromRanges"][0]["start"]["line"].as_u64().unwrap() + 1, callers["callers"][0]["lines"][0]);
    let main = c.result("textDocument/prepareCallHierarchy", at(&root, "cmd/main.go", 18, 6));
    let outgoing = c.result("callHierarchy/outgoingCalls", json!({"item": main[0]}));
    let mut to: Vec<String> =
        outgoing.as_array().unwrap().iter().map(|o| o["to"]["detail"].as_str().unwrap().to_string()).collect();
    to.sort();
    let callees = cli(&root, &["callees", "main"]);
    let mut want: Vec<String> = callees["callees"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["symbol"]["qualified_name"].as_str().map(str::to_string))
        .collect();
    want.sort();
    want.dedup();
    assert_eq!(to, want);
}

#[test]
fn saves_update_the_index_and_bad_input_gets_errors() {
    let (_dir, root) = project();
    let mut c = Client::start(&root);

    // A new function saved to disk: found within seconds of didSave.
    fs::write(root.join("store/extra.go"), "package store\n\nfunc ReconcileInventory() {}\n").unwrap();
    c.notify("textDocument/didSave", json!({"textDocument": {"uri": uri(&root.join("store/extra.go"))}}));
    let started = Instant::now();
    loop {
        let found = c.result("workspace/symbol", json!({"query": "ReconcileInventory"}));
        if found.as_array().is_some_and(|a| a.iter().any(|s| s["name"] == "ReconcileInventory")) {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "not found after a save");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Deleted and notified: gone.
    fs::remove_file(root.join("store/extra.go")).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&root.join("store/extra.go")), "type": 3}]}),
    );
    let started = Instant::now();
    loop {
        let found = c.result("workspace/symbol", json!({"query": "ReconcileInventory"}));
        if !found.as_array().is_some_and(|a| a.iter().any(|s| s["name"] == "ReconcileInventory")) {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "still there after the deletion");
        std::thread::sleep(Duration::from_millis(50));
    }

    // Saves and requests interleaved: every request answered.
    for i in 0..1000 {
        fs::write(root.join("store/extra.go"), format!("package store\n\nfunc Churn{i}() {{}}\n")).unwrap();
        c.notify("textDocument/didSave", json!({"textDocument": {"uri": uri(&root.join("store/extra.go"))}}));
        let defs = c.result("textDocument/definition", at(&root, "cmd/main.go", 11, 3));
        assert_eq!(places(&root, &defs), ["store/store.go:18"]);
    }

    // A malformed frame: a parse error, and the server reads on.
    c.raw(b"Content-Length: 9\r\n\r\n{not json");
    let err = c.response(Value::Null);
    assert_eq!(err["error"]["code"], -32700, "{err}");
    c.raw(b"garbage without headers\r\n\r\n");
    assert_eq!(c.response(Value::Null)["error"]["code"], -32700);
    // A header line of 100,000 bytes: passed over, not held in memory whole.
    let mut huge = vec![b'x'; 100_000];
    huge.extend_from_slice(b"\r\n\r\n");
    c.raw(&huge);
    assert_eq!(c.response(Value::Null)["error"]["code"], -32700);
    // An unknown method, and bad parameters.
    let v = c.request("textDocument/semanticTokens/full", json!({}));
    assert_eq!(v["error"]["code"], -32601, "{v}");
    let v = c.request("textDocument/definition", json!({"textDocument": 3}));
    assert_eq!(v["error"]["code"], -32602, "{v}");
    assert_eq!(
        places(&root, &c.result("textDocument/definition", at(&root, "cmd/main.go", 11, 3))),
        ["store/store.go:18"]
    );

    // shutdown, then exit: the process ends.
    assert_eq!(c.result("shutdown", Value::Null), Value::Null);
    c.notify("exit", Value::Null);
    let started = Instant::now();
    while c.child.try_wait().unwrap().is_none() {
        assert!(started.elapsed() < Duration::from_secs(5), "still running after exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Neovim's own LSP client (`nvim --headless`, the Debian package) asks
/// definition, references and incoming calls. Skips, saying so, where `nvim`
/// is not installed (`.ci/run` installs it).
#[test]
fn neovim_finds_definitions_references_and_callers() {
    if Command::new("nvim").arg("--version").output().is_err() {
        eprintln!("neovim_finds_definitions_references_and_callers: skipped, `nvim` is not installed");
        return;
    }
    let (_dir, root) = project();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lsp/nvim.lua");
    let out_file = root.join("nvim-answers.txt");
    let mut nvim = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("CG_ROOT", &root)
        .env("CG_BIN", env!("CARGO_BIN_EXE_cg"))
        .env("CG_OUT", &out_file)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while nvim.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = nvim.kill();
            panic!("nvim did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let answers = fs::read_to_string(&out_file).unwrap();
    let r = root.display();
    assert_eq!(
        answers.lines().collect::<Vec<_>>(),
        [
            format!("definition {r}/store/store.go:18"),
            format!("reference {r}/cmd/main.go:11"),
            // `a.Add(2)` through the interface `Adder`: a possible dispatch.
            format!("reference {r}/cmd/main.go:12"),
            format!("reference {r}/store/store_test.go:7"),
            "incoming main.fill".to_string(),
            "incoming store.TestAdd".to_string(),
        ]
    );
}

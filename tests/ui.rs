//! `cg ui` as a user runs it: the server on a free port over the graph
//! fixtures (eleven languages' small projects side by side). Its JSON
//! endpoints answer bounded amounts and stay inside the project; requests
//! another site's page could make are refused; a new generation shows on the
//! next request; and a real browser (headless Chromium through its WebDriver,
//! `chromedriver`) draws the views and follows clicks. The browser test skips,
//! and says so, where Chromium or its driver is missing.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

fn cg(root: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_cg")).args(args).current_dir(root).output().unwrap();
    assert!(out.status.success(), "cg {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// The graph fixtures, indexed, in a temporary folder.
fn fixture() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("shop");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/graph"), &root);
    cg(&root, &["init"]);
    (dir, fs::canonicalize(root).unwrap())
}

/// A running `cg ui`, stopped when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(root: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cg"))
            .args(["ui", "--port", "0", "--project"])
            .arg(root)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line.trim().strip_prefix("http://127.0.0.1:").and_then(|p| p.strip_suffix('/')).unwrap();
        Server { child, port: port.parse().unwrap() }
    }

    /// `GET path` with this server's own Host, plus `headers`.
    fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> (u16, String, Vec<u8>) {
        let host = format!("127.0.0.1:{}", self.port);
        let mut head = format!("GET {path} HTTP/1.1\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head += &format!("Host: {host}\r\n");
        }
        for (k, v) in headers {
            head += &format!("{k}: {v}\r\n");
        }
        head += "\r\n";
        http(self.port, head.as_bytes())
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let (status, _, body) = self.get_with(path, &[]);
        (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }

    fn ok(&self, path: &str) -> Value {
        let (status, v) = self.get(path);
        assert_eq!(status, 200, "{path}: {v}");
        v
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP exchange: the status, the head and the body (as long as its
/// Content-Length says: chromedriver keeps connections open).
fn http(port: u16, request: &[u8]) -> (u16, String, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    s.write_all(request).unwrap();
    let mut r = BufReader::new(s);
    let mut head = String::new();
    let mut length: Option<usize> = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().ok();
            }
        }
        head += &line;
    }
    let mut body = Vec::new();
    match length {
        Some(n) => {
            body.resize(n, 0);
            r.read_exact(&mut body).unwrap();
        }
        None => {
            r.read_to_end(&mut body).unwrap();
        }
    }
    let status = head.split(' ').nth(1).expect("a status line").parse().unwrap();
    (status, head, body)
}

/// The graph, waited for while its import and call graphs are built.
fn graph(s: &Server, open: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let v = s.ok(&format!("/api/graph?open={open}"));
        if v["building"] != json!(true) && v["calls_read"] == json!(true) {
            return v;
        }
        assert!(Instant::now() < deadline, "the import graph was not built in 60 s");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn ids(v: &Value) -> Vec<String> {
    v["nodes"].as_array().unwrap().iter().map(|n| n["id"].as_str().unwrap().to_string()).collect()
}

#[test]
fn endpoints_answer_bounded_amounts_inside_the_project() {
    let (_dir, root) = fixture();
    let s = Server::start(&root);

    // The page and its assets come from the binary.
    let (status, head, body) = s.get_with("/", &[]);
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("<script src=\"/app.js\">"));
    assert!(head.contains("Content-Security-Policy: default-src 'self'"), "{head}");
    assert_eq!(s.get_with("/app.js", &[]).0, 200);

    let status = s.ok("/api/status");
    assert_eq!(status["project_name"], "shop");
    assert!(status["generation"].as_u64().is_some() && status["age_seconds"].as_u64().is_some(), "{status}");

    // The tree: the top folders, each with its statistics; a folder's children.
    let tree = s.ok("/api/tree");
    let names: Vec<&str> = tree["entries"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    for top in ["c", "csharp", "go", "java", "python", "rust", "ts"] {
        assert!(names.contains(&top), "{top}: {names:?}");
    }
    let go = tree["entries"].as_array().unwrap().iter().find(|e| e["name"] == "go").unwrap();
    assert_eq!(go["dir"], true);
    assert_eq!(go["files"], 5, "{go}");
    assert_eq!(go["languages"]["go"], 5, "{go}");
    assert!(go["lines"].as_u64().unwrap() > 20 && go["definitions"].as_u64().unwrap() > 5, "{go}");
    let billing = s.ok("/api/tree?path=go/billing");
    let files: Vec<&str> = billing["entries"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
    assert_eq!(files, ["go/billing/charge.go", "go/billing/invoice.go"]);
    // A file changed on disk since it was indexed is marked.
    let charge = root.join("go/billing/charge.go");
    let text = fs::read_to_string(&charge).unwrap();
    fs::write(&charge, text.clone() + "\n// edited\n").unwrap();
    let billing = s.ok("/api/tree?path=go/billing");
    assert_eq!(billing["entries"][0]["stale"], true, "{billing}");
    assert!(billing["entries"][1].get("stale").is_none(), "{billing}");
    // The status counts it, from a scan in the background.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let status = s.ok("/api/status");
        let scan = &status["changed_since_indexed"];
        if scan["files"] == 1 {
            assert_eq!(scan["shown"], json!(["go/billing/charge.go"]), "{status}");
            break;
        }
        assert!(Instant::now() < deadline, "the changed file was not counted: {status}");
        std::thread::sleep(Duration::from_millis(200));
    }
    fs::write(&charge, text).unwrap();

    // Paths outside the project are refused; unknown ones are not found.
    for bad in ["../", "..%2F..%2Fetc", "%2Fetc", "go/../../x"] {
        let (status, v) = s.get(&format!("/api/tree?path={bad}"));
        assert_eq!(status, 403, "{bad}: {v}");
        let (status, v) = s.get(&format!("/api/file?path={bad}/passwd&line=1"));
        assert_eq!(status, 403, "{bad}: {v}");
    }
    assert_eq!(s.get("/api/tree?path=nowhere").0, 404);
    assert_eq!(s.get("/api/file?path=go/nowhere.go&line=1").0, 404);
    assert_eq!(s.get("/api/nothing").0, 404);

    // The cloud: terms by files, at most the limit, filterable.
    let cloud = s.ok("/api/cloud?limit=10");
    let terms = cloud["terms"].as_array().unwrap();
    assert!(!terms.is_empty() && terms.len() <= 10, "{cloud}");
    assert!(terms.windows(2).all(|w| w[0]["files"].as_u64() >= w[1]["files"].as_u64()), "{cloud}");
    let in_go = s.ok("/api/cloud?folder=go&type=code");
    let invoice = in_go["terms"].as_array().unwrap().iter().find(|t| t["term"] == "Invoice").expect("Invoice in go/");
    assert!(invoice["files"].as_u64().unwrap() <= 5, "{invoice}");
    assert_eq!(s.get("/api/cloud?type=bogus").0, 400);

    // The graph: folders with their imports; opened, a folder's files; a
    // file's definitions with their calls.
    let top = graph(&s, "");
    assert!(ids(&top).contains(&"python".to_string()), "{top}");
    let py = graph(&s, "python,python/shop");
    let nodes = ids(&py);
    assert!(nodes.contains(&"python/shop/store.py".to_string()) && nodes.contains(&"python/app".to_string()), "{py}");
    let edge = |v: &Value, from: &str, to: &str| {
        v["edges"].as_array().unwrap().iter().any(|e| e["from"] == from && e["to"] == to)
    };
    assert!(edge(&py, "python/app", "python/shop/store.py") || edge(&py, "python/app", "python/shop/models"), "{py}");
    let file = graph(&s, "go,go/billing,go/billing/invoice.go");
    let defs: Vec<&Value> = file["nodes"].as_array().unwrap().iter().filter(|n| n["kind"] == "def").collect();
    assert!(!defs.is_empty(), "{file}");
    assert!(defs.iter().all(|d| d["parent"] == "go/billing/invoice.go"), "{file}");
    // Calls between the definitions and the nodes shown: `go/cmd` (closed)
    // calls `Add`, `charge.go` calls `helper`.
    assert!(edge(&file, "go/cmd", "go/billing/invoice.go#8"), "{file}");
    assert!(edge(&file, "go/billing/charge.go", "go/billing/invoice.go#12"), "{file}");
    // Edges count files importing and files calling: go/cmd/main.go imports
    // and calls into billing and store.
    let go = graph(&s, "go");
    let e = go["edges"].as_array().unwrap().iter().find(|e| e["from"] == "go/cmd" && e["to"] == "go/billing").unwrap();
    assert_eq!((e["weight"].as_u64(), e["imports"].as_u64(), e["calls"].as_u64()), (Some(1), Some(1), Some(1)), "{e}");
    assert_eq!(s.get("/api/graph?open=../x").0, 403);

    // Search: by words, by names, as text; the hit opens in the preview; the
    // symbol card.
    let words = s.ok("/api/search?q=invoice+total&mode=words");
    assert!(!words["results"].as_array().unwrap().is_empty(), "{words}");
    let names = s.ok("/api/search?q=Invo&mode=names");
    assert_eq!(names["results"][0]["name"], "Invoice", "{names}");
    let text = s.ok("/api/search?q=Invoice&mode=text&match=exact");
    assert!(!text["files"].as_array().unwrap().is_empty(), "{text}");
    assert_eq!(s.get("/api/search?q=x&mode=bogus").0, 400);
    assert_eq!(s.get("/api/search?q=").0, 400);
    let hit = &names["results"][0];
    let (file, line) = (hit["file"].as_str().unwrap(), hit["line"].as_u64().unwrap());
    let preview = s.ok(&format!("/api/file?path={file}&line={line}&context=2"));
    let shown: Vec<&str> = preview["text"].as_str().unwrap().lines().collect();
    let at = (line - preview["start"].as_u64().unwrap()) as usize;
    assert!(shown[at].contains("Invoice"), "{preview}");
    assert!(shown.len() <= 5, "{preview}");
    let card = s.ok(&format!("/api/symbol?path={file}&line={line}&name=Invoice"));
    assert_eq!(card["symbol"]["name"], "Invoice", "{card}");
    assert!(card.get("called_by").is_some() && card.get("calls").is_some(), "{card}");
    assert_eq!(s.get(&format!("/api/symbol?path={file}&line={line}")).0, 400);

    // A new generation shows on the next request.
    fs::write(root.join("go/billing/refund.go"), "package billing\n\nfunc Refund() {}\n").unwrap();
    cg(&root, &["update"]);
    let billing = s.ok("/api/tree?path=go/billing");
    assert_eq!(billing["entries"].as_array().unwrap().len(), 3, "{billing}");
    assert_eq!(s.ok("/api/search?q=Refund&mode=names")["results"][0]["name"], "Refund");
}

#[test]
fn requests_another_site_could_make_are_refused() {
    let (_dir, root) = fixture();
    let s = Server::start(&root);
    let port = s.port.to_string();
    // DNS rebinding: another name for this address.
    for host in [format!("evil.example:{port}"), "127.0.0.1".into(), format!("localhost.evil:{port}")] {
        let (status, _, body) = s.get_with("/api/status", &[("Host", &host)]);
        assert_eq!(status, 403, "{host}: {}", String::from_utf8_lossy(&body));
    }
    assert_eq!(s.get_with("/api/status", &[("Host", &format!("localhost:{port}"))]).0, 200);
    // Another origin's page.
    let (status, head, _) = s.get_with("/api/tree", &[("Origin", "http://evil.example")]);
    assert_eq!(status, 403);
    assert!(!head.to_ascii_lowercase().contains("access-control"), "{head}");
    assert_eq!(s.get_with("/api/tree", &[("Origin", &format!("http://127.0.0.1:{port}"))]).0, 200);
    assert_eq!(s.get_with("/api/tree", &[("Sec-Fetch-Site", "cross-site")]).0, 403);
    // Read-only; no CORS anywhere.
    let (status, head, _) = http(
        s.port,
        format!("POST /api/status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\n\r\n").as_bytes(),
    );
    assert_eq!(status, 405, "{head}");
    let (status, head, _) = http(
        s.port,
        format!("OPTIONS /api/status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!(status, 405, "{head}");
    assert!(!head.to_ascii_lowercase().contains("access-control"), "{head}");
    // Malformed requests get 400 and the server goes on.
    assert_eq!(http(s.port, b"NONSENSE\r\n\r\n").0, 400);
    assert_eq!(
        http(s.port, format!("GET /api/tree?path=%zz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").as_bytes()).0,
        400
    );
    let huge = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Pad: {}\r\n\r\n", "a".repeat(40_000));
    assert_eq!(http(s.port, huge.as_bytes()).0, 400);
    assert_eq!(s.get("/api/status").0, 200);
}

#[test]
fn a_folder_too_large_for_one_answer_is_folded() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("wide");
    fs::create_dir_all(root.join("pkg")).unwrap();
    // 1,100 modules in one folder, each importing the next.
    for i in 0..1100 {
        fs::write(
            root.join(format!("pkg/m{i:04}.py")),
            format!("from pkg import m{:04}\n\ndef f{i}():\n    return {i}\n", (i + 1) % 1100),
        )
        .unwrap();
    }
    cg(&root, &["init"]);
    let s = Server::start(&root);
    let tree = s.ok("/api/tree?path=pkg");
    assert_eq!(tree["entries"].as_array().unwrap().len(), 1000);
    assert_eq!(tree["truncated"], 100);
    let g = graph(&s, "pkg");
    let nodes = g["nodes"].as_array().unwrap();
    assert!(nodes.len() <= 500, "{} nodes", nodes.len());
    assert!(g["edges"].as_array().unwrap().len() <= 2000);
    let more = nodes.iter().find(|n| n["kind"] == "more").expect("a folded node");
    assert_eq!(more["id"], "pkg/…");
    let shown: u64 = nodes.iter().map(|n| n["files"].as_u64().unwrap()).sum();
    assert_eq!(shown, 1100, "every file is in one node");
    assert!(g["truncated"]["folded_nodes"].as_u64().unwrap() >= 600, "{}", g["truncated"]);
    let (_, _, body) = s.get_with("/api/graph?open=pkg", &[]);
    assert!(body.len() < 1 << 20, "{} bytes", body.len());
}

// ---- a real browser ---------------------------------------------------------

/// A WebDriver session on chromedriver, deleted (and the driver stopped) when
/// dropped.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

impl Browser {
    fn start() -> Result<Browser, String> {
        let chromium = ["chromium", "chromium-browser", "google-chrome"]
            .into_iter()
            .find_map(which)
            .ok_or("no chromium on PATH")?;
        let driver_bin = which("chromedriver").ok_or("no chromedriver on PATH")?;
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new(driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let mut b = Browser { driver, port, session: String::new() };
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                return Err("chromedriver did not start".into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900"]
        }}}});
        let v = b.call("POST", "/session", &caps);
        b.session = v["value"]["sessionId"].as_str().ok_or(format!("no session: {v}"))?.to_string();
        Ok(b)
    }

    fn call(&self, method: &str, path: &str, body: &Value) -> Value {
        let body = if method == "GET" || method == "DELETE" { String::new() } else { body.to_string() };
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        let (_, _, out) = http(self.port, request.as_bytes());
        serde_json::from_slice(&out).unwrap_or(Value::Null)
    }

    fn session(&self, method: &str, path: &str, body: Value) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), &body)["value"].clone()
    }

    fn script(&self, js: &str) -> Value {
        self.session("POST", "/execute/sync", json!({"script": js, "args": []}))
    }

    /// Waits until `js` returns something truthy; returns it.
    fn until(&self, what: &str, js: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let v = self.script(js);
            if !(v.is_null() || v == json!(false) || v == json!(0) || v == json!("")) {
                return v;
            }
            assert!(Instant::now() < deadline, "{what}: not seen in 30 s (last: {v})");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn click(&self, css: &str) {
        let e = self.session("POST", "/element", json!({"using": "css selector", "value": css}));
        let id = e
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("{css}: {e}"));
        self.session("POST", &format!("/element/{id}/click"), json!({}));
    }

    fn click_at(&self, x: f64, y: f64) {
        self.session(
            "POST",
            "/actions",
            json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x.round() as i64, "y": y.round() as i64},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]}),
        );
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            self.call("DELETE", &format!("/session/{}", self.session), &Value::Null);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn which(name: &str) -> Option<String> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
        .map(|p| p.display().to_string())
}

fn base64(s: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = s.bytes().filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/').collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &c)| n | (value(c) as u32) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

#[test]
fn a_browser_draws_the_views_and_follows_clicks() {
    let browser = match Browser::start() {
        Ok(b) => b,
        Err(why) => {
            eprintln!("skipped: a_browser_draws_the_views_and_follows_clicks needs headless Chromium and chromedriver ({why})");
            return;
        }
    };
    let (_dir, root) = fixture();
    let s = Server::start(&root);
    browser.session("POST", "/url", json!({"url": format!("http://127.0.0.1:{}/", s.port)}));

    // The tree lists the top folders.
    browser.until("the tree", "return document.querySelectorAll('#tree > li.dir').length >= 7");
    let folders = browser.script("return [...document.querySelectorAll('#tree > li')].map(l => l.dataset.path)");
    assert!(folders.as_array().unwrap().contains(&json!("python")), "{folders}");
    browser.until("the status line", "return document.getElementById('status').textContent.includes('generation')");

    // The graph draws nodes; a click on a folder opens it into its children.
    browser.until("graph nodes", "return window.cgGraph().length >= 7");
    // The layout settles, so a node is clicked where it is drawn.
    browser.until("the layout settled", "return window.cgSettled()");
    let python = browser.script("return window.cgGraph().find(n => n.id === 'python')");
    assert!(python.is_object(), "no python node");
    browser.click_at(python["x"].as_f64().unwrap(), python["y"].as_f64().unwrap());
    browser.until("python opened", "return window.cgGraph().some(n => n.id.startsWith('python/'))");
    assert!(
        browser.script("return window.cgGraph().find(n => n.id === 'python')").is_null(),
        "an open folder is replaced by its children"
    );

    // The cloud shows terms.
    browser.click("button[data-tab=cloud]");
    browser.until("cloud terms", "return document.querySelectorAll('#cloud span[title]').length > 5");

    // A search opens a preview with the hit's line marked, and the card.
    browser.click("button[data-tab=search]");
    browser.script(
        "document.getElementById('mode').value = 'names'; document.getElementById('q').value = 'Invoice'; return true",
    );
    browser.click("#search-form button[type=submit]");
    browser.until("search results", "return document.querySelectorAll('#results li').length > 0");
    browser.click("#results li");
    let hit = browser.until("the preview's marked line", "return document.querySelector('#preview .hit')?.textContent");
    assert!(hit.as_str().unwrap().contains("Invoice"), "{hit}");
    browser.until("the symbol card", "return document.querySelector('#card h3')?.textContent.includes('Invoice')");

    // A screenshot of the whole page, for a person to look at.
    let png = base64(browser.session("GET", "/screenshot", Value::Null).as_str().unwrap());
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ui-dashboard.png");
    fs::write(&out, png).unwrap();
    eprintln!("screenshot: {}", out.display());
}

#[test]
fn without_an_index_or_with_its_port_taken_it_says_what_to_do() {
    let empty = tempfile::tempdir().unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_cg")).args(["ui", "--port", "0"]).current_dir(empty.path()).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("cg init"), "{err}");
    let (_dir, root) = fixture();
    let s = Server::start(&root);
    let out = Command::new(env!("CARGO_BIN_EXE_cg"))
        .args(["ui", "--port", &s.port.to_string(), "--project"])
        .arg(&root)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--port 0"), "{err}");
    assert_eq!(s.get("/api/status").0, 200, "the first server goes on");
}

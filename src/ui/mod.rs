//! `cg ui`: a local, read-only web dashboard over the index: the file tree with
//! its statistics, the item cloud, the dependency graph, search with a preview
//! and the symbol card, and the index's status.
//!
//! An HTTP/1.1 server on 127.0.0.1 only, one short-lived thread per connection
//! (at most [`MAX_CONNECTIONS`] at once), `GET` and `HEAD` only, one request per
//! connection. The page (HTML, script, style) is inside the binary
//! (`src/ui/assets`, no library, no network). Every JSON endpoint answers a
//! bounded amount (see [`api`]).
//!
//! Security: a page on another site can make a browser send requests to
//! 127.0.0.1, and with DNS rebinding read their answers under its own name. So
//! a request whose `Host` is not this server's own (`127.0.0.1:PORT` or
//! `localhost:PORT`), or whose `Origin` is present and not this server's, or
//! that a browser marks `Sec-Fetch-Site: cross-site`, is refused with 403; no
//! CORS header is ever sent; the page's Content-Security-Policy allows only its
//! own scripts. Paths in parameters are confined to the project as the MCP
//! server confines them.
//!
//! The index is reopened when `manifest.json` changes, so a new generation
//! (`cg update`, `cg watch`, `cg sync-git`) shows on the next request.

pub mod api;

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use crate::project::{self, Index};

/// Connections served at once; more get 503.
pub const MAX_CONNECTIONS: usize = 32;

/// The request line and headers together, at most.
const MAX_HEAD: usize = 16 << 10;

/// How long a connection may take to send its request.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long writing an answer may wait on a client that does not read.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");

/// When `manifest.json` was last written (mtime, length).
type Stamp = Option<(SystemTime, u64)>;

/// What the server shares between connections.
pub struct State {
    pub root: PathBuf,
    pub port: u16,
    opened: Mutex<Option<(Stamp, Arc<Index>)>>,
    pub(crate) cache: api::Cache,
}

impl State {
    /// The index as of the last generation.
    pub fn index(&self) -> Result<Arc<Index>, String> {
        let stamp = std::fs::metadata(self.root.join(project::DIR).join(project::MANIFEST))
            .ok()
            .map(|m| (m.modified().unwrap_or(SystemTime::UNIX_EPOCH), m.len()));
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, index)) = opened.as_ref() {
            if *at == stamp {
                return Ok(index.clone());
            }
        }
        let index = Arc::new(Index::open(&self.root).map_err(|e| e.to_string())?);
        *opened = Some((stamp, index.clone()));
        Ok(index)
    }
}

/// A parsed request.
pub struct Request {
    pub method: String,
    pub path: String,
    pub params: HashMap<String, String>,
    headers: HashMap<String, String>,
}

impl Request {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }
}

/// An answer: status, content type, body.
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Response {
    pub fn json(status: u16, v: &serde_json::Value) -> Response {
        Response { status, content_type: "application/json", body: serde_json::to_vec(v).unwrap_or_default() }
    }

    pub fn error(status: u16, message: &str) -> Response {
        Response::json(status, &serde_json::json!({ "error": message }))
    }
}

/// Binds 127.0.0.1:`port` (0: any free port), calls `ready` with the address
/// the page is at, and serves until the process ends.
pub fn serve(root: &Path, port: u16, ready: impl FnOnce(&str)) -> io::Result<()> {
    let root = std::fs::canonicalize(root)?;
    let listener = TcpListener::bind(("127.0.0.1", port)).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot listen on 127.0.0.1:{port}: {e} (another server on that port? --port 0 picks a free one)"),
        )
    })?;
    let port = listener.local_addr()?.port();
    let state = Arc::new(State { root, port, opened: Mutex::new(None), cache: api::Cache::default() });
    // Open the index now: a missing or broken one is said at once.
    state.index().map_err(io::Error::other)?;
    api::prepare(&state);
    ready(&format!("http://127.0.0.1:{port}/"));
    let live = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if live.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            live.fetch_sub(1, Ordering::SeqCst);
            let _ = write_response(&mut stream, "GET", &Response::error(503, "busy: too many connections"));
            continue;
        }
        let (state, live) = (state.clone(), live.clone());
        std::thread::spawn(move || {
            let _ = handle(&state, stream);
            live.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(())
}

fn handle(state: &State, mut stream: TcpStream) -> io::Result<()> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    // A client that stops reading does not hold the thread for ever.
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let request = match read_request(&mut stream) {
        Ok(r) => r,
        Err(why) => {
            write_response(&mut stream, "GET", &Response::error(400, &why))?;
            // Read what the client still sends (a bounded amount), so that
            // closing does not reset the connection before it reads the answer.
            stream.shutdown(std::net::Shutdown::Write)?;
            stream.set_read_timeout(Some(Duration::from_secs(1)))?;
            let _ = io::copy(&mut (&mut stream).take(1 << 20), &mut io::sink());
            return Ok(());
        }
    };
    let response = match refused(state, &request) {
        Some(why) => Response::error(403, why),
        None => route(state, &request),
    };
    write_response(&mut stream, &request.method, &response)
}

/// Why a request is refused, if it is: another site's page asking.
fn refused(state: &State, r: &Request) -> Option<&'static str> {
    let port = state.port;
    let own_host = |h: &str| h == format!("127.0.0.1:{port}") || h == format!("localhost:{port}");
    match r.headers.get("host") {
        Some(h) if own_host(&h.to_ascii_lowercase()) => {}
        _ => return Some("refused: the Host header is not this server's (127.0.0.1 or localhost and its port)"),
    }
    if let Some(origin) = r.headers.get("origin") {
        let o = origin.to_ascii_lowercase();
        if !o.strip_prefix("http://").is_some_and(own_host) {
            return Some("refused: a request from another origin");
        }
    }
    if r.headers.get("sec-fetch-site").is_some_and(|s| s.eq_ignore_ascii_case("cross-site")) {
        return Some("refused: a cross-site request");
    }
    None
}

fn route(state: &State, r: &Request) -> Response {
    if r.method != "GET" && r.method != "HEAD" {
        return Response::error(405, "only GET and HEAD: the dashboard is read-only");
    }
    let asset = |content_type: &'static str, text: &str| Response { status: 200, content_type, body: text.into() };
    match r.path.as_str() {
        "/" | "/index.html" => asset("text/html; charset=utf-8", INDEX_HTML),
        "/app.js" => asset("text/javascript; charset=utf-8", APP_JS),
        "/app.css" => asset("text/css; charset=utf-8", APP_CSS),
        p if p.starts_with("/api/") => api::answer(state, &p[5..], r),
        _ => Response::error(404, "no such page"),
    }
}

/// Reads the request line and headers (the body of a `GET` is ignored).
fn read_request(stream: &mut TcpStream) -> Result<Request, String> {
    let mut reader = BufReader::new(stream.take(MAX_HEAD as u64));
    let mut line = String::new();
    reader.read_line(&mut line).map_err(|e| format!("unreadable request: {e}"))?;
    let mut parts = line.split_whitespace();
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next()) else {
        return Err("malformed request line".into());
    };
    if !version.starts_with("HTTP/1.") {
        return Err("only HTTP/1.x".into());
    }
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        let n = reader.read_line(&mut h).map_err(|e| format!("unreadable header: {e}"))?;
        if n == 0 || !h.ends_with('\n') {
            return Err("request head too long or cut short".into());
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let Some((name, value)) = h.split_once(':') else { return Err("malformed header".into()) };
        headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_string());
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let path = decode(path).ok_or("malformed path")?;
    let mut params = HashMap::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (Some(k), Some(v)) = (decode(&k.replace('+', " ")), decode(&v.replace('+', " "))) else {
            return Err("malformed query string".into());
        };
        params.insert(k, v);
    }
    Ok(Request { method: method.to_string(), path, params, headers })
}

/// Percent-decoding; `None` for a bad escape or bytes that are not UTF-8.
fn decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn write_response(stream: &mut TcpStream, method: &str, r: &Response) -> io::Result<()> {
    let reason = match r.status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let head = format!(
        "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n\
         Content-Security-Policy: default-src 'self'; img-src 'self' data:; frame-ancestors 'none'\r\n\
         Connection: close\r\n\r\n",
        r.status,
        r.content_type,
        r.body.len()
    );
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&r.body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn percent_decoding() {
        assert_eq!(decode("a%2Fb%20c").as_deref(), Some("a/b c"));
        assert_eq!(decode("%zz"), None);
        assert_eq!(decode("%4"), None);
        assert_eq!(decode("%ff"), None);
        assert_eq!(decode("plain").as_deref(), Some("plain"));
    }
}

//! A minimal MCP client over stdio, for measuring `cg mcp` from outside the way
//! an agent's client sees it (`cg bench`, `benches/mcp.rs`): the server as a
//! child process, one request at a time, `codegraph_query` with the default
//! answer on common identifiers, each after a JSON-RPC `ping` (the client's
//! cheapest call, its baseline).

use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use fst::Streamer;
use serde_json::{json, Value};

use crate::project::Index;
use crate::query::{search, Mode, Query};

/// Terms named at least this often count as common.
pub const COMMON: u64 = 100;

/// Up to `n` common identifiers of the index: every 7th key of its first
/// segment's dictionary that is an identifier (a letter, then letters, digits
/// and `_`; 3 bytes or more) named at least `min` times.
pub fn common_identifiers(index: &Index, n: usize, min: u64) -> Vec<String> {
    let Some(seg) = index.segments.first() else { return Vec::new() };
    let Ok(fst) = seg.term_fst() else { return Vec::new() };
    let mut keys = Vec::new();
    let mut stream = fst.stream();
    let mut i = 0u64;
    while let Some((k, _)) = stream.next() {
        i += 1;
        if i.is_multiple_of(7) {
            keys.extend(std::str::from_utf8(k).ok().map(str::to_string));
        }
    }
    let identifier = |t: &str| {
        t.len() >= 3
            && t.starts_with(|c: char| c.is_ascii_alphabetic())
            && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let mut terms = Vec::new();
    for k in keys.into_iter().filter(|k| identifier(k)) {
        if terms.len() == n {
            break;
        }
        if search(index, &Query::new(&k, Mode::Exact)).is_ok_and(|m| m.total >= min) {
            terms.push(k);
        }
    }
    terms
}

/// What [`round_trips`] measured: per term, the ping before its query, the
/// query, and the length of the answer's text as the agent reads it.
#[derive(Debug, Default)]
pub struct RoundTrips {
    pub queries: Vec<Duration>,
    pub pings: Vec<Duration>,
    pub sizes: Vec<usize>,
}

/// Runs `bin mcp --project project` and times `codegraph_query` of each term
/// (after one untimed pass over them all, as a server that has answered before),
/// each after a ping.
pub fn round_trips(bin: &Path, project: &Path, terms: &[String]) -> io::Result<RoundTrips> {
    round_trips_within(bin, project, terms, CALL_LIMIT)
}

/// [`round_trips`], a request waiting at most `limit` for its answer.
fn round_trips_within(bin: &Path, project: &Path, terms: &[String], limit: Duration) -> io::Result<RoundTrips> {
    let child = Command::new(bin)
        .args(["mcp", "--project"])
        .arg(project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut client = Client::new(child, limit)?;
    let request = |term: &str| json!({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "codegraph_query", "arguments": {"term": term}}});
    let ping = json!({"jsonrpc": "2.0", "method": "ping"});
    let measured = (|| {
        for t in terms {
            client.call(request(t))?;
            client.call(ping.clone())?;
        }
        let mut out = RoundTrips::default();
        for t in terms {
            let start = Instant::now();
            client.call(ping.clone())?;
            out.pings.push(start.elapsed());
            let start = Instant::now();
            client.call(request(t))?;
            out.queries.push(start.elapsed());
            // Read after the clock stops: the server's share is what is timed.
            let answer: Value = serde_json::from_str(&client.line).map_err(io::Error::other)?;
            out.sizes.push(answer["result"]["content"][0]["text"].as_str().map_or(0, str::len));
        }
        Ok(out)
    })();
    client.stop();
    measured
}

/// How long one request may wait for its answer before the server is taken as
/// hung and stopped (the read then ends: a client never waits forever).
const CALL_LIMIT: Duration = Duration::from_secs(60);

/// A running server and the next request id.
struct Client {
    child: Arc<Mutex<Child>>,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    line: String,
    /// Told after each answer; dropped to end the watchdog.
    beat: Option<mpsc::Sender<()>>,
    watchdog: Option<std::thread::JoinHandle<()>>,
    /// The watchdog stopped the server.
    hung: Arc<AtomicBool>,
}

impl Client {
    /// Starts the session: `initialize`, then the `initialized` notification.
    fn new(mut child: Child, limit: Duration) -> io::Result<Client> {
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("the server's stdio could not be opened"));
        };
        let child = Arc::new(Mutex::new(child));
        let hung = Arc::new(AtomicBool::new(false));
        let (beat, beats) = mpsc::channel::<()>();
        let watchdog = {
            let (child, hung) = (child.clone(), hung.clone());
            std::thread::spawn(move || loop {
                match beats.recv_timeout(limit) {
                    Ok(()) => {}
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        hung.store(true, Ordering::SeqCst);
                        let _ = child.lock().map(|mut c| c.kill());
                        return;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                }
            })
        };
        let mut client = Client {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            next_id: 0,
            line: String::new(),
            beat: Some(beat),
            watchdog: Some(watchdog),
            hung,
        };
        let init = json!({"jsonrpc": "2.0", "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "cg-bench", "version": "1"}}});
        if let Err(e) = client.call(init).and_then(|()| {
            writeln!(client.stdin, "{}", json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        }) {
            client.stop();
            return Err(e);
        }
        Ok(client)
    }

    /// Sends a request and waits for its answer, left in `line` (other
    /// messages are skipped; requests go one at a time, so the next answer is
    /// this one's).
    fn call(&mut self, mut message: Value) -> io::Result<()> {
        self.next_id += 1;
        let id = self.next_id;
        message["id"] = json!(id);
        writeln!(self.stdin, "{message}")?;
        self.stdin.flush()?;
        let tag = format!("\"id\":{id}");
        loop {
            self.line.clear();
            if self.stdout.read_line(&mut self.line)? == 0 {
                return Err(match self.hung.load(Ordering::SeqCst) {
                    true => io::Error::new(io::ErrorKind::TimedOut, "the MCP server stopped answering"),
                    false => io::Error::new(io::ErrorKind::UnexpectedEof, "the MCP server ended"),
                });
            }
            if self.line.contains(&tag) {
                if let Some(beat) = &self.beat {
                    let _ = beat.send(());
                }
                return Ok(());
            }
        }
    }

    fn stop(&mut self) {
        self.beat = None;
        if let Some(w) = self.watchdog.take() {
            let _ = w.join();
        }
        if let Ok(mut c) = self.child.lock() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A stand-in for `cg`: a shell script with `body`.
    fn server(dir: &Path, body: &str) -> std::path::PathBuf {
        let path = dir.join("fake-cg");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// [`round_trips_within`], again while the script is busy: a test on
    /// another thread that forks while this one holds the script open for
    /// writing leaves it open in the child until that child execs (ETXTBSY).
    fn trips(bin: &Path, dir: &Path, limit: Duration) -> io::Result<RoundTrips> {
        for _ in 0..100 {
            match round_trips_within(bin, dir, &["x".into()], limit) {
                Err(e) if e.kind() == io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                other => return other,
            }
        }
        round_trips_within(bin, dir, &["x".into()], limit)
    }

    /// A server that reads requests and never answers is stopped, and the
    /// client returns an error instead of waiting forever.
    #[test]
    fn a_server_that_never_answers_is_stopped_after_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        // Its stdout stays open (fd 3) while it reads and discards requests.
        let bin = server(dir.path(), "exec 3>&1\nexec cat > /dev/null");
        let started = Instant::now();
        let err = trips(&bin, dir.path(), Duration::from_millis(300)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut, "{err}");
        assert!(started.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn a_server_that_ends_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let bin = server(dir.path(), "exit 0");
        let err = trips(&bin, dir.path(), Duration::from_secs(30)).unwrap_err();
        assert!(matches!(err.kind(), io::ErrorKind::UnexpectedEof | io::ErrorKind::BrokenPipe), "{err}");
    }
}

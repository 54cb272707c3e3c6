//! A minimal MCP client over stdio, for measuring `cg mcp` from outside the way
//! an agent's client sees it (`cg bench`, `benches/mcp.rs`): the server as a
//! child process, one request at a time, `codegraph_query` with the default
//! answer on common identifiers, each after a JSON-RPC `ping` (the client's
//! cheapest call, its baseline).

use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
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
    let child = Command::new(bin)
        .args(["mcp", "--project"])
        .arg(project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut client = Client::new(child)?;
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

/// A running server and the next request id.
struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    line: String,
}

impl Client {
    /// Starts the session: `initialize`, then the `initialized` notification.
    fn new(mut child: Child) -> io::Result<Client> {
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(io::Error::other("the server's stdio could not be opened"));
        };
        let mut client = Client { child, stdin, stdout: BufReader::new(stdout), next_id: 0, line: String::new() };
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
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "the MCP server ended"));
            }
            if self.line.contains(&tag) {
                return Ok(());
            }
        }
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

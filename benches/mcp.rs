//! `codegraph_query` round trips over stdio: `cg mcp` as a child process, one
//! request at a time, the default answer (about 4 KB of the best matches, line text included), as Claude Code calls it.
//!
//! Runs on `$CG_BENCH_INDEX` (an indexed project root), default `~/corpus/kubernetes`
//! when indexed; otherwise it says so and exits. Terms: every 97th dictionary key.
//!
//!     cargo bench --bench mcp

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use codegraph::project::Index;
use fst::Streamer;
use serde_json::json;

fn main() {
    let root = std::env::var_os("CG_BENCH_INDEX")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(&std::env::var_os("HOME").unwrap_or_default()).join("corpus/kubernetes"));
    let Ok(index) = Index::open(&root) else {
        eprintln!("mcp bench: no index at {} (run `cg init` there or set CG_BENCH_INDEX)", root.display());
        return;
    };
    let fst = index.segments[0].term_fst().unwrap();
    let mut stream = fst.stream();
    let mut terms = Vec::new();
    let mut i = 0u64;
    while let Some((k, _)) = stream.next() {
        i += 1;
        if i.is_multiple_of(97) {
            terms.extend(std::str::from_utf8(k).ok().map(str::to_string));
        }
    }
    terms.truncate(1000);
    drop(stream);

    let mut child = Command::new(env!("CARGO_BIN_EXE_cg"))
        .args(["mcp", "--project"])
        .arg(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut initialized = false;
    let mut call = |id: u64, v: serde_json::Value, line: &mut String| {
        if id > 0 && !initialized {
            writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).unwrap();
            initialized = true;
        }
        let mut msg = v;
        msg["id"] = json!(id);
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
        loop {
            line.clear();
            stdout.read_line(line).unwrap();
            if line.contains(&format!("\"id\":{id}")) {
                return;
            }
        }
    };
    call(
        0,
        json!({"jsonrpc": "2.0", "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}),
        &mut line,
    );
    let request = |term: &str| json!({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "codegraph_query", "arguments": {"term": term}}});
    for (n, t) in terms.iter().take(100).enumerate() {
        call(1 + n as u64, request(t), &mut line); // warm
    }
    let mut times: Vec<Duration> = Vec::with_capacity(terms.len());
    let mut bytes = 0usize;
    for (n, t) in terms.iter().enumerate() {
        let start = Instant::now();
        call(1000 + n as u64, request(t), &mut line);
        times.push(start.elapsed());
        bytes += line.len();
    }
    let _ = child.kill();
    let _ = child.wait();
    times.sort();
    let at = |p: f64| times[((times.len() as f64 - 1.0) * p) as usize];
    eprintln!(
        "codegraph_query over stdio on {} ({} queries, mean response {} bytes): p50 {:.1?}  p90 {:.1?}  p99 {:.1?}  max {:.1?}",
        root.display(),
        times.len(),
        bytes / times.len().max(1),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}

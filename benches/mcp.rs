//! `codegraph_query` round trips over stdio, measured from outside the way an
//! agent's client sees them: `cg mcp` as a child process, one request at a
//! time, the default answer (about 4 KB of the best matches, line text
//! included), as Claude Code calls it.
//!
//! Terms: common identifiers of the tree (every 7th dictionary key that is an
//! identifier with at least 100 occurrences, up to 300). Baseline: the same
//! client's cheapest call, a JSON-RPC `ping`, sent alternately with the queries
//! so both see the same machine. DESIGN.md's budgets: query p50 at most 1 ms
//! above the ping's p50, answers of median at most 4 KB.
//!
//! Runs on `$CG_BENCH_INDEX` (an indexed project root), default `~/corpus/kubernetes`
//! when indexed; otherwise it says so and exits.
//!
//!     cargo bench --bench mcp
//!     CG_BENCH_BIN=/tmp/cg-old cargo bench --bench mcp   (another build of cg)

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use codegraph::project::Index;
use codegraph::query::{search, Mode, Query};
use fst::Streamer;
use serde_json::json;

/// Terms named at least this often count as common.
const COMMON: u64 = 100;

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
    let mut keys = Vec::new();
    let mut i = 0u64;
    while let Some((k, _)) = stream.next() {
        i += 1;
        if i.is_multiple_of(7) {
            keys.extend(std::str::from_utf8(k).ok().map(str::to_string));
        }
    }
    drop(stream);
    let identifier = |t: &str| {
        t.len() >= 3
            && t.starts_with(|c: char| c.is_ascii_alphabetic())
            && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let mut terms = Vec::new();
    for k in keys.iter().filter(|k| identifier(k)) {
        let total = search(&index, &Query::new(k, Mode::Exact)).map_or(0, |m| m.total);
        if total >= COMMON {
            terms.push(k.clone());
        }
        if terms.len() == 300 {
            break;
        }
    }
    if terms.is_empty() {
        eprintln!("mcp bench: no identifier in {} is named {COMMON} times", root.display());
        return;
    }

    // `CG_BENCH_BIN=path` runs another build of cg (to compare two).
    let bin = std::env::var_os("CG_BENCH_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_cg")), PathBuf::from);
    let mut child = Command::new(bin)
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
    let ping = json!({"jsonrpc": "2.0", "method": "ping"});
    for (n, t) in terms.iter().enumerate() {
        call(1 + 2 * n as u64, request(t), &mut line); // warm
        call(2 + 2 * n as u64, ping.clone(), &mut line);
    }
    let (mut queries, mut pings, mut sizes) = (Vec::new(), Vec::new(), Vec::new());
    let mut id = 100_000;
    for t in &terms {
        id += 2;
        let start = Instant::now();
        call(id, ping.clone(), &mut line);
        pings.push(start.elapsed());
        let start = Instant::now();
        call(id + 1, request(t), &mut line);
        queries.push(start.elapsed());
        // The tool's answer as the agent reads it: the text content.
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        sizes.push(v["result"]["content"][0]["text"].as_str().map_or(0, str::len));
    }
    let _ = child.kill();
    let _ = child.wait();
    let at = |v: &mut Vec<Duration>, p: f64| {
        v.sort();
        v[((v.len() as f64 - 1.0) * p) as usize]
    };
    sizes.sort();
    let (q50, q90, q99) = (at(&mut queries, 0.5), at(&mut queries, 0.9), at(&mut queries, 0.99));
    let (p50, p99) = (at(&mut pings, 0.5), at(&mut pings, 0.99));
    let above = q50.saturating_sub(p50);
    let median = sizes[sizes.len() / 2];
    let verdict = |met: bool| if met { "met" } else { "NOT MET" };
    eprintln!(
        "codegraph_query over stdio on {} ({} common identifiers, named ≥ {COMMON} times):",
        root.display(),
        terms.len()
    );
    eprintln!("  query  p50 {q50:.1?}  p90 {q90:.1?}  p99 {q99:.1?}");
    eprintln!("  ping   p50 {p50:.1?}  p99 {p99:.1?}  (the client's cheapest call)");
    eprintln!("  answer text median {median} bytes, max {} bytes", sizes.last().copied().unwrap_or(0));
    eprintln!(
        "  {:<8} query p50 {above:.1?} above ping p50 (budget ≤ 1 ms)",
        verdict(above <= Duration::from_millis(1))
    );
    eprintln!("  {:<8} answer median {median} bytes (budget ≤ 4096)", verdict(median <= 4096));
}

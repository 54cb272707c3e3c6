//! `codegraph_query` round trips over stdio, measured from outside the way an
//! agent's client sees them: `cg mcp` as a child process, one request at a
//! time, the default answer (about 4 KB of the best matches, line text
//! included), as Claude Code calls it.
//!
//! Terms: common identifiers of the tree (every 7th dictionary key that is an
//! identifier with at least 100 occurrences, up to 300). Baseline: the same
//! client's cheapest call, a JSON-RPC `ping`, sent alternately with the queries
//! so both see the same machine. docs/budgets.md: query p50 at most 1 ms
//! above the ping's p50, answers of median at most 4 KB.
//!
//! Runs on `$CG_BENCH_INDEX` (an indexed project root), default `~/corpus/kubernetes`
//! when indexed; otherwise it says so and exits.
//!
//!     cargo bench --bench mcp
//!     CG_BENCH_BIN=/tmp/cg-old cargo bench --bench mcp   (another build of cg)

use std::path::{Path, PathBuf};
use std::time::Duration;

use codegraph::mcp::client::{common_identifiers, round_trips, COMMON};
use codegraph::project::Index;

fn main() {
    let root = std::env::var_os("CG_BENCH_INDEX")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(&std::env::var_os("HOME").unwrap_or_default()).join("corpus/kubernetes"));
    let Ok(index) = Index::open(&root) else {
        eprintln!("mcp bench: no index at {} (run `cg init` there or set CG_BENCH_INDEX)", root.display());
        return;
    };
    let terms = common_identifiers(&index, 300, COMMON);
    drop(index);
    if terms.is_empty() {
        eprintln!("mcp bench: no identifier in {} is named {COMMON} times", root.display());
        return;
    }
    // `CG_BENCH_BIN=path` runs another build of cg (to compare two).
    let bin = std::env::var_os("CG_BENCH_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_cg")), PathBuf::from);
    let mut m = round_trips(&bin, &root, &terms).expect("run cg mcp");
    let at = |v: &mut Vec<Duration>, p: f64| {
        v.sort();
        v[((v.len() as f64 - 1.0) * p) as usize]
    };
    m.sizes.sort();
    let (q50, q90, q99) = (at(&mut m.queries, 0.5), at(&mut m.queries, 0.9), at(&mut m.queries, 0.99));
    let (p50, p99) = (at(&mut m.pings, 0.5), at(&mut m.pings, 0.99));
    let above = q50.saturating_sub(p50);
    let median = m.sizes[m.sizes.len() / 2];
    let verdict = |met: bool| if met { "met" } else { "NOT MET" };
    eprintln!(
        "codegraph_query over stdio on {} ({} common identifiers, named ≥ {COMMON} times):",
        root.display(),
        terms.len()
    );
    eprintln!("  query  p50 {q50:.1?}  p90 {q90:.1?}  p99 {q99:.1?}");
    eprintln!("  ping   p50 {p50:.1?}  p99 {p99:.1?}  (the client's cheapest call)");
    eprintln!("  answer text median {median} bytes, max {} bytes", m.sizes.last().copied().unwrap_or(0));
    eprintln!(
        "  {:<8} query p50 {above:.1?} above ping p50 (budget ≤ 1 ms)",
        verdict(above <= Duration::from_millis(1))
    );
    eprintln!("  {:<8} answer median {median} bytes (budget ≤ 4096)", verdict(median <= 4096));
}

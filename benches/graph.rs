//! Graph query latency on an indexed tree, without building one: `refs`,
//! `callers`, `callees`, the symbol card, symbol search and the context bundle
//! for the methods `cg bench` samples
//! (the same seed and generator), each with a fresh `Graph` as one MCP call
//! has, after one warm-up pass (whose p50 is printed too); with the archives
//! each query read.
//!
//! Runs on `$CG_BENCH_INDEX` (a project root with a `.codegraph`), default
//! `~/corpus/kubernetes` when it is indexed. For profiling one row:
//!
//!     CG_BENCH_INDEX=~/union cargo bench --bench graph
//!     CG_BENCH_ROWS=refs CG_BENCH_QUERIES=300 cargo bench --bench graph
//!     CG_BENCH_ROWS=search,context cargo bench --bench graph
//!     CG_BENCH_ROWS=search_sentence,context_sentence cargo bench --bench graph
//!     CG_BENCH_ROWS=impact cargo bench --bench graph   (`cg impact --depth 3`)
//!     CG_BENCH_ROWS=refs CG_BENCH_SYMBOL=transport.tlsListener.Close CG_BENCH_EACH=1 cargo bench --bench graph
//!     CG_BENCH_ROWS=card CG_BENCH_SYMBOLS=symbols.txt CG_BENCH_PASSES=20 cargo bench --bench graph
//!
//! (`CG_BENCH_SYMBOLS`: a file of symbols, one per line, instead of the sample;
//! `CG_BENCH_PASSES`: timed passes over them, for a profiler to see more of them.
//! The `_sentence` rows ask `cg bench`'s sentences, the first sentences of
//! sampled doc comments, instead of the methods.)

/// The allocator `cg` runs with (src/main.rs): what costs allocation here is
/// what it costs a user (the graph bench on the four corpora, 100 methods, two
/// alternating runs: refs p50 1.2 ms with glibc's malloc, 0.46-0.48 ms with
/// mimalloc, as `cg bench` measures).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use codegraph::extract::words::subwords;
use codegraph::graph::Graph;
use codegraph::project::sample::{doc_sentences, methods, XorShift};
use codegraph::project::Index;

fn index_root() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CG_BENCH_INDEX") {
        return Some(PathBuf::from(p));
    }
    let k8s = Path::new(&std::env::var_os("HOME").unwrap_or_default()).join("corpus/kubernetes");
    k8s.join(".codegraph/manifest.json").exists().then_some(k8s)
}

fn at(v: &[Duration], p: f64) -> Duration {
    v[((v.len() as f64 - 1.0) * p) as usize]
}

/// And the memory settings of `cg`'s commands that answer questions
/// (src/main.rs `no_huge_pages`).
#[allow(unsafe_code)]
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

fn main() {
    no_huge_pages();
    let Some(root) = index_root() else {
        eprintln!("graph bench: no index (set CG_BENCH_INDEX to an indexed project root)");
        return;
    };
    let index = Index::open(&root).expect("open the index");
    let n: usize = std::env::var("CG_BENCH_QUERIES").ok().and_then(|s| s.parse().ok()).unwrap_or(100);
    let rows = std::env::var("CG_BENCH_ROWS").unwrap_or_else(|_| "refs,callers,callees,symbol".into());
    // The sample of `cg bench` (src/cli/bench.rs, graph_queries), seed 42.
    let files = index.files().expect("files");
    let mut symbols: Vec<String> =
        methods(&index, n, 42).expect("sample methods").into_iter().map(|(q, _)| q).collect();
    // `CG_BENCH_SYMBOL=S` times S alone, as many times as queries (to profile it).
    if let Ok(s) = std::env::var("CG_BENCH_SYMBOL") {
        symbols = vec![s; n];
    }
    if let Some(p) = std::env::var_os("CG_BENCH_SYMBOLS") {
        let text = std::fs::read_to_string(&p).expect("read CG_BENCH_SYMBOLS");
        symbols = text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
    }
    // `CG_BENCH_ROWS=resolve`: what resolving every reference at build time
    // would cost (docs/budgets.md's refs budget asks for answers a stored,
    // resolved graph would give): every reference of `CG_BENCH_FILES` sampled
    // files (default 2,000), one `Graph` for them all, as one build thread
    // would keep; the total scaled to the index's files.
    if rows.split(',').any(|r| r == "resolve") {
        let want: usize = std::env::var("CG_BENCH_FILES").ok().and_then(|s| s.parse().ok()).unwrap_or(2000);
        let mut rng = XorShift(7 ^ 0x9e37_79b9_7f4a_7c15 | 1);
        let keys: Vec<_> = (0..want.min(files.len()))
            .map(|_| {
                let x = &files[(rng.next_u64() % files.len() as u64) as usize];
                (x.segment, x.slot_id)
            })
            .collect();
        let g = Graph::new(&index);
        let (mut refs, mut bound, mut ambiguous, mut read) = (0u64, 0u64, 0u64, Duration::ZERO);
        let t = Instant::now();
        for &key in &keys {
            let r0 = Instant::now();
            let Ok(f) = g.file(key) else { continue };
            read += r0.elapsed();
            for r in &f.refs {
                refs += 1;
                if let Ok(res) = g.resolve(&f, r) {
                    bound += !res.defs.is_empty() as u64;
                    ambiguous += res.ambiguous as u64;
                }
            }
        }
        let all = t.elapsed();
        let per_ref = (all - read).as_secs_f64() / refs.max(1) as f64;
        let scale = files.len() as f64 / keys.len().max(1) as f64;
        eprintln!(
            "resolve  {} files, {refs} references ({bound} bound, {ambiguous} ambiguous) in {all:.2?} ({read:.2?} reading archives): {:.2} µs per reference; the index's {} files: ~{:.0} CPU-s",
            keys.len(),
            per_ref * 1e6,
            files.len(),
            all.as_secs_f64() * scale,
        );
    }
    let passes: usize = std::env::var("CG_BENCH_PASSES").ok().and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    eprintln!("index: {} ({} sampled methods)", root.display(), symbols.len());
    // `CG_BENCH_ROWS=same`: whether the generation's resolved graph (`cg
    // resolve`) answers each sampled method's refs (with the count of other
    // lines), callers to depth 2 and impact at depth 2 as question-time
    // resolution does; the methods answered differently are named. And
    // whether `find` names the same definitions as looking through every
    // definition of the name does.
    if rows.split(',').any(|r| r == "same") {
        let (mut same, mut differ) = (0, 0);
        for s in &symbols {
            let ask = |g: &Graph| {
                let Ok(defs) = g.find(s) else { return String::new() };
                format!(
                    "{:#?}\n{:#?}\n{:#?}",
                    g.refs_counted(&defs, &[]).ok(),
                    g.callers(&defs, 2).ok(),
                    g.impact(s, 2).ok().map(|i| (i.callers, i.tests))
                )
            };
            let stored = ask(&Graph::new(&index));
            let asked = ask(&Graph::new(&index).question_time());
            if stored == asked {
                same += 1;
            } else {
                differ += 1;
                // Question time narrows the files it reads; reading them all
                // is what the stored answers were made as.
                let all = ask(&Graph::new(&index).exhaustive());
                let which = if all == stored {
                    "as reading every file does"
                } else if all == asked {
                    "differs; question time answers as reading every file does"
                } else {
                    "reading every file differs from both"
                };
                eprintln!("  differs: {s} (stored {which})");
                if std::env::var_os("CG_BENCH_EACH").is_some() {
                    // The first lines that differ.
                    let (a, b): (Vec<&str>, Vec<&str>) = (stored.lines().collect(), asked.lines().collect());
                    for (x, y) in a.iter().zip(&b).filter(|(x, y)| x != y).take(3) {
                        eprintln!("    stored:        {x}\n    question time: {y}");
                    }
                }
            }
        }
        eprintln!("same     {same} of {} methods answered alike, {differ} differently", same + differ);
        // The qualified names found through the definitions' qualifier index
        // (names of many definitions) against looking through every one.
        let found = |g: &Graph, s: &str| format!("{:?}", g.find(s).map_err(|e| e.to_string()));
        let alike =
            symbols.iter().filter(|s| found(&Graph::new(&index), s) == found(&Graph::new(&index).exhaustive(), s));
        eprintln!("find     {} of {} methods found alike through the qualifier index", alike.count(), symbols.len());
    }
    let question_time = std::env::var_os("CG_BENCH_QUESTION_TIME").is_some();
    // The sentences of `cg bench`'s sentence rows (seed 42), each with its file.
    let sentences =
        if rows.contains("_sentence") { doc_sentences(&index, n, 42).expect("sample sentences") } else { Vec::new() };
    for row in rows.split(',').filter(|&r| r != "resolve" && r != "same") {
        let run = |symbol: &str| -> (u64, usize) {
            let g = if question_time { Graph::new(&index).question_time() } else { Graph::new(&index) };
            // A sentence's rows (`symbol` is the sentence): found when its
            // file is among search's first 5 files / the bundle's snippets,
            // as `cg bench` counts.
            if let Some(file) =
                row.ends_with("_sentence").then(|| sentences.iter().find(|(t, _)| t == symbol)).flatten()
            {
                let file = file.1.as_str();
                let found = if row == "search_sentence" {
                    g.search_by(symbol, 10, codegraph::graph::SearchMode::Lexical, None).map_or(0, |r| {
                        let mut files: Vec<&str> = Vec::new();
                        for h in &r.hits {
                            if !files.contains(&h.file.as_str()) {
                                files.push(&h.file);
                            }
                        }
                        files.iter().take(5).any(|f| *f == file) as u64
                    })
                } else {
                    g.context(symbol, codegraph::graph::DEFAULT_BUDGET, &[])
                        .map_or(0, |b| b.snippets.iter().any(|s| s.path == file) as u64)
                };
                return (found, g.files_read());
            }
            // `search` and `context` take the method's name as words, as
            // `cg bench` does ("get user by id"; the task "fix get user by id").
            if row == "search" || row == "context" {
                let name = symbol.rsplit(['.', ':']).next().unwrap_or(symbol);
                let words = subwords(name).collect::<Vec<_>>().join(" ").to_lowercase();
                let found = if row == "search" {
                    g.search(&words, 10).map_or(0, |r| r.hits.iter().any(|h| h.name == name) as u64)
                } else {
                    g.context(&format!("fix {words}"), codegraph::graph::DEFAULT_BUDGET, &[]).map_or(0, |b| {
                        b.focus.iter().any(|f| f.qualified_name.as_deref().is_some_and(|q| q.ends_with(name))) as u64
                    })
                };
                return (found, g.files_read());
            }
            let Ok(defs) = g.find(symbol) else { return (0, 0) };
            let found = match row {
                "refs" => g.refs(&defs, &[]).map_or(0, |r| r.len() as u64),
                "callers" => g.callers(&defs, 1).map_or(0, |r| r.len() as u64),
                "callees" => g.callees(defs[0], 1).map_or(0, |r| r.len() as u64),
                "impact" => g.impact(symbol, 3).map_or(0, |i| i.callers.len() as u64),
                "find" => defs.len() as u64,
                _ => g.card(defs[0]).map_or(0, |c| 1 + c.calls_total as u64 + c.called_by_total as u64),
            };
            (found, g.files_read())
        };
        // The first pass fills what an opened index keeps between questions (the
        // definitions of common names, go.mod files): its p50 is a new server's.
        let asked: Vec<String> = if row.ends_with("_sentence") {
            sentences.iter().map(|(t, _)| t.clone()).collect()
        } else {
            symbols.clone()
        };
        let mut first: Vec<Duration> = asked
            .iter()
            .map(|s| {
                let t = Instant::now();
                run(s);
                t.elapsed()
            })
            .collect();
        first.sort();
        let (mut times, mut found, mut reads) = (Vec::new(), 0, Vec::new());
        for s in asked.iter().cycle().take(asked.len() * passes) {
            let t = Instant::now();
            let (f, r) = run(s);
            times.push(t.elapsed());
            if std::env::var_os("CG_BENCH_EACH").is_some() {
                eprintln!("  {row} {s}: {:.1?}, {f} found, {r} archives", t.elapsed());
            }
            found += f;
            reads.push(r);
        }
        times.sort();
        reads.sort();
        eprintln!(
            "{row:<8} p50 {:>9.1?}  p90 {:>9.1?}  p99 {:>9.1?}  max {:>9.1?}  (first pass p50 {:>9.1?})  found {found}  archives read p50 {} p90 {} max {}",
            at(&times, 0.5),
            at(&times, 0.9),
            at(&times, 0.99),
            at(&times, 1.0),
            at(&first, 0.5),
            reads[reads.len() / 2],
            reads[reads.len() * 9 / 10],
            reads[reads.len() - 1],
        );
    }
}

//! `cg bench [PATH]`: how fast codegraph indexes a tree and answers, on this machine.
//!
//! Indexes PATH into a temporary folder (PATH's own `.codegraph` is not touched),
//! after a parse-only pass over the same files and threads (the physical limit of
//! the build), then opens the snapshot and times queries on a seeded sample of the
//! index's own terms. Progress on stderr; a table (or `--json`) on stdout.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use codegraph::extract::{self, WalkOptions};
use codegraph::index::{self, BuildOptions, Progress};
use codegraph::project::sample::{doc_sentences, methods, XorShift};
use codegraph::project::Index;
use codegraph::query::{search, Mode, Query};
use codegraph::snapshot::{Section, Segment};
use fst::Streamer;
use serde_json::{json, Value};

#[derive(clap::Args)]
pub struct Args {
    /// The tree to measure (default: the current directory).
    path: Option<PathBuf>,
    /// Threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Queries per mode.
    #[arg(long, default_value_t = 300)]
    queries: usize,
    /// Seed of the term sample.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Also time ripgrep (`rg -w -i`) on a sample of the exact terms.
    #[arg(long)]
    vs_rg: bool,
    /// Build with this model's static vectors (`cg model list`), and time
    /// embedding and semantic / hybrid search too.
    #[arg(long, value_name = "NAME")]
    model: Option<String>,
    /// Leave out refs, callers, callees and the symbol card (slow on the largest
    /// trees); search and context are still timed.
    #[arg(long)]
    no_graph: bool,
    /// Also build without graph facts (references, calls, imports) and compare
    /// build time and snapshot size: docs/budgets.md's "graph facts' cost" row.
    #[arg(long)]
    graph_cost: bool,
    /// Times the parse-only pass and the full build this many times,
    /// alternated, and reports the pair whose ratio is the median (a machine
    /// whose speed drifts between the two passes skews a single pair).
    #[arg(long, default_value_t = 1, value_name = "N")]
    build_runs: usize,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / 1048576.0
}

fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
}

fn note(msg: &str) {
    if io::stderr().is_terminal() {
        eprint!("\r\x1b[Kcg bench: {msg}");
    } else {
        eprintln!("cg bench: {msg}");
    }
}

struct Percentiles {
    p50: Duration,
    p90: Duration,
    p99: Duration,
    max: Duration,
    n: usize,
}

fn percentiles(mut v: Vec<Duration>) -> Option<Percentiles> {
    if v.is_empty() {
        return None;
    }
    v.sort();
    let at = |p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
    Some(Percentiles { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1.0), n: v.len() })
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

pub fn run(args: Args) -> Result<()> {
    let root = args.path.clone().unwrap_or_else(|| PathBuf::from("."));
    let root = std::fs::canonicalize(&root).with_context(|| format!("{}: does not exist", root.display()))?;
    let model = match &args.model {
        Some(name) => Some(codegraph::embed::ModelStore::from_env()?.cached_static(name)?),
        None => None,
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let threads = pool.current_num_threads();

    // 1. Walk, then the parse-only baseline over the same files and threads.
    note("walking");
    let started = Instant::now();
    let walk = extract::walk(&root, &WalkOptions::default())?;
    let walk_time = started.elapsed();
    // 2. The full build into a temporary folder, each after a parse-only pass.
    let dir = std::env::temp_dir().join(format!("cg-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let _cleanup = Cleanup(dir.clone());
    let total = walk.files.len();
    let runs = args.build_runs.max(1);
    let build_options = BuildOptions { model: model.clone(), ..BuildOptions::default() };
    let mut pairs = Vec::with_capacity(runs);
    let mut names = Vec::new();
    for run in 0..runs {
        let of = if runs > 1 { format!(" (run {} of {runs})", run + 1) } else { String::new() };
        note(&format!("parse-only pass over {} files{of}", walk.files.len()));
        let started = Instant::now();
        let parsed_bytes = pool.install(|| extract::parse_files(&walk.files, extract::DEFAULT_MAX_FILE_BYTES));
        let parse_time = started.elapsed();
        names.clear();
        let mut sink = |i: u32, bytes: Vec<u8>| -> io::Result<()> {
            let name = format!("seg-{i:04}.cgs");
            std::fs::write(dir.join(&name), bytes)?;
            names.push(name);
            Ok(())
        };
        let progress = |p: Progress| note(&format!("indexing {}/{} files{of}", p.files_done, total));
        let started = Instant::now();
        let summary = pool.install(|| index::build(&root, &build_options, &mut sink, &progress))?;
        pairs.push((parse_time, started.elapsed(), parsed_bytes, summary));
    }
    let ratios: Vec<f64> = pairs.iter().map(|(p, b, ..)| secs(*p) / secs(*b).max(1e-9)).collect();
    let mut order: Vec<usize> = (0..runs).collect();
    order.sort_by(|&a, &b| ratios[a].total_cmp(&ratios[b]));
    let (parse_time, build_time, parsed_bytes, summary) = pairs.swap_remove(order[runs / 2]);
    let peak = peak_rss_bytes();
    let snapshot_bytes: u64 = names.iter().filter_map(|n| std::fs::metadata(dir.join(n)).ok()).map(|m| m.len()).sum();
    // The build's bytes by section, and the same tree built without graph facts.
    let (sections, without_graph) = match args.graph_cost {
        true => (section_lengths(&dir, &names)?, Some(build_without_graph(&root, &pool, &build_options, total)?)),
        false => (Vec::new(), None),
    };

    // 3. Open and query, with the memory settings of the commands that ask
    // questions (`cg mcp` and the others: no transparent huge pages; the
    // build above keeps them, as `cg init` does).
    note("opening and querying");
    crate::no_huge_pages();
    let mut opens = Vec::new();
    for _ in 0..50 {
        let t = Instant::now();
        let i = Index::open_in(&dir, &root, &names)?;
        opens.push(t.elapsed());
        drop(i);
    }
    let index = Index::open_in(&dir, &root, &names)?;
    let terms = sample_terms(&index, args.queries, args.seed)?;
    let mut modes: Vec<(Mode, Option<Percentiles>, u64)> = Vec::new();
    let subword_terms = sample_subwords(&index, args.queries, args.seed)?;
    for mode in [Mode::Exact, Mode::StartsWith, Mode::Contains, Mode::Regex, Mode::Subword] {
        let sample = if mode == Mode::Subword { &subword_terms } else { &terms };
        let queries: Vec<Query> = sample.iter().map(|t| query_for(t, mode)).collect();
        // Warm: first-use checks, and the page faults of first touching each
        // query's part of the map (docs/budgets.md's budgets are for a warm index).
        for q in &queries {
            let _ = search(&index, q);
        }
        let mut times = Vec::with_capacity(queries.len());
        let mut matches = 0u64;
        for q in &queries {
            let t = Instant::now();
            let r = search(&index, q);
            times.push(t.elapsed());
            matches += r.map(|m| m.total).unwrap_or(0);
        }
        modes.push((mode, percentiles(times), matches));
    }
    let embedding = match &model {
        Some(m) => {
            note("embedding rate");
            Some(embed_rate(&index, m, &pool)?)
        }
        None => None,
    };
    let transformer = match &args.model {
        Some(name) => {
            note("transformer rate (a sample of 512 definitions)");
            Some(transformer_rate(&index, name, &pool)?)
        }
        None => None,
    };
    note("graph queries");
    let (graph, resolving) = graph_queries(&index, args.queries, args.seed, model.as_deref(), args.no_graph)?;
    let rg = if args.vs_rg { ripgrep(&root, &dir, &terms, &index) } else { None };
    note("MCP round trips");
    let mcp = mcp_round_trips(&root);
    if io::stderr().is_terminal() {
        eprint!("\r\x1b[K");
    }

    let source_bytes = summary.bytes;
    let open = percentiles(opens);
    let t = &summary.timings;
    let budgets = verdicts(&Measured {
        threads,
        parse: parse_time,
        build: build_time,
        walk: summary.walk_time,
        timings: t,
        snapshot_bytes,
        source_bytes,
        peak,
        open: open.as_ref(),
        modes: &modes,
        graph: &graph,
        resolving: resolving.as_ref(),
        embedding,
        transformer,
        mcp: &mcp,
        without_graph: without_graph.as_ref(),
    });
    let mut out = io::stdout().lock();
    if args.json {
        let mode_json: Vec<Value> = modes
            .iter()
            .map(|(m, p, matches)| {
                json!({"mode": m.name(), "queries": p.as_ref().map_or(0, |p| p.n), "total_matches": matches,
                  "p50_us": p.as_ref().map(|p| micros(p.p50)), "p90_us": p.as_ref().map(|p| micros(p.p90)),
                  "p99_us": p.as_ref().map(|p| micros(p.p99)), "max_us": p.as_ref().map(|p| micros(p.max))})
            })
            .collect();
        let v = json!({
            "path": root, "threads": threads, "files": summary.files, "source_bytes": source_bytes,
            "skipped": summary.skipped.len(),
            "walk_s": secs(summary.walk_time), "first_walk_s": secs(walk_time), "parse_only_s": secs(parse_time), "parse_only_mib_s": mib(parsed_bytes) / secs(parse_time),
            "build_s": secs(build_time), "build_mib_s": mib(source_bytes) / secs(build_time),
            "build_vs_parse_only": secs(parse_time) / secs(build_time), "build_runs_ratios": ratios,
            "phases_cpu_s": {"read": secs(t.read), "extract": secs(t.extract), "prepare": secs(t.prepare)},
            "phases_s": {"add": secs(t.add), "settle": secs(t.settle), "finish": secs(t.finish),
                "finish_pool": secs(t.finish_pool), "write": secs(t.write), "rounds": t.rounds,
                "extract_longer": secs(t.extract_longer), "add_longer": secs(t.add_longer)},
            "languages": summary.languages.iter().map(|(l, s)| (l.name().to_string(), json!({
                "files": s.files, "bytes": s.bytes, "extract_cpu_s": secs(s.extract),
                "mib_s_per_thread": mib(s.bytes) / secs(s.extract).max(1e-9)}))).collect::<serde_json::Map<_, _>>(),
            "snapshot_bytes": snapshot_bytes, "snapshot_ratio": snapshot_bytes as f64 / source_bytes.max(1) as f64,
            "without_graph_facts": without_graph.as_ref().map(|w| json!({"build_s": secs(w.build),
                "snapshot_bytes": w.snapshot_bytes, "phases_cpu_s": {"read": secs(w.timings.read),
                "extract": secs(w.timings.extract)}, "phases_s": {"add": secs(w.timings.add),
                "settle": secs(w.timings.settle), "finish": secs(w.timings.finish),
                "finish_pool": secs(w.timings.finish_pool), "write": secs(w.timings.write)},
                "section_bytes": w.sections.iter().map(|(s, b)| (s.name().to_string(), json!(b))).collect::<serde_json::Map<_, _>>()})),
            "section_bytes": sections.iter().map(|(s, b)| (s.name().to_string(), json!(b))).collect::<serde_json::Map<_, _>>(),
            "peak_rss_bytes": peak,
            "open_p50_us": open.as_ref().map(|p| micros(p.p50)),
            "embedding": embedding.map(|(chunks, d)| json!({"model": args.model, "chunks": chunks, "s": secs(d),
                "chunks_per_s": chunks as f64 / secs(d).max(1e-9), "threads": threads})),
            "transformer": transformer.map(|(chunks, tokens, d)| json!({"model": args.model, "chunks": chunks,
                "tokens": tokens, "s": secs(d), "chunks_per_s": chunks as f64 / secs(d).max(1e-9), "threads": threads})),
            "queries": mode_json,
            "resolved_graph": resolving.as_ref().map(|(took, stats, threads)| json!({"s": secs(*took),
                "threads": threads, "stats": stats})),
            "graph_queries": graph.iter().map(|(name, p, found)| json!({"query": name, "symbols": p.as_ref().map_or(0, |p| p.n),
                "results": found, "p50_us": p.as_ref().map(|p| micros(p.p50)), "p90_us": p.as_ref().map(|p| micros(p.p90)),
                "p99_us": p.as_ref().map(|p| micros(p.p99)), "max_us": p.as_ref().map(|p| micros(p.max))})).collect::<Vec<_>>(),
            "mcp": match &mcp {
                Ok(t) => json!({"query_p50_us": micros(t.query.p50), "query_p90_us": micros(t.query.p90),
                    "query_p99_us": micros(t.query.p99), "ping_p50_us": micros(t.ping.p50), "terms": t.query.n,
                    "answer_median_bytes": t.median_bytes}),
                Err(why) => json!({"not_measured": why}),
            },
            "budgets": budgets.iter().map(|v| json!({"what": v.what, "budget": v.budget, "measured": v.measured,
                "met": v.met})).collect::<Vec<_>>(),
            "ripgrep": rg.as_ref().map(|v| json!({
                "rg_process_median_ms": v.rg.as_secs_f64() * 1e3,
                "cg_query_process_median_ms": v.cg_process.as_secs_f64() * 1e3,
                "cg_exact_in_process_median_us": micros(v.cg_in_process),
                "process_ratio": v.rg.as_secs_f64() / v.cg_process.as_secs_f64().max(1e-12)})),
        });
        serde_json::to_writer(&mut out, &v)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(out, "cg bench {} ({threads} threads)", root.display())?;
    writeln!(
        out,
        "  files {:>10}   source {:>9.1} MiB   skipped {}",
        summary.files,
        mib(source_bytes),
        summary.skipped.len()
    )?;
    writeln!(out, "\nindexing")?;
    writeln!(
        out,
        "  walk                 {:>8.2} s   (the build's own; the first, before the parse-only pass: {:.2} s)",
        secs(summary.walk_time),
        secs(walk_time)
    )?;
    writeln!(
        out,
        "  parse only           {:>8.2} s   {:>7.1} MiB/s   {:>7.0} files/s",
        secs(parse_time),
        mib(parsed_bytes) / secs(parse_time),
        total as f64 / secs(parse_time)
    )?;
    writeln!(
        out,
        "  full build           {:>8.2} s   {:>7.1} MiB/s   {:>7.0} files/s   {:.0}% of parse-only",
        secs(build_time),
        mib(source_bytes) / secs(build_time),
        summary.files as f64 / secs(build_time),
        100.0 * secs(parse_time) / secs(build_time)
    )?;
    if ratios.len() > 1 {
        let all: Vec<String> = ratios.iter().map(|r| format!("{:.0}%", 100.0 * r)).collect();
        writeln!(out, "    the median of {} alternated runs: {}", ratios.len(), all.join(", "))?;
    }
    writeln!(out, "    read (cpu, all threads)      {:>8.2} s", secs(t.read))?;
    writeln!(out, "    parse+extract (cpu)          {:>8.2} s", secs(t.extract))?;
    writeln!(out, "    prepare (cpu: archives)      {:>8.2} s", secs(t.prepare))?;
    writeln!(out, "    slots (add, one thread)      {:>8.2} s", secs(t.add))?;
    writeln!(out, "    terms+definitions (settle)   {:>8.2} s", secs(t.settle))?;
    writeln!(
        out,
        "    segments (finish)            {:>8.2} s   ({:.2} s of it on the pool)",
        secs(t.finish),
        secs(t.finish_pool)
    )?;
    writeln!(out, "    write                        {:>8.2} s", secs(t.write))?;
    writeln!(
        out,
        "    {} rounds: extracting longer than adding by {:.2} s, adding longer by {:.2} s (wall)",
        t.rounds,
        secs(t.extract_longer),
        secs(t.add_longer)
    )?;
    for (lang, s) in &summary.languages {
        writeln!(
            out,
            "  {:<11} {:>7} files {:>9.1} MiB   {:>6.1} MiB/s per thread",
            lang.name(),
            s.files,
            mib(s.bytes),
            mib(s.bytes) / secs(s.extract).max(1e-9)
        )?;
    }
    writeln!(
        out,
        "  snapshot  {:>9.1} MiB = {:.1}% of source    peak memory {}",
        mib(snapshot_bytes),
        100.0 * snapshot_bytes as f64 / source_bytes.max(1) as f64,
        peak.map_or("?".to_string(), |b| format!("{:.0} MiB", mib(b)))
    )?;
    if let Some(w) = &without_graph {
        writeln!(
            out,
            "  without graph facts  {:>8.2} s   snapshot {:.1} MiB   (read {:.2} s, parse+extract {:.2} s cpu; \
             add {:.2} s, finish {:.2} s, write {:.2} s)",
            secs(w.build),
            mib(w.snapshot_bytes),
            secs(w.timings.read),
            secs(w.timings.extract),
            secs(w.timings.add),
            secs(w.timings.finish),
            secs(w.timings.write)
        )?;
        let mut grown: Vec<(Section, i64)> = sections
            .iter()
            .zip(&w.sections)
            .map(|(&(s, with), &(_, without))| (s, with as i64 - without as i64))
            .filter(|&(_, d)| d.unsigned_abs() >= 1 << 16)
            .collect();
        grown.sort_by_key(|&(_, d)| std::cmp::Reverse(d));
        let grown: Vec<String> =
            grown.iter().map(|(s, d)| format!("{} {:+.1} MiB", s.name(), *d as f64 / 1048576.0)).collect();
        writeln!(out, "    the graph facts' bytes: {}", grown.join(", "))?;
    }
    if let Some((chunks, d)) = embedding {
        writeln!(
            out,
            "  static vectors ({}): {} types and functions embedded in {:.2} s = {:.0} chunks/s ({threads} threads)",
            args.model.as_deref().unwrap_or(""),
            chunks,
            secs(d),
            chunks as f64 / secs(d).max(1e-9)
        )?;
    }
    if let Some((chunks, tokens, d)) = transformer {
        writeln!(
            out,
            "  transformer ({}): {} sampled definitions ({} tokens) in {:.2} s = {:.1} chunks/s ({threads} threads)",
            args.model.as_deref().unwrap_or(""),
            chunks,
            tokens,
            secs(d),
            chunks as f64 / secs(d).max(1e-9)
        )?;
    }
    writeln!(out, "\nqueries (first 50 hits + total, in-process, warm)")?;
    if let Some(p) = &open {
        writeln!(out, "  {:<12} p50 {:>9.1} µs   p99 {:>9.1} µs", "open", micros(p.p50), micros(p.p99))?;
    }
    for (mode, p, _) in &modes {
        if let Some(p) = p {
            writeln!(
                out,
                "  {:<12} p50 {:>9.1} µs   p90 {:>9.1} µs   p99 {:>9.1} µs   max {:>9.1} µs   (n={})",
                mode.name(),
                micros(p.p50),
                micros(p.p90),
                micros(p.p99),
                micros(p.max),
                p.n
            )?;
        }
    }
    writeln!(out, "\ngraph (sampled methods by qualified name: find + answer, no line text but the card's code, in-process, warm;")?;
    writeln!(
        out,
        "search: the methods' names as words, all subwords / without the first; found = name in the top 10;"
    )?;
    writeln!(
        out,
        "context: \"fix\" and the name's words, 8,000 tokens; found = a definition of that name in the bundle;"
    )?;
    writeln!(
        out,
        "*_sentence: the first sentence of a sampled method's doc comment; found = its file among search's first 5 files / in the bundle)"
    )?;
    for (name, p, found) in &graph {
        if let Some(p) = p {
            let what = if [
                "search",
                "search_part",
                "semantic",
                "hybrid",
                "semantic_transformer",
                "hybrid_transformer",
                "context",
                "search_sentence",
                "context_sentence",
            ]
            .contains(name)
            {
                "found"
            } else {
                "results"
            };
            writeln!(
                out,
                "  {:<20} p50 {:>9.1} µs   p90 {:>9.1} µs   p99 {:>9.1} µs   max {:>9.1} µs   (n={}, {} {what})",
                name,
                micros(p.p50),
                micros(p.p90),
                micros(p.p99),
                micros(p.max),
                p.n,
                found
            )?;
        }
    }
    match rg {
        Some(v) => {
            writeln!(out, "\nripgrep vs cg, same 10 terms, medians:")?;
            writeln!(out, "  rg -w -i process                       {:>10.1} ms", v.rg.as_secs_f64() * 1e3)?;
            writeln!(
                out,
                "  cg query process (end to end, 50 hits)  {:>10.1} ms   {:.0}x faster",
                v.cg_process.as_secs_f64() * 1e3,
                v.rg.as_secs_f64() / v.cg_process.as_secs_f64().max(1e-12)
            )?;
            writeln!(out, "  cg exact lookup, in process            {:>10.1} µs", micros(v.cg_in_process))?;
        }
        None if args.vs_rg => writeln!(out, "\nripgrep: `rg` not found on PATH")?,
        None => {}
    }
    match &mcp {
        Ok(t) => {
            writeln!(out, "\nMCP (cg mcp over stdio from an external client, the tree's own index, codegraph_query with the default answer on {} common identifiers)", t.query.n)?;
            let p = |d: Duration| format!("{:>9.1} µs", micros(d));
            writeln!(out, "  query  p50 {}   p90 {}   p99 {}", p(t.query.p50), p(t.query.p90), p(t.query.p99))?;
            writeln!(out, "  ping   p50 {}   p99 {}   (the client's cheapest call)", p(t.ping.p50), p(t.ping.p99))?;
            writeln!(out, "  answer text median {} bytes", t.median_bytes)?;
        }
        Err(why) => writeln!(out, "\nMCP: not measured ({why})")?,
    }
    writeln!(
        out,
        "\nbudgets (docs/budgets.md: the four budget corpora together, 2 cores; other trees show the shape)"
    )?;
    for v in &budgets {
        let verdict = match v.met {
            Some(true) => "met",
            Some(false) => "NOT MET",
            None => "-",
        };
        writeln!(out, "  {:<8} {:<32} {:<44} {}", verdict, v.what, v.budget, v.measured)?;
    }
    Ok(())
}

/// One row of docs/budgets.md's table as this run measured it.
struct Verdict {
    what: &'static str,
    budget: &'static str,
    /// What was measured, or how to measure it when this run does not.
    measured: String,
    /// `None`: not measured by this run.
    met: Option<bool>,
}

/// Everything a run measured, for [`verdicts`].
struct Measured<'a> {
    threads: usize,
    parse: Duration,
    build: Duration,
    /// The build's own walk (in its wall time), not the first one.
    walk: Duration,
    timings: &'a index::BuildTimings,
    snapshot_bytes: u64,
    source_bytes: u64,
    peak: Option<u64>,
    open: Option<&'a Percentiles>,
    modes: &'a [(Mode, Option<Percentiles>, u64)],
    graph: &'a [(&'static str, Option<Percentiles>, u64)],
    resolving: Option<&'a Resolving>,
    embedding: Option<(u64, Duration)>,
    transformer: Option<(u64, u64, Duration)>,
    mcp: &'a Result<McpTrips, String>,
    without_graph: Option<&'a WithoutGraph>,
}

/// A build of the same files without graph facts (`--graph-cost`).
struct WithoutGraph {
    build: Duration,
    timings: index::BuildTimings,
    snapshot_bytes: u64,
    /// Bytes per section, over all segments ([`section_lengths`]).
    sections: Vec<(Section, u64)>,
}

/// Bytes per section kind over the segments `names` in `dir`.
fn section_lengths(dir: &Path, names: &[String]) -> Result<Vec<(Section, u64)>> {
    let mut out: Vec<(Section, u64)> = Section::ALL.iter().map(|&s| (s, 0)).collect();
    for name in names {
        let segment = Segment::open(&dir.join(name))?;
        for (s, len) in out.iter_mut() {
            *len += segment.section_len(*s);
        }
    }
    Ok(out)
}

/// Builds the tree again into a temporary folder with graph facts left out.
fn build_without_graph(
    root: &Path,
    pool: &rayon::ThreadPool,
    options: &BuildOptions,
    total: usize,
) -> Result<WithoutGraph> {
    let dir = std::env::temp_dir().join(format!("cg-bench-{}-no-graph", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let _cleanup = Cleanup(dir.clone());
    let mut snapshot_bytes = 0u64;
    let mut names = Vec::new();
    let mut sink = |i: u32, bytes: Vec<u8>| -> io::Result<()> {
        snapshot_bytes += bytes.len() as u64;
        let name = format!("seg-{i:04}.cgs");
        std::fs::write(dir.join(&name), bytes)?;
        names.push(name);
        Ok(())
    };
    let progress = |p: Progress| note(&format!("indexing without graph facts {}/{} files", p.files_done, total));
    let options = BuildOptions { graph_facts: false, ..options.clone() };
    let started = Instant::now();
    let summary = pool.install(|| index::build(root, &options, &mut sink, &progress))?;
    let build = started.elapsed();
    let sections = section_lengths(&dir, &names)?;
    Ok(WithoutGraph { build, timings: summary.timings, snapshot_bytes, sections })
}

/// `codegraph_query` round trips through `cg mcp` from an external stdio client
/// ([`codegraph::mcp::client`]), on the tree's own index.
struct McpTrips {
    query: Percentiles,
    ping: Percentiles,
    median_bytes: usize,
}

/// Terms the MCP round trips are timed on (common identifiers of the tree).
const MCP_TERMS: usize = 300;

/// Times `cg mcp` serving the tree's own index, as an agent's client does (a
/// server serves a project's index where the project keeps it, so the
/// temporary index of this run is not the one served); `Err` says why not.
fn mcp_round_trips(root: &Path) -> Result<McpTrips, String> {
    use codegraph::mcp::client::{common_identifiers, round_trips, COMMON};
    if !root.join(".codegraph/manifest.json").is_file() {
        return Err("the tree has no index of its own (`cg init` it, or `cargo bench --bench mcp`)".into());
    }
    let index = Index::open(root).map_err(|e| format!("the tree's own index: {e}"))?;
    let terms = common_identifiers(&index, MCP_TERMS, COMMON);
    drop(index);
    if terms.is_empty() {
        return Err(format!("no identifier of the tree is named {COMMON} times"));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find cg itself: {e}"))?;
    let mut m = round_trips(&exe, root, &terms).map_err(|e| format!("cg mcp: {e}"))?;
    m.sizes.sort_unstable();
    let median_bytes = m.sizes[m.sizes.len() / 2];
    match (percentiles(m.queries), percentiles(m.pings)) {
        (Some(query), Some(ping)) => Ok(McpTrips { query, ping, median_bytes }),
        _ => Err("no round trip".into()),
    }
}

/// docs/budgets.md's budgets, each with what this run measured and whether it is met.
/// The budgets are for the four budget corpora together on a 2-core machine; a
/// smaller tree only shows the shape.
fn verdicts(m: &Measured<'_>) -> Vec<Verdict> {
    let mut out = Vec::new();
    let mut row = |what, budget, measured: String, met: Option<bool>| out.push(Verdict { what, budget, measured, met });
    let us = |d: Duration| format!("{:.1} µs", micros(d));
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
    let mode = |mode: Mode| m.modes.iter().find(|(x, ..)| *x == mode).and_then(|(_, p, _)| p.as_ref());
    let graph = |name: &str| m.graph.iter().find(|(x, ..)| *x == name).and_then(|(_, p, _)| p.as_ref());
    let not_here = |how: &str| (format!("not measured here: {how}"), None);
    let (text, met) = match mode(Mode::Exact) {
        Some(p) => {
            (format!("p50 {}, p99 {}", us(p.p50), us(p.p99)), Some(micros(p.p50) <= 10.0 && micros(p.p99) <= 100.0))
        }
        None => not_here("no terms"),
    };
    row("exact lookup", "p50 ≤ 10 µs, p99 ≤ 100 µs", text, met);
    for (mode_, what, budget, limit_us) in [
        (Mode::StartsWith, "prefix", "p50 ≤ 50 µs", 50.0),
        (Mode::Contains, "contains", "p50 ≤ 500 µs", 500.0),
        (Mode::Regex, "selective regex", "p50 ≤ 2 ms", 2000.0),
    ] {
        let (text, met) = match mode(mode_) {
            Some(p) => (format!("p50 {}", us(p.p50)), Some(micros(p.p50) <= limit_us)),
            None => not_here("no terms"),
        };
        row(what, budget, text, met);
    }
    let (text, met) = match m.open {
        Some(p) => (format!("p50 {}, p99 {}", us(p.p50), us(p.p99)), Some(micros(p.p99) <= 1000.0)),
        None => not_here("no index"),
    };
    row("open a snapshot", "≤ 1 ms (p99)", text, met);
    let share = secs(m.parse) / secs(m.build).max(1e-9);
    row("full build", "≥ 67% of parse-only", format!("{:.0}% of parse-only", 100.0 * share), Some(share >= 0.67));
    // The parse-only pass keeps every thread busy: its CPU time is about its
    // wall time times the threads.
    // Finish's parts spread over the pool are not one thread's work.
    let one_thread = m.walk + m.timings.add + m.timings.finish.saturating_sub(m.timings.finish_pool) + m.timings.write;
    let cpu = secs(m.parse) * m.threads as f64;
    let share = secs(one_thread) / cpu.max(1e-9);
    row(
        "one-thread build work",
        "≤ 5% of parse-only CPU",
        format!(
            "{:.1}% (walk + add + finish off the pool + write {:.2} s of ~{:.1} s: parse-only wall × {} threads)",
            100.0 * share,
            secs(one_thread),
            cpu,
            m.threads
        ),
        Some(share <= 0.05),
    );
    let ratio = m.snapshot_bytes as f64 / m.source_bytes.max(1) as f64;
    row("snapshot size", "≤ 40% of source", format!("{:.1}% of source", 100.0 * ratio), Some(ratio <= 0.40));
    let (text, met) = match m.peak {
        Some(b) => (format!("{:.0} MiB", mib(b)), Some(b <= 3 << 30)),
        None => not_here("no peak RSS on this system"),
    };
    row("build peak memory", "≤ 3 GB", text, met);
    let ((text, met), (size_text, size_met)) = match m.mcp {
        Ok(t) => {
            let above = t.query.p50.saturating_sub(t.ping.p50);
            (
                (
                    format!(
                        "p50 {} above ping (query p50 {}, p99 {}; ping p50 {}; the tree's own index)",
                        us(above),
                        us(t.query.p50),
                        ms(t.query.p99),
                        us(t.ping.p50)
                    ),
                    Some(above <= Duration::from_millis(1)),
                ),
                (format!("median {} bytes", t.median_bytes), Some(t.median_bytes <= 4096)),
            )
        }
        Err(why) => (not_here(why), not_here(why)),
    };
    row("MCP codegraph_query round trip", "p50 ≤ 1 ms above the client's cheapest call", text, met);
    row("default MCP query answer", "median ≤ 4 KB", size_text, size_met);
    let (text, met) = not_here("`cargo bench --bench update`");
    row("one-file update", "≤ 50 ms", text, met);
    let (text, met) = match m.resolving {
        Some((took, stats, threads)) => (
            format!(
                "made in {:.1} s on {threads} threads ({:.1}% of the build), {:.1} MiB ({:.1}% of the snapshot)",
                secs(*took),
                100.0 * secs(*took) / secs(m.build).max(1e-9),
                mib(stats.bytes),
                100.0 * stats.bytes as f64 / m.snapshot_bytes.max(1) as f64
            ),
            None,
        ),
        None => not_here("left out (--no-graph)"),
    };
    row("resolved graph (cg resolve)", "-", text, met);
    for name in ["refs", "callers", "callees"] {
        let asked = graph(&format!("{name}_question_time"))
            .map_or(String::new(), |p| format!(" (resolved as asked: p50 {}, p99 {})", us(p.p50), ms(p.p99)));
        let (text, met) = match graph(name) {
            Some(p) => (
                format!("p50 {}, p99 {}{asked}", us(p.p50), ms(p.p99)),
                Some(micros(p.p50) <= 100.0 && micros(p.p99) <= 5000.0),
            ),
            None => not_here("left out (--no-graph)"),
        };
        row(name, "p50 ≤ 100 µs, p99 ≤ 5 ms", text, met);
    }
    let (text, met) = match graph("impact") {
        Some(p) => (format!("p50 {}, p99 {}", ms(p.p50), ms(p.p99)), Some(p.p50 <= Duration::from_millis(10))),
        None => not_here("left out (--no-graph)"),
    };
    row("impact of a symbol", "p50 ≤ 10 ms at depth 3", text, met);
    let (text, met) = match &m.without_graph {
        Some(w) => {
            let slower = secs(m.build) / secs(w.build).max(1e-9) - 1.0;
            let larger = m.snapshot_bytes as f64 / w.snapshot_bytes.max(1) as f64 - 1.0;
            (
                format!(
                    "build {:+.1}%, snapshot {:+.1}% (extraction {:+.1}% CPU)",
                    100.0 * slower,
                    100.0 * larger,
                    100.0 * (secs(m.timings.extract) / secs(w.timings.extract).max(1e-9) - 1.0)
                ),
                Some(slower <= 0.15 && larger <= 0.20),
            )
        }
        None => not_here("`cg bench --graph-cost`"),
    };
    row("graph facts' cost", "build ≤ 15% slower, snapshot ≤ 20% larger", text, met);
    for (p, what) in
        [(mode(Mode::Subword), "subword lookup"), (graph("search"), "symbol search"), (graph("symbol"), "symbol card")]
    {
        let (text, met) = match p {
            Some(p) => (format!("p50 {}", us(p.p50)), Some(micros(p.p50) <= 1000.0)),
            None => not_here("left out (--no-graph)"),
        };
        row(what, "p50 ≤ 1 ms", text, met);
    }
    let (text, met) = match graph("context_sentence") {
        Some(p) => (format!("p50 {}", ms(p.p50)), Some(p.p50 <= Duration::from_millis(100))),
        None => not_here("no doc comment to take a sentence from"),
    };
    row("context bundle (8k tokens) for a sentence", "p50 ≤ 100 ms", text, met);
    let (text, met) = match graph("search_sentence") {
        Some(p) => (format!("p50 {}", ms(p.p50)), Some(p.p50 <= Duration::from_millis(20))),
        None => not_here("no doc comment to take a sentence from"),
    };
    row("search for a sentence", "p50 ≤ 20 ms", text, met);
    let (text, met) = match graph("semantic") {
        Some(p) => (format!("p50 {}", ms(p.p50)), Some(p.p50 <= Duration::from_millis(20))),
        None => not_here("--model NAME"),
    };
    row("semantic search", "p50 ≤ 20 ms", text, met);
    let (text, met) = match m.embedding {
        Some((chunks, d)) => {
            let rate = chunks as f64 / secs(d).max(1e-9);
            (format!("{rate:.0} chunks/s"), Some(rate >= 20_000.0))
        }
        None => not_here("--model NAME"),
    };
    row("embedding, static tier", "≥ 20,000 chunks/s", text, met);
    let (text, met) = match m.transformer {
        Some((chunks, _, d)) => {
            let rate = chunks as f64 / secs(d).max(1e-9);
            (format!("{rate:.1} chunks/s"), Some(rate >= 20.0))
        }
        None => not_here("--model NAME"),
    };
    row("embedding, transformer tier", "≥ 20 chunks/s", text, met);
    out
}

/// Times `refs`, `callers`, `callees` and the symbol card of a seeded sample of methods, each
/// looked up by its qualified name with a fresh [`Graph`] (as one MCP call does),
/// after one warm-up pass.
fn graph_queries(
    index: &Index,
    n: usize,
    seed: u64,
    model: Option<&codegraph::embed::StaticModel>,
    no_graph: bool,
) -> Result<(GraphRows, Option<Resolving>)> {
    use codegraph::graph::Graph;
    // The sampled methods' qualified names, and their names for symbol search.
    let (symbols, names): (Vec<String>, Vec<String>) = methods(index, n, seed)?.into_iter().unzip();
    let mut out = Vec::new();
    let graph_rows: &[&'static str] = if no_graph { &[] } else { &["refs", "callers", "callees", "symbol", "impact"] };
    // First as they are asked with nothing stored (`_question_time`), then
    // from the resolved graph, made here (`cg resolve`; `resolve` row: its
    // making's time and its bytes and sites).
    let mut resolved = None;
    for question_time in [true, false] {
        if no_graph {
            break;
        }
        if !question_time {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            let t = Instant::now();
            let (bytes, stats) = codegraph::graph::resolved::resolve_all(index, threads, &|_, _| {})?;
            codegraph::graph::resolved::write(index, &bytes)?;
            resolved = Some((t.elapsed(), stats, threads));
        }
        for &name in &graph_rows[..if question_time { 3 } else { graph_rows.len() }] {
            let run = |symbol: &str| -> u64 {
                let g = if question_time { Graph::new(index).question_time() } else { Graph::new(index) };
                let Ok(defs) = g.find(symbol) else { return 0 };
                match name {
                    "refs" => g.refs(&defs, &[]).map_or(0, |r| r.len() as u64),
                    "callers" => g.callers(&defs, 1).map_or(0, |r| r.len() as u64),
                    "callees" => g.callees(defs[0], 1).map_or(0, |r| r.len() as u64),
                    // What a change breaks, three levels up (as `cg impact --depth 3`).
                    "impact" => g.impact(symbol, 3).map_or(0, |i| i.callers.len() as u64),
                    // The card, as `cg symbol` makes it (code read from the file).
                    _ => g.card(defs[0]).map_or(0, |c| 1 + c.calls_total as u64 + c.called_by_total as u64),
                }
            };
            let (p, found) = timed(&symbols, |s| run(s));
            let label: &'static str = match (question_time, name) {
                (true, "refs") => "refs_question_time",
                (true, "callers") => "callers_question_time",
                (true, _) => "callees_question_time",
                (false, name) => name,
            };
            out.push((label, p, found));
        }
    }
    // Symbol search for the sampled methods' names as words: all their subwords
    // ("get user by id"), and without the first when there are three or more
    // ("user by id"); `found` counts the searches listing the name in the top 10.
    use codegraph::extract::words::subwords;
    let whole: Vec<(String, String)> =
        names.iter().map(|n| (subwords(n).collect::<Vec<_>>().join(" ").to_lowercase(), n.clone())).collect();
    let part: Vec<(String, String)> = names
        .iter()
        .filter_map(|n| {
            let parts: Vec<&str> = subwords(n).collect();
            (parts.len() >= 3).then(|| (parts[1..].join(" ").to_lowercase(), n.clone()))
        })
        .collect();
    for (label, queries) in [("search", &whole), ("search_part", &part)] {
        let run = |(text, name): &(String, String)| -> u64 {
            let g = Graph::new(index);
            g.search(text, 10).map_or(0, |r| r.hits.iter().any(|h| h.name == *name) as u64)
        };
        let (p, found) = timed(queries, run);
        out.push((label, p, found));
    }
    // By meaning, the same queries: the static vectors alone, and hybrid; then
    // with the transformer vectors of the tree's own index (`cg embed` there:
    // rows are keyed by path and content, so they fit this index's files).
    if let Some(m) = model {
        use codegraph::graph::SearchMode;
        let deep = codegraph::graph::deep_vectors(index);
        let mut rows = vec![("semantic", SearchMode::Semantic, None), ("hybrid", SearchMode::Hybrid, None)];
        if let Some(d) = &deep {
            rows.push(("semantic_transformer", SearchMode::Semantic, Some(d.clone())));
            rows.push(("hybrid_transformer", SearchMode::Hybrid, Some(d.clone())));
        }
        for (label, mode, deep) in rows {
            let run = |(text, name): &(String, String)| -> u64 {
                let g = Graph::new(index).with_deep(deep.clone());
                g.search_by(text, 10, mode, Some(m)).map_or(0, |r| r.hits.iter().any(|h| h.name == *name) as u64)
            };
            let (p, found) = timed(&whole, run);
            out.push((label, p, found));
        }
    }
    // The context bundle (8,000 tokens) for "fix" and the names' words: `found`
    // counts the bundles holding a definition of that name.
    let tasks: Vec<(String, String)> = whole.iter().map(|(text, name)| (format!("fix {text}"), name.clone())).collect();
    let run = |(task, name): &(String, String)| -> u64 {
        let g = Graph::new(index);
        g.context(task, codegraph::graph::DEFAULT_BUDGET, &[]).map_or(0, |b| {
            b.focus.iter().any(|f| f.qualified_name.as_deref().is_some_and(|q| q.ends_with(name.as_str()))) as u64
        })
    };
    let (p, found) = timed(&tasks, run);
    out.push(("context", p, found));
    // A sentence, as an agent writes a task: the first sentence of sampled
    // methods' doc comments. `search_sentence` is `cg search` without a model
    // (lexical, its hits ranked again with their files' evidence; found: the
    // method's file among the first 5 files of its hits); `context_sentence`
    // the bundle (found: the method's file among its snippets).
    let sentences = doc_sentences(index, n, seed)?;
    let run = |(text, file): &(String, String)| -> u64 {
        let g = Graph::new(index);
        g.search_by(text, 10, codegraph::graph::SearchMode::Lexical, None).map_or(0, |r| {
            let mut files: Vec<&str> = Vec::new();
            for h in &r.hits {
                if !files.contains(&h.file.as_str()) {
                    files.push(&h.file);
                }
            }
            files.iter().take(5).any(|f| f == file) as u64
        })
    };
    let (p, found) = timed(&sentences, run);
    out.push(("search_sentence", p, found));
    let run = |(text, file): &(String, String)| -> u64 {
        let g = Graph::new(index);
        g.context(text, codegraph::graph::DEFAULT_BUDGET, &[])
            .map_or(0, |b| b.snippets.iter().any(|s| s.path == *file) as u64)
    };
    let (p, found) = timed(&sentences, run);
    out.push(("context_sentence", p, found));
    Ok((out, resolved))
}

/// Each graph question's latencies and what it found.
type GraphRows = Vec<(&'static str, Option<Percentiles>, u64)>;

/// Making the resolved graph: how long, what it holds, on how many threads.
type Resolving = (Duration, codegraph::graph::resolved::ResolveStats, usize);

/// Runs the transformer `name` over the chunks of a sample of 512 types and
/// functions (from about 256 files spread over the tree), timed on `pool` (chunks made first):
/// how many, their tokens, and how long.
fn transformer_rate(index: &Index, name: &str, pool: &rayon::ThreadPool) -> Result<(u64, u64, Duration)> {
    let encoder = codegraph::embed::ModelStore::from_env()?.load_encoder(name)?;
    let mut texts: Vec<String> = Vec::new();
    let files = index.files()?;
    // About 256 files spread over the tree, then 512 of their definitions.
    for f in files.iter().step_by((files.len() / 256).max(1)) {
        let Ok(source) = std::fs::read_to_string(index.root.join(f.path)) else { continue };
        let s = f.seg.structure(&f.slot)?;
        codegraph::embed::deep::for_each_deep_chunk(f.path, &s, &source, |_, _, t| texts.push(t.to_string()));
    }
    let step = (texts.len() / 512).max(1);
    let sample: Vec<Vec<u32>> = texts.iter().step_by(step).take(512).map(|t| encoder.tokens(t)).collect();
    let tokens = sample.iter().map(|s| s.len() as u64).sum();
    let started = Instant::now();
    pool.install(|| encoder.embed_tokens(&sample))?;
    Ok((sample.len() as u64, tokens, started.elapsed()))
}

/// Embeds every type and function of the index again with `model`, timed on
/// `pool` (the texts are made first, untimed): how many, and how long.
fn embed_rate(
    index: &Index,
    model: &codegraph::embed::StaticModel,
    pool: &rayon::ThreadPool,
) -> Result<(u64, Duration)> {
    use rayon::prelude::*;
    let mut texts: Vec<String> = Vec::new();
    for f in index.files()? {
        let s = f.seg.structure(&f.slot)?;
        codegraph::embed::chunk::for_each_chunk(f.path, &s, |t| texts.push(t.to_string()));
    }
    let started = Instant::now();
    let embedded: u64 = pool.install(|| {
        texts
            .par_iter()
            .map_init(
                || (vec![0f32; model.dims], Vec::with_capacity(model.dims)),
                |(v, q), t| {
                    q.clear();
                    model.embed(t, v) && codegraph::embed::quantize(v, q) > 0.0
                },
            )
            .filter(|&ok| ok)
            .count() as u64
    });
    let d = started.elapsed();
    let _ = embedded;
    Ok((texts.len() as u64, d))
}

/// Runs `run` over `items` once to warm (first-use checks, page faults), then
/// again timed: the percentiles, and the sum of what the timed runs returned.
fn timed<T>(items: &[T], run: impl Fn(&T) -> u64) -> (Option<Percentiles>, u64) {
    for item in items {
        run(item);
    }
    let mut times = Vec::with_capacity(items.len());
    let mut found = 0;
    for item in items {
        let t = Instant::now();
        found += run(item);
        times.push(t.elapsed());
    }
    (percentiles(times), found)
}

/// A seeded sample of dictionary terms: a third rare, a third medium, a third
/// frequent (by lines), from the first segment.
fn sample_terms(index: &Index, n: usize, seed: u64) -> Result<Vec<String>> {
    let Some(seg) = index.segments.first() else { return Ok(Vec::new()) };
    let fst = seg.term_fst()?;
    let mut all: Vec<(u64, String)> = Vec::new();
    let mut stream = fst.stream();
    while let Some((k, v)) = stream.next() {
        if let (Ok(k), Ok(f)) = (std::str::from_utf8(k), seg.fold(v as u32)) {
            if k.chars().count() >= 4 {
                all.push((f.occurrences, k.to_string()));
            }
        }
    }
    all.sort();
    let mut rng = XorShift(seed.max(1));
    let mut out = Vec::with_capacity(n);
    let third = all.len() / 3;
    if third == 0 {
        return Ok(all.into_iter().map(|(_, t)| t).take(n).collect());
    }
    for i in 0..n {
        let bucket = i % 3;
        let pick = bucket * third + (rng.next_u64() as usize % third);
        out.push(all[pick].1.clone());
    }
    Ok(out)
}

/// Subwords of the first segment's compound terms, a third each from the
/// rarest, middle and most listed thirds (by how many terms hold them).
fn sample_subwords(index: &Index, n: usize, seed: u64) -> Result<Vec<String>> {
    let Some(seg) = index.segments.first() else { return Ok(Vec::new()) };
    let fst = seg.subword_fst()?;
    let mut all: Vec<(u32, String)> = Vec::new();
    let mut stream = fst.stream();
    while let Some((k, _)) = stream.next() {
        if let Ok(k) = std::str::from_utf8(k) {
            if k.chars().count() >= 3 && !k.bytes().all(|b| b.is_ascii_digit()) {
                // (A list of no terms only counts definitions named as the subword.)
                if let Some(list) = seg.subword_list(k)?.filter(|l| l.count > 0) {
                    all.push((list.count, k.to_string()));
                }
            }
        }
    }
    all.sort();
    let mut rng = XorShift(seed.max(1));
    let third = all.len() / 3;
    if third == 0 {
        return Ok(all.into_iter().map(|(_, t)| t).take(n).collect());
    }
    Ok((0..n).map(|i| all[(i % 3) * third + (rng.next_u64() as usize % third)].1.clone()).collect())
}

fn query_for(term: &str, mode: Mode) -> Query {
    let chars: Vec<char> = term.chars().collect();
    let text: String = match mode {
        Mode::Exact | Mode::Subword => term.to_string(),
        Mode::StartsWith => chars.iter().take(chars.len().div_ceil(2).max(3)).collect(),
        Mode::Contains => chars.iter().skip(1).take(4).collect(),
        Mode::Regex => {
            let head: String = chars.iter().take(3).collect();
            let tail: String = chars.iter().skip(chars.len().saturating_sub(2)).collect();
            format!("^{}.*{}$", regex::escape(&head), regex::escape(&tail))
        }
    };
    let mut q = Query::new(&text, mode);
    q.limit = 50;
    q
}

/// Ripgrep against cg on the same ten sample terms: medians of an `rg -w -i`
/// process, of a `cg query` process (end to end: start, open, query, line text,
/// print), and of cg's in-process exact lookup.
struct VsRg {
    rg: Duration,
    cg_process: Duration,
    cg_in_process: Duration,
}

fn ripgrep(root: &Path, segments: &Path, terms: &[String], index: &Index) -> Option<VsRg> {
    Command::new("rg").arg("--version").output().ok()?;
    let cg = std::env::current_exe().ok()?;
    let (mut rg_times, mut process_times, mut cg_times) = (Vec::new(), Vec::new(), Vec::new());
    for t in terms.iter().take(10) {
        let start = Instant::now();
        Command::new("rg").args(["-w", "-i", "-c", "--no-messages", "-F", t]).arg(root).output().ok()?;
        rg_times.push(start.elapsed());
        let start = Instant::now();
        Command::new(&cg)
            .args(["query", t, "--limit", "50", "--project"])
            .arg(root)
            .arg("--segments")
            .arg(segments)
            .output()
            .ok()?;
        process_times.push(start.elapsed());
        let start = Instant::now();
        let _ = search(index, &query_for(t, Mode::Exact));
        cg_times.push(start.elapsed());
    }
    let median = |mut v: Vec<Duration>| {
        v.sort();
        v.get(v.len() / 2).copied().unwrap_or(Duration::from_nanos(1))
    };
    Some(VsRg { rg: median(rg_times), cg_process: median(process_times), cg_in_process: median(cg_times) })
}

/// Removes the temporary index when the bench ends, however it ends.
struct Cleanup(PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cg bench` cites docs/budgets.md: every budget it judges is written there,
    /// word for word, so the two cannot drift apart.
    #[test]
    fn every_budget_judged_is_in_docs_budgets() {
        let doc = include_str!("../../docs/budgets.md");
        let timings = index::BuildTimings::default();
        let mcp = Err("none".to_string());
        let m = Measured {
            threads: 2,
            parse: Duration::from_secs(1),
            build: Duration::from_secs(1),
            walk: Duration::ZERO,
            timings: &timings,
            snapshot_bytes: 1,
            source_bytes: 1,
            peak: None,
            open: None,
            modes: &[],
            graph: &[],
            resolving: None,
            embedding: None,
            transformer: None,
            mcp: &mcp,
            without_graph: None,
        };
        let rows = verdicts(&m);
        assert!(rows.len() >= 20, "{}", rows.len());
        for v in rows {
            let in_a_row = doc.lines().any(|l| l.starts_with('|') && l.contains(v.budget));
            assert!(in_a_row, "docs/budgets.md does not hold {:?}: {}", v.what, v.budget);
        }
    }
}

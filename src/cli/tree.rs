//! `cg tree [PATH]`: the indexed files as a tree.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Result;
use codegraph::project::{self, Index};

use super::index::project_root;

#[derive(clap::Args)]
pub struct Args {
    /// A folder inside the project (default: the root).
    path: Option<String>,
    /// Levels below PATH to show (0: all).
    #[arg(long, default_value_t = project::DEFAULT_TREE_DEPTH)]
    depth: usize,
    /// Show item (distinct term) and method counts per file.
    #[arg(long)]
    stats: bool,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape codegraph_tree answers, uncapped).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let prefix = args.path.clone().unwrap_or_default();
    let entries = project::tree(&index, &prefix, args.depth)?;
    let mut out = io::stdout().lock();
    if args.json {
        let value = codegraph::mcp::json::tree(&prefix, &entries, args.stats, usize::MAX);
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    let base = prefix.trim_matches('/').matches('/').count() + usize::from(!prefix.trim_matches('/').is_empty());
    for e in &entries {
        let level = e.path.matches('/').count() + 1 - base;
        let name = super::shown(e.path.rsplit('/').next().unwrap_or(&e.path));
        let indent = "  ".repeat(level.saturating_sub(1));
        if e.is_dir {
            write!(out, "{indent}{name}/ ({}", counted(e.files, "file"))?;
            if args.stats {
                write!(out, ", {}, {}", counted(e.items, "item"), counted(e.methods, "method"))?;
            }
            writeln!(out, ")")?;
        } else if args.stats {
            writeln!(out, "{indent}{name}  [{}, {}]", counted(e.items, "item"), counted(e.methods, "method"))?;
        } else {
            writeln!(out, "{indent}{name}")?;
        }
    }
    Ok(())
}

/// `1 file`, `2 files`.
pub fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

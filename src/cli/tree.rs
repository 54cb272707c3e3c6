//! `cg tree [PATH]`: the indexed files as a tree.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Result;
use codegraph::project::{self, Index};
use serde_json::json;

use super::index::project_root;

#[derive(clap::Args)]
pub struct Args {
    /// A folder inside the project (default: the root).
    path: Option<String>,
    /// Levels below PATH to show (0: all).
    #[arg(long, default_value_t = 0)]
    depth: usize,
    /// Show item (distinct term) and method counts per file.
    #[arg(long)]
    stats: bool,
    #[arg(long)]
    project: Option<PathBuf>,
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let prefix = args.path.clone().unwrap_or_default();
    let entries = project::tree(&index, &prefix, args.depth)?;
    let indexed_at = index.manifest.as_ref().map_or(0, |m| m.created_unix_ms / 1000);
    let mut out = io::stdout().lock();
    if args.json {
        let list: Vec<_> = entries
            .iter()
            .map(|e| {
                let mut v = json!({"path": e.path, "type": if e.is_dir { "directory" } else { "file" }});
                if e.is_dir {
                    v["file_count"] = json!(e.files);
                }
                if args.stats {
                    v["item_count"] = json!(e.items);
                    v["method_count"] = json!(e.methods);
                    v["last_indexed"] = json!(indexed_at);
                }
                v
            })
            .collect();
        serde_json::to_writer(&mut out, &json!({"root": prefix, "entries": list}))?;
        writeln!(out)?;
        return Ok(());
    }
    let base = prefix.trim_matches('/').matches('/').count() + usize::from(!prefix.trim_matches('/').is_empty());
    for e in &entries {
        let level = e.path.matches('/').count() + 1 - base;
        let name = e.path.rsplit('/').next().unwrap_or(&e.path);
        let indent = "  ".repeat(level.saturating_sub(1));
        if e.is_dir {
            write!(out, "{indent}{name}/ ({} files", e.files)?;
            if args.stats {
                write!(out, ", {} items, {} methods", e.items, e.methods)?;
            }
            writeln!(out, ")")?;
        } else if args.stats {
            writeln!(out, "{indent}{name}  [{} items, {} methods]", e.items, e.methods)?;
        } else {
            writeln!(out, "{indent}{name}")?;
        }
    }
    Ok(())
}

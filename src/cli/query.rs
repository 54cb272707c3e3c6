//! `cg query`: where a term occurs.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{bail, Result};
use codegraph::extract::LineType;
use codegraph::project::Index;
use codegraph::query::{self, text, Mode, Query};
use serde_json::json;

use super::index::project_root;

#[derive(clap::Args)]
pub struct Args {
    /// The term: a name, a prefix, a substring or a regex, per --mode.
    term: String,
    /// exact, starts_with, contains or regex.
    #[arg(long, default_value = "exact")]
    mode: String,
    /// Match case exactly (default: case-insensitive).
    #[arg(long)]
    case_sensitive: bool,
    /// Only files matching this glob, e.g. 'src/Core/**'.
    #[arg(long)]
    file_filter: Option<String>,
    /// Only these line types (comma-separated: code,comment,struct,method,property,string).
    #[arg(long = "type", value_delimiter = ',')]
    types: Vec<String>,
    /// At most this many matches (0: all). The total is always counted.
    #[arg(long, default_value_t = query::DEFAULT_LIMIT)]
    limit: usize,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let Some(mode) = Mode::from_name(&args.mode) else {
        bail!("unknown mode {:?}: use exact, starts_with, contains or regex", args.mode);
    };
    let mut types = Vec::new();
    for t in &args.types {
        match LineType::from_name(t) {
            Some(t) => types.push(t),
            None => bail!("unknown line type {t:?}: use code, comment, struct, method, property or string"),
        }
    }
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let q = Query {
        term: args.term.clone(),
        mode,
        case_sensitive: args.case_sensitive,
        file_filter: args.file_filter.clone(),
        types,
        limit: args.limit,
    };
    let matches = query::search(&index, &q)?;
    let texts = text::line_texts(&index, &matches.hits);
    let mut out = io::stdout().lock();
    if args.json {
        let list: Vec<_> = matches
            .hits
            .iter()
            .zip(&texts)
            .map(|(h, t)| {
                let mut m =
                    json!({"file": h.path, "line_number": h.line, "line_type": h.line_type.name(), "text": t.text});
                if t.stale {
                    m["stale"] = json!(true);
                }
                m
            })
            .collect();
        let value = json!({
            "term": args.term,
            "matches": list,
            "total_matches": matches.total,
            "truncated": (matches.hits.len() as u64) < matches.total,
        });
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    for (h, t) in matches.hits.iter().zip(&texts) {
        let stale = if t.stale { " [stale]" } else { "" };
        writeln!(out, "{}:{}: {}{}: {}", h.path, h.line, h.line_type.name(), stale, t.text.as_deref().unwrap_or(""))?;
    }
    let shown = matches.hits.len() as u64;
    if shown < matches.total {
        writeln!(out, "{} matches (showing {shown}; --limit 0 for all)", matches.total)?;
    } else {
        writeln!(out, "{} matches", matches.total)?;
    }
    Ok(())
}

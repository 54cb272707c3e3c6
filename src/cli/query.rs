//! `cg query`: where a term occurs.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Result};
use codegraph::extract::LineType;
use codegraph::project::links::{self, ProjectMatches};
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
    /// Also search every linked project (`cg link`); matches name their project.
    #[arg(long)]
    include_dependencies: bool,
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
    let (groups, errors) = if args.include_dependencies {
        links::search_with_links(&root, Arc::new(index), &q)?
    } else {
        let matches = query::search(&index, &q)?;
        (vec![ProjectMatches { project: None, index: Arc::new(index), matches }], Vec::new())
    };
    let total: u64 = groups.iter().map(|g| g.matches.total).sum();
    let shown: usize = groups.iter().map(|g| g.matches.hits.len()).sum();
    let mut out = io::stdout().lock();
    if args.json {
        let mut list = Vec::new();
        for g in &groups {
            let texts = text::line_texts(&g.index, &g.matches.hits);
            for (h, t) in g.matches.hits.iter().zip(&texts) {
                let mut m =
                    json!({"file": h.path, "line_number": h.line, "line_type": h.line_type.name(), "text": t.text});
                if let Some(p) = &g.project {
                    m["project"] = json!(p);
                }
                if t.stale {
                    m["stale"] = json!(true);
                }
                list.push(m);
            }
        }
        let mut value = json!({
            "term": args.term,
            "matches": list,
            "total_matches": total,
            "truncated": (shown as u64) < total,
            "generation": groups.first().and_then(|g| g.index.manifest.as_ref()).map_or(0, |m| m.generation),
        });
        if !errors.is_empty() {
            value["dependency_errors"] = errors.iter().map(|(n, e)| json!({"project": n, "error": e})).collect();
        }
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    for g in &groups {
        let texts = text::line_texts(&g.index, &g.matches.hits);
        let prefix = g.project.as_ref().map(|p| format!("[{p}] ")).unwrap_or_default();
        for (h, t) in g.matches.hits.iter().zip(&texts) {
            let stale = if t.stale { " [stale]" } else { "" };
            writeln!(
                out,
                "{prefix}{}:{}: {}{}: {}",
                h.path,
                h.line,
                h.line_type.name(),
                stale,
                t.text.as_deref().unwrap_or("")
            )?;
        }
    }
    for (name, e) in &errors {
        writeln!(out, "[{name}] unavailable: {e}")?;
    }
    if (shown as u64) < total {
        writeln!(out, "{total} matches (showing {shown}; --limit 0 for all)")?;
    } else {
        writeln!(out, "{total} matches")?;
    }
    Ok(())
}

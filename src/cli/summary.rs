//! `cg summary`, `cg describe`, `cg docs`, `cg update-docs`: what the project is.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Result;
use codegraph::project::{self, docs, summary};
use serde_json::json;

use super::index::project_root;

#[derive(clap::Args)]
pub struct SummaryArgs {
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

pub fn show(args: SummaryArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let mut out = io::stdout().lock();
    if args.json {
        let v = codegraph::mcp::json::summary(&root).map_err(anyhow::Error::msg)?;
        serde_json::to_writer(&mut out, &v)?;
        writeln!(out)?;
    } else {
        out.write_all(super::shown_lines(&summary::read(&root)?.0).as_bytes())?;
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct DescribeArgs {
    /// purpose, architecture, concepts, patterns or custom.
    section: String,
    /// The text to add (Markdown; may start with `-`).
    #[arg(allow_hyphen_values = true)]
    content: String,
    /// Replace the section's text instead of appending to it.
    #[arg(long)]
    replace: bool,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lock: super::WaitFlag,
}

pub fn describe(args: DescribeArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let _lock = args.lock.lock(&root)?;
    let title = summary::describe(&root, &args.section, &args.content, args.replace)?;
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", json!({"success": true, "section": args.section}))?;
    } else {
        writeln!(out, "{} section {title}", if args.replace { "replaced" } else { "added to" })?;
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct DocsArgs {
    /// Only sections whose title or source contains this text.
    section: Option<String>,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

pub fn show_docs(args: DocsArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let text = docs::read(&root, args.section.as_deref())?;
    if text.is_empty() && args.section.is_some() {
        anyhow::bail!("no docs section matches {:?}; `cg docs` lists them all", args.section.unwrap_or_default());
    }
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", json!({"content": text}))?;
    } else {
        out.write_all(super::shown_lines(&text).as_bytes())?;
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct UpdateDocsArgs {
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lock: super::WaitFlag,
}

pub fn update_docs(args: UpdateDocsArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let _lock = args.lock.lock(&root)?;
    let name = project::read_manifest(&root)?.name;
    let sources = docs::update(&root, &name)?;
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", json!({"success": true, "imported": sources}))?;
    } else {
        writeln!(out, "imported {} CLAUDE.md file(s){}", sources.len(), if sources.is_empty() { "" } else { ":" })?;
        for s in sources {
            writeln!(out, "  {s}")?;
        }
    }
    Ok(())
}

//! `cg link`, `cg unlink`, `cg links`, `cg scan`: projects searched together.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Result;
use codegraph::project::links;
use serde_json::json;

use super::index::project_root;

#[derive(clap::Args)]
pub struct LinkArgs {
    /// Another indexed project (its root or its .codegraph folder).
    path: PathBuf,
    /// Display name (default: the linked project's name).
    #[arg(long)]
    name: Option<String>,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lock: super::WaitFlag,
}

pub fn link(args: LinkArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let _lock = args.lock.lock(&root)?;
    let (l, files) = links::link(&root, &args.path, args.name.as_deref())?;
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", json!({"success": true, "dependency_id": l.id, "name": l.name, "files_available": files}))?;
    } else {
        writeln!(out, "linked {} ({}, {files} files)", super::shown(&l.name), l.path.display())?;
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct UnlinkArgs {
    /// The link's name or path.
    what: String,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    #[command(flatten)]
    lock: super::WaitFlag,
}

pub fn unlink(args: UnlinkArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let _lock = args.lock.lock(&root)?;
    let l = links::unlink(&root, &args.what)?;
    writeln!(io::stdout(), "unlinked {} ({})", super::shown(&l.name), l.path.display())?;
    Ok(())
}

#[derive(clap::Args)]
pub struct LinksArgs {
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

pub fn list(args: LinksArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let statuses = links::statuses(&root)?;
    let mut out = io::stdout().lock();
    if args.json {
        let v: Vec<_> = statuses
            .iter()
            .map(|s| {
                json!({"id": s.link.id, "name": s.link.name, "path": s.link.path, "files_available": s.files,
                       "reachable": s.error.is_none(), "error": s.error})
            })
            .collect();
        writeln!(out, "{}", json!({ "links": v }))?;
        return Ok(());
    }
    if statuses.is_empty() {
        writeln!(out, "no links; `cg link PATH` adds one")?;
    }
    for s in statuses {
        match (&s.files, &s.error) {
            (Some(files), None) => {
                writeln!(out, "{}  {}  {files} files", super::shown(&s.link.name), s.link.path.display())?
            }
            (_, Some(e)) => {
                writeln!(out, "{}  {}  unreachable: {e}", super::shown(&s.link.name), s.link.path.display())?
            }
            _ => {}
        }
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct ScanArgs {
    /// The folder to search (default: the current directory).
    dir: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

pub fn scan(args: ScanArgs) -> Result<()> {
    let dir = args.dir.unwrap_or_else(|| PathBuf::from("."));
    let found = links::scan(&dir)?;
    let mut out = io::stdout().lock();
    if args.json {
        let v: Vec<_> = found
            .iter()
            .map(|f| {
                json!({"name": f.name, "path": f.path, "files": f.files,
                       "last_update": f.last_update_unix_ms.map(|ms| ms / 1000), "error": f.error})
            })
            .collect();
        writeln!(out, "{}", json!({ "projects": v }))?;
        return Ok(());
    }
    if found.is_empty() {
        writeln!(out, "no indexed projects under {}", dir.display())?;
    }
    for f in found {
        match (&f.name, &f.error) {
            (Some(name), None) => {
                writeln!(out, "{}  {}  {} files", super::shown(name), f.path.display(), f.files.unwrap_or(0))?
            }
            (_, Some(e)) => writeln!(out, "?  {}  broken: {e}", f.path.display())?,
            _ => {}
        }
    }
    Ok(())
}

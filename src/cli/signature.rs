//! `cg signature FILE` and `cg signatures [GLOB]`: what files declare, from the index.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use codegraph::mcp::json::signature as signature_json;
use codegraph::project::{self, Index, Signature};
use serde_json::json;

use super::index::project_root;

#[derive(clap::Args)]
pub struct OneArgs {
    /// The file, relative to the current directory or the project root.
    file: PathBuf,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct ManyArgs {
    /// A folder or file (relative to the current folder), or a glob over project
    /// paths as rg -g ('*.go' at any depth, 'src/Core/**'); default: every file.
    glob: Option<String>,
    /// Explicit files instead of a glob (repeatable).
    #[arg(long = "files", num_args = 1..)]
    files: Vec<PathBuf>,
    /// At most this many files (0: all); the count left out is reported.
    #[arg(long, default_value_t = project::DEFAULT_SIGNATURES)]
    limit: usize,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

/// A user-given path as a project-relative path; refuses paths outside the project.
pub(super) fn project_path(root: &Path, file: &Path) -> Result<String> {
    let cwd = std::env::current_dir()?;
    let candidates = [cwd.join(file), root.join(file)];
    for c in &candidates {
        if let Ok(abs) = std::fs::canonicalize(c) {
            return match abs.strip_prefix(root) {
                Ok(rel) => Ok(codegraph::extract::rel_path(Path::new(""), rel).context("path is not UTF-8")?),
                Err(_) => bail!("{}: outside the project {}", file.display(), root.display()),
            };
        }
    }
    // Not on disk (deleted since indexing?): take it as project-relative.
    let text = file.to_string_lossy().replace('\\', "/");
    if file.is_absolute() || text.split('/').any(|p| p == "..") {
        bail!("{}: outside the project {}", file.display(), root.display());
    }
    Ok(text)
}

pub fn one(args: OneArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let rel = project_path(&root, &args.file)?;
    let Some(sig) = project::signature(&index, &rel)? else {
        bail!("{rel}: not in the index (not a source file cg reads, excluded, or added since `cg init`)");
    };
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &signature_json(&sig))?;
        writeln!(out)?;
    } else {
        write_human(&mut out, &sig)?;
    }
    Ok(())
}

pub fn many(args: ManyArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let mut sigs = Vec::new();
    let mut omitted = 0;
    if args.files.is_empty() {
        let given = args.glob.as_deref().unwrap_or("");
        // A path (no glob syntax) is relative to the current folder, as with git and rg.
        let rel = if given.is_empty() || given.contains(['*', '?', '[', '{']) {
            given.to_string()
        } else {
            project_path(&root, Path::new(given))?
        };
        let found = project::signatures(&index, &rel, args.limit)?;
        sigs = found.signatures;
        omitted = found.omitted;
    } else {
        let limit = if args.limit == 0 { usize::MAX } else { args.limit };
        for f in &args.files {
            let rel = project_path(&root, f)?;
            match project::signature(&index, &rel)? {
                Some(s) if sigs.len() < limit => sigs.push(s),
                Some(_) => omitted += 1,
                None => {
                    bail!("{rel}: not in the index (not a source file cg reads, excluded, or added since `cg init`)")
                }
            }
        }
    }
    let mut out = io::stdout().lock();
    if args.json {
        let v = json!({"signatures": sigs.iter().map(signature_json).collect::<Vec<_>>(), "omitted": omitted, "truncated": omitted > 0});
        serde_json::to_writer(&mut out, &v)?;
        writeln!(out)?;
        return Ok(());
    }
    for (i, s) in sigs.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        write_human(&mut out, s)?;
    }
    if omitted > 0 {
        writeln!(out, "\n... {omitted} more file(s) left out; --limit 0 shows all")?;
    }
    Ok(())
}

fn write_human(out: &mut impl Write, s: &Signature) -> io::Result<()> {
    let lang = s.language.map(|l| l.name()).unwrap_or("?");
    writeln!(out, "== {} ({lang}, {} lines)", super::shown_path(&s.file), s.line_count)?;
    for line in s.header_comments.lines() {
        writeln!(out, "  | {}", super::shown(line))?;
    }
    // Source order: a type's fields where the source has them (often before its
    // methods), not grouped by kind.
    let mut items: Vec<(u32, String)> = Vec::new();
    for t in &s.types {
        let parent = t.parent.as_ref().map(|p| format!(" (in {p})")).unwrap_or_default();
        items.push((t.line, format!("{} {}{parent}", t.kind, t.name)));
    }
    items.extend(s.methods.iter().map(|m| (m.line, m.prototype.clone())));
    items.extend(s.properties.iter().map(|p| (p.line, p.declaration.clone())));
    items.sort_by_key(|(line, _)| *line);
    for (line, text) in items {
        writeln!(out, "  L{line:<5} {}", super::shown(&text))?;
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct SnippetArgs {
    /// The file, relative to the current directory or the project root.
    file: PathBuf,
    /// The first line (1-based).
    start: u32,
    /// The last line (default: the first); at most 400 lines and 64 KiB are shown.
    end: Option<u32>,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

/// `cg snippet FILE START [END]`: lines of an indexed file, numbered.
pub fn snippet(args: SnippetArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let rel = project_path(&root, &args.file)?;
    let s = codegraph::query::text::snippet(&index, &rel, args.start, args.end.unwrap_or(args.start))?;
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &s)?;
        writeln!(out)?;
        return Ok(());
    }
    for (i, line) in s.text.lines().enumerate() {
        writeln!(out, "{:>6}  {line}", s.start as usize + i)?;
    }
    if s.truncated {
        eprintln!(
            "cg: cut at {} lines / {} KiB: ask for the rest from line {}",
            codegraph::query::text::MAX_SNIPPET_LINES,
            codegraph::query::text::MAX_SNIPPET_BYTES >> 10,
            s.end + 1
        );
    }
    if s.stale {
        eprintln!("cg: {} changed since it was indexed; these are its lines now", s.file);
    }
    Ok(())
}

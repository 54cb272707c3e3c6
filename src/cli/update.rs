//! `cg update`, `cg remove`, `cg compact`, `cg watch`: keeping the index fresh.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Result;
use codegraph::project::watch::{self, WatchEvent, WatchOptions};
use codegraph::project::{self, Request, UpdateOptions, UpdateReport};

use super::index::project_root;

#[derive(clap::Args)]
pub struct UpdateArgs {
    /// Files or folders to bring up to date (relative to the current folder);
    /// none: rescan the whole tree for new, changed and deleted files.
    paths: Vec<PathBuf>,
    /// Apply all the given files as one change (always the case: every
    /// `cg update` is one change, visible whole or not at all).
    #[arg(long)]
    batch: bool,
    /// The first line an edit touched (a hint; the whole file is re-extracted so
    /// line numbers after the edit are right).
    #[arg(long, requires = "to_line")]
    from_line: Option<u32>,
    /// The last line an edit touched (a hint, with --from-line).
    #[arg(long, requires = "from_line")]
    to_line: Option<u32>,
    #[command(flatten)]
    writer: WriterFlags,
}

/// Flags of every command that writes a new generation.
#[derive(clap::Args)]
pub struct WriterFlags {
    /// Seconds to wait for another cg process writing the index.
    #[arg(long, default_value_t = 10)]
    wait: u64,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct RemoveArgs {
    /// Files or folders to take out of the index (the files themselves are not touched).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    writer: WriterFlags,
}

#[derive(clap::Args)]
pub struct CompactArgs {
    #[command(flatten)]
    writer: WriterFlags,
}

#[derive(clap::Args)]
pub struct WatchArgs {
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Milliseconds of quiet that end a burst of changes.
    #[arg(long, default_value_t = 200)]
    quiet_ms: u64,
    /// Print one JSON line per applied batch.
    #[arg(long)]
    json: bool,
}

/// Paths as the library takes them: absolute, from the current folder.
fn absolute(paths: &[PathBuf]) -> Result<Vec<String>> {
    let cwd = std::env::current_dir()?;
    Ok(paths.iter().map(|p| cwd.join(p).to_string_lossy().into_owned()).collect())
}

pub fn update(args: UpdateArgs) -> Result<()> {
    let _ = args.batch;
    if let (Some(from), Some(to)) = (args.from_line, args.to_line) {
        if from == 0 || from > to {
            anyhow::bail!("--from-line {from} --to-line {to}: not a range of lines (lines count from 1, from ≤ to)");
        }
    }
    let paths = if args.paths.is_empty() { Vec::new() } else { absolute(&args.paths)? };
    run(Request::Update(paths), &args.writer)
}

pub fn remove(args: RemoveArgs) -> Result<()> {
    run(Request::Remove(absolute(&args.paths)?), &args.writer)
}

pub fn compact(args: CompactArgs) -> Result<()> {
    run(Request::Compact, &args.writer)
}

fn run(request: Request, flags: &WriterFlags) -> Result<()> {
    let root = project_root(&flags.project)?;
    let (root, json) = (root.as_path(), flags.json);
    let options = UpdateOptions { lock_wait: Duration::from_secs(flags.wait), ..UpdateOptions::default() };
    let report = project::update(root, &request, &options, &|_| {})?;
    let mut out = io::stdout().lock();
    if json {
        serde_json::to_writer(&mut out, &codegraph::mcp::json::update_report(&report))?;
        writeln!(out)?;
    } else {
        print_report(&mut out, &report)?;
    }
    Ok(())
}

/// The files an update added, updated and removed (20 of each named).
fn print_changes(out: &mut impl Write, r: &UpdateReport) -> io::Result<()> {
    for (label, list) in [("added", &r.added), ("updated", &r.updated), ("removed", &r.removed)] {
        for p in list.iter().take(20) {
            writeln!(out, "{label}: {p}")?;
        }
        if list.len() > 20 {
            writeln!(out, "{label}: ... and {} more", list.len() - 20)?;
        }
    }
    Ok(())
}

fn print_report(out: &mut impl Write, r: &UpdateReport) -> io::Result<()> {
    print_changes(out, r)?;
    for p in &r.ignored {
        writeln!(out, "ignored (not a source file of an indexed language, or excluded): {p}")?;
    }
    for s in r.skipped.iter().take(20) {
        writeln!(out, "skipped: {}: {}", s.path, s.reason)?;
    }
    if r.changed() {
        writeln!(
            out,
            "generation {} (was {}): {} added, {} updated, {} removed, {} unchanged; {} segment(s) written{} in {} ms",
            r.generation,
            r.previous_generation,
            r.added.len(),
            r.updated.len(),
            r.removed.len(),
            r.unchanged,
            r.segments_written,
            if r.compacted { ", index compacted" } else { "" },
            r.duration_ms
        )
    } else {
        writeln!(
            out,
            "up to date: generation {}, {} file(s) unchanged ({} ms)",
            r.generation, r.unchanged, r.duration_ms
        )
    }
}

pub fn watch(args: WatchArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let config = project::read_config(&root).ok().flatten().unwrap_or_default();
    if config.resolve_in_background != Some(false) {
        // Each generation the watch makes, resolved once it settles (one
        // thread), for the questions other processes ask meanwhile.
        let _ = codegraph::graph::resolved::keep_current(root.clone(), 1);
    }
    let options = WatchOptions { quiet: Duration::from_millis(args.quiet_ms), ..WatchOptions::default() };
    let stop = AtomicBool::new(false);
    let mut on_event = |e: WatchEvent| {
        let mut out = io::stdout().lock();
        let _ = match e {
            // Progress goes to stderr whatever the output format.
            WatchEvent::Ready => {
                eprintln!("cg: watching {} (Ctrl-C to stop)", root.display());
                Ok(())
            }
            WatchEvent::Applying { paths, rescan } => {
                if rescan {
                    eprintln!("cg: {paths} changed paths: rescanning the tree");
                } else {
                    eprintln!("cg: applying {paths} changed path(s)");
                }
                Ok(())
            }
            WatchEvent::Updated(report) => {
                if args.json {
                    serde_json::to_writer(&mut out, &codegraph::mcp::json::update_report(&report))
                        .map_err(io::Error::from)
                        .and_then(|_| writeln!(out))
                } else {
                    print_report(&mut out, &report)
                }
            }
            WatchEvent::Failed(err) => {
                eprintln!("cg: update failed, the index is unchanged: {err}");
                Ok(())
            }
        };
        let _ = out.flush();
    };
    watch::watch(&root, &options, &stop, &mut on_event)?;
    Ok(())
}

#[derive(clap::Args)]
pub struct SyncGitArgs {
    /// The commit to sync from (default: the one the index records).
    #[arg(long, value_name = "REV")]
    from: Option<String>,
    /// The commit to sync to: HEAD, with the work tree's changes (the default;
    /// cg indexes files as they are on disk).
    #[arg(long, value_name = "REV")]
    to: Option<String>,
    /// Print nothing (the hooks' way).
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    writer: WriterFlags,
}

/// `cg sync-git`: the files commits changed since the index's commit, as one update.
pub fn sync_git(args: SyncGitArgs) -> Result<()> {
    let root = project_root(&args.writer.project)?;
    let wait = Duration::from_secs(args.writer.wait);
    let r = project::git::sync(&root, args.from.as_deref(), args.to.as_deref(), wait, &|_| {})?;
    if args.quiet {
        return Ok(());
    }
    let mut out = io::stdout().lock();
    if args.writer.json {
        serde_json::to_writer(&mut out, &codegraph::mcp::json::sync_report(&r))?;
        writeln!(out)?;
        return Ok(());
    }
    let short = |c: &str| c.chars().take(12).collect::<String>();
    let to = r.to.as_ref().map_or("no commit yet".to_string(), |s| {
        format!("{}{}", short(&s.commit), if s.dirty { " and the work tree's changes" } else { "" })
    });
    match (&r.rescan, &r.from) {
        (Some(why), _) => writeln!(out, "every file looked at: {why}")?,
        (None, Some(from)) => writeln!(out, "{} file(s) changed in git since {}", r.changed, short(from))?,
        (None, None) => {}
    }
    for note in &r.notes {
        writeln!(out, "note: {note}")?;
    }
    let u = &r.update;
    print_changes(&mut out, u)?;
    if u.changed() {
        writeln!(
            out,
            "index at {to}: generation {} (was {}): {} added, {} updated, {} removed",
            u.generation,
            u.previous_generation,
            u.added.len(),
            u.updated.len(),
            u.removed.len()
        )?;
    } else {
        writeln!(out, "index at {to}: no indexed file changed")?;
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct HooksArgs {
    /// install: sync after commits, merges, checkouts and rewrites;
    /// uninstall: take that out again.
    #[arg(value_parser = ["install", "uninstall"])]
    action: String,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
}

/// `cg hooks install|uninstall`.
pub fn hooks(args: HooksArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let r = match args.action.as_str() {
        "install" => project::git::install_hooks(&root)?,
        _ => project::git::uninstall_hooks(&root)?,
    };
    let mut out = io::stdout().lock();
    for (hook, done) in &r.hooks {
        writeln!(out, "{}: {done}", super::shown(&r.dir.join(hook).display().to_string()))?;
    }
    if args.action == "install" {
        writeln!(out, "each runs `cg sync-git` in the background (nothing when `cg` is not on PATH)")?;
    }
    Ok(())
}

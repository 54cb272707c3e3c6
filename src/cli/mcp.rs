//! `cg mcp`: the MCP server on stdio, for Claude Code and other agents.

use std::path::PathBuf;

use anyhow::{Context, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The project to serve (default: found from the current directory upwards;
    /// also where codegraph_init indexes by default).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Also let tools index, link or scan this folder (repeatable). By default
    /// every path argument must lie inside the served project (or, for links, a
    /// project already linked).
    #[arg(long, value_name = "PATH")]
    allow: Vec<PathBuf>,
    /// Log requests to stderr (also CG_LOG=1).
    #[arg(short, long)]
    verbose: bool,
}

pub fn run(args: Args) -> Result<()> {
    let start = match args.project {
        Some(p) => p,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    if args.verbose || std::env::var_os("CG_LOG").is_some() {
        eprintln!("cg mcp: serving {} (stdout carries only the protocol)", start.display());
    }
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).max_blocking_threads(16).enable_all().build()?;
    let result = runtime.block_on(codegraph::mcp::serve(start, args.allow));
    // stdin closed: stop now, without waiting for a tool call still running.
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    result
}

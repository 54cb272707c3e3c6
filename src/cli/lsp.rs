//! `cg lsp`: the language server on stdio.

use std::path::PathBuf;

use anyhow::Result;

#[derive(clap::Args)]
pub struct Args {
    /// The project (default: found from the editor's workspace folder upwards).
    #[arg(long)]
    project: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<()> {
    codegraph::lsp::serve(args.project)?;
    Ok(())
}

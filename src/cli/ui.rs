//! `cg ui`: the local web dashboard.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};

use super::index::project_root;

#[derive(clap::Args)]
pub struct Args {
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// The port on 127.0.0.1 (0: a free one).
    #[arg(long, default_value_t = 7070)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
}

pub fn run(args: Args) -> Result<()> {
    let root = project_root(&args.project)?;
    let shown = root.display().to_string();
    codegraph::ui::serve(&root, args.port, |url| {
        // The address first, alone on its line, for scripts that start it.
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{url}");
        let _ = out.flush();
        eprintln!("cg ui: serving {shown} at {url} (read-only, this machine only; Ctrl-C to stop)");
        if args.open {
            let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
            if std::process::Command::new(opener).arg(url).spawn().is_err() {
                eprintln!("cg ui: could not run {opener}; open {url} in a browser");
            }
        }
    })
    .context("cg ui")?;
    Ok(())
}

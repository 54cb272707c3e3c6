//! `cg query`: where a term occurs.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Result};
use codegraph::extract::LineType;
use codegraph::project::links::{self, ProjectMatches};
use codegraph::project::Index;
use codegraph::query::{self, text, Matcher, Mode, Query};

use super::index::project_root;

#[derive(clap::Args)]
pub struct Args {
    /// The term: a name, a prefix, a substring, a regex or a subword (`user` finds getUserById), per --mode.
    term: String,
    /// exact, starts_with, contains, regex or subword (identifiers split at case and `_`).
    #[arg(long, default_value = "exact")]
    mode: String,
    /// Match case exactly (default: case-insensitive).
    #[arg(long)]
    case_sensitive: bool,
    /// Only files matching this glob, as rg -g: '*.go' matches at any depth,
    /// 'src/core/**' below a folder, '!*_test.go' leaves files out (repeatable).
    #[arg(long, short = 'g', value_name = "GLOB")]
    file_filter: Vec<String>,
    /// Only these line types (comma-separated: code,comment,struct,method,property,string).
    #[arg(long = "type", value_delimiter = ',')]
    types: Vec<String>,
    /// At most this many matches (0: all). The total is always counted.
    #[arg(long, default_value_t = query::DEFAULT_LIMIT)]
    limit: usize,
    /// Order: `rank` (an exact term's definitions first, then other definition
    /// lines, then the rest) or `path` (definition lines, then the rest, each in
    /// path order).
    #[arg(long, default_value = "rank", value_parser = ["rank", "path"])]
    sort: String,
    /// Also search every linked project (`cg link`); matches name their project.
    #[arg(long)]
    include_dependencies: bool,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
    /// Colour the path, the line number and the match: `auto` (on a terminal,
    /// unless NO_COLOR is set), `always` or `never`.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,
    /// Segments to read instead of the project's index (`cg bench` times a `cg
    /// query` process on its temporary index with this).
    #[arg(long, hide = true)]
    segments: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<()> {
    let Some(mode) = Mode::from_name(&args.mode) else {
        bail!("unknown mode {:?}: use exact, starts_with, contains, regex or subword", args.mode);
    };
    let mut types = Vec::new();
    for t in &args.types {
        match LineType::from_name(t) {
            Some(t) => types.push(t),
            None => bail!("unknown line type {t:?}: use code, comment, struct, method, property or string"),
        }
    }
    let (root, index) = match &args.segments {
        Some(dir) => {
            let root = std::fs::canonicalize(args.project.clone().unwrap_or_else(|| PathBuf::from(".")))?;
            let mut names: Vec<String> = std::fs::read_dir(dir)?
                .flatten()
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n.ends_with(".cgs"))
                .collect();
            names.sort();
            let index = Index::open_in(dir, &root, &names)?;
            (root, index)
        }
        None => {
            let root = project_root(&args.project)?;
            let index = Index::open(&root)?;
            (root, index)
        }
    };
    let q = Query {
        term: args.term.clone(),
        mode,
        case_sensitive: args.case_sensitive,
        file_filter: args.file_filter.clone(),
        types,
        limit: args.limit,
        path_order: args.sort == "path",
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
    let matcher = Matcher::new(&q.term, q.mode, q.case_sensitive).ok();
    let words = groups.iter().map(|g| &g.matches.words).find(|w| !w.is_empty());
    if args.json {
        let value = codegraph::mcp::json::query_answer(&q, &groups, &errors, None);
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
        return found(total);
    }
    let color = match args.color.as_str() {
        "always" => true,
        "never" => false,
        _ => io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    };
    // What to highlight: the term's words when it was looked up as words.
    let highlight: Vec<Matcher> = match words {
        Some(words) => words.iter().filter_map(|w| Matcher::new(w, Mode::Exact, q.case_sensitive).ok()).collect(),
        None => Matcher::new(&q.term, q.mode, q.case_sensitive).ok().into_iter().collect(),
    };
    let paint = |code: &str, text: &str| if color { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() };
    for g in &groups {
        let mut reader = text::TextReader::new(&g.index, matcher.as_ref());
        let prefix = g.project.as_ref().map(|p| format!("[{}] ", super::shown(p))).unwrap_or_default();
        for h in &g.matches.hits {
            let t = reader.text(h);
            let stale = match (t.stale, t.gone) {
                (_, true) => " [gone: changed since indexed, `cg update` it]",
                (true, false) => " [stale]",
                _ => "",
            };
            let line_text = super::shown(t.text.as_deref().unwrap_or(""));
            let line_text = if color { marked(&line_text, &highlight) } else { line_text.into_owned() };
            writeln!(
                out,
                "{prefix}{}:{}: {}{}: {}",
                paint("35", &super::shown_path(&h.path)),
                paint("32", &t.line.to_string()),
                h.line_type.name(),
                stale,
                line_text
            )?;
        }
    }
    out.flush()?;
    let mut err = io::stderr().lock();
    for (name, e) in &errors {
        writeln!(err, "cg: [{name}] unavailable: {e}")?;
    }
    if let Some(words) = words {
        writeln!(err, "cg: looked up as the words {} on one line", words.join(", "))?;
    }
    let noun = if total == 1 { "match" } else { "matches" };
    if (shown as u64) < total {
        writeln!(err, "cg: {total} {noun} (showing {shown}; --limit 0 for all)")?;
    } else {
        writeln!(err, "cg: {total} {noun}")?;
    }
    found(total)
}

/// `text` with the words the matchers match in bold red.
fn marked(text: &str, matchers: &[Matcher]) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    let mut at = 0;
    codegraph::extract::words::for_each_word(text, 1, codegraph::extract::words::WordSource::Code, |w, _| {
        let start = w.as_ptr() as usize - text.as_ptr() as usize;
        if start >= at && matchers.iter().any(|m| m.matches(w)) {
            out.push_str(&text[at..start]);
            out.push_str("\x1b[1;31m");
            out.push_str(w);
            out.push_str("\x1b[0m");
            at = start + w.len();
        }
    });
    out.push_str(&text[at..]);
    out
}

/// Exit status 1 when nothing matched.
fn found(total: u64) -> Result<()> {
    if total == 0 {
        return Err(super::NothingMatched.into());
    }
    Ok(())
}

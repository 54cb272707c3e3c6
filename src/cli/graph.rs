//! The code graph commands: `cg refs`, `callers`, `callees`, `imports`,
//! `importers`, `hierarchy`, `impact`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use codegraph::extract::RefRole;
use codegraph::graph::{CallEdge, DefView, Graph, ImportView, MAX_DEPTH};
use codegraph::mcp::json::graph as answer;
use codegraph::project::Index;
use codegraph::query::{text, Matcher, Mode};

use super::index::project_root;
use super::signature::project_path;
use super::{shown, shown_path, NothingMatched};

/// The default number of items listed.
pub const DEFAULT_LIMIT: usize = 100;

#[derive(clap::Args)]
pub struct Common {
    /// At most this many items (0: all). The total is always counted.
    #[arg(long, default_value_t = DEFAULT_LIMIT)]
    limit: usize,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct SearchArgs {
    /// Words or an identifier: "hex string to color", "parse config", UserRepository.
    text: String,
    /// At most this many definitions.
    #[arg(long, default_value_t = codegraph::mcp::SEARCH_LIMIT)]
    limit: usize,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// lexical (BM25 over name subwords), semantic (static vectors of the
    /// model the index was built with) or hybrid (both). Default: hybrid when
    /// the index has vectors, else lexical.
    #[arg(long)]
    mode: Option<String>,
    /// The cosine's weight in hybrid search (for measuring; default: 1 with
    /// static vectors, up to 10 as the share with transformer vectors grows).
    #[arg(long, hide = true)]
    weight: Option<f64>,
    /// Static vectors only, even where transformer vectors exist (for measuring).
    #[arg(long, hide = true)]
    static_only: bool,
    /// Files instead of definitions: the hits grouped by file (and their
    /// copies' files, and the files whose own words hold a task's rare ones),
    /// best first; a file the text names by its name leads.
    #[arg(long)]
    files: bool,
    /// As an editor's symbol picker (`cg lsp`'s workspace symbols): names
    /// starting with the text or abbreviating it (`hdlReq`, `nrc`) first,
    /// then the words search's hits.
    #[arg(long, conflicts_with_all = ["files", "mode"])]
    names: bool,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct ContextArgs {
    /// The task, in words: "fix the crash when parseConfig gets an empty file".
    task: String,
    /// Tokens the bundle may take (about 4 bytes each).
    #[arg(long, default_value_t = codegraph::graph::DEFAULT_BUDGET)]
    budget: usize,
    /// Paths or symbols to start from (comma-separated or repeated).
    #[arg(long, value_delimiter = ',')]
    hints: Vec<String>,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the bundle as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct GraphArgs {
    /// A symbol (name, Type.member, qualified name, path:line) or a file.
    seed: String,
    /// Follow this many levels (1-3).
    #[arg(long, default_value_t = 1)]
    depth: usize,
    /// Only these relations (comma-separated: calls,imports,inherits; default all).
    #[arg(long, value_delimiter = ',')]
    relations: Vec<String>,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct RefsArgs {
    /// A name, Type.member, a qualified name, or path:line of a definition.
    symbol: String,
    /// Only these roles (comma-separated: call,type,import,inherit,other).
    #[arg(long, value_delimiter = ',')]
    kind: Vec<String>,
    #[command(flatten)]
    common: Common,
}

#[derive(clap::Args)]
pub struct CallArgs {
    /// A name, Type.member, a qualified name, or path:line of a definition.
    symbol: String,
    /// Follow this many levels (1-3).
    #[arg(long, default_value_t = 1)]
    depth: usize,
    #[command(flatten)]
    common: Common,
}

#[derive(clap::Args)]
pub struct FileArgs {
    /// The file, relative to the current directory or the project root.
    file: PathBuf,
    /// Follow this many levels (1-3).
    #[arg(long, default_value_t = 1)]
    depth: usize,
    #[command(flatten)]
    common: Common,
}

#[derive(clap::Args)]
pub struct HierarchyArgs {
    /// A type (or a method of one): name, Type.member, qualified name or path:line.
    symbol: String,
    #[command(flatten)]
    common: Common,
}

#[derive(clap::Args)]
pub struct ImpactArgs {
    /// A symbol (name, Type.member, qualified name, path:line) or a file.
    target: String,
    /// Follow this many levels (1-3).
    #[arg(long, default_value_t = 2)]
    depth: usize,
    #[command(flatten)]
    common: Common,
}

fn open(common: &Common) -> Result<(PathBuf, Index)> {
    let root = project_root(&common.project)?;
    let index = Index::open(&root)?;
    Ok((root, index))
}

fn check_depth(depth: usize) -> Result<usize> {
    if depth == 0 || depth > MAX_DEPTH {
        bail!("--depth {depth}: give 1 to {MAX_DEPTH}");
    }
    Ok(depth)
}

/// `path:line` with a path relative to the current folder becomes project-relative.
fn symbol_arg(root: &Path, symbol: &str) -> Result<String> {
    if let Some((path, line)) = symbol.rsplit_once(':') {
        let path_like = !path.is_empty() && (path.contains('/') || path.contains('.'));
        if path_like && line.parse::<u32>().is_ok() && (Path::new(path).exists() || root.join(path).exists()) {
            return Ok(format!("{}:{line}", project_path(root, Path::new(path))?));
        }
    }
    Ok(symbol.to_string())
}

fn print_json(v: &serde_json::Value) -> Result<()> {
    let mut out = io::stdout().lock();
    serde_json::to_writer(&mut out, v)?;
    writeln!(out)?;
    Ok(())
}

fn write_defs(out: &mut impl Write, defs: &[DefView]) -> io::Result<()> {
    for d in defs {
        writeln!(out, "{}:{}: {} {}", shown_path(&d.file), d.line, d.kind, shown(&d.qualified_name))?;
    }
    Ok(())
}

/// `what` is plural (`references`, `callers`, `imports`): `1 reference`.
fn counted(shown_n: usize, total: usize, what: &str) {
    let what = if total == 1 { what.strip_suffix('s').unwrap_or(what) } else { what };
    let more = if shown_n < total { format!(" ({shown_n} shown; --limit 0 shows all)") } else { String::new() };
    eprintln!("{total} {what}{more}");
}

pub fn refs(args: RefsArgs) -> Result<()> {
    let mut roles = Vec::new();
    for k in &args.kind {
        match RefRole::from_name(k) {
            Some(r) => roles.push(r),
            None => bail!("unknown reference kind {k:?}: use call, type, import, inherit or other"),
        }
    }
    let (root, index) = open(&args.common)?;
    let g = Graph::new(&index);
    let defs = g.find(&symbol_arg(&root, &args.symbol)?)?;
    let (refs, other) = g.refs_counted(&defs, &roles)?;
    let views: Vec<DefView> = defs.iter().map(|&d| g.view(d)).collect::<Result<_, _>>()?;
    if args.common.json {
        print_json(&answer::refs(&g, &views, (&refs, other), args.common.limit))?;
    } else {
        let mut out = io::stdout().lock();
        write_defs(&mut out, &views)?;
        let matcher = Matcher::new(&views[0].name, Mode::Exact, true).ok();
        let mut reader = text::TextReader::new(&index, matcher.as_ref());
        let limit = if args.common.limit == 0 { usize::MAX } else { args.common.limit };
        for r in refs.iter().take(limit) {
            let t = answer::line_text(&g, &mut reader, &r.file, r.line);
            let inside = r.in_.as_deref().map(|i| format!(" in {}", shown(i))).unwrap_or_default();
            let amb = if r.ambiguous { " (ambiguous)" } else { "" };
            let text = t.text.as_deref().map(shown).unwrap_or_default();
            writeln!(out, "{}:{}: {}{inside}{amb}: {text}", shown_path(&r.file), t.line, r.role)?;
        }
        counted(refs.len().min(limit), refs.len(), "references");
        if other > 0 {
            eprintln!(
                "{other} other lines name `{}` (references bound elsewhere or whose receiver's type is unknown, comments, strings)",
                views[0].name
            );
        }
    }
    if refs.is_empty() {
        return Err(NothingMatched.into());
    }
    Ok(())
}

fn write_edges(out: &mut impl Write, edges: &[CallEdge], limit: usize) -> io::Result<()> {
    for e in edges.iter().take(if limit == 0 { usize::MAX } else { limit }) {
        let indent = "  ".repeat(e.depth.saturating_sub(1));
        let what = match (&e.symbol, &e.external) {
            (Some(s), _) => format!("{} {}", s.kind, shown(&s.qualified_name)),
            (None, Some(x)) => format!("external {}", shown(x)),
            (None, None) => "(top level)".to_string(),
        };
        let at = match &e.symbol {
            Some(s) => format!("{}:{}", shown_path(&s.file), s.line),
            None => shown_path(&e.file).to_string(),
        };
        let lines: Vec<String> = e.lines.iter().map(u32::to_string).collect();
        let amb = if e.ambiguous { " (ambiguous)" } else { "" };
        writeln!(out, "{indent}{at}: {what}{amb}  [lines {}]", lines.join(","))?;
    }
    Ok(())
}

pub fn callers(args: CallArgs, reverse: bool) -> Result<()> {
    let depth = check_depth(args.depth)?;
    let (root, index) = open(&args.common)?;
    let g = Graph::new(&index);
    let defs = g.find(&symbol_arg(&root, &args.symbol)?)?;
    let views: Vec<DefView> = defs.iter().map(|&d| g.view(d)).collect::<Result<_, _>>()?;
    let edges = if reverse {
        let mut all = Vec::new();
        for &d in &defs {
            all.extend(g.callees(d, depth)?);
        }
        all
    } else {
        g.callers(&defs, depth)?
    };
    let key = if reverse { "callees" } else { "callers" };
    if args.common.json {
        print_json(&answer::calls(&views, key, &edges, args.common.limit))?;
    } else {
        let mut out = io::stdout().lock();
        write_defs(&mut out, &views)?;
        write_edges(&mut out, &edges, args.common.limit)?;
        counted(edges.len().min(limit_of(args.common.limit)), edges.len(), key);
    }
    if edges.is_empty() {
        return Err(NothingMatched.into());
    }
    Ok(())
}

fn limit_of(limit: usize) -> usize {
    if limit == 0 {
        usize::MAX
    } else {
        limit
    }
}

fn write_imports(out: &mut impl Write, list: &[ImportView], limit: usize, importers: bool) -> io::Result<()> {
    for i in list.iter().take(limit_of(limit)) {
        let indent = "  ".repeat(i.depth.saturating_sub(1));
        let names = if i.names.is_empty() { String::new() } else { format!(" {{{}}}", i.names.join(", ")) };
        let target = if i.external { "external".to_string() } else { i.resolved.join(", ") };
        if importers {
            writeln!(out, "{indent}{}:{}: {:?}{names}", shown_path(&i.file), i.line, i.module)?;
        } else {
            writeln!(out, "{indent}{}:{}: {:?}{names} -> {}", shown_path(&i.file), i.line, i.module, shown(&target))?;
        }
    }
    Ok(())
}

pub fn imports(args: FileArgs, importers: bool) -> Result<()> {
    let depth = check_depth(args.depth)?;
    let (root, index) = open(&args.common)?;
    let rel = project_path(&root, &args.file)?;
    let g = Graph::new(&index);
    let list = if importers { g.importers(&rel, depth)? } else { g.imports(&rel, depth)? };
    let key = if importers { "importers" } else { "imports" };
    if args.common.json {
        print_json(&answer::imports(&rel, key, &list, args.common.limit))?;
    } else {
        write_imports(&mut io::stdout().lock(), &list, args.common.limit, importers)?;
        counted(list.len().min(limit_of(args.common.limit)), list.len(), key);
    }
    if list.is_empty() {
        return Err(NothingMatched.into());
    }
    Ok(())
}

pub fn hierarchy(args: HierarchyArgs) -> Result<()> {
    let (root, index) = open(&args.common)?;
    let g = Graph::new(&index);
    let defs = g.find(&symbol_arg(&root, &args.symbol)?)?;
    let mut all = Vec::new();
    for &d in &defs {
        all.push(g.hierarchy(d)?);
    }
    if args.common.json {
        print_json(&answer::hierarchy(&all))?;
        return Ok(());
    }
    let mut out = io::stdout().lock();
    for h in &all {
        if let Some(s) = &h.symbol {
            write_defs(&mut out, std::slice::from_ref(s))?;
        }
        for (title, list) in [
            ("supertypes", &h.supertypes),
            ("subtypes", &h.subtypes),
            ("overrides", &h.overrides),
            ("overridden by", &h.overridden_by),
        ] {
            if list.is_empty() {
                continue;
            }
            writeln!(out, "  {title}:")?;
            for r in list {
                let indent = "  ".repeat(r.depth + 1);
                match &r.symbol {
                    Some(s) => writeln!(
                        out,
                        "{indent}{}:{}: {} {}",
                        shown_path(&s.file),
                        s.line,
                        s.kind,
                        shown(&s.qualified_name)
                    )?,
                    None => writeln!(out, "{indent}{} (not in the project)", shown(&r.name))?,
                }
            }
        }
    }
    Ok(())
}

pub fn impact(args: ImpactArgs) -> Result<()> {
    let depth = check_depth(args.depth)?;
    let (root, index) = open(&args.common)?;
    let g = Graph::new(&index);
    let target = if Path::new(&args.target).is_file() || root.join(&args.target).is_file() {
        project_path(&root, Path::new(&args.target))?
    } else {
        symbol_arg(&root, &args.target)?
    };
    let i = g.impact(&target, depth)?;
    if args.common.json {
        print_json(&answer::impact(&i, args.common.limit))?;
        return Ok(());
    }
    let mut out = io::stdout().lock();
    write_defs(&mut out, &i.symbols)?;
    if !i.callers.is_empty() {
        writeln!(out, "referenced from:")?;
        write_edges(&mut out, &i.callers, args.common.limit)?;
    }
    if !i.importers.is_empty() {
        writeln!(out, "imported by:")?;
        write_imports(&mut out, &i.importers, args.common.limit, true)?;
    }
    if !i.test_files.is_empty() {
        writeln!(out, "test files:")?;
        for t in &i.test_files {
            writeln!(out, "  {}", shown_path(t))?;
        }
    }
    eprintln!(
        "{} callers, {} importers, {} test files, {} tests",
        i.callers.len(),
        i.importers_total.max(i.importers.len()),
        i.test_files.len(),
        i.tests.len()
    );
    Ok(())
}

#[derive(clap::Args)]
pub struct SymbolArgs {
    /// `name`, `Type.member`, a qualified name, or `path:line` of a definition.
    symbol: String,
    /// The project (default: found from the current directory upwards).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print the result as JSON (the shape the MCP tool answers).
    #[arg(long)]
    json: bool,
}

/// `cg symbol SYMBOL`: the symbol card of the first definition matched.
pub fn search(args: SearchArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let (mode, model) = codegraph::graph::search_mode(&index, args.mode.as_deref()).map_err(anyhow::Error::msg)?;
    let deep = (mode != codegraph::graph::SearchMode::Lexical && !args.static_only)
        .then(|| codegraph::graph::deep_vectors(&index))
        .flatten();
    let g = Graph::new(&index).with_deep(deep);
    if args.text.split(|c: char| !c.is_alphanumeric()).all(str::is_empty) {
        bail!("empty query: give words or an identifier");
    }
    if args.files {
        let files = g.search_files(&args.text, args.limit, mode, model.as_deref())?;
        if args.json {
            print_json(&serde_json::json!({"query": args.text, "mode": mode.name(), "files": files}))?;
        } else {
            let mut out = io::stdout().lock();
            for f in &files {
                let defs: Vec<String> =
                    f.definitions.iter().map(|d| format!("{} ({})", shown(&d.name), d.line)).collect();
                writeln!(out, "{}  [{}]  {}", shown_path(&f.file), f.score, defs.join(", "))?;
            }
        }
        if files.is_empty() {
            return Err(NothingMatched.into());
        }
        return Ok(());
    }
    let found = if args.names {
        g.symbols(&args.text, args.limit)?
    } else {
        g.search_weighted(&args.text, args.limit, mode, model.as_deref(), args.weight)?
    };
    let v = answer::search(&g, &args.text, &found);
    if args.json {
        print_json(&v)?;
    } else {
        let mut out = io::stdout().lock();
        for r in v["results"].as_array().into_iter().flatten() {
            let s = |k: &str| r[k].as_str().unwrap_or("").to_string();
            writeln!(
                out,
                "{}:{}: {} {}  [{}]",
                shown_path(&s("file")),
                r["line"],
                s("kind"),
                shown(&s("qualified_name")),
                r["score"]
            )?;
            if let Some(t) = r["text"].as_str() {
                writeln!(out, "    {}", shown(t))?;
            }
            if let Some(d) = r["duplicates"].as_array() {
                let shown_d: Vec<String> = d
                    .iter()
                    .take(3)
                    .filter_map(|x| Some(format!("{}:{}", x["file"].as_str()?, x["line"].as_u64()?)))
                    .map(|p| shown(&p).into_owned())
                    .collect();
                let more = if d.len() > 3 { format!(", and {} more", d.len() - 3) } else { String::new() };
                writeln!(out, "    copies: {}{more}", shown_d.join(", "))?;
            }
        }
        let holding = found.definitions_holding.iter().copied().max().unwrap_or(0);
        if found.hits.len() == args.limit && holding > args.limit as u64 {
            eprintln!("cg: more definitions hold these words; best {} shown (--limit for more)", args.limit);
        }
    }
    if found.hits.is_empty() {
        return Err(NothingMatched.into());
    }
    Ok(())
}

pub fn context(args: ContextArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let model = codegraph::project::index_model(&root);
    let deep = model.as_ref().and_then(|_| codegraph::graph::deep_vectors(&index));
    let g = Graph::new(&index).with_model(model).with_deep(deep);
    let hints: Vec<String> = args.hints.iter().map(|h| h.trim().to_string()).filter(|h| !h.is_empty()).collect();
    let bundle = g.context(&args.task, args.budget, &hints)?;
    if args.json {
        return print_json(&serde_json::to_value(&bundle)?);
    }
    let mut out = io::stdout().lock();
    writeln!(out, "intent: {}", bundle.intent)?;
    writeln!(out, "FOCUS ({}):", bundle.focus.len())?;
    for f in &bundle.focus {
        match (&f.qualified_name, f.line) {
            (Some(q), Some(line)) => {
                writeln!(out, "  {}:{}: {} — {}", shown_path(&f.path), line, shown(q), shown(&f.reason))?
            }
            _ => writeln!(out, "  {} — {}", shown_path(&f.path), shown(&f.reason))?,
        }
    }
    for s in &bundle.snippets {
        writeln!(out, "\n--- {}:{}-{}", shown_path(&s.path), s.start, s.end)?;
        for (i, line) in s.text.lines().enumerate() {
            writeln!(out, "{:>6}  {line}", s.start as usize + i)?;
        }
    }
    if !bundle.subgraph.edges.is_empty() {
        writeln!(out, "\nCALLS:")?;
        for e in &bundle.subgraph.edges {
            let name = |i: usize| bundle.subgraph.nodes.get(i).map_or("?", |n| n.name.as_str());
            writeln!(out, "  {} -> {}", shown(name(e.from)), shown(name(e.to)))?;
        }
    }
    for n in &bundle.notes {
        eprintln!("cg: {n}");
    }
    eprintln!("cg: about {} of {} tokens", bundle.limits.used_estimate, bundle.limits.budget);
    if bundle.snippets.is_empty() && bundle.focus.is_empty() {
        return Err(NothingMatched.into());
    }
    Ok(())
}

pub fn neighborhood(args: GraphArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let g = Graph::new(&index);
    let relations = relation_list(&args.relations)?;
    if !(1..=MAX_DEPTH).contains(&args.depth) {
        bail!("--depth must be 1 to {MAX_DEPTH}");
    }
    let seed = match project_path(&root, Path::new(&args.seed)) {
        Ok(rel) if index.locate(&rel)?.is_some() => rel,
        _ => symbol_arg(&root, &args.seed)?,
    };
    let n = g.neighborhood(&seed, args.depth, &relations)?;
    if args.json {
        return print_json(&serde_json::to_value(&n)?);
    }
    let mut out = io::stdout().lock();
    writeln!(out, "NODES ({}{}):", n.nodes.len(), if n.truncated { ", more left out" } else { "" })?;
    for node in &n.nodes {
        let at = match (&node.file, node.line) {
            (Some(f), Some(l)) => format!("  {}:{l}", shown_path(f)),
            _ => String::new(),
        };
        let kind = node.symbol_kind.as_deref().unwrap_or(node.kind);
        let seed = if n.seeds.contains(&node.id) { " (seed)" } else { "" };
        writeln!(out, "  [{}] {kind} {}{at}{seed}", node.id, shown(&node.name))?;
    }
    writeln!(out, "EDGES ({}):", n.edges.len())?;
    for e in &n.edges {
        writeln!(out, "  [{}] -{}-> [{}]", e.from, e.relation, e.to)?;
    }
    Ok(())
}

/// Relations named on the command line, checked.
fn relation_list(given: &[String]) -> Result<Vec<&'static str>> {
    let mut out = Vec::new();
    for r in given {
        let r = r.trim();
        match codegraph::graph::RELATIONS.iter().find(|k| **k == r) {
            Some(k) => out.push(*k),
            None => bail!("unknown relation {r:?}: use calls, imports or inherits"),
        }
    }
    Ok(out)
}

pub fn symbol(args: SymbolArgs) -> Result<()> {
    let root = project_root(&args.project)?;
    let index = Index::open(&root)?;
    let g = Graph::new(&index);
    let defs = g.find(&symbol_arg(&root, &args.symbol)?)?;
    let card = g.card(defs[0])?;
    if args.json {
        return print_json(&serde_json::to_value(&card)?);
    }
    let mut out = io::stdout().lock();
    let s = &card.symbol;
    writeln!(out, "{} {}  {}:{}-{}", s.kind, shown(&s.qualified_name), shown_path(&s.file), s.line, s.end_line)?;
    if let Some(code) = &card.code {
        for (i, line) in code.text.lines().enumerate() {
            writeln!(out, "{:>6}  {line}", code.start as usize + i)?;
        }
        if code.truncated {
            writeln!(out, "        ... (`cg snippet {} {} {}` shows all)", shown_path(&s.file), s.line, s.end_line)?;
        }
    }
    let more =
        |shown_n: usize, total: usize| if total > shown_n { format!(", {shown_n} shown") } else { String::new() };
    writeln!(out, "CALLS ({}{}):", card.calls_total, more(card.calls.len(), card.calls_total))?;
    write_edges(&mut out, &card.calls, 0)?;
    writeln!(out, "CALLED BY ({}{}):", card.called_by_total, more(card.called_by.len(), card.called_by_total))?;
    write_edges(&mut out, &card.called_by, 0)?;
    writeln!(out, "IMPORTS of its file ({}):", card.imports.len())?;
    for i in &card.imports {
        let to = if i.resolved.is_empty() { String::new() } else { format!(" -> {}", i.resolved.join(", ")) };
        writeln!(out, "  {}{to}", shown(&i.module))?;
    }
    writeln!(out, "IN THE SAME FILE ({}):", card.same_file.len())?;
    for b in &card.same_file {
        writeln!(out, "  {}: {} {}", b.line, b.kind, shown(&b.qualified_name))?;
    }
    writeln!(out, "SAME NAME ({}{}):", card.same_name_total, more(card.same_name.len(), card.same_name_total))?;
    for b in &card.same_name {
        writeln!(out, "  {}:{}: {} {}", shown_path(&b.file), b.line, b.kind, shown(&b.qualified_name))?;
    }
    if defs.len() > 1 {
        eprintln!(
            "cg: {} definitions match {:?}; this is the first (give a qualified name or path:line)",
            defs.len(),
            args.symbol
        );
    }
    Ok(())
}

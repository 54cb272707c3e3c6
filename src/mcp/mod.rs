//! The MCP server (`cg mcp`): every codegraph tool over stdio, with rmcp.
//!
//! In: JSON-RPC on stdin. Out: JSON-RPC on stdout (nothing else is ever written
//! there; logs go to stderr). The index is memory-mapped once and reopened only when
//! `manifest.json` changes (another process built a new generation). Results are
//! compact JSON and bounded: a default limit, a hard cap, and `truncated` with the
//! total when the limit cuts. Bad input is an `isError` result that says what to do;
//! a panic in a tool is caught and reported, so it never ends the server.

pub mod client;
pub mod json;
mod params;
mod wire;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, ProgressNotificationParam, RequestMetaObject, ServerCapabilities,
    ServerConfig,
};
use rmcp::{tool, tool_handler, tool_router, ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};

pub use params::*;

use crate::extract::LineType;
use crate::project::{self, docs, links, summary, Index, InitOptions};
use crate::query::{self, Mode, Query};

/// Most matches one call returns, whatever limit is asked for.
pub const MAX_LIMIT: usize = 1000;
/// How long a tool that writes waits for another writer (a CLI `cg update`).
const MCP_LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(60);
/// The size of a default `codegraph_query` answer, in bytes (about 1,000 tokens).
pub const DEFAULT_ANSWER_BYTES: usize = 4096;
/// Most entries `codegraph_tree` answers.
pub const MAX_TREE_ENTRIES: usize = 500;
/// Results of a symbol search by default (CLI and MCP).
pub const SEARCH_LIMIT: usize = 10;

/// The server's state: the project it serves and the opened index.
#[derive(Clone)]
pub struct CodegraphServer {
    /// Where the server looks for the project (and indexes by default).
    start: Arc<Mutex<PathBuf>>,
    state: Arc<Mutex<Option<Opened>>>,
    /// Folders a path argument may lie in besides the project's own root and its
    /// links (`cg mcp --allow`), canonical.
    allowed: Arc<Vec<PathBuf>>,
    /// Tool calls running at once: as many as cores. Others wait their turn (a
    /// client that pipelines 2,000 calls does not get 2,000 threads).
    running: Arc<tokio::sync::Semaphore>,
    /// Tool calls under way, and when the last one started (for embedding
    /// while idle).
    activity: Arc<Activity>,
}

/// What the idle embedder watches.
#[derive(Default)]
pub struct Activity {
    calls: std::sync::atomic::AtomicUsize,
    last: Mutex<Option<std::time::Instant>>,
}

impl Activity {
    /// No call under way, and none for `quiet`.
    fn idle_for(&self, quiet: std::time::Duration) -> bool {
        self.calls.load(std::sync::atomic::Ordering::SeqCst) == 0
            && self.last.lock().ok().is_some_and(|l| l.is_none_or(|t| t.elapsed() >= quiet))
    }
}

struct Opened {
    root: PathBuf,
    stamp: Option<(SystemTime, u64)>,
    index: Arc<Index>,
}

fn manifest_stamp(root: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(root.join(project::DIR).join(project::MANIFEST)).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// An edited range of lines, when given, must be one (`from_line` ≤ `to_line`, from 1).
fn line_range(from: Option<u64>, to: Option<u64>) -> Result<(), String> {
    match (from, to) {
        (Some(f), Some(t)) if f == 0 || f > t => {
            Err(format!("from_line {f}, to_line {t}: not a range of lines (lines count from 1, from_line ≤ to_line)"))
        }
        (Some(0), None) | (None, Some(0)) => Err("lines count from 1".to_string()),
        _ => Ok(()),
    }
}

/// An empty file path is a mistake, not a rescan (that is `"."`).
fn not_empty(file: &str) -> Result<(), String> {
    if file.trim().is_empty() {
        return Err("empty file: give a path relative to the project root, or \".\" to rescan the project".into());
    }
    Ok(())
}

fn ok_json(v: Value) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::success(vec![ContentBlock::text(v.to_string())]))
}

fn fail(message: impl std::fmt::Display) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::error(vec![ContentBlock::text(message.to_string())]))
}

const NO_INDEX: &str = "this project has no codegraph index yet: call codegraph_init (path: the project root) first";

impl CodegraphServer {
    /// A server for the project found from `start` (the folder itself or a parent
    /// with `.codegraph/`); `start` is also the default path of `codegraph_init`.
    pub fn new(start: PathBuf, allow: &[PathBuf]) -> CodegraphServer {
        // The folder the server was started for is served: it and what lies below it.
        let start = std::fs::canonicalize(&start).unwrap_or(start);
        let root = project::find(&start).unwrap_or_else(|_| start.clone());
        let mut allowed: Vec<PathBuf> = vec![root];
        allowed.extend(allow.iter().filter_map(|p| std::fs::canonicalize(p).ok()));
        CodegraphServer {
            start: Arc::new(Mutex::new(start)),
            state: Arc::new(Mutex::new(None)),
            allowed: Arc::new(allowed),
            running: Arc::new(tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(2, |n| n.get()).max(2),
            )),
            activity: Arc::default(),
        }
    }

    /// A folder given to codegraph_init, codegraph_link or codegraph_scan, made
    /// absolute (relative paths are from the folder the server was started for) and
    /// confined: it must lie in the served project, a folder given with `--allow`, or
    /// (for `links`) a project already linked. Symlinks are resolved first.
    fn confined(&self, path: Option<&str>, links: bool) -> Result<PathBuf, String> {
        let start = self.start();
        let given = match path {
            Some(p) if !p.trim().is_empty() => PathBuf::from(p),
            Some(_) => return Err("empty path: give a folder inside the project, or leave it out".to_string()),
            None => return Ok(start),
        };
        let abs = if given.is_absolute() { given.clone() } else { start.join(&given) };
        let real = std::fs::canonicalize(&abs).map_err(|_| format!("{}: does not exist", given.display()))?;
        let mut roots: Vec<PathBuf> = self.allowed.to_vec();
        if links {
            if let Ok(root) = self.root() {
                roots.extend(links::read_links(&root).unwrap_or_default().into_iter().map(|l| l.path));
            }
        }
        if roots.iter().any(|r| real.starts_with(r)) {
            return Ok(real);
        }
        Err(format!(
            "{}: outside the project this server serves ({}); start `cg mcp` with --allow {} to permit it",
            given.display(),
            self.allowed.first().map_or_else(String::new, |r| r.display().to_string()),
            real.display()
        ))
    }

    fn start(&self) -> PathBuf {
        self.start.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The current index, reopened when a newer generation was written.
    fn index(&self) -> Result<(PathBuf, Arc<Index>), String> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(o) = state.as_ref() {
            if manifest_stamp(&o.root) == o.stamp {
                return Ok((o.root.clone(), o.index.clone()));
            }
        }
        let root = match &*state {
            Some(o) => o.root.clone(),
            None => project::find(&self.start()).map_err(|_| NO_INDEX.to_string())?,
        };
        let stamp = manifest_stamp(&root);
        let index = Arc::new(Index::open(&root).map_err(|e| e.to_string())?);
        *state = Some(Opened { root: root.clone(), stamp, index: index.clone() });
        Ok((root, index))
    }

    /// Applies an update to the served project; the next call sees the new
    /// generation (the manifest changed, so the index is reopened).
    fn apply(&self, request: project::Request, file: Option<&str>) -> Result<Value, String> {
        let root = self.root()?;
        let options = project::UpdateOptions { lock_wait: MCP_LOCK_WAIT, ..Default::default() };
        let report = project::update(&root, &request, &options, &|_| {}).map_err(|e| e.to_string())?;
        let mut v = json::update_report(&report);
        if let Some(f) = file {
            v["file"] = json!(f);
        }
        Ok(v)
    }

    fn root(&self) -> Result<PathBuf, String> {
        self.index().map(|(r, _)| r)
    }

    /// Runs blocking work off the async runtime; a panic becomes an error result.
    /// [`CodegraphServer::blocking`], the answer cut to `max_tokens` (about 4
    /// bytes each) when given.
    async fn blocking_fit<F>(&self, max_tokens: Option<u64>, f: F) -> Result<CallToolResult, ErrorData>
    where
        F: FnOnce(CodegraphServer) -> Result<Value, String> + Send + 'static,
    {
        self.blocking(move |me| {
            let mut v = f(me)?;
            if let Some(tokens) = max_tokens {
                json::fit(&mut v, (tokens as usize).saturating_mul(4));
            }
            Ok(v)
        })
        .await
    }

    async fn blocking<F>(&self, f: F) -> Result<CallToolResult, ErrorData>
    where
        F: FnOnce(CodegraphServer) -> Result<Value, String> + Send + 'static,
    {
        let me = self.clone();
        let _busy = Busy::start(&self.activity);
        let Ok(_permit) = self.running.clone().acquire_owned().await else {
            return fail("the server is shutting down");
        };
        match tokio::task::spawn_blocking(move || f(me)).await {
            Ok(Ok(v)) => ok_json(v),
            Ok(Err(message)) => fail(message),
            Err(_) => fail("internal error in this tool (it panicked); the server keeps running — please report it"),
        }
    }

    /// A path from an agent as a project-relative path, refusing ones that leave
    /// the project (`..`, absolute paths elsewhere, symlinks pointing out).
    fn relative(&self, root: &Path, path: &str) -> Result<String, String> {
        relative(root, path)
    }
}

/// A path argument relative to the project root, refused when it is outside
/// (`..`, an absolute path elsewhere, a symlink out): what every path a
/// client gives is checked with.
pub fn relative(root: &Path, path: &str) -> Result<String, String> {
    let p = Path::new(path);
    let abs = if p.is_absolute() { p.to_path_buf() } else { root.join(p) };
    let resolved = std::fs::canonicalize(&abs).ok();
    let check = resolved.clone().unwrap_or_else(|| abs.clone());
    let lexical_escape = path.split(['/', '\\']).any(|c| c == "..");
    if (p.is_absolute() && !check.starts_with(root))
        || lexical_escape
        || resolved.as_ref().is_some_and(|r| !r.starts_with(root))
    {
        return Err(format!(
            "{path}: outside the project {}; give a path relative to the project root",
            root.display()
        ));
    }
    match resolved {
        Some(r) => crate::extract::rel_path(root, &r).ok_or_else(|| format!("{path}: not valid UTF-8")),
        None => Ok(path.trim_start_matches("./").replace('\\', "/")),
    }
}

#[tool_handler]
impl ServerHandler for CodegraphServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("codegraph", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }
}

/// What the server tells the agent when it connects.
const INSTRUCTIONS: &str = "codegraph indexes this project's source (C#, TypeScript, JavaScript, Rust, Go, \
Python, Java, C, C++, PHP, Ruby). Prefer it to grep and to reading whole files: codegraph_query finds where a \
name occurs (file, line, line type, text; definitions first), codegraph_search finds definitions by words \
when the exact name is unknown, codegraph_context gathers what to read for a task under a token budget, \
codegraph_symbol shows one with its callers and callees, codegraph_signature(s) shows what files declare, codegraph_summary \
says what the project is; codegraph_refs, codegraph_callers / codegraph_callees, codegraph_hierarchy, \
codegraph_imports and codegraph_impact answer who uses or calls a symbol, what it calls and what a change \
can reach, resolved through types and imports. After editing, creating or deleting files, call codegraph_update (or \
codegraph_update_batch) for them so answers stay exact. If a tool says there is no index, call codegraph_init once.";

#[tool_router]
impl CodegraphServer {
    #[tool(
        name = "codegraph_query",
        description = "Find where a name occurs in the project: file, line, line type (code, comment, struct, method, property, string) and the line's text, definitions first. Use this instead of grep for identifiers, comment words and string words. Modes: exact (default), starts_with, contains, regex, subword (user finds getUserById, UserRepository, user_service); case-insensitive unless case_sensitive. The default answer is about 1,000 tokens of the best matches (set max_tokens or limit for more). Returns {term, total_matches, shown, truncated, files:[{file, matches:[{line, type, text}]}], hint?}."
    )]
    async fn codegraph_query(&self, Parameters(p): Parameters<QueryParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking(move |me| {
            let (root, index) = me.index()?;
            let mode = match p.mode.as_deref() {
                None => Mode::Exact,
                Some(m) => Mode::from_name(m)
                    .ok_or_else(|| format!("unknown mode {m:?}: use exact, starts_with, contains, regex or subword"))?,
            };
            let mut types = Vec::new();
            for t in p.type_filter.unwrap_or_default() {
                types.push(LineType::from_name(&t).ok_or_else(|| {
                    format!("unknown line type {t:?}: use code, comment, struct, method, property or string")
                })?);
            }
            // With max_tokens and no limit, the token budget decides how many.
            let default_limit = if p.max_tokens.is_some() { MAX_LIMIT } else { query::DEFAULT_LIMIT };
            let limit = p.limit.unwrap_or(default_limit as u64).clamp(1, MAX_LIMIT as u64) as usize;
            let q = Query {
                term: p.term.clone(),
                mode,
                case_sensitive: p.case_sensitive.unwrap_or(false),
                file_filter: p.file_filter.into_iter().collect(),
                types,
                limit,
                path_order: match p.sort.as_deref() {
                    None | Some("rank") => false,
                    Some("path") => true,
                    Some(other) => return Err(format!("unknown sort {other:?}: use rank or path")),
                },
            };
            let (groups, errors) = if p.include_dependencies.unwrap_or(false) {
                links::search_with_links(&root, index, &q).map_err(|e| e.to_string())?
            } else {
                let matches = query::search(&index, &q).map_err(|e| e.to_string())?;
                (vec![links::ProjectMatches { project: None, index, matches }], Vec::new())
            };
            // An agent's default answer is sized in bytes, best matches first
            // (definitions lead); an explicit limit without max_tokens is honoured.
            let budget = match (p.max_tokens, p.limit) {
                (Some(tokens), _) => Some((tokens as usize).saturating_mul(4)),
                (None, None) => Some(DEFAULT_ANSWER_BYTES),
                (None, Some(_)) => None,
            };
            Ok(json::query_answer(&q, &groups, &errors, budget))
        })
        .await
    }

    #[tool(
        name = "codegraph_refs",
        description = "Every reference to a symbol, resolved the way a careful reader would (receiver types, imports, packages), not by name alone: its definitions, then each use with file, line, role (call, type, import, inherit, other), the definition it occurs in, its line text, and ambiguous when other definitions could be meant. Use before changing or renaming a symbol."
    )]
    async fn codegraph_refs(&self, Parameters(p): Parameters<RefsParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (_, index) = me.index()?;
            let mut roles = Vec::new();
            for k in p.kind.unwrap_or_default() {
                roles.push(
                    crate::extract::RefRole::from_name(&k)
                        .ok_or_else(|| format!("unknown kind {k:?}: use call, type, import, inherit or other"))?,
                );
            }
            let g = graph_of(&index);
            let defs = g.find(&p.symbol).map_err(|e| e.to_string())?;
            let (refs, other) = g.refs_counted(&defs, &roles).map_err(|e| e.to_string())?;
            let views = defs.iter().map(|&d| g.view(d)).collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string())?;
            Ok(noting_cut(&g, json::graph::refs(&g, &views, (&refs, other), graph_limit(p.limit))))
        })
        .await
    }

    #[tool(
        name = "codegraph_callers",
        description = "The functions that call a function or method (depth 2-3: and their callers), each with its call-site lines; a caller reached twice is listed once. Answers who calls this / what breaks if its signature changes."
    )]
    async fn codegraph_callers(&self, Parameters(p): Parameters<CallsParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (_, index) = me.index()?;
            let g = graph_of(&index);
            let defs = g.find(&p.symbol).map_err(|e| e.to_string())?;
            let edges = g.callers(&defs, graph_depth(p.depth, 1)?).map_err(|e| e.to_string())?;
            let views = defs.iter().map(|&d| g.view(d)).collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string())?;
            Ok(noting_cut(&g, json::graph::calls(&views, "callers", &edges, graph_limit(p.limit))))
        })
        .await
    }

    #[tool(
        name = "codegraph_callees",
        description = "What a function or method calls (depth 2-3: and what those call), each resolved to its definition with the call-site lines; calls outside the project are listed by name as external."
    )]
    async fn codegraph_callees(&self, Parameters(p): Parameters<CallsParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (_, index) = me.index()?;
            let g = graph_of(&index);
            let defs = g.find(&p.symbol).map_err(|e| e.to_string())?;
            let depth = graph_depth(p.depth, 1)?;
            let mut edges = Vec::new();
            for &d in &defs {
                edges.extend(g.callees(d, depth).map_err(|e| e.to_string())?);
            }
            let views = defs.iter().map(|&d| g.view(d)).collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string())?;
            Ok(noting_cut(&g, json::graph::calls(&views, "callees", &edges, graph_limit(p.limit))))
        })
        .await
    }

    #[tool(
        name = "codegraph_imports",
        description = "A file's imports, each resolved to the project files it names (or external), or with importers=true the files that import it. depth 2-3 follows further."
    )]
    async fn codegraph_imports(&self, Parameters(p): Parameters<ImportsParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (root, index) = me.index()?;
            let rel = me.relative(&root, &p.file)?;
            let g = graph_of(&index);
            let depth = graph_depth(p.depth, 1)?;
            let importers = p.importers.unwrap_or(false);
            let list =
                if importers { g.importers(&rel, depth) } else { g.imports(&rel, depth) }.map_err(|e| e.to_string())?;
            let key = if importers { "importers" } else { "imports" };
            Ok(noting_cut(&g, json::graph::imports(&rel, key, &list, graph_limit(p.limit))))
        })
        .await
    }

    #[tool(
        name = "codegraph_hierarchy",
        description = "A type's supertypes and subtypes (extends, implements, base lists, trait impls, Go embedding), to 3 levels; for a method, also the methods it overrides or implements and those overriding it."
    )]
    async fn codegraph_hierarchy(
        &self,
        Parameters(p): Parameters<HierarchyParams>,
    ) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (_, index) = me.index()?;
            let g = graph_of(&index);
            let defs = g.find(&p.symbol).map_err(|e| e.to_string())?;
            let mut all = Vec::new();
            for d in defs {
                all.push(g.hierarchy(d).map_err(|e| e.to_string())?);
            }
            Ok(noting_cut(&g, json::graph::hierarchy(&all)))
        })
        .await
    }

    #[tool(
        name = "codegraph_search",
        description = "Find definitions (types, functions, methods, properties) by words when the exact name is unknown: the query splits into subwords as identifiers do (getUserById: get, user, by, id), and definitions whose names hold them rank by BM25 (rare subwords weigh more; the name spelled as the whole query first), then by path, kind, and non-test before test. \"hex string to color\" finds hexStringToColor. When the index has vectors (a model added with `cg model add`), search is hybrid by default: also by meaning (\"where is user input validated\"), from each definition's name, signature, doc comment and path. Returns {query, mode, subwords, definitions_holding (per subword, the definitions whose names hold it), vectors_compared?, transformer_vectors_compared?, hybrid_weight?, results:[{name, kind, qualified_name, file, line, end_line, score, text}]} (a query of four words or more reads as a task: a file it names by its name comes first, as kind file when it defines nothing); follow up with codegraph_symbol."
    )]
    async fn codegraph_search(&self, Parameters(p): Parameters<SearchParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (_, index) = me.index()?;
            let g = graph_of(&index);
            let limit = p.limit.unwrap_or(SEARCH_LIMIT as u64).clamp(1, 100) as usize;
            if p.query.split(|c: char| !c.is_alphanumeric()).all(str::is_empty) {
                return Err("empty query: give words or an identifier".to_string());
            }
            if p.names == Some(true) {
                if p.files == Some(true) || p.mode.is_some() {
                    return Err("names: give it without files and mode".to_string());
                }
                let found = g.symbols(&p.query, limit).map_err(|e| e.to_string())?;
                return Ok(json::graph::search(&g, &p.query, &found));
            }
            let (mode, model) = crate::graph::search_mode(&index, p.mode.as_deref())?;
            let deep =
                (mode != crate::graph::SearchMode::Lexical).then(|| crate::graph::deep_vectors(&index)).flatten();
            let g = g.with_deep(deep);
            if p.files == Some(true) {
                let files = g.search_files(&p.query, limit, mode, model.as_deref()).map_err(|e| e.to_string())?;
                return Ok(json!({"query": p.query, "mode": mode.name(), "files": files}));
            }
            let found = g.search_by(&p.query, limit, mode, model.as_deref()).map_err(|e| e.to_string())?;
            Ok(json::graph::search(&g, &p.query, &found))
        })
        .await
    }

    #[tool(
        name = "codegraph_context",
        description = "What to read for a task, in one call, under a token budget (default 8000): the definitions the task names (identifiers, paths, hints) or its words match, what they call and what calls them, as code snippets (definition extents), each with why it is there, plus the calls between them; the first files of the task's files ranking (codegraph_search with files) are named in focus with their rank even when no snippet of theirs fits (open them next). Start here on a new task instead of searching and reading files. Returns {repo:{root, rev}, intent, focus:[{type, path, qualified_name?, line?, reason}], snippets:[{path, start, end, sha256, text}], subgraph:{nodes, edges}, notes, limits:{budget, used_estimate}}."
    )]
    async fn codegraph_context(&self, Parameters(p): Parameters<ContextParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (root, index) = me.index()?;
            let model = project::index_model(&root);
            let deep = model.as_ref().and_then(|_| crate::graph::deep_vectors(&index));
            let g = graph_of(&index).with_model(model).with_deep(deep);
            let budget =
                p.budget.or(p.max_tokens).unwrap_or(crate::graph::DEFAULT_BUDGET as u64).clamp(200, 200_000) as usize;
            let mut hints = Vec::new();
            for h in p.hints.unwrap_or_default() {
                // A path must stay inside the project; anything else is a symbol.
                let looks_like_path = h.contains('/') || h.contains('\\');
                hints.push(if looks_like_path { me.relative(&root, &h)? } else { h });
            }
            let bundle = g.context(&p.task, budget, &hints).map_err(|e| e.to_string())?;
            Ok(noting_cut(&g, serde_json::to_value(&bundle).unwrap_or(serde_json::Value::Null)))
        })
        .await
    }

    #[tool(
        name = "codegraph_graph",
        description = "The nodes and edges around a symbol or a file: who calls it and what it calls, the files it imports and that import it, its supertypes, subtypes and overrides, to a depth (default 1). Returns {seeds, nodes:[{id, type, name, symbol_kind?, file?, line?}], edges:[{from, to, relation}], truncated?}."
    )]
    async fn codegraph_graph(&self, Parameters(p): Parameters<GraphParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (root, index) = me.index()?;
            let g = graph_of(&index);
            let depth = graph_depth(p.depth, 1)?;
            let mut relations = Vec::new();
            for r in p.relations.unwrap_or_default() {
                match crate::graph::RELATIONS.iter().find(|k| **k == r.trim()) {
                    Some(k) => relations.push(*k),
                    None => return Err(format!("unknown relation {r:?}: use calls, imports or inherits")),
                }
            }
            let seed = match me.relative(&root, &p.seed) {
                Ok(rel) if index.locate(&rel).ok().flatten().is_some() => rel,
                _ => p.seed.clone(),
            };
            let n = g.neighborhood(&seed, depth, &relations).map_err(|e| e.to_string())?;
            Ok(noting_cut(&g, serde_json::to_value(&n).unwrap_or(serde_json::Value::Null)))
        })
        .await
    }

    #[tool(
        name = "codegraph_symbol",
        description = "A symbol card, to act without another search: the definition's code (up to 60 lines), what it calls and who calls it (with call-site lines), its file's imports, the other symbols of its file, and other definitions with its name. Returns {symbol, code?, calls, calls_total, called_by, called_by_total, imports, same_file, same_name, same_name_total}."
    )]
    async fn codegraph_symbol(&self, Parameters(p): Parameters<SymbolParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (_, index) = me.index()?;
            let g = graph_of(&index);
            let defs = g.find(&p.symbol).map_err(|e| e.to_string())?;
            let card = g.card(defs[0]).map_err(|e| e.to_string())?;
            Ok(noting_cut(&g, serde_json::to_value(&card).unwrap_or(serde_json::Value::Null)))
        })
        .await
    }

    #[tool(
        name = "codegraph_impact",
        description = "What a change to a symbol or a file can reach: the functions referencing it and their callers (depth, default 2), the files importing it, and the test files and test functions among them. Use to decide what to re-check and which tests to run."
    )]
    async fn codegraph_impact(&self, Parameters(p): Parameters<ImpactParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (root, index) = me.index()?;
            let g = graph_of(&index);
            let depth = graph_depth(p.depth, 2)?;
            let target = match me.relative(&root, &p.target) {
                Ok(rel) if index.locate(&rel).ok().flatten().is_some() => rel,
                _ => p.target.clone(),
            };
            let impact = g.impact(&target, depth).map_err(|e| e.to_string())?;
            Ok(noting_cut(&g, json::graph::impact(&impact, graph_limit(p.limit))))
        })
        .await
    }

    #[tool(
        name = "codegraph_signature",
        description = "What one file declares, without reading it: header comments, types (name, kind, line), method prototypes (with visibility, static, async) and non-private properties. `file` is relative to the project root."
    )]
    async fn codegraph_signature(
        &self,
        Parameters(p): Parameters<SignatureParams>,
    ) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (root, index) = me.index()?;
            let rel = me.relative(&root, &p.file)?;
            match project::signature(&index, &rel).map_err(|e| e.to_string())? {
                Some(s) => Ok(json::signature(&s)),
                None => Err(format!("{rel}: not in the index (not a source file codegraph reads, excluded, or new: call codegraph_update for it)")),
            }
        })
        .await
    }

    #[tool(
        name = "codegraph_snippet",
        description = "Lines start..end of an indexed file as it is now (at most 400 lines / 64 KiB): read a definition's extent from codegraph_query, codegraph_refs or codegraph_signature without reading the whole file. Returns {file, start, end, text, truncated?, stale?}."
    )]
    async fn codegraph_snippet(&self, Parameters(p): Parameters<SnippetParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (root, index) = me.index()?;
            let rel = me.relative(&root, &p.file)?;
            let s = crate::query::text::snippet(&index, &rel, p.start, p.end.unwrap_or(p.start))
                .map_err(|e| e.to_string())?;
            Ok(serde_json::to_value(&s).unwrap_or(serde_json::Value::Null))
        })
        .await
    }

    #[tool(
        name = "codegraph_signatures",
        description = "Signatures of many files at once, in path order: give `path` (a glob like src/Core/** or a folder) or `files` (a list). At most `limit` files (default 20, max 200); `omitted` counts the rest."
    )]
    async fn codegraph_signatures(
        &self,
        Parameters(p): Parameters<SignaturesParams>,
    ) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (root, index) = me.index()?;
            let limit = p.limit.unwrap_or(project::DEFAULT_SIGNATURES as u64).clamp(1, 200) as usize;
            let (sigs, omitted) = match p.files {
                Some(files) if !files.is_empty() => {
                    let mut sigs = Vec::new();
                    let mut omitted = 0;
                    for f in files {
                        let rel = me.relative(&root, &f)?;
                        if let Some(s) = project::signature(&index, &rel).map_err(|e| e.to_string())? {
                            if sigs.len() < limit { sigs.push(s) } else { omitted += 1 }
                        }
                    }
                    (sigs, omitted)
                }
                _ => {
                    let glob = p.path.unwrap_or_default();
                    if glob.split('/').any(|c| c == "..") || Path::new(&glob).is_absolute() {
                        return Err(format!("{glob}: outside the project; give a glob relative to the project root"));
                    }
                    let found = project::signatures(&index, &glob, limit).map_err(|e| e.to_string())?;
                    (found.signatures, found.omitted)
                }
            };
            Ok(json!({"signatures": sigs.iter().map(json::signature).collect::<Vec<_>>(), "omitted": omitted, "truncated": omitted > 0}))
        })
        .await
    }

    #[tool(
        name = "codegraph_summary",
        description = "What this project is: purpose, architecture, key concepts and patterns (written by people or by codegraph_describe), plus detected entry points, main types, dependencies and directory structure. Start here in an unfamiliar project."
    )]
    async fn codegraph_summary(&self, Parameters(p): Parameters<OnlyMaxTokens>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| json::summary(&me.root()?)).await
    }

    #[tool(
        name = "codegraph_describe",
        description = "Record what you learned about the project in its summary: section is purpose, architecture, concepts, patterns or custom; content is Markdown, appended unless replace is true. Re-indexing never overwrites it."
    )]
    async fn codegraph_describe(&self, Parameters(p): Parameters<DescribeParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let root = me.root()?;
            let _lock = project::WriteLock::acquire_waiting(&root.join(project::DIR), MCP_LOCK_WAIT)
                .map_err(|e| e.to_string())?;
            summary::describe(&root, &p.section, &p.content, p.replace.unwrap_or(false)).map_err(|e| e.to_string())?;
            Ok(json!({"success": true, "section": p.section}))
        })
        .await
    }

    #[tool(
        name = "codegraph_tree",
        description = "The indexed files as nested folders: a folder is {name, files, entries}, a file is its name (or {name, items, methods} with include_stats: distinct terms and methods). `path` limits it to a folder, `depth` to levels below it (default 2; 0 for all). At most 500 entries."
    )]
    async fn codegraph_tree(&self, Parameters(p): Parameters<TreeParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (root, index) = me.index()?;
            let prefix = match p.path.as_deref() {
                Some(path) if !path.is_empty() && path != "." => me.relative(&root, path)?,
                _ => String::new(),
            };
            let entries =
                project::tree(&index, &prefix, p.depth.unwrap_or(project::DEFAULT_TREE_DEPTH as u64) as usize)
                    .map_err(|e| e.to_string())?;
            Ok(json::tree(&prefix, &entries, p.include_stats.unwrap_or(false), MAX_TREE_ENTRIES))
        })
        .await
    }

    #[tool(
        name = "codegraph_status",
        description = "Counts and state of this project's index: files, lines, items (distinct terms), occurrences, methods, types, linked dependencies, segments, last update, bytes on disk."
    )]
    async fn codegraph_status(&self, Parameters(p): Parameters<OnlyMaxTokens>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (root, index) = me.index()?;
            json::status(&root, &index)
        })
        .await
    }

    #[tool(
        name = "codegraph_init",
        description = "Index a project (default: the folder the server was started in): walks it honouring .gitignore, extracts every source file of the eleven languages it reads (C#, TypeScript, JavaScript, Rust, Go, Python, Java, C, C++, PHP, Ruby), writes .codegraph/. Reports progress on long trees; other tools keep answering meanwhile. Returns files_indexed, items_found, duration_ms."
    )]
    async fn codegraph_init(
        &self,
        Parameters(p): Parameters<InitParams>,
        meta: RequestMetaObject,
        client: Peer<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let path = match self.confined(p.path.as_deref(), false) {
            Ok(path) => path,
            Err(message) => return fail(message),
        };
        let token = meta.get_progress_token();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, usize)>();
        let forwarder = token.map(|token| {
            let client = client.clone();
            tokio::spawn(async move {
                while let Some((done, total)) = rx.recv().await {
                    let note = ProgressNotificationParam::new(token.clone(), done as f64)
                        .with_total(total as f64)
                        .with_message(format!("indexed {done} of {total} files"));
                    let _ = client.notify_progress(note).await;
                }
            })
        });
        let result = self
            .blocking(move |me| {
                let options = InitOptions {
                    name: p.name,
                    languages: p.languages.unwrap_or_default(),
                    exclude: p.exclude.unwrap_or_default(),
                    include: Vec::new(),
                    keep_dirs: Vec::new(),
                    max_slots_per_segment: None,
                    max_file_bytes: None,
                    lock_wait: Some(MCP_LOCK_WAIT),
                    model: None,
                };
                let progress = move |pr: crate::index::Progress| {
                    let _ = tx.send((pr.files_done, pr.files_total));
                };
                let report = project::init(&path, &options, &progress).map_err(|e| e.to_string())?;
                // Serve this project from now on.
                *me.state.lock().unwrap_or_else(|p| p.into_inner()) = None;
                if let Some(root) = report.codegraph_path.parent() {
                    *me.start.lock().unwrap_or_else(|p| p.into_inner()) = root.to_path_buf();
                }
                Ok(json!({
                    "success": true,
                    "codegraph_path": report.codegraph_path,
                    "files_indexed": report.manifest.files,
                    "items_found": report.manifest.terms,
                    "duration_ms": report.duration_ms,
                    "files_skipped": report.skipped.len(),
                }))
            })
            .await;
        // Every progress notification goes out before the result.
        if let Some(f) = forwarder {
            let _ = f.await;
        }
        result
    }

    #[tool(
        name = "codegraph_update",
        description = "Re-index one file after editing, creating or deleting it (a deleted file drops out), so queries see it right away with correct line numbers; \".\" rescans the whole project for new, changed and deleted files. `file` is relative to the project root; from_line/to_line are accepted as hints (the whole file is re-extracted). Returns {success, file, items_added, items_removed, lines_updated, generation, added, updated, removed, duration_ms}."
    )]
    async fn codegraph_update(&self, Parameters(p): Parameters<UpdateParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            line_range(p.from_line, p.to_line)?;
            not_empty(&p.file)?;
            me.apply(project::Request::Update(vec![p.file.clone()]), Some(&p.file))
        })
        .await
    }

    #[tool(
        name = "codegraph_sync_git",
        description = "Bring the index to HEAD and the work tree after commits, a pull, a branch switch or a rebase: only the files git reports changed since the index's commit (or from_commit) are re-indexed, as one change; every file is looked at (and the answer says why) when that commit is unknown, an ignore file changed or most of the tree changed. Returns {success, from_commit, to_commit, work_tree_changes, files_changed_in_git, rescan?, notes?, generation, added, updated, removed, duration_ms}."
    )]
    async fn codegraph_sync_git(&self, Parameters(p): Parameters<SyncGitParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let root = me.root()?;
            let (from, to) = (p.from_commit.as_deref(), p.to_commit.as_deref());
            let report = project::git::sync(&root, from, to, MCP_LOCK_WAIT, &|_| {}).map_err(|e| e.to_string())?;
            Ok(json::sync_report(&report))
        })
        .await
    }

    #[tool(
        name = "codegraph_update_batch",
        description = "Re-index several files as one change: either all of it becomes visible or none of it (an unknown path fails the whole batch). Use after a refactoring touching many files. Returns the same fields as codegraph_update, summed."
    )]
    async fn codegraph_update_batch(
        &self,
        Parameters(p): Parameters<UpdateBatchParams>,
    ) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            if p.files.is_empty() {
                return Err("files is empty: give at least one {file}".to_string());
            }
            for f in &p.files {
                line_range(f.from_line, f.to_line)?;
                not_empty(&f.file)?;
            }
            me.apply(project::Request::Update(p.files.into_iter().map(|f| f.file).collect()), None)
        })
        .await
    }

    #[tool(
        name = "codegraph_remove",
        description = "Take a file (or every file under a folder) out of the index, e.g. after deleting it. The file itself is not touched. Returns {success, file, removed, generation}."
    )]
    async fn codegraph_remove(&self, Parameters(p): Parameters<RemoveParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            me.apply(project::Request::Remove(vec![p.file.clone()]), Some(&p.file))
        })
        .await
    }

    #[tool(
        name = "codegraph_link",
        description = "Link another indexed project (its root or its .codegraph folder) so codegraph_query with include_dependencies searches it too. Returns dependency_id, name, files_available."
    )]
    async fn codegraph_link(&self, Parameters(p): Parameters<LinkParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let root = me.root()?;
            let target = me.confined(Some(&p.path), true)?;
            let _lock = project::WriteLock::acquire_waiting(&root.join(project::DIR), MCP_LOCK_WAIT)
                .map_err(|e| e.to_string())?;
            let (l, files) = links::link(&root, &target, p.name.as_deref()).map_err(|e| e.to_string())?;
            Ok(json!({"success": true, "dependency_id": l.id, "name": l.name, "files_available": files}))
        })
        .await
    }

    #[tool(name = "codegraph_unlink", description = "Remove a linked project, by its name or path.")]
    async fn codegraph_unlink(&self, Parameters(p): Parameters<UnlinkParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let root = me.root()?;
            let _lock = project::WriteLock::acquire_waiting(&root.join(project::DIR), MCP_LOCK_WAIT)
                .map_err(|e| e.to_string())?;
            let l = links::unlink(&root, &p.name).map_err(|e| e.to_string())?;
            Ok(json!({"success": true, "name": l.name, "path": l.path}))
        })
        .await
    }

    #[tool(
        name = "codegraph_links",
        description = "The linked projects: name, path, files available, and whether each can be reached now."
    )]
    async fn codegraph_links(&self, Parameters(p): Parameters<OnlyMaxTokens>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let root = me.root()?;
            let statuses = links::statuses(&root).map_err(|e| e.to_string())?;
            Ok(json!({"links": statuses.iter().map(|s| json!({
                "id": s.link.id, "name": s.link.name, "path": s.link.path,
                "files_available": s.files, "reachable": s.error.is_none(), "error": s.error,
            })).collect::<Vec<_>>()}))
        })
        .await
    }

    #[tool(
        name = "codegraph_scan",
        description = "Find every indexed project under a folder (default: the server's folder): name, path, files, last update; broken indexes are listed with the reason. At most 200."
    )]
    async fn codegraph_scan(&self, Parameters(p): Parameters<ScanParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let dir = me.confined(p.path.as_deref(), true)?;
            let found = links::scan(&dir).map_err(|e| e.to_string())?;
            let total = found.len();
            Ok(json!({"projects": found.iter().take(200).map(|f| json!({
                "name": f.name, "path": f.path, "files": f.files,
                "last_update": f.last_update_unix_ms.map(|ms| ms / 1000), "error": f.error,
            })).collect::<Vec<_>>(), "total": total, "truncated": total > 200}))
        })
        .await
    }

    #[tool(
        name = "codegraph_docs",
        description = "The project's CLAUDE.md files as imported into the index (root, .claude/, subfolders), each section naming its source; `section` keeps only sections whose title or source contains it."
    )]
    async fn codegraph_docs(&self, Parameters(p): Parameters<DocsParams>) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let root = me.root()?;
            let text = docs::read(&root, p.section.as_deref()).map_err(|e| e.to_string())?;
            Ok(json!({"content": text}))
        })
        .await
    }

    #[tool(
        name = "codegraph_update_docs",
        description = "Re-import every CLAUDE.md of the project into the docs (after they were edited)."
    )]
    async fn codegraph_update_docs(
        &self,
        Parameters(p): Parameters<OnlyMaxTokens>,
    ) -> Result<CallToolResult, ErrorData> {
        self.blocking_fit(p.max_tokens, move |me| {
            let (root, index) = me.index()?;
            let _lock = project::WriteLock::acquire_waiting(&root.join(project::DIR), MCP_LOCK_WAIT)
                .map_err(|e| e.to_string())?;
            let name = index.manifest.as_ref().map(|m| m.name.clone()).unwrap_or_default();
            let sources = docs::update(&root, &name).map_err(|e| e.to_string())?;
            Ok(json!({"success": true, "imported": sources}))
        })
        .await
    }
}

fn spawn_watcher(root: PathBuf) {
    std::thread::spawn(move || {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut on_event = |e: project::watch::WatchEvent| match e {
            project::watch::WatchEvent::Ready => eprintln!("cg mcp: auto_update: watching {}", root.display()),
            project::watch::WatchEvent::Failed(err) => eprintln!("cg mcp: auto_update failed, index unchanged: {err}"),
            _ => {}
        };
        if let Err(e) = project::watch::watch(&root, &Default::default(), &stop, &mut on_event) {
            eprintln!("cg mcp: auto_update is off: {e}");
        }
    });
}

/// A tool call under way (counted until dropped).
struct Busy(Arc<Activity>);

impl Busy {
    fn start(a: &Arc<Activity>) -> Busy {
        a.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        if let Ok(mut l) = a.last.lock() {
            *l = Some(std::time::Instant::now());
        }
        Busy(a.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.calls.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        if let Ok(mut l) = self.0.last.lock() {
            *l = Some(std::time::Instant::now());
        }
    }
}

/// How long a graph tool (refs, callers, callees, imports, hierarchy, search,
/// context, graph, symbol, impact) walks before it answers with what it found:
/// 10 s, or `CG_TOOL_SECS`.
fn tool_time_limit() -> std::time::Duration {
    let secs = std::env::var("CG_TOOL_SECS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(10.0);
    std::time::Duration::from_secs_f64(secs.clamp(0.0, 86_400.0))
}

/// The graph a tool call asks, with the tools' time limit.
fn graph_of(index: &Index) -> crate::graph::Graph<'_> {
    crate::graph::Graph::new(index).with_time_limit(tool_time_limit())
}

/// `answer`, saying so when the time limit cut the walk that made it: its
/// lists hold what was found by then, and `total` counts only those.
fn noting_cut(g: &crate::graph::Graph<'_>, mut answer: Value) -> Value {
    if g.was_cut() {
        if let Some(o) = answer.as_object_mut() {
            o.insert(
                "cut".to_string(),
                json!(format!(
                    "stopped at the time limit ({:.0} s): the answer holds what was found by then; narrow the question (a qualified name, a smaller depth) for a whole one",
                    tool_time_limit().as_secs_f64()
                )),
            );
        }
    }
    answer
}

/// How long no tool call must come before the idle embedder runs: 20 s, or
/// `CG_EMBED_IDLE_SECS`.
fn idle_spell() -> std::time::Duration {
    let secs = std::env::var("CG_EMBED_IDLE_SECS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(20.0);
    std::time::Duration::from_secs_f64(secs.clamp(0.0, 86_400.0))
}

/// `cg embed` while the server is idle (`"embed_when_idle": true`): it stops
/// within a step (16 definitions) of a tool call arriving, saves, and goes on
/// after the next quiet spell; it checks again for new definitions every few
/// minutes once all are embedded.
fn spawn_embedder(root: PathBuf, activity: Arc<Activity>) {
    std::thread::spawn(move || {
        let config = project::read_config(&root).ok().flatten().unwrap_or_default();
        let Ok(models) = crate::embed::ModelStore::from_env() else { return };
        let Some(name) = config.model.filter(|m| m != project::NO_MODEL).or_else(|| models.default_name()) else {
            eprintln!("cg mcp: embed_when_idle: no model configured (`cg model add`)");
            return;
        };
        let mut encoder = None;
        let idle = idle_spell();
        let tick = idle.clamp(std::time::Duration::from_millis(200), std::time::Duration::from_secs(5));
        loop {
            std::thread::sleep(tick);
            if !activity.idle_for(idle) {
                continue;
            }
            if encoder.is_none() {
                match models.cached_encoder(&name) {
                    Ok(e) => encoder = Some(e),
                    Err(e) => {
                        eprintln!("cg mcp: embed_when_idle is off: {e}");
                        return;
                    }
                }
            }
            let Some(e) = &encoder else { return };
            let options = project::embed::EmbedOptions { step: 16, ..Default::default() };
            let mut go_on = |_: project::embed::EmbedProgress| activity.idle_for(idle);
            match project::embed::embed(&root, e, &options, &mut go_on) {
                Ok(r) if r.left == 0 || r.embedded == 0 => {
                    // All done (or nothing possible until an update): look again later.
                    std::thread::sleep(std::time::Duration::from_secs(180));
                }
                Ok(_) => {}
                Err(project::ProjectError::Locked { .. }) => std::thread::sleep(std::time::Duration::from_secs(60)),
                Err(err) => {
                    eprintln!("cg mcp: embed_when_idle stopped: {err}");
                    return;
                }
            }
        }
    });
}

/// Serves the project found from `start` on stdin/stdout until the client closes.
///
/// When the project's `config.json` says `"auto_update": true`, a watcher thread
/// applies file changes as they happen (`cg watch`); with `"embed_when_idle":
/// true`, a thread runs `cg embed` while no tool call comes. Their messages go
/// to stderr.
pub async fn serve(start: PathBuf, allow: Vec<PathBuf>) -> anyhow::Result<()> {
    let server = CodegraphServer::new(start.clone(), &allow);
    if let Ok(root) = project::find(&start) {
        let config = project::read_config(&root).ok().flatten().unwrap_or_default();
        if config.auto_update {
            spawn_watcher(root.clone());
        }
        if config.resolve_in_background != Some(false) {
            // One thread: the other answers questions meanwhile.
            let _ = crate::graph::resolved::keep_current(root.clone(), 1);
        }
        if config.embed_when_idle {
            spawn_embedder(root, server.activity.clone());
        }
    }
    let running = server.serve(wire::guarded_stdio()).await?;
    running.waiting().await?;
    Ok(())
}

/// A graph tool's `limit`: default 100, 0 is all, at most 10,000.
fn graph_limit(limit: Option<u64>) -> usize {
    match limit {
        None => 100,
        Some(0) => 0,
        Some(n) => n.min(10_000) as usize,
    }
}

/// A graph tool's `depth`: 1 to 3.
fn graph_depth(depth: Option<u64>, default: usize) -> Result<usize, String> {
    match depth {
        None => Ok(default),
        Some(d) if d >= 1 && d <= crate::graph::MAX_DEPTH as u64 => Ok(d as usize),
        Some(d) => Err(format!("depth {d}: give 1 to {}", crate::graph::MAX_DEPTH)),
    }
}

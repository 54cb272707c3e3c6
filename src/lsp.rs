//! `cg lsp`: a language server on stdio, answered from the project's index and
//! its graph, for every editor with an LSP client.
//!
//! Capabilities: `workspace/symbol` (the ranked subword search), definition,
//! references, hover, document symbols (nested by extent), implementation
//! (overrides and subtypes), call hierarchy (incoming and outgoing calls) and
//! type hierarchy (direct supertypes and subtypes). What the graph marks ambiguous is
//! answered with every candidate, never one guessed.
//!
//! Saves (`didSave`) and watched-file changes update the index on a thread of
//! their own, a burst as one update; requests are answered meanwhile from the
//! last generation, which is reopened when `manifest.json` changes. Unsaved
//! buffers are not read: answers are about the files as they are on disk.
//!
//! The frames are read here, not by `lsp-server`'s reader (which ends the
//! connection on a malformed frame): a bad frame gets a JSON-RPC parse error
//! and the server reads on. `lsp-server` gives the message types and their
//! writing; `lsp-types` the parameters and answers.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types as lsp;
use lsp_types::Url;
use serde_json::{json, Value};

use crate::graph::{DefCat, DefId, DefView, Graph};
use crate::project::{self, Index};

/// The largest frame read (a `didOpen` of a large file is the largest).
const MAX_FRAME: usize = 64 << 20;
/// Quiet after a save before the burst is applied.
const DEBOUNCE: Duration = Duration::from_millis(100);
/// How long a request's graph walk runs before it answers what it found.
const REQUEST_TIME_LIMIT: Duration = Duration::from_secs(10);
/// The longest header line read; past it, a header is malformed.
const MAX_HEADER_LINE: u64 = 8192;
/// Most symbols a `workspace/symbol` answer lists.
const SYMBOLS: usize = 100;

/// What the frame reader hands the loop.
enum Incoming {
    Message(Message),
    /// A frame that is not a JSON-RPC message (the reason).
    Bad(String),
}

/// Serves the project found from `start` (else from the client's workspace
/// folder, else the current folder) until `exit` or the end of stdin.
pub fn serve(start: Option<PathBuf>) -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || read_frames(tx));
    let mut out = io::stdout().lock();
    // Before `initialize`, requests get an error; `exit` ends.
    let params = loop {
        match rx.recv() {
            Err(_) => return Ok(()),
            Ok(Incoming::Bad(why)) => parse_error(&mut out, &why)?,
            Ok(Incoming::Message(Message::Request(r))) if r.method == "initialize" => break (r.id, r.params),
            Ok(Incoming::Message(Message::Request(r))) => {
                let e = Response::new_err(r.id, ErrorCode::ServerNotInitialized as i32, "initialize first".into());
                send(&mut out, e.into())?;
            }
            Ok(Incoming::Message(Message::Notification(n))) if n.method == "exit" => return Ok(()),
            Ok(Incoming::Message(_)) => {}
        }
    };
    let (id, params) = params;
    let init: lsp::InitializeParams = serde_json::from_value(params).unwrap_or_default();
    #[allow(deprecated)]
    let folder = start
        .or_else(|| init.workspace_folders.as_ref()?.first()?.uri.to_file_path().ok())
        .or_else(|| init.root_uri.as_ref()?.to_file_path().ok())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    let mut server = Server::new(&folder);
    let mut caps = serde_json::to_value(capabilities()).unwrap_or_else(|_| json!({}));
    // (Not a field of lsp-types' capabilities yet.)
    caps["typeHierarchyProvider"] = json!(true);
    let result = json!({
        "capabilities": caps,
        "serverInfo": {"name": "codegraph", "version": env!("CARGO_PKG_VERSION")},
    });
    send(&mut out, Response::new_ok(id, result).into())?;
    if server.root.is_none() {
        let text = format!("codegraph: no index found from {}: run `cg init` in the project", folder.display());
        let n = Notification::new("window/showMessage".into(), json!({"type": 2, "message": text}));
        send(&mut out, n.into())?;
    }
    let mut shutting_down = false;
    for incoming in rx {
        let msg = match incoming {
            Incoming::Bad(why) => {
                parse_error(&mut out, &why)?;
                continue;
            }
            Incoming::Message(m) => m,
        };
        match msg {
            Message::Request(r) if r.method == "shutdown" => {
                shutting_down = true;
                send(&mut out, Response::new_ok(r.id, Value::Null).into())?;
            }
            Message::Request(r) if shutting_down => {
                let e = Response::new_err(r.id, ErrorCode::InvalidRequest as i32, "shutting down".into());
                send(&mut out, e.into())?;
            }
            Message::Request(r) => {
                let id = r.id.clone();
                let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.answer(&r)));
                let response = match answer {
                    Ok(Ok(v)) => Response::new_ok(id, v),
                    Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
                    Err(_) => Response::new_err(
                        id,
                        ErrorCode::InternalError as i32,
                        "internal error in codegraph (it panicked); the server keeps running".into(),
                    ),
                };
                send(&mut out, response.into())?;
            }
            Message::Notification(n) if n.method == "exit" => break,
            Message::Notification(n) => server.notified(&n),
            Message::Response(_) => {}
        }
    }
    Ok(())
}

fn send(out: &mut impl Write, msg: Message) -> io::Result<()> {
    msg.write(out)?;
    out.flush()
}

fn parse_error(out: &mut impl Write, why: &str) -> io::Result<()> {
    let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": why}}).to_string();
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
}

/// Reads `Content-Length` frames from stdin until it ends.
fn read_frames(tx: mpsc::Sender<Incoming>) {
    let mut input = BufReader::new(io::stdin().lock());
    loop {
        let mut length: Option<usize> = None;
        let mut bad_header = false;
        loop {
            let mut line = Vec::new();
            match (&mut input).take(MAX_HEADER_LINE).read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            if !line.ends_with(b"\n") && line.len() as u64 == MAX_HEADER_LINE {
                // A header line without end in sight: passed over to its end.
                bad_header = true;
                loop {
                    let mut rest = Vec::new();
                    match (&mut input).take(MAX_HEADER_LINE).read_until(b'\n', &mut rest) {
                        Ok(0) | Err(_) => return,
                        Ok(_) if rest.ends_with(b"\n") => break,
                        Ok(_) => {}
                    }
                }
                continue;
            }
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                break;
            }
            match line.split_once(':') {
                Some((k, v)) if k.trim().eq_ignore_ascii_case("content-length") => match v.trim().parse() {
                    Ok(n) => length = Some(n),
                    Err(_) => bad_header = true,
                },
                Some(_) => {}
                None => bad_header = true,
            }
        }
        let Some(n) = length else {
            let why = if bad_header { "malformed header" } else { "a frame without Content-Length" };
            if tx.send(Incoming::Bad(why.into())).is_err() {
                return;
            }
            continue;
        };
        if n > MAX_FRAME {
            // Read past it, then say so.
            if io::copy(&mut (&mut input).take(n as u64), &mut io::sink()).is_err() {
                return;
            }
            let _ = tx.send(Incoming::Bad(format!("a frame of {n} bytes, over the {MAX_FRAME} this server reads")));
            continue;
        }
        let mut body = vec![0; n];
        if input.read_exact(&mut body).is_err() {
            return;
        }
        let incoming = match serde_json::from_slice::<Message>(&body) {
            Ok(m) => Incoming::Message(m),
            Err(e) => Incoming::Bad(format!("not a JSON-RPC message: {e}")),
        };
        if tx.send(incoming).is_err() {
            return;
        }
    }
}

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(lsp::TextDocumentSyncOptions {
            open_close: Some(false),
            change: Some(lsp::TextDocumentSyncKind::NONE),
            save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
            ..Default::default()
        })),
        workspace_symbol_provider: Some(lsp::OneOf::Left(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        implementation_provider: Some(lsp::ImplementationProviderCapability::Simple(true)),
        call_hierarchy_provider: Some(lsp::CallHierarchyServerCapability::Simple(true)),
        ..Default::default()
    }
}

type Answer = Result<Value, (ErrorCode, String)>;

/// `manifest.json`'s modification time and size (`None`: unreadable).
type Stamp = Option<(SystemTime, u64)>;

struct Server {
    /// The project root (canonical), when an index was found.
    root: Option<PathBuf>,
    /// The opened index and the manifest's stamp it was opened at.
    opened: Option<(Stamp, Arc<Index>)>,
    /// Paths to update, to the updater thread.
    updates: Option<mpsc::Sender<PathBuf>>,
}

impl Server {
    fn new(folder: &Path) -> Server {
        let root = project::find(folder).ok().and_then(|r| std::fs::canonicalize(r).ok());
        if let Some(root) = &root {
            let config = project::read_config(root).ok().flatten().unwrap_or_default();
            if config.resolve_in_background != Some(false) {
                let _ = crate::graph::resolved::keep_current(root.clone(), 1);
            }
        }
        let updates = root.clone().map(|root| {
            let (tx, rx) = mpsc::channel::<PathBuf>();
            std::thread::spawn(move || apply_updates(&root, rx));
            tx
        });
        Server { root, opened: None, updates }
    }

    /// The index as of the last generation.
    fn index(&mut self) -> Option<Arc<Index>> {
        let root = self.root.clone()?;
        let stamp = std::fs::metadata(root.join(project::DIR).join(project::MANIFEST))
            .ok()
            .map(|m| (m.modified().unwrap_or(SystemTime::UNIX_EPOCH), m.len()));
        if let Some((at, index)) = &self.opened {
            if *at == stamp {
                return Some(index.clone());
            }
        }
        let index = Arc::new(Index::open(&root).ok()?);
        self.opened = Some((stamp, index.clone()));
        Some(index)
    }

    fn notified(&mut self, n: &Notification) {
        let mut paths: Vec<PathBuf> = Vec::new();
        match n.method.as_str() {
            "textDocument/didSave" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidSaveTextDocumentParams>(n.params.clone()) {
                    paths.extend(p.text_document.uri.to_file_path().ok());
                }
            }
            "workspace/didChangeWatchedFiles" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidChangeWatchedFilesParams>(n.params.clone()) {
                    paths.extend(p.changes.iter().filter_map(|c| c.uri.to_file_path().ok()));
                }
            }
            _ => {}
        }
        if let (Some(tx), Some(root)) = (&self.updates, &self.root) {
            for p in paths.into_iter().filter(|p| p.starts_with(root)) {
                let _ = tx.send(p);
            }
        }
    }

    fn answer(&mut self, r: &Request) -> Answer {
        let p = &r.params;
        let Some(index) = self.index() else {
            // No index: nothing to answer from (the client was told at start).
            return Ok(Value::Null);
        };
        let root = self.root.clone().unwrap_or_default();
        // As the MCP server's graph tools: a walk past the limit answers what
        // it found, so one request never holds up the ones behind it.
        let g = Graph::new(&index).with_time_limit(REQUEST_TIME_LIMIT);
        let at = Place { root: &root, g: &g, read: Default::default() };
        let v = match r.method.as_str() {
            "workspace/symbol" => {
                let q: lsp::WorkspaceSymbolParams = params(p)?;
                json!(at.symbols(&q.query).map_err(internal)?)
            }
            "textDocument/definition" => {
                let q: lsp::GotoDefinitionParams = params(p)?;
                let (defs, _) = at.defs_at(&q.text_document_position_params)?;
                json!(defs.iter().filter_map(|(_, d)| at.location(d)).collect::<Vec<_>>())
            }
            "textDocument/implementation" => {
                let q: lsp::GotoDefinitionParams = params(p)?;
                json!(at.implementations(&q.text_document_position_params)?)
            }
            "textDocument/references" => {
                let q: lsp::ReferenceParams = params(p)?;
                json!(at.references(&q.text_document_position, q.context.include_declaration)?)
            }
            "textDocument/hover" => {
                let q: lsp::HoverParams = params(p)?;
                json!(at.hover(&q.text_document_position_params)?)
            }
            "textDocument/documentSymbol" => {
                let q: lsp::DocumentSymbolParams = params(p)?;
                json!(at.document_symbols(&q.text_document.uri)?)
            }
            "textDocument/prepareCallHierarchy" => {
                let q: lsp::CallHierarchyPrepareParams = params(p)?;
                let (defs, _) = at.defs_at(&q.text_document_position_params)?;
                json!(defs.iter().filter_map(|(_, d)| at.item(d)).collect::<Vec<_>>())
            }
            "callHierarchy/incomingCalls" => {
                let q: lsp::CallHierarchyIncomingCallsParams = params(p)?;
                json!(at.incoming(&q.item)?)
            }
            "callHierarchy/outgoingCalls" => {
                let q: lsp::CallHierarchyOutgoingCallsParams = params(p)?;
                json!(at.outgoing(&q.item)?)
            }
            "textDocument/prepareTypeHierarchy" => {
                let q: lsp::TypeHierarchyPrepareParams = params(p)?;
                let (defs, _) = at.defs_at(&q.text_document_position_params)?;
                let types = defs.iter().filter(|(id, _)| at.g.def(*id).is_ok_and(|(_, d)| d.cat == DefCat::Type));
                json!(types.filter_map(|(_, d)| at.item(d)).map(type_item).collect::<Vec<_>>())
            }
            "typeHierarchy/supertypes" | "typeHierarchy/subtypes" => {
                let q: lsp::TypeHierarchySupertypesParams = params(p)?;
                json!(at.related_types(&q.item, r.method == "typeHierarchy/supertypes")?)
            }
            other => return Err((ErrorCode::MethodNotFound, format!("{other}: not answered by codegraph"))),
        };
        Ok(v)
    }
}

fn params<T: serde::de::DeserializeOwned>(v: &Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(v.clone()).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn internal(e: impl std::fmt::Display) -> (ErrorCode, String) {
    (ErrorCode::InternalError, e.to_string())
}

/// Applies saved paths as updates, a burst (paths arriving within
/// [`DEBOUNCE`] of each other) as one.
fn apply_updates(root: &Path, rx: mpsc::Receiver<PathBuf>) {
    while let Ok(first) = rx.recv() {
        let mut paths = vec![first];
        while let Ok(p) = rx.recv_timeout(DEBOUNCE) {
            if !paths.contains(&p) {
                paths.push(p);
            }
        }
        let paths = paths.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let options = project::UpdateOptions {
            lenient: true,
            lock_wait: Duration::from_secs(60),
            ..project::UpdateOptions::default()
        };
        if let Err(e) = project::update(root, &project::Request::Update(paths), &options, &|_| {}) {
            eprintln!("codegraph: update after a save failed: {e}");
        }
    }
}

/// A file's bytes and where its lines start.
struct Lines {
    bytes: Vec<u8>,
    starts: Vec<usize>,
}

/// Positions and files of one question.
struct Place<'a> {
    root: &'a Path,
    g: &'a Graph<'a>,
    /// Files read for their lines, by path, with where each line starts
    /// (`None`: unreadable).
    read: std::cell::RefCell<std::collections::HashMap<String, Option<std::rc::Rc<Lines>>>>,
}

impl Place<'_> {
    /// The project-relative path of a file URI inside the project.
    fn rel(&self, uri: &Url) -> Option<String> {
        let path = uri.to_file_path().ok()?;
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        let rel = path.strip_prefix(self.root).ok()?;
        Some(rel.to_str()?.replace('\\', "/"))
    }

    fn uri(&self, rel: &str) -> Option<Url> {
        Url::from_file_path(self.root.join(rel)).ok()
    }

    /// Line `line` (1-based) of an indexed file as it is on disk.
    fn line_text(&self, rel: &str, line: u32) -> Option<String> {
        let lines = self
            .read
            .borrow_mut()
            .entry(rel.to_string())
            .or_insert_with(|| {
                let (bytes, _) = crate::query::text::read_regular(&self.root.join(rel), self.root, 64 << 20)?;
                let starts = std::iter::once(0).chain(memchr::memchr_iter(b'\n', &bytes).map(|i| i + 1)).collect();
                Some(std::rc::Rc::new(Lines { bytes, starts }))
            })
            .clone()?;
        let i = line.checked_sub(1)? as usize;
        let start = *lines.starts.get(i)?;
        let end = lines.starts.get(i + 1).map_or(lines.bytes.len(), |&e| e - 1);
        if start > lines.bytes.len() || (start == lines.bytes.len() && i + 1 == lines.starts.len() && i > 0) {
            return None;
        }
        let text = String::from_utf8_lossy(&lines.bytes[start..end.max(start)]);
        Some(text.trim_end_matches('\r').to_string())
    }

    /// The definitions the word at a position means, with their views, and
    /// whether that is a guess among several (none outside the project or
    /// off an identifier).
    #[allow(clippy::type_complexity)]
    fn defs_at(
        &self,
        at: &lsp::TextDocumentPositionParams,
    ) -> Result<(Vec<(DefId, DefView)>, bool), (ErrorCode, String)> {
        let Some(rel) = self.rel(&at.text_document.uri) else { return Ok((Vec::new(), false)) };
        let line = at.position.line + 1;
        let Some(text) = self.line_text(&rel, line) else { return Ok((Vec::new(), false)) };
        let Some(word) = word_at(&text, at.position.character) else { return Ok((Vec::new(), false)) };
        let (ids, ambiguous) = match self.g.defs_at(&rel, line, &word) {
            Ok(found) => found,
            Err(crate::graph::GraphError::NoSuchFile(_)) => return Ok((Vec::new(), false)),
            Err(e) => return Err(internal(e)),
        };
        let views =
            ids.iter().map(|&d| self.g.view(d).map(|v| (d, v))).collect::<Result<Vec<_>, _>>().map_err(internal)?;
        Ok((views, ambiguous))
    }

    /// A range on `line` (1-based) of `rel` covering `word` where it is
    /// written there (else the line's start).
    fn range(&self, rel: &str, line: u32, word: &str) -> lsp::Range {
        let l = line.saturating_sub(1);
        let (from, to) = self
            .line_text(rel, line)
            .and_then(|t| {
                let at = find_word(&t, word)?;
                Some((utf16_len(&t[..at]), utf16_len(&t[..at + word.len()])))
            })
            .unwrap_or((0, 0));
        lsp::Range::new(lsp::Position::new(l, from), lsp::Position::new(l, to))
    }

    fn location(&self, d: &DefView) -> Option<lsp::Location> {
        Some(lsp::Location::new(self.uri(&d.file)?, self.range(&d.file, d.line, &d.name)))
    }

    fn symbols(&self, query: &str) -> Result<Vec<lsp::SymbolInformation>, crate::graph::GraphError> {
        if query.split(|c: char| !c.is_alphanumeric()).all(str::is_empty) {
            return Ok(Vec::new());
        }
        let found = self.g.symbols(query, SYMBOLS)?;
        Ok(found
            .hits
            .iter()
            .filter_map(|h| {
                let container = h.qualified_name.rsplit_once(['.', ':', '\\']).map(|(c, _)| c.trim_end_matches(':'));
                #[allow(deprecated)]
                Some(lsp::SymbolInformation {
                    name: h.name.clone(),
                    kind: symbol_kind(&h.kind),
                    tags: None,
                    deprecated: None,
                    location: lsp::Location::new(self.uri(&h.file)?, self.range(&h.file, h.line, &h.name)),
                    container_name: container.map(str::to_string),
                })
            })
            .collect())
    }

    fn references(
        &self,
        at: &lsp::TextDocumentPositionParams,
        with_declaration: bool,
    ) -> Result<Vec<lsp::Location>, (ErrorCode, String)> {
        let (defs, _) = self.defs_at(at)?;
        let Some((_, first)) = defs.first() else { return Ok(Vec::new()) };
        let ids: Vec<DefId> = defs.iter().map(|(id, _)| *id).collect();
        let mut out: Vec<lsp::Location> = Vec::new();
        if with_declaration {
            out.extend(defs.iter().filter_map(|(_, d)| self.location(d)));
        }
        let name = &first.name;
        for r in self.g.refs(&ids, &[]).map_err(internal)? {
            if let Some(uri) = self.uri(&r.file) {
                out.push(lsp::Location::new(uri, self.range(&r.file, r.line, name)));
            }
        }
        Ok(out)
    }

    fn hover(&self, at: &lsp::TextDocumentPositionParams) -> Result<Option<lsp::Hover>, (ErrorCode, String)> {
        let (defs, ambiguous) = self.defs_at(at)?;
        if defs.is_empty() {
            return Ok(None);
        }
        let mut text = String::new();
        if ambiguous {
            text.push_str(&format!("one of {} definitions (the code graph cannot tell which):\n\n", defs.len()));
        }
        for (_, d) in defs.iter().take(5) {
            let line = self.line_text(&d.file, d.line).unwrap_or_default();
            text.push_str(&format!(
                "```\n{}\n```\n{} `{}` — {}:{}\n\n",
                line.trim(),
                d.kind,
                d.qualified_name,
                d.file,
                d.line
            ));
        }
        Ok(Some(lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: text.trim_end().to_string(),
            }),
            range: None,
        }))
    }

    fn implementations(&self, at: &lsp::TextDocumentPositionParams) -> Result<Vec<lsp::Location>, (ErrorCode, String)> {
        let (defs, _) = self.defs_at(at)?;
        let mut out = Vec::new();
        for &(id, _) in &defs {
            let Ok(h) = self.g.hierarchy(id) else { continue };
            let below = if h.overridden_by.is_empty() { &h.subtypes } else { &h.overridden_by };
            out.extend(below.iter().filter_map(|r| r.symbol.as_ref()).filter_map(|s| self.location(s)));
        }
        Ok(out)
    }

    fn document_symbols(&self, uri: &Url) -> Result<Vec<lsp::DocumentSymbol>, (ErrorCode, String)> {
        let Some(rel) = self.rel(uri) else { return Ok(Vec::new()) };
        let Some(file) = self.g.index.locate(&rel).map_err(internal)? else { return Ok(Vec::new()) };
        let f = self.g.file((file.segment, file.slot_id)).map_err(internal)?;
        // Each definition under the innermost one whose extent holds it.
        let mut order: Vec<usize> = (0..f.defs.len()).collect();
        order.sort_by_key(|&i| (f.defs[i].line, std::cmp::Reverse(f.defs[i].end_line)));
        let mut parent: Vec<Option<usize>> = vec![None; f.defs.len()];
        let mut open: Vec<usize> = Vec::new();
        for &i in &order {
            let d = &f.defs[i];
            while open.last().is_some_and(|&o| f.defs[o].end_line < d.line || f.defs[o].end_line < d.end_line) {
                open.pop();
            }
            parent[i] = open.last().copied();
            open.push(i);
        }
        fn build(
            i: usize,
            f: &crate::graph::FileGraph,
            kids: &[Vec<usize>],
            place: &Place<'_>,
            rel: &str,
        ) -> lsp::DocumentSymbol {
            let d = &f.defs[i];
            let end = d.end_line.max(d.line);
            let selection = place.range(rel, d.line, &d.name);
            #[allow(deprecated)]
            lsp::DocumentSymbol {
                name: d.name.clone(),
                detail: Some(d.kind.to_string()),
                kind: symbol_kind(&d.kind),
                tags: None,
                deprecated: None,
                range: lsp::Range::new(
                    lsp::Position::new(d.line.saturating_sub(1), 0),
                    lsp::Position::new(end.saturating_sub(1), u32::MAX / 2),
                ),
                selection_range: selection,
                children: Some(kids[i].iter().map(|&k| build(k, f, kids, place, rel)).collect()),
            }
        }
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); f.defs.len()];
        let mut top = Vec::new();
        for &i in &order {
            match parent[i] {
                Some(p) => kids[p].push(i),
                None => top.push(i),
            }
        }
        Ok(top.into_iter().map(|i| build(i, &f, &kids, self, &rel)).collect())
    }

    fn item(&self, d: &DefView) -> Option<lsp::CallHierarchyItem> {
        let uri = self.uri(&d.file)?;
        let selection = self.range(&d.file, d.line, &d.name);
        let end = d.end_line.max(d.line).saturating_sub(1);
        Some(lsp::CallHierarchyItem {
            name: d.name.clone(),
            kind: symbol_kind(&d.kind),
            tags: None,
            detail: Some(d.qualified_name.clone()),
            uri,
            range: lsp::Range::new(
                lsp::Position::new(d.line.saturating_sub(1), 0),
                lsp::Position::new(end, u32::MAX / 2),
            ),
            selection_range: selection,
            data: Some(json!(format!("{}:{}", d.file, d.line))),
        })
    }

    /// The definition a call hierarchy item stands for.
    fn item_def(&self, item: &lsp::CallHierarchyItem) -> Option<crate::graph::DefId> {
        let at = match &item.data {
            Some(Value::String(s)) => s.clone(),
            _ => format!("{}:{}", self.rel(&item.uri)?, item.selection_range.start.line + 1),
        };
        let ids = self.g.find(&at).ok()?;
        ids.into_iter().find(|&id| self.g.view(id).is_ok_and(|v| v.name == item.name))
    }

    /// The direct supertypes (`up`) or subtypes of a type hierarchy item, as
    /// `cg hierarchy` finds them (those outside the project have no item).
    fn related_types(
        &self,
        item: &lsp::TypeHierarchyItem,
        up: bool,
    ) -> Result<Vec<lsp::TypeHierarchyItem>, (ErrorCode, String)> {
        let call = lsp::CallHierarchyItem {
            name: item.name.clone(),
            kind: item.kind,
            tags: None,
            detail: item.detail.clone(),
            uri: item.uri.clone(),
            range: item.range,
            selection_range: item.selection_range,
            data: item.data.clone(),
        };
        let Some(id) = self.item_def(&call) else { return Ok(Vec::new()) };
        let h = self.g.hierarchy(id).map_err(internal)?;
        let list = if up { &h.supertypes } else { &h.subtypes };
        Ok(list
            .iter()
            .filter(|r| r.depth == 1)
            .filter_map(|r| r.symbol.as_ref())
            .filter_map(|s| self.item(s))
            .map(type_item)
            .collect())
    }

    fn incoming(
        &self,
        item: &lsp::CallHierarchyItem,
    ) -> Result<Vec<lsp::CallHierarchyIncomingCall>, (ErrorCode, String)> {
        let Some(id) = self.item_def(item) else { return Ok(Vec::new()) };
        let mut out = Vec::new();
        for e in self.g.callers(&[id], 1).map_err(internal)? {
            // A file's top-level code is no definition: it has no item.
            let Some(from) = e.symbol.as_ref().and_then(|s| self.item(s)) else { continue };
            let from_ranges = e.lines.iter().map(|&l| self.range(&e.file, l, &item.name)).collect();
            out.push(lsp::CallHierarchyIncomingCall { from, from_ranges });
        }
        Ok(out)
    }

    fn outgoing(
        &self,
        item: &lsp::CallHierarchyItem,
    ) -> Result<Vec<lsp::CallHierarchyOutgoingCall>, (ErrorCode, String)> {
        let Some(id) = self.item_def(item) else { return Ok(Vec::new()) };
        let Some(rel) = self.rel(&item.uri) else { return Ok(Vec::new()) };
        let mut out = Vec::new();
        for e in self.g.callees(id, 1).map_err(internal)? {
            // Library calls have no definition to go to.
            let Some(to) = e.symbol.as_ref().and_then(|s| self.item(s)) else { continue };
            let from_ranges = e.lines.iter().map(|&l| self.range(&rel, l, &to.name)).collect();
            out.push(lsp::CallHierarchyOutgoingCall { to, from_ranges });
        }
        Ok(out)
    }
}

/// A call hierarchy item as a type hierarchy's (the same fields).
fn type_item(i: lsp::CallHierarchyItem) -> lsp::TypeHierarchyItem {
    lsp::TypeHierarchyItem {
        name: i.name,
        kind: i.kind,
        tags: None,
        detail: i.detail,
        uri: i.uri,
        range: i.range,
        selection_range: i.selection_range,
        data: i.data,
    }
}

/// The identifier around UTF-16 column `character` of `line`.
fn word_at(line: &str, character: u32) -> Option<String> {
    let mut units = 0u32;
    let mut at = line.len();
    for (i, c) in line.char_indices() {
        if units >= character {
            at = i;
            break;
        }
        units += c.len_utf16() as u32;
    }
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let start = line[..at].char_indices().rev().take_while(|&(_, c)| is_word(c)).last().map_or(at, |(i, _)| i);
    let end = line[at..].char_indices().find(|&(_, c)| !is_word(c)).map_or(line.len(), |(i, _)| at + i);
    let word = &line[start..end];
    (!word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit())).then(|| word.to_string())
}

/// The byte offset of `word` in `line` as a whole identifier.
fn find_word(line: &str, word: &str) -> Option<usize> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    line.match_indices(word).map(|(i, _)| i).find(|&i| {
        !line[..i].chars().next_back().is_some_and(is_word)
            && !line[i + word.len()..].chars().next().is_some_and(is_word)
    })
}

fn utf16_len(s: &str) -> u32 {
    s.chars().map(|c| c.len_utf16() as u32).sum()
}

fn symbol_kind(kind: &str) -> lsp::SymbolKind {
    use lsp::SymbolKind as K;
    match kind {
        "class" | "record" => K::CLASS,
        "struct" | "union" => K::STRUCT,
        "interface" | "trait" | "protocol" => K::INTERFACE,
        "enum" => K::ENUM,
        "module" | "namespace" | "package" | "mod" => K::NAMESPACE,
        "method" | "getter" | "setter" => K::METHOD,
        "constructor" => K::CONSTRUCTOR,
        "function" | "macro" => K::FUNCTION,
        "field" => K::FIELD,
        "property" => K::PROPERTY,
        "constant" | "const" => K::CONSTANT,
        "enum_member" | "variant" => K::ENUM_MEMBER,
        "type" | "type_alias" => K::TYPE_PARAMETER,
        _ => K::VARIABLE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_at_utf16_columns() {
        assert_eq!(word_at("  s.Add(1)", 4).as_deref(), Some("Add"));
        assert_eq!(word_at("  s.Add(1)", 2).as_deref(), Some("s"));
        // Just after a word is on it; a number is no identifier.
        assert_eq!(word_at("  s.Add(1)", 7).as_deref(), Some("Add"));
        assert_eq!(word_at("  s.Add(1)", 8), None);
        // `é` is one UTF-16 unit, `𝑥` two.
        assert_eq!(word_at("é = f𝑥(g)", 8).as_deref(), Some("g"));
        assert_eq!(word_at("é = f𝑥(g)", 5).as_deref(), Some("f𝑥"));
        assert_eq!(word_at("", 0), None);
        assert_eq!(word_at("abc", 99).as_deref(), Some("abc"));
        assert_eq!(find_word("add(x) + adder.add(y)", "add"), Some(0));
        assert_eq!(find_word("adder.add(y)", "add"), Some(6));
        assert_eq!(find_word("adder", "add"), None);
    }
}

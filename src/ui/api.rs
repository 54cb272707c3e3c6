//! The dashboard's JSON endpoints, each bounded in what it answers:
//!
//! | endpoint | answers | bound |
//! |---|---|---|
//! | `status` | generation, index age, statistics, files changed since indexed (git's, and a background scan's) | one object, 50 paths |
//! | `tree?path=` | a folder's children: files, lines, definitions, distinct terms (a folder: its files' summed), languages; excluded folders; stale files | [`TREE_ENTRIES`] |
//! | `cloud?folder=&type=&limit=` | terms by how many files use them | [`CLOUD_TERMS`] |
//! | `graph?open=` | folders, files and definitions with edges from imports and calls | [`GRAPH_NODES`], [`GRAPH_EDGES`] |
//! | `search?q=&mode=` | definitions (`words`: the default search, hybrid when the index has vectors; `meaning`: semantic; `names`) or lines (`text` with `match=`) | 100 hits |
//! | `file?path=&line=&context=` | a file's lines around one | 401 lines |
//! | `symbol?path=&line=&name=` | the symbol card: callers, callees, hierarchy | the card's own limits |

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustc_hash::FxHashMap;
use serde_json::{json, Value};

use super::{Request, Response, State};
use crate::extract::LineType;
use crate::graph::Graph;
use crate::lang::Language;
use crate::mcp::json;
use crate::project::Index;

/// Children of a folder listed by `tree`.
pub const TREE_ENTRIES: usize = 1000;
/// Terms in a cloud, at most.
pub const CLOUD_TERMS: usize = 300;
/// Nodes of a dependency graph answer.
pub const GRAPH_NODES: usize = 500;
/// Edges of a dependency graph answer.
pub const GRAPH_EDGES: usize = 2000;
/// Definitions of one expanded file shown.
const FILE_DEFS: usize = 150;
/// Terms considered for a cloud (the most frequent by occurrences).
const CLOUD_CANDIDATES: usize = 1500;
/// Files of a term read for its line types, when a cloud is filtered by them.
const TYPE_SAMPLE_FILES: usize = 48;
/// Words too common in prose to say anything in a cloud.
const STOP_WORDS: &[&str] = &[
    "the", "and", "for", "not", "this", "that", "with", "you", "use", "may", "are", "from", "will", "can", "all",
    "any", "but", "has", "have", "its", "was", "were", "which", "when", "then", "than", "there", "these", "those",
    "into", "only", "also", "such", "should", "would", "could", "must", "been", "being", "does", "other", "our",
    "your", "they", "their", "them", "what", "where", "who", "how", "why", "each", "more", "most", "some", "one",
    "two", "under", "except", "either", "see", "via", "per", "etc", "get", "set", "new",
];

/// How long a graph walk of one request may take.
const GRAPH_TIME: Duration = Duration::from_secs(3);

/// Answers kept between requests, per generation.
#[derive(Default)]
pub struct Cache {
    deps: Arc<Mutex<Option<DepsSlot>>>,
    clouds: Mutex<Vec<(CloudKey, Arc<Value>)>>,
    candidates: Mutex<Option<(u64, Arc<Candidates>)>>,
    changed: Arc<Mutex<ChangedScan>>,
}

/// A cloud's generation, folder and line type.
type CloudKey = (u64, String, String);

/// The terms a cloud is made of: those with the most occurrences, each with
/// its files.
type Candidates = Vec<Candidate>;

/// A term of [`cloud_candidates`].
struct Candidate {
    /// Its most frequent spelling.
    term: String,
    /// Per segment holding it: the segment, the live files using it (first
    /// slots, increasing) and its variants (spellings).
    at: Vec<(usize, Vec<u32>, Vec<crate::snapshot::VariantRec>)>,
}

/// The file-level import graph of one generation, built in the background.
struct DepsSlot {
    generation: u64,
    total: usize,
    done: Arc<AtomicUsize>,
    /// Files whose calls were read (the second pass).
    calls_done: Arc<AtomicUsize>,
    ready: Option<Arc<Deps>>,
}

/// Each file's path and the files its imports resolve to.
struct Deps {
    paths: Vec<String>,
    /// The files each file's imports resolve to.
    targets: Vec<Vec<u32>>,
    /// The files defining what each file's functions call, once read (a
    /// second pass, after the imports).
    calls: Option<Vec<Vec<u32>>>,
}

/// Starts what the first views need, in the background: the import graph's
/// build and the project's cloud of code lines (the cloud view's default).
pub fn prepare(state: &Arc<State>) {
    if let Ok(index) = state.index() {
        let _ = deps(state, &index);
        scan_changed(state, &index);
        let state = state.clone();
        std::thread::spawn(move || {
            let _ = cloud_of(&state, &index, String::new(), "code");
        });
    }
}

type Answer = Result<Value, (u16, String)>;

fn bad(why: impl Into<String>) -> (u16, String) {
    (400, why.into())
}

fn failed(why: impl std::fmt::Display) -> (u16, String) {
    (500, why.to_string())
}

pub fn answer(state: &State, endpoint: &str, r: &Request) -> Response {
    let index = match state.index() {
        Ok(i) => i,
        Err(e) => {
            return Response::error(503, &format!("the index cannot be opened: {e}; run `cg init` or `cg update`"))
        }
    };
    let result = match endpoint {
        "status" => status(state, &index),
        "tree" => tree(state, &index, r),
        "cloud" => cloud(state, &index, r),
        "graph" => graph(state, &index, r),
        "search" => search(&index, r),
        "file" => file(state, &index, r),
        "symbol" => symbol(state, &index, r),
        _ => Err((404, format!("no endpoint {endpoint:?}"))),
    };
    match result {
        Ok(v) => Response::json(200, &v),
        Err((code, why)) => Response::error(code, &why),
    }
}

/// A path parameter, relative to the project and inside it.
fn confined(state: &State, path: &str) -> Result<String, (u16, String)> {
    let p = path.trim().trim_end_matches('/');
    if p.is_empty() || p == "." {
        return Ok(String::new());
    }
    crate::mcp::relative(&state.root, p).map_err(|e| (403, e))
}

fn number(r: &Request, name: &str, default: usize, max: usize) -> Result<usize, (u16, String)> {
    match r.param(name) {
        None | Some("") => Ok(default),
        Some(v) => v.parse::<usize>().map(|n| n.min(max)).map_err(|_| bad(format!("{name}: not a number: {v:?}"))),
    }
}

fn status(state: &State, index: &Arc<Index>) -> Answer {
    let mut v = json::status(&state.root, index).map_err(failed)?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    if let Some(at) = v["last_update"].as_u64() {
        v["age_seconds"] = json!(now.saturating_sub(at));
    }
    v["project_root"] = json!(state.root);
    // Files changed since indexed, from the last scan (git's answer, when the
    // project is a repository, is in `git`).
    let generation = index.manifest.as_ref().map_or(0, |m| m.generation);
    let scan = state.cache.changed.lock().unwrap_or_else(|e| e.into_inner());
    if scan.generation == generation && scan.at.is_some() {
        const SHOWN: usize = 50;
        v["changed_since_indexed"] = json!({
            "files": scan.total, "shown": scan.files.iter().take(SHOWN).collect::<Vec<_>>(),
            "scanned_seconds_ago": scan.at.map_or(0, |t| t.elapsed().as_secs()),
        });
    }
    drop(scan);
    scan_changed(state, index);
    Ok(v)
}

/// Starts a background scan for files changed since indexing, unless one is
/// running or the last one, of this generation, is younger than
/// [`CHANGED_SCAN_EVERY`].
fn scan_changed(state: &State, index: &Arc<Index>) {
    let generation = index.manifest.as_ref().map_or(0, |m| m.generation);
    let mut scan = state.cache.changed.lock().unwrap_or_else(|e| e.into_inner());
    let stale = scan.generation != generation || scan.at.is_none_or(|t| t.elapsed() > CHANGED_SCAN_EVERY);
    if !stale || scan.running {
        return;
    }
    scan.running = true;
    let (cache, root, index) = (state.cache.changed.clone(), state.root.clone(), index.clone());
    std::thread::spawn(move || {
        let found: Vec<String> = index
            .files()
            .unwrap_or_default()
            .into_iter()
            .filter(|f| changed_on_disk(&root, f.path, &f.slot.meta))
            .map(|f| f.path.to_string())
            .collect();
        *cache.lock().unwrap_or_else(|e| e.into_inner()) = ChangedScan {
            generation,
            running: false,
            at: Some(std::time::Instant::now()),
            total: found.len(),
            files: found,
        };
    });
}

/// Whether an indexed file's size or modification time on disk is not what
/// was indexed (or it is gone).
fn changed_on_disk(root: &std::path::Path, path: &str, meta: &crate::snapshot::FileMeta) -> bool {
    let on_disk = std::fs::symlink_metadata(root.join(path)).ok();
    let mtime = on_disk
        .as_ref()
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok().map(|d| d.as_nanos() as i64));
    on_disk.as_ref().is_none_or(|m| m.len() != meta.size) || mtime != Some(meta.mtime_ns)
}

/// Files changed on disk since they were indexed, found by a background scan
/// of every indexed file's size and time, started by a status request when
/// the last scan is older than [`CHANGED_SCAN_EVERY`].
#[derive(Default)]
struct ChangedScan {
    generation: u64,
    running: bool,
    at: Option<std::time::Instant>,
    files: Vec<String>,
    total: usize,
}

/// How old a scan of changed files may be before a status request starts another.
const CHANGED_SCAN_EVERY: Duration = Duration::from_secs(5);

/// One child of a folder in `tree`.
#[derive(Default)]
struct Entry {
    files: u64,
    lines: u64,
    definitions: u64,
    terms: u64,
    languages: BTreeMap<&'static str, u64>,
    /// For a file: it changed on disk since it was indexed.
    stale: Option<bool>,
}

fn tree(state: &State, index: &Index, r: &Request) -> Answer {
    let folder = confined(state, r.param("path").unwrap_or(""))?;
    let files = index.files_under(&folder).map_err(failed)?;
    if files.is_empty() && !folder.is_empty() {
        return Err((404, format!("{folder}: no indexed file under it")));
    }
    let mut children: BTreeMap<(bool, String), Entry> = BTreeMap::new();
    for f in &files {
        let rest = if folder.is_empty() { f.path } else { &f.path[folder.len() + 1..] };
        let (name, is_dir) = match rest.split_once('/') {
            Some((dir, _)) => (dir, true),
            None => (rest, false),
        };
        let e = children.entry((!is_dir, name.to_string())).or_default();
        let meta = &f.slot.meta;
        e.files += 1;
        let mut lines = 0u64;
        for s in f.slot_ids() {
            lines += f.seg.slot(s).map_or(0, |s| s.line_count as u64);
        }
        e.lines += lines;
        e.definitions += meta.defs().min(u16::MAX as u32 * 2) as u64;
        e.terms += meta.term_count as u64;
        let language = Language::from_id(meta.language).map_or("other", Language::name);
        *e.languages.entry(language).or_default() += 1;
        if !is_dir {
            e.stale = Some(changed_on_disk(&state.root, f.path, meta));
        }
    }
    let total = children.len();
    let entries: Vec<Value> = children
        .into_iter()
        .take(TREE_ENTRIES)
        .map(|((is_file, name), e)| {
            let path = if folder.is_empty() { name.clone() } else { format!("{folder}/{name}") };
            let mut v = json!({
                "name": name, "path": path, "dir": !is_file, "files": e.files, "lines": e.lines,
                "definitions": e.definitions, "terms": e.terms, "languages": e.languages,
            });
            if e.stale == Some(true) {
                v["stale"] = json!(true);
            }
            v
        })
        .collect();
    let excluded: Vec<Value> = index
        .manifest
        .as_ref()
        .map(|m| {
            m.excluded_dirs
                .iter()
                .filter(|d| {
                    let p = d.path.trim_end_matches('/');
                    match p.rsplit_once('/') {
                        Some((parent, _)) => parent == folder,
                        None => folder.is_empty(),
                    }
                })
                .map(|d| json!({"path": d.path, "reason": d.reason}))
                .collect()
        })
        .unwrap_or_default();
    let mut v = json!({"path": folder, "entries": entries, "excluded": excluded});
    if total > TREE_ENTRIES {
        v["truncated"] = json!(total - TREE_ENTRIES);
    }
    Ok(v)
}

/// Whether a line type counts under a cloud's filter.
fn type_matches(filter: &str, t: LineType) -> bool {
    match filter {
        "comment" => t == LineType::Comment,
        "string" => t == LineType::String,
        // Code: every line that is neither (definitions' lines included).
        _ => t != LineType::Comment && t != LineType::String,
    }
}

fn cloud(state: &State, index: &Index, r: &Request) -> Answer {
    let folder = confined(state, r.param("folder").unwrap_or(""))?;
    let kind = r.param("type").unwrap_or("code").to_ascii_lowercase();
    if !matches!(kind.as_str(), "all" | "code" | "comment" | "string") {
        return Err(bad(format!("type {kind:?}: use all, code, comment or string")));
    }
    let limit = number(r, "limit", 120, CLOUD_TERMS)?;
    Ok(cut_terms(&*cloud_of(state, index, folder, &kind)?, limit))
}

/// The cloud of a folder and line type, kept per generation (the 32 last).
fn cloud_of(state: &State, index: &Index, folder: String, kind: &str) -> Result<Arc<Value>, (u16, String)> {
    let generation = index.manifest.as_ref().map_or(0, |m| m.generation);
    let key = (generation, folder, kind.to_string());
    if let Some((_, v)) = state.cache.clouds.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(k, _)| *k == key) {
        return Ok(v.clone());
    }
    let candidates = {
        let mut kept = state.cache.candidates.lock().unwrap_or_else(|e| e.into_inner());
        match kept.as_ref().filter(|(g, _)| *g == generation) {
            Some((_, c)) => c.clone(),
            None => {
                let c = Arc::new(cloud_candidates(index).map_err(failed)?);
                *kept = Some((generation, c.clone()));
                c
            }
        }
    };
    let v = Arc::new(build_cloud(index, &candidates, &key.1, kind).map_err(failed)?);
    let mut clouds = state.cache.clouds.lock().unwrap_or_else(|e| e.into_inner());
    clouds.retain(|((g, _, _), _)| *g == generation);
    if clouds.len() >= 32 {
        clouds.remove(0);
    }
    clouds.push((key, v.clone()));
    Ok(v)
}

fn cut_terms(v: &Value, limit: usize) -> Value {
    let mut v = v.clone();
    if let Some(terms) = v["terms"].as_array_mut() {
        terms.truncate(limit);
    }
    v
}

/// The [`CLOUD_CANDIDATES`] terms with the most occurrences (each segment's
/// fold records), less prose's common words, with the files using each (its
/// postings' container keys, values not decoded): read once per generation,
/// so that a folder's cloud only counts within the folder's slot range.
fn cloud_candidates(index: &Index) -> Result<Candidates, crate::snapshot::SnapshotError> {
    use fst::Streamer;
    type Folds = (u64, Vec<(usize, u32)>);
    let mut folds: FxHashMap<String, Folds> = FxHashMap::default();
    for (si, seg) in index.segments.iter().enumerate() {
        let map = seg.term_fst()?;
        let mut stream = map.stream();
        while let Some((k, id)) = stream.next() {
            if k.len() < 3 || !k[0].is_ascii_alphabetic() {
                continue;
            }
            let f = seg.fold(id as u32)?;
            let e = folds.entry(String::from_utf8_lossy(k).into_owned()).or_default();
            e.0 += f.occurrences;
            e.1.push((si, id as u32));
        }
    }
    let mut ranked: Vec<(String, Folds)> =
        folds.into_iter().filter(|(k, _)| !STOP_WORDS.contains(&k.as_str())).collect();
    ranked.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then_with(|| a.0.cmp(&b.0)));
    ranked.truncate(CLOUD_CANDIDATES);
    let mut out = Vec::with_capacity(ranked.len());
    for (_, (_, at)) in ranked {
        let mut spelled = (0u32, String::new());
        let mut per = Vec::new();
        for (si, id) in at {
            let seg = &index.segments[si];
            let f = seg.fold(id)?;
            let mut files: Vec<u32> = Vec::new();
            let mut variants = Vec::new();
            for vi in f.first_variant..f.first_variant.saturating_add(f.variant_count) {
                let v = seg.variant(vi)?;
                if v.occurrences > spelled.0 {
                    spelled = (v.occurrences, seg.str_at(v.term)?.to_string());
                }
                files.extend(seg.posting_files(&v)?);
                variants.push(v);
            }
            files.sort_unstable();
            files.dedup();
            if !index.all_live(si) {
                files.retain(|&s| index.is_live(si, s));
            }
            per.push((si, files, variants));
        }
        out.push(Candidate { term: spelled.1, at: per });
    }
    Ok(out)
}

/// The cloud of a folder ("" the project) and line-type filter: the
/// candidates' files under the folder (its files are one slot range per
/// segment), ranked by files. Filtered by line type, a term's files are read
/// for the type, at most [`TYPE_SAMPLE_FILES`] of them, and the rest estimated
/// from those.
fn build_cloud(
    index: &Index,
    candidates: &Candidates,
    folder: &str,
    kind: &str,
) -> Result<Value, crate::snapshot::SnapshotError> {
    // Per segment, the folder's first slots as a range (`None`: all).
    let ranges: Option<Vec<Option<(u32, u32)>>> = if folder.is_empty() {
        None
    } else {
        let mut per: Vec<Option<(u32, u32)>> = vec![None; index.segments.len()];
        for f in index.files_under(folder)? {
            let r = per[f.segment].get_or_insert((f.slot_id, f.slot_id));
            r.0 = r.0.min(f.slot_id);
            r.1 = r.1.max(f.slot_id);
        }
        Some(per)
    };
    let mut terms: Vec<(u64, &str, bool)> = Vec::new();
    for c in candidates {
        let (mut files, mut estimated) = (0u64, false);
        for (si, all, variants) in &c.at {
            let seg = &index.segments[*si];
            let here: &[u32] = match &ranges {
                None => all,
                Some(per) => match per[*si] {
                    None => &[],
                    Some((lo, hi)) => &all[all.partition_point(|&s| s < lo)..all.partition_point(|&s| s <= hi)],
                },
            };
            if kind == "all" || here.is_empty() {
                files += here.len() as u64;
                continue;
            }
            // Which of (a sample of) these files use it on a line of the type.
            let sample = &here[..here.len().min(TYPE_SAMPLE_FILES)];
            estimated |= here.len() > sample.len();
            let (first_sampled, last) = (sample[0], sample[sample.len() - 1]);
            let mut using = vec![false; sample.len()];
            for v in variants {
                for p in seg.posting_iter(v)? {
                    let (slot_id, line_id) = (p >> 16, p & 0xffff);
                    if slot_id < first_sampled {
                        continue;
                    }
                    let first = seg.first_slot_of(slot_id)?;
                    if first > last {
                        break;
                    }
                    let Ok(at) = sample.binary_search(&first) else { continue };
                    if using[at] {
                        continue;
                    }
                    let slot = seg.slot(slot_id)?;
                    if seg.line_type(&slot, slot.line_number(line_id)).is_ok_and(|t| type_matches(kind, t)) {
                        using[at] = true;
                    }
                }
            }
            let using = using.iter().filter(|u| **u).count() as u64;
            files += (using * here.len() as u64).div_ceil(sample.len() as u64);
        }
        if files > 0 {
            terms.push((files, &c.term, estimated));
        }
    }
    terms.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    terms.truncate(CLOUD_TERMS);
    let terms: Vec<Value> = terms
        .into_iter()
        .map(|(files, term, estimated)| {
            let mut v = json!({"term": term, "files": files});
            if estimated {
                v["estimated"] = json!(true);
            }
            v
        })
        .collect();
    Ok(json!({"folder": folder, "type": kind, "terms": terms}))
}

/// Files done of all, in a background pass.
type Progress = (usize, usize);

/// The import graph of the index's generation, with how far the calls' pass
/// is; or how far the imports' pass is.
fn deps(state: &State, index: &Arc<Index>) -> Result<(Arc<Deps>, Progress), Progress> {
    let generation = index.manifest.as_ref().map_or(0, |m| m.generation);
    let mut slot = state.cache.deps.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = slot.as_ref().filter(|s| s.generation == generation) {
        let calls = (s.calls_done.load(Ordering::Relaxed), s.total);
        return s.ready.clone().map(|d| (d, calls)).ok_or((s.done.load(Ordering::Relaxed), s.total));
    }
    let total = index.files().map_or(0, |f| f.len());
    let (done, calls_done) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    *slot = Some(DepsSlot { generation, total, done: done.clone(), calls_done: calls_done.clone(), ready: None });
    let index = index.clone();
    let cache = state.cache.deps.clone();
    std::thread::spawn(move || {
        let publish = |d: Deps| {
            let mut slot = cache.lock().unwrap_or_else(|e| e.into_inner());
            match slot.as_mut().filter(|s| s.generation == generation) {
                Some(s) => {
                    s.ready = Some(Arc::new(d));
                    true
                }
                None => false,
            }
        };
        let (paths, targets) = imports_of_files(&index, &done);
        if !publish(Deps { paths: paths.clone(), targets: targets.clone(), calls: None }) {
            return;
        }
        let calls = calls_of_files(&index, &paths, &calls_done);
        publish(Deps { paths, targets, calls: Some(calls) });
    });
    Err((0, total))
}

/// Every file's path and the files its imports resolve to.
fn imports_of_files(index: &Index, done: &AtomicUsize) -> (Vec<String>, Vec<Vec<u32>>) {
    let files: Vec<String> = index.files().map(|f| f.iter().map(|f| f.path.to_string()).collect()).unwrap_or_default();
    let at: HashMap<&str, u32> = files.iter().enumerate().map(|(i, p)| (p.as_str(), i as u32)).collect();
    let g = Graph::new(index);
    let mut targets: Vec<Vec<u32>> = Vec::with_capacity(files.len());
    for (i, p) in files.iter().enumerate() {
        let mut t: Vec<u32> = Vec::new();
        for v in g.imports(p, 1).unwrap_or_default() {
            t.extend(v.resolved.iter().filter_map(|r| at.get(r.as_str()).copied()).filter(|&j| j != i as u32));
        }
        t.sort_unstable();
        t.dedup();
        targets.push(t);
        done.fetch_add(1, Ordering::Relaxed);
    }
    (files, targets)
}

/// For each file, the other files defining what its functions and methods
/// call (resolved as `callees` resolves them).
fn calls_of_files(index: &Index, paths: &[String], done: &AtomicUsize) -> Vec<Vec<u32>> {
    let at: HashMap<&str, u32> = paths.iter().enumerate().map(|(i, p)| (p.as_str(), i as u32)).collect();
    let mut out: Vec<Vec<u32>> = Vec::with_capacity(paths.len());
    // A fresh graph every few hundred files: its caches would otherwise hold
    // every file of the project.
    let mut g = Graph::new(index);
    for (i, p) in paths.iter().enumerate() {
        if i % 500 == 0 {
            g = Graph::new(index);
        }
        let mut t: Vec<u32> = Vec::new();
        if let Ok(Some(file)) = index.locate(p) {
            if let Ok(f) = g.file((file.segment, file.slot_id)) {
                for (di, d) in f.defs.iter().enumerate() {
                    if d.cat != crate::graph::DefCat::Method {
                        continue;
                    }
                    for e in g.callees((f.key, di as u32), 1).unwrap_or_default() {
                        if let Some(j) = e.symbol.as_ref().and_then(|s| at.get(s.file.as_str())) {
                            if *j != i as u32 {
                                t.push(*j);
                            }
                        }
                    }
                }
            }
        }
        t.sort_unstable();
        t.dedup();
        out.push(t);
        done.fetch_add(1, Ordering::Relaxed);
    }
    out
}

/// An edge's files: those importing or calling, those importing, those
/// calling (a file doing both counts in each).
#[derive(Clone, Copy, Default)]
struct Weight {
    files: u64,
    imports: u64,
    calls: u64,
}

/// The node a file is shown in, the folders of `open` expanded: its first
/// folder, then deeper while that folder is open; the file itself when its
/// folder is open.
fn node_of<'p>(path: &'p str, open: &HashSet<String>) -> &'p str {
    let mut end = path.find('/').unwrap_or(path.len());
    while end < path.len() && open.contains(&path[..end]) {
        end = path[end + 1..].find('/').map_or(path.len(), |i| end + 1 + i);
    }
    &path[..end]
}

fn graph(state: &State, index: &Arc<Index>, r: &Request) -> Answer {
    let mut open: HashSet<String> = HashSet::new();
    for p in r.param("open").unwrap_or("").split(',').filter(|p| !p.trim().is_empty()) {
        open.insert(confined(state, p)?);
    }
    if open.len() > 200 {
        return Err(bad("open: at most 200 folders and files"));
    }
    // Wait a little for the import graph when it is being built.
    let mut waited = Duration::ZERO;
    let (deps, calls_read) = loop {
        match deps(state, index) {
            Ok(d) => break d,
            Err((done, total)) if waited >= Duration::from_millis(1500) => {
                return Ok(json!({"building": true, "done": done, "total": total}));
            }
            Err(_) => {
                std::thread::sleep(Duration::from_millis(20));
                waited += Duration::from_millis(20);
            }
        }
    };
    // Nodes: each file's shown node, with its files.
    let mut node_files: BTreeMap<&str, u64> = BTreeMap::new();
    let shown: Vec<&str> = deps.paths.iter().map(|p| node_of(p, &open)).collect();
    for n in &shown {
        *node_files.entry(n).or_default() += 1;
    }
    // Over the budget: the folders' smallest children fold into one node per
    // folder (`folder/…`).
    let mut folded: BTreeMap<String, u64> = BTreeMap::new();
    let mut node_of_node: HashMap<&str, String> = HashMap::new();
    if node_files.len() > GRAPH_NODES {
        let mut by_size: Vec<(&str, u64)> = node_files.iter().map(|(n, f)| (*n, *f)).collect();
        by_size.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let keep: HashSet<&str> = by_size.iter().take(GRAPH_NODES - 50).map(|(n, _)| *n).collect();
        for (n, files) in by_size {
            if !keep.contains(n) {
                let parent = n.rsplit_once('/').map_or("", |(p, _)| p);
                let id = if parent.is_empty() { "…".to_string() } else { format!("{parent}/…") };
                *folded.entry(id.clone()).or_default() += files;
                node_of_node.insert(n, id);
            }
        }
    }
    let final_of = |n: &str| node_of_node.get(n).cloned().unwrap_or_else(|| n.to_string());
    let place = |path: &str| final_of(node_of(path, &open));
    let mut nodes: Vec<Value> = Vec::new();
    let is_dir: HashSet<&str> =
        deps.paths.iter().zip(&shown).filter(|(p, n)| p.len() > n.len()).map(|(_, n)| *n).collect();
    for (n, files) in &node_files {
        if node_of_node.contains_key(n) {
            continue;
        }
        let kind = if is_dir.contains(n) { "dir" } else { "file" };
        nodes.push(json!({"id": n, "label": n.rsplit('/').next().unwrap_or(n), "kind": kind, "files": files,
                          "parent": n.rsplit_once('/').map(|(p, _)| p)}));
    }
    for (id, files) in &folded {
        let parent = id.strip_suffix("/…").unwrap_or("");
        nodes.push(json!({"id": id, "label": format!("{files} more files"), "kind": "more", "files": files,
                          "parent": (!parent.is_empty()).then_some(parent)}));
    }
    // Edges: files of one node importing from or calling into another, each
    // file once per pair and kind.
    let mut weights: HashMap<(String, String), Weight> = HashMap::new();
    for (i, targets) in deps.targets.iter().enumerate() {
        let from = final_of(shown[i]);
        let calls = deps.calls.as_ref().map_or(&[][..], |c| &c[i][..]);
        // Each node this file reaches: (by an import, by a call).
        let mut reached: HashMap<String, (bool, bool)> = HashMap::new();
        for (by_call, list) in [(false, &targets[..]), (true, calls)] {
            for &t in list {
                let to = final_of(shown[t as usize]);
                if to != from {
                    let r = reached.entry(to).or_default();
                    if by_call {
                        r.1 = true;
                    } else {
                        r.0 = true;
                    }
                }
            }
        }
        for (to, (imports, calls)) in reached {
            let w = weights.entry((from.clone(), to)).or_default();
            w.files += 1;
            w.imports += imports as u64;
            w.calls += calls as u64;
        }
    }
    let mut edges: Vec<((String, String), Weight)> = weights.into_iter().collect();
    // Definitions of open files, and the calls from and to them.
    let open_files: Vec<&String> = open.iter().filter(|p| index.locate(p).ok().flatten().is_some()).collect();
    let mut notes: Vec<String> = Vec::new();
    if deps.calls.is_none() {
        notes.push(format!(
            "calls between files are being read ({} of {} files): the edges are imports so far",
            calls_read.0, calls_read.1
        ));
    }
    if !open_files.is_empty() {
        let g = Graph::new(index).with_time_limit(GRAPH_TIME);
        for f in open_files {
            file_definitions(&g, index, f, &place, &mut nodes, &mut edges, &mut notes).map_err(failed)?;
        }
        if g.was_cut() {
            notes.push("the call walk stopped at its time limit: some calls are missing".into());
        }
    }
    let total_edges = edges.len();
    edges.sort_by(|a, b| b.1.files.cmp(&a.1.files).then_with(|| a.0.cmp(&b.0)));
    edges.truncate(GRAPH_EDGES);
    let edges: Vec<Value> = edges
        .into_iter()
        .map(|((from, to), w)| {
            json!({"from": from, "to": to, "weight": w.files, "imports": w.imports, "calls": w.calls})
        })
        .collect();
    let mut v = json!({"nodes": nodes, "edges": edges, "files": deps.paths.len(), "calls_read": deps.calls.is_some()});
    if !folded.is_empty() || total_edges > GRAPH_EDGES {
        v["truncated"] = json!({
            "folded_nodes": node_of_node.len(),
            "edges_left_out": total_edges.saturating_sub(GRAPH_EDGES),
        });
    }
    if !notes.is_empty() {
        v["notes"] = json!(notes);
    }
    Ok(v)
}

/// The definitions of an open file as nodes (`file#line`), each with the calls
/// it makes to shown nodes (another of its file's definitions, else the node
/// showing the callee's file: `place`) and the calls shown nodes make to it.
#[allow(clippy::too_many_arguments)]
fn file_definitions(
    g: &Graph<'_>,
    index: &Index,
    path: &str,
    place: &dyn Fn(&str) -> String,
    nodes: &mut Vec<Value>,
    edges: &mut Vec<((String, String), Weight)>,
    notes: &mut Vec<String>,
) -> Result<(), crate::graph::GraphError> {
    let Some(file) = index.locate(path)? else { return Ok(()) };
    let f = g.file((file.segment, file.slot_id))?;
    let ids: Vec<u32> =
        (0..f.defs.len() as u32).filter(|&i| f.defs[i as usize].cat != crate::graph::DefCat::Property).collect();
    if ids.len() > FILE_DEFS {
        notes.push(format!("{path}: {} of its {} definitions shown", FILE_DEFS, ids.len()));
    }
    let mut id_of: HashMap<u32, String> = HashMap::new();
    for &i in ids.iter().take(FILE_DEFS) {
        let d = &f.defs[i as usize];
        let id = format!("{path}#{}", d.line);
        nodes.push(json!({"id": id, "label": d.name, "kind": "def", "def_kind": d.kind.to_string(), "line": d.line,
                          "parent": path}));
        id_of.insert(d.line, id);
    }
    let target_of = |file: &str, line: u32| -> String {
        if file == path {
            id_of.get(&line).cloned().unwrap_or_else(|| path.to_string())
        } else {
            place(file)
        }
    };
    let mut weights: HashMap<(String, String), u64> = HashMap::new();
    for &i in ids.iter().take(FILE_DEFS) {
        let d = &f.defs[i as usize];
        let from = id_of[&d.line].clone();
        let id = (f.key, i);
        for e in g.callees(id, 1)? {
            if let Some(s) = &e.symbol {
                let to = target_of(&s.file, s.line);
                if to != from {
                    *weights.entry((from.clone(), to)).or_default() += 1;
                }
            }
        }
        for e in g.callers(&[id], 1)?.into_iter().take(200) {
            let from_node = match &e.symbol {
                Some(s) => target_of(&s.file, s.line),
                None => target_of(&e.file, 0),
            };
            if from_node != from && e.file != path {
                *weights.entry((from_node, from.clone())).or_default() += 1;
            }
        }
    }
    edges.retain(|((a, b), _)| a != path && b != path);
    edges.extend(weights.into_iter().map(|(k, calls)| (k, Weight { files: calls, imports: 0, calls })));
    Ok(())
}

fn search(index: &Arc<Index>, r: &Request) -> Answer {
    let q = r.param("q").unwrap_or("").trim().to_string();
    if q.is_empty() {
        return Err(bad("q: give words, an identifier or text"));
    }
    let limit = number(r, "limit", 30, 100)?;
    let mode = r.param("mode").unwrap_or("words");
    if mode == "text" {
        let m = r.param("match").unwrap_or("exact");
        let qmode = crate::query::Mode::from_name(m)
            .ok_or_else(|| bad(format!("match {m:?}: use exact, starts_with, contains, regex or subword")))?;
        let query = crate::query::Query {
            term: q.clone(),
            mode: qmode,
            case_sensitive: false,
            file_filter: Vec::new(),
            types: Vec::new(),
            limit,
            path_order: false,
        };
        let matches = crate::query::search(index, &query).map_err(|e| bad(e.to_string()))?;
        let groups = vec![crate::project::links::ProjectMatches { project: None, index: index.clone(), matches }];
        return Ok(json::query_answer(&query, &groups, &[], Some(256 << 10)));
    }
    let g = Graph::new(index).with_time_limit(GRAPH_TIME);
    let found = match mode {
        "names" => g.symbols(&q, limit).map_err(failed)?,
        "words" | "meaning" => {
            let wanted = if mode == "meaning" { Some("semantic") } else { None };
            let (m, model) = crate::graph::search_mode(index, wanted).map_err(bad)?;
            let deep = (m != crate::graph::SearchMode::Lexical).then(|| crate::graph::deep_vectors(index)).flatten();
            let g = g.with_deep(deep);
            let found = g.search_by(&q, limit, m, model.as_deref()).map_err(failed)?;
            return Ok(json::graph::search(&g, &q, &found));
        }
        other => return Err(bad(format!("mode {other:?}: use words, meaning, names or text"))),
    };
    Ok(json::graph::search(&g, &q, &found))
}

fn file(state: &State, index: &Index, r: &Request) -> Answer {
    let path = confined(state, r.param("path").unwrap_or(""))?;
    if path.is_empty() {
        return Err(bad("path: give a file of the project"));
    }
    let line = number(r, "line", 1, u32::MAX as usize)?.max(1) as u32;
    let context = number(r, "context", 20, 200)? as u32;
    let start = line.saturating_sub(context).max(1);
    let s = crate::query::text::snippet(index, &path, start, line.saturating_add(context)).map_err(|e| match e {
        crate::query::text::SnippetError::Outside(_) => (403, e.to_string()),
        crate::query::text::SnippetError::NotIndexed(_) => (404, e.to_string()),
        _ => failed(e),
    })?;
    let mut v = serde_json::to_value(&s).map_err(failed)?;
    v["line"] = json!(line);
    Ok(v)
}

fn symbol(state: &State, index: &Index, r: &Request) -> Answer {
    let path = confined(state, r.param("path").unwrap_or(""))?;
    let line = number(r, "line", 0, u32::MAX as usize)? as u32;
    let name = r.param("name").unwrap_or("");
    if path.is_empty() || line == 0 || name.is_empty() {
        return Err(bad("give path, line and name of a definition"));
    }
    let g = Graph::new(index).with_time_limit(GRAPH_TIME);
    let (ids, ambiguous) = g.defs_at(&path, line, name).map_err(|e| (404, e.to_string()))?;
    let Some(&first) = ids.first() else { return Err((404, format!("no definition of {name} at {path}:{line}"))) };
    let card = g.card(first).map_err(failed)?;
    let mut v = serde_json::to_value(&card).map_err(failed)?;
    if let Ok(h) = g.hierarchy(first) {
        if !h.supertypes.is_empty() || !h.subtypes.is_empty() {
            v["hierarchy"] = json!([h]);
        }
    }
    if ambiguous || ids.len() > 1 {
        v["other_candidates"] = json!(ids.len() - 1);
    }
    if g.was_cut() {
        v["cut"] = json!(true);
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::node_of;
    use std::collections::HashSet;

    #[test]
    fn files_show_in_their_deepest_open_folder() {
        let open: HashSet<String> = ["pkg", "pkg/api"].into_iter().map(String::from).collect();
        assert_eq!(node_of("pkg/api/types.go", &open), "pkg/api/types.go");
        assert_eq!(node_of("pkg/util/x/y.go", &open), "pkg/util");
        assert_eq!(node_of("cmd/main.go", &open), "cmd");
        assert_eq!(node_of("main.go", &open), "main.go");
        assert_eq!(node_of("pkg", &open), "pkg");
    }
}

//! `cg embed`: transformer vectors for the index's types and functions, most
//! used names first, written to `.codegraph/deep.cgd` as it goes (so an
//! interrupted run loses at most the last interval's work and the next one
//! resumes), incremental (rows are keyed by file path and content hash: only
//! new and changed definitions are embedded again; rows of files no longer
//! indexed are dropped).

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;
use xxhash_rust::xxh3::xxh3_64;

use super::{io_err, Index, ProjectError, DIR};
use crate::embed::deep::{
    file_key, for_each_deep_chunk, DeepError, DeepRows, DeepStore, Encoder, CHUNK_VERSION, DEEP_FILE,
};
use crate::snapshot::structure::FileStructure;
use crate::snapshot::{fold, SnapshotError};

/// Options of `cg embed`.
#[derive(Clone, Debug)]
pub struct EmbedOptions {
    /// Embed at most this many definitions in this run.
    pub limit: Option<usize>,
    /// Write what was embedded at least this often.
    pub save_every: Duration,
    /// Definitions per step (progress is reported, and a stop heard, between
    /// steps).
    pub step: usize,
}

impl Default for EmbedOptions {
    fn default() -> EmbedOptions {
        EmbedOptions { limit: None, save_every: Duration::from_secs(30), step: 256 }
    }
}

/// How far a run is.
#[derive(Clone, Copy, Debug)]
pub struct EmbedProgress {
    pub done: u64,
    pub total: u64,
    pub elapsed: Duration,
}

/// What a run did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EmbedReport {
    pub model: String,
    /// Types and functions of the index.
    pub definitions: u64,
    /// Of those, embedded before this run (and kept).
    pub had: u64,
    /// Embedded by this run.
    pub embedded: u64,
    /// Still without transformer vectors (the limit, or files changed on disk).
    pub left: u64,
    /// Files changed since they were indexed (left for after `cg update`).
    pub changed_files: u64,
    /// Rows of files no longer indexed, dropped.
    pub dropped: u64,
    /// A damaged store was discarded (why).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discarded: Option<String>,
    pub seconds: f64,
    /// Definitions embedded per second (the transformer's time only).
    pub per_second: f64,
    pub bytes: u64,
}

/// One definition to embed.
struct Todo {
    uses: u64,
    name: String,
    key: u64,
    path: String,
    index: u32,
    text: String,
}

/// Runs the transformer over the definitions of the index at `root` that have
/// no vector of `encoder` yet. `progress` is called after each step; when it
/// returns false the run saves what it did and stops (the next run goes on).
pub fn embed(
    root: &Path,
    encoder: &Encoder,
    options: &EmbedOptions,
    progress: &mut dyn FnMut(EmbedProgress) -> bool,
) -> Result<EmbedReport, ProjectError> {
    let started = Instant::now();
    let dir = root.join(DIR);
    let _lock = super::WriteLock::acquire_named(&dir, "embed.lock")?;
    let index = Index::open(root)?;
    let mut report = EmbedReport { model: encoder.name.clone(), ..EmbedReport::default() };

    let existing = match DeepStore::open(&dir) {
        Ok(s) => s,
        Err(e @ DeepError::Corrupt { .. }) => {
            report.discarded = Some(e.to_string());
            None
        }
        Err(e) => return Err(ProjectError::Model(e.to_string())),
    };
    let existing = existing.filter(|s| {
        let fits = s.chunk_version == CHUNK_VERSION && s.verify().is_ok();
        if !fits && report.discarded.is_none() {
            report.discarded = Some("written from other chunks or damaged".into());
        }
        fits
    });

    let files = index.files()?;
    // Each live file's definitions: rows past them (a file indexed as words
    // after its parse budget ran out keeps its path and hash) are dropped.
    let live: rustc_hash::FxHashMap<u64, u32> =
        files.iter().map(|f| (file_key(f.path, f.slot.meta.hash), f.slot.meta.defs())).collect();
    let mut rows = DeepRows::new(&encoder.name, encoder.id, encoder.dims());
    if let Some(s) = &existing {
        rows.extend_from(s, |k| live.get(&k).copied());
        if s.model_id == encoder.id {
            report.dropped = (s.rows as usize).saturating_sub(rows.len()) as u64;
        }
    }
    report.had = rows.len() as u64;

    // What is missing, with its text (files read in parallel; a file changed
    // since it was indexed waits for `cg update`).
    // Per file: what to embed, its definitions, and whether it changed.
    type Found = (Vec<Todo>, u64, bool);
    let found: Vec<Result<Found, SnapshotError>> = files
        .par_iter()
        .map(|f| {
            let key = file_key(f.path, f.slot.meta.hash);
            let have = rows.files.get(&key);
            let mut todo = Vec::new();
            // None: the file has no structure, or its archive does not read.
            let read = |bytes: &[u8]| (!bytes.is_empty()).then(|| FileStructure::from_archive(bytes)).flatten();
            let Some(s) = f.seg.with_archive(f.slot.structure, read)? else {
                return Ok((todo, 0, false));
            };
            let defs = (s.types.len() + s.methods.len()) as u64;
            let missing = (0..defs as u32).any(|i| !have.is_some_and(|h| h.rows.contains_key(&i)));
            if !missing {
                return Ok((todo, defs, false));
            }
            let source = crate::query::text::read_regular(&root.join(f.path), root, f.slot.meta.size)
                .filter(|(bytes, _)| xxh3_64(bytes) == f.slot.meta.hash);
            let Some((bytes, _)) = source else {
                return Ok((todo, defs, true));
            };
            let source = String::from_utf8_lossy(&bytes);
            for_each_deep_chunk(f.path, &s, &source, |i, name, text| {
                if !have.is_some_and(|h| h.rows.contains_key(&i)) {
                    let (name, path, text) = (name.to_string(), f.path.to_string(), text.to_string());
                    todo.push(Todo { uses: 0, name, key, path, index: i, text });
                }
            });
            Ok((todo, defs, false))
        })
        .collect();
    let mut todo: Vec<Todo> = Vec::new();
    for r in found {
        let (t, defs, changed) = r?;
        report.definitions += defs;
        report.changed_files += changed as u64;
        todo.extend(t);
    }

    // Most used names first: the lines their exact spelling is on.
    let names: Vec<String> = {
        let mut n: Vec<String> = todo.iter().map(|t| t.name.clone()).collect();
        n.sort_unstable();
        n.dedup();
        n
    };
    let uses: HashMap<&str, u64> = names.par_iter().map(|n| (n.as_str(), name_uses(&index, n).unwrap_or(0))).collect();
    for t in todo.iter_mut() {
        t.uses = uses.get(t.name.as_str()).copied().unwrap_or(0);
    }
    todo.sort_by(|a, b| b.uses.cmp(&a.uses).then(a.key.cmp(&b.key)).then(a.index.cmp(&b.index)));
    if let Some(limit) = options.limit {
        todo.truncate(limit);
    }

    let total = todo.len() as u64;
    let tokens: Vec<Vec<u32>> = todo.par_iter().map(|t| encoder.tokens(&t.text)).collect();
    let mut saved = Instant::now();
    let mut model_time = Duration::ZERO;
    let mut unsaved = false;
    let step = options.step.max(1);
    for (batch, seqs) in todo.chunks(step).zip(tokens.chunks(step)) {
        let t = Instant::now();
        let vectors = encoder.embed_tokens(seqs).map_err(|e| ProjectError::Model(format!("{}: {e}", encoder.name)))?;
        model_time += t.elapsed();
        for (item, v) in batch.iter().zip(vectors) {
            rows.insert(item.key, &item.path, item.index, &v);
        }
        report.embedded += batch.len() as u64;
        unsaved = true;
        let go_on = progress(EmbedProgress { done: report.embedded, total, elapsed: started.elapsed() });
        if !go_on {
            break;
        }
        if saved.elapsed() >= options.save_every {
            save(&dir, &rows)?;
            saved = Instant::now();
            unsaved = false;
        }
    }
    let stale = existing.as_ref().is_some_and(|s| s.model_id != encoder.id || s.rows as usize != rows.len());
    if unsaved || stale || report.discarded.is_some() {
        save(&dir, &rows)?;
    }
    report.left = report.definitions.saturating_sub(rows.len() as u64);
    report.seconds = started.elapsed().as_secs_f64();
    report.per_second = if model_time.is_zero() { 0.0 } else { report.embedded as f64 / model_time.as_secs_f64() };
    report.bytes = fs::metadata(dir.join(DEEP_FILE)).map(|m| m.len()).unwrap_or(0);
    Ok(report)
}

/// Checks the transformer rows against the index (`cg verify`): a row of a
/// file the index holds as it is (same path and content hash) must be of one
/// of that file's definitions. Rows of files changed or removed since are
/// stale, not damaged: the next `cg embed` drops them.
pub fn check_rows(index: &Index, store: &DeepStore) -> Result<(), ProjectError> {
    for fi in 0..store.files {
        let path = store.path(fi);
        let Some(f) = index.locate(path)? else { continue };
        if file_key(path, f.slot.meta.hash) != store.file_key(fi) {
            continue;
        }
        let defs = f.slot.meta.defs();
        if let Some(r) = store.file_rows(fi).find(|&r| store.def_index(r) >= defs) {
            let why = format!("a row of {path} is of definition {}, and the file has {defs}", store.def_index(r));
            return Err(ProjectError::Model(DeepError::Corrupt { path: store.path.clone(), why }.to_string()));
        }
    }
    Ok(())
}

/// Lines of the index the exact spelling `name` is on.
fn name_uses(index: &Index, name: &str) -> Result<u64, SnapshotError> {
    let mut n = 0u64;
    let key = fold(name);
    for seg in &index.segments {
        if let Some(id) = seg.term_fst()?.get(&key) {
            let f = seg.fold(id as u32)?;
            for v in f.first_variant..f.first_variant.saturating_add(f.variant_count) {
                let rec = seg.variant(v)?;
                if seg.str_at(rec.term)? == name {
                    n += rec.occurrences as u64;
                }
            }
        }
    }
    Ok(n)
}

/// Replaces the store with `rows` (a temp file beside it, then a rename:
/// readers keep the file they mapped).
fn save(dir: &Path, rows: &DeepRows) -> Result<(), ProjectError> {
    let path = dir.join(DEEP_FILE);
    let tmp = dir.join(format!("{DEEP_FILE}.writing"));
    crate::safe_fs::write_new(&tmp, &rows.to_bytes()).map_err(io_err(&tmp))?;
    fs::rename(&tmp, &path).map_err(io_err(&path))
}

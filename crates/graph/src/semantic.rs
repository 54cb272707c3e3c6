//! Search by meaning: the query embedded by the static model the index was
//! built with, compared (int8 dot products, every row of every live file, on
//! all threads) with each type's and function's vector; and hybrid search,
//! which adds the cosine, weighted, to the lexical score normalized by its best
//! (`score / max + w × cosine`) over the union of both candidate lists.

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;

use super::search::{SymbolHit, SymbolSearch};
use super::{DefId, Graph, GraphError};
use crate::embed::deep::{file_key, DeepStore, Encoder};
use crate::embed::{quantize, StaticModel};
use crate::project::Index;
use crate::snapshot::vectors::VectorTable;

/// The weight of the static vectors' cosine in hybrid search (lexical scores
/// are divided by their best first). Chosen on half of the Go query set of
/// `benches/semantic` (README, "Search by meaning").
pub const HYBRID_WEIGHT: f64 = 1.0;

/// The cosine's weight in hybrid search when every definition has a
/// transformer vector (`cg embed`). Their cosines rank better than lexical
/// scores but spread less (candidates differ by tenths, normalized lexical
/// scores by up to 1), so they need the larger weight: 10 had the best
/// recall@10 summed over half `a` of the Go and Python query sets of
/// `benches/semantic` (1, 2, 3, 4, 6, 8, 10, 15 and 25 tried).
pub const TRANSFORMER_WEIGHT: f64 = 10.0;

/// The cosine's weight in hybrid search when a `share` (0 to 1) of the
/// definitions have transformer vectors: from [`HYBRID_WEIGHT`] with none to
/// [`TRANSFORMER_WEIGHT`] with all, in proportion. While `cg embed` is under
/// way the two tiers' cosines are mixed under one weight; with half of each
/// query set embedded, 5.5 had better recall@10 than 1, 3 or 10 on both, and
/// weighing each tier by its own weight (10 and 1) ranked the embedded half
/// above everything else (recall@10 0.16 on Go, under lexical's 0.46).
pub fn hybrid_weight(share: f64) -> f64 {
    HYBRID_WEIGHT + (TRANSFORMER_WEIGHT - HYBRID_WEIGHT) * share.clamp(0.0, 1.0)
}

/// How search ranks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    /// BM25 over the subwords of names ([`Graph::search`]).
    #[default]
    Lexical,
    /// Cosine between the query's and the definitions' static vectors.
    Semantic,
    /// Both.
    Hybrid,
}

impl SearchMode {
    pub fn name(self) -> &'static str {
        match self {
            SearchMode::Lexical => "lexical",
            SearchMode::Semantic => "semantic",
            SearchMode::Hybrid => "hybrid",
        }
    }

    /// Hybrid when `model` is given and embedded some of `index`'s segments,
    /// else lexical.
    pub fn default_for(index: &Index, model: Option<&StaticModel>) -> SearchMode {
        let embedded = model.is_some_and(|m| {
            index.segments.iter().any(|s| s.vectors().ok().flatten().is_some_and(|t| t.model_id == m.id))
        });
        if embedded {
            SearchMode::Hybrid
        } else {
            SearchMode::Lexical
        }
    }

    pub fn from_name(s: &str) -> Option<SearchMode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "lexical" => Some(SearchMode::Lexical),
            "semantic" => Some(SearchMode::Semantic),
            "hybrid" => Some(SearchMode::Hybrid),
            _ => None,
        }
    }
}

/// The mode a search runs in and the model it needs: `requested` (a mode's
/// name), else hybrid when the index has vectors of the project's model, else
/// lexical. A lexical search loads no model.
pub fn search_mode(
    index: &Index,
    requested: Option<&str>,
) -> Result<(SearchMode, Option<std::sync::Arc<StaticModel>>), String> {
    let requested = match requested {
        Some(m) => Some(
            SearchMode::from_name(m).ok_or_else(|| format!("unknown mode {m:?}: use lexical, semantic or hybrid"))?,
        ),
        None => None,
    };
    match requested {
        Some(SearchMode::Lexical) => Ok((SearchMode::Lexical, None)),
        None => {
            let model = crate::project::index_model(&index.root);
            Ok((SearchMode::default_for(index, model.as_deref()), model))
        }
        // Asked for by meaning: say why it cannot be, not only that a model
        // is needed.
        Some(mode) => Ok((mode, Some(model_for_meaning(index)?))),
    }
}

/// The project's model for a search by meaning, or what stands in the way: an
/// unreadable config, no model named, a model missing from the store or
/// damaged there, or an index whose vectors another model (or another version
/// of this one, added again under its name) made.
fn model_for_meaning(index: &Index) -> Result<std::sync::Arc<StaticModel>, String> {
    let config = crate::project::read_config(&index.root).map_err(|e| e.to_string())?.unwrap_or_default();
    let name = match config.model.as_deref() {
        None | Some(crate::project::NO_MODEL) | Some("") => return Err(GraphError::NoModel.to_string()),
        Some(name) => name,
    };
    let model = crate::project::vector_model(&config)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| GraphError::NoModel.to_string())?;
    let tables: Vec<u64> =
        index.segments.iter().filter_map(|s| s.vectors().ok().flatten().map(|t| t.model_id)).collect();
    if !tables.contains(&model.id) {
        return Err(if tables.is_empty() {
            format!("the index has no vectors of the model {name}: run `cg init` to embed its definitions")
        } else {
            format!(
                "the index's vectors were made by another version of the model {name} (it was added again since): run `cg init` to embed with the one in the store"
            )
        });
    }
    Ok(model)
}

/// Transformer vectors (`cg embed`) and the model that made them, for
/// queries: where a definition has one it is used instead of its static
/// vector.
pub struct Deep {
    pub encoder: std::sync::Arc<Encoder>,
    pub store: DeepStore,
}

impl std::fmt::Debug for Deep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deep").field("model", &self.encoder.name).field("rows", &self.store.rows).finish()
    }
}

/// The transformer vectors of the project at `index.root`, when it has some
/// and their model is in the store (a damaged or stale file is left for `cg
/// embed` and `cg verify` to report).
pub fn deep_vectors(index: &Index) -> Option<std::sync::Arc<Deep>> {
    deep_vectors_in(index, &crate::embed::ModelStore::from_env().ok()?)
}

/// [`deep_vectors`] with the model from `models`.
pub fn deep_vectors_in(index: &Index, models: &crate::embed::ModelStore) -> Option<std::sync::Arc<Deep>> {
    let store = DeepStore::open(&index.root.join(crate::project::DIR)).ok()??;
    if store.rows == 0 || store.chunk_version != crate::embed::deep::CHUNK_VERSION {
        return None;
    }
    let encoder = models.cached_encoder(&store.model).ok()?;
    (encoder.id == store.model_id && encoder.dims() == store.dims).then(|| std::sync::Arc::new(Deep { encoder, store }))
}

/// The rows nearest a query.
#[derive(Debug, Default)]
pub struct Nearest {
    /// Best first: a definition and its cosine with the query.
    pub hits: Vec<(DefId, f32)>,
    /// Rows compared.
    pub rows: u64,
    /// Live files in segments without vectors of this model.
    pub files_without: u64,
}

/// Where a row is: the file's key and the definition's index.
type Row = (usize, u32, u32);

/// The query quantized, or `None` when no token of it is known.
pub fn embed_query(model: &StaticModel, text: &str) -> Option<(Vec<i8>, f32)> {
    let mut v = vec![0f32; model.dims];
    if !model.embed(text, &mut v) {
        return None;
    }
    let mut q = Vec::with_capacity(model.dims);
    let scale = quantize(&v, &mut q);
    Some((q, scale))
}

/// The `k` rows of `index` whose vectors are nearest `text`'s.
pub fn nearest(index: &Index, model: &StaticModel, text: &str, k: usize) -> Result<Nearest, GraphError> {
    let mut out = Nearest::default();
    let Some((q, qs)) = embed_query(model, text) else { return Ok(out) };
    let mut tables: Vec<(usize, VectorTable<'_>)> = Vec::new();
    for (si, seg) in index.segments.iter().enumerate() {
        match seg.vectors()? {
            Some(t) if t.model_id == model.id && t.dims == model.dims => tables.push((si, t)),
            _ => {
                out.files_without += (0..seg.slot_count)
                    .filter(|&s| index.is_live(si, s) && seg.slot(s).is_ok_and(|r| r.part == 0))
                    .count() as u64;
            }
        }
    }
    // Work in slot ranges of about 4,096 files, on all threads.
    let mut jobs: Vec<(usize, VectorTable<'_>, u32, u32)> = Vec::new();
    for &(si, t) in &tables {
        let mut start = 0;
        while start < t.slots {
            let end = (start + 4096).min(t.slots);
            jobs.push((si, t, start, end));
            start = end;
        }
    }
    let k = k.max(1);
    // First pass: the rows whose sign bits differ least from the query's (an
    // eighth of the bytes); second: those rescored by int8 dot products.
    let shortlist = (k * SHORTLIST_PER_RESULT).max(MIN_SHORTLIST);
    let mut q_signs = Vec::with_capacity(model.dims.div_ceil(8));
    crate::snapshot::vectors::push_signs(&q, &mut q_signs);
    let parts: Vec<(Vec<(u32, Row)>, u64)> = jobs
        .par_iter()
        .map(|&(si, t, start, end)| scan_fast(&Scan { index, si, t, start, end, q_signs: &q_signs, shortlist }))
        .collect();
    let mut near: Vec<(u32, Row)> = Vec::new();
    for (items, rows) in parts {
        out.rows += rows;
        near.extend(items);
    }
    keep_nearest(&mut near, shortlist);
    let table_of: FxHashMap<usize, VectorTable<'_>> = tables.iter().copied().collect();
    let mut all: Vec<(f32, Row)> = near
        .into_iter()
        .map(|(_, (si, slot, r))| {
            let t = &table_of[&si];
            (t.dot(r, &q, qs), (si, slot, r - t.rows_of(slot).start))
        })
        .collect();
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    all.truncate(k);
    out.hits = all.into_iter().map(|(s, (si, slot, i))| (((si, slot), i), s)).collect();
    Ok(out)
}

/// The `k` live definitions whose transformer vectors are nearest the query
/// `q`: a sign-bit pass over every row, int8 rescoring of the shortlist, then
/// each row's file found in the index by path and checked by content hash
/// (rows of changed or removed files are passed over). Also returns the rows
/// compared.
pub fn deep_nearest(index: &Index, store: &DeepStore, q: &(Vec<i8>, f32), k: usize) -> (Vec<(DefId, f32)>, u64) {
    let k = k.max(1);
    let shortlist = (k * SHORTLIST_PER_RESULT).max(MIN_SHORTLIST);
    let mut q_signs = Vec::with_capacity(q.0.len().div_ceil(8));
    crate::snapshot::vectors::push_signs(&q.0, &mut q_signs);
    let ranges: Vec<(u32, u32)> =
        (0..store.rows).step_by(1 << 14).map(|s| (s, (s + (1 << 14)).min(store.rows))).collect();
    let mut near: Vec<(u32, Row)> = ranges
        .par_iter()
        .flat_map_iter(|&(start, end)| deep_scan_fast(store, &q_signs, start, end, shortlist))
        .collect();
    keep_nearest(&mut near, shortlist);
    let mut scored: Vec<(f32, u32)> = near.iter().map(|&(_, (_, _, r))| (store.dot(r, &q.0, q.1), r)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    // Rows are grouped by file: find each file once.
    let mut file_of_row: FxHashMap<u32, Option<(usize, u32, u32)>> = FxHashMap::default();
    let mut hits = Vec::with_capacity(k);
    for (cos, r) in scored {
        let fi = row_file(store, r);
        let live = *file_of_row.entry(fi).or_insert_with(|| {
            let path = store.path(fi);
            let f = index.locate(path).ok()??;
            (file_key(path, f.slot.meta.hash) == store.file_key(fi)).then_some((
                f.segment,
                f.slot_id,
                f.slot.meta.defs(),
            ))
        });
        // A row past the file's definitions (a damaged store, or one kept
        // from before the file was indexed otherwise) is passed over.
        if let Some((segment, slot, _)) = live.filter(|l| store.def_index(r) < l.2) {
            hits.push((((segment, slot), store.def_index(r)), cos));
            if hits.len() == k {
                break;
            }
        }
    }
    (hits, store.rows as u64)
}

/// The file whose rows hold row `r` (a binary search over the files' first rows).
fn row_file(store: &DeepStore, r: u32) -> u32 {
    let (mut lo, mut hi) = (0u32, store.files);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if store.file_rows(mid).start <= r {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[inline(always)]
fn deep_scan(store: &DeepStore, q_signs: &[u8], start: u32, end: u32, shortlist: usize) -> Vec<(u32, Row)> {
    let mut near: Vec<(u32, Row)> = Vec::new();
    let mut cut = u32::MAX;
    for r in start..end {
        let d = crate::snapshot::vectors::hamming(q_signs, store.signs(r));
        if d <= cut {
            near.push((d, (0, 0, r)));
            if near.len() > 4 * shortlist {
                keep_nearest(&mut near, shortlist);
                cut = near.iter().map(|x| x.0).max().unwrap_or(u32::MAX);
            }
        }
    }
    keep_nearest(&mut near, shortlist);
    near
}

/// [`deep_scan`] with the population count instruction when the CPU has it.
#[allow(unsafe_code)]
fn deep_scan_fast(store: &DeepStore, q_signs: &[u8], start: u32, end: u32, shortlist: usize) -> Vec<(u32, Row)> {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "popcnt")]
        fn scan_popcnt(store: &DeepStore, q: &[u8], start: u32, end: u32, shortlist: usize) -> Vec<(u32, Row)> {
            deep_scan(store, q, start, end, shortlist)
        }
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the feature the function was compiled for.
            return unsafe { scan_popcnt(store, q_signs, start, end, shortlist) };
        }
    }
    deep_scan(store, q_signs, start, end, shortlist)
}

/// The cosine of one definition with the query's transformer vector, if it
/// has one.
fn deep_cosine(index: &Index, deep: &Deep, q: &(Vec<i8>, f32), id: DefId) -> Option<f32> {
    let ((si, slot), i) = id;
    let seg = index.segments.get(si)?;
    let rec = seg.slot(slot).ok()?;
    if i >= rec.meta.defs() {
        return None;
    }
    let key = file_key(seg.slot_path(&rec).ok()?, rec.meta.hash);
    deep.store.find(key, i).map(|r| deep.store.dot(r, &q.0, q.1))
}

/// The cosine of one definition with the query (`None` without a vector).
fn cosine_of(index: &Index, model: &StaticModel, q: &(Vec<i8>, f32), id: DefId) -> Option<f32> {
    let ((si, slot), i) = id;
    let t = index.segments.get(si)?.vectors().ok()??;
    if t.model_id != model.id {
        return None;
    }
    let range = t.rows_of(slot);
    let row = range.start + i;
    (row < range.end).then(|| t.dot(row, &q.0, q.1))
}

/// One job of the first pass: a slot range of one segment.
struct Scan<'a> {
    index: &'a Index,
    si: usize,
    t: VectorTable<'a>,
    start: u32,
    end: u32,
    q_signs: &'a [u8],
    shortlist: usize,
}

/// The shortlist of a slot range (fewest differing sign bits), and the rows
/// compared.
#[inline(always)]
fn scan(s: &Scan<'_>) -> (Vec<(u32, Row)>, u64) {
    let mut near: Vec<(u32, Row)> = Vec::new();
    let mut rows = 0u64;
    // Rows farther than this cannot enter the shortlist any more.
    let mut cut = u32::MAX;
    for slot in s.start..s.end {
        let range = s.t.rows_of(slot);
        if range.is_empty() || !s.index.is_live(s.si, slot) {
            continue;
        }
        for r in range.clone() {
            rows += 1;
            let d = crate::snapshot::vectors::hamming(s.q_signs, s.t.signs(r));
            if d <= cut {
                near.push((d, (s.si, slot, r)));
            }
        }
        if near.len() > 4 * s.shortlist {
            keep_nearest(&mut near, s.shortlist);
            cut = near.iter().map(|x| x.0).max().unwrap_or(u32::MAX);
        }
    }
    keep_nearest(&mut near, s.shortlist);
    (near, rows)
}

/// [`scan`] with the CPU's population count instruction when it has one (the
/// baseline x86-64 target counts bits with a dozen vector instructions).
#[allow(unsafe_code)]
fn scan_fast(s: &Scan<'_>) -> (Vec<(u32, Row)>, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "popcnt")]
        fn scan_popcnt(s: &Scan<'_>) -> (Vec<(u32, Row)>, u64) {
            scan(s)
        }
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the feature the function was compiled for.
            return unsafe { scan_popcnt(s) };
        }
    }
    scan(s)
}

/// Rows rescored per result asked for, and at least (so an index of fewer
/// rows than this is searched exactly).
const SHORTLIST_PER_RESULT: usize = 16;
const MIN_SHORTLIST: usize = 512;

/// Keeps the `n` nearest (fewest differing bits; ties by position).
fn keep_nearest(v: &mut Vec<(u32, Row)>, n: usize) {
    if v.len() > n {
        v.select_nth_unstable(n - 1);
        v.truncate(n);
    }
}

/// The hits a sentence's search ranks again with file evidence, however few
/// are asked for: an answer of up to a third of it (100, MCP's largest) is the
/// first part of any longer one.
const SENTENCE_POOL: usize = 300;

impl Graph<'_> {
    /// Search by `mode`: lexical ([`Graph::search`]), semantic (`model`'s
    /// vectors), or hybrid. Semantic and hybrid need `model`; without one they
    /// are an error saying how to add one.
    pub fn search_by(
        &self,
        text: &str,
        limit: usize,
        mode: SearchMode,
        model: Option<&StaticModel>,
    ) -> Result<SymbolSearch, GraphError> {
        self.search_weighted(text, limit, mode, model, None)
    }

    /// [`Graph::search_by`] with the cosine's weight in hybrid search given
    /// (for choosing it); `None`: [`hybrid_weight`] of the share of
    /// definitions with transformer vectors.
    pub fn search_weighted(
        &self,
        text: &str,
        limit: usize,
        mode: SearchMode,
        model: Option<&StaticModel>,
        weight: Option<f64>,
    ) -> Result<SymbolSearch, GraphError> {
        // More than asked for, so that collapsing copies still fills the answer.
        let wanted = limit.saturating_mul(3);
        // A sentence's hits are ranked again with their files' evidence: from
        // a pool of the same size whatever the limit (up to a third of it), so
        // that a smaller limit shows the first hits of a larger one.
        let sentence = super::context::search_words(text).len() >= super::evidence::SENTENCE_WORDS;
        let pool = if sentence { wanted.max(SENTENCE_POOL) } else { wanted };
        let mut found = if sentence {
            self.evidence_alongside(text, || self.search_uncollapsed(text, pool, mode, model, weight))??
        } else {
            self.search_uncollapsed(text, pool, mode, model, weight)?
        };
        self.fuse_file_evidence(text, &mut found, pool)?;
        collapse_copies(self.index, model, &mut found.hits, limit);
        Ok(found)
    }

    fn search_uncollapsed(
        &self,
        text: &str,
        limit: usize,
        mode: SearchMode,
        model: Option<&StaticModel>,
        weight: Option<f64>,
    ) -> Result<SymbolSearch, GraphError> {
        let model = match (mode, model) {
            (SearchMode::Lexical, _) => return self.search(text, limit),
            (_, Some(m)) => m,
            (_, None) => return Err(GraphError::NoModel),
        };
        // Each side's best `limit` (three times what the caller shows, for
        // collapsing copies), at least 40 (four times as many found no more on
        // the Go query set).
        let keep = limit.max(40);
        let near = nearest(self.index, model, text, keep)?;
        let mut lexical = match mode {
            SearchMode::Hybrid => self.search(text, keep)?,
            _ => SymbolSearch::default(),
        };
        lexical.mode = mode;
        let query = embed_query(model, text);
        // Transformer vectors where a definition has one, static ones elsewhere.
        let deep = self.deep.as_deref().and_then(|d| Some((d, d.encoder.embed_query(text)?)));
        let deep_near = deep.as_ref().map(|(d, q)| deep_nearest(self.index, &d.store, q, keep));
        let cosine = |id: DefId| -> f64 {
            if let Some(c) = deep.as_ref().and_then(|(d, q)| deep_cosine(self.index, d, q, id)) {
                return c as f64;
            }
            query.as_ref().and_then(|q| cosine_of(self.index, model, q, id)).unwrap_or(0.0) as f64
        };
        // The share of definitions with transformer vectors: rows in the
        // store over static rows compared (a store's rows of files changed
        // since `cg embed`, passed over by search, still count until the next
        // run drops them).
        let share = match &deep_near {
            Some((_, rows)) if near.rows > 0 => *rows as f64 / near.rows as f64,
            Some(_) => 1.0,
            None => 0.0,
        };
        let weight = match mode {
            SearchMode::Hybrid => weight.unwrap_or_else(|| hybrid_weight(share)),
            _ => 1.0,
        };
        lexical.semantic = Some(SemanticCounts {
            rows: near.rows,
            files_without: near.files_without,
            transformer_rows: deep_near.as_ref().map_or(0, |d| d.1),
            weight: (mode == SearchMode::Hybrid).then_some(weight),
        });
        // Lexical scores over their best; cosines as they are.
        let best = lexical.hits.iter().map(|h| h.score).fold(0f64, f64::max);
        let mut scores: FxHashMap<DefId, (f64, Option<SymbolHit>)> = FxHashMap::default();
        for h in lexical.hits.drain(..) {
            let id = ((h.segment as usize, h.slot), h.index);
            let lex = if best > 0.0 { h.score / best } else { 0.0 };
            scores.insert(id, (lex + weight * cosine(id), Some(h)));
        }
        for &(id, cos) in deep_near.iter().flat_map(|d| d.0.iter()) {
            scores.entry(id).or_insert((weight * cos as f64, None));
        }
        for &(id, _) in &near.hits {
            scores.entry(id).or_insert_with(|| (weight * cosine(id), None));
        }
        let mut ranked: Vec<(f64, DefId, Option<SymbolHit>)> =
            scores.into_iter().map(|(id, (s, h))| ((s * 1000.0).round() / 1000.0, id, h)).collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        ranked.truncate(limit);
        let mut hits = Vec::with_capacity(ranked.len());
        for (score, id, hit) in ranked {
            let hit = match hit {
                Some(mut h) => {
                    h.score = score;
                    h
                }
                None => match self.hit_from_table(id, score)? {
                    Some(h) => h,
                    // Not in the table (a name that is not a term): from the
                    // file's archive.
                    None => self.hit_of(id, score)?,
                },
            };
            hits.push(hit);
        }
        lexical.hits = hits;
        Ok(lexical)
    }
}

impl Graph<'_> {
    /// A row's definition from its name (kept with the vectors) and the
    /// definitions table, reading no archive.
    fn hit_from_table(&self, id: DefId, score: f64) -> Result<Option<SymbolHit>, GraphError> {
        let ((si, slot), i) = id;
        let Some(seg) = self.index.segments.get(si) else { return Ok(None) };
        let Some(t) = seg.vectors()? else { return Ok(None) };
        let rows = t.rows_of(slot);
        let Some(name) = (rows.start + i < rows.end).then(|| t.name(rows.start + i)).flatten() else {
            return Ok(None);
        };
        let Some(e) = seg.definitions(name)?.into_iter().find(|e| e.slot == slot && e.index == i) else {
            return Ok(None);
        };
        let rec = seg.slot(slot)?;
        let path = seg.slot_path(&rec)?;
        let language = crate::lang::Language::of_id(rec.meta.language);
        Ok(Some(SymbolHit::from_entry(name, e, path, language, si, score)))
    }
}

/// Cosine above which two definitions of the same name, kind, parent and
/// length are copies.
const COPY_COSINE: f32 = 0.9;

/// Folds copies into the first (best) of them, keeping at most `limit` hits.
fn collapse_copies(index: &Index, model: Option<&StaticModel>, hits: &mut Vec<SymbolHit>, limit: usize) {
    let vector = |h: &SymbolHit| -> Option<Vec<f32>> {
        let m = model.filter(|_| !h.is_whole_file())?;
        let t = index.segments.get(h.segment as usize)?.vectors().ok()??;
        if t.model_id != m.id {
            return None;
        }
        let rows = t.rows_of(h.slot);
        let row = rows.start + h.index;
        (row < rows.end).then(|| t.codes(row).iter().map(|&c| (c as i8) as f32 * t.scale(row)).collect())
    };
    let cosine = |a: &[f32], b: &[f32]| {
        let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        let n = a.iter().map(|x| x * x).sum::<f32>().sqrt() * b.iter().map(|x| x * x).sum::<f32>().sqrt();
        if n > 0.0 {
            dot / n
        } else {
            0.0
        }
    };
    // A member's type (the qualified name's part before its own); functions
    // and types compare by name alone (their qualifier is the package).
    let parent = |h: &SymbolHit| {
        if h.kind != "method" && h.kind != "property" {
            return None;
        }
        h.qualified_name.rsplit_once('.').map(|(p, _)| p.rsplit('.').next().unwrap_or(p).to_string())
    };
    let mut kept: Vec<(SymbolHit, Option<Vec<f32>>)> = Vec::new();
    for h in hits.drain(..) {
        let v = vector(&h);
        let copy_of = kept.iter().position(|(k, kv)| {
            k.name == h.name
                && k.kind == h.kind
                && k.end_line - k.line == h.end_line - h.line
                && parent(k) == parent(&h)
                && match (kv, &v) {
                    (Some(a), Some(b)) => cosine(a, b) >= COPY_COSINE,
                    _ => k.score == h.score,
                }
        });
        match copy_of {
            Some(i) => kept[i].0.duplicates.push(super::CopyAt { file: h.file, line: h.line }),
            None if kept.len() < limit => kept.push((h, v)),
            None => {}
        }
    }
    hits.extend(kept.into_iter().map(|(h, _)| h));
}

/// What a semantic or hybrid search compared.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct SemanticCounts {
    /// Definition vectors compared with the query.
    pub rows: u64,
    /// Live files in segments without vectors of the model.
    pub files_without: u64,
    /// Transformer vectors compared with the query (`cg embed`).
    pub transformer_rows: u64,
    /// The cosine's weight, in hybrid search.
    pub weight: Option<f64>,
}

/// How many of the live types and functions have a vector of a model.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct VectorCoverage {
    /// The model the project's config names (none: no vectors wanted).
    pub model: Option<String>,
    /// Whether that model is in the store (search by meaning needs it).
    pub model_found: bool,
    /// Types and functions with a vector of that model.
    pub embedded: u64,
    /// Types and functions without one (segments written without the model,
    /// or with another).
    pub missing: u64,
    /// Of the missing, those with vectors of another model, or of an earlier
    /// version of this one (`cg init` embeds them again).
    pub other_model: u64,
    /// The model of the transformer vectors (`cg embed`), if there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transformer_model: Option<String>,
    /// Types and functions with a transformer vector (of their current text).
    pub transformer: u64,
}

/// The vectors of `index` against `model` (by id; `None`: the model named is
/// not in the store, and nothing counts as embedded with it).
pub fn vector_coverage(index: &Index, name: Option<&str>, model: Option<&StaticModel>) -> VectorCoverage {
    let mut c =
        VectorCoverage { model: name.map(str::to_string), model_found: model.is_some(), ..VectorCoverage::default() };
    let deep = DeepStore::open(&index.root.join(crate::project::DIR)).ok().flatten();
    c.transformer_model = deep.as_ref().filter(|d| d.rows > 0).map(|d| d.model.clone());
    for (si, seg) in index.segments.iter().enumerate() {
        // Rows count only for the model named, as it is in the store now.
        let vectors = seg.vectors().ok().flatten();
        let table = vectors.filter(|t| model.is_some_and(|m| m.id == t.model_id));
        let other = vectors.filter(|t| model.is_none_or(|m| m.id != t.model_id));
        for s in 0..seg.slot_count {
            let Ok(slot) = seg.slot(s) else { continue };
            if slot.part != 0 || !index.is_live(si, s) {
                continue;
            }
            let defs = slot.meta.type_count as u64 + slot.meta.method_count as u64;
            let rows = table.map_or(0, |t| t.rows_of(s).len() as u64);
            c.embedded += rows.min(defs);
            c.missing += defs.saturating_sub(rows);
            c.other_model += other.map_or(0, |t| t.rows_of(s).len() as u64).min(defs);
            if let Some(d) = &deep {
                let Ok(path) = seg.slot_path(&slot) else { continue };
                let found = d.find_file(file_key(path, slot.meta.hash)).map_or(0, |f| d.file_rows(f).len() as u64);
                c.transformer += found.min(defs);
            }
        }
    }
    c
}

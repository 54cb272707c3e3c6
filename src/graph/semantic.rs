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
use crate::embed::{quantize, StaticModel};
use crate::project::Index;
use crate::snapshot::vectors::VectorTable;

/// The weight of the cosine in hybrid search (lexical scores are divided by
/// their best first). Chosen on half of the Go query set of
/// `benches/semantic` (see the README there).
pub const HYBRID_WEIGHT: f64 = 1.0;

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
    let parts: Vec<(Vec<(f32, Row)>, u64)> = jobs
        .par_iter()
        .map(|&(si, t, start, end)| {
            let mut top = Top::new(k);
            let mut rows = 0u64;
            for slot in start..end {
                let range = t.rows_of(slot);
                if range.is_empty() || !index.is_live(si, slot) {
                    continue;
                }
                for r in range.clone() {
                    rows += 1;
                    let s = t.dot(r, &q, qs);
                    if s > top.floor() {
                        top.add(s, (si, slot, r - range.start));
                    }
                }
            }
            (top.items, rows)
        })
        .collect();
    let mut all: Vec<(f32, Row)> = Vec::new();
    for (items, rows) in parts {
        out.rows += rows;
        all.extend(items);
    }
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    all.truncate(k);
    out.hits = all.into_iter().map(|(s, (si, slot, i))| (((si, slot), i), s)).collect();
    Ok(out)
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

/// A bounded list of the best scores.
struct Top {
    k: usize,
    items: Vec<(f32, Row)>,
}

impl Top {
    fn new(k: usize) -> Top {
        Top { k, items: Vec::with_capacity(k + 1) }
    }

    fn floor(&self) -> f32 {
        if self.items.len() < self.k {
            f32::NEG_INFINITY
        } else {
            self.items.last().map_or(f32::NEG_INFINITY, |x| x.0)
        }
    }

    fn add(&mut self, s: f32, row: Row) {
        let at = self.items.partition_point(|x| x.0 > s || (x.0 == s && x.1 < row));
        self.items.insert(at, (s, row));
        self.items.truncate(self.k);
    }
}

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
        self.search_weighted(text, limit, mode, model, HYBRID_WEIGHT)
    }

    /// [`Graph::search_by`] with the cosine's weight in hybrid search given
    /// (for choosing it).
    pub fn search_weighted(
        &self,
        text: &str,
        limit: usize,
        mode: SearchMode,
        model: Option<&StaticModel>,
        weight: f64,
    ) -> Result<SymbolSearch, GraphError> {
        let model = match (mode, model) {
            (SearchMode::Lexical, _) => return self.search(text, limit),
            (_, Some(m)) => m,
            (_, None) => return Err(GraphError::NoModel),
        };
        let keep = (limit * 4).max(40);
        let near = nearest(self.index, model, text, keep)?;
        let mut lexical = match mode {
            SearchMode::Hybrid => self.search(text, keep)?,
            _ => SymbolSearch::default(),
        };
        lexical.mode = mode;
        lexical.semantic = Some(SemanticCounts { rows: near.rows, files_without: near.files_without });
        let query = embed_query(model, text);
        // Lexical scores over their best; cosines as they are.
        let best = lexical.hits.iter().map(|h| h.score).fold(0f64, f64::max);
        let mut scores: FxHashMap<DefId, (f64, Option<SymbolHit>)> = FxHashMap::default();
        for h in lexical.hits.drain(..) {
            let id = ((h.segment as usize, h.slot), h.index);
            let lex = if best > 0.0 { h.score / best } else { 0.0 };
            let cos = query.as_ref().and_then(|q| cosine_of(self.index, model, q, id)).unwrap_or(0.0) as f64;
            scores.insert(id, (lex + weight * cos, Some(h)));
        }
        let weight = if mode == SearchMode::Hybrid { weight } else { 1.0 };
        for &(id, cos) in &near.hits {
            scores.entry(id).or_insert((weight * cos as f64, None));
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
                None => {
                    let (f, d) = self.def(id)?;
                    SymbolHit {
                        qualified_name: f.qualified_name(&d),
                        name: d.name.clone(),
                        kind: d.kind.clone(),
                        file: f.path.clone(),
                        line: d.line,
                        end_line: d.end_line,
                        score,
                        segment: id.0 .0 as u32,
                        slot: id.0 .1,
                        index: id.1,
                    }
                }
            };
            hits.push(hit);
        }
        lexical.hits = hits;
        Ok(lexical)
    }
}

/// What a semantic or hybrid search compared.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct SemanticCounts {
    /// Definition vectors compared with the query.
    pub rows: u64,
    /// Live files in segments without vectors of the model.
    pub files_without: u64,
}

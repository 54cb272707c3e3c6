//! Queries: a term and a mode in, matching lines out.
//!
//! A match is a (file, line) where at least one term matches; each line counts
//! once. Modes: `exact`, `starts_with`, `contains`, `regex` (unanchored, like grep,
//! unless the pattern anchors itself), case-insensitive unless asked otherwise.
//! Results list definition lines (`struct`, `method`, `property`) first, then the
//! rest, each in path and line order; `total` counts every match even when the
//! limit cuts the list.
//!
//! Finding terms never scans the dictionary for `exact` and `starts_with` (fst
//! lookups), nor for `contains` with 3+ bytes or a `regex` with a required literal
//! of 3+ bytes (a trigram index over the dictionary gives the candidates, which
//! are then checked). Shorter needles and regexes without such a literal scan the
//! dictionary.

#![deny(unsafe_code)]

// The layers below, under the names the modules of this crate use.
pub(crate) use codegraph_segment as snapshot;
pub(crate) use codegraph_store::project;
pub(crate) use codegraph_syntax::{extract, lang, safe_fs};

mod matcher;
pub mod paths;
pub mod text;

use std::panic::{catch_unwind, AssertUnwindSafe};

use rayon::prelude::*;

pub use matcher::{ExactTerm, Matcher};
pub use paths::PathFilter;

use crate::extract::words::{for_each_word, WordSource};
use crate::extract::LineType;
use crate::project::Index;
use crate::snapshot::postings::{add_to_bits, extend_into, LineBits};
use crate::snapshot::{unpack, FoldRec, Segment, SlotRec, SlotSet, SnapshotError, VariantRec};
use matcher::intersect_sorted;

/// How a query term matches index terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Exact,
    StartsWith,
    Contains,
    Regex,
    /// The term is a subword of an identifier (`user` finds `getUserById`,
    /// `UserRepository`, `user_service`), or several in a row (`user_id` finds
    /// `getUserId`).
    Subword,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Exact => "exact",
            Mode::StartsWith => "starts_with",
            Mode::Contains => "contains",
            Mode::Regex => "regex",
            Mode::Subword => "subword",
        }
    }

    pub fn from_name(name: &str) -> Option<Mode> {
        match name.trim().to_ascii_lowercase().as_str() {
            "exact" => Some(Mode::Exact),
            "starts_with" | "prefix" | "starts-with" => Some(Mode::StartsWith),
            "contains" => Some(Mode::Contains),
            "regex" | "re" => Some(Mode::Regex),
            "subword" | "subwords" => Some(Mode::Subword),
            _ => None,
        }
    }
}

/// The default number of matches returned.
pub const DEFAULT_LIMIT: usize = 100;

/// A query.
#[derive(Clone, Debug)]
pub struct Query {
    pub term: String,
    pub mode: Mode,
    pub case_sensitive: bool,
    /// Globs over relative paths with ripgrep's `-g` semantics ([`PathFilter`]):
    /// `*.go` at any depth, `src/Core/**`, `!vendor`; empty means every file.
    pub file_filter: Vec<String>,
    /// Only lines of these types; empty means all.
    pub types: Vec<LineType>,
    /// At most this many matches; 0 means no limit.
    pub limit: usize,
    /// Plain path and line order (definition lines still first) instead of
    /// the definitions of an exact term leading.
    pub path_order: bool,
}

impl Query {
    pub fn new(term: &str, mode: Mode) -> Query {
        Query {
            term: term.to_string(),
            mode,
            case_sensitive: false,
            file_filter: Vec::new(),
            types: Vec::new(),
            limit: DEFAULT_LIMIT,
            path_order: false,
        }
    }
}

/// One matching line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub path: String,
    pub line: u32,
    pub line_type: LineType,
    /// Which segment and slot it came from (to check staleness).
    pub segment: u32,
    pub slot: u32,
}

/// The matches of a query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matches {
    pub hits: Vec<Hit>,
    /// Every match, including those the limit left out.
    pub total: u64,
    /// When the term had separators (`http.Client`): the words looked up, which
    /// every matching line holds.
    pub words: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    #[error("empty search term: give a name, a prefix, a substring or a regex")]
    EmptyTerm,
    #[error("invalid regex: {0}")]
    BadRegex(String),
    #[error("invalid file filter {glob:?}: {message}")]
    BadGlob { glob: String, message: String },
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
}

/// Runs a query over every segment of an index.
pub fn search(index: &Index, query: &Query) -> Result<Matches, QueryError> {
    search_tuned(index, query, Tuning::default())
}

/// When a query splits its work into parts and gathers postings as line bits;
/// tests set these low so that small trees take every path.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Candidate keys per part of their check, at least.
    pub part_candidates: usize,
    /// Variants per part of a union, at least.
    pub part_variants: usize,
    /// Postings from which a union is gathered as line bits rather than sorted.
    pub bits_postings: u64,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning { part_candidates: PART_CANDIDATES, part_variants: PART_VARIANTS, bits_postings: BITS_POSTINGS }
    }
}

/// [`search`] with its parts and line bits set by `tuning`.
#[doc(hidden)]
pub fn search_tuned(index: &Index, query: &Query, tuning: Tuning) -> Result<Matches, QueryError> {
    let filter = Filter::new(query)?;
    let limit = if query.limit == 0 { usize::MAX } else { query.limit };
    let words = words_of(query);
    let matchers: Vec<Matcher> = match &words {
        Some(words) => words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                // `http.Cl` as a prefix: every word whole but the last.
                let mode = if query.mode == Mode::StartsWith && i + 1 < words.len() { Mode::Exact } else { query.mode };
                Matcher::new(w, mode, query.case_sensitive)
            })
            .collect::<Result<_, _>>()?,
        None => vec![Matcher::new(&query.term, query.mode, query.case_sensitive)?],
    };
    let mut defs: Vec<Hit> = Vec::new();
    let mut rest: Vec<Hit> = Vec::new();
    let mut total = 0u64;
    // An exact term is looked up once per segment, for its hits, its total and
    // the lines defining it.
    let exact: Vec<Option<ExactTerm>> = match matchers.as_slice() {
        [one] if query.mode == Mode::Exact => exact_terms(index, one)?,
        _ => Vec::new(),
    };
    let run = |i: usize| {
        let (seg, skip) = (&index.segments[i], &index.superseded[i]);
        guarded(seg, || match matchers.as_slice() {
            [one] => {
                let exact = match exact.is_empty() {
                    true => None,
                    false => Some(exact[i].as_ref()),
                };
                search_segment(seg, i as u32, skip, one, exact, &filter, limit, tuning)
            }
            several => search_segment_words(seg, i as u32, skip, several, &filter, limit),
        })
    };
    // A substring matches thousands of dictionary keys whose postings are read:
    // segments go to their own threads (query bench, corpus, 2 cores: contains p50
    // 0.93-1.1 -> 0.80 ms, p90 8.4-9.1 -> 5.9-6.4 ms). The other modes mostly cost
    // less than handing work to another thread (prefix and regex p50 got slower).
    let n = index.segments.len();
    let parts: Vec<Result<SegmentMatches, QueryError>> = match query.mode {
        Mode::Contains | Mode::Subword => (0..n).into_par_iter().map(run).collect(),
        Mode::Exact | Mode::StartsWith | Mode::Regex => (0..n).map(run).collect(),
    };
    for part in parts {
        let part = part?;
        total += part.total;
        defs.extend(part.defs);
        rest.extend(part.rest);
    }
    if index.has_updates() {
        // Update segments hold paths from anywhere in the tree.
        let order = |a: &Hit, b: &Hit| (a.path.as_str(), a.line).cmp(&(b.path.as_str(), b.line));
        defs.sort_by(order);
        rest.sort_by(order);
    }
    // The definitions of the term itself lead (an exact term: its spelling as
    // given first, then its other spellings), then other definition lines.
    // Each segment kept its first `limit` definition lines, so what is left
    // after taking these out still fills the answer.
    let mut hits = match (&words, query.mode) {
        (None, Mode::Exact) if !query.path_order => defining_hits(index, &exact, query, &filter, limit)?,
        // One subword: the definitions named by it whole lead.
        (None, Mode::Subword) if !query.path_order => match matchers[0].single_part() {
            Some(part) => {
                let matcher = Matcher::new(part, Mode::Exact, query.case_sensitive)?;
                defining_hits(index, &exact_terms(index, &matcher)?, query, &filter, limit)?
            }
            None => Vec::new(),
        },
        _ => Vec::new(),
    };
    if !hits.is_empty() {
        let lead: rustc_hash::FxHashSet<(u32, u32, u32)> = hits.iter().map(|h| (h.segment, h.slot, h.line)).collect();
        defs.retain(|h| !lead.contains(&(h.segment, h.slot, h.line)));
    }
    hits.extend(defs);
    hits.truncate(limit);
    let room = limit - hits.len();
    hits.extend(rest.into_iter().take(room));
    Ok(Matches { hits, total, words: words.unwrap_or_default() })
}

/// Every line of each segment holding a match of `term` in `mode`, as sorted,
/// distinct postings `(slot << 16) | line_id` (superseded slots left out; no
/// filter): what counting a word's lines per file needs, without a path, a line
/// type or a line's text read (file evidence counts them over a whole tree).
pub fn postings(index: &Index, term: &str, mode: Mode) -> Result<Vec<Vec<u32>>, QueryError> {
    let matcher = Matcher::new(term, mode, false)?;
    (0..index.segments.len())
        .into_par_iter()
        .map(|i| {
            let (seg, skip) = (&index.segments[i], &index.superseded[i]);
            guarded(seg, || {
                let variants = matcher.variants(seg)?;
                let (rest, defs) = union_postings(seg, &variants, skip)?;
                Ok(merge_distinct(rest, defs))
            })
        })
        .collect()
}

/// An exact matcher's term in each segment ([`Matcher::exact_term`]).
fn exact_terms(index: &Index, matcher: &Matcher) -> Result<Vec<Option<ExactTerm>>, QueryError> {
    index.segments.iter().map(|seg| guarded(seg, || matcher.exact_term(seg).map_err(QueryError::from))).collect()
}

/// The lines defining an exact term (a type, function, method or property of
/// that name, from the segments' definitions tables) that match the query: its
/// spelling as given first, then the others, each in path order; at most
/// `limit`. Only lines holding the term count (a definition's first line may be
/// an attribute or a decorator above its name): the table marks them. `exact`
/// is the term in each segment ([`Matcher::exact_term`]).
fn defining_hits(
    index: &Index,
    exact: &[Option<ExactTerm>],
    query: &Query,
    filter: &Filter,
    limit: usize,
) -> Result<Vec<Hit>, QueryError> {
    let updates = index.has_updates();
    let mut found: Vec<(bool, String, u32, u32, u32, LineType)> = Vec::new();
    for (i, seg) in index.segments.iter().enumerate() {
        let skip = &index.superseded[i];
        let Some(term) = exact.get(i).and_then(Option::as_ref) else { continue };
        guarded(seg, || {
            let mut slots = SlotCache::default();
            for &v in &term.variants {
                let spelling = seg.str_at(v.term)?;
                let mut lines = seg.definition_lines(spelling)?;
                let rank = spelling != query.term;
                // Records come in slot (path) order: past `limit` lines, the
                // rest of this spelling cannot make the answer (the last file's
                // lines are all taken: within a file they need not be in order).
                let (mut taken, mut last_slot) = (0usize, u32::MAX);
                for (first, line, on_line) in lines.by_ref() {
                    if taken >= limit && first != last_slot {
                        break;
                    }
                    if first >= seg.slot_count {
                        return Err(seg.corrupt("definition of a slot out of range").into());
                    }
                    // Only a line holding the term, typed as a definition (so it
                    // is among the term's postings on definition lines).
                    if !on_line || skip.contains(first) {
                        continue;
                    }
                    let slot_id = first + (line.max(1) - 1) / crate::snapshot::LINES_PER_SLOT;
                    let (slot, path_ok) = slots.get(seg, slot_id, filter)?;
                    let line_type = seg.line_type(&slot, line)?;
                    if !path_ok || !line_type.is_definition() || !filter.types[line_type as usize] {
                        continue;
                    }
                    // The path only when segments from updates mix path orders.
                    let path = if updates { seg.slot_path(&slot)?.to_string() } else { String::new() };
                    found.push((rank, path, i as u32, slot_id, line, line_type));
                    (taken, last_slot) = (taken + 1, first);
                }
                if lines.failed {
                    return Err(seg.corrupt("definition records malformed").into());
                }
            }
            Ok(())
        })?;
    }
    // Spelling rank, then path order: (segment, slot) is path order within one
    // build; with updates the paths decide.
    found.sort_by(|a, b| (a.0, &a.1, a.2, a.3, a.4).cmp(&(b.0, &b.1, b.2, b.3, b.4)));
    // A line defining two spellings (or two definitions) once, at its first place.
    let mut seen: rustc_hash::FxHashSet<(u32, u32, u32)> = rustc_hash::FxHashSet::default();
    let mut out = Vec::new();
    for (_, _, segment, slot_id, line, line_type) in found {
        if out.len() == limit {
            break;
        }
        if seen.insert((segment, slot_id, line)) {
            let seg = &index.segments[segment as usize];
            let path = seg.slot_path(&seg.slot(slot_id)?)?.to_string();
            out.push(Hit { path, line, line_type, segment, slot: slot_id });
        }
    }
    Ok(out)
}

/// The words a term with separators is looked up as, on one line (`http.Client`,
/// `new Foo`, `std::fs`): `None` for a plain term or a regex. Keywords of any
/// language are left out, since they are never indexed (`new Foo` finds the lines
/// holding `Foo`).
fn words_of(query: &Query) -> Option<Vec<String>> {
    if matches!(query.mode, Mode::Regex | Mode::Subword) {
        return None;
    }
    let term = query.term.trim();
    let mut words = Vec::new();
    for_each_word(term, 1, WordSource::Code, |w, _| words.push(w.to_string()));
    if words.len() == 1 && words[0] == term {
        return None;
    }
    if words.is_empty() {
        return None; // no word at all: the matcher reports the term as it is
    }
    let is_keyword = |w: &str| crate::lang::SPECS.iter().any(|s| s.keywords.binary_search(&w).is_ok());
    let kept: Vec<String> = words.iter().filter(|w| !is_keyword(w)).cloned().collect();
    Some(if kept.is_empty() { words } else { kept })
}

/// Lines of one segment that hold a match of every word.
fn search_segment_words(
    seg: &Segment,
    seg_index: u32,
    skip: &SlotSet,
    matchers: &[Matcher],
    filter: &Filter,
    limit: usize,
) -> Result<SegmentMatches, QueryError> {
    let mut lists: Option<(Vec<u32>, Vec<u32>)> = None;
    for m in matchers {
        let variants = m.variants(seg)?;
        let (rest, defs) = union_postings(seg, &variants, skip)?;
        lists = Some(match lists {
            None => (rest, defs),
            Some((r, d)) => (intersect_sorted(&r, &rest), intersect_sorted(&d, &defs)),
        });
        if lists.as_ref().is_some_and(|(r, d)| r.is_empty() && d.is_empty()) {
            break;
        }
    }
    let (rest, defs) = lists.unwrap_or_default();
    collect(seg, seg_index, filter, limit, &defs, &rest)
}

struct Filter {
    glob: Option<PathFilter>,
    types: [bool; 6],
    any_type: bool,
}

impl Filter {
    fn new(query: &Query) -> Result<Filter, QueryError> {
        let glob = PathFilter::new(&query.file_filter)?;
        let mut types = [query.types.is_empty(); 6];
        for t in &query.types {
            types[*t as usize] = true;
        }
        Ok(Filter { glob, types, any_type: query.types.is_empty() })
    }

    fn is_empty(&self) -> bool {
        self.glob.is_none() && self.any_type
    }
}

struct SegmentMatches {
    defs: Vec<Hit>,
    rest: Vec<Hit>,
    total: u64,
}

/// Runs `f` on a segment; a panic (the fst crate can panic on corrupted bytes)
/// becomes a corruption error.
fn guarded<T>(seg: &Segment, f: impl FnOnce() -> Result<T, QueryError>) -> Result<T, QueryError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| Err(seg.corrupt("term dictionary").into()))
}

/// The hits and total of one segment; `exact`: an exact term looked up
/// already (`Some(None)`: not in the segment).
#[allow(clippy::too_many_arguments)]
fn search_segment(
    seg: &Segment,
    seg_index: u32,
    skip: &SlotSet,
    matcher: &Matcher,
    exact: Option<Option<&ExactTerm>>,
    filter: &Filter,
    limit: usize,
    tuning: Tuning,
) -> Result<SegmentMatches, QueryError> {
    let part_candidates = tuning.part_candidates;
    if let Some(exact) = exact {
        let Some(term) = exact else {
            return Ok(SegmentMatches { defs: Vec::new(), rest: Vec::new(), total: 0 });
        };
        return search_variants(
            seg,
            seg_index,
            skip,
            &term.variants,
            term.every_variant.then_some(term.fold),
            filter,
            limit,
            tuning,
        );
    }
    let variants = match matcher.candidate_ids(seg)? {
        // Many candidate keys (a substring, a regex's literal): checked in parts
        // on the pool.
        Some(ids) if ids.len() >= 2 * part_candidates => {
            let parts = (2 * rayon::current_num_threads()).min(ids.len() / part_candidates);
            let found: Vec<Vec<VariantRec>> = ids
                .par_chunks(ids.len().div_ceil(parts))
                .map(|part| {
                    let mut variants = Vec::new();
                    matcher.verify(seg, part, &mut variants).map(|_| variants)
                })
                .collect::<Result<_, _>>()?;
            found.concat()
        }
        Some(ids) => {
            let mut variants = Vec::new();
            matcher.verify(seg, &ids, &mut variants)?;
            variants
        }
        None => matcher.variants(seg)?,
    };
    search_variants(seg, seg_index, skip, &variants, None, filter, limit, tuning)
}

/// [`search_segment`] once the matching variants are known; `fold`: the fold
/// holding all of them and no other (an exact term), whose record counts
/// their distinct lines.
#[allow(clippy::too_many_arguments)]
fn search_variants(
    seg: &Segment,
    seg_index: u32,
    skip: &SlotSet,
    variants: &[VariantRec],
    fold: Option<FoldRec>,
    filter: &Filter,
    limit: usize,
    tuning: Tuning,
) -> Result<SegmentMatches, QueryError> {
    let Tuning { part_variants, bits_postings, .. } = tuning;
    let mut out = SegmentMatches { defs: Vec::new(), rest: Vec::new(), total: 0 };
    if variants.is_empty() {
        return Ok(out);
    }
    let mut slots = SlotCache::default();
    if filter.is_empty() && variants.len() == 1 {
        // The common case streams the lists: definitions first, then the first
        // postings on other lines. Cost follows the limit, not the list.
        let v = &variants[0];
        out.total = if skip.is_empty() {
            v.occurrences as u64
        } else {
            // Superseded files' postings are left out of the count too.
            seg.posting_iter(v)?.skipping(skip).count_left().map_err(|_| seg.corrupt("postings malformed"))?
        };
        let mut defs = seg.def_posting_iter(v)?.skipping(skip);
        let mut rest = seg.rest_posting_iter(v)?.skipping(skip);
        first_hits(&mut out, &mut slots, seg, seg_index, limit, defs.by_ref(), rest.by_ref())?;
        if defs.error.is_some() || rest.error.is_some() {
            return Err(seg.corrupt("postings malformed").into());
        }
        return Ok(out);
    }
    // A case-insensitive exact term with several spellings: the fold record counts
    // the distinct lines of all of them, so merging the first postings of each
    // spelling's stream is enough. Cost follows the limit, as for one spelling.
    if filter.is_empty() && skip.is_empty() {
        if let Some(fold) = fold {
            out.total = fold.occurrences;
            let (defs, rest) = (merged(seg, variants, true)?, merged(seg, variants, false)?);
            first_hits(&mut out, &mut slots, seg, seg_index, limit, defs, rest)?;
            return Ok(out);
        }
    }
    // Many variants (a substring, a regex): their lists in parts on the pool
    // (segments differ in size — the four budget corpora: 379, 175 and 4 MiB —
    // so splitting only by segment leaves a thread idle while the largest is
    // read), gathered as line bits when they hold many postings, else each
    // part's streamed into one buffer, sorted, deduplicated, and the parts merged.
    let postings: u64 = variants.iter().map(|v| v.occurrences as u64).sum();
    let parts = (2 * rayon::current_num_threads()).min(variants.len() / part_variants).max(1);
    let chunk = variants.len().div_ceil(parts);
    if postings >= bits_postings {
        if let Some(starts) = seg.line_starts()? {
            let (rest, defs) = union_bits(seg, variants, chunk, starts, skip)?;
            let total = rest.count() + defs.count();
            let out = collect_from(seg, seg_index, filter, limit, defs.postings(starts), rest.postings(starts), total);
            seg.give_line_bits(rest);
            seg.give_line_bits(defs);
            return out;
        }
    }
    let (rest, defs) = variants
        .par_chunks(chunk)
        .map(|part| union_postings(seg, part, skip))
        .try_reduce(|| (Vec::new(), Vec::new()), |a, b| Ok((merge_distinct(a.0, b.0), merge_distinct(a.1, b.1))))?;
    collect(seg, seg_index, filter, limit, &defs, &rest)
}

/// The hits and total of sorted, distinct postings on definition lines (`defs`)
/// and on other lines (`rest`), filtered.
fn collect(
    seg: &Segment,
    seg_index: u32,
    filter: &Filter,
    limit: usize,
    defs: &[u32],
    rest: &[u32],
) -> Result<SegmentMatches, QueryError> {
    let total = (rest.len() + defs.len()) as u64;
    collect_from(seg, seg_index, filter, limit, defs.iter().copied(), rest.iter().copied(), total)
}

/// [`collect`] from increasing streams of distinct postings, `total` of them.
fn collect_from(
    seg: &Segment,
    seg_index: u32,
    filter: &Filter,
    limit: usize,
    defs: impl Iterator<Item = u32>,
    rest: impl Iterator<Item = u32>,
    total: u64,
) -> Result<SegmentMatches, QueryError> {
    let mut out = SegmentMatches { defs: Vec::new(), rest: Vec::new(), total: 0 };
    let mut slots = SlotCache::default();
    if filter.is_empty() {
        out.total = total;
        first_hits(&mut out, &mut slots, seg, seg_index, limit, defs, rest)?;
        return Ok(out);
    }
    // Each output list takes postings of one input list, in order.
    for p in defs.chain(rest) {
        let (slot_id, line_id) = unpack(p);
        let (slot, path_ok) = slots.get(seg, slot_id, filter)?;
        if !path_ok {
            continue;
        }
        let line = slot.line_number(line_id);
        let line_type = seg.line_type(&slot, line)?;
        if !filter.types[line_type as usize] {
            continue;
        }
        out.total += 1;
        let list = if line_type.is_definition() { &mut out.defs } else { &mut out.rest };
        if list.len() < limit {
            let path = seg.slot_path(&slot)?.to_string();
            list.push(Hit { path, line, line_type, segment: seg_index, slot: slot_id });
        }
    }
    Ok(out)
}

/// Fills `out` from increasing posting streams when no filter applies: the first
/// `limit` definitions (`defs`), then the first postings on other lines (`rest`),
/// so the cost follows the limit, not the lists.
fn first_hits(
    out: &mut SegmentMatches,
    slots: &mut SlotCache,
    seg: &Segment,
    seg_index: u32,
    limit: usize,
    defs: impl Iterator<Item = u32>,
    rest: impl Iterator<Item = u32>,
) -> Result<(), QueryError> {
    for p in defs.take(limit) {
        out.defs.push(slots.hit(seg, seg_index, p)?);
    }
    for p in rest.take(limit.saturating_sub(out.defs.len())) {
        out.rest.push(slots.hit(seg, seg_index, p)?);
    }
    Ok(())
}

/// The distinct postings of several variants in increasing order, merged from their
/// streams (on definition lines, or on other lines). A malformed list ends its
/// stream early; `verify` reports it.
fn merged<'a>(
    seg: &'a Segment,
    variants: &[VariantRec],
    defs: bool,
) -> Result<impl Iterator<Item = u32> + 'a, SnapshotError> {
    let mut heads: Vec<std::iter::Peekable<crate::snapshot::postings::PostingIter<'a>>> = Vec::new();
    for v in variants {
        let it = if defs { seg.def_posting_iter(v)? } else { seg.rest_posting_iter(v)? };
        heads.push(it.peekable());
    }
    Ok(std::iter::from_fn(move || {
        let min = heads.iter_mut().filter_map(|h| h.peek().copied()).min()?;
        for h in heads.iter_mut() {
            h.next_if_eq(&min);
        }
        Some(min)
    }))
}

/// The sorted, distinct postings of several variants: on other lines, and on
/// definition lines (disjoint: whether a line defines is its line type).
fn union_postings(seg: &Segment, variants: &[VariantRec], skip: &SlotSet) -> Result<(Vec<u32>, Vec<u32>), QueryError> {
    // The stored counts are a hint only: corrupted ones must not size a huge buffer.
    let hint: usize = variants.iter().map(|v| v.occurrences as usize).sum();
    let mut rest = Vec::with_capacity(hint.min(1 << 20));
    let mut defs = Vec::new();
    each_touched(seg, variants, |v| {
        let (r, d) = seg.posting_lists(v)?;
        let read = extend_into(r, skip, &mut rest).and_then(|_| extend_into(d, skip, &mut defs));
        read.map_err(|_| seg.corrupt("postings malformed").into())
    })?;
    if variants.len() > 1 {
        sort_dedup(&mut rest);
        sort_dedup(&mut defs);
    }
    Ok((rest, defs))
}

/// Runs `read` on each variant in turn, the postings of the one [`TOUCH_AHEAD`]
/// later started loading first: variants lie far apart in the postings, so
/// reading each one's first would wait on memory for every variant.
fn each_touched(
    seg: &Segment,
    variants: &[VariantRec],
    mut read: impl FnMut(&VariantRec) -> Result<(), QueryError>,
) -> Result<(), QueryError> {
    for v in variants.iter().take(TOUCH_AHEAD) {
        seg.touch_postings(v);
    }
    for (i, v) in variants.iter().enumerate() {
        if let Some(next) = variants.get(i + TOUCH_AHEAD) {
            seg.touch_postings(next);
        }
        read(v)?;
    }
    Ok(())
}

/// How many variants ahead [`each_touched`] starts loading postings.
const TOUCH_AHEAD: usize = 16;

/// Postings from which a union is gathered as line bits ([`union_bits`])
/// rather than sorted.
const BITS_POSTINGS: u64 = 100_000;
/// Variants per part of a union, at least.
const PART_VARIANTS: usize = 128;
/// Candidate keys per part of their check, at least.
const PART_CANDIDATES: usize = 128;

/// The postings (on other lines, on definition lines) of `variants` as line
/// bits, gathered in parts of `chunk` variants on the pool.
fn union_bits(
    seg: &Segment,
    variants: &[VariantRec],
    chunk: usize,
    starts: &[u32],
    skip: &SlotSet,
) -> Result<(LineBits, LineBits), QueryError> {
    let gather = |part: &[VariantRec]| -> Result<(LineBits, LineBits), QueryError> {
        let (Some(mut rest), Some(mut defs)) = (seg.take_line_bits()?, seg.take_line_bits()?) else {
            return Err(seg.corrupt("line starts").into());
        };
        each_touched(seg, part, |v| {
            let (r, d) = seg.posting_lists(v)?;
            let read = add_to_bits(r, skip, starts, &mut rest).and_then(|_| add_to_bits(d, skip, starts, &mut defs));
            read.map_err(|_| seg.corrupt("postings malformed").into())
        })?;
        Ok((rest, defs))
    };
    let merged = variants.par_chunks(chunk).map(gather).try_reduce_with(|(mut rest, mut defs), (mut r, mut d)| {
        rest.take_from(&mut r);
        defs.take_from(&mut d);
        seg.give_line_bits(r);
        seg.give_line_bits(d);
        Ok((rest, defs))
    });
    merged.unwrap_or_else(|| Err(seg.corrupt("line starts").into()))
}

/// The distinct values of two sorted, distinct lists, sorted (an empty one
/// gives the other back: rayon's reduce starts from empty ones).
fn merge_distinct(a: Vec<u32>, b: Vec<u32>) -> Vec<u32> {
    if a.is_empty() || b.is_empty() {
        return if a.is_empty() { b } else { a };
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::with_capacity(a.len() + b.len()));
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// Sorts and deduplicates postings; large buffers take an LSD radix sort (three
/// 11-bit passes), several times faster than a comparison sort on u32s.
fn sort_dedup(v: &mut Vec<u32>) {
    if v.len() < 4096 {
        v.sort_unstable();
    } else {
        let mut tmp = vec![0u32; v.len()];
        for shift in [0u32, 11, 22] {
            let mut counts = [0usize; 2048];
            for &x in v.iter() {
                counts[((x >> shift) & 0x7FF) as usize] += 1;
            }
            let mut sum = 0;
            for c in counts.iter_mut() {
                let n = *c;
                *c = sum;
                sum += n;
            }
            for &x in v.iter() {
                let b = ((x >> shift) & 0x7FF) as usize;
                tmp[counts[b]] = x;
                counts[b] += 1;
            }
            std::mem::swap(v, &mut tmp);
        }
    }
    v.dedup();
}

/// The last slot read, and whether its path passes the filter.
#[derive(Default)]
struct SlotCache {
    last: Option<(u32, SlotRec, bool)>,
    /// The last hit's slot and path (hits of one file come together).
    path: Option<(u32, String)>,
}

impl SlotCache {
    fn get(&mut self, seg: &Segment, id: u32, filter: &Filter) -> Result<(SlotRec, bool), QueryError> {
        if let Some((last, rec, ok)) = self.last {
            if last == id {
                return Ok((rec, ok));
            }
        }
        let rec = seg.slot(id)?;
        let ok = match &filter.glob {
            Some(g) => g.is_match(seg.slot_path(&rec)?),
            None => true,
        };
        self.last = Some((id, rec, ok));
        Ok((rec, ok))
    }

    fn hit(&mut self, seg: &Segment, seg_index: u32, posting: u32) -> Result<Hit, QueryError> {
        let (slot_id, line_id) = unpack(posting);
        let rec = match self.last {
            Some((last, rec, _)) if last == slot_id => rec,
            _ => {
                let rec = seg.slot(slot_id)?;
                self.last = Some((slot_id, rec, true));
                rec
            }
        };
        let line = rec.line_number(line_id);
        let path = match &self.path {
            Some((slot, path)) if *slot == slot_id => path.clone(),
            _ => {
                let path = seg.slot_path(&rec)?.to_string();
                self.path = Some((slot_id, path.clone()));
                path
            }
        };
        Ok(Hit { path, line, line_type: seg.line_type(&rec, line)?, segment: seg_index, slot: slot_id })
    }
}

#[cfg(test)]
mod tests {
    use super::sort_dedup;

    #[test]
    fn radix_sort_equals_a_comparison_sort() {
        let mut x = 0x9E37_79B9u32;
        let mut v: Vec<u32> = (0..50_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x % 200_000 * 21_001
            })
            .collect();
        let mut want = v.clone();
        want.sort_unstable();
        want.dedup();
        sort_dedup(&mut v);
        assert_eq!(v, want);
    }
}

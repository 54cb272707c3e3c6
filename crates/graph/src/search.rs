//! Symbol search: words in, definitions out, ranked. `cg search "hex string to
//! color"` finds `hexStringToColor`.
//!
//! The text splits into subwords (as identifiers split: `getUserById` → get,
//! user, by, id; spaces and punctuation separate too). A definition's name is
//! scored by BM25 over its subwords, each query subword weighted by its
//! inverse frequency among the current files' definitions (counts each segment
//! stores, less the superseded files': the same however the index is split into
//! segments, after updates as after a fresh build); the name spelled as the
//! whole query (`hexStringToColor` for "hex string to color") earns a bonus.
//! Candidates come from the subword index (`snapshot/subwords.rs`) and the
//! term dictionary (a name that is one subword whole), merged by variant id;
//! names come out best first as the answer asks for them, a group of names
//! holding the same subwords scored only when no name scored so far beats its
//! bound (MaxScore: a common word's names are never split when rarer words
//! fill the answer). Each name expands into its definitions, ranked with what
//! else the index knows: subwords of the file's path, the kind (types and
//! functions before properties), and nested, test and vendored definitions
//! after the others.

use std::collections::BinaryHeap;
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

use super::slot_facts::{CLASS_TEST, CLASS_VENDORED};
use super::{Def, Graph, GraphError};
use crate::extract::words::subwords;
use crate::lang::Language;
use crate::snapshot::defs::{DefEntry, StringIds};
use crate::snapshot::structure::FileStructure;
use crate::snapshot::subwords::name_subwords;
use crate::snapshot::{fold, Segment, SnapshotError, VariantRec};

/// BM25's term-frequency saturation and length normalization.
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// Names have about this many subwords (a fixed average: the index does not
/// count them).
const AVG_SUBWORDS: f64 = 2.5;
/// The name spelled as the whole query, in idf units of the query.
const WHOLE_NAME_BONUS: f64 = 0.5;
/// A query subword found in the definition's path counts this much of its idf.
const PATH_WEIGHT: f64 = 0.2;
/// Most subwords of a query used.
const MAX_QUERY_SUBWORDS: usize = 16;

/// One definition found.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SymbolHit {
    pub name: String,
    pub kind: String,
    pub qualified_name: String,
    pub file: String,
    pub line: u32,
    pub end_line: u32,
    pub score: f64,
    /// Where it is in the index (for reading its line's text).
    #[serde(skip)]
    pub segment: u32,
    #[serde(skip)]
    pub slot: u32,
    /// Its number among its file's definitions (with `segment` and `slot`: its
    /// graph id).
    #[serde(skip)]
    pub index: u32,
    /// Copies of it collapsed into this result: definitions of the same name,
    /// kind, parent and length, alike in meaning when the index has vectors,
    /// scored the same otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub duplicates: Vec<CopyAt>,
}

impl SymbolHit {
    /// A hit for the definitions-table record `e` of `name`, in the file at
    /// `path` of segment `segment`.
    pub fn from_entry(
        name: &str,
        e: DefEntry,
        path: &str,
        language: Language,
        segment: usize,
        score: f64,
    ) -> SymbolHit {
        let (slot, index) = (e.slot, e.index);
        let (def, scope) = Def::from_entry(name, e);
        SymbolHit {
            name: name.to_string(),
            kind: def.kind.to_string(),
            qualified_name: super::qualified_name(language, path, &scope, &def),
            file: path.to_string(),
            line: def.line,
            end_line: def.end_line,
            score,
            segment: segment as u32,
            slot,
            index,
            duplicates: Vec::new(),
        }
    }

    /// A hit that is a whole file (kind `file`, named by its file name, from
    /// its first line): a file a sentence names that holds no definition.
    pub fn whole_file(path: &str, segment: usize, slot: u32, lines: u32, score: f64) -> SymbolHit {
        let name = path.rsplit('/').next().unwrap_or(path);
        SymbolHit {
            name: name.to_string(),
            kind: "file".to_string(),
            qualified_name: path.to_string(),
            file: path.to_string(),
            line: 1,
            end_line: lines.max(1),
            score,
            segment: segment as u32,
            slot,
            index: WHOLE_FILE,
            duplicates: Vec::new(),
        }
    }

    /// Whether it is a whole file ([`SymbolHit::whole_file`]), not a definition.
    pub fn is_whole_file(&self) -> bool {
        self.index == WHOLE_FILE
    }
}

/// [`SymbolHit::index`] of a whole file's hit: no definition has it.
pub const WHOLE_FILE: u32 = u32::MAX;

/// Where a copy of a definition is.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CopyAt {
    pub file: String,
    pub line: u32,
}

/// The answer to a search.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SymbolSearch {
    /// The query's subwords, folded, as searched.
    pub subwords: Vec<String>,
    pub hits: Vec<SymbolHit>,
    /// Per subword (in the order of `subwords`), the current files'
    /// definitions whose names hold it.
    pub definitions_holding: Vec<u64>,
    /// Names whose exact score was computed (the others could not reach the
    /// best: a measure of the pruning); a name in two segments counts twice.
    #[serde(skip)]
    pub names_scored: usize,
    pub mode: super::SearchMode,
    /// What a semantic or hybrid search compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic: Option<super::SemanticCounts>,
}

/// Candidate names holding the same query subwords and of the same number of
/// subwords (0: not known), and the names (segment, variant id).
struct Group {
    /// The most one of its names could score; when `exact`, what each scores.
    bound: f64,
    /// The query subwords held (bits).
    mask: u32,
    /// The names' number of subwords, 0 when not known.
    parts: u32,
    /// Every name scores `bound`: its subwords and their number are known and
    /// it cannot be spelled as the whole query (it holds some of the query's
    /// subwords, not all, or all in more subwords than the query has), so it
    /// is scored without being split.
    exact: bool,
    members: Vec<(u32, u32)>,
}

/// A definition's file as ranked: its path, language and what it adds.
type FileRank<'a> = (&'a str, Language, f64);

/// The definitions of the superseded files of an opened index (those of
/// files an update replaced or removed, until a compaction), which the
/// segments' counts hold: what [`Graph::search`] takes away from them.
#[derive(Default)]
pub struct DeadDefinitions {
    total: u64,
    /// As the subword lists count them.
    by_subword: FxHashMap<String, u64>,
    /// Named as a word whole (`hexStringToColor` under `hexstringtocolor`),
    /// as the term dictionary finds them.
    by_whole_word: FxHashMap<String, u64>,
}

impl DeadDefinitions {
    /// Those the subword lists of `subword` count.
    pub(crate) fn listed(&self, subword: &str) -> u64 {
        self.by_subword.get(subword).copied().unwrap_or(0)
    }

    /// Those a symbol search counts for `word`: listed under it, or named as
    /// it whole.
    fn of(&self, word: &str) -> u64 {
        self.listed(word).saturating_add(self.by_whole_word.get(word).copied().unwrap_or(0))
    }
}

/// A query subword: its inverse document frequency over the definitions.
struct Word {
    text: String,
    idf: f64,
    df: u64,
}

impl Graph<'_> {
    /// [`DeadDefinitions`] of the opened index, read once: the superseded
    /// files' archives, each definition counted as the segment writer counts
    /// it (`SubwordWriter::add_definitions`).
    pub(crate) fn dead_definitions(&self) -> Result<Arc<DeadDefinitions>, SnapshotError> {
        if let Some(d) = self.kept.dead_definitions.get() {
            return Ok(d.clone());
        }
        let mut dead = DeadDefinitions::default();
        for (si, seg) in self.index.segments.iter().enumerate() {
            let Some(set) = self.index.superseded.get(si) else { continue };
            for slot in set.iter() {
                let rec = seg.slot(slot)?;
                if rec.part != 0 || rec.structure.len == 0 {
                    continue;
                }
                let names = seg.with_archive(rec.structure, |bytes| {
                    let s = FileStructure::from_archive_without_text(bytes)?;
                    let types = s.types.into_iter().map(|t| t.name);
                    let methods = s.methods.into_iter().map(|m| m.name);
                    let properties = s.properties.into_iter().map(|p| p.name);
                    Some(types.chain(methods).chain(properties).collect::<Vec<_>>())
                })?;
                let names = names.ok_or_else(|| seg.corrupt("structure archive invalid"))?;
                for name in names {
                    dead.total += 1;
                    // As the search counts it: under each subword, and under
                    // its fold when spelled whole and a term of its segment.
                    let folded = fold(&name);
                    if spelled_whole(&name, &folded)
                        && whole_word_variants(seg, &folded)?
                            .iter()
                            .any(|(_, v)| seg.str_at(v.term).ok() == Some(&name))
                    {
                        *dead.by_whole_word.entry(folded).or_default() += 1;
                    }
                    for part in name_subwords(&name) {
                        *dead.by_subword.entry(part).or_default() += 1;
                    }
                }
            }
        }
        Ok(self.kept.dead_definitions.get_or_init(|| Arc::new(dead)).clone())
    }

    /// Definitions whose names hold the subwords of `text`, best first, at most
    /// `limit`.
    pub fn search(&self, text: &str, limit: usize) -> Result<SymbolSearch, GraphError> {
        let mut texts: Vec<String> = Vec::new();
        for part in subwords(text) {
            let part = fold(part);
            if !texts.contains(&part) && texts.len() < MAX_QUERY_SUBWORDS {
                texts.push(part);
            }
        }
        if texts.is_empty() || limit == 0 {
            return Ok(SymbolSearch { subwords: texts, ..SymbolSearch::default() });
        }
        let whole: String = texts.concat();
        let segments = &self.index.segments;
        // Documents: the current files' definitions (each segment counts its
        // own, superseded files' included: those are taken away).
        let dead = self.dead_definitions()?;
        let mut definitions = 0u64;
        for seg in segments {
            definitions = definitions.saturating_add(seg.definitions_total());
        }
        let definitions = definitions.saturating_sub(dead.total);
        // Document frequencies: the definitions whose names hold each subword.
        let mut words: Vec<Word> = Vec::with_capacity(texts.len());
        for t in &texts {
            let mut df = 0u64;
            for seg in segments {
                if let Some(list) = seg.subword_list(t)? {
                    df = df.saturating_add(list.definitions);
                }
                // And the names spelled as the word whole
                // (`hexStringToColor` for `hexstringtocolor`), which the
                // lists count under their subwords only.
                for (_, v) in whole_word_variants(seg, t)? {
                    let name = seg.str_at(v.term)?;
                    if spelled_whole(name, t) {
                        df = df.saturating_add(seg.definition_count(name)? as u64);
                    }
                }
            }
            let df = df.saturating_sub(dead.of(t));
            let (n, d) = (definitions as f64, df as f64);
            let idf = (1.0 + (n - d + 0.5) / (d + 0.5)).ln();
            words.push(Word { text: t.clone(), idf, df });
        }
        let total_idf: f64 = words.iter().map(|w| w.idf).sum();

        // 1. Candidates: per segment, the definition names holding any subword,
        //    each with the set of subwords it holds (a mask), from merging the
        //    lists (no name is read or split here); the names holding the same
        //    ones in the same number of subwords form one group, since what a
        //    name could score depends only on those.
        // Groups by `mask << 4 | parts`: in a table when the query has few
        // subwords, else in a map.
        let direct = words.len() <= 8;
        let mut table: Vec<u32> = if direct { vec![u32::MAX; 1 << (words.len() + 4)] } else { Vec::new() };
        let mut bucket_of: FxHashMap<u32, u32> = FxHashMap::default();
        let mut groups: Vec<Group> = Vec::new();
        let mut lists: Vec<(u32, Vec<u64>)> = Vec::new(); // (mask bit, id << 4 | parts)
        for (si, seg) in segments.iter().enumerate() {
            lists.clear();
            for (wi, w) in words.iter().enumerate() {
                if w.df == 0 {
                    continue;
                }
                let mut ids: Vec<u64> = Vec::new();
                if let Some(list) = seg.subword_list(&w.text)? {
                    seg.subword_def_ids(&list, &mut ids)?;
                }
                // A whole word is not listed (its fold is the subword): merged
                // in, its number of subwords not known (`User` is one, a
                // `HexStringToColor` whole for `hexstringtocolor` four).
                for (id, v) in whole_word_variants(seg, &w.text)? {
                    if seg.definition_count(seg.str_at(v.term)?)? > 0 {
                        let id = id as u64;
                        let at = ids.partition_point(|&x| x >> 4 < id);
                        match ids.get_mut(at) {
                            Some(x) if *x >> 4 == id => *x = id << 4,
                            _ => ids.insert(at, id << 4),
                        }
                    }
                }
                lists.push((1 << wi, ids));
            }
            let mut add = |mask: u32, entry: u64| {
                let (id, parts) = ((entry >> 4) as u32, (entry & 15) as u32);
                let key = mask << 4 | parts;
                let slot = match direct {
                    true => &mut table[key as usize],
                    false => bucket_of.entry(key).or_insert(u32::MAX),
                };
                if *slot == u32::MAX {
                    *slot = groups.len() as u32;
                    groups.push(Group { bound: 0.0, mask, parts, exact: false, members: Vec::new() });
                }
                groups[*slot as usize].members.push((si as u32, id));
            };
            merge_masks(&lists, |entry, mask| add(mask, entry));
            // A name spelled as the whole query in one word (`hexstringtocolor`)
            // holds none of its subwords as such, yet earns its bonus.
            if texts.len() > 1 {
                let all = lists.iter().fold(0, |m, (bit, _)| m | bit);
                for (id, v) in whole_word_variants(seg, &whole)? {
                    if seg.definition_count(seg.str_at(v.term)?)? > 0 {
                        add(all, (id as u64) << 4);
                    }
                }
            }
        }
        // What a group's names could score at most: BM25 with their number of
        // subwords (when not known, one per query subword held: a name has at
        // least that many), and the whole-query bonus when they hold them all.
        // A group is exact (its bound what each of its names scores) when its
        // names' number of subwords is known and they cannot earn the bonus:
        // they hold some but not all of the query's subwords (see
        // `name_score`), or all in more subwords than the query's. In an
        // exhaustive search every name is split and scored (the oracle).
        let all_bits: u32 = words.iter().enumerate().filter(|(_, w)| w.df > 0).fold(0, |m, (i, _)| m | 1 << i);
        // A name holding every query subword (all naming definitions) in more
        // subwords than the query has is longer than the query spelled whole.
        let every = all_bits.count_ones() as usize == texts.len();
        for g in &mut groups {
            let held = g.mask.count_ones();
            let len = if g.parts != 0 { g.parts } else { held.max(1) };
            let full = g.mask == all_bits;
            let longer = every && g.parts as usize > texts.len();
            let bonus = if full && !longer { WHOLE_NAME_BONUS * total_idf } else { 0.0 };
            g.bound = bm25_score(&words, g.mask, len) + bonus;
            g.exact = !self.exhaustive && g.parts != 0 && held > 0 && (!full || longer);
        }
        groups.sort_by(|a, b| b.bound.total_cmp(&a.bound).then((a.mask, a.parts).cmp(&(b.mask, b.parts))));

        // 2. Names best first, as step 3 asks for them: a group's names are
        //    scored exactly (split) only when no name scored so far is better
        //    than the group's bound (MaxScore over names). Exhaustive: every
        //    group scored first.
        let keep = (limit * 4).max(40);
        let mut queue = NameQueue {
            groups: &groups,
            next: 0,
            heap: BinaryHeap::new(),
            seen: FxHashSet::default(),
            best: TopScores::new(keep),
            scored: 0,
        };
        if self.exhaustive {
            while queue.next < groups.len() {
                queue.score_group(segments, &words, &whole, total_idf, all_bits)?;
            }
        }

        // 3. The names' definitions, ranked with their paths and kinds: a
        //    name's definitions can gain at most `lift` on its score.
        let path_lift: f64 = words.iter().map(|w| w.idf * PATH_WEIGHT).sum();
        let lift = 0.3 + path_lift;
        // The file of the definition before (a name's definitions come in
        // file order; several in one file are common).
        let mut last_file: Option<((usize, u32), FileRank<'_>)> = None;
        let mut found: Vec<(f64, &str, usize, &str, Language, DefEntry, StringIds)> = Vec::new();
        let mut top = TopScores::new(limit);
        // Paths' classes and subwords, read once per opened index; the
        // query subwords' ids among them (a path read since may give more).
        let mut facts = self.kept.slot_facts.lock();
        let mut word_ids: Vec<Option<u32>> = words.iter().map(|w| facts.id(&w.text)).collect();
        let mut interned = facts.interned();
        // The definitions of the `keep` best names at most (a name's
        // definitions lift it by `lift` at most: the answer is rarely past them).
        for _ in 0..keep {
            // A name scoring below this cannot enter the answer.
            let floor = if top.full() && !self.exhaustive { top.last() - lift } else { f64::NEG_INFINITY };
            let Some((name, score)) = queue.pop(segments, &words, &whole, total_idf, all_bits, floor)? else { break };
            if !self.exhaustive && top.full() && score + lift < top.last() {
                break;
            }
            for (si, seg) in segments.iter().enumerate() {
                // Their strings are read for the answer's only.
                for (e, ids) in seg.definition_heads(name)? {
                    let kind = match e.cat {
                        0 => 0.3,
                        1 => 0.2,
                        _ => 0.0,
                    } - if e.nested { 1.0 } else { 0.0 };
                    // Its file can add at most `path_lift`, less its path's
                    // penalty once known: below the `limit` best even so (with
                    // room for rounding), its file is not read.
                    let known = facts.known((si, e.slot)).map_or(0, |f| f.class);
                    if top.full() && score + kind + path_lift - penalty(known) + 0.001 < top.last() {
                        continue;
                    }
                    if !self.index.is_live(si, e.slot) {
                        continue;
                    }
                    let (path, language, file_score) = match last_file {
                        Some((at, f)) if at == (si, e.slot) => f,
                        _ => {
                            let slot = seg.slot(e.slot)?;
                            let path = seg.slot_path(&slot)?;
                            let language = Language::of_id(slot.meta.language);
                            let fact = facts.of(self.index, (si, e.slot))?;
                            if facts.interned() != interned {
                                word_ids = words.iter().map(|w| facts.id(&w.text)).collect();
                                interned = facts.interned();
                            }
                            let path_score = file_score(facts.subwords(&fact), fact.class, &words, &word_ids);
                            let f = (path, language, path_score);
                            last_file = Some(((si, e.slot), f));
                            f
                        }
                    };
                    let mut s = score + file_score;
                    s += match e.cat {
                        0 => 0.3,
                        1 => 0.2,
                        _ => 0.0,
                    };
                    if e.nested {
                        s -= 1.0;
                    }
                    let s = (s * 1000.0).round() / 1000.0;
                    // Below the `limit` best it cannot be shown (a tie can:
                    // ties are ordered by path).
                    if top.full() && s < top.last() {
                        continue;
                    }
                    top.add(s);
                    found.push((s, path, si, name, language, e, ids));
                }
            }
        }
        found.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| (a.1, a.5.line, a.3).cmp(&(b.1, b.5.line, b.3))));
        found.truncate(limit);
        let hits = found
            .into_iter()
            .map(|(score, path, si, name, language, e, ids)| {
                let e = segments[si].fill_definition(e, ids)?;
                Ok(SymbolHit::from_entry(name, e, path, language, si, score))
            })
            .collect::<Result<_, SnapshotError>>()?;
        Ok(SymbolSearch {
            subwords: texts,
            definitions_holding: words.iter().map(|w| w.df).collect(),
            hits,
            names_scored: queue.scored,
            semantic: None,
            mode: super::SearchMode::Lexical,
        })
    }
}

/// Names in the order of their exact scores (best first, then by name),
/// scoring the groups of candidates, best bound first, only as far as that
/// order needs.
struct NameQueue<'g, 's> {
    groups: &'g [Group],
    /// The first group not scored.
    next: usize,
    heap: BinaryHeap<Ranked<'s>>,
    /// Names queued (a name is in several segments).
    seen: FxHashSet<&'s str>,
    /// The best scores queued: at most this many names are asked for, so a
    /// name below them is not queued.
    best: TopScores,
    /// Names whose exact score was computed (a name not queued and in two
    /// segments counts twice).
    scored: usize,
}

impl<'s> NameQueue<'_, 's> {
    /// The next best name, `None` after the last or when no name left can
    /// score `floor` (then nothing more is scored).
    fn pop(
        &mut self,
        segments: &'s [Segment],
        words: &[Word],
        whole: &str,
        total_idf: f64,
        all_bits: u32,
        floor: f64,
    ) -> Result<Option<(&'s str, f64)>, SnapshotError> {
        loop {
            // Unscored names score at most their group's bound: a name scored
            // above the next bound is the best left (an equal one waits, as an
            // unscored name of the same score may come first by name).
            let bound = self.groups.get(self.next).map(|g| g.bound);
            match (self.heap.peek(), bound) {
                (Some(r), b) if b.is_none_or(|b| r.score > b) => {
                    return Ok(self.heap.pop().map(|r| (r.name, r.score)));
                }
                (None, None) => return Ok(None),
                // Then nothing scored nor unscored reaches the floor.
                (_, Some(b)) if b < floor => return Ok(None),
                _ => self.score_group(segments, words, whole, total_idf, all_bits)?,
            }
        }
    }

    /// Scores the names of the next group.
    fn score_group(
        &mut self,
        segments: &'s [Segment],
        words: &[Word],
        whole: &str,
        total_idf: f64,
        all_bits: u32,
    ) -> Result<(), SnapshotError> {
        let Some(group) = self.groups.get(self.next) else { return Ok(()) };
        self.next += 1;
        if group.exact {
            // Every name scores the bound: none is split, and when it is below
            // the best queued none is read. Of names scoring the same, the
            // first by name come out first: at most `n` of them are asked for,
            // and a name is in a group once per segment at most, so the first
            // `n × segments` hold the first `n` distinct ones.
            let score = group.bound;
            if self.best.full() && score < self.best.last() {
                return Ok(());
            }
            let mut names: Vec<&'s str> = Vec::with_capacity(group.members.len());
            for &(si, id) in &group.members {
                let seg = &segments[si as usize];
                let name = seg.str_at(seg.variant(id)?.term)?;
                if !self.seen.contains(name) {
                    names.push(name);
                }
            }
            self.scored += names.len();
            let n = self.best.n.saturating_mul(segments.len().max(1));
            if names.len() > n {
                names.select_nth_unstable(n);
                names.truncate(n);
            }
            names.sort_unstable();
            names.dedup();
            for name in names {
                if self.best.full() && score < self.best.last() {
                    break;
                }
                self.seen.insert(name);
                self.best.add(score);
                self.heap.push(Ranked { score, name });
            }
            return Ok(());
        }
        for &(si, id) in &group.members {
            let seg = &segments[si as usize];
            let name = seg.str_at(seg.variant(id)?.term)?;
            if self.seen.contains(name) {
                continue;
            }
            self.scored += 1;
            let score = name_score(name, words, whole, total_idf, all_bits);
            if self.best.full() && score < self.best.last() {
                continue;
            }
            self.seen.insert(name);
            self.best.add(score);
            self.heap.push(Ranked { score, name });
        }
        Ok(())
    }
}

/// A name scored: greater is better (a higher score, then the name first in
/// byte order).
struct Ranked<'s> {
    score: f64,
    name: &'s str,
}

impl Ord for Ranked<'_> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.score.total_cmp(&other.score).then_with(|| other.name.cmp(self.name))
    }
}

impl PartialOrd for Ranked<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for Ranked<'_> {}

/// The `n` best scores so far.
struct TopScores {
    n: usize,
    /// Descending.
    scores: Vec<f64>,
}

impl TopScores {
    fn new(n: usize) -> TopScores {
        TopScores { n, scores: Vec::with_capacity(n + 1) }
    }

    fn add(&mut self, s: f64) {
        let at = self.scores.partition_point(|&b| b >= s);
        if at < self.n {
            self.scores.insert(at, s);
            self.scores.truncate(self.n);
        }
    }

    fn full(&self) -> bool {
        self.scores.len() >= self.n
    }

    /// The lowest of the `n` best (when full).
    fn last(&self) -> f64 {
        self.scores.last().copied().unwrap_or(f64::NEG_INFINITY)
    }
}

/// What a path of `class` loses in [`file_score`] (0 when not known).
fn penalty(class: u8) -> f64 {
    let test = if class & CLASS_TEST != 0 { 1.0 } else { 0.0 };
    let vendored = if class & CLASS_VENDORED != 0 { 0.5 } else { 0.0 };
    test + vendored
}

/// What a definition's file adds to its score: the query subwords its path
/// holds (a share of their idf), less for test and vendored files.
/// `subwords` are the ids of the path's subwords, `ids` the query subwords'
/// ([`super::slot_facts::Facts`]).
fn file_score(subwords: &[u32], class: u8, words: &[Word], ids: &[Option<u32>]) -> f64 {
    let held = |id: &Option<u32>| id.is_some_and(|id| subwords.contains(&id));
    let s: f64 = words.iter().zip(ids).filter(|(_, id)| held(id)).map(|(w, _)| w.idf * PATH_WEIGHT).sum();
    s - penalty(class)
}

/// `part` case-folded: in `buf` when it is short ASCII, else allocated.
fn folded<'a>(part: &'a str, buf: &'a mut [u8; 64]) -> std::borrow::Cow<'a, str> {
    if part.len() <= buf.len() && part.is_ascii() {
        let b = &mut buf[..part.len()];
        b.copy_from_slice(part.as_bytes());
        b.make_ascii_lowercase();
        // ASCII stays UTF-8.
        std::borrow::Cow::Borrowed(std::str::from_utf8(b).unwrap_or_default())
    } else {
        std::borrow::Cow::Owned(fold(part))
    }
}

/// Whether `name`, whose fold is `word`, is a name the subword lists do not
/// count under `word` (`hexStringToColor` under `hexstringtocolor`; `User`
/// is counted under `user`, its one subword).
fn spelled_whole(name: &str, word: &str) -> bool {
    !name_subwords(name).iter().any(|p| p == word)
}

/// The variants of a segment that are `subword` whole (its fold's), with ids.
fn whole_word_variants(seg: &Segment, subword: &str) -> Result<Vec<(u32, VariantRec)>, SnapshotError> {
    let Some(id) = seg.term_fst()?.get(subword) else { return Ok(Vec::new()) };
    let f = seg.fold(id as u32)?;
    (f.first_variant..f.first_variant.saturating_add(f.variant_count)).map(|i| Ok((i, seg.variant(i)?))).collect()
}

/// BM25's weight of a subword held once by a name of `len` subwords.
fn bm25(len: f64) -> f64 {
    (K1 + 1.0) / (1.0 + K1 * (1.0 - B + B * len / AVG_SUBWORDS))
}

/// BM25 of a name of `len` subwords holding the query subwords `held` (bits).
fn bm25_score(words: &[Word], held: u32, len: u32) -> f64 {
    let weight = bm25(len.max(1) as f64);
    words.iter().enumerate().filter(|(i, _)| held & (1 << i) != 0).map(|(_, w)| w.idf * weight).sum()
}

/// A name's BM25 score for the query's subwords (each counted once: a name
/// repeating a subword is rare and not worth more), plus the bonus when it is
/// spelled as the whole query: its subwords, folded and put together, are the
/// query's (`whole`), and it holds all of the query's subwords that name
/// definitions (`all_bits`: `hexStringToColor` for "hex string to color") or
/// none of them (`HexStringToColor` for "hexstringtocolor"), not some
/// (`get_us_er` for "get user" is not spelled so).
fn name_score(name: &str, words: &[Word], whole: &str, total_idf: f64, all_bits: u32) -> f64 {
    let (mut len, mut held) = (0u32, 0u32);
    let mut rest = Some(whole);
    let mut buf = [0u8; 64];
    for part in subwords(name) {
        len += 1;
        let part = folded(part, &mut buf);
        for (i, w) in words.iter().enumerate() {
            if *part == *w.text {
                held |= 1 << i;
            }
        }
        rest = rest.and_then(|r| r.strip_prefix(&*part));
    }
    let spelled = rest == Some("") && (held == all_bits || held == 0);
    bm25_score(words, held, len) + if spelled { WHOLE_NAME_BONUS * total_idf } else { 0.0 }
}

/// Merges sorted lists of `id << 4 | parts`, calling `f(id << 4 | parts,
/// mask)` once per id, in id order, with the bits of the lists holding it
/// (`parts` 0 when the lists do not agree: one of them does not know).
fn merge_masks(lists: &[(u32, Vec<u64>)], mut f: impl FnMut(u64, u32)) {
    // Two lists at a time into `acc`: `(id << 4 | parts) << 16 | mask` (a
    // query has at most 16 subwords), the smallest lists first.
    let mut order: Vec<&(u32, Vec<u64>)> = lists.iter().collect();
    order.sort_by_key(|(_, ids)| ids.len());
    let mut acc: Vec<u64> = Vec::new();
    let mut next: Vec<u64> = Vec::new();
    for (bit, ids) in order {
        let bit = *bit as u64;
        next.clear();
        next.reserve(acc.len() + ids.len());
        let (mut i, mut j) = (0, 0);
        while i < acc.len() && j < ids.len() {
            let (a, b) = (acc[i], ids[j]);
            let (ida, idb) = (a >> 20, b >> 4);
            if ida < idb {
                next.push(a);
                i += 1;
            } else if idb < ida {
                next.push(b << 16 | bit);
                j += 1;
            } else {
                let agree = (a >> 16 & 15) == (b & 15);
                let entry = if agree { a >> 16 } else { idb << 4 };
                next.push(entry << 16 | (a & 0xFFFF) | bit);
                i += 1;
                j += 1;
            }
        }
        next.extend_from_slice(&acc[i..]);
        next.extend(ids[j..].iter().map(|&b| b << 16 | bit));
        std::mem::swap(&mut acc, &mut next);
    }
    for e in acc {
        f(e >> 16, (e & 0xFFFF) as u32);
    }
}

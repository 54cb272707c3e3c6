//! File-level evidence for a task written as a sentence: BM25 over the words
//! each file holds (identifiers in subwords, comment words, string words),
//! read from the index's postings rather than from the files. A task's rare
//! words that a file uses many times make it a likely file to change; test
//! files count less unless the task is about tests.
//!
//! For each of the task's words, every line holding a term with that word as
//! a subword (`floatformat` in `floatformat`, `memory` in `max_memory_usage`)
//! counts once toward its file's frequency; a file's length is its postings
//! (term, line pairs), normalized by the index's average.

use rustc_hash::FxHashMap;

use super::slot_facts::{Facts, SlotFact, CLASS_MINIFIED, CLASS_TEST, CLASS_VENDORED};
use super::{FileKey, GraphError};
use crate::project::Index;
use crate::query::Mode;

/// BM25's saturation and length normalization (as the usual file-retrieval
/// baseline uses).
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// A word in more than this share of the files says little: skipped (its
/// postings are the most costly to read).
const MAX_DF_SHARE: f64 = 0.3;
/// At most this many of a task's words, and of its identifiers, are looked up
/// (the rarest first would need their counts first; a task's first are kept).
const MAX_WORDS: usize = 48;
/// Test files' evidence is multiplied by this unless the task is about tests.
pub(crate) const TEST_FACTOR: f64 = 0.35;
/// Vendored and minified files' evidence is multiplied by this unless the
/// task names vendored code.
const VENDORED_FACTOR: f64 = 0.35;
/// What a task's word that names a folder or the file itself (`lookup` for
/// `models/lookups.py`) adds to a file holding the task's words and not ranked
/// down as a test, a copy or minified code, times the word's idf.
const PATH_WEIGHT: f64 = 1.0;

/// What a task is about, as far as ranking files down goes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Aside {
    /// The task is about tests: test files are not ranked down.
    pub tests: bool,
    /// The task names vendored or third-party code: it is not ranked down.
    pub vendored: bool,
    /// The task's words (folded): a vendored package they name
    /// ([`names_package`]) is not ranked down.
    pub words: Vec<String>,
}

impl Aside {
    pub fn of(task: &str) -> Aside {
        let lower = task.to_lowercase();
        Aside {
            tests: super::context::intent_of(task) == "tests",
            vendored: ["vendor", "third_party", "third-party", "thirdparty", "node_modules"]
                .iter()
                .any(|w| lower.contains(w)),
            words: super::context::search_words(task),
        }
    }

    /// How much a file's evidence counts: tests, vendored and minified code
    /// less, unless the task is about them.
    pub fn factor(&self, path: &str) -> f64 {
        let mut f = 1.0;
        if !self.tests && super::is_test_file(path) {
            f *= TEST_FACTOR;
        }
        if !self.vendored
            && (is_minified(path) || (crate::project::is_vendored(path) && !names_package(path, &self.words)))
        {
            f *= VENDORED_FACTOR;
        }
        f
    }
}

/// Whether `words` (folded) name the vendored package `path` lies in: a folder
/// below the vendored one (`vendor/compiler_builtins/src/arm_linux.rs`), not
/// a host (`github.com`), whose every subword is one of the words
/// (`compiler-rt fallbacks for sync builtins`), of two subwords or more, or
/// one of four letters or more (`cobra`). A task about the copy is about it.
pub fn names_package(path: &str, words: &[String]) -> bool {
    if words.is_empty() {
        return false;
    }
    let mut below = false;
    let mut parts = path.split('/').peekable();
    while let Some(part) = parts.next() {
        if parts.peek().is_none() {
            break;
        }
        if !below {
            below = crate::project::is_vendored(part);
            continue;
        }
        if part.contains('.') {
            continue;
        }
        // Most folders' first subword is none of the words: one comparison
        // per word, nothing allocated for ASCII.
        let (mut count, mut all, mut long) = (0, true, false);
        for sub in crate::extract::words::subwords(part) {
            count += 1;
            let held = if sub.is_ascii() {
                words.iter().any(|w| w.eq_ignore_ascii_case(sub))
            } else {
                words.contains(&crate::snapshot::fold(sub))
            };
            if !held {
                all = false;
                break;
            }
            long = sub.len() >= 4;
        }
        if all && (count >= 2 || (count == 1 && long)) {
            return true;
        }
    }
    false
}

/// A minified script or style sheet (`jquery.min.js`, `app-min.css`).
pub fn is_minified(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    [".min.js", "-min.js", ".min.css", "-min.css", ".min.mjs"].iter().any(|s| file.ends_with(s))
}

/// The indices of `words` (folded) that name a folder of `path` or the file
/// itself, in subwords, a plural `s` aside (`lookup` names `lookups.py`,
/// `minifier` names `minifiers/`); the extension is not a name.
pub fn path_words<'w>(path: &str, words: &'w [&str]) -> impl Iterator<Item = usize> + 'w {
    let names = super::slot_facts::path_names(path);
    words
        .iter()
        .enumerate()
        .filter(move |(_, w)| {
            let single = w.strip_suffix('s').filter(|p| p.len() >= 3);
            names.iter().any(|n| n == *w || Some(n.as_str()) == single)
        })
        .map(|(i, _)| i)
}

/// One file's evidence.
#[derive(Clone, Debug)]
pub struct FileEvidence {
    pub key: FileKey,
    pub path: String,
    pub score: f64,
    /// The lines holding the task's words, with the idf of the word each holds
    /// (summed when a line holds several): where in the file the evidence is.
    pub lines: Vec<(u32, f64)>,
}

impl FileEvidence {
    /// The file's top-level definitions holding evidence lines, with the sum
    /// of those lines' weights, most first (`g` is this file's graph).
    pub fn definitions(&self, g: &super::FileGraph) -> Vec<(f64, usize)> {
        let nested = g.nested();
        let mut held: Vec<(f64, usize)> = g
            .defs
            .iter()
            .enumerate()
            .filter(|&(i, _)| !nested[i])
            .map(|(i, d)| {
                (self.lines.iter().filter(|(l, _)| *l >= d.line && *l <= d.end_line).map(|(_, w)| w).sum(), i)
            })
            .filter(|(s, _): &(f64, usize)| *s > 0.0)
            .collect();
        held.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        held
    }
}

/// The files of `index` ranked by how much of `words` (folded) they hold, best
/// first, at most `limit`; tests, vendored and minified files ranked down as
/// `aside` says.
pub fn rank_files(
    index: &Index,
    words: &[String],
    aside: &Aside,
    limit: usize,
) -> Result<Vec<FileEvidence>, GraphError> {
    rank_files_naming(index, words, &[], aside, limit)
}

/// The identifiers a task writes (`Query.clear_ordering()`, `USE_SYSTEM_JEMALLOC`),
/// each of two subwords or more, and each of three or more with one subword
/// left out (`USE_JEMALLOC`: the name a fix renames or extends is often
/// written nearly), to be counted whole as file evidence.
pub fn identifiers_of(task: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |w: String| {
        let w = crate::snapshot::fold(&w);
        if !out.contains(&w) {
            out.push(w);
        }
    };
    for m in super::context::mentions(task) {
        for part in m.split(['.', ':', '/']).filter(|p| !p.is_empty()) {
            let subs: Vec<&str> = crate::extract::words::subwords(part).collect();
            if subs.len() < 2 {
                continue;
            }
            push(part.to_string());
            if subs.len() >= 3 {
                let sep = if part.contains('_') { "_" } else { "" };
                for skip in 0..subs.len() {
                    let rest: Vec<&str> =
                        subs.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, s)| *s).collect();
                    push(rest.join(sep));
                }
            }
        }
    }
    out
}

/// How much a slot's evidence counts ([`Aside::factor`] of its path, from
/// its facts); `named` memoizes [`names_package`] per vendored folder (0: not
/// asked, 1: no, 2: yes).
fn factor_of(facts: &Facts, fact: &SlotFact, aside: &Aside, named: &mut Vec<u8>) -> f64 {
    let mut f = 1.0;
    if !aside.tests && fact.class & CLASS_TEST != 0 {
        f *= TEST_FACTOR;
    }
    let mut vendored = || {
        if named.len() < facts.folders() {
            named.resize(facts.folders(), 0);
        }
        let at = fact.folder as usize;
        if named[at] == 0 {
            // `names_package` reads a path's folders: the folder with an
            // empty file name.
            named[at] = 1 + names_package(&format!("{}/", facts.folder(fact)), &aside.words) as u8;
        }
        named[at] == 1
    };
    if !aside.vendored && (fact.class & CLASS_MINIFIED != 0 || (fact.class & CLASS_VENDORED != 0 && vendored())) {
        f *= VENDORED_FACTOR;
    }
    f
}

/// [`rank_files`] with the task's `identifiers` ([`identifiers_of`]) counted
/// too, each as one word: the lines holding it exactly (any case).
pub fn rank_files_naming(
    index: &Index,
    words: &[String],
    identifiers: &[String],
    aside: &Aside,
    limit: usize,
) -> Result<Vec<FileEvidence>, GraphError> {
    let (files, postings) = index.totals()?;
    let (files, postings) = (files.max(1) as f64, postings as f64);
    let avg_len = (postings / files).max(1.0);
    // Per segment, per slot: the BM25 score so far (0: no word yet), and the
    // slots scored, read from the postings alone: no path, line type or text
    // per line. Each word's postings are kept for the evidence lines of the
    // files ranked first.
    let mut scores: Vec<Vec<f64>> = vec![Vec::new(); index.segments.len()];
    let mut touched: Vec<FileKey> = Vec::new();
    let mut idfs: Vec<f64> = Vec::new();
    let mut kept: Vec<&str> = Vec::new();
    let mut kept_lists: Vec<Vec<Vec<u32>>> = Vec::new();
    let terms = words
        .iter()
        .take(MAX_WORDS)
        .map(|w| (w, Mode::Subword))
        .chain(identifiers.iter().take(MAX_WORDS).map(|w| (w, Mode::Exact)))
        .collect::<Vec<_>>();
    // Each word's postings, read on the pool's threads (most of a ranking's
    // time is decoding and merging the lists of a subword's many terms).
    let read: Vec<_> = {
        use rayon::prelude::*;
        terms.par_iter().map(|&(word, mode)| crate::query::postings(index, word, mode)).collect()
    };
    // The slots' facts, locked once the lists are read (a search running
    // alongside locks them for its definitions' files).
    let kept_facts = index.kept::<super::Kept>();
    let mut facts = kept_facts.slot_facts.lock();
    for (&(word, _), lists) in terms.iter().zip(read) {
        let lists = match lists {
            Ok(l) => l,
            Err(crate::query::QueryError::Snapshot(e)) => return Err(e.into()),
            Err(_) => continue,
        };
        // Distinct current files holding the word (postings are in slot
        // order; a file an update superseded is not one of the project's).
        let mut df = 0usize;
        for (segment, list) in lists.iter().enumerate() {
            let mut last = None;
            for &p in list {
                let slot = p >> 16;
                if last != Some(slot) {
                    df += index.is_live(segment, slot) as usize;
                    last = Some(slot);
                }
            }
        }
        if df == 0 || df as f64 > MAX_DF_SHARE * files {
            continue;
        }
        let idf = (1.0 + (files - df as f64 + 0.5) / (df as f64 + 0.5)).ln();
        for (segment, list) in lists.iter().enumerate() {
            let mut i = 0;
            while i < list.len() {
                let slot = list[i] >> 16;
                let j = list[i..].iter().position(|&p| p >> 16 != slot).map_or(list.len(), |n| i + n);
                if index.is_live(segment, slot) {
                    let fact = facts.of(index, (segment, slot))?;
                    let (tf, len) = ((j - i) as f64, fact.occurrences as f64);
                    let scores = &mut scores[segment];
                    if scores.is_empty() {
                        scores.resize(index.segments[segment].slot_count as usize, 0.0);
                    }
                    let s = &mut scores[slot as usize];
                    if *s == 0.0 {
                        touched.push((segment, slot));
                    }
                    *s += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / avg_len));
                }
                i = j;
            }
        }
        idfs.push(idf);
        kept.push(word);
        kept_lists.push(lists);
    }
    // The names of the kept words' paths: a file whose path names a word
    // (`path_words`) gains its idf, in the words' order.
    let mut naming: Vec<(u32, usize)> = Vec::new();
    for (w, word) in kept.iter().enumerate() {
        let single = word.strip_suffix('s').filter(|p| p.len() >= 3);
        for form in std::iter::once(*word).chain(single) {
            if let Some(id) = facts.id(form) {
                naming.push((id, w));
            }
        }
    }
    let mut named: Vec<u8> = Vec::new();
    let mut scored: Vec<(f64, FileKey)> = Vec::with_capacity(touched.len());
    for &key in &touched {
        let fact = facts.of(index, key)?;
        let mut score = scores[key.0][key.1 as usize];
        // A test's, a copy's or a minified script's name says what it tests or
        // copies, not where the fix goes: only files not ranked down gain.
        let factor = factor_of(&facts, &fact, aside, &mut named);
        if factor < 1.0 {
            score *= factor;
        } else if !naming.is_empty() {
            let ids = facts.names(&fact);
            let mut held = [false; 2 * MAX_WORDS];
            for &(id, w) in &naming {
                if ids.contains(&id) {
                    held[w] = true;
                }
            }
            score += PATH_WEIGHT * (0..kept.len()).filter(|&w| held[w]).map(|w| idfs[w]).sum::<f64>();
        }
        scored.push((score, key));
    }
    drop(facts);
    let path_of = |key: FileKey| -> Result<String, GraphError> {
        let seg = &index.segments[key.0];
        Ok(seg.slot_path(&seg.slot(key.1)?)?.to_string())
    };
    // Files past the `limit`th score are left out; those tied with it are
    // kept until their paths order them (the `limit` best chosen, not every
    // file sorted).
    let best = |a: &(f64, FileKey), b: &(f64, FileKey)| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1));
    if limit == 0 {
        scored.clear();
    } else if scored.len() > limit {
        let cut = scored.select_nth_unstable_by(limit - 1, best).1 .0;
        scored.retain(|s| s.0 >= cut);
    }
    let mut out: Vec<FileEvidence> = Vec::with_capacity(scored.len());
    for &(score, key) in &scored {
        let slot = index.segments[key.0].slot(key.1)?;
        let mut lines: FxHashMap<u32, f64> = FxHashMap::default();
        for (w, lists) in kept_lists.iter().enumerate() {
            let list = &lists[key.0];
            let from = list.partition_point(|&p| p >> 16 < key.1);
            for &p in list[from..].iter().take_while(|&&p| p >> 16 == key.1) {
                *lines.entry(slot.line_number(crate::snapshot::unpack(p).1)).or_default() += idfs[w];
            }
        }
        let mut lines: Vec<(u32, f64)> = lines.into_iter().collect();
        lines.sort_unstable_by_key(|l| l.0);
        out.push(FileEvidence { key, path: path_of(key)?, score, lines });
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)));
    out.truncate(limit);
    Ok(out)
}

/// A query of at least this many words (stop words aside) reads as a task:
/// its hits are weighed with their files' evidence.
pub const SENTENCE_WORDS: usize = 4;
/// The file evidence's weight against the best hit's score (1).
const FILE_WEIGHT: f64 = 2.0;
/// Each further hit of one file counts this much less than the one before.
const SAME_FILE_DECAY: f64 = 0.7;
/// What a definition the task names adds (the best hit scores 1).
const MENTION_BONUS: f64 = 1.0;
/// Files whose evidence is fused into a search's hits.
const FUSED_FILES: usize = 20;
/// Files whose best definitions join a search's hits by their evidence alone.
const JOINING_FILES: usize = 5;

/// Files ranked per task at least: the most any caller asks for
/// ([`FUSED_FILES`], a bundle's listed files), so that one ranking serves them
/// all.
const EVIDENCE_POOL: usize = 40;

/// A task's file evidence, kept for the next question on the same task.
pub(crate) struct Memo {
    words: Vec<String>,
    identifiers: Vec<String>,
    aside: Aside,
    files: Vec<FileEvidence>,
    /// How many were asked for ([`EVIDENCE_POOL`] or more): `files` are the
    /// first that many, or every file holding the words.
    asked: usize,
}

impl super::Graph<'_> {
    /// [`rank_files_naming`], remembered for the last task: a bundle ranks
    /// its files by evidence, then ranks the files again for its list, and
    /// both rankings ask for the same evidence. The first `limit` files of a
    /// longer ranking are the ranking of `limit` (ties past the cut are
    /// ordered by path either way).
    pub(crate) fn file_evidence(
        &self,
        words: &[String],
        identifiers: &[String],
        aside: &Aside,
        limit: usize,
    ) -> Result<Vec<FileEvidence>, GraphError> {
        if let Some(m) = self.evidence.borrow().as_ref() {
            if m.asked >= limit && m.words == words && m.identifiers == identifiers && m.aside == *aside {
                return Ok(m.files.iter().take(limit).cloned().collect());
            }
        }
        let asked = limit.max(EVIDENCE_POOL);
        let files = rank_files_naming(self.index, words, identifiers, aside, asked)?;
        let out = files.iter().take(limit).cloned().collect();
        *self.evidence.borrow_mut() =
            Some(Memo { words: words.to_vec(), identifiers: identifiers.to_vec(), aside: aside.clone(), files, asked });
        Ok(out)
    }

    /// `work` (a search for `text`), with the task's file evidence ranked at
    /// the same time on another thread when `text` is a sentence and the last
    /// task's evidence is not it: kept for [`Graph::file_evidence`], so that
    /// ranking the hits with it reads nothing more. The two read different
    /// things and take about as long on the largest trees.
    pub(crate) fn evidence_alongside<T>(&self, text: &str, work: impl FnOnce() -> T) -> Result<T, GraphError> {
        let words = super::context::search_words(text);
        if words.len() < SENTENCE_WORDS {
            return Ok(work());
        }
        let (identifiers, aside) = (identifiers_of(text), Aside::of(text));
        if let Some(m) = self.evidence.borrow().as_ref() {
            if m.asked >= EVIDENCE_POOL && m.words == words && m.identifiers == identifiers && m.aside == aside {
                return Ok(work());
            }
        }
        let index = self.index;
        let (out, files) = std::thread::scope(|s| {
            let ranking = s.spawn(|| rank_files_naming(index, &words, &identifiers, &aside, EVIDENCE_POOL));
            let out = work();
            (out, ranking.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        });
        let files = files?;
        *self.evidence.borrow_mut() = Some(Memo { words, identifiers, aside, files, asked: EVIDENCE_POOL });
        Ok(out)
    }

    /// For a query written as a sentence ([`SENTENCE_WORDS`] words or more):
    /// each hit's score over the best plus its file's evidence over the best
    /// file's, and the best definitions of the files with the most evidence
    /// added (a fix's file may name none of the task's words in its
    /// definitions' names). Test files count less unless the task is about
    /// tests. Shorter queries (names) are left as they are.
    pub fn fuse_file_evidence(
        &self,
        text: &str,
        found: &mut super::SymbolSearch,
        limit: usize,
    ) -> Result<(), GraphError> {
        let words = super::context::search_words(text);
        if words.len() < SENTENCE_WORDS {
            return Ok(());
        }
        let aside = Aside::of(text);
        let evidence = self.file_evidence(&words, &identifiers_of(text), &aside, FUSED_FILES)?;
        let Some(best_file) = evidence.first().map(|e| e.score.max(1e-9)) else { return Ok(()) };
        let of_file: FxHashMap<FileKey, f64> = evidence.iter().map(|e| (e.key, e.score / best_file)).collect();
        let best_hit = found.hits.iter().map(|h| h.score).fold(0f64, f64::max).max(1e-9);
        for h in found.hits.iter_mut() {
            let ev = of_file.get(&(h.segment as usize, h.slot)).copied().unwrap_or(0.0);
            let s = h.score / best_hit * aside.factor(&h.file);
            h.score = s + FILE_WEIGHT * ev;
        }
        // What the task names (`Query.clear_ordering()`): as strong as the
        // best hit. A member the task names that its qualifier does not have
        // (`Objects.firstNonNull()` "was removed") is to be written in the
        // qualifier's type: that type counts as if its file held the most
        // evidence, however many other files hold the member's name.
        for m in super::context::mentions(text) {
            let (defs, home) = match self.find(&m) {
                Ok(d) if !d.is_empty() => (d, false),
                _ => match m.rsplit_once(['.', ':']).map(|(q, _)| q.trim_end_matches(':')) {
                    Some(q) if q.len() >= 3 => (self.missing_member_home(q)?, true),
                    _ => continue,
                },
            };
            let share = (defs.len().max(1) as f64).sqrt();
            for id in defs.into_iter().take(4) {
                let ev = of_file.get(&id.0).copied().unwrap_or(0.0);
                let add = MENTION_BONUS / share + if home { FILE_WEIGHT * (1.0 - ev) } else { 0.0 };
                match found.hits.iter_mut().find(|h| ((h.segment as usize, h.slot), h.index) == id) {
                    Some(h) => h.score += add,
                    None => found.hits.push(self.hit_of(id, add + FILE_WEIGHT * ev)?),
                }
            }
        }
        for e in evidence.iter().take(JOINING_FILES) {
            let g = self.file(e.key)?;
            let held = e.definitions(&g);
            let top = held.first().map_or(1.0, |h| h.0);
            for &(s, i) in held.iter().take(2) {
                if found.hits.iter().any(|h| (h.segment as usize, h.slot) == e.key && h.index == i as u32) {
                    continue;
                }
                let score = FILE_WEIGHT * (e.score / best_file) * (0.5 + 0.5 * s / top);
                found.hits.push(self.hit_of((e.key, i as u32), score)?);
            }
        }
        let order = |a: &super::SymbolHit, b: &super::SymbolHit| {
            b.score.total_cmp(&a.score).then_with(|| (a.segment, a.slot, a.index).cmp(&(b.segment, b.slot, b.index)))
        };
        found.hits.sort_by(order);
        // Each further hit of one file counts less than the one before it:
        // the answer names several files before a second definition of one.
        let mut seen: FxHashMap<(u32, u32), i32> = FxHashMap::default();
        for h in found.hits.iter_mut() {
            let n = seen.entry((h.segment, h.slot)).or_insert(0);
            if h.score > 0.0 {
                h.score *= SAME_FILE_DECAY.powi(*n);
            }
            *n += 1;
        }
        found.hits.sort_by(order);
        // A file the text names by its name (`django-admin.py`, `src/anet.c`)
        // comes first, in the order named, as in the files ranking and the
        // bundle: its best hit, else its best definition by the evidence,
        // else the file itself (a script may define nothing).
        let top = found.hits.first().map_or(0.0, |h| h.score);
        for path in self.files_named(text)?.into_iter().rev() {
            let Some(f) = self.index.locate(&path)? else { continue };
            let key = (f.segment, f.slot_id);
            let mut hit = match found.hits.iter().position(|h| (h.segment as usize, h.slot) == key) {
                Some(i) => found.hits.remove(i),
                None => {
                    let g = self.file(key)?;
                    let nested = g.nested();
                    let best = evidence
                        .iter()
                        .find(|e| e.key == key)
                        .and_then(|e| e.definitions(&g).first().map(|d| d.1))
                        .or_else(|| (0..g.defs.len()).find(|&i| !nested[i]));
                    match best {
                        Some(i) => self.hit_of((key, i as u32), 0.0)?,
                        None => super::SymbolHit::whole_file(&path, key.0, key.1, f.slot.line_count, 0.0),
                    }
                }
            };
            hit.score = top + MENTION_BONUS;
            found.hits.insert(0, hit);
        }
        found.hits.truncate(limit);
        for h in found.hits.iter_mut() {
            h.score = (h.score * 1000.0).round() / 1000.0;
        }
        Ok(())
    }

    /// The indexed files `text` names by their names ([`Graph::file_named`]),
    /// in the order named.
    fn files_named(&self, text: &str) -> Result<Vec<String>, GraphError> {
        let mut named: Vec<String> = Vec::new();
        for m in super::context::mentions(text) {
            if let Some(path) = self.file_named(&m)? {
                if !named.contains(&path) {
                    named.push(path);
                }
            }
        }
        Ok(named)
    }

    /// The definitions named `qualifier` a missing member would be written
    /// in: its types when it names any (not a constructor sharing the
    /// type's name), else all of them.
    pub(crate) fn missing_member_home(&self, qualifier: &str) -> Result<Vec<super::DefId>, GraphError> {
        let defs = self.find(qualifier).unwrap_or_default();
        let mut types = Vec::new();
        for &id in &defs {
            if self.def(id)?.1.cat == super::DefCat::Type {
                types.push(id);
            }
        }
        Ok(if types.is_empty() { defs } else { types })
    }

    /// A search hit for definition `id`, read from its file.
    pub(crate) fn hit_of(&self, id: super::DefId, score: f64) -> Result<super::SymbolHit, GraphError> {
        let (g, d) = self.def(id)?;
        Ok(super::SymbolHit {
            qualified_name: g.qualified_name(&d),
            name: d.name.clone(),
            kind: d.kind.to_string(),
            file: g.path.clone(),
            line: d.line,
            end_line: d.end_line,
            score,
            segment: id.0 .0 as u32,
            slot: id.0 .1,
            index: id.1,
            duplicates: Vec::new(),
        })
    }
}

/// One file of a file-level search: its best hits' score and those hits.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FileHit {
    pub file: String,
    pub score: f64,
    /// Its definitions among the hits, best first (at most three).
    pub definitions: Vec<FileDef>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct FileDef {
    pub name: String,
    pub kind: String,
    pub line: u32,
}

/// Hits searched per file asked for, before they are grouped by file.
const HITS_PER_FILE: usize = 4;

impl super::Graph<'_> {
    /// Files ranked for `text` (`cg search --files`, `codegraph_search` with
    /// `files`): a search's hits (fused with file evidence when the text reads
    /// as a task) grouped by file, each file scored by its best hit; files
    /// whose own words hold the task's rare ones follow with their evidence
    /// alone when no hit names them.
    pub fn search_files(
        &self,
        text: &str,
        limit: usize,
        mode: super::SearchMode,
        model: Option<&crate::embed::StaticModel>,
    ) -> Result<Vec<FileHit>, GraphError> {
        let found = self.search_by(text, limit.saturating_mul(HITS_PER_FILE).max(limit), mode, model)?;
        let mut files: Vec<FileHit> = Vec::new();
        // Each hit's file, then the files holding a copy of it (a fork's
        // `android/` twin): a file search names every file the hit is in.
        for h in &found.hits {
            let at = std::iter::once((&h.file, h.line)).chain(h.duplicates.iter().map(|c| (&c.file, c.line)));
            for (file, line) in at {
                // A whole file's hit is the file, not one of its definitions.
                let def = (!h.is_whole_file()).then(|| FileDef { name: h.name.clone(), kind: h.kind.clone(), line });
                match files.iter_mut().find(|f| f.file == *file) {
                    Some(f) if f.definitions.len() < 3 => f.definitions.extend(def),
                    Some(_) => {}
                    None => files.push(FileHit {
                        file: file.clone(),
                        score: h.score,
                        definitions: def.into_iter().collect(),
                    }),
                }
            }
        }
        let words = super::context::search_words(text);
        if words.len() >= SENTENCE_WORDS {
            let evidence = self.file_evidence(&words, &identifiers_of(text), &Aside::of(text), limit)?;
            let best = evidence.first().map_or(1.0, |e| e.score.max(1e-9));
            for e in evidence {
                if !files.iter().any(|f| f.file == e.path) {
                    let score = (FILE_WEIGHT * e.score / best * 1000.0).round() / 1000.0;
                    files.push(FileHit { file: e.path, score, definitions: Vec::new() });
                }
            }
        }
        files.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.file.cmp(&b.file)));
        // A file the text names by its name (`django-admin.py`, `src/anet.c`)
        // comes first, as `context` reads it first, in the order named.
        let top = files.first().map_or(0.0, |f| f.score);
        for path in self.files_named(text)?.into_iter().rev() {
            let mut hit = match files.iter().position(|f| f.file == path) {
                Some(i) => files.remove(i),
                None => FileHit { file: path, score: 0.0, definitions: Vec::new() },
            };
            hit.score = ((top + MENTION_BONUS) * 1000.0).round() / 1000.0;
            files.insert(0, hit);
        }
        files.truncate(limit);
        Ok(files)
    }
}

#[cfg(test)]
mod tests {
    use super::names_package;

    #[test]
    fn a_package_is_named_by_all_its_subwords_below_the_vendored_folder() {
        let words: Vec<String> = ["add", "compiler", "rt", "fallbacks", "sync", "builtins", "cobra", "net", "github"]
            .map(String::from)
            .to_vec();
        assert!(names_package("vendor/compiler_builtins/src/arm_linux.rs", &words));
        assert!(names_package("rustc/vendor/compiler_builtins/build.rs", &words));
        // A host is not a package; a package's own name is.
        assert!(names_package("vendor/github.com/spf13/cobra/command.go", &words));
        assert!(!names_package("vendor/github.com/spf13/pflag/flag.go", &words));
        // Short single names say too little; a file's name is not a package.
        assert!(!names_package("vendor/golang.org/x/net/http.go", &words));
        assert!(!names_package("vendor/cobra.go", &words));
        // Every subword, not some.
        assert!(!names_package("vendor/compiler_rt_extras/lib.rs", &words));
        // Only below a vendored folder.
        assert!(!names_package("src/cobra/command.go", &words));
        assert!(!names_package("third_party/zlib/inflate.c", &words));
        assert!(names_package("third_party/zlib/inflate.c", &["zlib".to_string()]));
    }
}

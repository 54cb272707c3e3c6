//! Names as an editor's symbol picker matches them: a prefix being typed
//! (`NewRecon` → `NewReconciler`) or an abbreviation (`hdlReq`, `nrc` →
//! `handleRequest`, `NewReconcileController`), case folded, the first letter
//! the name's own (after leading `_`, `$`; words inside a name are the words
//! search's). [`Graph::symbols`] puts them together with the words search
//! ([`Graph::search`]): these names first, then the words search's hits
//! holding every subword of the query (and of the query with its last word
//! completed), then its other hits.
//!
//! Candidates come from each segment's definition-name FST walked with an
//! automaton (a greedy subsequence, complete for subsequences: matching a
//! letter at its first place leaves the most room for the rest); each accepted
//! name is scored by a small dynamic program over where its letters matched.

use std::collections::HashSet;

use rustc_hash::FxHashMap;

use super::{Graph, GraphError, SymbolHit, SymbolSearch};
use crate::extract::words::subwords;
use crate::lang::Language;
use crate::snapshot::fold;

/// Names kept per query before their definitions are read: enough for a
/// picker's page however many definitions share a name.
const NAMES_KEPT: usize = 200;

/// Completions of a half-typed last word searched for (see
/// [`Graph::symbols`]).
const COMPLETIONS: usize = 3;

/// Names longer than this are not scored (nobody types an abbreviation of one).
const MAX_NAME: usize = 256;

/// What was typed, folded: its letters and digits, lower case; after a `.` or
/// `::` only the last part (`pkg.NewRec` picks names like `NewRec…`).
fn folded_query(text: &str) -> Vec<u8> {
    let last = text.rsplit(['.', ':', '\\', '/']).find(|p| p.chars().any(char::is_alphanumeric)).unwrap_or("");
    last.bytes().filter(u8::is_ascii_alphanumeric).map(|b| b.to_ascii_lowercase()).collect()
}

/// Whether position `j` of `name` starts one of its words: the first
/// character, a letter or digit after something else, an upper-case letter
/// after a lower-case one or a digit, a digit after a letter, or the last
/// upper-case letter of a run before a lower-case one (`HTTPServer`'s `S`).
fn starts_word(name: &[u8], j: usize) -> bool {
    let c = name[j];
    if !c.is_ascii_alphanumeric() {
        return false;
    }
    let Some(&p) = j.checked_sub(1).map(|i| &name[i]) else { return true };
    if !p.is_ascii_alphanumeric() {
        return true;
    }
    if c.is_ascii_uppercase() && (p.is_ascii_lowercase() || p.is_ascii_digit()) {
        return true;
    }
    if c.is_ascii_digit() && p.is_ascii_alphabetic() {
        return true;
    }
    c.is_ascii_uppercase() && p.is_ascii_uppercase() && name.get(j + 1).is_some_and(u8::is_ascii_lowercase)
}

/// The FST automaton: `q` as a subsequence of the name (case folded), its
/// first letter the name's first (after leading `_`, `$` and the like).
/// State: letters matched, `DEAD` once the first letter or digit did not
/// match: only the names starting with `q`'s first letter are walked.
struct Abbreviation<'q> {
    q: &'q [u8],
}

const DEAD: usize = usize::MAX;

impl fst::Automaton for Abbreviation<'_> {
    type State = usize;

    fn start(&self) -> usize {
        0
    }

    fn is_match(&self, s: &usize) -> bool {
        *s == self.q.len()
    }

    fn can_match(&self, s: &usize) -> bool {
        *s != DEAD
    }

    fn will_always_match(&self, s: &usize) -> bool {
        self.is_match(s)
    }

    fn accept(&self, s: &usize, b: u8) -> usize {
        match self.q.get(*s) {
            _ if *s == DEAD => DEAD,
            Some(&want) if b.to_ascii_lowercase() == want => s + 1,
            _ if *s == 0 && !b.is_ascii_alphanumeric() => 0,
            _ if *s == 0 => DEAD,
            _ => *s,
        }
    }
}

/// How well `name` matches the folded query `q` as an abbreviation, or `None`
/// when it does not: the best placement of `q`'s letters, each placed letter
/// scoring more at a word's start and right after the previous one, less
/// after a gap; then a name equal to what was typed, or starting with it,
/// scores more, and longer names a little less.
pub(crate) fn abbreviation_score(name: &str, q: &[u8]) -> Option<f64> {
    let n = name.as_bytes();
    if q.is_empty() || n.len() > MAX_NAME || n.len() < q.len() {
        return None;
    }
    let starts: Vec<bool> = (0..n.len()).map(|j| starts_word(n, j)).collect();
    let lead = n.iter().position(u8::is_ascii_alphanumeric)?;
    let low: Vec<u8> = n.iter().map(u8::to_ascii_lowercase).collect();
    const NONE: f64 = f64::NEG_INFINITY;
    let mut prev: Vec<f64> = (0..n.len()).map(|j| if j == lead && low[j] == q[0] { 10.0 } else { NONE }).collect();
    for &want in &q[1..] {
        let mut cur = vec![NONE; n.len()];
        // The best of prev[k] + 0.3 k and prev[k] + 0.5 k over k < j - 1.
        let (mut at_start, mut inside) = (NONE, NONE);
        for j in 1..n.len() {
            if j >= 2 {
                let k = j - 2;
                at_start = at_start.max(prev[k] + 0.3 * k as f64);
                inside = inside.max(prev[k] + 0.5 * k as f64);
            }
            if low[j] != want {
                continue;
            }
            let next = prev[j - 1] + 5.0;
            let jumped = if starts[j] { 4.0 + at_start - 0.3 * (j - 1) as f64 } else { inside - 0.5 * (j - 1) as f64 };
            cur[j] = next.max(jumped);
        }
        prev = cur;
    }
    let best = prev.iter().copied().fold(NONE, f64::max);
    if best == NONE {
        return None;
    }
    let alnum: Vec<u8> = low.iter().copied().filter(u8::is_ascii_alphanumeric).collect();
    let whole = if alnum == q {
        20.0
    } else if alnum.starts_with(q) {
        10.0
    } else {
        0.0
    };
    Some(best + whole - 0.05 * (n.len() - q.len()) as f64)
}

/// Whether `name`, folded, starts with the folded query.
fn is_prefix(name: &str, q: &[u8]) -> bool {
    let mut folded = name.bytes().filter(u8::is_ascii_alphanumeric).map(|b| b.to_ascii_lowercase());
    q.iter().all(|b| folded.next() == Some(*b))
}

impl Graph<'_> {
    /// Definitions whose names match `text` as a prefix or an abbreviation,
    /// best first, at most `limit`, each with whether its name starts with
    /// what was typed. Nested definitions (locals) come after the others of
    /// the same name.
    pub fn abbreviations(&self, text: &str, limit: usize) -> Result<Vec<(SymbolHit, bool)>, GraphError> {
        let q = folded_query(text);
        if q.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let segments = &self.index.segments;
        let mut names: FxHashMap<String, f64> = FxHashMap::default();
        for seg in segments {
            seg.definition_names_matching(Abbreviation { q: &q }, |name| {
                if let Ok(name) = std::str::from_utf8(name) {
                    if !names.contains_key(name) {
                        if let Some(s) = abbreviation_score(name, &q) {
                            names.insert(name.to_string(), s);
                        }
                    }
                }
                true
            })?;
        }
        let mut ranked: Vec<(String, f64)> = names.into_iter().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        ranked.truncate(NAMES_KEPT);
        let mut out: Vec<(SymbolHit, bool)> = Vec::new();
        for (name, score) in ranked {
            if out.len() >= limit {
                break;
            }
            let mut these: Vec<SymbolHit> = Vec::new();
            for (si, seg) in segments.iter().enumerate() {
                for e in seg.definitions(&name)? {
                    if !self.index.is_live(si, e.slot) {
                        continue;
                    }
                    let slot = seg.slot(e.slot)?;
                    let path = seg.slot_path(&slot)?;
                    let language = Language::of_id(slot.meta.language);
                    let kind = match e.cat {
                        0 => 0.3,
                        1 => 0.2,
                        _ => 0.0,
                    } - if e.nested { 1.0 } else { 0.0 };
                    let s = ((score + kind) * 1000.0).round() / 1000.0;
                    these.push(SymbolHit::from_entry(&name, e, path, language, si, s));
                }
            }
            these.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| (&a.file, a.line).cmp(&(&b.file, b.line))));
            let prefix = is_prefix(&name, &q);
            out.extend(these.into_iter().map(|h| (h, prefix)));
        }
        out.truncate(limit);
        Ok(out)
    }

    /// Up to [`COMPLETIONS`] subwords that start with `part` (not `part`
    /// itself), those naming the most definitions first.
    fn completions(&self, part: &str) -> Result<Vec<String>, GraphError> {
        use fst::{Automaton, IntoStreamer, Streamer};
        let mut found: FxHashMap<String, u64> = FxHashMap::default();
        for seg in &self.index.segments {
            let fst = seg.subword_fst()?;
            let mut stream = fst.search(fst::automaton::Str::new(part).starts_with()).into_stream();
            let mut keys: Vec<String> = Vec::new();
            while let Some((k, _)) = stream.next() {
                if k.len() > part.len() {
                    keys.push(String::from_utf8_lossy(k).into_owned());
                }
            }
            for k in keys {
                if let Some(list) = seg.subword_list(&k)? {
                    let d = found.entry(k).or_default();
                    *d = d.saturating_add(list.definitions);
                }
            }
        }
        // Counted as the words search counts (the same however the index is
        // split into segments).
        let dead = self.dead_definitions()?;
        let mut ranked: Vec<(String, u64)> = found
            .into_iter()
            .map(|(k, d)| {
                let d = d.saturating_sub(dead.listed(&k));
                (k, d)
            })
            .filter(|(_, d)| *d > 0)
            .collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(ranked.into_iter().take(COMPLETIONS).map(|(k, _)| k).collect())
    }

    /// Definitions for an editor's symbol picker (`workspace/symbol`, `cg
    /// search --names`), each once, at most `limit`, in this order:
    /// 1. names starting with what was typed, or abbreviated by it;
    /// 2. the words search's hits ([`Graph::search_by`], lexical) holding
    ///    every subword of the query, then those of the query with its last
    ///    subword completed (it may be half typed: `PodSp` → `pod spec`);
    /// 3. the rest of the words search's hits.
    pub fn symbols(&self, text: &str, limit: usize) -> Result<SymbolSearch, GraphError> {
        let mut words = self.search_by(text, limit, super::SearchMode::Lexical, None)?;
        let abbreviations = self.abbreviations(text, limit)?;
        let holds_all = |h: &SymbolHit, wanted: &[String]| {
            let parts: Vec<String> = subwords(&h.name).map(fold).collect();
            wanted.iter().all(|w| parts.contains(w))
        };
        let wanted = words.subwords.clone();
        let (mut whole, partial): (Vec<SymbolHit>, Vec<SymbolHit>) =
            std::mem::take(&mut words.hits).into_iter().partition(|h| holds_all(h, &wanted));
        if let Some((last, before)) = wanted.split_last() {
            if last.len() >= 2 && whole.len() < limit {
                for c in self.completions(last)? {
                    let mut completed: Vec<String> = before.to_vec();
                    completed.push(c);
                    let more = self.search_by(&completed.join(" "), limit, super::SearchMode::Lexical, None)?;
                    whole.extend(more.hits.into_iter().filter(|h| holds_all(h, &completed)));
                }
            }
        }
        let ordered = abbreviations.into_iter().map(|(h, _)| h).chain(whole).chain(partial);
        let mut seen: HashSet<(String, u32, String)> = HashSet::new();
        let mut hits: Vec<SymbolHit> = Vec::with_capacity(limit);
        for h in ordered {
            if hits.len() >= limit {
                break;
            }
            if seen.insert((h.file.clone(), h.line, h.name.clone())) {
                hits.push(h);
            }
        }
        Ok(SymbolSearch { hits, ..words })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fst::{IntoStreamer, Streamer};

    fn q(s: &str) -> Vec<u8> {
        folded_query(s)
    }

    /// The automaton accepts exactly the names the score accepts: a
    /// brute-force oracle over a word list.
    #[test]
    fn automaton_agrees_with_the_score() {
        let mut names: Vec<&str> = vec![
            "handleRequest",
            "HandleRequest",
            "handle_request",
            "HTTPServer",
            "httpServer",
            "NewReconciler",
            "newReconcileController",
            "reconcile",
            "x2y",
            "Base64Encode",
            "__init__",
            "_private",
            "a",
            "request",
            "prequel",
            "hr",
        ];
        names.sort_unstable();
        let set = fst::Set::from_iter(names.iter()).unwrap();
        for query in
            ["hr", "hreq", "handlereq", "nrc", "newrecon", "srv", "server", "b64", "64", "init", "r", "req", "x2", "p"]
        {
            let qq = q(query);
            let mut stream = set.search(Abbreviation { q: &qq }).into_stream();
            let mut through: Vec<String> = Vec::new();
            while let Some(k) = stream.next() {
                through.push(String::from_utf8(k.to_vec()).unwrap());
            }
            let scored: Vec<&str> = names.iter().copied().filter(|n| abbreviation_score(n, &qq).is_some()).collect();
            assert_eq!(through, scored, "{query}");
        }
    }

    #[test]
    fn abbreviations_rank_word_starts_and_prefixes() {
        let s = |n: &str, query: &str| abbreviation_score(n, &q(query));
        // The first letter must be the name's (words inside a name are the
        // words search's).
        assert!(s("prequel", "req").is_none());
        assert!(s("request", "req").is_some());
        assert!(s("handleRequest", "req").is_none());
        assert!(s("__init__", "init").is_some());
        // What was typed whole beats a prefix, which beats an abbreviation.
        assert!(s("request", "request") > s("requestLine", "request"));
        assert!(s("requestLine", "request") > s("readEveryQuietSecond", "request"));
        // Word starts beat letters inside words.
        assert!(s("handleRequest", "hr") > s("hover", "hr"));
        assert!(s("NewReconcileController", "nrc") > s("newRecord", "nrc"));
        // Case does not matter; dots pick the last part.
        assert_eq!(s("NewReconciler", "newrec"), s("NewReconciler", "pkg.NewRec"));
        assert!(s("a", "ab").is_none());
    }
}

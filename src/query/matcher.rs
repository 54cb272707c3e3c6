//! Which terms of a segment match: the dictionary side of a query.

use fst::{IntoStreamer, Streamer};
use regex::{Regex, RegexBuilder};
use regex_syntax::hir::{Hir, HirKind};
use roaring::RoaringBitmap;

use super::{Mode, QueryError};
use crate::extract::words::MAX_TERM_BYTES;
use crate::snapshot::{fold, trigrams, FoldRec, Segment, SnapshotError, VariantRec};

/// Limits on a compiled regex, so a hostile pattern cannot exhaust memory.
const REGEX_SIZE_LIMIT: usize = 1 << 20;
const REGEX_DFA_SIZE_LIMIT: usize = 4 << 20;

/// A compiled query term.
pub struct Matcher {
    mode: Mode,
    case_sensitive: bool,
    /// The term as given.
    exact: String,
    /// The term case-folded (for regex: the folded required literal, if any).
    folded: String,
    regex: Option<Regex>,
}

impl Matcher {
    pub fn new(term: &str, mode: Mode, case_sensitive: bool) -> Result<Matcher, QueryError> {
        if term.is_empty() || (mode != Mode::Regex && term.trim().is_empty()) {
            return Err(QueryError::EmptyTerm);
        }
        let (folded, regex) = match mode {
            Mode::Regex => {
                let regex = RegexBuilder::new(term)
                    .case_insensitive(!case_sensitive)
                    .size_limit(REGEX_SIZE_LIMIT)
                    .dfa_size_limit(REGEX_DFA_SIZE_LIMIT)
                    .build()
                    .map_err(|e| QueryError::BadRegex(e.to_string()))?;
                let literal = regex_syntax::Parser::new().parse(term).ok().and_then(|h| required_literal(&h));
                (literal.map(|l| fold(&l)).unwrap_or_default(), Some(regex))
            }
            _ => (fold(term), None),
        };
        Ok(Matcher { mode, case_sensitive, exact: term.to_string(), folded, regex })
    }

    /// Whether an exact term matches (the brute-force definition the index
    /// answers for; tests compare against it).
    pub fn matches(&self, term: &str) -> bool {
        match self.mode {
            Mode::Regex => self.regex.as_ref().is_some_and(|r| r.is_match(term)),
            _ if self.case_sensitive => self.text_match(term, &self.exact),
            _ => self.text_match(&fold(term), &self.folded),
        }
    }

    fn text_match(&self, term: &str, needle: &str) -> bool {
        match self.mode {
            Mode::Exact => term == needle,
            Mode::StartsWith => term.starts_with(needle),
            Mode::Contains => term.contains(needle),
            Mode::Regex => false,
        }
    }

    /// Whether a fold key can hold a matching variant.
    fn key_matches(&self, key: &str) -> bool {
        match self.mode {
            Mode::Regex if !self.case_sensitive => self.matches(key),
            Mode::Regex => true,
            _ => self.text_match(key, &self.folded),
        }
    }

    /// For a case-insensitive exact term: its fold in the segment (all of whose
    /// variants match), whose record counts the distinct lines of all of them.
    pub fn exact_fold(&self, seg: &Segment) -> Result<Option<FoldRec>, SnapshotError> {
        if self.mode != Mode::Exact || self.case_sensitive {
            return Ok(None);
        }
        match seg.term_fst()?.get(&self.folded) {
            Some(id) => seg.fold(id as u32).map(Some),
            None => Ok(None),
        }
    }

    /// The variants of a segment that match.
    pub fn variants(&self, seg: &Segment) -> Result<Vec<VariantRec>, SnapshotError> {
        let mut folds: Vec<u32> = Vec::new();
        let fst = seg.term_fst()?;
        match self.mode {
            Mode::Exact => folds.extend(fst.get(&self.folded).map(|v| v as u32)),
            Mode::StartsWith => {
                let aut = fst::Automaton::starts_with(fst::automaton::Str::new(&self.folded));
                let mut stream = fst.search(aut).into_stream();
                while let Some((_, v)) = stream.next() {
                    folds.push(v as u32);
                }
            }
            Mode::Contains | Mode::Regex => match self.candidates(seg)? {
                Some(candidates) => {
                    let mut buf = [0u8; MAX_TERM_BYTES];
                    for id in candidates {
                        // The key is the fold of the first variant; ASCII folds in
                        // a stack buffer, without allocating.
                        let f = seg.fold(id)?;
                        let first = seg.str_at(seg.variant(f.first_variant)?.term)?;
                        let hit = match first.len() <= buf.len() && first.is_ascii() {
                            true => {
                                let key = &mut buf[..first.len()];
                                key.copy_from_slice(first.as_bytes());
                                key.make_ascii_lowercase();
                                self.key_matches(std::str::from_utf8(key).unwrap_or(first))
                            }
                            false => self.key_matches(&fold(first)),
                        };
                        if hit {
                            folds.push(id);
                        }
                    }
                }
                None => {
                    let mut stream = fst.stream();
                    while let Some((key, v)) = stream.next() {
                        if std::str::from_utf8(key).is_ok_and(|k| self.key_matches(k)) {
                            folds.push(v as u32);
                        }
                    }
                }
            },
        }
        let mut out = Vec::new();
        for id in folds {
            let f = seg.fold(id)?;
            for i in f.first_variant..f.first_variant.saturating_add(f.variant_count) {
                let v = seg.variant(i)?;
                if !self.case_sensitive || self.matches(seg.str_at(v.term)?) {
                    out.push(v);
                }
            }
        }
        Ok(out)
    }

    /// Fold ids that may match, from the trigram index; `None` when the needle has
    /// no trigram (then the dictionary is scanned).
    fn candidates(&self, seg: &Segment) -> Result<Option<RoaringBitmap>, SnapshotError> {
        let mut grams: Vec<[u8; 3]> = trigrams(&self.folded).collect();
        if grams.is_empty() {
            return Ok(None);
        }
        grams.sort_unstable();
        grams.dedup();
        let mut lists = Vec::with_capacity(grams.len());
        for g in grams {
            match seg.gram(g)? {
                Some(ids) => lists.push(ids),
                None => return Ok(Some(RoaringBitmap::new())),
            }
        }
        lists.sort_by_key(|l| l.len());
        let mut iter = lists.into_iter();
        let mut acc = iter.next().unwrap_or_default();
        for l in iter {
            acc &= l;
            if acc.is_empty() {
                break;
            }
        }
        Ok(Some(acc))
    }
}

/// The longest literal that every match of a regex contains, when one can be read
/// off its syntax (a concatenation's literal runs, a group, a `+` repetition).
pub(crate) fn required_literal(hir: &Hir) -> Option<String> {
    match hir.kind() {
        HirKind::Literal(lit) => std::str::from_utf8(&lit.0).ok().map(str::to_string),
        HirKind::Capture(c) => required_literal(&c.sub),
        HirKind::Repetition(r) if r.min >= 1 => required_literal(&r.sub),
        HirKind::Concat(subs) => {
            let mut best: Option<String> = None;
            let mut run = String::new();
            let keep = |cand: String, best: &mut Option<String>| {
                if best.as_ref().is_none_or(|b| cand.len() > b.len()) && !cand.is_empty() {
                    *best = Some(cand);
                }
            };
            for sub in subs {
                if let HirKind::Literal(lit) = sub.kind() {
                    if let Ok(s) = std::str::from_utf8(&lit.0) {
                        run.push_str(s);
                        continue;
                    }
                }
                keep(std::mem::take(&mut run), &mut best);
                if let Some(inner) = required_literal(sub) {
                    keep(inner, &mut best);
                }
            }
            keep(run, &mut best);
            best
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(p: &str) -> Option<String> {
        required_literal(&regex_syntax::Parser::new().parse(p).unwrap())
    }

    #[test]
    fn required_literals_are_read_off_the_pattern() {
        assert_eq!(lit("^Player.*Health$").as_deref(), Some("Player"));
        assert_eq!(lit("get_(\\w+)_count").as_deref(), Some("_count"));
        assert_eq!(lit("(foo|bar)baz").as_deref(), Some("baz"));
        assert_eq!(lit("a|b"), None);
        assert_eq!(lit("x*"), None);
        assert_eq!(lit("(?:abcd)+").as_deref(), Some("abcd"));
    }
}

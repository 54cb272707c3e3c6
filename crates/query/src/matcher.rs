//! Which terms of a segment match: the dictionary side of a query.

use std::ops::Range;

use fst::{IntoStreamer, Streamer};
use memchr::memmem;
use regex::bytes::{Regex, RegexBuilder};
use regex_syntax::hir::{Hir, HirKind, Look};

use super::{Mode, QueryError};
use crate::extract::words::{subwords, MAX_TERM_BYTES};
use crate::snapshot::{fold, trigrams, FoldRec, Segment, SnapshotError, VariantRec};

/// Limits on a compiled regex, so a hostile pattern cannot exhaust memory.
const REGEX_SIZE_LIMIT: usize = 1 << 20;
const REGEX_DFA_SIZE_LIMIT: usize = 4 << 20;
/// Candidate keys whose reads are started together (see [`Matcher::verify`]).
const VERIFY_BATCH: usize = 32;

/// An exact term in one segment ([`Matcher::exact_term`]).
pub struct ExactTerm {
    pub fold: FoldRec,
    /// The variants that match, in id order.
    pub variants: Vec<VariantRec>,
    /// Whether `variants` are all of the fold's (so its record counts their
    /// distinct lines).
    pub every_variant: bool,
}

/// A compiled query term.
pub struct Matcher {
    mode: Mode,
    case_sensitive: bool,
    /// The term as given.
    exact: String,
    /// The term case-folded (for regex: the folded required literal, if any).
    folded: String,
    /// Finds `folded` in a key (contains).
    finder: memmem::Finder<'static>,
    /// For a regex anchored at the start with a literal (`^get.*`): that literal,
    /// folded; every matching key starts with it.
    prefix: Option<String>,
    regex: Option<Regex>,
    /// Subword mode: the term's subwords, folded (or as written, when case
    /// matters), which a matching term holds in a row.
    parts: Vec<String>,
}

impl Matcher {
    pub fn new(term: &str, mode: Mode, case_sensitive: bool) -> Result<Matcher, QueryError> {
        if term.is_empty() || (mode != Mode::Regex && term.trim().is_empty()) {
            return Err(QueryError::EmptyTerm);
        }
        let (folded, prefix, regex) = match mode {
            Mode::Regex => {
                let regex = RegexBuilder::new(term)
                    .case_insensitive(!case_sensitive)
                    .size_limit(REGEX_SIZE_LIMIT)
                    .dfa_size_limit(REGEX_DFA_SIZE_LIMIT)
                    .build()
                    .map_err(|e| QueryError::BadRegex(e.to_string()))?;
                let hir = regex_syntax::Parser::new().parse(term).ok();
                let literal = hir.as_ref().and_then(required_literal);
                let prefix = hir.as_ref().and_then(required_prefix).map(|p| fold(&p));
                (literal.map(|l| fold(&l)).unwrap_or_default(), prefix, Some(regex))
            }
            _ => (fold(term), None, None),
        };
        let parts: Vec<String> = match mode {
            Mode::Subword => subwords(term).map(|p| if case_sensitive { p.to_string() } else { fold(p) }).collect(),
            _ => Vec::new(),
        };
        if mode == Mode::Subword && parts.is_empty() {
            return Err(QueryError::EmptyTerm);
        }
        let finder = memmem::Finder::new(folded.as_bytes()).into_owned();
        Ok(Matcher { mode, case_sensitive, exact: term.to_string(), folded, finder, prefix, regex, parts })
    }

    /// Whether an exact term matches (the brute-force definition the index
    /// answers for; tests compare against it).
    pub fn matches(&self, term: &str) -> bool {
        match self.mode {
            Mode::Regex => self.regex.as_ref().is_some_and(|r| r.is_match(term.as_bytes())),
            Mode::Subword => self.holds_parts(term),
            _ if self.case_sensitive => self.text_match(term, &self.exact),
            _ => self.text_match(&fold(term), &self.folded),
        }
    }

    fn text_match(&self, term: &str, needle: &str) -> bool {
        match self.mode {
            Mode::Exact => term == needle,
            Mode::StartsWith => term.starts_with(needle),
            Mode::Contains => term.contains(needle),
            Mode::Regex | Mode::Subword => false,
        }
    }

    /// Subword mode with one subword: that subword.
    pub fn single_part(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }

    /// Whether the subwords of `term` hold the query's in a row.
    fn holds_parts(&self, term: &str) -> bool {
        let mut split: Vec<&str> = Vec::new();
        let mut folded: Vec<String> = Vec::new();
        match self.case_sensitive {
            true => split.extend(subwords(term)),
            false => folded.extend(subwords(term).map(fold)),
        }
        let n = self.parts.len();
        let len = split.len().max(folded.len());
        (0..len.saturating_sub(n - 1)).any(|i| {
            (0..n).all(|j| match self.case_sensitive {
                true => split[i + j] == self.parts[j],
                false => folded[i + j] == self.parts[j],
            })
        })
    }

    /// Whether a fold key can hold a matching variant.
    fn key_matches(&self, key: &[u8]) -> bool {
        let needle = self.folded.as_bytes();
        match self.mode {
            Mode::Exact => key == needle,
            Mode::StartsWith => key.starts_with(needle),
            Mode::Contains => self.finder.find(key).is_some(),
            Mode::Regex if !self.case_sensitive => self.regex.as_ref().is_some_and(|r| r.is_match(key)),
            Mode::Regex | Mode::Subword => true,
        }
    }

    /// An exact term's fold in the segment and its variants that match (all of
    /// them unless case matters), from one dictionary lookup: what the hits, the
    /// total and the lines defining the term are read from. `None` for another
    /// mode, or a term the segment does not hold.
    pub fn exact_term(&self, seg: &Segment) -> Result<Option<ExactTerm>, SnapshotError> {
        if self.mode != Mode::Exact {
            return Ok(None);
        }
        let Some(id) = seg.term_fst()?.get(&self.folded) else { return Ok(None) };
        let fold = seg.fold(id as u32)?;
        let mut variants = Vec::new();
        self.push_variants(seg, fold, None, &mut variants)?;
        Ok(Some(ExactTerm { fold, variants, every_variant: !self.case_sensitive }))
    }

    /// The variants of a segment that match.
    pub fn variants(&self, seg: &Segment) -> Result<Vec<VariantRec>, SnapshotError> {
        let mut out = Vec::new();
        let fst = seg.term_fst()?;
        let stream_keys = |mut stream: fst::map::Stream<'_>, out: &mut Vec<VariantRec>| {
            while let Some((key, v)) = stream.next() {
                if self.key_matches(key) {
                    self.push_variants(seg, seg.fold(v as u32)?, None, out)?;
                }
            }
            Ok::<(), SnapshotError>(())
        };
        match self.mode {
            Mode::Exact => {
                if let Some(id) = fst.get(&self.folded) {
                    self.push_variants(seg, seg.fold(id as u32)?, None, &mut out)?;
                }
            }
            Mode::Subword => self.subword_variants(seg, &fst, &mut out)?,
            // Fold ids follow key order: the keys with a prefix are one range of
            // ids, found with two seeks instead of streaming every key.
            Mode::StartsWith => {
                for id in prefix_ids(&fst, &self.folded, seg.fold_count) {
                    self.push_variants(seg, seg.fold(id)?, None, &mut out)?;
                }
            }
            Mode::Contains | Mode::Regex => match self.candidate_ids(seg)? {
                Some(ids) => self.verify(seg, &ids, &mut out)?,
                // No trigram: the keys with the regex's prefix, or every key.
                None => match &self.prefix {
                    Some(prefix) => {
                        let range = fst.range().ge(prefix);
                        let range = match keys_after(prefix) {
                            Some(end) => range.lt(end),
                            None => range,
                        };
                        stream_keys(range.into_stream(), &mut out)?
                    }
                    None => stream_keys(fst.stream(), &mut out)?,
                },
            },
        }
        Ok(out)
    }

    /// Contains and regex: the ids of the folds the trigram index (and a
    /// regex's required prefix) leave, in increasing order, whose keys
    /// [`Matcher::verify`] still checks; `None` when the needle has no trigram.
    pub fn candidate_ids(&self, seg: &Segment) -> Result<Option<Vec<u32>>, SnapshotError> {
        if !matches!(self.mode, Mode::Contains | Mode::Regex) {
            return Ok(None);
        }
        let Some(mut candidates) = self.candidates(seg)? else { return Ok(None) };
        if let Some(prefix) = &self.prefix {
            let ids = prefix_ids(&seg.term_fst()?, prefix, seg.fold_count);
            candidates.retain(|id| ids.contains(id));
        }
        Ok(Some(candidates))
    }

    /// Adds the variants of the candidate folds `ids` whose keys match.
    pub fn verify(&self, seg: &Segment, ids: &[u32], out: &mut Vec<VariantRec>) -> Result<(), SnapshotError> {
        let mut buf = [0u8; MAX_TERM_BYTES];
        // A key is three reads that each wait on memory (fold record, first
        // variant, spelling) and candidates lie far apart: each step is started
        // for a batch before any is read, so a batch waits about once a step.
        let mut folds = Vec::with_capacity(VERIFY_BATCH);
        let mut firsts = Vec::with_capacity(VERIFY_BATCH);
        for batch in ids.chunks(VERIFY_BATCH) {
            for &id in batch {
                seg.touch_fold(id);
            }
            folds.clear();
            for &id in batch {
                let f = seg.fold(id)?;
                seg.touch_variant(f.first_variant);
                folds.push(f);
            }
            firsts.clear();
            for f in &folds {
                let first = seg.variant(f.first_variant)?;
                seg.touch_bytes(first.term);
                firsts.push(first);
            }
            for (&f, &first) in folds.iter().zip(&firsts) {
                self.verify_one(seg, f, first, &mut buf, out)?;
            }
        }
        Ok(())
    }

    /// [`Matcher::verify`] for one candidate fold and its first variant.
    fn verify_one(
        &self,
        seg: &Segment,
        f: FoldRec,
        first: VariantRec,
        buf: &mut [u8; MAX_TERM_BYTES],
        out: &mut Vec<VariantRec>,
    ) -> Result<(), SnapshotError> {
        // The key is the fold of the first variant; ASCII folds in a stack
        // buffer, without allocating.
        let spelling = seg.bytes_at(first.term)?;
        let hit = match spelling.len() <= buf.len() && spelling.is_ascii() {
            true => {
                let key = &mut buf[..spelling.len()];
                key.copy_from_slice(spelling);
                key.make_ascii_lowercase();
                self.key_matches(key)
            }
            false => self.key_matches(fold(seg.str_at(first.term)?).as_bytes()),
        };
        if hit {
            self.push_variants(seg, f, Some(first), out)?;
        }
        Ok(())
    }

    /// Subword mode: one subword is its fold's variants (terms that are the
    /// subword whole) and its list (compound terms holding it); several are the
    /// rarest one's list, each term checked for all of them in a row.
    fn subword_variants(
        &self,
        seg: &Segment,
        fst: &fst::Map<&[u8]>,
        out: &mut Vec<VariantRec>,
    ) -> Result<(), SnapshotError> {
        let folded: Vec<String> = self.parts.iter().map(|p| fold(p)).collect();
        let mut lists = Vec::with_capacity(folded.len());
        for part in &folded {
            match seg.subword_list(part)? {
                Some(list) => lists.push(list),
                // A compound term holding every part would be listed under each.
                None if folded.len() > 1 => return Ok(()),
                None => {}
            }
        }
        if let [one] = folded.as_slice() {
            if let Some(id) = fst.get(one) {
                self.push_variants(seg, seg.fold(id as u32)?, None, out)?;
            }
        }
        let Some(list) = lists.iter().min_by_key(|l| l.count) else { return Ok(()) };
        let check = folded.len() > 1 || self.case_sensitive;
        for (id, _) in seg.subword_entries(list)? {
            let v = seg.variant(id)?;
            if !check || self.matches(seg.str_at(v.term)?) {
                out.push(v);
            }
        }
        Ok(())
    }

    /// Adds the variants of a matching fold (those spelled as asked, when case
    /// matters); `first` is its first variant when already read.
    fn push_variants(
        &self,
        seg: &Segment,
        f: FoldRec,
        first: Option<VariantRec>,
        out: &mut Vec<VariantRec>,
    ) -> Result<(), SnapshotError> {
        for i in f.first_variant..f.first_variant.saturating_add(f.variant_count) {
            let v = match first {
                Some(v) if i == f.first_variant => v,
                _ => seg.variant(i)?,
            };
            if !self.case_sensitive || self.matches(seg.str_at(v.term)?) {
                out.push(v);
            }
        }
        Ok(())
    }

    /// Fold ids that may match, in increasing order, from the trigram index;
    /// `None` when the needle has no trigram (then the dictionary is scanned).
    fn candidates(&self, seg: &Segment) -> Result<Option<Vec<u32>>, SnapshotError> {
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
                None => return Ok(Some(Vec::new())),
            }
        }
        lists.sort_by_key(|l| l.len());
        let mut iter = lists.into_iter();
        let mut acc = iter.next().unwrap_or_default();
        for l in iter {
            if acc.is_empty() {
                break;
            }
            acc = intersect_sorted(&acc, &l);
        }
        Ok(Some(acc))
    }
}

/// The values in both increasing lists; `small` is searched for in `large`,
/// galloping when it is far shorter.
pub(crate) fn intersect_sorted(small: &[u32], large: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(small.len().min(large.len()));
    if small.len() * 16 < large.len() {
        let mut rest = large;
        for &x in small {
            // The first place at or past `x`: double the step, then halve.
            let mut step = 1;
            while step < rest.len() && rest[step] < x {
                step *= 2;
            }
            let at = rest[..(step + 1).min(rest.len())].partition_point(|&y| y < x);
            rest = &rest[at..];
            match rest.first() {
                Some(&y) if y == x => out.push(x),
                Some(_) => {}
                None => break,
            }
        }
        return out;
    }
    let (mut i, mut j) = (0, 0);
    while i < small.len() && j < large.len() {
        match small[i].cmp(&large[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(small[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// The ids of the fold keys that start with `prefix`: fold ids follow key order, so
/// they are one range, found with two dictionary seeks.
fn prefix_ids(fst: &fst::Map<&[u8]>, prefix: &str, fold_count: u32) -> Range<u32> {
    let first_at_or_after = |key: &[u8]| {
        let mut stream = fst.range().ge(key).into_stream();
        stream.next().map_or(fold_count, |(_, id)| id as u32)
    };
    let start = first_at_or_after(prefix.as_bytes());
    match keys_after(prefix) {
        Some(end) => start..first_at_or_after(&end).max(start),
        None => start..fold_count,
    }
}

/// The smallest key above every key that starts with `prefix` (drop trailing 0xFF
/// bytes, add one to the last byte); `None` when no key is above them all.
fn keys_after(prefix: &str) -> Option<Vec<u8>> {
    let mut end = prefix.as_bytes().to_vec();
    while end.last() == Some(&0xFF) {
        end.pop();
    }
    *end.last_mut()? += 1;
    Some(end)
}

/// The literal every match of a regex starts with, when the pattern begins with
/// `^` and a literal (`^get_.*`).
pub(crate) fn required_prefix(hir: &Hir) -> Option<String> {
    let HirKind::Concat(subs) = hir.kind() else { return None };
    match (subs.first().map(Hir::kind), subs.get(1).map(Hir::kind)) {
        (Some(HirKind::Look(Look::Start)), Some(HirKind::Literal(lit))) => {
            std::str::from_utf8(&lit.0).ok().filter(|s| !s.is_empty()).map(str::to_string)
        }
        _ => None,
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
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn intersect_sorted_is_the_common_values(
            a in prop::collection::btree_set(0u32..5000, 0..300),
            b in prop::collection::btree_set(0u32..5000, 0..3000),
        ) {
            let (a, b): (Vec<u32>, Vec<u32>) = (a.into_iter().collect(), b.into_iter().collect());
            let want: Vec<u32> = a.iter().copied().filter(|x| b.contains(x)).collect();
            prop_assert_eq!(intersect_sorted(&a, &b), want.clone());
            prop_assert_eq!(intersect_sorted(&b, &a), want);
        }
    }

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

    fn prefix(p: &str) -> Option<String> {
        required_prefix(&regex_syntax::Parser::new().parse(p).unwrap())
    }

    #[test]
    fn required_prefixes_are_read_off_an_anchored_pattern() {
        assert_eq!(prefix("^Player.*Health$").as_deref(), Some("Player"));
        assert_eq!(prefix("^get_(\\w+)").as_deref(), Some("get_"));
        assert_eq!(prefix("Player$"), None);
        assert_eq!(prefix("^(foo|bar)"), None);
        assert_eq!(prefix("(?i)^player"), None);
        assert_eq!(prefix("^a|^b"), None);
    }
}

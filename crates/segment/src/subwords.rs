//! The subword index of a segment: each subword (lower case) of the compound
//! terms → the variants holding it, each marked when its spelling names a
//! definition of the segment, with the variant's number of subwords (what a
//! symbol search's BM25 needs of a name, so a name is scored without being
//! read and split). `getUserById` is listed under `get`, `user`, `by`
//! and `id`, so that a subword query or a symbol search reads one list instead
//! of scanning the dictionary. A term that is one subword whole (`user`,
//! `User`) is not listed: its fold is the subword, found in the term fst.
//! `format/README.md` describes the bytes.

use rustc_hash::FxHashMap;

use super::postings::{get_varint, put_varint};
use crate::extract::words::subwords;

/// Subword counts above this are stored as 0 ("split the name to know").
pub const MAX_PARTS: u32 = 15;

/// The distinct subwords of a name, folded (lower case), in order: what a
/// name is listed under, and what its definitions count towards.
pub fn name_subwords(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    distinct_subwords(name, &mut out);
    out
}

/// Puts [`name_subwords`] in `out` (cleared first) and returns how many
/// subwords `name` has, repeats counted.
fn distinct_subwords(name: &str, out: &mut Vec<String>) -> u32 {
    out.clear();
    let mut parts = 0u32;
    for part in subwords(name) {
        parts += 1;
        let part = super::fold(part);
        if !out.contains(&part) {
            out.push(part);
        }
    }
    parts
}

/// Collects the lists while a segment's variants are written, in id order.
#[derive(Default)]
pub struct SubwordWriter {
    /// Per subword, `id << 1 | is_def` of the variants holding it.
    lists: FxHashMap<Box<str>, Vec<u32>>,
    /// Per subword, the segment's definitions whose names hold it (a name
    /// that is the subword whole included): the document frequency of a
    /// symbol search, additive over segments.
    definitions: FxHashMap<Box<str>, u64>,
    /// Per variant id, its number of subwords as stored (1..=[`MAX_PARTS`],
    /// 0 for more).
    parts: Vec<u8>,
    /// The subwords of the variant being added (distinct, lower case).
    scratch: Vec<String>,
}

impl SubwordWriter {
    /// Adds variant `id` spelled `term`, whose fold is `key`; `is_def`: a
    /// definition of the segment has this exact name. Ids must increase.
    pub fn add(&mut self, id: u32, term: &str, key: &str, is_def: bool) {
        let parts = distinct_subwords(term, &mut self.scratch);
        if self.scratch.len() == 1 && self.scratch[0] == key {
            return;
        }
        let at = id as usize;
        if self.parts.len() <= at {
            self.parts.resize(at + 1, 0);
        }
        self.parts[at] = if parts > MAX_PARTS { 0 } else { parts as u8 };
        let value = id << 1 | is_def as u32;
        for part in self.scratch.drain(..) {
            match self.lists.get_mut(part.as_str()) {
                Some(list) => list.push(value),
                None => {
                    self.lists.insert(part.into_boxed_str(), vec![value]);
                }
            }
        }
    }

    /// Counts `count` definitions named `name` under each of its subwords.
    pub fn add_definitions(&mut self, name: &str, count: u64) {
        for part in name_subwords(name) {
            *self.definitions.entry(part.into_boxed_str()).or_default() += count;
        }
    }

    /// The `subword fst` and `subwords` sections.
    pub fn finish(mut self) -> (Vec<u8>, Vec<u8>) {
        // A subword only definitions' names hold whole (`User`) has a list
        // too, of no variants, for its count of definitions.
        for key in self.definitions.keys() {
            if !self.lists.contains_key(key) {
                self.lists.insert(key.clone(), Vec::new());
            }
        }
        let mut lists: Vec<(Box<str>, Vec<u32>)> = self.lists.into_iter().collect();
        lists.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut builder = fst::MapBuilder::memory();
        let mut bytes = Vec::new();
        for (subword, values) in &lists {
            builder.insert(subword.as_bytes(), bytes.len() as u64).expect("subwords sorted and distinct");
            put_varint(&mut bytes, values.len() as u64);
            put_varint(&mut bytes, values.iter().filter(|v| *v & 1 == 1).count() as u64);
            put_varint(&mut bytes, self.definitions.remove(&**subword).unwrap_or(0));
            let mut prev = 0u64;
            for (i, &v) in values.iter().enumerate() {
                let parts = self.parts.get((v >> 1) as usize).copied().unwrap_or(0) as u64;
                let v = ((v >> 1) as u64) << 5 | parts << 1 | (v & 1) as u64;
                put_varint(&mut bytes, if i == 0 { v } else { v - prev });
                prev = v;
            }
        }
        (builder.into_inner().expect("in-memory fst"), bytes)
    }
}

/// One subword's list, as read: how many variants, how many of them name
/// definitions, and the encoded values.
#[derive(Clone, Copy, Debug)]
pub struct SubwordList<'a> {
    pub count: u32,
    pub defs: u32,
    /// The segment's definitions whose names hold the subword (see
    /// [`SubwordWriter::add_definitions`]).
    pub definitions: u64,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> SubwordList<'a> {
    /// The list at `offset` of the `subwords` section; `None` when malformed.
    pub fn at(section: &'a [u8], offset: usize) -> Option<SubwordList<'a>> {
        let mut at = offset;
        let count = u32::try_from(get_varint(section, &mut at)?).ok()?;
        let defs = u32::try_from(get_varint(section, &mut at)?).ok()?;
        let definitions = get_varint(section, &mut at)?;
        (defs <= count).then_some(SubwordList { count, defs, definitions, bytes: section, at })
    }

    /// Appends to `out` the entries that name definitions, in id order, each
    /// as `id << 4 | parts` (`parts`: the variant's number of subwords,
    /// 1..=[`MAX_PARTS`], 0 for more); `None` when the bytes are malformed (as
    /// [`Self::entries`]).
    pub fn def_ids(&self, limit: u32, out: &mut Vec<u64>) -> Option<()> {
        out.reserve(self.defs.min(1 << 20) as usize);
        self.for_each(limit, |id, parts, is_def| {
            if is_def {
                out.push((id as u64) << 4 | parts as u64);
            }
        })
    }

    /// `(variant id, names a definition)` of every entry, in id order; `None`
    /// when the bytes are malformed (ids must increase and fit `limit`).
    pub fn entries(&self, limit: u32) -> Option<Vec<(u32, bool)>> {
        let mut out = Vec::with_capacity(self.count.min(1 << 20) as usize);
        self.for_each(limit, |id, _, is_def| out.push((id, is_def)))?;
        Some(out)
    }

    /// Calls `f(variant id, parts, names a definition)` for every entry, in id
    /// order; `None` when the bytes are malformed (ids must increase and fit
    /// `limit`).
    fn for_each(&self, limit: u32, mut f: impl FnMut(u32, u32, bool)) -> Option<()> {
        let bytes = self.bytes;
        let mut at = self.at;
        // Ids must increase: the first's `prev` is none (below any id).
        let mut prev_id: i64 = -1;
        let mut prev = 0u64;
        for _ in 0..self.count {
            // Most deltas take one or two bytes.
            let delta = match (bytes.get(at), bytes.get(at + 1)) {
                (Some(&b0), _) if b0 < 0x80 => {
                    at += 1;
                    b0 as u64
                }
                (Some(&b0), Some(&b1)) if b1 < 0x80 => {
                    at += 2;
                    (b0 & 0x7F) as u64 | (b1 as u64) << 7
                }
                _ => get_varint(bytes, &mut at)?,
            };
            let v = prev.checked_add(delta)?;
            let id = v >> 5;
            // A variant is listed once: ids increase, not only values.
            if id as i64 <= prev_id || id >= limit as u64 {
                return None;
            }
            f(id as u32, (v >> 1 & 15) as u32, v & 1 == 1);
            prev = v;
            prev_id = id as i64;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compound_terms_are_listed_under_each_subword_and_whole_words_are_not() {
        let mut w = SubwordWriter::default();
        w.add(0, "getUserById", "getuserbyid", true);
        w.add(1, "user", "user", false);
        w.add(2, "USER_ID", "user_id", false);
        w.add(3, "_user", "_user", true);
        let (fst, bytes) = w.finish();
        let map = fst::Map::new(fst).unwrap();
        let list = |s: &str| {
            let l = SubwordList::at(&bytes, map.get(s).unwrap() as usize).unwrap();
            (l.defs, l.entries(4).unwrap())
        };
        assert_eq!(list("user"), (2, vec![(0, true), (2, false), (3, true)]));
        assert_eq!(list("id"), (1, vec![(0, true), (2, false)]));
        assert_eq!(list("get"), (1, vec![(0, true)]));
        // With their numbers of subwords: getUserById 4, _user 1.
        let mut defs = Vec::new();
        SubwordList::at(&bytes, map.get("user").unwrap() as usize).unwrap().def_ids(4, &mut defs).unwrap();
        assert_eq!(defs, [4, 3 << 4 | 1]);
        assert!(map.get("getuserbyid").is_none());
        // No definitions counted: every list's count is 0.
        assert_eq!(SubwordList::at(&bytes, map.get("user").unwrap() as usize).unwrap().definitions, 0);
        // Ids past the segment's variants are malformed.
        assert!(SubwordList::at(&bytes, map.get("user").unwrap() as usize).unwrap().entries(3).is_none());
        // More than 15 subwords are stored as 0 (split to count them).
        let mut w = SubwordWriter::default();
        let long = "a_b_c_d_e_f_g_h_i_j_k_l_m_n_o_p";
        w.add(0, &long[..29], &long[..29], true);
        w.add(1, long, long, true);
        let (fst, bytes) = w.finish();
        let map = fst::Map::new(fst).unwrap();
        let mut defs = Vec::new();
        SubwordList::at(&bytes, map.get("a").unwrap() as usize).unwrap().def_ids(2, &mut defs).unwrap();
        assert_eq!(defs, [15, 1 << 4]);
    }
}

#[cfg(test)]
mod definition_counts {
    use super::*;

    /// Each list counts the definitions whose names hold its subword, a name
    /// that is the subword whole included (with a list of no variants when no
    /// compound term holds it).
    #[test]
    fn lists_count_the_definitions_whose_names_hold_their_subword() {
        let mut w = SubwordWriter::default();
        w.add(0, "getUserById", "getuserbyid", true);
        w.add(1, "userName", "username", false);
        w.add_definitions("getUserById", 3);
        w.add_definitions("User", 2);
        w.add_definitions("user_user", 1);
        w.add_definitions("Order", 4);
        let (fst, bytes) = w.finish();
        let map = fst::Map::new(fst).unwrap();
        let list = |s: &str| SubwordList::at(&bytes, map.get(s).unwrap() as usize).unwrap();
        assert_eq!(list("user").definitions, 3 + 2 + 1);
        assert_eq!(list("get").definitions, 3);
        assert_eq!(list("name").definitions, 0);
        assert_eq!((list("order").count, list("order").defs, list("order").definitions), (0, 0, 4));
        assert_eq!(list("order").entries(2).unwrap(), vec![]);
        assert_eq!(name_subwords("user_User_id"), ["user", "id"]);
    }
}

//! The subword index of a segment: each subword (lower case) of the compound
//! terms → the variants holding it, each marked when its spelling names a
//! definition of the segment. `getUserById` is listed under `get`, `user`, `by`
//! and `id`, so that a subword query or a symbol search reads one list instead
//! of scanning the dictionary. A term that is one subword whole (`user`,
//! `User`) is not listed: its fold is the subword, found in the term fst.
//! `format/README.md` describes the bytes.

use rustc_hash::FxHashMap;

use super::postings::{get_varint, put_varint};
use crate::extract::words::subwords;

/// Collects the lists while a segment's variants are written, in id order.
#[derive(Default)]
pub struct SubwordWriter {
    lists: FxHashMap<Box<str>, Vec<u32>>,
    /// The subwords of the variant being added (distinct, lower case).
    scratch: Vec<String>,
}

impl SubwordWriter {
    /// Adds variant `id` spelled `term`, whose fold is `key`; `is_def`: a
    /// definition of the segment has this exact name. Ids must increase.
    pub fn add(&mut self, id: u32, term: &str, key: &str, is_def: bool) {
        self.scratch.clear();
        for part in subwords(term) {
            let part = super::fold(part);
            if !self.scratch.contains(&part) {
                self.scratch.push(part);
            }
        }
        if self.scratch.len() == 1 && self.scratch[0] == key {
            return;
        }
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

    /// The `subword fst` and `subwords` sections.
    pub fn finish(self) -> (Vec<u8>, Vec<u8>) {
        let mut lists: Vec<(Box<str>, Vec<u32>)> = self.lists.into_iter().collect();
        lists.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut builder = fst::MapBuilder::memory();
        let mut bytes = Vec::new();
        for (subword, values) in &lists {
            builder.insert(subword.as_bytes(), bytes.len() as u64).expect("subwords sorted and distinct");
            put_varint(&mut bytes, values.len() as u64);
            put_varint(&mut bytes, values.iter().filter(|v| *v & 1 == 1).count() as u64);
            let mut prev = 0u32;
            for (i, &v) in values.iter().enumerate() {
                put_varint(&mut bytes, if i == 0 { v } else { v - prev } as u64);
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
    bytes: &'a [u8],
    at: usize,
}

impl<'a> SubwordList<'a> {
    /// The list at `offset` of the `subwords` section; `None` when malformed.
    pub fn at(section: &'a [u8], offset: usize) -> Option<SubwordList<'a>> {
        let mut at = offset;
        let count = u32::try_from(get_varint(section, &mut at)?).ok()?;
        let defs = u32::try_from(get_varint(section, &mut at)?).ok()?;
        (defs <= count).then_some(SubwordList { count, defs, bytes: section, at })
    }

    /// Appends to `out` the ids of the entries that name definitions, in id
    /// order; `None` when the bytes are malformed (as [`Self::entries`]).
    pub fn def_ids(&self, limit: u32, out: &mut Vec<u32>) -> Option<()> {
        out.reserve(self.defs.min(1 << 20) as usize);
        self.for_each(limit, |id, is_def| {
            if is_def {
                out.push(id);
            }
        })
    }

    /// `(variant id, names a definition)` of every entry, in id order; `None`
    /// when the bytes are malformed (ids must increase and fit `limit`).
    pub fn entries(&self, limit: u32) -> Option<Vec<(u32, bool)>> {
        let mut out = Vec::with_capacity(self.count.min(1 << 20) as usize);
        self.for_each(limit, |id, is_def| out.push((id, is_def)))?;
        Some(out)
    }

    /// Calls `f(variant id, names a definition)` for every entry, in id order;
    /// `None` when the bytes are malformed.
    fn for_each(&self, limit: u32, mut f: impl FnMut(u32, bool)) -> Option<()> {
        let mut at = self.at;
        let mut prev = 0u64;
        for i in 0..self.count {
            let delta = get_varint(self.bytes, &mut at)?;
            if i > 0 && delta == 0 {
                return None;
            }
            let v = prev.checked_add(delta)?;
            let id = u32::try_from(v >> 1).ok()?;
            if id >= limit {
                return None;
            }
            f(id, v & 1 == 1);
            prev = v;
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
        let mut defs = Vec::new();
        SubwordList::at(&bytes, map.get("user").unwrap() as usize).unwrap().def_ids(4, &mut defs).unwrap();
        assert_eq!(defs, [0, 3]);
        assert!(map.get("getuserbyid").is_none());
        // Ids past the segment's variants are malformed.
        assert!(SubwordList::at(&bytes, map.get("user").unwrap() as usize).unwrap().entries(3).is_none());
    }
}

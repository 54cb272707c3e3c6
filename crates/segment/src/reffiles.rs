//! Which of the files naming a term hold a reference spelled as it (section 20,
//! format/README.md "Reference files"): most files naming a definition's name
//! name it only where they define their own (`fn main`, `Compare` of every
//! comparer) or in comments, and reading their archives to find no reference
//! was 80% of the archives `refs` read (the four budget corpora, 100 sampled
//! methods).
//!
//! ```text
//! section := count u32, count × (variant id u32, list offset u32), lists
//! list    := varint((first slot - previous first slot) << 1 | received)*
//! ```
//!
//! Entries are in increasing variant id, for the variants naming at least
//! [`REF_FILES_MIN`] files; a variant's list runs from its offset (counted from
//! the end of the entries) to the next entry's, the last one's to the section's
//! end: the files among those of its postings (both lists) holding a reference
//! of that name or importing a name spelled so, by first slot, increasing (the
//! first as is), each with whether one of those references has a receiver
//! (`x.name`, `mod::name`; a supertype's own receiver, its subtype, does not
//! count) or the file imports the name: a file defining its own top-level
//! `name` holds no other plain reference to another file's. A question reads
//! the list alone, not the postings.

use rustc_hash::FxHashMap;

use super::postings::{get_varint, put_varint};

use crate::extract::RefRole;

use super::structure::{decode_refs, FileStructure, PackedReceiver};

/// Variants naming fewer files are not listed: all their files are read.
pub const REF_FILES_MIN: usize = 4;

/// The names a file's references and imports name, each with whether one of
/// its references has a receiver: the terms whose files [`write`] marks.
/// `None` when the packed references do not decode (every term is then
/// marked, with a receiver: a file is never left out of a `refs`).
pub type RefNames = Option<FxHashMap<Box<str>, bool>>;

/// [`RefNames`] of a file's structure: before it is archived (an extracted
/// file: made on the thread that extracted it) or read from its archive (a
/// file copied from a segment).
pub fn ref_names_of(s: &FileStructure) -> RefNames {
    let names: Vec<&str> = s.names.iter().map(String::as_str).collect();
    let imports = s.imports.iter().flat_map(|i| i.names.iter().map(|n| n.name.as_str()));
    names_of(&s.refs, &names, imports)
}

fn names_of<'a>(refs: &[u8], names: &[&str], imports: impl Iterator<Item = &'a str>) -> RefNames {
    let refs = decode_refs(refs, names.len())?;
    let mut out: FxHashMap<Box<str>, bool> = FxHashMap::default();
    for r in &refs {
        // A supertype's receiver is its subtype, not a receiver, unless it is
        // written with a qualifier (`models.Model`).
        let received = match r.receiver {
            PackedReceiver::None => false,
            PackedReceiver::Qualified(..) => true,
            _ => r.role != RefRole::Inherit,
        };
        let name = *names.get(r.name as usize)?;
        match out.get_mut(name) {
            Some(v) => *v |= received,
            None => {
                out.insert(name.into(), received);
            }
        }
    }
    // An import names another file's definition even where the file defines
    // its own (`from .base import Store as BaseStore` beside `class Store`).
    for name in imports {
        out.insert(name.into(), true);
    }
    Some(out)
}

/// A file holding references of a term, as the writer takes it: its first
/// slot, and whether one of them has a receiver.
pub fn marked(first_slot: u32, received: bool) -> u32 {
    first_slot << 1 | received as u32
}

/// The section for the variants in id order, each given as its postings (both
/// lists, each increasing) and the files holding a reference of it
/// ([`marked`], increasing); `parts[slot]` is a slot's part number.
pub fn write<'a>(variants: impl Iterator<Item = (&'a [u32], &'a [u32], &'a [u32])>, parts: &[u16]) -> Vec<u8> {
    let mut entries: Vec<u8> = Vec::new();
    let mut lists: Vec<u8> = Vec::new();
    let mut count = 0u32;
    let mut files: Vec<u32> = Vec::new();
    for (id, (rest, defs, refs)) in variants.enumerate() {
        files_of(rest, defs, parts, &mut files);
        if files.len() < REF_FILES_MIN {
            continue;
        }
        count += 1;
        entries.extend_from_slice(&(id as u32).to_le_bytes());
        entries.extend_from_slice(&(lists.len() as u32).to_le_bytes());
        // The marked files among the postings' (both increasing).
        let (mut at, mut prev) = (0, 0u32);
        for &m in refs {
            let f = m >> 1;
            while at < files.len() && files[at] < f {
                at += 1;
            }
            if files.get(at) == Some(&f) {
                put_varint(&mut lists, ((f - prev) as u64) << 1 | (m & 1) as u64);
                prev = f;
            }
        }
    }
    let mut out = Vec::with_capacity(4 + entries.len() + lists.len());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&entries);
    out.extend_from_slice(&lists);
    out
}

/// The distinct files (first slots) of two increasing posting lists, in order.
fn files_of(rest: &[u32], defs: &[u32], parts: &[u16], out: &mut Vec<u32>) {
    out.clear();
    out.extend(rest.iter().chain(defs).map(|&p| {
        let slot = super::unpack(p).0;
        slot - parts.get(slot as usize).copied().unwrap_or(0) as u32
    }));
    out.sort_unstable();
    out.dedup();
}

/// Where variant `id`'s bits are in the section (`None`: not listed), given
/// the entry count; `entry(k)` reads entry `k` as `(variant id, bits offset)`.
pub fn find(count: u32, id: u32, entry: impl Fn(u32) -> Option<(u32, u32)>) -> Option<Option<u32>> {
    let (mut lo, mut hi) = (0u32, count);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let (v, _) = entry(mid)?;
        match v.cmp(&id) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return Some(Some(mid)),
        }
    }
    Some(None)
}

/// A variant's list: its files holding a reference (first slots, increasing,
/// each below `slots`), each with whether one has a receiver; `None` when the
/// bytes are malformed.
pub fn kept(list: &[u8], slots: u32) -> Option<Vec<(u32, bool)>> {
    let mut out: Vec<(u32, bool)> = Vec::new();
    let (mut at, mut prev) = (0, 0u64);
    while at < list.len() {
        let v = get_varint(list, &mut at)?;
        let f = prev.checked_add(v >> 1)?;
        if (!out.is_empty() && f == prev) || f >= slots as u64 {
            return None;
        }
        out.push((f as u32, v & 1 == 1));
        prev = f;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_mark_the_files_holding_references_among_the_postings_files() {
        // Slots 0..8, file of two parts at slots 3-4; postings on files 0, 1,
        // 3 (both parts), 5, 7; references in files 1 and 3.
        let parts = [0u16, 0, 0, 0, 1, 0, 0, 0];
        let p = |slot: u32, line: u32| super::super::pack(slot, line);
        let rest = [p(0, 1), p(1, 2), p(3, 4), p(4, 1)];
        let defs = [p(5, 1), p(7, 3)];
        let refs = [marked(1, false), marked(3, true)];
        let few = [p(2, 1)];
        let section = write([(&few[..], &[][..], &[][..]), (&rest[..], &defs[..], &refs[..])].into_iter(), &parts);
        let count = u32::from_le_bytes(section[0..4].try_into().unwrap());
        assert_eq!(count, 1, "a variant naming one file is not listed");
        let entry = |k: u32| {
            let o = 4 + 8 * k as usize;
            Some((
                u32::from_le_bytes(section[o..o + 4].try_into().unwrap()),
                u32::from_le_bytes(section[o + 4..o + 8].try_into().unwrap()),
            ))
        };
        assert_eq!(find(count, 0, entry), Some(None));
        assert_eq!(find(count, 1, entry), Some(Some(0)));
        let list = &section[4 + 8..];
        let mut files = Vec::new();
        files_of(&rest, &defs, &parts, &mut files);
        assert_eq!(files, [0, 1, 3, 5, 7]);
        assert_eq!(kept(list, 8), Some(vec![(1, false), (3, true)]));
        assert_eq!(kept(list, 3), None, "a slot past the segment's is refused");
        assert_eq!(kept(&[2, 0], 8), None, "a file listed twice is refused");
        assert_eq!(kept(&[0x80], 8), None, "a cut varint is refused");
    }
}

//! The resolved graph: every reference of a generation resolved once, stored
//! beside its segments (`.codegraph/resolved.cgr`), so that `refs`, `callers`
//! and what is built on them read the references that bind to a definition
//! instead of resolving every reference of its name in every file that could
//! hold one.
//!
//! It is a cache of what question-time resolution answers, not a fact of its
//! own: its key is the generation it was made from (each segment's name and
//! block checksums, the superseded slots) and the resolver's version, and a
//! graph whose index does not match it resolves at question time, as it does
//! without one. An update makes a new generation, so the file goes stale at
//! once; `cg resolve`, and the servers in the background, make it again.
//!
//! ```text
//! file    := header, targets × target, wide × name, lists
//! header  := "CGRESOLV", version u32, resolver u32, key u64, targets u64,
//!            wide u64, lists' length u64, checksum u64 (xxh3 of the rest)
//! target  := segment u32, slot u32, definition u32, end u32
//! name    := xxh3 of a name u64, end u32, 0 u32
//! list    := site*   (from the previous entry's end to its own; the names'
//!                     lists follow the targets')
//! site    := varint(segment delta), varint(slot, or its delta in the same segment),
//!            varint(reference index, or its delta in the same file) << 1 | ambiguous,
//!            varint(rank)
//! ```
//!
//! Targets are in increasing (segment, slot, definition), names in increasing
//! hash; a list's sites in increasing (segment, slot, reference index). A
//! target's site is a reference (its index among its file's references) whose
//! resolution lists the target, at `rank` in that list, and is `ambiguous` as
//! the resolution says. A resolution listing more than [`WIDE`] definitions (a
//! plain name bound to every definition of it in the project: a test script's
//! `foo`) is stored once, under the name it is written as (and the names its
//! file imports under that name), not under each definition: a question
//! resolves those references again (their rank 0, not ambiguous, as stored).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use xxhash_rust::xxh3::{xxh3_64, Xxh3};

use crate::project::Index;
use crate::snapshot::mmap::Mapped;
use crate::snapshot::SnapshotError;
use crate::{DefId, FileKey, Graph};

/// The file, beside the segments.
pub const RESOLVED_FILE: &str = "resolved.cgr";
const MAGIC: &[u8; 8] = b"CGRESOLV";
const VERSION: u32 = 1;
/// Changes whenever resolution may answer differently: a file made by another
/// resolver is not read. (The crate's version is part of the key too.)
pub const RESOLVER: u32 = 1;
const HEADER: usize = 56;
const TARGET: usize = 16;
/// A resolution listing more definitions than this is stored under its
/// reference's name, not under each of them.
pub const WIDE: usize = 16;
/// A graph resolving files is dropped and made anew after this many files, so
/// that what it keeps (every file it read, every name's definitions) stays
/// bounded however large the tree.
const FILES_PER_GRAPH: usize = 16_384;
/// Files a thread takes at a time.
const CHUNK: usize = 256;

/// A reference bound to a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    pub file: FileKey,
    /// Its index among the file's references.
    pub reference: u32,
    /// Where the target is among the definitions its resolution lists.
    pub rank: u32,
    pub ambiguous: bool,
}

/// What a resolution pass did.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct ResolveStats {
    pub files: usize,
    pub references: u64,
    /// References bound to at least one definition.
    pub bound: u64,
    /// (Reference, definition) pairs stored.
    pub sites: u64,
    /// References of a resolution wider than [`WIDE`], stored by name.
    pub wide: u64,
    pub targets: u64,
    pub bytes: u64,
}

/// The identity of what `index` holds, as a resolved graph is keyed: each
/// segment's file name, length and block checksums and its superseded slots,
/// with this resolver's version.
pub fn generation_key(index: &Index) -> u64 {
    let mut h = Xxh3::new();
    h.update(&RESOLVER.to_le_bytes());
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(&(index.segments.len() as u64).to_le_bytes());
    for (i, seg) in index.segments.iter().enumerate() {
        let name = seg.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        h.update(&(name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update(&seg.byte_len().to_le_bytes());
        h.update(&seg.fingerprint().to_le_bytes());
        let dead = index.superseded.get(i);
        let dead: Vec<u32> = (0..seg.slot_count).filter(|&s| dead.is_some_and(|d| d.contains(s))).collect();
        h.update(&(dead.len() as u64).to_le_bytes());
        for s in dead {
            h.update(&s.to_le_bytes());
        }
    }
    h.update(&(index.base as u64).to_le_bytes());
    h.digest()
}

/// Where the index's resolved graph is kept: beside its first segment.
pub fn resolved_path(index: &Index) -> Option<PathBuf> {
    Some(index.segments.first()?.path().parent()?.join(RESOLVED_FILE))
}

/// A resolved graph, read.
pub struct Resolved {
    map: Mapped,
    targets: usize,
    wide: usize,
}

/// Why a resolved graph was not read.
#[derive(Debug, PartialEq, Eq)]
pub enum NotRead {
    /// None is there.
    Missing,
    /// It was made from another generation, or by another resolver.
    Stale,
    /// Its bytes do not hold one.
    Corrupt(&'static str),
}

impl Resolved {
    /// The resolved graph at [`resolved_path`], when it was made from exactly
    /// this generation by this resolver and its checksum holds.
    pub fn open(index: &Index) -> Result<Resolved, NotRead> {
        let path = resolved_path(index).ok_or(NotRead::Missing)?;
        let file = match crate::safe_fs::open_regular(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(NotRead::Missing),
            Err(_) => return Err(NotRead::Corrupt("not a readable regular file")),
        };
        let map = Mapped::open(&file).map_err(|_| NotRead::Corrupt("cannot be mapped"))?;
        Resolved::parse(map, generation_key(index))
    }

    fn parse(map: Mapped, key: u64) -> Result<Resolved, NotRead> {
        let b = map.bytes();
        if b.len() < HEADER || &b[..8] != MAGIC {
            return Err(NotRead::Corrupt("not a resolved graph"));
        }
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or_default());
        let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or_default());
        if u32_at(8) != VERSION || u32_at(12) != RESOLVER || u64_at(16) != key {
            return Err(NotRead::Stale);
        }
        let (targets, wide, lists) = (u64_at(24), u64_at(32), u64_at(40));
        let want = targets
            .checked_add(wide)
            .and_then(|n| n.checked_mul(TARGET as u64))
            .and_then(|t| t.checked_add(lists))
            .and_then(|n| n.checked_add(HEADER as u64));
        if want != Some(b.len() as u64) {
            return Err(NotRead::Corrupt("its lengths disagree with its size"));
        }
        if xxh3_64(&b[HEADER..]) != u64_at(48) {
            return Err(NotRead::Corrupt("checksum mismatch"));
        }
        let r = Resolved { targets: targets as usize, wide: wide as usize, map };
        // Ends increasing and within the lists: a list is then always a
        // slice of them.
        let mut last = 0;
        for i in 0..r.targets + r.wide {
            let end = r.end(i) as u64;
            if end < last || end > lists {
                return Err(NotRead::Corrupt("a list ends outside the lists"));
            }
            last = end;
        }
        Ok(r)
    }

    fn record(&self, i: usize) -> &[u8] {
        &self.map.bytes()[HEADER + i * TARGET..HEADER + (i + 1) * TARGET]
    }

    fn u32_in(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or_default())
    }

    /// Entry `i` (targets, then names): where its list ends.
    fn end(&self, i: usize) -> u32 {
        let b = self.record(i);
        Self::u32_in(b, if i < self.targets { 12 } else { 8 })
    }

    fn target(&self, i: usize) -> (u64, u32, u32) {
        let b = self.record(i);
        (Self::u32_in(b, 0) as u64, Self::u32_in(b, 4), Self::u32_in(b, 8))
    }

    fn name_hash(&self, i: usize) -> u64 {
        u64::from_le_bytes(self.record(self.targets + i)[..8].try_into().unwrap_or_default())
    }

    /// How many definitions some reference binds to.
    pub fn targets(&self) -> usize {
        self.targets
    }

    /// The references bound to `t` (not those of a resolution wider than
    /// [`WIDE`]), in file order; `None` when its list does not decode (a file
    /// that passed its checksum but was not written by cg).
    pub fn sites(&self, t: DefId) -> Option<Vec<Site>> {
        let want = (t.0 .0 as u64, t.0 .1, t.1);
        let at = self.search(self.targets, |i| self.target(i).cmp(&want))?;
        at.map_or(Some(Vec::new()), |i| self.list(i))
    }

    /// The references written as `name` (or imported under it) whose
    /// resolution lists more than [`WIDE`] definitions (and, rarely, those of
    /// a name of the same hash): to be resolved again.
    pub fn wide_sites(&self, name: &str) -> Option<Vec<Site>> {
        let want = xxh3_64(name.as_bytes());
        let at = self.search(self.wide, |i| self.name_hash(i).cmp(&want))?;
        at.map_or(Some(Vec::new()), |i| self.list(self.targets + i))
    }

    /// The first of `n` entries not less than the one sought, when it is it.
    fn search(&self, n: usize, cmp: impl Fn(usize) -> std::cmp::Ordering) -> Option<Option<usize>> {
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if cmp(mid).is_lt() {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Some((lo < n && cmp(lo).is_eq()).then_some(lo))
    }

    fn list(&self, i: usize) -> Option<Vec<Site>> {
        let start = if i == 0 { 0 } else { self.end(i - 1) };
        let lists = &self.map.bytes()[HEADER + (self.targets + self.wide) * TARGET..];
        let list = lists.get(start as usize..self.end(i) as usize)?;
        let mut out = Vec::new();
        let (mut pos, mut seg, mut slot, mut reference) = (0usize, 0u64, 0u64, 0u64);
        let mut first = true;
        while pos < list.len() {
            let ds = get_varint(list, &mut pos)?;
            let sl = get_varint(list, &mut pos)?;
            let rf = get_varint(list, &mut pos)?;
            let rank = get_varint(list, &mut pos)?;
            let same_seg = !first && ds == 0;
            seg = seg.checked_add(ds)?;
            let same_file = same_seg && sl == 0;
            slot = if same_seg { slot.checked_add(sl)? } else { sl };
            reference = if same_file { reference.checked_add(rf >> 1)? } else { rf >> 1 };
            first = false;
            out.push(Site {
                file: (usize::try_from(seg).ok()?, u32::try_from(slot).ok()?),
                reference: u32::try_from(reference).ok()?,
                rank: u32::try_from(rank).ok()?,
                ambiguous: rf & 1 == 1,
            });
        }
        Some(out)
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*pos)?;
        *pos += 1;
        v |= ((b & 0x7F) as u64) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// One stored pair: the target, then the site (segment, slot, reference), its
/// rank and whether it is ambiguous. Segments fit 16 bits (a generation holds
/// a few hundred at most).
type Pair = (u16, u32, u32, u16, u32, u32, u32, bool);
/// A reference of a wide resolution: the hash of a name, then the site.
type WidePair = (u64, u16, u32, u32);

/// Resolves every reference of every current file of `index` on `threads`
/// threads, as question time resolves it, and returns the resolved graph's
/// bytes. `progress(done, total)` is called as files are done.
pub fn resolve_all(
    index: &Index,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(Vec<u8>, ResolveStats), SnapshotError> {
    let key = generation_key(index);
    let files: Vec<FileKey> = index.files()?.iter().map(|f| (f.segment, f.slot_id)).collect();
    if index.segments.len() > u16::MAX as usize {
        return Err(SnapshotError::Corrupt {
            path: index.root.clone(),
            what: format!("{} segments: more than a resolved graph holds", index.segments.len()),
        });
    }
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let threads = threads.clamp(1, 64);
    type Part = Result<(Vec<Pair>, Vec<WidePair>, u64, u64), SnapshotError>;
    let parts: Vec<Part> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| -> Part {
                    let (mut pairs, mut wide): (Vec<Pair>, Vec<WidePair>) = Default::default();
                    let (mut references, mut bound) = (0u64, 0u64);
                    let mut g = Graph::new(index).question_time();
                    let mut since_new = 0;
                    loop {
                        let at = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if at >= files.len() {
                            break;
                        }
                        if since_new >= FILES_PER_GRAPH {
                            g = Graph::new(index).question_time();
                            since_new = 0;
                        }
                        let chunk = &files[at..files.len().min(at + CHUNK)];
                        for &key in chunk {
                            let f = g.scan_file(key)?;
                            let site = (key.0 as u16, key.1);
                            for (i, r) in f.refs.iter().enumerate() {
                                references += 1;
                                let res = g.resolve(&f, r)?;
                                bound += !res.defs.is_empty() as u64;
                                if res.defs.len() > WIDE {
                                    // Under the name as written, and the
                                    // names the file imports under it.
                                    let written = f.name(r.name);
                                    let mut names = vec![xxh3_64(written.as_bytes())];
                                    for n in f.imports.iter().flat_map(|i| i.names.iter()) {
                                        if n.alias == written && n.name != written {
                                            names.push(xxh3_64(n.name.as_bytes()));
                                        }
                                    }
                                    names.sort_unstable();
                                    names.dedup();
                                    wide.extend(names.into_iter().map(|h| (h, site.0, site.1, i as u32)));
                                    continue;
                                }
                                for (rank, d) in res.defs.iter().enumerate() {
                                    pairs.push((
                                        d.0 .0 as u16,
                                        d.0 .1,
                                        d.1,
                                        site.0,
                                        site.1,
                                        i as u32,
                                        rank as u32,
                                        res.ambiguous,
                                    ));
                                }
                            }
                        }
                        since_new += chunk.len();
                        let n = done.fetch_add(chunk.len(), Ordering::Relaxed) + chunk.len();
                        progress(n, files.len());
                    }
                    Ok((pairs, wide, references, bound))
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    });
    let (mut pairs, mut wide): (Vec<Pair>, Vec<WidePair>) = Default::default();
    let mut stats = ResolveStats { files: files.len(), ..Default::default() };
    for part in parts {
        let (p, w, references, bound) = part?;
        stats.references += references;
        stats.bound += bound;
        pairs.extend(p);
        wide.extend(w);
    }
    pairs.sort_unstable();
    pairs.dedup_by(|a, b| (a.0, a.1, a.2, a.3, a.4, a.5) == (b.0, b.1, b.2, b.3, b.4, b.5));
    wide.sort_unstable();
    wide.dedup();
    stats.sites = pairs.len() as u64;
    stats.wide = wide.len() as u64;
    let bytes = encode(&pairs, &wide, key);
    stats.targets = u64::from_le_bytes(bytes[24..32].try_into().unwrap_or_default());
    stats.bytes = bytes.len() as u64;
    Ok((bytes, stats))
}

/// Appends one site to a list, after `last` (none: the list's first).
fn put_site(
    lists: &mut Vec<u8>,
    last: &mut Option<(u64, u64, u64)>,
    site: (u64, u64, u64),
    rank: u32,
    ambiguous: bool,
) {
    let (s, f, r) = site;
    let same_seg = last.is_some_and(|l| l.0 == s);
    let same_file = same_seg && last.is_some_and(|l| l.1 == f);
    let (ls, lf, lr) = last.unwrap_or_default();
    put_varint(lists, if last.is_none() { s } else { s - ls });
    put_varint(lists, if same_seg { f - lf } else { f });
    put_varint(lists, (if same_file { r - lr } else { r }) << 1 | ambiguous as u64);
    put_varint(lists, rank as u64);
    *last = Some(site);
}

fn encode(pairs: &[Pair], wide: &[WidePair], key: u64) -> Vec<u8> {
    let mut records: Vec<u8> = Vec::new();
    let mut lists: Vec<u8> = Vec::new();
    let mut i = 0;
    let mut count = 0u64;
    while i < pairs.len() {
        let t = (pairs[i].0, pairs[i].1, pairs[i].2);
        let mut last = None;
        while i < pairs.len() && (pairs[i].0, pairs[i].1, pairs[i].2) == t {
            let p = pairs[i];
            put_site(&mut lists, &mut last, (p.3 as u64, p.4 as u64, p.5 as u64), p.6, p.7);
            i += 1;
        }
        records.extend_from_slice(&(t.0 as u32).to_le_bytes());
        records.extend_from_slice(&t.1.to_le_bytes());
        records.extend_from_slice(&t.2.to_le_bytes());
        records.extend_from_slice(&(lists.len() as u32).to_le_bytes());
        count += 1;
    }
    let mut names = 0u64;
    let mut i = 0;
    while i < wide.len() {
        let h = wide[i].0;
        let mut last = None;
        while i < wide.len() && wide[i].0 == h {
            let w = wide[i];
            put_site(&mut lists, &mut last, (w.1 as u64, w.2 as u64, w.3 as u64), 0, false);
            i += 1;
        }
        records.extend_from_slice(&h.to_le_bytes());
        records.extend_from_slice(&(lists.len() as u32).to_le_bytes());
        records.extend_from_slice(&0u32.to_le_bytes());
        names += 1;
    }
    let mut out = Vec::with_capacity(HEADER + records.len() + lists.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&RESOLVER.to_le_bytes());
    out.extend_from_slice(&key.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&names.to_le_bytes());
    out.extend_from_slice(&(lists.len() as u64).to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&records);
    out.extend_from_slice(&lists);
    let sum = xxh3_64(&out[HEADER..]);
    out[48..56].copy_from_slice(&sum.to_le_bytes());
    out
}

/// Writes a resolved graph where [`Resolved::open`] reads it: a new file
/// renamed into place, so a reader maps the old one or the new one whole.
pub fn write(index: &Index, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let path = resolved_path(index).ok_or_else(|| std::io::Error::other("the index has no segments"))?;
    let tmp = path.with_file_name(format!("{RESOLVED_FILE}.{}.tmp", std::process::id()));
    crate::safe_fs::write_new(&tmp, bytes)?;
    if let Err(e) = std::fs::rename(&tmp, &path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(path)
}

/// The opened index's resolved graph, read once ([`Resolved::open`]; `None`
/// when there is none for this generation).
#[derive(Default)]
pub(crate) struct KeptResolved(std::sync::OnceLock<Option<Arc<Resolved>>>);

impl KeptResolved {
    pub(crate) fn get(&self, index: &Index) -> Option<Arc<Resolved>> {
        self.0.get_or_init(|| Resolved::open(index).ok().map(Arc::new)).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map_of(bytes: &[u8]) -> Mapped {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r");
        std::fs::write(&p, bytes).unwrap();
        Mapped::open(&std::fs::File::open(&p).unwrap()).unwrap()
    }

    #[test]
    fn lists_decode_to_the_pairs_encoded() {
        let mut pairs: Vec<Pair> = vec![
            (0, 1, 2, 0, 5, 9, 0, false),
            (0, 1, 2, 0, 5, 11, 1, true),
            (0, 1, 2, 0, 7, 3, 0, false),
            (0, 1, 2, 2, 0, 0, 0, false),
            (0, 1, 2, 2, 0, 1000, 3, true),
            (1, 0, 0, 0, 0, 0, 0, false),
            (3, 70_000, 4, 1, 2, 3, 0, false),
        ];
        pairs.sort_unstable();
        let wide: Vec<WidePair> =
            vec![(xxh3_64(b"foo"), 0, 3, 4), (xxh3_64(b"foo"), 0, 3, 9), (xxh3_64(b"foo"), 2, 1, 0)];
        let bytes = encode(&pairs, &wide, 42);
        let r = Resolved::parse(map_of(&bytes), 42).unwrap();
        assert_eq!(r.targets(), 3);
        let sites = |t: DefId| r.sites(t).unwrap();
        let want: Vec<Site> = pairs
            .iter()
            .filter(|p| (p.0, p.1, p.2) == (0, 1, 2))
            .map(|p| Site { file: (p.3 as usize, p.4), reference: p.5, rank: p.6, ambiguous: p.7 })
            .collect();
        assert_eq!(sites(((0, 1), 2)), want);
        assert_eq!(sites(((3, 70_000), 4)), vec![Site { file: (1, 2), reference: 3, rank: 0, ambiguous: false }]);
        assert!(sites(((0, 1), 3)).is_empty());
        assert!(sites(((9, 9), 9)).is_empty());
        let foo: Vec<(FileKey, u32)> = r.wide_sites("foo").unwrap().iter().map(|s| (s.file, s.reference)).collect();
        assert_eq!(foo, [((0, 3), 4), ((0, 3), 9), ((2, 1), 0)]);
        assert!(r.wide_sites("bar").unwrap().is_empty());
        assert!(matches!(Resolved::parse(map_of(&bytes), 43), Err(NotRead::Stale)));
    }

    #[test]
    fn a_damaged_file_is_not_read() {
        let pairs: Vec<Pair> = vec![(0, 1, 2, 0, 5, 9, 0, false), (0, 1, 3, 0, 5, 10, 0, true)];
        let bytes = encode(&pairs, &[(5, 0, 1, 2)], 7);
        for at in 0..bytes.len() {
            let mut b = bytes.clone();
            b[at] ^= 0x41;
            assert!(Resolved::parse(map_of(&b), 7).is_err(), "byte {at} flipped still reads");
        }
        for len in 0..bytes.len() {
            assert!(Resolved::parse(map_of(&bytes[..len]), 7).is_err(), "cut to {len} still reads");
        }
    }
}

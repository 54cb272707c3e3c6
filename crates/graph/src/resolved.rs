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
//! file    := header, targets × target, lists
//! header  := "CGRESOLV", version u32, resolver u32, key u64,
//!            targets u64, lists' length u64, checksum u64 (xxh3 of the rest)
//! target  := segment u32, slot u32, definition u32, end u32
//! list    := site*   (a target's, from the previous target's end to its own)
//! site    := varint(segment delta), varint(slot, or its delta in the same segment),
//!            varint(reference index, or its delta in the same file) << 1 | ambiguous,
//!            varint(rank)
//! ```
//!
//! Targets are in increasing (segment, slot, definition); a target's sites in
//! increasing (segment, slot, reference index). A site is a reference (its
//! index among its file's references) whose resolution lists the target, at
//! `rank` in that list, and is `ambiguous` as the resolution says.

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
const HEADER: usize = 48;
const TARGET: usize = 16;
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
        let (targets, lists) = (u64_at(24), u64_at(32));
        let want = targets
            .checked_mul(TARGET as u64)
            .and_then(|t| t.checked_add(lists))
            .and_then(|n| n.checked_add(HEADER as u64));
        if want != Some(b.len() as u64) {
            return Err(NotRead::Corrupt("its lengths disagree with its size"));
        }
        if xxh3_64(&b[HEADER..]) != u64_at(40) {
            return Err(NotRead::Corrupt("checksum mismatch"));
        }
        let r = Resolved { targets: targets as usize, map };
        // Ends increasing and within the lists: a list is then always a
        // slice of them.
        let mut last = 0;
        for i in 0..r.targets {
            let end = r.entry(i).3 as u64;
            if end < last || end > lists {
                return Err(NotRead::Corrupt("a list ends outside the lists"));
            }
            last = end;
        }
        Ok(r)
    }

    fn entry(&self, i: usize) -> (u32, u32, u32, u32) {
        let b = &self.map.bytes()[HEADER + i * TARGET..HEADER + (i + 1) * TARGET];
        let at = |k: usize| u32::from_le_bytes(b[k..k + 4].try_into().unwrap_or_default());
        (at(0), at(4), at(8), at(12))
    }

    /// How many definitions some reference binds to.
    pub fn targets(&self) -> usize {
        self.targets
    }

    /// The references bound to `t`, in file order; `None` when its list does
    /// not decode (a file that passed its checksum but was not written by cg).
    pub fn sites(&self, t: DefId) -> Option<Vec<Site>> {
        let want = (t.0 .0 as u64, t.0 .1, t.1);
        let (mut lo, mut hi) = (0, self.targets);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let (s, f, d, _) = self.entry(mid);
            if (s as u64, f, d) < want {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == self.targets {
            return Some(Vec::new());
        }
        let (s, f, d, end) = self.entry(lo);
        if (s as u64, f, d) != want {
            return Some(Vec::new());
        }
        let start = if lo == 0 { 0 } else { self.entry(lo - 1).3 };
        let lists = &self.map.bytes()[HEADER + self.targets * TARGET..];
        let list = lists.get(start as usize..end as usize)?;
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
    type Part = Result<(Vec<Pair>, u64, u64), SnapshotError>;
    let parts: Vec<Part> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| -> Part {
                    let mut pairs: Vec<Pair> = Vec::new();
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
                            for (i, r) in f.refs.iter().enumerate() {
                                references += 1;
                                let res = g.resolve(&f, r)?;
                                bound += !res.defs.is_empty() as u64;
                                for (rank, d) in res.defs.iter().enumerate() {
                                    pairs.push((
                                        d.0 .0 as u16,
                                        d.0 .1,
                                        d.1,
                                        key.0 as u16,
                                        key.1,
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
                    Ok((pairs, references, bound))
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    });
    let mut pairs: Vec<Pair> = Vec::new();
    let mut stats = ResolveStats { files: files.len(), ..Default::default() };
    for part in parts {
        let (p, references, bound) = part?;
        stats.references += references;
        stats.bound += bound;
        if pairs.is_empty() {
            pairs = p;
        } else {
            pairs.extend(p);
        }
    }
    pairs.sort_unstable();
    pairs.dedup_by(|a, b| (a.0, a.1, a.2, a.3, a.4, a.5) == (b.0, b.1, b.2, b.3, b.4, b.5));
    stats.sites = pairs.len() as u64;
    let bytes = encode(&pairs, key);
    stats.targets = u64::from_le_bytes(bytes[24..32].try_into().unwrap_or_default());
    stats.bytes = bytes.len() as u64;
    Ok((bytes, stats))
}

fn encode(pairs: &[Pair], key: u64) -> Vec<u8> {
    let mut targets: Vec<u8> = Vec::new();
    let mut lists: Vec<u8> = Vec::new();
    let mut i = 0;
    let mut count = 0u64;
    while i < pairs.len() {
        let t = (pairs[i].0, pairs[i].1, pairs[i].2);
        let (mut seg, mut slot, mut reference) = (0u64, 0u64, 0u64);
        let mut first = true;
        while i < pairs.len() && (pairs[i].0, pairs[i].1, pairs[i].2) == t {
            let p = pairs[i];
            let (s, f, r) = (p.3 as u64, p.4 as u64, p.5 as u64);
            let same_seg = !first && s == seg;
            let same_file = same_seg && f == slot;
            put_varint(&mut lists, if first { s } else { s - seg });
            put_varint(&mut lists, if same_seg { f - slot } else { f });
            put_varint(&mut lists, (if same_file { r - reference } else { r }) << 1 | p.7 as u64);
            put_varint(&mut lists, p.6 as u64);
            (seg, slot, reference, first) = (s, f, r, false);
            i += 1;
        }
        targets.extend_from_slice(&(t.0 as u32).to_le_bytes());
        targets.extend_from_slice(&t.1.to_le_bytes());
        targets.extend_from_slice(&t.2.to_le_bytes());
        targets.extend_from_slice(&(lists.len() as u32).to_le_bytes());
        count += 1;
    }
    let mut out = Vec::with_capacity(HEADER + targets.len() + lists.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&RESOLVER.to_le_bytes());
    out.extend_from_slice(&key.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&(lists.len() as u64).to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&targets);
    out.extend_from_slice(&lists);
    let sum = xxh3_64(&out[HEADER..]);
    out[40..48].copy_from_slice(&sum.to_le_bytes());
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
        let bytes = encode(&pairs, 42);
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
        assert!(matches!(Resolved::parse(map_of(&bytes), 43), Err(NotRead::Stale)));
    }

    #[test]
    fn a_damaged_file_is_not_read() {
        let pairs: Vec<Pair> = vec![(0, 1, 2, 0, 5, 9, 0, false), (0, 1, 3, 0, 5, 10, 0, true)];
        let bytes = encode(&pairs, 7);
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

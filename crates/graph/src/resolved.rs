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
//! file    := header, body, sums
//! body    := targets × target, groups × group, sources × source, lists, calls
//! sums    := xxh3 u64 of each 4,096 bytes of the body (the last block shorter)
//! header  := "CGRESOLV", version u32, resolver u32, key u64, targets u64,
//!            groups u64, lists' length u64, xxh3 of the sums u64,
//!            sources u64, calls' length u64
//! target  := segment u32, slot u32, definition u32, end u32
//! group   := group id u64, end u32, 0 u32
//! source  := segment u32, slot u32, end u32, 0 u32
//! list    := site*   (from the previous entry's end to its own; the groups'
//!                     lists follow the targets')
//! site    := varint((reference index, or its delta in the same file) << 3
//!                   | ranked << 2 | new file << 1 | ambiguous),
//!            [new file: varint(segment delta), varint(slot, or its delta in the
//!             same segment)], [ranked: varint(rank)]
//! calls   := varint(files), files × (varint(segment delta), varint(slot, or
//!            its delta in the same segment)), call*   (a source's, from the
//!            previous source's end to its own; its definitions' files first)
//! call    := varint((reference index delta) << 2 | wide << 1 | ambiguous),
//!            [not wide: varint(n), n × (varint(file's position among the
//!             files), varint(definition))]
//! ```
//!
//! Targets are in increasing (segment, slot, definition), groups in increasing
//! id; a list's sites in increasing (segment, slot, reference index). A
//! target's site is a reference (its index among its file's references) whose
//! resolution lists the target, at `rank` in that list, and is `ambiguous` as
//! the resolution says. A resolution listing more than [`WIDE`] definitions (a
//! plain name bound to every definition of it in the project: a test script's
//! `foo`) is not stored under each definition for each reference: the
//! references whose resolutions list the same definitions, equally ambiguous,
//! form a group, listed once (its sites with rank 0); each of its definitions
//! lists the group as a site of segment [`GROUP`], slot the group's id,
//! reference index the definition's rank in the group's list.
//!
//! The same resolutions are kept the other way for calls, which `callees`
//! asks of a definition's own file: a source (a file with a call bound to
//! something) lists its bound calls by increasing reference index, each with
//! the definitions its resolution lists in order (or `wide`: more than
//! [`WIDE`], resolved as asked) and whether it is ambiguous; a call not listed
//! binds to nothing and is not ambiguous.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use xxhash_rust::xxh3::{xxh3_64, Xxh3};

use crate::extract::RefRole;
use crate::project::Index;
use crate::snapshot::mmap::Mapped;
use crate::snapshot::postings::{get_varint, put_varint};
use crate::snapshot::SnapshotError;
use crate::{DefId, FileKey, Graph};

/// The file, beside the segments.
pub const RESOLVED_FILE: &str = "resolved.cgr";
const MAGIC: &[u8; 8] = b"CGRESOLV";
const VERSION: u32 = 5;
/// Changes whenever resolution may answer differently: a file made by another
/// resolver is not read. (The crate's version is part of the key too.)
pub const RESOLVER: u32 = 3;
const HEADER: usize = 72;
/// The body is checked in blocks of this many bytes, each on first use.
const BLOCK: usize = 4096;
/// A site's flags, below its reference index: a rank follows; the site is in
/// another file than the one before (its segment and slot follow).
const RANKED: u64 = 4;
const NEW_FILE: u64 = 2;
const TARGET: usize = 16;
/// A resolution listing more definitions than this is stored once for the
/// references making it ([`GROUP`]), not under each definition for each.
pub const WIDE: usize = 16;
/// The segment of a site that stands for a group of references ([`WIDE`]):
/// its slot is the group's id, its reference index the rank.
pub const GROUP: usize = 0xFFFF;
/// A graph resolving files is dropped and made anew after this many files, so
/// that what it keeps (every file it read, every name's definitions) stays
/// bounded however large the tree.
const FILES_PER_GRAPH: usize = 16_384;
/// The files a graph keeps (those resolution read for their definitions,
/// imports and supertypes) are let go after this many files.
const FILES_KEPT: usize = 2_048;
/// The names' definitions a graph keeps are let go (with the files) past
/// this many names.
const NAMES_KEPT: usize = 20_000;
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

/// A call of a file bound to something, or ambiguous (a member of an unknown
/// receiver with too many candidates), as stored by its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredCall {
    /// Its index among the file's references.
    pub reference: u32,
    pub ambiguous: bool,
    /// The definitions its resolution lists, in order; `None` when they are
    /// more than [`WIDE`] (resolve it as asked).
    pub defs: Option<Vec<DefId>>,
}

/// A stored call's flag: its resolution lists more than [`WIDE`] definitions.
const WIDE_CALL: u64 = 2;

/// One call's resolution, as a source keeps it while its file is resolved:
/// reference index, definitions, ambiguous.
type Call = (u32, Vec<DefId>, bool);

/// A file's calls (by increasing reference index), encoded: the files their
/// definitions are in, by increasing (segment, slot), then each call naming
/// its definitions by their file's position in that table.
fn encode_calls(calls: &[Call]) -> Vec<u8> {
    let mut files: Vec<FileKey> =
        calls.iter().filter(|c| c.1.len() <= WIDE).flat_map(|c| c.1.iter().map(|d| d.0)).collect();
    files.sort_unstable();
    files.dedup();
    let mut list = Vec::new();
    put_varint(&mut list, files.len() as u64);
    let mut last: Option<FileKey> = None;
    for &(seg, slot) in &files {
        match last {
            Some((s, l)) if s == seg => {
                put_varint(&mut list, 0);
                put_varint(&mut list, (slot - l) as u64);
            }
            _ => {
                put_varint(&mut list, (seg - last.map_or(0, |l| l.0)) as u64);
                put_varint(&mut list, slot as u64);
            }
        }
        last = Some((seg, slot));
    }
    let mut last = 0;
    for (reference, defs, ambiguous) in calls {
        let wide = defs.len() > WIDE;
        put_varint(&mut list, (*reference as u64 - last) << 2 | if wide { WIDE_CALL } else { 0 } | *ambiguous as u64);
        last = *reference as u64;
        if !wide {
            put_varint(&mut list, defs.len() as u64);
            for &(file, def) in defs {
                put_varint(&mut list, files.binary_search(&file).unwrap_or_default() as u64);
                put_varint(&mut list, def as u64);
            }
        }
    }
    list
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
    /// References of a resolution wider than [`WIDE`], stored by group.
    pub wide: u64,
    pub targets: u64,
    /// The groups of those ([`GROUP`]).
    pub groups: u64,
    /// Bound calls stored by their file, and the files holding them.
    pub calls: u64,
    pub sources: u64,
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
    groups: usize,
    sources: usize,
    /// The targets' and groups' lists' length.
    lists: usize,
    /// Where the block sums start (the body is `HEADER..sums`).
    sums: usize,
    /// One bit per block: its sum checked already.
    checked: Box<[std::sync::atomic::AtomicU64]>,
    /// The index's segments: a list naming another segment (other than
    /// [`GROUP`]) does not decode (a file not written by cg).
    segments: usize,
}

/// Whether the index has a resolved graph made from its generation, as
/// [`Resolved::open`] finds it (the blocks are checked when questions read
/// them): `current`, `stale` (another generation's or resolver's), `none`,
/// or `damaged`.
pub fn state(index: &Index) -> &'static str {
    match Resolved::open(index) {
        Ok(_) => "current",
        Err(NotRead::Missing) => "none",
        Err(NotRead::Stale) => "stale",
        Err(NotRead::Corrupt(_)) => "damaged",
    }
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
        let mut r = Resolved::parse(map, generation_key(index))?;
        r.segments = index.segments.len();
        Ok(r)
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
        let (targets, groups, lists) = (u64_at(24), u64_at(32), u64_at(40));
        let (sources, calls) = (u64_at(56), u64_at(64));
        let body = targets
            .checked_add(groups)
            .and_then(|n| n.checked_add(sources))
            .and_then(|n| n.checked_mul(TARGET as u64))
            .and_then(|t| t.checked_add(lists))
            .and_then(|t| t.checked_add(calls));
        let want =
            body.and_then(|n| n.checked_add(n.div_ceil(BLOCK as u64) * 8)).and_then(|n| n.checked_add(HEADER as u64));
        let (Some(body), true) = (body, want == Some(b.len() as u64)) else {
            return Err(NotRead::Corrupt("its lengths disagree with its size"));
        };
        let sums = HEADER + body as usize;
        if xxh3_64(&b[sums..]) != u64_at(48) {
            return Err(NotRead::Corrupt("checksum mismatch"));
        }
        let blocks = (body as usize).div_ceil(BLOCK);
        let checked = (0..blocks.div_ceil(64)).map(|_| std::sync::atomic::AtomicU64::new(0)).collect();
        Ok(Resolved {
            targets: targets as usize,
            groups: groups as usize,
            sources: sources as usize,
            lists: lists as usize,
            sums,
            checked,
            segments: GROUP,
            map,
        })
    }

    /// `len` bytes of the body from `at` (counted from its start), each block
    /// they touch checked against its sum on first use; `None` past the body
    /// or when a block's sum does not hold.
    fn body(&self, at: usize, len: usize) -> Option<&[u8]> {
        use std::sync::atomic::Ordering::Relaxed;
        let b = self.map.bytes();
        let body = &b[HEADER..self.sums];
        let end = at.checked_add(len).filter(|&e| e <= body.len())?;
        for block in at / BLOCK..end.div_ceil(BLOCK).max(at / BLOCK + 1).min(body.len().div_ceil(BLOCK)) {
            let (word, bit) = (&self.checked[block / 64], 1u64 << (block % 64));
            if word.load(Relaxed) & bit != 0 {
                continue;
            }
            let bytes = &body[block * BLOCK..body.len().min((block + 1) * BLOCK)];
            let sum = u64::from_le_bytes(b[self.sums + block * 8..self.sums + block * 8 + 8].try_into().ok()?);
            if xxh3_64(bytes) != sum {
                return None;
            }
            word.fetch_or(bit, Relaxed);
        }
        Some(&body[at..end])
    }

    fn record(&self, i: usize) -> Option<&[u8]> {
        self.body(i * TARGET, TARGET)
    }

    fn u32_in(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or_default())
    }

    /// Entry `i` (targets, then groups, then sources): where its list ends.
    fn end(&self, i: usize) -> Option<u32> {
        let b = self.record(i)?;
        Some(Self::u32_in(b, if i < self.targets { 12 } else { 8 }))
    }

    fn target(&self, i: usize) -> Option<(u64, u32, u32)> {
        let b = self.record(i)?;
        Some((Self::u32_in(b, 0) as u64, Self::u32_in(b, 4), Self::u32_in(b, 8)))
    }

    fn group_id(&self, i: usize) -> Option<u64> {
        Some(u64::from_le_bytes(self.record(self.targets + i)?[..8].try_into().ok()?))
    }

    /// Every block's sum and every list, as `cg verify` checks them (each
    /// naming the index's segments only): the targets and the sources (files
    /// whose calls are kept), or what does not hold.
    pub fn verify(&self) -> Result<(usize, usize), &'static str> {
        if self.body(0, self.sums - HEADER).is_none() {
            return Err("a block's checksum does not hold");
        }
        for i in 0..self.targets + self.groups {
            if i < self.targets && self.target(i).is_none_or(|t| t.0 >= self.segments as u64) {
                return Err("a definition in no segment");
            }
            self.list(i).ok_or("a list of references does not decode")?;
        }
        let base = self.targets + self.groups;
        for i in 0..self.sources {
            let b = self.record(base + i).ok_or("a file's record does not read")?;
            let file = (Self::u32_in(b, 0) as usize, Self::u32_in(b, 4));
            self.calls(file).filter(|_| file.0 < self.segments).ok_or("a file's calls do not decode")?;
        }
        Ok((self.targets, self.sources))
    }

    /// How many definitions some reference binds to.
    pub fn targets(&self) -> usize {
        self.targets
    }

    /// The references bound to `t`, in file order, then the groups listing it
    /// (segment [`GROUP`]); `None` when its list does not decode (a file that
    /// passed its checksum but was not written by cg).
    pub fn sites(&self, t: DefId) -> Option<Vec<Site>> {
        let want = (t.0 .0 as u64, t.0 .1, t.1);
        let at = self.search(self.targets, |i| Some(self.target(i)?.cmp(&want)))?;
        at.map_or(Some(Vec::new()), |i| self.list(i))
    }

    /// The references of group `id` ([`GROUP`]), in file order.
    pub fn group_sites(&self, id: u32) -> Option<Vec<Site>> {
        let at = self.search(self.groups, |i| Some(self.group_id(i)?.cmp(&(id as u64))))?;
        at.map_or(Some(Vec::new()), |i| self.list(self.targets + i))
    }

    /// The calls of `file` bound to something (or ambiguous), by increasing
    /// reference index (none when none of its calls is); `None` when its list
    /// does not decode.
    pub fn calls(&self, file: FileKey) -> Option<Vec<StoredCall>> {
        let want = (file.0 as u64, file.1);
        let base = self.targets + self.groups;
        let at = self.search(self.sources, |i| {
            let b = self.record(base + i)?;
            Some((Self::u32_in(b, 0) as u64, Self::u32_in(b, 4)).cmp(&want))
        })?;
        let Some(i) = at else { return Some(Vec::new()) };
        let start = if i == 0 { 0 } else { self.end(base + i - 1)? } as usize;
        let end = self.end(base + i)? as usize;
        let calls_at = (base + self.sources) * TARGET + self.lists;
        let list = self.body(calls_at.checked_add(start)?, end.checked_sub(start)?)?;
        let mut pos = 0usize;
        let n = get_varint(list, &mut pos)?;
        let mut files: Vec<FileKey> = Vec::with_capacity(n.min(list.len() as u64) as usize);
        for _ in 0..n {
            let ds = get_varint(list, &mut pos)?;
            let sl = get_varint(list, &mut pos)?;
            let file = match files.last() {
                Some(&(seg, slot)) if ds == 0 => (seg, slot.checked_add(u32::try_from(sl).ok()?)?),
                last => (last.map_or(0, |l| l.0).checked_add(usize::try_from(ds).ok()?)?, u32::try_from(sl).ok()?),
            };
            if file.0 >= self.segments {
                return None;
            }
            files.push(file);
        }
        let mut out = Vec::new();
        let mut reference = 0u64;
        while pos < list.len() {
            let head = get_varint(list, &mut pos)?;
            reference = reference.checked_add(head >> 2)?;
            let defs = if head & WIDE_CALL != 0 {
                None
            } else {
                let n = get_varint(list, &mut pos)?;
                if n > WIDE as u64 {
                    return None;
                }
                let mut defs = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    let file = *files.get(usize::try_from(get_varint(list, &mut pos)?).ok()?)?;
                    defs.push((file, u32::try_from(get_varint(list, &mut pos)?).ok()?));
                }
                Some(defs)
            };
            out.push(StoredCall { reference: u32::try_from(reference).ok()?, ambiguous: head & 1 == 1, defs });
        }
        Some(out)
    }

    /// The first of `n` entries not less than the one sought, when it is it.
    fn search(&self, n: usize, cmp: impl Fn(usize) -> Option<std::cmp::Ordering>) -> Option<Option<usize>> {
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if cmp(mid)?.is_lt() {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Some((lo < n && cmp(lo)?.is_eq()).then_some(lo))
    }

    fn list(&self, i: usize) -> Option<Vec<Site>> {
        let start = if i == 0 { 0 } else { self.end(i - 1)? } as usize;
        let end = self.end(i)? as usize;
        let lists_at = (self.targets + self.groups + self.sources) * TARGET;
        let list = self.body(lists_at.checked_add(start)?, end.checked_sub(start)?)?;
        let mut out = Vec::new();
        let (mut pos, mut seg, mut slot, mut reference) = (0usize, 0u64, 0u64, 0u64);
        let mut first = true;
        while pos < list.len() {
            let head = get_varint(list, &mut pos)?;
            let new_file = first || head & NEW_FILE != 0;
            if new_file {
                let ds = get_varint(list, &mut pos)?;
                let sl = get_varint(list, &mut pos)?;
                let same_seg = !first && ds == 0;
                seg = seg.checked_add(ds)?;
                slot = if same_seg { slot.checked_add(sl)? } else { sl };
            }
            if new_file && seg >= self.segments as u64 && seg != GROUP as u64 {
                return None;
            }
            let rank = if head & RANKED != 0 { get_varint(list, &mut pos)? } else { 0 };
            reference = if new_file { head >> 3 } else { reference.checked_add(head >> 3)? };
            first = false;
            out.push(Site {
                file: (usize::try_from(seg).ok()?, u32::try_from(slot).ok()?),
                reference: u32::try_from(reference).ok()?,
                rank: u32::try_from(rank).ok()?,
                ambiguous: head & 1 == 1,
            });
        }
        Some(out)
    }
}

/// One stored pair, packed so that sorting orders it as the file does: the
/// target (segment 16 bits, slot 24, definition 24) above the site (segment
/// 16, slot 24, reference 19, rank 4, ambiguous 1). A wide resolution's
/// reference has its group's id above the site instead; a group listed by a
/// target is the site (GROUP, group id, rank, 0, ambiguous).
type Packed = u128;
const SLOT_MAX: u64 = (1 << 24) - 1;
const DEF_MAX: u64 = (1 << 24) - 1;
const REF_MAX: u64 = (1 << 19) - 1;

fn pack_site(seg: usize, slot: u32, reference: usize, rank: usize, ambiguous: bool) -> u64 {
    (seg as u64) << 48 | (slot as u64) << 24 | (reference as u64) << 5 | (rank as u64) << 1 | ambiguous as u64
}

fn unpack_site(site: u64) -> ((u64, u64, u64), u32, bool) {
    ((site >> 48, site >> 24 & SLOT_MAX, site >> 5 & REF_MAX), (site >> 1 & 15) as u32, site & 1 == 1)
}

fn pack_target(d: DefId) -> u64 {
    (d.0 .0 as u64) << 48 | (d.0 .1 as u64) << 24 | d.1 as u64
}

/// Resolves every reference of every current file of `index` on `threads`
/// threads, as question time resolves it, and returns the resolved graph's
/// bytes. `progress(done, total)` is called as files are done. A generation of
/// more segments, or a file of more slots, definitions or references, than
/// the file's fields hold is refused (questions resolve as they are asked).
pub fn resolve_all(
    index: &Index,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(Vec<u8>, ResolveStats), SnapshotError> {
    let key = generation_key(index);
    let files: Vec<FileKey> = index.files()?.iter().map(|f| (f.segment, f.slot_id)).collect();
    let too_large = |what: String| SnapshotError::Corrupt {
        path: index.root.clone(),
        what: format!("{what}: more than a resolved graph holds"),
    };
    if index.segments.len() >= GROUP {
        return Err(too_large(format!("{} segments", index.segments.len())));
    }
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let threads = threads.clamp(1, 64);
    // Per thread: the pairs, the wide references by the thread's own group
    // ids, those groups (definitions, ambiguous), each file's calls,
    // references and bound.
    type Part = Result<(Vec<Packed>, Vec<Packed>, Vec<Group>, Vec<Source>, u64, u64), SnapshotError>;
    let parts: Vec<Part> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| -> Part {
                    let (mut pairs, mut wide): (Vec<Packed>, Vec<Packed>) = Default::default();
                    let mut groups: Vec<Group> = Vec::new();
                    let mut sources: Vec<Source> = Vec::new();
                    let mut group_of: rustc_hash::FxHashMap<Group, u32> = Default::default();
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
                        } else if since_new % FILES_KEPT < CHUNK && since_new > 0 {
                            g.forget(NAMES_KEPT);
                        }
                        let chunk = &files[at..files.len().min(at + CHUNK)];
                        for &key in chunk {
                            let f = g.scan_file(key)?;
                            if key.1 as u64 > SLOT_MAX || f.refs.len() as u64 > REF_MAX + 1 {
                                return Err(too_large(format!("{}: {} references", f.path, f.refs.len())));
                            }
                            let mut calls: Vec<Call> = Vec::new();
                            for (i, r) in f.refs.iter().enumerate() {
                                references += 1;
                                let res = g.resolve(&f, r)?;
                                bound += !res.defs.is_empty() as u64;
                                if r.role == RefRole::Call && (!res.defs.is_empty() || res.ambiguous) {
                                    calls.push((i as u32, res.defs.clone(), res.ambiguous));
                                }
                                if res.defs.len() > WIDE {
                                    let group = (res.defs, res.ambiguous);
                                    let id = match group_of.get(&group) {
                                        Some(&id) => id,
                                        None => {
                                            let id = groups.len() as u32;
                                            group_of.insert(group.clone(), id);
                                            groups.push(group);
                                            id
                                        }
                                    };
                                    let site = pack_site(key.0, key.1, i, 0, false) as Packed;
                                    wide.push((id as Packed) << 64 | site);
                                    continue;
                                }
                                for (rank, &d) in res.defs.iter().enumerate() {
                                    if d.0 .1 as u64 > SLOT_MAX || d.1 as u64 > DEF_MAX {
                                        return Err(too_large(format!("definition {} of slot {}", d.1, d.0 .1)));
                                    }
                                    let site = pack_site(key.0, key.1, i, rank, res.ambiguous);
                                    pairs.push((pack_target(d) as Packed) << 64 | site as Packed);
                                }
                            }
                            if !calls.is_empty() {
                                sources.push((key, encode_calls(&calls), calls.len() as u64));
                            }
                        }
                        since_new += chunk.len();
                        let n = done.fetch_add(chunk.len(), Ordering::Relaxed) + chunk.len();
                        progress(n, files.len());
                    }
                    pairs.sort_unstable();
                    Ok((pairs, wide, groups, sources, references, bound))
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    });
    // The threads' groups made one (the same definitions, equally ambiguous,
    // are one group), each definition listing its groups.
    let (mut pairs, mut wide): (Vec<Vec<Packed>>, Vec<Vec<Packed>>) = Default::default();
    let mut group_of: rustc_hash::FxHashMap<Group, u32> = Default::default();
    let mut members: Vec<Packed> = Vec::new();
    let mut sources: Vec<Source> = Vec::new();
    let mut stats = ResolveStats { files: files.len(), ..Default::default() };
    for part in parts {
        let (p, mut w, groups, s, references, bound) = part?;
        sources.extend(s);
        stats.references += references;
        stats.bound += bound;
        pairs.push(p);
        let mut ids = Vec::with_capacity(groups.len());
        for group in groups {
            let next = group_of.len() as u32;
            let id = *group_of.entry(group.clone()).or_insert(next);
            if id == next {
                if id as u64 > SLOT_MAX || group.0.len() as u64 > REF_MAX + 1 {
                    return Err(too_large(format!("{} groups of {} definitions", id, group.0.len())));
                }
                for (rank, &d) in group.0.iter().enumerate() {
                    if d.0 .1 as u64 > SLOT_MAX || d.1 as u64 > DEF_MAX {
                        return Err(too_large(format!("definition {} of slot {}", d.1, d.0 .1)));
                    }
                    let site = pack_site(GROUP, id, rank, 0, group.1);
                    members.push((pack_target(d) as Packed) << 64 | site as Packed);
                }
            }
            ids.push(id);
        }
        for v in w.iter_mut() {
            *v = (ids[(*v >> 64) as usize] as Packed) << 64 | (*v & u64::MAX as Packed);
        }
        w.sort_unstable();
        wide.push(w);
    }
    members.sort_unstable();
    pairs.push(members);
    sources.sort_unstable_by_key(|s| s.0);
    let bytes = encode(merged(pairs), merged(wide), &sources, key, &mut stats);
    stats.bytes = bytes.len() as u64;
    Ok((bytes, stats))
}

/// A wide resolution's definitions, and whether it is ambiguous.
type Group = (Vec<DefId>, bool);
/// A file, its bound calls encoded ([`encode_calls`]), and how many they are.
type Source = (FileKey, Vec<u8>, u64);

/// The values of sorted lists, in order (each list's memory freed as the
/// merge passes it is not: they are dropped whole at the end).
fn merged(lists: Vec<Vec<Packed>>) -> impl Iterator<Item = Packed> {
    use std::cmp::Reverse;
    let mut heap: std::collections::BinaryHeap<Reverse<(Packed, usize, usize)>> =
        lists.iter().enumerate().filter_map(|(i, l)| l.first().map(|&v| Reverse((v, i, 0)))).collect();
    std::iter::from_fn(move || {
        let Reverse((v, i, at)) = heap.pop()?;
        if let Some(&next) = lists[i].get(at + 1) {
            heap.push(Reverse((next, i, at + 1)));
        }
        Some(v)
    })
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
    let reference = if same_file { r - lr } else { r };
    let flags = if rank != 0 { RANKED } else { 0 } | if same_file { 0 } else { NEW_FILE } | ambiguous as u64;
    put_varint(lists, reference << 3 | flags);
    if !same_file {
        put_varint(lists, if last.is_none() { s } else { s - ls });
        put_varint(lists, if same_seg { f - lf } else { f });
    }
    if rank != 0 {
        put_varint(lists, rank as u64);
    }
    *last = Some(site);
}

/// The file's bytes from its sorted pairs, its groups' sorted references and
/// its sources by increasing file.
fn encode(
    pairs: impl Iterator<Item = Packed>,
    wide: impl Iterator<Item = Packed>,
    sources: &[Source],
    key: u64,
    stats: &mut ResolveStats,
) -> Vec<u8> {
    let mut records: Vec<u8> = Vec::new();
    let mut lists: Vec<u8> = Vec::new();
    // Targets, then names: each entry's list ends where the next begins.
    let mut close = |records: &mut Vec<u8>, lists: &Vec<u8>, head: u64, target: bool| {
        if target {
            records.extend_from_slice(&((head >> 48) as u32).to_le_bytes());
            records.extend_from_slice(&((head >> 24 & SLOT_MAX) as u32).to_le_bytes());
            records.extend_from_slice(&((head & DEF_MAX) as u32).to_le_bytes());
            records.extend_from_slice(&(lists.len() as u32).to_le_bytes());
            stats.targets += 1;
        } else {
            records.extend_from_slice(&head.to_le_bytes());
            records.extend_from_slice(&(lists.len() as u32).to_le_bytes());
            records.extend_from_slice(&0u32.to_le_bytes());
            stats.groups += 1;
        }
    };
    for (list, target) in [(Box::new(pairs) as Box<dyn Iterator<Item = Packed>>, true), (Box::new(wide), false)] {
        let mut head: Option<u64> = None;
        let mut last: Option<(u64, u64, u64)> = None;
        for v in list {
            let (h, site) = ((v >> 64) as u64, v as u64);
            let (at, rank, ambiguous) = unpack_site(site);
            if head != Some(h) {
                if let Some(prev) = head {
                    close(&mut records, &lists, prev, target);
                }
                head = Some(h);
                last = None;
            } else if last == Some(at) {
                // The same reference again (a lower rank came first).
                continue;
            }
            put_site(&mut lists, &mut last, at, rank, ambiguous);
            if target {
                stats.sites += 1;
            } else {
                stats.wide += 1;
            }
        }
        if let Some(prev) = head {
            close(&mut records, &lists, prev, target);
        }
    }
    let mut calls: Vec<u8> = Vec::new();
    for ((seg, slot), list, n) in sources {
        stats.calls += n;
        calls.extend_from_slice(list);
        records.extend_from_slice(&(*seg as u32).to_le_bytes());
        records.extend_from_slice(&slot.to_le_bytes());
        records.extend_from_slice(&(calls.len() as u32).to_le_bytes());
        records.extend_from_slice(&0u32.to_le_bytes());
        stats.sources += 1;
    }
    let (targets, names) = (stats.targets, stats.groups);
    let mut out = Vec::with_capacity(HEADER + records.len() + lists.len() + calls.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&RESOLVER.to_le_bytes());
    out.extend_from_slice(&key.to_le_bytes());
    out.extend_from_slice(&targets.to_le_bytes());
    out.extend_from_slice(&names.to_le_bytes());
    out.extend_from_slice(&(lists.len() as u64).to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&stats.sources.to_le_bytes());
    out.extend_from_slice(&(calls.len() as u64).to_le_bytes());
    out.extend_from_slice(&records);
    out.extend_from_slice(&lists);
    out.extend_from_slice(&calls);
    let sums: Vec<u8> = out[HEADER..].chunks(BLOCK).flat_map(|block| xxh3_64(block).to_le_bytes()).collect();
    out.extend_from_slice(&sums);
    out[48..56].copy_from_slice(&xxh3_64(&sums).to_le_bytes());
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

/// The opened index's resolved graph, read on first use ([`Resolved::open`]);
/// while there is none for this generation, looked for again at most once a
/// second (a server making it in the background, [`keep_current`], writes it
/// while the index stays open).
#[derive(Default)]
pub(crate) struct KeptResolved {
    found: std::sync::OnceLock<Arc<Resolved>>,
    missed_at: std::sync::Mutex<Option<std::time::Instant>>,
}

impl KeptResolved {
    pub(crate) fn get(&self, index: &Index) -> Option<Arc<Resolved>> {
        if let Some(r) = self.found.get() {
            return Some(r.clone());
        }
        let mut missed = self.missed_at.lock().unwrap_or_else(|p| p.into_inner());
        if missed.is_some_and(|at| at.elapsed() < std::time::Duration::from_secs(1)) {
            return None;
        }
        match Resolved::open(index) {
            Ok(r) => Some(self.found.get_or_init(|| Arc::new(r)).clone()),
            Err(_) => {
                *missed = Some(std::time::Instant::now());
                None
            }
        }
    }
}

/// How often [`keep_current`] looks at the index.
const POLL: std::time::Duration = std::time::Duration::from_secs(2);
/// A generation younger than this is left to settle (updates come in bursts:
/// a save, a checkout, a rebase).
const SETTLE: std::time::Duration = std::time::Duration::from_secs(3);

/// Keeps the resolved graph of the project at `root` made from its current
/// generation, on a thread of its own, for as long as the process runs: each
/// generation that has none and has settled is resolved on `threads` threads
/// and written, unless a newer generation replaced it meanwhile. A failure is
/// said once per generation on stderr and not tried again for it; questions
/// are answered at question time until the file is there.
pub fn keep_current(root: PathBuf, threads: usize) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new().name("cg-resolve".into()).spawn(move || {
        let mut given_up: Option<u64> = None;
        loop {
            std::thread::sleep(POLL);
            let manifest = root.join(crate::project::DIR).join(crate::project::MANIFEST);
            let settled = std::fs::metadata(&manifest)
                .and_then(|m| m.modified())
                .is_ok_and(|at| at.elapsed().is_ok_and(|age| age >= SETTLE));
            if !settled {
                continue;
            }
            let Ok(index) = Index::open(&root) else { continue };
            let key = generation_key(&index);
            if given_up == Some(key) || index.segments.is_empty() {
                continue;
            }
            if Resolved::open(&index).is_ok() {
                continue;
            }
            let started = std::time::Instant::now();
            let made = resolve_all(&index, threads, &|_, _| {});
            let current = Index::open(&root).is_ok_and(|now| generation_key(&now) == key);
            let outcome = match made {
                Ok(_) if !current => continue,
                Ok((bytes, stats)) => write(&index, &bytes).map(|_| stats).map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            match outcome {
                Ok(stats) => eprintln!(
                    "cg: resolved {} references of {} files in {:.1?}: refs, callers and callees answer from them",
                    stats.references,
                    stats.files,
                    started.elapsed()
                ),
                Err(e) => {
                    eprintln!("cg: could not keep the resolved graph ({e}); questions resolve as they are asked");
                    given_up = Some(key);
                }
            }
        }
    })
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

    fn pair(t: DefId, file: FileKey, reference: usize, rank: usize, ambiguous: bool) -> Packed {
        (pack_target(t) as Packed) << 64 | pack_site(file.0, file.1, reference, rank, ambiguous) as Packed
    }

    fn wide_pair(group: u32, file: FileKey, reference: usize) -> Packed {
        (group as Packed) << 64 | pack_site(file.0, file.1, reference, 0, false) as Packed
    }

    fn encoded(lists: Vec<Vec<Packed>>, wide: Vec<Vec<Packed>>, key: u64) -> Vec<u8> {
        encoded_with(lists, wide, &[], key)
    }

    fn encoded_with(lists: Vec<Vec<Packed>>, wide: Vec<Vec<Packed>>, calls: &[Source], key: u64) -> Vec<u8> {
        let sorted = |mut l: Vec<Vec<Packed>>| {
            l.iter_mut().for_each(|l| l.sort_unstable());
            merged(l)
        };
        encode(sorted(lists), sorted(wide), calls, key, &mut ResolveStats::default())
    }

    /// A file's calls, each (reference, definitions, ambiguous), encoded.
    fn source(file: FileKey, calls: &[(u32, Vec<DefId>, bool)]) -> Source {
        (file, encode_calls(calls), calls.len() as u64)
    }

    #[test]
    fn calls_decode_by_their_file_as_stored() {
        let wide: Vec<DefId> = (0..=WIDE as u32).map(|i| ((0, i), 0)).collect();
        let calls = [
            source(
                (0, 3),
                &[
                    (0, vec![((0, 3), 1)], false),
                    (7, vec![((2, 90_000), 4), ((0, 1), 0)], true),
                    (9, vec![], true),
                    (10, vec![((2, 7), 300), ((0, 3), 1), ((2, 90_000), 5)], false),
                ],
            ),
            source((0, 70_000), &[(5, wide, true), (6, vec![((1, 2), 3)], false)]),
            source((2, 1), &[(300_000, vec![((0, 0), 0)], false)]),
        ];
        let pairs = vec![pair(((0, 3), 1), (0, 3), 0, 0, false)];
        let bytes = encoded_with(vec![pairs], vec![vec![wide_pair(0, (0, 70_000), 5)]], &calls, 5);
        let r = Resolved::parse(map_of(&bytes), 5).unwrap();
        let call = |reference, defs: Option<Vec<DefId>>, ambiguous| StoredCall { reference, ambiguous, defs };
        assert_eq!(
            r.calls((0, 3)).unwrap(),
            [
                call(0, Some(vec![((0, 3), 1)]), false),
                call(7, Some(vec![((2, 90_000), 4), ((0, 1), 0)]), true),
                call(9, Some(vec![]), true),
                call(10, Some(vec![((2, 7), 300), ((0, 3), 1), ((2, 90_000), 5)]), false),
            ]
        );
        assert_eq!(r.calls((0, 70_000)).unwrap(), [call(5, None, true), call(6, Some(vec![((1, 2), 3)]), false)]);
        assert_eq!(r.calls((2, 1)).unwrap(), [call(300_000, Some(vec![((0, 0), 0)]), false)]);
        assert_eq!(r.calls((0, 4)).unwrap(), []);
        assert_eq!(r.calls((3, 0)).unwrap(), []);
        // The by-target lists read as before.
        assert_eq!(r.sites(((0, 3), 1)).unwrap(), [Site { file: (0, 3), reference: 0, rank: 0, ambiguous: false }]);
        assert_eq!(r.group_sites(0).unwrap().len(), 1);
        for at in HEADER..r.sums {
            let mut b = bytes.clone();
            b[at] ^= 0x41;
            let damaged = Resolved::parse(map_of(&b), 5).unwrap();
            assert_eq!(damaged.calls((0, 3)), None, "byte {at} flipped still reads");
        }
    }

    #[test]
    fn lists_decode_to_the_pairs_encoded() {
        let t = ((0, 1), 2);
        let want = vec![
            Site { file: (0, 5), reference: 9, rank: 0, ambiguous: false },
            Site { file: (0, 5), reference: 11, rank: 1, ambiguous: true },
            Site { file: (0, 7), reference: 3, rank: 0, ambiguous: false },
            Site { file: (2, 0), reference: 0, rank: 0, ambiguous: false },
            Site { file: (2, 0), reference: 1000, rank: 3, ambiguous: true },
        ];
        let mut first: Vec<Packed> =
            want.iter().map(|s| pair(t, s.file, s.reference as usize, s.rank as usize, s.ambiguous)).collect();
        // Split over two threads' lists, and one reference twice: the lower
        // rank is kept.
        let second = vec![
            first.pop().unwrap(),
            pair(t, (0, 7), 3, 2, false),
            pair(((1, 0), 0), (0, 0), 0, 0, false),
            pair(((3, 70_000), 4), (1, 2), 3, 0, false),
        ];
        first.push(pair(t, (2, 0), 1000, 5, true));
        // Group 7 lists `t` at rank 20.
        let wide = vec![vec![wide_pair(7, (0, 3), 9), wide_pair(7, (2, 1), 0)], vec![wide_pair(7, (0, 3), 4)]];
        let member = vec![(pack_target(t) as Packed) << 64 | pack_site(GROUP, 7, 20, 0, true) as Packed];
        let bytes = encoded(vec![first, second, member], wide, 42);
        let r = Resolved::parse(map_of(&bytes), 42).unwrap();
        assert_eq!(r.targets(), 3);
        let sites = |t: DefId| r.sites(t).unwrap();
        let mut with_group = want.clone();
        with_group.push(Site { file: (GROUP, 7), reference: 20, rank: 0, ambiguous: true });
        assert_eq!(sites(t), with_group);
        assert_eq!(sites(((3, 70_000), 4)), vec![Site { file: (1, 2), reference: 3, rank: 0, ambiguous: false }]);
        assert!(sites(((0, 1), 3)).is_empty());
        assert!(sites(((9, 9), 9)).is_empty());
        let seven: Vec<(FileKey, u32)> = r.group_sites(7).unwrap().iter().map(|s| (s.file, s.reference)).collect();
        assert_eq!(seven, [((0, 3), 4), ((0, 3), 9), ((2, 1), 0)]);
        assert!(r.group_sites(8).unwrap().is_empty());
        assert!(matches!(Resolved::parse(map_of(&bytes), 43), Err(NotRead::Stale)));
    }

    #[test]
    fn a_damaged_file_is_not_read() {
        let pairs = vec![pair(((0, 1), 2), (0, 5), 9, 0, false), pair(((0, 1), 3), (0, 5), 10, 0, true)];
        let bytes = encoded(vec![pairs], vec![vec![wide_pair(3, (0, 1), 2)]], 7);
        for at in 0..bytes.len() {
            let mut b = bytes.clone();
            b[at] ^= 0x41;
            // Refused when opened (header, sums), or when the block is first
            // read (the body: one block here).
            if let Ok(r) = Resolved::parse(map_of(&b), 7) {
                assert!(at >= HEADER && at < r.sums, "byte {at} of the header or sums flipped still opens");
                for t in [((0, 1), 2), ((0, 1), 3)] {
                    assert_eq!(r.sites(t), None, "byte {at} flipped still reads");
                }
                assert_eq!(r.group_sites(3), None, "byte {at} flipped still reads");
            }
        }
        for len in 0..bytes.len() {
            assert!(Resolved::parse(map_of(&bytes[..len]), 7).is_err(), "cut to {len} still reads");
        }
    }

    /// Pseudo-random numbers, each below the `n` asked, from the seed `x`.
    fn xorshift(mut x: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        }
    }

    /// Random files' calls: each file's calls decode to what was stored.
    #[test]
    fn random_calls_decode_to_what_was_stored() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for round in 0..20 {
            let mut want: std::collections::BTreeMap<FileKey, Vec<Call>> = Default::default();
            for _ in 0..(5 + round * 3) {
                let file: FileKey = (next(3) as usize, next(70_000) as u32);
                let mut calls: Vec<Call> = Vec::new();
                let mut reference = next(50) as u32;
                for _ in 0..1 + next(30) {
                    let n = if next(10) == 0 { WIDE as u64 + 1 + next(5) } else { next(4) };
                    let defs: Vec<DefId> =
                        (0..n).map(|_| ((next(3) as usize, next(70_000) as u32), next(2_000) as u32)).collect();
                    calls.push((reference, defs, next(2) == 1));
                    reference += 1 + next(600) as u32;
                }
                want.insert(file, calls);
            }
            let sources: Vec<Source> = want.iter().map(|(&f, c)| source(f, c)).collect();
            let bytes = encoded_with(Vec::new(), Vec::new(), &sources, 3);
            let r = Resolved::parse(map_of(&bytes), 3).unwrap();
            for (file, calls) in &want {
                let expected: Vec<StoredCall> = calls
                    .iter()
                    .map(|(reference, defs, ambiguous)| StoredCall {
                        reference: *reference,
                        ambiguous: *ambiguous,
                        defs: (defs.len() <= WIDE).then(|| defs.clone()),
                    })
                    .collect();
                assert_eq!(r.calls(*file).unwrap(), expected, "round {round}, file {file:?}");
            }
        }
    }

    /// Random pairs over a few threads' lists: every target's list decodes to
    /// its sites, in order, each reference once with its lowest rank.
    #[test]
    fn random_pairs_decode_to_what_a_brute_force_collects() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for round in 0..20 {
            let mut lists: Vec<Vec<Packed>> = vec![Vec::new(); 1 + round % 3];
            type Sites = std::collections::BTreeMap<(FileKey, u32), (u32, bool)>;
            let mut want: std::collections::BTreeMap<DefId, Sites> = Default::default();
            for _ in 0..(50 + round * 40) {
                let t: DefId = ((next(3) as usize, next(5) as u32), next(4) as u32);
                let file: FileKey = (next(4) as usize, next(70_000) as u32);
                let (reference, rank, ambiguous) = (next(300_000) as u32, next(16) as u32, next(2) == 1);
                let l = next(lists.len() as u64) as usize;
                lists[l].push(pair(t, file, reference as usize, rank as usize, ambiguous));
                let e = want.entry(t).or_default().entry((file, reference)).or_insert((rank, ambiguous));
                // Sorted, the lower rank (then not ambiguous) comes first.
                if (rank, ambiguous) < *e {
                    *e = (rank, ambiguous);
                }
            }
            let bytes = encoded(lists, Vec::new(), 1);
            let r = Resolved::parse(map_of(&bytes), 1).unwrap();
            assert_eq!(r.targets(), want.len());
            for (t, sites) in &want {
                let got = r.sites(*t).unwrap();
                let expected: Vec<Site> = sites
                    .iter()
                    .map(|(&(file, reference), &(rank, ambiguous))| Site { file, reference, rank, ambiguous })
                    .collect();
                assert_eq!(got, expected, "round {round}, target {t:?}");
            }
        }
    }
}

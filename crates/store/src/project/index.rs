//! An opened index: the manifest and its memory-mapped segments. Opening reads
//! `manifest.json` and each segment's header; nothing else is touched until a
//! query needs it.

use std::path::{Path, PathBuf};

use fst::Streamer;

use super::{read_manifest, Manifest, ProjectError, DIR};
use crate::snapshot::{Segment, SlotRec, SlotSet, SnapshotError};

pub struct Index {
    pub root: PathBuf,
    pub manifest: Option<Manifest>,
    pub segments: Vec<Segment>,
    /// Per segment: the slots whose files a later update superseded or removed.
    /// Every query, listing and count leaves them out.
    pub superseded: Vec<SlotSet>,
    /// The first `base` segments hold disjoint, increasing path ranges (a full
    /// build or a compaction); later ones were written by updates and may hold
    /// any path, so results from them are merged by path.
    pub base: usize,
    /// What the layers above keep for this opened index between questions,
    /// one value per type, made on first use ([`Index::kept`]: the graph's
    /// `go.mod` files, common names' definitions, type levels and large files'
    /// facts). Dropped with the index, so an update's new index starts afresh.
    kept: std::sync::Mutex<Vec<std::sync::Arc<dyn std::any::Any + Send + Sync>>>,
    /// Every current file's path lower-cased, made on first use.
    paths: std::sync::OnceLock<PathTable>,
    /// [`Index::totals`] when there is no manifest to read them from.
    totals: std::sync::OnceLock<(u64, u64)>,
    /// Every current file by its file name, made on first use.
    file_names: std::sync::OnceLock<FilesByName>,
}

/// Every current file by its file name (`store.h` → its files, in path
/// order): what resolving an include or a `require` by its path's end asks.
pub type FilesByName = rustc_hash::FxHashMap<Box<str>, Vec<(usize, u32)>>;

/// Every current file's path, ASCII lower-cased, each followed by `\n`, in
/// path order: what scanning all paths for words reads (one pass of `memmem`
/// over the text instead of a lower-cased copy per path per question).
pub struct PathTable {
    pub text: Vec<u8>,
    /// Where each path starts in `text`.
    pub starts: Vec<u32>,
    /// Each path's file: (segment, first slot).
    pub keys: Vec<(usize, u32)>,
}

impl PathTable {
    /// The number of the path holding byte `at` of the text.
    pub fn path_at(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s as usize <= at).saturating_sub(1)
    }

    /// Path `i`, lower-cased, without its `\n`.
    pub fn path(&self, i: usize) -> &[u8] {
        let start = self.starts[i] as usize;
        let end = self.starts.get(i + 1).map_or(self.text.len(), |&e| e as usize);
        &self.text[start..end - 1]
    }
}

/// A current file of the index: where its first slot is.
#[derive(Clone, Copy)]
pub struct IndexedFile<'a> {
    pub segment: usize,
    pub slot_id: u32,
    pub slot: SlotRec,
    pub path: &'a str,
    pub seg: &'a Segment,
}

impl IndexedFile<'_> {
    /// Every slot id of the file (one per part).
    pub fn slot_ids(&self) -> std::ops::Range<u32> {
        self.slot_id..self.slot_id + crate::snapshot::slots_for(self.slot.line_count)
    }
}

/// Counts over the whole index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexStats {
    pub files: u64,
    pub lines: u64,
    /// Distinct terms, case-insensitively.
    pub terms: u64,
    pub occurrences: u64,
    pub segments: u64,
    pub bytes_on_disk: u64,
}

impl Index {
    /// The value of type `T` kept for this opened index, made with
    /// `T::default()` the first time it is asked for: how a layer above keeps
    /// its caches with the index they describe without the index knowing them.
    pub fn kept<T: std::any::Any + Send + Sync + Default>(&self) -> std::sync::Arc<T> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = kept.iter().find_map(|k| k.clone().downcast::<T>().ok()) {
            return found;
        }
        let made = std::sync::Arc::new(T::default());
        kept.push(made.clone());
        made
    }

    /// Opens the index of the project at `root` (its `.codegraph/manifest.json`).
    ///
    /// A writer deletes the segment files no generation refers to right after it
    /// switches the manifest; a reader that read the previous manifest just before
    /// may then miss a file. It reads the manifest again and retries.
    pub fn open(root: &Path) -> Result<Index, ProjectError> {
        let mut attempt = 0;
        loop {
            let manifest = read_manifest(root)?;
            match Index::open_segments(root, &manifest.segments) {
                Ok(mut index) => {
                    for (seg, name) in index.segments.iter().zip(&manifest.segments) {
                        let slots = manifest.superseded.get(name).map_or(&[][..], |s| s.as_slice());
                        if slots.last().is_some_and(|&last| last >= seg.slot_count) {
                            return Err(ProjectError::BadManifest {
                                path: root.join(DIR).join(super::MANIFEST),
                                message: format!(
                                    "superseded slot {} of {name:?}, which has {} slots",
                                    slots.last().copied().unwrap_or(0),
                                    seg.slot_count
                                ),
                            });
                        }
                    }
                    index.superseded = manifest
                        .segments
                        .iter()
                        .map(|name| {
                            manifest.superseded.get(name).map(|s| s.iter().copied().collect()).unwrap_or_default()
                        })
                        .collect();
                    index.base = manifest.base_segments.min(manifest.segments.len());
                    index.manifest = Some(manifest);
                    return Ok(index);
                }
                Err(ProjectError::Snapshot(SnapshotError::Io { source, .. }))
                    if source.kind() == std::io::ErrorKind::NotFound && attempt < 20 =>
                {
                    attempt += 1;
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Opens the named segment files of `root/.codegraph/`.
    pub fn open_segments(root: &Path, names: &[String]) -> Result<Index, ProjectError> {
        Index::open_in(&root.join(DIR), root, names)
    }

    /// Opens the named segment files of `dir` for the project at `root` (`cg bench`
    /// indexes into a temporary folder).
    pub fn open_in(dir: &Path, root: &Path, names: &[String]) -> Result<Index, ProjectError> {
        let segments = names.iter().map(|n| Segment::open(&dir.join(n))).collect::<Result<Vec<_>, SnapshotError>>()?;
        Ok(Index::from_segments(root, segments))
    }

    /// An index of opened segments that hold disjoint, increasing path ranges
    /// (a full build), with nothing superseded.
    pub fn from_segments(root: &Path, segments: Vec<Segment>) -> Index {
        let superseded = vec![SlotSet::default(); segments.len()];
        // Canonical, so line text can check that a file lies under it.
        let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        Index {
            root,
            manifest: None,
            base: segments.len(),
            segments,
            superseded,
            kept: Default::default(),
            paths: Default::default(),
            totals: Default::default(),
            file_names: Default::default(),
        }
    }

    /// Whether a slot of a segment holds a current file (not superseded).
    #[inline]
    pub fn is_live(&self, segment: usize, slot: u32) -> bool {
        !self.superseded.get(segment).is_some_and(|s| s.contains(slot))
    }

    /// Whether every slot of a segment holds a current file.
    pub fn all_live(&self, segment: usize) -> bool {
        self.superseded.get(segment).is_none_or(|s| s.is_empty())
    }

    /// Whether results of several segments must be merged by path (update
    /// segments exist).
    pub fn has_updates(&self) -> bool {
        self.segments.len() > self.base
    }

    /// Counts current files, lines and occurrences, and distinct terms (a union of
    /// the segments' term dictionaries, which keep the terms of superseded files
    /// until a compaction).
    pub fn stats(&self) -> Result<IndexStats, SnapshotError> {
        let mut stats = IndexStats { segments: self.segments.len() as u64, ..IndexStats::default() };
        let mut maps = Vec::with_capacity(self.segments.len());
        (stats.files, stats.lines, stats.occurrences) = self.live_counts()?;
        for s in &self.segments {
            stats.bytes_on_disk += s.byte_len();
            maps.push(s.term_fst()?);
        }
        stats.terms = match maps.len() {
            0 => 0,
            1 => maps[0].len() as u64,
            _ => {
                let mut op = fst::map::OpBuilder::new();
                for m in &maps {
                    op.push(m);
                }
                let mut union = op.union();
                let mut n = 0u64;
                while union.next().is_some() {
                    n += 1;
                }
                n
            }
        };
        Ok(stats)
    }

    /// Current files and their term occurrences: the manifest's, or, for an
    /// index opened from segments alone (`cg bench`), counted from the slot
    /// records once per opened index (what BM25 over files needs, without
    /// [`Index::stats`]' union of every segment's dictionary).
    pub fn totals(&self) -> Result<(u64, u64), SnapshotError> {
        if let Some(m) = &self.manifest {
            return Ok((m.files, m.occurrences));
        }
        if let Some(&t) = self.totals.get() {
            return Ok(t);
        }
        let (files, _, occurrences) = self.live_counts()?;
        Ok(*self.totals.get_or_init(|| (files, occurrences)))
    }

    /// Files, lines and term occurrences of the current files (first slots).
    fn live_counts(&self) -> Result<(u64, u64, u64), SnapshotError> {
        let (mut files, mut lines, mut occurrences) = (0, 0, 0);
        for (i, s) in self.segments.iter().enumerate() {
            for slot in 0..s.slot_count {
                let rec = s.slot(slot)?;
                if rec.part == 0 && self.is_live(i, slot) {
                    files += 1;
                    lines += rec.line_count as u64;
                    occurrences += rec.occurrences as u64;
                }
            }
        }
        Ok((files, lines, occurrences))
    }

    /// [`PathTable`] of the current files (made once per opened index).
    pub fn path_table(&self) -> Result<&PathTable, SnapshotError> {
        if let Some(t) = self.paths.get() {
            return Ok(t);
        }
        let files = self.files()?;
        let mut t = PathTable {
            text: Vec::with_capacity(files.iter().map(|f| f.path.len() + 1).sum()),
            starts: Vec::with_capacity(files.len()),
            keys: Vec::with_capacity(files.len()),
        };
        for f in &files {
            t.starts.push(t.text.len() as u32);
            t.text.extend(f.path.bytes().map(|b| b.to_ascii_lowercase()));
            t.text.push(b'\n');
            t.keys.push((f.segment, f.slot_id));
        }
        Ok(self.paths.get_or_init(|| t))
    }

    /// [`FilesByName`] of the current files (made once per opened index: a
    /// question resolving a C include used to list all 136k files of the
    /// four budget corpora, ~80 ms).
    pub fn files_by_name(&self) -> Result<&FilesByName, SnapshotError> {
        if let Some(m) = self.file_names.get() {
            return Ok(m);
        }
        let mut map = FilesByName::default();
        for f in self.files()? {
            let name = f.path.rsplit('/').next().unwrap_or(f.path);
            map.entry(name.into()).or_default().push((f.segment, f.slot_id));
        }
        Ok(self.file_names.get_or_init(|| map))
    }

    /// Every current file once (its first slot), in path order.
    pub fn files(&self) -> Result<Vec<IndexedFile<'_>>, SnapshotError> {
        self.files_under("")
    }

    /// The current files under the folder `folder` (relative, no trailing `/`; ""
    /// is everything), in path order: a binary search per segment for the start of
    /// the folder's contiguous range of paths.
    pub fn files_under(&self, folder: &str) -> Result<Vec<IndexedFile<'_>>, SnapshotError> {
        let prefix = if folder.is_empty() { String::new() } else { format!("{folder}/") };
        let mut out = Vec::new();
        for (i, seg) in self.segments.iter().enumerate() {
            for s in seg.first_slot_at_or_after(&prefix)?..seg.slot_count {
                let slot = seg.slot(s)?;
                let path = seg.slot_path(&slot)?;
                if !path.starts_with(&prefix) {
                    break;
                }
                if slot.part == 0 && self.is_live(i, s) {
                    out.push(IndexedFile { segment: i, slot_id: s, slot, path, seg });
                }
            }
        }
        if self.has_updates() {
            out.sort_by(|a, b| a.path.cmp(b.path));
        }
        Ok(out)
    }

    /// The current files directly in the folder `folder` (relative, no
    /// trailing `/`; "" is the root), in path order: [`Index::files_under`]
    /// without its subfolders, each subfolder's contiguous range of paths
    /// passed with a binary search (a Go import names a folder whose
    /// subfolders may hold thousands of files).
    pub fn files_in(&self, folder: &str) -> Result<Vec<IndexedFile<'_>>, SnapshotError> {
        let prefix = if folder.is_empty() { String::new() } else { format!("{folder}/") };
        let mut out = Vec::new();
        for (i, seg) in self.segments.iter().enumerate() {
            let mut s = seg.first_slot_at_or_after(&prefix)?;
            while s < seg.slot_count {
                let slot = seg.slot(s)?;
                let path = seg.slot_path(&slot)?;
                let Some(name) = path.strip_prefix(prefix.as_str()) else { break };
                if let Some(cut) = name.find('/') {
                    // Past `folder/sub/..`: the first path after them is at or
                    // after `folder/sub0` ('0' follows '/').
                    let after = format!("{}0", &path[..prefix.len() + cut]);
                    s = seg.first_slot_at_or_after(&after)?.max(s + 1);
                    continue;
                }
                if slot.part == 0 && self.is_live(i, s) {
                    out.push(IndexedFile { segment: i, slot_id: s, slot, path, seg });
                }
                s += 1;
            }
        }
        if self.has_updates() {
            out.sort_by(|a, b| a.path.cmp(b.path));
        }
        Ok(out)
    }

    /// The current file at `path` (relative, `/`-separated): newest segments
    /// first, a hash probe in each ([`Segment::slot_of_path`]).
    pub fn locate(&self, path: &str) -> Result<Option<IndexedFile<'_>>, SnapshotError> {
        for (i, seg) in self.segments.iter().enumerate().rev() {
            if let Some(s) = seg.slot_of_path(path)? {
                if self.is_live(i, s) {
                    let slot = seg.slot(s)?;
                    let found = seg.slot_path(&slot)?;
                    return Ok(Some(IndexedFile { segment: i, slot_id: s, slot, path: found, seg }));
                }
            }
        }
        Ok(None)
    }

    /// Checks every checksum and record of every segment.
    pub fn verify(&self) -> Result<(), SnapshotError> {
        self.segments.iter().try_for_each(Segment::verify)
    }
}

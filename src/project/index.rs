//! An opened index: the manifest and its memory-mapped segments. Opening reads
//! `manifest.json` and each segment's header; nothing else is touched until a
//! query needs it.

use std::path::{Path, PathBuf};

use fst::Streamer;

use super::{read_manifest, Manifest, ProjectError, DIR};
use crate::snapshot::{Segment, SlotRec, SnapshotError};

pub struct Index {
    pub root: PathBuf,
    pub manifest: Option<Manifest>,
    pub segments: Vec<Segment>,
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
    /// Opens the index of the project at `root` (its `.codegraph/manifest.json`).
    pub fn open(root: &Path) -> Result<Index, ProjectError> {
        let manifest = read_manifest(root)?;
        let mut index = Index::open_segments(root, &manifest.segments)?;
        index.manifest = Some(manifest);
        Ok(index)
    }

    /// Opens the named segment files of `root/.codegraph/`.
    pub fn open_segments(root: &Path, names: &[String]) -> Result<Index, ProjectError> {
        Index::open_in(&root.join(DIR), root, names)
    }

    /// Opens the named segment files of `dir` for the project at `root` (`cg bench`
    /// indexes into a temporary folder).
    pub fn open_in(dir: &Path, root: &Path, names: &[String]) -> Result<Index, ProjectError> {
        let segments = names.iter().map(|n| Segment::open(&dir.join(n))).collect::<Result<Vec<_>, SnapshotError>>()?;
        Ok(Index { root: root.to_path_buf(), manifest: None, segments })
    }

    /// Counts files, lines, distinct terms (a union of the segments' term
    /// dictionaries) and occurrences.
    pub fn stats(&self) -> Result<IndexStats, SnapshotError> {
        let mut stats = IndexStats { segments: self.segments.len() as u64, ..IndexStats::default() };
        let mut maps = Vec::with_capacity(self.segments.len());
        for s in &self.segments {
            stats.files += s.file_count as u64;
            stats.lines += s.line_count;
            stats.occurrences += s.occurrence_count;
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

    /// Every indexed file once (its first slot), in path order: segment, slot, path.
    pub fn files(&self) -> impl Iterator<Item = Result<(&Segment, SlotRec, &str), SnapshotError>> + '_ {
        self.segments.iter().flat_map(|seg| {
            (0..seg.slot_count).filter_map(move |i| match seg.slot(i) {
                Ok(slot) if slot.part != 0 => None,
                Ok(slot) => Some(seg.slot_path(&slot).map(|path| (seg, slot, path))),
                Err(e) => Some(Err(e)),
            })
        })
    }

    /// Checks every checksum and record of every segment.
    pub fn verify(&self) -> Result<(), SnapshotError> {
        self.segments.iter().try_for_each(Segment::verify)
    }
}

//! Copying files out of a segment, for compaction: the live files of old segments
//! go into new ones without reading or parsing their sources again. Each file's
//! terms are recovered by inverting the posting lists (one pass over every
//! variant); line types are copied as bytes and structure archives as they are
//! (decompressed from their blocks, to be blocked again by the writer).
//! A copied file written by a [`super::SegmentWriter`] gives the same bytes as the
//! extracted file it came from.

use super::{unpack, FileEntry, FileMeta, Segment, SnapshotError, StructureLoc, LINES_PER_SLOT};

/// The files copied out of one segment.
pub struct SegmentCopy<'a> {
    /// Exact term of each variant id.
    pub terms: Vec<&'a str>,
    pub files: Vec<CopiedFile<'a>>,
}

/// One file copied out of a segment.
pub struct CopiedFile<'a> {
    segment: &'a Segment,
    pub path: &'a str,
    pub meta: FileMeta,
    pub line_count: u32,
    /// Packed two to a byte, as stored.
    pub line_types: &'a [u8],
    /// Its line marks, as stored.
    pub line_marks: &'a [u8],
    structure: StructureLoc,
    /// Every (variant, line) of the file, grouped by variant: `lines` holds the
    /// lines, `runs` each variant with the end of its run in `lines`.
    lines: Vec<u32>,
    runs: Vec<(u32, u32)>,
}

impl<'a> CopiedFile<'a> {
    /// Calls `f` with the file as a writer takes it (its structure archive read
    /// out of its block).
    pub fn with_entry<R>(&self, f: impl FnOnce(&FileEntry<'_>) -> R) -> Result<R, SnapshotError> {
        let (path, meta, line_count, line_types, line_marks) =
            (self.path, self.meta, self.line_count, self.line_types, self.line_marks);
        self.segment.with_archive(self.structure, |structure| {
            f(&FileEntry { path, meta, line_count, line_types, line_marks, structure })
        })
    }

    /// Each distinct term with its increasing lines.
    pub fn terms<'s>(&'s self, copy: &'s SegmentCopy<'a>) -> impl Iterator<Item = (&'s str, &'s [u32])> + 's {
        let mut start = 0usize;
        self.runs.iter().map(move |&(v, end)| {
            let lines = &self.lines[start..end as usize];
            start = end as usize;
            (copy.terms[v as usize], lines)
        })
    }
}

impl Segment {
    /// Copies the files whose first slot passes `keep`, in slot order.
    pub fn copy_files(&self, keep: impl Fn(u32) -> bool) -> Result<SegmentCopy<'_>, SnapshotError> {
        const NONE: u32 = u32::MAX;
        let mut slot_file = vec![NONE; self.slot_count as usize];
        let mut slot_part = vec![0u16; self.slot_count as usize];
        let mut files: Vec<CopiedFile<'_>> = Vec::new();
        let mut current = NONE;
        for i in 0..self.slot_count {
            let slot = self.slot(i)?;
            if slot.part == 0 {
                current = if keep(i) {
                    files.push(CopiedFile {
                        segment: self,
                        path: self.slot_path(&slot)?,
                        meta: slot.meta,
                        line_count: slot.line_count,
                        line_types: self.line_type_bytes(&slot)?,
                        line_marks: self.line_mark_bytes(&slot)?,
                        structure: slot.structure,
                        lines: Vec::new(),
                        runs: Vec::new(),
                    });
                    files.len() as u32 - 1
                } else {
                    NONE
                };
            }
            slot_file[i as usize] = current;
            slot_part[i as usize] = slot.part;
        }
        let mut terms = Vec::with_capacity(self.variant_count as usize);
        for v in 0..self.variant_count {
            let rec = self.variant(v)?;
            terms.push(self.str_at(rec.term)?);
            let mut it = self.posting_iter(&rec)?;
            for p in it.by_ref() {
                let (slot, line_id) = unpack(p);
                let Some(&f) = slot_file.get(slot as usize) else {
                    return Err(self.corrupt("posting of a slot out of range"));
                };
                if f == NONE {
                    continue;
                }
                let file = &mut files[f as usize];
                file.lines.push(slot_part[slot as usize] as u32 * LINES_PER_SLOT + line_id);
                match file.runs.last_mut() {
                    Some((last, end)) if *last == v => *end += 1,
                    _ => file.runs.push((v, file.lines.len() as u32)),
                }
            }
            if it.error().is_some() {
                return Err(self.corrupt("postings malformed"));
            }
        }
        Ok(SegmentCopy { terms, files })
    }
}

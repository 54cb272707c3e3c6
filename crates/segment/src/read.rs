//! Reading a segment in place. Opening reads the header, the section table and the
//! footer magic: O(1) in the file's size. Every later read is a bounds-checked
//! slice of the map; bad offsets become [`SnapshotError::Corrupt`].

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use roaring::RoaringBitmap;
use xxhash_rust::xxh3::xxh3_64;

use super::mmap::Mapped;
use super::packed;
use super::postings::{self, Merged, PostingIter};
use super::structure::{self, FileStructure, StructureLoc};
use super::*;
use crate::extract::LineType;

enum Bytes {
    Mapped(Mapped),
    Owned(Vec<u8>),
}

/// One opened segment file.
pub struct Segment {
    path: PathBuf,
    bytes: Bytes,
    sections: Vec<Range<usize>>,
    checksums: Vec<u64>,
    pub slot_count: u32,
    pub fold_count: u32,
    pub variant_count: u32,
    pub file_count: u32,
    pub line_count: u64,
    pub occurrence_count: u64,
    /// The header's count of definitions (see [`Segment::definitions_total`]).
    definitions_total: u64,
    term_fst_checked: OnceLock<Option<&'static str>>,
    grams_checked: OnceLock<Option<&'static str>>,
    defs_checked: OnceLock<Option<&'static str>>,
    relations_checked: OnceLock<Option<&'static str>>,
    subwords_checked: OnceLock<Option<&'static str>>,
    vectors_checked: OnceLock<Option<&'static str>>,
    /// Where the block sums are (absolute), and the bytes they cover: `0..sums.start`.
    sums: Range<usize>,
    /// The block sums' own checksum (footer), checked on first use.
    sums_checksum: u64,
    /// One bit per block: checked already. Made on first use (opening stays O(1)).
    checked_blocks: OnceLock<Result<Box<[AtomicU64]>, ()>>,
    /// The structure archives read last (frame offset, bytes), most recent
    /// first: a file's parts, and a question going back and forth between a few.
    last_archives: Mutex<Vec<(u64, Arc<Vec<u8>>)>>,
    /// The structure section's dictionary, prepared on first use.
    structure_dict: OnceLock<Result<structure::Dict, ()>>,
    /// Where each slot's lines start among the segment's lines, for
    /// [`postings::LineBits`]: made on first use (`None`: too many lines).
    line_starts: OnceLock<Result<Option<Box<[u32]>>, String>>,
    /// Cleared line sets left by earlier queries, for the next.
    line_bits: Mutex<Vec<postings::LineBits>>,
    /// The slots that are not their file's first (`slot`, its `part`), in
    /// slot order: made on first use, so that the file of a posting's slot is
    /// known without reading its record (few files have more than one slot).
    later_parts: OnceLock<Result<LaterParts, String>>,
    /// Each file's first slot by its path's hash, made on first use: a path's
    /// slot in one probe instead of a binary search comparing ~17 paths (a
    /// question's import resolution looks up dozens of candidate paths).
    path_slots: OnceLock<Result<rustc_hash::FxHashMap<u64, u32>, String>>,
    /// Where the fields of the folds' and the variants' records lie, read
    /// from their tables' headers on first use (`None`: not such a table).
    fold_layout: LayoutCell,
    variant_layout: LayoutCell,
    /// The blocked sections' indexes, read on first use, with the blocks
    /// decompressed so far (`None`: not a blocked section).
    string_blocks: BlocksCell,
    line_type_blocks: BlocksCell,
    def_blocks: BlocksCell,
}

/// A blocked section's index once read (see [`super::blocks`]).
type BlocksCell = OnceLock<Option<super::blocks::Index>>;

/// A packed table's layout once read (`None`: the section is not the table).
type LayoutCell = OnceLock<Option<packed::Layout>>;

/// A packed table: its section, fields, based fields and records (the
/// header's count plus the end record).
type Table = (Section, usize, usize, u32);

/// `(slot, part)` of each slot that is not its file's first, in slot order.
type LaterParts = Box<[(u32, u16)]>;

/// At most this many lines in a segment for [`postings::LineBits`] (32 MiB a
/// set); a segment holds about a line per 40 bytes of source.
const MAX_LINE_BITS: u32 = 1 << 28;
/// Cleared line sets kept per segment.
const KEPT_LINE_BITS: usize = 8;

/// A fold: the case-insensitive key shared by one or more exact terms (variants).
/// The key is not stored; it is the fold of any of its variants.
#[derive(Clone, Copy, Debug)]
pub struct FoldRec {
    pub first_variant: u32,
    pub variant_count: u32,
    /// Distinct (slot, line) pairs over all variants.
    pub occurrences: u64,
}

/// One exact term and where its postings are: two disjoint lists, those on other
/// lines, then (right after) those on definition lines.
#[derive(Clone, Copy, Debug)]
pub struct VariantRec {
    /// Its id in the segment (its record's index).
    pub id: u32,
    pub term: (u32, u32),
    /// The list of postings on other lines than definitions.
    pub postings: (u64, u32),
    pub def_postings_len: u32,
    /// Postings of both lists.
    pub occurrences: u32,
}

/// One slot: a file, or one part of a file longer than 65,535 lines.
#[derive(Clone, Copy, Debug)]
pub struct SlotRec {
    pub path: (u32, u32),
    /// What the record says about the whole file.
    pub meta: FileMeta,
    pub line_types_off: u64,
    pub structure: StructureLoc,
    pub line_count: u32,
    pub part: u16,
    /// Postings of the file: (exact term, line) pairs.
    pub occurrences: u32,
}

impl SlotRec {
    /// The file line number of this slot's line id.
    pub fn line_number(&self, line_id: u32) -> u32 {
        self.part as u32 * LINES_PER_SLOT + line_id
    }
}

fn u32_at(b: &[u8], off: usize) -> Option<u32> {
    b.get(off..off.checked_add(4)?).and_then(|s| s.try_into().ok()).map(u32::from_le_bytes)
}

fn u64_at(b: &[u8], off: usize) -> Option<u64> {
    b.get(off..off.checked_add(8)?).and_then(|s| s.try_into().ok()).map(u64::from_le_bytes)
}

fn u16_at(b: &[u8], off: usize) -> Option<u16> {
    b.get(off..off.checked_add(2)?).and_then(|s| s.try_into().ok()).map(u16::from_le_bytes)
}

/// Structure archives a segment keeps decompressed.
const CACHED_ARCHIVES: usize = 8;

impl Segment {
    /// Maps and opens a segment file.
    pub fn open(path: &Path) -> Result<Segment, SnapshotError> {
        let io = |source| SnapshotError::Io { path: path.to_path_buf(), source };
        // Not through a symlink, not blocking on a FIFO named as a segment.
        let file = crate::safe_fs::open_regular(path).map_err(io)?;
        let map = Mapped::open(&file).map_err(io)?;
        Segment::parse(path.to_path_buf(), Bytes::Mapped(map))
    }

    /// Opens a segment held in memory (tests, fuzzing).
    pub fn from_vec(name: &str, bytes: Vec<u8>) -> Result<Segment, SnapshotError> {
        Segment::parse(PathBuf::from(name), Bytes::Owned(bytes))
    }

    fn parse(path: PathBuf, bytes: Bytes) -> Result<Segment, SnapshotError> {
        let b: &[u8] = match &bytes {
            Bytes::Mapped(m) => m.bytes(),
            Bytes::Owned(v) => v,
        };
        let corrupt = |what: &str| SnapshotError::Corrupt { path: path.clone(), what: what.to_string() };
        if b.len() < 8 || &b[..8] != MAGIC {
            return Err(SnapshotError::NotASnapshot { path });
        }
        if b.len() < HEADER_LEN + FOOTER_LEN {
            return Err(corrupt("truncated header"));
        }
        let version = u32_at(b, 8).unwrap_or(0);
        if version != FORMAT_VERSION {
            return Err(SnapshotError::Version { path, found: version, expected: FORMAT_VERSION });
        }
        if &b[b.len() - 8..] != FOOTER_MAGIC {
            return Err(corrupt("truncated: footer missing"));
        }
        let count = u32_at(b, 12).unwrap_or(0) as usize;
        if count != Section::ALL.len() {
            return Err(corrupt("unexpected section count"));
        }
        let body_end = b.len() - FOOTER_LEN;
        // The block sums: one u64 per CHECK_BLOCK bytes before them, ending at the footer.
        let sums_at = u64_at(b, 48).unwrap_or(0) as usize;
        let blocks = sums_at.div_ceil(CHECK_BLOCK);
        if sums_at < HEADER_LEN || blocks.checked_mul(8).and_then(|n| n.checked_add(sums_at)) != Some(body_end) {
            return Err(corrupt("block sums out of bounds"));
        }
        let sums_checksum = u64_at(b, body_end).unwrap_or(0);
        let mut sections = Vec::with_capacity(count);
        let mut checksums = Vec::with_capacity(count);
        for (i, expected) in Section::ALL.iter().enumerate() {
            let e = HEADER_LEN + i * SECTION_ENTRY_LEN;
            let kind = u32_at(b, e).ok_or_else(|| corrupt("section table"))?;
            let off = u64_at(b, e + 8).ok_or_else(|| corrupt("section table"))? as usize;
            let len = u64_at(b, e + 16).ok_or_else(|| corrupt("section table"))? as usize;
            let sum = u64_at(b, e + 24).ok_or_else(|| corrupt("section table"))?;
            let end = off.checked_add(len).filter(|&end| end <= body_end);
            if kind != *expected as u32 || end.is_none_or(|end| end > sums_at) || off < HEADER_LEN {
                return Err(corrupt(&format!("{} section out of bounds", expected.name())));
            }
            sections.push(off..off + len);
            checksums.push(sum);
        }
        let header = |off| u32_at(b, off).unwrap_or(0);
        let (slot_count, fold_count, variant_count, file_count) = (header(16), header(20), header(24), header(28));
        let (line_count, occurrence_count) = (u64_at(b, 32).unwrap_or(0), u64_at(b, 40).unwrap_or(0));
        let definitions_total = u64_at(b, 56).unwrap_or(0);
        let segment = Segment {
            slot_count,
            fold_count,
            variant_count,
            file_count,
            line_count,
            occurrence_count,
            definitions_total,
            path,
            sections,
            checksums,
            term_fst_checked: OnceLock::new(),
            grams_checked: OnceLock::new(),
            defs_checked: OnceLock::new(),
            relations_checked: OnceLock::new(),
            subwords_checked: OnceLock::new(),
            vectors_checked: OnceLock::new(),
            sums: sums_at..body_end,
            sums_checksum,
            checked_blocks: OnceLock::new(),
            last_archives: Mutex::new(Vec::new()),
            structure_dict: OnceLock::new(),
            line_starts: OnceLock::new(),
            line_bits: Mutex::new(Vec::new()),
            later_parts: OnceLock::new(),
            string_blocks: OnceLock::new(),
            line_type_blocks: OnceLock::new(),
            def_blocks: OnceLock::new(),
            path_slots: OnceLock::new(),
            fold_layout: OnceLock::new(),
            variant_layout: OnceLock::new(),
            bytes,
        };
        // The header and section table (the first block) are checked now: the
        // counts and offsets read from them above must be the ones written.
        segment.check(0..HEADER_LEN + count * SECTION_ENTRY_LEN)?;
        // The fixed-record sections must hold the counts the header states.
        let fits = |s: Section, n: u32, width: usize| segment.section(s).len() >= n as usize * width;
        if !fits(Section::Slots, segment.slot_count, SLOT_LEN) || segment.slot_count > MAX_SLOTS_PER_SEGMENT {
            return Err(segment.corrupt("record counts exceed their sections"));
        }
        Ok(segment)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn all(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Mapped(m) => m.bytes(),
            Bytes::Owned(v) => v,
        }
    }

    /// The checksum of the segment's block checksums: what its bytes are,
    /// in eight bytes.
    pub fn fingerprint(&self) -> u64 {
        self.sums_checksum
    }

    pub fn byte_len(&self) -> u64 {
        self.all().len() as u64
    }

    /// The length of a section, in bytes.
    pub fn section_len(&self, s: Section) -> u64 {
        self.sections.get(s as usize - 1).map_or(0, |r| r.len() as u64)
    }

    fn section(&self, s: Section) -> &[u8] {
        let r = self.sections[s as usize - 1].clone();
        self.all().get(r).unwrap_or(&[])
    }

    pub fn corrupt(&self, what: &str) -> SnapshotError {
        SnapshotError::Corrupt { path: self.path.clone(), what: what.to_string() }
    }

    /// Checks the blocks that bytes `range` (absolute) lie in against their sums,
    /// each block once per opened segment: a read never trusts a byte whose block
    /// does not match (a probe with 16 KiB blocks measured p50 0.7 µs per exact query
    /// for hashing every block it touches, unmemoized; these blocks are 4 KiB).
    fn check(&self, range: Range<usize>) -> Result<(), SnapshotError> {
        if range.is_empty() {
            return Ok(());
        }
        if range.end > self.sums.start {
            return Err(self.corrupt("read past the checked bytes"));
        }
        let all = self.all();
        let bits = self
            .checked_blocks
            .get_or_init(|| {
                let sums = all.get(self.sums.clone()).ok_or(())?;
                if xxh3_64(sums) != self.sums_checksum {
                    return Err(());
                }
                Ok((0..self.sums.start.div_ceil(CHECK_BLOCK).div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
            })
            .as_ref()
            .map_err(|_| self.corrupt("block sums checksum mismatch"))?;
        for block in range.start / CHECK_BLOCK..=(range.end - 1) / CHECK_BLOCK {
            let (word, bit) = (&bits[block / 64], 1u64 << (block % 64));
            if word.load(Ordering::Relaxed) & bit != 0 {
                continue;
            }
            let start = block * CHECK_BLOCK;
            let bytes = &all[start..(start + CHECK_BLOCK).min(self.sums.start)];
            let stored = u64_at(all, self.sums.start + block * 8);
            if stored != Some(xxh3_64(bytes)) {
                return Err(self.corrupt(&format!("block {block} checksum mismatch")));
            }
            word.fetch_or(bit, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Checks the blocks of bytes `range` of a section (clamped to the section, so
    /// a record out of bounds still gets its own error from the read after).
    fn check_in(&self, s: Section, range: Range<usize>) -> Result<(), SnapshotError> {
        let r = &self.sections[s as usize - 1];
        let (start, end) =
            (r.start.saturating_add(range.start).min(r.end), r.start.saturating_add(range.end).min(r.end));
        self.check(start..end)
    }

    /// A blocked section's index (see [`super::blocks`]), read on first use.
    fn block_index<'a>(&'a self, cell: &'a BlocksCell, s: Section) -> Result<&'a super::blocks::Index, SnapshotError> {
        cell.get_or_init(|| {
            let b = self.section(s);
            let count = u32::from_le_bytes(b.get(..4)?.try_into().ok()?) as usize;
            self.check_in(s, 0..count.checked_add(1)?.checked_mul(16)?.checked_add(8)?).ok()?;
            super::blocks::Index::parse(b)
        })
        .as_ref()
        .ok_or_else(|| self.corrupt(&format!("{} block index", s.name())))
    }

    /// The bytes of a blocked section from uncompressed offset `at` to the end
    /// of its block (an item never crosses a block), decompressing the block on
    /// its first read.
    fn blocked_from<'a>(&'a self, cell: &'a BlocksCell, s: Section, at: u64) -> Result<&'a [u8], SnapshotError> {
        let index = self.block_index(cell, s)?;
        let (i, range) =
            index.block_of(at).ok_or_else(|| self.corrupt(&format!("{} offset out of bounds", s.name())))?;
        let block = match index.cached(i) {
            Some(b) => b,
            None => {
                self.check_in(s, index.frame(i))?;
                index.block(self.section(s), i).ok_or_else(|| self.corrupt(&format!("{} block malformed", s.name())))?
            }
        };
        Ok(&block[(at - range.start) as usize..])
    }

    /// Bytes `at..at + len` of a blocked section (within one item).
    fn blocked<'a>(&'a self, cell: &'a BlocksCell, s: Section, at: u64, len: usize) -> Result<&'a [u8], SnapshotError> {
        if len == 0 {
            return Ok(&[]);
        }
        let rest = self.blocked_from(cell, s, at)?;
        rest.get(..len).ok_or_else(|| self.corrupt(&format!("{} read crosses a block", s.name())))
    }

    /// Decompresses every block of the blocked sections (for `cg verify`):
    /// each frame holds its block.
    pub fn verify_blocks(&self) -> Result<(), SnapshotError> {
        for (cell, s) in [
            (&self.string_blocks, Section::Strings),
            (&self.line_type_blocks, Section::LineTypes),
            (&self.def_blocks, Section::Defs),
        ] {
            let index = self.block_index(cell, s)?;
            for i in 0..index.block_count() {
                self.blocked_from(cell, s, index.range(i).start)?;
            }
        }
        Ok(())
    }

    /// The term dictionary. The fst crate may panic on corrupted bytes, so the
    /// first use checks the section's checksum (once per opened segment: a few
    /// hundred microseconds for a large segment, never on open).
    pub fn term_fst(&self) -> Result<fst::Map<&[u8]>, SnapshotError> {
        self.checked(&self.term_fst_checked, &[Section::TermFst])?;
        fst::Map::new(self.section(Section::TermFst)).map_err(|e| self.corrupt(&format!("term fst: {e}")))
    }

    /// The trigram dictionary, checked on first use like [`Segment::term_fst`].
    pub fn gram_fst(&self) -> Result<fst::Map<&[u8]>, SnapshotError> {
        self.checked(&self.grams_checked, &[Section::GramFst, Section::Grams, Section::GramPostings])?;
        fst::Map::new(self.section(Section::GramFst)).map_err(|e| self.corrupt(&format!("gram fst: {e}")))
    }

    /// The subword index's dictionary, checked on first use like
    /// [`Segment::term_fst`].
    pub fn subword_fst(&self) -> Result<fst::Map<&[u8]>, SnapshotError> {
        self.checked(&self.subwords_checked, &[Section::SubwordFst, Section::Subwords])?;
        fst::Map::new(self.section(Section::SubwordFst)).map_err(|e| self.corrupt(&format!("subword fst: {e}")))
    }

    /// The segment's vectors, if a model embedded its definitions. The first use
    /// checks the section's checksum (once per opened segment).
    pub fn vectors(&self) -> Result<Option<super::vectors::VectorTable<'_>>, SnapshotError> {
        self.checked(&self.vectors_checked, &[Section::Vectors])?;
        super::vectors::VectorTable::parse(self.section(Section::Vectors), self.slot_count)
            .ok_or_else(|| self.corrupt("vectors malformed"))
    }

    /// The list of the compound terms holding `subword` (lower case), if any.
    pub fn subword_list(&self, subword: &str) -> Result<Option<super::subwords::SubwordList<'_>>, SnapshotError> {
        let Some(offset) = self.subword_fst()?.get(subword) else {
            return Ok(None);
        };
        super::subwords::SubwordList::at(self.section(Section::Subwords), offset as usize)
            .map(Some)
            .ok_or_else(|| self.corrupt("subword list malformed"))
    }

    /// Appends the entries of a subword list that name definitions, each as
    /// `id << 4 | parts` (see [`super::subwords::SubwordList::def_ids`]).
    pub fn subword_def_ids(
        &self,
        list: &super::subwords::SubwordList<'_>,
        out: &mut Vec<u64>,
    ) -> Result<(), SnapshotError> {
        list.def_ids(self.variant_count, out).ok_or_else(|| self.corrupt("subword list malformed"))
    }

    /// `(variant id, names a definition)` of each entry of a subword list.
    pub fn subword_entries(&self, list: &super::subwords::SubwordList<'_>) -> Result<Vec<(u32, bool)>, SnapshotError> {
        list.entries(self.variant_count).ok_or_else(|| self.corrupt("subword list malformed"))
    }

    /// Where the definitions named `name` are in the `defs` section: `(offset,
    /// count)`, `(0, 0)` for none. The table's sections are checked whole on
    /// first use, like the dictionaries.
    fn def_group(&self, name: &str) -> Result<(usize, usize), SnapshotError> {
        self.checked(&self.defs_checked, &[Section::DefFst, Section::Defs, Section::DefStrings])?;
        let map = fst::Map::new(self.section(Section::DefFst)).map_err(|e| self.corrupt(&format!("def fst: {e}")))?;
        Ok(map.get(name).map_or((0, 0), |v| ((v >> 24) as usize, (v & 0xff_ffff) as usize)))
    }

    /// The records of a group from its first (to the end of its block).
    fn def_records(&self, offset: usize, count: usize) -> Result<&[u8], SnapshotError> {
        match count {
            0 => Ok(&[]),
            _ => self.blocked_from(&self.def_blocks, Section::Defs, offset as u64),
        }
    }

    /// How many definitions of this segment are named `name` (exactly).
    pub fn definition_count(&self, name: &str) -> Result<usize, SnapshotError> {
        Ok(self.def_group(name)?.1)
    }

    /// How many definitions the segment holds (its files', superseded ones
    /// included).
    pub fn definitions_total(&self) -> u64 {
        self.definitions_total
    }

    /// The definitions named `name` (exactly), in slot and index order.
    pub fn definitions(&self, name: &str) -> Result<Vec<super::defs::DefEntry>, SnapshotError> {
        let (offset, count) = self.def_group(name)?;
        let defs =
            super::defs::read_group(self.def_records(offset, count)?, self.section(Section::DefStrings), 0, count)
                .ok_or_else(|| self.corrupt("definition records malformed"))?;
        if defs.iter().any(|d| d.slot >= self.slot_count) {
            return Err(self.corrupt("definition of a slot out of range"));
        }
        Ok(defs)
    }

    /// [`Segment::definitions`] without their strings (`kind`, `parent`,
    /// `returns`, `scope` empty), each with the ids to read them by
    /// [`Segment::fill_definition`]: for a scan of many that keeps few.
    pub fn definition_heads(
        &self,
        name: &str,
    ) -> Result<Vec<(super::defs::DefEntry, super::defs::StringIds)>, SnapshotError> {
        let (offset, count) = self.def_group(name)?;
        let defs = super::defs::read_heads(self.def_records(offset, count)?, 0, count)
            .ok_or_else(|| self.corrupt("definition records malformed"))?;
        if defs.iter().any(|(d, _)| d.slot >= self.slot_count) {
            return Err(self.corrupt("definition of a slot out of range"));
        }
        Ok(defs)
    }

    /// A definition of [`Segment::definition_heads`] with its strings.
    pub fn fill_definition(
        &self,
        e: super::defs::DefEntry,
        ids: super::defs::StringIds,
    ) -> Result<super::defs::DefEntry, SnapshotError> {
        super::defs::fill_strings(self.section(Section::DefStrings), e, ids)
            .ok_or_else(|| self.corrupt("definition records malformed"))
    }

    /// The edges of `name` of a relation in this segment, in slot and line
    /// order: a type's supertypes or subtypes (each `inherit` reference whose
    /// receiver is the subtype), or the files of a package or namespace
    /// (format/README "Relations").
    pub fn relation_edges(
        &self,
        name: &str,
        relation: super::defs::Relation,
    ) -> Result<Vec<super::defs::Edge>, SnapshotError> {
        self.relation_edge_ids(name, relation)?
            .into_iter()
            .map(|e| Ok(super::defs::Edge { slot: e.slot, line: e.line, other: self.edge_string(e.other)? }))
            .collect()
    }

    /// [`Segment::relation_edges`] without their strings (see
    /// [`Segment::edge_string`]).
    pub fn relation_edge_ids(
        &self,
        name: &str,
        relation: super::defs::Relation,
    ) -> Result<Vec<super::defs::EdgeId>, SnapshotError> {
        let sections = [Section::RelationFst, Section::Relations, Section::DefStrings];
        self.checked(&self.relations_checked, &sections)?;
        let map = fst::Map::new(self.section(Section::RelationFst))
            .map_err(|e| self.corrupt(&format!("relation fst: {e}")))?;
        let Some(v) = map.get(super::defs::relation_key(name, relation)) else { return Ok(Vec::new()) };
        let (offset, count) = ((v >> 24) as usize, (v & 0xff_ffff) as usize);
        let edges = super::defs::read_edge_ids(self.section(Section::Relations), offset, count)
            .ok_or_else(|| self.corrupt("relation records malformed"))?;
        if edges.iter().any(|e| e.slot >= self.slot_count) {
            return Err(self.corrupt("relation edge of a slot out of range"));
        }
        Ok(edges)
    }

    /// The other end of an edge of [`Segment::relation_edge_ids`].
    pub fn edge_string(&self, other: u64) -> Result<String, SnapshotError> {
        super::defs::def_string(self.section(Section::DefStrings), other)
            .ok_or_else(|| self.corrupt("relation records malformed"))
    }

    /// The files (first slots, increasing) among those of `v`'s postings that
    /// hold a reference spelled as `v` or import a name spelled so, each with
    /// whether one of those references has a receiver; `None` when the
    /// segment does not list `v` (it names few files: read them all).
    pub fn ref_files(&self, v: &VariantRec) -> Result<Option<Vec<(u32, bool)>>, SnapshotError> {
        let b = self.section(Section::RefFiles);
        let bad = || self.corrupt("reference files malformed");
        self.check_in(Section::RefFiles, 0..4)?;
        let count = u32_at(b, 0).ok_or_else(bad)?;
        let table_end = (count as usize).checked_mul(8).and_then(|n| n.checked_add(4)).ok_or_else(bad)?;
        let entry = |k: u32| {
            let o = 4 + 8 * k as usize;
            self.check_in(Section::RefFiles, o..o + 8).ok()?;
            Some((u32_at(b, o)?, u32_at(b, o + 4)?))
        };
        let Some(k) = super::reffiles::find(count, v.id, entry).ok_or_else(bad)? else { return Ok(None) };
        let start = entry(k).ok_or_else(bad)?.1 as usize;
        let end =
            if k + 1 < count { entry(k + 1).ok_or_else(bad)?.1 as usize } else { b.len().saturating_sub(table_end) };
        let range = table_end.checked_add(start).ok_or_else(bad)?..table_end.checked_add(end).ok_or_else(bad)?;
        self.check_in(Section::RefFiles, range.clone())?;
        let list = b.get(range).ok_or_else(bad)?;
        super::reffiles::kept(list, self.slot_count).map(Some).ok_or_else(bad)
    }

    /// The distinct files (first slots, increasing) of a variant's postings
    /// (both lists): their container keys, values not decoded.
    pub fn posting_files(&self, v: &VariantRec) -> Result<Vec<u32>, SnapshotError> {
        let bad = || self.corrupt("posting list malformed");
        let (mut rest, mut defs) = (self.rest_posting_iter(v)?, self.def_posting_iter(v)?);
        let mut slots: Vec<u32> =
            std::iter::from_fn(|| rest.next_key()).chain(std::iter::from_fn(|| defs.next_key())).collect();
        if rest.error.is_some() || defs.error.is_some() {
            return Err(bad());
        }
        slots.sort_unstable();
        slots.dedup();
        let mut files: Vec<u32> = Vec::with_capacity(slots.len());
        for slot in slots {
            let first = self.first_slot_of(slot)?;
            if files.last() != Some(&first) {
                files.push(first);
            }
        }
        Ok(files)
    }

    /// The definition names `aut` accepts, in byte order, each given to `each`
    /// until it returns false (for matching names by a pattern: prefixes,
    /// abbreviations).
    pub fn definition_names_matching<A: fst::Automaton>(
        &self,
        aut: A,
        mut each: impl FnMut(&[u8]) -> bool,
    ) -> Result<(), SnapshotError> {
        use fst::{IntoStreamer, Streamer};
        self.checked(&self.defs_checked, &[Section::DefFst, Section::Defs, Section::DefStrings])?;
        let map = fst::Map::new(self.section(Section::DefFst)).map_err(|e| self.corrupt(&format!("def fst: {e}")))?;
        let mut stream = map.search(aut).into_stream();
        while let Some((name, _)) = stream.next() {
            if !each(name) {
                break;
            }
        }
        Ok(())
    }

    /// `(first slot, line, name on the line)` of each definition named `name`,
    /// in slot order, decoded as taken (see [`super::defs::DefLines`]: the caller
    /// checks `failed` after, and slots against [`Segment::slot_count`]).
    pub fn definition_lines(&self, name: &str) -> Result<super::defs::DefLines<'_>, SnapshotError> {
        let (offset, count) = self.def_group(name)?;
        Ok(super::defs::DefLines::new(self.def_records(offset, count)?, 0, count))
    }

    fn checked(&self, cell: &OnceLock<Option<&'static str>>, sections: &[Section]) -> Result<(), SnapshotError> {
        let bad = cell.get_or_init(|| {
            sections.iter().find(|s| xxh3_64(self.section(**s)) != self.checksums[**s as usize - 1]).map(|s| s.name())
        });
        match bad {
            Some(name) => Err(self.corrupt(&format!("{name} checksum mismatch"))),
            None => Ok(()),
        }
    }

    /// The layout of a packed table (its header's block checked first).
    #[inline(always)]
    fn layout<'a>(&'a self, cell: &'a LayoutCell, table: Table) -> Result<&'a packed::Layout, SnapshotError> {
        match cell.get() {
            Some(Some(layout)) => Ok(layout),
            _ => self.layout_first(cell, table),
        }
    }

    #[cold]
    fn layout_first<'a>(
        &'a self,
        cell: &'a LayoutCell,
        (s, fields, based, records): Table,
    ) -> Result<&'a packed::Layout, SnapshotError> {
        let layout = cell.get_or_init(|| {
            self.check_in(s, 0..8).ok()?;
            packed::Layout::parse(self.section(s), fields, based, records as usize)
        });
        layout.as_ref().ok_or_else(|| self.corrupt(&format!("{} table does not hold its records", s.name())))
    }

    #[inline]
    fn fold_layout(&self) -> Result<&packed::Layout, SnapshotError> {
        self.layout(&self.fold_layout, (Section::Folds, 2, 1, self.fold_count.saturating_add(1)))
    }

    #[inline]
    fn variant_layout(&self) -> Result<&packed::Layout, SnapshotError> {
        self.layout(&self.variant_layout, (Section::Variants, 4, 2, self.variant_count.saturating_add(1)))
    }

    pub fn fold(&self, id: u32) -> Result<FoldRec, SnapshotError> {
        if id >= self.fold_count {
            return Err(self.corrupt("fold id out of range"));
        }
        let (b, layout, i) = (self.section(Section::Folds), self.fold_layout()?, id as usize);
        self.check_in(Section::Folds, layout.span(i, i + 2))?;
        // A fold's variants end where the next record's (or the end record's) begin.
        let rec = (|| {
            let first_variant = u32::try_from(layout.get(b, i, 0)?).ok()?;
            let end = u32::try_from(layout.get(b, i + 1, 0)?).ok()?;
            Some(FoldRec {
                first_variant,
                variant_count: end.checked_sub(first_variant)?,
                occurrences: layout.get(b, i, 1)?,
            })
        })();
        rec.ok_or_else(|| self.corrupt("fold record"))
    }

    /// Starts loading fold `id`'s record (a prefetch, unchecked), so that reading
    /// many records that are far apart waits on memory once per batch rather
    /// than once per record (a substring's candidate keys: fold, then first
    /// variant, then its spelling, each a cache miss that depends on the last).
    pub fn touch_fold(&self, id: u32) {
        if let Ok(layout) = self.fold_layout() {
            touch(self.section(Section::Folds), layout.record_at(id as usize));
        }
    }

    /// As [`Segment::touch_fold`], variant `i`'s record.
    pub fn touch_variant(&self, i: u32) {
        if let Ok(layout) = self.variant_layout() {
            touch(self.section(Section::Variants), layout.record_at(i as usize));
        }
    }

    /// As [`Segment::touch_fold`], the start of the string at `(offset, length)`.
    /// A string whose block was not read yet is left alone (reading it would
    /// decompress the block).
    pub fn touch_bytes(&self, (off, _): (u32, u32)) {
        let Some(Some(index)) = self.string_blocks.get() else { return };
        if let Some((i, range)) = index.block_of(off as u64) {
            if let Some(block) = index.cached(i) {
                touch(block, (off as u64 - range.start) as usize);
            }
        }
    }

    /// As [`Segment::touch_fold`], the start of a variant's postings.
    pub fn touch_postings(&self, v: &VariantRec) {
        touch(self.section(Section::Postings), v.postings.0 as usize);
    }

    pub fn variant(&self, i: u32) -> Result<VariantRec, SnapshotError> {
        if i >= self.variant_count {
            return Err(self.corrupt("variant out of range"));
        }
        let (b, layout, n) = (self.section(Section::Variants), self.variant_layout()?, i as usize);
        self.check_in(Section::Variants, layout.span(n, n + 2))?;
        // A variant's spelling and postings end where the next record's (or the
        // end record's) begin.
        let rec = (|| {
            let (term, term_end) =
                (u32::try_from(layout.get(b, n, 0)?).ok()?, u32::try_from(layout.get(b, n + 1, 0)?).ok()?);
            let (postings, postings_end) = (layout.get(b, n, 1)?, layout.get(b, n + 1, 1)?);
            let def_postings_len = u32::try_from(layout.get(b, n, 2)?).ok()?;
            let rest_len = postings_end.checked_sub(postings)?.checked_sub(def_postings_len as u64)?;
            Some(VariantRec {
                id: i,
                term: (term, term_end.checked_sub(term)?),
                postings: (postings, u32::try_from(rest_len).ok()?),
                def_postings_len,
                occurrences: u32::try_from(layout.get(b, n, 3)?).ok()?,
            })
        })();
        rec.ok_or_else(|| self.corrupt("variant record"))
    }

    pub fn str_at(&self, at: (u32, u32)) -> Result<&str, SnapshotError> {
        std::str::from_utf8(self.bytes_at(at)?).map_err(|_| self.corrupt("string not UTF-8"))
    }

    /// A string's bytes, not checked to be UTF-8 (matching compares bytes).
    pub fn bytes_at(&self, (off, len): (u32, u32)) -> Result<&[u8], SnapshotError> {
        self.blocked(&self.string_blocks, Section::Strings, off as u64, len as usize)
    }

    /// All postings of a variant.
    pub fn postings(&self, v: &VariantRec) -> Result<RoaringBitmap, SnapshotError> {
        let (rest, defs) = (self.rest_posting_iter(v)?, self.def_posting_iter(v)?);
        let mut all = Merged::new(rest, defs);
        let bitmap = RoaringBitmap::from_sorted_iter(&mut all).map_err(|_| self.corrupt("postings malformed"))?;
        match all.error() {
            Some(_) => Err(self.corrupt("postings malformed")),
            None => Ok(bitmap),
        }
    }

    /// The postings of a variant that lie on definition lines.
    pub fn def_postings(&self, v: &VariantRec) -> Result<RoaringBitmap, SnapshotError> {
        let (off, len) = self.def_list(v)?;
        self.bitmap(off, len)
    }

    /// Streams all postings of a variant in order.
    pub fn posting_iter(&self, v: &VariantRec) -> Result<Merged<'_>, SnapshotError> {
        Ok(Merged::new(self.rest_posting_iter(v)?, self.def_posting_iter(v)?))
    }

    /// Streams the postings of a variant on other lines than definitions, in order.
    pub fn rest_posting_iter(&self, v: &VariantRec) -> Result<PostingIter<'_>, SnapshotError> {
        self.list_iter(v.postings.0 as usize, v.postings.1 as usize)
    }

    /// Streams the definition-line postings of a variant in order.
    pub fn def_posting_iter(&self, v: &VariantRec) -> Result<PostingIter<'_>, SnapshotError> {
        let (off, len) = self.def_list(v)?;
        self.list_iter(off, len)
    }

    fn def_list(&self, v: &VariantRec) -> Result<(usize, usize), SnapshotError> {
        let off = (v.postings.0 as usize).checked_add(v.postings.1 as usize).ok_or_else(|| self.corrupt("postings"))?;
        Ok((off, v.def_postings_len as usize))
    }

    /// The encoded lists of a variant (on other lines, on definition lines), for
    /// [`postings::extend_into`]; a stored length of 0 is an empty list.
    pub fn posting_lists(&self, v: &VariantRec) -> Result<(postings::List<'_>, postings::List<'_>), SnapshotError> {
        let (off, len) = self.def_list(v)?;
        let list = |off: usize, len: usize| match len {
            0 => Ok(postings::List::from(&[0u8])),
            _ => self.posting_list(off, len),
        };
        Ok((list(v.postings.0 as usize, v.postings.1 as usize)?, list(off, len)?))
    }

    /// Where each slot's lines start among the segment's lines, as
    /// [`postings::LineBits`] numbers them (`slot_count + 1` values: the last is
    /// the number of lines): a part of a file has room for line ids up to its
    /// lines (at most 65,535). Read from the slot records on first use; `None`
    /// when the segment claims more than [`MAX_LINE_BITS`] lines.
    /// The first slot of the file slot `s` belongs to (a file of more than
    /// [`LINES_PER_SLOT`] lines takes several), without reading `s`'s record.
    pub fn first_slot_of(&self, s: u32) -> Result<u32, SnapshotError> {
        if s >= self.slot_count {
            return Err(self.corrupt("slot out of range"));
        }
        let later = self.later_parts.get_or_init(|| {
            let mut later = Vec::new();
            for i in 0..self.slot_count {
                match self.slot(i) {
                    Ok(slot) if slot.part > 0 => later.push((i, slot.part)),
                    Ok(_) => {}
                    Err(SnapshotError::Corrupt { what, .. }) => return Err(what),
                    Err(e) => return Err(e.to_string()),
                }
            }
            Ok(later.into_boxed_slice())
        });
        let later = later.as_ref().map_err(|what| self.corrupt(what))?;
        match later.binary_search_by_key(&s, |&(slot, _)| slot) {
            Ok(i) => s.checked_sub(later[i].1 as u32).ok_or_else(|| self.corrupt("slot part out of range")),
            Err(_) => Ok(s),
        }
    }

    /// The first slot of the file at `path` in this segment, if it holds one
    /// (live or not): a hash probe, checked against the slot's path (on the
    /// rare hash shared by two paths, a binary search over the slots decides).
    pub fn slot_of_path(&self, path: &str) -> Result<Option<u32>, SnapshotError> {
        let made = self.path_slots.get_or_init(|| {
            let mut slots = rustc_hash::FxHashMap::default();
            slots.reserve(self.slot_count as usize);
            for i in 0..self.slot_count {
                match self.slot_path_bytes(i) {
                    Ok(p) => {
                        slots.entry(xxh3_64(p)).or_insert(i);
                    }
                    Err(SnapshotError::Corrupt { what, .. }) => return Err(what),
                    Err(e) => return Err(e.to_string()),
                }
            }
            Ok(slots)
        });
        let slots = made.as_ref().map_err(|what| self.corrupt(what))?;
        let Some(&s) = slots.get(&xxh3_64(path.as_bytes())) else {
            return Ok(None);
        };
        if self.slot_path_bytes(s)? == path.as_bytes() {
            return Ok(Some(s));
        }
        // Another path of the same hash holds the entry.
        let lo = self.first_slot_at_or_after(path)?;
        Ok((lo < self.slot_count && self.slot_path_bytes(lo)? == path.as_bytes()).then_some(lo))
    }

    /// The first slot whose path is not below `key` (slots are in path
    /// order): a binary search.
    pub fn first_slot_at_or_after(&self, key: &str) -> Result<u32, SnapshotError> {
        let (mut lo, mut hi) = (0u32, self.slot_count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.slot_path_bytes(mid)?.cmp(key.as_bytes()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                _ => hi = mid,
            }
        }
        Ok(lo)
    }

    pub fn line_starts(&self) -> Result<Option<&[u32]>, SnapshotError> {
        let made = self.line_starts.get_or_init(|| {
            let mut starts = Vec::with_capacity(self.slot_count as usize + 1);
            let mut at = 0u32;
            for i in 0..self.slot_count {
                starts.push(at);
                let slot = match self.slot(i) {
                    Ok(slot) => slot,
                    Err(SnapshotError::Corrupt { what, .. }) => return Err(what),
                    Err(e) => return Err(e.to_string()),
                };
                let ids = slot.line_count.saturating_sub(slot.part as u32 * LINES_PER_SLOT).min(LINES_PER_SLOT);
                match at.checked_add(ids + 1).filter(|&n| n <= MAX_LINE_BITS) {
                    Some(next) => at = next,
                    None => return Ok(None),
                }
            }
            starts.push(at);
            Ok(Some(starts.into_boxed_slice()))
        });
        match made {
            Ok(starts) => Ok(starts.as_deref()),
            Err(what) => Err(self.corrupt(what)),
        }
    }

    /// An empty line set for this segment's postings (one left by an earlier
    /// query when there is one), or `None` when the segment has too many lines.
    pub fn take_line_bits(&self) -> Result<Option<postings::LineBits>, SnapshotError> {
        let Some(starts) = self.line_starts()? else { return Ok(None) };
        let lines = *starts.last().unwrap_or(&0) as usize;
        let kept = self.line_bits.lock().unwrap_or_else(|e| e.into_inner()).pop();
        Ok(Some(kept.filter(|b| b.capacity() >= lines).unwrap_or_else(|| postings::LineBits::new(lines))))
    }

    /// Clears a line set and keeps it for the next query.
    pub fn give_line_bits(&self, mut bits: postings::LineBits) {
        bits.clear();
        let mut kept = self.line_bits.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < KEPT_LINE_BITS {
            kept.push(bits);
        }
    }

    /// A stored list; length 0 is an empty list.
    fn list_iter(&self, off: usize, len: usize) -> Result<PostingIter<'_>, SnapshotError> {
        match len {
            0 => Ok(PostingIter::new(&[0])),
            _ => Ok(PostingIter::new(self.posting_list(off, len)?)),
        }
    }

    /// A list's checked bytes, with up to 8 bytes of the section after them
    /// that a decoder may load but does not read as the list's.
    fn posting_list(&self, off: usize, len: usize) -> Result<postings::List<'_>, SnapshotError> {
        let b = self.section(Section::Postings);
        let end =
            off.checked_add(len).filter(|&end| end <= b.len()).ok_or_else(|| self.corrupt("postings out of bounds"))?;
        self.check_in(Section::Postings, off..end)?;
        Ok(postings::List::with_slack(&b[off..(end + 8).min(b.len())], len))
    }

    fn bitmap(&self, off: usize, len: usize) -> Result<RoaringBitmap, SnapshotError> {
        if len == 0 {
            return Ok(RoaringBitmap::new());
        }
        postings::decode(self.posting_list(off, len)?).map_err(|_| self.corrupt("postings malformed"))
    }

    pub fn slot(&self, i: u32) -> Result<SlotRec, SnapshotError> {
        let b = self.section(Section::Slots);
        let o = i as usize * SLOT_LEN;
        self.check_in(Section::Slots, o..o + SLOT_LEN)?;
        let rec = (|| {
            Some(SlotRec {
                path: (u32_at(b, o)?, u32_at(b, o + 4)?),
                meta: FileMeta {
                    size: u64_at(b, o + 8)?,
                    hash: u64_at(b, o + 16)?,
                    mtime_ns: u64_at(b, o + 24)? as i64,
                    language: *b.get(o + 58)?,
                    diagnostics: *b.get(o + 59)?,
                    error_line: u32_at(b, o + 60)?,
                    term_count: u32_at(b, o + 64)?,
                    method_count: u16_at(b, o + 68)?,
                    type_count: u16_at(b, o + 70)?,
                },
                line_types_off: u64_at(b, o + 32)?,
                structure: StructureLoc {
                    frame: u64_at(b, o + 40)?,
                    len: u32_at(b, o + 48)?,
                    frame_len: u32_at(b, o + 76)?,
                },
                line_count: u32_at(b, o + 52)?,
                part: u16_at(b, o + 56)?,
                occurrences: u32_at(b, o + 72)?,
            })
        })();
        rec.filter(|_| i < self.slot_count).ok_or_else(|| self.corrupt("slot out of range"))
    }

    pub fn slot_path(&self, slot: &SlotRec) -> Result<&str, SnapshotError> {
        self.str_at(slot.path)
    }

    /// The bytes of slot `i`'s path, without decoding the rest of its record
    /// nor checking UTF-8: what a binary search over the paths compares (byte
    /// order is `str` order).
    pub fn slot_path_bytes(&self, i: u32) -> Result<&[u8], SnapshotError> {
        let b = self.section(Section::Slots);
        let o = i as usize * SLOT_LEN;
        self.check_in(Section::Slots, o..o + 8)?;
        let path = (|| Some((u32_at(b, o)?, u32_at(b, o + 4)?)))().ok_or_else(|| self.corrupt("slot record"))?;
        self.bytes_at(path)
    }

    /// The type of a file line (1-based, counted over the whole file).
    pub fn line_type(&self, slot: &SlotRec, line: u32) -> Result<LineType, SnapshotError> {
        if line == 0 || line > slot.line_count {
            return Err(self.corrupt("line out of range"));
        }
        let at = slot.line_types_off.saturating_add((line as u64 - 1) / 2);
        let b = self.blocked(&self.line_type_blocks, Section::LineTypes, at, 1)?;
        line_type_code(b, (line as usize - 1) % 2).and_then(LineType::from_u8).ok_or_else(|| self.corrupt("line type"))
    }

    /// The packed line types of a slot's whole file (two to a byte).
    pub fn line_type_bytes(&self, slot: &SlotRec) -> Result<&[u8], SnapshotError> {
        let len = (slot.line_count as usize).div_ceil(2);
        self.blocked(&self.line_type_blocks, Section::LineTypes, slot.line_types_off, len)
    }

    /// The line marks of a slot's whole file as stored (after its line types,
    /// [`super::line_mark_count`] little-endian u32s).
    pub fn line_mark_bytes(&self, slot: &SlotRec) -> Result<&[u8], SnapshotError> {
        let types = (slot.line_count as usize).div_ceil(2);
        let len = types + 4 * super::line_mark_count(slot.line_count);
        Ok(&self.blocked(&self.line_type_blocks, Section::LineTypes, slot.line_types_off, len)?[types..])
    }

    /// Where every [`super::LINES_PER_MARK`]th line of a slot's file starts
    /// ([`super::line_marks`]); `None` when they do not increase within the
    /// file's indexed size (a mark written as missing, or a damaged one: the
    /// file is then read from its start).
    pub fn line_marks(&self, slot: &SlotRec) -> Result<Option<Vec<u32>>, SnapshotError> {
        let bytes = self.line_mark_bytes(slot)?;
        let marks: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let increasing = marks.windows(2).all(|w| w[0] < w[1]);
        let inside =
            marks.first().is_none_or(|&m| m > 0) && marks.last().is_none_or(|&m| u64::from(m) <= slot.meta.size);
        Ok((increasing && inside).then_some(marks))
    }

    /// Calls `f` with the archive of a file's structure (empty when it has
    /// none), decompressing its frame unless it is one of the last read.
    pub fn with_archive<R>(&self, loc: StructureLoc, f: impl FnOnce(&[u8]) -> R) -> Result<R, SnapshotError> {
        if loc.len == 0 {
            return Ok(f(&[]));
        }
        let cached = self.last_archives.lock().ok().and_then(|mut recent| {
            let i = recent.iter().position(|(o, _)| *o == loc.frame)?;
            let hit = recent.remove(i);
            recent.insert(0, hit.clone());
            Some(hit.1)
        });
        let archive = match cached {
            Some(archive) => archive,
            None => {
                let at = usize::try_from(loc.frame).unwrap_or(usize::MAX);
                self.check_in(Section::Structure, at..at.saturating_add(loc.frame_len as usize))?;
                let archive = structure::read_frame(self.section(Section::Structure), self.structure_dict()?, loc)
                    .map(Arc::new)
                    .ok_or_else(|| self.corrupt("structure frame invalid"))?;
                if let Ok(mut recent) = self.last_archives.lock() {
                    recent.truncate(CACHED_ARCHIVES - 1);
                    recent.insert(0, (loc.frame, archive.clone()));
                }
                archive
            }
        };
        Ok(f(&archive))
    }

    /// The structure section's dictionary, prepared on first use.
    fn structure_dict(&self) -> Result<&structure::Dict, SnapshotError> {
        let dict = self.structure_dict.get_or_init(|| {
            let section = self.section(Section::Structure);
            let len = structure::section_dict(section).ok_or(())?.len();
            let head = if section.is_empty() { 0 } else { 4 + len };
            self.check_in(Section::Structure, 0..head).map_err(|_| ())?;
            Ok(structure::Dict::new(structure::section_dict(section).ok_or(())?))
        });
        dict.as_ref().map_err(|_| self.corrupt("structure dictionary invalid"))
    }

    /// The structure of a slot's file (empty when it has none).
    pub fn structure(&self, slot: &SlotRec) -> Result<FileStructure, SnapshotError> {
        if slot.structure.len == 0 {
            return Ok(FileStructure::default());
        }
        self.with_archive(slot.structure, FileStructure::from_archive)?
            .ok_or_else(|| self.corrupt("structure archive invalid"))
    }

    /// The fold ids whose keys contain a trigram, in increasing order, or `None`
    /// when no key does.
    pub fn gram(&self, gram: [u8; 3]) -> Result<Option<Vec<u32>>, SnapshotError> {
        let Some(i) = self.gram_fst()?.get(gram) else {
            return Ok(None);
        };
        let b = self.section(Section::Grams);
        let o = i as usize * GRAM_LEN;
        let (off, len) = match (u64_at(b, o), u32_at(b, o + 8)) {
            (Some(off), Some(len)) => (off as usize, len as usize),
            _ => return Err(self.corrupt("gram entry out of range")),
        };
        let p = self.section(Section::GramPostings);
        let bytes = off
            .checked_add(len)
            .and_then(|end| p.get(off..end))
            .ok_or_else(|| self.corrupt("gram postings out of bounds"))?;
        let mut ids = Vec::new();
        postings::extend_into(bytes, &SlotSet::default(), &mut ids)
            .map_err(|_| self.corrupt("gram postings malformed"))?;
        Ok(Some(ids))
    }

    /// Checks every checksum and every record: what `cg verify` runs. Costs a full
    /// read of the file.
    pub fn verify(&self) -> Result<(), SnapshotError> {
        let all = self.all();
        let body = &all[..all.len() - 16];
        let stored = u64_at(all, all.len() - 16).unwrap_or(0);
        if xxh3_64(body) != stored {
            return Err(self.corrupt("file checksum mismatch"));
        }
        self.check(0..self.sums.start)?;
        for (i, s) in Section::ALL.iter().enumerate() {
            if xxh3_64(self.section(*s)) != self.checksums[i] {
                return Err(self.corrupt(&format!("{} checksum mismatch", s.name())));
            }
        }
        self.verify_blocks()?;
        self.term_fst()?.as_fst().verify().map_err(|e| self.corrupt(&format!("term fst: {e}")))?;
        self.gram_fst()?.as_fst().verify().map_err(|e| self.corrupt(&format!("gram fst: {e}")))?;
        for v in 0..self.variant_count {
            let rec = self.variant(v)?;
            self.str_at(rec.term)?;
            self.postings(&rec)?;
            self.def_postings(&rec)?;
            // Its reference files, when listed: among its postings' files.
            if let Some(kept) = self.ref_files(&rec)? {
                let files = self.posting_files(&rec)?;
                if kept.iter().any(|(f, _)| files.binary_search(f).is_err()) {
                    return Err(self.corrupt("reference files outside the term's files"));
                }
            }
        }
        for f in 0..self.fold_count {
            // Reading a record checks that the next one starts no earlier.
            let rec = self.fold(f)?;
            if rec.first_variant as u64 + rec.variant_count as u64 > self.variant_count as u64 {
                return Err(self.corrupt("fold variants out of range"));
            }
        }
        for s in 0..self.slot_count {
            let slot = self.slot(s)?;
            self.slot_path(&slot)?;
            self.structure(&slot)?;
            if slot.line_count > 0 {
                self.line_type(&slot, slot.line_count)?;
                if self.line_marks(&slot)?.is_none() {
                    return Err(self.corrupt("line marks"));
                }
            }
        }
        // The subword index: its fst, and every list decodes.
        let subwords = self.subword_fst()?;
        subwords.as_fst().verify().map_err(|e| self.corrupt(&format!("subword fst: {e}")))?;
        let mut lists = subwords.stream();
        while let Some((subword, _)) = fst::Streamer::next(&mut lists) {
            let subword = std::str::from_utf8(subword).map_err(|_| self.corrupt("subword not UTF-8"))?;
            if let Some(list) = self.subword_list(subword)? {
                self.subword_entries(&list)?;
            }
        }
        if let Some(t) = self.vectors()? {
            if !t.check() {
                return Err(self.corrupt("vectors inconsistent"));
            }
        }
        // The definitions table: its fst, and every group decodes.
        self.checked(&self.defs_checked, &[Section::DefFst, Section::Defs, Section::DefStrings])?;
        let defs = fst::Map::new(self.section(Section::DefFst)).map_err(|e| self.corrupt(&format!("def fst: {e}")))?;
        defs.as_fst().verify().map_err(|e| self.corrupt(&format!("def fst: {e}")))?;
        let mut names = defs.stream();
        let mut total = 0u64;
        while let Some((name, _)) = fst::Streamer::next(&mut names) {
            let name = std::str::from_utf8(name).map_err(|_| self.corrupt("definition name not UTF-8"))?;
            total += self.definitions(name)?.len() as u64;
        }
        if total != self.definitions_total {
            return Err(self.corrupt("the header's count of definitions is not the table's"));
        }
        // The relation sections: their fst, and every group decodes.
        let sections = [Section::RelationFst, Section::Relations, Section::DefStrings];
        self.checked(&self.relations_checked, &sections)?;
        let edges = fst::Map::new(self.section(Section::RelationFst))
            .map_err(|e| self.corrupt(&format!("relation fst: {e}")))?;
        edges.as_fst().verify().map_err(|e| self.corrupt(&format!("relation fst: {e}")))?;
        let mut keys = edges.stream();
        while let Some((key, _)) = fst::Streamer::next(&mut keys) {
            let (name, relation) = match key {
                [name @ .., 0xFF, b] => (name, super::defs::Relation::from_byte(*b)),
                _ => (key, None),
            };
            let Some(relation) = relation else { return Err(self.corrupt("relation key malformed")) };
            let name = std::str::from_utf8(name).map_err(|_| self.corrupt("relation name not UTF-8"))?;
            self.relation_edges(name, relation)?;
        }
        Ok(())
    }
}

/// Asks the CPU to fetch the cache line of byte `at`, if any, without waiting
/// for it: the reads that follow go on while it loads (a prefetch never faults
/// and changes nothing, whatever the address).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
fn touch(bytes: &[u8], at: usize) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    if let Some(b) = bytes.get(at) {
        // SAFETY: SSE is in every x86_64 CPU (the target's baseline), which
        // is all `_mm_prefetch` requires; the pointer is into a live slice.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(b).cast()) }
    }
}

/// Elsewhere nothing: a plain load kept with `black_box` stalls the reads
/// behind it instead (measured on x86_64: it gained little).
#[cfg(not(target_arch = "x86_64"))]
fn touch(_bytes: &[u8], _at: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A segment of three files, built in memory.
    fn segment() -> Segment {
        use crate::extract::Extractor;
        use crate::lang::Language;
        let mut extractor = Extractor::new();
        let mut writer = crate::SegmentWriter::new(crate::MAX_SLOTS_PER_SEGMENT);
        for (p, language, text) in [
            ("a.rs", Language::Rust, "fn a() {}\n"),
            ("b/c.rs", Language::Rust, "fn c() {}\n"),
            ("b/d.go", Language::Go, "package b\n"),
        ] {
            writer.add(&extractor.extract(p, language, text.as_bytes(), 0));
        }
        Segment::from_vec("test", writer.finish()).unwrap()
    }

    #[test]
    fn paths_find_their_slots_and_others_none() {
        let seg = segment();
        for (i, p) in ["a.rs", "b/c.rs", "b/d.go"].into_iter().enumerate() {
            assert_eq!(seg.slot_of_path(p).unwrap(), Some(i as u32), "{p}");
        }
        for p in ["", "a", "b", "b/", "a.rsx", "b/c.r", "z.rs"] {
            assert_eq!(seg.slot_of_path(p).unwrap(), None, "{p}");
        }
    }

    /// Two paths of one hash: the table keeps one, the other is found by the
    /// binary search (forged here: no two real paths are known to collide).
    #[test]
    fn a_path_whose_hash_another_holds_is_still_found_regression() {
        let seg = segment();
        let forged: rustc_hash::FxHashMap<u64, u32> =
            [(xxh3_64(b"a.rs"), 0), (xxh3_64(b"b/c.rs"), 0), (xxh3_64(b"z.rs"), 2)].into_iter().collect();
        assert!(seg.path_slots.set(Ok(forged)).is_ok());
        assert_eq!(seg.slot_of_path("b/c.rs").unwrap(), Some(1));
        assert_eq!(seg.slot_of_path("a.rs").unwrap(), Some(0));
        assert_eq!(seg.slot_of_path("z.rs").unwrap(), None);
    }
}

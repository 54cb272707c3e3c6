//! The snapshot: one immutable file per segment, read in place from a memory map.
//!
//! In: the bytes a [`SegmentWriter`] produced. Out: a [`Segment`] whose tables are
//! read straight from the map, with no deserialization on open. `format/README.md`
//! is the byte-level description; keep it true with this module.
//!
//! Every read is bounds-checked: a corrupted or truncated file yields a
//! [`SnapshotError`], never undefined behaviour. Opening checks only the header,
//! the section table and the footer's magic (O(1) in the file's size); checksums
//! are checked by [`Segment::verify`] (`cg verify`).

#![deny(unsafe_code)]

pub mod blocks;
pub mod chunk;
mod copy;
pub mod defs;
pub mod mmap;
pub mod packed;
pub mod postings;
mod read;
mod reffiles;
pub mod structure;
pub mod subwords;
pub mod vectors;
mod write;

pub use copy::{CopiedFile, SegmentCopy};
pub use read::{FoldRec, Segment, SlotRec, VariantRec};
pub use structure::{FrameDict, StructureLoc};
pub use write::{slots_for, FileEntry, FileMeta, Prepared, SegmentWriter};

use std::path::PathBuf;

// The layer below, under the names the modules of this crate use.
pub(crate) use codegraph_syntax::{extract, lang, safe_fs};

/// First bytes of every segment file.
pub const MAGIC: &[u8; 8] = b"CODEGRPH";
/// Last bytes of every segment file.
pub const FOOTER_MAGIC: &[u8; 8] = b"CGSEGEND";
/// The format version this build reads and writes. Bump it, and add a line to
/// `format/README.md`'s changelog, with any change to the layout or to what
/// extraction records (an index of older facts would otherwise mix them with
/// newer ones as files are updated).
pub const FORMAT_VERSION: u32 = 29;

pub const HEADER_LEN: usize = 64;
pub const SECTION_ENTRY_LEN: usize = 32;
/// `blocksums_xxh3 u64, file_xxh3 u64, FOOTER_MAGIC`.
pub const FOOTER_LEN: usize = 24;
/// Every `CHECK_BLOCK` bytes of a segment before its block sums have an xxh3-64,
/// checked the first time a read touches them.
pub const CHECK_BLOCK: usize = 4096;
pub const SLOT_LEN: usize = 80;
pub const GRAM_LEN: usize = 12;

/// Lines per slot: a file with more lines takes several slots (parts), so line ids
/// fit the 16 low bits of a posting.
pub const LINES_PER_SLOT: u32 = 65_535;
/// Slots per segment: slot ids fit the 16 high bits of a posting.
pub const MAX_SLOTS_PER_SEGMENT: u32 = 65_536;

/// Section kinds, in the order they are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Section {
    /// fst map: folded term → fold id.
    TermFst = 1,
    /// Fixed records, one per fold id, plus an end record.
    Folds = 2,
    /// Fixed records, one per case variant.
    Variants = 3,
    /// Concatenated UTF-8: file paths, then variant spellings (fold keys are
    /// not stored).
    Strings = 4,
    /// Concatenated posting lists of packed occurrences (`postings.rs`).
    Postings = 5,
    /// Fixed records, one per slot.
    Slots = 6,
    /// Four bits per line of every file.
    LineTypes = 7,
    /// A zstd dictionary, then one zstd frame per file: its archive (header
    /// comments, types, methods, properties, graph facts, in columns).
    Structure = 8,
    /// fst map: trigram of folded terms → gram entry.
    GramFst = 9,
    /// Fixed records, one per trigram: where its fold-id bitmap is.
    Grams = 10,
    /// Concatenated lists of fold ids (the posting encoding).
    GramPostings = 11,
    /// fst map: definition name → its group in `Defs` (`offset << 24 | count`).
    DefFst = 12,
    /// Groups of varint-packed definition records (`defs.rs`).
    Defs = 13,
    /// The strings definition records name: a count, offsets, then UTF-8.
    DefStrings = 14,
    /// fst map: subword of compound terms → its list in `Subwords`.
    SubwordFst = 15,
    /// Lists of variant ids, each marked when it names a definition (`subwords.rs`).
    Subwords = 16,
    /// An int8 vector per type and function, when a model embedded them
    /// (`vectors.rs`); empty otherwise.
    Vectors = 17,
    /// fst map: a name + 0xFF + `>` (a type's supertypes), `<` (its
    /// subtypes) or `=` (the files of a package or namespace) → its group in
    /// `Relations` (`offset << 24 | count`).
    RelationFst = 18,
    /// Groups of varint-packed relation edges (`defs.rs`), strings in
    /// `DefStrings`.
    Relations = 19,
    /// Which files of a term's postings hold a reference of it (`reffiles.rs`).
    RefFiles = 20,
}

impl Section {
    pub const ALL: [Section; 20] = [
        Section::TermFst,
        Section::Folds,
        Section::Variants,
        Section::Strings,
        Section::Postings,
        Section::Slots,
        Section::LineTypes,
        Section::Structure,
        Section::GramFst,
        Section::Grams,
        Section::GramPostings,
        Section::DefFst,
        Section::Defs,
        Section::DefStrings,
        Section::SubwordFst,
        Section::Subwords,
        Section::Vectors,
        Section::RelationFst,
        Section::Relations,
        Section::RefFiles,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Section::TermFst => "term fst",
            Section::Folds => "folds",
            Section::Variants => "variants",
            Section::Strings => "strings",
            Section::Postings => "postings",
            Section::Slots => "slots",
            Section::LineTypes => "line types",
            Section::Structure => "structure",
            Section::GramFst => "gram fst",
            Section::Grams => "grams",
            Section::GramPostings => "gram postings",
            Section::DefFst => "def fst",
            Section::Defs => "defs",
            Section::DefStrings => "def strings",
            Section::SubwordFst => "subword fst",
            Section::Subwords => "subwords",
            Section::Vectors => "vectors",
            Section::RelationFst => "relation fst",
            Section::Relations => "relations",
            Section::RefFiles => "reference files",
        }
    }
}

/// What can go wrong reading a snapshot. Every message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("{path}: cannot read the index: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: not a codegraph snapshot (bad magic); run `cg init` to rebuild the index")]
    NotASnapshot { path: PathBuf },
    #[error("{path}: index is format v{found}, this cg reads v{expected}: run `cg init` to rebuild it")]
    Version { path: PathBuf, found: u32, expected: u32 },
    #[error("{path}: index is corrupted ({what}); run `cg init` to rebuild it")]
    Corrupt { path: PathBuf, what: String },
}

/// A set of slot ids of one segment (65,536 bits): in an index, the slots whose
/// files were superseded by a later update or removed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlotSet {
    words: Vec<u64>,
    len: u32,
}

impl SlotSet {
    pub fn insert(&mut self, slot: u32) {
        let (w, bit) = ((slot / 64) as usize, 1u64 << (slot % 64));
        if self.words.len() <= w {
            self.words.resize(w + 1, 0);
        }
        if self.words[w] & bit == 0 {
            self.words[w] |= bit;
            self.len += 1;
        }
    }

    #[inline]
    pub fn contains(&self, slot: u32) -> bool {
        self.words.get((slot / 64) as usize).is_some_and(|w| w & (1u64 << (slot % 64)) != 0)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn len(&self) -> u32 {
        self.len
    }

    /// The slots in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(i, &w)| (0..64u32).filter(move |b| w & (1u64 << b) != 0).map(move |b| i as u32 * 64 + b))
    }
}

impl FromIterator<u32> for SlotSet {
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> SlotSet {
        let mut set = SlotSet::default();
        for s in iter {
            set.insert(s);
        }
        set
    }
}

/// The case fold used for keys: Unicode lowercase.
pub fn fold(term: &str) -> String {
    if term.bytes().all(|b| !b.is_ascii_uppercase() && b.is_ascii()) {
        return term.to_string();
    }
    term.to_lowercase()
}

/// Packs line type codes (format/README.md) two to a byte: the line at index `i`
/// (0-based) in the low four bits of byte `i / 2` when `i` is even, else the high.
pub fn pack_line_types(codes: impl Iterator<Item = u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(codes.size_hint().0.div_ceil(2));
    for (i, code) in codes.enumerate() {
        match i % 2 {
            0 => out.push(code & 0x0F),
            _ => *out.last_mut().expect("pushed at the even index") |= code << 4,
        }
    }
    out
}

// Line marks are what extraction records for each file (`FileFacts::line_marks`);
// the format keeps them as they are made there.
pub use crate::extract::marks::{line_mark_count, line_marks, LINES_PER_MARK};

/// The code of the line at index `i` (0-based) in packed line types.
#[inline]
pub fn line_type_code(packed: &[u8], i: usize) -> Option<u8> {
    packed.get(i / 2).map(|b| if i.is_multiple_of(2) { b & 0x0F } else { b >> 4 })
}

/// Packs a slot and a line id into one posting.
#[inline]
pub fn pack(slot: u32, line_id: u32) -> u32 {
    (slot << 16) | line_id
}

/// Splits a posting into its slot and line id.
#[inline]
pub fn unpack(posting: u32) -> (u32, u32) {
    (posting >> 16, posting & 0xFFFF)
}

/// The byte trigrams of a folded term, deduplicated (terms shorter than three
/// bytes have none).
pub fn trigrams(folded: &str) -> impl Iterator<Item = [u8; 3]> + '_ {
    folded.as_bytes().windows(3).map(|w| [w[0], w[1], w[2]])
}

//! Writing one segment: facts of up to 65,536 slots in, the bytes of one segment
//! file out (see `format/README.md`). The output depends only on the facts and
//! their order, never on hashing order or thread count.

use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::xxh3_64;

use super::structure::{self, AheadFrame, FileStructure, FrameDict, FrameWriter, StructureLoc};
use super::*;
use crate::extract::words::MAX_TERM_BYTES;
use crate::extract::FileFacts;
use crate::lang::Language;

/// An exact term's postings, two disjoint increasing lists: those on other lines,
/// and those on definition lines; then the first slots of the files holding a
/// reference spelled as it ([`super::reffiles`]). Files arrive in slot order
/// and lines in order, so pushing keeps them sorted (cheaper than inserting
/// into a bitmap).
type Postings = (Vec<u32>, Vec<u32>, Vec<u32>);

/// Exact terms are kept in this many maps, by a hash of their spelling, so that
/// a batch of files' terms goes in as that many tasks at once. A constant: the
/// bytes written do not depend on the thread count.
const TERM_PARTS: usize = 16;

/// Files whose terms, definitions and vectors wait to be added ([`SegmentWriter::settle`])
/// when nothing settles them sooner.
const PENDING_FILES: usize = 4096;

/// The map of [`TERM_PARTS`] holding `term`.
fn term_part(term: &str) -> usize {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    term.hash(&mut h);
    // Bits the maps' own buckets do not use (their low bits, and the top seven
    // for the control bytes).
    (h.finish() >> 32) as usize % TERM_PARTS
}

/// Accumulates files, then writes a segment.
pub struct SegmentWriter {
    max_slots: u32,
    /// exact term → its postings: on other lines, and on definition lines;
    /// in [`TERM_PARTS`] maps by [`term_part`]
    terms: Vec<FxHashMap<Box<str>, Postings>>,
    /// Files added whose terms, definitions and vectors are not in yet.
    pending: Vec<PendingFile>,
    slots: Vec<SlotRecord>,
    strings: Vec<u8>,
    line_types: Vec<u8>,
    /// The structure archives, compressed.
    structure: FrameWriter,
    /// The zstd level of the blocked sections ([`super::blocks`]).
    block_level: i32,
    defs: super::defs::DefTableWriter,
    vectors: Option<super::vectors::VectorWriter>,
    files: u32,
    lines: u64,
}

/// An extracted file whose slots are taken, waiting for [`SegmentWriter::settle`]
/// to add its terms (each map's on its own task), definitions and vectors.
struct PendingFile {
    first_slot: u32,
    parts: u32,
    language: u8,
    path: String,
    terms: Vec<crate::extract::TermLines>,
    /// `terms`' indices by map ([`term_part`]; too long terms left out), the
    /// ones of map `p` at `by_part[part_starts[p]..part_starts[p + 1]]`.
    by_part: Vec<u32>,
    part_starts: [u32; TERM_PARTS + 1],
    line_types: Vec<u8>,
    /// Its structure as the archive reads back, for the definitions and the
    /// vectors (`None`: no archive).
    record: Option<FileStructure>,
    ref_names: Option<super::reffiles::RefNames>,
}

struct SlotRecord {
    path: (u32, u32),
    meta: FileMeta,
    line_types_off: u64,
    structure: StructureLoc,
    line_count: u32,
    part: u16,
    occurrences: u32,
}

/// What a slot record says about its file besides where its parts are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileMeta {
    pub size: u64,
    /// xxh3-64 of the file's bytes.
    pub hash: u64,
    pub mtime_ns: i64,
    pub language: u8,
    /// Bits: 1 invalid UTF-8, 2 syntax errors, 4 no parse tree.
    pub diagnostics: u8,
    pub error_line: u32,
    /// Distinct terms of the file.
    pub term_count: u32,
    pub method_count: u16,
    pub type_count: u16,
}

impl FileMeta {
    /// The file's types and functions (the definitions vectors are kept
    /// for), or `u32::MAX` when a count reached its field's limit (65,535) and
    /// the true number is only in the structure archive.
    pub fn defs(&self) -> u32 {
        if self.type_count == u16::MAX || self.method_count == u16::MAX {
            u32::MAX
        } else {
            self.type_count as u32 + self.method_count as u32
        }
    }
}

/// One file as [`SegmentWriter::add_entry`] takes it.
pub struct FileEntry<'a> {
    pub path: &'a str,
    pub meta: FileMeta,
    pub line_count: u32,
    /// The line type codes, packed two to a byte ([`pack_line_types`]).
    pub line_types: &'a [u8],
    /// The file's line marks ([`super::line_marks`]), each a little-endian u32.
    pub line_marks: &'a [u8],
    /// The structure's archive (`FileStructure::to_archive`); empty when the file has none.
    pub structure: &'a [u8],
}

/// The parts of an extracted file's slot that take time to make (its structure
/// archive, its packed line types): made by [`Prepared::of`] on the thread
/// that extracted the file, so the thread adding files to a segment does not.
pub struct Prepared {
    line_types: Vec<u8>,
    line_marks: Vec<u8>,
    structure: Vec<u8>,
    /// `structure` read back (so the writer does not decode the archive it was made from).
    record: Option<FileStructure>,
    /// The archive compressed with the dictionary of the segment being written
    /// when the file was extracted; taken if the file lands in that segment.
    frame: Option<AheadFrame>,
    /// The names its references name ([`super::reffiles`]); `None` when it
    /// has no structure.
    ref_names: Option<super::reffiles::RefNames>,
    /// The file's terms' indices by the map holding them ([`term_part`]),
    /// those longer than [`MAX_TERM_BYTES`] left out.
    by_part: Vec<u32>,
    part_starts: [u32; TERM_PARTS + 1],
}

impl Prepared {
    /// `dict`: [`SegmentWriter::frame_dict`] of the writer the file will
    /// probably be added to.
    pub fn of(facts: &FileFacts, dict: Option<&FrameDict>) -> Prepared {
        let line_types = pack_line_types(facts.line_types.iter().map(|t| *t as u8));
        let line_marks = facts.line_marks.iter().flat_map(|m| m.to_le_bytes()).collect();
        let record = FileStructure::from_facts(facts);
        let structure = if record.is_empty() { Vec::new() } else { record.to_archive() };
        let frame = dict.filter(|_| !structure.is_empty()).map(|d| d.ahead(&structure));
        let ref_names = (!structure.is_empty()).then(|| super::reffiles::ref_names_of(&record));
        let record = (!structure.is_empty()).then(|| record.into_stored());
        let (by_part, part_starts) = by_part(facts.terms.iter().map(|t| t.term.as_str()));
        Prepared { line_types, line_marks, structure, record, frame, ref_names, by_part, part_starts }
    }
}

/// Term indices grouped by [`term_part`], in increasing order within each map,
/// those longer than [`MAX_TERM_BYTES`] left out; and where each map's start.
fn by_part<'t>(terms: impl Iterator<Item = &'t str>) -> (Vec<u32>, [u32; TERM_PARTS + 1]) {
    let parts: Vec<(u32, u8)> = terms
        .enumerate()
        .filter(|(_, t)| t.len() <= MAX_TERM_BYTES)
        .map(|(i, t)| (i as u32, term_part(t) as u8))
        .collect();
    let mut starts = [0u32; TERM_PARTS + 1];
    for &(_, p) in &parts {
        starts[p as usize + 1] += 1;
    }
    for p in 0..TERM_PARTS {
        starts[p + 1] += starts[p];
    }
    let mut at = starts;
    let mut order = vec![0u32; parts.len()];
    for (i, p) in parts {
        order[at[p as usize] as usize] = i;
        at[p as usize] += 1;
    }
    (order, starts)
}

/// Adds one file's term (its increasing 1-based `lines`) to the map holding it:
/// each line's posting on the definition or other list by its line type, and
/// the file's first slot on the term's reference files when the file's
/// references name it (`ref_names`: [`SegmentWriter::add_entry_with`]).
fn insert_term(
    map: &mut FxHashMap<Box<str>, Postings>,
    term: &str,
    lines: &[u32],
    first_slot: u32,
    line_types: &[u8],
    ref_names: &Option<super::reffiles::RefNames>,
) {
    let (rest, defs, refs) = match map.get_mut(term) {
        Some(b) => b,
        None => map.entry(term.into()).or_default(),
    };
    match ref_names {
        Some(Some(names)) => {
            if let Some(&received) = names.get(term) {
                refs.push(super::reffiles::marked(first_slot, received));
            }
        }
        Some(None) => refs.push(super::reffiles::marked(first_slot, true)),
        None => {}
    }
    for &line in lines {
        let part = (line - 1) / LINES_PER_SLOT;
        let posting = pack(first_slot + part, line - part * LINES_PER_SLOT);
        match line_type_code(line_types, line as usize - 1) {
            Some(2..=4) => defs.push(posting),
            _ => rest.push(posting),
        }
    }
}

/// A file's structure read from its archive; `None` when it has none or it
/// does not read.
fn structure_of(archive: &[u8]) -> Option<structure::FileStructure> {
    match archive.is_empty() {
        true => None,
        false => structure::FileStructure::from_archive(archive),
    }
}

/// The slots a file of `lines` lines takes.
pub fn slots_for(lines: u32) -> u32 {
    lines.div_ceil(LINES_PER_SLOT).max(1)
}

impl SegmentWriter {
    /// A writer whose segment holds at most `max_slots` slots (at most 65,536).
    pub fn new(max_slots: u32) -> SegmentWriter {
        SegmentWriter {
            max_slots: max_slots.clamp(1, MAX_SLOTS_PER_SEGMENT),
            terms: (0..TERM_PARTS).map(|_| FxHashMap::default()).collect(),
            pending: Vec::new(),
            slots: Vec::new(),
            strings: Vec::new(),
            line_types: Vec::new(),
            structure: FrameWriter::new(structure::ZSTD_LEVEL),
            block_level: super::blocks::LEVEL,
            defs: Default::default(),
            vectors: None,
            files: 0,
            lines: 0,
        }
    }

    /// Compresses structure archives at a fast level: for segments written by
    /// updates, where latency counts (a compaction rewrites them).
    pub fn fast(mut self) -> SegmentWriter {
        debug_assert!(self.slots.is_empty());
        self.structure = FrameWriter::new(structure::ZSTD_LEVEL_FAST);
        self.block_level = super::blocks::LEVEL_FAST;
        self
    }

    /// Embeds every type and function with `model` (the vectors section);
    /// call before adding files.
    pub fn with_vectors<E: super::vectors::Embedder + 'static>(
        mut self,
        model: Option<std::sync::Arc<E>>,
    ) -> SegmentWriter {
        debug_assert!(self.slots.is_empty());
        self.vectors = model.map(|m| super::vectors::VectorWriter::new(m));
        self
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Whether a file of `lines` lines still fits.
    pub fn fits(&self, lines: u32) -> bool {
        self.slots.len() as u32 + slots_for(lines) <= self.max_slots
    }

    fn push_string(&mut self, s: &str) -> (u32, u32) {
        let off = self.strings.len() as u32;
        self.strings.extend_from_slice(s.as_bytes());
        (off, s.len() as u32)
    }

    /// Adds an extracted file. The caller checks [`SegmentWriter::fits`] first.
    pub fn add(&mut self, facts: &FileFacts) {
        self.add_prepared(facts.clone(), Prepared::of(facts, None));
    }

    /// Adds an extracted file whose slot parts were made ahead (on another
    /// thread). Its slots are taken now; its terms, definitions and vectors go
    /// in with the next [`SegmentWriter::settle`] (at the latest when the
    /// segment is finished). The caller checks [`SegmentWriter::fits`] first.
    pub fn add_prepared(&mut self, facts: FileFacts, prepared: Prepared) {
        let mut diagnostics = 0u8;
        let mut error_line = 0u32;
        for d in &facts.diagnostics {
            match d {
                crate::extract::Diagnostic::LossyUtf8 => diagnostics |= 1,
                crate::extract::Diagnostic::SyntaxErrors { first_line } => {
                    diagnostics |= 2;
                    error_line = *first_line;
                }
                crate::extract::Diagnostic::ParseFailed => diagnostics |= 4,
                crate::extract::Diagnostic::ParseBudget => diagnostics |= 8,
            }
        }
        let meta = FileMeta {
            size: facts.size,
            hash: facts.hash,
            mtime_ns: facts.mtime_ns,
            language: facts.language.id(),
            diagnostics,
            error_line,
            term_count: facts.terms.len() as u32,
            method_count: facts.methods.len().min(u16::MAX as usize) as u16,
            type_count: facts.types.len().min(u16::MAX as usize) as u16,
        };
        let line_count = facts.line_types.len() as u32;
        let entry = FileEntry {
            path: &facts.path,
            meta,
            line_count,
            line_types: &prepared.line_types,
            line_marks: &prepared.line_marks,
            structure: &prepared.structure,
        };
        let occurrences =
            prepared.by_part.iter().fold(0u32, |n, &i| n.saturating_add(facts.terms[i as usize].lines.len() as u32));
        let first_slot = self.place(&entry, prepared.frame, occurrences, false);
        let FileFacts { path, terms, .. } = facts;
        self.pending.push(PendingFile {
            first_slot,
            parts: slots_for(line_count),
            language: meta.language,
            path,
            terms,
            by_part: prepared.by_part,
            part_starts: prepared.part_starts,
            line_types: prepared.line_types,
            record: prepared.record,
            ref_names: prepared.ref_names,
        });
        if self.pending.len() >= PENDING_FILES {
            self.settle();
        }
    }

    /// Adds the terms, definitions and vectors of the files added since the last
    /// call, and compresses their structure archives: each term map, the
    /// definitions, the vectors and the archives on a task of their own, every
    /// one taking the files in the order they were added (so the bytes do not
    /// depend on the threads).
    pub fn settle(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.pending);
        let mut placed = Vec::new();
        let (maps, defs, vectors, frames, pending) =
            (&mut self.terms, &mut self.defs, &mut self.vectors, &mut self.structure, &pending);
        let add_defs = || {
            for f in pending {
                let s = &f.record;
                let terms: Vec<(&str, &[u32])> = f
                    .terms
                    .iter()
                    .filter(|t| t.term.len() <= MAX_TERM_BYTES)
                    .map(|t| (t.term.as_str(), t.lines.as_slice()))
                    .collect();
                defs.add_structure(f.first_slot, Language::from_id(f.language), s.as_ref(), &terms);
            }
        };
        let add_vectors = || {
            if let Some(v) = vectors {
                for f in pending {
                    v.add_file(&f.path, f.parts, f.record.as_ref());
                }
            }
        };
        let add_terms = || {
            maps.par_iter_mut().enumerate().for_each(|(p, map)| {
                for f in pending {
                    for &i in &f.by_part[f.part_starts[p] as usize..f.part_starts[p + 1] as usize] {
                        let t = &f.terms[i as usize];
                        insert_term(map, &t.term, &t.lines, f.first_slot, &f.line_types, &f.ref_names);
                    }
                }
            })
        };
        rayon::join(|| rayon::join(|| placed = frames.settle(), add_defs), || rayon::join(add_vectors, add_terms));
        self.place_archives(placed);
    }

    /// The dictionary of this segment's structure frames, once trained: frames
    /// made with it before files are added ([`Prepared::of`]) are taken as they are.
    pub fn frame_dict(&self) -> Option<Arc<FrameDict>> {
        self.structure.dict()
    }

    /// Adds a file given as its parts (a file copied out of an existing
    /// segment: compaction, updates), all of it at once. `terms` gives each
    /// distinct term once with its increasing 1-based lines. The caller checks
    /// [`SegmentWriter::fits`] first.
    pub fn add_entry<'t>(&mut self, entry: &FileEntry<'_>, terms: impl Iterator<Item = (&'t str, &'t [u32])>) {
        // Postings stay in slot order: files added before go in first.
        self.settle();
        // Longer words are not indexed.
        let terms: Vec<(&str, &[u32])> = terms.filter(|(t, _)| t.len() <= MAX_TERM_BYTES).collect();
        let first_slot = self.slots.len() as u32;
        // Read once for the tables derived from it.
        let structure = structure_of(entry.structure);
        self.defs.add_structure(first_slot, Language::from_id(entry.meta.language), structure.as_ref(), &terms);
        // The names the file's references name (all of its terms when its
        // references do not decode).
        let ref_names = structure.as_ref().map(super::reffiles::ref_names_of);
        if let Some(v) = &mut self.vectors {
            v.add_file(entry.path, slots_for(entry.line_count), structure.as_ref());
        }
        let mut occurrences = 0u32;
        for &(term, term_lines) in &terms {
            occurrences = occurrences.saturating_add(term_lines.len() as u32);
            insert_term(&mut self.terms[term_part(term)], term, term_lines, first_slot, entry.line_types, &ref_names);
        }
        self.place(entry, None, occurrences, true);
    }

    /// Takes the slots of a file: its path, line types and marks, its structure
    /// archive (compressed by the next [`SegmentWriter::settle`], or now when
    /// `compress`); returns its first slot.
    fn place(&mut self, entry: &FileEntry<'_>, frame: Option<AheadFrame>, occurrences: u32, compress: bool) -> u32 {
        let first_slot = self.slots.len() as u32;
        let lines = entry.line_count;
        let parts = slots_for(lines);
        let path = self.push_string(entry.path);
        let line_types_off = self.line_types.len() as u64;
        self.line_types.extend_from_slice(entry.line_types);
        // A file's marks follow its line types (as many as its line count says:
        // a missing one is written as none, `u32::MAX`).
        let marks = 4 * super::line_mark_count(lines);
        self.line_types.extend(entry.line_marks.iter().copied().chain(std::iter::repeat(0xFF)).take(marks));
        // Set on the slot records once the archive is compressed (the first
        // archives wait for the segment's dictionary).
        let structure = StructureLoc::default();
        let compressed = match (entry.structure.is_empty(), compress) {
            (true, _) => Vec::new(),
            (false, true) => self.structure.add(first_slot as usize, entry.structure, frame),
            (false, false) => {
                self.structure.push(first_slot as usize, entry.structure, frame);
                Vec::new()
            }
        };
        for part in 0..parts {
            self.slots.push(SlotRecord {
                path,
                meta: entry.meta,
                line_types_off,
                structure,
                line_count: lines,
                part: part as u16,
                occurrences,
            });
        }
        self.place_archives(compressed);
        self.files += 1;
        self.lines += lines as u64;
        first_slot
    }

    /// Records where compressed archives are on the slots of their files (each
    /// tagged with its file's first slot).
    fn place_archives(&mut self, placed: Vec<(usize, StructureLoc)>) {
        place_archives(&mut self.slots, placed);
    }

    /// Writes the segment's bytes. The sections are made on the rayon pool (the
    /// terms' sections, the definitions, the last frames and the vectors side by
    /// side; postings, trigrams and frames each split over the threads); the bytes
    /// do not depend on the threads.
    pub fn finish(self) -> Vec<u8> {
        self.finish_timed().0
    }

    /// [`SegmentWriter::finish`], and how long of it ran on the pool (the
    /// parts whose work is spread over its threads); the rest ran on the
    /// calling thread alone.
    pub fn finish_timed(mut self) -> (Vec<u8>, std::time::Duration) {
        let timer = std::time::Instant::now;
        let t = timer();
        self.settle();
        let mut pool = t.elapsed();
        let SegmentWriter {
            terms,
            mut slots,
            strings,
            line_types,
            structure: frames,
            block_level,
            defs,
            vectors,
            files,
            lines,
            ..
        } = self;

        // Exact terms by their fold, then by spelling (both in byte order),
        // each term map taken by its own task; beside them, each definition
        // name with how many there are (owned: `defs` goes to its own task
        // below).
        let t = timer();
        let (variants, name_counts) = rayon::join(
            || {
                let mut variants: Vec<Variant> = terms
                    .into_par_iter()
                    .flat_map_iter(|map| {
                        map.into_iter().map(|(term, postings)| Variant { fold: fold(&term), term, postings })
                    })
                    .collect();
                variants.par_sort_unstable_by(|a, b| a.fold.cmp(&b.fold).then_with(|| a.term.cmp(&b.term)));
                variants
            },
            || -> FxHashMap<Box<str>, u64> {
                defs.name_counts().into_iter().map(|(name, count)| (name.into(), count)).collect()
            },
        );
        // Where each fold's variants start (fold ids are positions here), and one more.
        let mut starts: Vec<usize> = (0..variants.len())
            .into_par_iter()
            .filter(|&i| i == 0 || variants[i].fold != variants[i - 1].fold)
            .collect();
        starts.push(variants.len());
        let is_def: Vec<bool> = variants.par_iter().map(|v| name_counts.contains_key(&*v.term)).collect();
        pool += t.elapsed();
        let definitions: u64 = name_counts.values().sum();

        let mut terms_out = None;
        let mut term_fst = Vec::new();
        let mut grams_out = None;
        let mut subwords_out = None;
        let mut def_sections = None;
        let mut structure_out = None;
        let mut vectors_out = Vec::new();
        let mut ref_files = Vec::new();
        let parts: Vec<u16> = slots.iter().map(|s| s.part).collect();
        let path_starts: Vec<usize> = slots.iter().map(|s| s.path.0 as usize).collect();
        let line_type_starts: Vec<usize> = slots.iter().map(|s| s.line_types_off as usize).collect();
        let mut line_type_blocks = Vec::new();
        let t = timer();
        rayon::scope(|s| {
            let (variants, starts, is_def, parts) = (&variants, &starts, &is_def, &parts);
            s.spawn(|_| line_type_blocks = super::blocks::write(&line_types, line_type_starts, block_level));
            s.spawn(|_| {
                let lists = variants.iter().map(|v| (&v.postings.0[..], &v.postings.1[..], &v.postings.2[..]));
                ref_files = super::reffiles::write(lists, parts);
            });
            s.spawn(|_| terms_out = Some(write_variants(variants, starts, strings, path_starts, block_level)));
            s.spawn(|_| term_fst = write_term_fst(variants, starts));
            s.spawn(|_| grams_out = Some(write_grams(variants, starts)));
            s.spawn(|_| {
                let mut w = super::subwords::SubwordWriter::default();
                for g in starts.windows(2) {
                    let key = &variants[g[0]].fold;
                    for i in g[0]..g[1] {
                        w.add(i as u32, &variants[i].term, key, is_def[i]);
                    }
                }
                for (name, count) in &name_counts {
                    w.add_definitions(name, *count);
                }
                subwords_out = Some(w.finish());
            });
            s.spawn(|_| {
                let mut d = defs.finish();
                d.records = super::blocks::write(&d.records, std::mem::take(&mut d.group_starts), block_level);
                def_sections = Some(d);
            });
            s.spawn(|_| structure_out = Some(frames.finish()));
            s.spawn(|_| vectors_out = vectors.map(super::vectors::VectorWriter::finish).unwrap_or_default());
        });
        pool += t.elapsed();
        let TermSections { fold_count, folds, variants: variant_bytes, strings, postings, occurrences } =
            terms_out.expect("written in the scope");
        let variant_count = variants.len() as u32;
        // Freed on the pool while the rest is written: the terms' postings
        // are millions of small lists.
        rayon::spawn(move || drop(variants));
        let (gram_fst, gram_entries, gram_postings) = grams_out.expect("written in the scope");
        let (subword_fst, subword_lists) = subwords_out.expect("written in the scope");
        let (structure, rest) = structure_out.expect("written in the scope");
        place_archives(&mut slots, rest);
        let vectors = vectors_out;
        let variants = variant_bytes;

        let mut slot_bytes = Vec::with_capacity(slots.len() * SLOT_LEN);
        for s in &slots {
            put_u32(&mut slot_bytes, s.path.0);
            put_u32(&mut slot_bytes, s.path.1);
            let m = &s.meta;
            put_u64(&mut slot_bytes, m.size);
            put_u64(&mut slot_bytes, m.hash);
            put_u64(&mut slot_bytes, m.mtime_ns as u64);
            put_u64(&mut slot_bytes, s.line_types_off);
            put_u64(&mut slot_bytes, s.structure.frame);
            put_u32(&mut slot_bytes, s.structure.len);
            put_u32(&mut slot_bytes, s.line_count);
            slot_bytes.extend_from_slice(&s.part.to_le_bytes());
            slot_bytes.push(m.language);
            slot_bytes.push(m.diagnostics);
            put_u32(&mut slot_bytes, m.error_line);
            put_u32(&mut slot_bytes, m.term_count);
            slot_bytes.extend_from_slice(&m.method_count.to_le_bytes());
            slot_bytes.extend_from_slice(&m.type_count.to_le_bytes());
            put_u32(&mut slot_bytes, s.occurrences);
            put_u32(&mut slot_bytes, s.structure.frame_len);
        }

        let super::defs::DefSections {
            fst: def_fst,
            records: def_records,
            strings: def_strings,
            relation_fst,
            relations,
            ..
        } = def_sections.expect("written in the scope");
        let sections: [(Section, &[u8]); 20] = [
            (Section::TermFst, &term_fst),
            (Section::Folds, &folds),
            (Section::Variants, &variants),
            (Section::Strings, &strings),
            (Section::Postings, &postings),
            (Section::Slots, &slot_bytes),
            (Section::LineTypes, &line_type_blocks),
            (Section::Structure, &structure),
            (Section::GramFst, &gram_fst),
            (Section::Grams, &gram_entries),
            (Section::GramPostings, &gram_postings),
            (Section::DefFst, &def_fst),
            (Section::Defs, &def_records),
            (Section::DefStrings, &def_strings),
            (Section::SubwordFst, &subword_fst),
            (Section::Subwords, &subword_lists),
            (Section::Vectors, &vectors),
            (Section::RelationFst, &relation_fst),
            (Section::Relations, &relations),
            (Section::RefFiles, &ref_files),
        ];
        let table_end = HEADER_LEN + sections.len() * SECTION_ENTRY_LEN;
        let body: usize = sections.iter().map(|(_, b)| align16(b.len())).sum();
        let before_sums = align16(table_end) + body;
        let sums_len = before_sums.div_ceil(CHECK_BLOCK) * 8;
        // One zeroed buffer of the exact length (its pages are first touched
        // by the threads copying into them), the sections copied and hashed
        // side by side on the pool.
        let mut out = vec![0u8; before_sums + sums_len + FOOTER_LEN];
        let (head, mut rest) = out.split_at_mut(align16(table_end));
        let mut places: Vec<(&mut [u8], &[u8])> = Vec::with_capacity(sections.len());
        for (_, bytes) in &sections {
            let (place, after) = std::mem::take(&mut rest).split_at_mut(align16(bytes.len()));
            places.push((place, bytes));
            rest = after;
        }
        let t = timer();
        let hashes: Vec<u64> = places
            .into_par_iter()
            .map(|(place, bytes)| {
                place[..bytes.len()].copy_from_slice(bytes);
                xxh3_64(bytes)
            })
            .collect();
        pool += t.elapsed();
        let mut table = Vec::with_capacity(table_end);
        table.extend_from_slice(MAGIC);
        put_u32(&mut table, FORMAT_VERSION);
        put_u32(&mut table, sections.len() as u32);
        put_u32(&mut table, slots.len() as u32);
        put_u32(&mut table, fold_count as u32);
        put_u32(&mut table, variant_count);
        put_u32(&mut table, files);
        put_u64(&mut table, lines);
        put_u64(&mut table, occurrences);
        table.resize(HEADER_LEN, 0);
        // Block sums: an xxh3 per CHECK_BLOCK bytes of everything before them
        // (header and table included), so a read checks only what it touches.
        table[48..56].copy_from_slice(&(before_sums as u64).to_le_bytes());
        table[56..64].copy_from_slice(&definitions.to_le_bytes());
        let mut offset = align16(table_end);
        for ((kind, bytes), hash) in sections.iter().zip(hashes) {
            put_u32(&mut table, *kind as u32);
            put_u32(&mut table, 0);
            put_u64(&mut table, offset as u64);
            put_u64(&mut table, bytes.len() as u64);
            put_u64(&mut table, hash);
            offset += align16(bytes.len());
        }
        head[..table.len()].copy_from_slice(&table);
        let (summed, tail) = out.split_at_mut(before_sums);
        let (sum_bytes, footer) = tail.split_at_mut(sums_len);
        let t = timer();
        summed
            .par_chunks(CHECK_BLOCK)
            .zip(sum_bytes.par_chunks_mut(8))
            .for_each(|(block, sum)| sum.copy_from_slice(&xxh3_64(block).to_le_bytes()));
        pool += t.elapsed();
        footer[..8].copy_from_slice(&xxh3_64(sum_bytes).to_le_bytes());
        let end = out.len() - 16;
        let checksum = xxh3_64(&out[..end]);
        out[end..end + 8].copy_from_slice(&checksum.to_le_bytes());
        out[end + 8..].copy_from_slice(FOOTER_MAGIC);
        (out, pool)
    }
}

/// Records where compressed archives are on the slots of their files (each
/// tagged with its file's first slot).
fn place_archives(slots: &mut [SlotRecord], placed: Vec<(usize, StructureLoc)>) {
    for (first, loc) in placed {
        let parts = slots_for(slots[first].line_count) as usize;
        for s in &mut slots[first..first + parts] {
            s.structure = loc;
        }
    }
}

/// An exact term of a segment being finished, with its fold.
struct Variant {
    fold: String,
    term: Box<str>,
    postings: Postings,
}

/// The term sections but the fsts, and the segment's occurrences.
struct TermSections {
    fold_count: usize,
    folds: Vec<u8>,
    variants: Vec<u8>,
    strings: Vec<u8>,
    postings: Vec<u8>,
    occurrences: u64,
}

/// A chunk of folds' postings: their bytes, each variant's (start in them,
/// length of its definition list), each fold's occurrences.
type ChunkPostings = (Vec<u8>, Vec<(u64, u32)>, Vec<u32>);

/// Folds per chunk when the term sections are split over the pool's threads.
fn fold_chunk(folds: usize) -> usize {
    folds.div_ceil(64).max(1)
}

/// The folds, variants and postings sections of `variants` (sorted, folds
/// starting at `starts`), and the strings section: `strings` (the paths) with
/// every spelling appended. Postings are encoded in chunks of folds in parallel,
/// then put together in order.
fn write_variants(
    variants: &[Variant],
    starts: &[usize],
    mut strings: Vec<u8>,
    path_starts: Vec<usize>,
    level: i32,
) -> TermSections {
    let fold_count = starts.len() - 1;
    let chunk = fold_chunk(fold_count);
    let parts: Vec<ChunkPostings> = (0..fold_count.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let (first, end) = (c * chunk, ((c + 1) * chunk).min(fold_count));
            let mut bytes = Vec::new();
            let mut records = Vec::with_capacity(starts[end] - starts[first]);
            let mut occurrences = Vec::with_capacity(end - first);
            let mut union: Vec<u32> = Vec::new();
            for f in first..end {
                let group = &variants[starts[f]..starts[f + 1]];
                union.clear();
                for v in group {
                    let (rest, defs, _) = &v.postings;
                    let at = bytes.len() as u64;
                    if !rest.is_empty() {
                        super::postings::encode(rest, &mut bytes);
                    }
                    let rest_len = bytes.len() as u64 - at;
                    if !defs.is_empty() {
                        super::postings::encode(defs, &mut bytes);
                    }
                    records.push((at, (bytes.len() as u64 - at - rest_len) as u32));
                    if group.len() > 1 {
                        union.extend_from_slice(rest);
                        union.extend_from_slice(defs);
                    }
                }
                occurrences.push(if group.len() > 1 {
                    union.sort_unstable();
                    union.dedup();
                    union.len() as u32
                } else {
                    (group[0].postings.0.len() + group[0].postings.1.len()) as u32
                });
            }
            (bytes, records, occurrences)
        })
        .collect();
    // Fold records: first variant, occurrences. Variant records: where the
    // spelling and the postings start, the definition list's length, the
    // occurrences. Each table ends with a record where the last one's extents end.
    let mut folds: Vec<[u64; 2]> = Vec::with_capacity(fold_count + 1);
    let mut records: Vec<[u64; 4]> = Vec::with_capacity(variants.len() + 1);
    let mut postings = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    let mut occurrences = 0u64;
    let (mut f, mut v) = (0, 0);
    for (bytes, variant_parts, fold_occurrences) in parts {
        let base = postings.len() as u64;
        postings.extend_from_slice(&bytes);
        for o in fold_occurrences {
            folds.push([starts[f] as u64, o as u64]);
            occurrences += o as u64;
            f += 1;
        }
        for (at, defs_len) in variant_parts {
            let var = &variants[v];
            let str_off = strings.len() as u64;
            strings.extend_from_slice(var.term.as_bytes());
            let count = (var.postings.0.len() + var.postings.1.len()) as u64;
            records.push([str_off, base + at, defs_len as u64, count]);
            v += 1;
        }
    }
    folds.push([variants.len() as u64, 0]);
    records.push([strings.len() as u64, postings.len() as u64, 0, 0]);
    let items = path_starts.into_iter().chain(records.iter().map(|r| r[0] as usize));
    TermSections {
        fold_count,
        folds: super::packed::write(&folds, 1),
        strings: super::blocks::write(&strings, items, level),
        variants: super::packed::write(&records, 2),
        postings,
        occurrences,
    }
}

/// The term fst: each fold key to its fold id.
fn write_term_fst(variants: &[Variant], starts: &[usize]) -> Vec<u8> {
    let mut builder = fst::MapBuilder::memory();
    for (id, group) in starts.windows(2).enumerate() {
        builder.insert(variants[group[0]].fold.as_bytes(), id as u64).expect("fold keys sorted and distinct");
    }
    builder.into_inner().expect("in-memory fst")
}

/// The gram fst, grams and gram postings sections: each trigram of a fold key to
/// the fold ids whose keys hold it. Chunks of folds are gathered in parallel.
fn write_grams(variants: &[Variant], starts: &[usize]) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let fold_count = starts.len() - 1;
    let chunk = fold_chunk(fold_count);
    let parts: Vec<FxHashMap<[u8; 3], Vec<u32>>> = (0..fold_count.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut grams: FxHashMap<[u8; 3], Vec<u32>> = FxHashMap::default();
            for f in c * chunk..((c + 1) * chunk).min(fold_count) {
                let id = f as u32;
                for g in trigrams(&variants[starts[f]].fold) {
                    let ids = grams.entry(g).or_default();
                    // Fold ids arrive increasing; a key repeating a trigram adds it once.
                    if ids.last() != Some(&id) {
                        ids.push(id);
                    }
                }
            }
            grams
        })
        .collect();
    // Chunks in order: each gram's ids stay increasing.
    let mut all: FxHashMap<[u8; 3], Vec<u32>> = FxHashMap::default();
    for part in parts {
        for (g, ids) in part {
            all.entry(g).or_default().extend_from_slice(&ids);
        }
    }
    let mut grams: Vec<([u8; 3], Vec<u32>)> = all.into_iter().collect();
    grams.sort_unstable_by_key(|(g, _)| *g);
    let mut builder = fst::MapBuilder::memory();
    let mut entries = Vec::with_capacity(grams.len() * GRAM_LEN);
    let mut postings = Vec::new();
    for (i, (gram, ids)) in grams.iter().enumerate() {
        builder.insert(gram, i as u64).expect("grams sorted and distinct");
        let off = postings.len() as u64;
        super::postings::encode(ids, &mut postings);
        put_u64(&mut entries, off);
        put_u32(&mut entries, (postings.len() as u64 - off) as u32);
    }
    (builder.into_inner().expect("in-memory fst"), entries, postings)
}

fn align16(n: usize) -> usize {
    n.div_ceil(16) * 16
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

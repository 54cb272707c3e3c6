//! A file's structure (header comments, types, methods, properties, graph facts)
//! as stored in a segment: one archive per file (its facts in columns, in an rkyv
//! container: `columns.rs`), each compressed alone as a zstd frame with a
//! dictionary the segment trains on its first archives (stored at the head of
//! the section). Reading a file decompresses its own frame only (kubernetes: 7 µs
//! for an archive against 66 µs for the 64 KiB block of archives that format v9
//! and earlier decompressed); with the dictionary one archive compresses about
//! 4x. A read validates (bytecheck) the container and checks every count, id and
//! length of the columns, so a corrupted archive is an error.

use std::sync::Arc;

use zstd::zstd_safe;

mod columns;

use super::postings::{get_varint, put_varint};

use crate::extract::{FileFacts, ImportKind, Receiver, RefFact, RefRole};

/// No archive is this large (one 2 MiB source file yields far less); a larger
/// stated length means corruption.
pub const MAX_ARCHIVE_BYTES: usize = 64 << 20;
/// The dictionary is trained on a segment's first archives, up to this many
/// bytes (kubernetes: the first 2 MiB give a dictionary within 2% of one trained
/// on 8 MiB spread over the tree, in 0.1 s against 0.4 s).
pub const DICT_SAMPLE_BYTES: usize = 2 << 20;
/// Fewer sample bytes than this train no dictionary (a segment of a few files).
const DICT_MIN_SAMPLE_BYTES: usize = 32 << 10;
/// The dictionary's size at most.
const DICT_BYTES: usize = 112 << 10;
/// The zstd level of built and compacted segments. Measured on kubernetes'
/// archives with a dictionary: level 7 gives 27.5% of the raw bytes at 1.3 s for
/// 78 MiB, level 1 32.1% at 0.25 s (single thread).
pub const ZSTD_LEVEL: i32 = 7;
/// The level of segments written by updates, where latency counts (compaction
/// rewrites them at [`ZSTD_LEVEL`]).
pub const ZSTD_LEVEL_FAST: i32 = 1;

/// Where a file's archive is: its frame's offset in the structure section and
/// length, and the archive's length. `len` 0: the file has no structure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StructureLoc {
    pub frame: u64,
    pub len: u32,
    pub frame_len: u32,
}

/// Compresses archives into a structure section: `dict_len u32`, the
/// dictionary (`dict_len` bytes, none when 0), then one zstd frame per archive.
/// Archives wait until [`DICT_SAMPLE_BYTES`] of them are there to train the
/// dictionary on, then are compressed [`FLUSH_BYTES`] at a time on the rayon
/// pool, unless a frame made ahead with the same dictionary comes with them
/// ([`FrameDict`]). Each frame is compressed alone by [`FrameDict::compress`],
/// so the output depends only on the archives and their order, never on the
/// threads or on which frames were made ahead.
pub struct FrameWriter {
    level: i32,
    section: Vec<u8>,
    /// Archives not in the section yet, with the caller's tag.
    waiting: Vec<(usize, Waiting)>,
    waiting_bytes: usize,
    /// The trained dictionary, once training is done.
    dict: Option<Arc<FrameDict>>,
}

enum Waiting {
    Archive(Vec<u8>),
    /// A frame made ahead, and its archive's length.
    Frame(Vec<u8>, u32),
}

/// A segment's trained dictionary (possibly none), shared with the threads that
/// compress archives before they are added ([`FrameWriter::dict`]).
pub struct FrameDict {
    /// Unique in the process: a frame made with another writer's dictionary is
    /// not taken.
    id: u64,
    level: i32,
    bytes: Vec<u8>,
}

/// A frame made ahead by [`FrameDict::compress`].
pub struct AheadFrame {
    dict_id: u64,
    frame: Vec<u8>,
}

static NEXT_DICT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

thread_local! {
    /// This thread's compression context, and the dictionary it holds.
    static COMPRESSOR: std::cell::RefCell<Option<(u64, zstd::bulk::Compressor<'static>)>> =
        const { std::cell::RefCell::new(None) };
}

impl FrameDict {
    /// `archive` as a frame of this dictionary. Each thread keeps one context
    /// for the dictionary it used last (loading the dictionary into a context
    /// costs about a millisecond).
    pub fn compress(&self, archive: &[u8]) -> Vec<u8> {
        COMPRESSOR.with(|cell| {
            let mut cell = cell.borrow_mut();
            if cell.as_ref().is_none_or(|(id, _)| *id != self.id) {
                let mut c = zstd::bulk::Compressor::with_dictionary(self.level, &self.bytes)
                    .expect("a compression context with a trained dictionary");
                // The dictionary's id in every frame would only repeat the section's.
                let _ = c.set_parameter(zstd::stream::raw::CParameter::DictIdFlag(false));
                *cell = Some((self.id, c));
            }
            let (_, c) = cell.as_mut().expect("set above");
            c.compress(archive).expect("compressing into memory cannot fail")
        })
    }

    /// [`FrameDict::compress`], kept for [`FrameWriter::add`].
    pub fn ahead(&self, archive: &[u8]) -> AheadFrame {
        AheadFrame { dict_id: self.id, frame: self.compress(archive) }
    }
}

/// Once the dictionary is trained, archives are compressed in batches of about
/// this many bytes (a batch is split over the pool's threads).
const FLUSH_BYTES: usize = 4 << 20;

impl FrameWriter {
    pub fn new(level: i32) -> FrameWriter {
        FrameWriter { level, section: Vec::new(), waiting: Vec::new(), waiting_bytes: 0, dict: None }
    }

    /// The dictionary, once trained: frames made with it ahead are taken by
    /// [`FrameWriter::add`].
    pub fn dict(&self) -> Option<Arc<FrameDict>> {
        self.dict.clone()
    }

    /// Adds an archive, with its frame when one was made ahead; returns the
    /// locations of the archives placed by this call, with their tags (none, or
    /// every waiting one's).
    pub fn add(&mut self, tag: usize, archive: &[u8], ahead: Option<AheadFrame>) -> Vec<(usize, StructureLoc)> {
        self.push(tag, archive, ahead);
        self.settle()
    }

    /// Adds an archive (with its frame when one was made ahead) without
    /// compressing anything: [`FrameWriter::settle`] does, on the pool.
    pub fn push(&mut self, tag: usize, archive: &[u8], ahead: Option<AheadFrame>) {
        match (&self.dict, ahead) {
            (Some(d), Some(a)) if a.dict_id == d.id => {
                self.waiting_bytes += a.frame.len();
                self.waiting.push((tag, Waiting::Frame(a.frame, archive.len() as u32)));
            }
            _ => {
                self.waiting_bytes += archive.len();
                self.waiting.push((tag, Waiting::Archive(archive.to_vec())));
            }
        }
    }

    /// Trains the dictionary once [`DICT_SAMPLE_BYTES`] of archives wait, and
    /// compresses the waiting archives once [`FLUSH_BYTES`] of them wait;
    /// returns the locations of the archives placed, with their tags.
    pub fn settle(&mut self) -> Vec<(usize, StructureLoc)> {
        match self.dict {
            None if self.waiting_bytes >= DICT_SAMPLE_BYTES => {
                self.train();
                self.flush()
            }
            Some(_) if self.waiting_bytes >= FLUSH_BYTES => self.flush(),
            _ => Vec::new(),
        }
    }

    /// Trains the dictionary on the first waiting archives, up to the one
    /// reaching [`DICT_SAMPLE_BYTES`] (all of them when they are fewer; none
    /// when they are too few or training fails), and writes it. The samples are
    /// the segment's first archives however late this is called.
    fn train(&mut self) {
        let mut samples: Vec<&[u8]> = Vec::new();
        let mut sampled = 0usize;
        for (_, w) in &self.waiting {
            if sampled >= DICT_SAMPLE_BYTES {
                break;
            }
            if let Waiting::Archive(a) = w {
                samples.push(a);
                sampled += a.len();
            }
        }
        let dict = if sampled >= DICT_MIN_SAMPLE_BYTES {
            zstd::dict::from_samples(&samples, DICT_BYTES).unwrap_or_default()
        } else {
            Vec::new()
        };
        self.section.extend_from_slice(&(dict.len() as u32).to_le_bytes());
        self.section.extend_from_slice(&dict);
        let id = NEXT_DICT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.dict = Some(Arc::new(FrameDict { id, level: self.level, bytes: dict }));
    }

    /// Compresses the waiting archives (in parallel) and appends their frames, and
    /// those made ahead, in order.
    fn flush(&mut self) -> Vec<(usize, StructureLoc)> {
        use rayon::prelude::*;
        let dict = self.dict.clone().expect("flush after training");
        let waiting = std::mem::take(&mut self.waiting);
        self.waiting_bytes = 0;
        let frames: Vec<(usize, Vec<u8>, u32)> = waiting
            .into_par_iter()
            .map(|(tag, w)| match w {
                Waiting::Archive(a) => (tag, dict.compress(&a), a.len() as u32),
                Waiting::Frame(frame, len) => (tag, frame, len),
            })
            .collect();
        frames
            .into_iter()
            .map(|(tag, frame, len)| {
                let loc = StructureLoc { frame: self.section.len() as u64, len, frame_len: frame.len() as u32 };
                self.section.extend_from_slice(&frame);
                (tag, loc)
            })
            .collect()
    }

    /// The section's bytes, and the locations of the archives that were still
    /// waiting.
    pub fn finish(mut self) -> (Vec<u8>, Vec<(usize, StructureLoc)>) {
        if self.dict.is_none() {
            self.train();
        }
        let rest = self.flush();
        (self.section, rest)
    }
}

/// A structure section's dictionary (empty when it has none); `None` when the
/// section's head is invalid.
pub fn section_dict(section: &[u8]) -> Option<&[u8]> {
    if section.is_empty() {
        return Some(&[]);
    }
    let len = u32::from_le_bytes(section.get(..4)?.try_into().ok()?) as usize;
    section.get(4..4usize.checked_add(len)?)
}

/// A prepared dictionary for [`read_frame`].
pub struct Dict(Option<zstd_safe::DDict<'static>>);

impl Dict {
    pub fn new(dict: &[u8]) -> Dict {
        Dict((!dict.is_empty()).then(|| zstd_safe::DDict::create(dict)))
    }
}

/// The archive at `loc` of a structure section; `None` when the bytes are not
/// a valid frame of that length.
pub fn read_frame(section: &[u8], dict: &Dict, loc: StructureLoc) -> Option<Vec<u8>> {
    let raw_len = loc.len as usize;
    if raw_len > MAX_ARCHIVE_BYTES {
        return None;
    }
    let at = usize::try_from(loc.frame).ok()?;
    let frame = section.get(at..at.checked_add(loc.frame_len as usize)?)?;
    super::blocks::decompress_exact(frame, raw_len, dict.0.as_ref())
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileStructure {
    pub header: String,
    pub types: Vec<TypeRecord>,
    pub methods: Vec<MethodRecord>,
    pub properties: Vec<PropertyRecord>,
    /// The file's package or namespace (Go, C#); empty elsewhere.
    pub scope: String,
    /// The names [`FileStructure::refs`] points into: reference names and receiver
    /// names, each once, in order of first use.
    pub names: Vec<String>,
    /// The file's references, packed (see [`encode_refs`]).
    pub refs: Vec<u8>,
    pub imports: Vec<ImportRecord>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportRecord {
    pub line: u32,
    pub spec: String,
    pub names: Vec<ImportName>,
    /// 0 import, 1 re-export, 2 Rust `mod x;`.
    pub kind: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportName {
    pub name: String,
    pub alias: String,
}

/// The name an import `real as alias` makes `name` stand for: `real` when
/// `name` is its alias (`import { Store as S }`: `S` → `Store`), not for a glob
/// or a default import. The graph and the relation sections share this rule.
pub fn aliased<'a>(real: &'a str, alias: &str, name: &str) -> Option<&'a str> {
    (alias == name && real != "*" && real != "default" && !real.is_empty()).then_some(real)
}

/// A reference read back from [`FileStructure::refs`]: names are indexes into
/// [`FileStructure::names`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedRef {
    pub line: u32,
    pub name: u32,
    pub role: RefRole,
    pub receiver: PackedReceiver,
    /// A call's number of arguments ([`crate::extract::RefFact::args`]).
    pub args: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackedReceiver {
    None,
    Type(u32),
    Name(u32),
    Unknown,
    Returns(u32),
    /// A field `.1` of a value of type `.0`.
    Member(u32, u32),
    /// A supertype's subtype `.0` and the qualifier `.1` it is written with.
    Qualified(u32, u32),
}

/// Packs references (sorted by line) as `varint(line - previous line)`,
/// `varint(name)`, a byte `role | receiver kind << 4 | 0x80 when the call's
/// number of arguments follows` (kinds: 0 none, 1 type, 2 name, 3 unknown, 4
/// the result of calling the named function, 5 a field of a value of a type, 6
/// a supertype's subtype and qualifier), then `varint(receiver name)` for kinds
/// 1, 2, 4, 5 and 6 (6: the subtype), and for kind 5 `varint(field name)`, for
/// kind 6 `varint(qualifier)`, then the number of arguments (a byte) when
/// flagged. Names go into `names`, each once.
pub fn encode_refs(refs: &[RefFact], names: &mut Vec<String>) -> Vec<u8> {
    let mut ids: rustc_hash::FxHashMap<String, u32> =
        names.iter().enumerate().map(|(i, n)| (n.clone(), i as u32)).collect();
    let mut id = |n: &str, names: &mut Vec<String>| -> u32 {
        if let Some(&i) = ids.get(n) {
            return i;
        }
        names.push(n.to_string());
        ids.insert(n.to_string(), names.len() as u32 - 1);
        names.len() as u32 - 1
    };
    let mut out = Vec::with_capacity(refs.len() * 4);
    let mut prev = 0u32;
    for r in refs {
        put_varint(&mut out, r.line.saturating_sub(prev) as u64);
        prev = r.line.max(prev);
        let name = id(&r.name, names);
        put_varint(&mut out, name as u64);
        let (kind, recv) = match &r.receiver {
            Receiver::None => (0u8, None),
            Receiver::Type(t) => (1, Some(id(t, names))),
            Receiver::Name(n) => (2, Some(id(n, names))),
            Receiver::Unknown => (3, None),
            Receiver::Returns(f) => (4, Some(id(f, names))),
            Receiver::Member(t, _) => (5, Some(id(t, names))),
            Receiver::Qualified(t, _) => (6, Some(id(t, names))),
        };
        let member = match &r.receiver {
            Receiver::Member(_, m) | Receiver::Qualified(_, m) => Some(id(m, names)),
            _ => None,
        };
        let args = r.args.filter(|&n| n as usize <= crate::extract::MAX_ARGS);
        out.push(r.role as u8 | kind << 4 | if args.is_some() { 0x80 } else { 0 });
        if let Some(recv) = recv {
            put_varint(&mut out, recv as u64);
        }
        if let Some(m) = member {
            put_varint(&mut out, m as u64);
        }
        if let Some(n) = args {
            out.push(n);
        }
    }
    out
}

/// Unpacks [`encode_refs`]'s bytes; `None` when they are malformed or point past
/// `name_count` names.
pub fn decode_refs(bytes: &[u8], name_count: usize) -> Option<Vec<PackedRef>> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut line = 0u32;
    let check = |v: u64| (v < name_count as u64).then_some(v as u32);
    while at < bytes.len() {
        line = line.checked_add(u32::try_from(get_varint(bytes, &mut at)?).ok()?)?;
        let name = check(get_varint(bytes, &mut at)?)?;
        let tag = *bytes.get(at)?;
        at += 1;
        let role = RefRole::from_u8(tag & 0x0f)?;
        let receiver = match (tag >> 4) & 7 {
            0 => PackedReceiver::None,
            1 => PackedReceiver::Type(check(get_varint(bytes, &mut at)?)?),
            2 => PackedReceiver::Name(check(get_varint(bytes, &mut at)?)?),
            3 => PackedReceiver::Unknown,
            4 => PackedReceiver::Returns(check(get_varint(bytes, &mut at)?)?),
            5 => {
                let t = check(get_varint(bytes, &mut at)?)?;
                PackedReceiver::Member(t, check(get_varint(bytes, &mut at)?)?)
            }
            6 => {
                let t = check(get_varint(bytes, &mut at)?)?;
                PackedReceiver::Qualified(t, check(get_varint(bytes, &mut at)?)?)
            }
            _ => return None,
        };
        let args = if tag & 0x80 != 0 {
            let n = *bytes.get(at)?;
            at += 1;
            if n as usize > crate::extract::MAX_ARGS {
                return None;
            }
            Some(n)
        } else {
            None
        };
        out.push(PackedRef { line, name, role, receiver, args });
    }
    Some(out)
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeRecord {
    pub name: String,
    pub kind: String,
    pub line: u32,
    pub end_line: u32,
    pub parent: Option<String>,
    pub visibility: Option<String>,
    pub doc: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MethodRecord {
    pub name: String,
    pub prototype: String,
    pub line: u32,
    pub end_line: u32,
    /// The declared result type's plain name; empty when none.
    pub returns: String,
    pub visibility: Option<String>,
    pub is_static: bool,
    pub is_async: bool,
    pub parent: Option<String>,
    /// The doc comment, cut to `extract::MAX_METHOD_DOC` bytes.
    pub doc: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PropertyRecord {
    pub name: String,
    pub declaration: String,
    pub line: u32,
    pub end_line: u32,
    /// The declared type's plain name; empty when none.
    pub ty: String,
    pub visibility: Option<String>,
    pub is_static: bool,
    pub parent: Option<String>,
}

impl FileStructure {
    pub fn from_facts(f: &FileFacts) -> FileStructure {
        FileStructure {
            header: f.header.clone(),
            types: f
                .types
                .iter()
                .map(|t| TypeRecord {
                    name: t.name.clone(),
                    kind: t.kind.to_string(),
                    line: t.line,
                    end_line: t.end_line,
                    parent: t.parent.clone(),
                    visibility: t.visibility.map(str::to_string),
                    doc: t.doc.clone(),
                })
                .collect(),
            methods: f
                .methods
                .iter()
                .map(|m| MethodRecord {
                    name: m.name.clone(),
                    prototype: m.prototype.clone(),
                    line: m.line,
                    end_line: m.end_line,
                    returns: m.returns.clone().unwrap_or_default(),
                    visibility: m.visibility.map(str::to_string),
                    is_static: m.is_static,
                    is_async: m.is_async,
                    parent: m.parent.clone(),
                    doc: m.doc.clone(),
                })
                .collect(),
            properties: f
                .properties
                .iter()
                .map(|p| PropertyRecord {
                    name: p.name.clone(),
                    declaration: p.declaration.clone(),
                    line: p.line,
                    end_line: p.end_line,
                    ty: p.ty.clone().unwrap_or_default(),
                    visibility: p.visibility.map(str::to_string),
                    is_static: p.is_static,
                    parent: p.parent.clone(),
                })
                .collect(),
            scope: f.scope.clone(),
            names: Vec::new(),
            refs: Vec::new(),
            imports: f
                .imports
                .iter()
                .map(|i| ImportRecord {
                    line: i.line,
                    spec: i.spec.clone(),
                    names: i
                        .names
                        .iter()
                        .map(|(name, alias)| ImportName { name: name.clone(), alias: alias.clone() })
                        .collect(),
                    kind: match i.kind {
                        ImportKind::Import => 0,
                        ImportKind::Reexport => 1,
                        ImportKind::Mod => 2,
                    },
                })
                .collect(),
        }
        .with_refs(&f.refs)
    }

    fn with_refs(mut self, refs: &[RefFact]) -> FileStructure {
        self.refs = encode_refs(refs, &mut self.names);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.header.is_empty()
            && self.types.is_empty()
            && self.methods.is_empty()
            && self.properties.is_empty()
            && self.scope.is_empty()
            && self.refs.is_empty()
            && self.imports.is_empty()
    }

    /// The file's archive (compressed into the structure section).
    pub fn to_archive(&self) -> Vec<u8> {
        let archive = columns::encode(self);
        debug_assert_eq!(
            columns::decode(&archive, true),
            Some(columns::stored(self)),
            "an archive reads back as written"
        );
        archive
    }

    /// The structure as its archive reads back ([`FileStructure::from_archive`]
    /// of [`FileStructure::to_archive`]): a NUL within a string is U+FFFD.
    pub fn into_stored(self) -> FileStructure {
        columns::into_stored(self)
    }

    /// Validates and reads an archive; `None` when the bytes are not a valid one.
    pub fn from_archive(bytes: &[u8]) -> Option<FileStructure> {
        columns::decode(bytes, true)
    }

    /// [`FileStructure::from_archive`] without the prose the graph does not
    /// use: the header comments, doc comments, prototypes and declarations are
    /// left empty, not read.
    pub fn from_archive_without_text(bytes: &[u8]) -> Option<FileStructure> {
        columns::decode(bytes, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Archive-like records: repetitive across files, distinct within one.
    fn archives(n: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| {
                let mut a = Vec::new();
                for j in 0..(i % 13 + 3) {
                    a.extend_from_slice(
                        format!("method handle{j}_{} returns Store{} kind=function;", i * 7 % 101, j % 5).as_bytes(),
                    );
                }
                a
            })
            .collect()
    }

    /// Writes `archives` into a section; their locations in order.
    fn write(archives: &[Vec<u8>], level: i32) -> (Vec<u8>, Vec<StructureLoc>) {
        let mut w = FrameWriter::new(level);
        let mut locs = vec![StructureLoc::default(); archives.len()];
        for (i, a) in archives.iter().enumerate() {
            for (tag, loc) in w.add(i, a, None) {
                locs[tag] = loc;
            }
        }
        let (section, rest) = w.finish();
        for (tag, loc) in rest {
            locs[tag] = loc;
        }
        (section, locs)
    }

    #[test]
    fn frames_read_back_with_and_without_a_dictionary() {
        // 40 archives are too few to train on; 40,000 pass the sample size, so
        // some wait for the dictionary and later ones are compressed at once.
        for n in [0, 1, 40, 40_000] {
            let archives = archives(n);
            let (section, locs) = write(&archives, ZSTD_LEVEL_FAST);
            let dict_bytes = section_dict(&section).unwrap();
            assert_eq!(dict_bytes.is_empty(), n < 40_000, "{n} archives");
            let dict = Dict::new(dict_bytes);
            for (a, loc) in archives.iter().zip(&locs) {
                assert_eq!(loc.len as usize, a.len());
                assert_eq!(read_frame(&section, &dict, *loc).as_deref(), Some(a.as_slice()), "{n} archives");
            }
            // The same archives make the same bytes, whatever the threads that
            // compress them.
            assert_eq!(write(&archives, ZSTD_LEVEL_FAST).0, section);
            let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
            assert_eq!(pool.install(|| write(&archives, ZSTD_LEVEL_FAST)), (section, locs), "{n} archives");
        }
    }

    /// Frames made ahead with the writer's own dictionary are taken; those made
    /// with another writer's (trained on other archives) are not: the section is
    /// the one made without any ahead.
    #[test]
    fn frames_made_ahead_give_the_same_section() {
        let archives = archives(40_000);
        let (reference, locs) = write(&archives, ZSTD_LEVEL_FAST);
        let other = {
            let mut o = FrameWriter::new(ZSTD_LEVEL_FAST);
            for (i, a) in archives.iter().rev().enumerate() {
                o.add(i, a, None);
                if o.dict().is_some() {
                    break;
                }
            }
            o.dict().unwrap()
        };
        let mut w = FrameWriter::new(ZSTD_LEVEL_FAST);
        let mut got = vec![StructureLoc::default(); archives.len()];
        let (mut taken, mut foreign) = (0, 0);
        for (i, a) in archives.iter().enumerate() {
            let ahead = match (w.dict(), i % 3) {
                (Some(d), 0 | 1) => {
                    taken += 1;
                    Some(d.ahead(a))
                }
                (Some(_), _) => {
                    let f = other.ahead(a);
                    foreign += (f.frame != w.dict().unwrap().compress(a)) as usize;
                    Some(f)
                }
                (None, _) => None,
            };
            for (tag, loc) in w.add(i, a, ahead) {
                got[tag] = loc;
            }
        }
        let (section, rest) = w.finish();
        for (tag, loc) in rest {
            got[tag] = loc;
        }
        assert!(taken > 10_000 && foreign > 1_000, "{taken} taken, {foreign} foreign frames that differ");
        assert!(section == reference && got == locs);
    }

    #[test]
    fn frames_are_flushed_in_batches_once_the_dictionary_is_trained() {
        let archives = archives(40_000);
        let raw: usize = archives.iter().map(Vec::len).sum();
        assert!(raw > DICT_SAMPLE_BYTES + 2 * FLUSH_BYTES, "{raw} bytes: too few to flush twice");
        let mut w = FrameWriter::new(ZSTD_LEVEL_FAST);
        let mut placed = Vec::new();
        let mut calls_placing = 0;
        for (i, a) in archives.iter().enumerate() {
            let got = w.add(i, a, None);
            calls_placing += !got.is_empty() as usize;
            placed.extend(got);
        }
        let (_, rest) = w.finish();
        placed.extend(rest);
        // Training, at least two flushes, and every archive placed once, in order.
        assert!(calls_placing >= 3, "{calls_placing}");
        assert!(placed.iter().map(|(tag, _)| *tag).eq(0..archives.len()));
        assert!(placed.windows(2).all(|w| w[0].1.frame < w[1].1.frame));
    }

    #[test]
    fn a_dictionary_makes_small_archives_smaller() {
        let archives = archives(40_000);
        let raw: usize = archives.iter().map(Vec::len).sum();
        let (with, _) = write(&archives, ZSTD_LEVEL_FAST);
        let alone: usize = archives.iter().map(|a| zstd::bulk::compress(a, ZSTD_LEVEL_FAST).unwrap().len()).sum();
        assert!(raw > DICT_SAMPLE_BYTES);
        assert!(with.len() * 2 < alone, "with a dictionary {} bytes, without {alone}", with.len());
    }

    #[test]
    fn corrupted_frames_are_none_not_a_panic() {
        let archives = archives(40_000);
        let (section, locs) = write(&archives, ZSTD_LEVEL_FAST);
        let dict = Dict::new(section_dict(&section).unwrap());
        let loc = locs[40_000 - 1];
        let mut bad = section.clone();
        for k in 0..loc.frame_len as usize {
            bad[loc.frame as usize + k] ^= 0x5a;
        }
        assert_ne!(read_frame(&bad, &dict, loc).as_deref(), Some(archives[40_000 - 1].as_slice()));
        // A stated length beyond the frame, or past the section.
        assert_eq!(read_frame(&section, &dict, StructureLoc { len: loc.len + 1, ..loc }), None);
        assert_eq!(read_frame(&section, &dict, StructureLoc { frame: section.len() as u64, ..loc }), None);
        assert_eq!(read_frame(&section, &dict, StructureLoc { len: u32::MAX, ..loc }), None);
        assert_eq!(section_dict(&[9, 9, 9, 9, 1]), None);
    }

    fn receiver() -> impl Strategy<Value = Receiver> {
        prop_oneof![
            Just(Receiver::None),
            "[a-c]{1,2}".prop_map(Receiver::Type),
            "[a-c]{1,2}".prop_map(Receiver::Name),
            Just(Receiver::Unknown),
            "[a-c]{1,2}".prop_map(Receiver::Returns),
            ("[a-c]{1,2}", "[a-c]{1,2}").prop_map(|(t, m)| Receiver::Member(t, m)),
            ("[a-c]{1,2}", "[a-c]{1,2}").prop_map(|(t, q)| Receiver::Qualified(t, q)),
        ]
    }

    proptest! {
        /// Packing and unpacking references gives them back, names and all.
        #[test]
        fn refs_round_trip(mut refs in proptest::collection::vec(
            (1u32..100_000, "[a-d]{1,3}", 0usize..5, receiver(), proptest::option::of(0u8..64)), 0..50)) {
            refs.sort_by_key(|r| r.0);
            let facts: Vec<RefFact> = refs
                .into_iter()
                .map(|(line, name, role, receiver, args)| RefFact { line, name, role: RefRole::ALL[role], receiver, args })
                .collect();
            let mut names = Vec::new();
            let bytes = encode_refs(&facts, &mut names);
            let back = decode_refs(&bytes, names.len()).unwrap();
            prop_assert_eq!(back.len(), facts.len());
            for (p, f) in back.iter().zip(&facts) {
                prop_assert_eq!(p.line, f.line);
                prop_assert_eq!(&names[p.name as usize], &f.name);
                prop_assert_eq!(p.role, f.role);
                let r = match p.receiver {
                    PackedReceiver::None => Receiver::None,
                    PackedReceiver::Type(i) => Receiver::Type(names[i as usize].clone()),
                    PackedReceiver::Name(i) => Receiver::Name(names[i as usize].clone()),
                    PackedReceiver::Unknown => Receiver::Unknown,
                    PackedReceiver::Returns(i) => Receiver::Returns(names[i as usize].clone()),
                    PackedReceiver::Member(t, m) => Receiver::Member(names[t as usize].clone(), names[m as usize].clone()),
                    PackedReceiver::Qualified(t, q) => {
                        Receiver::Qualified(names[t as usize].clone(), names[q as usize].clone())
                    }
                };
                prop_assert_eq!(&r, &f.receiver);
                prop_assert_eq!(p.args, f.args);
            }
            // Truncated bytes never panic.
            for cut in 0..bytes.len() {
                let _ = decode_refs(&bytes[..cut], names.len());
            }
        }
    }
}

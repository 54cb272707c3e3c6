//! A file's structure (header comments, types, methods, properties) as stored in a
//! segment: one rkyv archive per file, archives of consecutive files concatenated
//! into blocks of about [`BLOCK_TARGET`] bytes, each block zstd-compressed. Blocks
//! compress 4-5x where one file's archive alone compresses 3x (neighbouring files
//! share names, kinds and prototypes). Reading a file decompresses its block and
//! validates (bytecheck) its archive, so a corrupted archive is an error and a read
//! costs one block.

use rkyv::rancor::Error as RkyvError;

use super::postings::{get_varint, put_varint};

use crate::extract::{FileFacts, ImportKind, Receiver, RefFact, RefRole};

/// No block is this large (one 2 MiB source file yields far less); a larger stated
/// length means corruption.
const MAX_BLOCK_BYTES: usize = 64 << 20;
/// A block is closed once its archives reach this many bytes.
pub const BLOCK_TARGET: usize = 64 << 10;
/// The zstd level of built and compacted segments. Measured on the corpus's
/// archives: level 3 gives 22% of the raw bytes at 1.3 s for 480 MiB, level 7 20% at
/// 4.8 s (single thread); levels above gain little.
pub const ZSTD_LEVEL: i32 = 7;
/// The level of segments written by updates, where latency counts (compaction
/// rewrites them at [`ZSTD_LEVEL`]).
pub const ZSTD_LEVEL_FAST: i32 = 1;

/// Where a file's archive is: its block's offset in the structure section, the
/// archive's length, and its offset within the decompressed block. `len` 0: the
/// file has no structure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StructureLoc {
    pub block: u64,
    pub len: u32,
    pub at: u32,
}

/// Appends a block: `raw_len u32, frame_len u32`, then a zstd frame of `raw`.
pub fn write_block(raw: &[u8], level: i32, out: &mut Vec<u8>) {
    let frame = zstd::bulk::compress(raw, level).expect("compressing into memory cannot fail");
    out.extend_from_slice(&(raw.len() as u32).to_le_bytes());
    out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
    out.extend_from_slice(&frame);
}

/// The decompressed block at `offset` of a structure section; `None` when the
/// bytes are not a valid block.
pub fn read_block(section: &[u8], offset: u64) -> Option<Vec<u8>> {
    let at = usize::try_from(offset).ok()?;
    let head = section.get(at..at.checked_add(8)?)?;
    let raw_len = u32::from_le_bytes(head[..4].try_into().ok()?) as usize;
    let frame_len = u32::from_le_bytes(head[4..].try_into().ok()?) as usize;
    if raw_len > MAX_BLOCK_BYTES {
        return None;
    }
    let frame = section.get(at + 8..(at + 8).checked_add(frame_len)?)?;
    // One decompression context per thread: making one per block costs more
    // than many a block's decompression (its window is allocated, and zeroed).
    thread_local! {
        static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    let raw = DECOMPRESSOR.with(|d| {
        let mut d = d.try_borrow_mut().ok()?;
        if d.is_none() {
            *d = zstd::bulk::Decompressor::new().ok();
        }
        d.as_mut()?.decompress(frame, raw_len).ok()
    })?;
    (raw.len() == raw_len).then_some(raw)
}

#[derive(Clone, Debug, Default, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
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

#[derive(Clone, Debug, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub struct ImportRecord {
    pub line: u32,
    pub spec: String,
    pub names: Vec<ImportName>,
    /// 0 import, 1 re-export, 2 Rust `mod x;`.
    pub kind: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
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
}

/// Packs references (sorted by line) as `varint(line - previous line)`,
/// `varint(name)`, a byte `role | receiver kind << 4` (0 none, 1 type, 2 name,
/// 3 unknown, 4 the result of calling the named function, 5 a field of a value
/// of a type), then `varint(receiver name)` for kinds 1, 2, 4 and 5, and for
/// kind 5 `varint(field name)`. Names go into
/// `names`, each once.
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
        };
        let member = match &r.receiver {
            Receiver::Member(_, m) => Some(id(m, names)),
            _ => None,
        };
        out.push(r.role as u8 | kind << 4);
        if let Some(recv) = recv {
            put_varint(&mut out, recv as u64);
        }
        if let Some(m) = member {
            put_varint(&mut out, m as u64);
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
        let receiver = match tag >> 4 {
            0 => PackedReceiver::None,
            1 => PackedReceiver::Type(check(get_varint(bytes, &mut at)?)?),
            2 => PackedReceiver::Name(check(get_varint(bytes, &mut at)?)?),
            3 => PackedReceiver::Unknown,
            4 => PackedReceiver::Returns(check(get_varint(bytes, &mut at)?)?),
            5 => {
                let t = check(get_varint(bytes, &mut at)?)?;
                PackedReceiver::Member(t, check(get_varint(bytes, &mut at)?)?)
            }
            _ => return None,
        };
        out.push(PackedRef { line, name, role, receiver });
    }
    Some(out)
}

#[derive(Clone, Debug, Default, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub struct TypeRecord {
    pub name: String,
    pub kind: String,
    pub line: u32,
    pub end_line: u32,
    pub parent: Option<String>,
    pub visibility: Option<String>,
    pub doc: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
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

#[derive(Clone, Debug, Default, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
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

    /// The file's rkyv archive (stored in a structure block).
    pub fn to_archive(&self) -> Vec<u8> {
        rkyv::to_bytes::<RkyvError>(self).map(|v| v.to_vec()).unwrap_or_default()
    }

    /// Validates and reads an archive; `None` when the bytes are not a valid one.
    pub fn from_archive(bytes: &[u8]) -> Option<FileStructure> {
        let archived = rkyv::access::<ArchivedFileStructure, RkyvError>(bytes).ok()?;
        rkyv::deserialize::<FileStructure, RkyvError>(archived).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn receiver() -> impl Strategy<Value = Receiver> {
        prop_oneof![
            Just(Receiver::None),
            "[a-c]{1,2}".prop_map(Receiver::Type),
            "[a-c]{1,2}".prop_map(Receiver::Name),
            Just(Receiver::Unknown),
            "[a-c]{1,2}".prop_map(Receiver::Returns),
            ("[a-c]{1,2}", "[a-c]{1,2}").prop_map(|(t, m)| Receiver::Member(t, m)),
        ]
    }

    proptest! {
        /// Packing and unpacking references gives them back, names and all.
        #[test]
        fn refs_round_trip(mut refs in proptest::collection::vec(
            (1u32..100_000, "[a-d]{1,3}", 0usize..5, receiver()), 0..50)) {
            refs.sort_by_key(|r| r.0);
            let facts: Vec<RefFact> = refs
                .into_iter()
                .map(|(line, name, role, receiver)| RefFact { line, name, role: RefRole::ALL[role], receiver })
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
                };
                prop_assert_eq!(&r, &f.receiver);
            }
            // Truncated bytes never panic.
            for cut in 0..bytes.len() {
                let _ = decode_refs(&bytes[..cut], names.len());
            }
        }
    }
}

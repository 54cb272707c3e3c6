//! A file's structure (header comments, types, methods, properties) as stored in a
//! segment: one rkyv archive per file, archives of consecutive files concatenated
//! into blocks of about [`BLOCK_TARGET`] bytes, each block zstd-compressed. Blocks
//! compress 4-5x where one file's archive alone compresses 3x (neighbouring files
//! share names, kinds and prototypes). Reading a file decompresses its block and
//! validates (bytecheck) its archive, so a corrupted archive is an error and a read
//! costs one block.

use rkyv::rancor::Error as RkyvError;

use crate::extract::FileFacts;

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
    let raw = zstd::bulk::decompress(frame, raw_len).ok()?;
    (raw.len() == raw_len).then_some(raw)
}

#[derive(Clone, Debug, Default, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub struct FileStructure {
    pub header: String,
    pub types: Vec<TypeRecord>,
    pub methods: Vec<MethodRecord>,
    pub properties: Vec<PropertyRecord>,
}

#[derive(Clone, Debug, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub struct TypeRecord {
    pub name: String,
    pub kind: String,
    pub line: u32,
    pub parent: Option<String>,
    pub visibility: Option<String>,
    pub doc: String,
}

#[derive(Clone, Debug, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub struct MethodRecord {
    pub name: String,
    pub prototype: String,
    pub line: u32,
    pub visibility: Option<String>,
    pub is_static: bool,
    pub is_async: bool,
    pub parent: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub struct PropertyRecord {
    pub name: String,
    pub declaration: String,
    pub line: u32,
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
                    visibility: m.visibility.map(str::to_string),
                    is_static: m.is_static,
                    is_async: m.is_async,
                    parent: m.parent.clone(),
                })
                .collect(),
            properties: f
                .properties
                .iter()
                .map(|p| PropertyRecord {
                    name: p.name.clone(),
                    declaration: p.declaration.clone(),
                    line: p.line,
                    visibility: p.visibility.map(str::to_string),
                    is_static: p.is_static,
                    parent: p.parent.clone(),
                })
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.header.is_empty() && self.types.is_empty() && self.methods.is_empty() && self.properties.is_empty()
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

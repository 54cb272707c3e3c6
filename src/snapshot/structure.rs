//! A file's structure (header comments, types, methods, properties) as stored in a
//! segment: one rkyv archive per file, lz4-compressed (prototypes and doc comments
//! are text that compresses 3-4x), decompressed and validated (bytecheck) when it
//! is read, so a corrupted archive is an error and reading costs only that file's
//! bytes.

use rkyv::rancor::Error as RkyvError;

use crate::extract::FileFacts;

/// No file's structure is this large (a 2 MiB source file yields far less); a
/// larger stated length means corruption.
const MAX_ARCHIVE_BYTES: usize = 64 << 20;

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

    /// The archive, compressed: a little-endian u32 of the archive's length, then
    /// the lz4 block.
    pub fn to_compressed_bytes(&self) -> Vec<u8> {
        let archive = rkyv::to_bytes::<RkyvError>(self).map(|v| v.to_vec()).unwrap_or_default();
        let mut out = (archive.len() as u32).to_le_bytes().to_vec();
        out.extend_from_slice(&lz4_flex::block::compress(&archive));
        out
    }

    /// Decompresses, validates and reads an archive; `None` when the bytes are not
    /// a valid one.
    pub fn from_compressed_bytes(bytes: &[u8]) -> Option<FileStructure> {
        let len = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
        if len > MAX_ARCHIVE_BYTES {
            return None;
        }
        let archive = lz4_flex::block::decompress(bytes.get(4..)?, len).ok()?;
        let archived = rkyv::access::<ArchivedFileStructure, RkyvError>(&archive).ok()?;
        rkyv::deserialize::<FileStructure, RkyvError>(archived).ok()
    }
}

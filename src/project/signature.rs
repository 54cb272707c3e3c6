//! Signatures: what a file declares, served from the snapshot (no re-parsing).
//! Header comments, types, methods with prototypes, and properties that are not
//! private; no bodies, no locals.

use globset::GlobBuilder;

use super::{Index, ProjectError};
use crate::lang::Language;
use crate::snapshot::structure::{FileStructure, MethodRecord, PropertyRecord, TypeRecord};
use crate::snapshot::{SlotRec, SnapshotError};

/// One file's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub file: String,
    pub language: Option<Language>,
    pub line_count: u32,
    pub header_comments: String,
    pub types: Vec<TypeRecord>,
    pub methods: Vec<MethodRecord>,
    /// Properties, without private fields.
    pub properties: Vec<PropertyRecord>,
}

impl Signature {
    fn new(path: &str, slot: &SlotRec, s: FileStructure) -> Signature {
        Signature {
            file: path.to_string(),
            language: Language::from_id(slot.meta.language),
            line_count: slot.line_count,
            header_comments: s.header,
            types: s.types,
            methods: s.methods,
            properties: s.properties.into_iter().filter(|p| p.visibility.as_deref() != Some("private")).collect(),
        }
    }
}

/// Several signatures, and how many matching files the limit left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signatures {
    pub signatures: Vec<Signature>,
    pub omitted: usize,
}

/// The signature of one indexed file (`path` relative to the project root), or
/// `None` when the index has no such file.
pub fn signature(index: &Index, path: &str) -> Result<Option<Signature>, SnapshotError> {
    let path = path.trim_start_matches("./");
    match index.locate(path)? {
        Some(f) => Ok(Some(Signature::new(path, &f.slot, f.seg.structure(&f.slot)?))),
        None => Ok(None),
    }
}

/// The signatures of the files matching a glob (`src/Core/**`), in path order, at
/// most `limit` (0: all).
pub fn signatures(index: &Index, glob: &str, limit: usize) -> Result<Signatures, ProjectError> {
    let glob = glob.trim().trim_start_matches("./");
    // A folder given without a glob means everything under it.
    let pattern = if glob.is_empty() {
        "**".to_string()
    } else if !glob.contains(['*', '?', '[', '{']) {
        // No glob syntax: the file itself, or everything under the folder.
        let plain = glob.trim_end_matches('/');
        format!("{{{plain},{plain}/**}}")
    } else {
        glob.to_string()
    };
    let matcher = match GlobBuilder::new(&pattern).literal_separator(true).build() {
        Ok(g) => g.compile_matcher(),
        Err(e) => return Err(ProjectError::BadGlob { glob: glob.to_string(), message: e.kind().to_string() }),
    };
    let limit = if limit == 0 { usize::MAX } else { limit };
    let mut out = Signatures::default();
    for file in index.files()? {
        let (seg, slot, path) = (file.seg, file.slot, file.path);
        if !matcher.is_match(path) {
            continue;
        }
        if out.signatures.len() < limit {
            out.signatures.push(Signature::new(path, &slot, seg.structure(&slot)?));
        } else {
            out.omitted += 1;
        }
    }
    Ok(out)
}

//! Signatures: what a file declares, served from the snapshot (no re-parsing).
//! Header comments, types, methods with prototypes, and properties that are not
//! private; no bodies, no locals.

use super::{Index, ProjectError};
use crate::lang::Language;
use crate::query::{PathFilter, QueryError};
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

/// The signatures of the files matching `glob`, in path order, at most `limit` (0:
/// all). Without glob syntax it is a file or a folder relative to the project root
/// (`""` or `.`: every file); with it, a file filter with ripgrep's `-g` semantics
/// (`*.go` at any depth, `src/Core/**`). A path or glob that matches no indexed
/// file is an error.
pub fn signatures(index: &Index, glob: &str, limit: usize) -> Result<Signatures, ProjectError> {
    let given = glob.trim();
    let plain = given.trim_start_matches("./").trim_end_matches('/');
    let plain = if plain == "." { "" } else { plain };
    let filter = if given.contains(['*', '?', '[', '{']) {
        Some(PathFilter::new(&[given.to_string()]).map_err(|e| match e {
            QueryError::BadGlob { glob, message } => ProjectError::BadGlob { glob, message },
            other => ProjectError::BadGlob { glob: given.to_string(), message: other.to_string() },
        })?)
    } else {
        None
    };
    let matches = |path: &str| match &filter {
        Some(f) => f.as_ref().is_none_or(|f| f.is_match(path)),
        None => {
            plain.is_empty()
                || path == plain
                || (path.starts_with(plain) && path.as_bytes().get(plain.len()) == Some(&b'/'))
        }
    };
    let limit = if limit == 0 { usize::MAX } else { limit };
    let mut out = Signatures::default();
    for file in index.files()? {
        let (seg, slot, path) = (file.seg, file.slot, file.path);
        if !matches(path) {
            continue;
        }
        if out.signatures.len() < limit {
            out.signatures.push(Signature::new(path, &slot, seg.structure(&slot)?));
        } else {
            out.omitted += 1;
        }
    }
    let asked = filter.is_some() || !plain.is_empty();
    if asked && out.signatures.is_empty() && out.omitted == 0 {
        return Err(ProjectError::NoMatch { given: given.to_string() });
    }
    Ok(out)
}

//! Transformer vectors ("deep" vectors): the model added with `cg model add`
//! run over each type's and function's chunk (path, kind and qualified name,
//! doc comment, members, first source lines), by `cg embed`, in the background
//! of indexing. They are kept beside the segments in `.codegraph/deep.cgd`,
//! one int8 row per definition keyed by its file (path and content hash) and
//! its definition index, so a changed file's rows simply stop matching and
//! unchanged files keep theirs across updates. `format/README.md` describes the
//! bytes.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

use super::bert::Bert;
use super::chunk::{push_words, MAX_MEMBERS};
use super::quantize;
use super::wordpiece::WordPiece;
use crate::snapshot::mmap::Mapped;
use crate::snapshot::structure::FileStructure;
use crate::snapshot::vectors::{dot_mixed, push_signs};

/// The file in `.codegraph/`.
pub const DEEP_FILE: &str = "deep.cgd";
const MAGIC: &[u8; 8] = b"CGDEEP\0\0";
const VERSION: u32 = 1;
/// The version of the chunk text: rows embedded from another are not reused.
pub const CHUNK_VERSION: u32 = 1;
/// Tokens of a chunk the transformer reads (all-MiniLM-L6-v2 was trained on 128).
pub const MAX_TOKENS: usize = 128;
/// Source lines of a definition in its chunk, and their bytes.
const MAX_LINES: usize = 12;
const MAX_SOURCE: usize = 900;
const MAX_DOC: usize = 400;
/// Tokens per forward pass (sequences × padded length).
const BATCH_TOKENS: usize = 4096;

/// The key of a file's rows: its path and its content's xxh3.
pub fn file_key(path: &str, content_hash: u64) -> u64 {
    xxh3_64_with_seed(path.as_bytes(), content_hash)
}

/// A transformer and its tokenizer, ready to embed chunks and queries.
pub struct Encoder {
    pub name: String,
    /// xxh3 of the weights and the config: the store names the model its rows
    /// came from.
    pub id: u64,
    bert: Bert,
    vocab: WordPiece,
}

impl std::fmt::Debug for Encoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoder").field("name", &self.name).field("id", &self.id).finish()
    }
}

impl Encoder {
    pub fn new(name: &str, bert: Bert, vocab: WordPiece, config: &[u8], weights: &[u8]) -> Encoder {
        let id = xxh3_64_with_seed(weights, xxh3_64(config));
        Encoder { name: name.to_string(), id, bert, vocab }
    }

    pub fn dims(&self) -> usize {
        self.bert.config.hidden_size
    }

    fn max_len(&self) -> usize {
        MAX_TOKENS.min(self.bert.config.max_position_embeddings).max(2)
    }

    /// Token ids of `text` as the encoder reads it.
    pub fn tokens(&self, text: &str) -> Vec<u32> {
        self.vocab.encode(text, self.max_len())
    }

    /// Unit vectors of token sequences ([`Encoder::tokens`]), in their order:
    /// batched by length so little is padding.
    pub fn embed_tokens(&self, seqs: &[Vec<u32>]) -> candle_core::Result<Vec<Vec<f32>>> {
        let mut order: Vec<usize> = (0..seqs.len()).collect();
        order.sort_by_key(|&i| (seqs[i].len(), i));
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); seqs.len()];
        let mut at = 0;
        while at < order.len() {
            // The longest sequence of a batch is its last (sorted).
            let mut end = at + 1;
            while end < order.len() && (end + 1 - at) * seqs[order[end]].len() <= BATCH_TOKENS {
                end += 1;
            }
            let batch: Vec<Vec<u32>> = order[at..end].iter().map(|&i| seqs[i].clone()).collect();
            for (&i, v) in order[at..end].iter().zip(self.bert.embed(&batch, self.vocab.pad)?) {
                out[i] = v;
            }
            at = end;
        }
        Ok(out)
    }

    /// A query's vector, quantized (`None` if the model fails on it).
    pub fn embed_query(&self, text: &str) -> Option<(Vec<i8>, f32)> {
        let v = self.embed_tokens(&[self.tokens(text)]).ok()?.pop()?;
        let mut q = Vec::with_capacity(v.len());
        let scale = quantize(&v, &mut q);
        Some((q, scale))
    }
}

fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The last three components of a path.
fn short_path(path: &str) -> &str {
    let mut cuts = path.rmatch_indices('/').map(|(i, _)| i);
    match cuts.nth(2) {
        Some(i) => &path[i + 1..],
        None => path,
    }
}

/// Calls `f(index, name, text)` for each type, then each function or method of the
/// file (the definitions table's `index` order): what the transformer reads of
/// it. `source` is the file's text as indexed (its lines give each
/// definition's first lines).
pub fn for_each_deep_chunk(path: &str, s: &FileStructure, source: &str, mut f: impl FnMut(u32, &str, &str)) {
    let lines: Vec<&str> = source.lines().collect();
    let mut text = String::with_capacity(1024);
    let first_lines = |text: &mut String, line: u32, end: u32| {
        let start = (line as usize).saturating_sub(1);
        let end = (end as usize).max(line as usize).min(start + MAX_LINES).min(lines.len());
        let mut used = 0;
        for l in lines.get(start..end).unwrap_or_default() {
            let l = l.trim();
            if l.is_empty() {
                continue;
            }
            let l = cut(l, MAX_SOURCE.saturating_sub(used));
            if l.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(l);
            used += l.len();
        }
    };
    let mut members: rustc_hash::FxHashMap<&str, Vec<&str>> = rustc_hash::FxHashMap::default();
    if !s.types.is_empty() {
        let methods = s.methods.iter().map(|m| (m.parent.as_ref(), m.name.as_str()));
        let properties = s.properties.iter().map(|p| (p.parent.as_ref(), p.name.as_str()));
        for (parent, name) in methods.chain(properties) {
            if let Some(p) = parent {
                let list = members.entry(p.as_str()).or_default();
                if list.len() < MAX_MEMBERS {
                    list.push(name);
                }
            }
        }
    }
    let mut index = 0u32;
    for t in s.types.iter() {
        text.clear();
        text.push_str(short_path(path));
        text.push('\n');
        text.push_str(t.kind.as_str());
        text.push(' ');
        if let Some(p) = t.parent.as_ref() {
            text.push_str(p.as_str());
            text.push('.');
        }
        text.push_str(t.name.as_str());
        text.push_str(" (");
        push_words(t.name.as_str(), &mut text);
        text.push(')');
        let doc = cut(t.doc.as_str(), MAX_DOC).trim();
        if !doc.is_empty() {
            text.push('\n');
            text.push_str(doc);
        }
        if let Some(m) = members.get(t.name.as_str()) {
            text.push_str("\nmembers: ");
            text.push_str(&m.join(", "));
        }
        first_lines(&mut text, t.line, t.end_line);
        f(index, t.name.as_str(), &text);
        index += 1;
    }
    for m in s.methods.iter() {
        text.clear();
        text.push_str(short_path(path));
        text.push('\n');
        text.push_str(if m.parent.is_some() { "method " } else { "function " });
        if let Some(p) = m.parent.as_ref() {
            text.push_str(p.as_str());
            text.push('.');
        }
        text.push_str(m.name.as_str());
        text.push_str(" (");
        push_words(m.name.as_str(), &mut text);
        text.push(')');
        let doc = cut(m.doc.as_str(), MAX_DOC).trim();
        if !doc.is_empty() {
            text.push('\n');
            text.push_str(doc);
        }
        first_lines(&mut text, m.line, m.end_line);
        f(index, m.name.as_str(), &text);
        index += 1;
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DeepError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: the transformer vectors are damaged ({why}); delete the file and run `cg embed` again")]
    Corrupt { path: PathBuf, why: String },
}

/// The rows of one file, by definition index: scale and codes.
#[derive(Clone, Debug, Default)]
pub struct DeepFile {
    pub path: String,
    pub rows: BTreeMap<u32, (f32, Vec<i8>)>,
}

/// Transformer rows being gathered (from a store read back and new ones), to
/// be written as a store.
#[derive(Clone, Debug)]
pub struct DeepRows {
    pub model: String,
    pub model_id: u64,
    pub dims: usize,
    pub files: BTreeMap<u64, DeepFile>,
}

impl DeepRows {
    pub fn new(model: &str, model_id: u64, dims: usize) -> DeepRows {
        DeepRows { model: model.to_string(), model_id, dims, files: BTreeMap::new() }
    }

    pub fn len(&self) -> usize {
        self.files.values().map(|f| f.rows.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.files.values().all(|f| f.rows.is_empty())
    }

    /// Adds a row (a unit vector, quantized here).
    pub fn insert(&mut self, key: u64, path: &str, index: u32, vector: &[f32]) {
        let mut codes = Vec::with_capacity(vector.len());
        let scale = quantize(vector, &mut codes);
        let file = self.files.entry(key).or_insert_with(|| DeepFile { path: path.to_string(), rows: BTreeMap::new() });
        file.rows.insert(index, (scale, codes));
    }

    /// The rows of `store` (same model and dimensions) of the files `defs`
    /// knows, each of which has `defs(key)` definitions: a row of a file it
    /// does not know, of a definition past the file's last, or with a scale
    /// that cannot be right is left out.
    pub fn extend_from(&mut self, store: &DeepStore, defs: impl Fn(u64) -> Option<u32>) {
        if store.model_id != self.model_id || store.dims != self.dims {
            return;
        }
        for fi in 0..store.files {
            let key = store.file_key(fi);
            let Some(count) = defs(key) else { continue };
            let path = store.path(fi);
            for r in store.file_rows(fi) {
                let index = store.def_index(r);
                let codes = store.codes(r);
                if index >= count || !store.scale_ok(r) || codes.len() != self.dims {
                    continue;
                }
                let file =
                    self.files.entry(key).or_insert_with(|| DeepFile { path: path.to_string(), rows: BTreeMap::new() });
                file.rows.entry(index).or_insert_with(|| (store.scale(r), codes.iter().map(|&c| c as i8).collect()));
            }
        }
    }

    /// The store's bytes: header, files, rows' definition indexes, scales,
    /// codes, sign bits, paths, model name, checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let files: Vec<(&u64, &DeepFile)> = self.files.iter().filter(|(_, f)| !f.rows.is_empty()).collect();
        let rows = files.iter().map(|(_, f)| f.rows.len()).sum::<usize>();
        let mut out = Vec::with_capacity(HEADER + rows * (self.dims + self.dims / 8 + 8) + files.len() * 64);
        out.extend_from_slice(MAGIC);
        for v in [VERSION, self.dims as u32, files.len() as u32, rows as u32, CHUNK_VERSION, self.model.len() as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.model_id.to_le_bytes());
        debug_assert_eq!(out.len(), HEADER);
        let mut paths = Vec::new();
        let mut first = 0u32;
        for (key, f) in &files {
            out.extend_from_slice(&key.to_le_bytes());
            out.extend_from_slice(&(paths.len() as u32).to_le_bytes());
            out.extend_from_slice(&(f.path.len() as u32).to_le_bytes());
            out.extend_from_slice(&first.to_le_bytes());
            out.extend_from_slice(&(f.rows.len() as u32).to_le_bytes());
            paths.extend_from_slice(f.path.as_bytes());
            first += f.rows.len() as u32;
        }
        let all = || files.iter().flat_map(|(_, f)| f.rows.iter());
        for (i, _) in all() {
            out.extend_from_slice(&i.to_le_bytes());
        }
        for (_, (s, _)) in all() {
            out.extend_from_slice(&s.to_le_bytes());
        }
        for (_, (_, c)) in all() {
            out.extend(c.iter().map(|&x| x as u8));
        }
        for (_, (_, c)) in all() {
            push_signs(c, &mut out);
        }
        out.extend_from_slice(&paths);
        out.extend_from_slice(self.model.as_bytes());
        let sum = xxh3_64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }
}

/// A store's bytes: the file mapped, or a buffer.
enum Stored {
    Mapped(Mapped),
    Owned(Vec<u8>),
}

impl Stored {
    fn bytes(&self) -> &[u8] {
        match self {
            Stored::Mapped(m) => m.bytes(),
            Stored::Owned(v) => v,
        }
    }
}

/// `magic, version, dims, files, rows, chunk version, model name length, model id`.
const HEADER: usize = 40;
/// `key u64, path offset u32, path length u32, first row u32, rows u32`.
const FILE_LEN: usize = 24;

/// A store of transformer rows, memory-mapped (the file is replaced, never
/// changed in place).
pub struct DeepStore {
    map: Stored,
    pub path: PathBuf,
    pub dims: usize,
    pub files: u32,
    pub rows: u32,
    pub chunk_version: u32,
    pub model: String,
    pub model_id: u64,
    files_at: usize,
    defs_at: usize,
    scales_at: usize,
    codes_at: usize,
    signs_at: usize,
    paths_at: usize,
    sign_len: usize,
}

impl std::fmt::Debug for DeepStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeepStore").field("path", &self.path).field("rows", &self.rows).finish()
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4).map_or(0, |s| u32::from_le_bytes(s.try_into().expect("4 bytes")))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8).map_or(0, |s| u64::from_le_bytes(s.try_into().expect("8 bytes")))
}

impl DeepStore {
    /// The store of the project whose `.codegraph/` folder is `dir`, if any.
    pub fn open(dir: &Path) -> Result<Option<DeepStore>, DeepError> {
        let path = dir.join(DEEP_FILE);
        let file = match crate::safe_fs::open_regular(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(DeepError::Io { path, source }),
        };
        let map = Mapped::open(&file).map_err(|source| DeepError::Io { path: path.clone(), source })?;
        DeepStore::parse(Stored::Mapped(map), path).map(Some)
    }

    /// A store read from `bytes` (as [`DeepStore::open`] reads a file; for
    /// tests and fuzzing).
    pub fn from_vec(bytes: Vec<u8>) -> Result<DeepStore, DeepError> {
        DeepStore::parse(Stored::Owned(bytes), PathBuf::from(DEEP_FILE))
    }

    /// Reads the header and checks that the parts fit the file (the checksum
    /// is [`DeepStore::verify`]'s).
    fn parse(map: Stored, path: PathBuf) -> Result<DeepStore, DeepError> {
        let b = map.bytes();
        let bad = |why: &str| DeepError::Corrupt { path: path.clone(), why: why.to_string() };
        if b.len() < HEADER + 8 || &b[..8] != MAGIC {
            return Err(bad("not a transformer vector file"));
        }
        if u32_at(b, 8) != VERSION {
            return Err(bad("written by another version"));
        }
        let (dims, files, rows) = (u32_at(b, 12) as usize, u32_at(b, 16), u32_at(b, 20));
        let (chunk_version, name_len, model_id) = (u32_at(b, 24), u32_at(b, 28) as usize, u64_at(b, 32));
        if dims == 0 || dims > 1 << 16 {
            return Err(bad("dimensions out of range"));
        }
        let sign_len = dims.div_ceil(8);
        let files_at = HEADER;
        let parts = [files as usize * FILE_LEN, rows as usize * 4, rows as usize * 4, rows as usize * dims];
        let mut at = files_at;
        let mut starts = [0usize; 5];
        for (i, len) in parts.iter().enumerate() {
            starts[i] = at;
            at = at.checked_add(*len).ok_or_else(|| bad("sizes overflow"))?;
        }
        starts[4] = at;
        let signs_end = at.checked_add(rows as usize * sign_len).ok_or_else(|| bad("sizes overflow"))?;
        if signs_end > b.len() {
            return Err(bad("its length does not match its header"));
        }
        let paths_at = signs_end;
        // Paths' total length: the end of the last file's path.
        let mut paths_len = 0usize;
        for fi in 0..files as usize {
            let o = files_at + fi * FILE_LEN;
            let end = u32_at(b, o + 8) as usize + u32_at(b, o + 12) as usize;
            paths_len = paths_len.max(end);
        }
        let expected = paths_at
            .checked_add(paths_len)
            .and_then(|n| n.checked_add(name_len))
            .and_then(|n| n.checked_add(8))
            .ok_or_else(|| bad("sizes overflow"))?;
        if expected != b.len() {
            return Err(bad("its length does not match its header"));
        }
        let model = std::str::from_utf8(&b[paths_at + paths_len..paths_at + paths_len + name_len])
            .map_err(|_| bad("the model name is not UTF-8"))?
            .to_string();
        Ok(DeepStore {
            path,
            dims,
            files,
            rows,
            chunk_version,
            model,
            model_id,
            files_at,
            defs_at: starts[1],
            scales_at: starts[2],
            codes_at: starts[3],
            signs_at: starts[4],
            paths_at,
            sign_len,
            map,
        })
    }

    fn bytes(&self) -> &[u8] {
        self.map.bytes()
    }

    /// Checks the checksum, the order of the files and rows and that every
    /// range is inside the file.
    pub fn verify(&self) -> Result<(), DeepError> {
        let b = self.bytes();
        let bad = |why: &str| DeepError::Corrupt { path: self.path.clone(), why: why.to_string() };
        let (body, sum) = b.split_at(b.len() - 8);
        if xxh3_64(body) != u64_at(sum, 0) {
            return Err(bad("checksum mismatch"));
        }
        let mut next_row = 0u32;
        for fi in 0..self.files {
            if fi > 0 && self.file_key(fi - 1) >= self.file_key(fi) {
                return Err(bad("files out of order"));
            }
            let o = self.files_at + fi as usize * FILE_LEN;
            if u32_at(b, o + 16) != next_row {
                return Err(bad("rows out of order"));
            }
            next_row = next_row.checked_add(u32_at(b, o + 20)).ok_or_else(|| bad("rows overflow"))?;
            let rows = self.file_rows(fi);
            if rows.clone().skip(1).any(|r| self.def_index(r - 1) >= self.def_index(r)) {
                return Err(bad("definitions out of order"));
            }
            if std::str::from_utf8(self.path_bytes(fi)).is_err() {
                return Err(bad("a path is not UTF-8"));
            }
            if rows.clone().any(|r| !self.scale_ok(r)) {
                return Err(bad("a vector's scale is not a number a unit vector can have"));
            }
        }
        if next_row != self.rows {
            return Err(bad("row count mismatch"));
        }
        Ok(())
    }

    pub fn file_key(&self, fi: u32) -> u64 {
        u64_at(self.bytes(), self.files_at + fi as usize * FILE_LEN)
    }

    fn path_bytes(&self, fi: u32) -> &[u8] {
        let o = self.files_at + fi as usize * FILE_LEN;
        let (off, len) = (u32_at(self.bytes(), o + 8) as usize, u32_at(self.bytes(), o + 12) as usize);
        self.bytes().get(self.paths_at + off..self.paths_at + off + len).unwrap_or_default()
    }

    /// A file's path (empty if damaged).
    pub fn path(&self, fi: u32) -> &str {
        std::str::from_utf8(self.path_bytes(fi)).unwrap_or_default()
    }

    /// The rows of file `fi` (clamped to the rows there are).
    pub fn file_rows(&self, fi: u32) -> Range<u32> {
        let o = self.files_at + fi as usize * FILE_LEN;
        let first = u32_at(self.bytes(), o + 16).min(self.rows);
        let n = u32_at(self.bytes(), o + 20);
        first..first.saturating_add(n).min(self.rows)
    }

    /// The file whose key is `key` (a binary search).
    pub fn find_file(&self, key: u64) -> Option<u32> {
        let (mut lo, mut hi) = (0u32, self.files);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.file_key(mid).cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The row of definition `index` of the file whose key is `key`.
    pub fn find(&self, key: u64, index: u32) -> Option<u32> {
        let rows = self.file_rows(self.find_file(key)?);
        let (mut lo, mut hi) = (rows.start, rows.end);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.def_index(mid).cmp(&index) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    pub fn def_index(&self, row: u32) -> u32 {
        u32_at(self.bytes(), self.defs_at + row as usize * 4)
    }

    /// A row's scale; 0 (no vector) where the stored one cannot be right
    /// ([`crate::scale_ok`]).
    pub fn scale(&self, row: u32) -> f32 {
        if self.scale_ok(row) {
            self.stored_scale(row)
        } else {
            0.0
        }
    }

    /// Whether row `row`'s stored scale can be right.
    pub fn scale_ok(&self, row: u32) -> bool {
        crate::scale_ok(self.stored_scale(row))
    }

    fn stored_scale(&self, row: u32) -> f32 {
        f32::from_bits(u32_at(self.bytes(), self.scales_at + row as usize * 4))
    }

    pub fn codes(&self, row: u32) -> &[u8] {
        let at = self.codes_at + row as usize * self.dims;
        self.bytes().get(at..at + self.dims).unwrap_or_default()
    }

    pub fn signs(&self, row: u32) -> &[u8] {
        let at = self.signs_at + row as usize * self.sign_len;
        self.bytes().get(at..at + self.sign_len).unwrap_or_default()
    }

    /// The cosine of row `row` with a quantized query.
    pub fn dot(&self, row: u32, query: &[i8], query_scale: f32) -> f32 {
        let codes = self.codes(row);
        if codes.len() != query.len() {
            return 0.0;
        }
        dot_mixed(query, codes) as f32 * self.scale(row) * query_scale
    }

    /// Bytes of the file.
    pub fn byte_len(&self) -> u64 {
        self.bytes().len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut rows = DeepRows::new("tiny", 7, 16);
        // Unit vectors, as rows are.
        let v = |seed: u32| -> Vec<f32> {
            let v: Vec<f32> = (0..16).map(|i| ((i * 7 + seed * 13) % 11) as f32 - 5.0).collect();
            let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            v.iter().map(|x| x / n).collect()
        };
        rows.insert(30, "b.go", 2, &v(1));
        rows.insert(30, "b.go", 0, &v(2));
        rows.insert(10, "a.go", 5, &v(3));
        std::fs::write(dir.path().join(DEEP_FILE), rows.to_bytes()).unwrap();
        let store = DeepStore::open(dir.path()).unwrap().unwrap();
        store.verify().unwrap();
        assert_eq!((store.files, store.rows, store.dims, store.model.as_str(), store.model_id), (2, 3, 16, "tiny", 7));
        assert_eq!(store.path(store.find_file(30).unwrap()), "b.go");
        assert_eq!(store.find(30, 1), None);
        assert_eq!(store.find(20, 0), None);
        let r = store.find(30, 2).unwrap();
        let mut q = Vec::new();
        let qs = quantize(&v(1), &mut q);
        let norm: f32 = v(1).iter().map(|x| x * x).sum();
        assert!((store.dot(r, &q, qs) - norm).abs() / norm < 0.02);
        // Read back and written again: the same bytes.
        let mut again = DeepRows::new("tiny", 7, 16);
        again.extend_from(&store, |_| Some(u32::MAX));
        assert_eq!(again.to_bytes(), rows.to_bytes());
        // Any flipped byte is caught by verify (or open), never a panic.
        let bytes = rows.to_bytes();
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x41;
            std::fs::write(dir.path().join(DEEP_FILE), &b).unwrap();
            if let Ok(Some(s)) = DeepStore::open(dir.path()) {
                assert!(s.verify().is_err(), "byte {i}");
                for fi in 0..s.files {
                    let _ = (s.path(fi), s.file_rows(fi), s.find(s.file_key(fi), 0));
                }
                for r in 0..s.rows {
                    let _ = (s.dot(r, &q, qs), s.signs(r), s.def_index(r));
                }
            }
        }
    }

    #[test]
    fn paths_keep_their_last_three_components() {
        assert_eq!(short_path("pkg/kubelet/cm/container_manager.go"), "kubelet/cm/container_manager.go");
        assert_eq!(short_path("a/b.go"), "a/b.go");
    }
}

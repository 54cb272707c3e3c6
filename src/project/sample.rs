//! The seeded samples `cg bench` times its questions on, here so that the
//! benches in `benches/` time the same questions.

use crate::snapshot::SnapshotError;

use super::Index;

/// A tiny deterministic generator for the samples.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Words a sentence of [`doc_sentences`] has at least and at most.
const SENTENCE_WORDS: std::ops::RangeInclusive<usize> = 5..=40;

/// Up to `n` sentences with the file each comes from: the first sentence of the
/// doc comments of methods and functions in a seeded sample of files (5 to 40
/// words, code spans and markup as they are written), as an agent writes a task.
pub fn doc_sentences(index: &Index, n: usize, seed: u64) -> Result<Vec<(String, String)>, SnapshotError> {
    let files = index.files()?;
    let mut rng = XorShift(seed ^ 0x5bd1_e995_0000_0001 | 1);
    let mut out: Vec<(String, String)> = Vec::new();
    for _ in 0..n * 8 {
        if out.len() >= n || files.is_empty() {
            break;
        }
        let f = &files[(rng.next_u64() % files.len() as u64) as usize];
        let s = f.seg.structure(&f.slot)?;
        let docs: Vec<&str> = s.methods.iter().map(|m| m.doc.as_str()).filter(|d| !d.is_empty()).collect();
        if docs.is_empty() {
            continue;
        }
        let doc = docs[(rng.next_u64() % docs.len() as u64) as usize];
        let words: Vec<&str> = doc.split_whitespace().collect();
        let end = words.iter().position(|w| w.ends_with('.')).map_or(words.len(), |i| i + 1);
        if SENTENCE_WORDS.contains(&end) && !out.iter().any(|(_, p)| p == f.path) {
            out.push((words[..end].join(" "), f.path.to_string()));
        }
    }
    Ok(out)
}

/// Up to `n` methods of a seeded sample of files, each as its qualified name
/// and its name: the symbols `cg bench` and the graph bench look up.
pub fn methods(index: &Index, n: usize, seed: u64) -> Result<Vec<(String, String)>, SnapshotError> {
    use crate::graph::{DefCat, Graph};
    let files = index.files()?;
    let mut rng = XorShift(seed ^ 0x9e37_79b9_7f4a_7c15 | 1);
    let mut out = Vec::new();
    let g = Graph::new(index);
    for _ in 0..n * 4 {
        if out.len() >= n || files.is_empty() {
            break;
        }
        let x = &files[(rng.next_u64() % files.len() as u64) as usize];
        let f = g.file((x.segment, x.slot_id))?;
        let methods: Vec<_> = f.defs.iter().filter(|d| d.cat == DefCat::Method).collect();
        if methods.is_empty() {
            continue;
        }
        let d = methods[(rng.next_u64() % methods.len() as u64) as usize];
        out.push((f.qualified_name(d), d.name.clone()));
    }
    Ok(out)
}

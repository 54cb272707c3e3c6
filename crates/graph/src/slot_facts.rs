//! What ranking by files needs of a slot besides its postings, read once per
//! opened index: its length in postings, its path's class (a test's, vendored
//! or minified code) and the words its path gives, interned. A sentence's
//! words touch tens of thousands of the four budget corpora's files, and a
//! symbol search for it hundreds of definitions' files: reading, classifying
//! and splitting each path on every question was most of their time.
//!
//! Filled per slot on the slot's first use (a process that asks once reads
//! only the paths it needs), under one lock per question.

use rustc_hash::FxHashMap;

use super::{FileKey, GraphError};
use crate::project::Index;

/// Kept by the opened index ([`super::Kept`]).
#[derive(Default)]
pub(crate) struct SlotFacts(std::sync::Mutex<Facts>);

impl SlotFacts {
    /// The facts, locked for one question (a question that panicked while
    /// holding them left whole slots: a slot's fact is stored last).
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Facts> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[derive(Default)]
pub(crate) struct Facts {
    /// Per segment, per slot (made on the segment's first use).
    slots: Vec<Vec<SlotFact>>,
    /// The words paths give, interned.
    names: FxHashMap<Box<str>, u32>,
    /// Each slot's word ids ([`SlotFact::subwords`], [`SlotFact::names`]).
    pool: Vec<u32>,
    /// Vendored files' folders, interned ([`super::evidence::names_package`]
    /// asks a folder).
    folders: FxHashMap<Box<str>, u32>,
    folder_text: Vec<Box<str>>,
}

#[derive(Clone, Copy, Default)]
pub(crate) struct SlotFact {
    /// [`CLASS_READ`] and the classes.
    pub class: u8,
    /// The slot's postings (its length for BM25 over files).
    pub occurrences: u32,
    /// The path's subwords, folded (`pool[start..start + len]`): what a
    /// symbol search's path score compares with the query's subwords.
    subwords: (u32, u32),
    /// [`path_names`]: what a files ranking's path bonus compares with the
    /// task's words.
    names: (u32, u32),
    /// The folder of a vendored file ([`Facts::folder`]).
    pub folder: u32,
}

/// The fact was read (a slot not yet read has class 0).
pub(crate) const CLASS_READ: u8 = 1;
/// [`super::is_test_file`].
pub(crate) const CLASS_TEST: u8 = 2;
/// [`crate::project::is_vendored`].
pub(crate) const CLASS_VENDORED: u8 = 4;
/// [`super::evidence::is_minified`].
pub(crate) const CLASS_MINIFIED: u8 = 8;

impl Facts {
    /// Slot `key`'s facts, read on its first use.
    pub(crate) fn of(&mut self, index: &Index, key: FileKey) -> Result<SlotFact, GraphError> {
        if let Some(f) = self.known(key) {
            return Ok(f);
        }
        let seg = index.segments.get(key.0).ok_or_else(|| GraphError::NoSuchFile(format!("segment {}", key.0)))?;
        if self.slots.len() < index.segments.len() {
            self.slots.resize_with(index.segments.len(), Vec::new);
        }
        if self.slots[key.0].is_empty() {
            self.slots[key.0] = vec![SlotFact::default(); seg.slot_count as usize];
        }
        if key.1 as usize >= self.slots[key.0].len() {
            return Err(seg.corrupt("slot out of range").into());
        }
        let slot = seg.slot(key.1)?;
        let path = seg.slot_path(&slot)?;
        let mut class = CLASS_READ;
        if super::is_test_file(path) {
            class |= CLASS_TEST;
        }
        if super::evidence::is_minified(path) {
            class |= CLASS_MINIFIED;
        }
        let mut folder = u32::MAX;
        if crate::project::is_vendored(path) {
            class |= CLASS_VENDORED;
            let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
            folder = match self.folders.get(dir) {
                Some(&f) => f,
                None => {
                    let f = self.folder_text.len() as u32;
                    self.folder_text.push(dir.into());
                    self.folders.insert(dir.into(), f);
                    f
                }
            };
        }
        let subwords = self.intern(crate::extract::words::subwords(path).map(crate::snapshot::fold));
        let names = self.intern(path_names(path).into_iter());
        let fact = SlotFact { class, occurrences: slot.occurrences, subwords, names, folder };
        self.slots[key.0][key.1 as usize] = fact;
        Ok(fact)
    }

    /// Slot `key`'s facts when read before.
    pub(crate) fn known(&self, key: FileKey) -> Option<SlotFact> {
        self.slots.get(key.0)?.get(key.1 as usize).copied().filter(|f| f.class & CLASS_READ != 0)
    }

    /// `words` interned, each once, as a range of the pool.
    fn intern(&mut self, words: impl Iterator<Item = String>) -> (u32, u32) {
        let start = self.pool.len();
        for w in words {
            let next = self.names.len() as u32;
            let id = *self.names.entry(w.into_boxed_str()).or_insert(next);
            if !self.pool[start..].contains(&id) {
                self.pool.push(id);
            }
        }
        (start as u32, (self.pool.len() - start) as u32)
    }

    /// The id of a word some path read so far gives.
    pub(crate) fn id(&self, word: &str) -> Option<u32> {
        self.names.get(word).copied()
    }

    /// How many words are interned: a slot read since grows it.
    pub(crate) fn interned(&self) -> usize {
        self.names.len()
    }

    /// The ids of the slot's path's subwords, folded.
    pub(crate) fn subwords(&self, f: &SlotFact) -> &[u32] {
        &self.pool[f.subwords.0 as usize..(f.subwords.0 + f.subwords.1) as usize]
    }

    /// The ids of [`path_names`] of the slot's path.
    pub(crate) fn names(&self, f: &SlotFact) -> &[u32] {
        &self.pool[f.names.0 as usize..(f.names.0 + f.names.1) as usize]
    }

    /// The folder of a vendored slot.
    pub(crate) fn folder(&self, f: &SlotFact) -> &str {
        self.folder_text.get(f.folder as usize).map_or("", |s| s)
    }

    /// How many vendored folders are interned.
    pub(crate) fn folders(&self) -> usize {
        self.folder_text.len()
    }
}

/// The names a path gives ([`super::evidence::path_words`]): its subwords
/// folded, the extension aside, each also without a plural `s` (of 3 letters
/// or more left).
pub(crate) fn path_names(path: &str) -> Vec<String> {
    let stem = path.rsplit_once('.').filter(|(_, ext)| !ext.contains('/')).map_or(path, |(s, _)| s);
    let mut names: Vec<String> = Vec::new();
    for part in crate::extract::words::subwords(stem) {
        let part = crate::snapshot::fold(part);
        let single = part.strip_suffix('s').filter(|p| p.len() >= 3).map(str::to_string);
        names.push(part);
        names.extend(single);
    }
    names
}

//! The one place `cg` memory-maps a file, and the crate's only `unsafe` code.
//!
//! Failure mode: a mapped file that another process truncates makes later reads of
//! the lost pages raise SIGBUS. `cg` never modifies or truncates a snapshot file
//! after it is written (a change writes new files and renames a new manifest into
//! place), so only an outside process editing `.codegraph/` by hand can cause it.
//! The same holds for `deep.cgd` (replaced by a rename) and for a model's weights
//! in the model store (`cg model add` renames a new folder into place).
//! Files are only ever read through bounds-checked slices of the map.

#![allow(unsafe_code)]

use std::fs::File;
use std::io;

/// A read-only map of a whole file (or an empty buffer for an empty file, which
/// cannot be mapped).
pub struct Mapped {
    map: Option<memmap2::Mmap>,
}

impl Mapped {
    pub fn open(file: &File) -> io::Result<Mapped> {
        if file.metadata()?.len() == 0 {
            return Ok(Mapped { map: None });
        }
        // SAFETY: the map is read-only and snapshot files are immutable once
        // renamed into place (see the module doc for the one failure mode, SIGBUS
        // on outside truncation). Every read goes through `bytes()`, a slice whose
        // length is the mapped length.
        let map = unsafe { memmap2::Mmap::map(file)? };
        Ok(Mapped { map: Some(map) })
    }

    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }
}

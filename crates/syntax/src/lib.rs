//! codegraph's bottom layer: which files are source and in which language
//! ([`lang`]), what each file holds ([`extract`]: files on disk → per-file facts,
//! in parallel, with tree-sitter), and how cg touches files another process may
//! have swapped ([`safe_fs`]). It knows nothing of the index: the crates above
//! turn facts into segments and answer questions.
//!
//! `safe_fs` lives here rather than with the snapshot format because the walk's
//! own reads go through it.

#![deny(unsafe_code)]

pub mod extract;
pub mod lang;
pub mod safe_fs;

//! codegraph's store: the index build ([`index`]: files → segments, extraction
//! overlapped with writing) and the `.codegraph/` folder ([`project`]: the
//! manifest and its generations, the config, the write lock, atomic writes, and
//! the opened [`project::Index`] every question reads). It asks no question of
//! the index itself: queries and the graph are the crates above.

#![deny(unsafe_code)]

pub mod index;
pub mod project;

// The layers below, under the names the modules of this crate use.
pub(crate) use codegraph_embed as embed;
pub(crate) use codegraph_segment as snapshot;
pub(crate) use codegraph_syntax::{extract, lang, safe_fs};

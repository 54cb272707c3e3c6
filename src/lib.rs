//! codegraph: a code index for AI coding agents and the people who run them.
//!
//! The pipeline, one module per stage:
//! [`lang`] (which files, which grammar, which keywords) →
//! [`extract`] (per-file facts, in parallel) → the index build ([`index`]) →
//! the snapshot ([`snapshot`]) → the project store ([`project`]) → queries
//! ([`query`], [`graph`]) → the MCP server ([`mcp`]) and the `cg` command line.
//! `lang`, `extract` and `safe_fs` are the crate `codegraph-syntax`,
//! `snapshot` the crate `codegraph-segment`, `embed` the crate
//! `codegraph-embed`, `index` and the `.codegraph` folder's part of `project`
//! the crate `codegraph-store`, `query` and `graph` the crates `codegraph-query`
//! and `codegraph-graph`; this crate re-exports them under those names.
//! See ARCHITECTURE.md for the map and the invariants.
//!
//! ```
//! use codegraph::extract::{Extractor, LineType};
//! use codegraph::lang::Language;
//!
//! let source = b"// Entry point.\nfn main() { run(\"fast\"); }\n";
//! let facts = Extractor::new().extract("src/main.rs", Language::Rust, source, 0);
//! assert_eq!(facts.methods[0].prototype, "fn main()");
//! assert_eq!(facts.line_types, [LineType::Comment, LineType::Method]);
//! let terms: Vec<&str> = facts.terms.iter().map(|t| t.term.as_str()).collect();
//! assert_eq!(terms, ["Entry", "fast", "main", "point", "run"]);
//! ```

#![deny(unsafe_code)]

pub mod lsp;
pub mod mcp;
pub mod project;
pub mod ui;

// The layers below, each its own crate (crates/), under the names the code
// above them has always used.
pub use codegraph_embed as embed;
pub use codegraph_graph as graph;
pub use codegraph_query as query;
pub use codegraph_segment as snapshot;
pub use codegraph_store::index;
pub use codegraph_syntax::{extract, lang, safe_fs};

//! codegraph: a code index for AI coding agents and the people who run them.
//!
//! The pipeline, one module per stage:
//! [`lang`] (which files, which grammar, which keywords) →
//! [`extract`] (per-file facts, in parallel) → the index build → the snapshot →
//! queries → the project store → the MCP server and the `cg` command line.
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

pub mod embed;
pub mod extract;
pub mod graph;
pub mod index;
pub mod lang;
pub mod mcp;
pub mod project;
pub mod query;
pub mod safe_fs;
pub mod snapshot;

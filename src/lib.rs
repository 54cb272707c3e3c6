//! codegraph: a code index for AI coding agents and the people who run them.
//!
//! The pipeline, one module per stage:
//! [`lang`] (which files, which grammar, which keywords) →
//! [`extract`] (per-file facts, in parallel) → the index build → the snapshot →
//! queries → the project store → the MCP server and the `cg` command line.
//! See ARCHITECTURE.md for the map and the invariants.

#![deny(unsafe_code)]

pub mod extract;
pub mod index;
pub mod lang;
pub mod project;
pub mod query;
pub mod snapshot;

//! The project: what `cg init`, `cg update` and `cg watch` do to an indexed tree,
//! and what it says about itself (summary, docs, links, signatures, tree).
//!
//! The `.codegraph/` folder itself — manifest, config, lock, the opened
//! [`Index`] — is `codegraph_store::project`, re-exported here whole: `init`
//! and `update` write the summary, which asks `query` and `graph`, so they sit
//! above them.

pub mod docs;
pub mod embed;
pub mod git;
pub mod links;
pub mod sample;
pub mod shard;
mod signature;
pub mod summary;
mod tree;
mod update;
pub mod watch;

pub use codegraph_store::project::*;
pub use signature::{signature, signatures, Signature, Signatures};
pub use tree::{tree, TreeEntry};
pub use update::{relative_to_root, update, Request, UpdateOptions, UpdateReport, DEFAULT_LOCK_WAIT};

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::extract::{Diagnostic, ExcludedDir, Skip};
use crate::index::{self as build_index, BuildOptions, Progress};
use crate::snapshot::FORMAT_VERSION;

/// Files `signatures` lists unless asked for more (CLI and MCP alike).
pub const DEFAULT_SIGNATURES: usize = 20;
/// Levels `tree` shows unless asked for more (CLI and MCP alike).
pub const DEFAULT_TREE_DEPTH: usize = 2;

/// Options of `cg init`; `None` / empty fields fall back to `config.json`.
#[derive(Clone, Debug, Default)]
pub struct InitOptions {
    pub name: Option<String>,
    pub languages: Vec<String>,
    pub exclude: Vec<String>,
    pub include: Vec<String>,
    pub keep_dirs: Vec<String>,
    pub max_slots_per_segment: Option<u32>,
    /// Files larger than this are skipped (default 2 MiB; kept in config.json).
    pub max_file_bytes: Option<u64>,
    /// How long to wait for another writer (default [`DEFAULT_LOCK_WAIT`]).
    pub lock_wait: Option<std::time::Duration>,
    /// The model that embeds definitions ([`NO_MODEL`]: none); kept in
    /// config.json. Absent: the config's, else the default model if one was
    /// added.
    pub model: Option<String>,
}

/// What `init` did (the spec's InitResult, plus what was skipped).
#[derive(Debug)]
pub struct InitReport {
    pub codegraph_path: PathBuf,
    /// Folders the walk left out by a default rule, and why.
    pub excluded_dirs: Vec<ExcludedDir>,
    pub manifest: Manifest,
    pub skipped: Vec<Skip>,
    pub diagnostics: Vec<(String, Diagnostic)>,
    pub duration_ms: u64,
    /// The model that embedded the definitions, if any.
    pub model: Option<String>,
}

/// Indexes `root` into `root/.codegraph/` as a new generation, on the current rayon
/// pool. The previous generation stays readable until the manifest switch, and its
/// files are deleted after it.
pub fn init(
    root: &Path,
    options: &InitOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<InitReport, ProjectError> {
    let started = Instant::now();
    let root = project_root(root)?;
    let dir = root.join(DIR);
    let _lock = lock_for_writing(&dir, options.lock_wait)?;
    let config = init_config(&root, options)?;
    let model = vector_model(&config)?;
    let model_name = model.as_ref().map(|m| m.name.clone());
    let walk = config.walk_options()?;
    // Read before the walk: a commit made during it is at worst synced again.
    let git = git::state(&root).map(|g| GitState { options: config.walk_fingerprint(), ..g });
    let previous = read_manifest(&root).ok();
    let generation = previous.as_ref().map_or(1, |m| m.generation + 1);

    let build = BuildOptions {
        walk,
        max_slots_per_segment: config.segment_slots.unwrap_or(crate::snapshot::MAX_SLOTS_PER_SEGMENT),
        model,
        ..BuildOptions::default()
    };
    let mut segments = Vec::new();
    let mut sink = |i: u32, bytes: Vec<u8>| -> std::io::Result<()> {
        let name = format!("seg-{generation:06}-{i:04}.cgs");
        write_atomic(&dir.join(&name), &bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
        segments.push(name);
        Ok(())
    };
    let summary = build_index::build(&root, &build, &mut sink, progress)?;
    let contents = Contents::of(&summary);
    let manifest = commit_generation(&root, &config, generation, options.name.clone(), git, segments, contents)?;
    Ok(InitReport {
        excluded_dirs: manifest.excluded_dirs.clone(),
        codegraph_path: dir,
        manifest,
        skipped: summary.skipped,
        diagnostics: summary.diagnostics,
        duration_ms: started.elapsed().as_millis() as u64,
        model: model_name,
    })
}

/// A project root given by a user: an existing folder, made absolute.
fn project_root(root: &Path) -> Result<PathBuf, ProjectError> {
    if !root.exists() {
        return Err(ProjectError::Missing { path: root.to_path_buf() });
    }
    if !root.is_dir() {
        return Err(ProjectError::NotADirectory { path: root.to_path_buf() });
    }
    fs::canonicalize(root).map_err(io_err(root))
}

/// Takes `.codegraph/`'s write lock (making the folder: a real one, never
/// through a symlink), and keeps the index out of commits.
fn lock_for_writing(dir: &Path, wait: Option<std::time::Duration>) -> Result<WriteLock, ProjectError> {
    let lock = WriteLock::acquire_waiting(dir, wait.unwrap_or(DEFAULT_LOCK_WAIT))?;
    // The index is local, rebuilt by `cg init`: keep it out of commits (as
    // pytest's and ruff's caches do).
    let gitignore = dir.join(".gitignore");
    if !gitignore.exists() {
        write_atomic(&gitignore, b"# written by cg init: the index is local, rebuild it with `cg init`\n*\n")?;
    }
    Ok(lock)
}

/// The project's `config.json` with `cg init`'s options applied.
fn init_config(root: &Path, options: &InitOptions) -> Result<Config, ProjectError> {
    let mut config = read_config(root)?.unwrap_or_default();
    if !options.languages.is_empty() {
        config.languages = options.languages.clone();
    }
    if !options.exclude.is_empty() {
        config.exclude = options.exclude.clone();
    }
    if !options.include.is_empty() {
        config.include = options.include.clone();
    }
    if !options.keep_dirs.is_empty() {
        config.keep_dirs = options.keep_dirs.clone();
    }
    if options.max_slots_per_segment.is_some() {
        config.segment_slots = options.max_slots_per_segment;
    }
    if options.max_file_bytes.is_some() {
        config.max_file_bytes = options.max_file_bytes;
    }
    if options.model.is_some() {
        config.model = options.model.clone();
    }
    if config.model.is_none() {
        config.model = crate::embed::ModelStore::from_env().ok().and_then(|s| s.default_name());
    }
    Ok(config)
}

/// What a new generation holds besides its segments: the build's counts and
/// what its walk found.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Contents {
    pub files: u64,
    pub lines: u64,
    pub types: u64,
    pub methods: u64,
    pub source_bytes: u64,
    pub graph: GraphCounts,
    pub excluded_dirs: Vec<ExcludedDir>,
    pub unsupported: BTreeMap<String, u64>,
    pub project_files: Vec<String>,
    pub skipped: SkippedFiles,
}

impl Contents {
    pub fn of(summary: &build_index::BuildSummary) -> Contents {
        Contents {
            files: summary.files,
            lines: summary.lines,
            types: summary.types,
            methods: summary.methods,
            source_bytes: summary.bytes,
            graph: summary.graph,
            excluded_dirs: summary.excluded_dirs.clone(),
            unsupported: summary.unsupported.clone(),
            project_files: summary.project_files.clone(),
            skipped: SkippedFiles::of(&summary.skipped),
        }
    }

    /// Adds another path range's counts and skipped files (what a walk found
    /// besides files is the caller's to set: it is the whole tree's).
    pub fn add_counts(&mut self, other: &Contents) {
        self.files += other.files;
        self.lines += other.lines;
        self.types += other.types;
        self.methods += other.methods;
        self.source_bytes += other.source_bytes;
        self.graph = self.graph.plus(other.graph);
        self.skipped.files.extend(other.skipped.files.iter().cloned());
        self.skipped.files.sort_by(|a, b| a.file.cmp(&b.file));
        self.skipped.more += other.skipped.more;
    }
}

/// Makes `segments` (already written in `.codegraph/`, whose lock the caller
/// holds) generation `generation`: writes the config, the manifest (the
/// switch), the skipped files, then deletes what no manifest names and
/// refreshes the summary and docs.
fn commit_generation(
    root: &Path,
    config: &Config,
    generation: u64,
    name: Option<String>,
    git: Option<GitState>,
    segments: Vec<String>,
    contents: Contents,
) -> Result<Manifest, ProjectError> {
    let dir = root.join(DIR);
    let previous = read_manifest(root).ok();
    let name = name
        .or_else(|| previous.as_ref().map(|m| m.name.clone()))
        .unwrap_or_else(|| root.file_name().and_then(|n| n.to_str()).unwrap_or("project").to_string());
    let config_bytes = serde_json::to_vec_pretty(config).unwrap_or_default();
    write_atomic(&dir.join(CONFIG), &config_bytes)?;

    let opened = Index::open_segments(root, &segments)?;
    let stats = opened.stats()?;
    drop(opened);
    let manifest = Manifest {
        format_version: FORMAT_VERSION,
        generation,
        name,
        base_segments: segments.len(),
        segments,
        superseded: BTreeMap::new(),
        project_files: project_files_fingerprint(root, &contents.project_files),
        summary_changed_at: generation,
        created_unix_ms: SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64),
        files: contents.files,
        lines: contents.lines,
        terms: stats.terms,
        occurrences: stats.occurrences,
        types: contents.types,
        methods: contents.methods,
        source_bytes: contents.source_bytes,
        excluded_dirs: contents.excluded_dirs,
        unsupported_files: contents.unsupported,
        graph: contents.graph,
        git,
    };
    let manifest_bytes = serde_json::to_vec_pretty(&manifest).unwrap_or_default();
    write_atomic(&dir.join(MANIFEST), &manifest_bytes)?;
    write_skipped(&dir, &contents.skipped)?;
    sync_dir(&dir);
    remove_unreferenced(&dir, &manifest);
    // The summary's automatic part follows the new generation; people's sections
    // are kept as they are.
    let index = Index::open(root)?;
    let auto = summary::detect(&index, root)?;
    summary::refresh(root, &manifest.name, &auto)?;
    docs::update_from_walk(root, &manifest.name, &contents.project_files)?;
    Ok(manifest)
}

/// A fingerprint of the files the summary and docs are made from: the root and
/// `.claude/` CLAUDE.md plus the walk's project files, with sizes and mtimes.
fn project_files_fingerprint(root: &Path, found: &[String]) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for rel in ["CLAUDE.md", ".claude/CLAUDE.md"].into_iter().chain(found.iter().map(String::as_str)) {
        h.update(rel.as_bytes());
        if let Ok(m) = fs::metadata(root.join(rel)) {
            h.update(&m.len().to_le_bytes());
            let mtime = m.modified().ok().and_then(|t| t.duration_since(UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
            h.update(&mtime.to_le_bytes());
        }
        h.update(&[0]);
    }
    h.digest()
}

/// Deletes segment files of older generations and stray temp files. Readers that
/// still map an old file keep it alive until they close it.
fn remove_unreferenced(dir: &Path, manifest: &Manifest) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let stale_segment = name.starts_with("seg-") && !manifest.segments.iter().any(|s| s == name);
        if stale_segment || name.ends_with(".tmp") {
            let _ = fs::remove_file(entry.path());
        }
    }
}

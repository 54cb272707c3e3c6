//! The project store: the `.codegraph/` folder of an indexed tree.
//!
//! In: a project root. Out: an opened [`Index`] (manifest + memory-mapped segments),
//! and what writing one needs (the manifest, the config, the write lock, atomic
//! writes); `codegraph::project::init` and `update` write generations. Layout:
//!
//! - `manifest.json` names the current generation and its segment files; it is
//!   replaced atomically (temp file, fsync, rename), and that rename is the switch
//!   from one generation to the next;
//! - `seg-GGGGGG-NNNN.cgs`: segment files of generation G, never modified after
//!   they are renamed into place;
//! - `config.json`: languages / include / exclude / keep_dirs / auto_update, read by
//!   later runs;
//! - `.gitignore`: `*`, so the index is never committed by accident;
//! - `lock`: held (flock) by the one process writing a new generation;
//! - `resolved.cgr`: every reference of one generation resolved (`cg resolve`,
//!   the servers in the background; codegraph-graph's `resolved`), read only
//!   while that generation is current.

mod index;
mod paths;

pub use index::{Index, IndexStats, IndexedFile};
pub use paths::{is_vendored, path_components, under};

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::extract::{ExcludedDir, KeepDirs, WalkOptions, DEFAULT_MAX_FILE_BYTES};
use crate::index::BuildError;
use crate::lang::Language;
use crate::snapshot::{SnapshotError, FORMAT_VERSION};

/// The folder an index lives in, under the project root.
pub const DIR: &str = ".codegraph";
pub const MANIFEST: &str = "manifest.json";
pub const CONFIG: &str = "config.json";
/// The files the walk found but could not index (binary, too large,
/// unreadable), as the last `cg init` and updates left them.
pub const SKIPPED: &str = "skipped.json";
/// At most this many skipped files are named in [`SKIPPED`]; the rest are
/// counted.
const MAX_SKIPPED_NAMED: usize = 10_000;

/// A file left out of the index, and why.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SkippedFile {
    pub file: String,
    /// `binary`, `too large`, `unreadable`, `path not UTF-8`.
    pub kind: String,
    /// The reason in words (`too large (2588822 bytes, limit 2097152)`).
    pub reason: String,
}

/// What [`SKIPPED`] holds.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct SkippedFiles {
    pub files: Vec<SkippedFile>,
    /// Skipped files beyond those named.
    #[serde(default)]
    pub more: u64,
}

impl SkippedFiles {
    pub fn of(skips: &[crate::extract::Skip]) -> SkippedFiles {
        let mut files: Vec<SkippedFile> = skips
            .iter()
            .map(|s| SkippedFile {
                file: s.path.clone(),
                kind: s.reason.label().to_string(),
                reason: s.reason.to_string(),
            })
            .collect();
        files.sort_by(|a, b| a.file.cmp(&b.file));
        files.dedup_by(|a, b| a.file == b.file);
        let more = files.len().saturating_sub(MAX_SKIPPED_NAMED) as u64;
        files.truncate(MAX_SKIPPED_NAMED);
        SkippedFiles { files, more }
    }

    /// Those of `self` outside `rels` (files or folders an update looked at
    /// again; "" is everything), and `skips`, what it skipped there.
    pub fn updated(&self, rels: &[String], skips: &[crate::extract::Skip]) -> SkippedFiles {
        let whole = rels.is_empty() || rels.iter().any(String::is_empty);
        let mut next = SkippedFiles::of(skips);
        if !whole {
            let kept = self.files.iter().filter(|f| !rels.iter().any(|r| under(&f.file, r)));
            next.files.extend(kept.cloned());
            next.files.sort_by(|a, b| a.file.cmp(&b.file));
            next.files.dedup_by(|a, b| a.file == b.file);
            next.more += self.more;
        }
        next
    }
}

/// The files the last `cg init` and later updates could not index
/// ([`SKIPPED`]; none recorded reads as none).
/// A regular file only (a FIFO never blocks), read up to 16 MiB (10,000 named
/// files take about 2 MiB).
pub fn read_skipped(root: &Path) -> SkippedFiles {
    use std::io::Read;
    let Ok(file) = crate::safe_fs::open_regular(&root.join(DIR).join(SKIPPED)) else { return SkippedFiles::default() };
    let mut bytes = Vec::new();
    if file.take(16 << 20).read_to_end(&mut bytes).is_err() {
        return SkippedFiles::default();
    }
    serde_json::from_slice(&bytes).unwrap_or_default()
}

pub fn write_skipped(dir: &Path, skipped: &SkippedFiles) -> Result<(), ProjectError> {
    let path = dir.join(SKIPPED);
    if skipped.files.is_empty() && skipped.more == 0 {
        return match fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(ProjectError::Io { path, source: e }),
            _ => Ok(()),
        };
    }
    write_atomic(&path, &serde_json::to_vec_pretty(skipped).unwrap_or_default())
}

/// What can go wrong with a project's store. Every message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error("no codegraph index found in {start} or any parent folder: run `cg init` in the project root")]
    NotFound { start: PathBuf },
    #[error("{path}: does not exist")]
    Missing { path: PathBuf },
    #[error("{path}: not a directory")]
    NotADirectory { path: PathBuf },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: unreadable manifest ({message}); run `cg init` to rebuild the index")]
    BadManifest { path: PathBuf, message: String },
    #[error("{path}: byte {offset} is not valid UTF-8; fix it there (nothing was changed) and run again")]
    NotUtf8 { path: PathBuf, offset: usize },
    #[error("{path}: unreadable config ({message}); fix or delete it")]
    BadConfig { path: PathBuf, message: String },
    #[error("another cg process is writing this index ({path} is locked); wait for it to finish and try again")]
    Locked { path: PathBuf },
    #[error("{path}: not an indexed project: run `cg init` there first")]
    NotIndexed { path: PathBuf },
    #[error("{given:?} matches no indexed file (`cg tree` lists what is indexed)")]
    NoMatch { given: String },
    #[error("{path}: not in the index (`cg tree` lists what is)")]
    NotInIndex { path: String },
    #[error("{path}: {why}")]
    Refused { path: String, why: String },
    #[error("{path}: outside the project at {root}")]
    OutsideProject { path: PathBuf, root: PathBuf },
    #[error("{path}: a project cannot link to itself")]
    SelfLink { path: PathBuf },
    #[error("no link named {0:?}: `cg links` lists them")]
    NoSuchLink(String),
    #[error("unknown summary section {0:?}: use purpose, architecture, concepts, patterns or custom")]
    UnknownSection(String),
    #[error("invalid glob {glob:?}: {message}")]
    BadGlob { glob: String, message: String },
    #[error("unknown language {0:?}: use csharp, typescript, javascript, rust, go, python, java, c, cpp, php or ruby")]
    UnknownLanguage(String),
    #[error("{0}")]
    Model(String),
    /// A `git` command failed or the project is not in a repository.
    #[error("{0}")]
    Git(String),
    /// Shards that cannot be built or published as they are (`cg init --shard`, `cg publish`).
    #[error("{0}")]
    Shards(String),
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    #[error(transparent)]
    Build(#[from] BuildError),
}

pub fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ProjectError + '_ {
    move |source| ProjectError::Io { path: path.to_path_buf(), source }
}

/// The current generation, as `manifest.json` states it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Manifest {
    pub format_version: u32,
    pub generation: u64,
    pub name: String,
    pub segments: Vec<String>,
    /// How many of `segments`, from the first, were written by the last full build
    /// or compaction: they hold disjoint, increasing path ranges. The rest were
    /// written by updates, oldest first.
    pub base_segments: usize,
    /// Per segment file: the slots whose files were superseded by a later segment
    /// or removed since it was written.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub superseded: BTreeMap<String, Vec<u32>>,
    /// A fingerprint (paths, sizes, mtimes) of the files the summary and docs were
    /// last made from; a rescan that finds it changed refreshes them.
    #[serde(default)]
    pub project_files: u64,
    /// The last generation that changed what the summary's detected part is
    /// made from; a summary detected at an older generation is detected again
    /// when read.
    #[serde(default)]
    pub summary_changed_at: u64,
    pub created_unix_ms: u64,
    pub files: u64,
    pub lines: u64,
    /// Distinct terms, case-insensitively, over all segments.
    pub terms: u64,
    pub occurrences: u64,
    pub types: u64,
    pub methods: u64,
    pub source_bytes: u64,
    /// Folders the last full walk left out by a default rule (build output,
    /// installed packages), with the reason; `cg init --keep-dir` brings one back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded_dirs: Vec<ExcludedDir>,
    /// Source files the last full walk found in languages cg does not read yet, by
    /// extension.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unsupported_files: BTreeMap<String, u64>,
    /// The code graph's totals over live files.
    #[serde(default)]
    pub graph: GraphCounts,
    /// The commit the index reflects, in a git repository: recorded by a full
    /// build or rescan and by `cg sync-git`; an update of some files keeps it
    /// (the files it changed are among those changed since).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git: Option<GitState>,
}

/// What a generation was built from in a git repository.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct GitState {
    /// The commit HEAD named (40 hex digits).
    pub commit: String,
    /// Whether the work tree held changes besides it (edits, new files).
    pub dirty: bool,
    /// [`Config::walk_fingerprint`] of the options it was indexed with (0:
    /// not recorded).
    #[serde(default)]
    pub options: u64,
}

/// Definitions and references by role, over a set of files.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct GraphCounts {
    pub definitions: u64,
    pub calls: u64,
    pub types: u64,
    pub imports: u64,
    pub inherits: u64,
    pub others: u64,
}

impl GraphCounts {
    pub fn of_facts(f: &crate::extract::FileFacts) -> GraphCounts {
        let mut c = GraphCounts {
            definitions: (f.types.len() + f.methods.len() + f.properties.len()) as u64,
            ..GraphCounts::default()
        };
        for r in &f.refs {
            c.count(r.role);
        }
        c
    }

    /// The counts of a stored file (its structure archive).
    pub fn of_structure(s: &crate::snapshot::structure::FileStructure) -> GraphCounts {
        let mut c = GraphCounts {
            definitions: (s.types.len() + s.methods.len() + s.properties.len()) as u64,
            ..GraphCounts::default()
        };
        for r in crate::snapshot::structure::decode_refs(&s.refs, s.names.len()).unwrap_or_default() {
            c.count(r.role);
        }
        c
    }

    fn count(&mut self, role: crate::extract::RefRole) {
        use crate::extract::RefRole::*;
        match role {
            Call => self.calls += 1,
            Type => self.types += 1,
            Import => self.imports += 1,
            Inherit => self.inherits += 1,
            Other => self.others += 1,
        }
    }

    pub fn references(&self) -> u64 {
        self.calls + self.types + self.imports + self.inherits + self.others
    }

    pub fn plus(self, o: GraphCounts) -> GraphCounts {
        GraphCounts {
            definitions: self.definitions + o.definitions,
            calls: self.calls + o.calls,
            types: self.types + o.types,
            imports: self.imports + o.imports,
            inherits: self.inherits + o.inherits,
            others: self.others + o.others,
        }
    }

    pub fn minus(self, o: GraphCounts) -> GraphCounts {
        GraphCounts {
            definitions: self.definitions.saturating_sub(o.definitions),
            calls: self.calls.saturating_sub(o.calls),
            types: self.types.saturating_sub(o.types),
            imports: self.imports.saturating_sub(o.imports),
            inherits: self.inherits.saturating_sub(o.inherits),
            others: self.others.saturating_sub(o.others),
        }
    }
}

/// `config.json`: how the tree is walked, kept for later runs.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Config {
    #[serde(default)]
    pub languages: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
    #[serde(default)]
    pub include: Vec<String>,
    /// Folders walked although a default rule leaves them out (build output
    /// beside its project file, node_modules): names, relative paths, or `all`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keep_dirs: Vec<String>,
    #[serde(default)]
    pub auto_update: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_file_bytes: Option<u64>,
    /// Slots per segment (tests use small segments); 65,536 when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment_slots: Option<u32>,
    /// The model whose static vectors embed definitions (`cg model add`);
    /// `none`: no vectors. `cg init` sets it to the default model when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// `cg mcp` runs `cg embed` while no tool call has come for a while.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub embed_when_idle: bool,
    /// `cg mcp`, `cg lsp` and `cg watch` resolve every reference of each new generation
    /// in the background (`resolved.cgr`) unless this is `false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolve_in_background: Option<bool>,
}

impl Config {
    /// A fingerprint of what decides which files the walk takes (languages,
    /// excludes, includes, kept folders, the size limit): a sync from git
    /// rescans when it differs from the one recorded.
    pub fn walk_fingerprint(&self) -> u64 {
        let key = serde_json::json!([self.languages, self.exclude, self.include, self.keep_dirs, self.max_file_bytes]);
        xxhash_rust::xxh3::xxh3_64(key.to_string().as_bytes())
    }
}

/// What `model` says when a project wants no vectors.
pub const NO_MODEL: &str = "none";

/// The static model the index at `root` was configured with, if it loads.
pub fn index_model(root: &Path) -> Option<std::sync::Arc<crate::embed::StaticModel>> {
    read_config(root).ok().flatten().and_then(|c| vector_model(&c).ok().flatten())
}

/// The static model `config` names, loaded (cached per process).
pub fn vector_model(config: &Config) -> Result<Option<std::sync::Arc<crate::embed::StaticModel>>, ProjectError> {
    match config.model.as_deref() {
        None | Some(NO_MODEL) | Some("") => Ok(None),
        Some(name) => {
            let store = crate::embed::ModelStore::from_env().map_err(|e| ProjectError::Model(e.to_string()))?;
            store.cached_static(name).map(Some).map_err(|e| ProjectError::Model(e.to_string()))
        }
    }
}

impl Config {
    pub fn walk_options(&self) -> Result<WalkOptions, ProjectError> {
        let languages = self
            .languages
            .iter()
            .map(|n| Language::from_name(n).ok_or_else(|| ProjectError::UnknownLanguage(n.clone())))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(WalkOptions {
            languages,
            include: self.include.clone(),
            exclude: self.exclude.clone(),
            max_file_bytes: self.max_file_bytes.unwrap_or(DEFAULT_MAX_FILE_BYTES),
            threads: 0,
            keep_dirs: KeepDirs { dirs: self.keep_dirs.clone() },
        })
    }
}

/// Bytes of every file in the project's `.codegraph/` folder.
pub fn store_bytes(root: &Path) -> u64 {
    fs::read_dir(root.join(DIR))
        .map(|rd| rd.flatten().filter_map(|e| e.metadata().ok()).filter(|m| m.is_file()).map(|m| m.len()).sum())
        .unwrap_or(0)
}

/// Finds the project whose `.codegraph/manifest.json` is at `start` or above it.
pub fn find(start: &Path) -> Result<PathBuf, ProjectError> {
    let start = fs::canonicalize(start).map_err(|_| ProjectError::Missing { path: start.to_path_buf() })?;
    let mut dir = Some(start.as_path());
    while let Some(d) = dir {
        if d.join(DIR).join(MANIFEST).is_file() {
            return Ok(d.to_path_buf());
        }
        dir = d.parent();
    }
    Err(ProjectError::NotFound { start })
}

pub fn read_manifest(root: &Path) -> Result<Manifest, ProjectError> {
    let path = root.join(DIR).join(MANIFEST);
    let text = crate::safe_fs::read_regular_text(&path, MANIFEST_CAP).map_err(io_err(&path))?;
    let manifest: Manifest = serde_json::from_str(&text)
        .map_err(|e| ProjectError::BadManifest { path: path.clone(), message: e.to_string() })?;
    if manifest.format_version != FORMAT_VERSION {
        return Err(SnapshotError::Version { path, found: manifest.format_version, expected: FORMAT_VERSION }.into());
    }
    manifest.validate().map_err(|message| ProjectError::BadManifest { path, message })?;
    Ok(manifest)
}

impl Manifest {
    /// Checks what can be checked without the segments: plain, distinct segment file
    /// names inside `.codegraph/` (never `../x` or an absolute path), base segments
    /// within the list, superseded slots only of listed segments, sorted and
    /// distinct, a generation of at least 1 and no segment of a later generation.
    /// (Superseded slot ids are checked against each segment when it is opened.)
    pub fn validate(&self) -> Result<(), String> {
        if self.generation == 0 {
            return Err("generation 0 (generations start at 1)".into());
        }
        let mut seen = std::collections::HashSet::new();
        for name in &self.segments {
            let plain = !name.is_empty()
                && !name.starts_with('.')
                && !name.contains(['/', '\\', '\0'])
                && name.ends_with(".cgs");
            if !plain {
                return Err(format!("segment name {name:?} is not a plain .cgs file name inside .codegraph/"));
            }
            if !seen.insert(name.as_str()) {
                return Err(format!("segment {name:?} is listed twice"));
            }
            // seg-GGGGGG-NNNN.cgs: written by this generation or an earlier one.
            if let Some(g) =
                name.strip_prefix("seg-").and_then(|r| r.split('-').next()).and_then(|g| g.parse::<u64>().ok())
            {
                if g > self.generation {
                    return Err(format!(
                        "segment {name:?} is of generation {g}, after the manifest's {}",
                        self.generation
                    ));
                }
            }
        }
        if self.base_segments > self.segments.len() {
            return Err(format!("base_segments {} but {} segments", self.base_segments, self.segments.len()));
        }
        for (name, slots) in &self.superseded {
            if !seen.contains(name.as_str()) {
                return Err(format!("superseded slots of {name:?}, which is not a listed segment"));
            }
            if slots.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!("superseded slots of {name:?} are not sorted and distinct"));
            }
        }
        Ok(())
    }
}

pub fn read_config(root: &Path) -> Result<Option<Config>, ProjectError> {
    let path = root.join(DIR).join(CONFIG);
    match crate::safe_fs::read_regular_text(&path, SMALL_FILE_CAP) {
        Ok(text) => {
            serde_json::from_str(&text).map(Some).map_err(|e| ProjectError::BadConfig { path, message: e.to_string() })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ProjectError::Io { path, source: e }),
    }
}

/// The most bytes read of `config.json`, `links.json`, `summary.*` and `docs.md`
/// (each is kilobytes; a larger one was not written by cg).
pub const SMALL_FILE_CAP: u64 = 64 << 20;
/// The most bytes read of `manifest.json` (it lists segments, superseded slots
/// and unsupported files: megabytes on the largest trees).
const MANIFEST_CAP: u64 = 1 << 30;

/// Writes `bytes` to `path` atomically: a temp file beside it (created anew,
/// never through a symlink planted there), fsync, rename (which replaces a
/// symlink at `path` itself, never its target).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ProjectError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    crate::safe_fs::write_new(&tmp, bytes).map_err(io_err(&tmp))?;
    fs::rename(&tmp, path).map_err(io_err(path))?;
    Ok(())
}

pub fn sync_dir(dir: &Path) {
    // Makes the renames durable; not all platforms allow opening a directory.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// The exclusive write lock of a store, released on drop (or when the process dies).
pub struct WriteLock {
    _file: File,
}

impl WriteLock {
    /// Takes the write lock, waiting up to `wait` for another writer to finish.
    pub fn acquire_waiting(dir: &Path, wait: Duration) -> Result<WriteLock, ProjectError> {
        let deadline = Instant::now() + wait;
        loop {
            match WriteLock::acquire(dir) {
                Err(ProjectError::Locked { .. }) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                other => return other,
            }
        }
    }

    pub fn acquire(dir: &Path) -> Result<WriteLock, ProjectError> {
        WriteLock::acquire_named(dir, "lock")
    }

    /// The lock file `name` in `dir` (`cg embed` holds its own, so that
    /// updates go on while it runs).
    /// `dir` must be a real folder (a symlink there is refused: every writer
    /// takes a lock first, so nothing is written through it), and a symlink at
    /// the lock file is replaced, never followed.
    pub fn acquire_named(dir: &Path, name: &str) -> Result<WriteLock, ProjectError> {
        crate::safe_fs::ensure_dir(dir).map_err(io_err(dir))?;
        let path = dir.join(name);
        let file = crate::safe_fs::open_or_create(&path).map_err(io_err(&path))?;
        match file.try_lock() {
            Ok(()) => Ok(WriteLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(ProjectError::Locked { path }),
            Err(std::fs::TryLockError::Error(e)) => Err(ProjectError::Io { path, source: e }),
        }
    }
}

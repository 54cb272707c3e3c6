//! Which files to read, and reading them in parallel.
//!
//! [`walk`] lists the source files under a root, honouring `.gitignore` (nested and
//! global), `.git/info/exclude` and `.ignore`, the build-output folders of
//! [`super::excludes`] (reported in [`Walk::excluded_dirs`]), include
//! and exclude globs and a language list; symlinks are not followed. The list is
//! sorted by path, so ids and output never depend on the file system's order.
//! [`extract_files`] reads and extracts them on the current rayon pool, returning
//! outcomes in the same order whatever the thread count.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use rayon::prelude::*;

use super::excludes::{excluded_dir, may_exclude, ExcludedDir, KeepDirs};
use super::{Extractor, FileFacts};
use crate::lang::Language;

/// Files larger than this are skipped unless configured otherwise.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// How many leading bytes are checked for a NUL to call a file binary.
const BINARY_SNIFF_BYTES: usize = 8 * 1024;

#[derive(Clone, Debug)]
pub struct WalkOptions {
    /// Only these languages; empty means all.
    pub languages: Vec<Language>,
    /// Globs over relative paths; when not empty, a file must match one.
    pub include: Vec<String>,
    /// Globs over relative paths; a file that matches one is left out.
    pub exclude: Vec<String>,
    pub max_file_bytes: u64,
    /// Threads for the directory walk (0: as many as cores).
    pub threads: usize,
    /// Build-output folders walked although a default rule leaves them out.
    pub keep_dirs: KeepDirs,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            languages: Vec::new(),
            include: Vec::new(),
            exclude: Vec::new(),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            threads: 0,
            keep_dirs: KeepDirs::default(),
        }
    }
}

/// A source file found by the walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    pub abs: PathBuf,
    /// Relative to the root, `/`-separated.
    pub rel: String,
    pub language: Language,
    /// Its size when the walk saw it (0: unknown). Only schedules work: the
    /// build starts large files early; reads take the size they find.
    pub size: u64,
}

/// A file left out, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skip {
    pub path: String,
    pub reason: SkipReason,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkipReason {
    TooLarge {
        size: u64,
        limit: u64,
    },
    Binary,
    Unreadable(String),
    NotUtf8Path,
    /// Extraction panicked on the file (a bug in cg); the panic's message.
    ExtractionFailed(String),
}

impl SkipReason {
    /// A short stable label, for counting skips by reason.
    pub fn label(&self) -> &'static str {
        match self {
            SkipReason::TooLarge { .. } => "too large",
            SkipReason::Binary => "binary",
            SkipReason::Unreadable(_) => "unreadable",
            SkipReason::NotUtf8Path => "path not UTF-8",
            SkipReason::ExtractionFailed(_) => "extraction failed",
        }
    }
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::TooLarge { size, limit } => {
                write!(f, "too large ({size} bytes, limit {limit})")
            }
            SkipReason::Binary => write!(f, "binary (NUL byte near the start)"),
            SkipReason::Unreadable(e) => write!(f, "unreadable: {e}"),
            SkipReason::NotUtf8Path => write!(f, "path is not valid UTF-8"),
            SkipReason::ExtractionFailed(e) => {
                write!(f, "extraction failed (a bug in cg; please report it with the file): {e}")
            }
        }
    }
}

/// The result of a walk: files to extract, and what was left out.
#[derive(Debug, Default)]
pub struct Walk {
    pub files: Vec<SourceFile>,
    pub skipped: Vec<Skip>,
    /// Files the project summary and docs are made from (`CLAUDE.md`, package
    /// manifests), relative and sorted: a change to one refreshes them.
    pub project_files: Vec<String>,
    /// Folders left out by a default rule (not by an ignore file), sorted.
    pub excluded_dirs: Vec<ExcludedDir>,
    /// Source files of languages cg does not read yet, by extension (`py` → 37):
    /// said by `cg init` and `cg status` rather than left out without a word.
    pub unsupported: std::collections::BTreeMap<String, u64>,
}

/// The extension of a source file in a language cg does not read yet.
fn unsupported_source(path: &Path) -> Option<String> {
    const OTHER_SOURCES: &[&str] = &[
        "kt", "kts", "swift", "scala", "m", "mm", "lua", "dart", "ex", "exs", "erl", "hs", "ml", "fs", "vb", "r", "jl",
        "zig", "nim", "clj", "groovy", "pl", "pm",
    ];
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    OTHER_SOURCES.contains(&ext.as_str()).then_some(ext)
}

/// Whether a file name is one the summary or the docs are made from.
pub fn is_project_file(name: &str) -> bool {
    matches!(
        name,
        "CLAUDE.md"
            | "package.json"
            | "Cargo.toml"
            | "go.mod"
            | "pyproject.toml"
            | "setup.py"
            | "setup.cfg"
            | "pom.xml"
            | "build.gradle"
            | "build.gradle.kts"
            | "CMakeLists.txt"
            | "meson.build"
            | "configure.ac"
            | "composer.json"
            | "Gemfile"
    ) || name.ends_with(".csproj")
        || name.ends_with(".gemspec")
        || (name.starts_with("requirements") && name.ends_with(".txt"))
}

/// A glob list could not be compiled.
#[derive(Debug, thiserror::Error)]
#[error("invalid glob {glob:?}: {message}")]
pub struct GlobError {
    pub glob: String,
    pub message: String,
}

fn glob_set(globs: &[String]) -> Result<Option<GlobSet>, GlobError> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut builder = GlobSetBuilder::new();
    for g in globs {
        let glob = GlobBuilder::new(g)
            .literal_separator(true)
            .build()
            .map_err(|e| GlobError { glob: g.clone(), message: e.kind().to_string() })?;
        builder.add(glob);
    }
    builder.build().map(Some).map_err(|e| GlobError { glob: globs.join(", "), message: e.to_string() })
}

/// Lists the source files under `root`, sorted by relative path.
pub fn walk(root: &Path, options: &WalkOptions) -> Result<Walk, GlobError> {
    walk_within(root, options, &[String::new()])
}

/// Like [`walk`], but only the files at or under `targets` (relative paths; ""
/// is the whole tree). The same rules apply (ignore files of every folder above a
/// target included); folders that lead to no target are not entered.
pub fn walk_within(root: &Path, options: &WalkOptions, targets: &[String]) -> Result<Walk, GlobError> {
    let include = glob_set(&options.include)?;
    let exclude = glob_set(&options.exclude)?;
    let found = Mutex::new(Walk::default());
    let whole = targets.iter().any(|t| t.is_empty());
    let wanted: std::collections::HashSet<String> =
        targets.iter().map(|t| t.trim_end_matches('/').to_string()).collect();
    let mut ancestors: std::collections::HashSet<String> = std::collections::HashSet::new();
    for t in &wanted {
        let mut rest = t.as_str();
        while let Some((parent, _)) = rest.rsplit_once('/') {
            ancestors.insert(parent.to_string());
            rest = parent;
        }
    }
    // A path is walked when it is a target, leads to one, or lies under one.
    let in_scope = move |rel: &str| -> bool {
        if whole || wanted.contains(rel) || ancestors.contains(rel) {
            return true;
        }
        let mut rest = rel;
        while let Some((parent, _)) = rest.rsplit_once('/') {
            if wanted.contains(parent) {
                return true;
            }
            rest = parent;
        }
        false
    };
    let owned_root = root.to_path_buf();
    let keep = options.keep_dirs.clone();
    let excluded = std::sync::Arc::new(Mutex::new(Vec::new()));
    let excluded_in_filter = excluded.clone();
    let mut builder = ignore::WalkBuilder::new(root);
    builder.follow_links(false).require_git(false).threads(options.threads).filter_entry(move |e| {
        if e.depth() == 0 {
            return true;
        }
        // Only folders a default rule may leave out, and partial walks, need the
        // relative path: a whole walk decides every other entry at once.
        let name = e.file_name().to_str().unwrap_or("");
        let candidate = e.file_type().is_some_and(|t| t.is_dir()) && may_exclude(name);
        if whole && !candidate {
            return true;
        }
        let Some(rel) = rel_path(&owned_root, e.path()) else { return whole };
        if candidate {
            if let Some(reason) = excluded_dir(e.path(), &rel, &keep) {
                // `.git` and `.codegraph` are left out without a report.
                if !name.starts_with('.') && (whole || in_scope(&rel)) {
                    let dir = ExcludedDir { path: rel, reason: reason.to_string() };
                    excluded_in_filter.lock().unwrap_or_else(|p| p.into_inner()).push(dir);
                }
                return false;
            }
        }
        whole || in_scope(&rel)
    });
    builder.build_parallel().run(|| {
        Box::new(|entry| {
            let entry = match entry {
                Ok(e) => e,
                Err(err) => {
                    let path =
                        error_path(&err).and_then(|p| rel_path(root, p)).unwrap_or_else(|| "(unknown path)".into());
                    let skip = Skip { path, reason: SkipReason::Unreadable(err.to_string()) };
                    found.lock().unwrap_or_else(|p| p.into_inner()).skipped.push(skip);
                    return ignore::WalkState::Continue;
                }
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return ignore::WalkState::Continue;
            }
            let Some(language) = Language::from_path(entry.path()) else {
                if entry.file_name().to_str().is_some_and(is_project_file) {
                    if let Some(rel) = rel_path(root, entry.path()) {
                        found.lock().unwrap_or_else(|p| p.into_inner()).project_files.push(rel);
                    }
                }
                if let Some(ext) = unsupported_source(entry.path()) {
                    *found.lock().unwrap_or_else(|p| p.into_inner()).unsupported.entry(ext).or_default() += 1;
                }
                return ignore::WalkState::Continue;
            };
            if !options.languages.is_empty() && !options.languages.iter().any(|l| l.may_be(language)) {
                return ignore::WalkState::Continue;
            }
            let Some(rel) = rel_path(root, entry.path()) else {
                let path = entry.path().to_string_lossy().into_owned();
                found
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .skipped
                    .push(Skip { path, reason: SkipReason::NotUtf8Path });
                return ignore::WalkState::Continue;
            };
            if include.as_ref().is_some_and(|g| !g.is_match(&rel)) || exclude.as_ref().is_some_and(|g| g.is_match(&rel))
            {
                return ignore::WalkState::Continue;
            }
            let size = entry.metadata().map_or(0, |m| m.len());
            let file = SourceFile { abs: entry.into_path(), rel, language, size };
            found.lock().unwrap_or_else(|p| p.into_inner()).files.push(file);
            ignore::WalkState::Continue
        })
    });
    let mut walk = found.into_inner().unwrap_or_else(|p| p.into_inner());
    walk.files.sort_unstable_by(|a, b| a.rel.cmp(&b.rel));
    walk.skipped.sort_unstable_by(|a, b| a.path.cmp(&b.path));
    walk.project_files.sort_unstable();
    walk.excluded_dirs = std::mem::take(&mut *excluded.lock().unwrap_or_else(|p| p.into_inner()));
    walk.excluded_dirs.sort_unstable_by(|a, b| a.path.cmp(&b.path));
    Ok(walk)
}

/// Whether [`walk`] would list the file `rel` (relative to `root`), decided without
/// listing any folder: the ignore files of the folders above it are read and
/// matched the way the walk's `ignore` crate matches them (per folder, the deepest
/// match first; `.ignore` over `.gitignore` over `.git/info/exclude`; since the walk
/// does not require a repository, every folder's rules apply, also above a nested
/// `.git`; a hidden name skipped unless a rule whitelists it), then the build-output
/// folders, the language and the globs. `None` when it cannot be decided
/// that way (a global gitignore, ignore files or a repository above `root`, a `.git`
/// file (worktree), an unreadable rule): then walk. Tested against [`walk`] on
/// generated trees.
pub fn walks_file(root: &Path, options: &WalkOptions, rel: &str) -> Option<bool> {
    use ignore::gitignore::{Gitignore, GitignoreBuilder};
    use ignore::Match;
    let abs = root.join(rel);
    let meta = std::fs::symlink_metadata(&abs).ok()?;
    if !meta.is_file() {
        return None;
    }
    if !Gitignore::global().0.is_empty() {
        return None;
    }
    let mut above = root.parent();
    while let Some(d) = above {
        if [".gitignore", ".ignore", ".git"].iter().any(|n| d.join(n).exists()) {
            return None;
        }
        above = d.parent();
    }
    let parts: Vec<&str> = rel.split('/').collect();
    if parts.iter().any(|p| p.is_empty() || *p == "." || *p == "..") {
        return None;
    }
    let matcher = |dir: &Path, file: &Path| -> Option<Option<Gitignore>> {
        if !file.is_file() {
            return Some(None);
        }
        let mut b = GitignoreBuilder::new(dir);
        if b.add(file).is_some() {
            return None;
        }
        b.build().ok().map(Some)
    };
    // Each folder from the root down to the file's: its .ignore, .gitignore and
    // .git/info/exclude.
    let mut levels = Vec::with_capacity(parts.len());
    let mut dir = root.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        let exclude = match std::fs::symlink_metadata(dir.join(".git")) {
            Ok(m) if m.is_dir() => matcher(&dir, &dir.join(".git/info/exclude"))?,
            Ok(_) => return None,
            Err(_) => None,
        };
        levels.push((matcher(&dir, &dir.join(".ignore"))?, matcher(&dir, &dir.join(".gitignore"))?, exclude));
        if i + 1 < parts.len() {
            dir.push(part);
        }
    }
    let mut path = root.to_path_buf();
    for (k, part) in parts.iter().enumerate() {
        path.push(part);
        let is_dir = k + 1 < parts.len();
        let (mut m_ignore, mut m_gi, mut m_ex) = (Match::None, Match::None, Match::None);
        for (ignore, gitignore, exclude) in levels[..=k].iter().rev() {
            for (m, g) in [(&mut m_ignore, ignore), (&mut m_gi, gitignore), (&mut m_ex, exclude)] {
                if let (true, Some(g)) = (m.is_none(), g) {
                    *m = g.matched(&path, is_dir).map(|_| ());
                }
            }
        }
        let m = m_ignore.or(m_gi).or(m_ex);
        if m.is_ignore() || (m.is_none() && part.starts_with('.')) {
            return Some(false);
        }
        if is_dir && may_exclude(part) && excluded_dir(&path, &parts[..=k].join("/"), &options.keep_dirs).is_some() {
            return Some(false);
        }
    }
    let Some(language) = Language::from_path(&abs) else { return Some(false) };
    if !options.languages.is_empty() && !options.languages.iter().any(|l| l.may_be(language)) {
        return Some(false);
    }
    let include = glob_set(&options.include).ok()?;
    let exclude = glob_set(&options.exclude).ok()?;
    Some(!(include.is_some_and(|g| !g.is_match(rel)) || exclude.is_some_and(|g| g.is_match(rel))))
}

/// The path an error of the walk is about, however deep it is wrapped (an unreadable
/// folder comes as `WithDepth { WithPath { .. } }`).
fn error_path(err: &ignore::Error) -> Option<&Path> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => error_path(err),
        ignore::Error::Partial(errs) => errs.iter().find_map(error_path),
        _ => None,
    }
}

/// `path` relative to `root`, `/`-separated; `None` when not valid UTF-8.
pub fn rel_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let mut out = String::new();
    for part in rel.components() {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(part.as_os_str().to_str()?);
    }
    Some(out)
}

/// What became of one file.
pub type Outcome = Result<FileFacts, Skip>;

/// Reads and extracts `files` on the current rayon pool; outcomes are in input order.
pub fn extract_files(files: &[SourceFile], max_file_bytes: u64) -> Vec<Outcome> {
    extract_each(files, max_file_bytes, |outcome, _| outcome)
}

/// Reads and extracts `files` on the current rayon pool and hands each outcome to
/// `f` on the thread that made it, so a caller can reduce facts as they come
/// instead of holding them all. Results are in input order.
pub fn extract_each<T: Send>(
    files: &[SourceFile],
    max_file_bytes: u64,
    f: impl Fn(Outcome, FileTiming) -> T + Sync,
) -> Vec<T> {
    extract_all(files.par_iter(), max_file_bytes, true, f)
}

/// [`extract_each`] of the files at positions `which` of `files`, in that order;
/// `graph_facts`: see [`Extractor::set_graph_facts`].
pub fn extract_at<T: Send>(
    files: &[SourceFile],
    which: &[usize],
    max_file_bytes: u64,
    graph_facts: bool,
    f: impl Fn(Outcome, FileTiming) -> T + Sync,
) -> Vec<T> {
    extract_all(which.par_iter().map(|&i| &files[i]), max_file_bytes, graph_facts, f)
}

fn extract_all<'a, T: Send>(
    files: impl IndexedParallelIterator<Item = &'a SourceFile>,
    max_file_bytes: u64,
    graph_facts: bool,
    f: impl Fn(Outcome, FileTiming) -> T + Sync,
) -> Vec<T> {
    // One file per rayon job, so an idle thread can take any file not started:
    // rayon otherwise hands each thread runs of files it then works through
    // alone, and a run of large ones (mono's API snapshots, a round's large
    // files put first) kept one core busy while the other waited (~25 s of
    // the four budget corpora's build at one core). Each thread keeps its
    // extractor (parsers, role tables) across jobs.
    files
        .with_max_len(1)
        .map(|file| {
            with_extractor(|extractor| {
                extractor.set_graph_facts(graph_facts);
                extract_one(extractor, file, max_file_bytes, &f)
            })
        })
        .collect()
}

thread_local! {
    /// This thread's extractor, taken while in use.
    static EXTRACTOR: std::cell::Cell<Option<Box<Extractor>>> = const { std::cell::Cell::new(None) };
}

/// Runs `work` with this thread's extractor (a new one the first time, or when
/// a job on this thread already holds it), then keeps it for the next job.
fn with_extractor<R>(work: impl FnOnce(&mut Extractor) -> R) -> R {
    let mut extractor = EXTRACTOR.with(|e| e.take()).unwrap_or_default();
    let out = work(&mut extractor);
    EXTRACTOR.with(|e| e.set(Some(extractor)));
    out
}

fn extract_one<T>(
    extractor: &mut Extractor,
    file: &SourceFile,
    max_file_bytes: u64,
    f: impl Fn(Outcome, FileTiming) -> T,
) -> T {
    let started = Instant::now();
    let read = read_source(&file.abs, max_file_bytes);
    let read_done = Instant::now();
    let outcome = read
        .and_then(|(bytes, mtime_ns)| {
            // A panic in extraction leaves this file out, named with the reason,
            // instead of ending the whole build; the extractor starts afresh.
            let extracted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                extractor.extract(&file.rel, file.language, &bytes, mtime_ns)
            }));
            extracted.map_err(|panic| {
                let graph_facts = extractor.graph_facts();
                *extractor = Extractor::new();
                extractor.set_graph_facts(graph_facts);
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".to_string());
                SkipReason::ExtractionFailed(message)
            })
        })
        .map_err(|reason| Skip { path: file.rel.clone(), reason });
    let timing = FileTiming { read: read_done - started, extract: read_done.elapsed(), prepare: Duration::ZERO };
    f(outcome, timing)
}

/// Where one file's time went, on the thread that handled it.
#[derive(Clone, Copy, Debug, Default)]
pub struct FileTiming {
    pub read: Duration,
    /// Parsing and extraction.
    pub extract: Duration,
    /// What the caller did with the file's facts on the same thread (the
    /// build: its archive and line types made ready for the writer).
    pub prepare: Duration,
}

/// Reads and only parses `files` (the baseline for extraction's overhead); returns
/// the bytes parsed.
pub fn parse_files(files: &[SourceFile], max_file_bytes: u64) -> u64 {
    // Scheduled as extraction is (see `extract_all`), so the two compare.
    files
        .par_iter()
        .with_max_len(1)
        .map(|file| match read_source(&file.abs, max_file_bytes) {
            Ok((bytes, _)) => with_extractor(|extractor| extractor.parse_only(&file.rel, file.language, &bytes) as u64),
            Err(_) => 0,
        })
        .sum()
}

/// Reads a file for extraction: its bytes and mtime, or why it is skipped.
pub fn read_source(path: &Path, max_file_bytes: u64) -> Result<(Vec<u8>, i64), SkipReason> {
    let unreadable = |e: std::io::Error| SkipReason::Unreadable(e.to_string());
    // Not through a symlink, never blocking on a FIFO swapped in after the walk.
    let mut file = crate::safe_fs::open_regular(path).map_err(unreadable)?;
    let meta = file.metadata().map_err(unreadable)?;
    let size = meta.len();
    if size > max_file_bytes {
        return Err(SkipReason::TooLarge { size, limit: max_file_bytes });
    }
    let mtime_ns = crate::safe_fs::mtime_ns(&meta);
    let mut bytes = Vec::with_capacity(size as usize + 1);
    // Bounded read: a file that grew since the stat is still capped.
    (&mut file).take(max_file_bytes.saturating_add(1)).read_to_end(&mut bytes).map_err(unreadable)?;
    if bytes.len() as u64 > max_file_bytes {
        return Err(SkipReason::TooLarge { size: bytes.len() as u64, limit: max_file_bytes });
    }
    if bytes[..bytes.len().min(BINARY_SNIFF_BYTES)].contains(&0) {
        return Err(SkipReason::Binary);
    }
    Ok((bytes, mtime_ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic in extraction leaves that file out with the reason; the files
    /// before and after it (on the same thread, with a fresh extractor) are
    /// extracted (the build's side: `index`'s tests).
    #[test]
    fn a_panic_in_extraction_skips_the_file_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.rs"), "fn before() {}\n").unwrap();
        std::fs::write(dir.path().join("b.rs"), "// cg test: extraction panics\nfn bad() {}\n").unwrap();
        std::fs::write(dir.path().join("c.rs"), "fn after() {}\n").unwrap();
        let files = walk(dir.path(), &WalkOptions::default()).unwrap().files;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let outcomes = pool.install(|| extract_each(&files, DEFAULT_MAX_FILE_BYTES, |o, _| o));
        let summary: Vec<String> = outcomes
            .iter()
            .map(|o| match o {
                Ok(f) => format!("{}: {} methods", f.path, f.methods.len()),
                Err(s) => format!("{}: {}", s.path, s.reason),
            })
            .collect();
        assert_eq!(
            summary,
            [
                "a.rs: 1 methods",
                "b.rs: extraction failed (a bug in cg; please report it with the file): extraction panicked (test)",
                "c.rs: 1 methods",
            ]
        );
    }

    /// Regression: an unreadable folder was reported with an empty path (its error
    /// comes wrapped in `WithDepth`).
    #[test]
    fn a_walk_error_names_its_path_however_it_is_wrapped() {
        let io = || ignore::Error::Io(std::io::Error::from(std::io::ErrorKind::PermissionDenied));
        let with_path = |err| ignore::Error::WithPath { path: PathBuf::from("/r/locked"), err: Box::new(err) };
        let deep = ignore::Error::WithDepth { depth: 2, err: Box::new(with_path(io())) };
        assert_eq!(error_path(&deep), Some(Path::new("/r/locked")));
        assert_eq!(error_path(&ignore::Error::Partial(vec![io(), with_path(io())])), Some(Path::new("/r/locked")));
        assert_eq!(error_path(&io()), None);
    }
}

//! Keeping an index fresh: updates of files and folders, removals, rescans of the
//! whole tree, and compaction. Each is one new generation, switched by one
//! manifest rename, so a change becomes visible whole or not at all.
//!
//! A change writes the changed files into a new, small *update segment* and marks
//! the slots of their previous versions *superseded* in the manifest; nothing
//! already written is modified. Queries, listings and counts leave superseded
//! slots out, and merge update segments' results by path. Update segments are
//! merged as they accumulate (the newest ones whenever they are no bigger than
//! twice the files being added, so merging costs O(log n) rewrites per file), and
//! the whole index is compacted — every current file copied into fresh base
//! segments, without parsing anything again — when a quarter of all slots are
//! superseded, or on request (`cg compact`). A segment no manifest names any more
//! is deleted after the switch.

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rayon::prelude::*;

use super::{
    docs, project_files_fingerprint, read_config, remove_unreferenced, sync_dir, write_atomic, GraphCounts, Index,
    IndexedFile, Manifest, ProjectError, WriteLock, DIR, MANIFEST,
};
use super::{under, write_skipped};
use crate::extract::{self, rel_path, FileFacts, Skip, SourceFile};
use crate::index::Progress;
use crate::snapshot::{SegmentCopy, SegmentWriter, SlotSet, FORMAT_VERSION, MAX_SLOTS_PER_SEGMENT};

/// What to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Bring these files and folders (relative to the project root, or absolute
    /// inside it) up to date: new files are added, changed ones re-extracted,
    /// deleted or newly ignored ones removed. `""` or `"."` is the whole tree (a
    /// rescan).
    Update(Vec<String>),
    /// Take these files, or every file under these folders, out of the index.
    Remove(Vec<String>),
    /// Rewrite every current file into fresh segments.
    Compact,
}

/// What an update did.
#[derive(Clone, Debug, Default)]
pub struct UpdateReport {
    /// The generation the index is at now (unchanged when nothing changed).
    pub generation: u64,
    pub previous_generation: u64,
    pub added: Vec<String>,
    pub updated: Vec<String>,
    pub removed: Vec<String>,
    /// Files looked at and found unchanged.
    pub unchanged: u64,
    /// Files that could not be indexed (too large, binary, unreadable); one that
    /// was indexed before is removed.
    pub skipped: Vec<Skip>,
    /// Given paths the walk's rules leave out (not a source file of an indexed
    /// language, ignored or excluded).
    pub ignored: Vec<String>,
    /// Segment files written (update segments, merged or compacted ones).
    pub segments_written: u32,
    /// Whether every file was rewritten into fresh base segments.
    pub compacted: bool,
    /// Files the summary's detected part comes from changed: it is detected
    /// again when next read (detection reads the whole index, so an update does
    /// not wait for it).
    pub summary_outdated: bool,
    pub docs_refreshed: bool,
    /// Distinct terms of the file versions written.
    pub items_added: u64,
    /// Distinct terms of the file versions superseded or removed.
    pub items_removed: u64,
    /// Lines of the file versions written.
    pub lines_updated: u64,
    /// When the change became visible (the manifest switch), from the start; a
    /// merge of update segments may follow as one more generation.
    pub visible_ms: u64,
    pub duration_ms: u64,
    /// Where the time went, phase by phase, in order.
    pub timings: Vec<(&'static str, Duration)>,
}

impl UpdateReport {
    pub fn changed(&self) -> bool {
        self.generation != self.previous_generation
    }
}

/// How long a writer waits for another one to finish, by default.
pub const DEFAULT_LOCK_WAIT: Duration = Duration::from_secs(10);

/// Options of [`update`].
#[derive(Clone, Debug)]
pub struct UpdateOptions {
    /// How long to wait for the write lock when another process holds it.
    pub lock_wait: Duration,
    /// A named path that neither exists nor was indexed is passed over instead of
    /// being an error (a watcher sees files that come and go within a batch).
    pub lenient: bool,
    /// The commit the index reflects once this update is done, to record in
    /// the manifest (`cg sync-git`). A rescan of the whole tree records HEAD
    /// by itself; an update of some files keeps what was recorded.
    pub git: Option<super::GitState>,
}

impl Default for UpdateOptions {
    fn default() -> Self {
        UpdateOptions { lock_wait: DEFAULT_LOCK_WAIT, lenient: false, git: None }
    }
}

/// Superseded slots above this share of all slots trigger a compaction.
const COMPACT_SUPERSEDED_PERCENT: u64 = 25;
/// At most this many update segments; more are merged into one.
const MAX_UPDATE_SEGMENTS: usize = 8;

/// Applies `request` to the index of the project at `root` as one new generation.
pub fn update(
    root: &Path,
    request: &Request,
    options: &UpdateOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<UpdateReport, ProjectError> {
    let started = Instant::now();
    let root = fs::canonicalize(root).map_err(|_| ProjectError::Missing { path: root.to_path_buf() })?;
    let dir = root.join(DIR);
    if !dir.join(MANIFEST).is_file() {
        return Err(ProjectError::NotIndexed { path: root });
    }
    let _lock = WriteLock::acquire_waiting(&dir, options.lock_wait)?;
    // What the index reflects in git once done: given, or HEAD for a rescan
    // of the whole tree, read before the walk (a commit made during it is at
    // worst synced again, never missed).
    let whole_rescan = matches!(request, Request::Update(paths) if paths.iter().any(|p| {
        let p = p.trim();
        p.is_empty() || p == "." || Path::new(p) == root
    }));
    let git = options.git.clone().or_else(|| if whole_rescan { super::git::state(&root) } else { None });
    let mut laps = Laps::new();
    let config = read_config(&root)?.unwrap_or_default();
    let index = Index::open(&root)?;
    let manifest = index.manifest.clone().ok_or_else(|| ProjectError::NotIndexed { path: root.clone() })?;
    let mut report = UpdateReport {
        generation: manifest.generation,
        previous_generation: manifest.generation,
        ..UpdateReport::default()
    };
    let mut superseded: Vec<IndexedFile<'_>> = Vec::new();
    let mut new_files: Vec<FileFacts> = Vec::new();
    let mut project_files = manifest.project_files;
    let mut refresh_summary = false;
    let mut refresh_docs = false;
    // The skipped files' record before this update and after, when it looked
    // at files again.
    let mut skipped: Option<(super::SkippedFiles, super::SkippedFiles)> = None;
    match request {
        Request::Compact => {}
        Request::Remove(paths) => {
            for p in paths {
                let given = Path::new(p.trim());
                let named = if given.is_absolute() { given.to_path_buf() } else { root.join(given) };
                if fs::symlink_metadata(&named).is_ok_and(|m| m.file_type().is_symlink()) {
                    // The walk never follows symlinks: removing what one points to
                    // (`loop` -> `.`: everything) is never what was meant.
                    return Err(ProjectError::Refused {
                        path: p.clone(),
                        why: "is a symlink, which cg never indexes through; name the files or folders themselves"
                            .into(),
                    });
                }
                let rel = relative_to_root(&root, p)?;
                if rel.is_empty() {
                    return Err(ProjectError::Refused {
                        path: p.clone(),
                        why: "is the project root: removing every file is not an update; run `cg init` to rebuild \
                              or delete .codegraph/ to drop the index"
                            .into(),
                    });
                }
                let found = indexed_under(&index, &rel)?;
                if found.is_empty() {
                    return Err(ProjectError::NotInIndex { path: p.clone() });
                }
                for f in found {
                    report.removed.push(f.path.to_string());
                    superseded.push(f);
                }
            }
        }
        Request::Update(paths) => {
            let rels = paths.iter().map(|p| relative_to_root(&root, p)).collect::<Result<Vec<_>, _>>()?;
            let whole = rels.is_empty() || rels.iter().any(String::is_empty);
            laps.lap("lock and open");
            let walk_options = config.walk_options()?;
            // A named file is decided on its own (no folder listed) when possible;
            // folders, missing paths and undecidable files are walked.
            let mut decided = Vec::new();
            let mut targets = Vec::new();
            if whole {
                targets.push(String::new());
            } else {
                for rel in &rels {
                    match extract::walks_file(&root, &walk_options, rel) {
                        Some(true) => {
                            let abs = root.join(rel);
                            match crate::lang::Language::from_path(&abs) {
                                Some(language) => {
                                    let size = std::fs::metadata(&abs).map_or(0, |m| m.len());
                                    decided.push(SourceFile { abs, rel: rel.clone(), language, size })
                                }
                                None => targets.push(rel.clone()),
                            }
                        }
                        Some(false) => {}
                        None => targets.push(rel.clone()),
                    }
                }
            }
            let mut walk = if targets.is_empty() {
                extract::Walk::default()
            } else {
                extract::walk_within(&root, &walk_options, &targets)
                    .map_err(|e| ProjectError::BadGlob { glob: e.glob, message: e.message })?
            };
            walk.files.extend(decided);
            walk.files.sort_by(|a, b| a.rel.cmp(&b.rel));
            walk.files.dedup_by(|a, b| a.rel == b.rel);
            report.skipped.extend(walk.skipped);
            let indexed: HashMap<&str, IndexedFile<'_>> = if whole {
                index.files()?.into_iter().map(|f| (f.path, f)).collect()
            } else {
                let mut m = HashMap::new();
                for rel in &rels {
                    for f in indexed_under(&index, rel)? {
                        m.insert(f.path, f);
                    }
                }
                m
            };
            // Named paths that are neither walked nor indexed.
            for (rel, given) in rels.iter().zip(paths) {
                if rel.is_empty() {
                    continue;
                }
                let walked = walk.files.iter().any(|f| under(&f.rel, rel));
                let was_indexed = indexed.keys().any(|p| under(p, rel));
                if !walked && !was_indexed {
                    if is_project_file_path(rel) {
                        continue;
                    }
                    if fs::symlink_metadata(root.join(rel)).is_ok() {
                        report.ignored.push(rel.clone());
                    } else if !options.lenient {
                        return Err(ProjectError::Missing { path: PathBuf::from(given) });
                    }
                }
            }
            // Files named one by one are read and compared by hash: an edit that
            // keeps the size within the file system's mtime granularity changes
            // neither. Files found under a folder or by a rescan are compared by
            // size and mtime first, and read only when those differ.
            let named: std::collections::HashSet<&str> = rels.iter().map(String::as_str).collect();
            let changed: Vec<&SourceFile> = walk
                .files
                .par_iter()
                .filter(|f| match indexed.get(f.rel.as_str()) {
                    Some(old) => {
                        named.contains(f.rel.as_str()) || !same_stat(&f.abs, old.slot.meta.size, old.slot.meta.mtime_ns)
                    }
                    None => true,
                })
                .collect();
            laps.lap("walk, stat");
            let total = changed.len();
            report.unchanged = (walk.files.len() - total) as u64;
            let owned: Vec<SourceFile> = changed.into_iter().cloned().collect();
            let outcomes = extract::extract_each(&owned, walk_options.max_file_bytes, |o, _| o);
            progress(Progress { files_done: total, files_total: total });
            laps.lap("read, extract");
            let walked: std::collections::HashSet<&str> = walk.files.iter().map(|f| f.rel.as_str()).collect();
            for outcome in outcomes {
                match outcome {
                    Ok(facts) => match indexed.get(facts.path.as_str()) {
                        Some(old)
                            if old.slot.meta.hash == facts.hash
                                && (old.slot.meta.mtime_ns == facts.mtime_ns
                                    || named.contains(facts.path.as_str())) =>
                        {
                            report.unchanged += 1;
                        }
                        Some(old) => {
                            if old.slot.meta.type_count as usize != facts.types.len()
                                || old.slot.meta.method_count as usize != facts.methods.len()
                            {
                                refresh_summary = true;
                            }
                            report.updated.push(facts.path.clone());
                            superseded.push(*old);
                            new_files.push(facts);
                        }
                        None => {
                            report.added.push(facts.path.clone());
                            new_files.push(facts);
                        }
                    },
                    Err(skip) => {
                        if let Some(old) = indexed.get(skip.path.as_str()) {
                            report.removed.push(skip.path.clone());
                            superseded.push(*old);
                        }
                        report.skipped.push(skip);
                    }
                }
            }
            let mut gone: Vec<&IndexedFile<'_>> = indexed.values().filter(|f| !walked.contains(f.path)).collect();
            gone.sort_by(|a, b| a.path.cmp(b.path));
            for f in gone {
                report.removed.push(f.path.to_string());
                superseded.push(*f);
            }
            if whole {
                project_files = project_files_fingerprint(&root, &walk.project_files);
                if project_files != manifest.project_files {
                    refresh_summary = true;
                    refresh_docs = true;
                }
            }
            for rel in &rels {
                let name = rel.rsplit('/').next().unwrap_or(rel);
                if name == "CLAUDE.md" {
                    refresh_docs = true;
                } else if is_project_file_path(rel) {
                    refresh_summary = true;
                }
            }
            let before = super::read_skipped(&root);
            let after = before.updated(&rels, &report.skipped);
            skipped = Some((before, after));
        }
    }
    // Files that come or go change the detected structure and entry points.
    if !report.added.is_empty() || !report.removed.is_empty() {
        refresh_summary = true;
    }
    report.items_added = new_files.iter().map(|f| f.terms.len() as u64).sum();
    report.items_removed = superseded.iter().map(|f| f.slot.meta.term_count as u64).sum();
    report.lines_updated = new_files.iter().map(|f| f.line_count() as u64).sum();
    report.added.sort();
    report.updated.sort();
    report.removed.sort();
    let compact = *request == Request::Compact;
    let write_generation =
        compact || !new_files.is_empty() || !superseded.is_empty() || project_files != manifest.project_files;
    if write_generation {
        // An update never fails on the model: without it, new segments have no vectors.
        let slots =
            (config.segment_slots.unwrap_or(MAX_SLOTS_PER_SEGMENT), super::vector_model(&config).ok().flatten());
        laps.lap("compare");
        let summary = (project_files, refresh_summary);
        let mode = if compact { CommitMode::Compact } else { CommitMode::Append };
        let done = commit(&dir, &index, &manifest, slots.clone(), new_files, &superseded, mode, summary)?;
        laps.list.extend(done.timings.iter().copied());
        laps.clock = Instant::now();
        report.visible_ms = started.elapsed().as_millis() as u64;
        report.generation = done.manifest.generation;
        report.segments_written = done.segments_written;
        report.compacted = done.compacted;
        report.summary_outdated = refresh_summary;
        drop(index);
        // The change is visible; now merge update segments (or compact) as the
        // policy says, as a second generation, so readers never wait for it.
        if !compact {
            let index = Index::open(&root)?;
            let (first, compacting) = merge_plan(&index, &index.superseded, CommitMode::Merge);
            if compacting || first + 1 < index.segments.len() {
                let m = index.manifest.clone().ok_or_else(|| ProjectError::NotIndexed { path: root.clone() })?;
                let merged = commit(
                    &dir,
                    &index,
                    &m,
                    slots.clone(),
                    Vec::new(),
                    &[],
                    CommitMode::Merge,
                    (m.project_files, false),
                )?;
                laps.list.extend(merged.timings.iter().map(|(name, d)| (merge_phase(name), *d)));
                laps.clock = Instant::now();
                report.generation = merged.manifest.generation;
                report.segments_written += merged.segments_written;
                report.compacted = merged.compacted;
            }
        }
    }
    // Also when no generation was written: a file that is skipped now and was
    // not indexed before changes nothing else.
    if let Some((_, after)) = skipped.filter(|(before, after)| before != after) {
        write_skipped(&dir, &after)?;
    }
    if let (Some(state), Ok(mut current)) = (git, super::read_manifest(&root)) {
        if current.git.as_ref() != Some(&state) {
            current.git = Some(state);
            let bytes = serde_json::to_vec_pretty(&current).unwrap_or_default();
            write_atomic(&dir.join(MANIFEST), &bytes)?;
            sync_dir(&dir);
        }
    }
    // Also when nothing changed: a writer killed after its switch left the
    // previous generation's files behind.
    if let Ok(current) = super::read_manifest(&root) {
        remove_unreferenced(&dir, &current);
    }
    laps.lap("clean up");
    if refresh_docs {
        docs::update(&root, &manifest.name)?;
        report.docs_refreshed = true;
    }
    report.duration_ms = started.elapsed().as_millis() as u64;
    report.timings = laps.list;
    Ok(report)
}

fn is_project_file_path(rel: &str) -> bool {
    extract::is_project_file(rel.rsplit('/').next().unwrap_or(rel))
}

/// Whether a file's size and mtime still equal what the index recorded. A file
/// nobody may read any more (`chmod 000`) counts as changed, so it is read, found
/// unreadable and removed.
fn same_stat(path: &Path, size: u64, mtime_ns: i64) -> bool {
    let Ok(m) = fs::metadata(path) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if m.permissions().mode() & 0o444 == 0 {
            return false;
        }
    }
    let mtime = crate::safe_fs::mtime_ns(&m);
    m.len() == size && mtime == mtime_ns
}

/// The current files at or under `rel` ("" is everything).
fn indexed_under<'a>(index: &'a Index, rel: &str) -> Result<Vec<IndexedFile<'a>>, ProjectError> {
    if let Some(f) = index.locate(rel)? {
        return Ok(vec![f]);
    }
    Ok(index.files_under(rel)?)
}

/// `path` (absolute, or relative to `root`) as a `/`-separated path relative to
/// `root`, `""` for the root itself. `.` and `..` are resolved without touching
/// the disk (the file may be gone), then symlinks of the part that exists; a path
/// that leads outside the project is refused.
pub fn relative_to_root(root: &Path, path: &str) -> Result<String, ProjectError> {
    let outside = || ProjectError::OutsideProject { path: PathBuf::from(path), root: root.to_path_buf() };
    let given = Path::new(path.trim());
    let joined = if given.is_absolute() { given.to_path_buf() } else { root.join(given) };
    let mut normal = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                if !normal.pop() {
                    return Err(outside());
                }
            }
            Component::CurDir => {}
            other => normal.push(other),
        }
    }
    // Resolve symlinks in the longest prefix that exists.
    let mut existing = normal.clone();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    while fs::symlink_metadata(&existing).is_err() {
        match existing.file_name() {
            Some(n) => rest.push(n.to_owned()),
            None => break,
        }
        existing.pop();
    }
    let mut full = fs::canonicalize(&existing).unwrap_or(existing);
    for part in rest.iter().rev() {
        full.push(part);
    }
    if !full.starts_with(root) {
        return Err(outside());
    }
    rel_path(root, &full).ok_or_else(outside)
}

/// What a commit may rewrite besides adding its files.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CommitMode {
    /// Nothing: the new files go into a new update segment (the fast path).
    Append,
    /// The newest update segments, by the merge policy, or everything when a
    /// quarter of all slots are superseded.
    Merge,
    /// Everything.
    Compact,
}

/// Which segments a commit rewrites: from the returned index on, and whether that
/// is a compaction (every segment, into fresh base segments). The newest update
/// segments are merged while each older one is no bigger than twice what the newer
/// ones hold (a binary counter: O(log n) rewrites per file), all of them when
/// there are [`MAX_UPDATE_SEGMENTS`].
fn merge_plan(index: &Index, dead: &[SlotSet], mode: CommitMode) -> (usize, bool) {
    let n = index.segments.len();
    let live = |i: usize| (index.segments[i].slot_count - dead[i].len()) as u64;
    let all_slots: u64 = index.segments.iter().map(|s| s.slot_count as u64).sum();
    let all_dead: u64 = dead.iter().map(|d| d.len() as u64).sum();
    let crowded = all_slots >= 1024 && all_dead * 100 > all_slots * COMPACT_SUPERSEDED_PERCENT;
    match mode {
        CommitMode::Compact => (0, true),
        CommitMode::Merge if crowded => (0, true),
        CommitMode::Append => (n, false),
        CommitMode::Merge => {
            if n <= index.base {
                return (n, false);
            }
            let mut acc = live(n - 1).max(1);
            let mut j = n - 1;
            while j > index.base && live(j - 1) <= 2 * acc {
                acc += live(j - 1);
                j -= 1;
            }
            // Kept update segments plus the merged one stay within the bound.
            if j - index.base >= MAX_UPDATE_SEGMENTS {
                j = index.base;
            }
            (j, false)
        }
    }
}

struct Commit {
    manifest: Manifest,
    segments_written: u32,
    compacted: bool,
    timings: Vec<(&'static str, Duration)>,
}

/// Writes the new generation: `new_files` in new segments, `superseded` marked,
/// update segments merged or everything compacted as the policy says; then
/// switches the manifest.
#[allow(clippy::too_many_arguments)]
fn commit(
    dir: &Path,
    index: &Index,
    prev: &Manifest,
    (max_slots, model): (u32, Option<std::sync::Arc<crate::embed::StaticModel>>),
    mut new_files: Vec<FileFacts>,
    superseded: &[IndexedFile<'_>],
    mode: CommitMode,
    (project_files, summary_changed): (u64, bool),
) -> Result<Commit, ProjectError> {
    let totals = Manifest {
        files: new_files.len() as u64,
        lines: new_files.iter().map(|f| f.line_count() as u64).sum(),
        occurrences: new_files.iter().flat_map(|f| f.terms.iter().map(|t| t.lines.len() as u64)).sum(),
        types: new_files.iter().map(|f| f.types.len().min(u16::MAX as usize) as u64).sum(),
        methods: new_files.iter().map(|f| f.methods.len().min(u16::MAX as usize) as u64).sum(),
        source_bytes: new_files.iter().map(|f| f.size).sum(),
        graph: new_files.iter().fold(GraphCounts::default(), |c, f| c.plus(GraphCounts::of_facts(f))),
        ..prev.clone()
    };
    let mut gone = GraphCounts::default();
    for f in superseded {
        gone = gone.plus(GraphCounts::of_structure(&f.seg.structure(&f.slot)?));
    }
    let n = index.segments.len();
    let mut dead: Vec<SlotSet> = index.superseded.clone();
    for f in superseded {
        for s in f.slot_ids() {
            dead[f.segment].insert(s);
        }
    }
    let live = |i: usize| index.segments[i].slot_count - dead[i].len();
    let (first_merged, compact) = merge_plan(index, &dead, mode);
    let mut laps = Laps::new();
    // Update segments being merged are copied out whole (they are small); base
    // segments (only in a compaction) one at a time, in path order, each with the
    // other files that sort before the next base segment, so memory stays near one
    // segment's worth whatever the index's size. Either way files reach the writer
    // in path order, as in a fresh build.
    let held_from = first_merged.max(index.base);
    let held: Vec<SegmentCopy<'_>> =
        (held_from..n).map(|i| index.segments[i].copy_files(|s| !dead[i].contains(s))).collect::<Result<_, _>>()?;
    #[derive(Clone, Copy)]
    enum Entry {
        New(usize),
        Held(usize, usize),
        Base(usize),
    }
    new_files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut pending: Vec<(&str, Entry)> =
        new_files.iter().enumerate().map(|(i, f)| (f.path.as_str(), Entry::New(i))).collect();
    for (c, copy) in held.iter().enumerate() {
        pending.extend(copy.files.iter().enumerate().map(|(i, f)| (f.path, Entry::Held(c, i))));
    }
    pending.sort_by(|a, b| a.0.cmp(b.0));
    laps.lap("copy merged segments");
    let generation = prev.generation + 1;
    let mut written: Vec<String> = Vec::new();
    // Update segments favour latency; a compaction writes what a fresh build would.
    let new_writer = || {
        let w = SegmentWriter::new(max_slots).with_vectors(model.clone());
        if compact {
            w
        } else {
            w.fast()
        }
    };
    let mut writer = new_writer();
    let mut emit = |writer: &mut SegmentWriter,
                    written: &mut Vec<String>,
                    lines: u32,
                    add: &mut dyn FnMut(&mut SegmentWriter)|
     -> Result<(), ProjectError> {
        if !writer.fits(lines) {
            let full = std::mem::replace(writer, new_writer());
            let name = format!("seg-{generation:06}-{:04}.cgs", written.len());
            write_atomic(&dir.join(&name), &full.finish())?;
            written.push(name);
        }
        add(writer);
        Ok(())
    };
    let mut next = 0usize;
    let streamed: Vec<usize> = (first_merged..index.base.min(n)).collect();
    for (k, &b) in streamed.iter().enumerate() {
        let base_copy = index.segments[b].copy_files(|s| !dead[b].contains(s))?;
        // Pending files before the next base segment's first path go with this one.
        let bound = match streamed.get(k + 1) {
            Some(&nb) if index.segments[nb].slot_count > 0 => {
                let seg = &index.segments[nb];
                Some(seg.slot_path(&seg.slot(0)?)?.to_string())
            }
            _ => None,
        };
        let mut chunk: Vec<(&str, Entry)> =
            base_copy.files.iter().enumerate().map(|(i, f)| (f.path, Entry::Base(i))).collect();
        while next < pending.len() && bound.as_deref().is_none_or(|bd| pending[next].0 < bd) {
            chunk.push(pending[next]);
            next += 1;
        }
        chunk.sort_by(|a, b| a.0.cmp(b.0));
        for (_, entry) in chunk {
            add_one(&mut emit, &mut writer, &mut written, entry, &new_files, &held, &base_copy)?;
        }
    }
    let empty = SegmentCopy { terms: Vec::new(), files: Vec::new() };
    for &(_, entry) in &pending[next..] {
        add_one(&mut emit, &mut writer, &mut written, entry, &new_files, &held, &empty)?;
    }
    if !writer.is_empty() || (compact && written.is_empty()) {
        let name = format!("seg-{generation:06}-{:04}.cgs", written.len());
        write_atomic(&dir.join(&name), &writer.finish())?;
        written.push(name);
    }
    drop(held);

    /// Adds one file from wherever it comes.
    fn add_one(
        emit: &mut impl FnMut(
            &mut SegmentWriter,
            &mut Vec<String>,
            u32,
            &mut dyn FnMut(&mut SegmentWriter),
        ) -> Result<(), ProjectError>,
        writer: &mut SegmentWriter,
        written: &mut Vec<String>,
        entry: Entry,
        new_files: &[FileFacts],
        held: &[SegmentCopy<'_>],
        base: &SegmentCopy<'_>,
    ) -> Result<(), ProjectError> {
        match entry {
            Entry::New(i) => {
                let f = &new_files[i];
                emit(writer, written, f.line_count(), &mut |w| w.add(f))
            }
            Entry::Held(c, i) => {
                let (copy, f) = (&held[c], &held[c].files[i]);
                f.with_entry(|e| emit(writer, written, f.line_count, &mut |w| w.add_entry(e, f.terms(copy))))?
            }
            Entry::Base(i) => {
                let f = &base.files[i];
                f.with_entry(|e| emit(writer, written, f.line_count, &mut |w| w.add_entry(e, f.terms(base))))?
            }
        }
    }
    laps.lap("write segments");

    // The new segment list: kept segments that still hold a current file, then
    // what was written.
    let mut segments = Vec::new();
    let mut base = 0;
    let mut kept_superseded = std::collections::BTreeMap::new();
    for (i, dead_slots) in dead.iter().enumerate().take(first_merged) {
        if live(i) == 0 {
            continue;
        }
        let name = prev.segments[i].clone();
        if !dead_slots.is_empty() {
            kept_superseded.insert(name.clone(), dead_slots.iter().collect());
        }
        segments.push(name);
        if i < index.base {
            base += 1;
        }
    }
    if compact {
        base = written.len();
    }
    let segments_written = written.len() as u32;
    segments.extend(written);
    let mut manifest = Manifest {
        format_version: FORMAT_VERSION,
        generation,
        name: prev.name.clone(),
        segments,
        base_segments: base,
        superseded: kept_superseded,
        project_files,
        summary_changed_at: if summary_changed { generation } else { prev.summary_changed_at },
        created_unix_ms: SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64),
        // The previous totals, less the versions superseded, plus those written.
        files: (prev.files + totals.files).saturating_sub(superseded.len() as u64),
        lines: (prev.lines + totals.lines).saturating_sub(superseded.iter().map(|f| f.slot.line_count as u64).sum()),
        terms: prev.terms,
        occurrences: (prev.occurrences + totals.occurrences)
            .saturating_sub(superseded.iter().map(|f| f.slot.occurrences as u64).sum()),
        types: (prev.types + totals.types)
            .saturating_sub(superseded.iter().map(|f| f.slot.meta.type_count as u64).sum()),
        methods: (prev.methods + totals.methods)
            .saturating_sub(superseded.iter().map(|f| f.slot.meta.method_count as u64).sum()),
        source_bytes: (prev.source_bytes + totals.source_bytes)
            .saturating_sub(superseded.iter().map(|f| f.slot.meta.size).sum()),
        excluded_dirs: prev.excluded_dirs.clone(),
        unsupported_files: prev.unsupported_files.clone(),
        graph: prev.graph.plus(totals.graph).minus(gone),
        git: prev.git.clone(),
    };
    if compact {
        // Distinct terms: a union of the new segments' dictionaries.
        let root = dir.parent().unwrap_or(dir);
        manifest.terms = Index::open_segments(root, &manifest.segments)?.stats()?.terms;
    }
    let bytes = serde_json::to_vec_pretty(&manifest).unwrap_or_default();
    write_atomic(&dir.join(MANIFEST), &bytes)?;
    sync_dir(dir);
    laps.lap("switch manifest");
    Ok(Commit { manifest, segments_written, compacted: compact, timings: laps.list })
}

/// The name of a commit phase when it is the merge after the switch.
fn merge_phase(name: &'static str) -> &'static str {
    match name {
        "copy merged segments" => "merge: copy",
        "write segments" => "merge: write",
        "switch manifest" => "merge: switch",
        other => other,
    }
}

/// Phase timings.
struct Laps {
    clock: Instant,
    list: Vec<(&'static str, Duration)>,
}

impl Laps {
    fn new() -> Laps {
        Laps { clock: Instant::now(), list: Vec::new() }
    }

    fn lap(&mut self, name: &'static str) {
        self.list.push((name, self.clock.elapsed()));
        self.clock = Instant::now();
    }
}

//! A build in shards: `cg init --shard K/N --out DIR` builds the K-th of N
//! path ranges of a tree into a folder (its segments and a descriptor), on any
//! machine that has the tree; `cg publish DIR..` makes N such shards one
//! generation of the project's index, atomically, after checking that they are
//! all there, of one tree, of this format, and whole.
//!
//! Nothing global is merged: segments are self-contained and the graph binds
//! at question time, so the shards' segments, published in shard order, cover
//! the sorted path list as one build's segments do, and answer as they do.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{
    commit_generation, git, init_config, io_err, lock_for_writing, project_root, read_manifest, vector_model,
    write_atomic, Config, Contents, GitState, InitOptions, Manifest, ProjectError, DIR,
};
use crate::index::{self as build_index, BuildOptions, Progress, Shard};
use crate::snapshot::FORMAT_VERSION;

/// The largest shard descriptor read.
const MAX_DESCRIPTOR_BYTES: u64 = 64 << 20;

/// What a shard's folder says of it: `shard-KKKK-of-NNNN.json`, written after
/// its segments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShardDescriptor {
    pub format_version: u32,
    pub shard: u32,
    pub shards: u32,
    /// The whole walk's fingerprint (paths and sizes): every shard of one tree has the same.
    pub walk: String,
    /// The configuration it was built with (walk options, model).
    pub config: Config,
    pub git: Option<GitState>,
    pub segments: Vec<ShardSegment>,
    /// Its counts and skipped files; what the walk found besides files
    /// (project files, excluded folders) in shard 0 only.
    #[serde(flatten)]
    pub contents: Contents,
}

/// One segment file of a shard, with what checks it is whole.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShardSegment {
    pub file: String,
    pub bytes: u64,
    /// xxh3-64 of its bytes, in hex.
    pub xxh3: String,
}

/// What `build_shard` did.
#[derive(Debug)]
pub struct ShardReport {
    pub descriptor: ShardDescriptor,
    pub path: PathBuf,
    pub duration_ms: u64,
}

/// What `publish` did.
#[derive(Debug)]
pub struct PublishReport {
    pub manifest: Manifest,
    pub shards: u32,
    pub duration_ms: u64,
}

fn descriptor_name(shard: Shard) -> String {
    format!("shard-{:04}-of-{:04}.json", shard.k, shard.n)
}

fn hex(h: u64) -> String {
    format!("{h:016x}")
}

/// Builds shard `shard` of the tree at `root` into `out` (made if missing):
/// `shard-K-of-N-IIII.cgs` segments, then the descriptor. The project's
/// `.codegraph/` is read (its config) and never written.
pub fn build_shard(
    root: &Path,
    options: &InitOptions,
    shard: Shard,
    out: &Path,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<ShardReport, ProjectError> {
    let started = Instant::now();
    let root = project_root(root)?;
    fs::create_dir_all(out).map_err(io_err(out))?;
    let out = fs::canonicalize(out).map_err(io_err(out))?;
    if out.starts_with(root.join(DIR)) {
        return Err(ProjectError::Shards(format!(
            "{}: a shard's folder must be outside .codegraph/ (cg publish copies it there)",
            out.display()
        )));
    }
    let config = init_config(&root, options)?;
    let model = vector_model(&config)?;
    let git = git::state(&root).map(|g| GitState { options: config.walk_fingerprint(), ..g });
    let build = BuildOptions {
        walk: config.walk_options()?,
        max_slots_per_segment: config.segment_slots.unwrap_or(crate::snapshot::MAX_SLOTS_PER_SEGMENT),
        model,
        shard: Some(shard),
        ..BuildOptions::default()
    };
    let mut segments = Vec::new();
    let mut sink = |i: u32, bytes: Vec<u8>| -> std::io::Result<()> {
        let file = format!("shard-{:04}-of-{:04}-{i:04}.cgs", shard.k, shard.n);
        write_atomic(&out.join(&file), &bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
        let xxh3 = hex(xxhash_rust::xxh3::xxh3_64(&bytes));
        segments.push(ShardSegment { file, bytes: bytes.len() as u64, xxh3 });
        Ok(())
    };
    let summary = build_index::build(&root, &build, &mut sink, progress)?;
    let descriptor = ShardDescriptor {
        format_version: FORMAT_VERSION,
        shard: shard.k,
        shards: shard.n,
        walk: hex(summary.walk_fingerprint),
        config,
        git,
        segments,
        contents: Contents::of(&summary),
    };
    let path = out.join(descriptor_name(shard));
    write_atomic(&path, &serde_json::to_vec_pretty(&descriptor).unwrap_or_default())?;
    Ok(ShardReport { descriptor, path, duration_ms: started.elapsed().as_millis() as u64 })
}

/// The shard descriptors in `dirs`, with the folder each is in.
fn read_descriptors(dirs: &[PathBuf]) -> Result<Vec<(PathBuf, ShardDescriptor)>, ProjectError> {
    let mut found = Vec::new();
    for dir in dirs {
        let entries = fs::read_dir(dir).map_err(io_err(dir))?;
        let mut names: Vec<String> = entries
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.starts_with("shard-") && n.ends_with(".json"))
            .collect();
        names.sort();
        for name in names {
            let path = dir.join(&name);
            let bytes = crate::safe_fs::read_regular(&path, MAX_DESCRIPTOR_BYTES).map_err(io_err(&path))?;
            let d: ShardDescriptor = serde_json::from_slice(&bytes).map_err(|e| {
                ProjectError::Shards(format!("{}: not a shard descriptor ({e}); build the shard again", path.display()))
            })?;
            if name != descriptor_name(Shard { k: d.shard, n: d.shards }) {
                return Err(ProjectError::Shards(format!(
                    "{}: describes shard {}/{}, not what its name says",
                    path.display(),
                    d.shard,
                    d.shards
                )));
            }
            found.push((dir.clone(), d));
        }
    }
    Ok(found)
}

/// Checks that `found` is one whole set of shards of one tree, built by this
/// format with one configuration, and orders it by shard.
fn check_set(mut found: Vec<(PathBuf, ShardDescriptor)>) -> Result<Vec<(PathBuf, ShardDescriptor)>, ProjectError> {
    let invalid = ProjectError::Shards;
    let Some((_, first)) = found.first() else {
        return Err(invalid(
            "no shard descriptors (shard-K-of-N.json) in the folders given: run `cg init --shard K/N --out DIR` first"
                .into(),
        ));
    };
    // A descriptor is read from anywhere: its split is checked as `--shard` is.
    if let Some((dir, d)) = found.iter().find(|(_, d)| Shard::parse(&format!("{}/{}", d.shard, d.shards)).is_none()) {
        return Err(invalid(format!(
            "{}: shard {}/{} is no shard of a split (0 <= K < N <= 4096): build it again",
            dir.display(),
            d.shard,
            d.shards
        )));
    }
    let n = first.shards;
    if let Some((dir, d)) = found.iter().find(|(_, d)| d.shards != n) {
        return Err(invalid(format!(
            "{}: shard {}/{} of another split than {}/{n}: publish the shards of one split",
            dir.display(),
            d.shard,
            d.shards,
            first.shard
        )));
    }
    found.sort_by_key(|(_, d)| d.shard);
    for w in found.windows(2) {
        if w[0].1.shard == w[1].1.shard {
            return Err(invalid(format!(
                "shard {}/{n} is in both {} and {}: keep one",
                w[0].1.shard,
                w[0].0.display(),
                w[1].0.display()
            )));
        }
    }
    let present: std::collections::BTreeSet<u32> = found.iter().map(|(_, d)| d.shard).collect();
    let missing: Vec<String> = (0..n).filter(|k| !present.contains(k)).map(|k| format!("{k}/{n}")).collect();
    if !missing.is_empty() {
        let more = match missing.len() > 10 {
            true => format!(" and {} more", missing.len() - 10),
            false => String::new(),
        };
        return Err(invalid(format!(
            "missing shards {}{more}: build them (`cg init --shard K/N --out DIR`)",
            missing[..missing.len().min(10)].join(", ")
        )));
    }
    let first = &found[0].1;
    let config = serde_json::to_string(&first.config).unwrap_or_default();
    for (dir, d) in &found {
        if d.format_version != FORMAT_VERSION {
            return Err(invalid(format!(
                "{}: shard {}/{n} has format {}, this cg writes {FORMAT_VERSION}: build it again with this cg",
                dir.display(),
                d.shard,
                d.format_version
            )));
        }
        if d.walk != first.walk {
            return Err(invalid(format!(
                "shards 0/{n} and {}/{n} were built from different trees (their walks found other files or sizes): build every shard from the same tree",
                d.shard
            )));
        }
        if serde_json::to_string(&d.config).unwrap_or_default() != config {
            return Err(invalid(format!(
                "shards 0/{n} and {}/{n} were built with different configurations (languages, excludes, model): build them alike",
                d.shard
            )));
        }
    }
    Ok(found)
}

/// Publishes the shards found in `dirs` as a new generation of the project at
/// `root`: checks them ([`check_set`], each segment's length and hash, and
/// that the tree at `root` walks as theirs did), copies their segments into
/// `.codegraph/` in shard order, and switches the manifest. On any error the
/// previous generation stays as it was.
pub fn publish(root: &Path, dirs: &[PathBuf], options: &InitOptions) -> Result<PublishReport, ProjectError> {
    let started = Instant::now();
    let root = project_root(root)?;
    let shards = check_set(read_descriptors(dirs)?)?;
    let n = shards.len() as u32;
    let first = shards[0].1.clone();
    // The tree here must be the one the shards were built from: the summary
    // and the docs are read from it, and `cg update` compares with it.
    let walk = crate::extract::walk(&root, &first.config.walk_options()?).map_err(crate::index::BuildError::from)?;
    if hex(build_index::walk_fingerprint(&walk.files)) != first.walk {
        return Err(ProjectError::Shards(format!(
            "{}: this tree's files differ from those the shards were built from (paths or sizes): publish where the shards' tree is, or build them again",
            root.display()
        )));
    }
    let dir = root.join(DIR);
    let _lock = lock_for_writing(&dir, options.lock_wait)?;
    let generation = read_manifest(&root).ok().map_or(1, |m| m.generation + 1);
    let mut contents = Contents::default();
    let git = first.git.clone().filter(|g| shards.iter().all(|(_, d)| d.git.as_ref() == Some(g)));
    // Before the switch nothing names the copied segments: on an error they go.
    let mut segments: Vec<String> = Vec::new();
    let remove_copies = |segments: &[String]| {
        if read_manifest(&root).map_or(true, |m| m.generation != generation) {
            for s in segments {
                let _ = fs::remove_file(dir.join(s));
            }
        }
    };
    for (folder, d) in &shards {
        for s in &d.segments {
            if let Err(e) = copy_segment(folder, d, s, &dir, generation, &mut segments) {
                remove_copies(&segments);
                return Err(e);
            }
        }
        contents.add_counts(&d.contents);
    }
    // What the walk found besides files is this walk's (equal to shard 0's, the
    // fingerprints being equal): the paths the summary and docs read come from
    // this tree, never from a descriptor.
    contents.project_files = walk.project_files;
    contents.excluded_dirs = walk.excluded_dirs;
    contents.unsupported = walk.unsupported;
    let committed =
        commit_generation(&root, &first.config, generation, options.name.clone(), git, segments.clone(), contents);
    let manifest = committed.inspect_err(|_| remove_copies(&segments))?;
    Ok(PublishReport { manifest, shards: n, duration_ms: started.elapsed().as_millis() as u64 })
}

/// Checks shard `d`'s segment `s` in `folder` (a plain name, its length and
/// hash as described) and copies it into `dir` as the generation's next
/// segment, named in `segments`.
fn copy_segment(
    folder: &Path,
    d: &ShardDescriptor,
    s: &ShardSegment,
    dir: &Path,
    generation: u64,
    segments: &mut Vec<String>,
) -> Result<(), ProjectError> {
    if s.file.contains(['/', '\\']) || s.file.starts_with('.') {
        return Err(ProjectError::Shards(format!("{}: a segment's name must be a plain file name", s.file)));
    }
    let path = folder.join(&s.file);
    let bytes = crate::safe_fs::read_regular(&path, s.bytes).unwrap_or_default();
    if bytes.len() as u64 != s.bytes || hex(xxhash_rust::xxh3::xxh3_64(&bytes)) != s.xxh3 {
        return Err(ProjectError::Shards(format!(
            "{}: shard {}/{}'s segment is missing, damaged or incomplete ({} bytes read, {} described, or another hash): copy it again or build the shard again",
            path.display(),
            d.shard,
            d.shards,
            bytes.len(),
            s.bytes
        )));
    }
    let name = format!("seg-{generation:06}-{:04}.cgs", segments.len());
    write_atomic(&dir.join(&name), &bytes)?;
    segments.push(name);
    Ok(())
}

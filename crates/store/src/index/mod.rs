//! The index build: a walked tree in, segment bytes out.
//!
//! Files are extracted in batches on the rayon pool while the previous batch is
//! added to the current [`SegmentWriter`], in path order. A segment closes when
//! the next file's slots would not fit (65,536 slots, or the configured size), so
//! segments cover consecutive ranges of the sorted path list. The bytes of each
//! segment go to a sink as soon as it closes; nothing here touches `.codegraph/`.
//! Same tree, same bytes, whatever the thread count.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use std::collections::BTreeMap;

use crate::extract::{self, Diagnostic, FileTiming, Skip, WalkOptions};
use crate::lang::Language;
use crate::snapshot::{FrameDict, Prepared, SegmentWriter, MAX_SLOTS_PER_SEGMENT};

/// Files this large are extracted during the round before their own, first, so
/// that no round ends waiting on one long parse (kubernetes' last files are
/// generated API clients of 1-2 MiB: seconds of one thread each).
const EARLY_FILE_BYTES: u64 = 256 << 10;
/// The last rounds halve down to about this many files: nothing overlaps the
/// adding of the last round.
const LAST_ROUND_FILES: usize = 64;

/// A file's outcome as extracted for the build: its facts with their slot parts
/// made, or why it is skipped.
type Extracted = (Result<(Prepared, crate::extract::FileFacts), Skip>, FileTiming);

/// The build's rounds over `n` files: `batch` files each, the first ones
/// growing from [`LAST_ROUND_FILES`] by doubling and the last ones halving (a
/// round is extracted while the one before is added; the last one is added
/// alone). Small first rounds let a segment's structure dictionary be trained
/// early, so that the threads extracting the later rounds compress their files'
/// archives with it ([`Prepared::of`]) and the thread adding them does not.
fn rounds(n: usize, batch: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut ramp = LAST_ROUND_FILES;
    while at < n {
        let left = n - at;
        let size = match left {
            _ if left > 2 * batch => batch.min(ramp),
            _ if left > LAST_ROUND_FILES => left / 2,
            _ => left,
        };
        ramp = ramp.saturating_mul(2);
        out.push(at..at + size);
        at += size;
    }
    out
}

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub walk: WalkOptions,
    /// Slots per segment (at most 65,536). Small values let tests cross segment
    /// boundaries with a handful of files.
    pub max_slots_per_segment: u32,
    /// Files extracted per batch.
    pub batch_files: usize,
    /// Embeds every type and function into the segments' vectors.
    pub model: Option<std::sync::Arc<crate::embed::StaticModel>>,
    /// Extracts references, calls and imports (default). Off only to measure
    /// what they cost (`cg bench --graph-cost`): such an index answers no
    /// graph questions.
    pub graph_facts: bool,
    /// Builds only this shard's files (see [`Shard`]).
    pub shard: Option<Shard>,
}

/// The `k`-th of `n` parts of a tree (`cg init --shard K/N`): the walk's
/// files in path order, cut into `n` consecutive ranges of about equal bytes.
/// Every shard walks the whole tree, so the ranges are the same in each
/// process; shard 0 also carries what the walk found besides files (skipped
/// files, project files, excluded folders). Published in order, the shards'
/// segments cover the sorted path list as one build's do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u32,
    pub n: u32,
}

impl Shard {
    /// `K/N` with `K < N`, `1 <= N <= 4096`.
    pub fn parse(text: &str) -> Option<Shard> {
        let (k, n) = text.split_once('/')?;
        let shard = Shard { k: k.trim().parse().ok()?, n: n.trim().parse().ok()? };
        (shard.n >= 1 && shard.n <= 4096 && shard.k < shard.n).then_some(shard)
    }

    /// The positions of this shard's files among `sizes` (the walk's files'
    /// sizes in path order): file `i` is shard `k`'s when the bytes before it
    /// are in `[k, k + 1) * total / n`. Consecutive, and every file in exactly one
    /// shard.
    pub fn range(self, sizes: &[u64]) -> std::ops::Range<usize> {
        let total: u128 = sizes.iter().map(|&s| s as u128 + 1).sum();
        let (k, n) = (self.k as u128, self.n as u128);
        let mut start = sizes.len();
        let mut end = sizes.len();
        let mut before: u128 = 0;
        for (i, &s) in sizes.iter().enumerate() {
            // (Each file weighs one byte more than its size: empty files spread too.)
            let shard = before * n / total.max(1);
            if shard >= k && start == sizes.len() {
                start = i;
            }
            if shard > k {
                end = i;
                break;
            }
            before += s as u128 + 1;
        }
        start.min(end)..end
    }
}

/// A fingerprint of a walk's files (paths and sizes, in order): shards of one
/// tree have the same.
pub fn walk_fingerprint(files: &[extract::SourceFile]) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for f in files {
        h.update(f.rel.as_bytes());
        h.update(&[0]);
        h.update(&f.size.to_le_bytes());
    }
    h.digest()
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            walk: WalkOptions::default(),
            max_slots_per_segment: MAX_SLOTS_PER_SEGMENT,
            batch_files: 2048,
            model: None,
            graph_facts: true,
            shard: None,
        }
    }
}

/// What a build did.
#[derive(Debug, Default)]
pub struct BuildSummary {
    pub files: u64,
    pub bytes: u64,
    pub lines: u64,
    pub types: u64,
    pub methods: u64,
    /// Definitions and references by role.
    pub graph: crate::project::GraphCounts,
    pub segments: u32,
    pub skipped: Vec<Skip>,
    pub diagnostics: Vec<(String, Diagnostic)>,
    /// The walk's [`extract::Walk::project_files`].
    pub project_files: Vec<String>,
    /// The walk's [`extract::Walk::excluded_dirs`].
    pub excluded_dirs: Vec<extract::ExcludedDir>,
    /// The walk's [`extract::Walk::unsupported`].
    pub unsupported: std::collections::BTreeMap<String, u64>,
    pub walk_time: Duration,
    pub total_time: Duration,
    /// Where the time went. Reading and extraction are summed over threads (CPU
    /// time); adding, settling, finishing and writing segments are wall times
    /// (adding and writing on one thread, settling and finishing on the pool).
    pub timings: BuildTimings,
    /// Files, bytes and extraction time (summed over threads) per language.
    pub languages: BTreeMap<Language, LanguageStats>,
    /// A shard's build: [`walk_fingerprint`] of the whole walk (all shards');
    /// else 0.
    pub walk_fingerprint: u64,
}

#[derive(Debug, Default, Clone, Copy)]
pub struct BuildTimings {
    pub read: Duration,
    pub extract: Duration,
    /// Each file's archive and line types made ready for the writer, on the
    /// thread that extracted it ([`Prepared::of`]).
    pub prepare: Duration,
    /// Taking each file's slots (on one thread).
    pub add: Duration,
    /// Adding each round's terms, definitions and vectors
    /// ([`SegmentWriter::settle`]): a task per term map on the pool, and one
    /// each for the definitions and the vectors.
    pub settle: Duration,
    pub finish: Duration,
    /// Of `finish`, the parts spread over the pool's threads
    /// ([`SegmentWriter::finish_timed`]).
    pub finish_pool: Duration,
    pub write: Duration,
    /// Rounds (each extracts its files while the round before is added).
    pub rounds: u32,
    /// Over the rounds, how much longer extracting took than adding, where
    /// it did (the adding side's thread then helps extract)...
    pub extract_longer: Duration,
    /// ...and how much longer adding took than extracting, where it did
    /// (the threads done extracting can only take the settle's tasks).
    pub add_longer: Duration,
}

#[derive(Debug, Default, Clone, Copy)]
pub struct LanguageStats {
    pub files: u64,
    pub bytes: u64,
    pub extract: Duration,
}

/// Progress of a build, for a progress bar.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub files_done: usize,
    pub files_total: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{0}")]
    Glob(#[from] extract::GlobError),
    #[error("{path}: not a directory")]
    NotADirectory { path: std::path::PathBuf },
    #[error("writing segment {segment}: {source}")]
    Write { segment: u32, source: std::io::Error },
}

/// Walks and extracts `root` on the current rayon pool, handing each finished
/// segment (its index and bytes) to `sink`.
pub fn build(
    root: &Path,
    options: &BuildOptions,
    sink: &mut (dyn FnMut(u32, Vec<u8>) -> std::io::Result<()> + Send),
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<BuildSummary, BuildError> {
    let started = Instant::now();
    if !root.is_dir() {
        return Err(BuildError::NotADirectory { path: root.to_path_buf() });
    }
    let walk = extract::walk(root, &options.walk)?;
    let mut summary = BuildSummary {
        walk_time: started.elapsed(),
        walk_fingerprint: options.shard.map_or(0, |_| walk_fingerprint(&walk.files)),
        ..Default::default()
    };
    if options.shard.is_none_or(|s| s.k == 0) {
        summary.skipped = walk.skipped;
        summary.project_files = walk.project_files;
        summary.excluded_dirs = walk.excluded_dirs;
        summary.unsupported = walk.unsupported;
    }
    let mut files = walk.files;
    if let Some(shard) = options.shard {
        let sizes: Vec<u64> = files.iter().map(|f| f.size).collect();
        let range = shard.range(&sizes);
        files.truncate(range.end);
        files.drain(..range.start);
    }
    let max_bytes = options.walk.max_file_bytes;
    let new_writer = || SegmentWriter::new(options.max_slots_per_segment).with_vectors(options.model.clone());
    let mut writer = new_writer();
    let mut segment = 0u32;
    let mut write_error: Option<BuildError> = None;
    let rounds = rounds(files.len(), options.batch_files.max(1));
    // A round's large files, extracted during the round before.
    let early = |r: usize| -> Vec<usize> {
        rounds.get(r).map_or(Vec::new(), |range| range.clone().filter(|&i| files[i].size >= EARLY_FILE_BYTES).collect())
    };
    // Structure frames are compressed by the extracting threads with the current
    // segment's dictionary, once it is trained (the writer takes them when the
    // file lands in that segment, and compresses the others itself).
    let extract = |which: &[usize], dict: Option<Arc<FrameDict>>| {
        extract::extract_at(&files, which, max_bytes, options.graph_facts, |outcome, mut timing| {
            let t = Instant::now();
            let outcome = outcome.map(|facts| (Prepared::of(&facts, dict.as_deref()), facts));
            timing.prepare = t.elapsed();
            (outcome, timing)
        })
    };
    // Outcomes of the next round's large files, by position.
    let mut ahead: Vec<(usize, Extracted)> = Vec::new();
    // The round being added, in path order.
    let mut pending: Vec<Extracted> = Vec::new();
    for r in 0..=rounds.len() {
        // Extract round r (its large files were started in round r - 1, or now for
        // the first round) and the large files of round r + 1, the large ones first,
        // while round r - 1 is added to the writer.
        let to_add = std::mem::take(&mut pending);
        let dict = writer.frame_dict();
        let round_start = Instant::now();
        let ((extracted, extract_wall), add_wall) = rayon::join(
            || {
                let Some(range) = rounds.get(r) else { return (Vec::new(), Duration::ZERO) };
                let mut which = if r == 0 { early(0) } else { Vec::new() };
                which.extend(early(r + 1));
                which.extend(range.clone().filter(|&i| files[i].size < EARLY_FILE_BYTES));
                let out = which.iter().copied().zip(extract(&which, dict)).collect::<Vec<(usize, Extracted)>>();
                (out, round_start.elapsed())
            },
            || {
                for (outcome, timing) in to_add {
                    summary.timings.read += timing.read;
                    summary.timings.extract += timing.extract;
                    summary.timings.prepare += timing.prepare;
                    match outcome {
                        Ok((prepared, facts)) => {
                            let lang = summary.languages.entry(facts.language).or_default();
                            lang.files += 1;
                            lang.bytes += facts.size;
                            lang.extract += timing.extract;
                            if !writer.fits(facts.line_count()) {
                                let full = std::mem::replace(&mut writer, new_writer());
                                let t = Instant::now();
                                let (bytes, pool) = full.finish_timed();
                                summary.timings.finish += t.elapsed();
                                summary.timings.finish_pool += pool;
                                let t = Instant::now();
                                if let Err(source) = sink(segment, bytes) {
                                    write_error.get_or_insert(BuildError::Write { segment, source });
                                }
                                summary.timings.write += t.elapsed();
                                segment += 1;
                            }
                            let t = Instant::now();
                            summary.files += 1;
                            summary.bytes += facts.size;
                            summary.lines += facts.line_count() as u64;
                            summary.types += facts.types.len() as u64;
                            summary.methods += facts.methods.len() as u64;
                            summary.graph = summary.graph.plus(crate::project::GraphCounts::of_facts(&facts));
                            for d in &facts.diagnostics {
                                summary.diagnostics.push((facts.path.clone(), d.clone()));
                            }
                            writer.add_prepared(facts, prepared);
                            summary.timings.add += t.elapsed();
                        }
                        Err(skip) => summary.skipped.push(skip),
                    }
                }
                // The round's terms, definitions and vectors, as tasks on the pool.
                let t = Instant::now();
                writer.settle();
                summary.timings.settle += t.elapsed();
                round_start.elapsed()
            },
        );
        summary.timings.rounds += 1;
        summary.timings.extract_longer += extract_wall.saturating_sub(add_wall);
        summary.timings.add_longer += add_wall.saturating_sub(extract_wall);
        if let Some(e) = write_error.take() {
            return Err(e);
        }
        let Some(range) = rounds.get(r) else { break };
        // Round r in path order: what was extracted now, and its large files
        // extracted the round before.
        let (later, now): (Vec<_>, Vec<_>) = extracted.into_iter().partition(|(i, _)| *i >= range.end);
        let mut mine = std::mem::replace(&mut ahead, later);
        mine.extend(now);
        mine.sort_unstable_by_key(|(i, _)| *i);
        debug_assert!(mine.iter().map(|(i, _)| *i).eq(range.clone()));
        pending = mine.into_iter().map(|(_, e)| e).collect();
        progress(Progress { files_done: range.end, files_total: files.len() });
    }
    if !writer.is_empty() || segment == 0 {
        let t = Instant::now();
        let (bytes, pool) = writer.finish_timed();
        summary.timings.finish += t.elapsed();
        summary.timings.finish_pool += pool;
        let t = Instant::now();
        sink(segment, bytes).map_err(|source| BuildError::Write { segment, source })?;
        summary.timings.write += t.elapsed();
        segment += 1;
    }
    summary.segments = segment;
    summary.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    summary.total_time = started.elapsed();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file whose extraction panics is left out of the build with the reason;
    /// the files beside it are indexed.
    #[test]
    fn a_panic_in_extraction_skips_the_file_in_the_build() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.rs"), "fn before() {}\n").unwrap();
        std::fs::write(dir.path().join("b.rs"), "// cg test: extraction panics\nfn bad() {}\n").unwrap();
        std::fs::write(dir.path().join("c.rs"), "fn after() {}\n").unwrap();
        let mut segments = 0;
        let mut sink = |_, _| {
            segments += 1;
            Ok(())
        };
        let built = build(dir.path(), &BuildOptions::default(), &mut sink, &|_| {}).unwrap();
        assert_eq!((built.files, segments), (2, 1));
        assert_eq!(built.skipped.iter().map(|s| s.reason.label()).collect::<Vec<_>>(), ["extraction failed"]);
    }

    #[test]
    fn shards_cover_every_file_once_in_order_and_balance_bytes() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            seed >> 33
        };
        for len in [0usize, 1, 2, 3, 10, 100, 1000] {
            let sizes: Vec<u64> = (0..len).map(|i| if i % 17 == 3 { 1 << 20 } else { next() % 5000 }).collect();
            for n in [1u32, 2, 3, 4, 7, 64] {
                let ranges: Vec<_> = (0..n).map(|k| Shard { k, n }.range(&sizes)).collect();
                let mut at = 0;
                for r in &ranges {
                    assert_eq!(r.start, at, "{len} files, {n} shards: {ranges:?}");
                    at = r.end;
                }
                assert_eq!(at, len, "{len} files, {n} shards: {ranges:?}");
                // No shard holds much more than its share plus one file.
                let total: u64 = sizes.iter().map(|s| s + 1).sum();
                for r in &ranges {
                    let bytes: u64 = sizes[r.clone()].iter().map(|s| s + 1).sum();
                    assert!(bytes <= total / n as u64 + (1 << 20) + 2, "{len} files, {n} shards: {bytes} of {total}");
                }
            }
        }
        assert_eq!(Shard::parse("2/4"), Some(Shard { k: 2, n: 4 }));
        for bad in ["4/4", "0/0", "-1/2", "1", "a/b", "1/5000"] {
            assert_eq!(Shard::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn rounds_cover_every_file_once_and_the_last_ones_halve() {
        for n in [0, 1, 63, 64, 65, 100, 2047, 2048, 4096, 4097, 14_104, 100_000] {
            for batch in [1, 3, 64, 2048] {
                let r = rounds(n, batch);
                assert!(r.iter().flat_map(|r| r.clone()).eq(0..n), "{n} files, batch {batch}");
                assert!(r.iter().all(|r| !r.is_empty() && r.len() <= batch.max(LAST_ROUND_FILES)));
                if let Some(last) = r.last() {
                    assert!(last.len() <= LAST_ROUND_FILES.max(1), "{n} files, batch {batch}: {last:?}");
                }
            }
        }
        assert_eq!(rounds(14_104, 2048).len(), 5 + 4 + 7);
        assert_eq!(
            rounds(14_104, 2048)[..6].iter().map(|r| r.len()).collect::<Vec<_>>(),
            [64, 128, 256, 512, 1024, 2048]
        );
    }
}

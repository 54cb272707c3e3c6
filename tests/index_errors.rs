//! Bad input and bad bytes: every case is a clear error, never a panic, and a
//! failed or refused write leaves the previous index usable.

use std::fs;
use std::path::Path;

use codegraph::project::{self, Index, InitOptions, ProjectError};
use codegraph::query::{search, Mode, Query, QueryError};
use codegraph::snapshot::{Segment, SnapshotError};

fn indexed() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("a.rs"),
        "/// Player docs\npub struct Player { health: u32 }\nfn damage(p: &Player) {}\n",
    )
    .unwrap();
    fs::write(dir.path().join("b.go"), "package b\n// player note\nfunc PlayerHealth() int { return 1 }\n").unwrap();
    project::init(dir.path(), &InitOptions::default(), &|_| {}).unwrap();
    dir
}

fn segment_path(root: &Path) -> std::path::PathBuf {
    let m = project::read_manifest(root).unwrap();
    root.join(".codegraph").join(&m.segments[0])
}

/// A static model over the fixtures' words (no transformer: vectors made up).
fn tiny_model() -> codegraph::embed::StaticModel {
    let words =
        ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "player", "health", "docs", "note", "fn", "pub", "u32", "p", "func"];
    let vocab = codegraph::embed::wordpiece::WordPiece::from_vocab_txt(&words.join("\n"), true).unwrap();
    let dims = 8;
    let vectors = (0..words.len() * dims).map(|i| ((i * 7919 % 23) as f32 - 11.0) / 11.0).collect();
    codegraph::embed::StaticModel::new("tiny", vocab, dims, vectors)
}

/// The segment of `root` built again with vectors of `model`.
fn segment_with_vectors(root: &Path, model: &std::sync::Arc<codegraph::embed::StaticModel>) -> Vec<u8> {
    let options = codegraph::index::BuildOptions { model: Some(model.clone()), ..Default::default() };
    let mut segments = Vec::new();
    let mut sink = |_: u32, bytes: Vec<u8>| -> std::io::Result<()> {
        segments.push(bytes);
        Ok(())
    };
    codegraph::index::build(root, &options, &mut sink, &|_| {}).unwrap();
    assert_eq!(segments.len(), 1);
    segments.pop().unwrap()
}

/// Runs every kind of query; returns the answers, or an error if any failed.
/// Every query mode (subwords too), the files holding a name's references
/// (the reference files), a symbol search (the subword index and the
/// definitions table) and, given a model, a search by meaning (the vectors),
/// as text to compare.
fn query_all_with(index: &Index, model: Option<&codegraph::embed::StaticModel>) -> Result<Vec<String>, String> {
    let mut out = query_all(index)?;
    if let Some(m) = model {
        let near = codegraph::graph::nearest(index, m, "player health docs", 8).map_err(|e| e.to_string())?;
        out.push(format!("{:?}", near.hits));
    }
    Ok(out)
}

fn query_all(index: &Index) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (term, mode) in [
        ("player", Mode::Exact),
        ("pla", Mode::StartsWith),
        ("ayer", Mode::Contains),
        ("^pl.*h$", Mode::Regex),
        ("a", Mode::Contains),
        ("health", Mode::Exact),
        ("health", Mode::Subword),
        ("player_health", Mode::Subword),
    ] {
        let mut q = Query::new(term, mode);
        out.push(format!("{:?}", search(index, &q).map_err(|e| e.to_string())?));
        q.file_filter = vec!["*.rs".into()];
        q.types = vec![codegraph::extract::LineType::Code, codegraph::extract::LineType::Method];
        out.push(format!("{:?}", search(index, &q).map_err(|e| e.to_string())?));
    }
    // The files holding references of a name (section 20, read for `refs`).
    let g = codegraph::graph::Graph::new(index);
    for name in ["Player", "health"] {
        let (files, plain) = g.files_with_refs(name).map_err(|e| e.to_string())?;
        let mut plain: Vec<_> = plain.into_iter().collect();
        plain.sort();
        out.push(format!("{files:?} {plain:?}"));
    }
    let found = g.search("player health", 10).map_err(|e| e.to_string())?;
    out.push(format!("{:?}", found.hits));
    Ok(out)
}

/// An index whose one segment spans several checked blocks.
fn indexed_large() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..24 {
        let body: String = (0..12)
            .map(|j| {
                format!(
                    "/// Player {i} docs {j}\npub fn player_health_{i}_{j}(p: &Player) -> u32 {{ p.health + {j} }}\n"
                )
            })
            .collect();
        fs::write(dir.path().join(format!("m{i}.rs")), body).unwrap();
    }
    fs::write(dir.path().join("b.go"), "package b\n// player note\nfunc PlayerHealth() int { return 1 }\n").unwrap();
    project::init(dir.path(), &InitOptions::default(), &|_| {}).unwrap();
    dir
}

/// Regression: a flipped byte answered wrong with exit 0 (326 of 36,000 corruption
/// runs); `verify` caught it, queries did not. Every read now checks the blocks it
/// touches: each flip is an error or the same answer as before, never a wrong one.
#[test]
fn every_flipped_byte_answers_right_or_errs() {
    let dir = indexed_large();
    // With vectors, so that searches by meaning are checked too.
    let model = std::sync::Arc::new(tiny_model());
    let seg = segment_with_vectors(dir.path(), &model);
    assert!(seg.len() > 4 * codegraph::snapshot::CHECK_BLOCK, "the segment spans several blocks: {}", seg.len());
    let index = Index::from_segments(dir.path(), vec![Segment::from_vec("seg", seg.clone()).unwrap()]);
    assert!(index.segments[0].vectors().unwrap().is_some_and(|t| t.rows == 24 * 12 + 1), "one row per function");
    let good = query_all_with(&index, Some(&model)).unwrap();
    assert!(good.iter().any(|m| m.contains("total: 288")), "{good:?}");
    // `Player` is referenced in the 24 Rust files, each listed by section 20.
    assert!(good.iter().any(|m| m.starts_with('[') && m.matches("(0, ").count() == 24), "{good:?}");
    assert!(good[good.len() - 2].contains("PlayerHealth"), "{good:?}");
    assert!(good.last().is_some_and(|near| near.matches("((0, ").count() == 8), "{good:?}");
    let mut wrong = Vec::new();
    for i in (0..seg.len()).step_by(3) {
        let mut bad = seg.clone();
        bad[i] ^= 0x5A;
        let Ok(s) = Segment::from_vec("seg", bad) else { continue };
        let index = Index::from_segments(dir.path(), vec![s]);
        if let Ok(answers) = query_all_with(&index, Some(&model)) {
            if answers != good {
                wrong.push(i);
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} flips answered wrong, first at bytes {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(10)]
    );
}

#[test]
fn truncated_segments_are_errors_that_say_to_rebuild() {
    let dir = indexed();
    let seg = fs::read(segment_path(dir.path())).unwrap();
    for len in [0, 7, 8, 40, 64, 100, seg.len() / 2, seg.len() - 1] {
        let err = Segment::from_vec("seg", seg[..len].to_vec()).err().unwrap_or_else(|| panic!("len {len} opened"));
        let msg = err.to_string();
        assert!(msg.contains("cg init"), "{len}: {msg}");
    }
}

#[test]
fn every_flipped_byte_is_caught_by_verify_and_never_panics_a_query() {
    let dir = indexed();
    let model = std::sync::Arc::new(tiny_model());
    let seg = segment_with_vectors(dir.path(), &model);
    Segment::from_vec("seg", seg.clone()).unwrap().verify().unwrap();
    for i in 0..seg.len() {
        let mut bad = seg.clone();
        bad[i] ^= 0x5A;
        match Segment::from_vec("seg", bad) {
            Err(e) => assert!(e.to_string().contains("cg init"), "byte {i}: {e}"),
            Ok(s) => {
                assert!(s.verify().is_err(), "byte {i}: flip not detected by verify");
                let index = Index::from_segments(dir.path(), vec![s]);
                // Queries may succeed or fail on bad bytes, but must return.
                let _ = query_all_with(&index, Some(&model));
            }
        }
    }
}

#[test]
fn another_format_version_says_how_to_fix_it() {
    let dir = indexed();
    let path = segment_path(dir.path());
    let mut seg = fs::read(&path).unwrap();
    seg[8] = 99;
    let err = Segment::from_vec("seg", seg).err().unwrap();
    assert!(matches!(err, SnapshotError::Version { found: 99, .. }), "{err}");
    let expected = format!("format v99, this cg reads v{}: run `cg init`", codegraph::snapshot::FORMAT_VERSION);
    assert!(err.to_string().contains(&expected), "{err}");

    let manifest = dir.path().join(".codegraph/manifest.json");
    let (ours, next) = (codegraph::snapshot::FORMAT_VERSION, codegraph::snapshot::FORMAT_VERSION + 1);
    let text = fs::read_to_string(&manifest)
        .unwrap()
        .replace(&format!("\"format_version\": {ours}"), &format!("\"format_version\": {next}"));
    fs::write(&manifest, text).unwrap();
    let err = Index::open(dir.path()).err().unwrap().to_string();
    assert!(err.contains(&format!("format v{next}")), "{err}");
}

#[test]
fn a_missing_index_says_to_run_init() {
    let dir = tempfile::tempdir().unwrap();
    let err = project::find(dir.path()).unwrap_err();
    assert!(matches!(err, ProjectError::NotFound { .. }));
    assert!(err.to_string().contains("run `cg init`"), "{err}");
    let err = project::find(&dir.path().join("nope")).unwrap_err();
    assert!(err.to_string().contains("does not exist"), "{err}");
}

#[test]
fn bad_queries_are_clear_errors() {
    let dir = indexed();
    let index = Index::open(dir.path()).unwrap();
    let err = search(&index, &Query::new("", Mode::Exact)).unwrap_err();
    assert!(matches!(err, QueryError::EmptyTerm));
    let err = search(&index, &Query::new("foo(", Mode::Regex)).unwrap_err().to_string();
    assert!(err.contains("invalid regex") && err.contains("unclosed group"), "{err}");
    let huge = "(?:\\w{200}){200}";
    let err = search(&index, &Query::new(huge, Mode::Regex)).unwrap_err().to_string();
    assert!(err.contains("invalid regex") && err.contains("size limit"), "{err}");
    let mut q = Query::new("player", Mode::Exact);
    q.file_filter = vec!["src/[".into()];
    let err = search(&index, &q).unwrap_err().to_string();
    assert!(err.contains("invalid file filter"), "{err}");
}

#[test]
fn a_second_writer_is_refused_and_the_index_stays_usable() {
    let dir = indexed();
    let lock = project::WriteLock::acquire(&dir.path().join(".codegraph")).unwrap();
    let err = project::init(dir.path(), &InitOptions::default(), &|_| {}).unwrap_err();
    assert!(matches!(err, ProjectError::Locked { .. }), "{err}");
    assert!(err.to_string().contains("another cg process"), "{err}");
    drop(lock);
    let index = Index::open(dir.path()).unwrap();
    assert_eq!(search(&index, &Query::new("player", Mode::Exact)).unwrap().total, 4);
}

#[test]
fn reinit_switches_generations_and_removes_the_old_files() {
    let dir = indexed();
    let first = project::read_manifest(dir.path()).unwrap();
    let old_reader = Index::open(dir.path()).unwrap();
    fs::write(dir.path().join("c.ts"), "export const player = 1;\n").unwrap();
    let report = project::init(dir.path(), &InitOptions::default(), &|_| {}).unwrap();
    assert_eq!(report.manifest.generation, first.generation + 1);
    assert!(!dir.path().join(".codegraph").join(&first.segments[0]).exists());
    // A reader of the old generation keeps answering from its mapped files.
    assert_eq!(search(&old_reader, &Query::new("player", Mode::Exact)).unwrap().total, 4);
    let new_reader = Index::open(dir.path()).unwrap();
    assert_eq!(search(&new_reader, &Query::new("player", Mode::Exact)).unwrap().total, 5);
}

/// The largest single allocation made in this test binary.
static LARGEST_ALLOCATION: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

struct Measuring;

unsafe impl std::alloc::GlobalAlloc for Measuring {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        LARGEST_ALLOCATION.fetch_max(layout.size(), std::sync::atomic::Ordering::Relaxed);
        unsafe { std::alloc::System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Measuring = Measuring;

/// Found by the `snapshot` fuzz target: a corrupted variant `occurrences` field sized
/// a multi-gigabyte buffer before any posting was read (libFuzzer reported it as
/// out-of-memory; with overcommit it would only show as a huge allocation). Here
/// every variant's and fold's count says u32::MAX.
#[test]
fn corrupted_occurrence_counts_do_not_allocate_gigabytes() {
    let dir = indexed();
    let mut bytes = fs::read(segment_path(dir.path())).unwrap();
    let section = |kind: usize| {
        let e = 64 + (kind - 1) * 32;
        let at = |o: usize| u64::from_le_bytes(bytes[e + o..e + o + 8].try_into().unwrap()) as usize;
        (at(8), at(16))
    };
    // Folds (kind 2): 8-byte records, occurrences at +4. Variants (kind 3): 18-byte
    // records, occurrences at +14.
    let ((folds, folds_len), (variants, variants_len)) = (section(2), section(3));
    let fields = (folds..folds + folds_len)
        .step_by(8)
        .map(|r| r + 4)
        .chain((variants..variants + variants_len - 17).step_by(18).map(|r| r + 14));
    for f in fields.collect::<Vec<_>>() {
        bytes[f..f + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    }
    // Block sums would refuse these bytes at once; sealed again, they stand for
    // corruption no checksum sees (a buggy writer), to reach the query path.
    reseal(&mut bytes);
    let segment = Segment::from_vec("seg", bytes).unwrap();
    assert!(segment.verify().is_err(), "the segment is corrupted");
    let index = Index::from_segments(dir.path(), vec![segment]);
    for (term, mode) in [("player", Mode::Exact), ("pl", Mode::StartsWith), ("aye", Mode::Contains)] {
        for filter in [None, Some("*.rs")] {
            let mut q = Query::new(term, mode);
            q.file_filter = filter.map(str::to_string).into_iter().collect();
            let _ = search(&index, &q);
        }
    }
    let largest = LARGEST_ALLOCATION.load(std::sync::atomic::Ordering::Relaxed);
    assert!(largest < 256 << 20, "an allocation of {largest} bytes");
}

/// Recomputes a segment's block sums and footer checksums over its bytes as they are.
fn reseal(bytes: &mut [u8]) {
    use xxhash_rust::xxh3::xxh3_64;
    let block = codegraph::snapshot::CHECK_BLOCK;
    let sums_at = u64::from_le_bytes(bytes[48..56].try_into().unwrap()) as usize;
    let sums: Vec<u64> = bytes[..sums_at].chunks(block).map(xxh3_64).collect();
    for (i, s) in sums.iter().enumerate() {
        bytes[sums_at + i * 8..sums_at + i * 8 + 8].copy_from_slice(&s.to_le_bytes());
    }
    let body_end = sums_at + sums.len() * 8;
    let sums_sum = xxh3_64(&bytes[sums_at..body_end]);
    bytes[body_end..body_end + 8].copy_from_slice(&sums_sum.to_le_bytes());
    let file_sum = xxh3_64(&bytes[..body_end + 8]);
    bytes[body_end + 8..body_end + 16].copy_from_slice(&file_sum.to_le_bytes());
}

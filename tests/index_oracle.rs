//! The index against a brute-force scan of the extracted facts: every mode, with
//! and without filters, on the fixtures and on generated trees that cross segment
//! boundaries.

use std::fs;
use std::path::Path;

mod common;

use codegraph::extract::{walk, WalkOptions};
use codegraph::project::{self, Index, InitOptions};
use codegraph::query::{search, Mode, Query};
use common::{check, facts_of, queries_for, source};
use proptest::prelude::*;

fn build(root: &Path, segment_slots: u32) -> Index {
    let options = InitOptions { max_slots_per_segment: Some(segment_slots), ..InitOptions::default() };
    project::init(root, &options, &|_| {}).expect("init");
    Index::open(root).expect("open")
}

#[test]
fn fixtures_answer_like_a_brute_force_scan() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/extract");
    for entry in walk(&src, &WalkOptions::default()).unwrap().files {
        let to = dir.path().join(&entry.rel);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(&entry.abs, to).unwrap();
    }
    let facts = facts_of(dir.path());
    for slots in [65_536, 2] {
        let index = build(dir.path(), slots);
        assert_eq!(index.segments.len(), if slots == 2 { facts.len().div_ceil(2) } else { 1 });
        for q in queries_for(&facts) {
            check(&index, &facts, &q);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn generated_trees_answer_like_a_brute_force_scan(
        files in prop::collection::vec((0usize..3, prop::collection::vec((0usize..40, 0usize..5), 1..30)), 1..9),
        slots in 1u32..5,
    ) {
        let dir = tempfile::tempdir().unwrap();
        for (i, (lang, words)) in files.iter().enumerate() {
            let ext = ["rs", "go", "ts"][*lang];
            let path = dir.path().join(format!("d{}/f{i}.{ext}", i % 3));
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, source(*lang, words)).unwrap();
        }
        let facts = facts_of(dir.path());
        let index = build(dir.path(), slots);
        for q in queries_for(&facts) {
            check(&index, &facts, &q);
        }
    }
}

#[test]
fn a_file_longer_than_65535_lines_keeps_every_occurrence() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 1..=70_000u32 {
        match i {
            3 | 65_535 | 65_536 | 69_999 => text.push_str("let needle_term = 1;\n"),
            _ => text.push_str("let filler = 2;\n"),
        }
    }
    fs::write(dir.path().join("a_small.rs"), "fn needle_term() {}\n").unwrap();
    fs::write(dir.path().join("long.rs"), &text).unwrap();
    fs::write(dir.path().join("z_after.rs"), "// needle_term\n").unwrap();
    // Two slots per segment: the long file needs both, so each file gets its own.
    let index = build(dir.path(), 2);
    assert_eq!(index.segments.len(), 3);
    let mut q = Query::new("needle_term", Mode::Exact);
    q.limit = 0;
    let got = search(&index, &q).unwrap();
    let lines: Vec<(String, u32)> = got.hits.iter().map(|h| (h.path.clone(), h.line)).collect();
    assert_eq!(
        lines,
        [
            ("a_small.rs".to_string(), 1),
            ("long.rs".to_string(), 3),
            ("long.rs".to_string(), 65_535),
            ("long.rs".to_string(), 65_536),
            ("long.rs".to_string(), 69_999),
            ("z_after.rs".to_string(), 1),
        ]
    );
    assert_eq!(got.total, 6);
    let stats = index.stats().unwrap();
    assert_eq!(stats.files, 3);
    assert_eq!(stats.lines, 70_002);
    // The file of each slot, known without reading the slot's record, is the
    // one its record gives (the long file's second slot is its first's).
    for index in [index, build(dir.path(), 65_536)] {
        let mut later = 0;
        for seg in &index.segments {
            for s in 0..seg.slot_count {
                let part = seg.slot(s).unwrap().part as u32;
                later += (part > 0) as u32;
                assert_eq!(seg.first_slot_of(s).unwrap(), s - part, "slot {s}");
            }
            assert!(seg.first_slot_of(seg.slot_count).is_err());
        }
        assert_eq!(later, 1);
    }
}

#[test]
fn same_tree_gives_byte_identical_segments_with_one_thread_and_many() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..40 {
        let words: Vec<(usize, usize)> = (0..20).map(|j| ((i * 7 + j) % 40, (i + j) % 5)).collect();
        fs::write(dir.path().join(format!("f{i:02}.rs")), source(0, &words)).unwrap();
    }
    let snapshot = |threads: usize| -> Vec<Vec<u8>> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let options = InitOptions { max_slots_per_segment: Some(16), ..InitOptions::default() };
        let report = pool.install(|| project::init(dir.path(), &options, &|_| {})).unwrap();
        report.manifest.segments.iter().map(|s| fs::read(report.codegraph_path.join(s)).unwrap()).collect()
    };
    let one = snapshot(1);
    assert_eq!(one.len(), 3);
    assert_eq!(one, snapshot(4));
}

/// The build's rounds (the last ones halving), the large files extracted a round
/// early and the threads change nothing in the bytes: every round size from one
/// file to all of them, one thread and four, a segment boundary inside, and
/// files over the early size at the start, in the middle and last.
#[test]
fn segments_do_not_depend_on_rounds_early_files_or_threads() {
    let dir = tempfile::tempdir().unwrap();
    let big = |i: usize| -> String {
        (0..5_200).map(|j| format!("pub fn big_{i}_{j}(value: u32) -> u32 {{ value + {j} }}\n")).collect()
    };
    for i in 0..150 {
        let text = match i {
            0 | 71 | 149 => big(i),
            _ => {
                let words: Vec<(usize, usize)> = (0..20).map(|j| ((i * 7 + j) % 40, (i + j) % 5)).collect();
                source(0, &words)
            }
        };
        fs::write(dir.path().join(format!("f{i:03}.rs")), text).unwrap();
    }
    let sizes: Vec<u64> =
        (0..150).map(|i| fs::metadata(dir.path().join(format!("f{i:03}.rs"))).unwrap().len()).collect();
    assert!(sizes[71] >= 256 << 10 && sizes[70] < 256 << 10, "{} {}", sizes[71], sizes[70]);
    let build = |threads: usize, batch_files: usize| -> Vec<Vec<u8>> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let options = codegraph::index::BuildOptions { max_slots_per_segment: 100, batch_files, ..Default::default() };
        let mut segments = Vec::new();
        let mut sink = |i: u32, bytes: Vec<u8>| {
            assert_eq!(i as usize, segments.len());
            segments.push(bytes);
            Ok(())
        };
        let summary = pool.install(|| codegraph::index::build(dir.path(), &options, &mut sink, &|_| {})).unwrap();
        assert_eq!(summary.files, 150);
        segments
    };
    let reference = build(1, 2048);
    assert_eq!(reference.len(), 2);
    for (threads, batch) in [(4, 2048), (1, 1), (4, 3), (2, 40)] {
        assert!(build(threads, batch) == reference, "{threads} threads, rounds of {batch}");
    }
}

/// Structure archives are a zstd frame each, compressed with the segment's
/// dictionary: files read back exactly what extraction gave, in path order, in
/// reverse (the segment's cache of recent archives misses every time), and when
/// copied out for compaction.
#[test]
fn structures_in_frames_of_their_own_read_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..120 {
        let doc: String = (0..40)
            .map(|j| format!("/// {} line {j} of the docs of Type{i}\n", common::WORDS[(i + j) % common::WORDS.len()]))
            .collect();
        let methods: String = (0..20)
            .map(|j| format!("    pub fn method_{j}_{i}(&self, value_{j}: u32) -> u32 {{ value_{j} }}\n"))
            .collect();
        fs::write(
            dir.path().join(format!("f{i:03}.rs")),
            format!("{doc}pub struct Type{i};\nimpl Type{i} {{\n{methods}}}\n"),
        )
        .unwrap();
    }
    let facts = facts_of(dir.path());
    let index = build(dir.path(), 1 << 16);
    let seg = &index.segments[0];
    let want: Vec<_> = facts.iter().map(codegraph::snapshot::structure::FileStructure::from_facts).collect();
    let frames: std::collections::BTreeSet<u64> =
        (0..seg.slot_count).map(|s| seg.slot(s).unwrap().structure.frame).collect();
    assert_eq!(frames.len(), 120, "a frame per file");
    let read = |s: u32| seg.structure(&seg.slot(s).unwrap()).unwrap();
    for s in (0..seg.slot_count).chain((0..seg.slot_count).rev()) {
        assert_eq!(read(s), want[s as usize], "slot {s}");
    }
    let copy = seg.copy_files(|_| true).unwrap();
    for (i, f) in copy.files.iter().enumerate() {
        let archive = f.with_entry(|e| e.structure.to_vec()).unwrap();
        assert_eq!(codegraph::snapshot::structure::FileStructure::from_archive(&archive).as_ref(), Some(&want[i]));
    }
}

/// A substring whose candidate keys are many more than one batch of their
/// reads (`Matcher::verify` starts loading 32 keys' records at a time, and
/// the unions start loading variants' postings ahead), among keys holding
/// its trigrams apart (`eedxedl`: "eed" and "edl", not "eedl"), in two
/// segments: every key and every spelling is checked, none dropped at a
/// batch's edge.
#[test]
fn substrings_matching_more_keys_than_a_batch_answer_like_a_brute_force_scan() {
    let dir = tempfile::tempdir().unwrap();
    for f in 0..4 {
        let text: String = (0..150)
            .map(|i| match i % 3 {
                0 => format!("fn a{f}x{i}needle() {{ let Needle{i}{f} = eedxedl{i}; }}\n"),
                1 => format!("// aNEEDLEb{i}{f} and eedyedl{i}\n"),
                _ => format!("fn keep{i}_{f}() {{ needles_{i}(); }}\n"),
            })
            .collect();
        fs::write(dir.path().join(format!("f{f}.rs")), text).unwrap();
    }
    let facts = facts_of(dir.path());
    for slots in [65_536, 2] {
        let index = build(dir.path(), slots);
        for term in ["eedl", "EEDL", "needle", "eed", "edl"] {
            check(&index, &facts, &Query::new(term, Mode::Contains));
            check(&index, &facts, &Query { limit: 0, ..Query::new(term, Mode::Contains) });
        }
        check(&index, &facts, &Query::new("eedl.*[0-9]", Mode::Regex));
        let all = search(&index, &Query { limit: 0, ..Query::new("eedl", Mode::Contains) }).unwrap();
        assert_eq!(all.total, 4 * 150, "every line holds a key with eedl");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// `files_in` (a folder's own files, its subfolders passed by binary
    /// search) against `files_under` filtered to the folder's direct children,
    /// for every folder, on paths whose names sort around `/` (`a.go`, `a-x`,
    /// `a0`, `a/..`) and segments of a few files.
    #[test]
    fn a_folders_own_files_are_its_files_without_subfolders(
        paths in prop::collection::btree_set(prop::collection::vec(0usize..6, 1..4), 1..24),
        slots in 1u32..6,
    ) {
        const NAMES: [&str; 6] = ["a", "a-x", "a0", "a.d", "b", "ab"];
        let dir = tempfile::tempdir().unwrap();
        let mut folders = std::collections::BTreeSet::from([String::new()]);
        let mut written = std::collections::BTreeSet::new();
        for p in &paths {
            let folder: Vec<&str> = p[..p.len() - 1].iter().map(|&i| NAMES[i]).collect();
            let rel = match folder.is_empty() {
                true => format!("{}.go", NAMES[p[p.len() - 1]]),
                false => format!("{}/{}.go", folder.join("/"), NAMES[p[p.len() - 1]]),
            };
            // A folder and a file of one name cannot both exist.
            if written.iter().any(|w: &String| w.starts_with(&format!("{}/", rel.trim_end_matches(".go"))))
                || folders.contains(rel.trim_end_matches(".go"))
            {
                continue;
            }
            for k in 1..=folder.len() {
                folders.insert(folder[..k].join("/"));
            }
            let path = dir.path().join(&rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "package p\n").unwrap();
            written.insert(rel);
        }
        let index = build(dir.path(), slots);
        for folder in &folders {
            let start = if folder.is_empty() { 0 } else { folder.len() + 1 };
            let want: Vec<&str> = index
                .files_under(folder)
                .unwrap()
                .iter()
                .map(|f| f.path)
                .filter(|p| !p[start..].contains('/'))
                .collect();
            let got: Vec<&str> = index.files_in(folder).unwrap().iter().map(|f| f.path).collect();
            prop_assert_eq!(got, want, "folder {:?}", folder);
        }
    }
}

/// The number of blocks of blocked section `kind` (format/README.md, Blocked
/// sections) in a segment file's bytes.
fn block_count(seg: &[u8], kind: usize) -> u32 {
    let entry = 64 + 32 * (kind - 1);
    let offset = u64::from_le_bytes(seg[entry + 8..entry + 16].try_into().unwrap()) as usize;
    u32::from_le_bytes(seg[offset..offset + 4].try_into().unwrap())
}

/// A tree whose strings, line types and definition records each take several
/// zstd blocks: every query of the spread, and definitions named in the first
/// and in the last files, read items from every block like a brute-force scan
/// of the facts.
#[test]
fn sections_of_many_blocks_answer_like_a_brute_force_scan() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("a/folder/with/a/rather/long/name");
    fs::create_dir_all(&folder).unwrap();
    for f in 0..24 {
        let text: String = (0..1500)
            .map(|i| match i % 3 {
                0 => format!("pub fn blocked_{f}_{i}_name(value_{i}: u32) -> u32 {{ value_{i} }}\n"),
                1 => format!("// a comment on word_{f}_{i}\n"),
                _ => format!("struct Kind{f}x{i} {{ field_{i}: u8 }}\n"),
            })
            .collect();
        fs::write(folder.join(format!("file_{f}.rs")), text).unwrap();
    }
    let facts = facts_of(dir.path());
    let index = build(dir.path(), 65_536);
    let seg_path = fs::read_dir(dir.path().join(".codegraph"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "cgs"))
        .unwrap();
    let seg = fs::read(seg_path).unwrap();
    // Strings (4), line types (7), definition records (13).
    for kind in [4, 7, 13] {
        assert!(block_count(&seg, kind) > 1, "section {kind}: {} block(s)", block_count(&seg, kind));
    }
    for q in queries_for(&facts) {
        check(&index, &facts, &q);
    }
    let segment = &index.segments[0];
    for (f, i) in [(0, 0), (0, 1497), (11, 750), (23, 0), (23, 1497)] {
        let name = format!("blocked_{f}_{i}_name");
        let defs = segment.definitions(&name).unwrap();
        assert_eq!(defs.len(), 1, "{name}");
        let slot = segment.slot(defs[0].slot).unwrap();
        assert_eq!(segment.slot_path(&slot).unwrap(), format!("a/folder/with/a/rather/long/name/file_{f}.rs"));
        assert_eq!(defs[0].line, i + 1, "{name}");
        check(&index, &facts, &Query::new(&name, Mode::Exact));
    }
}

//! Updates against the oracle: after every change (edits that add, remove and shift
//! lines, new files, deletions, renames; applied file by file, as one batch, by a
//! rescan or by removal) the index answers exactly what a brute-force scan of the
//! tree as it is now answers, lists exactly its files and counts them right; after
//! a compaction its segments are byte for byte those of a fresh build.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

use codegraph::graph::Graph;
use codegraph::index::{build, BuildOptions};
use codegraph::project::{self, Index, InitOptions, ProjectError, Request, UpdateOptions};
use codegraph::query::{search, Mode, Query};
use codegraph::snapshot::Segment;
use common::{check, facts_of, queries_for, source};
use proptest::prelude::*;

/// Writes a file with a distinct mtime, so size-and-mtime checks see every edit
/// however fast the test runs.
fn write(root: &Path, rel: &str, text: &str, tick: &mut u64) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, text).unwrap();
    *tick += 1;
    let f = fs::File::options().write(true).open(&path).unwrap();
    f.set_modified(UNIX_EPOCH + Duration::from_secs(1_700_000_000 + *tick)).unwrap();
}

/// A fresh build of the tree as it is now, in memory.
fn fresh(root: &Path, slots: u32) -> (Index, Vec<Vec<u8>>) {
    let mut bytes = Vec::new();
    let options = BuildOptions { max_slots_per_segment: slots, ..BuildOptions::default() };
    let mut sink = |_, b| {
        bytes.push(b);
        Ok(())
    };
    build(root, &options, &mut sink, &|_| {}).unwrap();
    let segments = bytes.iter().enumerate().map(|(i, b)| Segment::from_vec(&format!("fresh{i}"), b.clone()).unwrap());
    (Index::from_segments(root, segments.collect()), bytes)
}

/// The index of `root` answers like the tree as it is now.
fn assert_current(root: &Path, slots: u32) {
    let index = Index::open(root).unwrap();
    index.verify().unwrap();
    let facts = facts_of(root);
    for q in queries_for(&facts) {
        check(&index, &facts, &q);
    }
    let listed: Vec<&str> = index.files().unwrap().iter().map(|f| f.path).collect::<Vec<_>>();
    let want: Vec<&str> = facts.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(listed, want, "files listed");
    // Each current file is found at its path, where the listing has it; a
    // deleted file's path, a folder and a path's prefix or extension are not.
    for f in index.files().unwrap() {
        let found = index.locate(f.path).unwrap().unwrap_or_else(|| panic!("locate {}", f.path));
        assert_eq!((found.segment, found.slot_id, found.path), (f.segment, f.slot_id, f.path));
        for near in
            [&f.path[..f.path.len() - 1], &format!("{}x", f.path), f.path.rsplit_once('/').map_or("", |(d, _)| d)]
        {
            if !want.contains(&near) {
                assert!(index.locate(near).unwrap().is_none(), "locate {near}");
            }
        }
    }
    assert!(index.locate("never/there.rs").unwrap().is_none());
    // Every path a segment holds, a deleted file's included.
    for seg in &index.segments {
        for slot in 0..seg.slot_count {
            let path = std::str::from_utf8(seg.slot_path_bytes(slot).unwrap()).unwrap();
            assert_eq!(index.locate(path).unwrap().map(|f| f.path), want.contains(&path).then_some(path), "{path}");
        }
    }
    let stats = index.stats().unwrap();
    assert_eq!(stats.files, facts.len() as u64);
    assert_eq!(stats.lines, facts.iter().map(|f| f.line_count() as u64).sum::<u64>());
    let occurrences: u64 = facts.iter().flat_map(|f| f.terms.iter().map(|t| t.lines.len() as u64)).sum();
    assert_eq!(stats.occurrences, occurrences);
    let m = index.manifest.as_ref().unwrap();
    assert_eq!((m.files, m.lines, m.occurrences), (stats.files, stats.lines, occurrences), "manifest totals");
    let (fresh, _) = fresh(root, slots);
    assert_eq!(project::signatures(&index, "", 0).unwrap(), project::signatures(&fresh, "", 0).unwrap());
    for f in &facts {
        assert!(project::signature(&index, &f.path).unwrap().is_some(), "{}", f.path);
    }
    assert_eq!(project::tree(&index, "", 9).unwrap(), project::tree(&fresh, "", 9).unwrap());
    // The code graph: totals, and every definition's references, callers and
    // callees answer as a fresh build of the tree does.
    let counts = facts.iter().fold(project::GraphCounts::default(), |c, f| c.plus(project::GraphCounts::of_facts(f)));
    assert_eq!(m.graph, counts, "graph totals");
    let (live, new) = (Graph::new(&index), Graph::new(&fresh));
    let mut names: Vec<&str> = facts.iter().flat_map(|f| f.methods.iter().map(|m| m.name.as_str())).collect();
    names.extend(facts.iter().flat_map(|f| f.types.iter().map(|t| t.name.as_str())));
    names.sort_unstable();
    names.dedup();
    for name in names {
        let (a, b) = match (live.find(name), new.find(name)) {
            (Ok(a), Ok(b)) => (a, b),
            // A name the term index does not hold (a keyword used as a name).
            (Err(x), Err(y)) if x.to_string() == y.to_string() => continue,
            (a, b) => panic!("find {name}: {:?} vs {:?}", a.map(|_| ()), b.map(|_| ())),
        };
        let views = |g: &Graph<'_>, defs: &[_]| defs.iter().map(|&d| g.view(d).unwrap()).collect::<Vec<_>>();
        assert_eq!(views(&live, &a), views(&new, &b), "definitions of {name}");
        assert_eq!(live.refs(&a, &[]).unwrap(), new.refs(&b, &[]).unwrap(), "refs of {name}");
        assert_eq!(live.callers(&a, 2).unwrap(), new.callers(&b, 2).unwrap(), "callers of {name}");
        assert_eq!(live.callees(a[0], 2).unwrap(), new.callees(b[0], 2).unwrap(), "callees of {name}");
    }
}

fn init(root: &Path, slots: u32) {
    let options = InitOptions { max_slots_per_segment: Some(slots), ..InitOptions::default() };
    project::init(root, &options, &|_| {}).unwrap();
}

fn apply(root: &Path, request: Request) -> project::UpdateReport {
    project::update(root, &request, &UpdateOptions::default(), &|_| {}).unwrap_or_else(|e| panic!("{request:?}: {e}"))
}

#[derive(Clone, Debug)]
enum Op {
    Edit(usize, Vec<(usize, usize)>),
    Delete(usize),
    Add(usize, Vec<(usize, usize)>),
    Rename(usize),
}

fn op() -> impl Strategy<Value = Op> {
    let words = || prop::collection::vec((0usize..40, 0usize..5), 1..25);
    prop_oneof![
        3 => (0usize..100, words()).prop_map(|(i, w)| Op::Edit(i, w)),
        1 => (0usize..100).prop_map(Op::Delete),
        2 => (0usize..3, words()).prop_map(|(l, w)| Op::Add(l, w)),
        1 => (0usize..100).prop_map(Op::Rename),
    ]
}

fn ext(path: &str) -> usize {
    ["rs", "go", "ts"].iter().position(|e| path.ends_with(e)).unwrap()
}

proptest! {
    // 10 cases per run; PROPTEST_CASES=N runs more.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(10),
        ..ProptestConfig::default()
    })]

    #[test]
    fn updates_answer_like_a_fresh_scan_and_compact_to_fresh_bytes(
        initial in prop::collection::vec((0usize..3, prop::collection::vec((0usize..40, 0usize..5), 1..25)), 1..7),
        groups in prop::collection::vec((prop::collection::vec(op(), 1..5), 0usize..5), 1..6),
        slots in 1u32..5,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let mut tick = 0u64;
        let mut files: Vec<String> = Vec::new();
        let mut next_id = 0usize;
        for (lang, words) in &initial {
            let rel = format!("d{}/f{next_id}.{}", next_id % 3, ["rs", "go", "ts"][*lang]);
            next_id += 1;
            write(root, &rel, &source(*lang, words), &mut tick);
            files.push(rel);
        }
        // A file long enough to have line marks, never edited: compaction copies them.
        write(root, "d0/long.rs", &"fn long() {}\r\n// x\n".repeat(100), &mut tick);
        init(root, slots);
        for (ops, style) in &groups {
            let indexed_before: BTreeSet<String> = files.iter().cloned().collect();
            let mut touched: BTreeSet<String> = BTreeSet::new();
            for op in ops {
                match op {
                    Op::Edit(i, words) if !files.is_empty() => {
                        let rel = files[i % files.len()].clone();
                        write(root, &rel, &source(ext(&rel), words), &mut tick);
                        touched.insert(rel);
                    }
                    Op::Delete(i) if !files.is_empty() => {
                        let rel = files.remove(i % files.len());
                        fs::remove_file(root.join(&rel)).unwrap();
                        touched.insert(rel);
                    }
                    Op::Rename(i) if !files.is_empty() => {
                        let k = i % files.len();
                        let rel = files[k].clone();
                        let to = format!("r{}/g{next_id}.{}", next_id % 2, ["rs", "go", "ts"][ext(&rel)]);
                        next_id += 1;
                        fs::create_dir_all(root.join(&to).parent().unwrap()).unwrap();
                        fs::rename(root.join(&rel), root.join(&to)).unwrap();
                        files[k] = to.clone();
                        touched.insert(rel);
                        touched.insert(to);
                    }
                    Op::Add(lang, words) => {
                        let rel = format!("d{}/f{next_id}.{}", next_id % 3, ["rs", "go", "ts"][*lang]);
                        next_id += 1;
                        write(root, &rel, &source(*lang, words), &mut tick);
                        files.push(rel.clone());
                        touched.insert(rel);
                    }
                    _ => {}
                }
            }
            // A file added and deleted again within the group was never indexed and
            // is gone: naming it is an error (tested below), so it is not named.
            touched.retain(|r| root.join(r).exists() || indexed_before.contains(r));
            match style {
                // One batch naming every touched path.
                0 => { apply(root, Request::Update(touched.iter().cloned().collect())); }
                // A rescan of the whole tree.
                1 => { apply(root, Request::Update(vec![String::new()])); }
                // File by file.
                2 => for rel in &touched { apply(root, Request::Update(vec![rel.clone()])); },
                // The folders holding them.
                3 => {
                    let folders: BTreeSet<String> =
                        touched.iter().map(|r| r.split('/').next().unwrap().to_string()).collect();
                    apply(root, Request::Update(folders.into_iter().collect()));
                }
                // Deleted files by removal, the rest by update.
                _ => {
                    let (gone, rest): (Vec<String>, Vec<String>) =
                        touched.into_iter().partition(|r| !root.join(r).exists() && indexed_before.contains(r));
                    if !gone.is_empty() {
                        apply(root, Request::Remove(gone));
                    }
                    if !rest.is_empty() {
                        apply(root, Request::Update(rest));
                    }
                }
            }
            assert_current(root, slots);
        }
        let report = apply(root, Request::Compact);
        prop_assert!(report.compacted);
        assert_current(root, slots);
        let index = Index::open(root).unwrap();
        let (_, want) = fresh(root, slots);
        let got: Vec<Vec<u8>> = index.segments.iter().map(|s| fs::read(s.path()).unwrap()).collect();
        prop_assert_eq!(got.len(), want.len());
        prop_assert!(got == want, "compacted segments differ from a fresh build's");
    }
}

fn small_project() -> (tempfile::TempDir, u64) {
    let dir = tempfile::tempdir().unwrap();
    let mut tick = 0;
    write(dir.path(), "src/player.rs", "pub struct Player;\nfn heal() {}\n", &mut tick);
    write(dir.path(), "src/world.go", "package world\nfunc Spawn() {}\n", &mut tick);
    init(dir.path(), 65_536);
    (dir, tick)
}

fn lines_of(root: &Path, term: &str) -> Vec<(String, u32)> {
    let index = Index::open(root).unwrap();
    let m = search(&index, &Query::new(term, Mode::Exact)).unwrap();
    m.hits.into_iter().map(|h| (h.path, h.line)).collect()
}

#[test]
fn lines_shift_after_an_edit_above_them() {
    let (dir, mut tick) = small_project();
    let root = dir.path();
    assert_eq!(lines_of(root, "heal"), [("src/player.rs".to_string(), 2)]);
    write(root, "src/player.rs", "// one\n// two\n// three\npub struct Player;\nfn heal() {}\n", &mut tick);
    let r = apply(root, Request::Update(vec!["src/player.rs".into()]));
    assert_eq!(r.updated, ["src/player.rs"]);
    assert_eq!(lines_of(root, "heal"), [("src/player.rs".to_string(), 5)]);
    assert_eq!(lines_of(root, "Player"), [("src/player.rs".to_string(), 4)]);
    // Lines removed: the term moves up.
    write(root, "src/player.rs", "fn heal() {}\n", &mut tick);
    apply(root, Request::Update(vec!["src/player.rs".into()]));
    assert_eq!(lines_of(root, "heal"), [("src/player.rs".to_string(), 1)]);
    assert!(lines_of(root, "Player").is_empty(), "no ghost of the removed line");
}

#[test]
fn an_unchanged_file_makes_no_generation() {
    let (dir, _) = small_project();
    let r = apply(dir.path(), Request::Update(vec!["src/player.rs".into()]));
    assert!(!r.changed());
    assert_eq!(r.unchanged, 1);
    let r = apply(dir.path(), Request::Update(vec![String::new()]));
    assert!(!r.changed(), "{r:?}");
    assert_eq!(r.unchanged, 2);
}

#[test]
fn an_explicit_update_sees_a_same_size_edit_with_the_same_mtime() {
    let (dir, _) = small_project();
    let root = dir.path();
    let path = root.join("src/player.rs");
    let mtime = fs::metadata(&path).unwrap().modified().unwrap();
    fs::write(&path, "pub struct Player;\nfn mend() {}\n").unwrap();
    fs::File::options().write(true).open(&path).unwrap().set_modified(mtime).unwrap();
    let r = apply(root, Request::Update(vec!["src/player.rs".into()]));
    assert_eq!(r.updated, ["src/player.rs"]);
    assert_eq!(lines_of(root, "mend"), [("src/player.rs".to_string(), 2)]);
}

#[test]
fn bad_paths_are_refused_and_change_nothing() {
    let (dir, _) = small_project();
    let root = dir.path();
    let before = fs::read_to_string(root.join(".codegraph/manifest.json")).unwrap();
    let err = project::update(root, &Request::Update(vec!["../outside.rs".into()]), &UpdateOptions::default(), &|_| {})
        .unwrap_err();
    assert!(matches!(err, ProjectError::OutsideProject { .. }), "{err}");
    let err = project::update(root, &Request::Update(vec!["src/nope.rs".into()]), &UpdateOptions::default(), &|_| {})
        .unwrap_err();
    assert!(err.to_string().contains("does not exist"), "{err}");
    let err = project::update(root, &Request::Remove(vec!["src/nope.rs".into()]), &UpdateOptions::default(), &|_| {})
        .unwrap_err();
    assert!(err.to_string().contains("not in the index"), "{err}");
    // A batch with one bad path applies none of it.
    fs::write(root.join("src/new.rs"), "fn fresh() {}\n").unwrap();
    let batch = Request::Update(vec!["src/new.rs".into(), "src/nope.rs".into()]);
    assert!(project::update(root, &batch, &UpdateOptions::default(), &|_| {}).is_err());
    assert_eq!(fs::read_to_string(root.join(".codegraph/manifest.json")).unwrap(), before);
    assert!(lines_of(root, "fresh").is_empty());
    // A file the rules leave out is reported, not indexed.
    fs::write(root.join("notes.txt"), "fresh\n").unwrap();
    let r = apply(root, Request::Update(vec!["notes.txt".into()]));
    assert_eq!(r.ignored, ["notes.txt"]);
    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("x.rs"), "fn x() {}\n").unwrap();
        std::os::unix::fs::symlink(outside.path().join("x.rs"), root.join("src/link.rs")).unwrap();
        let err =
            project::update(root, &Request::Update(vec!["src/link.rs".into()]), &UpdateOptions::default(), &|_| {})
                .unwrap_err();
        assert!(matches!(err, ProjectError::OutsideProject { .. }), "{err}");
    }
}

#[test]
fn a_second_writer_is_refused_with_a_clear_message_while_readers_go_on() {
    let (dir, mut tick) = small_project();
    let root = dir.path();
    let lock = project::WriteLock::acquire(&root.join(".codegraph")).unwrap();
    write(root, "src/player.rs", "fn other() {}\n", &mut tick);
    let options = UpdateOptions { lock_wait: Duration::ZERO, ..UpdateOptions::default() };
    let err = project::update(root, &Request::Update(vec![String::new()]), &options, &|_| {}).unwrap_err();
    assert!(matches!(err, ProjectError::Locked { .. }));
    assert!(err.to_string().contains("another cg process is writing this index"), "{err}");
    assert_eq!(lines_of(root, "heal"), [("src/player.rs".to_string(), 2)], "readers never block");
    // A writer that waits goes ahead once the lock is released.
    let waiting = std::thread::spawn({
        let root = root.to_path_buf();
        move || {
            let options = UpdateOptions { lock_wait: Duration::from_secs(30), ..UpdateOptions::default() };
            project::update(&root, &Request::Update(vec![String::new()]), &options, &|_| {})
        }
    });
    std::thread::sleep(Duration::from_millis(100));
    drop(lock);
    let r = waiting.join().unwrap().unwrap();
    assert_eq!(r.updated, ["src/player.rs"]);
}

#[test]
fn a_thousand_updates_of_one_file_do_not_grow_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut tick = 0;
    for i in 0..40 {
        write(root, &format!("src/m{i}.rs"), &format!("pub fn f{i}() {{ let x{i} = {i}; }}\n").repeat(30), &mut tick);
    }
    init(root, 65_536);
    let fresh_size = project::store_bytes(root);
    let mut largest = 0;
    for i in 0..1000 {
        let rel = format!("src/m{}.rs", i % 7);
        write(root, &rel, &format!("pub fn edited{i}() {{}}\n").repeat(1 + i % 50), &mut tick);
        apply(root, Request::Update(vec![rel]));
        largest = largest.max(project::store_bytes(root));
    }
    let segments = fs::read_dir(root.join(".codegraph")).unwrap().flatten();
    let names: Vec<String> = segments.map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    let index = Index::open(root).unwrap();
    assert!(index.segments.len() <= 10, "{} segments", index.segments.len());
    assert_eq!(names.iter().filter(|n| n.starts_with("seg-")).count(), index.segments.len(), "{names:?}");
    assert!(largest < fresh_size * 4, "store grew to {largest} bytes from {fresh_size}");
    assert_current(root, 65_536);
}

#[test]
fn the_summary_follows_updates_when_it_is_next_read() {
    let (dir, mut tick) = small_project();
    let root = dir.path();
    let (_, before) = project::summary::read(root).unwrap();
    assert!(!before.entry_points.iter().any(|e| e.contains("main.rs")), "{before:?}");
    write(root, "cmd/main.rs", "fn main() {}\n", &mut tick);
    let r = apply(root, Request::Update(vec!["cmd/main.rs".into()]));
    assert!(r.summary_outdated, "a new file changes the detected structure");
    let stored = fs::read_to_string(root.join(".codegraph/summary.md")).unwrap();
    assert!(!stored.contains("cmd/main.rs"), "the update itself does not detect");
    let (text, auto) = project::summary::read(root).unwrap();
    assert!(auto.entry_points.iter().any(|e| e == "cmd/main.rs"), "{auto:?}");
    assert!(text.contains("cmd/main.rs"));
    assert_eq!(auto.generation, r.generation);
    // Stored once read, and not detected again while nothing changes.
    assert!(fs::read_to_string(root.join(".codegraph/summary.md")).unwrap().contains("cmd/main.rs"));
    let edit = {
        write(root, "cmd/main.rs", "fn main() { run() }\n", &mut tick);
        apply(root, Request::Update(vec!["cmd/main.rs".into()]))
    };
    assert!(!edit.summary_outdated, "an edit that keeps types and methods keeps the summary");
    // A removal is seen too.
    apply(root, Request::Remove(vec!["cmd".into()]));
    let (_, auto) = project::summary::read(root).unwrap();
    assert!(!auto.entry_points.iter().any(|e| e == "cmd/main.rs"), "{auto:?}");
}

/// The code graph after edits, a rename and a delete answers as a fresh build:
/// a caller moved to another method, a callee renamed, a file of callers gone.
#[test]
fn graph_answers_follow_edits_renames_and_deletes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/graph/go");
    let mut tick = 0;
    for rel in
        ["go.mod", "store/store.go", "store/store_test.go", "billing/invoice.go", "billing/charge.go", "cmd/main.go"]
    {
        write(root, rel, &fs::read_to_string(src.join(rel)).unwrap(), &mut tick);
    }
    init(root, 4);
    assert_current(root, 4);
    let callers = |root: &Path| {
        let index = Index::open(root).unwrap();
        let g = Graph::new(&index);
        let defs = g.find("Store.Add").unwrap();
        g.callers(&defs, 1).unwrap().into_iter().map(|c| c.symbol.unwrap().qualified_name).collect::<Vec<_>>()
    };
    assert_eq!(callers(root), ["main.fill", "store.TestAdd"]);
    // main calls Store.Add itself now; fill no longer does (but for `a.Add(2)`
    // through the interface `Adder`: a possible dispatch, an ambiguous caller).
    let main = fs::read_to_string(root.join("cmd/main.go")).unwrap();
    let main = main.replace("\ts.Add(1)\n", "").replace("\tfill(s, s)\n", "\tfill(s, s)\n\ts.Add(9)\n");
    write(root, "cmd/main.go", &main, &mut tick);
    apply(root, Request::Update(vec!["cmd/main.go".into()]));
    assert_current(root, 4);
    assert_eq!(callers(root), ["main.fill", "main.main", "store.TestAdd"]);
    // The test file moves; the old path is gone.
    let test = fs::read_to_string(root.join("store/store_test.go")).unwrap();
    fs::remove_file(root.join("store/store_test.go")).unwrap();
    write(root, "store/add_test.go", &test, &mut tick);
    apply(root, Request::Update(vec![String::new()]));
    assert_current(root, 4);
    assert_eq!(callers(root), ["main.fill", "main.main", "store.TestAdd"]);
    // Store.Add renamed to Put: its old callers no longer bind to anything.
    let store =
        fs::read_to_string(root.join("store/store.go")).unwrap().replace("func (s *Store) Add", "func (s *Store) Put");
    write(root, "store/store.go", &store, &mut tick);
    apply(root, Request::Update(vec!["store/store.go".into()]));
    assert_current(root, 4);
    let index = Index::open(root).unwrap();
    assert!(Graph::new(&index).find("Store.Add").is_err());
    fs::remove_file(root.join("store/add_test.go")).unwrap();
    apply(root, Request::Remove(vec!["store/add_test.go".into()]));
    assert_current(root, 4);
}

//! Crash safety: `cg update` and `cg compact` killed (SIGKILL) at many points leave an
//! index that opens, verifies and answers exactly as either the previous or the
//! new generation — never a mix, never an error — and the next writer cleans up
//! what the killed one left behind.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use codegraph::extract::FileFacts;
use codegraph::project::{self, Index, InitOptions};
use codegraph::query::{search, Mode, Query};
use common::{brute_force, facts_of, flat, source};

const FILES: usize = 120;

/// Version `v` of the tree: every file's words shift with `v`, and a third of the
/// files exist only in one version.
fn write_version(root: &Path, v: usize) {
    for i in 0..FILES {
        let path = root.join(format!("m{}/f{i}.rs", i % 5));
        if (i + v).is_multiple_of(3) {
            let _ = fs::remove_file(&path);
            continue;
        }
        let words: Vec<(usize, usize)> = (0..60).map(|j| ((i * 7 + j + v * 11) % 40, (i + j + v) % 5)).collect();
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, source(0, &words)).unwrap();
    }
}

fn queries() -> Vec<Query> {
    let mut out = Vec::new();
    for t in ["Player", "health", "vortex_field", "Engine", "calc", "x"] {
        out.push(Query::new(t, Mode::Exact));
        let mut all = Query::new(t, Mode::StartsWith);
        all.limit = 0;
        out.push(all);
    }
    out
}

/// The answers of an index, or of a brute-force scan of facts, to compare.
type Answers = Vec<(Vec<(String, u32, codegraph::extract::LineType)>, u64)>;

fn answers_of_index(index: &Index) -> Answers {
    queries()
        .iter()
        .map(|q| {
            let m = search(index, q).unwrap();
            (flat(&m.hits), m.total)
        })
        .collect()
}

fn answers_of_facts(facts: &[FileFacts]) -> Answers {
    queries().iter().map(|q| brute_force(facts, q)).collect()
}

fn cg(root: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cg"));
    c.args(args).arg("--project").arg(root).current_dir(root);
    c.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    c
}

#[test]
fn killed_updates_and_compactions_leave_the_previous_or_the_new_generation() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // The expected answers of both versions, from trees of their own.
    let mut expected = Vec::new();
    for v in 0..2 {
        let d = tempfile::tempdir().unwrap();
        write_version(d.path(), v);
        expected.push(answers_of_facts(&facts_of(d.path())));
    }
    assert_ne!(expected[0], expected[1]);
    write_version(root, 0);
    let options = InitOptions { max_slots_per_segment: Some(32), ..InitOptions::default() };
    project::init(root, &options, &|_| {}).unwrap();

    // How long an uninterrupted update takes, to spread the kills over it.
    write_version(root, 1);
    let t = Instant::now();
    assert!(cg(root, &["update"]).status().unwrap().success());
    let full = t.elapsed();
    assert_eq!(answers_of_index(&Index::open(root).unwrap()), expected[1]);

    let kills = 24;
    let mut outcomes = [0usize; 2];
    for k in 0..kills {
        // Toggle the tree, then kill the writer at a point k/kills into its run.
        let v = k % 2;
        write_version(root, v);
        let compact = k % 6 == 5;
        let mut child = if compact { cg(root, &["compact"]) } else { cg(root, &["update"]) }.spawn().unwrap();
        // Spread over the run; the last two kills come well after it would have
        // finished, so both outcomes occur however the machine's speed drifts.
        let at = if k + 2 >= kills { 4.0 } else { k as f64 / kills as f64 * 1.2 };
        std::thread::sleep(full.mul_f64(at));
        let _ = child.kill();
        let _ = child.wait();

        let index = Index::open(root).unwrap_or_else(|e| panic!("kill {k}: the index does not open: {e}"));
        index.verify().unwrap_or_else(|e| panic!("kill {k}: {e}"));
        let got = answers_of_index(&index);
        let which = expected.iter().position(|e| *e == got);
        let which = which.unwrap_or_else(|| panic!("kill {k}: answers match neither generation"));
        outcomes[which] += 1;
        drop(index);

        // The next writer finishes the job and leaves no debris.
        assert!(cg(root, &["update", "--wait", "30"]).status().unwrap().success(), "kill {k}");
        let index = Index::open(root).unwrap();
        assert_eq!(answers_of_index(&index), expected[v], "after kill {k} and a completed update");
        let names: Vec<String> = fs::read_dir(root.join(".codegraph"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n.ends_with(".tmp")), "kill {k}: temp files left: {names:?}");
        let segs = names.iter().filter(|n| n.starts_with("seg-")).count();
        assert_eq!(segs, index.segments.len(), "kill {k}: unreferenced segments left: {names:?}");
    }
    // Kills landed both before and after the switch.
    eprintln!("kills leaving the previous / the new generation: {outcomes:?} (full update {full:?})");
    assert!(outcomes[0] > 0 && outcomes[1] > 0, "{outcomes:?}");
}

#[test]
fn a_reader_opening_while_writers_switch_generations_never_fails() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    write_version(&root, 0);
    project::init(&root, &InitOptions { max_slots_per_segment: Some(16), ..InitOptions::default() }, &|_| {}).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = std::thread::spawn({
        let (root, stop) = (root.clone(), stop.clone());
        move || {
            let mut opened = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let index = Index::open(&root).unwrap_or_else(|e| panic!("open during a switch: {e}"));
                search(&index, &Query::new("Player", Mode::Exact)).unwrap();
                opened += 1;
            }
            opened
        }
    });
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut v = 0;
    while Instant::now() < deadline {
        v += 1;
        write_version(&root, v % 2);
        let request =
            if v % 4 == 0 { project::Request::Compact } else { project::Request::Update(vec![String::new()]) };
        project::update(&root, &request, &project::UpdateOptions::default(), &|_| {}).unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(reader.join().unwrap() > 0);
}

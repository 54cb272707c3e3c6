//! Keeping a real index fresh: one-file update latency (edit, `update`, the new
//! line found by a fresh reader), a no-change rescan, `.codegraph/`'s size after
//! many single-file updates against a fresh build, and a compaction.
//!
//! Runs on `$CG_BENCH_INDEX` (an indexed project root), default
//! `~/corpus/kubernetes` when indexed. It EDITS FILES THERE — appends a comment line
//! to sampled files — and restores them at the end (then updates them back), so
//! point it at a corpus copy, never at a working tree. `$CG_BENCH_UPDATES` sets the
//! number of single-file updates (default 200).
//!
//!     CG_BENCH_INDEX=~/corpus CG_BENCH_UPDATES=1000 cargo bench --bench update

/// The allocator `cg` runs with (src/main.rs): what costs allocation here is
/// what it costs a user.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use codegraph::project::{self, Index, Request, UpdateOptions};
use codegraph::query::{search, Mode, Query};

fn pct(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn mib(b: u64) -> String {
    format!("{:.1} MiB", b as f64 / 1048576.0)
}

fn main() {
    let root = std::env::var_os("CG_BENCH_INDEX")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(&std::env::var_os("HOME").unwrap_or_default()).join("corpus/kubernetes"));
    let updates: usize = std::env::var("CG_BENCH_UPDATES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let Ok(index) = Index::open(&root) else {
        eprintln!("update bench: no index at {} (run `cg init` there or set CG_BENCH_INDEX)", root.display());
        return;
    };
    let opts = UpdateOptions::default();
    let files: Vec<String> = index.files().unwrap().iter().map(|f| f.path.to_string()).collect();
    let step = (files.len() / 100).max(1);
    let sample: Vec<String> = files.iter().step_by(step).take(100).cloned().collect();
    let originals: Vec<Vec<u8>> = sample.iter().map(|p| fs::read(root.join(p)).unwrap()).collect();
    let segments_before = index.segments.len();
    drop(index);
    println!("index: {} ({} files, {} segments)", root.display(), files.len(), segments_before);

    // A rescan that finds nothing (the first run may find files changed since the
    // index was built; it is reported and not counted).
    let first = project::update(&root, &Request::Update(vec![String::new()]), &opts, &|_| {}).unwrap();
    if first.changed() {
        println!("first rescan applied changes made since the build: {} updated", first.updated.len());
    }
    let mut rescans = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let r = project::update(&root, &Request::Update(vec![String::new()]), &opts, &|_| {}).unwrap();
        rescans.push(t.elapsed());
        assert!(!r.changed(), "the tree changed during the bench");
    }
    rescans.sort();
    println!(
        "no-change rescan of {} files: median {} (min {}, max {})",
        files.len(),
        ms(pct(&rescans, 0.5)),
        ms(rescans[0]),
        ms(rescans[4])
    );

    let fresh = project::store_bytes(&root);
    let mut update_times = Vec::with_capacity(updates);
    let mut visible_times = Vec::with_capacity(updates);
    let mut largest = fresh;
    let mut switch_times = Vec::with_capacity(updates);
    let mut phases: Vec<(&'static str, Vec<Duration>)> = Vec::new();
    for i in 0..updates {
        let k = i % sample.len();
        let path = root.join(&sample[k]);
        let mut bytes = originals[k].clone();
        bytes.extend_from_slice(format!("\n// cgbenchedit{i}\n").as_bytes());
        fs::write(&path, &bytes).unwrap();
        let t = Instant::now();
        let r = project::update(&root, &Request::Update(vec![sample[k].clone()]), &opts, &|_| {}).unwrap();
        let updated = t.elapsed();
        // What a server does next: reopen (the manifest changed) and answer.
        let index = Index::open(&root).unwrap();
        let m = search(&index, &Query::new(&format!("cgbenchedit{i}"), Mode::Exact)).unwrap();
        let visible = t.elapsed();
        assert_eq!(m.total, 1, "edit {i} not visible (report: {:?})", r.updated);
        update_times.push(updated);
        switch_times.push(Duration::from_millis(r.visible_ms));
        for (name, d) in &r.timings {
            match phases.iter_mut().find(|(n, _)| n == name) {
                Some((_, list)) => list.push(*d),
                None => phases.push((name, vec![*d])),
            }
        }
        visible_times.push(visible);
        largest = largest.max(project::store_bytes(&root));
        if (i + 1) % 100 == 0 {
            eprintln!("  {} updates: {} segments, {}", i + 1, index.segments.len(), mib(project::store_bytes(&root)));
        }
    }
    let after = project::store_bytes(&root);
    update_times.sort();
    visible_times.sort();
    println!(
        "one-file update ({updates} updates of {} files): p50 {} p90 {} p99 {} max {}",
        sample.len(),
        ms(pct(&update_times, 0.5)),
        ms(pct(&update_times, 0.9)),
        ms(pct(&update_times, 0.99)),
        ms(*update_times.last().unwrap())
    );
    switch_times.sort();
    println!(
        "  visible (manifest switched, before any merge): p50 {} p90 {} p99 {} max {} (ms resolution)",
        ms(pct(&switch_times, 0.5)),
        ms(pct(&switch_times, 0.9)),
        ms(pct(&switch_times, 0.99)),
        ms(*switch_times.last().unwrap())
    );
    for (name, list) in &mut phases {
        list.sort();
        println!(
            "  phase {name:<22} p50 {:>9} p99 {:>9} max {:>9} (in {} updates)",
            ms(pct(list, 0.5)),
            ms(pct(list, 0.99)),
            ms(*list.last().unwrap()),
            list.len()
        );
    }
    println!(
        "  edit visible to a fresh reader (update + open + query): p50 {} p99 {}",
        ms(pct(&visible_times, 0.5)),
        ms(pct(&visible_times, 0.99))
    );
    println!(
        ".codegraph/: fresh build {}, after {updates} updates {} ({:.2}x), largest on the way {}",
        mib(fresh),
        mib(after),
        after as f64 / fresh as f64,
        mib(largest)
    );

    let before = exact_latency(&root);

    // Restore the files as one batch, then compact.
    for (p, b) in sample.iter().zip(&originals) {
        fs::write(root.join(p), b).unwrap();
    }
    let t = Instant::now();
    let r = project::update(&root, &Request::Update(sample.clone()), &opts, &|_| {}).unwrap();
    println!("batch update restoring {} files: {} ({} updated)", sample.len(), ms(t.elapsed()), r.updated.len());
    let t = Instant::now();
    project::update(&root, &Request::Compact, &opts, &|_| {}).unwrap();
    println!(
        "compaction (copies every file, no parsing): {}, .codegraph/ now {}",
        ms(t.elapsed()),
        mib(project::store_bytes(&root))
    );
    let after = exact_latency(&root);
    println!(
        "exact lookup (limit 50, 300 terms x3, warm): with superseded slots and update segments p50 {} p99 {}; compacted p50 {} p99 {}",
        us(before.0),
        us(before.1),
        us(after.0),
        us(after.1)
    );
}

fn us(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

/// p50 and p99 of exact lookups (limit 50) of 300 terms spread over the first
/// segment's dictionary, warm.
fn exact_latency(root: &Path) -> (Duration, Duration) {
    use fst::Streamer;
    let index = Index::open(root).unwrap();
    let fst = index.segments[0].term_fst().unwrap();
    let step = (fst.len() / 300).max(1);
    let mut terms = Vec::new();
    let mut stream = fst.stream();
    let mut i = 0;
    while let Some((k, _)) = stream.next() {
        if i % step == 0 {
            terms.extend(std::str::from_utf8(k).ok().map(str::to_string));
        }
        i += 1;
    }
    drop(stream);
    let queries: Vec<Query> = terms
        .iter()
        .map(|t| {
            let mut q = Query::new(t, Mode::Exact);
            q.limit = 50;
            q
        })
        .collect();
    for q in &queries {
        search(&index, q).unwrap();
    }
    let mut times: Vec<Duration> = Vec::new();
    for _ in 0..3 {
        for q in &queries {
            let t = Instant::now();
            search(&index, q).unwrap();
            times.push(t.elapsed());
        }
    }
    times.sort();
    (pct(&times, 0.5), pct(&times, 0.99))
}

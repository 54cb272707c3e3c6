//! Query latency per mode, and the cost of opening an index.
//!
//! Runs on an indexed tree: `$CG_BENCH_INDEX` (a project root with a `.codegraph`),
//! default `~/corpus/kubernetes` when it is indexed (`cg init ~/corpus/kubernetes`),
//! else the fixtures, indexed into a temporary folder. Terms are a deterministic
//! sample of the index's own dictionary: rare, medium and frequent.
//!
//! Prints p50 / p90 / p99 / max per mode over the whole sample (single queries,
//! warm, in-process, first 50 hits + total, no source read), then runs criterion.
//!
//!     cargo bench --bench query
//!     CG_BENCH_INDEX=~/corpus CG_BENCH_MODES=starts_with cargo bench --bench query -- none
//!     CG_BENCH_MODES=contains CG_BENCH_EACH=1 cargo bench --bench query -- none  (each query's time and total)
//!     CG_BENCH_MODES=contains CG_BENCH_TERMS=ddin,lway cargo bench --bench query -- none  (these terms only)

/// The allocator `cg` runs with (src/main.rs): what costs allocation here is
/// what it costs a user.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use codegraph::project::{self, Index, InitOptions};
use codegraph::query::{search, Mode, Query};
use criterion::{criterion_group, criterion_main, Criterion};
use fst::Streamer;

fn index_root() -> (PathBuf, Option<tempfile::TempDir>) {
    if let Some(p) = std::env::var_os("CG_BENCH_INDEX") {
        return (PathBuf::from(p), None);
    }
    let k8s = Path::new(&std::env::var_os("HOME").unwrap_or_default()).join("corpus/kubernetes");
    if k8s.join(".codegraph/manifest.json").exists() {
        return (k8s, None);
    }
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    copy_dir(&src, dir.path());
    project::init(dir.path(), &InitOptions::default(), &|_| {}).unwrap();
    (dir.path().to_path_buf(), Some(dir))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Every 97th dictionary key of the first segment with its occurrence count.
fn sample_terms(index: &Index) -> Vec<(String, u64)> {
    let seg = &index.segments[0];
    let fst = seg.term_fst().unwrap();
    let mut stream = fst.stream();
    let mut out = Vec::new();
    let mut i = 0u64;
    while let Some((k, v)) = stream.next() {
        i += 1;
        if i.is_multiple_of(97) {
            if let (Ok(k), Ok(f)) = (std::str::from_utf8(k), seg.fold(v as u32)) {
                if k.len() >= 4 {
                    out.push((k.to_string(), f.occurrences));
                }
            }
        }
    }
    out
}

fn queries(terms: &[(String, u64)], mode: Mode) -> Vec<Query> {
    terms
        .iter()
        .take(600)
        .map(|(t, _)| {
            let chars: Vec<char> = t.chars().collect();
            let term: String = match mode {
                Mode::Exact | Mode::Subword => t.clone(),
                Mode::StartsWith => chars.iter().take(4).collect(),
                Mode::Contains => chars.iter().skip(1).take(4).collect(),
                Mode::Regex => format!("^{}.*{}$", regex_escape(&chars[..2]), regex_escape(&chars[chars.len() - 3..])),
            };
            let mut q = Query::new(&term, mode);
            q.limit = 50;
            q
        })
        .collect()
}

fn regex_escape(chars: &[char]) -> String {
    regex::escape(&chars.iter().collect::<String>())
}

fn percentiles(mut v: Vec<Duration>) -> String {
    v.sort();
    let at = |p: f64| v[((v.len() as f64 - 1.0) * p) as usize];
    format!(
        "p50 {:>9.1?}  p90 {:>9.1?}  p99 {:>9.1?}  max {:>9.1?}  (n={})",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0),
        v.len()
    )
}

fn bench(c: &mut Criterion) {
    let (root, _keep) = index_root();
    let index = Index::open(&root).unwrap();
    let terms = sample_terms(&index);
    eprintln!("index: {} ({} sample terms)", root.display(), terms.len());
    let mut opens = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let i = Index::open(&root).unwrap();
        opens.push(t.elapsed());
        drop(i);
    }
    eprintln!("{:<12} {}", "open", percentiles(opens));
    // `CG_BENCH_MODES=starts_with,contains` times only those modes (for profiling).
    let only = std::env::var("CG_BENCH_MODES").unwrap_or_default();
    let modes = [Mode::Exact, Mode::StartsWith, Mode::Contains, Mode::Regex];
    for mode in modes.into_iter().filter(|m| only.is_empty() || only.split(',').any(|o| o == m.name())) {
        let mut qs = queries(&terms, mode);
        // `CG_BENCH_TERMS=a,b` times these terms alone, in the mode (to profile them).
        if let Ok(list) = std::env::var("CG_BENCH_TERMS") {
            qs = list.split(',').map(|t| Query { limit: 50, ..Query::new(t, mode) }).collect();
        }
        for q in &qs {
            let _ = search(&index, q); // warm the pages
        }
        let times: Vec<Duration> = qs
            .iter()
            .map(|q| {
                let t = Instant::now();
                let r = search(&index, q);
                let e = t.elapsed();
                let total = std::hint::black_box(r.map(|m| m.total).unwrap_or(0));
                if std::env::var_os("CG_BENCH_EACH").is_some() {
                    eprintln!("  {} {:?}: {e:.1?}, total {total}", mode.name(), q.term);
                }
                e
            })
            .collect();
        eprintln!("{:<12} {}", mode.name(), percentiles(times));
    }

    let mut group = c.benchmark_group("query");
    group.sample_size(20);
    group.bench_function("open", |b| b.iter(|| Index::open(&root).unwrap()));
    for mode in [Mode::Exact, Mode::StartsWith, Mode::Contains, Mode::Regex] {
        let qs = queries(&terms, mode);
        group.bench_function(mode.name(), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % qs.len();
                search(&index, &qs[i]).map(|m| m.total).unwrap_or(0)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

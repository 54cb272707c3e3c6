//! Extraction against parse-only, per language, on real code.
//!
//! Files come from the trees of `shared/corpus/fetch` under `$CG_BENCH_CORPUS`
//! (default `~/corpus`): C# from mono, TypeScript and JavaScript from typescript,
//! Rust from rustc, Go from kubernetes, Python from django, Java from guava, C
//! from redis, C++ from leveldb, PHP from laravel, Ruby from rails; a
//! deterministic sample of up to
//! `$CG_BENCH_FILES` (default 400) files each, read into memory first. Without a
//! corpus the fixtures are used, so the bench always runs. `CG_BENCH_LANGUAGES`
//! (`python,java`) limits the languages; `CG_BENCH_RATIO_ONLY=1` prints the
//! interleaved ratios and skips criterion's groups; `CG_BENCH_ONLY=parse` or
//! `=extract` runs only that, for counting instructions under valgrind
//! (`--tool=callgrind`), one mode against the other (this machine has no
//! hardware counters, and its times vary between runs); `=walk` parses and
//! lists the nodes (the walk floor). `CG_BENCH_PER_FILE=1` also prints the 15
//! files whose extraction takes longest over their parse (one language's
//! overhead can be one large generated file's). `CG_BENCH_NO_GRAPH=1`
//! extracts without graph facts (`Extractor::set_graph_facts(false)`): the
//! ratio against a run without it is the graph's share.
//!
//!     cargo bench --bench extract

/// The allocator `cg` runs with (src/main.rs): extraction allocates more than
/// parsing, so the ratio is measured with what a user's build pays.
/// Tree-sitter's own allocations go to it too ([`use_mimalloc_in_tree_sitter`]).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use codegraph::extract::{read_source, walk, Extractor, WalkOptions};
use codegraph::lang::Language;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

struct Sample {
    language: Language,
    files: Vec<(String, Vec<u8>)>,
}

fn corpus_root() -> PathBuf {
    std::env::var_os("CG_BENCH_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(&std::env::var_os("HOME").unwrap_or_default()).join("corpus"))
}

fn samples() -> Vec<Sample> {
    let per_language: usize = std::env::var("CG_BENCH_FILES").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    let corpus = corpus_root();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/extract");
    let trees = [
        (Language::CSharp, "mono"),
        (Language::TypeScript, "typescript"),
        (Language::JavaScript, "typescript"),
        (Language::Rust, "rustc"),
        (Language::Go, "kubernetes"),
        (Language::Python, "django"),
        (Language::Java, "guava"),
        (Language::C, "redis"),
        (Language::Cpp, "leveldb"),
        (Language::Php, "laravel"),
        (Language::Ruby, "rails"),
    ];
    let only: Vec<Language> = std::env::var("CG_BENCH_LANGUAGES")
        .map(|v| v.split(',').filter_map(Language::from_name).collect())
        .unwrap_or_default();
    trees
        .iter()
        .filter(|(language, _)| only.is_empty() || only.contains(language))
        .map(|&(language, tree)| {
            let root = corpus.join(tree);
            let root = if root.join(".complete").exists() { root } else { fixtures.clone() };
            let options = WalkOptions { languages: vec![language], ..WalkOptions::default() };
            let found = walk(&root, &options).map(|w| w.files).unwrap_or_default();
            let step = (found.len() / per_language).max(1);
            let files = found
                .iter()
                .step_by(step)
                .take(per_language)
                .filter_map(|f| read_source(&f.abs, 2 << 20).ok().map(|(b, _)| (f.rel.clone(), b)))
                .collect();
            Sample { language, files }
        })
        .collect()
}

/// Parse-only and extraction timed file by file, alternating, so the machine's
/// drifts (this 2-core machine's speed varies between runs) hit both alike,
/// in an order that turns each round (`CG_BENCH_ORDER=fixed`: parse-only,
/// extraction, walk floor every round, as before; `=passes`: each over all
/// the files in turn, so that no file runs right after itself);
/// each file's time is its fastest of the `CG_BENCH_ROUNDS` rounds (default
/// 3), summed over the files (sums of every round moved a language's ratio by
/// up to 15 points between runs). The printed ratio is the extraction
/// overhead over parse-only; the walk floor is what listing every node as the
/// walk reads them (kind and field, nothing else) adds.
fn interleaved(samples: &[Sample]) {
    let rounds: usize = std::env::var("CG_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    eprintln!(
        "{:<11} {:>6} {:>9} {:>12} {:>12} {:>9} {:>11}",
        "language", "files", "MiB", "parse MiB/s", "extract MiB/s", "overhead", "walk floor"
    );
    for s in samples {
        let mut extractor = Extractor::new();
        if std::env::var_os("CG_BENCH_NO_GRAPH").is_some() {
            extractor.set_graph_facts(false);
        }
        // Each file's fastest time of the rounds, for each: a run's time is
        // its cost plus whatever else the machine did meanwhile, and the
        // fastest of a few is the closest to the cost.
        let mut best = vec![[Duration::MAX; 3]; s.files.len()];
        // The three run in turn, each first in one round of three: the run
        // after another of the same file is warmer (its bytes, the parser's
        // branches), and the first one each round was always parse-only.
        let order = std::env::var("CG_BENCH_ORDER").unwrap_or_default();
        let time = |extractor: &mut Extractor, k: usize, path: &str, src: &[u8]| {
            let t0 = Instant::now();
            match k {
                0 => black_box(extractor.parse_only(path, s.language, src)),
                1 => black_box(extractor.extract(path, s.language, src, 0).terms.len()),
                _ => black_box(extractor.parse_and_walk(path, s.language, src)),
            };
            t0.elapsed()
        };
        for round in 0..rounds {
            if order == "passes" {
                // Each kind over all the files in turn: no file is seen
                // twice in a row, as in `cg`, which parses each once.
                for step in 0..3 {
                    let k = (round + step) % 3;
                    for ((path, src), best) in s.files.iter().zip(&mut best) {
                        best[k] = best[k].min(time(&mut extractor, k, path, src));
                    }
                }
                continue;
            }
            for ((path, src), best) in s.files.iter().zip(&mut best) {
                for step in 0..3 {
                    let k = if order == "fixed" { step } else { (round + step) % 3 };
                    best[k] = best[k].min(time(&mut extractor, k, path, src));
                }
            }
        }
        let sum = |k: usize| best.iter().map(|b| b[k]).sum::<Duration>();
        let (parse, extract, walk) = (sum(0), sum(1), sum(2));
        if std::env::var_os("CG_BENCH_PER_FILE").is_some() {
            let mut per: Vec<(f64, f64, usize, &str)> = Vec::new();
            for (path, src) in &s.files {
                let (mut p, mut e) = (Duration::ZERO, Duration::ZERO);
                for _ in 0..3 {
                    let t0 = Instant::now();
                    black_box(extractor.parse_only(path, s.language, src));
                    let t1 = Instant::now();
                    black_box(extractor.extract(path, s.language, src, 0));
                    e += t1.elapsed();
                    p += t1 - t0;
                }
                per.push((p.as_secs_f64(), e.as_secs_f64(), src.len(), path));
            }
            per.sort_by(|a, b| (b.1 - b.0).total_cmp(&(a.1 - a.0)));
            eprintln!(
                "{:>10} {:>10} {:>8} {:>9}  file ({}, 3 runs each)",
                "parse",
                "extract",
                "overhead",
                "bytes",
                s.language.name()
            );
            for (p, e, n, path) in per.iter().take(15) {
                eprintln!("{:>8.2}ms {:>8.2}ms {:>7.1}% {:>9}  {}", p * 1e3, e * 1e3, (e / p - 1.0) * 100.0, n, path);
            }
        }
        let mib = s.files.iter().map(|(_, b)| b.len()).sum::<usize>() as f64 / 1048576.0;
        eprintln!(
            "{:<11} {:>6} {:>9.1} {:>12.2} {:>12.2} {:>8.1}% {:>10.1}%",
            s.language.name(),
            s.files.len(),
            mib,
            mib / parse.as_secs_f64(),
            mib / extract.as_secs_f64(),
            (extract.as_secs_f64() / parse.as_secs_f64() - 1.0) * 100.0,
            (walk.as_secs_f64() / parse.as_secs_f64() - 1.0) * 100.0
        );
    }
}

/// `CG_BENCH_ONLY=parse|extract`: only that, over the sample `CG_BENCH_ROUNDS`
/// times (default 3), for `perf stat` to count instructions and cycles of one
/// against the other. Never inlined: under callgrind its inclusive count is
/// the work without loading the sample (the corpus walk runs on threads, and
/// its count varies from run to run by more than a language's extraction).
/// Parse budgets are lifted (see the body).
#[inline(never)]
fn only(samples: &[Sample], what: &str) {
    let rounds: usize = std::env::var("CG_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let mut extractor = Extractor::new();
    if std::env::var_os("CG_BENCH_NO_GRAPH").is_some() {
        extractor.set_graph_facts(false);
    }
    // Valgrind runs code ~50 times slower: with the budget as it is, a large
    // file's parse would be cut off (and read as words) in both modes, though
    // it finishes in a real run.
    extractor.set_parse_budget_scale(1000);
    for _ in 0..rounds {
        for s in samples {
            for (path, src) in &s.files {
                match what {
                    "parse" => black_box(extractor.parse_only(path, s.language, src)),
                    "walk" => black_box(extractor.parse_and_walk(path, s.language, src)),
                    _ => black_box(extractor.extract(path, s.language, src, 0).terms.len()),
                };
            }
        }
    }
}

/// Tree-sitter's allocations go to mimalloc too, as `cg`'s do (src/main.rs):
/// with the C library's malloc a large file's tree is scattered, and walking
/// it again costs more than it does in `cg`.
#[allow(unsafe_code)]
fn use_mimalloc_in_tree_sitter() {
    use libmimalloc_sys::{mi_calloc, mi_free, mi_malloc, mi_realloc};
    // SAFETY: this runs before any parser or tree exists, so no block allocated
    // by one allocator is ever freed by the other; the four functions have the
    // C signatures tree-sitter expects.
    unsafe { tree_sitter::set_allocator(Some(mi_malloc), Some(mi_calloc), Some(mi_realloc), Some(mi_free)) };
}

fn bench(c: &mut Criterion) {
    use_mimalloc_in_tree_sitter();
    let samples = samples();
    if let Ok(what) = std::env::var("CG_BENCH_ONLY") {
        only(&samples, &what);
        return;
    }
    interleaved(&samples);
    if std::env::var_os("CG_BENCH_RATIO_ONLY").is_some() {
        return;
    }
    let mut group = c.benchmark_group("extract");
    group.sample_size(10);
    for sample in samples {
        if sample.files.is_empty() {
            continue;
        }
        let bytes: usize = sample.files.iter().map(|(_, b)| b.len()).sum();
        group.throughput(Throughput::Bytes(bytes as u64));
        let name = sample.language.name();
        let mut extractor = Extractor::new();
        group.bench_with_input(BenchmarkId::new("parse_only", name), &sample, |b, s| {
            b.iter(|| s.files.iter().map(|(p, src)| extractor.parse_only(p, s.language, src)).sum::<usize>())
        });
        group.bench_with_input(BenchmarkId::new("extract", name), &sample, |b, s| {
            b.iter(|| {
                s.files.iter().map(|(p, src)| extractor.extract(p, s.language, src, 0).terms.len()).sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

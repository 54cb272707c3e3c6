//! Extraction against parse-only, per language, on real code.
//!
//! Files come from the trees of `shared/corpus/fetch` under `$CG_BENCH_CORPUS`
//! (default `~/corpus`): C# from mono, TypeScript and JavaScript from typescript,
//! Rust from rustc, Go from kubernetes; a deterministic sample of up to
//! `$CG_BENCH_FILES` (default 400) files each, read into memory first. Without a
//! corpus the fixtures are used, so the bench always runs.
//!
//!     cargo bench --bench extract

use std::path::{Path, PathBuf};

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
    ];
    trees
        .iter()
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

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("extract");
    group.sample_size(10);
    for sample in samples() {
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

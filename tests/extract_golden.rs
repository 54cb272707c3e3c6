//! Golden tests: every source file under `fixtures/extract/` is extracted and
//! rendered; the result must equal the `.golden` file beside it. The golden files
//! were read and checked by hand. After an intended change, regenerate them with
//! `UPDATE_GOLDEN=1 cargo test --test extract_golden` and read the diff.

use std::fs;
use std::path::{Path, PathBuf};

use codegraph::extract::{render, Extractor};
use codegraph::lang::Language;

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/extract");
    let mut out = Vec::new();
    for dir in fs::read_dir(&root).expect("fixtures/extract exists") {
        for file in fs::read_dir(dir.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if Language::from_path(&path).is_some() {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn extraction_matches_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut extractor = Extractor::new();
    let mut failures = Vec::new();
    let files = fixtures();
    assert!(files.len() >= 5, "expected fixtures for every language");
    for path in files {
        let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        let bytes = fs::read(&path).unwrap();
        let facts = extractor.extract(&rel, Language::from_path(&path).unwrap(), &bytes, 0);
        let actual = render(&facts, &String::from_utf8_lossy(&bytes));
        let golden = path.with_file_name(format!("{}.golden", path.file_name().unwrap().to_string_lossy()));
        if update {
            fs::write(&golden, &actual).unwrap();
            continue;
        }
        let expected = fs::read_to_string(&golden).unwrap_or_default();
        if expected != actual {
            failures.push(format!("{rel}: differs from {}", golden.display()));
            let _ = fs::write(golden.with_extension("golden.actual"), &actual);
        }
    }
    assert!(failures.is_empty(), "{}\n(see the .actual files; UPDATE_GOLDEN=1 regenerates)", failures.join("\n"));
}

/// `cg bench --graph-cost` compares a build with one whose extraction leaves
/// graph facts out: that must change nothing else (terms, line types,
/// structure, the package), or the comparison measures something else.
#[test]
fn extraction_without_graph_facts_differs_only_in_references_and_imports() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut with = Extractor::new();
    let mut without = Extractor::new();
    without.set_graph_facts(false);
    let (mut refs, mut imports) = (0, 0);
    let mut files = fixtures();
    files.extend(walk_files(&root.join("fixtures/graph")));
    for path in files {
        let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        let bytes = fs::read(&path).unwrap();
        let language = Language::from_path(&path).unwrap();
        let mut full = with.extract(&rel, language, &bytes, 0);
        let bare = without.extract(&rel, language, &bytes, 0);
        assert!(bare.refs.is_empty() && bare.imports.is_empty(), "{rel}: graph facts extracted");
        refs += std::mem::take(&mut full.refs).len();
        imports += std::mem::take(&mut full.imports).len();
        assert_eq!(full, bare, "{rel}: facts other than the graph's differ");
    }
    assert!(refs > 500 && imports > 50, "the fixtures hold graph facts: {refs} references, {imports} imports");
}

fn walk_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk_files(&path));
        } else if Language::from_path(&path).is_some() {
            out.push(path);
        }
    }
    out
}

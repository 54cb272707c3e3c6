//! The index against a brute-force scan of the extracted facts: every mode, with
//! and without filters, on the fixtures and on generated trees that cross segment
//! boundaries.

use std::fs;
use std::path::Path;

use codegraph::extract::{extract_files, walk, FileFacts, LineType, WalkOptions};
use codegraph::project::{self, Index, InitOptions};
use codegraph::query::{search, Hit, Matcher, Mode, Query};
use proptest::prelude::*;

fn build(root: &Path, segment_slots: u32) -> Index {
    let options = InitOptions { max_slots_per_segment: Some(segment_slots), ..InitOptions::default() };
    project::init(root, &options, &|_| {}).expect("init");
    Index::open(root).expect("open")
}

fn facts_of(root: &Path) -> Vec<FileFacts> {
    let w = walk(root, &WalkOptions::default()).unwrap();
    extract_files(&w.files, u64::MAX).into_iter().map(|o| o.unwrap()).collect()
}

/// What the index must answer: a scan of every (term, line) of every file.
fn brute_force(facts: &[FileFacts], q: &Query) -> (Vec<(String, u32, LineType)>, u64) {
    let matcher = Matcher::new(&q.term, q.mode, q.case_sensitive).unwrap();
    let glob = q
        .file_filter
        .as_ref()
        .map(|g| globset::GlobBuilder::new(g).literal_separator(true).build().unwrap().compile_matcher());
    let mut found: Vec<(String, u32, LineType)> = Vec::new();
    for f in facts {
        if glob.as_ref().is_some_and(|g| !g.is_match(&f.path)) {
            continue;
        }
        let mut lines: Vec<u32> =
            f.terms.iter().filter(|t| matcher.matches(&t.term)).flat_map(|t| t.lines.iter().copied()).collect();
        lines.sort_unstable();
        lines.dedup();
        for l in lines {
            let ty = f.line_types[l as usize - 1];
            if q.types.is_empty() || q.types.contains(&ty) {
                found.push((f.path.clone(), l, ty));
            }
        }
    }
    let total = found.len() as u64;
    let (mut defs, rest): (Vec<_>, Vec<_>) = found.into_iter().partition(|h| h.2.is_definition());
    defs.extend(rest);
    if q.limit > 0 {
        defs.truncate(q.limit);
    }
    (defs, total)
}

fn flat(hits: &[Hit]) -> Vec<(String, u32, LineType)> {
    hits.iter().map(|h| (h.path.clone(), h.line, h.line_type)).collect()
}

fn check(index: &Index, facts: &[FileFacts], q: &Query) {
    let got = search(index, q).unwrap_or_else(|e| panic!("{q:?}: {e}"));
    let (want, total) = brute_force(facts, q);
    assert_eq!(got.total, total, "total for {q:?}");
    assert_eq!(flat(&got.hits), want, "hits for {q:?}");
}

/// A spread of queries over the terms that exist: whole terms, prefixes,
/// substrings, case changes, regexes.
fn queries_for(facts: &[FileFacts]) -> Vec<Query> {
    let mut terms: Vec<&str> = facts.iter().flat_map(|f| f.terms.iter().map(|t| t.term.as_str())).collect();
    terms.sort_unstable();
    terms.dedup();
    let step = (terms.len() / 25).max(1);
    let mut out = Vec::new();
    for (i, t) in terms.iter().step_by(step).enumerate() {
        let upper = t.to_uppercase();
        let chars: Vec<char> = t.chars().collect();
        let prefix: String = chars.iter().take(chars.len().div_ceil(2).max(1)).collect();
        let middle: String = chars.iter().skip(1).take(3).collect();
        let mut qs = vec![
            Query::new(t, Mode::Exact),
            Query::new(&upper, Mode::Exact),
            Query::new(&prefix, Mode::StartsWith),
            Query::new(if middle.is_empty() { t } else { &middle }, Mode::Contains),
            Query::new(&format!("^{}", regex::escape(&prefix)), Mode::Regex),
            Query::new(&format!("{}.*", regex::escape(&middle)), Mode::Regex),
        ];
        if i % 3 == 0 {
            let mut cs = Query::new(t, Mode::Contains);
            cs.case_sensitive = true;
            qs.push(cs);
            let mut cs_upper = Query::new(&upper, Mode::Exact);
            cs_upper.case_sensitive = true;
            qs.push(cs_upper);
        }
        for (j, mut q) in qs.into_iter().enumerate() {
            q.limit = [0, 1, 3, 100][(i + j) % 4];
            if (i + j) % 5 == 0 {
                q.types = vec![LineType::Code, LineType::Method];
            }
            if (i + j) % 7 == 0 {
                q.file_filter = Some("**/*.rs".into());
            }
            out.push(q);
        }
    }
    out.push(Query::new("e", Mode::Contains));
    out.push(Query::new("zz_no_such_term_zz", Mode::Exact));
    out.push(Query::new("a|b", Mode::Regex));
    out
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

const WORDS: &[&str] = &[
    "Player",
    "player",
    "PLAYER",
    "PlayerHealth",
    "updatePlayer",
    "health",
    "Health",
    "damage",
    "Vortex",
    "vortex_field",
    "x",
    "ab",
    "abc",
    "Größe",
    "größe",
    "engine",
    "Engine",
    "calc",
    "CalculateDamage",
];

fn source(lang: usize, words: &[(usize, usize)]) -> String {
    let mut out = String::new();
    for (i, &(w, shape)) in words.iter().enumerate() {
        let w = WORDS[w % WORDS.len()];
        let line = match (lang, shape % 5) {
            (0, 0) => format!("fn {w}_{i}() {{ let {w} = 1; }}"),
            (0, 1) => format!("// {w} comment"),
            (0, 2) => format!("struct {w}{i} {{ {w}: u8 }}"),
            (0, 3) => format!("const S{i}: &str = \"{w} text\";"),
            (1, 0) => format!("func {w}{i}() {{ {w} := 1 }}"),
            (1, 1) => format!("// {w} note"),
            (1, 2) => format!("type {w}{i} struct {{ {w} int }}"),
            (2, 0) => format!("function {w}{i}() {{ return {w}; }}"),
            (2, 1) => format!("/* {w} */"),
            (2, 2) => format!("class {w}{i} {{ {w} = 1; }}"),
            _ => format!("{w} = {w} + 1;"),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
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

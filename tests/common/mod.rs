//! Shared by the index tests: a brute-force oracle over extracted facts, the
//! queries to ask it, and generated source files.

#![allow(dead_code)]

use std::path::Path;

pub mod tiny_model;

use codegraph::extract::{extract_files, walk, FileFacts, LineType, WalkOptions};
use codegraph::project::Index;
use codegraph::query::{search, Hit, Matcher, Mode, Query};

pub fn facts_of(root: &Path) -> Vec<FileFacts> {
    let w = walk(root, &WalkOptions::default()).unwrap();
    extract_files(&w.files, u64::MAX).into_iter().map(|o| o.unwrap()).collect()
}

/// What the index must answer: a scan of every (term, line) of every file.
pub fn brute_force(facts: &[FileFacts], q: &Query) -> (Vec<(String, u32, LineType)>, u64) {
    let matcher = Matcher::new(&q.term, q.mode, q.case_sensitive).unwrap();
    let glob = codegraph::query::PathFilter::new(&q.file_filter).unwrap();
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
    // An exact term: the lines defining it lead (its spelling as given first,
    // then other spellings, each in path order), then other definition lines.
    let mut lead: Vec<(bool, String, u32)> = Vec::new();
    // A single subword: the definitions named by it whole lead.
    let parts: Vec<&str> = codegraph::extract::words::subwords(&q.term).collect();
    let lead_matcher = match (q.mode, parts.as_slice()) {
        (Mode::Exact, _) => Some(matcher),
        (Mode::Subword, [one]) => Some(Matcher::new(one, Mode::Exact, q.case_sensitive).unwrap()),
        _ => None,
    };
    if let Some(matcher) = lead_matcher.filter(|_| !q.path_order) {
        for f in facts {
            let names = f.types.iter().map(|d| (&d.name, d.line));
            let names = names.chain(f.methods.iter().map(|d| (&d.name, d.line)));
            for (name, line) in names.chain(f.properties.iter().map(|d| (&d.name, d.line))) {
                // The name itself is a term of that line (not an attribute or a
                // decorator line above it), typed as a definition.
                let named = f.terms.iter().any(|t| t.term == *name && t.lines.contains(&line));
                if matcher.matches(name)
                    && named
                    && found.iter().any(|h| h.0 == f.path && h.1 == line && h.2.is_definition())
                {
                    lead.push((*name != q.term, f.path.clone(), line));
                }
            }
        }
    }
    lead.sort();
    let mut led: Vec<(String, u32, LineType)> = Vec::new();
    for (_, path, line) in lead {
        if !led.iter().any(|h| h.0 == path && h.1 == line) {
            let ty = found.iter().find(|h| h.0 == path && h.1 == line).map(|h| h.2).unwrap();
            led.push((path, line, ty));
        }
    }
    found.retain(|h| !led.iter().any(|l| l.0 == h.0 && l.1 == h.1));
    let (defs, rest): (Vec<_>, Vec<_>) = found.into_iter().partition(|h| h.2.is_definition());
    let mut defs: Vec<_> = led.into_iter().chain(defs).collect();
    defs.extend(rest);
    if q.limit > 0 {
        defs.truncate(q.limit);
    }
    (defs, total)
}

pub fn flat(hits: &[Hit]) -> Vec<(String, u32, LineType)> {
    hits.iter().map(|h| (h.path.clone(), h.line, h.line_type)).collect()
}

pub fn check(index: &Index, facts: &[FileFacts], q: &Query) {
    let got = search(index, q).unwrap_or_else(|e| panic!("{q:?}: {e}"));
    let (want, total) = brute_force(facts, q);
    assert_eq!(got.total, total, "total for {q:?}");
    assert_eq!(flat(&got.hits), want, "hits for {q:?}");
    // Every key checked and every union gathered in parts on the pool, as line
    // bits: the same answer (on real trees only large queries take these paths).
    let tuning = codegraph::query::Tuning { part_candidates: 1, part_variants: 1, bits_postings: 0 };
    let parts = codegraph::query::search_tuned(index, q, tuning).unwrap_or_else(|e| panic!("{q:?} in parts: {e}"));
    assert_eq!(parts.total, total, "total for {q:?} in parts");
    assert_eq!(flat(&parts.hits), want, "hits for {q:?} in parts");
}

/// A spread of queries over the terms that exist: whole terms, prefixes,
/// substrings, case changes, regexes.
pub fn queries_for(facts: &[FileFacts]) -> Vec<Query> {
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
            Query { path_order: true, ..Query::new(t, Mode::Exact) },
            Query::new(&upper, Mode::Exact),
            Query::new(&prefix, Mode::StartsWith),
            Query::new(if middle.is_empty() { t } else { &middle }, Mode::Contains),
            Query::new(&format!("^{}", regex::escape(&prefix)), Mode::Regex),
            Query::new(&format!("{}.*", regex::escape(&middle)), Mode::Regex),
            // Anchored, with a literal at each end (the prefix narrows the trigram
            // candidates to one range of keys).
            Query::new(&format!("^{}.*{}$", regex::escape(&prefix), regex::escape(&middle)), Mode::Regex),
        ];
        // Subwords: the first, the last upper-cased, the first two in a row.
        let parts: Vec<&str> = codegraph::extract::words::subwords(t).collect();
        if let Some(first) = parts.first() {
            qs.push(Query::new(first, Mode::Subword));
            qs.push(Query::new(&parts[parts.len() - 1].to_uppercase(), Mode::Subword));
        }
        if parts.len() > 1 {
            qs.push(Query::new(&format!("{}_{}", parts[0], parts[1]), Mode::Subword));
        }
        if i % 3 == 0 {
            if let Some(last) = parts.last() {
                let mut cs = Query::new(last, Mode::Subword);
                cs.case_sensitive = true;
                qs.push(cs);
            }
            let mut cs = Query::new(t, Mode::Contains);
            cs.case_sensitive = true;
            qs.push(cs);
            let mut cs_regex = Query::new(&format!("^{}", regex::escape(&prefix)), Mode::Regex);
            cs_regex.case_sensitive = true;
            qs.push(cs_regex);
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
                q.file_filter = vec!["**/*.rs".into()];
            }
            if (i + j) % 11 == 0 {
                q.file_filter = vec!["*.go".into(), "*.rs".into(), "!a*".into()];
            }
            out.push(q);
        }
    }
    out.push(Query::new("e", Mode::Contains));
    out.push(Query::new("zz_no_such_term_zz", Mode::Exact));
    out.push(Query::new("a|b", Mode::Regex));
    out.push(Query::new("player_health", Mode::Subword));
    out.push(Query::new("Health", Mode::Subword));
    out.push(Query::new("calculate damage", Mode::Subword));
    out
}

pub const WORDS: &[&str] = &[
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

pub fn source(lang: usize, words: &[(usize, usize)]) -> String {
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

/// A copy of `fixtures/graph/LANG`, indexed.
pub fn indexed_graph_fixture(lang: &str) -> (tempfile::TempDir, Index) {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/graph").join(lang);
    copy_dir(&src, dir.path());
    codegraph::project::init(dir.path(), &codegraph::project::InitOptions::default(), &|_| {}).unwrap();
    let index = Index::open(dir.path()).unwrap();
    (dir, index)
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// A project of `files` (path, text), indexed.
pub fn indexed_project(files: &[(&str, &str)]) -> (tempfile::TempDir, Index) {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    codegraph::project::init(dir.path(), &codegraph::project::InitOptions::default(), &|_| {}).unwrap();
    let index = Index::open(dir.path()).unwrap();
    (dir, index)
}

//! Symbol search (`Graph::search`, `cg search`): subword splitting of the query
//! and of names, BM25 ranking with the whole-name bonus, path / kind / test
//! signals, and list pruning checked against reading every list.

use std::path::Path;

use codegraph::graph::Graph;
use codegraph::project::Index;
use proptest::prelude::*;

mod common;

fn project(files: &[(&str, &str)]) -> (tempfile::TempDir, Index) {
    common::indexed_project(files)
}

/// `name file:line` of each result.
fn search(index: &Index, text: &str, limit: usize) -> Vec<String> {
    let g = Graph::new(index);
    g.search(text, limit).unwrap().hits.iter().map(|h| format!("{} {}:{}", h.name, h.file, h.line)).collect()
}

const COLORS: &[(&str, &str)] = &[
    (
        "src/color.ts",
        "export function hexStringToColor(hex: string): Color {\n  return parse(hex);\n}\n\
         export function colorToHex(c: Color): string {\n  return '';\n}\n\
         export function hexString(n: number): string {\n  return '';\n}\n\
         export class Color {\n  red = 0;\n}\n",
    ),
    ("src/strings.ts", "export function stringToColor(s: string) {}\nexport class ColorParser {}\n"),
    ("util/convert.go", "package util\n\nfunc HexToString(h int) string { return \"\" }\n"),
    ("web/html.py", "class HTMLParser:\n    def parse_html(self, text):\n        pass\n"),
];

#[test]
fn hex_string_to_color_finds_hex_string_to_color_first() {
    let (_dir, index) = project(COLORS);
    let got = search(&index, "hex string to color", 10);
    assert_eq!(got[0], "hexStringToColor src/color.ts:1", "{got:#?}");
    // Every other name holding some of the words follows; none holding none.
    assert!(got.iter().any(|h| h.starts_with("stringToColor ")), "{got:#?}");
    assert!(got.iter().all(|h| !h.starts_with("red ")), "{got:#?}");
    // The same name written as an identifier, in another case, or snake case.
    for q in ["hexStringToColor", "HEX_STRING_TO_COLOR", "hex-string-to-color"] {
        assert_eq!(search(&index, q, 1), ["hexStringToColor src/color.ts:1"], "{q}");
    }
    // Acronyms split: `HTMLParser` is html + parser.
    assert_eq!(search(&index, "html parser", 1), ["HTMLParser web/html.py:1"]);
    assert_eq!(search(&index, "parse html", 1), ["parse_html web/html.py:2"]);
}

/// The whole-query bonus goes to a name spelled as the query: holding all of
/// its subwords (`getUser`), or one word spelled so (`hexStringToColor` for
/// "hexstringtocolor"), not to one that only puts the same letters together
/// (`get_us_er` holds `get`, not `user`). Scored without reading names (format
/// v12's subword counts), the answer is the exhaustive one.
#[test]
fn the_whole_query_bonus_needs_the_query_spelled_whole() {
    let (_dir, index) = project(&[
        (
            "a.go",
            "package a\n\nfunc get_us_er() {}\nfunc getUser() {}\nfunc getUserName() {}\nfunc get() {}\n             func hexStringToColor() {}\nfunc hexstringtocolors() {}\n",
        ),
        ("b.go", "package a\n\nfunc user() {}\nfunc userGet() {}\nfunc getOther() {}\n"),
    ]);
    let scored = |q: &str, exhaustive: bool| -> Vec<(String, String)> {
        let g = if exhaustive { Graph::new(&index).exhaustive() } else { Graph::new(&index) };
        g.search(q, 20).unwrap().hits.into_iter().map(|h| (h.name, format!("{:.3}", h.score))).collect()
    };
    let got = scored("get user", false);
    assert_eq!(got, scored("get user", true));
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names[..3], ["getUser", "userGet", "getUserName"], "{got:?}");
    let score = |n: &str| got.iter().find(|(m, _)| m == n).unwrap().1.parse::<f64>().unwrap();
    // `get_us_er` scores as `getOther` would with three subwords: below both
    // words' holders, no bonus.
    assert!(score("get_us_er") < score("getOther"), "{got:?}");
    assert!(score("getUser") > score("userGet") + 0.5, "{got:?}");
    let got = scored("hexstringtocolor", false);
    assert_eq!(got, scored("hexstringtocolor", true));
    assert_eq!(got[0].0, "hexStringToColor", "{got:?}");
}

/// Names scored without being split (all of a group tie) are read only as
/// far as the answer can ask for them; a name defined in two segments is in
/// the group twice, and the first names by byte order must still be as many
/// distinct ones as the answer can ask for, or a pruned search expands fewer
/// names than an exhaustive one (here the later names' files rank first).
#[test]
fn names_in_two_segments_are_counted_once_where_ties_are_cut() {
    let n = 300;
    let mut first: Vec<(String, String)> = (0..n)
        .map(|i| (format!("m/x{:03}.go", n - 1 - i), format!("package m\n\nfunc userQ{i:03}() {{}}\n")))
        .collect();
    // A name holding `id`, so that the names holding only `user` hold some
    // of the query's subwords, not all.
    first.push(("z/other.go".into(), "package z\n\nfunc getId() {}\n".into()));
    let refs: Vec<(&str, &str)> = first.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let (dir, index) = project(&refs);
    drop(index);
    for i in 0..n {
        let path = dir.path().join(format!("n/y{i:03}.go"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, format!("package n\n\nfunc userQ{i:03}() {{}}\n")).unwrap();
    }
    let options = codegraph::project::UpdateOptions::default();
    codegraph::project::update(dir.path(), &codegraph::project::Request::Update(vec!["n".into()]), &options, &|_| {})
        .unwrap();
    let index = Index::open(dir.path()).unwrap();
    assert_eq!(index.segments.len(), 2);
    let answer = |g: Graph<'_>| -> Vec<String> {
        g.search("user id", 30).unwrap().hits.iter().map(|h| format!("{} {}", h.name, h.file)).collect()
    };
    let pruned = answer(Graph::new(&index));
    assert_eq!(pruned, answer(Graph::new(&index).exhaustive()));
    assert_eq!(pruned.len(), 30);
    // 120 names expand (the answer's 4 × 30): getId and userQ000..userQ118.
    assert_eq!(pruned[..2], ["getId z/other.go", "userQ118 m/x181.go"], "{pruned:?}");
}

#[test]
fn a_search_answers_kind_qualified_name_and_nothing_for_unknown_words() {
    let (_dir, index) = project(COLORS);
    let g = Graph::new(&index);
    let found = g.search("color parser", 3).unwrap();
    assert_eq!(found.subwords, ["color", "parser"]);
    let top = &found.hits[0];
    assert_eq!(
        (top.name.as_str(), top.kind.as_str(), top.qualified_name.as_str()),
        ("ColorParser", "class", "strings.ColorParser")
    );
    assert!(g.search("zebra quokka", 10).unwrap().hits.is_empty());
    assert!(g.search("  -- ", 10).unwrap().subwords.is_empty());
}

#[test]
fn tests_vendored_and_nested_definitions_rank_after_the_others() {
    let (_dir, index) = project(&[
        ("a/store_test.go", "package a\n\nfunc OpenStore() {}\n"),
        ("vendor/x/store.go", "package x\n\nfunc OpenStore() {}\n"),
        ("z/store.go", "package z\n\nfunc OpenStore() {}\n"),
    ]);
    let got = search(&index, "open store", 10);
    assert_eq!(got[0], "OpenStore z/store.go:3", "{got:#?}");
    assert_eq!(got.len(), 3);
}

#[test]
fn the_path_breaks_ties_between_names() {
    let (_dir, index) = project(&[
        ("billing/invoice.go", "package billing\n\nfunc Total() int { return 0 }\n"),
        ("cart/cart.go", "package cart\n\nfunc Total() int { return 0 }\n"),
    ]);
    assert_eq!(search(&index, "invoice total", 1), ["Total billing/invoice.go:3"]);
    assert_eq!(search(&index, "cart total", 1), ["Total cart/cart.go:3"]);
}

const VOCAB: &[&str] = &["get", "set", "user", "by", "id", "name", "store", "open", "close", "item", "list", "to"];

/// A name of the VOCAB words `parts` in a style (camel, Pascal, snake), with a
/// word of its own (`q17`) when `n` is odd, so that names are many.
fn ident(parts: &[usize], style: usize, n: usize) -> String {
    let own = format!("q{n}");
    let mut words: Vec<&str> = parts.iter().map(|&i| VOCAB[i % VOCAB.len()]).collect();
    if n % 2 == 1 {
        words.push(&own);
    }
    let cap = |w: &str| w[..1].to_uppercase() + &w[1..];
    match style % 3 {
        0 => words[0].to_string() + &words[1..].iter().map(|w| cap(w)).collect::<String>(),
        1 => words.iter().map(|w| cap(w)).collect(),
        _ => words.join("_"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Skipping the lists that cannot change the best names (MaxScore) gives
    /// the answer reading every list gives.
    #[test]
    fn pruned_search_answers_like_reading_every_list(
        names in prop::collection::vec((prop::collection::vec(0usize..12, 1..5), 0usize..3), 100..400),
        queries in prop::collection::vec(prop::collection::vec(0usize..12, 1..4), 1..8),
        limit in 1usize..60,
    ) {
        let mut files: Vec<(String, String)> = Vec::new();
        for (i, chunk) in names.chunks(16).enumerate() {
            let mut text = String::from("package p\n\n");
            for (j, (parts, style)) in chunk.iter().enumerate() {
                text.push_str(&format!("func {}() {{}}\n", ident(parts, *style, i * 16 + j)));
            }
            // Test and vendored files among them, whose paths cost their
            // definitions a penalty the search keeps once it has read it.
            // Some paths hold a query word, so that a later file can outrank
            // an earlier one by its path.
            let stem = match i % 2 {
                0 => format!("f{i}"),
                _ => format!("{}_f{i}", VOCAB[(i * 7) % VOCAB.len()]),
            };
            let path = match i % 5 {
                1 | 3 => format!("d{}/{stem}_test.go", i % 3),
                2 => format!("third_party/d{}/{stem}.go", i % 3),
                _ => format!("d{}/{stem}.go", i % 3),
            };
            files.push((path, text));
        }
        let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let (_dir, index) = project(&refs);
        for q in &queries {
            let text = q.iter().map(|&i| VOCAB[i]).collect::<Vec<_>>().join(" ");
            let show = |g: Graph<'_>| -> (Vec<(String, String, u32, String)>, usize) {
                let found = g.search(&text, limit).unwrap();
                let hits = found.hits.into_iter().map(|h| (h.name, h.file, h.line, format!("{:.3}", h.score))).collect();
                (hits, found.names_scored)
            };
            let (pruned, scored) = show(Graph::new(&index));
            let (all, all_scored) = show(Graph::new(&index).exhaustive());
            prop_assert_eq!(&pruned, &all, "{}", text);
            // Again, with every path the answers read classed by the index.
            let (again, _) = show(Graph::new(&index));
            prop_assert_eq!(&again, &all, "{} (paths classed)", text);
            prop_assert!(pruned.len() <= limit);
            prop_assert!(scored <= all_scored);
        }
    }
}

/// The property above is not vacuous: with more names holding both words than
/// an answer expands, the names holding one are never scored, and the answer
/// is the same.
#[test]
fn pruning_skips_names_that_cannot_reach_the_best() {
    let mut files: Vec<(String, String)> = Vec::new();
    for i in 0..20 {
        let mut text = String::from("package p\n\n");
        for j in 0..10 {
            let n = i * 10 + j;
            let name = match j % 4 {
                0 | 1 => format!("userIdQ{n}"),
                2 => format!("UserQ{n}"),
                _ => format!("id_q{n}"),
            };
            text.push_str(&format!("func {name}() {{}}\n"));
        }
        files.push((format!("d/f{i:02}.go"), text));
    }
    // Other names, so that `user` and `id` are rare enough to weigh.
    for i in 0..20 {
        let text: String = (0..100).map(|j| format!("func otherName{i}x{j}() {{}}\n")).collect();
        files.push((format!("e/g{i:02}.go"), format!("package q\n\n{text}")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let (_dir, index) = project(&refs);
    let pruned = Graph::new(&index).search("user id", 3).unwrap();
    let all = Graph::new(&index).exhaustive().search("user id", 3).unwrap();
    assert_eq!(pruned.hits, all.hits);
    assert_eq!(pruned.hits[0].name, "userIdQ0");
    assert_eq!(all.names_scored, 200);
    // The 120 names holding both; the 40 holding only `user` and the 40 only
    // `id` score less than the 3 best definitions can lose to.
    assert_eq!(pruned.names_scored, 120);
}

#[test]
fn subword_queries_find_compound_identifiers() {
    use codegraph::query::{search as query, Mode, Query};
    let (_dir, index) = project(COLORS);
    let lines = |term: &str| -> Vec<String> {
        let mut q = Query::new(term, Mode::Subword);
        q.limit = 0;
        query(&index, &q).unwrap().hits.iter().map(|h| format!("{}:{}", h.path, h.line)).collect()
    };
    // `color` whole (the class and its uses) and inside compound names; the
    // class defining it whole leads.
    let color = lines("color");
    assert_eq!(color[0], "src/color.ts:10", "{color:#?}");
    for l in ["src/color.ts:1", "src/color.ts:4", "src/strings.ts:1", "src/strings.ts:2"] {
        assert!(color.contains(&l.to_string()), "{l} in {color:#?}");
    }
    // Two subwords in a row, in any spelling.
    assert_eq!(lines("string_to"), ["src/color.ts:1", "src/strings.ts:1"]);
    assert_eq!(lines("to string"), ["util/convert.go:3"]);
    assert!(lines("olo").is_empty(), "a subword is whole, not a substring");
    let _ = Path::new("");
}

/// A name defined in many test files: once the index has read their paths,
/// a search passes over those its penalty ranks below the answer without
/// reading them again, and a later test file whose path holds a query word
/// still displaces an earlier one. Searched twice (paths not yet classed,
/// then classed), the answer is the exhaustive one.
#[test]
fn classed_test_paths_prune_only_what_cannot_enter_the_answer() {
    let mut files: Vec<(String, String)> = Vec::new();
    let text = "package p\n\nfunc handleUser() {}\n".to_string();
    for i in 0..10 {
        files.push((format!("a/h{i:02}_test.go"), text.clone()));
        files.push((format!("b/user_{i:02}_test.go"), text.clone()));
    }
    for i in 0..5 {
        files.push((format!("c/h{i:02}.go"), text.clone()));
    }
    // Other names, so that `user` is rare enough to weigh.
    for i in 0..20 {
        let text: String = (0..50).map(|j| format!("func otherName{i}x{j}() {{}}\n")).collect();
        files.push((format!("e/g{i:02}.go"), format!("package q\n\n{text}")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let (_dir, index) = project(&refs);
    let answer = |g: Graph<'_>| -> Vec<String> {
        g.search("handle user", 8).unwrap().hits.iter().map(|h| h.file.clone()).collect()
    };
    let all = answer(Graph::new(&index).exhaustive());
    assert_eq!(&all[..5], ["c/h00.go", "c/h01.go", "c/h02.go", "c/h03.go", "c/h04.go"]);
    assert_eq!(&all[5..], ["b/user_00_test.go", "b/user_01_test.go", "b/user_02_test.go"]);
    assert_eq!(answer(Graph::new(&index)), all);
    assert_eq!(answer(Graph::new(&index)), all, "with the paths classed");
}

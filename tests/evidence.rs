//! File-level evidence for tasks written as sentences: the index's BM25 over
//! each file's words equals a brute-force scan of the extracted facts, and the
//! answers of `cg search` and `cg context` put a fix's library file before the
//! tests, vendored and minified code that repeat its words.

mod common;

use codegraph::extract::FileFacts;
use codegraph::graph::evidence::{identifiers_of, rank_files, rank_files_naming, Aside};
use codegraph::query::{Matcher, Mode};

/// BM25 of every file for `words`, by brute force over the facts: a line
/// counts once per word when one of its terms holds the word as a subword; a
/// word in more than 30% of the files is left out. A file holding any of the
/// words gains each word's idf once more when the word names a folder of its
/// path or the file (a subword of the path without its extension, a plural
/// `s` aside).
fn brute_force(facts: &[FileFacts], words: &[&str]) -> Vec<(String, f64)> {
    let parts = brute_force_parts(facts, words);
    let mut scores: Vec<(String, f64)> =
        parts.into_iter().map(|(p, s, named)| (p, if s > 0.0 { s + named } else { s })).collect();
    scores.retain(|s| s.1 > 0.0);
    scores.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    scores
}

/// Per file of [`brute_force`]: its path, its BM25 and what the words naming
/// its path add.
fn brute_force_parts(facts: &[FileFacts], words: &[&str]) -> Vec<(String, f64, f64)> {
    let n = facts.len() as f64;
    let len = |f: &FileFacts| f.terms.iter().map(|t| t.lines.len()).sum::<usize>() as f64;
    let avg = (facts.iter().map(len).sum::<f64>() / n).max(1.0);
    let mut scores: Vec<(String, f64)> = facts.iter().map(|f| (f.path.clone(), 0.0)).collect();
    let mut named = vec![0.0; facts.len()];
    let names = |path: &str| -> Vec<String> {
        let stem = &path[..path.rfind('.').unwrap_or(path.len())];
        codegraph::extract::words::subwords(stem).map(|w| w.to_lowercase()).collect()
    };
    let plural = |a: &str, b: &str| a.len() > 3 && a.strip_suffix('s') == Some(b);
    for w in words {
        let m = Matcher::new(w, Mode::Subword, false).unwrap();
        let tf: Vec<usize> = facts
            .iter()
            .map(|f| {
                let mut lines: Vec<u32> =
                    f.terms.iter().filter(|t| m.matches(&t.term)).flat_map(|t| t.lines.iter().copied()).collect();
                lines.sort_unstable();
                lines.dedup();
                lines.len()
            })
            .collect();
        let df = tf.iter().filter(|&&t| t > 0).count() as f64;
        if df == 0.0 || df > 0.3 * n {
            continue;
        }
        let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
        for (i, f) in facts.iter().enumerate() {
            let t = tf[i] as f64;
            if t > 0.0 {
                scores[i].1 += idf * t * 2.2 / (t + 1.2 * (0.25 + 0.75 * len(f) / avg));
            }
            if names(&f.path).iter().any(|p| p == w || plural(p, w) || plural(w, p)) {
                named[i] += idf;
            }
        }
    }
    scores.into_iter().zip(named).map(|((p, s), n)| (p, s, n)).collect()
}

/// Generated sources over a small vocabulary, so that words recur across
/// files at different rates.
fn generated_project() -> Vec<(String, String)> {
    let words = ["memory", "float", "format", "parse", "cache", "retry", "backoff", "limit", "token", "printer"];
    let mut files = Vec::new();
    for i in 0..24usize {
        let mut text = String::new();
        for j in 0..(3 + i % 5) {
            let a = words[(i * 7 + j * 3) % words.len()];
            let b = words[(i + j * 5) % words.len()];
            let c = words[(i * 3 + j) % words.len()];
            text.push_str(&format!("# {a} {c} note\ndef {a}_{b}_{j}(value):\n    return \"{c} {b}\"\n\n"));
        }
        files.push((format!("pkg/m{i:02}.py"), text));
    }
    files
}

#[test]
fn file_evidence_is_bm25_over_the_files_words() {
    let owned = generated_project();
    let files: Vec<(&str, &str)> = owned.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (dir, index) = common::indexed_project(&files);
    let facts = common::facts_of(dir.path());
    for query in
        [&["memory", "float"][..], &["retry", "backoff", "token"], &["printer"], &["cache", "limit", "nothing"]]
    {
        let words: Vec<String> = query.iter().map(|w| w.to_string()).collect();
        let got =
            rank_files(&index, &words, &Aside { tests: true, vendored: true, ..Default::default() }, 100).unwrap();
        let want = brute_force(&facts, query);
        let got: Vec<(String, f64)> = got.into_iter().map(|e| (e.path, e.score)).collect();
        assert_eq!(got.len(), want.len(), "{query:?}: {got:?} vs {want:?}");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g.0, w.0, "{query:?}: {got:?} vs {want:?}");
            assert!((g.1 - w.1).abs() < 1e-9, "{query:?}: {} {} vs {}", g.0, g.1, w.1);
        }
    }
}

/// A library fix and the files that repeat its words more often: tests named
/// after the feature, a vendored copy, a minified script.
fn fix_project() -> (tempfile::TempDir, codegraph::project::Index) {
    let mut tests = String::from("import defaultfilters\n\n");
    for i in 0..12 {
        tests.push_str(&format!(
            "def test_floatformat_memory_{i}():\n    # floatformat must not use excessive memory\n    assert defaultfilters.floatformat({i}) == '{i}'\n\n"
        ));
    }
    let library = "def floatformat(text, arg=-1):\n    \"\"\"Display a float to a number of decimal places.\"\"\"\n    # Limit the precision so a huge exponent cannot consume excessive memory.\n    digits = min(len(text), 200)\n    return round(float(text), digits)\n\n\ndef upper(value):\n    return value.upper()\n";
    let vendored = "def floatformat_memory(x):\n    # floatformat memory helpers: excessive memory, floatformat memory\n    return x\n\n\ndef precision_memory(x):\n    # memory memory floatformat excessive\n    return x\n";
    let minified = "function floatformat(a){return a}function memory(b){var excessive=b;return excessive}var floatformatMemory=1;\n";
    let mut files: Vec<(String, String)> = vec![
        ("django/template/defaultfilters.py".into(), library.into()),
        ("tests/template_tests/test_floatformat.py".into(), tests),
        ("vendor/numfmt/floatformat.py".into(), vendored.into()),
        ("django/static/floatformat.min.js".into(), minified.into()),
    ];
    // Other code, so that the task's words are rare in the project.
    for i in 0..20 {
        files.push((format!("django/utils/part{i}.py"), format!("def helper_{i}(value):\n    return value + {i}\n")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    common::indexed_project(&refs)
}

const TASK: &str = "Prevented excessive memory consumption in floatformat with a huge exponent";

/// Regression: test functions named after a fix's feature filled the top of
/// `search` and the context bundle, and vendored and minified copies ranked
/// with them; the library file that the fix changes came after.
#[test]
fn a_fixs_library_file_ranks_before_tests_vendored_and_minified_code() {
    let (_dir, index) = fix_project();
    let g = codegraph::graph::Graph::new(&index);
    let found = g.search_by(TASK, 10, codegraph::graph::SearchMode::Lexical, None).unwrap();
    let first = found.hits.first().expect("hits");
    assert_eq!(first.file, "django/template/defaultfilters.py", "{:#?}", found.hits);

    // File evidence alone: the library file before the vendored and minified
    // copies; the test file, whose 36 lines hold the words, is ranked down to
    // about the library's (search and the bundle, below and above, put the
    // library first).
    let evidence =
        rank_files(&index, &["floatformat".into(), "memory".into(), "excessive".into()], &Aside::of(TASK), 10).unwrap();
    let rank = |path: &str| evidence.iter().position(|e| e.path == path).unwrap_or(usize::MAX);
    let library = rank("django/template/defaultfilters.py");
    assert!(library < 2, "{evidence:#?}");
    assert!(library < rank("vendor/numfmt/floatformat.py") && library < rank("django/static/floatformat.min.js"));
    // Asked about tests, the tests lead.
    let about_tests = format!("{TASK} in the tests");
    let evidence = rank_files(&index, &["floatformat".into(), "memory".into()], &Aside::of(&about_tests), 10).unwrap();
    assert_eq!(evidence[0].path, "tests/template_tests/test_floatformat.py", "{evidence:#?}");

    let bundle = g.context(TASK, 2000, &[]).unwrap();
    let first = bundle.focus.first().expect("a focus");
    assert_eq!(first.path, "django/template/defaultfilters.py", "{:#?}", bundle.focus);
}

/// Regression: a file holding a word on a definition line and on other lines
/// counted twice in the word's document frequency (a query's hits list the
/// definition lines first, then the others, and files were counted where the
/// path changed), so `floatformat`'s df read 6 for 4 files. Scores equal the
/// brute-force BM25 on the project where that happens.
#[test]
fn a_file_counts_once_in_a_words_document_frequency_regression() {
    let (dir, index) = fix_project();
    let facts = common::facts_of(dir.path());
    let query = ["floatformat", "memory", "excessive"];
    let words: Vec<String> = query.iter().map(|w| w.to_string()).collect();
    let got = rank_files(&index, &words, &Aside { tests: true, vendored: true, ..Default::default() }, 100).unwrap();
    let want = brute_force(&facts, &query);
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g.path, w.0);
        assert!((g.score - w.1).abs() < 1e-9, "{}: {} vs {}", g.path, g.score, w.1);
    }
}

/// Regression: a task naming the file it is about by the file's own name
/// ("Fixed __in lookup crash when combining with filtered aggregates", django's
/// `db/models/lookups.py`) left the file out of the bundle: other files held
/// the task's words as often, and a path was not evidence.
#[test]
fn a_task_naming_a_files_own_name_ranks_it_regression() {
    let body = "def resolve(query, rhs):\n    # an in lookup over a filtered aggregate\n    return query.aggregate(rhs, lookup=True)\n";
    let mut files: Vec<(String, String)> = vec![
        ("django/db/models/expressions.py".into(), body.into()),
        ("django/db/models/lookups.py".into(), body.into()),
        ("django/db/models/fields.py".into(), body.into()),
    ];
    for i in 0..20 {
        files.push((format!("django/utils/part{i}.py"), format!("def helper_{i}(value):\n    return value + {i}\n")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = common::indexed_project(&refs);
    let task = "Fixed __in lookup crash when combining with filtered aggregates";
    let words: Vec<String> = ["lookup", "crash", "combining", "filtered", "aggregates"].map(String::from).to_vec();
    let evidence = rank_files(&index, &words, &Aside::of(task), 10).unwrap();
    assert_eq!(evidence[0].path, "django/db/models/lookups.py", "{evidence:#?}");
    assert_eq!(evidence.len(), 3, "{evidence:#?}");
    let bundle = codegraph::graph::Graph::new(&index).context(task, 2000, &[]).unwrap();
    assert_eq!(bundle.focus[0].path, "django/db/models/lookups.py", "{:#?}", bundle.focus);
}

/// `cg search --files`: the hits grouped by file, best first, each with its
/// definitions; the same answer as the library call the MCP tool makes.
#[test]
fn search_by_files_groups_hits_and_leads_with_the_library_file() {
    let (dir, index) = fix_project();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cg"))
        .args(["search", "--files", "--json", "--limit", "3", TASK])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 3, "{v}");
    assert_eq!(files[0]["file"], "django/template/defaultfilters.py", "{v}");
    assert_eq!(files[0]["definitions"][0]["name"], "floatformat", "{v}");
    // The mode the command chose: hybrid when this process's model store
    // named a default model and `init` embedded with it, else lexical.
    let (mode, model) = codegraph::graph::search_mode(&index, None).unwrap();
    let g = codegraph::graph::Graph::new(&index);
    let direct = g.search_files(TASK, 3, mode, model.as_deref()).unwrap();
    assert_eq!(serde_json::to_value(&direct).unwrap(), v["files"]);
    // Each file once, scores not increasing.
    let names: Vec<&str> = files.iter().map(|f| f["file"].as_str().unwrap()).collect();
    let mut distinct = names.clone();
    distinct.dedup();
    assert_eq!(names, distinct);
    assert!(files.windows(2).all(|w| w[0]["score"].as_f64() >= w[1]["score"].as_f64()), "{v}");
}

/// Regression: a sentence's hits were ranked again with file evidence from a
/// pool of three times the limit, so `--limit 2` scored and ordered hits
/// otherwise than `--limit 40` (django's `MemoryFileUploadHandler` 1.937
/// against 2.427 for a floatformat task). A smaller answer is the first part
/// of a larger one, scores and all, up to a third of the pool.
#[test]
fn a_sentences_answer_does_not_depend_on_the_limit_regression() {
    let mut files = generated_project();
    // Many names holding the task's words, in files holding few of them, and
    // one file whose lines hold them all.
    for i in 0..40 {
        files.push((format!("lib/cache{i:02}.py"), format!("def memory_cache_{i}(value):\n    return value\n")));
    }
    files.push((
        "lib/printer.py".into(),
        "def render(value):\n    # memory limit of the token printer\n    limit = token_limit(value)\n    \
         # retry the printer with backoff when memory runs out\n    return printer_retry(limit)\n"
            .into(),
    ));
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = common::indexed_project(&refs);
    let g = codegraph::graph::Graph::new(&index);
    let answer = |text: &str, limit: usize| -> Vec<(String, String, u32, f64)> {
        let found = g.search_by(text, limit, codegraph::graph::SearchMode::Lexical, None).unwrap();
        found.hits.into_iter().map(|h| (h.name, h.file, h.line, h.score)).collect()
    };
    for text in [
        "Limit the memory the token printer uses on retry",
        "Backoff and retry when the memory cache runs out",
        "Parse the float format of a memory limit token",
    ] {
        let full = answer(text, 100);
        assert!(full.len() > 30, "{text}: {full:#?}");
        for limit in 1..=30 {
            let got = answer(text, limit);
            assert_eq!(got[..], full[..limit.min(full.len())], "{text}: limit {limit}");
        }
        // Files (`cg search --files`) alike.
        let files = |limit: usize| -> Vec<(String, f64)> {
            let found = g.search_files(text, limit, codegraph::graph::SearchMode::Lexical, None).unwrap();
            found.into_iter().map(|f| (f.file, f.score)).collect()
        };
        let full = files(25);
        assert!(full.len() > 10, "{text}: {full:#?}");
        for limit in 1..=10 {
            assert_eq!(files(limit)[..], full[..limit], "{text}: files, limit {limit}");
        }
    }
}

/// Regression: the bundle named only the files whose snippets fit its budget,
/// so a file the task's words rank high but whose definitions are long was
/// not in it at all (a file of long functions, outscored by shorter
/// definitions of files ranked below it). The files ranking's first files
/// (which the evidence's first files lead) are named, as file entries saying
/// their rank, whether or not a snippet of theirs fits.
#[test]
fn the_bundle_names_the_files_its_words_rank_first_when_their_snippets_do_not_fit_regression() {
    let mut files: Vec<(String, String)> = Vec::new();
    for i in 0..8 {
        // Long functions holding the task's words, fewer of them further down.
        let mut body = format!("def collect_garbage_{i}(state):\n");
        for j in 0..70 {
            let words =
                if j < 8 - i { "# reset the garbage collector state before closing the vm" } else { "# unrelated" };
            body.push_str(&format!("    value_{j} = state.step({j})  {words}\n"));
        }
        body.push_str("    return state\n");
        files.push((format!("src/engine/part{i}.py"), body));
    }
    for i in 0..20 {
        files.push((format!("src/other/util{i}.py"), format!("def helper_{i}(value):\n    return value + {i}\n")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = common::indexed_project(&refs);
    let task = "Reset the garbage collector state before closing the vm";
    let bundle = codegraph::graph::Graph::new(&index).context(task, 1500, &[]).unwrap();
    assert!(bundle.limits.used_estimate <= 1500, "{}", bundle.limits.used_estimate);
    assert!(bundle.snippets.len() < 8, "the budget holds every snippet: {:#?}", bundle.snippets.len());
    let words = codegraph::graph::search_words(task);
    let evidence = rank_files(&index, &words, &Aside::of(task), 12).unwrap();
    assert_eq!(evidence.len(), 8, "{evidence:#?}");
    for e in &evidence {
        let entry = bundle.focus.iter().find(|f| f.path == e.path);
        assert!(entry.is_some(), "{} is not named: {:#?}", e.path, bundle.focus);
    }
    let listed: Vec<&codegraph::graph::Focus> =
        bundle.focus.iter().filter(|f| f.kind == "file" && f.reason.starts_with("file rank ")).collect();
    assert!(!listed.is_empty(), "{:#?}", bundle.focus);
    // Named with their best definition, in the files ranking's order (`cg
    // search --files`), each with its rank there, none twice.
    assert!(listed.iter().all(|f| f.reason.contains("collect_garbage_")), "{listed:#?}");
    let ranking = codegraph::graph::Graph::new(&index)
        .search_files(task, 40, codegraph::graph::SearchMode::Lexical, None)
        .unwrap();
    let order: Vec<usize> = listed.iter().map(|f| ranking.iter().position(|r| r.file == f.path).unwrap()).collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    for (f, &at) in listed.iter().zip(&order) {
        assert!(f.reason.starts_with(&format!("file rank {}:", at + 1)), "{f:#?}");
    }
    assert!(bundle.focus.iter().all(|f| !f.path.starts_with("src/other/")), "{:#?}", bundle.focus);
}

/// One graph answering several questions (an MCP server's) remembers the last
/// task's file evidence: every answer is the one a fresh graph gives, whatever
/// was asked before and at whichever limit.
#[test]
fn a_graph_that_answered_other_questions_answers_as_a_fresh_one() {
    let mut files: Vec<(String, String)> = Vec::new();
    let words = [
        "memory limit",
        "token printer",
        "retry backoff",
        "float format",
        "cache runs out",
        "parse header",
        "user session",
        "socket close",
        "config loader",
        "lock timeout",
        "queue size",
        "render page",
    ];
    // Names holding the words in some files, only comments in most: more
    // files hold a task's words than the evidence remembered for a task.
    for i in 0..150 {
        let (a, b) = (words[i % 12], words[(i / 12 + i) % 12]);
        let name = if i % 3 == 0 { b.replace(' ', "_") } else { "step".to_string() };
        files.push((
            format!("src/part{i}.py"),
            format!("def {name}_{i}(value):\n    # the {a} of the {b}\n    return value + {i}\n"),
        ));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = common::indexed_project(&refs);
    let tasks = [
        "Limit the memory the token printer uses on retry",
        "Backoff and retry when the memory cache runs out",
        "Parse the float format of a memory limit token",
    ];
    let files_of = |g: &codegraph::graph::Graph, task: &str, limit: usize| -> Vec<(String, f64)> {
        let found = g.search_files(task, limit, codegraph::graph::SearchMode::Lexical, None).unwrap();
        found.into_iter().map(|f| (f.file, f.score)).collect()
    };
    let bundle_of =
        |g: &codegraph::graph::Graph, task: &str| serde_json::to_string(&g.context(task, 3000, &[]).unwrap());
    let shared = codegraph::graph::Graph::new(&index);
    for round in 0..2 {
        for task in tasks {
            for limit in [5, 120, 3] {
                let fresh = files_of(&codegraph::graph::Graph::new(&index), task, limit);
                assert!(!fresh.is_empty(), "{task}");
                // Every file the evidence ranks is among the files (the limit
                // cuts none of them here), however few were asked for before.
                let words = codegraph::graph::search_words(task);
                let evidence = rank_files_naming(&index, &words, &identifiers_of(task), &Aside::of(task), limit);
                let evidence = evidence.unwrap();
                if limit > fresh.len() {
                    assert!(evidence.len() > 40, "{task}: {}", evidence.len());
                    for e in &evidence {
                        assert!(fresh.iter().any(|f| f.0 == e.path), "{task}: {} is not ranked", e.path);
                    }
                }
                assert_eq!(files_of(&shared, task, limit), fresh, "round {round}, {task}, limit {limit}");
            }
            let fresh = bundle_of(&codegraph::graph::Graph::new(&index), task).unwrap();
            assert_eq!(bundle_of(&shared, task).unwrap(), fresh, "round {round}, {task}");
        }
    }
}

/// The identifiers a task writes, whole and with one of three or more
/// subwords left out, folded; plain words and one-subword names are not
/// identifiers.
#[test]
fn a_tasks_identifiers_are_written_whole_and_nearly() {
    let got = identifiers_of("Add support for USE_SYSTEM_JEMALLOC flag.");
    assert_eq!(got, ["use_system_jemalloc", "system_jemalloc", "use_jemalloc", "use_system"]);
    let got = identifiers_of("Made Query.clear_ordering() not to cause side effects; see getCurrentDirName");
    assert_eq!(
        got,
        ["clear_ordering", "getcurrentdirname", "currentdirname", "getdirname", "getcurrentname", "getcurrentdir"]
    );
    assert!(identifiers_of("Fix a crash when the cache is full").is_empty());
}

/// Regression: a task naming a build flag the fix adds (`USE_SYSTEM_JEMALLOC`,
/// redis) left out every file using the flag it extends (`USE_JEMALLOC`):
/// its subwords alone are common (`use`, `system`) or fill another folder
/// (`jemalloc` in the allocator's own sources). The identifier, whole or
/// nearly, counts as one rare word.
#[test]
fn a_task_naming_an_identifier_nearly_ranks_the_files_using_it_regression() {
    let mut files: Vec<(String, String)> = vec![
        (
            "src/zmalloc.h".into(),
            "#if defined(USE_JEMALLOC)\n#define ZMALLOC_LIB \"jemalloc\"\n#endif\nvoid *zmalloc(size_t size);\n".into(),
        ),
        ("src/debug.c".into(), "void debug_memory(void) {\n#ifdef USE_JEMALLOC\n    dump();\n#endif\n}\n".into()),
    ];
    // The allocator's own sources say `jemalloc` more often than the files
    // using the flag.
    for i in 0..4 {
        let mut body = String::new();
        for j in 0..4 {
            body.push_str(&format!("void jemalloc_arena_{i}_{j}(void) {{ jemalloc_step(); }}\n"));
        }
        files.push((format!("src/alloc/arena{i}.c"), body));
    }
    for i in 0..20 {
        files.push((format!("src/other/part{i}.c"), format!("int helper_{i}(int value) {{ return value + {i}; }}\n")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = common::indexed_project(&refs);
    let task = "Add support for USE_SYSTEM_JEMALLOC flag when building against the system allocator";
    let words = codegraph::graph::search_words(task);
    let aside = Aside::of(task);
    let without = rank_files(&index, &words, &aside, 3).unwrap();
    assert!(without.iter().all(|e| e.path != "src/zmalloc.h" && e.path != "src/debug.c"), "{without:#?}");
    let with = rank_files_naming(&index, &words, &identifiers_of(task), &aside, 3).unwrap();
    let mut first: Vec<&str> = with.iter().take(2).map(|e| e.path.as_str()).collect();
    first.sort();
    assert_eq!(first, ["src/debug.c", "src/zmalloc.h"], "{with:#?}");
    let bundle = codegraph::graph::Graph::new(&index).context(task, 2000, &[]).unwrap();
    for path in ["src/zmalloc.h", "src/debug.c"] {
        assert!(bundle.focus.iter().any(|f| f.path == path), "{path}: {:#?}", bundle.focus);
    }
}

/// Regression: a task naming a member its type no longer has
/// (`Objects.firstNonNull()` "was removed") ranked first the other type that
/// still has a member of that name, and whose file holds more of the task's
/// words, and left the type the member is to be written in far down
/// (guava's `Objects.java` 7th). The qualifier's type is where the fix goes.
#[test]
fn a_member_its_type_lacks_ranks_the_type_first_regression() {
    let mut files: Vec<(String, String)> = vec![
        (
            "base/Objects.java".into(),
            "package base;\n\npublic final class Objects {\n  private Objects() {}\n\n  public static boolean equal(Object a, Object b) {\n    return a == b || (a != null && a.equals(b));\n  }\n}\n".into(),
        ),
        (
            "base/MoreObjects.java".into(),
            "package base;\n\npublic final class MoreObjects {\n  /** The first non-null of two values: the first when it is not null. */\n  public static <T> T firstNonNull(T first, T second) {\n    return first != null ? first : second;\n  }\n}\n".into(),
        ),
    ];
    for i in 0..3 {
        files.push((
            format!("base/Caller{i}.java"),
            format!("package base;\n\nclass Caller{i} {{\n  Object pick(Object a, Object b) {{\n    return MoreObjects.firstNonNull(a, b);\n  }}\n}}\n"),
        ));
    }
    for i in 0..20 {
        files.push((
            format!("other/Part{i}.java"),
            format!("package other;\n\nclass Part{i} {{\n  int helper(int value) {{ return value + {i}; }}\n}}\n"),
        ));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = common::indexed_project(&refs);
    let g = codegraph::graph::Graph::new(&index);
    let first_file = |task: &str| {
        let found = g.search_by(task, 10, codegraph::graph::SearchMode::Lexical, None).unwrap();
        found.hits.first().map(|h| h.file.clone()).unwrap_or_default()
    };
    // Without the qualifier the member's only home is the other type.
    assert_eq!(
        first_file("Preserves the firstNonNull() method that was removed in release 21."),
        "base/MoreObjects.java"
    );
    assert_eq!(
        first_file("Preserves the Objects.firstNonNull() method that was removed in release 21."),
        "base/Objects.java"
    );
    let files = g
        .search_files(
            "Preserves the Objects.firstNonNull() method that was removed in release 21.",
            5,
            codegraph::graph::SearchMode::Lexical,
            None,
        )
        .unwrap();
    assert_eq!(files[0].file, "base/Objects.java", "{files:#?}");
}

/// `cg search --files` puts first a file the task names by its name, as
/// `cg context` reads it first, even when the file defines nothing the words
/// match (a script).
#[test]
fn search_files_puts_first_the_file_a_task_names() {
    let mut files: Vec<(String, String)> = vec![(
        "bin/admin-tool.py".into(),
        "#!/usr/bin/env python\nimport sys\n\nif __name__ == '__main__':\n    sys.exit(0)\n".into(),
    )];
    for i in 0..4 {
        files.push((
            format!("lib/shebang{i}.py"),
            format!("def python_shebang_{i}(env):\n    return '#!/usr/bin/env python3'\n\ndef admin_launcher_{i}():\n    return python_shebang_{i}(None)\n"),
        ));
    }
    for i in 0..20 {
        files.push((format!("lib/other{i}.py"), format!("def helper_{i}(value):\n    return value + {i}\n")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = common::indexed_project(&refs);
    let g = codegraph::graph::Graph::new(&index);
    let task = "Use the python3 env shebang for admin-tool.py launcher";
    let found = g.search_files(task, 5, codegraph::graph::SearchMode::Lexical, None).unwrap();
    assert_eq!(found[0].file, "bin/admin-tool.py", "{found:#?}");
    assert!(found[0].score >= found[1].score, "{found:#?}");
    // Without the file's name the words rank the other files first.
    let found = g
        .search_files(
            "Use the python3 env shebang for the admin launcher",
            5,
            codegraph::graph::SearchMode::Lexical,
            None,
        )
        .unwrap();
    assert_ne!(found[0].file, "bin/admin-tool.py", "{found:#?}");
}

/// A file search names every file a hit is in: a definition whose copy
/// (a fork's twin folder) was folded into one hit lists both files.
#[test]
fn search_files_names_every_copy_of_a_hit() {
    let text =
        "package base;\n\npublic final class Stopwatch {\n  public long elapsedNanos() {\n    return 0;\n  }\n}\n";
    let files: Vec<(&str, &str)> = vec![
        ("android/base/Stopwatch.java", text),
        ("main/base/Stopwatch.java", text),
        ("main/base/Other.java", "package base;\n\nclass Other {\n  int value() { return 1; }\n}\n"),
    ];
    let (_dir, index) = common::indexed_project(&files);
    let g = codegraph::graph::Graph::new(&index);
    let hits = g.search_by("Stopwatch", 5, codegraph::graph::SearchMode::Lexical, None).unwrap();
    assert!(hits.hits.iter().any(|h| !h.duplicates.is_empty()), "the copies fold: {:#?}", hits.hits);
    let found = g.search_files("Stopwatch", 5, codegraph::graph::SearchMode::Lexical, None).unwrap();
    let names: Vec<&str> = found.iter().map(|f| f.file.as_str()).collect();
    assert_eq!(&names[..2], ["android/base/Stopwatch.java", "main/base/Stopwatch.java"], "{found:#?}");
    assert_eq!(found[0].score, found[1].score);
}

/// Regression: a task about a vendored package ("Add compiler-rt fallbacks for
/// sync builtins on armv5te-musl", rustc's `vendor/compiler_builtins/`) had the
/// package's files ranked down as vendored code, since the task did not say
/// "vendor"; the package's own name in the task now says it is about them.
#[test]
fn a_vendored_package_the_task_names_is_not_ranked_down_regression() {
    let arm = "// sync builtins: fallbacks for arm\npub unsafe extern \"C\" fn sync_fetch_and_add(ptr: *mut u32, val: u32) -> u32 {\n    // a fallback for the sync builtins\n    sync_fallback(ptr, val)\n}\n";
    let mut files: Vec<(String, String)> = vec![
        ("vendor/compiler_builtins/src/arm_linux.rs".into(), arm.into()),
        ("vendor/libc/src/arm_linux.rs".into(), arm.into()),
        ("src/bootstrap/compile.rs".into(), "// sync the builtins\nfn copy_builtins() {}\n".into()),
    ];
    for i in 0..20 {
        files.push((format!("src/part{i}.rs"), format!("fn helper_{i}(value: u32) -> u32 {{\n    value + {i}\n}}\n")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = common::indexed_project(&refs);
    let rank_for = |task: &str| {
        let evidence = rank_files(&index, &codegraph::graph::search_words(task), &Aside::of(task), 10).unwrap();
        let paths: Vec<String> = evidence.into_iter().map(|e| e.path).collect();
        paths
    };
    let named = rank_for("Add compiler-rt fallbacks for sync builtins on armv5te-musl");
    assert_eq!(named[0], "vendor/compiler_builtins/src/arm_linux.rs", "{named:#?}");
    let pos = |paths: &[String], p: &str| paths.iter().position(|x| x == p).unwrap_or(usize::MAX);
    assert!(pos(&named, "src/bootstrap/compile.rs") < pos(&named, "vendor/libc/src/arm_linux.rs"), "{named:#?}");
    // A task naming only one of the package's two subwords is not about it.
    let unnamed = rank_for("Add fallbacks for sync builtins on armv5te-musl");
    assert_eq!(unnamed[0], "src/bootstrap/compile.rs", "{unnamed:#?}");
}

/// The files ranking reads each path's class and words once per opened index
/// (kept between questions): its scores equal the brute force's with tests,
/// vendored and minified code ranked down as each task says (classes written
/// here by hand), in a fresh index and in one that answered other tasks first,
/// and with the index's files in two segments (an update's).
#[test]
fn files_ranking_by_path_class_equals_the_brute_force_kept_or_fresh() {
    let body = |words: &str| format!("# {words}\ndef run(value):\n    return value  # {words}\n");
    let files: Vec<(String, String)> = vec![
        ("app/lookups.py".into(), body("lookup over a filtered aggregate")),
        ("app/aggregates/query.py".into(), body("aggregate lookup lookup")),
        ("tests/test_lookups.py".into(), body("lookup lookup lookup aggregate")),
        ("app/lookup_test.py".into(), body("lookup aggregate")),
        ("vendor/filterkit/lookups.py".into(), body("filtered lookup lookup")),
        ("vendor/other/agg.py".into(), body("aggregate lookup filtered")),
        ("static/lookups.min.js".into(), body("lookup aggregate filtered")),
    ]
    .into_iter()
    .chain((0..16).map(|i| (format!("app/part{i}.py"), body(&format!("helper {i}")))))
    .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (dir, first) = common::indexed_project(&refs);
    // An update: a second segment holding one file anew.
    std::fs::write(dir.path().join("app/part3.py"), body("lookup filtered helper")).unwrap();
    let request = codegraph::project::Request::Update(vec!["app/part3.py".into()]);
    codegraph::project::update(dir.path(), &request, &Default::default(), &|_| {}).unwrap();
    drop(first);
    let index = codegraph::project::Index::open(dir.path()).unwrap();
    assert!(index.segments.len() >= 2, "the update wrote a second segment");
    let facts = common::facts_of(dir.path());
    // What each task ranks down by hand: (test, vendored unless named, minified).
    let class = |path: &str| -> (bool, bool, bool) {
        (
            path.starts_with("tests/") || path.ends_with("_test.py"),
            path.starts_with("vendor/"),
            path.ends_with(".min.js"),
        )
    };
    let tasks = [
        ("Fix the lookup over a filtered aggregate", false, ""),
        ("Tests for the lookup over a filtered aggregate fail", true, ""),
        ("Fix filterkit lookup over a filtered aggregate", false, "vendor/filterkit/"),
        ("The vendored copy of the lookup over a filtered aggregate", false, "vendor/"),
    ];
    let oracle = |task: &str, tests: bool, named: &str| -> Vec<(String, f64)> {
        let words = codegraph::graph::search_words(task);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let vendored_task = task.contains("vendor");
        let mut want: Vec<(String, f64)> = brute_force_parts(&facts, &words)
            .into_iter()
            .filter(|p| p.1 > 0.0)
            .map(|(path, raw, bonus)| {
                let (test, vendored, minified) = class(&path);
                let mut factor = 1.0;
                if test && !tests {
                    factor *= 0.35;
                }
                let named = !named.is_empty() && path.starts_with(named);
                if !vendored_task && (minified || (vendored && !named)) {
                    factor *= 0.35;
                }
                let score = if factor < 1.0 { raw * factor } else { raw + bonus };
                (path, score)
            })
            .collect();
        want.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        want
    };
    let rank = |index: &codegraph::project::Index, task: &str| -> Vec<(String, f64)> {
        let words = codegraph::graph::search_words(task);
        let aside = Aside::of(task);
        rank_files_naming(index, &words, &[], &aside, 100).unwrap().into_iter().map(|e| (e.path, e.score)).collect()
    };
    for (task, tests, named) in tasks {
        assert_eq!(Aside::of(task).tests, tests, "{task}");
        let want = oracle(task, tests, named);
        assert!(want.len() >= 6, "{task}: {want:?}");
        // Kept: the index answered the tasks before this one.
        let kept = rank(&index, task);
        let fresh = rank(&codegraph::project::Index::open(dir.path()).unwrap(), task);
        for got in [&kept, &fresh] {
            let paths: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
            let wanted: Vec<&str> = want.iter().map(|w| w.0.as_str()).collect();
            assert_eq!(paths, wanted, "{task}");
            for (g, w) in got.iter().zip(&want) {
                assert!((g.1 - w.1).abs() < 1e-9, "{task}: {} {} vs {}", g.0, g.1, w.1);
            }
        }
    }
}

/// Regression: a sentence naming a file by its name (`django-admin.py`) put
/// the file first in `cg search --files` and in the bundle, but `cg search`
/// could not list it when it defines nothing (a script), and listed a named
/// file's definitions only as their words ranked them.
#[test]
fn a_file_the_sentence_names_comes_first_in_search_even_defining_nothing_regression() {
    let script = "#!/usr/bin/env python\nimport sys\n\nfrom tool import management\n\nif __name__ == \"__main__\":\n    management.execute(sys.argv)\n";
    let mut files: Vec<(String, String)> = vec![
        ("tool/bin/tool-admin.py".into(), script.into()),
        (
            "tool/core/management.py".into(),
            "def execute(argv):\n    \"\"\"Run the admin command line with the python shebang.\"\"\"\n    return run_admin_command(argv)\n".into(),
        ),
        ("tool/core/env.py".into(), "def read_env(shebang):\n    return shebang\n".into()),
        (
            "tool/core/shebang.py".into(),
            "def python_shebang(env):\n    # the env shebang of a python script\n    return '#!/usr/bin/env python3'\n\ndef env_python(path):\n    return path\n".into(),
        ),
    ];
    for i in 0..20 {
        files.push((format!("tool/utils/part{i}.py"), format!("def helper_{i}(value):\n    return value + {i}\n")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (dir, index) = common::indexed_project(&refs);
    let g = codegraph::graph::Graph::new(&index);
    let lexical = codegraph::graph::SearchMode::Lexical;

    // The script, which defines nothing, is the first hit: the file itself.
    let task = "Use the env python3 shebang for tool-admin.py";
    let found = g.search_by(task, 5, lexical, None).unwrap();
    let first = &found.hits[0];
    assert_eq!(
        (first.file.as_str(), first.kind.as_str(), first.line),
        ("tool/bin/tool-admin.py", "file", 1),
        "{found:#?}"
    );
    assert!(first.is_whole_file() && first.name == "tool-admin.py");
    assert!(first.score > found.hits[1].score, "{found:#?}");
    // Without the name, the words rank the shebang helpers first.
    let unnamed = g.search_by("Use the env python3 shebang for the admin script", 5, lexical, None).unwrap();
    assert!(unnamed.hits.iter().all(|h| !h.is_whole_file()), "{unnamed:#?}");

    // Through the command line: the file's first line as its text, and the
    // files ranking naming it with no definitions.
    let cg = |args: &[&str]| -> serde_json::Value {
        let out =
            std::process::Command::new(env!("CARGO_BIN_EXE_cg")).args(args).current_dir(dir.path()).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let v = cg(&["search", "--json", "--limit", "5", task]);
    assert_eq!(v["results"][0]["file"], "tool/bin/tool-admin.py", "{v}");
    assert_eq!(v["results"][0]["kind"], "file", "{v}");
    assert_eq!(v["results"][0]["text"], "#!/usr/bin/env python", "{v}");
    let v = cg(&["search", "--files", "--json", "--limit", "5", task]);
    assert_eq!(v["files"][0]["file"], "tool/bin/tool-admin.py", "{v}");
    assert_eq!(v["files"][0]["definitions"], serde_json::json!([]), "{v}");
    let v = cg(&["context", "--json", task]);
    assert!(v["focus"].as_array().unwrap().iter().any(|f| f["path"] == "tool/bin/tool-admin.py"), "{v}");

    // A named file that defines something: its best definition first.
    let found = g.search_by("Quote the argv of the admin command line in management.py", 5, lexical, None).unwrap();
    assert_eq!((found.hits[0].file.as_str(), found.hits[0].name.as_str()), ("tool/core/management.py", "execute"));
}

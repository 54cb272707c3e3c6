//! The context bundle (`Graph::context`, `cg context`, `codegraph_context`) on
//! the Go graph fixture (`fixtures/graph/go`, read and checked): what the task
//! names leads, the graph around it follows with its reasons, the budget holds,
//! and the same task gives the same bundle.

use codegraph::graph::{Bundle, Graph};
use codegraph::project::Index;

mod common;

fn indexed() -> (tempfile::TempDir, Index) {
    common::indexed_graph_fixture("go")
}

/// `qualified_name reason` of each symbol in focus.
fn focus(b: &Bundle) -> Vec<String> {
    b.focus.iter().filter_map(|f| f.qualified_name.as_ref().map(|q| format!("{q}: {}", f.reason))).collect()
}

#[test]
fn a_named_method_leads_with_its_callers_and_callees() {
    let (_dir, index) = indexed();
    let b = Graph::new(&index).context("Fix `Store.Add` so that it does not flush on every item", 8000, &[]).unwrap();
    assert_eq!(b.intent, "fix");
    let f = focus(&b);
    assert_eq!(f[0], "store.Store.Add: named in the task: Store.Add", "{f:#?}");
    assert!(f.contains(&"main.fill: calls store.Store.Add".to_string()), "{f:#?}");
    assert!(f.contains(&"store.Base.Flush: called by store.Store.Add".to_string()), "{f:#?}");
    // Its snippet is its extent, as the file has it, with its hash.
    let s = &b.snippets[0];
    assert_eq!((s.path.as_str(), s.start, s.end), ("store/store.go", 18, 21));
    assert!(s.text.starts_with("func (s *Store) Add(n int) {\n"), "{}", s.text);
    assert_eq!(s.sha256.len(), 64);
    // The calls between what it holds.
    let name = |i: usize| b.subgraph.nodes[i].name.as_str();
    let edges: Vec<String> = b.subgraph.edges.iter().map(|e| format!("{} -> {}", name(e.from), name(e.to))).collect();
    assert!(edges.contains(&"main.fill -> store.Store.Add".to_string()), "{edges:?}");
    assert!(edges.contains(&"store.Store.Add -> store.Base.Flush".to_string()), "{edges:?}");
    assert!(b.limits.used_estimate <= 8000);
    assert_eq!(b.repo.rev, None, "not a git work tree");
}

#[test]
fn the_bundle_stays_within_its_budget_and_is_the_same_for_the_same_task() {
    let (_dir, index) = indexed();
    let task = "charge an invoice and add items to the store";
    let json = |budget: usize| serde_json::to_string(&Graph::new(&index).context(task, budget, &[]).unwrap()).unwrap();
    assert_eq!(json(8000), json(8000));
    for budget in [8000, 1000, 400, 200] {
        let b = Graph::new(&index).context(task, budget, &[]).unwrap();
        let bytes = serde_json::to_vec(&b).unwrap().len();
        assert!(bytes <= budget * 4, "{budget} tokens: {bytes} bytes");
        assert_eq!(b.limits.used_estimate, bytes.div_ceil(4));
    }
    // A budget too small for the best snippet keeps its head and says so.
    let small = Graph::new(&index).context("Store.Add", 200, &[]).unwrap();
    assert!(small.notes.iter().any(|n| n.contains("raise")), "{:?}", small.notes);
}

#[test]
fn hints_and_paths_lead_and_tests_come_with_a_test_task() {
    let (_dir, index) = indexed();
    let g = Graph::new(&index);
    let b = g.context("where is the money taken", 8000, &["billing/charge.go".to_string()]).unwrap();
    assert_eq!(b.focus[0].path, "billing/charge.go", "{:#?}", b.focus);
    assert!(b.focus[0].reason.contains("hint"), "{:#?}", b.focus);
    let t = g.context("add tests for Store.Add", 8000, &[]).unwrap();
    assert_eq!(t.intent, "tests");
    assert!(focus(&t).iter().any(|f| f.starts_with("store.TestAdd: tests store.Store.Add")), "{:#?}", focus(&t));
    let none = g.context("quokka zebra", 8000, &[]).unwrap();
    assert!(none.snippets.is_empty() && none.notes[0].contains("nothing in the index matches"), "{:?}", none.notes);
}

/// Files whose paths hold the task's words lead when no definition name does:
/// a word in the file's name counts twice a word in a folder's, any case; a
/// word shorter than four letters only as a whole part of the path (`api`, not
/// inside `capital`); a file needs two points.
#[test]
fn files_whose_paths_hold_the_task_words_are_found_by_their_paths() {
    let files = [
        ("pkg/endpoints/endpoints_controller.go", "package endpoints\n\nfunc RunA() {}\n"),
        ("pkg/Controller/endpoints.go", "package controller\n\nfunc RunB() {}\n"),
        ("pkg/Controller/run.go", "package controller\n\nfunc RunC() {}\n"),
        ("api/api_client.go", "package api\n\nfunc RunD() {}\n"),
        ("pkg/api/capital.go", "package api\n\nfunc RunE() {}\n"),
        ("lib/capitals.go", "package lib\n\nfunc RunF() {}\n"),
    ];
    let (_dir, index) = common::indexed_project(&files);
    let b = Graph::new(&index).context("endpoints controller api", 8000, &[]).unwrap();
    let by_path: Vec<String> = b
        .focus
        .iter()
        .filter(|f| f.reason.contains("whose path matches the task") || f.reason.contains("a file the task names"))
        .map(|f| format!("{} {}: {}", f.path, f.qualified_name.as_deref().unwrap_or(""), f.reason))
        .collect();
    // Best first: 2 + 2 points, 2 + 1, then 2 (`api` whole in the file name);
    // the files named by the task's words (`endpoints_controller.go`, and
    // `endpoints.go` as few paths hold `endpoints` here) before the others.
    assert_eq!(
        by_path,
        [
            "pkg/endpoints/endpoints_controller.go endpoints.RunA: a file the task names",
            "pkg/Controller/endpoints.go controller.RunB: a file the task names",
            "api/api_client.go api.RunD: whose path matches the task",
        ],
        "{:#?}",
        b.focus
    );
}

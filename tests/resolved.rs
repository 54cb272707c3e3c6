//! The resolved graph (`cg resolve`, `.codegraph/resolved.cgr`): a cache of
//! what question-time resolution answers. With it, every question about every
//! definition of every graph fixture answers as without it; a file made from
//! another generation, or damaged, is not read (answers come from question
//! time, as before it was made).

use codegraph::graph::resolved::{self, NotRead, Resolved};
use codegraph::graph::{DefId, Graph};
use codegraph::project::{self, Index, Request, UpdateOptions};

mod common;

fn resolve(index: &Index) -> resolved::ResolveStats {
    let (bytes, stats) = resolved::resolve_all(index, 2, &|_, _| {}).unwrap();
    resolved::write(index, &bytes).unwrap();
    stats
}

/// Every definition of the index.
fn every_definition(index: &Index) -> Vec<DefId> {
    let g = Graph::new(index).question_time();
    let mut out = Vec::new();
    for f in index.files().unwrap() {
        let key = (f.segment, f.slot_id);
        let n = g.file(key).unwrap().defs.len() as u32;
        out.extend((0..n).map(|i| (key, i)));
    }
    out
}

/// What a graph answers about `d`: its references with the count of other
/// lines, its callers to depth 3, its callees to depth 2, and the impact of
/// its qualified name.
fn answers(g: &Graph<'_>, d: DefId) -> String {
    let name = g.view(d).unwrap().qualified_name;
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
        g.refs_counted(&[d], &[]).unwrap(),
        g.refs_counted(&[d], &[codegraph::extract::RefRole::Call]).unwrap(),
        g.callers(&[d], 3).unwrap(),
        g.callees(d, 2).unwrap(),
        g.impact(&name, 2).ok().map(|i| (i.callers, i.tests)),
    )
}

#[test]
fn every_fixture_answers_alike_with_the_resolved_graph() {
    let mut compared = 0;
    for lang in ["c", "cpp", "csharp", "go", "java", "php", "python", "ruby", "rust", "ts"] {
        let (_dir, index) = common::indexed_graph_fixture(lang);
        let stats = resolve(&index);
        assert!(stats.sites > 0, "{lang}: nothing bound");
        // Reopened, as a later process would.
        let index = Index::open(_dir.path()).unwrap();
        assert!(Resolved::open(&index).is_ok(), "{lang}: the resolved graph just written is not read");
        let mut bound = 0;
        for d in every_definition(&index) {
            let (stored, asked) = (Graph::new(&index), Graph::new(&index).question_time());
            let (a, b) = (answers(&stored, d), answers(&asked, d));
            assert_eq!(a, b, "{lang}: {} answered differently", asked.view(d).unwrap().qualified_name);
            bound += !stored.refs(&[d], &[]).unwrap().is_empty() as usize;
            compared += 1;
        }
        assert!(bound > 0, "{lang}: no definition has a reference");
    }
    assert!(compared > 100, "{compared} definitions compared");
}

/// The stored answer is read, not made again: a question reads only the
/// files holding its references (and the target's own).
#[test]
fn refs_from_the_resolved_graph_read_only_the_files_holding_them() {
    let mut files: Vec<(String, String)> = vec![
        ("base.py".into(), "class Base:\n    def run(self):\n        return 1\n".into()),
        ("other.py".into(), "class Other:\n    def run(self):\n        return 2\n".into()),
        ("go.py".into(), "from base import Base\n\n\ndef go():\n    b = Base()\n    return b.run()\n".into()),
    ];
    // Files calling `run` of another class: question time reads each to
    // find that its `run` is `Other.run` (two classes define `run`: too few
    // to narrow the files by the receivers' types).
    for i in 0..40 {
        files.push((
            format!("u{i:02}.py"),
            format!("from other import Other\n\n\ndef u{i}():\n    o = Other()\n    return o.run()\n"),
        ));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (dir, index) = common::indexed_project(&files);
    resolve(&index);
    let index = Index::open(dir.path()).unwrap();
    let (stored, asked) = (Graph::new(&index), Graph::new(&index).question_time());
    let d = stored.find("Base.run").unwrap();
    assert_eq!(stored.refs(&d, &[]).unwrap(), asked.refs(&d, &[]).unwrap());
    assert_eq!(stored.refs(&d, &[]).unwrap().len(), 1);
    assert!(stored.files_read() <= 3, "read {} files", stored.files_read());
    assert!(asked.files_read() > 10, "question time read {} files", asked.files_read());
}

/// Callees read the calls stored by their file: only the definition's own
/// file is decoded, where question time reads the files that resolving its
/// calls needs (here each C function's header and source, to find that the
/// prototype and the definition are one function).
#[test]
fn callees_from_the_resolved_graph_read_only_the_definitions_file() {
    let mut files: Vec<(String, String)> = Vec::new();
    let mut main = String::new();
    for i in 0..12 {
        files.push((format!("f{i:02}.h"), format!("int f{i}(int x);\n")));
        files
            .push((format!("f{i:02}.c"), format!("#include \"f{i:02}.h\"\n\nint f{i}(int x) {{\n    return x;\n}}\n")));
        main.push_str(&format!("#include \"f{i:02}.h\"\n"));
    }
    main.push_str("\nint go(void) {\n    int n = 0;\n");
    for i in 0..12 {
        main.push_str(&format!("    n += f{i}(n);\n"));
    }
    main.push_str("    return n;\n}\n");
    files.push(("main.c".into(), main));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (dir, index) = common::indexed_project(&files);
    resolve(&index);
    let index = Index::open(dir.path()).unwrap();
    let (stored, asked) = (Graph::new(&index), Graph::new(&index).question_time());
    let go = stored.find("go").unwrap()[0];
    let callees = stored.callees(go, 1).unwrap();
    assert_eq!(callees, asked.callees(go, 1).unwrap());
    let names: Vec<&str> = callees.iter().filter_map(|e| Some(e.symbol.as_ref()?.name.as_str())).collect();
    assert!(names.contains(&"f11"), "{names:?}");
    assert!(stored.files_read() <= 2, "read {} files", stored.files_read());
    assert!(asked.files_read() > 10, "question time read {} files", asked.files_read());
}

/// A resolved graph whose checksums hold but which was not written by cg (a
/// call bound to a definition in a segment the index does not have) is not
/// believed: callees resolve as asked, and nothing panics.
#[test]
fn a_stored_call_naming_no_segment_is_resolved_as_asked() {
    let files = [
        ("f.c", "int f(int x) {\n    return x;\n}\n"),
        ("main.c", "int f(int x);\n\nint go(void) {\n    return f(1);\n}\n"),
    ];
    let (dir, index) = common::indexed_project(&files);
    let main = index.files().unwrap().into_iter().find(|f| f.path == "main.c").unwrap();
    let key = (main.segment, main.slot_id);
    let g = Graph::new(&index).question_time();
    let call = g.file(key).unwrap().refs.iter().position(|r| r.role == codegraph::extract::RefRole::Call).unwrap();
    // One source, main.c: its call bound to definition 0 of slot 0 of segment 7.
    let mut calls = vec![1u8, 7, 0];
    calls.extend([(call as u8) << 2, 1, 0, 0]);
    let mut body = Vec::new();
    for v in [key.0 as u32, key.1, calls.len() as u32, 0] {
        body.extend_from_slice(&v.to_le_bytes());
    }
    body.extend_from_slice(&calls);
    let sums: Vec<u8> = body.chunks(4096).flat_map(|b| xxhash_rust::xxh3::xxh3_64(b).to_le_bytes()).collect();
    let mut file = b"CGRESOLV".to_vec();
    file.extend_from_slice(&5u32.to_le_bytes());
    file.extend_from_slice(&resolved::RESOLVER.to_le_bytes());
    file.extend_from_slice(&resolved::generation_key(&index).to_le_bytes());
    for v in [0u64, 0, 0, xxhash_rust::xxh3::xxh3_64(&sums), 1, calls.len() as u64] {
        file.extend_from_slice(&v.to_le_bytes());
    }
    file.extend_from_slice(&body);
    file.extend_from_slice(&sums);
    resolved::write(&index, &file).unwrap();
    let index = Index::open(dir.path()).unwrap();
    let stored = Resolved::open(&index).expect("the crafted file opens");
    // Its list names segment 7 of an index of one: it does not decode.
    assert_eq!(stored.calls(key), None);
    assert!(stored.verify().is_err());
    let (g, asked) = (Graph::new(&index), Graph::new(&index).question_time());
    let go = asked.find("go").unwrap()[0];
    let callees = g.callees(go, 2).unwrap();
    assert_eq!(callees, asked.callees(go, 2).unwrap());
    assert!(callees.iter().any(|e| e.symbol.as_ref().is_some_and(|s| s.name == "f")), "{callees:?}");
}

#[test]
fn a_resolved_graph_of_another_generation_is_not_read() {
    let (dir, index) = common::indexed_graph_fixture("go");
    resolve(&index);
    let before: Vec<String> = every_definition(&index).into_iter().map(|d| answers(&Graph::new(&index), d)).collect();
    // An update: a new generation, whose answers may differ.
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "go"))
        .or_else(|| walk_first_go(dir.path()))
        .unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("{text}\nfunc AddedByTheUpdate() {{}}\n")).unwrap();
    let rel = file.strip_prefix(dir.path()).unwrap().to_string_lossy().into_owned();
    project::update(dir.path(), &Request::Update(vec![rel]), &UpdateOptions::default(), &|_| {}).unwrap();
    let index = Index::open(dir.path()).unwrap();
    assert!(matches!(Resolved::open(&index), Err(NotRead::Stale)));
    for d in every_definition(&index) {
        assert_eq!(answers(&Graph::new(&index), d), answers(&Graph::new(&index).question_time(), d));
    }
    assert!(!before.is_empty());
    // Made again for the new generation, it is read.
    resolve(&index);
    let index = Index::open(dir.path()).unwrap();
    assert!(Resolved::open(&index).is_ok());
}

fn walk_first_go(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if p.file_name().is_some_and(|n| n == ".codegraph") {
            continue;
        }
        if p.is_dir() {
            if let Some(found) = walk_first_go(&p) {
                return Some(found);
            }
        } else if p.extension().is_some_and(|e| e == "go") {
            return Some(p);
        }
    }
    None
}

#[test]
fn a_damaged_resolved_graph_is_not_read_and_questions_are_answered() {
    let (dir, index) = common::indexed_graph_fixture("ts");
    resolve(&index);
    let path = resolved::resolved_path(&index).unwrap();
    let good = std::fs::read(&path).unwrap();
    let want: Vec<String> =
        every_definition(&index).into_iter().map(|d| answers(&Graph::new(&index).question_time(), d)).collect();
    let flipped = |at: usize| {
        let mut b = good.clone();
        b[at] ^= 0x55;
        b
    };
    // Opened, but its first block's sum does not hold when a question reads it.
    let index_now = Index::open(dir.path()).unwrap();
    std::fs::write(&path, flipped(76)).unwrap(); // (the header is 72 bytes)
    assert!(Resolved::open(&index_now).is_ok(), "the body is checked block by block, as it is read");
    let got: Vec<String> =
        every_definition(&index_now).into_iter().map(|d| answers(&Graph::new(&index_now), d)).collect();
    assert_eq!(got, want, "a flipped byte in the body: answered differently");
    let damaged: Vec<(&str, Vec<u8>)> = vec![
        ("a flipped byte in the block sums", flipped(good.len() - 1)),
        ("a flipped byte in the header", flipped(30)),
        ("cut short", good[..good.len() / 2].to_vec()),
        ("empty", Vec::new()),
        ("not one", b"garbage that is not a resolved graph at all, long enough for a header".to_vec()),
    ];
    for (what, bytes) in damaged {
        std::fs::write(&path, &bytes).unwrap();
        let index = Index::open(dir.path()).unwrap();
        assert!(Resolved::open(&index).is_err(), "{what}: read");
        let got: Vec<String> = every_definition(&index).into_iter().map(|d| answers(&Graph::new(&index), d)).collect();
        assert_eq!(got, want, "{what}: answered differently");
    }
    // A folder in its place is not read either.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    let index = Index::open(dir.path()).unwrap();
    assert!(Resolved::open(&index).is_err());
    assert!(resolved::write(&index, &good).is_err(), "a folder in the way is replaced silently");
}

fn cg(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cg"))
        .args(args)
        .current_dir(dir)
        .env("CODEGRAPH_HOME", dir.join(".no-codegraph-home"))
        .output()
        .expect("cg runs")
}

/// `cg resolve` makes it and `cg status` says so; `cg refs` answers as
/// before it was made.
#[test]
fn cg_resolve_makes_it_and_answers_stay_the_same() {
    let (dir, _index) = common::indexed_graph_fixture("java");
    let p = dir.path();
    let status = |p: &std::path::Path| String::from_utf8_lossy(&cg(p, &["status"]).stdout).into_owned();
    assert!(status(p).contains("resolved graph: none"), "{}", status(p));
    let before = cg(p, &["refs", "Adder.add"]);
    let made = cg(p, &["resolve", "--json"]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let v: serde_json::Value = serde_json::from_slice(&made.stdout).unwrap();
    assert!(v["sites"].as_u64().unwrap() > 0, "{v}");
    assert!(status(p).contains("resolved graph: made from this generation"), "{}", status(p));
    let after = cg(p, &["refs", "Adder.add"]);
    assert_eq!(String::from_utf8_lossy(&before.stdout), String::from_utf8_lossy(&after.stdout));
    assert!(!after.stdout.is_empty());
}

/// `cg verify` checks the resolved graph too: every block and list of a
/// current one; a damaged one fails with how to make it again; a stale one is
/// said and is no failure.
#[test]
fn cg_verify_checks_the_resolved_graph() {
    let (dir, index) = common::indexed_graph_fixture("ts");
    let p = dir.path();
    let out = |o: &std::process::Output| {
        format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
    };
    let plain = cg(p, &["verify"]);
    assert!(plain.status.success() && !out(&plain).contains("resolved graph"), "{}", out(&plain));
    resolve(&index);
    let checked = cg(p, &["verify"]);
    assert!(checked.status.success(), "{}", out(&checked));
    assert!(out(&checked).contains("the resolved graph ("), "{}", out(&checked));
    // A byte of the last block flipped: opening reads only the header and the
    // sums, so only a whole check finds it.
    let path = resolved::resolved_path(&index).unwrap();
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let blocks = (good.len() - 72).div_ceil(4096 + 8);
    let at = good.len() - blocks * 8 - 1;
    bad[at] ^= 0x20;
    std::fs::write(&path, &bad).unwrap();
    let damaged = cg(p, &["verify"]);
    assert!(!damaged.status.success(), "{}", out(&damaged));
    assert!(out(&damaged).contains("cg resolve"), "{}", out(&damaged));
    // Another generation's: said, not failed.
    std::fs::write(&path, &good).unwrap();
    let file = p.join("added_by_the_test.ts");
    std::fs::write(&file, "export function addedByTheTest() {}\n").unwrap();
    let updated = cg(p, &["update"]);
    assert!(updated.status.success(), "{}", out(&updated));
    let stale = cg(p, &["verify"]);
    assert!(stale.status.success(), "{}", out(&stale));
    assert!(out(&stale).contains("another generation"), "{}", out(&stale));
}

/// A server keeps it made for the current generation, in the background.
#[test]
fn a_server_makes_it_in_the_background() {
    use std::io::Write;
    let (dir, _index) = common::indexed_graph_fixture("python");
    let p = dir.path();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_cg"))
        .args(["mcp"])
        .current_dir(p)
        .env("CODEGRAPH_HOME", p.join(".no-codegraph-home"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let index = Index::open(p).unwrap();
    let started = std::time::Instant::now();
    // The generation settles for 3 s, the server looks every 2 s.
    while resolved::state(&index) != "current" && started.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let _ = server.stdin.take().map(|mut s| s.flush());
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(resolved::state(&index), "current", "no resolved graph after {:?}", started.elapsed());
}

/// A plain name bound to every definition of it (TypeScript scripts share
/// one global scope): the references form one group, listed once, and each
/// definition answers as question time does.
#[test]
fn a_wide_resolution_is_stored_once_as_a_group() {
    let mut files: Vec<(String, String)> =
        (0..24).map(|i| (format!("s{i:02}.ts"), format!("function foo() {{ return {i}; }}\n"))).collect();
    for i in 0..3 {
        files.push((format!("call{i}.ts"), "const x = foo();\nconst y = foo() + foo();\n".into()));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (dir, index) = common::indexed_project(&files);
    let p = dir.path();
    let stats = resolve(&index);
    assert!(stats.groups >= 1 && stats.wide >= 6, "{stats:?}");
    let index = Index::open(p).unwrap();
    let mut listed = 0;
    for d in every_definition(&index) {
        let (stored, asked) = (Graph::new(&index), Graph::new(&index).question_time());
        assert_eq!(answers(&stored, d), answers(&asked, d));
        listed += stored.refs(&[d], &[]).unwrap().len();
    }
    // Each of the 24 `foo`s lists the 9 calls, as ambiguous.
    assert_eq!(listed, 24 * 9);
}

//! Sharded builds (`cg init --shard K/N --out DIR`, then `cg publish DIR`):
//! N processes building a tree's path ranges, published as one generation,
//! answer every term and graph question, signature and count as one `cg init`
//! does; an incomplete, mixed, damaged or foreign set of shards is refused
//! with a message and leaves the index as it was.

mod common;

use codegraph::snapshot::FORMAT_VERSION;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cg_command(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cg"));
    // No model from the machine's data folder: answers here are lexical.
    c.args(args).current_dir(dir).env("CODEGRAPH_HOME", dir.join(".no-codegraph-home"));
    c
}

fn cg(dir: &Path, args: &[&str]) -> Output {
    cg_command(dir, args).output().expect("cg runs")
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = cg(dir, args);
    assert!(out.status.success(), "cg {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn err(dir: &Path, args: &[&str]) -> String {
    let out = cg(dir, args);
    assert!(!out.status.success(), "cg {args:?} should fail: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Builds shards 0..n of `root` into `out` as n processes running at once.
fn build_shards(root: &Path, out: &Path, n: u32, extra: &[&str]) {
    let children: Vec<_> = (0..n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let mut args = vec!["init", "--shard", shard.as_str(), "--out", out.to_str().unwrap(), "--threads", "1"];
            args.extend_from_slice(extra);
            cg_command(root, &args).output()
        })
        .collect();
    for (k, child) in children.into_iter().enumerate() {
        let child = child.expect("cg runs");
        assert!(child.status.success(), "shard {k}/{n}: {}", String::from_utf8_lossy(&child.stderr));
    }
}

/// The questions compared: terms, graph, signatures and counts.
const QUESTIONS: &[&[&str]] = &[
    &["query", "add", "--json"],
    &["query", "Store", "--json", "--mode", "prefix"],
    &["query", "inv.ice", "--json", "--mode", "regex"],
    &["refs", "Add", "--json"],
    &["refs", "Store", "--json"],
    &["callers", "Add", "--json"],
    &["callers", "add", "--json"],
    &["callees", "main", "--json"],
    &["hierarchy", "Store", "--json"],
    &["impact", "Add", "--depth", "3", "--json"],
    &["symbol", "Store", "--json"],
    &["graph", "Store", "--depth", "2", "--json"],
    &["signatures", "--limit", "100", "--json"],
    &["signature", "go/store/store.go", "--json"],
    &["tree", "--depth", "5", "--json"],
    // Ranked by statistics over the whole index, however it is split.
    &["search", "add item to the store", "--json"],
    &["search", "invoice total", "--json", "--limit", "20"],
    &["search", "store add", "--files", "--json"],
    &["search", "store", "--names", "--json"],
    &["context", "the invoice total is wrong when an item is added to the store", "--json"],
];

/// The answers of [`QUESTIONS`] and the index's counts, with the project's
/// own path and the generation's number taken out.
fn answers(root: &Path) -> Vec<String> {
    let path = fs::canonicalize(root).unwrap().display().to_string();
    let generation = regex::Regex::new(r#""generation":\d+"#).unwrap();
    let mut out: Vec<String> = QUESTIONS
        .iter()
        .map(|q| format!("{q:?}\n{}", generation.replace_all(&ok(root, q).replace(&path, "ROOT"), "")))
        .collect();
    let status: serde_json::Value = serde_json::from_str(&ok(root, &["status", "--json"])).unwrap();
    out.push(format!("graph: {}", status["graph"]));
    for key in ["files", "items", "lines", "methods", "occurrences", "types"] {
        out.push(format!("status {key}: {}", status["statistics"][key]));
    }
    out
}

fn fixture(to: &Path) {
    common::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/graph"), to);
}

fn generation(root: &Path) -> u64 {
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(root.join(".codegraph/manifest.json")).unwrap()).unwrap();
    m["generation"].as_u64().unwrap()
}

#[test]
fn sharded_builds_answer_as_one_build_does() {
    let tmp = tempfile::tempdir().unwrap();
    // Roots of one length: the bundle's token estimate counts the root it prints.
    let (single, sharded) = (tmp.path().join("single"), tmp.path().join("shards"));
    fixture(&single);
    fixture(&sharded);
    ok(&single, &["init"]);
    let want = answers(&single);
    assert!(want.iter().any(|a| a.contains("\"callers\"") || a.contains("caller")), "the questions find something");

    for (i, n) in [1u32, 2, 3, 7].into_iter().enumerate() {
        let out = tmp.path().join(format!("shards-{n}"));
        build_shards(&sharded, &out, n, &[]);
        // The shards' folders hold only their own files; the project's index is untouched.
        assert_eq!(sharded.join(".codegraph").exists(), i > 0);
        let published = ok(&sharded, &["publish", out.to_str().unwrap()]);
        assert!(published.contains(&format!("published {n} shard(s) as generation {}", i + 1)), "{published}");
        let got = answers(&sharded);
        for (w, g) in want.iter().zip(&got) {
            assert_eq!(w, g, "{n} shards");
        }
        assert_eq!(generation(&sharded), i as u64 + 1);
    }

    // Shards that cross segment boundaries themselves (4 files a segment), from
    // two folders (two machines' outputs).
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    build_shards(&sharded, &a, 2, &["--segment-slots", "4"]);
    fs::create_dir_all(&b).unwrap();
    for entry in fs::read_dir(&a).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.starts_with("shard-0001") {
            fs::rename(a.join(&name), b.join(&name)).unwrap();
        }
    }
    ok(&sharded, &["publish", a.to_str().unwrap(), b.to_str().unwrap()]);
    let status: serde_json::Value = serde_json::from_str(&ok(&sharded, &["status", "--json"])).unwrap();
    assert!(status["statistics"]["segments"].as_u64().unwrap() > 2, "{status}");
    assert_eq!(answers(&sharded), want);

    // A published index is an index like any: an update follows an edit.
    fs::write(sharded.join("go/extra.go"), "package shop\n\nfunc Extra() int { return 1 }\n").unwrap();
    ok(&sharded, &["update", "go/extra.go"]);
    assert!(ok(&sharded, &["query", "Extra"]).contains("go/extra.go"));
}

#[test]
fn publish_refuses_incomplete_mixed_damaged_or_foreign_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("p");
    fixture(&root);
    ok(&root, &["init"]);
    let before = answers(&root);
    let dir = |name: &str| -> PathBuf { tmp.path().join(name) };
    let publish = |dirs: &[&PathBuf]| -> String {
        let mut args = vec!["publish"];
        args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
        err(&root, &args)
    };

    // One of three missing.
    build_shards(&root, &dir("three"), 3, &[]);
    fs::remove_file(dir("three").join("shard-0001-of-0003.json")).unwrap();
    assert!(publish(&[&dir("three")]).contains("missing shards 1/3"));

    // Shards of two splits together.
    build_shards(&root, &dir("mixed"), 2, &[]);
    fs::copy(dir("three").join("shard-0000-of-0003.json"), dir("mixed").join("shard-0000-of-0003.json")).unwrap();
    assert!(publish(&[&dir("mixed")]).contains("another split"));

    // The same shard twice.
    build_shards(&root, &dir("twice-a"), 2, &[]);
    build_shards(&root, &dir("twice-b"), 2, &[]);
    fs::remove_file(dir("twice-b").join("shard-0001-of-0002.json")).unwrap();
    assert!(publish(&[&dir("twice-a"), &dir("twice-b")]).contains("is in both"));

    // A damaged segment (one byte flipped), and one cut short.
    build_shards(&root, &dir("damaged"), 2, &[]);
    let seg = dir("damaged").join("shard-0001-of-0002-0000.cgs");
    let mut bytes = fs::read(&seg).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x20;
    fs::write(&seg, &bytes).unwrap();
    assert!(publish(&[&dir("damaged")]).contains("damaged or incomplete"));
    bytes[mid] ^= 0x20;
    fs::write(&seg, &bytes[..bytes.len() - 1]).unwrap();
    assert!(publish(&[&dir("damaged")]).contains("damaged or incomplete"));

    // Shards of another format, and a descriptor that is not one.
    build_shards(&root, &dir("format"), 1, &[]);
    let desc = dir("format").join("shard-0000-of-0001.json");
    let text = fs::read_to_string(&desc).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["format_version"] = serde_json::json!(1);
    fs::write(&desc, serde_json::to_vec(&value).unwrap()).unwrap();
    assert!(publish(&[&dir("format")]).contains("build it again with this cg"));
    fs::write(&desc, b"{\"not\": \"a shard\"}").unwrap();
    assert!(publish(&[&dir("format")]).contains("not a shard descriptor"));
    // A descriptor claiming an impossible split (its name made to match) is
    // refused at once, not counted out to four billion.
    value["format_version"] = serde_json::json!(FORMAT_VERSION);
    for (k, n) in [(0u64, 4_000_000_000u64), (3, 2), (0, 0)] {
        let _ = fs::remove_dir_all(dir("split"));
        fs::create_dir_all(dir("split")).unwrap();
        value["shard"] = serde_json::json!(k);
        value["shards"] = serde_json::json!(n);
        let name = format!("shard-{k:04}-of-{n:04}.json");
        fs::write(dir("split").join(name), serde_json::to_vec(&value).unwrap()).unwrap();
        assert!(publish(&[&dir("split")]).contains("no shard of a split"), "{k}/{n}");
    }

    // Shards built from different trees: a file changed between the two builds.
    let (k0, k1) = (dir("trees"), dir("trees"));
    let edited = root.join("go/store/store.go");
    let original = fs::read(&edited).unwrap();
    ok(&root, &["init", "--shard", "0/2", "--out", k0.to_str().unwrap()]);
    fs::write(&edited, [original.as_slice(), b"\n// edited\n"].concat()).unwrap();
    ok(&root, &["init", "--shard", "1/2", "--out", k1.to_str().unwrap()]);
    assert!(publish(&[&dir("trees")]).contains("different trees"));
    // And a whole set, but of the tree before the edit: not this tree.
    assert!(publish(&[&dir("twice-a")]).contains("this tree's files differ"));
    fs::write(&edited, &original).unwrap();

    // Nothing above changed the index: same generation, same answers.
    assert_eq!(generation(&root), 1);
    let leftovers: Vec<String> = fs::read_dir(root.join(".codegraph"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("seg-") && !n.starts_with("seg-000001-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert_eq!(answers(&root), before);

    // Arguments.
    assert!(err(&root, &["init", "--shard", "2/2", "--out", "x"]).contains("0 <= K < N"));
    assert!(err(&root, &["init", "--shard", "0/2"]).contains("--out"));
    assert!(err(&root, &["publish", dir("nothing-here").to_str().unwrap()]).contains("nothing-here"));
    fs::create_dir_all(dir("empty")).unwrap();
    assert!(publish(&[&dir("empty")]).contains("no shard descriptors"));
    let inside = root.join(".codegraph/shards");
    assert!(err(&root, &["init", "--shard", "0/1", "--out", inside.to_str().unwrap()]).contains("outside .codegraph"));
}

/// Symbol search and the context bundle rank by counts over the current
/// files' definitions: an index updated (a file replaced, one added, one
/// removed: their old versions' definitions still in the first segment until a
/// compaction) answers as a fresh build of the same tree. They were summed per
/// segment, superseded files included, and ranked differently.
#[test]
fn search_after_updates_ranks_as_a_fresh_build() {
    let tmp = tempfile::tempdir().unwrap();
    // Roots of one length: the bundle's token estimate counts the root it prints.
    let (updated, fresh) = (tmp.path().join("updated"), tmp.path().join("rebuilt"));
    fixture(&updated);
    fixture(&fresh);
    ok(&updated, &["init"]);
    let edit = |root: &Path| {
        let store = root.join("python/shop/store.py");
        let text = fs::read_to_string(&store).unwrap().replace("def flush(self)", "def flush_store_items(self)");
        fs::write(&store, text + "\n\ndef add_store_item(store, item):\n    store.add(item)\n").unwrap();
        fs::write(root.join("go/store/items.go"), "package store\n\nfunc AddItemTotal(n int) int { return n }\n")
            .unwrap();
        fs::remove_file(root.join("csharp/Invoice.cs")).unwrap();
    };
    edit(&updated);
    ok(&updated, &["update"]);
    edit(&fresh);
    ok(&fresh, &["init"]);
    let status: serde_json::Value = serde_json::from_str(&ok(&updated, &["status", "--json"])).unwrap();
    assert!(status["statistics"]["segments"].as_u64().unwrap() > 1, "the update wrote a segment: {status}");
    let questions: &[&[&str]] = &[
        &["search", "add item to the store", "--json", "--limit", "30"],
        &["search", "invoice total", "--json", "--limit", "30"],
        &["search", "flush store items", "--json"],
        &["search", "store add", "--files", "--json"],
        &["context", "the invoice total is wrong when an item is added to the store", "--json"],
    ];
    for q in questions {
        let (u, f) = (ok(&updated, q), ok(&fresh, q));
        assert!(u.contains("\"score\"") || q[0] == "context", "{q:?} finds something: {u}");
        assert_eq!(u.replace(updated.to_str().unwrap(), "ROOT"), f.replace(fresh.to_str().unwrap(), "ROOT"), "{q:?}");
    }
}

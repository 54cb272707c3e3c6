//! Walking a tree: ignore rules, default excludes, globs, languages, skips, and the
//! same outcomes in the same order whatever the thread count.

use std::fs;
use std::path::Path;

use codegraph::extract::{extract_files, walk, walks_file, Outcome, SkipReason, WalkOptions};
use codegraph::lang::Language;

fn write(root: &Path, rel: &str, content: &[u8]) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

fn rels(root: &Path, options: &WalkOptions) -> Vec<String> {
    walk(root, options).unwrap().files.into_iter().map(|f| f.rel).collect()
}

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "src/main.rs", b"fn main() {}\n");
    write(root, "src/lib/util.go", b"package lib\n");
    write(root, "web/app.ts", b"export const a = 1;\n");
    write(root, "web/app.js", b"var a = 1;\n");
    write(root, "Engine.cs", b"class Engine {}\n");
    write(root, "README.md", b"# not source\n");
    write(root, "node_modules/dep/index.js", b"var dep;\n");
    write(root, "Cargo.toml", b"[package]\n");
    write(root, "target/debug/gen.rs", b"fn gen() {}\n");
    write(root, "App.csproj", b"<Project/>\n");
    write(root, "obj/x.cs", b"class X {}\n");
    write(root, "sub/build/out.ts", b"let o = 1;\n");
    write(root, "sub/target/t.go", b"package t\n");
    write(root, ".gitignore", b"ignored/\n*.gen.ts\n");
    write(root, "ignored/skip.rs", b"fn skip() {}\n");
    write(root, "web/types.gen.ts", b"let g = 1;\n");
    write(root, "web/.ignore", b"local.ts\n");
    write(root, "web/local.ts", b"let l = 1;\n");
    write(root, "web/nested/.gitignore", b"secret.go\n");
    write(root, "web/nested/secret.go", b"package n\n");
    write(root, "web/nested/open.go", b"package n\n");
    dir
}

#[test]
fn walk_honours_ignore_files_and_default_excludes() {
    let dir = tree();
    assert_eq!(
        rels(dir.path(), &WalkOptions::default()),
        [
            "Engine.cs",
            "src/lib/util.go",
            "src/main.rs",
            "sub/build/out.ts",
            "sub/target/t.go",
            "web/app.js",
            "web/app.ts",
            "web/nested/open.go"
        ]
    );
    // Build output is left out only beside its project file, and reported.
    let w = walk(dir.path(), &WalkOptions::default()).unwrap();
    let dirs: Vec<(&str, &str)> = w.excluded_dirs.iter().map(|d| (d.path.as_str(), d.reason.as_str())).collect();
    assert_eq!(
        dirs,
        [
            ("node_modules", "installed npm packages"),
            ("obj", ".NET build output (beside a project file)"),
            ("target", "Rust build output (beside Cargo.toml)")
        ]
    );
}

#[test]
fn walk_filters_by_language_and_globs() {
    let dir = tree();
    let only_rust_go = WalkOptions { languages: vec![Language::Rust, Language::Go], ..WalkOptions::default() };
    assert_eq!(
        rels(dir.path(), &only_rust_go),
        ["src/lib/util.go", "src/main.rs", "sub/target/t.go", "web/nested/open.go"]
    );
    let include = WalkOptions { include: vec!["web/**".into()], ..WalkOptions::default() };
    assert_eq!(rels(dir.path(), &include), ["web/app.js", "web/app.ts", "web/nested/open.go"]);
    let exclude = WalkOptions { exclude: vec!["**/*.go".into(), "*.cs".into()], ..WalkOptions::default() };
    assert_eq!(rels(dir.path(), &exclude), ["src/main.rs", "sub/build/out.ts", "web/app.js", "web/app.ts"]);
    // `*` does not cross folders.
    let shallow = WalkOptions { include: vec!["src/*".into()], ..WalkOptions::default() };
    assert_eq!(rels(dir.path(), &shallow), ["src/main.rs"]);
}

#[test]
fn bad_glob_is_an_error_naming_the_glob() {
    let dir = tree();
    let bad = WalkOptions { exclude: vec!["src/[".into()], ..WalkOptions::default() };
    let err = walk(dir.path(), &bad).unwrap_err().to_string();
    assert!(err.contains("src/["), "{err}");
}

#[cfg(unix)]
#[test]
fn symlinks_are_not_followed() {
    let dir = tree();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "far.rs", b"fn far() {}\n");
    std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("far.rs"), dir.path().join("far_link.rs")).unwrap();
    let files = rels(dir.path(), &WalkOptions::default());
    assert!(!files.iter().any(|f| f.contains("far")), "{files:?}");
}

#[test]
fn large_binary_and_unreadable_files_are_skipped_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "big.rs", &vec![b'a'; 5000]);
    write(dir.path(), "bin.rs", b"fn a() {}\0\0\0");
    write(dir.path(), "ok.rs", b"fn ok() {}\n");
    write(dir.path(), "latin1.rs", b"// caf\xe9\nfn cafe() {}\n");
    let w = walk(dir.path(), &WalkOptions::default()).unwrap();
    let mut files = w.files.clone();
    files.push(codegraph::extract::SourceFile {
        abs: dir.path().join("vanished.rs"),
        rel: "vanished.rs".into(),
        language: Language::Rust,
        size: 0,
    });
    let outcomes = extract_files(&files, 4096);
    let summary: Vec<String> = outcomes
        .iter()
        .map(|o| match o {
            Ok(f) => format!("{}: ok {:?}", f.path, f.diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>()),
            Err(s) => format!("{}: {}", s.path, s.reason.label()),
        })
        .collect();
    assert_eq!(
        summary,
        [
            "big.rs: too large",
            "bin.rs: binary",
            "latin1.rs: ok [\"not valid UTF-8; invalid bytes replaced\"]",
            "ok.rs: ok []",
            "vanished.rs: unreadable",
        ]
    );
    assert!(matches!(outcomes[0], Err(ref s) if s.reason == SkipReason::TooLarge { size: 5000, limit: 4096 }));
}

#[test]
fn outcomes_are_identical_with_one_thread_and_many() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..60 {
        let body = format!("// file {i}\npub struct S{i} {{ v: u32 }}\nfn f{i}() -> u32 {{ {i} }}\n");
        write(dir.path(), &format!("m{}/f{i}.rs", i % 7), body.as_bytes());
    }
    let run = |threads: usize| -> Vec<Outcome> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let options = WalkOptions { threads, ..WalkOptions::default() };
        let w = walk(dir.path(), &options).unwrap();
        pool.install(|| extract_files(&w.files, u64::MAX))
    };
    let one = run(1);
    assert_eq!(one.len(), 60);
    assert_eq!(one, run(4));
}

mod one_file {
    use super::*;
    use proptest::prelude::*;

    const DIRS: &[&str] = &["a", "b", ".h", "src", "target"];
    const FILES: &[&str] = &["x.rs", "y.go", ".z.rs", "w.txt", "v.ts", "Cargo.toml"];
    const RULES: &[&str] = &[
        "*.go",
        "!y.go",
        "a/",
        "/b",
        "b",
        "**/src",
        "x.rs",
        "!x.rs",
        ".h",
        "!.h",
        "!.z.rs",
        "a/x.rs",
        "*.ts",
        "!a/",
        "/x.rs",
        "src/",
        "!src",
        "# a comment",
        "a/**",
        "**/x.rs",
        "*/v.ts",
        "!**/.h",
        "src/*.rs",
        "!b/",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// `walks_file` decides one file exactly as the walk does, without listing
        /// folders: ignore files at any depth, negations, anchored and folder-only
        /// rules, repositories (`.git`) that stop `.gitignore`s above them, hidden
        /// names, default excluded folders, globs.
        #[test]
        fn deciding_one_file_equals_the_walk(
            files in prop::collection::vec((prop::collection::vec(0usize..5, 0..3), 0usize..5), 1..12),
            ignores in prop::collection::vec((prop::collection::vec(0usize..5, 0..3), any::<bool>(), prop::collection::vec(0usize..RULES.len(), 1..4)), 0..6),
            repos in prop::collection::vec((prop::collection::vec(0usize..5, 0..2), prop::option::of(0usize..RULES.len())), 0..3),
            exclude_glob in any::<bool>(),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path();
            let path_of = |dirs: &[usize]| dirs.iter().map(|d| DIRS[*d]).collect::<Vec<_>>().join("/");
            let mut rels = Vec::new();
            for (dirs, f) in &files {
                let folder = path_of(dirs);
                let rel = if folder.is_empty() { FILES[*f].to_string() } else { format!("{folder}/{}", FILES[*f]) };
                write(root, &rel, b"fn f() {}\n");
                rels.push(rel);
            }
            for (dirs, dot_ignore, rules) in &ignores {
                let folder = root.join(path_of(dirs));
                fs::create_dir_all(&folder).unwrap();
                let text: String = rules.iter().map(|r| format!("{}\n", RULES[*r])).collect();
                fs::write(folder.join(if *dot_ignore { ".ignore" } else { ".gitignore" }), text).unwrap();
            }
            for (dirs, exclude) in &repos {
                let git = root.join(path_of(dirs)).join(".git/info");
                fs::create_dir_all(&git).unwrap();
                if let Some(r) = exclude {
                    fs::write(git.join("exclude"), format!("{}\n", RULES[*r])).unwrap();
                }
            }
            let options = WalkOptions {
                exclude: if exclude_glob { vec!["b/**".to_string()] } else { Vec::new() },
                ..WalkOptions::default()
            };
            let walked = super::rels(root, &options);
            for rel in &rels {
                let want = walked.contains(rel);
                prop_assert_eq!(walks_file(root, &options, rel), Some(want), "{}; walked: {:?}", rel, walked);
            }
        }
    }
}

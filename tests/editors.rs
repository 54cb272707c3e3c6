//! The editor integrations under `editors/`: the Zed extension declares `cg lsp` for
//! every language cg indexes, under Zed's names for them, and builds for the target
//! Zed loads (wasm32-wasip2) into a component that exports the server command. Its
//! own tests (how the command is chosen) run natively. The build steps skip, saying
//! so, where the wasm target is not installed.

use codegraph_syntax::lang::Language;
use std::path::{Path, PathBuf};
use std::process::Command;

fn zed_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/zed")
}

/// Zed's language names for the files of one cg language.
fn zed_names(l: Language) -> &'static [&'static str] {
    match l {
        Language::CSharp => &["C#"],
        Language::TypeScript => &["TypeScript", "TSX"],
        Language::JavaScript => &["JavaScript"],
        Language::Rust => &["Rust"],
        Language::Go => &["Go"],
        Language::Python => &["Python"],
        Language::Java => &["Java"],
        Language::C => &["C"],
        Language::Cpp => &["C++"],
        Language::Php => &["PHP"],
        Language::Ruby => &["Ruby"],
    }
}

/// The value of `key = ...` on a line of a TOML file (first match), as written.
fn toml_value(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| l.strip_prefix(key)?.trim_start().strip_prefix('=').map(|v| v.trim().to_string()))
}

#[test]
fn zed_extension_declares_cg_lsp_for_every_language() {
    let manifest = std::fs::read_to_string(zed_dir().join("extension.toml")).unwrap();
    assert_eq!(toml_value(&manifest, "id").as_deref(), Some("\"codegraph\""));
    assert!(manifest.contains("[language_servers.codegraph]"), "{manifest}");
    let list = toml_value(&manifest, "languages").expect("a languages list");
    let declared: Vec<&str> =
        list.trim_matches(|c| c == '[' || c == ']').split(',').map(|s| s.trim().trim_matches('"')).collect();
    for l in Language::ALL {
        for name in zed_names(l) {
            assert!(declared.contains(name), "{} ({name}) missing from {list}", l.name());
        }
    }
    let expected: usize = Language::ALL.iter().map(|l| zed_names(*l).len()).sum();
    assert_eq!(declared.len(), expected, "a language Zed would start cg for that cg does not read: {list}");
    // Zed shows the manifest's version; it is the crate's.
    let cargo = std::fs::read_to_string(zed_dir().join("Cargo.toml")).unwrap();
    assert_eq!(toml_value(&manifest, "version"), toml_value(&cargo, "version"));
    // The server it starts is the one this crate builds.
    let lib = std::fs::read_to_string(zed_dir().join("src/lib.rs")).unwrap();
    assert!(lib.contains("vec![\"lsp\".into()]") && lib.contains("which(\"cg\")"), "{lib}");
}

fn wasm_target_installed() -> bool {
    let out = Command::new("rustup").args(["target", "list", "--installed"]).output();
    matches!(out, Ok(o) if String::from_utf8_lossy(&o.stdout).lines().any(|l| l.trim() == "wasm32-wasip2"))
}

/// Cargo in the extension's folder, with its own target folder under ours.
fn cargo_in_zed(args: &[&str]) -> std::process::Output {
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/editors-zed");
    Command::new(env!("CARGO"))
        .args(args)
        .current_dir(zed_dir())
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap()
}

#[test]
fn zed_extension_builds_into_a_component_exporting_the_server_command() {
    if !wasm_target_installed() {
        eprintln!(
            "zed_extension_builds_into_a_component_exporting_the_server_command: skipped, the wasm32-wasip2 \
             target is not installed (rustup target add wasm32-wasip2)"
        );
        return;
    }
    let out = cargo_in_zed(&["test", "--quiet"]);
    assert!(out.status.success(), "the extension's tests: {}", String::from_utf8_lossy(&out.stderr));
    let out = cargo_in_zed(&["build", "--release", "--quiet", "--target", "wasm32-wasip2"]);
    assert!(out.status.success(), "the wasm build: {}", String::from_utf8_lossy(&out.stderr));
    let wasm =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("target/editors-zed/wasm32-wasip2/release/codegraph_zed.wasm");
    let bytes = std::fs::read(&wasm).unwrap();
    // A component (layer 1), not a core module: what Zed instantiates.
    assert_eq!(&bytes[..8], b"\0asm\x0d\x00\x01\x00", "not a wasm component");
    let has = |s: &str| bytes.windows(s.len()).any(|w| w == s.as_bytes());
    assert!(has("zed:api-version"), "no zed:api-version section: Zed would not load it");
    assert!(has("language-server-command"), "the server command is not exported");
}

//! The README's quick start, run as written: every `cargo run --release -- ARGS` line
//! of its `sh` blocks runs as `cg ARGS` on a copy of this repository's sources (a
//! git repository) and must succeed with output (`watch` must start watching).

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// The argument lists of the README's runnable examples, in order.
fn examples() -> Vec<Vec<String>> {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = t == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let code = t.split(" #").next().unwrap_or(t).trim();
        if let Some(args) = code.strip_prefix("cargo run --release -- ") {
            out.push(args.split_whitespace().map(str::to_string).collect());
        }
    }
    out
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn the_readme_quick_start_runs_as_written() {
    let examples = examples();
    assert!(examples.len() >= 4, "the README lost its quick start: {examples:?}");
    assert_eq!(examples[0], ["init"], "the README starts by indexing");
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &dir.path().join("src"));
    // A checkout, as the README's repository is (`cg hooks install` needs one).
    let git = Command::new("git").args(["init", "-q"]).current_dir(dir.path()).output().unwrap();
    assert!(git.status.success(), "{git:?}");
    for args in examples {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cg"));
        cmd.args(&args).current_dir(dir.path());
        if args[0] == "watch" {
            // It runs until stopped: it must say it is watching.
            let mut child = cmd.stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
            let mut line = String::new();
            BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
            let _ = child.kill();
            let _ = child.wait();
            assert!(line.contains("watching"), "cg {args:?}: {line}");
            continue;
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(0), "cg {args:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(!o.stdout.is_empty(), "cg {args:?} printed nothing");
    }
}

/// format/README.md named versions 20 and 21 in its tables while segments
/// were at 23: the byte-level description must name the version it describes.
#[test]
fn format_readme_names_the_current_version() {
    let doc = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("format/README.md")).unwrap();
    let v = codegraph::snapshot::FORMAT_VERSION;
    for needle in [
        format!("| `format_version` | the segment format version ({v}) |"),
        format!("| 8 | 4 | format version ({v}) |"),
        format!("\n- v{v} ("),
    ] {
        assert!(doc.contains(&needle), "format/README.md lacks {needle:?}");
    }
}

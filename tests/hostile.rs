//! What a hostile agent or an unlucky user does to an index and the files behind
//! it: every path confined, every wait finite, every bad record refused. Each test
//! is named after what used to go wrong.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `cg` and kills it if it has not finished within `limit` (a hang is a failure,
/// not a stuck test run).
fn cg_within(dir: &Path, args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cg"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("cg {args:?} hung for {limit:?}; stderr: {}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn cg(dir: &Path, args: &[&str]) -> Output {
    cg_within(dir, args, Duration::from_secs(60))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("src/deep")).unwrap();
    fs::write(dir.path().join("src/a.rs"), "fn secret_holder() {}\n").unwrap();
    fs::write(dir.path().join("src/deep/b.rs"), "fn secret_holder_two() {}\n").unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    dir
}

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

/// Regression: an indexed file replaced by a symlink to /etc/passwd printed that
/// file's lines; a folder replaced by a symlink leading out did too; a FIFO blocked
/// the query forever; a file grown to gigabytes was read whole.
#[cfg(unix)]
#[test]
fn line_text_is_read_only_from_regular_files_inside_the_project() {
    let dir = project();
    let root = dir.path();
    let secret = tempfile::tempdir().unwrap();
    fs::write(secret.path().join("a.rs"), "SECRET LINE fn secret_holder() {}\n").unwrap();
    fs::write(secret.path().join("b.rs"), "SECRET LINE fn secret_holder_two() {}\n").unwrap();
    fs::remove_file(root.join("src/a.rs")).unwrap();
    std::os::unix::fs::symlink(secret.path().join("a.rs"), root.join("src/a.rs")).unwrap();
    fs::remove_dir_all(root.join("src/deep")).unwrap();
    std::os::unix::fs::symlink(secret.path(), root.join("src/deep")).unwrap();
    for term in ["secret_holder", "secret_holder_two"] {
        let q = cg(root, &["query", term]);
        assert!(!text(&q.stdout).contains("SECRET"), "{term}: {}", text(&q.stdout));
        assert!(text(&q.stdout).contains("gone"), "{term}: {}", text(&q.stdout));
    }
    // A FIFO where a file was: answered at once, without text; `cg extract` of it
    // says what it is.
    if mkfifo(&secret.path().join("pipe.rs")) {
        let o = cg_within(secret.path(), &["extract", "pipe.rs"], Duration::from_secs(20));
        assert!(text(&o.stderr).contains("not a regular file"), "{}", text(&o.stderr));
    }
    fs::remove_file(root.join("src/a.rs")).unwrap();
    if mkfifo(&root.join("src/a.rs")) {
        let q = cg_within(root, &["query", "secret_holder"], Duration::from_secs(20));
        assert_eq!(q.status.code(), Some(0), "{}", text(&q.stderr));
        let j = cg_within(root, &["query", "secret_holder", "--json"], Duration::from_secs(20));
        assert!(j.status.success());
    }
    // A file grown far past the size limit is not read (sparse: no disk used).
    fs::remove_file(root.join("src/a.rs")).unwrap();
    let big = fs::File::create(root.join("src/a.rs")).unwrap();
    big.set_len(3 << 30).unwrap();
    let q = cg_within(root, &["query", "secret_holder"], Duration::from_secs(20));
    assert!(text(&q.stdout).contains("src/a.rs:1: method [gone"), "{}", text(&q.stdout));
}

/// Regression: segment names in manifest.json with `../` or an absolute path were
/// opened outside `.codegraph/`; a FIFO named as a segment hung every command; a
/// segment listed twice doubled every count (and `verify` said ok); out-of-range
/// base_segments, superseded slots and generations were accepted.
#[test]
fn a_manifest_is_validated_whole_on_open() {
    let dir = project();
    let root = dir.path();
    let manifest_path = root.join(".codegraph/manifest.json");
    let good: serde_json::Value = serde_json::from_str(&fs::read_to_string(&manifest_path).unwrap()).unwrap();
    let seg = good["segments"][0].as_str().unwrap().to_string();
    let outside = tempfile::tempdir().unwrap();
    fs::copy(root.join(".codegraph").join(&seg), outside.path().join("x.cgs")).unwrap();
    let abs = outside.path().join("x.cgs").to_string_lossy().into_owned();
    let cases: Vec<(&str, serde_json::Value, &str)> = vec![
        ("twice", serde_json::json!({"segments": [seg, seg], "base_segments": 2}), "listed twice"),
        ("dotdot", serde_json::json!({"segments": ["../x.cgs"]}), "not a plain"),
        ("absolute", serde_json::json!({"segments": [abs]}), "not a plain"),
        ("base", serde_json::json!({"base_segments": 7}), "base_segments"),
        ("generation", serde_json::json!({"generation": 0}), "generation 0"),
        ("unlisted", serde_json::json!({"superseded": {"seg-000001-0009.cgs": [0]}}), "not a listed segment"),
        ("slot", serde_json::json!({"superseded": {seg.clone(): [5000]}}), "superseded slot 5000"),
        ("unsorted", serde_json::json!({"superseded": {seg.clone(): [1, 0]}}), "not sorted"),
    ];
    for (what, patch, message) in cases {
        let mut m = good.clone();
        for (k, v) in patch.as_object().unwrap() {
            m[k] = v.clone();
        }
        fs::write(&manifest_path, serde_json::to_vec(&m).unwrap()).unwrap();
        for args in [&["query", "secret_holder"][..], &["verify"], &["status"], &["compact"]] {
            let o = cg(root, args);
            assert_eq!(o.status.code(), Some(2), "{what} {args:?}: {}", text(&o.stdout));
            let err = text(&o.stderr);
            assert!(err.contains(message) && err.contains("cg init"), "{what} {args:?}: {err}");
        }
    }
    // A FIFO named as a segment: an error at once, not a hang.
    #[cfg(unix)]
    {
        let mut m = good.clone();
        m["segments"] = serde_json::json!(["seg-000001-0077.cgs"]);
        fs::write(&manifest_path, serde_json::to_vec(&m).unwrap()).unwrap();
        if mkfifo(&root.join(".codegraph/seg-000001-0077.cgs")) {
            let o = cg_within(root, &["query", "secret_holder"], Duration::from_secs(20));
            assert_eq!(o.status.code(), Some(2));
            assert!(text(&o.stderr).contains("not a regular file"), "{}", text(&o.stderr));
        }
    }
    // `cg init` rebuilds from any of it.
    assert!(cg(root, &["init"]).status.success());
    assert!(cg(root, &["verify"]).status.success());
}

/// Regression: `summary.md` with one invalid UTF-8 byte was replaced by the empty
/// template by `cg init` (and `cg describe`): the person's sections were gone.
#[test]
fn a_summary_that_is_not_utf8_is_never_overwritten() {
    let dir = project();
    let root = dir.path();
    assert!(cg(root, &["describe", "purpose", "Written by a person."]).status.success());
    let path = root.join(".codegraph/summary.md");
    let mut bytes = fs::read(&path).unwrap();
    let at = bytes.len() / 2;
    bytes.insert(at, 0xE9); // a Latin-1 `é`
    fs::write(&path, &bytes).unwrap();
    for args in [&["init"][..], &["describe", "purpose", "more"]] {
        let o = cg(root, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains(&format!("byte {at} is not valid UTF-8")), "{args:?}: {err}");
        assert_eq!(fs::read(&path).unwrap(), bytes, "{args:?} changed what the person wrote");
    }
}

/// Regression: a CLAUDE.md with one Latin-1 byte was left out of the docs without
/// a word.
#[test]
fn a_claude_md_that_is_not_utf8_is_imported() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.rs"), "fn a() {}\n").unwrap();
    fs::write(dir.path().join("CLAUDE.md"), b"# Caf\xe9 rules\nAlways query first.\n").unwrap();
    assert!(cg(dir.path(), &["init"]).status.success());
    let docs = text(&cg(dir.path(), &["docs"]).stdout);
    assert!(docs.contains("Always query first."), "{docs}");
}

/// Regression: `cg remove loop` (a symlink to `.`) removed every file; `codegraph_
/// update {"file": ""}` ran a full rescan; `--from-line 10 --to-line 5` was taken.
#[test]
fn updates_refuse_what_cannot_be_meant() {
    let dir = project();
    let root = dir.path();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(".", root.join("loop")).unwrap();
        let o = cg(root, &["remove", "loop"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(text(&o.stderr).contains("is a symlink"), "{}", text(&o.stderr));
    }
    let o = cg(root, &["remove", "."]);
    assert!(text(&o.stderr).contains("is the project root"), "{}", text(&o.stderr));
    let status: serde_json::Value = serde_json::from_slice(&cg(root, &["status", "--json"]).stdout).unwrap();
    assert_eq!(status["statistics"]["files"], 2, "nothing was removed");
    let o = cg(root, &["update", "src/a.rs", "--from-line", "10", "--to-line", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("not a range of lines"), "{}", text(&o.stderr));
    assert_eq!(cg(root, &["update", ""]).status.code(), Some(2));
}

/// Regression: an error that names its cause printed it twice (`Is a directory (os
/// error 21): Is a directory (os error 21)`).
#[test]
fn errors_say_their_cause_once() {
    let dir = project();
    let config = dir.path().join(".codegraph/config.json");
    fs::remove_file(&config).unwrap();
    fs::create_dir(&config).unwrap();
    let o = cg(dir.path(), &["update"]);
    let err = text(&o.stderr);
    // A folder where config.json belongs is refused as not a regular file,
    // said once.
    assert_eq!(err.matches("not a regular file").count(), 1, "{err}");
    assert_eq!(err.matches("config.json").count(), 1, "{err}");
}

/// Regression: a file nobody may read any more stayed in the index on a rescan
/// ("up to date"). (Root reads every file, so this runs for other users only.)
#[cfg(unix)]
#[test]
fn a_file_that_became_unreadable_leaves_the_index_on_a_rescan() {
    use std::os::unix::fs::PermissionsExt;
    let uid = Command::new("id").arg("-u").output().map(|o| text(&o.stdout).trim().to_string()).unwrap_or_default();
    if uid == "0" || uid.is_empty() {
        return;
    }
    let dir = project();
    fs::set_permissions(dir.path().join("src/a.rs"), fs::Permissions::from_mode(0o000)).unwrap();
    let o = cg(dir.path(), &["update"]);
    assert!(text(&o.stdout).contains("removed: src/a.rs"), "{}", text(&o.stdout));
}

/// Regression: `cg init` and `cg describe` failed at once while another writer held
/// the lock, where `update` and `compact` waited. Every writer now waits `--wait`.
#[test]
fn every_writer_waits_for_the_lock_as_long_as_asked() {
    let dir = project();
    let root = dir.path();
    let lock = fs::File::options().write(true).open(root.join(".codegraph/lock")).unwrap();
    lock.lock().unwrap();
    let started = Instant::now();
    let o = cg(root, &["describe", "purpose", "x", "--wait", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("another cg process is writing"), "{}", text(&o.stderr));
    assert!(started.elapsed() >= Duration::from_millis(900), "gave up before --wait");
    let waiting: Vec<_> = [&["init"][..], &["describe", "purpose", "y"], &["update-docs"]]
        .iter()
        .map(|args| {
            Command::new(env!("CARGO_BIN_EXE_cg"))
                .args(*args)
                .args(["--wait", "30"])
                .current_dir(root)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    lock.unlock().unwrap();
    for child in waiting {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
}

/// Regression: file names holding a newline or `:1: method:` forged lines of
/// `path:line: type: text` output; CR-only line ends made a file one line; a
/// byte-order mark showed in line 1's text.
#[cfg(unix)]
#[test]
fn output_lines_are_what_they_say() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join("real.rs:1: method: forged.rs"), "fn marker_fn() {}\n").unwrap();
    fs::write(root.join("new\nline.rs"), "fn marker_fn() {}\n").unwrap();
    fs::write(root.join("mac.go"), "package p\r\rfunc MacFunc() {}\r// marker_fn\r").unwrap();
    fs::write(root.join("bom.cs"), "\u{feff}class BomClass { void marker_fn() {} }\n").unwrap();
    assert!(cg(root, &["init"]).status.success());
    let out = text(&cg(root, &["query", "marker_fn"]).stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines.contains(&"\"new\\nline.rs\":1: method: fn marker_fn() {}"), "{out}");
    assert!(lines.contains(&"\"real.rs:1: method: forged.rs\":1: method: fn marker_fn() {}"), "{out}");
    assert!(lines.contains(&"bom.cs:1: struct: class BomClass { void marker_fn() {} }"), "{out}");
    assert!(lines.contains(&"mac.go:4: comment: // marker_fn"), "{out}");
    let out = text(&cg(root, &["query", "MacFunc"]).stdout);
    assert_eq!(out, "mac.go:3: method: func MacFunc() {}\n");
}

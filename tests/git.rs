//! `cg sync-git` and `cg hooks` on real repositories made with the `git`
//! command: the files a range of commits changed are the files an update
//! touches, the result answers as a fresh `cg init` does, and the hooks keep
//! the index at HEAD after commits, merges, pulls, checkouts and rewrites.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

/// `git ARGS` in `dir`, isolated from the machine's configuration; panics on failure.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = git_output(dir, args);
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn git_output(dir: &Path, args: &[&str]) -> Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        // The hooks find the `cg` under test first.
        .env("PATH", path_with_cg())
        .output()
        .expect("git runs")
}

fn path_with_cg() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_cg")).parent().unwrap().display().to_string();
    format!("{bin}:{}", std::env::var("PATH").unwrap_or_default())
}

fn cg(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cg")).args(args).current_dir(dir).output().unwrap()
}

fn cg_ok(dir: &Path, args: &[&str]) -> String {
    let out = cg(dir, args);
    assert!(out.status.success(), "cg {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn cg_json(dir: &Path, args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.push("--json");
    serde_json::from_str(&cg_ok(dir, &args)).unwrap()
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    dir
}

fn sorted(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    out.sort();
    out
}

/// What the index answers, in a form to compare: the files and their
/// declarations, a query, references, callers.
fn answers(dir: &Path) -> Vec<String> {
    let mut out = vec![cg_ok(dir, &["tree", "--json"]), cg_ok(dir, &["signatures", ".", "--json"])];
    for args in [["query", "total"], ["refs", "helper"], ["callers", "helper"]] {
        let o = cg(dir, &[args[0], args[1], "--json"]);
        let mut v: Value = serde_json::from_slice(&o.stdout).unwrap();
        // (The generation counts the index's writes, not what it holds.)
        v.as_object_mut().unwrap().remove("generation");
        out.push(format!("{} {v}", o.status.code().unwrap_or(-1)));
    }
    out
}

#[test]
fn sync_touches_exactly_the_files_commits_changed_and_answers_as_a_fresh_init() {
    let dir = repo();
    let p = dir.path();
    write(p, "lib/util.py", "def helper(x):\n    return x + 1\n");
    write(p, "lib/keep.py", "from lib.util import helper\n\ndef keep():\n    return helper(1)\n");
    write(p, "lib/edit.py", "from lib.util import helper\n\ndef edit():\n    return helper(2)\n");
    write(p, "lib/gone.py", "def gone():\n    return 0\n");
    write(p, "lib/old name.py", "def renamed():\n    return helper(3)\n");
    write(p, "build/out.py", "def generated():\n    pass\n");
    write(p, "README.md", "# demo\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "A"]);
    let a = git(p, &["rev-parse", "HEAD"]);
    cg_ok(p, &["init"]);
    assert_eq!(cg_json(p, &["status"])["git"]["indexed_commit"], a);

    // B: an edit, an addition (spaces, non-ASCII, a newline in the name), a
    // deletion, a rename, a non-source change.
    write(p, "lib/edit.py", "from lib.util import helper\n\ndef edit():\n    total = helper(5)\n    return total\n");
    write(p, "lib/new café.py", "from lib.util import helper\n\ndef fresh():\n    return helper(4)\n");
    write(p, "lib/line\nbreak.py", "def odd():\n    return 1\n");
    fs::remove_file(p.join("lib/gone.py")).unwrap();
    git(p, &["mv", "lib/old name.py", "lib/new name.py"]);
    write(p, "README.md", "# demo, changed\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "B"]);
    let b = git(p, &["rev-parse", "HEAD"]);

    let r = cg_json(p, &["sync-git", "--from", &a, "--to", &b]);
    assert!(r.get("rescan").is_none(), "{r}");
    assert_eq!(r["from_commit"], a);
    assert_eq!(r["to_commit"], b);
    assert_eq!(sorted(&r["added"]), ["lib/line\nbreak.py", "lib/new café.py", "lib/new name.py"]);
    assert_eq!(sorted(&r["updated"]), ["lib/edit.py"]);
    assert_eq!(sorted(&r["removed"]), ["lib/gone.py", "lib/old name.py"]);
    // Nothing else was looked at: the unchanged files were not read.
    assert_eq!(r["unchanged"], 0, "{r}");
    let status = cg_json(p, &["status"]);
    assert_eq!(status["git"]["indexed_commit"], b);
    assert_eq!(status["git"]["files_changed_since"], 0);

    // C: an ignore file changes: every file is looked at (and the answer
    // says why); the newly ignored folder leaves the index.
    write(p, ".gitignore", "build/\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "C"]);
    let r = cg_json(p, &["sync-git"]);
    assert!(r["rescan"].as_str().unwrap().contains(".gitignore"), "{r}");
    assert_eq!(sorted(&r["removed"]), ["build/out.py"]);
    assert!(sorted(&r["added"]).is_empty() && sorted(&r["updated"]).is_empty(), "{r}");

    // The same tree indexed from scratch answers alike.
    let fresh = tempfile::tempdir().unwrap();
    git(fresh.path(), &["clone", "-q", p.to_str().unwrap(), "."]);
    cg_ok(fresh.path(), &["init"]);
    assert_eq!(answers(p), answers(fresh.path()));

    // Nothing changed since: nothing to do, the commit recorded stays.
    let r = cg_json(p, &["sync-git"]);
    assert_eq!(r["changed"], false);
    assert_eq!(r["files_changed_in_git"], 0);

    // The work tree's changes are indexed with the commit; only later edits
    // count as changed since indexing.
    write(p, "lib/draft.py", "def draft():\n    return helper(6)\n");
    assert_eq!(cg_json(p, &["status"])["git"]["changed"], serde_json::json!(["lib/draft.py"]));
    assert_eq!(sorted(&cg_json(p, &["sync-git"])["added"]), ["lib/draft.py"]);
    let git_status = cg_json(p, &["status"])["git"].clone();
    assert_eq!(git_status["files_changed_since"], 0, "{git_status}");
    assert_eq!(git_status["indexed_with_work_tree_changes"], true);
    write(p, "lib/draft.py", "def draft():\n    return helper(7)\n");
    assert_eq!(cg_json(p, &["status"])["git"]["changed"], serde_json::json!(["lib/draft.py"]));
}

#[test]
fn unknown_commits_empty_repositories_detached_heads_and_plain_folders() {
    // A `from` the repository does not have (pruned): a rescan, said, exit 0.
    let dir = repo();
    let p = dir.path();
    write(p, "a.py", "def a():\n    pass\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "A"]);
    cg_ok(p, &["init"]);
    let out = cg_ok(p, &["sync-git", "--from", "0123456789012345678901234567890123456789"]);
    assert!(out.contains("not in the repository"), "{out}");
    // `--to` must be HEAD: files are read as they are on disk.
    write(p, "b.py", "def b():\n    pass\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "B"]);
    let out = cg(p, &["sync-git", "--to", "HEAD~1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("check it out"), "{out:?}");
    assert_eq!(sorted(&cg_json(p, &["sync-git", "--to", "HEAD"])["added"]), ["b.py"]);
    // Another writer holds the index: `--wait` is how long the sync waits.
    {
        let _held = codegraph::project::WriteLock::acquire(&p.join(".codegraph")).unwrap();
        let started = Instant::now();
        let out = cg(p, &["sync-git", "--wait", "0"]);
        assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("locked"), "{out:?}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    // A detached HEAD syncs like any other.
    git(p, &["checkout", "-q", "--detach", "HEAD~1"]);
    let r = cg_json(p, &["sync-git"]);
    assert_eq!(sorted(&r["removed"]), ["b.py"]);
    assert_eq!(r["to_commit"], git(p, &["rev-parse", "HEAD"]));

    // The walk's options changed by hand: a rescan, said; the excluded file leaves.
    let config = p.join(".codegraph/config.json");
    let mut c: Value = serde_json::from_str(&fs::read_to_string(&config).unwrap()).unwrap();
    c["exclude"] = serde_json::json!(["a.py"]);
    fs::write(&config, c.to_string()).unwrap();
    let r = cg_json(p, &["sync-git"]);
    assert!(r["rescan"].as_str().unwrap().contains("config.json"), "{r}");
    assert_eq!(sorted(&r["removed"]), ["a.py"]);

    // An empty repository: indexed as a folder; a sync rescans and says why.
    let empty = repo();
    write(empty.path(), "x.py", "def x():\n    pass\n");
    cg_ok(empty.path(), &["init"]);
    assert!(cg_json(empty.path(), &["status"])["git"]["indexed_commit"].is_null());
    let out = cg_ok(empty.path(), &["sync-git"]);
    assert!(out.contains("no commits yet"), "{out}");

    // Not a repository: a clear error; `cg update` keeps working.
    let plain = tempfile::tempdir().unwrap();
    write(plain.path(), "y.py", "def y():\n    pass\n");
    cg_ok(plain.path(), &["init"]);
    for args in [&["sync-git"][..], &["hooks", "install"][..]] {
        let out = cg(plain.path(), args);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not in a git repository") && err.contains("cg update"), "{err}");
    }
    cg_ok(plain.path(), &["update"]);
    assert!(cg_json(plain.path(), &["status"]).get("git").is_none());
}

/// Waits until `cg status` shows the index at HEAD (the hooks sync in the
/// background).
fn wait_at_head(p: &Path, what: &str) {
    let head = git(p, &["rev-parse", "HEAD"]);
    let started = Instant::now();
    loop {
        let s = cg_json(p, &["status"]);
        if s["git"]["indexed_commit"] == head.as_str() && s["git"]["files_changed_since"] == 0 {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{what}: index not at HEAD {head}: {s}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn hooks_keep_the_index_at_head_and_uninstall_restores_them() {
    let dir = repo();
    let p = dir.path();
    write(p, "a.py", "def a():\n    pass\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "A"]);
    cg_ok(p, &["init"]);
    // A hook of the user's own, without a final newline, and one that is not there.
    let hooks = p.join(".git/hooks");
    let own = "#!/bin/sh\necho mine > /dev/null";
    fs::write(hooks.join("post-commit"), own).unwrap();
    make_executable(&hooks.join("post-commit"));
    cg_ok(p, &["hooks", "install"]);
    let once = fs::read_to_string(hooks.join("post-commit")).unwrap();
    assert!(once.starts_with(own));
    cg_ok(p, &["hooks", "install"]);
    assert_eq!(fs::read_to_string(hooks.join("post-commit")).unwrap(), once, "installed once");

    write(p, "b.py", "def b():\n    return 1\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "B"]);
    wait_at_head(p, "commit");

    git(p, &["checkout", "-q", "-b", "topic"]);
    write(p, "c.py", "def c():\n    pass\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "C"]);
    wait_at_head(p, "commit on a branch");
    git(p, &["checkout", "-q", "main"]);
    wait_at_head(p, "checkout");
    assert!(cg(p, &["signature", "c.py"]).status.code() != Some(0), "c.py left with the branch");

    write(p, "d.py", "def d():\n    pass\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "D"]);
    git(p, &["merge", "-q", "--no-edit", "topic"]);
    wait_at_head(p, "merge");

    git(p, &["commit", "-q", "--amend", "-m", "merged"]);
    wait_at_head(p, "amend");
    git(p, &["checkout", "-q", "topic"]);
    write(p, "e.py", "def e():\n    pass\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "E"]);
    git(p, &["rebase", "-q", "main"]);
    wait_at_head(p, "rebase");

    // A pull from a local remote.
    let remote = tempfile::tempdir().unwrap();
    git(remote.path(), &["clone", "-q", p.to_str().unwrap(), "."]);
    write(remote.path(), "f.py", "def f():\n    pass\n");
    git(remote.path(), &["add", "-A"]);
    git(remote.path(), &["commit", "-qm", "F"]);
    git(p, &["pull", "-q", "--no-rebase", remote.path().to_str().unwrap(), "topic"]);
    wait_at_head(p, "pull");
    assert!(cg_ok(p, &["signature", "f.py"]).contains("def f"));

    // Two syncs at once leave one intact generation.
    let both: Vec<_> = (0..2)
        .map(|_| Command::new(env!("CARGO_BIN_EXE_cg")).args(["sync-git", "--quiet"]).current_dir(p).spawn().unwrap())
        .collect();
    for mut c in both {
        assert!(c.wait().unwrap().success());
    }
    cg_ok(p, &["verify"]);

    // A worktree shares the hooks: its own index follows its commits.
    let wt = tempfile::tempdir().unwrap();
    let w = wt.path().join("wt");
    git(p, &["worktree", "add", "-q", w.to_str().unwrap(), "-b", "side"]);
    cg_ok(&w, &["init"]);
    write(&w, "g.py", "def g():\n    pass\n");
    git(&w, &["add", "-A"]);
    git(&w, &["commit", "-qm", "G"]);
    wait_at_head(&w, "commit in a worktree");
    assert!(cg_ok(&w, &["signature", "g.py"]).contains("def g"));

    cg_ok(p, &["hooks", "uninstall"]);
    assert_eq!(fs::read_to_string(hooks.join("post-commit")).unwrap(), own, "byte for byte");
    // A hook that is a symlink (a shared script) is neither written nor followed.
    #[cfg(unix)]
    {
        let shared = wt.path().join("shared-hook");
        fs::write(&shared, own).unwrap();
        std::os::unix::fs::symlink(&shared, hooks.join("post-merge")).unwrap();
        let out = cg_ok(p, &["hooks", "install"]);
        assert!(out.contains("post-merge: left alone: a symlink"), "{out}");
        assert_eq!(fs::read_to_string(&shared).unwrap(), own);
        cg_ok(p, &["hooks", "uninstall"]);
        assert_eq!(fs::read_to_string(&shared).unwrap(), own);
        fs::remove_file(hooks.join("post-merge")).unwrap();
    }
    for hook in ["post-merge", "post-checkout", "post-rewrite"] {
        assert!(!hooks.join(hook).exists(), "{hook}: created by install, deleted by uninstall");
    }
}

#[cfg(unix)]
fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(not(unix))]
fn make_executable(_: &Path) {}

/// A repository inside the project (not a submodule) is an untracked folder
/// to the outer one: each sync looks at its files again, so a branch switch
/// in it is seen.
#[test]
fn a_repository_inside_the_project_is_followed_by_the_outer_sync() {
    let dir = repo();
    let p = dir.path();
    write(p, "o.py", "def outer():\n    pass\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "O"]);
    let inner = p.join("inner");
    fs::create_dir_all(&inner).unwrap();
    git(&inner, &["init", "-q", "-b", "main"]);
    write(&inner, "i.py", "def first():\n    pass\n");
    git(&inner, &["add", "-A"]);
    git(&inner, &["commit", "-qm", "I"]);
    cg_ok(p, &["init"]);
    git(&inner, &["checkout", "-q", "-b", "other"]);
    write(&inner, "i.py", "def second():\n    pass\n");
    git(&inner, &["commit", "-qam", "I2"]);
    let r = cg_json(p, &["sync-git"]);
    assert_eq!(sorted(&r["updated"]), ["inner/i.py"], "{r}");
    assert!(cg_ok(p, &["signature", "inner/i.py"]).contains("def second"));
}

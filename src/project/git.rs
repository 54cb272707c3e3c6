//! The project in git: the commit HEAD names and whether the work tree has
//! changes (recorded in the manifest by full builds and syncs), the files
//! changed since a commit (`cg sync-git`, `cg status`), and the hooks that
//! sync after commits, merges, checkouts and rewrites (`cg hooks`).
//!
//! Git is read through the `git` command with NUL-separated output (`-z`):
//! paths with spaces, newlines or non-ASCII characters come through as they
//! are, and the answers are git's own for every repository layout it supports
//! (worktrees, `core.hooksPath`, a project in a subfolder, submodules), which a
//! reimplementation would have to track. A sync runs three or four short
//! commands; `GIT_OPTIONAL_LOCKS=0` keeps `git status` from taking the
//! repository's index lock, so hooks never block the commit that fired them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

use super::{read_manifest, update, GitState, ProjectError, Request, UpdateOptions, UpdateReport};
use crate::index::Progress;

/// Runs `git -C root ARGS`; its standard output, or what it said on failure.
fn git(root: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .map_err(|e| format!("cannot run git ({e}): install git, or keep the index fresh with `cg update`"))?;
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(if said.is_empty() { format!("git {} failed", args.join(" ")) } else { said });
    }
    Ok(out.stdout)
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes).trim().to_string()
}

/// The top folder of the git work tree `root` is in; `None` outside one.
fn toplevel(root: &Path) -> Option<PathBuf> {
    git(root, &["rev-parse", "--show-toplevel"]).ok().map(text).filter(|t| !t.is_empty()).map(PathBuf::from)
}

/// Whether `root` is inside a git work tree.
pub fn in_repository(root: &Path) -> bool {
    toplevel(root).is_some()
}

fn not_a_repository(root: &Path) -> ProjectError {
    ProjectError::Git(format!(
        "{}: not in a git repository: `cg sync-git` and `cg hooks` follow commits; `cg update` rescans without git",
        root.display()
    ))
}

/// The commit `rev` names, or `None` when the repository has no such commit.
fn commit_of(root: &Path, rev: &str) -> Option<String> {
    let spec = format!("{rev}^{{commit}}");
    git(root, &["rev-parse", "--verify", "--quiet", "--end-of-options", &spec]).ok().map(text).filter(|c| !c.is_empty())
}

/// HEAD's commit and whether the project's part of the work tree has changes
/// besides it; `None` outside a repository and in one without commits.
pub fn state(root: &Path) -> Option<GitState> {
    let commit = commit_of(root, "HEAD")?;
    let dirty = git(root, &["status", "--porcelain", "-z", "--ignore-submodules=all", "--", "."])
        .map(|o| !o.is_empty())
        .unwrap_or(true);
    let options = super::read_config(root).ok().flatten().unwrap_or_default().walk_fingerprint();
    Some(GitState { commit, dirty, options })
}

/// NUL-separated paths (`-z` output), those that are UTF-8 (cg's paths are);
/// the others are counted.
fn paths(bytes: &[u8], others: &mut usize) -> Vec<String> {
    bytes
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .filter_map(|p| match std::str::from_utf8(p) {
            Ok(s) => Some(s.to_string()),
            Err(_) => {
                *others += 1;
                None
            }
        })
        .collect()
}

/// The project's files that differ between commit `from` and the work tree
/// as it is (commits since, edits, deletions, renames as a deletion and an
/// addition), and the untracked files git does not ignore; relative to the
/// project root, in path order. Submodules are left out.
pub fn changed_since(root: &Path, from: &str) -> Result<Changed, ProjectError> {
    let fail = |e: String| ProjectError::Git(format!("{}: {e}", root.display()));
    let mut not_utf8 = 0;
    let diff = git(
        root,
        &["diff", "--name-only", "-z", "--no-renames", "--relative", "--ignore-submodules=all", from, "--", "."],
    )
    .map_err(fail)?;
    let mut out = paths(&diff, &mut not_utf8);
    let untracked = git(root, &["ls-files", "--others", "--exclude-standard", "-z", "--", "."]).map_err(fail)?;
    out.extend(paths(&untracked, &mut not_utf8));
    out.sort();
    out.dedup();
    Ok(Changed { paths: out, not_utf8 })
}

/// Files changed since a commit ([`changed_since`]).
#[derive(Clone, Debug, Default)]
pub struct Changed {
    pub paths: Vec<String>,
    /// Paths that are not UTF-8 (cg indexes none).
    pub not_utf8: usize,
}

/// Of `paths` (git's changes since a commit), those whose indexed version is
/// not what is on disk now: indexed and changed or deleted, or a source file
/// of an indexed language on disk and not indexed (a sync with the work
/// tree's changes indexed them as they were; only later edits count).
pub fn changed_since_indexed(index: &super::Index, paths: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for p in paths {
        let abs = index.root.join(p);
        let on_disk = fs::symlink_metadata(&abs).ok().filter(|m| m.is_file());
        let indexed = index.locate(p).ok().flatten();
        let changed = match (&indexed, &on_disk) {
            (None, None) => false,
            (None, Some(_)) => crate::lang::Language::from_path(&abs).is_some(),
            (Some(_), None) => true,
            (Some(f), Some(meta)) => {
                // Another size is another file; the same size and time the
                // same; the same size, another time: the hash tells (read
                // inside the project, at most the indexed size).
                let size = f.slot.meta.size;
                meta.len() != size
                    || (crate::safe_fs::mtime_ns(meta) != f.slot.meta.mtime_ns
                        && crate::query::text::read_regular(&abs, &index.root, size)
                            .is_none_or(|(b, _)| xxhash_rust::xxh3::xxh3_64(&b) != f.slot.meta.hash))
            }
        };
        if changed {
            out.push(p.clone());
        }
    }
    out
}

/// Ignore files whose change can make files come into or leave the index.
fn is_ignore_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name, ".gitignore" | ".ignore" | ".rgignore")
}

/// What `cg sync-git` did.
#[derive(Clone, Debug, Serialize)]
pub struct SyncReport {
    /// The commit the index reflected before (none recorded: `None`).
    pub from: Option<String>,
    /// The commit it reflects now, and whether the work tree had changes.
    pub to: Option<GitState>,
    /// Files git reports changed since `from` (given to the update).
    pub changed: usize,
    /// Why every file was looked at instead (a rescan), when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rescan: Option<String>,
    /// Things left out or worth knowing (submodules, paths that are not UTF-8).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip)]
    pub update: UpdateReport,
}

/// Brings the index from the commit it reflects (or `from`) to HEAD and the
/// work tree as they are: only the files git reports changed are looked at,
/// as one update. Every file is looked at instead (and the report says why)
/// when no starting commit is known or it is not in the repository any more,
/// when the walk's options or an ignore file changed, or when most of the
/// tree changed. `to`, when
/// given, must be HEAD: cg indexes files as they are on disk.
pub fn sync(
    root: &Path,
    from: Option<&str>,
    to: Option<&str>,
    lock_wait: std::time::Duration,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<SyncReport, ProjectError> {
    let root = fs::canonicalize(root).map_err(|_| ProjectError::Missing { path: root.to_path_buf() })?;
    let Some(top) = toplevel(&root) else { return Err(not_a_repository(&root)) };
    let manifest = read_manifest(&root)?;
    let now = state(&root);
    if let Some(to) = to {
        let head = now.as_ref().map(|s| s.commit.as_str());
        match commit_of(&root, to) {
            None => return Err(ProjectError::Git(format!("{to:?}: no such commit in this repository"))),
            Some(c) if Some(c.as_str()) != head => {
                return Err(ProjectError::Git(format!(
                    "{to:?} is not HEAD ({}): cg indexes files as they are on disk; check it out, then sync",
                    head.unwrap_or("no commit yet")
                )))
            }
            Some(_) => {}
        }
    }
    let recorded = manifest.git.as_ref().map(|g| g.commit.clone());
    let options_changed = match (&manifest.git, &now) {
        (Some(was), Some(is)) => was.options != 0 && was.options != is.options,
        _ => false,
    };
    let start = from.map(str::to_string).or(recorded);
    let mut notes = Vec::new();
    if root.join(".gitmodules").is_file() || top.join(".gitmodules").is_file() {
        notes.push("submodules are left out (index one as its own project and `cg link` it)".to_string());
    }
    let mut rescan = None;
    let mut changed = Changed::default();
    match &start {
        _ if now.is_none() => rescan = Some("the repository has no commits yet".to_string()),
        None => rescan = Some("the index records no commit (built before it was a repository?)".to_string()),
        Some(_) if options_changed => {
            rescan = Some("the walk's options in .codegraph/config.json changed since the last sync".to_string())
        }
        Some(c) => match commit_of(&root, c) {
            None => {
                rescan = Some(format!("commit {c} is not in the repository (pruned, or from another clone)"));
            }
            Some(c) => {
                changed = changed_since(&root, &c)?;
                if let Some(p) = changed.paths.iter().find(|p| is_ignore_file(p)) {
                    rescan = Some(format!("{p} changed: files may have come into or left the index"));
                } else if changed.paths.len() > 1000 && changed.paths.len() as u64 > manifest.files / 2 {
                    rescan = Some(format!("{} files changed, most of the tree", changed.paths.len()));
                }
            }
        },
    }
    if changed.not_utf8 > 0 {
        notes.push(format!("{} changed path(s) are not UTF-8 and were left out", changed.not_utf8));
    }
    let options = UpdateOptions { lenient: true, git: now.clone(), lock_wait };
    let update = if rescan.is_some() {
        update(&root, &Request::Update(vec![String::new()]), &options, progress)?
    } else if !changed.paths.is_empty() {
        update(&root, &Request::Update(changed.paths.clone()), &options, progress)?
    } else {
        // Nothing to look at (a commit of what was already indexed): the
        // index reflects the new commit as it is.
        if let Some(state) = &now {
            record(&root, state, lock_wait)?;
        }
        UpdateReport { generation: manifest.generation, previous_generation: manifest.generation, ..Default::default() }
    };
    Ok(SyncReport { from: start, to: now, changed: changed.paths.len(), rescan, notes, update })
}

/// Records in the manifest that the index reflects `state`, under the write
/// lock (the generation stays).
fn record(root: &Path, state: &GitState, lock_wait: std::time::Duration) -> Result<(), ProjectError> {
    let dir = root.join(super::DIR);
    let _lock = super::WriteLock::acquire_waiting(&dir, lock_wait)?;
    let mut manifest = read_manifest(root)?;
    if manifest.git.as_ref() != Some(state) {
        manifest.git = Some(state.clone());
        super::write_atomic(&dir.join(super::MANIFEST), &serde_json::to_vec_pretty(&manifest).unwrap_or_default())?;
        super::sync_dir(&dir);
    }
    Ok(())
}

/// The hooks `cg hooks install` writes: after a commit, a merge (`git pull`),
/// a checkout (a branch switch) and a rewrite (rebase, amend).
pub const HOOKS: [&str; 4] = ["post-commit", "post-merge", "post-checkout", "post-rewrite"];
const BEGIN: &str = "# >>> codegraph: keep the index in step with commits (`cg hooks uninstall` removes this)";
const BEGIN_NEWLINE: &str =
    "# >>> codegraph (a newline was added before this line): keep the index in step with commits (`cg hooks uninstall` removes this)";
const END: &str = "# <<< codegraph";
const CREATED: &str = "#!/bin/sh\n# written by `cg hooks install`\n";

/// What is said of a hook that is a symlink: it may be shared by other
/// repositories, so cg writes neither it nor through it.
const LINK: &str =
    "left alone: a symlink (shared with other repositories?); add `cg sync-git --quiet &` to its target by hand";

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The folder git runs hooks from (`core.hooksPath` when set).
fn hooks_dir(root: &Path) -> Result<PathBuf, ProjectError> {
    if !in_repository(root) {
        return Err(not_a_repository(root));
    }
    let dir = git(root, &["rev-parse", "--git-path", "hooks"]).map(text).map_err(ProjectError::Git)?;
    let dir = PathBuf::from(dir);
    Ok(if dir.is_absolute() { dir } else { root.join(dir) })
}

/// A shell word in single quotes.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn block(root: &Path, begin: &str) -> String {
    // In the background, so a commit never waits; without `cg` on PATH it
    // does nothing. Git runs hooks at the top of the work tree that changed:
    // its own index first (the hooks are shared by a repository's
    // worktrees), else the project they were installed for (one in a
    // subfolder). Concurrent syncs take turns on the index's lock, waiting
    // as long as a rescan may take.
    format!(
        "{begin}\nif command -v cg >/dev/null 2>&1; then\n  (cg sync-git --quiet --wait 600 --project . >/dev/null 2>&1 || \
         cg sync-git --quiet --wait 600 --project {} >/dev/null 2>&1) &\nfi\n{END}\n",
        quoted(&root.display().to_string())
    )
}

/// What `cg hooks install` / `uninstall` changed, hook by hook.
#[derive(Clone, Debug, Default, Serialize)]
pub struct HooksReport {
    pub dir: PathBuf,
    /// `(hook, what was done)`: created, added to, already there, removed,
    /// deleted (a hook cg created), not there.
    pub hooks: Vec<(String, &'static str)>,
}

/// Adds the sync to each of [`HOOKS`] in the repository of `root`, once
/// however often it is run, after a hook's own lines.
pub fn install_hooks(root: &Path) -> Result<HooksReport, ProjectError> {
    let root = fs::canonicalize(root).map_err(|_| ProjectError::Missing { path: root.to_path_buf() })?;
    let dir = hooks_dir(&root)?;
    fs::create_dir_all(&dir).map_err(super::io_err(&dir))?;
    let mut report = HooksReport { dir: dir.clone(), hooks: Vec::new() };
    for hook in HOOKS {
        let path = dir.join(hook);
        if is_link(&path) {
            report.hooks.push((hook.to_string(), LINK));
            continue;
        }
        let done = match fs::read(&path) {
            Ok(old) => {
                let old = String::from_utf8(old).map_err(|_| {
                    ProjectError::Git(format!(
                        "{}: not a text file; add `cg sync-git --quiet &` to it by hand",
                        path.display()
                    ))
                })?;
                if old.lines().any(|l| l.starts_with("# >>> codegraph")) {
                    "already there"
                } else {
                    let text = match old.ends_with('\n') || old.is_empty() {
                        true => format!("{old}{}", block(&root, BEGIN)),
                        false => format!("{old}\n{}", block(&root, BEGIN_NEWLINE)),
                    };
                    fs::write(&path, text).map_err(super::io_err(&path))?;
                    if is_executable(&path) {
                        "added to"
                    } else {
                        "added to (it is not executable, so git does not run it: `chmod +x` it)"
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                fs::write(&path, format!("{CREATED}{}", block(&root, BEGIN))).map_err(super::io_err(&path))?;
                make_executable(&path)?;
                "created"
            }
            Err(e) => return Err(ProjectError::Io { path, source: e }),
        };
        report.hooks.push((hook.to_string(), done));
    }
    Ok(report)
}

/// Takes the sync out of each of [`HOOKS`]: a hook as it was before
/// [`install_hooks`], byte for byte; one it created is deleted.
pub fn uninstall_hooks(root: &Path) -> Result<HooksReport, ProjectError> {
    let root = fs::canonicalize(root).map_err(|_| ProjectError::Missing { path: root.to_path_buf() })?;
    let dir = hooks_dir(&root)?;
    let mut report = HooksReport { dir: dir.clone(), hooks: Vec::new() };
    for hook in HOOKS {
        let path = dir.join(hook);
        if is_link(&path) {
            report.hooks.push((hook.to_string(), LINK));
            continue;
        }
        let Ok(old) = fs::read_to_string(&path) else {
            report.hooks.push((hook.to_string(), "not there"));
            continue;
        };
        let Some(start) = old.find("# >>> codegraph") else {
            report.hooks.push((hook.to_string(), "not there"));
            continue;
        };
        let end = old[start..].find(END).map(|i| start + i + END.len()).unwrap_or(old.len());
        let end = if old[end..].starts_with('\n') { end + 1 } else { end };
        let newline_added = old[start..].starts_with(BEGIN_NEWLINE);
        let start = if newline_added && start > 0 { start - 1 } else { start };
        let rest = format!("{}{}", &old[..start], &old[end..]);
        if rest == CREATED {
            fs::remove_file(&path).map_err(super::io_err(&path))?;
            report.hooks.push((hook.to_string(), "deleted"));
        } else {
            fs::write(&path, rest).map_err(super::io_err(&path))?;
            report.hooks.push((hook.to_string(), "removed"));
        }
    }
    Ok(report)
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), ProjectError> {
    use std::os::unix::fs::PermissionsExt;
    let mut p = fs::metadata(path).map_err(super::io_err(path))?.permissions();
    p.set_mode(p.mode() | 0o755);
    fs::set_permissions(path, p).map_err(super::io_err(path))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> Result<(), ProjectError> {
    Ok(())
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_: &Path) -> bool {
    true
}

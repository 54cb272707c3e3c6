//! Following the file system: events in, updates out.
//!
//! [`watch`] subscribes to every change under the project root (the `notify`
//! crate: inotify on Linux), drops events inside `.codegraph/`, `.git/` and the
//! folders the walk never enters, and collects the rest into one batch until the
//! tree has been quiet for a moment (or a burst has lasted long enough). The batch
//! is one [`update`]: the walk's rules decide what is indexed, so ignored files
//! stay out. A burst of more paths than [`WatchOptions::rescan_above`] (a branch
//! switch) becomes one rescan of the whole tree.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecursiveMode, Watcher};

use super::{update, ProjectError, Request, UpdateOptions, UpdateReport, DIR};
use crate::extract::{excluded_dir, rel_path, KeepDirs};

#[derive(Clone, Debug)]
pub struct WatchOptions {
    /// A batch is applied once no event came for this long...
    pub quiet: Duration,
    /// ...or once its first event is this old.
    pub max_delay: Duration,
    /// A batch with more paths than this is applied as a rescan of the whole tree.
    pub rescan_above: usize,
    /// How long an update waits for another writer (a CLI `cg update`).
    pub lock_wait: Duration,
}

impl Default for WatchOptions {
    fn default() -> Self {
        WatchOptions {
            quiet: Duration::from_millis(200),
            max_delay: Duration::from_secs(2),
            rescan_above: 2000,
            lock_wait: Duration::from_secs(60),
        }
    }
}

/// What happened to one batch.
pub enum WatchEvent {
    /// The watcher is subscribed; changes from now on are seen.
    Ready,
    /// A batch of changed paths is being applied.
    Applying {
        paths: usize,
        rescan: bool,
    },
    Updated(UpdateReport),
    /// The batch failed; the index is as it was, and the watcher goes on.
    Failed(ProjectError),
}

/// Watches the project at `root` until `stop` is set, applying each batch of
/// changes as one update and telling `on_event` about it.
pub fn watch(
    root: &Path,
    options: &WatchOptions,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(WatchEvent),
) -> Result<(), ProjectError> {
    let root = std::fs::canonicalize(root).map_err(|_| ProjectError::Missing { path: root.to_path_buf() })?;
    let (tx, rx) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(tx).map_err(|e| watch_error(&root, e))?;
    watcher.watch(&root, RecursiveMode::Recursive).map_err(|e| watch_error(&root, e))?;
    let keep = super::read_config(&root)?.unwrap_or_default().walk_options()?.keep_dirs;
    on_event(WatchEvent::Ready);
    let mut batch: BTreeSet<String> = BTreeSet::new();
    let mut rescan = false;
    let mut first: Option<Instant> = None;
    let mut last = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(Ok(event)) => {
                if event.need_rescan() {
                    rescan = true;
                }
                if matches!(
                    event.kind,
                    EventKind::Access(AccessKind::Open(_) | AccessKind::Read | AccessKind::Any | AccessKind::Other)
                        | EventKind::Access(AccessKind::Close(AccessMode::Read | AccessMode::Execute))
                ) {
                    continue;
                }
                let mut any = false;
                for p in &event.paths {
                    if let Some(rel) = relevant(&root, p, &keep) {
                        batch.insert(rel);
                        any = true;
                    }
                }
                if any || rescan {
                    first.get_or_insert_with(Instant::now);
                    last = Instant::now();
                }
            }
            // An error from the watcher (e.g. an event queue overflow) means
            // changes may have been missed: rescan.
            Ok(Err(_)) => {
                rescan = true;
                first.get_or_insert_with(Instant::now);
                last = Instant::now();
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        let Some(started) = first else { continue };
        if last.elapsed() < options.quiet && started.elapsed() < options.max_delay {
            continue;
        }
        let whole = rescan || batch.len() > options.rescan_above;
        let paths: Vec<String> = if whole { Vec::new() } else { std::mem::take(&mut batch).into_iter().collect() };
        on_event(WatchEvent::Applying { paths: if whole { batch.len() } else { paths.len() }, rescan: whole });
        batch.clear();
        rescan = false;
        first = None;
        let opts = UpdateOptions { lock_wait: options.lock_wait, lenient: true, git: None };
        match update(&root, &Request::Update(paths), &opts, &|_| {}) {
            Ok(report) => on_event(WatchEvent::Updated(report)),
            Err(e) => on_event(WatchEvent::Failed(e)),
        }
    }
    Ok(())
}

/// The relative path of an event's path, unless it lies where the walk never goes.
/// (The update decides again with every rule of the walk; this only keeps a build
/// writing into `target/` from waking the watcher.)
fn relevant(root: &Path, path: &Path, keep: &KeepDirs) -> Option<String> {
    let rel = rel_path(root, path.strip_prefix(root).ok().map(|_| path)?)?;
    if rel.is_empty() {
        return None;
    }
    let mut end = 0;
    let parts: Vec<&str> = rel.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        end += part.len();
        let folder = i + 1 < parts.len();
        if *part == DIR || (folder && excluded_dir(&root.join(&rel[..end]), &rel[..end], keep).is_some()) {
            return None;
        }
        end += 1;
    }
    Some(rel)
}

fn watch_error(root: &Path, e: notify::Error) -> ProjectError {
    let hint = match &e.kind {
        notify::ErrorKind::MaxFilesWatch => {
            "; the system's limit on watched folders is reached: raise fs.inotify.max_user_watches (sysctl)"
        }
        _ => "",
    };
    ProjectError::Io { path: PathBuf::from(root), source: std::io::Error::other(format!("cannot watch: {e}{hint}")) }
}

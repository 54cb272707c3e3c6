//! Links to other indexed projects (`.codegraph/links.json`), searching a project
//! together with its links, and finding indexed projects under a folder.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{read_manifest, write_atomic, Index, ProjectError, DIR, MANIFEST};
use crate::query::{search, Matches, Query, QueryError};

pub const LINKS: &str = "links.json";

/// A linked project.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    pub id: u32,
    pub name: String,
    /// The linked project's root, absolute.
    pub path: PathBuf,
}

/// A link and whether it can be used now.
#[derive(Clone, Debug)]
pub struct LinkStatus {
    pub link: Link,
    pub files: Option<u64>,
    /// Why it cannot be used, when it cannot.
    pub error: Option<String>,
}

pub fn read_links(root: &Path) -> Result<Vec<Link>, ProjectError> {
    let path = root.join(DIR).join(LINKS);
    match crate::safe_fs::read_regular(&path, super::SMALL_FILE_CAP) {
        Ok(bytes) => {
            serde_json::from_slice(&bytes).map_err(|e| ProjectError::BadConfig { path, message: e.to_string() })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(source) => Err(ProjectError::Io { path, source }),
    }
}

fn write_links(root: &Path, links: &[Link]) -> Result<(), ProjectError> {
    write_atomic(&root.join(DIR).join(LINKS), &serde_json::to_vec_pretty(links).unwrap_or_default())
}

/// The root of an indexed project given as its root or its `.codegraph` folder.
fn indexed_root(target: &Path) -> Result<PathBuf, ProjectError> {
    let abs = fs::canonicalize(target).map_err(|_| ProjectError::Missing { path: target.to_path_buf() })?;
    let root = if abs.file_name().is_some_and(|n| n == DIR) { abs.parent().unwrap_or(&abs).to_path_buf() } else { abs };
    if !root.join(DIR).join(MANIFEST).is_file() {
        return Err(ProjectError::NotIndexed { path: root });
    }
    Ok(root)
}

/// Links `target` (an indexed project or its `.codegraph`) to the project at
/// `root`; linking it again renames the link. Returns the link and the files the
/// linked index holds.
pub fn link(root: &Path, target: &Path, name: Option<&str>) -> Result<(Link, u64), ProjectError> {
    let target = indexed_root(target)?;
    if target == root {
        return Err(ProjectError::SelfLink { path: target });
    }
    let manifest = read_manifest(&target)?;
    let name = name.map(str::to_string).unwrap_or_else(|| manifest.name.clone());
    let mut links = read_links(root)?;
    let link = match links.iter_mut().find(|l| l.path == target) {
        Some(l) => {
            l.name = name;
            l.clone()
        }
        None => {
            let id = links.iter().map(|l| l.id).max().unwrap_or(0) + 1;
            let l = Link { id, name, path: target };
            links.push(l.clone());
            l
        }
    };
    write_links(root, &links)?;
    Ok((link, manifest.files))
}

/// Removes the link named `what` (or whose path is `what`).
pub fn unlink(root: &Path, what: &str) -> Result<Link, ProjectError> {
    let mut links = read_links(root)?;
    let as_path = fs::canonicalize(what).ok();
    let Some(pos) =
        links.iter().position(|l| l.name == what || Some(&l.path) == as_path.as_ref() || l.path == Path::new(what))
    else {
        return Err(ProjectError::NoSuchLink(what.to_string()));
    };
    let removed = links.remove(pos);
    write_links(root, &links)?;
    Ok(removed)
}

/// Every link, with the files its index holds or why it cannot be opened.
pub fn statuses(root: &Path) -> Result<Vec<LinkStatus>, ProjectError> {
    Ok(read_links(root)?
        .into_iter()
        .map(|link| match read_manifest(&link.path) {
            Ok(m) => LinkStatus { link, files: Some(m.files), error: None },
            Err(e) => LinkStatus { link, files: None, error: Some(e.to_string()) },
        })
        .collect())
}

/// One project's share of a search over a project and its links.
pub struct ProjectMatches {
    /// `None` for the project itself, the link's name for a dependency.
    pub project: Option<String>,
    pub index: Arc<Index>,
    pub matches: Matches,
}

/// Matches per project, and the links that could not be searched (name, why).
pub type LinkedMatches = (Vec<ProjectMatches>, Vec<(String, String)>);

/// Searches the project and every linked one. A link that is missing or broken is
/// reported in `errors`, not fatal. The limit applies to the whole list, the
/// project's own matches first.
pub fn search_with_links(root: &Path, index: Arc<Index>, query: &Query) -> Result<LinkedMatches, QueryError> {
    let mut groups = Vec::new();
    let mut errors = Vec::new();
    let own = search(&index, query)?;
    let mut left = if query.limit == 0 { usize::MAX } else { query.limit.saturating_sub(own.hits.len()) };
    groups.push(ProjectMatches { project: None, index, matches: own });
    for link in read_links(root).unwrap_or_default() {
        let opened = Index::open(&link.path).map_err(|e| e.to_string());
        let result = opened.and_then(|idx| {
            let mut q = query.clone();
            q.limit = if left == usize::MAX { 0 } else { left };
            let mut m = search(&idx, &q).map_err(|e| e.to_string())?;
            m.hits.truncate(left);
            Ok((idx, m))
        });
        match result {
            Ok((idx, m)) => {
                left = left.saturating_sub(m.hits.len());
                groups.push(ProjectMatches { project: Some(link.name), index: Arc::new(idx), matches: m });
            }
            Err(e) => errors.push((link.name, e)),
        }
    }
    Ok((groups, errors))
}

/// An indexed project found by [`scan`].
#[derive(Clone, Debug)]
pub struct Found {
    pub path: PathBuf,
    pub name: Option<String>,
    pub files: Option<u64>,
    pub last_update_unix_ms: Option<u64>,
    pub error: Option<String>,
}

/// Every indexed project under `dir` (any `.codegraph` folder), in path order.
pub fn scan(dir: &Path) -> Result<Vec<Found>, ProjectError> {
    let dir = fs::canonicalize(dir).map_err(|_| ProjectError::Missing { path: dir.to_path_buf() })?;
    let mut found = Vec::new();
    let walker = ignore::WalkBuilder::new(&dir)
        .standard_filters(false)
        .filter_entry(|e| {
            let name = e.file_name().to_str().unwrap_or("");
            !(e.depth() > 0 && matches!(name, "node_modules" | "target" | ".git" | "obj" | "bin"))
        })
        .build();
    for entry in walker.flatten() {
        if entry.file_name() != DIR || !entry.file_type().is_some_and(|t| t.is_dir()) {
            continue;
        }
        let root = entry.path().parent().unwrap_or(entry.path()).to_path_buf();
        let f = match read_manifest(&root) {
            Ok(m) => Found {
                path: root,
                name: Some(m.name),
                files: Some(m.files),
                last_update_unix_ms: Some(m.created_unix_ms),
                error: None,
            },
            Err(e) => {
                Found { path: root, name: None, files: None, last_update_unix_ms: None, error: Some(e.to_string()) }
            }
        };
        found.push(f);
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(found)
}

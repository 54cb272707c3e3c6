//! The indexed files as a tree: folders with file counts, files with their item
//! and method counts, read from the snapshot's slot records.

use std::collections::BTreeMap;

use super::Index;
use crate::snapshot::SnapshotError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeEntry {
    /// Relative to the project root; folders end without a slash.
    pub path: String,
    pub is_dir: bool,
    /// Files under a folder (1 for a file).
    pub files: u64,
    /// Distinct terms (files) or their sum (folders).
    pub items: u64,
    pub methods: u64,
}

/// Entries under `prefix` ("" for the root), at most `depth` levels below it
/// (0: unlimited), in path order.
pub fn tree(index: &Index, prefix: &str, depth: usize) -> Result<Vec<TreeEntry>, SnapshotError> {
    let prefix = prefix.trim_matches('/').trim_start_matches("./");
    let prefix = if prefix == "." { "" } else { prefix };
    let depth = if depth == 0 { usize::MAX } else { depth };
    // Keyed with `/` as NUL, so a folder's children sort right after it
    // (before a sibling such as `src-old`).
    let key = |p: &str| p.replace('/', "\0");
    let mut entries: BTreeMap<String, TreeEntry> = BTreeMap::new();
    for file in index.files()? {
        let (slot, path) = (file.slot, file.path);
        let rest = if prefix.is_empty() {
            path
        } else {
            match path.strip_prefix(prefix).and_then(|r| r.strip_prefix('/')) {
                Some(r) => r,
                None if path == prefix => "",
                None => continue,
            }
        };
        let parts: Vec<&str> = if rest.is_empty() { Vec::new() } else { rest.split('/').collect() };
        // Folders on the way, then the file itself if within the depth.
        for level in 1..parts.len() {
            if level > depth {
                break;
            }
            let dir = join(prefix, &parts[..level]);
            let e = entries.entry(key(&dir)).or_insert(TreeEntry {
                path: dir,
                is_dir: true,
                files: 0,
                items: 0,
                methods: 0,
            });
            e.files += 1;
            e.items += slot.meta.term_count as u64;
            e.methods += slot.meta.method_count as u64;
        }
        if parts.len() <= depth {
            let p = path.to_string();
            entries.insert(
                key(&p),
                TreeEntry {
                    path: p,
                    is_dir: false,
                    files: 1,
                    items: slot.meta.term_count as u64,
                    methods: slot.meta.method_count as u64,
                },
            );
        }
    }
    Ok(entries.into_values().collect())
}

fn join(prefix: &str, parts: &[&str]) -> String {
    let tail = parts.join("/");
    if prefix.is_empty() {
        tail
    } else {
        format!("{prefix}/{tail}")
    }
}

//! The current text of matched lines, read from the files on disk, and whether a
//! file changed since it was indexed (then its line numbers may be off).

use std::collections::HashMap;
use std::time::UNIX_EPOCH;

use xxhash_rust::xxh3::xxh3_64;

use super::Hit;
use crate::project::Index;

/// Longest line text returned, in bytes.
pub const MAX_LINE_TEXT: usize = 400;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineText {
    /// The line as it is now (trimmed, cut at [`MAX_LINE_TEXT`]); `None` when the
    /// file is gone or shorter now.
    pub text: Option<String>,
    /// The file changed since it was indexed.
    pub stale: bool,
}

/// The text of each hit's line, reading each file once.
pub fn line_texts(index: &Index, hits: &[Hit]) -> Vec<LineText> {
    let mut files: HashMap<&str, Option<(String, bool)>> = HashMap::new();
    hits.iter()
        .map(|hit| {
            let file = files.entry(hit.path.as_str()).or_insert_with(|| read(index, hit));
            match file {
                None => LineText { text: None, stale: true },
                Some((content, stale)) => LineText { text: line(content, hit.line), stale: *stale },
            }
        })
        .collect()
}

fn read(index: &Index, hit: &Hit) -> Option<(String, bool)> {
    let path = index.root.join(&hit.path);
    let bytes = std::fs::read(&path).ok()?;
    let stale = match index.segments.get(hit.segment as usize).and_then(|s| s.slot(hit.slot).ok()) {
        Some(slot) => {
            let mtime = std::fs::metadata(&path)
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i64);
            // Size and mtime first; the hash settles a touched-but-unchanged file.
            (bytes.len() as u64 != slot.meta.size || mtime != slot.meta.mtime_ns) && xxh3_64(&bytes) != slot.meta.hash
        }
        None => true,
    };
    Some((String::from_utf8_lossy(&bytes).into_owned(), stale))
}

fn line(content: &str, number: u32) -> Option<String> {
    let text = content.split('\n').nth(number.checked_sub(1)? as usize)?;
    let text = text.trim_end_matches('\r').trim();
    let mut end = text.len().min(MAX_LINE_TEXT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Some(text[..end].to_string())
}

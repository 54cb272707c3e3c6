//! The text a definition is embedded from: its path's last folders and file
//! name, its parent's name and its own split into subwords, its kind or
//! signature, its doc comment, and for a type the names of its members. Only
//! words are kept (punctuation would weigh on a mean of token vectors), each
//! identifier split into its subwords (`getUserById` → get user by id).

use crate::extract::words::subwords;
use crate::structure::FileStructure;

/// Members of a type named in its text.
pub const MAX_MEMBERS: usize = 24;
/// Bytes of a doc comment used.
const MAX_DOC: usize = 400;

/// Appends `text`'s words to `out`, identifiers split, separated by spaces.
pub fn push_words(text: &str, out: &mut String) {
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        for part in subwords(word) {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            out.push_str(part);
        }
    }
}

/// The words of a path: its last two folders and its file name without the
/// extension.
pub fn push_path(path: &str, out: &mut String) {
    let mut parts: Vec<&str> = path.rsplit('/').take(3).collect();
    parts.reverse();
    for (i, p) in parts.iter().enumerate() {
        let p = if i + 1 == parts.len() { p.rsplit_once('.').map_or(*p, |(stem, _)| stem) } else { p };
        push_words(p, out);
    }
}

fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Calls `f(text)` for each type, then each function or method of the file, in
/// archive order (the order of the definitions table's `index`).
pub fn for_each_chunk(path: &str, s: &FileStructure, mut f: impl FnMut(&str)) {
    let mut text = String::with_capacity(512);
    // The first members of each type, in archive order (methods, then
    // properties), gathered in one pass.
    let mut members: rustc_hash::FxHashMap<&str, Vec<&str>> = rustc_hash::FxHashMap::default();
    if !s.types.is_empty() {
        let methods = s.methods.iter().map(|m| (m.parent.as_ref(), m.name.as_str()));
        let properties = s.properties.iter().map(|p| (p.parent.as_ref(), p.name.as_str()));
        for (parent, name) in methods.chain(properties) {
            if let Some(p) = parent {
                let list = members.entry(p.as_str()).or_default();
                if list.len() < MAX_MEMBERS {
                    list.push(name);
                }
            }
        }
    }
    for t in s.types.iter() {
        text.clear();
        push_words(t.kind.as_str(), &mut text);
        if let Some(p) = t.parent.as_ref() {
            push_words(p.as_str(), &mut text);
        }
        push_words(t.name.as_str(), &mut text);
        push_words(cut(t.doc.as_str(), MAX_DOC), &mut text);
        for m in members.get(t.name.as_str()).map(Vec::as_slice).unwrap_or_default() {
            push_words(m, &mut text);
        }
        push_path(path, &mut text);
        f(&text);
    }
    for m in s.methods.iter() {
        text.clear();
        if let Some(p) = m.parent.as_ref() {
            push_words(p.as_str(), &mut text);
        }
        push_words(m.name.as_str(), &mut text);
        push_words(m.prototype.as_str(), &mut text);
        push_words(cut(m.doc.as_str(), MAX_DOC), &mut text);
        push_path(path, &mut text);
        f(&text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_split_and_punctuation_dropped() {
        let mut s = String::new();
        push_words("func (s *Store) GetUserByID(id string) error", &mut s);
        assert_eq!(s, "func s Store Get User By ID id string error");
        let mut p = String::new();
        push_path("pkg/kubelet/cm/container_manager_linux.go", &mut p);
        assert_eq!(p, "kubelet cm container manager linux");
    }
}

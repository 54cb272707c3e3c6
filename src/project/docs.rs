//! Project documentation: every `CLAUDE.md` of the tree (the root one,
//! `.claude/CLAUDE.md`, and those in subfolders) imported into `.codegraph/docs.md`,
//! one section per file naming its source. The originals are only read.

use std::path::Path;

use super::{write_atomic, ProjectError, DIR};

pub const DOCS: &str = "docs.md";
const NAME: &str = "CLAUDE.md";

/// One imported file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocSection {
    pub title: String,
    pub source: String,
    pub content: String,
}

/// Finds the CLAUDE.md files: project ones first (`CLAUDE.md`, `.claude/CLAUDE.md`),
/// then the others in path order. Ignore rules and default excludes apply.
pub fn find(root: &Path, project_name: &str) -> Vec<DocSection> {
    let nested: Vec<String> = crate::extract::excludes::walk_builder(root)
        .build()
        .flatten()
        .filter(|e| e.depth() > 1 && e.file_name() == NAME && e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| crate::extract::rel_path(root, e.path()))
        .collect();
    sections(root, project_name, nested)
}

/// The sections of the root's CLAUDE.md files and of `nested` (relative paths of
/// CLAUDE.md files in folders below the root), in path order.
fn sections(root: &Path, project_name: &str, mut nested: Vec<String>) -> Vec<DocSection> {
    let mut out = Vec::new();
    for rel in [NAME.to_string(), format!(".claude/{NAME}")] {
        if let Some(content) = read_lossy(root, &root.join(&rel)) {
            out.push(DocSection { title: format!("Project: {project_name}"), source: rel, content });
        }
    }
    nested.sort();
    for rel in nested {
        if let Some(content) = read_lossy(root, &root.join(&rel)) {
            let folder = rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
            out.push(DocSection { title: format!("Library: {folder}"), source: rel, content });
        }
    }
    out
}

/// A CLAUDE.md's text; bytes that are not UTF-8 (a Latin-1 `é`) become U+FFFD
/// instead of leaving the whole file out. Only a regular file inside the project
/// is read (a link to one is followed), at most 16 MiB.
fn read_lossy(root: &Path, path: &Path) -> Option<String> {
    crate::safe_fs::read_inside(path, root, 16 << 20).map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// Renders the sections as `docs.md`.
pub fn render(project_name: &str, sections: &[DocSection]) -> String {
    let mut s = format!("# Documentation: {project_name}\n\n");
    s.push_str("Imported by cg from the project's CLAUDE.md files; edit those, then run `cg update-docs`.\n");
    for (i, d) in sections.iter().enumerate() {
        if i > 0 {
            s.push_str("\n---\n");
        }
        s.push_str(&format!("\n## {}\n> Source: {}\n\n{}\n", d.title, d.source, d.content.trim_end()));
    }
    s
}

/// Re-imports every CLAUDE.md into `docs.md`; returns the sources imported.
pub fn update(root: &Path, project_name: &str) -> Result<Vec<String>, ProjectError> {
    write(root, project_name, find(root, project_name))
}

/// [`update`] from the project files a walk of the tree found (`cg init`'s),
/// instead of walking it again.
pub fn update_from_walk(
    root: &Path,
    project_name: &str,
    project_files: &[String],
) -> Result<Vec<String>, ProjectError> {
    let nested =
        project_files.iter().filter(|rel| rel.contains('/') && rel.rsplit('/').next() == Some(NAME)).cloned().collect();
    write(root, project_name, sections(root, project_name, nested))
}

fn write(root: &Path, project_name: &str, sections: Vec<DocSection>) -> Result<Vec<String>, ProjectError> {
    write_atomic(&root.join(DIR).join(DOCS), render(project_name, &sections).as_bytes())?;
    Ok(sections.into_iter().map(|s| s.source).collect())
}

/// `docs.md`, whole or only the sections whose title or source contains `filter`
/// (case-insensitive).
pub fn read(root: &Path, filter: Option<&str>) -> Result<String, ProjectError> {
    let path = root.join(DIR).join(DOCS);
    let text = crate::safe_fs::read_regular_text(&path, super::SMALL_FILE_CAP)
        .map_err(|source| ProjectError::Io { path, source })?;
    let Some(filter) = filter.map(str::to_lowercase) else { return Ok(text) };
    let mut out = String::new();
    for part in text.split("\n---\n") {
        let Some(start) = part.find("\n## ") else { continue };
        let section = &part[start + 1..];
        let head: String = section.lines().take(2).collect::<Vec<_>>().join(" ").to_lowercase();
        if head.contains(&filter) {
            out.push_str(section.trim_end());
            out.push_str("\n\n");
        }
    }
    Ok(out)
}

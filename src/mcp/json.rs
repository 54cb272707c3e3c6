//! The spec's result shapes as JSON, shared by the MCP tools and `cg ... --json`, so
//! both answer the same thing.

use std::path::Path;

use serde_json::{json, Value};

use crate::project::{self, links, summary, Index, Signature};
use crate::query::{text, Matches};

/// SignatureResult, plus properties.
pub fn signature(s: &Signature) -> Value {
    json!({
        "file": s.file,
        "header_comments": s.header_comments,
        "types": s.types.iter().map(|t| json!({"name": t.name, "kind": t.kind, "line_number": t.line, "parent": t.parent})).collect::<Vec<_>>(),
        "methods": s.methods.iter().map(|m| json!({
            "name": m.name, "prototype": m.prototype, "line_number": m.line, "visibility": m.visibility,
            "is_static": m.is_static, "is_async": m.is_async,
        })).collect::<Vec<_>>(),
        "properties": s.properties.iter().map(|p| json!({
            "name": p.name, "declaration": p.declaration, "line_number": p.line, "visibility": p.visibility,
        })).collect::<Vec<_>>(),
    })
}

/// StatusResult, plus segments and generation.
pub fn status(root: &Path, index: &Index) -> Result<Value, String> {
    let stats = index.stats().map_err(|e| e.to_string())?;
    let m = index.manifest.as_ref().ok_or("index has no manifest")?;
    let dir = root.join(project::DIR);
    Ok(json!({
        "project_name": m.name,
        "codegraph_path": dir,
        "schema_version": crate::snapshot::FORMAT_VERSION.to_string(),
        "statistics": {
            "files": stats.files, "lines": stats.lines, "items": stats.terms, "occurrences": stats.occurrences,
            "methods": m.methods, "types": m.types,
            "dependencies": links::read_links(root).map(|l| l.len()).unwrap_or(0),
            "segments": stats.segments,
            "update_segments": index.segments.len() - index.base,
            "superseded_slots": index.superseded.iter().map(|s| s.len() as u64).sum::<u64>(),
        },
        "generation": m.generation,
        "last_update": m.created_unix_ms / 1000,
        "database_size_bytes": project::store_bytes(root),
    }))
}

/// UpdateResult (`items_*` count the distinct terms of the versions replaced and
/// written, `lines_updated` the lines re-extracted), plus what changed.
pub fn update_report(r: &project::UpdateReport) -> Value {
    json!({
        "success": true,
        "changed": r.changed(),
        "generation": r.generation,
        "items_added": r.items_added,
        "items_removed": r.items_removed,
        "lines_updated": r.lines_updated,
        "added": r.added,
        "updated": r.updated,
        "removed": r.removed,
        "unchanged": r.unchanged,
        "ignored": r.ignored,
        "skipped": r.skipped.iter().map(|s| json!({"file": s.path, "reason": s.reason.to_string()})).collect::<Vec<_>>(),
        "segments_written": r.segments_written,
        "compacted": r.compacted,
        "summary_outdated": r.summary_outdated,
        "docs_refreshed": r.docs_refreshed,
        "visible_ms": r.visible_ms,
        "duration_ms": r.duration_ms,
    })
}

/// SummaryResult.
pub fn summary(root: &Path) -> Result<Value, String> {
    let (content, auto) = summary::read(root).map_err(|e| e.to_string())?;
    let name = project::read_manifest(root).map(|m| m.name).unwrap_or_default();
    Ok(json!({
        "name": name,
        "content": content,
        "auto_generated": {
            "entry_points": auto.entry_points,
            "main_classes": auto.main_types,
            "dependencies": auto.dependencies.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        },
    }))
}

/// A query's matches grouped by file: `{"file", "matches": [{"line", "type", "text"}]}`
/// (definitions first, so a file can appear in a definitions group and again later).
pub fn grouped_matches(index: &Index, project: Option<&str>, m: &Matches) -> Vec<Value> {
    let texts = text::line_texts(index, &m.hits);
    let mut files: Vec<Value> = Vec::new();
    for (h, t) in m.hits.iter().zip(&texts) {
        let mut entry = json!({"line": h.line, "type": h.line_type.name(), "text": t.text});
        if t.stale {
            entry["stale"] = json!(true);
        }
        if files.last().is_none_or(|f| f["file"] != h.path.as_str()) {
            let mut f = json!({"file": h.path, "matches": []});
            if let Some(p) = project {
                f["project"] = json!(p);
            }
            if t.stale {
                f["stale"] = json!(true);
            }
            files.push(f);
        }
        if let Some(list) = files.last_mut().and_then(|f| f["matches"].as_array_mut()) {
            list.push(entry);
        }
    }
    files
}

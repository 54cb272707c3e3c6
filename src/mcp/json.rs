//! The spec's result shapes as JSON, shared by the MCP tools and `cg ... --json`, so
//! both answer the same thing.

use std::path::Path;

use serde_json::{json, Value};

use crate::project::{self, links, summary, Index, Signature};
use crate::query::{text, Matcher, Query};

/// SignatureResult, plus properties. Fields at their default (`is_static: false`,
/// no visibility, no parent, empty lists) are left out: they repeat on every item.
/// Cuts an answer to at most `max_bytes` of JSON (a tool's `max_tokens`): the
/// largest list loses its last items, again while the answer is too long, then
/// the longest text is shortened (ending with `…`); `truncated: true` is set on
/// the answer when anything was cut. An answer whose lists are empty and whose
/// texts are short stays as it is.
pub fn fit(v: &mut Value, max_bytes: usize) {
    for _ in 0..1000 {
        let len = size(v);
        if len <= max_bytes {
            return;
        }
        let excess = len - max_bytes;
        let mut best: Option<(usize, Vec<Step>)> = None;
        largest(v, &mut Vec::new(), true, &mut best);
        let cut = match best.and_then(|(_, path)| at(v, &path)) {
            Some(Value::Array(items)) => {
                let per = (items.iter().map(size).sum::<usize>() / items.len().max(1)).max(1);
                let n = excess.div_ceil(per).clamp(1, items.len());
                items.truncate(items.len() - n);
                true
            }
            _ => {
                let mut best: Option<(usize, Vec<Step>)> = None;
                largest(v, &mut Vec::new(), false, &mut best);
                match best.and_then(|(_, path)| at(v, &path)) {
                    Some(Value::String(text)) if text.len() > 80 => {
                        let mut keep = text.len().saturating_sub(excess + 8).max(64);
                        while !text.is_char_boundary(keep) {
                            keep -= 1;
                        }
                        text.truncate(keep);
                        text.push('…');
                        true
                    }
                    _ => false,
                }
            }
        };
        if !cut {
            return;
        }
        if let Value::Object(map) = v {
            map.insert("truncated".to_string(), Value::Bool(true));
        }
    }
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn size(v: &Value) -> usize {
    serde_json::to_vec(v).map_or(0, |b| b.len())
}

/// The path to the largest non-empty array (`arrays`) or string, by JSON size.
fn largest(v: &Value, path: &mut Vec<Step>, arrays: bool, best: &mut Option<(usize, Vec<Step>)>) {
    let mut consider = |n: usize, path: &Vec<Step>| {
        if best.as_ref().is_none_or(|(b, _)| n > *b) {
            *best = Some((n, path.clone()));
        }
    };
    match v {
        Value::Array(items) => {
            if arrays && !items.is_empty() {
                consider(size(v), path);
            }
            for (i, item) in items.iter().enumerate() {
                path.push(Step::Index(i));
                largest(item, path, arrays, best);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                path.push(Step::Key(k.clone()));
                largest(item, path, arrays, best);
                path.pop();
            }
        }
        Value::String(s) if !arrays => consider(s.len(), path),
        _ => {}
    }
}

fn at<'v>(v: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    let mut v = v;
    for step in path {
        v = match step {
            Step::Key(k) => v.get_mut(k.as_str())?,
            Step::Index(i) => v.get_mut(*i)?,
        };
    }
    Some(v)
}

pub fn signature(s: &Signature) -> Value {
    let mut v = json!({"file": s.file});
    if !s.header_comments.is_empty() {
        v["header_comments"] = json!(s.header_comments);
    }
    let types: Vec<Value> = s
        .types
        .iter()
        .map(|t| {
            let mut o = json!({"name": t.name, "kind": t.kind, "line_number": t.line});
            set_some(&mut o, "parent", &t.parent);
            o
        })
        .collect();
    let methods: Vec<Value> = s
        .methods
        .iter()
        .map(|m| {
            let mut o = json!({"name": m.name, "prototype": m.prototype, "line_number": m.line});
            set_some(&mut o, "visibility", &m.visibility);
            set_true(&mut o, "is_static", m.is_static);
            set_true(&mut o, "is_async", m.is_async);
            o
        })
        .collect();
    let properties: Vec<Value> = s
        .properties
        .iter()
        .map(|p| {
            let mut o = json!({"name": p.name, "declaration": p.declaration, "line_number": p.line});
            set_some(&mut o, "visibility", &p.visibility);
            o
        })
        .collect();
    for (key, list) in [("types", types), ("methods", methods), ("properties", properties)] {
        if !list.is_empty() {
            v[key] = Value::Array(list);
        }
    }
    v
}

fn set_some(o: &mut Value, key: &str, value: &Option<String>) {
    if let Some(x) = value {
        o[key] = json!(x);
    }
}

fn set_true(o: &mut Value, key: &str, value: bool) {
    if value {
        o[key] = json!(true);
    }
}

/// The indexed files under `prefix` as nested folders: a folder is `{"name",
/// "files", "entries"}` (`entries` left out below the depth), a file is its name
/// (or `{"name", "items", "methods"}` with stats). Names, not repeated paths. At
/// most `cap` entries; `truncated` says when cut.
pub fn tree(prefix: &str, entries: &[project::TreeEntry], stats: bool, cap: usize) -> Value {
    let base = prefix.trim_matches('/').trim_start_matches("./");
    let base = if base == "." { "" } else { base };
    let total = entries.len();
    // A stack of open folders: (path, json object).
    let mut stack: Vec<(String, Value)> = vec![(base.to_string(), json!({"entries": []}))];
    let close = |stack: &mut Vec<(String, Value)>| {
        if let Some((_, done)) = stack.pop() {
            if let Some(list) = stack.last_mut().and_then(|(_, v)| v["entries"].as_array_mut()) {
                list.push(done);
            }
        }
    };
    for e in entries.iter().take(cap) {
        let parent = e.path.rsplit_once('/').map_or("", |(d, _)| d);
        while stack.len() > 1 && stack.last().is_some_and(|(p, _)| p != parent) {
            close(&mut stack);
        }
        let name = e.path.rsplit('/').next().unwrap_or(&e.path);
        if e.is_dir {
            let mut v = json!({"name": name, "files": e.files, "entries": []});
            if stats {
                v["items"] = json!(e.items);
                v["methods"] = json!(e.methods);
            }
            stack.push((e.path.clone(), v));
        } else {
            let v = if stats { json!({"name": name, "items": e.items, "methods": e.methods}) } else { json!(name) };
            if let Some(list) = stack.last_mut().and_then(|(_, v)| v["entries"].as_array_mut()) {
                list.push(v);
            }
        }
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    let mut top = stack.pop().map(|(_, v)| v).unwrap_or_default();
    // Folders whose children lie below the depth keep only their counts.
    fn prune(v: &mut Value) {
        if let Some(list) = v.get_mut("entries").and_then(|e| e.as_array_mut()) {
            for child in list.iter_mut() {
                prune(child);
            }
            if list.is_empty() {
                if let Some(o) = v.as_object_mut() {
                    o.remove("entries");
                }
            }
        }
    }
    if let Some(list) = top["entries"].as_array_mut() {
        list.iter_mut().for_each(prune);
    }
    json!({"root": base, "entries": top["entries"].take(), "total_entries": total, "truncated": total > cap})
}

/// StatusResult, plus segments and generation.
pub fn status(root: &Path, index: &Index) -> Result<Value, String> {
    let stats = index.stats().map_err(|e| e.to_string())?;
    let m = index.manifest.as_ref().ok_or("index has no manifest")?;
    let dir = root.join(project::DIR);
    let mut value = json!({
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
        "graph": {
            "definitions": m.graph.definitions,
            "references": {
                "call": m.graph.calls, "type": m.graph.types, "import": m.graph.imports,
                "inherit": m.graph.inherits, "other": m.graph.others,
            },
            // Every reference resolved once (`cg resolve`): current, stale,
            // none or damaged.
            "resolved": crate::graph::resolved::state(index),
        },
        "generation": m.generation,
        "last_update": m.created_unix_ms / 1000,
        "database_size_bytes": project::store_bytes(root),
    });
    if let Some(git) = git_status(root, index, m) {
        value["git"] = git;
    }
    if !m.excluded_dirs.is_empty() {
        value["folders_excluded"] = json!(m.excluded_dirs);
    }
    let config = project::read_config(root).ok().flatten().unwrap_or_default();
    if let Some(name) = config.model.as_deref().filter(|m| *m != project::NO_MODEL) {
        let model = project::index_model(root);
        value["vectors"] = json!(crate::graph::vector_coverage(index, Some(name), model.as_deref()));
    }
    if !m.unsupported_files.is_empty() {
        // Source files left out because cg does not read their language yet.
        value["files_unsupported"] = json!(m.unsupported_files);
    }
    let skipped = project::read_skipped(root);
    if !skipped.files.is_empty() || skipped.more > 0 {
        // Files found but not indexed (binary, too large, unreadable).
        value["files_skipped"] = json!(skipped.files);
        if skipped.more > 0 {
            value["files_skipped_more"] = json!(skipped.more);
        }
    }
    Ok(value)
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

/// What `cg sync-git` / `codegraph_sync_git` did: the commits, why every file
/// was looked at when it was, and the update.
pub fn sync_report(r: &project::git::SyncReport) -> Value {
    let mut v = update_report(&r.update);
    v["from_commit"] = json!(r.from);
    v["to_commit"] = json!(r.to.as_ref().map(|s| &s.commit));
    v["work_tree_changes"] = json!(r.to.as_ref().is_some_and(|s| s.dirty));
    v["files_changed_in_git"] = json!(r.changed);
    if let Some(why) = &r.rescan {
        v["rescan"] = json!(why);
    }
    if !r.notes.is_empty() {
        v["notes"] = json!(r.notes);
    }
    // Changed paths that are no indexed source files are expected here.
    v.as_object_mut().map(|o| o.remove("ignored"));
    v
}

/// The commit the index reflects, HEAD, and the files changed since it was
/// indexed (among those git reports changed since that commit; `None`
/// outside a git repository).
pub fn git_status(root: &Path, index: &Index, m: &project::Manifest) -> Option<Value> {
    if !project::git::in_repository(root) {
        return None;
    }
    let head = project::git::state(root);
    let mut v = json!({
        "indexed_commit": m.git.as_ref().map(|g| &g.commit),
        "indexed_with_work_tree_changes": m.git.as_ref().is_some_and(|g| g.dirty),
        "head": head.as_ref().map(|g| &g.commit),
    });
    if let Some(g) = &m.git {
        if let Ok(changed) = project::git::changed_since(root, &g.commit) {
            const SHOWN: usize = 50;
            let changed = project::git::changed_since_indexed(index, &changed.paths);
            v["files_changed_since"] = json!(changed.len());
            v["changed"] = json!(changed.iter().take(SHOWN).collect::<Vec<_>>());
        }
    }
    Some(v)
}

/// SummaryResult without `auto_generated`: the content already holds the detected
/// part (entry points, main types, dependencies, structure) as Markdown, so it is
/// not repeated as a structure.
pub fn summary(root: &Path) -> Result<Value, String> {
    let (content, _) = summary::read(root).map_err(|e| e.to_string())?;
    let name = project::read_manifest(root).map(|m| m.name).unwrap_or_default();
    Ok(json!({"name": name, "content": content}))
}

/// QueryResult, the same for `codegraph_query` and `cg query --json`: matches
/// grouped by file (definitions first, so a file can appear in a definitions group
/// and again later), the total, how many are shown, whether anything was left out,
/// the generation; the words a term with separators was looked up as; changed files
/// (their hits were found again in the current text, or marked gone); links that
/// could not be searched. With a `budget` in bytes, matches stop, in order, once the
/// answer would outgrow it (at least one stays; their line text is never read), and a
/// `hint` says how to get more.
pub fn query_answer(
    q: &Query,
    groups: &[links::ProjectMatches],
    errors: &[(String, String)],
    budget: Option<usize>,
) -> Value {
    /// Bytes kept for the answer's other fields and the hint.
    const FRAME_BYTES: usize = 400;
    let total: u64 = groups.iter().map(|g| g.matches.total).sum();
    let matcher = Matcher::new(&q.term, q.mode, q.case_sensitive).ok();
    let mut room = budget.map(|b| b.saturating_sub(FRAME_BYTES));
    let (mut files, mut shown, mut cut) = (Vec::<Value>::new(), 0usize, false);
    'groups: for g in groups {
        let mut reader = text::TextReader::new(&g.index, matcher.as_ref());
        let first_file = files.len();
        for h in &g.matches.hits {
            let t = reader.text(h);
            let mut entry = json!({"line": t.line, "type": h.line_type.name(), "text": t.text});
            if t.line != h.line {
                entry["indexed_line"] = json!(h.line);
            }
            if t.gone {
                entry["gone"] = json!(true);
            }
            let new_file = files.len() == first_file || files.last().is_none_or(|f| f["file"] != h.path.as_str());
            let mut size = entry.to_string().len() + 1;
            if new_file {
                size += h.path.len() + g.project.as_ref().map_or(0, |p| p.len() + 12) + 40;
            }
            if let Some(left) = room.as_mut() {
                if shown > 0 && size > *left {
                    cut = true;
                    break 'groups;
                }
                *left = left.saturating_sub(size);
            }
            if new_file {
                let mut f = json!({"file": h.path, "matches": []});
                if let Some(p) = &g.project {
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
            shown += 1;
        }
    }
    let generation = groups.first().and_then(|g| g.index.manifest.as_ref()).map_or(0, |m| m.generation);
    let mut changed: Vec<Value> =
        files.iter().filter(|f| f["stale"] == json!(true)).map(|f| f["file"].clone()).collect();
    changed.dedup();
    let mut v = json!({
        "term": q.term, "total_matches": total, "shown": shown, "truncated": (shown as u64) < total,
        "generation": generation, "files": files,
    });
    if let Some(words) = groups.iter().map(|g| &g.matches.words).find(|w| !w.is_empty()) {
        v["words"] = json!(words);
    }
    if cut {
        v["hint"] = json!(format!(
            "showing the first {shown} of {total} matches (definitions first) to stay near {} bytes; pass \
             max_tokens or limit for more, or narrow with file_filter / type_filter",
            budget.unwrap_or(0)
        ));
    }
    if !changed.is_empty() {
        v["changed_since_indexed"] = json!(changed);
        let more = v["hint"].as_str().map(|h| format!("{h}. ")).unwrap_or_default();
        v["hint"] = json!(format!("{more}some files changed since they were indexed: call codegraph_update for them"));
    }
    if !errors.is_empty() {
        v["dependency_errors"] = errors.iter().map(|(n, e)| json!({"project": n, "error": e})).collect();
    }
    v
}

/// The graph answers, shared by `cg refs ... --json` and the MCP graph tools.
/// Every list is cut at `limit` (0: all); `total` counts all and `truncated`
/// says when the list was cut.
pub mod graph {
    use serde_json::{json, Value};

    use crate::graph::{CallEdge, DefView, Graph, Hierarchy, Impact, ImportView, RefView, SymbolSearch};
    use crate::query::{text, Hit, Matcher, Mode};

    fn cut<T: Clone>(list: &[T], limit: usize) -> (&[T], bool) {
        if limit == 0 || list.len() <= limit {
            (list, false)
        } else {
            (&list[..limit], true)
        }
    }

    fn def(d: &DefView) -> Value {
        json!({"file": d.file, "line": d.line, "kind": d.kind, "name": d.name, "qualified_name": d.qualified_name})
    }

    /// Each reference with its current line text (`text`; absent when the file
    /// cannot be read or no longer holds it).
    pub fn refs(g: &Graph<'_>, defs: &[DefView], (refs, other_lines): (&[RefView], usize), limit: usize) -> Value {
        let (shown, truncated) = cut(refs, limit);
        let name = defs.first().map(|d| d.name.as_str()).unwrap_or("");
        let matcher = Matcher::new(name, Mode::Exact, true).ok();
        let mut reader = text::TextReader::new(g.index, matcher.as_ref());
        let references: Vec<Value> = shown
            .iter()
            .map(|r| {
                let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
                let t = line_text(g, &mut reader, &r.file, r.line);
                if let Some(t) = t.text {
                    v["text"] = json!(t);
                }
                if t.line != r.line {
                    v["line"] = json!(t.line);
                    v["indexed_line"] = json!(r.line);
                }
                if t.gone {
                    v["gone"] = json!(true);
                }
                v
            })
            .collect();
        let mut out = json!({
            "definitions": defs.iter().map(def).collect::<Vec<_>>(),
            "references": references,
            "total": refs.len(),
        });
        if truncated {
            out["truncated"] = json!(true);
        }
        if other_lines > 0 {
            // Counted, not listed: lines naming it outside its definitions that
            // are not references to it (bound elsewhere, `x.Get()` whose
            // receiver's type the graph cannot tell, comments, strings).
            out["other_lines"] = json!(other_lines);
        }
        out
    }

    /// A symbol search: each definition with its first line as it is now
    /// (`text`: usually its signature; a changed file's definition is found
    /// again by its name, or marked gone).
    pub fn search(g: &Graph<'_>, query: &str, found: &SymbolSearch) -> Value {
        let results: Vec<Value> = found
            .hits
            .iter()
            .map(|h| {
                let mut v = serde_json::to_value(h).unwrap_or(Value::Null);
                // A whole file's first line is shown as it is now.
                let matcher = (!h.is_whole_file()).then(|| Matcher::new(&h.name, Mode::Exact, true).ok()).flatten();
                let mut reader = text::TextReader::new(g.index, matcher.as_ref());
                let hit = Hit {
                    path: h.file.clone(),
                    line: h.line,
                    line_type: crate::extract::LineType::Code,
                    segment: h.segment,
                    slot: h.slot,
                };
                let t = reader.text(&hit);
                if let Some(t) = t.text {
                    v["text"] = json!(t);
                }
                if t.line != h.line {
                    v["line"] = json!(t.line);
                    v["indexed_line"] = json!(h.line);
                }
                if t.gone {
                    v["gone"] = json!(true);
                }
                v
            })
            .collect();
        let mut v = json!({"query": query, "mode": found.mode, "subwords": found.subwords, "definitions_holding": found.definitions_holding, "results": results});
        if let Some(s) = &found.semantic {
            v["vectors_compared"] = json!(s.rows);
            if s.transformer_rows > 0 {
                v["transformer_vectors_compared"] = json!(s.transformer_rows);
            }
            if s.files_without > 0 {
                v["files_without_vectors"] = json!(s.files_without);
            }
            if let Some(w) = s.weight {
                v["hybrid_weight"] = json!((w * 1000.0).round() / 1000.0);
            }
        }
        v
    }

    /// The line text of `path:line` as it is now (a changed file's hit is moved
    /// to where its name is, or marked gone).
    pub fn line_text(g: &Graph<'_>, reader: &mut text::TextReader<'_>, path: &str, line: u32) -> text::LineText {
        let (segment, slot) = match g.index.locate(path) {
            Ok(Some(f)) => (f.segment as u32, f.slot_id),
            _ => (u32::MAX, u32::MAX),
        };
        let hit = Hit { path: path.to_string(), line, line_type: crate::extract::LineType::Code, segment, slot };
        reader.text(&hit)
    }

    pub fn calls(defs: &[DefView], key: &str, edges: &[CallEdge], limit: usize) -> Value {
        let (shown, truncated) = cut(edges, limit);
        let mut out = json!({
            "definitions": defs.iter().map(def).collect::<Vec<_>>(),
            key: shown.iter().map(|e| serde_json::to_value(e).unwrap_or(Value::Null)).collect::<Vec<_>>(),
            "total": edges.len(),
        });
        if truncated {
            out["truncated"] = json!(true);
        }
        out
    }

    pub fn imports(file: &str, key: &str, list: &[ImportView], limit: usize) -> Value {
        let (shown, truncated) = cut(list, limit);
        let mut out = json!({
            "file": file,
            key: shown.iter().map(|e| serde_json::to_value(e).unwrap_or(Value::Null)).collect::<Vec<_>>(),
            "total": list.len(),
        });
        if truncated {
            out["truncated"] = json!(true);
        }
        out
    }

    pub fn hierarchy(list: &[Hierarchy]) -> Value {
        json!({"hierarchy": list.iter().map(|h| serde_json::to_value(h).unwrap_or(Value::Null)).collect::<Vec<_>>()})
    }

    pub fn impact(i: &Impact, limit: usize) -> Value {
        let (callers, cut_callers) = cut(&i.callers, limit);
        let (importers, cut_importers) = cut(&i.importers, limit);
        let mut out = json!({
            "definitions": i.symbols.iter().map(def).collect::<Vec<_>>(),
            "callers": callers.iter().map(|e| serde_json::to_value(e).unwrap_or(Value::Null)).collect::<Vec<_>>(),
            "importers": importers.iter().map(|e| serde_json::to_value(e).unwrap_or(Value::Null)).collect::<Vec<_>>(),
            "test_files": i.test_files,
            "tests": i.tests.iter().map(def).collect::<Vec<_>>(),
            "total_callers": i.callers.len(),
            "total_importers": i.importers_total.max(i.importers.len()),
        });
        if cut_callers || cut_importers || i.importers_total > i.importers.len() {
            out["truncated"] = json!(true);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_cuts_the_largest_list_then_long_texts_and_says_so() {
        let items: Vec<Value> = (0..100).map(|i| json!({"file": format!("src/f{i}.rs"), "line": i})).collect();
        let mut v = json!({"symbol": "x", "small": [1, 2], "references": items});
        fit(&mut v, 600);
        assert!(size(&v) <= 600, "{}", size(&v));
        assert_eq!(v["truncated"], true);
        assert_eq!(v["small"], json!([1, 2]));
        let kept = v["references"].as_array().unwrap();
        assert!(!kept.is_empty() && kept[0]["line"] == 0, "the first items stay: {v}");
        let mut text = json!({"content": "é".repeat(2000)});
        fit(&mut text, 500);
        assert!(size(&text) <= 500 && text["content"].as_str().unwrap().ends_with('…'), "{text}");
        let mut fits = json!({"a": [1]});
        fit(&mut fits, 100);
        assert_eq!(fits, json!({"a": [1]}));
    }
}

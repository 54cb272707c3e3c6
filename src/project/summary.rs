//! The project summary: `.codegraph/summary.md`.
//!
//! People's sections (purpose, architecture, key concepts, patterns, notes) come
//! first and are only ever changed by `cg describe` or by hand. The automatic part —
//! entry points, main types, dependencies, directory structure — sits between two
//! marker comments at the end and is rewritten by every `cg init`; nothing outside
//! the markers is touched. The automatic part is also kept as `summary.json`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{write_atomic, Index, ProjectError, DIR};
use crate::extract::LineType;
use crate::lang::Language;
use crate::snapshot::{fold, VariantRec};

pub const SUMMARY: &str = "summary.md";
pub const SUMMARY_JSON: &str = "summary.json";
const BEGIN: &str = "<!-- codegraph:auto:begin — rewritten by `cg init`; write in the sections above -->";
const END: &str = "<!-- codegraph:auto:end -->";

/// The sections people write, as `cg describe` names them, with their headings.
pub const SECTIONS: [(&str, &str); 5] = [
    ("purpose", "Purpose"),
    ("architecture", "Architecture"),
    ("concepts", "Key Concepts"),
    ("patterns", "Patterns"),
    ("custom", "Notes"),
];

/// A top folder: `(folder, files, [(language, files)])`.
pub type FolderCount = (String, u64, Vec<(String, u64)>);

/// What `cg init` detects.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoSummary {
    pub entry_points: Vec<String>,
    /// `name (kind)`, most referenced first.
    pub main_types: Vec<String>,
    /// Dependency names, with the manifest that declares them (the first
    /// `MAX_DEPENDENCIES`).
    pub dependencies: Vec<(String, String)>,
    /// All dependencies found, listed or not.
    #[serde(default)]
    pub dependency_count: usize,
    /// Top folders, most files first.
    pub structure: Vec<FolderCount>,
    /// The index generation this was detected from.
    #[serde(default)]
    pub generation: u64,
}

const MAX_ENTRY_POINTS: usize = 25;
const MAX_MAIN_TYPES: usize = 15;
const MAX_DEPENDENCIES: usize = 60;

/// Detects the automatic parts from the index and the manifests under `root`.
pub fn detect(index: &Index, root: &Path) -> Result<AutoSummary, ProjectError> {
    let mut auto =
        AutoSummary { generation: index.manifest.as_ref().map_or(0, |m| m.generation), ..AutoSummary::default() };
    let mut files: Vec<(String, &'static str)> = Vec::new();
    let mut entry: BTreeSet<String> = BTreeSet::new();
    // A type name: its kind, where it is first defined, how many definitions.
    let mut type_names: HashMap<String, (&'static str, String, usize)> = HashMap::new();
    let all = index.files()?;
    // Each file's declarations, read in parallel (every archive is decompressed),
    // then taken in path order: the first definition of a type name is the one shown.
    let declared: Vec<Result<Declared, ProjectError>> = all
        .par_iter()
        .map(|file| {
            let (seg, slot, path) = (file.seg, file.slot, file.path);
            // Vendored code's entry points and types are not the project's.
            if is_vendored(path) || (slot.meta.type_count == 0 && slot.meta.method_count == 0) {
                return Ok(Declared::default());
            }
            let structure = seg.structure(&slot)?;
            // C, C++, Go, Rust `main`; C#'s static `Main`; Java's static `main`.
            let has_main = structure.methods.iter().any(|m| {
                (m.name == "main" && (m.parent.is_none() || m.is_static)) || (m.name == "Main" && m.is_static)
            });
            let types = structure.types.into_iter().map(|t| (t.name, type_kind(&t.kind), t.line)).collect();
            Ok(Declared { has_main, types })
        })
        .collect();
    for (file, declared) in all.iter().zip(declared) {
        let path = file.path;
        let lang = Language::from_id(file.slot.meta.language).map_or("?", |l| l.name());
        files.push((path.to_string(), lang));
        if is_vendored(path) {
            continue;
        }
        let name = path.rsplit('/').next().unwrap_or(path);
        let named_entry = matches!(
            name,
            "Program.cs"
                | "main.go"
                | "main.rs"
                | "index.ts"
                | "main.ts"
                | "index.js"
                | "main.js"
                | "__main__.py"
                | "manage.py"
                | "Rakefile"
        );
        // Scripts in a top `bin/` folder (`bin/rails`, `bin/console.rb`).
        let bin_script = path.strip_prefix("bin/").is_some_and(|rest| !rest.contains('/'));
        let declared = declared?;
        if named_entry || bin_script || declared.has_main {
            entry.insert(path.to_string());
        }
        for (type_name, kind, line) in declared.types {
            match type_names.entry(type_name) {
                std::collections::hash_map::Entry::Occupied(mut e) => e.get_mut().2 += 1,
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert((kind, format!("{path}:{line}"), 1));
                }
            }
        }
    }
    let (deps, mains) = dependencies(root);
    for (m, source) in mains {
        entry.insert(format!("{m} (from {source})"));
    }
    // Python scripts: `if __name__ == "__main__":`.
    let q = crate::query::Query { limit: 200, ..crate::query::Query::new("__main__", crate::query::Mode::Exact) };
    if let Ok(found) = crate::query::search(index, &q) {
        for hit in found.hits {
            let code = !matches!(hit.line_type, LineType::Comment);
            if code && hit.path.ends_with(".py") && !is_vendored(&hit.path) && !hit.path.ends_with("__main__.py") {
                entry.insert(hit.path);
            }
        }
    }
    // Laravel's `artisan` console (a PHP script without an extension).
    if root.join("artisan").is_file() {
        entry.insert("artisan".to_string());
    }
    // Shallow paths first: `main.go` before `cmd/tool/main.go`.
    let mut entry: Vec<String> = entry.into_iter().collect();
    entry.sort_by_key(|p| (p.split(" (from").next().unwrap_or(p).matches('/').count(), p.clone()));
    auto.entry_points = entry.into_iter().take(MAX_ENTRY_POINTS).collect();
    auto.dependency_count = deps.len();
    auto.dependencies = rank_by_use(index, deps).into_iter().take(MAX_DEPENDENCIES).collect();

    // Main types: capitalized type names of the project (not vendored code),
    // ranked by the code lines their exact spelling is on. A first cut by all lines
    // (stored counts, cheap) keeps the line-type pass short.
    let names: Vec<(String, (&'static str, String, usize))> = type_names
        .into_iter()
        .filter(|(name, _)| name.chars().count() >= 3 && name.starts_with(|c: char| c.is_uppercase()))
        .collect();
    let mut counted = names
        .into_par_iter()
        .map(|(name, found)| {
            let n = exact_variants(index, &name)?.iter().map(|(_, v)| v.occurrences as u64).sum();
            Ok((n, name, found))
        })
        .collect::<Result<Vec<(u64, String, (&'static str, String, usize))>, ProjectError>>()?;
    counted.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    counted.truncate(MAX_MAIN_TYPES * 10);
    counted.par_iter_mut().try_for_each(|entry| -> Result<(), ProjectError> {
        entry.0 = code_lines(index, &entry.1)?;
        Ok(())
    })?;
    counted.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    auto.main_types = counted
        .into_iter()
        .take(MAX_MAIN_TYPES)
        .map(|(n, name, (kind, at, defs))| {
            let more = if defs > 1 { format!(" and {} more definitions", defs - 1) } else { String::new() };
            format!("{name} ({kind} at {at}{more}; {n} lines of code use it)")
        })
        .collect();

    let mut structure: Vec<_> = top_folders(&files)
        .into_iter()
        .map(|(dir, (files, langs))| {
            let mut langs: Vec<(String, u64)> = langs.into_iter().map(|(l, n)| (l.to_string(), n)).collect();
            langs.sort_by_key(|l| std::cmp::Reverse(l.1));
            (dir, files, langs)
        })
        .collect();
    structure.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    structure.truncate(25);
    auto.structure = structure;
    Ok(auto)
}

/// What [`detect`] takes from one file's structure.
#[derive(Default)]
struct Declared {
    has_main: bool,
    /// Name, kind, line.
    types: Vec<(String, &'static str, u32)>,
}

/// The kind a main type is listed with.
fn type_kind(kind: &str) -> &'static str {
    match kind {
        "class" => "class",
        "struct" => "struct",
        "interface" => "interface",
        "enum" => "enum",
        "record" => "record",
        "trait" => "trait",
        "union" => "union",
        "delegate" => "delegate",
        _ => "type",
    }
}

/// Files per top folder; when one folder holds every file (a tree unpacked into
/// `project-1.2/`), the level below it instead, down to three levels.
fn top_folders(files: &[(String, &'static str)]) -> BTreeMap<String, (u64, BTreeMap<&'static str, u64>)> {
    let mut prefix = String::new();
    for _ in 0..3 {
        let mut folders: BTreeMap<String, (u64, BTreeMap<&'static str, u64>)> = BTreeMap::new();
        for (path, lang) in files {
            let rest = &path[prefix.len()..];
            let top = match rest.split_once('/') {
                Some((dir, _)) => format!("{prefix}{dir}/"),
                None => format!("{prefix}(files)"),
            };
            let f = folders.entry(top).or_default();
            f.0 += 1;
            *f.1.entry(lang).or_default() += 1;
        }
        match folders.keys().next() {
            Some(only) if folders.len() == 1 && only.ends_with('/') => prefix = only.clone(),
            _ => return folders,
        }
    }
    BTreeMap::new()
}

use super::is_vendored;

/// Dependencies most used first: by the lines that hold every word of the name
/// (`github.com/spf13/cobra` on an import line, `serde` in `use serde::..`);
/// ties keep the manifests' order (the project's own manifests first).
fn rank_by_use(index: &Index, deps: Vec<Named>) -> Vec<Named> {
    let mut ranked: Vec<(u64, usize, Named)> = Vec::with_capacity(deps.len());
    for (i, dep) in deps.into_iter().enumerate() {
        let q = crate::query::Query { limit: 1, ..crate::query::Query::new(&dep.0, crate::query::Mode::Exact) };
        let uses = crate::query::search(index, &q).map(|m| m.total).unwrap_or(0);
        ranked.push((uses, i, dep));
    }
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.into_iter().map(|(_, _, d)| d).collect()
}

/// The variants spelled exactly `name`, with the segment each is in.
fn exact_variants(index: &Index, name: &str) -> Result<Vec<(usize, VariantRec)>, ProjectError> {
    let mut out = Vec::new();
    for (i, seg) in index.segments.iter().enumerate() {
        if let Some(id) = seg.term_fst()?.get(fold(name)) {
            let f = seg.fold(id as u32)?;
            for v in f.first_variant..f.first_variant.saturating_add(f.variant_count) {
                let rec = seg.variant(v)?;
                if seg.str_at(rec.term)? == name {
                    out.push((i, rec));
                }
            }
        }
    }
    Ok(out)
}

/// Lines where `name` occurs as code (not in comments or strings).
fn code_lines(index: &Index, name: &str) -> Result<u64, ProjectError> {
    let mut n = 0u64;
    for (i, v) in exact_variants(index, name)? {
        let seg = &index.segments[i];
        let mut slot: Option<(u32, crate::snapshot::SlotRec)> = None;
        for p in seg.posting_iter(&v)?.skipping(&index.superseded[i]) {
            let (slot_id, line_id) = crate::snapshot::unpack(p);
            let rec = match slot {
                Some((id, rec)) if id == slot_id => rec,
                _ => {
                    let rec = seg.slot(slot_id)?;
                    slot = Some((slot_id, rec));
                    rec
                }
            };
            let t = seg.line_type(&rec, rec.line_number(line_id))?;
            if !matches!(t, LineType::Comment | LineType::String) {
                n += 1;
            }
        }
    }
    Ok(n)
}

/// A name and the manifest it comes from.
type Named = (String, String);

/// Dependencies declared by package manifests under `root` as (name, manifest),
/// the shallowest manifests first, each name once; and the `main` / `bin` entries
/// of package.json files as (path, manifest). Vendored manifests are skipped; the
/// walk honours the same ignore rules as indexing.
fn dependencies(root: &Path) -> (Vec<Named>, Vec<Named>) {
    // (manifest depth, manifest, dependency): the project's own manifests first.
    let mut found: Vec<(usize, String, String)> = Vec::new();
    let mut mains_found: Vec<(String, String)> = Vec::new();
    let walker = crate::extract::excludes::walk_builder(root).build();
    for entry in walker.flatten().filter(|e| e.file_type().is_some_and(|t| t.is_file())) {
        let name = entry.file_name().to_string_lossy().to_string();
        if !crate::extract::is_project_file(&name) || name == "CLAUDE.md" {
            continue;
        }
        let rel = crate::extract::rel_path(root, entry.path()).unwrap_or(name.clone());
        if is_vendored(&rel) {
            continue; // vendored code's manifests are not the project's dependencies
        }
        let Ok(text) = fs::read_to_string(entry.path()) else { continue };
        let depth = rel.matches('/').count();
        let mut add = |dep: &str| {
            let dep = dep.trim().trim_matches('"');
            if !dep.is_empty() {
                found.push((depth, rel.clone(), dep.to_string()));
            }
        };
        match name.as_str() {
            "package.json" => {
                let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
                for key in ["dependencies", "devDependencies", "peerDependencies"] {
                    if let Some(obj) = v.get(key).and_then(|d| d.as_object()) {
                        obj.keys().for_each(|k| add(k));
                    }
                }
                let dir = rel.rsplit_once('/').map(|(d, _)| format!("{d}/")).unwrap_or_default();
                let mut mains: Vec<String> = Vec::new();
                if let Some(m) = v.get("main").and_then(|m| m.as_str()) {
                    mains.push(format!("{dir}{}", m.trim_start_matches("./")));
                }
                match v.get("bin") {
                    Some(serde_json::Value::String(b)) => mains.push(format!("{dir}{}", b.trim_start_matches("./"))),
                    Some(serde_json::Value::Object(o)) => mains.extend(
                        o.values().filter_map(|b| b.as_str()).map(|b| format!("{dir}{}", b.trim_start_matches("./"))),
                    ),
                    _ => {}
                }
                mains_found.extend(mains.into_iter().map(|m| (m, rel.clone())));
            }
            "Cargo.toml" => {
                let mut in_deps = false;
                for line in text.lines().map(str::trim) {
                    if line.starts_with('[') {
                        in_deps = line.ends_with("dependencies]");
                        continue;
                    }
                    if in_deps {
                        if let Some((dep, _)) = line.split_once('=') {
                            let dep = dep.trim().trim_matches('"');
                            if !dep.is_empty() && !dep.starts_with('#') {
                                add(dep);
                            }
                        }
                    }
                }
            }
            "go.mod" => {
                let mut in_require = false;
                for line in text.lines().map(str::trim) {
                    if line.starts_with("require (") {
                        in_require = true;
                    } else if in_require && line.starts_with(')') {
                        in_require = false;
                    } else if let Some(rest) = line.strip_prefix("require ") {
                        rest.split_whitespace().next().into_iter().for_each(&mut add);
                    } else if in_require && !line.starts_with("//") {
                        line.split_whitespace().next().into_iter().for_each(&mut add);
                    }
                }
            }
            "pyproject.toml" => {
                for (dep, script) in pyproject(&text) {
                    match script {
                        false => add(&dep),
                        true => mains_found.push((dep, rel.clone())),
                    }
                }
            }
            "setup.py" => quoted_list_after(&text, "install_requires").iter().for_each(|d| add(requirement_name(d))),
            "setup.cfg" => {
                let mut inside = false;
                for line in text.lines() {
                    let t = line.trim();
                    if t.starts_with("install_requires") {
                        inside = true;
                        if let Some((_, v)) = t.split_once('=').filter(|(_, v)| !v.trim().is_empty()) {
                            add(requirement_name(v));
                        }
                    } else if inside && line.starts_with([' ', '\t']) && !t.is_empty() {
                        add(requirement_name(t));
                    } else if inside {
                        inside = false;
                    }
                }
            }
            n if n.starts_with("requirements") && n.ends_with(".txt") => {
                for line in text.lines().map(str::trim) {
                    if !line.is_empty() && !line.starts_with(['#', '-']) && !line.contains("://") {
                        add(requirement_name(line));
                    }
                }
            }
            "pom.xml" => {
                for part in text.split("<dependency>").skip(1) {
                    let tag = |t: &str| {
                        let open = format!("<{t}>");
                        let start = part.find(&open)? + open.len();
                        let end = part[start..].find('<')? + start;
                        Some(part[start..end].trim().to_string())
                    };
                    if let (Some(g), Some(a)) = (tag("groupId"), tag("artifactId")) {
                        add(&format!("{g}:{a}"));
                    }
                }
            }
            "build.gradle" | "build.gradle.kts" => {
                const CONFIGS: [&str; 6] = [
                    "implementation",
                    "api",
                    "compileOnly",
                    "runtimeOnly",
                    "testImplementation",
                    "annotationProcessor",
                ];
                for line in text.lines().map(str::trim) {
                    if !CONFIGS.iter().any(|c| line.starts_with(c)) {
                        continue;
                    }
                    if let Some(q) = quoted_strings(line).first() {
                        let coords: Vec<&str> = q.split(':').collect();
                        if coords.len() >= 2 {
                            add(&format!("{}:{}", coords[0], coords[1]));
                        }
                    }
                }
            }
            "CMakeLists.txt" => {
                for part in text.split("find_package(").skip(1) {
                    part.split(|c: char| c.is_whitespace() || c == ')').next().into_iter().for_each(&mut add);
                }
            }
            "meson.build" => {
                for part in text.split("dependency(").skip(1) {
                    quoted_strings(part.split(')').next().unwrap_or("")).first().into_iter().for_each(|d| add(d));
                }
            }
            "configure.ac" => {
                for part in text.split("AC_CHECK_LIB(").skip(1) {
                    let lib = part.split(',').next().unwrap_or("").trim().trim_matches(['[', ']']);
                    add(lib);
                }
            }
            "composer.json" => {
                let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
                for key in ["require", "require-dev"] {
                    if let Some(obj) = v.get(key).and_then(|d| d.as_object()) {
                        obj.keys().filter(|k| *k != "php" && !k.starts_with("ext-")).for_each(|k| add(k));
                    }
                }
            }
            "Gemfile" => {
                for line in text.lines().map(str::trim) {
                    if let Some(rest) = line.strip_prefix("gem ") {
                        quoted_strings(rest).first().into_iter().for_each(|d| add(d));
                    }
                }
            }
            n if n.ends_with(".gemspec") => {
                for line in text.lines().map(str::trim) {
                    if line.contains("add_dependency")
                        || line.contains("add_runtime_dependency")
                        || line.contains("add_development_dependency")
                    {
                        quoted_strings(line).first().into_iter().for_each(|d| add(d));
                    }
                }
            }
            _ => {
                // .csproj: <PackageReference Include="X" ... /> and project references.
                for part in text.split("<PackageReference").skip(1).chain(text.split("<ProjectReference").skip(1)) {
                    if let Some(start) = part.find("Include=\"") {
                        let rest = &part[start + 9..];
                        if let Some(end) = rest.find('"') {
                            let dep = rest[..end].rsplit(['\\', '/']).next().unwrap_or("").trim_end_matches(".csproj");
                            if !dep.is_empty() {
                                add(dep);
                            }
                        }
                    }
                }
            }
        }
    }
    found.sort();
    let mut seen = BTreeSet::new();
    let deps = found.into_iter().filter(|(_, _, d)| seen.insert(d.clone())).map(|(_, m, d)| (d, m)).collect();
    (deps, mains_found)
}

/// `requests` of `requests>=2.0; python_version > "3"`, `pkg[extra]`.
fn requirement_name(spec: &str) -> &str {
    let spec = spec.trim().trim_matches(['"', '\'', ',']);
    let end = spec.find(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))).unwrap_or(spec.len());
    &spec[..end]
}

/// The strings in single or double quotes on a line, in order.
fn quoted_strings(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(['"', '\'']) {
        let quote = rest.as_bytes()[start] as char;
        let after = &rest[start + 1..];
        let Some(end) = after.find(quote) else { break };
        out.push(&after[..end]);
        rest = &after[end + 1..];
    }
    out
}

/// The quoted strings of the `[...]` list that follows `key` (`install_requires=[..]`).
fn quoted_list_after<'t>(text: &'t str, key: &str) -> Vec<&'t str> {
    let Some(at) = text.find(key) else { return Vec::new() };
    let rest = &text[at..];
    let (Some(open), Some(close)) = (rest.find('['), rest.find(']')) else { return Vec::new() };
    if close < open {
        return Vec::new();
    }
    quoted_strings(&rest[open..close])
}

/// A pyproject.toml's dependencies (PEP 621 `dependencies = [..]`, Poetry's
/// `[tool.poetry.dependencies]` tables) and `[project.scripts]` entry points
/// (`pkg.cli:main`, marked `true`).
fn pyproject(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut in_list = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') && !in_list {
            section = line.trim_matches(['[', ']']).to_string();
            continue;
        }
        if in_list {
            for q in quoted_strings(line) {
                out.push((requirement_name(q).to_string(), false));
            }
            in_list = !line.contains(']');
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        let (key, value) = (key.trim().trim_matches('"'), value.trim());
        if section == "project" && (key == "dependencies" || key == "optional-dependencies") && value.starts_with('[') {
            for q in quoted_strings(value) {
                out.push((requirement_name(q).to_string(), false));
            }
            in_list = !value.contains(']');
        } else if section.ends_with("dependencies") && section.starts_with("tool.poetry") && key != "python" {
            out.push((key.to_string(), false));
        } else if section == "project.scripts" || section == "tool.poetry.scripts" {
            if let Some(target) = quoted_strings(value).first() {
                out.push((target.to_string(), true));
            }
        }
    }
    out.retain(|(d, _)| !d.is_empty());
    out
}

/// The automatic block, as Markdown.
pub fn render_auto(auto: &AutoSummary) -> String {
    let mut s = String::new();
    s.push_str(BEGIN);
    s.push_str("\n## Entry Points\n\n");
    if auto.entry_points.is_empty() {
        s.push_str("(none found)\n");
    }
    for e in &auto.entry_points {
        s.push_str(&format!("- {e}\n"));
    }
    s.push_str("\n## Main Types\n\n");
    for t in &auto.main_types {
        s.push_str(&format!("- {t}\n"));
    }
    s.push_str("\n## Dependencies\n\n");
    if auto.dependencies.is_empty() {
        s.push_str("(no package manifests found)\n");
    }
    for (name, source) in &auto.dependencies {
        s.push_str(&format!("- {name} ({source})\n"));
    }
    if auto.dependency_count > auto.dependencies.len() {
        s.push_str(&format!("- ... and {} more\n", auto.dependency_count - auto.dependencies.len()));
    }
    s.push_str("\n## Directory Structure\n\n");
    for (dir, files, langs) in &auto.structure {
        let langs: Vec<String> = langs.iter().map(|(l, n)| format!("{l} {n}")).collect();
        s.push_str(&format!("- {dir} — {files} files ({})\n", langs.join(", ")));
    }
    s.push_str(END);
    s.push('\n');
    s
}

fn template(name: &str) -> String {
    let mut s = format!("# {name}\n\n");
    for (_, title) in SECTIONS {
        s.push_str(&format!("## {title}\n\n"));
    }
    s
}

/// Splits a summary into the people's part and what follows the automatic block.
fn split(text: &str) -> (&str, &str) {
    match (text.find(BEGIN), text.find(END)) {
        (Some(b), Some(e)) if e > b => (&text[..b], &text[e + END.len()..]),
        _ => (text, ""),
    }
}

/// Rewrites the automatic block of `summary.md` (creating the file from a template
/// the first time) and `summary.json`.
pub fn refresh(root: &Path, name: &str, auto: &AutoSummary) -> Result<(), ProjectError> {
    let path = root.join(DIR).join(SUMMARY);
    let existing = read_people_text(&path)?.unwrap_or_else(|| template(name));
    write_atomic(&path, compose(&existing, auto).as_bytes())?;
    write_atomic(&root.join(DIR).join(SUMMARY_JSON), &serde_json::to_vec(auto).unwrap_or_default())?;
    Ok(())
}

/// `summary.md` as people left it: `None` when there is none yet. Text that is not
/// UTF-8 is refused, naming the byte, rather than replaced: what people wrote is
/// never overwritten.
fn read_people_text(path: &Path) -> Result<Option<String>, ProjectError> {
    match crate::safe_fs::read_regular(path, super::SMALL_FILE_CAP) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(Some(text)),
            Err(e) => Err(ProjectError::NotUtf8 { path: path.to_path_buf(), offset: e.utf8_error().valid_up_to() }),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ProjectError::Io { path: path.to_path_buf(), source }),
    }
}

/// `summary.md` with its automatic block replaced by `auto`.
fn compose(existing: &str, auto: &AutoSummary) -> String {
    let (people, after) = split(existing);
    let mut text = people.trim_end().to_string();
    text.push_str("\n\n");
    text.push_str(&render_auto(auto));
    text.push_str(after.trim_start_matches('\n'));
    text
}

/// Reads `summary.md` and the detected parts, detecting them again first when
/// files they come from changed since (updates only mark that, so they stay fast).
/// The fresh result is written back when no other process is writing the index;
/// otherwise it is returned without being stored.
pub fn read(root: &Path) -> Result<(String, AutoSummary), ProjectError> {
    let (text, auto) = read_stored(root)?;
    let Ok(manifest) = super::read_manifest(root) else { return Ok((text, auto)) };
    if auto.generation >= manifest.summary_changed_at {
        return Ok((text, auto));
    }
    let index = Index::open(root)?;
    let fresh = detect(&index, root)?;
    match super::WriteLock::acquire(&root.join(DIR)) {
        Ok(_lock) => {
            refresh(root, &manifest.name, &fresh)?;
            read_stored(root)
        }
        Err(_) => Ok((compose(&text, &fresh), fresh)),
    }
}

/// Reads `summary.md` and `summary.json` as stored.
fn read_stored(root: &Path) -> Result<(String, AutoSummary), ProjectError> {
    let path = root.join(DIR).join(SUMMARY);
    let text = crate::safe_fs::read_regular_text(&path, super::SMALL_FILE_CAP)
        .map_err(|source| ProjectError::Io { path, source })?;
    let auto = crate::safe_fs::read_regular(&root.join(DIR).join(SUMMARY_JSON), super::SMALL_FILE_CAP)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    Ok((text, auto))
}

/// Appends `content` to a people's section (or replaces it), creating the section
/// if the file lacks it. The automatic block is left as it is.
pub fn describe(root: &Path, section: &str, content: &str, replace: bool) -> Result<String, ProjectError> {
    let Some((_, title)) =
        SECTIONS.iter().find(|(k, t)| k.eq_ignore_ascii_case(section.trim()) || t.eq_ignore_ascii_case(section.trim()))
    else {
        return Err(ProjectError::UnknownSection(section.to_string()));
    };
    let path = root.join(DIR).join(SUMMARY);
    let name = root.file_name().and_then(|n| n.to_str()).unwrap_or("project");
    let existing = read_people_text(&path)?.unwrap_or_else(|| template(name));
    let (people, after_people) = match existing.find(BEGIN) {
        Some(b) => existing.split_at(b),
        None => (existing.as_str(), ""),
    };
    let heading = format!("## {title}");
    let lines: Vec<&str> = people.lines().collect();
    let content = content.trim();
    let mut out: Vec<String> = Vec::new();
    match lines.iter().position(|l| l.trim() == heading) {
        Some(start) => {
            let end =
                lines[start + 1..].iter().position(|l| l.starts_with("## ")).map_or(lines.len(), |p| start + 1 + p);
            out.extend(lines[..=start].iter().map(|l| l.to_string()));
            let body: Vec<&str> = lines[start + 1..end].to_vec();
            let old = body.join("\n");
            let old = old.trim();
            out.push(String::new());
            if !replace && !old.is_empty() {
                out.push(old.to_string());
                out.push(String::new());
            }
            out.push(content.to_string());
            out.push(String::new());
            out.extend(lines[end..].iter().map(|l| l.to_string()));
        }
        None => {
            out.extend(lines.iter().map(|l| l.to_string()));
            out.push(String::new());
            out.push(heading);
            out.push(String::new());
            out.push(content.to_string());
            out.push(String::new());
        }
    }
    let mut text = out.join("\n").trim_end().to_string();
    text.push_str("\n\n");
    text.push_str(after_people);
    write_atomic(&path, text.as_bytes())?;
    Ok(title.to_string())
}

//! Which project files an import statement names, by each language's rules:
//! TS/JS relative paths (extensions, `index` files) and the root `tsconfig.json`'s
//! `baseUrl` / `paths`; Go import paths through the nearest `go.mod`'s module path
//! and its `replace` directives to project folders (or a `vendor/` folder) to a
//! folder's files; Rust `mod x;`, `crate::`,
//! `super::`, `self::` paths to module files; C# `using`, Java imports and PHP
//! `use` to the files declaring the namespace or package; Python modules (relative
//! to the file's package, else under the file's folder or any folder above it:
//! `a.b` → `a/b.py`, `a/b/__init__.py`, plus imported names that are submodules);
//! C / C++ `#include` (the including file's folder, else the indexed header whose
//! path ends with the spec, nearest the includer); Ruby `require_relative` (the
//! file's folder) and `require` (`lib/`, else a path ending with the spec). What
//! is not found is external (an empty list).

use std::rc::Rc;

use super::{FileGraph, FileKey, Graph};
use crate::lang::rules::Imports;
use crate::snapshot::structure::ImportRecord;
use crate::snapshot::SnapshotError;

/// The largest `go.mod` / `tsconfig.json` read.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The root `tsconfig.json`'s (or `jsconfig.json`'s) module resolution options.
#[derive(Default)]
pub struct TsPaths {
    base_url: Option<String>,
    paths: Vec<(String, Vec<String>)>,
}

pub fn resolve(g: &Graph<'_>, f: &FileGraph, imp: &ImportRecord) -> Result<Vec<FileKey>, SnapshotError> {
    match f.language.rules().imports {
        Imports::Relative => ts(g, f, &imp.spec),
        Imports::GoPackage => go(g, f, &imp.spec),
        Imports::CratePath => rust(g, f, imp),
        Imports::Namespace(sep) => namespace(g, &imp.spec, sep),
        Imports::JavaPackage => java(g, f, imp),
        Imports::PythonModule => python(g, f, imp),
        Imports::Include => include(g, f, &imp.spec),
        Imports::Require => ruby(g, f, &imp.spec),
    }
}

/// A Java import: the files of its package; for `import a.b.C`, only `C.java`
/// when the package has it (Java's one public class per file).
/// A package in several source roots (two modules: guava's `guava/src` and
/// `android/guava/src`) is the nearest root's ([`super::nearest_roots`]).
fn java(g: &Graph<'_>, f: &FileGraph, imp: &ImportRecord) -> Result<Vec<FileKey>, SnapshotError> {
    let (package, class) = match imp.spec.strip_prefix("static ") {
        Some(class) => (package_of(class), class.rsplit('.').next()),
        None => (imp.spec.as_str(), imp.names.first().map(|n| n.name.as_str()).filter(|n| *n != "*")),
    };
    let mut files = namespace(g, package, '.')?;
    if let Some(class) = class {
        let own: Vec<FileKey> = files
            .iter()
            .copied()
            .filter(|&k| g.path_of(k).is_ok_and(|p| p.rsplit('/').next() == Some(&format!("{class}.java"))))
            .collect();
        if !own.is_empty() {
            files = own;
        }
    }
    if files.len() > 1 {
        let mut paths = Vec::with_capacity(files.len());
        for &k in &files {
            paths.push((k, g.path_of(k)?.to_string()));
        }
        let root = super::java_root(&f.path, &f.scope);
        let near = super::nearest_roots(root, (0..paths.len()).collect(), |i| super::java_root(&paths[i].1, package));
        return Ok(near.into_iter().map(|i| paths[i].0).collect());
    }
    Ok(files)
}

/// `a.b` of a static import's class `a.b.C`.
fn package_of(class: &str) -> &str {
    class.rsplit_once('.').map_or("", |(p, _)| p)
}

pub(crate) fn locate(g: &Graph<'_>, path: &str) -> Result<Option<FileKey>, SnapshotError> {
    Ok(g.index.locate(path)?.map(|f| (f.segment, f.slot_id)))
}

/// `dir` joined with a relative path, `.` and `..` applied; `None` when it
/// climbs above the project root.
pub(crate) fn join(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

fn ts(g: &Graph<'_>, f: &FileGraph, spec: &str) -> Result<Vec<FileKey>, SnapshotError> {
    let mut bases: Vec<String> = Vec::new();
    if spec == "." || spec == ".." || spec.starts_with("./") || spec.starts_with("../") {
        bases.extend(join(f.folder(), spec));
    } else if spec.starts_with('/') {
        return Ok(Vec::new());
    } else {
        let config = ts_config(g);
        for (pattern, targets) in &config.paths {
            let star = match pattern.split_once('*') {
                Some((pre, post))
                    if spec.starts_with(pre) && spec.ends_with(post) && spec.len() >= pre.len() + post.len() =>
                {
                    &spec[pre.len()..spec.len() - post.len()]
                }
                None if pattern == spec => "",
                _ => continue,
            };
            let base = config.base_url.as_deref().unwrap_or("");
            for t in targets {
                bases.extend(join(base, &t.replacen('*', star, 1)));
            }
        }
        if let Some(base) = &config.base_url {
            bases.extend(join(base, spec));
        }
    }
    for base in bases {
        if let Some(k) = ts_file(g, &base)? {
            return Ok(vec![k]);
        }
    }
    Ok(Vec::new())
}

fn ts_file(g: &Graph<'_>, base: &str) -> Result<Option<FileKey>, SnapshotError> {
    const EXTS: [&str; 10] = ["", ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];
    const INDEX: [&str; 5] = ["/index.ts", "/index.tsx", "/index.d.ts", "/index.js", "/index.jsx"];
    for ext in EXTS.iter().chain(INDEX.iter()) {
        if let Some(k) = locate(g, &format!("{base}{ext}"))? {
            return Ok(Some(k));
        }
    }
    // `./a.js` written for a file that is `a.ts` before compilation.
    for (from, to) in [(".js", ".ts"), (".js", ".tsx"), (".mjs", ".mts"), (".cjs", ".cts"), (".jsx", ".tsx")] {
        if let Some(stem) = base.strip_suffix(from) {
            if let Some(k) = locate(g, &format!("{stem}{to}"))? {
                return Ok(Some(k));
            }
        }
    }
    Ok(None)
}

fn ts_config(g: &Graph<'_>) -> Rc<TsPaths> {
    if let Some(c) = g.tsconfig.borrow().as_ref() {
        return c.clone();
    }
    let mut config = TsPaths::default();
    for name in ["tsconfig.json", "jsconfig.json"] {
        let Some((bytes, _)) =
            crate::query::text::read_regular(&g.index.root.join(name), &g.index.root, MAX_CONFIG_BYTES)
        else {
            continue;
        };
        let text = strip_json_comments(&String::from_utf8_lossy(&bytes));
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
        let options = &json["compilerOptions"];
        config.base_url = options["baseUrl"].as_str().and_then(|b| join("", b));
        if let Some(paths) = options["paths"].as_object() {
            for (pattern, targets) in paths {
                let targets =
                    targets.as_array().map(|t| t.iter().filter_map(|t| t.as_str().map(str::to_string)).collect());
                config.paths.push((pattern.clone(), targets.unwrap_or_default()));
            }
        }
        break;
    }
    let config = Rc::new(config);
    *g.tsconfig.borrow_mut() = Some(config.clone());
    config
}

/// JSON with comments and trailing commas (tsconfig's dialect) → JSON.
fn strip_json_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    while i < b.len() {
        let c = b[i];
        if in_string {
            if c == b'\\' && i + 1 < b.len() {
                out.push_str(&text[i..i + 2]);
                i += 2;
                continue;
            }
            in_string = c != b'"';
        } else if c == b'"' {
            in_string = true;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
            continue;
        } else if c == b',' {
            let rest = text[i + 1..].trim_start();
            if rest.starts_with('}') || rest.starts_with(']') {
                i += 1;
                continue;
            }
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// A `go.mod`: its folder, its module path, and the `replace` directives that
/// point into the project (`k8s.io/api => ./staging/src/k8s.io/api`) as (module
/// path, folder), longest module path first.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct GoMod {
    dir: String,
    module: String,
    replaces: Vec<(String, String)>,
}

/// Reads a `go.mod` found in folder `dir`: None without a `module` line.
fn parse_go_mod(dir: &str, text: &str) -> Option<GoMod> {
    let mut module = None;
    let mut replaces = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        if in_block {
            if line == ")" {
                in_block = false;
            } else {
                replaces.extend(go_replace(dir, line));
            }
        } else if let Some(m) = line.strip_prefix("module ") {
            module = Some(m.trim().trim_matches('"').to_string());
        } else if let Some(rest) = line.strip_prefix("replace").filter(|r| r.starts_with([' ', '\t', '('])) {
            match rest.trim() {
                "(" => in_block = true,
                one => replaces.extend(go_replace(dir, one)),
            }
        }
    }
    replaces.sort_by(|a: &(String, String), b| b.0.len().cmp(&a.0.len()).then_with(|| a.cmp(b)));
    replaces.dedup_by(|a, b| a.0 == b.0);
    Some(GoMod { dir: dir.to_string(), module: module.filter(|m| !m.is_empty())?, replaces })
}

/// One replacement, `path [version] => ./folder`, when its target is a folder
/// inside the project (a module version or an absolute path is not).
fn go_replace(dir: &str, line: &str) -> Option<(String, String)> {
    let (from, to) = line.split_once("=>")?;
    let from = from.split_whitespace().next()?.trim_matches('"');
    let mut to = to.split_whitespace();
    let target = to.next()?.trim_matches('"');
    if to.next().is_some() || !(target.starts_with("./") || target.starts_with("../")) || from.is_empty() {
        return None;
    }
    Some((from.to_string(), join(dir, target)?))
}

/// The `go.mod` nearest above `folder`.
fn go_module(g: &Graph<'_>, folder: &str) -> Option<std::sync::Arc<GoMod>> {
    if let Some(m) = g.gomods.borrow().get(folder) {
        return m.clone();
    }
    let found = match g.kept.go_mods.get(&g.index.root, folder) {
        Some(f) => Some(f),
        None if folder.is_empty() => None,
        None => go_module(g, folder.rsplit_once('/').map_or("", |(d, _)| d)),
    };
    g.gomods.borrow_mut().insert(folder.to_string(), found.clone());
    found
}

/// The `go.mod` files read, kept from one question to the next (kubernetes'
/// is 1,500 lines: reading and parsing it was a tenth of a `callees`), each
/// with the size and modification time it had, so an edited one is read again.
#[derive(Default)]
pub(crate) struct GoMods(std::sync::Mutex<rustc_hash::FxHashMap<String, SeenGoMod>>);

/// A folder's `go.mod` as last read: its size and modification time (none: no
/// such file), and what it says (none: not a `go.mod` with a `module` line).
type SeenGoMod = (Option<(u64, i64)>, Option<std::sync::Arc<GoMod>>);

impl GoMods {
    /// The `go.mod` of `folder` itself (not above it).
    fn get(&self, root: &std::path::Path, folder: &str) -> Option<std::sync::Arc<GoMod>> {
        let path = if folder.is_empty() { "go.mod".to_string() } else { format!("{folder}/go.mod") };
        let path = root.join(&path);
        let stamp = std::fs::metadata(&path).ok().map(|m| (m.len(), crate::safe_fs::mtime_ns(&m)));
        if let Some((seen, m)) = self.0.lock().ok()?.get(folder) {
            if *seen == stamp {
                return m.clone();
            }
        }
        let found = match stamp {
            None => None,
            Some(_) => crate::query::text::read_regular(&path, root, MAX_CONFIG_BYTES)
                .and_then(|(bytes, _)| parse_go_mod(folder, &String::from_utf8_lossy(&bytes)))
                .map(std::sync::Arc::new),
        };
        self.0.lock().ok()?.insert(folder.to_string(), (stamp, found.clone()));
        found
    }
}

/// A Go import path: the folder of the file's own module it names, else of a
/// module its `go.mod` replaces with a project folder (kubernetes' `k8s.io/api`
/// → `staging/src/k8s.io/api`), else its `vendor/` folder.
fn go(g: &Graph<'_>, f: &FileGraph, spec: &str) -> Result<Vec<FileKey>, SnapshotError> {
    let under = |module: &str| spec.strip_prefix(module).filter(|r| r.is_empty() || r.starts_with('/'));
    let mut folders: Vec<String> = Vec::new();
    if let Some(m) = go_module(g, f.folder()) {
        if let Some(rest) = under(&m.module) {
            folders.extend(join(&m.dir, rest.trim_start_matches('/')));
        }
        if let Some((to, rest)) = m.replaces.iter().find_map(|(from, to)| Some((to, under(from)?))) {
            folders.extend(join(to, rest.trim_start_matches('/')));
        }
        folders.extend(join(&m.dir, &format!("vendor/{spec}")));
    }
    folders.push(format!("vendor/{spec}"));
    for folder in folders {
        let files: Vec<FileKey> = g
            .index
            .files_in(&folder)?
            .into_iter()
            .filter(|x| x.path.ends_with(".go"))
            .map(|x| (x.segment, x.slot_id))
            .collect();
        if !files.is_empty() {
            return Ok(files);
        }
    }
    Ok(Vec::new())
}

/// The folder a Rust file's child modules live in.
fn rust_module_dir(path: &str) -> String {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    match file {
        "mod.rs" | "lib.rs" | "main.rs" => dir.to_string(),
        f => join(dir, f.strip_suffix(".rs").unwrap_or(f)).unwrap_or_default(),
    }
}

fn rust_module_file(g: &Graph<'_>, dir: &str, parts: &[&str]) -> Result<Option<FileKey>, SnapshotError> {
    if parts.is_empty() {
        for root in ["lib.rs", "main.rs", "mod.rs"] {
            if let Some(k) = locate(g, &join(dir, root).unwrap_or_default())? {
                return Ok(Some(k));
            }
        }
        return Ok(None);
    }
    let base = join(dir, &parts.join("/")).unwrap_or_default();
    if let Some(k) = locate(g, &format!("{base}.rs"))? {
        return Ok(Some(k));
    }
    locate(g, &format!("{base}/mod.rs"))
}

fn rust(g: &Graph<'_>, f: &FileGraph, imp: &ImportRecord) -> Result<Vec<FileKey>, SnapshotError> {
    if imp.kind == 2 {
        return Ok(rust_module_file(g, &rust_module_dir(&f.path), &[imp.spec.as_str()])?.into_iter().collect());
    }
    let parts: Vec<&str> = imp.spec.split("::").filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        // `use other_crate;`, `use other_crate as alias;`: that crate's root,
        // when it is one of the project's.
        let mut out = Vec::new();
        for n in &imp.names {
            if let Some(src) = rust_crate_src(g, &f.path, &n.name)? {
                out.extend(rust_module_file(g, &src, &[])?);
            }
        }
        return Ok(out);
    }
    for (dir, skip, anchored) in rust_bases(g, f, &parts)? {
        let found = rust_in(g, &dir, &parts[skip..], imp, anchored)?;
        if !found.is_empty() {
            return Ok(found);
        }
    }
    Ok(Vec::new())
}

/// The file of the module `name` when `imp` (`use a::b::{name}`) imports a
/// module of the project (`a/b/name.rs` or `a/b/name/mod.rs`) by that name.
pub(crate) fn rust_imported_module(
    g: &Graph<'_>,
    f: &FileGraph,
    imp: &ImportRecord,
    name: &str,
) -> Result<Option<FileKey>, SnapshotError> {
    let parts: Vec<&str> = imp.spec.split("::").filter(|p| !p.is_empty()).collect();
    for (dir, skip, _) in rust_bases(g, f, &parts)? {
        let mut with = parts[skip..].to_vec();
        with.push(name);
        if let Some(k) = rust_module_file(g, &dir, &with)? {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

/// Where a `use` path starts, in the order tried: the folder, how many of the
/// path's parts that folder stands for, and whether the path may end at the
/// folder's own root module (a crate root, `self`, `super`).
fn rust_bases(g: &Graph<'_>, f: &FileGraph, parts: &[&str]) -> Result<Vec<(String, usize, bool)>, SnapshotError> {
    let here = rust_module_dir(&f.path);
    Ok(match parts.first().copied() {
        Some("crate") => {
            let src = match f.path.rsplit_once("src/") {
                Some((pre, _)) => format!("{pre}src"),
                None => String::new(),
            };
            vec![(src, 1, true)]
        }
        Some("self") => vec![(here, 1, true)],
        Some("super") => {
            let mut dir = f.path.rsplit_once('/').map_or("", |(d, _)| d).to_string();
            // `super` from `a/b.rs` is `a`; from `a/b/mod.rs` it is `a` too.
            if f.path.ends_with("/mod.rs") {
                dir = dir.rsplit_once('/').map_or("", |(d, _)| d).to_string();
            }
            let mut skip = 1;
            while parts.get(skip) == Some(&"super") {
                dir = dir.rsplit_once('/').map_or("", |(d, _)| d).to_string();
                skip += 1;
            }
            vec![(dir, skip, true)]
        }
        // A module of this one (2018 paths), else another crate: one of the
        // project's own when a folder of that name beside one of the file's
        // folders holds `src/lib.rs` (a workspace), else external.
        Some(first) => {
            let mut bases = vec![(here, 0, false)];
            if let Some(src) = rust_crate_src(g, &f.path, first)? {
                bases.push((src, 1, true));
            }
            bases
        }
        None => Vec::new(),
    })
}

/// The `src` folder of the project's crate `name` seen from the file at `from`:
/// `A/name/src/lib.rs` (or with `-` for `_`) for a folder `A` holding `from`,
/// nearest first (`compiler/rustc_middle/src` from `compiler/rustc_ast/src/ast.rs`,
/// `library/core/src` from `library/alloc/src/vec/mod.rs`).
pub(crate) fn rust_crate_src(g: &Graph<'_>, from: &str, name: &str) -> Result<Option<String>, SnapshotError> {
    let mut folders = vec![name.to_string()];
    if name.contains('_') {
        folders.push(name.replace('_', "-"));
    }
    if matches!(name, "std" | "core" | "alloc" | "proc_macro" | "test") {
        // The Rust tree itself keeps the standard crates in `library/`.
        folders.push(format!("library/{name}"));
    }
    let mut dir = from;
    loop {
        dir = dir.rsplit_once('/').map_or("", |(up, _)| up);
        for folder in &folders {
            let src = join(dir, &format!("{folder}/src")).unwrap_or_default();
            if locate(g, &format!("{src}/lib.rs"))?.is_some() {
                return Ok(Some(src));
            }
        }
        if dir.is_empty() {
            return Ok(None);
        }
    }
}

/// The files of `use DIR::REST::{names}`: the names' own modules and the
/// module holding them; `anchored`: DIR is a crate's root or a `self` /
/// `super` path, so REST may be empty (the root module itself).
fn rust_in(
    g: &Graph<'_>,
    dir: &str,
    rest: &[&str],
    imp: &ImportRecord,
    anchored: bool,
) -> Result<Vec<FileKey>, SnapshotError> {
    let mut out = Vec::new();
    // The names may be modules themselves (`use crate::a::{b, c}`).
    for n in &imp.names {
        if n.name != "*" {
            let mut with: Vec<&str> = rest.to_vec();
            with.push(&n.name);
            if let Some(k) = rust_module_file(g, dir, &with)? {
                out.push(k);
            }
        }
    }
    // The module holding the names; failing that its parent (`a::b::Item` where
    // `b` is an inline module or `Item` sits in `a`).
    for cut in 0..=rest.len().min(2) {
        if let Some(k) = rust_module_file(g, dir, &rest[..rest.len() - cut])? {
            if rest.len() - cut > 0 || anchored {
                out.push(k);
            }
            break;
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The files declaring a namespace or package (C# `using`, Java's package of an
/// import, PHP's `use`): every file whose scope it is, from the relation
/// sections (they were the first 5,000 files naming its last name whose archive
/// said so: a `using System;` scanned 5,000 archives on mono).
fn namespace(g: &Graph<'_>, spec: &str, separator: char) -> Result<Vec<FileKey>, SnapshotError> {
    if spec.rsplit(separator).next().unwrap_or(spec).is_empty() {
        return Ok(Vec::new());
    }
    g.scope_files(spec)
}

/// `dir/module.py`, `dir/module.pyi` or `dir/module/__init__.py`.
fn python_module(g: &Graph<'_>, module: &str) -> Result<Option<FileKey>, SnapshotError> {
    for candidate in [format!("{module}.py"), format!("{module}.pyi"), format!("{module}/__init__.py")] {
        if let Some(k) = locate(g, &candidate)? {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

fn python(g: &Graph<'_>, f: &FileGraph, imp: &ImportRecord) -> Result<Vec<FileKey>, SnapshotError> {
    let spec = imp.spec.as_str();
    let dots = spec.bytes().take_while(|&b| b == b'.').count();
    let rest = spec[dots..].replace('.', "/");
    let mut bases: Vec<String> = Vec::new();
    if dots > 0 {
        let mut dir = f.folder().to_string();
        for _ in 1..dots {
            let Some((up, _)) = dir.rsplit_once('/') else {
                if dir.is_empty() {
                    return Ok(Vec::new());
                }
                dir = String::new();
                continue;
            };
            dir = up.to_string();
        }
        bases.push(dir);
    } else {
        // No interpreter path to go by: the file's folder and each one above it
        // stand for the source roots.
        let mut dir = f.folder();
        loop {
            bases.push(dir.to_string());
            if dir.is_empty() {
                break;
            }
            dir = dir.rsplit_once('/').map_or("", |(d, _)| d);
        }
    }
    let mut out = Vec::new();
    for base in bases {
        let module = if rest.is_empty() { base.clone() } else { join(&base, &rest).unwrap_or_default() };
        if !rest.is_empty() || dots > 0 {
            out.extend(python_module(g, &module)?);
        }
        // Imported names may be submodules (`from . import models`).
        for n in &imp.names {
            if n.name != "*" && !n.name.is_empty() {
                out.extend(python_module(g, &join(&module, &n.name.replace('.', "/")).unwrap_or_default())?);
            }
        }
        // `import a.b` binds `a`: its package is imported too.
        if dots == 0 && imp.names.iter().any(|n| n.name == "*" && spec.split('.').next() == Some(n.alias.as_str())) {
            if let Some((first, _)) = rest.split_once('/') {
                out.extend(python_module(g, &join(&base, first).unwrap_or_default())?);
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The indexed files whose path ends with `/suffix` (or is `suffix`), nearest
/// the file at `from` first (the longest shared folder prefix, then path order).
fn by_suffix(g: &Graph<'_>, from: &str, suffix: &str) -> Result<Vec<FileKey>, SnapshotError> {
    let name = suffix.rsplit('/').next().unwrap_or(suffix);
    let Some(candidates) = g.index.files_by_name()?.get(name) else { return Ok(Vec::new()) };
    let mut found: Vec<(usize, String, FileKey)> = Vec::new();
    for &k in candidates {
        let p = g.path_of(k)?;
        if p == suffix || p.ends_with(&format!("/{suffix}")) {
            let shared = p.bytes().zip(from.bytes()).take_while(|(a, b)| a == b).count();
            found.push((usize::MAX - shared, p, k));
        }
    }
    found.sort();
    Ok(found.into_iter().map(|(.., k)| k).collect())
}

/// `#include "a/b.h"`: beside the including file, else the nearest indexed file
/// whose path ends with `a/b.h` (the project's include folders, without a build
/// system to ask).
fn include(g: &Graph<'_>, f: &FileGraph, spec: &str) -> Result<Vec<FileKey>, SnapshotError> {
    if let Some(k) = join(f.folder(), spec).map(|p| locate(g, &p)).transpose()?.flatten() {
        return Ok(vec![k]);
    }
    Ok(by_suffix(g, &f.path, spec)?.into_iter().take(1).collect())
}

/// `require_relative "x"` (spec `./x`) from the file's folder; `require "a/b"`
/// from `lib/`, the project root, else the nearest file ending with `a/b.rb`.
fn ruby(g: &Graph<'_>, f: &FileGraph, spec: &str) -> Result<Vec<FileKey>, SnapshotError> {
    let with_ext = |p: &str| if p.ends_with(".rb") { p.to_string() } else { format!("{p}.rb") };
    if let Some(rel) = spec.strip_prefix("./") {
        let path = join(f.folder(), &with_ext(rel));
        return Ok(path.map(|p| locate(g, &p)).transpose()?.flatten().into_iter().collect());
    }
    for base in ["lib", ""] {
        if let Some(k) = join(base, &with_ext(spec)).map(|p| locate(g, &p)).transpose()?.flatten() {
            return Ok(vec![k]);
        }
    }
    Ok(by_suffix(g, &f.path, &with_ext(spec))?.into_iter().take(1).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_mod_replaces_into_the_project_are_kept_longest_first() {
        let text = "// comment\nmodule k8s.io/kubernetes\n\ngo 1.15\n\nreplace (\n\tk8s.io/api => ./staging/src/k8s.io/api\n\tk8s.io/api/sub v0.0.0 => ./staging/sub // nested\n\tgithub.com/x/y => github.com/x/y v1.2.0\n\tk8s.io/abs => /opt/abs\n)\n\nreplace k8s.io/one => ../one\nreplace k8s.io/out => ../../../out\n";
        let m = parse_go_mod("a/b", text).unwrap();
        assert_eq!(m.module, "k8s.io/kubernetes");
        assert_eq!(
            m.replaces,
            [
                ("k8s.io/api/sub".to_string(), "a/b/staging/sub".to_string()),
                ("k8s.io/api".to_string(), "a/b/staging/src/k8s.io/api".to_string()),
                ("k8s.io/one".to_string(), "a/one".to_string()),
            ]
        );
        assert_eq!(parse_go_mod("", "go 1.15\n"), None);
    }
}

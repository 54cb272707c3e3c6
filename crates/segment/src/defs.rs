//! The definitions table of a segment: every definition (type, function or
//! method, property) by its exact name, with what resolving a reference to it
//! needs (kind, parent, declared type, extent, package / namespace), so that
//! the graph finds the candidates of a name without decompressing a structure
//! block. `format/README.md` describes the bytes.
//!
//! Written from the files' structure archives (the same for an extracted file
//! and a copied one), so it is derived data: a segment's table always matches
//! its archives.

use rustc_hash::FxHashMap;

use super::postings::{get_varint, put_varint};
use super::structure::FileStructure;
use crate::lang::arity::{arity_range, Arity};
use crate::lang::Language;

/// A definition as the table holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefEntry {
    /// The first slot of its file.
    pub slot: u32,
    /// Its position among the file's definitions: types, then methods, then
    /// properties, each in archive order.
    pub index: u32,
    pub line: u32,
    pub end_line: u32,
    /// 0 type, 1 function or method, 2 property.
    pub cat: u8,
    /// Inside a function's body (a local function or type).
    pub nested: bool,
    /// Its name is indexed on its first line (false when that line is an
    /// attribute or decorator above the name, or the name is not a term).
    pub on_line: bool,
    /// Declared private by its language's rules (C / C++: a top-level
    /// `static`, seen only in its own file when that is a source file).
    pub private: bool,
    /// A type's kind (`class`, `struct`, ...); empty for the others.
    pub kind: String,
    pub parent: Option<String>,
    /// The types around its parent, outermost first, joined by `.`
    /// ([`Nesting::outer`]); empty when none.
    pub outer: String,
    /// The declared result (functions) or type (properties); empty when none.
    pub returns: String,
    /// The file's package or namespace (Go, C#); empty elsewhere.
    pub scope: String,
    /// How many arguments a Java, C# or C++ method takes ([`arity_range`]);
    /// `None` for other definitions and languages.
    pub arity: Option<Arity>,
}

/// Most definitions of one name one segment's table holds (the count shares its
/// `u64` with the group's offset).
pub const MAX_GROUP: usize = (1 << 24) - 1;

/// Gathers a segment's definitions, then writes the three sections.
#[derive(Default)]
pub struct DefTableWriter {
    rows: Vec<(Box<str>, Row)>,
    ids: FxHashMap<Box<str>, u32>,
    strings: Vec<Box<str>>,
    /// Relation edges ([`relation_key`]): `(key, slot, line, the other end's
    /// string id + 1)`.
    edges: Vec<(Box<[u8]>, u32, u32, u32)>,
}

/// What a key of the relation sections lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// A type's supertypes (`>`).
    Up,
    /// A type's subtypes (`<`).
    Down,
    /// The files of a package or namespace (`=`; the edge's other end is the
    /// name itself).
    Scope,
}

impl Relation {
    fn byte(self) -> u8 {
        match self {
            Relation::Up => b'>',
            Relation::Down => b'<',
            Relation::Scope => b'=',
        }
    }

    pub fn from_byte(b: u8) -> Option<Relation> {
        [Relation::Up, Relation::Down, Relation::Scope].into_iter().find(|r| r.byte() == b)
    }
}

/// The key of `name`'s edges of a relation: the name, 0xFF (never in UTF-8),
/// then the relation's byte.
pub fn relation_key(name: &str, relation: Relation) -> Vec<u8> {
    let mut key = Vec::with_capacity(name.len() + 2);
    key.extend_from_slice(name.as_bytes());
    key.push(0xFF);
    key.push(relation.byte());
    key
}

/// The bytes of the five sections a [`DefTableWriter`] makes.
pub struct DefSections {
    pub fst: Vec<u8>,
    /// The records, uncompressed (the writer blocks them, see [`crate::blocks`]).
    pub records: Vec<u8>,
    /// Where each group of records starts.
    pub group_starts: Vec<usize>,
    pub strings: Vec<u8>,
    pub relation_fst: Vec<u8>,
    pub relations: Vec<u8>,
}

/// A definition with its strings as ids (+1; 0: none).
struct Row {
    slot: u32,
    index: u32,
    line: u32,
    end_line: u32,
    tag: u8,
    arity: Option<Arity>,
    kind: u32,
    parent: u32,
    returns: u32,
    scope: u32,
    /// 0 when none (then not written: tag bit 6 clear).
    outer: u32,
}

impl DefTableWriter {
    fn id(&mut self, s: &str) -> u32 {
        if s.is_empty() {
            return 0;
        }
        if let Some(&i) = self.ids.get(s) {
            return i + 1;
        }
        let i = self.strings.len() as u32;
        self.strings.push(s.into());
        self.ids.insert(s.into(), i);
        i + 1
    }

    /// Adds the definitions of the file whose first slot is `slot`, read from its
    /// structure archive (nothing when it is empty or invalid); `terms` are the
    /// file's exact terms with their increasing lines (to mark the definitions
    /// whose name is indexed on their first line); `language` is the file's
    /// (its methods' arities are read from their prototypes by its rules).
    pub fn add_file(&mut self, slot: u32, language: Option<Language>, archive: &[u8], terms: &[(&str, &[u32])]) {
        if archive.is_empty() {
            return;
        }
        let s = FileStructure::from_archive(archive);
        self.add_structure(slot, language, s.as_ref(), terms);
    }

    /// [`DefTableWriter::add_file`] with the archive already read (`None`:
    /// none, or invalid).
    pub fn add_structure(
        &mut self,
        slot: u32,
        language: Option<Language>,
        s: Option<&FileStructure>,
        terms: &[(&str, &[u32])],
    ) {
        let Some(s) = s else { return };
        // (name, line, end_line, cat, kind, parent, returns, private, arity)
        type Fields<'a> = (&'a str, u32, u32, u8, &'a str, Option<&'a str>, &'a str, bool, Option<Arity>);
        let private = |v: &Option<String>| v.as_deref() == Some("private");
        let mut defs: Vec<Fields<'_>> = Vec::new();
        for t in s.types.iter() {
            let (line, end) = (t.line, t.end_line);
            defs.push((
                t.name.as_str(),
                line,
                end.max(line),
                0,
                t.kind.as_str(),
                t.parent.as_deref(),
                "",
                private(&t.visibility),
                None,
            ));
        }
        for m in s.methods.iter() {
            let (line, end) = (m.line, m.end_line);
            defs.push((
                m.name.as_str(),
                line,
                end.max(line),
                1,
                "",
                m.parent.as_deref(),
                m.returns.as_str(),
                private(&m.visibility),
                language.and_then(|l| arity_range(l, m.name.as_str(), m.prototype.as_str())),
            ));
        }
        for p in s.properties.iter() {
            let (line, end) = (p.line, p.end_line);
            defs.push((
                p.name.as_str(),
                line,
                end.max(line),
                2,
                "",
                p.parent.as_deref(),
                p.ty.as_str(),
                private(&p.visibility),
                None,
            ));
        }
        // Which definitions have their name among the terms of their first line
        // (not when that line is an attribute or a decorator above it).
        let mut on_line = vec![false; defs.len()];
        let mut by_name: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
        for (i, d) in defs.iter().enumerate() {
            by_name.entry(d.0).or_default().push(i);
        }
        for (term, lines) in terms {
            for &i in by_name.get(term).map(Vec::as_slice).unwrap_or_default() {
                on_line[i] = lines.binary_search(&defs[i].1).is_ok();
            }
        }
        // Supertype edges: each `inherit` reference with its subtype as the
        // receiver (`class Store extends Base`, `impl Display for Store`), the
        // supertype as the file's imports make it (an alias stands for the name
        // it imports).
        if let Some(refs) = super::structure::decode_refs(s.refs.as_slice(), s.names.len()) {
            let dealias = |name: &'_ str| -> Box<str> {
                let mut names = s.imports.iter().flat_map(|i| i.names.iter());
                let real = names.find_map(|n| super::structure::aliased(n.name.as_str(), n.alias.as_str(), name));
                real.unwrap_or(name).into()
            };
            for r in refs.iter().filter(|r| r.role == crate::extract::RefRole::Inherit) {
                use super::structure::PackedReceiver;
                let (PackedReceiver::Type(sub) | PackedReceiver::Qualified(sub, _)) = r.receiver else { continue };
                let sub = s.names[sub as usize].as_str();
                let sup = dealias(s.names[r.name as usize].as_str());
                // An edge names both ends (an unnamed one, id 0, would be
                // read as malformed: `typedef IntNative (WINAPI *FARPROC)();`
                // made every question about `IntNative`'s subtypes an error).
                if sub.is_empty() || sup.is_empty() {
                    continue;
                }
                let (sub_id, sup_id) = (self.id(sub), self.id(&sup));
                for (key, other) in
                    [(relation_key(sub, Relation::Up), sup_id), (relation_key(&sup, Relation::Down), sub_id)]
                {
                    self.edges.push((key.into_boxed_slice(), slot, r.line, other));
                }
            }
        }
        // The file's package or namespace (C#, Java, PHP, Go): its files are
        // found by it (a `using` names one).
        if !s.scope.is_empty() {
            let scope_id = self.id(&s.scope);
            self.edges.push((relation_key(&s.scope, Relation::Scope).into_boxed_slice(), slot, 0, scope_id));
        }
        // Functions by extent, to tell which definitions sit inside one.
        let mut functions: Vec<(u32, u32)> = defs.iter().filter(|d| d.3 == 1).map(|d| (d.1, d.2)).collect();
        functions.sort_unstable();
        let scope = self.id(&s.scope);
        let nesting = Nesting::new(defs.iter().filter(|d| d.3 == 0).map(|d| (d.0, d.4, d.1, d.2, d.5)));
        for (index, &(name, line, end_line, cat, kind, parent, returns, private, arity)) in defs.iter().enumerate() {
            let outer = match &nesting {
                Some(n) => self.id(&n.outer(parent, line, name)),
                None => 0,
            };
            let nested =
                functions.iter().take_while(|f| f.0 <= line).any(|&(l, e)| (l, e) != (line, end_line) && end_line <= e);
            let row = Row {
                slot,
                index: index as u32,
                line,
                end_line,
                tag: cat
                    | (nested as u8) << 2
                    | (on_line[index] as u8) << 3
                    | (private as u8) << 4
                    | (arity.is_some() as u8) << 5
                    | ((outer != 0) as u8) << 6,
                arity,
                kind: self.id(kind),
                parent: parent.map_or(0, |p| if p.is_empty() { 0 } else { self.id(p) }),
                returns: self.id(returns),
                scope,
                outer,
            };
            self.rows.push((name.into(), row));
        }
    }

    /// Each name of the definitions added so far, with how many there are.
    pub fn name_counts(&self) -> rustc_hash::FxHashMap<&str, u64> {
        let mut counts = rustc_hash::FxHashMap::default();
        for (name, _) in &self.rows {
            *counts.entry(&**name).or_default() += 1;
        }
        counts
    }

    /// The `def fst`, `defs` and `def strings` sections, and the `relation
    /// fst` and `relations` sections.
    pub fn finish(mut self) -> DefSections {
        // Files arrive in slot order and their definitions in index order: a
        // stable sort by name keeps both within a name.
        self.rows.sort_by(|a, b| a.0.cmp(&b.0));
        let (fst, records, group_starts) = write_groups(
            &self.rows,
            |(name, _)| name.as_bytes(),
            |(_, r)| r.slot,
            |out, (_, r)| {
                put_varint(out, r.index as u64);
                put_varint(out, r.line as u64);
                put_varint(out, (r.end_line - r.line) as u64);
                out.push(r.tag);
                if let Some(a) = r.arity {
                    out.extend_from_slice(&[a.fewest, a.most, a.variadic as u8 | (a.extension as u8) << 1]);
                }
                for id in [r.kind, r.parent, r.returns, r.scope] {
                    put_varint(out, id as u64);
                }
                if r.outer != 0 {
                    put_varint(out, r.outer as u64);
                }
            },
        );
        // Edges arrive in slot and line order: a stable sort by key keeps it.
        self.edges.sort_by(|a, b| a.0.cmp(&b.0));
        let (edge_fst, edge_records, _) = write_groups(
            &self.edges,
            |e| &e.0,
            |e| e.1,
            |out, &(_, _, line, other)| {
                put_varint(out, line as u64);
                put_varint(out, other as u64);
            },
        );
        let mut strings = Vec::new();
        strings.extend_from_slice(&(self.strings.len() as u32).to_le_bytes());
        let mut at = 0u32;
        for s in &self.strings {
            strings.extend_from_slice(&at.to_le_bytes());
            at += s.len() as u32;
        }
        strings.extend_from_slice(&at.to_le_bytes());
        for s in &self.strings {
            strings.extend_from_slice(s.as_bytes());
        }
        DefSections { fst, records, group_starts, strings, relation_fst: edge_fst, relations: edge_records }
    }
}

/// Writes `rows` (sorted by `key`, in slot order within a key) as groups, one
/// per key: an fst from the key to `offset << 24 | count` in the records, each
/// record `varint(slot - previous record's slot)` then what `rest` writes (at
/// most [`MAX_GROUP`] records a key).
fn write_groups<T>(
    rows: &[T],
    key: impl Fn(&T) -> &[u8],
    slot: impl Fn(&T) -> u32,
    mut rest: impl FnMut(&mut Vec<u8>, &T),
) -> (Vec<u8>, Vec<u8>, Vec<usize>) {
    let mut builder = fst::MapBuilder::memory();
    let mut records = Vec::new();
    let mut starts = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let k = key(&rows[i]);
        let end = rows[i..].iter().position(|r| key(r) != k).map_or(rows.len(), |n| i + n);
        let group = &rows[i..end.min(i + MAX_GROUP)];
        let offset = records.len() as u64;
        starts.push(records.len());
        let mut prev_slot = 0;
        for r in group {
            put_varint(&mut records, (slot(r) - prev_slot) as u64);
            prev_slot = slot(r);
            rest(&mut records, r);
        }
        builder.insert(k, offset << 24 | group.len() as u64).expect("keys come sorted");
        i = end;
    }
    (builder.into_inner().expect("in-memory fst"), records, starts)
}

/// One record as stored: its slot (the delta added), its strings as ids.
struct RawRecord {
    slot: u32,
    index: u32,
    line: u32,
    end_line: u32,
    tag: u8,
    arity: Option<Arity>,
    /// kind, parent, returns, scope, outer: string ids plus one (0: none).
    ids: StringIds,
}

/// Decodes the record at `*at` (the previous record's slot is `slot`); `None`
/// when the bytes are malformed.
fn raw_record(records: &[u8], at: &mut usize, slot: u32) -> Option<RawRecord> {
    let mut next = || get_varint(records, at);
    let slot = slot.checked_add(u32::try_from(next()?).ok()?)?;
    let index = u32::try_from(next()?).ok()?;
    let line = u32::try_from(next()?).ok()?;
    let end_line = line.checked_add(u32::try_from(next()?).ok()?)?;
    // The tag is one byte: a one-byte varint (a set high bit fails here).
    let tag = u8::try_from(get_varint(records.get(..*at + 1)?, at)?).ok()?;
    if tag & 3 > 2 || tag > 127 {
        return None;
    }
    // Bit 5: the method's arity follows (fewest, most, flags).
    let arity = match tag & 32 {
        0 => None,
        _ => {
            let &[fewest, most, flags] = records.get(*at..*at + 3)? else { return None };
            *at += 3;
            if flags > 3 || fewest > most {
                return None;
            }
            Some(Arity { fewest, most, variadic: flags & 1 != 0, extension: flags & 2 != 0 })
        }
    };
    let mut next = || get_varint(records, at);
    let mut ids = [next()?, next()?, next()?, next()?, 0];
    // Bit 6: the types around its parent follow (else none).
    if tag & 64 != 0 {
        ids[4] = next().filter(|&id| id != 0)?;
    }
    Some(RawRecord { slot, index, line, end_line, tag, arity, ids })
}

/// Decodes a group of `count` records at `offset` of the `defs` section, with
/// strings from the `def strings` section; `None` when the bytes are malformed.
pub fn read_group(records: &[u8], strings: &[u8], offset: usize, count: usize) -> Option<Vec<DefEntry>> {
    read_heads(records, offset, count)?.into_iter().map(|(e, ids)| fill_strings(strings, e, ids)).collect()
}

/// The string ids of a record (kind, parent, returns, scope, outer; 0 for
/// none), to read with [`fill_strings`].
pub type StringIds = [u64; 5];

/// [`read_group`] without the strings: each entry's `kind`, `parent`,
/// `returns` and `scope` empty (nothing allocated), with their ids.
pub fn read_heads(records: &[u8], offset: usize, count: usize) -> Option<Vec<(DefEntry, StringIds)>> {
    let mut out = Vec::with_capacity(count.min(1 << 16));
    let mut at = offset;
    let mut slot = 0u32;
    for _ in 0..count {
        let r = raw_record(records, &mut at, slot)?;
        slot = r.slot;
        let entry = DefEntry {
            slot: r.slot,
            index: r.index,
            line: r.line,
            end_line: r.end_line,
            cat: r.tag & 3,
            nested: r.tag & 4 != 0,
            on_line: r.tag & 8 != 0,
            private: r.tag & 16 != 0,
            arity: r.arity,
            kind: String::new(),
            parent: None,
            outer: String::new(),
            returns: String::new(),
            scope: String::new(),
        };
        out.push((entry, r.ids));
    }
    Some(out)
}

/// An entry of [`read_heads`] with its strings.
pub fn fill_strings(strings: &[u8], mut e: DefEntry, ids: StringIds) -> Option<DefEntry> {
    let string = |id: u64| -> Option<String> {
        match id {
            0 => Some(String::new()),
            _ => string_at(strings, id - 1),
        }
    };
    let [kind, parent, returns, scope, outer] = ids;
    e.kind = string(kind)?;
    e.parent = if parent == 0 { None } else { Some(string(parent)?) };
    e.returns = string(returns)?;
    e.scope = string(scope)?;
    e.outer = string(outer)?;
    Some(e)
}

/// A type's `(line, end_line, parent)`.
type Extent<'a> = (u32, u32, Option<&'a str>);

/// A file's types by name, to tell the types and modules around a
/// definition's parent.
pub struct Nesting<'a> {
    by_name: FxHashMap<&'a str, Vec<Extent<'a>>>,
    /// Rust's inline modules (`mod tests { .. }`, kind `mod`): `(line,
    /// end_line, name)`, in order of their first lines.
    modules: Vec<(u32, u32, &'a str)>,
}

/// A file's type as [`Nesting::new`] takes it: `(name, kind, line, end_line,
/// parent)`.
pub type NestedType<'a> = (&'a str, &'a str, u32, u32, Option<&'a str>);

impl<'a> Nesting<'a> {
    /// `None` when no type has a parent and none is a module (most files nest
    /// nothing).
    pub fn new(types: impl Iterator<Item = NestedType<'a>> + Clone) -> Option<Nesting<'a>> {
        if types.clone().all(|t| t.4.is_none() && t.1 != "mod") {
            return None;
        }
        let mut by_name: FxHashMap<&str, Vec<_>> = FxHashMap::default();
        let mut modules = Vec::new();
        for (name, kind, line, end_line, parent) in types {
            by_name.entry(name).or_default().push((line, end_line, parent));
            if kind == "mod" {
                modules.push((line, end_line, name));
            }
        }
        modules.sort_unstable();
        Some(Nesting { by_name, modules })
    }

    /// The types and modules around a definition's parent (or around it, with
    /// none), outermost first, joined by `.`: `Outer` for a method `add` of
    /// `C` declared in class `Outer` (qualified `Outer.C.add`), `Shop.Outer`
    /// for Ruby's `module Shop; class Outer; class C`, `tests` for a Rust
    /// function in `mod tests { .. }`. Types are followed from the parent: a
    /// parent is the innermost type of its name whose extent holds the line
    /// named by it; none is found for one declared at top level or not in its
    /// file (a Go method's receiver declared above it, C++'s `void C::add()
    /// {..}`, Rust's `impl C` apart from `struct C`). Then the Rust modules
    /// whose extent holds the last line reached, but the definition itself
    /// (`own`: its name and first line).
    pub fn outer(&self, parent: Option<&str>, line: u32, own: &str) -> String {
        let mut chain: Vec<&str> = Vec::new();
        let (mut name, mut at) = (parent, line);
        // (Bounded: a malformed archive's parents could go round.)
        while let Some(p) = name.filter(|_| chain.len() < 16) {
            let types = self.by_name.get(p).map(Vec::as_slice).unwrap_or_default();
            let around = types.iter().filter(|t| t.0 <= at && at <= t.1).min_by_key(|t| t.1 - t.0);
            let Some(&(type_line, _, up)) = around else { break };
            chain.extend(up);
            (name, at) = (up, type_line);
        }
        chain.reverse();
        let modules = self
            .modules
            .iter()
            .take_while(|m| m.0 <= at)
            .filter(|m| at <= m.1 && (m.0, m.2) != (line, own))
            .map(|m| m.2);
        let mut parts: Vec<&str> = modules.collect();
        parts.extend(chain);
        parts.join(".")
    }
}

/// A relation edge as the relation sections hold it: in the file whose first
/// slot is `slot`, at `line`, to the type (or scope) named `other`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub slot: u32,
    pub line: u32,
    pub other: String,
}

/// An [`Edge`] with its other end's `def strings` id (plus one) instead of the
/// string: for readers that want few of the strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeId {
    pub slot: u32,
    pub line: u32,
    /// The string's id plus one (never 0): see [`def_string`].
    pub other: u64,
}

/// Decodes a group of `count` edges at `offset` of the `relations` section,
/// their strings left in the `def strings` section ([`def_string`]); `None`
/// when the bytes are malformed.
pub fn read_edge_ids(records: &[u8], offset: usize, count: usize) -> Option<Vec<EdgeId>> {
    let mut out = Vec::with_capacity(count.min(1 << 16));
    let (mut at, mut slot) = (offset, 0u32);
    for _ in 0..count {
        slot = slot.checked_add(u32::try_from(get_varint(records, &mut at)?).ok()?)?;
        let line = u32::try_from(get_varint(records, &mut at)?).ok()?;
        let other = get_varint(records, &mut at)?;
        if other == 0 {
            return None;
        }
        out.push(EdgeId { slot, line, other });
    }
    Some(out)
}

/// The string of an [`EdgeId`]'s `other`; `None` when out of range or not UTF-8.
pub fn def_string(strings: &[u8], other: u64) -> Option<String> {
    string_at(strings, other.checked_sub(1)?)
}

/// The `def strings` string `i`; `None` when out of range or not UTF-8.
fn string_at(strings: &[u8], i: u64) -> Option<String> {
    let n = u32::from_le_bytes(strings.get(..4)?.try_into().ok()?) as u64;
    if i >= n {
        return None;
    }
    let table_end = 4usize.checked_add(usize::try_from(n).ok()?.checked_add(1)?.checked_mul(4)?)?;
    let at = |k: u64| -> Option<usize> {
        let o = 4 + usize::try_from(k).ok()? * 4;
        Some(u32::from_le_bytes(strings.get(o..o + 4)?.try_into().ok()?) as usize)
    };
    let bytes = strings.get(table_end..)?.get(at(i)?..at(i + 1)?)?;
    std::str::from_utf8(bytes).ok().map(str::to_string)
}

/// The `(slot, line, name on the line)` of each record of a group, without
/// reading its strings, decoded as they are taken (a caller wanting the first
/// few reads no more). Malformed bytes end the stream with [`DefLines::failed`]
/// set; slots are not checked against the segment's.
pub struct DefLines<'a> {
    records: &'a [u8],
    at: usize,
    left: usize,
    slot: u32,
    pub failed: bool,
}

impl<'a> DefLines<'a> {
    pub fn new(records: &'a [u8], offset: usize, count: usize) -> DefLines<'a> {
        DefLines { records, at: offset, left: count, slot: 0, failed: false }
    }
}

impl Iterator for DefLines<'_> {
    /// `(first slot, line, whether the name is indexed on that line)`.
    type Item = (u32, u32, bool);

    fn next(&mut self) -> Option<(u32, u32, bool)> {
        if self.left == 0 || self.failed {
            return None;
        }
        self.left -= 1;
        let Some(r) = raw_record(self.records, &mut self.at, self.slot) else {
            self.failed = true;
            return None;
        };
        self.slot = r.slot;
        Some((r.slot, r.line, r.tag & 8 != 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structure::{FileStructure, MethodRecord, PropertyRecord, TypeRecord};

    /// A class `name` at `line..=end_line` inside `parent`.
    fn class(name: &str, line: u32, end_line: u32, parent: Option<&str>) -> TypeRecord {
        TypeRecord {
            name: name.into(),
            kind: "class".into(),
            line,
            end_line,
            parent: parent.map(Into::into),
            ..TypeRecord::default()
        }
    }

    fn archive() -> Vec<u8> {
        let m = |name: &str, line, end_line, parent: Option<&str>, returns: &str| MethodRecord {
            name: name.into(),
            line,
            end_line,
            parent: parent.map(Into::into),
            returns: returns.into(),
            prototype: format!("Store {name}(int a, int b = 1, params int[] rest)"),
            ..MethodRecord::default()
        };
        FileStructure {
            scope: "shop".into(),
            types: vec![class("Store", 1, 20, None), class("Local", 12, 13, None)],
            methods: vec![m("add", 2, 15, Some("Store"), "Store"), m("New", 30, 32, None, "Store")],
            properties: vec![PropertyRecord {
                name: "add".into(),
                line: 40,
                end_line: 40,
                ty: "int".into(),
                parent: Some("Other".into()),
                ..PropertyRecord::default()
            }],
            ..FileStructure::default()
        }
        .to_archive()
    }

    #[test]
    fn groups_round_trip_by_name_in_slot_order() {
        let mut w = DefTableWriter::default();
        // `add` is named on line 2 only (not on its field's line 40).
        let terms: [(&str, &[u32]); 2] = [("add", &[2, 9]), ("Store", &[1, 2])];
        w.add_file(3, Some(Language::Java), &archive(), &terms);
        w.add_file(9, Some(Language::CSharp), &archive(), &[]);
        w.add_file(10, Some(Language::Java), b"not an archive", &terms);
        w.add_file(11, None, &archive(), &[]);
        let DefSections { fst, records, strings, .. } = w.finish();
        let map = fst::Map::new(fst).unwrap();
        let group = |name: &str| {
            let v = map.get(name).unwrap();
            read_group(&records, &strings, (v >> 24) as usize, (v & 0xff_ffff) as usize).unwrap()
        };
        let add = group("add");
        assert_eq!(add.len(), 6);
        assert_eq!(
            add.iter().map(|d| (d.slot, d.index, d.cat, d.parent.as_deref())).collect::<Vec<_>>(),
            [
                (3, 2, 1, Some("Store")),
                (3, 4, 2, Some("Other")),
                (9, 2, 1, Some("Store")),
                (9, 4, 2, Some("Other")),
                (11, 2, 1, Some("Store")),
                (11, 4, 2, Some("Other"))
            ]
        );
        // Each method's arity by its file's language (Java has no defaults
        // and no `params`); none for a property or an unknown language.
        let arity = |fewest, most, variadic| Some(Arity { fewest, most, variadic, extension: false });
        assert_eq!(
            add.iter().map(|d| d.arity).collect::<Vec<_>>(),
            [arity(3, 3, false), None, arity(1, 2, true), None, None, None]
        );
        assert_eq!(
            (add[0].line, add[0].end_line, add[0].returns.as_str(), add[0].scope.as_str()),
            (2, 15, "Store", "shop")
        );
        assert_eq!(add[1].returns, "int");
        let local = group("Local");
        assert!(local[0].nested, "a type inside add's body");
        assert_eq!(local[0].kind, "class");
        assert!(!group("Store")[0].nested);
        assert!(!group("add")[0].nested, "a function is not nested in itself");
        assert!(map.get("missing").is_none());
        let v = map.get("add").unwrap();
        let mut lines = DefLines::new(&records, (v >> 24) as usize, (v & 0xff_ffff) as usize);
        assert_eq!(
            lines.by_ref().collect::<Vec<_>>(),
            [(3, 2, true), (3, 40, false), (9, 2, false), (9, 40, false), (11, 2, false), (11, 40, false)]
        );
        assert!(!lines.failed);
        let end = |name: &str| {
            let v = map.get(name).unwrap();
            let mut at = (v >> 24) as usize;
            (0..(v & 0xff_ffff)).fold(0, |slot, _| raw_record(&records, &mut at, slot).unwrap().slot);
            at
        };
        let mut short = DefLines::new(&records[..end("add") - 1], (v >> 24) as usize, 40);
        assert_eq!(short.by_ref().count(), 5, "the last record is cut short");
        assert!(short.failed);
        // Truncated bytes are an error, not a panic.
        let v = map.get("add").unwrap();
        assert!(read_group(&records[..end("add") - 1], &strings, (v >> 24) as usize, 40).is_none());
        assert!(read_group(&records, &strings[..6], (v >> 24) as usize, 4).is_none());
    }

    #[test]
    fn malformed_arities_are_refused() {
        let mut w = DefTableWriter::default();
        w.add_file(0, Some(Language::CSharp), &archive(), &[]);
        let DefSections { fst, records, strings, .. } = w.finish();
        let v = fst::Map::new(fst).unwrap().get("New").unwrap();
        let (offset, count) = ((v >> 24) as usize, (v & 0xff_ffff) as usize);
        let group = read_group(&records, &strings, offset, count).unwrap();
        assert_eq!(group[0].arity, Some(Arity { fewest: 1, most: 2, variadic: true, extension: false }));
        // The record: slot 0, index 3, line 30, extent 2 (a byte each), its
        // tag, then the arity's bytes.
        let tag_at = offset + 4;
        assert_eq!(records[offset..tag_at], [0, 3, 30, 2]);
        assert_eq!(records[tag_at], 1 | 32);
        for (at, bad) in [(tag_at + 3, 4u8), (tag_at + 1, 3), (tag_at, 128 | 33)] {
            let mut broken = records.clone();
            broken[at] = bad;
            assert!(read_group(&broken, &strings, offset, count).is_none(), "byte {at} = {bad}");
        }
    }

    /// The types around a member's type: the innermost of its name holding its
    /// line, then theirs; a namesake declared elsewhere has none.
    #[test]
    fn outer_types_are_the_chain_of_innermost_holders() {
        let m = |name: &str, line, parent: &str| MethodRecord {
            name: name.into(),
            line,
            end_line: line,
            parent: Some(parent.into()),
            ..MethodRecord::default()
        };
        let file = FileStructure {
            types: vec![
                class("Store", 1, 20, None),
                class("Inner", 3, 10, Some("Store")),
                class("Deep", 4, 6, Some("Inner")),
                class("Inner", 30, 40, None),
            ],
            methods: vec![m("put", 5, "Deep"), m("get", 8, "Inner"), m("get", 31, "Inner"), m("go", 50, "Elsewhere")],
            ..FileStructure::default()
        }
        .to_archive();
        let mut w = DefTableWriter::default();
        w.add_file(0, Some(Language::Java), &file, &[]);
        let DefSections { fst, records, strings, .. } = w.finish();
        let map = fst::Map::new(fst).unwrap();
        let outer = |name: &str| -> Vec<String> {
            let v = map.get(name).unwrap();
            let group = read_group(&records, &strings, (v >> 24) as usize, (v & 0xff_ffff) as usize).unwrap();
            group.into_iter().map(|d| d.outer).collect()
        };
        assert_eq!(outer("put"), ["Store.Inner"]);
        assert_eq!(outer("get"), ["Store", ""]);
        assert_eq!(outer("Deep"), ["Store"]);
        assert_eq!(outer("Inner"), ["", ""]);
        assert_eq!(outer("go"), [""]);
        // A record says whether its outer id follows: none written for "".
        let v = map.get("go").unwrap();
        assert_eq!(records[(v >> 24) as usize + 4] & 64, 0);
        let v = map.get("put").unwrap();
        assert_eq!(records[(v >> 24) as usize + 4] & 64, 64);
    }
}

//! The bytes of a structure archive: a file's [`FileStructure`] in columns, each
//! field of every record beside the same field of the others, in an rkyv
//! container (format/README.md, Structure archives). Compressed with the
//! segment's dictionary, the columns take two thirds of what one rkyv record
//! per definition takes (kubernetes: 14.1 against 21.9 MiB): zstd cannot shrink
//! a record's relative pointer and length beside every string and its
//! fixed-width fields (`examples/snapshot_profile.rs`).

use rkyv::rancor::Error as RkyvError;

use super::{FileStructure, ImportName, ImportRecord, MethodRecord, PropertyRecord, TypeRecord};
use crate::postings::{get_varint, put_varint};

/// The container.
#[derive(rkyv::Archive, rkyv::Serialize)]
struct Columns {
    /// Every string, each ended by a NUL (one within a string is stored as
    /// U+FFFD): the table (kinds, parents, declared types and visibilities,
    /// each once), then the names (the scope, the definitions' names, the
    /// reference names, the imports' specs and names), then the prose (the
    /// header comments, the types' doc comments, the methods' prototypes and
    /// doc comments, the properties' declarations).
    strings: String,
    /// Counts, table ids, flags and lines as varints, then the packed
    /// references ([`super::encode_refs`]) as they are, whose length is the
    /// seventh count.
    bytes: Vec<u8>,
}

/// Strings that recur in a file's records, each once; id 0 is none (or the
/// empty string, for a field that is not optional), `i + 1` the `i`-th.
#[derive(Default)]
struct Table<'a> {
    strings: Vec<&'a str>,
    ids: rustc_hash::FxHashMap<&'a str, u64>,
}

impl<'a> Table<'a> {
    fn id(&mut self, s: &'a str) -> u64 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        self.strings.push(s);
        let id = self.strings.len() as u64;
        self.ids.insert(s, id);
        id
    }
    /// A field that is not optional: the empty string is 0.
    fn plain(&mut self, s: &'a str) -> u64 {
        if s.is_empty() {
            0
        } else {
            self.id(s)
        }
    }
    fn option(&mut self, s: Option<&'a str>) -> u64 {
        s.map_or(0, |s| self.id(s))
    }
}

fn zigzag(d: i64) -> u64 {
    ((d << 1) ^ (d >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// Adds `line` as its signed distance from `prev`.
fn put_line(out: &mut Vec<u8>, prev: &mut u32, line: u32) {
    put_varint(out, zigzag(i64::from(line) - i64::from(*prev)));
    *prev = line;
}

fn put_extent(out: &mut Vec<u8>, prev: &mut u32, line: u32, end_line: u32) {
    put_line(out, prev, line);
    put_varint(out, zigzag(i64::from(end_line) - i64::from(line)));
}

/// Appends `s` and its NUL (a NUL within it as U+FFFD).
fn put_str(out: &mut String, s: &str) {
    match s.contains('\0') {
        false => out.push_str(s),
        true => out.push_str(&s.replace('\0', "\u{FFFD}")),
    }
    out.push('\0');
}

/// `f` as archive bytes.
pub(super) fn encode(f: &FileStructure) -> Vec<u8> {
    let mut table = Table::default();
    let (mut names, mut text, mut nums) = (String::new(), String::new(), Vec::new());
    for n in [f.types.len(), f.methods.len(), f.properties.len(), f.names.len(), f.imports.len()] {
        put_varint(&mut nums, n as u64);
    }
    put_str(&mut names, &f.scope);
    put_str(&mut text, &f.header);
    let mut prev = 0;
    for t in &f.types {
        put_str(&mut names, &t.name);
        put_str(&mut text, &t.doc);
        put_varint(&mut nums, table.plain(&t.kind));
        put_varint(&mut nums, table.option(t.parent.as_deref()));
        put_varint(&mut nums, table.option(t.visibility.as_deref()));
        put_extent(&mut nums, &mut prev, t.line, t.end_line);
    }
    prev = 0;
    for m in &f.methods {
        put_str(&mut names, &m.name);
        put_str(&mut text, &m.prototype);
        put_str(&mut text, &m.doc);
        put_varint(&mut nums, table.plain(&m.returns));
        put_varint(&mut nums, table.option(m.parent.as_deref()));
        let vis = table.option(m.visibility.as_deref());
        put_varint(&mut nums, vis << 2 | u64::from(m.is_static) << 1 | u64::from(m.is_async));
        put_extent(&mut nums, &mut prev, m.line, m.end_line);
    }
    prev = 0;
    for p in &f.properties {
        put_str(&mut names, &p.name);
        put_str(&mut text, &p.declaration);
        put_varint(&mut nums, table.plain(&p.ty));
        put_varint(&mut nums, table.option(p.parent.as_deref()));
        let vis = table.option(p.visibility.as_deref());
        put_varint(&mut nums, vis << 1 | u64::from(p.is_static));
        put_extent(&mut nums, &mut prev, p.line, p.end_line);
    }
    for n in &f.names {
        put_str(&mut names, n);
    }
    prev = 0;
    for i in &f.imports {
        put_str(&mut names, &i.spec);
        for n in &i.names {
            put_str(&mut names, &n.name);
            put_str(&mut names, &n.alias);
        }
        put_line(&mut nums, &mut prev, i.line);
        put_varint(&mut nums, u64::from(i.kind));
        put_varint(&mut nums, i.names.len() as u64);
    }
    let mut strings = String::with_capacity(names.len() + text.len() + 64);
    for s in &table.strings {
        put_str(&mut strings, s);
    }
    strings.push_str(&names);
    strings.push_str(&text);
    let mut bytes = Vec::with_capacity(nums.len() + f.refs.len() + 8);
    put_varint(&mut bytes, table.strings.len() as u64);
    put_varint(&mut bytes, f.refs.len() as u64);
    bytes.extend_from_slice(&nums);
    bytes.extend_from_slice(&f.refs);
    rkyv::to_bytes::<RkyvError>(&Columns { strings, bytes }).map(|v| v.to_vec()).unwrap_or_default()
}

/// `f` as [`decode`] gives it back: a NUL within a string is U+FFFD.
pub(super) fn stored(f: &FileStructure) -> FileStructure {
    into_stored(f.clone())
}

/// [`stored`], taking `f`.
pub(super) fn into_stored(mut f: FileStructure) -> FileStructure {
    let fix = |s: &mut String| {
        if s.contains('\0') {
            *s = s.replace('\0', "\u{FFFD}");
        }
    };
    let fix_option = |s: &mut Option<String>| {
        if let Some(s) = s {
            fix(s)
        }
    };
    fix(&mut f.header);
    fix(&mut f.scope);
    for t in &mut f.types {
        [&mut t.name, &mut t.kind, &mut t.doc].into_iter().for_each(fix);
        [&mut t.parent, &mut t.visibility].into_iter().for_each(fix_option);
    }
    for m in &mut f.methods {
        [&mut m.name, &mut m.prototype, &mut m.returns, &mut m.doc].into_iter().for_each(fix);
        [&mut m.parent, &mut m.visibility].into_iter().for_each(fix_option);
    }
    for p in &mut f.properties {
        [&mut p.name, &mut p.declaration, &mut p.ty].into_iter().for_each(fix);
        [&mut p.parent, &mut p.visibility].into_iter().for_each(fix_option);
    }
    f.names.iter_mut().for_each(fix);
    for i in &mut f.imports {
        fix(&mut i.spec);
        for n in &mut i.names {
            fix(&mut n.name);
            fix(&mut n.alias);
        }
    }
    f
}

/// The NUL-ended strings of a column, read in order.
struct Strings<'a> {
    all: &'a str,
    at: usize,
}

impl<'a> Strings<'a> {
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.all.as_bytes().get(self.at..)?;
        let len = memchr::memchr(0, rest)?;
        // A NUL byte is a character of its own in UTF-8: both ends are
        // boundaries.
        let s = self.all.get(self.at..self.at + len)?;
        self.at += len + 1;
        Some(s)
    }
}

/// Reads archive bytes; `None` when they are not a valid archive. Without
/// `text`, the header, doc comments, prototypes and declarations are left
/// empty (not read).
pub(super) fn decode(bytes: &[u8], text: bool) -> Option<FileStructure> {
    let c = rkyv::access::<ArchivedColumns, RkyvError>(bytes).ok()?;
    let all = c.bytes.as_slice();
    let mut n = 0usize;
    let table_len = get_varint(all, &mut n)?;
    let refs_len = usize::try_from(get_varint(all, &mut n)?).ok()?;
    let nums = all.get(..all.len().checked_sub(refs_len)?)?;
    let refs = &all[nums.len()..];
    let mut num = || get_varint(nums, &mut n);
    // Every record takes at least one byte of numbers, every string one of
    // strings: a larger count is corrupt (and is not allocated).
    let count = |v: u64| usize::try_from(v).ok().filter(|&v| v <= nums.len());
    let strings = |v: u64| usize::try_from(v).ok().filter(|&v| v <= c.strings.len());
    let (types, methods, properties) = (count(num()?)?, count(num()?)?, count(num()?)?);
    let (ref_names, imports) = (strings(num()?)?, count(num()?)?);
    let mut column = Strings { all: c.strings.as_str(), at: 0 };
    let table_len = strings(table_len)?;
    let mut table = Vec::with_capacity(table_len);
    for _ in 0..table_len {
        table.push(column.next()?);
    }
    let plain = |id: u64| -> Option<String> {
        match id {
            0 => Some(String::new()),
            id => table.get(usize::try_from(id - 1).ok()?).map(|s| s.to_string()),
        }
    };
    let option = |id: u64| -> Option<Option<String>> {
        match id {
            0 => Some(None),
            id => table.get(usize::try_from(id - 1).ok()?).map(|s| Some(s.to_string())),
        }
    };
    let next_line = |prev: &mut u32, v: u64| -> Option<u32> {
        let line = u32::try_from(i64::from(*prev).checked_add(unzigzag(v))?).ok()?;
        *prev = line;
        Some(line)
    };
    let end = |line: u32, v: u64| u32::try_from(i64::from(line).checked_add(unzigzag(v))?).ok();
    let mut f = FileStructure { scope: column.next()?.to_string(), ..FileStructure::default() };
    let mut prev = 0;
    f.types.reserve(types);
    for _ in 0..types {
        let name = column.next()?.to_string();
        let (kind, parent, visibility) = (plain(num()?)?, option(num()?)?, option(num()?)?);
        let line = next_line(&mut prev, num()?)?;
        let end_line = end(line, num()?)?;
        f.types.push(TypeRecord { name, kind, line, end_line, parent, visibility, doc: String::new() });
    }
    prev = 0;
    f.methods.reserve(methods);
    for _ in 0..methods {
        let name = column.next()?.to_string();
        let (returns, parent) = (plain(num()?)?, option(num()?)?);
        let flags = num()?;
        let visibility = option(flags >> 2)?;
        let line = next_line(&mut prev, num()?)?;
        let end_line = end(line, num()?)?;
        f.methods.push(MethodRecord {
            name,
            prototype: String::new(),
            line,
            end_line,
            returns,
            visibility,
            is_static: flags & 2 != 0,
            is_async: flags & 1 != 0,
            parent,
            doc: String::new(),
        });
    }
    prev = 0;
    f.properties.reserve(properties);
    for _ in 0..properties {
        let name = column.next()?.to_string();
        let (ty, parent) = (plain(num()?)?, option(num()?)?);
        let flags = num()?;
        let visibility = option(flags >> 1)?;
        let line = next_line(&mut prev, num()?)?;
        let end_line = end(line, num()?)?;
        f.properties.push(PropertyRecord {
            name,
            declaration: String::new(),
            line,
            end_line,
            ty,
            visibility,
            is_static: flags & 1 != 0,
            parent,
        });
    }
    f.names.reserve(ref_names);
    for _ in 0..ref_names {
        f.names.push(column.next()?.to_string());
    }
    prev = 0;
    f.imports.reserve(imports);
    for _ in 0..imports {
        let spec = column.next()?.to_string();
        let line = next_line(&mut prev, num()?)?;
        let kind = u8::try_from(num()?).ok()?;
        let pairs = strings(num()?)?;
        let mut import = ImportRecord { line, spec, names: Vec::with_capacity(pairs), kind };
        for _ in 0..pairs {
            let name = column.next()?.to_string();
            let alias = column.next()?.to_string();
            import.names.push(ImportName { name, alias });
        }
        f.imports.push(import);
    }
    if n != nums.len() {
        return None;
    }
    f.refs = refs.to_vec();
    if text {
        f.header = column.next()?.to_string();
        for t in &mut f.types {
            t.doc = column.next()?.to_string();
        }
        for m in &mut f.methods {
            m.prototype = column.next()?.to_string();
            m.doc = column.next()?.to_string();
        }
        for p in &mut f.properties {
            p.declaration = column.next()?.to_string();
        }
        if column.at != column.all.len() {
            return None;
        }
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn text() -> impl Strategy<Value = String> {
        // Empty strings, NULs and multi-byte characters included.
        prop_oneof![Just(String::new()), "[a-c]{1,3}", "[é\u{0}x ]{0,4}", "[a-z_]{4,12}"]
    }

    fn option() -> impl Strategy<Value = Option<String>> {
        proptest::option::of(text())
    }

    fn line() -> impl Strategy<Value = u32> {
        prop_oneof![0u32..50, Just(u32::MAX), 1u32..=u32::MAX]
    }

    fn structure() -> impl Strategy<Value = FileStructure> {
        let types = proptest::collection::vec(
            (text(), text(), line(), line(), option(), option(), text()).prop_map(
                |(name, kind, line, end_line, parent, visibility, doc)| TypeRecord {
                    name,
                    kind,
                    line,
                    end_line,
                    parent,
                    visibility,
                    doc,
                },
            ),
            0..5,
        );
        let methods = proptest::collection::vec(
            (text(), text(), line(), line(), text(), option(), any::<(bool, bool)>(), option(), text()).prop_map(
                |(name, prototype, line, end_line, returns, visibility, (is_static, is_async), parent, doc)| {
                    MethodRecord {
                        name,
                        prototype,
                        line,
                        end_line,
                        returns,
                        visibility,
                        is_static,
                        is_async,
                        parent,
                        doc,
                    }
                },
            ),
            0..5,
        );
        let properties = proptest::collection::vec(
            (text(), text(), line(), line(), text(), option(), any::<bool>(), option()).prop_map(
                |(name, declaration, line, end_line, ty, visibility, is_static, parent)| PropertyRecord {
                    name,
                    declaration,
                    line,
                    end_line,
                    ty,
                    visibility,
                    is_static,
                    parent,
                },
            ),
            0..5,
        );
        let imports = proptest::collection::vec(
            (line(), text(), proptest::collection::vec((text(), text()), 0..12), 0u8..=255).prop_map(
                |(line, spec, names, kind)| ImportRecord {
                    line,
                    spec,
                    names: names.into_iter().map(|(name, alias)| ImportName { name, alias }).collect(),
                    kind,
                },
            ),
            0..4,
        );
        (
            text(),
            types,
            methods,
            properties,
            text(),
            // More reference names than the records' numbers take bytes.
            proptest::collection::vec(text(), 0..40),
            proptest::collection::vec(any::<u8>(), 0..20),
            imports,
        )
            .prop_map(|(header, types, methods, properties, scope, names, refs, imports)| FileStructure {
                header,
                types,
                methods,
                properties,
                scope,
                names,
                refs,
                imports,
            })
    }

    /// The prose left out, as [`decode`] without `text` leaves it.
    fn without_text(mut f: FileStructure) -> FileStructure {
        f.header.clear();
        f.types.iter_mut().for_each(|t| t.doc.clear());
        f.methods.iter_mut().for_each(|m| {
            m.prototype.clear();
            m.doc.clear();
        });
        f.properties.iter_mut().for_each(|p| p.declaration.clear());
        f
    }

    proptest! {
        /// Every field comes back as it went in (a NUL as U+FFFD), with or
        /// without the prose.
        #[test]
        fn columns_round_trip(f in structure()) {
            let bytes = encode(&f);
            prop_assert_eq!(decode(&bytes, true), Some(stored(&f)));
            prop_assert_eq!(decode(&bytes, false), Some(without_text(stored(&f))));
            // The same facts make the same bytes.
            prop_assert_eq!(encode(&f), bytes);
        }

        /// Flipped or cut bytes read as `None` or as some structure, never a
        /// panic or an allocation of a stated count.
        #[test]
        fn damaged_columns_do_not_panic(f in structure(), at in any::<usize>(), xor in 1u8..=255, cut in any::<usize>()) {
            let bytes = encode(&f);
            let mut flipped = bytes.clone();
            let i = at % flipped.len();
            flipped[i] ^= xor;
            let _ = decode(&flipped, true);
            let _ = decode(&flipped, false);
            let _ = decode(&bytes[..cut % bytes.len()], true);
        }
    }

    /// A file naming more references than its records take bytes of numbers
    /// (most of kubernetes' `main.go`s) read as corrupt when the names' count
    /// was bounded by the numbers' bytes instead of the strings'.
    #[test]
    fn many_reference_names_and_few_records_regression() {
        let f = FileStructure {
            names: (0..30).map(|i| format!("name{i}")).collect(),
            imports: vec![ImportRecord {
                line: 3,
                spec: "fmt".into(),
                names: (0..9).map(|i| ImportName { name: format!("n{i}"), alias: String::new() }).collect(),
                kind: 0,
            }],
            ..FileStructure::default()
        };
        assert_eq!(decode(&encode(&f), true), Some(f));
    }

    fn container(strings: &str, bytes: Vec<u8>) -> Vec<u8> {
        rkyv::to_bytes::<RkyvError>(&Columns { strings: strings.into(), bytes }).unwrap().to_vec()
    }

    /// A count past what the columns can hold is corrupt, not a request to
    /// allocate.
    #[test]
    fn huge_counts_are_rejected() {
        // No table, no references; the scope and the header empty.
        let mut bytes = vec![0, 0];
        put_varint(&mut bytes, u64::MAX >> 2);
        bytes.extend_from_slice(&[0; 4]);
        assert_eq!(decode(&container("\0\0", bytes), true), None);
        let mut bytes = vec![0, 0, 0, 0, 0];
        put_varint(&mut bytes, 1 << 40);
        bytes.push(0);
        assert_eq!(decode(&container("\0\0", bytes), true), None);
        assert_eq!(decode(&container("\0\0", vec![0, 0, 0, 0, 0, 0, 0]), true), Some(FileStructure::default()));
    }

    /// A string without its NUL, or a references' length past the bytes, is
    /// corrupt; a NUL within a string is kept as U+FFFD.
    #[test]
    fn strings_end_at_their_nul() {
        let empty = vec![0, 0, 0, 0, 0, 0, 0];
        assert_eq!(decode(&container("\0", empty.clone()), true), None);
        assert_eq!(decode(&container("\0", empty.clone()), false), Some(FileStructure::default()));
        assert_eq!(decode(&container("\0\0", vec![0, 9, 0, 0, 0, 0, 0]), true), None);
        let f = FileStructure { scope: "a\0é".into(), header: "\0".into(), ..FileStructure::default() };
        let back = decode(&encode(&f), true).unwrap();
        assert_eq!((back.scope.as_str(), back.header.as_str()), ("a\u{FFFD}é", "\u{FFFD}"));
    }
}

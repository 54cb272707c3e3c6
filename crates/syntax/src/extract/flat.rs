//! A parsed tree's visible nodes in preorder, listed by one C call
//! (`flat.c`): what a `TreeCursor` walk visits, each node with its kind id,
//! field id, end and the index after its subtree, without a call per step.
//!
//! The extraction walk reads this list instead of moving a cursor: the cursor
//! was the largest single cost above parsing (18% of Java's parse time).
#![allow(unsafe_code)]

use std::marker::PhantomData;

use tree_sitter::Node;

/// One visible node. The layout is `CgFlatNode` of `flat.c`.
#[repr(C)]
#[derive(Clone, Copy)]
struct Raw {
    node: tree_sitter::ffi::TSNode,
    end_byte: u32,
    end_row: u32,
    end_column: u32,
    next: u32,
    depth: u32,
    symbol: u16,
    field: u16,
    named: u8,
    missing: u8,
    /// 1: `Node::child_by_field_id` is the first child listed in the field.
    fields_listed: u8,
    reserved: u8,
    parent: u32,
}

// The C side's `CgFlatNode` is this size too (`_Static_assert` in flat.c).
const _: () = assert!(std::mem::size_of::<Raw>() == 64);

extern "C" {
    fn cg_flatten(root: tree_sitter::ffi::TSNode, out: *mut Raw, capacity: u32) -> u32;
    fn cg_flat_count(root: tree_sitter::ffi::TSNode) -> u32;
    fn cg_child_by_field_id(node: tree_sitter::ffi::TSNode, field: u16) -> *const std::ffi::c_void;
}

/// A node of a [`FlatTree`].
#[derive(Clone, Copy)]
pub(crate) struct FlatNode<'tree> {
    pub(crate) node: Node<'tree>,
    pub(crate) start_byte: u32,
    pub(crate) start_row: u32,
    pub(crate) end_byte: u32,
    pub(crate) end_row: u32,
    pub(crate) end_column: u32,
    /// The index of the first node after this one's subtree: the next
    /// sibling's, or an ancestor's next sibling's.
    pub(crate) next: u32,
    /// 0 for the root.
    pub(crate) depth: u32,
    /// `node.kind_id()`.
    pub(crate) kind: u16,
    /// The field id the node has in its parent (0: none), as a cursor's `field_id`.
    pub(crate) field: u16,
    pub(crate) missing: bool,
    /// `node.is_named()`.
    pub(crate) named: bool,
}

/// The buffer [`FlatBuf::list`] writes into: keep one for many trees.
#[derive(Default)]
pub(crate) struct FlatBuf {
    raw: Vec<Raw>,
}

/// The visible nodes of a subtree, in preorder (the order of a cursor's walk).
#[derive(Clone, Copy)]
pub(crate) struct Flat<'b, 'tree> {
    raw: &'b [Raw],
    tree: PhantomData<Node<'tree>>,
}

impl FlatBuf {
    /// Lists `root`'s subtree, `root` first.
    pub(crate) fn list<'b, 'tree>(&'b mut self, root: Node<'tree>) -> Flat<'b, 'tree> {
        let raw_root = root.into_raw();
        // SAFETY: `raw_root` is a live node of a tree that lives for `'tree`;
        // `cg_flat_count` only reads its subtree's counts.
        let mut capacity = unsafe { cg_flat_count(raw_root) } as usize + 1;
        let mut len = 0;
        loop {
            self.raw.clear();
            self.raw.reserve(capacity);
            let room = self.raw.capacity().min(u32::MAX as usize - 1) as u32;
            // SAFETY: `out` has room for `room` entries, which `cg_flatten`
            // never writes past; each entry it counts is written whole. It
            // only reads the tree, which lives for `'tree`.
            let written = unsafe { cg_flatten(raw_root, self.raw.as_mut_ptr(), room) };
            if written != u32::MAX {
                len = written as usize;
                break;
            }
            capacity = capacity.saturating_mul(2).max(64);
            if capacity >= u32::MAX as usize - 1 {
                break;
            }
        }
        // SAFETY: the first `len` entries were written by `cg_flatten` (0 when
        // it could not finish: the list is then empty).
        unsafe { self.raw.set_len(len) };
        Flat { raw: &self.raw, tree: PhantomData }
    }
}

impl<'tree> Flat<'_, 'tree> {
    pub(crate) fn len(&self) -> usize {
        self.raw.len()
    }

    /// Asks the processor to fetch the tree-sitter data of the `i`th node (if
    /// any) into the cache.
    #[inline(always)]
    pub(crate) fn prefetch(&self, i: usize) {
        #[cfg(target_arch = "x86_64")]
        if let Some(r) = self.raw.get(i) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = r.node.id as *const i8;
            // SAFETY: a prefetch never faults, whatever the address.
            unsafe {
                _mm_prefetch(p.wrapping_sub(64), _MM_HINT_T0);
                _mm_prefetch(p, _MM_HINT_T0);
                _mm_prefetch(p.wrapping_add(64), _MM_HINT_T0);
            }
        }
    }

    /// The index after the `i`th node's subtree.
    pub(crate) fn next_of(&self, i: usize) -> usize {
        self.raw[i].next as usize
    }

    /// The index of the `i`th node's parent (`Node::parent`).
    pub(crate) fn parent(&self, i: usize) -> Option<usize> {
        let p = self.raw[i].parent;
        (p != u32::MAX).then_some(p as usize)
    }

    /// The index of the `i`th node's previous named sibling
    /// (`Node::prev_named_sibling`).
    pub(crate) fn prev_named_sibling(&self, i: usize) -> Option<usize> {
        let p = self.parent(i)?;
        self.children(p).take_while(|&c| c < i).filter(|&c| self.named(c)).last()
    }

    /// The index of the `i`th node's next sibling (`Node::next_sibling`): the
    /// node after its subtree, when that has the same parent.
    pub(crate) fn next_sibling(&self, i: usize) -> Option<usize> {
        let n = self.next_of(i);
        (n < self.len() && self.raw[n].parent == self.raw[i].parent).then_some(n)
    }

    /// Whether the `i`th node is named (`Node::is_named`).
    pub(crate) fn named(&self, i: usize) -> bool {
        self.raw[i].named != 0
    }

    /// The indexes of the `i`th node's children.
    pub(crate) fn children(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let end = self.raw[i].next as usize;
        let mut c = i + 1;
        std::iter::from_fn(move || {
            let child = (c < end).then_some(c)?;
            c = self.raw[child].next as usize;
            Some(child)
        })
    }

    /// The index of `node` in the list, if it is one of its nodes: found by
    /// its start among the nodes (in preorder, starts never decrease), then
    /// by its id among those starting there. The start is searched outward
    /// from index `near` (steps of 1, 2, 4, .. then halving): the nodes a walk
    /// asks about are mostly close to the one it is at, and a search over the
    /// whole list of a large file misses the cache at every step.
    pub(crate) fn index_near(&self, node: Node<'_>, near: usize) -> Option<usize> {
        let raw = node.into_raw();
        let start = raw.context[0];
        let len = self.raw.len();
        if len == 0 {
            return None;
        }
        let before = |i: usize| self.raw[i].node.context[0] < start;
        let near = near.min(len - 1);
        // The first index whose node starts at or after `start` is in `lo..=hi`.
        let (lo, hi) = if before(near) {
            let (mut lo, mut step) = (near, 1);
            loop {
                let j = lo + step;
                if j >= len {
                    break (lo + 1, len);
                }
                if !before(j) {
                    break (lo + 1, j);
                }
                lo = j;
                step *= 2;
            }
        } else {
            let (mut hi, mut step) = (near, 1);
            loop {
                if hi == 0 {
                    break (0, 0);
                }
                let j = hi - step.min(hi);
                if before(j) {
                    break (j + 1, hi);
                }
                hi = j;
                step *= 2;
            }
        };
        let first = lo + self.raw[lo..hi].partition_point(|r| r.node.context[0] < start);
        self.among_starting_at(first, raw)
    }

    /// The index of the node `raw` among those from `first` on that start
    /// where it does.
    fn among_starting_at(&self, first: usize, raw: tree_sitter::ffi::TSNode) -> Option<usize> {
        let same = self.raw.get(first..)?.iter().take_while(|r| r.node.context[0] == raw.context[0]);
        same.into_iter().position(|r| r.node.id == raw.id).map(|p| first + p)
    }

    /// The index of the `i`th node's first child in field `field`.
    pub(crate) fn child_with_field(&self, i: usize, field: u16) -> Option<usize> {
        self.children(i).find(|&c| self.raw[c].field == field)
    }

    /// `Node::child_by_field_id` of the `i`th node. Where the node's field map
    /// agrees with the list's fields (`fields_listed`, set by `flat.c`), its
    /// first child listed in the field; else tree-sitter's search of the field
    /// maps (`cg_child_by_field_id`), its answer found among the node's
    /// children in the list. `None` when the answer is not one of them (a
    /// field map that expects a hidden child where the tree has a visible one:
    /// C++'s `(p = f(p))` answers `left` from inside the assignment); ask
    /// tree-sitter then.
    pub(crate) fn field_child(&self, i: usize, field: u16) -> Option<Option<usize>> {
        if field == 0 {
            return Some(None);
        }
        if self.raw[i].fields_listed != 0 {
            return Some(self.child_with_field(i, field));
        }
        // SAFETY: `raw[i].node` is a live node of the tree listed (see
        // `get`); `cg_child_by_field_id` only reads its subtree and language.
        let id = unsafe { cg_child_by_field_id(self.raw[i].node, field) };
        if id.is_null() {
            return Some(None);
        }
        self.children(i).find(|&c| self.raw[c].node.id == id).map(Some)
    }

    /// The index of `Node::child_by_field_id(field)` of the `i`th node:
    /// [`Flat::field_child`], else tree-sitter's own answer, found in the list.
    pub(crate) fn child_in_field(&self, i: usize, field: u16) -> Option<usize> {
        match self.field_child(i, field) {
            Some(found) => found,
            None => self.index_near(self.get(i).node.child_by_field_id(field)?, i),
        }
    }

    /// The indexes of the `i`th node's children in field `field`.
    pub(crate) fn children_with_field(&self, i: usize, field: u16) -> impl Iterator<Item = usize> + '_ {
        self.children(i).filter(move |&c| self.raw[c].field == field)
    }

    /// The `i`th node alone (`get(i).node`), copied straight from the list.
    #[inline(always)]
    pub(crate) fn node(&self, i: usize) -> Node<'tree> {
        // SAFETY: as in `get`.
        unsafe { Node::from_raw(self.raw[i].node) }
    }

    pub(crate) fn get(&self, i: usize) -> FlatNode<'tree> {
        let r = &self.raw[i];
        FlatNode {
            // SAFETY: `r.node` was made by `cg_flatten` from the tree listed,
            // which lives for `'tree`; `Node` is `TSNode`, transparent.
            node: unsafe { Node::from_raw(r.node) },
            start_byte: r.node.context[0],
            start_row: r.node.context[1],
            end_byte: r.end_byte,
            end_row: r.end_row,
            end_column: r.end_column,
            next: r.next,
            depth: r.depth,
            kind: r.symbol,
            field: r.field,
            missing: r.missing != 0,
            named: r.named != 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::lang::Language;

    /// What a `TreeCursor` walk sees, node by node: the oracle.
    /// Depth, kind, field, start, end, end point, named, missing, id.
    type Seen = (usize, u16, u16, usize, usize, (usize, usize), bool, bool, usize);

    fn cursor_walk(root: Node<'_>) -> Vec<Seen> {
        let mut out = Vec::new();
        let mut cursor = root.walk();
        let mut depth = 0;
        loop {
            let n = cursor.node();
            let field = cursor.field_id().map_or(0, |f| f.get());
            let end = n.end_position();
            out.push((
                depth,
                n.kind_id(),
                field,
                n.start_byte(),
                n.end_byte(),
                (end.row, end.column),
                n.is_named(),
                n.is_missing(),
                n.id(),
            ));
            if cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return out;
                }
                depth -= 1;
            }
        }
    }

    /// Checks the list of `src`'s tree against tree-sitter; returns how many
    /// `child_by_field_id` answers the list gave ([`Flat::field_child`]).
    fn check(language: Language, path: &str, src: &[u8]) -> usize {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language.grammar(Path::new(path))).unwrap();
        let Some(tree) = parser.parse(src, None) else { return 0 };
        let mut decided = 0;
        let want = cursor_walk(tree.root_node());
        let mut buf = FlatBuf::default();
        let flat = buf.list(tree.root_node());
        let got: Vec<_> = (0..flat.len())
            .map(|i| {
                let f = flat.get(i);
                let p = f.node.start_position();
                assert_eq!((p.row, p.column), (f.node.start_position().row, f.node.start_position().column));
                (
                    f.depth as usize,
                    f.kind,
                    f.field,
                    f.node.start_byte(),
                    f.end_byte as usize,
                    (f.end_row as usize, f.end_column as usize),
                    f.node.is_named(),
                    f.missing,
                    f.node.id(),
                )
            })
            .collect();
        assert_eq!(got.len(), want.len(), "{path}: node count");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{path}: node {i} ({})", flat.get(i).node.kind());
        }
        // Starts never decrease (`index_near` searches them), and each node is
        // found at its index.
        for i in 1..flat.len() {
            assert!(flat.get(i - 1).start_byte <= flat.get(i).start_byte, "{path}: start of {i}");
        }
        for i in 0..flat.len() {
            // From anywhere: the ends, nearby on both sides, far off.
            let len = flat.len();
            for near in [0, len - 1, len + 5, i, i.saturating_sub(1), i + 1, i.saturating_sub(7), i + 9, i / 3, i * 2] {
                assert_eq!(flat.index_near(flat.get(i).node, near), Some(i), "{path}: index of {i} near {near}");
            }
        }
        // The same nodes of another tree (same starts, other ids) are none of its.
        let other = parser.parse(src, None).unwrap();
        let mut other_buf = FlatBuf::default();
        let other_flat = other_buf.list(other.root_node());
        for i in 0..other_flat.len() {
            assert_eq!(flat.index_near(other_flat.get(i).node, i), None, "{path}: other tree's node {i}");
        }
        // The children in a field are tree-sitter's `children_by_field_id`
        // (which reads a cursor's fields; `child_by_field_id` reads field maps
        // and differs in error recovery), the named children its.
        let fields = tree.language().field_count() as u16;
        for i in 0..flat.len() {
            let n = flat.get(i).node;
            for field in 1..=fields {
                let want: Vec<usize> = match std::num::NonZeroU16::new(field) {
                    Some(f) => n.children_by_field_id(f, &mut n.walk()).map(|c| c.id()).collect(),
                    None => Vec::new(),
                };
                let got: Vec<usize> = flat.children_with_field(i, field).map(|c| flat.get(c).node.id()).collect();
                assert_eq!(got, want, "{path}: node {i} ({}) field {field} children", n.kind());
                // `child_by_field_id`, where the list answers for it.
                if let Some(got) = flat.field_child(i, field) {
                    let want = n.child_by_field_id(field).map(|c| c.id());
                    assert_eq!(
                        got.map(|c| flat.get(c).node.id()),
                        want,
                        "{path}: node {i} ({}) field {field}",
                        n.kind()
                    );
                    decided += 1;
                }
                let want = n.child_by_field_id(field).map(|c| c.id());
                let got = flat.child_in_field(i, field).map(|c| flat.get(c).node.id());
                assert_eq!(got, want, "{path}: node {i} ({}) field {field}, in the list or not", n.kind());
            }
            let want: Vec<usize> = n.named_children(&mut n.walk()).map(|c| c.id()).collect();
            let got: Vec<usize> = flat.children(i).filter(|&c| flat.named(c)).map(|c| flat.get(c).node.id()).collect();
            assert_eq!(got, want, "{path}: node {i} named children");
        }
        // Parents, previous named siblings and next siblings are tree-sitter's.
        for i in 0..flat.len() {
            let n = flat.get(i).node;
            assert_eq!(
                flat.parent(i).map(|p| flat.get(p).node.id()),
                n.parent().map(|p| p.id()),
                "{path}: parent of {i}"
            );
            let want = n.prev_named_sibling().map(|p| p.id());
            assert_eq!(flat.prev_named_sibling(i).map(|p| flat.get(p).node.id()), want, "{path}: before {i}");
            // Tree-sitter's next sibling passes over siblings that end where
            // the node ends (zero-width ones right after it: a MISSING token,
            // an `optional_chain` holding only one; `ts_node__next_sibling`
            // skips children ending at or before its end); the list does not.
            // A zero-width node further on it keeps (Go's implicit `;` at the
            // end of `=a `).
            let mut next = flat.next_sibling(i);
            let end = flat.get(i).end_byte;
            let skipped = |z: usize| flat.get(z).end_byte <= end;
            while let Some(z) = next.filter(|&z| skipped(z)) {
                next = flat.next_sibling(z);
            }
            let want = n.next_sibling().map(|p| p.id());
            assert_eq!(next.map(|p| flat.get(p).node.id()), want, "{path}: after {i}");
        }
        // `next` skips exactly the node's subtree.
        for i in 0..flat.len() {
            let n = flat.get(i);
            let next = n.next as usize;
            assert!(next > i && next <= flat.len(), "{path}: next of {i}");
            assert!((i + 1..next).all(|j| flat.get(j).depth > n.depth), "{path}: subtree of {i}");
            assert!(next == flat.len() || flat.get(next).depth <= n.depth, "{path}: after {i}");
            // The node's own accessors agree.
            assert_eq!(n.node.kind_id(), n.kind);
            assert_eq!(n.node.end_byte(), n.end_byte as usize);
            assert_eq!(n.node.is_named(), flat.raw[i].named != 0);
            assert_eq!(
                (n.start_byte as usize, n.start_row as usize),
                (n.node.start_byte(), n.node.start_position().row)
            );
        }
        decided
    }

    #[test]
    fn flat_lists_what_a_cursor_walks_on_every_fixture() {
        let (mut checked, mut decided) = (0, 0);
        for dir in ["fixtures/extract", "fixtures/graph"] {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(dir);
            let walk = crate::extract::walk(&root, &crate::extract::WalkOptions::default()).unwrap();
            for f in walk.files {
                let src = std::fs::read(&f.abs).unwrap();
                let language = f.language.refine(&f.rel, &src);
                decided += check(language, &f.rel, &src);
                checked += 1;
            }
        }
        assert!(checked > 40, "{checked} fixtures");
        assert!(decided > 100_000, "{decided} field lookups from the list");
    }

    /// Trees of more than `CG_FAR_NODES` (flat.c) nodes are listed by the
    /// loop that prefetches children ahead: the same nodes as a cursor's.
    #[test]
    fn flat_lists_what_a_cursor_walks_on_a_large_tree() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/extract");
        for (name, language) in [("rust/shapes.rs", Language::Rust), ("java/Store.java", Language::Java)] {
            let src = std::fs::read(dir.join(name)).unwrap().repeat(400);
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&language.grammar(Path::new(name))).unwrap();
            let tree = parser.parse(&src, None).unwrap();
            let mut buf = FlatBuf::default();
            let nodes = buf.list(tree.root_node()).len();
            assert!(nodes > 4 * 16_384, "{name}: {nodes} nodes");
            check(language, name, &src);
        }
    }

    #[test]
    fn flat_lists_what_a_cursor_walks_on_broken_code() {
        // Errors, missing tokens and extras (comments) between children.
        check(Language::Rust, "a.rs", b"fn f( { let x = ; /* c */ g(1,, }\nimpl");
        check(Language::Go, "a.go", b"package p\nfunc (\n// c\n) x {{{ ");
        check(Language::TypeScript, "a.tsx", b"<div a={1}>{x</div> class { @d m() }");
        check(Language::Python, "a.py", b"def f(:\n  return [x for\n");
        check(Language::Cpp, "a.cpp", b"template<class T> struct S : B<T { int x; };");
    }

    /// C++'s `(p = f(p))` is a parenthesized_expression whose field map
    /// inherits `left`, `operator` and `right` from a child it expects hidden:
    /// tree-sitter answers them from inside the (visible) assignment, which is
    /// no child of the parenthesized expression, so the list leaves them to
    /// tree-sitter; its other nodes' fields are the list's and checked.
    #[test]
    fn field_children_of_inherited_field_maps_are_tree_sitters() {
        let src = b"const char* f(const char* p) { if ((p = g(p, 1)) == nullptr) return 0; return p; }";
        assert!(check(Language::Cpp, "a.cc", src) > 0);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn flat_lists_what_a_cursor_walks_on_arbitrary_bytes(
            src in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            which in 0usize..Language::ALL.len(),
        ) {
            let language = Language::ALL[which];
            let ext = language.spec().extensions.first().copied().unwrap_or("txt");
            check(language, &format!("a.{ext}"), &src);
        }

        #[test]
        fn flat_lists_what_a_cursor_walks_on_code_like_text(
            src in "([a-z]{1,4}|[(){}\\[\\];,.:<>=+*&|\"'#/ \n]){0,80}",
            which in 0usize..Language::ALL.len(),
        ) {
            let language = Language::ALL[which];
            let ext = language.spec().extensions.first().copied().unwrap_or("txt");
            check(language, &format!("a.{ext}"), src.as_bytes());
        }
    }
}

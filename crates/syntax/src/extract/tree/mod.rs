//! One pass over a parsed tree: line types, terms and structure.
//!
//! The walk is iterative (over the tree's nodes listed in preorder, [`Flat`],
//! no recursion), so deeply nested input cannot overflow the stack. Node kinds
//! are classified once per grammar into a [`Roles`] table indexed by kind id;
//! the walk itself compares no strings.

use rustc_hash::{FxHashMap, FxHashSet};
use tree_sitter::Node;

use super::flat::{Flat, FlatNode};

// The graph facts' part of the walk: more methods of the same `Visit`.
mod graph;

use super::words::{clean_comment, for_each_word, normalize_ws, WordSource};
use super::{Diagnostic, FileFacts, LineType, MethodDef, PropertyDef, TermLines, TypeDef};
use crate::lang::dialect::AccessLabels;
use crate::lang::{Decl, LanguageSpec, VisibilityInput};

/// Longest prototype or declaration kept, in bytes.
const MAX_SIGNATURE_BYTES: usize = 1024;

// Line flags; the highest set bit decides the line's type (see `LineType`).
const F_STRING: u8 = 1;
const F_COMMENT: u8 = 2;
const F_CODE: u8 = 4;
const F_PROPERTY: u8 = 8;
const F_METHOD: u8 = 16;
const F_STRUCT: u8 = 32;

fn line_type(flags: u8) -> LineType {
    if flags & F_STRUCT != 0 {
        LineType::Struct
    } else if flags & F_METHOD != 0 {
        LineType::Method
    } else if flags & F_PROPERTY != 0 {
        LineType::Property
    } else if flags & F_CODE != 0 {
        LineType::Code
    } else if flags & F_COMMENT != 0 {
        LineType::Comment
    } else if flags & F_STRING != 0 {
        LineType::String
    } else {
        LineType::Code
    }
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Class {
    #[default]
    Plain,
    Comment,
    String,
    StringCode,
    StringSkip,
}

#[derive(Clone, Copy, Default)]
struct Role {
    named: bool,
    /// The parser's ERROR node.
    error: bool,
    class: Class,
    decl: Option<Decl>,
    modifier: bool,
    attribute: bool,
    wrapper: bool,
    preamble: bool,
    namespace: bool,
    function_value: bool,
    self_param: bool,
    /// A name that is never a keyword, whatever its text: a TS/JS property
    /// name (`map.delete(k)`, `promise.catch(f)`, a method `default()`).
    never_keyword: bool,
    graph: graph::GraphRole,
}

/// The role of every node kind of one grammar, by kind id.
pub(crate) struct Roles {
    by_kind: Vec<Role>,
    keywords: FxHashSet<&'static str>,
    /// By first byte, a bit per length (< 32) that some keyword has.
    keyword_shapes: [u32; 256],
    graph_fields: graph::GraphFields,
    /// Field ids by name: tree-sitter finds a field's id by comparing its name
    /// with every field name of the grammar (~1,000 instructions a lookup in Go).
    fields: FxHashMap<&'static str, std::num::NonZeroU16>,
    /// Field names by id (index 0: none).
    field_names: Vec<Option<&'static str>>,
    /// The role of kind ids past the table: the parser's ERROR node (`u16::MAX`).
    error_role: Role,
    /// Kind names by id: `Node::kind` asks the grammar for a C string, then
    /// measures and validates it (~5% of a build when asked per node).
    kind_names: Vec<&'static str>,
}

impl Roles {
    pub(crate) fn new(spec: &LanguageSpec, grammar: &tree_sitter::Language) -> Roles {
        let count = grammar.node_kind_count();
        let mut by_kind = vec![Role::default(); count];
        for (id, role) in by_kind.iter_mut().enumerate() {
            let id = id as u16;
            let Some(kind) = grammar.node_kind_for_id(id) else {
                continue;
            };
            if !grammar.node_kind_is_named(id) {
                continue;
            }
            role.named = true;
            let has = |list: &[&str]| list.contains(&kind);
            role.class = if has(spec.comment_kinds) {
                Class::Comment
            } else if has(spec.string_kinds) {
                Class::String
            } else if has(spec.string_code_kinds) {
                Class::StringCode
            } else if has(spec.string_skip_kinds) {
                Class::StringSkip
            } else {
                Class::Plain
            };
            role.decl = spec.decls.iter().find(|(k, _)| *k == kind).map(|(_, d)| *d);
            role.modifier = has(spec.modifier_kinds);
            role.attribute = has(spec.attribute_kinds);
            role.wrapper = has(spec.wrapper_kinds);
            role.preamble = has(spec.preamble_kinds);
            role.namespace = has(spec.namespace_kinds);
            role.function_value = has(spec.function_value_kinds);
            role.self_param = spec.self_param_kind == Some(kind);
            role.never_keyword = has(spec.property_name_kinds);
            role.graph = graph::graph_role(spec, grammar, kind);
        }
        let field_names: Vec<Option<&'static str>> =
            (0..=grammar.field_count() as u16).map(|id| grammar.field_name_for_id(id)).collect();
        Roles {
            by_kind,
            keywords: spec.keywords.iter().copied().collect(),
            keyword_shapes: {
                let mut shapes = [0u32; 256];
                for k in spec.keywords.iter().filter(|k| !k.is_empty() && k.len() < 32) {
                    shapes[k.as_bytes()[0] as usize] |= 1 << k.len();
                }
                shapes
            },
            graph_fields: graph::graph_fields(spec, grammar),
            fields: field_names
                .iter()
                .enumerate()
                .filter_map(|(id, name)| Some(((*name)?, std::num::NonZeroU16::new(id as u16)?)))
                .collect(),
            field_names,
            error_role: Role { named: true, error: true, ..Role::default() },
            kind_names: (0..count as u16).map(|id| grammar.node_kind_for_id(id).unwrap_or("")).collect(),
        }
    }

    /// `node.kind()` from the table: the same name, without the C string.
    pub(crate) fn kind(&self, node: Node<'_>) -> &'static str {
        match self.kind_names.get(node.kind_id() as usize) {
            Some(name) => name,
            None => node.kind(),
        }
    }

    /// The kind name of kind id `id` (see [`Roles::kind`]).
    pub(crate) fn kind_name(&self, id: u16) -> &'static str {
        self.kind_names.get(id as usize).copied().unwrap_or("ERROR")
    }

    /// The name of the field with id `id` (0: none).
    fn field_name(&self, id: u16) -> Option<&'static str> {
        self.field_names.get(id as usize).copied().flatten()
    }

    /// The id of the field named `name`, if the grammar has one.
    pub(crate) fn field_id(&self, name: &str) -> Option<std::num::NonZeroU16> {
        self.fields.get(name).copied()
    }

    fn is_keyword(&self, word: &str) -> bool {
        // Most words are no keyword: a keyword of this length and first byte
        // must exist before the set is asked (hashing the word).
        let (Some(&first), len) = (word.as_bytes().first(), word.len()) else { return false };
        len < 32 && self.keyword_shapes[first as usize] & (1 << len) != 0 && self.keywords.contains(word)
    }

    fn of(&self, node: Node<'_>) -> &Role {
        self.by_id(node.kind_id())
    }

    /// Kind ids past the grammar's table are the parser's ERROR node (`u16::MAX`).
    fn by_id(&self, kind: u16) -> &Role {
        self.by_kind.get(kind as usize).unwrap_or(&self.error_role)
    }
}

/// A node's children ([`Visit::kids`]).
enum Kids<'a> {
    Flat { flat: Flat<'a, 'a>, next: usize, end: usize, named: bool },
    Tree(std::vec::IntoIter<Node<'a>>),
}

impl<'a> Iterator for Kids<'a> {
    type Item = Node<'a>;

    fn next(&mut self) -> Option<Node<'a>> {
        match self {
            Kids::Flat { flat, next, end, named } => loop {
                let c = *next;
                if c >= *end {
                    return None;
                }
                *next = flat.next_of(c);
                if !*named || flat.named(c) {
                    return Some(flat.get(c).node);
                }
            },
            Kids::Tree(all) => all.next(),
        }
    }
}

/// A class body's node id and its access labels (start byte, word).
type BodyLabels<'a> = (usize, Vec<(usize, &'a str)>);

/// What a C declarator declares (see [`Visit::declarator_name`]).
struct Declared<'a> {
    name: Node<'a>,
    /// `Store` of `Store::add`.
    owner: Option<&'a str>,
    function: bool,
}

struct Scope {
    depth: usize,
    name: String,
    kind: &'static str,
}

/// The state of one file's walk.
pub(crate) struct Visit<'a> {
    src: &'a str,
    spec: &'static LanguageSpec,
    roles: &'a Roles,
    flags: Vec<u8>,
    words: Vec<(&'a str, u32)>,
    types: Vec<TypeDef>,
    methods: Vec<MethodDef>,
    properties: Vec<PropertyDef>,
    scopes: Vec<Scope>,
    /// Depths of the string nodes whose code children are being walked.
    strings: Vec<usize>,
    first_error_row: Option<u32>,
    graph: graph::GraphState<'a>,
    /// Whether the walk finds graph facts ([`super::Extractor::set_graph_facts`]).
    pub(crate) graph_facts: bool,
    /// Whether anonymous tokens are taken in one step ([`Visit::token`]);
    /// tests compare the facts without it.
    pub(crate) token_steps: bool,
    /// The declared type of the properties being pushed.
    property_type: Option<String>,
    /// The access labels of the last class body asked about (its node id, then
    /// each label's start byte and word).
    labels: std::cell::RefCell<Option<BodyLabels<'a>>>,
    /// By depth: the comments and attributes right before the path's node at
    /// that depth (its earlier siblings since the last other one), in source
    /// order; a node joins its depth's run when the walk leaves it. So a
    /// declaration's doc comment takes no walk back through its siblings
    /// (`Node::prev_sibling` starts over from the parent's first child).
    runs: Vec<Vec<Node<'a>>>,
    /// The tree's nodes in preorder, once the walk has begun.
    flat: Option<Flat<'a, 'a>>,
}

/// Number of lines of `src`: a final line without `\n` counts, an empty file has none.
pub(crate) fn count_lines(src: &str) -> usize {
    let newlines = newline_count(src.as_bytes());
    if src.is_empty() || src.ends_with('\n') {
        newlines
    } else {
        newlines + 1
    }
}

/// The line feeds in `bytes`: counted in blocks of 255 into a byte, which the
/// compiler turns into vector compares (a count per byte into a `usize` did not
/// vectorize well: ~3 instructions a byte).
fn newline_count(bytes: &[u8]) -> usize {
    bytes.chunks(255).map(|block| block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n')) as usize).sum()
}

/// Statements around a module-level variable declaration ([`Decl::Global`]).
const GLOBAL_WRAPPERS: [&str; 7] = [
    "lexical_declaration",
    "variable_declaration",
    "export_statement",
    "ambient_declaration",
    "var_declaration",
    "var_spec_list",
    "const_declaration",
];

impl<'a> Visit<'a> {
    pub(crate) fn new(src: &'a str, spec: &'static LanguageSpec, roles: &'a Roles) -> Visit<'a> {
        Visit {
            src,
            spec,
            roles,
            flags: vec![0; count_lines(src)],
            words: Vec::with_capacity(src.len() / 8),
            types: Vec::new(),
            methods: Vec::new(),
            properties: Vec::new(),
            scopes: Vec::new(),
            strings: Vec::new(),
            first_error_row: None,
            graph: graph::GraphState::default(),
            graph_facts: true,
            token_steps: true,
            property_type: None,
            labels: Default::default(),
            runs: vec![Vec::new()],
            flat: None,
        }
    }

    /// Walks the whole tree, listed in preorder ([`Flat`]): visits each node,
    /// then its children unless the visit says not to, and leaves each node
    /// after its children.
    pub(crate) fn walk(&mut self, flat: Flat<'a, 'a>) {
        // How far ahead of the walk the nodes' tree-sitter data is fetched
        // into the cache: a large file's tree does not fit in it, and the
        // walk's questions to tree-sitter (fields, kinds, ends) missed it.
        const PREFETCH_AHEAD: usize = 8;
        self.flat = Some(flat);
        let mut i = 0;
        // The path's nodes not left yet (those at depths below this).
        let mut open = 0usize;
        while i < flat.len() {
            flat.prefetch(i + PREFETCH_AHEAD);
            let n = flat.get(i);
            let depth = n.depth as usize;
            while open > depth {
                open -= 1;
                self.leave(open);
            }
            let role = self.roles.by_id(n.kind);
            if !role.named && n.next as usize == i + 1 && self.token_steps && self.token(&n) {
                // What visiting it and leaving it came to was done: it also
                // ends its depth's run of comments. (The scopes, strings and
                // graph frames it would close are closed by the next node,
                // which is no deeper.)
                self.graph.path.truncate(depth);
                if let Some(run) = self.runs.get_mut(depth) {
                    run.clear();
                }
                i += 1;
                continue;
            }
            self.graph.path.truncate(depth);
            let context = match role.graph.context {
                true => depth as u32,
                false => depth.checked_sub(1).map_or(u32::MAX, |d| self.graph.path[d].4),
            };
            // The node from the list, not from `n` (a copy on the stack, just
            // written in parts: reading it whole waited on those writes).
            self.graph.path.push((flat.node(i), n.field, n.kind, i as u32, context));
            open = depth + 1;
            if self.visit(n.node, role, depth) {
                if n.next as usize > i + 1 {
                    // Its children follow it.
                    if self.runs.len() == depth + 1 {
                        self.runs.push(Vec::new());
                    }
                    self.runs[depth + 1].clear();
                    i += 1;
                    continue;
                }
                self.leaf(&n, role);
            }
            i = n.next as usize;
        }
        while open > 0 {
            open -= 1;
            self.leave(open);
        }
    }

    /// An anonymous token (`;`, `(`, `return`), taken as the walk would take
    /// it through `visit` and `leaf` (it is no word, no declaration, no graph
    /// fact; a letter or digit in it marks its lines as code), when that is
    /// all there is to it. Not when the parser made it up (those mark the
    /// first error), a narrowing is pending (one starts at a node), or inside
    /// a string's code parts (a string's own tokens mark nothing).
    #[inline]
    fn token(&mut self, n: &FlatNode<'a>) -> bool {
        if n.missing || !self.graph.narrowed.is_empty() {
            return false;
        }
        let text = self.src.as_bytes().get(n.start_byte as usize..n.end_byte as usize).unwrap_or(&[]);
        if text.iter().all(|b| !b.is_ascii_alphanumeric()) {
            return true;
        }
        if !self.strings.is_empty() {
            return false;
        }
        self.mark(Self::listed_rows(n), F_CODE);
        true
    }

    /// The walk is done with the path's node at `depth` (and its children): a
    /// comment or attribute extends its depth's run, anything else ends it.
    fn leave(&mut self, depth: usize) {
        let role = self.roles.by_id(self.graph.path[depth].2);
        let run = &mut self.runs[depth];
        if role.class == Class::Comment || role.attribute {
            run.push(self.graph.path[depth].0);
        } else {
            run.clear();
        }
    }

    /// A C++ export macro blanked out before parsing (`class API Name`): a
    /// word of code on its line, and a reference to the macro.
    pub(crate) fn macro_word(&mut self, range: std::ops::Range<usize>, row: u32) {
        let Some(text) = self.src.get(range) else { return };
        self.mark((row, row), F_CODE);
        let words = &mut self.words;
        for_each_word(text, row, WordSource::Code, |w, row| words.push((w, row)));
        self.macro_reference(row + 1, text);
    }

    /// Lexical fallback when there is no tree: every word is a code term.
    pub(crate) fn words_only(&mut self) {
        let src = self.src;
        let roles = self.roles;
        let words = &mut self.words;
        for_each_word(src, 0, WordSource::Code, |w, row| {
            if !roles.is_keyword(w) {
                words.push((w, row));
            }
        });
    }

    /// Visits one node; returns whether to walk its children (a node without
    /// children is then a leaf).
    fn visit(&mut self, node: Node<'a>, role: &Role, depth: usize) -> bool {
        while self.scopes.last().is_some_and(|s| s.depth >= depth) {
            self.scopes.pop();
        }
        while self.strings.last().is_some_and(|&d| d >= depth) {
            self.strings.pop();
        }
        if self.strings.last().is_some_and(|&d| d + 1 == depth) {
            // A direct child of a string: only its code parts are walked (the
            // string's words were taken when the string was visited).
            return role.class == Class::StringCode;
        }
        if role.error && self.first_error_row.is_none() {
            self.first_error_row = Some(node.start_position().row as u32);
        }
        match role.class {
            Class::Comment => {
                self.comment(node);
                return false;
            }
            Class::String if self.spec.docstrings && self.is_docstring(depth) => {
                self.comment(node);
                return false;
            }
            Class::String => {
                let has_code = self.string(node);
                if has_code {
                    self.strings.push(depth);
                }
                return has_code;
            }
            _ => {}
        }
        if let Some(decl) = role.decl {
            self.declaration(node, decl, depth);
        }
        self.graph_visit(node, role, depth);
        if role.graph.mod_item && self.graph_facts {
            self.module_item(node);
        }
        true
    }

    /// `node.child_by_field_name(field)`, with the field's id looked up in a
    /// table, from the walk's node list ([`Flat::child_in_field`]): tree-sitter
    /// iterates the node's children, positions and all, per ask.
    fn child(&self, node: Node<'a>, field: &str) -> Option<Node<'a>> {
        self.child_id(node, self.roles.field_id(field)?.get())
    }

    /// `node.child_by_field_id(id)`, from the walk's node list when the node
    /// is in it (see [`Visit::child`]).
    fn child_id(&self, node: Node<'a>, id: u16) -> Option<Node<'a>> {
        if id == 0 {
            // No field (a role without one): tree-sitter answers none too.
            return None;
        }
        match self.listed(node) {
            Some((flat, i)) => flat.child_in_field(i, id).map(|c| flat.get(c).node),
            None => node.child_by_field_id(id),
        }
    }

    /// `node.children_by_field_name(field)`, with the field's id looked up in
    /// a table, and the children from the walk's node list when the node is
    /// in it (a cursor costs an allocation and a call per step).
    fn children(&self, node: Node<'a>, field: &str) -> Vec<Node<'a>> {
        let Some(id) = self.roles.field_id(field) else { return Vec::new() };
        if let Some((flat, i)) = self.listed(node) {
            return flat.children_with_field(i, id.get()).map(|c| flat.get(c).node).collect();
        }
        node.children_by_field_id(id, &mut node.walk()).collect()
    }

    /// The walk's node list and `node`'s index in it, once the walk has begun.
    fn listed(&self, node: Node<'a>) -> Option<(Flat<'a, 'a>, usize)> {
        let flat = self.flat?;
        // Most nodes asked about are the walk's own: at the path's end.
        if let Some(d) = self.path_depth(node) {
            return Some((flat, self.graph.path[d].3 as usize));
        }
        // The others mostly near it.
        let near = self.graph.path.last().map_or(0, |p| p.3 as usize);
        Some((flat, flat.index_near(node, near)?))
    }

    /// `node.children(..)` (or `named_children`), from the walk's node list
    /// when the node is in it.
    fn kids(&self, node: Node<'a>, named: bool) -> Kids<'a> {
        if let Some((flat, i)) = self.listed(node) {
            return Kids::Flat { flat, next: i + 1, end: flat.next_of(i), named };
        }
        let all: Vec<Node<'a>> = match named {
            true => node.named_children(&mut node.walk()).collect(),
            false => node.children(&mut node.walk()).collect(),
        };
        Kids::Tree(all.into_iter())
    }

    /// The node's kind name (see [`Roles::kind`]).
    fn kind(&self, node: &Node<'_>) -> &'static str {
        self.roles.kind(*node)
    }

    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.get(node.byte_range()).unwrap_or("")
    }

    /// The rows a node covers; a node ending at column 0 ends on the row before.
    fn rows(node: Node<'_>) -> (u32, u32) {
        let start = node.start_position().row;
        let end = node.end_position();
        let end_row = if end.column == 0 && end.row > start { end.row - 1 } else { end.row };
        (start as u32, end_row as u32)
    }

    /// [`Visit::rows`] of a node of the walk's list, from its entry.
    fn listed_rows(n: &FlatNode<'_>) -> (u32, u32) {
        let end_row = if n.end_column == 0 && n.end_row > n.start_row { n.end_row - 1 } else { n.end_row };
        (n.start_row, end_row)
    }

    fn mark(&mut self, (start, end): (u32, u32), flag: u8) {
        let end = (end as usize).min(self.flags.len().saturating_sub(1));
        for f in self.flags.iter_mut().take(end + 1).skip(start as usize) {
            *f |= flag;
        }
    }

    fn mark_row(&mut self, row: usize, flag: u8) {
        if let Some(f) = self.flags.get_mut(row) {
            *f |= flag;
        }
    }

    /// A token outside comments and strings. Identifier words are terms unless they
    /// are keywords; a raw identifier (`r#match`) is a term even when its word is a
    /// keyword. Punctuation alone does not make a line `code`, so `"text",` is a
    /// string line and `} // done` a comment line.
    fn leaf(&mut self, leaf: &FlatNode<'a>, role: &Role) {
        let node = leaf.node;
        if leaf.missing {
            // A token the parser made up to recover from an error: no text.
            if self.first_error_row.is_none() {
                self.first_error_row = Some(leaf.start_row);
            }
            return;
        }
        let text = self.src.get(leaf.start_byte as usize..leaf.end_byte as usize).unwrap_or("");
        if role.named || text.bytes().any(|b| b.is_ascii_alphanumeric()) {
            self.mark(Self::listed_rows(leaf), F_CODE);
        }
        if !role.named {
            return;
        }
        let (text, raw) = match text.strip_prefix("r#") {
            Some(rest) => (rest, true),
            None => (text, role.never_keyword),
        };
        let roles = self.roles;
        let words = &mut self.words;
        for_each_word(text, leaf.start_row, WordSource::Code, |w, row| {
            if raw || !roles.is_keyword(w) {
                words.push((w, row));
            }
        });
        if role.graph.name && self.graph_facts && (raw || !self.roles.is_keyword(text)) {
            self.reference(node, text);
        }
    }

    fn comment(&mut self, node: Node<'a>) {
        self.mark(Self::rows(node), F_COMMENT);
        let words = &mut self.words;
        for_each_word(
            self.src.get(node.byte_range()).unwrap_or(""),
            node.start_position().row as u32,
            WordSource::Prose,
            |w, row| words.push((w, row)),
        );
    }

    /// Takes the words of a string literal, leaving out its delimiters, escape
    /// sequences and code parts. Returns whether it has code parts to walk.
    fn string(&mut self, node: Node<'a>) -> bool {
        self.mark(Self::rows(node), F_STRING);
        let src = self.src;
        let mut pos = node.start_byte();
        let mut row = node.start_position().row as u32;
        let mut has_code = false;
        let mut segments: Vec<(usize, usize, u32)> = Vec::new();
        let mut split = |role: &Role, start: usize, end: usize, end_row: u32| {
            if !role.named || role.class == Class::StringSkip || role.class == Class::StringCode {
                segments.push((pos, start, row));
                pos = end;
                row = end_row;
                has_code |= role.class == Class::StringCode;
            }
        };
        match self.listed(node) {
            Some((flat, i)) => {
                for c in flat.children(i) {
                    let c = flat.get(c);
                    split(self.roles.by_id(c.kind), c.start_byte as usize, c.end_byte as usize, c.end_row);
                }
            }
            None => {
                for c in node.children(&mut node.walk()) {
                    split(self.roles.of(c), c.start_byte(), c.end_byte(), c.end_position().row as u32);
                }
            }
        }
        segments.push((pos, node.end_byte(), row));
        for (start, end, row) in segments {
            let text = src.get(start..end).unwrap_or("");
            let words = &mut self.words;
            for_each_word(text, row, WordSource::Prose, |w, r| words.push((w, r)));
        }
        has_code
    }

    fn declaration(&mut self, node: Node<'a>, decl: Decl, depth: usize) {
        match decl {
            Decl::Type(kind) => self.type_decl(node, kind, depth),
            Decl::Scope(field) => {
                if let Some(t) = self.child(node, field) {
                    let name = self.type_name(t).to_string();
                    let kind = if self.child(node, "trait").is_some() { "impl trait" } else { "impl" };
                    self.scopes.push(Scope { depth, name, kind });
                }
            }
            Decl::Method => match self.export_macro_class(node) {
                // `class LEVELDB_EXPORT Slice { .. }`: tree-sitter-cpp reads a
                // function `Slice` returning `class LEVELDB_EXPORT`.
                Some((kind, name)) => self.type_named(node, name, kind, depth),
                None => {
                    if let Some(owner) = self.method(node, node, None) {
                        // `int Store::add(..) { .. }`: its body is in `Store`.
                        self.scopes.push(Scope { depth, name: owner, kind: "class" });
                    }
                }
            },
            Decl::Assignment => self.assigned_method(node),
            Decl::Property if self.unscoped_enumerator(node) => {
                // C's and C++'s `enum Color { RED }`: `RED` is declared where
                // the enum is (a plain name there), not in the enum.
                let enumeration = self.scopes.pop();
                self.property(node);
                self.scopes.extend(enumeration);
            }
            Decl::Property => self.property(node),
            Decl::Variable => self.variable(node, depth),
            Decl::Specifier(kind) => {
                if self.child(node, "body").is_some() {
                    self.type_decl(node, kind, depth);
                }
            }
            Decl::Namespace => {
                // `namespace ts.codefix`: `codefix`.
                let mut name = self.child(node, "name");
                while let Some(n) = name.filter(|n| self.kind(n) == "nested_identifier") {
                    name = self.child(n, "property").or_else(|| n.named_child(n.named_child_count().saturating_sub(1)));
                }
                let declared = !self.spec.dialect.inline_modules || self.child(node, "body").is_some();
                if let Some(name) =
                    name.filter(|n| declared && matches!(self.kind(n), "identifier" | "property_identifier"))
                {
                    self.namespace(node, name);
                }
            }
            Decl::Declarator => self.declarators(node, depth),
            Decl::Accessors => self.accessors(node),
            Decl::Members => {
                let names: Vec<Node<'a>> = self.children(node, "name");
                for name in names {
                    let text = self.text(name);
                    let end = Self::rows(name).1;
                    self.push_property(name, text, text, &[], false, end);
                }
            }
            Decl::Global => self.global(node, depth),
            Decl::Binding { value_is_property } => {
                let Some(value) = self.child(node, "value") else {
                    if value_is_property {
                        self.property(node);
                    }
                    return;
                };
                if self.roles.of(value).function_value {
                    self.method(node, value, Some(value));
                } else if value_is_property {
                    self.property(node);
                }
            }
        }
    }

    /// A variable declaration ([`Decl::Global`]): a method when its value is a
    /// function, properties at module level, nothing inside functions.
    fn global(&mut self, node: Node<'a>, depth: usize) {
        // Go's `var f = func() {}`: the value is a list of one.
        let value = self.child(node, "value").map(|v| {
            if self.kind(&v) == "expression_list" && v.named_child_count() == 1 {
                v.named_child(0).unwrap_or(v)
            } else {
                v
            }
        });
        if let Some(v) = value.filter(|v| self.roles.of(*v).function_value) {
            self.method(node, v, Some(v));
            return;
        }
        if self.in_function(depth) || self.current_scope().is_some() || !self.at_module_level() {
            return;
        }
        // CommonJS's `const fs = require("fs")` imports a module.
        if value.is_some_and(|v| self.is_require(v)) {
            return;
        }
        // `export const { a, b: c } = point()` declares `a` and `c`.
        let mut names: Vec<Node<'a>> = Vec::new();
        for n in self.children(node, "name") {
            self.pattern_name_nodes(n, &mut names);
        }
        names.retain(|n| self.text(*n) != "_");
        if names.is_empty() {
            return;
        }
        let end = self.child(node, "value").map_or(node.end_byte(), |v| v.start_byte());
        let declaration = match self.kind(&node) {
            // Go: each spec with its keyword, in a group too (`var (` ..
            // `First = 1`: `var First`; `const Beta` after `Alpha = iota`).
            kind @ ("var_spec" | "const_spec") => {
                format!("{} {}", kind.trim_end_matches("_spec"), self.signature_text(node.start_byte(), end))
            }
            _ => {
                // `export const LIMIT: number`: from the statement's start
                // when the declaration is its first.
                let mut start = node.start_byte();
                let path = &self.graph.path;
                for (up, ..) in path[..path.len().saturating_sub(1)].iter().rev() {
                    if !GLOBAL_WRAPPERS.contains(&self.kind(up))
                        || up.named_child(0).map(|c| c.start_byte()) != Some(start)
                    {
                        break;
                    }
                    start = up.start_byte();
                }
                self.signature_text(start, end)
            }
        };
        let modifiers = self.modifiers(node, names.first().copied());
        self.property_type = self.binding_type(node).filter(|t| graph::plain_name(t) || t.contains('|'));
        let end = Self::rows(node).1;
        for name in names {
            let text = self.text(name);
            self.push_property(name, text, &declaration, &modifiers, false, end);
        }
    }

    /// CommonJS's `require(..)`: a module, not a value.
    fn is_require(&self, value: Node<'a>) -> bool {
        self.kind(&value) == "call_expression"
            && self.child(value, "function").is_some_and(|f| self.text(f) == "require")
    }

    /// Whether the declaration being visited is a statement of the file or of a
    /// TS namespace's body ([`Decl::Global`]), not of a block or a loop.
    fn at_module_level(&self) -> bool {
        let path = &self.graph.path;
        let mut up = path[..path.len().saturating_sub(1)].iter().rev().map(|(n, ..)| self.kind(n));
        let mut k = up.next();
        while k.is_some_and(|k| GLOBAL_WRAPPERS.contains(&k)) {
            k = up.next();
        }
        match k {
            Some("program" | "source_file") => true,
            Some("statement_block") => matches!(up.next(), Some("internal_module" | "module")),
            _ => false,
        }
    }

    /// TS/JS: whether the declaration being visited stands in a namespace's
    /// body without `export` (`namespace ts.codefix { interface Info {} }`):
    /// local to that body, as is a `declare const x` there. An ambient
    /// namespace's (`declare namespace`) declarations are all exported.
    fn ts_namespace_local(&self) -> bool {
        if !graph::js_like(self.spec) {
            return false;
        }
        let path = &self.graph.path;
        let mut up = path[..path.len().saturating_sub(1)].iter().rev().map(|(n, ..)| self.kind(n));
        let mut k = up.next();
        while matches!(k, Some("lexical_declaration" | "variable_declaration" | "ambient_declaration")) {
            k = up.next();
        }
        k == Some("statement_block")
            && matches!(up.next(), Some("internal_module" | "module"))
            && !up.any(|k| k == "ambient_declaration")
    }

    /// A C or C++ enumerator of an enum that is not an `enum class` (or `enum
    /// struct`), whose scope is the enum's own (or, for `typedef enum { .. }
    /// t`, the typedef's).
    fn unscoped_enumerator(&self, node: Node<'a>) -> bool {
        if !self.spec.rules.enumerators_beside || self.kind(&node) != "enumerator" {
            return false;
        }
        let Some(enumeration) = self.parent_of(node).and_then(|list| self.parent_of(list)) else { return false };
        let scoped = self.kids(enumeration, false).any(|c| matches!(c.kind(), "class" | "struct"));
        self.kind(&enumeration) == "enum_specifier"
            && !scoped
            && self.current_scope().is_some_and(|s| matches!(s.kind, "enum" | "typedef"))
    }

    fn current_scope(&self) -> Option<&Scope> {
        self.scopes.last()
    }

    /// A C++ class declared with an export macro (`class API Name { .. }`), which
    /// the grammar reads as a function definition: its kind and its name.
    fn export_macro_class(&self, node: Node<'a>) -> Option<(&'static str, Node<'a>)> {
        if !self.spec.dialect.export_macro_classes || self.kind(&node) != "function_definition" {
            return None;
        }
        let ty = self.child(node, "type")?;
        let kind = match self.kind(&ty) {
            "class_specifier" => "class",
            "struct_specifier" => "struct",
            "union_specifier" => "union",
            _ => return None,
        };
        let declarator = self.child(node, "declarator")?;
        let is_macro = self.child(ty, "name").is_some_and(|m| {
            let t = self.text(m);
            t.len() > 1 && t.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        });
        (is_macro && self.child(ty, "body").is_none() && self.kind(&declarator) == "identifier")
            .then_some((kind, declarator))
    }

    fn type_decl(&mut self, node: Node<'a>, kind: &'static str, depth: usize) {
        let name_node =
            self.child(node, "name").or_else(|| self.declarator_name(self.child(node, "declarator")?).map(|d| d.name));
        let Some(name_node) = name_node else {
            return;
        };
        self.type_named(node, name_node, kind, depth);
    }

    fn type_named(&mut self, node: Node<'a>, name_node: Node<'a>, kind: &'static str, depth: usize) {
        let name = self.text(name_node).to_string();
        let kind = self
            .child(node, "type")
            .and_then(|t| self.spec.type_kind_by_value.iter().find(|(k, _)| *k == self.kind(&t)))
            .map_or(kind, |(_, refined)| *refined);
        let modifiers = self.modifiers(node, Some(name_node));
        let parent = self.current_scope();
        let visibility = (self.spec.visibility)(&VisibilityInput {
            modifiers: &modifiers,
            name: &name,
            parent_kind: parent.map(|s| s.kind),
            is_type: true,
            namespace_local: self.ts_namespace_local(),
        });
        let def = TypeDef {
            name: name.clone(),
            kind,
            line: name_node.start_position().row as u32 + 1,
            end_line: Self::rows(node).1 + 1,
            parent: parent.map(|s| s.name.clone()),
            visibility,
            doc: self.doc_comment(node),
        };
        self.mark_row(name_node.start_position().row, F_STRUCT);
        self.graph.def_names.insert(name_node.start_byte());
        self.types.push(def);
        // `typedef struct s { .. } t;`: the members are the struct's. Only an
        // anonymous struct's members belong to the typedef.
        let named_type = (kind == "typedef")
            .then(|| self.child(node, "declarator"))
            .flatten()
            .and(self.child(node, "type"))
            .and_then(|t| self.child(t, "name"));
        match named_type {
            // The typedef stands for the struct: a supertype, so the struct's
            // fields are found through the typedef (`store_t *s; s->total`).
            Some(t) => self.alias_of(&name, t),
            None => self.scopes.push(Scope { depth, name, kind }),
        }
    }

    /// A namespace: a type that is no scope of what its body declares (a TS
    /// `namespace`, a Rust inline `mod`, whose kind is `mod`).
    fn namespace(&mut self, node: Node<'a>, name_node: Node<'a>) {
        let name = self.text(name_node).to_string();
        let rust = self.spec.dialect.inline_modules;
        let modifiers = if rust { self.modifiers(node, Some(name_node)) } else { Vec::new() };
        let visibility = (self.spec.visibility)(&VisibilityInput {
            modifiers: &modifiers,
            name: &name,
            parent_kind: None,
            is_type: true,
            namespace_local: self.ts_namespace_local(),
        });
        self.mark_row(name_node.start_position().row, F_STRUCT);
        self.graph.def_names.insert(name_node.start_byte());
        self.types.push(TypeDef {
            name,
            kind: if rust { "mod" } else { "namespace" },
            line: name_node.start_position().row as u32 + 1,
            end_line: Self::rows(node).1 + 1,
            parent: None,
            visibility,
            doc: self.doc_comment(node),
        });
    }

    /// A method. `node` is the declaration; `func` holds its parameters and body (the
    /// same node, or the function value of a binding). Returns the type that
    /// qualifies its name, when it does (C++'s `Store::add`).
    fn method(&mut self, node: Node<'a>, func: Node<'a>, value: Option<Node<'a>>) -> Option<String> {
        let mut name_node = self.child(node, "name").or_else(|| self.child(node, "key"));
        let mut owner = None;
        if name_node.is_none() {
            if let Some(d) = self.child(node, "declarator").and_then(|d| self.declarator_name(d)) {
                name_node = Some(d.name);
                owner = d.owner.map(str::to_string);
            }
        }
        let forced = owner.clone().map(Some);
        self.method_named(node, func, value, name_node, forced);
        owner
    }

    /// A function assigned to a member (`Foo.prototype.bar = function () {}`,
    /// `exports.f = () => 1`, `obj.f = function () {}`): a method named by the
    /// member, whose parent is the object (`Foo` for its prototype; none for
    /// `exports`, `module.exports` and `this`).
    fn assigned_method(&mut self, node: Node<'a>) {
        let (Some(left), Some(right)) = (self.child(node, "left"), self.child(node, "right")) else {
            return;
        };
        if self.kind(&left) != "member_expression" {
            return;
        }
        let Some(property) = self.child(left, "property") else { return };
        let object = self.child(left, "object").map(|o| self.text(o)).unwrap_or("");
        if !self.roles.of(right).function_value {
            self.exported_value(node, left, property, right, object);
            return;
        }
        let object = object.strip_suffix(".prototype").unwrap_or(object);
        let parent = match object {
            "" | "exports" | "module.exports" | "this" => None,
            o => Some(normalize_ws(o, 200)),
        };
        self.method_named(node, right, Some(right), Some(property), Some(parent));
    }

    /// CommonJS's `exports.MAX = 10` (or `module.exports.MAX`) as a statement
    /// of the file: a property `MAX`, as `export const MAX = 10` is. Not
    /// `exports.f = f` (the file's own `f` is exported, not declared again),
    /// nor `exports.x = require("./x")` (a module passed on).
    fn exported_value(&mut self, node: Node<'a>, left: Node<'a>, property: Node<'a>, right: Node<'a>, object: &str) {
        if !matches!(object, "exports" | "module.exports") {
            return;
        }
        let path = &self.graph.path;
        let mut up = path[..path.len().saturating_sub(1)].iter().rev().map(|(n, ..)| self.kind(n));
        if up.next() != Some("expression_statement") || up.next() != Some("program") {
            return;
        }
        if self.roles.of(right).graph.name {
            // `exports.Logger = WebpackLogger`: a class exported under another
            // name is a type of that name, made of the class (a JSDoc
            // `{Logger}` in another file is the class's).
            let (alias, class) = (self.text(property), self.text(right));
            let own_class = self.types.iter().any(|t| t.name == class && t.kind == "class");
            if alias != class && own_class && graph::plain_name(alias) {
                let line = property.start_position().row as u32 + 1;
                self.graph.def_names.insert(property.start_byte());
                self.export_alias(line, alias, class);
                self.types.push(TypeDef {
                    name: alias.to_string(),
                    kind: "type",
                    line,
                    end_line: Self::rows(node).1 + 1,
                    parent: None,
                    visibility: None,
                    doc: self.doc_comment(node),
                });
            }
            return;
        }
        if self.is_require(right) {
            return;
        }
        let declaration = self.signature_text(left.start_byte(), left.end_byte());
        self.property_type = self.constructed_type(right).filter(|t| graph::plain_name(t));
        let end = Self::rows(node).1;
        let text = self.text(property);
        self.push_property(property, text, &declaration, &[], false, end);
    }

    /// A method named by `name_node`; `parent`, when given, overrides the parent the
    /// scope or receiver would give.
    fn method_named(
        &mut self,
        node: Node<'a>,
        func: Node<'a>,
        value: Option<Node<'a>>,
        name_node: Option<Node<'a>>,
        forced_parent: Option<Option<String>>,
    ) {
        let name = match name_node {
            Some(n) => trim_quotes(self.text(n)).to_string(),
            None => match self.unnamed_method_name(node) {
                Some(n) => n,
                None => return,
            },
        };
        let start = self.signature_start(node);
        let end = match self.child(func, "body") {
            Some(body) => body.start_byte(),
            None => self.bodyless_end(node, name_node),
        };
        let prototype = self.signature_text(start, end);
        let mut modifiers = self.modifiers(node, name_node);
        if let Some(v) = value {
            modifiers.extend(self.modifiers(v, None));
        }
        let receiver = self
            .spec
            .receiver_field
            .and_then(|f| self.child(node, f))
            .and_then(|r| r.named_child(0))
            .and_then(|p| self.child(p, "type"))
            .map(|t| self.type_name(t).to_string());
        let scope = self.current_scope();
        let in_type = scope.is_some() && receiver.is_none();
        let parent_kind = scope.map(|s| s.kind);
        let parent = match forced_parent {
            Some(p) => p,
            None => receiver.or_else(|| scope.map(|s| s.name.clone())),
        };
        let is_static = modifiers.contains(&"static")
            || (in_type && self.spec.self_param_kind.is_some() && !self.has_self_param(func));
        let visibility = (self.spec.visibility)(&VisibilityInput {
            modifiers: &modifiers,
            name: &name,
            parent_kind,
            is_type: false,
            namespace_local: self.ts_namespace_local(),
        });
        let returns = ["result", "return_type", "returns", "type"]
            .iter()
            .find_map(|f| self.child(func, f).or_else(|| self.child(node, f)))
            .and_then(|t| match self.spec.rules.is_own_type(self.text(t)) {
                // PHP's fluent `function where(..): static` (or `self`), Rust's
                // `fn new() -> Self`: the class, the type of the `impl`.
                true => parent.clone(),
                false => self.result_type(t),
            })
            .or_else(|| {
                // PHP: `@return \App\HasOne` (`$this` / `static`: the class).
                let doc = self.php_docblock(node)?;
                graph::php_doc_class(graph::php_doc_tag(doc, "@return", None)?, parent.as_deref())
            })
            .or_else(|| {
                // JavaScript: JSDoc's `@returns {Chunk}`.
                let doc = self.js_docblock(node)?;
                graph::js_doc_class(graph::js_doc_tag(doc, &["returns", "return"], None)?)
            });
        if let Some(n) = name_node.filter(|_| parent.is_none()) {
            self.ts_generic_result(func, n);
            self.ts_callback_params(func, n);
        }
        let row = name_node.map_or_else(|| node.start_position().row, |n| n.start_position().row);
        if let Some(n) = name_node {
            self.graph.def_names.insert(n.start_byte());
            // `~Store`: the type's name inside the destructor's.
            if let Some(inner) = n.named_child(0) {
                self.graph.def_names.insert(inner.start_byte());
            }
        }
        self.mark_row(row, F_METHOD);
        self.methods.push(MethodDef {
            name,
            prototype,
            line: row as u32 + 1,
            end_line: Self::rows(node).1 + 1,
            returns,
            visibility,
            is_static,
            is_async: modifiers.contains(&"async"),
            parent,
            doc: cut_doc(self.doc_comment(node)),
        });
    }

    /// Operators, conversions and indexers have no `name` field.
    fn unnamed_method_name(&self, node: Node<'a>) -> Option<String> {
        if let Some(op) = self.child(node, "operator") {
            return Some(format!("operator {}", self.text(op)));
        }
        self.child(node, "type").map(|t| format!("operator {}", normalize_ws(self.text(t), 200)))
    }

    /// Where the signature of a declaration without a body ends: before a `{` that
    /// follows its name (`macro_rules! m { .. }`), else at its end.
    fn bodyless_end(&self, node: Node<'a>, name: Option<Node<'a>>) -> usize {
        if let Some(value) = self.child(node, "value") {
            return value.start_byte();
        }
        if let Some(name) = name {
            let mut next = self.next_sibling_of(name);
            while let Some(n) = next {
                if !n.is_named() && self.text(n) == "{" {
                    return n.start_byte();
                }
                next = self.next_sibling_of(n);
            }
        }
        node.end_byte()
    }

    fn has_self_param(&self, func: Node<'a>) -> bool {
        let Some(params) = self.child(func, "parameters") else {
            return false;
        };
        let found = self.kids(params, true).any(|p| self.roles.of(p).self_param);
        found
    }

    fn property(&mut self, node: Node<'a>) {
        self.property_type = None;
        let mut names: Vec<Node<'a>> = self.children(node, "name").into_iter().filter(|n| n.is_named()).collect();
        if names.is_empty() {
            for child in self.kids(node, true) {
                if self.kind(&child) == "variable_declaration" {
                    // C#: `int a, b;` declares its names in a variable_declaration.
                    for d in self.kids(child, true) {
                        names.extend(self.child(d, "name"));
                    }
                } else if matches!(self.kind(&child), "variable_declarator" | "property_element" | "const_element") {
                    // Java's `int a = 1, b;`, PHP's `public $a, $b;` and `const A = 1;`.
                    names.extend(self.declared_leaf(child));
                }
            }
        }
        let start = self.signature_start(node);
        let end = ["value", "accessors", "body", "default_value"]
            .iter()
            .filter_map(|f| self.child(node, f))
            .map(|n| n.start_byte())
            .min()
            .unwrap_or(node.end_byte());
        let declaration = self.signature_text(start, end);
        let modifiers = self.modifiers(node, names.first().copied());
        let is_static = modifiers.contains(&"static") || modifiers.contains(&"const");
        let end = Self::rows(node).1;
        if names.is_empty() {
            if self.kind(&node).contains("indexer") {
                let row = node.start_position().row;
                self.push_property_at(row, "this", &declaration, &modifiers, is_static, end);
            }
            return;
        }
        self.property_type = self.record_field_type(node, &names);
        for name in names {
            let name = self.declared_leaf(name).unwrap_or(name);
            let text = trim_quotes(self.text(name));
            self.push_property(name, text, &declaration, &modifiers, is_static, end);
        }
    }

    /// The name leaf a declared node stands for: itself when it is a name, else
    /// its `name` field or its first name child, one level down (`$a` of PHP's
    /// `property_element` is `variable_name` → `name`).
    fn declared_leaf(&self, node: Node<'a>) -> Option<Node<'a>> {
        let mut node = node;
        for _ in 0..3 {
            if self.roles.of(node).graph.name {
                return Some(node);
            }
            let next = self.child(node, "name").or_else(|| {
                let first = self.kids(node, true).find(|n| self.roles.of(*n).graph.name);
                first
            })?;
            node = next;
        }
        None
    }

    /// Whether a node at `depth` is inside a function (its locals are not the
    /// file's declarations).
    fn in_function(&self, depth: usize) -> bool {
        self.graph.path[..depth.min(self.graph.path.len())]
            .iter()
            .any(|(n, ..)| self.roles.of(*n).graph.is_function() && self.export_macro_class(*n).is_none())
    }

    /// Whether the string at `depth` is a statement of its own (a docstring).
    fn is_docstring(&self, depth: usize) -> bool {
        let Some((parent, ..)) = depth.checked_sub(1).and_then(|i| self.graph.path.get(i)) else {
            return false;
        };
        self.kind(parent) == "expression_statement" && parent.named_child_count() == 1
    }

    /// An assignment where a language has no declarations ([`Decl::Variable`]).
    fn variable(&mut self, node: Node<'a>, depth: usize) {
        let Some(left) = self.child(node, "left") else { return };
        let in_function = self.in_function(depth);
        if in_function && self.kind(&left) == "instance_variable" {
            // Ruby's `@store = Store.new` types `@store` for receivers.
            let ty = self.child(node, "right").and_then(|r| self.instantiated_class(r));
            if let (Some(t), Some(owner)) = (ty, self.current_scope()) {
                self.graph.fields.insert((owner.name.clone(), self.text(left).to_string()), t.to_string());
            }
            return;
        }
        let name = if !in_function && self.roles.of(left).graph.name {
            left
        } else if in_function && self.roles.of(left).graph.member.1 != 0 {
            // `self.name = ..` in a method: a property of the method's class.
            let (obj, member) = self.roles.of(left).graph.member;
            let (Some(o), Some(m)) = (self.child_id(left, obj), self.child_id(left, member)) else { return };
            if self.text(o) != "self" || self.current_scope().is_none() {
                return;
            }
            let owner = self.current_scope().map(|s| s.name.clone()).unwrap_or_default();
            let text = self.text(m);
            if self.properties.iter().any(|p| p.name == text && p.parent.as_deref() == Some(owner.as_str())) {
                // Declared already (at class level or by an earlier method):
                // a write, a reference of that property.
                return;
            }
            m
        } else {
            return;
        };
        let text = self.text(name);
        if self.roles.is_keyword(text) && !self.roles.of(name).never_keyword {
            return;
        }
        let start = self.signature_start(node);
        let end = self.child(node, "right").map_or(node.end_byte(), |r| r.start_byte());
        let declaration = self.signature_text(start, end);
        self.property_type = self
            .child(node, "type")
            .map(|t| self.type_name(t))
            .or_else(|| self.child(node, "right").and_then(|r| self.instantiated_class(r)))
            .filter(|t| graph::plain_name(t) && !self.roles.is_keyword(t))
            .map(str::to_string);
        if let (Some(t), Some(owner)) = (&self.property_type, self.current_scope()) {
            self.graph.fields.insert((owner.name.clone(), text.to_string()), t.clone());
        }
        let row = name.start_position().row as u32;
        let end = Self::rows(node).1.max(row);
        let is_static = !in_function && self.current_scope().is_some();
        self.push_property(name, text, &declaration, &[], is_static, end);
    }

    /// `Store` of a value `Store()` (Python: calling a capitalized name makes an
    /// instance) or `Store.new` (Ruby).
    pub(super) fn instantiated_class(&self, value: Node<'a>) -> Option<&'a str> {
        let role = self.roles.of(value).graph;
        if role.call_field == 0 {
            return None;
        }
        let callee = self.child_id(value, role.call_field)?;
        let (obj, member) = role.member;
        let class = if member != 0 && member == role.call_field {
            // Ruby's `call`: receiver and method on the call itself.
            let receiver = self.child_id(value, obj)?;
            // `Shop::Store.new`: the last name.
            (self.text(callee) == "new").then(|| self.type_name(receiver))?
        } else if self.spec.dialect.type_calls_construct && self.roles.of(callee).graph.name {
            self.text(callee)
        } else {
            return None;
        };
        class.chars().next().is_some_and(char::is_uppercase).then_some(class)
    }

    /// C / C++ declarations: prototypes are methods, the rest properties; locals
    /// inside functions are left out ([`Decl::Declarator`]).
    fn declarators(&mut self, node: Node<'a>, depth: usize) {
        if self.in_function(depth) {
            return;
        }
        let declarators: Vec<Node<'a>> = self.children(node, "declarator");
        let mut fields = Vec::new();
        for d in declarators {
            let Some(found) = self.declarator_name(d) else { continue };
            if found.function {
                let forced = found.owner.map(|o| Some(o.to_string()));
                self.method_named(node, node, None, Some(found.name), forced);
            } else {
                fields.push(found.name);
            }
        }
        if fields.is_empty() {
            return;
        }
        self.property_type = None;
        let start = self.signature_start(node);
        let declaration = self.signature_text(start, node.end_byte());
        let modifiers = self.modifiers(node, fields.first().copied());
        let is_static = modifiers.contains(&"static") && self.current_scope().is_some();
        let end = Self::rows(node).1;
        self.property_type = self.record_field_type(node, &fields);
        for name in fields {
            let text = self.text(name);
            self.push_property(name, text, &declaration, &modifiers, is_static, end);
        }
    }

    /// Ruby's `attr_reader :a, :b` (and `attr_writer`, `attr_accessor`).
    fn accessors(&mut self, node: Node<'a>) {
        // By field id: every Ruby call comes here.
        let g = self.roles.of(node).graph;
        let Some(method) = self.child_id(node, g.call_field) else { return };
        if self.child_id(node, g.member.0).is_some()
            || !matches!(self.text(method), "attr_reader" | "attr_writer" | "attr_accessor")
        {
            return;
        }
        let Some(args) = self.child(node, "arguments") else { return };
        let declaration = self.signature_text(node.start_byte(), node.end_byte());
        let end = Self::rows(node).1;
        self.property_type = None;
        let symbols: Vec<Node<'a>> = self.kids(args, true).collect();
        for sym in symbols {
            let name = self.text(sym).trim_start_matches(':');
            let name = trim_quotes(name);
            if self.kind(&sym) != "simple_symbol" || name.is_empty() {
                continue;
            }
            self.push_property_at(sym.start_position().row, name, &declaration, &[], false, end);
        }
    }

    /// What a C declarator declares: the name at the end of its chain (`*p`,
    /// `(*f)(int)`, `a[3]`, `x = 1`, `Store::add`), the type qualifying it, and
    /// whether it is a function (not a pointer to one).
    fn declarator_name(&self, node: Node<'a>) -> Option<Declared<'a>> {
        let mut cur = node;
        let mut function = false;
        let mut call = None;
        for _ in 0..16 {
            match self.kind(&cur) {
                "function_declarator" => {
                    function = true;
                    call = Some(cur);
                }
                "pointer_declarator" | "parenthesized_declarator" if function => function = false,
                _ => {}
            }
            if let Some(d) = self.child(cur, "declarator") {
                cur = d;
                continue;
            }
            if self.kind(&cur).ends_with("declarator") {
                let inner = self.kids(cur, true).find(|n| {
                    !matches!(self.kind(n), "type_qualifier" | "attribute_specifier" | "ms_pointer_modifier")
                });
                cur = inner?;
                continue;
            }
            break;
        }
        if self.kind(&cur) == "qualified_identifier" {
            let mut scope = self.child(cur, "scope");
            let mut name = self.child(cur, "name")?;
            while self.kind(&name) == "qualified_identifier" {
                scope = self.child(name, "scope");
                name = self.child(name, "name")?;
            }
            let owner = scope.map(|s| self.type_name(s)).filter(|s| !s.is_empty());
            return Some(Declared { name, owner, function });
        }
        if let Some(test) = call.filter(|_| function).and_then(|c| self.fixture_test(c, cur)) {
            return Some(test);
        }
        let named = self.roles.of(cur).graph.name || matches!(self.kind(&cur), "destructor_name" | "operator_name");
        named.then_some(Declared { name: cur, owner: None, function })
    }

    /// C++: a GoogleTest test of a fixture, `TEST_F(LogTest, BadRecord) {
    /// .. }`, is a method `BadRecord` of (a subclass of) `LogTest`, whose
    /// members its body calls bare; `macro` is the declarator's name.
    fn fixture_test(&self, declarator: Node<'a>, macro_name: Node<'a>) -> Option<Declared<'a>> {
        if !self.spec.dialect.test_fixture_macros.contains(&self.text(macro_name)) {
            return None;
        }
        let params = self.child(declarator, "parameters")?;
        let mut c = params.walk();
        let names: Vec<Node<'a>> = params
            .named_children(&mut c)
            .map(|p| self.child(p, "type").filter(|t| self.kind(t) == "type_identifier" && p.named_child_count() == 1))
            .collect::<Option<_>>()?;
        match names[..] {
            [fixture, test] => Some(Declared { name: test, owner: Some(self.text(fixture)), function: true }),
            _ => None,
        }
    }

    fn push_property(
        &mut self,
        name: Node<'a>,
        text: &str,
        declaration: &str,
        modifiers: &[&str],
        is_static: bool,
        end: u32,
    ) {
        self.graph.def_names.insert(name.start_byte());
        self.push_property_at(name.start_position().row, text, declaration, modifiers, is_static, end);
    }

    fn push_property_at(
        &mut self,
        row: usize,
        name: &str,
        declaration: &str,
        modifiers: &[&str],
        is_static: bool,
        end: u32,
    ) {
        let scope = self.current_scope();
        let visibility = (self.spec.visibility)(&VisibilityInput {
            modifiers,
            name,
            parent_kind: scope.map(|s| s.kind),
            is_type: false,
            namespace_local: self.ts_namespace_local(),
        });
        let parent = scope.map(|s| s.name.clone());
        self.mark_row(row, F_PROPERTY);
        self.properties.push(PropertyDef {
            name: name.to_string(),
            declaration: normalize_ws(declaration, MAX_SIGNATURE_BYTES),
            line: row as u32 + 1,
            end_line: end.max(row as u32) + 1,
            ty: self.property_type.clone(),
            visibility,
            is_static,
            parent,
        });
    }

    /// Modifier words of a declaration: the text of its modifier nodes and its
    /// anonymous word tokens (`static`, `async`), up to its name.
    fn modifiers(&self, node: Node<'a>, stop: Option<Node<'a>>) -> Vec<&'a str> {
        let mut out = Vec::new();
        out.extend(self.access_label(node));
        let stop = stop.map(|s| s.start_byte());
        // A child by its range, kind and whether it is named; false at the stop.
        let mut take = |start: usize, end: usize, kind: u16, named: bool| {
            if stop.is_some_and(|s| start >= s) {
                return false;
            }
            let text = self.src.get(start..end).unwrap_or("");
            if self.roles.by_id(kind).modifier {
                out.extend(text.split_whitespace());
            } else if !named && text.bytes().all(|b| b.is_ascii_alphabetic()) {
                out.push(text);
            }
            true
        };
        match self.listed(node) {
            // From the node list's entries when the node is listed (no call
            // into tree-sitter per question).
            Some((flat, i)) => {
                for c in flat.children(i) {
                    let n = flat.get(c);
                    if !take(n.start_byte as usize, n.end_byte as usize, n.kind, n.named) {
                        break;
                    }
                }
            }
            None => {
                for c in self.kids(node, false) {
                    if !take(c.start_byte(), c.end_byte(), c.kind_id(), c.is_named()) {
                        break;
                    }
                }
            }
        }
        out
    }

    /// The access a label earlier in the same class body gives a member: C++'s
    /// `public:`, Ruby's bare `private` / `protected` / `public`. The labels of a
    /// body are listed once (one pass over its children) and kept for its next
    /// member: walking back sibling by sibling is quadratic in tree-sitter.
    fn access_label(&self, node: Node<'a>) -> Option<&'a str> {
        if self.spec.dialect.access_labels == AccessLabels::None {
            return None;
        }
        let parent = self.parent_of(node)?;
        if self.kind(&parent) == "labeled_statement" {
            // `public: void f();` in a class the grammar read as a function.
            let label = self.child(parent, "label").map_or("", |l| self.text(l));
            return matches!(label, "public" | "protected" | "private").then_some(label);
        }
        // `compound_statement`: the body of a class declared with an export
        // macro, where `public:` reads as a label.
        if !matches!(self.kind(&parent), "field_declaration_list" | "body_statement" | "compound_statement") {
            return None;
        }
        let mut cache = self.labels.borrow_mut();
        if cache.as_ref().is_none_or(|(id, _)| *id != parent.id()) {
            let mut labels = Vec::new();
            for p in self.kids(parent, true) {
                let text = match self.kind(&p) {
                    "access_specifier" => self.text(p),
                    "identifier" if self.spec.dialect.access_labels == AccessLabels::Calls => self.text(p),
                    "labeled_statement" => self.child(p, "label").map_or("", |l| self.text(l)),
                    _ => continue,
                };
                let text = text.trim_end_matches(':').trim();
                if matches!(text, "public" | "protected" | "private") {
                    labels.push((p.start_byte(), text));
                }
            }
            *cache = Some((parent.id(), labels));
        }
        let labels = &cache.as_ref()?.1;
        let before = labels.partition_point(|(at, _)| *at < node.start_byte());
        before.checked_sub(1).map(|i| labels[i].1)
    }

    /// The first byte of a declaration's signature: after its attributes, decorators
    /// and leading comments.
    fn signature_start(&self, node: Node<'a>) -> usize {
        for child in self.kids(node, false) {
            let role = self.roles.of(child);
            if !role.attribute && role.class != Class::Comment {
                return child.start_byte();
            }
        }
        node.start_byte()
    }

    fn signature_text(&self, start: usize, end: usize) -> String {
        signature(self.src.get(start..end.max(start)).unwrap_or(""))
    }

    /// The plain name of a declared result type: Go's first result of a list
    /// (`(x *T, err error)` → `T`), else [`Visit::type_name`].
    fn result_type(&self, t: Node<'a>) -> Option<String> {
        if self.spec.dialect.annotation_types {
            return Some(self.declared_name(t).to_string()).filter(|n| !n.is_empty());
        }
        if graph::js_like(self.spec) && self.kind(&t) == "type_predicate_annotation" {
            // `(v: Node): v is Store`: a type guard, marked as one.
            let ty = self.child(t.named_child(0)?, "type")?;
            let name = self.type_name(ty);
            let plain = graph::plain_name(name) && !self.roles.is_keyword(name);
            return plain.then(|| format!("{}{name}", crate::extract::GUARD_OR));
        }
        let t = if self.kind(&t) == "parameter_list" {
            let first = t.named_child(0)?;
            self.child(first, "type").unwrap_or(first)
        } else {
            t
        };
        let name = self.type_name(t);
        let plain = graph::plain_name(name);
        (plain && !self.roles.is_keyword(name)).then(|| name.to_string())
    }

    /// The class a declared type names: [`Visit::type_name`], except that a
    /// Python annotation is read as [`python_annotation_type`] (`Optional[Store]`
    /// is a `Store`); empty when it names none.
    pub(super) fn declared_name(&self, t: Node<'a>) -> &'a str {
        if self.spec.dialect.annotation_types {
            python_annotation_type(self.text(t)).filter(|n| !self.roles.is_keyword(n)).unwrap_or("")
        } else {
            self.type_name(t)
        }
    }

    /// The plain name of a type expression: `Foo` for `&mut Foo<T>`, `pkg::Foo`,
    /// `*Foo`; TS's `Readonly<Foo>`, `Partial<Foo>`, `Required<Foo>`,
    /// `NonNullable<Foo>` (Foo's members, changed) and `ReadonlyArray<Foo>`.
    fn type_name(&self, mut node: Node<'a>) -> &'a str {
        let ts = graph::js_like(self.spec);
        for _ in 0..8 {
            if node.named_child_count() == 0 {
                break;
            }
            if ts && self.kind(&node) == "generic_type" {
                let wrapper = self
                    .child(node, "name")
                    .is_some_and(|n| graph::TS_SAME_MEMBERS.contains(&self.text(n)) || graph::ts_array(self.text(n)));
                if let Some(inner) = wrapper.then(|| self.child(node, "type_arguments")?.named_child(0)).flatten() {
                    node = inner;
                    continue;
                }
            }
            // A qualified type without a `name` field (Java's `Map.Entry`,
            // `java.util.List`; PHP's `\App\Models\User`) is its last part.
            let qualified = matches!(self.kind(&node), "scoped_type_identifier" | "qualified_name");
            let next = self
                .child(node, "name")
                .or_else(|| self.child(node, "type"))
                .or_else(|| qualified.then(|| node.named_child(node.named_child_count() - 1)).flatten())
                .or_else(|| node.named_child(0));
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        self.text(node)
    }

    /// The comments right before a type (skipping attributes), or before the node
    /// that wraps it (`export`, Go's `type (...)`).
    fn doc_comment(&self, node: Node<'a>) -> String {
        let mut comments = self.preceding_comments(node);
        if comments.is_empty() {
            if let Some(parent) = self.parent_of(node).filter(|p| self.roles.of(*p).wrapper) {
                comments = self.preceding_comments(parent);
            }
        }
        comments.reverse();
        if comments.is_empty() && self.spec.docstrings {
            // Python: the docstring opening the body.
            let first = self.child(node, "body").and_then(|b| b.named_child(0));
            if let Some(s) = first.and_then(|f| self.docstring(f)) {
                return self.clean_block(&[s]);
            }
        }
        self.clean_block(&comments)
    }

    /// The string of a statement that is only a string (a docstring).
    fn docstring(&self, statement: Node<'a>) -> Option<Node<'a>> {
        if self.kind(&statement) != "expression_statement" || statement.named_child_count() != 1 {
            return None;
        }
        statement.named_child(0).filter(|s| self.roles.of(*s).class == Class::String)
    }

    /// The depth of `node` when it is the node being visited or its parent.
    fn path_depth(&self, node: Node<'a>) -> Option<usize> {
        let path = &self.graph.path;
        (path.len().saturating_sub(2)..path.len()).rev().find(|&d| path[d].0 == node)
    }

    /// `node.parent()`, from the walk's path when `node` is on its end, else its node list
    /// (`Node::parent` descends from the root).
    fn parent_of(&self, node: Node<'a>) -> Option<Node<'a>> {
        if let Some(d) = self.path_depth(node) {
            return d.checked_sub(1).map(|p| self.graph.path[p].0);
        }
        // Tree-sitter finds a parent by walking down from the root.
        match self.listed(node) {
            Some((flat, i)) => flat.parent(i).map(|p| flat.get(p).node),
            None => node.parent(),
        }
    }

    /// `node.next_sibling()`, from the walk's node list when the node is in it
    /// (tree-sitter walks down from the root to its parent).
    fn next_sibling_of(&self, node: Node<'a>) -> Option<Node<'a>> {
        match self.listed(node) {
            Some((flat, i)) => flat.next_sibling(i).map(|n| flat.get(n).node),
            None => node.next_sibling(),
        }
    }

    /// `node.prev_named_sibling()`, from the walk's node list when the node
    /// is in it (tree-sitter walks down from the root to its parent).
    fn prev_named_of(&self, node: Node<'a>) -> Option<Node<'a>> {
        match self.listed(node) {
            Some((flat, i)) => flat.prev_named_sibling(i).map(|p| flat.get(p).node),
            None => node.prev_named_sibling(),
        }
    }

    fn preceding_comments(&self, node: Node<'a>) -> Vec<Node<'a>> {
        let mut out = Vec::new();
        let mut next_row = node.start_position().row as u32;
        if let Some(d) = self.path_depth(node) {
            for &p in self.runs[d].iter().rev() {
                if self.roles.of(p).attribute {
                    next_row = p.start_position().row as u32;
                } else if Self::rows(p).1 + 1 >= next_row {
                    next_row = p.start_position().row as u32;
                    out.push(p);
                } else {
                    break;
                }
            }
            return out;
        }
        let mut prev = node.prev_sibling();
        while let Some(p) = prev {
            let role = self.roles.of(p);
            if role.attribute {
                next_row = p.start_position().row as u32;
            } else if role.class == Class::Comment && Self::rows(p).1 + 1 >= next_row {
                next_row = p.start_position().row as u32;
                out.push(p);
            } else {
                break;
            }
            prev = p.prev_sibling();
        }
        out
    }

    /// The comments before the first code, in blocks; blocks that are a license or
    /// copyright notice are left out.
    pub(crate) fn header(&self, root: Node<'a>) -> String {
        let mut blocks: Vec<Vec<Node<'a>>> = Vec::new();
        self.header_blocks(root, &mut blocks, 0);
        let mut out: Vec<String> = Vec::new();
        for block in blocks {
            let text = self.clean_block(&block);
            let lower = text.to_ascii_lowercase();
            if lower.contains("copyright") || lower.contains("license") || text.trim().is_empty() {
                continue;
            }
            out.push(text);
        }
        out.join("\n\n")
    }

    /// The text of adjacent comments, markers removed.
    fn clean_block(&self, comments: &[Node<'a>]) -> String {
        let raw: Vec<&str> = comments.iter().map(|c| self.text(*c).trim_end()).collect();
        clean_comment(&raw.join("\n"))
    }

    /// Returns false once real code was reached. When that code is a declaration, a
    /// block that touches it is its doc comment, not the file's header: dropped.
    fn header_blocks(&self, parent: Node<'a>, blocks: &mut Vec<Vec<Node<'a>>>, level: usize) -> bool {
        let mut last_comment_end: Option<u32> = None;
        for child in self.kids(parent, false) {
            if !child.is_named() {
                continue;
            }
            let role = self.roles.of(child);
            let docstring = if self.spec.docstrings { self.docstring(child) } else { None };
            if let Some(doc) = docstring {
                // A module's docstring is its header.
                blocks.push(vec![doc]);
                return false;
            }
            let magic = role.class == Class::Comment && {
                // `# frozen_string_literal: true`, `# -*- coding: utf-8 -*-`
                let t = self.text(child);
                t.starts_with('#')
                    && (t.contains("frozen_string_literal") || t.contains("coding:") || t.contains("coding="))
            };
            let require = self.kind(&child) == "call"
                && self.child(child, "method").is_some_and(|m| {
                    matches!(self.text(m), "require" | "require_relative") && self.child(child, "receiver").is_none()
                });
            if magic || require {
                last_comment_end = None;
                continue;
            }
            if role.class == Class::Comment && self.text(child).starts_with("#!") {
                last_comment_end = None;
            } else if role.class == Class::Comment {
                let (start, end) = Self::rows(child);
                match (last_comment_end, blocks.last_mut()) {
                    (Some(e), Some(block)) if e + 1 >= start => block.push(child),
                    _ => blocks.push(vec![child]),
                }
                last_comment_end = Some(end);
            } else if role.preamble {
                last_comment_end = None;
            } else if role.namespace && level < 4 {
                let Some(body) = self.child(child, "body") else {
                    return false;
                };
                return self.header_blocks(body, blocks, level + 1);
            } else {
                let declares = role.decl.is_some() || role.wrapper || role.attribute;
                if declares && last_comment_end.is_some_and(|e| e + 1 >= child.start_position().row as u32) {
                    blocks.pop();
                }
                return false;
            }
        }
        true
    }

    /// Turns the walk's results into facts.
    pub(crate) fn finish(mut self, facts: &mut FileFacts, parse_failed: bool) {
        // Group by hashing, then sort only the distinct terms: far fewer string
        // comparisons than sorting every occurrence. Each term's rows are
        // gathered side by side (a counting sort, in source order), so its
        // lines take one allocation of their final size instead of a vector
        // grown row by row.
        let words = &self.words;
        let mut index: FxHashMap<&str, u32> = FxHashMap::with_capacity_and_hasher(words.len() / 4, Default::default());
        let mut terms: Vec<&str> = Vec::new();
        // Per term: how many rows, then where its rows end in `rows`.
        let mut ends: Vec<u32> = Vec::new();
        let mut ids: Vec<u32> = Vec::with_capacity(words.len());
        for &(word, _) in words {
            let id = *index.entry(word).or_insert_with(|| {
                terms.push(word);
                ends.push(0);
                terms.len() as u32 - 1
            });
            ends[id as usize] += 1;
            ids.push(id);
        }
        let mut next = 0;
        for end in &mut ends {
            let count = *end;
            *end = next;
            next += count;
        }
        // `ends[i]` is term `i`'s start; each row placed moves it one on, to
        // its end.
        let mut rows = vec![0u32; words.len()];
        for (&id, &(_, row)) in ids.iter().zip(words) {
            let slot = &mut ends[id as usize];
            rows[*slot as usize] = row + 1;
            *slot += 1;
        }
        // Sorted by their first 8 bytes as a number (zero-padded: the same
        // order as the text's), the rest compared only between equal ones.
        let mut order: Vec<(u64, u32)> =
            terms.iter().enumerate().map(|(i, term)| (sort_prefix(term), i as u32)).collect();
        order.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| terms[a.1 as usize].cmp(terms[b.1 as usize])));
        facts.terms = order
            .iter()
            .map(|&(_, i)| {
                let end = ends[i as usize] as usize;
                let start = if i == 0 { 0 } else { ends[i as usize - 1] as usize };
                let mut lines = rows[start..end].to_vec();
                // Rows arrive in source order, except around code inside strings.
                if !lines.is_sorted() {
                    lines.sort_unstable();
                }
                lines.dedup();
                TermLines { term: terms[i as usize].to_string(), lines }
            })
            .collect();
        facts.line_types = self.flags.iter().map(|&f| line_type(f)).collect();
        facts.types = std::mem::take(&mut self.types);
        facts.methods = std::mem::take(&mut self.methods);
        facts.properties = std::mem::take(&mut self.properties);
        let namespaces: Vec<&str> =
            facts.types.iter().filter(|t| t.kind == "namespace").map(|t| t.name.as_str()).collect();
        let (scope, refs, imports) = self.finish_graph(&namespaces);
        facts.scope = scope;
        facts.refs = refs;
        facts.imports = imports;
        if parse_failed {
            facts.diagnostics.push(Diagnostic::ParseFailed);
        } else if let Some(row) = self.first_error_row {
            facts.diagnostics.push(Diagnostic::SyntaxErrors { first_line: row + 1 });
        }
    }
}

/// The first 8 bytes of `term` as a big-endian number, zero-padded: for two
/// terms that differ there, ordered as the terms are.
fn sort_prefix(term: &str) -> u64 {
    let mut first = [0u8; 8];
    let n = term.len().min(8);
    first[..n].copy_from_slice(&term.as_bytes()[..n]);
    u64::from_be_bytes(first)
}

fn trim_quotes(s: &str) -> &str {
    s.trim_matches(|c| c == '"' || c == '\'' || c == '`')
}

/// A method's doc comment cut to [`super::MAX_METHOD_DOC`] bytes, at a word.
fn cut_doc(doc: String) -> String {
    if doc.len() <= super::MAX_METHOD_DOC {
        return doc;
    }
    let mut end = super::MAX_METHOD_DOC;
    while !doc.is_char_boundary(end) {
        end -= 1;
    }
    let end = doc[..end].rfind(char::is_whitespace).filter(|&i| i > 0).unwrap_or(end);
    doc[..end].to_string()
}

/// The class a Python annotation names: `Store`, `"Store"` (a forward
/// reference), `Optional[Store]`, `typing.Optional[Store]`, `Store | None`,
/// `models.Store`; `None` for anything else (`List[Store]`, `Dict[str, int]`).
fn python_annotation_type(text: &str) -> Option<&str> {
    fn unquote(t: &str) -> &str {
        let t = t.trim();
        let t = t.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(t);
        t.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')).unwrap_or(t).trim()
    }
    let mut t = unquote(text);
    for optional in ["typing.Optional[", "Optional["] {
        if let Some(inner) = t.strip_prefix(optional).and_then(|x| x.strip_suffix(']')) {
            t = unquote(inner);
            break;
        }
    }
    if t.contains('|') {
        let mut parts = t.split('|').map(str::trim).filter(|p| *p != "None");
        t = parts.next()?;
        if parts.next().is_some() {
            return None;
        }
    }
    let name = t.rsplit('.').next()?;
    let plain = graph::plain_name(name);
    (plain && !name.starts_with(|c: char| c.is_ascii_digit()) && name != "None").then_some(name)
}

/// A declaration's text as a signature: whitespace runs made one space, no
/// space just inside parentheses (`( a )` → `(a)`), and no trailing `;` `,`
/// `{` `=` `:`. Cut at [`MAX_SIGNATURE_BYTES`] with `…`
/// ([`normalize_ws`]). One pass over the text's runs of non-space bytes; a
/// text longer than the cut takes [`signature_slow`], the same steps one
/// after the other (and the oracle of the tests).
fn signature(text: &str) -> String {
    /// Writes a run of non-space text, after one space if whitespace came
    /// before it (none just inside parentheses: the spaces are single, so
    /// each is dropped or kept by its neighbours alone).
    fn flush(out: &mut String, part: &str, space: &mut bool) {
        if part.is_empty() {
            return;
        }
        if *space && !out.is_empty() && !out.ends_with('(') && !part.starts_with(')') {
            out.push(' ');
        }
        out.push_str(part);
        *space = false;
    }
    if text.len() > MAX_SIGNATURE_BYTES {
        return signature_slow(text);
    }
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    // Whitespace seen since the last run was written.
    let mut space = false;
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let width = match b {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C => 1,
            0..=0x7F => {
                i += 1;
                continue;
            }
            _ => match text[i..].chars().next() {
                Some(c) if c.is_whitespace() => c.len_utf8(),
                Some(c) => {
                    i += c.len_utf8();
                    continue;
                }
                None => break,
            },
        };
        flush(&mut out, &text[run..i], &mut space);
        space = true;
        i += width;
        run = i;
    }
    flush(&mut out, &text[run..], &mut space);
    let kept = out.trim_end_matches([';', ',', '{', '=', ' ', ':']).len();
    out.truncate(kept);
    out
}

/// [`signature`] step by step: [`normalize_ws`], then each space next to a
/// parenthesis dropped, then the trailing punctuation.
fn signature_slow(text: &str) -> String {
    let text = normalize_ws(text, MAX_SIGNATURE_BYTES);
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        if c == ' ' && ((i > 0 && bytes[i - 1] == b'(') || bytes.get(i + 1) == Some(&b')')) {
            continue;
        }
        out.push(c);
    }
    let kept = out.trim_end_matches([';', ',', '{', '=', ' ', ':']).len();
    out.truncate(kept);
    out
}

#[cfg(test)]
mod python_annotation_tests {
    use super::python_annotation_type as ty;

    #[test]
    fn python_annotations_name_their_class() {
        for (text, want) in [
            ("Store", Some("Store")),
            ("\"Store\"", Some("Store")),
            ("Optional[Store]", Some("Store")),
            ("typing.Optional[Store]", Some("Store")),
            ("Optional['Store']", Some("Store")),
            ("Store | None", Some("Store")),
            ("None | models.Store", Some("Store")),
            ("models.Store", Some("Store")),
            ("List[Store]", None),
            ("Dict[str, int]", None),
            ("Store | Invoice", None),
            ("None", None),
        ] {
            assert_eq!(ty(text), want, "{text}");
        }
    }
}

#[cfg(test)]
mod roles_tests {
    use super::Roles;
    use crate::lang::Language;

    /// `is_keyword` asks the set only for words whose first byte and length
    /// some keyword has: every keyword is one, and other words of a keyword's
    /// shape are still told apart by the set.
    #[test]
    fn keyword_shapes_let_every_keyword_through() {
        for language in Language::ALL {
            let spec = language.spec();
            let roles = Roles::new(spec, &language.grammar(std::path::Path::new("a")));
            for k in spec.keywords {
                assert!(roles.is_keyword(k), "{language}: {k}");
            }
            assert!(!roles.is_keyword(""));
            assert!(!roles.is_keyword("storeOfThings"));
            if let Some(k) = spec.keywords.iter().find(|k| k.len() > 1) {
                // Same first byte and length, another word.
                let other: String = k.chars().take(1).chain(std::iter::repeat_n('Q', k.len() - 1)).collect();
                assert!(!roles.is_keyword(&other), "{language}: {other}");
            }
        }
    }

    /// Regression (`kids_recursed_forever_off_the_node_list`): a node the walk's
    /// node list does not hold (asked before the walk, or from another tree)
    /// has its children from tree-sitter; the fallback called itself.
    #[test]
    fn kids_recursed_forever_off_the_node_list() {
        let language = Language::Rust;
        let grammar = language.grammar(std::path::Path::new("a.rs"));
        let roles = Roles::new(language.spec(), &grammar);
        let src = "fn f(a: u8, b: u8) {}";
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&grammar).unwrap();
        let tree = parser.parse(src, None).unwrap();
        let function = tree.root_node().named_child(0).unwrap();
        let visit = super::Visit::new(src, language.spec(), &roles);
        let named: Vec<&str> = visit.kids(function, true).map(|n| n.kind()).collect();
        assert_eq!(named, ["identifier", "parameters", "block"]);
        let all = visit.kids(function, false).count();
        assert_eq!(all, function.child_count());
        assert!(all > named.len());
    }

    /// The walk looks fields up in its own tables; they must agree with the
    /// grammar's for every field of every grammar.
    #[test]
    fn field_tables_agree_with_the_grammars() {
        for language in Language::ALL {
            let spec = language.spec();
            for ext in ["", "ts", "tsx", "js", "jsx", "h", "hpp", "cc", "php", "pyi"] {
                let grammar = (spec.grammar)(ext);
                let roles = Roles::new(spec, &grammar);
                for id in 1..=grammar.field_count() as u16 {
                    let name = grammar.field_name_for_id(id).unwrap();
                    assert_eq!(roles.field_id(name).map(|f| f.get()), grammar.field_id_for_name(name).map(|f| f.get()));
                    assert_eq!(roles.field_name(id), Some(name));
                }
                assert_eq!(roles.field_id("no_such_field"), None);
                assert_eq!(roles.field_name(0), None);
            }
        }
    }

    /// The kind table answers what `Node::kind` does for every node of every
    /// fixture, whole and cut short (so ERROR and MISSING nodes are met).
    #[test]
    fn kind_names_from_the_table_agree_with_tree_sitter() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/extract");
        let mut checked = 0usize;
        let mut errors = 0usize;
        for dir in std::fs::read_dir(&root).unwrap() {
            for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
                let path = file.unwrap().path();
                let Some(language) = Language::from_path(&path) else { continue };
                let grammar = language.grammar(&path);
                let roles = Roles::new(language.spec(), &grammar);
                let text = std::fs::read(&path).unwrap();
                for source in [&text[..], &text[..text.len() * 2 / 3]] {
                    let mut parser = tree_sitter::Parser::new();
                    parser.set_language(&grammar).unwrap();
                    let tree = parser.parse(source, None).unwrap();
                    let mut cursor = tree.walk();
                    'walk: loop {
                        let node = cursor.node();
                        assert_eq!(roles.kind(node), node.kind(), "{}", path.display());
                        checked += 1;
                        errors += usize::from(node.is_error() || node.is_missing());
                        if cursor.goto_first_child() {
                            continue;
                        }
                        while !cursor.goto_next_sibling() {
                            if !cursor.goto_parent() {
                                break 'walk;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 5_000 && errors > 0, "{checked} nodes, {errors} errors");
    }
}

#[cfg(test)]
mod text_tests {
    use proptest::strategy::Strategy;

    use super::{signature, signature_slow, MAX_SIGNATURE_BYTES};

    #[test]
    fn signatures_are_tidied() {
        assert_eq!(signature("  public  void\n\tf( int a,\r\n int b )  {"), "public void f(int a, int b)");
        assert_eq!(signature("fn g(\u{a0}x:\u{2028}u8\u{a0}) -> T ;"), "fn g(x: u8) -> T");
        assert_eq!(signature("f( )"), "f()");
        assert_eq!(signature(" \t "), "");
        assert_eq!(signature("été(\u{3000}é\u{3000})"), "été(é)");
    }

    proptest::proptest! {
        /// Lines are counted as the line feeds are, one by one.
        #[test]
        fn newlines_are_counted(bytes in proptest::collection::vec(
            proptest::sample::select(vec![b'\n', b'\r', b'a', 0u8, 0xFF]),
            0..2000,
        )) {
            let want = bytes.iter().filter(|&&b| b == b'\n').count();
            proptest::prop_assert_eq!(super::newline_count(&bytes), want);
        }

        /// Terms ordered by their first 8 bytes, then by the rest, are in the
        /// text's order (`finish`).
        #[test]
        fn sort_prefixes_order_as_text(mut terms in proptest::collection::vec(
            proptest::collection::vec(proptest::sample::select(vec!["a", "b", "_", "é", "\0", "Z", "9"]), 0..12)
                .prop_map(|p| p.concat()),
            0..40,
        )) {
            let mut want = terms.clone();
            want.sort();
            terms.sort_by(|a, b| super::sort_prefix(a).cmp(&super::sort_prefix(b)).then_with(|| a.cmp(b)));
            proptest::prop_assert_eq!(terms, want);
        }

        /// The one-pass tidying is the step-by-step one, on text made of
        /// every kind of byte it treats apart (Unicode spaces among them).
        #[test]
        fn signature_is_the_step_by_step_one(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                " ", "  ", "\t", "\n", "\r\n", "\u{b}", "\u{c}", "\u{a0}", "\u{2028}", "\u{3000}", "(", ")",
                ";", ",", "{", "=", ":", "a", "bc", "é", "日本", "…", "\u{85}",
            ]),
            0..40,
        )) {
            let text: String = parts.concat();
            proptest::prop_assert_eq!(signature(&text), signature_slow(&text));
        }
    }

    /// Past the cut, both take the same steps (the slow ones).
    #[test]
    fn long_signatures_are_cut() {
        let text = format!("f({})", "a, ".repeat(MAX_SIGNATURE_BYTES));
        let got = signature(&text);
        assert_eq!(got, signature_slow(&text));
        assert!(got.ends_with('…') && got.len() <= MAX_SIGNATURE_BYTES + '…'.len_utf8(), "{got}");
    }
}

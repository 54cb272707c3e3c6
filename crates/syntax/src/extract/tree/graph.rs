//! The code graph's part of the walk: what each name occurrence in code does (call,
//! type, import, supertype, other), what stands before it (its receiver, typed when
//! the file tells), the names functions bind locally (left out: they never refer to
//! project definitions), and the file's imports and package / namespace.
//!
//! Everything here is decided from one file. Following imports, hierarchies and
//! packages across files is the query's job (`crate::graph`), so an update of one
//! file never changes another file's facts.

use std::borrow::Cow;

use rustc_hash::FxHashMap;
use tree_sitter::Node;

use super::{trim_quotes, Role, Visit};
use crate::extract::{
    ImportFact, ImportKind, Receiver, RefFact, RefRole, DISCRIMINANT, FIELD_OF, GUARD_OR, MAX_CHAIN, MAX_UNION,
    SUPER_OF,
};
use crate::lang::dialect::{Chain, ImportSyntax, Super};
use crate::lang::rules::{Mixins, Modules};
use crate::lang::LanguageSpec;

/// TS's generic types with the members of their type argument, changed
/// (`Readonly<T>`): a value of one is, as a receiver, a `T`.
pub(super) const TS_SAME_MEMBERS: [&str; 4] = ["Readonly", "Partial", "Required", "NonNullable"];
/// TS's generic arrays (`Array<T>`, `ReadonlyArray<T>`, and by their name
/// the project's, the compiler's `NodeArray<T>`): their elements are of the
/// type argument.
pub(super) fn ts_array(name: &str) -> bool {
    name.ends_with("Array")
}

/// How far up a name looks for the statement or clause it stands in.
const CONTEXT_DEPTH: usize = 10;
/// Names collected from one binding pattern, at most.
const MAX_PATTERN_NODES: usize = 64;

/// The graph role of one node kind (a part of [`Role`]). Field ids are 0 when unset.
#[derive(Clone, Copy, Default)]
pub(super) struct GraphRole {
    /// Whether `graph_visit` has anything to do at a node of the kind, past
    /// its bookkeeping of frames (most nodes: nothing).
    visit_work: bool,
    pub name: bool,
    type_name: bool,
    pub(super) call_field: u16,
    pub(super) member: (u16, u16),
    type_wrapper: bool,
    type_list: bool,
    inherit: bool,
    inherit_field: u16,
    embedding: bool,
    import: bool,
    reexport_field: u16,
    self_: bool,
    function: bool,
    /// Index + 1 into the spec's bindings.
    binding: u8,
    construction_field: u16,
    scope: bool,
    /// Index into the spec's type parameter kinds.
    type_param: Option<u8>,
    cast: Option<crate::lang::CastType>,
    /// Kinds the walk tests by name, decided once here: a node's kind string is
    /// a C string read and checked as UTF-8 on every `Node::kind` call.
    keyword_argument: bool,
    object_creation: bool,
    literal_element: bool,
    keyed_element: bool,
    parameter_declaration: bool,
    parameter_list: bool,
    literal_value: bool,
    composite_literal: bool,
    /// PHP's `$x`.
    variable_name: bool,
    /// `scoped_identifier`, `scoped_type_identifier`, ...: a path.
    scoped: bool,
    /// Rust's `mod x;` (an import of a module file).
    pub(super) mod_item: bool,
    /// TS/JS `{ .. }`: an object literal or an object destructuring pattern.
    object_literal: bool,
    /// TS/JS `key: value` in one (`pair`, `pair_pattern`), or `{ a = 1 }`.
    object_entry: bool,
    /// TS's `type X = ..`: its value's constituents are X's supertypes.
    type_alias: bool,
    /// `A | B` and `A & B` types (`union_type`, `intersection_type`).
    type_union: bool,
    /// Whether a name's context questions (in an import, a supertype list, a
    /// parameter's declarator: [`Visit::in_import`], [`Visit::in_inherit`],
    /// [`Visit::in_parameter_declarator`]) look at a node of the kind: they
    /// pass over the others, so they follow the path's chain of these
    /// ([`GraphState::path`]) instead of every level.
    pub(super) context: bool,
    /// TS's `x!` and any grammar's `(x)`: as a receiver, the value inside.
    transparent: bool,
    /// TS/JS `a && b`: as a receiver, `b` (what a member of it is taken of;
    /// tree-sitter also reads `x && x.y!.z` as `(x && x.y)!.z`).
    binary: bool,
    /// TS/JS `if` and `?:`: a type guard in the condition narrows the branch.
    guarded: bool,
    /// TS/JS `switch`: `case E.A:` narrows a discriminated value in its body.
    switch: bool,
    /// TS/JS `!x` (and other unary operators).
    negation: bool,
    /// Rust's `field_initializer`, `shorthand_field_initializer` and
    /// `field_pattern`; C#'s `initializer_expression`: where a name is a field
    /// of the literal's type.
    field_entry: bool,
}

impl GraphRole {
    pub(super) fn is_function(&self) -> bool {
        self.function
    }
}

/// The fields that make a type position, by id.
#[derive(Default)]
pub(super) struct GraphFields {
    type_fields: Vec<u16>,
    name: u16,
    /// Fields a binding pattern's names are never in (`value` of `x = v`).
    values: Vec<u16>,
    /// The `declarator` field (C, C++), 0 elsewhere.
    declarator: u16,
    /// A call's `arguments` field where overloads are told apart by their
    /// number (Java, C#, C++), 0 elsewhere.
    arguments: u16,
}

fn field(grammar: &tree_sitter::Language, name: &str) -> u16 {
    if name.is_empty() {
        return 0;
    }
    grammar.field_id_for_name(name).map_or(0, |f| f.get())
}

pub(super) fn graph_role(spec: &LanguageSpec, grammar: &tree_sitter::Language, kind: &str) -> GraphRole {
    let g = &spec.graph;
    let has = |list: &[&str]| list.contains(&kind);
    let pick = |list: &[(&str, &str)]| list.iter().find(|(k, _)| *k == kind).map_or(0, |(_, f)| field(grammar, f));
    let mut role = GraphRole {
        visit_work: false,
        name: has(g.name_kinds),
        type_name: has(g.type_name_kinds),
        call_field: pick(g.calls),
        member: g
            .members
            .iter()
            .find(|(k, ..)| *k == kind)
            .map_or((0, 0), |(_, o, m)| (field(grammar, o), field(grammar, m))),
        type_wrapper: has(g.type_wrappers),
        type_list: has(g.type_lists),
        inherit: has(g.inherit_kinds),
        inherit_field: pick(g.inherit_fields),
        embedding: has(g.embedding_kinds),
        import: has(g.import_kinds),
        reexport_field: pick(g.reexports),
        self_: has(g.self_kinds),
        function: has(g.function_kinds),
        binding: g.bindings.iter().position(|b| b.kind == kind).map_or(0, |i| i as u8 + 1),
        construction_field: pick(g.constructions),
        scope: has(g.scope_kinds),
        type_param: g.type_params.iter().position(|(k, _)| *k == kind).map(|i| i as u8),
        cast: g.casts.iter().find(|(k, _)| *k == kind).map(|(_, c)| *c),
        keyword_argument: kind == "keyword_argument",
        object_creation: kind == "object_creation_expression",
        literal_element: kind == "literal_element",
        keyed_element: kind == "keyed_element",
        parameter_declaration: matches!(kind, "parameter_declaration" | "optional_parameter_declaration"),
        parameter_list: kind == "parameter_list",
        literal_value: kind == "literal_value",
        composite_literal: kind == "composite_literal",
        variable_name: kind == "variable_name",
        transparent: matches!(kind, "non_null_expression" | "parenthesized_expression"),
        binary: js_like(spec) && kind == "binary_expression",
        guarded: js_like(spec) && matches!(kind, "if_statement" | "ternary_expression"),
        switch: js_like(spec) && kind == "switch_statement",
        negation: js_like(spec) && kind == "unary_expression",
        scoped: kind.starts_with("scoped"),
        mod_item: spec.dialect.inline_modules && kind == "mod_item",
        object_literal: js_like(spec) && matches!(kind, "object" | "object_pattern"),
        object_entry: js_like(spec) && matches!(kind, "pair" | "pair_pattern" | "object_assignment_pattern"),
        type_alias: js_like(spec) && kind == "type_alias_declaration",
        type_union: matches!(kind, "union_type" | "intersection_type"),
        context: false,
        field_entry: spec.dialect.field_entry_kinds.contains(&kind),
    };
    // What the context questions look at (keep them in step).
    role.context = role.type_list
        || role.function
        || role.type_alias
        || role.inherit
        || role.inherit_field != 0
        || role.embedding
        || role.type_union
        || role.import
        || role.reexport_field != 0
        || role.parameter_declaration
        || role.parameter_list;
    // What `graph_visit` acts on (keep the two in step).
    role.visit_work = role.function
        || role.switch
        || role.guarded
        || role.binary
        || role.binding != 0
        || role.type_param.is_some()
        || role.import
        || role.reexport_field != 0
        || role.scope
        || (spec.dialect.require_calls && role.call_field != 0)
        || (js_like(spec) && kind == "lookup_type")
        || (spec.dialect.jsdoc && kind == "assignment_expression")
        || spec.dialect.chain(kind).is_some();
    role
}

pub(super) fn js_like(spec: &LanguageSpec) -> bool {
    spec.dialect.ecmascript
}

/// The last name of a type as written, without its generic arguments
/// (`ImmutableCollection.ArrayBasedBuilder<E>`, `ns::Tpl<int>`: the name its
/// constructors have).
fn last_name(written: &str) -> &str {
    let written = written.split('<').next().unwrap_or_default().trim();
    written.rsplit(['.', ':']).next().unwrap_or_default().trim()
}

/// JS arrays' methods whose callback's first parameter is an element.
const ARRAY_METHODS: &[&str] =
    &["every", "filter", "find", "findIndex", "findLast", "findLastIndex", "flatMap", "forEach", "map", "some", "sort"];

/// Helpers taking an array, then a callback whose first parameter is an
/// element (the TypeScript compiler's `core.ts`, besides [`ARRAY_METHODS`]'
/// names).
const ARRAY_HELPERS: &[&str] = &[
    "countWhere",
    "firstDefined",
    "mapDefined",
    "sameMap",
    "sameFlatMap",
    "flatMapToMutable",
    "filterMutate",
    "arrayToMap",
];

/// A local of type `had` where its field `field` is one of the enum members
/// `members` (`had{DISCRIMINANT}field{DISCRIMINANT}A|B`); `None` when none is
/// told or `had` is discriminated already.
fn discriminated(had: &str, field: &str, members: &[&str]) -> Option<String> {
    if members.is_empty() || had.contains(DISCRIMINANT) {
        return None;
    }
    Some(format!("{had}{DISCRIMINANT}{field}{DISCRIMINANT}{}", members.join("|")))
}

/// A receiver's name without its [`DISCRIMINANT`].
pub(super) fn undiscriminated(s: &str) -> &str {
    s.split(DISCRIMINANT).next().unwrap_or(s)
}

/// The class a PHP docblock type names (`\App\Cursor|null` is `Cursor`,
/// `Post[]` a `Post`, `Collection<int, Post>` a `Collection`); `this_type`
/// for `$this`, `static` and `self`. None for a scalar, `mixed` or an array.
pub(super) fn php_doc_class(ty: &str, this_type: Option<&str>) -> Option<String> {
    ty.split('|').find_map(|t| {
        let t = t.trim().trim_start_matches('?');
        let t = t.split('<').next().unwrap_or(t).trim_end_matches("[]");
        let t = t.rsplit('\\').next().unwrap_or(t);
        match t.to_ascii_lowercase().as_str() {
            "$this" | "static" | "self" => this_type.map(str::to_string),
            "null" | "void" | "mixed" | "bool" | "boolean" | "int" | "integer" | "float" | "double" | "string"
            | "array" | "callable" | "iterable" | "object" | "false" | "true" | "resource" | "never" | "" => None,
            _ => plain_name(t).then(|| t.to_string()),
        }
    })
}

/// The type a PHP docblock gives with `tag` (`@return`, `@var`; `@param`
/// for the parameter `$var`): the words after the tag, as written.
pub(super) fn php_doc_tag<'t>(doc: &'t str, tag: &str, var: Option<&str>) -> Option<&'t str> {
    doc.lines().find_map(|line| {
        let rest = line.trim_start().trim_start_matches(['/', '*']).trim_start().strip_prefix(tag)?;
        if !rest.starts_with(char::is_whitespace) {
            return None; // `@returns`, `@variable`
        }
        let mut words = rest.split_whitespace();
        let ty = words.next().filter(|t| !t.starts_with("*/"))?;
        match var {
            None => Some(ty),
            Some(v) => {
                let named = words.next()?.trim_start_matches('&').trim_start_matches("...");
                (named.strip_prefix('$') == Some(v.trim_start_matches('$'))).then_some(ty)
            }
        }
    })
}

/// The type a JSDoc comment gives with `tag` (`@type`, `@returns` or
/// `@return`; `@param` for the parameter `var`, also written `[var]` or
/// `[var=1]`): the text between the braces after the tag.
pub(super) fn js_doc_tag<'t>(doc: &'t str, tags: &[&str], var: Option<&str>) -> Option<&'t str> {
    let mut rest = doc;
    while let Some(at) = rest.find('@') {
        let after = &rest[at + 1..];
        let word_end = after.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(after.len());
        let (word, tail) = after.split_at(word_end);
        rest = tail;
        if !tags.contains(&word) {
            continue;
        }
        let tail = tail.trim_start_matches([' ', '\t']);
        let Some(inside) = tail.strip_prefix('{') else { continue };
        let end = closing_brace(inside)?;
        let ty = &inside[..end];
        rest = &inside[end + 1..];
        match var {
            None => return Some(ty),
            Some(v) => {
                let named = rest.trim_start_matches([' ', '\t']).trim_start_matches('[');
                let name_end =
                    named.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(named.len());
                let follows = named[name_end..].chars().next();
                if &named[..name_end] == v && follows != Some('.') {
                    return Some(ty);
                }
            }
        }
    }
    None
}

/// Where the braces opened before `inside` close (`{Object<string, {a:
/// number}>}`, on one line or more).
fn closing_brace(inside: &str) -> Option<usize> {
    let mut depth = 1usize;
    for (i, c) in inside.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The members of a documented object parameter, `@param {Logger} options.logger`
/// (also `[options.logger]`): each member's name and the text between the
/// braces, one level down (`options.a.b` is not `options`'s member).
pub(super) fn js_doc_members(doc: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(at) = rest.find("@param") {
        let tail = rest[at + "@param".len()..].trim_start_matches([' ', '\t']);
        rest = &rest[at + 1..];
        let Some(inside) = tail.strip_prefix('{') else { continue };
        let Some(end) = closing_brace(inside) else { break };
        let named = inside[end + 1..].trim_start_matches([' ', '\t']).trim_start_matches('[');
        let name_end =
            named.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.')).unwrap_or(named.len());
        if let Some((_, member)) = named[..name_end].split_once('.') {
            if !member.is_empty() && !member.contains('.') {
                out.push((member, &inside[..end]));
            }
        }
    }
    out
}

/// The class a JSDoc type names, as a receiver's type: `Chunk`, `?Chunk`,
/// `Chunk=`, `Chunk | undefined` (`A|B` when several), `Chunk[]` and
/// `Array<Chunk>` (arrays are their element's type), `Set<Chunk>` (`Set`),
/// `import("./x").Chunk`; none for primitives, functions, object literals and
/// a module (`import("./x")`).
pub(super) fn js_doc_class(ty: &str) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |c: String| {
        for x in c.split('|') {
            if !out.iter().any(|o| o == x) {
                out.push(x.to_string());
            }
        }
    };
    // Top-level `|` only: `Map<string, A | B>` is a `Map`.
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in ty.char_indices() {
        match c {
            '<' | '(' | '{' | '[' => depth += 1,
            '>' | ')' | '}' | ']' => depth -= 1,
            '|' if depth == 0 => {
                parts.push(&ty[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&ty[start..]);
    for part in parts {
        let mut t = part.trim().trim_start_matches(['?', '!']).trim_end_matches('=').trim();
        if t.starts_with('(') && t.ends_with(')') && one_pair(t) {
            if let Some(inner) = js_doc_class(&t[1..t.len() - 1]) {
                add(inner);
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("import(") {
            // `import("./x").Chunk`: the module's `Chunk`; `import("./x")` alone is a module.
            let Some(close) = rest.find(')') else { continue };
            match rest[close + 1..].strip_prefix('.') {
                Some(member) => t = member,
                None => continue,
            }
        }
        while let Some(inner) = t.strip_suffix("[]") {
            t = inner;
        }
        if let Some(inner) = t.strip_prefix("Array<").and_then(|x| x.strip_suffix('>')) {
            if let Some(c) = js_doc_class(inner) {
                add(c);
            }
            continue;
        }
        let t = t.split('<').next().unwrap_or(t).trim();
        let t = t.rsplit('.').next().unwrap_or(t);
        let primitive = matches!(
            t,
            "" | "*"
                | "any"
                | "unknown"
                | "null"
                | "undefined"
                | "void"
                | "never"
                | "string"
                | "String"
                | "number"
                | "Number"
                | "boolean"
                | "Boolean"
                | "bigint"
                | "symbol"
                | "object"
                | "Object"
                | "function"
                | "Function"
                | "true"
                | "false"
                | "this"
                | "typeof"
                | "keyof"
        );
        if !primitive && plain_name(t) && !t.starts_with(|c: char| c.is_ascii_digit()) {
            add(t.to_string());
        }
    }
    (!out.is_empty()).then(|| out.join("|"))
}

/// Whether a parenthesized JSDoc type's outer parentheses are one pair (`(A|B)`,
/// not `(A)|(B)`).
fn one_pair(t: &str) -> bool {
    let mut depth = 0i32;
    for (i, c) in t.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && i + 1 < t.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// A plain name, as a type or function is kept: letters, digits and `_`.
pub(super) fn plain_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

pub(super) fn graph_fields(spec: &LanguageSpec, grammar: &tree_sitter::Language) -> GraphFields {
    GraphFields {
        type_fields: spec.graph.type_fields.iter().map(|f| field(grammar, f)).filter(|&f| f != 0).collect(),
        name: field(grammar, "name"),
        values: ["value", "default_value", "arguments", "size", "right"]
            .iter()
            .map(|f| field(grammar, f))
            .filter(|&f| f != 0)
            .collect(),
        declarator: match spec.dialect.declarator_field {
            "" => 0,
            f => field(grammar, f),
        },
        arguments: match spec.dialect.arguments_field {
            "" => 0,
            f => field(grammar, f),
        },
    }
}

/// What a Go name in a literal's key position is ([`Visit::go_literal_key`]).
enum GoKey<'a> {
    /// A map key, an array index, or no Go literal's key at all.
    NotAKey,
    /// A field of the literal's type, with that type as the receiver.
    FieldOf(Pending<'a>),
    /// A field of an anonymous struct: no definition to refer to.
    AnonymousField,
}

/// Local names, with their types when declared or constructed.
type Locals<'a> = FxHashMap<&'a str, Option<String>>;

/// A function's local names (or those a type guard narrows in a block).
pub(super) struct Frame<'a> {
    depth: usize,
    locals: Locals<'a>,
}

/// A receiver as the walk sees it; fields of types are resolved when the whole
/// file has been read (a field may be declared after the method using it).
pub(super) enum Pending<'a> {
    Done(Receiver),
    /// A field of a value of the given type (`this.store`, `s.inv` with `s: *Store`).
    Field(String, Cow<'a, str>),
    /// A name not bound in the function, inside the given type (C#'s implicit
    /// `this.name`).
    Name(&'a str, Option<String>),
}

pub(super) struct PendingRef<'a> {
    line: u32,
    name: &'a str,
    role: RefRole,
    receiver: Pending<'a>,
    args: Option<u8>,
}

#[derive(Default)]
pub(super) struct GraphState<'a> {
    /// The nodes from the root to the current one: each with the field it is
    /// in, its kind id, its index in the walk's node list ([`super::Flat`])
    /// and the depth of the nearest node at or above it whose role is a
    /// context ([`GraphRole::context`]; `u32::MAX`: none). One vector, one
    /// push per node the walk visits.
    pub path: Vec<(Node<'a>, u16, u16, u32, u32)>,
    frames: Vec<Frame<'a>>,
    /// Rust and Go: the locals a declaration binds that no local of the name
    /// held before, with the byte range of the declaration's value, where
    /// they are not bound yet ([`Visit::lookup_local`]).
    unbound_yet: Vec<(usize, usize, &'a str)>,
    /// TS/JS branches a type guard holds in (`if (isX(v)) ..`, `isX(v) && ..`,
    /// `isX(v) ? .. : ..`), by node id: the locals it narrows, pushed as a
    /// frame when the walk enters the branch.
    /// An entry whose flag is set narrows from that node to the end of the
    /// block holding it (after `if (!isX(v)) return;`).
    pub(super) narrowed: Vec<(usize, bool, Locals<'a>)>,
    /// Rust: the tokens of each macro group read (by node id), in order
    /// ([`Visit::rust_macro_token`]; a group's names come before and after
    /// the groups inside it).
    macro_tokens: FxHashMap<usize, Vec<Node<'a>>>,
    /// Start bytes of definitions' names (they are definitions, not references).
    pub def_names: rustc_hash::FxHashSet<usize>,
    refs: Vec<PendingRef<'a>>,
    imports: Vec<ImportFact>,
    /// The aliases whole-module imports give (`import * as ts`), as of the
    /// first `.0` imports ([`Visit::is_module_alias`], asked per name).
    module_aliases: std::cell::RefCell<(usize, rustc_hash::FxHashSet<String>)>,
    scope: String,
    /// The C++ namespace whose name ends `scope` (by node id): one nested first
    /// in its body extends it (`namespace a { namespace b {` is `a::b`).
    scope_node: Option<usize>,
    /// Names of generic parameters declared in the file.
    type_params: rustc_hash::FxHashSet<&'a str>,
    /// (type, field) → the field's declared type.
    pub fields: FxHashMap<(String, String), String>,
    /// Names bound outside functions and types, with their type when every
    /// binding of the name tells the same.
    globals: FxHashMap<&'a str, Option<String>>,
    /// TS type alias constituents written `Q.N` (by index in `refs`), pushed
    /// as supertypes: they stay so when the file declares a namespace `Q`
    /// (`type S = Status.Missing | ..`), else they are types with this
    /// receiver (`SyntaxKind.PlusToken` is an enum member as a type).
    qualified_constituents: Vec<(usize, &'a str, Pending<'a>)>,
    /// TS functions (not methods) of one type parameter the file declares
    /// that return a value of it (`function createNode<T extends Node>(k) { ..
    /// as T }`, declared `: T` or not declared): `createNode<Decl>(k)` is a
    /// `Decl`.
    generic_results: rustc_hash::FxHashSet<&'a str>,
    /// TS functions the file declares taking callbacks with typed parameters
    /// (`function filterType(type: Type, f: (t: Type) => boolean)`): by name,
    /// (argument, callback parameter, its type); `None` when two declarations
    /// of the name disagree. Resolves the [`CALLBACK`] marks of untyped
    /// parameters of callbacks given to them (`filterType(x, t => t.flags)`),
    /// wherever in the file they are called.
    callbacks: FxHashMap<&'a str, Option<Vec<CallbackParam>>>,
}

/// A typed parameter of a callback a function takes: (the function's
/// parameter, the callback's parameter, its type).
type CallbackParam = (usize, usize, String);

/// In a TS local's type, while the file is read: `{CALLBACK}f{CALLBACK}i{CALLBACK}j{CALLBACK}`
/// is the type of parameter `j` of the callback given as argument `i` to `f`,
/// resolved when the file is read through `GraphState::callbacks`.
const CALLBACK: char = '\u{7}';

impl<'a> Visit<'a> {
    /// Called for every node entered, after declarations were handled. Inlined
    /// into the walk: at most nodes it has nothing to do past its checks
    /// ([`GraphRole::visit_work`]), which cost less than a call.
    #[inline]
    pub(super) fn graph_visit(&mut self, node: Node<'a>, role: &Role, depth: usize) {
        if !self.graph_facts {
            // The package or namespace is the file's, not a graph fact.
            if role.graph.scope {
                self.scope_name(node);
            }
            return;
        }
        while self.graph.frames.last().is_some_and(|f| f.depth >= depth) {
            self.graph.frames.pop();
        }
        if !self.graph.narrowed.is_empty() {
            self.narrowed_here(node, depth);
        }
        if role.graph.visit_work {
            self.graph_visit_work(node, role, depth);
        }
    }

    /// A narrowing (a type guard's) that holds from `node` on: its frame.
    fn narrowed_here(&mut self, node: Node<'a>, depth: usize) {
        if let Some(i) = self.graph.narrowed.iter().position(|(id, _, _)| *id == node.id()) {
            let (_, rest_of_block, locals) = self.graph.narrowed.swap_remove(i);
            let depth = if rest_of_block { depth.saturating_sub(1) } else { depth };
            self.graph.frames.push(Frame { depth, locals });
        }
    }

    /// [`Visit::graph_visit`] at a node of a kind it acts on.
    #[inline(never)]
    fn graph_visit_work(&mut self, node: Node<'a>, role: &Role, depth: usize) {
        let g = &role.graph;
        // The node is the path's last (`self.kind(&node)` asks tree-sitter).
        let kind = self.path_kind(depth);
        if g.function {
            self.graph.frames.push(Frame { depth, locals: FxHashMap::default() });
        }
        if g.switch && !self.graph.frames.is_empty() {
            self.switch_cases(node);
        }
        if (g.guarded || g.binary) && !self.graph.frames.is_empty() {
            self.type_guards(node, g.binary);
        }
        if g.binding != 0 && !self.graph.frames.is_empty() {
            let (idents, ty) = self.binding(node, g.binding as usize - 1);
            // `const { a } = t` with `t: T`, `({ a }: T) => ..`: `a` is `T`'s
            // field `a` (not a `T`); other names of the pattern are untyped.
            let owner = self.ts_destructured(node);
            let documented = match &owner {
                Some((None, _)) => self.js_doc_destructured(node),
                _ => Vec::new(),
            };
            if kind == "match_pattern" {
                // A Rust match arm's names are the arm's: a frame the walk
                // leaves with the arm (`Some(second) => ..` and a call of the
                // function `second()` in the next arm).
                let locals = idents.into_iter().map(|name| (name, None)).collect();
                self.graph.frames.push(Frame { depth: depth.saturating_sub(1), locals });
            } else if !self.graph.frames.is_empty() {
                self.unbound_in_value(node, g.binding as usize - 1, &idents);
                if let Some(frame) = self.graph.frames.last_mut() {
                    for name in idents {
                        let ty = match &owner {
                            Some((Some(owner), keys)) if keys.contains(&name) => {
                                Some(format!("{owner}{FIELD_OF}{name}"))
                            }
                            // JSDoc's `@param {Logger} options.logger` for
                            // `constructor({ logger, profile } = {})`.
                            Some((None, _)) => documented.iter().find(|(n, _)| *n == name).map(|(_, t)| t.clone()),
                            Some(_) => None,
                            None => ty.clone(),
                        };
                        frame.locals.insert(name, ty);
                    }
                }
            }
        } else if g.binding != 0 {
            // A module-level binding (`const a = ..`, `var x T`): its name is
            // declared here, not referenced.
            let b = &self.spec.graph.bindings[g.binding as usize - 1];
            if !b.names.is_empty() {
                let names: Vec<Node<'a>> = self.children(node, b.names);
                for n in names {
                    if self.roles.of(n).graph.name {
                        self.graph.def_names.insert(n.start_byte());
                    }
                }
            }
            // Its type, when told, types it as a receiver in the file's
            // functions (`const cache = new Map()`, then `cache.get(k)`);
            // not a type's own bindings (class-level names are fields).
            if self.current_type().is_none() {
                let (idents, ty) = self.binding(node, g.binding as usize - 1);
                for name in idents {
                    let seen = self.graph.globals.entry(name).or_insert_with(|| ty.clone());
                    if *seen != ty {
                        *seen = None;
                    }
                }
            }
        }
        if let Some(i) = g.type_param {
            self.type_parameters(node, self.spec.graph.type_params[i as usize].1);
        }
        if g.import || (g.reexport_field != 0 && self.child_id(node, g.reexport_field).is_some()) {
            self.import(node, g.import);
        } else if self.spec.dialect.require_calls && g.call_field != 0 {
            self.ruby_require(node);
        }
        if kind == "variable_declarator" && js_like(self.spec) {
            self.commonjs_require(node);
        }
        if kind == "assignment_expression" && self.spec.dialect.jsdoc {
            self.js_this_field(node);
        }
        if kind == "lookup_type" && js_like(self.spec) {
            self.ts_indexed_access(node);
        }
        match self.spec.dialect.chain(kind) {
            Some(Chain::Super) => self.ruby_super(node),
            Some(Chain::ExplicitConstructor | Chain::BaseInitializer) => self.constructor_chain(node),
            Some(Chain::MemberInitializer) => self.cpp_base_initializer(node),
            None => {}
        }
        if g.scope {
            self.scope_name(node);
        }
    }

    /// A package or namespace declaration: the file's scope, when it has none
    /// yet (a C++ namespace nested in it extends it).
    fn scope_name(&mut self, node: Node<'a>) {
        if !self.graph.scope.is_empty() && self.spec.dialect.nested_namespaces {
            self.nested_namespace(node);
        } else if self.graph.scope.is_empty() {
            // Its name: the `name` field, else its first name child (Go's
            // `package_identifier`, Java's `scoped_identifier` after the
            // annotations of a `package-info.java`). An unnamed namespace (C++'s
            // `namespace { .. }`, PHP's `namespace { .. }`) names none: its body
            // was taken for the name.
            let name = self.child(node, "name").or_else(|| {
                let first = self.kids(node, true).find(|c| self.kind(c).contains("identifier"));
                first
            });
            if let Some(n) = name {
                self.graph.scope = self.text(n).to_string();
                self.graph.scope_node = Some(node.id());
            }
        }
    }

    /// TS/JS: the locals a type guard in `node`'s condition narrows in its
    /// branch (`if (isX(v)) ..`, `isX(v) && ..`, `isX(v) ? .. : ..`), kept for
    /// when the walk enters it. A local `v` there is what `isX` returns
    /// (`()isX`: a guard's declared result is its predicate's type, `v is X`),
    /// or, when `isX` is no guard, the type it had ([`GUARD_OR`]).
    fn type_guards(&mut self, node: Node<'a>, binary: bool) {
        let (cond, branch) = if binary {
            if !self.operator_is(node, "&&") {
                return;
            }
            (self.child(node, "left"), self.child(node, "right"))
        } else {
            (self.child(node, "condition"), self.child(node, "consequence"))
        };
        let (Some(cond), Some(branch)) = (cond, branch) else { return };
        let mut locals: Locals<'a> = FxHashMap::default();
        self.guards_in(cond, false, &mut locals, 0);
        if !locals.is_empty() {
            self.graph.narrowed.push((branch.id(), false, locals));
        }
        // `if (!isX(v)) return;` (or throw, continue, break), no `else`: `v`
        // is an `X` in the rest of the block.
        if binary || self.child(node, "alternative").is_some() || !self.leaves(branch) {
            return;
        }
        // Comments are not walked as code: the narrowing starts at the next statement.
        let mut next = node.next_named_sibling();
        while let Some(n) = next.filter(|n| self.kind(n) == "comment") {
            next = n.next_named_sibling();
        }
        let Some(next) = next else { return };
        let mut locals: Locals<'a> = FxHashMap::default();
        self.guards_in(cond, true, &mut locals, 0);
        if !locals.is_empty() {
            self.graph.narrowed.push((next.id(), true, locals));
        }
    }

    /// TS/JS `switch (v.kind) { case SyntaxKind.A: case SyntaxKind.B: .. }`:
    /// in a case's body `v` is discriminated by the case's enum member and
    /// those of the empty cases right before it.
    fn switch_cases(&mut self, node: Node<'a>) {
        let Some(mut value) = self.child(node, "value") else { return };
        while self.kind(&value) == "parenthesized_expression" && value.named_child_count() == 1 {
            let Some(inner) = value.named_child(0) else { return };
            value = inner;
        }
        let Some((v, field)) = self.local_field(value) else { return };
        let Some(Some(had)) = self.lookup_local(v).cloned() else { return };
        let Some(body) = self.child(node, "body") else { return };
        let mut members: Vec<&str> = Vec::new();
        // A case whose value is no enum member discriminates nothing, nor do
        // the cases falling into its body.
        let mut told = true;
        for case in self.kids(body, true) {
            match self.kind(&case) {
                "switch_case" => {
                    match self.child(case, "value").and_then(|c| self.enum_member(c)) {
                        Some(m) => members.push(m),
                        None => told = false,
                    }
                    if self.children(case, "body").is_empty() {
                        continue;
                    }
                    if let Some(ty) = discriminated(&had, field, &members).filter(|_| told) {
                        let mut locals: Locals<'a> = FxHashMap::default();
                        locals.insert(v, Some(ty));
                        self.graph.narrowed.push((case.id(), false, locals));
                    }
                    members.clear();
                    told = true;
                }
                "switch_default" => {
                    members.clear();
                    told = true;
                }
                _ => {}
            }
        }
    }

    /// `v.f` with `v` a name: `(v, f)`.
    fn local_field(&self, access: Node<'a>) -> Option<(&'a str, &'a str)> {
        let (obj, member) = self.roles.of(access).graph.member;
        if member == 0 || self.kind(&access) != "member_expression" {
            return None;
        }
        let (o, m) = (self.child_id(access, obj)?, self.child_id(access, member)?);
        self.roles.of(o).graph.name.then(|| (self.text(o), self.text(m)))
    }

    /// `E.A`, an enum member as written: `A`.
    fn enum_member(&self, value: Node<'a>) -> Option<&'a str> {
        let (obj, member) = self.roles.of(value).graph.member;
        if member == 0 || self.kind(&value) != "member_expression" {
            return None;
        }
        let o = self.child_id(value, obj)?;
        let m = self.child_id(value, member)?;
        (self.roles.of(o).graph.name && self.text(o).starts_with(char::is_uppercase)).then(|| self.text(m))
    }

    /// Whether an operator expression's operator is `op`.
    fn operator_is(&self, node: Node<'a>, op: &str) -> bool {
        self.child(node, "operator").is_some_and(|o| self.text(o) == op)
    }

    /// Whether a statement always leaves the block it is in: `return`, `throw`,
    /// `continue` or `break`, alone or ending a `{ .. }`.
    fn leaves(&self, statement: Node<'a>) -> bool {
        let last = match self.kind(&statement) {
            "statement_block" => match statement.named_child(statement.named_child_count().saturating_sub(1)) {
                Some(last) => last,
                None => return false,
            },
            _ => statement,
        };
        matches!(self.kind(&last), "return_statement" | "throw_statement" | "continue_statement" | "break_statement")
    }

    /// The locals type guards in a condition narrow where it holds (`isX(v)`,
    /// each of `isX(v) && isY(w)`), or, `negated`, where it fails (`!isX(v)`,
    /// each of `!isX(v) || !isY(w)`).
    fn guards_in(&self, cond: Node<'a>, negated: bool, out: &mut Locals<'a>, level: usize) {
        if level > 4 {
            return;
        }
        let g = self.roles.of(cond).graph;
        if g.transparent && cond.named_child_count() == 1 {
            if let Some(inner) = cond.named_child(0) {
                self.guards_in(inner, negated, out, level + 1);
            }
            return;
        }
        if g.binary {
            if self.operator_is(cond, if negated { "||" } else { "&&" }) {
                for side in ["left", "right"] {
                    if let Some(c) = self.child(cond, side) {
                        self.guards_in(c, negated, out, level + 1);
                    }
                }
            } else if (if negated { ["!==", "!="] } else { ["===", "=="] }).iter().any(|op| self.operator_is(cond, op))
            {
                // `v.kind === SyntaxKind.A` (where it fails: `!==`).
                let (Some(l), Some(r)) = (self.child(cond, "left"), self.child(cond, "right")) else { return };
                for (access, value) in [(l, r), (r, l)] {
                    if let (Some((v, field)), Some(m)) = (self.local_field(access), self.enum_member(value)) {
                        let had = out.get(v).cloned().or_else(|| self.lookup_local(v).cloned());
                        if let Some(ty) = had.flatten().and_then(|had| discriminated(&had, field, &[m])) {
                            out.insert(v, Some(ty));
                        }
                        return;
                    }
                }
            }
            return;
        }
        if negated {
            if let Some(arg) = self.child(cond, "argument").filter(|_| g.negation && self.operator_is(cond, "!")) {
                self.guards_in(arg, false, out, level + 1);
            }
            return;
        }
        if g.call_field == 0 {
            return;
        }
        let Some(callee) = self.child_id(cond, g.call_field) else { return };
        let croles = self.roles.of(callee).graph;
        let name = match (croles.name, croles.member.1) {
            (true, _) => callee,
            (false, m) if m != 0 => match self.child_id(callee, m) {
                Some(n) => n,
                None => return,
            },
            _ => return,
        };
        let func = self.text(name);
        let Some(args) = self.child(cond, "arguments") else { return };
        let Some(arg) = args.named_child(0) else { return };
        if !self.roles.of(arg).graph.name {
            return;
        }
        let v = self.text(arg);
        let Some(had) = self.lookup_local(v) else { return };
        let narrowed = match had {
            // A field's value (`for (const d of s.declarations)`): what
            // the guard asserts, no fallback (the strings would not parse).
            None => format!("(){func}{GUARD_OR}"),
            Some(t) if t.contains(FIELD_OF) && !t.contains(GUARD_OR) => format!("(){func}{GUARD_OR}"),
            Some(t) if t.contains(FIELD_OF) || t.contains(GUARD_OR) => return,
            Some(t) => format!("(){func}{GUARD_OR}{t}"),
        };
        out.insert(v, Some(narrowed));
    }

    /// The graph role of the node at `i` of the path.
    fn path_role(&self, i: usize) -> &'a GraphRole {
        &self.roles.by_id(self.graph.path[i].2).graph
    }

    /// The kind name of the path's node at `i` (from the kind ids the walk
    /// keeps: no call into tree-sitter).
    pub(super) fn path_kind(&self, i: usize) -> &'static str {
        self.roles.kind_name(self.graph.path[i].2)
    }

    /// Rust and Go: the new locals of a declaration with a value (`let f =
    /// f(x);`, `f := f(x)`) are not bound in that value
    /// ([`GraphState::unbound_yet`]); a name already local stays so there.
    fn unbound_in_value(&mut self, node: Node<'a>, binding: usize, idents: &[&'a str]) {
        let b = &self.spec.graph.bindings[binding];
        if !self.spec.dialect.bindings_unbound_in_value || b.value.is_empty() {
            return;
        }
        let Some(value) = self.child(node, b.value) else { return };
        let at = node.start_byte();
        self.graph.unbound_yet.retain(|&(_, to, _)| to > at);
        for &name in idents {
            if self.lookup_local(name).is_none() {
                self.graph.unbound_yet.push((value.start_byte(), value.end_byte(), name));
            }
        }
    }

    fn lookup_local(&self, name: &str) -> Option<&Option<String>> {
        if !self.graph.unbound_yet.is_empty() {
            // Rust's `let f = f(x);`, Go's `f := f(x)`: in its own value a
            // new local is not bound yet (the name is the function's).
            let at = self.graph.path.last().map_or(0, |(n, ..)| n.start_byte());
            if self.graph.unbound_yet.iter().any(|&(from, to, n)| (from..to).contains(&at) && n == name) {
                return None;
            }
        }
        self.graph.frames.iter().rev().find_map(|f| f.locals.get(name))
    }

    /// The type a binding node (a declaration of local or module-level names)
    /// gives its names, when it tells one.
    pub(super) fn binding_type(&self, node: Node<'a>) -> Option<String> {
        let index = self.roles.of(node).graph.binding.checked_sub(1)?;
        self.binding(node, index as usize).1
    }

    /// The names a binding node declares, with their type when the file tells.
    fn binding(&self, node: Node<'a>, index: usize) -> (Vec<&'a str>, Option<String>) {
        let b = &self.spec.graph.bindings[index];
        let mut names: Vec<Node<'a>> = Vec::new();
        if b.names.is_empty() {
            // Every named child but the binding's type and value (and a Rust
            // match arm's guard, `Some(x) if x > limit`).
            let fields = &self.roles.graph_fields;
            let mut cursor = node.walk();
            if cursor.goto_first_child() {
                loop {
                    let skip = cursor
                        .field_id()
                        .is_some_and(|f| fields.type_fields.contains(&f.get()) || fields.values.contains(&f.get()))
                        || cursor.field_name() == Some("condition");
                    if cursor.node().is_named() && !skip {
                        names.push(cursor.node());
                    }
                    if !cursor.goto_next_sibling() {
                        break;
                    }
                }
            }
        } else {
            names.extend(self.children(node, b.names));
        }
        let mut idents: Vec<&'a str> = Vec::new();
        // `const { parent } = node`: a part of the value, not of its type
        // (an array pattern's elements are: arrays are their element's type).
        let mut parts = false;
        for n in names {
            parts |= self.kind(&n) == "object_pattern";
            self.pattern_names(n, &mut idents);
        }
        if self.spec.dialect.capitalized_patterns_are_constants {
            // A capitalized name in a Rust pattern is a constant or a variant
            // in scope (`None =>`, `Red =>` after `use Color::*`), not bound.
            idents.retain(|n| !n.starts_with(char::is_uppercase));
        }
        if idents.is_empty() || parts {
            return (idents, None);
        }
        let parent = self.graph.path.len().checked_sub(2).map(|i| self.graph.path[i].0);
        let mut ty = match b.ty.strip_prefix('^') {
            // The declaration around the binding types it (Java's `Store a = .., b;`).
            Some(field) => parent.and_then(|p| self.child(p, field)),
            None => (!b.ty.is_empty()).then(|| self.child(node, b.ty)).flatten(),
        }
        .or_else(|| {
            // C#: `Store a = .., b;` types its declarators in the parent.
            (b.ty.is_empty() && b.value.is_empty()).then(|| self.child(parent?, "type")).flatten()
        })
        .and_then(|t| {
            self.ts_union(t).or_else(|| {
                Some(self.declared_name(t))
                    .filter(|t| !matches!(*t, "var" | "auto" | "let" | "_" | ""))
                    .map(str::to_string)
            })
        });
        if ty.is_none() && idents.len() == 1 {
            ty = self.callback_element(node);
        }
        if ty.is_none() && idents.len() == 1 && self.spec.dialect.jsdoc {
            // JSDoc: `@param {Chunk} chunk` on the function, `@type {Chunk}`
            // on the declaration.
            ty = match self.kind(&node) {
                "required_parameter" | "optional_parameter" => {
                    let function = self.parent_of(node).and_then(|p| self.parent_of(p));
                    let doc = function.and_then(|f| self.js_docblock(f));
                    doc.and_then(|d| js_doc_tag(d, &["param", "arg", "argument"], Some(idents[0])))
                }
                "variable_declarator" => self.js_docblock(node).and_then(|d| js_doc_tag(d, &["type"], None)),
                _ => None,
            }
            .and_then(js_doc_class);
        }
        if ty.is_none() && idents.len() == 1 && self.kind(&node) == "simple_parameter" {
            // PHP: `@param \App\Request $request` in the function's docblock.
            let function = self.parent_of(node).and_then(|p| self.parent_of(p));
            if let Some(doc) = function.and_then(|f| self.php_docblock(f)) {
                ty = php_doc_tag(doc, "@param", Some(idents[0])).and_then(|t| php_doc_class(t, self.current_type()));
            }
        }
        if ty.is_none() && idents.len() == 1 {
            let value = if b.value.is_empty() {
                let found = self.kids(node, true).find(|c| self.roles.of(*c).graph.construction_field != 0);
                found
            } else if self.kind(&node) == "for_in_statement" && !self.operator_is(node, "of") {
                // `for (const k in o)`: a key, no value of `o`.
                None
            } else {
                self.child(node, b.value)
            };
            let value = value.or_else(|| {
                // C++'s `auto s = new Store(1);`: the value sits in the declarator.
                let name = self.child(node, b.names)?;
                self.child(name, "value")
            });
            ty = value.and_then(|v| {
                (self.instantiated_class(v).map(str::to_string))
                    .or_else(|| self.constructed_type(v))
                    .or_else(|| self.called_function(v))
                    .or_else(|| self.field_value(v))
                    .or_else(|| self.value_type(v))
            });
        }
        // CommonJS's `const fs = require("fs")`: a module, not a result.
        let ty = ty.filter(|t| t != "()require");
        (idents, ty)
    }

    /// TS/JS: the untyped first parameter of a callback given to an array's
    /// method (`types.filter(t => ..)`) or to a helper taking the array first
    /// (`filter(types, t => ..)`, `forEach`, `some`, `map`, ...): an element,
    /// the array's type (arrays are their element's type). `node` is the
    /// parameter, or an arrow function's bare one (`t => ..`).
    fn callback_element(&self, node: Node<'a>) -> Option<String> {
        if !js_like(self.spec) {
            return None;
        }
        let path = &self.graph.path;
        let k = path.len().checked_sub(1)?;
        let func = match self.kind(&node) {
            "arrow_function" => k,
            "required_parameter" | "optional_parameter" => k.checked_sub(2)?,
            _ => return None,
        };
        if !matches!(self.path_kind(func), "arrow_function" | "function_expression") {
            return None;
        }
        let args = path.get(func.checked_sub(1)?)?.0;
        let call = path.get(func.checked_sub(2)?)?.0;
        if self.kind(&args) != "arguments" || self.kind(&call) != "call_expression" {
            return None;
        }
        let callee = self.child(call, "function")?;
        if self.kind(&callee) == "identifier"
            && !ARRAY_METHODS.contains(&self.text(callee))
            && !ARRAY_HELPERS.contains(&self.text(callee))
        {
            // A function's callback: its parameter's type, if the file
            // declares the function so (resolved when the file is read).
            let i = self.kids(args, true).position(|a| a == path[func].0)?;
            let j = match self.kind(&node) {
                "arrow_function" => 0,
                _ => {
                    let params = path[k - 1].0;
                    let j = self.kids(params, true).position(|p| p == node)?;
                    j
                }
            };
            return Some(format!("{CALLBACK}{}{CALLBACK}{i}{CALLBACK}{j}{CALLBACK}", self.text(callee)));
        }
        if self.kind(&node) != "arrow_function" && path[k - 1].0.named_child(0) != Some(node) {
            // An element is an array method's callback's first parameter.
            return None;
        }
        let array = match self.kind(&callee) {
            "member_expression" if ARRAY_METHODS.contains(&self.text(self.child(callee, "property")?)) => {
                self.child(callee, "object")?
            }
            "identifier"
                if ARRAY_METHODS.contains(&self.text(callee)) || ARRAY_HELPERS.contains(&self.text(callee)) =>
            {
                let first = args.named_child(0)?;
                if first == path[func].0 {
                    return None;
                }
                first
            }
            _ => return None,
        };
        self.value_type(array)
    }

    /// TS: a declared union of named types (`n: A | B | undefined`), as `A|B`
    /// (a receiver of it reaches each one's members; `null | A` is `A`);
    /// `None` when it is no union or names no type.
    fn ts_union(&self, t: Node<'a>) -> Option<String> {
        if !js_like(self.spec) {
            return None;
        }
        let mut t = t;
        while self.kind(&t) == "type_annotation" || self.kind(&t) == "parenthesized_type" {
            t = t.named_child(0)?;
        }
        if self.kind(&t) != "union_type" {
            return None;
        }
        let mut names: Vec<&'a str> = Vec::new();
        let mut stack = vec![t];
        while let Some(n) = stack.pop() {
            match self.kind(&n) {
                "union_type" | "parenthesized_type" => {
                    stack.extend(self.kids(n, true).collect::<Vec<_>>().into_iter().rev());
                }
                "predefined_type" | "literal_type" | "null" | "undefined" => {}
                _ => {
                    let name = self.declared_name(n);
                    if !plain_name(name) || self.roles.is_keyword(name) || names.len() >= MAX_UNION {
                        return None;
                    }
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
        }
        (!names.is_empty()).then(|| names.join("|"))
    }

    /// TS/JS: the type of a value that is another typed value (`const t = type`,
    /// `const e = list[i]`, `for (const t of types)`: arrays are their
    /// element's type, see `type_name`), as a local's type.
    fn value_type(&self, v: Node<'a>) -> Option<String> {
        if !js_like(self.spec) {
            return None;
        }
        match self.receiver(v, 0) {
            Pending::Done(Receiver::Type(t)) => Some(t),
            Pending::Done(Receiver::Returns(f)) => Some(format!("(){f}")),
            Pending::Field(owner, field) => Some(format!("{owner}{FIELD_OF}{field}")),
            _ => None,
        }
    }

    /// A value that is a field of a value of known type (`t.a`, `make().a`,
    /// `t!.a`), as a local's type `T{FIELD_OF}a`.
    fn field_value(&self, v: Node<'a>) -> Option<String> {
        let (obj, member) = self.roles.of(v).graph.member;
        if member == 0 || obj == 0 || self.roles.of(v).graph.scoped {
            return None;
        }
        match self.receiver(v, 0) {
            Pending::Field(owner, field) => Some(format!("{owner}{FIELD_OF}{field}")),
            _ => None,
        }
    }

    /// Names in a pattern: the node itself when it is a name, else the names below it.
    fn pattern_names(&self, node: Node<'a>, out: &mut Vec<&'a str>) {
        let mut nodes = Vec::new();
        self.pattern_name_nodes(node, &mut nodes);
        out.extend(nodes.into_iter().map(|n| self.text(n)));
    }

    /// [`Self::pattern_names`]' nodes. A key of a pattern (`{ parent: p }`)
    /// names what is read, not what is bound.
    pub(super) fn pattern_name_nodes(&self, node: Node<'a>, out: &mut Vec<Node<'a>>) {
        if self.roles.of(node).graph.name {
            out.push(node);
            return;
        }
        if self.roles.of(node).graph.member.1 != 0 {
            return;
        }
        // The walk lists every node of its tree before any is visited, so a
        // pattern's node is always in the list (no parent is asked of
        // tree-sitter, which walks down from the root to find it).
        let Some((flat, root)) = self.listed(node) else { return };
        let fields = &self.roles.graph_fields;
        let key_field = self.roles.field_id("key").map_or(0, |f| f.get());
        let end = flat.next_of(root);
        let mut ancestors: Vec<usize> = Vec::new();
        let (mut j, mut seen) = (root, 0);
        while j < end {
            while ancestors.last().is_some_and(|&a| flat.next_of(a) <= j) {
                ancestors.pop();
            }
            seen += 1;
            if seen > MAX_PATTERN_NODES {
                return;
            }
            let n = flat.get(j);
            let role = self.roles.by_id(n.kind).graph;
            // Type annotations and values inside a pattern bind nothing, nor do
            // member targets (`self.x = ..` binds no local); a value that is a
            // name is bound (`{ y: why }`), unless it is a parameter's default
            // (`NAME` of Python's `def f(c=NAME)` is read); a type is never
            // (`Store` of C++'s `void add(Store* s)` is a type reference). The
            // root's own field does not count.
            let field = if j == root { 0 } else { n.field };
            let key = field != 0 && field == key_field;
            let value = field != 0 && fields.values.contains(&field);
            let default = value
                && ancestors.last().is_some_and(|&p| self.roles.kind_name(flat.get(p).kind).contains("parameter"));
            let a_type = field != 0 && fields.type_fields.contains(&field);
            let leaf = flat.next_of(j) == j + 1;
            if role.name && leaf && !key && !default && !a_type {
                out.push(n.node);
            }
            let into_type = key || value || a_type;
            if !into_type && role.member.1 == 0 && !leaf {
                ancestors.push(j);
                j += 1;
            } else {
                j = flat.next_of(j);
            }
        }
    }

    /// TS: notes a function `name` of one type parameter whose
    /// result is not declared or is that parameter (see
    /// `GraphState::generic_results`).
    pub(super) fn ts_generic_result(&mut self, func: Node<'a>, name: Node<'a>) {
        if !js_like(self.spec) {
            return;
        }
        let Some(params) = self.child(func, "type_parameters").filter(|p| p.named_child_count() == 1) else { return };
        let Some(param) = params.named_child(0).and_then(|p| self.child(p, "name")) else { return };
        let result = self.child(func, "return_type").and_then(|t| t.named_child(0));
        if result.is_none_or(|t| self.text(t) == self.text(param)) {
            self.graph.generic_results.insert(self.text(name));
        }
    }

    /// TS: notes the typed parameters of the callbacks function `name` takes
    /// (see `GraphState::callbacks`).
    pub(super) fn ts_callback_params(&mut self, func: Node<'a>, name: Node<'a>) {
        if !js_like(self.spec) {
            return;
        }
        let Some(params) = self.child(func, "parameters") else { return };
        let mut found: Vec<CallbackParam> = Vec::new();
        for (i, p) in self.kids(params, true).enumerate() {
            let Some(ft) =
                self.child(p, "type").and_then(|t| t.named_child(0)).filter(|t| self.kind(t) == "function_type")
            else {
                continue;
            };
            let Some(inner) = self.child(ft, "parameters") else { continue };
            let mut c2 = inner.walk();
            for (j, q) in inner.named_children(&mut c2).enumerate() {
                if let Some(t) = self.child(q, "type").and_then(|t| self.ts_type(t, 0)) {
                    found.push((i, j, t));
                }
            }
        }
        if found.is_empty() {
            return;
        }
        // Declarations of one name that disagree tell nothing.
        match self.graph.callbacks.entry(self.text(name)) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(Some(found));
            }
            std::collections::hash_map::Entry::Occupied(mut e) if e.get().as_ref() != Some(&found) => {
                e.insert(None);
            }
            std::collections::hash_map::Entry::Occupied(_) => {}
        }
    }

    /// TS: `createNode<Decl>(k)` with `createNode` among the file's
    /// `generic_results`: `Decl`.
    fn ts_generic_call(&self, call: Node<'a>) -> Option<String> {
        let callee = self.child(call, "function").filter(|c| self.kind(c) == "identifier")?;
        if !self.graph.generic_results.contains(self.text(callee)) {
            return None;
        }
        let args = self.child(call, "type_arguments").filter(|a| a.named_child_count() == 1)?;
        let name = self.declared_name(args.named_child(0)?);
        (plain_name(name) && !self.roles.is_keyword(name)).then(|| name.to_string())
    }

    /// The type an expression constructs: `new T()`, `T{}`, `&T{}`, `T { .. }`,
    /// `T::new()` (a path call on a capitalized type whose name starts with `new`,
    /// `default`, `from` or `with`); in TS, a cast to a union is `A|B` and
    /// `createNode<Decl>(k)` of a [`GraphState::generic_results`] function a `Decl`.
    pub(super) fn constructed_type(&self, mut value: Node<'a>) -> Option<String> {
        for _ in 0..3 {
            let role = self.roles.of(value);
            if role.graph.call_field != 0 && js_like(self.spec) {
                if let Some(t) = self.ts_generic_call(value) {
                    return Some(t);
                }
            }
            if let Some(cast) = role.graph.cast {
                let count = value.named_child_count();
                let t = self.child(value, "type").or_else(|| match cast {
                    crate::lang::CastType::First => value.named_child(0),
                    crate::lang::CastType::Last => value.named_child(count.checked_sub(1)?),
                })?;
                // TS: `x as A | B` is `A|B` (see `ts_union`).
                if let Some(union) = self.ts_union(t) {
                    return Some(union);
                }
                let name = self.type_name(t);
                let plain = plain_name(name);
                return (plain && !self.roles.is_keyword(name)).then(|| name.to_string());
            }
            if role.graph.construction_field != 0 {
                let t = self.child_id(value, role.graph.construction_field)?;
                return Some(self.type_name(t).to_string()).filter(|t| !t.is_empty());
            }
            if self.kind(&value) == "object_creation_expression" {
                // PHP's `new Store()`: the class is the first child, in no field.
                let t = value.named_child(0).filter(|t| matches!(self.kind(t), "name" | "qualified_name"))?;
                return Some(self.type_name(t).to_string()).filter(|t| !t.is_empty());
            }
            if role.graph.call_field != 0 {
                let callee = self.child_id(value, role.graph.call_field)?;
                if self.spec.dialect.new_builtin && self.text(callee) == "new" {
                    // Go's `new(T)`, `new(pkg.T)`: a *T.
                    let t = self.child(value, "arguments")?.named_child(0)?;
                    let name = match self.kind(&t) {
                        "selector_expression" => self.text(self.child(t, "field")?),
                        _ => self.type_name(t),
                    };
                    let plain = plain_name(name);
                    return (plain && !self.roles.is_keyword(name)).then(|| name.to_string());
                }
                let (obj, member) = self.roles.of(callee).graph.member;
                if obj == 0 || self.kind(&callee) != "scoped_identifier" {
                    return None;
                }
                let ty = self.text(self.child_id(callee, obj)?);
                let f = self.text(self.child_id(callee, member)?);
                let constructor = ["new", "default", "from", "with"].iter().any(|p| f.starts_with(p));
                let capitalized = ty.chars().next().is_some_and(char::is_uppercase);
                return (constructor && capitalized && !ty.contains("::")).then(|| ty.to_string());
            }
            // `&T{}`, `(expr)`, Go's expression lists of one value.
            if value.named_child_count() != 1 {
                return None;
            }
            value = value.named_child(0)?;
        }
        None
    }

    /// `F` of a value `F()`, `pkg.F()`, `T::f()`, `x.m()`, marked as a result
    /// (`()F`) for [`Receiver::Returns`].
    fn called_function(&self, mut value: Node<'a>) -> Option<String> {
        for _ in 0..3 {
            let role = self.roles.of(value);
            if role.graph.call_field != 0 {
                let callee = self.child_id(value, role.graph.call_field)?;
                let croles = self.roles.of(callee).graph;
                let name = if croles.name {
                    callee
                } else if self.spec.dialect.method_call_results && self.kind(&callee) == "field_expression" {
                    // `let y = x.make();`: what `make` of `x`'s type returns
                    // (`T{FIELD_OF}()make`), when `x`'s type is known.
                    return match self.receiver(value, 0) {
                        Pending::Field(owner, field) => Some(format!("{owner}{FIELD_OF}{field}")),
                        _ => self.child_id(callee, croles.member.1).map(|n| format!("(){}", self.text(n))),
                    };
                } else if croles.member.1 != 0 {
                    self.child_id(callee, croles.member.1)?
                } else {
                    return None;
                };
                let name = self.text(name);
                return (!name.is_empty() && !self.roles.is_keyword(name)).then(|| format!("(){name}"));
            }
            if value.named_child_count() != 1 {
                return None;
            }
            value = value.named_child(0)?;
        }
        None
    }

    /// An import statement's module and names.
    fn import(&mut self, node: Node<'a>, plain: bool) {
        let line = node.start_position().row as u32 + 1;
        let kind = if plain { ImportKind::Import } else { ImportKind::Reexport };
        match self.spec.dialect.imports {
            ImportSyntax::Ecmascript => {
                let Some(source) = self.child(node, "source") else { return };
                let spec = trim_quotes(self.text(source)).to_string();
                let mut names = Vec::new();
                self.ts_import_names(node, &mut names, 0);
                if !plain && names.is_empty() {
                    // `export * from "./x"`
                    names.push(("*".to_string(), "*".to_string()));
                }
                self.graph.imports.push(ImportFact { line, spec, names, kind });
            }
            ImportSyntax::Go => {
                let mut specs = Vec::new();
                collect_kind(node, "import_spec", &mut specs);
                for s in specs {
                    let Some(path) = self.child(s, "path") else { continue };
                    let spec = trim_quotes(self.text(path)).to_string();
                    let alias = match self.child(s, "name") {
                        Some(n) => self.text(n).to_string(),
                        None => spec.rsplit('/').next().unwrap_or("").to_string(),
                    };
                    let line = s.start_position().row as u32 + 1;
                    self.graph.imports.push(ImportFact { line, spec, names: vec![("*".to_string(), alias)], kind });
                }
            }
            ImportSyntax::RustUse => {
                let Some(arg) = self.child(node, "argument") else { return };
                let mut out: Vec<(String, String, String)> = Vec::new();
                self.rust_use(arg, "", &mut out, 0);
                let mut by_spec: Vec<ImportFact> = Vec::new();
                for (spec, name, alias) in out {
                    match by_spec.iter_mut().find(|i| i.spec == spec) {
                        Some(i) => i.names.push((name, alias)),
                        None => by_spec.push(ImportFact { line, spec, names: vec![(name, alias)], kind }),
                    }
                }
                self.graph.imports.extend(by_spec);
            }
            ImportSyntax::Using => {
                let mut name_node = None;
                let mut alias = String::new();
                let mut is_static = false;
                for (i, child) in self.kids(node, false).enumerate() {
                    if !child.is_named() {
                        is_static |= self.text(child) == "static";
                        continue;
                    }
                    if node.field_name_for_child(i as u32) == Some("name") {
                        alias = self.text(child).to_string();
                    } else if name_node.is_none() {
                        name_node = Some(child);
                    }
                }
                let Some(n) = name_node else { return };
                let spec = self.text(n).split_whitespace().collect::<String>();
                let what = if is_static { "static" } else { "*" };
                self.graph.imports.push(ImportFact { line, spec, names: vec![(what.to_string(), alias)], kind });
            }
            ImportSyntax::Python => self.python_import(node, line, kind),
            ImportSyntax::Java => self.java_import(node, line, kind),
            ImportSyntax::PhpUse => self.php_use(node, line, kind),
            ImportSyntax::Include => {
                // `#include "x.h"` / `<x.h>` (resolved only if the project has
                // the header). It names nothing: what a header declares is
                // defined in some source file, so names resolve project-wide
                // (a prototype and its definition are both candidates).
                let Some(path) = self.child(node, "path") else { return };
                let text = self.text(path);
                let spec = text.trim_matches(|c| c == '"' || c == '<' || c == '>').to_string();
                self.graph.imports.push(ImportFact { line, spec, names: Vec::new(), kind });
            }
            ImportSyntax::None => {}
        }
    }

    /// Ruby's `require "x"`, `require_relative "x"`, `load "x.rb"`: imports of
    /// everything the file defines (Ruby's constants are global once loaded).
    fn ruby_require(&mut self, node: Node<'a>) {
        // By field id: looking fields up by name costs string compares per call.
        let Some(method) = self.child_id(node, self.roles.of(node).graph.call_field) else { return };
        let relative = match self.text(method) {
            "require" | "load" => false,
            "require_relative" => true,
            _ => return,
        };
        if self.child_id(node, self.roles.of(node).graph.member.0).is_some() {
            return;
        }
        let Some(args) = self.child(node, "arguments") else { return };
        let Some(arg) = args.named_child(0).filter(|a| self.kind(a) == "string") else { return };
        if self.kids(arg, true).any(|c| self.kind(&c) == "interpolation") {
            return;
        }
        let path = trim_quotes(self.text(arg));
        let spec = if relative { format!("./{path}") } else { path.to_string() };
        let line = node.start_position().row as u32 + 1;
        let names = vec![("*".to_string(), "*".to_string())];
        self.graph.imports.push(ImportFact { line, spec, names, kind: ImportKind::Import });
    }

    /// Whether the name at `k` is the argument of Ruby's `include M`, `extend M`
    /// or `prepend M` (a supertype of the enclosing class or module).
    fn ruby_mixin(&self, k: usize) -> bool {
        if self.spec.rules.mixins != Mixins::Modules || k < 2 {
            return false;
        }
        let path = &self.graph.path;
        let (list, call) = (path[k - 1].0, path[k - 2].0);
        self.kind(&list) == "argument_list"
            && self.kind(&call) == "call"
            && self.child(call, "receiver").is_none()
            && self.child(call, "method").is_some_and(|m| matches!(self.text(m), "include" | "extend" | "prepend"))
    }

    /// Python's `import a.b as c` / `from .m import f as g`.
    fn python_import(&mut self, node: Node<'a>, line: u32, kind: ImportKind) {
        let src = self.src;
        let text = |n: Node<'a>| src.get(n.byte_range()).unwrap_or("");
        let dotted = |n: Node<'a>| text(n).split_whitespace().collect::<String>();
        let items: Vec<Node<'a>> = self.children(node, "name");
        if self.kind(&node) == "import_statement" {
            // `import a.b` binds `a` to the package; `import a.b as c` binds `c`
            // to the module `a.b`.
            for item in items {
                let (module, alias) = match self.kind(&item) {
                    "aliased_import" => {
                        let m = self.child(item, "name").map(dotted).unwrap_or_default();
                        let a = self.child(item, "alias").map(|a| text(a).to_string());
                        (m, a.unwrap_or_default())
                    }
                    _ => {
                        let m = dotted(item);
                        let first = m.split('.').next().unwrap_or("").to_string();
                        (m, first)
                    }
                };
                let names = vec![("*".to_string(), alias)];
                self.graph.imports.push(ImportFact { line, spec: module, names, kind });
            }
            return;
        }
        let module = self.child(node, "module_name").map(dotted).unwrap_or_default();
        let mut names: Vec<(String, String)> = Vec::new();
        for item in items {
            if self.kind(&item) == "aliased_import" {
                let n = self.child(item, "name").map(dotted).unwrap_or_default();
                let a = self.child(item, "alias").map(|a| text(a).to_string()).unwrap_or_default();
                names.push((n, a));
            } else {
                let n = dotted(item);
                names.push((n.clone(), n));
            }
        }
        if self.kids(node, true).any(|c| self.kind(&c) == "wildcard_import") {
            names.push(("*".to_string(), "*".to_string()));
        }
        self.graph.imports.push(ImportFact { line, spec: module, names, kind });
    }

    /// Java's `import a.b.C;`, `import a.b.*;`, `import static a.b.C.m;`: the
    /// package (or, for static imports, the class) and the name.
    fn java_import(&mut self, node: Node<'a>, line: u32, kind: ImportKind) {
        let Some(path) = self.kids(node, true).find(|c| matches!(self.kind(c), "scoped_identifier" | "identifier"))
        else {
            return;
        };
        let full = self.text(path).split_whitespace().collect::<String>();
        let glob = self.kids(node, true).any(|c| self.kind(&c) == "asterisk");
        let is_static = self.kids(node, false).any(|c| !c.is_named() && self.text(c) == "static");
        let (spec, names) = if glob {
            (full, vec![("*".to_string(), "*".to_string())])
        } else {
            let (pkg, name) = full.rsplit_once('.').unwrap_or(("", &full));
            (pkg.to_string(), vec![(name.to_string(), name.to_string())])
        };
        // A static import names a class's member: its spec is the class.
        let spec = if is_static { format!("static {spec}") } else { spec };
        self.graph.imports.push(ImportFact { line, spec, names, kind });
    }

    /// PHP's `use A\B\C as D;` and `use A\{B, C};`: one import per name, its
    /// spec the namespace.
    fn php_use(&mut self, node: Node<'a>, line: u32, kind: ImportKind) {
        let mut prefix = String::new();
        let mut clauses: Vec<Node<'a>> = Vec::new();
        for c in self.kids(node, true) {
            match self.kind(&c) {
                "namespace_name" => prefix = self.text(c).to_string(),
                "namespace_use_clause" => clauses.push(c),
                "namespace_use_group" => clauses
                    .extend(self.kids(c, true).filter(|g| self.kind(g) == "namespace_use_clause").collect::<Vec<_>>()),
                _ => {}
            }
        }
        for clause in clauses {
            let Some(target) = self.kids(clause, true).find(|c| matches!(self.kind(c), "qualified_name" | "name"))
            else {
                continue;
            };
            let full = self.text(target).trim_start_matches('\\');
            let full = if prefix.is_empty() { full.to_string() } else { format!("{prefix}\\{full}") };
            let (ns, name) = full.rsplit_once('\\').unwrap_or(("", &full));
            let alias = self.child(clause, "alias").map_or(name, |a| self.text(a));
            let names = vec![(name.to_string(), alias.to_string())];
            self.graph.imports.push(ImportFact { line, spec: ns.to_string(), names, kind });
        }
    }

    fn ts_import_names(&self, node: Node<'a>, out: &mut Vec<(String, String)>, level: usize) {
        if level > 4 {
            return;
        }
        for child in self.kids(node, true) {
            match self.kind(&child) {
                "import_specifier" | "export_specifier" => {
                    let name = self.child(child, "name").map(|n| self.text(n)).unwrap_or("");
                    let alias = self.child(child, "alias").map_or(name, |n| self.text(n));
                    out.push((trim_quotes(name).to_string(), trim_quotes(alias).to_string()));
                }
                "namespace_import" | "namespace_export" => {
                    let alias = child.named_child(0).map(|n| self.text(n)).unwrap_or("*");
                    out.push(("*".to_string(), alias.to_string()));
                }
                "identifier" if self.kind(&node) == "import_clause" => {
                    out.push(("default".to_string(), self.text(child).to_string()));
                }
                "import_clause" | "named_imports" | "export_clause" => self.ts_import_names(child, out, level + 1),
                _ => {}
            }
        }
    }

    /// CommonJS's `exports.Logger = WebpackLogger`: the name `Logger` other
    /// files import is made of the class, as TS's `type Logger =
    /// WebpackLogger` is (an `inherit` reference received by the alias).
    pub(super) fn export_alias(&mut self, line: u32, alias: &'a str, class: &'a str) {
        let receiver = Pending::Done(Receiver::Type(alias.to_string()));
        self.graph.refs.push(PendingRef { line, name: class, role: RefRole::Inherit, receiver, args: None });
    }

    /// JavaScript's `this.x = value` in a method: the field `x` of the class is
    /// of the type its JSDoc says (`/** @type {Chunk} */`), else of the class
    /// the value constructs (`new Chunk()`); the first assignment the walk
    /// meets (the constructor's) decides. For receivers like `this.x.m()`.
    fn js_this_field(&mut self, node: Node<'a>) {
        let Some(owner) = self.current_type().map(str::to_string) else { return };
        let (Some(left), Some(right)) = (self.child(node, "left"), self.child(node, "right")) else { return };
        if self.kind(&left) != "member_expression" || self.child(left, "object").map(|o| self.text(o)) != Some("this") {
            return;
        }
        let Some(field) = self.child(left, "property").map(|p| self.text(p).to_string()) else { return };
        let key = (owner, field);
        if self.graph.fields.contains_key(&key) {
            return;
        }
        let ty = self
            .js_docblock(node)
            .and_then(|d| js_doc_tag(d, &["type"], None))
            .and_then(js_doc_class)
            .or_else(|| self.constructed_type(right).filter(|t| plain_name(t)))
            .or_else(|| {
                // `this.logger = logger` with the parameter `logger` typed
                // (`@param {Logger} logger`, or `options.logger` of a pattern).
                if self.kind(&right) != "identifier" {
                    return None;
                }
                self.lookup_local(self.text(right)).cloned().flatten().filter(|t| plain_name(t))
            });
        if let Some(t) = ty {
            self.graph.fields.insert(key, t);
        }
    }

    /// CommonJS's imports, as the ES imports they stand for: `const m =
    /// require("./m")` is `import m from` (what the module exports: a member
    /// `m.f` is the module's `f`, `new m()` its class `m`; the name is a
    /// reference, as the class it often is), `const { a, b: c } = require("./m")` is
    /// `import { a, b as c }`, `const c = require("./m").b` is `import { b as
    /// c }`. Where it is written (at the top or in a function), it is the
    /// file's import.
    fn commonjs_require(&mut self, node: Node<'a>) {
        let (Some(name), Some(mut value)) = (self.child(node, "name"), self.child(node, "value")) else { return };
        let mut member = None;
        if self.kind(&value) == "member_expression" {
            member = self.child(value, "property").map(|p| self.text(p));
            match self.child(value, "object") {
                Some(o) => value = o,
                None => return,
            }
        }
        if !self.is_require(value) {
            return;
        }
        let Some(args) = self.child(value, "arguments") else { return };
        let mut kids = self.kids(args, true);
        let (Some(arg), None) = (kids.next(), kids.next()) else { return };
        if self.kind(&arg) != "string" {
            return;
        }
        let spec = trim_quotes(self.text(arg)).to_string();
        let mut names: Vec<(String, String)> = Vec::new();
        match (self.kind(&name), member) {
            ("identifier", Some(m)) => names.push((m.to_string(), self.text(name).to_string())),
            ("identifier", None) => names.push(("default".to_string(), self.text(name).to_string())),
            ("object_pattern", None) => {
                for p in self.kids(name, true) {
                    match self.kind(&p) {
                        "shorthand_property_identifier_pattern" => {
                            let n = self.text(p).to_string();
                            names.push((n.clone(), n));
                        }
                        "pair_pattern" => {
                            let (Some(k), Some(v)) = (self.child(p, "key"), self.child(p, "value")) else { continue };
                            if self.kind(&v) == "identifier" {
                                names.push((trim_quotes(self.text(k)).to_string(), self.text(v).to_string()));
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => return,
        }
        if names.is_empty() {
            return;
        }
        let line = node.start_position().row as u32 + 1;
        self.graph.imports.push(ImportFact { line, spec, names, kind: ImportKind::Import });
    }

    /// Flattens a Rust use tree into `(module path, name, alias)`.
    fn rust_use(&self, node: Node<'a>, prefix: &str, out: &mut Vec<(String, String, String)>, level: usize) {
        if level > 8 {
            return;
        }
        let join = |a: &str, b: &str| if a.is_empty() { b.to_string() } else { format!("{a}::{b}") };
        match self.kind(&node) {
            "scoped_use_list" => {
                let path = self.child(node, "path").map(|p| self.text(p)).unwrap_or("");
                let prefix = join(prefix, path);
                if let Some(list) = self.child(node, "list") {
                    self.rust_use(list, &prefix, out, level + 1);
                }
            }
            "use_list" => {
                for child in self.kids(node, true) {
                    self.rust_use(child, prefix, out, level + 1);
                }
            }
            "use_as_clause" => {
                let path = self.child(node, "path").map(|p| self.text(p)).unwrap_or("");
                let alias = self.child(node, "alias").map(|p| self.text(p)).unwrap_or("");
                let full = join(prefix, path);
                let (spec, name) = full.rsplit_once("::").unwrap_or(("", &full));
                out.push((spec.to_string(), name.to_string(), alias.to_string()));
            }
            "use_wildcard" => {
                let path = self.text(node).trim_end_matches('*').trim_end_matches("::");
                out.push((join(prefix, path), "*".to_string(), "*".to_string()));
            }
            _ => {
                let full = join(prefix, &self.text(node).split_whitespace().collect::<String>());
                let (spec, name) = full.rsplit_once("::").unwrap_or(("", &full));
                let name = if name == "self" { spec.rsplit("::").next().unwrap_or("") } else { name };
                out.push((spec.to_string(), name.to_string(), name.to_string()));
            }
        }
    }

    /// A Rust `mod x;` (a module in another file).
    pub(super) fn module_item(&mut self, node: Node<'a>) {
        if self.child(node, "body").is_some() {
            return;
        }
        if let Some(name) = self.child(node, "name") {
            let line = node.start_position().row as u32 + 1;
            let spec = self.text(name).to_string();
            self.graph.def_names.insert(name.start_byte());
            self.graph.imports.push(ImportFact { line, spec, names: Vec::new(), kind: ImportKind::Mod });
        }
    }

    /// A plain reference of a name the tree does not hold (a C++ macro
    /// blanked out before parsing), on a line (1-based).
    pub(super) fn macro_reference(&mut self, line: u32, name: &'a str) {
        if !self.graph_facts {
            return;
        }
        let receiver = Pending::Done(Receiver::None);
        self.graph.refs.push(PendingRef { line, name, role: RefRole::Other, receiver, args: None });
    }

    /// A name leaf in code: decides its role and receiver, or leaves it out when it
    /// is a definition's own name, a keyword or a local name.
    pub(super) fn reference(&mut self, node: Node<'a>, text: &'a str) {
        let keyword = self.roles.is_keyword(text) && !self.roles.of(node).never_keyword;
        if text.bytes().all(|b| b == b'_') || keyword || self.graph.type_params.contains(text) {
            return;
        }
        let Some(k) = self.graph.path.len().checked_sub(1) else { return };
        // TS/JS: the key of an object literal or destructuring pattern is a
        // property of the object's type, as far as its context tells
        // (`const o: T = { name: 1 }`, `const { name } = t`, `return { .. }`
        // with a declared result); `{ a }` also reads the variable `a`.
        let key = if js_like(self.spec) {
            self.ts_object_key(k)
        } else if !self.spec.dialect.field_entry_kinds.is_empty() {
            self.literal_field(k)
        } else {
            None
        };
        let line = node.start_position().row as u32 + 1;
        if self.graph.def_names.contains(&node.start_byte()) {
            // `const host: Host = { read() { .. } }`: the method is defined
            // here, and implements the context type's `read`.
            if let Some((Some(receiver @ Pending::Done(Receiver::Type(_))), _)) = key {
                self.graph.refs.push(PendingRef { line, name: text, role: RefRole::Other, receiver, args: None });
            }
            return;
        }
        if let Some((receiver, shorthand)) = key {
            // A key whose object's type the file does not tell is left out (as
            // a member of an unknown receiver, it was listed with every
            // same-named member: mostly wrong, compared with the compiler).
            if let Some(receiver) = receiver {
                self.graph.refs.push(PendingRef { line, name: text, role: RefRole::Other, receiver, args: None });
            }
            if !shorthand {
                return;
            }
        }
        if k >= 1
            && self.spec.dialect.macros
            && self.path_kind(k - 1) == "token_tree"
            && self.rust_macro_token(self.graph.path[k - 1].0, node, text, line)
        {
            return;
        }
        let path = &self.graph.path;
        let role_at = |i: usize| self.path_role(i);
        if k >= 1 && role_at(k - 1).keyword_argument && path[k].1 == self.roles.graph_fields.name {
            // Python's `f(key=value)`: `key` names a parameter, not a definition.
            return;
        }
        // A member: `recv.name`, `Recv::name`.
        let mut top = k;
        let mut object = None;
        if k >= 1 {
            let (obj_f, mem_f) = role_at(k - 1).member;
            if mem_f != 0 && path[k].1 == mem_f {
                object = self.child_id(path[k - 1].0, obj_f);
                top = k - 1;
            } else if self.spec.dialect.method_references {
                // A method reference, `Type::m`, `this::m`, `list::add` (its
                // parts have no field names): the method of what is before `::`.
                let m = path[k - 1].0;
                if self.path_kind(k - 1) == "method_reference" && m.named_child(0).is_some_and(|o| o.id() != node.id())
                {
                    let last = m.named_child(m.named_child_count().saturating_sub(1));
                    if last.is_some_and(|l| l.id() == node.id()) {
                        object = m.named_child(0);
                        top = k - 1;
                    }
                }
            }
        }
        for _ in 0..4 {
            let wrapper = role_at(top.saturating_sub(1));
            if top >= 1 && wrapper.type_wrapper && (wrapper.member.0 == 0 || path[top].1 != wrapper.member.0) {
                top -= 1;
            } else {
                break;
            }
        }
        // `models` of `models.Base`: a qualifier, not the supertype.
        let is_object = k >= 1 && role_at(k - 1).member.0 != 0 && path[k].1 == role_at(k - 1).member.0;
        // Python's `class A(metaclass=M)`: `M` is no base.
        let keyword_value = k >= 1 && role_at(k - 1).keyword_argument;
        if self.in_parameter_declarator(k) {
            return;
        }
        if (k.saturating_sub(3)..k).any(|i| role_at(i).scope) {
            // The package or namespace name itself.
            return;
        }
        let mut call = None;
        let role = if let Some(at) = self.in_import(k) {
            if !self.imported_name(at, k) {
                return;
            }
            RefRole::Import
        } else if (self.in_inherit(k) || self.ruby_mixin(k)) && !is_object && !keyword_value {
            RefRole::Inherit
        } else if (top >= 1 && role_at(top - 1).call_field != 0 && role_at(top - 1).call_field == path[top].1)
            || (top >= 1 && role_at(top - 1).object_creation && path[top].1 == 0)
        {
            // The callee of a call, or the method of a call that holds its own
            // receiver (Java's `method_invocation`, Ruby's `call`).
            call = Some(top - 1);
            RefRole::Call
        } else if k >= 1 && role_at(k - 1).call_field != 0 && role_at(k - 1).call_field == path[k].1 {
            call = Some(k - 1);
            RefRole::Call
        } else if role_at(k).type_name
            || (top >= 1 && self.roles.graph_fields.type_fields.contains(&path[top].1))
            || (top >= 1 && role_at(top - 1).type_list)
        {
            RefRole::Type
        } else {
            RefRole::Other
        };
        // Java's constructor reference `Store::new` calls `Store`'s constructors.
        let role = match role {
            RefRole::Other if k >= 1 && object.is_none() && self.constructor_reference(k - 1, node) => RefRole::Call,
            role => role,
        };
        let (role, qualifier) = match object {
            // `type S = Status.Missing | ..`: decided when the file is read
            // (whether `Status` is a namespace it declares).
            Some(o)
                if role == RefRole::Type
                    && js_like(self.spec)
                    && self.kind(&o) == "identifier"
                    && self.path_kind(k - 1) == "nested_type_identifier"
                    && self.in_inherit(k - 1) =>
            {
                (RefRole::Inherit, Some((self.text(o), self.receiver(o, 0))))
            }
            _ => (role, None),
        };
        let ts_constituent = qualifier.is_some();
        if let Some((q, fallback)) = qualifier {
            self.graph.qualified_constituents.push((self.graph.refs.len(), q, fallback));
        }
        let receiver = match (role, object) {
            (RefRole::Inherit, _) => {
                // `class Log(models.Model)`, Go's embedded `metav1.ObjectMeta`:
                // the qualifier (a module, package or namespace) is kept to
                // resolve the supertype through.
                let qualifier = match object.filter(|_| !ts_constituent).map(|o| self.receiver(o, 0)) {
                    Some(Pending::Name(q, _)) => Some(q.to_string()),
                    Some(Pending::Done(Receiver::Name(q))) => Some(q),
                    _ => None,
                };
                match (self.current_type(), qualifier) {
                    (Some(t), Some(q)) => Pending::Done(Receiver::Qualified(t.to_string(), q)),
                    (Some(t), None) => Pending::Done(Receiver::Type(t.to_string())),
                    (None, _) => Pending::Done(Receiver::Unknown),
                }
            }
            (RefRole::Import, _) => Pending::Done(Receiver::None),
            (_, Some(o)) => self.receiver(o, 0),
            (_, None) => match self.go_literal_key(k) {
                GoKey::FieldOf(receiver) => receiver,
                GoKey::AnonymousField => return,
                GoKey::NotAKey => {
                    // A TS value does not hide a type of its name where a type
                    // is written (`const Type = ctor(); let t: Type`).
                    let type_space = role == RefRole::Type && js_like(self.spec);
                    // Java: a call names a method, never a variable
                    // (`Path pathNotFound = pathNotFound(path)`).
                    let method_space = role == RefRole::Call && self.spec.dialect.calls_name_methods;
                    let local = !type_space && !method_space && self.lookup_local(text).is_some();
                    if local || self.is_module_alias(text) {
                        return;
                    }
                    Pending::Done(Receiver::None)
                }
            },
        };
        let args = call.and_then(|c| self.argument_count(c));
        self.graph.refs.push(PendingRef { line, name: text, role, receiver, args });
    }

    /// Rust: a name among a macro's tokens (`format!("{}", tcx.def_path_str(d))`,
    /// `assert_eq!(a.len(), 2)`, `debug!(.., Foo::new())`), which the grammar
    /// leaves unparsed: a call when a `(..)` group follows it, a member when
    /// `.` or `::` comes before it, received by the name or path before that
    /// (typed as in code: `tcx` a parameter `TyCtxt`). Whether it was pushed;
    /// a name alone, or after `fn`, is read as any other name is.
    fn rust_macro_token(&mut self, tokens: Node<'a>, node: Node<'a>, text: &'a str, line: u32) -> bool {
        // The group's tokens, listed once per group and kept for the file (a
        // node's siblings are found by walking from the first: asking each
        // name's, or listing a group again after each group inside it, was
        // quadratic in long macros: Rust extraction 46% -> 59% over parsing).
        if !self.graph.macro_tokens.contains_key(&tokens.id()) {
            let all = self.kids(tokens, false).collect();
            self.graph.macro_tokens.insert(tokens.id(), all);
        }
        let Some(all) = self.graph.macro_tokens.get(&tokens.id()) else { return false };
        let at = all.partition_point(|n| n.start_byte() < node.start_byte());
        if all.get(at).is_none_or(|n| n.id() != node.id()) {
            return false;
        }
        let token = |i: Option<usize>| i.and_then(|i| all.get(i)).copied();
        let back = |n: usize| token(at.checked_sub(n));
        let next = token(Some(at + 1));
        let group = next.filter(|n| self.kind(n) == "token_tree" && self.text(*n).starts_with('('));
        let before = back(1);
        let receiver = match before.map(|b| self.text(b)) {
            Some(".") => match back(2) {
                Some(o) if matches!(self.kind(&o), "identifier" | "self") => self.receiver(o, 0),
                // `make().m()`, `Tcx::new().m()`: what `make` / `new` is
                // declared to return, as in code.
                Some(o) if self.kind(&o) == "token_tree" && self.text(o).starts_with('(') => {
                    match back(3).filter(|f| self.kind(f) == "identifier") {
                        Some(f) => Pending::Done(Receiver::Returns(self.text(f).to_string())),
                        None => Pending::Done(Receiver::Unknown),
                    }
                }
                _ => Pending::Done(Receiver::Unknown),
            },
            // (A path's inner segment, `b` of `a::b::f`, is read as before.)
            Some("::") if next.is_some_and(|n| self.text(n) == "::") => return false,
            Some("::") => {
                // The path before: names joined by `::` (`a::b::f(..)`).
                let segment = |n: &Node<'a>| matches!(self.kind(n), "identifier" | "crate" | "super" | "self");
                let Some(last) = back(2).filter(segment) else { return false };
                let mut first = (2, last);
                while back(first.0 + 1).is_some_and(|p| self.text(p) == "::") {
                    match back(first.0 + 2).filter(segment) {
                        Some(p) => first = (first.0 + 2, p),
                        None => break,
                    }
                }
                match first.0 == 2 && self.kind(&last) == "identifier" {
                    true => Pending::Name(self.text(last), None),
                    false => match self.src.get(first.1.start_byte()..last.end_byte()) {
                        Some(path) => Pending::Name(path, None),
                        None => return false,
                    },
                }
            }
            Some("fn") => return false,
            // A macro's call in a macro's tokens (`impl_default!(..)` in a
            // `macro_rules!` body): a call of the macro, as outside.
            _ if next.is_some_and(|n| self.text(n) == "!")
                && token(Some(at + 2)).is_some_and(|g| self.kind(&g) == "token_tree") =>
            {
                self.graph.refs.push(PendingRef {
                    line,
                    name: text,
                    role: RefRole::Call,
                    receiver: Pending::Done(Receiver::None),
                    args: None,
                });
                return true;
            }
            _ if group.is_some() => {
                // A plain call: a local of that name holds a closure.
                if self.lookup_local(text).is_some() || self.is_module_alias(text) {
                    return true;
                }
                Pending::Done(Receiver::None)
            }
            _ => return false,
        };
        let (role, args) = match group {
            Some(g) => (RefRole::Call, self.group_arguments(g)),
            None => (RefRole::Other, None),
        };
        self.graph.refs.push(PendingRef { line, name: text, role, receiver, args });
        true
    }

    /// The arguments of a macro's `(..)` token group: its commas outside
    /// inner groups, plus one (none when empty; a trailing comma adds none).
    fn group_arguments(&self, group: Node<'a>) -> Option<u8> {
        let n = group.child_count();
        if n <= 2 {
            return Some(0);
        }
        let commas = self.kids(group, false).filter(|c| self.text(*c) == ",").count();
        let trailing = group.child(n - 2).is_some_and(|c| self.text(c) == ",");
        let count = commas + 1 - trailing as usize;
        (count <= crate::extract::MAX_ARGS).then_some(count as u8)
    }

    /// Java: whether `node` is the type of a constructor reference
    /// (`Store::new`, `ArrayList<String>::new`) that the path's node at `at` is.
    fn constructor_reference(&self, at: usize, node: Node<'a>) -> bool {
        let parent = self.graph.path[at].0;
        self.spec.dialect.method_references
            && self.path_kind(at) == "method_reference"
            && parent.named_child(0).is_some_and(|o| o.id() == node.id())
            && parent.child(parent.child_count().saturating_sub(1)).is_some_and(|n| self.text(n) == "new")
    }

    /// The number of arguments a call passes, where overloads are told apart
    /// by it ([`GraphFields::arguments`]): `f(a, b)` 2, `new T()` and C#'s
    /// `new T { .. }` 0; comments are no arguments.
    /// The number of arguments of the call at `call` in the path (read from
    /// the walk's node list: asking tree-sitter for the field and the named
    /// children was 5% of Java's parse time).
    fn argument_count(&self, call: usize) -> Option<u8> {
        let field = self.roles.graph_fields.arguments;
        if field == 0 {
            return None;
        }
        let flat = self.flat?;
        let at = self.graph.path.get(call)?.3 as usize;
        let Some(list) = flat.child_with_field(at, field) else {
            // `new T { A = 1 }`, `new T`: the constructor without arguments.
            let kind = self.roles.kind_name(flat.get(at).kind);
            return matches!(kind, "object_creation_expression" | "new_expression").then_some(0);
        };
        let n = flat
            .children(list)
            .filter(|&a| flat.named(a) && !self.roles.kind_name(flat.get(a).kind).contains("comment"))
            .count();
        (n <= crate::extract::MAX_ARGS).then_some(n as u8)
    }

    /// The arguments of an argument list, comments left out; `None` past
    /// [`crate::extract::MAX_ARGS`].
    fn arguments_in(&self, list: Node<'a>) -> Option<u8> {
        let n = self.kids(list, true).filter(|a| !self.kind(a).contains("comment")).count();
        (n <= crate::extract::MAX_ARGS).then_some(n as u8)
    }

    /// Ruby's `super` (bare, or `super(..)`): a call of the method it is in,
    /// as the supertypes declare it (the receiver a [`SUPER_OF`] type).
    fn ruby_super(&mut self, node: Node<'a>) {
        let Some(t) = self.current_type() else { return };
        let mut up = self.parent_of(node);
        while let Some(p) = up {
            match self.kind(&p) {
                "method" | "singleton_method" => break,
                "class" | "module" | "singleton_class" | "program" => return,
                _ => up = self.parent_of(p),
            }
        }
        let Some(name) = up.and_then(|m| self.child(m, "name")).map(|n| self.text(n)) else { return };
        let receiver = Pending::Done(Receiver::Type(format!("{SUPER_OF}{t}")));
        let line = node.start_position().row as u32 + 1;
        self.graph.refs.push(PendingRef { line, name, role: RefRole::Call, receiver, args: None });
    }

    /// A constructor's call of another (Java's `this(..)` / `super(..)`, C#'s
    /// `: this(..)` / `: base(..)`): a call of the type's own constructor, or
    /// of its base class's (named as the class declaration writes it,
    /// received by the type seen as its bases), with its number of arguments.
    fn constructor_chain(&mut self, node: Node<'a>) {
        let java = self.spec.dialect.chain(self.kind(&node)) == Some(Chain::ExplicitConstructor);
        if java && self.child(node, "object").is_some() {
            // `outer.super(..)`: an inner class's base, not followed.
            return;
        }
        let to_base = match java {
            true => node.child_by_field_name("constructor").is_some_and(|c| self.kind(&c) == "super"),
            false => self.text(node).trim_start_matches(':').trim_start().starts_with("base"),
        };
        let mut up = self.parent_of(node);
        while let Some(p) = up {
            if matches!(
                self.kind(&p),
                "class_declaration" | "record_declaration" | "enum_declaration" | "struct_declaration"
            ) {
                break;
            }
            up = self.parent_of(p);
        }
        let Some(class) = up else { return };
        let Some(own) = self.child(class, "name").map(|n| self.text(n)) else { return };
        let (name, receiver) = if to_base {
            let base = if java {
                self.child(class, "superclass").and_then(|s| s.named_child(0))
            } else {
                let list = self.kids(class, true).find(|c| self.kind(c) == "base_list");
                list.and_then(|l| l.named_child(0))
            };
            // Its last name (`ImmutableCollection.ArrayBasedBuilder<E>`:
            // `ArrayBasedBuilder`), as a constructor is named.
            let Some(base) = base.map(|b| last_name(self.text(b))).filter(|b| plain_name(b)) else { return };
            (base, Receiver::Type(format!("{SUPER_OF}{own}")))
        } else {
            (own, Receiver::Type(own.to_string()))
        };
        let list = match java {
            true => self.child(node, "arguments"),
            false => {
                let list = self.kids(node, true).find(|c| self.kind(c) == "argument_list");
                list
            }
        };
        let args = list.and_then(|l| self.arguments_in(l));
        let line = node.start_position().row as u32 + 1;
        self.graph.refs.push(PendingRef { line, name, role: RefRole::Call, receiver: Pending::Done(receiver), args });
    }

    /// A C++ namespace opened first in the body of the one that named the
    /// file's scope, after comments and forward declarations at most
    /// (`namespace leveldb { class Env; namespace log { class Reader`):
    /// the file's definitions are in both (`leveldb::log::Reader`). One after
    /// other declarations, or a second one, leaves the scope as it is.
    fn nested_namespace(&mut self, node: Node<'a>) {
        let Some(body) = self.parent_of(node).filter(|b| self.kind(b) == "declaration_list") else { return };
        if self.parent_of(body).map(|p| p.id()) != self.graph.scope_node {
            return;
        }
        // Before it only comments and forward declarations (`class Env;`,
        // which define nothing).
        let declares = |c: &Node<'a>| {
            let forward = matches!(self.kind(c), "class_specifier" | "struct_specifier" | "union_specifier")
                && self.child(*c, "body").is_none();
            self.kind(c) != "comment" && !forward
        };
        let first = self.kids(body, true).find(declares);
        if first.map(|f| f.id()) != Some(node.id()) {
            return;
        }
        let Some(name) = self.child(node, "name") else { return };
        let name = self.text(name);
        self.graph.scope = format!("{}::{name}", self.graph.scope);
        self.graph.scope_node = Some(node.id());
    }

    /// A C++ constructor's member initializer naming a base class (`Derived()
    /// : Base(1), m_(2)`): a call of the base's constructor, received by the
    /// class seen as its bases, with its number of arguments; one naming the
    /// class itself (`Derived() : Derived(0)`) delegates to its own. Which
    /// names are bases is read from the class's base list, so an initializer
    /// of a constructor defined outside its class is one only when it
    /// delegates; the others initialize members (left as their references).
    fn cpp_base_initializer(&mut self, node: Node<'a>) {
        let Some(written) = node.named_child(0) else { return };
        // The name's leaf: `ns::Base` → `Base`, `Base<T>` → `Base`.
        let mut leaf = written;
        for _ in 0..8 {
            match self.kind(&leaf) {
                "qualified_identifier" | "template_method" | "template_type" => match self.child(leaf, "name") {
                    Some(n) => leaf = n,
                    None => return,
                },
                _ => break,
            }
        }
        if !matches!(self.kind(&leaf), "field_identifier" | "type_identifier" | "identifier") {
            return;
        }
        let name = self.text(leaf);
        // The constructor's class: the class whose body holds it, or the
        // qualifier of an out-of-line definition (`Derived::Derived`).
        // The node is the path's last: its ancestors are the path's (asking
        // tree-sitter for a parent walks down from the root).
        let path = &self.graph.path;
        let up = path.len().saturating_sub(1);
        let Some(f) = (0..up).rev().find(|&i| self.path_kind(i) == "function_definition") else { return };
        let body = f.checked_sub(1).filter(|&b| self.path_kind(b) == "field_declaration_list");
        let class = body
            .and_then(|b| b.checked_sub(1))
            .filter(|&c| matches!(self.path_kind(c), "class_specifier" | "struct_specifier"))
            .map(|c| path[c].0);
        let function = path[f].0;
        let last = |n: Node<'a>| last_name(self.text(n));
        let (own, bases): (&str, Vec<&str>) = match class {
            Some(c) => {
                let Some(own) = self.child(c, "name").map(last) else { return };
                let clause = self.kids(c, true).find(|n| self.kind(n) == "base_class_clause");
                let mut bases = Vec::new();
                if let Some(clause) = clause {
                    for b in self.kids(clause, true) {
                        if matches!(self.kind(&b), "type_identifier" | "qualified_identifier" | "template_type") {
                            bases.push(last(b));
                        }
                    }
                }
                (own, bases)
            }
            None => {
                let mut declarator = self.child(function, "declarator");
                while let Some(d) = declarator.filter(|d| self.kind(d) != "qualified_identifier") {
                    declarator = self.child(d, "declarator");
                }
                let Some(scope) = declarator.and_then(|d| self.child(d, "scope")) else { return };
                (last(scope), Vec::new())
            }
        };
        let receiver = if name == own {
            Receiver::Type(own.to_string())
        } else if bases.contains(&name) {
            Receiver::Type(format!("{SUPER_OF}{own}"))
        } else {
            return;
        };
        let list = self.kids(node, true).find(|c| matches!(self.kind(c), "argument_list" | "initializer_list"));
        let args = list.and_then(|l| self.arguments_in(l));
        let line = leaf.start_position().row as u32 + 1;
        // Its name is this call, not also a member's reference.
        self.graph.def_names.insert(leaf.start_byte());
        self.graph.refs.push(PendingRef { line, name, role: RefRole::Call, receiver: Pending::Done(receiver), args });
    }

    /// TS's `T["name"]` (a `lookup_type`: what field `name` of `T` is declared as)
    /// names the field: a reference of it with receiver `T`;
    /// `T["a"]["b"]` names `b` of `T`'s field `a`.
    fn ts_indexed_access(&mut self, node: Node<'a>) {
        let (Some(object), Some(index)) = (node.named_child(0), node.named_child(1)) else { return };
        let Some(name) = self.string_key(index) else { return };
        let receiver = match self.kind(&object) {
            "type_identifier" => Pending::Done(Receiver::Type(self.text(object).to_string())),
            "lookup_type" => {
                let (Some(inner), Some(field)) = (object.named_child(0), object.named_child(1)) else { return };
                let Some(field) = self.string_key(field) else { return };
                if self.kind(&inner) != "type_identifier" {
                    return;
                }
                Pending::Field(self.text(inner).to_string(), Cow::Borrowed(field))
            }
            _ => return,
        };
        let line = index.start_position().row as u32 + 1;
        self.graph.refs.push(PendingRef { line, name, role: RefRole::Other, receiver, args: None });
    }

    /// The name a TS literal type `"name"` spells, when it is one.
    fn string_key(&self, index: Node<'a>) -> Option<&'a str> {
        let string = Some(index)
            .filter(|i| self.kind(i) == "literal_type")?
            .named_child(0)
            .filter(|s| self.kind(s) == "string")?;
        let fragment =
            string.named_child(0).filter(|f| self.kind(f) == "string_fragment" && string.named_child_count() == 1)?;
        Some(self.text(fragment)).filter(|t| plain_name(t))
    }

    /// Go's `T{Name: v}`: the key `Name` at `k` is a field of `T`, not a plain
    /// name (it was bound to a function `Name` of the package, and a local
    /// `name` hid the key `name`). An elided inner literal (`[]T{{Name: v}}`,
    /// `map[K]*T{k: {Name: v}}`) has the element type of the one around it.
    fn go_literal_key(&self, k: usize) -> GoKey<'a> {
        if !self.spec.dialect.elided_literal_types || k < 3 {
            return GoKey::NotAKey;
        }
        let path = &self.graph.path;
        let keyed = path[k - 2].0;
        if !self.path_role(k - 1).literal_element
            || !self.path_role(k - 2).keyed_element
            || self.child(keyed, "key").map(|n| n.id()) != Some(path[k - 1].0.id())
        {
            return GoKey::NotAKey;
        }
        let Some(ty) = self.go_literal_type(k - 3, 0) else {
            // The literal's type is a named type of another literal's elements:
            // the file does not tell which.
            return GoKey::FieldOf(Pending::Done(Receiver::Unknown));
        };
        let ty = if self.kind(&ty) == "pointer_type" { ty.named_child(0).unwrap_or(ty) } else { ty };
        match self.kind(&ty) {
            "type_identifier" | "qualified_type" | "generic_type" => {
                let name = self.type_name(ty);
                match name.is_empty() || self.graph.type_params.contains(name) {
                    true => GoKey::FieldOf(Pending::Done(Receiver::Unknown)),
                    false => GoKey::FieldOf(Pending::Done(Receiver::Type(name.to_string()))),
                }
            }
            "struct_type" => GoKey::AnonymousField,
            // A map's keys and an array's indexes are expressions.
            _ => GoKey::NotAKey,
        }
    }

    /// The type node of the Go literal whose `literal_value` is at `i` in the
    /// path: its own type, or the element (key, value) type of the literal
    /// around an elided one. None when that is a named type.
    fn go_literal_type(&self, i: usize, depth: usize) -> Option<Node<'a>> {
        let path = &self.graph.path;
        if !self.path_role(i).literal_value || i == 0 || depth > 4 {
            return None;
        }
        let parent = path[i - 1].0;
        if self.path_role(i - 1).composite_literal {
            return self.child(parent, "type");
        }
        if !self.path_role(i - 1).literal_element || i < 3 {
            return None;
        }
        let around = path[i - 2].0;
        let (outer, position) = if self.path_role(i - 2).keyed_element {
            let is_key = self.child(around, "key").map(|n| n.id()) == Some(parent.id());
            (i - 3, if is_key { "key" } else { "value" })
        } else if self.path_role(i - 2).literal_value {
            (i - 2, "value")
        } else {
            return None;
        };
        let outer = self.go_literal_type(outer, depth + 1)?;
        match (self.kind(&outer), position) {
            ("map_type", p) => self.child(outer, p),
            ("slice_type" | "array_type" | "implicit_length_array_type", _) => self.child(outer, "element"),
            _ => None,
        }
    }

    /// TS/JS: a binding that destructures an object (`const { a, b } = t`, a
    /// parameter `{ a }: T`): the object's type when known (`t: T`) and the
    /// names its shorthand keys bind.
    fn ts_destructured(&self, node: Node<'a>) -> Option<(Option<String>, Vec<&'a str>)> {
        if !js_like(self.spec) {
            return None;
        }
        let pattern = self.child(node, "name").or_else(|| self.child(node, "pattern"))?;
        if !self.roles.of(pattern).graph.object_literal {
            return None;
        }
        let owner = match (self.child(node, "type"), self.child(node, "value")) {
            (Some(t), _) => self.ts_type(t, 0),
            (None, Some(v)) => match self.receiver(v, 0) {
                Pending::Done(Receiver::Type(t)) => Some(t),
                // `const { a } = make()`, `= t.b`: fields of a result or a field.
                Pending::Done(Receiver::Returns(f)) => Some(format!("(){f}")),
                Pending::Field(o, f) if o.matches(FIELD_OF).count() + 2 <= MAX_CHAIN => {
                    Some(format!("{o}{FIELD_OF}{f}"))
                }
                _ => None,
            },
            (None, None) => None,
        };
        let mut keys = Vec::new();
        for c in self.kids(pattern, true) {
            if self.kind(&c) == "shorthand_property_identifier_pattern" {
                keys.push(self.text(c));
            }
        }
        Some((owner, keys))
    }

    /// JSDoc: the names of a parameter's object pattern that the function's
    /// docblock types as its members (`@param {Logger} options.logger`), with
    /// their classes.
    fn js_doc_destructured(&self, node: Node<'a>) -> Vec<(&'a str, String)> {
        if !matches!(self.kind(&node), "required_parameter" | "optional_parameter") {
            return Vec::new();
        }
        let function = self.parent_of(node).and_then(|p| self.parent_of(p));
        let Some(doc) = function.and_then(|f| self.js_docblock(f)) else { return Vec::new() };
        js_doc_members(doc).into_iter().filter_map(|(name, ty)| Some((name, js_doc_class(ty)?))).collect()
    }

    /// TS/JS: when the name at `k` is an object's key (`{ a: 1 }`, `{ a }`,
    /// `{ a = 1 }`, the patterns `const { a: b } = ..` and `{ a }`), the
    /// receiver it is a property of (None: the file does not tell), and
    /// whether it is a shorthand (also a variable's name).
    fn ts_object_key(&self, k: usize) -> Option<(Option<Pending<'a>>, bool)> {
        if k < 2 {
            return None;
        }
        let path = &self.graph.path;
        let (object, shorthand) = if self.path_role(k - 1).object_literal {
            (k - 1, true)
        } else if self.path_role(k - 1).object_entry && self.path_role(k - 2).object_literal {
            let entry = path[k - 1].0;
            let me = Some(path[k].0.id());
            if self.child(entry, "key").map(|n| n.id()) == me {
                (k - 2, false)
            } else if self.child(entry, "left").map(|n| n.id()) == me {
                (k - 2, true)
            } else {
                return None;
            }
        } else if self.path_role(k - 2).object_literal && self.path_role(k - 1).function {
            // `{ read() { .. } }`: a method's name.
            (k - 2, false)
        } else {
            return None;
        };
        Some((self.ts_context(object, 0), shorthand))
    }

    /// Rust's `T { name: v }`, `T { name }` and the pattern `T { name, .. }`;
    /// C#'s `new T { Name = v }` (and `Inner = { X = v }` inside it): when the
    /// name at `k` is such a field, the literal's type as its receiver, and
    /// whether it is a shorthand (also a variable's name).
    fn literal_field(&self, k: usize) -> Option<(Option<Pending<'a>>, bool)> {
        if k < 3 {
            return None;
        }
        let path = &self.graph.path;
        let me = Some(path[k].0.id());
        if self.spec.dialect.object_initializers {
            // identifier ← assignment_expression (left) ← initializer_expression ← creation
            if !self.path_role(k - 2).field_entry {
                return None;
            }
            let assignment = path[k - 1].0;
            if self.kind(&assignment) != "assignment_expression" || self.child(assignment, "left").map(|l| l.id()) != me
            {
                return None;
            }
            return Some((self.csharp_initialized(k - 2, 0), false));
        }
        if !self.path_role(k - 1).field_entry {
            return None;
        }
        let entry = path[k - 1].0;
        let (ty, shorthand) = match self.kind(&entry) {
            "field_initializer" if self.child(entry, "field").map(|f| f.id()) == me => {
                (self.child(path[k - 3].0, "name"), false)
            }
            "shorthand_field_initializer" => (self.child(path[k - 3].0, "name"), true),
            "field_pattern" if self.child(entry, "name").map(|f| f.id()) == me => {
                (self.child(path[k - 2].0, "type"), self.path_kind(k) == "shorthand_field_identifier")
            }
            _ => return None,
        };
        let ty = match self.type_name(ty?) {
            "Self" => self.current_type()?,
            t => t,
        };
        let plain = plain_name(ty);
        Some((plain.then(|| Pending::Done(Receiver::Type(ty.to_string()))), shorthand))
    }

    /// The type a C# initializer at `i` in the path fills: `new T { .. }`'s
    /// `T`, or for `Inner = { .. }` inside one, the field `Inner` of it.
    fn csharp_initialized(&self, i: usize, depth: usize) -> Option<Pending<'a>> {
        if i == 0 || depth > 4 {
            return None;
        }
        let path = &self.graph.path;
        let parent = path[i - 1].0;
        match self.kind(&parent) {
            "object_creation_expression" => {
                let t = self.type_name(self.child(parent, "type")?);
                let plain = plain_name(t);
                plain.then(|| Pending::Done(Receiver::Type(t.to_string())))
            }
            "assignment_expression" if i >= 2 && self.path_role(i - 2).field_entry => {
                let field = self.child(parent, "left").filter(|l| self.roles.of(*l).graph.name)?;
                match self.csharp_initialized(i - 2, depth + 1)? {
                    Pending::Done(Receiver::Type(t)) => Some(Pending::Field(t, Cow::Borrowed(self.text(field)))),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The type an object literal or pattern at `o` in the path has from its
    /// context: a declared type (variable, field, parameter, `as T`, a
    /// function's declared result for what it returns), the value a pattern
    /// destructures, what a key's value is a property of. None when the file
    /// does not tell.
    fn ts_context(&self, o: usize, depth: usize) -> Option<Pending<'a>> {
        if o == 0 || depth > 6 {
            return None;
        }
        let path = &self.graph.path;
        let (parent, field) = (path[o - 1].0, self.roles.field_name(path[o].1));
        let typed = |t: Option<Node<'a>>| Some(Pending::Done(Receiver::Type(self.ts_type(t?, 0)?)));
        match self.kind(&parent) {
            "variable_declarator" | "public_field_definition" | "required_parameter" | "optional_parameter" => {
                if let Some(t) = self.child(parent, "type") {
                    return typed(Some(t));
                }
                match (self.kind(&parent), field) {
                    // `const { a } = value`: `value.a`.
                    ("variable_declarator", Some("name")) => Some(self.receiver(self.child(parent, "value")?, 0)),
                    _ => None,
                }
            }
            // An element of an array in context `T[]` is a `T`.
            "array" | "parenthesized_expression" => self.ts_context(o - 1, depth + 1),
            "as_expression" | "satisfies_expression" => {
                typed(parent.named_child(parent.named_child_count().checked_sub(1)?))
            }
            "type_assertion" => typed(parent.named_child(0)?.named_child(0)),
            "pair" | "pair_pattern" if field == Some("value") && o >= 2 => {
                let key = self.child(parent, "key").filter(|key| self.roles.of(*key).graph.name)?;
                Some(match self.ts_context(o - 2, depth + 1) {
                    Some(Pending::Done(Receiver::Type(t))) => Pending::Field(t, Cow::Borrowed(self.text(key))),
                    _ => Pending::Done(Receiver::Unknown),
                })
            }
            "return_statement" => {
                let f = (0..o - 1).rev().find(|&i| self.path_role(i).function)?;
                typed(self.child(path[f].0, "return_type"))
            }
            "arrow_function" if field == Some("body") => typed(self.child(parent, "return_type")),
            // `x.opts = { .. }`: what the target is declared as (an unknown
            // target says nothing: `module.exports = { start }`).
            "assignment_expression" if field == Some("right") => match self.receiver(self.child(parent, "left")?, 0) {
                Pending::Done(Receiver::Unknown) => None,
                known => Some(known),
            },
            _ => None,
        }
    }

    /// The one named type a TS type annotation stands for: `T`, `ns.T`,
    /// `T<U>`, `T[]` and `readonly T[]` (for their elements), `T | undefined`,
    /// `Partial<T>`. None for other shapes (object types, functions, unions
    /// of several types).
    fn ts_type(&self, t: Node<'a>, depth: usize) -> Option<String> {
        if depth > 8 {
            return None;
        }
        match self.kind(&t) {
            "type_annotation" | "readonly_type" | "parenthesized_type" | "array_type" => {
                self.ts_type(t.named_child(0)?, depth + 1)
            }
            "type_identifier" => Some(self.text(t).to_string()).filter(|n| !self.roles.is_keyword(n)),
            "nested_type_identifier" => self.child(t, "name").map(|n| self.text(n).to_string()),
            "generic_type" => {
                let name = self.ts_type(self.child(t, "name")?, depth + 1)?;
                if TS_SAME_MEMBERS.contains(&name.as_str()) || ts_array(&name) {
                    return self.ts_type(self.child(t, "type_arguments")?.named_child(0)?, depth + 1);
                }
                Some(name)
            }
            "union_type" => {
                let mut found = None;
                for c in self.kids(t, true) {
                    if matches!(self.kind(&c), "predefined_type" | "literal_type") {
                        continue;
                    }
                    if found.is_some() {
                        return None;
                    }
                    found = Some(c);
                }
                self.ts_type(found?, depth + 1)
            }
            _ => None,
        }
    }

    /// Whether the name at `k`, inside the import statement at `at`, is a name the
    /// statement imports: not a segment of the module's path (`a` of `crate::a::B`,
    /// `Foo` of `using Foo.Bar`) and not the alias it is bound to.
    fn imported_name(&self, at: usize, k: usize) -> bool {
        let path = &self.graph.path;
        let statement = path[at].0;
        match self.path_kind(at) {
            // Python's `import a.b`: modules, not definitions.
            k if self.spec.dialect.module_import_kinds.contains(&k) => return false,
            // Java's `import a.b.*;`: a package.
            "import_declaration" if self.path_kid_of_kind(at, "asterisk", statement) => return false,
            _ => {}
        }
        for (i, &(_, field, ..)) in path.iter().enumerate().take(k + 1).skip(at + 1) {
            let (obj_f, _) = self.path_role(i - 1).member;
            if obj_f != 0 && field == obj_f {
                return false;
            }
            let name = self.roles.field_name(field);
            match (self.path_kind(i - 1), name) {
                (_, Some("alias")) => return false,
                ("scoped_use_list", Some("path")) | ("use_wildcard", _) => return false,
                // Go's `import st "path"`, C#'s `using X = A.B;`: the alias.
                ("import_spec" | "using_directive", Some("name")) => return false,
                // Python's `from a.b import c`: `a`, `b`.
                ("import_from_statement", Some("module_name")) => return false,
                // PHP's `use A\B\{C, D}`: `A`, `B`.
                ("namespace_use_declaration", None) if self.path_kind(i) == "namespace_name" => return false,
                _ => {}
            }
        }
        true
    }

    /// Whether the path's node at `at` (`node`) has a child of the kind, read
    /// from the node list's kinds (each name of an import asks).
    fn path_kid_of_kind(&self, at: usize, kind: &str, node: Node<'a>) -> bool {
        match self.flat {
            Some(flat) => {
                flat.children(self.graph.path[at].3 as usize).any(|c| self.roles.kind_name(flat.get(c).kind) == kind)
            }
            None => self.kids(node, false).any(|c| self.kind(&c) == kind),
        }
    }

    /// `typedef struct s {..} t;`: `t` has `s` as its supertype (one record for
    /// both names).
    pub(super) fn alias_of(&mut self, alias: &str, target: Node<'a>) {
        let name = self.text(target);
        if name.is_empty() || alias.is_empty() || name == alias {
            return;
        }
        let line = target.start_position().row as u32 + 1;
        let receiver = Pending::Done(Receiver::Type(alias.to_string()));
        self.graph.refs.push(PendingRef { line, name, role: RefRole::Inherit, receiver, args: None });
    }

    /// Whether the name at `k` is a parameter's own name in a C / C++ parameter
    /// declaration (`s` of `int f(store_t *s)`, a prototype's too).
    fn in_parameter_declarator(&self, k: usize) -> bool {
        let path = &self.graph.path;
        let declarator = self.roles.graph_fields.declarator;
        if declarator == 0 {
            return false;
        }
        for i in self.contexts_above(k).take_while(|&i| i >= k.saturating_sub(5)) {
            let g = self.path_role(i);
            if g.parameter_declaration {
                return path[i + 1].1 == declarator;
            }
            if g.function || g.parameter_list {
                return false;
            }
        }
        false
    }

    /// The index in the path of the import statement the name at `k` is in.
    fn in_import(&self, k: usize) -> Option<usize> {
        let path = &self.graph.path;
        for i in self.contexts_above(k).take_while(|&i| i >= k.saturating_sub(CONTEXT_DEPTH)) {
            let g = self.path_role(i);
            if g.import {
                return Some(i);
            }
            if g.reexport_field != 0 {
                return self.child_id(path[i].0, g.reexport_field).is_some().then_some(i);
            }
            if g.function {
                return None;
            }
        }
        None
    }

    /// Whether the name at `k` names a supertype: in a supertype list (not inside
    /// its generic arguments), in a supertype field, or the type of an embedded field.
    fn in_inherit(&self, k: usize) -> bool {
        let path = &self.graph.path;
        // Six levels up, not counting unions and intersections: `A | B | C`
        // nests to the left, its first constituent one level deeper per `|`.
        // (Unions are contexts: each one met lowers the bound by one.)
        let mut unions = 0;
        for i in self.contexts_above(k) {
            if i + 6 + unions < k {
                return false;
            }
            let g = self.path_role(i);
            unions += usize::from(g.type_union);
            if (g.type_list && !self.ts_transparent_generic(i)) || g.function {
                return false;
            }
            if g.type_alias {
                // `type X = A | (B & C<T>)`: X is made of its constituents
                // (for member lookups, X's supertypes). Not `ns.A`: that may be
                // an enum member as a type (`SyntaxKind.PlusToken`), which the
                // supertype's role would bind as a plain name.
                let value = self.child(path[i].0, "value").map(|v| v.id());
                return value == Some(path[i + 1].0.id())
                    && (i + 1..k).all(|j| {
                        matches!(
                            self.path_kind(j),
                            "union_type"
                                | "intersection_type"
                                | "parenthesized_type"
                                | "generic_type"
                                | "type_arguments"
                        )
                    });
            }
            if g.inherit || (g.inherit_field != 0 && path[i + 1].1 == g.inherit_field) {
                // Not when the list itself is a generic argument (Go's `Pair[K, V]`
                // holds its arguments in `type_elem`s, as interfaces do).
                return !(i.saturating_sub(3)..i).any(|j| self.path_role(j).type_list);
            }
            if g.embedding {
                return self.child_id(path[i].0, self.roles.graph_fields.name).is_none();
            }
        }
        false
    }

    /// The depths above `k` in the path whose nodes are contexts
    /// ([`GraphRole::context`]), nearest first.
    fn contexts_above(&self, k: usize) -> impl Iterator<Item = usize> + '_ {
        let path = &self.graph.path;
        let mut next = k.checked_sub(1).map_or(u32::MAX, |i| path[i].4);
        std::iter::from_fn(move || {
            let at = (next != u32::MAX).then_some(next as usize)?;
            next = at.checked_sub(1).map_or(u32::MAX, |i| path[i].4);
            Some(at)
        })
    }

    /// Whether the type arguments at `i` in the path are those of TS's
    /// `Partial<T>`, `Readonly<T>` or `Required<T>` (T's members, changed).
    fn ts_transparent_generic(&self, i: usize) -> bool {
        let Some(generic) = i.checked_sub(1).map(|p| self.graph.path[p].0) else { return false };
        js_like(self.spec)
            && self.kind(&generic) == "generic_type"
            && self.child(generic, "name").is_some_and(|n| TS_SAME_MEMBERS.contains(&self.text(n)))
    }

    /// A name bound to a whole imported module or package (`fmt`, `* as path`):
    /// its occurrences stand for the module, which is not a definition.
    fn is_module_alias(&self, name: &str) -> bool {
        let imports = &self.graph.imports;
        let mut aliases = self.graph.module_aliases.borrow_mut();
        if aliases.0 != imports.len() {
            let names = imports[aliases.0.min(imports.len())..].iter().flat_map(|i| &i.names);
            let added: Vec<String> = names.filter(|(n, _)| n == "*").map(|(_, a)| a.clone()).collect();
            aliases.1.extend(added);
            aliases.0 = imports.len();
        }
        aliases.1.contains(name)
    }

    /// Generic parameters (`T` of `fn f<T>`, `Pair[K, V]`) are not references.
    fn type_parameters(&mut self, node: Node<'a>, field: &str) {
        let mut names = Vec::new();
        if field.is_empty() {
            for c in self.kids(node, true) {
                if self.roles.of(c).graph.name {
                    names.push(self.text(c));
                }
            }
        } else {
            for c in self.children(node, field) {
                names.push(self.text(c));
            }
        }
        self.graph.type_params.extend(names);
    }

    fn current_type(&self) -> Option<&str> {
        self.current_scope().map(|s| s.name.as_str())
    }

    /// What an object expression is, as far as the file tells.
    fn receiver(&self, o: Node<'a>, level: usize) -> Pending<'a> {
        // TS's `x!` and `(x)` (every grammar's parentheses): the value inside;
        // TS/JS `a && b`: `b`.
        // A node's kind is read once (from its subtree: in a large tree, a
        // cache miss).
        let mut o = o;
        let mut kind_id = o.kind_id();
        for _ in 0..8 {
            let g = self.roles.by_id(kind_id).graph;
            let inner = if g.transparent && o.named_child_count() == 1 {
                o.named_child(0)
            } else if g.binary && self.operator_is(o, "&&") {
                self.child(o, "right")
            } else if self.roles.kind_name(kind_id) == "subscript_expression"
                && js_like(self.spec)
                && self.child(o, "index").is_some_and(|i| !matches!(self.kind(&i), "string" | "template_string"))
            {
                // TS/JS `list[i]`: an element, typed as the array (arrays
                // are their element's type); not `o["key"]`.
                self.child(o, "object")
            } else {
                None
            };
            match inner {
                Some(inner) => {
                    o = inner;
                    kind_id = o.kind_id();
                }
                None => break,
            }
        }
        // PHP's `$x`: the name inside.
        if self.roles.by_id(kind_id).graph.variable_name && self.text(o) != "$this" {
            if let Some(inner) = o.named_child(0) {
                o = inner;
                kind_id = o.kind_id();
            }
        }
        if let Some(path) = self.rust_module_path(o) {
            return Pending::Name(path, None);
        }
        if self.is_super(o, self.roles.kind_name(kind_id)) {
            // A member of the supertypes (a field of one, further down a chain,
            // is the type's own).
            // Python's `super(Base, self)`: the supertypes of the type named,
            // after it in the order (`super(lookups.Exact, self)`: `Exact`).
            if let Some(named) = self.super_type_argument(o).filter(|_| level == 0) {
                return Pending::Done(Receiver::Type(format!("{SUPER_OF}{named}")));
            }
            return match self.current_type() {
                Some(t) if level == 0 => Pending::Done(Receiver::Type(format!("{SUPER_OF}{t}"))),
                Some(t) => Pending::Done(Receiver::Type(t.to_string())),
                None => Pending::Done(Receiver::Unknown),
            };
        }
        let role = self.roles.by_id(kind_id);
        let text = self.text(o);
        if role.graph.self_ || matches!(text, "this" | "self" | "Self" | "$this") {
            return match self.current_type() {
                Some(t) => Pending::Done(Receiver::Type(t.to_string())),
                None => Pending::Done(Receiver::Unknown),
            };
        }
        if text.starts_with('@') && !text.starts_with("@@") && o.child_count() == 0 {
            // A Ruby instance variable: typed by its assignments in the class.
            return Pending::Name(text, self.current_type().map(str::to_string));
        }
        if role.graph.name {
            return match self.lookup_local(text) {
                Some(Some(t)) => match (t.rsplit_once(FIELD_OF), t.strip_prefix("()")) {
                    (Some((owner, field)), _) => Pending::Field(owner.to_string(), Cow::Owned(field.to_string())),
                    (None, Some(f)) => Pending::Done(Receiver::Returns(f.to_string())),
                    (None, None) => Pending::Done(Receiver::Type(t.clone())),
                },
                Some(None) => Pending::Done(Receiver::Unknown),
                None => Pending::Name(text, self.current_type().map(str::to_string)),
            };
        }
        let (obj_f, mem_f) = role.graph.member;
        // Java's `make().run()`: a method invocation without an object is a
        // call of a plain name (whose result is below), not a member.
        let plain_call = mem_f != 0 && role.graph.call_field != 0 && self.child_id(o, obj_f).is_none();
        // Rust's `x.make().size()`: what `make` of `x`'s type returns, as a
        // member of it (Java's `this.make().run()` is one node).
        let rust_method = (self.spec.dialect.method_call_results
            && self.roles.kind_name(kind_id) == "call_expression"
            && level < MAX_CHAIN)
            .then(|| self.child(o, "function"))
            .flatten()
            .filter(|f| self.kind(f) == "field_expression")
            .and_then(|f| Some((self.child(f, "value")?, self.child(f, "field")?)));
        if let Some((inner, member)) = rust_method {
            return self.member_receiver(inner, member, level, true);
        }
        if mem_f != 0 && level < MAX_CHAIN && !plain_call {
            let (Some(inner), Some(member)) = (self.child_id(o, obj_f), self.child_id(o, mem_f)) else {
                return Pending::Done(Receiver::Unknown);
            };
            if role.graph.scoped {
                // `a::b::Type::f`: the path's last segment names the receiver.
                return Pending::Name(self.text(member), None);
            }
            return self.member_receiver(inner, member, level, false);
        }
        if let Some(t) = self.instantiated_class(o).map(str::to_string).or_else(|| self.constructed_type(o)) {
            return Pending::Done(Receiver::Type(t));
        }
        match self.called_function(o) {
            // `make().add()`: whatever `make` is declared to return.
            Some(f) => Pending::Done(Receiver::Returns(f.trim_start_matches("()").to_string())),
            None => Pending::Done(Receiver::Unknown),
        }
    }

    /// A member of a value (`inner.member`): a field of its type, of a
    /// chain's last field, or of what a call returns. `call`: the member is
    /// called and the value is its result (Rust's `x.make()`), written
    /// `()make` (the method's, even where a field has the name).
    fn member_receiver(&self, inner: Node<'a>, member: Node<'a>, level: usize, call: bool) -> Pending<'a> {
        let member = match call {
            true => Cow::Owned(format!("(){}", self.text(member))),
            false => Cow::Borrowed(self.text(member)),
        };
        // A discriminated value's field is its union type's (the
        // discriminant narrows the value itself only).
        match self.receiver(inner, level + 1) {
            Pending::Done(Receiver::Type(t)) => Pending::Field(undiscriminated(&t).to_string(), member),
            // `a.b.c`: field `c` of field `b` of `a`'s type (`T{FIELD_OF}b`).
            Pending::Field(owner, field) if owner.matches(FIELD_OF).count() + 2 <= MAX_CHAIN => {
                Pending::Field(format!("{owner}{FIELD_OF}{}", undiscriminated(&field)), member)
            }
            // `make().store.add()`, `s.store.add()` with `s = make()`: a
            // field of what `make` is declared to return (`()make`).
            Pending::Done(Receiver::Returns(f)) => Pending::Field(format!("(){}", undiscriminated(&f)), member),
            Pending::Name(n, Some(t)) if self.graph_field_type(&t, n).is_some() => {
                let ty = self.graph_field_type(&t, n).unwrap_or_default();
                Pending::Field(ty, member)
            }
            // Python's and TS's `geos.Point.empty()`, `ns.Store.create()`: a
            // capitalized member of a name that is no local, which the reader
            // finds as a module's type or a type's static field (`module.exports`
            // stays unknown).
            Pending::Name(n, _)
                if matches!(self.spec.rules.modules, Modules::File { .. })
                    && !call
                    && member.starts_with(|c: char| c.is_ascii_uppercase()) =>
            {
                Pending::Field(n.to_string(), member)
            }
            _ => Pending::Done(Receiver::Unknown),
        }
    }

    /// Rust: a path of several segments (`a::b::f()`, `crate::a::T::new()`)
    /// or one that is `crate`, `super` or `self` (`super::f()`, `self::f()`,
    /// whose `self` is the module, not the value): the whole path, which the
    /// reader follows from the file's modules, imports and crates; a path of
    /// one other segment (`T::new()`) names it as other receivers do.
    fn rust_module_path(&self, o: Node<'a>) -> Option<&'a str> {
        if self.spec.rules.modules != Modules::Crate {
            return None;
        }
        let mut first = o;
        while self.kind(&first) == "scoped_identifier" {
            first = self.child(first, "path")?;
        }
        let segments = first != o && matches!(self.kind(&first), "identifier" | "crate" | "super" | "self");
        let module = matches!(self.kind(&o), "crate" | "super" | "self")
            && self.parent_of(o).is_some_and(|p| self.kind(&p).starts_with("scoped_"));
        (segments || module).then(|| self.text(o))
    }

    /// Whether `o` is the enclosing type's value seen as its supertypes
    /// ([`SUPER_OF`]): `super` in TS/JS and Java, C#'s `base`, PHP's `parent`,
    /// Python's `super()` and `super(T, self)`.
    fn is_super(&self, o: Node<'a>, kind: &str) -> bool {
        match self.spec.dialect.super_receivers.iter().find(|(k, _)| *k == kind).map(|&(_, s)| s) {
            Some(Super::Always) => true,
            Some(Super::Text(word)) => self.text(o).eq_ignore_ascii_case(word),
            Some(Super::Call(function)) => self.child(o, "function").is_some_and(|f| self.text(f) == function),
            None => false,
        }
    }

    /// The type a call `super(Base, self)` names first: `Base` (the last name
    /// of `lookups.Exact`); none for `super()` and the other languages' `super`.
    fn super_type_argument(&self, o: Node<'a>) -> Option<&'a str> {
        let args = self.child(o, "arguments")?;
        let first = args.named_child(0)?;
        let name = match self.kind(&first) {
            "identifier" => first,
            // (Not `super(self.__class__, self)`: the enclosing type's.)
            "attribute" if !matches!(self.child(first, "object").map(|o| self.text(o)), Some("self" | "cls")) => {
                self.child(first, "attribute")?
            }
            _ => return None,
        };
        Some(self.text(name)).filter(|n| !n.starts_with("__"))
    }

    fn graph_field_type(&self, ty: &str, field: &str) -> Option<String> {
        self.graph.fields.get(&(ty.to_string(), field.to_string())).cloned()
    }

    /// PHP: the docblock (`/** .. */`) right before a declaration.
    pub(super) fn php_docblock(&self, decl: Node<'a>) -> Option<&'a str> {
        if !self.spec.dialect.docblocks {
            return None;
        }
        let mut prev = self.prev_named_of(decl);
        while let Some(p) = prev {
            match self.kind(&p) {
                "comment" if self.text(p).starts_with("/**") => return Some(self.text(p)),
                "comment" | "attribute_list" => prev = self.prev_named_of(p),
                _ => return None,
            }
        }
        None
    }

    /// The JSDoc comment (`/** .. */`) right before a JavaScript declaration,
    /// or before the statement holding it (`const f = (a) => ..`, `exports.f
    /// = function (a) ..`, `this.x = ..`).
    pub(super) fn js_docblock(&self, decl: Node<'a>) -> Option<&'a str> {
        if !self.spec.dialect.jsdoc {
            return None;
        }
        let mut node = decl;
        for _ in 0..4 {
            if let Some(p) = self.prev_named_of(node) {
                if self.kind(&p) == "comment" {
                    let text = self.text(p);
                    // Only when it ends right before the declaration (one
                    // line break at most: not a comment of its own).
                    let gap = node.start_position().row.saturating_sub(p.end_position().row);
                    return (text.starts_with("/**") && gap <= 1).then_some(text);
                }
            }
            match self.parent_of(node) {
                Some(up)
                    if matches!(
                        self.kind(&up),
                        "variable_declarator"
                            | "lexical_declaration"
                            | "variable_declaration"
                            | "export_statement"
                            | "expression_statement"
                            | "assignment_expression"
                            | "pair"
                    ) =>
                {
                    node = up
                }
                _ => return None,
            }
        }
        None
    }

    /// A field's declared type, for receivers like `this.store`.
    /// Returns the type's plain name (stored with the property, for receivers
    /// like `x.field.m()` in other files).
    pub(super) fn record_field_type(&mut self, node: Node<'a>, names: &[Node<'a>]) -> Option<String> {
        let ty = self.child(node, "type").or_else(|| {
            let decl = self.kids(node, true).find(|c| self.kind(c) == "variable_declaration");
            decl.and_then(|d| self.child(d, "type"))
        });
        // TS: `parent: A | B` is `A|B` (see `ts_union`).
        let ty = ty
            .and_then(|t| {
                self.ts_union(t).or_else(|| {
                    Some(self.declared_name(t).to_string()).filter(|t| plain_name(t) && !self.roles.is_keyword(t))
                })
            })
            .or_else(|| {
                // PHP: `/** @var \App\Cursor|null */ protected $cursor;`
                let doc = self.php_docblock(node)?;
                php_doc_class(php_doc_tag(doc, "@var", None)?, self.current_type())
            })?;
        let Some(owner) = self.current_type().map(str::to_string) else { return Some(ty) };
        for n in names {
            let name = self.text(*n).to_string();
            self.graph.fields.insert((owner.clone(), name), ty.clone());
        }
        Some(ty)
    }

    /// The graph facts, receivers of fields resolved against the whole file;
    /// `namespaces`: the names of the namespaces it declares.
    pub(super) fn finish_graph(&mut self, namespaces: &[&str]) -> (String, Vec<RefFact>, Vec<ImportFact>) {
        let mut graph = std::mem::take(&mut self.graph);
        if !self.graph_facts {
            // Declarations note bases and a few others as they are read.
            return (graph.scope, Vec::new(), Vec::new());
        }
        for (i, q, fallback) in std::mem::take(&mut graph.qualified_constituents) {
            if !namespaces.contains(&q) {
                graph.refs[i].role = RefRole::Type;
                graph.refs[i].receiver = fallback;
            }
        }
        let fields = &graph.fields;
        // What a receiver typed through a [`CALLBACK`] mark is, once resolved:
        // a mark standing for no type is dropped (a guard's value of unknown
        // type is what the guard asserts), a type left empty is unknown.
        let known = |t: String| Some(t).filter(|t| !t.is_empty() && !t.starts_with([FIELD_OF, DISCRIMINANT]));
        // Only TS and JS mark types with callbacks (`callback_element`).
        let marks = js_like(self.spec);
        let mut refs: Vec<RefFact> = graph
            .refs
            .into_iter()
            .map(|r| {
                let receiver = match r.receiver {
                    Pending::Done(recv) => recv,
                    Pending::Field(owner, field) => {
                        // The fields of a chain the file declares are typed here;
                        // from the first declared in another file on, the rest
                        // stays a chain for the query (`T{FIELD_OF}b`).
                        let mut links = owner.split(FIELD_OF);
                        let mut ty = links.next().unwrap_or_default().to_string();
                        let mut rest: Vec<&str> = Vec::new();
                        for link in links.chain(std::iter::once(field.as_ref())) {
                            match fields.get(&(ty.clone(), link.to_string())).filter(|_| rest.is_empty()) {
                                Some(t) => ty = t.clone(),
                                None => rest.push(link),
                            }
                        }
                        match rest.pop() {
                            None => Receiver::Type(ty),
                            Some(last) => {
                                for link in rest {
                                    ty.push(FIELD_OF);
                                    ty.push_str(link);
                                }
                                Receiver::Member(ty, last.to_string())
                            }
                        }
                    }
                    Pending::Name(name, in_type) => match in_type.and_then(|t| fields.get(&(t, name.to_string()))) {
                        Some(t) => Receiver::Type(t.clone()),
                        None => match graph.globals.get(name) {
                            // A name the file binds outside functions, typed.
                            Some(Some(t)) => match t.strip_prefix("()") {
                                Some(f) => Receiver::Returns(f.to_string()),
                                None => Receiver::Type(t.clone()),
                            },
                            _ => Receiver::Name(name.to_string()),
                        },
                    },
                };
                // A callback's parameter typed by the function taking it.
                let receiver = match receiver {
                    Receiver::Type(t) if marks && t.contains(CALLBACK) => {
                        known(called_back(&t, &graph.callbacks)).map_or(Receiver::Unknown, Receiver::Type)
                    }
                    Receiver::Member(t, m) if marks && t.contains(CALLBACK) => {
                        known(called_back(&t, &graph.callbacks)).map_or(Receiver::Unknown, |t| Receiver::Member(t, m))
                    }
                    Receiver::Returns(f) if marks && f.contains(CALLBACK) => {
                        known(called_back(&f, &graph.callbacks)).map_or(Receiver::Unknown, Receiver::Returns)
                    }
                    other => other,
                };
                // A receiver typed by a generic parameter (`x: T`, `impl<T>
                // Trait for T`) is not a type of that name: its type is unknown
                // here (by name, `T`'s supertypes are every blanket impl's).
                let receiver = match receiver {
                    Receiver::Type(t) | Receiver::Member(t, _)
                        if !graph.type_params.is_empty()
                            && graph.type_params.contains(t.split(FIELD_OF).next().unwrap_or_default()) =>
                    {
                        Receiver::Unknown
                    }
                    other => other,
                };
                RefFact { line: r.line, name: r.name.to_string(), role: r.role, receiver, args: r.args }
            })
            .collect();
        // Walk order is source order, except around code inside strings.
        refs.sort_by_key(|r| r.line);
        (graph.scope, refs, graph.imports)
    }
}

/// `s` with each [`CALLBACK`] mark replaced by the type it stands for, or
/// removed when it stands for none.
fn called_back(s: &str, callbacks: &FxHashMap<&str, Option<Vec<CallbackParam>>>) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find(CALLBACK) {
        out.push_str(&rest[..start]);
        let mut parts = rest[start + 1..].splitn(4, CALLBACK);
        let (f, i, j) = (parts.next(), parts.next(), parts.next());
        let (i, j) = (i.and_then(|i| i.parse::<usize>().ok()), j.and_then(|j| j.parse::<usize>().ok()));
        let found = f.and_then(|f| callbacks.get(f)).and_then(Option::as_ref);
        if let Some((_, _, t)) = found.and_then(|v| v.iter().find(|(a, b, _)| (Some(*a), Some(*b)) == (i, j))) {
            out.push_str(t);
        }
        rest = parts.next().unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// The position of `child` among `parent`'s children (for its field name).
fn collect_kind<'t>(node: Node<'t>, kind: &str, out: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        if child.kind() == kind {
            out.push(child);
        } else if child.named_child_count() > 0 && out.len() < 10_000 {
            collect_kind(child, kind, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn php_docblock_tags_name_classes() {
        let doc = "/**\n * Make one.\n *\n * @param  \\App\\Models\\User|null  $user\n * @param  array  &$opts\n \
                   * @param  Post[]  ...$posts\n * @returns Wrong\n * @return \\Illuminate\\Support\\Collection<int, Post>\n */";
        let param = |v| php_doc_tag(doc, "@param", Some(v)).and_then(|t| php_doc_class(t, None));
        assert_eq!(param("user").as_deref(), Some("User"));
        assert_eq!(param("$user").as_deref(), Some("User"));
        assert_eq!(param("opts"), None); // an array
        assert_eq!(param("posts").as_deref(), Some("Post"));
        assert_eq!(param("missing"), None);
        let returns = php_doc_tag(doc, "@return", None).and_then(|t| php_doc_class(t, None));
        assert_eq!(returns.as_deref(), Some("Collection"));
        assert_eq!(php_doc_class("$this", Some("Builder")).as_deref(), Some("Builder"));
        assert_eq!(php_doc_class("static|null", None), None);
        assert_eq!(php_doc_class("int|string|\\Closure", None).as_deref(), Some("Closure"));
        assert_eq!(php_doc_tag("/** @var */", "@var", None), None);
    }

    #[test]
    fn jsdoc_tags_name_classes() {
        let doc = "/**\n * @param {Compilation} compilation the compilation\n * @param {Chunk[]=} [chunks] chunks\n \
                   * @param {Object} options.x nested\n * @param {import(\"./Logger\").Logger | undefined} logger\n \
                   * @param {{a: number}} o\n * @returns {Map<string, Set<Module>>} the map\n */";
        let param = |v| js_doc_tag(doc, &["param", "arg", "argument"], Some(v)).and_then(js_doc_class);
        assert_eq!(param("compilation").as_deref(), Some("Compilation"));
        assert_eq!(param("chunks").as_deref(), Some("Chunk"));
        assert_eq!(param("options"), None);
        assert_eq!(param("logger").as_deref(), Some("Logger"));
        assert_eq!(param("o"), None);
        assert_eq!(param("missing"), None);
        let returns = js_doc_tag(doc, &["returns", "return"], None).and_then(js_doc_class);
        assert_eq!(returns.as_deref(), Some("Map"));
        assert_eq!(js_doc_class("(Chunk|ChunkGroup)=").as_deref(), Some("Chunk|ChunkGroup"));
        assert_eq!(js_doc_class("Array<Module>").as_deref(), Some("Module"));
        assert_eq!(js_doc_class("function(string): void"), None);
        assert_eq!(js_doc_class("import(\"./Chunk\")"), None);
        assert_eq!(js_doc_class("string | number"), None);
        assert_eq!(js_doc_tag("/** @type {Foo */", &["type"], None), None);
        let members = "/**\n * @param {Object} options options\n * @param {Logger=} options.logger a logger\n \
                       * @param {string} [options.name] a name\n * @param {Hash} options.a.b deeper\n \
                       * @param {Chunk} chunk a chunk\n */";
        assert_eq!(js_doc_members(members), [("logger", "Logger="), ("name", "string")]);
    }
}

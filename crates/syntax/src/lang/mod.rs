//! Languages: which files `cg` reads and how each grammar's nodes map to facts.
//!
//! In: a path (its extension). Out: a [`LanguageSpec`], the data that drives
//! extraction for that language: its tree-sitter grammar, its keywords, and which
//! node kinds are comments, strings, type / method / property declarations.
//! Its [`Dialect`] says which syntax extraction reads with code of its own, its
//! [`Rules`] how the graph binds its names. Neither the extractor nor the graph
//! knows any language: adding one means one new file beside this one (its spec)
//! and its line in the table here ([`Language`], [`Language::ALL`], [`SPECS`]).

pub mod arity;
mod c;
mod csharp;
pub mod dialect;
mod go;
mod java;
mod php;
mod python;
mod ruby;
pub mod rules;
mod rust;
mod typescript;

use std::path::Path;

pub use dialect::Dialect;
pub use rules::Rules;

/// A language `cg` indexes. TSX is TypeScript; JavaScript is parsed with the TSX grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    CSharp,
    TypeScript,
    JavaScript,
    Rust,
    Go,
    Python,
    Java,
    C,
    Cpp,
    Php,
    Ruby,
}

impl Language {
    /// Every language, in the order of their ids.
    pub const ALL: [Language; 11] = [
        Language::CSharp,
        Language::TypeScript,
        Language::JavaScript,
        Language::Rust,
        Language::Go,
        Language::Python,
        Language::Java,
        Language::C,
        Language::Cpp,
        Language::Php,
        Language::Ruby,
    ];

    /// The name used in config files, `--languages` and output.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// A stable small id, used in the snapshot.
    pub fn id(self) -> u8 {
        self as u8
    }

    pub fn from_id(id: u8) -> Option<Language> {
        Language::ALL.get(id as usize).copied()
    }

    /// The language of a stored id, where a file must have one: an id this
    /// build does not know (a snapshot's bytes are checked, not its ids'
    /// meaning) reads as Go, so a damaged id changes how the
    /// file's names resolve, never whether a question is answered.
    pub fn of_id(id: u8) -> Language {
        Language::from_id(id).unwrap_or(Language::Go)
    }

    /// Parses a name as written by a user (`csharp`, `c#`, `cs`, `ts`, ...).
    pub fn from_name(name: &str) -> Option<Language> {
        let name = name.trim().to_ascii_lowercase();
        SPECS.iter().find(|s| s.name == name || s.aliases.contains(&name.as_str())).map(|s| s.language)
    }

    /// The language of a path, from its extension or, for files without one that
    /// a language names (`Rakefile`, `Gemfile`), its name. A `.h` header is C here;
    /// [`Language::refine`] decides between C and C++ once its text is read.
    pub fn from_path(path: &Path) -> Option<Language> {
        if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
            let found = SPECS.iter().find(|s| s.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)));
            if let Some(s) = found {
                return Some(s.language);
            }
        }
        let name = path.file_name()?.to_str()?;
        SPECS.iter().find(|s| s.file_names.contains(&name)).map(|s| s.language)
    }

    /// The language of a file from its path and text: a `.h` header is C++ when its
    /// text uses C++ syntax (see [`c::uses_cpp_syntax`]: `class X {`, `namespace`,
    /// `template <`, access labels, `::`), else C. Depends on the file's bytes only,
    /// so a file keeps its language until it changes.
    pub fn refine(self, path: &str, bytes: &[u8]) -> Language {
        let header = path.rsplit_once('.').is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("h"));
        if self == Language::C && header && c::uses_cpp_syntax(bytes) {
            Language::Cpp
        } else {
            self
        }
    }

    /// The languages whose definitions a reference can bind to: TypeScript and
    /// JavaScript import each other, C and C++ include each other; every other
    /// language stands alone.
    pub fn family(self) -> Language {
        match self {
            Language::JavaScript => Language::TypeScript,
            Language::Cpp => Language::C,
            l => l,
        }
    }

    /// Whether a path's language (from [`Language::from_path`]) may be `self`
    /// once the file is read (a `.h` header may turn out C++).
    pub fn may_be(self, by_path: Language) -> bool {
        self == by_path || (self == Language::Cpp && by_path == Language::C)
    }

    /// How this language's names bind ([`rules`]).
    pub fn rules(self) -> &'static Rules {
        &self.spec().rules
    }

    pub fn spec(self) -> &'static LanguageSpec {
        // `SPECS` lists the languages in the order of their ids (a test checks it).
        SPECS[self as usize]
    }

    /// The grammar for a file of this language (TypeScript picks TSX for `.tsx`).
    pub fn grammar(self, path: &Path) -> tree_sitter::Language {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        (self.spec().grammar)(ext)
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The registry: one spec per language.
pub static SPECS: &[&LanguageSpec] = &[
    &csharp::SPEC,
    &typescript::SPEC_TS,
    &typescript::SPEC_JS,
    &rust::SPEC,
    &go::SPEC,
    &python::SPEC,
    &java::SPEC,
    &c::SPEC_C,
    &c::SPEC_CPP,
    &php::SPEC,
    &ruby::SPEC,
];

/// What a declaration node contributes to a file's structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decl {
    /// A type definition of the given kind (`class`, `struct`, `trait`, ...). Its
    /// members get it as parent.
    Type(&'static str),
    /// A function, method, constructor or operator: a method with a prototype.
    Method,
    /// Fields, properties, constants, enum members. A node may declare several names
    /// (`int a, b;`); each becomes one property.
    Property,
    /// An assignment (`left` / `right` / `type` fields) that declares a property
    /// where a language has no declarations (Python): at module or class level a
    /// name assigned is a property; in a method, `self.name = ..` is a property of
    /// the method's class (once per name and file). Inside functions plain names
    /// are locals.
    Variable,
    /// A type specifier that defines a type only when it has a body (C's
    /// `struct s { .. }`, not `struct s *p`).
    Specifier(&'static str),
    /// C / C++ declarations (`declaration`, `field_declaration`): each declarator
    /// is a method when it declares a function (a prototype), else a property (a
    /// global or a field). Their names are found through the declarator chain
    /// (`*p`, `(*f)(int)`, `a[3]`, `x = 1`). Inside a function they are locals.
    Declarator,
    /// A call that declares properties named by its symbol arguments (Ruby's
    /// `attr_reader :a, :b`, `attr_writer`, `attr_accessor`); other calls declare
    /// nothing.
    Accessors,
    /// A list whose `name` children are each a property declared by its own text
    /// (TypeScript's `enum_body`: `enum E { A, B }`).
    Members,
    /// A name bound to a value that is a method when the value is a function
    /// (`const f = () => 1`, `{ f: function () {} }`, a class field holding an arrow
    /// function) and a property otherwise (class fields only: see `value_is_property`).
    Binding { value_is_property: bool },
    /// A variable declaration (TS/JS `variable_declarator`, Go `var_spec` and
    /// `const_spec`; a Go spec's declaration is its keyword and itself, `var
    /// First` in a `var (..)` group): a
    /// method when its value is a function (as [`Decl::Binding`]); else, at
    /// module level (outside functions and types, TS/JS: a statement of the
    /// file or of a namespace's body), each name it declares is a property
    /// with its declared or constructed type (`export const LIMIT = 4`, Go's
    /// `var ErrNotFound = errors.New(..)`; a destructuring pattern each name
    /// it binds, untyped). Inside functions its names are locals (a Go
    /// `const` in a function too); `_` and CommonJS's `require(..)` (an
    /// import) declare nothing.
    Global,
    /// An assignment whose value is a function and whose target is a member
    /// (`Foo.prototype.bar = function () {}`, `exports.f = ...`): a method named
    /// by the member (JavaScript's CommonJS and prototype definitions).
    Assignment,
    /// A block whose members belong to a type named elsewhere (`impl Foo { .. }`).
    /// The type's name is read from the given field.
    Scope(&'static str),
    /// A TS namespace (`namespace ts.codefix { .. }`): a type of kind
    /// `namespace` named by its last name, which its body's declarations do
    /// not get as parent (they are the namespace's exports, reached as
    /// `codefix.f`). A string-named one (`declare module "x"`) is no definition.
    Namespace,
}

/// Everything extraction needs to know about one language. Pure data plus two small
/// functions for the rules that differ by language (visibility, a method's parent).
pub struct LanguageSpec {
    pub language: Language,
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub extensions: &'static [&'static str],
    /// Whole file names of this language without an extension (`Rakefile`).
    pub file_names: &'static [&'static str],
    pub grammar: fn(ext: &str) -> tree_sitter::Language,
    /// Words that are never terms when they appear as identifiers in code.
    pub keywords: &'static [&'static str],
    /// Comment nodes: their words are terms, their lines are `comment`.
    pub comment_kinds: &'static [&'static str],
    /// String literal nodes: their words are terms, their lines are `string`.
    pub string_kinds: &'static [&'static str],
    /// Children of a string that hold code (`${x}`, `{x}`): traversed as code.
    pub string_code_kinds: &'static [&'static str],
    /// Children of a string that are not words (escape sequences).
    pub string_skip_kinds: &'static [&'static str],
    /// A string that is a statement of its own is a comment (Python's docstrings):
    /// its lines are `comment`, a type's docstring is its doc, the module's its header.
    pub docstrings: bool,
    /// Declarations, by node kind.
    pub decls: &'static [(&'static str, Decl)],
    /// Node kinds that hold modifiers (`public`, `static`, `async`, `pub(crate)`),
    /// looked for among a declaration's direct children.
    pub modifier_kinds: &'static [&'static str],
    /// Children that come before a declaration's signature and are left out of its
    /// prototype (attributes, decorators).
    pub attribute_kinds: &'static [&'static str],
    /// Nodes that wrap a declaration (`export ...`): a type's doc comment precedes them.
    pub wrapper_kinds: &'static [&'static str],
    /// Nodes that may come before the first code without ending the header comments
    /// (`using`, `package`, `import`, `use`).
    pub preamble_kinds: &'static [&'static str],
    /// Namespace-like nodes whose body continues the file's header.
    pub namespace_kinds: &'static [&'static str],
    /// Function-valued expressions, for [`Decl::Binding`].
    pub function_value_kinds: &'static [&'static str],
    /// When set, a method inside a type scope without a parameter of this kind is
    /// static (Rust's associated functions: no `self`).
    pub self_param_kind: Option<&'static str>,
    /// Kinds that name a property or member and are never keywords whatever
    /// their text (TS/JS: `map.delete(k)`, `promise.catch(f)`, a method
    /// named `default`): their words are terms and they are references.
    pub property_name_kinds: &'static [&'static str],
    /// When set, a method's parent type is read from this field (Go's receiver).
    pub receiver_field: Option<&'static str>,
    /// Refines a `Decl::Type` kind by the kind of the node's `type` field
    /// (Go: `type T struct{}` is a struct, `type T interface{}` an interface).
    pub type_kind_by_value: &'static [(&'static str, &'static str)],
    /// The visibility of a declaration from its modifiers, its name and its context.
    pub visibility: fn(&VisibilityInput<'_>) -> Option<&'static str>,
    /// How names in code become references (the code graph).
    pub graph: GraphSpec,
    /// How those references bind to definitions ([`rules`]).
    pub rules: Rules,
    /// Syntax extraction reads with code of its own ([`dialect`]).
    pub dialect: Dialect,
}

/// The node kinds and fields that tell what a name occurrence does: call, type,
/// import, supertype or other; its receiver; the names a function binds locally.
/// Pure data, like the rest of a spec.
pub struct GraphSpec {
    /// Leaf kinds that are names (identifiers, type, field and property names).
    pub name_kinds: &'static [&'static str],
    /// Name kinds that always stand in a type position (`type_identifier`).
    pub type_name_kinds: &'static [&'static str],
    /// Calls: `(node kind, field holding the callee)`; `new T()` counts.
    pub calls: &'static [(&'static str, &'static str)],
    /// Member accesses: `(node kind, object field, member field)`; a path
    /// `Type::f` counts.
    pub members: &'static [(&'static str, &'static str, &'static str)],
    /// Nodes around a name that still name the same thing (`Foo<T>`, `ns.Foo`).
    pub type_wrappers: &'static [&'static str],
    /// Fields whose content is a type position.
    pub type_fields: &'static [&'static str],
    /// Nodes whose children are type positions (generic arguments); a supertype
    /// list stops at them (`I<T>`: `I` is the supertype, `T` a type).
    pub type_lists: &'static [&'static str],
    /// Nodes whose names are supertypes (`extends` / `implements` clauses, base lists).
    pub inherit_kinds: &'static [&'static str],
    /// Supertypes held in a field: `(node kind, field)` (`impl Trait for T`).
    pub inherit_fields: &'static [(&'static str, &'static str)],
    /// A field declaration without a name embeds its type (Go).
    pub embedding_kinds: &'static [&'static str],
    /// Import statements: their names are `import` references.
    pub import_kinds: &'static [&'static str],
    /// Statements that import only when they have the given field: `(node kind,
    /// field)` (`export { A } from "./a"`, not `export { A }`).
    pub reexports: &'static [(&'static str, &'static str)],
    /// `this` / `self`.
    pub self_kinds: &'static [&'static str],
    /// Functions, methods, closures: the scope of local names.
    pub function_kinds: &'static [&'static str],
    /// Nodes that bind local names.
    pub bindings: &'static [Binding],
    /// Expressions whose type is the type they name: `(node kind, field)`
    /// (`new T()`, `T{}`, `T { .. }`).
    pub constructions: &'static [(&'static str, &'static str)],
    /// Nodes whose `name` field is the file's package or namespace.
    pub scope_kinds: &'static [&'static str],
    /// Casts: `(node kind, which child is the type)`: its `type` field when it has
    /// one, else its first (`<T>x`) or last (`x as T`) named child.
    pub casts: &'static [(&'static str, CastType)],
    /// Generic parameter declarations: `(node kind, field of the name)` (empty:
    /// its name children). Their names are not references.
    pub type_params: &'static [(&'static str, &'static str)],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastType {
    First,
    Last,
}

/// A node that binds local names: the names in its `names` field (or its named
/// children when the field is empty), typed by its `ty` field or, failing that, by
/// the construction in its `value` field.
pub struct Binding {
    pub kind: &'static str,
    pub names: &'static str,
    pub ty: &'static str,
    pub value: &'static str,
}

pub(crate) const fn bind(kind: &'static str, names: &'static str, ty: &'static str, value: &'static str) -> Binding {
    Binding { kind, names, ty, value }
}

/// PHP's and Ruby's rule: a stated `private` / `protected` (a modifier, or Ruby's
/// section label before the method) wins; everything else is public.
pub(crate) fn stated_or_public(v: &VisibilityInput<'_>) -> Option<&'static str> {
    let has = |w: &str| v.modifiers.contains(&w);
    Some(if has("private") {
        "private"
    } else if has("protected") {
        "protected"
    } else {
        "public"
    })
}

/// What [`LanguageSpec::visibility`] decides from.
pub struct VisibilityInput<'a> {
    /// Modifier words found on the declaration (`public`, `static`, `pub(crate)`).
    pub modifiers: &'a [&'a str],
    pub name: &'a str,
    /// The kind of the enclosing type, if any (`class`, `interface`, ...).
    pub parent_kind: Option<&'a str>,
    /// Whether the declaration is a type (as opposed to a member).
    pub is_type: bool,
    /// TS: a declaration in a namespace's body that is not exported (seen only
    /// inside that body, not by other files' blocks of the namespace).
    pub namespace_local: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_tables_are_sorted_and_unique() {
        for spec in SPECS {
            for pair in spec.keywords.windows(2) {
                assert!(pair[0] < pair[1], "{}: {:?} out of order", spec.name, pair);
            }
        }
    }

    #[test]
    fn every_node_kind_named_in_a_spec_exists_in_its_grammar() {
        for spec in SPECS {
            let grammars: Vec<_> = spec.extensions.iter().map(|e| (spec.grammar)(e)).collect();
            let known = |kind: &str| {
                grammars.iter().any(|g| (0..g.node_kind_count() as u16).any(|id| g.node_kind_for_id(id) == Some(kind)))
            };
            {
                let named = spec
                    .comment_kinds
                    .iter()
                    .chain(spec.string_kinds)
                    .chain(spec.string_code_kinds)
                    .chain(spec.string_skip_kinds)
                    .chain(spec.decls.iter().map(|(k, _)| k))
                    .chain(spec.modifier_kinds)
                    .chain(spec.attribute_kinds)
                    .chain(spec.wrapper_kinds)
                    .chain(spec.preamble_kinds)
                    .chain(spec.namespace_kinds)
                    .chain(spec.function_value_kinds)
                    .chain(spec.self_param_kind.iter())
                    .chain(spec.property_name_kinds)
                    .chain(spec.type_kind_by_value.iter().map(|(k, _)| k))
                    .chain(spec.graph.name_kinds)
                    .chain(spec.graph.type_name_kinds)
                    .chain(spec.graph.calls.iter().map(|(k, _)| k))
                    .chain(spec.graph.members.iter().map(|(k, ..)| k))
                    .chain(spec.graph.type_wrappers)
                    .chain(spec.graph.type_lists)
                    .chain(spec.graph.inherit_kinds)
                    .chain(spec.graph.inherit_fields.iter().map(|(k, _)| k))
                    .chain(spec.graph.embedding_kinds)
                    .chain(spec.graph.import_kinds)
                    .chain(spec.graph.reexports.iter().map(|(k, _)| k))
                    .chain(spec.graph.self_kinds)
                    .chain(spec.graph.function_kinds)
                    .chain(spec.graph.bindings.iter().map(|b| &b.kind))
                    .chain(spec.graph.constructions.iter().map(|(k, _)| k))
                    .chain(spec.graph.scope_kinds)
                    .chain(spec.graph.casts.iter().map(|(k, _)| k))
                    .chain(spec.graph.type_params.iter().map(|(k, _)| k));
                for kind in named {
                    assert!(known(kind), "{}: no node kind {kind:?}", spec.name);
                }
            }
            let g = &spec.graph;
            let fields = g
                .calls
                .iter()
                .map(|(_, f)| *f)
                .chain(g.members.iter().flat_map(|(_, o, m)| [*o, *m]))
                .chain(g.type_fields.iter().copied())
                .chain(g.inherit_fields.iter().map(|(_, f)| *f))
                .chain(g.reexports.iter().map(|(_, f)| *f))
                .chain(g.type_params.iter().map(|(_, f)| *f))
                .chain(g.bindings.iter().flat_map(|b| [b.names, b.ty.trim_start_matches('^'), b.value]))
                .chain(g.constructions.iter().map(|(_, f)| *f))
                .filter(|f| !f.is_empty());
            for field in fields {
                assert!(
                    grammars.iter().any(|g| g.field_id_for_name(field).is_some()),
                    "{}: no field {field:?}",
                    spec.name
                );
            }
        }
    }

    #[test]
    fn languages_resolve_from_extensions_and_names() {
        assert_eq!(Language::from_path(Path::new("a/b.cs")), Some(Language::CSharp));
        assert_eq!(Language::from_path(Path::new("x.tsx")), Some(Language::TypeScript));
        assert_eq!(Language::from_path(Path::new("x.mjs")), Some(Language::JavaScript));
        assert_eq!(Language::from_path(Path::new("x.RS")), Some(Language::Rust));
        assert_eq!(Language::from_path(Path::new("x.go")), Some(Language::Go));
        assert_eq!(Language::from_path(Path::new("Makefile")), None);
        assert_eq!(Language::from_name("C#"), Some(Language::CSharp));
        assert_eq!(Language::from_name("ts"), Some(Language::TypeScript));
        for l in Language::ALL {
            assert_eq!(SPECS[l.id() as usize].language, l, "SPECS is in the order of the ids");
            assert_eq!(Language::from_id(l.id()), Some(l));
            assert_eq!(Language::from_name(l.name()), Some(l));
        }
    }
}

//! The syntax a language has that extraction reads with code of its own,
//! beyond the node kinds of its [`GraphSpec`](super::GraphSpec): import
//! statements, docblock types, constructor chains, macros. Extraction asks a
//! file's spec for these (`spec.dialect.jsdoc`), never which language it is.
//!
//! A language whose syntax is like an existing one's sets the same values; one
//! with a construct no language has yet adds a field or a variant here and the
//! extraction code that reads it.

/// A language's syntax features (see the module's documentation).
pub struct Dialect {
    /// The TS/JS grammar family: `switch` narrowing, object literals and
    /// patterns, type aliases and indexed access, CommonJS `require`.
    pub ecmascript: bool,
    /// How import statements are read.
    pub imports: ImportSyntax,
    /// JSDoc types values (`@param {T}`, `@returns {T}`, `@type {T}`) and
    /// `this.x = ..` in a method declares a field (JavaScript).
    pub jsdoc: bool,
    /// A docblock (`/** @var T */`, `@return T`) types what follows (PHP).
    pub docblocks: bool,
    /// `mod x { .. }` declares an inline module (`mod x;` declares nothing
    /// here): its items are its, not the file's (Rust).
    pub inline_modules: bool,
    /// Macro calls hold tokens, not expressions: their names are read as
    /// references by shape (Rust).
    pub macros: bool,
    /// A capitalized name in a pattern is a constant or a variant in scope,
    /// not a binding (Rust's `None =>`).
    pub capitalized_patterns_are_constants: bool,
    /// A variable's type may be a method call's result, `let y = x.make()`,
    /// as a member of the receiver's type (Rust; Java's are one node).
    pub method_call_results: bool,
    /// A declaration's names are not bound in its own value (`let x = f(x)`,
    /// `x := f(x)`: Rust, Go).
    pub bindings_unbound_in_value: bool,
    /// `new(T)` is a builtin making a `*T` (Go).
    pub new_builtin: bool,
    /// Composite literals may elide their element type (`[]T{{Name: v}}`, Go).
    pub elided_literal_types: bool,
    /// A class declared with an export macro (`class API Name { .. }`) parses
    /// as a function: the file is parsed again with the macros blanked (C++).
    pub export_macro_classes: bool,
    /// A namespace nested in the file's namespace extends its scope (C++).
    pub nested_namespaces: bool,
    /// Test macros whose first argument is a fixture class the test's body is
    /// a method of (GoogleTest's `TEST_F(Fixture, Name)`, C++).
    pub test_fixture_macros: &'static [&'static str],
    /// How a class body's labels give its members their access.
    pub access_labels: AccessLabels,
    /// A call of a type's name makes one (Python's `T()`).
    pub type_calls_construct: bool,
    /// A declared type is an annotation expression (`Optional[Store]` is a
    /// `Store`, Python).
    pub annotation_types: bool,
    /// Import statements naming modules, which are no definitions (Python's
    /// `import a.b`).
    pub module_import_kinds: &'static [&'static str],
    /// `require` / `require_relative` calls import files (Ruby).
    pub require_calls: bool,
    /// Method references `Type::m`, `this::m`, `Type::new` (Java).
    pub method_references: bool,
    /// A call names a method, never a variable (Java's separate namespaces).
    pub calls_name_methods: bool,
    /// Object initializers `new T { Name = v }` name the type's members (C#).
    pub object_initializers: bool,
    /// Nodes whose keys name fields of a struct or object literal's type
    /// (Rust's `T { name: v }`, C#'s object initializer).
    pub field_entry_kinds: &'static [&'static str],
    /// The field holding a C declaration's declarator chain (`*p`, `f(int)`);
    /// empty where declarations have none.
    pub declarator_field: &'static str,
    /// The field of a call's or construction's arguments where a constructor
    /// is matched by its arity (Java, C#, C++); empty elsewhere.
    pub arguments_field: &'static str,
    /// Statements that run another constructor: `(node kind, how)`.
    pub constructor_chains: &'static [(&'static str, Chain)],
    /// Receivers that name the base class: `(node kind, how)`.
    pub super_receivers: &'static [(&'static str, Super)],
}

/// How a class body's labels give its members their access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessLabels {
    None,
    /// `public:` access specifiers and labels (C++).
    Specifiers,
    /// Bare `private` / `protected` / `public` calls (Ruby).
    Calls,
}

/// How import statements are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportSyntax {
    /// No import statements (Ruby's are calls: [`Dialect::require_calls`]).
    None,
    /// `import { a as b } from "./m"`, `export * from`.
    Ecmascript,
    /// `import alias "path"`, grouped specs.
    Go,
    /// `use a::{b, c as d}` trees.
    RustUse,
    /// `using A.B;`, `using static`, `using X = A.B;` (C#).
    Using,
    /// `import a.b`, `from .a import b as c`.
    Python,
    /// `import a.b.C;`, `import static`, `import a.b.*;`.
    Java,
    /// `use A\B\{C, D as E};`, `use function`.
    PhpUse,
    /// `#include "x.h"` / `<x.h>`.
    Include,
}

/// A statement that runs another constructor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chain {
    /// Ruby's `super(..)` in `initialize`.
    Super,
    /// Java's `this(..)` / `super(..)` (`outer.super(..)` not followed).
    ExplicitConstructor,
    /// C#'s `: base(..)` / `: this(..)`.
    BaseInitializer,
    /// C++'s `: Base(..)` in a constructor's initializer list.
    MemberInitializer,
}

/// How a receiver node names the base class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Super {
    /// Always (`super`, `base`).
    Always,
    /// When its text is this word, case-insensitive (PHP's `parent::`).
    Text(&'static str),
    /// When it calls a function of this name (Python's `super()`).
    Call(&'static str),
}

impl Dialect {
    /// Plain syntax: what a language's spec starts from (`..Dialect::PLAIN`).
    pub const PLAIN: Dialect = Dialect {
        ecmascript: false,
        imports: ImportSyntax::None,
        jsdoc: false,
        docblocks: false,
        inline_modules: false,
        macros: false,
        capitalized_patterns_are_constants: false,
        method_call_results: false,
        bindings_unbound_in_value: false,
        new_builtin: false,
        elided_literal_types: false,
        export_macro_classes: false,
        nested_namespaces: false,
        test_fixture_macros: &[],
        access_labels: AccessLabels::None,
        type_calls_construct: false,
        annotation_types: false,
        module_import_kinds: &[],
        require_calls: false,
        method_references: false,
        calls_name_methods: false,
        object_initializers: false,
        field_entry_kinds: &[],
        declarator_field: "",
        arguments_field: "",
        constructor_chains: &[],
        super_receivers: &[],
    };

    /// How a statement of this kind runs another constructor, if it does.
    pub fn chain(&self, kind: &str) -> Option<Chain> {
        self.constructor_chains.iter().find(|(k, _)| *k == kind).map(|&(_, c)| c)
    }
}

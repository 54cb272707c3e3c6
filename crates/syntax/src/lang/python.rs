//! Python: `.py` and `.pyi` files, tree-sitter-python.
//!
//! Python declares nothing but classes and functions: a name assigned at module
//! or class level is a property, and `self.name = ..` in a method is a property of
//! its class ([`Decl::Variable`]). Docstrings are comments.

use super::dialect::*;
use super::rules::*;
use super::{bind, Decl, GraphSpec, Language, LanguageSpec, VisibilityInput};

pub static SPEC: LanguageSpec = LanguageSpec {
    language: Language::Python,
    name: "python",
    aliases: &["py"],
    extensions: &["py", "pyi"],
    file_names: &[],
    grammar: |_| tree_sitter_python::LANGUAGE.into(),
    // Reserved words, the primitive types (`int`, `str`, `bytes`, `float`, `bool`,
    // `complex`) and `self`, which names the receiver in every method. Sorted.
    keywords: &[
        "False", "None", "True", "and", "as", "assert", "async", "await", "bool", "break", "bytes", "class", "complex",
        "continue", "def", "del", "elif", "else", "except", "finally", "float", "for", "from", "global", "if",
        "import", "in", "int", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "self", "str",
        "try", "while", "with", "yield",
    ],
    comment_kinds: &["comment"],
    string_kinds: &["string"],
    string_code_kinds: &["interpolation"],
    string_skip_kinds: &["escape_sequence", "string_start", "string_end"],
    docstrings: true,
    decls: &[
        ("class_definition", Decl::Type("class")),
        ("function_definition", Decl::Method),
        ("assignment", Decl::Variable),
    ],
    modifier_kinds: &[],
    attribute_kinds: &["decorator"],
    wrapper_kinds: &["decorated_definition"],
    preamble_kinds: &["import_statement", "import_from_statement", "future_import_statement"],
    namespace_kinds: &[],
    function_value_kinds: &[],
    self_param_kind: None,
    property_name_kinds: &[],
    receiver_field: None,
    type_kind_by_value: &[],
    visibility,
    graph: GraphSpec {
        name_kinds: &["identifier"],
        type_name_kinds: &[],
        calls: &[("call", "function")],
        members: &[("attribute", "object", "attribute")],
        type_wrappers: &["type", "generic_type"],
        type_fields: &["type", "return_type"],
        type_lists: &["type_parameter"],
        inherit_kinds: &[],
        inherit_fields: &[("class_definition", "superclasses")],
        embedding_kinds: &[],
        import_kinds: &["import_statement", "import_from_statement"],
        reexports: &[],
        self_kinds: &[],
        function_kinds: &["function_definition", "lambda"],
        bindings: &[
            bind("parameters", "", "", ""),
            bind("lambda_parameters", "", "", ""),
            bind("typed_parameter", "", "type", ""),
            bind("typed_default_parameter", "name", "type", ""),
            bind("assignment", "left", "type", "right"),
            bind("augmented_assignment", "left", "", ""),
            bind("for_statement", "left", "", ""),
            bind("for_in_clause", "left", "", ""),
            bind("as_pattern_target", "", "", ""),
            bind("named_expression", "name", "", "value"),
        ],
        constructions: &[],
        scope_kinds: &[],
        casts: &[],
        type_params: &[],
    },
    rules: Rules {
        modules: Modules::File { package_init: Some("__init__"), scripts: false },
        imports: Imports::PythonModule,
        constructor: Constructor::Named("__init__"),
        dynamic: true,
        untyped: true,
        members_in_body: true,
        mixins: Mixins::Bases,
        bases_as_written: true,
        imports_are_exports: true,
        library_members: include_str!("library/python.txt"),
        ..Rules::PLAIN
    },
    dialect: Dialect {
        imports: ImportSyntax::Python,
        type_calls_construct: true,
        annotation_types: true,
        module_import_kinds: &["import_statement"],
        super_receivers: &[("call", Super::Call("super"))],
        ..Dialect::PLAIN
    },
};

/// `_name` and `__name` are private by convention; `__dunder__` names and all
/// others are public.
fn visibility(v: &VisibilityInput<'_>) -> Option<&'static str> {
    let dunder = v.name.len() > 4 && v.name.starts_with("__") && v.name.ends_with("__");
    Some(if v.name.starts_with('_') && !dunder { "private" } else { "public" })
}

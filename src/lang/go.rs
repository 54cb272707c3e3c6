//! Go: `.go` files, tree-sitter-go.

use super::{Decl, Language, LanguageSpec, VisibilityInput};

pub static SPEC: LanguageSpec = LanguageSpec {
    language: Language::Go,
    name: "go",
    aliases: &["golang"],
    extensions: &["go"],
    grammar: |_| tree_sitter_go::LANGUAGE.into(),
    // Keywords, predeclared types and predeclared constants. The builtin functions
    // (`len`, `append`, `panic`, ...) stay searchable. Sorted.
    keywords: &[
        "any",
        "bool",
        "break",
        "byte",
        "case",
        "chan",
        "comparable",
        "complex128",
        "complex64",
        "const",
        "continue",
        "default",
        "defer",
        "else",
        "error",
        "fallthrough",
        "false",
        "float32",
        "float64",
        "for",
        "func",
        "go",
        "goto",
        "if",
        "import",
        "int",
        "int16",
        "int32",
        "int64",
        "int8",
        "interface",
        "iota",
        "map",
        "nil",
        "package",
        "range",
        "return",
        "rune",
        "select",
        "string",
        "struct",
        "switch",
        "true",
        "type",
        "uint",
        "uint16",
        "uint32",
        "uint64",
        "uint8",
        "uintptr",
        "var",
    ],
    comment_kinds: &["comment"],
    string_kinds: &[
        "interpreted_string_literal",
        "raw_string_literal",
        "rune_literal",
    ],
    string_code_kinds: &[],
    string_skip_kinds: &["escape_sequence"],
    decls: &[
        ("type_spec", Decl::Type("type")),
        ("type_alias", Decl::Type("type")),
        ("function_declaration", Decl::Method),
        ("method_declaration", Decl::Method),
        ("method_elem", Decl::Method),
        ("field_declaration", Decl::Property),
        ("const_spec", Decl::Property),
    ],
    modifier_kinds: &[],
    attribute_kinds: &[],
    wrapper_kinds: &["type_declaration", "const_declaration"],
    preamble_kinds: &["package_clause", "import_declaration"],
    namespace_kinds: &[],
    function_value_kinds: &[],
    self_param_kind: None,
    receiver_field: Some("receiver"),
    type_kind_by_value: &[("struct_type", "struct"), ("interface_type", "interface")],
    visibility,
};

/// Exported (capitalized) names are public, the rest private.
fn visibility(v: &VisibilityInput<'_>) -> Option<&'static str> {
    let first = v.name.chars().next()?;
    Some(if first.is_uppercase() {
        "public"
    } else {
        "private"
    })
}

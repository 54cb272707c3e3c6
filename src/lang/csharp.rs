//! C#: `.cs` files, tree-sitter-c-sharp.

use super::{Decl, Language, LanguageSpec, VisibilityInput};

pub static SPEC: LanguageSpec = LanguageSpec {
    language: Language::CSharp,
    name: "csharp",
    aliases: &["c#", "cs", "c-sharp"],
    extensions: &["cs"],
    grammar: |_| tree_sitter_c_sharp::LANGUAGE.into(),
    // Reserved keywords, the contextual ones the CodeGraph spec lists (LINQ,
    // accessors, `var`, `value`) and the built-in type names. Sorted.
    keywords: &[
    "abstract", "add", "as", "ascending", "async", "await", "base", "bool", "break", "byte",
    "case", "catch", "char", "checked", "class", "const", "continue", "decimal", "default",
    "delegate", "descending", "do", "double", "dynamic", "else", "enum", "equals", "event",
    "explicit", "extern", "false", "finally", "fixed", "float", "for", "foreach", "from",
    "get", "global", "goto", "groupby", "if", "implicit", "in", "init", "int", "interface",
    "internal", "into", "is", "join", "let", "lock", "long", "nameof", "namespace", "new",
    "nint", "notnull", "nuint", "null", "object", "operator", "orderby", "out", "override",
    "params", "partial", "private", "protected", "public", "readonly", "record", "ref",
    "remove", "required", "return", "sbyte", "scoped", "sealed", "select", "set", "short",
    "sizeof", "stackalloc", "static", "string", "struct", "switch", "this", "throw", "true",
    "try", "typeof", "uint", "ulong", "unchecked", "unmanaged", "unsafe", "ushort", "using",
    "value", "var", "virtual", "void", "volatile", "when", "where", "while", "with", "yield",
    ],
    comment_kinds: &["comment"],
    string_kinds: &[
        "string_literal",
        "verbatim_string_literal",
        "raw_string_literal",
        "interpolated_string_expression",
        "character_literal",
    ],
    string_code_kinds: &["interpolation"],
    string_skip_kinds: &[
        "escape_sequence",
        "raw_string_start",
        "raw_string_end",
        "string_literal_encoding",
        "interpolation_start",
        "interpolation_quote",
    ],
    decls: &[
        ("class_declaration", Decl::Type("class")),
        ("struct_declaration", Decl::Type("struct")),
        ("interface_declaration", Decl::Type("interface")),
        ("enum_declaration", Decl::Type("enum")),
        ("record_declaration", Decl::Type("record")),
        ("delegate_declaration", Decl::Type("delegate")),
        ("method_declaration", Decl::Method),
        ("constructor_declaration", Decl::Method),
        ("destructor_declaration", Decl::Method),
        ("operator_declaration", Decl::Method),
        ("conversion_operator_declaration", Decl::Method),
        ("local_function_statement", Decl::Method),
        ("property_declaration", Decl::Property),
        ("field_declaration", Decl::Property),
        ("event_field_declaration", Decl::Property),
        ("event_declaration", Decl::Property),
        ("indexer_declaration", Decl::Property),
        ("enum_member_declaration", Decl::Property),
    ],
    modifier_kinds: &["modifier"],
    attribute_kinds: &["attribute_list", "preproc_if_in_attribute_list"],
    wrapper_kinds: &[],
    preamble_kinds: &[
        "using_directive",
        "extern_alias_directive",
        "global_attribute",
        "file_scoped_namespace_declaration",
        "preproc_pragma",
        "preproc_nullable",
        "preproc_define",
        "preproc_undef",
        "preproc_region",
        "preproc_endregion",
    ],
    namespace_kinds: &["namespace_declaration"],
    function_value_kinds: &[],
    self_param_kind: None,
    receiver_field: None,
    type_kind_by_value: &[],
    visibility,
};

/// Stated modifiers win; otherwise C#'s defaults: interface and enum members are
/// public, other members private, top-level types internal.
fn visibility(v: &VisibilityInput<'_>) -> Option<&'static str> {
    let has = |w: &str| v.modifiers.contains(&w);
    let stated = match (has("public"), has("protected"), has("internal"), has("private")) {
        (true, ..) => Some("public"),
        (_, true, true, _) => Some("protected internal"),
        (_, true, _, true) => Some("private protected"),
        (_, true, _, _) => Some("protected"),
        (_, _, true, _) => Some("internal"),
        (_, _, _, true) => Some("private"),
        _ => None,
    };
    stated.or(match v.parent_kind {
        Some("interface") | Some("enum") => Some("public"),
        Some(_) => Some("private"),
        None if v.is_type => Some("internal"),
        None => None,
    })
}

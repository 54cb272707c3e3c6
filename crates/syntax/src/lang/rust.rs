//! Rust: `.rs` files, tree-sitter-rust.

use super::dialect::*;
use super::rules::*;
use super::{bind, CastType, Decl, GraphSpec, Language, LanguageSpec, VisibilityInput};

pub static SPEC: LanguageSpec = LanguageSpec {
    language: Language::Rust,
    name: "rust",
    aliases: &["rs"],
    extensions: &["rs"],
    file_names: &[],
    grammar: |_| tree_sitter_rust::LANGUAGE.into(),
    // Strict and reserved keywords and the primitive types. Sorted (`Self` first:
    // uppercase sorts before lowercase).
    keywords: &[
        "Self", "abstract", "as", "async", "await", "become", "bool", "box", "break", "char", "const", "continue",
        "crate", "do", "dyn", "else", "enum", "extern", "f32", "f64", "false", "final", "fn", "for", "i128", "i16",
        "i32", "i64", "i8", "if", "impl", "in", "isize", "let", "loop", "macro", "match", "mod", "move", "mut",
        "override", "priv", "pub", "ref", "return", "self", "static", "str", "struct", "super", "trait", "true", "try",
        "type", "typeof", "u128", "u16", "u32", "u64", "u8", "unsafe", "unsized", "use", "usize", "virtual", "where",
        "while", "yield",
    ],
    comment_kinds: &["line_comment", "block_comment"],
    string_kinds: &["string_literal", "raw_string_literal", "char_literal"],
    string_code_kinds: &[],
    string_skip_kinds: &["escape_sequence"],
    docstrings: false,
    decls: &[
        ("struct_item", Decl::Type("struct")),
        ("enum_item", Decl::Type("enum")),
        ("union_item", Decl::Type("union")),
        ("trait_item", Decl::Type("trait")),
        ("type_item", Decl::Type("type")),
        ("impl_item", Decl::Scope("type")),
        // `mod tests { .. }` (`mod x;` is an import).
        ("mod_item", Decl::Namespace),
        ("function_item", Decl::Method),
        ("function_signature_item", Decl::Method),
        ("macro_definition", Decl::Method),
        ("field_declaration", Decl::Property),
        ("enum_variant", Decl::Property),
        ("const_item", Decl::Property),
        ("static_item", Decl::Property),
    ],
    modifier_kinds: &["visibility_modifier", "function_modifiers"],
    attribute_kinds: &["attribute_item"],
    wrapper_kinds: &[],
    preamble_kinds: &["use_declaration", "extern_crate_declaration", "inner_attribute_item", "mod_item"],
    namespace_kinds: &[],
    function_value_kinds: &[],
    self_param_kind: Some("self_parameter"),
    property_name_kinds: &[],
    receiver_field: None,
    type_kind_by_value: &[],
    visibility,
    graph: GraphSpec {
        name_kinds: &["identifier", "field_identifier", "type_identifier", "shorthand_field_identifier"],
        type_name_kinds: &["type_identifier"],
        calls: &[("call_expression", "function"), ("macro_invocation", "macro")],
        members: &[
            ("field_expression", "value", "field"),
            ("scoped_identifier", "path", "name"),
            ("scoped_type_identifier", "path", "name"),
        ],
        type_wrappers: &["generic_type", "scoped_type_identifier", "generic_function"],
        type_fields: &["type", "return_type"],
        type_lists: &["type_arguments"],
        inherit_kinds: &[],
        inherit_fields: &[("impl_item", "trait"), ("trait_item", "bounds")],
        embedding_kinds: &[],
        import_kinds: &["use_declaration"],
        reexports: &[],
        self_kinds: &["self"],
        function_kinds: &["function_item", "function_signature_item", "closure_expression"],
        bindings: &[
            bind("let_declaration", "pattern", "type", "value"),
            bind("parameter", "pattern", "type", ""),
            bind("closure_parameters", "", "", ""),
            bind("for_expression", "pattern", "", ""),
            bind("let_condition", "pattern", "", "value"),
            // A match arm's pattern (its guard, `if ..`, is read).
            bind("match_pattern", "", "", ""),
        ],
        constructions: &[("struct_expression", "name")],
        scope_kinds: &[],
        casts: &[("type_cast_expression", CastType::Last)],
        type_params: &[("type_parameter", "name"), ("lifetime", "")],
    },
    rules: Rules {
        modules: Modules::Crate,
        imports: Imports::CratePath,
        member_separator: "::",
        own_type_names: &["Self"],
        runtime_members: RuntimeMembers::Deref,
        imports_are_exports: true,
        library_types: LibraryTypes::Always,
        library_imports: &["std::", "core::", "alloc::", "proc_macro::"],
        ..Rules::PLAIN
    },
    dialect: Dialect {
        imports: ImportSyntax::RustUse,
        inline_modules: true,
        macros: true,
        capitalized_patterns_are_constants: true,
        method_call_results: true,
        bindings_unbound_in_value: true,
        field_entry_kinds: &["field_initializer", "shorthand_field_initializer", "field_pattern"],
        ..Dialect::PLAIN
    },
};

/// `pub` is public, `pub(crate)` and the other restricted forms are internal, no
/// modifier is private, except for trait items, enum variants and the methods of a
/// trait impl, which are as visible as their trait or enum.
fn visibility(v: &VisibilityInput<'_>) -> Option<&'static str> {
    if let Some(m) = v.modifiers.iter().find(|m| m.starts_with("pub")) {
        return Some(if *m == "pub" { "public" } else { "internal" });
    }
    match v.parent_kind {
        Some("trait") | Some("enum") | Some("impl trait") => Some("public"),
        _ => Some("private"),
    }
}

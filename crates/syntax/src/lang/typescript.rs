//! TypeScript (`.ts`, `.tsx`) and JavaScript (`.js`, `.jsx`, `.mjs`, `.cjs`),
//! both with tree-sitter-typescript: JavaScript is read with the TSX grammar, which
//! accepts plain JavaScript and JSX.

use super::dialect::*;
use super::rules::*;
use super::{bind, CastType, Decl, GraphSpec, Language, LanguageSpec, VisibilityInput};

/// Reserved words, TypeScript's type keywords and the contextual keywords that are
/// rarely names. Left out on purpose, because they are common property names:
/// `get`, `set`, `from`, `of`, `module`, `is`, `type`, `symbol` (`node.type`,
/// `{ type: "string" }`). Sorted.
const KEYWORDS: &[&str] = &[
    "abstract",
    "any",
    "asserts",
    "async",
    "await",
    "bigint",
    "boolean",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "declare",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "infer",
    "instanceof",
    "interface",
    "keyof",
    "let",
    "namespace",
    "never",
    "new",
    "null",
    "number",
    "object",
    "override",
    "package",
    "private",
    "protected",
    "public",
    "readonly",
    "return",
    "satisfies",
    "static",
    "string",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "undefined",
    "unknown",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

const DECLS: &[(&str, Decl)] = &[
    ("class_declaration", Decl::Type("class")),
    ("abstract_class_declaration", Decl::Type("class")),
    ("class", Decl::Type("class")),
    ("interface_declaration", Decl::Type("interface")),
    ("enum_declaration", Decl::Type("enum")),
    ("type_alias_declaration", Decl::Type("type")),
    ("function_declaration", Decl::Method),
    ("generator_function_declaration", Decl::Method),
    ("method_definition", Decl::Method),
    ("method_signature", Decl::Method),
    ("abstract_method_signature", Decl::Method),
    ("function_signature", Decl::Method),
    ("variable_declarator", Decl::Global),
    ("pair", Decl::Binding { value_is_property: false }),
    ("public_field_definition", Decl::Binding { value_is_property: true }),
    ("assignment_expression", Decl::Assignment),
    ("property_signature", Decl::Property),
    ("enum_body", Decl::Members),
    ("enum_assignment", Decl::Property),
    ("internal_module", Decl::Namespace),
    ("module", Decl::Namespace),
];

pub static SPEC_TS: LanguageSpec = LanguageSpec {
    language: Language::TypeScript,
    name: "typescript",
    aliases: &["ts", "tsx"],
    extensions: &["ts", "tsx", "mts", "cts"],
    grammar: |ext| {
        if ext.eq_ignore_ascii_case("tsx") {
            tree_sitter_typescript::LANGUAGE_TSX.into()
        } else {
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()
        }
    },
    ..JS_LIKE
};

pub static SPEC_JS: LanguageSpec = LanguageSpec {
    language: Language::JavaScript,
    name: "javascript",
    aliases: &["js", "jsx"],
    extensions: &["js", "jsx", "mjs", "cjs"],
    grammar: |_| tree_sitter_typescript::LANGUAGE_TSX.into(),
    // The TSX grammar has no `<T>x` assertion (it would be JSX).
    graph: GraphSpec {
        casts: &[("as_expression", CastType::Last), ("satisfies_expression", CastType::Last)],
        ..JS_LIKE.graph
    },
    // Untyped: no interface merging or enum types; values are dynamic.
    rules: Rules {
        dynamic: true,
        interface_merging: false,
        enum_member_types: false,
        library_members: include_str!("library/javascript.txt"),
        ..JS_LIKE.rules
    },
    dialect: Dialect { jsdoc: true, ..JS_LIKE.dialect },
    ..JS_LIKE
};

const JS_LIKE: LanguageSpec = LanguageSpec {
    language: Language::TypeScript,
    name: "",
    aliases: &[],
    extensions: &[],
    file_names: &[],
    grammar: |_| tree_sitter_typescript::LANGUAGE_TSX.into(),
    keywords: KEYWORDS,
    comment_kinds: &["comment", "html_comment", "hash_bang_line"],
    string_kinds: &["string", "template_string", "regex", "jsx_text"],
    string_code_kinds: &["template_substitution"],
    string_skip_kinds: &["escape_sequence", "html_character_reference", "regex_flags"],
    docstrings: false,
    decls: DECLS,
    modifier_kinds: &["accessibility_modifier", "override_modifier"],
    attribute_kinds: &["decorator"],
    wrapper_kinds: &["export_statement", "ambient_declaration"],
    preamble_kinds: &["import_statement"],
    namespace_kinds: &[],
    function_value_kinds: &["arrow_function", "function_expression", "generator_function"],
    self_param_kind: None,
    property_name_kinds: &[
        "property_identifier",
        "private_property_identifier",
        "shorthand_property_identifier",
        "shorthand_property_identifier_pattern",
    ],
    receiver_field: None,
    type_kind_by_value: &[],
    visibility,
    graph: GraphSpec {
        name_kinds: &[
            "identifier",
            "property_identifier",
            "type_identifier",
            "shorthand_property_identifier",
            "shorthand_property_identifier_pattern",
            "private_property_identifier",
        ],
        type_name_kinds: &["type_identifier"],
        calls: &[("call_expression", "function"), ("new_expression", "constructor")],
        members: &[("member_expression", "object", "property"), ("nested_type_identifier", "module", "name")],
        type_wrappers: &["generic_type", "nested_type_identifier"],
        type_fields: &["type", "return_type"],
        type_lists: &["type_arguments"],
        inherit_kinds: &["extends_clause", "implements_clause", "extends_type_clause"],
        inherit_fields: &[],
        embedding_kinds: &[],
        import_kinds: &["import_statement"],
        reexports: &[("export_statement", "source")],
        self_kinds: &["this"],
        function_kinds: &[
            "function_declaration",
            "generator_function_declaration",
            "function_expression",
            "generator_function",
            "arrow_function",
            "method_definition",
            "method_signature",
            "abstract_method_signature",
            "function_signature",
            "function_type",
        ],
        bindings: &[
            bind("variable_declarator", "name", "type", "value"),
            bind("required_parameter", "pattern", "type", "value"),
            bind("optional_parameter", "pattern", "type", "value"),
            bind("arrow_function", "parameter", "", ""),
            bind("catch_clause", "parameter", "", ""),
            bind("for_in_statement", "left", "", "right"),
        ],
        constructions: &[("new_expression", "constructor")],
        scope_kinds: &[],
        casts: &[
            ("as_expression", CastType::Last),
            ("type_assertion", CastType::First),
            ("satisfies_expression", CastType::Last),
        ],
        type_params: &[("type_parameter", "name")],
    },
    rules: Rules {
        modules: Modules::File { package_init: None, scripts: true },
        imports: Imports::Relative,
        constructor: Constructor::Named("constructor"),
        members_in_body: true,
        file_local: FileLocal::Always,
        type_space: true,
        interface_merging: true,
        enum_member_types: true,
        subtype_members: true,
        library_types: LibraryTypes::Undeclared,
        ..Rules::PLAIN
    },
    dialect: Dialect {
        ecmascript: true,
        imports: ImportSyntax::Ecmascript,
        super_receivers: &[("super", Super::Always)],
        ..Dialect::PLAIN
    },
};

/// Class members are public unless stated or `#private`; free functions have none.
fn visibility(v: &VisibilityInput<'_>) -> Option<&'static str> {
    for m in v.modifiers {
        match *m {
            "public" => return Some("public"),
            "protected" => return Some("protected"),
            "private" => return Some("private"),
            _ => {}
        }
    }
    if v.parent_kind.is_none() && v.namespace_local {
        // Not exported from its namespace: that body's alone.
        return Some("private");
    }
    if v.name.starts_with('#') {
        Some("private")
    } else if v.parent_kind.is_some() {
        Some("public")
    } else {
        None
    }
}

//! Java: `.java` files, tree-sitter-java.

use super::dialect::*;
use super::rules::*;
use super::{bind, CastType, Decl, GraphSpec, Language, LanguageSpec, VisibilityInput};

pub static SPEC: LanguageSpec = LanguageSpec {
    language: Language::Java,
    name: "java",
    aliases: &[],
    extensions: &["java"],
    file_names: &[],
    grammar: |_| tree_sitter_java::LANGUAGE.into(),
    // Reserved keywords, literals (`true`, `false`, `null`), the primitive types
    // and `var`. Contextual words that are common names (`record`, `module`,
    // `yield`, `permits`) stay searchable. Sorted.
    keywords: &[
        "abstract",
        "assert",
        "boolean",
        "break",
        "byte",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extends",
        "false",
        "final",
        "finally",
        "float",
        "for",
        "goto",
        "if",
        "implements",
        "import",
        "instanceof",
        "int",
        "interface",
        "long",
        "native",
        "new",
        "null",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "short",
        "static",
        "strictfp",
        "super",
        "switch",
        "synchronized",
        "this",
        "throw",
        "throws",
        "transient",
        "true",
        "try",
        "var",
        "void",
        "volatile",
        "while",
    ],
    comment_kinds: &["line_comment", "block_comment"],
    string_kinds: &["string_literal", "character_literal"],
    string_code_kinds: &["string_interpolation"],
    string_skip_kinds: &["escape_sequence"],
    docstrings: false,
    decls: &[
        ("class_declaration", Decl::Type("class")),
        ("interface_declaration", Decl::Type("interface")),
        ("enum_declaration", Decl::Type("enum")),
        ("record_declaration", Decl::Type("record")),
        ("annotation_type_declaration", Decl::Type("annotation")),
        ("method_declaration", Decl::Method),
        ("constructor_declaration", Decl::Method),
        ("compact_constructor_declaration", Decl::Method),
        ("annotation_type_element_declaration", Decl::Method),
        ("field_declaration", Decl::Property),
        ("constant_declaration", Decl::Property),
        ("enum_constant", Decl::Property),
    ],
    modifier_kinds: &["modifiers"],
    attribute_kinds: &[],
    wrapper_kinds: &[],
    preamble_kinds: &["package_declaration", "import_declaration"],
    namespace_kinds: &[],
    function_value_kinds: &[],
    self_param_kind: None,
    property_name_kinds: &[],
    receiver_field: None,
    type_kind_by_value: &[],
    visibility,
    graph: GraphSpec {
        name_kinds: &["identifier", "type_identifier"],
        type_name_kinds: &["type_identifier"],
        calls: &[("method_invocation", "name"), ("object_creation_expression", "type")],
        members: &[
            ("method_invocation", "object", "name"),
            ("field_access", "object", "field"),
            ("scoped_identifier", "scope", "name"),
        ],
        type_wrappers: &["generic_type", "scoped_type_identifier", "array_type"],
        type_fields: &["type"],
        type_lists: &["type_arguments"],
        inherit_kinds: &["superclass", "super_interfaces", "extends_interfaces"],
        inherit_fields: &[],
        embedding_kinds: &[],
        import_kinds: &["import_declaration"],
        reexports: &[],
        self_kinds: &["this"],
        function_kinds: &[
            "method_declaration",
            "constructor_declaration",
            "compact_constructor_declaration",
            "lambda_expression",
        ],
        bindings: &[
            bind("formal_parameter", "name", "type", ""),
            bind("spread_parameter", "", "type", ""),
            bind("catch_formal_parameter", "name", "", ""),
            bind("variable_declarator", "name", "^type", "value"),
            bind("enhanced_for_statement", "name", "type", ""),
            bind("resource", "name", "type", "value"),
            bind("inferred_parameters", "", "", ""),
            bind("lambda_expression", "parameters", "", ""),
        ],
        constructions: &[("object_creation_expression", "type")],
        scope_kinds: &["package_declaration"],
        casts: &[("cast_expression", CastType::First)],
        type_params: &[("type_parameter", "")],
    },
    rules: Rules {
        modules: Modules::Namespace('.'),
        imports: Imports::JavaPackage,
        constructor: Constructor::TypeName,
        members_in_body: true,
        implicit_self: true,
        implicit_this: true,
        bare_enum_cases: true,
        source_roots: true,
        library_types: LibraryTypes::Undeclared,
        library_imports: &["java.", "javax."],
        ..Rules::PLAIN
    },
    dialect: Dialect {
        imports: ImportSyntax::Java,
        method_references: true,
        calls_name_methods: true,
        arguments_field: "arguments",
        constructor_chains: &[("explicit_constructor_invocation", Chain::ExplicitConstructor)],
        super_receivers: &[("super", Super::Always)],
        ..Dialect::PLAIN
    },
};

/// Stated modifiers win; otherwise interface members are public and everything
/// else is package-private.
fn visibility(v: &VisibilityInput<'_>) -> Option<&'static str> {
    let has = |w: &str| v.modifiers.contains(&w);
    if has("public") {
        Some("public")
    } else if has("protected") {
        Some("protected")
    } else if has("private") {
        Some("private")
    } else if matches!(v.parent_kind, Some("interface") | Some("annotation")) {
        Some("public")
    } else {
        Some("package")
    }
}

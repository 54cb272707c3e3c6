//! Ruby: `.rb`, `.rake`, `.gemspec`, `Rakefile` and `Gemfile`, tree-sitter-ruby.
//!
//! `attr_reader` / `attr_writer` / `attr_accessor` declare properties, a
//! constant assigned in a class or module is a property, a bare `private` /
//! `protected` / `public` sets the visibility of the methods after it.
//! `require` and `require_relative` are imports; `include`, `extend` and
//! `prepend` name supertypes.

use super::{bind, Decl, GraphSpec, Language, LanguageSpec, VisibilityInput};

pub static SPEC: LanguageSpec = LanguageSpec {
    language: Language::Ruby,
    name: "ruby",
    aliases: &["rb"],
    extensions: &["rb", "rake", "gemspec"],
    file_names: &["Rakefile", "Gemfile"],
    grammar: |_| tree_sitter_ruby::LANGUAGE.into(),
    // Reserved words. Sorted (uppercase first).
    keywords: &[
        "BEGIN",
        "END",
        "__ENCODING__",
        "__FILE__",
        "__LINE__",
        "alias",
        "and",
        "begin",
        "break",
        "case",
        "class",
        "def",
        "defined",
        "do",
        "else",
        "elsif",
        "end",
        "ensure",
        "false",
        "for",
        "if",
        "in",
        "module",
        "next",
        "nil",
        "not",
        "or",
        "private",
        "protected",
        "public",
        "redo",
        "rescue",
        "retry",
        "return",
        "self",
        "super",
        "then",
        "true",
        "undef",
        "unless",
        "until",
        "when",
        "while",
        "yield",
    ],
    comment_kinds: &["comment"],
    string_kinds: &["string", "heredoc_body", "regex", "subshell", "string_array", "symbol_array"],
    string_code_kinds: &["interpolation"],
    string_skip_kinds: &["escape_sequence", "heredoc_end"],
    docstrings: false,
    decls: &[
        ("class", Decl::Type("class")),
        ("module", Decl::Type("module")),
        ("method", Decl::Method),
        ("singleton_method", Decl::Method),
        ("assignment", Decl::Variable),
        ("call", Decl::Accessors),
    ],
    modifier_kinds: &[],
    attribute_kinds: &[],
    wrapper_kinds: &[],
    preamble_kinds: &[],
    namespace_kinds: &[],
    function_value_kinds: &[],
    self_param_kind: None,
    receiver_field: None,
    type_kind_by_value: &[],
    visibility,
    graph: GraphSpec {
        name_kinds: &["identifier", "constant"],
        type_name_kinds: &[],
        calls: &[("call", "method")],
        members: &[("call", "receiver", "method"), ("scope_resolution", "scope", "name")],
        type_wrappers: &["scope_resolution"],
        type_fields: &[],
        type_lists: &[],
        inherit_kinds: &["superclass"],
        inherit_fields: &[],
        embedding_kinds: &[],
        import_kinds: &[],
        reexports: &[],
        self_kinds: &["self"],
        function_kinds: &["method", "singleton_method", "block", "do_block", "lambda"],
        bindings: &[
            bind("method_parameters", "", "", ""),
            bind("block_parameters", "", "", ""),
            bind("lambda_parameters", "", "", ""),
            bind("assignment", "left", "", "right"),
            bind("operator_assignment", "left", "", ""),
            bind("for", "pattern", "", ""),
            bind("rescue", "variable", "", ""),
        ],
        constructions: &[],
        scope_kinds: &[],
        casts: &[],
        type_params: &[],
    },
};

/// A `private` / `protected` / `public` label before a method sets its
/// visibility (see the extractor's access labels); methods default to public.
fn visibility(v: &VisibilityInput<'_>) -> Option<&'static str> {
    let has = |w: &str| v.modifiers.contains(&w);
    if has("private") {
        Some("private")
    } else if has("protected") {
        Some("protected")
    } else {
        Some("public")
    }
}

//! C (`.c`, `.h`) with tree-sitter-c and C++ (`.cc`, `.cpp`, `.cxx`, `.c++`,
//! `.hpp`, `.hh`, `.hxx`, `.h++`, `.ipp`, and `.h` headers that use C++ syntax)
//! with tree-sitter-cpp.
//!
//! Names of C declarations sit at the end of a declarator chain (`*p`,
//! `(*f)(int)`, `a[3]`, `x = 1`): [`Decl::Declarator`] follows it. A function
//! prototype is a method, a global or a field a property; `#define` constants are
//! properties and function-like macros methods. Out-of-class definitions
//! (`int Store::add(..) {}`) belong to the type that qualifies them.

use super::dialect::*;
use super::rules::*;
use super::{bind, CastType, Decl, GraphSpec, Language, LanguageSpec, VisibilityInput};

/// Whether a header's text uses C++ syntax: a line (outside `//` / `/*` comment
/// lines, preprocessor lines and `#ifdef __cplusplus` blocks) that starts with `namespace` or `template`, a
/// `class X` declaration, an access label (`public:`), `using namespace` or a
/// `using X = ..` alias, or a `::` before any string or comment on its line. The
/// rule reads only the file's first 256 KiB, so a header's language is stable.
pub fn uses_cpp_syntax(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(256 * 1024)]);
    // Depth of `#if` nesting, and the depth at which an `#ifdef __cplusplus`
    // block began: C headers guard their C++ parts that way.
    let (mut depth, mut cplusplus): (usize, Option<usize>) = (0, None);
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(directive) = t.strip_prefix('#').map(str::trim_start) {
            if directive.starts_with("if") {
                depth += 1;
                if cplusplus.is_none() && directive.contains("__cplusplus") && !directive.starts_with("ifndef") {
                    cplusplus = Some(depth);
                }
            } else if directive.starts_with("endif") {
                if cplusplus == Some(depth) {
                    cplusplus = None;
                }
                depth = depth.saturating_sub(1);
            } else if directive.starts_with("el") && cplusplus == Some(depth) {
                cplusplus = None;
            }
            continue;
        }
        if cplusplus.is_some() || t.starts_with("//") || t.starts_with('*') || t.starts_with("/*") {
            continue;
        }
        let mut words = t.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
        let first = words.next().unwrap_or("");
        let second = words.next().unwrap_or("");
        let cpp = match first {
            "namespace" | "template" => true,
            "class" => !second.is_empty() && (t.contains('{') || t.contains(':') || t.ends_with(';')),
            // The first word need not start the line (`(public:`): what follows it.
            "public" | "private" | "protected" => {
                t.find(first).is_some_and(|at| t[at + first.len()..].trim_start().starts_with(':'))
            }
            "using" => second == "namespace" || t.contains('='),
            _ => false,
        };
        let code = t.split(['"', '\'']).next().unwrap_or("").split("//").next().unwrap_or("");
        if cpp || code.contains("::") {
            return true;
        }
    }
    false
}

pub static SPEC_C: LanguageSpec = LanguageSpec {
    language: Language::C,
    name: "c",
    aliases: &[],
    extensions: &["c", "h"],
    file_names: &[],
    grammar: |_| tree_sitter_c::LANGUAGE.into(),
    // C's keywords (C89 to C23), its primitive types, `bool` / `true` / `false`
    // and `NULL`. Sorted.
    keywords: &[
        "NULL",
        "_Alignas",
        "_Alignof",
        "_Atomic",
        "_Bool",
        "_Complex",
        "_Generic",
        "_Noreturn",
        "_Static_assert",
        "_Thread_local",
        "auto",
        "bool",
        "break",
        "case",
        "char",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extern",
        "false",
        "float",
        "for",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "register",
        "restrict",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "struct",
        "switch",
        "true",
        "typedef",
        "union",
        "unsigned",
        "void",
        "volatile",
        "while",
    ],
    comment_kinds: &["comment"],
    string_kinds: &["string_literal", "char_literal", "system_lib_string", "concatenated_string"],
    string_code_kinds: &[],
    string_skip_kinds: &["escape_sequence"],
    docstrings: false,
    decls: &[
        ("struct_specifier", Decl::Specifier("struct")),
        ("union_specifier", Decl::Specifier("union")),
        ("enum_specifier", Decl::Specifier("enum")),
        ("type_definition", Decl::Type("typedef")),
        ("function_definition", Decl::Method),
        ("declaration", Decl::Declarator),
        ("field_declaration", Decl::Declarator),
        ("enumerator", Decl::Property),
        ("preproc_def", Decl::Property),
        ("preproc_function_def", Decl::Method),
    ],
    modifier_kinds: &["storage_class_specifier"],
    attribute_kinds: &["attribute_specifier"],
    wrapper_kinds: &[],
    preamble_kinds: &["preproc_include"],
    namespace_kinds: &[],
    function_value_kinds: &[],
    self_param_kind: None,
    property_name_kinds: &[],
    receiver_field: None,
    type_kind_by_value: &[],
    visibility,
    graph: GraphSpec {
        name_kinds: &["identifier", "field_identifier", "type_identifier"],
        type_name_kinds: &["type_identifier"],
        calls: &[("call_expression", "function")],
        members: &[("field_expression", "argument", "field")],
        type_wrappers: &[],
        type_fields: &["type"],
        type_lists: &[],
        inherit_kinds: &[],
        inherit_fields: &[],
        embedding_kinds: &[],
        import_kinds: &["preproc_include"],
        reexports: &[],
        self_kinds: &[],
        function_kinds: &["function_definition"],
        bindings: &[
            bind("parameter_declaration", "declarator", "type", ""),
            bind("declaration", "declarator", "type", ""),
        ],
        constructions: &[],
        scope_kinds: &[],
        casts: &[("cast_expression", CastType::First)],
        type_params: &[],
    },
    rules: Rules { prototypes: true, enumerators_beside: true, file_local: FileLocal::SourceFiles, ..Rules::PLAIN },
    dialect: Dialect { imports: ImportSyntax::Include, declarator_field: "declarator", ..Dialect::PLAIN },
};

pub static SPEC_CPP: LanguageSpec = LanguageSpec {
    language: Language::Cpp,
    name: "cpp",
    aliases: &["c++", "cxx"],
    extensions: &["cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "h++", "ipp"],
    file_names: &[],
    grammar: |_| tree_sitter_cpp::LANGUAGE.into(),
    // C++'s keywords and alternative operator names, its primitive types and
    // `NULL`. Sorted.
    keywords: &[
        "NULL",
        "alignas",
        "alignof",
        "and",
        "asm",
        "auto",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "char16_t",
        "char32_t",
        "char8_t",
        "class",
        "co_await",
        "co_return",
        "co_yield",
        "concept",
        "const",
        "const_cast",
        "consteval",
        "constexpr",
        "constinit",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "not",
        "nullptr",
        "operator",
        "or",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "requires",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "thread_local",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "wchar_t",
        "while",
        "xor",
    ],
    comment_kinds: &["comment"],
    string_kinds: &["string_literal", "char_literal", "system_lib_string", "raw_string_literal", "concatenated_string"],
    string_code_kinds: &[],
    string_skip_kinds: &["escape_sequence", "raw_string_delimiter"],
    docstrings: false,
    decls: &[
        ("class_specifier", Decl::Specifier("class")),
        ("struct_specifier", Decl::Specifier("struct")),
        ("union_specifier", Decl::Specifier("union")),
        ("enum_specifier", Decl::Specifier("enum")),
        ("type_definition", Decl::Type("typedef")),
        ("alias_declaration", Decl::Type("type")),
        ("function_definition", Decl::Method),
        ("declaration", Decl::Declarator),
        ("field_declaration", Decl::Declarator),
        ("enumerator", Decl::Property),
        ("preproc_def", Decl::Property),
        ("preproc_function_def", Decl::Method),
    ],
    modifier_kinds: &["storage_class_specifier", "virtual"],
    attribute_kinds: &["attribute_specifier", "attribute_declaration"],
    wrapper_kinds: &["template_declaration"],
    preamble_kinds: &["preproc_include", "using_declaration"],
    namespace_kinds: &["namespace_definition"],
    graph: GraphSpec {
        name_kinds: &["identifier", "field_identifier", "type_identifier", "namespace_identifier"],
        calls: &[("call_expression", "function"), ("new_expression", "type")],
        members: &[("field_expression", "argument", "field"), ("qualified_identifier", "scope", "name")],
        type_wrappers: &["template_type", "qualified_identifier"],
        type_lists: &["template_argument_list"],
        inherit_kinds: &["base_class_clause"],
        self_kinds: &["this"],
        function_kinds: &["function_definition", "lambda_expression"],
        bindings: &[
            bind("parameter_declaration", "declarator", "type", ""),
            bind("optional_parameter_declaration", "declarator", "type", ""),
            bind("declaration", "declarator", "type", ""),
            bind("for_range_loop", "declarator", "type", ""),
        ],
        constructions: &[("new_expression", "type")],
        scope_kinds: &["namespace_definition"],
        type_params: &[("type_parameter_declaration", ""), ("optional_type_parameter_declaration", "name")],
        ..SPEC_C.graph
    },
    rules: Rules {
        member_separator: "::",
        constructor: Constructor::TypeName,
        implicit_self: true,
        implicit_this: true,
        out_of_class_members: true,
        ..SPEC_C.rules
    },
    dialect: Dialect {
        export_macro_classes: true,
        nested_namespaces: true,
        test_fixture_macros: &["TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P"],
        access_labels: AccessLabels::Specifiers,
        arguments_field: "arguments",
        constructor_chains: &[("field_initializer", Chain::MemberInitializer)],
        ..SPEC_C.dialect
    },
    ..SPEC_C
};

/// Stated access wins (an access label before a member counts as stated); C's
/// `static` is file-private; class members default to private, others to public.
fn visibility(v: &VisibilityInput<'_>) -> Option<&'static str> {
    let has = |w: &str| v.modifiers.contains(&w);
    if has("public") {
        Some("public")
    } else if has("protected") {
        Some("protected")
    } else if has("private") || (has("static") && v.parent_kind.is_none()) || v.parent_kind == Some("class") {
        Some("private")
    } else {
        Some("public")
    }
}

#[cfg(test)]
mod tests {
    /// Regression (found by `token_soup_gives_consistent_facts`): an access word
    /// after a multibyte character sliced the line inside that character.
    #[test]
    fn an_access_word_after_a_multibyte_character_does_not_panic() {
        assert!(super::uses_cpp_syntax("def # hash comment\n\u{feff}(\u{feff}public:".as_bytes()));
        assert!(!super::uses_cpp_syntax("\u{e9}(public) int x;\n".as_bytes()));
    }

    use super::uses_cpp_syntax;

    #[test]
    fn headers_are_cpp_by_their_own_syntax_only() {
        assert!(uses_cpp_syntax(b"namespace a {\nint f();\n}\n"));
        assert!(uses_cpp_syntax(b"class API Store {\n public:\n  int n;\n};\n"));
        assert!(uses_cpp_syntax(b"int x = std::max(1, 2);\n"));
        assert!(!uses_cpp_syntax(b"/* a C header */\nstruct s { int n; };\nint f(void);\n"));
        // Guarded C++ parts of a C header, `::` in strings and comments.
        let guarded = b"#ifdef __cplusplus\nusing namespace std;\nextern \"C\" {\n#endif\nint f(void);\n#ifdef __cplusplus\n}\n#endif\n";
        assert!(!uses_cpp_syntax(guarded));
        assert!(!uses_cpp_syntax(b"const char *s = \"a::b\"; // c::d\n"));
        // `#ifndef __cplusplus` guards C, not C++.
        assert!(uses_cpp_syntax(b"#ifndef __cplusplus\nint f(void);\n#endif\ntemplate <class T> T g(T);\n"));
    }
}

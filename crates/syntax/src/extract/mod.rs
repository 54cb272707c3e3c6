//! Extraction: the facts of every source file.
//!
//! In: a tree of files on disk ([`walk`]) or one file's bytes ([`Extractor`]).
//! Out: one [`FileFacts`] per file: each line's [`LineType`], each term with the
//! lines it occurs on, and the file's structure (header comments, types, methods,
//! properties). Extraction never fails a run: a file that cannot be read, is binary
//! or is too large is a [`Skip`]; a file that does not parse still yields facts, with
//! a [`Diagnostic`]. The same bytes always give the same facts.

pub mod excludes;
pub mod files;
mod flat;
pub mod marks;
mod parsers;
mod render;
mod tree;
pub mod words;

pub use excludes::{excluded_dir, ExcludedDir, KeepDirs};
pub use files::{
    extract_at, extract_each, extract_files, is_project_file, parse_files, read_source, rel_path, walk, walk_within,
    walks_file, FileTiming, GlobError, Outcome, Skip, SkipReason, SourceFile, Walk, WalkOptions,
    DEFAULT_MAX_FILE_BYTES,
};
pub use parsers::Extractor;
pub use render::render;

use crate::lang::Language;

/// The type of one line. When a line holds several things, the first that applies
/// in this order wins: `struct`, `method`, `property`, `code`, `comment`, `string`.
/// So a declaration line is a declaration even with a trailing comment; a line with
/// any code token is `code`; a line with comment words and string words is
/// `comment`; a line is `string` only when its only content is string literals. A
/// blank line is `code`, unless it lies inside a comment or a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum LineType {
    Code = 0,
    Comment = 1,
    Struct = 2,
    Method = 3,
    Property = 4,
    String = 5,
}

impl LineType {
    pub const ALL: [LineType; 6] =
        [LineType::Code, LineType::Comment, LineType::Struct, LineType::Method, LineType::Property, LineType::String];

    pub fn name(self) -> &'static str {
        match self {
            LineType::Code => "code",
            LineType::Comment => "comment",
            LineType::Struct => "struct",
            LineType::Method => "method",
            LineType::Property => "property",
            LineType::String => "string",
        }
    }

    pub fn from_name(name: &str) -> Option<LineType> {
        LineType::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }

    pub fn from_u8(v: u8) -> Option<LineType> {
        LineType::ALL.get(v as usize).copied()
    }

    /// Definition lines sort before the rest in query results.
    pub fn is_definition(self) -> bool {
        matches!(self, LineType::Struct | LineType::Method | LineType::Property)
    }
}

/// Everything extraction learns about one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileFacts {
    /// Relative to the walked root, `/`-separated.
    pub path: String,
    pub language: Language,
    pub size: u64,
    /// xxh3-64 of the file's bytes.
    pub hash: u64,
    /// Modification time, nanoseconds since the Unix epoch (0 when unknown).
    pub mtime_ns: i64,
    /// One entry per line; `line_types[0]` is line 1.
    pub line_types: Vec<LineType>,
    /// Distinct terms, sorted by their bytes, each with its sorted 1-based lines.
    pub terms: Vec<TermLines>,
    /// The comments before the first code, markers removed (license blocks left out).
    pub header: String,
    pub types: Vec<TypeDef>,
    pub methods: Vec<MethodDef>,
    pub properties: Vec<PropertyDef>,
    /// The package or namespace the file declares (Go `package`, C# `namespace`),
    /// empty when the language has none in the file.
    pub scope: String,
    /// Name occurrences in code that may refer to project definitions, in source
    /// order (see [`RefFact`]). Definitions' own names and names bound locally
    /// (parameters, local variables) are left out.
    pub refs: Vec<RefFact>,
    /// Import (and re-export) statements, in source order.
    pub imports: Vec<ImportFact>,
    pub diagnostics: Vec<Diagnostic>,
    /// Where every 64th line starts in the file's bytes
    /// ([`marks::line_marks`]): line text is read from there.
    pub line_marks: Vec<u32>,
}

impl FileFacts {
    pub fn line_count(&self) -> u32 {
        self.line_types.len() as u32
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermLines {
    pub term: String,
    pub lines: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeDef {
    pub name: String,
    /// `class`, `struct`, `interface`, `enum`, `record`, `trait`, `type`, `union`, `delegate`.
    pub kind: &'static str,
    pub line: u32,
    /// The last line of the declaration.
    pub end_line: u32,
    pub parent: Option<String>,
    pub visibility: Option<&'static str>,
    /// The comments right before the declaration, markers removed.
    pub doc: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodDef {
    pub name: String,
    /// The signature without its body (and without attributes), whitespace collapsed.
    pub prototype: String,
    pub line: u32,
    /// The last line of the declaration (its body included).
    pub end_line: u32,
    /// The plain name of its declared result type (`Store` of `*Store`), if any.
    pub returns: Option<String>,
    pub visibility: Option<&'static str>,
    pub is_static: bool,
    pub is_async: bool,
    pub parent: Option<String>,
    /// The comments right before the declaration (or a Python docstring),
    /// markers removed, cut to [`MAX_METHOD_DOC`] bytes.
    pub doc: String,
}

/// The longest method doc comment kept (the first sentences say what it does).
pub const MAX_METHOD_DOC: usize = 320;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyDef {
    pub name: String,
    /// The declaration without its initializer or accessor bodies, whitespace collapsed.
    pub declaration: String,
    pub line: u32,
    /// The last line of the declaration.
    pub end_line: u32,
    /// The plain name of its declared type (`Node` of `parent: Node`), if any.
    pub ty: Option<String>,
    pub visibility: Option<&'static str>,
    pub is_static: bool,
    pub parent: Option<String>,
}

/// What a name occurrence does where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum RefRole {
    /// The callee of a call, or the type of a `new` / constructor call.
    Call = 1,
    /// A type position: annotations, generic arguments, casts, parameter types.
    Type = 2,
    /// A name in an import, `use` or `using`.
    Import = 3,
    /// A supertype: `extends`, `implements`, a base list, `impl Trait for`, Go
    /// embedding. The receiver is the subtype.
    Inherit = 4,
    /// Anything else: reads, writes, arguments.
    Other = 5,
}

impl RefRole {
    pub const ALL: [RefRole; 5] = [RefRole::Call, RefRole::Type, RefRole::Import, RefRole::Inherit, RefRole::Other];

    pub fn name(self) -> &'static str {
        match self {
            RefRole::Call => "call",
            RefRole::Type => "type",
            RefRole::Import => "import",
            RefRole::Inherit => "inherit",
            RefRole::Other => "other",
        }
    }

    pub fn from_name(name: &str) -> Option<RefRole> {
        RefRole::ALL.into_iter().find(|r| r.name().eq_ignore_ascii_case(name.trim()))
    }

    pub fn from_u8(v: u8) -> Option<RefRole> {
        RefRole::ALL.into_iter().find(|r| *r as u8 == v)
    }
}

/// What stands before a member name (`recv.name`, `Recv::name`), as far as the file
/// alone tells.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Receiver {
    /// A plain name: no receiver.
    None,
    /// The receiver's type is known: `this` / `self` in a type, a parameter or local
    /// with a declared type, a local assigned `new T()` / `T{}`, a field of `this`
    /// with a declared type. For an [`RefRole::Inherit`] reference: the subtype.
    Type(String),
    /// The receiver is a name not bound in the function: a type (`Type.member`), a
    /// package, module or namespace, or an import alias.
    Name(String),
    /// An expression whose type the file does not tell.
    Unknown,
    /// The value a call of the named function returned (`s := New()`): its type
    /// is the function's declared result, looked up when queried.
    Returns(String),
    /// A field (or property) of a value of a known type, declared in another
    /// file (`node.parent.kind` with `node: Node`): `(type, field)`, its
    /// declared type looked up when queried. The type may be `()f`, what a call
    /// of `f` returns (`make().store.add()`), and may go on through fields
    /// joined by [`FIELD_OF`] (`a.b.c.m()`: `(A{FIELD_OF}b, c)`).
    Member(String, String),
    /// For an [`RefRole::Inherit`] reference whose supertype is written with a
    /// qualifier (`class Log(models.Model)`, Go's embedded `metav1.ObjectMeta`,
    /// `impl fmt::Display for T`): the subtype and the qualifier, which the
    /// supertype's name is resolved through as through a [`Receiver::Name`].
    Qualified(String, String),
}

/// Named types a TS union kept as a type (`A|B`: a local's, a field's, a
/// field's through an alias's constituents) holds at most.
pub const MAX_UNION: usize = 16;

/// Joins the fields of a chain in [`Receiver::Member`]'s type (and, during
/// extraction, in a local's type: `T{FIELD_OF}a` is a local holding field `a`
/// of a `T`, as `const { a } = t` and `const a = t.a` with `t: T` bind).
pub const FIELD_OF: char = '\u{1}';

/// In a [`Receiver::Returns`] name, `f{GUARD_OR}T`: a TS/JS value a call of
/// `f` guards (`if (isX(v)) v.m()`): what `f` is declared to return when it is
/// a type guard (`v is X`), else `T`, the type it had (`()g`: what `g`
/// returns; empty: none told).
pub const GUARD_OR: char = '\u{2}';

/// Begins a receiver's type, `{SUPER_OF}T`: the value is the `T` it is
/// written in, seen as its supertypes (`super.m()` in TS/JS and Java, C#'s
/// `base.M()`, PHP's `parent::m()`, Python's `super().m()`): a member is looked
/// for from `T`'s supertypes up, not among `T`'s own (an override calling the
/// method it overrides).
pub const SUPER_OF: char = '\u{4}';

/// Ends a TS/JS receiver's last name with a discriminant, `{DISCRIMINANT}f{DISCRIMINANT}A|B`:
/// the value is of those of its union type's constituents whose field `f` is
/// declared as enum member `A` or `B` (`if (n.kind === SyntaxKind.A)`, `case
/// SyntaxKind.A:` of `switch (n.kind)`).
pub const DISCRIMINANT: char = '\u{3}';

/// Fields a [`Receiver::Member`] chain holds at most (`a.b.c.d.m()`: `b`, `c`,
/// `d`); a longer chain is an unknown receiver. `refs` follows declared fields
/// this many levels up to find the files a type's value can be in.
pub const MAX_CHAIN: usize = 3;

/// One name occurrence in code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefFact {
    pub line: u32,
    pub name: String,
    pub role: RefRole,
    pub receiver: Receiver,
    /// A call's number of arguments, where overloads are told apart by it
    /// (Java, C#, C++; at most [`MAX_ARGS`]); `None` elsewhere.
    pub args: Option<u8>,
}

/// The most arguments a call's count records ([`RefFact::args`]); a call of
/// more records none.
pub const MAX_ARGS: usize = 63;

/// One import statement: the module as written and the names it brings in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportFact {
    pub line: u32,
    /// The module specifier as written (`./store`, `k8s.io/api/core/v1`,
    /// `crate::a::b`, `System.Text`); for a Rust `mod x;` the module's name.
    pub spec: String,
    /// `(name, alias)` pairs: `import { A as B }` is `(A, B)`; a namespace or
    /// whole-module import is `(*, alias)`; a default import `(default, alias)`.
    pub names: Vec<(String, String)>,
    pub kind: ImportKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ImportKind {
    Import = 0,
    /// `export ... from`: the names are re-exported.
    Reexport = 1,
    /// Rust `mod x;`: the module's file.
    Mod = 2,
}

/// Something worth telling about a file that was still indexed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Diagnostic {
    /// The file is not valid UTF-8; invalid bytes were replaced.
    LossyUtf8,
    /// The parser recovered from syntax errors; facts near them may be partial.
    SyntaxErrors { first_line: u32 },
    /// The parser gave no tree; every word was indexed as code.
    ParseFailed,
    /// Parsing ran past its budget (garbage that makes error recovery explode);
    /// every word was indexed as code.
    ParseBudget,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Diagnostic::LossyUtf8 => write!(f, "not valid UTF-8; invalid bytes replaced"),
            Diagnostic::SyntaxErrors { first_line } => {
                write!(f, "syntax errors (first on line {first_line}); facts near them may be partial")
            }
            Diagnostic::ParseFailed => write!(f, "parser gave no tree; indexed words as code"),
            Diagnostic::ParseBudget => write!(f, "parsing ran past its budget; indexed words as code"),
        }
    }
}

//! How a language's names bind: the resolution rules the graph (`crates/graph`)
//! reads from a language's spec instead of matching on the language.
//!
//! Each field names one behaviour, documented by what it decides; a language
//! picks its values in its own file (`go.rs`, `python.rs`, ..). A new language
//! that behaves like existing ones is its spec alone; one with a behaviour no
//! language has yet adds a variant or a field here and the code that reads it.

/// The resolution rules of one language (see the module's documentation).
pub struct Rules {
    /// How files group into the modules, packages or namespaces names are
    /// looked up in.
    pub modules: Modules,
    /// How an import statement's specifier finds the files it imports.
    pub imports: Imports,
    /// Joins a qualified name's parts below its module or namespace
    /// (`Store::add` in Rust, C++, Ruby and PHP; `Store.add` elsewhere).
    pub member_separator: &'static str,
    /// What a call of a type (`new T()`, Python's `T()`, Ruby's `T.new`) runs
    /// besides making a `T`.
    pub constructor: Constructor,
    /// Values carry no static types (Python, Ruby, PHP, JavaScript): a member
    /// of an untyped receiver bound to the project's only definition of its
    /// name is a guess, said as one unless the receiver's type is shown.
    pub dynamic: bool,
    /// Most receivers have no declared type and most `x.get()` are the
    /// library's (Python, Ruby, PHP): several project candidates for a member
    /// of an unknown receiver are counted, not listed.
    pub untyped: bool,
    /// A class declares its members in its body, in one file (Python, Java,
    /// PHP, TS/JS; not C#'s partial classes, Go's and Rust's methods and
    /// impls, C++'s out-of-class definitions, Ruby's reopened classes).
    pub members_in_body: bool,
    /// Code in a type names the type's members (and its bases') plainly:
    /// C#'s, Java's and C++'s implicit `this`, Ruby's implicit `self`.
    pub implicit_self: bool,
    /// Beyond [`Rules::implicit_self`]: a plain name in a method is also a
    /// field of its type declared elsewhere (`invoice_.add()`), and a nested
    /// type's code names the members of the types around it (C#, Java, C++).
    pub implicit_this: bool,
    /// Members may be defined outside their type's body and file
    /// (C++'s `Store::Store() { .. }`).
    pub out_of_class_members: bool,
    /// A function's prototype and its definition are one symbol (C, C++).
    pub prototypes: bool,
    /// Enumerators are declared beside their enum, within its lines, and
    /// named through it (`Mode::SLOW`) or bare (C, C++).
    pub enumerators_beside: bool,
    /// A `case RED:` in a switch names an enum constant bare (Java).
    pub bare_enum_cases: bool,
    /// Which of a language's private top-level declarations no other file sees.
    pub file_local: FileLocal,
    /// Types and values are separate spaces (TS/JS): an interface or a type
    /// alias is no value (a call never binds to it), a value and a type may
    /// share a name (`const Store` and `interface Store`), a member read
    /// without a call is the function itself, and a namespace's exports are
    /// reached through it (`Debug.assert()`).
    pub type_space: bool,
    /// Interfaces of one name in one scope merge (TypeScript).
    pub interface_merging: bool,
    /// An enum's member names a type (`kind: SyntaxKind.Identifier`, TypeScript).
    pub enum_member_types: bool,
    /// A member missing from the receiver's type may be a subtype's: the value
    /// was narrowed (TS) or is of any subtype at run time (JS); a call of a
    /// method also reaches its overrides in subtypes.
    pub subtype_members: bool,
    /// A type implements every interface whose methods it has, declared
    /// nowhere (Go); a field embedding a type is named by it and promotes its
    /// members.
    pub structural_interfaces: bool,
    /// Extension methods: a static method whose first parameter is `this T`
    /// is a member of `T` (C#).
    pub extension_methods: bool,
    /// The names an own type goes by in its own code (PHP's `self` and
    /// `static`, case-insensitive, optionally `?`-prefixed; Rust's `Self`).
    pub own_type_names: &'static [&'static str],
    /// Members a type gets at run time, past its declarations.
    pub runtime_members: RuntimeMembers,
    /// How a member a class neither declares nor inherits reaches it.
    pub mixins: Mixins,
    /// A class's members it inherits are its bases' as the file names them
    /// (Python's method order): a class the file defines takes its own, then
    /// those bases', before other classes of the name.
    pub bases_as_written: bool,
    /// An attribute declared as such (`attr_reader :spec`) is a method, called
    /// as one (Ruby).
    pub attributes_are_methods: bool,
    /// A module's imports are names of the module too (Python's `from .a
    /// import f` in `__init__.py`, Rust's `pub use a::*`).
    pub imports_are_exports: bool,
    /// A package may be in several source roots (Java's modules: guava's
    /// `guava/src` and `android/guava/src`); the nearest one's is meant.
    pub source_roots: bool,
    /// Capitalized receivers that may be a library's class (`Math.max`,
    /// `Console.WriteLine`, `Object.keys`) and bind nothing.
    pub library_types: LibraryTypes,
    /// Import specifiers of the language's own library (prefixes, a leading
    /// `static ` passed over): they bind to no project file.
    pub library_imports: &'static [&'static str],
    /// The member names of the language's own library values (built-in types,
    /// the standard library's common classes), one per line: a member of an
    /// untyped value named so is likely the library's. Empty: none listed.
    pub library_members: &'static str,
    /// Method names are case-insensitive (PHP).
    pub case_insensitive_methods: bool,
}

/// How files group into modules, packages or namespaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modules {
    /// A crate's module tree: a file is a module (`mod.rs`, `lib.rs` and
    /// `main.rs` are their folder's), inline `mod x { .. }` modules, paths
    /// `a::b::c` (Rust).
    Crate,
    /// A package is a folder's files with one package clause (Go).
    Package,
    /// A namespace or package named in the file, its parts joined by the
    /// character (C# and Java `.`, PHP `\`).
    Namespace(char),
    /// A file is a module named by its stem (an `index` file by its folder).
    /// `package_init` is the stem of a package's own file (Python's
    /// `__init__`): that file is its folder's module and re-exports its
    /// submodules. `scripts`: a file without imports or exports is a
    /// script, whose top-level names are global (TS/JS).
    File { package_init: Option<&'static str>, scripts: bool },
    /// No modules: names are global, files are included or required (C, C++, Ruby).
    Global,
}

/// How an import's specifier finds files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imports {
    /// Relative paths, `tsconfig.json` paths and packages (TS/JS).
    Relative,
    /// A package's import path, from `go.mod`'s module (Go).
    GoPackage,
    /// `use` paths through the crate's module tree (Rust).
    CratePath,
    /// The files declaring a namespace, its parts joined by the character
    /// (C# `.`, PHP `\`).
    Namespace(char),
    /// A package's files in the nearest source root; `import a.b.C` only
    /// `C.java` when the package has it; `import static` a member (Java).
    JavaPackage,
    /// Dotted modules, relative (`from . import`) or from a source root (Python).
    PythonModule,
    /// `#include` paths, beside the file or on an include folder (C, C++).
    Include,
    /// `require` / `require_relative` paths (Ruby).
    Require,
}

/// What a call of a type runs besides making one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constructor {
    /// Nothing the graph follows (Go, Rust, C).
    None,
    /// A member named as the type (C#, Java, C++).
    TypeName,
    /// A member of this name (`constructor`, `__construct`, `__init__`).
    Named(&'static str),
    /// A class method `new` runs the member of this name, its own or
    /// inherited (Ruby's `T.new` runs `initialize`).
    New(&'static str),
}

/// Which private top-level declarations no other file sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileLocal {
    Never,
    /// In source files, not headers (a C / C++ `static`).
    SourceFiles,
    /// Always (a TS declaration a namespace's body does not export).
    Always,
}

/// Members a type gets at run time, past its declarations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeMembers {
    None,
    /// `delegate`, concerns, `method_missing`, `__call` / `__callStatic`
    /// (Ruby, PHP): a member the type lacks is as of an untyped value.
    Dynamic,
    /// Through `Deref` or a trait's blanket impl (Rust): the project's one
    /// member of the name, if there is one.
    Deref,
}

/// How a member a class neither declares nor inherits reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mixins {
    None,
    /// The class is a trait, used by others (PHP).
    Traits,
    /// `self.m()` in a class is a mixin's, whose `self` is a class listing it
    /// among its bases (Python).
    Bases,
    /// A module mixed into classes it does not name, or code run on another
    /// object, calls the project's one method of the name (Ruby).
    Modules,
}

/// Which capitalized receivers may be a library's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LibraryTypes {
    /// None (types are imported or declared: Go, Python, C, C++).
    Never,
    /// One the project declares no type of (Java, C#, TS/JS).
    Undeclared,
    /// Any (Ruby, PHP, Rust: the project's type of the name was already tried).
    Always,
}

impl Rules {
    /// No behaviour beyond plain names: what a language's spec starts from
    /// (`..Rules::PLAIN`).
    pub const PLAIN: Rules = Rules {
        modules: Modules::Global,
        imports: Imports::Include,
        member_separator: ".",
        constructor: Constructor::None,
        dynamic: false,
        untyped: false,
        members_in_body: false,
        implicit_self: false,
        implicit_this: false,
        out_of_class_members: false,
        prototypes: false,
        enumerators_beside: false,
        bare_enum_cases: false,
        file_local: FileLocal::Never,
        type_space: false,
        interface_merging: false,
        enum_member_types: false,
        subtype_members: false,
        structural_interfaces: false,
        extension_methods: false,
        own_type_names: &[],
        runtime_members: RuntimeMembers::None,
        mixins: Mixins::None,
        bases_as_written: false,
        attributes_are_methods: false,
        imports_are_exports: false,
        source_roots: false,
        library_types: LibraryTypes::Never,
        library_imports: &[],
        library_members: "",
        case_insensitive_methods: false,
    };

    /// Whether `t` names the type whose code it is in (see [`Rules::own_type_names`]).
    pub fn is_own_type(&self, t: &str) -> bool {
        let t = t.trim_start_matches('?');
        self.own_type_names.iter().any(|n| t == *n || (self.case_insensitive_methods && t.eq_ignore_ascii_case(n)))
    }

    /// Whether an import specifier is of the language's own library.
    pub fn imports_library(&self, spec: &str) -> bool {
        let spec = spec.strip_prefix("static ").unwrap_or(spec);
        self.library_imports.iter().any(|p| spec.starts_with(p) || spec == p.trim_end_matches([':', '.']))
    }

    /// The last name of a scope (`b` of `a.b`, of `A\B`): its module's name.
    pub fn scope_last<'a>(&self, scope: &'a str) -> &'a str {
        let sep = match self.modules {
            Modules::Namespace(c) => c,
            _ => '.',
        };
        scope.rsplit(sep).next().unwrap_or("")
    }
}

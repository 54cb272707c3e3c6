//! One file's bytes → its facts. An [`Extractor`] keeps a tree-sitter parser and the
//! node-role table per grammar, so a thread that extracts many files builds each
//! only once. It is not `Sync`: use one per thread.

use std::path::Path;

use tree_sitter::Parser;
use xxhash_rust::xxh3::xxh3_64;

use super::flat::{Flat, FlatBuf};
use super::tree::{Roles, Visit};
use super::words::lone_cr_to_lf;
use super::{Diagnostic, FileFacts};
use crate::lang::Language;

/// Extracts facts from source bytes.
pub struct Extractor {
    grammars: Vec<Grammar>,
    graph_facts: bool,
    /// The walk's list of a tree's nodes, kept for the next file.
    flat: FlatBuf,
    /// The list of a C++ file's first tree, which the walk reads unless the
    /// file is parsed again ([`export_macro_spans`]).
    flat_first: FlatBuf,
    /// [`PARSE_BUDGET_BASE`] and [`PARSE_BUDGET_PER_MIB`] times this.
    budget_scale: u32,
    /// The walk's one-step anonymous tokens (off only in tests, which compare).
    token_steps: bool,
}

impl Default for Extractor {
    fn default() -> Extractor {
        Extractor {
            grammars: Vec::new(),
            graph_facts: true,
            flat: FlatBuf::default(),
            flat_first: FlatBuf::default(),
            budget_scale: 1,
            token_steps: true,
        }
    }
}

struct Grammar {
    language: Language,
    ext: String,
    parser: Parser,
    roles: Roles,
}

impl Extractor {
    pub fn new() -> Extractor {
        Extractor::default()
    }

    /// Whether to extract graph facts (references, calls, imports; default
    /// yes). Without them a file's facts are the same but for empty `refs`
    /// and `imports`, and the walk skips the work that finds them: what
    /// `cg bench --graph-cost` builds to measure what the graph costs.
    pub fn set_graph_facts(&mut self, on: bool) {
        self.graph_facts = on;
    }

    /// Multiplies each file's parse budget ([`PARSE_BUDGET_BASE`] and
    /// [`PARSE_BUDGET_PER_MIB`]; default 1). For benchmarks that count
    /// instructions under valgrind, which runs code ~50 times slower: with
    /// the budget as it is, a large file's parse is cut off there (and
    /// indexed as words) though it finishes in a real run.
    pub fn set_parse_budget_scale(&mut self, scale: u32) {
        self.budget_scale = scale.max(1);
    }

    pub fn graph_facts(&self) -> bool {
        self.graph_facts
    }

    /// Extracts the facts of one file. `path` is the relative path to record (its
    /// extension picks the grammar); `bytes` its contents; `mtime_ns` its
    /// modification time. Never fails: bad input gives facts plus diagnostics.
    pub fn extract(&mut self, path: &str, language: Language, bytes: &[u8], mtime_ns: i64) -> FileFacts {
        // A bug in extraction stands in for one in unit tests of what callers do
        // then (this crate's tests, and the build's through the `test-hooks`
        // feature, which only the workspace's tests turn on).
        #[cfg(any(test, feature = "test-hooks"))]
        if bytes.starts_with(b"// cg test: extraction panics") {
            panic!("extraction panicked (test)");
        }
        let language = language.refine(path, bytes);
        let mut facts = FileFacts {
            path: path.to_string(),
            language,
            size: bytes.len() as u64,
            hash: xxh3_64(bytes),
            mtime_ns,
            line_types: Vec::new(),
            terms: Vec::new(),
            header: String::new(),
            types: Vec::new(),
            methods: Vec::new(),
            properties: Vec::new(),
            scope: String::new(),
            refs: Vec::new(),
            imports: Vec::new(),
            diagnostics: Vec::new(),
            line_marks: Vec::new(),
        };
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let source = match std::str::from_utf8(body) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => {
                facts.diagnostics.push(Diagnostic::LossyUtf8);
                String::from_utf8_lossy(body)
            }
        };
        let source = lone_cr_to_lf(source);
        let ext = Path::new(path).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        let graph_facts = self.graph_facts;
        let token_steps = self.token_steps;
        let scale = self.budget_scale;
        let mut flat = std::mem::take(&mut self.flat);
        let mut flat_first = std::mem::take(&mut self.flat_first);
        let grammar = self.grammar(language, &ext);
        let spec = language.spec();
        let (first, timed_out) = parse_bounded(&mut grammar.parser, source.as_bytes(), None, scale);
        // C++ classes declared with an export macro (`class API Name : Base {
        // .. }`) parse as a function whose body is the class's: its
        // constructors become calls and its bases errors; a macro alone on a
        // line of a class body (`Q_OBJECT`) swallows the access label and
        // constructor after it. The file is parsed again with those macros
        // blanked out (same offsets and lines); the walk reads the text as
        // written, and takes the macros' words itself.
        let first_list = match &first {
            Some(t) if spec.dialect.export_macro_classes => Some(flat_first.list(t.root_node())),
            _ => None,
        };
        let macros = first_list.map_or_else(Vec::new, |l| export_macro_spans(l, &grammar.roles, source.as_bytes()));
        let again = match &first {
            Some(t) if !macros.is_empty() => reparse_blanked(&mut grammar.parser, t, source.as_bytes(), &macros, scale),
            _ => None,
        };
        let mut visit = Visit::new(&source, spec, &grammar.roles);
        visit.graph_facts = graph_facts;
        visit.token_steps = token_steps;
        match again.as_ref().or(first.as_ref()) {
            Some(tree) => {
                let root = tree.root_node();
                let list = match first_list.filter(|_| again.is_none()) {
                    Some(listed) => listed,
                    None => flat.list(root),
                };
                if list.len() == 0 {
                    // The node list could not be made (memory ran out):
                    // every word is indexed, as without a tree.
                    visit.words_only();
                    visit.finish(&mut facts, true);
                } else {
                    visit.walk(list);
                    for (r, row) in &macros {
                        visit.macro_word(r.clone(), *row);
                    }
                    facts.header = visit.header(root);
                    visit.finish(&mut facts, false);
                }
            }
            None => {
                visit.words_only();
                visit.finish(&mut facts, true);
            }
        }
        if timed_out {
            facts.diagnostics.retain(|d| *d != Diagnostic::ParseFailed);
            facts.diagnostics.push(Diagnostic::ParseBudget);
        }
        self.flat = flat;
        self.flat_first = flat_first;
        facts.line_marks = super::marks::line_marks(bytes, facts.line_count());
        facts
    }

    /// Only parses the bytes, as [`Extractor::extract`] would, and returns the
    /// number of nodes' bytes covered by the root: the baseline that extraction's
    /// overhead is measured against (`cg extract --parse-only`, benches).
    pub fn parse_only(&mut self, path: &str, language: Language, bytes: &[u8]) -> usize {
        self.parse(path, language, bytes).map_or(0, |t| t.root_node().end_byte())
    }

    /// The tree of the bytes as [`Extractor::extract`] parses them (none when
    /// parsing failed or ran past its budget).
    fn parse(&mut self, path: &str, language: Language, bytes: &[u8]) -> Option<tree_sitter::Tree> {
        let language = language.refine(path, bytes);
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let source = lone_cr_to_lf(String::from_utf8_lossy(body));
        let ext = Path::new(path).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        let scale = self.budget_scale;
        let grammar = self.grammar(language, &ext);
        parse_bounded(&mut grammar.parser, source.as_bytes(), None, scale).0
    }

    /// Parses the bytes and visits every node of the tree as the walk lists them, doing
    /// nothing else: the least any extraction that looks at every node costs.
    /// Returns the number of nodes (benches print it as the walk's floor).
    pub fn parse_and_walk(&mut self, path: &str, language: Language, bytes: &[u8]) -> usize {
        let Some(tree) = self.parse(path, language, bytes) else { return 0 };
        let flat = self.flat.list(tree.root_node());
        for i in 0..flat.len() {
            let n = flat.get(i);
            std::hint::black_box((n.kind, n.field));
        }
        flat.len()
    }

    fn grammar(&mut self, language: Language, ext: &str) -> &mut Grammar {
        let spec = language.spec();
        // Extensions that share a grammar share an entry (`.ts` / `.mts`, all of JS).
        let ts_language = (spec.grammar)(ext);
        let found = self
            .grammars
            .iter()
            .position(|g| g.language == language && (g.ext == ext || (spec.grammar)(&g.ext) == ts_language));
        let index = match found {
            Some(i) => i,
            None => {
                let mut parser = Parser::new();
                parser.set_language(&ts_language).expect("bundled grammars match the tree-sitter library version");
                let roles = Roles::new(spec, &ts_language);
                self.grammars.push(Grammar { language, ext: ext.to_string(), parser, roles });
                self.grammars.len() - 1
            }
        };
        &mut self.grammars[index]
    }
}

/// The byte ranges of the C++ macros the grammar misread: export macros of
/// classes (`class LEVELDB_EXPORT Env {` as a function `Env` returning `class
/// LEVELDB_EXPORT`: a class, struct or union specifier named in capitals,
/// without a body, as the result type of a function definition whose
/// declarator is a plain name, `Env`, or `final` after an error holding the
/// name, not a function declarator), and macros alone on a line of a class
/// body (`Q_OBJECT`, [`misread_body_macro`]). Only declarations are looked in
/// (namespaces, linkage blocks, templates, class bodies, preprocessor
/// branches, and the bodies misread so), not function bodies. Each with its
/// line (0-based).
fn export_macro_spans(flat: Flat<'_, '_>, roles: &Roles, src: &[u8]) -> Vec<(std::ops::Range<usize>, u32)> {
    const CONTAINERS: [&str; 13] = [
        "translation_unit",
        "namespace_definition",
        "declaration_list",
        "linkage_specification",
        "template_declaration",
        "class_specifier",
        "struct_specifier",
        "union_specifier",
        "field_declaration_list",
        "preproc_if",
        "preproc_ifdef",
        "preproc_else",
        "preproc_elif",
    ];
    let nodes = Nodes { flat, roles };
    let mut out = Vec::new();
    let mut stack = if flat.len() > 0 { vec![0] } else { Vec::new() };
    while let Some(node) = stack.pop() {
        for child in flat.children(node).filter(|&c| flat.named(c)) {
            let kind = nodes.kind(child);
            if kind == "function_definition" {
                if let Some(span) = misread_export_macro(&nodes, child, src) {
                    out.push(span);
                    // Its body is the class's: nested classes may be misread too.
                    stack.extend(nodes.field(child, "body"));
                }
            } else if kind == "field_declaration" {
                out.extend(misread_body_macro(&nodes, child, src));
            } else if CONTAINERS.contains(&kind) {
                stack.push(child);
            }
        }
    }
    out.sort_by_key(|(r, _)| r.start);
    out
}

/// A tree's node list with its grammar's kind and field names: what the
/// macro checks ask of a node, by its index in the list.
struct Nodes<'f, 'b, 'tree> {
    flat: Flat<'b, 'tree>,
    roles: &'f Roles,
}

impl Nodes<'_, '_, '_> {
    fn kind(&self, i: usize) -> &'static str {
        self.roles.kind_name(self.flat.get(i).kind)
    }

    /// `child_by_field_name` ([`Flat::child_in_field`]).
    fn field(&self, i: usize, name: &str) -> Option<usize> {
        self.flat.child_in_field(i, self.roles.field_id(name)?.get())
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        let n = self.flat.get(i);
        n.start_byte as usize..n.end_byte as usize
    }
}

/// [`export_macro_spans`] for a class member that is a macro alone on its
/// line (`Q_OBJECT`, then `public: Widget();` on the next lines): read as the
/// type of a field declaration that takes in what follows (the access label as
/// its name, the constructor as a bit field).
fn misread_body_macro(nodes: &Nodes<'_, '_, '_>, field: usize, src: &[u8]) -> Option<(std::ops::Range<usize>, u32)> {
    let ty = nodes.field(field, "type")?;
    let (t, f) = (nodes.flat.get(ty), nodes.flat.get(field));
    if nodes.kind(ty) != "type_identifier" || t.start_byte != f.start_byte || !capitals(src.get(nodes.range(ty))?) {
        return None;
    }
    if f.end_row == t.end_row {
        return None;
    }
    let (start, end) = (t.start_byte as usize, t.end_byte as usize);
    let before = src.get(..start)?;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let after = src.get(end..)?;
    let line_end = after.iter().position(|&b| b == b'\n').map_or(src.len(), |i| end + i);
    let blank = |r: std::ops::Range<usize>| src.get(r).is_some_and(|b| b.iter().all(u8::is_ascii_whitespace));
    (blank(line_start..start) && blank(end..line_end)).then_some((start..end, t.start_row))
}

/// Whether a name is written in capitals (a macro's, by convention): two
/// characters or more, uppercase letters, digits and underscores, one letter
/// at least.
fn capitals(text: &[u8]) -> bool {
    text.len() > 1
        && text.iter().any(u8::is_ascii_uppercase)
        && text.iter().all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// [`export_macro_spans`] for one function definition.
fn misread_export_macro(
    nodes: &Nodes<'_, '_, '_>,
    function: usize,
    src: &[u8],
) -> Option<(std::ops::Range<usize>, u32)> {
    let ty = nodes.field(function, "type")?;
    if !matches!(nodes.kind(ty), "class_specifier" | "struct_specifier" | "union_specifier")
        || nodes.field(ty, "body").is_some()
    {
        return None;
    }
    let declarator = nodes.field(function, "declarator")?;
    if !matches!(nodes.kind(declarator), "identifier" | "field_identifier" | "type_identifier") {
        return None;
    }
    let name = nodes.field(ty, "name")?;
    capitals(src.get(nodes.range(name))?).then(|| (nodes.range(name), nodes.flat.get(name).start_row))
}

/// How long parsing one file may take: [`PARSE_BUDGET_BASE`] plus
/// [`PARSE_BUDGET_PER_MIB`] per MiB of source. Kubernetes' largest Go file (1.6 MiB
/// of generated protobuf code) parses in 0.35-0.44 s on one thread of this 2-core
/// machine, a tenth of its 5.2 s budget; garbage that sends tree-sitter's error
/// recovery into slow steps (a 1.3 MB line of identifiers took 95 s, in only ~5,000
/// progress checks, so counting steps does not catch it) is cut off and indexed as
/// words, with a diagnostic.
pub const PARSE_BUDGET_BASE: std::time::Duration = std::time::Duration::from_secs(2);
pub const PARSE_BUDGET_PER_MIB: std::time::Duration = std::time::Duration::from_secs(2);

/// `tree` of `source` parsed again with the `macros` spans blanked out (same
/// offsets and lines): incrementally, the old tree told which spans changed,
/// so it lends the parser every subtree away from them. None when the parse
/// fails or runs past its budget (the first tree is kept then).
fn reparse_blanked(
    parser: &mut Parser,
    tree: &tree_sitter::Tree,
    source: &[u8],
    macros: &[(std::ops::Range<usize>, u32)],
    scale: u32,
) -> Option<tree_sitter::Tree> {
    let mut blanked = source.to_vec();
    for (r, _) in macros {
        if let Some(span) = blanked.get_mut(r.clone()) {
            span.fill(b' ');
        }
    }
    let one_line = macros.iter().all(|(r, _)| source.get(r.clone()).is_some_and(|b| !b.contains(&b'\n')));
    let old = one_line.then(|| {
        let mut old = tree.clone();
        for (r, row) in macros {
            old.edit(&same_length_edit(&blanked, r.clone(), *row));
        }
        old
    });
    match parse_bounded(parser, &blanked, old.as_ref(), scale) {
        (Some(again), false) => Some(again),
        _ => None,
    }
}

/// An edit replacing the bytes of `range` (on line `row`, 0-based) by as many
/// others on the same line: what blanking a macro out is.
fn same_length_edit(src: &[u8], range: std::ops::Range<usize>, row: u32) -> tree_sitter::InputEdit {
    let line_start = src[..range.start.min(src.len())].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let start = tree_sitter::Point { row: row as usize, column: range.start - line_start };
    let end = tree_sitter::Point { row: row as usize, column: range.end - line_start };
    tree_sitter::InputEdit {
        start_byte: range.start,
        old_end_byte: range.end,
        new_end_byte: range.end,
        start_position: start,
        old_end_position: end,
        new_end_position: end,
    }
}

/// Parses `source` within its time budget (times `scale`); `(None, true)`
/// when the budget ran out. Reuses the parts of `old` (an earlier tree of
/// it, edited to match) that no edit touched.
fn parse_bounded(
    parser: &mut Parser,
    source: &[u8],
    old: Option<&tree_sitter::Tree>,
    scale: u32,
) -> (Option<tree_sitter::Tree>, bool) {
    let budget = (PARSE_BUDGET_BASE + PARSE_BUDGET_PER_MIB.mul_f64(source.len() as f64 / (1 << 20) as f64)) * scale;
    let started = std::time::Instant::now();
    let mut over_budget = false;
    // Called about every 100 parser operations.
    let mut stop = |_: &tree_sitter::ParseState| {
        over_budget = started.elapsed() > budget;
        over_budget
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut stop);
    let mut read = |i: usize, _| source.get(i..).unwrap_or_default();
    let tree = parser.parse_with_options(&mut read, old, Some(options));
    if over_budget {
        // A cancelled parse would resume at the next call: start clean.
        parser.reset();
        return (None, true);
    }
    (tree, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::LineType;

    fn lines_of(facts: &FileFacts, term: &str) -> Vec<u32> {
        facts.terms.iter().find(|t| t.term == term).map(|t| t.lines.clone()).unwrap_or_default()
    }

    /// The tree of a C++ file parsed again with its export macros blanked:
    /// as extraction does (incrementally), and afresh.
    fn blanked_trees(src: &str) -> Option<(tree_sitter::Tree, tree_sitter::Tree)> {
        let mut parser = Parser::new();
        parser.set_language(&Language::Cpp.grammar(Path::new("a.h"))).unwrap();
        let first = parser.parse(src, None)?;
        let roles = Roles::new(Language::Cpp.spec(), &Language::Cpp.grammar(Path::new("a.h")));
        let mut buf = FlatBuf::default();
        let macros = export_macro_spans(buf.list(first.root_node()), &roles, src.as_bytes());
        if macros.is_empty() {
            return None;
        }
        let incremental = reparse_blanked(&mut parser, &first, src.as_bytes(), &macros, 1)?;
        let mut blanked = src.as_bytes().to_vec();
        for (r, _) in &macros {
            blanked[r.clone()].fill(b' ');
        }
        let fresh = parse_bounded(&mut parser, &blanked, None, 1).0?;
        Some((incremental, fresh))
    }

    /// Every node's kind and byte range, in a cursor's order.
    fn shape(tree: &tree_sitter::Tree) -> Vec<(String, std::ops::Range<usize>, (usize, usize))> {
        let mut out = Vec::new();
        let mut cursor = tree.walk();
        loop {
            let n = cursor.node();
            out.push((n.kind().to_string(), n.byte_range(), (n.start_position().row, n.start_position().column)));
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    return out;
                }
            }
        }
    }

    /// Blanking export macros reparses incrementally; the tree must be the one
    /// a fresh parse of the blanked text gives.
    #[test]
    fn cpp_export_macros_reparse_incrementally_to_the_fresh_tree() {
        let sources = [
            "#define API\nnamespace ns {\nclass API Base {\n public:\n  Base();\n  virtual ~Base();\n};\n\
             class API Derived : public Base {\n public:\n  Derived();\n  class API Inner final {\n    Inner(int a);\n  };\n};\n}\n",
            "class Widget : public QObject {\n  Q_OBJECT\n\n public:\n  Widget();\n  void paint();\n};\n",
            "namespace leveldb {\n\nclass LEVELDB_EXPORT Slice {\n public:\n  Slice() : data_(\"\"), size_(0) {}\n  \
             size_t size() const { return size_; }\n\n private:\n  const char* data_;\n  size_t size_;\n};\n\n\
             struct LEVELDB_EXPORT Options {\n  Options();\n  bool create_if_missing = false;\n};\n}  // namespace leveldb\n",
        ];
        for src in sources {
            let (incremental, fresh) = blanked_trees(src).expect("the source has export macros");
            assert_eq!(shape(&incremental), shape(&fresh), "{src}");
        }
    }

    #[test]
    fn keywords_are_not_terms_and_identifiers_are() {
        let f = Extractor::new().extract("a.rs", Language::Rust, b"fn main() { let x: u32 = helper(); }\n", 0);
        let terms: Vec<_> = f.terms.iter().map(|t| t.term.as_str()).collect();
        assert_eq!(terms, ["helper", "main", "x"]);
    }

    #[test]
    fn string_escapes_separate_words() {
        let f = Extractor::new().extract("a.go", Language::Go, b"package p\nvar s = \"hello\\nworld\"\n", 0);
        assert_eq!(lines_of(&f, "hello"), [2]);
        assert_eq!(lines_of(&f, "world"), [2]);
        assert!(lines_of(&f, "nworld").is_empty());
    }

    #[test]
    fn template_substitutions_are_code_inside_strings() {
        let src = b"log(`total ${count} items`);\nlog(`only text`);\n";
        let f = Extractor::new().extract("a.ts", Language::TypeScript, src, 0);
        assert_eq!(lines_of(&f, "count"), [1]);
        assert_eq!(lines_of(&f, "items"), [1]);
        assert_eq!(f.line_types, [LineType::Code, LineType::Code]);
    }

    #[test]
    fn empty_and_binaryish_input_never_panics() {
        let mut e = Extractor::new();
        for lang in Language::ALL {
            let f = e.extract("x", lang, b"", 0);
            assert_eq!(f.line_count(), 0);
            let f = e.extract("x", lang, b"\xff\xfe{{{\n\n\"unterminated", 0);
            assert_eq!(f.line_count(), 3);
            assert!(f.diagnostics.contains(&Diagnostic::LossyUtf8));
        }
    }

    /// Regression: a one-line file of 1.3 MB of identifiers took 95 s to parse (2 MB:
    /// minutes), blocking init, update and watch the whole time.
    #[test]
    fn garbage_that_parses_slowly_is_cut_off_and_indexed_as_words() {
        let text: String = (0..60_000).map(|i| format!("ident{i} ")).collect();
        let started = std::time::Instant::now();
        let f = Extractor::new().extract("g.go", Language::Go, text.as_bytes(), 0);
        let took = started.elapsed();
        assert_eq!(f.diagnostics, [Diagnostic::ParseBudget], "took {took:?}");
        assert_eq!(f.terms.len(), 60_000);
        assert!(lines_of(&f, "ident59999") == [1]);
    }

    /// Regression: a file with old Mac line ends (CR only) was one line.
    #[test]
    fn carriage_returns_alone_end_lines() {
        let f = Extractor::new().extract("a.go", Language::Go, b"package p\r\rfunc A() {}\r// done\r", 0);
        assert_eq!(f.line_count(), 4);
        assert_eq!(lines_of(&f, "A"), [3]);
        assert_eq!(f.line_types[2], LineType::Method);
        let crlf = Extractor::new().extract("a.go", Language::Go, b"package p\r\n\r\nfunc A() {}\r\n", 0);
        assert_eq!(lines_of(&crlf, "A"), [3]);
    }

    /// The walk floor of the benches visits every node once.
    #[test]
    fn parse_and_walk_visits_every_node() {
        fn count(node: tree_sitter::Node<'_>) -> usize {
            1 + node.children(&mut node.walk()).map(count).sum::<usize>()
        }
        let src = b"package p\n\n// A doc.\nfunc A(x int) int { return x + 1 }\n";
        let mut parser = Parser::new();
        parser.set_language(&Language::Go.grammar(Path::new("a.go"))).unwrap();
        let tree = parser.parse(src, None).unwrap();
        let want = count(tree.root_node());
        assert!(want > 20, "{want}");
        assert_eq!(Extractor::new().parse_and_walk("a.go", Language::Go, src), want);
    }

    #[test]
    fn utf8_bom_is_ignored() {
        let f = Extractor::new().extract("a.cs", Language::CSharp, b"\xEF\xBB\xBFclass Foo {}\n", 0);
        assert_eq!(f.types.len(), 1);
        assert_eq!(f.types[0].name, "Foo");
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    }

    /// The facts of a file with and without the walk's one-step tokens
    /// (`Visit::token` in tree/mod.rs), as text.
    fn with_and_without_token_steps(language: Language, path: &str, src: &[u8]) -> (String, String) {
        let mut fast = Extractor::new();
        let mut slow = Extractor::new();
        slow.token_steps = false;
        (format!("{:?}", fast.extract(path, language, src, 0)), format!("{:?}", slow.extract(path, language, src, 0)))
    }

    #[test]
    fn token_steps_change_no_fact_of_any_fixture() {
        let mut checked = 0;
        for dir in ["fixtures/extract", "fixtures/graph"] {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(dir);
            let walk = crate::extract::walk(&root, &crate::extract::WalkOptions::default()).unwrap();
            for f in walk.files {
                let src = std::fs::read(&f.abs).unwrap();
                let (fast, slow) = with_and_without_token_steps(f.language, &f.rel, &src);
                assert_eq!(fast, slow, "{}", f.rel);
                checked += 1;
            }
        }
        assert!(checked > 40, "{checked} fixtures");
    }

    /// What the one-step tokens must still do: end a run of comments (the
    /// `;` between a comment and a method), mark a keyword's line as code,
    /// leave a made-up token's line as the first error, and leave the tokens
    /// in a string's code parts and after a narrowing to the whole walk.
    #[test]
    fn token_steps_keep_runs_code_lines_errors_strings_and_narrowings() {
        let cases: [(Language, &str, &str); 10] = [
            (Language::Java, "A.java", "class A {\n  // not f's\n  ; void f() {}\n  // g's\n  void g() {}\n}\n"),
            (Language::CSharp, "A.cs", "class A {\n  /// not F's\n  ; void F() {}\n}\n"),
            (Language::JavaScript, "a.js", "// not f's\n;function f() {}\n"),
            (Language::Php, "a.php", "<?php\n// not f's\n;function f() {}\n"),
            (Language::Java, "B.java", "class B {\n  void f() {\n    return\n  }\n}\n"),
            (Language::Rust, "a.rs", "fn f() { let x = g(1 }\nstruct S;\n"),
            (Language::Python, "a.py", "x = f'{a if b else c}' \\\n  if y else z\n"),
            (Language::TypeScript, "a.ts", "function f(v: A | B) {\n  if (!isA(v)) return;\n  v.m();\n}\nfunction g(v: A) {\n  if (!isA(v)) { return }\n}\nclass C { m() {} }\n"),
            (Language::Ruby, "a.rb", "x = \"a#{b if c}d\"\nif y then z end\n"),
            // The string's opening token is `"` by kind, `%Q(` by text.
            (Language::Ruby, "b.rb", "x = [\n%Q(\na #{\nb} c)\n]\n"),
        ];
        for (language, path, src) in cases {
            let (fast, slow) = with_and_without_token_steps(language, path, src.as_bytes());
            assert_eq!(fast, slow, "{path}");
        }
        // The first case's doc comments: the `;` ended the run before `f`.
        let f = Extractor::new().extract("A.java", Language::Java, cases[0].2.as_bytes(), 0);
        let doc = |name: &str| f.methods.iter().find(|m| m.name == name).map(|m| m.doc.clone());
        assert_eq!(doc("f").as_deref(), Some(""));
        assert_eq!(doc("g").as_deref(), Some("g's"));
    }

    proptest::proptest! {
        #[test]
        fn token_steps_change_no_fact_of_arbitrary_bytes(
            src in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            which in 0usize..Language::ALL.len(),
        ) {
            let language = Language::ALL[which];
            let ext = language.spec().extensions.first().copied().unwrap_or("txt");
            let (fast, slow) = with_and_without_token_steps(language, &format!("a.{ext}"), &src);
            proptest::prop_assert_eq!(fast, slow);
        }

        #[test]
        fn token_steps_change_no_fact_of_code_like_text(
            src in "([a-z]{1,4}|[(){}\\[\\];,.:<>=+*&|!?\"'#/$@ \n]|//|/\\*|\\*/|if|return){0,80}",
            which in 0usize..Language::ALL.len(),
        ) {
            let language = Language::ALL[which];
            let ext = language.spec().extensions.first().copied().unwrap_or("txt");
            let (fast, slow) = with_and_without_token_steps(language, &format!("a.{ext}"), src.as_bytes());
            proptest::prop_assert_eq!(fast, slow);
        }
    }
}

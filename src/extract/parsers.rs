//! One file's bytes → its facts. An [`Extractor`] keeps a tree-sitter parser and the
//! node-role table per grammar, so a thread that extracts many files builds each
//! only once. It is not `Sync`: use one per thread.

use std::path::Path;

use tree_sitter::Parser;
use xxhash_rust::xxh3::xxh3_64;

use super::tree::{Roles, Visit};
use super::{Diagnostic, FileFacts};
use crate::lang::Language;

/// Extracts facts from source bytes.
#[derive(Default)]
pub struct Extractor {
    grammars: Vec<Grammar>,
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

    /// Extracts the facts of one file. `path` is the relative path to record (its
    /// extension picks the grammar); `bytes` its contents; `mtime_ns` its
    /// modification time. Never fails: bad input gives facts plus diagnostics.
    pub fn extract(&mut self, path: &str, language: Language, bytes: &[u8], mtime_ns: i64) -> FileFacts {
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
            diagnostics: Vec::new(),
        };
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let source = match std::str::from_utf8(body) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => {
                facts.diagnostics.push(Diagnostic::LossyUtf8);
                String::from_utf8_lossy(body)
            }
        };
        let ext = Path::new(path).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        let grammar = self.grammar(language, &ext);
        let spec = language.spec();
        let tree = grammar.parser.parse(source.as_bytes(), None);
        let mut visit = Visit::new(&source, spec, &grammar.roles);
        match &tree {
            Some(tree) => {
                let root = tree.root_node();
                visit.walk(root);
                facts.header = visit.header(root);
                visit.finish(&mut facts, false);
            }
            None => {
                visit.words_only();
                visit.finish(&mut facts, true);
            }
        }
        facts
    }

    /// Only parses the bytes, as [`Extractor::extract`] would, and returns the
    /// number of nodes' bytes covered by the root: the baseline that extraction's
    /// overhead is measured against (`cg extract --parse-only`, benches).
    pub fn parse_only(&mut self, path: &str, language: Language, bytes: &[u8]) -> usize {
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let source = String::from_utf8_lossy(body);
        let ext = Path::new(path).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        let grammar = self.grammar(language, &ext);
        grammar.parser.parse(source.as_bytes(), None).map_or(0, |t| t.root_node().end_byte())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::LineType;

    fn lines_of(facts: &FileFacts, term: &str) -> Vec<u32> {
        facts.terms.iter().find(|t| t.term == term).map(|t| t.lines.clone()).unwrap_or_default()
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
        let src = b"const a = `total ${count} items`;\nconst b = `only text`;\n";
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

    #[test]
    fn utf8_bom_is_ignored() {
        let f = Extractor::new().extract("a.cs", Language::CSharp, b"\xEF\xBB\xBFclass Foo {}\n", 0);
        assert_eq!(f.types.len(), 1);
        assert_eq!(f.types[0].name, "Foo");
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    }
}

//! Property tests of extraction on generated input: it never panics, and every
//! (term, line) it reports is one word that really stands on that line.

use codegraph::extract::{words, Extractor, FileFacts};
use codegraph::lang::Language;
use proptest::prelude::*;

const PATHS: [&str; 14] = [
    "f.cs", "f.ts", "f.tsx", "f.js", "f.rs", "f.go", "f.py", "f.java", "f.c", "f.h", "f.cpp", "f.php", "f.rb",
    "Rakefile",
];

/// Fragments that make plausible and implausible code in all eleven languages.
const TOKENS: &[&str] = &[
    "def ",
    "self.",
    "\"\"\"doc\nstring\"\"\"",
    "# hash comment\n",
    "from . import ",
    "import ",
    "#include \"x.h\"\n",
    "#define M(a) a\n",
    "typedef ",
    "::",
    "namespace ",
    "template <typename T> ",
    "public:",
    "<?php ",
    "$x",
    "->",
    "@ivar",
    "end\n",
    "require_relative 'a'\n",
    "attr_accessor :a\n",
    "class ",
    "struct ",
    "fn ",
    "func ",
    "function ",
    "impl ",
    "interface ",
    "enum ",
    "public ",
    "static ",
    "async ",
    "const ",
    "let ",
    "var ",
    "type ",
    "Foo",
    "bar",
    "baz_1",
    "Größe",
    "x",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ";",
    ",",
    ":",
    "=",
    "=>",
    "->",
    ".",
    "\n",
    "\n",
    " ",
    "\"str ing\"",
    "'c'",
    "`tmpl ${a} b`",
    "$\"in {x} terp\"",
    "r#\"raw\"#",
    "@\"verb\"",
    "// line comment\n",
    "/* block */",
    "/** doc\n * more */",
    "/// doc\n",
    "#[attr]",
    "@Deco()",
    "\\",
    "\"unterminated",
    "/*",
    "'",
    "`",
    "0x1F",
    "42",
    "_",
    "r#match",
    "#priv",
    "\u{feff}",
    "\r\n",
    "\r",
    "\t",
];

fn source() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..120).prop_map(|v| v.concat())
}

/// The invariants every facts value keeps. Lines end at `\n`, and at a `\r` not
/// followed by one (old Mac line ends).
fn check(facts: &FileFacts, text: &str) {
    let text = words::lone_cr_to_lf(std::borrow::Cow::Borrowed(text));
    let lines: Vec<&str> = text.split('\n').collect();
    assert_eq!(facts.line_types.len() as u32, facts.line_count());
    for pair in facts.terms.windows(2) {
        assert!(pair[0].term < pair[1].term, "terms sorted and distinct");
    }
    for t in &facts.terms {
        assert!(!t.lines.is_empty());
        assert!(t.lines.windows(2).all(|w| w[0] < w[1]), "lines sorted and distinct");
        for &l in &t.lines {
            assert!(l >= 1 && l <= facts.line_count(), "line {l} out of range");
            let line = lines[l as usize - 1];
            // The parser may split text differently from the word rule (`0A` is a
            // number and a name to it), so the oracle is containment.
            assert!(line.contains(t.term.as_str()), "term {:?} not on line {l}: {line:?}", t.term);
            let mut is_word = true;
            words::for_each_word(&t.term, 0, words::WordSource::Code, |w, _| is_word &= w == t.term);
            assert!(is_word, "term {:?} is one word", t.term);
        }
    }
    for m in &facts.methods {
        assert!(m.line >= 1 && m.line <= facts.line_count());
    }
    for ty in &facts.types {
        assert!(ty.line >= 1 && ty.line <= facts.line_count());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn token_soup_gives_consistent_facts(src in source(), pick in 0usize..PATHS.len()) {
        let path = PATHS[pick];
        let lang = Language::from_path(std::path::Path::new(path)).unwrap();
        let mut e = Extractor::new();
        let facts = e.extract(path, lang, src.as_bytes(), 0);
        let text = src.strip_prefix('\u{feff}').unwrap_or(&src);
        check(&facts, text);
        prop_assert_eq!(&facts, &e.extract(path, lang, src.as_bytes(), 0), "deterministic");
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), pick in 0usize..PATHS.len()) {
        let path = PATHS[pick];
        let lang = Language::from_path(std::path::Path::new(path)).unwrap();
        let facts = Extractor::new().extract(path, lang, &bytes, 0);
        let text = String::from_utf8_lossy(&bytes);
        check(&facts, text.strip_prefix('\u{feff}').unwrap_or(&text));
    }
}

#[test]
fn deeply_nested_input_does_not_overflow_the_stack() {
    let src = format!("fn f() {{ {} }}", "(".repeat(100_000));
    let facts = Extractor::new().extract("deep.rs", Language::Rust, src.as_bytes(), 0);
    assert_eq!(facts.line_count(), 1);
}

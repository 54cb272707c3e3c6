//! Arbitrary bytes, as any language, never panic extraction, and the facts keep
//! their invariants. The first byte picks the language and grammar.
#![no_main]

use codegraph::extract::Extractor;
use codegraph::lang::Language;
use libfuzzer_sys::fuzz_target;

const PATHS: [&str; 15] = [
    "f.cs", "f.ts", "f.tsx", "f.js", "f.rs", "f.go", "f.jsx", "f.py", "f.java", "f.c", "f.h", "f.cpp", "f.php", "f.rb",
    "Rakefile",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, source)) = data.split_first() else { return };
    let path = PATHS[pick as usize % PATHS.len()];
    let language = Language::from_path(std::path::Path::new(path)).unwrap();
    let facts = Extractor::new().extract(path, language, source, 0);
    let lines = facts.line_count();
    for t in &facts.terms {
        assert!(!t.term.is_empty());
        assert!(t.lines.windows(2).all(|w| w[0] < w[1]));
        assert!(t.lines.iter().all(|&l| l >= 1 && l <= lines));
    }
});

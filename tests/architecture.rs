//! The boundaries ARCHITECTURE.md states, checked on the source: language
//! knowledge lives in `crates/syntax/src/lang` (each language's spec, rules and
//! dialect), so code outside it never names a particular language.

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `Language::Go`, `Language::Cpp`, ... outside comments and test modules.
fn language_names(text: &str) -> Vec<(usize, String)> {
    let variants = ["CSharp", "TypeScript", "JavaScript", "Rust", "Go", "Python", "Java", "C", "Cpp", "Php", "Ruby"];
    // Unit tests sit in a `#[cfg(test)] mod tests` at the end of a file.
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = Vec::new();
    for (i, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(at) = rest.find("Language::") {
            rest = &rest[at + "Language::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
            if variants.contains(&name.as_str()) {
                found.push((i + 1, line.trim().to_string()));
            }
        }
    }
    found
}

#[test]
fn no_code_outside_lang_matches_on_a_particular_language() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "crates"] {
        rust_files(&root.join(dir), &mut files);
    }
    let lang = root.join("crates/syntax/src/lang");
    let mut offenders = Vec::new();
    for f in files.iter().filter(|f| !f.starts_with(&lang)) {
        let text = fs::read_to_string(f).unwrap();
        for (line, code) in language_names(&text) {
            offenders.push(format!("{}:{line}: {code}", f.strip_prefix(root).unwrap().display()));
        }
    }
    assert!(
        offenders.is_empty(),
        "name a behaviour in the language's Rules or Dialect (crates/syntax/src/lang) instead:\n{}",
        offenders.join("\n")
    );
    // The scan sees what it looks for.
    assert_eq!(language_names("let x = Language::Go;\n// Language::Rust\n").len(), 1);
}

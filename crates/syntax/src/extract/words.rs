//! Words: how text becomes terms.
//!
//! A *word* is a maximal run of Unicode letters, digits and `_`. Everything else
//! (punctuation, comment markers, quotes, `$`, `@`, `#`) separates words. A word that
//! starts with a digit is a number and is never a term. Words longer than
//! [`MAX_TERM_BYTES`] are dropped (minified blobs, base64), and so are words made
//! only of `_` (Go's blank identifier, Rust's `'_`). In code every identifier
//! word is a term, one letter or not (`i`, `T`); in comments and strings words of one
//! character are dropped, since there they are prose (`a`, `I`) or escapes.

/// Longest term kept, in bytes.
pub const MAX_TERM_BYTES: usize = 128;

/// Where a word comes from; decides the minimum length.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WordSource {
    Code,
    Prose,
}

#[inline]
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The subwords of an identifier, as written: `getUserById` → get, User, By, Id;
/// `HTMLParser` → HTML, Parser; `user_id` → user, id; `utf8String` → utf8,
/// String; `V1Beta1` → V1, Beta1. A part starts after `_` (or any character that
/// is not a letter or digit), at an upper-case letter after a lower-case letter or
/// a digit, and at the last upper-case letter of a run followed by a lower-case
/// one. Digits stay with the letters before them. Indexing and querying split
/// the same way (`format/README.md`, subword index).
pub fn subwords(term: &str) -> Subwords<'_> {
    Subwords { term, at: 0, ascii: term.is_ascii() }
}

/// The iterator [`subwords`] returns.
pub struct Subwords<'t> {
    term: &'t str,
    at: usize,
    ascii: bool,
}

impl<'t> Iterator for Subwords<'t> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        if self.ascii {
            return self.next_ascii();
        }
        let rest = &self.term[self.at..];
        // Skip separators.
        let skip = rest.char_indices().find(|(_, c)| c.is_alphanumeric()).map(|(i, _)| i)?;
        let start = self.at + skip;
        let mut chars = self.term[start..].char_indices().peekable();
        let mut prev: Option<char> = None;
        let mut end = self.term.len();
        while let Some((i, c)) = chars.next() {
            if !c.is_alphanumeric() {
                end = start + i;
                break;
            }
            if let Some(p) = prev {
                let next_lower = chars.peek().is_some_and(|(_, n)| n.is_lowercase());
                if c.is_uppercase() && (p.is_lowercase() || p.is_numeric() || (p.is_uppercase() && next_lower)) {
                    end = start + i;
                    break;
                }
            }
            prev = Some(c);
        }
        self.at = end;
        Some(&self.term[start..end])
    }
}

impl<'t> Subwords<'t> {
    /// [`Iterator::next`] on an ASCII term, by bytes: the same rules, without
    /// decoding characters (names are split on every search and card).
    fn next_ascii(&mut self) -> Option<&'t str> {
        let b = self.term.as_bytes();
        let start = self.at + b[self.at..].iter().position(|c| c.is_ascii_alphanumeric())?;
        let mut end = b.len();
        for i in start..b.len() {
            let c = b[i];
            if !c.is_ascii_alphanumeric() {
                end = i;
                break;
            }
            if i > start && c.is_ascii_uppercase() {
                let p = b[i - 1];
                let next_lower = b.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
                if p.is_ascii_lowercase() || p.is_ascii_digit() || (p.is_ascii_uppercase() && next_lower) {
                    end = i;
                    break;
                }
            }
        }
        self.at = end;
        Some(&self.term[start..end])
    }
}

// The classes of [`BYTE_CLASS`].
const OTHER: u8 = 0;
const WORD: u8 = 1;
const NEWLINE: u8 = 2;
const NON_ASCII: u8 = 3;
/// What a byte is to [`for_each_word`]: one table read instead of tests.
const BYTE_CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        class[b] = if c >= 0x80 {
            NON_ASCII
        } else if c == b'\n' {
            NEWLINE
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            WORD
        } else {
            OTHER
        };
        b += 1;
    }
    class
};

/// Calls `f(word, row)` for every term-worthy word of `text`, which starts on `row`;
/// rows advance on each `\n`.
pub fn for_each_word<'t>(text: &'t str, mut row: u32, source: WordSource, mut f: impl FnMut(&'t str, u32)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match BYTE_CLASS[bytes[i] as usize] {
            OTHER => {
                i += 1;
                continue;
            }
            NEWLINE => {
                row += 1;
                i += 1;
                continue;
            }
            NON_ASCII => {
                let c = text[i..].chars().next().unwrap_or(' ');
                if !is_word_char(c) {
                    i += c.len_utf8();
                    continue;
                }
            }
            _ => {}
        }
        // A word starts at i: extend it. Its characters are its bytes less
        // the continuation bytes of its non-ASCII characters.
        let start = i;
        let mut continuation = 0usize;
        while i < bytes.len() {
            match BYTE_CLASS[bytes[i] as usize] {
                WORD => i += 1,
                NON_ASCII => {
                    let c = text[i..].chars().next().unwrap_or(' ');
                    if !is_word_char(c) {
                        break;
                    }
                    i += c.len_utf8();
                    continuation += c.len_utf8() - 1;
                }
                _ => break,
            }
        }
        let word = &text[start..i];
        if keep(word, i - start - continuation, source) {
            f(word, row);
        }
    }
}

#[inline]
fn keep(word: &str, chars: usize, source: WordSource) -> bool {
    let first = word.as_bytes()[0];
    if first.is_ascii_digit() || word.len() > MAX_TERM_BYTES || word.bytes().all(|b| b == b'_') {
        return false;
    }
    if !first.is_ascii() && word.chars().next().is_some_and(|c| c.is_numeric()) {
        return false;
    }
    source == WordSource::Code || chars > 1
}

/// The text of a comment without its markers (`//`, `///`, `//!`, `/*`, `/**`, `*/`,
/// leading `*`), trimmed, one output line per source line, blank lines at both ends
/// removed. C# XML doc lines that are only a tag (`<summary>`) are dropped.
pub fn clean_comment(text: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for line in text.lines() {
        let mut l = line.trim();
        for marker in ["///", "//!", "//", "/**", "/*!", "/*", "\"\"\"", "\'\'\'", "r\"\"\"", "#"] {
            if let Some(rest) = l.strip_prefix(marker) {
                l = rest;
                break;
            }
        }
        for end in ["*/", "\"\"\"", "\'\'\'"] {
            if let Some(rest) = l.strip_suffix(end) {
                l = rest;
                break;
            }
        }
        l = l.trim();
        if let Some(rest) = l.strip_prefix('*') {
            l = rest.trim();
        }
        if is_lone_xml_tag(l) {
            continue;
        }
        out.push(l);
    }
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

fn is_lone_xml_tag(l: &str) -> bool {
    l.len() > 2
        && l.starts_with('<')
        && l.ends_with('>')
        && l[1..l.len() - 1].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'/' || b == b'_')
}

/// Collapses every run of whitespace to one space and trims; cuts at `max` bytes
/// (on a character boundary) with a trailing `…`.
pub fn normalize_ws(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max + 4));
    for part in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
        if out.len() > max {
            let mut cut = max;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push('…');
            break;
        }
    }
    out
}

/// `text` with every carriage return that is not followed by a line feed (old Mac
/// line ends) turned into a line feed, so lines are counted alike by the parser,
/// the index and the line text read later. Same length, same byte offsets; CRLF and
/// LF text is returned as it is.
pub fn lone_cr_to_lf(text: std::borrow::Cow<'_, str>) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |&i: &usize| bytes.get(i + 1) != Some(&b'\n');
    if !memchr::memchr_iter(b'\r', bytes).any(|i| lone(&i)) {
        return text;
    }
    let mut out = text.into_owned().into_bytes();
    let positions: Vec<usize> = memchr::memchr_iter(b'\r', &out).collect();
    for i in positions {
        if out.get(i + 1) != Some(&b'\n') {
            out[i] = b'\n';
        }
    }
    // Only ASCII bytes changed: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `for_each_word` as it was written first, a test per byte: the oracle.
    fn words_byte_by_byte(text: &str, mut row: u32, source: WordSource) -> Vec<(&str, u32)> {
        let mut out = Vec::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii() {
                if b == b'\n' {
                    row += 1;
                    i += 1;
                    continue;
                }
                if !(b.is_ascii_alphanumeric() || b == b'_') {
                    i += 1;
                    continue;
                }
            } else {
                let c = text[i..].chars().next().unwrap_or(' ');
                if !is_word_char(c) {
                    i += c.len_utf8();
                    continue;
                }
            }
            let start = i;
            let mut chars = 0usize;
            while i < bytes.len() {
                let b = bytes[i];
                if b.is_ascii() {
                    if b.is_ascii_alphanumeric() || b == b'_' {
                        i += 1;
                        chars += 1;
                        continue;
                    }
                    break;
                }
                let c = text[i..].chars().next().unwrap_or(' ');
                if !is_word_char(c) {
                    break;
                }
                i += c.len_utf8();
                chars += 1;
            }
            let word = &text[start..i];
            if keep(word, chars, source) {
                out.push((word, row));
            }
        }
        out
    }

    proptest::proptest! {
        /// The table-driven split is the byte-by-byte one, code and prose, on
        /// text of every class of byte (multi-byte letters, digits and
        /// spaces among them).
        #[test]
        fn words_are_the_byte_by_byte_ones(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "a", "Zq", "_", "__", "9", "x1", " ", "\n", "\r\n", ".", "é", "日本", "\u{a0}", "٣", "Ⅻ", "ß", "-",
                "\u{300}", "😀",
            ]),
            0..60,
        ), row in 0u32..5) {
            let text: String = parts.concat();
            for source in [WordSource::Code, WordSource::Prose] {
                let mut got = Vec::new();
                for_each_word(&text, row, source, |w, r| got.push((w, r)));
                proptest::prop_assert_eq!(got, words_byte_by_byte(&text, row, source));
            }
        }
    }

    fn words(text: &str, source: WordSource) -> Vec<(String, u32)> {
        let mut v = Vec::new();
        for_each_word(text, 1, source, |w, r| v.push((w.to_string(), r)));
        v
    }

    #[test]
    fn words_split_on_everything_but_letters_digits_and_underscore() {
        let w = words("/// Parse the `foo_bar`-thing, 42 times: x86_64 & 3rd\nnext", WordSource::Prose);
        let got: Vec<_> = w.iter().map(|(w, r)| format!("{w}@{r}")).collect();
        assert_eq!(got, ["Parse@1", "the@1", "foo_bar@1", "thing@1", "times@1", "x86_64@1", "next@2"]);
    }

    #[test]
    fn one_letter_words_are_terms_in_code_only() {
        assert_eq!(words("a b", WordSource::Prose), []);
        assert_eq!(words("i T", WordSource::Code), [("i".into(), 1), ("T".into(), 1)]);
    }

    #[test]
    fn unicode_words_are_kept_whole_and_overlong_words_dropped() {
        let long = "x".repeat(MAX_TERM_BYTES + 1);
        let w = words(&format!("größe Ünïcode {long} ok"), WordSource::Prose);
        let got: Vec<_> = w.into_iter().map(|(w, _)| w).collect();
        assert_eq!(got, ["größe", "Ünïcode", "ok"]);
    }

    fn split(term: &str) -> Vec<&str> {
        subwords(term).collect()
    }

    proptest::proptest! {
        /// The bytewise split of ASCII terms is the character split's.
        #[test]
        fn ascii_terms_split_as_by_characters(term in "[a-zA-Z0-9_$.-]{0,24}") {
            let by_chars: Vec<&str> = Subwords { term: &term, at: 0, ascii: false }.collect();
            proptest::prop_assert_eq!(split(&term), by_chars);
        }
    }

    #[test]
    fn identifiers_split_into_subwords_at_case_underscores_and_acronyms() {
        assert_eq!(split("getUserById"), ["get", "User", "By", "Id"]);
        assert_eq!(split("HTMLParser"), ["HTML", "Parser"]);
        assert_eq!(split("user_service"), ["user", "service"]);
        assert_eq!(split("MAX_RETRIES"), ["MAX", "RETRIES"]);
        assert_eq!(split("UserRepository"), ["User", "Repository"]);
        assert_eq!(split("utf8String"), ["utf8", "String"]);
        assert_eq!(split("V1Beta1"), ["V1", "Beta1"]);
        assert_eq!(split("v1beta1"), ["v1beta1"]);
        assert_eq!(split("x86_64"), ["x86", "64"]);
        assert_eq!(split("__init__"), ["init"]);
        assert_eq!(split("_"), Vec::<&str>::new());
        assert_eq!(split("IOError"), ["IO", "Error"]);
        assert_eq!(split("parseJSON"), ["parse", "JSON"]);
        assert_eq!(split("größeÄndern"), ["größe", "Ändern"]);
        assert_eq!(split("user"), ["user"]);
    }

    #[test]
    fn comment_markers_are_removed() {
        assert_eq!(clean_comment("/**\n * Does X.\n *   Y.\n */"), "Does X.\nY.");
        assert_eq!(clean_comment("/// <summary>\n/// Hello\n/// </summary>"), "Hello");
        assert_eq!(clean_comment("//! Crate docs"), "Crate docs");
    }

    #[test]
    fn whitespace_is_collapsed_and_long_text_cut() {
        assert_eq!(normalize_ws("fn  foo(\n    a: u8,\n)", 100), "fn foo( a: u8, )");
        assert_eq!(normalize_ws("abcdef", 3), "abc…");
    }
}

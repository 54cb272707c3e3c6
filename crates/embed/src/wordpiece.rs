//! BERT's tokenizer: the basic split (whitespace, punctuation, CJK characters
//! alone, lower case), then WordPiece (longest vocabulary prefix first, later
//! pieces marked `##`), read from a `tokenizer.json` or a `vocab.txt`.
//!
//! Accents are stripped (as the reference does when it lower-cases) for the
//! Latin letters of Latin-1 and Latin Extended-A only: `café` is `cafe`; other
//! scripts' marks are kept (that needs Unicode decomposition; code and its
//! comments are mostly ASCII).

use rustc_hash::FxHashMap;

/// A WordPiece vocabulary and its special tokens.
pub struct WordPiece {
    ids: FxHashMap<String, u32>,
    tokens: Vec<String>,
    pub unk: u32,
    pub cls: u32,
    pub sep: u32,
    pub pad: u32,
    lowercase: bool,
    max_chars: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum VocabError {
    #[error("tokenizer.json is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("tokenizer.json has no WordPiece vocabulary (model.vocab); only BERT WordPiece models are supported")]
    NoVocab,
    #[error("the vocabulary lacks the special token {0}")]
    Special(&'static str),
    #[error("the vocabulary is empty or gives two tokens one id")]
    Ids,
    #[error(
        "token {id} of the vocabulary is {len} bytes long (at most {MAX_TOKEN_BYTES}): not a WordPiece vocabulary"
    )]
    LongToken { id: u32, len: usize },
}

/// The longest token a vocabulary may hold (BERT's are a few dozen bytes; the
/// tokenizer never forms a word of more than `max_input_chars_per_word`, 100).
pub const MAX_TOKEN_BYTES: usize = 1024;

impl WordPiece {
    /// From a Hugging Face `tokenizer.json` whose model is WordPiece.
    pub fn from_tokenizer_json(bytes: &[u8]) -> Result<WordPiece, VocabError> {
        let v: serde_json::Value = serde_json::from_slice(bytes)?;
        let model = &v["model"];
        if model.get("type").and_then(|t| t.as_str()).is_some_and(|t| t != "WordPiece") {
            return Err(VocabError::NoVocab);
        }
        let vocab = model.get("vocab").and_then(|v| v.as_object()).ok_or(VocabError::NoVocab)?;
        let mut pairs: Vec<(u32, String)> = Vec::with_capacity(vocab.len());
        for (token, id) in vocab {
            let id = id.as_u64().and_then(|i| u32::try_from(i).ok()).ok_or(VocabError::Ids)?;
            pairs.push((id, token.clone()));
        }
        let lowercase = v["normalizer"].get("lowercase").and_then(|l| l.as_bool()).unwrap_or(true);
        let max_chars = model.get("max_input_chars_per_word").and_then(|m| m.as_u64()).unwrap_or(100) as usize;
        WordPiece::from_pairs(pairs, lowercase, max_chars)
    }

    /// From a `vocab.txt`: one token a line, its id its line number.
    pub fn from_vocab_txt(text: &str, lowercase: bool) -> Result<WordPiece, VocabError> {
        let pairs = text.lines().enumerate().map(|(i, t)| (i as u32, t.trim_end_matches('\r').to_string())).collect();
        WordPiece::from_pairs(pairs, lowercase, 100)
    }

    /// From the tokens in id order, as a static model keeps them (a token
    /// may hold any character, a line break too: nothing is split).
    pub fn from_tokens(tokens: Vec<String>, lowercase: bool, max_chars: usize) -> Result<WordPiece, VocabError> {
        WordPiece::from_pairs(
            tokens.into_iter().enumerate().map(|(i, t)| (i as u32, t)).collect(),
            lowercase,
            max_chars,
        )
    }

    fn from_pairs(mut pairs: Vec<(u32, String)>, lowercase: bool, max_chars: usize) -> Result<WordPiece, VocabError> {
        pairs.sort();
        if pairs.is_empty() || pairs.iter().enumerate().any(|(i, (id, _))| *id != i as u32) {
            return Err(VocabError::Ids);
        }
        if let Some((id, t)) = pairs.iter().find(|(_, t)| t.len() > MAX_TOKEN_BYTES) {
            return Err(VocabError::LongToken { id: *id, len: t.len() });
        }
        let tokens: Vec<String> = pairs.into_iter().map(|(_, t)| t).collect();
        let ids: FxHashMap<String, u32> = tokens.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        let special = |name: &'static str| ids.get(name).copied().ok_or(VocabError::Special(name));
        Ok(WordPiece {
            unk: special("[UNK]")?,
            cls: special("[CLS]")?,
            sep: special("[SEP]")?,
            pad: special("[PAD]")?,
            ids,
            tokens,
            lowercase,
            max_chars,
        })
    }

    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    pub fn token(&self, id: u32) -> &str {
        self.tokens.get(id as usize).map_or("", String::as_str)
    }

    pub fn lowercase(&self) -> bool {
        self.lowercase
    }

    /// The longest word (in characters) split into pieces; longer ones are `[UNK]`.
    pub fn max_chars(&self) -> usize {
        self.max_chars
    }

    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// Whether `id` is a special or unused token (`[CLS]`, `[unused3]`).
    pub fn is_special(&self, id: u32) -> bool {
        let t = self.token(id);
        t.len() > 2 && t.starts_with('[') && t.ends_with(']')
    }

    /// Appends the ids of `text`'s tokens (no special tokens), at most `max`.
    pub fn tokenize(&self, text: &str, max: usize, out: &mut Vec<u32>) {
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut Vec<u32>| {
            if !word.is_empty() && out.len() < max {
                self.word_pieces(word, max, out);
            }
            word.clear();
        };
        for c in text.chars() {
            if out.len() >= max {
                break;
            }
            if c.is_whitespace() || c.is_control() || c == '\u{fffd}' || c == '\0' {
                flush(&mut word, out);
            } else if is_punctuation(c) || is_cjk(c) {
                flush(&mut word, out);
                word.push(c);
                flush(&mut word, out);
            } else if self.lowercase {
                word.extend(c.to_lowercase().map(strip_accent));
            } else {
                word.push(c);
            }
        }
        flush(&mut word, out);
        out.truncate(max);
    }

    /// `[CLS]`, the tokens of `text` (at most `max_len - 2`), `[SEP]`.
    pub fn encode(&self, text: &str, max_len: usize) -> Vec<u32> {
        let mut out = vec![self.cls];
        self.tokenize(text, max_len.saturating_sub(2).max(1) + 1, &mut out);
        out.truncate(max_len.max(2) - 1);
        out.push(self.sep);
        out
    }

    fn word_pieces(&self, word: &str, max: usize, out: &mut Vec<u32>) {
        if word.chars().count() > self.max_chars {
            out.push(self.unk);
            return;
        }
        let start_len = out.len();
        let mut start = 0;
        let mut piece = String::with_capacity(word.len() + 2);
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while end > start {
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(&word[start..end]);
                if let Some(&id) = self.ids.get(piece.as_str()) {
                    found = Some(id);
                    break;
                }
                end = word[..end].char_indices().next_back().map_or(start, |(i, _)| i);
            }
            match found {
                Some(id) => out.push(id),
                None => {
                    out.truncate(start_len);
                    out.push(self.unk);
                    return;
                }
            }
            start = end;
            if out.len() >= max {
                return;
            }
        }
    }
}

/// The letter without its accent (Latin-1 and Latin Extended-A letters that
/// decompose into a base letter and marks).
fn strip_accent(c: char) -> char {
    const FROM: &str = "ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽž";
    const TO: &str = "AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiJjKkLlLlLlNnNnNnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZz";
    if c.is_ascii() || (c as u32) > 0x17F {
        return c;
    }
    FROM.chars().position(|f| f == c).and_then(|i| TO.chars().nth(i)).unwrap_or(c)
}

/// BERT's punctuation: ASCII symbols, and Unicode punctuation.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(c as u32, 0x2010..=0x2027 | 0x2030..=0x205E | 0x3000..=0x303F | 0xFF01..=0xFF0F | 0xA1 | 0xBF)
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> WordPiece {
        let text = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nget\n##user\nuser\n##s\nby\nid\n.\n(\n)\nparse\n##r\n";
        WordPiece::from_vocab_txt(text, true).unwrap()
    }

    fn toks(w: &WordPiece, text: &str) -> Vec<String> {
        let mut ids = Vec::new();
        w.tokenize(text, 100, &mut ids);
        ids.iter().map(|&i| w.token(i).to_string()).collect()
    }

    #[test]
    fn splits_words_punctuation_and_pieces() {
        let w = vocab();
        assert_eq!(toks(&w, "GetUsers by.id()"), ["get", "##user", "##s", "by", ".", "id", "(", ")"]);
        assert_eq!(toks(&w, "Parser"), ["parse", "##r"]);
        // Accents go, as the reference's lower-casing strips them.
        assert_eq!(toks(&w, "Usér ÍD"), ["user", "id"]);
        // A word with a piece missing is one [UNK].
        assert_eq!(toks(&w, "getx user"), ["[UNK]", "user"]);
        assert_eq!(w.encode("user", 8).iter().map(|&i| w.token(i)).collect::<Vec<_>>(), ["[CLS]", "user", "[SEP]"]);
        // Cut to the length, [SEP] kept.
        let e = w.encode("user user user user", 4);
        assert_eq!(e.iter().map(|&i| w.token(i)).collect::<Vec<_>>(), ["[CLS]", "user", "user", "[SEP]"]);
    }

    #[test]
    fn reads_tokenizer_json() {
        let json = r###"{"normalizer":{"type":"BertNormalizer","lowercase":true},
            "model":{"type":"WordPiece","vocab":{"[PAD]":0,"[UNK]":1,"[CLS]":2,"[SEP]":3,"hex":4,"##string":5}}}"###;
        let w = WordPiece::from_tokenizer_json(json.as_bytes()).unwrap();
        assert_eq!(toks(&w, "HEXString"), ["hex", "##string"]);
        assert!(matches!(WordPiece::from_tokenizer_json(b"{\"model\":{}}"), Err(VocabError::NoVocab)));
        let gap = r#"{"model":{"vocab":{"[PAD]":0,"[UNK]":2}}}"#;
        assert!(matches!(WordPiece::from_tokenizer_json(gap.as_bytes()), Err(VocabError::Ids)));
    }
}

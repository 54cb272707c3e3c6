//! A segment's vectors: one int8 vector (and its scale) per type and function
//! of each file, in the order of the definitions table's `index` (types, then
//! functions and methods), embedded by a static model when the segment was
//! written. Derived from the structure archives like the definitions table,
//! so a copied file gets the same rows. `format/README.md` describes the bytes.

use std::sync::Arc;

use super::structure::FileStructure;
use crate::chunk;

/// What embeds a definition's text as it is written into a segment: a static
/// model (`codegraph_embed::StaticModel`). The format keeps its vectors and its
/// id; the model itself is the layer above's.
pub trait Embedder: Send + Sync {
    /// The vectors' dimensions.
    fn dims(&self) -> usize;
    /// Names the model the vectors came from (the segment keeps it).
    fn id(&self) -> u64;
    /// The unit-length vector of `text` into `out` (`dims` long); false when
    /// the model has nothing for it.
    fn embed(&self, text: &str, out: &mut [f32]) -> bool;
}

/// The largest scale a stored row can have: rows are unit vectors, whose
/// largest component is at most 1, so `max |x| / 127` (with room for rounding).
pub const MAX_SCALE: f32 = 1.0 / 120.0;

/// Whether a row's stored scale can be right: finite, not negative, at most
/// [`MAX_SCALE`]. A row whose scale is not is read as having no vector (a NaN or
/// 1e30 there would otherwise rank that row first).
#[inline]
pub fn scale_ok(scale: f32) -> bool {
    (0.0..=MAX_SCALE).contains(&scale)
}

/// Quantizes a vector to int8 (`round(x / scale)`, `scale = max |x| / 127`);
/// returns the scale (0 for a zero vector).
pub fn quantize(v: &[f32], out: &mut Vec<i8>) -> f32 {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max <= 0.0 || !max.is_finite() {
        out.extend(std::iter::repeat_n(0i8, v.len()));
        return 0.0;
    }
    let scale = max / 127.0;
    out.extend(v.iter().map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8));
    scale
}

/// `dims u32, rows u32, slots u32, 0 u32, model id u64, 0 u64`.
pub const HEADER: usize = 32;

/// Gathers the rows of a segment's files, then writes the section.
pub struct VectorWriter {
    model: Arc<dyn Embedder>,
    row_start: Vec<u32>,
    scales: Vec<f32>,
    codes: Vec<i8>,
    buf: Vec<f32>,
    /// Each row's definition name, as an index into `names`.
    row_names: Vec<u32>,
    names: Vec<Box<str>>,
    name_ids: rustc_hash::FxHashMap<Box<str>, u32>,
}

impl VectorWriter {
    pub fn new(model: Arc<dyn Embedder>) -> VectorWriter {
        let dims = model.dims();
        VectorWriter {
            model,
            row_start: Vec::new(),
            scales: Vec::new(),
            codes: Vec::new(),
            buf: vec![0.0; dims],
            row_names: Vec::new(),
            names: Vec::new(),
            name_ids: Default::default(),
        }
    }

    /// Adds the rows of the file whose `parts` slots come next (no archive, or
    /// an invalid one: no rows).
    pub fn add_file(&mut self, path: &str, parts: u32, archive: Option<&FileStructure>) {
        self.row_start.push(self.scales.len() as u32);
        if let Some(s) = archive {
            let (model, buf, scales, codes) = (&self.model, &mut self.buf, &mut self.scales, &mut self.codes);
            chunk::for_each_chunk(path, s, |text| {
                if model.embed(text, buf) {
                    scales.push(quantize(buf, codes));
                } else {
                    scales.push(0.0);
                    codes.extend(std::iter::repeat_n(0i8, buf.len()));
                }
            });
            // The rows' names, in the same order (types, then methods).
            let names = s.types.iter().map(|t| t.name.as_str()).chain(s.methods.iter().map(|m| m.name.as_str()));
            for name in names {
                let id = match self.name_ids.get(name) {
                    Some(&id) => id,
                    None => {
                        let id = self.names.len() as u32;
                        self.names.push(name.into());
                        self.name_ids.insert(name.into(), id);
                        id
                    }
                };
                self.row_names.push(id);
            }
            debug_assert_eq!(self.row_names.len(), self.scales.len());
        }
        for _ in 1..parts {
            self.row_start.push(self.scales.len() as u32);
        }
    }

    /// The section's bytes.
    pub fn finish(mut self) -> Vec<u8> {
        let slots = self.row_start.len() as u32;
        self.row_start.push(self.scales.len() as u32);
        let mut out = Vec::with_capacity(HEADER + self.row_start.len() * 4 + self.scales.len() * 4 + self.codes.len());
        out.extend_from_slice(&(self.model.dims() as u32).to_le_bytes());
        out.extend_from_slice(&(self.scales.len() as u32).to_le_bytes());
        out.extend_from_slice(&slots.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&self.model.id().to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
        for r in &self.row_start {
            out.extend_from_slice(&r.to_le_bytes());
        }
        for s in &self.scales {
            out.extend_from_slice(&s.to_le_bytes());
        }
        out.extend(self.codes.iter().map(|&c| c as u8));
        // Sign bits, for a first pass that reads an eighth of the bytes.
        for row in self.codes.chunks_exact(self.model.dims()) {
            push_signs(row, &mut out);
        }
        // The rows' names: an id per row, then the names.
        for id in &self.row_names {
            out.extend_from_slice(&id.to_le_bytes());
        }
        out.extend_from_slice(&(self.names.len() as u32).to_le_bytes());
        let mut offset = 0u32;
        out.extend_from_slice(&offset.to_le_bytes());
        for n in &self.names {
            offset += n.len() as u32;
            out.extend_from_slice(&offset.to_le_bytes());
        }
        for n in &self.names {
            out.extend_from_slice(n.as_bytes());
        }
        out
    }
}

/// Appends the sign bits of int8 codes: bit `i % 8` of byte `i / 8` is set
/// when code `i` is positive.
pub fn push_signs(codes: &[i8], out: &mut Vec<u8>) {
    for chunk in codes.chunks(8) {
        let mut b = 0u8;
        for (i, &c) in chunk.iter().enumerate() {
            if c > 0 {
                b |= 1 << i;
            }
        }
        out.push(b);
    }
}

/// The number of differing bits of two equally long bit strings.
#[inline]
pub fn hamming(a: &[u8], b: &[u8]) -> u32 {
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    let mut d = 0;
    for (x, y) in ca.zip(cb) {
        let x = u64::from_le_bytes(x.try_into().expect("8 bytes"));
        let y = u64::from_le_bytes(y.try_into().expect("8 bytes"));
        d += (x ^ y).count_ones();
    }
    for (x, y) in ra.iter().zip(rb) {
        d += (x ^ y).count_ones();
    }
    d
}

/// A segment's vectors, read in place.
#[derive(Clone, Copy)]
pub struct VectorTable<'a> {
    pub dims: usize,
    pub rows: u32,
    pub slots: u32,
    pub model_id: u64,
    row_start: &'a [u8],
    scales: &'a [u8],
    codes: &'a [u8],
    bits: &'a [u8],
    row_names: &'a [u8],
    name_offsets: &'a [u8],
    name_bytes: &'a [u8],
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

impl<'a> VectorTable<'a> {
    /// `None` when the bytes are not a well-formed section for `slot_count`
    /// slots (an empty section is `Some` of no table: the segment has none).
    /// O(1): reads clamp what they find ([`VectorTable::check`] checks all).
    pub fn parse(bytes: &'a [u8], slot_count: u32) -> Option<Option<VectorTable<'a>>> {
        if bytes.is_empty() {
            return Some(None);
        }
        if bytes.len() < HEADER {
            return None;
        }
        let dims = u32_at(bytes, 0) as usize;
        let rows = u32_at(bytes, 4);
        let slots = u32_at(bytes, 8);
        let model_id = u64::from_le_bytes(bytes[16..24].try_into().ok()?);
        if slots != slot_count || dims == 0 || dims > 4096 {
            return None;
        }
        let starts_len = (slots as usize + 1) * 4;
        let scales_len = rows as usize * 4;
        let codes_len = (rows as usize).checked_mul(dims)?;
        let bits_len = rows as usize * dims.div_ceil(8);
        let names_at = HEADER + starts_len + scales_len + codes_len + bits_len;
        let counts_at = names_at + rows as usize * 4;
        let name_count = bytes.get(counts_at..counts_at + 4).map(|b| u32_at(b, 0))? as usize;
        let offsets_at = counts_at + 4;
        let name_bytes_at = offsets_at.checked_add(name_count.checked_add(1)?.checked_mul(4)?)?;
        let name_offsets = bytes.get(offsets_at..name_bytes_at)?;
        let row_start = &bytes[HEADER..HEADER + starts_len];
        let scales = &bytes[HEADER + starts_len..HEADER + starts_len + scales_len];
        let codes = &bytes[HEADER + starts_len + scales_len..HEADER + starts_len + scales_len + codes_len];
        let bits = &bytes[HEADER + starts_len + scales_len + codes_len..names_at];
        let row_names = &bytes[names_at..counts_at];
        let name_bytes = &bytes[name_bytes_at..];
        Some(Some(VectorTable {
            dims,
            rows,
            slots,
            model_id,
            row_start,
            scales,
            codes,
            bits,
            row_names,
            name_offsets,
            name_bytes,
        }))
    }

    /// Whether every part is consistent: row starts never decrease and end at
    /// `rows`, name ids and offsets in range, names UTF-8, scales that can be
    /// right (`cg verify`).
    pub fn check(&self) -> bool {
        let scales_ok =
            self.scales.chunks_exact(4).all(|b| scale_ok(f32::from_le_bytes(b.try_into().expect("4 bytes"))));
        if !scales_ok {
            return false;
        }
        let mut prev = 0;
        for i in 0..=self.slots as usize {
            let s = u32_at(self.row_start, i * 4);
            if s < prev || s > self.rows {
                return false;
            }
            prev = s;
        }
        if prev != self.rows {
            return false;
        }
        let count = self.name_offsets.len() / 4 - 1;
        let mut prev = 0;
        for i in 0..=count {
            let o = u32_at(self.name_offsets, i * 4);
            if o < prev || o as usize > self.name_bytes.len() {
                return false;
            }
            prev = o;
        }
        prev as usize == self.name_bytes.len()
            && std::str::from_utf8(self.name_bytes).is_ok()
            && (0..self.rows).all(|r| (u32_at(self.row_names, r as usize * 4) as usize) < count)
    }

    /// The name of the definition of row `row` (`None` when the bytes say
    /// nothing sensible).
    pub fn name(&self, row: u32) -> Option<&'a str> {
        if row >= self.rows {
            return None;
        }
        let id = u32_at(self.row_names, row as usize * 4) as usize;
        let at = |i: usize| self.name_offsets.get(i * 4..i * 4 + 4).map(|b| u32_at(b, 0) as usize);
        let (start, end) = (at(id)?, at(id + 1)?);
        std::str::from_utf8(self.name_bytes.get(start..end)?).ok()
    }

    /// The rows of the file whose first slot is `slot` (empty for a later part).
    pub fn rows_of(&self, slot: u32) -> std::ops::Range<u32> {
        if slot >= self.slots {
            return 0..0;
        }
        let end = u32_at(self.row_start, slot as usize * 4 + 4).min(self.rows);
        u32_at(self.row_start, slot as usize * 4).min(end)..end
    }

    /// A row's scale; 0 (no vector) where the stored one cannot be right
    /// ([`scale_ok`]).
    pub fn scale(&self, row: u32) -> f32 {
        let s = f32::from_le_bytes(self.scales[row as usize * 4..row as usize * 4 + 4].try_into().expect("4 bytes"));
        if scale_ok(s) {
            s
        } else {
            0.0
        }
    }

    /// A row's int8 codes, as bytes.
    pub fn codes(&self, row: u32) -> &'a [u8] {
        &self.codes[row as usize * self.dims..(row as usize + 1) * self.dims]
    }

    /// A row's sign bits.
    pub fn signs(&self, row: u32) -> &'a [u8] {
        let n = self.dims.div_ceil(8);
        &self.bits[row as usize * n..(row as usize + 1) * n]
    }

    /// The approximate dot product of row `row` with a query quantized to
    /// `query` (codes) and `query_scale`.
    #[inline]
    pub fn dot(&self, row: u32, query: &[i8], query_scale: f32) -> f32 {
        dot_mixed(query, self.codes(row)) as f32 * query_scale * self.scale(row)
    }
}

/// The dot product of int8 codes with int8 codes stored as bytes.
#[inline]
pub fn dot_mixed(a: &[i8], b: &[u8]) -> i32 {
    // Chunks of 16 in i32 lanes: the compiler turns this into packed
    // multiply-adds.
    let mut acc = [0i32; 16];
    let (ca, cb) = (a.chunks_exact(16), b.chunks_exact(16));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..16 {
            acc[i] += x[i] as i32 * (y[i] as i8) as i32;
        }
    }
    let mut s: i32 = acc.iter().sum();
    for (x, y) in ra.iter().zip(rb) {
        s += *x as i32 * (*y as i8) as i32;
    }
    s
}

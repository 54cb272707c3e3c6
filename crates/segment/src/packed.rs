//! Tables of fixed-width records whose fields are bit-packed, each field as
//! wide as its largest value in the table: the folds and variants sections.
//! A field that is an offset into another section (non-decreasing from record
//! to record) is stored as its distance from an absolute base kept per block
//! of [`BLOCK`] records, so its width is that of a block's span, not of the
//! section. A block holds its bases and then its records' bits, so a record,
//! the next one and their bases usually lie in one checked block of the file;
//! a field is one unaligned 8-byte read (and a base).
//!
//! ```text
//! table := fields u8, based u8, width u8 × fields, zero bytes to 8
//!          block*: per based field, the block's first record's value u64;
//!                  then its records' fields in order, each as wide as the
//!                  header says, lowest bit first, zero bits to the byte
//!          8 zero bytes
//! ```

use std::ops::Range;

/// Records per block.
pub const BLOCK: usize = 64;

/// The widest field: any field is then one 8-byte read at its byte.
const MAX_WIDTH: u32 = 56;

const HEADER: usize = 8;

/// A table of `records`, each `F` values; the first `based` fields of the
/// records must be non-decreasing (offsets).
pub fn write<const F: usize>(records: &[[u64; F]], based: usize) -> Vec<u8> {
    assert!(F + 2 <= HEADER && based <= F);
    let stored = |i: usize, f: usize| {
        let v = records[i][f];
        if f < based {
            v - records[i / BLOCK * BLOCK][f]
        } else {
            v
        }
    };
    let mut widths = [0u32; F];
    for i in 0..records.len() {
        for (f, w) in widths.iter_mut().enumerate() {
            *w = (*w).max(64 - stored(i, f).leading_zeros());
        }
    }
    assert!(widths.iter().all(|&w| w <= MAX_WIDTH), "a packed field wider than {MAX_WIDTH} bits");
    let mut out = vec![F as u8, based as u8];
    out.extend(widths.iter().map(|&w| w as u8));
    out.resize(HEADER, 0);
    for (b, block) in records.chunks(BLOCK).enumerate() {
        for v in &block[0][..based] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let (mut acc, mut len) = (0u64, 0u32);
        for i in b * BLOCK..b * BLOCK + block.len() {
            for (f, &w) in widths.iter().enumerate() {
                // `len` < 8 before each field and a field is at most 56 bits.
                acc |= stored(i, f) << len;
                len += w;
                while len >= 8 {
                    out.push(acc as u8);
                    acc >>= 8;
                    len -= 8;
                }
            }
        }
        if len > 0 {
            out.push(acc as u8);
        }
    }
    out.extend_from_slice(&[0; 8]);
    out
}

/// Where a table's fields lie, read from its header once.
#[derive(Debug, Clone, Copy, Default)]
pub struct Layout {
    based: usize,
    widths: [u32; 4],
    /// Each field's bit offset within a record.
    starts: [u32; 4],
    record_bits: usize,
    /// The bytes of a whole block: its bases and its records.
    block_bytes: usize,
}

impl Layout {
    /// The layout of a table of `records` records of `fields` fields, the
    /// first `based` of them based; `None` when `section` is not one.
    pub fn parse(section: &[u8], fields: usize, based: usize, records: usize) -> Option<Layout> {
        let head = section.get(..HEADER)?;
        if fields > 4 || based > fields || head[0] as usize != fields || head[1] as usize != based {
            return None;
        }
        let mut layout = Layout { based, ..Layout::default() };
        let mut at = 0u32;
        for f in 0..fields {
            let w = head[2 + f] as u32;
            if w > MAX_WIDTH {
                return None;
            }
            (layout.widths[f], layout.starts[f]) = (w, at);
            at += w;
        }
        layout.record_bits = at as usize;
        layout.block_bytes = based * 8 + (BLOCK * layout.record_bits).div_ceil(8);
        let (whole, rest) = (records / BLOCK, records % BLOCK);
        let last = match rest {
            0 => 0,
            n => based * 8 + (n * layout.record_bits).div_ceil(8),
        };
        let len = whole.checked_mul(layout.block_bytes)?.checked_add(HEADER + last + 8)?;
        (section.len() >= len).then_some(layout)
    }

    /// The bytes reading records `first..end` (`first < end`) touches, for the
    /// block checks.
    pub fn span(&self, first: usize, end: usize) -> Range<usize> {
        let last = end - 1;
        let last_bits = (last % BLOCK + 1) * self.record_bits;
        HEADER + first / BLOCK * self.block_bytes
            ..HEADER + last / BLOCK * self.block_bytes + self.based * 8 + last_bits.div_ceil(8) + 8
    }

    /// The byte where record `i`'s bits start (for a prefetch).
    pub fn record_at(&self, i: usize) -> usize {
        HEADER + i / BLOCK * self.block_bytes + self.based * 8 + i % BLOCK * self.record_bits / 8
    }

    /// Field `f` of record `i` (a based field with its base added); `None`
    /// past the section's end.
    #[inline(always)]
    pub fn get(&self, section: &[u8], i: usize, f: usize) -> Option<u64> {
        let block = HEADER + i / BLOCK * self.block_bytes;
        let bit = i % BLOCK * self.record_bits + self.starts[f] as usize;
        let at = block + self.based * 8 + bit / 8;
        let word = u64::from_le_bytes(section.get(at..at + 8)?.try_into().ok()?);
        let v = (word >> (bit % 8)) & ((1u64 << self.widths[f]) - 1);
        if f < self.based {
            let base = u64::from_le_bytes(section.get(block + f * 8..block + f * 8 + 8)?.try_into().ok()?);
            return base.checked_add(v);
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn tables_read_back_what_was_written(
            steps in prop::collection::vec((0u64..1000, 0u64..(1 << 20), any::<u32>(), 0u64..3), 0..300),
        ) {
            // Two offsets that grow, a number, and a field that is often zero.
            let mut records = Vec::new();
            let (mut a, mut b) = (7u64, 1u64 << 40);
            for &(da, db, n, z) in &steps {
                records.push([a, b, n as u64, z]);
                a += da;
                b += db;
            }
            let bytes = write(&records, 2);
            let layout = Layout::parse(&bytes, 4, 2, records.len()).unwrap();
            for (i, r) in records.iter().enumerate() {
                for (f, &want) in r.iter().enumerate() {
                    prop_assert_eq!(layout.get(&bytes, i, f), Some(want));
                }
                // What a read touches lies inside the section.
                prop_assert!(layout.span(i, i + 1).end <= bytes.len());
                prop_assert!(layout.span(i.saturating_sub(1), i + 1).end <= bytes.len());
            }
            // A shorter section, or another shape, is not this table.
            prop_assert!(Layout::parse(&bytes[..bytes.len() - 1], 4, 2, records.len()).is_none());
            prop_assert!(Layout::parse(&bytes, 4, 1, records.len()).is_none());
            prop_assert!(Layout::parse(&bytes, 3, 2, records.len()).is_none());
        }

        #[test]
        fn any_bytes_read_without_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..200), records in 0usize..100) {
            if let Some(layout) = Layout::parse(&bytes, 2, 1, records) {
                for i in 0..records + 2 {
                    let _ = (layout.get(&bytes, i, 0), layout.get(&bytes, i, 1));
                }
            }
        }
    }

    #[test]
    fn fields_take_the_width_of_their_largest_value() {
        // Offsets 0, 3, 9 (a span of 9: 4 bits) and counts up to 5 (3 bits).
        let bytes = write(&[[0, 1], [3, 5], [9, 0]], 1);
        assert_eq!(&bytes[..HEADER], [2, 1, 4, 3, 0, 0, 0, 0]);
        // One block: its base (0), then 3 records of 7 bits; then 8 zero bytes.
        assert_eq!(bytes.len(), HEADER + 8 + 3 + 8);
        // Record 0: 0000 100; record 1: 1100 101; record 2: 1001 000.
        assert_eq!(bytes[HEADER + 8..HEADER + 11], [0x90, 0x69, 0x02]);
    }
}

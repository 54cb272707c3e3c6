//! Posting lists on disk: roaring's two-level layout (containers keyed by the high
//! 16 bits of each value — the slot — holding the low 16 bits — the line id) in a
//! compact serialization: varint container keys as deltas, array containers as
//! delta-coded varints, dense containers as a raw 8 KiB bitmap. A term that occurs
//! twice in a file costs about 4 bytes instead of roaring's portable 12.
//!
//! Reading streams values in order without building a bitmap, so "the first 50
//! hits" costs 50 steps whatever the list's length; [`decode`] builds a
//! `RoaringBitmap` when set operations are needed. Malformed bytes end the stream
//! with an error, never a panic.
//!
//! ```text
//! list      := varint(containers) container*
//! container := varint((key - previous key) << 1 | single)
//!              single ? varint(low value)
//!                     : varint((count - 2) << 1 | dense) body
//! body      := dense ? 8192 bytes, bit i = low value i
//!                    : varint(first low value) varint(next - previous - 1)*
//! ```

use roaring::RoaringBitmap;

use super::SlotSet;

/// A container is stored dense when it holds more values than this.
const DENSE_ABOVE: u64 = 4096;
const DENSE_BYTES: usize = 8192;

pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(crate) fn get_varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*pos)?;
        *pos += 1;
        v |= ((b & 0x7F) as u64) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// Appends the encoding of a strictly increasing list of values.
pub fn encode(values: &[u32], out: &mut Vec<u8>) {
    debug_assert!(values.windows(2).all(|w| w[0] < w[1]));
    let mut groups: Vec<(u32, Vec<u16>)> = Vec::new();
    for &v in values {
        let key = v >> 16;
        match groups.last_mut() {
            Some((k, lows)) if *k == key => lows.push(v as u16),
            _ => groups.push((key, vec![v as u16])),
        }
    }
    put_varint(out, groups.len() as u64);
    let mut prev_key = 0u32;
    for (key, lows) in groups {
        let count = lows.len() as u64;
        put_varint(out, (((key - prev_key) as u64) << 1) | (count == 1) as u64);
        prev_key = key;
        let dense = count > DENSE_ABOVE;
        if count > 1 {
            put_varint(out, ((count - 2) << 1) | dense as u64);
        }
        if dense {
            let mut bits = [0u8; DENSE_BYTES];
            for low in lows {
                bits[low as usize / 8] |= 1 << (low % 8);
            }
            out.extend_from_slice(&bits);
        } else {
            let mut prev = lows[0];
            put_varint(out, prev as u64);
            for &low in &lows[1..] {
                put_varint(out, (low - prev - 1) as u64);
                prev = low;
            }
        }
    }
}

/// Malformed posting bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Malformed;

/// Streams the values of an encoded list in increasing order.
pub struct PostingIter<'a> {
    bytes: &'a [u8],
    pos: usize,
    containers_left: u64,
    key: u32,
    /// Values left in the current container.
    left: u64,
    dense: Option<usize>,
    dense_bit: usize,
    low: u32,
    started: bool,
    /// Containers (slots) left out: superseded files.
    skip: Option<&'a SlotSet>,
    pub error: Option<Malformed>,
}

impl<'a> PostingIter<'a> {
    pub fn new(bytes: &'a [u8]) -> PostingIter<'a> {
        let mut pos = 0;
        let (containers_left, error) = match get_varint(bytes, &mut pos) {
            Some(n) => (n, None),
            None => (0, Some(Malformed)),
        };
        PostingIter {
            bytes,
            pos,
            containers_left,
            key: 0,
            left: 0,
            dense: None,
            dense_bit: 0,
            low: 0,
            started: false,
            skip: None,
            error,
        }
    }

    /// Leaves out every value whose container key (slot) is in `slots`.
    pub fn skipping(mut self, slots: &'a SlotSet) -> PostingIter<'a> {
        if !slots.is_empty() {
            self.skip = Some(slots);
        }
        self
    }

    /// Counts the values left without decoding them: container headers are read,
    /// bodies skipped (an array body is as many varints as it has values).
    pub fn count_left(mut self) -> Result<u64, Malformed> {
        let mut n = self.left;
        self.skip_body().ok_or(Malformed)?;
        while self.containers_left > 0 {
            self.containers_left -= 1;
            self.open_container().ok_or(Malformed)?;
            if !self.skip.is_some_and(|s| s.contains(self.key)) {
                n += self.left;
            }
            self.skip_body().ok_or(Malformed)?;
        }
        match self.error {
            Some(e) => Err(e),
            None => Ok(n),
        }
    }

    /// Moves past the rest of the current container.
    fn skip_body(&mut self) -> Option<()> {
        if self.dense.is_none() && self.left > 0 {
            let rest = self.bytes.get(self.pos..)?;
            let mut n = self.left;
            let mut i = 0;
            while n > 0 {
                let b = *rest.get(i)?;
                i += 1;
                if b & 0x80 == 0 {
                    n -= 1;
                }
            }
            self.pos += i;
        }
        self.left = 0;
        Some(())
    }

    fn fail(&mut self) -> Option<u32> {
        self.error = Some(Malformed);
        self.containers_left = 0;
        self.left = 0;
        None
    }

    fn open_container(&mut self) -> Option<()> {
        let head = get_varint(self.bytes, &mut self.pos)?;
        let (delta, single) = (head >> 1, head & 1 == 1);
        let key = if self.started { self.key as u64 + delta } else { delta };
        if key > 0xFFFF || (self.started && delta == 0) {
            return None;
        }
        self.key = key as u32;
        self.started = true;
        let head = if single { 0 } else { get_varint(self.bytes, &mut self.pos)? };
        let count = if single { 1 } else { (head >> 1).checked_add(2)? };
        if count > 65_536 {
            return None;
        }
        self.left = count;
        if head & 1 == 1 {
            let start = self.pos;
            self.bytes.get(start..start.checked_add(DENSE_BYTES)?)?;
            self.pos += DENSE_BYTES;
            self.dense = Some(start);
            self.dense_bit = 0;
        } else {
            self.dense = None;
            self.low = u32::MAX;
        }
        Some(())
    }
}

impl Iterator for PostingIter<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        while self.left == 0 {
            if self.containers_left == 0 {
                return None;
            }
            self.containers_left -= 1;
            if self.open_container().is_none() {
                return self.fail();
            }
            if self.skip.is_some_and(|s| s.contains(self.key)) && self.skip_body().is_none() {
                return self.fail();
            }
        }
        self.left -= 1;
        let low = match self.dense {
            // The next set bit, a 64-bit word at a time (the 8 KiB body was
            // bounds-checked when the container was opened).
            Some(start) => loop {
                let bit = self.dense_bit;
                if bit >= DENSE_BYTES * 8 {
                    return self.fail();
                }
                let at = start + bit / 64 * 8;
                let mut word = [0u8; 8];
                word.copy_from_slice(&self.bytes[at..at + 8]);
                let rest = u64::from_le_bytes(word) >> (bit % 64);
                if rest != 0 {
                    let found = bit + rest.trailing_zeros() as usize;
                    self.dense_bit = found + 1;
                    break found as u32;
                }
                self.dense_bit = (bit / 64 + 1) * 64;
            },
            None => {
                let Some(v) = get_varint(self.bytes, &mut self.pos) else { return self.fail() };
                let low = if self.low == u32::MAX { v } else { self.low as u64 + v + 1 };
                if low > 0xFFFF {
                    return self.fail();
                }
                self.low = low as u32;
                self.low
            }
        };
        Some((self.key << 16) | low)
    }
}

/// The union of two disjoint increasing streams, in order: a variant's postings
/// on other lines and on definition lines.
pub struct Merged<'a> {
    a: PostingIter<'a>,
    b: PostingIter<'a>,
    heads: Option<(Option<u32>, Option<u32>)>,
}

impl<'a> Merged<'a> {
    pub fn new(a: PostingIter<'a>, b: PostingIter<'a>) -> Merged<'a> {
        Merged { a, b, heads: None }
    }

    /// Leaves out every value whose slot is in `slots` (before iterating).
    pub fn skipping(self, slots: &'a SlotSet) -> Merged<'a> {
        Merged { a: self.a.skipping(slots), b: self.b.skipping(slots), heads: self.heads }
    }

    /// Counts the values left without decoding them (before iterating).
    pub fn count_left(self) -> Result<u64, Malformed> {
        let pending = self.heads.map_or(0, |(x, y)| x.is_some() as u64 + y.is_some() as u64);
        Ok(pending + self.a.count_left()? + self.b.count_left()?)
    }

    pub fn error(&self) -> Option<Malformed> {
        self.a.error.or(self.b.error)
    }
}

impl Iterator for Merged<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let (x, y) = match self.heads {
            Some(h) => h,
            None => (self.a.next(), self.b.next()),
        };
        let (out, heads) = match (x, y) {
            (Some(x), Some(y)) if x <= y => (x, (self.a.next(), Some(y))),
            (Some(x), Some(y)) => (y, (Some(x), self.b.next())),
            (Some(x), None) => (x, (self.a.next(), None)),
            (None, Some(y)) => (y, (None, self.b.next())),
            (None, None) => {
                self.heads = Some((None, None));
                return None;
            }
        };
        self.heads = Some(heads);
        Some(out)
    }
}

/// Decodes a whole list into a bitmap.
pub fn decode(bytes: &[u8]) -> Result<RoaringBitmap, Malformed> {
    let mut iter = PostingIter::new(bytes);
    let bitmap = RoaringBitmap::from_sorted_iter(&mut iter).map_err(|_| Malformed)?;
    match iter.error {
        Some(e) => Err(e),
        None => Ok(bitmap),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn encoding_round_trips(values in prop::collection::btree_set(any::<u32>(), 0..300), dense_key in 0u32..4, dense_len in 0u32..6000) {
            let mut bitmap: RoaringBitmap = values.into_iter().collect();
            bitmap.extend((0..dense_len).map(|i| (dense_key << 16) | (i * 7 % 65536)));
            let mut bytes = Vec::new();
            encode(&bitmap.iter().collect::<Vec<_>>(), &mut bytes);
            prop_assert_eq!(decode(&bytes).unwrap(), bitmap.clone());
            let streamed: Vec<u32> = PostingIter::new(&bytes).collect();
            prop_assert_eq!(streamed, bitmap.iter().collect::<Vec<_>>());
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            let _ = decode(&bytes);
            let _ = PostingIter::new(&bytes).take(10_000).count();
        }
    }

    proptest! {
        #[test]
        fn skipping_and_counting_equal_filtering(values in prop::collection::btree_set(0u32..(8 << 16), 0..400), dense_len in 0u32..6000, skip in prop::collection::vec(0u32..9, 0..5)) {
            let mut bitmap: RoaringBitmap = values.into_iter().collect();
            bitmap.extend((0..dense_len).map(|i| (3 << 16) | (i * 7 % 65536)));
            let mut bytes = Vec::new();
            encode(&bitmap.iter().collect::<Vec<_>>(), &mut bytes);
            let mut set = SlotSet::default();
            for &s in &skip {
                set.insert(s);
            }
            let want: Vec<u32> = bitmap.iter().filter(|v| !skip.contains(&(v >> 16))).collect();
            let got: Vec<u32> = PostingIter::new(&bytes).skipping(&set).collect();
            prop_assert_eq!(&got, &want);
            prop_assert_eq!(PostingIter::new(&bytes).skipping(&set).count_left(), Ok(want.len() as u64));
            // Counting what is left after some values were taken.
            let mut it = PostingIter::new(&bytes).skipping(&set);
            let taken = it.by_ref().take(5).count();
            prop_assert_eq!(it.count_left(), Ok((want.len() - taken) as u64));
        }
    }

    #[test]
    fn two_lines_in_one_file_cost_a_few_bytes() {
        let mut bytes = Vec::new();
        encode(&[(7 << 16) | 10, (7 << 16) | 12], &mut bytes);
        assert_eq!(bytes, [1, 7 << 1, 0, 10, 1]);
    }

    #[test]
    fn one_line_in_a_file_costs_a_key_and_the_line() {
        let mut bytes = Vec::new();
        encode(&[(7 << 16) | 10, (9 << 16) | 300], &mut bytes);
        assert_eq!(bytes, [2, 7 << 1 | 1, 10, 2 << 1 | 1, 0xAC, 0x02]);
    }
}

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

pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub fn get_varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
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

    /// The next container key (slot), in order, without decoding values:
    /// bodies are skipped, and so are no containers (`skipping` is not
    /// applied). Malformed bytes end it, setting `error`.
    pub fn next_key(&mut self) -> Option<u32> {
        if self.skip_body().is_none() {
            return self.fail();
        }
        if self.containers_left == 0 {
            return None;
        }
        self.containers_left -= 1;
        if self.open_container().is_none() {
            return self.fail();
        }
        Some(self.key)
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

/// Appends the values of an encoded list to `out`, in increasing order,
/// leaving out the containers (slots) in `skip`: what [`PostingIter`] yields,
/// in one tight loop (a contains query gathers the lists of thousands of
/// terms, most of them containers of one or two values). Malformed bytes are an
/// error where the iterator would stop with one; `out` then holds a prefix.
pub fn extend_into(bytes: &[u8], skip: &SlotSet, out: &mut Vec<u32>) -> Result<(), Malformed> {
    decode_with(bytes, skip, |v| out.push(v))
}

/// Adds the values of an encoded list to `bits`, whose slots' lines start at
/// `starts` (see [`LineBits`]); a value past its slot's lines is malformed.
pub fn add_to_bits(bytes: &[u8], skip: &SlotSet, starts: &[u32], bits: &mut LineBits) -> Result<(), Malformed> {
    let mut outside = false;
    decode_with(bytes, skip, |v| {
        let slot = (v >> 16) as usize;
        match (starts.get(slot), starts.get(slot + 1)) {
            (Some(&start), Some(&end)) if start + (v & 0xFFFF) < end => bits.set((start + (v & 0xFFFF)) as usize),
            _ => outside = true,
        }
    })?;
    if outside {
        return Err(Malformed);
    }
    Ok(())
}

/// [`extend_into`], each value given to `emit`.
#[inline]
fn decode_with(bytes: &[u8], skip: &SlotSet, mut emit: impl FnMut(u32)) -> Result<(), Malformed> {
    let mut pos = 0;
    let containers = get_varint(bytes, &mut pos).ok_or(Malformed)?;
    let mut key = 0u64;
    for i in 0..containers {
        let head = get_varint(bytes, &mut pos).ok_or(Malformed)?;
        let (delta, single) = (head >> 1, head & 1 == 1);
        if i > 0 && delta == 0 {
            return Err(Malformed);
        }
        key = if i > 0 { key + delta } else { delta };
        if key > 0xFFFF {
            return Err(Malformed);
        }
        let high = (key as u32) << 16;
        let skipped = skip.contains(key as u32);
        if single {
            let low = get_varint(bytes, &mut pos).ok_or(Malformed)?;
            if low > 0xFFFF {
                return Err(Malformed);
            }
            if !skipped {
                emit(high | low as u32);
            }
            continue;
        }
        let head = get_varint(bytes, &mut pos).ok_or(Malformed)?;
        let count = (head >> 1).checked_add(2).filter(|&c| c <= 65_536).ok_or(Malformed)?;
        if head & 1 == 1 {
            let body = bytes.get(pos..pos.checked_add(DENSE_BYTES).ok_or(Malformed)?).ok_or(Malformed)?;
            pos += DENSE_BYTES;
            if skipped {
                continue;
            }
            // The first `count` set bits; fewer is malformed.
            let mut left = count;
            for (w, chunk) in body.chunks_exact(8).enumerate() {
                let mut word = u64::from_le_bytes(chunk.try_into().map_err(|_| Malformed)?);
                while word != 0 && left > 0 {
                    emit(high | (w as u32 * 64 + word.trailing_zeros()));
                    word &= word - 1;
                    left -= 1;
                }
                if left == 0 {
                    break;
                }
            }
            if left > 0 {
                return Err(Malformed);
            }
        } else if skipped {
            // As many varints as values: count their last bytes.
            let mut left = count;
            while left > 0 {
                let b = *bytes.get(pos).ok_or(Malformed)?;
                pos += 1;
                left -= (b & 0x80 == 0) as u64;
            }
        } else {
            let mut low = get_varint(bytes, &mut pos).ok_or(Malformed)?;
            if low > 0xFFFF {
                return Err(Malformed);
            }
            emit(high | low as u32);
            for _ in 1..count {
                low += get_varint(bytes, &mut pos).ok_or(Malformed)? + 1;
                if low > 0xFFFF {
                    return Err(Malformed);
                }
                emit(high | low as u32);
            }
        }
    }
    Ok(())
}

/// A set of one segment's postings as bits: every line of the segment has one,
/// each slot's lines in a run starting at `starts[slot]` (line id `i` of the
/// slot is bit `starts[slot] + i`; `starts` from `Segment::line_starts`), with
/// a summary bit per 64-bit word. Adding a posting sets two bits; counting,
/// reading in order and clearing follow the summary to the words set, so a set
/// is cleared and used again for the next query instead of being allocated.
/// A union of thousands of lists then costs no sorting or merging.
#[derive(Debug)]
pub struct LineBits {
    words: Vec<u64>,
    summary: Vec<u64>,
}

impl LineBits {
    /// An empty set for `bits` lines.
    pub fn new(bits: usize) -> LineBits {
        let words = bits.div_ceil(64);
        LineBits { words: vec![0; words], summary: vec![0; words.div_ceil(64)] }
    }

    /// How many lines the set has room for.
    pub fn capacity(&self) -> usize {
        self.words.len() * 64
    }

    #[inline]
    fn set(&mut self, bit: usize) {
        let w = bit / 64;
        self.words[w] |= 1 << (bit % 64);
        self.summary[w / 64] |= 1 << (w % 64);
    }

    /// The indices of the words set, in order.
    fn set_words(&self) -> impl Iterator<Item = usize> + '_ {
        self.summary.iter().enumerate().flat_map(|(i, &s)| {
            std::iter::successors((s != 0).then_some(s), |&r| {
                let r = r & (r - 1);
                (r != 0).then_some(r)
            })
            .map(move |r| i * 64 + r.trailing_zeros() as usize)
        })
    }

    /// Adds every line of `other` and clears it.
    pub fn take_from(&mut self, other: &mut LineBits) {
        for i in 0..other.summary.len().min(self.summary.len()) {
            let mut s = std::mem::take(&mut other.summary[i]);
            self.summary[i] |= s;
            while s != 0 {
                let w = i * 64 + s.trailing_zeros() as usize;
                self.words[w] |= std::mem::take(&mut other.words[w]);
                s &= s - 1;
            }
        }
    }

    /// How many lines are set.
    pub fn count(&self) -> u64 {
        self.set_words().map(|w| self.words[w].count_ones() as u64).sum()
    }

    /// The postings set, in increasing order (the order of the lines).
    pub fn postings<'a>(&'a self, starts: &'a [u32]) -> impl Iterator<Item = u32> + 'a {
        let mut slot = 0usize;
        self.set_words()
            .flat_map(move |w| {
                let word = self.words[w];
                std::iter::successors((word != 0).then_some(word), |&r| {
                    let r = r & (r - 1);
                    (r != 0).then_some(r)
                })
                .map(move |r| (w * 64 + r.trailing_zeros() as usize) as u32)
            })
            .map(move |bit| {
                // Lines come in order: the slot only moves forward.
                while starts.get(slot + 1).is_some_and(|&next| next <= bit) {
                    slot += 1;
                }
                ((slot as u32) << 16) | (bit - starts[slot])
            })
    }

    /// Clears the set (only the words set are written).
    pub fn clear(&mut self) {
        for i in 0..self.summary.len() {
            let mut s = std::mem::take(&mut self.summary[i]);
            while s != 0 {
                self.words[i * 64 + s.trailing_zeros() as usize] = 0;
                s &= s - 1;
            }
        }
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

    fn slot_set(slots: &[u32]) -> SlotSet {
        let mut set = SlotSet::default();
        for &s in slots {
            set.insert(s);
        }
        set
    }

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
        fn skipping_counting_and_extending_equal_filtering(values in prop::collection::btree_set(0u32..(8 << 16), 0..400), dense_len in 0u32..6000, skip in prop::collection::vec(0u32..9, 0..5)) {
            let mut bitmap: RoaringBitmap = values.into_iter().collect();
            bitmap.extend((0..dense_len).map(|i| (3 << 16) | (i * 7 % 65536)));
            let mut bytes = Vec::new();
            encode(&bitmap.iter().collect::<Vec<_>>(), &mut bytes);
            let set = slot_set(&skip);
            let want: Vec<u32> = bitmap.iter().filter(|v| !skip.contains(&(v >> 16))).collect();
            let got: Vec<u32> = PostingIter::new(&bytes).skipping(&set).collect();
            prop_assert_eq!(&got, &want);
            prop_assert_eq!(PostingIter::new(&bytes).skipping(&set).count_left(), Ok(want.len() as u64));
            // Counting what is left after some values were taken.
            let mut it = PostingIter::new(&bytes).skipping(&set);
            let taken = it.by_ref().take(5).count();
            prop_assert_eq!(it.count_left(), Ok((want.len() - taken) as u64));
            // Decoded in one loop, appended to what a buffer holds.
            let mut got = vec![7];
            prop_assert_eq!(extend_into(&bytes, &set, &mut got), Ok(()));
            prop_assert_eq!(&got[1..], &want[..]);
            // The slots alone, values not decoded (no containers skipped).
            let mut keys: Vec<u32> = bitmap.iter().map(|v| v >> 16).collect();
            keys.dedup();
            let mut it = PostingIter::new(&bytes);
            let got: Vec<u32> = std::iter::from_fn(|| it.next_key()).collect();
            prop_assert_eq!(got, keys);
            prop_assert!(it.error.is_none());
        }
    }

    proptest! {
        #[test]
        fn extend_into_fails_where_the_iterator_fails(bytes in prop::collection::vec(any::<u8>(), 0..200), skip in prop::collection::vec(0u32..9, 0..3)) {
            // Taking slots alone from any bytes ends, increasing, without a panic.
            let mut keys = PostingIter::new(&bytes);
            let got: Vec<u32> = std::iter::from_fn(|| keys.next_key()).take(100_000).collect();
            prop_assert!(got.windows(2).all(|w| w[0] < w[1]));
            let set = slot_set(&skip);
            let mut it = PostingIter::new(&bytes).skipping(&set);
            let want: Vec<u32> = it.by_ref().take(100_000).collect();
            let mut got = Vec::new();
            let result = extend_into(&bytes, &set, &mut got);
            prop_assert_eq!(result, it.error.map_or(Ok(()), Err));
            if result.is_ok() {
                prop_assert_eq!(got, want);
            }
        }
    }

    proptest! {
        /// Line bits against a sorted, deduplicated union: lists added in two
        /// sets joined by `take_from`, counted and read in order; a cleared set
        /// used again answers for its new lists alone.
        #[test]
        fn line_bits_are_the_union_of_their_lists(
            lines in prop::collection::vec(0u32..300, 1..12),
            lists in prop::collection::vec(prop::collection::vec((0usize..12, 0u32..300), 0..60), 1..6),
            skip in prop::collection::vec(0u32..12, 0..3),
        ) {
            let mut starts = vec![0u32];
            for &n in &lines {
                starts.push(starts.last().unwrap() + n + 1);
            }
            let set = slot_set(&skip);
            // Values of existing slots, line ids within each slot's lines.
            let encoded: Vec<(Vec<u32>, Vec<u8>)> = lists.iter().map(|l| {
                let mut values: Vec<u32> = l.iter()
                    .map(|&(slot, line)| (slot % lines.len(), line))
                    .map(|(slot, line)| ((slot as u32) << 16) | (line % (lines[slot] + 1)))
                    .collect();
                values.sort_unstable();
                values.dedup();
                let mut bytes = Vec::new();
                encode(&values, &mut bytes);
                (values, bytes)
            }).collect();
            let mut want: Vec<u32> = encoded.iter().flat_map(|(v, _)| v.iter().copied()).filter(|v| !set.contains(v >> 16)).collect();
            want.sort_unstable();
            want.dedup();
            let total = *starts.last().unwrap() as usize;
            let (mut a, mut b) = (LineBits::new(total), LineBits::new(total));
            for (i, (_, bytes)) in encoded.iter().enumerate() {
                let into = if i % 2 == 0 { &mut a } else { &mut b };
                prop_assert_eq!(add_to_bits(bytes, &set, &starts, into), Ok(()));
            }
            a.take_from(&mut b);
            prop_assert_eq!(b.count(), 0);
            prop_assert_eq!(a.count(), want.len() as u64);
            prop_assert_eq!(a.postings(&starts).collect::<Vec<_>>(), want);
            a.clear();
            prop_assert_eq!(a.count(), 0);
            let (first, bytes) = &encoded[0];
            prop_assert_eq!(add_to_bits(bytes, &SlotSet::default(), &starts, &mut a), Ok(()));
            prop_assert_eq!(a.postings(&starts).collect::<Vec<_>>(), first.clone());
        }
    }

    #[test]
    fn a_line_id_past_its_slots_lines_is_malformed() {
        let mut bytes = Vec::new();
        encode(&[(1 << 16) | 5], &mut bytes);
        // Slot 1 has room for line ids 0..=4.
        let starts = [0, 3, 8];
        let mut bits = LineBits::new(8);
        assert_eq!(add_to_bits(&bytes, &SlotSet::default(), &starts, &mut bits), Err(Malformed));
        let mut bytes = Vec::new();
        encode(&[(2 << 16) | 1], &mut bytes);
        assert_eq!(add_to_bits(&bytes, &SlotSet::default(), &starts, &mut bits), Err(Malformed));
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

//! Posting lists on disk: roaring's two-level layout (containers keyed by the high
//! 16 bits of each value — the slot — holding the low 16 bits — the line id),
//! Rice-coded in a bit stream: container keys and line ids as gaps, each group of
//! numbers with the Rice parameter, of the three around log2 of their mean, that
//! codes it shortest (kubernetes: 14.6 MB against 19.1 for the same lists as byte
//! varints).
//!
//! Reading streams values in order without building a bitmap, so "the first 50
//! hits" costs 50 steps whatever the list's length; [`decode`] builds a
//! `RoaringBitmap` when set operations are needed. Malformed bytes end the stream
//! with an error, never a panic.
//!
//! ```text
//! list      := varint(containers) [containers > 0: k_key:4 k_low:4 container*,
//!                                  zero bits to the end of the byte]
//! container := rice(k_key + 1, (key - previous key - 1; the first key as is) << 1
//!                               | single)
//!              not single: gamma(count - 1)
//!              rice(k_low, first low value)
//!              count > 1: k_gap:4 rice(k_gap, next - previous - 1)*
//! rice(k, v) := (v >> k) zero bits, a one, then the low k bits of v
//! gamma(c)   := (bit length of c - 1) zero bits, a one, then the bits of c below
//!               its highest
//! ```
//!
//! Bits fill each byte from its lowest; a field's lowest bit comes first.

use roaring::RoaringBitmap;

use super::SlotSet;

/// The most values a container holds (every low half), and one more than the
/// largest key, line id or gap a Rice code stands for.
const CONTAINER_MAX: u64 = 65_536;

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

/// Appends bits to a byte buffer, lowest first.
struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    len: u32,
}

impl BitWriter<'_> {
    fn put(&mut self, v: u64, bits: u32) {
        debug_assert!(bits <= 32 && v >> bits == 0);
        self.acc |= v << self.len;
        self.len += bits;
        while self.len >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.len -= 8;
        }
    }

    /// `n` zero bits and a one.
    fn unary(&mut self, mut n: u64) {
        while n >= 32 {
            self.put(0, 32);
            n -= 32;
        }
        self.put(1 << n, n as u32 + 1);
    }

    fn rice(&mut self, v: u64, k: u32) {
        self.unary(v >> k);
        self.put(v & ((1 << k) - 1), k);
    }

    fn gamma(&mut self, c: u64) {
        debug_assert!(c >= 1);
        let below = 63 - c.leading_zeros();
        self.unary(below as u64);
        self.put(c & ((1 << below) - 1), below);
    }

    fn finish(self) {
        if self.len > 0 {
            self.out.push(self.acc as u8);
        }
    }
}

/// The Rice parameter (0..=15) that codes `values` in the fewest bits, among
/// the three around the one their mean suggests.
fn rice_parameter<I: Iterator<Item = u64>>(values: impl Fn() -> I) -> u32 {
    let (n, sum) = values().fold((0u64, 0u64), |(n, s), v| (n + 1, s + v));
    let mean = sum / n.max(1);
    let guess = if mean == 0 { 0 } else { (63 - mean.leading_zeros()).min(15) };
    let cost = |k: u32| values().map(|v| (v >> k) + 1 + k as u64).sum::<u64>();
    (guess.saturating_sub(1)..=(guess + 1).min(15)).min_by_key(|&k| (cost(k), k)).unwrap_or(0)
}

/// Appends the encoding of a strictly increasing list of values.
pub fn encode(values: &[u32], out: &mut Vec<u8>) {
    debug_assert!(values.windows(2).all(|w| w[0] < w[1]));
    // (key, first index, end index) of each container.
    let mut groups: Vec<(u32, usize, usize)> = Vec::new();
    for (i, &v) in values.iter().enumerate() {
        match groups.last_mut() {
            Some((k, _, end)) if *k == v >> 16 => *end = i + 1,
            _ => groups.push((v >> 16, i, i + 1)),
        }
    }
    put_varint(out, groups.len() as u64);
    if groups.is_empty() {
        return;
    }
    let key_gap = |i: usize| match i {
        0 => groups[0].0 as u64,
        _ => (groups[i].0 - groups[i - 1].0 - 1) as u64,
    };
    let k_key = rice_parameter(|| (0..groups.len()).map(key_gap));
    let k_low = rice_parameter(|| groups.iter().map(|&(_, first, _)| (values[first] & 0xFFFF) as u64));
    let mut w = BitWriter { out, acc: 0, len: 0 };
    w.put(k_key as u64, 4);
    w.put(k_low as u64, 4);
    for (i, &(_, first, end)) in groups.iter().enumerate() {
        let single = end - first == 1;
        w.rice(key_gap(i) << 1 | single as u64, k_key + 1);
        if !single {
            w.gamma((end - first - 1) as u64);
        }
        w.rice((values[first] & 0xFFFF) as u64, k_low);
        if end - first > 1 {
            let gaps = || values[first..end].windows(2).map(|p| (p[1] - p[0] - 1) as u64);
            let k_gap = rice_parameter(gaps);
            w.put(k_gap as u64, 4);
            for g in gaps() {
                w.rice(g, k_gap);
            }
        }
    }
    w.finish();
}

/// An encoded list: its bytes, and perhaps bytes after them that may be
/// loaded but are not read as the list's (the rest of the postings section:
/// a list's last bytes are then one 8-byte load, not a copy).
#[derive(Debug, Clone, Copy)]
pub struct List<'a> {
    bytes: &'a [u8],
    len: usize,
}

impl<'a> List<'a> {
    /// The first `len` bytes of `bytes` (all of them when fewer).
    pub fn with_slack(bytes: &'a [u8], len: usize) -> List<'a> {
        List { bytes, len: len.min(bytes.len()) }
    }

    /// The list's own bytes.
    pub fn bytes(&self) -> &'a [u8] {
        &self.bytes[..self.len]
    }
}

impl<'a, T: AsRef<[u8]> + ?Sized> From<&'a T> for List<'a> {
    fn from(bytes: &'a T) -> List<'a> {
        let bytes = bytes.as_ref();
        List { bytes, len: bytes.len() }
    }
}

/// Reads bits from a byte slice, lowest first. The bits of `buf` above `avail`
/// are the slice's next bits (or zero past its end), so loading a byte again
/// at the same place changes nothing; a code is taken only from the bits
/// counted in `avail`, which end at the stream's end.
struct BitReader<'a> {
    bytes: &'a [u8],
    /// Where the stream ends in `bytes` (bytes past it may be loaded, never
    /// counted in `avail`).
    end: usize,
    /// The next byte not yet counted in `avail`.
    pos: usize,
    buf: u64,
    /// Bits of `buf` not yet taken (at most 63).
    avail: u32,
}

impl<'a> BitReader<'a> {
    fn new(list: List<'a>, pos: usize) -> BitReader<'a> {
        BitReader { bytes: list.bytes, end: list.len, pos, buf: 0, avail: 0 }
    }

    #[inline(always)]
    fn refill(&mut self) {
        let mut whole = (63 - self.avail) / 8;
        let left = self.end - self.pos;
        if whole as usize > left {
            whole = left as u32;
        }
        let word = match self.bytes.get(self.pos..self.pos + 8) {
            Some(word) => u64::from_le_bytes(word.try_into().expect("8 bytes")),
            None => self.last_word(),
        };
        self.buf |= word << self.avail;
        self.pos += whole as usize;
        self.avail += whole * 8;
    }

    /// The slice's last bytes as a word, zero above: a list given without the
    /// bytes after it (a section's postings are read with them).
    #[cold]
    #[inline(never)]
    fn last_word(&self) -> u64 {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        u64::from_le_bytes(word)
    }

    /// The next `k` bits (`k` ≤ 16) as a number; `None` past the end.
    #[inline(always)]
    fn bits(&mut self, k: u32) -> Option<u64> {
        if self.avail < k {
            self.refill();
            if self.avail < k {
                return None;
            }
        }
        let v = self.buf & ((1u64 << k) - 1);
        self.buf >>= k;
        self.avail -= k;
        Some(v)
    }

    /// The number of zero bits before the next one (which is taken too);
    /// `None` past the end or when more than `limit`.
    #[inline]
    fn unary(&mut self, limit: u64) -> Option<u64> {
        let mut zeros = 0u64;
        loop {
            let held = match self.avail {
                0 => 0,
                n => self.buf & (u64::MAX >> (64 - n)),
            };
            if held != 0 {
                let t = held.trailing_zeros();
                self.buf >>= t + 1;
                self.avail -= t + 1;
                zeros += t as u64;
                return (zeros <= limit).then_some(zeros);
            }
            zeros += self.avail as u64;
            if zeros > limit {
                return None;
            }
            // Every bit held is zero: load afresh from `pos`.
            self.buf = 0;
            self.avail = 0;
            self.refill();
            if self.avail == 0 {
                return None;
            }
        }
    }

    /// A Rice-coded number below `bound` (a power of two: `CONTAINER_MAX` for
    /// a key, a line id or a gap; twice that for a key gap with its flag).
    #[inline(always)]
    fn rice(&mut self, k: u32, bound: u64) -> Option<u64> {
        // Most codes lie within the bits held: one count of trailing zeros,
        // and a load only when they do not.
        for _ in 0..2 {
            let zeros = self.buf.trailing_zeros();
            let used = zeros + 1 + k;
            if used <= self.avail {
                let v = ((zeros as u64) << k) | ((self.buf >> (zeros + 1)) & ((1u64 << k) - 1));
                self.buf >>= used;
                self.avail -= used;
                return (v < bound).then_some(v);
            }
            self.refill();
        }
        let q = self.unary((bound - 1) >> k)?;
        let v = (q << k) | self.bits(k)?;
        (v < bound).then_some(v)
    }

    /// A gamma-coded number (1..[`CONTAINER_MAX`]).
    #[inline(always)]
    fn gamma(&mut self) -> Option<u64> {
        for _ in 0..2 {
            let below = self.buf.trailing_zeros();
            let used = 2 * below + 1;
            if used <= self.avail {
                let c = (1u64 << below) | ((self.buf >> (below + 1)) & ((1u64 << below) - 1));
                self.buf >>= used;
                self.avail -= used;
                return (c < CONTAINER_MAX).then_some(c);
            }
            self.refill();
        }
        let below = self.unary(15)?;
        let c = (1 << below) | self.bits(below as u32)?;
        (c < CONTAINER_MAX).then_some(c)
    }
}

/// Malformed posting bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Malformed;

/// Streams the values of an encoded list in increasing order.
pub struct PostingIter<'a> {
    bits: BitReader<'a>,
    containers_left: u64,
    k_key: u32,
    k_low: u32,
    k_gap: u32,
    key: u32,
    /// Values left in the current container.
    left: u64,
    /// The current container's first value is the next one.
    first: bool,
    low: u32,
    started: bool,
    /// Containers (slots) left out: superseded files.
    skip: Option<&'a SlotSet>,
    pub error: Option<Malformed>,
}

impl<'a> PostingIter<'a> {
    pub fn new(list: impl Into<List<'a>>) -> PostingIter<'a> {
        let list = list.into();
        let mut pos = 0;
        let containers = get_varint(list.bytes(), &mut pos).filter(|&n| n <= CONTAINER_MAX);
        let mut it = PostingIter {
            bits: BitReader::new(list, pos),
            containers_left: containers.unwrap_or(0),
            k_key: 0,
            k_low: 0,
            k_gap: 0,
            key: 0,
            left: 0,
            first: false,
            low: 0,
            started: false,
            skip: None,
            error: None,
        };
        let params = match containers {
            Some(0) => Some((0, 0)),
            Some(_) => it.bits.bits(4).zip(it.bits.bits(4)),
            None => None,
        };
        match params {
            Some((k_key, k_low)) => (it.k_key, it.k_low) = (k_key as u32, k_low as u32),
            None => {
                it.fail();
            }
        }
        it
    }

    /// Leaves out every value whose container key (slot) is in `slots`.
    pub fn skipping(mut self, slots: &'a SlotSet) -> PostingIter<'a> {
        if !slots.is_empty() {
            self.skip = Some(slots);
        }
        self
    }

    /// Counts the values left: container headers are read, bodies passed over.
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

    /// The next container key (slot), in order, without yielding values:
    /// bodies are passed over, and so are no containers (`skipping` is not
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
        while self.left > 0 {
            self.next_low()?;
        }
        Some(())
    }

    fn fail(&mut self) -> Option<u32> {
        self.error = Some(Malformed);
        self.containers_left = 0;
        self.left = 0;
        None
    }

    #[inline(always)]
    fn open_container(&mut self) -> Option<()> {
        let head = self.bits.rice(self.k_key + 1, 2 * CONTAINER_MAX)?;
        let gap = head >> 1;
        let key = if self.started { self.key as u64 + gap + 1 } else { gap };
        if key >= CONTAINER_MAX {
            return None;
        }
        self.key = key as u32;
        self.started = true;
        self.left = if head & 1 == 1 { 1 } else { self.bits.gamma()? + 1 };
        self.first = true;
        Some(())
    }

    /// The current container's next low half (`left` > 0).
    #[inline(always)]
    fn next_low(&mut self) -> Option<u32> {
        self.left -= 1;
        if self.first {
            self.first = false;
            self.low = self.bits.rice(self.k_low, CONTAINER_MAX)? as u32;
            if self.left > 0 {
                self.k_gap = self.bits.bits(4)? as u32;
            }
        } else {
            let low = self.low as u64 + self.bits.rice(self.k_gap, CONTAINER_MAX)? + 1;
            if low >= CONTAINER_MAX {
                return None;
            }
            self.low = low as u32;
        }
        Some(self.low)
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
        match self.next_low() {
            Some(low) => Some((self.key << 16) | low),
            None => self.fail(),
        }
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
pub fn extend_into<'a>(list: impl Into<List<'a>>, skip: &SlotSet, out: &mut Vec<u32>) -> Result<(), Malformed> {
    decode_with(list.into(), skip, |v| out.push(v))
}

/// Adds the values of an encoded list to `bits`, whose slots' lines start at
/// `starts` (see [`LineBits`]); a value past its slot's lines is malformed.
pub fn add_to_bits<'a>(
    list: impl Into<List<'a>>,
    skip: &SlotSet,
    starts: &[u32],
    bits: &mut LineBits,
) -> Result<(), Malformed> {
    let mut outside = false;
    decode_with(list.into(), skip, |v| {
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

/// [`extend_into`], each value given to `emit`: the iterator's steps in one
/// loop over local state (a contains query or a sentence's evidence decodes
/// thousands of lists, most of them a container or two).
#[inline]
fn decode_with(list: List<'_>, skip: &SlotSet, mut emit: impl FnMut(u32)) -> Result<(), Malformed> {
    let mut pos = 0;
    let containers = get_varint(list.bytes(), &mut pos).filter(|&n| n <= CONTAINER_MAX).ok_or(Malformed)?;
    if containers == 0 {
        return Ok(());
    }
    let mut bits = BitReader::new(list, pos);
    let (k_key, k_low) = bits.bits(4).zip(bits.bits(4)).ok_or(Malformed)?;
    let (k_key, k_low) = (k_key as u32, k_low as u32);
    let mut key = 0u64;
    for i in 0..containers {
        let head = bits.rice(k_key + 1, 2 * CONTAINER_MAX).ok_or(Malformed)?;
        key = if i > 0 { key + (head >> 1) + 1 } else { head >> 1 };
        if key >= CONTAINER_MAX {
            return Err(Malformed);
        }
        let count = if head & 1 == 1 { 1 } else { bits.gamma().ok_or(Malformed)? + 1 };
        let mut low = bits.rice(k_low, CONTAINER_MAX).ok_or(Malformed)?;
        // A skipped container is read as the iterator reads it: every gap checked.
        let skipped = skip.contains(key as u32);
        let high = (key as u32) << 16;
        if !skipped {
            emit(high | low as u32);
        }
        if count > 1 {
            let k_gap = bits.bits(4).ok_or(Malformed)? as u32;
            for _ in 1..count {
                low += bits.rice(k_gap, CONTAINER_MAX).ok_or(Malformed)? + 1;
                if low >= CONTAINER_MAX {
                    return Err(Malformed);
                }
                if !skipped {
                    emit(high | low as u32);
                }
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
pub fn decode<'a>(list: impl Into<List<'a>>) -> Result<RoaringBitmap, Malformed> {
    let mut iter = PostingIter::new(list);
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
            prop_assert_eq!(&streamed, &bitmap.iter().collect::<Vec<_>>());
            // Bytes after the list (the next lists of a section) may be loaded,
            // never read as the list's, and a list cut short is malformed.
            let len = bytes.len();
            bytes.extend_from_slice(&[0xFF, 0, 0x55, 0xAA, 1, 2, 3, 4, 5]);
            let slack = List::with_slack(&bytes, len);
            prop_assert_eq!(PostingIter::new(slack).collect::<Vec<_>>(), streamed.clone());
            let mut out = Vec::new();
            prop_assert_eq!(extend_into(slack, &SlotSet::default(), &mut out), Ok(()));
            prop_assert_eq!(out, streamed);
            if len > 1 {
                let cut = List::with_slack(&bytes, len - 1);
                prop_assert_eq!(extend_into(cut, &SlotSet::default(), &mut Vec::new()), Err(Malformed));
            }
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
        // One container; k_key 2, k_low 2 (0100 0100), key 7 and not single
        // (01 011), count 2 (1), line 10 (001 01), k_gap 0 (0000), gap 1 (01);
        // lowest bit first.
        assert_eq!(bytes, [1, 0x22, 0x3A, 0x05, 0x01]);
    }

    #[test]
    fn one_line_in_a_file_costs_a_key_and_the_line() {
        let mut bytes = Vec::new();
        encode(&[(7 << 16) | 10, (9 << 16) | 300], &mut bytes);
        // k_key 1, k_low 6; key 7 and single (0001 11), line 10 (1 010100);
        // key gap 1 and single (1 11), line 300 (00001 001101).
        assert_eq!(bytes, [2, 0x61, 0x78, 0xE5, 0x90, 0x05]);
    }

    #[test]
    fn a_full_container_costs_no_more_than_a_bitmap() {
        let values: Vec<u32> = (0..65_536).map(|i| (3 << 16) | i).collect();
        let mut bytes = Vec::new();
        encode(&values, &mut bytes);
        assert!(bytes.len() <= 8192 + 8, "{} bytes", bytes.len());
        assert_eq!(PostingIter::new(&bytes).collect::<Vec<_>>(), values);
        assert_eq!(PostingIter::new(&bytes).count_left(), Ok(65_536));
    }

    #[test]
    fn the_empty_list_is_one_zero_byte() {
        let mut bytes = Vec::new();
        encode(&[], &mut bytes);
        assert_eq!(bytes, [0]);
        assert_eq!(PostingIter::new(&bytes).count(), 0);
        assert_eq!(PostingIter::new(&bytes).count_left(), Ok(0));
    }
}

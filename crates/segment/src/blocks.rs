//! Sections stored as zstd blocks: the strings, the line types and the
//! definition records compress to a third of their bytes or less (rustc:
//! 21.3 MiB → 7.4), yet each read wants a few bytes of one item (a path, a
//! spelling, a file's line types, a name's group of records). The section is
//! cut into blocks of about [`TARGET`] bytes, only where an item starts, so an
//! item is never split; each block is compressed alone. A read finds its block
//! by the item's offset in the section as written (offsets stay those of the
//! uncompressed bytes), decompresses the block on first use and keeps it
//! while the segment is open: a query touches the blocks of what it reads,
//! and a long-running server pays each block once.
//!
//! Layout: `count u32, 0 u32`, then `count + 1` pairs `(start u64, frame
//! u64)`: block `i` holds the bytes `start[i]..start[i + 1]` of the
//! uncompressed section, its frame is `frame[i]..frame[i + 1]` of the frames
//! that follow the pairs (the last pair: the uncompressed length, the frames'
//! length). A frame as long as its block is the bytes themselves (the writer
//! stores a block so when zstd does not make it shorter, and when it is over
//! [`MAX_BLOCK_BYTES`]); a shorter one is a zstd frame.

use rayon::prelude::*;
use zstd::zstd_safe;

/// A block's uncompressed bytes at least, unless the section ends first: the
/// writer cuts at the first item start at or past this many bytes. Measured on
/// rustc's strings at zstd level 6: 16 KiB blocks compress to 28.5%, 64 KiB to
/// 27.4% (the whole section at level 3: 27.6%); a first read of a block
/// decompresses it in ~20 µs (700 MB/s).
pub const TARGET: usize = 16 << 10;

/// The zstd level of built and compacted segments. On rustc's three blocked
/// sections (21.3 MiB): level 5 gives 7.43 MiB in 0.5 s of one thread, level 3
/// 7.77 MiB in 0.24 s, level 7 7.36 MiB in 0.9 s.
pub const LEVEL: i32 = 5;
/// The level of segments written by updates, where latency counts.
pub const LEVEL_FAST: i32 = 1;

/// Blocks larger than this (an item that large) are stored as they are, so a
/// reader never allocates more than this for a block.
pub const MAX_BLOCK_BYTES: usize = 64 << 20;

/// The blocked form of `data`, cut only at offsets of `starts` (the items'
/// starts, in any order; others are ignored), each block compressed at
/// `level` on the rayon pool.
pub fn write(data: &[u8], starts: impl IntoIterator<Item = usize>, level: i32) -> Vec<u8> {
    let mut starts: Vec<usize> = starts.into_iter().filter(|&s| s < data.len()).collect();
    starts.sort_unstable();
    let mut cuts = vec![0usize];
    for s in starts {
        if s >= cuts[cuts.len() - 1] + TARGET {
            cuts.push(s);
        }
    }
    if !data.is_empty() {
        cuts.push(data.len());
    }
    let frames: Vec<Vec<u8>> = cuts
        .par_windows(2)
        .map(|w| {
            let block = &data[w[0]..w[1]];
            let packed = match block.len() <= MAX_BLOCK_BYTES {
                true => zstd::bulk::compress(block, level).ok().filter(|f| f.len() < block.len()),
                false => None,
            };
            packed.unwrap_or_else(|| block.to_vec())
        })
        .collect();
    let count = frames.len();
    let mut out = Vec::with_capacity(8 + 16 * (count + 1) + frames.iter().map(Vec::len).sum::<usize>());
    out.extend_from_slice(&(count as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    let mut frame_at = 0u64;
    for (i, &start) in cuts.iter().enumerate().take(count + 1) {
        out.extend_from_slice(&(start as u64).to_le_bytes());
        out.extend_from_slice(&frame_at.to_le_bytes());
        frame_at += frames.get(i).map_or(0, |f| f.len() as u64);
    }
    if count == 0 {
        // `cuts` is `[0]`: the one pair is the (empty) section's end.
        debug_assert_eq!(out.len(), 24);
    }
    for f in frames {
        out.extend_from_slice(&f);
    }
    out
}

/// A blocked section's index, read once: where each block starts in the
/// uncompressed bytes and where its frame is in the section, and the blocks
/// decompressed so far.
pub struct Index {
    starts: Box<[u64]>,
    /// Absolute offsets in the section of each frame, and the end of the last.
    frames: Box<[u64]>,
    cache: Box<[std::sync::OnceLock<Box<[u8]>>]>,
    /// Per [`TARGET`] bytes of the uncompressed section, the block holding its
    /// first byte: an offset's block is that one or, as blocks the writer
    /// makes are at least [`TARGET`] long, the next (a lookup in O(1)).
    pages: Box<[u32]>,
}

impl Index {
    /// The index of a blocked section; `None` when its pairs do not describe
    /// blocks that increase and fit in the section.
    pub fn parse(section: &[u8]) -> Option<Index> {
        let u64_at = |at: usize| Some(u64::from_le_bytes(section.get(at..at + 8)?.try_into().ok()?));
        let count = u32::from_le_bytes(section.get(..4)?.try_into().ok()?) as usize;
        let frames_at = 8usize.checked_add(count.checked_add(1)?.checked_mul(16)?)?;
        if frames_at > section.len() {
            return None;
        }
        let (mut starts, mut frames) = (Vec::with_capacity(count + 1), Vec::with_capacity(count + 1));
        for i in 0..=count {
            let (start, frame) = (u64_at(8 + 16 * i)?, u64_at(16 + 16 * i)?.checked_add(frames_at as u64)?);
            if let (Some(&s), Some(&f)) = (starts.last(), frames.last()) {
                // Blocks are not empty; frames are not longer than their block.
                if start <= s || frame <= f || frame - f > start - s {
                    return None;
                }
            }
            starts.push(start);
            frames.push(frame);
        }
        if starts[0] != 0 || frames[count] != section.len() as u64 {
            return None;
        }
        let cache = (0..count).map(|_| std::sync::OnceLock::new()).collect();
        let pages = usize::try_from(starts[count].div_ceil(TARGET as u64)).ok()?;
        // A section that cannot be so long (its blocks' frames are in the file).
        if pages > section.len().saturating_mul(64) {
            return None;
        }
        let mut block = 0;
        let pages = (0..pages as u64)
            .map(|p| {
                while starts[block + 1] <= p * TARGET as u64 {
                    block += 1;
                }
                block as u32
            })
            .collect();
        Some(Index { starts: starts.into(), frames: frames.into(), cache, pages })
    }

    /// The uncompressed section's length.
    pub fn len(&self) -> u64 {
        self.starts[self.starts.len() - 1]
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn block_count(&self) -> usize {
        self.cache.len()
    }

    /// The block holding uncompressed offset `at`: its index and bytes range.
    pub fn block_of(&self, at: u64) -> Option<(usize, std::ops::Range<u64>)> {
        if at >= self.len() {
            return None;
        }
        let mut i = *self.pages.get((at / TARGET as u64) as usize)? as usize;
        while self.starts[i + 1] <= at {
            i += 1;
        }
        Some((i, self.range(i)))
    }

    /// The uncompressed bytes block `i` holds.
    pub fn range(&self, i: usize) -> std::ops::Range<u64> {
        self.starts[i]..self.starts[i + 1]
    }

    /// Where block `i`'s frame is in the section.
    pub fn frame(&self, i: usize) -> std::ops::Range<usize> {
        self.frames[i] as usize..self.frames[i + 1] as usize
    }

    /// Block `i`'s bytes if it was decompressed already.
    pub fn cached(&self, i: usize) -> Option<&[u8]> {
        self.cache.get(i)?.get().map(|b| &b[..])
    }

    /// Block `i`'s bytes, from `frame` (its frame, checked by the caller) the
    /// first time. `None` when the frame does not hold the block.
    pub fn block<'a>(&'a self, section: &'a [u8], i: usize) -> Option<&'a [u8]> {
        let frame = section.get(self.frame(i))?;
        let raw_len = usize::try_from(self.starts[i + 1] - self.starts[i]).ok()?;
        if frame.len() == raw_len {
            return Some(frame);
        }
        if let Some(b) = self.cached(i) {
            return Some(b);
        }
        if raw_len > MAX_BLOCK_BYTES {
            return None;
        }
        let raw = decompress_exact(frame, raw_len, None)?.into_boxed_slice();
        Some(&self.cache[i].get_or_init(|| raw)[..])
    }
}

/// One zstd frame holding exactly `raw_len` bytes (compressed with `dict`
/// when given); `None` when it does not.
pub(crate) fn decompress_exact(
    frame: &[u8],
    raw_len: usize,
    dict: Option<&zstd_safe::DDict<'static>>,
) -> Option<Vec<u8>> {
    // One context per thread: making one costs more than many a frame's
    // decompression.
    thread_local! {
        static DCTX: std::cell::RefCell<Option<zstd_safe::DCtx<'static>>> = const { std::cell::RefCell::new(None) };
    }
    let raw = DCTX.with(|d| {
        let mut d = d.try_borrow_mut().ok()?;
        let dctx = d.get_or_insert_with(zstd_safe::DCtx::create);
        let mut out: Vec<u8> = Vec::with_capacity(raw_len);
        match dict {
            Some(ddict) => dctx.decompress_using_ddict(&mut out, frame, ddict),
            None => dctx.decompress(&mut out, frame),
        }
        .ok()?;
        Some(out)
    })?;
    (raw.len() == raw_len).then_some(raw)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn read(section: &[u8], index: &Index, at: u64, len: u64) -> Option<Vec<u8>> {
        let (i, range) = index.block_of(at)?;
        let block = index.block(section, i)?;
        block.get((at - range.start) as usize..(at - range.start + len) as usize).map(<[u8]>::to_vec)
    }

    #[test]
    fn an_empty_section_is_one_pair() {
        let s = write(&[], [0], 3);
        assert_eq!(s, [&[0u8; 8][..], &[0; 16]].concat());
        let index = Index::parse(&s).unwrap();
        assert_eq!((index.len(), index.block_count()), (0, 0));
        assert!(index.block_of(0).is_none());
    }

    #[test]
    fn blocks_are_cut_at_item_starts_past_the_target() {
        // Items of 1000 bytes: the first start at or past TARGET is 17,000.
        let data: Vec<u8> = (0..40_000u32).map(|i| (i % 7) as u8).collect();
        let s = write(&data, (0..40).map(|i| i * 1000), 3);
        let index = Index::parse(&s).unwrap();
        assert_eq!(&index.starts[..], [0, 17_000, 34_000, 40_000]);
        // Repetitive bytes compress: every frame is shorter than its block.
        assert!((0..3).all(|i| index.frame(i).len() < 6000));
        for (at, len) in [(0, 1000), (16_999, 1), (17_000, 17_000), (39_000, 1000)] {
            assert_eq!(read(&s, &index, at, len).unwrap(), data[at as usize..(at + len) as usize]);
        }
    }

    #[test]
    fn an_incompressible_block_is_stored_as_it_is() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let data: Vec<u8> = (0..5000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let s = write(&data, [0], 19);
        assert_eq!(s.len(), 40 + data.len());
        assert_eq!(&s[40..], &data[..]);
        let index = Index::parse(&s).unwrap();
        // The stored block is read in place, never copied into the cache.
        assert_eq!(read(&s, &index, 10, 20).unwrap(), data[10..30]);
        assert!(index.cached(0).is_none());
    }

    #[test]
    fn a_damaged_index_or_frame_is_refused() {
        let data = b"abcabcabcabcabcabcabcabcabcabcabcabcabcabc".repeat(1000);
        let s = write(&data, [0], 3);
        // A pair past the section, blocks that do not increase, a frame cut.
        let mut bad = s.clone();
        bad[0] = 2;
        assert!(Index::parse(&bad).is_none());
        let mut bad = s.clone();
        bad[8 + 16..8 + 24].copy_from_slice(&0u64.to_le_bytes());
        assert!(Index::parse(&bad).is_none());
        let mut bad = s.clone();
        let last = bad.len() - 1;
        bad[last] ^= 0xFF;
        let index = Index::parse(&bad).unwrap();
        assert!(index.block(&bad, 0).is_none_or(|b| b != &data[..]));
    }

    #[test]
    fn blocks_shorter_than_the_target_are_found() {
        // Blocks of 3 bytes, as another writer could cut them: each offset's
        // block found by walking on from its page's first.
        let data: Vec<u8> = (0..40_000u32).map(|i| (i / 3) as u8).collect();
        let mut s = Vec::new();
        let count = data.len() / 3 + 1;
        s.extend_from_slice(&(count as u32).to_le_bytes());
        s.extend_from_slice(&0u32.to_le_bytes());
        for i in 0..=count {
            let start = (3 * i).min(data.len()) as u64;
            s.extend_from_slice(&start.to_le_bytes());
            s.extend_from_slice(&start.to_le_bytes());
        }
        s.extend_from_slice(&data);
        let index = Index::parse(&s).unwrap();
        for at in [0u64, 2, 3, 16_383, 16_384, 16_385, 39_999] {
            let (i, range) = index.block_of(at).unwrap();
            assert_eq!((i as u64, range.contains(&at)), (at / 3, true), "{at}");
            assert_eq!(read(&s, &index, at, 1).unwrap(), [data[at as usize]]);
        }
        assert!(index.block_of(40_000).is_none());
    }

    proptest! {
        /// Every item reads back as written, whatever the item sizes and level.
        #[test]
        fn items_read_back(items in proptest::collection::vec(proptest::collection::vec(0u8..4, 0..3000), 0..40), level in 1i32..8) {
            let mut data = Vec::new();
            let mut at = Vec::new();
            for item in &items {
                at.push(data.len());
                data.extend_from_slice(item);
            }
            let s = write(&data, at.iter().copied(), level);
            let index = Index::parse(&s).unwrap();
            prop_assert_eq!(index.len(), data.len() as u64);
            for (item, &start) in items.iter().zip(&at) {
                if item.is_empty() {
                    continue;
                }
                let got = read(&s, &index, start as u64, item.len() as u64);
                prop_assert_eq!(got.as_deref(), Some(&item[..]));
            }
        }
    }
}

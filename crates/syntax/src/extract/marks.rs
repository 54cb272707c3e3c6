//! Line marks: where every 64th line of a file starts, recorded at extraction so
//! that a line's text is later read from the mark before it rather than from the
//! start of the file (`format/README.md`, "Line marks").

/// Lines from one line mark to the next: a file's marks give where its lines
/// 65, 129, 193, ... start, so that a line's text is read from the mark before
/// it (at most this many lines) instead of from the start of the file.
pub const LINES_PER_MARK: u32 = 64;

/// How many line marks a file of `lines` lines has: one per line numbered
/// `LINES_PER_MARK * k + 1` (k ≥ 1) that it has.
pub fn line_mark_count(lines: u32) -> usize {
    (lines.saturating_sub(1) / LINES_PER_MARK) as usize
}

/// A file's line marks, from its bytes as they are on disk (a byte-order mark
/// included): the byte offset where each line numbered `LINES_PER_MARK * k + 1`
/// starts, lines ending as extraction ends them (at an LF, or at a CR not
/// followed by one), `line_mark_count(lines)` of them. Invalid UTF-8 does not
/// move a line end (CR and LF are never part of a replaced sequence), so the
/// offsets are those of the raw bytes. A file past 4 GiB has its later marks
/// at `u32::MAX` (readers take such marks as missing).
pub fn line_marks(bytes: &[u8], lines: u32) -> Vec<u32> {
    let want = line_mark_count(lines);
    let mut marks = Vec::with_capacity(want);
    let mut ends = 0u32;
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if marks.len() == want {
            break;
        }
        if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            continue;
        }
        ends += 1;
        if ends.is_multiple_of(LINES_PER_MARK) {
            marks.push(u32::try_from(i + 1).unwrap_or(u32::MAX));
        }
    }
    marks.resize(want, u32::MAX);
    marks
}

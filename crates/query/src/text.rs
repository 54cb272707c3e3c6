//! The current text of matched lines, read from the files on disk, and whether a
//! file changed since it was indexed.
//!
//! A hit never shows text that is not the hit. When a file changed since it was
//! indexed (size, mtime and hash differ from its slot), its hits are checked
//! against the current text: a hit whose line still holds a matching word keeps
//! it; otherwise it moves to the nearest line that holds one and that no other
//! hit took; when none is left, the hit is reported gone (no text). Files are
//! opened without following a symlink, only when they are regular files (a FIFO
//! would block), and read up to the indexed size (or the size limit, for a
//! changed file).

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use xxhash_rust::xxh3::xxh3_64;

use super::{Hit, Matcher};
use crate::extract::words::{for_each_word, WordSource};
use crate::extract::DEFAULT_MAX_FILE_BYTES;
use crate::project::Index;
use crate::snapshot::LINES_PER_MARK;

/// Longest line text returned, in bytes.
pub const MAX_LINE_TEXT: usize = 400;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineText {
    /// The line as it is now (trimmed, cut at [`MAX_LINE_TEXT`]); `None` when the
    /// file cannot be read or the hit is gone from it.
    pub text: Option<String>,
    /// Where the hit is now: the indexed line, or where a changed file holds it.
    pub line: u32,
    /// The file changed since it was indexed.
    pub stale: bool,
    /// The file changed and no longer holds this hit (or is gone).
    pub gone: bool,
}

/// One file's current content with its line starts. An unchanged file (its
/// indexed size and mtime) is read as its lines are asked for, 64 KiB at a time:
/// a hit near the top of a large generated file does not read the file.
struct FileText {
    /// The bytes read so far as extraction reads them (no byte-order mark, lone
    /// CRs as LFs); a line is decoded (invalid UTF-8 replaced) only when it is
    /// shown: decoding whole files was most of a default MCP query's time on
    /// large trees.
    content: Vec<u8>,
    /// Byte offset of each line's start, as far as `content` is scanned.
    starts: Vec<usize>,
    /// Bytes of `content` whose line ends are known (a CR at the end waits for
    /// the byte after it).
    scanned: usize,
    /// The unread rest of the file; `None` once it is all read.
    rest: Option<Box<dyn Read + Send>>,
    /// Bytes to read next from `rest`: doubling after each read up to
    /// `max_chunk`.
    chunk: usize,
    max_chunk: usize,
    /// Bytes `rest` has left, when known (reads stop there without asking
    /// again; the space for them is taken once).
    left: u64,
    /// Whether a leading byte-order mark was looked for (and removed).
    bom_checked: bool,
    stale: bool,
    /// Lines holding a matching word, for relocating hits (changed files only).
    matching: Option<Vec<u32>>,
    /// An unchanged file with line marks is read a block of lines at a time
    /// instead (`content` then holds one block).
    marked: Option<Marked>,
}

/// An unchanged file read by blocks of [`LINES_PER_MARK`] lines, from the
/// index's line marks: a hit's line costs one read of its block, wherever it
/// is in the file (reading from the start up to deep hits was most of a
/// default MCP query's time on large trees).
struct Marked {
    file: std::fs::File,
    /// Where lines `LINES_PER_MARK * k + 1` start (k ≥ 1).
    marks: Vec<u32>,
    size: u64,
    /// The blocks `content` holds, first and last: block `j` is lines
    /// `LINES_PER_MARK * j + 1` up to the next mark.
    blocks: Option<(usize, usize)>,
}

thread_local! {
    /// Buffers of files read by earlier questions on this thread, cleared, for
    /// the next: taking fresh memory for every file (and the kernel zeroing the
    /// pages it faults in) was a fifth of `cg mcp`'s time in the MCP bench.
    static SPARE: std::cell::RefCell<Vec<(Vec<u8>, Vec<usize>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Buffers kept per thread, and the largest kept.
const SPARE_BUFFERS: usize = 8;
const SPARE_MAX_BYTES: usize = 1 << 20;

/// Empty buffers for a file's bytes and its line starts.
fn spare_buffers() -> (Vec<u8>, Vec<usize>) {
    SPARE.try_with(|s| s.borrow_mut().pop()).ok().flatten().unwrap_or_default()
}

impl Drop for FileText {
    fn drop(&mut self) {
        let (mut content, mut starts) = (std::mem::take(&mut self.content), std::mem::take(&mut self.starts));
        if content.capacity() > SPARE_MAX_BYTES || starts.capacity() * std::mem::size_of::<usize>() > SPARE_MAX_BYTES {
            return;
        }
        content.clear();
        starts.clear();
        // A thread being torn down has no pool left: the buffers are just freed.
        let _ = SPARE.try_with(|s| {
            let mut s = s.borrow_mut();
            if s.len() < SPARE_BUFFERS {
                s.push((content, starts));
            }
        });
    }
}

/// How much of an unchanged file is read first, and at most at a time: a
/// first read of 64 KiB (and finding its line ends, and the fresh memory it
/// needs) was most of the server's time in the MCP bench, where most hits are
/// in the first few KiB of a file.
const FIRST_READ: usize = 16 << 10;
const READ_CHUNK: usize = 256 << 10;

/// Reads hits' lines, hit by hit, so that a caller can write each as it comes
/// (and stop when its reader is gone). The last few files are kept; a file seen
/// again later (definitions first, then other lines) is read again, and the lines
/// its changed version already gave to hits stay taken.
pub struct TextReader<'a> {
    index: &'a Index,
    matcher: Option<&'a Matcher>,
    /// Recently read files (path, content); `None` when unreadable.
    recent: Vec<(String, Option<FileText>)>,
    /// Per changed file: the lines already given to a hit.
    taken: HashMap<String, Vec<u32>>,
}

/// How many files a [`TextReader`] keeps read.
const RECENT_FILES: usize = 8;

impl<'a> TextReader<'a> {
    /// `matcher` is the query's: it decides whether a changed file's line still
    /// holds the hit.
    pub fn new(index: &'a Index, matcher: Option<&'a Matcher>) -> TextReader<'a> {
        TextReader { index, matcher, recent: Vec::new(), taken: HashMap::new() }
    }

    /// The text of one hit's line.
    pub fn text(&mut self, hit: &Hit) -> LineText {
        let at = match self.recent.iter().position(|(p, _)| *p == hit.path) {
            Some(i) => i,
            None => {
                if self.recent.len() == RECENT_FILES {
                    self.recent.remove(0);
                }
                self.recent.push((hit.path.clone(), read(self.index, &hit.path, hit.segment, hit.slot)));
                self.recent.len() - 1
            }
        };
        let Some(file) = &mut self.recent[at].1 else {
            return LineText { text: None, line: hit.line, stale: true, gone: true };
        };
        if !file.stale {
            return LineText { text: file.line(hit.line), line: hit.line, stale: false, gone: false };
        }
        let taken = self.taken.entry(hit.path.clone()).or_default();
        match relocate(file, self.matcher, taken, hit.line) {
            Some(line) => LineText { text: file.line(line), line, stale: true, gone: false },
            None => LineText { text: None, line: hit.line, stale: true, gone: true },
        }
    }
}

/// Where a changed file holds the hit indexed at `line` now, if anywhere.
fn relocate(file: &mut FileText, matcher: Option<&Matcher>, taken: &mut Vec<u32>, line: u32) -> Option<u32> {
    file.read_all();
    let Some(matcher) = matcher else {
        // Without the query, the line cannot be checked: it is shown as it is.
        return (line as usize <= file.starts.len()).then_some(line);
    };
    if file.matching.is_none() {
        let mut lines = Vec::new();
        for_each_word(&String::from_utf8_lossy(&file.content), 1, WordSource::Code, |word, row| {
            if lines.last() != Some(&row) && matcher.matches(word) {
                lines.push(row);
            }
        });
        file.matching = Some(lines);
    }
    let matching = file.matching.as_deref().unwrap_or_default();
    let nearest = matching.iter().copied().filter(|l| !taken.contains(l)).min_by_key(|&l| (l.abs_diff(line), l))?;
    taken.push(nearest);
    Some(nearest)
}

impl FileText {
    /// A file read whole.
    fn whole(content: Vec<u8>, stale: bool) -> FileText {
        let mut text = FileText::reading(Box::new(std::io::empty()), READ_CHUNK, stale, content, Vec::new());
        text.read_all();
        text
    }

    /// A file to read from `rest` as lines are asked for.
    fn lazy(rest: Box<dyn Read + Send>, chunk: usize, stale: bool) -> FileText {
        let (content, starts) = spare_buffers();
        FileText::reading(rest, chunk, stale, content, starts)
    }

    /// `content` read already, the rest to read from `rest`; `starts` an empty
    /// buffer for the line starts.
    fn reading(
        rest: Box<dyn Read + Send>,
        chunk: usize,
        stale: bool,
        content: Vec<u8>,
        mut starts: Vec<usize>,
    ) -> FileText {
        starts.push(0);
        FileText {
            content,
            starts,
            scanned: 0,
            rest: Some(rest),
            chunk: chunk.max(1),
            max_chunk: chunk.max(1),
            left: u64::MAX,
            bom_checked: false,
            stale,
            matching: None,
            marked: None,
        }
    }

    /// An unchanged file of `size` bytes whose line marks are `marks`, read
    /// by blocks.
    fn marked(file: std::fs::File, marks: Vec<u32>, size: u64) -> FileText {
        let mut text = FileText::lazy(Box::new(std::io::empty()), 1, false);
        text.rest = None;
        text.marked = Some(Marked { file, marks, size, blocks: None });
        text
    }

    /// Makes `content` hold the blocks of lines `from..=to` (a marked file)
    /// and returns the number of its first line; `None` when they cannot be
    /// read. Blocks held already are not read again.
    fn load_span(&mut self, from: u32, to: u32) -> Option<u32> {
        use std::io::{Seek, SeekFrom};
        let m = self.marked.as_mut()?;
        let block = |n: u32| ((n.max(1) - 1) / LINES_PER_MARK).min(m.marks.len() as u32) as usize;
        let (j, last) = (block(from), block(to.max(from)));
        if !m.blocks.is_some_and(|(a, b)| a <= j && last <= b) {
            m.blocks = None;
            let start = if j == 0 { 0 } else { u64::from(m.marks[j - 1]) };
            let end = m.marks.get(last).map_or(m.size, |&e| u64::from(e));
            self.content.clear();
            self.starts.clear();
            self.starts.push(0);
            self.scanned = 0;
            let len = end.checked_sub(start)?;
            m.file.seek(SeekFrom::Start(start)).ok()?;
            self.content.reserve_exact(len as usize);
            (&mut m.file).take(len).read_to_end(&mut self.content).ok()?;
            m.blocks = Some((j, last));
            // Only the first block starts the file (and its byte-order mark).
            if j == 0 && self.content.starts_with(b"\xEF\xBB\xBF") {
                self.content.drain(..3);
            }
            self.bom_checked = true;
            self.scan();
        }
        let (first, _) = self.marked.as_ref()?.blocks?;
        Some(first as u32 * LINES_PER_MARK + 1)
    }

    /// Reads from `rest`, `size` bytes known to be left, the first chunk being
    /// `first` bytes and the next ones doubling up to `max`.
    fn growing(rest: Box<dyn Read + Send>, size: u64, first: usize, max: usize) -> FileText {
        let mut text = FileText::lazy(rest, first, false);
        text.max_chunk = max.max(text.chunk);
        text.left = size;
        text
    }

    /// Reads one more chunk (all of the rest when it ends) and finds its line
    /// ends; false once everything is read.
    fn read_more(&mut self) -> bool {
        let Some(rest) = &mut self.rest else { return false };
        let want = (self.chunk as u64).min(self.left) as usize;
        // Read into room taken once (no zeroing, no regrowing while reading).
        self.content.reserve_exact(want);
        let (ended, filled) = match rest.take(want as u64).read_to_end(&mut self.content) {
            // A shorter read than asked ends the file.
            Ok(n) => (n < want, n),
            // A read error ends the file where it is (as a shorter read would).
            Err(_) => (true, 0),
        };
        self.left = self.left.saturating_sub(filled as u64);
        self.chunk = (self.chunk * 2).min(self.max_chunk);
        // The file's known size reached ends it too (no read to find that out).
        let ended = ended || self.left == 0;
        if ended {
            self.rest = None;
        }
        // The byte-order mark, once the first three bytes are there.
        if !self.bom_checked {
            if self.content.len() < 3 && !ended {
                return true;
            }
            if self.content.starts_with(b"\xEF\xBB\xBF") {
                self.content.drain(..3);
            }
            self.bom_checked = true;
        }
        self.scan();
        true
    }

    /// Finds the line ends in the bytes not scanned yet: LFs, and CRs not
    /// followed by an LF (made LFs, as extraction counts lines).
    fn scan(&mut self) {
        let ended = self.rest.is_none();
        let len = self.content.len();
        let mut at = self.scanned;
        // Most text has no CR (or only CRLFs, which an LF ends anyway): one pass
        // for LFs (a search per line would pay its setup per line).
        if memchr::memchr(b'\r', &self.content[at..]).is_none() {
            self.starts.extend(memchr::memchr_iter(b'\n', &self.content[at..]).map(|i| at + i + 1));
            self.scanned = len;
            return;
        }
        while let Some(i) = memchr::memchr2(b'\n', b'\r', &self.content[at..]).map(|i| at + i) {
            if self.content[i] == b'\r' {
                match self.content.get(i + 1) {
                    // CRLF: the LF ends the line.
                    Some(b'\n') => {
                        at = i + 1;
                        continue;
                    }
                    Some(_) => self.content[i] = b'\n',
                    None if ended => self.content[i] = b'\n',
                    // The next byte decides: wait for it.
                    None => {
                        self.scanned = i;
                        return;
                    }
                }
            }
            self.starts.push(i + 1);
            at = i + 1;
        }
        self.scanned = len;
    }

    /// Reads until the end of line `number` is known (or the file ends).
    fn read_through(&mut self, number: usize) {
        debug_assert!(self.marked.is_none(), "a marked file is read by blocks");
        while self.starts.len() <= number && self.read_more() {}
    }

    fn read_all(&mut self) {
        debug_assert!(self.marked.is_none(), "a marked file is read by blocks");
        while self.read_more() {}
    }

    fn line(&mut self, number: u32) -> Option<String> {
        let first = match self.marked.is_some() {
            true => self.load_span(number, number)?,
            false => {
                self.read_through(number as usize);
                1
            }
        };
        let i = number.checked_sub(first)? as usize;
        let start = *self.starts.get(i)?;
        let end = self.starts.get(i + 1).map_or(self.content.len(), |e| e - 1);
        // '\n' and '\r' are never part of a multibyte sequence nor of a replaced
        // one: a line decodes as it does within its decoded file.
        let text = String::from_utf8_lossy(&self.content[start..end]);
        let text = text.trim_end_matches('\r').trim();
        let mut cut = text.len().min(MAX_LINE_TEXT);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        Some(text[..cut].to_string())
    }
}

/// The current text of the indexed file `path` (any slot of it: `segment`,
/// `slot`), and whether it changed since it was indexed. An unchanged file is
/// read as its lines are asked for: by blocks from its line marks, or from its
/// start when it has none.
fn read(index: &Index, path: &str, segment: u32, slot: u32) -> Option<FileText> {
    let seg = index.segments.get(segment as usize);
    let slot = seg.and_then(|s| s.slot(slot).ok());
    let abs = index.root.join(path);
    let file = crate::safe_fs::open_regular(&abs).ok()?;
    if !crate::safe_fs::is_under(&file, &abs, &index.root) {
        return None;
    }
    let meta = file.metadata().ok()?;
    let mtime = crate::safe_fs::mtime_ns(&meta);
    // Size and mtime as indexed: unchanged (a touched file is settled by its hash).
    let same = slot.as_ref().is_some_and(|s| meta.len() == s.meta.size && mtime == s.meta.mtime_ns);
    if same {
        let marks = seg.zip(slot.as_ref()).and_then(|(seg, slot)| seg.line_marks(slot).ok().flatten());
        if let Some(marks) = marks {
            return Some(FileText::marked(file, marks, meta.len()));
        }
        return Some(FileText::growing(Box::new(file.take(meta.len())), meta.len(), FIRST_READ, READ_CHUNK));
    }
    // A changed file is read up to the size limit (a file grown to gigabytes is
    // not read whole).
    let cap = slot.as_ref().map_or(0, |s| s.meta.size).max(DEFAULT_MAX_FILE_BYTES);
    let bytes = read_open(file, &meta, cap)?;
    let stale = match slot {
        Some(slot) => !same && xxh3_64(&bytes) != slot.meta.hash,
        None => true,
    };
    Some(FileText::whole(bytes, stale))
}

/// Reads at most `cap` bytes of a regular file under `root` (no symlink at the
/// file, no folder on its path leading out, no FIFO); `None` for anything else or
/// a file larger than `cap`. Returns the bytes and the mtime in nanoseconds.
pub fn read_regular(path: &Path, root: &Path, cap: u64) -> Option<(Vec<u8>, i64)> {
    let file = crate::safe_fs::open_regular(path).ok()?;
    if !crate::safe_fs::is_under(&file, path, root) {
        return None;
    }
    let meta = file.metadata().ok()?;
    let bytes = read_open(file, &meta, cap)?;
    Some((bytes, crate::safe_fs::mtime_ns(&meta)))
}

/// At most `cap` bytes of an open file (`meta` its metadata); `None` when it is
/// larger.
fn read_open(file: std::fs::File, meta: &std::fs::Metadata, cap: u64) -> Option<Vec<u8>> {
    if meta.len() > cap {
        return None;
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= cap).then_some(bytes)
}

/// Most lines and bytes a snippet returns.
pub const MAX_SNIPPET_LINES: u32 = 400;
pub const MAX_SNIPPET_BYTES: usize = 64 << 10;

/// Lines `start..=end` of an indexed file, as it is now.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Snippet {
    pub file: String,
    pub start: u32,
    /// The last line returned (the file's last line when `end` was past it).
    pub end: u32,
    /// The lines, each ending with a newline.
    pub text: String,
    /// Lines or bytes were left out at the size limit.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// The file changed since it was indexed (the lines are today's).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stale: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum SnippetError {
    #[error("{0:?} is not a path inside the project: give it relative to the project root, without `..`")]
    Outside(String),
    #[error("{0:?} is not an indexed file (see `cg status` for what was left out; `cg update` indexes new files)")]
    NotIndexed(String),
    #[error("{0:?} cannot be read now (removed, or no longer a regular file inside the project)")]
    Unreadable(String),
    #[error("line {start} is past the end of {file:?} ({lines} lines)")]
    PastEnd { file: String, start: u32, lines: u32 },
    #[error(transparent)]
    Snapshot(#[from] crate::snapshot::SnapshotError),
}

/// Lines `start..=end` (1-based; `end` below `start` means just `start`) of the
/// indexed file `path` (relative to the project root), at most
/// [`MAX_SNIPPET_LINES`] lines and [`MAX_SNIPPET_BYTES`] bytes. Paths leading out
/// of the project (absolute, `..`, through a symlink) are refused.
pub fn snippet(index: &Index, path: &str, start: u32, end: u32) -> Result<Snippet, SnippetError> {
    SnippetReader::new(index).snippet(path, start, end)
}

/// Reads snippets, keeping each file read (a context bundle takes many
/// definitions from one file: a large file is read once, not once each).
pub struct SnippetReader<'a> {
    index: &'a Index,
    files: HashMap<String, Option<FileText>>,
}

impl<'a> SnippetReader<'a> {
    pub fn new(index: &'a Index) -> SnippetReader<'a> {
        SnippetReader { index, files: HashMap::new() }
    }

    /// As [`snippet`].
    pub fn snippet(&mut self, path: &str, start: u32, end: u32) -> Result<Snippet, SnippetError> {
        let rel = path.trim().trim_start_matches("./");
        let p = Path::new(rel);
        if rel.is_empty() || p.is_absolute() || p.components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
            return Err(SnippetError::Outside(path.to_string()));
        }
        if !self.files.contains_key(rel) {
            let Some(file) = self.index.locate(rel)? else { return Err(SnippetError::NotIndexed(rel.to_string())) };
            // Read by blocks of lines from the line marks (a definition deep
            // in a large file reads its own lines only), all of it when it changed.
            let text = read(self.index, rel, file.segment as u32, file.slot_id);
            self.files.insert(rel.to_string(), text);
        }
        match self.files.get_mut(rel) {
            Some(Some(text)) => snippet_of(text, rel, start, end),
            _ => Err(SnippetError::Unreadable(rel.to_string())),
        }
    }
}

/// Lines `start..=end` of a file being read, as [`snippet`] returns them.
fn snippet_of(text: &mut FileText, rel: &str, start: u32, end: u32) -> Result<Snippet, SnippetError> {
    // No more lines than a snippet returns, and the line after them (whether
    // there are more).
    let to = end.max(start).min(start.saturating_add(MAX_SNIPPET_LINES - 1)).saturating_add(1);
    let first = match text.marked.is_some() {
        true => text.load_span(start, to).ok_or_else(|| SnippetError::Unreadable(rel.to_string()))?,
        false => {
            text.read_through(to as usize);
            1
        }
    };
    lines_of(text, first, rel, start, end)
}

/// Lines `start..=end` of a file whose `content` holds its lines from line
/// `first` (≤ `start`) on, through the end of the file or at least through the
/// line after the last a snippet returns.
fn lines_of(text: &FileText, first: u32, rel: &str, start: u32, end: u32) -> Result<Snippet, SnippetError> {
    // The last line held: the file's last when `content` reaches its end.
    let held = if text.content.ends_with(b"\n") { text.starts.len() - 1 } else { text.starts.len() } as u32;
    let lines = first - 1 + held;
    let start = start.max(1);
    if start > lines {
        return Err(SnippetError::PastEnd { file: rel.to_string(), start, lines });
    }
    // Where line `n` (1-based) starts in `content`; `n` is `lines + 1` at most.
    let at = |n: u32| text.starts.get((n - first) as usize).copied().unwrap_or(text.content.len());
    let wanted = end.max(start).min(lines);
    let mut last = (start + MAX_SNIPPET_LINES - 1).min(wanted);
    let mut truncated = last < wanted;
    let from = at(start);
    let mut to = at(last + 1);
    while to - from > MAX_SNIPPET_BYTES && last > start {
        last -= 1;
        to = at(last + 1);
        truncated = true;
    }
    // Lengths above are of the bytes; the body is decoded (invalid UTF-8 replaced)
    // and cut again if that made it longer.
    let mut body = String::from_utf8_lossy(&text.content[from..to]).into_owned();
    if body.len() > MAX_SNIPPET_BYTES {
        // One line longer than the limit: cut it at a character boundary.
        let mut cut = MAX_SNIPPET_BYTES;
        while !body.is_char_boundary(cut) {
            cut -= 1;
        }
        body.truncate(cut);
        truncated = true;
    }
    if !body.ends_with('\n') {
        body.push('\n');
    }
    Ok(Snippet { file: rel.to_string(), start, end: last, text: body, truncated, stale: text.stale })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Lines as they were read before a line was decoded on its own: the whole
    /// file decoded (invalid UTF-8 replaced), lone CRs as line ends.
    fn lines_decoding_the_whole_file(bytes: &[u8]) -> Vec<String> {
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let text = crate::extract::words::lone_cr_to_lf(String::from_utf8_lossy(body)).into_owned();
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        (0..starts.len())
            .map(|i| {
                let end = starts.get(i + 1).map_or(text.len(), |e| e - 1);
                let line = text[starts[i]..end].trim_end_matches('\r').trim();
                let mut cut = line.len().min(MAX_LINE_TEXT);
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                line[..cut].to_string()
            })
            .collect()
    }

    fn lines_decoding_each_line(bytes: &[u8]) -> Vec<String> {
        let mut text = FileText::whole(bytes.to_vec(), false);
        (1..=text.starts.len() as u32).map(|n| text.line(n).unwrap()).collect()
    }

    /// The lines of a file read `chunk` bytes at a time, asked for in `order`
    /// (line numbers, some past the end), then all of them.
    /// `grow`: 0 the same chunk each time; 1 doubling up to four chunks with the
    /// size known; 2 the same with a size larger than the file (it shrank).
    fn lines_reading_lazily(bytes: &[u8], chunk: usize, grow: u8, order: &[u32]) -> (Vec<Option<String>>, Vec<String>) {
        let rest = Box::new(std::io::Cursor::new(bytes.to_vec()));
        let mut text = match grow {
            0 => FileText::lazy(rest, chunk, false),
            1 => FileText::growing(rest, bytes.len() as u64, chunk, chunk * 4),
            _ => FileText::growing(rest, bytes.len() as u64 + 5, chunk, chunk * 4),
        };
        let asked = order.iter().map(|&n| text.line(n)).collect();
        text.read_all();
        let all = (1..=text.starts.len() as u32).map(|n| text.line(n).unwrap()).collect();
        (asked, all)
    }

    proptest! {
        /// Bytes from a small alphabet rich in line ends, invalid UTF-8 and the
        /// pieces of multibyte characters.
        #[test]
        fn a_line_decoded_alone_is_the_line_of_the_decoded_file(
            bytes in proptest::collection::vec(
                prop_oneof![
                    Just(b'a'), Just(b' '), Just(b'\n'), Just(b'\r'), Just(0xE9u8), Just(0xC3u8),
                    Just(0xA9u8), Just(0xEFu8), Just(0xBBu8), Just(0xBFu8), Just(0xFFu8), Just(0xE2u8), Just(0x82u8),
                ],
                0..200,
            )
        ) {
            prop_assert_eq!(lines_decoding_each_line(&bytes), lines_decoding_the_whole_file(&bytes));
        }

        /// Read a few bytes at a time, lines asked for in any order, a file gives
        /// the lines it gives read whole (CRs and BOMs split across reads).
        #[test]
        fn a_file_read_as_lines_are_asked_for_gives_the_lines_of_the_whole(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'a'), Just(b'\n'), Just(b'\r'), Just(0xEFu8), Just(0xBBu8), Just(0xBFu8), Just(0xE9u8)],
                0..120,
            ),
            chunk in 1usize..9,
            grow in 0u8..3,
            order in proptest::collection::vec(0u32..40, 0..8),
        ) {
            let whole = lines_decoding_each_line(&bytes);
            let (asked, all) = lines_reading_lazily(&bytes, chunk, grow, &order);
            let expected: Vec<Option<String>> = order
                .iter()
                .map(|&n| n.checked_sub(1).and_then(|i| whole.get(i as usize)).cloned())
                .collect();
            prop_assert_eq!(asked, expected);
            prop_assert_eq!(all, whole);
        }

        /// Read by blocks from the line marks made at indexing, lines asked for
        /// in any order (blocks read again), a file gives the lines it gives
        /// read whole: marks fall on line starts however lines end (CRLF, lone
        /// CRs, a byte-order mark, invalid UTF-8).
        #[test]
        fn a_file_read_by_its_line_marks_gives_the_lines_of_the_whole(
            bytes in proptest::collection::vec(
                prop_oneof![
                    Just(b'a'), Just(b'a'), Just(b'\n'), Just(b'\r'), Just(0xEFu8), Just(0xBBu8), Just(0xBFu8), Just(0xE9u8),
                ],
                0..1500,
            ),
            order in proptest::collection::vec(0u32..600, 0..12),
        ) {
            let whole = lines_decoding_each_line(&bytes);
            let (marks, file) = marked_file(&bytes);
            prop_assert!(marks.len() as u32 * LINES_PER_MARK < whole.len() as u32 || marks.is_empty());
            let mut text = FileText::marked(file.reopen().unwrap(), marks, bytes.len() as u64);
            for n in order.iter().copied().chain(1..=whole.len() as u32 + 1) {
                let expected = n.checked_sub(1).and_then(|i| whole.get(i as usize)).cloned();
                prop_assert_eq!(text.line(n), expected, "line {}", n);
            }
        }
    }

    /// Snippets of a file read by blocks are those of the file read whole:
    /// ranges within a block, across blocks, past the end, longer than a
    /// snippet returns, one after another from the same reader.
    #[test]
    fn snippets_read_by_blocks_are_those_of_the_whole_file() {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        for i in 0..1000u32 {
            bytes.extend_from_slice(format!("line {i}{}", ["\n", "\r\n", "\r"][i as usize % 3]).as_bytes());
        }
        bytes.extend_from_slice(b"no end");
        let (marks, file) = marked_file(&bytes);
        let mut blocks = FileText::marked(file.reopen().unwrap(), marks, bytes.len() as u64);
        let ranges = [
            (1, 1),
            (0, 3),
            (60, 70),
            (64, 65),
            (65, 64),
            (100, 700),
            (1, 2000),
            (990, 1005),
            (1001, 1001),
            (1002, 1),
            (3, 3),
            (49, 900),
            (49, 448),
        ];
        for (start, end) in ranges {
            let mut whole = FileText::whole(bytes.clone(), false);
            let want = snippet_of(&mut whole, "f", start, end).map_err(|e| e.to_string());
            let got = snippet_of(&mut blocks, "f", start, end).map_err(|e| e.to_string());
            assert_eq!(got, want, "lines {start}..={end}");
        }
    }

    /// The line marks of `bytes` as indexing makes them (its line count as
    /// extraction counts it), and the bytes in a temporary file.
    fn marked_file(bytes: &[u8]) -> (Vec<u32>, tempfile::NamedTempFile) {
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let text = crate::extract::words::lone_cr_to_lf(String::from_utf8_lossy(body)).into_owned();
        let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
        let lines = if text.is_empty() || text.ends_with('\n') { newlines } else { newlines + 1 };
        let marks = crate::snapshot::line_marks(bytes, lines as u32);
        assert_eq!(marks.len(), crate::snapshot::line_mark_count(lines as u32));
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut file, bytes).unwrap();
        (marks, file)
    }

    /// Marks are where lines 65, 129, ... start, with CRLF, lone CRs and a
    /// byte-order mark counted as extraction counts them.
    #[test]
    fn line_marks_are_where_every_64th_line_starts() {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        let mut starts = vec![0usize];
        for i in 0..200 {
            bytes.extend_from_slice(match i % 3 {
                0 => &b"ab\r\n"[..],
                1 => b"c\r",
                _ => b"d\n",
            });
            starts.push(bytes.len());
        }
        let (marks, _) = marked_file(&bytes);
        let expected: Vec<u32> = [64, 128, 192].iter().map(|&l| starts[l] as u32).collect();
        assert_eq!(marks, expected);
    }

    /// Regression: a file of fewer than three bytes whose known size was read
    /// in full ended without its line ends found (the wait for a byte-order
    /// mark's third byte took only a short read as the end): "\n" gave one line.
    #[test]
    fn a_file_shorter_than_a_byte_order_mark_read_to_its_known_size_keeps_its_lines() {
        for bytes in [&b"\n"[..], b"a", b"\r\n", b"ab"] {
            let whole = lines_decoding_each_line(bytes);
            for chunk in 1..4 {
                assert_eq!(lines_reading_lazily(bytes, chunk, 1, &[1, 2]).1, whole, "{bytes:?}, chunk {chunk}");
            }
        }
    }

    #[test]
    fn long_lines_are_cut_at_a_character_boundary_after_decoding() {
        let mut bytes = vec![b'x'; MAX_LINE_TEXT - 1];
        bytes.extend_from_slice(&[0xFF, b'y', b'\n']);
        let lines = lines_decoding_each_line(&bytes);
        assert_eq!(lines, lines_decoding_the_whole_file(&bytes));
        assert_eq!(lines[0].len(), MAX_LINE_TEXT - 1, "the replacement character does not fit whole");
    }
}

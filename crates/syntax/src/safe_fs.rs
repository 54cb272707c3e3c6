//! Opening files that another process (or an agent) may have replaced: never
//! through a symlink at the last component, never blocking on a FIFO or a device,
//! only regular files. Used for segments and for line text read at query time,
//! and for every file cg reads, creates or replaces in `.codegraph/` and the
//! model store (a cloned project may carry a `.codegraph/` of someone else's).

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// Opens `path` for reading if it is a regular file. A symlink (at the last
/// component), a FIFO, a socket or a device is refused with `InvalidInput`,
/// without blocking.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            io::Error::new(io::ErrorKind::InvalidInput, "a symlink, not a regular file")
        } else {
            e
        }
    })?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
    }
    Ok(file)
}

/// Reads the regular file `path` whole (through [`open_regular`]), refusing one
/// longer than `cap` bytes: a symlink, a FIFO or a file of gigabytes planted in
/// `.codegraph/` is an error, never followed, waited on or read into memory.
pub fn read_regular(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let file = open_regular(path)?;
    let mut out = Vec::new();
    file.take(cap.saturating_add(1)).read_to_end(&mut out)?;
    if out.len() as u64 > cap {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("larger than {cap} bytes")));
    }
    Ok(out)
}

/// Reads `path` (symlinks followed) if it is a regular file that lies under
/// `root` once they are resolved, at most `cap` bytes; `None` otherwise (a
/// CLAUDE.md linked to AGENTS.md is read, one linked to a file outside the
/// project or to a FIFO is not).
pub fn read_inside(path: &Path, root: &Path, cap: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let file = open_following(path).ok()?;
    if !is_under(&file, path, root) {
        return None;
    }
    let mut out = Vec::new();
    file.take(cap).read_to_end(&mut out).ok()?;
    Some(out)
}

/// Opens `path` for reading, symlinks followed (a path someone chose), if it
/// leads to a regular file; a FIFO, socket or device is refused without
/// blocking.
pub fn open_following(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
    }
    Ok(file)
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_text(path: &Path, cap: u64) -> io::Result<String> {
    String::from_utf8(read_regular(path, cap)?).map_err(|e| {
        io::Error::new(io::ErrorKind::InvalidData, format!("not UTF-8 at byte {}", e.utf8_error().valid_up_to()))
    })
}

/// Creates `path` as a new, empty regular file for writing. Whatever is there
/// first (a stale temp file, or a symlink or FIFO someone planted) is unlinked,
/// never followed; the file is then created exclusively and without following a
/// symlink, so one planted between the two steps makes this fail rather than
/// write through it. Used for every temp file cg renames into place.
pub fn create_new(path: &Path) -> io::Result<File> {
    // Unlinking never follows a symlink; a folder cannot be unlinked and is
    // refused by the exclusive create below.
    let _ = std::fs::remove_file(path);
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW).mode(0o644);
    }
    options.open(path).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                "something that is not a regular file is in the way; remove it",
            )
        } else {
            e
        }
    })
}

/// Writes `bytes` to a new file at `path` ([`create_new`]) and syncs it: the
/// first half of replacing a file by a rename.
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut f = create_new(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Opens (creating it if missing, never truncating) the regular file `path` for
/// writing, as lock files are. A symlink there is unlinked and the file created
/// in its place; a FIFO, socket, device or folder is refused without blocking.
pub fn open_or_create(path: &Path) -> io::Result<File> {
    let open = || {
        let mut options = OpenOptions::new();
        options.write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).mode(0o644);
        }
        options.open(path)
    };
    let file = match open() {
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            std::fs::remove_file(path)?;
            open()?
        }
        other => other?,
    };
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
    }
    Ok(file)
}

/// Makes sure `dir` is a real folder (creating it, not its parents, when
/// missing): a symlink in its place is refused, so that nothing cg writes
/// "inside" it lands elsewhere.
pub fn ensure_dir(dir: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(m) if m.file_type().is_symlink() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a symlink, not a folder; cg writes only into a folder of its own: remove the link",
        )),
        Ok(_) => Err(io::Error::new(io::ErrorKind::InvalidInput, "not a folder; remove it")),
        Err(e) if e.kind() == io::ErrorKind::NotFound => match std::fs::create_dir(dir) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => ensure_dir(dir),
            other => other,
        },
        Err(e) => Err(e),
    }
}

/// A file's modification time in nanoseconds since the epoch (0 when unknown), as
/// the index records it.
pub fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos().min(i64::MAX as u128) as i64)
}

/// Whether an open file lies under `root` once every symlink on its path is
/// resolved (a folder of the project replaced by a symlink to `/etc` does not).
/// Linux asks the kernel for the open file's path (one call); elsewhere the path
/// is canonicalized.
pub fn is_under(file: &File, path: &Path, root: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(real) = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())) {
            return real.starts_with(root);
        }
    }
    let _ = file;
    std::fs::canonicalize(path).is_ok_and(|real| real.starts_with(root))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_open_and_nothing_blocks() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "x").unwrap();
        assert!(open_regular(&file).is_ok());
        std::os::unix::fs::symlink(&file, dir.path().join("link")).unwrap();
        assert_eq!(open_regular(&dir.path().join("link")).unwrap_err().kind(), io::ErrorKind::InvalidInput);
        let fifo = dir.path().join("fifo");
        let status = std::process::Command::new("mkfifo").arg(&fifo).status();
        if status.is_ok_and(|s| s.success()) {
            assert_eq!(open_regular(&fifo).unwrap_err().kind(), io::ErrorKind::InvalidInput);
        }
        assert!(open_regular(dir.path()).is_err());
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let f = open_regular(&file).unwrap();
        assert!(is_under(&f, &file, &root));
        assert!(!is_under(&f, &file, &root.join("sub")));
    }
}

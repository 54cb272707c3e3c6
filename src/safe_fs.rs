//! Opening files that another process (or an agent) may have replaced: never
//! through a symlink at the last component, never blocking on a FIFO or a device,
//! only regular files. Used for segments and for line text read at query time.

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

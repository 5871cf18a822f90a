#![forbid(unsafe_code)]
//! The files a user names, opened in one way: each must be a regular file, checked on the open
//! handle before a byte is read or written, so that a device, a FIFO, a folder or a socket is
//! refused at once and never read (or waited on) without end; a file read is read to a bound,
//! checked before reading and while reading, so that one that grows is refused too. The one
//! opener of user-named files: rule files, records, SGF, batches and tables (through
//! `check::load::read_limited`, which words its refusals as diagnostics), edge lists, the
//! results files of `go classes`, the files `okite rules export` writes and the REPL's history.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;

/// Why a file was not read or written.
#[derive(Debug)]
pub enum ReadError {
    /// The system's error (no such file, no permission, ...).
    Io(std::io::Error),
    /// A folder, a device, a FIFO or a socket.
    NotRegular,
    /// More than the bytes allowed, found before reading or while reading.
    TooBig,
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::NotRegular => f.write_str("not a regular file"),
            ReadError::TooBig => f.write_str("larger than allowed"),
        }
    }
}

/// Opens `path` as `open` says, without waiting (the open of a FIFO would block until its
/// other end came) and, with `no_link`, without following a symbolic link at it; the handle is
/// then checked to be a regular file ([`ReadError::NotRegular`] when it is a FIFO, a device, a
/// folder or a socket). Nothing is truncated by the open: a writer empties the file once it is
/// known to be regular ([`write_regular`]).
pub fn open_regular(path: &Path, open: &mut OpenOptions, no_link: bool) -> Result<File, ReadError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let link = if no_link { libc::O_NOFOLLOW } else { 0 };
        open.custom_flags(link | libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    let _ = no_link;
    let file = match open.open(path) {
        Ok(f) => f,
        // a folder opened for writing answers EISDIR: it is no regular file either
        Err(_) if path.is_dir() => return Err(ReadError::NotRegular),
        // a FIFO nobody reads, opened for writing without waiting, answers ENXIO
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => return Err(ReadError::NotRegular),
        Err(e) => return Err(ReadError::Io(e)),
    };
    if !file.metadata()?.is_file() {
        return Err(ReadError::NotRegular);
    }
    Ok(file)
}

/// The bytes of the regular file `path`, at most `limit` of them.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let f = open_regular(path, OpenOptions::new().read(true), false)?;
    let len = f.metadata()?.len();
    if len > limit {
        return Err(ReadError::TooBig);
    }
    let mut buf = Vec::with_capacity(len as usize);
    f.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(ReadError::TooBig);
    }
    Ok(buf)
}

/// Whether `path` names nothing, or a regular file (a link is followed): what a file that will
/// be written or read by a library that opens it itself (the line editor's history) must be.
pub fn absent_or_regular(path: &Path) -> bool {
    match std::fs::metadata(path) {
        Ok(m) => m.is_file(),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound && path.symlink_metadata().is_err(),
    }
}

/// Writes `bytes` to `path`, made if missing: a file already there must be a regular one,
/// and is emptied only once it is known to be.
pub fn write_regular(path: &Path, bytes: &[u8]) -> Result<(), ReadError> {
    let mut f = open_regular(
        path,
        OpenOptions::new().write(true).create(true).truncate(false),
        false,
    )?;
    f.set_len(0)?;
    f.write_all(bytes)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_within_the_limit_only() {
        let dir = std::env::temp_dir().join(format!("okite-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        std::fs::write(&f, "12345").unwrap();
        assert_eq!(read_regular(&f, 5).unwrap(), b"12345");
        assert!(matches!(read_regular(&f, 4), Err(ReadError::TooBig)));
        assert!(matches!(read_regular(&dir, 5), Err(ReadError::NotRegular)));
        assert!(matches!(
            read_regular(&dir.join("none"), 5),
            Err(ReadError::Io(_))
        ));
        #[cfg(unix)]
        assert!(matches!(
            read_regular(Path::new("/dev/zero"), 5),
            Err(ReadError::NotRegular)
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A FIFO nobody writes or reads is refused at once, for reading and for writing, and so
    /// is a folder; a regular file is written over only once it is known to be one.
    #[cfg(unix)]
    #[test]
    fn fifos_and_folders_are_refused_without_waiting() {
        let dir = std::env::temp_dir().join(format!("okite-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("f");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(matches!(read_regular(&fifo, 5), Err(ReadError::NotRegular)));
            assert!(matches!(
                write_regular(&fifo, b"x"),
                Err(ReadError::NotRegular)
            ));
            assert!(!absent_or_regular(&fifo));
        }
        assert!(matches!(
            write_regular(&dir, b"x"),
            Err(ReadError::NotRegular)
        ));
        assert!(matches!(
            write_regular(Path::new("/dev/null"), b"x"),
            Err(ReadError::NotRegular)
        ));
        let f = dir.join("w.txt");
        assert!(absent_or_regular(&f));
        write_regular(&f, b"long text").unwrap();
        write_regular(&f, b"short").unwrap();
        assert_eq!(read_regular(&f, 100).unwrap(), b"short");
        assert!(absent_or_regular(&f));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#![forbid(unsafe_code)]
//! Reading a file a user names: a regular file of at most a given size, checked before and
//! while reading, so that a device, a FIFO, a folder or a file that grows is refused and never
//! read without end. The one opener of user-named files for reading: rule files, records, SGF,
//! batches and tables (through `check::load::read_limited`, which words its refusals as
//! diagnostics), edge lists, and the files `okite rules export` would overwrite.

use std::io::Read;
use std::path::Path;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The system's error (no such file, no permission, ...).
    Io(std::io::Error),
    /// A folder, a device, a FIFO or a socket.
    NotRegular,
    /// More than the bytes allowed, found before reading or while reading.
    TooBig,
}

/// The bytes of the regular file `path`, at most `limit` of them.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > limit {
        return Err(ReadError::TooBig);
    }
    let f = std::fs::File::open(path).map_err(ReadError::Io)?;
    let mut buf = Vec::with_capacity(meta.len() as usize);
    f.take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(ReadError::Io)?;
    if buf.len() as u64 > limit {
        return Err(ReadError::TooBig);
    }
    Ok(buf)
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
}

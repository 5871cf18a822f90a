//! The results of the proof-number search kept in a file, so that a long classification can be
//! split over several runs (the questions one run answers are read by the next), or resumed
//! after a stop.
//!
//! What is kept: the resolved results alone, each with the boards it asked about and the answers
//! its sequence gave them (see [`super::Tested`]). Such a result is exact for every sequence that
//! answers those boards alike, whichever run found it, so a result read from a file serves as one
//! found in the run. The proof and disproof numbers of open sequences only steer the search and
//! are not kept.
//!
//! A file is bound to its graph (the vertices and their neighbours) and to the table; a file of
//! another graph or table is refused. A checksum over the whole file refuses a file damaged or
//! cut short: it guards against damage, not against forgery (a results file is trusted as the
//! program's own). A file is written beside its place and renamed over it, so that a stop while
//! it is written leaves the file before.
//!
//! The format (integers little-endian): the magic line, the version, n, the n neighbour masks,
//! the table; the general results (each key with its groups: the asked words, then each result's
//! held boards and value); the particular results (key, set key, value); an FNV-1a checksum of
//! every byte before it.

use super::{Classifier, Group, Table, TrackKey, TrackedMemo};
use crate::go::error::{GoError, GoResult};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::rc::Rc;

const MAGIC: &[u8] = b"okite outcome-class results\n";
const VERSION: u32 = 1;

/// The asked boards `asked` (sorted) as the file keeps them: the nonzero words of a bit set
/// over the boards' base-3 indices, (word index, bits), sorted by word index.
fn words_of(asked: &[u32]) -> Vec<(u32, u64)> {
    let mut words: Vec<(u32, u64)> = Vec::new();
    for &i in asked {
        let (w, bit) = (i / 64, 1u64 << (i % 64));
        match words.last_mut() {
            Some((last, bits)) if *last == w => *bits |= bit,
            _ => words.push((w, bit)),
        }
    }
    words
}

/// FNV-1a over bytes, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A writer that sums what it writes.
struct Out<W: Write> {
    w: W,
    sum: Fnv,
}

impl<W: Write> Out<W> {
    fn bytes(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.sum.add(b);
        self.w.write_all(b)
    }
    fn u8(&mut self, x: u8) -> std::io::Result<()> {
        self.bytes(&[x])
    }
    fn u32(&mut self, x: u32) -> std::io::Result<()> {
        self.bytes(&x.to_le_bytes())
    }
    fn u64(&mut self, x: u64) -> std::io::Result<()> {
        self.bytes(&x.to_le_bytes())
    }
    fn key(&mut self, k: &TrackKey) -> std::io::Result<()> {
        self.u64(k.0 .0)?;
        self.u64(k.0 .1)?;
        self.u8(k.1)?;
        self.u8(k.2)
    }
}

/// A reader that sums what it reads and knows how many bytes are left, so that no count read
/// from the file makes room for more than the file can hold.
struct In<R: Read> {
    r: R,
    sum: Fnv,
    left: u64,
}

fn damaged(what: &str) -> GoError {
    GoError::file(
        format!("the results file is damaged or not a results file: {what}"),
        "give a file written by `okite go classes --results`, or a new name to start one",
    )
}

impl<R: Read> In<R> {
    fn bytes(&mut self, buf: &mut [u8]) -> GoResult<()> {
        if (buf.len() as u64) > self.left {
            return Err(damaged("it ends too soon"));
        }
        self.r
            .read_exact(buf)
            .map_err(|e| damaged(&format!("it cannot be read ({e})")))?;
        self.left -= buf.len() as u64;
        self.sum.add(buf);
        Ok(())
    }
    fn u8(&mut self) -> GoResult<u8> {
        let mut b = [0u8; 1];
        self.bytes(&mut b)?;
        Ok(b[0])
    }
    fn u32(&mut self) -> GoResult<u32> {
        let mut b = [0u8; 4];
        self.bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn u64(&mut self) -> GoResult<u64> {
        let mut b = [0u8; 8];
        self.bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    /// A result's value: 0 false, 1 true.
    fn value(&mut self) -> GoResult<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(damaged("a result is neither true nor false")),
        }
    }
    /// A count of items of at least `each` bytes, which the rest of the file can hold.
    fn count(&mut self, each: u64) -> GoResult<usize> {
        let c = self.u64()?;
        if c.saturating_mul(each) > self.left {
            return Err(damaged("a count passes the size of the file"));
        }
        Ok(c as usize)
    }
}

fn table_tag(t: Table) -> u8 {
    match t {
        Table::Reconstruction => 0,
        Table::Cautious => 1,
        Table::Chooser => 2,
    }
}

fn io_error(path: &Path, e: std::io::Error) -> GoError {
    GoError::file(
        format!("the results file {} cannot be written: {e}", path.display()),
        "give a place where a file can be written",
    )
}

/// `path` with `suffix` added to its name.
fn beside(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    std::path::PathBuf::from(name)
}

/// Opens `path` as `open` says through the one opener of user-named files: `None` when it is
/// no regular file (a FIFO, a device, a folder).
fn open_regular(
    path: &Path,
    open: &mut std::fs::OpenOptions,
    no_link: bool,
) -> std::io::Result<Option<std::fs::File>> {
    use crate::files::ReadError;
    match crate::files::open_regular(path, open, no_link) {
        Ok(f) => Ok(Some(f)),
        Err(ReadError::NotRegular) => Ok(None),
        Err(ReadError::Io(e)) => Err(e),
        Err(ReadError::TooBig) => Ok(None),
    }
}

/// Takes the lock of the results file `path` for this process: a file beside it
/// (`path.lock`, left in place) locked while the returned handle lives. A second process that
/// would keep its results in the same file is refused at its start, before its search, instead
/// of the two writing over each other's. The lock file is opened without following a symbolic
/// link and must be a regular file.
pub(super) fn lock_results(path: &Path) -> GoResult<std::fs::File> {
    let lock = beside(path, ".lock");
    let mut open = std::fs::OpenOptions::new();
    open.read(true).write(true).create(true).truncate(false);
    let file = open_regular(&lock, &mut open, true).map_err(|e| {
        GoError::file(
            format!(
                "the lock of the results file, {}, cannot be had: {e}",
                lock.display()
            ),
            "give a place where a file can be written (the lock is a regular file, not a link)",
        )
    })?;
    let Some(file) = file else {
        return Err(GoError::file(
            format!(
                "the lock of the results file, {}, is not a regular file",
                lock.display()
            ),
            "remove it, or give another results file",
        ));
    };
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(GoError::file(
            format!(
                "another process keeps its results in {} (it holds {})",
                path.display(),
                lock.display()
            ),
            "wait for it to end, or give another results file; --read-results reads a file another process writes",
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(GoError::file(
            format!("the lock of the results file, {}, cannot be had: {e}", lock.display()),
            "give a place where files can be locked",
        )),
    }
}

impl Classifier {
    /// Writes the resolved results of the proof-number search to `path` (beside it first, then
    /// renamed over it); returns how many were written. The file beside it is made anew (a
    /// file or a link left there by a run that was killed is removed, never followed).
    pub fn save_results(&self, path: &Path) -> GoResult<usize> {
        let part = beside(path, ".part");
        if part.symlink_metadata().is_ok() {
            std::fs::remove_file(&part).map_err(|e| io_error(&part, e))?;
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&part)
            .map_err(|e| io_error(&part, e))?;
        let mut out = Out {
            w: BufWriter::with_capacity(1 << 20, file),
            sum: Fnv::new(),
        };
        let n = self
            .write_results(&mut out)
            .map_err(|e| io_error(&part, e))?;
        let sum = out.sum.0;
        out.w
            .write_all(&sum.to_le_bytes())
            .and_then(|_| out.w.flush())
            .map_err(|e| io_error(&part, e))?;
        let file = out
            .w
            .into_inner()
            .map_err(|e| io_error(&part, e.into_error()))?;
        file.sync_all().map_err(|e| io_error(&part, e))?;
        std::fs::rename(&part, path).map_err(|e| io_error(path, e))?;
        Ok(n)
    }

    fn write_results<W: Write>(&self, out: &mut Out<W>) -> std::io::Result<usize> {
        out.bytes(MAGIC)?;
        out.u32(VERSION)?;
        out.u32(self.sg.n as u32)?;
        for &a in &self.sg.adj {
            out.u64(a)?;
        }
        out.u8(table_tag(self.table))?;
        let memo: &TrackedMemo<bool> = &self.pn.exact;
        let mut written = 0;
        out.u64(memo.general.len() as u64)?;
        for (key, groups) in &memo.general {
            out.key(key)?;
            out.u64(groups.len() as u64)?;
            for g in groups {
                let words = words_of(&g.asked);
                out.u64(words.len() as u64)?;
                for (w, bits) in words {
                    out.u32(w)?;
                    out.u64(bits)?;
                }
                out.u64(g.known.len() as u64)?;
                for (held, value) in &g.known {
                    out.u64(held.len() as u64)?;
                    for &i in held.iter() {
                        out.u32(i)?;
                    }
                    out.u8(*value as u8)?;
                    written += 1;
                }
            }
        }
        out.u64(memo.particular.len() as u64)?;
        for (&(key, k1, k2), &value) in &memo.particular {
            out.key(&key)?;
            out.u64(k1)?;
            out.u64(k2)?;
            out.u8(value as u8)?;
            written += 1;
        }
        Ok(written)
    }

    /// Reads the results kept in `path` (by this graph and table) into the tables of the
    /// proof-number search; returns how many were read. A file of another graph or table, or
    /// damaged, or larger than the memory the classifier may occupy, is refused whole.
    pub fn load_results(&mut self, path: &Path) -> GoResult<usize> {
        let refuse = |e: std::io::Error| {
            GoError::file(
                format!("the results file {} cannot be read: {e}", path.display()),
                "give a file written by `okite go classes --results`",
            )
        };
        let file = open_regular(path, std::fs::OpenOptions::new().read(true), false)
            .map_err(refuse)?
            .ok_or_else(|| {
                GoError::file(
                    format!("the results file {} is not a regular file", path.display()),
                    "give a file written by `okite go classes --results`",
                )
            })?;
        let size = file.metadata().map_err(refuse)?.len();
        if let Some(max) = self.max_resident_bytes {
            if size > max as u64 {
                return Err(GoError::out_of_memory(
                    format!(
                        "the results file {} holds {} MiB, more than the classification may occupy ({} MiB)",
                        path.display(),
                        size >> 20,
                        max >> 20
                    ),
                    "raise --max-resident-mb",
                ));
            }
        }
        if size < 8 {
            return Err(damaged("it is too short"));
        }
        let mut input = In {
            r: BufReader::with_capacity(1 << 20, file),
            sum: Fnv::new(),
            left: size - 8,
        };
        let (general, particular) = self.read_results(&mut input)?;
        if input.left != 0 {
            return Err(damaged("it goes on past its results"));
        }
        let mut tail = [0u8; 8];
        input
            .r
            .read_exact(&mut tail)
            .map_err(|_| damaged("its checksum is missing"))?;
        if u64::from_le_bytes(tail) != input.sum.0 {
            return Err(damaged("its checksum does not match"));
        }
        Ok(self.merge_results(general, particular))
    }

    #[allow(clippy::type_complexity)]
    fn read_results<R: Read>(
        &self,
        input: &mut In<R>,
    ) -> GoResult<(
        Vec<(TrackKey, Vec<Group<bool>>)>,
        Vec<((TrackKey, u64, u64), bool)>,
    )> {
        let mut magic = vec![0u8; MAGIC.len()];
        input.bytes(&mut magic)?;
        if magic != MAGIC {
            return Err(damaged("it does not begin as one"));
        }
        let version = input.u32()?;
        if version != VERSION {
            return Err(GoError::file(
                format!(
                    "the results file has version {version}; this okite reads version {VERSION}"
                ),
                "give a file written by this okite, or a new name to start one",
            ));
        }
        let n = input.u32()? as usize;
        let mut adj = Vec::with_capacity(n.min(64));
        for _ in 0..n.min(65) {
            adj.push(input.u64()?);
        }
        let tag = input.u8()?;
        if n != self.sg.n || adj != self.sg.adj {
            return Err(GoError::file(
                "the results file was written for another graph",
                "give the file of this graph, or a new name to start one",
            ));
        }
        if tag != table_tag(self.table) {
            return Err(GoError::file(
                "the results file was written under another table of classes (another reading)",
                "give the file of this reading, or a new name to start one",
            ));
        }
        let boards = 3u64.pow(n as u32);
        let words = boards.div_ceil(64) as u32;
        let full = self.sg.full;
        let key = |input: &mut In<R>| -> GoResult<TrackKey> {
            let (b, w) = (input.u64()?, input.u64()?);
            let (v, c) = (input.u8()?, input.u8()?);
            if b & w != 0 || (b | w) & !full != 0 || v as usize >= n || c > 1 {
                return Err(damaged(
                    "a result's key is no board, vertex and colour of the graph",
                ));
            }
            Ok(((b, w), v, c))
        };
        let mut general = Vec::new();
        let mut decoded = 0usize;
        for _ in 0..input.count(18 + 8)? {
            let k = key(input)?;
            let mut groups = Vec::new();
            for _ in 0..input.count(16)? {
                let mut asked: Vec<u32> = Vec::new();
                let mut last = None;
                for _ in 0..input.count(12)? {
                    let (w, bits) = (input.u32()?, input.u64()?);
                    if w >= words || last.is_some_and(|p| p >= w) || bits == 0 {
                        return Err(damaged("a result's asked boards are out of order"));
                    }
                    last = Some(w);
                    let mut x = bits;
                    while x != 0 {
                        asked.push(w * 64 + x.trailing_zeros());
                        x &= x - 1;
                    }
                }
                if asked.last().is_some_and(|&i| i as u64 >= boards) {
                    return Err(damaged(
                        "a result's asked boards are no boards of the graph",
                    ));
                }
                // A word of the file (12 bytes) holds up to 64 boards (256 bytes as indices):
                // what the boards take is counted against the bound, not only the file's size.
                decoded += asked.len() * 4;
                if self.max_resident_bytes.is_some_and(|max| decoded > max) {
                    return Err(GoError::out_of_memory(
                        "the asked boards of the results file take more than the classification may occupy",
                        "raise --max-resident-mb",
                    ));
                }
                let mut g = Group::new(Rc::from(asked));
                for _ in 0..input.count(9)? {
                    let mut held: Vec<u32> = Vec::new();
                    for _ in 0..input.count(4)? {
                        let i = input.u32()?;
                        if held.last().is_some_and(|&p| p >= i) || !g.asks(i) {
                            return Err(damaged(
                                "a result's held boards are not among its asked ones",
                            ));
                        }
                        held.push(i);
                    }
                    let value = input.value()?;
                    g.known.push((held.into_boxed_slice(), value));
                }
                groups.push(g);
            }
            general.push((k, groups));
        }
        let mut particular = Vec::new();
        for _ in 0..input.count(18 + 16 + 1)? {
            let k = key(input)?;
            let (k1, k2) = (input.u64()?, input.u64()?);
            let value = input.value()?;
            particular.push(((k, k1, k2), value));
        }
        Ok((general, particular))
    }

    /// Adds results read from a file to the tables; returns how many.
    fn merge_results(
        &mut self,
        general: Vec<(TrackKey, Vec<Group<bool>>)>,
        particular: Vec<((TrackKey, u64, u64), bool)>,
    ) -> usize {
        let mut added = 0;
        let memo = &mut self.pn.exact;
        for (k, groups) in general {
            for mut g in groups {
                let list = memo.general.entry(k).or_default();
                match list.iter_mut().find(|h| h.asked[..] == g.asked[..]) {
                    Some(h) => {
                        for (held, value) in g.known {
                            if !h.known.iter().any(|e| e.0 == held) {
                                h.known.push((held, value));
                                added += 1;
                            }
                        }
                    }
                    None => {
                        added += g.known.len();
                        g.asked = memo.intern(g.asked);
                        memo.general.entry(k).or_default().push(g);
                    }
                }
            }
        }
        for (k, value) in particular {
            added += memo.particular.insert(k, value).is_none() as usize;
        }
        added
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::{splitmix64, Board, Color};
    use crate::go::graph::Graph;
    use crate::go::life::{sequence_from_moves, Class};

    #[test]
    fn asked_boards_are_kept_as_the_words_of_a_bit_set() {
        assert_eq!(words_of(&[]), vec![]);
        assert_eq!(
            words_of(&[1, 5, 64, 200, 255]),
            vec![(0, 1 << 1 | 1 << 5), (1, 1), (3, 1 << 8 | 1 << 63)]
        );
    }

    fn file(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("okite-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    /// Random regular sequences of `g` from the empty board.
    fn sequences(g: &Graph, count: usize, seed: u64) -> Vec<Vec<Board>> {
        let mut s = seed;
        (0..count)
            .map(|_| {
                let mut seq = vec![Board::empty()];
                let len = splitmix64(&mut s) % 7;
                for _ in 0..len {
                    let b = *seq.last().unwrap();
                    let next: Vec<Board> = (0..g.n)
                        .flat_map(|v| [Color::Black, Color::White].map(|c| (v, c)))
                        .filter_map(|(v, c)| b.play(g, v, c, false).ok().map(|x| x.0))
                        .filter(|nb| !seq.contains(nb))
                        .collect();
                    if next.is_empty() {
                        break;
                    }
                    seq.push(next[(splitmix64(&mut s) % next.len() as u64) as usize]);
                }
                seq
            })
            .collect()
    }

    /// Results read from a file serve as the results found in the run: a question answered
    /// before is answered without a visit, and the classes of other sequences are those a
    /// fresh classifier finds (the results read are exact for the histories they describe).
    #[test]
    fn results_read_serve_as_results_found() {
        let g = Graph::parse("path:6").unwrap();
        let path = file("path6.res");
        let mut first = Classifier::new(&g, Table::Reconstruction).unwrap();
        let seen = sequences(&g, 60, 1);
        let mut before = vec![];
        for seq in &seen {
            before.push(first.classes(seq).unwrap());
        }
        let kept = first.save_results(&path).unwrap();
        assert!(kept > 100, "{kept} results");
        let mut second = Classifier::new(&g, Table::Reconstruction).unwrap();
        assert_eq!(second.load_results(&path).unwrap(), kept);
        // the same questions: answered from the file alone
        for (seq, ks) in seen.iter().zip(&before) {
            assert_eq!(&second.classes(seq).unwrap(), ks);
        }
        assert_eq!(
            second.stats.nodes, 0,
            "the questions answered before were searched again"
        );
        // other sequences: as a fresh classifier classifies them
        for seq in sequences(&g, 80, 2) {
            let mut fresh = Classifier::new(&g, Table::Reconstruction).unwrap();
            assert_eq!(second.classes(&seq).unwrap(), fresh.classes(&seq).unwrap());
        }
        // reading a file twice adds nothing
        assert_eq!(second.load_results(&path).unwrap(), 0);
        let _ = std::fs::remove_file(&path);
    }

    /// A file of another graph or table, damaged, cut short, no results file at all, or larger
    /// than the memory the classifier may occupy, is refused whole: nothing is read from it.
    #[test]
    fn a_file_that_does_not_fit_is_refused_whole() {
        let g = Graph::parse("path:5").unwrap();
        let path = file("path5.res");
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        let seq = sequence_from_moves(&g, "B 2").unwrap();
        assert_eq!(cl.class_of(&seq, 0).unwrap(), Class::B);
        let kept = cl.save_results(&path).unwrap();
        assert!(kept > 0);
        let bytes = std::fs::read(&path).unwrap();
        let refused = |cl: &mut Classifier, bytes: &[u8], needle: &str| {
            let p = file("bad.res");
            std::fs::write(&p, bytes).unwrap();
            let e = cl.load_results(&p).expect_err("refused");
            assert!(e.message.contains(needle), "{}", e.message);
            assert_eq!(cl.pn.exact.len(), 0, "a refused file added results");
        };
        let mut other =
            Classifier::new(&Graph::parse("cycle:5").unwrap(), Table::Reconstruction).unwrap();
        refused(&mut other, &bytes, "another graph");
        let mut chooser = Classifier::new(&g, Table::Chooser).unwrap();
        refused(&mut chooser, &bytes, "another table");
        let mut fresh = Classifier::new(&g, Table::Reconstruction).unwrap();
        for at in [
            MAGIC.len() + 2,
            bytes.len() / 2,
            bytes.len() - 20,
            bytes.len() - 1,
        ] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x20;
            let e = {
                let p = file("bad.res");
                std::fs::write(&p, &damaged).unwrap();
                fresh.load_results(&p).expect_err("refused")
            };
            assert!(
                ["damaged", "another", "version"]
                    .iter()
                    .any(|w| e.message.contains(w)),
                "byte {at}: {}",
                e.message
            );
            assert_eq!(fresh.pn.exact.len(), 0);
        }
        refused(&mut fresh, &bytes[..bytes.len() - 3], "damaged");
        refused(&mut fresh, &bytes[..bytes.len() / 2], "damaged");
        refused(&mut fresh, b"def f = 1\n", "damaged");
        refused(&mut fresh, b"", "damaged");
        // a count that promises more than the file holds is refused before it is believed
        let mut huge = bytes.clone();
        let at = MAGIC.len() + 4 + 4 + 5 * 8 + 1;
        huge[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        refused(&mut fresh, &huge, "damaged");
        fresh.set_max_resident_bytes(Some(bytes.len() - 1));
        refused(
            &mut fresh,
            &bytes,
            "more than the classification may occupy",
        );
        fresh.set_max_resident_bytes(None);
        assert_eq!(fresh.load_results(&path).unwrap(), kept);
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(file("bad.res"));
    }

    /// A file whose asked boards, dense, take more as indices than the bound lets the
    /// classification occupy is refused, although the file itself is smaller than the bound.
    #[test]
    fn dense_asked_boards_are_counted_against_the_bound() {
        let g = Graph::parse("path:8").unwrap();
        let cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        let mut out = Out {
            w: Vec::new(),
            sum: Fnv::new(),
        };
        out.bytes(MAGIC).unwrap();
        out.u32(VERSION).unwrap();
        out.u32(8).unwrap();
        for &a in &cl.sg.adj {
            out.u64(a).unwrap();
        }
        out.u8(table_tag(Table::Reconstruction)).unwrap();
        out.u64(1).unwrap();
        out.key(&((1, 0), 0, 0)).unwrap();
        out.u64(1).unwrap();
        // 100 words of 64 boards each (3^8 = 6,561 boards), no result held
        out.u64(100).unwrap();
        for w in 0..100 {
            out.u32(w).unwrap();
            out.u64(u64::MAX).unwrap();
        }
        out.u64(0).unwrap();
        out.u64(0).unwrap();
        let sum = out.sum.0;
        let mut bytes = out.w;
        bytes.extend_from_slice(&sum.to_le_bytes());
        let p = file("dense.res");
        std::fs::write(&p, &bytes).unwrap();
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        cl.set_max_resident_bytes(Some(bytes.len() + 1000));
        let e = cl.load_results(&p).expect_err("refused");
        assert!(
            e.message
                .contains("asked boards of the results file take more"),
            "{}",
            e.message
        );
        cl.set_max_resident_bytes(Some(6400 * 4 + 1000));
        assert_eq!(cl.load_results(&p).unwrap(), 0);
        let _ = std::fs::remove_file(&p);
    }

    /// A search that keeps its results writes them as it goes: a search stopped by its bound
    /// leaves the file, and the next run, reading it, finishes the question.
    #[test]
    fn a_long_search_keeps_its_results_as_it_goes() {
        let g = Graph::parse("path:10").unwrap();
        let path = file("path10.res");
        let _ = std::fs::remove_file(&path);
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        cl.keep_results(path.clone(), std::time::Duration::ZERO)
            .unwrap();
        cl.node_limit = 200_000;
        let empty = [Board::empty()];
        assert!(cl.classes_at(&empty, &[0]).is_err(), "the bound stops it");
        let kept = std::fs::metadata(&path).expect("written as it went").len();
        assert!(kept > 0);
        let mut next = Classifier::new(&g, Table::Reconstruction).unwrap();
        assert!(next.load_results(&path).unwrap() > 0);
        assert_eq!(next.class_of(&empty, 0).unwrap(), Class::N);
        let mut fresh = Classifier::new(&g, Table::Reconstruction).unwrap();
        assert_eq!(fresh.class_of(&empty, 0).unwrap(), Class::N);
        assert!(
            next.stats.nodes < fresh.stats.nodes,
            "{} against {}",
            next.stats.nodes,
            fresh.stats.nodes
        );
        let _ = std::fs::remove_file(&path);
    }

    /// A question answered after a search has the results written at once, so that a run
    /// stopped after it keeps the answer; a quick answer does not, and the end of a run writes
    /// only what is not written yet.
    #[test]
    fn an_answer_is_kept_at_once() {
        // path:10 after `B 3`: Black moving first gets vertex 1 after 97,850 sequences; White's
        // question takes more than a million
        let g = Graph::parse("path:10").unwrap();
        let seq = sequence_from_moves(&g, "B 3").unwrap();
        let path = file("answer.res");
        let _ = std::fs::remove_file(&path);
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        cl.keep_results(path.clone(), std::time::Duration::from_secs(3600))
            .unwrap();
        cl.node_limit = 300_000;
        assert!(cl.classes_at(&seq, &[0]).is_err(), "the bound stops it");
        assert!(path.exists(), "written at the answer");
        let at_answer = Classifier::new(&g, Table::Reconstruction)
            .unwrap()
            .load_results(&path)
            .unwrap();
        // the visits after the answer found more: written again at the end
        let at_end = cl.keep_final().unwrap().expect("kept");
        assert!(at_end > at_answer, "{at_end} after {at_answer}");
        let mut next = Classifier::new(&g, Table::Reconstruction).unwrap();
        assert_eq!(next.load_results(&path).unwrap(), at_end);
        let told = Rc::new(std::cell::RefCell::new(Vec::new()));
        let seen = told.clone();
        next.progress = Some(Box::new(move |p: &crate::go::life::LifeProgress| {
            seen.borrow_mut().push(p.answers.clone())
        }));
        next.node_limit = 1_000;
        assert!(
            next.classes_at(&seq, &[0]).is_err(),
            "White's question is left"
        );
        let answers = told.borrow().last().cloned().expect("told");
        assert_eq!(answers.len(), 1, "{answers:?}");
        assert_eq!((answers[0].colour, answers[0].gets), (Color::Black, true));
        assert_eq!(answers[0].nodes, 0, "read, not searched");
        // the file is let go with the classifier that kept it
        drop(cl);
        // path:6 after `B 3`: both questions within a hundred sequences, no write
        let g = Graph::parse("path:6").unwrap();
        let seq = sequence_from_moves(&g, "B 3").unwrap();
        let quick = file("quick.res");
        let _ = std::fs::remove_file(&quick);
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        cl.keep_results(quick.clone(), std::time::Duration::from_secs(3600))
            .unwrap();
        assert!(cl.classes_at(&seq, &[0]).is_ok());
        assert!(!quick.exists(), "a quick answer is not worth a write");
        // path:10 after `B 2`: White's answer, the last step of the classification, comes
        // after 224,105 sequences and is written; the end has nothing more to write
        let g = Graph::parse("path:10").unwrap();
        let seq = sequence_from_moves(&g, "B 2").unwrap();
        std::fs::remove_file(&path).unwrap();
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        cl.keep_results(path.clone(), std::time::Duration::from_secs(3600))
            .unwrap();
        assert!(cl.classes_at(&seq, &[0]).is_ok());
        let kept = Classifier::new(&g, Table::Reconstruction)
            .unwrap()
            .load_results(&path)
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(cl.keep_final().unwrap(), Some(kept));
        assert!(!path.exists(), "not written twice");
        let _ = std::fs::remove_file(&path);
    }

    /// A results file that is no regular file (a FIFO, a folder) is refused at once, not waited
    /// on.
    #[cfg(unix)]
    #[test]
    fn a_results_file_that_is_a_fifo_is_refused() {
        let g = Graph::parse("path:5").unwrap();
        let fifo = file("fifo.res");
        let _ = std::fs::remove_file(&fifo);
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        let e = cl.load_results(&fifo).expect_err("refused");
        assert!(e.message.contains("not a regular file"), "{}", e.message);
        let e = cl.load_results(&std::env::temp_dir()).expect_err("refused");
        assert!(e.message.contains("not a regular file"), "{}", e.message);
        let _ = std::fs::remove_file(&fifo);
    }

    /// One results file has one writer: a second classifier that would keep its results in it
    /// is refused at once (the first's are not lost), and may once the first is gone. The file
    /// written beside it is made anew: a link left there is removed, not followed.
    #[test]
    fn a_results_file_has_one_writer() {
        let g = Graph::parse("path:5").unwrap();
        let path = file("one-writer.res");
        let mut first = Classifier::new(&g, Table::Reconstruction).unwrap();
        first
            .keep_results(path.clone(), std::time::Duration::ZERO)
            .unwrap();
        let mut second = Classifier::new(&g, Table::Reconstruction).unwrap();
        let e = second
            .keep_results(path.clone(), std::time::Duration::ZERO)
            .expect_err("a second writer");
        assert!(
            e.message.contains("another process keeps its results"),
            "{}",
            e.message
        );
        assert_eq!(e.kind, crate::go::error::ErrorKind::File);
        drop(first);
        second
            .keep_results(path.clone(), std::time::Duration::ZERO)
            .unwrap();
        #[cfg(unix)]
        {
            let target = file("one-writer-target");
            std::fs::write(&target, "kept").unwrap();
            let part = beside(&path, ".part");
            let _ = std::fs::remove_file(&part);
            std::os::unix::fs::symlink(&target, &part).unwrap();
            assert!(second.save_results(&path).is_ok());
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");
            assert!(!part.exists());
            // a link at the lock is refused, not followed
            let other = file("linked.res");
            let _ = std::fs::remove_file(beside(&other, ".lock"));
            std::os::unix::fs::symlink(&target, beside(&other, ".lock")).unwrap();
            let mut third = Classifier::new(&g, Table::Reconstruction).unwrap();
            assert!(third
                .keep_results(other.clone(), std::time::Duration::ZERO)
                .is_err());
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");
            for f in [target, beside(&other, ".lock"), other] {
                let _ = std::fs::remove_file(f);
            }
        }
        for f in [beside(&path, ".lock"), path] {
            let _ = std::fs::remove_file(f);
        }
    }
}

//! Counting boards (legal positions: configurations where every chain has a liberty).
//!
//! * [`count_boards_exhaustive`]: any graph of at most [`EXHAUSTIVE_MAX_VERTICES`] vertices, by
//!   enumerating all 3^n configurations (grouped by their empty set).
//! * [`count_boards_grid`]: grids, by a cell-by-cell transfer-matrix (border-state) dynamic
//!   programme with exact big integers. The border holds the last `w` cells (w = the smaller
//!   side); each border cell is empty or a stone with its colour, a chain label (connectivity
//!   among border stones, canonically relabelled) and whether its chain already has a liberty.
//!   A stone chain leaving the border without a liberty kills the state.

use super::error::{GoError, GoResult};
use super::graph::Graph;
use super::small::SmallGraph;
use num_bigint::BigUint;
use num_traits::Zero;
use std::collections::HashMap;

/// Largest graph [`count_boards_exhaustive`] accepts.
pub const EXHAUSTIVE_MAX_VERTICES: usize = 24;
/// Largest grid side (the smaller one) [`count_boards_grid`] accepts.
pub const DP_MAX_WIDTH: usize = 16;
/// Largest grid side (the larger one) [`count_boards_grid`] accepts.
pub const DP_MAX_LENGTH: usize = 100_000;

/// Bytes one state of the border-state count holds (estimated): its key, its count as a big
/// integer with the digits it owns, and its share of the hash table (load factor included).
pub const STATE_BYTES: usize = 96;

/// How far a long count has come: cells (or empty sets, for the exhaustive count) done, in all,
/// and the states held.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub done: u64,
    pub total: u64,
    pub states: usize,
}

/// What a long count may use and whom it tells of its progress: `max_bytes` bounds the memory of
/// its tables (estimated, [`STATE_BYTES`] a state, and the growth of a table checked before it is
/// asked of the system), and `progress` is called every cell and every 2^16 new states; an error
/// it returns (an interrupt, a resident bound passed) ends the count.
pub struct Limits<'a> {
    pub max_bytes: usize,
    pub progress: &'a mut dyn FnMut(Progress) -> GoResult<()>,
}

impl Limits<'_> {
    /// No bound and nobody told.
    pub fn none(f: &mut dyn FnMut(Progress) -> GoResult<()>) -> Limits<'_> {
        Limits {
            max_bytes: usize::MAX,
            progress: f,
        }
    }
}

/// Counts boards of a graph by enumerating all configurations.
pub fn count_boards_exhaustive(g: &Graph) -> GoResult<u64> {
    count_boards_exhaustive_within(g, &mut Limits::none(&mut |_| Ok(())))
}

/// The same, telling `limits` of its progress every 2^12 empty sets.
pub fn count_boards_exhaustive_within(g: &Graph, limits: &mut Limits<'_>) -> GoResult<u64> {
    if g.n > EXHAUSTIVE_MAX_VERTICES {
        return Err(GoError::new(
            format!(
                "exhaustive counting of {} vertices would visit 3^{} configurations",
                g.n, g.n
            ),
            format!(
                "use at most {EXHAUSTIVE_MAX_VERTICES} vertices, or count_boards_grid for grids"
            ),
        ));
    }
    let sg = SmallGraph::new(g)?;
    let full = sg.full;
    let mut total = 0u64;
    // Enumerate the empty set E; the stones S = V \ E are split into black B and white S \ B.
    let mut e: u64 = 0;
    loop {
        let s = full & !e;
        let ne = sg.nbr(e);
        let mut b = s;
        loop {
            let w = s & !b;
            if sg.all_alive(b, ne) && sg.all_alive(w, ne) {
                total += 1;
            }
            if b == 0 {
                break;
            }
            b = (b - 1) & s;
        }
        if e == full {
            break;
        }
        e += 1;
        if e & 0xFFF == 0 {
            (limits.progress)(Progress {
                done: e,
                total: full + 1,
                states: 0,
            })?;
        }
    }
    Ok(total)
}

/// Counts boards of any graph: the grid DP for grids, enumeration otherwise.
pub fn count_boards(g: &Graph) -> GoResult<BigUint> {
    count_boards_within(g, &mut Limits::none(&mut |_| Ok(())))
}

/// The same, within `limits`.
pub fn count_boards_within(g: &Graph, limits: &mut Limits<'_>) -> GoResult<BigUint> {
    match g.grid {
        Some((r, c)) => count_boards_grid_within(r, c, limits),
        None => count_boards_exhaustive_within(g, limits).map(BigUint::from),
    }
}

/// A size in MiB, or in KiB below one MiB, or in bytes below one KiB.
fn size_text(bytes: usize) -> String {
    if bytes < 1 << 10 {
        format!("{bytes} bytes")
    } else if bytes < 1 << 20 {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{} MiB", bytes >> 20)
    }
}

/// The error of a count whose tables would pass `max_bytes`.
fn too_many_states(states: usize, max_bytes: usize) -> GoError {
    GoError::out_of_memory(
        format!(
            "the count would hold {states} border states, about {}, more than the {} left to it",
            size_text(states.saturating_mul(STATE_BYTES)),
            size_text(max_bytes)
        ),
        "raise --max-resident-mb, or count a narrower grid (the states grow about threefold with each cell of width)",
    )
}

// Border cell encoding: 0 = empty, else (label << 2) | (white << 1) | has_liberty, label >= 1.
const LIB: u8 = 1;
const WHITE: u8 = 2;

fn label(x: u8) -> u8 {
    x >> 2
}

fn pack(cells: &[u8]) -> u128 {
    cells
        .iter()
        .enumerate()
        .fold(0u128, |acc, (i, &x)| acc | (x as u128) << (8 * i))
}

fn unpack(key: u128, w: usize, out: &mut [u8]) {
    for (i, o) in out.iter_mut().enumerate().take(w) {
        *o = (key >> (8 * i)) as u8;
    }
}

/// Relabels chains in order of first appearance.
fn canonical(cells: &mut [u8]) {
    let mut map = [0u8; 64];
    let mut next = 1u8;
    for x in cells.iter_mut() {
        if *x == 0 {
            continue;
        }
        let l = label(*x) as usize;
        if map[l] == 0 {
            map[l] = next;
            next += 1;
        }
        *x = (map[l] << 2) | (*x & 3);
    }
}

/// Marks the chain with this label as having a liberty.
fn give_liberty(cells: &mut [u8], l: u8) {
    for x in cells.iter_mut() {
        if *x != 0 && label(*x) == l {
            *x |= LIB;
        }
    }
}

/// Counts boards of the `rows x cols` grid by the border-state dynamic programme.
pub fn count_boards_grid(rows: usize, cols: usize) -> GoResult<BigUint> {
    count_boards_grid_within(rows, cols, &mut Limits::none(&mut |_| Ok(())))
}

/// The same, within `limits`: the states of two consecutive cells are held at once, and a table
/// grows (doubling) only when the states it would hold fit in `limits.max_bytes`.
pub fn count_boards_grid_within(
    rows: usize,
    cols: usize,
    limits: &mut Limits<'_>,
) -> GoResult<BigUint> {
    if rows == 0 || cols == 0 {
        return Err(GoError::new(
            format!("grid {rows}x{cols} has no vertices"),
            "both dimensions must be at least 1",
        ));
    }
    let (w, len) = if rows <= cols {
        (rows, cols)
    } else {
        (cols, rows)
    };
    if len > DP_MAX_LENGTH {
        return Err(GoError::new(
            format!("grid {rows}x{cols} is too long for the border-state count"),
            format!("the larger side may be at most {DP_MAX_LENGTH}"),
        ));
    }
    if w > DP_MAX_WIDTH {
        return Err(GoError::new(
            format!("grid {rows}x{cols} is too wide for the border-state count"),
            format!("the smaller side may be at most {DP_MAX_WIDTH}"),
        ));
    }
    // Lines of length w are processed one after another, cell by cell.
    let mut states: HashMap<u128, BigUint> = HashMap::new();
    states.insert(0, BigUint::from(1u32));
    let mut cells = vec![0u8; w];
    let fresh = (w + 1) as u8;
    let max_states = limits.max_bytes / STATE_BYTES;
    let total = (len * w) as u64;
    for r in 0..len {
        for c in 0..w {
            (limits.progress)(Progress {
                done: (r * w + c) as u64,
                total,
                states: states.len(),
            })?;
            let mut next: HashMap<u128, BigUint> = HashMap::new();
            // the next cell's states are about as many as this one's, a little more
            let want = states.len().min(max_states.saturating_sub(states.len()));
            next.try_reserve(want)
                .map_err(|_| too_many_states(states.len() + want, limits.max_bytes))?;
            for (key, count) in states.iter() {
                unpack(*key, w, &mut cells);
                let up = if r > 0 { Some(cells[c]) } else { None };
                let left = if c > 0 { Some(cells[c - 1]) } else { None };
                for choice in 0..3u8 {
                    let mut nc = cells.clone();
                    if choice == 0 {
                        for x in [up, left].into_iter().flatten() {
                            if x != 0 {
                                give_liberty(&mut nc, label(x));
                            }
                        }
                        nc[c] = 0;
                    } else {
                        let white = if choice == 2 { WHITE } else { 0 };
                        let mut lib = 0u8;
                        let mut stone = (fresh << 2) | white;
                        for x in [up, left].into_iter().flatten() {
                            if x == 0 {
                                lib = LIB;
                            } else if x & WHITE == white {
                                // Merge the neighbour's chain into the new stone's chain.
                                let l = label(x);
                                lib |= x & LIB;
                                for y in nc.iter_mut() {
                                    if *y != 0 && label(*y) == l {
                                        *y = (fresh << 2) | (*y & 3);
                                    }
                                }
                            }
                        }
                        stone |= lib;
                        nc[c] = stone;
                        if lib != 0 {
                            give_liberty(&mut nc, fresh);
                        }
                    }
                    // The cell above leaves the border.
                    let leaving =
                        up.filter(|&x| x != 0 && (x & WHITE != nc[c] & WHITE || nc[c] == 0));
                    if let Some(x) = leaving {
                        let l = label(x);
                        let present = nc.iter().any(|&y| y != 0 && label(y) == l);
                        let has_lib = nc.iter().any(|&y| y != 0 && label(y) == l && y & LIB != 0)
                            || (!present && (x & LIB != 0 || choice == 0));
                        if !present && !has_lib {
                            continue;
                        }
                    }
                    canonical(&mut nc);
                    let k = pack(&nc);
                    match next.get_mut(&k) {
                        Some(v) => *v += count,
                        None => {
                            if next.len() == next.capacity() {
                                // the table doubles: both tables must fit, and the system
                                // must give the memory (never an abort)
                                let held = states.len() + 2 * next.len().max(1);
                                if held > max_states {
                                    return Err(too_many_states(held, limits.max_bytes));
                                }
                                next.try_reserve(next.len().max(1))
                                    .map_err(|_| too_many_states(held, limits.max_bytes))?;
                            }
                            next.insert(k, count.clone());
                            if next.len() & 0xFFFF == 0 {
                                (limits.progress)(Progress {
                                    done: (r * w + c) as u64,
                                    total,
                                    states: states.len() + next.len(),
                                })?;
                            }
                        }
                    }
                }
            }
            states = next;
        }
    }
    let mut total = BigUint::zero();
    for (key, count) in states {
        unpack(key, w, &mut cells);
        if cells.iter().all(|&x| x == 0 || x & LIB != 0) {
            total += count;
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRIP: [u64; 10] = [1, 5, 15, 41, 113, 313, 867, 2401, 6649, 18413];

    #[test]
    fn strips_exhaustive_and_dp() {
        for (i, &want) in STRIP.iter().enumerate() {
            let n = i + 1;
            let g = Graph::grid(1, n).unwrap();
            assert_eq!(count_boards_exhaustive(&g).unwrap(), want, "1x{n}");
            assert_eq!(
                count_boards_grid(1, n).unwrap(),
                BigUint::from(want),
                "1x{n} dp"
            );
            assert_eq!(count_boards_grid(n, 1).unwrap(), BigUint::from(want));
        }
    }

    #[test]
    fn squares_dp() {
        let want = [1u64, 57, 12675, 24318165, 414_295_148_741];
        for (i, &x) in want.iter().enumerate() {
            assert_eq!(count_boards_grid(i + 1, i + 1).unwrap(), BigUint::from(x));
        }
    }

    /// The border-state count of each grid of up to 3 rows, `columns` columns and `points`
    /// points equals the count by enumeration.
    fn grids_agree(columns: usize, points: usize) {
        for r in 1..=3 {
            for c in (1..=columns).filter(|c| r * c <= points) {
                let ex = count_boards_exhaustive(&Graph::grid(r, c).unwrap()).unwrap();
                assert_eq!(
                    count_boards_grid(r, c).unwrap(),
                    BigUint::from(ex),
                    "{r}x{c}"
                );
            }
        }
    }

    #[test]
    fn small_grids_agree() {
        grids_agree(4, 12);
        assert_eq!(
            count_boards_exhaustive(&Graph::grid(3, 3).unwrap()).unwrap(),
            12675
        );
        assert_eq!(
            count_boards_exhaustive(&Graph::grid(2, 2).unwrap()).unwrap(),
            57
        );
    }

    /// The slow tests (more than about 5 s each), run by .ci/run after the test command of
    /// README.md: `cargo test --release -- --ignored ::slow::`.
    mod slow {
        use super::*;

        #[test]
        #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
        fn grids_agree_release() {
            assert_eq!(
                count_boards_exhaustive(&Graph::grid(4, 4).unwrap()).unwrap(),
                24318165
            );
            grids_agree(8, 20);
        }
    }

    #[test]
    fn limits_end_the_count_with_an_error_not_an_abort() {
        // within a bound the count is the same
        let mut quiet = |_| Ok(());
        let mut roomy = Limits {
            max_bytes: 64 << 20,
            progress: &mut quiet,
        };
        assert_eq!(
            count_boards_grid_within(4, 4, &mut roomy).unwrap(),
            BigUint::from(24318165u64)
        );
        // a bound too small for the states of a 9-wide border
        let mut tight = Limits {
            max_bytes: 1 << 20,
            progress: &mut quiet,
        };
        let e = count_boards_grid_within(9, 9, &mut tight).unwrap_err();
        assert_eq!(e.kind, crate::go::error::ErrorKind::Memory, "{e}");
        assert!(e.message.contains("border states"), "{e}");
        // progress is told every cell, and its error ends the count
        let mut seen = vec![];
        let mut stop = |p: Progress| {
            seen.push(p.done);
            if p.done == 5 {
                Err(GoError::new("stopped", ""))
            } else {
                Ok(())
            }
        };
        let mut told = Limits::none(&mut stop);
        let e = count_boards_grid_within(3, 3, &mut told).unwrap_err();
        assert_eq!(e.message, "stopped");
        assert_eq!(seen, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn errors() {
        assert!(count_boards_grid(0, 3).is_err());
        assert!(count_boards_grid(17, 17).is_err());
        assert!(count_boards_grid(1, usize::MAX).is_err());
        assert!(count_boards_exhaustive(&Graph::grid(5, 5).unwrap()).is_err());
        // Triangle: 3^3 = 27 configurations; the full ones with all stones of one colour die.
        let t = Graph::complete(3).unwrap();
        assert_eq!(count_boards_exhaustive(&t).unwrap(), 27 - 8);
    }
}

#![forbid(unsafe_code)]
//! The options that bound a search, checked before it starts: its threads and the sizes of its
//! tables against the memory bound and the machine's memory.

use crate::diagnostics::code;
use crate::diagnostics::Diag;

/// `--jobs N` of a batch, when given: from 1 to 256, else E0602.
pub(super) fn jobs_in_range(n: Option<usize>) -> Result<(), Diag> {
    match n {
        None | Some(1..=256) => Ok(()),
        Some(n) => Err(
            Diag::error(code::BAD_OPTION, format!("--jobs {n} is out of range"))
                .help("give from 1 to 256 jobs (without --jobs: one per core)"),
        ),
    }
}

/// The jobs `--jobs` asks for, or one per core without it.
pub(super) fn jobs_or_cores(n: Option<usize>) -> usize {
    n.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `--threads N` of the mate search: from 1 to `MAX_THREADS`, else E0602.
pub(super) fn threads_in_range(n: usize) -> Result<(), Diag> {
    use crate::shogi::dfpn::MAX_THREADS;
    if (1..=MAX_THREADS).contains(&n) {
        return Ok(());
    }
    Err(
        Diag::error(code::BAD_OPTION, format!("--threads {n} is out of range"))
            .help(format!("give from 1 to {MAX_THREADS} threads")),
    )
}

/// A transposition table of `hash_mb` MiB is refused when it is empty, larger than the memory the
/// search may occupy (`max_resident_mb`), or larger than three quarters of the machine's memory:
/// the table is made resident as the search fills it, and would grow past what the machine has.
pub(super) fn hash_in_bound(hash_mb: usize, max_resident_mb: usize) -> Result<(), Diag> {
    table_in_bound(
        "--hash-mb",
        hash_mb,
        max_resident_mb,
        "the memory the search may occupy",
    )
}

/// A table of `mb` MiB given by `option` is refused when it is empty, larger than the part of the
/// memory bound it may take (`bound_mb`, told as `bound_is`), or larger than three quarters of the
/// machine's memory.
pub(super) fn table_in_bound(
    option: &str,
    mb: usize,
    bound_mb: usize,
    bound_is: &str,
) -> Result<(), Diag> {
    let machine_mb = crate::memory::physical_memory_bytes().map(|b| (b >> 20) / 4 * 3);
    let cap = machine_mb.map_or(bound_mb, |m| m.min(bound_mb));
    if mb == 0 {
        return Err(
            Diag::error(code::BAD_OPTION, format!("{option} 0 is out of range"))
                .help(format!("give a table size from 1 to {cap} MiB")),
        );
    }
    if mb > bound_mb {
        return Err(Diag::error(
            code::BAD_OPTION,
            format!("{option} {mb} is larger than {bound_is} ({bound_mb} MiB)"),
        )
        .help(format!(
            "give a table of at most {cap} MiB, or raise --max-resident-mb (the table is made resident as the search fills it)"
        )));
    }
    if let Some(m) = machine_mb.filter(|m| mb > *m) {
        return Err(Diag::error(
            code::BAD_OPTION,
            format!(
                "{option} {mb} is larger than three quarters of this machine's memory ({m} MiB)"
            ),
        )
        .help(format!("give a table of at most {m} MiB")));
    }
    Ok(())
}

/// What `okite mate`'s options ask of a search; an unknown `--length` or an option out of
/// its range is refused.
pub(super) fn mate_ask(a: &super::args::MateArgs) -> Result<crate::commands::mate::MateAsk, Diag> {
    let length = crate::commands::mate::length(&a.length)?;
    hash_in_bound(a.hash_mb, a.max_resident_mb)?;
    threads_in_range(a.threads)?;
    jobs_in_range(a.jobs)?;
    Ok(crate::commands::mate::MateAsk {
        length,
        nodes: a.nodes,
        time_ms: a.time_ms,
        max_plies: a.max_plies,
        hash_mb: a.hash_mb,
        threads: a.threads,
        max_resident_mb: a.max_resident_mb,
    })
}

#![forbid(unsafe_code)]
//! `okite mate` as a function of typed inputs: what a search is asked ([`MateAsk`]), the search
//! by each engine that can answer it (the standard df-pn search, the hybrid search over the
//! rules a variant changed, the compiled engine of a board variant), each returning the
//! [`MateReport`] the faces print; and the refusal when no engine can follow the rules.

use crate::check::Program;
use crate::commands::report::MateReport;
use crate::commands::Notice;
use crate::diagnostics::{code, Diag};
use crate::ir::ReadingId;
use crate::shogi::dfpn::{MateLength, MateOptions, MateSolver, ProgressFn};
use crate::shogi::position::Position;
use crate::shogi::readings::Reading;
use std::time::{Duration, Instant};

/// What a mate search is asked, whichever engine runs it.
#[derive(Clone, Debug)]
pub struct MateAsk {
    /// The shortest mate, or any.
    pub length: MateLength,
    /// Nodes at most (0: no limit).
    pub nodes: u64,
    /// Milliseconds at most (0: no limit).
    pub time_ms: u64,
    /// The longest mate looked for, in plies (0: until a limit).
    pub max_plies: u32,
    /// The transposition table, in MiB.
    pub hash_mb: usize,
    /// The threads of one search.
    pub threads: usize,
    /// The resident memory the rules' evaluations may reach, in MiB.
    pub max_resident_mb: usize,
}

impl MateAsk {
    /// Whether any mate is asked, not the shortest.
    pub fn any(&self) -> bool {
        self.length == MateLength::Any
    }

    /// The options of the standard search under `reading`.
    pub fn options(&self, reading: Reading, progress: Option<ProgressFn>) -> MateOptions {
        MateOptions {
            max_nodes: self.nodes,
            max_ms: self.time_ms,
            hash_mb: self.hash_mb,
            length: self.length,
            max_plies: self.max_plies,
            reading,
            stop: None,
            progress,
        }
    }

    /// The moment the time limit ends, from now (none without one).
    pub fn deadline(&self) -> Option<Instant> {
        deadline_after(self.time_ms)
    }

    fn max_resident_bytes(&self) -> usize {
        self.max_resident_mb.saturating_mul(1 << 20)
    }
}

/// The search that answers `okite mate` with a checked program.
pub enum MateEngine {
    /// The standard df-pn search, following the shipped reading.
    Native(Reading),
    /// The df-pn search over native move generation and check, the rules answering what the
    /// variant changed.
    Hybrid(crate::hybrid::ShogiVariant),
}

/// The standard search under the built-in rules' reading `reading`, known without checking
/// them (no rule files named, no variant, a shipped reading), with its notice; none otherwise.
#[expect(
    clippy::expect_used,
    reason = "the shogi engines' readings are the named ones"
)]
pub fn shipped_engine(
    rules: &[std::path::PathBuf],
    variant: Option<&str>,
    reading: &str,
) -> Option<(Reading, Notice)> {
    let Some(crate::commands::Plan::Native(native)) =
        crate::commands::shipped_plan(rules, variant, "mate_in", reading)
    else {
        return None;
    };
    let notice = Notice::native("mate_in", reading, "the df-pn search", native);
    let reading = Reading::named(native).expect("the shogi engines' readings are named");
    Some((reading, notice))
}

/// The search of `mate_in` under reading `r` of `prog` (named `rname`) and what is said of it;
/// the refusal when no search can stand for the rules.
pub fn engine(prog: &Program, r: ReadingId) -> Result<(MateEngine, Notice), Diag> {
    let rname = &prog.readings[r.index()].name;
    let (plan, decided) = crate::commands::mate_search(prog, r);
    match decided {
        crate::commands::MateSearch::Native(reading) => Ok((
            MateEngine::Native(reading),
            Notice::of(prog, r, "mate_in", "the df-pn search", &plan),
        )),
        crate::commands::MateSearch::Hybrid { variant, why } => {
            let line = format!(
                "okite: `mate_in` under {rname}: a df-pn search over native move generation and check, {} natively, by the rules: {} (the native df-pn search off: {why})",
                crate::commands::notice::native_parts(&variant.asked),
                variant.asked.names().join(", ")
            );
            let notice = Notice::assembled(
                "mate_in",
                rname,
                "the df-pn search under a variant",
                &variant.asked,
                &why,
                line,
            )
            .on_threads(1);
            Ok((MateEngine::Hybrid(variant), notice))
        }
        crate::commands::MateSearch::Refused { why, no } => Err(refusal(rname, &why, no)),
    }
}

/// `--length`: `shortest` or `any`.
pub fn length(text: &str) -> Result<MateLength, Diag> {
    match text {
        "shortest" => Ok(MateLength::Shortest),
        "any" => Ok(MateLength::Any),
        other => Err(
            Diag::error(code::BAD_OPTION, format!("unknown length `{other}`"))
                .help("--length is `shortest` or `any`"),
        ),
    }
}

/// The moment `ms` milliseconds from now (none for 0, no limit).
pub fn deadline_after(ms: u64) -> Option<Instant> {
    (ms > 0).then(|| Instant::now() + Duration::from_millis(ms))
}

/// The standard df-pn search of the last position of `history` under `reading`; `solver`
/// keeps its table from problem to problem.
pub fn native(
    solver: &mut MateSolver,
    history: &[Position],
    ask: &MateAsk,
    reading: Reading,
    progress: Option<ProgressFn>,
    engine: &Notice,
) -> MateReport {
    let r = solver.solve_history(history, &ask.options(reading, progress));
    MateReport::of(&r, engine)
}

/// The error of a search whose question to the rules failed.
pub fn rules_failed(message: &str) -> Diag {
    Diag::error(
        code::RULES_FAILED_IN_SEARCH,
        format!("the rules failed on a position the native engine asked them about: {message}"),
    )
    .help("the native engine asks the rules for the parts the variant changed; `okite eval` on that position shows where they fail")
}

/// The search over native move generation and check where the rules answer the parts a
/// variant changed; made by [`with_hybrid`], it keeps the rules' evaluator (and its tables)
/// from problem to problem.
pub struct HybridMate<'p> {
    oracle: crate::hybrid::RulesOracle<'p>,
    variant: &'p crate::hybrid::ShogiVariant,
}

/// Runs `f` with the hybrid search of `prog` under reading `r`, whose variant is `v`; an
/// error when the rules' evaluator cannot be made for it.
pub fn with_hybrid<T>(
    prog: &Program,
    r: ReadingId,
    v: &crate::hybrid::ShogiVariant,
    f: impl FnOnce(&mut HybridMate) -> T,
) -> Result<T, Diag> {
    let binder = crate::bindings::Sound::standard();
    let oracle = crate::hybrid::RulesOracle::new(prog, &binder, r).map_err(|m| rules_failed(&m))?;
    let mut hybrid = HybridMate { oracle, variant: v };
    Ok(f(&mut hybrid))
}

impl HybridMate<'_> {
    /// The search of the last position of `history`: its time limit and memory bound bind
    /// the rules' answers too.
    pub fn solve(
        &mut self,
        history: &[Position],
        ask: &MateAsk,
        engine: &Notice,
    ) -> Result<MateReport, Diag> {
        let deadline = ask.deadline();
        self.oracle.watch(None, deadline);
        let max_resident_bytes = ask.max_resident_bytes();
        self.oracle.bound_memory(max_resident_bytes);
        let v = self.variant;
        let mut hy =
            crate::shogi::legality::Hybrid::new(v.mate_needs_check, v.asked, &mut self.oracle);
        let opts = crate::shogi::hybrid_mate::HybridOptions {
            max_nodes: ask.nodes,
            max_ms: ask.time_ms,
            max_plies: ask.max_plies,
            any: ask.any(),
            stop: None,
            deadline,
            table_mb: ask.hash_mb,
            max_resident_bytes,
        };
        let r = crate::shogi::hybrid_mate::solve(history, &mut hy, &opts)
            .map_err(|m| rules_failed(&m))?;
        Ok(MateReport::of(&r, engine))
    }
}

/// The USI engine's search under a variant: the rules are loaded by `load` on the search
/// thread (the evaluator stays on one thread), legality assembled, and the df-pn search run
/// under `reading`.
pub fn usi_variant_search(
    load: impl Fn() -> Result<Program, String> + Send + Sync + 'static,
    reading: String,
    max_resident_bytes: usize,
) -> crate::shogi::usi_engine::VariantSearch {
    std::sync::Arc::new(
        move |h: &[Position],
              limits: crate::shogi::usi_engine::VariantLimits,
              stop: std::sync::Arc<std::sync::atomic::AtomicBool>| {
            let ms = limits.ms;
            let prog = load()?;
            let r = prog
                .reading_or_error(&reading)
                .map_err(|d| d.message.clone())?;
            let v = crate::hybrid::shogi_variant(&prog, r)?;
            let binder = crate::bindings::Sound::standard();
            let mut oracle = crate::hybrid::RulesOracle::new(&prog, &binder, r)?;
            let deadline = deadline_after(ms);
            oracle.watch(Some(stop.clone()), deadline);
            oracle.bound_memory(max_resident_bytes);
            let mut hy =
                crate::shogi::legality::Hybrid::new(v.mate_needs_check, v.asked, &mut oracle);
            let opts = crate::shogi::hybrid_mate::HybridOptions {
                max_ms: ms,
                any: limits.any,
                stop: Some(stop),
                deadline,
                table_mb: limits.hash_mb,
                max_resident_bytes,
                ..Default::default()
            };
            crate::shogi::hybrid_mate::solve(h, &mut hy, &opts)
        },
    )
}

/// Why no engine searches `mate_in` under `reading` with the rules loaded: `why` the native
/// search is off, `no` why no native part could be kept (none: `mate_in` itself changed).
pub fn refused(reading: &str, why: &crate::bindings::Reason, no: Option<String>) -> String {
    let no = no.unwrap_or_else(|| "`mate_in` itself changed, and the search stands for it".into());
    format!(
        "the mate search cannot follow `mate_in` under {reading} with these rules ({why}); no native part kept: {no}"
    )
}

/// [`refused`] as the diagnostic of `okite mate`, with the way the rules answer instead.
pub fn refusal(reading: &str, why: &crate::bindings::Reason, no: Option<String>) -> Diag {
    Diag::error(code::ENGINE_CANNOT_FOLLOW, refused(reading, why, no)).help(format!(
        "the rules answer it themselves, without a line: okite eval --rules ... --reading {reading} --sfen ... 'mate_in(g, i, N)'"
    ))
}

/// The compiled engine's search of a board variant's position `p`: `max_entries` bounds its
/// table; a limit of 0 is none, as for the standard search.
pub fn compiled(
    p: &mut crate::shogi::variant::VPos,
    ask: &MateAsk,
    drop_mate: crate::shogi::variant::DropMate,
    engine: &Notice,
) -> MateReport {
    use crate::shogi::variant::{MateLimits, MateOutcome};
    let start = Instant::now();
    let mut limits = MateLimits {
        drop_mate,
        max_plies: crate::shogi::variant::MAX_MATE_PLIES,
        ..MateLimits::default()
    };
    if ask.max_plies > 0 {
        limits.max_plies = ask.max_plies;
    }
    if ask.nodes > 0 {
        limits.max_nodes = ask.nodes;
    }
    if ask.time_ms > 0 {
        limits.deadline = Some(start + Duration::from_millis(ask.time_ms));
    }
    // about 40 bytes an entry of the table
    limits.max_entries = (ask.hash_mb.min(ask.max_resident_mb) << 20) / 40;
    let r = p.mate_search_for(limits, !ask.any());
    let (result, pv) = match &r.outcome {
        MateOutcome::Mate(line) => ("mate", p.line_text(line)),
        MateOutcome::NoMate => ("nomate", vec![]),
        MateOutcome::Unknown => ("unknown", vec![]),
    };
    MateReport {
        result,
        plies: pv.len() as u32,
        pv,
        nodes: r.nodes,
        ms: start.elapsed().as_millis() as u64,
        shortest: r.shortest,
        lower_bound: r.lower_bound,
        engine: engine.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::{length, native, MateAsk};
    use crate::commands::Notice;
    use crate::shogi::dfpn::{MateLength, MateSolver};
    use crate::shogi::position::Position;
    use crate::shogi::readings::Reading;

    fn ask(length: MateLength) -> MateAsk {
        MateAsk {
            length,
            nodes: 0,
            time_ms: 0,
            max_plies: 0,
            hash_mb: 16,
            threads: 1,
            max_resident_mb: 1024,
        }
    }

    /// A gold dropped on 5b, guarded by the pawn on 5c, mates the king on 5a: found, shortest,
    /// in the report with the notice it was given; with the gold's drop gone, no mate.
    #[test]
    fn the_native_search_reports_a_mate_in_one() {
        let engine = Notice::native(
            "mate_in",
            "narrow-check",
            "the df-pn search",
            "narrow-check",
        );
        let mut solver = MateSolver::new(16);
        let mated = [Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap()];
        for length in [MateLength::Shortest, MateLength::Any] {
            let r = native(
                &mut solver,
                &mated,
                &ask(length),
                Reading::NARROW_CHECK,
                None,
                &engine,
            );
            assert_eq!((r.result, r.plies), ("mate", 1), "{r:?}");
            assert_eq!(r.pv, ["G*5b"]);
            assert_eq!(r.engine, engine);
        }
        let bare = [Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b - 1").unwrap()];
        let r = native(
            &mut solver,
            &bare,
            &ask(MateLength::Shortest),
            Reading::NARROW_CHECK,
            None,
            &engine,
        );
        assert_eq!(r.result, "nomate", "{r:?}");
        assert!(r.pv.is_empty());
    }

    #[test]
    fn the_length_is_shortest_or_any() {
        assert_eq!(length("shortest").unwrap(), MateLength::Shortest);
        assert_eq!(length("any").unwrap(), MateLength::Any);
        let d = length("all").unwrap_err();
        assert_eq!(d.code, crate::diagnostics::code::BAD_OPTION);
        assert!(d.message.contains("`all`"), "{}", d.message);
    }
}

//! The shogi commands under a board variant: `--variant NAME` (a shipped variant) or `--rules`
//! files that state the variant tables. The engine compiled from the tables answers.

use super::common::Printer;
use super::variant_asked::{
    bad_move, bound_state, compiled_notice, drop_mate, position, read_position, requested, start,
    Asked,
};
use crate::commands::report::{BoardGameReport, BoardPosition, Count, Moves};
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::shogi::variant::{DropMate, VMove};
use crate::variants::LoadedVariant;

/// The deepest perft a board variant is asked for.
const MAX_PERFT_DEPTH: u32 = 20;

/// `okite perft` under a variant.
#[allow(clippy::too_many_arguments)]
pub(super) fn perft(
    v: LoadedVariant,
    sfen: &str,
    moves: &str,
    depth: u32,
    divide: bool,
    dm: DropMate,
    json: bool,
    jobs: usize,
    printer: &Printer,
) -> i32 {
    // the count recurses a level a ply: a depth past any count that could finish is refused
    // before it starts
    if depth > MAX_PERFT_DEPTH {
        return printer.fail(
            Diag::error(
                code::BAD_OPTION,
                format!("perft to depth {depth} would not finish"),
            )
            .help(format!("ask for a depth of at most {MAX_PERFT_DEPTH}")),
        );
    }
    let mut p = match start(&v, sfen, moves, dm, printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let n = if divide || (jobs > 1 && depth >= 4) {
        let moves = p.legal_moves(dm);
        let counts = crate::shogi::perft::split(&p, &moves, jobs, |q, m| {
            let u = q.do_move(m);
            let n = q.perft(depth.saturating_sub(1), dm);
            q.undo_move(m, u);
            n
        });
        let rows: Vec<(VMove, u64)> = moves.into_iter().zip(counts).collect();
        let mut total = 0;
        for (m, n) in &rows {
            if divide && !json {
                outln!("{}: {n}", p.move_text(*m));
            }
            total += n;
        }
        total
    } else {
        p.perft(depth, dm)
    };
    if json {
        let report = Count {
            count: n as u128,
            engine: compiled_notice(&v),
        };
        outln!("{}", crate::json::text(&report));
    } else {
        outln!("{n}");
    }
    0
}

/// `okite legal` under a variant.
pub(super) fn legal(
    v: LoadedVariant,
    sfen: &str,
    moves: &str,
    dm: DropMate,
    json: bool,
    printer: &Printer,
) -> i32 {
    let mut p = match start(&v, sfen, moves, dm, printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let ms: Vec<String> = p
        .legal_moves(dm)
        .into_iter()
        .map(|m: VMove| p.move_text(m))
        .collect();
    if json {
        let report = Moves {
            moves: ms,
            engine: compiled_notice(&v),
        };
        outln!("{}", crate::json::text(&report));
    } else {
        outln!("{}", ms.join(" "));
        let n = ms.len();
        errln!("{n} legal move{}", if n == 1 { "" } else { "s" });
    }
    0
}

/// `okite show` under a variant.
pub(super) fn show(
    v: LoadedVariant,
    sfen: &str,
    moves: &str,
    json: bool,
    printer: &Printer,
) -> i32 {
    let p = match position(&v, sfen, moves, DropMate::Illegal, printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if json {
        let report = BoardPosition {
            sfen: p.to_sfen(),
            turn: if p.side == 0 { "b" } else { "w" },
            in_check: p.in_check(p.side),
            ply: moves.split_whitespace().count(),
            variant: v.variant.name().to_string(),
        };
        outln!("{}", crate::json::text(&report));
    } else {
        out!("{}", p.diagram());
        outln!("{}", p.to_sfen());
    }
    0
}

/// `okite mate` under a variant: the shortest forced win by checks, in `mate`'s output shape,
/// for `--sfen` (the variant's start without it) or for each position of `--batch`.
pub(super) fn mate(v: LoadedVariant, a: &super::args::MateArgs, printer: &Printer) -> i32 {
    use super::problems::{bad_problem, problems_of, Problem};
    let dm = match drop_mate(a.variant.drop_mate.as_deref(), printer) {
        Ok(d) => d,
        Err(c) => return c,
    };
    let ask = match super::bounds::mate_ask(a) {
        Ok(ask) => ask,
        Err(d) => return printer.fail(d),
    };
    let problems = if a.sfen.is_none() && a.batch.is_none() {
        vec![Problem::given("startpos")]
    } else {
        match problems_of(a, printer) {
            Ok(p) => p,
            Err(c) => return c,
        }
    };
    let engine = compiled_notice(&v);
    errln!("{}", engine.line());
    let mut code = 0;
    for problem in &problems {
        if let Some(d) = problem.unreadable(a.batch.as_deref()) {
            code = bad_problem(a, problem, Default::default(), &[d], printer);
            continue;
        }
        let moves = if a.batch.is_some() { "" } else { &a.moves };
        let mut p = match read_position(&v, &problem.text, moves, dm) {
            Ok(p) => p,
            Err(mut d) => {
                if let (Some(path), Some(line)) = (&a.batch, problem.line) {
                    d.message = format!("{} line {line}: {}", path.display(), d.message);
                }
                code = bad_problem(a, problem, Default::default(), &[d], printer);
                continue;
            }
        };
        let report = crate::commands::mate::compiled(&mut p, &ask, dm, &engine);
        super::mate_report::print_mate(&report, a, ask.any());
    }
    code
}

/// A KIF record of the variant (where its tables define KIF's names): its start as SFEN and
/// its moves as USI text. Errors point into the record.
pub(super) fn kif_record(
    v: &LoadedVariant,
    path: &std::path::Path,
    dm: DropMate,
) -> Result<(String, String), (crate::diagnostics::SourceMap, Vec<Diag>)> {
    let t = v.variant.tables.clone();
    let (r, _, _) =
        crate::front::read_record_with(path, |text| crate::shogi::variant::read_kif(&t, text, dm))?;
    let moves: Vec<&str> = r.moves.iter().map(|m| m.usi.as_str()).collect();
    Ok((r.start.to_sfen(), moves.join(" ")))
}

/// CSA under a board variant: refused, as the format writes the 9 x 9 board only.
pub(super) fn no_csa(printer: &Printer) -> i32 {
    printer.fail(
        Diag::error(
            crate::variants::BAD_VARIANT,
            "CSA records are not read under a board variant: the CSA format defines the 9 x 9 board only",
        )
        .help("give a KIF record where the variant defines one (minishogi, kyotoshogi), or --sfen and --usi moves"),
    )
}

/// `okite game` under a variant: the moves played in turn (each must be legal), and how the
/// game stands after them.
pub(super) fn game(
    v: &LoadedVariant,
    sfen: &str,
    moves: &str,
    dm: DropMate,
    json: bool,
    printer: &Printer,
) -> i32 {
    use crate::shogi::variant::{repetition_end, side_name, Over};
    let mut p = match start(v, sfen, "", dm, printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    // the moves in turn, the game's positions kept for its repetition rule
    let mut history = vec![p.clone()];
    let mut ended = None;
    for (i, m) in moves.split_whitespace().enumerate() {
        if ended.is_some() {
            return printer.fail(
                Diag::error(
                    code::BAD_MOVE,
                    format!(
                        "move {} `{m}`: the game ended by repetition at move {i}",
                        i + 1
                    ),
                )
                .help("a position that occurs the rule's number of times ends the game (千日手)"),
            );
        }
        match p.parse_move(m, dm) {
            Ok(mv) => p.do_move(mv),
            Err(e) => return printer.fail(bad_move(i, m, &e)),
        };
        history.push(p.clone());
        ended = repetition_end(&history);
    }
    let n = moves.split_whitespace().count();
    let to_move = p.side;
    let (over, winner, reason) = match (ended, p.over()) {
        (Some(end), _) => (
            true,
            end.winner,
            if end.perpetual_check {
                "a perpetual check (連続王手の千日手): the side that checked throughout loses"
            } else {
                "a repetition (千日手): the position occurred the rule's number of times"
            },
        ),
        (None, over) => match over {
            Some(Over::RoyalLost(s)) => (true, Some(s ^ 1), "the royal piece captured"),
            Some(Over::Try(s)) => (
                true,
                Some(s),
                "a try: the royal piece unattacked on the last row",
            ),
            Some(Over::BothTries) => (true, None, "both royal pieces on their last rows: a draw"),
            None if p.legal_moves(dm).is_empty() => (
                true,
                Some(to_move ^ 1),
                if p.in_check(to_move) {
                    "mate"
                } else {
                    "no legal move"
                },
            ),
            None => (false, None, "the game goes on"),
        },
    };
    if json {
        let report = BoardGameReport {
            moves: moves.split_whitespace().map(String::from).collect(),
            over,
            winner: winner.map(|w| if w == 0 { "b" } else { "w" }),
            reason: reason.to_string(),
            sfen: p.to_sfen(),
            engine: compiled_notice(v),
        };
        outln!("{}", crate::json::text(&report));
    } else {
        outln!("{n} move{}", if n == 1 { "" } else { "s" });
        match winner {
            Some(w) => outln!("{} wins: {reason}", side_name(w)),
            None => outln!("{reason}"),
        }
    }
    0
}

/// `okite eval` under a variant: the expression with `s` bound to the position as
/// rules/variants/board.rule holds it, under the variant's reading.
pub(super) fn eval(
    mut v: LoadedVariant,
    expr: &str,
    sfen: &str,
    moves: &str,
    json: bool,
    printer: &Printer,
) -> i32 {
    let bound = match bound_state(&v, sfen, moves, printer) {
        Ok(b) => b,
        Err(c) => return c,
    };
    let rname = v.reading_name.clone();
    match super::query::eval_with_bound(
        &mut v.program,
        expr,
        bound,
        crate::natives::Engine::Native,
        Some(&rname),
        printer,
        None,
    ) {
        Ok(val) => {
            if json {
                let room = super::common::json_room(crate::eval::DEFAULT_MAX_RESIDENT_MB << 20);
                if let Some(d) = super::common::json_refusal(&val, room) {
                    return printer.fail(d);
                }
                let report = crate::commands::report::query::Value {
                    value: crate::json::raw(super::common::to_json(&val)),
                };
                outln!("{}", crate::json::text(&report));
            } else {
                outln!("{}", crate::front::display_value(&val));
            }
            0
        }
        Err(c) => c,
    }
}

/// `okite eval --variant NAME`.
pub(super) fn eval_command(args: super::args::EvalArgs) -> i32 {
    let printer = Printer::new(&args.q.out);
    match requested(args.variant.as_deref(), &args.q.rules, None, &printer) {
        Ok(Asked::Board(v)) => eval(
            v,
            &args.expr,
            args.q.sfen.as_deref().unwrap_or("startpos"),
            args.q.moves.as_deref().unwrap_or(""),
            args.json,
            &printer,
        ),
        // only called with `--variant`, which names a board variant or fails
        Ok(Asked::Shogi(_)) => super::query::eval(args),
        Err(c) => c,
    }
}

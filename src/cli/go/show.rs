//! A graph and a board drawn: `okite go show`.

use super::*;
use crate::diagnostics::code;

pub(super) fn run(a: GoShowArgs) -> i32 {
    use crate::go;
    let GoShowArgs {
        graph,
        dot,
        sgf,
        moves,
        json,
    } = a;
    let (graph, g, mut b) = match &sgf {
        Some(path) => match sgf_game(graph.as_deref(), path, false) {
            Ok((spec, g, _, game)) => (spec, g, game.board),
            Err(c) => return c,
        },
        None => {
            let spec = graph.unwrap_or_default();
            match go_graph(&spec) {
                Ok(g) => (spec, g, go::board::Board::empty()),
                Err(c) => return c,
            }
        }
    };
    if let Some(ms) = moves {
        let rules = match go::rules::Rules::preset("seed") {
            Ok(r) => r,
            Err(e) => return go_error("seed", "--reading", &e),
        };
        let mut game =
            match go::rules::Game::from_board(g.clone(), rules, b, go::board::Color::Black) {
                Ok(gm) => gm,
                Err(e) => return go_error(&ms, "--moves", &e),
            };
        // a bad move is shown in the text of --moves
        let mut sources = SourceMap::default();
        let id = sources.add("--moves", None, ms.clone());
        let bad = |part: &str, message: String, help: &str| {
            let start = part.as_ptr() as usize - ms.as_ptr() as usize;
            Printer::auto().fail_in(
                Diag::error(code::BAD_GO_MOVE, message)
                    .label(Span::new(id, start, start + part.len()), "this move")
                    .help(help),
                &sources,
            )
        };
        let form = "moves alternate from Black: `B v`, `W v` or `B pass`, separated by commas";
        for part in ms.split(',').map(|p| p.trim()).filter(|p| !p.is_empty()) {
            let mut it = part.split_whitespace();
            let color = match it.next() {
                Some("B") | Some("b") => go::board::Color::Black,
                Some("W") | Some("w") => go::board::Color::White,
                _ => {
                    return bad(
                        part,
                        format!("bad move `{part}`: a move is `B v`, `W v` or `B pass`"),
                        form,
                    );
                }
            };
            let mv = match it.next() {
                Some("pass") => go::rules::Move::Pass,
                Some(name) => match g.vertex(name) {
                    Some(v) => go::rules::Move::Place(v),
                    None => {
                        return bad(
                            part,
                            format!("bad move `{part}`: `{name}` is not a vertex of the graph"),
                            "vertices are named as `okite go show --graph ...` draws them",
                        );
                    }
                },
                None => {
                    return bad(
                        part,
                        format!("bad move `{part}`: a move names a vertex or `pass`"),
                        form,
                    );
                }
            };
            if let Err(e) = game.play(color, mv) {
                return bad(
                    part,
                    format!("illegal move `{part}`: {}", e.message),
                    &e.help,
                );
            }
        }
        b = game.board;
    }
    if json {
        outln!("{}", board_json(&graph, &g, &b));
    } else if dot {
        out!("{}", go::render::dot(&g, &b));
    } else {
        out!("{}", go::render::diagram(&g, &b));
    }
    0
}

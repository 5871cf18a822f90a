#![forbid(unsafe_code)]
//! The games of a session: a shogi game set with `:sfen` and played on with `:moves`, a Go game
//! on a graph with `:go`, and their legal moves (`:legal`).

use super::*;
use crate::diagnostics::code;

impl Session {
    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    pub(super) fn game_note(&self) {
        if let Some(sg) = &self.shogi {
            println!(
                "game of {} position{}, now sfen {}; g and i bound (i = {})",
                sg.positions.len(),
                if sg.positions.len() == 1 { "" } else { "s" },
                sg.positions.last().expect("a position").to_sfen(),
                sg.positions.len()
            );
        }
    }

    /// Play USI moves (any move of the one-step transition: the rules judge them) on `from`;
    /// errors point into the input line.
    pub(super) fn play(
        &mut self,
        from: Vec<Position>,
        moves_text: &[(usize, &str)],
        line: &str,
    ) -> Option<(Vec<Position>, Vec<String>)> {
        let fid = self.input_source(line);
        let mut rules = crate::front::MovesOfRules::new(&self.prog, self.reading_id());
        match crate::front::play_pseudo(from, moves_text, fid, Some(&mut rules)) {
            Ok(ps) => Some((ps, moves_text.iter().map(|(_, t)| t.to_string()).collect())),
            Err(d) => {
                self.diags(&[d], &self.prog.sources);
                None
            }
        }
    }

    pub(super) fn set_sfen(&mut self, arg: &str, line: &str, off: usize) -> Flow {
        if self.states_variant() {
            return self.set_board_sfen(arg, line, off);
        }
        let toks = tokens(arg, off);
        if toks.is_empty() {
            fail!(
                self,
                "error: :sfen needs a position: an SFEN or `startpos`, and moves"
            );
            return Flow::Continue;
        }
        let (sfen, sfen_at, rest) = sfen_and_moves(&toks, line);
        let start = match Position::from_sfen(&sfen) {
            Ok(p) => p,
            Err(errs) => {
                let fid = self.input_source(line);
                let ds: Vec<Diag> = errs
                    .0
                    .iter()
                    .map(|e| {
                        let s = sfen_at + e.offset;
                        Diag::error(code::BAD_SFEN, format!("bad SFEN: {}", e.message))
                            .label(Span::new(fid, s, s + e.len.max(1)), "here")
                            .help(e.help.clone())
                    })
                    .collect();
                self.diags(&ds, &self.prog.sources);
                return Flow::Continue;
            }
        };
        if let Some((positions, moves)) = self.play(vec![start], rest, line) {
            self.shogi = Some(ShogiGame { positions, moves });
            self.current = Some(Current::Shogi);
            self.game_note();
        }
        Flow::Continue
    }

    pub(super) fn play_moves(&mut self, arg: &str, line: &str, off: usize) -> Flow {
        if self.states_variant() {
            return self.board_moves(arg, line, off);
        }
        let toks = tokens(arg, off);
        if toks.is_empty() {
            match &self.shogi {
                Some(sg) if !sg.moves.is_empty() => println!("{}", sg.moves.join(" ")),
                Some(_) => println!("(no moves played)"),
                None => fail!(self, "error: no shogi game yet: set one with :sfen"),
            }
            return Flow::Continue;
        }
        let from = match &self.shogi {
            Some(sg) => sg.positions.clone(),
            None => vec![Position::from_sfen("startpos").unwrap_or_else(|_| panic!("startpos"))],
        };
        let before = self
            .shogi
            .as_ref()
            .map(|s| s.moves.clone())
            .unwrap_or_default();
        if let Some((positions, moves)) = self.play(from, &toks, line) {
            let mut all = before;
            all.extend(moves);
            self.shogi = Some(ShogiGame {
                positions,
                moves: all,
            });
            self.current = Some(Current::Shogi);
            self.game_note();
        }
        Flow::Continue
    }

    pub(super) fn set_go(&mut self, arg: &str, line: &str, off: usize) -> Flow {
        let toks = tokens(arg, off);
        let Some(&(at, spec)) = toks.first() else {
            fail!(self, "error: :go needs a graph: grid:MxN, path:N, cycle:N, complete:N, star:N or edges:FILE");
            return Flow::Continue;
        };
        let graph = match Graph::parse(spec) {
            Ok(g) => g,
            Err(e) => {
                let fid = self.input_source(line);
                let o = at
                    + e.span
                        .as_ref()
                        .map(|s| s.offset)
                        .filter(|o| *o < spec.len())
                        .unwrap_or(0);
                let d = Diag::error(code::BAD_GRAPH, e.message.clone())
                    .help(e.help.clone())
                    .label(Span::new(fid, o, o + 1), "here");
                self.diags(&[d], &self.prog.sources);
                return Flow::Continue;
            }
        };
        let mut board = Board::empty();
        let mut to_move = Color::Black;
        let mut moves = vec![];
        // the moves alternate from Black (`A1 B2 pass`), or each names its colour as on the
        // command line (`B A1, W B2, B pass`)
        let listed: Vec<(usize, &str, Option<Color>)> = match coloured_moves(&graph, &toks[1..]) {
            Some(ms) => ms,
            None => toks[1..].iter().map(|&(at, t)| (at, t, None)).collect(),
        };
        for &(at, tok, colour) in &listed {
            if let Some(c) = colour {
                to_move = c;
            }
            if tok == "pass" {
                to_move = to_move.opponent();
                moves.push(tok.to_string());
                continue;
            }
            let v = graph.vertex(tok).or_else(|| {
                tok.parse::<usize>()
                    .ok()
                    .filter(|k| *k >= 1 && *k <= graph.n)
                    .map(|k| k - 1)
            });
            let r = match v {
                Some(v) => board
                    .play(&graph, v, to_move, false)
                    .map_err(|e| e.to_string()),
                None => {
                    Err("not a vertex of the graph (give its name, or its number 1..n)".to_string())
                }
            };
            match r {
                Ok((b, _)) => {
                    board = b;
                    to_move = to_move.opponent();
                    moves.push(tok.to_string());
                }
                Err(why) => {
                    let fid = self.input_source(line);
                    let d = Diag::error(code::BAD_GO_MOVE, format!("bad move `{tok}`: {why}"))
                        .label(Span::new(fid, at, at + tok.len()), format!("move {}", moves.len() + 1))
                        .help("moves alternate from Black: vertex names (as :board shows them) or `pass`");
                    self.diags(&[d], &self.prog.sources);
                    return Flow::Continue;
                }
            }
        }
        let shown: Vec<&str> = graph.names.iter().take(12).map(|s| s.as_str()).collect();
        println!(
            "Go board on {} vertices, {} played; G and c bound (G's vertices 1..{} are {}{})",
            graph.n,
            count(moves.len(), "move"),
            graph.n,
            shown.join(" "),
            if graph.n > shown.len() { " …" } else { "" }
        );
        self.go = Some(GoGame {
            graph,
            board,
            to_move,
            moves,
        });
        self.current = Some(Current::Go);
        Flow::Continue
    }

    /// The legal moves of the current shogi position: the successors that `legal(g, i)` of the
    /// rules keeps under the current reading.
    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    pub(super) fn legal(&mut self, ev: &mut Evaluator) {
        if self.current == Some(Current::Go) {
            self.go_legal();
            return;
        }
        if self.states_variant() {
            self.board_legal();
            return;
        }
        let Some(sg) = &self.shogi else {
            fail!(
                self,
                "error: no shogi game yet: set one with :sfen, :moves or :kif"
            );
            return;
        };
        let last = sg.positions.last().expect("a position").clone();
        let names = match crate::natives::shogi::Names::new(&NativeCtx { enums: &self.prog }) {
            Ok(n) => n,
            Err(m) => {
                fail!(
                    self,
                    "error: the rules loaded cannot hold shogi states: {m}"
                );
                return;
            }
        };
        if self.prog.key_of("legal").is_none() {
            fail!(
                self,
                "error: the rules loaded have no `legal(g, i)`; load rules/shogi_mate.rule"
            );
            return;
        }
        let text = "legal(g, i)";
        let fid = self.add_source("<:legal>".into(), text);
        let Ok(e) = parse_expr(text, fid) else {
            return;
        };
        let Some(q) = self.compile_expr(&e) else {
            return;
        };
        match interruptible(ev, |ev| ev.eval_query(&q)) {
            Ok(Value::Set(legal)) => {
                // each successor the rules keep, named by the move that makes it: a variant's
                // own moves (a silver stepping sideways) as well as the shipped ones
                let mut ms = match names.moves_to(&last, legal.iter()) {
                    Ok(ms) => ms.iter().map(|m| m.to_usi()).collect::<Vec<_>>(),
                    Err(m) => {
                        fail!(self, "error: {m}");
                        return;
                    }
                };
                ms.sort();
                if ms.is_empty() {
                    println!("(no legal move under {})", self.reading);
                } else {
                    println!("{}", ms.join(" "));
                }
                println!(
                    "{} legal moves under the reading {}",
                    ms.len(),
                    self.reading
                );
            }
            Ok(_) => fail!(self, "error: `legal(g, i)` did not give a set of states"),
            Err(e) => self.eval_error(e, ev),
        }
    }

    /// The points where the side to move may play on the Go board (suicide of more than one
    /// stone allowed under the reading `suicide`), and pass.
    #[expect(
        clippy::expect_used,
        reason = "the command runs only when the session holds a game"
    )]
    pub(super) fn go_legal(&self) {
        let go = self.go.as_ref().expect("a board");
        let suicide = self.reading == "suicide";
        let mut ms: Vec<&str> = (0..go.graph.n)
            .filter(|&v| go.board.play(&go.graph, v, go.to_move, suicide).is_ok())
            .map(|v| go.graph.names[v].as_str())
            .collect();
        ms.push("pass");
        println!("{}", ms.join(" "));
        println!(
            "{} legal moves for {} ({})",
            ms.len(),
            if go.to_move == Color::Black {
                "Black (X)"
            } else {
                "White (O)"
            },
            if suicide {
                "suicide allowed"
            } else {
                "no suicide"
            }
        );
    }
}

/// The moves of `:go` written with their colours, as the command line takes them (`B A1, W B2,
/// B pass`): each with its offset in the line, its vertex or `pass`, and its colour. `None` when
/// they are written without colours.
fn coloured_moves<'a>(
    graph: &Graph,
    toks: &[(usize, &'a str)],
) -> Option<Vec<(usize, &'a str, Option<Color>)>> {
    let colour = |t: &str| match t {
        "B" | "b" => Some(Color::Black),
        "W" | "w" => Some(Color::White),
        _ => None,
    };
    let first = toks.first()?.1.trim_end_matches(',');
    colour(first).filter(|_| graph.vertex(first).is_none())?;
    let mut out = vec![];
    let mut pending: Option<Color> = None;
    for &(at, tok) in toks {
        let word = tok.trim_end_matches(',');
        if word.is_empty() {
            continue;
        }
        match pending.take() {
            None => match colour(word) {
                Some(c) => pending = Some(c),
                // a vertex without its colour: reported as a move that is not a vertex
                None => out.push((at, &tok[..word.len()], None)),
            },
            Some(c) => out.push((at, &tok[..word.len()], Some(c))),
        }
    }
    Some(out)
}

#![forbid(unsafe_code)]
//! A board variant's game in a session. When the rules loaded state a variant's tables
//! (rules/variants/board.rule and the files built on it), `:sfen`, `:moves`, `:board` and
//! `:legal` read and play positions in the variant's geometry with the engine compiled from its
//! tables under the session's reading, as `okite legal --variant` does, and `s` is bound to the
//! position as the core's `State`.

use super::*;
use crate::diagnostics::code;
use crate::shogi::variant::{DropMate, VPos, Variant};

/// What `:moves` and `:legal` say before `:sfen` set a game of the variant.
const NO_GAME: &str = "error: no game of the variant yet: set one with :sfen (`:sfen startpos`)";

/// A game of a board variant: the engine compiled when it was set, its positions and moves.
pub(super) struct BoardGame {
    variant: Variant,
    /// The reading the variant was compiled under.
    reading: String,
    positions: Vec<VPos>,
    moves: Vec<String>,
}

impl Session {
    /// Whether the rules loaded state a board variant's tables: `:sfen` then reads its geometry.
    pub(super) fn states_variant(&self) -> bool {
        crate::variants::states_tables(&self.prog)
    }

    /// The variant the rules state under the session's reading, compiled; why not is reported.
    /// The tables are asked of the program by queries of their own, whose sources are dropped
    /// afterwards (the session's sources and its program's stay in step).
    fn compiled(&mut self) -> Option<Variant> {
        let rid = self.reading_id();
        let before = self.prog.sources.files.len();
        let made = crate::variants::compile(&mut self.prog, rid).and_then(|spec| {
            Variant::new(spec).map_err(|e| {
                Diag::error(crate::variants::BAD_VARIANT, e.0)
                    .help("the variant's tables do not make a board; `okite check` the files")
            })
        });
        if let Err(d) = &made {
            self.diags(std::slice::from_ref(d), &self.prog.sources);
        }
        self.prog.sources.files.truncate(before);
        made.ok()
    }

    /// `:sfen SFEN|startpos [moves ...]` in the variant's geometry.
    pub(super) fn set_board_sfen(&mut self, arg: &str, line: &str, off: usize) -> Flow {
        let toks = tokens(arg, off);
        if toks.is_empty() {
            fail!(
                self,
                "error: :sfen needs a position: an SFEN of the variant's board or `startpos`, and moves"
            );
            return Flow::Continue;
        }
        let Some(variant) = self.compiled() else {
            self.errors.set(self.errors.get() + 1);
            return Flow::Continue;
        };
        let (sfen, sfen_at, rest) = sfen_and_moves(&toks, line);
        let start = match variant.position(&sfen) {
            Ok(p) => p,
            Err(e) => {
                let fid = self.input_source(line);
                let s = sfen_at + e.offset.min(sfen.len());
                let d = Diag::error(
                    code::BAD_SFEN,
                    format!("bad SFEN for {}: {}", variant.name(), e.message),
                )
                .label(Span::new(fid, s, s + e.len.max(1)), "here")
                .help(e.help.clone());
                self.diags(&[d], &self.prog.sources);
                return Flow::Continue;
            }
        };
        let reading = self.reading.clone();
        let mut game = BoardGame {
            variant,
            reading,
            positions: vec![start],
            moves: vec![],
        };
        if self.play_board(&mut game, rest, line) {
            self.board = Some(game);
            self.current = Some(Current::Board);
            self.board_note();
        }
        Flow::Continue
    }

    /// `:kif FILE` under the variant: a KIF record of it (where its tables name its pieces in
    /// KIF, as minishogi's and kyoto shogi's do), its start and every move played. `:csa` is
    /// refused: the CSA format writes the 9 x 9 board only.
    pub(super) fn board_record(&mut self, cmd: &str, arg: &str) -> Flow {
        if cmd == "csa" {
            fail!(
                self,
                "error: :csa reads 9 x 9 records only, and the rules loaded state a board variant: give its game with :kif (where the variant defines KIF) or :sfen"
            );
            return Flow::Continue;
        }
        let Some(variant) = self.compiled() else {
            self.errors.set(self.errors.get() + 1);
            return Flow::Continue;
        };
        let t = variant.tables.clone();
        let read = crate::front::read_record_with(std::path::Path::new(arg.trim()), |text| {
            crate::shogi::variant::read_kif(&t, text, DropMate::Illegal)
        });
        let record = match read {
            Ok((r, _, _)) => r,
            Err((sources, ds)) => {
                self.diags(&ds, &sources);
                return Flow::Continue;
            }
        };
        let mut p = record.start.clone();
        let mut game = BoardGame {
            variant,
            reading: self.reading.clone(),
            positions: vec![p.clone()],
            moves: vec![],
        };
        // each was read as a legal move of its position
        for m in record.moves {
            p.do_move(m.mv);
            game.positions.push(p.clone());
            game.moves.push(m.usi);
        }
        self.board = Some(game);
        self.current = Some(Current::Board);
        self.board_note();
        Flow::Continue
    }

    /// `:moves [MOVE ...]` in the variant's game: without moves, the moves played.
    pub(super) fn board_moves(&mut self, arg: &str, line: &str, off: usize) -> Flow {
        let toks = tokens(arg, off);
        let Some(mut game) = self.board.take() else {
            fail!(self, "{NO_GAME}");
            return Flow::Continue;
        };
        if toks.is_empty() {
            if game.moves.is_empty() {
                println!("(no moves played)");
            } else {
                println!("{}", game.moves.join(" "));
            }
        } else if self.play_board(&mut game, &toks, line) {
            self.current = Some(Current::Board);
            self.board = Some(game);
            self.board_note();
            return Flow::Continue;
        }
        self.board = Some(game);
        Flow::Continue
    }

    /// Play moves in the variant's notation on a game: all of them, or none (the first that
    /// does not read or is not legal is reported, pointed at in the input line).
    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    fn play_board(&mut self, game: &mut BoardGame, toks: &[(usize, &str)], line: &str) -> bool {
        let mut positions = game.positions.clone();
        let mut moves = vec![];
        for (k, &(at, text)) in toks.iter().enumerate() {
            let mut p = positions.last().expect("a position").clone();
            match p.parse_move(text, DropMate::Illegal) {
                Ok(m) => {
                    p.do_move(m);
                    positions.push(p);
                    moves.push(text.to_string());
                }
                Err(e) => {
                    let fid = self.input_source(line);
                    let d = Diag::error(
                        code::BAD_MOVE,
                        format!("move {} `{text}`: {}", k + 1, e.message),
                    )
                    .label(Span::new(fid, at, at + text.len()), "here")
                    .help(e.help.clone());
                    self.diags(&[d], &self.prog.sources);
                    return false;
                }
            }
        }
        game.positions = positions;
        game.moves.extend(moves);
        true
    }

    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    fn board_note(&self) {
        if let Some(g) = &self.board {
            println!(
                "{} game of {} position{}, now sfen {}; s bound",
                g.variant.name(),
                g.positions.len(),
                if g.positions.len() == 1 { "" } else { "s" },
                g.positions.last().expect("a position").to_sfen(),
            );
        }
    }

    /// `:board` for the variant's game.
    #[expect(
        clippy::expect_used,
        reason = "the command runs only when the session holds a game; a game's history is never empty: it starts with the position given"
    )]
    pub(super) fn board_diagram(&self) {
        let g = self.board.as_ref().expect("a game of the variant");
        let p = g.positions.last().expect("a position");
        print!("{}", p.diagram());
        println!("sfen {}", p.to_sfen());
        println!(
            "{} under the reading {} ({} played)",
            g.variant.name(),
            g.reading,
            count(g.moves.len(), "move")
        );
    }

    /// `:legal` for the variant's game: the moves of the engine compiled from its tables.
    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    pub(super) fn board_legal(&mut self) {
        let Some(g) = &mut self.board else {
            fail!(self, "{NO_GAME}");
            return;
        };
        let p = g.positions.last_mut().expect("a position");
        let mut ms: Vec<String> = p
            .legal_moves(DropMate::Illegal)
            .into_iter()
            .map(|m| p.move_text(m))
            .collect();
        ms.sort();
        if ms.is_empty() {
            println!("(no legal move)");
        } else {
            println!("{}", ms.join(" "));
        }
        println!(
            "{} legal moves of {} under the reading {} (the engine compiled from its tables)",
            ms.len(),
            g.variant.name(),
            g.reading
        );
    }

    /// `s`, the variant's position as the core's `State`.
    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    pub(super) fn board_bound(&self) -> Result<Option<(String, Value, String)>, String> {
        let Some(g) = &self.board else {
            return Ok(None);
        };
        let p = g.positions.last().expect("a position");
        let s = crate::variants::state_value(&self.prog, p).map_err(|d| d.message)?;
        Ok(Some(("s".to_string(), s, "State".to_string())))
    }
}

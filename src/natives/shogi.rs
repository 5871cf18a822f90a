//! The bridge between rule-level shogi states and the native engine.
//!
//! A rule-level state is the pair `(post, turn)` of rules/shogi.rule: `post` maps each named piece
//! `(kind, n)` to `(place, owner)`, where a place is `on_board(column, row, face)`, `stand`, or
//! `box` (out of play: composed problems and test positions hold fewer than 40 pieces). States
//! made here are canonical: within each kind, places in ascending order are numbered 1, 2, ...
//! exactly as the rule definition `canon` numbers them. The enum constants are looked up by the
//! names the rule file declares (`Kind`, `Side`, `Turn`, `Loc`).

use super::registry::{NativeCtx, Natives};
use crate::ir::Value;
use crate::shogi::position::Position;
use crate::shogi::types::{Color, Piece, PieceKind, Square};
use std::collections::BTreeMap;
use std::rc::Rc;

/// The rule file's enum constants that states are made of.
pub struct Names {
    kinds: Vec<Value>,
    sides: [Value; 2],
    turns: [Value; 2],
    loc_ty: crate::ir::EnumId,
    on_board: (u32, Rc<str>),
    stand: Value,
    boxed: Value,
}

const KINDS: [&str; 8] = ["歩", "香", "桂", "銀", "金", "角", "飛", "玉"];
/// The unpromoted kinds, in the order of the rule file's `Kind` (the engine's discriminant order).
fn base_kind(k: usize) -> PieceKind {
    PieceKind::ALL[k]
}

impl Names {
    pub fn new(ctx: &NativeCtx) -> Result<Names, String> {
        let kinds = KINDS
            .iter()
            .map(|k| ctx.enum_value("Kind", k))
            .collect::<Result<Vec<_>, _>>()?;
        let sides = [
            ctx.enum_value("Side", "不成")?,
            ctx.enum_value("Side", "成")?,
        ];
        let turns = [
            ctx.enum_value("Turn", "先手")?,
            ctx.enum_value("Turn", "後手")?,
        ];
        let (loc_ty, on_board) = ctx
            .enums
            .enum_tag("Loc", "盤")
            .ok_or("the rules declare no constant `盤` of enum `Loc`")?;
        let stand = ctx.enum_value("Loc", "駒台")?;
        let boxed = ctx.enum_value("Loc", "箱")?;
        Ok(Names {
            kinds,
            sides,
            turns,
            loc_ty,
            on_board: (on_board, Rc::from("盤")),
            stand,
            boxed,
        })
    }

    fn turn(&self, c: Color) -> Value {
        self.turns[c.index()].clone()
    }

    fn square(&self, sq: Square, promoted: bool) -> Value {
        Value::enum_value(
            self.loc_ty,
            self.on_board.0,
            &self.on_board.1,
            vec![
                Value::Int(sq.column() as i64),
                Value::Int(sq.row() as i64),
                self.sides[promoted as usize].clone(),
            ],
        )
    }

    /// The canonical rule-level state of a position.
    pub fn state(&self, pos: &Position) -> Value {
        // (owner, place) pairs, sorted as the rule definition `canon` sorts them
        let mut places: Vec<Vec<(Value, Value)>> = vec![vec![]; 8];
        for (sq, color, kind, promoted) in pos.board_pieces() {
            let k = kind.index().min(7);
            places[k].push((self.turn(color), self.square(sq, promoted)));
        }
        for color in Color::ALL {
            for (kind, n) in pos.hand(color).iter() {
                for _ in 0..n {
                    places[kind.index()].push((self.turn(color), self.stand.clone()));
                }
            }
        }
        let mut post = BTreeMap::new();
        for (k, mut ps) in places.into_iter().enumerate() {
            let total = base_kind(k).total_count() as usize;
            while ps.len() < total {
                ps.push((self.turns[0].clone(), self.boxed.clone()));
            }
            ps.sort();
            for (i, (owner, place)) in ps.into_iter().enumerate() {
                post.insert(
                    Value::tuple(vec![self.kinds[k].clone(), Value::Int(i as i64 + 1)]),
                    Value::tuple(vec![place, owner]),
                );
            }
        }
        Value::tuple(vec![Value::map(post), self.turn(pos.side_to_move())])
    }

    /// The position a rule-level state describes.
    /// The moves that make each of the states `succ` from `last`, in the order given: every
    /// one must be a state that one move makes.
    pub fn moves_to<'a>(
        &self,
        last: &Position,
        succ: impl Iterator<Item = &'a Value>,
    ) -> Result<Vec<crate::shogi::types::Move>, String> {
        let mut out = vec![];
        for s in succ {
            let named = self.position(s).ok().and_then(|p| {
                crate::shogi::naming::move_between(last, &p).filter(|_| self.state(&p) == *s)
            });
            match named {
                Some(m) => out.push(m),
                None => {
                    let shown = self
                        .position(s)
                        .map_or_else(|_| s.to_string(), |p| p.to_sfen());
                    return Err(format!(
                        "the rules gave a successor that no one move makes: {shown}"
                    ));
                }
            }
        }
        Ok(out)
    }

    /// The colour of a value of the rules' `Turn`.
    pub fn color(&self, v: &Value) -> Result<Color, String> {
        if *v == self.turns[0] {
            Ok(Color::Black)
        } else if *v == self.turns[1] {
            Ok(Color::White)
        } else {
            Err(format!("{v} is not a turn"))
        }
    }

    pub fn position(&self, v: &Value) -> Result<Position, String> {
        let Value::Tuple(t) = v else {
            return Err(format!(
                "expected a state (post, turn), found {}",
                v.type_desc()
            ));
        };
        let (Some(Value::Map(post)), Some(turn)) = (t.first(), t.get(1)) else {
            return Err("expected a state (post, turn)".into());
        };
        let mut pos = Position::empty();
        pos.set_side_to_move(self.color(turn)?);
        let mut hands = [[0u8; 8]; 2];
        for (piece, place) in post.iter() {
            let Value::Tuple(pk) = piece else {
                return Err(format!("{piece} is not a piece"));
            };
            let k = self
                .kinds
                .iter()
                .position(|x| Some(x) == pk.first())
                .ok_or_else(|| format!("{piece} is not a piece"))?;
            let Value::Tuple(pl) = place else {
                return Err(format!("{place} is not a place and owner"));
            };
            let (Some(loc), Some(owner)) = (pl.first(), pl.get(1)) else {
                return Err(format!("{place} is not a place and owner"));
            };
            let color = self.color(owner)?;
            if *loc == self.stand {
                hands[color.index()][k] += 1;
                continue;
            }
            if *loc == self.boxed {
                continue;
            }
            let Value::Enum(e) = loc else {
                return Err(format!("{loc} is not a place"));
            };
            let (Some(Value::Int(c)), Some(Value::Int(r)), Some(face)) =
                (e.fields.first(), e.fields.get(1), e.fields.get(2))
            else {
                return Err(format!("{loc} is not a square"));
            };
            let sq = Square::new(*c as u8, *r as u8)
                .filter(|_| (1..=9).contains(c) && (1..=9).contains(r))
                .ok_or_else(|| format!("({c}, {r}) is not a square of the board"))?;
            let base = base_kind(k);
            let kind = if *face == self.sides[1] {
                base.promoted()
                    .ok_or_else(|| format!("a promoted {} does not exist", KINDS[k]))?
            } else {
                base
            };
            if pos.piece_at(sq).is_some() {
                return Err(format!("two pieces stand on ({c}, {r})"));
            }
            pos.set_piece(sq, Some(Piece::new(color, kind)));
        }
        for color in Color::ALL {
            for (k, n) in hands[color.index()].iter().enumerate().take(7) {
                pos.set_hand_count(color, base_kind(k), *n);
            }
            if hands[color.index()][7] > 0 {
                return Err("a king cannot be in hand".into());
            }
        }
        Ok(pos)
    }
}

fn str_arg(v: &Value) -> Result<&str, String> {
    match v {
        Value::Str(s) => Ok(s),
        v => Err(format!("expected a string, found {}", v.type_desc())),
    }
}

/// A game (the list of positions) from an SFEN and USI moves, or a message naming the problem.
pub fn game_positions(sfen: &str, moves: &str) -> Result<Vec<Position>, String> {
    let pos = Position::from_sfen(sfen).map_err(|e| format!("bad SFEN: {e}"))?;
    let mut out = vec![pos];
    for (i, tok) in moves.split_whitespace().enumerate() {
        let Some(cur) = out.last() else { break };
        // any move of the one-step transition: the rules decide which are forbidden
        let next = cur
            .after_pseudo_usi(tok)
            .map_err(|why| format!("move {} `{tok}` {why}", i + 1))?;
        out.push(next);
    }
    Ok(out)
}

/// A rule-level shogi state as `sfen(...)`; `None` for any other value.
pub fn format_state(ctx: &NativeCtx, v: &Value) -> Option<String> {
    state_sfen(ctx, v).map(|s| format!("sfen({s})"))
}

/// The SFEN of a rule-level shogi state; `None` for any other value.
pub fn state_sfen(ctx: &NativeCtx, v: &Value) -> Option<String> {
    // only pairs (map, turn) can be states
    let Value::Tuple(t) = v else { return None };
    if t.len() != 2 || !matches!(t[0], Value::Map(_)) {
        return None;
    }
    let names = Names::new(ctx).ok()?;
    let pos = names.position(v).ok()?;
    Some(pos.to_sfen())
}

pub fn register(h: &mut Natives) {
    register_states(h);
    register_pieces(h);
    register_searches(h);
    register_samples(h);
}

/// States, SFEN, diagrams, games and successors.
fn register_states(h: &mut Natives) {
    h.add(
        "shogi.state",
        1,
        "the state of an SFEN (or `startpos`)",
        |ctx, a| {
            let names = Names::new(ctx)?;
            let pos = Position::from_sfen(str_arg(&a[0])?).map_err(|e| format!("bad SFEN: {e}"))?;
            Ok(names.state(&pos))
        },
    );
    h.add("shogi.sfen", 1, "the SFEN of a state", |ctx, a| {
        let names = Names::new(ctx)?;
        Ok(Value::str(&names.position(&a[0])?.to_sfen()))
    });
    h.add(
        "shogi.diagram",
        1,
        "a kanji diagram of a state",
        |ctx, a| {
            let names = Names::new(ctx)?;
            Ok(Value::str(&names.position(&a[0])?.diagram()))
        },
    );
    h.add(
        "shogi.game",
        2,
        "game(sfen, moves): the states of a game from an SFEN and USI moves",
        |ctx, a| {
            let names = Names::new(ctx)?;
            let ps = game_positions(str_arg(&a[0])?, str_arg(&a[1])?)?;
            Ok(Value::seq(ps.iter().map(|p| names.state(p)).collect()))
        },
    );
    h.add(
        "shogi.successors",
        1,
        "the pseudo-legal successors of a state (→β1), as canonical states",
        |ctx, a| {
            let names = Names::new(ctx)?;
            let pos = names.position(&a[0])?;
            Ok(Value::set(
                pos.pseudo_legal_moves()
                    .into_iter()
                    .map(|m| names.state(&pos.after(m)))
                    .collect(),
            ))
        },
    );
}

/// What the pieces of a state do: check, points, the pieces in the enemy camp, targets.
fn register_pieces(h: &mut Natives) {
    h.add(
        "shogi.in_check",
        2,
        "in_check(s, o): o's king is attacked by a piece of the other side",
        |ctx, a| {
            let names = Names::new(ctx)?;
            let pos = names.position(&a[0])?;
            let color = names.color(&a[1])?;
            Ok(Value::Bool(pos.is_king_attacked(color)))
        },
    );
    for (name, what, f) in [
        (
            "shogi.points",
            "points(s, o): the points of o's pieces on the board and in hand (飛 角 5, the king 0, others 1)",
            crate::shogi::impasse::points as fn(&Position, Color) -> u32,
        ),
        (
            "shogi.declaration_points",
            "declaration_points(s, o): the points of o's pieces in hand and in the enemy camp",
            crate::shogi::impasse::declaration_points,
        ),
        (
            "shogi.camp_pieces",
            "camp_pieces(s, o): o's pieces other than the king in the enemy camp",
            crate::shogi::impasse::camp_pieces,
        ),
    ] {
        h.add(name, 2, what, move |ctx, a| {
            let names = Names::new(ctx)?;
            let pos = names.position(&a[0])?;
            let color = names.color(&a[1])?;
            Ok(Value::Int(i64::from(f(&pos, color))))
        });
    }
    h.add(
        "shogi.targets",
        2,
        "targets(s, p): the squares the piece p attacks (none from the stand)",
        |ctx, a| {
            let names = Names::new(ctx)?;
            let pos = names.position(&a[0])?;
            let Value::Tuple(t) = &a[0] else {
                return Err("expected a state".into());
            };
            let Some(Value::Map(post)) = t.first() else {
                return Err("expected a state".into());
            };
            let place = post
                .get(&a[1])
                .ok_or_else(|| format!("{} is not a piece of the state", a[1]))?;
            let Value::Tuple(pl) = place else {
                return Err(format!("{place} is not a place"));
            };
            let Some(Value::Enum(e)) = pl.first() else {
                return Ok(Value::set(Default::default()));
            };
            let (Some(Value::Int(c)), Some(Value::Int(r))) = (e.fields.first(), e.fields.get(1))
            else {
                return Ok(Value::set(Default::default()));
            };
            let sq = Square::new(*c as u8, *r as u8).ok_or("not a square")?;
            Ok(Value::set(
                pos.attacks_from(sq)
                    .squares()
                    .map(|x| {
                        Value::tuple(vec![
                            Value::Int(x.column() as i64),
                            Value::Int(x.row() as i64),
                        ])
                    })
                    .collect(),
            ))
        },
    );
}

/// The mate and tsume searches.
fn register_searches(h: &mut Natives) {
    h.add(
        "shogi.mate_in",
        3,
        "mate_in(g, i, n): the side to move at g[i] forces mate within n plies, checking every move (the df-pn search, narrow reading)",
        |ctx, a| {
            let names = Names::new(ctx)?;
            let Value::Seq(g) = &a[0] else {
                return Err(format!("{} is not a game", a[0]));
            };
            let (Value::Int(i), Value::Int(n)) = (&a[1], &a[2]) else {
                return Err("mate_in takes an index and a number of plies".into());
            };
            if *i < 1 || *i as usize > g.inner.len() {
                return Err(format!("index {i} is outside the game (1..{})", g.inner.len()));
            }
            if *n < 1 {
                return Ok(Value::Bool(false));
            }
            let history: Vec<Position> = g.inner[..*i as usize]
                .iter()
                .map(|v| names.position(v))
                .collect::<Result<_, _>>()?;
            let opts = crate::shogi::dfpn::MateOptions {
                max_plies: (*n).min(10_000) as u32,
                length: crate::shogi::dfpn::MateLength::Any,
                hash_mb: 16,
                max_nodes: 50_000_000,
                ..Default::default()
            };
            let r = crate::shogi::dfpn::solve_history(&history, &opts);
            match r.result {
                crate::shogi::dfpn::MateStatus::Mate => Ok(Value::Bool(true)),
                crate::shogi::dfpn::MateStatus::NoMate => Ok(Value::Bool(false)),
                crate::shogi::dfpn::MateStatus::Unknown => Err(format!(
                    "the mate search reached its limit of {} nodes without an answer",
                    r.nodes
                )),
            }
        },
    );
    h.add(
        "shogi.tsume_within",
        4,
        "tsume_within(g, i, n, c): the side to move at g[i] mates within n plies, every move a check, interpositions counted as c says (the tsume checker of src/shogi/tsume)",
        |ctx, a| {
            let names = Names::new(ctx)?;
            let pos = game_position(&names, &a[0], &a[1])?;
            let Value::Int(n) = &a[2] else {
                return Err("tsume_within takes a number of plies".into());
            };
            let f = futility(ctx, &a[3])?;
            if *n < 1 {
                return Ok(Value::Bool(false));
            }
            run_checker(|ck| ck.tsume_within(&pos, (*n).min(1000) as u32, f))
        },
    );
    h.add(
        "shogi.futile",
        4,
        "futile(g, i, s, d): the answer s at g[i], d plies left, is a futile interposition (the tsume checker of src/shogi/tsume)",
        |ctx, a| {
            let names = Names::new(ctx)?;
            let pos = game_position(&names, &a[0], &a[1])?;
            let Value::Int(d) = &a[3] else {
                return Err("futile takes a number of plies".into());
            };
            let Some(m) = pos
                .legal_moves()
                .iter()
                .copied()
                .find(|&m| names.state(&pos.after(m)) == a[2])
            else {
                return Ok(Value::Bool(false));
            };
            if *d < 0 {
                return Ok(Value::Bool(false));
            }
            run_checker(|ck| ck.futile(&pos, m, (*d).min(1000) as u32))
        },
    );
}

/// States drawn by random play.
fn register_samples(h: &mut Natives) {
    h.add(
        "shogi.sample_states",
        2,
        "sample_states(n, seed): n states reached by random legal play from the start position",
        |ctx, a| {
            let names = Names::new(ctx)?;
            let (Value::Int(n), Value::Int(seed)) = (&a[0], &a[1]) else {
                return Err("sample_states takes two integers".into());
            };
            if !(0..=100_000).contains(n) {
                return Err("sample_states draws between 0 and 100000 states".into());
            }
            let mut rng = Lcg(*seed as u64 ^ 0x9e37_79b9_7f4a_7c15);
            let mut out = vec![];
            for _ in 0..*n {
                let mut pos = Position::startpos();
                let plies = rng.below(80);
                for _ in 0..plies {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves
                        .iter()
                        .nth(rng.below(moves.len() as u64) as usize)
                        .copied();
                    if let Some(m) = m {
                        pos = pos.after(m);
                    }
                }
                out.push(names.state(&pos));
            }
            Ok(Value::seq(out))
        },
    );
}

/// A small deterministic generator for samples.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }
}

/// Positions the tsume checker visits for one question of the rules before it gives up.
const TSUME_NODES: u64 = 20_000_000;

/// The position g[i] of a game.
fn game_position(names: &Names, g: &Value, i: &Value) -> Result<Position, String> {
    let Value::Seq(g) = g else {
        return Err(format!("{g} is not a game"));
    };
    let Value::Int(i) = i else {
        return Err(format!("{i} is not an index"));
    };
    if *i < 1 || *i as usize > g.inner.len() {
        return Err(format!(
            "index {i} is outside the game (1..{})",
            g.inner.len()
        ));
    }
    names.position(&g.inner[*i as usize - 1])
}

/// How the rules' `Interpositions` constant `c` counts interpositions.
fn futility(ctx: &NativeCtx, c: &Value) -> Result<crate::shogi::tsume::Futility, String> {
    use crate::shogi::tsume::Futility;
    if *c == ctx.enum_value("Interpositions", "全合算")? {
        Ok(Futility::Strict)
    } else if *c == ctx.enum_value("Interpositions", "無駄合不算")? {
        Ok(Futility::Common)
    } else {
        Err(format!("{c} is not a way of counting interpositions"))
    }
}

/// Runs the tsume checker of src/shogi/tsume with the node budget of the bindings; a stop is the
/// binding's error.
fn run_checker<E: std::fmt::Display>(
    f: impl FnOnce(&mut crate::shogi::tsume::Checker) -> Result<bool, E>,
) -> Result<Value, String> {
    let mut ck = crate::shogi::tsume::Checker::new(TSUME_NODES, 0);
    f(&mut ck)
        .map(Value::Bool)
        .map_err(|s| format!("the tsume checker stopped: {s}"))
}

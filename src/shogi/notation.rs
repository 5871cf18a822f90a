//! Moves written in Japanese, as KIF and KI2 records write them: `７六歩(77)`, `同　銀(31)`,
//! `４五角打`, `２二角成(88)`, and without their origin, `▲５八金右`, `△同　歩`, `53玉`.
//!
//! A move without its origin names its piece by the way it moves, from the mover's side of the
//! board (the JSA's notation, 棋譜の表記方法): `右` / `左` the piece further right / left, `直`
//! the piece that moves straight forward, `上` (also `行`) a piece that moves forward, `引` one
//! that moves back, `寄` one that moves sideways; `成` / `不成` (also `生`) whether it promotes, and
//! `打` a drop where a piece on the board could also move to the square (without `打` and with no
//! piece that can move there, a held piece is dropped). `同` names the square of the move before.
//!
//! Reading a move is not judging it: a move of the pieces is kept even where the rules forbid it
//! (two pawns on a file, a pawn drop that mates, the own king left in check, a piece with nowhere
//! to go), and only moves the pieces cannot make are told apart ([`Played::Unplayable`]).

use super::position::Position;
use super::types::{Color, Move, PieceKind, Square};

/// A digit of a square: full-width (`７`), kanji (`七`) or ASCII (`7`).
pub fn kanji_digit(c: char) -> Option<u8> {
    let full = "１２３４５６７８９";
    let kan = "一二三四五六七八九";
    if let Some(i) = full.chars().position(|x| x == c) {
        return Some(i as u8 + 1);
    }
    if let Some(i) = kan.chars().position(|x| x == c) {
        return Some(i as u8 + 1);
    }
    if c.is_ascii_digit() && c != '0' {
        return Some(c as u8 - b'0');
    }
    None
}

/// A square as KIF writes it (`７六`).
pub fn kanji_square(sq: Square) -> String {
    let full = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
    let kan = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    format!(
        "{}{}",
        full[sq.column() as usize - 1],
        kan[sq.row() as usize - 1]
    )
}

/// A kanji piece name at the start of `s`: the kind and the number of bytes used.
pub fn kif_piece(s: &str) -> Option<(PieceKind, usize)> {
    const NAMES: [(&str, PieceKind); 20] = [
        ("成香", PieceKind::ProLance),
        ("成桂", PieceKind::ProKnight),
        ("成銀", PieceKind::ProSilver),
        ("歩", PieceKind::Pawn),
        ("香", PieceKind::Lance),
        ("桂", PieceKind::Knight),
        ("銀", PieceKind::Silver),
        ("金", PieceKind::Gold),
        ("角", PieceKind::Bishop),
        ("飛", PieceKind::Rook),
        ("玉", PieceKind::King),
        ("王", PieceKind::King),
        ("と", PieceKind::ProPawn),
        ("杏", PieceKind::ProLance),
        ("圭", PieceKind::ProKnight),
        ("全", PieceKind::ProSilver),
        ("馬", PieceKind::Horse),
        ("龍", PieceKind::Dragon),
        ("竜", PieceKind::Dragon),
        ("仝", PieceKind::ProSilver),
    ];
    NAMES
        .iter()
        .find(|(n, _)| s.starts_with(n))
        .map(|&(n, k)| (k, n.len()))
}

/// The side a KI2 mark names: `▲` / `☗` 先手, `△` / `☖` 後手.
pub fn side_mark(c: char) -> Option<Color> {
    match c {
        '▲' | '☗' => Some(Color::Black),
        '△' | '☖' => Some(Color::White),
        _ => None,
    }
}

/// Which of several pieces moves, told by where it stands (`右`, `左`, `直`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Across {
    Right,
    Left,
    Straight,
}

/// Which of several pieces moves, told by its direction (`上`, `引`, `寄`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Along {
    Up,
    Back,
    Sideways,
}

/// What a written move says about promotion or a drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing: a move that does not promote, or a drop where no piece on the board can move.
    Plain,
    /// `成`.
    Promote,
    /// `不成` (`生`).
    NoPromote,
    /// `打`.
    Drop,
}

/// A move as written, before it is found on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The side a KI2 mark names (`▲`, `△`), if any.
    pub side: Option<Color>,
    /// The destination; `None` for `同` (the destination of the move before).
    pub to: Option<Square>,
    /// The piece as it stands before the move.
    pub kind: PieceKind,
    pub across: Option<Across>,
    pub along: Option<Along>,
    pub action: Action,
    /// The origin written in parentheses (`(77)`), as KIF writes it.
    pub origin: Option<Square>,
}

/// Parses one written move (`▲７六歩`, `同　銀(31)`, `５八金右`, `４五角打`, `53玉`); the text
/// is the move alone (a KIF line's time, if any, already cut off).
pub fn parse_written(s: &str) -> Result<Written, String> {
    let mut rest = s.trim();
    let mut side = None;
    if let Some(c) = rest.chars().next() {
        if let Some(sd) = side_mark(c) {
            side = Some(sd);
            rest = &rest[c.len_utf8()..];
        }
    }
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches(['　', ' ']);
        None
    } else {
        let mut cs = rest.chars();
        let (Some(a), Some(b)) = (cs.next(), cs.next()) else {
            return Err(format!("`{s}` is not a move"));
        };
        let (Some(c), Some(r)) = (kanji_digit(a), kanji_digit(b)) else {
            return Err(format!(
                "`{s}` does not start with a destination such as `７六`"
            ));
        };
        rest = &rest[a.len_utf8() + b.len_utf8()..];
        // `７六同歩`: a destination that is also the one before
        if let Some(r) = rest.strip_prefix('同') {
            rest = r.trim_start_matches(['　', ' ']);
        }
        Some(Square::new(c, r).ok_or_else(|| format!("`{s}` names no square"))?)
    };
    let (kind, used) = kif_piece(rest).ok_or_else(|| format!("`{s}` names no piece"))?;
    rest = &rest[used..];
    let mut across = None;
    let mut along = None;
    let mut action = Action::Plain;
    loop {
        let set_across = |a: Across, across: &mut Option<Across>| match across {
            None => {
                *across = Some(a);
                Ok(())
            }
            Some(_) => Err(format!("`{s}` says twice which piece moves")),
        };
        let set_along = |a: Along, along: &mut Option<Along>| match along {
            None => {
                *along = Some(a);
                Ok(())
            }
            Some(_) => Err(format!("`{s}` says twice which way the piece moves")),
        };
        let plain = action == Action::Plain;
        if let Some(r) = rest.strip_prefix('右') {
            set_across(Across::Right, &mut across)?;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('左') {
            set_across(Across::Left, &mut across)?;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('直') {
            set_across(Across::Straight, &mut across)?;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('上').or_else(|| rest.strip_prefix('行')) {
            set_along(Along::Up, &mut along)?;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('引') {
            set_along(Along::Back, &mut along)?;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('寄') {
            set_along(Along::Sideways, &mut along)?;
            rest = r;
        } else if let Some(r) = rest
            .strip_prefix("不成")
            .or_else(|| rest.strip_prefix('生'))
        {
            if !plain {
                return Err(format!("`{s}` says twice how the piece moves"));
            }
            action = Action::NoPromote;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('成') {
            if !plain {
                return Err(format!("`{s}` says twice how the piece moves"));
            }
            action = Action::Promote;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('打') {
            if !plain {
                return Err(format!("`{s}` says twice how the piece moves"));
            }
            action = Action::Drop;
            rest = r;
        } else {
            break;
        }
    }
    let rest = rest.trim();
    let origin = if rest.is_empty() {
        None
    } else {
        let inner = rest
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(|| format!("`{s}`: cannot read `{rest}`"))?;
        let b = inner.as_bytes();
        if b.len() != 2 {
            return Err(format!("`{s}` has a bad origin `({inner})`"));
        }
        Some(
            Square::new(b[0].wrapping_sub(b'0'), b[1].wrapping_sub(b'0'))
                .ok_or_else(|| format!("`{s}` has a bad origin `({inner})`"))?,
        )
    };
    if origin.is_some() && action == Action::Drop {
        return Err(format!("`{s}` is a drop with an origin"));
    }
    Ok(Written {
        side,
        to,
        kind,
        across,
        along,
        action,
        origin,
    })
}

/// A written move found in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// A move of the one-step transition (forbidden or not: the rules judge it).
    Move(Move),
    /// A move the pieces cannot make (no such piece in hand, a piece that cannot reach the
    /// square, a square held by an own piece, a promotion that is not one, the king captured),
    /// and why.
    Unplayable(Move, String),
}

/// The move `w` names in `pos` (`last_to`: the destination of the move before, for `同`); an
/// error where the record does not describe the position (no piece of that kind where it says,
/// no piece of that kind that could move there, or more than one the notation does not tell
/// apart).
pub fn resolve(pos: &Position, w: &Written, last_to: Option<Square>) -> Result<Played, String> {
    let us = pos.side_to_move();
    if let Some(side) = w.side {
        if side != us {
            return Err(format!(
                "the move is {}'s but {} is to move",
                side.kanji(),
                us.kanji()
            ));
        }
    }
    let to = match w.to {
        Some(t) => t,
        None => last_to.ok_or_else(|| "`同` with no move before".to_string())?,
    };
    let name = w.kind.kanji();
    let promote = w.action == Action::Promote;
    if w.action == Action::Drop {
        if !PieceKind::HAND.contains(&w.kind) {
            return Err(format!("a {name} cannot be held, so it cannot be dropped"));
        }
        return Ok(played(pos, Move::drop(w.kind, to)));
    }
    if let Some(from) = w.origin {
        return match pos.piece_at(from) {
            Some(p) if p.color != us => Err(format!(
                "the piece on {} is {}'s",
                kanji_square(from),
                p.color.kanji()
            )),
            Some(p) if p.kind == w.kind => Ok(played(pos, Move::board(from, to, promote))),
            Some(p) => Err(format!(
                "the piece on {} is a {}, not a {name}",
                kanji_square(from),
                p.kind.kanji()
            )),
            None => Err(format!("there is no piece on {}", kanji_square(from))),
        };
    }
    // the pieces of that kind that reach the square
    let reach: Vec<Square> = pos
        .pieces()
        .filter(|(sq, p)| p.color == us && p.kind == w.kind && pos.attacks_from(*sq).contains(to))
        .map(|(sq, _)| sq)
        .collect();
    if reach.is_empty() {
        let plain = w.action == Action::Plain && w.across.is_none() && w.along.is_none();
        if plain && PieceKind::HAND.contains(&w.kind) {
            if pos.hand(us).count(w.kind) > 0 {
                return Ok(played(pos, Move::drop(w.kind, to)));
            }
            return Err(format!(
                "no {name} of {} can move to {} and none is in hand",
                us.kanji(),
                kanji_square(to)
            ));
        }
        return Err(format!(
            "no {name} of {} can move to {}",
            us.kanji(),
            kanji_square(to)
        ));
    }
    let chosen = choose(&reach, to, us, w.across, w.along);
    match chosen.as_slice() {
        [from] => Ok(played(pos, Move::board(*from, to, promote))),
        [] => Err(format!(
            "no {name} of {} on {} moves to {} as written",
            us.kanji(),
            squares(&reach),
            kanji_square(to)
        )),
        many => Err(format!(
            "the {name}s on {} can all move to {}: write which one (右, 左, 直, 上, 引, 寄)",
            squares(many),
            kanji_square(to)
        )),
    }
}

fn squares(sqs: &[Square]) -> String {
    sqs.iter()
        .map(|s| kanji_square(*s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The origins among `from` that the words `across` and `along` leave, for a move of `us` to
/// `to`.
fn choose(
    from: &[Square],
    to: Square,
    us: Color,
    across: Option<Across>,
    along: Option<Along>,
) -> Vec<Square> {
    let fwd = |f: Square| to.relative_row(us) < f.relative_row(us);
    let mut out: Vec<Square> = from
        .iter()
        .copied()
        .filter(|&f| match along {
            None => true,
            Some(Along::Up) => fwd(f),
            Some(Along::Back) => to.relative_row(us) > f.relative_row(us),
            Some(Along::Sideways) => to.relative_row(us) == f.relative_row(us),
        })
        .collect();
    // the column further right from the mover's side: 先手's right is column 1, 後手's column 9
    let rightness = |f: Square| match us {
        Color::Black => 10 - f.column() as i32,
        Color::White => f.column() as i32,
    };
    match across {
        None => {}
        Some(Across::Straight) => out.retain(|&f| f.column() == to.column() && fwd(f)),
        Some(a) => {
            let best = match a {
                Across::Right => out.iter().map(|&f| rightness(f)).max(),
                _ => out.iter().map(|&f| rightness(f)).min(),
            };
            out.retain(|&f| Some(rightness(f)) == best);
        }
    }
    out
}

/// `m` in `pos`: a move of the one-step transition, or one the pieces cannot make and why.
pub fn played(pos: &Position, m: Move) -> Played {
    match unplayable_reason(pos, m) {
        None => Played::Move(m),
        Some(why) => Played::Unplayable(m, why),
    }
}

/// `None` if `m` is a move of the one-step transition in `pos` (the moves of the pieces, those
/// the rules forbid included); otherwise why the pieces cannot make it.
pub fn unplayable_reason(pos: &Position, m: Move) -> Option<String> {
    if pos.pseudo_legal_moves().contains(&m) {
        return None;
    }
    let us = pos.side_to_move();
    let to = m.to();
    let target = pos.piece_at(to);
    let at = kanji_square(to);
    if let Some(kind) = m.drop_kind() {
        if pos.hand(us).count(kind) == 0 {
            return Some(format!("{} has no {} in hand", us.kanji(), kind.kanji()));
        }
        if target.is_some() {
            return Some(format!("{at} is occupied"));
        }
        return Some("it is no move of this position".to_string());
    }
    let Some(from) = m.from() else {
        return Some("it is no move of this position".to_string());
    };
    let Some(piece) = pos.piece_at(from) else {
        return Some(format!("there is no piece on {}", kanji_square(from)));
    };
    if piece.color != us {
        return Some(format!(
            "the piece on {} is {}'s",
            kanji_square(from),
            piece.color.kanji()
        ));
    }
    if !pos.attacks_from(from).contains(to) {
        return Some(format!(
            "the {} on {} cannot reach {at}",
            piece.kind.kanji(),
            kanji_square(from)
        ));
    }
    match target {
        Some(t) if t.color == us => return Some(format!("{at} holds an own piece")),
        Some(t) if t.kind == PieceKind::King => return Some("it captures the king".to_string()),
        _ => {}
    }
    if m.is_promotion() {
        if !piece.kind.can_promote() {
            return Some(format!("a {} cannot promote", piece.kind.kanji()));
        }
        if !from.in_zone(us) && !to.in_zone(us) {
            return Some(format!(
                "the {} neither starts nor ends in the promotion zone, so it cannot promote",
                piece.kind.kanji()
            ));
        }
    }
    Some("it is no move of this position".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(c: u8, r: u8) -> Square {
        Square::new(c, r).unwrap()
    }

    fn one(sfen: &str, text: &str) -> Result<Played, String> {
        let p = Position::from_sfen(sfen).unwrap();
        resolve(&p, &parse_written(text)?, None)
    }

    fn mv(sfen: &str, text: &str) -> String {
        match one(sfen, text) {
            Ok(Played::Move(m)) => m.to_usi(),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn written_forms() {
        let w = parse_written("▲５八金右").unwrap();
        assert_eq!(w.side, Some(Color::Black));
        assert_eq!(w.to, Some(sq(5, 8)));
        assert_eq!(w.kind, PieceKind::Gold);
        assert_eq!(w.across, Some(Across::Right));
        let w = parse_written("同　銀(31)").unwrap();
        assert_eq!((w.to, w.origin), (None, Some(sq(3, 1))));
        let w = parse_written("△３三桂左不成").unwrap();
        assert_eq!(w.action, Action::NoPromote);
        assert_eq!(w.across, Some(Across::Left));
        assert_eq!(parse_written("53玉").unwrap().to, Some(sq(5, 3)));
        let w = parse_written("４三成銀左上").unwrap();
        assert_eq!(
            (w.kind, w.across, w.along),
            (PieceKind::ProSilver, Some(Across::Left), Some(Along::Up))
        );
        assert!(parse_written("５八金右左").is_err());
        assert!(parse_written("５八金(5)").is_err());
        assert!(parse_written("５八").is_err());
        assert!(parse_written("歩").is_err());
    }

    // Three golds of 先手 on 4i, 5i and 6i reach 5h: 右 4i, 直 5i, 左 6i (the JSA's example).
    const GOLDS: &str = "4k4/9/9/9/9/9/9/9/3GGGK2 b - 1";

    #[test]
    fn right_left_straight() {
        assert_eq!(mv(GOLDS, "５八金右"), "4i5h");
        assert_eq!(mv(GOLDS, "５八金直"), "5i5h");
        assert_eq!(mv(GOLDS, "５八金左"), "6i5h");
        let e = one(GOLDS, "５八金").unwrap_err();
        assert!(e.contains("can all move"), "{e}");
        // for 後手 right and left turn round: 後手's right is column 9
        let w = "3ggg3/9/9/9/9/9/9/9/4K4 w - 1";
        assert_eq!(mv(w, "５二金右"), "6a5b");
        assert_eq!(mv(w, "５二金左"), "4a5b");
        assert_eq!(mv(w, "５二金直"), "5a5b");
    }

    #[test]
    fn up_back_sideways() {
        // golds of 先手 on 6h (moves up to 5g) and 4g (moves sideways to 5g)
        let p = "4k4/9/9/9/9/9/5G3/3G5/4K4 b - 1";
        assert_eq!(mv(p, "５七金上"), "6h5g");
        assert_eq!(mv(p, "５七金寄"), "4g5g");
        // silvers of 先手 on 4e (moves back to 5f) and 6g (moves up to 5f)
        let p = "4k4/9/9/9/5S3/9/3S5/9/4K4 b - 1";
        assert_eq!(mv(p, "５六銀引"), "4e5f");
        assert_eq!(mv(p, "５六銀上"), "6g5f");
        // two dragons on row 2: 左 and 右 tell them apart
        let p = "4k4/+R7+R/9/9/9/9/9/9/4K4 b - 1";
        assert!(one(p, "５二竜").unwrap_err().contains("can all"));
        assert_eq!(mv(p, "５二龍右"), "1b5b");
        assert_eq!(mv(p, "５二龍左"), "9b5b");
    }

    #[test]
    fn drops_and_promotion() {
        // no bishop on the board reaches 4e: the held one is dropped
        let p = "4k4/9/9/9/9/9/9/9/4K4 b B 1";
        assert_eq!(mv(p, "４五角"), "B*4e");
        assert_eq!(mv(p, "４五角打"), "B*4e");
        // a bishop on the board reaches 4e: without 打 it moves
        let p = "4k4/9/9/9/9/9/9/1B7/4K4 b B 1";
        assert_eq!(mv(p, "５五角"), "8h5e");
        assert_eq!(mv(p, "５五角打"), "B*5e");
        let p = "4k4/9/9/9/9/9/P8/9/4K4 b - 1";
        assert_eq!(mv(p, "９六歩"), "9g9f");
        // a pawn dropped on a file with a pawn is a move of the pieces (the rules judge it)
        let p = "4k4/9/9/9/9/9/P8/9/4K4 b P 1";
        assert_eq!(mv(p, "９六歩打"), "P*9f");
        // so is one that leaves its piece nowhere to go
        let p = "4k4/P8/9/9/9/9/9/9/4K4 b - 1";
        assert_eq!(mv(p, "９一歩不成"), "9b9a");
        assert_eq!(mv(p, "９一歩成"), "9b9a+");
        // moves the pieces cannot make
        let p = "4k4/9/9/9/9/9/P8/9/4K4 b - 1";
        let Ok(Played::Unplayable(_, why)) = one(p, "９六歩成") else {
            panic!()
        };
        assert!(why.contains("promotion zone"), "{why}");
        let Ok(Played::Unplayable(_, why)) = one(p, "５五角打") else {
            panic!()
        };
        assert!(why.contains("no 角 in hand"), "{why}");
        let Ok(Played::Unplayable(_, why)) = one(p, "９五歩(97)") else {
            panic!()
        };
        assert!(why.contains("cannot reach"), "{why}");
        assert!(one(p, "５五角").unwrap_err().contains("none is in hand"));
        assert!(one(p, "９六歩(87)").unwrap_err().contains("no piece"));
        assert!(one(p, "△９六歩").unwrap_err().contains("to move"));
    }

    #[test]
    fn same_square() {
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
        let w = parse_written("同　玉").unwrap();
        assert!(resolve(&p, &w, None).is_err());
        assert_eq!(
            resolve(&p, &w, Some(sq(5, 8))),
            Ok(Played::Move(Move::board(sq(5, 9), sq(5, 8), false)))
        );
    }
}

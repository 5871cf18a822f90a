//! How a record says its game ended: CSA's `%` lines, KIF's last "moves" (`投了`, `千日手`, ...)
//! and the summary line of KIF and KI2 (`まで64手で先手の勝ち`).
//!
//! The result is what the record states, not a judgement: the record's moves are judged
//! separately (see `okite game`). Sources: the CSA standard record format V2.2 and V3.0
//! (computer-shogi.org/protocol/record_v22.html, record_v3.html, section "特殊な指し手") and
//! Kakinoki's KIF format (kakinoki.o.oo7.jp/kif_format.html).

use super::types::Color;

/// Who the record says won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// One side won.
    Win(Color),
    /// A draw (引き分け), as `%HIKIWAKE`, `%MAX_MOVES` or `引き分け` state it.
    Draw,
    /// No contest (無勝負): `千日手` and `持将棋`. Under the JSA's rules such a game is played
    /// again; other bodies score it a draw or count points: the rule sets decide.
    Replay,
    /// No result: the game was interrupted, or the record ends without deciding it.
    None,
}

impl Outcome {
    /// The name used in JSON: `black-wins`, `white-wins`, `draw`, `replay`, `none`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win(Color::Black) => "black-wins",
            Outcome::Win(Color::White) => "white-wins",
            Outcome::Draw => "draw",
            Outcome::Replay => "replay",
            Outcome::None => "none",
        }
    }
}

/// Why the record says the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `投了`, `%TORYO`: the side to move resigned.
    Resignation,
    /// `詰み`, `%TSUMI`: the side to move is mated.
    Checkmate,
    /// `千日手`, `%SENNICHITE`: fourfold repetition.
    Repetition,
    /// `持将棋`, `%JISHOGI`: both kings entered, the game ended by agreement or points.
    Impasse,
    /// `入玉勝ち`, `宣言勝ち`, `%KACHI`: the side to move declared a win (entering king).
    Declaration,
    /// `%HIKIWAKE`: the side to move declared a draw (entering king), V2.2.
    DrawDeclaration,
    /// `反則勝ち`, `反則負け`, `%ILLEGAL_MOVE`: a foul decided the game.
    Foul,
    /// `%+ILLEGAL_ACTION`, `%-ILLEGAL_ACTION`: a foul other than a move (a message out of turn,
    /// ...).
    IllegalAction,
    /// `切れ負け`, `%TIME_UP`: the side to move ran out of time.
    TimeUp,
    /// `中断`, `%CHUDAN`: the game was interrupted.
    Interrupted,
    /// `封じ手`: the game was adjourned with a sealed move, not yet played on (no result).
    Sealed,
    /// `%MAX_MOVES`: the game reached the tournament's limit of moves (V3.0).
    MaxMoves,
    /// `不戦勝`, `不戦敗`: won or lost without play.
    Default,
    /// `不詰`, `%FUZUMI`: a mating problem that has no mate.
    NoMate,
    /// `%ERROR`: the record says an error ended it.
    Error,
    /// Only the winner is stated (`まで64手で先手の勝ち` with no ending move).
    Stated,
}

impl Ending {
    /// The name used in JSON (`resignation`, `checkmate`, `repetition`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Ending::Resignation => "resignation",
            Ending::Checkmate => "checkmate",
            Ending::Repetition => "repetition",
            Ending::Impasse => "impasse",
            Ending::Declaration => "declaration",
            Ending::DrawDeclaration => "draw-declaration",
            Ending::Foul => "foul",
            Ending::IllegalAction => "illegal-action",
            Ending::TimeUp => "time-up",
            Ending::Interrupted => "interrupted",
            Ending::Sealed => "sealed-move",
            Ending::MaxMoves => "max-moves",
            Ending::Default => "default",
            Ending::NoMate => "no-mate",
            Ending::Error => "error",
            Ending::Stated => "stated",
        }
    }
}

/// The result a record states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordResult {
    /// Why the game ended.
    pub ending: Ending,
    /// Who won.
    pub outcome: Outcome,
    /// The number of moves played when the game ended.
    pub ply: usize,
    /// The words of the record (`投了`, `%TORYO`, `まで5手で先手の勝ち`).
    pub stated: String,
    /// The line (from 1) that states it.
    pub line: usize,
}

/// The ending of one of CSA's `%` words, with who won, the side to move being `to_move`
/// (`None` for a word that is not one of the format's).
pub fn csa_ending(word: &str, to_move: Color) -> Option<(Ending, Outcome)> {
    let other = Outcome::Win(to_move.flip());
    Some(match word {
        "%TORYO" => (Ending::Resignation, other),
        "%CHUDAN" => (Ending::Interrupted, Outcome::None),
        "%SENNICHITE" => (Ending::Repetition, Outcome::Replay),
        "%TIME_UP" => (Ending::TimeUp, other),
        // V3.0: "手番側の反則負け" (the side to move loses by the foul)
        "%ILLEGAL_MOVE" => (Ending::Foul, other),
        "%+ILLEGAL_ACTION" => (Ending::IllegalAction, Outcome::Win(Color::White)),
        "%-ILLEGAL_ACTION" => (Ending::IllegalAction, Outcome::Win(Color::Black)),
        "%JISHOGI" => (Ending::Impasse, Outcome::Replay),
        "%KACHI" => (Ending::Declaration, Outcome::Win(to_move)),
        "%HIKIWAKE" => (Ending::DrawDeclaration, Outcome::Draw),
        "%MAX_MOVES" => (Ending::MaxMoves, Outcome::Draw),
        "%TSUMI" => (Ending::Checkmate, other),
        "%FUZUMI" => (Ending::NoMate, Outcome::None),
        "%ERROR" => (Ending::Error, Outcome::None),
        _ => return None,
    })
}

/// The ending of a KIF ending "move" at the start of `word` (`投了`, `反則勝ち`, ...), the side to
/// move being `to_move`, with the number of bytes it takes.
pub fn kif_ending(word: &str, to_move: Color) -> Option<(Ending, Outcome, usize)> {
    let other = Outcome::Win(to_move.flip());
    let me = Outcome::Win(to_move);
    const WORDS: [&str; 14] = [
        "投了",
        "中断",
        "封じ手",
        "千日手",
        "詰み",
        "持将棋",
        "切れ負け",
        "反則勝ち",
        "反則負け",
        "入玉勝ち",
        "宣言勝ち",
        "不戦勝",
        "不戦敗",
        "不詰",
    ];
    let w = WORDS.iter().find(|w| word.starts_with(*w))?;
    let (ending, outcome) = match *w {
        "投了" => (Ending::Resignation, other),
        "中断" => (Ending::Interrupted, Outcome::None),
        "封じ手" => (Ending::Sealed, Outcome::None),
        "千日手" => (Ending::Repetition, Outcome::Replay),
        "詰み" => (Ending::Checkmate, other),
        "持将棋" => (Ending::Impasse, Outcome::Replay),
        "切れ負け" => (Ending::TimeUp, other),
        // "反則勝ち": the move before was a foul, so the side to move wins; "反則負け": the side
        // to move lost by a foul
        "反則勝ち" => (Ending::Foul, me),
        "反則負け" => (Ending::Foul, other),
        "入玉勝ち" | "宣言勝ち" => (Ending::Declaration, me),
        "不戦勝" => (Ending::Default, me),
        "不戦敗" => (Ending::Default, other),
        _ => (Ending::NoMate, Outcome::None),
    };
    Some((ending, outcome, w.len()))
}

/// A KIF or KI2 summary line, `まで64手で先手の勝ち`, `まで80手で千日手`, `まで63手で後手の反則勝ち`,
/// `まで120手で中断`: the number of moves and what it states (`None` if the line says no more
/// than the number of moves, or is not a summary). `first` is the side that made the first move
/// (who is mated after the moves follows from it).
pub fn kif_summary(line: &str, first: Color) -> Option<(usize, Option<(Ending, Outcome)>)> {
    let rest = line.trim().strip_prefix("まで")?;
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
        .map(|c| {
            if c.is_ascii_digit() {
                c
            } else {
                char::from(b'0' + (c as u32 - '０' as u32) as u8)
            }
        })
        .collect();
    let ply: usize = digits.parse().ok()?;
    let rest = &rest[rest
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || ('０'..='９').contains(&c)))
        .map_or(rest.len(), |(i, _)| i)..];
    let rest = rest.strip_prefix("手").unwrap_or(rest);
    let rest = rest.strip_prefix("で").unwrap_or(rest).trim();
    // the side named, and what follows it
    let side = [
        ("先手", Color::Black),
        ("下手", Color::Black),
        ("後手", Color::White),
        ("上手", Color::White),
    ]
    .iter()
    .find_map(|&(n, c)| rest.find(n).map(|i| (c, &rest[i + n.len()..])));
    if let Some((c, after)) = side {
        let after = after.strip_prefix('の').unwrap_or(after);
        let won = Outcome::Win(c);
        let lost = Outcome::Win(c.flip());
        let timed = rest.contains("時間切れ") || rest.contains("切れ負け");
        let stated = if after.starts_with("反則勝ち") {
            (Ending::Foul, won)
        } else if after.starts_with("反則負け") {
            (Ending::Foul, lost)
        } else if after.starts_with("入玉勝ち") || after.starts_with("宣言勝ち") {
            (Ending::Declaration, won)
        } else if after.starts_with("不戦勝") {
            (Ending::Default, won)
        } else if after.starts_with("不戦敗") {
            (Ending::Default, lost)
        } else if after.starts_with("切れ負け") {
            (Ending::TimeUp, lost)
        } else if after.starts_with("勝ち") {
            (
                if timed {
                    Ending::TimeUp
                } else {
                    Ending::Stated
                },
                won,
            )
        } else if after.starts_with("負け") {
            (
                if timed {
                    Ending::TimeUp
                } else {
                    Ending::Stated
                },
                lost,
            )
        } else {
            return Some((ply, None));
        };
        return Some((ply, Some(stated)));
    }
    let to_move = if ply.is_multiple_of(2) {
        first
    } else {
        first.flip()
    };
    let plain = [
        ("千日手", Ending::Repetition, Outcome::Replay),
        ("持将棋", Ending::Impasse, Outcome::Replay),
        ("中断", Ending::Interrupted, Outcome::None),
        ("不詰", Ending::NoMate, Outcome::None),
        ("引き分け", Ending::Stated, Outcome::Draw),
        ("詰み", Ending::Checkmate, Outcome::Win(to_move.flip())),
    ];
    for (w, e, o) in plain {
        if rest.starts_with(w) {
            return Some((ply, Some((e, o))));
        }
    }
    Some((ply, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries() {
        let b = Outcome::Win(Color::Black);
        let w = Outcome::Win(Color::White);
        assert_eq!(
            kif_summary("まで64手で先手の勝ち", Color::Black),
            Some((64, Some((Ending::Stated, b))))
        );
        assert_eq!(
            kif_summary("まで63手で後手の反則勝ち", Color::Black),
            Some((63, Some((Ending::Foul, w))))
        );
        assert_eq!(
            kif_summary("まで98手で後手の反則負け", Color::Black),
            Some((98, Some((Ending::Foul, b))))
        );
        assert_eq!(
            kif_summary("まで80手で千日手", Color::Black),
            Some((80, Some((Ending::Repetition, Outcome::Replay))))
        );
        assert_eq!(
            kif_summary("まで１２０手で中断", Color::Black),
            Some((120, Some((Ending::Interrupted, Outcome::None))))
        );
        assert_eq!(
            kif_summary("まで151手で時間切れにより先手の勝ち", Color::Black),
            Some((151, Some((Ending::TimeUp, b))))
        );
        assert_eq!(
            kif_summary("まで200手で上手の入玉勝ち", Color::Black),
            Some((200, Some((Ending::Declaration, w))))
        );
        assert_eq!(kif_summary("まで5手", Color::Black), Some((5, None)));
        assert_eq!(
            kif_summary("まで61手で詰み", Color::Black),
            Some((61, Some((Ending::Checkmate, b))))
        );
        assert_eq!(
            kif_summary("まで61手で詰み", Color::White),
            Some((61, Some((Ending::Checkmate, w))))
        );
        assert_eq!(kif_summary("まではまだ", Color::Black), None);
        assert_eq!(kif_summary("手数----", Color::Black), None);
    }

    #[test]
    fn csa_words() {
        let b = Color::Black;
        assert_eq!(
            csa_ending("%TORYO", b),
            Some((Ending::Resignation, Outcome::Win(Color::White)))
        );
        assert_eq!(
            csa_ending("%KACHI", b),
            Some((Ending::Declaration, Outcome::Win(b)))
        );
        assert_eq!(
            csa_ending("%+ILLEGAL_ACTION", b),
            Some((Ending::IllegalAction, Outcome::Win(Color::White)))
        );
        assert_eq!(csa_ending("%MATTA", b), None);
        assert_eq!(
            kif_ending("反則勝ち", Color::White),
            Some((Ending::Foul, Outcome::Win(Color::White), "反則勝ち".len()))
        );
    }
}

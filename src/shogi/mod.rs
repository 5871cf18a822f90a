//! Native shogi engine: positions, SFEN, USI moves, legal and pseudo-legal move generation,
//! perft, and KIF/CSA game records.
//!
//! Conventions: a square is `(column, row)`, both 1..9; 先手 ([`Color::Black`]) moves towards
//! row 1; USI `7f` is column 7, row 6. Square indices are `(column - 1) * 9 + (row - 1)`.
//!
//! Main entry points:
//! - [`Position::from_sfen`] / [`Position::to_sfen`], [`Position::validate_strict`],
//!   [`Position::diagram`];
//! - [`Position::legal_moves`], [`Position::count_legal`], [`Position::pseudo_legal_moves`]
//!   (the one-step transition, without rule filtering), [`Position::is_legal`],
//!   [`Position::gives_check`], [`Position::in_check`], [`Position::attackers_to`],
//!   [`Position::attacks_from`];
//! - [`Position::do_move`] / [`Position::undo_move`] with an incrementally kept Zobrist key
//!   ([`Position::key`]);
//! - [`Position::parse_usi_move`], [`Move::to_usi`], [`parse_position_command`];
//! - [`perft()`]; [`read_kif`] (KIF and KI2), [`read_csa`] into a [`Record`] (the moves as
//!   written, the result stated, a last move that cannot be played), from text
//!   [`decode_record`] reads in UTF-8 or Shift-JIS; [`parse_kif`], [`parse_csa`] into a [`Game`];
//! - mate search: [`mate_in_1`], [`mate_in_3`], [`mate_in_n_exhaustive`] (the reference),
//!   [`solve`] (df-pn), and the USI loop [`usi_loop`] (`go mate`).
//!
//! Parsing never panics; errors carry byte spans ([`ParseError`]).
//!
//! ```
//! use okite::shogi::{perft, Move, Position};
//!
//! let mut p = Position::from_sfen("startpos").unwrap();
//! assert_eq!(p.legal_moves().len(), 30);
//! assert_eq!(perft(&mut p, 3), 25_470);
//!
//! // a pawn dropped on 1b would give mate: a pseudo-legal move, not a legal one
//! let q = Position::from_sfen("7nk/9/6B1L/9/9/9/9/9/4K4 b P 1").unwrap();
//! let drop = Move::from_usi("P*1b").unwrap();
//! assert!(q.pseudo_legal_moves().contains(&drop));
//! assert!(!q.legal_moves().contains(drop));
//! let err = q.parse_usi_move("P*1b").unwrap_err();
//! assert!(err.message.contains("打ち歩詰め"), "{}", err.message);
//! ```

pub mod bitboard;
pub mod checks;
pub mod dfpn;
pub mod encoding;
pub mod ending;
pub mod evasion;
pub mod hybrid_mate;
pub mod impasse;
pub mod legality;
pub mod mate1;
pub mod mate3;
mod memory;
pub mod movegen;
pub mod naming;
pub mod notation;
pub mod perft;
pub mod position;
pub mod readings;
pub mod record;
pub mod sfen;
pub mod tsume;
pub mod types;
pub mod usi;
pub mod usi_engine;
pub mod variant;

#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod oracle_tests;
#[cfg(test)]
pub(crate) mod test_data;

pub use bitboard::Bitboard;
pub use dfpn::{solve, MateLength, MateOptions, MateResult, MateStatus};
pub use encoding::{decode_record, TextEncoding};
pub use ending::{Ending, Outcome, RecordResult};
pub use mate1::{has_evasion, is_mating_line, mate_in_1, mate_in_n_exhaustive};
pub use mate3::{mate_in_3, mate_in_3_with, Mate3Stats};
pub use movegen::{MoveList, MAX_MOVES};
pub use perft::{perft, perft_divide};
pub use position::{Position, Undo, STARTPOS_SFEN};
pub use record::{parse_csa, parse_kif, read_csa, read_kif, Game, IllegalEnd, Place, Record};
pub use sfen::{ParseError, ParseErrors, StrictViolation};
pub use types::{Color, Hand, Move, Piece, PieceKind, Square};
pub use usi::parse_position_command;
pub use usi_engine::usi_loop;

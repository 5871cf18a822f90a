#![forbid(unsafe_code)]
//! The typed reports of the commands: plain data that serde serialises as the `--json` output
//! (in okite's one style, [`crate::json::text`]) and that the faces render as text.

pub mod batch;
pub mod check;
pub mod game;
pub mod go;
pub mod go_result;
pub mod mate;
pub mod natives;
pub mod position;
pub mod query;
pub mod tsume;

pub use game::{
    BoardGameReport, Forbidden, GameReport, ReadingVerdict, RecordFoul, RecordResult,
    RulesetResult, RulesetsReport,
};
pub use mate::MateReport;
pub use position::{BoardPosition, Count, Moves, PositionReport};

#![forbid(unsafe_code)]
//! The commands layer, between the faces (the command line, the REPL, the USI engine, the
//! language server, the Python package) and the library: who answers a command ([`plan`]), what
//! it says of that ([`notice`]), the native perft ([`perft`]), and the typed reports the commands return ([`report`]), which
//! `--json` serialises and the text output renders.

pub mod eval;
pub mod game;
pub mod go;
pub mod go_result;
pub mod mate;
pub mod notice;
pub mod perft;
pub mod plan;
pub mod report;
pub mod rulesets;
pub mod told;
pub mod tsume;

pub use notice::Notice;
pub use plan::{
    mate_search, natives_on, plan, plan_all, reading, shipped_plan, shipped_replay_plan,
    EngineBinding, MateSearch, Plan, ENGINES, ENGINE_DEFS, GO_CLASS_READINGS, GO_SOLVE_READINGS,
    REPLAY_DEFS, SHOGI_READINGS, TSUME_DEFS, TSUME_READINGS,
};

//! A table-driven engine for board variants of shogi: any board up to 16 x 16, any kinds and
//! faces given by their rays, promotion zones (optional or forced, kyoto shogi's flips), drops
//! with their file limits and drop-mate rule, and a royal piece that is either checked (shogi)
//! or captured (dobutsu, with its try).
//!
//! The engine knows nothing of the rule language: a [`Spec`] is plain data. The rule files of
//! `rules/variants/` state each variant's tables, and `crate::variants` reads them into a
//! `Spec`; the per-square tables ([`Tables`]) are compiled from it once.
//!
//! ```
//! use okite::shogi::variant::{DropMate, FaceSpec, KindSpec, Promotion, RoyalRule, Spec, Variant};
//!
//! // a 3 x 3 board with a king and a rook-like piece
//! let king: Vec<Vec<(i32, i32)>> = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
//!     .iter().map(|&d| vec![d]).collect();
//! let rook: Vec<Vec<(i32, i32)>> = [(-1, 0), (1, 0), (0, -1), (0, 1)]
//!     .iter().map(|&(c, r)| (1..=2).map(|i| (c * i, r * i)).collect()).collect();
//! let face = |text: &str, kind, rays: &Vec<Vec<(i32, i32)>>| FaceSpec {
//!     text: text.into(), kind, promotes_to: None, rays: [rays.clone(), rays.clone()] };
//! let kind = |letter, base, royal| KindSpec { letter, base, also_dropped_as: vec![], royal,
//!     droppable: !royal, max_per_file: None, drop_mate_forbidden: false };
//! let spec = Spec {
//!     name: "tiny".into(), width: 3, height: 3,
//!     faces: vec![face("K", 0, &king), face("R", 1, &rook)],
//!     kinds: vec![kind('K', 0, true), kind('R', 1, false)],
//!     zone: [vec![], vec![]], promotion: Promotion::Optional, immobility_illegal: true,
//!     royal: RoyalRule::Check, flag: None, start: "k2/3/R1K b - 1".into(),
//!     repetition: Default::default(), kif: None,
//! };
//! let v = Variant::new(spec).unwrap();
//! let mut p = v.start();
//! assert_eq!(p.to_sfen(), "k2/3/R1K b - 1");
//! // the rook to 3b or 2c, the king to 1b or 2c (2b is next to the other king)
//! assert_eq!(p.legal_moves(DropMate::Illegal).len(), 4);
//! assert!(p.parse_move("3c3a", DropMate::Illegal).is_err()); // a king is never captured
//! let m = p.parse_move("3c3b", DropMate::Illegal).unwrap();
//! p.do_move(m);
//! assert!(p.in_check(1));
//! ```

mod bits;
mod checks;
mod dfpn;
mod kif;
mod mate;
mod movegen;
mod notation;
mod position;
mod repetition;
mod spec;
mod tsume;

pub use bits::Bits;
pub use dfpn::MAX_PLIES as MAX_MATE_PLIES;
pub use kif::{read_kif, KifMove, VRecord};
pub use mate::{MateLimits, MateOutcome, MateResult};
pub use movegen::{DropMate, Over};
pub use position::{piece_of as piece_of_cell, side_name, Undo, VMove, VPos, MAX_IN_HAND};
pub use repetition::{repetition_end, RepetitionEnd};
pub use spec::{
    FaceSpec, KifNames, KindSpec, Promotion, Repetition, RepetitionResult, RoyalRule, Spec,
    SpecError, Tables, MAX_FACES, MAX_RAY, MAX_RAYS, MAX_SIDE,
};
pub use tsume::TsumeBoard;

use std::sync::Arc;

/// A compiled variant: its tables, with a start position that reads.
#[derive(Clone)]
pub struct Variant {
    /// The tables.
    pub tables: Arc<Tables>,
}

impl Variant {
    /// Compile a spec; its start position must read as a position of it.
    pub fn new(spec: Spec) -> Result<Variant, SpecError> {
        let tables = Arc::new(Tables::compile(spec)?);
        VPos::from_sfen(&tables, &tables.spec.start.clone())
            .map_err(|e| SpecError(format!("the start position does not read: {}", e.message)))?;
        Ok(Variant { tables })
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.tables.spec.name
    }

    /// The start position.
    pub fn start(&self) -> VPos {
        VPos::start(&self.tables)
    }

    /// A position from SFEN (`startpos` for the start).
    pub fn position(&self, sfen: &str) -> Result<VPos, crate::shogi::sfen::ParseError> {
        VPos::from_sfen(&self.tables, sfen)
    }
}

//! A board variant's finite tables, as data: the board, the kinds and their faces, each face's
//! rays for each side, promotion, drops and how a game ends. The engine compiles them into
//! per-square tables ([`Tables`]); it knows nothing of where they came from (the rule files'
//! `variant` tables are read into a [`Spec`] by the bindings layer).
//!
//! Coordinates are the rule files': a square is `(column, row)`, columns numbered from the right
//! as 先手 sees the board (1..width), rows from the top (1..height, 後手's side first). A ray is a
//! sequence of offsets from the piece's square; the piece attacks the j-th square of a ray when
//! the squares before it are on the board and empty (seed 000's ray table, spec/shogi.md 1).

use super::bits::Bits;

/// The largest board side: a square index fits one byte.
pub const MAX_SIDE: usize = 16;
/// The most faces a variant may declare.
pub const MAX_FACES: usize = 64;
/// The most squares a single ray may list.
pub const MAX_RAY: usize = 32;
/// The most rays a face may have for one side.
pub const MAX_RAYS: usize = 64;

/// One face of a kind: what is written in SFEN and how it moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaceSpec {
    /// Its SFEN text for 先手: one letter, or `+` and its kind's letter for a promoted face.
    pub text: String,
    /// The kind it belongs to (an index into [`Spec::kinds`]).
    pub kind: usize,
    /// The face it turns into when it promotes (or flips back, in kyoto shogi).
    pub promotes_to: Option<usize>,
    /// Its rays, for 先手 (`[0]`) and 後手 (`[1]`), as offsets `(dc, dr)`.
    pub rays: [Vec<Vec<(i32, i32)>>; 2],
}

impl FaceSpec {
    /// Is this face written with a `+` (a promoted face)?
    pub fn is_promoted(&self) -> bool {
        self.text.starts_with('+')
    }
}

/// A kind: the unit of a hand, with its drop rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindSpec {
    /// Its letter (uppercase for 先手 in SFEN and hands).
    pub letter: char,
    /// The face a captured piece of this kind takes in the hand, and the face it is dropped with.
    pub base: usize,
    /// Further faces it may be dropped with (kyoto shogi drops either face).
    pub also_dropped_as: Vec<usize>,
    /// A royal piece: the one the ending is about (the king; dobutsu's lion).
    pub royal: bool,
    /// May a piece of this kind be dropped at all?
    pub droppable: bool,
    /// At most this many of the kind's base face of one side on a file before a drop there is
    /// refused (1 for the pawn, 二歩; 2 for tori shogi's swallow).
    pub max_per_file: Option<u32>,
    /// A drop of this kind that gives mate is forbidden (打ち歩詰め for the pawn).
    pub drop_mate_forbidden: bool,
}

/// When a piece may change face on a move from or to the zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// It may promote, or not (shogi).
    Optional,
    /// It must (kyoto shogi's flip, tori shogi, euroshogi, dobutsu's chick).
    Forced,
}

/// What the game is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoyalRule {
    /// A move may not leave the mover's royal piece attacked; no legal move loses (shogi).
    Check,
    /// The royal piece may be captured, and its capture ends the game (dobutsu).
    Capture,
}

/// How a repetition ends a game (千日手), when no side gave check throughout it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RepetitionResult {
    /// No one wins (shogi).
    #[default]
    Draw,
    /// 先手 loses (minishogi).
    FirstLoses,
    /// The side whose move made it loses (tori shogi).
    MoverLoses,
}

/// The repetition rule: the occurrence of a position that ends the game (0: none), how it ends,
/// and whether a side that checked throughout the repetition loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Repetition {
    pub count: u32,
    pub result: RepetitionResult,
    pub perpetual_check_loses: bool,
}

/// How KIF records write a variant, where a dialect of KIF is defined for it (lishogi writes
/// 5五将棋 and 京都将棋 records so): the `手合割` that names its start position, and each face's
/// names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifNames {
    /// The `手合割` value that names the start position (`5五将棋`).
    pub game: String,
    /// Each face's names, indexed as [`Spec::faces`]; the first is the one written, the others
    /// are read too (`成銀` and `全`).
    pub faces: Vec<Vec<String>>,
}

/// The whole variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Its name (`minishogi`).
    pub name: String,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Every face of every kind.
    pub faces: Vec<FaceSpec>,
    /// The kinds, in hand order (the order SFEN hands are written in).
    pub kinds: Vec<KindSpec>,
    /// Each side's promotion zone, as rows.
    pub zone: [Vec<i32>; 2],
    /// Whether promotion in the zone is optional or forced.
    pub promotion: Promotion,
    /// A move or drop that leaves a piece with no move at all from its square (on an empty
    /// board) is refused (行き所のない駒).
    pub immobility_illegal: bool,
    /// What the royal piece is.
    pub royal: RoyalRule,
    /// Rows where a royal piece that stands unattacked wins (dobutsu's try), for each side.
    pub flag: Option<[Vec<i32>; 2]>,
    /// The start position, in SFEN.
    pub start: String,
    /// The repetition rule.
    pub repetition: Repetition,
    /// How KIF records name it and its faces, where a KIF dialect is defined for it.
    pub kif: Option<KifNames>,
}

/// Why a spec cannot be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn bad(msg: impl Into<String>) -> SpecError {
    SpecError(msg.into())
}

/// A spec's per-square tables: what the engine reads while it runs.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The spec.
    pub spec: Spec,
    /// Number of squares.
    pub n: usize,
    /// Every ray's squares, one after another.
    pub ray_squares: Vec<u8>,
    /// Each ray as a range of `ray_squares`.
    pub rays: Vec<(u32, u32)>,
    /// For each (face, side, square): the range of `rays` of that piece there.
    pub piece_rays: Vec<(u32, u32)>,
    /// For each (face, side, square): every square its rays reach on an empty board.
    pub scope: Vec<Bits>,
    /// For each (face, side, square): every square from which such a piece reaches it on an
    /// empty board (the inverse of `scope`).
    pub reach: Vec<Bits>,
    /// For each (side, square): every square from which a piece of that side of any face
    /// reaches it on an empty board.
    pub reach_any: Vec<Bits>,
    /// For each (face, side): the squares where such a piece has no move on an empty board.
    pub stuck: Vec<Bits>,
    /// For each (face, side): do two of its rays reach one square from some square (then the
    /// move generator drops the second)?
    pub overlap: Vec<bool>,
    /// For each (face, side, square) and each target square: 0 when no ray reaches the target,
    /// else `(ray + 1) << 5 | i`, the piece's ray that reaches it and the target's place on it
    /// (the squares before it are those that block). Only where the rays do not overlap.
    pub hit: Vec<u16>,
    /// A random number for each (cell, square), a cell as the board stores it: the board's
    /// part of a position's key is the exclusive or of its pieces' numbers.
    pub zobrist: Vec<u64>,
    /// Each side's zone, as squares.
    pub zone: [Bits; 2],
    /// Each side's flag squares (empty without a flag rule).
    pub flag: [Bits; 2],
    /// The face index of each kind's base face is `spec.kinds[k].base`; this is the kind of
    /// each face.
    pub kind_of: Vec<u8>,
    /// Which faces are royal.
    pub royal_face: Vec<bool>,
}

impl Tables {
    /// Check a spec's bounds and compile its tables.
    pub fn compile(spec: Spec) -> Result<Tables, SpecError> {
        check_bounds(&spec)?;
        let (w, h) = (spec.width, spec.height);
        let nf = spec.faces.len();
        let n = w * h;
        let mut t = Tables {
            n,
            ray_squares: vec![],
            rays: vec![],
            piece_rays: Vec::with_capacity(nf * 2 * n),
            scope: Vec::with_capacity(nf * 2 * n),
            reach: vec![Bits::default(); nf * 2 * n],
            reach_any: vec![Bits::default(); 2 * n],
            stuck: vec![Bits::default(); nf * 2],
            overlap: vec![false; nf * 2],
            hit: vec![0; nf * 2 * n * n],
            zobrist: zobrist_keys((1 + 2 * nf) * n),
            zone: [Bits::default(), Bits::default()],
            flag: [Bits::default(), Bits::default()],
            kind_of: spec.faces.iter().map(|f| f.kind as u8).collect(),
            royal_face: spec
                .faces
                .iter()
                .map(|f| spec.kinds[f.kind].royal)
                .collect(),
            spec,
        };
        t.trace_rays();
        t.fill_reach();
        t.fill_zones();
        Ok(t)
    }

    /// The rays of every face from every square, cut at the board's edge, and the squares each face reaches.
    fn trace_rays(&mut self) {
        let n = self.n;
        let nf = self.spec.faces.len();
        for f in 0..nf {
            for side in 0..2 {
                for sq in 0..n {
                    let (c, r) = self.coords(sq);
                    let first = self.rays.len() as u32;
                    let mut scope = Bits::default();
                    for ray in &self.spec.faces[f].rays[side] {
                        let start = self.ray_squares.len() as u32;
                        for &(dc, dr) in ray {
                            match self.square(c + dc, r + dr) {
                                Some(s) => {
                                    self.ray_squares.push(s as u8);
                                    if scope.has(s) {
                                        self.overlap[f * 2 + side] = true;
                                    }
                                    scope.set(s);
                                }
                                None => break,
                            }
                        }
                        let end = self.ray_squares.len() as u32;
                        if end > start {
                            self.rays.push((start, end));
                        }
                    }
                    self.piece_rays.push((first, self.rays.len() as u32));
                    if scope.is_empty() {
                        self.stuck[f * 2 + side].set(sq);
                    }
                    self.scope.push(scope);
                }
            }
        }
    }

    /// Where each ray meets each square, and from which squares each square is reached.
    fn fill_reach(&mut self) {
        let n = self.n;
        let nf = self.spec.faces.len();
        for f in 0..nf {
            for side in 0..2 {
                for from in 0..n {
                    let at = self.at(f, side, from);
                    let (a, b) = self.piece_rays[at];
                    for (r, &(s, e)) in self.rays[a as usize..b as usize].iter().enumerate() {
                        for (i, &x) in self.ray_squares[s as usize..e as usize].iter().enumerate() {
                            let h = &mut self.hit[at * n + x as usize];
                            if *h == 0 {
                                *h = ((r as u16 + 1) << 5) | i as u16;
                            }
                        }
                    }
                    for to in self.scope[self.at(f, side, from)].iter() {
                        let i = self.at(f, side, to);
                        self.reach[i].set(from);
                        self.reach_any[side * n + to].set(from);
                    }
                }
            }
        }
    }

    /// The promotion zones and the flag ranks as squares.
    fn fill_zones(&mut self) {
        let n = self.n;
        for side in 0..2 {
            for sq in 0..n {
                let (_, r) = self.coords(sq);
                if self.spec.zone[side].contains(&r) {
                    self.zone[side].set(sq);
                }
                if let Some(flag) = &self.spec.flag {
                    if flag[side].contains(&r) {
                        self.flag[side].set(sq);
                    }
                }
            }
        }
    }

    /// The square at `(column, row)`, when it is on the board.
    pub fn square(&self, c: i32, r: i32) -> Option<usize> {
        let (w, h) = (self.spec.width as i32, self.spec.height as i32);
        if c < 1 || c > w || r < 1 || r > h {
            return None;
        }
        // index: rows from the top, columns from the left as 先手 sees the board
        Some(((r - 1) * w + (w - c)) as usize)
    }

    /// The `(column, row)` of a square index.
    pub fn coords(&self, sq: usize) -> (i32, i32) {
        let w = self.spec.width;
        let (row, left) = (sq / w, sq % w);
        ((w - left) as i32, row as i32 + 1)
    }

    /// The index of (face, side, square) in the per-piece tables.
    #[inline]
    pub fn at(&self, face: usize, side: usize, sq: usize) -> usize {
        (face * 2 + side) * self.n + sq
    }

    /// The rays of a piece, as slices of squares.
    #[inline]
    pub fn piece_rays(&self, face: usize, side: usize, sq: usize) -> impl Iterator<Item = &[u8]> {
        let (a, b) = self.piece_rays[self.at(face, side, sq)];
        self.rays[a as usize..b as usize]
            .iter()
            .map(move |&(s, e)| &self.ray_squares[s as usize..e as usize])
    }

    /// For a face whose rays do not overlap: the squares before `sq` on the one ray of the
    /// piece at `at` (its index in the per-piece tables) that reaches `sq`, or `None` when no
    /// ray does. The piece reaches `sq` over the board when they are all empty.
    #[inline]
    pub fn ray_before(&self, at: usize, sq: usize) -> Option<&[u8]> {
        let h = self.hit[at * self.n + sq] as usize;
        if h == 0 {
            return None;
        }
        let (s, _) = self.rays[self.piece_rays[at].0 as usize + (h >> 5) - 1];
        let s = s as usize;
        Some(&self.ray_squares[s..s + (h & 31)])
    }

    /// Does a piece with this face and side have no move at all from `sq`, on an empty board?
    #[inline]
    pub fn immobile(&self, face: usize, side: usize, sq: usize) -> bool {
        self.stuck[face * 2 + side].has(sq)
    }

    /// The face index written `text` (`P`, `+P`; either case), and its side.
    pub fn face_by_text(&self, text: &str) -> Option<(usize, usize)> {
        let side = if text.chars().any(|c| c.is_ascii_lowercase()) {
            1
        } else {
            0
        };
        let upper = text.to_ascii_uppercase();
        self.spec
            .faces
            .iter()
            .position(|f| f.text == upper)
            .map(|f| (f, side))
    }

    /// The kind with this letter (either case), and the side its case says.
    pub fn kind_by_letter(&self, c: char) -> Option<(usize, usize)> {
        let side = usize::from(c.is_ascii_lowercase());
        let up = c.to_ascii_uppercase();
        self.spec
            .kinds
            .iter()
            .position(|k| k.letter == up)
            .map(|k| (k, side))
    }

    /// The USI name of a square: its column number and its row letter (`5e`).
    pub fn square_name(&self, sq: usize) -> String {
        let (c, r) = self.coords(sq);
        format!("{c}{}", (b'a' + (r - 1) as u8) as char)
    }
}

/// A spec's bounds and the consistency of its faces and kinds, checked before its tables are
/// made.
fn check_bounds(spec: &Spec) -> Result<(), SpecError> {
    let (w, h) = (spec.width, spec.height);
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(bad(format!(
            "the board is {w} x {h}; each side must be 1 to {MAX_SIDE}"
        )));
    }
    if spec.faces.is_empty() || spec.faces.len() > MAX_FACES {
        return Err(bad(format!(
            "{} faces declared; a variant has 1 to {MAX_FACES}",
            spec.faces.len()
        )));
    }
    if spec.kinds.is_empty() || spec.kinds.len() > spec.faces.len() {
        return Err(bad("every kind needs a face of its own"));
    }
    let nf = spec.faces.len();
    for (i, f) in spec.faces.iter().enumerate() {
        if f.kind >= spec.kinds.len() {
            return Err(bad(format!("face `{}` names no kind", f.text)));
        }
        if let Some(p) = f.promotes_to {
            if p >= nf || spec.faces[p].kind != f.kind {
                return Err(bad(format!(
                    "face `{}` promotes to a face of another kind",
                    f.text
                )));
            }
        }
        let letter = spec.kinds[f.kind].letter;
        let ok_text = f.text == letter.to_string() || f.text == format!("+{letter}");
        if !ok_text {
            return Err(bad(format!(
                "face `{}` of kind `{letter}` must be written `{letter}` or `+{letter}`",
                f.text
            )));
        }
        if spec.faces[..i].iter().any(|g| g.text == f.text) {
            return Err(bad(format!("two faces are written `{}`", f.text)));
        }
        for side in 0..2 {
            if f.rays[side].len() > MAX_RAYS {
                return Err(bad(format!(
                    "face `{}` has {} rays; at most {MAX_RAYS}",
                    f.text,
                    f.rays[side].len()
                )));
            }
            if let Some(r) = f.rays[side].iter().find(|r| r.len() > MAX_RAY) {
                return Err(bad(format!(
                    "a ray of face `{}` lists {} squares; at most {MAX_RAY}",
                    f.text,
                    r.len()
                )));
            }
        }
    }
    for (i, k) in spec.kinds.iter().enumerate() {
        if !k.letter.is_ascii_uppercase() {
            return Err(bad(format!(
                "kind letter `{}` must be an uppercase ASCII letter",
                k.letter
            )));
        }
        if spec.kinds[..i].iter().any(|j| j.letter == k.letter) {
            return Err(bad(format!("two kinds use the letter `{}`", k.letter)));
        }
        let faces_ok = std::iter::once(&k.base)
            .chain(&k.also_dropped_as)
            .all(|&f| f < nf && spec.faces[f].kind == i);
        if !faces_ok {
            return Err(bad(format!(
                "kind `{}` names a face of another kind",
                k.letter
            )));
        }
    }
    Ok(())
}

/// `count` keys for hashing positions.
fn zobrist_keys(count: usize) -> Vec<u64> {
    // splitmix64 from a fixed seed: the same keys on every run
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..count)
        .map(|_| {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

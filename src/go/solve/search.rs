//! The search of the solver: depth-limited tests "is the value at least t?" over positions with
//! the path's history (the repetition rules need it), answered yes or no with a proved bound, or
//! unknown; the transposition table of [`super::table`] keyed by the least image of a position
//! under the graph's symmetries; static bounds from Benson's unconditional life; move ordering
//! (the table's move, captures, killer moves, a history of the moves that proved).

use super::super::benson;
use super::super::board::Color;
use super::super::small::{SmallBoard, SmallGraph};
use super::super::symmetry::Symmetry;
use super::table::{Info, Key, Summary, Table, HI_NONE, LO_NONE, NO_MOVE, PASS};
use super::{Progress, Stop};
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};

/// Beyond every value.
pub(super) const INF: i64 = i64::MAX / 4;

/// Which repetitions the search follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rep {
    /// A stone may not recreate any earlier board.
    Positional,
    /// A stone may not recreate an earlier (board, player to move).
    Situational,
    /// A stone may not recreate the board before the opponent's last move; a move or a pass that
    /// brings back an earlier (board, player to move) ends the game, scored as even.
    SimpleKo,
}

/// The game the search plays.
#[derive(Clone, Copy, Debug)]
pub(super) struct Game {
    /// Area scoring (else stones only).
    pub area: bool,
    pub rep: Rep,
    pub allow_suicide: bool,
    /// Komi in half points, given to White.
    pub komi_half: i64,
    /// Benson's bounds on.
    pub static_bounds: bool,
}

/// A position: the board, who moves, whether the last move was a pass, and (simple ko) the
/// board a stone may not recreate.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub b: SmallBoard,
    pub white: bool,
    pub prev_pass: bool,
    pub ko: SmallBoard,
}

/// Boards whose Benson bounds are kept.
const BOUNDS_CACHE: usize = 1 << 14;

/// A board that no position has: the `ko` of a position whose rule forbids nothing.
pub(super) const NO_BOARD: SmallBoard = (u64::MAX, u64::MAX);

/// A move considered at a position: a vertex or [`PASS`], the board after it, its place in the
/// order, and where on the path the situation it makes occurred (simple ko ends the game
/// there), `u32::MAX` for nowhere.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub mv: u8,
    pub nb: SmallBoard,
    pub score: i32,
    pub cycle: u32,
}

/// The answer of a search to "is the value at least t?": yes with a proved lower bound (at
/// least t), no with a proved upper bound (below t), each with what its proof depends on; or
/// unknown within the depth searched.
#[derive(Clone, Copy, Debug)]
pub(super) enum Res {
    Yes(i64, Info),
    No(i64, Info),
    Unknown,
}

/// Counters of the table's use.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Stats {
    pub hits: u64,
    pub stores: u64,
    pub dependent: u64,
    pub conflicts: u64,
}

pub(super) struct Search<'a> {
    pub sg: &'a SmallGraph,
    pub game: Game,
    /// Benson's bounds of recent boards (Black minus White, points), a slot per board's hash.
    bounds_cache: Vec<(SmallBoard, i8, i8)>,
    syms: Vec<Symmetry>,
    inv: Vec<Symmetry>,
    pub table: Table,
    /// The situations of the path, the history given first.
    path: Vec<(SmallBoard, bool)>,
    /// The images of the path's boards under each symmetry (with a table).
    path_sym: Vec<Vec<SmallBoard>>,
    /// The latest place on the path of each situation key.
    on_path: FxHashMap<(u64, u64, u8), u32>,
    undo: Vec<Option<u32>>,
    order: Vec<usize>,
    killers: Vec<[u8; 2]>,
    history: [[u32; 64]; 2],
    bufs: Vec<Vec<Child>>,
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<Instant>,
    pub stop: Option<Stop>,
    pub stats: Stats,
    pub start: Instant,
    last_tick: Instant,
    progress: &'a mut dyn FnMut(&Progress),
    /// What the root knows (Black's view, half points), for progress.
    pub root_lo: i64,
    pub root_hi: i64,
    pub testing: i64,
    pub root_white: bool,
    /// The depth of the running iteration.
    pub depth: u32,
}

impl<'a> Search<'a> {
    pub fn new(
        sg: &'a SmallGraph,
        game: Game,
        syms: Vec<Symmetry>,
        table: Table,
        progress: &'a mut dyn FnMut(&Progress),
    ) -> Search<'a> {
        let inv = syms.iter().map(Symmetry::inverse).collect();
        let mut order: Vec<usize> = (0..sg.n).collect();
        // vertices of high degree first (the centre before edges before corners)
        order.sort_by_key(|&v| std::cmp::Reverse(sg.adj[v].count_ones()));
        let nsyms = syms.len();
        let now = Instant::now();
        Search {
            sg,
            game,
            bounds_cache: vec![(NO_BOARD, 0, 0); BOUNDS_CACHE],
            syms,
            inv,
            table,
            path: Vec::new(),
            path_sym: vec![Vec::new(); nsyms],
            on_path: FxHashMap::default(),
            undo: Vec::new(),
            order,
            killers: Vec::new(),
            history: [[0; 64]; 2],
            bufs: Vec::new(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: None,
            stats: Stats::default(),
            start: now,
            last_tick: now,
            progress,
            root_lo: -INF,
            root_hi: INF,
            testing: 0,
            root_white: false,
            depth: 0,
        }
    }

    fn tag(&self, white_to_move: bool) -> u8 {
        match self.game.rep {
            Rep::Positional => 0,
            _ => 1 + white_to_move as u8,
        }
    }

    /// Where on the path the situation (board `b`, `white_to_move`) last occurred.
    pub fn on_path(&self, b: SmallBoard, white_to_move: bool) -> Option<u32> {
        self.on_path
            .get(&(b.0, b.1, self.tag(white_to_move)))
            .copied()
    }

    pub fn push(&mut self, b: SmallBoard, white_to_move: bool) {
        let idx = self.path.len() as u32;
        let key = (b.0, b.1, self.tag(white_to_move));
        let old = self.on_path.insert(key, idx);
        self.undo.push(old);
        self.path.push((b, white_to_move));
        if !self.table.is_empty() {
            for (s, p) in self.syms.iter().zip(self.path_sym.iter_mut()) {
                p.push(s.board(b));
            }
        }
    }

    pub fn pop(&mut self) {
        let Some((b, w)) = self.path.pop() else {
            return;
        };
        let key = (b.0, b.1, self.tag(w));
        match self.undo.pop().flatten() {
            Some(i) => {
                self.on_path.insert(key, i);
            }
            None => {
                self.on_path.remove(&key);
            }
        }
        if !self.table.is_empty() {
            for p in self.path_sym.iter_mut() {
                p.pop();
            }
        }
    }

    /// The final score of a board from Black's view, minus komi, in half points.
    pub fn final_value(&self, b: SmallBoard) -> i64 {
        let d = if self.game.area {
            self.sg.area_black_minus_white(b)
        } else {
            b.0.count_ones() as i64 - b.1.count_ones() as i64
        };
        2 * d - self.game.komi_half
    }

    /// The value of a game that ends by a recurring situation (an even score), Black's view.
    pub fn draw_value(&self) -> i64 {
        -self.game.komi_half
    }

    /// Bounds on the value of a board from Black's view whatever the history: each side can pass
    /// to the end and keep its unconditionally alive stones and their eyes (see
    /// [`super::super::benson`]); under simple ko the game may also end even.
    pub fn static_bounds_black(&mut self, b: SmallBoard) -> (i64, i64) {
        let n = self.sg.n as i64;
        let k = self.game.komi_half;
        let (mut lo, mut hi) = (-2 * n - k, 2 * n - k);
        if self.game.static_bounds {
            let h = (b.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ b.1.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
                >> 40;
            let slot = &mut self.bounds_cache[h as usize % BOUNDS_CACHE];
            let (l, h) = if slot.0 == b {
                (slot.1 as i64, slot.2 as i64)
            } else {
                let (l, h) = benson::bounds(self.sg, b, self.game.area, self.game.allow_suicide);
                *slot = (b, l as i8, h as i8);
                (l, h)
            };
            lo = 2 * l - k;
            hi = 2 * h - k;
        }
        if self.game.rep == Rep::SimpleKo {
            lo = lo.min(self.draw_value());
            hi = hi.max(self.draw_value());
        }
        (lo, hi)
    }

    /// The table key of a position and the symmetry that maps it to its key's frame.
    fn key(&self, nd: &Node) -> (Key, usize) {
        let flags = nd.white as u8 | (nd.prev_pass as u8) << 1;
        let simple = self.game.rep == Rep::SimpleKo;
        let mut best = (nd.b, if simple { nd.ko } else { (0, 0) });
        let mut which = 0;
        for (i, s) in self.syms.iter().enumerate().skip(1) {
            let img = s.board(nd.b);
            if img > best.0 {
                continue;
            }
            let ko = if simple && nd.ko != NO_BOARD {
                s.board(nd.ko)
            } else {
                best.1
            };
            if img < best.0 || ko < best.1 {
                best = (img, ko);
                which = i;
            }
        }
        (
            Key {
                board: best.0,
                extra: best.1,
                flags,
            },
            which,
        )
    }

    /// The move the table holds for a position (its best, or the first tried), in the
    /// position's frame.
    pub fn hint(&self, nd: &Node) -> u8 {
        if self.table.is_empty() {
            return NO_MOVE;
        }
        let (key, sym) = self.key(nd);
        match self.table.get(&key).map_or(NO_MOVE, |e| e.best) {
            v @ (NO_MOVE | PASS) => v,
            v => self.inv[sym].perm[v as usize] as u8,
        }
    }

    /// Whether a board of the path (other than the position's own, under positional superko)
    /// may be among the boards of a stored proof's summary (in the frame of symmetry `sym`).
    fn conflicts(&mut self, s: &Summary, sym: usize, own: SmallBoard) -> bool {
        if s.is_none() {
            return false;
        }
        let exclude = self.game.rep == Rep::Positional;
        let hit = self.path_sym[sym]
            .iter()
            .any(|&x| !(exclude && x == own) && s.may_contain(x));
        if hit {
            self.stats.conflicts += 1;
        }
        hit
    }

    fn tick(&mut self) {
        if self.nodes > self.node_limit {
            self.stop = Some(Stop::Nodes);
            return;
        }
        let now = Instant::now();
        if let Some(d) = self.deadline {
            if now >= d {
                self.stop = Some(Stop::Time);
                return;
            }
        }
        if now.duration_since(self.last_tick) >= Duration::from_millis(250) {
            self.last_tick = now;
            let (lo, hi, t) = if self.root_white {
                (-self.root_hi, -self.root_lo, -self.testing)
            } else {
                (self.root_lo, self.root_hi, self.testing)
            };
            let p = Progress {
                nodes: self.nodes,
                elapsed: now.duration_since(self.start),
                lower_half_points: lo,
                upper_half_points: hi,
                testing_half_points: t,
                depth: self.depth,
                table_entries: self.table.used,
            };
            (self.progress)(&p);
        }
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.bufs.len() <= ply {
            self.bufs.push(Vec::with_capacity(self.sg.n + 1));
            self.killers.push([NO_MOVE; 2]);
        }
    }

    /// The moves at a position, in the order they are searched; the earliest place on the path
    /// of a board that forbade a stone (`u32::MAX` for none).
    pub fn children(&mut self, nd: &Node, hint: u8, out: &mut Vec<Child>) -> u32 {
        out.clear();
        let sg = self.sg;
        let color = if nd.white { Color::White } else { Color::Black };
        let (own, opp) = if nd.white {
            (nd.b.1, nd.b.0)
        } else {
            (nd.b.0, nd.b.1)
        };
        let ply = self.path.len();
        self.ensure_ply(ply);
        let killers = self.killers[ply];
        let hist = &self.history[nd.white as usize];
        let mut forbid = u32::MAX;
        let occupied = nd.b.0 | nd.b.1;
        for &v in &self.order {
            if occupied >> v & 1 != 0 {
                continue;
            }
            let Some(nb) = sg.play(nd.b, v, color, self.game.allow_suicide) else {
                continue;
            };
            let mut cycle = u32::MAX;
            match self.game.rep {
                Rep::Positional => {
                    if let Some(i) = self.on_path.get(&(nb.0, nb.1, 0)) {
                        forbid = forbid.min(*i);
                        continue;
                    }
                }
                Rep::Situational => {
                    if let Some(i) = self.on_path.get(&(nb.0, nb.1, 1 + !nd.white as u8)) {
                        forbid = forbid.min(*i);
                        continue;
                    }
                }
                Rep::SimpleKo => {
                    if nb == nd.ko {
                        continue;
                    }
                    if let Some(i) = self.on_path.get(&(nb.0, nb.1, 1 + !nd.white as u8)) {
                        cycle = *i;
                    }
                }
            }
            let (nown, nopp) = if nd.white { (nb.1, nb.0) } else { (nb.0, nb.1) };
            let captured = (opp & !nopp).count_ones() as i32;
            let lost = (own & !nown).count_ones() as i32;
            let mut score = 100 * captured - 100 * lost + (hist[v] as i32).min(50);
            if killers[0] == v as u8 || killers[1] == v as u8 {
                score += 200;
            }
            // a stone in an eye of one's own that captures nothing comes last
            if captured == 0 && sg.adj[v] & !own == 0 && sg.adj[v] != 0 {
                score = -1000;
            }
            if hint == v as u8 {
                score = 10_000;
            }
            out.push(Child {
                mv: v as u8,
                nb,
                score,
                cycle,
            });
        }
        if !nd.prev_pass {
            let cycle = if self.game.rep == Rep::SimpleKo {
                self.on_path(nd.b, !nd.white).unwrap_or(u32::MAX)
            } else {
                u32::MAX
            };
            out.push(Child {
                mv: PASS,
                nb: nd.b,
                score: if hint == PASS { 10_000 } else { -500 },
                cycle,
            });
        }
        // a stable insertion sort, best first
        for i in 1..out.len() {
            let mut j = i;
            while j > 0 && out[j - 1].score < out[j].score {
                out.swap(j - 1, j);
                j -= 1;
            }
        }
        forbid
    }

    /// What a move gives the player to move at `nd` against the threshold `t` (is the value at
    /// least t?), searched `d` plies deep.
    pub fn child_res(&mut self, nd: &Node, ch: &Child, t: i64, d: u32) -> Res {
        let sign = if nd.white { -1 } else { 1 };
        let decided = |v: i64, info: Info| {
            if v >= t {
                Res::Yes(v, info)
            } else {
                Res::No(v, info)
            }
        };
        if ch.mv == PASS && nd.prev_pass {
            return decided(sign * self.final_value(nd.b), Info::NONE);
        }
        if ch.cycle != u32::MAX {
            return decided(
                sign * self.draw_value(),
                Info {
                    summary: Summary::NONE,
                    dep: ch.cycle,
                },
            );
        }
        let next = Node {
            b: ch.nb,
            white: !nd.white,
            prev_pass: ch.mv == PASS,
            ko: nd.b,
        };
        self.push(ch.nb, !nd.white);
        let r = self.dls(&next, 1 - t, d.saturating_sub(1));
        self.pop();
        match r {
            Res::Yes(lo, info) => Res::No(-lo, info),
            Res::No(hi, info) => Res::Yes(-hi, info),
            Res::Unknown => Res::Unknown,
        }
    }

    /// Whether the value of `nd` for the player to move is at least `t` (half points), as far as
    /// a search `d` plies deep tells: with a proved bound (at least `t`, or below it) and what
    /// its proof depends on, or unknown. `nd` is the last situation of the path.
    pub fn dls(&mut self, nd: &Node, t: i64, d: u32) -> Res {
        stacker::maybe_grow(64 << 10, 4 << 20, || self.dls_here(nd, t, d))
    }

    /// The table's entry for the node: its bound where it settles the test against `t`
    /// (`Err`), else the move it keeps first and the node's key under its symmetry.
    #[inline(always)]
    fn probe(&mut self, nd: &Node, t: i64, d: u32) -> Result<(u8, Option<(Key, usize)>), Res> {
        if self.table.is_empty() || d == 0 {
            return Ok((NO_MOVE, None));
        }
        let mut hint = NO_MOVE;
        let (key, sym) = self.key(nd);
        if let Some(e) = self.table.get(&key).copied() {
            hint = match e.best {
                NO_MOVE | PASS => e.best,
                v => self.inv[sym].perm[v as usize] as u8,
            };
            let own = key.board;
            if e.lo != LO_NONE && e.lo as i64 >= t && !self.conflicts(&e.s_lo, sym, own) {
                return Err(Res::Yes(e.lo as i64, self.hit(&e.s_lo, sym)));
            }
            if e.hi != HI_NONE && (e.hi as i64) < t && !self.conflicts(&e.s_hi, sym, own) {
                return Err(Res::No(e.hi as i64, self.hit(&e.s_hi, sym)));
            }
            if e.ut == t as i32 && e.ud as u32 >= d {
                return Err(Res::Unknown);
            }
        }
        Ok((hint, Some((key, sym))))
    }

    /// A bound the table keeps, counted as a hit: what it depends on, as the node under the
    /// symmetry `sym` sees it.
    #[inline(always)]
    fn hit(&mut self, s: &Summary, sym: usize) -> Info {
        self.stats.hits += 1;
        let inv = &self.inv[sym];
        Info {
            summary: s.map(|m| inv.mask(m)),
            dep: u32::MAX,
        }
    }

    /// Keeps the node's result in the table: a proved bound when it depends on no board of the
    /// path above it (`k`: the node's ply), the test's threshold and depth when unknown, and
    /// the move found (`mv`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn store(
        &mut self,
        key: Key,
        sym: usize,
        res: &Res,
        mv: u8,
        t: i64,
        d: u32,
        spent: u64,
        k: u32,
    ) {
        let work = (64 - spent.leading_zeros()) as u8;
        let s = &self.syms[sym];
        let best_key = match mv {
            NO_MOVE | PASS => mv,
            v => s.perm[v as usize] as u8,
        };
        let dep = match res {
            Res::Yes(_, i) | Res::No(_, i) => i.dep,
            Res::Unknown => u32::MAX,
        };
        let keep = dep >= k;
        if !keep {
            self.stats.dependent += 1;
        }
        let clamp = |v: i64| v.clamp(i32::MIN as i64 + 1, i32::MAX as i64 - 1) as i32;
        let summary = match res {
            Res::Yes(_, i) | Res::No(_, i) => i.summary.map(|m| s.mask(m)),
            Res::Unknown => Summary::NONE,
        };
        if let Some(e) = self.table.slot(&key, work) {
            if best_key != NO_MOVE {
                e.best = best_key;
            }
            match *res {
                Res::Yes(lo, _) if keep => {
                    e.lo = clamp(lo);
                    e.s_lo = summary;
                    self.stats.stores += 1;
                }
                Res::No(hi, _) if keep => {
                    e.hi = clamp(hi);
                    e.s_hi = summary;
                    self.stats.stores += 1;
                }
                Res::Unknown => {
                    e.ut = clamp(t);
                    e.ud = d.min(255) as u8;
                }
                _ => {}
            }
        }
    }

    /// A move that proved a bound: first among the ply's killers, and counted in the history.
    #[inline(always)]
    fn reward(&mut self, ply: usize, white: bool, mv: u8) {
        if mv != PASS {
            let km = &mut self.killers[ply];
            if km[0] != mv {
                km[1] = km[0];
                km[0] = mv;
            }
            let h = &mut self.history[white as usize][mv as usize];
            *h = h.saturating_add(1);
        }
    }

    fn dls_here(&mut self, nd: &Node, t: i64, d: u32) -> Res {
        self.nodes += 1;
        if self.nodes & 1023 == 0 || self.nodes > self.node_limit {
            self.tick();
        }
        if self.stop.is_some() {
            return Res::Unknown;
        }
        let k = (self.path.len() - 1) as u32;
        let sign = if nd.white { -1 } else { 1 };
        // the best bound below t proved so far (the pass that ends the game counts)
        let mut fail_hi = -INF;
        if nd.prev_pass {
            let v = sign * self.final_value(nd.b);
            if v >= t {
                return Res::Yes(v, Info::NONE);
            }
            fail_hi = v;
        }
        let (lo_b, hi_b) = self.static_bounds_black(nd.b);
        let (lo_s, hi_s) = if nd.white {
            (-hi_b, -lo_b)
        } else {
            (lo_b, hi_b)
        };
        if lo_s >= t {
            return Res::Yes(lo_s, Info::NONE);
        }
        if hi_s < t {
            return Res::No(hi_s, Info::NONE);
        }
        let (hint, key_sym) = match self.probe(nd, t, d) {
            Ok(x) => x,
            Err(r) => return r,
        };
        if d == 0 {
            return Res::Unknown;
        }
        let nodes_before = self.nodes;
        let ply = self.path.len();
        self.ensure_ply(ply);
        let mut kids = std::mem::take(&mut self.bufs[ply]);
        let forbid = self.children(nd, hint, &mut kids);
        let cycle_rule = self.game.rep == Rep::SimpleKo;
        let mut fail = Info::NONE;
        let mut unknown = NO_MOVE;
        let mut any_unknown = false;
        let mut proved: Option<(i64, Info, u8)> = None;
        for ch in kids.iter() {
            if proved.is_some() {
                break;
            }
            let r = self.child_res(nd, ch, t, d);
            if self.stop.is_some() {
                self.bufs[ply] = kids;
                return Res::Unknown;
            }
            match r {
                Res::Yes(lo, mut info) => {
                    let chose_pass_on = ch.mv == PASS && !nd.prev_pass;
                    if ch.mv != PASS || (cycle_rule && chose_pass_on) {
                        info.summary.add_board(ch.nb);
                    }
                    proved = Some((lo, info, ch.mv));
                    break;
                }
                Res::No(hi, info) => {
                    fail.merge(&info);
                    if cycle_rule {
                        fail.summary.add_board(ch.nb);
                    }
                    fail_hi = fail_hi.max(hi);
                }
                Res::Unknown => {
                    if !any_unknown {
                        unknown = ch.mv;
                        any_unknown = true;
                    }
                }
            }
        }
        self.bufs[ply] = kids;
        if let Some((_, _, mv)) = proved {
            self.reward(ply, nd.white, mv);
        }
        fail.dep = fail.dep.min(forbid);
        let res = match proved {
            Some((lo, info, _)) => Res::Yes(lo, info),
            None if any_unknown => Res::Unknown,
            None => Res::No(fail_hi, fail),
        };
        debug_assert!(
            !matches!(res, Res::No(hi, _) if hi < lo_s)
                && !matches!(res, Res::Yes(lo, _) if lo > hi_s),
            "a static bound contradicts a proved bound"
        );
        if let Some((key, sym)) = key_sym {
            let mv = match &res {
                Res::Yes(..) => proved.map_or(NO_MOVE, |p| p.2),
                Res::Unknown => unknown,
                Res::No(..) => NO_MOVE,
            };
            self.store(key, sym, &res, mv, t, d, self.nodes - nodes_before, k);
        }
        res
    }
}

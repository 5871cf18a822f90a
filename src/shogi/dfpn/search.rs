//! The df-pn+ search: the children of a node, their first values (leaf tests, the tables,
//! the df-pn+ estimate), delayed moves, thresholds, and the resolution of a node with its proof or
//! disproof hands.

use super::api::{Progress, ProgressFn};
use super::hand;
use super::path::{board_key, path_key, History, Path};
use super::table::Handle;
use super::team::Team;
use super::val::{Val, BIG, INF, NO_LIMIT, NO_REP};
use crate::shogi::bitboard::tables;
use crate::shogi::checks::generate_checks_unjudged;
use crate::shogi::mate1::{has_evasion, mate_in_1_with};
use crate::shogi::movegen::{MoveList, PawnDropMate};
use crate::shogi::position::Position;
use crate::shogi::readings::Reading;
use crate::shogi::types::{Color, Move, PieceKind};
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The deepest path searched; deeper lines are cut and the result is "unknown".
pub(super) const MAX_DEPTH: u32 = 30_000;
/// New positions after a check with at most this many defences are looked at one ply further
/// (each defence in the table or with the mate-in-one routine). Measured on the oracle sets: a
/// deeper look finds proofs with fewer nodes but costs more time than it saves.
const LOOKAHEAD_MAX: usize = 1;
/// The first proof number of a new position after a check is its number of defences, at most
/// this. Measured on the published sets (nodes to the first proof, all 500 problems of each):
/// a cap of 20 gave 43,060 / 111,806 / 402,691 / 994,653 nodes on mate-5 / 7 / 9 / 11, a cap
/// of 3 gives 30,260 / 92,063 / 381,703 / 726,877 (6 and 2 lie between or above); these counts
/// predate the tie-break on work (see `select`), which brought them to 24,348 / 82,574 /
/// 375,919 / 705,841, and the defence count as the first work of a new check to 24,401 / 79,911
/// / 357,783 / 653,300.
const PN_CAP: u32 = 3;

#[derive(Clone, Copy)]
pub(super) struct Child {
    m: Move,
    v: Val,
    /// The full key of the position after the move.
    key: u64,
    /// The next move of a delayed chain (`u32::MAX`: none).
    next: u32,
    active: bool,
}

/// `th - total + child`, the child's threshold under a sum rule.
#[inline]
fn sub_th(th: u32, total: u32, child: u32) -> u32 {
    (th as u64 + child as u64)
        .saturating_sub(total as u64)
        .min(INF as u64) as u32
}

/// The 1+ε threshold above the second-best child.
#[inline]
fn eps_th(second: u32) -> u32 {
    (second as u64 + second as u64 / 4 + 1).min(INF as u64) as u32
}

/// The hand index of the piece a move captures, if any.
#[inline]
fn captured_kind(p: &Position, m: Move) -> Option<usize> {
    if m.is_drop() {
        return None;
    }
    let c = p.board[m.to().index()];
    if c == 0 {
        return None;
    }
    let k = PieceKind::ALL[((c & 15) - 1) as usize].unpromoted().index();
    (k < 7).then_some(k)
}

pub(super) struct Search<'a> {
    pub(super) tt: Handle<'a>,
    pub(super) attacker: Color,
    pub(super) reading: Reading,
    pub(super) broad: bool,
    pub(super) nodes: u64,
    pub(super) max_nodes: u64,
    pub(super) deadline: Option<Instant>,
    pub(super) stop_flag: Option<Arc<AtomicBool>>,
    pub(super) stopped: bool,
    pub(super) next_check: u64,
    pub(super) next_report: u64,
    pub(super) t0: Instant,
    pub(super) progress: Option<ProgressFn>,
    pub(super) best_plies: u32,
    pub(super) path: Path,
    pub(super) history: History,
    pub(super) rep_table: &'a mut FxHashMap<u64, Val>,
    pub(super) children: &'a mut Vec<Child>,
    pub(super) scratch: &'a mut MoveList,
    pub(super) capped: bool,
    pub(super) max_depth: u32,
    pub(super) mate_buf: &'a mut Vec<Move>,
    /// Set while a new set of defences is looked at once one of them is found unresolved: the
    /// defences after it are not tried with the mate-in-one routine (see `mid`).
    pub(super) defer: bool,
    /// The threads that share the table, if any (see `parallel`).
    pub(super) team: Team,
}

/// The working memory of a search, kept by the solver from one problem to the next (a batch of
/// short problems would otherwise spend much of its time allocating and faulting it in).
pub(super) struct Buffers {
    pub(super) rep_table: FxHashMap<u64, Val>,
    pub(super) children: Vec<Child>,
    pub(super) scratch: Box<MoveList>,
    pub(super) mate_buf: Vec<Move>,
}

impl Buffers {
    pub(super) fn new() -> Buffers {
        Buffers {
            rep_table: FxHashMap::default(),
            children: Vec::with_capacity(4096),
            scratch: Box::new(MoveList::new()),
            mate_buf: Vec::with_capacity(128),
        }
    }
}

impl<'a> Search<'a> {
    /// A search with nothing done yet for `attacker` under `reading`, on the table `tt` with the
    /// buffers `b` (emptied), started at `t0`: no limits, no progress shown, on its own; the
    /// callers set what differs.
    pub(super) fn start(
        tt: Handle<'a>,
        b: &'a mut Buffers,
        attacker: Color,
        reading: Reading,
        t0: Instant,
    ) -> Search<'a> {
        b.rep_table.clear();
        b.children.clear();
        b.scratch.clear();
        b.mate_buf.clear();
        Search {
            tt,
            attacker,
            reading,
            broad: reading.perpetual_forbidden,
            nodes: 0,
            max_nodes: 0,
            deadline: None,
            stop_flag: None,
            stopped: false,
            next_check: 0,
            next_report: u64::MAX,
            t0,
            progress: None,
            best_plies: 0,
            path: Path::new(),
            history: History::default(),
            rep_table: &mut b.rep_table,
            children: &mut b.children,
            scratch: &mut b.scratch,
            capped: false,
            max_depth: 0,
            mate_buf: &mut b.mate_buf,
            defer: false,
            team: Team::default(),
        }
    }
}

impl Search<'_> {
    #[inline]
    pub(super) fn hands(&self, p: &Position) -> (u32, u32) {
        // The root's hands fit (checked before the search) and no more pieces appear.
        let a = self.attacker.index();
        (
            hand::pack_unchecked(&p.hands[a]),
            hand::pack_unchecked(&p.hands[a ^ 1]),
        )
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.max_nodes != 0 && self.nodes >= self.max_nodes {
            self.stopped = true;
        }
        if self.team.halted() {
            self.stopped = true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 4096;
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
            if let Some(f) = &self.stop_flag {
                if f.load(Ordering::Relaxed) {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    fn report(&mut self, pn: u32, dn: u32) {
        if self.nodes < self.next_report {
            return;
        }
        self.next_report = self.nodes + 100_000;
        if let Some(f) = &self.progress {
            f(&Progress {
                nodes: self.nodes,
                ms: self.t0.elapsed().as_millis() as u64,
                pn,
                dn,
                plies: self.best_plies,
            });
        }
    }

    /// Does the table apply here? Under the broad reading only while no position has occurred
    /// twice (see the module documentation).
    #[inline]
    fn table_usable(&self) -> bool {
        !self.broad || self.history.twice == 0
    }

    /// The most the defender may hold for a proof at `p` (defender to move, in check) to stay a
    /// proof as far as this node's own moves go: when the check can be interposed, a kind the
    /// defender lacks would add drops.
    fn interposition_bound(&self, p: &Position, hd: u32) -> u32 {
        let t = tables();
        let us = p.side;
        let ksq = p.king[us.index()] as usize;
        if ksq >= 81 {
            return hand::FULL;
        }
        let checkers = p.attackers_occ(ksq, us.flip(), p.occ());
        if checkers == 0 || checkers & (checkers - 1) != 0 {
            return hand::FULL;
        }
        if t.between(ksq, checkers.trailing_zeros() as usize) == 0 {
            return hand::FULL;
        }
        let mut b = hand::FULL;
        for k in 0..7 {
            if hand::get(hd, k) == 0 {
                b = hand::set(b, k, 0);
            }
        }
        b
    }

    /// The defender's legal moves at `p` under the reading; true if the bounds must be exact
    /// (a pawn drop was judged by the attacker's hand).
    pub(super) fn gen_defences(&mut self, p: &Position) -> bool {
        self.scratch.clear();
        p.generate_legal(self.scratch);
        let mut exact = false;
        if self.reading.pawn_drop_mate == PawnDropMate::NoMoveLeft
            && p.hands[p.side.index()].get(0) != 0
            && p.king[self.attacker.index()] < 81
        {
            self.scratch.retain(|m| {
                if m.drop_kind() != Some(PieceKind::Pawn) {
                    return true;
                }
                let keep = p.after(m).has_legal_move_with(PawnDropMate::NoMoveLeft);
                if !keep {
                    exact = true;
                }
                keep
            });
        }
        exact
    }

    /// Under the broad reading, with a position occurring three times: drop the moves that
    /// complete the mover's perpetual check, and the pawn drops all of whose answers do.
    /// Returns true if the history was looked at.
    pub(super) fn broad_filter(&mut self, p: &mut Position) -> bool {
        if !self.broad || self.history.thrice == 0 {
            return false;
        }
        let moves: Vec<Move> = self.scratch.as_slice().to_vec();
        self.scratch.clear();
        for m in moves {
            let u = p.do_move(m);
            let mut keep = !self.history.perpetual_forbidden(p);
            if keep && m.drop_kind() == Some(PieceKind::Pawn) {
                // The answers to the pawn drop, judged with the history.
                let answers = p.legal_moves_with(self.reading.pawn_drop_mate);
                let could_mate = !self.reading.mate_needs_check() || p.in_check();
                if could_mate {
                    self.history.push(p);
                    let mut any = false;
                    for &a in answers.iter() {
                        let ua = p.do_move(a);
                        let ok = !self.history.perpetual_forbidden(p);
                        p.undo_move(a, ua);
                        if ok {
                            any = true;
                            break;
                        }
                    }
                    self.history.pop();
                    keep = any;
                }
            }
            p.undo_move(m, u);
            if keep {
                self.scratch.push(m);
            }
        }
        true
    }

    /// Are the defender's legal moves at `p` those of the standard rule (no pawn drop judged by the
    /// reading, no history looked at)?
    fn plain_defences(&self, p: &Position) -> bool {
        let pawn_rule = self.reading.pawn_drop_mate == PawnDropMate::NoMoveLeft
            && p.hands[p.side.index()].get(0) != 0
            && p.king[self.attacker.index()] < 81;
        !(pawn_rule || self.broad && self.history.thrice > 0)
    }

    /// Is the defender to move at `p` (in check) without a legal move under the reading?
    fn is_mated(&mut self, p: &mut Position) -> bool {
        if !has_evasion(p) {
            return true;
        }
        let pawn_rule = self.reading.pawn_drop_mate == PawnDropMate::NoMoveLeft
            && p.hands[p.side.index()].get(0) != 0
            && p.king[self.attacker.index()] < 81;
        if !(pawn_rule || self.broad && self.history.thrice > 0) {
            return false;
        }
        self.gen_defences(p);
        self.broad_filter(p);
        self.scratch.is_empty()
    }

    /// The first value of a child position `p` (already played): repetition, the tables, a
    /// leaf test, or the df-pn+ estimate.
    pub(super) fn child_init(&mut self, p: &mut Position, budget: u32, pk: u64) -> Val {
        let ck = p.key();
        let key = board_key(p);
        let (ha, hd) = self.hands(p);
        if self.broad {
            if self.history.count(ck) >= 4 {
                // A fifth occurrence: the line ends without mate.
                return Val::repetition(0);
            }
        } else if let Some(d) = self.path.find_inferior(key, ha, hd) {
            return Val::repetition(d);
        }
        if let Some(v) = self.rep_table.get(&path_key(pk, ck)) {
            // Kept for this path; the budget must fit as in the table.
            if (v.dn == 0 && v.len >= budget) || (v.pn == 0 && v.len <= budget) {
                return *v;
            }
        }
        if self.table_usable() {
            if let Some(v) = self.tt.probe(key, ha, hd, budget) {
                return v;
            }
        }
        let simple = !self.broad || self.history.thrice == 0;
        if p.side != self.attacker {
            // After a check.
            let n = p.count_legal();
            // No legal move under the standard pawn-drop rule means none under any reading;
            // some moves may still all be forbidden under the others.
            if n == 0 || (!self.plain_defences(p) && self.is_mated(p)) {
                let v = Val::proof(0, 0, self.interposition_bound(p, hd));
                if self.table_usable() && simple {
                    self.tt.store(key, &v, ha, hd, 1);
                }
                return v;
            }
            if simple && self.table_usable() {
                if n <= LOOKAHEAD_MAX {
                    return self.and_lookahead(p, key, ha, hd, budget);
                }
                let mut v = Val::unknown((n as u32).min(PN_CAP), 1);
                self.tt.store(key, &v, ha, hd, 1);
                // The tie-break among checks of equal (capped) proof number: fewer defences
                // first. The table entry stored above counts 1; when this child is searched from
                // here, its work is counted on from the defences (`prior` of `mid`).
                v.work = n as u32;
                return v;
            }
            Val::unknown((n as u32).clamp(1, PN_CAP), 1)
        } else {
            // After an evasion.
            if self.defer {
                // Not tried yet; counted as one unit of work, like a defence that was tried,
                // so that the defences are searched in their order.
                let mut v = Val::unknown(1, 1);
                v.work = 1;
                return v;
            }
            if budget >= 1 && simple {
                if let Some(m) = mate_in_1_with(p, self.mate_buf) {
                    let ph = match m.drop_kind() {
                        Some(k) => hand::add1(0, k.index()),
                        None => 0,
                    };
                    let u = p.do_move(m);
                    let bound = self.interposition_bound(p, hd);
                    p.undo_move(m, u);
                    let v = Val::proof(1, ph, bound);
                    if self.table_usable() {
                        self.tt.store(key, &v, ha, hd, 1);
                    }
                    return v;
                }
                // Remembered, so that the mate-in-one test is not made again.
                if self.table_usable() {
                    self.tt.store(key, &Val::unknown(1, 1), ha, hd, 1);
                }
            }
            Val::unknown(1, 1)
        }
    }

    /// Reads the table buckets of the children from `base` on, so that the memory loads overlap
    /// (the probes that follow find them in the cache).
    fn warm(&self, p: &Position, base: usize) {
        if !self.table_usable() {
            return;
        }
        for c in &self.children[base..] {
            self.tt.prefetch(p.board_key_after(c.m) | 1);
        }
    }

    /// A new position after a check (`p`, defender to move, not mated): each defence is looked
    /// up in the table or tried with the mate-in-one routine. If every defence is answered, the
    /// position is proven (a mate in three from the check); otherwise its proof number is the
    /// number of defences left unanswered (a fixed-depth search at new nodes).
    fn and_lookahead(&mut self, p: &mut Position, key: u64, ha: u32, hd: u32, budget: u32) -> Val {
        let exact = self.gen_defences(p);
        let n = self.scratch.len();
        if n == 0 {
            let mut v = Val::proof(0, 0, self.interposition_bound(p, hd));
            v.exact = exact;
            self.tt.store(key, &v, ha, hd, 1);
            return v;
        }
        if n > LOOKAHEAD_MAX || budget < 2 {
            let v = Val::unknown((n as u32).min(PN_CAP), 1);
            self.tt.store(key, &v, ha, hd, 1);
            return v;
        }
        let mut moves = [Move::drop(
            PieceKind::Pawn,
            crate::shogi::types::Square::new_unchecked(0),
        ); 24];
        moves[..n].copy_from_slice(self.scratch.as_slice());
        for &m in &moves[..n] {
            self.tt.prefetch(p.board_key_after(m) | 1);
        }
        let cb = if budget >= NO_LIMIT {
            NO_LIMIT
        } else {
            budget - 1
        };
        let mut open = 0u32;
        let mut len = 0;
        let mut ph = 0;
        let mut bound = self.interposition_bound(p, hd);
        for &m in &moves[..n] {
            let u = p.do_move(m);
            let mut v = None;
            let ck = board_key(p);
            let (cha, chd) = self.hands(p);
            let repeated = if self.broad {
                self.history.count(p.key()) > 0
            } else {
                self.path.find_inferior(ck, cha, chd).is_some()
            };
            if !repeated {
                match self.tt.probe(ck, cha, chd, cb) {
                    Some(t) if t.pn == 0 => v = Some(t),
                    Some(t) if t.dn == 0 => {
                        p.undo_move(m, u);
                        // A defence that holds: the check fails.
                        let mut d = t;
                        let mut b = t.hd;
                        if let Some(k) = m.drop_kind() {
                            b = hand::add1(b, k.index());
                        } else if let Some(k) = captured_kind(p, m) {
                            b = hand::sub1(b, k);
                        }
                        d.len = if t.len >= NO_LIMIT {
                            NO_LIMIT
                        } else {
                            t.len + 1
                        };
                        d.ha = hand::max(t.ha, ha);
                        d.hd = hand::min(b, hd);
                        d.exact |= exact;
                        if d.exact {
                            d.ha = ha;
                            d.hd = hd;
                        }
                        self.tt.store(key, &d, ha, hd, 1);
                        return d;
                    }
                    _ => {
                        if cb >= 1 {
                            if let Some(mm) = mate_in_1_with(p, self.mate_buf) {
                                let mph = match mm.drop_kind() {
                                    Some(k) => hand::add1(0, k.index()),
                                    None => 0,
                                };
                                let u2 = p.do_move(mm);
                                let b2 = self.interposition_bound(p, chd);
                                p.undo_move(mm, u2);
                                let t = Val::proof(1, mph, b2);
                                self.tt.store(ck, &t, cha, chd, 1);
                                v = Some(t);
                            } else {
                                self.tt.store(ck, &Val::unknown(1, 1), cha, chd, 1);
                            }
                        }
                    }
                }
            }
            p.undo_move(m, u);
            match v {
                Some(t) => {
                    len = len.max(t.len + 1);
                    ph = hand::max(ph, t.ha);
                    let mut b = t.hd;
                    if let Some(k) = m.drop_kind() {
                        b = hand::add1(b, k.index());
                    } else if let Some(k) = captured_kind(p, m) {
                        b = hand::sub1(b, k);
                    }
                    bound = hand::min(bound, b);
                }
                None => open += 1,
            }
        }
        if open == 0 {
            let mut v = Val::proof(len, hand::min(ph, ha), hand::max(bound, hd));
            v.exact = exact;
            if v.exact {
                v.ha = ha;
                v.hd = hd;
            }
            self.tt.store(key, &v, ha, hd, 1);
            return v;
        }
        let v = Val::unknown(open.min(20), 1);
        self.tt.store(key, &v, ha, hd, 1);
        v
    }

    /// Links the delayed moves among the children `base..end` and activates the heads.
    fn link_delayed(&mut self, p: &Position, base: usize, end: usize, or: bool) {
        let mut last_drop = [u32::MAX; 81];
        for i in base..end {
            let m = self.children[i].m;
            let pred = if m.is_drop() {
                if or {
                    continue;
                }
                let to = m.to().index();
                let prev = last_drop[to];
                last_drop[to] = i as u32;
                prev
            } else if !m.is_promotion() && i > base {
                // The promoting form is generated just before the plain one.
                let prev = self.children[i - 1].m;
                let f = m.from().map(|s| s.index()).unwrap_or(81);
                let kind = PieceKind::ALL[((p.board[f.min(80)] & 15).max(1) - 1) as usize];
                let delay = matches!(
                    kind,
                    PieceKind::Pawn | PieceKind::Lance | PieceKind::Bishop | PieceKind::Rook
                );
                if delay && prev.is_promotion() && prev.from() == m.from() && prev.to() == m.to() {
                    (i - 1) as u32
                } else {
                    u32::MAX
                }
            } else {
                u32::MAX
            };
            if pred != u32::MAX {
                self.children[pred as usize].next = i as u32;
                self.children[i].active = false;
            }
        }
        // A head already resolved the expected way hands on to its successor.
        for i in base..end {
            if self.children[i].active {
                self.hand_on(i, or);
            }
        }
    }

    /// Activates the successors of child `i` while it is resolved the expected way (proven at
    /// an AND node, disproven at an OR node).
    fn hand_on(&mut self, mut i: usize, or: bool) {
        loop {
            let c = &self.children[i];
            let done = if or { c.v.dn == 0 } else { c.v.pn == 0 };
            if !done || c.next == u32::MAX {
                return;
            }
            let n = c.next as usize;
            self.children[n].active = true;
            i = n;
        }
    }

    /// (pn, dn) of the node from its children.
    fn aggregate(&self, base: usize, end: usize, or: bool) -> (u32, u32) {
        let cs = &self.children[base..end];
        if or {
            let mut pn = INF;
            let mut dn: u64 = 0;
            for c in cs {
                if c.v.pn == 0 {
                    return (0, INF);
                }
                if c.active {
                    pn = pn.min(c.v.pn);
                    dn += c.v.dn as u64;
                }
            }
            if dn == 0 {
                return (INF, 0);
            }
            (pn, dn.min(BIG as u64) as u32)
        } else {
            let mut pn: u64 = 0;
            let mut dn = INF;
            for c in cs {
                if c.v.dn == 0 {
                    return (INF, 0);
                }
                if c.active {
                    pn += c.v.pn as u64;
                    dn = dn.min(c.v.dn);
                }
            }
            if pn == 0 {
                return (0, INF);
            }
            (pn.min(BIG as u64) as u32, dn)
        }
    }

    /// The active child to search and the second-best value. With `SHARED` (other threads on
    /// the table), at a node of the attacker's a check another thread is searching counts as if
    /// its proof number were twice as large, so that the threads spread out over the checks;
    /// without, the table of busy positions is not read. The defender's replies are not spread
    /// (spreading them too was slower on the mate-9 and mate-11 sets: see docs/PERFORMANCE.md).
    fn select<const SHARED: bool>(&self, base: usize, end: usize, or: bool) -> (usize, u32) {
        let mut best = usize::MAX;
        let mut v1 = u32::MAX;
        let mut v2 = u32::MAX;
        let mut bv = u32::MAX;
        for (i, c) in self.children[base..end].iter().enumerate() {
            if !c.active {
                continue;
            }
            let mut v = if or { c.v.pn } else { c.v.dn };
            if SHARED && or && v < INF && self.team.busy(c.key) {
                v = (v.saturating_mul(2) + 1).min(BIG);
            }
            if v < v1 || (v == v1 && c.v.work < bv) {
                v2 = v1;
                v1 = v;
                bv = c.v.work;
                best = base + i;
            } else if v < v2 {
                v2 = v;
            }
        }
        (best, v2.min(INF))
    }

    /// The thresholds of the child with value `c` under a node with thresholds `thpn`, `thdn`
    /// and numbers `pn`, `dn`, `second` the second-best number among the children.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_th(
        c: &Val,
        or: bool,
        thpn: u32,
        thdn: u32,
        pn: u32,
        dn: u32,
        second: u32,
    ) -> (u32, u32) {
        if or {
            (thpn.min(eps_th(second)), sub_th(thdn, dn, c.dn))
        } else {
            (sub_th(thpn, pn, c.pn), thdn.min(eps_th(second)))
        }
    }

    /// The value of a node without moves (`scratch` empty): the attacker without a check is
    /// disproven, whatever more of the kinds already held; the defender without a defence is
    /// mated.
    #[inline]
    fn no_move(&self, p: &Position, or: bool, ha: u32, hd: u32) -> Val {
        if or {
            let mut d = hand::FULL;
            for k in 0..7 {
                if hand::get(ha, k) == 0 {
                    d = hand::set(d, k, 0);
                }
            }
            Val::disproof(NO_LIMIT, d, 0)
        } else {
            Val::proof(0, 0, self.interposition_bound(p, hd))
        }
    }

    /// The children of the node at `p` from the moves in `scratch`, pushed from `base` on and
    /// each given its first value (`cb` plies left below, `pk` the node's path key); where they
    /// end. A mate found among the attacker's moves ends the list there.
    #[inline]
    fn expand(&mut self, p: &mut Position, or: bool, base: usize, cb: u32, pk: u64) -> usize {
        for &m in self.scratch.as_slice() {
            self.children.push(Child {
                m,
                v: Val::unknown(1, 1),
                key: 0,
                next: u32::MAX,
                active: true,
            });
        }
        self.warm(p, base);
        for i in base..self.children.len() {
            let m = self.children[i].m;
            let u = p.do_move(m);
            let ck = p.key();
            let mut v = self.child_init(p, cb, pk);
            p.undo_move(m, u);
            if or && v.pn == 0 && v.len == 0 && m.drop_kind() == Some(PieceKind::Pawn) {
                // A pawn drop that mates is illegal: a move that does not exist.
                v = Val::disproof(NO_LIMIT, hand::FULL, 0);
            }
            self.children[i].v = v;
            self.children[i].key = ck;
            if or && v.pn == 0 {
                self.children.truncate(i + 1);
                break; // a mate: no need to look further
            }
            // Once a defence is unresolved the node is not proven by this look, and the mate in
            // one of the defences after it is left to when they are searched: most positions
            // after a check are left (disproven or outgrown) before all their defences are.
            if !or && v.pn != 0 && v.dn != 0 {
                self.defer = true;
            }
        }
        self.defer = false;
        let end = self.children.len();
        self.link_delayed(p, base, end, or);
        end
    }

    /// Multiple iterative deepening at `p`, `budget` plies left, `pk` the path key.
    pub(super) fn mid(
        &mut self,
        p: &mut Position,
        thpn: u32,
        thdn: u32,
        budget: u32,
        pk: u64,
        prior: u32,
    ) -> Val {
        self.nodes += 1;
        let depth = self.path.len() as u32 + 1;
        self.max_depth = self.max_depth.max(depth);
        let or = p.side == self.attacker;
        if or && budget == 0 {
            return Val::disproof(0, hand::FULL, 0);
        }
        if depth > MAX_DEPTH {
            self.capped = true;
            return Val::repetition(0);
        }
        let key = board_key(p);
        let (ha, hd) = self.hands(p);
        let start = self.nodes;
        // The moves.
        let mut exact = false;
        if or {
            // Pawn drops that mate are found mated below and left out then.
            self.scratch.clear();
            generate_checks_unjudged(p, &mut *self.scratch);
        } else {
            exact = self.gen_defences(p);
        }
        let mut node_rep = NO_REP;
        if self.broad_filter(p) {
            node_rep = 0;
        }
        if self.scratch.is_empty() {
            let mut v = self.no_move(p, or, ha, hd);
            v.exact = exact;
            v.rep = node_rep;
            return self.finish_store(key, ha, hd, v, depth, pk, 1);
        }
        if !or && budget < 2 {
            return Val::disproof(budget, hand::FULL, 0);
        }
        let cb = if budget >= NO_LIMIT {
            NO_LIMIT
        } else {
            budget - 1
        };
        if self.broad {
            self.history.push(p);
        }
        self.path.push(key, ha, hd);
        let base = self.children.len();
        let end = self.expand(p, or, base, cb, pk);
        let shared = self.team.shared();
        if shared {
            self.team.enter(p.key());
        }
        let (mut pn, mut dn);
        loop {
            (pn, dn) = self.aggregate(base, end, or);
            if pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || self.out_of_budget() {
                break;
            }
            if depth == 1 {
                self.report(pn, dn);
            }
            let (mut best, mut second) = if shared {
                self.select::<true>(base, end, or)
            } else {
                self.select::<false>(base, end, or)
            };
            if best == usize::MAX {
                break;
            }
            let (mut cthpn, mut cthdn) =
                Self::child_th(&self.children[best].v, or, thpn, thdn, pn, dn, second);
            if shared && (cthpn <= self.children[best].v.pn || cthdn <= self.children[best].v.dn) {
                // The child the others leave is not worth a search under the thresholds here.
                (best, second) = self.select::<false>(base, end, or);
                (cthpn, cthdn) =
                    Self::child_th(&self.children[best].v, or, thpn, thdn, pn, dn, second);
            }
            let c = self.children[best];
            let u = p.do_move(c.m);
            let r = self.mid(p, cthpn, cthdn, cb, path_key(pk, c.key), c.v.work);
            p.undo_move(c.m, u);
            self.children[best].v = r;
            self.hand_on(best, or);
        }
        if shared {
            self.team.leave(p.key());
        }
        self.path.pop();
        if self.broad {
            self.history.pop();
        }
        let amount = self.nodes - start + 1 + prior as u64;
        let mut v = if pn == 0 || dn == 0 {
            self.resolve(p, base, end, or, ha, hd, pn == 0)
        } else {
            let mut v = Val::unknown(pn, dn);
            v.work = amount.min(u32::MAX as u64) as u32;
            v
        };
        v.exact |= exact && v.resolved();
        if v.resolved() {
            v.rep = v.rep.min(node_rep);
        }
        self.children.truncate(base);
        self.finish_store(key, ha, hd, v, depth, pk, amount)
    }

    /// Stores a node's value where it belongs and returns it as its parent sees it.
    #[allow(clippy::too_many_arguments)]
    fn finish_store(
        &mut self,
        key: u64,
        ha: u32,
        hd: u32,
        mut v: Val,
        depth: u32,
        pk: u64,
        amount: u64,
    ) -> Val {
        if v.resolved() && v.rep < depth {
            if self.rep_table.len() > 4_000_000 {
                self.rep_table.clear();
            }
            self.rep_table.insert(pk, v);
            return v;
        }
        v.rep = NO_REP;
        if v.exact {
            v.ha = ha;
            v.hd = hd;
        }
        if self.table_usable() && !self.stopped_unresolved(&v) {
            self.tt.store(key, &v, ha, hd, amount);
        }
        v
    }

    /// An unresolved value left by a stopped search is not worth keeping.
    fn stopped_unresolved(&self, v: &Val) -> bool {
        self.stopped && !v.resolved()
    }

    /// The proof or disproof of a resolved node, with its bounds, from its children.
    #[allow(clippy::too_many_arguments)]
    #[expect(
        clippy::expect_used,
        reason = "a node is proven (disproven) only through a child that is"
    )]
    fn resolve(
        &mut self,
        p: &Position,
        base: usize,
        end: usize,
        or: bool,
        ha: u32,
        hd: u32,
        proven: bool,
    ) -> Val {
        let cs = &self.children[base..end];
        match (or, proven) {
            (true, true) => {
                // The proven check with the shortest mate.
                let mut best: Option<&Child> = None;
                for c in cs {
                    if c.v.pn == 0 && best.is_none_or(|b| c.v.len < b.v.len) {
                        best = Some(c);
                    }
                }
                let c = best.expect("a proven child");
                let mut ph = c.v.ha;
                if let Some(k) = c.m.drop_kind() {
                    ph = hand::add1(ph, k.index());
                } else if let Some(k) = captured_kind(p, c.m) {
                    ph = hand::sub1(ph, k);
                }
                let mut v = Val::proof(c.v.len + 1, hand::min(ph, ha), c.v.hd);
                v.exact = c.v.exact;
                v.rep = c.v.rep;
                v
            }
            (false, true) => {
                let mut len = 0;
                let mut ph = 0;
                let mut bound = self.interposition_bound(p, hd);
                let mut exact = false;
                let mut rep = NO_REP;
                for c in cs {
                    len = len.max(c.v.len + 1);
                    ph = hand::max(ph, c.v.ha);
                    let mut b = c.v.hd;
                    if let Some(k) = c.m.drop_kind() {
                        b = hand::add1(b, k.index());
                    } else if let Some(k) = captured_kind(p, c.m) {
                        b = hand::sub1(b, k);
                    }
                    bound = hand::min(bound, b);
                    exact |= c.v.exact;
                    rep = rep.min(c.v.rep);
                }
                let mut v = Val::proof(len, hand::min(ph, ha), hand::max(bound, hd));
                v.exact = exact;
                v.rep = rep;
                v
            }
            (true, false) => {
                let mut d = hand::FULL;
                let mut bound = 0;
                let mut valid = NO_LIMIT;
                let mut exact = false;
                let mut rep = NO_REP;
                for c in cs {
                    let mut dc = c.v.ha;
                    if let Some(k) = c.m.drop_kind() {
                        dc = hand::add1(dc, k.index());
                    } else if let Some(k) = captured_kind(p, c.m) {
                        dc = hand::sub1(dc, k);
                    }
                    d = hand::min(d, dc);
                    bound = hand::max(bound, c.v.hd);
                    valid = valid.min(if c.v.len >= NO_LIMIT {
                        NO_LIMIT
                    } else {
                        c.v.len + 1
                    });
                    exact |= c.v.exact;
                    rep = rep.min(c.v.rep);
                }
                for k in 0..7 {
                    if hand::get(ha, k) == 0 {
                        d = hand::set(d, k, 0);
                    }
                }
                let mut v = Val::disproof(valid, hand::max(d, ha), hand::min(bound, hd));
                v.exact = exact;
                v.rep = rep;
                v
            }
            (false, false) => {
                // The disproving defence that depends least on the path, then holds longest.
                let mut best: Option<&Child> = None;
                for c in cs {
                    if c.v.dn != 0 {
                        continue;
                    }
                    let better = match best {
                        None => true,
                        Some(b) => {
                            let (cr, br) = (c.v.rep == NO_REP, b.v.rep == NO_REP);
                            (cr && !br) || (cr == br && (c.v.rep > b.v.rep || c.v.len > b.v.len))
                        }
                    };
                    if better {
                        best = Some(c);
                    }
                }
                let c = best.expect("a disproven child");
                let mut b = c.v.hd;
                if let Some(k) = c.m.drop_kind() {
                    b = hand::add1(b, k.index());
                } else if let Some(k) = captured_kind(p, c.m) {
                    b = hand::sub1(b, k);
                }
                let valid = if c.v.len >= NO_LIMIT {
                    NO_LIMIT
                } else {
                    c.v.len + 1
                };
                let mut v = Val::disproof(valid, hand::max(c.v.ha, ha), hand::min(b, hd));
                v.exact = c.v.exact;
                v.rep = c.v.rep;
                v
            }
        }
    }

    /// Searches the root to a result with `budget` plies, on this thread alone.
    pub(super) fn root_alone(&mut self, p: &mut Position, budget: u32) -> Val {
        self.rep_table.clear();
        self.path.clear();
        let v = self.mid(p, INF, INF, budget, 0x5EED, 0);
        self.path.clear();
        v
    }
}

//! Mate search on a board variant by df-pn (depth-first proof-number search), with a ply budget
//! so that the mate found is proved the shortest.
//!
//! The conventions are those of the reference search in `mate`: every move of the attacker checks
//! or wins at once (a captured royal piece, a try); the defender answers with every legal move,
//! futile interpositions included; the drop-mate rule is the one asked.
//!
//! The search:
//! - **A ply budget.** A node is searched with the plies left; an attacker's node with none left
//!   is disproved. A proof carries its length (the defender's longest resistance against the
//!   attacker's moves of the proof); a disproof the budget it holds for. The table keeps both
//!   per position, so a proof of length `l` answers any budget of at least `l`, and a disproof
//!   for budget `b` any budget of at most `b`.
//! - **Shortest.** After the first proof of length `l` the root is searched again with `l - 2`
//!   plies, on the same table, until a budget is disproved: the last proof is then the shortest.
//! - **Initial values** (df-pn+): a check is as hard to prove as the defender has answers.
//! - **Thresholds** with the 1 + ε rule, so that the search does not flip between two children.
//! - **Repetition.** A position repeating one on the current path is a failure of the attacker
//!   there (a shortest win never repeats a position). A disproof that depends on it holds for that
//!   path only and is never put in the table.
//! - **Bounds**: nodes, a deadline, a stop flag and the entries of the table; when the table is
//!   full its unresolved entries are dropped first.

use super::mate::{key, MateLimits, MateOutcome, MateResult};
use super::position::{VMove, VPos};
use super::spec::RoyalRule;
use rustc_hash::{FxHashMap, FxHashSet};

/// Proof and disproof numbers at most this: infinite.
const INF: u32 = 1 << 30;
/// The longest win searched for, in plies (bounds the recursion).
pub const MAX_PLIES: u32 = 511;
/// Nodes the reading of the line may spend past the search's limits.
const LINE_NODES: u64 = 1_000_000;
/// No proof length known.
const NO_PROOF: u16 = u16::MAX;

/// What the table knows of a position.
#[derive(Clone, Copy)]
struct Entry {
    /// Estimates for budget `rem`.
    pn: u32,
    dn: u32,
    rem: u16,
    /// The length of a proof ([`NO_PROOF`] if none).
    proof: u16,
    /// A budget it is disproved for (0 if none larger).
    disproof: u16,
}

/// The value of a node.
#[derive(Clone, Copy, Debug)]
struct Val {
    pn: u32,
    dn: u32,
    /// The proof's length when `pn == 0`.
    len: u32,
    /// A disproof that depends on a repetition on the path.
    rep: bool,
}

impl Val {
    const WON: Val = Val {
        pn: 0,
        dn: INF,
        len: 0,
        rep: false,
    };
    const LOST: Val = Val {
        pn: INF,
        dn: 0,
        len: 0,
        rep: false,
    };
}

/// A child of a node.
#[derive(Clone, Copy)]
struct Child {
    m: VMove,
    key: u64,
    v: Val,
}

struct Dfpn {
    limits: MateLimits,
    nodes: u64,
    tt: FxHashMap<u64, Entry>,
    path: FxHashSet<u64>,
    attacker: usize,
    stopped: bool,
    /// Moves listed and dropped within one step (never across a recursive call).
    scratch: Vec<VMove>,
}

/// `x * (1 + 1/4) + 1`, capped: a child's threshold given its sibling's number.
fn eps_th(second: u32) -> u32 {
    second.saturating_add(second / 4).saturating_add(1).min(INF)
}

/// `th - total + own`, capped: a child's threshold given its parent's sum.
fn sub_th(th: u32, total: u32, own: u32) -> u32 {
    ((th as u64 + own as u64).saturating_sub(total as u64)).min(INF as u64) as u32
}

impl VPos {
    /// The shortest forced win of the side to move by checks, within the limits, by df-pn. A
    /// search stopped by its limits after a proof returns the shortest win proved so far, with
    /// the lower bound its disproofs prove.
    pub fn mate_search(&mut self, limits: MateLimits) -> MateResult {
        self.mate_search_for(limits, true)
    }

    /// As [`VPos::mate_search`]; with `shortest` false the first win proved is returned.
    pub fn mate_search_for(&mut self, mut limits: MateLimits, shortest: bool) -> MateResult {
        limits.max_plies = limits.max_plies.min(MAX_PLIES);
        let mut budget = limits.max_plies;
        if budget.is_multiple_of(2) {
            budget = budget.saturating_sub(1);
        }
        let mut s = Dfpn {
            tt: FxHashMap::with_capacity_and_hasher(
                limits.max_entries.min(1 << 16),
                Default::default(),
            ),
            limits,
            nodes: 0,
            path: FxHashSet::default(),
            attacker: self.side,
            stopped: false,
            scratch: Vec::with_capacity(256),
        };
        let k = key(self);
        // the length of the shortest win proved so far
        let mut proved: Option<u32> = None;
        // the shortest length not excluded
        let mut lower_bound = 1;
        while budget >= 1 {
            let v = s.mid(self, k, budget, INF, INF);
            if s.stopped {
                break;
            }
            if v.pn != 0 {
                lower_bound = budget + 2;
                break;
            }
            proved = Some(v.len);
            if !shortest || v.len <= 1 {
                break;
            }
            budget = v.len - 2;
        }
        let exact = proved.is_some_and(|l| lower_bound >= l);
        // the line is read off the table with an allowance of its own, so that a search stopped
        // after its proof still gives it: the proofs are there, a few may be proved again
        let best = proved.and_then(|l| {
            s.stopped = false;
            s.limits.max_nodes = s.nodes.saturating_add(LINE_NODES);
            s.limits.deadline = None;
            s.limits.stop = None;
            s.line(self, l, exact)
        });
        let found = best.is_some();
        let outcome = match best {
            Some(line) => MateOutcome::Mate(line),
            // a win proved whose line could not be read is no answer either way
            None if s.stopped || proved.is_some() => MateOutcome::Unknown,
            None => MateOutcome::NoMate,
        };
        MateResult {
            shortest: exact && found,
            lower_bound: if found { lower_bound } else { 0 },
            outcome,
            nodes: s.nodes,
        }
    }
}

impl Dfpn {
    fn spend(&mut self) {
        self.nodes += 1;
        if self.limits.exceeded(self.nodes) {
            self.stopped = true;
        }
    }

    /// The table's value of position `k` for a budget of `rem` plies.
    fn lookup(&self, k: u64, rem: u32) -> Option<Val> {
        let e = self.tt.get(&k)?;
        if e.proof != NO_PROOF && e.proof as u32 <= rem {
            return Some(Val {
                len: e.proof as u32,
                ..Val::WON
            });
        }
        if e.disproof as u32 >= rem {
            return Some(Val::LOST);
        }
        (e.rem as u32 == rem).then_some(Val {
            pn: e.pn,
            dn: e.dn,
            len: 0,
            rep: false,
        })
    }

    fn store(&mut self, k: u64, rem: u32, v: Val) {
        if v.rep && v.dn == 0 {
            return;
        }
        if self.tt.len() >= self.limits.max_entries && !self.tt.contains_key(&k) {
            self.tt.retain(|_, e| e.proof != NO_PROOF || e.disproof > 0);
            if self.tt.len() >= self.limits.max_entries / 2 {
                self.tt.clear();
            }
            if self.limits.max_entries == 0 {
                return;
            }
        }
        let e = self.tt.entry(k).or_insert(Entry {
            pn: 1,
            dn: 1,
            rem: rem as u16,
            proof: NO_PROOF,
            disproof: 0,
        });
        if v.pn == 0 {
            e.proof = e.proof.min(v.len as u16);
        } else if v.dn == 0 {
            e.disproof = e.disproof.max(rem as u16);
        } else {
            e.pn = v.pn;
            e.dn = v.dn;
            e.rem = rem as u16;
        }
    }

    /// Did the attacker win, the defender to move? (`None`: the game goes on.)
    fn decided(&self, p: &VPos) -> Option<bool> {
        p.won_by(self.attacker)
    }

    /// The children of `p` (the attacker to move if `or`), `rem` plies left.
    fn children(&mut self, p: &mut VPos, rem: u32, or: bool) -> Vec<Child> {
        let dm = self.limits.drop_mate;
        // under the check rule only checks can win: generated as such
        let checks_only = or && p.t.spec.royal == RoyalRule::Check;
        let moves = if checks_only {
            p.legal_checks(dm)
        } else {
            p.legal_moves(dm)
        };
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            let u = p.do_move(m);
            let v = if or {
                self.attacker_child(p, rem, m, checks_only)
            } else {
                self.defender_child(p, rem)
            };
            if let Some((key, v)) = v {
                out.push(Child { m, key, v });
            }
            p.undo_move(m, u);
        }
        out
    }

    /// After an attacker's move (`is_check`: generated as a check): a win, a check to search, or
    /// nothing (not a check).
    fn attacker_child(
        &mut self,
        p: &mut VPos,
        rem: u32,
        m: VMove,
        is_check: bool,
    ) -> Option<(u64, Val)> {
        match self.decided(p) {
            Some(true) => return Some((0, Val::WON)),
            Some(false) => return None,
            None => {}
        }
        if !is_check && !p.threatened() {
            return None;
        }
        let check_rule = p.t.spec.royal == RoyalRule::Check;
        if rem < 3 {
            let mates = check_rule && !p.has_legal_move() && !p.forbidden_mate_drop(m);
            return mates.then_some((0, Val::WON));
        }
        let k = key(p);
        if let Some(v) = self.repeated(k) {
            return Some((k, v));
        }
        if let Some(v) = self.lookup(k, rem - 1) {
            return Some((k, v));
        }
        p.legal_moves_into(self.limits.drop_mate, &mut self.scratch);
        let answers = self.scratch.len() as u32;
        if answers == 0 {
            // mated under the check rule (unless by a forbidden drop, which loses); no move
            // under the capture rule is no win
            return if check_rule && !p.forbidden_mate_drop(m) {
                Some((0, Val::WON))
            } else {
                Some((k, Val::LOST))
            };
        }
        // kept, so that the answers are counted once however often the check is looked at
        let v = Val {
            pn: answers,
            dn: 1,
            len: 0,
            rep: false,
        };
        self.store(k, rem - 1, v);
        Some((k, v))
    }

    /// A position on the current path: a failure of the attacker there, for this path only.
    fn repeated(&self, k: u64) -> Option<Val> {
        self.path.contains(&k).then_some(Val {
            rep: true,
            ..Val::LOST
        })
    }

    /// After a defender's move.
    fn defender_child(&mut self, p: &mut VPos, rem: u32) -> Option<(u64, Val)> {
        match self.decided(p) {
            Some(true) => return Some((0, Val::WON)),
            Some(false) => return Some((0, Val::LOST)),
            None => {}
        }
        let k = key(p);
        if let Some(v) = self.repeated(k) {
            return Some((k, v));
        }
        Some((
            k,
            self.lookup(k, rem - 1).unwrap_or(Val {
                pn: 1,
                dn: 1,
                len: 0,
                rep: false,
            }),
        ))
    }

    /// The value of a node from its children's.
    fn sum(ch: &[Child], or: bool) -> Val {
        let (mut min, mut total) = (INF, 0u64);
        for c in ch {
            let (small, big) = if or {
                (c.v.pn, c.v.dn)
            } else {
                (c.v.dn, c.v.pn)
            };
            min = min.min(small);
            total += big as u64;
        }
        let total = (total.min(INF as u64 - 1)) as u32;
        let proved = ch.iter().filter(|c| c.v.pn == 0).map(|c| c.v.len + 1);
        // a disproof is bound to the path when it rests on a repetition: at an attacker's node
        // if any check's disproof does, at a defender's if every disproved answer's does
        let disproved = ch.iter().filter(|c| c.v.dn == 0);
        if or {
            if min == 0 {
                return Val {
                    len: proved.min().unwrap_or(0),
                    ..Val::WON
                };
            }
            if total == 0 {
                let rep = disproved.clone().any(|c| c.v.rep);
                return Val { rep, ..Val::LOST };
            }
            Val {
                pn: min,
                dn: total,
                len: 0,
                rep: false,
            }
        } else {
            if min == 0 {
                let rep = disproved.clone().all(|c| c.v.rep);
                return Val { rep, ..Val::LOST };
            }
            if ch.iter().all(|c| c.v.pn == 0) {
                return Val {
                    len: proved.max().unwrap_or(0),
                    ..Val::WON
                };
            }
            Val {
                pn: total,
                dn: min,
                len: 0,
                rep: false,
            }
        }
    }

    /// Multiple iterative deepening at `p` (position key `k`), `rem` plies left.
    fn mid(&mut self, p: &mut VPos, k: u64, rem: u32, th_pn: u32, th_dn: u32) -> Val {
        self.spend();
        let or = p.side == self.attacker;
        if or && rem == 0 {
            return Val::LOST;
        }
        let mut ch = self.children(p, rem, or);
        if !or && ch.is_empty() {
            return Val::LOST;
        }
        self.path.insert(k);
        let v = loop {
            let v = Self::sum(&ch, or);
            if v.pn >= th_pn || v.dn >= th_dn || v.pn == 0 || v.dn == 0 || self.stopped {
                break v;
            }
            // the child most promising for the side to move, and the next one's number
            let num = |c: &Child| if or { c.v.pn } else { c.v.dn };
            let mut best = 0;
            let mut second = INF;
            for i in 1..ch.len() {
                if num(&ch[i]) < num(&ch[best]) {
                    second = num(&ch[best]);
                    best = i;
                } else if num(&ch[i]) < second {
                    second = num(&ch[i]);
                }
            }
            let c = ch[best];
            let (cpn, cdn) = if or {
                (th_pn.min(eps_th(second)), sub_th(th_dn, v.dn, c.v.dn))
            } else {
                (sub_th(th_pn, v.pn, c.v.pn), th_dn.min(eps_th(second)))
            };
            let u = p.do_move(c.m);
            let cv = self.mid(p, c.key, rem - 1, cpn, cdn);
            p.undo_move(c.m, u);
            ch[best].v = cv;
        };
        self.path.remove(&k);
        self.store(k, rem, v);
        v
    }

    /// A mating line from `p` (attacker to move) of `len` plies, read off the table: the
    /// attacker's quickest proved move, and where `exact` (`len` is the shortest) the defender's
    /// answer that lasts longest, found by disproving the shorter wins after it. A child whose
    /// proof the table has lost is proved again.
    fn line(&mut self, p: &mut VPos, len: u32, exact: bool) -> Option<Vec<VMove>> {
        let mut q = p.clone();
        let mut out = vec![];
        let mut rem = len;
        loop {
            let or = q.side == self.attacker;
            if self.stopped || rem == 0 {
                return None;
            }
            let mut ch = self.children(&mut q, rem, or);
            // prove again what the table no longer holds: one check, every answer
            let proved = or && ch.iter().any(|c| c.v.pn == 0);
            for c in ch.iter_mut() {
                if proved || (or && c.v.pn == 0) {
                    break;
                }
                if c.key != 0 && c.v.pn != 0 && c.v.dn != 0 {
                    let u = q.do_move(c.m);
                    c.v = self.mid(&mut q, c.key, rem - 1, INF, INF);
                    q.undo_move(c.m, u);
                }
            }
            let c = if or {
                ch.iter()
                    .filter(|c| c.v.pn == 0)
                    .min_by_key(|c| c.v.len)
                    .copied()?
            } else {
                if ch.iter().any(|c| c.v.pn != 0) {
                    return None;
                }
                self.longest(&mut q, &mut ch, rem, exact)?
            };
            q.do_move(c.m);
            out.push(c.m);
            if c.key == 0 {
                return Some(out);
            }
            rem = if or || exact { rem - 1 } else { c.v.len };
        }
    }

    /// The defender's longest answer at `q`, `rem` plies left, every answer proved: where the
    /// length is exact, the first answer after which no win of `rem - 3` plies exists; else the
    /// answer with the longest proof.
    fn longest(&mut self, q: &mut VPos, ch: &mut [Child], rem: u32, exact: bool) -> Option<Child> {
        ch.sort_by_key(|c| std::cmp::Reverse(c.v.len));
        if exact && rem >= 4 {
            for c in ch.iter() {
                if c.key == 0 || c.v.len + 3 <= rem {
                    continue;
                }
                let u = q.do_move(c.m);
                let v = self.mid(q, c.key, rem - 3, INF, INF);
                q.undo_move(c.m, u);
                if v.dn == 0 {
                    return Some(*c);
                }
            }
        }
        ch.first().copied()
    }
}

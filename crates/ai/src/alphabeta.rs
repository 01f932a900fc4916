//! Alpha-beta: iterative-deepening negamax with principal-variation search, a transposition
//! table, move ordering (table move, the game's priorities, killer moves, history), late-move
//! reductions, check extensions, a quiescence search over the game's tactical moves, and
//! exact endgames where the game has them.
//!
//! Scores are from the point of view of the seat to move. A seat that moves twice in a row
//! (a swap, a pass) keeps the sign; only a change of seat negates it.

use crate::policy::{win_chance, Endgame, ExactBudget, GameAi};
use crate::search::{Bot, Proven, SearchResult, Value};
use crate::spec::{AlphaBetaSpec, DEFAULT_TIME};
use boardlab_core::Wdl;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The score of a win at the current node; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by search.
const WIN_BOUND: i32 = WIN - 10_000;
/// Evaluations are clamped into ±this.
const EVAL_LIMIT: i32 = 500_000;
const MAX_PLY: usize = 128;
/// Quiescence plies at most.
const MAX_QPLY: u32 = 12;
/// Node budget of one exact endgame search inside the tree.
const TREE_EXACT_NODES: u64 = 20_000;

/// Late-move reductions apply from this remaining depth ...
const LMR_MIN_DEPTH: i32 = 3;
/// ... to moves from this place in the order on (the first ones are the table move, the
/// tactical moves and the killers).
const LMR_MIN_INDEX: usize = 3;

/// How many plies to take off the `i`-th move (0-based) at `depth`: one, growing slowly with
/// both, and always leaving at least one ply.
fn reduction(depth: i32, i: usize) -> i32 {
    let r = (f64::from(depth).ln() * (i as f64).ln() / 2.0) as i32;
    r.clamp(1, depth - 2)
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    key: u64,
    mv: Option<M>,
    score: i32,
    depth: i16,
    bound: u8,
}

const FX_K: u64 = 0x517c_c1b7_2722_0a95;

/// A small fast hasher for move-history indices.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(FX_K);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(i)).wrapping_mul(FX_K);
    }
    fn write_u16(&mut self, i: u16) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(i)).wrapping_mul(FX_K);
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(i)).wrapping_mul(FX_K);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(FX_K);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

const HISTORY: usize = 1 << 14;

fn history_index<M: Hash>(m: &M) -> usize {
    let mut h = Fx::default();
    m.hash(&mut h);
    (h.finish() >> 20) as usize & (HISTORY - 1)
}

/// The alpha-beta bot. Keeps its transposition table between moves.
#[derive(Debug)]
pub struct AlphaBeta<G: GameAi> {
    spec: AlphaBetaSpec,
    tt: Vec<Option<Entry<G::Move>>>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    endgame: G::Endgame,
    bufs: Vec<Vec<G::Move>>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    seldepth: u32,
}

impl<G: GameAi> AlphaBeta<G> {
    /// A bot with these settings and a table of 2^`log2_entries` entries.
    #[must_use]
    pub fn new(spec: AlphaBetaSpec, log2_entries: u32) -> AlphaBeta<G> {
        AlphaBeta {
            spec,
            tt: vec![None; 1 << log2_entries.clamp(8, 26)],
            killers: vec![[None, None]; MAX_PLY + MAX_QPLY as usize + 2],
            history: vec![0; HISTORY],
            endgame: G::Endgame::default(),
            bufs: Vec::new(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            seldepth: 0,
        }
    }

    fn probe(&self, key: u64) -> Option<Entry<G::Move>> {
        let e = self.tt[key as usize & (self.tt.len() - 1)]?;
        (e.key == key).then_some(e)
    }

    fn store(
        &mut self,
        key: u64,
        mv: Option<G::Move>,
        score: i32,
        depth: i32,
        bound: u8,
        ply: u32,
    ) {
        let slot = key as usize & (self.tt.len() - 1);
        if let Some(old) = self.tt[slot] {
            if old.key == key && i32::from(old.depth) > depth && bound != EXACT {
                return;
            }
        }
        self.tt[slot] = Some(Entry {
            key,
            mv: mv.or_else(|| self.tt[slot].filter(|e| e.key == key).and_then(|e| e.mv)),
            score: to_tt(score, ply),
            depth: depth.clamp(-100, 1000) as i16,
            bound,
        });
    }

    fn check_limits(&mut self, stop: &AtomicBool) {
        if self.nodes >= self.node_limit
            || stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    fn take_buf(&mut self) -> Vec<G::Move> {
        self.bufs.pop().unwrap_or_default()
    }

    /// Orders `moves` best first: the table move, then priority, killers and history.
    fn order(&self, g: &G, moves: &mut [G::Move], tt_move: Option<G::Move>, ply: usize) {
        let killers = self.killers.get(ply).copied().unwrap_or([None, None]);
        let mut keyed: Vec<(i64, G::Move)> = moves
            .iter()
            .map(|&m| {
                let k = if Some(m) == tt_move {
                    i64::MAX
                } else {
                    let mut k = i64::from(g.move_priority(m)) << 24;
                    if Some(m) == killers[0] {
                        k += 2 << 22;
                    } else if Some(m) == killers[1] {
                        k += 1 << 22;
                    }
                    k + i64::from(self.history[history_index(&m)])
                };
                (k, m)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        for (slot, (_, m)) in moves.iter_mut().zip(keyed) {
            *slot = m;
        }
    }

    fn terminal_score(g: &G, ply: u32) -> i32 {
        let o = g.outcome().expect("a position without legal moves is over");
        match o.for_seat(g.to_move()) {
            Wdl::Win => WIN - ply as i32,
            Wdl::Loss => -(WIN - ply as i32),
            Wdl::Draw => 0,
        }
    }

    fn exact_score(&mut self, g: &G, ply: u32, limit: u64) -> Option<i32> {
        if !self.spec.exact || !self.endgame.applies(g, false) {
            return None;
        }
        let p = self
            .endgame
            .value(g, ExactBudget::nodes(limit), &mut self.nodes)?;
        Some(match p {
            Proven::Win(n) => WIN - ply as i32 - n as i32,
            Proven::Loss(n) => -(WIN - ply as i32 - n as i32),
            Proven::Draw => 0,
        })
    }

    /// The score of `child` (reached from a position where `mover` was to move), from the
    /// mover's point of view, searched with the window (alpha, beta) of that point of view.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        child: &G,
        same_seat: bool,
        depth: i32,
        ply: u32,
        alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        if same_seat {
            self.negamax(child, depth, ply, alpha, beta, stop)
        } else {
            -self.negamax(child, depth, ply, -beta, -alpha, stop)
        }
    }

    fn negamax(
        &mut self,
        g: &G,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits(stop);
        }
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let mut moves = self.take_buf();
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            self.bufs.push(moves);
            return Self::terminal_score(g, ply);
        }
        if let Some(s) = self.exact_score(g, ply, TREE_EXACT_NODES) {
            self.bufs.push(moves);
            return s;
        }
        let check = self.spec.extend && g.in_check();
        let depth = depth + i32::from(check);
        if depth <= 0 || ply as usize >= MAX_PLY {
            let s = self.quiesce(g, &mut moves, ply, 0, alpha, beta, stop);
            self.bufs.push(moves);
            return s;
        }
        let key = g.hash();
        let mut tt_move = None;
        if let Some(e) = self.probe(key) {
            tt_move = e.mv.filter(|m| moves.contains(m));
            let s = from_tt(e.score, ply);
            if i32::from(e.depth) >= depth {
                let cut = match e.bound {
                    EXACT => true,
                    LOWER => s >= beta,
                    _ => s <= alpha,
                };
                if cut {
                    self.bufs.push(moves);
                    return s;
                }
            }
        }
        self.order(g, &mut moves, tt_move, ply as usize);
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        let seat = g.to_move();
        let killers = self.killers[ply as usize];
        for (i, &m) in moves.iter().enumerate() {
            let mut c = g.clone();
            c.play_unchecked(m);
            let same = c.to_move() == seat;
            let score = if i == 0 {
                self.child(&c, same, depth - 1, ply + 1, alpha, beta, stop)
            } else {
                // Late quiet moves are searched shallower first; one that beats alpha there
                // is searched again at full depth.
                let r = if self.spec.lmr
                    && depth >= LMR_MIN_DEPTH
                    && i >= LMR_MIN_INDEX
                    && !check
                    && !killers.contains(&Some(m))
                    && g.move_priority(m) <= 0
                    && !g.is_noisy(m)
                    && !c.in_check()
                {
                    reduction(depth, i)
                } else {
                    0
                };
                let mut s = self.child(&c, same, depth - 1 - r, ply + 1, alpha, alpha + 1, stop);
                if r > 0 && s > alpha && !self.aborted {
                    s = self.child(&c, same, depth - 1, ply + 1, alpha, alpha + 1, stop);
                }
                if s > alpha && s < beta && !self.aborted {
                    self.child(&c, same, depth - 1, ply + 1, alpha, beta, stop)
                } else {
                    s
                }
            };
            if self.aborted {
                self.bufs.push(moves);
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if !g.is_noisy(m) {
                    let k = &mut self.killers[ply as usize];
                    if k[0] != Some(m) {
                        k[1] = k[0];
                        k[0] = Some(m);
                    }
                    let h = &mut self.history[history_index(&m)];
                    *h = (*h + depth * depth).min(1 << 20);
                }
                break;
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        self.store(key, best_move, best, depth, bound, ply);
        self.bufs.push(moves);
        best
    }

    /// Stand pat on the evaluation, then follow tactical moves. `moves` holds the legal moves.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        g: &G,
        moves: &mut Vec<G::Move>,
        ply: u32,
        qply: u32,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        let stand = g.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT);
        if !self.spec.qsearch || qply >= MAX_QPLY || stand >= beta {
            return stand;
        }
        moves.retain(|&m| g.is_noisy(m));
        if moves.is_empty() {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        moves.sort_by_key(|&m| std::cmp::Reverse(g.move_priority(m)));
        let seat = g.to_move();
        for &m in moves.iter() {
            let mut c = g.clone();
            c.play_unchecked(m);
            self.nodes += 1;
            if self.nodes & 1023 == 0 {
                self.check_limits(stop);
            }
            if self.aborted {
                return 0;
            }
            let mut cm = self.take_buf();
            c.legal_moves(&mut cm);
            let same = c.to_move() == seat;
            let s = if cm.is_empty() {
                let t = Self::terminal_score(&c, ply + 1);
                if same {
                    t
                } else {
                    -t
                }
            } else if same {
                self.quiesce(&c, &mut cm, ply + 1, qply + 1, alpha, beta, stop)
            } else {
                -self.quiesce(&c, &mut cm, ply + 1, qply + 1, -beta, -alpha, stop)
            };
            self.bufs.push(cm);
            if s > best {
                best = s;
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The principal variation from the table.
    fn pv(&self, game: &G, first: G::Move) -> Vec<G::Move> {
        let mut pv = vec![first];
        let mut g = game.clone();
        g.play_unchecked(first);
        let mut buf = Vec::new();
        while pv.len() < 32 {
            let Some(m) = self.probe(g.hash()).and_then(|e| e.mv) else {
                break;
            };
            g.legal_moves(&mut buf);
            if !buf.contains(&m) {
                break;
            }
            pv.push(m);
            g.play_unchecked(m);
        }
        pv
    }
}

fn to_tt(score: i32, ply: u32) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: u32) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score for the seat to move as a [`Value`].
fn score_value<G: GameAi>(seat: boardlab_core::Seat, score: i32) -> Value {
    if score > WIN_BOUND {
        Value::proven(seat, Proven::Win((WIN - score) as u32))
    } else if score < -WIN_BOUND {
        Value::proven(seat, Proven::Loss((WIN + score) as u32))
    } else {
        Value::estimate(seat, win_chance::<G>(score))
    }
}

impl<G: GameAi> Bot<G> for AlphaBeta<G> {
    fn search(&mut self, game: &G, stop: &AtomicBool) -> SearchResult<G::Move> {
        let start = Instant::now();
        let spec = self.spec;
        let time = match (spec.time, spec.depth, spec.nodes) {
            (None, None, None) => Some(DEFAULT_TIME),
            (t, _, _) => t,
        };
        self.deadline = time.map(|t| start + t);
        self.node_limit = spec.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.aborted = false;
        self.seldepth = 0;
        for k in &mut self.killers {
            *k = [None, None];
        }
        for h in &mut self.history {
            *h /= 8;
        }
        let seat = game.to_move();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        assert!(
            !moves.is_empty(),
            "alpha-beta was asked to move in a finished game"
        );

        if spec.exact && self.endgame.applies(game, true) {
            // At most half of a time budget.
            let limit = match time {
                Some(t) => ExactBudget::until(start + t / 2),
                None => ExactBudget::nodes(spec.nodes.unwrap_or(4_000_000)),
            };
            let mut n = 0;
            if let Some((p, Some(mv))) = self.endgame.solve(game, limit, &mut n) {
                return SearchResult {
                    best: mv,
                    value: Value::proven(seat, p),
                    pv: crate::mcts::exact_line(game, mv, &mut self.endgame),
                    nodes: n,
                    elapsed: start.elapsed(),
                    depth: match p {
                        Proven::Win(n) | Proven::Loss(n) => n,
                        Proven::Draw => 0,
                    },
                };
            }
            self.nodes += n;
        }

        let max_depth = spec
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .min(MAX_PLY as u32 - 1) as i32;
        let mut best = moves[0];
        let mut best_score = 0;
        let mut completed = 0;
        let mut root: Vec<(G::Move, G)> = moves
            .iter()
            .map(|&m| {
                let mut c = game.clone();
                c.play_unchecked(m);
                (m, c)
            })
            .collect();
        for depth in 1..=max_depth {
            // Previous best first, then the table's order.
            let prev_best = best;
            root.sort_by_key(|(m, _)| {
                if *m == prev_best {
                    i64::MIN
                } else {
                    -(i64::from(game.move_priority(*m)) << 24)
                        - i64::from(self.history[history_index(m)])
                }
            });
            let mut alpha = -WIN - 1;
            let beta = WIN + 1;
            let mut iter_best = None;
            for (i, (m, c)) in root.iter().enumerate() {
                let same = c.to_move() == seat;
                let score = if i == 0 {
                    self.child(c, same, depth - 1, 1, alpha, beta, stop)
                } else {
                    let s = self.child(c, same, depth - 1, 1, alpha, alpha + 1, stop);
                    if s > alpha && !self.aborted {
                        self.child(c, same, depth - 1, 1, alpha, beta, stop)
                    } else {
                        s
                    }
                };
                if self.aborted {
                    break;
                }
                if score > alpha || iter_best.is_none() {
                    alpha = alpha.max(score);
                    iter_best = Some((*m, score));
                }
            }
            if let Some((m, s)) = iter_best {
                if !self.aborted || m != best {
                    best = m;
                    best_score = s;
                }
            }
            if self.aborted {
                break;
            }
            completed = depth as u32;
            let key = game.hash();
            self.store(key, Some(best), best_score, depth, EXACT, 0);
            if best_score.abs() > WIN_BOUND && (WIN - best_score.abs()) <= depth {
                break; // a forced result within the horizon: deeper search cannot change it
            }
            if moves.len() == 1 && time.is_some() {
                break;
            }
            if let (Some(t), Some(d)) = (time, self.deadline) {
                // Start another iteration while half the time is left: it searches the best
                // move first, so even a cut-short iteration can only improve the choice.
                let used = start.elapsed();
                if used * 2 > t || Instant::now() >= d {
                    break;
                }
            }
        }
        SearchResult {
            best,
            value: score_value::<G>(seat, best_score),
            pv: self.pv(game, best),
            nodes: self.nodes,
            elapsed: start.elapsed(),
            depth: completed,
        }
    }
}

//! Alpha-beta: iterative-deepening negamax with principal-variation search, a transposition
//! table, move ordering (table move, the game's priorities, killer moves, history), late-move
//! reductions, check extensions, a quiescence search over the game's tactical moves, and
//! exact endgames where the game has them. Several threads can search together, sharing the
//! table (lazy SMP).
//!
//! Scores are from the point of view of the seat to move. A seat that moves twice in a row
//! (a swap, a pass) keeps the sign; only a change of seat negates it. Beyond the evaluations,
//! a score is a proven result in mate style (see [`WIN`]), a compact form kept for speed: a
//! [`Proven`] enters the search as a score in `proven_score` and leaves it in `score_value`,
//! nowhere else.

use crate::knowledge::{win_chance, Endgame, GameAi};
use crate::search::{Bot, SearchResult, Value};
use crate::spec::{AlphaBetaSpec, DEFAULT_TIME};
use boardlab_core::Budget;
use boardlab_core::{Proven, Seat, Wdl};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use web_time::Instant;

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

/// What the table knows of a position. The move is its place in the position's list of legal
/// moves as the game generates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    mv: Option<u32>,
    score: i32,
    depth: i32,
    bound: u8,
    /// The search that stored it (modulo 64).
    age: u8,
}

/// Move places up to this fit in an entry (larger ones are stored as no move).
const MAX_TT_MOVE: u32 = (1 << 23) - 2;

impl Entry {
    /// Into 64 bits: score (22 bits), depth + 128 (11), bound (2), age (6), move place + 1
    /// (23; 0 for none).
    fn pack(self) -> u64 {
        let mv = self.mv.filter(|&m| m <= MAX_TT_MOVE).map_or(0, |m| m + 1);
        (self.score as u64 & 0x3f_ffff)
            | (((self.depth.clamp(-100, 1000) + 128) as u64) << 22)
            | (u64::from(self.bound & 3) << 33)
            | (u64::from(self.age & 63) << 35)
            | (u64::from(mv) << 41)
    }

    fn unpack(d: u64) -> Entry {
        let mv = (d >> 41) as u32;
        Entry {
            // Sign-extend the 22 score bits.
            score: ((d << 42) as i64 >> 42) as i32,
            depth: ((d >> 22) & 0x7ff) as i32 - 128,
            bound: ((d >> 33) & 3) as u8,
            age: ((d >> 35) & 63) as u8,
            mv: mv.checked_sub(1),
        }
    }
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

/// The transposition table: buckets of two slots, one kept for the deepest search of the
/// current move and one always replaced. Each slot is two atomic words, the data and the key
/// XOR the data, so threads share the table without locks: a slot torn by two threads
/// writing at once no longer matches its key and reads as empty.
struct Table {
    slots: Box<[[AtomicU64; 2]]>,
    /// The current search (modulo 64): entries of earlier searches give way first.
    age: u8,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} slots)", self.slots.len())
    }
}

impl Table {
    fn new(log2_entries: u32) -> Table {
        Table {
            slots: (0..1usize << log2_entries.clamp(MIN_TABLE_BITS, MAX_TABLE_BITS))
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            age: 0,
        }
    }

    /// The two slots of `key`'s bucket.
    fn bucket(&self, key: u64) -> usize {
        key as usize & (self.slots.len() - 1) & !1
    }

    /// The entry of slot `i` if it holds `key`.
    fn read(&self, i: usize, key: u64) -> Option<Entry> {
        let [k, d] = &self.slots[i];
        let (k, d) = (k.load(Ordering::Relaxed), d.load(Ordering::Relaxed));
        (k ^ d == key && d != 0).then(|| Entry::unpack(d))
    }

    fn write(&self, i: usize, key: u64, e: Entry) {
        let d = e.pack();
        self.slots[i][0].store(key ^ d, Ordering::Relaxed);
        self.slots[i][1].store(d, Ordering::Relaxed);
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.read(b, key).or_else(|| self.read(b + 1, key))
    }

    fn store(&self, key: u64, mv: Option<u32>, score: i32, depth: i32, bound: u8, ply: u32) {
        let b = self.bucket(key);
        let mut new = Entry {
            mv,
            score: to_tt(score, ply),
            depth,
            bound,
            age: self.age,
        };
        for i in [b, b + 1] {
            if let Some(old) = self.read(i, key) {
                // The same position: a deeper bound of the same search stays.
                if old.depth > depth && bound != EXACT && old.age == self.age {
                    return;
                }
                new.mv = new.mv.or(old.mv);
                self.write(i, key, new);
                return;
            }
        }
        let kept = self.slots[b][1].load(Ordering::Relaxed);
        let first = Entry::unpack(kept);
        if kept == 0 || first.age != self.age || depth >= first.depth {
            // The kept slot's entry moves to the other slot.
            let [k, d] = &self.slots[b];
            let (k, d) = (k.load(Ordering::Relaxed), d.load(Ordering::Relaxed));
            self.slots[b + 1][0].store(k, Ordering::Relaxed);
            self.slots[b + 1][1].store(d, Ordering::Relaxed);
            self.write(b, key, new);
        } else {
            self.write(b + 1, key, new);
        }
    }
}

/// Table sizes (log2 of the entries): 2^12 = 64 KiB to 2^22 = 64 MiB.
const MIN_TABLE_BITS: u32 = 12;
const MAX_TABLE_BITS: u32 = 22;

/// The table size for a search with these settings: about two entries per node a node
/// budget allows, and by time per move otherwise (2^18 entries at 100 ms, doubling with each
/// doubling of the time; 2^20 for a depth budget alone), one size more for several threads.
#[must_use]
pub fn table_bits(spec: &AlphaBetaSpec) -> u32 {
    let bits = match (spec.nodes, spec.time, spec.depth) {
        (Some(n), _, _) => 64 - n.leading_zeros() + 1,
        (None, Some(t), _) => 18 + (t.as_secs_f64() / 0.1).max(1.0).log2().round() as u32,
        (None, None, Some(_)) => 20,
        (None, None, None) => 18 + (DEFAULT_TIME.as_secs_f64() / 0.1).log2().round() as u32,
    };
    (bits + u32::from(spec.threads != 1)).clamp(MIN_TABLE_BITS, MAX_TABLE_BITS)
}

/// The table size that fits in `mb` MiB (each entry takes 16 bytes): from 1 MiB up to the
/// largest table, 64 MiB; sizes between powers of two are rounded down.
#[must_use]
pub fn table_bits_for_mb(mb: u32) -> u32 {
    (16 + mb.max(1).ilog2()).clamp(MIN_TABLE_BITS, MAX_TABLE_BITS)
}

/// What the threads of one search share besides the table: when to stop, and the node count.
struct Shared<'a> {
    table: &'a Table,
    /// Set by the caller to end the search.
    stop: &'a AtomicBool,
    /// Set when the main thread has its answer: the helper threads stop.
    halt: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: u64,
    /// Nodes of all threads, brought up to date every 1,024 nodes of each.
    nodes: &'a AtomicU64,
}

/// The result of an iterative deepening.
#[derive(Clone, Copy)]
struct Iterated<M> {
    best: M,
    score: i32,
    /// The deepest iteration completed.
    depth: u32,
}

/// The state of one search thread: move-ordering memory, scratch buffers and counters.
#[derive(Debug)]
struct Worker<G: GameAi> {
    spec: AlphaBetaSpec,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    endgame: G::Endgame,
    bufs: Vec<Vec<G::Move>>,
    /// Scratch lists for move ordering: (sort key, place in the move list).
    orders: Vec<Vec<(i64, u32)>>,
    nodes: u64,
    /// How many of `nodes` are in the shared count.
    counted: u64,
    aborted: bool,
}

impl<G: GameAi> Worker<G> {
    fn new(spec: AlphaBetaSpec) -> Worker<G> {
        Worker {
            spec,
            killers: vec![[None, None]; MAX_PLY + MAX_QPLY as usize + 2],
            history: vec![0; HISTORY],
            endgame: G::Endgame::default(),
            bufs: Vec::new(),
            orders: Vec::new(),
            nodes: 0,
            counted: 0,
            aborted: false,
        }
    }

    /// Ready for a new search: counters reset, killers forgotten, history faded.
    fn prepare(&mut self) {
        self.nodes = 0;
        self.counted = 0;
        self.aborted = false;
        for k in &mut self.killers {
            *k = [None, None];
        }
        for h in &mut self.history {
            *h /= 8;
        }
    }

    fn check_limits(&mut self, cx: &Shared<'_>) {
        let delta = self.nodes - self.counted;
        self.counted = self.nodes;
        let total = cx.nodes.fetch_add(delta, Ordering::Relaxed) + delta;
        if total >= cx.node_limit
            || cx.stop.load(Ordering::Relaxed)
            || cx.halt.load(Ordering::Relaxed)
            || cx.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Iterative deepening over the moves of `root` from `first_depth` to `max_depth`. With
    /// a `time`, another iteration starts only while half of it is left; otherwise the
    /// iterations go on until the limits or the halt flag end them. Sets the halt flag when
    /// it ends by itself.
    #[allow(clippy::too_many_arguments)]
    fn iterate(
        &mut self,
        cx: &Shared<'_>,
        game: &G,
        root: &mut [Root<G>],
        first_depth: i32,
        max_depth: i32,
        time: Option<(Instant, Duration)>,
    ) -> Iterated<G::Move> {
        let seat = game.to_move();
        let mut out = Iterated {
            best: root[0].mv,
            score: 0,
            depth: 0,
        };
        for depth in first_depth.min(max_depth)..=max_depth {
            // Previous best first, then the table's order.
            let prev_best = out.best;
            root.sort_by_key(|r| {
                if r.mv == prev_best {
                    i64::MIN
                } else {
                    -(i64::from(game.move_priority(r.mv)) << 24)
                        - i64::from(self.history[history_index(&r.mv)])
                }
            });
            let mut alpha = -WIN - 1;
            let beta = WIN + 1;
            let mut iter_best = None;
            for (
                i,
                Root {
                    mv: m, child: c, ..
                },
            ) in root.iter().enumerate()
            {
                let same = c.to_move() == seat;
                let score = if i == 0 {
                    self.child(c, same, depth - 1, 1, alpha, beta, cx)
                } else {
                    let s = self.child(c, same, depth - 1, 1, alpha, alpha + 1, cx);
                    if s > alpha && !self.aborted {
                        self.child(c, same, depth - 1, 1, alpha, beta, cx)
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
                // A cut-short iteration only switches to a move fully shown to be better.
                if !self.aborted || m != out.best {
                    out.best = m;
                    out.score = s;
                }
            }
            if self.aborted {
                break;
            }
            out.depth = depth as u32;
            let place = root.iter().find(|r| r.mv == out.best).map(|r| r.place);
            cx.table
                .store(game.hash(), place, out.score, depth, EXACT, 0);
            if out.score.abs() > WIN_BOUND && (WIN - out.score.abs()) <= depth {
                break; // a forced result within the horizon: deeper search cannot change it
            }
            if let Some((start, t)) = time {
                if root.len() == 1 {
                    break;
                }
                // Start another iteration while half the time is left: it searches the best
                // move first, so even a cut-short iteration can only improve the choice.
                if start.elapsed() * 2 > t || cx.deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
            }
        }
        if !self.aborted {
            // Done (the budget's depth, a forced result or the time rule): the other threads
            // stop too, and the deepest completed iteration of all answers.
            cx.halt.store(true, Ordering::Relaxed);
        }
        out
    }

    fn take_buf(&mut self) -> Vec<G::Move> {
        self.bufs.pop().unwrap_or_default()
    }

    /// The order to search `moves` in, best first, as places in `moves` (into `order`): the
    /// table move, then priority, killers and history.
    fn order(
        &self,
        g: &G,
        moves: &[G::Move],
        tt_move: Option<u32>,
        ply: usize,
        order: &mut Vec<(i64, u32)>,
    ) {
        let killers = self.killers.get(ply).copied().unwrap_or([None, None]);
        order.clear();
        order.extend(moves.iter().enumerate().map(|(i, &m)| {
            let i = i as u32;
            let k = if Some(i) == tt_move {
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
            (k, i)
        }));
        order.sort_by_key(|k| std::cmp::Reverse(k.0));
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
            .value(g, Budget::nodes(limit), &mut self.nodes)?;
        Some(proven_score(p, g.to_move(), ply))
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
        cx: &Shared<'_>,
    ) -> i32 {
        if same_seat {
            self.negamax(child, depth, ply, alpha, beta, cx)
        } else {
            -self.negamax(child, depth, ply, -beta, -alpha, cx)
        }
    }

    fn negamax(
        &mut self,
        g: &G,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        cx: &Shared<'_>,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits(cx);
        }
        if self.aborted {
            return 0;
        }
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
            let s = self.quiesce(g, &mut moves, ply, 0, alpha, beta, cx);
            self.bufs.push(moves);
            return s;
        }
        let key = g.hash();
        let mut tt_move = None;
        if let Some(e) = cx.table.probe(key) {
            tt_move = e.mv.filter(|&m| (m as usize) < moves.len());
            let s = from_tt(e.score, ply);
            if e.depth >= depth {
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
        let mut order = self.orders.pop().unwrap_or_default();
        self.order(g, &moves, tt_move, ply as usize, &mut order);
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        let seat = g.to_move();
        let killers = self.killers[ply as usize];
        for (i, &(_, place)) in order.iter().enumerate() {
            let m = moves[place as usize];
            let mut c = g.clone();
            c.play_unchecked(m);
            let same = c.to_move() == seat;
            let score = if i == 0 {
                self.child(&c, same, depth - 1, ply + 1, alpha, beta, cx)
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
                let mut s = self.child(&c, same, depth - 1 - r, ply + 1, alpha, alpha + 1, cx);
                if r > 0 && s > alpha && !self.aborted {
                    s = self.child(&c, same, depth - 1, ply + 1, alpha, alpha + 1, cx);
                }
                if s > alpha && s < beta && !self.aborted {
                    self.child(&c, same, depth - 1, ply + 1, alpha, beta, cx)
                } else {
                    s
                }
            };
            if self.aborted {
                self.bufs.push(moves);
                self.orders.push(order);
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(place);
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
        cx.table.store(key, best_move, best, depth, bound, ply);
        self.bufs.push(moves);
        self.orders.push(order);
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
        cx: &Shared<'_>,
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
                self.check_limits(cx);
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
                self.quiesce(&c, &mut cm, ply + 1, qply + 1, alpha, beta, cx)
            } else {
                -self.quiesce(&c, &mut cm, ply + 1, qply + 1, -beta, -alpha, cx)
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

/// The score of a proven result at `ply` plies from the root, for `seat`, the seat to move
/// there (plies not counted for a result without its distance). The one conversion of a
/// [`Proven`] into a score.
fn proven_score(p: Proven, seat: Seat, ply: u32) -> i32 {
    let p = p.for_seat(seat);
    let n = p.plies.unwrap_or(0);
    match p.result {
        Wdl::Win => WIN - ply as i32 - n as i32,
        Wdl::Loss => -(WIN - ply as i32 - n as i32),
        Wdl::Draw => 0,
    }
}

/// A score for the seat to move as a [`Value`]: the one conversion of a proven score into a
/// [`Proven`].
fn score_value<G: GameAi>(seat: Seat, score: i32) -> Value {
    if score > WIN_BOUND {
        Value::proven(Proven::win_in(seat, (WIN - score) as u32))
    } else if score < -WIN_BOUND {
        Value::proven(Proven::loss_in(seat, (WIN + score) as u32))
    } else {
        Value::estimate(seat, win_chance::<G>(score))
    }
}

/// A move at the root of the search.
#[derive(Clone)]
struct Root<G: GameAi> {
    /// Its place in the list of legal moves.
    place: u32,
    mv: G::Move,
    /// The position it leads to.
    child: G,
}

/// Each legal move (`moves` are the legal moves of `game`) with the position it leads to.
fn children<G: GameAi>(game: &G, moves: &[G::Move]) -> Vec<Root<G>> {
    moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let mut child = game.clone();
            child.play_unchecked(mv);
            Root {
                place: i as u32,
                mv,
                child,
            }
        })
        .collect()
}

/// The alpha-beta bot: one search thread, or several sharing the transposition table (lazy
/// SMP). Keeps its table and move-ordering memory between moves.
#[derive(Debug)]
pub struct AlphaBeta<G: GameAi> {
    spec: AlphaBetaSpec,
    table: Table,
    main: Worker<G>,
    helpers: Vec<Worker<G>>,
}

impl<G: GameAi> AlphaBeta<G> {
    /// A bot with these settings and a table of 2^`log2_entries` entries (2^12 to 2^22;
    /// [`table_bits`] suits the table to the budget).
    #[must_use]
    pub fn new(spec: AlphaBetaSpec, log2_entries: u32) -> AlphaBeta<G> {
        AlphaBeta {
            spec,
            table: Table::new(log2_entries),
            main: Worker::new(spec),
            helpers: Vec::new(),
        }
    }

    /// The principal variation from the table.
    fn pv(&self, game: &G, first: G::Move) -> Vec<G::Move> {
        let mut pv = vec![first];
        let mut g = game.clone();
        g.play_unchecked(first);
        let mut buf = Vec::new();
        while pv.len() < 32 {
            let Some(place) = self.table.probe(g.hash()).and_then(|e| e.mv) else {
                break;
            };
            g.legal_moves(&mut buf);
            let Some(&m) = buf.get(place as usize) else {
                break;
            };
            pv.push(m);
            g.play_unchecked(m);
        }
        pv
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
        let threads = match spec.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n as usize,
        };
        self.helpers.truncate(threads - 1);
        while self.helpers.len() < threads - 1 {
            self.helpers.push(Worker::new(spec));
        }
        self.table.age = (self.table.age + 1) & 63;
        self.main.prepare();
        for h in &mut self.helpers {
            h.prepare();
        }
        let seat = game.to_move();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        assert!(
            !moves.is_empty(),
            "alpha-beta was asked to move in a finished game"
        );

        if spec.exact && self.main.endgame.applies(game, true) {
            // At most half of a time budget.
            let limit = match time {
                Some(t) => Budget::until(start + t / 2),
                None => Budget::nodes(spec.nodes.unwrap_or(4_000_000)),
            };
            let mut n = 0;
            if let Some((p, Some(mv))) = self.main.endgame.solve(game, limit, &mut n) {
                return SearchResult {
                    best: mv,
                    value: Value::proven(p.for_seat(seat)),
                    pv: crate::mcts::exact_line(game, mv, &mut self.main.endgame),
                    nodes: n,
                    elapsed: start.elapsed(),
                    depth: p.plies.unwrap_or(0),
                };
            }
            self.main.nodes += n;
        }

        let max_depth = spec
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .min(MAX_PLY as u32 - 1) as i32;
        let mut root = children(game, &moves);
        let (halt, nodes) = (AtomicBool::new(false), AtomicU64::new(0));
        let cx = Shared {
            table: &self.table,
            stop,
            halt: &halt,
            deadline: time.map(|t| start + t),
            node_limit: spec.nodes.unwrap_or(u64::MAX),
            nodes: &nodes,
        };
        let main = &mut self.main;
        let result = if self.helpers.is_empty() {
            main.iterate(&cx, game, &mut root, 1, max_depth, time.map(|t| (start, t)))
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = self
                    .helpers
                    .iter_mut()
                    .enumerate()
                    .map(|(i, helper)| {
                        let (cx, moves) = (&cx, &moves);
                        // Every other helper starts one ply deeper, so that the threads
                        // spread over two depths and fill the table for each other.
                        let first = 1 + i32::from(i % 2 == 0);
                        s.spawn(move || {
                            let mut root = children(game, moves);
                            helper.iterate(cx, game, &mut root, first, max_depth, None)
                        })
                    })
                    .collect();
                let mut best =
                    main.iterate(&cx, game, &mut root, 1, max_depth, time.map(|t| (start, t)));
                for h in handles {
                    let r = h.join().expect("search thread panicked");
                    // A helper that completed a deeper iteration has the better answer.
                    if r.depth > best.depth {
                        best = r;
                    }
                }
                best
            })
        };
        let total = self.main.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>();
        SearchResult {
            best: result.best,
            value: score_value::<G>(seat, result.score),
            pv: self.pv(game, result.best),
            nodes: total,
            elapsed: start.elapsed(),
            depth: result.depth,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_pack_into_one_word_and_back() {
        for e in [
            Entry {
                mv: None,
                score: 0,
                depth: 0,
                bound: EXACT,
                age: 0,
            },
            Entry {
                mv: Some(0),
                score: -(WIN + 1),
                depth: -100,
                bound: UPPER,
                age: 63,
            },
            Entry {
                mv: Some(MAX_TT_MOVE),
                score: WIN + MAX_PLY as i32,
                depth: 1000,
                bound: LOWER,
                age: 17,
            },
            Entry {
                mv: Some(41),
                score: -12_345,
                depth: 7,
                bound: LOWER,
                age: 1,
            },
        ] {
            assert_ne!(e.pack(), 0, "{e:?}");
            assert_eq!(Entry::unpack(e.pack()), e);
        }
        // A move place too large for the entry is kept as no move.
        let big = Entry {
            mv: Some(MAX_TT_MOVE + 1),
            score: 5,
            depth: 3,
            bound: EXACT,
            age: 2,
        };
        assert_eq!(Entry::unpack(big.pack()).mv, None);
    }

    #[test]
    fn the_table_keeps_deep_entries_of_the_current_search() {
        let mut t = Table::new(MIN_TABLE_BITS);
        let n = t.slots.len() as u64;
        // Three keys in one bucket.
        let (a, b, c) = (5 * n, 7 * n + 1, 9 * n);
        t.store(a, Some(3), 10, 8, EXACT, 0);
        t.store(b, Some(4), 20, 2, LOWER, 0);
        assert_eq!(
            t.probe(a).map(|e| (e.mv, e.score, e.depth)),
            Some((Some(3), 10, 8))
        );
        assert_eq!(t.probe(b).map(|e| e.mv), Some(Some(4)));
        // A shallow newcomer takes the always-replaced slot; the deep entry stays.
        t.store(c, None, -7, 1, UPPER, 0);
        assert_eq!(t.probe(a).map(|e| e.depth), Some(8));
        assert_eq!(t.probe(b), None);
        assert_eq!(t.probe(c).map(|e| (e.mv, e.score)), Some((None, -7)));
        // A shallower bound of the same position does not overwrite a deeper one ...
        t.store(a, Some(9), 99, 3, LOWER, 0);
        assert_eq!(t.probe(a).map(|e| (e.mv, e.depth)), Some((Some(3), 8)));
        // ... but an exact result does, keeping the known move when it has none.
        t.store(a, None, 12, 3, EXACT, 0);
        assert_eq!(
            t.probe(a).map(|e| (e.mv, e.score, e.depth)),
            Some((Some(3), 12, 3))
        );
        // In the next search old entries give way to any new one.
        t.store(a, Some(1), 0, 9, EXACT, 0);
        t.age = 1;
        t.store(b, Some(2), 0, 1, EXACT, 0);
        assert_eq!(t.probe(b).map(|e| e.depth), Some(1));
        assert_eq!(t.probe(a).map(|e| e.depth), Some(9));
        t.store(c, Some(5), 0, 1, EXACT, 0);
        assert_eq!(t.probe(c).map(|e| e.depth), Some(1));
        assert_eq!(t.probe(b).map(|e| e.depth), Some(1));
        assert_eq!(t.probe(a), None);
        // Win scores are stored relative to the node.
        t.store(a, None, WIN - 9, 4, EXACT, 5);
        assert_eq!(from_tt(t.probe(a).unwrap().score, 2), WIN - 6);
    }

    #[test]
    fn table_sizes_follow_the_budget() {
        let spec = |text: &str| match text.parse::<crate::BotSpec>().unwrap() {
            crate::BotSpec::AlphaBeta(a) => a,
            other => panic!("{other}"),
        };
        assert_eq!(table_bits(&spec("alphabeta:nodes=600")), 12);
        assert_eq!(table_bits(&spec("alphabeta:nodes=120000")), 18);
        assert_eq!(table_bits(&spec("alphabeta:time=100ms")), 18);
        assert_eq!(table_bits(&spec("alphabeta:time=1s")), 21);
        assert_eq!(table_bits(&spec("alphabeta:time=3s")), 22);
        assert_eq!(table_bits(&spec("alphabeta:time=3s,threads=2")), 22);
        assert_eq!(table_bits(&spec("alphabeta:depth=8")), 20);
        assert_eq!(table_bits(&spec("alphabeta:depth=8,threads=0")), 21);
    }
}

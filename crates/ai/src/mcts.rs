//! Monte Carlo tree search: UCT with an optional MCTS-solver, tree reuse between moves,
//! root-parallel threads, the game's playout policy, evaluation cut-offs and exact endgames.
//!
//! Each thread grows its own tree from its own seed (root parallelisation); at the end the
//! root statistics are added up move by move. With an iteration budget the result depends
//! only on the seed, the budget and the thread count; with a time budget it also depends on
//! the machine's speed.
//!
//! Rewards are scores in 0..1 for the seat that made the move into a node, so games where a
//! seat moves twice in a row (a swap, a pass) need no special case.

use crate::knowledge::{win_chance, Endgame, GameAi};
use crate::search::{outcome_scores, Bot, SearchResult, Value};
use crate::spec::{MctsSpec, Rollout, DEFAULT_TIME};
use boardlab_core::rand::{rngs::SmallRng, Rng, SeedableRng};
use boardlab_core::Budget;
use boardlab_core::{Proven, Seat, Wdl};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

// The solver state of a node, for the seat that moved into it, with the plies to the end in
// `Node::len`: a compact form of a proven result kept for speed. Proven results enter the tree
// through `node_state` and leave it through `node_proven`, nowhere else.
const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;

const EXPANDED: u8 = 1;
const TERMINAL: u8 = 2;

/// Nodes per tree before leaves stop being expanded (about 32 bytes each).
const DEFAULT_MAX_NODES: usize = 3_000_000;

/// Leaves are expanded on their second visit (the first gets a playout).
const EXPAND_VISITS: u32 = 1;

/// Node budget of one exact endgame search at a leaf of the tree.
const LEAF_EXACT_NODES: u64 = 20_000;

#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: Option<M>,
    first: u32,
    count: u32,
    visits: u32,
    /// Sum of the rewards of the seat `mover`.
    reward: f32,
    /// The seat that made `mv` (for the root: the seat to move).
    mover: u8,
    /// Solver state for `mover`.
    state: u8,
    flags: u8,
    /// Plies to the end along the proof, when `state` is known.
    len: u16,
    /// RAVE: simulations through the parent in which `mover` played this move later, and the
    /// sum of `mover`'s rewards in them.
    amaf_n: u32,
    amaf_r: f32,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: u8) -> Node<M> {
        Node {
            mv,
            first: 0,
            count: 0,
            visits: 0,
            reward: 0.0,
            mover,
            state: UNKNOWN,
            flags: 0,
            len: 0,
            amaf_n: 0,
            amaf_r: 0.0,
        }
    }
}

fn flip(state: u8) -> u8 {
    match state {
        WIN => LOSS,
        LOSS => WIN,
        s => s,
    }
}

/// The node encoding of a proven result, for the seat `mover`: the solver state and the plies
/// (none counted for a draw or a result without its distance). The one conversion of a
/// [`Proven`] into the tree.
fn node_state(p: Proven, mover: Seat) -> (u8, u32) {
    let p = p.for_seat(mover);
    (wdl_state(p.result), p.plies.unwrap_or(0))
}

/// The proven result for `seat` that a solver state (`WIN`, `LOSS` or `DRAW`, for `seat`) and
/// its plies stand for; `None` for `UNKNOWN`. The one conversion of the tree's encoding into a
/// [`Proven`].
fn node_proven(state: u8, plies: u32, seat: Seat) -> Option<Proven> {
    match state {
        WIN => Some(Proven::win_in(seat, plies)),
        LOSS => Some(Proven::loss_in(seat, plies)),
        DRAW => Some(Proven::draw(seat)),
        _ => None,
    }
}

fn wdl_state(w: Wdl) -> u8 {
    match w {
        Wdl::Win => WIN,
        Wdl::Loss => LOSS,
        Wdl::Draw => DRAW,
    }
}

/// Settings resolved for one search.
#[derive(Clone, Copy, Debug)]
struct Cfg {
    c: f32,
    solver: bool,
    policy: bool,
    exact: bool,
    rollout: Rollout,
    timed: bool,
    /// Stop a timed search once the choice cannot change.
    early: bool,
    /// RAVE equivalence parameter (0: off).
    rave: f32,
    /// Progressive widening base (0: off).
    widen: u32,
}

/// One thread's tree.
#[derive(Debug)]
struct Tree<G: GameAi> {
    nodes: Vec<Node<G::Move>>,
    root_game: Option<G>,
    rng: SmallRng,
    endgame: G::Endgame,
    buf: Vec<G::Move>,
    path: Vec<usize>,
    max_nodes: usize,
    max_depth: u32,
    /// Nodes of the exact endgame searches (not counted as iterations).
    exact_nodes: u64,
    /// RAVE: the footprints each seat played in the last simulation below the leaf.
    played: [u128; 2],
}

impl<G: GameAi> Tree<G> {
    fn new(seed: u64, max_nodes: usize) -> Tree<G> {
        Tree {
            nodes: Vec::new(),
            root_game: None,
            rng: SmallRng::seed_from_u64(seed),
            endgame: G::Endgame::default(),
            buf: Vec::new(),
            path: Vec::new(),
            max_nodes,
            max_depth: 0,
            exact_nodes: 0,
            played: [0; 2],
        }
    }

    /// Makes `game` the root, keeping the matching subtree of the last search when `reuse`.
    fn prepare(&mut self, game: &G, reuse: bool) {
        self.max_depth = 0;
        self.exact_nodes = 0;
        let found = if reuse { self.find(game) } else { None };
        match found {
            Some(idx) if idx != 0 => self.reroot(idx),
            Some(_) => {}
            None => {
                self.nodes.clear();
                self.nodes
                    .push(Node::new(None, game.to_move().index() as u8));
            }
        }
        // The root's state is kept for the seat to move.
        let to_move = game.to_move().index() as u8;
        let root = &mut self.nodes[0];
        if root.mover != to_move {
            root.state = flip(root.state);
            root.mover = to_move;
        }
        root.mv = None;
        self.root_game = Some(game.clone());
    }

    /// The node of the last tree (up to two plies below its root) whose position is `game`.
    fn find(&self, game: &G) -> Option<usize> {
        let old = self.root_game.as_ref()?;
        if self.nodes.is_empty() {
            return None;
        }
        if old == game {
            return Some(0);
        }
        let root = self.nodes[0];
        if root.flags & EXPANDED == 0 {
            return None;
        }
        for c in root.first..root.first + root.count {
            let child = &self.nodes[c as usize];
            let mut g1 = old.clone();
            g1.play_unchecked(child.mv?);
            if g1.hash() == game.hash() && g1 == *game {
                return Some(c as usize);
            }
            if child.flags & EXPANDED == 0 {
                continue;
            }
            for gc in child.first..child.first + child.count {
                let grand = &self.nodes[gc as usize];
                let mut g2 = g1.clone();
                g2.play_unchecked(grand.mv?);
                if g2.hash() == game.hash() && g2 == *game {
                    return Some(gc as usize);
                }
            }
        }
        None
    }

    /// Keeps only the subtree under `idx`, which becomes the root.
    fn reroot(&mut self, idx: usize) {
        let mut fresh: Vec<Node<G::Move>> = Vec::with_capacity(self.nodes.len() / 4 + 16);
        fresh.push(self.nodes[idx]);
        let mut queue = vec![(idx, 0usize)];
        let mut qi = 0;
        while qi < queue.len() {
            let (old, new) = queue[qi];
            qi += 1;
            let n = self.nodes[old];
            if n.flags & EXPANDED != 0 {
                let first = fresh.len();
                for c in n.first..n.first + n.count {
                    queue.push((c as usize, fresh.len()));
                    fresh.push(self.nodes[c as usize]);
                }
                fresh[new].first = first as u32;
            }
        }
        self.nodes = fresh;
    }

    fn root_proven(&self) -> bool {
        self.nodes[0].state != UNKNOWN
    }

    /// Runs iterations until the quota, the deadline or a stop.
    fn run(
        &mut self,
        game: &G,
        cfg: &Cfg,
        quota: u64,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        done: &AtomicBool,
    ) -> u64 {
        let start = Instant::now();
        let mut it = 0;
        while it < quota {
            if cfg.early && it % 256 == 255 && self.decided(it, start, deadline) {
                break;
            }
            if cfg.solver && self.root_proven() {
                if cfg.timed {
                    done.store(true, Ordering::Relaxed);
                }
                break;
            }
            if it % 16 == 0
                && (stop.load(Ordering::Relaxed)
                    || (cfg.timed && done.load(Ordering::Relaxed))
                    || deadline.is_some_and(|d| Instant::now() >= d))
            {
                break;
            }
            self.iterate(game, cfg);
            it += 1;
        }
        it
    }

    /// Whether the most visited root move can no longer be overtaken in the time left, at
    /// the rate of the iterations so far.
    fn decided(&self, done: u64, start: Instant, deadline: Option<Instant>) -> bool {
        let Some(deadline) = deadline else {
            return false;
        };
        let now = Instant::now();
        let (used, left) = (now - start, deadline.saturating_duration_since(now));
        let to_come = done as f64 * left.as_secs_f64() / used.as_secs_f64().max(1e-9);
        let root = self.nodes[0];
        let (mut first, mut second) = (0u32, 0u32);
        for c in &self.nodes[root.first as usize..(root.first + root.count) as usize] {
            if c.visits > first {
                second = first;
                first = c.visits;
            } else if c.visits > second {
                second = c.visits;
            }
        }
        f64::from(first - second) > to_come
    }

    fn iterate(&mut self, root: &G, cfg: &Cfg) {
        let mut g = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut idx = 0usize;
        loop {
            let n = self.nodes[idx];
            if n.flags & TERMINAL != 0 || (cfg.solver && idx != 0 && n.state != UNKNOWN) {
                break;
            }
            if n.flags & EXPANDED == 0 {
                if idx != 0 && n.visits < EXPAND_VISITS {
                    break;
                }
                if !self.expand(idx, &g, cfg.widen) {
                    break;
                }
            }
            idx = self.select(idx, cfg);
            g.play_unchecked(self.nodes[idx].mv.expect("children have moves"));
            self.path.push(idx);
        }
        self.max_depth = self.max_depth.max(self.path.len() as u32 - 1);
        self.played = [0; 2];
        let rewards = self.leaf_rewards(idx, &mut g, cfg);
        let newly_proven = self.nodes[idx].state != UNKNOWN;
        for &i in &self.path {
            let n = &mut self.nodes[i];
            n.visits = n.visits.saturating_add(1);
            n.reward += rewards[n.mover as usize] as f32;
        }
        if cfg.rave > 0.0 {
            self.update_amaf(rewards);
        }
        if cfg.solver && newly_proven {
            for k in (0..self.path.len() - 1).rev() {
                if !self.update_proven(self.path[k]) {
                    break;
                }
            }
        }
    }

    /// All-moves-as-first: below each node of the path, the children whose move its mover
    /// played later in the simulation share the simulation's reward.
    fn update_amaf(&mut self, rewards: [f64; 2]) {
        let mut played = self.played;
        for k in (0..self.path.len()).rev() {
            let idx = self.path[k];
            let n = self.nodes[idx];
            if n.flags & EXPANDED != 0 {
                for c in &mut self.nodes[n.first as usize..(n.first + n.count) as usize] {
                    let f = G::footprint(c.mv.expect("children have moves"));
                    if f != 0 && f & !played[c.mover as usize] == 0 {
                        c.amaf_n += 1;
                        c.amaf_r += rewards[c.mover as usize] as f32;
                    }
                }
            }
            if let Some(m) = n.mv {
                played[n.mover as usize] |= G::footprint(m);
            }
        }
    }

    /// Creates the children of `idx`; false when the position is over or memory is full.
    fn expand(&mut self, idx: usize, g: &G, widen: u32) -> bool {
        g.legal_moves(&mut self.buf);
        if self.buf.is_empty() {
            self.mark_terminal(idx, g);
            return false;
        }
        if idx != 0 && self.nodes.len() + self.buf.len() > self.max_nodes {
            return false;
        }
        // Shuffle, so that unvisited children are tried in random order; with progressive
        // widening, the game's priorities come first.
        for i in (1..self.buf.len()).rev() {
            let j = self.rng.random_range(0..=i);
            self.buf.swap(i, j);
        }
        if widen > 0 {
            self.buf
                .sort_by_cached_key(|&m| std::cmp::Reverse(g.move_priority(m)));
        }
        let first = self.nodes.len();
        let mover = g.to_move().index() as u8;
        self.nodes
            .extend(self.buf.iter().map(|&m| Node::new(Some(m), mover)));
        let n = &mut self.nodes[idx];
        n.first = first as u32;
        n.count = self.buf.len() as u32;
        n.flags |= EXPANDED;
        true
    }

    fn mark_terminal(&mut self, idx: usize, g: &G) {
        let o = g.outcome().expect("a position without legal moves is over");
        let n = &mut self.nodes[idx];
        n.flags |= TERMINAL;
        n.state = wdl_state(o.for_seat(if n.mover == 0 {
            Seat::First
        } else {
            Seat::Second
        }));
        n.len = 0;
    }

    fn select(&mut self, p: usize, cfg: &Cfg) -> usize {
        let parent = self.nodes[p];
        let first = parent.first as usize;
        let all = first + parent.count as usize;
        let ln = (parent.visits.max(1) as f32).ln();
        let mut end = all;
        if cfg.widen > 0 {
            let k = cfg.widen as usize + (parent.visits as f32).sqrt() as usize;
            end = all.min(first + k);
        }
        let pick = |end: usize| {
            if cfg.rave > 0.0 {
                self.select_rave(first, end, ln, cfg)
            } else {
                self.select_uct(first, end, ln, cfg)
            }
        };
        // When every child in the window is a proven loss, look at them all.
        pick(end).or_else(|| pick(all)).unwrap_or(first)
    }

    /// UCT: the child with the best upper confidence bound; unvisited children first.
    fn select_uct(&self, first: usize, end: usize, ln: f32, cfg: &Cfg) -> Option<usize> {
        let mut best = None;
        let mut best_u = f32::NEG_INFINITY;
        for i in first..end {
            let c = &self.nodes[i];
            if cfg.solver {
                match c.state {
                    WIN => return Some(i),
                    LOSS => continue,
                    _ => {}
                }
            }
            if c.visits == 0 {
                return Some(i);
            }
            let v = c.visits as f32;
            let q = if cfg.solver && c.state == DRAW {
                0.5
            } else {
                c.reward / v
            };
            let u = q + cfg.c * (ln / v).sqrt();
            if u > best_u {
                best_u = u;
                best = Some(i);
            }
        }
        best
    }

    /// Selection with RAVE: the mean reward blended with the all-moves-as-first mean,
    /// trusting the latter less as real visits grow (weight √(k / (3n + k))).
    fn select_rave(&self, first: usize, end: usize, ln: f32, cfg: &Cfg) -> Option<usize> {
        let mut best = None;
        let mut best_u = f32::NEG_INFINITY;
        for i in first..end {
            let c = &self.nodes[i];
            if cfg.solver {
                match c.state {
                    WIN => return Some(i),
                    LOSS => continue,
                    DRAW => {
                        let u = 0.5 + cfg.c * (ln / (c.visits as f32 + 1.0)).sqrt();
                        if u > best_u {
                            best_u = u;
                            best = Some(i);
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            let n = c.visits as f32;
            let q = if c.visits > 0 { c.reward / n } else { 0.5 };
            let qa = if c.amaf_n > 0 {
                c.amaf_r / c.amaf_n as f32
            } else {
                0.5
            };
            let beta = (cfg.rave / (3.0 * n + cfg.rave)).sqrt();
            let u = (1.0 - beta) * q + beta * qa + cfg.c * (ln / (n + 1.0)).sqrt();
            if u > best_u {
                best_u = u;
                best = Some(i);
            }
        }
        best
    }

    /// The rewards of both seats for the leaf `idx` whose position is `g`.
    fn leaf_rewards(&mut self, idx: usize, g: &mut G, cfg: &Cfg) -> [f64; 2] {
        let n = self.nodes[idx];
        if n.flags & TERMINAL != 0 {
            let o = g.outcome().expect("terminal");
            return outcome_scores(&o);
        }
        if cfg.solver && n.state != UNKNOWN {
            return state_rewards(n.state, n.mover);
        }
        if cfg.exact && self.endgame.applies(g, false) {
            if let Some(p) =
                self.endgame
                    .value(g, Budget::nodes(LEAF_EXACT_NODES), &mut self.exact_nodes)
            {
                let (state, len) = node_state(p, Seat::BOTH[usize::from(n.mover)]);
                if cfg.solver {
                    let node = &mut self.nodes[idx];
                    node.state = state;
                    node.len = len.min(u32::from(u16::MAX)) as u16;
                }
                return state_rewards(state, n.mover);
            }
        }
        let limit = match cfg.rollout {
            Rollout::Cutoff(k) => k,
            Rollout::Full | Rollout::Auto => u32::MAX,
        };
        if limit != u32::MAX {
            if let Some(o) = g.outcome() {
                self.nodes[idx].flags |= TERMINAL;
                self.set_terminal_state(idx, &o);
                return outcome_scores(&o);
            }
        }
        let plies = if cfg.rave > 0.0 {
            // Move by move, to record what each seat plays.
            let mut k = 0;
            while k < limit {
                let m = if cfg.policy {
                    g.policy_move(&mut self.rng, &mut self.buf)
                } else {
                    g.random_move(&mut self.rng, &mut self.buf)
                };
                let Some(m) = m else { break };
                self.played[g.to_move().index()] |= G::footprint(m);
                g.play_unchecked(m);
                k += 1;
            }
            k
        } else if cfg.policy {
            g.policy_playout(&mut self.rng, limit)
        } else if limit == u32::MAX {
            g.playout(&mut self.rng)
        } else {
            let mut k = 0;
            while k < limit {
                match g.random_move(&mut self.rng, &mut self.buf) {
                    Some(m) => g.play_unchecked(m),
                    None => break,
                }
                k += 1;
            }
            k
        };
        match g.outcome() {
            Some(o) => {
                if plies == 0 {
                    self.nodes[idx].flags |= TERMINAL;
                    self.set_terminal_state(idx, &o);
                }
                outcome_scores(&o)
            }
            None => {
                let p = win_chance::<G>(g.evaluate());
                let mut r = [1.0 - p, 1.0 - p];
                r[g.to_move().index()] = p;
                r
            }
        }
    }

    fn set_terminal_state(&mut self, idx: usize, o: &boardlab_core::Outcome) {
        let n = &mut self.nodes[idx];
        let seat = if n.mover == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        n.state = wdl_state(o.for_seat(seat));
        n.len = 0;
    }

    /// Recomputes the solver state of `p` from its children; true when it became known.
    fn update_proven(&mut self, p: usize) -> bool {
        let parent = self.nodes[p];
        if parent.flags & EXPANDED == 0 || parent.state != UNKNOWN {
            return false;
        }
        let (first, end) = (
            parent.first as usize,
            (parent.first + parent.count) as usize,
        );
        let to_move = self.nodes[first].mover;
        let mut win_len = u16::MAX;
        let mut loss_len = 0u16;
        let mut all_known = true;
        let mut draw = false;
        for c in &self.nodes[first..end] {
            match c.state {
                WIN => win_len = win_len.min(c.len),
                LOSS => loss_len = loss_len.max(c.len),
                DRAW => draw = true,
                _ => all_known = false,
            }
        }
        let (state, len) = if win_len != u16::MAX {
            (WIN, win_len)
        } else if !all_known {
            return false;
        } else if draw {
            (DRAW, 0)
        } else {
            (LOSS, loss_len)
        };
        let n = &mut self.nodes[p];
        n.state = if n.mover == to_move {
            state
        } else {
            flip(state)
        };
        n.len = len.saturating_add(1);
        true
    }

    /// The line of most-visited children from the root child `start`.
    fn line_from(&self, start: usize) -> Vec<G::Move> {
        let mut pv = Vec::new();
        let mut idx = start;
        while pv.len() < 40 {
            let n = &self.nodes[idx];
            pv.push(n.mv.expect("children have moves"));
            if n.flags & EXPANDED == 0 {
                break;
            }
            let kids = &self.nodes[n.first as usize..(n.first + n.count) as usize];
            let best = kids
                .iter()
                .enumerate()
                .max_by_key(|(_, c)| (c.state == WIN, c.visits))
                .map(|(i, _)| i);
            match best {
                Some(i) if kids[i].visits > 0 || kids[i].state != UNKNOWN => {
                    idx = n.first as usize + i;
                }
                _ => break,
            }
        }
        pv
    }
}

fn state_rewards(state: u8, mover: u8) -> [f64; 2] {
    let s = match state {
        WIN => 1.0,
        LOSS => 0.0,
        _ => 0.5,
    };
    let mut r = [1.0 - s, 1.0 - s];
    r[mover as usize] = s;
    r
}

/// The MCTS bot. Keeps one tree per thread between moves.
#[derive(Debug)]
pub struct Mcts<G: GameAi> {
    spec: MctsSpec,
    seed: u64,
    trees: Vec<Tree<G>>,
    max_nodes: usize,
}

impl<G: GameAi> Mcts<G> {
    /// A bot with these settings; moves follow from `seed`.
    #[must_use]
    pub fn new(spec: MctsSpec, seed: u64) -> Mcts<G> {
        Mcts {
            spec,
            seed,
            trees: Vec::new(),
            max_nodes: DEFAULT_MAX_NODES,
        }
    }

    /// Limits the nodes of each thread's tree.
    #[must_use]
    pub fn with_max_nodes(mut self, max_nodes: usize) -> Mcts<G> {
        self.max_nodes = max_nodes.max(1000);
        self
    }

    fn threads(&self) -> usize {
        match self.spec.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n as usize,
        }
    }
}

/// Merged statistics of one root move.
#[derive(Clone, Copy, Debug, Default)]
struct MoveStats {
    visits: u64,
    reward: f64,
    state: u8,
    len: u16,
}

impl<G: GameAi> Bot<G> for Mcts<G> {
    fn search(&mut self, game: &G, stop: &AtomicBool) -> SearchResult<G::Move> {
        let start = Instant::now();
        let spec = self.spec;
        let (time, iterations) = match (spec.time, spec.iterations) {
            (None, None) => (Some(DEFAULT_TIME), None),
            b => b,
        };
        let deadline = time.map(|t| start + t);
        let to_move = game.to_move();
        let mut root_moves = Vec::new();
        game.legal_moves(&mut root_moves);
        assert!(
            !root_moves.is_empty(),
            "MCTS was asked to move in a finished game"
        );
        let cfg = Cfg {
            c: spec.c as f32,
            solver: spec.solver && !game.is_solitaire(),
            policy: spec.policy,
            exact: spec.exact,
            rollout: match spec.rollout {
                Rollout::Auto => G::ROLLOUT,
                r => r,
            },
            timed: iterations.is_none(),
            early: iterations.is_none() && spec.solver,
            rave: spec.rave.unwrap_or(G::RAVE) as f32,
            widen: spec.widen.unwrap_or(G::WIDEN),
        };

        // Decisive moves and exact endgames at the root.
        if cfg.solver {
            if let Some(r) = immediate_win(game, &root_moves, start) {
                return r;
            }
        }
        let threads = self.threads().max(1);
        while self.trees.len() < threads {
            let i = self.trees.len() as u64;
            self.trees.push(Tree::new(
                self.seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                self.max_nodes,
            ));
        }
        self.trees.truncate(threads);
        if cfg.exact {
            // The full result (with the distance) may take a quarter of a time budget; who
            // wins, if that is all there is time for, most of the rest.
            let (limit, decide_limit) = match (time, iterations) {
                (_, Some(n)) => {
                    let b = Budget::nodes(n.saturating_mul(50).max(100_000));
                    (b, b)
                }
                (Some(t), None) => (
                    Budget::until(start + t / 4),
                    Budget::until(start + t * 9 / 10),
                ),
                (None, None) => unreachable!("a budget is always set"),
            };
            let tree = &mut self.trees[0];
            if tree.endgame.applies(game, true) {
                let mut nodes = 0;
                if let Some((p, Some(mv))) = tree.endgame.solve(game, limit, &mut nodes) {
                    return SearchResult {
                        best: mv,
                        value: Value::proven(p.for_seat(to_move)),
                        pv: exact_line(game, mv, &mut tree.endgame),
                        nodes,
                        elapsed: start.elapsed(),
                        depth: p.plies.unwrap_or(0),
                    };
                }
                // Too slow to find the distance: who wins still decides the move.
                if let Some((wins, mv)) = tree.endgame.decide(game, decide_limit, &mut nodes) {
                    return SearchResult {
                        best: mv,
                        value: Value::estimate(to_move, if wins { 1.0 } else { 0.0 }),
                        pv: vec![mv],
                        nodes,
                        elapsed: start.elapsed(),
                        depth: 0,
                    };
                }
            }
        }

        for tree in &mut self.trees {
            tree.prepare(game, spec.reuse);
        }
        let done = AtomicBool::new(false);
        let quota = |i: usize| match iterations {
            Some(n) => n / threads as u64 + u64::from((i as u64) < n % threads as u64),
            None => u64::MAX,
        };
        let mut total = 0;
        if threads == 1 {
            total = self.trees[0].run(game, &cfg, quota(0), deadline, stop, &done);
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = self
                    .trees
                    .iter_mut()
                    .enumerate()
                    .map(|(i, tree)| {
                        let (cfg, done) = (&cfg, &done);
                        s.spawn(move || tree.run(game, cfg, quota(i), deadline, stop, done))
                    })
                    .collect();
                for h in handles {
                    total += h.join().expect("search thread panicked");
                }
            });
        }
        let result = self.merge(game, &root_moves, to_move);
        if !spec.reuse {
            // Nothing to keep: give the memory back.
            for t in &mut self.trees {
                t.nodes = Vec::new();
                t.root_game = None;
            }
        }
        SearchResult {
            nodes: total,
            elapsed: start.elapsed(),
            ..result
        }
    }
}

impl<G: GameAi> Mcts<G> {
    fn merge(&self, game: &G, root_moves: &[G::Move], to_move: Seat) -> SearchResult<G::Move> {
        let mut stats: HashMap<G::Move, MoveStats> = HashMap::with_capacity(root_moves.len());
        let mut root_state = (UNKNOWN, 0u16);
        let mut depth = 0;
        for t in &self.trees {
            if t.nodes.is_empty() {
                continue;
            }
            depth = depth.max(t.max_depth);
            let root = t.nodes[0];
            if root.state != UNKNOWN {
                root_state = (root.state, root.len);
            }
            if root.flags & EXPANDED == 0 {
                continue;
            }
            for c in &t.nodes[root.first as usize..(root.first + root.count) as usize] {
                let e = stats.entry(c.mv.expect("children have moves")).or_default();
                e.visits += u64::from(c.visits);
                e.reward += f64::from(c.reward);
                if c.state != UNKNOWN {
                    e.state = c.state;
                    e.len = c.len;
                }
            }
        }
        let get = |m: &G::Move| stats.get(m).copied().unwrap_or_default();
        let q = |s: &MoveStats| {
            if s.visits == 0 {
                0.0
            } else {
                s.reward / s.visits as f64
            }
        };
        // Proven wins (shortest), else the most visited move not proven lost, else the
        // longest loss. Ties go to the earlier move in the game's order.
        let mut best = root_moves[0];
        let mut best_key = (0u8, 0i64, 0u64, f64::NEG_INFINITY);
        for (i, m) in root_moves.iter().enumerate() {
            let s = get(m);
            let key = match s.state {
                WIN => (3, -i64::from(s.len), s.visits, q(&s)),
                LOSS => (0, i64::from(s.len), s.visits, q(&s)),
                _ => (
                    if s.state == DRAW { 1 } else { 2 },
                    0,
                    s.visits,
                    if s.state == DRAW { 0.5 } else { q(&s) },
                ),
            };
            let better = i == 0 || {
                let (a, b) = (key, best_key);
                a.0 > b.0
                    || (a.0 == b.0
                        && (a.1 > b.1 || (a.1 == b.1 && (a.2 > b.2 || (a.2 == b.2 && a.3 > b.3)))))
            };
            if better {
                best = *m;
                best_key = key;
            }
        }
        let bs = get(&best);
        // A won move proves the root won; a lost or drawn one only when the root is proven so.
        let proven = match (bs.state, root_state.0) {
            (WIN, _) | (LOSS, LOSS) | (DRAW, DRAW) => {
                node_proven(bs.state, u32::from(bs.len) + 1, to_move)
            }
            _ => None,
        };
        let value = proven.map_or_else(
            || Value::estimate(to_move, if bs.visits == 0 { 0.5 } else { q(&bs) }),
            Value::proven,
        );
        // The principal variation from the tree that looked hardest at the chosen move.
        let mut pv = vec![best];
        let mut most = 0;
        for t in &self.trees {
            if t.nodes.is_empty() || t.nodes[0].flags & EXPANDED == 0 {
                continue;
            }
            let root = t.nodes[0];
            for i in root.first..root.first + root.count {
                let c = &t.nodes[i as usize];
                if c.mv == Some(best) && (c.visits > most || pv.len() == 1) && c.visits >= most {
                    most = c.visits;
                    pv = t.line_from(i as usize);
                }
            }
        }
        let _ = game;
        SearchResult {
            best,
            value,
            pv,
            nodes: 0,
            elapsed: Duration::ZERO,
            depth,
        }
    }
}

/// A move that wins at once, if any.
fn immediate_win<G: GameAi>(
    game: &G,
    moves: &[G::Move],
    start: Instant,
) -> Option<SearchResult<G::Move>> {
    let seat = game.to_move();
    for &m in moves {
        let mut g = game.clone();
        g.play_unchecked(m);
        if let Some(o) = g.outcome() {
            if o.for_seat(seat) == Wdl::Win && !game.is_solitaire() {
                return Some(SearchResult {
                    best: m,
                    value: Value::proven(Proven::win_in(seat, 1)),
                    pv: vec![m],
                    nodes: moves.len() as u64,
                    elapsed: start.elapsed(),
                    depth: 1,
                });
            }
        }
    }
    None
}

/// The line of an exact endgame search: the best move, then the best reply, … .
pub(crate) fn exact_line<G: GameAi>(game: &G, first: G::Move, eg: &mut G::Endgame) -> Vec<G::Move> {
    let mut pv = vec![first];
    let mut g = game.clone();
    g.play_unchecked(first);
    let mut nodes = 0;
    while pv.len() < 40 && g.outcome().is_none() {
        match eg.solve(&g, Budget::nodes(200_000), &mut nodes) {
            Some((_, Some(m))) => {
                pv.push(m);
                g.play_unchecked(m);
            }
            _ => break,
        }
    }
    pv
}

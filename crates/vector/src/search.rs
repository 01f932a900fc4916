//! A batched PUCT tree search from every env's position, AlphaZero style.
//!
//! Each round descends one path in every env's tree. A path that ends in a finished game backs
//! up its result at once; the others end at a new leaf, and all those leaves go to the
//! evaluator together, as one batch of planes and masks. The evaluator answers priors over the
//! action ids and a value in −1..1 for the side to move at each leaf. Without an evaluator the
//! search stays in Rust: uniform priors over the legal ids and the result of one seeded random
//! playout as the value.
//!
//! For self-play, Dirichlet noise can be mixed into the root's priors, as AlphaZero does.
//!
//! The trees are searched on copies: the envs' games do not change.

use crate::env::{encoding, rewards_of, Slot, VecEnv, VecError};
use crate::seeds;
use boardlab_core::Seat;
use boardlab_games::AnyGame;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use rand_distr::{Distribution, Gamma};
use rayon::prelude::*;

/// The settings of [`VecEnv::search`].
#[derive(Clone, Copy, Debug)]
pub struct SearchConfig {
    /// Simulations (paths from the root) per env, at least 1.
    pub simulations: u32,
    /// The weight of the prior against the mean value, `c` in PUCT.
    pub c_puct: f32,
    /// The seed of the random playouts used when there is no evaluator, and of the noise.
    pub seed: u64,
    /// The concentration α of the Dirichlet noise mixed into each root's priors.
    pub noise_alpha: f32,
    /// The share of that noise in the root's priors, 0 (none) to 1.
    pub noise_fraction: f32,
}

impl SearchConfig {
    /// A search with `simulations` simulations, `c_puct` 1.25, seed 0 and no noise.
    #[must_use]
    pub fn new(simulations: u32) -> SearchConfig {
        SearchConfig {
            simulations,
            c_puct: 1.25,
            seed: 0,
            noise_alpha: 0.3,
            noise_fraction: 0.0,
        }
    }

    fn check(&self) -> Result<Option<Gamma<f32>>, VecError> {
        if self.simulations == 0 {
            return Err(VecError::Config(
                "a search needs at least 1 simulation".into(),
            ));
        }
        if !(self.c_puct.is_finite() && self.c_puct >= 0.0) {
            return Err(VecError::Config(
                "c_puct must be a finite number ≥ 0".into(),
            ));
        }
        if !(0.0..=1.0).contains(&self.noise_fraction) {
            return Err(VecError::Config(
                "noise_fraction must be between 0 and 1".into(),
            ));
        }
        if self.noise_fraction == 0.0 {
            return Ok(None);
        }
        if !(self.noise_alpha.is_finite() && self.noise_alpha > 0.0) {
            return Err(VecError::Config("noise_alpha must be a number > 0".into()));
        }
        Gamma::new(self.noise_alpha, 1.0)
            .map(Some)
            .map_err(|e| VecError::Config(format!("noise_alpha: {e}")))
    }
}

/// A batch of leaves for the evaluator: `count` rows of planes (from each leaf's side to move)
/// and of legal-action masks.
#[derive(Debug)]
pub struct Leaves<'a> {
    /// The number of leaves.
    pub count: usize,
    /// `count × channels × height × width` planes.
    pub planes: &'a [f32],
    /// `count × action_count` masks, true for each legal id.
    pub masks: &'a [bool],
}

/// What the search found, one row per env.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutput {
    /// `num_envs × action_count`: the share of the root's visits that went to each id.
    pub policy: Vec<f32>,
    /// `num_envs`: the mean value of the root for its side to move, in −1..1.
    pub value: Vec<f32>,
    /// `num_envs`: the most visited id (ties to the lower id).
    pub best: Vec<i64>,
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Edge {
    action: u32,
    prior: f32,
    child: u32,
}

#[derive(Clone, Debug)]
struct Node {
    seat: Seat,
    visits: u32,
    /// Sum of backed-up values, for `seat`.
    total: f32,
    /// The value of a finished game, for `seat`.
    terminal: Option<f32>,
    edges: Vec<Edge>,
}

impl Node {
    fn new(game: &AnyGame) -> Node {
        let seat = game.to_move();
        let terminal = game.outcome().map(|o| rewards_of(&o)[seat.index()]);
        Node {
            seat,
            visits: 0,
            total: 0.0,
            terminal,
            edges: Vec::new(),
        }
    }

    /// The mean value for `seat`, 0 before any visit.
    fn mean_for(&self, seat: Seat) -> f32 {
        if self.visits == 0 {
            return 0.0;
        }
        let v = self.total / self.visits as f32;
        if seat == self.seat {
            v
        } else {
            -v
        }
    }
}

/// The Dirichlet noise of one root: the distribution of its parts, their share and a stream.
#[derive(Debug)]
struct Noise {
    gamma: Gamma<f32>,
    fraction: f32,
    rng: SmallRng,
}

/// One env's tree and the leaf its current path reached.
#[derive(Debug)]
struct Tree {
    nodes: Vec<Node>,
    path: Vec<u32>,
    leaf: Option<AnyGame>,
    noise: Option<Noise>,
}

impl Tree {
    fn new(root: &AnyGame, noise: Option<Noise>) -> Tree {
        Tree {
            nodes: vec![Node::new(root)],
            path: Vec::new(),
            leaf: None,
            noise,
        }
    }

    /// Descends from the root by PUCT to a new or finished node. A finished node's result is
    /// backed up at once; a new node's game is kept in `leaf` for evaluation.
    fn descend(&mut self, root: &AnyGame, c_puct: f32) {
        let mut game = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut at = 0usize;
        loop {
            let node = &self.nodes[at];
            if let Some(value) = node.terminal {
                self.backup(value);
                return;
            }
            if node.edges.is_empty() {
                self.leaf = Some(game);
                return;
            }
            let k = self.select(at, c_puct);
            let edge = self.nodes[at].edges[k];
            let played = game
                .encoding_mut()
                .is_some_and(|e| e.play_listed_action(edge.action));
            debug_assert!(played, "an edge's id is legal in its node's position");
            let child = if edge.child == NONE {
                let id = self.nodes.len() as u32;
                self.nodes.push(Node::new(&game));
                self.nodes[at].edges[k].child = id;
                id
            } else {
                edge.child
            };
            self.path.push(child);
            at = child as usize;
        }
    }

    fn select(&self, at: usize, c_puct: f32) -> usize {
        let node = &self.nodes[at];
        let scale = c_puct * (node.visits.max(1) as f32).sqrt();
        let mut best = (f32::NEG_INFINITY, 0);
        for (k, e) in node.edges.iter().enumerate() {
            let (q, n) = match e.child {
                NONE => (0.0, 0),
                c => {
                    let child = &self.nodes[c as usize];
                    (child.mean_for(node.seat), child.visits)
                }
            };
            let score = q + scale * e.prior / (1.0 + n as f32);
            if score > best.0 {
                best = (score, k);
            }
        }
        best.1
    }

    /// Adds `value`, for the side to move at the end of the path, to every node on it.
    fn backup(&mut self, value: f32) {
        let leaf_seat = self.nodes[*self.path.last().unwrap_or(&0) as usize].seat;
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.total += if node.seat == leaf_seat {
                value
            } else {
                -value
            };
        }
    }

    /// Expands the leaf with `priors` (weights over all ids; renormalised over the legal ones,
    /// uniform when they sum to nothing) and backs up `value`.
    fn expand(&mut self, legal: &[u32], priors: Option<&[f32]>, value: f32) {
        let weight = |id: u32| priors.map_or(1.0, |p| p[id as usize].max(0.0));
        let sum: f32 = legal.iter().map(|&id| weight(id)).sum();
        let uniform = !(sum.is_finite() && sum > 0.0);
        let at = *self.path.last().unwrap_or(&0) as usize;
        self.nodes[at].edges = legal
            .iter()
            .map(|&id| Edge {
                action: id,
                prior: if uniform {
                    1.0 / legal.len() as f32
                } else {
                    weight(id) / sum
                },
                child: NONE,
            })
            .collect();
        if at == 0 {
            if let Some(noise) = &mut self.noise {
                noise.mix(&mut self.nodes[0].edges);
            }
        }
        self.backup(value.clamp(-1.0, 1.0));
        self.leaf = None;
    }
}

impl Noise {
    /// Mixes a Dirichlet sample (normalised Gamma draws) into the priors of `edges`.
    fn mix(&mut self, edges: &mut [Edge]) {
        let draws: Vec<f32> = edges
            .iter()
            .map(|_| self.gamma.sample(&mut self.rng))
            .collect();
        let total: f32 = draws.iter().sum();
        if !(total.is_finite() && total > 0.0) {
            return;
        }
        for (e, d) in edges.iter_mut().zip(draws) {
            e.prior = (1.0 - self.fraction) * e.prior + self.fraction * d / total;
        }
    }
}

/// The evaluator of [`VecEnv::search`]: fills `priors` (`count × action_count`) and `values`
/// (`count`) for a batch of [`Leaves`].
pub type Evaluate<'e> = dyn FnMut(Leaves<'_>, &mut [f32], &mut [f32]) -> Result<(), String> + 'e;

impl VecEnv {
    /// Searches every env's position with `config.simulations` simulations; see the
    /// [module documentation](self). With `evaluate`, each round calls it once with the new
    /// leaves of all envs (at most `num_envs` of them).
    ///
    /// # Errors
    /// Settings out of range, or an evaluator that fails: nothing changes.
    pub fn search(
        &self,
        config: SearchConfig,
        mut evaluate: Option<&mut Evaluate<'_>>,
    ) -> Result<SearchOutput, VecError> {
        let gamma = config.check()?;
        let mut trees: Vec<Tree> = self
            .slots
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let noise = gamma.map(|gamma| Noise {
                    gamma,
                    fraction: config.noise_fraction,
                    rng: SmallRng::seed_from_u64(seeds::derive(
                        config.seed,
                        seeds::NOISE,
                        i as u64,
                        0,
                    )),
                });
                Tree::new(&s.game, noise)
            })
            .collect();
        let (pl, a) = (self.shared.plane_len, self.shared.actions);
        let (mut planes, mut masks, mut priors, mut values) = (vec![], vec![], vec![], vec![]);
        let mut legal: Vec<Vec<u32>> = vec![Vec::new(); trees.len()];
        for round in 0..config.simulations {
            self.each_tree(&mut trees, |slot, tree| {
                tree.descend(&slot.game, config.c_puct)
            });
            let Some(evaluate) = evaluate.as_deref_mut() else {
                self.each_tree(&mut trees, |slot, tree| {
                    playout_expand(tree, slot, config.seed, round);
                });
                continue;
            };
            let waiting: Vec<usize> = (0..trees.len())
                .filter(|&i| trees[i].leaf.is_some())
                .collect();
            if waiting.is_empty() {
                continue;
            }
            let count = waiting.len();
            planes.resize(count * pl, 0.0);
            masks.clear();
            masks.resize(count * a, false);
            priors.clear();
            priors.resize(count * a, 0.0);
            values.clear();
            values.resize(count, 0.0);
            for (row, &i) in waiting.iter().enumerate() {
                let Some(leaf) = &trees[i].leaf else { continue };
                let enc = encoding(leaf);
                enc.legal_actions_into(&mut legal[i]);
                enc.write_planes(leaf.to_move(), &mut planes[row * pl..(row + 1) * pl]);
                for &id in &legal[i] {
                    masks[row * a + id as usize] = true;
                }
            }
            let leaves = Leaves {
                count,
                planes: &planes,
                masks: &masks,
            };
            evaluate(leaves, &mut priors, &mut values).map_err(VecError::Evaluator)?;
            for (row, &i) in waiting.iter().enumerate() {
                let p = &priors[row * a..(row + 1) * a];
                trees[i].expand(&legal[i], Some(p), values[row]);
            }
        }
        Ok(self.summarise(&trees))
    }

    fn each_tree(&self, trees: &mut [Tree], work: impl Fn(&Slot, &mut Tree) + Sync) {
        match &self.pool {
            Some(pool) => pool.install(|| {
                self.slots
                    .par_iter()
                    .zip(trees.par_iter_mut())
                    .with_min_len(8)
                    .for_each(|(s, t)| work(s, t));
            }),
            None => self.slots.iter().zip(trees).for_each(|(s, t)| work(s, t)),
        }
    }

    fn summarise(&self, trees: &[Tree]) -> SearchOutput {
        let a = self.shared.actions;
        let mut out = SearchOutput {
            policy: vec![0.0; trees.len() * a],
            value: Vec::with_capacity(trees.len()),
            best: Vec::with_capacity(trees.len()),
        };
        for (i, tree) in trees.iter().enumerate() {
            let root = &tree.nodes[0];
            let row = &mut out.policy[i * a..(i + 1) * a];
            let visits = |e: &Edge| match e.child {
                NONE => 0,
                c => tree.nodes[c as usize].visits,
            };
            let total: u32 = root.edges.iter().map(visits).sum();
            let mut best = (0, i64::MAX);
            for e in &root.edges {
                let n = visits(e);
                row[e.action as usize] = n as f32 / total.max(1) as f32;
                let id = i64::from(e.action);
                if n > best.0 || (n == best.0 && id < best.1) {
                    best = (n, id);
                }
            }
            out.value.push(root.mean_for(root.seat));
            out.best.push(if best.1 == i64::MAX {
                self.slots[i].legal.first().map_or(0, |&id| i64::from(id))
            } else {
                best.1
            });
        }
        out
    }
}

/// Expands a waiting leaf with uniform priors and the result of one seeded random playout.
fn playout_expand(tree: &mut Tree, slot: &Slot, seed: u64, round: u32) {
    let Some(leaf) = tree.leaf.take() else { return };
    let mut legal = Vec::new();
    encoding(&leaf).legal_actions_into(&mut legal);
    let seat = leaf.to_move();
    let mut rollout = leaf;
    let index = slot.game.hash() ^ u64::from(round);
    rollout.playout(seeds::derive(
        seed,
        seeds::PLAYOUTS,
        index,
        u64::from(round),
    ));
    let value = rollout
        .outcome()
        .map_or(0.0, |o| rewards_of(&o)[seat.index()]);
    tree.expand(&legal, None, value);
}

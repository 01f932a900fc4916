//! Strength levels 1..=10.
//!
//! In Obsidio, Opprimo and assideum, levels 1 to 6 have fixed work budgets (iterations, depth
//! or nodes), so they play the same way on every machine and are reproducible for a seed;
//! levels 7 to 10 are the game's strongest configuration (`best`) at a growing time per move.
//! Level 1 is close to random play (a beginner beats it); level 10 thinks up to 3 s per move
//! on every core (MCTS trees side by side, or alpha-beta threads sharing one table). Sight
//! Reduction, where the strongest bot is perfect within milliseconds, has levels of its own
//! ([`sight_reduction_level`]).
//!
//! Each game picks one of the tables below ([`GameAi::level_spec`](crate::policy::GameAi::level_spec));
//! `docs/ai.md` lists them with their measured strength.

use crate::spec::{AlphaBetaSpec, BestSpec, BotSpec, MctsSpec};
use std::time::Duration;

fn mcts(iterations: u64, base: MctsSpec) -> BotSpec {
    BotSpec::Mcts(MctsSpec {
        iterations: Some(iterations),
        ..base
    })
}

fn best(ms: u64, threads: u32) -> BotSpec {
    BotSpec::Best(BestSpec {
        time: Some(Duration::from_millis(ms)),
        threads,
    })
}

fn top(n: u8) -> BotSpec {
    match n {
        7 => best(100, 1),
        8 => best(300, 1),
        9 => best(1000, 1),
        _ => best(3000, 0),
    }
}

/// Games played by MCTS (Obsidio):
///
/// | level | spec |
/// |------:|------|
/// | 1 | `mcts:plain,iterations=10` |
/// | 2 | `mcts:plain,iterations=100` |
/// | 3 | `mcts:iterations=300` |
/// | 4 | `mcts:iterations=1000` |
/// | 5 | `mcts:iterations=3000` |
/// | 6 | `mcts:iterations=10000` |
/// | 7 | `best:time=100ms` |
/// | 8 | `best:time=300ms` |
/// | 9 | `best:time=1s` |
/// | 10 | `best:time=3s,threads=0` |
#[must_use]
pub fn default_level(n: u8) -> BotSpec {
    match n {
        0 | 1 => mcts(10, MctsSpec::PLAIN),
        2 => mcts(100, MctsSpec::PLAIN),
        3 => mcts(300, MctsSpec::DEFAULT),
        4 => mcts(1000, MctsSpec::DEFAULT),
        5 => mcts(3000, MctsSpec::DEFAULT),
        6 => mcts(10_000, MctsSpec::DEFAULT),
        n => top(n),
    }
}

/// The work of one of alpha-beta's fixed-budget levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Complete iterations up to this depth.
    Depth(u32),
    /// This many nodes (the last iteration is usually cut short).
    Nodes(u64),
}

/// Games played by alpha-beta (Opprimo, assideum): level 1 is `mcts:plain,iterations=10`,
/// levels 2 to 6 are alpha-beta with the game's budgets `fixed` (in that order), and levels 7
/// to 10 are `best` at 100 ms, 300 ms, 1 s and 3 s.
///
/// | level | Opprimo | assideum |
/// |------:|---------|----------|
/// | 2 | `alphabeta:depth=1` | `alphabeta:depth=1` |
/// | 3 | `alphabeta:depth=2` | `alphabeta:nodes=600` |
/// | 4 | `alphabeta:nodes=2000` | `alphabeta:nodes=1600` |
/// | 5 | `alphabeta:nodes=8000` | `alphabeta:nodes=4000` |
/// | 6 | `alphabeta:nodes=120000` | `alphabeta:nodes=11000` |
///
/// The budgets are spaced by measurement: in Opprimo 30,000 nodes at level 6 measured no
/// stronger than level 5, while 120,000 scored 71% against it. In assideum a node costs more
/// and a further ply many more nodes: level 7 (100 ms) searches about 30,000 nodes, so levels 3
/// to 6 step up by about 2.7 times the nodes each between depth 1 and that.
#[must_use]
pub fn alphabeta_level(n: u8, fixed: [Budget; 5]) -> BotSpec {
    match n {
        0 | 1 => mcts(10, MctsSpec::PLAIN),
        2..=6 => {
            let (depth, nodes) = match fixed[usize::from(n - 2)] {
                Budget::Depth(d) => (Some(d), None),
                Budget::Nodes(k) => (None, Some(k)),
            };
            BotSpec::AlphaBeta(AlphaBetaSpec {
                depth,
                nodes,
                ..AlphaBetaSpec::DEFAULT
            })
        }
        n => top(n),
    }
}

/// Sight Reduction, where the strongest bot plays perfectly from the first move (the exact
/// search solves a full board in milliseconds), and where between good players the random
/// board decides most games: MCTS that uses the game's playout policy with a thousand
/// iterations already wins almost every won board it gets. So the levels below 10 are spaced
/// by measurement over the range where strength still shows, from random moves up: each
/// scored 58–66% against the one below over 1,000 games (`docs/ai.md`).
///
/// | level | spec |
/// |------:|------|
/// | 1 | `random` |
/// | 2 | `mcts:plain,iterations=2` |
/// | 3 | `mcts:plain,iterations=5` |
/// | 4 | `mcts:plain,iterations=10` |
/// | 5 | `mcts:plain,iterations=30` |
/// | 6 | `mcts:plain,iterations=100` |
/// | 7 | `mcts:plain,iterations=300` |
/// | 8 | `mcts:plain,iterations=1000` |
/// | 9 | `mcts:iterations=1000,exact=false` |
/// | 10 | `best:time=3s,threads=0` |
#[must_use]
pub fn sight_reduction_level(n: u8) -> BotSpec {
    match n {
        0 | 1 => BotSpec::Random,
        2 => mcts(2, MctsSpec::PLAIN),
        3 => mcts(5, MctsSpec::PLAIN),
        4 => mcts(10, MctsSpec::PLAIN),
        5 => mcts(30, MctsSpec::PLAIN),
        6 => mcts(100, MctsSpec::PLAIN),
        7 => mcts(300, MctsSpec::PLAIN),
        8 => mcts(1000, MctsSpec::PLAIN),
        9 => mcts(
            1000,
            MctsSpec {
                exact: false,
                ..MctsSpec::DEFAULT
            },
        ),
        _ => best(3000, 0),
    }
}

/// An upper bound on the typical time per move of `level:n` in any game (every game's level
/// table keeps within it on an idle machine).
#[must_use]
pub fn time_hint(n: u8) -> Duration {
    Duration::from_millis(match n {
        0..=4 => 100,
        5 => 250,
        6 => 600,
        7 => 100,
        8 => 300,
        9 => 1000,
        _ => 3000,
    })
}

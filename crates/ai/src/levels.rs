//! Strength levels 1..=10.
//!
//! Levels 1 to 6 have fixed work budgets (iterations or nodes), so they play the same way on
//! every machine and are reproducible for a seed; levels 7 to 10 are the game's strongest
//! configuration (`best`) at a growing time per move. Level 1 is close to random play (a
//! beginner beats it); level 10 uses every core for a few seconds per move.
//!
//! | level | default mapping |
//! |------:|-----------------|
//! | 1 | `mcts:plain,iterations=10` |
//! | 2 | `mcts:plain,iterations=100` |
//! | 3 | `mcts:iterations=300` |
//! | 4 | `mcts:iterations=1000` |
//! | 5 | `mcts:iterations=3000` |
//! | 6 | `mcts:iterations=10000` |
//! | 7 | `best:time=200ms` |
//! | 8 | `best:time=500ms` |
//! | 9 | `best:time=1s` |
//! | 10 | `best:time=3s,threads=0` |
//!
//! A game may map levels differently (see its [`GameAi::level_spec`](crate::policy::GameAi::level_spec));
//! `docs/ai.md` lists every game's table.

use crate::spec::{BestSpec, BotSpec, MctsSpec};
use std::time::Duration;

/// The default level table (see the module docs).
#[must_use]
pub fn default_level(n: u8) -> BotSpec {
    let iters = |n: u64, plain: bool| {
        BotSpec::Mcts(MctsSpec {
            iterations: Some(n),
            ..if plain {
                MctsSpec::PLAIN
            } else {
                MctsSpec::DEFAULT
            }
        })
    };
    let best = |ms: u64, threads: u32| {
        BotSpec::Best(BestSpec {
            time: Some(Duration::from_millis(ms)),
            threads,
        })
    };
    match n {
        0 | 1 => iters(10, true),
        2 => iters(100, true),
        3 => iters(300, false),
        4 => iters(1000, false),
        5 => iters(3000, false),
        6 => iters(10_000, false),
        7 => best(200, 1),
        8 => best(500, 1),
        9 => best(1000, 1),
        _ => best(3000, 0),
    }
}

/// An upper bound on the typical time per move of `level:n` in any game (every game's level
/// table keeps within it).
#[must_use]
pub fn time_hint(n: u8) -> Duration {
    Duration::from_millis(match n {
        0..=3 => 100,
        4 => 200,
        5 => 500,
        6 => 1500,
        7 => 200,
        8 => 500,
        9 => 1000,
        _ => 3000,
    })
}

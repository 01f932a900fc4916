//! Strength levels 1..=10.
//!
//! In Obsidio, Opprimo and assideum, levels 1 to 6 (1 to 7 in Opprimo) have fixed work budgets
//! (iterations, depth or nodes), so they play the same way on every machine and are
//! reproducible for a seed; the levels above are the game's strongest configuration (`best`) at
//! a growing time per move.
//! Level 1 is close to random play (a beginner beats it); level 10 thinks up to 3 s per move
//! on every core (MCTS trees side by side, or alpha-beta threads sharing one table). Sight
//! Reduction, where the strongest bot is perfect within milliseconds, has levels of its own
//! ([`sight_reduction_level`]).
//!
//! Each game picks one of the tables below ([`GameAi::level_spec`](crate::knowledge::GameAi::level_spec));
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

/// The timed levels from `first` up: `best` on one thread at 100 ms, 300 ms and 1 s (as many
/// as fit below 10), and level 10 at 3 s on every core.
fn timed(n: u8, first: u8) -> BotSpec {
    const MS: [u64; 3] = [100, 300, 1000];
    if n >= 10 {
        best(3000, 0)
    } else {
        best(
            MS[usize::from(n.saturating_sub(first)).min(MS.len() - 1)],
            1,
        )
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
        n => timed(n, 7),
    }
}

/// The work of one of the fixed-budget levels of a game played by alpha-beta.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// `mcts:plain` with this many iterations (below alpha-beta's weakest setting).
    Plain(u64),
    /// Complete iterations up to this depth.
    Depth(u32),
    /// This many nodes (the last iteration is usually cut short).
    Nodes(u64),
}

/// Games played by alpha-beta (Opprimo, assideum): level 1 is `mcts:plain,iterations=10`, the
/// next levels have the game's budgets `fixed` (in that order), the levels after them are
/// `best` at 100 ms, 300 ms and 1 s (as many of these as there is room for, from 100 ms up),
/// and level 10 is `best` at 3 s on every core.
///
/// | level | Opprimo | assideum |
/// |------:|---------|----------|
/// | 2 | `mcts:plain,iterations=300` | `alphabeta:depth=1` |
/// | 3 | `alphabeta:depth=1` | `alphabeta:nodes=600` |
/// | 4 | `alphabeta:depth=2` | `alphabeta:nodes=1600` |
/// | 5 | `alphabeta:nodes=2000` | `alphabeta:nodes=4000` |
/// | 6 | `alphabeta:nodes=8000` | `alphabeta:nodes=11000` |
/// | 7 | `alphabeta:nodes=120000` | `best:time=100ms` |
/// | 8 | `best:time=100ms` | `best:time=300ms` |
/// | 9 | `best:time=300ms` | `best:time=1s` |
/// | 10 | `best:time=3s,threads=0` | `best:time=3s,threads=0` |
///
/// The budgets are spaced by measurement. In Opprimo 30,000 nodes measured no stronger than
/// 8,000, while 120,000 scored 71% against it; and level 10 scored only 52.7% over 110 games
/// against `best` at 1 s, so Opprimo's ladder goes from 300 ms straight to level 10 (66.7% over
/// 54 games) and has a weaker level 2 instead. In assideum a node costs more and a further ply
/// many more nodes: 100 ms searches about 30,000 nodes, so its node budgets step up by about
/// 2.7 times the nodes each between depth 1 and that.
#[must_use]
pub fn alphabeta_level(n: u8, fixed: &[Effort]) -> BotSpec {
    let n = n.clamp(1, 10);
    let alphabeta = |depth, nodes| {
        BotSpec::AlphaBeta(AlphaBetaSpec {
            depth,
            nodes,
            ..AlphaBetaSpec::DEFAULT
        })
    };
    if n == 1 {
        return mcts(10, MctsSpec::PLAIN);
    }
    match fixed.get(usize::from(n - 2)).filter(|_| n < 10) {
        Some(&Effort::Plain(k)) => mcts(k, MctsSpec::PLAIN),
        Some(&Effort::Depth(d)) => alphabeta(Some(d), None),
        Some(&Effort::Nodes(k)) => alphabeta(None, Some(k)),
        None => timed(n, 2 + fixed.len() as u8),
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

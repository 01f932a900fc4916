//! The engine suite (conformance, perft file, reference engine, golden playthroughs) with
//! assideum's data: see `boardlab_core::testkit`. The module `reference` holds the game's own
//! checks against the reference data and engine beyond the suite.

mod common;
mod reference;

use boardlab_assideum::Assideum;
use boardlab_core::testkit::{PerftRuns, Runs};

boardlab_core::engine_suite! {
    game: Assideum,
    conformance: [
        Runs::each(&OPTION_SETS, 0..2, 60),
        // Long enough to reach sieges, captures of Portals and draws.
        vec![Runs::new("quiet-plies=30", 0..3, 400)],
    ]
    .concat(),
    perft: include_str!("perft/reference.txt"),
    perft_counts: 6,
    reference: common::reference_for,
    reference_playouts: [
        Runs::each(&OPTION_SETS, 0..reference_games(), 120),
        // To the end of whole games.
        vec![Runs::new("default", 100..100 + reference_games(), 2000)],
    ]
    .concat(),
    reference_perft: vec![PerftRuns::new("default", 0..reference_games() * 4, 10..160, 2)],
    golden: vec![
        Runs::new("default", 0..2, 50),
        Runs::new("ranger-range=0", 0..2, 30),
        // Short enough to end in a draw.
        Runs::new("ranger-range=7,quiet-plies=25", 0..2, 60),
    ],
}

/// Every `ranger-range` value, and `quiet-plies` from its smallest value up to the default.
const OPTION_SETS: [&str; 11] = [
    "default",
    "ranger-range=0",
    "ranger-range=1",
    "ranger-range=2",
    "ranger-range=4,quiet-plies=60",
    "ranger-range=5,quiet-plies=40",
    "ranger-range=6",
    "ranger-range=7,quiet-plies=25",
    "quiet-plies=1",
    "quiet-plies=2",
    "quiet-plies=12",
];

/// Seeds per option set for the reference comparisons (`BOARDLAB_REFERENCE_GAMES`, default 3).
fn reference_games() -> u64 {
    std::env::var("BOARDLAB_REFERENCE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

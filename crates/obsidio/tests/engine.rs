//! The engine suite (conformance, perft file, reference engine, golden playthroughs) with
//! Obsidio's data: see `boardlab_core::testkit`. The module `playouts` holds the game's own engine
//! checks beyond the suite.

mod common;
mod playouts;

use boardlab_core::testkit::{PerftRuns, Runs};
use boardlab_core::Game;
use boardlab_obsidio::Obsidio;

boardlab_core::engine_suite! {
    game: Obsidio,
    conformance: all_option_sets()
        .into_iter()
        .map(|o| {
            let games = if o.contains("size=11") { 2 } else { 3 };
            Runs::new(o, 0..games, 300)
        })
        .collect(),
    perft: include_str!("perft/reference.txt"),
    perft_counts: 19,
    reference: |game: &Obsidio| common::Ref::new(&game.options()),
    reference_playouts: all_option_sets()
        .into_iter()
        .map(|o| {
            let games = if o.contains("size=11") { 8 } else { 20 };
            Runs::new(o, 0..games, 400)
        })
        .collect(),
    reference_perft: [
        // From the start, one move deeper than the perft file.
        PerftRuns::each(&["size=9", "size=7", "size=7,pie=false,tokens=2"], 0..1, 0..1, 3),
        // From random middle-game positions.
        PerftRuns::each(
            &["size=7", "size=7,tokens=5", "size=9,pie=false", "size=9,tokens=3"],
            0..4,
            4..16,
            2,
        ),
    ]
    .concat(),
    golden: Runs::each(
        &["size=7", "size=7,tokens=2,pie=false", "size=9", "size=11,tokens=7"],
        0..3,
        60,
    ),
}

/// Every option value: each size with its default supply, a small supply, and both pie
/// settings.
fn all_option_sets() -> Vec<String> {
    let mut out = Vec::new();
    for size in ["7", "9", "11"] {
        for tokens in ["auto", "1", "2", "7", "20"] {
            for pie in ["true", "false"] {
                out.push(format!("size={size},tokens={tokens},pie={pie}"));
            }
        }
    }
    out
}

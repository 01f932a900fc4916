//! The engine suite (conformance, perft file, reference engine, golden playthroughs) with
//! Opprimo's data: see `boardlab_core::testkit`. The module `playouts` holds the game's own engine
//! checks beyond the suite.

mod common;
mod playouts;

use boardlab_core::testkit::{PerftRuns, Runs};
use boardlab_core::Game;
use boardlab_opprimo::Opprimo;

boardlab_core::engine_suite! {
    game: Opprimo,
    conformance: Runs::each(
        &["castle=band", "castle=hex", "castle=band,max-plies=30", "castle=hex,max-plies=5"],
        0..5,
        400,
    ),
    perft: include_str!("perft/reference.txt"),
    perft_counts: 10,
    // Every game of the suite starts from the start position (the perft file has no positions).
    reference: |game: &Opprimo| {
        let options = game.options();
        let max_plies = options.get_int("max-plies").unwrap() as u32;
        common::Ref::new(options.get("castle") == "hex", max_plies)
    },
    reference_playouts: Runs::each(
        &["castle=band", "castle=hex", "castle=band,max-plies=60", "castle=hex,max-plies=7"],
        0..30,
        1_000,
    ),
    reference_perft: PerftRuns::each(&["castle=band", "castle=hex"], 0..16, 20..156, 3),
    golden: [
        Runs::each(&["castle=band", "castle=hex"], 0..2, 120),
        vec![Runs::new("castle=hex,max-plies=7", 0..3, 10)],
    ]
    .concat(),
}

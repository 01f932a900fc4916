//! Obsidio's engine checks beyond the engine suite (a module of `engine.rs`, so that they run
//! alongside it): perft from the 11×11 start and the claims-sequence case of the perft file, and
//! seeded playouts: they reach the end and keep the hash, random moves are uniform, restart
//! gives the start again.

use boardlab_core::perft::{perft, read_cases};
use boardlab_core::{Audit, Notation, Rules};
use boardlab_core::{Game, Options};
use boardlab_obsidio::{Obsidio, BLACK};

const PERFT: &str = include_str!("../perft/reference.txt");

fn options(text: &str) -> Options {
    Obsidio::info().parse_options(text).unwrap()
}

/// Every option value: each size with its default supply, a small supply, and both pie
/// settings.
fn all_option_sets() -> Vec<Options> {
    let mut out = Vec::new();
    for size in ["7", "9", "11"] {
        for tokens in ["auto", "1", "2", "7", "20"] {
            for pie in ["true", "false"] {
                out.push(options(&format!("size={size},tokens={tokens},pie={pie}")));
            }
        }
    }
    out
}

#[test]
fn perft_of_11x11_depth_2_is_127940() {
    let game = Obsidio::new(&options("size=11"), 0).unwrap();
    assert_eq!(perft(&game, 2), 127_940);
}

#[test]
fn claims_sequence_case_leaves_black_to_move() {
    let case = read_cases(PERFT)
        .unwrap()
        .into_iter()
        .find(|c| c.name == "size=7 claims-seq-1-1")
        .unwrap();
    let game: Obsidio =
        boardlab_core::setup(&options(&case.options), 0, None, &case.moves).unwrap();
    assert_eq!(game.side_to_move(), BLACK);
    assert_eq!(game.claimable(BLACK).count_ones(), 1);
}

#[test]
fn playouts_reach_the_end_and_keep_the_hash() {
    for opts in all_option_sets() {
        for seed in 0..4 {
            let mut game = Obsidio::new(&opts, seed).unwrap();
            let mut rng = boardlab_core::rng(seed);
            let plies = game.playout(&mut rng);
            assert!(plies > 0);
            assert!(game.outcome().is_some(), "{opts:?} seed {seed}");
            assert_eq!(game.ply(), plies);
            assert_eq!(game.hash(), game.hash_from_scratch());
            let back = Obsidio::from_position(&opts, &game.position_text()).unwrap();
            assert_eq!(back.outcome(), game.outcome());
        }
    }
}

#[test]
fn random_move_is_uniform_over_the_legal_moves() {
    // From the start of 7×7 (168 moves), 168 000 draws: each move about 1000 times.
    let game = Obsidio::new(&options("size=7"), 0).unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut counts = std::collections::HashMap::new();
    let mut rng = boardlab_core::rng(1);
    let mut buf = Vec::new();
    let draws = moves.len() * 1000;
    for _ in 0..draws {
        let mv = game.random_move(&mut rng, &mut buf).unwrap();
        *counts.entry(mv).or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), moves.len());
    for (mv, c) in counts {
        assert!(
            (850..1150).contains(&c),
            "{} drawn {c} times",
            game.format_move(mv)
        );
    }
}

#[test]
fn restart_gives_the_start_position_again() {
    for opts in all_option_sets() {
        let start = Obsidio::new(&opts, 0).unwrap();
        let mut g = start.clone();
        g.playout(&mut boardlab_core::rng(3));
        assert_eq!(g.restart(&mut boardlab_core::rng(4)), start);
    }
}

//! The fast engine against the reference perft counts, the plain reference engine, and the
//! conformance suite.

mod common;

use boardlab_core::perft::{check_cases, perft, read_cases};
use boardlab_core::testkit::{compare_with_reference, conformance, reference_perft, Reference};
use boardlab_core::{Game, Options};
use boardlab_obsidio::{Obsidio, BLACK};
use common::Ref;

const PERFT: &str = include_str!("perft/reference.txt");

fn options(text: &str) -> Options {
    Obsidio::info().parse_options(text).unwrap()
}

/// Counts above this many nodes are skipped (env `BOARDLAB_PERFT_MAX_NODES`).
fn node_limit() -> u64 {
    std::env::var("BOARDLAB_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000_000)
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
fn perft_matches_reference_counts() {
    let checked = check_cases::<Obsidio>(PERFT, node_limit());
    assert_eq!(checked, 19);
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

fn reference_after(opts: &Options, moves: &[String]) -> Ref {
    let mut r = Ref::new(opts);
    for m in moves {
        assert!(r.legal_moves().contains(m), "reference rejects {m}");
        r.play(m);
    }
    r
}

#[test]
fn reference_engine_matches_reference_counts() {
    for case in read_cases(PERFT).unwrap() {
        let opts = options(&case.options);
        let r = reference_after(&opts, &case.moves);
        for (depth, expected) in case.counts {
            assert_eq!(
                reference_perft(&r, depth),
                expected,
                "{} depth {depth}",
                case.name
            );
        }
    }
}

#[test]
fn fast_and_reference_agree_on_perft_3_from_the_start() {
    for text in ["size=7", "size=7,pie=false,tokens=2", "size=9"] {
        let opts = options(text);
        let game = Obsidio::new(&opts, 0).unwrap();
        assert_eq!(
            perft(&game, 3),
            reference_perft(&Ref::new(&opts), 3),
            "{text}"
        );
    }
}

#[test]
fn fast_and_reference_agree_on_seeded_playouts_for_every_option_set() {
    for opts in all_option_sets() {
        let games = if opts.get("size") == "11" { 8 } else { 20 };
        for seed in 0..games {
            let game = Obsidio::new(&opts, seed).unwrap();
            let r = Ref::new(&opts);
            compare_with_reference(game, r, seed, 400);
        }
    }
}

#[test]
fn fast_and_reference_agree_on_perft_from_random_positions() {
    use boardlab_core::rand::Rng;
    for text in [
        "size=7",
        "size=7,tokens=5",
        "size=9,pie=false",
        "size=9,tokens=3",
    ] {
        let opts = options(text);
        for seed in 0..4u64 {
            let mut game = Obsidio::new(&opts, seed).unwrap();
            let mut rng = boardlab_core::rng(seed);
            let mut played = Vec::new();
            let mut moves = Vec::new();
            // A random middle-game position.
            for _ in 0..rng.random_range(4..16) {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                played.push(game.format_move(mv));
                game.play_unchecked(mv);
            }
            let r = reference_after(&opts, &played);
            assert_eq!(
                perft(&game, 2),
                reference_perft(&r, 2),
                "{text} after {played:?}"
            );
        }
    }
}

#[test]
fn conformance_suite() {
    for opts in all_option_sets() {
        let games = if opts.get("size") == "11" { 2 } else { 3 };
        conformance::<Obsidio>(std::slice::from_ref(&opts), games, 300);
    }
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

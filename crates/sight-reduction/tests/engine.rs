//! The fast engine against the reference perft counts, the plain reference engine, and the
//! conformance suite.

mod common;

use boardlab_core::perft::{check_cases, perft, read_cases};
use boardlab_core::testkit::{compare_with_reference, conformance, reference_perft};
use boardlab_core::{Game, Options};
use boardlab_sight_reduction::SightReduction;
use common::reference_for;

const PERFT: &str = include_str!("perft/reference.txt");

fn options(text: &str) -> Options {
    SightReduction::info().parse_options(text).unwrap()
}

/// Every option combination that changes the rules.
fn all_option_sets() -> Vec<Options> {
    let mut out = Vec::new();
    for setup in ["random", "fair", "deterministic"] {
        for removal in ["single", "pair"] {
            for sight in ["orthogonal", "any"] {
                for enemy in ["false", "true"] {
                    for first in ["white", "black"] {
                        for mode in ["match", "solitaire"] {
                            if mode == "solitaire" && setup == "fair" {
                                continue;
                            }
                            out.push(options(&format!(
                                "setup={setup},removal={removal},sight={sight},enemy-sight={enemy},first={first},mode={mode}"
                            )));
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn perft_matches_reference_counts() {
    let checked = check_cases::<SightReduction>(PERFT, u64::MAX);
    assert_eq!(checked, 68);
}

#[test]
fn reference_engine_matches_reference_counts() {
    for case in read_cases(PERFT).unwrap() {
        let opts = options(&case.options);
        let game = boardlab_core::setup::<SightReduction>(&opts, 0, case.position.as_deref(), &[])
            .unwrap();
        let r = reference_for(&game);
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
fn fast_and_reference_agree_on_seeded_playouts_for_every_option_set() {
    for opts in all_option_sets() {
        for seed in 0..12 {
            let game = SightReduction::new(&opts, seed).unwrap();
            let r = reference_for(&game);
            compare_with_reference(game, r, seed, 200);
        }
    }
}

#[test]
fn fast_and_reference_agree_on_perft_from_random_setups() {
    for text in [
        "default",
        "sight=any",
        "removal=pair,enemy-sight=true",
        "sight=any,removal=pair",
    ] {
        let opts = options(text);
        for seed in 100..106 {
            let game = SightReduction::new(&opts, seed).unwrap();
            let r = reference_for(&game);
            assert_eq!(
                perft(&game, 3),
                reference_perft(&r, 3),
                "{text} seed {seed}"
            );
        }
    }
    let det = SightReduction::new(&options("setup=deterministic"), 0).unwrap();
    assert_eq!(perft(&det, 3), reference_perft(&reference_for(&det), 3));
}

#[test]
fn conformance_suite() {
    let sets = all_option_sets();
    // Fair set-ups have 257 moves per arrangement position: fewer games there.
    for opts in &sets {
        let games = if opts.get("setup") == "fair" { 2 } else { 4 };
        conformance::<SightReduction>(std::slice::from_ref(opts), games, 80);
    }
}

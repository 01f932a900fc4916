//! Sight Reduction's own board (`Present::board`) is exactly the board the server built from
//! the position text before, over random games for every value of every choice option, after
//! every ply. Temporary: it goes with the server's old board reader.

#[allow(dead_code)]
#[path = "../../server/src/board.rs"]
mod old;

use boardlab_core::rand::{Rng, SeedableRng};
use boardlab_core::{Game, OptionValues, Options, Present};
use boardlab_games::AnyGame;
use boardlab_sight_reduction::{Phase, SetupKind, SightReduction};
use std::collections::BTreeSet;

/// The default options, each value of each choice or yes/no option alone, and the set-ups
/// combined with pair removal, any-direction sight and enemy sight.
fn option_sets() -> Vec<Options> {
    let info = SightReduction::info();
    let mut sets = vec![info.default_options()];
    for spec in info.options {
        let values: Vec<&str> = match spec.values {
            OptionValues::Choice { choices } => choices.to_vec(),
            OptionValues::Bool => vec!["true", "false"],
            _ => continue,
        };
        for v in values {
            if v != spec.default {
                if let Ok(o) = info.options_from_pairs([(spec.name, v)]) {
                    sets.push(o);
                }
            }
        }
    }
    for setup in ["random", "fair", "deterministic"] {
        for first in ["white", "black"] {
            let pairs = [
                ("setup", setup),
                ("removal", "pair"),
                ("sight", "any"),
                ("enemy-sight", "true"),
                ("first", first),
            ];
            sets.push(info.options_from_pairs(pairs).unwrap());
        }
    }
    for setup in ["random", "deterministic"] {
        let pairs = [("setup", setup), ("mode", "solitaire"), ("keep", "b2,c7")];
        sets.push(info.options_from_pairs(pairs).unwrap());
    }
    sets
}

/// A name for a phase, to check every phase was reached.
fn phase_name(p: Phase) -> String {
    match p {
        Phase::Arrange { swaps } => format!("arrange {swaps}"),
        other => format!("{other:?}"),
    }
}

#[test]
fn present_board_equals_the_old_board() {
    let mut rng = boardlab_core::Rng::seed_from_u64(7);
    let mut positions = 0;
    let mut phases = BTreeSet::new();
    let mut setups = BTreeSet::new();
    for options in option_sets() {
        for seed in 0..10u64 {
            let mut game = SightReduction::new(&options, seed).unwrap();
            setups.insert(format!("{:?}", game.config().setup));
            let mut moves = Vec::new();
            loop {
                let any = AnyGame::SightReduction(game.clone());
                let old = old::describe(&any)
                    .unwrap_or_else(|| panic!("{options}: {}", game.position_text()));
                assert_eq!(
                    serde_json::to_value(game.board()).unwrap(),
                    serde_json::to_value(&old).unwrap(),
                    "{options}: {}",
                    game.position_text()
                );
                positions += 1;
                phases.insert(phase_name(game.phase()));
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // In the fair arrangement, end it now and then so that every number of swaps
                // and the later choices are all reached.
                let mv = if matches!(game.phase(), Phase::Arrange { .. }) && rng.random_bool(0.3) {
                    *moves.last().unwrap()
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                game.play(mv).unwrap();
            }
        }
    }
    eprintln!("sight-reduction: {positions} positions compared");
    assert!(positions > 1000, "only {positions} positions compared");
    for p in [
        "arrange 0",
        "arrange 1",
        "arrange 2",
        "ChooseColour",
        "ChooseFirst",
        "Place",
        "Remove",
    ] {
        assert!(phases.contains(p), "phase {p} never reached");
    }
    for s in [SetupKind::Random, SetupKind::Fair, SetupKind::Deterministic] {
        assert!(
            setups.contains(&format!("{s:?}")),
            "set-up {s:?} never used"
        );
    }
}

//! The engine suite (conformance, perft file, reference engine, golden playthroughs) with Sight
//! Reduction's data: see `boardlab_core::testkit`.

mod common;

use boardlab_core::testkit::{PerftRuns, Runs};
use boardlab_sight_reduction::SightReduction;

boardlab_core::engine_suite! {
    game: SightReduction,
    // Fair set-ups have 257 moves per arrangement position: fewer games there.
    conformance: all_option_sets()
        .into_iter()
        .map(|o| {
            let games = if o.contains("setup=fair") { 2 } else { 4 };
            Runs::new(o, 0..games, 80)
        })
        .collect(),
    perft: include_str!("perft/reference.txt"),
    perft_counts: 68,
    reference: common::reference_for,
    reference_playouts: Runs::each(&all_option_sets(), 0..12, 200),
    reference_perft: {
        let sets = [
            "default",
            "sight=any",
            "removal=pair,enemy-sight=true",
            "sight=any,removal=pair",
        ];
        let mut runs = PerftRuns::each(&sets, 100..106, 0..1, 3);
        runs.push(PerftRuns::new("setup=deterministic", 0..1, 0..1, 3));
        runs
    },
    golden: Runs::each(
        &[
            "default",
            "removal=pair",
            "sight=any,enemy-sight=true",
            "first=black,mode=solitaire",
            "setup=deterministic,removal=pair,sight=any",
            "setup=fair",
        ],
        0..3,
        60,
    ),
}

/// Every option combination that changes the rules.
fn all_option_sets() -> Vec<String> {
    let mut out = Vec::new();
    for setup in ["random", "fair", "deterministic"] {
        for removal in ["single", "pair"] {
            for sight in ["orthogonal", "any"] {
                for enemy in ["false", "true"] {
                    for first in ["white", "black"] {
                        for mode in ["match", "solitaire"] {
                            if setup == "fair" && (mode == "solitaire" || first == "black") {
                                continue;
                            }
                            out.push(format!(
                                "setup={setup},removal={removal},sight={sight},enemy-sight={enemy},first={first},mode={mode}"
                            ));
                        }
                    }
                }
            }
        }
    }
    out
}

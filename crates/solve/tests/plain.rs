//! The solver's bounds and orderings against a deliberately plain negamax: no table, no
//! bounds, no move ordering, nothing but the engine's legal moves, written for this test
//! alone. For every combination of `sight`, `enemy-sight` and `removal`, 500 random
//! positions of 12 pieces or fewer: who wins, the length with perfect play, and whatever the
//! count bounds claim on their own.

mod common;

use boardlab_core::rand::Rng;
use boardlab_core::{Game, Options, Proven};
use boardlab_core::{Notation, Rules as _};
use boardlab_solve::{SightReduction, Solver, SolverConfig};

/// Whether the side to move wins: it does when some move leaves the other side lost.
fn plain_wins(game: &SightReduction) -> bool {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().any(|m| {
        let mut g = game.clone();
        g.play(m).expect("legal");
        !plain_wins(&g)
    })
}

/// The value with distance from the side to move's view: (wins, plies), the winner
/// hurrying and the loser holding out, every move searched to the end.
fn plain_value(game: &SightReduction) -> (bool, u32) {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut best: Option<(bool, u32)> = None;
    for m in moves {
        let mut g = game.clone();
        g.play(m).expect("legal");
        let (w, n) = plain_value(&g);
        let mine = (!w, n + 1);
        best = Some(best.map_or(mine, |b| common::better(b, mine)));
    }
    best.unwrap_or((false, 0))
}

/// `count` random removal-phase positions of `most - 4` to `most` pieces where the side to move has
/// a move: a random set-up, then random removals.
fn positions(options: &Options, count: usize, most: u32, seed: u64) -> Vec<SightReduction> {
    let mut rng = boardlab_core::rng(seed);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    while out.len() < count {
        let pieces = rng.random_range(most - 4..=most);
        let mut g = SightReduction::new(options, rng.random()).unwrap();
        while g.occupied().count_ones() > pieces {
            match g.random_move(&mut rng, &mut buf) {
                Some(m) => g.play_unchecked(m),
                None => break,
            }
        }
        if g.occupied().count_ones() <= most && g.outcome().is_none() {
            out.push(g);
        }
    }
    out
}

#[test]
fn the_solver_and_its_bounds_agree_with_a_plain_negamax_in_every_variant() {
    for (i, options) in common::rule_options().iter().enumerate() {
        let mut solver = Solver::new(SolverConfig {
            table_bytes: 1 << 20,
            ..SolverConfig::default()
        });
        let (mut decided, mut distances) = (0, 0);
        for (k, g) in positions(options, 500, 12, 7000 + i as u64)
            .iter()
            .enumerate()
        {
            let text = g.position_text();
            let wins = plain_wins(g);
            let got = solver.solve_game(g).unwrap();
            assert_eq!(got.wins(g.to_move()), wins, "{options} {text}");
            let pos = boardlab_solve::Position::of(g).unwrap();
            let rules = boardlab_solve::RuleSet::of(g.config());
            if let Some(w) = boardlab_solve::static_bounds(rules, pos) {
                decided += 1;
                assert_eq!(w, wins, "the count bounds, {options} {text}");
            }
            // Lengths by full search cost more: every other position, with at most 11
            // pieces.
            if k % 2 == 0 && g.occupied().count_ones() <= 11 {
                distances += 1;
                let (w, n) = plain_value(g);
                let want = if w {
                    Proven::win_in(g.to_move(), n)
                } else {
                    Proven::loss_in(g.to_move(), n)
                };
                assert_eq!(
                    solver.solve_game_distance(g).unwrap(),
                    want,
                    "{options} {text}"
                );
            }
        }
        // The bounds must speak often enough for the comparison to mean something.
        assert!(
            decided >= 100,
            "{options}: the bounds decided {decided} of 500"
        );
        assert!(distances >= 100, "{options}: {distances} lengths compared");
        eprintln!("{options}: bounds decided {decided} of 500, {distances} lengths compared");
    }
}

/// Without enemy sight the pair rule changes neither who wins nor the length with perfect
/// play (the proof is on the analysis page): checked with the plain search alone, under both
/// rules, on positions of up to 12 pieces (lengths up to 11); with enemy sight the winner
/// does change on some.
#[test]
fn pairs_change_the_winner_only_with_enemy_sight() {
    for sight in ["orthogonal", "any"] {
        for enemy in [false, true] {
            let with_pairs = SightReduction::info()
                .parse_options(&format!("sight={sight},enemy-sight={enemy},removal=pair"))
                .unwrap();
            let single = SightReduction::info()
                .parse_options(&format!("sight={sight},enemy-sight={enemy}"))
                .unwrap();
            let mut changed = 0;
            for g in positions(&single, 400, 12, 9000) {
                let text = g.position_text();
                let p = SightReduction::from_position(&with_pairs, &text).unwrap();
                if plain_wins(&g) != plain_wins(&p) {
                    changed += 1;
                }
                if !enemy && g.occupied().count_ones() <= 11 {
                    assert_eq!(plain_value(&g), plain_value(&p), "sight={sight} {text}");
                }
            }
            if enemy {
                assert!(
                    changed > 0,
                    "sight={sight}: no change found with enemy sight"
                );
            } else {
                assert_eq!(changed, 0, "sight={sight}: the pair rule changed a winner");
            }
        }
    }
}

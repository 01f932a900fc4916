//! The match solver against the plain reference solver, for every rule combination.

mod common;

use boardlab_core::{Game, Proven, Seat};
use boardlab_core::{Notation, Rules as _};
use boardlab_solve::{SightReduction, Solver, SolverConfig};
use std::collections::HashMap;

fn small() -> SolverConfig {
    SolverConfig {
        table_bytes: 1 << 20,
        ..SolverConfig::default()
    }
}

/// The reference's value (does the side to move win, in how many plies) for `seat`, to move.
fn expected(seat: Seat, v: (bool, u32)) -> Proven {
    if v.0 {
        Proven::win_in(seat, v.1)
    } else {
        Proven::loss_in(seat, v.1)
    }
}

#[test]
fn values_and_distances_match_the_reference_for_every_rule_combination() {
    for (i, options) in common::rule_options().iter().enumerate() {
        let mut solver = Solver::new(small());
        let mut memo = HashMap::new();
        for g in common::random_positions(options, 25, 13, 100 + i as u64) {
            let want = common::value(&g, &mut memo);
            let got = solver.solve_game(&g).unwrap();
            assert_eq!(
                got.wins(g.to_move()),
                want.0,
                "{} {}",
                options,
                g.position_text()
            );
            let got = solver.solve_game_distance(&g).unwrap();
            assert_eq!(
                got,
                expected(g.to_move(), want),
                "{} {}",
                options,
                g.position_text()
            );
        }
    }
}

#[test]
fn every_move_value_matches_the_reference() {
    for (i, options) in common::rule_options().iter().enumerate() {
        let mut solver = Solver::new(small());
        let mut memo = HashMap::new();
        for g in common::random_positions(options, 6, 12, 200 + i as u64) {
            let values = solver.game_move_values(&g, true).unwrap();
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let listed: Vec<_> = values.iter().map(|(m, _)| *m).collect();
            assert_eq!(listed, moves, "move order of {}", g.position_text());
            for (m, v) in values {
                let mut h = g.clone();
                h.play(m).unwrap();
                let (w, n) = common::value(&h, &mut memo);
                assert_eq!(
                    v,
                    expected(g.to_move(), (!w, n + 1)),
                    "{} {} move {}",
                    options,
                    g.position_text(),
                    g.format_move(m)
                );
            }
        }
    }
}

/// The move-count bounds decide many positions without search; whenever they speak they
/// must agree with the full search of the reference solver (checked at several sizes, where
/// the bounds speak most and least).
#[test]
fn count_bounds_never_contradict_the_reference() {
    for (i, options) in common::rule_options().iter().enumerate() {
        let mut memo = HashMap::new();
        let mut decided = 0;
        for pieces in [10, 12, 14] {
            for g in
                common::random_positions(options, 60, pieces, 300 + i as u64 + u64::from(pieces))
            {
                let pos = boardlab_solve::Position::of(&g).unwrap();
                let rules = boardlab_solve::RuleSet::of(g.config());
                if let Some(w) = boardlab_solve::static_bounds(rules, pos) {
                    decided += 1;
                    let (want, _) = common::value(&g, &mut memo);
                    assert_eq!(w, want, "{options} {}", g.position_text());
                }
            }
        }
        if !options.get_bool("enemy-sight") {
            assert!(
                decided > 20,
                "{options}: the bounds decided only {decided} positions"
            );
        }
    }
}

/// A gift the bounds counted could only be taken by removing a wall between two of the
/// giver's pieces (b5 gone, White's a5 and d5 see each other, but removing either opens a
/// file for Black): the bounds said White wins, a full search says White loses.
#[test]
fn bug_a_gift_taken_by_removing_a_wall_is_not_counted() {
    let options = SightReduction::info().default_options();
    let g = SightReduction::from_position(&options, "BW2/1W1B/4/WB1W/2B1/BBWB/W3/2W1 w").unwrap();
    let mut memo = HashMap::new();
    let (wins, _) = common::value(&g, &mut memo);
    assert!(!wins);
    let pos = boardlab_solve::Position::of(&g).unwrap();
    let rules = boardlab_solve::RuleSet::of(g.config());
    assert_ne!(boardlab_solve::static_bounds(rules, pos), Some(true));
    let mut solver = Solver::new(SolverConfig::default());
    assert_eq!(solver.solve_game(&g).unwrap(), Proven::loss(Seat::First));
}

//! The solver's budget: a deadline, a node limit and a stop flag each end a search with
//! "out of budget" (the value unknown); a search within its budget gives the value it gives
//! without one, and a search cut short leaves the solver exact.

mod common;

use boardlab_core::Notation;
use boardlab_core::{Game, Proven};
use boardlab_sight_reduction::SightReduction;
use boardlab_solve::{Budget, OutOfBudget, Position, RuleSet, Solver, SolverConfig};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn solver() -> Solver {
    Solver::new(SolverConfig {
        table_bytes: 4 << 20,
        ..SolverConfig::default()
    })
}

/// A fresh full board with the default options, whose exact distance takes the solver
/// millions of positions (seconds).
fn full_board() -> (RuleSet, Position) {
    let g = SightReduction::new(&SightReduction::info().default_options(), 4).unwrap();
    (RuleSet::of(g.config()), Position::of(&g).unwrap())
}

#[test]
fn a_deadline_ends_the_search_unknown() {
    let (rules, pos) = full_board();
    let mut s = solver();
    // Already passed: the search gives up at its first position.
    let r = s.solve_distance_within(rules, pos, Budget::until(Instant::now()));
    assert_eq!(r, Err(OutOfBudget::Deadline));
    assert_eq!(s.stats().nodes, 1);
    // Soon: the search gives up soon after.
    let start = Instant::now();
    let r = s.solve_distance_within(rules, pos, Budget::until(start + Duration::from_millis(20)));
    assert_eq!(r, Err(OutOfBudget::Deadline));
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    let r = s.move_values_within(rules, pos, true, Budget::until(Instant::now()));
    assert_eq!(r, Err(OutOfBudget::Deadline));
}

#[test]
fn a_node_limit_ends_the_search_unknown() {
    let (rules, pos) = full_board();
    let mut s = solver();
    for limit in [0, 1, 1000, 50_000] {
        let before = s.stats().nodes;
        let r = s.solve_distance_within(rules, pos, Budget::nodes(limit));
        assert_eq!(r, Err(OutOfBudget::Nodes), "limit {limit}");
        // The position that passed the limit is counted, and none after it.
        assert_eq!(s.stats().nodes - before, limit + 1, "limit {limit}");
    }
    // The limit holds for all the moves of a move list together.
    let before = s.stats().nodes;
    let r = s.move_values_within(rules, pos, true, Budget::nodes(20_000));
    assert_eq!(r, Err(OutOfBudget::Nodes));
    assert_eq!(s.stats().nodes - before, 20_001);
}

#[test]
fn a_stop_flag_ends_the_search_unknown() {
    let (rules, pos) = full_board();
    let mut s = solver();
    let stop = AtomicBool::new(true);
    let r = s.solve_within(rules, pos, Budget::UNLIMITED.stopped_by(&stop));
    assert_eq!(r, Err(OutOfBudget::Stopped));
    // Set by another thread while the search runs.
    stop.store(false, Ordering::Relaxed);
    let start = Instant::now();
    let r = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(20));
            stop.store(true, Ordering::Relaxed);
        });
        s.solve_distance_within(rules, pos, Budget::UNLIMITED.stopped_by(&stop))
    });
    assert_eq!(r, Err(OutOfBudget::Stopped));
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}

/// Within its budget a search gives the value it gives without one; after searches cut
/// short by every kind of limit, the same solver still gives the reference values.
#[test]
fn within_budget_the_values_are_the_same() {
    let stop = AtomicBool::new(false);
    let roomy = Budget {
        deadline: Some(Instant::now() + Duration::from_secs(3600)),
        nodes: 1 << 40,
        stop: Some(&stop),
    };
    for (i, options) in common::rule_options().iter().enumerate() {
        let mut plain = solver();
        let mut budgeted = solver();
        let mut memo = HashMap::new();
        for g in common::random_positions(options, 12, 14, 400 + i as u64) {
            let (rules, pos) = (RuleSet::of(g.config()), Position::of(&g).unwrap());
            // Cut short first, so that what a search given up leaves behind is used below.
            for cut in [
                Budget::nodes(37),
                Budget::until(Instant::now()),
                Budget::UNLIMITED.stopped_by(&AtomicBool::new(true)),
            ] {
                // A small position may be decided within the cut; then the value is right.
                if let Ok(v) = budgeted.solve_distance_within(rules, pos, cut) {
                    assert_eq!(v, plain.solve_distance(rules, pos));
                }
            }
            let text = g.position_text();
            let (w, n) = common::value(&g, &mut memo);
            let want = if w {
                Proven::win_in(pos.seat, n)
            } else {
                Proven::loss_in(pos.seat, n)
            };
            assert_eq!(
                budgeted.solve_distance_within(rules, pos, roomy),
                Ok(want),
                "{options} {text}"
            );
            assert_eq!(plain.solve_distance(rules, pos), want, "{options} {text}");
            assert_eq!(
                budgeted.solve_within(rules, pos, roomy),
                Ok(plain.solve(rules, pos)),
                "{options} {text}"
            );
            for distance in [false, true] {
                assert_eq!(
                    budgeted.move_values_within(rules, pos, distance, roomy),
                    Ok(plain.move_values(rules, pos, distance)),
                    "{options} {text}"
                );
            }
        }
    }
}

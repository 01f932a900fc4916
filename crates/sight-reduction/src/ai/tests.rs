//! The Sight Reduction bot knowledge: playouts, the exact endgame and its budget.

use super::*;
use crate::kernel::to_move;
use crate::Side;
use boardlab_core::prelude::*;
use boardlab_core::{Colour, Options};
use std::collections::HashMap;

fn game(opts: &str, seed: u64) -> SightReduction {
    let o: Options = SightReduction::info().parse_options(opts).unwrap();
    SightReduction::new(&o, seed).unwrap()
}

/// Plays random moves until at most `pieces` pieces are left; false when the game ended
/// first.
fn play_down_to(g: &mut SightReduction, pieces: u32, rng: &mut impl Rng) -> bool {
    let mut buf = Vec::new();
    while g.outcome().is_none() && g.occupied().count_ones() > pieces {
        let m = g.random_move(rng, &mut buf).unwrap();
        g.play_unchecked(m);
    }
    g.outcome().is_none()
}

/// The raw move generator agrees with the engine under every rule variant.
#[test]
fn raw_moves_match_the_engine() {
    let mut rng = boardlab_core::rng(7);
    for opts in [
        "",
        "sight=any",
        "enemy-sight=true",
        "removal=pair",
        "removal=pair,sight=any,enemy-sight=true",
    ] {
        for seed in 0..20 {
            let mut g = game(opts, seed);
            let mut legal = Vec::new();
            let mut raw = Vec::new();
            while g.outcome().is_none() {
                g.legal_moves(&mut legal);
                let side = g.side_to_move();
                removals(
                    RuleSet::of(g.config()),
                    g.pieces(side),
                    g.pieces(side.other()),
                    &mut raw,
                );
                let mut a: Vec<Move> = raw.iter().map(|&m| to_move(m)).collect();
                a.sort();
                legal.sort();
                assert_eq!(a, legal, "{opts} seed {seed}\n{}", g.diagram());
                let mv = legal[rng.random_range(0..legal.len())];
                g.play_unchecked(mv);
            }
        }
    }
}

/// Whether the seat to move wins, by brute force over the set-up's moves (the removal
/// phase solved by boardlab-solve).
fn seat_wins_brute(g: &SightReduction, solver: &mut Solver) -> bool {
    if g.phase() == Phase::Remove {
        return solver.solve_game(g).unwrap().wins(g.to_move());
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.iter().any(|&m| {
        let mut c = g.clone();
        c.play(m).unwrap();
        (c.to_move() == g.to_move()) == seat_wins_brute(&c, solver)
    })
}

/// Whether the arranger wins by ending the arrangement now.
fn done_wins_brute(g: &SightReduction, solver: &mut Solver) -> bool {
    let mut c = g.clone();
    c.play(Move::Done).unwrap();
    !seat_wins_brute(&c, solver)
}

/// In the fair set-up, `decide` chooses the colour and who removes first exactly, ends
/// the arrangement at once on a board the arranger wins, and otherwise swaps to one.
#[test]
fn decide_plays_the_fair_setup_exactly() {
    let mut solver = Solver::new(SolverConfig::default());
    let mut eg = SolverEndgame::default();
    let (mut kept, mut swapped) = (0, 0);
    let (mut choices_won, mut choices_lost) = (0, 0);
    for seed in 0..16 {
        let g = game("setup=fair", seed);
        assert!(eg.applies(&g, true) && !eg.applies(&g, false));
        let mut nodes = 0;
        let budget = Budget::until(Instant::now() + Duration::from_secs(20));
        let (wins, mv) = eg
            .decide(&g, budget, &mut nodes)
            .expect("a won arrangement");
        assert!(wins && nodes > 0, "seed {seed}");
        if done_wins_brute(&g, &mut solver) {
            assert_eq!(mv, Move::Done, "seed {seed}");
            kept += 1;
        } else {
            // The swap leaves a board the arranger wins at once or after a second swap.
            assert!(matches!(mv, Move::Swap(..)), "seed {seed}");
            let mut c = g.clone();
            c.play(mv).unwrap();
            let mut seconds = Vec::new();
            c.legal_moves(&mut seconds);
            let won = done_wins_brute(&c, &mut solver)
                || seconds.iter().any(|&m2| {
                    let mut c2 = c.clone();
                    m2 != Move::Done && {
                        c2.play(m2).unwrap();
                        done_wins_brute(&c2, &mut solver)
                    }
                });
            assert!(won, "seed {seed}");
            swapped += 1;
        }
        // The choices after `done`: colour, then (for each colour) who removes first.
        let mut colour = g.clone();
        colour.play(Move::Done).unwrap();
        let mut firsts = Vec::new();
        for c in [Colour::White, Colour::Black] {
            let mut f = colour.clone();
            f.play(Move::ChooseColour(c)).unwrap();
            firsts.push(f);
        }
        for pos in std::iter::once(colour).chain(firsts) {
            let (wins, mv) = eg.decide(&pos, budget, &mut nodes).unwrap();
            assert_eq!(wins, seat_wins_brute(&pos, &mut solver), "seed {seed}");
            let mut c = pos.clone();
            c.play(mv).unwrap();
            if wins {
                let mover = seat_wins_brute(&c, &mut solver);
                assert_eq!((c.to_move() == pos.to_move()), mover, "seed {seed}");
                choices_won += 1;
            } else {
                choices_lost += 1;
            }
        }
    }
    assert!(kept > 0 && swapped > 0, "{kept} {swapped}");
    assert!(
        choices_won > 0 && choices_lost > 0,
        "{choices_won} {choices_lost}"
    );
}

/// The last placements of the placement set-up are decided exactly; earlier ones are
/// left to the search.
#[test]
fn decide_plays_the_last_placements_exactly() {
    let mut solver = Solver::new(SolverConfig::default());
    let mut eg = SolverEndgame::default();
    let (mut won, mut lost) = (0, 0);
    let mut rng = boardlab_core::rng(5);
    let mut moves = Vec::new();
    for seed in 0..24 {
        let mut g = game("setup=deterministic", seed);
        let mut nodes = 0;
        let budget = Budget::nodes(u64::MAX);
        while g.occupied().count_zeros() > 4 {
            assert!(
                !eg.applies(&g, true)
                    || g.phase() == Phase::Place && { g.occupied().count_zeros() <= PLACE_EMPTY }
            );
            g.legal_moves(&mut moves);
            g.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        assert!(eg.applies(&g, true) && !eg.applies(&g, false));
        let (wins, mv) = eg.decide(&g, budget, &mut nodes).unwrap();
        assert_eq!(wins, seat_wins_brute(&g, &mut solver), "seed {seed}");
        let mut c = g.clone();
        c.play(mv).unwrap();
        if wins {
            let mover = seat_wins_brute(&c, &mut solver);
            assert_eq!(c.to_move() == g.to_move(), mover, "seed {seed}");
            won += 1;
        } else {
            lost += 1;
        }
    }
    assert!(won > 0 && lost > 0, "{won} {lost}");
}

/// `decide` tells who wins full boards exactly, and its move in a won position keeps the
/// win; in a lost position it still returns a legal move.
#[test]
fn decide_is_exact_on_full_boards() {
    let mut solver = Solver::new(SolverConfig::default());
    let mut eg = SolverEndgame::default();
    let (mut won, mut lost) = (0, 0);
    for opts in ["", "removal=pair"] {
        for seed in 0..12 {
            let g = game(opts, seed);
            let mut nodes = 0;
            // The deadline only cuts the swindle short; who wins stays exact.
            let budget = Budget::until(Instant::now() + Duration::from_millis(20));
            let (wins, mv) = eg.decide(&g, budget, &mut nodes).unwrap();
            assert_eq!(
                wins,
                solver.solve_game(&g).unwrap().wins(g.to_move()),
                "{opts} {seed}"
            );
            let mut c = g.clone();
            c.play(mv).unwrap();
            if wins {
                assert!(
                    !solver.solve_game(&c).unwrap().wins(c.to_move()),
                    "{opts} {seed}"
                );
                won += 1;
            } else {
                lost += 1;
            }
            assert!(nodes > 0);
        }
    }
    assert!(won > 0 && lost > 0, "{won} {lost}");
}

/// Above 24 pieces the solver works within the search's budget and gives up when it runs
/// out; at 24 and below it always answers, whatever the budget. Its answer is the
/// solver's: the value with the distance, and in a won position the fastest win.
#[test]
fn the_budget_holds_above_24_pieces() {
    let mut rng = boardlab_core::rng(11);
    let mut solver = Solver::new(SolverConfig::default());
    let (mut gave_up, mut answered) = (0, 0);
    for seed in 0..6 {
        let mut g = game("", seed);
        // Full boards, then boards of about 26 and 24 pieces.
        for pieces in [32, 26, 24] {
            if !play_down_to(&mut g, pieces, &mut rng) {
                break;
            }
            let mut eg = SolverEndgame::default();
            let mut nodes = 0;
            let tiny = Budget::nodes(1000);
            let mut solved = eg.solve(&g, tiny, &mut nodes);
            let mut value = eg.value(&g, tiny, &mut nodes);
            assert!(nodes > 0);
            if pieces > 24 && solved.is_none() {
                assert_eq!(value, None, "seed {seed}");
                // The budget holds for each call.
                assert!(nodes <= 2 * 1001, "{nodes}");
                gave_up += 1;
                if pieces == 32 {
                    continue;
                }
                let roomy = Budget::until(Instant::now() + Duration::from_secs(60));
                solved = eg.solve(&g, roomy, &mut nodes);
                value = eg.value(&g, roomy, &mut nodes);
            }
            let (p, mv) = solved.expect("within budget");
            let want = solver.solve_game_distance(&g).unwrap();
            assert_eq!(p, want, "seed {seed}");
            assert_eq!(value, Some(p), "seed {seed}");
            let mut c = g.clone();
            c.play(mv.unwrap()).unwrap();
            if want.wins(g.to_move()) {
                assert_eq!(
                    solver
                        .solve_game_distance(&c)
                        .unwrap()
                        .before()
                        .for_seat(g.to_move()),
                    want,
                    "seed {seed}"
                );
            }
            answered += 1;
        }
    }
    assert!(gave_up >= 6 && answered >= 12, "{gave_up} {answered}");
}

/// The exact search agrees with a plain minimax over the engine's own moves.
#[test]
fn exact_search_matches_plain_minimax() {
    fn minimax(g: &SightReduction, memo: &mut HashMap<(u32, u32, Side), bool>) -> bool {
        let key = (
            g.pieces(Side::White),
            g.pieces(Side::Black),
            g.side_to_move(),
        );
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let v = moves.iter().any(|&m| {
            let mut c = g.clone();
            c.play_unchecked(m);
            !minimax(&c, memo)
        });
        memo.insert(key, v);
        v
    }
    let mut rng = boardlab_core::rng(3);
    let mut checked = 0;
    for opts in ["", "sight=any", "removal=pair", "enemy-sight=true"] {
        for seed in 0..40 {
            let mut g = game(opts, seed);
            if !play_down_to(&mut g, 16, &mut rng) {
                continue;
            }
            let mut eg = SolverEndgame::default();
            let mut nodes = 0;
            let (p, mv) = eg.solve(&g, Budget::nodes(u64::MAX), &mut nodes).unwrap();
            let mut memo = HashMap::new();
            let wins = minimax(&g, &mut memo);
            assert_eq!(p.wins(g.to_move()), wins, "{opts} seed {seed}");
            let mut c = g.clone();
            c.play(mv.unwrap()).unwrap();
            if wins {
                assert!(c.outcome().is_some() || !minimax(&c, &mut memo));
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

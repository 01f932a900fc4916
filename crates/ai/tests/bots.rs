//! Behaviour of the bots on every game: legal moves, reproducibility, proven results,
//! immediate wins, stop requests and points of view.

use boardlab_ai::knowledge::{Endgame, GameAi};
use boardlab_ai::{new_bot, Bot, BotSpec, Capabilities, Value};
use boardlab_assideum::Assideum;
use boardlab_core::rand::{rngs::SmallRng, SeedableRng};
use boardlab_core::Budget;
use boardlab_core::Rules;
use boardlab_core::{Game, Proven, Seat, Wdl};
use boardlab_obsidio::Obsidio;
use boardlab_opprimo::Opprimo;
use boardlab_sight_reduction::solver::{Solver, SolverConfig};
use boardlab_sight_reduction::SightReduction;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn spec(text: &str) -> BotSpec {
    text.parse().unwrap()
}

/// Positions along random games of `G`: the start, then every few plies.
fn positions<G: Game>(games: u64, every: u32) -> Vec<G> {
    let mut out = Vec::new();
    let mut rng = SmallRng::seed_from_u64(17);
    let mut buf = Vec::new();
    for seed in 0..games {
        let mut g = G::new(&G::info().default_options(), seed).unwrap();
        let mut ply = 0;
        while g.outcome().is_none() {
            if ply % every == 0 {
                out.push(g.clone());
            }
            let m = g.random_move(&mut rng, &mut buf).unwrap();
            g.play_unchecked(m);
            ply += 1;
        }
    }
    out
}

fn legal_and_reproducible<G: Capabilities>(specs: &[&str], games: u64, every: u32) {
    let stop = AtomicBool::new(false);
    for (i, g) in positions::<G>(games, every).iter().enumerate() {
        for text in specs {
            let s = spec(text);
            let a = new_bot::<G>(&s, i as u64).unwrap().search(g, &stop);
            let b = new_bot::<G>(&s, i as u64).unwrap().search(g, &stop);
            assert!(g.is_legal(a.best), "{text}: {}", g.format_move(a.best));
            assert_eq!(a.best, b.best, "{text} is not reproducible");
            assert_eq!(a.pv, b.pv, "{text} is not reproducible");
            assert_eq!(
                a.pv.first(),
                Some(&a.best),
                "{text}: the pv starts with the move"
            );
            // The principal variation is a legal line.
            let mut c = g.clone();
            for &m in &a.pv {
                assert!(c.is_legal(m), "{text}: pv move {}", c.format_move(m));
                c.play_unchecked(m);
            }
            assert_eq!(a.value.seat, g.to_move());
        }
    }
}

const SPECS: &[&str] = &[
    "random",
    "mcts:iterations=300",
    "mcts:plain,iterations=300",
    "mcts:iterations=300,threads=2,rollout=4",
    "alphabeta:depth=2",
    "level:3",
];

#[test]
fn sight_reduction_bots_play_legal_reproducible_moves() {
    legal_and_reproducible::<SightReduction>(SPECS, 3, 5);
}

#[test]
fn obsidio_bots_play_legal_reproducible_moves() {
    legal_and_reproducible::<Obsidio>(SPECS, 2, 15);
}

#[test]
fn opprimo_bots_play_legal_reproducible_moves() {
    legal_and_reproducible::<Opprimo>(SPECS, 2, 40);
}

#[test]
fn assideum_bots_play_legal_reproducible_moves() {
    legal_and_reproducible::<Assideum>(
        &[
            "random",
            "mcts:iterations=60",
            "mcts:plain,iterations=60",
            "alphabeta:depth=2",
        ],
        1,
        60,
    );
}

/// Where a move wins at once, MCTS (with its solver) and alpha-beta play a winning move and
/// report a proven win.
fn immediate_wins_are_taken<G: GameAi + Capabilities>(games: u64) -> usize {
    let stop = AtomicBool::new(false);
    let mut found = 0;
    let mut moves = Vec::new();
    for g in positions::<G>(games, 1) {
        let seat = g.to_move();
        g.legal_moves(&mut moves);
        let wins = |m: &G::Move| {
            let mut c = g.clone();
            c.play_unchecked(*m);
            c.outcome().is_some_and(|o| o.for_seat(seat) == Wdl::Win)
        };
        if !moves.iter().any(wins) {
            continue;
        }
        found += 1;
        for text in [
            "mcts:iterations=200",
            "alphabeta:depth=2",
            "alphabeta:depth=2,threads=2",
        ] {
            let r = new_bot::<G>(&spec(text), 1).unwrap().search(&g, &stop);
            assert!(
                wins(&r.best),
                "{text} missed a win: {}",
                g.format_move(r.best)
            );
            assert_eq!(
                r.value.proven,
                Some(Proven::win_in(g.to_move(), 1)),
                "{text}"
            );
        }
    }
    found
}

#[test]
fn immediate_wins_are_taken_in_every_game() {
    assert!(immediate_wins_are_taken::<SightReduction>(20) > 10);
    assert!(immediate_wins_are_taken::<Obsidio>(6) > 3);
    assert!(immediate_wins_are_taken::<Opprimo>(6) > 3);
}

/// Small Sight Reduction endgames: the MCTS solver and alpha-beta (both without the exact
/// endgame search; alpha-beta with and without late-move reductions, and on two threads)
/// prove the same result as the exact search.
#[test]
fn searches_prove_the_exact_result_of_small_endgames() {
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    for g in positions::<SightReduction>(30, 1) {
        if g.occupied().count_ones() != 12 {
            continue;
        }
        let mut eg = <SightReduction as GameAi>::Endgame::default();
        let mut n = 0;
        let (exact, _) = eg.solve(&g, Budget::nodes(u64::MAX), &mut n).unwrap();
        let win = exact.wins(g.to_move());
        for text in [
            "mcts:iterations=200000,exact=false",
            "alphabeta:depth=30,exact=false",
            "alphabeta:depth=30,exact=false,lmr=false",
            "alphabeta:depth=30,exact=false,threads=2",
        ] {
            let r = new_bot::<SightReduction>(&spec(text), 3)
                .unwrap()
                .search(&g, &stop);
            let p = r
                .value
                .proven
                .unwrap_or_else(|| panic!("{text} proved nothing"));
            assert_eq!(p.wins(g.to_move()), win, "{text}: {p:?} vs {exact:?}");
            if win {
                // The move chosen keeps the win.
                let mut c = g.clone();
                c.play_unchecked(r.best);
                let mut eg = <SightReduction as GameAi>::Endgame::default();
                let after = eg.solve(&c, Budget::nodes(u64::MAX), &mut n);
                assert!(
                    c.outcome().is_some() || after.is_some_and(|(p, _)| p.wins(g.to_move())),
                    "{text} threw the win away"
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}

/// With a short time budget, MCTS with exact solving still plays a full board perfectly from
/// the first move: when the distance search runs out of time, who wins decides the move.
#[test]
fn a_short_budget_keeps_won_full_boards_won() {
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    let mut solver = Solver::new(SolverConfig::default());
    for seed in 0..40 {
        let g = SightReduction::new(&SightReduction::info().default_options(), seed).unwrap();
        if !solver.solve_game(&g).unwrap().wins(g.to_move()) {
            continue;
        }
        let r = new_bot::<SightReduction>(&spec("mcts:time=20ms"), 1)
            .unwrap()
            .search(&g, &stop);
        assert!(r.value.score > 0.99, "seed {seed}: {:?}", r.value);
        let mut c = g.clone();
        c.play(r.best).unwrap();
        assert!(
            solver.solve_game(&c).unwrap().wins(g.to_move()),
            "seed {seed}: threw the win away"
        );
        checked += 1;
    }
    assert!(checked >= 4, "{checked}");
}

#[test]
fn exact_search_answers_at_the_root() {
    let stop = AtomicBool::new(false);
    let g = positions::<SightReduction>(5, 1)
        .into_iter()
        .find(|g| g.occupied().count_ones() == 16)
        .unwrap();
    for text in ["mcts:iterations=1000", "alphabeta:depth=3", "level:10"] {
        let r = new_bot::<SightReduction>(&spec(text), 0)
            .unwrap()
            .search(&g, &stop);
        assert!(r.value.proven.is_some(), "{text}: {:?}", r.value);
    }
}

#[test]
fn a_stop_request_ends_the_search_with_a_legal_move() {
    let stop = AtomicBool::new(true);
    for text in [
        "mcts:time=20s",
        "mcts:time=20s,threads=2",
        "alphabeta:time=20s",
        "alphabeta:time=20s,threads=2",
    ] {
        let g = Obsidio::new(&Obsidio::info().default_options(), 0).unwrap();
        let t = Instant::now();
        let r = new_bot::<Obsidio>(&spec(text), 0)
            .unwrap()
            .search(&g, &stop);
        assert!(t.elapsed() < Duration::from_secs(10), "{text} did not stop");
        assert!(g.is_legal(r.best));
    }
}

#[test]
fn time_budgets_end_the_search() {
    let stop = AtomicBool::new(false);
    for text in [
        "mcts:time=50ms",
        "alphabeta:time=50ms",
        "alphabeta:time=50ms,threads=2",
        "best:time=50ms",
    ] {
        let g = Opprimo::new(&Opprimo::info().default_options(), 0).unwrap();
        let t = Instant::now();
        let r = new_bot::<Opprimo>(&spec(text), 0)
            .unwrap()
            .search(&g, &stop);
        // Generous: the machine may be busy.
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{text}: {:?}",
            t.elapsed()
        );
        assert!(g.is_legal(r.best));
    }
}

/// A node budget counts the nodes of every thread: two threads stop at the same total as one
/// (give or take the 1,024 nodes each thread searches between looks at the count).
#[test]
fn node_budgets_count_every_thread() {
    let stop = AtomicBool::new(false);
    let g = Assideum::new(&Assideum::info().default_options(), 0).unwrap();
    for text in ["alphabeta:nodes=20000", "alphabeta:nodes=20000,threads=2"] {
        let r = new_bot::<Assideum>(&spec(text), 0)
            .unwrap()
            .search(&g, &stop);
        assert!(
            (20_000..20_000 + 2 * 1024 + 64).contains(&r.nodes),
            "{text}: {} nodes",
            r.nodes
        );
        assert!(g.is_legal(r.best));
    }
}

/// A depth budget on two threads completes that depth, move after move (the helper threads
/// are kept between moves).
#[test]
fn two_threads_complete_a_depth_budget() {
    let stop = AtomicBool::new(false);
    let mut g = Opprimo::new(&Opprimo::info().default_options(), 0).unwrap();
    let mut bot = new_bot::<Opprimo>(&spec("alphabeta:depth=5,threads=2"), 0).unwrap();
    for _ in 0..4 {
        let r = bot.search(&g, &stop);
        assert_eq!(r.depth, 5);
        assert!(g.is_legal(r.best));
        assert_eq!(r.pv[0], r.best);
        g.play_unchecked(r.best);
    }
}

#[test]
fn tree_reuse_gives_the_same_kind_of_answer_over_a_game() {
    // A game between a reusing MCTS and a fresh one: every move legal, and the reusing bot
    // keeps working as positions follow each other (including its own consecutive moves).
    let stop = AtomicBool::new(false);
    let mut g = SightReduction::new(&SightReduction::info().default_options(), 4).unwrap();
    let mut bots: [Box<dyn Bot<SightReduction>>; 2] = [
        new_bot(&spec("mcts:iterations=3000,exact=false"), 1).unwrap(),
        new_bot(&spec("mcts:iterations=3000,reuse=false,exact=false"), 2).unwrap(),
    ];
    while g.outcome().is_none() {
        let who = g.to_move().index();
        let r = bots[who].search(&g, &stop);
        g.play(r.best).unwrap();
    }
}

#[test]
fn values_name_their_point_of_view() {
    let v = Value::estimate(Seat::First, 0.7);
    let w = v.for_seat(Seat::Second);
    assert_eq!(w.seat, Seat::Second);
    assert!((w.score - 0.3).abs() < 1e-12);
    assert_eq!(w.for_seat(Seat::First), v);
    let p = Value::proven(Proven::win_in(Seat::Second, 5));
    assert_eq!(p.seat, Seat::Second);
    assert_eq!(
        p.for_seat(Seat::First).proven,
        Some(Proven::loss_in(Seat::First, 5))
    );
    assert_eq!(
        p.for_seat(Seat::First).to_string(),
        "first seat loses in 5 plies"
    );
    assert_eq!(p.to_string(), "second seat wins in 5 plies");
    assert_eq!(v.to_string(), "0.700 for the first seat");
}

#[test]
fn levels_resolve_for_every_game_and_grow_in_budget() {
    for kind in boardlab_games::GameKind::all() {
        for n in 1..=10 {
            let r = kind.resolve(&BotSpec::Level(n)).unwrap();
            assert!(
                !matches!(r, BotSpec::Level(_) | BotSpec::Best(_)),
                "{kind} level {n}: {r}"
            );
        }
    }
}

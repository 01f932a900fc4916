//! Arenas: match statistics, reproducible matches with alternating seats, random openings.

use boardlab_ai::arena::*;
use boardlab_ai::BotSpec;
use boardlab_core::prelude::*;
use boardlab_core::{GameRecord, Outcome, Seat};
use boardlab_sight_reduction::SightReduction;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Duration;

#[test]
fn summary_statistics() {
    let mut s = MatchSummary::default();
    assert_eq!(s.score(), 0.5);
    let r = |score: f64, seat| MatchGame {
        index: 0,
        a_seat: seat,
        outcome: Outcome::Draw { reason: "test" },
        a_score: score,
        plies: 10,
        time: [Duration::from_millis(10); 2],
        moves: [5, 5],
        record: GameRecord::new(
            &SightReduction::new(&SightReduction::info().default_options(), 0).unwrap(),
            0,
            None,
        ),
        forfeit: None,
    };
    for _ in 0..30 {
        s.add(&r(1.0, Seat::First));
    }
    for _ in 0..10 {
        s.add(&r(0.0, Seat::Second));
    }
    assert_eq!((s.wins, s.draws, s.losses), (30, 0, 10));
    assert_eq!(s.seat_line(0), "30-0-0");
    assert_eq!(s.seat_line(1), "0-0-10");
    assert!((s.score() - 0.75).abs() < 1e-12);
    // sd of 0/1 scores with mean .75 is .4385; 1.96 * .4385 / sqrt(40) = .1359.
    assert!(
        (s.score_margin() - 0.1359).abs() < 0.001,
        "{}",
        s.score_margin()
    );
    let (elo, err) = s.elo();
    assert!((elo - 190.85).abs() < 0.1, "{elo}");
    assert!(err > 90.0 && err < 200.0, "{err}");
    let (lo, hi) = s.elo_interval();
    assert!(lo < elo && elo < hi && hi.is_finite(), "{lo} {hi}");
    // 38-0-2: the score's interval reaches 100%, so the Elo interval is open above but
    // still has a finite lower end.
    let mut t = MatchSummary::default();
    for i in 0..40 {
        t.add(&r(if i < 38 { 1.0 } else { 0.0 }, Seat::First));
    }
    let (lo, hi) = t.elo_interval();
    assert!(
        lo.is_finite() && lo > 200.0 && hi == f64::INFINITY,
        "{lo} {hi}"
    );
}

#[test]
fn arena_with_work_budgets_is_reproducible_and_alternates_seats() {
    let cfg = ArenaConfig {
        bots: ["mcts:iterations=300".parse().unwrap(), BotSpec::Random],
        games: 6,
        threads: 2,
        seed: 11,
        options: SightReduction::info().default_options(),
        position: None,
        moves: Vec::new(),
        opening_plies: 0,
    };
    let stop = AtomicBool::new(false);
    let seen = Mutex::new(Vec::new());
    let a = run::<SightReduction>(&cfg, &stop, &|r, _| {
        seen.lock()
            .unwrap()
            .push((r.index, r.a_seat, r.record.seed));
    })
    .unwrap();
    let b = run::<SightReduction>(
        &ArenaConfig {
            threads: 1,
            ..cfg.clone()
        },
        &stop,
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(a.games, 6);
    assert_eq!((a.wins, a.draws, a.losses), (b.wins, b.draws, b.losses));
    assert_eq!(a.by_seat, b.by_seat);
    let mut seen = seen.into_inner().unwrap();
    seen.sort_by_key(|s| s.0);
    for (i, seat, _) in &seen {
        assert_eq!(*seat == Seat::First, i % 2 == 0);
    }
    // Both games of a pair start from the same set-up; pairs differ.
    assert_eq!(seen[0].2, seen[1].2);
    assert_ne!(seen[1].2, seen[2].2);
}

#[test]
fn random_openings_vary_games_of_fixed_bots_and_are_shared_by_a_pair() {
    use boardlab_opprimo::Opprimo;
    let cfg = ArenaConfig {
        bots: [
            "alphabeta:depth=1".parse().unwrap(),
            "alphabeta:depth=1".parse().unwrap(),
        ],
        games: 4,
        threads: 1,
        seed: 5,
        options: Opprimo::info().default_options(),
        position: None,
        moves: Vec::new(),
        opening_plies: 6,
    };
    let stop = AtomicBool::new(false);
    let records = Mutex::new(Vec::new());
    run::<Opprimo>(&cfg, &stop, &|r, _| {
        records.lock().unwrap().push((r.index, r.record.clone()));
    })
    .unwrap();
    let mut records = records.into_inner().unwrap();
    records.sort_by_key(|r| r.0);
    let openings: Vec<Vec<String>> = records
        .iter()
        .map(|(_, rec)| rec.moves[..6].to_vec())
        .collect();
    assert_eq!(openings[0], openings[1]);
    assert_eq!(openings[2], openings[3]);
    assert_ne!(openings[0], openings[2]);
    // Every record replays, opening included, to a finished game.
    for (_, rec) in &records {
        let (game, _) = rec.replay::<Opprimo>().unwrap();
        assert!(game.outcome().is_some());
    }
    // Without an opening, the same fixed bots play the same game in every pair.
    let same = Mutex::new(Vec::new());
    run::<Opprimo>(
        &ArenaConfig {
            opening_plies: 0,
            ..cfg.clone()
        },
        &stop,
        &|r, _| same.lock().unwrap().push((r.index, r.record.moves.clone())),
    )
    .unwrap();
    let mut same = same.into_inner().unwrap();
    same.sort_by_key(|r| r.0);
    assert_eq!(same[0].1, same[2].1);
}

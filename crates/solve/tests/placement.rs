//! The placement solver and the placement study: the solver's table and symmetries against
//! a plain search of the placements (no table, no symmetries; the full boards settled by the
//! removal solver, tested on its own elsewhere), and the study's shards, resumption and merge
//! against the solver.

use boardlab_core::rand::{Rng, SeedableRng};
use boardlab_core::{Game, Notation as _, Options, Rules as _};
use boardlab_sight_reduction::solver::placement::PlacementSolver;
use boardlab_sight_reduction::Phase;
use boardlab_solve::placement::{frontier, merge, run, PlacementConfig};
use boardlab_solve::study::StudyError;
use boardlab_solve::{SightReduction, Solver, SolverConfig};
use std::path::{Path, PathBuf};

fn options(extra: &str) -> Options {
    let text = if extra.is_empty() {
        "setup=deterministic".to_string()
    } else {
        format!("setup=deterministic,{extra}")
    };
    SightReduction::info()
        .parse_options(&text)
        .expect("valid options")
}

/// A position reached by random legal placements, with `empty` squares left.
fn random_position(options: &Options, empty: u32, seed: u64) -> SightReduction {
    let mut rng = boardlab_core::rand::rngs::StdRng::seed_from_u64(seed);
    let mut game = SightReduction::new(options, 0).expect("a game");
    let mut moves = Vec::new();
    while 32 - game.occupied().count_ones() > empty {
        game.legal_moves(&mut moves);
        let m = moves[rng.random_range(0..moves.len())];
        game.play(m).expect("legal");
    }
    game
}

/// Whether the side to move wins: every placement tried, every full board solved.
fn plain_wins(game: &SightReduction, removal: &mut Solver) -> bool {
    if game.phase() == Phase::Remove {
        return removal
            .solve_game(game)
            .expect("a match")
            .wins(game.to_move());
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().any(|m| {
        let mut g = game.clone();
        g.play(m).expect("legal");
        !plain_wins(&g, removal)
    })
}

fn small() -> SolverConfig {
    SolverConfig {
        table_bytes: 4 << 20,
        ..SolverConfig::default()
    }
}

#[test]
fn placement_values_match_a_plain_search() {
    // Fewer positions where full boards cost more to solve (with enemy sight, seed 1 reaches
    // boards that take the removal solver half a minute: left out).
    let many: Vec<u64> = (0..12).collect();
    let some: &[u64] = &[0, 2, 3, 4, 5];
    for (extra, seeds) in [
        ("", &many[..]),
        ("first=black", &many[..8]),
        ("sight=any", &many[..8]),
        ("enemy-sight=true", some),
    ] {
        let options = options(extra);
        let mut solver = PlacementSolver::new(small());
        let mut removal = Solver::new(small());
        let (mut wins, mut losses) = (0, 0);
        for &seed in seeds {
            let game = random_position(&options, 3 + (seed % 2) as u32, seed);
            let seat = game.to_move();
            let plain = plain_wins(&game, &mut removal);
            let value = solver.solve(&game).expect("a placement position");
            assert_eq!(value.wins(seat), plain, "{extra}: {}", game.position_text());
            // The moves' values agree with the position's.
            let moves = solver.move_values(&game).expect("a placement position");
            assert_eq!(moves.iter().any(|(_, v)| v.wins(seat)), plain);
            if plain {
                wins += 1;
            } else {
                losses += 1;
            }
        }
        assert!(
            wins > 0 && losses > 0,
            "{extra}: both results occur ({wins}, {losses})"
        );
    }
}

fn config(
    from: &SightReduction,
    split: u32,
    out: &Path,
    shard: Option<(u64, u64)>,
) -> PlacementConfig {
    PlacementConfig {
        options: options(""),
        from: Some(from.position_text()),
        split,
        threads: 2,
        table_bytes: 4 << 20,
        out: out.to_path_buf(),
        shard,
    }
}

fn temp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("boardlab-placement-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_study_decides_the_root_like_the_solver_sharded_or_not() {
    let root = random_position(&options(""), 5, 7);
    let mut solver = PlacementSolver::new(small());
    let value = solver.solve(&root).expect("a placement position");
    let winning: Vec<String> = solver
        .move_values(&root)
        .expect("a placement position")
        .into_iter()
        .filter(|(_, v)| v.wins(root.to_move()))
        .map(|(m, _)| root.format_move(m))
        .collect();

    let whole = temp("whole");
    let summary = run(&config(&root, 2, &whole, None), |_, _| {})
        .expect("the study runs")
        .expect("a whole study has a summary");
    assert_eq!(summary.mover_wins, value.wins(root.to_move()));
    assert_eq!(summary.winning_moves, winning);
    assert_eq!(summary.frontier, frontier(&root, 2).len() as u64);
    assert!(whole.join("summary.json").exists());
    // Run again: everything is found done, nothing is solved twice.
    let again = run(&config(&root, 2, &whole, None), |done, total| {
        assert_eq!(done, total)
    })
    .expect("the study resumes")
    .expect("a summary");
    assert_eq!(again.mover_wins, summary.mover_wins);
    let lines = std::fs::read_to_string(whole.join("results.jsonl")).expect("results");
    assert_eq!(lines.lines().count() as u64, summary.frontier);

    // Two shards, then the merge.
    let (a, b, merged) = (temp("a"), temp("b"), temp("merged"));
    assert_eq!(
        run(&config(&root, 2, &a, Some((1, 2))), |_, _| {}).expect("shard 1"),
        None
    );
    let missing = merge(std::slice::from_ref(&a), &config(&root, 2, &merged, None));
    assert!(
        matches!(missing, Err(StudyError::Mismatch(_))),
        "a shard is missing"
    );
    run(&config(&root, 2, &b, Some((2, 2))), |_, _| {}).expect("shard 2");
    let m = merge(&[a.clone(), b.clone()], &config(&root, 2, &merged, None)).expect("merged");
    assert_eq!(
        (m.mover_wins, &m.winning_moves, m.frontier),
        (summary.mover_wins, &summary.winning_moves, summary.frontier)
    );
    // Another split is another study: the folder refuses it.
    let other = run(&config(&root, 3, &whole, None), |_, _| {});
    assert!(matches!(other, Err(StudyError::Mismatch(_))));
    for d in [whole, a, b, merged] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn the_study_refuses_what_it_cannot_solve() {
    let out = temp("refused");
    let mut c = config(&random_position(&options(""), 5, 1), 2, &out, None);
    c.options = SightReduction::info().default_options();
    c.from = None;
    assert!(
        matches!(run(&c, |_, _| {}), Err(StudyError::Options(_))),
        "a random set-up"
    );
    let mut c = config(&random_position(&options(""), 5, 1), 0, &out, None);
    c.split = 0;
    assert!(
        matches!(run(&c, |_, _| {}), Err(StudyError::Options(_))),
        "no split"
    );
    let full = random_position(&options(""), 0, 1);
    let c = config(&full, 1, &out, None);
    assert!(
        matches!(run(&c, |_, _| {}), Err(StudyError::Options(_))),
        "a full board"
    );
    let _ = std::fs::remove_dir_all(out);
}

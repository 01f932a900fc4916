//! End-to-end reports: every game, resuming, shards, option sets and bad settings.

use boardlab_report::{merge, run, Definition, Report, ReportError, Run, Shard};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

fn def(game: &str, bot: &str, games: u32) -> Definition {
    Definition {
        game: game.into(),
        options: BTreeMap::new(),
        compare: Vec::new(),
        games,
        bot: bot.into(),
        seed: 7,
        max_plies: 400,
        opening_plies: 1,
        skill_games: 2,
        skill_steps: 1,
    }
}

fn go(d: &Definition, out: &Path, shard: Option<Shard>) -> Result<Option<Report>, ReportError> {
    let stop = AtomicBool::new(false);
    let r = Run {
        out: out.to_path_buf(),
        threads: 2,
        shard,
        stop: &stop,
        command: "test".into(),
    };
    run(d, &r, |_, _| {})
}

/// The report without what depends on the clock.
fn timeless(mut r: Report) -> Report {
    for s in &mut r.sets {
        s.speed.seconds_per_game = 0.0;
        s.speed.games_per_hour_per_core = 0.0;
    }
    r.command.clear();
    r
}

#[test]
fn every_game_gets_a_report_with_its_files() {
    let cases = [
        ("obsidio", "mcts:iterations=30", vec![("size", "7")]),
        ("opprimo", "alphabeta:nodes=200", vec![]),
        ("assideum", "alphabeta:nodes=150", vec![]),
        ("sight-reduction", "mcts:plain,iterations=20", vec![]),
    ];
    for (game, bot, options) in cases {
        let dir = tempfile::tempdir().unwrap();
        let mut d = def(game, bot, 4);
        d.options = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let r = go(&d, dir.path(), None).unwrap().unwrap();
        assert_eq!(r.sets.len(), 1);
        let s = &r.sets[0];
        assert_eq!(s.games, 4, "{game}");
        assert_eq!(s.finished + s.unfinished, 4);
        let total = s.first_wins.count + s.second_wins.count + s.draws.count;
        assert!((total - f64::from(s.finished)).abs() < 1e-9, "{game}");
        assert!(s.length.mean > 0.0 && s.branching.mean > 1.0, "{game}");
        assert_eq!(s.skill.len(), 1);
        assert_eq!(s.skill[0].games, 2);
        for f in [
            "report.html",
            "report.md",
            "report.json",
            "games.jsonl",
            "config.json",
        ] {
            assert!(dir.path().join(f).is_file(), "{game}: {f}");
        }
        let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
        assert!(
            html.contains("<svg") && !html.contains("src=\"charts/"),
            "{game}: inline charts"
        );
        assert!(!html.contains("chart not drawn"), "{game}");
        let json = std::fs::read_to_string(dir.path().join("report.json")).unwrap();
        assert_eq!(json.trim_end(), serde_json::to_string_pretty(&r).unwrap());
        // Games that reach the cap count as unfinished, never as results.
        if game == "opprimo" {
            let mut capped = def(game, bot, 2);
            capped.max_plies = 3;
            capped.skill_games = 0;
            let dir = tempfile::tempdir().unwrap();
            let r = go(&capped, dir.path(), None).unwrap().unwrap();
            assert_eq!((r.sets[0].finished, r.sets[0].unfinished), (0, 2));
            assert_eq!(r.sets[0].first_wins.of, 0);
        }
    }
}

#[test]
fn an_interrupted_report_resumes_and_ends_as_if_run_at_once() {
    let d = def("obsidio", "mcts:iterations=30", 6);
    let d = Definition {
        options: [("size".to_string(), "7".to_string())].into(),
        ..d
    };
    let whole = tempfile::tempdir().unwrap();
    let at_once = timeless(go(&d, whole.path(), None).unwrap().unwrap());

    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let r = Run {
        out: dir.path().to_path_buf(),
        threads: 1,
        shard: None,
        stop: &stop,
        command: "test".into(),
    };
    let err = run(&d, &r, |done, _| {
        if done >= 3 {
            stop.store(true, Ordering::Relaxed);
        }
    })
    .unwrap_err();
    assert!(
        matches!(
            err,
            ReportError::Interrupted {
                done: 3..,
                total: 8
            }
        ),
        "{err}"
    );
    assert!(!dir.path().join("report.json").exists());
    // A line cut short by a kill is dropped and played again.
    let games = dir.path().join("games.jsonl");
    let text = std::fs::read_to_string(&games).unwrap();
    let kept = text.lines().count();
    std::fs::write(&games, format!("{text}{{\"set\":\"size=7\",\"job")).unwrap();
    let mut seen = Vec::new();
    let resumed = go_with_progress(&d, dir.path(), &mut seen);
    assert_eq!(
        seen.first(),
        Some(&(kept, 8)),
        "resumed from the saved games"
    );
    assert_eq!(timeless(resumed), at_once);
}

fn go_with_progress(d: &Definition, out: &Path, seen: &mut Vec<(usize, usize)>) -> Report {
    let stop = AtomicBool::new(false);
    let r = Run {
        out: out.to_path_buf(),
        threads: 2,
        shard: None,
        stop: &stop,
        command: "test".into(),
    };
    run(d, &r, |a, b| seen.push((a, b))).unwrap().unwrap()
}

#[test]
fn two_shards_merged_equal_the_whole_report() {
    let mut d = def("sight-reduction", "mcts:plain,iterations=20", 10);
    d.compare = vec![("enemy-sight".into(), vec!["false".into(), "true".into()])];
    let whole = tempfile::tempdir().unwrap();
    let at_once = timeless(go(&d, whole.path(), None).unwrap().unwrap());
    assert_eq!(at_once.sets.len(), 2);
    assert_eq!(at_once.sets[1].label, "enemy-sight=true");
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    assert!(go(&d, a.path(), Some("1/2".parse().unwrap()))
        .unwrap()
        .is_none());
    let out = tempfile::tempdir().unwrap();
    // One shard alone is not the whole report.
    let err = merge(&[a.path().to_path_buf()], out.path(), "test").unwrap_err();
    assert!(
        err.to_string().contains("12 of the report's 24 games"),
        "{err}"
    );
    go(&d, b.path(), Some("2/2".parse().unwrap())).unwrap();
    let merged = merge(
        &[a.path().to_path_buf(), b.path().to_path_buf()],
        out.path(),
        "test",
    )
    .unwrap();
    assert_eq!(timeless(merged), at_once);
    // The comparison has its charts.
    for f in ["first-score.svg", "length.svg", "decided.svg", "skill.svg"] {
        assert!(out.path().join("charts").join(f).is_file(), "{f}");
    }
}

#[test]
fn bad_settings_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let base = def("obsidio", "mcts:iterations=30", 2);
    let mut unknown = base.clone();
    unknown.options.insert("colour".into(), "red".into());
    let mut bad_value = base.clone();
    bad_value.compare = vec![("size".into(), vec!["7".into(), "8".into()])];
    let mut both = base.clone();
    both.options.insert("size".into(), "7".into());
    both.compare = vec![("size".into(), vec!["9".into()])];
    let mut random = base.clone();
    random.bot = "random".into();
    let mut nothing = base.clone();
    nothing.games = 0;
    nothing.skill_games = 0;
    let mut shallow = def("opprimo", "alphabeta:depth=2", 2);
    shallow.skill_steps = 2;
    let mut bad_bot = base.clone();
    bad_bot.bot = "deep-thought".into();
    let mut puzzle = def("sight-reduction", "random", 2);
    puzzle.skill_games = 0;
    puzzle.options.insert("mode".into(), "solitaire".into());
    let cases = [
        (unknown, "colour"),
        (bad_value, "8"),
        (both, "both given"),
        (random, "no work budget"),
        (nothing, "no games"),
        (bad_bot, "deep-thought"),
        (puzzle, "puzzle"),
        (shallow, "against itself"),
    ];
    for (d, needle) in cases {
        let err = go(&d, dir.path(), None).unwrap_err().to_string();
        assert!(err.contains(needle), "{needle}: {err}");
    }
    // A folder holding another report's games is not mixed with this one's.
    let other = tempfile::tempdir().unwrap();
    let mut small = def("sight-reduction", "mcts:plain,iterations=5", 2);
    small.skill_games = 0;
    go(&small, other.path(), None).unwrap();
    small.seed += 1;
    let err = go(&small, other.path(), None).unwrap_err().to_string();
    assert!(err.contains("other settings"), "{err}");
    for bad in ["0/2", "3/2", "2", "a/b", "1/0"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
}

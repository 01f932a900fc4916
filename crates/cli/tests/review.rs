//! `boardlab review` as users and scripts see it: the annotated game, the JSON form, the
//! annotated record and the errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn boardlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .output()
        .expect("boardlab runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Black (the second seat) to move with eleven pieces left. Black wins, but only by removing
/// d2: after b3 White wins.
const BLUNDER_START: &str = "2B1/BW2/WB1W/3W/B3/1B1B/3B/W1W1 b second";

/// A game from `BLUNDER_START` in which Black throws the win away with its first move.
fn blunder_record() -> String {
    format!(
        "[Game \"sight-reduction\"]\n[Position \"{BLUNDER_START}\"]\n[First \"ann\"]\n\
         [Second \"bob\"]\n\n1. b3\n2. a1\n3. d2\n"
    )
}

/// The solver agrees that the start is won for Black, by d2 alone, and that b3 loses.
#[test]
fn the_blunder_position_is_what_the_tests_say() {
    let o = boardlab(&[
        "solve",
        "sight-reduction",
        "--position",
        BLUNDER_START,
        "--all-moves",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"win"), "{out}");
    assert!(lines.contains(&"d2 win"), "{out}");
    assert!(lines.contains(&"b3 loss"), "{out}");
    assert_eq!(lines.iter().filter(|l| l.ends_with(" win")).count(), 1);
}

#[test]
fn review_grades_a_thrown_away_win_exactly() {
    let dir = scratch("review-blunder");
    let file = write(&dir, "game.txt", &blunder_record());
    let o = boardlab(&["review", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let first = out
        .lines()
        .find(|l| l.trim_start().starts_with("1. "))
        .unwrap_or_else(|| panic!("no line for move 1:\n{out}"));
    assert!(first.contains("Black  b3??"), "{first}");
    assert!(first.contains("White wins in 3 moves"), "{first}");
    assert!(
        first.contains("Throws the win away (1 of 4 moves won). Best: d2"),
        "{first}"
    );
    assert!(
        out.contains("Black (second seat, bob): 2 moves, accuracy 50.0%; 0 inaccuracies, 0 mistakes, 1 blunder"),
        "{out}"
    );
    assert!(
        out.contains("White (first seat, ann): 1 move, accuracy 100.0%"),
        "{out}"
    );
    assert!(
        stderr(&o).contains("4 positions reviewed"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn review_json_is_the_whole_review() {
    let dir = scratch("review-json");
    let file = write(&dir, "game.txt", &blunder_record());
    let o = boardlab(&["review", &file, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert_eq!(v["game"], "sight-reduction");
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 3);
    let p = &plies[0];
    assert_eq!(p["number"], 1);
    assert_eq!(p["seat"], "second");
    assert_eq!(p["colour"], "black");
    assert_eq!(p["move"], "b3");
    assert_eq!(p["grade"], "blunder");
    assert_eq!(p["best"], "d2");
    assert_eq!(p["pv"][0], "d2");
    assert_eq!(p["loss"], 1.0);
    assert_eq!(p["exact"]["verdict"], "throws-win-away");
    assert_eq!(p["exact"]["keeping"], 1);
    assert_eq!(p["exact"]["moves"], 4);
    assert_eq!(p["before"]["proven"]["result"], "win");
    assert_eq!(p["before"]["proven"]["plies"], 5);
    assert_eq!(p["after"]["proven"]["result"], "loss");
    assert_eq!(p["after"]["proven"]["seat"], "second");
    // White keeps the win with a1, the fastest way.
    assert_eq!(plies[1]["grade"], "best");
    assert_eq!(plies[1]["exact"]["verdict"], "keeps-win");
    // Black was lost by then.
    assert_eq!(plies[2]["exact"]["verdict"], "already-lost");
    let sides = v["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 2);
    assert_eq!(sides[1]["seat"], "second");
    assert_eq!(sides[1]["player"], "bob");
    assert_eq!(sides[1]["blunders"], 1);
    assert_eq!(sides[1]["moves"], 2);
    assert_eq!(sides[0]["accuracy"], 100.0);
    assert_eq!(v["positions"], 4);
}

#[test]
fn review_writes_an_annotated_record_that_replays_and_round_trips() {
    let dir = scratch("review-record");
    let file = write(&dir, "game.txt", &blunder_record());
    for name in ["annotated.txt", "annotated.json"] {
        let out = dir.join(name);
        let out = out.to_str().unwrap();
        let o = boardlab(&["review", &file, "--record", out]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(out).unwrap();
        if name.ends_with(".txt") {
            assert!(
                text.contains("1. b3 ; [%value second loss in 3] ?? Throws the win away (1 of 4 moves won). Best: d2 (d2 a1 d3 d5 b3), Black wins in 5 moves.\n"),
                "{text}"
            );
            assert!(
                text.contains("2. a1 ; [%value first win in 2] Keeps the win"),
                "{text}"
            );
        } else {
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["moves"][0], "b3");
            assert_eq!(v["notes"][0]["move"], 1);
            assert_eq!(v["notes"][0]["value"]["seat"], "second");
            assert_eq!(v["notes"][0]["value"]["result"], "loss");
            assert_eq!(v["notes"][0]["value"]["plies"], 3);
            assert!(v["notes"][0]["comment"]
                .as_str()
                .unwrap()
                .starts_with("?? Throws the win away"));
            assert_eq!(v["notes"].as_array().unwrap().len(), 3);
        }
        // The annotated record replays, and reviewing it again gives the same notes.
        let o = boardlab(&["replay", out]);
        assert!(o.status.success(), "{}", stderr(&o));
        let again = dir.join(format!("again-{name}"));
        let o = boardlab(&["review", out, "--record", again.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    }
}

#[test]
fn review_names_the_first_bad_move() {
    let dir = scratch("review-bad");
    let illegal = write(
        &dir,
        "illegal.txt",
        &blunder_record().replace("2. a1", "2. c8"),
    );
    let o = boardlab(&["review", &illegal]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("cannot be reviewed: move 2 ('c8'): illegal move"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
    let malformed = write(
        &dir,
        "malformed.txt",
        &blunder_record().replace("3. d2", "3. z9"),
    );
    let o = boardlab(&["review", &malformed]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("move 3 ('z9'): malformed move"),
        "{}",
        stderr(&o)
    );
    let o = boardlab(&["review", &illegal, "--bot", "mcts:bogus=1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad bot spec"), "{}", stderr(&o));
}

/// A whole game of another kind, reviewed with a small work budget: every move graded, the
/// same review on two threads as on one.
#[test]
fn review_grades_every_move_of_an_obsidio_game() {
    let dir = scratch("review-obsidio");
    let o = boardlab(&[
        "arena",
        "obsidio",
        "--bot",
        "random",
        "--bot",
        "random",
        "--games",
        "2",
        "--threads",
        "1",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let game = dir.join("game-00001.txt");
    let game = game.to_str().unwrap();
    let moves = std::fs::read_to_string(game)
        .unwrap()
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .count();
    let run = |threads: &str| {
        let o = boardlab(&[
            "review",
            game,
            "--bot",
            "mcts:iterations=200",
            "--threads",
            threads,
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["seconds"] = serde_json::Value::Null;
        v
    };
    let one = run("1");
    let plies = one["plies"].as_array().unwrap();
    assert_eq!(plies.len(), moves);
    for p in plies {
        let grade = p["grade"].as_str().unwrap();
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder"].contains(&grade),
            "{p}"
        );
        if grade != "best" {
            assert_ne!(p["best"], p["move"], "{p}");
            assert!(p["comment"].as_str().unwrap().contains("Best: "), "{p}");
        }
        let loss = p["loss"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&loss), "{p}");
    }
    // Random players make mistakes.
    let errors: u64 = one["sides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["mistakes"].as_u64().unwrap() + s["blunders"].as_u64().unwrap())
        .sum();
    assert!(errors > 0, "{one}");
    assert_eq!(run("2"), one, "the same review on two threads");
}

/// A solitaire puzzle, solved: every move keeps the solution; a game that leaves the
/// solution is graded by it.
#[test]
fn review_grades_a_solitaire_game_by_its_solution() {
    let dir = scratch("review-solitaire");
    let solved = dir.join("solved.txt");
    let o = boardlab(&[
        "solve",
        "sight-reduction",
        "--option",
        "mode=solitaire",
        "--option",
        "keep=b2,c7",
        "--seed",
        "4",
        "--record",
        solved.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = boardlab(&["review", solved.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["solitaire"], true);
    assert_eq!(v["sides"].as_array().unwrap().len(), 1);
    for p in v["plies"].as_array().unwrap() {
        assert_eq!(p["exact"]["verdict"], "keeps-solution", "{p}");
        assert_eq!(p["grade"], "best", "{p}");
    }
    let o = boardlab(&["review", solved.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(out.contains("review (solitaire)"), "{out}");
    assert!(out.contains("solvable"), "{out}");
    assert!(out.contains("Player: "), "{out}");
}

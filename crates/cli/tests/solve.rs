//! `boardlab solve`, `boardlab puzzle` and `boardlab study` for Sight Reduction, as users and
//! scripts see them.

use std::path::PathBuf;
use std::process::{Command, Output};

fn boardlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .output()
        .expect("boardlab runs")
}

/// `boardlab solve sight-reduction ARGS…`
fn solve(args: &[&str]) -> Output {
    boardlab(&[&["solve", "sight-reduction"], args].concat())
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn last_line(o: &Output) -> String {
    stdout(o).lines().last().unwrap_or_default().to_string()
}

/// A fresh scratch folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// White to move: c1 and d1 see each other, b8 sees no friend; Black's a8 and a1 see each
/// other. Whatever White removes, Black answers and White is stuck.
const SMALL: &str = "BW2/4/4/4/4/4/4/B1WW w";

#[test]
fn solve_prints_win_or_loss_last() {
    let o = solve(&["--position", SMALL]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(last_line(&o), "loss");
    // With a third Black piece on the a-file, Black to move wins: Black still has a
    // removal after White's last one.
    let o = solve(&["--position", "BW2/4/4/4/4/4/B3/B1WW b"]);
    assert_eq!(last_line(&o), "win");
}

#[test]
fn solve_distance_counts_plies_to_the_end() {
    let o = solve(&["--position", SMALL, "--distance"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(last_line(&o), "loss in 2");
    let o = solve(&["--position", "BW2/4/4/4/4/4/B3/B1WW b", "--distance"]);
    // Black, White, Black: then White has no removal.
    assert_eq!(last_line(&o), "win in 3");
}

#[test]
fn solve_all_moves_lists_each_legal_move_with_its_value_first() {
    let o = solve(&["--position", SMALL, "--all-moves", "--distance"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "c1 loss in 2\nd1 loss in 2\nloss in 2\n");
    let o = solve(&["--position", SMALL, "--all-moves"]);
    assert_eq!(stdout(&o), "c1 loss\nd1 loss\nloss\n");
}

#[test]
fn solve_a_full_random_set_up_with_moves_played_first() {
    // Game seed 1: the first player loses; after a1... the moves given are played first.
    let o = solve(&["--seed", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(last_line(&o), "loss");
    let o = solve(&["--seed", "1", "--moves", "c1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        last_line(&o),
        "win",
        "after White's move Black (to move) wins"
    );
}

#[test]
fn solve_a_finished_game_is_a_loss_now() {
    let o = solve(&["--position", "W3/4/4/4/4/4/4/3B w", "--distance"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(last_line(&o), "loss in 0");
}

#[test]
fn solve_other_games_and_set_up_phases_are_clear_errors() {
    let o = boardlab(&["solve", "obsidio"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no exact solver for obsidio"),
        "{}",
        stderr(&o)
    );
    let o = solve(&["--option", "setup=deterministic"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("removal phase"), "{}", stderr(&o));
    let o = solve(&["--position", "WB w", "--distance"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("8 (rank 8 first)"), "{}", stderr(&o));
}

#[test]
fn solitaire_solution_replays_and_solves() {
    let dir = scratch("solitaire-record");
    let record = dir.join("solution.txt");
    let o = solve(&[
        "--option",
        "mode=solitaire",
        "--seed",
        "3",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(last_line(&o).starts_with("solved: 2 pieces left"), "{out}");
    let moves = out
        .lines()
        .find_map(|l| l.strip_prefix("moves: "))
        .expect("a moves line");
    // The moves replay through the rules and end the puzzle solved.
    let shown = boardlab(&[
        "show",
        "sight-reduction",
        "--option",
        "mode=solitaire",
        "--seed",
        "3",
        "--moves",
        moves,
    ]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert!(
        stdout(&shown).contains("puzzle solved with 2 pieces left"),
        "{}",
        stdout(&shown)
    );
    // So does the record.
    let replayed = boardlab(&["replay", record.to_str().unwrap()]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(
        stdout(&replayed).contains("solved"),
        "{}",
        stdout(&replayed)
    );
}

#[test]
fn solitaire_without_solution_reports_the_lowest_score() {
    // White a1 and b2 share no line: White can never remove, so the puzzle ends at once.
    let o = solve(&[
        "--option",
        "mode=solitaire",
        "--position",
        "4/4/4/4/3B/2B1/1W2/W3 w",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        last_line(&o).starts_with("no solution exists; the fewest pieces left is 4"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn solitaire_keep_squares_and_pairs() {
    // Three White pieces in a row, two Black: keep=a1,d8 needs the a1 piece to stay.
    let o = solve(&[
        "--option",
        "mode=solitaire",
        "--option",
        "keep=a1,d8",
        "--position",
        "3B/3B/4/4/4/4/4/WWW1 w",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(last_line(&o).starts_with("solved"), "{}", stdout(&o));
    let moves = stdout(&o);
    assert!(!moves.contains(" a1"), "the kept piece stays: {moves}");
    // With pairs the goal is the empty board.
    let o = solve(&[
        "--option",
        "mode=solitaire",
        "--option",
        "removal=pair",
        "--position",
        "3B/3B/4/4/4/4/4/WW2 w",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "moves: a1+b1 d7+d8\nsolved: 0 pieces left in 2 moves\n"
    );
}

#[test]
fn puzzle_prints_position_and_a_solution_that_replays() {
    let o = boardlab(&["puzzle", "sight-reduction", "--count", "2", "--seed", "7"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let positions: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("position: "))
        .collect();
    let solutions: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("solution: "))
        .collect();
    assert_eq!(positions.len(), 2, "{out}");
    assert_eq!(solutions.len(), 2, "{out}");
    for (p, s) in positions.iter().zip(&solutions) {
        let shown = boardlab(&[
            "show",
            "sight-reduction",
            "--option",
            "mode=solitaire",
            "--position",
            p,
            "--moves",
            s,
        ]);
        assert!(shown.status.success(), "{}", stderr(&shown));
        assert!(
            stdout(&shown).contains("puzzle solved"),
            "{}",
            stdout(&shown)
        );
    }
    // The same seed gives the same puzzles.
    let again = boardlab(&["puzzle", "sight-reduction", "--count", "2", "--seed", "7"]);
    assert_eq!(stdout(&again), out);
}

#[test]
fn puzzle_difficulty_is_checked() {
    let o = boardlab(&["puzzle", "sight-reduction", "--difficulty", "fiendish"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("accepted: easy, medium, hard"),
        "{}",
        stderr(&o)
    );
    let o = boardlab(&[
        "puzzle",
        "sight-reduction",
        "--count",
        "1",
        "--seed",
        "2",
        "--difficulty",
        "hard",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["difficulty"], "hard");
    let dead = v["dead_ends"].as_u64().unwrap();
    let moves = v["first_moves"].as_u64().unwrap();
    assert!(2 * dead >= moves, "{v}");
}

#[test]
fn study_writes_its_files_and_resumes() {
    let dir = scratch("study");
    let out = dir.to_str().unwrap();
    let args = [
        "study",
        "sight-reduction",
        "--setups",
        "1",
        "--seed",
        "1",
        "--threads",
        "1",
        "--table-mb",
        "8",
        "--out",
        out,
    ];
    let o = boardlab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("first player wins: 0 (0.00%"),
        "{}",
        stdout(&o)
    );
    for f in [
        "results.jsonl",
        "summary.json",
        "results.csv",
        "lengths.svg",
        "study.json",
    ] {
        assert!(dir.join(f).exists(), "{f} written");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["setups"], 1);
    assert_eq!(summary["lengths"][0][0], 18, "set-up seed 1 lasts 18 plies");
    assert!(std::fs::read_to_string(dir.join("lengths.svg"))
        .unwrap()
        .starts_with("<svg"));
    // Again: nothing left to solve, nothing appended.
    let o = boardlab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 of 1 set-ups already solved"),
        "{}",
        stderr(&o)
    );
    let lines = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 1);
    // Another study in the same folder is refused.
    let o = boardlab(&[
        "study",
        "sight-reduction",
        "--setups",
        "1",
        "--seed",
        "2",
        "--out",
        out,
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("another --out folder"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn study_shards_merged_equal_the_whole_study() {
    let dir = scratch("study-shards");
    let run = |extra: &[&str], out: &str| {
        let mut args = vec![
            "study",
            "sight-reduction",
            "--setups",
            "4",
            "--seed",
            "3",
            "--threads",
            "1",
            "--table-mb",
            "8",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out]);
        boardlab(&args)
    };
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let o = run(&[], &path("whole"));
    assert!(o.status.success(), "{}", stderr(&o));
    for (k, name) in [("1/2", "a"), ("2/2", "b")] {
        let o = run(&["--shard", k], &path(name));
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let a_lines = std::fs::read_to_string(dir.join("a/results.jsonl")).unwrap();
    assert_eq!(
        a_lines.lines().count(),
        2,
        "shard 1/2 solves set-ups 0 and 2"
    );
    // One shard alone does not make the study.
    let o = run(&["--merge", &path("a")], &path("merged"));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("2 of the 4 set-ups"), "{}", stderr(&o));
    let o = run(&["--merge", &path("a"), &path("b")], &path("merged"));
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = |name: &str| {
        let mut v: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(name).join("summary.json")).unwrap(),
        )
        .unwrap();
        // Time, and the positions visited (a thread's table carries over from one set-up
        // to the next), depend on how the set-ups were shared out.
        v["mean_millis"] = serde_json::Value::Null;
        v["nodes"] = serde_json::Value::Null;
        v
    };
    assert_eq!(summary("merged"), summary("whole"));
    let o = run(&["--shard", "3/2"], &path("c"));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("bad --shard"), "{}", stderr(&o));
}

#[test]
fn studies_to_less_depth_find_the_same_winners_and_lengths() {
    let dir = scratch("study-depth");
    let run = |extra: &[&str], out: &str| {
        let mut args = vec![
            "study",
            "sight-reduction",
            "--setups",
            "4",
            "--seed",
            "3",
            "--threads",
            "1",
            "--table-mb",
            "8",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out]);
        boardlab(&args)
    };
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let o = run(&[], &path("all"));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["--depth", "length"], &path("quick"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("first moves: not judged"),
        "{}",
        stdout(&o)
    );
    let o = run(&["--depth", "winner"], &path("winner"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("game length: not solved"),
        "{}",
        stdout(&o)
    );
    assert!(!dir.join("winner/lengths.svg").exists());
    let o = run(&["--depth", "deep"], &path("bad"));
    assert!(!o.status.success());
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name).join("summary.json")).unwrap())
            .unwrap()
    };
    let (all, quick, winner) = (read("all"), read("quick"), read("winner"));
    for key in ["first_player_wins", "lengths", "mean_length", "win_rate_95"] {
        assert_eq!(all[key], quick[key], "{key}");
    }
    for key in ["first_player_wins", "win_rate_95"] {
        assert_eq!(all[key], winner[key], "{key}");
    }
    assert_eq!(winner["lengths"], serde_json::json!([]));
    assert_eq!(all["depth"], "first-moves");
    assert_eq!(quick["depth"], "length");
    assert_eq!(quick["first_moves_by_square"], serde_json::json!([]));
    // A folder keeps its choice: the full study cannot continue in it.
    let o = run(&[], &path("quick"));
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("another --out folder"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn study_solves_the_placement_set_up_in_shards() {
    let dir = scratch("study-placement");
    let from = "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/3W/4 b place";
    let run = |extra: &[&str], out: &std::path::Path| {
        let mut args = vec![
            "study",
            "sight-reduction",
            "--placement",
            "--from",
            from,
            "--split",
            "2",
            "--threads",
            "1",
            "--table-mb",
            "8",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        boardlab(&args)
    };
    let o = run(&[], &dir.join("whole"));
    assert!(o.status.success(), "{}", stderr(&o));
    let whole = stdout(&o);
    assert!(
        whole.contains("black to place wins with perfect play"),
        "{whole}"
    );
    assert!(
        whole.contains("winning placements: @c1 @d1 @a2 @b2 @c2"),
        "{whole}"
    );
    for k in ["1/2", "2/2"] {
        let o = run(&["--shard", k], &dir.join(k.replace('/', "-")));
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("combine the shards with --merge"));
    }
    let (a, b) = (dir.join("1-2"), dir.join("2-2"));
    let o = run(
        &["--merge", a.to_str().unwrap(), b.to_str().unwrap()],
        &dir.join("merged"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().take(2).collect::<Vec<_>>(),
        whole.lines().take(2).collect::<Vec<_>>()
    );
    // A placement study takes no set-up count, and a root must be a placement position.
    let o = boardlab(&["study", "sight-reduction", "--placement", "--setups", "3"]);
    assert!(!o.status.success());
    let o = boardlab(&[
        "study",
        "sight-reduction",
        "--placement",
        "--from",
        "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW w",
        "--out",
        dir.join("full").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("not in its placement phase"),
        "{}",
        stderr(&o)
    );
}

//! The `boardlab` command as users and scripts see it: output shapes, exit codes, messages.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn boardlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .output()
        .expect("boardlab runs")
}

fn boardlab_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boardlab runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const FULL_K1: &str = "BBBW/WBWB/BBWW/BBWW/BWBW/WBWB/BWWW/BBWW w";

#[test]
fn games_lists_every_option_with_values_and_defaults() {
    let o = boardlab(&["games"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("sight-reduction — Sight Reduction"));
    assert!(out.contains("removal  [single, pair]  default single"));
    let json = boardlab(&["games", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v[0]["name"], "sight-reduction");
    // Exactly the games of the one list, in its order.
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    let all: Vec<&str> = boardlab_games::GameKind::all()
        .iter()
        .map(|k| k.name())
        .collect();
    assert_eq!(names, all);
}

#[test]
fn perft_prints_the_bare_count_last() {
    let o = boardlab(&[
        "perft",
        "sight-reduction",
        "--position",
        FULL_K1,
        "--depth",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().last(), Some("1642"));
}

#[test]
fn perft_divide_lists_each_move_with_its_count() {
    let o = boardlab(&[
        "perft",
        "sight-reduction",
        "--position",
        FULL_K1,
        "--depth",
        "2",
        "--divide",
    ]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 13, "12 moves and the total");
    let sum: u64 = lines[..12]
        .iter()
        .map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 148);
    assert_eq!(lines[12], "148");
}

#[test]
fn options_change_the_rules() {
    let o = boardlab(&[
        "perft",
        "sight-reduction",
        "--position",
        FULL_K1,
        "--option",
        "removal=pair",
        "-o",
        "enemy-sight=true",
        "--depth",
        "2",
    ]);
    assert_eq!(stdout(&o).lines().last(), Some("497"));
}

#[test]
fn moves_lists_legal_moves_in_order_after_given_moves() {
    let o = boardlab(&["moves", "sight-reduction", "--position", FULL_K1]);
    let out = stdout(&o);
    let first: Vec<&str> = out.lines().collect();
    assert_eq!(first.len(), 12);
    let o = boardlab(&[
        "moves",
        "sight-reduction",
        "--position",
        FULL_K1,
        "--moves",
        first[0],
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).is_empty());
}

#[test]
fn multi_word_moves_work_in_move_lists() {
    let o = boardlab(&[
        "show",
        "sight-reduction",
        "--option",
        "setup=fair",
        "--position",
        "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW w",
        "--moves",
        "swap a1 b1 done color black first white",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Position: WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/WBBW w remove"),
        "{out}"
    );
    assert!(out.contains("white to move (first seat)"), "{out}");
}

#[test]
fn show_draws_coordinates_status_and_position() {
    let o = boardlab(&["show", "sight-reduction", "--position", FULL_K1]);
    let out = stdout(&o);
    assert!(out.contains("    a b c d"));
    assert!(out.contains(" 8 "));
    assert!(out.contains("white to move (first seat)"));
    assert!(out.contains(&format!("Position: {FULL_K1}")));
}

#[test]
fn bad_input_exits_2_naming_what_is_accepted() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["moves", "chess"],
            "unknown game 'chess'; accepted: sight-reduction",
        ),
        (
            &["moves", "sight-reduction", "--option", "sight=diagonal"],
            "accepted: orthogonal, any",
        ),
        (
            &["moves", "sight-reduction", "--option", "colour=red"],
            "unknown option 'colour'",
        ),
        (
            &["moves", "sight-reduction", "--option", "sight"],
            "write KEY=VALUE",
        ),
        (
            &["moves", "sight-reduction", "--moves", "z9"],
            "malformed move 'z9'",
        ),
        (
            &["moves", "sight-reduction", "--position", "WB/4 w"],
            "invalid position",
        ),
        (
            &[
                "perft",
                "sight-reduction",
                "--position",
                FULL_K1,
                "--moves",
                "a8",
                "--depth",
                "1",
            ],
            "illegal move 'a8'",
        ),
    ];
    for (args, expected) in cases {
        let o = boardlab(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn play_handles_commands_bad_input_and_saves_a_record_that_replays() {
    let dir = std::env::temp_dir().join(format!("boardlab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.txt");
    let o = boardlab_with_input(
        &[
            "play",
            "sight-reduction",
            "--position",
            "4/4/4/4/4/4/4/W1WB w",
            "--second",
            "human",
            "--record",
            record.to_str().unwrap(),
        ],
        "help\nmoves\nz9\nd1\nundo\nc1\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("2 legal moves: a1, c1"), "{out}");
    assert!(out.contains("malformed move 'z9'"), "{out}");
    assert!(out.contains("illegal move 'd1'"), "{out}");
    assert!(out.contains("Nothing to undo."), "{out}");
    assert!(out.contains("Game over: white (first seat) wins"), "{out}");
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(
        text.contains("[Result \"white\"]") && text.contains("1. c1"),
        "{text}"
    );

    let o = boardlab(&["replay", record.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("The record is valid."));

    // A broken record names the first bad move.
    std::fs::write(&record, text.replace("1. c1", "1. d1")).unwrap();
    let o = boardlab(&["replay", record.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("move 1 ('d1'): illegal move"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_against_random_resigns_and_end_of_input_stops_cleanly() {
    let o = boardlab_with_input(&["play", "sight-reduction", "--seed", "4"], "resign\n");
    assert!(o.status.success());
    assert!(stdout(&o).contains("The first seat resigns"));
    let o = boardlab_with_input(&["play", "sight-reduction", "--seed", "4"], "");
    assert!(o.status.success());
    assert!(stdout(&o).contains("Input ended; the game is unfinished."));
    let o = boardlab_with_input(&["play", "sight-reduction", "--second", "bogus"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("accepted: human, random"));
}

#[test]
fn random_players_finish_a_game_and_the_json_record_replays() {
    let dir = std::env::temp_dir().join(format!("boardlab-cli-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.json");
    let o = boardlab(&[
        "play",
        "sight-reduction",
        "--option",
        "removal=pair",
        "--first",
        "random",
        "--second",
        "random",
        "--seed",
        "11",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(r["options"]["removal"], "pair");
    assert!(r["result"].is_string());
    let o = boardlab(&["replay", record.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_reports_playouts_plies_perft_and_the_solver() {
    let o = boardlab(&[
        "bench",
        "sight-reduction",
        "--seconds",
        "0.2",
        "--solve-setups",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for key in [
        "random playouts: ",
        "plies: ",
        "perft: ",
        "exact solver, who wins: 5 set-ups (seeds 0-4) in ",
    ] {
        assert!(out.contains(key), "{out}");
    }
    // Only Sight Reduction has the solver line.
    let o = boardlab(&["bench", "opprimo", "--seconds", "0.1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("exact solver"));
    let o = boardlab(&["bench", "sight-reduction", "--seconds", "-1"]);
    assert_eq!(o.status.code(), Some(2));
    // The solver alone, with its CPU time.
    let o = boardlab(&[
        "bench",
        "sight-reduction",
        "--solve-only",
        "--solve-setups",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("random playouts"), "{out}");
    assert!(
        out.contains("exact solver, who wins: 3 set-ups (seeds 0-2) in "),
        "{out}"
    );
    if cfg!(target_os = "linux") {
        assert!(out.contains("(CPU time "), "{out}");
    }
    let o = boardlab(&["bench", "opprimo", "--solve-only"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no exact solver"), "{}", stderr(&o));
}

#[test]
fn arena_reports_the_match_saves_replayable_records_and_shares_openings_within_a_pair() {
    let dir = std::env::temp_dir().join(format!("boardlab-arena-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = boardlab(&[
        "arena",
        "opprimo",
        "--bot",
        "alphabeta:depth=1",
        "--bot",
        "random",
        "--games",
        "4",
        "--threads",
        "2",
        "--seed",
        "3",
        "--opening-plies",
        "3",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("3 random opening plies"), "{out}");
    assert!(out.contains("in 4 games (as first seat"), "{out}");
    assert!(
        out.contains("score: ") && out.contains("Elo difference: "),
        "{out}"
    );
    let moves = |n: u32| -> Vec<String> {
        let path = dir.join(format!("game-{n:05}.txt"));
        let replay = boardlab(&["replay", path.to_str().unwrap()]);
        assert!(replay.status.success(), "{}", stderr(&replay));
        std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .map(str::to_owned)
            .collect()
    };
    let games: Vec<Vec<String>> = (1..=4).map(moves).collect();
    assert_eq!(games[0][..3], games[1][..3], "a pair shares its opening");
    assert_ne!(games[0][..3], games[2][..3], "pairs differ");
    std::fs::remove_dir_all(&dir).unwrap();

    let one = boardlab(&["arena", "opprimo", "--bot", "random"]);
    assert_eq!(one.status.code(), Some(2));
    assert!(
        stderr(&one).contains("give exactly two bots"),
        "{}",
        stderr(&one)
    );
}

/// `boardlab replay FILE --verbose | head -1` used to panic with "failed printing to stdout:
/// Broken pipe". A reader that stops early now ends the command quietly: exit 0, nothing on
/// standard error.
#[test]
fn replay_verbose_into_a_pipe_closed_early_ends_quietly() {
    use std::io::{BufRead, BufReader, Read};
    let dir = std::env::temp_dir().join(format!("boardlab-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("long.txt");
    let o = boardlab_with_input(
        &[
            "play",
            "assideum",
            "--first",
            "random",
            "--second",
            "random",
            "--seed",
            "1",
            "--record",
            record.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let file = record.to_str().unwrap();
    // More than any pipe holds, so the command is still writing when the reader leaves.
    let full = boardlab(&["replay", file, "--verbose"]);
    assert!(full.stdout.len() > 256 * 1024, "{}", full.stdout.len());

    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["replay", file, "--verbose"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("1. "), "{first}");
    // The reader is dropped here: the pipe is closed with most of the output unread.
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}: {err}");
    assert_eq!(err, "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn site_writes_the_app_with_its_engine_and_the_pages_it_reads() {
    let dir = std::env::temp_dir().join(format!("boardlab-site-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = boardlab(&["site", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("wrote "), "{}", stdout(&out));
    for f in [
        "index.html",
        "404.html",
        "app-files.json",
        "engine/boardlab_wasm_bg.wasm",
        "js/engine/worker.js",
        "api/catalog",
        "api/rules/obsidio",
        "api/tutorials/sight-reduction",
    ] {
        assert!(dir.join(f).is_file(), "{f} is missing");
    }
    let list: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("app-files.json")).unwrap()).unwrap();
    assert!(list["files"].as_array().unwrap().len() > 20);
    let catalog: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("api/catalog")).unwrap()).unwrap();
    assert!(catalog["games"].as_array().unwrap().len() >= 4);
    let rules = std::fs::read_to_string(dir.join("api/rules/obsidio")).unwrap();
    assert!(rules.contains("<h"), "the rules page is HTML");
    let _ = std::fs::remove_dir_all(&dir);
    // A folder that cannot be made is an error in words, not a panic.
    let out = boardlab(&["site", "--out", "/proc/no-such/dir"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("cannot make"), "{}", stderr(&out));
}

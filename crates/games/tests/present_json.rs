//! The presentation's JSON does not change unnoticed: for golden positions of every game (and
//! the toy game), `board()`, `interaction()` and the legend, serialised with `serde_json`, are
//! compared byte for byte with the fixture files under `tests/present-json/`.
//!
//! The positions: the start with the default options; random games of three seeds (the seed of
//! the set-up and of the moves chosen) at plies 0, 5, 15 and 40, and where a game ends sooner,
//! its end; and the position of every tutorial step.
//!
//! A change meant to alter what is served rewrites the fixtures with
//! `BOARDLAB_BLESS=1 cargo test -p boardlab-games --test present_json`; the diff then shows
//! every answer that changed.

use boardlab_core::prelude::*;
use boardlab_core::rand::Rng;
use boardlab_core::{Game, Present};
use boardlab_games::{AnyGame, GameKind};
use boardlab_toy::Toy;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The plies of a random game whose positions are kept.
const PLIES: [u32; 4] = [0, 5, 15, 40];
/// The seeds of the random games.
const SEEDS: [u64; 3] = [1, 2, 3];

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("presentation serialises")
}

/// One line per answer: `TAG WHAT JSON`.
fn line(out: &mut String, tag: &str, what: &str, value: &str) {
    writeln!(out, "{tag} {what} {value}").unwrap();
}

/// The board and the interaction of a position, as two lines.
fn position(out: &mut String, tag: &str, board: &str, interaction: &str) {
    line(out, tag, "board", board);
    line(out, tag, "interaction", interaction);
}

/// The golden positions of a game reached by random play, through `play`, which is given the
/// game's seed and calls back with the ply and the board and interaction JSON of each position
/// to keep.
fn random_games(
    out: &mut String,
    mut play: impl FnMut(u64, &mut dyn FnMut(u32, bool, String, String)),
) {
    for seed in SEEDS {
        play(seed, &mut |ply, ended, board, interaction| {
            let tag = if ended {
                format!("seed-{seed}-end-{ply}")
            } else {
                format!("seed-{seed}-ply-{ply}")
            };
            position(out, &tag, &board, &interaction);
        });
    }
}

/// Plays `game` at random from `seed`, reporting the positions at [`PLIES`] and its end.
fn play_any(mut game: AnyGame, seed: u64, keep: &mut dyn FnMut(u32, bool, String, String)) {
    let mut rng = boardlab_core::rng(seed);
    for ply in 0..=PLIES[PLIES.len() - 1] {
        let moves = game.legal_moves();
        if PLIES.contains(&ply) || moves.is_empty() {
            keep(
                ply,
                moves.is_empty() && !PLIES.contains(&ply),
                json(&game.board()),
                json(&game.interaction()),
            );
        }
        if moves.is_empty() {
            break;
        }
        let mv = &moves[rng.random_range(0..moves.len())];
        game.play_text(mv).expect("a legal move plays");
    }
}

/// Every answer of one registered game, in the fixture's order.
fn answers(kind: GameKind) -> String {
    let mut out = String::new();
    let defaults = kind.info().default_options();
    let start = AnyGame::new(kind, &defaults, 0).expect("the default options play");
    position(
        &mut out,
        "start",
        &json(&start.board()),
        &json(&start.interaction()),
    );
    random_games(&mut out, |seed, keep| {
        let game = AnyGame::new(kind, &defaults, seed).expect("the default options play");
        play_any(game, seed, keep);
    });
    line(&mut out, "legend", "items", &json(&kind.legend()));
    let lessons = kind.tutorial().expect("the tutorial holds up");
    for (i, lesson) in lessons.iter().enumerate() {
        let options = kind
            .info()
            .options_from_pairs(&lesson.options)
            .expect("a lesson's options read back");
        let game = AnyGame::from_position(kind, &options, &lesson.position)
            .expect("a lesson's position reads back");
        let tag = format!("tutorial-{}", i + 1);
        position(
            &mut out,
            &tag,
            &json(&game.board()),
            &json(&game.interaction()),
        );
    }
    out
}

/// Every answer of the toy game, in the fixture's order.
fn toy_answers() -> String {
    let mut out = String::new();
    let options = boardlab_toy::options();
    let start = Toy::new(&options, 0).expect("the toy game starts");
    position(
        &mut out,
        "start",
        &json(&start.board()),
        &json(&start.interaction()),
    );
    random_games(&mut out, |seed, keep| {
        let mut game = Toy::new(&options, seed).expect("the toy game starts");
        let mut rng = boardlab_core::rng(seed);
        for ply in 0..=PLIES[PLIES.len() - 1] {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            if PLIES.contains(&ply) || moves.is_empty() {
                let ended = moves.is_empty() && !PLIES.contains(&ply);
                keep(ply, ended, json(&game.board()), json(&game.interaction()));
            }
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).expect("a legal move plays");
        }
    });
    line(&mut out, "legend", "items", &json(&Toy::legend()));
    out
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/present-json")
        .join(format!("{name}.txt"))
}

/// Up to 80 bytes of `text` either side of byte `at`.
fn around(text: &str, at: usize) -> &str {
    let mut from = at.saturating_sub(80);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (at + 80).min(text.len());
    while !text.is_char_boundary(to) {
        to += 1;
    }
    &text[from..to]
}

/// Compares `actual` with the fixture `name`, or writes it under `BOARDLAB_BLESS=1`.
fn check(name: &str, actual: &str) {
    let path = fixture(name);
    if std::env::var_os("BOARDLAB_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (BOARDLAB_BLESS=1 writes it)", path.display()));
    if expected == actual {
        return;
    }
    let mut exp = expected.lines();
    for (n, got) in actual.lines().enumerate() {
        let want = exp.next().unwrap_or("");
        if got != want {
            let at = got
                .bytes()
                .zip(want.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(got.len().min(want.len()));
            panic!(
                "{name}: line {} differs at byte {at}:\n  fixture: …{}…\n  now:     …{}…",
                n + 1,
                around(want, at),
                around(got, at),
            );
        }
    }
    panic!(
        "{name}: the fixture has {} lines, the answers {}",
        expected.lines().count(),
        actual.lines().count()
    );
}

#[test]
fn every_games_presentation_serialises_as_its_fixture() {
    for &kind in GameKind::all() {
        check(kind.name(), &answers(kind));
    }
}

#[test]
fn the_toy_games_presentation_serialises_as_its_fixture() {
    check("toy", &toy_answers());
}

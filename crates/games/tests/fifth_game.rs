//! Adding a game, followed for the toy game (`boardlab-toy`, three in a row): its crate
//! implements the game traits and `boardlab_ai::Capabilities` (with no bot support), and the
//! `toy` feature of this crate adds one line to the real list. That alone makes it a game of
//! every generic interface: chosen by name and listed (the catalog), created, played by text,
//! drawn and played by clicks, its record replayed, the random bot playing it while the other
//! bot specs, level tables, reviews and the learning environments' encoding refuse it clearly.
//! This is the path `docs/architecture.md` describes for a real game.
//!
//! Run with `cargo test -p boardlab-games --features toy --test fifth_game` (`.ci/run` does).

use boardlab_core::{GameRecord, Seat};
use boardlab_games::{AnyGame, GameKind};
use std::sync::atomic::AtomicBool;

#[test]
fn a_fifth_game_is_listed_named_and_played() {
    assert_eq!(GameKind::all().len(), 5);
    assert_eq!(GameKind::all()[4].name(), "toy");
    let kind: GameKind = "toy".parse().unwrap();
    assert_eq!(kind.info().title, "Three in a row");
    assert!(GameKind::names().ends_with("assideum, toy"));
    let mut game = AnyGame::new(kind, &kind.info().default_options(), 0).unwrap();
    assert_eq!(game.legal_moves().len(), 9);
    for mv in ["b2", "a1", "a3", "c1", "b1", "b3", "c2", "a2"] {
        game.play_text(mv).unwrap();
    }
    assert_eq!(game.position_text(), "bw./wbb/wbw b");
    assert!(game.play_text("b2").is_err(), "a taken square is refused");
    let played = game.play_text("C3").unwrap();
    assert_eq!(
        (played.notation.as_str(), played.touched),
        ("c3", vec!["c3".into()])
    );
    assert_eq!(
        game.outcome().unwrap().winner(),
        None,
        "a full board is a draw"
    );
}

#[test]
fn a_fifth_game_is_drawn_and_played_by_clicks() {
    let kind = GameKind::named("toy").unwrap();
    let mut game =
        AnyGame::from_position(kind, &kind.info().default_options(), "bb./ww./... b").unwrap();
    let board = game.board();
    assert_eq!(board.cells.len(), 9);
    assert_eq!(
        board.cell("a3").unwrap().pieces[0].colour,
        boardlab_core::Colour::Black
    );
    let ui = game.interaction();
    let notations: Vec<&str> = ui.moves.iter().map(|m| m.notation.as_str()).collect();
    assert_eq!(notations, game.legal_moves());
    // The click path of a move is the move: the browser sends its notation.
    let c3 = ui
        .moves
        .iter()
        .find(|m| m.paths[0][0].cell == "c3")
        .unwrap();
    game.play_text(&c3.notation).unwrap();
    assert_eq!(game.outcome().unwrap().winner(), Some(Seat::First));
    assert!(game.interaction().moves.is_empty());
}

#[test]
fn a_fifth_game_keeps_records() {
    let kind = GameKind::named("toy").unwrap();
    let mut g = AnyGame::new(kind, &kind.info().default_options(), 3).unwrap();
    let mut record = GameRecord {
        game: kind.name().to_string(),
        options: g.options().to_map(),
        seed: 3,
        ..GameRecord::default()
    };
    for mv in ["a1", "b1", "a2", "b2", "a3"] {
        record.moves.push(g.play_text(mv).unwrap().notation);
    }
    record.set_outcome(g.outcome());
    assert_eq!(g.board().facts[&boardlab_core::present::Fact::Moves], "5");
    let back = GameRecord::from_text(&record.to_text()).unwrap();
    let (end, moves) = kind.replay(&back).unwrap();
    assert_eq!(moves, record.moves);
    assert_eq!(end.position_text(), g.position_text());
    assert_eq!(back.result.as_deref(), Some("black"));
}

#[test]
fn a_fifth_game_without_bot_support_gets_the_random_bot_and_clear_refusals() {
    let kind = GameKind::named("toy").unwrap();
    let game = AnyGame::new(kind, &kind.info().default_options(), 0).unwrap();
    // The catalog: named, described, with an empty tutorial and a legend.
    assert!(kind.tutorial().unwrap().is_empty());
    assert!(
        kind.legend().is_empty(),
        "the toy game draws plain stones and needs no legend"
    );
    // Bot specs and level tables.
    assert!(!kind.has_bots());
    let random = boardlab_ai::BotSpec::Random;
    assert_eq!(kind.resolve(&random), Ok(random.clone()));
    let best = boardlab_ai::choose_move(&*game, &random, 1).unwrap();
    assert!(game.legal_moves().contains(&best));
    for text in ["level:1", "level:10", "best:time=1s", "mcts:iterations=10"] {
        let spec: boardlab_ai::BotSpec = text.parse().unwrap();
        let e = kind.resolve(&spec).and_then(|_| {
            boardlab_ai::analyze(&*game, &spec, 0, &AtomicBool::new(false)).map(|_| ())
        });
        assert_eq!(
            e.unwrap_err().to_string(),
            "the computer players do not support toy yet",
            "{text}"
        );
    }
    // The report picks the random bot; reviews are refused before any work.
    assert_eq!(kind.report_defaults(), None);
    let mut record = GameRecord {
        game: "toy".into(),
        ..GameRecord::default()
    };
    record.moves = vec!["b2".into(), "a1".into()];
    let e = boardlab_games::review_record(
        &record,
        &boardlab_ai::review::ReviewConfig::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "the computer players do not support toy yet");
    // No encoding: the learning environments refuse it, everything else plays it.
    assert!(game.encoding().is_none());
    assert_eq!(game.perft(2), 72);
}

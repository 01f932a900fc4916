//! Adding a game, followed for a toy game (`boardlab_core::toy`, three in a row): one more line
//! in the list given to the registry makes it a game of every generic interface: chosen by name,
//! created, played by text, drawn and played by clicks, its record replayed. This is the path
//! `docs/architecture.md` describes for a real game, whose line goes into
//! `boardlab_games::with_games!`.

mod five {
    boardlab_games::registry! {
        SightReduction => boardlab_sight_reduction::SightReduction,
        Obsidio => boardlab_obsidio::Obsidio,
        Opprimo => boardlab_opprimo::Opprimo,
        Assideum => boardlab_assideum::Assideum,
        Toy => boardlab_core::toy::Toy,
    }
}

use boardlab_core::toy::Toy;
use boardlab_core::{Game, GameRecord, Present, Seat};
use boardlab_core::{Notation, Rules};
use five::{AnyGame, GameKind};

#[test]
fn a_fifth_game_is_listed_named_and_played() {
    assert_eq!(GameKind::ALL.len(), 5);
    assert_eq!(GameKind::ALL[4], GameKind::Toy);
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
    let kind = GameKind::Toy;
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
    let mut g = Toy::new(&boardlab_core::toy::options(), 3).unwrap();
    let mut record = GameRecord::new(&g, 3, None);
    for mv in ["a1", "b1", "a2", "b2", "a3"] {
        let m = g.play_text(mv).unwrap();
        record.moves.push(g.format_move(m));
    }
    record.set_outcome(g.outcome());
    assert_eq!(
        Present::board(&g).facts[&boardlab_core::present::Fact::Moves],
        "5"
    );
    let back = GameRecord::from_text(&record.to_text()).unwrap();
    let (end, _) = back.replay::<Toy>().unwrap();
    assert_eq!(
        boardlab_core::Notation::position_text(&end),
        boardlab_core::Notation::position_text(&g)
    );
    assert_eq!(back.result.as_deref(), Some("black"));
}

//! The dynamic game type: bots through `DynGame` and `DynKind`, and a game without bot
//! support (the toy game) refused clearly where bots are needed.

use boardlab_ai::{analyze, choose_move, kind_of, AiError, BotSpec, DynKind};
use boardlab_games::{AnyGame, GameKind};
use boardlab_toy::Toy;
use std::sync::atomic::AtomicBool;

fn sr(seed: u64) -> AnyGame {
    let kind = GameKind::named("sight-reduction").unwrap();
    AnyGame::new(kind, &kind.info().default_options(), seed).unwrap()
}

#[test]
fn random_bot_plays_legal_moves_reproducibly() {
    let g = sr(1);
    let a = choose_move(&*g, &BotSpec::Random, 5).unwrap();
    assert_eq!(a, choose_move(&*g, &BotSpec::Random, 5).unwrap());
    assert!(g.legal_moves().contains(&a));
}

#[test]
fn every_bot_kind_plays_legal_moves_reproducibly() {
    let g = sr(3);
    for text in [
        "mcts:iterations=2000",
        "mcts:plain,iterations=2000",
        "mcts:iterations=2000,threads=2",
        "alphabeta:depth=3",
        "level:1",
        "level:6",
    ] {
        let spec: BotSpec = text.parse().unwrap();
        let stop = AtomicBool::new(false);
        let a = analyze(&*g, &spec, 9, &stop).unwrap();
        let b = analyze(&*g, &spec, 9, &stop).unwrap();
        assert!(g.legal_moves().contains(&a.best), "{text}: {}", a.best);
        assert_eq!((a.best, a.pv, a.nodes), (b.best, b.pv, b.nodes), "{text}");
    }
}

#[test]
fn finished_games_are_refused() {
    let mut g = sr(2);
    while g.outcome().is_none() {
        let m = g.legal_moves()[0].clone();
        g.play_text(&m).unwrap();
    }
    let e = choose_move(&*g, &BotSpec::Random, 0).unwrap_err();
    assert!(matches!(e, AiError::GameOver(_)), "{e}");
}

#[test]
fn a_dynamic_bot_follows_a_line_and_refuses_a_position_of_another_game() {
    let kind = GameKind::named("opprimo").unwrap();
    let start = AnyGame::new(kind, &kind.info().default_options(), 0).unwrap();
    let mut game = start.clone();
    let first = game.legal_moves()[0].clone();
    game.play_text(&first).unwrap();
    let mut bot = kind
        .new_bot(&"alphabeta:depth=2".parse().unwrap(), 0, None)
        .unwrap();
    bot.follow(&*start, std::slice::from_ref(&first)).unwrap();
    let stop = AtomicBool::new(false);
    let found = bot.search(&*game, &stop).unwrap();
    assert!(game.legal_moves().contains(&found.best), "{}", found.best);
    let e = bot.search(&*sr(0), &stop).unwrap_err();
    assert!(
        e.to_string()
            .contains("a position of sight-reduction given to a bot of opprimo"),
        "{e}"
    );
    assert!(bot.follow(&*start, &["zz".to_string()]).is_err());
}

/// A game without bot support (the toy game): the random bot and its hints-free play work,
/// every other bot is refused with a clear error, and the listed games keep their bots.
#[test]
fn a_game_without_bot_support_is_refused_clearly() {
    let toy: &dyn DynKind = kind_of::<Toy>();
    assert!(!toy.has_bots());
    assert_eq!(toy.report_defaults(), None);
    assert_eq!(
        toy.resolve(&BotSpec::Level(3)),
        Err(AiError::Unsupported("toy".into()))
    );
    assert_eq!(toy.resolve(&BotSpec::Random), Ok(BotSpec::Random));
    assert!(toy.review_spec().is_err());
    assert!(toy.new_bot(&BotSpec::Level(3), 1, None).is_err());
    let game = toy.new_game(&toy.info().default_options(), 0).unwrap();
    let best = choose_move(&*game, &BotSpec::Random, 1).unwrap();
    assert!(game.legal_moves().contains(&best));
    let e = choose_move(&*game, &"mcts:iterations=10".parse().unwrap(), 1).unwrap_err();
    assert_eq!(e.to_string(), "the computer players do not support toy yet");
    assert_eq!(game.puzzle_hint(1000), None);
    assert!(game.encoding().is_none());
    for kind in GameKind::all() {
        assert!(kind.has_bots(), "{kind}");
        assert!(kind.report_defaults().is_some(), "{kind}");
    }
}

#[test]
fn dynamic_games_compare_by_game_and_state() {
    let (a, b) = (sr(1), sr(1));
    assert_eq!(a, b);
    assert_ne!(a, sr(2));
    let toy = kind_of::<Toy>()
        .new_game(&boardlab_toy::options(), 0)
        .unwrap();
    assert!(!a.same(&*toy));
    assert!(toy.same(&*toy.clone()));
}

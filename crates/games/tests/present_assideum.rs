//! assideum's own board (`Present::board`) is exactly the board the server's description gives
//! from the position text, over random games with several option values, after every ply.

#[allow(dead_code)]
#[path = "../../server/src/board.rs"]
mod old;

use boardlab_core::rand::Rng;
use boardlab_core::{Options, Present};
use boardlab_games::{AnyGame, GameKind};

/// The default options, and the Ranger range and quiet-ply limit at their extremes (short
/// quiet limits end games by the draw rule).
fn option_sets() -> Vec<Options> {
    let info = GameKind::Assideum.info();
    let mut sets = vec![info.default_options()];
    for pairs in [
        [("ranger-range", "0"), ("quiet-plies", "100")],
        [("ranger-range", "7"), ("quiet-plies", "100")],
        [("ranger-range", "1"), ("quiet-plies", "12")],
    ] {
        sets.push(info.options_from_pairs(pairs).unwrap());
    }
    sets
}

/// Positions that random games from the opening seldom reach: optional Fighters (one or two
/// on a square, on one or two squares), both colours' flying Fighters, promoted Ved'rin and
/// Ranger fire.
const STARTS: [&str; 8] = [
    boardlab_assideum::START_POSITION,
    "4k3/8/8/3[FF]4/8/2[Pn]1[Pn]3/8/4K3 w 0",
    "4k3/8/8/3F4/3F4/2[Pn]1[Pn]3/8/4K3 w 0",
    "4k3/8/2[ps]1[ps]3/8/3[ff]4/8/8/4K3 b 0",
    "4k3/8/8/3F4/8/2[PnF]1[Pn]3/8/4K3 w 0",
    "4k3/8/8/8/8/3s4/3f4/3[Rn]K3 w 0",
    "4k3/1[V+]6/4[pw]3/2F5/3F4/2[Pn]1[Pe]3/6[v+]1/4K3 w 3",
    "4k3/8/8/8/2[FF]5/2[Pn]1[Pw]3/8/4K3 w 0",
];

#[test]
fn assideum_board_matches_the_old_description() {
    let kind = GameKind::Assideum;
    let mut rng = boardlab_core::rng(7);
    let mut positions = 0;
    let mut sieges = 0;
    for options in option_sets() {
        for (i, start) in STARTS.iter().enumerate() {
            for _game in 0..if i == 0 { 12 } else { 3 } {
                let mut game = AnyGame::from_position(kind, &options, start).unwrap();
                for _ply in 0..300 {
                    let AnyGame::Assideum(g) = &game else {
                        unreachable!()
                    };
                    let new = serde_json::to_value(Present::board(g)).unwrap();
                    let old = serde_json::to_value(old::describe(&game).unwrap()).unwrap();
                    assert_eq!(new, old, "{options}: {}", game.position_text());
                    positions += 1;
                    sieges += usize::from(g.in_siege());
                    let moves = game.legal_moves();
                    let notations: Vec<String> = g
                        .interaction()
                        .moves
                        .into_iter()
                        .map(|m| m.notation)
                        .collect();
                    assert_eq!(notations, moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = &moves[rng.random_range(0..moves.len())];
                    game.play_text(mv).unwrap();
                }
            }
        }
    }
    eprintln!("assideum: {positions} positions compared, {sieges} in siege");
    assert!(positions > 1000 && sieges > 0);
}

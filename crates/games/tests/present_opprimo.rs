//! Opprimo's own board and interaction agree with what the server and the web app compute
//! today: the board is byte for byte the server's old reading of the position text, and each
//! move's clicks, label, kind and touched cells are what `web/js/games/opprimo.js` reads from
//! its notation. Random games under each castle option, checked after every ply.

#[allow(dead_code)]
#[path = "../../server/src/board.rs"]
mod old;

use boardlab_core::present::{Click, Interaction, MoveInput};
use boardlab_core::rand::{Rng, SeedableRng};
use boardlab_core::{Game, Present};
use boardlab_games::{AnyGame, GameKind};

/// The default options and each other castle.
fn option_sets() -> Vec<boardlab_core::Options> {
    let info = GameKind::Opprimo.info();
    vec![
        info.default_options(),
        info.options_from_pairs([("castle", "hex")]).unwrap(),
    ]
}

/// What opprimo.js `parse()` and `lastCells()` make of a move's notation: click paths, label,
/// kind, touched cells; `None` for a button.
type FromNotation = (Vec<Vec<String>>, String, &'static str, Vec<String>);

fn from_notation(mv: &str) -> Option<FromNotation> {
    let two = |text: &str, sep: char| {
        let (a, b) = text.split_once(sep)?;
        Some((a.to_string(), b.to_string()))
    };
    if let Some(t) = mv.strip_prefix("k@") {
        return Some((
            vec![vec![t.to_string()]],
            format!("Place the King on {t}"),
            "move",
            vec![t.to_string()],
        ));
    }
    if let Some(rest) = mv.strip_prefix('k') {
        let (a, b) = two(rest, '-')?;
        return Some((
            vec![vec![a.clone(), b.clone()]],
            format!("King to {b}"),
            "move",
            vec![a, b],
        ));
    }
    if let Some((a, b)) = two(mv, '-') {
        return Some((
            vec![vec![a.clone(), b.clone()]],
            format!("Step to {b}"),
            "move",
            vec![a, b],
        ));
    }
    let (a, b) = two(mv, 'x')?;
    Some((
        vec![vec![a.clone(), b.clone()]],
        format!("Jump to {b}"),
        "capture",
        vec![a, b],
    ))
}

/// The interaction is what opprimo.js and interact.js compute from the legal moves' notation.
fn check_interaction(g: &boardlab_opprimo::Opprimo, i: &Interaction) {
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    assert_eq!(i.moves.len(), legal.len());
    let notations: Vec<String> = legal.iter().map(|&m| g.format_move(m)).collect();
    for ((&mv, notation), input) in legal.iter().zip(&notations).zip(&i.moves) {
        let MoveInput {
            notation: n,
            paths,
            label,
            group,
            kind,
            cells,
            set,
            facing,
        } = input;
        assert_eq!(n, notation);
        assert_eq!(group, &None);
        assert_eq!(set, &None);
        assert_eq!(facing, &None);
        let touched: Vec<String> = g.touched(mv).iter().map(|c| c.to_string()).collect();
        let cell_names: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
        assert_eq!(cell_names, touched);
        match from_notation(notation) {
            Some((p, l, k, c)) => {
                let want: Vec<Vec<Click>> = p
                    .into_iter()
                    .map(|path| path.into_iter().map(Click::on).collect())
                    .collect();
                assert_eq!(paths, &want, "{notation}");
                assert_eq!(label, &l);
                assert_eq!(*kind, k);
                assert_eq!(touched, c);
            }
            None => {
                assert_eq!(notation, "pass");
                assert!(paths.is_empty());
                assert_eq!(label, "Pass (no other move)");
                assert_eq!(*kind, "move");
                assert!(touched.is_empty());
            }
        }
    }
    let placing = notations.iter().any(|m| m.starts_with("k@"));
    let king = notations
        .iter()
        .any(|m| m.starts_with('k') && !m.starts_with("k@"));
    let prompt = if placing {
        "Place your King: click a marked triangle of your castle."
    } else if king {
        "Click a soldier and then a point to step or jump to, or your King and then a triangle."
    } else if notations.iter().any(|m| m != "pass") {
        "Click a soldier and then a point to step or jump to."
    } else {
        ""
    };
    assert_eq!(i.prompt, prompt);
    let mut firsts: Vec<&Click> = Vec::new();
    for input in &i.moves {
        for path in &input.paths {
            if !firsts.contains(&&path[0]) {
                firsts.push(&path[0]);
            }
        }
    }
    let selected: Vec<&Click> = i.selections.iter().map(|s| &s.click).collect();
    assert_eq!(selected, firsts);
    for s in &i.selections {
        let c = s.click.cell.as_ref();
        assert_eq!(s.name, c);
        assert_eq!(s.zones, None);
        let text = if c.ends_with(|ch: char| ch.is_ascii_lowercase()) {
            format!("King on {c}: click a highlighted triangle of the castle. Esc cancels.")
        } else {
            format!(
                "Soldier on {c}: click a highlighted point to step there or jump (a jump \
                 converts the soldier between). Esc cancels."
            )
        };
        assert_eq!(s.text, text);
    }
    assert_eq!(i.refusals.len(), 1);
    assert!(i.refusals[0].cells.is_empty());
    assert_eq!(
        i.refusals[0].text,
        if placing {
            "Place your King first: click a highlighted triangle of your castle."
        } else {
            "No legal move starts at {cell}."
        }
    );
    assert_eq!(i.set_words, None);
}

#[test]
fn opprimo_presents_what_the_server_and_the_browser_did() {
    let mut rng = boardlab_core::Rng::seed_from_u64(7);
    let mut positions = 0;
    let mut finished = 0;
    // What the random games went through: Officers on the board, conversions, passes.
    let (mut officers, mut conversions, mut passes) = (0, 0, 0);
    for options in option_sets() {
        for seed in 0..12u64 {
            let mut game = AnyGame::new(GameKind::Opprimo, &options, seed).unwrap();
            loop {
                let AnyGame::Opprimo(g) = &game else {
                    unreachable!("an Opprimo game")
                };
                let new = serde_json::to_value(g.board()).unwrap();
                let old = serde_json::to_value(old::describe(&game).unwrap()).unwrap();
                assert_eq!(new, old, "{options}: {}", game.position_text());
                assert_eq!(new.to_string(), old.to_string());
                let interaction = g.interaction();
                positions += 1;
                officers += usize::from(new.to_string().contains("\"officer\""));
                let moves = game.legal_moves();
                if moves.is_empty() {
                    assert_eq!(interaction, Interaction::default());
                    finished += 1;
                    break;
                }
                check_interaction(g, &interaction);
                let mv = &moves[rng.random_range(0..moves.len())];
                conversions += usize::from(mv.contains('x'));
                passes += usize::from(mv == "pass");
                game.play_text(mv).unwrap();
            }
        }
    }
    eprintln!(
        "opprimo: {positions} positions compared, {finished} finished games; {officers} with \
         Officers, {conversions} conversions, {passes} passes played"
    );
    assert!(positions > 1000, "only {positions} positions compared");
    assert!(officers > 0 && conversions > 0);
}

#[test]
fn opprimo_positions_from_text_present_as_before() {
    let cases = [
        ("band", "rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy - - y 0"),
        ("band", "3/4/3/4/3/4/3/4/3/4/r2/r3/r2 a2b - y 2"),
        ("band", "3/4/3/4/3/4/3/4/3/4/1r1/2r1/1r1 d1e d11e y 9"),
        ("hex", "3/4/3/4/3/4/3/4/3/4/1r1/2r1/1r1 d1e d11e y 9"),
        ("hex", "YrR/4/1y1/4/3/4/3/4/3/4/1r1/4/rY1 d3c d9e r 120"),
        ("band", "3/4/3/4/3/4/3/4/3/4/3/4/3 b1c b11a y 7"),
    ];
    for (castle, text) in cases {
        let options = GameKind::Opprimo
            .info()
            .options_from_pairs([("castle", castle)])
            .unwrap();
        let game = AnyGame::from_position(GameKind::Opprimo, &options, text).unwrap();
        let AnyGame::Opprimo(g) = &game else {
            unreachable!("an Opprimo game")
        };
        let new = serde_json::to_value(g.board()).unwrap();
        let old = serde_json::to_value(old::describe(&game).unwrap()).unwrap();
        assert_eq!(new, old, "{castle}: {text}");
        assert_eq!(new.to_string(), old.to_string());
        if game.legal_moves().is_empty() {
            assert_eq!(g.interaction(), Interaction::default());
        } else {
            check_interaction(g, &g.interaction());
        }
    }
}

//! Obsidio's `Present` gives exactly what the server's board reader gave (the same JSON), and
//! its interaction what the web app's obsidio.js computed from the notation, over seeded random
//! games for every board size, several supplies and both pie settings.

#[allow(dead_code)]
#[path = "../../server/src/board.rs"]
mod old;

use boardlab_core::present::{Click, Interaction, Refusal};
use boardlab_core::rand::{Rng, SeedableRng};
use boardlab_core::{Game, OptionValues, Options, Present};
use boardlab_games::{AnyGame, GameKind};

/// The default options, and each value of each choice or yes/no option alone (as the server's
/// board test), then token supplies on each size.
fn option_sets() -> Vec<Options> {
    let info = GameKind::Obsidio.info();
    let mut sets = vec![info.default_options()];
    for spec in info.options {
        let values: Vec<&str> = match spec.values {
            OptionValues::Choice { choices } => choices.to_vec(),
            OptionValues::Bool => vec!["true", "false"],
            _ => continue,
        };
        for v in values {
            if v != spec.default {
                if let Ok(o) = info.options_from_pairs([(spec.name, v)]) {
                    sets.push(o);
                }
            }
        }
    }
    for extra in [
        "tokens=3",
        "tokens=12,pie=false",
        "size=7,tokens=8",
        "size=7,tokens=30,pie=false",
        "size=11,tokens=20",
        "size=11,tokens=2,pie=false",
    ] {
        sets.push(GameKind::Obsidio.parse_options(extra).unwrap());
    }
    sets
}

/// What obsidio.js `parse` made of a move: click paths, a claim's targets, the label.
type JsEntry = (Vec<Vec<String>>, Option<Vec<String>>, String);

/// obsidio.js `parse` run on a move's notation; `None` for a button.
fn js_parse(mv: &str) -> Option<JsEntry> {
    let is_square = |s: &str| {
        let b = s.as_bytes();
        b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
    };
    if let Some((a, b)) = mv.split_once(',') {
        if is_square(a) && is_square(b) {
            return Some((
                vec![vec![a.to_string(), b.to_string()]],
                None,
                format!("Place {a} and {b}"),
            ));
        }
    }
    if is_square(mv) {
        return Some((vec![vec![mv.to_string()]], None, format!("Place {mv}")));
    }
    if let Some(rest) = mv.strip_prefix('+') {
        let targets: Vec<String> = rest.split('+').map(str::to_string).collect();
        let label = format!("Claim {}", targets.join(", "));
        return Some((Vec::new(), Some(targets), label));
    }
    None
}

/// obsidio.js `buttonLabel`.
fn js_button(mv: &str) -> String {
    match mv {
        "swap" => "Swap colours (pie rule)".to_string(),
        "pass" => "Pass".to_string(),
        other => other.to_string(),
    }
}

/// obsidio.js `refusal`, read off the board the browser was sent.
fn js_refusal(board: &old::Board, cell: &str) -> String {
    let c = board.cells.iter().find(|c| c.name == cell).unwrap();
    if c.shade == Some("target") {
        format!("{cell} cannot be claimed: a claim needs four of your tokens around an unclaimed target.")
    } else if !c.pieces.is_empty() {
        format!("{cell} is taken.")
    } else {
        format!("{cell} is not a legal placement now: it must see the anchor when any square of its kind does.")
    }
}

/// The refusal the list gives for `cell`: the first entry naming it or naming none.
fn refusal_for(refusals: &[Refusal], cell: &str) -> String {
    let r = refusals
        .iter()
        .find(|r| r.cells.is_empty() || r.cells.iter().any(|c| c == cell))
        .unwrap_or_else(|| panic!("no refusal for {cell}"));
    r.text.replace("{cell}", cell)
}

/// Checks the interaction against obsidio.js run on the notation and the old board.
fn check_interaction(game: &AnyGame, i: &Interaction, board: &old::Board) {
    let legal = game.legal_moves();
    if game.outcome().is_some() {
        assert_eq!(*i, Interaction::default());
        return;
    }
    assert_eq!(i.moves.len(), legal.len());
    let (mut place, mut claim) = (false, false);
    let mut firsts: Vec<String> = Vec::new();
    for (input, mv) in i.moves.iter().zip(&legal) {
        assert_eq!(&input.notation, mv);
        assert_eq!(input.kind, "move");
        assert!(input.group.is_none() && input.facing.is_none() && input.cells.is_empty());
        let paths: Vec<Vec<String>> = input
            .paths
            .iter()
            .map(|p| {
                p.iter()
                    .map(|c| {
                        assert!(c.layer.is_none());
                        c.cell.to_string()
                    })
                    .collect()
            })
            .collect();
        let set: Option<Vec<String>> = input
            .set
            .as_ref()
            .map(|s| s.iter().map(ToString::to_string).collect());
        match js_parse(mv) {
            Some((js_paths, js_set, label)) => {
                assert_eq!((&paths, &set, &input.label), (&js_paths, &js_set, &label));
                if js_set.is_some() {
                    claim = true;
                } else {
                    place = true;
                }
                for p in &js_paths {
                    if !firsts.contains(&p[0]) {
                        firsts.push(p[0].clone());
                    }
                }
            }
            None => {
                assert!(paths.is_empty() && set.is_none(), "{mv}");
                assert_eq!(input.label, js_button(mv));
            }
        }
    }
    let prompt = match (place, claim) {
        (true, true) => "Click a marked square to place a token, or a target to claim it.",
        (false, true) => "Click a target to claim it.",
        (true, false) => {
            "Click a marked square to place a token (on a light square, then a second one)."
        }
        (false, false) => "",
    };
    assert_eq!(i.prompt, prompt);
    let selected: Vec<String> = i
        .selections
        .iter()
        .map(|s| s.click.cell.to_string())
        .collect();
    assert_eq!(selected, firsts);
    for s in &i.selections {
        assert_eq!(s.click, Click::on(s.click.cell.clone()));
        assert_eq!(s.name, s.click.cell);
        assert_eq!(
            s.text,
            format!(
                "First token on {}: click a highlighted square for the second token. Esc cancels.",
                s.click.cell
            )
        );
        assert!(s.zones.is_none());
    }
    for c in &board.cells {
        assert_eq!(
            refusal_for(&i.refusals, &c.name),
            js_refusal(board, &c.name)
        );
    }
    assert_eq!(i.set_words.is_some(), claim);
}

#[test]
fn obsidio_present_matches_the_old_board_and_the_web_adapter() {
    let mut rng = boardlab_core::Rng::seed_from_u64(7);
    let mut positions = 0;
    let mut claims_seen = 0;
    let mut finished = 0;
    for options in option_sets() {
        for seed in 0..16u64 {
            let mut game = AnyGame::new(GameKind::Obsidio, &options, seed).unwrap();
            for _ply in 0..600 {
                let AnyGame::Obsidio(g) = &game else {
                    unreachable!()
                };
                let before = old::describe(&game)
                    .unwrap_or_else(|| panic!("{options}: {}", game.position_text()));
                let now = g.board();
                assert_eq!(
                    serde_json::to_value(&now).unwrap(),
                    serde_json::to_value(&before).unwrap(),
                    "{options}: {}",
                    game.position_text()
                );
                check_interaction(&game, &g.interaction(), &before);
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                for &mv in &moves {
                    assert!(g.touched(mv).is_empty());
                }
                positions += 1;
                if moves.is_empty() {
                    finished += 1;
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                if matches!(mv, boardlab_obsidio::Move::Claim { .. }) {
                    claims_seen += 1;
                }
                let text = g.format_move(mv);
                game.play_text(&text).unwrap();
            }
        }
    }
    eprintln!("obsidio: {positions} positions compared, {claims_seen} claims played, {finished} games finished");
    assert!(positions > 4000 && claims_seen > 200 && finished > 100);
}

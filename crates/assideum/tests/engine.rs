//! The fast engine against the reference perft counts and move lists, the plain reference
//! engine, and the conformance suite.

mod common;

use boardlab_assideum::Assideum;
use boardlab_core::perft::{check_cases, perft, read_cases};
use boardlab_core::testkit::{compare_with_reference, conformance, reference_perft};
use boardlab_core::{Game, Options};
use std::collections::BTreeSet;

const PERFT: &str = include_str!("perft/reference.txt");
const DEPTH1: &str = include_str!("perft/depth1_moves.txt");

fn options(text: &str) -> Options {
    Assideum::info().parse_options(text).unwrap()
}

fn node_limit() -> u64 {
    std::env::var("BOARDLAB_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000_000)
}

#[test]
fn perft_matches_reference_counts() {
    let checked = check_cases::<Assideum>(PERFT, node_limit());
    assert_eq!(checked, 4);
}

/// The reference counter's plain notation mapped to ours: ours is the same shape in lower
/// case (`Rd1*d4G` → `rd1*d4g`, `b5-a4>N{e6}` → `b5-a4>n{e6}`, `Fe4xd5` → `fe4xd5`).
fn from_reference_notation(text: &str) -> String {
    text.to_ascii_lowercase()
}

#[test]
fn depth1_move_sets_match_the_reference_lists_exactly() {
    let cases = read_cases(PERFT).unwrap();
    let mut lists: Vec<(String, Vec<String>)> = Vec::new();
    for line in DEPTH1.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix("case ") {
            lists.push((name.to_string(), Vec::new()));
        } else {
            lists.last_mut().unwrap().1.push(line.to_string());
        }
    }
    assert_eq!(lists.len(), 2);
    for (name, reference) in lists {
        let case = cases.iter().find(|c| c.name == name).unwrap();
        let game = Assideum::from_position(&options(""), case.position.as_deref().unwrap()).unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let ours: BTreeSet<String> = moves.iter().map(|m| game.format_move(*m)).collect();
        assert_eq!(ours.len(), moves.len(), "{name}: duplicate move texts");
        // Semantically: every reference move parses (our parser is case-insensitive) to one of
        // our legal moves, and the sets coincide.
        let mut parsed = BTreeSet::new();
        for r in &reference {
            let mv = game
                .parse_move(r)
                .unwrap_or_else(|e| panic!("{name}: reference move {r} does not parse: {e}"));
            assert!(game.is_legal(mv), "{name}: reference move {r} is not legal here");
            assert_eq!(game.format_move(mv), from_reference_notation(r));
            parsed.insert(game.format_move(mv));
        }
        let theirs: BTreeSet<String> = reference.iter().map(|r| from_reference_notation(r)).collect();
        let only_ours: Vec<_> = ours.difference(&theirs).collect();
        let only_theirs: Vec<_> = theirs.difference(&ours).collect();
        assert!(
            only_ours.is_empty() && only_theirs.is_empty(),
            "{name}: only ours {only_ours:?}; only reference {only_theirs:?}"
        );
        assert_eq!(parsed, ours);
    }
}

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
        let game =
            Assideum::from_position(&options(""), case.position.as_deref().unwrap()).unwrap();
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
            assert!(
                game.is_legal(mv),
                "{name}: reference move {r} is not legal here"
            );
            assert_eq!(game.format_move(mv), from_reference_notation(r));
            parsed.insert(game.format_move(mv));
        }
        let theirs: BTreeSet<String> = reference
            .iter()
            .map(|r| from_reference_notation(r))
            .collect();
        let only_ours: Vec<_> = ours.difference(&theirs).collect();
        let only_theirs: Vec<_> = theirs.difference(&ours).collect();
        assert!(
            only_ours.is_empty() && only_theirs.is_empty(),
            "{name}: only ours {only_ours:?}; only reference {only_theirs:?}"
        );
        assert_eq!(parsed, ours);
    }
}

#[test]
fn reference_engine_matches_reference_counts() {
    for case in read_cases(PERFT).unwrap() {
        let opts = options(&case.options);
        let game =
            boardlab_core::setup::<Assideum>(&opts, 0, case.position.as_deref(), &[]).unwrap();
        let r = common::reference_for(&game);
        for (depth, expected) in case.counts {
            assert_eq!(
                reference_perft(&r, depth),
                expected,
                "{} depth {depth}",
                case.name
            );
        }
    }
}

/// Seeds per option set for the reference comparisons (`BOARDLAB_REFERENCE_GAMES`, default 3).
fn reference_games() -> u64 {
    std::env::var("BOARDLAB_REFERENCE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// Every option value that changes the rules, each varied alone.
fn option_sets() -> Vec<Options> {
    [
        "default",
        "ranger-range=0",
        "ranger-range=1",
        "ranger-range=2",
        "ranger-range=4",
        "ranger-range=7",
        "quiet-plies=1",
        "quiet-plies=12",
        "ranger-range=5,quiet-plies=40",
    ]
    .iter()
    .map(|t| options(t))
    .collect()
}

#[test]
fn fast_and_reference_agree_on_seeded_playouts_for_every_option_set() {
    for opts in option_sets() {
        for seed in 0..reference_games() {
            let game = Assideum::new(&opts, seed).unwrap();
            let r = common::reference_for(&game);
            compare_with_reference(game, r, seed, 120);
        }
    }
}

#[test]
fn fast_and_reference_agree_to_the_end_of_whole_games() {
    let opts = options("default");
    for seed in 100..100 + reference_games() {
        let game = Assideum::new(&opts, seed).unwrap();
        let r = common::reference_for(&game);
        compare_with_reference(game, r, seed, 2000);
    }
}

/// Positions reached by seeded random play, then perft 2 in both engines.
#[test]
fn fast_and_reference_agree_on_perft_from_random_positions() {
    use boardlab_core::rand::Rng;
    let opts = options("default");
    let mut rng = boardlab_core::rng(99);
    let mut buf = Vec::new();
    let mut checked = 0;
    for _ in 0..reference_games() * 4 {
        let mut g = Assideum::new(&opts, 0).unwrap();
        let plies = rng.random_range(10..160);
        for _ in 0..plies {
            match g.random_move(&mut rng, &mut buf) {
                Some(m) => g.play_unchecked(m),
                None => break,
            }
        }
        let fresh = Assideum::from_position(&opts, &g.position_text()).unwrap();
        let r = common::reference_for(&fresh);
        assert_eq!(
            perft(&fresh, 2),
            reference_perft(&r, 2),
            "{}",
            fresh.position_text()
        );
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn conformance_suite() {
    for opts in option_sets() {
        conformance::<Assideum>(std::slice::from_ref(&opts), 2, 60);
    }
}

#[test]
fn conformance_suite_in_long_games() {
    // Long enough to reach sieges, captures of Portals and draws.
    conformance::<Assideum>(&[options("quiet-plies=30")], 3, 400);
}

//! The fast engine against the reference perft counts, against the plain reference engine,
//! and through the conformance suite; the fast random move and playout against the provided
//! ones; parsers against arbitrary text.

mod common;

use boardlab_core::perft::{check_cases, perft, read_cases};
use boardlab_core::testkit::{compare_with_reference, conformance, reference_perft, Reference};
use boardlab_core::{Game, Options};
use boardlab_opprimo::{parse_point, parse_triangle, Move, Opprimo, Setup, RED, YELLOW};
use common::Ref;
use proptest::prelude::*;

const PERFT: &str = include_str!("perft/reference.txt");

fn options(text: &str) -> Options {
    Opprimo::info().parse_options(text).unwrap()
}

fn max_plies(opts: &Options) -> u32 {
    opts.get_int("max-plies").unwrap() as u32
}

fn reference_for(opts: &Options) -> Ref {
    Ref::new(opts.get("castle") == "hex", max_plies(opts))
}

fn node_limit() -> u64 {
    std::env::var("BOARDLAB_PERFT_MAX_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000_000)
}

#[test]
fn perft_matches_reference_counts() {
    let checked = check_cases::<Opprimo>(PERFT, node_limit());
    if node_limit() >= 31_684 {
        assert_eq!(checked, 10);
    }
}

#[test]
fn reference_engine_matches_reference_counts() {
    for case in read_cases(PERFT).unwrap() {
        let mut r = reference_for(&options(&case.options));
        for m in &case.moves {
            let m = m.to_ascii_lowercase();
            assert!(r.legal_moves().contains(&m), "{}: {m} not legal", case.name);
            r.play(&m);
        }
        for (depth, expected) in case.counts {
            if expected > node_limit() {
                continue;
            }
            assert_eq!(
                reference_perft(&r, depth),
                expected,
                "{} depth {depth}",
                case.name
            );
        }
    }
}

#[test]
fn fast_and_reference_agree_on_seeded_playouts() {
    for text in [
        "castle=band",
        "castle=hex",
        "castle=band,max-plies=60",
        "castle=hex,max-plies=7",
    ] {
        let opts = options(text);
        for seed in 0..30 {
            let game = Opprimo::new(&opts, seed).unwrap();
            compare_with_reference(game, reference_for(&opts), seed, 1_000);
        }
    }
}

/// Plays `plies` seeded random moves in both engines.
fn random_prefix(opts: &Options, seed: u64, plies: u32) -> (Opprimo, Ref) {
    let mut g = Opprimo::new(opts, 0).unwrap();
    let mut r = reference_for(opts);
    let mut rng = boardlab_core::rng(seed);
    let mut buf = Vec::new();
    for _ in 0..plies {
        let Some(mv) = g.random_move(&mut rng, &mut buf) else {
            break;
        };
        r.play(&g.format_move(mv));
        g.play_unchecked(mv);
    }
    (g, r)
}

#[test]
fn fast_and_reference_agree_on_perft_from_random_positions() {
    for text in ["castle=band", "castle=hex"] {
        let opts = options(text);
        for seed in 0..16 {
            let (g, r) = random_prefix(&opts, seed, 20 + 9 * seed as u32);
            assert_eq!(
                perft(&g, 3),
                reference_perft(&r, 3),
                "{text} seed {seed}: {}",
                g.position_text()
            );
        }
    }
}

/// Sparse positions (a few soldiers, Officers, Kings anywhere in their castles, either side to
/// move), where repetitions and passes are common; those that are not valid states are skipped.
fn sparse_position(opts: &Options, seed: u64) -> Option<Opprimo> {
    use boardlab_core::rand::Rng;
    use boardlab_opprimo::board::{castle_set, Castle, TRIANGLES};
    let mut rng = boardlab_core::rng(seed);
    let castle = if opts.get("castle") == "hex" {
        Castle::Hex
    } else {
        Castle::Band
    };
    let mut setup = Setup::empty();
    for side in [YELLOW, RED] {
        for _ in 0..rng.random_range(0..6) {
            setup.put(rng.random_range(0..45), side, rng.random_bool(0.5));
        }
        if rng.random_bool(0.9) {
            let castle = castle_set(castle, side);
            let choices: Vec<u8> = (0..TRIANGLES as u8)
                .filter(|&t| castle >> t & 1 == 1)
                .collect();
            setup.kings[side.index()] = Some(choices[rng.random_range(0..choices.len())]);
        }
    }
    if castle == Castle::Band && seed % 4 == 0 {
        // Yellow's King in a corner of the band, its only exit trapped: Yellow may have to pass.
        setup.kings[YELLOW.index()] = parse_triangle("a2b");
        for p in ["b1", "b3", "a2"] {
            setup.put(parse_point(p).unwrap(), RED, true);
        }
        setup.clear(parse_point("a4").unwrap());
    }
    setup.to_move = if rng.random_range(0..2usize) == 0 {
        YELLOW
    } else {
        RED
    };
    Opprimo::from_setup(opts, &setup).ok()
}

#[test]
fn fast_and_reference_agree_from_sparse_positions() {
    for text in ["castle=band", "castle=hex", "castle=band,max-plies=40"] {
        let opts = options(text);
        let mut compared = 0;
        for seed in 0..120 {
            let Some(game) = sparse_position(&opts, seed) else {
                continue;
            };
            let r = Ref::from_text(
                &game.position_text(),
                text.contains("hex"),
                max_plies(&opts),
            );
            assert_eq!(
                reference_perft(&r, 3),
                perft(&game, 3),
                "{}",
                game.position_text()
            );
            compare_with_reference(game, r, seed, 1_000);
            compared += 1;
        }
        assert!(
            compared > 60,
            "{text}: only {compared} valid sparse positions"
        );
    }
}

#[test]
fn compared_games_reach_every_kind_of_ending_and_move() {
    // The comparisons above only mean something if their games contain promotions,
    // conversions, backward Officer moves, passes and each kind of ending.
    let opts = options("default");
    let mut seen = std::collections::BTreeMap::new();
    let mut count = |what: &'static str| *seen.entry(what).or_insert(0) += 1;
    for seed in 0..120 {
        for mut g in [Opprimo::new(&opts, seed).ok(), sparse_position(&opts, seed)]
            .into_iter()
            .flatten()
        {
            let mut rng = boardlab_core::rng(seed);
            let mut buf = Vec::new();
            while let Some(mv) = g.random_move(&mut rng, &mut buf) {
                match mv {
                    Move::Convert(..) => count("conversion"),
                    Move::Pass => count("pass"),
                    Move::Step(a, b) if (b < a) == (g.side_to_move() == YELLOW) => {
                        count("backward step")
                    }
                    _ => {}
                }
                g.play_unchecked(mv);
                if g.officers() != 0 {
                    count("officer");
                }
            }
            count(g.outcome().unwrap().reason());
        }
    }
    for what in [
        "conversion",
        "pass",
        "backward step",
        "officer",
        "the enemy King is trapped",
        "the same position for the third time",
        "max-plies reached",
    ] {
        assert!(seen.contains_key(what), "no '{what}' in {seen:?}");
    }
}

#[test]
fn random_move_and_playout_match_the_provided_methods() {
    for text in ["castle=band", "castle=hex", "max-plies=50"] {
        let opts = options(text);
        for seed in 0..40 {
            // The provided methods: pick uniformly from the legal-move list.
            let mut slow = Opprimo::new(&opts, 0).unwrap();
            let mut rng = boardlab_core::rng(seed);
            let mut buf = Vec::new();
            let mut n = 0;
            loop {
                slow.legal_moves(&mut buf);
                if buf.is_empty() {
                    break;
                }
                let mv = buf[boardlab_core::rand::Rng::random_range(&mut rng, 0..buf.len())];
                slow.play_unchecked(mv);
                n += 1;
            }
            let mut fast = Opprimo::new(&opts, 0).unwrap();
            let mut rng = boardlab_core::rng(seed);
            assert_eq!(fast.playout(&mut rng), n, "{text} seed {seed}");
            assert_eq!(fast, slow, "{text} seed {seed}");
            assert_eq!(fast.hash(), fast.hash_from_scratch());
            assert_eq!(fast.outcome(), slow.outcome());

            // random_move draws the same move as indexing the list.
            let mut g = Opprimo::new(&opts, 0).unwrap();
            let (mut a, mut b) = (boardlab_core::rng(seed), boardlab_core::rng(seed));
            let mut buf = Vec::new();
            for _ in 0..60 {
                g.legal_moves(&mut buf);
                let expected = (!buf.is_empty())
                    .then(|| buf[boardlab_core::rand::Rng::random_range(&mut a, 0..buf.len())]);
                let got = g.random_move(&mut b, &mut Vec::new());
                assert_eq!(got, expected, "{text} seed {seed} at {}", g.position_text());
                let Some(mv) = got else { break };
                g.play_unchecked(mv);
            }
        }
    }
}

#[test]
fn playout_from_a_game_in_progress_keeps_its_history() {
    // Repetitions before the playout starts count: shuffle the Kings twice, then play out.
    let opts = options("default");
    let mut g = Opprimo::new(&opts, 0).unwrap();
    for m in "k@b1c k@f11e kb1c-b1a kf11e-f11g kb1a-b1c kf11g-f11e kb1c-b1a kf11e-f11g kb1a-b1c"
        .split(' ')
    {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.occurrences(), 2);
    let mut a = g.clone();
    a.play_text("kf11g-f11e").unwrap();
    assert!(a.outcome().is_some());
    for seed in 0..20 {
        let mut fast = g.clone();
        let mut slow = g.clone();
        let (mut r1, mut r2) = (boardlab_core::rng(seed), boardlab_core::rng(seed));
        let n = fast.playout(&mut r1);
        let mut buf = Vec::new();
        let mut m = 0;
        while let Some(mv) = slow.random_move(&mut r2, &mut buf) {
            slow.play_unchecked(mv);
            m += 1;
        }
        assert_eq!((n, &fast), (m, &slow));
    }
}

#[test]
fn conformance_suite() {
    let sets: Vec<Options> = [
        "castle=band",
        "castle=hex",
        "castle=band,max-plies=30",
        "castle=hex,max-plies=5",
    ]
    .iter()
    .map(|t| options(t))
    .collect();
    conformance::<Opprimo>(&sets, 5, 400);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parse_move_never_panics(text in "\\PC{0,12}") {
        let g = Opprimo::new(&options("default"), 0).unwrap();
        if let Ok(mv) = g.parse_move(&text) {
            // Whatever parses formats back to text that parses to the same move.
            prop_assert_eq!(g.parse_move(&g.format_move(mv)), Ok(mv));
            let mut h = g.clone();
            let _ = h.play(mv);
        }
    }

    #[test]
    fn move_like_text_never_panics(text in "[kK]?[@a-hx0-9-]{1,9}") {
        let mut g = Opprimo::new(&options("default"), 0).unwrap();
        g.play_text("k@b1c").unwrap();
        let _ = g.play_text(&text);
        let _ = g.why_illegal(g.parse_move(&text).unwrap_or(Move::Pass));
    }

    #[test]
    fn from_position_never_panics(text in "\\PC{0,80}") {
        let _ = Opprimo::from_position(&options("default"), &text);
    }

    #[test]
    fn position_like_text_never_panics(
        ranks in proptest::collection::vec("[yYrR.1-5x]{0,5}", 0..15),
        kings in "[-a-g0-9]{1,4} [-a-g0-9]{1,4}",
        tail in "[yrx]? ?[0-9]{0,4}",
    ) {
        let text = format!("{} {kings} {tail}", ranks.join("/"));
        if let Ok(g) = Opprimo::from_position(&options("default"), &text) {
            let back = Opprimo::from_position(&options("default"), &g.position_text()).unwrap();
            prop_assert_eq!(back.position_text(), g.position_text());
        }
    }
}

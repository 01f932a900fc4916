//! Opprimo's engine checks beyond the engine suite (a module of `engine.rs`, so that they run
//! alongside it): the reference engine from sparse positions (a few pieces, repetitions and
//! passes), the endings and kinds of move the compared games reach, and the fast random move and
//! playout against the provided ones.

use crate::common::Ref;
use boardlab_core::perft::perft;
use boardlab_core::testkit::{compare_with_reference, reference_perft};
use boardlab_core::{Audit, Notation, Rules};
use boardlab_core::{Game, Options};
use boardlab_opprimo::{parse_point, parse_triangle, Move, Opprimo, Setup, RED, YELLOW};

fn options(text: &str) -> Options {
    Opprimo::info().parse_options(text).unwrap()
}

fn max_plies(opts: &Options) -> u32 {
    opts.get_int("max-plies").unwrap() as u32
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
    Opprimo::from_setup(opts, setup).ok()
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

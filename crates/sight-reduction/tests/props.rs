//! Property tests: `play` accepts exactly the listed moves and leaves the game untouched when
//! it refuses one; no text makes the parsers panic.

use boardlab_core::{Colour, Game};
use boardlab_core::{Notation, Rules as _};
use boardlab_sight_reduction::{Move, SightReduction};
use proptest::prelude::*;

fn any_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        (0u8..32).prop_map(Move::Remove),
        (0u8..32, 0u8..32).prop_map(|(a, b)| Move::Pair(a.min(b), a.max(b))),
        (0u8..32, 0u8..32).prop_map(|(a, b)| Move::Swap(a.min(b), a.max(b))),
        Just(Move::Done),
        prop_oneof![Just(Colour::White), Just(Colour::Black)].prop_map(Move::ChooseColour),
        prop_oneof![Just(Colour::White), Just(Colour::Black)].prop_map(Move::ChooseFirst),
        (0u8..32).prop_map(Move::Place),
    ]
}

const OPTION_SETS: &[&str] = &[
    "default",
    "removal=pair",
    "sight=any,enemy-sight=true",
    "sight=any,removal=pair,enemy-sight=true",
    "setup=fair",
    "setup=deterministic",
    "mode=solitaire,removal=pair",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn play_accepts_exactly_the_legal_moves(
        opt in 0..OPTION_SETS.len(),
        seed in 0u64..1000,
        prefix in 0usize..40,
        candidates in prop::collection::vec(any_move(), 1..40),
    ) {
        let options = SightReduction::info().parse_options(OPTION_SETS[opt]).unwrap();
        let mut game = SightReduction::new(&options, seed).unwrap();
        let mut rng = boardlab_core::rng(seed);
        let mut buf = Vec::new();
        for _ in 0..prefix {
            match game.random_move(&mut rng, &mut buf) {
                Some(m) => game.play(m).unwrap(),
                None => break,
            }
        }
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        for mv in candidates {
            let mut g = game.clone();
            let result = g.play(mv);
            if legal.contains(&mv) {
                prop_assert!(result.is_ok());
            } else {
                prop_assert!(result.is_err(), "accepted {:?}", mv);
                prop_assert_eq!(&g, &game);
            }
        }
    }

    #[test]
    fn parsers_never_panic(text in ".{0,60}", words in "[a-zA-Z0-9@+/ -]{0,60}") {
        let options = SightReduction::info().default_options();
        let game = SightReduction::new(&options, 0).unwrap();
        let _ = game.parse_move(&text);
        let _ = game.parse_move(&words);
        let _ = SightReduction::from_position(&options, &text);
        let _ = SightReduction::from_position(&options, &words);
        let fair = SightReduction::info().parse_options("setup=fair").unwrap();
        let _ = SightReduction::from_position(&fair, &words);
    }

    #[test]
    fn position_texts_of_random_boards_round_trip(white in any::<u32>(), black in any::<u32>(), side in 0..2usize) {
        let black = black & !white;
        let mut text = String::new();
        for rank in (0..8).rev() {
            if rank != 7 { text.push('/'); }
            for file in 0..4 {
                let sq = rank * 4 + file;
                text.push(if white >> sq & 1 == 1 { 'W' } else if black >> sq & 1 == 1 { 'B' } else { '1' });
            }
        }
        text.push_str(if side == 0 { " w" } else { " b" });
        let options = SightReduction::info().default_options();
        let g = SightReduction::from_position(&options, &text).unwrap();
        let again = SightReduction::from_position(&options, &g.position_text()).unwrap();
        prop_assert_eq!(g, again);
    }
}

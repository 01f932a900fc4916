//! Property tests: `play` accepts exactly the listed moves and leaves the game untouched when
//! it refuses one; no text makes the parsers panic; position texts round-trip.

use boardlab_core::Game;
use boardlab_core::{Audit, Notation, Rules};
use boardlab_obsidio::{Move, Obsidio};
use proptest::prelude::*;

/// Any move value, well formed or not (squares beyond the board, wrong kinds, bad claims).
fn any_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        (0u8..130).prop_map(Move::Place),
        (0u8..130, 0u8..130).prop_map(|(a, b)| Move::PlaceTwo(a, b)),
        (any::<u32>(), 0u8..40).prop_map(|(targets, last)| Move::Claim { targets, last }),
        (0u32..1 << 9, 0u8..9).prop_map(|(t, last)| Move::Claim {
            targets: t | 1 << last,
            last
        }),
        Just(Move::Swap),
        Just(Move::Pass),
    ]
}

const OPTION_SETS: &[&str] = &[
    "size=7",
    "size=7,tokens=4,pie=false",
    "size=9",
    "size=9,tokens=9",
    "size=11",
    "size=11,tokens=3",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn play_accepts_exactly_the_legal_moves(
        opt in 0..OPTION_SETS.len(),
        seed in 0u64..1000,
        prefix in 0usize..60,
        candidates in prop::collection::vec(any_move(), 1..40),
    ) {
        let options = Obsidio::info().parse_options(OPTION_SETS[opt]).unwrap();
        let mut game = Obsidio::new(&options, seed).unwrap();
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
        for mv in candidates.into_iter().chain(legal.iter().copied().take(5)) {
            let mut g = game.clone();
            let text = g.format_move(mv);
            let result = g.play(mv);
            if legal.contains(&mv) {
                prop_assert!(result.is_ok(), "refused {}", text);
            } else {
                prop_assert!(result.is_err(), "accepted {}", text);
                prop_assert_eq!(&g, &game);
            }
        }
    }

    #[test]
    fn parsers_never_panic(text in ".{0,80}", words in "[a-kA-K0-9+,/ .=bwBW-]{0,90}") {
        for size in ["7", "9", "11"] {
            let options = Obsidio::info().parse_options(&format!("size={size}")).unwrap();
            let game = Obsidio::new(&options, 0).unwrap();
            let _ = game.parse_move(&text);
            let _ = game.parse_move(&words);
            let _ = Obsidio::from_position(&options, &text);
            let _ = Obsidio::from_position(&options, &words);
        }
    }

    #[test]
    fn random_boards_read_back_or_are_refused_with_reasons(
        cells in prop::collection::vec(0u8..4, 49),
        side in 0..2usize,
        items in prop::collection::vec(0usize..12, 0..6),
    ) {
        // A 7×7 board of random cells (empty, b, w, or the square's own empty sign).
        let mut rows = Vec::new();
        for r in (0..7u8).rev() {
            let row: String = (0..7u8)
                .map(|f| {
                    let target = f % 2 == 1 && r % 2 == 1;
                    match cells[(r * 7 + f) as usize] {
                        1 => 'b',
                        2 => 'W',
                        _ if target => '+',
                        _ => '.',
                    }
                })
                .collect();
            rows.push(row);
        }
        const ITEMS: [&str; 12] = [
            "anchor=c3", "anchor=d4", "anchor=-", "swap=closed", "swap=offer", "passes=1",
            "passes=2", "claimer=b", "claimer=w", "last=c3/-", "supply=-", "swap=swapped",
        ];
        let mut text = format!("{} {}", rows.join("/"), ["b", "w"][side]);
        for &i in &items {
            text.push(' ');
            text.push_str(ITEMS[i]);
        }
        let options = Obsidio::info().parse_options("size=7").unwrap();
        match Obsidio::from_position(&options, &text) {
            Ok(game) => {
                let again = Obsidio::from_position(&options, &game.position_text()).unwrap();
                prop_assert_eq!(&again, &game);
                prop_assert_eq!(game.hash(), game.hash_from_scratch());
                let mut moves = Vec::new();
                game.legal_moves(&mut moves);
                prop_assert_eq!(moves.is_empty(), game.outcome().is_some());
                let _ = game.diagram();
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

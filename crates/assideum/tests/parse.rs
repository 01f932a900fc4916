//! Arbitrary text given to the move and position parsers never panics; every parsed move
//! prints back to text that parses to the same move.

use boardlab_assideum::Assideum;
use boardlab_core::Game;
use boardlab_core::{Audit, Notation, Rules};
use proptest::prelude::*;

fn game() -> Assideum {
    Assideum::new(&Assideum::info().default_options(), 0).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parse_move_never_panics(text in "\\PC{0,24}") {
        let g = game();
        if let Ok(mv) = g.parse_move(&text) {
            let canon = g.format_move(mv);
            prop_assert_eq!(g.parse_move(&canon), Ok(mv));
            // Playing it is either legal or refused without a change.
            let mut h = g.clone();
            if h.play(mv).is_err() {
                prop_assert_eq!(&h, &g);
            }
        }
    }

    #[test]
    fn move_like_text_never_panics(text in "[fFrR]?[a-j][0-9][-x*>]?[a-j]?[0-9]?[>nesw]{0,2}[fg]?(\\{[a-i][0-9](:[0-3])?(,[a-i][0-9](:[0-3])?){0,2}\\}?)?") {
        let g = game();
        let _ = g.parse_move(&text);
    }

    /// Carry choices, counted or not, read where two Fighters share a square both zones cover:
    /// the canonical text reads back to the same move, and a played move keeps the hash right.
    #[test]
    fn carry_text_round_trips(text in "[c-e]3-[b-f][2-4](>[nesw])?\\{[c-e][4-6](:[0-3])?(,[c-e][4-6](:[0-3])?){0,2}\\}") {
        let g = Assideum::from_position(
            &Assideum::info().default_options(),
            "7k/8/8/3[FF]4/8/2[Pn]1[Pn]3/8/4K3 w 0",
        )
        .unwrap();
        if let Ok(mv) = g.parse_move(&text) {
            let canon = g.format_move(mv);
            prop_assert_eq!(g.parse_move(&canon), Ok(mv));
            let mut h = g.clone();
            if h.play(mv).is_ok() {
                prop_assert_eq!(h.hash(), h.hash_from_scratch());
                prop_assert!(!canon.contains(":2"), "{}", canon);
            }
        }
    }

    #[test]
    fn from_position_never_panics(text in "\\PC{0,80}") {
        let _ = Assideum::from_position(&Assideum::info().default_options(), &text);
    }

    #[test]
    fn position_like_text_never_panics(
        ranks in proptest::collection::vec("([1-8]|[KVSCkvsc]|\\[[KVSCPRkvscpr]?[nesw+]?[Ff]{0,3}\\]){0,9}", 0..10),
        side in "[wbx]",
        quiet in "[0-9]{0,4}",
    ) {
        let text = format!("{} {side} {quiet}", ranks.join("/"));
        if let Ok(g) = Assideum::from_position(&Assideum::info().default_options(), &text) {
            let again = Assideum::from_position(&g.options(), &g.position_text()).unwrap();
            prop_assert_eq!(again.position_text(), g.position_text());
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let _ = g.outcome();
            let _ = g.diagram();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Arbitrary (mostly illegal) moves given to `play_unchecked` never panic, and the kept
    /// hash stays equal to the recomputed one.
    #[test]
    fn arbitrary_move_sequences_never_panic(
        moves in proptest::collection::vec("[fr]?[a-h][1-8][-x*>][a-h][1-8][>nesw]?[fg]?", 0..40),
        legal_first in 0usize..30,
    ) {
        let mut g = game();
        let mut buf = Vec::new();
        let mut rng = boardlab_core::rng(legal_first as u64);
        for _ in 0..legal_first {
            if let Some(m) = g.random_move(&mut rng, &mut buf) {
                g.play_unchecked(m);
            }
        }
        for text in &moves {
            if let Ok(mv) = g.parse_move(text) {
                g.play_unchecked(mv);
                prop_assert_eq!(g.hash(), g.hash_from_scratch());
                let mut v = Vec::new();
                g.legal_moves(&mut v);
                let _ = g.outcome();
                let _ = g.position_text();
            }
        }
    }
}

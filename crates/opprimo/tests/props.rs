//! Property tests: no text makes the move or position parsers panic; whatever parses prints
//! back to text that parses to the same move or position.

use boardlab_core::Notation;
use boardlab_core::{Game, Options};
use boardlab_opprimo::{Move, Opprimo};
use proptest::prelude::*;

fn options(text: &str) -> Options {
    Opprimo::info().parse_options(text).unwrap()
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

//! One test per TEXT / RULING line of the Sight Reduction section of RULINGS.md, named after
//! the line it checks.

use boardlab_core::{Colour, Game, Outcome, Seat};
use boardlab_core::{Notation, Rules as _};
use boardlab_sight_reduction::{Move, Phase, Side, SightReduction};

fn opts(text: &str) -> boardlab_core::Options {
    SightReduction::info().parse_options(text).unwrap()
}

fn pos(options: &str, text: &str) -> SightReduction {
    SightReduction::from_position(&opts(options), text).unwrap()
}

fn moves(g: &SightReduction) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v.into_iter().map(|m| g.format_move(m)).collect()
}

#[test]
fn text_board_is_four_files_by_eight_ranks() {
    let g = SightReduction::new(&opts("default"), 1).unwrap();
    assert_eq!(g.pieces(Side::White).count_ones(), 16);
    assert_eq!(g.pieces(Side::Black).count_ones(), 16);
    assert_eq!(g.occupied(), u32::MAX, "32 squares, all filled");
    assert!(g.parse_move("d8").is_ok());
    assert!(g.parse_move("e1").is_err());
    assert!(g.parse_move("a9").is_err());
}

#[test]
fn ruling_white_moves_first_by_default_and_first_option_changes_it() {
    let g = SightReduction::new(&opts("default"), 3).unwrap();
    assert_eq!(g.colour_to_move(), Some(Colour::White));
    assert_eq!(g.to_move(), Seat::First);
    let g = SightReduction::new(&opts("first=black"), 3).unwrap();
    assert_eq!(g.colour_to_move(), Some(Colour::Black));
    assert_eq!(
        g.to_move(),
        Seat::First,
        "the first seat plays the colour that moves first"
    );
    assert_eq!(g.colour_of(Seat::Second), Some(Colour::White));
}

#[test]
fn text_example_diagram_line_of_sight_and_blocking() {
    // White b4 with b2, a4, d4 in sight of it; b8's view of b4 is blocked by Black on b5.
    let g = pos("default", "1W2/4/4/1B2/WW1W/4/1W2/4 w");
    assert_eq!(moves(&g), ["b2", "a4", "b4", "d4"]);
}

#[test]
fn text_adjacent_pieces_see_each_other() {
    let g = pos("default", "4/4/4/4/4/4/4/WW1B w");
    assert_eq!(moves(&g), ["a1", "b1"]);
}

#[test]
fn text_sight_is_orthogonal_only_by_default() {
    // a1 and b2 touch diagonally only.
    let g = pos("default", "4/4/4/4/4/4/1W2/W3 w");
    assert!(moves(&g).is_empty());
    assert!(matches!(
        g.outcome(),
        Some(Outcome::Win {
            colour: Colour::Black,
            ..
        })
    ));
}

#[test]
fn text_player_without_legal_removal_loses_and_no_draws() {
    let g = pos("default", "4/4/4/4/4/4/4/WBW1 w");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            seat: Seat::Second,
            colour: Colour::Black,
            reason: "the opponent has no legal removal"
        })
    );
    assert!(!SightReduction::info().draws_possible);
}

#[test]
fn option_sight_any_allows_diagonal_friendly_sight() {
    let g = pos("sight=any", "4/4/4/4/4/4/1W2/W3 w");
    assert_eq!(moves(&g), ["a1", "b2"]);
    // Diagonal sight is still blocked by the first piece met.
    let g = pos("sight=any", "4/4/4/4/4/2W1/1B2/W3 w");
    assert!(moves(&g).is_empty());
}

#[test]
fn option_enemy_sight_requires_seeing_an_enemy_in_any_of_8_directions() {
    // a1-a2 White see each other; only a2 sees the Black piece (diagonally, on b3).
    let g = pos("enemy-sight=true", "4/4/4/4/4/1B2/W3/W3 w");
    assert_eq!(moves(&g), ["a2"]);
    let g = pos("enemy-sight=false", "4/4/4/4/4/1B2/W3/W3 w");
    assert_eq!(moves(&g), ["a1", "a2"]);
}

#[test]
fn ruling_friendly_sight_uses_sight_option_enemy_sight_always_all_8() {
    // White a1, b2 diagonal; enemy on d1 seen orthogonally by a1 through b1, c1.
    let g = pos("sight=orthogonal,enemy-sight=true", "4/4/4/4/4/4/1W2/W2B w");
    assert!(moves(&g).is_empty(), "friendly sight is orthogonal only");
    let g = pos("sight=any,enemy-sight=true", "4/4/4/4/4/4/1W2/W2B w");
    assert_eq!(moves(&g), ["a1"], "b2 sees no enemy; a1 sees d1");
}

#[test]
fn option_removal_pair_adds_pairs_that_see_each_other() {
    let g = pos("removal=pair", "4/4/4/4/4/4/4/W1WB w");
    assert_eq!(moves(&g), ["a1", "c1", "a1+c1"]);
    let mut g2 = g.clone();
    g2.play_text("c1+a1").unwrap();
    // Black belongs to the second seat, which the position text records.
    assert_eq!(g2.position_text(), "4/4/4/4/4/4/4/3B b second");
}

#[test]
fn ruling_pair_is_judged_before_the_move_and_must_see_each_other() {
    // a1, a2, a3 in a column: a1+a3 do not see each other (a2 is between).
    let g = pos("removal=pair", "4/4/4/4/4/W3/W3/W3 w");
    let m = moves(&g);
    assert!(m.contains(&"a1+a2".to_string()) && m.contains(&"a2+a3".to_string()));
    assert!(!m.contains(&"a1+a3".to_string()));
}

#[test]
fn ruling_diagonal_pairs_only_with_sight_any() {
    let g = pos("removal=pair", "4/4/4/4/4/4/1W2/W3 w");
    assert!(moves(&g).is_empty());
    let g = pos("removal=pair,sight=any", "4/4/4/4/4/4/1W2/W3 w");
    assert_eq!(moves(&g), ["a1", "b2", "a1+b2"]);
}

#[test]
fn ruling_pair_with_enemy_sight_needs_each_piece_to_see_an_enemy() {
    // a1-a2 pair; only a2 sees the enemy on b3.
    let g = pos("removal=pair,enemy-sight=true", "4/4/4/4/4/1B2/W3/W3 w");
    assert_eq!(moves(&g), ["a2"]);
    // Now both see an enemy: a1 sees b1, a2 sees a3.
    let g = pos("removal=pair,enemy-sight=true", "4/4/4/4/4/BB2/W3/WB2 w");
    assert_eq!(moves(&g), ["a1", "a2", "a1+a2"]);
}

#[test]
fn option_setup_random_is_seeded_and_reproducible() {
    let a = SightReduction::new(&opts("default"), 42).unwrap();
    let b = SightReduction::new(&opts("default"), 42).unwrap();
    let c = SightReduction::new(&opts("default"), 43).unwrap();
    assert_eq!(a.position_text(), b.position_text());
    assert_ne!(a.position_text(), c.position_text());
}

#[test]
fn derived_fair_setup_is_at_most_two_swaps_then_done() {
    let mut g = SightReduction::new(&opts("setup=fair"), 5).unwrap();
    assert_eq!(g.to_move(), Seat::First, "the arranger is the first seat");
    assert_eq!(
        moves(&g).len(),
        257,
        "16 x 16 swaps of a White and a Black piece, then done"
    );
    let first_swap = moves(&g)[0].clone();
    g.play_text(&first_swap).unwrap();
    // The second swap may undo the first.
    assert!(moves(&g).contains(&first_swap));
    g.play_text(&first_swap).unwrap();
    assert_eq!(moves(&g), ["done"], "after two swaps done is the only move");
}

#[test]
fn ruling_swap_needs_a_white_and_a_black_piece_and_is_written_in_square_order() {
    let g = pos("setup=fair", "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW w");
    // a1 = B, b1 = W: a legal swap, accepted in either order.
    assert_eq!(g.parse_move("swap b1 a1"), Ok(Move::Swap(0, 1)));
    assert_eq!(g.format_move(Move::Swap(0, 1)), "swap a1 b1");
    assert!(g.is_legal(Move::Swap(0, 1)));
    // a1 and c1 are both Black.
    assert!(!g.is_legal(Move::Swap(0, 2)));
}

#[test]
fn ruling_fair_colour_choice_is_the_second_seats_then_arranger_picks_first() {
    let mut g = SightReduction::new(&opts("setup=fair"), 9).unwrap();
    g.play_text("done").unwrap();
    assert_eq!(g.to_move(), Seat::Second);
    assert_eq!(moves(&g), ["color white", "color black"]);
    g.play_text("color white").unwrap();
    assert_eq!(g.colour_of(Seat::Second), Some(Colour::White));
    assert_eq!(g.colour_of(Seat::First), Some(Colour::Black));
    assert_eq!(g.to_move(), Seat::First);
    assert_eq!(moves(&g), ["first white", "first black"]);
    g.play_text("first white").unwrap();
    assert_eq!(g.phase(), Phase::Remove);
    assert_eq!(g.colour_to_move(), Some(Colour::White));
    assert_eq!(
        g.to_move(),
        Seat::Second,
        "White belongs to the second seat"
    );
}

/// In the fair set-up the arranger chooses who removes first (RULINGS: "In the fair set-up the
/// arranger chooses"), so `first=black` is refused with that reason rather than ignored;
/// `first=white` is the default and changes nothing.
#[test]
fn ruling_fair_setup_refuses_first_black_since_the_arranger_chooses() {
    for make in [
        |o: &boardlab_core::Options| SightReduction::new(o, 3).map(|_| ()),
        |o: &boardlab_core::Options| {
            SightReduction::from_position(o, "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW w")
                .map(|_| ())
        },
    ] {
        let e = make(&opts("setup=fair,first=black")).unwrap_err();
        let e = e.to_string();
        assert!(e.contains("first=black") && e.contains("setup=fair"), "{e}");
        assert!(e.contains("the arranger chooses"), "{e}");
        assert!(make(&opts("setup=fair,first=white")).is_ok());
        assert!(make(&opts("setup=fair")).is_ok());
    }
    assert!(SightReduction::new(&opts("setup=random,first=black"), 3).is_ok());
    assert!(SightReduction::new(&opts("setup=deterministic,first=black"), 3).is_ok());
}

#[test]
fn ruling_deterministic_setup_first_colour_places_first_and_removes_first() {
    let mut g = SightReduction::new(&opts("setup=deterministic,first=black"), 0).unwrap();
    assert_eq!(g.colour_to_move(), Some(Colour::Black));
    assert_eq!(moves(&g).len(), 32, "the first piece goes anywhere");
    let mut buf = Vec::new();
    let mut rng = boardlab_core::rng(1);
    for _ in 0..32 {
        let mv = g.random_move(&mut rng, &mut buf).unwrap();
        g.play(mv).unwrap();
    }
    assert_eq!(g.phase(), Phase::Remove);
    assert_eq!(g.colour_to_move(), Some(Colour::Black));
}

#[test]
fn ruling_deterministic_placement_next_to_an_enemy_else_anywhere() {
    // White has placed (b1), Black has placed (d8): White must place next to d8.
    let g = pos("setup=deterministic", "3B/4/4/4/4/4/4/1W2 w place");
    assert_eq!(moves(&g), ["@c7", "@d7", "@c8"]);
    // Each colour's first piece goes anywhere: Black has none yet.
    let g = pos("setup=deterministic", "4/4/4/4/4/4/4/1W2 b place");
    assert_eq!(moves(&g).len(), 31);
}

#[test]
fn ruling_deterministic_with_no_square_next_to_an_enemy_goes_anywhere() {
    // Black's pieces fill rank 1 and White's fill rank 2: no empty square touches Black.
    let g = pos("setup=deterministic", "4/4/4/4/4/4/WWWW/BBBB w place");
    assert_eq!(moves(&g).len(), 24);
}

#[test]
fn option_solitaire_one_person_removes_for_both_colours() {
    let mut g = pos("mode=solitaire", "4/4/4/4/4/4/4/WWBB w");
    assert!(g.is_solitaire());
    assert_eq!(g.to_move(), Seat::First);
    g.play_text("a1").unwrap();
    assert_eq!(g.to_move(), Seat::First);
    assert_eq!(g.colour_to_move(), Some(Colour::Black));
    g.play_text("d1").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Puzzle {
            score: 2,
            solved: true,
            reason: "no legal removal"
        })
    );
}

#[test]
fn ruling_solitaire_ends_when_colour_to_remove_is_stuck_and_scores_pieces_left() {
    let g = pos("mode=solitaire", "4/4/4/4/4/4/B3/WWB1 w");
    // White a1, b1 see each other; Black c1 and a2 do not see each other.
    let mut g = g;
    g.play_text("a1").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Puzzle {
            score: 3,
            solved: false,
            reason: "no legal removal"
        })
    );
}

#[test]
fn option_keep_requires_the_last_pieces_on_given_squares() {
    let mut g = pos("mode=solitaire,keep=b1,c1", "4/4/4/4/4/4/4/WWBB w");
    g.play_text("a1").unwrap();
    g.play_text("d1").unwrap();
    assert!(matches!(
        g.outcome(),
        Some(Outcome::Puzzle { solved: true, .. })
    ));
    let mut g = pos("mode=solitaire,keep=a1,c1", "4/4/4/4/4/4/4/WWBB w");
    g.play_text("a1").unwrap();
    g.play_text("d1").unwrap();
    assert!(matches!(
        g.outcome(),
        Some(Outcome::Puzzle {
            solved: false,
            score: 2,
            ..
        })
    ));
}

#[test]
fn ruling_keep_is_ignored_with_pair_removal_whose_goal_is_the_empty_board() {
    let mut g = pos(
        "mode=solitaire,removal=pair,keep=a1,c1",
        "4/4/4/4/4/4/4/WWBB w",
    );
    g.play_text("a1+b1").unwrap();
    g.play_text("c1+d1").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Puzzle {
            score: 0,
            solved: true,
            reason: "no legal removal"
        })
    );
}

/// Not a ruling: boardlab's own choice (the rules page lists it with the points it decided).
#[test]
fn boardlab_solitaire_refuses_the_fair_setup_and_keep_needs_solitaire() {
    let e = SightReduction::new(&opts("mode=solitaire,setup=fair"), 0).unwrap_err();
    assert!(e.to_string().contains("setup=fair"), "{e}");
    let e = SightReduction::new(&opts("keep=b2,c7"), 0).unwrap_err();
    assert!(e.to_string().contains("mode=solitaire"), "{e}");
    let e = SightReduction::new(&opts("mode=solitaire,keep=b2"), 0).unwrap_err();
    assert!(e.to_string().contains("two different squares"), "{e}");
}

#[test]
fn ruling_position_side_to_move_is_the_first_seat() {
    let g = pos("default", "4/4/4/4/4/4/4/WWBB b");
    assert_eq!(g.to_move(), Seat::First);
    assert_eq!(g.colour_of(Seat::First), Some(Colour::Black));
}

#[test]
fn ruling_position_input_accepts_split_runs_and_either_case_output_is_canonical() {
    let g = pos("default", "22/1111/4/4/4/4/4/wwbB W");
    assert_eq!(g.position_text(), "4/4/4/4/4/4/4/WWBB w");
}

#[test]
fn text_position_notation_example_has_a1_black_and_d8_black() {
    let g = pos("default", "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW w");
    assert_eq!(g.pieces(Side::Black) & 1, 1, "a1 is Black");
    assert_eq!(g.pieces(Side::Black) >> 31 & 1, 1, "d8 is Black");
}

#[test]
fn position_errors_list_every_problem() {
    let e = SightReduction::from_position(&opts("default"), "WBX/4/4 q").unwrap_err();
    let text = e.to_string();
    assert!(text.contains("3 ranks"), "{text}");
    assert!(text.contains("'q' is not a colour to move"), "{text}");
    assert!(SightReduction::from_position(&opts("default"), "").is_err());
}

#[test]
fn notation_pair_is_written_in_square_order_and_read_in_either() {
    let g = pos("removal=pair", "4/4/4/4/4/4/4/W1WB w");
    assert_eq!(g.parse_move("C1+A1"), Ok(Move::Pair(0, 2)));
    assert_eq!(g.format_move(Move::Pair(0, 2)), "a1+c1");
    assert_eq!(g.parse_move("@B2"), Ok(Move::Place(5)));
    assert_eq!(
        g.parse_move("Color White"),
        Ok(Move::ChooseColour(Colour::White))
    );
    assert_eq!(
        g.parse_move("first black"),
        Ok(Move::ChooseFirst(Colour::Black))
    );
    assert_eq!(g.parse_move("done"), Ok(Move::Done));
    for bad in [
        "",
        "swap a1",
        "swap a1 a1",
        "a1+a1",
        "color green",
        "@z9",
        "b2 b3",
        "x",
    ] {
        assert!(g.parse_move(bad).is_err(), "'{bad}' should be malformed");
    }
}

#[test]
fn illegal_moves_are_rejected_with_the_reason_and_leave_the_game_unchanged() {
    let mut g = pos("default", "4/4/4/4/4/4/4/W1WB w");
    let before = g.clone();
    let e = g.play_text("d1").unwrap_err();
    assert!(e.to_string().contains("legal moves: a1, c1"), "{e}");
    assert_eq!(g, before);
}

#[test]
fn regression_fuzz_long_digit_runs_in_a_rank_do_not_overflow() {
    let text = format!("{}/4/4/4/4/4/4/4 w", "2".repeat(300));
    let e = SightReduction::from_position(&opts("default"), &text).unwrap_err();
    assert!(e.to_string().contains("each rank needs exactly 4"), "{e}");
}

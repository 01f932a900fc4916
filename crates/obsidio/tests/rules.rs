//! One test (or more) per TEXT, DERIVED and RULING line of the Obsidio section of RULINGS.md,
//! named after the line, plus the edge cases the issue lists and the error messages.

use boardlab_core::{Colour, Game, NewGameError, Options, Outcome, Seat};
use boardlab_core::{Notation, Rules};
use boardlab_obsidio::geometry::Kind;
use boardlab_obsidio::{Move, Obsidio, SwapState, BLACK, UNLIMITED, WHITE};

fn opts(text: &str) -> Options {
    Obsidio::info().parse_options(text).unwrap()
}

fn start(options: &str) -> Obsidio {
    Obsidio::new(&opts(options), 0).unwrap()
}

fn moves(g: &Obsidio) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v.into_iter().map(|m| g.format_move(m)).collect()
}

fn play(g: &mut Obsidio, mv: &str) {
    g.play_text(mv)
        .unwrap_or_else(|e| panic!("{mv}: {e}\n{}", g.diagram()));
}

fn sq(g: &Obsidio, name: &str) -> u8 {
    g.geometry().parse_square(name).unwrap()
}

/// A board text of side `n` with the given cells (`b`/`w` tokens, `B`/`W` claims); targets
/// are `+` and other squares `.` elsewhere.
fn board(n: u8, cells: &[(&str, char)]) -> String {
    let mut rows = Vec::new();
    for r in (0..n).rev() {
        let mut row = String::new();
        for f in 0..n {
            let name = format!("{}{}", (b'a' + f) as char, r + 1);
            let c = cells.iter().find(|(s, _)| *s == name).map(|&(_, c)| c);
            row.push(match c {
                Some(c) => c,
                None if f % 2 == 1 && r % 2 == 1 => '+',
                None => '.',
            });
        }
        rows.push(row);
    }
    rows.join("/")
}

fn position(options: &str, text: &str) -> Obsidio {
    Obsidio::from_position(&opts(options), text).unwrap_or_else(|e| panic!("{e}"))
}

fn dark_moves(g: &Obsidio, list: &[String]) -> Vec<String> {
    list.iter()
        .filter(|m| {
            !m.contains([',', '+'])
                && g.geometry()
                    .parse_square(m)
                    .is_some_and(|s| g.geometry().kind(s) == Kind::Dark)
        })
        .cloned()
        .collect()
}

/// The distinct first squares of the light placements.
fn light_firsts(g: &Obsidio, list: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in list {
        let first = m.split(',').next().unwrap();
        let is_light = g
            .geometry()
            .parse_square(first)
            .is_some_and(|s| g.geometry().kind(s) == Kind::Light);
        if !m.starts_with('+') && is_light && !out.iter().any(|f| f == first) {
            out.push(first.to_string());
        }
    }
    out
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

// --- Board ----------------------------------------------------------------------------------

#[test]
fn text_board_sizes_7_9_11_default_9() {
    assert_eq!(start("").geometry().n, 9);
    for n in [7u8, 9, 11] {
        assert_eq!(start(&format!("size={n}")).geometry().n, n);
    }
    let e = Obsidio::info().parse_options("size=8").unwrap_err();
    assert!(e.to_string().contains("accepted: 7, 9, 11"), "{e}");
}

#[test]
fn text_dark_corners_and_dark_when_file_plus_rank_even() {
    for n in [7u8, 9, 11] {
        let g = start(&format!("size={n}"));
        let geo = g.geometry();
        for corner in [0, n - 1, (n - 1) * n, n * n - 1] {
            assert_eq!(geo.kind(corner), Kind::Dark);
        }
        for s in 0..geo.cells {
            let (f, r) = (s % n, s / n);
            match geo.kind(s) {
                Kind::Light => assert_eq!((f + r) % 2, 1),
                Kind::Dark | Kind::Target => assert_eq!((f + r) % 2, 0),
            }
        }
    }
}

// --- Targets --------------------------------------------------------------------------------

#[test]
fn derived_targets_are_the_squares_with_both_coordinates_odd() {
    for (n, count) in [(7u8, 9u8), (9, 16), (11, 25)] {
        let g = start(&format!("size={n}"));
        let geo = g.geometry();
        assert_eq!(geo.targets, count);
        for s in 0..geo.cells {
            let (f, r) = (s % n, s / n);
            assert_eq!(geo.kind(s) == Kind::Target, f % 2 == 1 && r % 2 == 1);
        }
        // Each target has eight empty neighbours (no target next to another).
        for t in 0..geo.targets {
            let around = geo.neighbours[geo.target_square[t as usize] as usize];
            assert_eq!(around.count_ones(), 8);
            assert_eq!(around & geo.target_mask, 0);
        }
    }
}

#[test]
fn derived_dark_squares_touch_targets_diagonally_light_squares_orthogonally() {
    let g = start("size=9");
    let geo = g.geometry();
    for s in 0..geo.cells {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let target_at = |df: i32, dr: i32| {
            let (x, y) = (f + df, r + dr);
            (0..9).contains(&x) && (0..9).contains(&y) && x % 2 == 1 && y % 2 == 1
        };
        let diagonal = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            .iter()
            .any(|&(a, b)| target_at(a, b));
        let orthogonal = [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .any(|&(a, b)| target_at(a, b));
        match geo.kind(s) {
            Kind::Dark => assert!(diagonal && !orthogonal),
            Kind::Light => assert!(orthogonal && !diagonal),
            Kind::Target => {}
        }
    }
}

// --- Colours and supply -----------------------------------------------------------------------

#[test]
fn ruling_black_is_the_first_seat_and_moves_first_white_the_second() {
    let g = start("");
    assert_eq!(g.to_move(), Seat::First);
    assert_eq!(g.colour_to_move(), Some(Colour::Black));
    assert_eq!(g.colour_of(Seat::First), Some(Colour::Black));
    assert_eq!(g.colour_of(Seat::Second), Some(Colour::White));
    assert_eq!(Obsidio::info().colours, [Colour::Black, Colour::White]);
}

#[test]
fn text_supply_is_51_tokens_each_on_9x9() {
    let g = start("size=9");
    assert_eq!((g.supply(BLACK), g.supply(WHITE)), (51, 51));
}

#[test]
fn ruling_supply_is_unlimited_on_7x7_and_11x11() {
    for n in [7, 11] {
        let mut g = start(&format!("size={n}"));
        assert_eq!(g.supply(BLACK), UNLIMITED);
        play(&mut g, "c3");
        assert_eq!(g.supply(BLACK), UNLIMITED);
        assert!(g.position_text().contains("supply=-"));
    }
}

#[test]
fn ruling_tokens_option_sets_the_supply_of_any_size() {
    for n in [7, 9, 11] {
        let mut g = start(&format!("size={n},tokens=12"));
        assert_eq!(g.supply(WHITE), 12);
        play(&mut g, "b3,f3");
        assert_eq!((g.supply(BLACK), g.supply(WHITE)), (10, 12));
    }
    assert!(Obsidio::info().parse_options("tokens=0").is_err());
    assert_eq!(opts("tokens=auto").get("tokens"), "auto");
}

// --- Line of sight --------------------------------------------------------------------------

#[test]
fn text_line_of_sight_is_blocked_by_tokens() {
    // Anchor c3 (Black), a White token on e3: g3 is hidden behind it, a3 is not.
    let text = format!("{} b anchor=c3", board(7, &[("c3", 'b'), ("e3", 'w')]));
    let g = position("size=7", &text);
    let list = moves(&g);
    let darks = dark_moves(&g, &list);
    assert_eq!(darks, names(&["c1", "a3", "c5", "c7"]));
}

#[test]
fn text_line_of_sight_is_blocked_by_unclaimed_targets() {
    // From c3 the diagonals meet targets b2, d2, b4, d4 at once: e5 is not seen.
    let text = format!("{} w anchor=c3", board(7, &[("c3", 'b')]));
    let g = position("size=7", &text);
    let darks = dark_moves(&g, &moves(&g));
    assert_eq!(darks, names(&["c1", "a3", "e3", "g3", "c5", "c7"]));
    assert!(!darks.contains(&"e5".to_string()));
}

#[test]
fn text_line_of_sight_through_a_claimed_target_is_blocked() {
    // d4 claimed by White between c3 and e5: still no line of sight.
    let cells = [
        ("c3", 'b'),
        ("c5", 'w'),
        ("e3", 'w'),
        ("e5", '.'),
        ("d4", 'W'),
    ];
    let text = format!("{} b anchor=c3 claimer=w", board(7, &cells));
    let mut g = position("size=7", &text);
    assert!(!dark_moves(&g, &moves(&g)).contains(&"e5".to_string()));
    let e = g.play_text("e5").unwrap_err();
    assert!(
        e.to_string().contains("no line of sight to the anchor c3"),
        "{e}"
    );
}

#[test]
fn text_adjacent_squares_have_line_of_sight() {
    // Anchor b3 with d3 taken: the dark squares it sees are its neighbours a3 and c3 (the
    // diagonals of a light square hold light squares only).
    let text = format!("{} b anchor=b3", board(7, &[("b3", 'b'), ("d3", 'w')]));
    let g = position("size=7", &text);
    assert_eq!(dark_moves(&g, &moves(&g)), names(&["a3", "c3"]));
}

// --- Anchor ---------------------------------------------------------------------------------

#[test]
fn text_anchor_is_the_last_token_placed_by_either_player() {
    let mut g = start("size=7");
    play(&mut g, "c3");
    assert_eq!(g.anchor(), Some(sq(&g, "c3")));
    play(&mut g, "e3");
    assert_eq!(g.anchor(), Some(sq(&g, "e3")));
    // A two-token move: the second token is the anchor.
    play(&mut g, "f3,d5");
    assert_eq!(g.anchor(), Some(sq(&g, "d5")));
}

#[test]
fn text_anchor_includes_control_tokens() {
    let cells = [
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'b'),
        ("a1", 'w'),
    ];
    let text = format!("{} b anchor=a1", board(7, &cells));
    let mut g = position("size=7", &text);
    play(&mut g, "+d4");
    assert_eq!(g.anchor(), Some(sq(&g, "d4")));
}

#[test]
fn edge_first_move_of_the_game_has_no_anchor() {
    let g = start("size=7");
    assert_eq!(g.anchor(), None);
    let list = moves(&g);
    // Every dark square and every light square (as the first token) is allowed.
    assert_eq!(dark_moves(&g, &list).len(), 16);
    assert_eq!(light_firsts(&g, &list).len(), 24);
    assert_eq!(list.len(), 168);
}

#[test]
fn ruling_anchor_after_multi_claim_is_the_last_claimed() {
    let cells = [
        ("a1", 'b'),
        ("c1", 'b'),
        ("a3", 'b'),
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'b'),
        ("g7", 'w'),
    ];
    let text = format!("{} b anchor=g7", board(7, &cells));
    let g = position("size=7", &text);
    let list = moves(&g);
    for m in ["+b2", "+d4", "+d4+b2", "+b2+d4"] {
        assert!(list.contains(&m.to_string()), "{m} in {list:?}");
    }
    let mut a = g.clone();
    play(&mut a, "+d4+b2");
    assert_eq!(a.anchor(), Some(sq(&a, "b2")));
    let mut b = g.clone();
    play(&mut b, "+b2+d4");
    assert_eq!(b.anchor(), Some(sq(&b, "d4")));
    assert_ne!(a, b);
}

// --- Dark placement --------------------------------------------------------------------------

#[test]
fn text_dark_placement_must_see_the_anchor_if_possible() {
    let text = format!("{} w anchor=c3", board(7, &[("c3", 'b')]));
    let mut g = position("size=7", &text);
    let e = g.play_text("g7").unwrap_err();
    assert!(
        e.to_string().contains("no line of sight to the anchor c3"),
        "{e}"
    );
    play(&mut g, "g3");
}

#[test]
fn text_dark_placement_is_free_when_no_dark_square_sees_the_anchor() {
    // Anchor b3 with both dark neighbours taken: any empty dark square will do.
    let cells = [("a3", 'w'), ("b3", 'b'), ("c3", 'w')];
    let text = format!("{} w anchor=b3", board(7, &cells));
    let g = position("size=7", &text);
    assert_eq!(dark_moves(&g, &moves(&g)).len(), 14);
}

// --- Light placement ------------------------------------------------------------------------

#[test]
fn text_light_first_token_must_see_the_anchor_if_possible() {
    let cells = [("a3", 'w'), ("b3", 'b'), ("c3", 'w')];
    let text = format!("{} w anchor=b3", board(7, &cells));
    let g = position("size=7", &text);
    assert_eq!(
        light_firsts(&g, &moves(&g)),
        names(&["d1", "a2", "c2", "a4", "c4", "d5", "e6", "f7"])
    );
}

#[test]
fn text_second_light_token_sees_the_first_and_is_not_next_to_it() {
    let g = start("size=7");
    let pairs: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("b3,"))
        .collect();
    assert_eq!(
        pairs,
        names(&["b3,d1", "b3,d3", "b3,f3", "b3,d5", "b3,e6", "b3,f7"])
    );
    let mut g2 = g.clone();
    let e = g2.play_text("b3,c4").unwrap_err();
    assert!(
        e.to_string().contains("may not be next to the first"),
        "{e}"
    );
    let e = g2.play_text("b3,g4").unwrap_err();
    assert!(e.to_string().contains("no line of sight to b3"), "{e}");
}

#[test]
fn ruling_second_light_token_is_mandatory_when_possible() {
    let mut g = start("size=7");
    assert!(!moves(&g).contains(&"b3".to_string()));
    let e = g.play_text("b3").unwrap_err();
    assert!(e.to_string().contains("must add a second token"), "{e}");
}

#[test]
fn edge_light_second_token_impossible_gives_the_single_token_move() {
    // a2 sees only its neighbours a1, b1, a3 (taken), b3 (taken): no second square.
    let cells = [("a3", 'w'), ("b3", 'b')];
    let text = format!("{} w anchor=b3", board(7, &cells));
    let mut g = position("size=7", &text);
    let list = moves(&g);
    assert!(list.contains(&"a2".to_string()));
    assert!(!list.iter().any(|m| m.starts_with("a2,")));
    play(&mut g, "a2");
    assert_eq!(g.anchor(), Some(sq(&g, "a2")));
    assert_eq!(g.supply(WHITE), UNLIMITED);
}

#[test]
fn ruling_one_token_left_forfeits_the_second_light_token() {
    // tokens=3: Black has 2 on the board, 1 left.
    let cells = [("a1", 'b'), ("g7", 'b'), ("a7", 'w')];
    let text = format!("{} b anchor=a7", board(7, &cells));
    let g = position("size=7,tokens=3", &text);
    assert_eq!(g.supply(BLACK), 1);
    let list = moves(&g);
    assert!(!list.iter().any(|m| m.contains(',')), "{list:?}");
    assert!(list.contains(&"b7".to_string()));
}

#[test]
fn ruling_second_token_needs_sight_of_the_first_with_the_first_on_the_board() {
    // Anchor c3; first token d3. b3 sees the anchor but not d3 (c3 is in between); f1 sees
    // d3 but not the anchor.
    let text = format!("{} w anchor=c3", board(7, &[("c3", 'b')]));
    let mut g = position("size=7", &text);
    let seconds: Vec<String> = moves(&g)
        .into_iter()
        .filter_map(|m| m.strip_prefix("d3,").map(str::to_string))
        .collect();
    assert_eq!(seconds, names(&["b1", "f1", "f3", "b5", "f5", "a6", "g6"]));
    assert!(g.play_text("d3,b3").is_err());
    play(&mut g, "d3,f1");
}

#[test]
fn ruling_light_pair_order_matters() {
    let g = start("size=9");
    let list = moves(&g);
    assert!(list.contains(&"b3,f3".to_string()) && list.contains(&"f3,b3".to_string()));
    let mut a = g.clone();
    play(&mut a, "b3,f3");
    let mut b = g.clone();
    play(&mut b, "f3,b3");
    assert_eq!(a.anchor(), Some(sq(&a, "f3")));
    assert_eq!(b.anchor(), Some(sq(&b, "b3")));
    assert_ne!(a.hash(), b.hash());
}

#[test]
fn ruling_if_possible_is_judged_per_action_type() {
    // Anchor b3: no dark square sees it (a3, c3 taken) but light squares do. Dark placements
    // are free; light placements must still see the anchor.
    let cells = [("a3", 'w'), ("b3", 'b'), ("c3", 'w')];
    let text = format!("{} w anchor=b3", board(7, &cells));
    let g = position("size=7", &text);
    let list = moves(&g);
    assert!(dark_moves(&g, &list).contains(&"g7".to_string()));
    assert!(!light_firsts(&g, &list).contains(&"b7".to_string()));
}

// --- Claims ---------------------------------------------------------------------------------

#[test]
fn text_claim_needs_four_own_influence_tokens_around_the_target() {
    let three = [
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'w'),
        ("a1", 'w'),
    ];
    let text = format!("{} b anchor=a1", board(7, &three));
    let mut g = position("size=7", &text);
    assert!(!moves(&g).iter().any(|m| m.starts_with('+')));
    let e = g.play_text("+d4").unwrap_err();
    assert!(
        e.to_string().contains("d4 has 3 black influence tokens"),
        "{e}"
    );
    let four = [
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("d5", 'b'),
        ("a1", 'w'),
    ];
    let text = format!("{} b anchor=a1", board(7, &four));
    let g = position("size=7", &text);
    assert!(moves(&g).contains(&"+d4".to_string()));
}

#[test]
fn text_claim_needs_no_line_of_sight() {
    // The anchor g7 is far from d4 and sees none of it.
    let cells = [
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'b'),
        ("g7", 'w'),
    ];
    let text = format!("{} b anchor=g7", board(7, &cells));
    let mut g = position("size=7", &text);
    play(&mut g, "+d4");
    assert_eq!(g.claimed(BLACK), 1 << 4);
}

#[test]
fn text_claim_only_unclaimed_targets() {
    let cells = [
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'b'),
        ("d4", 'W'),
        ("g7", 'w'),
    ];
    let text = format!("{} b anchor=g7 claimer=w", board(7, &cells));
    let mut g = position("size=7", &text);
    assert!(!moves(&g).iter().any(|m| m.starts_with('+')));
    let e = g.play_text("+d4").unwrap_err();
    assert!(e.to_string().contains("already claimed"), "{e}");
}

#[test]
fn text_each_control_token_comes_from_the_supply() {
    let cells = [
        ("a1", 'b'),
        ("c1", 'b'),
        ("a3", 'b'),
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'b'),
        ("g7", 'w'),
    ];
    let text = format!("{} b anchor=g7", board(7, &cells));
    let mut g = position("size=7,tokens=20", &text);
    assert_eq!(g.supply(BLACK), 13);
    play(&mut g, "+b2+d4");
    assert_eq!(g.supply(BLACK), 11);
}

#[test]
fn ruling_claim_moves_one_per_set_and_target_claimed_last() {
    // Three claimable targets: 3 · 2² = 12 claim moves.
    // b2 (a1, b1, a3, c3), f2 (e1, g1, e3, g3), d4 (c3, e3, c5, e5); d2 has only 3.
    let cells = [
        ("a1", 'b'),
        ("b1", 'b'),
        ("a3", 'b'),
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'b'),
        ("e1", 'b'),
        ("g1", 'b'),
        ("g3", 'b'),
        ("g7", 'w'),
    ];
    let text = format!("{} b anchor=g7", board(7, &cells));
    let g = position("size=7", &text);
    let claims: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with('+'))
        .collect();
    assert_eq!(
        claims,
        names(&[
            "+b2",
            "+f2+b2",
            "+d4+b2",
            "+f2+d4+b2",
            "+f2",
            "+b2+f2",
            "+d4+f2",
            "+b2+d4+f2",
            "+d4",
            "+b2+d4",
            "+f2+d4",
            "+b2+f2+d4",
        ])
    );
}

#[test]
fn ruling_claim_notation_is_canonical_and_any_typed_order_is_accepted() {
    let g = start("size=7");
    let mv = g.parse_move("+F2+B2+D4").unwrap();
    assert_eq!(g.format_move(mv), "+b2+f2+d4");
    assert_eq!(g.parse_move("+f2+b2+d4"), Ok(mv));
    assert_ne!(g.parse_move("+b2+d4+f2"), Ok(mv));
}

#[test]
fn ruling_claim_move_may_not_claim_more_targets_than_tokens_left() {
    // tokens=8: Black has 7 on the board, 1 left, two claimable targets.
    let cells = [
        ("a1", 'b'),
        ("c1", 'b'),
        ("a3", 'b'),
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'b'),
        ("g7", 'w'),
    ];
    let text = format!("{} b anchor=g7", board(7, &cells));
    let mut g = position("size=7,tokens=8", &text);
    let claims: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with('+'))
        .collect();
    assert_eq!(claims, names(&["+b2", "+d4"]));
    let e = g.play_text("+b2+d4").unwrap_err();
    assert!(
        e.to_string().contains("only 1 token left for 2 claims"),
        "{e}"
    );
}

#[test]
fn ruling_claim_ends_placements_and_the_control_token_constrains_the_next() {
    // After Black claims d4, White's dark token must go next to d4 (c3, e3, c5, e5 seen
    // from the control token); here c3 and e5 are free.
    let cells = [
        ("e3", 'b'),
        ("c5", 'b'),
        ("d3", 'b'),
        ("d5", 'b'),
        ("g7", 'w'),
    ];
    let text = format!("{} b anchor=g7", board(7, &cells));
    let mut g = position("size=7", &text);
    play(&mut g, "+d4");
    let list = moves(&g);
    assert_eq!(dark_moves(&g, &list), names(&["c3", "e5"]));
    assert_eq!(light_firsts(&g, &list), names(&["c4", "e4"]));
}

// --- Swap -----------------------------------------------------------------------------------

#[test]
fn text_swap_only_as_the_second_seats_first_turn() {
    let mut g = start("size=7");
    assert!(!moves(&g).contains(&"swap".to_string()));
    play(&mut g, "c3");
    assert_eq!(g.swap_state(), SwapState::Offer);
    assert!(moves(&g).contains(&"swap".to_string()));
    play(&mut g, "e3");
    assert!(!moves(&g).contains(&"swap".to_string()));
    let e = g.play_text("swap").unwrap_err();
    assert!(e.to_string().contains("second player's first turn"), "{e}");
}

#[test]
fn edge_swap_exchanges_colours_then_white_moves() {
    let mut g = start("size=7");
    play(&mut g, "c3");
    play(&mut g, "swap");
    assert_eq!(g.swap_state(), SwapState::Swapped);
    assert_eq!(g.colour_of(Seat::First), Some(Colour::White));
    assert_eq!(g.colour_of(Seat::Second), Some(Colour::Black));
    // White is to move: the first seat moves again, now as White.
    assert_eq!(g.side_to_move(), WHITE);
    assert_eq!(g.to_move(), Seat::First);
    assert_eq!(g.tokens(BLACK), 1 << sq(&g, "c3"));
    let list = moves(&g);
    assert!(!list.contains(&"swap".to_string()));
    assert_eq!(
        dark_moves(&g, &list),
        names(&["c1", "a3", "e3", "g3", "c5", "c7"])
    );
    play(&mut g, "e3");
    assert_eq!(g.to_move(), Seat::Second);
    assert_eq!(g.colour_to_move(), Some(Colour::Black));
}

#[test]
fn ruling_pie_false_has_no_swap() {
    let mut g = start("size=7,pie=false");
    play(&mut g, "c3");
    assert!(!moves(&g).contains(&"swap".to_string()));
    let e = g.play_text("swap").unwrap_err();
    assert!(e.to_string().contains("pie=false"), "{e}");
}

#[test]
fn ruling_swap_and_pass_keep_the_anchor() {
    let mut g = start("size=7");
    play(&mut g, "b3,f3");
    play(&mut g, "swap");
    assert_eq!(g.anchor(), Some(sq(&g, "f3")));
    // Pass: tokens=1 runs out at once.
    let mut g = start("size=7,tokens=1,pie=false");
    play(&mut g, "c3");
    play(&mut g, "e3");
    assert_eq!(moves(&g), ["pass"]);
    play(&mut g, "pass");
    assert_eq!(g.anchor(), Some(sq(&g, "e3")));
}

#[test]
fn ruling_supplies_belong_to_colours_and_a_swap_keeps_them() {
    let mut g = start("size=9");
    play(&mut g, "b3,f3");
    assert_eq!((g.supply(BLACK), g.supply(WHITE)), (49, 51));
    play(&mut g, "swap");
    assert_eq!((g.supply(BLACK), g.supply(WHITE)), (49, 51));
    play(&mut g, "c3");
    assert_eq!((g.supply(BLACK), g.supply(WHITE)), (49, 50));
}

#[test]
fn ruling_swap_is_available_at_ply_1_whenever_pie_is_true() {
    for n in [7, 9, 11] {
        for first in ["c3", "b3,f3", "a1"] {
            let mut g = start(&format!("size={n}"));
            play(&mut g, first);
            assert_eq!(g.ply(), 1);
            assert!(moves(&g).contains(&"swap".to_string()));
        }
    }
}

#[test]
fn outcome_after_a_swap_names_the_seat_and_the_colour() {
    let cells = [
        ("a1", 'b'),
        ("c1", 'b'),
        ("a3", 'b'),
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'b'),
        ("e1", 'b'),
        ("g1", 'b'),
        ("g3", 'b'),
        ("b6", 'B'),
        ("d6", 'B'),
        ("g7", 'w'),
    ];
    let text = format!("{} b anchor=g7 swap=swapped claimer=b", board(7, &cells));
    let mut g = position("size=7", &text);
    assert_eq!(g.to_move(), Seat::Second);
    play(&mut g, "+b2+d4+f2");
    let o = g.outcome().unwrap();
    assert_eq!(
        o,
        Outcome::Win {
            seat: Seat::Second,
            colour: Colour::Black,
            reason: "a majority of the targets"
        }
    );
    assert_eq!(
        o.to_string(),
        "black (second seat) wins: a majority of the targets"
    );
}

// --- Pass and the end ----------------------------------------------------------------------

#[test]
fn ruling_pass_only_when_nothing_else_is_legal() {
    let mut g = start("size=7");
    assert!(!moves(&g).contains(&"pass".to_string()));
    let e = g.play_text("pass").unwrap_err();
    assert!(e.to_string().contains("only when no other move is"), "{e}");
}

#[test]
fn edge_running_out_of_tokens_leaves_only_claims_or_a_pass() {
    // tokens=2: after one pair Black has none; with nothing to claim it must pass.
    let mut g = start("size=7,tokens=2,pie=false");
    play(&mut g, "b3,f3");
    assert_eq!(g.supply(BLACK), 0);
    play(&mut g, "c3");
    assert_eq!(moves(&g), ["pass"]);
    play(&mut g, "pass");
    assert!(g.outcome().is_none());
    // White still has a token; its move resets the pass count.
    let list = moves(&g);
    assert!(!list.contains(&"pass".to_string()));
    assert!(
        list.iter().all(|m| !m.contains(',')),
        "one token left: {list:?}"
    );
}

#[test]
fn edge_both_players_passing_ends_the_game_drawn_without_claims() {
    let mut g = start("size=7,tokens=1,pie=false");
    play(&mut g, "c3");
    play(&mut g, "e3");
    play(&mut g, "pass");
    assert_eq!(moves(&g), ["pass"]);
    play(&mut g, "pass");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: "two passes and no target claimed"
        })
    );
    assert!(moves(&g).is_empty());
    assert!(g.play_text("pass").is_err());
}

#[test]
fn ruling_two_passes_end_the_game_more_targets_wins() {
    // tokens=2: Black's two control tokens and White's control token plus a1 use up both
    // supplies; Black has passed, White must pass too.
    let cells = [("b2", 'B'), ("d2", 'B'), ("f6", 'W'), ("a1", 'w')];
    let text = format!("{} w anchor=a1 passes=1 claimer=w", board(7, &cells));
    let mut g = position("size=7,tokens=2,pie=false", &text);
    assert_eq!(moves(&g), ["pass"]);
    play(&mut g, "pass");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            seat: Seat::First,
            colour: Colour::Black,
            reason: "two passes: more targets"
        })
    );
}

#[test]
fn ruling_two_passes_with_equal_targets_the_last_claimer_wins() {
    let cells = [("b2", 'B'), ("f6", 'W')];
    let text = format!("{} w anchor=f6 passes=1 claimer=w", board(7, &cells));
    let mut g = position("size=7,tokens=1,pie=false", &text);
    play(&mut g, "pass");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            seat: Seat::Second,
            colour: Colour::White,
            reason: "two passes, equal targets: last to claim"
        })
    );
}

#[test]
fn derived_two_passes_need_a_supply_to_run_out() {
    // With unlimited tokens a player can place while a square is empty, and on a full board
    // every unclaimed target has four tokens of one colour around it: no two passes.
    for n in [7, 11] {
        for seed in 0..40 {
            let mut g = start(&format!("size={n}"));
            g.playout(&mut boardlab_core::rng(seed));
            assert!(!g.outcome().unwrap().reason().contains("two passes"));
        }
    }
}

#[test]
fn text_majority_wins_at_once() {
    for (n, majority) in [(7u8, 5u32), (9, 9), (11, 13)] {
        let geo = start(&format!("size={n}"));
        let geo = geo.geometry();
        // Black holds majority − 1 targets and can claim one more around the last target.
        let mut cells: Vec<(String, char)> = Vec::new();
        for t in 0..majority - 1 {
            cells.push((geo.name(geo.target_square[t as usize]), 'B'));
        }
        let last = geo.target_square[geo.targets as usize - 1];
        let (f, r) = (last % n, last / n);
        for (df, dr) in [(-1i32, -1i32), (1, -1), (-1, 1), (1, 1)] {
            let s = (r as i32 + dr) as u8 * n + (f as i32 + df) as u8;
            cells.push((geo.name(s), 'b'));
        }
        cells.push(("a1".to_string(), 'w'));
        let refs: Vec<(&str, char)> = cells.iter().map(|(s, c)| (s.as_str(), *c)).collect();
        let text = format!("{} b anchor=a1 claimer=b", board(n, &refs));
        let mut g = position(&format!("size={n},tokens=auto"), &text);
        assert!(g.outcome().is_none());
        let claim = format!("+{}", geo.name(last));
        play(&mut g, &claim);
        assert_eq!(g.claimed(BLACK).count_ones(), majority);
        assert!(matches!(
            g.outcome(),
            Some(Outcome::Win {
                colour: Colour::Black,
                reason: "a majority of the targets",
                ..
            })
        ));
        assert!(moves(&g).is_empty());
    }
}

#[test]
fn text_eight_eight_on_9x9_the_last_claimer_wins() {
    let g9 = start("size=9");
    let geo = g9.geometry();
    // Black holds 8 targets, White 7; White claims the 16th.
    let mut cells: Vec<(String, char)> = Vec::new();
    for t in 0..15u8 {
        let c = if t < 8 { 'B' } else { 'W' };
        cells.push((geo.name(geo.target_square[t as usize]), c));
    }
    let last = geo.target_square[15];
    for (df, dr) in [(-1i32, -1i32), (1, -1), (-1, 1), (1, 1)] {
        let s = ((last / 9) as i32 + dr) as u8 * 9 + ((last % 9) as i32 + df) as u8;
        cells.push((geo.name(s), 'w'));
    }
    cells.push(("a1".to_string(), 'b'));
    let refs: Vec<(&str, char)> = cells.iter().map(|(s, c)| (s.as_str(), *c)).collect();
    let text = format!("{} w anchor=a1 claimer=b", board(9, &refs));
    let mut g = position("size=9", &text);
    play(&mut g, &format!("+{}", geo.name(last)));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            seat: Seat::Second,
            colour: Colour::White,
            reason: "all targets claimed, equal shares: last to claim"
        })
    );
}

#[test]
fn ruling_end_checks_a_majority_before_all_targets_claimed() {
    // 9×9: Black 8, White 7; Black claims the 16th, which completes the board with 9–7.
    let g9 = start("size=9");
    let geo = g9.geometry();
    let mut cells: Vec<(String, char)> = Vec::new();
    for t in 0..15u8 {
        let c = if t < 8 { 'B' } else { 'W' };
        cells.push((geo.name(geo.target_square[t as usize]), c));
    }
    let last = geo.target_square[15];
    for (df, dr) in [(-1i32, -1i32), (1, -1), (-1, 1), (1, 1)] {
        let s = ((last / 9) as i32 + dr) as u8 * 9 + ((last % 9) as i32 + df) as u8;
        cells.push((geo.name(s), 'b'));
    }
    cells.push(("a1".to_string(), 'w'));
    let refs: Vec<(&str, char)> = cells.iter().map(|(s, c)| (s.as_str(), *c)).collect();
    let text = format!("{} b anchor=a1 claimer=w", board(9, &refs));
    let mut g = position("size=9", &text);
    play(&mut g, &format!("+{}", geo.name(last)));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            seat: Seat::First,
            colour: Colour::Black,
            reason: "a majority of the targets"
        })
    );
}

#[test]
fn ruling_a_claim_reaching_a_majority_part_way_is_played_in_full() {
    // Black holds 4 of 9 and claims two more in one move: both are claimed.
    let cells = [
        ("a1", 'b'),
        ("c1", 'b'),
        ("a3", 'b'),
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'b'),
        ("b6", 'B'),
        ("d6", 'B'),
        ("f6", 'B'),
        ("f4", 'B'),
        ("g7", 'w'),
    ];
    let text = format!("{} b anchor=g7 claimer=b", board(7, &cells));
    let mut g = position("size=7", &text);
    play(&mut g, "+b2+d4");
    assert_eq!(g.claimed(BLACK).count_ones(), 6);
    assert_eq!(g.anchor(), Some(sq(&g, "d4")));
}

#[test]
fn ruling_last_claimer_is_the_player_whose_move_most_recently_claimed() {
    let cells = [
        ("c3", 'b'),
        ("e3", 'b'),
        ("c5", 'b'),
        ("e5", 'b'),
        ("a5", 'w'),
        ("a7", 'w'),
        ("c7", 'w'),
        ("b7", 'w'),
        ("g1", 'w'),
    ];
    let text = format!("{} b anchor=g1", board(7, &cells));
    let mut g = position("size=7", &text);
    assert_eq!(g.last_claimer(), None);
    play(&mut g, "+d4");
    assert_eq!(g.last_claimer(), Some(BLACK));
    play(&mut g, "+b6");
    assert_eq!(g.last_claimer(), Some(WHITE));
    assert!(g.position_text().contains("claimer=w"));
    // A later move without a claim keeps the claimer.
    play(&mut g, "g3");
    assert_eq!(g.last_claimer(), Some(WHITE));
}

// --- Last-move markers ----------------------------------------------------------------------

#[test]
fn text_last_move_markers_show_the_anchor_and_each_players_last_move() {
    let mut g = start("size=7");
    play(&mut g, "b3,f3");
    play(&mut g, "c3");
    assert_eq!(g.last_move(BLACK), g.parse_move("b3,f3").ok());
    assert_eq!(g.last_move(WHITE), g.parse_move("c3").ok());
    let d = g.diagram();
    assert!(d.contains("[w]"), "{d}");
    assert!(d.contains("(b)"), "{d}");
    assert!(g.position_text().ends_with("last=b3,f3/c3"));
    // Markers are not part of the rules: the hash ignores them.
    let text = g.position_text().replace("last=b3,f3/c3", "last=-/-");
    let same = Obsidio::from_position(&g.options(), &text).unwrap();
    assert_eq!(same.hash(), g.hash());
}

// --- Notation, position text and errors ----------------------------------------------------

#[test]
fn move_notation_examples_parse_and_print() {
    let g = start("size=9");
    for (input, canonical) in [
        ("c3", "c3"),
        ("B3,F3", "b3,f3"),
        ("b3", "b3"),
        ("+d4", "+d4"),
        ("+D4+f6", "+d4+f6"),
        ("SWAP", "swap"),
        ("pass", "pass"),
    ] {
        let mv = g.parse_move(input).unwrap();
        assert_eq!(g.format_move(mv), canonical);
    }
    assert!(matches!(g.parse_move("c3"), Ok(Move::Place(_))));
}

#[test]
fn malformed_moves_are_explained() {
    let g = start("size=9");
    for (bad, says) in [
        ("", "empty move"),
        ("z9", "not a square of the 9×9 board (a1…i9)"),
        ("j1", "not a square"),
        ("d4", "d4 is a target"),
        ("+c3", "c3 is not a target"),
        ("+d4+d4", "claimed twice"),
        ("+", "a target after each '+'"),
        ("b3,c3", "c3 is not a light square"),
        ("b3,b3", "two different squares"),
        ("b3,", "not a square"),
        ("swp", "not a square"),
    ] {
        let e = g.parse_move(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
        assert!(e.contains("moves look like"), "{e}");
    }
}

#[test]
fn position_text_round_trips_and_reads_defaults() {
    let mut g = start("size=9");
    for m in ["b3,f3", "swap", "c3", "c4,e6"] {
        play(&mut g, m);
    }
    let text = g.position_text();
    assert_eq!(
        text,
        "........./.+.+.+.+./........./.+.+b+.+./........./.+b+.+.+./.bw..b.../.+.+.+.+./......... \
         w supply=47/50 anchor=e6 swap=swapped passes=0 claimer=- last=c4,e6/c3"
    );
    let back = Obsidio::from_position(&g.options(), &text).unwrap();
    assert_eq!(back.position_text(), text);
    assert_eq!(back.hash(), g.hash());
    assert_eq!(back.colour_of(Seat::First), Some(Colour::White));
    // Only the board and side: the rest has defaults.
    let short = Obsidio::from_position(&opts("size=7"), &format!("{} b", board(7, &[]))).unwrap();
    assert_eq!(short, start("size=7"));
}

fn problems(options: &str, text: &str) -> String {
    match Obsidio::from_position(&opts(options), text) {
        Err(NewGameError::Position(e)) => e.problems.join("\n"),
        other => panic!("expected position problems for '{text}', got {other:?}"),
    }
}

#[test]
fn bad_positions_list_every_problem() {
    assert!(problems("size=7", "").contains("expected the board"));
    let bad = format!(
        "{}/x...... q supply=9/9 anchor=z9 swap=maybe passes=3 claimer=x last=c3 colour=w",
        board(7, &[("d4", 'b')]).split_once('/').unwrap().1
    );
    let listed = problems("size=7", &bad);
    for says in [
        "'x' is not one of",
        "'q' is not a colour to move",
        "supply=9/9: the supply is unlimited",
        "anchor=z9: not a square",
        "swap=maybe: accepted",
        "passes=3: accepted",
        "claimer=x: accepted",
        "last=c3: write Black's then White's",
        "unknown item 'colour'",
    ] {
        assert!(listed.contains(says), "missing '{says}' in {listed}");
    }
    // Targets and other squares must be written as what they are.
    let listed = problems(
        "size=7",
        &format!("{} b", board(7, &[("d4", '.'), ("c3", '+')])),
    );
    assert!(listed.contains("d4 is a target: write it '+'"), "{listed}");
    assert!(
        listed.contains("c3 is not a target: write it '.'"),
        "{listed}"
    );
    // A supply that does not match the board.
    let text = format!("{} w supply=5/5 swap=offer", board(7, &[("c3", 'b')]));
    assert!(problems("size=7,tokens=5", &text).contains("the supply is supply=4/5"));
    // The anchor must hold a token; claims need a claimer.
    let listed = problems(
        "size=7",
        &format!("{} b anchor=c3", board(7, &[("d4", 'W')])),
    );
    assert!(listed.contains("c3 is empty"), "{listed}");
    assert!(listed.contains("give the last claimer"), "{listed}");
    // The swap states must fit the board.
    let listed = problems(
        "size=7",
        &format!("{} w swap=start", board(7, &[("c3", 'b')])),
    );
    assert!(
        listed.contains("swap=start is the position before the first move"),
        "{listed}"
    );
    let listed = problems(
        "size=7,pie=false",
        &format!("{} w swap=swapped", board(7, &[("c3", 'b')])),
    );
    assert!(listed.contains("needs the pie rule"), "{listed}");
    // Last moves must be on the colour's tokens.
    let listed = problems(
        "size=7",
        &format!("{} w last=e3/-", board(7, &[("c3", 'b')])),
    );
    assert!(
        listed.contains("black tokens are not on every square of 'e3'"),
        "{listed}"
    );
}

#[test]
fn bad_options_are_explained() {
    let e = Obsidio::info()
        .parse_options("size=10")
        .unwrap_err()
        .to_string();
    assert!(e.contains("accepted: 7, 9, 11"), "{e}");
    let e = Obsidio::info()
        .parse_options("tokens=many")
        .unwrap_err()
        .to_string();
    assert!(e.contains("auto, or a whole number from 1 to 999"), "{e}");
    let e = Obsidio::info()
        .parse_options("pie=maybe")
        .unwrap_err()
        .to_string();
    assert!(e.contains("true, false"), "{e}");
    let e = Obsidio::info()
        .parse_options("anchor=c3")
        .unwrap_err()
        .to_string();
    assert!(e.contains("accepted options: size, tokens, pie"), "{e}");
}

#[test]
fn diagram_has_coordinates_targets_claims_and_the_anchor() {
    let cells = [("c3", 'b'), ("d4", 'W'), ("e5", 'w')];
    let text = format!("{} b anchor=e5 claimer=w", board(7, &cells));
    let g = position("size=7", &text);
    let d = g.diagram();
    assert!(d.starts_with("     a  b  c  d  e  f  g \n"), "{d}");
    assert!(d.contains("  7  .  -  .  -  .  -  .  7"), "{d}");
    assert!(
        d.contains("  5  .  -  . [w] .  -  .") || d.contains("[w]"),
        "{d}"
    );
    assert!(d.contains(" W "), "{d}");
    assert!(d.contains(" + "), "{d}");
    assert!(
        d.contains("Black (first seat): 0 targets, supply unlimited"),
        "{d}"
    );
    let mut g = start("size=7");
    play(&mut g, "c3");
    assert!(g.diagram().contains("White may swap"));
}

//! One test per line of the Opprimo section of RULINGS.md (TEXT, DERIVED and RULING), named
//! after the line, plus the common conventions on notation and position text.

use boardlab_core::{Colour, Game, Outcome, Seat};
use boardlab_core::{Notation, Rules};
use boardlab_opprimo::board::{
    castle_set, coords, neighbour, triangle_list, Castle, DIRECTIONS, N, NE, NW, POINTS, STARS,
    START, TRIANGLES, TRI_POINTS,
};
use boardlab_opprimo::{
    parse_point, parse_triangle, point_name, triangle_name, Move, Opprimo, Setup, Side, RED, YELLOW,
};

fn opts(text: &str) -> boardlab_core::Options {
    Opprimo::info().parse_options(text).unwrap()
}

/// A game from a list of soldiers (`y:b3` Yellow soldier, `Y:b3` Yellow Officer, `r:`, `R:`
/// for Red), the two King triangles (`-` for not placed) and the colour to move.
fn game(options: &str, pieces: &str, kings: [&str; 2], to_move: Side) -> Opprimo {
    let mut s = Setup::empty();
    for item in pieces.split_whitespace() {
        let (kind, p) = item.split_once(':').unwrap();
        let (side, officer) = match kind {
            "y" => (YELLOW, false),
            "Y" => (YELLOW, true),
            "r" => (RED, false),
            "R" => (RED, true),
            _ => panic!("bad piece {item}"),
        };
        s.put(parse_point(p).unwrap(), side, officer);
    }
    s.kings = kings.map(|k| (k != "-").then(|| parse_triangle(k).unwrap()));
    s.to_move = to_move;
    Opprimo::from_setup(&opts(options), s).unwrap()
}

fn legal(g: &Opprimo) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v.iter().map(|m| g.format_move(*m)).collect()
}

/// The legal moves that start with `prefix` (a point or `k`).
fn legal_from(g: &Opprimo, prefix: &str) -> Vec<String> {
    legal(g)
        .into_iter()
        .filter(|m| {
            m.starts_with(prefix) && !m[prefix.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn strs(list: &str) -> Vec<String> {
    sorted(list.split_whitespace().map(str::to_string).collect())
}

/// The piece on a point: (colour, Officer).
fn at(g: &Opprimo, name: &str) -> Option<(Side, bool)> {
    let p = parse_point(name).unwrap();
    let officer = g.officers() >> p & 1 == 1;
    [YELLOW, RED]
        .into_iter()
        .find(|&side| g.soldiers(side) >> p & 1 == 1)
        .map(|side| (side, officer))
}

fn play(g: &mut Opprimo, moves: &str) {
    for m in moves.split_whitespace() {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn names(set: u64) -> String {
    (0..POINTS as u8)
        .filter(|&p| set >> p & 1 == 1)
        .map(point_name)
        .collect::<Vec<_>>()
        .join(" ")
}

// ---- Geometry (DERIVED) ----------------------------------------------------------------------

#[test]
fn derived_points_are_45_on_7_columns_named_file_then_rank() {
    let all: Vec<String> = (0..POINTS as u8).map(point_name).collect();
    assert_eq!(all.len(), 45);
    for (file, ranks) in [
        ('a', 2..=12),
        ('b', 1..=13),
        ('c', 2..=12),
        ('d', 1..=13),
        ('e', 2..=12),
        ('f', 1..=13),
        ('g', 2..=12),
    ] {
        let column: Vec<&String> = all.iter().filter(|n| n.starts_with(file)).collect();
        let expected: Vec<String> = ranks.step_by(2).map(|r| format!("{file}{r}")).collect();
        assert_eq!(column.len(), expected.len(), "file {file}");
        for name in &expected {
            assert!(all.contains(name), "{name}");
            assert_eq!(
                parse_point(name).map(point_name).as_deref(),
                Some(name.as_str())
            );
        }
    }
    for bad in ["a1", "b2", "a13", "b14", "h2", "d0", "", "d", "4d"] {
        assert_eq!(parse_point(bad), None, "{bad}");
    }
}

#[test]
fn derived_lines_are_110_vertical_and_diagonal_and_none_horizontal() {
    let (mut vertical, mut diagonal) = (0, 0);
    for p in 0..POINTS as u8 {
        for d in [N, NW, NE] {
            if let Some(q) = neighbour(p, d, 1) {
                let ((c0, r0), (c1, r1)) = (coords(p), coords(q));
                if d == N {
                    assert_eq!((c1, r1), (c0, r0 + 2));
                    vertical += 1;
                } else {
                    assert_eq!(c0.abs_diff(c1), 1);
                    assert_eq!(r1, r0 + 1);
                    diagonal += 1;
                }
            }
        }
    }
    assert_eq!((vertical, diagonal, vertical + diagonal), (38, 72, 110));
    // No line joins two points of one rank: such a step is not a move at all.
    let g = Opprimo::new(&opts("default"), 0).unwrap();
    assert!(g.parse_move("b1-d1").is_err());
    assert!(g.parse_move("a2-c2").is_err());
}

#[test]
fn derived_triangles_are_66_with_one_vertical_edge_named_by_its_lower_point() {
    assert_eq!(TRI_POINTS.len(), 66);
    let mut seen = std::collections::HashSet::new();
    for t in 0..TRIANGLES as u8 {
        let pts = TRI_POINTS[t as usize].map(coords);
        let vertical_edges = [(0, 1), (0, 2), (1, 2)]
            .iter()
            .filter(|&&(i, j)| pts[i].0 == pts[j].0)
            .count();
        assert_eq!(vertical_edges, 1);
        let name = triangle_name(t);
        assert!(seen.insert(name.clone()));
        assert_eq!(parse_triangle(&name), Some(t));
    }
    let d1e = parse_triangle("d1e").unwrap();
    let mut pts: Vec<String> = TRI_POINTS[d1e as usize].map(point_name).to_vec();
    pts.sort();
    assert_eq!(pts, ["d1", "d3", "e2"]);
    for bad in ["d1a", "a2a", "g2h", "b13a", "d1", "x"] {
        assert_eq!(parse_triangle(bad), None, "{bad}");
    }
}

#[test]
fn derived_adjacent_triangles_share_an_edge() {
    let t = |n: &str| parse_triangle(n).unwrap();
    let b1c = t("b1c");
    assert!(boardlab_opprimo::board::adjacent(b1c, t("b1a")));
    assert!(boardlab_opprimo::board::adjacent(b1c, t("c2b")));
    assert!(
        !boardlab_opprimo::board::adjacent(b1c, t("d1c")),
        "one common point only"
    );
    assert!(!boardlab_opprimo::board::adjacent(b1c, b1c));
}

#[test]
fn text_soldiers_use_the_vertical_lines_on_both_sides_of_the_board() {
    let mut g = Opprimo::new(&opts("default"), 0).unwrap();
    play(&mut g, "k@b1c k@f11e");
    assert!(legal(&g).contains(&"a2-a4".to_string()));
    assert!(legal(&g).contains(&"g2-g4".to_string()));
}

#[test]
fn derived_the_three_farthest_points_are_the_stars() {
    assert_eq!(names(STARS[YELLOW.index()]), "b13 d13 f13");
    assert_eq!(names(STARS[RED.index()]), "b1 d1 f1");
}

#[test]
fn text_each_side_has_ten_soldiers_on_its_home_ranks() {
    assert_eq!(
        names(START[YELLOW.index()]),
        "b1 d1 f1 a2 c2 e2 g2 b3 d3 f3"
    );
    assert_eq!(
        names(START[RED.index()]),
        "b11 d11 f11 a12 c12 e12 g12 b13 d13 f13"
    );
    let g = Opprimo::new(&opts("default"), 0).unwrap();
    assert_eq!(
        g.position_text(),
        "rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy - - y 0"
    );
}

#[test]
fn text_yellow_moves_first() {
    let g = Opprimo::new(&opts("default"), 0).unwrap();
    assert_eq!(g.to_move(), Seat::First);
    assert_eq!(g.colour_of(Seat::First), Some(Colour::Yellow));
    assert_eq!(g.colour_of(Seat::Second), Some(Colour::Red));
    assert_eq!(Opprimo::info().colours, [Colour::Yellow, Colour::Red]);
}

// ---- Castles (RULING) ------------------------------------------------------------------------

#[test]
fn ruling_castle_band_is_the_12_triangles_on_ranks_1_to_4_and_its_mirror() {
    assert_eq!(
        sorted(
            triangle_list(castle_set(Castle::Band, YELLOW))
                .split(", ")
                .map(String::from)
                .collect()
        ),
        strs("a2b b1a b1c c2b c2d d1c d1e e2d e2f f1e f1g g2f")
    );
    assert_eq!(
        sorted(
            triangle_list(castle_set(Castle::Band, RED))
                .split(", ")
                .map(String::from)
                .collect()
        ),
        strs("a10b b11a b11c c10b c10d d11c d11e e10d e10f f11e f11g g10f")
    );
    let g = Opprimo::new(&opts("castle=band"), 0).unwrap();
    assert_eq!(legal(&g).len(), 12);
}

#[test]
fn ruling_castle_hex_is_the_6_triangles_around_d3_and_d11() {
    assert_eq!(
        triangle_list(castle_set(Castle::Hex, YELLOW)),
        "d1c, d1e, c2d, e2d, d3c, d3e"
    );
    assert_eq!(
        triangle_list(castle_set(Castle::Hex, RED)),
        "d9c, d9e, c10d, e10d, d11c, d11e"
    );
    let mut g = Opprimo::new(&opts("castle=hex"), 0).unwrap();
    assert_eq!(
        legal(&g),
        ["k@d1c", "k@d1e", "k@c2d", "k@e2d", "k@d3c", "k@d3e"]
    );
    play(&mut g, "k@d3c");
    assert_eq!(
        legal(&g),
        ["k@d9c", "k@d9e", "k@c10d", "k@e10d", "k@d11c", "k@d11e"]
    );
}

#[test]
fn ruling_red_castle_triangles_are_named_by_the_lower_point_of_the_vertical_edge() {
    // The mirror image of Yellow's b1a = {b1, b3, a2} is {b13, b11, a12}: named b11a.
    let t = parse_triangle("b11a").unwrap();
    let mut pts: Vec<String> = TRI_POINTS[t as usize].map(point_name).to_vec();
    pts.sort();
    assert_eq!(pts, ["a12", "b11", "b13"]);
    assert_eq!(parse_triangle("b13a"), None);
}

// ---- Setup: King placement -------------------------------------------------------------------

#[test]
fn setup_yellow_then_red_place_their_kings_in_their_castles_as_moves() {
    let mut g = Opprimo::new(&opts("default"), 0).unwrap();
    assert!(legal(&g).iter().all(|m| m.starts_with("k@")));
    assert!(
        g.play_text("k@b11a").is_err(),
        "Red's castle is not Yellow's"
    );
    play(&mut g, "K@B1C");
    assert_eq!(g.ply(), 1);
    assert_eq!(g.to_move(), Seat::Second);
    assert_eq!(legal(&g).len(), 12);
    assert!(legal(&g).iter().all(|m| m.starts_with("k@")));
    assert!(
        g.play_text("b11-b9").is_err(),
        "no soldier moves before the King is placed"
    );
    play(&mut g, "k@f11e");
    assert_eq!(g.king(YELLOW).map(triangle_name).as_deref(), Some("b1c"));
    assert_eq!(g.king(RED).map(triangle_name).as_deref(), Some("f11e"));
    assert!(legal(&g).contains(&"b3-b5".to_string()));
    assert!(legal(&g).iter().all(|m| !m.starts_with("k@")));
}

#[test]
fn clarification_king_placement_obeys_the_no_trap_restriction() {
    let mut g = game("default", "r:b1 r:b3 r:a2", ["-", "-"], YELLOW);
    let moves = legal(&g);
    assert!(!moves.contains(&"k@b1a".to_string()));
    assert!(moves.contains(&"k@b1c".to_string()));
    assert_eq!(moves.len(), 11);
    let e = g.play_text("k@b1a").unwrap_err().to_string();
    assert!(e.contains("trap"), "{e}");
}

// ---- Soldier moves (TEXT) --------------------------------------------------------------------

#[test]
fn text_soldier_steps_one_point_forward_along_a_line() {
    let g = game("default", "y:d5 r:d9", ["b1c", "f11e"], YELLOW);
    assert_eq!(sorted(legal_from(&g, "d5")), strs("d5-d7 d5-c6 d5-e6"));
    let g = game("default", "y:d5 r:d9", ["b1c", "f11e"], RED);
    assert_eq!(sorted(legal_from(&g, "d9")), strs("d9-d7 d9-c8 d9-e8"));
}

#[test]
fn text_soldier_never_moves_backward() {
    let mut g = game("default", "y:d5", ["b1c", "f11e"], YELLOW);
    for m in ["d5-d3", "d5-c4", "d5-e4"] {
        let e = g.play_text(m).unwrap_err().to_string();
        assert!(e.contains("forward only"), "{e}");
    }
}

#[test]
fn text_soldier_steps_only_to_an_empty_point() {
    let g = game("default", "y:d5 y:c6 r:d7", ["b1c", "f11e"], YELLOW);
    assert_eq!(sorted(legal_from(&g, "d5")), strs("d5-e6 d5xd9"));
}

// ---- Conversion (TEXT) -----------------------------------------------------------------------

#[test]
fn text_conversion_jumps_an_adjacent_enemy_to_the_empty_point_beyond_and_flips_it() {
    let mut g = game("default", "y:b3 r:c4", ["b1c", "f11e"], YELLOW);
    play(&mut g, "b3xd5");
    assert_eq!(at(&g, "b3"), None);
    assert_eq!(at(&g, "d5"), Some((YELLOW, false)));
    assert_eq!(
        at(&g, "c4"),
        Some((YELLOW, false)),
        "converted where it stands"
    );
    assert_eq!(g.soldiers(RED), 0);
    assert_eq!(g.to_move(), Seat::Second);
}

#[test]
fn text_conversion_goes_forward_only_for_a_soldier() {
    let g = game("default", "y:d7 r:d5 r:c6", ["b1c", "f11e"], YELLOW);
    let moves = legal_from(&g, "d7");
    assert!(!moves.contains(&"d7xd3".to_string()));
    assert!(!moves.contains(&"d7xb5".to_string()));
    // Red converts forward (down the board) only.
    let g = game("default", "y:d7 r:d5", ["b1c", "f11e"], RED);
    assert!(!legal(&g).contains(&"d5xd9".to_string()));
}

#[test]
fn text_conversion_is_not_forced() {
    let g = game("default", "y:b3 r:c4", ["b1c", "f11e"], YELLOW);
    assert_eq!(sorted(legal_from(&g, "b3")), strs("b3-b5 b3-a4 b3xd5"));
}

#[test]
fn text_conversion_needs_an_empty_landing_point() {
    let g = game("default", "y:b3 r:c4 r:d5", ["b1c", "f11e"], YELLOW);
    assert!(!legal(&g).iter().any(|m| m.contains('x')));
    let g = game("default", "y:b3 r:c4 y:d5", ["b1c", "f11e"], YELLOW);
    assert!(!legal(&g).contains(&"b3xd5".to_string()));
}

#[test]
fn text_conversion_jumps_only_an_enemy_soldier() {
    let mut g = game("default", "y:b3 y:c4", ["b1c", "f11e"], YELLOW);
    assert!(!legal(&g).contains(&"b3xd5".to_string()));
    let e = g.play_text("b3xd5").unwrap_err().to_string();
    assert!(e.contains("no Red soldier"), "{e}");
}

#[test]
fn text_only_one_soldier_is_converted_per_move_and_there_are_no_chains() {
    // Figures 5c/5d: a jump over two soldiers in a row, or two jumps in one move, is not a move.
    let mut g = game("default", "y:b3 r:c4 r:e6", ["b1c", "f11e"], YELLOW);
    assert!(g.parse_move("b3xe6").is_err());
    assert!(g.parse_move("b3xf7").is_err());
    play(&mut g, "b3xd5");
    assert_eq!(
        g.to_move(),
        Seat::Second,
        "the turn ends after one conversion"
    );
    assert_eq!(at(&g, "e6"), Some((RED, false)));
}

#[test]
fn text_a_converted_officer_becomes_a_plain_soldier() {
    let mut g = game("default", "y:b3 R:c4", ["b1c", "f11e"], YELLOW);
    play(&mut g, "b3xd5");
    assert_eq!(at(&g, "c4"), Some((YELLOW, false)));
    assert_eq!(g.officers(), 0);
}

#[test]
fn text_a_soldier_can_be_converted_more_than_once() {
    let mut g = game("default", "y:b3 r:c4 r:c6", ["b1c", "f11e"], YELLOW);
    play(&mut g, "b3xd5");
    assert_eq!(at(&g, "c4"), Some((YELLOW, false)));
    play(&mut g, "c6xc2");
    assert_eq!(at(&g, "c4"), Some((RED, false)), "converted back");
    assert_eq!(at(&g, "c2"), Some((RED, false)));
}

// ---- Officers (TEXT and RULING) --------------------------------------------------------------

#[test]
fn text_a_soldier_that_moves_onto_its_star_becomes_an_officer() {
    let mut g = game("default", "y:d11 y:a12 r:d3", ["b1c", "f11e"], YELLOW);
    play(&mut g, "d11-d13");
    assert_eq!(at(&g, "d13"), Some((YELLOW, true)));
    play(&mut g, "d3-d1");
    assert_eq!(at(&g, "d1"), Some((RED, true)));
    play(&mut g, "a12-b13");
    assert_eq!(at(&g, "b13"), Some((YELLOW, true)));
}

#[test]
fn text_only_the_stars_promote() {
    let mut g = game("default", "y:b11 y:c10 r:b3", ["b1c", "f11e"], YELLOW);
    play(&mut g, "b11-a12");
    assert_eq!(at(&g, "a12"), Some((YELLOW, false)));
    play(&mut g, "b3-a2");
    play(&mut g, "c10-c12");
    assert_eq!(at(&g, "c12"), Some((YELLOW, false)));
    assert_eq!(at(&g, "a2"), Some((RED, false)));
}

#[test]
fn text_an_officer_also_steps_backwards_one_point() {
    let g = game("default", "Y:d7", ["b1c", "f11e"], YELLOW);
    assert_eq!(
        sorted(legal_from(&g, "d7")),
        strs("d7-d9 d7-c8 d7-e8 d7-d5 d7-c6 d7-e6")
    );
    let g = game("default", "R:d7", ["b1c", "f11e"], RED);
    assert_eq!(legal_from(&g, "d7").len(), 6);
}

#[test]
fn clarification_officers_also_convert_backwards() {
    let mut g = game("default", "Y:d7 r:d5 r:e6", ["b1c", "f11e"], YELLOW);
    let moves = legal_from(&g, "d7");
    assert!(moves.contains(&"d7xd3".to_string()));
    assert!(moves.contains(&"d7xf5".to_string()));
    play(&mut g, "d7xd3");
    assert_eq!(
        at(&g, "d3"),
        Some((YELLOW, true)),
        "the jumper stays an Officer"
    );
    assert_eq!(at(&g, "d5"), Some((YELLOW, false)));
}

#[test]
fn ruling_conversion_never_promotes_the_converted_soldier_on_a_star() {
    // The ruling: a soldier that becomes yours by conversion on your star is not promoted. On
    // this board every star is an end of all its lines, so no jump passes over one: a soldier
    // standing on a star can never be converted, and the case cannot arise.
    for p in 0..POINTS as u8 {
        for d in DIRECTIONS {
            if neighbour(p, d, 2).is_some() {
                let mid = neighbour(p, d, 1).unwrap();
                assert_eq!(
                    (STARS[0] | STARS[1]) >> mid & 1,
                    0,
                    "{} jumps a star",
                    point_name(p)
                );
            }
        }
    }
    // A Red soldier on Yellow's star d13 with Yellow soldiers all around stays Red and plain.
    let g = game(
        "default",
        "r:d13 y:d11 y:c12 y:e12",
        ["b1c", "f11e"],
        YELLOW,
    );
    assert!(!legal(&g).iter().any(|m| m.contains('x')));
}

#[test]
fn clarification_a_conversion_landing_on_the_movers_star_promotes_the_jumper() {
    let mut g = game("default", "y:b9 r:b11", ["b1c", "f11e"], YELLOW);
    play(&mut g, "b9xb13");
    assert_eq!(at(&g, "b13"), Some((YELLOW, true)));
    assert_eq!(
        at(&g, "b11"),
        Some((YELLOW, false)),
        "the converted soldier is not promoted"
    );
    let mut g = game("default", "y:b11 r:c12", ["b1c", "f11e"], YELLOW);
    play(&mut g, "b11xd13");
    assert_eq!(at(&g, "d13"), Some((YELLOW, true)));
    let mut g = game("default", "r:f5 y:e4", ["b1c", "f11e"], RED);
    play(&mut g, "f5xd3");
    assert_eq!(at(&g, "d3"), Some((RED, false)), "d3 is not a star");
    let mut g = game("default", "r:f5 y:f3", ["b1c", "f11e"], RED);
    play(&mut g, "f5xf1");
    assert_eq!(at(&g, "f1"), Some((RED, true)));
}

// ---- The King (TEXT and RULING) --------------------------------------------------------------

#[test]
fn text_the_king_moves_to_an_adjacent_triangle_of_its_castle() {
    let g = game("default", "", ["b1c", "f11e"], YELLOW);
    assert_eq!(legal(&g), ["kb1c-b1a", "kb1c-c2b"]);
    let g = game("default", "", ["b1c", "f11e"], RED);
    assert_eq!(legal(&g), ["kf11e-e10f", "kf11e-f11g"]);
}

#[test]
fn text_the_king_cannot_step_outside_its_castle() {
    let mut g = game("default", "", ["c2d", "f11e"], YELLOW);
    assert_eq!(legal(&g), ["kc2d-d1c", "kc2d-c2b"]);
    let e = g.play_text("kc2d-d3c").unwrap_err().to_string();
    assert!(e.contains("outside Yellow's castle"), "{e}");
    let g = game("castle=hex", "", ["d3c", "d11e"], YELLOW);
    assert_eq!(
        legal(&g),
        ["kd3c-c2d", "kd3c-d3e"],
        "c4d is outside the hex castle"
    );
}

#[test]
fn text_a_king_move_is_the_whole_turn_and_the_king_converts_nothing() {
    let mut g = game("default", "y:b3 r:b5 r:c4 r:a4", ["b1c", "f11e"], YELLOW);
    let before = (g.soldiers(YELLOW), g.soldiers(RED));
    play(&mut g, "kb1c-b1a");
    assert_eq!((g.soldiers(YELLOW), g.soldiers(RED)), before);
    assert_eq!(g.to_move(), Seat::Second);
    assert!(
        g.parse_move("kb1c-d1c").is_err(),
        "a King only steps to an adjacent triangle"
    );
}

#[test]
fn ruling_the_king_may_not_move_into_a_triangle_whose_three_points_hold_enemy_soldiers() {
    let mut g = game("default", "R:b1 r:b3 r:a2", ["b1c", "f11e"], YELLOW);
    assert_eq!(legal_from(&g, "k"), ["kb1c-c2b"]);
    let e = g.play_text("kb1c-b1a").unwrap_err().to_string();
    assert!(e.contains("may not enter a trap"), "{e}");
    // Two enemy soldiers (or a friendly one among them) do not make a trap.
    let g = game("default", "r:b1 r:b3 y:a2", ["b1c", "f11e"], YELLOW);
    assert_eq!(legal_from(&g, "k"), ["kb1c-b1a", "kb1c-c2b"]);
}

#[test]
fn clarification_kings_do_not_block_points() {
    // Soldiers step onto the points of both Kings' triangles.
    let g = game("default", "y:c10 y:d1", ["d1e", "d11e"], YELLOW);
    let moves = legal(&g);
    assert!(moves.contains(&"c10-d11".to_string()));
    assert!(moves.contains(&"d1-d3".to_string()));
    assert!(moves.contains(&"d1-e2".to_string()));
}

// ---- End of the game -------------------------------------------------------------------------

fn yellow_wins_by_trap(g: &Opprimo) {
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            seat: Seat::First,
            colour: Colour::Yellow,
            reason: "the enemy King is trapped",
        })
    );
    assert!(legal(g).is_empty());
}

#[test]
fn text_trapping_the_enemy_king_wins() {
    let mut g = game(
        "default",
        "Y:d13 y:e12 y:c10 r:a12",
        ["b1c", "d11e"],
        YELLOW,
    );
    assert_eq!(g.outcome(), None);
    play(&mut g, "c10-d11");
    yellow_wins_by_trap(&g);
    let e = g.play_text("a12-a10").unwrap_err().to_string();
    assert!(e.contains("game is over"), "{e}");
    // Red traps Yellow the same way.
    let mut g = game("default", "r:d5 r:c2 R:d1", ["d1c", "f11e"], RED);
    play(&mut g, "d5-d3");
    assert_eq!(g.outcome().and_then(|o| o.winner()), Some(Seat::Second));
}

#[test]
fn text_officers_count_in_a_trap() {
    let mut g = game("default", "Y:d13 Y:e12 Y:c10", ["b1c", "d11e"], YELLOW);
    play(&mut g, "c10-d11");
    yellow_wins_by_trap(&g);
}

#[test]
fn ruling_a_trap_completed_by_a_conversion_wins() {
    let mut g = game("default", "Y:d13 r:d11 y:c10", ["b1c", "d11e"], YELLOW);
    play(&mut g, "c10xe12");
    yellow_wins_by_trap(&g);
}

#[test]
fn ruling_a_player_with_no_legal_move_passes() {
    // Yellow's King sits in the corner of its band, its only neighbour is a trap, and Yellow
    // has no soldier: Yellow must pass.
    let mut g = game("default", "R:b1 R:b3 R:a2", ["a2b", "f11e"], YELLOW);
    assert_eq!(legal(&g), ["pass"]);
    play(&mut g, "PASS");
    assert_eq!(g.to_move(), Seat::Second);
    assert_eq!(g.ply(), 1);
    assert_eq!(g.outcome(), None);
}

#[test]
fn ruling_pass_is_refused_while_another_move_is_legal() {
    let mut g = Opprimo::new(&opts("default"), 0).unwrap();
    let e = g.play_text("pass").unwrap_err().to_string();
    assert!(e.contains("no other move"), "{e}");
}

#[test]
fn ruling_the_third_occurrence_of_a_position_is_a_draw_counting_the_initial_position() {
    let start = game("default", "y:d5 r:d9", ["b1c", "f11e"], YELLOW);
    let mut g = start.clone();
    let shuffle = "kb1c-b1a kf11e-f11g kb1a-b1c kf11g-f11e";
    play(&mut g, shuffle);
    assert_eq!(g.occurrences(), 2, "the initial position was the first");
    assert_eq!(g.outcome(), None);
    play(&mut g, "kb1c-b1a kf11e-f11g kb1a-b1c");
    assert_eq!(g.outcome(), None);
    play(&mut g, "kf11g-f11e");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: "the same position for the third time"
        })
    );
    assert!(legal(&g).is_empty());
    assert_eq!(g.ply(), 8);
    // From the start the placements are moves; their positions never come back.
    let mut g = Opprimo::new(&opts("default"), 0).unwrap();
    play(&mut g, "k@b1c k@f11e");
    play(&mut g, shuffle);
    play(&mut g, shuffle);
    assert!(g.outcome().is_some());
    assert_eq!(g.ply(), 10);
}

/// Both sides are blocked: Yellow's King in the corner a2b behind a Red trap with no Yellow
/// soldier able to move, Red's likewise in g10f.
fn both_blocked(options: &str) -> Opprimo {
    game(
        options,
        "r:b1 r:a2 r:b3 r:c2 r:d1 y:f11 y:f13 y:g12 y:e12 y:d13",
        ["a2b", "g10f"],
        YELLOW,
    )
}

#[test]
fn ruling_repetition_ends_a_run_of_passes_and_there_is_no_two_pass_rule() {
    let mut g = both_blocked("default");
    assert_eq!(legal(&g), ["pass"]);
    play(&mut g, "pass pass");
    // The board has now been seen three times, but with Yellow to move only twice.
    assert_eq!(g.occurrences(), 2);
    assert_eq!(g.outcome(), None, "two passes do not end the game");
    play(&mut g, "pass");
    assert_eq!(g.outcome(), None);
    play(&mut g, "pass");
    assert_eq!(
        g.outcome().map(|o| o.reason()),
        Some("the same position for the third time")
    );
}

#[test]
fn ruling_a_position_includes_the_side_to_move() {
    let mut g = both_blocked("default");
    play(&mut g, "pass");
    let red_to_move = g.hash();
    play(&mut g, "pass");
    assert_ne!(g.hash(), red_to_move);
    assert_eq!(g.hash(), both_blocked("default").hash());
}

#[test]
fn ruling_max_plies_is_a_draw_and_every_ply_counts() {
    let mut g = Opprimo::new(&opts("max-plies=2"), 0).unwrap();
    play(&mut g, "k@b1c");
    assert_eq!(g.outcome(), None);
    play(&mut g, "k@f11e");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: "max-plies reached"
        })
    );
    assert!(legal(&g).is_empty());
    // Passes count too.
    let mut g = both_blocked("max-plies=3");
    play(&mut g, "pass pass pass");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: "max-plies reached"
        })
    );
}

#[test]
fn ruling_a_trap_is_checked_first_so_a_trap_on_the_last_ply_wins() {
    let mut s = game(
        "max-plies=400",
        "Y:d13 y:e12 y:c10",
        ["b1c", "d11e"],
        YELLOW,
    )
    .setup();
    s.ply = 399;
    let mut g = Opprimo::from_setup(&opts("max-plies=400"), s).unwrap();
    play(&mut g, "c10-d11");
    assert_eq!(g.ply(), 400);
    yellow_wins_by_trap(&g);
}

// ---- Notation and position text (common conventions) ---------------------------------------

#[test]
fn convention_move_text_is_case_insensitive_and_canonically_lower_case() {
    let g = Opprimo::new(&opts("default"), 0).unwrap();
    for (input, canonical) in [
        ("K@D1E", "k@d1e"),
        ("Kd1e-E2D", "kd1e-e2d"),
        ("B3-B5", "b3-b5"),
        ("B3XD5", "b3xd5"),
        ("Pass", "pass"),
    ] {
        match g.parse_move(input) {
            Ok(mv) => assert_eq!(g.format_move(mv), canonical),
            Err(_) => assert_eq!(canonical, "", "{input}"),
        }
    }
    assert_eq!(g.parse_move("b3xd5"), Ok(Move::Convert(7, 15)));
}

#[test]
fn convention_parsing_is_syntax_only_and_errors_say_what_is_accepted() {
    let mut g = Opprimo::new(&opts("default"), 0).unwrap();
    // Well formed but illegal here: parses, then play explains.
    assert!(g.parse_move("b3-b5").is_ok());
    let e = g.play_text("b3-b5").unwrap_err().to_string();
    assert!(e.contains("must first place its King"), "{e}");
    let e = g.play_text("k@d5c").unwrap_err().to_string();
    assert!(e.contains("outside Yellow's castle"), "{e}");
    for (bad, says) in [
        ("z9", "expected a step"),
        ("b3-b9", "not next to"),
        ("b3xb5", "not two points"),
        ("b3-h4", "not a point"),
        ("k@d1a", "not a triangle"),
        ("kd1e", "kFROM-TO"),
        ("", "empty"),
    ] {
        let e = g.parse_move(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
        assert!(e.contains("moves look like"), "{e}");
    }
}

#[test]
fn position_text_round_trips_and_leaves_the_history_out() {
    let mut g = Opprimo::new(&opts("default"), 0).unwrap();
    play(&mut g, "k@b1c k@f11e b3-b5 b11-b9 b5-b7 b9xb5");
    let text = g.position_text();
    assert_eq!(
        text,
        "rrr/rrrr/1rr/4/3/4/r2/4/r2/4/1yy/yyyy/yyy b1c f11e y 6"
    );
    let back = Opprimo::from_position(&opts("default"), &text).unwrap();
    assert_eq!(back.position_text(), text);
    assert_eq!(back.hash(), g.hash());
    assert_eq!(back.ply(), 6);
    let with_officer = game("default", "Y:d13 R:d1", ["-", "-"], RED);
    assert_eq!(
        with_officer.position_text(),
        "1Y1/4/3/4/3/4/3/4/3/4/3/4/1R1 - - r 0"
    );
    // The repetition history starts again from a position text.
    let mut g = game("default", "", ["b1c", "f11e"], YELLOW);
    play(&mut g, "kb1c-b1a kf11e-f11g kb1a-b1c kf11g-f11e");
    assert_eq!(g.occurrences(), 2);
    let back = Opprimo::from_position(&opts("default"), &g.position_text()).unwrap();
    assert_eq!(back.occurrences(), 1);
    // Input may split runs, use '.', and leave out the ply count.
    let loose =
        Opprimo::from_position(&opts("default"), "1Y./22/3/4/3/4/3/4/3/4/3/4/.R. - - R").unwrap();
    assert_eq!(loose.position_text(), with_officer.position_text());
}

#[test]
fn position_text_errors_list_every_problem() {
    let o = opts("default");
    let err = |text: &str| match Opprimo::from_position(&o, text) {
        Err(boardlab_core::NewGameError::Position(e)) => e.problems,
        other => panic!("{text}: expected a position error, got {other:?}"),
    };
    let p = err("rrr/rrrr/rrz/4/3/4/3/4/3/4/yyy/yyyy/yyyy d5c q1 x -3");
    assert!(p.len() >= 5, "{p:?}");
    for part in [
        "'z'",
        "covers 4 points",
        "outside its castle",
        "q1",
        "'x'",
        "'-3'",
    ] {
        assert!(p.iter().any(|s| s.contains(part)), "no '{part}' in {p:?}");
    }
    let p = err("3/4/3/4/3/4/3/4 - - y 0");
    assert!(p[0].contains("13"), "{p:?}");
    let p = err("rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy - - y 401");
    assert!(p[0].contains("max-plies=400"), "{p:?}");
    // Checked state: a trapped King belongs to the side to move, and only one can be trapped.
    let trapped = "3/4/3/4/3/4/3/4/3/4/r2/r3/r2 b1a -";
    let over = Opprimo::from_position(&o, &format!("{trapped} y 9")).unwrap();
    assert_eq!(over.outcome().and_then(|x| x.winner()), Some(Seat::Second));
    let p = err(&format!("{trapped} r 9"));
    assert!(p.iter().any(|s| s.contains("not to move")), "{p:?}");
    let p = err("yy1/y3/y2/4/3/4/3/4/3/4/r2/r3/r2 b1a b11a y 0");
    assert!(p.iter().any(|s| s.contains("both Kings")), "{p:?}");
    assert!(Opprimo::from_position(&o, "").is_err());
}

#[test]
fn the_diagram_shows_the_lattice_names_kings_and_officers() {
    let g = game("default", "Y:d13 y:c4 r:e6 R:d1", ["b1c", "f11e"], RED);
    let d = g.diagram();
    assert!(d.contains("a    b    c    d    e    f    g"), "{d}");
    assert!(d.contains("KY") && d.contains("KR"), "{d}");
    assert!(d.contains('Y') && d.contains('R'));
    assert!(
        d.contains("Yellow King: b1c") && d.contains("Red King: f11e"),
        "{d}"
    );
    assert!(d.lines().any(|l| l.trim_start().starts_with("13 ")), "{d}");
}

#[test]
fn the_rules_page_examples_are_valid() {
    let page = include_str!("../../../docs/rules/opprimo.md");
    let section = &page[page.find("## Position text").unwrap()..];
    let block = section.split("```").nth(1).unwrap();
    let mut checked = 0;
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let (text, comment) = line.split_once("  ").unwrap();
        let g = Opprimo::from_position(&opts("default"), text.trim())
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(g.position_text(), text.trim());
        if let Some(moves) = comment.trim().strip_prefix("after ") {
            let mut start = Opprimo::new(&opts("default"), 0).unwrap();
            play(&mut start, moves);
            assert_eq!(start.position_text(), text.trim());
        }
        checked += 1;
    }
    assert_eq!(checked, 3);
    // The opening quoted under Notation plays.
    let mut g = Opprimo::new(&opts("default"), 0).unwrap();
    play(&mut g, "k@b1c k@f11e b3-b5 b11-b9 b5-b7 b9xb5");
    assert_eq!(at(&g, "b7"), Some((RED, false)));
}

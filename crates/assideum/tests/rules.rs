//! One test per TEXT and RULING line of the assideum section of RULINGS.md (named after the
//! line), plus the relocation cases of the text's Figures 13–15.

use boardlab_assideum::notation::parse_square;
use boardlab_assideum::{Assideum, Board, Facing, Kind, BLACK, START_POSITION, WHITE};
use boardlab_core::{Colour, Game, Outcome, Seat};
use boardlab_core::{Notation, Rules};

/// Builds a position text from tokens: a piece letter (K V S C P R; upper case White, lower
/// case Black) or a Fighter (F White, f Black), a square, then for a Portal or Ranger its
/// facing and for a promoted Ved'rin `+`: `"Ke1 ke8 Pb5e Fe6 fd5 Vd8+"`.
fn pos(spec: &str, side: char) -> String {
    let mut cells = vec![String::new(); 64];
    let mut fighters = vec![(0, 0); 64];
    for tok in spec.split_whitespace() {
        let first = tok.chars().next().unwrap();
        let s = parse_square(&tok[1..3]).unwrap() as usize;
        match first {
            'F' => fighters[s].0 += 1,
            'f' => fighters[s].1 += 1,
            _ => cells[s] = format!("{first}{}", &tok[3..]),
        }
    }
    let mut ranks = Vec::new();
    for r in (0..8).rev() {
        let mut text = String::new();
        let mut run = 0;
        for f in 0..8 {
            let s = r * 8 + f;
            let mut c = cells[s].clone();
            c.push_str(&"F".repeat(fighters[s].0));
            c.push_str(&"f".repeat(fighters[s].1));
            if c.is_empty() {
                run += 1;
                continue;
            }
            if run > 0 {
                text.push_str(&run.to_string());
                run = 0;
            }
            if c.len() == 1 && c != "F" && c != "f" {
                text.push_str(&c);
            } else {
                text.push_str(&format!("[{c}]"));
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        ranks.push(text);
    }
    format!("{} {side} 0", ranks.join("/"))
}

fn game_with(spec: &str, side: char, options: &str) -> Assideum {
    let opts = Assideum::info().parse_options(options).unwrap();
    let text = pos(spec, side);
    Assideum::from_position(&opts, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn game(spec: &str, side: char) -> Assideum {
    game_with(spec, side, "")
}

fn moves(g: &Assideum) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v.iter().map(|m| g.format_move(*m)).collect()
}

fn moves_from(g: &Assideum, prefix: &str) -> Vec<String> {
    moves(g)
        .into_iter()
        .filter(|m| m.starts_with(prefix))
        .collect()
}

fn has(g: &Assideum, m: &str) -> bool {
    moves(g).iter().any(|x| x == m)
}

fn play(g: &mut Assideum, m: &str) {
    g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
}

fn after(g: &Assideum, m: &str) -> Assideum {
    let mut h = g.clone();
    play(&mut h, m);
    h
}

fn sq(name: &str) -> u8 {
    parse_square(name).unwrap()
}

fn b(g: &Assideum) -> &Board {
    g.board()
}

fn set(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn start() -> Assideum {
    Assideum::new(&Assideum::info().default_options(), 0).unwrap()
}

// ---- Introduction (TEXT): siege and victory --------------------------------------------------

#[test]
fn text_siege_occurs_when_the_commander_can_be_attacked_next_turn() {
    assert!(game("Ke1 ke8 se5", 'w').in_siege());
    assert!(!game("Ke1 ke8 sd5", 'w').in_siege());
}

#[test]
fn text_victory_when_the_opponent_cannot_escape_siege() {
    let g = game("Ka1 kh8 sa5 sb5", 'w');
    assert!(g.in_siege());
    assert!(moves(&g).is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            seat: Seat::Second,
            colour: Colour::Black,
            reason: "the Commander cannot escape siege"
        })
    );
    // Giving that siege by a move wins for the mover.
    let g = after(&game("ka8 va7 vb7 Sh1 Ke1", 'w'), "h1-h8");
    assert_eq!(g.outcome().and_then(|o| o.winner()), Some(Seat::First));
}

// ---- Board and setup (RULING, TEXT) -----------------------------------------------------------

#[test]
fn ruling_board_is_8x8_files_a_to_h_ranks_1_to_8() {
    let g = start();
    assert!(g.parse_move("a1-h8").is_ok());
    for bad in ["i1-i2", "a9-a8", "a0-a1", "a1-a9"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn ruling_white_rank_1_and_2_setup() {
    let g = start();
    let expect = [
        Kind::Striker,
        Kind::Portal,
        Kind::Cruiser,
        Kind::Ranger,
        Kind::Commander,
        Kind::Cruiser,
        Kind::Portal,
        Kind::Striker,
    ];
    for (f, k) in expect.into_iter().enumerate() {
        let f = f as u8;
        assert_eq!(b(&g).kind_at(f), Some(k));
        assert_eq!(b(&g).colour_at(f), Some(WHITE));
        assert_eq!(b(&g).kind_at(8 + f), Some(Kind::Vedrin));
        assert_eq!(b(&g).colour_at(8 + f), Some(WHITE));
        let fighters = if k == Kind::Portal { 1 } else { 0 };
        assert_eq!(b(&g).fighters(WHITE, f), fighters);
    }
    assert_eq!(g.position_text(), START_POSITION);
}

#[test]
fn ruling_black_mirrors_on_ranks_8_and_7_on_the_same_files() {
    let g = start();
    for f in 0..8u8 {
        assert_eq!(b(&g).kind_at(56 + f), b(&g).kind_at(f));
        assert_eq!(b(&g).colour_at(56 + f), Some(BLACK));
        assert_eq!(b(&g).fighters(BLACK, 56 + f), b(&g).fighters(WHITE, f));
        assert_eq!(b(&g).kind_at(48 + f), Some(Kind::Vedrin));
        assert_eq!(b(&g).colour_at(48 + f), Some(BLACK));
    }
}

#[test]
fn text_portals_and_rangers_face_forward_at_the_start() {
    let g = start();
    for s in ["b1", "d1", "g1"] {
        assert_eq!(b(&g).facing(sq(s)), Facing::N);
    }
    for s in ["b8", "d8", "g8"] {
        assert_eq!(b(&g).facing(sq(s)), Facing::S);
    }
}

#[test]
fn text_fighters_start_landed_on_the_portals() {
    let g = start();
    assert_eq!(b(&g).f1[WHITE.index()], 1 << sq("b1") | 1 << sq("g1"));
    assert_eq!(b(&g).f1[BLACK.index()], 1 << sq("b8") | 1 << sq("g8"));
    assert_eq!(b(&g).flying(WHITE) | b(&g).flying(BLACK), 0);
}

#[test]
fn text_the_player_with_the_ranger_left_of_the_commander_white_begins() {
    let g = start();
    assert_eq!(g.to_move(), Seat::First);
    assert_eq!(g.colour_of(Seat::First), Some(Colour::White));
    assert_eq!(g.colour_of(Seat::Second), Some(Colour::Black));
    // From White's seat the Ranger (d1) is left of the Commander (e1).
    assert_eq!(b(&g).kind_at(sq("d1")), Some(Kind::Ranger));
    assert_eq!(b(&g).kind_at(sq("e1")), Some(Kind::Commander));
    assert_eq!(moves(&g).len(), 45);
}

// ---- Directions -----------------------------------------------------------------------------

#[test]
fn ruling_forward_is_toward_the_opponent() {
    let g = game("Ke1 ke8 vd5", 'b');
    assert_eq!(
        sorted(moves_from(&g, "d5")),
        set(&["d5-c4", "d5-d4", "d5-e4"])
    );
    let g = game("Ke1 ke8 Vd4", 'w');
    assert_eq!(
        sorted(moves_from(&g, "d4")),
        set(&["d4-c5", "d4-d5", "d4-e5"])
    );
}

#[test]
fn ruling_facings_are_n_e_s_w_only() {
    let g = start();
    assert!(g.parse_move("b1>ne").is_err());
    assert!(g.parse_move("b1>x").is_err());
    assert_eq!(moves_from(&g, "b1>"), ["b1>e", "b1>s", "b1>w"]);
}

// ---- Ground pieces (TEXT) -------------------------------------------------------------------

fn destinations(g: &Assideum, from: &str) -> Vec<String> {
    let mut v: Vec<String> = moves_from(g, from)
        .into_iter()
        .filter(|m| m.len() == 5 && m.as_bytes()[0] != b'f' && m.as_bytes()[0] != b'r')
        .map(|m| m[3..5].to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn text_commander_moves_one_square_in_any_direction() {
    let g = game("Ke4 kh8", 'w');
    assert_eq!(
        destinations(&g, "e4"),
        set(&["d3", "d4", "d5", "e3", "e5", "f3", "f4", "f5"])
    );
}

#[test]
fn text_portal_moves_one_square_in_any_direction() {
    let g = game("Ka1 kh8 Pe4n", 'w');
    assert_eq!(
        destinations(&g, "e4"),
        set(&["d3", "d4", "d5", "e3", "e5", "f3", "f4", "f5"])
    );
}

#[test]
fn text_ranger_moves_one_square_in_any_direction() {
    let g = game("Ka1 kh8 Re4n", 'w');
    assert_eq!(
        destinations(&g, "e4"),
        set(&["d3", "d4", "d5", "e3", "e5", "f3", "f4", "f5"])
    );
}

#[test]
fn text_vedrin_moves_forward_forward_left_or_forward_right() {
    let g = game("Ka1 kh8 Vd4", 'w');
    assert_eq!(destinations(&g, "d4"), set(&["c5", "d5", "e5"]));
}

#[test]
fn text_vedrin_on_the_far_rank_moves_like_the_commander() {
    let g = game("Ke1 kh8 Vd8+", 'w');
    assert_eq!(destinations(&g, "d8"), set(&["c7", "c8", "d7", "e7", "e8"]));
}

#[test]
fn ruling_vedrin_is_promoted_by_reaching_the_far_rank_by_move_or_attack() {
    let g = after(&game("Ke1 kh8 Vd7", 'w'), "d7-d8");
    assert_eq!(b(&g).promoted, 1 << sq("d8"));
    assert!(g.position_text().contains("[V+]"));
    let g = after(&game("Ke1 kh8 Vd7 se8", 'w'), "d7xe8");
    assert_eq!(b(&g).promoted, 1 << sq("e8"));
    let g = after(&game("Ke8 ka8 vd2", 'b'), "d2-c1");
    assert_eq!(b(&g).promoted, 1 << sq("c1"));
}

#[test]
fn ruling_vedrin_attacks_in_all_three_forward_directions() {
    let g = game("Ka1 kh8 Vd4 vc5 vd5 ve5", 'w');
    assert_eq!(
        sorted(moves_from(&g, "d4")),
        set(&["d4xc5", "d4xd5", "d4xe5"])
    );
}

#[test]
fn text_striker_moves_any_distance_orthogonally() {
    let g = game("Kh1 kh8 Sd4", 'w');
    assert_eq!(destinations(&g, "d4").len(), 14);
    assert!(has(&g, "d4-d8") && has(&g, "d4-a4") && !has(&g, "d4-e5"));
}

#[test]
fn text_cruiser_moves_like_a_striker_and_diagonally() {
    let g = game("Kb1 ka8 Cd4", 'w');
    assert_eq!(destinations(&g, "d4").len(), 27);
    assert!(has(&g, "d4-h8") && has(&g, "d4-g1") && has(&g, "d4-a7"));
}

#[test]
fn text_ground_pieces_pass_under_flying_fighters_and_may_end_on_them() {
    let g = game("Kh1 kh8 Sa1 Fa3 fa5", 'w');
    for m in ["a1-a2", "a1-a3", "a1-a5", "a1-a8"] {
        assert!(has(&g, m), "{m}");
    }
    let h = after(&g, "a1-a5");
    assert_eq!(b(&h).kind_at(sq("a5")), Some(Kind::Striker));
    assert_eq!(
        b(&h).fighters(BLACK, sq("a5")),
        1,
        "the Fighter is not attacked"
    );
    assert_eq!(h.quiet_plies(), 1);
}

#[test]
fn text_a_friendly_ground_piece_blocks() {
    let g = game("Kh1 kh8 Sa1 Va4", 'w');
    let file_a: Vec<String> = destinations(&g, "a1")
        .into_iter()
        .filter(|d| d.starts_with('a'))
        .collect();
    assert_eq!(file_a, set(&["a2", "a3"]));
}

#[test]
fn ruling_an_enemy_ground_piece_blocks_or_is_attacked_by_displacement() {
    let g = game("Kh1 kh8 Sa1 va4", 'w');
    assert!(has(&g, "a1xa4"));
    assert!(!has(&g, "a1-a4") && !has(&g, "a1-a5"));
    let h = after(&g, "a1xa4");
    assert_eq!(b(&h).kind_at(sq("a4")), Some(Kind::Striker));
    assert_eq!(b(&h).colour_at(sq("a4")), Some(WHITE));
    assert_eq!(b(&h).colour[BLACK.index()].count_ones(), 1);
}

#[test]
fn text_a_portal_with_a_landed_fighter_is_one_ground_piece_attacking_removes_both() {
    let g = game("Kh1 kh8 Sa1 pa4s fa4", 'w');
    let h = after(&g, "a1xa4");
    assert_eq!(b(&h).fighters(BLACK, sq("a4")), 0);
    assert_eq!(b(&h).f1[BLACK.index()], 0);
}

// ---- Spin (TEXT) ----------------------------------------------------------------------------

#[test]
fn text_a_spin_alone_turns_left_right_or_half_and_must_change_the_facing() {
    let g = start();
    assert_eq!(moves_from(&g, "d1>"), ["d1>e", "d1>s", "d1>w"]);
    let mv = g.parse_move("d1>n").unwrap();
    assert!(!g.is_legal(mv), "a lone spin to the same facing is no move");
    let h = after(&g, "d1>e");
    assert_eq!(b(&h).facing(sq("d1")), Facing::E);
}

#[test]
fn text_a_turn_may_be_a_step_alone_or_a_step_then_a_spin() {
    let g = game("Ka1 kh8 Rd4n", 'w');
    assert_eq!(
        moves_from(&g, "d4-e5"),
        ["d4-e5", "d4-e5>e", "d4-e5>s", "d4-e5>w"]
    );
    // 3 lone spins + 8 destinations × 4.
    assert_eq!(moves_from(&g, "d4").len(), 35);
    let h = after(&g, "d4-e5>w");
    assert_eq!(b(&h).facing(sq("e5")), Facing::W);
    let h = after(&g, "d4-e5");
    assert_eq!(b(&h).facing(sq("e5")), Facing::N);
}

// ---- Flight zones (TEXT) --------------------------------------------------------------------

fn squares(names: &str) -> u64 {
    names
        .split_whitespace()
        .map(|n| 1u64 << sq(n))
        .fold(0, |a, b| a | b)
}

#[test]
fn text_flight_zone_is_3_wide_from_1_behind_to_3_ahead_clipped() {
    let g = game("Kh1 kh8 Pd4n", 'w');
    let want = squares("c3 d3 e3 c4 d4 e4 c5 d5 e5 c6 d6 e6 c7 d7 e7");
    assert_eq!(b(&g).zones(WHITE), want);
    let g = game("Kh1 kh8 Pd4e", 'w');
    let want = squares("c3 c4 c5 d3 d4 d5 e3 e4 e5 f3 f4 f5 g3 g4 g5");
    assert_eq!(b(&g).zones(WHITE), want);
    let g = game("Kh1 kh8 Pa1n", 'w');
    assert_eq!(b(&g).zones(WHITE), squares("a1 b1 a2 b2 a3 b3 a4 b4"));
    let g = game("Kh1 kh8 Pa1w", 'w');
    assert_eq!(b(&g).zones(WHITE), squares("a1 b1 a2 b2"));
}

// ---- Fighters (TEXT) ------------------------------------------------------------------------

#[test]
fn text_a_fighter_is_landed_on_a_friendly_portal_and_flying_otherwise() {
    let g = game("Ke1 ke8 Pd4n Fd4 Fb7 pb7s", 'w');
    assert_eq!(
        b(&g).flying(WHITE),
        1 << sq("b7"),
        "on an enemy Portal it flies"
    );
    assert!(g.diagram().contains("P^F"));
    assert!(g.diagram().contains("pv~F"));
}

#[test]
fn text_a_fighter_flies_straight_in_8_directions_inside_the_zone() {
    let g = game("Kh1 kh8 Pd4n Fd4", 'w');
    assert_eq!(
        sorted(moves_from(&g, "fd4")),
        set(&[
            "fd4-c3", "fd4-c4", "fd4-c5", "fd4-d3", "fd4-d5", "fd4-d6", "fd4-d7", "fd4-e3",
            "fd4-e4", "fd4-e5"
        ])
    );
}

#[test]
fn text_the_fighter_stays_where_it_was_moved() {
    let mut g = game("Kh1 kh8 Pd4n Fd4", 'w');
    play(&mut g, "fd4-d7");
    play(&mut g, "h8-g8");
    assert_eq!(b(&g).fighters(WHITE, sq("d7")), 1);
    assert!(has(&g, "fd7-d4"));
}

#[test]
fn text_fig11_overlapping_zones_count_as_one_area() {
    // c3 zone b2..d6, e3 zone d2..f6: overlap on file d.
    let g = game("Kh1 kh8 Pc3n Fc3 Pe3n", 'w');
    assert!(has(&g, "fc3-f3"));
    assert!(has(&g, "fc3-f6"));
}

#[test]
fn text_fig12_zones_not_overlapped_do_not_join() {
    // b3 zone a2..c6, g3 zone f2..h6: files d and e are outside both.
    let g = game("Kh1 kh8 Pb3n Fb3 Pg3n", 'w');
    assert!(has(&g, "fb3-c3"));
    assert!(!has(&g, "fb3-d3") && !has(&g, "fb3-f3"));
}

#[test]
fn ruling_a_flight_needs_every_square_in_some_friendly_zone() {
    // b3 zone a2..c6 and e3 zone d2..f6 touch without overlapping: every square of the line
    // b3..f3 lies in a zone, so the flight is allowed.
    let g = game("Kh1 kh8 Pb3n Fb3 Pe3n", 'w');
    assert!(has(&g, "fb3-f3"));
    // The starting square must be in a zone too (a Fighter outside cannot fly).
    let g = game("Kh1 ka8 Pb3n Fh8", 'w');
    assert!(moves_from(&g, "fh8").is_empty());
}

#[test]
fn text_only_an_enemy_flying_fighter_blocks_a_fighter() {
    let g = game("Kh1 kh8 Pd2n Fd2 Vd3 vd4 fd5", 'w');
    assert_eq!(
        sorted(
            moves_from(&g, "fd2-d")
                .into_iter()
                .chain(moves_from(&g, "fd2xd"))
                .collect()
        ),
        set(&["fd2-d1", "fd2-d3", "fd2-d4", "fd2xd4", "fd2xd5"])
    );
}

#[test]
fn text_a_fighter_shares_with_friendly_pieces_and_enemy_ground_pieces() {
    let g = game("Kh1 kh8 Pd2n Fd2 Vd3 vd4", 'w');
    let h = after(&g, "fd2-d3");
    assert_eq!(b(&h).fighters(WHITE, sq("d3")), 1);
    let h = after(&g, "fd2-d4");
    assert_eq!(b(&h).fighters(WHITE, sq("d4")), 1);
    assert_eq!(b(&h).colour_at(sq("d4")), Some(BLACK), "it need not attack");
}

#[test]
fn text_a_fighter_never_shares_with_an_enemy_flying_fighter() {
    let g = game("Kh1 kh8 Pd2n Fd2 fd4", 'w');
    assert!(!has(&g, "fd2-d4"));
    assert!(has(&g, "fd2xd4"));
    assert!(!has(&g, "fd2-d5"));
}

#[test]
fn text_a_landed_fighter_with_an_enemy_flying_fighter_may_not_fly_but_may_attack_it() {
    let g = game("Kh1 kh8 Pd4n Fd4 fd4", 'w');
    assert_eq!(moves_from(&g, "fd4"), ["fd4x"]);
    let h = after(&g, "fd4x");
    assert_eq!(b(&h).fighters(BLACK, sq("d4")), 0);
    assert_eq!(b(&h).fighters(WHITE, sq("d4")), 1);
    assert_eq!(h.quiet_plies(), 0);
}

// ---- Fighter attacks (RULINGS) ---------------------------------------------------------------

#[test]
fn ruling_a_moving_onto_enemy_flying_fighters_removes_them_and_stops() {
    let g = game("Kh1 kh8 Pd2n Fd2 fd5", 'w');
    let h = after(&g, "fd2xd5");
    assert_eq!(b(&h).f1[BLACK.index()], 0);
    assert_eq!(b(&h).fighters(WHITE, sq("d5")), 1);
}

#[test]
fn ruling_b_ending_on_an_enemy_ground_piece_the_fighter_may_attack_or_share() {
    let g = game("Kh1 kh8 Pd2n Fd2 vd4", 'w');
    assert!(has(&g, "fd2-d4") && has(&g, "fd2xd4"));
    let h = after(&g, "fd2xd4");
    assert_eq!(b(&h).colour_at(sq("d4")), None);
    assert_eq!(b(&h).fighters(WHITE, sq("d4")), 1);
}

#[test]
fn ruling_c_a_fighter_on_an_enemy_piece_may_strike_in_place_as_its_whole_turn() {
    let g = game("Kh1 kh8 Pd2n Fd4 vd4", 'w');
    assert!(has(&g, "fd4x"));
    let h = after(&g, "fd4x");
    assert_eq!(b(&h).colour_at(sq("d4")), None);
    assert_eq!(b(&h).fighters(WHITE, sq("d4")), 1, "it does not move");
}

#[test]
fn ruling_a_fighter_outside_all_zones_cannot_move_but_can_strike_in_place() {
    // Grounded: White has no Portal.
    let g = game("Kh1 kh8 Fd4 vd4 Fb2", 'w');
    assert_eq!(moves_from(&g, "f"), ["fd4x"]);
}

#[test]
fn ruling_a_portal_destroyed_with_its_landed_fighter_grounds_the_others() {
    // A Fighter strike on a Portal removes it with its landed Fighter.
    let g = game("Ke1 kh8 Pd4n Fd4 fd4", 'b');
    let h = after(&g, "fd4x");
    assert_eq!(b(&h).kind_at(sq("d4")), None);
    assert_eq!(b(&h).f1[WHITE.index()], 0);
    // With its only Portal gone, White's flying Fighter is grounded.
    let g = game("Ke1 kh8 Pd2n Fd5 sa2", 'b');
    let h = after(&g, "a2xd2");
    assert!(moves_from(&h, "fd5").is_empty());
}

// ---- Ranger fire (RULING) -------------------------------------------------------------------

#[test]
fn ruling_a_ranger_fires_along_its_facing_over_ranger_range_squares() {
    let g = game("Kh1 kh8 Rd1n vd4", 'w');
    assert!(has(&g, "rd1*d4g"));
    let h = after(&g, "rd1*d4g");
    assert_eq!(b(&h).colour_at(sq("d4")), None);
    assert_eq!(
        b(&h).kind_at(sq("d1")),
        Some(Kind::Ranger),
        "the Ranger does not move"
    );
    let g = game("Kh1 kh8 Rd1n vd5", 'w');
    assert!(moves_from(&g, "r").is_empty());
    let g = game_with("Kh1 kh8 Rd1n vd5", 'w', "ranger-range=4");
    assert!(has(&g, "rd1*d5g"));
    let g = game_with("Kh1 kh8 Rd1n vd2", 'w', "ranger-range=0");
    assert!(moves_from(&g, "r").is_empty());
    let g = game("Kh1 kh8 Rd1e vd2 vf1+", 'w');
    assert_eq!(moves_from(&g, "r"), ["rd1*f1g"], "only along the facing");
}

#[test]
fn ruling_the_lane_ends_at_the_first_ground_piece() {
    let g = game("Kh1 kh8 Rd1n Vd2 vd3", 'w');
    assert!(moves_from(&g, "r").is_empty());
    let g = game("Kh1 kh8 Rd1n vd2 vd3 fd3", 'w');
    assert_eq!(moves_from(&g, "r"), ["rd1*d2g"]);
}

#[test]
fn ruling_fire_at_the_enemy_flying_fighters_of_one_lane_square_removes_all_of_them() {
    let g = game("Kh1 kh8 Rd1n fd2 fd3", 'w');
    assert_eq!(moves_from(&g, "r"), ["rd1*d2f", "rd1*d3f"]);
    let h = after(&g, "rd1*d3f");
    assert_eq!(b(&h).fighters(BLACK, sq("d3")), 0);
    assert_eq!(b(&h).fighters(BLACK, sq("d2")), 1);
    let g = game("Kh1 kh8 Rd1n fd3 fd3", 'w');
    let h = after(&g, "rd1*d3f");
    assert_eq!(b(&h).f1[BLACK.index()], 0);
}

#[test]
fn ruling_fighters_do_not_block_ranger_fire() {
    let g = game("Kh1 kh8 Rd1n Fd2 fd3 vd4", 'w');
    assert_eq!(moves_from(&g, "r"), ["rd1*d3f", "rd1*d4g"]);
}

#[test]
fn ruling_fire_at_fighters_over_the_first_ground_piece_and_at_that_piece() {
    let g = game("Kh1 kh8 Rd1n vd3 fd3", 'w');
    assert_eq!(moves_from(&g, "r"), ["rd1*d3f", "rd1*d3g"]);
    let h = after(&g, "rd1*d3g");
    assert_eq!(
        b(&h).fighters(BLACK, sq("d3")),
        1,
        "fire at ground spares the Fighters"
    );
    let g = game("Kh1 kh8 Rd1n Vd3 fd3", 'w');
    assert_eq!(moves_from(&g, "r"), ["rd1*d3f"]);
}

#[test]
fn ruling_fire_at_a_portal_removes_its_landed_fighters() {
    let g = game("Kh1 kh8 Rd1n pd3s fd3", 'w');
    let h = after(&g, "rd1*d3g");
    assert_eq!(b(&h).f1[BLACK.index()], 0);
    assert_eq!(b(&h).colour_at(sq("d3")), None);
}

#[test]
fn ruling_no_target_no_fire_move() {
    let g = game("Kh1 kh8 Rd1n", 'w');
    assert!(moves_from(&g, "r").is_empty());
    let g = game("Kh1 kh8 Rd1n Fd2 Vd3", 'w');
    assert!(moves_from(&g, "r").is_empty());
}

#[test]
fn ruling_the_ranger_is_the_only_ground_piece_that_hits_a_flying_fighter() {
    // A ground piece ending under enemy flying Fighters leaves them there.
    let g = game("Kh1 kh8 Cd1 fd4", 'w');
    let h = after(&g, "d1-d4");
    assert_eq!(b(&h).fighters(BLACK, sq("d4")), 1);
    assert!(!moves(&g).iter().any(|m| m == "d1xd4"));
}

// ---- Moving or spinning a Portal (TEXT, Figures 13-15) ---------------------------------------

#[test]
fn text_fig13_a_carried_fighter_keeps_its_position_relative_to_the_portal() {
    // Three ahead and one to the left of the Portal.
    let g = game("Ke1 kh8 Pd2n Fc5", 'w');
    let h = after(&g, "d2-e3");
    assert_eq!(b(&h).f1[WHITE.index()], 1 << sq("d6"));
    // Turned with the spin: three ahead, one to the left of a Portal facing E.
    let h = after(&g, "d2-e3>e");
    assert_eq!(b(&h).f1[WHITE.index()], 1 << sq("h4"));
}

const FIG14: &str = "7k/2[psf]3[rs]1/4[F]3/1[Pe]1[f]4/4[PnF]3/8/8/K7 w 0";

fn fig14() -> Assideum {
    Assideum::from_position(&Assideum::info().default_options(), FIG14).unwrap()
}

#[test]
fn text_fig14_a_fighter_on_overlapped_squares_may_be_carried_or_left_by_either_portal() {
    let g = fig14();
    for m in [
        "b5-c5",
        "b5-c5{e6}",
        "e4-e5",
        "e4-e5{e6}",
        "b5>n",
        "b5>n{e6}",
    ] {
        assert!(has(&g, m), "{m}");
    }
    assert_eq!(b(&after(&g, "b5-c5")).fighters(WHITE, sq("e6")), 1);
    assert_eq!(b(&after(&g, "b5-c5{e6}")).fighters(WHITE, sq("f6")), 1);
    assert_eq!(b(&after(&g, "e4-e5{e6}")).fighters(WHITE, sq("e7")), 1);
}

#[test]
fn text_fig14_a_fighter_landed_on_the_other_portal_is_not_moved() {
    let h = after(&fig14(), "b5-c5{e6}");
    assert_eq!(b(&h).fighters(WHITE, sq("e4")), 1);
}

#[test]
fn text_fig14_a_fighter_landed_on_the_moving_portal_moves_with_it() {
    let h = after(&fig14(), "e4-e3");
    assert_eq!(b(&h).fighters(WHITE, sq("e4")), 0);
    assert_eq!(b(&h).fighters(WHITE, sq("e3")), 1);
    assert_eq!(b(&h).flying(WHITE), 1 << sq("e6"));
}

#[test]
fn text_fig15_off_board_relocation_goes_to_the_nearest_square_and_becomes_the_new_offset() {
    // e8 is one right, two ahead of d6; after d6-d7 it would be on e9: nearest is e8.
    let mut g = game("Ke1 ka8 Pd6n Fe8", 'w');
    play(&mut g, "d6-d7");
    assert_eq!(b(&g).f1[WHITE.index()], 1 << sq("e8"));
    play(&mut g, "a8-a7");
    // The new offset is one right, one ahead: stepping back puts it on e7, not e8.
    play(&mut g, "d7-d6");
    assert_eq!(b(&g).f1[WHITE.index()], 1 << sq("e7"));
    // Both coordinates clamp: a1 is one behind and one left of b2.
    let h = after(&game("Ke1 kh8 Pc3n Fb2", 'w'), "c3-b2>s");
    assert_eq!(b(&h).f1[WHITE.index()], 1 << sq("c3"));
}

#[test]
fn text_carrying_a_fighter_onto_an_enemy_flying_fighter_is_illegal() {
    let g = fig14();
    assert!(has(&g, "b5-a4"));
    let mv = g.parse_move("b5-a4{e6}").unwrap();
    assert!(!g.is_legal(mv));
    // An always-carried Fighter blocks the whole step (with that facing).
    let g = game("Ke1 kh8 Pd2n Fc5 fd6", 'w');
    assert!(moves_from(&g, "d2-e3").iter().all(|m| m != "d2-e3"));
    assert!(has(&g, "d2-e3>e"));
}

#[test]
fn text_carried_fighters_never_attack() {
    let g = game("Ke1 kh8 Pd2n Fc5 vd6", 'w');
    let h = after(&g, "d2-e3");
    assert_eq!(b(&h).colour_at(sq("d6")), Some(BLACK));
    assert_eq!(b(&h).fighters(WHITE, sq("d6")), 1);
    assert_eq!(h.quiet_plies(), 1);
}

#[test]
fn ruling_the_new_square_is_the_portals_new_square_plus_the_offset_turned_by_the_spin() {
    let g = game("Ke1 kh8 Pd4n Fd7", 'w');
    assert_eq!(b(&after(&g, "d4>e")).f1[WHITE.index()], 1 << sq("g4"));
    assert_eq!(b(&after(&g, "d4>s")).f1[WHITE.index()], 1 << sq("d1"));
    assert_eq!(b(&after(&g, "d4>w")).f1[WHITE.index()], 1 << sq("a4"));
}

#[test]
fn ruling_two_carried_fighters_may_end_on_one_square() {
    let g = game("Ke1 kh3 Pd6n Fd7 Fd8", 'w');
    let h = after(&g, "d6-d7");
    assert_eq!(b(&h).fighters(WHITE, sq("d8")), 2);
    assert!(h.position_text().contains("[FF]"));
}

#[test]
fn ruling_a_carried_fighter_ending_on_a_friendly_portal_lands() {
    let g = game("Ke1 kh8 Pb2n Fa1", 'w');
    let h = after(&g, "b2-a1");
    assert_eq!(b(&h).fighters(WHITE, sq("a1")), 1);
    assert_eq!(b(&h).flying(WHITE), 0);
}

#[test]
fn ruling_a_carried_fighter_ending_on_an_enemy_ground_piece_shares_it() {
    let g = game("Ke1 kh8 Pd2n Fc5 pd6s", 'w');
    let h = after(&g, "d2-e3");
    assert_eq!(b(&h).kind_at(sq("d6")), Some(Kind::Portal));
    assert_eq!(b(&h).flying(WHITE), 1 << sq("d6"));
}

#[test]
fn ruling_the_no_enemy_fighter_test_is_made_after_the_move() {
    // The captured Portal's landed Fighter is gone: the carried Fighter may end there.
    let g = game("Ke1 kh8 Pb2n Fa1 pa1s fa1", 'w');
    assert!(has(&g, "b2xa1"));
    let h = after(&g, "b2xa1");
    assert_eq!(b(&h).fighters(WHITE, sq("a1")), 1);
    assert_eq!(b(&h).f1[BLACK.index()], 0);
}

#[test]
fn ruling_a_portal_stepping_onto_its_own_flying_fighter_carries_it_on() {
    let g = game("Ke1 kh8 Pd4n Fd5", 'w');
    let h = after(&g, "d4-d5");
    assert_eq!(b(&h).f1[WHITE.index()], 1 << sq("d6"));
}

#[test]
fn ruling_carry_and_leave_are_separate_moves_even_when_the_position_is_the_same() {
    // h8 is in both zones; carried from g5 to g6 it would go to h9, clamped back to h8.
    let g = game("Ka1 ka8 Pg5n Ph7s Fh8", 'w');
    assert!(has(&g, "g5-g6") && has(&g, "g5-g6{h8}"));
    assert_eq!(
        after(&g, "g5-g6").position_text(),
        after(&g, "g5-g6{h8}").position_text()
    );
}

/// RULINGS, Clarifications, "Carrying" (2026-11-26): the Fighters on a square both zones cover
/// are carried or left each by the mover's choice, so the choice is how many go.
#[test]
fn ruling_carrying_shared_zone_fighters_each_by_choice() {
    // Two White Fighters on d5, which the zones of c3 and e3 (both facing north) cover.
    let g = game("Ke1 kh8 Pc3n Pe3n Fd5 Fd5", 'w');
    assert_eq!(g.position_text(), "7k/8/8/3[FF]4/8/2[Pn]1[Pn]3/8/4K3 w 0");
    // The moves of a step without a spin: its carry choices.
    let unturned = |g: &Assideum, step: &str| -> Vec<String> {
        moves_from(g, step)
            .into_iter()
            .filter(|m| !m.contains('>'))
            .collect()
    };
    // None, one, both: in that order.
    assert_eq!(unturned(&g, "c3-c4"), ["c3-c4", "c3-c4{d5:1}", "c3-c4{d5}"]);
    assert_eq!(unturned(&g, "e3-e4"), ["e3-e4", "e3-e4{d5:1}", "e3-e4{d5}"]);
    assert_eq!(moves_from(&g, "c3>e").len(), 3);
    assert_eq!(boardlab_core::perft::perft(&g, 1), 229);
    let count = |h: &Assideum, s: &str| b(h).fighters(WHITE, sq(s));
    let none = after(&g, "c3-c4");
    assert_eq!((count(&none, "d5"), count(&none, "d6")), (2, 0));
    let one = after(&g, "c3-c4{d5:1}");
    assert_eq!((count(&one, "d5"), count(&one, "d6")), (1, 1));
    let both = after(&g, "c3-c4{d5}");
    assert_eq!((count(&both, "d5"), count(&both, "d6")), (0, 2));
    // A square named alone still means all of its Fighters, as in records written before
    // partial carrying; a count equal to all of them, or the square named once per Fighter,
    // is the same move.
    for text in ["c3-c4{d5,d5}", "c3-c4{d5:2}", "C3-C4{D5}"] {
        assert_eq!(
            g.format_move(g.parse_move(text).unwrap()),
            "c3-c4{d5}",
            "{text}"
        );
    }
    assert!(g.parse_move("c3-c4{d5,d5,d5}").is_err());
    // Where a square holds one Fighter, `:1` is all of them; one Fighter on each of two shared
    // squares still gives four choices.
    let g = game("Ke1 kh8 Pc3n Pe3n Fd5 Fd6", 'w');
    assert_eq!(
        unturned(&g, "c3-c4"),
        ["c3-c4", "c3-c4{d5}", "c3-c4{d6}", "c3-c4{d5,d6}"]
    );
    assert_eq!(
        g.format_move(g.parse_move("c3-c4{d5:1}").unwrap()),
        "c3-c4{d5}"
    );
    assert!(!g.is_legal(g.parse_move("c3-c4{d5:2}").unwrap()));
    // Carrying onto an enemy flying Fighter stays illegal for one Fighter as for both: a Black
    // Fighter on d6 (where d5's Fighters would go) leaves only "none".
    let g = game("Ke1 kh8 Pc3n Pe3n Fd5 Fd5 fd6", 'w');
    assert_eq!(unturned(&g, "c3-c4"), ["c3-c4"]);
}

#[test]
fn ruling_a_landed_fighter_under_an_enemy_flying_fighter_still_moves_with_its_portal() {
    let g = game("Ke1 kh8 Pd4n Fd4 fd4", 'w');
    let h = after(&g, "d4-d5");
    assert_eq!(b(&h).fighters(WHITE, sq("d5")), 1);
    assert_eq!(b(&h).fighters(BLACK, sq("d4")), 1);
}

#[test]
fn ruling_landed_fighters_are_not_carried_so_a_portal_may_step_under_enemy_fighters() {
    let g = game("Ke1 kh8 Pd4n Fd4 fd5", 'w');
    let h = after(&g, "d4-d5");
    assert_eq!(b(&h).fighters(WHITE, sq("d5")), 1);
    assert_eq!(b(&h).fighters(BLACK, sq("d5")), 1);
}

// ---- Clarifications (RULINGS) ----------------------------------------------------------------

#[test]
fn ruling_one_ground_piece_per_square_and_no_two_sides_flying_fighters_together() {
    let opts = Assideum::info().default_options();
    let e = Assideum::from_position(&opts, &pos("Ke1 kh8 Fd5 fd5", 'w')).unwrap_err();
    assert!(
        e.to_string().contains("flying Fighters of both colours"),
        "{e}"
    );
    let e = Assideum::from_position(&opts, "4k3/8/8/8/8/8/8/4[KS]3 w").unwrap_err();
    assert!(e.to_string().contains("'S' is not allowed here"), "{e}");
}

#[test]
fn ruling_fighters_on_one_square_are_interchangeable_moves_are_per_square() {
    let g = game("Ke1 kh8 Pd4n Fd4 Fd4", 'w');
    let n = moves(&g).iter().filter(|m| *m == "fd4-d5").count();
    assert_eq!(n, 1);
    let h = after(&g, "fd4-d5");
    assert_eq!(b(&h).fighters(WHITE, sq("d4")), 1);
    assert_eq!(b(&h).fighters(WHITE, sq("d5")), 1);
}

#[test]
fn ruling_an_attack_on_enemy_flying_fighters_removes_all_of_them_there() {
    let g = game("Ke1 kh8 Pd2n Fd2 fd5 fd5", 'w');
    let h = after(&g, "fd2xd5");
    assert_eq!(b(&h).f1[BLACK.index()], 0);
}

#[test]
fn ruling_entering_enemy_fighters_and_ground_removes_only_the_fighters() {
    let g = game("Ke1 kh8 Pd2n Fd2 vd5 fd5", 'w');
    assert!(!has(&g, "fd2-d5"));
    let h = after(&g, "fd2xd5");
    assert_eq!(b(&h).colour_at(sq("d5")), Some(BLACK));
    assert_eq!(b(&h).f1[BLACK.index()], 0);
}

#[test]
fn ruling_a_flying_fighter_over_its_own_commander_shields_it_from_enemy_fighters() {
    assert!(!game("Pd4n Fd4 Ke1 kd6 fd6", 'b').in_siege());
    assert!(game("Pd4n Fd4 Ke1 kd6", 'b').in_siege());
}

#[test]
fn ruling_an_in_place_strike_is_one_move_per_square_fighters_first() {
    let g = game("Ke1 kh8 Fd4 Fd4 vd4", 'w');
    assert_eq!(moves(&g).iter().filter(|m| *m == "fd4x").count(), 1);
    // Landed under an enemy flying Fighter: the strike hits the Fighter, not a ground piece.
    let h = after(&game("Ke1 kh8 Pd4n Fd4 fd4", 'w'), "fd4x");
    assert_eq!(b(&h).f1[BLACK.index()], 0);
}

#[test]
fn ruling_a_fighter_flies_only_from_start_path_and_stop_in_the_zones_at_the_start_of_the_turn() {
    let g = game("Ke1 kh8 Pd4n Fd4", 'w');
    assert!(!has(&g, "fd4-d8"), "d8 is outside the zone");
    // The zone that counts is the one before the move: after the Portal turns, the same
    // Fighter flies in the new zone on the next turn only.
    let mut g = game("Ke1 kh8 Pd4n Fd4", 'w');
    play(&mut g, "d4>e");
    play(&mut g, "h8-g8");
    assert!(has(&g, "fd4-g4") && !has(&g, "fd4-d7"));
}

#[test]
fn ruling_a_flight_onto_enemy_ground_gives_two_moves_onto_enemy_fighters_one() {
    let g = game("Ke1 kh8 Pd2n Fd2 vd4 fe2", 'w');
    assert!(has(&g, "fd2-d4") && has(&g, "fd2xd4"));
    assert!(has(&g, "fd2xe2") && !has(&g, "fd2-e2"));
}

#[test]
fn ruling_a_spin_alone_gives_3_moves_and_every_step_the_plain_step_and_3_spins() {
    let g = game("Ka1 kh8 Pd4n vd5", 'w');
    assert_eq!(moves_from(&g, "d4>").len(), 3);
    assert_eq!(
        moves_from(&g, "d4xd5"),
        ["d4xd5", "d4xd5>e", "d4xd5>s", "d4xd5>w"]
    );
}

#[test]
fn ruling_siege_uses_pseudo_legal_attacks_even_of_a_pinned_piece() {
    // The Black Striker on e5 may not move (its Commander would be exposed on rank 5), yet
    // it puts White in siege.
    let g = game("Ke1 ka5 se5 Sh5", 'w');
    assert!(g.in_siege());
}

#[test]
fn ruling_a_capturing_portal_counts_for_siege_if_any_spin_or_carry_variant_is_legal() {
    // Every variant of b2xa1 would put a carried Black Fighter on a White flying Fighter
    // (a1 over the Commander, a2).
    let g = game("Ka1 Fa1 Fa2 kh8 pb2s fb3 fc1", 'w');
    assert!(!g.in_siege());
    // Without the a2 Fighter the plain capture is possible.
    let g = game("Ka1 Fa1 kh8 pb2s fb3 fc1", 'w');
    assert!(g.in_siege());
}

#[test]
fn ruling_no_legal_move_ever_removes_a_commander() {
    let opts = Assideum::info().default_options();
    let mut rng = boardlab_core::rng(3);
    let mut buf = Vec::new();
    for _ in 0..20 {
        let mut g = Assideum::new(&opts, 0).unwrap();
        while let Some(m) = g.random_move(&mut rng, &mut buf) {
            let mut all = Vec::new();
            g.legal_moves(&mut all);
            for &mv in &all {
                let mut h = g.clone();
                h.play_unchecked(mv);
                assert!(
                    h.board().commander(WHITE).is_some() && h.board().commander(BLACK).is_some()
                );
            }
            g.play_unchecked(m);
        }
    }
}

#[test]
fn ruling_end_checks_no_legal_move_comes_before_the_draws() {
    // The mating move is also the last quiet ply allowed: siege with no escape wins.
    let g = game_with("ka8 va7 vb7 Sh1 Ke1", 'w', "quiet-plies=1");
    let h = after(&g, "h1-h8");
    assert_eq!(h.outcome().and_then(|o| o.winner()), Some(Seat::First));
}

#[test]
fn ruling_repetition_counts_the_initial_position() {
    let mut g = start();
    for m in ["b1>e", "b8>e", "b1>n", "b8>s"] {
        play(&mut g, m);
    }
    assert_eq!(g.repetitions(), 2);
    assert!(g.outcome().is_none());
    for m in ["b1>e", "b8>e", "b1>n", "b8>s"] {
        play(&mut g, m);
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: "third repetition"
        })
    );
    assert!(moves(&g).is_empty());
}

#[test]
fn ruling_a_position_is_every_ground_piece_with_facing_and_promotion_every_fighter_and_the_side() {
    let g = start();
    let spun = after(&g, "d1>e");
    assert_ne!(spun.hash(), g.hash());
    let a = game("Ke1 kh8 Vd7", 'w');
    let p = game("Ke1 kh8 Vd7+", 'w');
    assert_ne!(a.hash(), p.hash());
    let f1 = game("Ke1 kh8 Fd4", 'w');
    let f2 = game("Ke1 kh8 Fd5", 'w');
    let f3 = game("Ke1 kh8 Fd4 Fd4", 'w');
    assert_ne!(f1.hash(), f2.hash());
    assert_ne!(f1.hash(), f3.hash());
    assert_ne!(game("Ke1 kh8", 'w').hash(), game("Ke1 kh8", 'b').hash());
}

#[test]
fn ruling_any_removal_resets_the_quiet_count() {
    let mut g = game("Kh1 kh8 Rd1n Pb1n Fb1 fd2 vb4", 'w');
    play(&mut g, "b1-c2");
    play(&mut g, "h8-g8");
    assert_eq!(g.quiet_plies(), 2);
    play(&mut g, "rd1*d2f");
    assert_eq!(g.quiet_plies(), 0);
    play(&mut g, "g8-h8");
    play(&mut g, "fc2-b3");
    play(&mut g, "h8-g8");
    assert_eq!(g.quiet_plies(), 3);
    play(&mut g, "fb3xb4");
    assert_eq!(g.quiet_plies(), 0);
}

// ---- Siege and victory (RULINGS) -------------------------------------------------------------

#[test]
fn ruling_siege_by_ranger_fire() {
    let g = game("Ke1 kh8 re4s", 'w');
    assert!(g.in_siege());
    assert!(!has(&g, "e1-e2"));
    assert!(has(&g, "e1-d1"));
    assert!(!game_with("Ke1 kh8 re4s", 'w', "ranger-range=2").in_siege());
}

#[test]
fn ruling_siege_by_a_fighter_flight_or_strike() {
    assert!(game("Ke1 kh8 pe4s fe3", 'w').in_siege());
    // An own flying Fighter on the path blocks; one over the Commander shields it.
    assert!(!game("Ke1 Fe2 kh8 pe4s fe3", 'w').in_siege());
    assert!(!game("Ke1 Fe1 kh8 pe4s fe3", 'w').in_siege());
    // Strike in place, even outside any zone.
    assert!(game("Ke1 fe1 kh8", 'w').in_siege());
}

#[test]
fn ruling_no_move_may_leave_the_own_commander_in_siege() {
    let g = game("Ke1 Se2 ka8 se7", 'w');
    assert!(!has(&g, "e2-d2"));
    assert!(has(&g, "e2-e3") && has(&g, "e2xe7"));
    // Nor step into siege: next to the enemy Commander.
    let g = game("Ke1 ke3", 'w');
    assert_eq!(sorted(moves(&g)), set(&["e1-d1", "e1-f1"]));
}

#[test]
fn ruling_no_legal_move_without_siege_is_a_stalemate_draw() {
    let g = game("Ka1 kh8 sb8 va3", 'w');
    assert!(!g.in_siege());
    assert!(moves(&g).is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: "stalemate: no legal move"
        })
    );
}

#[test]
fn ruling_quiet_plies_draw_after_n_plies_without_a_removal() {
    let opts = Assideum::info().parse_options("quiet-plies=4").unwrap();
    let mut g = Assideum::new(&opts, 0).unwrap();
    for m in ["b1>e", "b8>e", "b1>n"] {
        play(&mut g, m);
    }
    assert!(g.outcome().is_none());
    play(&mut g, "b8>w");
    assert!(matches!(g.outcome(), Some(Outcome::Draw { .. })));
    assert!(moves(&g).is_empty());
    // The default is 100.
    let mut g = start();
    let mut rng = boardlab_core::rng(11);
    let mut buf = Vec::new();
    let mut last_quiet = 0;
    while let Some(m) = g.random_move(&mut rng, &mut buf) {
        g.play_unchecked(m);
        last_quiet = g.quiet_plies();
    }
    assert!(last_quiet <= 100);
}

// ---- Options, notation and position text -----------------------------------------------------

#[test]
fn options_are_ranger_range_and_quiet_plies_with_their_defaults() {
    let info = Assideum::info();
    let names: Vec<&str> = info.options.iter().map(|o| o.name).collect();
    assert_eq!(names, ["ranger-range", "quiet-plies"]);
    let d = info.default_options();
    assert_eq!(d.get("ranger-range"), "3");
    assert_eq!(d.get("quiet-plies"), "100");
    let e = info.parse_options("ranger-range=9").unwrap_err();
    assert!(e.to_string().contains("0 to 7"), "{e}");
    let e = info.parse_options("quiet-plies=0").unwrap_err();
    assert!(e.to_string().contains("1 to 10000"), "{e}");
}

#[test]
fn notation_examples_of_the_rules_page_parse_and_print_back() {
    let g = start();
    for m in [
        "b2-b3",
        "c1xc5",
        "b1>e",
        "b1-b2>w",
        "d1xe2>s",
        "b5-a5{e6}",
        "e4>w{d6,e6}",
        "c3-c4{d5:1}",
        "fb1-b4",
        "fb1xb4",
        "fb4x",
        "rd1*d3f",
        "rd1*d4g",
    ] {
        let mv = g.parse_move(m).unwrap();
        assert_eq!(g.format_move(mv), m);
        assert_eq!(g.parse_move(&m.to_uppercase()).unwrap(), mv);
    }
    let e = g.parse_move("b2-").unwrap_err();
    assert!(e.to_string().contains("destination"), "{e}");
}

#[test]
fn illegal_moves_are_refused_with_a_reason_and_leave_the_game_unchanged() {
    let mut g = game("Ke1 ka8 Se2 se7", 'w');
    let before = g.clone();
    let e = g.play_text("e2-d2").unwrap_err();
    assert!(e.to_string().contains("siege"), "{e}");
    let e = g.play_text("e2-e7").unwrap_err();
    assert!(e.to_string().contains("e2xe7"), "{e}");
    assert_eq!(g, before);
}

#[test]
fn position_text_round_trips_and_lists_every_problem() {
    let g = fig14();
    assert_eq!(g.position_text(), FIG14);
    let opts = Assideum::info().default_options();
    let e = Assideum::from_position(&opts, "8/8/8/8/8/8/8/[Pq]SSSk2 x").unwrap_err();
    let problems = match e {
        boardlab_core::NewGameError::Position(p) => p.problems,
        other => panic!("{other}"),
    };
    assert!(problems.len() >= 3, "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("facing")));
    assert!(problems.iter().any(|p| p.contains("side to move")));
    let e = Assideum::from_position(&opts, &pos("Ke1 kh8 Sa1 Sb1 Sc1", 'w')).unwrap_err();
    assert!(e.to_string().contains("3 Strikers"), "{e}");
    let e = Assideum::from_position(&opts, &pos("Ke1 kh8 Vd8", 'w')).unwrap_err();
    assert!(e.to_string().contains("far rank"), "{e}");
    let e = Assideum::from_position(&opts, &pos("Ke1 ke8 Se2", 'w')).unwrap_err();
    assert!(e.to_string().contains("in siege"), "{e}");
}

#[test]
fn the_diagram_shows_facings_landed_and_flying_fighters_and_shared_squares() {
    let d = fig14().diagram();
    assert!(d.contains("P>"), "Portal facing E:\n{d}");
    assert!(d.contains("P^F"), "landed Fighter:\n{d}");
    assert!(d.contains("pvf"), "Black landed Fighter:\n{d}");
    assert!(
        d.contains(".~F") && d.contains(".~f"),
        "flying Fighters:\n{d}"
    );
    let d = game("Ke1 fe1 kh8", 'w').diagram();
    assert!(d.contains("K~f"), "a Fighter over a Commander:\n{d}");
    assert!(d.contains("in siege"));
}

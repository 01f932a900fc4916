//! assideum's checks against the reference data and the plain reference engine beyond the
//! engine suite (a module of `engine.rs`, so that they run alongside it): the reference move
//! lists at depth 1, perft 2 of the reference scenarios and of Fighters on a shared square,
//! crowded random positions, and perft 3 from the start.

use crate::common;
use boardlab_assideum::Assideum;
use boardlab_core::perft::{perft, read_cases};
use boardlab_core::testkit::reference_perft;
use boardlab_core::{Game, Options};
use boardlab_core::{Notation, Rules};
use std::collections::BTreeSet;

const PERFT: &str = include_str!("../perft/reference.txt");

const DEPTH1: &str = include_str!("../perft/depth1_moves.txt");

fn options(text: &str) -> Options {
    Assideum::info().parse_options(text).unwrap()
}

/// The reference counter's plain notation mapped to ours: ours is the same shape in lower
/// case (`Rd1*d4G` → `rd1*d4g`, `b5-a4>N{e6}` → `b5-a4>n{e6}`, `Fe4xd5` → `fe4xd5`).
fn from_reference_notation(text: &str) -> String {
    text.to_ascii_lowercase()
}

#[test]
fn depth1_move_sets_match_the_reference_lists_exactly() {
    let cases = read_cases(PERFT).unwrap();
    let mut lists: Vec<(String, Vec<String>)> = Vec::new();
    for line in DEPTH1.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix("case ") {
            lists.push((name.to_string(), Vec::new()));
        } else {
            lists.last_mut().unwrap().1.push(line.to_string());
        }
    }
    assert_eq!(lists.len(), 2);
    for (name, reference) in lists {
        let case = cases.iter().find(|c| c.name == name).unwrap();
        let game =
            Assideum::from_position(&options(""), case.position.as_deref().unwrap()).unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let ours: BTreeSet<String> = moves.iter().map(|m| game.format_move(*m)).collect();
        assert_eq!(ours.len(), moves.len(), "{name}: duplicate move texts");
        // Semantically: every reference move parses (our parser is case-insensitive) to one of
        // our legal moves, and the sets coincide.
        let mut parsed = BTreeSet::new();
        for r in &reference {
            let mv = game
                .parse_move(r)
                .unwrap_or_else(|e| panic!("{name}: reference move {r} does not parse: {e}"));
            assert!(
                game.is_legal(mv),
                "{name}: reference move {r} is not legal here"
            );
            assert_eq!(game.format_move(mv), from_reference_notation(r));
            parsed.insert(game.format_move(mv));
        }
        let theirs: BTreeSet<String> = reference
            .iter()
            .map(|r| from_reference_notation(r))
            .collect();
        let only_ours: Vec<_> = ours.difference(&theirs).collect();
        let only_theirs: Vec<_> = theirs.difference(&ours).collect();
        assert!(
            only_ours.is_empty() && only_theirs.is_empty(),
            "{name}: only ours {only_ours:?}; only reference {only_theirs:?}"
        );
        assert_eq!(parsed, ours);
    }
}

/// Seeds per option set for the reference comparisons (`BOARDLAB_REFERENCE_GAMES`, default 3).
fn reference_games() -> u64 {
    std::env::var("BOARDLAB_REFERENCE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// The reference scenarios (Portals with shared zones, siege) one move deeper in both engines.
#[test]
fn fast_and_reference_agree_on_perft_2_of_the_scenarios() {
    for case in read_cases(PERFT).unwrap() {
        let Some(position) = case.position.as_deref() else {
            continue;
        };
        let game = Assideum::from_position(&options(&case.options), position).unwrap();
        let r = common::reference_for(&game);
        assert_eq!(perft(&game, 2), reference_perft(&r, 2), "{}", case.name);
    }
}

/// Two Fighters on a square both friendly zones cover (carried none, one or both), with the
/// carry blocked by an enemy Fighter, over an enemy ground piece, for Black, and with Portals
/// facing east: perft 2 in both engines.
#[test]
fn fast_and_reference_agree_on_two_fighters_on_a_shared_square() {
    for position in [
        "7k/8/8/3[FF]4/8/2[Pn]1[Pn]3/8/4K3 w 0",
        "7k/8/3f4/3[FF]4/8/2[Pn]1[Pn]3/8/4K3 w 0",
        "7k/8/8/3[vFF]4/8/2[Pn]1[Pn]3/8/4K3 w 0",
        "4k3/8/2[ps]1[ps]3/8/3[ff]4/8/8/K7 b 0",
        "7k/8/8/8/2[Pe]5/3[FF]4/2[Pe]5/K7 w 0",
        "7k/8/8/8/2[PeF]5/3[F]4/2[Pe]5/K7 w 0",
    ] {
        let game = Assideum::from_position(&options("default"), position).unwrap();
        let r = common::reference_for(&game);
        assert_eq!(perft(&game, 2), reference_perft(&r, 2), "{position}");
    }
}

/// A random, mostly crowded position: both Commanders, a few pieces of each kind, Portals with
/// random facings and Fighters close to them (stacked, landed, over enemy pieces), either side
/// to move. `None` when the drawing is not a valid position (e.g. the side not to move is in
/// siege).
fn random_position(rng: &mut impl boardlab_core::rand::Rng) -> Option<Assideum> {
    let mut cells: Vec<String> = vec![String::new(); 64];
    let mut free: Vec<usize> = (0..64).collect();
    let mut take =
        |rng: &mut dyn boardlab_core::rand::RngCore, near: Option<usize>| -> Option<usize> {
            use boardlab_core::rand::Rng;
            let candidates: Vec<usize> = match near {
                Some(p) => free
                    .iter()
                    .copied()
                    .filter(|&s| (s % 8).abs_diff(p % 8) <= 3 && (s / 8).abs_diff(p / 8) <= 3)
                    .collect(),
                None => free.clone(),
            };
            if candidates.is_empty() {
                return None;
            }
            let s = candidates[rng.random_range(0..candidates.len())];
            free.retain(|&x| x != s);
            Some(s)
        };
    let mut portals = [Vec::new(), Vec::new()];
    for (c, letters) in [(0, "KVSCPR"), (1, "kvscpr")] {
        for (i, l) in letters.chars().enumerate() {
            let n = match i {
                0 => 1,
                1 => rng.random_range(0..4),
                4 => [0, 1, 2, 2, 2][rng.random_range(0..5)],
                5 => rng.random_range(0..2),
                _ => rng.random_range(0..3),
            };
            for _ in 0..n {
                // A second Portal usually stands near the first, so that the zones overlap.
                let near = if "Pp".contains(l) && rng.random_range(0..4) > 0 {
                    portals[c].first().copied()
                } else {
                    None
                };
                let s = take(rng, near)?;
                let mut t = l.to_string();
                if "PpRr".contains(l) {
                    t.push(['n', 'e', 's', 'w'][rng.random_range(0..4)]);
                }
                if "Vv".contains(l) {
                    let (back, far) = if c == 0 { (0, 7) } else { (7, 0) };
                    if s / 8 == back {
                        return None;
                    }
                    if s / 8 == far || rng.random_range(0..4) == 0 {
                        t.push('+');
                    }
                }
                if "Pp".contains(l) {
                    portals[c].push(s);
                }
                cells[s] = t;
            }
        }
    }
    for c in 0..2 {
        let fighters = [0, 1, 2, 2][rng.random_range(0..4)];
        for _ in 0..fighters {
            let s = match portals[c].first() {
                Some(_) if rng.random_range(0..5) > 0 => {
                    let q = portals[c][rng.random_range(0..portals[c].len())];
                    // Close to a Portal: within two files and ranks.
                    let x = (q % 8) as i32 + rng.random_range(-2..=2);
                    let y = (q / 8) as i32 + rng.random_range(-2..=2);
                    (y.clamp(0, 7) * 8 + x.clamp(0, 7)) as usize
                }
                _ => rng.random_range(0..64),
            };
            cells[s].push(if c == 0 { 'F' } else { 'f' });
        }
    }
    let mut ranks = Vec::new();
    for r in (0..8).rev() {
        let mut t = String::new();
        let mut run = 0;
        for f in 0..8 {
            let cell = &cells[r * 8 + f];
            if cell.is_empty() {
                run += 1;
                continue;
            }
            if run > 0 {
                t.push_str(&run.to_string());
                run = 0;
            }
            t.push_str(&format!("[{cell}]"));
        }
        if run > 0 {
            t.push_str(&run.to_string());
        }
        ranks.push(t);
    }
    let side = if rng.random_range(0..2) == 0 {
        'w'
    } else {
        'b'
    };
    let text = format!("{} {side} 0", ranks.join("/"));
    Assideum::from_position(&options("default"), &text).ok()
}

/// Crowded random positions (rare Fighter and Portal configurations), perft 2 in both engines.
#[test]
fn fast_and_reference_agree_on_perft_from_crowded_random_positions() {
    let mut rng = boardlab_core::rng(2024);
    let mut checked = 0;
    let mut tries = 0;
    while checked < reference_games() * 8 && tries < 100_000 {
        tries += 1;
        let Some(game) = random_position(&mut rng) else {
            continue;
        };
        let r = common::reference_for(&game);
        assert_eq!(
            perft(&game, 2),
            reference_perft(&r, 2),
            "{}",
            game.position_text()
        );
        checked += 1;
    }
    assert_eq!(checked, reference_games() * 8);
}

/// One move deeper than the shared counts from the opening: both engines agree (98 360).
#[test]
fn fast_and_reference_agree_on_perft_3_from_the_start() {
    let game = Assideum::new(&options("default"), 0).unwrap();
    let r = common::reference_for(&game);
    let fast = perft(&game, 3);
    assert_eq!(fast, reference_perft(&r, 3));
    assert_eq!(fast, 98_360);
}

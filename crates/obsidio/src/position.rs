//! The position text: `BOARD SIDE supply=… anchor=… swap=… passes=… claimer=… last=…`.
//!
//! - `BOARD`: the ranks from the top (rank n) down to rank 1, separated by `/`, each with one
//!   character per square from file a: `.` empty dark or light square, `+` unclaimed target,
//!   `b`/`w` a Black/White influence token, `B`/`W` a target claimed by Black/White (the
//!   square decides which: letters are read in either case).
//! - `SIDE`: the colour to move, `b` or `w`.
//! - `supply=B/W`: tokens left to Black and White, or `supply=-` when unlimited. It must
//!   equal the `tokens` option less the colour's tokens on the board.
//! - `anchor=SQUARE` or `anchor=-` (no anchor: placements are free).
//! - `swap=start|offer|swapped|closed`: no move played yet; the second seat's first turn
//!   (it may swap with `pie=true`); the seats have swapped colours; no swap (any more).
//! - `passes=0|1|2`: passes in a row.
//! - `claimer=b|w|-`: the colour whose move most recently contained a claim.
//! - `last=MOVE/MOVE`: Black's and White's last placement or claim, `-` for none (markers
//!   for display only).
//!
//! Every `key=value` item may be left out on input: `supply` then follows from the board,
//! `anchor` is `-`, `swap` is `start` on an empty board and `closed` otherwise, `passes` is
//! 0, `claimer` is `-` (it must be given once a target is claimed), `last` is `-/-`.

use crate::geometry::{Kind, NO_SQUARE};
use crate::{side_letter, Move, Obsidio, Side, SwapState, BLACK, UNLIMITED, WHITE};
use boardlab_core::PositionError;
use boardlab_core::{Audit, Notation};
use std::fmt::Write as _;

/// Writes the position text of `game`.
pub(crate) fn format(game: &Obsidio) -> String {
    let g = game.geometry();
    let n = g.n;
    let mut s = String::new();
    for r in (0..n).rev() {
        if r != n - 1 {
            s.push('/');
        }
        for f in 0..n {
            let sq = r * n + f;
            let bit = 1u128 << sq;
            let c = match g.kind(sq) {
                Kind::Target => {
                    let t = g.target_index[sq as usize];
                    if game.claimed[BLACK.index()] >> t & 1 == 1 {
                        'B'
                    } else if game.claimed[WHITE.index()] >> t & 1 == 1 {
                        'W'
                    } else {
                        '+'
                    }
                }
                _ if game.tokens[BLACK.index()] & bit != 0 => 'b',
                _ if game.tokens[WHITE.index()] & bit != 0 => 'w',
                _ => '.',
            };
            s.push(c);
        }
    }
    let _ = write!(s, " {}", side_letter(game.side));
    if game.cfg.tokens == UNLIMITED {
        s.push_str(" supply=-");
    } else {
        let _ = write!(
            s,
            " supply={}/{}",
            game.supply[BLACK.index()],
            game.supply[WHITE.index()]
        );
    }
    let anchor = if game.anchor == NO_SQUARE {
        "-".to_string()
    } else {
        g.name(game.anchor)
    };
    let last =
        |side: Side| game.last[side.index()].map_or("-".to_string(), |m| game.format_move(m));
    let _ = write!(
        s,
        " anchor={anchor} swap={} passes={} claimer={} last={}/{}",
        game.swap.word(),
        game.passes,
        game.claimer.map_or('-', side_letter),
        last(BLACK),
        last(WHITE)
    );
    s
}

fn parse_side(word: &str) -> Option<Side> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(BLACK),
        "w" | "white" => Some(WHITE),
        _ => None,
    }
}

/// Reads a position text into `game` (a fresh game with the right options).
pub(crate) fn parse(mut game: Obsidio, text: &str) -> Result<Obsidio, PositionError> {
    let g = game.geometry();
    let n = g.n;
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 2 {
        return Err(PositionError::new(
            text,
            format!(
                "expected the board ({n} ranks of {n} squares separated by '/', rank {n} first), \
                 a space and the colour to move (b or w), then optional items such as \
                 supply=51/51 anchor=c3 swap=closed passes=0 claimer=- last=c3/b3,f3"
            ),
        ));
    }
    let mut problems: Vec<String> = Vec::new();

    // The board.
    let ranks: Vec<&str> = words[0].split('/').collect();
    if ranks.len() == n as usize {
        for (i, rank_text) in ranks.iter().enumerate() {
            let r = n - 1 - i as u8;
            let cells: Vec<char> = rank_text.chars().collect();
            if cells.len() != n as usize {
                problems.push(format!(
                    "rank {} ('{rank_text}') has {} squares; each rank needs {n}",
                    r + 1,
                    cells.len()
                ));
                continue;
            }
            for (f, &c) in cells.iter().enumerate() {
                let sq = r * n + f as u8;
                let target = g.kind(sq) == Kind::Target;
                let side = match c {
                    'b' | 'B' => Some(BLACK),
                    'w' | 'W' => Some(WHITE),
                    '.' if !target => None,
                    '+' if target => None,
                    '.' | '+' => {
                        problems.push(format!(
                            "{} is {}: write it '{}'",
                            g.name(sq),
                            if target { "a target" } else { "not a target" },
                            if target { '+' } else { '.' }
                        ));
                        None
                    }
                    other => {
                        problems.push(format!(
                            "{}: '{other}' is not one of . + b w B W",
                            g.name(sq)
                        ));
                        None
                    }
                };
                if let Some(side) = side {
                    if target {
                        game.claimed[side.index()] |= 1 << g.target_index[sq as usize];
                    } else {
                        game.tokens[side.index()] |= 1 << sq;
                    }
                }
            }
        }
    } else {
        problems.push(format!(
            "the board has {} ranks separated by '/'; the {n}×{n} board needs {n} (rank {n} first)",
            ranks.len()
        ));
    }

    match parse_side(words[1]) {
        Some(s) => game.side = s,
        None => problems.push(format!(
            "'{}' is not a colour to move; accepted: b, w",
            words[1]
        )),
    }

    // Key=value items.
    let mut seen: Vec<String> = Vec::new();
    let mut supply_text = None;
    let mut anchor_text = None;
    let mut swap_text = None;
    let mut passes_text = None;
    let mut claimer_text = None;
    let mut last_text = None;
    for item in &words[2..] {
        let Some((key, value)) = item.split_once('=') else {
            problems.push(format!("'{item}' is not a key=value item"));
            continue;
        };
        let key = key.to_ascii_lowercase();
        if seen.contains(&key) {
            problems.push(format!("'{key}' is given twice"));
            continue;
        }
        seen.push(key.clone());
        let slot = match key.as_str() {
            "supply" => &mut supply_text,
            "anchor" => &mut anchor_text,
            "swap" => &mut swap_text,
            "passes" => &mut passes_text,
            "claimer" => &mut claimer_text,
            "last" => &mut last_text,
            _ => {
                problems.push(format!(
                    "unknown item '{key}'; accepted: supply, anchor, swap, passes, claimer, last"
                ));
                continue;
            }
        };
        *slot = Some(value.to_ascii_lowercase());
    }

    let on_board = |side: Side| {
        game.tokens[side.index()].count_ones() + game.claimed[side.index()].count_ones()
    };
    let placed = [on_board(BLACK), on_board(WHITE)];

    // Supply: always follows from the option and the board; the text must agree.
    let limit = game.cfg.tokens;
    if limit == UNLIMITED {
        game.supply = [UNLIMITED; 2];
        if let Some(text) = supply_text.as_deref().filter(|t| *t != "-") {
            problems.push(format!(
                "supply={text}: the supply is unlimited with these options; write supply=-"
            ));
        }
    } else {
        let mut consistent = true;
        for side in [BLACK, WHITE] {
            if placed[side.index()] > u32::from(limit) {
                consistent = false;
                problems.push(format!(
                    "{} has {} tokens on the board but only {limit} in all (tokens option)",
                    crate::colour(side),
                    placed[side.index()]
                ));
            } else {
                game.supply[side.index()] = limit - placed[side.index()] as u16;
            }
        }
        if let Some(text) = &supply_text {
            let parsed = text
                .split_once('/')
                .and_then(|(b, w)| Some([b.parse::<u16>().ok()?, w.parse::<u16>().ok()?]));
            if consistent && parsed != Some(game.supply) {
                problems.push(format!(
                    "supply={text}: with tokens={limit} and the tokens on the board the supply \
                     is supply={}/{}",
                    game.supply[BLACK.index()],
                    game.supply[WHITE.index()]
                ));
            }
        }
    }

    // Anchor.
    if let Some(text) = &anchor_text {
        if text != "-" {
            match g.parse_square(text) {
                Some(sq) => {
                    let occupied =
                        (game.tokens[BLACK.index()] | game.tokens[WHITE.index()]) & (1 << sq) != 0
                            || g.target_index[sq as usize] != NO_SQUARE
                                && (game.claimed[BLACK.index()] | game.claimed[WHITE.index()])
                                    >> g.target_index[sq as usize]
                                    & 1
                                    == 1;
                    if occupied {
                        game.anchor = sq;
                    } else {
                        problems.push(format!(
                            "anchor={text}: the anchor is the last token placed, but {text} is empty"
                        ));
                    }
                }
                None => problems.push(format!(
                    "anchor={text}: not a square of the {n}×{n} board, nor '-'"
                )),
            }
        }
    }

    // Swap state.
    let empty_board = placed == [0, 0];
    game.swap = match swap_text.as_deref() {
        None if empty_board => SwapState::Start,
        None | Some("closed") => SwapState::Closed,
        Some("start") => SwapState::Start,
        Some("offer") => SwapState::Offer,
        Some("swapped") => SwapState::Swapped,
        Some(other) => {
            problems.push(format!(
                "swap={other}: accepted: start, offer, swapped, closed"
            ));
            SwapState::Closed
        }
    };
    match game.swap {
        SwapState::Start if !empty_board || game.side != BLACK => problems.push(
            "swap=start is the position before the first move: an empty board, Black to move"
                .into(),
        ),
        SwapState::Offer
            if game.side != WHITE || placed[WHITE.index()] != 0 || placed[BLACK.index()] == 0 =>
        {
            problems.push(
                "swap=offer is White's first turn: Black's first tokens on the board, no White \
                 token, White to move"
                    .into(),
            );
        }
        SwapState::Swapped if !game.cfg.pie => {
            problems.push("swap=swapped needs the pie rule (pie=true)".into());
        }
        SwapState::Swapped | SwapState::Closed if empty_board => problems.push(format!(
            "swap={}: no move has been played on an empty board; write swap=start",
            game.swap.word()
        )),
        _ => {}
    }

    // Passes.
    match passes_text.as_deref() {
        None | Some("0") => {}
        Some("1") => game.passes = 1,
        Some("2") => game.passes = 2,
        Some(other) => problems.push(format!("passes={other}: accepted: 0, 1, 2")),
    }

    // Last claimer.
    let any_claim = game.claimed[BLACK.index()] | game.claimed[WHITE.index()] != 0;
    match claimer_text.as_deref() {
        None | Some("-") => {
            if any_claim {
                problems.push(
                    "targets are claimed: give the last claimer, claimer=b or claimer=w".into(),
                );
            }
        }
        Some(word) => match parse_side(word) {
            Some(side) if game.claimed[side.index()] != 0 => game.claimer = Some(side),
            Some(side) => problems.push(format!(
                "claimer={word}: {} has claimed no target",
                crate::colour(side)
            )),
            None => problems.push(format!("claimer={word}: accepted: b, w, -")),
        },
    }

    // Last moves.
    if let Some(text) = &last_text {
        match text.split_once('/') {
            Some((b, w)) => {
                for (side, mv_text) in [(BLACK, b), (WHITE, w)] {
                    if mv_text == "-" {
                        continue;
                    }
                    match game.parse_move(mv_text) {
                        Ok(mv @ (Move::Place(_) | Move::PlaceTwo(..) | Move::Claim { .. })) => {
                            if owns_move(&game, side, mv) {
                                game.last[side.index()] = Some(mv);
                            } else {
                                problems.push(format!(
                                    "last={text}: {} tokens are not on every square of '{mv_text}'",
                                    crate::colour(side)
                                ));
                            }
                        }
                        Ok(_) => problems.push(format!(
                            "last={text}: '{mv_text}' puts no token on the board; use '-'"
                        )),
                        Err(e) => problems.push(format!("last={text}: {e}")),
                    }
                }
            }
            None => problems.push(format!(
                "last={text}: write Black's then White's last move separated by '/', '-' for \
                 none, e.g. last=c3/b3,f3"
            )),
        }
    }

    if !problems.is_empty() {
        return Err(PositionError {
            text: text.to_string(),
            problems,
        });
    }
    game.refresh_derived();
    game.hash = game.hash_from_scratch();
    Ok(game)
}

/// Whether `side` has a token on every square of `mv`.
fn owns_move(game: &Obsidio, side: Side, mv: Move) -> bool {
    match mv {
        Move::Place(a) => game.tokens[side.index()] & (1 << a) != 0,
        Move::PlaceTwo(a, b) => game.tokens[side.index()] & (1 << a | 1 << b) == (1 << a | 1 << b),
        Move::Claim { targets, .. } => game.claimed[side.index()] & targets == targets,
        Move::Swap | Move::Pass => false,
    }
}

//! A plain reference solver written directly against the engine's `Game` interface: full
//! minimax over `legal_moves` with a memo, no bounds, no ordering, no bit tricks.

#![allow(dead_code)]

use boardlab_core::{Game, Options};
use boardlab_core::{Notation, Rules};
use boardlab_sight_reduction::{Side, SightReduction, BLACK, WHITE};
use std::collections::HashMap;

/// The value from the side to move's view: (wins, plies to the end with the winner
/// hurrying and the loser holding out).
pub fn value(
    game: &SightReduction,
    memo: &mut HashMap<(u32, u32, Side), (bool, u32)>,
) -> (bool, u32) {
    let k = (game.pieces(WHITE), game.pieces(BLACK), game.side_to_move());
    if let Some(&v) = memo.get(&k) {
        return v;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut best: Option<(bool, u32)> = None;
    for m in moves {
        let mut g = game.clone();
        g.play(m).expect("legal");
        let (w, n) = value(&g, memo);
        let mine = (!w, n + 1);
        best = Some(match best {
            None => mine,
            Some(b) => better(b, mine),
        });
    }
    let v = best.unwrap_or((false, 0));
    memo.insert(k, v);
    v
}

/// The better of two values for the side to move: a win beats a loss, a shorter win a
/// longer one, a longer loss a shorter one.
pub fn better(a: (bool, u32), b: (bool, u32)) -> (bool, u32) {
    match (a.0, b.0) {
        (true, false) => a,
        (false, true) => b,
        (true, true) => {
            if b.1 < a.1 {
                b
            } else {
                a
            }
        }
        (false, false) => {
            if b.1 > a.1 {
                b
            } else {
                a
            }
        }
    }
}

/// Every combination of the options that change the removal rules.
pub fn rule_options() -> Vec<Options> {
    let mut out = Vec::new();
    for removal in ["single", "pair"] {
        for sight in ["orthogonal", "any"] {
            for enemy in ["false", "true"] {
                out.push(
                    SightReduction::info()
                        .parse_options(&format!(
                            "removal={removal},sight={sight},enemy-sight={enemy}"
                        ))
                        .unwrap(),
                );
            }
        }
    }
    out
}

/// Random removal-phase positions with about `pieces` pieces: a random set-up, then random
/// removals (the side to move alternating), for `options` with `mode` replaced as asked.
pub fn random_positions(
    options: &Options,
    count: usize,
    pieces: u32,
    seed: u64,
) -> Vec<SightReduction> {
    use boardlab_core::rand::Rng;
    let mut out = Vec::new();
    let mut rng = boardlab_core::rng(seed);
    let mut buf = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 50 {
        tries += 1;
        let mut g = SightReduction::new(options, rng.random()).unwrap();
        while g.occupied().count_ones() > pieces {
            match g.random_move(&mut rng, &mut buf) {
                Some(m) => g.play_unchecked(m),
                None => break,
            }
        }
        if g.occupied().count_ones() <= pieces {
            // Re-read through the position text, as a user would give it.
            let g = SightReduction::from_position(options, &g.position_text()).unwrap();
            out.push(g);
        }
    }
    out
}

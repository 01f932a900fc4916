//! Obsidio: evaluation and playout policy.
//!
//! The evaluation counts claimed targets and, for every unclaimed target, how close each
//! colour is to the four influence tokens a claim needs (a target a colour can no longer
//! reach four on counts nothing for it). The playout policy claims at once when a claim wins
//! the game, and otherwise usually claims what it can before placing tokens.

use crate::{Move, Obsidio, Side, BLACK, UNLIMITED, WHITE};
use boardlab_ai::knowledge::{GameAi, NoEndgame};
use boardlab_ai::spec::{BotSpec, MctsSpec};
use boardlab_core::rand::Rng;
use boardlab_core::Rules;
use std::time::Duration;

/// Value of a claimed target.
const CLAIMED: i32 = 400;
/// Value of an unclaimed target by the colour's tokens around it (4: claimable now).
const NEAR: [i32; 5] = [0, 8, 25, 70, 220];

/// The targets `side` may claim in one move now: every claimable target, at most as many as
/// its supply allows.
fn claim_set(g: &Obsidio, side: Side) -> u32 {
    let mut c = g.claimable(side);
    let supply = g.supply(side);
    if supply != UNLIMITED {
        while c.count_ones() > u32::from(supply) {
            c &= !(1 << (31 - c.leading_zeros()));
        }
    }
    c
}

trait Gain {
    fn placement_gain(&self, mv: Move) -> i32;
}

impl Gain for Obsidio {
    /// How much the tokens of a placement help: for every unclaimed target next to a new
    /// token, 2 when it brings this colour closer to a claim it can still make, plus 1 when
    /// it takes a square the opponent still needs there. Other moves score 0.
    fn placement_gain(&self, mv: Move) -> i32 {
        let (a, b) = match mv {
            Move::Place(a) => (a, None),
            Move::PlaceTwo(a, b) => (a, Some(b)),
            _ => return 0,
        };
        let geo = self.geometry();
        let me = self.side_to_move();
        let taken = self.claimed(BLACK) | self.claimed(WHITE);
        let occupied = self.tokens(BLACK) | self.tokens(WHITE);
        let mut gain = 0;
        for sq in std::iter::once(a).chain(b) {
            let s = sq as usize;
            for &t in &geo.adjacent_targets[s][..geo.adjacent_count[s] as usize] {
                if taken >> t & 1 == 1 {
                    continue;
                }
                let nb = geo.neighbours[geo.target_square[t as usize] as usize];
                let empty = (nb & !occupied).count_ones();
                let mine = (self.tokens(me) & nb).count_ones();
                let theirs = (self.tokens(me.other()) & nb).count_ones();
                if mine < 4 && mine + empty >= 4 {
                    gain += 2;
                }
                if theirs < 4 && theirs + empty >= 4 {
                    gain += 1;
                }
            }
        }
        gain
    }
}

impl GameAi for Obsidio {
    type Endgame = NoEndgame;

    fn evaluate(&self) -> i32 {
        let geo = self.geometry();
        let me = self.side_to_move();
        let them = me.other();
        let taken = self.claimed(BLACK) | self.claimed(WHITE);
        let occupied = self.tokens(BLACK) | self.tokens(WHITE);
        let needed = i32::from(geo.targets) / 2 + 1;
        let mut s = CLAIMED
            * (self.claimed(me).count_ones() as i32 - self.claimed(them).count_ones() as i32);
        let supply = |side: Side| {
            let n = self.supply(side);
            if n == UNLIMITED {
                i32::MAX
            } else {
                i32::from(n)
            }
        };
        let (sup_me, sup_them) = (supply(me), supply(them));
        for t in 0..geo.targets as usize {
            if taken >> t & 1 == 1 {
                continue;
            }
            let nb = geo.neighbours[geo.target_square[t] as usize];
            let mine = (self.tokens(me) & nb).count_ones() as i32;
            let theirs = (self.tokens(them) & nb).count_ones() as i32;
            let empty = (nb & !occupied).count_ones() as i32;
            let reach = |own: i32, supply: i32| {
                let missing = (4 - own).max(0);
                if missing > empty || missing + 1 > supply {
                    0
                } else {
                    NEAR[own.min(4) as usize]
                }
            };
            // Claimable by the side to move: it claims first.
            let m = reach(mine, sup_me) + if mine >= 4 { 60 } else { 0 };
            s += m - reach(theirs, sup_them);
        }
        // Close to a majority: claims count for more.
        let left_me = needed - self.claimed(me).count_ones() as i32;
        let left_them = needed - self.claimed(them).count_ones() as i32;
        s += 40 * (left_them - left_me).clamp(-4, 4);
        s
    }

    const EVAL_SCALE: f64 = 400.0;

    /// The squares a placement fills (claims are left to the playout policy); RAVE is off by
    /// default (`rave=N` turns it on): it did not make Obsidio stronger in tests.
    fn footprint(mv: Move) -> u128 {
        match mv {
            Move::Place(a) => 1 << a,
            Move::PlaceTwo(a, b) => 1 << a | 1 << b,
            _ => 0,
        }
    }

    /// A claim that wins is played. Targets the opponent could still claim are claimed at
    /// once (nine times in ten); targets only this colour can ever claim are claimed now and
    /// then; otherwise a uniformly random move.
    fn policy_move<R: Rng>(&self, rng: &mut R, buf: &mut Vec<Move>) -> Option<Move> {
        let me = self.side_to_move();
        let c = claim_set(self, me);
        if c != 0 && self.outcome().is_none() {
            let geo = self.geometry();
            let needed = u32::from(geo.targets) / 2 + 1;
            let occupied = self.tokens(BLACK) | self.tokens(WHITE);
            let mut urgent = 0u32;
            let mut x = c;
            while x != 0 {
                let t = x.trailing_zeros() as usize;
                x &= x - 1;
                let nb = geo.neighbours[geo.target_square[t] as usize];
                let theirs = (self.tokens(me.other()) & nb).count_ones();
                let empty = (nb & !occupied).count_ones();
                if theirs + empty >= 4 {
                    urgent |= 1 << t;
                }
            }
            let p = if urgent != 0 { 9 } else { 2 };
            if self.claimed(me).count_ones() + c.count_ones() >= needed
                || rng.random_range(0..10) < p
            {
                return Some(Move::Claim {
                    targets: c,
                    last: c.trailing_zeros() as u8,
                });
            }
        }
        self.random_move(rng, buf)
    }

    /// Claims first (the more targets the better), then placements by the targets their
    /// tokens help.
    fn move_priority(&self, mv: Move) -> i32 {
        match mv {
            Move::Claim { targets, .. } => 100 + targets.count_ones() as i32,
            m => self.placement_gain(m),
        }
    }

    fn best_spec(time: Duration, threads: u32) -> BotSpec {
        BotSpec::Mcts(MctsSpec {
            time: Some(time),
            threads,
            c: 0.5,
            ..MctsSpec::DEFAULT
        })
    }

    /// `best` with 50,000 iterations a position (see `docs/review.md`).
    fn review_spec() -> BotSpec {
        BotSpec::Mcts(MctsSpec {
            iterations: Some(50_000),
            c: 0.5,
            ..MctsSpec::DEFAULT
        })
    }
}

/// The bots know Obsidio: every bot and level plays it.
impl boardlab_ai::Capabilities for Obsidio {
    fn bots() -> Option<&'static dyn boardlab_ai::BotSupport<Self>> {
        Some(boardlab_ai::bot_support::<Self>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::prelude::*;
    use boardlab_core::Game;

    /// The policy's claim moves are legal moves of the engine.
    #[test]
    fn policy_claims_are_legal() {
        let mut rng = boardlab_core::rng(5);
        let mut buf = Vec::new();
        let mut claims = 0;
        for seed in 0..30 {
            for opts in ["", "size=7", "tokens=12"] {
                let o = Obsidio::info().parse_options(opts).unwrap();
                let mut g = Obsidio::new(&o, seed).unwrap();
                while let Some(m) = g.policy_move(&mut rng, &mut buf) {
                    if matches!(m, Move::Claim { .. }) {
                        claims += 1;
                    }
                    assert!(g.is_legal(m), "{}", g.format_move(m));
                    g.play_unchecked(m);
                }
                assert!(g.outcome().is_some());
            }
        }
        assert!(claims > 50, "{claims}");
    }
}

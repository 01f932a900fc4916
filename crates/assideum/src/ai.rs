//! assideum: evaluation, move ordering and playout policy.
//!
//! The evaluation is material (Fighters outside every friendly flight zone count less, a
//! promoted Ved'rin counts like a small Commander), Ved'rin marching toward promotion, and a
//! penalty for standing in siege. Attacks are the tactical moves: alpha-beta orders them by
//! the value of what they remove and follows them in its quiescence search.

use crate::tables::rank;
use crate::{Assideum, Board, FireAt, Kind, Move, Side, WHITE};
use boardlab_ai::knowledge::{GameAi, NoEndgame};
use boardlab_ai::spec::{AlphaBetaSpec, BotSpec};
use boardlab_core::rand::Rng;
use boardlab_core::Rules;
use std::time::Duration;

/// Ground piece values by [`Kind`] (the Commander is never removed).
const VALUE: [i32; 6] = [0, 100, 450, 800, 320, 380];
const PROMOTED: i32 = 250;
const FIGHTER: i32 = 260;
const GROUNDED_FIGHTER: i32 = 120;
const VEDRIN_STEP: i32 = 6;
const IN_SIEGE: i32 = 40;

fn fighter_count(b: &Board, c: Side, squares: u64) -> i32 {
    ((b.f1[c.index()] & squares).count_ones() + (b.f2[c.index()] & squares).count_ones()) as i32
}

fn material(b: &Board, c: Side) -> i32 {
    let mut s = 0;
    for k in Kind::ALL {
        s += VALUE[k as usize] * (b.kind[k as usize] & b.colour[c.index()]).count_ones() as i32;
    }
    s += PROMOTED * (b.promoted & b.colour[c.index()]).count_ones() as i32;
    let zones = b.zones(c) | b.portals(c);
    s += FIGHTER * fighter_count(b, c, zones) + GROUNDED_FIGHTER * fighter_count(b, c, !zones);
    let mut ved = b.kind[Kind::Vedrin as usize] & b.colour[c.index()] & !b.promoted;
    while ved != 0 {
        let sq = ved.trailing_zeros() as u8;
        ved &= ved - 1;
        let r = rank(sq);
        s += VEDRIN_STEP * if c == WHITE { r - 1 } else { 6 - r };
    }
    s
}

/// The value of what `mv` removes, 0 for a quiet move.
fn victim(b: &Board, mv: Move) -> i32 {
    let them = b.side.other();
    let ground = |sq: u8| {
        b.kind_at(sq)
            .filter(|_| b.colour_at(sq) == Some(them))
            .map_or(0, |k| {
                VALUE[k as usize]
                    + if b.promoted >> sq & 1 == 1 {
                        PROMOTED
                    } else {
                        0
                    }
                    + if k == Kind::Portal {
                        FIGHTER * i32::from(b.fighters(them, sq))
                    } else {
                        0
                    }
            })
    };
    let fighters = |sq: u8| {
        if b.flying(them) >> sq & 1 == 1 {
            FIGHTER * i32::from(b.fighters(them, sq))
        } else {
            0
        }
    };
    match mv {
        Move::Ground {
            to, attack: true, ..
        } => ground(to),
        Move::Fire { target, at, .. } => match at {
            FireAt::Fighters => fighters(target),
            FireAt::Ground => ground(target),
        },
        Move::Fly {
            to, attack: true, ..
        } => {
            let f = fighters(to);
            if f > 0 {
                f
            } else {
                ground(to)
            }
        }
        Move::Strike { square } => {
            let f = fighters(square);
            if f > 0 {
                f
            } else {
                ground(square)
            }
        }
        _ => 0,
    }
}

fn attacker(b: &Board, mv: Move) -> i32 {
    match mv {
        Move::Ground { from, .. } => b.kind_at(from).map_or(0, |k| VALUE[k as usize]),
        Move::Fly { .. } | Move::Strike { .. } => FIGHTER,
        Move::Fire { .. } => 0,
    }
}

impl GameAi for Assideum {
    type Endgame = NoEndgame;

    const REPORT_BOT: &'static str = "alphabeta:nodes=1600";
    /// The game starts from one fixed position, so the games need four random plies to differ.
    const REPORT_OPENING_PLIES: u32 = 4;

    fn evaluate(&self) -> i32 {
        let b = self.board();
        let me = b.side;
        let mut s = material(b, me) - material(b, me.other());
        if self.in_siege() {
            s -= IN_SIEGE;
        }
        s
    }

    const EVAL_SCALE: f64 = 350.0;

    /// Captures first: the most valuable removal half of the time when there is one, else a
    /// uniformly random move.
    fn policy_move<R: Rng>(&self, rng: &mut R, buf: &mut Vec<Move>) -> Option<Move> {
        if rng.random_bool(0.5) {
            return self.random_move(rng, buf);
        }
        self.legal_moves(buf);
        if buf.is_empty() {
            return None;
        }
        let b = self.board();
        let best = buf
            .iter()
            .map(|&m| (victim(b, m), m))
            .max_by_key(|&(v, _)| v)
            .filter(|&(v, _)| v > 0);
        match best {
            Some((_, m)) => Some(m),
            None => Some(buf[rng.random_range(0..buf.len())]),
        }
    }

    fn move_priority(&self, mv: Move) -> i32 {
        let b = self.board();
        let v = victim(b, mv);
        if v > 0 {
            1000 + v - attacker(b, mv) / 10
        } else {
            0
        }
    }

    fn is_noisy(&self, mv: Move) -> bool {
        victim(self.board(), mv) > 0
    }

    fn in_check(&self) -> bool {
        self.in_siege()
    }

    fn level_spec(n: u8) -> BotSpec {
        use boardlab_ai::levels::Effort::{Depth, Nodes};
        boardlab_ai::levels::alphabeta_level(
            n,
            &[
                Depth(1),
                Nodes(600),
                Nodes(1600),
                Nodes(4000),
                Nodes(11_000),
            ],
        )
    }

    fn best_spec(time: Duration, threads: u32) -> BotSpec {
        BotSpec::AlphaBeta(AlphaBetaSpec {
            time: Some(time),
            threads,
            ..AlphaBetaSpec::DEFAULT
        })
    }

    /// Alpha-beta with 30,000 nodes a position (see `docs/review.md`).
    fn review_spec() -> BotSpec {
        BotSpec::AlphaBeta(AlphaBetaSpec {
            nodes: Some(30_000),
            ..AlphaBetaSpec::DEFAULT
        })
    }
}

/// The bots know Assideum: every bot and level plays it.
impl boardlab_ai::Capabilities for Assideum {
    fn bots() -> Option<&'static dyn boardlab_ai::BotSupport<Self>> {
        Some(boardlab_ai::bot_support::<Self>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::Game;

    #[test]
    fn start_position_is_balanced_and_captures_are_noisy() {
        let g = Assideum::new(&Assideum::info().default_options(), 0).unwrap();
        assert_eq!(g.evaluate(), 0);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert!(moves.iter().all(|&m| !g.is_noisy(m)));
    }
}

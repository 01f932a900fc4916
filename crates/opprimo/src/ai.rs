//! Opprimo: evaluation, playout policy and move ordering.
//!
//! The evaluation counts soldiers (Officers extra), rewards soldiers that have marched
//! forward, and above all the pressure on the enemy King: soldiers on the points of its
//! triangle (three is a trap) and on the triangles it could flee to. The playout policy plays
//! a trapping move when there is one and otherwise prefers conversions and moves toward the
//! enemy King.

use crate::board::{coords, point_at, CASTLE_ADJ, NO_TRI, STARS, TRI_MASK};
use crate::{Move, Opprimo, Point, Side};
use boardlab_ai::knowledge::{GameAi, NoEndgame};
use boardlab_ai::spec::{AlphaBetaSpec, BotSpec};
use boardlab_core::rand::Rng;
use boardlab_core::Rules;
use std::time::Duration;

/// How far each point is from each colour's home side, in half-rows (0..=12).
const fn progress_table() -> [[i32; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut p = 0;
    while p < 45 {
        let r = coords(p as Point).1 as i32;
        t[0][p] = r;
        t[1][p] = 12 - r;
        p += 1;
    }
    t
}
const PROGRESS: [[i32; 64]; 2] = progress_table();

const SOLDIER: i32 = 100;
const OFFICER: i32 = 60;
const STEP: i32 = 3;
/// By the number of own soldiers on the enemy King's triangle (3 is a trap: the game is over).
const ON_KING: [i32; 3] = [0, 40, 160];
/// Per flight triangle of the enemy King with two own soldiers on it.
const FLIGHT_COVERED: i32 = 25;

/// The point jumped over by a conversion.
fn jumped(from: Point, to: Point) -> Option<Point> {
    let (a, b) = (coords(from), coords(to));
    point_at(
        (i32::from(a.0) + i32::from(b.0)) / 2,
        (i32::from(a.1) + i32::from(b.1)) / 2,
    )
}

fn side_score(g: &Opprimo, side: Side) -> i32 {
    let men = g.soldiers(side);
    let mut s =
        SOLDIER * men.count_ones() as i32 + OFFICER * (men & g.officers()).count_ones() as i32;
    let mut x = men;
    while x != 0 {
        let p = x.trailing_zeros() as usize;
        x &= x - 1;
        s += STEP * PROGRESS[side.index()][p];
    }
    if let Some(k) = g.king(side.other()) {
        let on = (TRI_MASK[k as usize] & men).count_ones() as usize;
        s += ON_KING[on.min(2)];
        for &u in &CASTLE_ADJ[g.castle() as usize][side.other().index()][k as usize] {
            if u != NO_TRI && (TRI_MASK[u as usize] & men).count_ones() >= 2 {
                s += FLIGHT_COVERED;
            }
        }
    }
    s
}

impl GameAi for Opprimo {
    type Endgame = NoEndgame;

    const REPORT_BOT: &'static str = "alphabeta:nodes=2000";
    /// The first two plies only place the Kings, so the games need four random plies to differ.
    const REPORT_OPENING_PLIES: u32 = 4;

    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        side_score(self, me) - side_score(self, me.other())
    }

    const EVAL_SCALE: f64 = 250.0;

    /// A move that traps the enemy King wins and is played; otherwise a conversion or a move
    /// onto the enemy King's triangle half of the time, else a uniformly random move.
    fn policy_move<R: Rng>(&self, rng: &mut R, buf: &mut Vec<Move>) -> Option<Move> {
        let me = self.side_to_move();
        let Some(k) = self.king(me.other()) else {
            return self.random_move(rng, buf);
        };
        self.legal_moves(buf);
        if buf.is_empty() {
            return None;
        }
        let tri = TRI_MASK[k as usize];
        let men = self.soldiers(me);
        let mut good = 0usize;
        for i in 0..buf.len() {
            let m = buf[i];
            let (to, over) = match m {
                Move::Step(_, to) => (to, None),
                Move::Convert(from, to) => (to, jumped(from, to)),
                _ => continue,
            };
            let after = (men | 1 << to) | over.map_or(0, |p| 1 << p);
            if after & tri == tri {
                let mut c = self.clone();
                c.play_unchecked(m);
                if c.outcome()
                    .is_some_and(|o| o.winner() == Some(self.to_move()))
                {
                    return Some(m);
                }
            }
            if over.is_some() || tri >> to & 1 == 1 || STARS[me.index()] >> to & 1 == 1 {
                buf.swap(good, i);
                good += 1;
            }
        }
        if good > 0 && rng.random_bool(0.5) {
            return Some(buf[rng.random_range(0..good)]);
        }
        Some(buf[rng.random_range(0..buf.len())])
    }

    fn move_priority(&self, mv: Move) -> i32 {
        let me = self.side_to_move();
        let on_king = |p: Point| {
            self.king(me.other())
                .is_some_and(|k| TRI_MASK[k as usize] >> p & 1 == 1)
        };
        match mv {
            Move::Convert(from, to) => {
                let mut s = 20;
                if jumped(from, to).is_some_and(|p| self.officers() >> p & 1 == 1) {
                    s += 5;
                }
                if on_king(to) || jumped(from, to).is_some_and(on_king) {
                    s += 10;
                }
                s
            }
            Move::Step(_, to) if on_king(to) => 15,
            Move::Step(_, to) if STARS[me.index()] >> to & 1 == 1 => 10,
            Move::King(..) => 1,
            _ => 0,
        }
    }

    /// A soldier move as its start and end points.
    fn footprint(mv: Move) -> u128 {
        match mv {
            Move::Step(from, to) | Move::Convert(from, to) => 1 << to | 1 << (64 + from),
            _ => 0,
        }
    }

    fn is_noisy(&self, mv: Move) -> bool {
        matches!(mv, Move::Convert(..))
    }

    fn level_spec(n: u8) -> BotSpec {
        use boardlab_ai::levels::Effort::{Depth, Nodes, Plain};
        boardlab_ai::levels::alphabeta_level(
            n,
            &[
                Plain(300),
                Depth(1),
                Depth(2),
                Nodes(2000),
                Nodes(8000),
                Nodes(120_000),
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

    /// Alpha-beta with 300,000 nodes a position (see `docs/review.md`).
    fn review_spec() -> BotSpec {
        BotSpec::AlphaBeta(AlphaBetaSpec {
            nodes: Some(300_000),
            ..AlphaBetaSpec::DEFAULT
        })
    }
}
/// The bots know Opprimo: every bot and level plays it.
impl boardlab_ai::Capabilities for Opprimo {
    fn bots() -> Option<&'static dyn boardlab_ai::BotSupport<Self>> {
        Some(boardlab_ai::bot_support::<Self>())
    }
}

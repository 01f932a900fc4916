//! Opprimo's action ids and planes (see `boardlab_core::encoding`).
//!
//! Ids and planes are written in the mover's frame: for Red the board is mirrored top to
//! bottom (rank r becomes rank 14 − r, files stay), so that every army marches up the board.
//! Points are numbered as in [`crate::board`] (b1 = 0, d1 = 1, f1 = 2, a2 = 3, …, f13 = 44)
//! and triangles in the order of their names (b1a = 0, …), both after mirroring; directions
//! are 0 up the column, 1 up-left, 2 up-right, 3 down the column, 4 down-left, 5 down-right.
//!
//! # Action ids (403)
//! | ids | move |
//! |---|---|
//! | 0–65 | place the King on triangle t (`k@d1e`) |
//! | 66–131 | move the King to triangle t (`kd1e-e2d`) |
//! | 132–401 | the soldier on point p moves in direction d: 132 + 6p + d; a step, or a conversion when an enemy soldier stands next to it that way (`b3-b5`, `b3xd5`) |
//! | 402 | `pass` |
//!
//! # Planes (12 × 13 × 7)
//! Row i is half-rank i (rank i + 1, mirrored for Red), column j is file j; cells that are not
//! points stay 0 in the piece planes.
//!
//! | channel | meaning |
//! |---|---|
//! | 0 | own soldiers (Officers included) |
//! | 1 | own Officers |
//! | 2 | enemy soldiers (Officers included) |
//! | 3 | enemy Officers |
//! | 4 | the three corners of the own King's triangle |
//! | 5 | the three corners of the enemy King's triangle |
//! | 6 | every point of the board |
//! | 7 | all ones while the own King is not placed |
//! | 8 | all ones while the enemy King is not placed |
//! | 9 | all ones when the viewer is to move |
//! | 10 | plies played / `max-plies`, in every cell |
//! | 11 | all ones when the position has occurred before (a third occurrence draws) |

use crate::board::{
    coords, neighbour, point_at, Point, Side, Tri, POINTS, RED, TRIANGLES, TRI_MASK, TRI_POINTS,
};
use crate::{Move, Opprimo};
use boardlab_core::encoding::{cell, fill_channel, Encoding};
use boardlab_core::Rules;
use boardlab_core::{Game, Seat};

const PLACE: u32 = 0;
const KING: u32 = PLACE + TRIANGLES as u32;
const SOLDIER: u32 = KING + TRIANGLES as u32;
const PASS: u32 = SOLDIER + 6 * POINTS as u32;
/// The number of action ids.
pub const ACTIONS: u32 = PASS + 1;

const SHAPE: [usize; 3] = [12, 13, 7];

/// The point mirrored top to bottom.
const fn mirror_point(p: Point) -> Point {
    let (c, r) = coords(p);
    match point_at(c as i32, 12 - r as i32) {
        Some(q) => q,
        None => panic!("the board is symmetric"),
    }
}

const fn mirror_points(set: u64) -> u64 {
    let mut out = 0;
    let mut p = 0;
    while p < POINTS {
        if set >> p & 1 == 1 {
            out |= 1 << mirror_point(p as Point);
        }
        p += 1;
    }
    out
}

const fn build_mirror_triangles() -> [Tri; TRIANGLES] {
    let mut out = [0; TRIANGLES];
    let mut t = 0;
    while t < TRIANGLES {
        let image = mirror_points(TRI_MASK[t]);
        let mut u = 0;
        while TRI_MASK[u] != image {
            u += 1;
        }
        out[t] = u as Tri;
        t += 1;
    }
    out
}

/// Each triangle mirrored top to bottom.
const MIRROR_TRI: [Tri; TRIANGLES] = build_mirror_triangles();

/// Whether `side` sees the board mirrored.
fn mirrored(side: Side) -> bool {
    side == RED
}

/// The cell of point `p` within a plane: `p` stands at column (2p + 1) mod 7 of half-row
/// (2p + 1) div 7 ([`coords`]), so row × 7 + column is 2p + 1.
fn point_cell(p: Point) -> usize {
    2 * usize::from(p) + 1
}

fn frame_point(p: Point, flip: bool) -> Point {
    if flip {
        mirror_point(p)
    } else {
        p
    }
}

fn frame_tri(t: Tri, flip: bool) -> Tri {
    if flip {
        MIRROR_TRI[t as usize]
    } else {
        t
    }
}

fn frame_dir(d: usize, flip: bool) -> usize {
    if flip {
        (d + 3) % 6
    } else {
        d
    }
}

/// The direction of a step or a jump from `from` to `to`, 0 for points not on one line.
fn direction(from: Point, to: Point) -> usize {
    crate::board::direction_between(from, to).map_or(0, |(d, _)| d)
}

impl Encoding for Opprimo {
    fn action_count(&self) -> u32 {
        ACTIONS
    }

    fn action_of(&self, mv: Move) -> u32 {
        let flip = mirrored(self.side);
        let tri = |t: Tri| u32::from(frame_tri(t.min(TRIANGLES as Tri - 1), flip));
        let point = |p: Point| frame_point(p.min(POINTS as Point - 1), flip);
        match mv {
            Move::Place(t) => PLACE + tri(t),
            Move::King(_, to) => KING + tri(to),
            Move::Step(from, to) | Move::Convert(from, to) => {
                let d = frame_dir(direction(from, to), flip);
                SOLDIER + 6 * u32::from(point(from)) + d as u32
            }
            Move::Pass => PASS,
        }
    }

    fn move_of(&self, action: u32) -> Option<Move> {
        let flip = mirrored(self.side);
        Some(match action {
            a if a < KING => Move::Place(frame_tri((a - PLACE) as Tri, flip)),
            a if a < SOLDIER => {
                let from = self.king(self.side)?;
                Move::King(from, frame_tri((a - KING) as Tri, flip))
            }
            a if a < PASS => {
                let i = a - SOLDIER;
                let from = frame_point((i / 6) as Point, flip);
                let d = frame_dir((i % 6) as usize, flip);
                let next = neighbour(from, d, 1)?;
                if self.soldiers(self.side.other()) >> next & 1 == 1 {
                    Move::Convert(from, neighbour(from, d, 2)?)
                } else {
                    Move::Step(from, next)
                }
            }
            PASS => Move::Pass,
            _ => return None,
        })
    }

    fn planes_shape(&self) -> [usize; 3] {
        SHAPE
    }

    fn write_planes(&self, view: Seat, out: &mut [f32]) {
        assert_eq!(
            out.len(),
            SHAPE.iter().product::<usize>(),
            "plane buffer size"
        );
        out.fill(0.0);
        let own = if view == Seat::First {
            crate::YELLOW
        } else {
            RED
        };
        let flip = mirrored(own);
        let put = |out: &mut [f32], channel: usize, set: u64| {
            let base = cell(SHAPE, channel, 0, 0);
            let mut x = set;
            while x != 0 {
                let p = frame_point(x.trailing_zeros() as Point, flip);
                x &= x - 1;
                out[base + point_cell(p)] = 1.0;
            }
        };
        for (base, side) in [(0, own), (2, own.other())] {
            let men = self.soldiers(side);
            put(out, base, men);
            put(out, base + 1, men & self.officers());
        }
        for (channel, side) in [(4, own), (5, own.other())] {
            if let Some(t) = self.king(side) {
                let [a, b, c] = TRI_POINTS[t as usize];
                put(out, channel, (1 << a) | (1 << b) | (1 << c));
            }
        }
        put(out, 6, (1 << POINTS) - 1);
        let flag = |out: &mut [f32], channel: usize, on: bool| {
            if on {
                fill_channel(out, SHAPE, channel, 1.0);
            }
        };
        flag(out, 7, self.king(own).is_none());
        flag(out, 8, self.king(own.other()).is_none());
        flag(out, 9, self.outcome().is_none() && self.to_move() == view);
        let progress = (self.ply() as f32 / self.max_plies.max(1) as f32).min(1.0);
        fill_channel(out, SHAPE, 10, progress);
        flag(out, 11, self.occurrences() >= 2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_points_cell_is_its_row_and_column() {
        for p in 0..crate::board::POINTS as Point {
            let (c, r) = coords(p);
            assert_eq!(
                point_cell(p),
                cell(SHAPE, 0, usize::from(r), usize::from(c))
            );
        }
    }
    use boardlab_core::prelude::*;
    use boardlab_core::Options;

    fn options(text: &str) -> Options {
        Opprimo::info().parse_options(text).unwrap()
    }

    #[test]
    fn every_legal_move_has_its_own_id() {
        for text in ["", "castle=hex", "max-plies=60"] {
            let n = boardlab_core::testkit::check_encoding::<Opprimo>(&options(text), 0..16, 200);
            assert!(n > 500, "{text}: only {n} positions");
        }
    }

    #[test]
    fn both_armies_see_the_same_start_from_their_side() {
        let mut g = Opprimo::new(&options(""), 0).unwrap();
        g.play_text("k@d1e").unwrap();
        // Red's mirror image of Yellow's d1e is d11e.
        let [c, h, w] = g.planes_shape();
        let mut red = vec![0.0; c * h * w];
        g.write_planes(Seat::Second, &mut red);
        let mut g2 = Opprimo::new(&options(""), 0).unwrap();
        g2.play_text("k@d1e").unwrap();
        g2.play_text("k@d11e").unwrap();
        let mut yellow = vec![0.0; c * h * w];
        g2.write_planes(Seat::First, &mut yellow);
        let plane = |v: &[f32], ch: usize| v[ch * h * w..(ch + 1) * h * w].to_vec();
        // Soldiers: the start is symmetric.
        for ch in 0..4 {
            assert_eq!(plane(&red, ch), plane(&yellow, ch), "channel {ch}");
        }
        // Red sees Yellow's King on d1e where Yellow sees Red's King on d11e.
        assert_eq!(plane(&red, 5), plane(&yellow, 5));
        assert!(plane(&red, 5).iter().sum::<f32>() == 3.0);
        // The same placement has the same id for both colours.
        let g1 = Opprimo::new(&options(""), 0).unwrap();
        let yellow_id = g1.action_of(g1.parse_move("k@d1e").unwrap());
        assert_eq!(g.action_of(g.parse_move("k@d11e").unwrap()), yellow_id);
        // A forward step is direction 0 for both.
        let b3 = g2.parse_move("b3-b5").unwrap();
        let mut g3 = g2.clone();
        g3.play(b3).unwrap();
        let b11 = g3.parse_move("b11-b9").unwrap();
        assert_eq!(g3.action_of(b11), g2.action_of(b3));
    }
}

//! assideum's action ids and planes (see `boardlab_core::encoding`).
//!
//! Ids and planes are written in the mover's frame: for Black the board is mirrored top to
//! bottom (rank r becomes rank 9 − r, files stay; facing north becomes south and the other
//! way round), so that every army starts on the bottom rank. Squares are `rank × 8 + file`
//! (a1 = 0, h8 = 63) after mirroring. The eight directions are numbered clockwise from
//! north: 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW; facings 0 n, 1 e, 2 s, 3 w.
//!
//! # Action ids (20,928)
//! | ids | move |
//! |---|---|
//! | 0–3583 | a Commander, Ved'rin, Striker or Cruiser on square s moves d squares in direction r (a step, a slide, or an attack when an enemy ground piece stands there): 56s + 7r + (d − 1) |
//! | 3584–12799 | a Portal or Ranger on s spins in place (k = 0) or steps in direction k − 1 (k = 1…8), ending with facing f and carry choice c: 3584 + 144s + 16k + 4f + c |
//! | 12800–19967 | a Fighter flies from s, d squares in direction r, sharing (a = 0) or attacking (a = 1): 12800 + 112s + 2(7r + d − 1) + a |
//! | 19968–20031 | a Fighter strikes in place on s: 19968 + s |
//! | 20032–20927 | the Ranger on s fires d squares ahead at the flying Fighters (a = 0) or the ground piece (a = 1) there: 20032 + 14s + 2(d − 1) + a |
//!
//! The carry choice c says which of the mover's Fighters that may go along with a Portal do
//! go. It counts the squares holding the mover's Fighters (at most two) in square order of
//! the mover's frame: with Fighters on two squares, c = 1 carries the first square's, 2 the
//! second's, 3 both; with Fighters on one square, c is how many of them go; c = 0 carries
//! nothing optional. Rangers and Portals whose move leaves no choice use c = 0; a plain step
//! keeps the facing (f is then the piece's facing now).
//!
//! # Planes (32 × 8 × 8)
//! Row i is rank i + 1 (mirrored for Black), column j file j. Channels 0–13 are the viewer's
//! army, 14–27 the opponent's, each as: 0 Commander, 1 Ved'rin, 2 promoted Ved'rin,
//! 3 Striker, 4 Cruiser, 5 Portal, 6 Ranger, 7–10 Portals and Rangers facing n, e, s, w (in
//! the viewer's frame), 11 squares with one or more of its Fighters, 12 squares with two,
//! 13 its flight zones. Then:
//!
//! | channel | meaning |
//! |---|---|
//! | 28 | all ones when the viewer is to move |
//! | 29 | plies without a removal / `quiet-plies`, in every cell |
//! | 30 | all ones when the position has occurred before (a third occurrence draws) |
//! | 31 | all ones when the side to move is in siege |

use crate::board::{Board, Carry, Facing, FireAt, Kind, Move, Side, BLACK, WHITE};
use crate::tables::{file, rank, Square, DIRS};
use crate::Assideum;
use boardlab_core::encoding::{cell, fill_channel, Encoding};
use boardlab_core::Rules;
use boardlab_core::Seat;

const PLAIN: u32 = 0;
const TURNING: u32 = PLAIN + 64 * 56;
const FLY: u32 = TURNING + 64 * 144;
const STRIKE: u32 = FLY + 64 * 112;
const FIRE: u32 = STRIKE + 64;
/// The number of action ids.
pub const ACTIONS: u32 = FIRE + 64 * 14;

const SHAPE: [usize; 3] = [32, 8, 8];

fn frame(s: Square, flip: bool) -> Square {
    if flip {
        s ^ 56
    } else {
        s
    }
}

fn frame_facing(f: Facing, flip: bool) -> Facing {
    if flip {
        Facing::from_index(match f {
            Facing::N => 2,
            Facing::S => 0,
            other => other as u8,
        })
    } else {
        f
    }
}

/// Direction (0…7) and distance (1…7) from `a` to `b` along a line, or `None`.
fn line(a: Square, b: Square) -> Option<(u32, u32)> {
    let (dx, dy) = (file(b) - file(a), rank(b) - rank(a));
    let dist = dx.abs().max(dy.abs());
    if dist == 0 || (dx != 0 && dy != 0 && dx.abs() != dy.abs()) {
        return None;
    }
    let d = DIRS.iter().position(|&v| v == (dx.signum(), dy.signum()))?;
    Some((d as u32, dist as u32))
}

/// The square `dist` squares from `s` in direction `d`, if on the board.
fn walk(s: Square, d: u32, dist: u32) -> Option<Square> {
    let (dx, dy) = DIRS[d as usize];
    let (f, r) = (file(s) + dx * dist as i32, rank(s) + dy * dist as i32);
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as Square)
}

fn side_of(view: Seat) -> Side {
    if view == Seat::First {
        WHITE
    } else {
        BLACK
    }
}

/// The squares holding `side`'s Fighters, in square order of the frame, with their counts.
fn fighter_squares(b: &Board, side: Side, flip: bool) -> ([Square; 2], [u8; 2], usize) {
    let mut squares = [0; 2];
    let mut counts = [0; 2];
    let mut n = 0;
    // The two lowest squares in the side's frame, kept as the bits go by.
    let mut lowest = [Square::MAX; 2];
    let mut x = b.f1[side.index()];
    while x != 0 {
        let f = frame(x.trailing_zeros() as Square, flip);
        x &= x - 1;
        if f < lowest[0] {
            lowest = [f, lowest[0]];
        } else if f < lowest[1] {
            lowest[1] = f;
        }
    }
    let framed = lowest.iter().filter(|&&f| f != Square::MAX);
    for &f in framed {
        let s = frame(f, flip);
        squares[n] = s;
        counts[n] = b.fighters(side, s);
        n += 1;
    }
    (squares, counts, n)
}

fn carry_code(b: &Board, carry: Carry, flip: bool) -> u32 {
    let (squares, counts, n) = fighter_squares(b, b.side, flip);
    let mut code = 0;
    for (s, count) in carry.entries() {
        let Some(i) = squares[..n].iter().position(|&q| q == s) else {
            continue;
        };
        if n == 2 {
            code |= 1 << i;
        } else {
            code = u32::from(count.unwrap_or(counts[i]).min(counts[i]));
        }
    }
    code & 3
}

fn carry_of(b: &Board, code: u32, flip: bool) -> Option<Carry> {
    let (squares, counts, n) = fighter_squares(b, b.side, flip);
    let mut carry = Carry::NONE;
    match n {
        2 => {
            for (i, &s) in squares.iter().enumerate() {
                if code >> i & 1 == 1 {
                    carry = carry.with(s, Carry::ALL)?;
                }
            }
        }
        1 if code > 0 => {
            let k = u8::try_from(code).ok()?;
            if k > counts[0] {
                return None;
            }
            let count = if k == counts[0] { Carry::ALL } else { k };
            carry = carry.with(squares[0], count)?;
        }
        _ if code > 0 => return None,
        _ => {}
    }
    Some(carry)
}

impl Encoding for Assideum {
    fn action_count(&self) -> u32 {
        ACTIONS
    }

    fn action_of(&self, mv: Move) -> u32 {
        let b = self.board();
        let flip = b.side == BLACK;
        let at = |s: Square| u32::from(frame(s % 64, flip));
        match mv {
            Move::Ground {
                from,
                to,
                face,
                carry,
                ..
            } => {
                let (from, to) = (from % 64, to % 64);
                if b.kind_at(from).is_some_and(Kind::directional) {
                    let k = if from == to {
                        0
                    } else {
                        line(frame(from, flip), frame(to, flip)).map_or(0, |(d, _)| d + 1)
                    };
                    let f = frame_facing(face.unwrap_or(b.facing(from)), flip) as u32;
                    TURNING + 144 * at(from) + 16 * k + 4 * f + carry_code(b, carry, flip)
                } else {
                    let (d, dist) = line(frame(from, flip), frame(to, flip)).unwrap_or((0, 1));
                    PLAIN + 56 * at(from) + 7 * d + (dist - 1)
                }
            }
            Move::Fly { from, to, attack } => {
                let (d, dist) =
                    line(frame(from % 64, flip), frame(to % 64, flip)).unwrap_or((0, 1));
                FLY + 112 * at(from) + 2 * (7 * d + dist - 1) + u32::from(attack)
            }
            Move::Strike { square } => STRIKE + at(square),
            Move::Fire {
                ranger,
                target,
                at: kind,
            } => {
                let dist = line(ranger % 64, target % 64).map_or(1, |(_, n)| n);
                FIRE + 14 * at(ranger) + 2 * (dist.min(7) - 1) + u32::from(kind == FireAt::Ground)
            }
        }
    }

    fn move_of(&self, action: u32) -> Option<Move> {
        let b = self.board();
        let flip = b.side == BLACK;
        let enemy = b.side.other();
        let enemy_ground = |s: Square| b.colour[enemy.index()] >> s & 1 == 1;
        Some(match action {
            a if a < TURNING => {
                let (s, rest) = ((a - PLAIN) / 56, (a - PLAIN) % 56);
                let from_f = s as Square;
                let to = frame(walk(from_f, rest / 7, rest % 7 + 1)?, flip);
                let from = frame(from_f, flip);
                if b.kind_at(from).is_some_and(Kind::directional) {
                    return None;
                }
                Move::Ground {
                    from,
                    to,
                    attack: enemy_ground(to),
                    face: None,
                    carry: Carry::NONE,
                }
            }
            a if a < FLY => {
                let i = a - TURNING;
                let (s, k, f, c) = (i / 144, i % 144 / 16, i % 16 / 4, i % 4);
                let from_f = s as Square;
                let to_f = if k == 0 {
                    from_f
                } else {
                    walk(from_f, k - 1, 1)?
                };
                let (from, to) = (frame(from_f, flip), frame(to_f, flip));
                let kind = b.kind_at(from)?;
                if !kind.directional() || (kind == Kind::Ranger && c != 0) {
                    return None;
                }
                let facing = frame_facing(Facing::from_index(f as u8), flip);
                let face = (from == to || facing != b.facing(from)).then_some(facing);
                let carry = if kind == Kind::Portal {
                    carry_of(b, c, flip)?
                } else {
                    Carry::NONE
                };
                Move::Ground {
                    from,
                    to,
                    attack: from != to && enemy_ground(to),
                    face,
                    carry,
                }
            }
            a if a < STRIKE => {
                let i = a - FLY;
                let (s, rest, attack) = (i / 112, i % 112 / 2, i % 2 == 1);
                let from_f = s as Square;
                let to = frame(walk(from_f, rest / 7, rest % 7 + 1)?, flip);
                Move::Fly {
                    from: frame(from_f, flip),
                    to,
                    attack,
                }
            }
            a if a < FIRE => Move::Strike {
                square: frame((a - STRIKE) as Square, flip),
            },
            a if a < ACTIONS => {
                let i = a - FIRE;
                let (s, dist, ground) = (i / 14, i % 14 / 2 + 1, i % 2 == 1);
                let ranger = frame(s as Square, flip);
                if b.kind_at(ranger) != Some(Kind::Ranger) {
                    return None;
                }
                let d = 2 * b.facing(ranger) as u32;
                Move::Fire {
                    ranger,
                    target: walk(ranger, d, dist)?,
                    at: if ground {
                        FireAt::Ground
                    } else {
                        FireAt::Fighters
                    },
                }
            }
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
        let b = self.board();
        let own = side_of(view);
        let flip = own == BLACK;
        let put = |out: &mut [f32], channel: usize, set: u64| {
            let mut x = set;
            while x != 0 {
                let s = frame(x.trailing_zeros() as Square, flip);
                x &= x - 1;
                out[cell(SHAPE, channel, usize::from(s / 8), usize::from(s % 8))] = 1.0;
            }
        };
        for (base, side) in [(0, own), (14, own.other())] {
            let mine = b.colour[side.index()];
            let of = |k: Kind| b.kind[k as usize] & mine;
            put(out, base, of(Kind::Commander));
            put(out, base + 1, of(Kind::Vedrin) & !b.promoted);
            put(out, base + 2, of(Kind::Vedrin) & b.promoted);
            put(out, base + 3, of(Kind::Striker));
            put(out, base + 4, of(Kind::Cruiser));
            put(out, base + 5, of(Kind::Portal));
            put(out, base + 6, of(Kind::Ranger));
            let mut turning = of(Kind::Portal) | of(Kind::Ranger);
            while turning != 0 {
                let s = turning.trailing_zeros() as Square;
                turning &= turning - 1;
                let f = frame_facing(b.facing(s), flip) as usize;
                put(out, base + 7 + f, 1 << s);
            }
            put(out, base + 11, b.f1[side.index()]);
            put(out, base + 12, b.f2[side.index()]);
            put(out, base + 13, b.zones(side));
        }
        let over = self.outcome().is_some();
        if !over && self.to_move() == view {
            fill_channel(out, SHAPE, 28, 1.0);
        }
        let quiet = (self.quiet_plies() as f32 / self.quiet_limit.max(1) as f32).min(1.0);
        fill_channel(out, SHAPE, 29, quiet);
        if self.repetitions() >= 2 {
            fill_channel(out, SHAPE, 30, 1.0);
        }
        if self.in_siege() {
            fill_channel(out, SHAPE, 31, 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::prelude::*;
    use boardlab_core::Options;

    fn options(text: &str) -> Options {
        Assideum::info().parse_options(text).unwrap()
    }

    #[test]
    fn every_legal_move_has_its_own_id() {
        for text in ["", "ranger-range=7", "quiet-plies=30"] {
            let n = boardlab_core::testkit::check_encoding::<Assideum>(&options(text), 0..6, 150);
            assert!(n > 300, "{text}: only {n} positions");
        }
    }

    #[test]
    fn carry_choices_have_their_own_ids() {
        // Figure 14: Portals on b5 (facing east) and e4 (facing north, a Fighter landed);
        // a White Fighter flying on e6 lies in both zones.
        let g = Assideum::from_position(
            &options(""),
            "7k/2[psf]3[rs]1/4[F]3/1[Pe]1[f]4/4[PnF]3/8/8/K7 w 0",
        )
        .unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let leave = g.parse_move("b5-a5").unwrap();
        let carry = g.parse_move("b5-a5{e6}").unwrap();
        assert!(moves.contains(&leave) && moves.contains(&carry));
        assert_ne!(g.action_of(leave), g.action_of(carry));
        assert_eq!(g.move_of(g.action_of(carry)), Some(carry));
    }

    #[test]
    fn both_armies_see_the_opening_alike() {
        let start = Assideum::new(&options(""), 0).unwrap();
        let white = start.planes();
        let mut g = start.clone();
        g.play_text("a2-a3").unwrap();
        // Black's own army, mirrored, stands where White's stood at the start.
        let black = g.planes();
        assert_eq!(black[..14 * 64], white[..14 * 64]);
        assert_eq!(black[28 * 64..29 * 64], white[28 * 64..29 * 64]);
        // The same move has the same id for both: a2-a3 for White, a7-a6 for Black.
        let a2a3 = start.parse_move("a2-a3").unwrap();
        let a7a6 = g.parse_move("a7-a6").unwrap();
        assert_eq!(g.action_of(a7a6), start.action_of(a2a3));
    }
}

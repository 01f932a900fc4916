//! Obsidio's action ids and planes (see `boardlab_core::encoding`).
//!
//! Squares are numbered `rank × n + file` (a1 = 0) on the n×n board; targets 0, 1, … in the
//! same order; light squares 0, 1, … in the same order. The board looks the same to both
//! players, so nothing is mirrored.
//!
//! # Action ids
//! With n² squares, L light squares and T targets:
//!
//! | ids | move |
//! |---|---|
//! | 0 … n²−1 | one token on square s (`c3`, or a light placement of one token `b3`): id s |
//! | n² … n²+L²−1 | two light tokens, first the i-th light square then the j-th (`b3,f3`): n² + i·L + j |
//! | then T·2^(T−1) ids | a claim (`+b2+d4`): base + t·2^(T−1) + m, where t is the target claimed last and m the set of the other targets claimed as a bit set over the T−1 targets other than t (in target order) |
//! | then 1 | `swap` |
//! | then 1 | `pass` |
//!
//! That is 2,931 ids on 7×7, 525,971 on 9×9 and 419,434,123 on 11×11: a claim may take any
//! set of the claimable targets and end on any of them, so the claims alone number T·2^(T−1).
//!
//! # Planes (17 × n × n)
//! Row i is rank i + 1, column j file j. "Own" is the colour the viewing seat plays (after a
//! swap, the colour it took).
//!
//! | channel | meaning |
//! |---|---|
//! | 0, 1 | own / the opponent's influence tokens |
//! | 2, 3 | targets claimed by the viewer / by the opponent |
//! | 4 | unclaimed targets |
//! | 5 | the anchor |
//! | 6, 7 | dark squares / light squares |
//! | 8, 9 | targets the viewer / the opponent could claim now (four of its tokens around) |
//! | 10, 11 | own / the opponent's tokens left as a share of the starting supply (1 when unlimited), in every cell |
//! | 12 | all ones when the viewer is to move |
//! | 13 | all ones when `swap` may be played now |
//! | 14 | all ones after one pass (a second pass ends the game) |
//! | 15, 16 | all ones when the viewer / the opponent made the last claim |

use crate::geometry::{nth_bit, Square};
use crate::{Move, Obsidio, Side, SwapState, UNLIMITED};
use boardlab_core::encoding::{cell, fill_channel, Encoding};
use boardlab_core::Rules;
use boardlab_core::Seat;

const CHANNELS: usize = 17;

/// The first id of each block: placements, two light tokens, claims, swap, pass, and the count.
#[derive(Clone, Copy, Debug)]
struct Layout {
    two: u32,
    claim: u32,
    swap: u32,
    pass: u32,
    count: u32,
    light: u32,
    per_last: u32,
}

impl Obsidio {
    fn layout(&self) -> Layout {
        let geo = self.geometry();
        let cells = u32::from(geo.n) * u32::from(geo.n);
        let light = geo.light.count_ones();
        let targets = u32::from(geo.targets);
        let per_last = 1u32 << (targets - 1);
        let two = cells;
        let claim = two + light * light;
        let swap = claim + targets * per_last;
        Layout {
            two,
            claim,
            swap,
            pass: swap + 1,
            count: swap + 2,
            light,
            per_last,
        }
    }

    fn light_index(&self, sq: Square) -> u32 {
        let light = self.geometry().light;
        if sq >= 128 || light >> sq & 1 == 0 {
            return 0;
        }
        (light & ((1u128 << sq) - 1)).count_ones()
    }

    fn colour_of_seat(&self, seat: Seat) -> Side {
        if self.seat_of(crate::BLACK) == seat {
            crate::BLACK
        } else {
            crate::WHITE
        }
    }
}

impl Encoding for Obsidio {
    fn action_count(&self) -> u32 {
        self.layout().count
    }

    fn action_of(&self, mv: Move) -> u32 {
        let l = self.layout();
        match mv {
            Move::Place(s) => u32::from(s).min(l.two - 1),
            Move::PlaceTwo(a, b) => l.two + self.light_index(a) * l.light + self.light_index(b),
            Move::Claim { targets, last } => {
                let last = u32::from(last) % u32::from(self.geometry().targets);
                let others = targets & !(1 << last);
                let low = others & ((1 << last) - 1);
                let high = others >> (last + 1);
                let packed = (low | high << last) & (l.per_last - 1);
                l.claim + last * l.per_last + packed
            }
            Move::Swap => l.swap,
            Move::Pass => l.pass,
        }
    }

    fn move_of(&self, action: u32) -> Option<Move> {
        let l = self.layout();
        let geo = self.geometry();
        Some(match action {
            a if a < l.two => Move::Place(Square::try_from(a).ok()?),
            a if a < l.claim => {
                let i = a - l.two;
                let first = nth_bit(geo.light, i / l.light);
                let second = nth_bit(geo.light, i % l.light);
                Move::PlaceTwo(first, second)
            }
            a if a < l.swap => {
                let i = a - l.claim;
                let last = i / l.per_last;
                let packed = i % l.per_last;
                let low = packed & ((1 << last) - 1);
                let high = packed >> last;
                let targets = low | 1 << last | high.checked_shl(last + 1).unwrap_or(0);
                Move::Claim {
                    targets,
                    last: u8::try_from(last).ok()?,
                }
            }
            a if a == l.swap => Move::Swap,
            a if a == l.pass => Move::Pass,
            _ => return None,
        })
    }

    fn planes_shape(&self) -> [usize; 3] {
        let n = usize::from(self.geometry().n);
        [CHANNELS, n, n]
    }

    fn write_planes(&self, view: Seat, out: &mut [f32]) {
        let shape = self.planes_shape();
        assert_eq!(
            out.len(),
            shape.iter().product::<usize>(),
            "plane buffer size"
        );
        out.fill(0.0);
        let geo = self.geometry();
        let n = usize::from(geo.n);
        let squares = |out: &mut [f32], channel: usize, set: u128| {
            let mut x = set;
            while x != 0 {
                let s = x.trailing_zeros() as usize;
                x &= x - 1;
                out[cell(shape, channel, s / n, s % n)] = 1.0;
            }
        };
        let targets = |set: u32| {
            let mut out = 0u128;
            let mut x = set;
            while x != 0 {
                let t = x.trailing_zeros() as usize;
                x &= x - 1;
                out |= 1u128 << geo.target_square[t];
            }
            out
        };
        let own = self.colour_of_seat(view);
        let opp = own.other();
        squares(out, 0, self.tokens(own));
        squares(out, 1, self.tokens(opp));
        squares(out, 2, targets(self.claimed(own)));
        squares(out, 3, targets(self.claimed(opp)));
        let claimed = self.claimed(own) | self.claimed(opp);
        let all_targets = (1u32 << geo.targets) - 1;
        squares(out, 4, targets(all_targets & !claimed));
        if let Some(a) = self.anchor() {
            squares(out, 5, 1u128 << a);
        }
        squares(out, 6, geo.dark);
        squares(out, 7, geo.light);
        squares(out, 8, targets(self.claimable(own)));
        squares(out, 9, targets(self.claimable(opp)));
        let share = |side: Side| {
            let start = self.config().tokens;
            let left = self.supply(side);
            if start == UNLIMITED || left == UNLIMITED {
                1.0
            } else {
                (f32::from(left) / f32::from(start.max(1))).min(1.0)
            }
        };
        fill_channel(out, shape, 10, share(own));
        fill_channel(out, shape, 11, share(opp));
        let over = self.outcome().is_some();
        let flag = |out: &mut [f32], channel: usize, on: bool| {
            if on {
                fill_channel(out, shape, channel, 1.0);
            }
        };
        flag(out, 12, !over && self.to_move() == view);
        flag(
            out,
            13,
            !over && self.config().pie && self.swap_state() == SwapState::Offer,
        );
        flag(out, 14, self.passes() == 1);
        flag(out, 15, self.last_claimer() == Some(own));
        flag(out, 16, self.last_claimer() == Some(opp));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::prelude::*;
    use boardlab_core::Options;

    fn options(text: &str) -> Options {
        Obsidio::info().parse_options(text).unwrap()
    }

    #[test]
    fn every_legal_move_has_its_own_id() {
        for (text, games) in [
            ("size=7", 16),
            ("", 8),
            ("size=11", 3),
            ("size=7,tokens=12", 16),
            ("pie=false,tokens=20", 8),
        ] {
            let n =
                boardlab_core::testkit::check_encoding::<Obsidio>(&options(text), 0..games, 400);
            assert!(n > 50, "{text}: only {n} positions");
        }
    }

    #[test]
    fn action_counts_follow_the_documented_sizes() {
        for (size, count) in [(7, 2_931), (9, 525_971), (11, 419_434_123)] {
            let g = Obsidio::new(&options(&format!("size={size}")), 0).unwrap();
            assert_eq!(g.action_count(), count, "size {size}");
        }
    }

    #[test]
    fn claims_number_their_last_target_and_the_others() {
        let g = Obsidio::new(&options("size=7"), 0).unwrap();
        let l = g.layout();
        // +b2+f2+d4 on 7×7: targets b2 = 0, d2 = 1, f2 = 2, b4 = 3, d4 = 4; d4 last.
        let mv = Move::Claim {
            targets: 0b10101,
            last: 4,
        };
        assert_eq!(g.action_of(mv), l.claim + 4 * 256 + 0b101);
        assert_eq!(g.move_of(l.claim + 4 * 256 + 0b101), Some(mv));
        assert_eq!(g.format_move(mv), "+b2+f2+d4");
        // Claiming the last target alone.
        let single = Move::Claim {
            targets: 1 << 8,
            last: 8,
        };
        assert_eq!(g.move_of(g.action_of(single)), Some(single));
    }

    #[test]
    fn planes_follow_the_colours_through_a_swap() {
        let mut g = Obsidio::new(&options("size=7"), 0).unwrap();
        g.play_text("c3").unwrap();
        let [c, h, w] = g.planes_shape();
        let plane = |g: &Obsidio, view: Seat, ch: usize| {
            let mut v = vec![0.0; c * h * w];
            g.write_planes(view, &mut v);
            v[ch * h * w..(ch + 1) * h * w].to_vec()
        };
        let c3 = 2 * 7 + 2;
        assert_eq!(plane(&g, Seat::First, 0)[c3], 1.0);
        assert_eq!(plane(&g, Seat::Second, 1)[c3], 1.0);
        assert_eq!(plane(&g, Seat::Second, 13).iter().sum::<f32>(), 49.0);
        g.play_text("swap").unwrap();
        // The second seat now plays Black and owns the token on c3.
        assert_eq!(plane(&g, Seat::Second, 0)[c3], 1.0);
        assert_eq!(plane(&g, Seat::First, 1)[c3], 1.0);
        assert_eq!(plane(&g, Seat::First, 12).iter().sum::<f32>(), 49.0);
    }
}

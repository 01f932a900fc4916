//! A plain reference engine for Obsidio, written directly from RULINGS.md: a grid of cells,
//! explicit walks along lines, moves as text. It shares no code with the fast engine.

#![allow(dead_code)]

use boardlab_core::testkit::Reference;
use boardlab_core::{Colour, Options, Outcome, Seat};

const BLACK: usize = 0;
const WHITE: usize = 1;

#[derive(Clone, Debug)]
pub struct Ref {
    /// Board side.
    pub n: usize,
    /// `grid[rank][file]`: `None` empty, `Some(colour)` a token (on a target: a claim).
    pub grid: Vec<Vec<Option<usize>>>,
    /// Tokens left per colour; `None` = unlimited.
    pub supply: [Option<u32>; 2],
    pub pie: bool,
    /// The last token placed.
    pub anchor: Option<(usize, usize)>,
    /// The colour to move.
    pub to_move: usize,
    /// Moves played so far.
    pub played: usize,
    pub swapped: bool,
    /// Passes in a row.
    pub passes: u32,
    pub last_claimer: Option<usize>,
}

fn name(f: usize, r: usize) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn parse_sq(s: &str) -> (usize, usize) {
    let b = s.as_bytes();
    ((b[0] - b'a') as usize, s[1..].parse::<usize>().unwrap() - 1)
}

fn is_target(f: usize, r: usize) -> bool {
    f % 2 == 1 && r % 2 == 1
}

fn is_dark(f: usize, r: usize) -> bool {
    f % 2 == 0 && r % 2 == 0
}

fn is_light(f: usize, r: usize) -> bool {
    !is_target(f, r) && !is_dark(f, r)
}

impl Ref {
    /// The start position for the given options.
    pub fn new(options: &Options) -> Ref {
        let n: usize = options.get("size").parse().unwrap();
        let supply = match options.get("tokens") {
            "auto" => {
                if n == 9 {
                    Some(51)
                } else {
                    None
                }
            }
            number => Some(number.parse().unwrap()),
        };
        Ref {
            n,
            grid: vec![vec![None; n]; n],
            supply: [supply, supply],
            pie: options.get("pie") == "true",
            anchor: None,
            to_move: BLACK,
            played: 0,
            swapped: false,
            passes: 0,
            last_claimer: None,
        }
    }

    fn number_of_targets(&self) -> usize {
        let half = self.n / 2;
        half * half
    }

    /// An empty square where a token may go (not a target).
    fn is_empty_square(&self, f: usize, r: usize) -> bool {
        !is_target(f, r) && self.grid[r][f].is_none()
    }

    /// Line of sight between two different squares: on one row, column or diagonal, with
    /// every square strictly between empty and not a target.
    fn line_of_sight(&self, a: (usize, usize), b: (usize, usize)) -> bool {
        let df = b.0 as i32 - a.0 as i32;
        let dr = b.1 as i32 - a.1 as i32;
        if (df, dr) == (0, 0) {
            return false;
        }
        if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return false;
        }
        let steps = df.abs().max(dr.abs());
        let (sf, sr) = (df.signum(), dr.signum());
        for k in 1..steps {
            let f = (a.0 as i32 + sf * k) as usize;
            let r = (a.1 as i32 + sr * k) as usize;
            if is_target(f, r) || self.grid[r][f].is_some() {
                return false;
            }
        }
        true
    }

    fn adjacent(a: (usize, usize), b: (usize, usize)) -> bool {
        a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1
    }

    fn squares(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for r in 0..self.n {
            for f in 0..self.n {
                out.push((f, r));
            }
        }
        out
    }

    /// Empty squares of one kind where the next token must go: those seeing the anchor if
    /// any do, else all of them.
    fn candidates(&self, kind: fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
        let all: Vec<(usize, usize)> = self
            .squares()
            .into_iter()
            .filter(|&(f, r)| kind(f, r) && self.is_empty_square(f, r))
            .collect();
        if let Some(anchor) = self.anchor {
            let near: Vec<(usize, usize)> = all
                .iter()
                .copied()
                .filter(|&s| self.line_of_sight(s, anchor))
                .collect();
            if !near.is_empty() {
                return near;
            }
        }
        all
    }

    fn claimed_by(&self, colour: usize) -> usize {
        self.squares()
            .into_iter()
            .filter(|&(f, r)| is_target(f, r) && self.grid[r][f] == Some(colour))
            .count()
    }

    /// Unclaimed targets with four or more of `colour`'s tokens among the eight neighbours.
    fn claimable(&self, colour: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (f, r) in self.squares() {
            if !is_target(f, r) || self.grid[r][f].is_some() {
                continue;
            }
            let mut count = 0;
            for dr in -1i32..=1 {
                for df in -1i32..=1 {
                    if (df, dr) == (0, 0) {
                        continue;
                    }
                    let (x, y) = (f as i32 + df, r as i32 + dr);
                    let inside = x >= 0 && y >= 0 && (x as usize) < self.n && (y as usize) < self.n;
                    if inside && self.grid[y as usize][x as usize] == Some(colour) {
                        count += 1;
                    }
                }
            }
            if count >= 4 {
                out.push((f, r));
            }
        }
        out
    }

    fn seat_of(&self, colour: usize) -> Seat {
        if (colour == BLACK) != self.swapped {
            Seat::First
        } else {
            Seat::Second
        }
    }

    fn win(&self, colour: usize, reason: &'static str) -> Outcome {
        Outcome::Win {
            seat: self.seat_of(colour),
            colour: if colour == BLACK {
                Colour::Black
            } else {
                Colour::White
            },
            reason,
        }
    }
}

impl Reference for Ref {
    fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let me = self.to_move;
        let tokens = self.supply[me].unwrap_or(u32::MAX);
        let mut out = Vec::new();
        if tokens >= 1 {
            for (f, r) in self.candidates(is_dark) {
                out.push(name(f, r));
            }
            for first in self.candidates(is_light) {
                let mut seconds = Vec::new();
                if tokens >= 2 {
                    for (f, r) in self.squares() {
                        if is_light(f, r)
                            && self.is_empty_square(f, r)
                            && (f, r) != first
                            && !Self::adjacent(first, (f, r))
                            && self.line_of_sight(first, (f, r))
                        {
                            seconds.push((f, r));
                        }
                    }
                }
                if seconds.is_empty() {
                    out.push(name(first.0, first.1));
                } else {
                    for s in seconds {
                        out.push(format!("{},{}", name(first.0, first.1), name(s.0, s.1)));
                    }
                }
            }
            let targets = self.claimable(me);
            for subset in 1u32..1 << targets.len() {
                if subset.count_ones() > tokens {
                    continue;
                }
                let chosen: Vec<(usize, usize)> = (0..targets.len())
                    .filter(|i| subset >> i & 1 == 1)
                    .map(|i| targets[i])
                    .collect();
                for &last in &chosen {
                    let mut text = String::new();
                    for &t in &chosen {
                        if t != last {
                            text.push('+');
                            text.push_str(&name(t.0, t.1));
                        }
                    }
                    text.push('+');
                    text.push_str(&name(last.0, last.1));
                    out.push(text);
                }
            }
        }
        if self.pie && self.played == 1 {
            out.push("swap".to_string());
        }
        if out.is_empty() {
            out.push("pass".to_string());
        }
        out
    }

    fn play(&mut self, mv: &str) {
        let me = self.to_move;
        self.played += 1;
        if mv == "swap" {
            self.swapped = true;
            return;
        }
        if mv == "pass" {
            self.passes += 1;
            self.to_move = 1 - me;
            return;
        }
        self.passes = 0;
        if let Some(rest) = mv.strip_prefix('+') {
            for t in rest.split('+') {
                let (f, r) = parse_sq(t);
                assert!(self.grid[r][f].is_none());
                self.grid[r][f] = Some(me);
                self.anchor = Some((f, r));
                if let Some(s) = &mut self.supply[me] {
                    *s -= 1;
                }
            }
            self.last_claimer = Some(me);
        } else {
            for sq in mv.split(',') {
                let (f, r) = parse_sq(sq);
                assert!(self.grid[r][f].is_none());
                self.grid[r][f] = Some(me);
                self.anchor = Some((f, r));
                if let Some(s) = &mut self.supply[me] {
                    *s -= 1;
                }
            }
        }
        self.to_move = 1 - me;
    }

    fn outcome(&self) -> Option<Outcome> {
        let total = self.number_of_targets();
        let b = self.claimed_by(BLACK);
        let w = self.claimed_by(WHITE);
        if 2 * b > total {
            return Some(self.win(BLACK, "a majority of the targets"));
        }
        if 2 * w > total {
            return Some(self.win(WHITE, "a majority of the targets"));
        }
        if b + w == total {
            let last = self.last_claimer.expect("someone claimed");
            return Some(self.win(last, "all targets claimed, equal shares: last to claim"));
        }
        if self.passes >= 2 {
            if b > w {
                return Some(self.win(BLACK, "two passes: more targets"));
            }
            if w > b {
                return Some(self.win(WHITE, "two passes: more targets"));
            }
            if b > 0 {
                let last = self.last_claimer.expect("someone claimed");
                return Some(self.win(last, "two passes, equal targets: last to claim"));
            }
            return Some(Outcome::Draw {
                reason: "two passes and no target claimed",
            });
        }
        None
    }
}

//! A plain reference engine for assideum, written directly from RULINGS.md: a grid of
//! optional pieces and Fighter counts, explicit walks, flight zones tested by the Portal-relative
//! depth and side of a square, and siege found by literally trying every opponent move and
//! looking for the Commander afterwards. It shares no code with the fast engine beyond the
//! `Reference` trait; it speaks only in move text.

#![allow(dead_code)]

use boardlab_core::testkit::Reference;
use boardlab_core::Notation;
use boardlab_core::{Colour, Outcome, Seat};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Commander,
    Vedrin,
    Striker,
    Cruiser,
    Portal,
    Ranger,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub colour: usize,
    pub kind: Kind,
    /// 0 N, 1 E, 2 S, 3 W (Portals and Rangers).
    pub facing: usize,
    pub promoted: bool,
}

/// Everything that makes a position (for repetition): ground, Fighters, side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// ground[file][rank]
    pub ground: [[Option<Piece>; 8]; 8],
    /// fighters[file][rank][colour]
    pub fighters: [[[u8; 2]; 8]; 8],
    pub to_move: usize,
}

#[derive(Clone, Debug)]
pub struct Ref {
    pub pos: Pos,
    pub range: i32,
    pub quiet_limit: u32,
    pub quiet: u32,
    /// Every position since the start, the current one last.
    pub seen: Vec<Pos>,
}

/// A move with everything needed to play it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RMove {
    Ground {
        from: (i32, i32),
        to: (i32, i32),
        new_facing: Option<usize>,
        /// Optional Fighters (on squares in both zones) taken along: each such square with how
        /// many of its Fighters go (squares whose Fighters all stay are not listed).
        carried: Vec<((i32, i32), u8)>,
    },
    Fire {
        from: (i32, i32),
        at: (i32, i32),
        fighters: bool,
    },
    Fly {
        from: (i32, i32),
        to: (i32, i32),
        attack: bool,
    },
    Strike {
        at: (i32, i32),
    },
}

/// A square as (file, rank), both 0…7.
type Sq = (i32, i32);

const EIGHT: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Forward vector of a facing.
fn ahead(facing: usize) -> (i32, i32) {
    [(0, 1), (1, 0), (0, -1), (-1, 0)][facing]
}

/// The vector to the right of a facing.
fn right_of(facing: usize) -> (i32, i32) {
    ahead((facing + 1) % 4)
}

fn on(x: i32, y: i32) -> bool {
    (0..8).contains(&x) && (0..8).contains(&y)
}

pub fn name((x, y): (i32, i32)) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

fn facing_letter(f: usize) -> char {
    ['n', 'e', 's', 'w'][f]
}

impl Pos {
    fn at(&self, (x, y): (i32, i32)) -> Option<Piece> {
        self.ground[x as usize][y as usize]
    }

    fn count(&self, (x, y): (i32, i32), c: usize) -> u8 {
        self.fighters[x as usize][y as usize][c]
    }

    fn set_count(&mut self, (x, y): (i32, i32), c: usize, n: u8) {
        self.fighters[x as usize][y as usize][c] = n;
    }

    /// Fighters of colour `c` on `sq` are landed when a Portal of colour `c` stands there.
    fn landed(&self, sq: (i32, i32), c: usize) -> bool {
        matches!(self.at(sq), Some(p) if p.kind == Kind::Portal && p.colour == c)
    }

    fn flying_there(&self, sq: (i32, i32), c: usize) -> bool {
        self.count(sq, c) > 0 && !self.landed(sq, c)
    }

    /// Whether `sq` lies in the flight zone of the Portal on `p` facing `f`: 1 behind to 3
    /// ahead, 1 to either side.
    fn in_zone_of(p: (i32, i32), f: usize, sq: (i32, i32)) -> bool {
        let (dx, dy) = (sq.0 - p.0, sq.1 - p.1);
        let (fx, fy) = ahead(f);
        let (rx, ry) = right_of(f);
        let depth = dx * fx + dy * fy;
        let side = dx * rx + dy * ry;
        (-1..=3).contains(&depth) && (-1..=1).contains(&side)
    }

    fn portals(&self, c: usize) -> Vec<((i32, i32), usize)> {
        let mut v = Vec::new();
        for x in 0..8 {
            for y in 0..8 {
                if let Some(p) = self.at((x, y)) {
                    if p.kind == Kind::Portal && p.colour == c {
                        v.push(((x, y), p.facing));
                    }
                }
            }
        }
        v
    }

    fn in_zones(&self, c: usize, sq: (i32, i32)) -> bool {
        self.portals(c)
            .iter()
            .any(|&(p, f)| Pos::in_zone_of(p, f, sq))
    }

    fn commander(&self, c: usize) -> Option<(i32, i32)> {
        for x in 0..8 {
            for y in 0..8 {
                if matches!(self.at((x, y)), Some(p) if p.kind == Kind::Commander && p.colour == c)
                {
                    return Some((x, y));
                }
            }
        }
        None
    }

    /// Removes the ground piece on `sq` (a Portal takes its landed Fighters with it).
    fn remove_ground(&mut self, sq: (i32, i32)) {
        if let Some(p) = self.at(sq) {
            if p.kind == Kind::Portal {
                self.set_count(sq, p.colour, 0);
            }
            self.ground[sq.0 as usize][sq.1 as usize] = None;
        }
    }

    /// Plays a move; returns whether anything was removed.
    pub fn apply(&mut self, m: &RMove) -> bool {
        let me = self.to_move;
        let foe = 1 - me;
        let mut removed = false;
        match m {
            RMove::Ground {
                from,
                to,
                new_facing,
                carried,
            } => {
                let mut piece = self.at(*from).expect("a piece to move");
                // Which flying Fighters travel with a Portal, decided before anything moves.
                let mut travellers: Vec<(Sq, Sq, u8)> = Vec::new();
                if piece.kind == Kind::Portal {
                    let landed = self.count(*from, me);
                    if landed > 0 {
                        travellers.push((*from, *to, landed));
                    }
                    let others: Vec<_> = self
                        .portals(me)
                        .into_iter()
                        .filter(|(p, _)| p != from)
                        .collect();
                    let nf = new_facing.unwrap_or(piece.facing);
                    for x in 0..8 {
                        for y in 0..8 {
                            let q = (x, y);
                            if !self.flying_there(q, me) || !Pos::in_zone_of(*from, piece.facing, q)
                            {
                                continue;
                            }
                            let shared = others.iter().any(|&(p, f)| Pos::in_zone_of(p, f, q));
                            // Shared squares: as many as the move says; others: all of them.
                            let n = if shared {
                                carried.iter().find(|(c, _)| *c == q).map_or(0, |&(_, n)| n)
                            } else {
                                self.count(q, me)
                            };
                            if n == 0 {
                                continue;
                            }
                            // Keep depth and side relative to the Portal, with the new facing.
                            let (dx, dy) = (q.0 - from.0, q.1 - from.1);
                            let (fx, fy) = ahead(piece.facing);
                            let (rx, ry) = right_of(piece.facing);
                            let depth = dx * fx + dy * fy;
                            let side = dx * rx + dy * ry;
                            let (gx, gy) = ahead(nf);
                            let (sx, sy) = right_of(nf);
                            let nx = (to.0 + depth * gx + side * sx).clamp(0, 7);
                            let ny = (to.1 + depth * gy + side * sy).clamp(0, 7);
                            travellers.push((q, (nx, ny), n));
                        }
                    }
                }
                if let Some(t) = self.at(*to) {
                    if t.colour == foe {
                        self.remove_ground(*to);
                        removed = true;
                    }
                }
                self.ground[from.0 as usize][from.1 as usize] = None;
                if let Some(f) = new_facing {
                    piece.facing = *f;
                }
                let far = if me == 0 { 7 } else { 0 };
                if piece.kind == Kind::Vedrin && to.1 == far {
                    piece.promoted = true;
                }
                self.ground[to.0 as usize][to.1 as usize] = Some(piece);
                for (src, _, n) in &travellers {
                    let now = self.count(*src, me);
                    self.set_count(*src, me, now - n);
                }
                for (_, dst, n) in &travellers {
                    let now = self.count(*dst, me);
                    self.set_count(*dst, me, now + n);
                }
            }
            RMove::Fire { at, fighters, .. } => {
                if *fighters {
                    self.set_count(*at, foe, 0);
                } else {
                    self.remove_ground(*at);
                }
                removed = true;
            }
            RMove::Fly { from, to, attack } => {
                let n = self.count(*from, me);
                self.set_count(*from, me, n - 1);
                if *attack {
                    if self.flying_there(*to, foe) {
                        self.set_count(*to, foe, 0);
                    } else {
                        self.remove_ground(*to);
                    }
                    removed = true;
                }
                let n = self.count(*to, me);
                self.set_count(*to, me, n + 1);
            }
            RMove::Strike { at } => {
                if self.flying_there(*at, foe) {
                    self.set_count(*at, foe, 0);
                } else {
                    self.remove_ground(*at);
                }
                removed = true;
            }
        }
        self.to_move = foe;
        removed
    }

    /// Destinations of a ground piece (siege ignored).
    fn ground_targets(&self, from: (i32, i32), p: Piece) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        let one_step = |dirs: &[(i32, i32)], out: &mut Vec<(i32, i32)>| {
            for &(dx, dy) in dirs {
                let t = (from.0 + dx, from.1 + dy);
                if on(t.0, t.1) && !matches!(self.at(t), Some(q) if q.colour == p.colour) {
                    out.push(t);
                }
            }
        };
        match p.kind {
            Kind::Commander | Kind::Portal | Kind::Ranger => one_step(&EIGHT, &mut out),
            Kind::Vedrin if p.promoted => one_step(&EIGHT, &mut out),
            Kind::Vedrin => {
                let dy = if p.colour == 0 { 1 } else { -1 };
                one_step(&[(-1, dy), (0, dy), (1, dy)], &mut out);
            }
            Kind::Striker | Kind::Cruiser => {
                for &(dx, dy) in &EIGHT {
                    if p.kind == Kind::Striker && dx != 0 && dy != 0 {
                        continue;
                    }
                    let (mut x, mut y) = (from.0 + dx, from.1 + dy);
                    while on(x, y) {
                        match self.at((x, y)) {
                            None => out.push((x, y)),
                            Some(q) => {
                                if q.colour != p.colour {
                                    out.push((x, y));
                                }
                                break;
                            }
                        }
                        x += dx;
                        y += dy;
                    }
                }
            }
        }
        out
    }

    /// Every move of the side to move by the movement rules (siege ignored). With `only`,
    /// just the moves that end on or target that square.
    pub fn pseudo_moves(&self, only: Option<(i32, i32)>) -> Vec<RMove> {
        let me = self.to_move;
        let wanted = |sq: (i32, i32)| only.is_none_or(|o| o == sq);
        let mut out = Vec::new();
        for x in 0..8 {
            for y in 0..8 {
                let from = (x, y);
                let Some(p) = self.at(from) else { continue };
                if p.colour != me {
                    continue;
                }
                let spins: Vec<Option<usize>> = if matches!(p.kind, Kind::Portal | Kind::Ranger) {
                    (0..4).filter(|&f| f != p.facing).map(Some).collect()
                } else {
                    Vec::new()
                };
                // Spins in place (never attacks).
                if only.is_none() {
                    for &s in &spins {
                        self.push_ground(&mut out, from, from, s, p);
                    }
                }
                for to in self.ground_targets(from, p) {
                    if !wanted(to) {
                        continue;
                    }
                    self.push_ground(&mut out, from, to, None, p);
                    for &s in &spins {
                        self.push_ground(&mut out, from, to, s, p);
                    }
                }
            }
        }
        out.extend(self.fighter_moves(only));
        out
    }

    /// A ground move and, for a Portal, every carry choice that puts no carried Fighter on an
    /// enemy flying Fighter (checked on the position after the move).
    fn push_ground(
        &self,
        out: &mut Vec<RMove>,
        from: (i32, i32),
        to: (i32, i32),
        new_facing: Option<usize>,
        p: Piece,
    ) {
        if p.kind != Kind::Portal {
            out.push(RMove::Ground {
                from,
                to,
                new_facing,
                carried: Vec::new(),
            });
            return;
        }
        let me = p.colour;
        let others: Vec<_> = self
            .portals(me)
            .into_iter()
            .filter(|(q, _)| *q != from)
            .collect();
        let mut must = Vec::new();
        let mut may = Vec::new();
        for x in 0..8 {
            for y in 0..8 {
                let q = (x, y);
                if self.flying_there(q, me) && Pos::in_zone_of(from, p.facing, q) {
                    if others.iter().any(|&(o, f)| Pos::in_zone_of(o, f, q)) {
                        may.push(q);
                    } else {
                        must.push(q);
                    }
                }
            }
        }
        // Each Fighter on a shared square is carried or left by the mover's choice; Fighters on
        // one square are interchangeable, so a square's choice is how many of them go (0…all).
        let mut choices: Vec<Vec<((i32, i32), u8)>> = vec![Vec::new()];
        for &q in &may {
            let mut longer = Vec::new();
            for chosen in &choices {
                for n in 0..=self.count(q, me) {
                    let mut c = chosen.clone();
                    if n > 0 {
                        c.push((q, n));
                    }
                    longer.push(c);
                }
            }
            choices = longer;
        }
        for chosen in choices {
            let m = RMove::Ground {
                from,
                to,
                new_facing,
                carried: chosen.clone(),
            };
            // Where do the carried Fighters end? Play the move and look.
            let mut after = *self;
            after.apply(&m);
            let nf = new_facing.unwrap_or(p.facing);
            let carried_all: Vec<_> = must
                .iter()
                .copied()
                .chain(chosen.iter().map(|&(q, _)| q))
                .collect();
            let ok = carried_all.iter().all(|&q| {
                let (dx, dy) = (q.0 - from.0, q.1 - from.1);
                let (fx, fy) = ahead(p.facing);
                let (rx, ry) = right_of(p.facing);
                let (depth, side) = (dx * fx + dy * fy, dx * rx + dy * ry);
                let (gx, gy) = ahead(nf);
                let (sx, sy) = right_of(nf);
                let dst = (
                    (to.0 + depth * gx + side * sx).clamp(0, 7),
                    (to.1 + depth * gy + side * sy).clamp(0, 7),
                );
                !after.flying_there(dst, 1 - me)
            });
            if ok {
                out.push(m);
            }
        }
    }

    fn fighter_moves(&self, only: Option<(i32, i32)>) -> Vec<RMove> {
        let me = self.to_move;
        let foe = 1 - me;
        let wanted = |sq: (i32, i32)| only.is_none_or(|o| o == sq);
        let mut out = Vec::new();
        for x in 0..8 {
            for y in 0..8 {
                let s = (x, y);
                if self.count(s, me) == 0 {
                    continue;
                }
                let enemy_ground = matches!(self.at(s), Some(p) if p.colour == foe);
                if (self.flying_there(s, foe) || enemy_ground) && wanted(s) {
                    out.push(RMove::Strike { at: s });
                }
                if !self.in_zones(me, s) || (self.landed(s, me) && self.flying_there(s, foe)) {
                    continue;
                }
                for &(dx, dy) in &EIGHT {
                    let (mut tx, mut ty) = (x + dx, y + dy);
                    while on(tx, ty) && self.in_zones(me, (tx, ty)) {
                        let t = (tx, ty);
                        if self.flying_there(t, foe) {
                            if wanted(t) {
                                out.push(RMove::Fly {
                                    from: s,
                                    to: t,
                                    attack: true,
                                });
                            }
                            break;
                        }
                        if wanted(t) {
                            out.push(RMove::Fly {
                                from: s,
                                to: t,
                                attack: false,
                            });
                            if matches!(self.at(t), Some(p) if p.colour == foe) {
                                out.push(RMove::Fly {
                                    from: s,
                                    to: t,
                                    attack: true,
                                });
                            }
                        }
                        tx += dx;
                        ty += dy;
                    }
                }
            }
        }
        out
    }
}

impl Ref {
    /// The opening set-up, built from the description in RULINGS.md.
    pub fn start(range: i32, quiet_limit: u32) -> Ref {
        let mut pos = Pos {
            ground: [[None; 8]; 8],
            fighters: [[[0; 2]; 8]; 8],
            to_move: 0,
        };
        let back = [
            Kind::Striker,
            Kind::Portal,
            Kind::Cruiser,
            Kind::Ranger,
            Kind::Commander,
            Kind::Cruiser,
            Kind::Portal,
            Kind::Striker,
        ];
        for (x, &kind) in back.iter().enumerate() {
            for (c, y, vy, facing) in [(0, 0, 1, 0), (1, 7, 6, 2)] {
                pos.ground[x][y] = Some(Piece {
                    colour: c,
                    kind,
                    facing,
                    promoted: false,
                });
                pos.ground[x][vy] = Some(Piece {
                    colour: c,
                    kind: Kind::Vedrin,
                    facing,
                    promoted: false,
                });
                if kind == Kind::Portal {
                    pos.fighters[x][y][c] = 1;
                }
            }
        }
        Ref::from_pos(pos, range, quiet_limit, 0)
    }

    pub fn from_pos(pos: Pos, range: i32, quiet_limit: u32, quiet: u32) -> Ref {
        Ref {
            pos,
            range,
            quiet_limit,
            quiet,
            seen: vec![pos],
        }
    }

    /// Reads boardlab's position text (its own small parser).
    pub fn from_text(text: &str, range: i32, quiet_limit: u32) -> Ref {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut pos = Pos {
            ground: [[None; 8]; 8],
            fighters: [[[0; 2]; 8]; 8],
            to_move: if words[1] == "w" { 0 } else { 1 },
        };
        for (i, rank) in words[0].split('/').enumerate() {
            let y = 7 - i;
            let mut x = 0usize;
            let mut chars = rank.chars().peekable();
            while let Some(ch) = chars.next() {
                if let Some(d) = ch.to_digit(10) {
                    x += d as usize;
                    continue;
                }
                let group: Vec<char> = if ch == '[' {
                    chars.by_ref().take_while(|&c| c != ']').collect()
                } else {
                    vec![ch]
                };
                let mut j = 0;
                let kind = match group[0].to_ascii_uppercase() {
                    'K' => Some(Kind::Commander),
                    'V' => Some(Kind::Vedrin),
                    'S' => Some(Kind::Striker),
                    'C' => Some(Kind::Cruiser),
                    'P' => Some(Kind::Portal),
                    'R' => Some(Kind::Ranger),
                    _ => None,
                };
                if let Some(kind) = kind {
                    let colour = if group[0].is_ascii_uppercase() { 0 } else { 1 };
                    j = 1;
                    let mut facing = 0;
                    let mut promoted = false;
                    if matches!(kind, Kind::Portal | Kind::Ranger) {
                        facing = "nesw".find(group[1]).unwrap();
                        j = 2;
                    } else if group.get(1) == Some(&'+') {
                        promoted = true;
                        j = 2;
                    }
                    pos.ground[x][y] = Some(Piece {
                        colour,
                        kind,
                        facing,
                        promoted,
                    });
                }
                for &c in &group[j..] {
                    pos.fighters[x][y][if c == 'F' { 0 } else { 1 }] += 1;
                }
                x += 1;
            }
        }
        let quiet = words.get(2).map_or(0, |q| q.parse().unwrap());
        Ref::from_pos(pos, range, quiet_limit, quiet)
    }

    fn fire_moves(&self, pos: &Pos, only: Option<(i32, i32)>) -> Vec<RMove> {
        let me = pos.to_move;
        let mut out = Vec::new();
        for x in 0..8 {
            for y in 0..8 {
                let Some(p) = pos.at((x, y)) else { continue };
                if p.kind != Kind::Ranger || p.colour != me {
                    continue;
                }
                let (dx, dy) = ahead(p.facing);
                for i in 1..=self.range {
                    let t = (x + dx * i, y + dy * i);
                    if !on(t.0, t.1) {
                        break;
                    }
                    let wanted = only.is_none_or(|o| o == t);
                    if pos.flying_there(t, 1 - me) && wanted {
                        out.push(RMove::Fire {
                            from: (x, y),
                            at: t,
                            fighters: true,
                        });
                    }
                    if let Some(q) = pos.at(t) {
                        if q.colour != me && wanted {
                            out.push(RMove::Fire {
                                from: (x, y),
                                at: t,
                                fighters: false,
                            });
                        }
                        break;
                    }
                }
            }
        }
        out
    }

    fn all_pseudo(&self, pos: &Pos, only: Option<(i32, i32)>) -> Vec<RMove> {
        let mut v = pos.pseudo_moves(only);
        v.extend(self.fire_moves(pos, only));
        v
    }

    /// Colour `c`'s Commander is in siege when some opponent move (movement rules only)
    /// would remove it.
    pub fn in_siege(&self, pos: &Pos, c: usize) -> bool {
        let Some(k) = pos.commander(c) else {
            return false;
        };
        let mut theirs = *pos;
        theirs.to_move = 1 - c;
        self.all_pseudo(&theirs, Some(k)).iter().any(|m| {
            let mut after = theirs;
            after.apply(m);
            after.commander(c).is_none()
        })
    }

    fn legal(&self) -> Vec<RMove> {
        let me = self.pos.to_move;
        self.all_pseudo(&self.pos, None)
            .into_iter()
            .filter(|m| {
                let mut after = self.pos;
                after.apply(m);
                !self.in_siege(&after, me)
            })
            .collect()
    }

    fn drawn(&self) -> Option<&'static str> {
        let same = self.seen.iter().filter(|p| **p == self.pos).count();
        if self.quiet >= self.quiet_limit {
            Some("quiet-plies reached without any piece removed")
        } else if same >= 3 {
            Some("third repetition")
        } else {
            None
        }
    }

    /// The move in boardlab's notation; `pos` (the position before the move) says how many
    /// Fighters stand on a carried square: a square whose Fighters all go is written alone
    /// (`{d5}`), one where only some go with the number (`{d5:1}`).
    pub fn text(pos: &Pos, m: &RMove) -> String {
        match m {
            RMove::Ground {
                from,
                to,
                new_facing,
                carried,
            } => {
                let mut s = name(*from);
                if to != from {
                    s.push('-');
                    s.push_str(&name(*to));
                }
                if let Some(f) = new_facing {
                    s.push('>');
                    s.push(facing_letter(*f));
                }
                if !carried.is_empty() {
                    let mut c = carried.clone();
                    c.sort_by_key(|&((x, y), _)| (y, x));
                    let names: Vec<String> = c
                        .into_iter()
                        .map(|(q, n)| {
                            if n == pos.count(q, pos.to_move) {
                                name(q)
                            } else {
                                format!("{}:{n}", name(q))
                            }
                        })
                        .collect();
                    s.push_str(&format!("{{{}}}", names.join(",")));
                }
                s
            }
            RMove::Fire { from, at, fighters } => format!(
                "r{}*{}{}",
                name(*from),
                name(*at),
                if *fighters { 'f' } else { 'g' }
            ),
            RMove::Fly { from, to, attack } => format!(
                "f{}{}{}",
                name(*from),
                if *attack { 'x' } else { '-' },
                name(*to)
            ),
            RMove::Strike { at } => format!("f{}x", name(*at)),
        }
    }

    /// The text of a ground move depends on whether it attacks: fix it here.
    fn full_text(&self, m: &RMove) -> String {
        let t = Ref::text(&self.pos, m);
        if let RMove::Ground { from, to, .. } = m {
            if from != to && self.pos.at(*to).is_some() {
                let n = name(*from).len();
                return format!("{}x{}", &t[..n], &t[n + 1..]);
            }
        }
        t
    }
}

impl Reference for Ref {
    fn legal_moves(&self) -> Vec<String> {
        if self.drawn().is_some() {
            return Vec::new();
        }
        self.legal().iter().map(|m| self.full_text(m)).collect()
    }

    fn play(&mut self, mv: &str) {
        let m = self
            .legal()
            .into_iter()
            .find(|m| self.full_text(m) == mv)
            .unwrap_or_else(|| panic!("reference cannot play '{mv}'"));
        let removed = self.pos.apply(&m);
        if removed {
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        self.seen.push(self.pos);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.legal().is_empty() {
            let me = self.pos.to_move;
            if self.in_siege(&self.pos, me) {
                let w = 1 - me;
                return Some(Outcome::Win {
                    seat: if w == 0 { Seat::First } else { Seat::Second },
                    colour: if w == 0 { Colour::White } else { Colour::Black },
                    reason: "the Commander cannot escape siege",
                });
            }
            return Some(Outcome::Draw {
                reason: "stalemate: no legal move",
            });
        }
        self.drawn().map(|reason| Outcome::Draw { reason })
    }
}

/// The reference engine in the same state as a fast-engine game that has just started or was
/// read from a position.
pub fn reference_for(game: &boardlab_assideum::Assideum) -> Ref {
    use boardlab_core::Game;
    let o = game.options();
    let range = o.get_int("ranger-range").unwrap() as i32;
    let quiet = o.get_int("quiet-plies").unwrap() as u32;
    if game.ply() == 0 && game.position_text() == boardlab_assideum::START_POSITION {
        Ref::start(range, quiet)
    } else {
        Ref::from_text(&game.position_text(), range, quiet)
    }
}

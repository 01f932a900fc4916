//! The position as bit sets, move generation, move application and the siege test.
//!
//! Everything here is `Copy` and allocation-free: the playout loop copies a [`Board`] to test a
//! move's legality (make the move, then ask whether the mover's Commander is in siege).

use crate::tables::{
    bishop, file, nearest, rank, relocate, rook, Bits, Square, BETWEEN, DIRS, FAR_RANK, KING, LANE,
    LINES, RAY, VED, ZONE,
};

boardlab_core::sides! {
    /// A side: White (first seat, moves first) or Black.
    White, Black
}

/// White (first seat, moves first).
pub const WHITE: Side = Side::White;
/// Black.
pub const BLACK: Side = Side::Black;

/// Most Fighters of one colour on one square (each army has two).
pub const MAX_FIGHTERS_PER_SQUARE: u8 = 2;

/// A ground piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Commander = 0,
    Vedrin = 1,
    Striker = 2,
    Cruiser = 3,
    Portal = 4,
    Ranger = 5,
}

impl Kind {
    /// Every kind, in index order.
    pub const ALL: [Kind; 6] = [
        Kind::Commander,
        Kind::Vedrin,
        Kind::Striker,
        Kind::Cruiser,
        Kind::Portal,
        Kind::Ranger,
    ];

    /// Whether the piece has a facing (Portal, Ranger).
    #[must_use]
    pub fn directional(self) -> bool {
        matches!(self, Kind::Portal | Kind::Ranger)
    }

    /// The upper-case letter of the piece: K, V, S, C, P, R.
    #[must_use]
    pub fn letter(self) -> char {
        ['K', 'V', 'S', 'C', 'P', 'R'][self as usize]
    }

    /// The kind of a letter (either case).
    #[must_use]
    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_uppercase() {
            'K' => Some(Kind::Commander),
            'V' => Some(Kind::Vedrin),
            'S' => Some(Kind::Striker),
            'C' => Some(Kind::Cruiser),
            'P' => Some(Kind::Portal),
            'R' => Some(Kind::Ranger),
            _ => None,
        }
    }

    /// The name a player uses.
    #[must_use]
    pub fn name(self) -> &'static str {
        [
            "Commander",
            "Ved'rin",
            "Striker",
            "Cruiser",
            "Portal",
            "Ranger",
        ][self as usize]
    }
}

/// The facing of a Portal or Ranger. Turning clockwise adds one (N → E → S → W).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Facing {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Facing {
    /// All four, in order N, E, S, W.
    pub const ALL: [Facing; 4] = [Facing::N, Facing::E, Facing::S, Facing::W];

    /// From 0…3 (taken modulo 4).
    #[must_use]
    pub fn from_index(i: u8) -> Facing {
        Facing::ALL[(i & 3) as usize]
    }

    /// The lower-case letter: n, e, s, w.
    #[must_use]
    pub fn letter(self) -> char {
        ['n', 'e', 's', 'w'][self as usize]
    }

    /// The facing of a letter n, e, s, w (either case).
    #[must_use]
    pub fn from_letter(c: char) -> Option<Facing> {
        match c.to_ascii_lowercase() {
            'n' => Some(Facing::N),
            'e' => Some(Facing::E),
            's' => Some(Facing::S),
            'w' => Some(Facing::W),
            _ => None,
        }
    }

    /// The forward direction of each colour: White N, Black S.
    #[must_use]
    pub fn forward(side: Side) -> Facing {
        if side == WHITE {
            Facing::N
        } else {
            Facing::S
        }
    }
}

/// Which optional Fighters (flying on squares that both friendly flight zones cover) a Portal
/// move takes along: at most two squares, in square order, each with all of its Fighters or
/// only some of them.
///
/// Fighters on one square are interchangeable, so the choice for a square is how many of its
/// Fighters go. "All of them" is its own value (written `{d5}`), so a move read from text means
/// the same whatever the square holds; a smaller number is written `{d5:1}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Carry {
    squares: [u8; 2],
    /// Per listed square: how many of its Fighters go, [`Carry::ALL`] for every one.
    counts: [u8; 2],
}

const NO_SQUARE: u8 = 64;

impl Carry {
    /// Nothing optional is carried.
    pub const NONE: Carry = Carry {
        squares: [NO_SQUARE; 2],
        counts: [0; 2],
    };

    /// The count that stands for every Fighter on the square.
    pub const ALL: u8 = 0;

    /// This carry choice with `count` Fighters of `s` added ([`Carry::ALL`]: every one), the
    /// squares kept in square order. `None` when two squares are listed already or `s` is
    /// listed.
    #[must_use]
    pub fn with(self, s: Square, count: u8) -> Option<Carry> {
        if self.squares[1] != NO_SQUARE || self.squares[0] == s || s >= NO_SQUARE {
            return None;
        }
        let mut c = self;
        if c.squares[0] == NO_SQUARE {
            c.squares[0] = s;
            c.counts[0] = count;
        } else if s > c.squares[0] {
            c.squares[1] = s;
            c.counts[1] = count;
        } else {
            c.squares = [s, c.squares[0]];
            c.counts = [count, c.counts[0]];
        }
        Some(c)
    }

    /// Carrying `k` of the `n` Fighters on `s`: nothing when `k` is 0, [`Carry::ALL`] when `k`
    /// is `n`.
    #[inline]
    fn with_part(self, s: Square, k: u8, n: u8) -> Carry {
        if k == 0 {
            self
        } else {
            let count = if k >= n { Carry::ALL } else { k };
            self.with(s, count).unwrap_or(self)
        }
    }

    /// Whether no optional Fighter is carried.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.squares[0] == NO_SQUARE
    }

    /// The carried squares in square order, each with how many of its Fighters go (`None`:
    /// every one).
    pub fn entries(self) -> impl Iterator<Item = (Square, Option<u8>)> {
        self.squares
            .into_iter()
            .zip(self.counts)
            .filter(|&(s, _)| s < NO_SQUARE)
            .map(|(s, n)| (s, (n != Carry::ALL).then_some(n)))
    }
}

/// What a Ranger fires at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FireAt {
    /// All enemy flying Fighters on the target square.
    Fighters,
    /// The enemy ground piece on the target square (with any Fighters landed on it).
    Ground,
}

/// One whole turn. Two moves are equal exactly when their canonical notations are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A ground piece steps, slides or attacks (`from != to`), optionally turning (Portals and
    /// Rangers), or a Portal or Ranger spins in place (`from == to`, `face` given). `carry`
    /// says which optional Fighters a Portal takes along, and how many of a square's.
    Ground {
        from: Square,
        to: Square,
        attack: bool,
        face: Option<Facing>,
        carry: Carry,
    },
    /// Ranger fire at the enemy flying Fighters or the enemy ground piece on `target`.
    Fire {
        ranger: Square,
        target: Square,
        at: FireAt,
    },
    /// One Fighter flies from `from` to `to`; `attack` removes the enemy flying Fighters there,
    /// or else the enemy ground piece.
    Fly {
        from: Square,
        to: Square,
        attack: bool,
    },
    /// A Fighter on `square` attacks without moving: the enemy flying Fighters there if any,
    /// else the enemy ground piece.
    Strike { square: Square },
}

mod keys {
    use boardlab_core::zobrist::keys;
    const N: usize = 12 * 64 + 64 + 4 * 64 + 4 * 64 + 1;
    pub static ALL: [u64; N] = keys::<N>(0x4153_5349_4445_554D);
    pub const GROUND: usize = 0;
    pub const PROMO: usize = 12 * 64;
    pub const FACE: usize = PROMO + 64;
    pub const F1: usize = FACE + 4 * 64;
    pub const F2: usize = F1 + 2 * 64;
    pub const SIDE: usize = F2 + 2 * 64;
}

#[inline(always)]
fn bit(s: Square) -> u64 {
    1u64 << s
}

/// A position: ground pieces, facings, promotions, Fighters, side to move and the Ranger
/// range in force. `hash` is the Zobrist hash of everything but the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Ground pieces of each colour.
    pub colour: [u64; 2],
    /// Ground pieces of each kind (both colours), indexed by [`Kind`].
    pub kind: [u64; 6],
    /// Promoted Ved'rin.
    pub promoted: u64,
    /// Facing of Portals and Rangers as two bit planes (bit 0, bit 1 of [`Facing`]).
    pub face: [u64; 2],
    /// Squares holding at least one Fighter of each colour.
    pub f1: [u64; 2],
    /// Squares holding two Fighters of each colour.
    pub f2: [u64; 2],
    /// The colour to move.
    pub side: Side,
    /// Ranger fire range (`ranger-range`).
    pub range: u8,
    /// Zobrist hash.
    pub hash: u64,
}

impl Board {
    /// An empty board with White to move.
    #[must_use]
    pub fn empty(range: u8) -> Board {
        Board {
            colour: [0; 2],
            kind: [0; 6],
            promoted: 0,
            face: [0; 2],
            f1: [0; 2],
            f2: [0; 2],
            side: WHITE,
            range: range.min(7),
            hash: 0,
        }
    }

    /// The opening set-up.
    #[must_use]
    pub fn start(range: u8) -> Board {
        let mut b = Board::empty(range);
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
        for (f, &k) in back.iter().enumerate() {
            let f = f as u8;
            b.put(WHITE, k, f, Facing::N, false);
            b.put(BLACK, k, 56 + f, Facing::S, false);
            b.put(WHITE, Kind::Vedrin, 8 + f, Facing::N, false);
            b.put(BLACK, Kind::Vedrin, 48 + f, Facing::S, false);
            if k == Kind::Portal {
                b.add_fighters(WHITE, f, 1);
                b.add_fighters(BLACK, 56 + f, 1);
            }
        }
        b
    }

    /// Places a ground piece (set-up; `face` is used for Portals and Rangers, `promoted` for
    /// Ved'rin). The square must hold no ground piece.
    pub fn put(&mut self, c: Side, k: Kind, s: Square, face: Facing, promoted: bool) {
        self.toggle_piece(c, k, s);
        if k.directional() {
            self.toggle_face(s, face);
        }
        if k == Kind::Vedrin && promoted {
            self.toggle_promo(s);
        }
    }

    /// Adds `n` Fighters of colour `c` on `s` (at most two on one square are kept).
    pub fn add_fighters(&mut self, c: Side, s: Square, n: u8) {
        let now = self.fighters(c, s);
        self.set_fighters(c, s, now.saturating_add(n));
    }

    /// Ground pieces of both colours.
    #[inline(always)]
    #[must_use]
    pub fn occupied(&self) -> u64 {
        self.colour[0] | self.colour[1]
    }

    /// Portals of colour `c`.
    #[inline(always)]
    #[must_use]
    pub fn portals(&self, c: Side) -> u64 {
        self.kind[Kind::Portal as usize] & self.colour[c.index()]
    }

    /// Squares with flying Fighters of colour `c` (Fighters not on a friendly Portal).
    #[inline(always)]
    #[must_use]
    pub fn flying(&self, c: Side) -> u64 {
        self.f1[c.index()] & !self.portals(c)
    }

    /// The number of Fighters of colour `c` on `s` (0, 1 or 2).
    #[inline(always)]
    #[must_use]
    pub fn fighters(&self, c: Side, s: Square) -> u8 {
        ((self.f1[c.index()] >> s) & 1) as u8 + ((self.f2[c.index()] >> s) & 1) as u8
    }

    /// The facing of the piece on `s` (meaningful for Portals and Rangers).
    #[inline(always)]
    #[must_use]
    pub fn facing(&self, s: Square) -> Facing {
        Facing::from_index((((self.face[0] >> s) & 1) | (((self.face[1] >> s) & 1) << 1)) as u8)
    }

    /// The kind of ground piece on `s`.
    #[inline]
    #[must_use]
    pub fn kind_at(&self, s: Square) -> Option<Kind> {
        let b = bit(s);
        if self.occupied() & b == 0 {
            return None;
        }
        Kind::ALL
            .into_iter()
            .find(|&k| self.kind[k as usize] & b != 0)
    }

    /// The colour of the ground piece on `s`.
    #[inline]
    #[must_use]
    pub fn colour_at(&self, s: Square) -> Option<Side> {
        if self.colour[WHITE.index()] & bit(s) != 0 {
            Some(WHITE)
        } else if self.colour[BLACK.index()] & bit(s) != 0 {
            Some(BLACK)
        } else {
            None
        }
    }

    /// The union of the flight zones of colour `c`'s Portals.
    #[inline]
    #[must_use]
    pub fn zones(&self, c: Side) -> u64 {
        let mut z = 0;
        for p in Bits(self.portals(c)) {
            z |= ZONE[p as usize][self.facing(p) as usize];
        }
        z
    }

    /// The square of colour `c`'s Commander.
    #[inline]
    #[must_use]
    pub fn commander(&self, c: Side) -> Option<Square> {
        let k = self.kind[Kind::Commander as usize] & self.colour[c.index()];
        (k != 0).then(|| k.trailing_zeros() as Square)
    }

    #[inline(always)]
    fn toggle_piece(&mut self, c: Side, k: Kind, s: Square) {
        self.colour[c.index()] ^= bit(s);
        self.kind[k as usize] ^= bit(s);
        self.hash ^= keys::ALL[keys::GROUND + (c.index() * 6 + k as usize) * 64 + s as usize];
    }

    #[inline(always)]
    fn toggle_face(&mut self, s: Square, f: Facing) {
        let f = f as usize;
        if f & 1 != 0 {
            self.face[0] ^= bit(s);
        }
        if f & 2 != 0 {
            self.face[1] ^= bit(s);
        }
        self.hash ^= keys::ALL[keys::FACE + f * 64 + s as usize];
    }

    #[inline(always)]
    fn toggle_promo(&mut self, s: Square) {
        self.promoted ^= bit(s);
        self.hash ^= keys::ALL[keys::PROMO + s as usize];
    }

    /// Sets the Fighter count of colour `c` on `s` (capped at two).
    #[inline(always)]
    fn set_fighters(&mut self, c: Side, s: Square, n: u8) {
        let n = n.min(MAX_FIGHTERS_PER_SQUARE);
        let old = self.fighters(c, s);
        if (old >= 1) != (n >= 1) {
            self.f1[c.index()] ^= bit(s);
            self.hash ^= keys::ALL[keys::F1 + c.index() * 64 + s as usize];
        }
        if (old >= 2) != (n >= 2) {
            self.f2[c.index()] ^= bit(s);
            self.hash ^= keys::ALL[keys::F2 + c.index() * 64 + s as usize];
        }
    }

    /// Removes the ground piece on `s`, with the Fighters landed on it if it is a Portal.
    fn remove_ground(&mut self, s: Square) {
        let (Some(c), Some(k)) = (self.colour_at(s), self.kind_at(s)) else {
            return;
        };
        if k.directional() {
            let f = self.facing(s);
            self.toggle_face(s, f);
        }
        if self.promoted & bit(s) != 0 {
            self.toggle_promo(s);
        }
        self.toggle_piece(c, k, s);
        if k == Kind::Portal {
            self.set_fighters(c, s, 0);
        }
    }

    /// The hash recomputed from the pieces.
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for c in [WHITE, BLACK] {
            for k in Kind::ALL {
                for s in Bits(self.colour[c.index()] & self.kind[k as usize]) {
                    h ^= keys::ALL[keys::GROUND + (c.index() * 6 + k as usize) * 64 + s as usize];
                    if k.directional() {
                        h ^= keys::ALL[keys::FACE + self.facing(s) as usize * 64 + s as usize];
                    }
                }
            }
            for s in Bits(self.f1[c.index()]) {
                h ^= keys::ALL[keys::F1 + c.index() * 64 + s as usize];
            }
            for s in Bits(self.f2[c.index()]) {
                h ^= keys::ALL[keys::F2 + c.index() * 64 + s as usize];
            }
        }
        for s in Bits(self.promoted) {
            h ^= keys::ALL[keys::PROMO + s as usize];
        }
        if self.side == BLACK {
            h ^= keys::ALL[keys::SIDE];
        }
        h
    }

    /// Plays a move (assumed pseudo-legal; anything else is applied as far as it makes sense
    /// and never panics). Returns whether a piece was removed.
    pub fn apply(&mut self, mv: Move) -> bool {
        let me = self.side;
        let opp = me.other();
        let mut removal = false;
        match mv {
            Move::Ground {
                from,
                to,
                face,
                carry,
                ..
            } => {
                if self.colour[me.index()] & bit(from) != 0 {
                    if let Some(k) = self.kind_at(from) {
                        removal = self.apply_ground(k, from, to, face, carry);
                    }
                }
            }
            Move::Fire { target, at, .. } => match at {
                FireAt::Fighters => {
                    if self.flying(opp) & bit(target) != 0 {
                        self.set_fighters(opp, target, 0);
                        removal = true;
                    }
                }
                FireAt::Ground => {
                    if self.colour[opp.index()] & bit(target) != 0 {
                        self.remove_ground(target);
                        removal = true;
                    }
                }
            },
            Move::Fly { from, to, attack } => {
                let n = self.fighters(me, from);
                if n > 0 {
                    self.set_fighters(me, from, n - 1);
                    if attack {
                        removal = self.attack_square(to);
                    }
                    let m = self.fighters(me, to);
                    self.set_fighters(me, to, m + 1);
                }
            }
            Move::Strike { square } => {
                if self.f1[me.index()] & bit(square) != 0 {
                    removal = self.attack_square(square);
                }
            }
        }
        self.side = opp;
        self.hash ^= keys::ALL[keys::SIDE];
        removal
    }

    /// A Fighter's attack on `s`: the enemy flying Fighters there, else the enemy ground piece.
    fn attack_square(&mut self, s: Square) -> bool {
        let opp = self.side.other();
        if self.flying(opp) & bit(s) != 0 {
            self.set_fighters(opp, s, 0);
            true
        } else if self.colour[opp.index()] & bit(s) != 0 {
            self.remove_ground(s);
            true
        } else {
            false
        }
    }

    fn apply_ground(
        &mut self,
        k: Kind,
        from: Square,
        to: Square,
        face: Option<Facing>,
        carry: Carry,
    ) -> bool {
        let me = self.side;
        let opp = me.other();
        let old_face = self.facing(from);
        // Fighters that travel with a Portal: (source, destination, count).
        let mut plan = [(0u8, 0u8, 0u8); 4];
        let mut np = 0;
        if k == Kind::Portal {
            let landed = self.fighters(me, from);
            if landed > 0 {
                plan[np] = (from, to, landed);
                np += 1;
            }
            let zp = ZONE[from as usize][old_face as usize];
            let mut zo = 0;
            for o in Bits(self.portals(me) & !bit(from)) {
                zo |= ZONE[o as usize][self.facing(o) as usize];
            }
            let flying = self.flying(me) & zp;
            let turns = face.map_or(0, |g| (g as u8).wrapping_sub(old_face as u8) & 3);
            // Every Fighter of a square only this zone covers; of a square both zones cover,
            // as many as the move names.
            let mandatory = Bits(flying & !zo).map(|q| (q, self.fighters(me, q)));
            let optional = carry
                .entries()
                .filter(|&(q, _)| flying & zo & bit(q) != 0)
                .map(|(q, count)| {
                    let there = self.fighters(me, q);
                    (q, count.map_or(there, |n| n.min(there)))
                });
            for (q, n) in mandatory.chain(optional) {
                if np < plan.len() {
                    plan[np] = (q, relocate(from, to, q, turns), n);
                    np += 1;
                }
            }
        }
        let mut removal = false;
        if to != from {
            if self.colour[opp.index()] & bit(to) != 0 {
                self.remove_ground(to);
                removal = true;
            }
            if self.occupied() & bit(to) != 0 {
                // Not a legal move (own piece there): leave the board as it is.
                return removal;
            }
            self.toggle_piece(me, k, from);
            self.toggle_piece(me, k, to);
            if k.directional() {
                self.toggle_face(from, old_face);
                self.toggle_face(to, old_face);
            }
            if self.promoted & bit(from) != 0 {
                self.toggle_promo(from);
                self.toggle_promo(to);
            }
            if k == Kind::Vedrin
                && FAR_RANK[me.index()] & bit(to) != 0
                && self.promoted & bit(to) == 0
            {
                self.toggle_promo(to);
            }
        }
        if let Some(g) = face {
            if k.directional() && g != old_face {
                self.toggle_face(to, old_face);
                self.toggle_face(to, g);
            }
        }
        for &(src, _, n) in &plan[..np] {
            let left = self.fighters(me, src).saturating_sub(n);
            self.set_fighters(me, src, left);
        }
        for &(_, dst, n) in &plan[..np] {
            let m = self.fighters(me, dst);
            self.set_fighters(me, dst, m + n);
        }
        removal
    }

    /// Whether colour `c`'s Commander is in siege: the opponent, were it their turn, could
    /// remove it by a pseudo-legal move (all movement rules, ignoring their own siege).
    #[must_use]
    pub fn in_siege(&self, c: Side) -> bool {
        let Some(k) = self.commander(c) else {
            return false;
        };
        let o = c.other();
        let them = self.colour[o.index()];
        let kb = bit(k);
        let adj = KING[k as usize] & them;
        let kinds = &self.kind;
        // One-step attackers.
        if adj
            & (kinds[Kind::Commander as usize]
                | kinds[Kind::Ranger as usize]
                | (kinds[Kind::Vedrin as usize] & self.promoted))
            != 0
        {
            return true;
        }
        if VED[c.index()][k as usize] & them & kinds[Kind::Vedrin as usize] & !self.promoted != 0 {
            return true;
        }
        let occ = self.occupied();
        let cruisers = them & kinds[Kind::Cruiser as usize];
        let orth = them & kinds[Kind::Striker as usize] | cruisers;
        if orth & LINES[k as usize] != 0 && rook(k, occ) & orth != 0 {
            return true;
        }
        if cruisers & LINES[k as usize] != 0 && bishop(k, occ) & cruisers != 0 {
            return true;
        }
        // Ranger fire.
        if self.range > 0 {
            for r in Bits(them & kinds[Kind::Ranger as usize]) {
                let f = self.facing(r) as usize;
                let lane = LANE[f][r as usize][self.range as usize];
                if lane & kb != 0 {
                    let blockers = lane & occ;
                    if nearest(2 * f, blockers) == k {
                        return true;
                    }
                }
            }
        }
        // Fighters.
        let theirs = self.f1[o.index()];
        if theirs != 0 {
            if theirs & kb != 0 {
                return true; // strike in place
            }
            let mine_flying = self.flying(c);
            if mine_flying & kb == 0 {
                let zo = self.zones(o);
                if zo & kb != 0 {
                    let sources =
                        theirs & zo & LINES[k as usize] & !(self.portals(o) & mine_flying);
                    for s in Bits(sources) {
                        let between = BETWEEN[s as usize][k as usize];
                        if between & !zo == 0 && between & mine_flying == 0 {
                            return true;
                        }
                    }
                }
            }
        }
        // Portal attacks, when some spin variant can carry its Fighters legally.
        for p in Bits(adj & kinds[Kind::Portal as usize]) {
            if self.portal_can_take(p, k) {
                return true;
            }
        }
        false
    }

    /// Whether the Portal on `p` (of the colour not owning `k`'s piece) can step onto `k` with
    /// some facing and carry choice that puts no carried Fighter on an enemy flying Fighter.
    fn portal_can_take(&self, p: Square, k: Square) -> bool {
        let o = self.colour_at(p).unwrap_or(WHITE);
        let c = o.other();
        let fp = self.facing(p) as u8;
        let zp = ZONE[p as usize][fp as usize];
        let mut zo = 0;
        for q in Bits(self.portals(o) & !bit(p)) {
            zo |= ZONE[q as usize][self.facing(q) as usize];
        }
        let mandatory = self.flying(o) & zp & !zo;
        if mandatory == 0 {
            return true;
        }
        let enemy_flying = self.flying(c);
        (0..4u8)
            .any(|turns| Bits(mandatory).all(|q| enemy_flying & bit(relocate(p, k, q, turns)) == 0))
    }

    /// Appends every pseudo-legal move of the side to move (all movement rules, siege not
    /// considered) in the documented order.
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let me = self.side;
        for s in Bits(self.colour[me.index()]) {
            let Some(k) = self.kind_at(s) else { continue };
            self.ground_moves(k, s, out);
        }
        self.fighter_moves(out);
    }

    fn ground_moves(&self, k: Kind, s: Square, out: &mut Vec<Move>) {
        let me = self.side;
        let own = self.colour[me.index()];
        let them = self.colour[me.other().index()];
        let occ = own | them;
        let targets = match k {
            Kind::Commander | Kind::Portal | Kind::Ranger => KING[s as usize],
            Kind::Vedrin => {
                if self.promoted & bit(s) != 0 {
                    KING[s as usize]
                } else {
                    VED[me.index()][s as usize]
                }
            }
            Kind::Striker => rook(s, occ),
            Kind::Cruiser => rook(s, occ) | bishop(s, occ),
        } & !own;
        match k {
            Kind::Portal => self.portal_moves(s, targets, out),
            Kind::Ranger => {
                let f = self.facing(s);
                for g in Facing::ALL {
                    if g != f {
                        out.push(ground(s, s, false, Some(g), Carry::NONE));
                    }
                }
                for t in Bits(targets) {
                    let attack = them & bit(t) != 0;
                    out.push(ground(s, t, attack, None, Carry::NONE));
                    for g in Facing::ALL {
                        if g != f {
                            out.push(ground(s, t, attack, Some(g), Carry::NONE));
                        }
                    }
                }
                self.fire_moves(s, f, out);
            }
            _ => {
                for t in Bits(targets) {
                    out.push(ground(s, t, them & bit(t) != 0, None, Carry::NONE));
                }
            }
        }
    }

    fn portal_moves(&self, s: Square, targets: u64, out: &mut Vec<Move>) {
        let me = self.side;
        let them = self.colour[me.other().index()];
        let f = self.facing(s);
        let zp = ZONE[s as usize][f as usize];
        let mut zo = 0;
        for o in Bits(self.portals(me) & !bit(s)) {
            zo |= ZONE[o as usize][self.facing(o) as usize];
        }
        let flying = self.flying(me) & zp;
        let mut optional = [(0, 0); 2];
        let mut n_optional = 0;
        for q in Bits(flying & zo) {
            if n_optional < optional.len() {
                optional[n_optional] = (q, self.fighters(me, q));
                n_optional += 1;
            }
        }
        let ctx = PortalCtx {
            from: s,
            face: f,
            mandatory: flying & !zo,
            optional,
            n_optional,
            enemy_flying: self.flying(me.other()),
        };
        for g in Facing::ALL {
            if g != f {
                ctx.push(s, false, Some(g), out);
            }
        }
        for t in Bits(targets) {
            let attack = them & bit(t) != 0;
            ctx.push(t, attack, None, out);
            for g in Facing::ALL {
                if g != f {
                    ctx.push(t, attack, Some(g), out);
                }
            }
        }
    }

    fn fire_moves(&self, r: Square, f: Facing, out: &mut Vec<Move>) {
        if self.range == 0 {
            return;
        }
        let me = self.side;
        let enemy_flying = self.flying(me.other());
        let (dx, dy) = DIRS[2 * f as usize];
        let occ = self.occupied();
        let (mut x, mut y) = (file(r), rank(r));
        for _ in 0..self.range {
            x += dx;
            y += dy;
            if !(0..8).contains(&x) || !(0..8).contains(&y) {
                break;
            }
            let t = (y * 8 + x) as Square;
            if enemy_flying & bit(t) != 0 {
                out.push(Move::Fire {
                    ranger: r,
                    target: t,
                    at: FireAt::Fighters,
                });
            }
            if occ & bit(t) != 0 {
                if self.colour[me.other().index()] & bit(t) != 0 {
                    out.push(Move::Fire {
                        ranger: r,
                        target: t,
                        at: FireAt::Ground,
                    });
                }
                break;
            }
        }
    }

    fn fighter_moves(&self, out: &mut Vec<Move>) {
        let me = self.side;
        let mine = self.f1[me.index()];
        if mine == 0 {
            return;
        }
        let them = self.colour[me.other().index()];
        let enemy_flying = self.flying(me.other());
        let zone = self.zones(me);
        let my_portals = self.portals(me);
        for s in Bits(mine) {
            let sb = bit(s);
            if (enemy_flying | them) & sb != 0 {
                out.push(Move::Strike { square: s });
            }
            if zone & sb == 0 || my_portals & enemy_flying & sb != 0 {
                continue;
            }
            let stop_at = !zone | enemy_flying;
            let mut reach = 0u64;
            let mut hits = 0u64;
            for (d, rays) in RAY.iter().enumerate() {
                let ray = rays[s as usize];
                let stops = ray & stop_at;
                if stops == 0 {
                    reach |= ray;
                } else {
                    let n = nearest(d, stops);
                    let nb = bit(n);
                    reach |= ray ^ RAY[d][n as usize] ^ nb;
                    if zone & nb != 0 {
                        hits |= nb;
                    }
                }
            }
            for t in Bits(reach | hits) {
                let tb = bit(t);
                if reach & tb != 0 {
                    out.push(Move::Fly {
                        from: s,
                        to: t,
                        attack: false,
                    });
                }
                if hits & tb != 0 || them & tb != 0 {
                    out.push(Move::Fly {
                        from: s,
                        to: t,
                        attack: true,
                    });
                }
            }
        }
    }

    /// `mv` as the move list writes it: a carried count that is every Fighter of the side to
    /// move on that square becomes "all of them" (`{d5:2}` and `{d5,d5}` are `{d5}` where d5
    /// holds two Fighters, `{d5:1}` is `{d5}` where it holds one).
    #[must_use]
    pub fn canonical(&self, mv: Move) -> Move {
        let Move::Ground {
            from,
            to,
            attack,
            face,
            carry,
        } = mv
        else {
            return mv;
        };
        let mut out = Carry::NONE;
        for (q, count) in carry.entries() {
            let count = match count {
                Some(n) if n == self.fighters(self.side, q) => Carry::ALL,
                Some(n) => n,
                None => Carry::ALL,
            };
            out = out.with(q, count).unwrap_or(out);
        }
        ground(from, to, attack, face, out)
    }

    /// Whether a pseudo-legal move leaves the mover's Commander out of siege.
    #[inline]
    #[must_use]
    pub fn keeps_commander_safe(&self, mv: Move) -> bool {
        let mut b = *self;
        b.apply(mv);
        !b.in_siege(self.side)
    }

    /// Appends every legal move in the documented order.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.pseudo_moves(out);
        let mut w = start;
        for i in start..out.len() {
            let mv = out[i];
            if self.keeps_commander_safe(mv) {
                out[w] = mv;
                w += 1;
            }
        }
        out.truncate(w);
    }

    /// Whether the side to move has at least one legal move. `buf` is scratch space.
    pub fn has_legal_move(&self, buf: &mut Vec<Move>) -> bool {
        buf.clear();
        self.pseudo_moves(buf);
        buf.iter().any(|&m| self.keeps_commander_safe(m))
    }
}

#[inline(always)]
fn ground(from: Square, to: Square, attack: bool, face: Option<Facing>, carry: Carry) -> Move {
    Move::Ground {
        from,
        to,
        attack,
        face,
        carry,
    }
}

/// What a Portal move needs to know about the Fighters it may take along.
struct PortalCtx {
    from: Square,
    face: Facing,
    /// Flying Fighters only in this Portal's zone: always carried.
    mandatory: u64,
    /// Squares with flying Fighters in both friendly zones, in square order, with how many
    /// Fighters each holds: each Fighter is carried or left (at most two squares, as an army
    /// has two Fighters).
    optional: [(Square, u8); 2],
    n_optional: usize,
    enemy_flying: u64,
}

impl PortalCtx {
    /// Pushes the carry variants of a Portal move to `to` (turning to `face` if given):
    /// nothing optional carried, then by the number of optional Fighters carried, and for the
    /// same number the earlier square taking more first (`{d5:1}`, then `{d5}`; `{d5}`, `{e6}`,
    /// then `{d5,e6}`).
    #[inline]
    fn push(&self, to: Square, attack: bool, face: Option<Facing>, out: &mut Vec<Move>) {
        let turns = face.map_or(0, |g| (g as u8).wrapping_sub(self.face as u8) & 3);
        for q in Bits(self.mandatory) {
            if self.enemy_flying & bit(relocate(self.from, to, q, turns)) != 0 {
                return;
            }
        }
        // The optional squares whose Fighters may go: (a, na) and (b, nb), a before b.
        let mut ok = [(NO_SQUARE, 0u8); 2];
        let mut n = 0;
        for &(q, k) in &self.optional[..self.n_optional] {
            if self.enemy_flying & bit(relocate(self.from, to, q, turns)) == 0 {
                ok[n] = (q, k);
                n += 1;
            }
        }
        let [(a, na), (b, nb)] = ok;
        out.push(ground(self.from, to, attack, face, Carry::NONE));
        for total in 1..=na + nb {
            for ka in (total.saturating_sub(nb)..=total.min(na)).rev() {
                let carry = Carry::NONE
                    .with_part(a, ka, na)
                    .with_part(b, total - ka, nb);
                out.push(ground(self.from, to, attack, face, carry));
            }
        }
    }
}

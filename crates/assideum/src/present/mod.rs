//! The board as drawn and how each move is entered by clicks.
//!
//! Ground pieces are clicked on their square; the Fighters of a square are a separate layer
//! (`fighter`) of the same square. A ground move is the piece, then its destination (the piece
//! again to spin in place); a Fighter's move is the Fighter, then its destination (the Fighter
//! again to strike in place); Ranger fire is the Ranger, then the target square. Moves that
//! share the same clicks (facings, optional Fighters carried, fire or attack) are offered in a
//! chooser, in rows that say what happens to every optional Fighter.

mod legend;

use crate::board::{Board, Carry, Facing, FireAt, Kind, Move, BLACK, WHITE};
use crate::tables::{Bits, Square, ZONE};
use crate::Assideum;
use boardlab_core::present::{
    self, grid, square, Board as Drawn, Click, Fact, Interaction, Layer, LegendItem, Mark,
    MoveInput, MoveKind, Piece, PieceKind, Refusal, Selection, Text, Zones,
};
use boardlab_core::Present;
use boardlab_core::{Notation, Rules};
use std::borrow::Cow;
use std::collections::BTreeMap;

fn name(s: Square) -> Text {
    square(usize::from(s & 7), usize::from(s >> 3))
}

fn piece_kind(k: Kind) -> PieceKind {
    [
        PieceKind::Commander,
        PieceKind::Vedrin,
        PieceKind::Striker,
        PieceKind::Cruiser,
        PieceKind::Portal,
        PieceKind::Ranger,
    ][k as usize]
}

/// A facing as drawn.
fn arrow(f: Facing) -> present::Facing {
    [
        present::Facing::N,
        present::Facing::E,
        present::Facing::S,
        present::Facing::W,
    ][f as usize]
}

fn facing_word(f: Facing) -> &'static str {
    ["north", "east", "south", "west"][f as usize]
}

/// How many Fighters a number is said as in a chooser row.
fn number(n: u8) -> Cow<'static, str> {
    match n {
        0 => Cow::Borrowed("no"),
        1 => Cow::Borrowed("one"),
        2 => Cow::Borrowed("two"),
        _ => Cow::Owned(n.to_string()),
    }
}

/// The cells a move names: where it starts and, unless it stays there, where it ends.
fn cells_of(mv: Move) -> Vec<Text> {
    let (a, b) = match mv {
        Move::Ground { from, to, .. } | Move::Fly { from, to, .. } => (from, to),
        Move::Fire { ranger, target, .. } => (ranger, target),
        Move::Strike { square } => (square, square),
    };
    if a == b {
        vec![name(a)]
    } else {
        vec![name(a), name(b)]
    }
}

/// How many of a square's optional Fighters a move takes: `None` for all of them.
fn carried(carry: Carry, s: Square) -> Option<u8> {
    carry
        .entries()
        .find(|&(q, _)| q == s)
        .map_or(Some(0), |(_, n)| n)
}

/// What a move does with the optional Fighters on `squares` (in square order): squares whose
/// Fighters all go, or all stay, are named together; a square where only some go gets its own
/// phrase ("carry one of the two Fighters on d5").
fn carry_phrases(b: &Board, squares: &[Square], carry: Carry) -> Vec<String> {
    let me = b.side;
    let mut all = Vec::new();
    let mut left = Vec::new();
    let mut parts = Vec::new();
    let mut some = Vec::new();
    for &s in squares {
        let total = b.fighters(me, s);
        match carried(carry, s) {
            Some(0) => left.push(s),
            None => all.push(s),
            Some(n) if n >= total => all.push(s),
            Some(n) => some.push(format!(
                "carry {} of the {} Fighters on {}",
                number(n),
                number(total),
                name(s)
            )),
        }
    }
    let named = |verb: &str, list: &[Square]| -> String {
        if let [s] = list {
            match b.fighters(me, *s) {
                1 => format!("{verb} the Fighter on {}", name(*s)),
                2 => format!("{verb} both Fighters on {}", name(*s)),
                _ => format!("{verb} the Fighters on {}", name(*s)),
            }
        } else {
            let names: Vec<Text> = list.iter().map(|&s| name(s)).collect();
            format!("{verb} the Fighters on {}", names.join(" and "))
        }
    };
    if !all.is_empty() {
        parts.push(named("carry", &all));
    }
    parts.append(&mut some);
    if !left.is_empty() {
        parts.push(named("leave", &left));
    }
    parts
}

/// One click: a square and whether it is on the square's Fighters.
type Token = (Square, bool);

fn click((s, fighter): Token) -> Click {
    if fighter {
        Click::layer(name(s), Layer::Fighter)
    } else {
        Click::on(name(s))
    }
}

/// One legal move as clicks, before the chooser rows are settled.
struct Entry {
    input: MoveInput,
    path: [Token; 2],
    /// What the move does, the start of its chooser row: ground moves only.
    verb: Option<String>,
    carry: Carry,
}

impl Assideum {
    /// The name of the ground piece on `s` ("piece" where there is none).
    fn ground_name(&self, s: Square) -> &'static str {
        self.board().kind_at(s).map_or("piece", Kind::name)
    }

    fn entry(&self, mv: Move) -> Entry {
        let notation = self.format_move(mv);
        let cells = cells_of(mv);
        let mut verb = None;
        let mut carry = Carry::NONE;
        let (path, input) = match mv {
            Move::Strike { square } => (
                [(square, true), (square, true)],
                MoveInput::clicks(notation, Vec::new(), "Strike in place").kind(MoveKind::Capture),
            ),
            Move::Fly { from, to, attack } => {
                let to_name = name(to);
                let (label, kind) = if attack {
                    (format!("Fly to {to_name} and attack"), MoveKind::Capture)
                } else {
                    (format!("Fly to {to_name}"), MoveKind::Move)
                };
                (
                    [(from, true), (to, false)],
                    MoveInput::clicks(notation, Vec::new(), label).kind(kind),
                )
            }
            Move::Fire { ranger, target, at } => {
                let label = match at {
                    FireAt::Fighters => format!("at the Fighters on {}", name(target)),
                    FireAt::Ground => {
                        format!("at the {} on {}", self.ground_name(target), name(target))
                    }
                };
                (
                    [(ranger, false), (target, false)],
                    MoveInput::clicks(notation, Vec::new(), label)
                        .group("Fire")
                        .kind(MoveKind::Special),
                )
            }
            Move::Ground {
                from,
                to,
                attack,
                face,
                carry: c,
            } => {
                carry = c;
                let label = face.map_or_else(
                    || "keep facing".to_string(),
                    |f| format!("face {}", facing_word(f)),
                );
                let (v, group, kind) = if to == from {
                    (
                        "Spin".to_string(),
                        "Spin in place".to_string(),
                        MoveKind::Special,
                    )
                } else if attack {
                    let v = format!("Attack {}", name(to));
                    (v.clone(), v, MoveKind::Capture)
                } else {
                    let v = format!("Move to {}", name(to));
                    (v.clone(), v, MoveKind::Move)
                };
                verb = Some(v);
                let mut input = MoveInput::clicks(notation, Vec::new(), label)
                    .group(group)
                    .kind(kind);
                input.facing = face.map(arrow);
                ([(from, false), (to, false)], input)
            }
        };
        let mut input = input.touching(cells);
        input.paths = vec![path.iter().map(|&t| click(t)).collect()];
        Entry {
            input,
            path,
            verb,
            carry,
        }
    }

    /// Whether the board marks the flight zone of the Portal on `s` (`zone-of-SQ`).
    fn has_zone(&self, s: Square) -> bool {
        let b = self.board();
        (b.portals(WHITE) | b.portals(BLACK)) >> s & 1 == 1
            && ZONE[usize::from(s)][b.facing(s) as usize] != 0
    }
}

impl Present for Assideum {
    fn legend() -> Vec<LegendItem> {
        legend::items()
    }

    fn board(&self) -> Drawn {
        let b = self.board();
        let mut out = grid(8, 8, true);
        for s in 0..64u8 {
            let cell = &mut out.cells[usize::from(s)];
            let ground = b.kind_at(s).zip(b.colour_at(s));
            if let Some((k, c)) = ground {
                let label = ["K", "V", "S", "C", "P", "R"][k as usize];
                let mut piece = Piece::new(c.colour(), piece_kind(k)).label(label);
                if k.directional() {
                    piece.facing = Some(arrow(b.facing(s)));
                }
                if k == Kind::Vedrin && b.promoted >> s & 1 == 1 {
                    piece.promoted = Some(true);
                }
                cell.pieces.push(piece);
            }
            for c in [WHITE, BLACK] {
                let landed = ground == Some((Kind::Portal, c));
                for _ in 0..b.fighters(c, s) {
                    let mut piece = Piece::new(c.colour(), PieceKind::Fighter).label("F");
                    piece.flying = Some(!landed);
                    cell.pieces.push(piece);
                }
            }
        }
        // Flight zones, Portal by Portal from rank 8 down to rank 1, each rank from file a.
        let mut portals: Vec<Square> = Bits(b.portals(WHITE) | b.portals(BLACK)).collect();
        portals.sort_by_key(|&p| (std::cmp::Reverse(p >> 3), p & 7));
        for p in portals {
            let colour = if b.colour_at(p) == Some(WHITE) {
                Mark::ZoneWhite
            } else {
                Mark::ZoneBlack
            };
            let own = Mark::ZoneOf(name(p));
            for s in Bits(ZONE[usize::from(p)][b.facing(p) as usize]) {
                let cell = &mut out.cells[usize::from(s)];
                cell.mark(colour.clone());
                cell.marks.push(own.clone());
            }
        }
        if self.in_siege() {
            if let Some(k) = b.commander(b.side) {
                out.cells[usize::from(k)].marks.push(Mark::Siege);
            }
        }
        out.facts.insert(
            Fact::QuietPlies,
            format!("{} of {}", self.quiet_plies(), self.quiet_limit),
        );
        out
    }

    fn interaction(&self) -> Interaction {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.is_empty() {
            return Interaction::default();
        }
        let b = self.board();
        let me = b.side;
        let colour = me.colour();
        let mut entries: Vec<Entry> = moves.iter().map(|&mv| self.entry(mv)).collect();

        // Chooser rows: where any move of a click path carries optional Fighters, every ground
        // move of that path says what happens to the Fighters of each optional square.
        let mut optional: BTreeMap<[Token; 2], u64> = BTreeMap::new();
        for e in &entries {
            let mask = e.carry.entries().fold(0u64, |m, (q, _)| m | 1u64 << q);
            *optional.entry(e.path).or_default() |= mask;
        }
        for e in &mut entries {
            let squares: Vec<Square> = Bits(optional[&e.path]).collect();
            if let (Some(verb), false) = (&e.verb, squares.is_empty()) {
                let parts = carry_phrases(b, &squares, e.carry);
                e.input.group = Some(format!("{verb}: {}", parts.join(", ")));
            }
        }

        // What each first click selects, in the order of the moves: the click, whether a move
        // goes on with the same square (spin, strike in place) and whether one goes elsewhere.
        let mut firsts: Vec<(Token, bool, bool)> = Vec::new();
        for e in &entries {
            let [first, second] = e.path;
            let i = firsts.iter().position(|f| f.0 == first).unwrap_or_else(|| {
                firsts.push((first, false, false));
                firsts.len() - 1
            });
            if second.0 == first.0 {
                firsts[i].1 = true;
            } else {
                firsts[i].2 = true;
            }
        }
        let selections = firsts
            .into_iter()
            .map(|((s, fighter), again, elsewhere)| {
                let sq = name(s);
                let mut parts = Vec::new();
                if again {
                    parts.push(if fighter {
                        format!("choose {sq} again to strike in place")
                    } else {
                        format!("choose {sq} again to spin")
                    });
                }
                if elsewhere {
                    parts.push("choose a highlighted square".to_string());
                }
                let (name, what, zones) = if fighter {
                    (
                        "the Fighter".to_string(),
                        format!("Fighter on {sq}"),
                        Some(Zones {
                            colour,
                            portal: None,
                        }),
                    )
                } else {
                    let ground = self.ground_name(s);
                    let portal = b.portals(me) >> s & 1 == 1;
                    let zones = portal.then(|| Zones {
                        colour,
                        portal: self.has_zone(s).then(|| sq.clone()),
                    });
                    (format!("the {ground}"), format!("{ground} on {sq}"), zones)
                };
                Selection {
                    click: click((s, fighter)),
                    name,
                    text: format!("{what}: {}.", parts.join(", or ")),
                    zones,
                }
            })
            .collect();

        // A click on a square holding a piece of the side to move that starts no move.
        let mut refusals = Vec::new();
        let own: Vec<Text> = Bits(b.colour[me.index()] | b.f1[me.index()])
            .map(name)
            .collect();
        if !own.is_empty() {
            refusals.push(Refusal {
                cells: own,
                text: "No legal move for the pieces on {cell} (a move may not leave your \
                       Commander in siege)."
                    .to_string(),
            });
        }
        refusals.push(Refusal {
            cells: Vec::new(),
            text: "No legal move starts at {cell}.".to_string(),
        });

        Interaction {
            prompt: "Choose a piece or a Fighter, then where it goes; choose it again to spin or \
                     strike in place."
                .to_string(),
            moves: entries.into_iter().map(|e| e.input).collect(),
            selections,
            refusals,
            set_words: None,
        }
    }

    fn tutorial() -> &'static [boardlab_core::tutorial::Step<Self>] {
        crate::tutorial::TUTORIAL
    }

    fn touched(&self, mv: Move) -> Vec<Text> {
        cells_of(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::prelude::*;
    use boardlab_core::Colour;

    fn game(text: &str) -> Assideum {
        let options = Assideum::info().default_options();
        Assideum::from_position(&options, text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn marks(b: &Drawn, cell: &str) -> Vec<Mark> {
        b.cell(cell).unwrap().marks.clone()
    }

    fn zone_of(cell: &'static str) -> Mark {
        Mark::ZoneOf(Cow::Borrowed(cell))
    }

    fn input<'a>(i: &'a Interaction, notation: &str) -> &'a MoveInput {
        i.moves
            .iter()
            .find(|m| m.notation == notation)
            .unwrap_or_else(|| panic!("no move {notation}"))
    }

    #[test]
    fn board_shows_groups_facings_and_zones() {
        let b = Present::board(&game(crate::START_POSITION));
        let b1 = b.cell("b1").unwrap();
        assert_eq!(b1.pieces[0].kind, PieceKind::Portal);
        assert_eq!(b1.pieces[0].facing, Some(present::Facing::N));
        assert_eq!(b1.pieces[1].kind, PieceKind::Fighter);
        assert_eq!(b1.pieces[1].flying, Some(false));
        assert!(marks(&b, "c4").contains(&Mark::ZoneWhite));
        assert!(!marks(&b, "c5").contains(&Mark::ZoneWhite));
        assert!(marks(&b, "a5").contains(&Mark::ZoneBlack));
        assert_eq!(marks(&b, "c4"), [Mark::ZoneWhite, zone_of("b1")]);
        assert_eq!(marks(&b, "f2"), [Mark::ZoneWhite, zone_of("g1")]);
        assert_eq!(b.cell("e8").unwrap().pieces[0].kind, PieceKind::Commander);
        assert_eq!(
            b.cell("d1").unwrap().pieces[0].facing,
            Some(present::Facing::N)
        );
        assert_eq!(b.facts[&Fact::QuietPlies], "0 of 100");
    }

    #[test]
    fn zones_of_several_portals_list_rank_8_first() {
        // Zones of c3 (facing north) and e3 (facing west) overlap on d2…d4; the Portal nearer
        // rank 8 comes first, then the files from a.
        let b = Present::board(&game("4k3/8/4[pw]3/8/8/2[Pn]1[Pw]3/8/4K3 w 7"));
        assert_eq!(
            marks(&b, "d4"),
            [Mark::ZoneWhite, zone_of("c3"), zone_of("e3")]
        );
        assert_eq!(
            marks(&b, "d5"),
            [
                Mark::ZoneBlack,
                zone_of("e6"),
                Mark::ZoneWhite,
                zone_of("c3")
            ]
        );
        assert_eq!(b.facts[&Fact::QuietPlies], "7 of 100");
    }

    #[test]
    fn pieces_show_promotion_and_flying_fighters() {
        let b = Present::board(&game("4k3/8/8/3[FF]4/8/2[Pn]1[Pn]3/1[V+]6/[Kf]7 w 0"));
        let d5 = &b.cell("d5").unwrap().pieces;
        assert_eq!(d5.len(), 2);
        assert!(d5
            .iter()
            .all(|p| p.kind == PieceKind::Fighter && p.flying == Some(true)));
        assert_eq!(b.cell("b2").unwrap().pieces[0].promoted, Some(true));
        let a1 = &b.cell("a1").unwrap().pieces;
        assert_eq!(
            (a1[0].kind, a1[1].colour, a1[1].flying),
            (PieceKind::Commander, Colour::Black, Some(true))
        );
    }

    #[test]
    fn commander_in_siege_is_marked() {
        let sieged = |text: &str| {
            Present::board(&game(text))
                .cells
                .iter()
                .filter(|c| c.marks.contains(&Mark::Siege))
                .map(|c| c.name.to_string())
                .collect::<Vec<_>>()
        };
        // A black Striker on e5 can attack the white Commander on e1 next turn.
        assert_eq!(sieged("4k3/8/8/4s3/8/8/8/4K3 w 0"), ["e1"]);
        // On d5 it cannot.
        assert!(sieged("4k3/8/8/3s4/8/8/8/4K3 w 0").is_empty());
    }

    #[test]
    fn moves_of_the_opening() {
        let g = game(crate::START_POSITION);
        let i = g.interaction();
        assert_eq!(
            i.prompt,
            "Choose a piece or a Fighter, then where it goes; choose it again to spin or strike in place."
        );
        let spin = input(&i, "d1>e");
        assert_eq!(spin.paths, [vec![Click::on("d1"), Click::on("d1")]]);
        assert_eq!(
            (
                spin.label.as_str(),
                spin.group.as_deref(),
                spin.kind,
                spin.facing
            ),
            (
                "face east",
                Some("Spin in place"),
                MoveKind::Special,
                Some(present::Facing::E)
            )
        );
        assert_eq!(spin.cells, ["d1"]);
        let step = input(&i, "a2-a3");
        assert_eq!(
            (
                step.label.as_str(),
                step.group.as_deref(),
                step.kind,
                step.facing
            ),
            ("keep facing", Some("Move to a3"), MoveKind::Move, None)
        );
        assert_eq!(step.cells, ["a2", "a3"]);
        let fly = input(&i, "fb1-b4");
        assert_eq!(
            fly.paths,
            [vec![Click::layer("b1", Layer::Fighter), Click::on("b4")]]
        );
        assert_eq!(
            (fly.label.as_str(), fly.group.as_deref()),
            ("Fly to b4", None)
        );
        assert_eq!(fly.cells, ["b1", "b4"]);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        for (mv, m) in moves.iter().zip(&i.moves) {
            assert_eq!(g.touched(*mv), m.cells);
        }
    }

    #[test]
    fn the_ground_piece_and_the_fighter_of_a_square_are_separate_selections() {
        let i = game(crate::START_POSITION).interaction();
        let find = |c: &Click| i.selections.iter().find(|s| &s.click == c).unwrap();
        let portal = find(&Click::on("b1"));
        assert_eq!(portal.name, "the Portal");
        assert_eq!(portal.text, "Portal on b1: choose b1 again to spin.");
        assert_eq!(
            portal.zones,
            Some(Zones {
                colour: Colour::White,
                portal: Some("b1".into())
            })
        );
        let fighter = find(&Click::layer("b1", Layer::Fighter));
        assert_eq!(fighter.name, "the Fighter");
        assert_eq!(fighter.text, "Fighter on b1: choose a highlighted square.");
        assert_eq!(
            fighter.zones,
            Some(Zones {
                colour: Colour::White,
                portal: None
            })
        );
        let vedrin = find(&Click::on("a2"));
        assert_eq!(vedrin.name, "the Ved'rin");
        assert_eq!(vedrin.zones, None);
        // Ground pieces first, in square order, then the Fighters.
        assert_eq!(i.selections[0].click, Click::on("b1"));
        assert_eq!(
            i.selections.last().unwrap().click,
            Click::layer("g1", Layer::Fighter)
        );
    }

    #[test]
    fn refusals_name_the_squares_of_the_side_to_move() {
        let i = game("4k3/8/8/3[FF]4/8/2[Pn]1[Pn]3/8/4K3 w 0").interaction();
        assert_eq!(i.refusals.len(), 2);
        assert_eq!(i.refusals[0].cells, ["e1", "c3", "e3", "d5"]);
        assert_eq!(
            i.refusals[0].text,
            "No legal move for the pieces on {cell} (a move may not leave your Commander in siege)."
        );
        assert!(i.refusals[1].cells.is_empty());
        assert_eq!(i.refusals[1].text, "No legal move starts at {cell}.");
    }

    #[test]
    fn chooser_rows_say_how_many_of_a_squares_fighters_go() {
        let i = game("4k3/8/8/3[FF]4/8/2[Pn]1[Pn]3/8/4K3 w 0").interaction();
        let group = |n: &str| input(&i, n).group.clone().unwrap();
        assert_eq!(group("c3-c4"), "Move to c4: leave both Fighters on d5");
        assert_eq!(
            group("c3-c4{d5:1}"),
            "Move to c4: carry one of the two Fighters on d5"
        );
        assert_eq!(group("c3-c4{d5}"), "Move to c4: carry both Fighters on d5");
        assert_eq!(
            group("c3>e{d5:1}"),
            "Spin: carry one of the two Fighters on d5"
        );
        let m = input(&i, "c3-c4>w{d5}");
        assert_eq!(
            (m.label.as_str(), m.facing),
            ("face west", Some(present::Facing::W))
        );
        assert_eq!(m.paths, [vec![Click::on("c3"), Click::on("c4")]]);
        assert_eq!(m.cells, ["c3", "c4"]);
        // Moves of other click paths keep their plain rows.
        assert_eq!(group("e1-d1"), "Move to d1");
    }

    #[test]
    fn chooser_rows_name_optional_squares_in_square_order() {
        let i = game("4k3/8/8/3F4/3F4/2[Pn]1[Pn]3/8/4K3 w 0").interaction();
        let group = |n: &str| input(&i, n).group.clone().unwrap();
        assert_eq!(
            group("c3-c4"),
            "Move to c4: leave the Fighters on d4 and d5"
        );
        assert_eq!(
            group("c3-c4{d5}"),
            "Move to c4: carry the Fighter on d5, leave the Fighter on d4"
        );
        assert_eq!(
            group("c3-c4{d4,d5}"),
            "Move to c4: carry the Fighters on d4 and d5"
        );
    }

    #[test]
    fn ranger_fire_and_steps_share_a_chooser() {
        let i = game("4k3/8/8/8/8/3s4/3f4/3[Rn]K3 w 0").interaction();
        let at_fighters = input(&i, "rd1*d2f");
        assert_eq!(
            (
                at_fighters.label.as_str(),
                at_fighters.group.as_deref(),
                at_fighters.kind
            ),
            ("at the Fighters on d2", Some("Fire"), MoveKind::Special)
        );
        assert_eq!(at_fighters.paths, [vec![Click::on("d1"), Click::on("d2")]]);
        let at_striker = input(&i, "rd1*d3g");
        assert_eq!(at_striker.label, "at the Striker on d3");
        assert_eq!(at_striker.cells, ["d1", "d3"]);
        let step = input(&i, "d1-d2>e");
        assert_eq!(step.paths, at_fighters.paths);
        assert_eq!(step.group.as_deref(), Some("Move to d2"));
    }

    #[test]
    fn fighters_strike_in_place_and_attack() {
        // White's Fighter on d4 (in the zone of the Portal on d3) over a black Striker.
        let i = game("4k3/8/8/8/3[sF]4/3[Pn]4/8/4K3 w 0").interaction();
        let strike = input(&i, "fd4x");
        assert_eq!(
            strike.paths,
            [vec![
                Click::layer("d4", Layer::Fighter),
                Click::layer("d4", Layer::Fighter)
            ]]
        );
        assert_eq!(
            (strike.label.as_str(), strike.kind),
            ("Strike in place", MoveKind::Capture)
        );
        assert_eq!(strike.cells, ["d4"]);
        let s = i
            .selections
            .iter()
            .find(|s| s.click == Click::layer("d4", Layer::Fighter))
            .unwrap();
        assert_eq!(
            s.text,
            "Fighter on d4: choose d4 again to strike in place, or choose a highlighted square."
        );
    }

    #[test]
    fn a_finished_game_offers_nothing() {
        // quiet-plies reached: drawn.
        let options = Assideum::info()
            .options_from_pairs([("quiet-plies", "5")])
            .unwrap();
        let g = Assideum::from_position(&options, "4k3/8/8/8/8/8/8/4K3 w 5").unwrap();
        assert!(g.outcome().is_some());
        assert_eq!(g.interaction(), Interaction::default());
    }
}

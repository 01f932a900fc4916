//! The closed vocabularies of a drawn board and of its move input: each word an interface reads
//! to choose how to draw a cell, a piece or a target is a variant here, written in JSON as the
//! word itself (`"grid"`, `"dark"`, `"zone-of-b1"`). Piece colours are [`Colour`](crate::Colour)s.
//!
//! Piece kinds, marks and facts belong to particular games; each enum lists those of every
//! boardlab game (and of the toy game of the conformance kit): the shared vocabulary the web
//! app draws. A game that needs a new word adds it here and teaches the web app to draw it.

use super::Text;
use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;

/// How a board's cells are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// Square cells in files and ranks.
    Grid,
    /// Points joined by lines, with triangles between them.
    Points,
}

/// The shape of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// A 1 × 1 square around the cell's centre.
    Square,
    /// A point where lines meet.
    Point,
    /// A triangle with the corners of the cell's polygon.
    Triangle,
}

/// The background of a square cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shade {
    /// A dark square.
    Dark,
    /// A light square.
    Light,
    /// An Obsidio target.
    Target,
}

/// What a piece, token or marker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceKind {
    /// A plain piece or stone (Sight Reduction, the toy game).
    Piece,
    /// An Obsidio influence token.
    Token,
    /// An Obsidio control token, on a claimed target.
    Control,
    /// An Opprimo soldier.
    Soldier,
    /// An Opprimo Officer.
    Officer,
    /// An Opprimo King, on a triangle.
    King,
    /// An assideum Commander.
    Commander,
    /// An assideum Ved'rin.
    Vedrin,
    /// An assideum Striker.
    Striker,
    /// An assideum Cruiser.
    Cruiser,
    /// An assideum Portal.
    Portal,
    /// An assideum Ranger.
    Ranger,
    /// An assideum Fighter, landed or flying.
    Fighter,
}

/// Where a piece faces, or the facing a move leaves it with, as the first seat sees the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Facing {
    /// Towards the last rank.
    N,
    /// Towards the last file.
    E,
    /// Towards the first rank.
    S,
    /// Towards the first file.
    W,
}

/// Which pieces of a cell that holds two layers a click is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    /// The cell's Fighters rather than the piece beneath.
    Fighter,
}

/// How a move's last cell is marked as a target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveKind {
    /// An ordinary move.
    #[default]
    Move,
    /// A move that takes, converts or attacks.
    Capture,
    /// Something else: a spin in place, a Ranger's fire.
    Special,
}

/// A display mark on a cell, written in JSON as its word ([`Mark::word`], or `zone-of-CELL`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `anchor`: Obsidio's anchor, the last token placed.
    Anchor,
    /// `last-black`: part of Black's last move (Obsidio).
    LastBlack,
    /// `last-white`: part of White's last move (Obsidio).
    LastWhite,
    /// `castle-yellow`: a triangle of Yellow's castle (Opprimo).
    CastleYellow,
    /// `castle-red`: a triangle of Red's castle (Opprimo).
    CastleRed,
    /// `star-yellow`: a point where Yellow's soldiers become Officers (Opprimo).
    StarYellow,
    /// `star-red`: a point where Red's soldiers become Officers (Opprimo).
    StarRed,
    /// `zone-white`: in a flight zone of White's (assideum).
    ZoneWhite,
    /// `zone-black`: in a flight zone of Black's (assideum).
    ZoneBlack,
    /// `zone-of-CELL`: in the flight zone of the Portal on the cell named (assideum).
    ZoneOf(Text),
    /// `siege`: the Commander of the side to move, under attack (assideum).
    Siege,
    /// `goal-white`: where a solitaire game must leave its last White piece (Sight Reduction).
    GoalWhite,
    /// `goal-black`: where a solitaire game must leave its last Black piece (Sight Reduction).
    GoalBlack,
}

impl Mark {
    /// The word of a mark that names no cell; `None` for [`Mark::ZoneOf`].
    #[must_use]
    pub fn word(&self) -> Option<&'static str> {
        Some(match self {
            Mark::Anchor => "anchor",
            Mark::LastBlack => "last-black",
            Mark::LastWhite => "last-white",
            Mark::CastleYellow => "castle-yellow",
            Mark::CastleRed => "castle-red",
            Mark::StarYellow => "star-yellow",
            Mark::StarRed => "star-red",
            Mark::ZoneWhite => "zone-white",
            Mark::ZoneBlack => "zone-black",
            Mark::Siege => "siege",
            Mark::GoalWhite => "goal-white",
            Mark::GoalBlack => "goal-black",
            Mark::ZoneOf(_) => return None,
        })
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mark::ZoneOf(cell) => write!(f, "zone-of-{cell}"),
            other => f.write_str(other.word().unwrap_or_default()),
        }
    }
}

impl Serialize for Mark {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.word() {
            Some(word) => serializer.serialize_str(word),
            None => serializer.collect_str(self),
        }
    }
}

/// The name of a fact shown beside the board. A fact of one colour ends in `-COLOUR`, which
/// puts it beside that colour's player. Facts order by name, the order JSON lists them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// `goal`: what a solitaire game must end with, in words (Sight Reduction).
    Goal,
    /// `moves`: moves played (the toy game).
    Moves,
    /// `passes`: passes in a row (Obsidio).
    Passes,
    /// `phase`: the phase of the game, in words (Sight Reduction).
    Phase,
    /// `pieces-black`: Black's pieces on the board (Sight Reduction).
    PiecesBlack,
    /// `pieces-white`: White's pieces on the board (Sight Reduction).
    PiecesWhite,
    /// `plies`: plies played (Opprimo), with the limit when there is one (`12 of 200`).
    Plies,
    /// `quiet-plies`: plies without a removal (assideum), with the limit when there is one
    /// (`7 of 50`).
    QuietPlies,
    /// `supply-black`: Black's tokens left, or `unlimited` (Obsidio).
    SupplyBlack,
    /// `supply-white`: White's tokens left, or `unlimited` (Obsidio).
    SupplyWhite,
    /// `targets-black`: targets Black has claimed (Obsidio).
    TargetsBlack,
    /// `targets-white`: targets White has claimed (Obsidio).
    TargetsWhite,
}

impl Fact {
    /// Every fact.
    pub const ALL: [Fact; 12] = [
        Fact::Goal,
        Fact::Moves,
        Fact::Passes,
        Fact::Phase,
        Fact::PiecesBlack,
        Fact::PiecesWhite,
        Fact::Plies,
        Fact::QuietPlies,
        Fact::SupplyBlack,
        Fact::SupplyWhite,
        Fact::TargetsBlack,
        Fact::TargetsWhite,
    ];

    /// The fact's name, as written in JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Fact::Goal => "goal",
            Fact::Moves => "moves",
            Fact::Passes => "passes",
            Fact::Phase => "phase",
            Fact::PiecesBlack => "pieces-black",
            Fact::PiecesWhite => "pieces-white",
            Fact::Plies => "plies",
            Fact::QuietPlies => "quiet-plies",
            Fact::SupplyBlack => "supply-black",
            Fact::SupplyWhite => "supply-white",
            Fact::TargetsBlack => "targets-black",
            Fact::TargetsWhite => "targets-white",
        }
    }

    /// The colour a fact of one colour is of (it is shown beside that colour's player), and
    /// what it counts, as a fact's name without the colour (`supply` for `supply-white`).
    #[must_use]
    pub fn of_colour(self) -> Option<(crate::Colour, &'static str)> {
        use crate::Colour::{Black, White};
        match self {
            Fact::Goal
            | Fact::Moves
            | Fact::Passes
            | Fact::Phase
            | Fact::Plies
            | Fact::QuietPlies => None,
            Fact::PiecesBlack => Some((Black, "pieces")),
            Fact::PiecesWhite => Some((White, "pieces")),
            Fact::SupplyBlack => Some((Black, "supply")),
            Fact::SupplyWhite => Some((White, "supply")),
            Fact::TargetsBlack => Some((Black, "targets")),
            Fact::TargetsWhite => Some((White, "targets")),
        }
    }
}

/// A fact as the catalog describes it: its name, for a fact of one colour the colour and what
/// it counts, and the words that name it beside its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FactInfo {
    pub name: &'static str,
    pub colour: Option<crate::Colour>,
    /// The name without the colour (`supply` for `supply-white`); the name itself otherwise.
    pub counts: &'static str,
    /// What people read before the value: `Passes in a row` (`Passes in a row: 1`), or for a
    /// fact of one colour, shown beside its player, `supply` (`supply 5`).
    pub label: &'static str,
}

impl Fact {
    /// The catalog's description of this fact.
    #[must_use]
    pub fn info(self) -> FactInfo {
        let (colour, counts) = match self.of_colour() {
            Some((c, counts)) => (Some(c), counts),
            None => (None, self.name()),
        };
        FactInfo {
            name: self.name(),
            colour,
            counts,
            label: self.label(),
        }
    }

    /// The words that name the fact beside its value ([`FactInfo::label`]).
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Fact::Goal => "Goal",
            Fact::Moves => "Moves played",
            Fact::Passes => "Passes in a row",
            Fact::Phase => "Phase",
            Fact::Plies => "Plies played",
            Fact::QuietPlies => "Plies without a removal",
            Fact::PiecesBlack | Fact::PiecesWhite => "pieces",
            Fact::SupplyBlack | Fact::SupplyWhite => "supply",
            Fact::TargetsBlack | Fact::TargetsWhite => "targets",
        }
    }
}

impl Ord for Fact {
    fn cmp(&self, other: &Self) -> Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for Fact {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Fact {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;
    use std::collections::BTreeMap;

    fn json<T: Serialize>(value: &T) -> String {
        serde_json::to_string(value).unwrap()
    }

    #[test]
    fn words_are_written_as_the_web_app_reads_them() {
        assert_eq!(json(&Layout::Points), "\"points\"");
        assert_eq!(json(&Shape::Triangle), "\"triangle\"");
        assert_eq!(json(&Shade::Target), "\"target\"");
        assert_eq!(json(&PieceKind::Vedrin), "\"vedrin\"");
        assert_eq!(json(&Facing::W), "\"w\"");
        assert_eq!(json(&Layer::Fighter), "\"fighter\"");
        assert_eq!(json(&MoveKind::Special), "\"special\"");
        assert_eq!(json(&Mark::CastleYellow), "\"castle-yellow\"");
        assert_eq!(json(&Mark::ZoneOf(Cow::Borrowed("b1"))), "\"zone-of-b1\"");
        assert_eq!(Mark::ZoneOf(Cow::Borrowed("b1")).to_string(), "zone-of-b1");
        assert_eq!(Mark::Siege.to_string(), "siege");
        assert_eq!(json(&Mark::GoalBlack), "\"goal-black\"");
    }

    #[test]
    fn a_fact_of_one_colour_says_its_colour_and_what_it_counts() {
        for f in Fact::ALL {
            let info = f.info();
            match info.colour {
                Some(c) => assert_eq!(info.name, format!("{}-{}", info.counts, c.name())),
                None => assert_eq!(info.counts, info.name),
            }
        }
        assert_eq!(
            json(&Fact::SupplyWhite.info()),
            r#"{"name":"supply-white","colour":"white","counts":"supply","label":"supply"}"#
        );
        assert_eq!(Fact::Phase.info().colour, None);
        assert_eq!(Fact::Passes.info().label, "Passes in a row");
    }

    #[test]
    fn facts_are_keys_in_name_order() {
        for f in Fact::ALL {
            assert_eq!(json(&f), format!("\"{}\"", f.name()));
        }
        let map: BTreeMap<Fact, u8> = Fact::ALL.iter().rev().map(|&f| (f, 0)).collect();
        let keys: Vec<&str> = map.keys().map(|f| f.name()).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(keys, sorted);
        let two = BTreeMap::from([(Fact::TargetsWhite, "1"), (Fact::Passes, "0")]);
        assert_eq!(json(&two), r#"{"passes":"0","targets-white":"1"}"#);
    }
}

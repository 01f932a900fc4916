//! The legend of assideum's boards: what its pieces and marks mean, each with a picture of one
//! square or two (a light square for White, a dark one for Black).

use boardlab_core::present::{Facing, LegendItem, Mark, Piece, PieceKind, Shade};
use boardlab_core::Colour;

const WHITE: Colour = Colour::White;
const BLACK: Colour = Colour::Black;
const LIGHT: Option<Shade> = Some(Shade::Light);
const DARK: Option<Shade> = Some(Shade::Dark);

/// The cells of a picture: each a shade, marks and pieces.
type Cells = Vec<(Option<Shade>, &'static [Mark], Vec<Piece>)>;

/// A ground piece of `colour` with its letter; Portals and Rangers face forward.
fn piece(colour: Colour, kind: PieceKind, label: &'static str) -> Piece {
    let mut p = Piece::new(colour, kind).label(label);
    if matches!(kind, PieceKind::Portal | PieceKind::Ranger) {
        p.facing = Some(if colour == WHITE {
            Facing::N
        } else {
            Facing::S
        });
    }
    p
}

/// A Fighter of `colour`, in the air or landed.
fn fighter(colour: Colour, flying: bool) -> Piece {
    let mut p = Piece::new(colour, PieceKind::Fighter).label("F");
    p.flying = Some(flying);
    p
}

/// A promoted Ved'rin of `colour`.
fn promoted(colour: Colour) -> Piece {
    let mut p = piece(colour, PieceKind::Vedrin, "V");
    p.promoted = Some(true);
    p
}

/// A white and a black piece of `kind`.
fn pair(kind: PieceKind, label: &'static str) -> Cells {
    vec![
        (LIGHT, &[], vec![piece(WHITE, kind, label)]),
        (DARK, &[], vec![piece(BLACK, kind, label)]),
    ]
}

/// Every entry: the ground pieces, then the Fighters and the marks.
pub(super) fn items() -> Vec<LegendItem> {
    let mut items = ground_pieces();
    items.extend(fighters_and_marks());
    items
}

fn ground_pieces() -> Vec<LegendItem> {
    vec![
        LegendItem::squares(
            "Commander",
            "Moves one square in any direction. A player whose Commander is under attack \
             (in siege) and cannot get out of it loses.",
            pair(PieceKind::Commander, "K"),
        ),
        LegendItem::squares(
            "Ved'rin (V)",
            "Steps one square forward, straight or diagonally, and attacks the same way.",
            pair(PieceKind::Vedrin, "V"),
        ),
        LegendItem::squares(
            "Promoted Ved'rin",
            "A Ved'rin that reached the far rank (the bar): it moves like the Commander.",
            vec![
                (LIGHT, &[], vec![promoted(WHITE)]),
                (DARK, &[], vec![promoted(BLACK)]),
            ],
        ),
        LegendItem::squares(
            "Striker (S)",
            "Moves any distance along a rank or file.",
            pair(PieceKind::Striker, "S"),
        ),
        LegendItem::squares(
            "Cruiser (C)",
            "Moves any distance along a rank, file or diagonal.",
            pair(PieceKind::Cruiser, "C"),
        ),
        LegendItem::squares(
            "Portal (P)",
            "Moves like the Commander and can turn. The arrow shows where it faces: its \
             flight zone reaches three squares that way, one square back and one to each \
             side.",
            pair(PieceKind::Portal, "P"),
        ),
        LegendItem::squares(
            "Ranger (R)",
            "Moves like the Commander and can turn. Instead of moving it may fire at the \
             squares ahead, the way its arrow points.",
            pair(PieceKind::Ranger, "R"),
        ),
    ]
}

fn fighters_and_marks() -> Vec<LegendItem> {
    let portal = |colour| piece(colour, PieceKind::Portal, "P");
    vec![
        LegendItem::squares(
            "Landed Fighter",
            "A Fighter resting on its own Portal (the badge): it goes where the Portal goes, \
             and an attack on the Portal removes it too.",
            vec![
                (LIGHT, &[], vec![portal(WHITE), fighter(WHITE, false)]),
                (DARK, &[], vec![portal(BLACK), fighter(BLACK, false)]),
            ],
        ),
        LegendItem::squares(
            "Flying Fighter",
            "A Fighter in the air (the ringed plane, pointing the way its side moves \
             forward). It flies in straight lines inside its side's flight zones, over \
             any ground piece.",
            vec![
                (LIGHT, &[], vec![fighter(WHITE, true)]),
                (DARK, &[], vec![fighter(BLACK, true)]),
            ],
        ),
        LegendItem::squares(
            "Fighter over a piece",
            "A flying Fighter sharing a square with a ground piece (top corner); a number \
             counts the Fighters on one square.",
            vec![
                (
                    LIGHT,
                    &[],
                    vec![piece(BLACK, PieceKind::Striker, "S"), fighter(WHITE, true)],
                ),
                (DARK, &[], vec![fighter(WHITE, true), fighter(WHITE, true)]),
            ],
        ),
        LegendItem::squares(
            "Flight zones",
            "The squares where White's (blue stripes) and Black's (grey stripes) Fighters \
             may fly, shown while a Portal or Fighter is selected or with \"Show flight \
             zones\".",
            vec![
                (LIGHT, &[Mark::ZoneWhite], vec![]),
                (DARK, &[Mark::ZoneBlack], vec![]),
            ],
        ),
        LegendItem::square(
            "Siege",
            "The Commander of the player to move is under attack: the move must end the \
             siege.",
            LIGHT,
            &[Mark::Siege],
            vec![piece(WHITE, PieceKind::Commander, "K")],
        ),
    ]
}

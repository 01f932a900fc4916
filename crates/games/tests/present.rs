//! Every game's presentation agrees with its engine: for every value of its choice options,
//! over random games, each cell of the board shows exactly what the engine's own state holds, and
//! the interaction offers every legal move, in order, by clicks on cells that exist.

use boardlab_core::present::{Board, Cell, Layer, Mark, PieceKind};
use boardlab_core::rand::{Rng, SeedableRng};
use boardlab_core::{Colour, OptionValues, Options};
use boardlab_games::{AnyGame, GameKind};
use std::collections::{BTreeMap, BTreeSet};

fn cell<'a>(b: &'a Board, name: &str) -> &'a Cell {
    b.cells
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

/// The word a value of the presentation's vocabulary is served as.
fn word<T: serde::Serialize>(value: T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(w)) => w,
        other => panic!("not a word: {other:?}"),
    }
}

fn has(b: &Board, name: &str, colour: Colour, kind: PieceKind) -> bool {
    cell(b, name)
        .pieces
        .iter()
        .any(|p| p.colour == colour && p.kind == kind)
}

fn count(b: &Board, colour: Colour, kind: PieceKind) -> u32 {
    b.cells
        .iter()
        .flat_map(|c| &c.pieces)
        .filter(|p| p.colour == colour && p.kind == kind)
        .count() as u32
}

/// Checks `b` against the engine state inside `game`.
fn check_against_engine(game: &AnyGame, b: &Board) {
    // The drawn board is compared with each engine's own state, so the test takes the typed
    // game out of the dynamic one.
    let any = game.as_any();
    {
        if let Some(g) = any.downcast_ref::<boardlab_sight_reduction::SightReduction>() {
            use boardlab_sight_reduction::{square_name, BLACK, WHITE};
            for sq in 0..32u8 {
                let name = square_name(sq);
                assert_eq!(
                    has(b, &name, Colour::White, PieceKind::Piece),
                    g.pieces(WHITE) >> sq & 1 == 1
                );
                assert_eq!(
                    has(b, &name, Colour::Black, PieceKind::Piece),
                    g.pieces(BLACK) >> sq & 1 == 1
                );
            }
        } else if let Some(g) = any.downcast_ref::<boardlab_obsidio::Obsidio>() {
            use boardlab_obsidio::{BLACK, WHITE};
            let geo = g.geometry();
            let n = u32::from(geo.n);
            for sq in 0..(n * n) as u8 {
                let name = geo.name(sq);
                for side in [BLACK, WHITE] {
                    assert_eq!(
                        has(b, &name, side.colour(), PieceKind::Token),
                        g.tokens(side) >> sq & 1 == 1,
                        "{name}"
                    );
                }
            }
            let control =
                |side: boardlab_obsidio::Side| count(b, side.colour(), PieceKind::Control);
            assert_eq!(control(BLACK), g.claimed(BLACK).count_ones());
            assert_eq!(control(WHITE), g.claimed(WHITE).count_ones());
            let anchors: Vec<&str> = b
                .cells
                .iter()
                .filter(|c| c.marks.contains(&Mark::Anchor))
                .map(|c| c.name.as_ref())
                .collect();
            assert_eq!(anchors, g.anchor().map(|a| geo.name(a)).as_slice());
        } else if let Some(g) = any.downcast_ref::<boardlab_opprimo::Opprimo>() {
            use boardlab_opprimo::board::{point_name, triangle_name, RED, YELLOW};
            for p in 0..45u8 {
                let name = point_name(p);
                for side in [YELLOW, RED] {
                    let (colour, mine) = (side.colour(), g.soldiers(side) >> p & 1 == 1);
                    let officer = g.officers() >> p & 1 == 1;
                    let soldier = has(b, &name, colour, PieceKind::Soldier);
                    assert_eq!(soldier, mine && !officer, "{name}");
                    let officer_shown = has(b, &name, colour, PieceKind::Officer);
                    assert_eq!(officer_shown, mine && officer, "{name}");
                }
            }
            for side in [YELLOW, RED] {
                let colour = side.colour();
                let kings: Vec<&str> = b
                    .cells
                    .iter()
                    .filter(|c| {
                        c.pieces
                            .iter()
                            .any(|p| p.kind == PieceKind::King && p.colour == colour)
                    })
                    .map(|c| c.name.as_ref())
                    .collect();
                assert_eq!(kings, g.king(side).map(triangle_name).as_slice());
            }
        } else if let Some(g) = any.downcast_ref::<boardlab_assideum::Assideum>() {
            use boardlab_assideum::notation::square_name;
            use boardlab_assideum::{BLACK, WHITE};
            let bd = g.board();
            for s in 0..64u8 {
                let name = square_name(s);
                let c = cell(b, &name);
                let ground = c.pieces.iter().find(|p| p.kind != PieceKind::Fighter);
                match (bd.kind_at(s), bd.colour_at(s)) {
                    (Some(k), Some(col)) => {
                        let p = ground.unwrap_or_else(|| panic!("{name}: no piece"));
                        let kind = k.name().to_ascii_lowercase().replace('\'', "");
                        assert_eq!(word(p.kind), kind);
                        assert_eq!(p.colour, col.colour());
                        if k.directional() {
                            let f = bd.facing(s).letter().to_ascii_lowercase().to_string();
                            assert_eq!(p.facing.map(word), Some(f));
                        }
                    }
                    _ => assert!(ground.is_none(), "{name}"),
                }
                for side in [WHITE, BLACK] {
                    let colour = side.colour();
                    let fighters = c
                        .pieces
                        .iter()
                        .filter(|p| p.kind == PieceKind::Fighter && p.colour == colour)
                        .count();
                    assert_eq!(fighters, usize::from(bd.fighters(side, s)), "{name}");
                    let zone = format!("zone-{colour}");
                    assert_eq!(
                        c.marks.iter().any(|m| word(m) == zone),
                        bd.zones(side) >> s & 1 == 1,
                        "{name} {zone}"
                    );
                }
            }
        } else {
            panic!("no engine check for {}", game.kind());
        }
    }
}

/// Generic properties: unique cell names inside the extent; one input per legal move, in order,
/// whose clicks, set cells and touched cells are all cells of the board, the last those that
/// mark it suggested; moves that share a click path are told apart by their words; every first
/// click has its words.
fn check_shape(game: &AnyGame, b: &Board) {
    let names: BTreeSet<&str> = b.cells.iter().map(|c| c.name.as_ref()).collect();
    assert_eq!(names.len(), b.cells.len(), "duplicate cell names");
    for c in &b.cells {
        assert!(
            (0.0..=b.width).contains(&c.x) && (0.0..=b.height).contains(&c.y),
            "{}",
            c.name
        );
    }
    let ui = game.interaction();
    let legal = game.legal_moves();
    let notations: Vec<&str> = ui.moves.iter().map(|m| m.notation.as_str()).collect();
    assert_eq!(notations, legal, "{}", game.position_text());
    type Path = Vec<(String, Option<Layer>)>;
    let mut by_path: BTreeMap<Path, BTreeSet<(String, Option<String>)>> = BTreeMap::new();
    let mut firsts = BTreeSet::new();
    for m in &ui.moves {
        let cells = m.paths.iter().flatten().map(|c| &c.cell);
        for cell in cells.chain(m.set.iter().flatten()).chain(&m.cells) {
            assert!(
                names.contains(cell.as_ref()),
                "move {}: {cell} is not a cell",
                m.notation
            );
        }
        assert!(!m.label.is_empty(), "move {} has no label", m.notation);
        // A move entered by clicks or as a set names the cells that mark it where it is
        // suggested (a hint), the same the server marks a review's or an analysis's best move on.
        if !m.paths.is_empty() || m.set.is_some() {
            assert!(!m.cells.is_empty(), "move {} names no cells", m.notation);
        }
        assert_eq!(m.cells, game.suggested(&m.notation), "move {}", m.notation);
        for path in &m.paths {
            assert!(!path.is_empty(), "move {}: an empty path", m.notation);
            firsts.insert((path[0].cell.to_string(), path[0].layer));
            let key = path.iter().map(|c| (c.cell.to_string(), c.layer)).collect();
            let told = (m.label.clone(), m.group.clone());
            assert!(
                by_path.entry(key).or_default().insert(told),
                "move {}: another move with the same clicks has the same words",
                m.notation
            );
        }
    }
    for (cell, layer) in firsts {
        assert!(
            ui.selections
                .iter()
                .any(|s| s.click.cell == cell.as_str() && s.click.layer == layer),
            "no words for a first click on {cell} {layer:?}"
        );
    }
    if ui.moves.iter().any(|m| !m.paths.is_empty()) {
        assert!(!ui.prompt.is_empty(), "no prompt: {}", game.position_text());
    }
}

/// The default options, and each value of each choice or yes/no option alone.
fn option_sets(kind: GameKind) -> Vec<Options> {
    let info = kind.info();
    let mut sets = vec![info.default_options()];
    for spec in info.options {
        let values: Vec<&str> = match spec.values {
            OptionValues::Choice { choices } => choices.to_vec(),
            OptionValues::Bool => vec!["true", "false"],
            _ => continue,
        };
        for v in values {
            if v != spec.default {
                if let Ok(o) = info.options_from_pairs([(spec.name, v)]) {
                    sets.push(o);
                }
            }
        }
    }
    sets
}

#[test]
fn boards_show_exactly_what_the_engines_hold() {
    let mut rng = boardlab_core::Rng::seed_from_u64(1);
    for &kind in GameKind::all() {
        let mut positions = 0;
        for options in option_sets(kind) {
            for seed in 0..3u64 {
                let Ok(mut game) = AnyGame::new(kind, &options, seed) else {
                    continue;
                };
                for _ply in 0..400 {
                    let b = game.board();
                    check_shape(&game, &b);
                    check_against_engine(&game, &b);
                    positions += 1;
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = &moves[rng.random_range(0..moves.len())];
                    game.play_text(mv).unwrap();
                }
            }
        }
        eprintln!("{kind}: {positions} positions checked");
        assert!(positions > 50, "{kind}: only {positions} positions checked");
    }
}

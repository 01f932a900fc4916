//! The JSON shapes of the API (documented in `docs/api.md`).

use crate::services::reviews::ReviewStatus;
use crate::state::{Live, Meta};
use crate::store::Listed;
use boardlab_core::present::{Board, Interaction, Text};
use boardlab_core::{Colour, Outcome, Seat};
pub use boardlab_games::view::{position, PositionTurn, PositionView, ResultView};
use serde::Serialize;
use std::collections::BTreeMap;

/// A game's full state, as `GET /api/games/{id}` returns it and live updates carry it.
#[derive(Debug, Serialize)]
pub struct State<'a> {
    pub id: &'a str,
    pub game: &'static str,
    pub title: &'static str,
    /// Every option with its value.
    pub options: BTreeMap<&'static str, &'a str>,
    pub seed: u64,
    /// The starting position text, when the game did not start from the normal set-up.
    pub start_position: Option<&'a str>,
    pub seats: Seats,
    pub same_screen: bool,
    pub solitaire: bool,
    /// Whether the result counts for the players' ratings.
    pub rated: bool,
    /// The clocks, if the game has a time control.
    pub clock: Option<ClockView>,
    pub version: i64,
    /// `ongoing` or `finished`.
    pub status: &'static str,
    pub to_move: Option<Turn>,
    pub legal_moves: Vec<String>,
    pub moves: Vec<MoveView<'a>>,
    pub result: Option<ResultView>,
    pub draw_offer: Option<Seat>,
    pub undo_request: Option<Seat>,
    /// The offer just declined, until the next action.
    pub declined: Option<Declined>,
    /// The seat whose rematch offer is pending.
    pub rematch_offer: Option<Seat>,
    /// Whether the pending rematch offer is for a rated game.
    pub rematch_rated: bool,
    /// The rematch's game id, once agreed.
    pub rematch: Option<&'a str>,
    pub position: String,
    pub diagram: String,
    /// The position drawn by the game itself.
    pub board: Board,
    /// How each legal move is entered by clicks, and what to tell the player (empty when the
    /// game is over).
    pub interaction: Interaction,
    /// The cells the last move touched.
    pub last_cells: &'a [Text],
    pub created: String,
    pub updated: String,
}

/// A game's clocks when the state was made.
#[derive(Debug, Serialize)]
pub struct ClockView {
    /// The time control: `5+3` (minutes, seconds added per move) or `3d` (days per move).
    pub control: String,
    /// `realtime` or `correspondence`.
    pub kind: &'static str,
    /// The control in numbers.
    pub time_control: crate::clock::TimeControlView,
    /// Each seat's time left, in milliseconds, when this state was made.
    pub first_ms: i64,
    pub second_ms: i64,
    /// The seat whose clock runs (`null` once the game is over).
    pub running: Option<Seat>,
    /// When the running clock reaches zero.
    pub deadline: Option<String>,
}

/// An offer the other seat declined.
#[derive(Debug, Serialize)]
pub struct Declined {
    /// `draw`, `undo` or `rematch`.
    pub offer: &'static str,
    /// The seat that declined it, and its colour.
    pub seat: Seat,
    pub colour: Option<Colour>,
}

#[derive(Debug, Serialize)]
pub struct Seats {
    pub first: SeatView,
    pub second: SeatView,
}

#[derive(Debug, Serialize)]
pub struct SeatView {
    /// `human` or `computer:SPEC`.
    pub player: String,
    /// `human` or `computer`.
    pub kind: &'static str,
    /// The computer playing the seat (`null` for a person).
    pub computer: Option<crate::player::ComputerView>,
    /// The colour the seat plays now (`null` while colours are not yet chosen).
    pub colour: Option<Colour>,
    /// Whether the seat's invite link has been used (`POST /api/games/{id}/join`).
    pub joined: bool,
    /// The name of the account holding the seat, if any.
    pub account: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Turn {
    pub seat: Seat,
    pub colour: Option<Colour>,
    /// Whether the computer plays this seat (it moves on its own).
    pub computer: bool,
}

#[derive(Debug, Serialize)]
pub struct MoveView<'a> {
    pub ply: usize,
    pub seat: Seat,
    #[serde(rename = "move")]
    pub text: &'a str,
}

/// Builds the state of a game.
#[must_use]
pub fn state<'a>(meta: &'a Meta, live: &'a Live) -> State<'a> {
    let info = meta.kind.info();
    let game = &live.game;
    let seat_view = |seat: Seat| {
        let p = meta.player(seat);
        SeatView {
            player: p.to_string(),
            kind: if p.is_computer() { "computer" } else { "human" },
            computer: p.computer_view(),
            colour: game.colour_of(seat),
            joined: live.joined[seat.index()].is_some(),
            account: live.accounts[seat.index()].as_ref().map(|a| a.name.clone()),
        }
    };
    let to_move = live.to_move().map(|seat| Turn {
        seat,
        colour: game.colour_to_move(),
        computer: meta.player(seat).is_computer(),
    });
    let result = live.result().map(ResultView::from);
    State {
        id: &meta.id,
        game: info.name,
        title: info.title,
        options: meta.options.iter().collect(),
        seed: meta.seed,
        start_position: meta.position.as_deref(),
        seats: Seats {
            first: seat_view(Seat::First),
            second: seat_view(Seat::Second),
        },
        same_screen: meta.same_screen,
        solitaire: game.is_solitaire(),
        rated: meta.rated,
        clock: live.clocks.map(|c| {
            let running = live.to_move();
            let now = crate::now_ms();
            let left = |seat: Seat| c.left_at(seat.index(), running == Some(seat), now).max(0);
            ClockView {
                control: c.control.to_string(),
                kind: c.control.kind(),
                time_control: c.control.view(),
                first_ms: left(Seat::First),
                second_ms: left(Seat::Second),
                running,
                deadline: live.deadline().map(crate::rfc3339),
            }
        }),
        version: live.version,
        status: if live.finished() {
            "finished"
        } else {
            "ongoing"
        },
        legal_moves: if live.finished() {
            Vec::new()
        } else {
            game.legal_moves()
        },
        to_move,
        moves: live
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| MoveView {
                ply: i + 1,
                seat: m.seat,
                text: &m.text,
            })
            .collect(),
        result,
        draw_offer: live.draw_offer,
        undo_request: live.undo_request,
        rematch_offer: live.rematch_offer,
        rematch_rated: live.rematch_rated,
        rematch: live.rematch.as_deref(),
        declined: live.declined.map(|(offer, seat)| Declined {
            offer,
            seat,
            colour: game.colour_of(seat),
        }),
        position: game.position_text(),
        diagram: game.diagram(),
        board: game.board(),
        interaction: if live.finished() {
            Interaction::default()
        } else {
            game.interaction()
        },
        last_cells: live.moves.last().map_or(&[], |m| m.cells.as_slice()),
        created: crate::rfc3339(meta.created_ms),
        updated: crate::rfc3339(live.updated_ms),
    }
}

/// A game's state as JSON text.
#[must_use]
pub fn state_json(meta: &Meta, live: &Live) -> String {
    // Sized for most states at once, so the buffer does not grow step by step.
    let mut buf = Vec::with_capacity(16 * 1024);
    serde_json::to_writer(&mut buf, &state(meta, live)).expect("a state always serialises");
    String::from_utf8(buf).expect("JSON is UTF-8")
}

/// One line of `GET /api/games`.
#[derive(Debug, Serialize)]
pub struct ListedView {
    pub id: String,
    pub game: String,
    pub seats: ListedSeats,
    pub status: String,
    pub result: Option<String>,
    /// A puzzle not solved: the pieces left (the `N` of the result `score N`).
    pub score: Option<u32>,
    pub termination: Option<String>,
    pub moves: i64,
    pub to_move: Option<String>,
    /// The winning seat of a finished game (`null` for a draw).
    pub winner: Option<String>,
    pub version: i64,
    pub created: String,
    pub updated: String,
}

#[derive(Debug, Serialize)]
pub struct ListedSeats {
    pub first: String,
    pub second: String,
    /// The computers playing the seats (`null` for a person).
    pub first_computer: Option<crate::player::ComputerView>,
    pub second_computer: Option<crate::player::ComputerView>,
    /// The names of the accounts holding the seats (`null` for none).
    pub first_account: Option<String>,
    pub second_account: Option<String>,
}

impl From<Listed> for ListedView {
    fn from(l: Listed) -> Self {
        ListedView {
            id: l.id,
            game: l.game,
            seats: ListedSeats {
                first_computer: crate::player::Player::computer_view_of(&l.first_player),
                second_computer: crate::player::Player::computer_view_of(&l.second_player),
                first: l.first_player,
                second: l.second_player,
                first_account: l.accounts[0].clone(),
                second_account: l.accounts[1].clone(),
            },
            status: l.status,
            score: l.result.as_deref().and_then(Outcome::score_of_tag),
            result: l.result,
            termination: l.termination,
            moves: l.move_count,
            to_move: l.to_move,
            winner: l.winner,
            version: l.version,
            created: crate::rfc3339(l.created_ms),
            updated: crate::rfc3339(l.updated_ms),
        }
    }
}

/// The catalog: every game with colours, option schema, move examples and legend.
#[derive(Debug, Serialize)]
pub struct Catalog {
    pub games: Vec<CatalogGame>,
    /// The accepted seat players.
    pub players: &'static str,
    /// The computer levels (`computer:level:N`) and the level of a plain `computer`.
    pub levels: Levels,
    /// Every fact a board may show: its name, and for a fact of one colour, which.
    pub facts: Vec<boardlab_core::present::FactInfo>,
}

/// One game of the catalog: its static facts, and what the pieces and marks of its boards
/// mean.
#[derive(Debug, Serialize)]
pub struct CatalogGame {
    #[serde(flatten)]
    pub info: &'static boardlab_core::GameInfo,
    pub legend: Vec<boardlab_core::present::LegendItem>,
}

#[derive(Debug, Serialize)]
pub struct Levels {
    pub min: u8,
    pub max: u8,
    pub default: u8,
}

/// A game's position after some of its moves (`GET /api/games/{id}/at/{ply}`).
#[derive(Debug, Serialize)]
pub struct At {
    pub ply: usize,
    pub position: String,
    pub board: Board,
    pub diagram: String,
    /// `null` when the game is over at that ply.
    pub to_move: Option<Turn>,
    /// The move that led here (`null` at ply 0).
    pub last_move: Option<String>,
    /// The cells that move touched.
    pub last_cells: Vec<Text>,
    pub legal_moves: Vec<String>,
}

/// A game's tutorial (`GET /api/tutorials/{game}`).
#[derive(Debug, Serialize)]
pub struct Tutorial {
    pub game: &'static str,
    pub title: &'static str,
    pub steps: Vec<boardlab_core::tutorial::Lesson>,
}

/// One kind of puzzle (`GET /api/puzzles`).
#[derive(Debug, Serialize)]
pub struct PuzzleKindView {
    pub kind: boardlab_solve::collection::PuzzleKind,
    /// The word that starts its puzzles' names (`clear`, `win`).
    pub word: &'static str,
    pub title: &'static str,
    /// What the player does, in plain words.
    pub goal: &'static str,
}

/// The live-update message carrying a state.
#[must_use]
pub fn live_message(state_json: &str) -> String {
    format!("{{\"type\":\"state\",\"state\":{state_json}}}")
}

/// Where a game's review stands, as the API answers it.
#[must_use]
pub fn review_status_json(status: &ReviewStatus) -> String {
    match status {
        ReviewStatus::Running {
            reviewing,
            version,
            progress,
        } => serde_json::json!({
            "status": "running",
            "version": reviewing,
            "current": reviewing == version,
            "done": progress.done,
            "total": progress.total,
        })
        .to_string(),
        ReviewStatus::Done { row, version } => format!(
            "{{\"status\":\"done\",\"version\":{},\"current\":{},\"review\":{}}}",
            row.version,
            row.version == *version,
            row.review
        ),
    }
}

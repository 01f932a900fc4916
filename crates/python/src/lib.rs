//! The native part of the `boardlab` Python package (`boardlab._boardlab`): games by name with
//! options, position text, moves, outcomes, perft, random playouts, action ids and planes
//! (from each game crate's encoding, [`DynEncoding`]), bots and the Sight Reduction solver.
//!
//! This crate only converts types and errors: every rule, id and plane comes from the game
//! crates. Bad input raises a Python exception carrying the engine's message; nothing here
//! panics on input (ids, seats, options, positions and moves are all checked first).
//! `docs/python.md` is the reference.

use boardlab_ai::{AiError, BotSpec};
use boardlab_core::encoding::DynEncoding;
use boardlab_core::Game as _;
use boardlab_core::{split_moves, MoveError, NewGameError, Outcome, Proven, Seat, Wdl};
use boardlab_games::{AnyGame, GameKind};
use boardlab_solve::{solitaire, Budget, Position, RuleSet, SightReduction, Solver, SolverConfig};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyDict, PyList, PyString};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

mod vector;

create_exception!(
    boardlab,
    BoardlabError,
    PyValueError,
    "Base class of boardlab's errors; a ValueError."
);
create_exception!(
    boardlab,
    UnknownGameError,
    BoardlabError,
    "No game has that name."
);
create_exception!(
    boardlab,
    OptionError,
    BoardlabError,
    "An unknown option, a bad option value, or options the game cannot play."
);
create_exception!(
    boardlab,
    PositionError,
    BoardlabError,
    "A position text that does not describe a valid position."
);
create_exception!(
    boardlab,
    MalformedMoveError,
    BoardlabError,
    "Move text that is not a move of this game in any position."
);
create_exception!(
    boardlab,
    IllegalMoveError,
    BoardlabError,
    "A well-formed move, or an action id, that the position does not allow."
);
create_exception!(
    boardlab,
    GameOverError,
    BoardlabError,
    "The game is over: there is no move to choose."
);
create_exception!(
    boardlab,
    BotError,
    BoardlabError,
    "A bad bot spec, or a bot that cannot play this game."
);
create_exception!(
    boardlab,
    SolverError,
    BoardlabError,
    "The solver cannot answer for this game or position, or ran out of its budget."
);

/// The most action ids [`PyGame::action_mask`] writes out as an array (64 Mi).
const MAX_MASK: u32 = 1 << 26;

/// The positions a solitaire search visits when the caller sets no limit (as the command line).
const SOLITAIRE_NODES: u64 = 2_000_000_000;

fn kind_of(name: &str) -> PyResult<GameKind> {
    name.parse::<GameKind>()
        .map_err(|e| UnknownGameError::new_err(e.to_string()))
}

fn new_game_error(e: NewGameError) -> PyErr {
    match e {
        NewGameError::Position(p) => PositionError::new_err(p.to_string()),
        other => OptionError::new_err(other.to_string()),
    }
}

fn move_error(e: MoveError) -> PyErr {
    match e {
        MoveError::Parse(p) => MalformedMoveError::new_err(p.to_string()),
        MoveError::Illegal(i) => IllegalMoveError::new_err(i.to_string()),
    }
}

fn ai_error(e: AiError) -> PyErr {
    match e {
        AiError::GameOver(_) => GameOverError::new_err(e.to_string()),
        AiError::Replay(_) => IllegalMoveError::new_err(e.to_string()),
        other => BotError::new_err(other.to_string()),
    }
}

/// Options from `None`, a string `key=value,…` or a dict of strings, numbers and booleans.
fn options_of(
    kind: GameKind,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<boardlab_core::Options> {
    let info = kind.info();
    let Some(obj) = options else {
        return Ok(info.default_options());
    };
    if obj.is_none() {
        return Ok(info.default_options());
    }
    let result = if let Ok(text) = obj.cast::<PyString>() {
        info.parse_options(&text.extract::<String>()?)
    } else if let Ok(dict) = obj.cast::<PyDict>() {
        let mut pairs = Vec::new();
        for (k, v) in dict.iter() {
            let key: String = k
                .extract()
                .map_err(|_| OptionError::new_err("option names must be strings"))?;
            let value = if v.is_instance_of::<PyBool>() {
                if v.extract::<bool>()? {
                    "true"
                } else {
                    "false"
                }
                .to_string()
            } else if let Ok(n) = v.extract::<i64>() {
                n.to_string()
            } else if let Ok(s) = v.extract::<String>() {
                s
            } else {
                return Err(OptionError::new_err(format!(
                    "option '{key}': values must be strings, whole numbers or booleans"
                )));
            };
            pairs.push((key, value));
        }
        info.options_from_pairs(pairs)
    } else {
        return Err(OptionError::new_err(
            "options must be None, a dict, or a string such as 'size=7,pie=false'",
        ));
    };
    result.map_err(|e| OptionError::new_err(e.to_string()))
}

fn seat_of(seat: i64) -> PyResult<Seat> {
    match seat {
        0 => Ok(Seat::First),
        1 => Ok(Seat::Second),
        _ => Err(BoardlabError::new_err(format!(
            "seat {seat} does not exist: seats are 0 (first) and 1 (second)"
        ))),
    }
}

fn proven_dict<'py>(py: Python<'py>, p: Proven, seat: Seat) -> PyResult<Bound<'py, PyDict>> {
    let p = p.for_seat(seat);
    let d = PyDict::new(py);
    d.set_item("seat", p.seat.index())?;
    d.set_item(
        "result",
        match p.result {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        },
    )?;
    d.set_item("plies", p.plies)?;
    Ok(d)
}

fn outcome_dict<'py>(py: Python<'py>, o: &Outcome) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match *o {
        Outcome::Win {
            seat,
            colour,
            reason,
        } => {
            d.set_item("winner", seat.index())?;
            d.set_item("colour", colour.name())?;
            d.set_item("draw", false)?;
            d.set_item("reason", reason)?;
        }
        Outcome::Draw { reason } => {
            d.set_item("winner", py.None())?;
            d.set_item("colour", py.None())?;
            d.set_item("draw", true)?;
            d.set_item("reason", reason)?;
        }
        Outcome::Puzzle {
            score,
            solved,
            reason,
        } => {
            d.set_item("winner", py.None())?;
            d.set_item("colour", py.None())?;
            d.set_item("draw", false)?;
            d.set_item("reason", reason)?;
            d.set_item("score", score)?;
            d.set_item("solved", solved)?;
        }
    }
    d.set_item("text", o.to_string())?;
    Ok(d)
}

/// The game's action ids and planes, or the error a learning program gets for a game that
/// defines none.
fn encoding_of(game: &AnyGame) -> PyResult<&dyn DynEncoding> {
    game.encoding().ok_or_else(|| no_encoding(game))
}

fn encoding_of_mut(game: &mut AnyGame) -> PyResult<&mut dyn DynEncoding> {
    let kind = game.kind();
    game.encoding_mut()
        .ok_or_else(|| no_encoding_error(kind.name()))
}

fn no_encoding(game: &AnyGame) -> PyErr {
    no_encoding_error(game.kind().name())
}

fn no_encoding_error(name: &str) -> PyErr {
    BoardlabError::new_err(format!(
        "{name} defines no action ids or planes, which the learning environments need; \
         play it by move text instead"
    ))
}

/// One game of any kind: a position and everything the rules need to go on from it.
#[pyclass(module = "boardlab", name = "Game", skip_from_py_object)]
#[derive(Clone)]
struct PyGame {
    game: AnyGame,
    seed: u64,
}

impl PyGame {
    fn check_not_over(&self) -> PyResult<()> {
        match self.game.outcome() {
            Some(o) => Err(GameOverError::new_err(format!(
                "the game is over ({o}); there is no move to choose"
            ))),
            None => Ok(()),
        }
    }

    fn sight_reduction(&self) -> PyResult<&SightReduction> {
        // `Game.solve` wraps the Sight Reduction solver (`boardlab_solve`), which reads that
        // game's positions only: the typed game is taken out of the dynamic one here, and any
        // other game is refused.
        self.game
            .as_any()
            .downcast_ref::<SightReduction>()
            .ok_or_else(|| {
                SolverError::new_err(format!(
                    "there is no exact solver for {}; only sight-reduction has one",
                    self.game.kind()
                ))
            })
    }
}

#[pymethods]
impl PyGame {
    /// A new game: `Game(name, options=None, *, seed=0, position=None, moves=None)`.
    #[new]
    #[pyo3(signature = (name, options=None, *, seed=0, position=None, moves=None))]
    fn new(
        name: &str,
        options: Option<&Bound<'_, PyAny>>,
        seed: u64,
        position: Option<&str>,
        moves: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let kind = kind_of(name)?;
        let options = options_of(kind, options)?;
        let game = match position {
            Some(text) => AnyGame::from_position(kind, &options, text),
            None => AnyGame::new(kind, &options, seed),
        }
        .map_err(new_game_error)?;
        let mut g = PyGame { game, seed };
        if let Some(moves) = moves {
            let list: Vec<String> = if let Ok(text) = moves.cast::<PyString>() {
                split_moves(&text.extract::<String>()?, kind.info().multi_word_moves)
            } else {
                moves.extract().map_err(|_| {
                    MalformedMoveError::new_err("moves must be a string or a list of strings")
                })?
            };
            for (i, m) in list.iter().enumerate() {
                g.game.play_text(m).map_err(|e| {
                    let err = move_error(e);
                    Python::attach(|py| {
                        let msg = format!("move {}: {}", i + 1, err.value(py));
                        if err.is_instance_of::<IllegalMoveError>(py) {
                            IllegalMoveError::new_err(msg)
                        } else {
                            MalformedMoveError::new_err(msg)
                        }
                    })
                })?;
            }
        }
        Ok(g)
    }

    /// The game's name: `sight-reduction`, `obsidio`, `opprimo` or `assideum`.
    #[getter]
    fn name(&self) -> &'static str {
        self.game.kind().name()
    }

    /// The options in force, canonically spelled, as a dict of strings.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.game.options().iter() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The seed the game was made with (random set-ups).
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The position text; `Game(name, options, position=text)` reads it back.
    #[getter]
    fn position(&self) -> String {
        self.game.position_text()
    }

    /// The seat to move: 0 (first) or 1 (second). In a finished game, the seat that would
    /// move next.
    #[getter]
    fn to_move(&self) -> usize {
        self.game.to_move().index()
    }

    /// The colour to move (`white`, `black`, `yellow`, `red`), or None while colours are not
    /// given out.
    #[getter]
    fn colour_to_move(&self) -> Option<&'static str> {
        self.game.colour_to_move().map(|c| c.name())
    }

    /// The colour a seat plays, or None while colours are not given out.
    fn colour_of(&self, seat: i64) -> PyResult<Option<&'static str>> {
        Ok(self.game.colour_of(seat_of(seat)?).map(|c| c.name()))
    }

    /// Moves played since the start or the position text.
    #[getter]
    fn ply(&self) -> u32 {
        self.game.ply()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// Whether one person plays both sides (Sight Reduction's solitaire mode).
    #[getter]
    fn is_solitaire(&self) -> bool {
        self.game.is_solitaire()
    }

    /// The result once the game is over, else None: a dict with `winner` (seat or None),
    /// `colour`, `draw`, `reason`, `text` (and `score`, `solved` for a solitaire puzzle).
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.game
            .outcome()
            .map(|o| outcome_dict(py, &o))
            .transpose()
    }

    /// The result for `seat` of a finished two-player game: 1.0 a win, -1.0 a loss, 0.0 a
    /// draw; None while the game goes on or for a solitaire puzzle.
    fn reward(&self, seat: i64) -> PyResult<Option<f64>> {
        let seat = seat_of(seat)?;
        Ok(match self.game.outcome() {
            Some(Outcome::Win { seat: w, .. }) => Some(if w == seat { 1.0 } else { -1.0 }),
            Some(Outcome::Draw { .. }) => Some(0.0),
            _ => None,
        })
    }

    /// The 64-bit position hash.
    #[getter]
    fn hash(&self) -> u64 {
        self.game.hash()
    }

    /// The legal moves in canonical notation, in the game's fixed order.
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// Plays move text; returns its canonical notation. Raises MalformedMoveError or
    /// IllegalMoveError with the engine's message, leaving the game unchanged.
    fn play(&mut self, text: &str) -> PyResult<String> {
        self.game
            .play_text(text)
            .map(|played| played.notation)
            .map_err(move_error)
    }

    /// A copy of the game.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, PyGame>>()
            .is_ok_and(|o| o.game == self.game)
    }

    /// A text diagram of the board with coordinates.
    fn diagram(&self) -> String {
        self.game.diagram()
    }

    fn __str__(&self) -> String {
        self.game.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "boardlab.Game({:?}, position={:?})",
            self.game.kind().name(),
            self.game.position_text()
        )
    }

    /// The number of move sequences of length `depth` from here.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let game = &self.game;
        py.detach(|| game.perft(depth))
    }

    /// Each legal move with its perft count at `depth − 1`, as a dict in move order.
    fn divide<'py>(&self, py: Python<'py>, depth: u32) -> PyResult<Bound<'py, PyDict>> {
        if depth == 0 {
            return Err(BoardlabError::new_err("divide needs a depth of at least 1"));
        }
        let game = &self.game;
        let rows = py.detach(|| game.divide(depth));
        let d = PyDict::new(py);
        for (m, n) in rows {
            d.set_item(m, n)?;
        }
        Ok(d)
    }

    /// Plays uniformly random legal moves to the end of the game (in place); returns the
    /// number of moves played. The same seed gives the same moves.
    #[pyo3(signature = (seed=0))]
    fn random_playout(&mut self, py: Python<'_>, seed: u64) -> u32 {
        let game = &mut self.game;
        py.detach(|| game.playout(seed))
    }

    /// The number of action ids of this game's options (fixed for the options).
    #[getter]
    fn action_count(&self) -> PyResult<u32> {
        Ok(encoding_of(&self.game)?.action_count())
    }

    /// The ids of the legal moves, in the game's move order.
    fn legal_actions(&self) -> PyResult<Vec<u32>> {
        Ok(encoding_of(&self.game)?.legal_actions())
    }

    /// The id of a legal move given as text.
    fn action_of(&self, text: &str) -> PyResult<u32> {
        encoding_of(&self.game)?
            .action_of_text(text)
            .map_err(move_error)
    }

    /// The legal move an id names, in notation.
    fn move_of(&self, action: i64) -> PyResult<String> {
        let id = u32::try_from(action)
            .map_err(|_| IllegalMoveError::new_err(format!("action {action} is out of range")))?;
        encoding_of(&self.game)?
            .move_of_action(id)
            .map_err(IllegalMoveError::new_err)
    }

    /// Plays the legal move an id names; returns its notation.
    fn play_action(&mut self, action: i64) -> PyResult<String> {
        let id = u32::try_from(action)
            .map_err(|_| IllegalMoveError::new_err(format!("action {action} is out of range")))?;
        encoding_of_mut(&mut self.game)?
            .play_action(id)
            .map_err(IllegalMoveError::new_err)
    }

    /// The legal action ids as a NumPy `int8` array of `action_count` entries, 1 for a legal
    /// id (all zeros in a finished game). Refused (BoardlabError) above `MAX_MASK` ids, where
    /// `legal_actions` serves instead.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let encoding = encoding_of(&self.game)?;
        let (count, legal) = (encoding.action_count(), encoding.legal_actions());
        if count > MAX_MASK {
            return Err(BoardlabError::new_err(format!(
                "{} with these options has {count} action ids, too many for a mask (at most \
                 {MAX_MASK}); use legal_actions()",
                self.game.kind()
            )));
        }
        let bytes = PyByteArray::new_with(py, count as usize, |buf| {
            for id in legal {
                buf[id as usize] = 1;
            }
            Ok(())
        })?;
        py.import("numpy")?
            .call_method1("frombuffer", (bytes, "int8"))
    }

    /// The shape of the planes: (channels, height, width).
    #[getter]
    fn planes_shape(&self) -> PyResult<(usize, usize, usize)> {
        let [c, h, w] = encoding_of(&self.game)?.planes_shape();
        Ok((c, h, w))
    }

    /// The position as a NumPy `float32` array of shape `planes_shape` (channels, height,
    /// width), from `seat`'s point of view (the side to move when None).
    #[pyo3(signature = (seat=None))]
    fn planes<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        let view = match seat {
            Some(s) => seat_of(s)?,
            None => self.game.to_move(),
        };
        let encoding = encoding_of(&self.game)?;
        let [c, h, w] = encoding.planes_shape();
        let mut values = vec![0.0; c * h * w];
        encoding.write_planes(view, &mut values);
        let bytes = PyByteArray::new_with(py, values.len() * 4, |buf| {
            for (chunk, v) in buf.chunks_exact_mut(4).zip(values) {
                chunk.copy_from_slice(&v.to_le_bytes());
            }
            Ok(())
        })?;
        py.import("numpy")?
            .call_method1("frombuffer", (bytes, "<f4"))?
            .call_method1("reshape", ((c, h, w),))
    }

    /// Searches the position with a bot (a bot spec such as `mcts:iterations=2000`,
    /// `alphabeta:depth=4`, `best:time=200ms`, `level:5`, `random`): a dict with `move`,
    /// `value` (expected score of the side to move, 0..1), `proven` (an exact result or
    /// None), `pv`, `nodes`, `depth`, `seconds` and `bot`. With a work budget (iterations,
    /// nodes, depth) the same seed gives the same answer.
    #[pyo3(signature = (bot="best:time=1s", seed=0))]
    fn analyze<'py>(&self, py: Python<'py>, bot: &str, seed: u64) -> PyResult<Bound<'py, PyDict>> {
        self.check_not_over()?;
        let spec: BotSpec = bot.parse().map_err(ai_error)?;
        let game = &self.game;
        let a = py
            .detach(|| boardlab_ai::analyze(&**game, &spec, seed, &AtomicBool::new(false)))
            .map_err(ai_error)?;
        let seat = self.game.to_move();
        let d = PyDict::new(py);
        d.set_item("move", &a.best)?;
        d.set_item("value", a.value.for_seat(seat).score)?;
        d.set_item("seat", seat.index())?;
        match a.value.proven {
            Some(p) => d.set_item("proven", proven_dict(py, p, seat)?)?,
            None => d.set_item("proven", py.None())?,
        }
        d.set_item("pv", PyList::new(py, &a.pv)?)?;
        d.set_item("nodes", a.nodes)?;
        d.set_item("depth", a.depth)?;
        d.set_item("seconds", a.elapsed.as_secs_f64())?;
        d.set_item("bot", &a.bot)?;
        Ok(d)
    }

    /// The move a bot chooses here, in notation (see `analyze`).
    #[pyo3(signature = (bot="best:time=1s", seed=0))]
    fn best_move(&self, py: Python<'_>, bot: &str, seed: u64) -> PyResult<String> {
        self.check_not_over()?;
        let spec: BotSpec = bot.parse().map_err(ai_error)?;
        let game = &self.game;
        py.detach(|| boardlab_ai::choose_move(&**game, &spec, seed))
            .map_err(ai_error)
    }

    /// Solves a Sight Reduction position exactly.
    ///
    /// In a match (removal phase): a dict with `result` (`win` or `loss` for the side to
    /// move), `seat`, `plies` (with `distance=True`: plies to the end, the winner as fast as
    /// possible), `nodes`, `seconds` and, with `all_moves=True`, `moves`: each legal move with
    /// its value for the side to move. In solitaire mode: `solved`, `exhaustive`, `score`
    /// (pieces left), `moves` (the solution or the best line) and `nodes`. `max_nodes` caps
    /// the positions searched: no cap in a match (SolverError when a given cap runs out),
    /// 2·10⁹ in solitaire (then the answer is not `exhaustive`). `table_mb` (1 to 16384) is
    /// the memory of the solver's table.
    #[pyo3(signature = (distance=false, all_moves=false, max_nodes=None, table_mb=64))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        distance: bool,
        all_moves: bool,
        max_nodes: Option<u64>,
        table_mb: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let game = self.sight_reduction()?.clone();
        if !(1..=16_384).contains(&table_mb) {
            return Err(SolverError::new_err("table_mb must be between 1 and 16384"));
        }
        let config = SolverConfig {
            table_bytes: table_mb << 20,
            node_limit: max_nodes.unwrap_or(if game.is_solitaire() {
                SOLITAIRE_NODES
            } else {
                u64::MAX
            }),
        };
        let start = Instant::now();
        let d = PyDict::new(py);
        if game.is_solitaire() {
            if distance || all_moves {
                return Err(SolverError::new_err(
                    "distance and all_moves apply to two-player games, not to mode=solitaire",
                ));
            }
            let r = py
                .detach(|| solitaire::solve(&game, config))
                .map_err(|e| SolverError::new_err(e.to_string()))?;
            d.set_item("solved", r.solved)?;
            d.set_item("exhaustive", r.exhaustive)?;
            d.set_item("score", (r.score != u32::MAX).then_some(r.score))?;
            let moves: Vec<String> = r.moves.iter().map(|m| game_format(&game, *m)).collect();
            d.set_item("moves", moves)?;
            d.set_item("nodes", r.nodes)?;
            d.set_item("seconds", start.elapsed().as_secs_f64())?;
            return Ok(d);
        }
        let pos = Position::of(&game).map_err(|e| SolverError::new_err(e.to_string()))?;
        let rules = RuleSet::of(game.config());
        let budget = || max_nodes.map_or(Budget::UNLIMITED, Budget::nodes);
        let out_of_budget = |_: boardlab_solve::OutOfBudget| {
            SolverError::new_err(format!(
                "undecided: the solver ran out of its budget of {} positions",
                max_nodes.unwrap_or(u64::MAX)
            ))
        };
        let solved = py.detach(|| -> Result<_, boardlab_solve::OutOfBudget> {
            let mut solver = Solver::new(config);
            let moves = if all_moves {
                Some(solver.move_values_within(rules, pos, distance, budget())?)
            } else {
                None
            };
            let value = if distance {
                solver.solve_distance_within(rules, pos, budget())?
            } else {
                solver.solve_within(rules, pos, budget())?
            };
            Ok((value, moves, solver.stats().nodes))
        });
        let (value, moves, nodes) = solved.map_err(out_of_budget)?;
        let seat = pos.seat;
        let v = value.for_seat(seat);
        d.set_item("result", if v.wins(seat) { "win" } else { "loss" })?;
        d.set_item("seat", seat.index())?;
        d.set_item("plies", v.plies)?;
        if let Some(moves) = moves {
            let m = PyDict::new(py);
            for (mv, p) in moves {
                m.set_item(game_format(&game, mv), proven_dict(py, p, seat)?)?;
            }
            d.set_item("moves", m)?;
        }
        d.set_item("nodes", nodes)?;
        d.set_item("seconds", start.elapsed().as_secs_f64())?;
        Ok(d)
    }
}

fn game_format(
    game: &SightReduction,
    mv: <SightReduction as boardlab_core::Rules>::Move,
) -> String {
    boardlab_core::Notation::format_move(game, mv)
}

/// The names of every game, in the order shown to users.
#[pyfunction]
fn games() -> Vec<&'static str> {
    GameKind::all().iter().map(|k| k.name()).collect()
}

/// A game's static facts and option schema as JSON text (see `boardlab.game_info`).
#[pyfunction]
fn _game_info_json(name: &str) -> PyResult<String> {
    let kind = kind_of(name)?;
    serde_json::to_string(kind.info()).map_err(|e| BoardlabError::new_err(e.to_string()))
}

/// Plays one game of uniformly random moves from a new game (its set-up drawn from `seed`,
/// its moves from `seed` too) in one call: a dict with `plies`, `outcome` and `position`
/// (the final position text).
#[pyfunction]
#[pyo3(signature = (name, options=None, seed=0))]
fn play_random_game<'py>(
    py: Python<'py>,
    name: &str,
    options: Option<&Bound<'py, PyAny>>,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let kind = kind_of(name)?;
    let options = options_of(kind, options)?;
    let mut game = AnyGame::new(kind, &options, seed).map_err(new_game_error)?;
    let plies = py.detach(|| game.playout(seed));
    let d = PyDict::new(py);
    d.set_item("plies", plies)?;
    match game.outcome() {
        Some(o) => d.set_item("outcome", outcome_dict(py, &o)?)?,
        None => d.set_item("outcome", py.None())?,
    }
    d.set_item("position", game.position_text())?;
    Ok(d)
}

/// The canonical form of a bot spec, or BotError naming the accepted forms.
#[pyfunction]
fn parse_bot(spec: &str) -> PyResult<String> {
    spec.parse::<BotSpec>()
        .map(|s| s.to_string())
        .map_err(ai_error)
}

#[pymodule]
fn _boardlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyGame>()?;
    vector::register(m)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(_game_info_json, m)?)?;
    m.add_function(wrap_pyfunction!(play_random_game, m)?)?;
    m.add_function(wrap_pyfunction!(parse_bot, m)?)?;
    m.add("MAX_MASK", MAX_MASK)?;
    m.add("BoardlabError", py.get_type::<BoardlabError>())?;
    m.add("UnknownGameError", py.get_type::<UnknownGameError>())?;
    m.add("OptionError", py.get_type::<OptionError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("MalformedMoveError", py.get_type::<MalformedMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add("BotError", py.get_type::<BotError>())?;
    m.add("SolverError", py.get_type::<SolverError>())?;
    Ok(())
}

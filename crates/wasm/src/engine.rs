//! The engine's work in plain Rust: each call takes and gives JSON text, and a failure is a
//! message in words. `lib.rs` hands these to JavaScript; the tests call them directly.

use boardlab_ai::review::ReviewConfig;
use boardlab_ai::BotSpec;
use boardlab_core::present::Text;
use boardlab_core::{GameRecord, Seat, SeatNames};
use boardlab_games::view::{self, GameResult, PositionRequest, PositionView};
use boardlab_games::{analysis, AnyGame, GameKind};
use boardlab_solve::collection::{self as puzzles, PuzzleEntry, PuzzleId};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Searches here are never stopped from inside: the page stops one by ending its worker.
static NEVER: AtomicBool = AtomicBool::new(false);

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("a view always serialises")
}

fn request(text: &str) -> Result<PositionRequest, String> {
    serde_json::from_str(text).map_err(|e| format!("a bad position request: {e}"))
}

/// The games, each with its name, title and the options that make it a solitaire.
#[must_use]
pub fn games() -> String {
    #[derive(Serialize)]
    struct Listed {
        name: &'static str,
        title: &'static str,
        solitaire_options: &'static [&'static str],
    }
    let list: Vec<Listed> = GameKind::all()
        .iter()
        .map(|k| Listed {
            name: k.name(),
            title: k.info().title,
            solitaire_options: k.info().solitaire_options,
        })
        .collect();
    json(&list)
}

/// The view of a position request, as `POST /api/positions` answers it.
///
/// # Errors
/// The request's problem in words, as the server's 400 says it.
pub fn position(request_json: &str) -> Result<String, String> {
    request(request_json)
        .and_then(|r| r.view())
        .map(|v| json(&v))
}

/// A game kept between calls: a start and the moves played from it, who played each, and a
/// resignation if there was one.
#[derive(Debug)]
pub struct KeptGame {
    game: AnyGame,
    seed: u64,
    position: Option<String>,
    moves: Vec<String>,
    movers: Vec<Seat>,
    last_cells: Vec<Text>,
    resigned: Option<Seat>,
}

/// What a record says beyond the moves: the players, when the game was played and its form.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordRequest {
    #[serde(default)]
    first: String,
    #[serde(default)]
    second: String,
    started: Option<String>,
    finished: Option<String>,
    /// `text` (the default) or `json`.
    #[serde(default)]
    format: Option<String>,
}

impl KeptGame {
    /// The position a request reaches (its start and moves).
    ///
    /// # Errors
    /// The request's problem in words.
    pub fn new(request_json: &str) -> Result<KeptGame, String> {
        let r = request(request_json)?;
        let mut p = KeptGame {
            game: r.start()?,
            seed: if r.position.is_some() {
                0
            } else {
                r.seed.unwrap_or(0)
            },
            position: r.position.clone(),
            moves: Vec::new(),
            movers: Vec::new(),
            last_cells: Vec::new(),
            resigned: None,
        };
        for (i, m) in r.moves.iter().enumerate() {
            p.play(m)
                .map_err(|e| format!("move {} '{}': {e}", i + 1, view::shorten(m)))?;
        }
        Ok(p)
    }

    /// Plays `text` (any accepted spelling); returns it in canonical notation.
    ///
    /// # Errors
    /// A move that is too long, illegal, or played after the end.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        if self.resigned.is_some() {
            return Err("the game is already over".into());
        }
        let mover = self.game.to_move();
        let played = view::play(&mut self.game, text)?;
        self.movers.push(mover);
        self.moves.push(played.notation.clone());
        self.last_cells = played.touched;
        Ok(played.notation)
    }

    /// The position's view, as [`position`] gives it; after a resignation, with its result
    /// and no moves left.
    #[must_use]
    pub fn view(&self) -> String {
        json(&self.position_view())
    }

    fn position_view(&self) -> PositionView {
        let mut v = view::position(&self.game, self.moves.clone(), self.last_cells.clone());
        if let Some(r) = self.ending() {
            v.result = Some(r.into());
            v.to_move = None;
            v.legal_moves.clear();
            v.interaction = boardlab_core::present::Interaction::default();
        }
        v
    }

    /// The result of a resignation (the rules' results are in the position's view).
    fn ending(&self) -> Option<GameResult> {
        self.resigned
            .map(|loser| GameResult::lost(&self.game, loser, "resigned", "resignation"))
    }

    /// The colour each seat plays and the seat that played each move:
    /// `{ "first", "second", "moves": ["first", …] }`.
    #[must_use]
    pub fn seats(&self) -> String {
        json(&serde_json::json!({
            "first": self.game.colour_of(Seat::First),
            "second": self.game.colour_of(Seat::Second),
            "moves": self.movers,
        }))
    }

    /// Seat `seat` (`first` or `second`) resigns.
    ///
    /// # Errors
    /// An unknown seat, or a game already over.
    pub fn resign(&mut self, seat: &str) -> Result<(), String> {
        let seat = match seat {
            "first" => Seat::First,
            "second" => Seat::Second,
            _ => {
                return Err(format!(
                    "no seat '{}': first or second",
                    view::shorten(seat)
                ))
            }
        };
        if self.over() {
            return Err("the game is already over".into());
        }
        self.resigned = Some(seat);
        Ok(())
    }

    /// The game's record, in text or JSON form, with the players and times `request_json`
    /// gives: `{ "first", "second", "started"?, "finished"?, "format"? }`.
    ///
    /// # Errors
    /// A request not understood.
    pub fn record(&self, request_json: &str) -> Result<String, String> {
        let r: RecordRequest =
            serde_json::from_str(request_json).map_err(|e| format!("a bad record request: {e}"))?;
        let result = self
            .ending()
            .or_else(|| self.game.outcome().map(GameResult::by_rules));
        let record = GameRecord {
            game: self.game.kind().name().to_string(),
            options: self.game.options().to_map(),
            seed: self.seed,
            position: self.position.clone(),
            seats: SeatNames {
                first: r.first,
                second: r.second,
            },
            moves: self.moves.clone(),
            termination: result
                .as_ref()
                .filter(|g| g.termination != "rules")
                .map(|g| g.termination.to_string()),
            result: result.map(|g| g.tag),
            started: r.started,
            finished: r.finished,
            notes: Vec::new(),
        };
        match r.format.as_deref() {
            None | Some("text") => Ok(record.to_text()),
            Some("json") => Ok(record.to_json()),
            Some(other) => Err(format!(
                "no record format '{}': text or json",
                view::shorten(other)
            )),
        }
    }

    /// The legal moves, in canonical notation (none when the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<String> {
        if self.over() {
            Vec::new()
        } else {
            self.game.legal_moves()
        }
    }

    /// Whether the game is over (by the rules or a resignation).
    #[must_use]
    pub fn over(&self) -> bool {
        self.game.outcome().is_some() || self.resigned.is_some()
    }

    /// Evaluation `step` (from 0) of the analysis board's series, as `GET /api/analysis`
    /// sends it.
    ///
    /// # Errors
    /// A game that is over, a step past the last, or a game without computer players.
    pub fn evaluate(&self, step: usize) -> Result<String, String> {
        if self.over() {
            return Err("the game is over: there is nothing to analyse".into());
        }
        if step >= analysis::STEPS_MS.len() {
            return Err(format!("there are {} steps", analysis::STEPS_MS.len()));
        }
        analysis::evaluate(&self.game, step, &NEVER)
            .map(|e| json(&e))
            .map_err(|e| e.to_string())
    }

    /// A suggested move for the side to move, as the server's hint gives it.
    ///
    /// # Errors
    /// A game that is over, or a game without computer players.
    pub fn hint(&self, seed: u64) -> Result<String, String> {
        if self.over() {
            return Err("the game is over: there is no move to suggest".into());
        }
        analysis::hint(&self.game, seed, &NEVER)
            .map(|h| json(&h))
            .map_err(|e| e.to_string())
    }

    /// The move of computer player `spec` (`level:5`, `random`, `best:time=1s`, …).
    ///
    /// # Errors
    /// A game that is over, a spec not understood, or one this game has no player for.
    pub fn computer_move(&self, spec: &str, seed: u64) -> Result<String, String> {
        if self.over() {
            return Err("the game is over".into());
        }
        let spec: BotSpec = spec
            .parse()
            .map_err(|e: boardlab_ai::AiError| e.to_string())?;
        boardlab_ai::analyze(&*self.game, &spec, seed, &NEVER)
            .map(|a| a.best)
            .map_err(|e| e.to_string())
    }

    /// Random games from this position for `budget`: `{ "games", "plies", "seconds" }`.
    #[must_use]
    pub fn random_playouts(&self, budget: Duration, seed: u64) -> String {
        let (games, plies, seconds) = self.game.random_playouts(budget, seed);
        json(&serde_json::json!({ "games": games, "plies": plies, "seconds": seconds }))
    }
}

/// The review of a game record (text or JSON form), as `GET /api/games/{id}/review` answers a
/// finished one; `progress(done, total)` is told after each position.
///
/// # Errors
/// A record that cannot be read or replayed, or a game without computer players.
pub fn review(record_text: &str, progress: &mut dyn FnMut(usize, usize)) -> Result<String, String> {
    let record = GameRecord::parse(record_text).map_err(|e| format!("bad record: {e}"))?;
    let kind: GameKind = record
        .game
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| e.to_string())?;
    let start = AnyGame::record_start(kind, &record).map_err(|e| format!("bad record: {e}"))?;
    let config = ReviewConfig {
        bot: None,
        seed: record.seed,
        threads: 1,
    };
    let review = boardlab_games::review_record(&record, &config, &NEVER, &mut |p| {
        progress(p.done, p.total);
    })
    .map_err(|e| e.to_string())?;
    Ok(analysis::review_json(&start, &review))
}

/// Positions the exact solver may visit for one request before it answers "undecided".
pub const SOLVE_NODES: u64 = 50_000_000;

fn proven_json(value: boardlab_core::Proven, seat: Seat) -> serde_json::Value {
    let v = value.for_seat(seat);
    let result = match v.result {
        boardlab_core::Wdl::Win => "win",
        boardlab_core::Wdl::Loss => "loss",
        boardlab_core::Wdl::Draw => "draw",
    };
    serde_json::json!({ "result": result, "plies": v.plies })
}

/// The exact value of a Sight Reduction position, as `boardlab solve` works it out, visiting
/// at most `node_limit` positions. Two players: `{ "result": "win" | "loss", "plies",
/// "moves": [{ "move", "result", "plies" }], "nodes" }`, each from the view of the side to
/// move (`plies` with best play, the winner hurrying and the loser holding out). A solitaire:
/// `{ "solved", "exhaustive", "score", "moves": ["…"], "nodes" }` — a solution, or the proof
/// that none exists with the fewest pieces left.
///
/// # Errors
/// Another game, a request refused, a game already over, or no answer within the limit.
pub fn solve(request_json: &str, node_limit: u64) -> Result<String, String> {
    use boardlab_core::{Game, Notation, Rules};
    use boardlab_solve::{solitaire, SightReduction, Solver, SolverConfig};
    let r = request(request_json)?;
    if r.game != "sight-reduction" {
        return Err(format!(
            "{} has no exact solver: only sight-reduction",
            view::shorten(&r.game)
        ));
    }
    let end = r.view()?;
    if end.result.is_some() {
        return Err("the game is over: there is nothing to solve".into());
    }
    let kind: GameKind = r
        .game
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| e.to_string())?;
    let options = view::options_from_json(kind, &r.options)?;
    let game = SightReduction::from_position(&options, &end.position).map_err(|e| e.to_string())?;
    let config = SolverConfig {
        table_bytes: 16 << 20,
        node_limit: node_limit.max(1),
    };
    if game.is_solitaire() {
        let s = solitaire::solve(&game, config).map_err(|e| e.to_string())?;
        let moves: Vec<String> = s.moves.iter().map(|m| game.format_move(*m)).collect();
        return Ok(json(&serde_json::json!({
            "solved": s.solved, "exhaustive": s.exhaustive,
            "score": (s.score != u32::MAX).then_some(s.score), "moves": moves, "nodes": s.nodes,
        })));
    }
    let seat = game.to_move();
    let mut solver = Solver::new(config);
    let moves: Vec<serde_json::Value> = solver
        .game_move_values(&game, true)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|(m, v)| {
            let mut o = proven_json(v, seat);
            o["move"] = game.format_move(m).into();
            o
        })
        .collect();
    let mut whole = proven_json(
        solver
            .solve_game_distance(&game)
            .map_err(|e| e.to_string())?,
        seat,
    );
    whole["moves"] = moves.into();
    whole["nodes"] = solver.stats().nodes.into();
    Ok(json(&whole))
}

thread_local! {
    /// The puzzles made so far, by id: making one can take a second.
    static PUZZLES: RefCell<BTreeMap<String, Rc<PuzzleEntry>>> = const { RefCell::new(BTreeMap::new()) };
}

fn puzzle_entry(id: &str) -> Result<Rc<PuzzleEntry>, String> {
    let id: PuzzleId = id
        .parse()
        .map_err(|e: puzzles::BadPuzzleId| e.to_string())?;
    let name = id.to_string();
    if let Some(e) = PUZZLES.with(|p| p.borrow().get(&name).cloned()) {
        return Ok(e);
    }
    let entry = Rc::new(puzzles::make(id, None).map_err(|e| e.to_string())?);
    PUZZLES.with(|p| p.borrow_mut().insert(name, Rc::clone(&entry)));
    Ok(entry)
}

fn line(moves_json: &str) -> Result<Vec<String>, String> {
    serde_json::from_str(moves_json).map_err(|e| format!("a bad list of moves: {e}"))
}

/// Puzzle `id` (`clear-easy-1`), as `GET /api/puzzles/{id}` answers it.
///
/// # Errors
/// An id not understood, or one the generator has no puzzle for.
pub fn puzzle(id: &str) -> Result<String, String> {
    puzzle_entry(id).map(|e| json(&*e))
}

/// The judgement of the last of `moves_json` (a JSON list) in puzzle `id`, as
/// `POST /api/puzzles/{id}/moves` answers it.
///
/// # Errors
/// An unknown puzzle, or a line that is empty or illegal.
pub fn puzzle_move(id: &str, moves_json: &str) -> Result<String, String> {
    let entry = puzzle_entry(id)?;
    puzzles::judge(&entry, &line(moves_json)?)
        .map(|j| json(&j))
        .map_err(|e| e.to_string())
}

/// A move that keeps puzzle `id` solvable after `moves_json`, as
/// `POST /api/puzzles/{id}/hint` answers it.
///
/// # Errors
/// An unknown puzzle, or a line that is illegal or not the player's turn.
pub fn puzzle_hint(id: &str, moves_json: &str) -> Result<String, String> {
    let entry = puzzle_entry(id)?;
    puzzles::hint(&entry, &line(moves_json)?)
        .map(|h| json(&h))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_position_is_the_one_the_server_gives() {
        let req = r#"{"game":"sight-reduction","seed":3,"moves":[]}"#;
        let here = value(&position(req).unwrap());
        let there: PositionRequest = serde_json::from_str(req).unwrap();
        assert_eq!(here, value(&json(&there.view().unwrap())));
        assert_eq!(here["game"], "sight-reduction");
        assert!(!here["legal_moves"].as_array().unwrap().is_empty());
    }

    #[test]
    fn bad_requests_and_moves_are_told_in_words() {
        assert!(position("{")
            .unwrap_err()
            .starts_with("a bad position request"));
        assert!(position(r#"{"game":"chess"}"#)
            .unwrap_err()
            .contains("chess"));
        let err = KeptGame::new(r#"{"game":"sight-reduction","moves":["zz9"]}"#).unwrap_err();
        assert!(err.starts_with("move 1 'zz9'"), "{err}");
        let mut p = KeptGame::new(r#"{"game":"sight-reduction","seed":1}"#).unwrap();
        let before = p.view();
        assert!(p.play("zz9").is_err());
        assert_eq!(p.view(), before, "a refused move changes nothing");
    }

    #[test]
    fn a_game_is_played_to_its_end_by_computer_players() {
        for kind in GameKind::all() {
            let req = format!(r#"{{"game":"{}","seed":7}}"#, kind.name());
            let mut p = KeptGame::new(&req).unwrap();
            let mut plies = 0;
            while !p.over() && plies < 2000 {
                let m = p.computer_move("random", plies).unwrap();
                assert!(
                    p.legal_moves().contains(&m),
                    "{} plays a legal move",
                    kind.name()
                );
                p.play(&m).unwrap();
                plies += 1;
            }
            assert!(p.over(), "{} ends", kind.name());
            assert!(p.legal_moves().is_empty());
            assert!(value(&p.view())["result"]["text"].is_string());
            assert!(p.hint(0).is_err() && p.evaluate(0).is_err());
        }
    }

    #[test]
    fn evaluations_and_hints_name_a_legal_move() {
        let p = KeptGame::new(r#"{"game":"sight-reduction","seed":5}"#).unwrap();
        let e = value(&p.evaluate(0).unwrap());
        assert_eq!(e["step"], 1);
        assert!(p
            .legal_moves()
            .contains(&e["move"].as_str().unwrap().to_string()));
        let h = value(&p.hint(1).unwrap());
        assert!(p
            .legal_moves()
            .contains(&h["move"].as_str().unwrap().to_string()));
        assert!(p.evaluate(analysis::STEPS_MS.len()).is_err());
        let r = value(&p.random_playouts(Duration::from_millis(20), 1));
        assert!(r["games"].as_u64().unwrap() > 0);
    }

    #[test]
    fn a_resigned_game_has_its_result_and_record() {
        let mut p = KeptGame::new(r#"{"game":"obsidio","seed":2}"#).unwrap();
        let m = p.computer_move("random", 1).unwrap();
        p.play(&m).unwrap();
        let seats = value(&p.seats());
        assert_eq!(seats["moves"], serde_json::json!(["first"]));
        assert!(p.resign("third").is_err());
        p.resign("second").unwrap();
        assert!(p.over() && p.legal_moves().is_empty());
        assert!(p.play(&m).is_err() && p.resign("first").is_err());
        let v = value(&p.view());
        assert_eq!(v["result"]["termination"], "resignation");
        assert!(v["to_move"].is_null());
        let text = p
            .record(
                r#"{"first":"human","second":"computer:level:2","started":"2026-12-07T10:00:00Z"}"#,
            )
            .unwrap();
        let back = GameRecord::parse(&text).unwrap();
        assert_eq!(back.moves, vec![m]);
        assert_eq!(back.termination.as_deref(), Some("resignation"));
        assert_eq!(back.seed, 2);
        assert_eq!(back.seats.second, "computer:level:2");
        let j = p.record(r#"{"format":"json"}"#).unwrap();
        assert_eq!(
            GameRecord::parse(&j).unwrap(),
            GameRecord {
                seats: SeatNames::default(),
                started: None,
                ..back
            }
        );
        assert!(p.record(r#"{"format":"pdf"}"#).is_err());
    }

    #[test]
    fn a_record_is_reviewed_as_the_server_reviews_it() {
        let mut p = KeptGame::new(r#"{"game":"sight-reduction","seed":4}"#).unwrap();
        for i in 0..3 {
            let m = p.computer_move("random", i).unwrap();
            p.play(&m).unwrap();
        }
        let mut told = Vec::new();
        let r = value(&review(&p.record("{}").unwrap(), &mut |d, t| told.push((d, t))).unwrap());
        assert_eq!(r["plies"].as_array().unwrap().len(), 3);
        assert_eq!(r["best_cells"].as_array().unwrap().len(), 3);
        let (done, total) = *told.last().unwrap();
        assert!(done == total && total >= 3, "progress told to the end");
        assert!(review("not a record", &mut |_, _| {}).is_err());
    }

    #[test]
    fn sight_reduction_positions_are_solved_exactly() {
        let mut p = KeptGame::new(r#"{"game":"sight-reduction","seed":3}"#).unwrap();
        let first = p.computer_move("random", 1).unwrap();
        p.play(&first).unwrap();
        let line = serde_json::json!({"game": "sight-reduction", "seed": 3, "moves": [first]});
        let s = value(&solve(&line.to_string(), SOLVE_NODES).unwrap());
        let result = s["result"].as_str().unwrap();
        assert!(result == "win" || result == "loss", "{s}");
        let per_move = s["moves"].as_array().unwrap();
        assert_eq!(per_move.len(), p.legal_moves().len());
        // The side to move wins exactly when some move leaves the other side lost.
        let some_win = per_move.iter().any(|m| m["result"] == "win");
        assert_eq!(result == "win", some_win, "{s}");
        assert!(solve(r#"{"game":"obsidio"}"#, 10)
            .unwrap_err()
            .contains("no exact solver"));
        assert!(solve("{", 10).is_err());
        let e = value(&puzzle("clear-easy-2").unwrap());
        let solitaire = serde_json::json!({"game": "sight-reduction", "options": e["options"], "position": e["position"]});
        let s = value(&solve(&solitaire.to_string(), SOLVE_NODES).unwrap());
        assert_eq!(s["solved"], true, "{s}");
        assert!(!s["moves"].as_array().unwrap().is_empty());
    }

    #[test]
    fn puzzles_are_made_judged_and_hinted() {
        let e = value(&puzzle("clear-easy-1").unwrap());
        assert_eq!(e["id"], "clear-easy-1");
        let first = e["solution"][0].as_str().unwrap().to_string();
        let moves = serde_json::to_string(&[&first]).unwrap();
        let j = value(&puzzle_move("clear-easy-1", &moves).unwrap());
        assert!(j["verdict"].is_string());
        let h = value(&puzzle_hint("clear-easy-1", "[]").unwrap());
        assert!(h["move"].is_string());
        assert!(puzzle("nonsense").is_err());
        assert!(puzzle_move("clear-easy-1", "[]").is_err());
        assert!(puzzle_move("clear-easy-1", "{").is_err());
    }
}

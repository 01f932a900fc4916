//! The placement study: who wins the deterministic set-up (`setup=deterministic`), where the
//! players fill the empty board before the removals, solved exactly and split into jobs that
//! shard across machines.
//!
//! From a root position (the empty board, or any placement position), the study lists every
//! distinct position `split` placements below it, the board's symmetries and transpositions
//! merged (the *frontier*), and solves each with the [`PlacementSolver`]. Frontier position
//! `i` belongs to shard `K` of `N` when `i` is `K - 1` modulo `N`. Results are appended, one
//! JSON line each, to `results.jsonl` in the shard's folder (a run started again skips what
//! is there; `study.json` keeps the root, the options and the split, which must match). Once
//! every frontier position is solved, in one folder or in several (`merge`), the top `split`
//! placements are decided from the frontier's values: who wins the root, and which first
//! placements win (`summary.json`).

use crate::study::StudyError;
use crate::study::{append_line, claim, in_parallel, io_err, open_append, read_jsonl, read_meta};
use crate::SolverConfig;
use boardlab_core::{Game, Notation, Options, Rules as _};
use boardlab_sight_reduction::solver::placement::{canonical, PlacementSolver};
use boardlab_sight_reduction::{Phase, SightReduction, BLACK, WHITE};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::PathBuf;
use web_time::Instant;

/// What to solve.
#[derive(Clone, Debug)]
pub struct PlacementConfig {
    /// The game options (`setup=deterministic`, `mode=match`).
    pub options: Options,
    /// The root position's text (`None`: the empty board).
    pub from: Option<String>,
    /// How many placements below the root the frontier lies.
    pub split: u32,
    /// Worker threads.
    pub threads: usize,
    /// Table memory per thread, in bytes (shared by the placement and removal tables).
    pub table_bytes: usize,
    /// Output folder.
    pub out: PathBuf,
    /// Solve only slice `k` of `n` of the frontier (`Some((k, n))`).
    pub shard: Option<(u64, u64)>,
}

/// One solved frontier position: a line of `results.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrontierResult {
    /// Its number in the frontier.
    pub index: u64,
    /// Its position text.
    pub position: String,
    /// Whether the side to move there (to place, or to remove on a full board) wins.
    pub mover_wins: bool,
    /// Full boards the removal solver settled.
    pub boards: u64,
    /// Placement positions visited.
    pub nodes: u64,
    /// Milliseconds it took.
    pub millis: u64,
}

/// The identity of a placement study (`study.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Meta {
    game: String,
    kind: String,
    options: BTreeMap<String, String>,
    root: String,
    split: u32,
}

/// What a finished placement study found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlacementSummary {
    /// The options studied.
    pub options: BTreeMap<String, String>,
    /// The root position.
    pub root: String,
    /// The colour to move at the root (`white` or `black`).
    pub to_move: String,
    /// Whether that colour wins with perfect play.
    pub mover_wins: bool,
    /// The root's winning moves.
    pub winning_moves: Vec<String>,
    /// The root's legal moves.
    pub moves: Vec<String>,
    /// Placements between the root and the frontier.
    pub split: u32,
    /// Distinct frontier positions.
    pub frontier: u64,
    /// Full boards the removal solver settled, over the frontier.
    pub boards: u64,
    /// Placement positions visited, over the frontier.
    pub nodes: u64,
    /// CPU seconds over the frontier (the sum of the frontier positions' times).
    pub seconds: f64,
}

fn options_error(e: impl std::fmt::Display) -> StudyError {
    StudyError::Options(e.to_string())
}

/// The root position of a study.
fn root(config: &PlacementConfig) -> Result<SightReduction, StudyError> {
    if config.options.get("setup") != "deterministic" || config.options.get("mode") == "solitaire" {
        return Err(StudyError::Options(
            "the placement study solves two-player games of the placement set-up: use setup=deterministic and mode=match".into(),
        ));
    }
    if config.split == 0 {
        return Err(StudyError::Options(
            "the split must be at least one placement".into(),
        ));
    }
    let game = match &config.from {
        None => SightReduction::new(&config.options, 0).map_err(options_error)?,
        Some(text) => {
            SightReduction::from_position(&config.options, text).map_err(options_error)?
        }
    };
    if game.phase() != Phase::Place {
        return Err(StudyError::Options(format!(
            "the root '{}' is not in its placement phase",
            game.position_text()
        )));
    }
    Ok(game)
}

/// The canonical key of a position (its board under the symmetries).
fn key_of(game: &SightReduction) -> (u32, u32) {
    canonical(game.pieces(WHITE), game.pieces(BLACK)).0
}

/// The distinct positions `split` placements below `root` (or where the placements end
/// sooner, the full boards reached), ordered by their canonical keys.
#[must_use]
pub fn frontier(root: &SightReduction, split: u32) -> Vec<SightReduction> {
    let mut level: BTreeMap<(u32, u32), SightReduction> = BTreeMap::new();
    level.insert(key_of(root), root.clone());
    let mut moves = Vec::new();
    for _ in 0..split {
        let mut next = BTreeMap::new();
        for game in level.into_values() {
            if game.phase() != Phase::Place {
                next.insert(key_of(&game), game);
                continue;
            }
            game.legal_moves(&mut moves);
            for &m in &moves {
                let mut child = game.clone();
                child.play_unchecked(m);
                next.entry(key_of(&child)).or_insert(child);
            }
        }
        level = next;
    }
    level.into_values().collect()
}

fn meta_of(config: &PlacementConfig, root: &SightReduction) -> Meta {
    Meta {
        game: "sight-reduction".into(),
        kind: "placement".into(),
        options: config.options.to_map(),
        root: root.position_text(),
        split: config.split,
    }
}

fn solve_one(
    solver: &mut PlacementSolver,
    index: u64,
    game: &SightReduction,
) -> Result<FrontierResult, StudyError> {
    let start = Instant::now();
    let before = solver.stats();
    let value = solver.solve(game).map_err(options_error)?;
    let after = solver.stats();
    Ok(FrontierResult {
        index,
        position: game.position_text(),
        mover_wins: value.wins(game.to_move()),
        boards: after.boards - before.boards,
        nodes: after.nodes - before.nodes,
        millis: start.elapsed().as_millis() as u64,
    })
}

/// The results of `results` that belong to the frontier (right index and position), at most
/// one per index.
fn valid(mut results: Vec<FrontierResult>, frontier: &[SightReduction]) -> Vec<FrontierResult> {
    results.retain(|r| {
        frontier
            .get(r.index as usize)
            .is_some_and(|g| g.position_text() == r.position)
    });
    results.sort_by_key(|r| r.index);
    results.dedup_by_key(|r| r.index);
    results
}

/// Runs (or resumes) a placement study or one shard of it, appending to `results.jsonl` as
/// frontier positions are solved. `progress(done, total)` is called after each (and once at
/// the start). Returns the summary once the whole frontier is solved in this folder, `None`
/// for a shard (combine the shards with [`merge`]).
///
/// # Errors
/// Bad options or root, a folder holding another study, or an I/O failure.
pub fn run(
    config: &PlacementConfig,
    mut progress: impl FnMut(u64, u64),
) -> Result<Option<PlacementSummary>, StudyError> {
    let root = root(config)?;
    fs::create_dir_all(&config.out).map_err(io_err(&config.out))?;
    claim(&config.out, &meta_of(config, &root))?;
    let frontier = frontier(&root, config.split);
    let path = config.out.join("results.jsonl");
    let mut results = valid(read_jsonl(&path)?, &frontier);
    let mine = |i: u64| config.shard.is_none_or(|(k, n)| i % n == k - 1);
    let done: std::collections::BTreeSet<u64> = results.iter().map(|r| r.index).collect();
    let pending: Vec<u64> = (0..frontier.len() as u64)
        .filter(|&i| mine(i) && !done.contains(&i))
        .collect();
    let total = (0..frontier.len() as u64).filter(|&i| mine(i)).count() as u64;
    let mut count = done.iter().filter(|&&i| mine(i)).count() as u64;
    progress(count, total);
    let mut file = open_append(&path)?;
    in_parallel(
        &pending,
        config.threads,
        || {
            PlacementSolver::new(SolverConfig {
                table_bytes: config.table_bytes,
                ..SolverConfig::default()
            })
        },
        |solver, &i| solve_one(solver, i, &frontier[i as usize]),
        |r| {
            append_line(&mut file, &path, &r)?;
            results.push(r);
            count += 1;
            progress(count, total);
            Ok(())
        },
    )?;
    if config.shard.is_some() {
        return Ok(None);
    }
    let summary = summarize(config, &root, &frontier, &valid(results, &frontier))?;
    write_summary(config, &summary)?;
    Ok(Some(summary))
}

/// Combines the folders of a placement study's shards into `config.out` and decides the
/// root.
///
/// # Errors
/// A folder of another study, frontier positions solved in none of the folders, or an I/O
/// failure.
pub fn merge(dirs: &[PathBuf], config: &PlacementConfig) -> Result<PlacementSummary, StudyError> {
    let root = root(config)?;
    let meta = meta_of(config, &root);
    let frontier = frontier(&root, config.split);
    let mut results = Vec::new();
    for dir in dirs {
        if read_meta::<Meta>(dir)? != meta {
            return Err(StudyError::Mismatch(format!(
                "{} holds another study (other options, root or split)",
                dir.display()
            )));
        }
        results.extend(read_jsonl::<FrontierResult>(&dir.join("results.jsonl"))?);
    }
    let results = valid(results, &frontier);
    fs::create_dir_all(&config.out).map_err(io_err(&config.out))?;
    claim(&config.out, &meta)?;
    let summary = summarize(config, &root, &frontier, &results)?;
    let path = config.out.join("results.jsonl");
    let mut file = fs::File::create(&path).map_err(io_err(&path))?;
    for r in &results {
        append_line(&mut file, &path, r)?;
    }
    write_summary(config, &summary)?;
    Ok(summary)
}

fn write_summary(config: &PlacementConfig, summary: &PlacementSummary) -> Result<(), StudyError> {
    let p = config.out.join("summary.json");
    fs::write(
        &p,
        serde_json::to_string_pretty(summary).unwrap_or_default(),
    )
    .map_err(io_err(&p))
}

/// Decides the top `split` placements from the frontier's values.
fn summarize(
    config: &PlacementConfig,
    root: &SightReduction,
    frontier: &[SightReduction],
    results: &[FrontierResult],
) -> Result<PlacementSummary, StudyError> {
    if results.len() < frontier.len() {
        return Err(StudyError::Mismatch(format!(
            "{} of the {} frontier positions are not solved yet: is a shard missing or unfinished?",
            frontier.len() - results.len(),
            frontier.len()
        )));
    }
    let mut values: HashMap<(u32, u32), bool> = frontier
        .iter()
        .zip(results)
        .map(|(g, r)| (key_of(g), r.mover_wins))
        .collect();
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    let mut winning_moves = Vec::new();
    for &m in &moves {
        let mut child = root.clone();
        child.play_unchecked(m);
        let unknown = || StudyError::Mismatch("the frontier does not match the root".into());
        if !decide(&child, config.split - 1, &mut values).ok_or_else(unknown)? {
            winning_moves.push(root.format_move(m));
        }
    }
    let colour = if root.side_to_move() == WHITE {
        "white"
    } else {
        "black"
    };
    Ok(PlacementSummary {
        options: config.options.to_map(),
        root: root.position_text(),
        to_move: colour.into(),
        mover_wins: !winning_moves.is_empty(),
        winning_moves,
        moves: moves.iter().map(|&m| root.format_move(m)).collect(),
        split: config.split,
        frontier: frontier.len() as u64,
        boards: results.iter().map(|r| r.boards).sum(),
        nodes: results.iter().map(|r| r.nodes).sum(),
        seconds: results.iter().map(|r| r.millis).sum::<u64>() as f64 / 1000.0,
    })
}

/// Whether the side to move wins `game`, `left` placements above the frontier, from the
/// frontier's values (`values`, which also keeps what is decided here); `None` if a frontier
/// position reached has no value.
fn decide(
    game: &SightReduction,
    left: u32,
    values: &mut HashMap<(u32, u32), bool>,
) -> Option<bool> {
    let key = key_of(game);
    if let Some(&v) = values.get(&key) {
        return Some(v);
    }
    if left == 0 || game.phase() != Phase::Place {
        return None;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut wins = false;
    for m in moves {
        let mut child = game.clone();
        child.play_unchecked(m);
        if !decide(&child, left - 1, values)? {
            wins = true;
            break;
        }
    }
    values.insert(key, wins);
    Some(wins)
}

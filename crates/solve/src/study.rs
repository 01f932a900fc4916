//! The first-player study: many random set-ups solved exactly.
//!
//! Set-up `i` of a study with seed `S` is the game `SightReduction::new(options, S + i)`
//! (so any one can be looked at again with that seed). For each, the study records who wins
//! with perfect play, the game length with perfect play (the winner winning as fast as
//! possible, the loser holding out as long as possible), and which first moves win (unless
//! the study leaves the first moves out: judging every first move is most of the work).
//!
//! Results are appended, one JSON line per set-up, to `results.jsonl` in the output folder
//! as they are found; a run started again with the same folder skips the set-ups already
//! there (the study's options and seed, kept in `study.json`, must match). At the end the
//! study writes `summary.json`, `results.csv` and the chart `lengths.svg`.

use crate::{Position, RuleSet, Solver, SolverConfig};
use boardlab_core::Notation;
use boardlab_core::{Game, Options};
use boardlab_sight_reduction::SightReduction;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use thiserror::Error;
use web_time::Instant;

/// What to study.
#[derive(Clone, Debug)]
pub struct StudyConfig {
    /// The game options (`setup=random`, `mode=match`).
    pub options: Options,
    /// Number of set-ups.
    pub setups: u64,
    /// Set-up `i` uses game seed `seed + i`.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Transposition table memory per thread, in bytes.
    pub table_bytes: usize,
    /// Output folder.
    pub out: PathBuf,
    /// Solve only the set-ups whose index is `k - 1` modulo `n` (`Some((k, n))`); the
    /// slices are combined with [`merge`].
    pub shard: Option<(u64, u64)>,
    /// How much to solve of each set-up.
    pub depth: Depth,
}

/// How much a study solves of each set-up: who wins; also the length with perfect play; also
/// which first moves win (the default). Each step costs more than the one before: judging
/// every first move is most of the work, and the length several times who wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Depth {
    Winner,
    Length,
    #[default]
    FirstMoves,
}

impl Depth {
    /// The name on the command line and in `study.json`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Depth::Winner => "winner",
            Depth::Length => "length",
            Depth::FirstMoves => "first-moves",
        }
    }
}

impl std::str::FromStr for Depth {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        [Depth::Winner, Depth::Length, Depth::FirstMoves]
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| format!("unknown depth '{s}'; accepted: winner, length, first-moves"))
    }
}

/// One solved set-up: a line of `results.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupResult {
    /// The set-up's number in the study.
    pub index: u64,
    /// Its game seed.
    pub seed: u64,
    /// Its position text.
    pub position: String,
    /// Whether the first player (the colour that removes first) wins with perfect play.
    pub first_wins: bool,
    /// The game length in plies with perfect play (0 when not solved).
    pub plies: u32,
    /// The legal first moves, in move order (left out of the line when not solved).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_moves: Vec<String>,
    /// The first moves that win for the first player.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub winning_first_moves: Vec<String>,
    /// Positions the solver visited.
    pub nodes: u64,
    /// Milliseconds the set-up took.
    pub millis: u64,
}

/// The identity of a study, kept in `study.json` so that a restart cannot mix studies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Meta {
    game: String,
    options: BTreeMap<String, String>,
    seed: u64,
    /// How much is solved (left out of the file for a full study, as before).
    #[serde(default, skip_serializing_if = "is_full")]
    depth: Depth,
}

fn is_full(d: &Depth) -> bool {
    *d == Depth::FirstMoves
}

/// Why a study failed.
#[derive(Debug, Error)]
pub enum StudyError {
    /// Reading or writing the output folder failed.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The options cannot be studied.
    #[error("{0}")]
    Options(String),
    /// The output folder holds a different study.
    #[error("{0}")]
    Mismatch(String),
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> StudyError + '_ {
    move |source| StudyError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Solves one set-up.
///
/// # Errors
/// Options that do not make a two-player game with a random set-up.
pub fn solve_setup(
    solver: &mut Solver,
    options: &Options,
    index: u64,
    seed: u64,
    depth: Depth,
) -> Result<SetupResult, StudyError> {
    let start = Instant::now();
    let game =
        SightReduction::new(options, seed).map_err(|e| StudyError::Options(e.to_string()))?;
    let pos = Position::of(&game).map_err(|e| StudyError::Options(e.to_string()))?;
    let rules = RuleSet::of(game.config());
    let before = solver.stats().nodes;
    let value = if depth == Depth::Winner {
        solver.solve(rules, pos)
    } else {
        solver.solve_distance(rules, pos)
    };
    let moves = if depth == Depth::FirstMoves {
        solver.move_values(rules, pos, false)
    } else {
        Vec::new()
    };
    let first_moves = moves.iter().map(|(m, _)| game.format_move(*m)).collect();
    let winning_first_moves = moves
        .iter()
        .filter(|(_, v)| v.wins(pos.seat))
        .map(|(m, _)| game.format_move(*m))
        .collect();
    Ok(SetupResult {
        index,
        seed,
        position: game.position_text(),
        first_wins: value.wins(pos.seat),
        plies: value.plies.unwrap_or(0),
        first_moves,
        winning_first_moves,
        nodes: solver.stats().nodes - before,
        millis: start.elapsed().as_millis() as u64,
    })
}

/// Opens a results file for appending; after a line cut off by an interruption, starts on a
/// fresh line.
pub(crate) fn open_append(path: &Path) -> Result<fs::File, StudyError> {
    let needs_newline = fs::read(path)
        .map(|b| b.last().is_some_and(|&c| c != b'\n'))
        .unwrap_or(false);
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_err(path))?;
    if needs_newline {
        file.write_all(b"\n").map_err(io_err(path))?;
    }
    Ok(file)
}

/// Appends one result as a JSON line and flushes it, so that an interruption loses nothing
/// finished.
pub(crate) fn append_line<T: Serialize>(
    file: &mut fs::File,
    path: &Path,
    value: &T,
) -> Result<(), StudyError> {
    let line = serde_json::to_string(value).unwrap_or_default();
    writeln!(file, "{line}")
        .and_then(|()| file.flush())
        .map_err(io_err(path))
}

/// Solves `jobs` on `threads` worker threads, each with its own state (a solver and its
/// table) made by `new_state`, and hands every result to `done` on the calling thread as it
/// comes. The first error (of a job or of `done`) stops the workers after their current job
/// and is returned.
pub(crate) fn in_parallel<J: Sync, R: Send, S>(
    jobs: &[J],
    threads: usize,
    new_state: impl Fn() -> S + Sync,
    solve: impl Fn(&mut S, &J) -> Result<R, StudyError> + Sync,
    mut done: impl FnMut(R) -> Result<(), StudyError>,
) -> Result<(), StudyError> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<R, StudyError>>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next, new_state, solve) = (&next, &new_state, &solve);
            scope.spawn(move || {
                let mut state = new_state();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(k) else { break };
                    if tx.send(solve(&mut state, job)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for r in rx {
            if let Err(e) = r.and_then(&mut done) {
                failure.get_or_insert(e);
                next.store(usize::MAX / 2, Ordering::Relaxed);
            }
        }
    });
    failure.map_or(Ok(()), Err)
}

/// Reads the JSON lines of a results file (a cut-off last line is ignored).
pub(crate) fn read_jsonl<T: serde::de::DeserializeOwned>(
    path: &Path,
) -> Result<Vec<T>, StudyError> {
    let mut out = Vec::new();
    if !path.exists() {
        return Ok(out);
    }
    let f = fs::File::open(path).map_err(io_err(path))?;
    for line in std::io::BufReader::new(f).lines() {
        let line = line.map_err(io_err(path))?;
        if let Ok(r) = serde_json::from_str::<T>(&line) {
            out.push(r);
        }
    }
    Ok(out)
}

fn meta_of(config: &StudyConfig) -> Meta {
    Meta {
        game: "sight-reduction".into(),
        options: config.options.to_map(),
        seed: config.seed,
        depth: config.depth,
    }
}

pub(crate) fn read_meta<M: serde::de::DeserializeOwned>(dir: &Path) -> Result<M, StudyError> {
    let path = dir.join("study.json");
    let text = fs::read_to_string(&path).map_err(io_err(&path))?;
    serde_json::from_str(&text)
        .map_err(|e| StudyError::Mismatch(format!("{}: unreadable ({e})", path.display())))
}

/// Writes the study's identity into `dir`, or checks that the one there is the same.
pub(crate) fn claim<M>(dir: &Path, meta: &M) -> Result<(), StudyError>
where
    M: Serialize + serde::de::DeserializeOwned + PartialEq,
{
    let meta_path = dir.join("study.json");
    if meta_path.exists() {
        let old: M = read_meta(dir)?;
        if &old != meta {
            return Err(StudyError::Mismatch(format!(
                "{} holds a study with other options, another seed, or solved to another depth ({}); use another --out folder",
                dir.display(),
                serde_json::to_string(&old).unwrap_or_default()
            )));
        }
    } else {
        let text = serde_json::to_string_pretty(meta).unwrap_or_default();
        fs::write(&meta_path, text).map_err(io_err(&meta_path))?;
    }
    Ok(())
}

/// Combines the folders of a study's shards into `config.out` (whose options, seed and
/// number of set-ups name the study) and writes its summary files there.
///
/// # Errors
/// A folder of another study, set-ups solved in none of the folders, or an I/O failure.
pub fn merge(dirs: &[PathBuf], config: &StudyConfig) -> Result<StudySummary, StudyError> {
    let meta = match dirs.first() {
        Some(d) => read_meta::<Meta>(d)?,
        None => {
            return Err(StudyError::Options(
                "--merge needs at least one folder".into(),
            ))
        }
    };
    let mut results = Vec::new();
    for dir in dirs {
        if read_meta::<Meta>(dir)? != meta {
            return Err(StudyError::Mismatch(format!(
                "{} holds another study than {}",
                dir.display(),
                dirs[0].display()
            )));
        }
        results.extend(read_jsonl::<SetupResult>(&dir.join("results.jsonl"))?);
    }
    results.retain(|r| r.index < config.setups && r.seed == meta.seed + r.index);
    results.sort_by_key(|r| r.index);
    results.dedup_by_key(|r| r.index);
    let missing = config.setups - results.len() as u64;
    if missing > 0 {
        return Err(StudyError::Mismatch(format!(
            "{missing} of the {} set-ups are in none of these folders: is a shard missing or unfinished?",
            config.setups
        )));
    }
    fs::create_dir_all(&config.out).map_err(io_err(&config.out))?;
    claim(&config.out, &meta)?;
    let path = config.out.join("results.jsonl");
    let mut text = String::new();
    for r in &results {
        text.push_str(&serde_json::to_string(r).unwrap_or_default());
        text.push('\n');
    }
    fs::write(&path, text).map_err(io_err(&path))?;
    let pairs: Vec<(&str, &str)> = meta
        .options
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let options = SightReduction::info()
        .options_from_pairs(pairs)
        .map_err(|e| StudyError::Options(e.to_string()))?;
    let config = StudyConfig {
        seed: meta.seed,
        options,
        depth: meta.depth,
        ..config.clone()
    };
    let summary = StudySummary::of(&results, &config);
    write_outputs(&config.out, &results, &summary)?;
    Ok(summary)
}

/// Runs a study, appending to `results.jsonl` as set-ups are solved and writing the summary
/// files at the end. `progress(done, total)` is called after every set-up (and once at the
/// start with the set-ups found already done).
///
/// # Errors
/// Bad options, a folder holding another study, or an I/O failure.
pub fn run(
    config: &StudyConfig,
    mut progress: impl FnMut(u64, u64),
) -> Result<StudySummary, StudyError> {
    if config.options.get("mode") == "solitaire" || config.options.get("setup") != "random" {
        return Err(StudyError::Options(
            "the study solves two-player games from random set-ups: use mode=match and setup=random"
                .into(),
        ));
    }
    fs::create_dir_all(&config.out).map_err(io_err(&config.out))?;
    claim(&config.out, &meta_of(config))?;
    let results_path = config.out.join("results.jsonl");
    let mut results = read_jsonl::<SetupResult>(&results_path)?;
    let done: BTreeSet<u64> = results
        .iter()
        .filter(|r| r.index < config.setups && r.seed == config.seed + r.index)
        .map(|r| r.index)
        .collect();
    let mine = |i: &u64| config.shard.is_none_or(|(k, n)| i % n == k - 1);
    let pending: Vec<u64> = (0..config.setups)
        .filter(|i| mine(i) && !done.contains(i))
        .collect();
    let total = (0..config.setups).filter(mine).count() as u64;
    let mut count = done.iter().filter(|i| mine(i)).count() as u64;
    progress(count, total);
    let mut file = open_append(&results_path)?;
    in_parallel(
        &pending,
        config.threads,
        || {
            Solver::new(SolverConfig {
                table_bytes: config.table_bytes,
                ..SolverConfig::default()
            })
        },
        |solver, &index| {
            solve_setup(
                solver,
                &config.options,
                index,
                config.seed + index,
                config.depth,
            )
        },
        |r| {
            append_line(&mut file, &results_path, &r)?;
            results.push(r);
            count += 1;
            progress(count, total);
            Ok(())
        },
    )?;
    results.retain(|r| r.index < config.setups && r.seed == config.seed + r.index);
    results.retain(|r| mine(&r.index));
    results.sort_by_key(|r| r.index);
    results.dedup_by_key(|r| r.index);
    let summary = StudySummary::of(&results, config);
    write_outputs(&config.out, &results, &summary)?;
    Ok(summary)
}

/// The study's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StudySummary {
    /// The options studied.
    pub options: BTreeMap<String, String>,
    /// The seed of set-up 0.
    pub seed: u64,
    /// Set-ups solved.
    pub setups: u64,
    /// Set-ups the first player wins.
    pub first_player_wins: u64,
    /// The first player's win rate.
    pub first_player_win_rate: f64,
    /// The 95% confidence interval of the win rate (Wilson score interval).
    pub win_rate_95: (f64, f64),
    /// Set-ups by game length (plies) with perfect play: `[length, first wins, second wins]`.
    pub lengths: Vec<[u64; 3]>,
    /// The mean game length in plies.
    pub mean_length: f64,
    /// How much was solved: `winner` (the lengths are empty), `length` or `first-moves` (the
    /// first-move figures are empty unless this).
    pub depth: Depth,
    /// The mean number of legal first moves.
    pub mean_first_moves: f64,
    /// The mean number of winning first moves, over the set-ups the first player wins.
    pub mean_winning_first_moves: f64,
    /// Among first-player wins, how many have exactly `n` winning first moves:
    /// `[n, set-ups]`.
    pub winning_first_move_counts: Vec<[u64; 2]>,
    /// Share of all legal first moves that win.
    pub winning_first_move_share: f64,
    /// By square of the removed piece: `[square, times legal, times winning]`.
    pub first_moves_by_square: Vec<(String, u64, u64)>,
    /// Positions visited, over all set-ups.
    pub nodes: u64,
    /// Mean milliseconds per set-up (one thread).
    pub mean_millis: f64,
}

/// The 95% Wilson score interval of a proportion `k / n`.
#[must_use]
pub fn wilson_95(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = k as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

impl StudySummary {
    fn of(results: &[SetupResult], config: &StudyConfig) -> StudySummary {
        let n = results.len() as u64;
        let wins = results.iter().filter(|r| r.first_wins).count() as u64;
        let mut lengths: BTreeMap<u32, [u64; 2]> = BTreeMap::new();
        let mut counts: BTreeMap<u64, u64> = BTreeMap::new();
        let mut squares: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        let (mut legal, mut winning) = (0u64, 0u64);
        for r in results {
            if config.depth != Depth::Winner {
                lengths.entry(r.plies).or_default()[usize::from(!r.first_wins)] += 1;
            }
            legal += r.first_moves.len() as u64;
            winning += r.winning_first_moves.len() as u64;
            if r.first_wins {
                *counts
                    .entry(r.winning_first_moves.len() as u64)
                    .or_default() += 1;
            }
            for m in &r.first_moves {
                squares.entry(m.clone()).or_default().0 += 1;
            }
            for m in &r.winning_first_moves {
                squares.entry(m.clone()).or_default().1 += 1;
            }
        }
        let mean = |x: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
        let mut by_square: Vec<(String, u64, u64)> =
            squares.into_iter().map(|(s, (l, w))| (s, l, w)).collect();
        // Square order a1, b1, …, d8 (moves are square names or pairs).
        by_square.sort_by_key(|(s, _, _)| {
            let b = s.as_bytes();
            (b.get(1).copied(), b.first().copied(), s.len(), s.clone())
        });
        StudySummary {
            options: config.options.to_map(),
            seed: config.seed,
            setups: n,
            first_player_wins: wins,
            first_player_win_rate: mean(wins),
            win_rate_95: wilson_95(wins, n),
            lengths: lengths
                .into_iter()
                .map(|(l, [a, b])| [u64::from(l), a, b])
                .collect(),
            mean_length: mean(results.iter().map(|r| u64::from(r.plies)).sum()),
            depth: config.depth,
            mean_first_moves: mean(legal),
            mean_winning_first_moves: if wins == 0 {
                0.0
            } else {
                results
                    .iter()
                    .filter(|r| r.first_wins)
                    .map(|r| r.winning_first_moves.len() as f64)
                    .sum::<f64>()
                    / wins as f64
            },
            winning_first_move_counts: counts.into_iter().map(|(k, v)| [k, v]).collect(),
            winning_first_move_share: if legal == 0 {
                0.0
            } else {
                winning as f64 / legal as f64
            },
            first_moves_by_square: by_square,
            nodes: results.iter().map(|r| r.nodes).sum(),
            mean_millis: mean(results.iter().map(|r| r.millis).sum()),
        }
    }

    /// A short text report.
    #[must_use]
    pub fn report(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "set-ups solved: {}", self.setups);
        let _ = writeln!(
            s,
            "first player wins: {} ({:.2}%, 95% interval {:.2}%–{:.2}%)",
            self.first_player_wins,
            100.0 * self.first_player_win_rate,
            100.0 * self.win_rate_95.0,
            100.0 * self.win_rate_95.1
        );
        if self.depth == Depth::Winner {
            let _ = writeln!(s, "game length: not solved (--depth winner)");
        } else {
            let _ = writeln!(
                s,
                "mean game length with perfect play: {:.2} plies",
                self.mean_length
            );
        }
        if self.depth == Depth::FirstMoves {
            let _ = writeln!(
                s,
                "first moves: {:.2} legal on average; {:.2}% of them win; {:.2} winning moves on average when the first player wins",
                self.mean_first_moves,
                100.0 * self.winning_first_move_share,
                self.mean_winning_first_moves
            );
        } else {
            let _ = writeln!(s, "first moves: not judged (--depth {})", self.depth.name());
        }
        s
    }
}

fn write_outputs(
    out: &Path,
    results: &[SetupResult],
    summary: &StudySummary,
) -> Result<(), StudyError> {
    let p = out.join("summary.json");
    fs::write(
        &p,
        serde_json::to_string_pretty(summary).unwrap_or_default(),
    )
    .map_err(io_err(&p))?;
    let mut csv = String::from(
        "index,seed,first_wins,plies,first_moves,winning_first_moves,nodes,millis,position\n",
    );
    for r in results {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{}",
            r.index,
            r.seed,
            r.first_wins,
            r.plies,
            r.first_moves.len(),
            r.winning_first_moves.len(),
            r.nodes,
            r.millis,
            r.position
        );
    }
    let p = out.join("results.csv");
    fs::write(&p, csv).map_err(io_err(&p))?;
    if summary.depth != Depth::Winner {
        let p = out.join("lengths.svg");
        fs::write(&p, lengths_svg(summary)).map_err(io_err(&p))?;
    }
    Ok(())
}

/// A bar chart of the game lengths with perfect play, each bar split by the winning seat
/// (drawn by `plotters`).
#[must_use]
pub fn lengths_svg(summary: &StudySummary) -> String {
    use plotters::prelude::*;
    // Okabe–Ito orange and blue: told apart with the common colour-vision deficiencies.
    let first = RGBColor(230, 159, 0);
    let second = RGBColor(0, 114, 178);
    let lo = summary.lengths.first().map_or(0, |l| l[0]);
    let hi = summary.lengths.last().map_or(0, |l| l[0]);
    let top = summary
        .lengths
        .iter()
        .map(|l| l[1] + l[2])
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.08;
    let mut text = String::new();
    let drawn = (|| -> Result<(), String> {
        let fail = |e: DrawingAreaErrorKind<_>| format!("{e:?}");
        let root = SVGBackend::with_string(&mut text, (720, 360)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "Sight Reduction: game length with perfect play ({} random set-ups)",
                    summary.setups
                ),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(lo as f64 - 0.5..hi as f64 + 0.5, 0.0..top)
            .map_err(fail)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(((hi - lo) as usize + 1).min(40))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .x_desc("plies (removals) until the loser has no move")
            .y_desc("set-ups")
            .draw()
            .map_err(fail)?;
        let bar = |l: u64, from: f64, to: f64, c: RGBColor| {
            Rectangle::new([(l as f64 - 0.4, from), (l as f64 + 0.4, to)], c.filled())
        };
        chart
            .draw_series(
                summary
                    .lengths
                    .iter()
                    .map(|l| bar(l[0], 0.0, l[2] as f64, second)),
            )
            .map_err(fail)?
            .label("second player wins")
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], second.filled()));
        chart
            .draw_series(
                summary
                    .lengths
                    .iter()
                    .map(|l| bar(l[0], l[2] as f64, (l[1] + l[2]) as f64, first)),
            )
            .map_err(fail)?
            .label("first player wins")
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], first.filled()));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(fail)?;
        root.present().map_err(fail)
    })();
    if let Err(e) = drawn {
        return format!("<!-- chart not drawn: {e} -->\n");
    }
    text
}

/// Reads a finished or partial study folder and recomputes its summary (without solving).
///
/// # Errors
/// A missing or unreadable folder.
pub fn summarize(config: &StudyConfig) -> Result<StudySummary, StudyError> {
    let mut results = read_jsonl::<SetupResult>(&config.out.join("results.jsonl"))?;
    results.retain(|r| r.index < config.setups && r.seed == config.seed + r.index);
    results.sort_by_key(|r| r.index);
    results.dedup_by_key(|r| r.index);
    Ok(StudySummary::of(&results, config))
}

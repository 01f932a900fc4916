//! Designer reports: many self-play games of one game, with every option set to compare, boiled
//! down to the numbers a designer asks for — who wins, how long games last, how many moves
//! there are to choose from, how early a game is decided, how often the lead changes, whether
//! the pie rule is used, and whether thinking longer keeps paying — with charts.
//!
//! - [`run`] plays the games of a [`Definition`] into a folder, one JSON line per game in
//!   `games.jsonl`, so an interrupted run resumes where it stopped, and a shard (`K/N`) plays
//!   a fixed slice of the games, the same whichever machine runs it.
//! - [`merge`] combines the folders of several shards.
//! - [`summary::summarise`] computes the metrics ([`metrics`]); `write` writes
//!   `report.json`, `report.md` and a self-contained `report.html` with SVG charts drawn by
//!   `plotters` ([`charts`]).
//!
//! The metrics are defined in `docs/analysis/README.md`.

pub mod charts;
pub mod metrics;
pub use boardlab_ai::selfplay as play;
pub mod summary;
mod write;

pub use play::{Job, Trace};
pub use summary::{Report, SetReport};
pub use write::write;

use boardlab_ai::spec::BotSpec;
use boardlab_core::Options;
use boardlab_games::{AnyGame, GameKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use thiserror::Error;

/// What a report plays: everything that decides its games. Kept in `config.json`; a run in a
/// folder that holds another definition is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Definition {
    /// The game's name.
    pub game: String,
    /// Options given for every set (`KEY=VALUE`).
    pub options: BTreeMap<String, String>,
    /// Options compared: each key with its values; the sets are every combination.
    pub compare: Vec<(String, Vec<String>)>,
    /// Self-play games per option set.
    pub games: u32,
    /// The bot, as given.
    pub bot: String,
    pub seed: u64,
    /// Games reaching this many plies are stopped and counted as unfinished.
    pub max_plies: u32,
    /// Random moves at the start of each game, for variety.
    pub opening_plies: u32,
    /// Games per step of the skill trace (0: no trace).
    pub skill_games: u32,
    /// Steps of the skill trace: the bot at its budget halved 0, 1, … times against itself
    /// halved once more.
    pub skill_steps: u32,
}

/// Why a report cannot run.
#[derive(Debug, Error)]
pub enum ReportError {
    #[error("{0}")]
    Invalid(String),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("a game failed: {0}")]
    Game(#[from] boardlab_ai::AiError),
    #[error("interrupted: {done} of {total} games are saved; run the same command again to go on")]
    Interrupted { done: usize, total: usize },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ReportError + '_ {
    move |source| ReportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The bot a report uses unless told otherwise: the game's own choice
/// ([`boardlab_ai::knowledge::GameAi::REPORT_BOT`]), or the random bot for a game the bots do
/// not know. See `docs/analysis/README.md`.
#[must_use]
pub fn default_bot(kind: GameKind) -> &'static str {
    kind.report_defaults().map_or("random", |(bot, _)| bot)
}

/// Random plies at the start of each game unless told otherwise: the game's own choice
/// ([`boardlab_ai::knowledge::GameAi::REPORT_OPENING_PLIES`]), else 1.
#[must_use]
pub fn default_opening_plies(kind: GameKind) -> u32 {
    kind.report_defaults().map_or(1, |(_, plies)| plies)
}

/// One option set of a report: its label (`size=7,pie=true`, or `default`) and options.
#[derive(Clone, Debug)]
pub struct OptionSet {
    pub label: String,
    pub options: Options,
}

impl Definition {
    /// The game.
    ///
    /// # Errors
    /// An unknown game name.
    pub fn kind(&self) -> Result<GameKind, ReportError> {
        self.game
            .parse::<GameKind>()
            .map_err(|e| ReportError::Invalid(e.to_string()))
    }

    /// The bot.
    ///
    /// # Errors
    /// Text that is not a bot.
    pub fn bot_spec(&self) -> Result<BotSpec, ReportError> {
        self.bot
            .parse::<BotSpec>()
            .map_err(|e| ReportError::Invalid(e.to_string()))
    }

    /// Every option set: the options given, with each combination of the compared values.
    ///
    /// # Errors
    /// An unknown option or value, or a combination the game refuses.
    pub fn sets(&self) -> Result<Vec<OptionSet>, ReportError> {
        let kind = self.kind()?;
        let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for (key, values) in &self.compare {
            if values.is_empty() {
                return Err(ReportError::Invalid(format!(
                    "--compare {key}= needs at least one value"
                )));
            }
            if self.options.contains_key(key) {
                return Err(ReportError::Invalid(format!(
                    "'{key}' is both given (--option) and compared (--compare)"
                )));
            }
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push((key.clone(), v.clone()));
                        c
                    })
                })
                .collect();
        }
        let mut out = Vec::new();
        for combo in combos {
            let pairs: Vec<(String, String)> = self
                .options
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .chain(combo.iter().cloned())
                .collect();
            let options = kind
                .info()
                .options_from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                .map_err(|e| ReportError::Invalid(e.to_string()))?;
            let label = if combo.is_empty() && pairs.is_empty() {
                "default options".to_string()
            } else {
                (if combo.is_empty() { &pairs } else { &combo })
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            out.push(OptionSet { label, options });
        }
        Ok(out)
    }

    /// Every game of the report, in a fixed order: per set, the self-play games, then the
    /// skill games step by step.
    #[must_use]
    pub fn jobs(&self, sets: usize) -> Vec<(usize, Job)> {
        let mut out = Vec::new();
        for set in 0..sets {
            out.extend((0..self.games).map(|n| (set, Job::SelfPlay(n))));
            for step in 0..self.skill_steps {
                out.extend((0..self.skill_games).map(|n| (set, Job::Skill(step, n))));
            }
        }
        out
    }
}

/// A slice of the games: shard `index` (1-based) of `count` plays the games whose place in
/// [`Definition::jobs`] is `index - 1` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard '{s}': expected K/N with 1 ≤ K ≤ N, e.g. 2/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// How to run a report (what does not change its games).
#[derive(Debug)]
pub struct Run<'a> {
    pub out: PathBuf,
    pub threads: usize,
    pub shard: Option<Shard>,
    /// Set by another thread (Ctrl-C) to stop after the games being played.
    pub stop: &'a AtomicBool,
    /// The command line, recorded in the report.
    pub command: String,
}

/// One line of `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// A malformed line is reported as "expected struct Line", the word for a line of games.jsonl.
#[serde(expecting = "struct Line")]
pub struct GameLine {
    /// The option set's label.
    pub set: String,
    #[serde(flatten)]
    pub trace: Trace,
}

const CONFIG: &str = "config.json";
const GAMES: &str = "games.jsonl";

/// Plays the games of `def` not yet in `run.out` (those of its shard), calling `progress`
/// with (saved, total) after each; then, unless this is a shard, writes the report. Returns
/// the report (`None` for a shard).
///
/// # Errors
/// Bad settings, a folder holding another report, a failing game, a write error, or an
/// interruption (the games played so far are kept).
pub fn run(
    def: &Definition,
    run: &Run<'_>,
    mut progress: impl FnMut(usize, usize),
) -> Result<Option<Report>, ReportError> {
    let kind = def.kind()?;
    let sets = def.sets()?;
    let bot = def.bot_spec()?;
    if def.games == 0 && def.skill_games == 0 {
        return Err(ReportError::Invalid("there are no games to play".into()));
    }
    if def.skill_games > 0 && def.skill_steps > 0 {
        let resolved = kind.resolve(&bot)?;
        for step in 0..def.skill_steps {
            let strong = play::halved(&resolved, step).map_err(ReportError::Invalid)?;
            let weak = play::halved(&resolved, step + 1).map_err(ReportError::Invalid)?;
            if strong == weak {
                return Err(ReportError::Invalid(format!(
                    "the skill trace's step {} would play '{strong}' against itself: use fewer \
                     --skill-steps or a bot with an iteration or node budget",
                    step + 1
                )));
            }
        }
    }
    check_sets(kind, &sets)?;
    fs::create_dir_all(&run.out).map_err(io(&run.out))?;
    claim_folder(&run.out, def)?;
    let mut lines = read_lines(&run.out.join(GAMES), true)?;
    let done: BTreeSet<(String, Job)> =
        lines.iter().map(|l| (l.set.clone(), l.trace.job)).collect();
    let all = def.jobs(sets.len());
    let mine: Vec<(usize, Job)> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| run.shard.is_none_or(|s| *i as u32 % s.count == s.index - 1))
        .map(|(_, j)| *j)
        .collect();
    let total = mine.len();
    let todo: Vec<(usize, Job)> = mine
        .into_iter()
        .filter(|(set, job)| !done.contains(&(sets[*set].label.clone(), *job)))
        .collect();
    let mut saved = total - todo.len();
    progress(saved, total);
    let path = run.out.join(GAMES);
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io(&path))?;
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<GameLine, ReportError>>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..run.threads.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (todo, sets, next, failed, bot) = (&todo, &sets, &next, &failed, &bot);
            scope.spawn(move || loop {
                if run.stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                    return;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(set, job)) = todo.get(i) else {
                    return;
                };
                let setting = play::Setting {
                    options: sets[set].options.clone(),
                    bot: bot.clone(),
                    seed: def.seed,
                    max_plies: def.max_plies,
                    opening_plies: def.opening_plies,
                };
                let result = kind
                    .self_play(&setting, job)
                    .map(|trace| GameLine {
                        set: sets[set].label.clone(),
                        trace,
                    })
                    .map_err(ReportError::from);
                if result.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                if tx.send(result).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        for result in rx {
            match result {
                Ok(line) => {
                    let text = serde_json::to_string(&line).expect("a line serialises");
                    if let Err(e) = writeln!(file, "{text}").and_then(|()| file.flush()) {
                        failed.store(true, Ordering::Relaxed);
                        first_error.get_or_insert(ReportError::Io {
                            path: path.clone(),
                            source: e,
                        });
                        continue;
                    }
                    lines.push(line);
                    saved += 1;
                    progress(saved, total);
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    if saved < total {
        return Err(ReportError::Interrupted { done: saved, total });
    }
    if run.shard.is_some() {
        return Ok(None);
    }
    let report = summary::summarise(def, &sets, &lines, &run.command)?;
    write(&report, &run.out)?;
    Ok(Some(report))
}

/// Combines the folders of a report's shards into `out` and writes the whole report there.
///
/// # Errors
/// Folders of different reports, games missing from every shard, or read/write errors.
pub fn merge(dirs: &[PathBuf], out: &Path, command: &str) -> Result<Report, ReportError> {
    let Some(first) = dirs.first() else {
        return Err(ReportError::Invalid(
            "--merge needs at least one folder".into(),
        ));
    };
    let def = read_definition(first)?;
    let mut seen = BTreeSet::new();
    let mut lines = Vec::new();
    for dir in dirs {
        let other = read_definition(dir)?;
        if other != def {
            return Err(ReportError::Invalid(format!(
                "{} and {} hold reports of different settings",
                first.display(),
                dir.display()
            )));
        }
        for line in read_lines(&dir.join(GAMES), false)? {
            if seen.insert((line.set.clone(), line.trace.job)) {
                lines.push(line);
            }
        }
    }
    let sets = def.sets()?;
    let missing = def
        .jobs(sets.len())
        .iter()
        .filter(|(s, j)| !seen.contains(&(sets[*s].label.clone(), *j)))
        .count();
    if missing > 0 {
        return Err(ReportError::Invalid(format!(
            "{missing} of the report's {} games are in none of these folders: is a shard missing or unfinished?",
            def.jobs(sets.len()).len()
        )));
    }
    fs::create_dir_all(out).map_err(io(out))?;
    claim_folder(out, &def)?;
    let path = out.join(GAMES);
    let mut text = String::new();
    for line in &lines {
        text.push_str(&serde_json::to_string(line).expect("a line serialises"));
        text.push('\n');
    }
    fs::write(&path, text).map_err(io(&path))?;
    let report = summary::summarise(&def, &sets, &lines, command)?;
    write(&report, out)?;
    Ok(report)
}

/// Whether a report can play `options`: a game of two players.
fn check_set(kind: GameKind, options: &Options) -> Result<(), String> {
    let game = AnyGame::new(kind, options, 0).map_err(|e| e.to_string())?;
    if game.is_solitaire() {
        return Err("a puzzle has no second player to compare with".into());
    }
    Ok(())
}

fn check_sets(kind: GameKind, sets: &[OptionSet]) -> Result<(), ReportError> {
    for set in sets {
        check_set(kind, &set.options)
            .map_err(|e| ReportError::Invalid(format!("{}: {e}", set.label)))?;
    }
    Ok(())
}

fn read_definition(dir: &Path) -> Result<Definition, ReportError> {
    let path = dir.join(CONFIG);
    let text = fs::read_to_string(&path).map_err(io(&path))?;
    serde_json::from_str(&text).map_err(|e| {
        ReportError::Invalid(format!("{}: not a report's settings: {e}", path.display()))
    })
}

/// Writes `def` to the folder's `config.json`, or checks that the one there is the same.
fn claim_folder(dir: &Path, def: &Definition) -> Result<(), ReportError> {
    let path = dir.join(CONFIG);
    if path.exists() {
        let held = read_definition(dir)?;
        if &held != def {
            return Err(ReportError::Invalid(format!(
                "{} holds a report of other settings (see its {CONFIG}); use another folder",
                dir.display()
            )));
        }
        return Ok(());
    }
    let text = serde_json::to_string_pretty(def).expect("settings serialise");
    fs::write(&path, text + "\n").map_err(io(&path))
}

/// The lines of `games.jsonl` (none when it does not exist). A last line cut short by an
/// interruption is dropped, and with `repair` cut from the file; any other bad line is an
/// error.
fn read_lines(path: &Path, repair: bool) -> Result<Vec<GameLine>, ReportError> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(path)(e)),
    };
    let ends_with_newline = text.ends_with('\n');
    let raw: Vec<&str> = text.lines().collect();
    let mut lines = Vec::new();
    let mut good_bytes = 0u64;
    for (i, line) in raw.iter().enumerate() {
        let last = i + 1 == raw.len();
        match serde_json::from_str::<GameLine>(line) {
            Ok(parsed) if !last || ends_with_newline => {
                lines.push(parsed);
                good_bytes += line.len() as u64 + 1;
            }
            _ if last => {
                // Cut short while being written.
                if repair {
                    let f = fs::OpenOptions::new()
                        .write(true)
                        .open(path)
                        .map_err(io(path))?;
                    f.set_len(good_bytes).map_err(io(path))?;
                }
            }
            Ok(_) => unreachable!("only the last line can lack its newline"),
            Err(e) => {
                return Err(ReportError::Invalid(format!(
                    "{} line {}: {e}",
                    path.display(),
                    i + 1
                )))
            }
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_chooses_its_report_bot_and_opening() {
        let got: Vec<_> = GameKind::all()
            .iter()
            .map(|&k| (k.name(), default_bot(k), default_opening_plies(k)))
            .collect();
        assert_eq!(
            got,
            [
                ("sight-reduction", "mcts:plain,iterations=100", 1),
                ("obsidio", "mcts:iterations=1000", 1),
                ("opprimo", "alphabeta:nodes=2000", 4),
                ("assideum", "alphabeta:nodes=1600", 4),
            ]
        );
        for &k in GameKind::all() {
            assert!(default_bot(k).parse::<BotSpec>().is_ok(), "{k}");
        }
    }
}

//! From played games to the numbers of a report.

use crate::metrics::{self, wilson, PlyBand, Share, Spread};
use crate::play::{halved, Job};
use crate::{Definition, GameLine, OptionSet, ReportError};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A whole report: its settings and one section per option set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub game: String,
    /// The game's name as people write it.
    pub title: String,
    /// The version of boardlab that made it.
    pub version: String,
    /// The command that made it.
    pub command: String,
    /// The bot as given, and what it stands for in this game.
    pub bot: String,
    pub bot_resolved: String,
    pub definition: Definition,
    pub sets: Vec<SetReport>,
}

/// The numbers of one option set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetReport {
    pub label: String,
    pub options: BTreeMap<String, String>,
    /// Self-play games played, finished, and stopped at the ply cap.
    pub games: u32,
    pub finished: u32,
    pub unfinished: u32,
    /// Distinct games (move sequences) among them.
    pub distinct: u32,
    /// Shares of the finished games.
    pub first_wins: Share,
    pub second_wins: Share,
    pub draws: Share,
    /// The first seat's mean score over finished games (a draw counts ½).
    pub first_score: Share,
    /// 1 − |first seat's win share − second seat's win share|, over finished games.
    pub balance: f64,
    /// Finished games over all games.
    pub completion: Share,
    /// Length of finished games in plies.
    pub length: Spread,
    pub length_histogram: Histogram,
    /// Mean number of legal moves per game, spread over games.
    pub branching: Spread,
    pub branching_by_ply: Vec<PlyBand>,
    /// Share of the game played before the winner leads for good (decisive games only).
    pub decided_at: Spread,
    pub drama: Spread,
    pub lead_changes: Spread,
    pub instability: Spread,
    /// The first moves, most played first: games and the first seat's score after each.
    pub openings: Vec<Opening>,
    /// The pie rule, when the game offers it here.
    pub pie: Option<Pie>,
    /// The skill trace, one point per step.
    pub skill: Vec<SkillStep>,
    /// Speed of the self-play games.
    pub speed: Speed,
}

/// A histogram of equal bins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    pub low: f64,
    pub width: f64,
    pub counts: Vec<u32>,
}

/// A first move and how the games that began with it went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opening {
    pub first_move: String,
    pub games: u32,
    /// The first seat's score in them.
    pub first_score: Share,
}

/// How the pie rule was used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pie {
    /// Games in which the second seat swapped.
    pub swaps: Share,
    /// The first seat's score in games with and without a swap.
    pub first_score_swapped: Share,
    pub first_score_kept: Share,
}

/// One step of the skill trace: the bot at one budget against itself at half that budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkillStep {
    pub step: u32,
    pub stronger: String,
    pub weaker: String,
    pub games: u32,
    /// The stronger bot's score (draws ½).
    pub stronger_score: Share,
}

/// How fast the games were played.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Speed {
    /// Mean thinking time per self-play game, in seconds (one thread per game).
    pub seconds_per_game: f64,
    /// Self-play games per hour per core.
    pub games_per_hour_per_core: f64,
}

/// The report of `lines`, the games of `def`'s option sets `sets`.
///
/// # Errors
/// A bot that cannot be halved for the skill trace.
pub fn summarise(
    def: &Definition,
    sets: &[OptionSet],
    lines: &[GameLine],
    command: &str,
) -> Result<Report, ReportError> {
    let kind = def.kind()?;
    let bot = def.bot_spec()?;
    let resolved = kind.resolve(&bot).unwrap_or_else(|_| bot.clone());
    let mut out = Vec::new();
    for set in sets {
        let mut mine: Vec<&GameLine> = lines.iter().filter(|l| l.set == set.label).collect();
        mine.sort_by_key(|l| l.trace.job);
        out.push(set_report(def, set, &mine, &resolved)?);
    }
    Ok(Report {
        game: kind.name().to_string(),
        title: kind.info().title.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        command: command.to_string(),
        bot: def.bot.clone(),
        bot_resolved: resolved.to_string(),
        definition: def.clone(),
        sets: out,
    })
}

fn set_report(
    def: &Definition,
    set: &OptionSet,
    lines: &[&GameLine],
    bot: &boardlab_ai::BotSpec,
) -> Result<SetReport, ReportError> {
    let selfplay: Vec<&crate::Trace> = lines
        .iter()
        .map(|l| &l.trace)
        .filter(|t| matches!(t.job, Job::SelfPlay(_)))
        .collect();
    let games = selfplay.len() as u32;
    let finished: Vec<&&crate::Trace> = selfplay
        .iter()
        .filter(|t| t.first_score.is_some())
        .collect();
    let nf = finished.len() as u32;
    let score = |t: &crate::Trace| t.first_score.unwrap_or(0.5);
    let count = |f: &dyn Fn(f64) -> bool| finished.iter().filter(|t| f(score(t))).count() as f64;
    let w1 = count(&|s| s > 0.75);
    let w2 = count(&|s| s < 0.25);
    let draws = f64::from(nf) - w1 - w2;
    let score_sum: f64 = finished.iter().map(|t| score(t)).sum();
    let balance = if nf == 0 {
        0.0
    } else {
        1.0 - ((w1 - w2) / f64::from(nf)).abs()
    };
    let lengths: Vec<f64> = finished.iter().map(|t| t.moves.len() as f64).collect();
    let length = metrics::spread(&lengths);
    let bins = 20usize;
    let (lo, hi) = (
        length.min.floor(),
        length.max.ceil().max(length.min.floor() + 1.0),
    );
    let width = ((hi - lo) / bins as f64).ceil().max(1.0);
    let length_histogram = Histogram {
        low: lo,
        width,
        counts: metrics::histogram(&lengths, lo, lo + width * bins as f64, bins),
    };
    let mean_branching: Vec<f64> = selfplay
        .iter()
        .filter(|t| !t.branching.is_empty())
        .map(|t| t.branching.iter().map(|&b| f64::from(b)).sum::<f64>() / t.branching.len() as f64)
        .collect();
    let traces: Vec<&[u32]> = selfplay.iter().map(|t| t.branching.as_slice()).collect();
    let min_games = (games / 10).max(1);
    let decisive: Vec<&&&crate::Trace> = finished
        .iter()
        .filter(|t| (score(t) - 0.5).abs() > 0.25)
        .collect();
    let decided: Vec<f64> = decisive
        .iter()
        .filter_map(|t| metrics::decided_at(&t.values, score(t) > 0.5))
        .collect();
    let drama: Vec<f64> = decisive
        .iter()
        .filter(|t| !t.values.is_empty())
        .map(|t| metrics::drama(&t.values, score(t) > 0.5))
        .collect();
    let changes: Vec<f64> = finished
        .iter()
        .map(|t| f64::from(metrics::lead_changes(&t.values)))
        .collect();
    let instability: Vec<f64> = finished
        .iter()
        .map(|t| metrics::instability(&t.values))
        .collect();
    let distinct = selfplay
        .iter()
        .map(|t| t.moves.join(" "))
        .collect::<BTreeSet<_>>()
        .len() as u32;
    // Openings: the first move of finished games.
    let mut by_move: BTreeMap<&str, (u32, f64)> = BTreeMap::new();
    for t in &finished {
        if let Some(m) = t.moves.first() {
            let e = by_move.entry(m.as_str()).or_default();
            e.0 += 1;
            e.1 += score(t);
        }
    }
    let mut openings: Vec<Opening> = by_move
        .into_iter()
        .map(|(m, (n, s))| Opening {
            first_move: m.to_string(),
            games: n,
            first_score: wilson(s, n),
        })
        .collect();
    openings.sort_by(|a, b| {
        b.games
            .cmp(&a.games)
            .then(b.first_score.share.total_cmp(&a.first_score.share))
    });
    openings.truncate(12);
    let pie_offered = set.options.iter().any(|(k, v)| k == "pie" && v == "true");
    let pie = (pie_offered || selfplay.iter().any(|t| t.swapped)).then(|| {
        let swapped: Vec<&&&crate::Trace> = finished.iter().filter(|t| t.swapped).collect();
        let kept: Vec<&&&crate::Trace> = finished.iter().filter(|t| !t.swapped).collect();
        let sum = |v: &[&&&crate::Trace]| v.iter().map(|t| score(t)).sum::<f64>();
        Pie {
            swaps: wilson(selfplay.iter().filter(|t| t.swapped).count() as f64, games),
            first_score_swapped: wilson(sum(&swapped), swapped.len() as u32),
            first_score_kept: wilson(sum(&kept), kept.len() as u32),
        }
    });
    let mut skill = Vec::new();
    for step in 0..def.skill_steps {
        let played: Vec<&crate::Trace> = lines
            .iter()
            .map(|l| &l.trace)
            .filter(|t| matches!(t.job, Job::Skill(s, _) if s == step))
            .collect();
        if played.is_empty() {
            continue;
        }
        let stronger_score: f64 = played
            .iter()
            .map(|t| {
                let first = t.first_score.unwrap_or(0.5);
                if t.stronger_first == Some(true) {
                    first
                } else {
                    1.0 - first
                }
            })
            .sum();
        skill.push(SkillStep {
            step,
            stronger: halved(bot, step).map_err(ReportError::Invalid)?.to_string(),
            weaker: halved(bot, step + 1)
                .map_err(ReportError::Invalid)?
                .to_string(),
            games: played.len() as u32,
            stronger_score: wilson(stronger_score, played.len() as u32),
        });
    }
    let seconds: f64 =
        selfplay.iter().map(|t| t.ms as f64 / 1000.0).sum::<f64>() / f64::from(games.max(1));
    Ok(SetReport {
        label: set.label.clone(),
        options: set.options.to_map(),
        games,
        finished: nf,
        unfinished: games - nf,
        distinct,
        first_wins: wilson(w1, nf),
        second_wins: wilson(w2, nf),
        draws: wilson(draws, nf),
        first_score: wilson(score_sum, nf),
        balance,
        completion: wilson(f64::from(nf), games),
        length,
        length_histogram,
        branching: metrics::spread(&mean_branching),
        branching_by_ply: metrics::branching_by_ply(&traces, min_games),
        decided_at: metrics::spread(&decided),
        drama: metrics::spread(&drama),
        lead_changes: metrics::spread(&changes),
        instability: metrics::spread(&instability),
        openings,
        pie,
        skill,
        speed: Speed {
            seconds_per_game: seconds,
            games_per_hour_per_core: if seconds > 0.0 { 3600.0 / seconds } else { 0.0 },
        },
    })
}

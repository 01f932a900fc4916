//! Bot specifications as text: `random`, `mcts:time=200ms`, `mcts:iterations=20000,c=1.4`,
//! `mcts:plain`, `alphabeta:depth=6`, `best:time=200ms`, `level:N`, `ugi:COMMAND`.
//!
//! A spec is a kind, optionally followed by `:` and comma-separated items, each `key=value`
//! or a flag word. Input is case-insensitive; [`BotSpec`]'s `Display` writes the canonical form
//! (only the settings that differ from the kind's defaults, in a fixed order), which parses back
//! to the same spec.
//!
//! `ugi:COMMAND` is the exception: after `ugi:` comes a command line, split like a shell does
//! (quotes and backslashes; no variables or globs), whose case is kept. Leading words
//! `time=T` set the time per move; the rest is the program and its arguments:
//! `ugi:time=200ms ./engine --ugi`.

use crate::AiError;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The accepted spec forms, for error messages and help texts.
pub const ACCEPTED: &str = "random | mcts[:plain][,time=200ms][,iterations=N][,c=F][,threads=N]\
[,solver=B][,reuse=B][,policy=B][,exact=B][,rollout=full|N][,rave=N][,widen=N] | \
alphabeta[:depth=N][,time=1s][,nodes=N][,threads=N][,qsearch=B][,exact=B][,lmr=B][,extend=B] | best[:time=1s][,threads=N] | \
level:N (N = 1..10) | ugi:[time=T ]COMMAND [ARGUMENTS…]";

/// The exploration constant of `mcts` when none is given.
pub const DEFAULT_C: f64 = 0.7;

/// The budget of a search with no budget given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// The strongest level.
pub const MAX_LEVEL: u8 = 10;

/// How MCTS estimates a new leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rollout {
    /// The game's own choice (full playouts, or a short playout then the evaluation).
    Auto,
    /// Play to the end of the game.
    Full,
    /// Play at most N plies, then use the evaluation (0: evaluate the leaf at once).
    Cutoff(u32),
}

/// Monte Carlo tree search settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsSpec {
    /// Time per move.
    pub time: Option<Duration>,
    /// Iterations per move (all threads together).
    pub iterations: Option<u64>,
    /// UCT exploration constant (rewards are in 0..1).
    pub c: f64,
    /// Search threads; 0 means one per core.
    pub threads: u32,
    /// MCTS-solver: proven wins and losses are propagated and chosen or avoided.
    pub solver: bool,
    /// Keep the subtree of the position reached between moves.
    pub reuse: bool,
    /// The game's playout policy (with decisive-move checks) instead of uniform random moves.
    pub policy: bool,
    /// Exact endgame search where the game has one (Sight Reduction).
    pub exact: bool,
    /// How leaves are estimated.
    pub rollout: Rollout,
    /// RAVE (all-moves-as-first) equivalence parameter: 0 turns RAVE off, `None` leaves it
    /// to the game.
    pub rave: Option<u32>,
    /// Progressive widening: a node with n visits considers only its first `widen + √n`
    /// children in the game's priority order; 0 turns it off, `None` leaves it to the game.
    pub widen: Option<u32>,
    /// Written as `mcts:plain…`: settings are shown relative to the plain baseline.
    pub plain: bool,
}

impl MctsSpec {
    /// The default strong settings with no budget.
    pub const DEFAULT: MctsSpec = MctsSpec {
        time: None,
        iterations: None,
        c: DEFAULT_C,
        threads: 1,
        solver: true,
        reuse: true,
        policy: true,
        exact: true,
        rollout: Rollout::Auto,
        rave: None,
        widen: None,
        plain: false,
    };

    /// The baseline `mcts:plain`: UCT with uniform random playouts, c = √2, no solver, no tree
    /// reuse, no playout policy, no exact endgames, one thread.
    pub const PLAIN: MctsSpec = MctsSpec {
        time: None,
        iterations: None,
        c: std::f64::consts::SQRT_2,
        threads: 1,
        solver: false,
        reuse: false,
        policy: false,
        exact: false,
        rollout: Rollout::Full,
        rave: Some(0),
        widen: Some(0),
        plain: true,
    };
}

/// Alpha-beta settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaSpec {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Time per move.
    pub time: Option<Duration>,
    /// Node budget per move.
    pub nodes: Option<u64>,
    /// Quiescence search on tactical moves where the game defines them.
    pub qsearch: bool,
    /// Exact endgame search where the game has one (Sight Reduction).
    pub exact: bool,
    /// Late-move reductions: quiet moves late in the order are searched shallower first and
    /// searched again at full depth only when they look better than the best so far.
    pub lmr: bool,
    /// Check extensions: a position where the seat to move must answer a threat to end the
    /// game (assideum's siege) is searched one ply deeper.
    pub extend: bool,
    /// Search threads sharing one transposition table (lazy SMP); 0 means one per core. A
    /// node budget counts the nodes of all threads together; only one thread is reproducible.
    pub threads: u32,
}

impl AlphaBetaSpec {
    /// The default settings with no budget.
    pub const DEFAULT: AlphaBetaSpec = AlphaBetaSpec {
        depth: None,
        time: None,
        nodes: None,
        qsearch: true,
        exact: true,
        lmr: true,
        extend: true,
        threads: 1,
    };
}

/// The strongest configuration for each game, at a given time per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestSpec {
    /// Time per move (default 1 s).
    pub time: Option<Duration>,
    /// Search threads; 0 means one per core.
    pub threads: u32,
}

/// An outside engine speaking UGI: the command that starts it and the time it gets per move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UgiSpec {
    /// The program and its arguments (never empty).
    pub command: Vec<String>,
    /// Time per move (`go movetime`); `None` means [`DEFAULT_TIME`].
    pub time: Option<Duration>,
}

impl UgiSpec {
    /// The time per move the engine is given.
    #[must_use]
    pub fn move_time(&self) -> Duration {
        self.time.unwrap_or(DEFAULT_TIME)
    }

    /// The command line as one string, quoted like a shell would need it.
    #[must_use]
    pub fn command_line(&self) -> String {
        shlex::try_join(self.command.iter().map(String::as_str))
            .unwrap_or_else(|_| self.command.join(" "))
    }

    /// Reads what follows `ugi:`: leading `time=T` words, then the command.
    fn parse(text: &str, rest: &str) -> Result<UgiSpec, AiError> {
        let err = |reason: String| spec_error(text, reason);
        let words = shlex::split(rest).ok_or_else(|| {
            err("the command has an unfinished quote or a trailing backslash".into())
        })?;
        let mut time = None;
        let mut words = words.into_iter().peekable();
        while let Some(w) = words.peek() {
            let Some((key, value)) = w.split_once('=') else {
                break;
            };
            if !key.eq_ignore_ascii_case("time") {
                break;
            }
            time = Some(parse_duration(value).map_err(err)?);
            words.next();
        }
        let command: Vec<String> = words.collect();
        if command.is_empty() {
            return Err(err(
                "ugi needs the command that starts the engine: ugi:'./engine --ugi'".into(),
            ));
        }
        Ok(UgiSpec { command, time })
    }
}

/// A bot described as text. See the [module docs](self).
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// Uniformly random legal moves.
    Random,
    /// Monte Carlo tree search.
    Mcts(MctsSpec),
    /// Iterative-deepening alpha-beta with the game's evaluation.
    AlphaBeta(AlphaBetaSpec),
    /// The strongest bot for the game at this budget.
    Best(BestSpec),
    /// A strength level 1..=10 (see [`crate::levels`]).
    Level(u8),
    /// An outside engine run as a child process, speaking UGI (see [`crate::ugi`]).
    Ugi(UgiSpec),
}

impl BotSpec {
    /// The baseline `mcts:plain` with a time per move.
    #[must_use]
    pub fn plain(time: Duration) -> BotSpec {
        BotSpec::Mcts(MctsSpec {
            time: Some(time),
            ..MctsSpec::PLAIN
        })
    }

    /// A typical upper bound on the time one move takes with this spec (for time limits in
    /// servers): the time budget plus a margin, or a rough estimate for iteration and depth
    /// budgets.
    #[must_use]
    pub fn time_hint(&self) -> Duration {
        let with_margin = |t: Duration| t + t / 10 + Duration::from_millis(50);
        match self {
            BotSpec::Random => Duration::from_millis(10),
            BotSpec::Mcts(m) => match (m.time, m.iterations) {
                (Some(t), _) => with_margin(t),
                // About 10 000 iterations per second in the slowest game, one thread.
                (None, Some(n)) => with_margin(Duration::from_micros(n.saturating_mul(100))),
                (None, None) => with_margin(DEFAULT_TIME),
            },
            BotSpec::AlphaBeta(a) => match (a.time, a.depth, a.nodes) {
                (Some(t), _, _) => with_margin(t),
                (None, _, Some(n)) => with_margin(Duration::from_micros(n.saturating_mul(5))),
                (None, Some(d), None) => {
                    with_margin(Duration::from_millis(3u64.saturating_pow(d).min(60_000)))
                }
                (None, None, None) => with_margin(DEFAULT_TIME),
            },
            BotSpec::Best(b) => with_margin(b.time.unwrap_or(DEFAULT_TIME)),
            BotSpec::Level(n) => with_margin(level_time_hint(*n)),
            // Starting the program and its hand-shake come on top of the time per move.
            BotSpec::Ugi(u) => with_margin(u.move_time()) + Duration::from_millis(200),
        }
    }
}

/// Formats a duration as `2s`, `200ms` or `1500us`.
#[must_use]
pub fn format_duration(d: Duration) -> String {
    let us = d.as_micros();
    if us % 1_000_000 == 0 {
        format!("{}s", us / 1_000_000)
    } else if us % 1000 == 0 {
        format!("{}ms", us / 1000)
    } else {
        format!("{us}us")
    }
}

/// Parses `200ms`, `1.5s`, `2s`, `500us` (a unit is required; at most one hour).
///
/// # Errors
/// A message naming the accepted forms.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim().to_ascii_lowercase();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix("us") {
        (n, 1e-6)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else {
        return Err(format!(
            "time '{text}' needs a unit: e.g. 200ms, 1.5s, 500us"
        ));
    };
    let value: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("time '{text}' is not a number with a unit (200ms, 1.5s, 500us)"))?;
    let secs = value * scale;
    if !(secs.is_finite() && secs > 0.0 && secs <= 3600.0) {
        return Err(format!(
            "time '{text}' must be more than 0 and at most one hour"
        ));
    }
    let us = (secs * 1e6).round() as u64;
    if us == 0 {
        return Err(format!("time '{text}' is shorter than a microsecond"));
    }
    Ok(Duration::from_micros(us))
}

fn parse_bool(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(format!("{key}={value}: expected true or false")),
    }
}

fn parse_count(key: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    match value.replace('_', "").parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{key}={value}: expected a whole number from {min} to {max}"
        )),
    }
}

fn spec_error(text: &str, reason: impl Into<String>) -> AiError {
    AiError::Spec {
        text: text.to_string(),
        reason: reason.into(),
    }
}

impl FromStr for BotSpec {
    type Err = AiError;

    fn from_str(text: &str) -> Result<Self, AiError> {
        // An engine's command keeps its case, so it is read before anything is lower-cased.
        let trimmed = text.trim();
        if let Some(head) = trimmed.get(..4) {
            if head.eq_ignore_ascii_case("ugi:") {
                return UgiSpec::parse(text, &trimmed[4..]).map(BotSpec::Ugi);
            }
        }
        let lower = trimmed.to_ascii_lowercase();
        let (kind, rest) = match lower.split_once(':') {
            Some((k, r)) => (k.trim(), Some(r.trim())),
            None => (lower.as_str(), None),
        };
        let items: Vec<&str> = rest
            .map(|r| {
                r.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        if rest.is_some() && items.is_empty() {
            return Err(spec_error(text, "nothing after ':'"));
        }
        let err = |reason: String| spec_error(text, reason);
        match kind {
            "random" => {
                if items.is_empty() {
                    Ok(BotSpec::Random)
                } else {
                    Err(err("random takes no settings".into()))
                }
            }
            "level" => {
                let [n] = items.as_slice() else {
                    return Err(err(format!(
                        "level needs one number, 1 to {MAX_LEVEL}: level:5"
                    )));
                };
                let n = parse_count("level", n, 1, u64::from(MAX_LEVEL)).map_err(err)?;
                Ok(BotSpec::Level(n as u8))
            }
            "mcts" => MctsSpec::from_items(&items).map(BotSpec::Mcts).map_err(err),
            "alphabeta" | "ab" => AlphaBetaSpec::from_items(&items)
                .map(BotSpec::AlphaBeta)
                .map_err(err),
            "best" => BestSpec::from_items(&items).map(BotSpec::Best).map_err(err),
            "ugi" => Err(err(
                "ugi needs the command that starts the engine: ugi:'./engine --ugi'".into(),
            )),
            "" => Err(err("empty bot spec".into())),
            other => Err(err(format!("unknown bot kind '{other}'"))),
        }
    }
}

/// A setting `key=value` of a spec, trimmed.
fn key_value(item: &str) -> Result<(&str, &str), String> {
    let (key, value) = item
        .split_once('=')
        .ok_or_else(|| format!("'{item}' is not key=value"))?;
    Ok((key.trim(), value.trim()))
}

/// A count that may be `auto` (`None`) or `off`/`false` (0).
fn auto_or_count(key: &str, value: &str) -> Result<Option<u32>, String> {
    Ok(match value {
        "auto" => None,
        "false" | "off" => Some(0),
        n => Some(
            parse_count(key, n, 0, 1_000_000)
                .map_err(|_| format!("{key}={n}: expected auto, off or a number (0 = off)"))?
                as u32,
        ),
    })
}

impl MctsSpec {
    /// The settings after `mcts:` (`plain` first, then `key=value`s).
    fn from_items(items: &[&str]) -> Result<MctsSpec, String> {
        let mut m = MctsSpec::DEFAULT;
        let mut seen_setting = false;
        for item in items {
            if *item == "plain" {
                if seen_setting {
                    return Err("'plain' must come first: mcts:plain,time=200ms".into());
                }
                m = MctsSpec::PLAIN;
                continue;
            }
            seen_setting = true;
            let (key, value) = key_value(item)?;
            m.set(key, value)?;
        }
        Ok(m)
    }

    /// One `key=value` setting.
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "time" => self.time = Some(parse_duration(value)?),
            "iterations" | "iters" => {
                self.iterations = Some(parse_count(key, value, 1, 1_000_000_000_000)?);
            }
            "c" => match value.parse::<f64>() {
                Ok(c) if c.is_finite() && (0.0..=100.0).contains(&c) => self.c = c,
                _ => return Err(format!("c={value}: expected a number from 0 to 100")),
            },
            "threads" => self.threads = parse_count(key, value, 0, 256)? as u32,
            "solver" => self.solver = parse_bool(key, value)?,
            "reuse" => self.reuse = parse_bool(key, value)?,
            "policy" => self.policy = parse_bool(key, value)?,
            "exact" => self.exact = parse_bool(key, value)?,
            "rave" => self.rave = auto_or_count(key, value)?,
            "widen" => self.widen = auto_or_count(key, value)?,
            "rollout" => {
                self.rollout = match value {
                    "full" => Rollout::Full,
                    "auto" => Rollout::Auto,
                    n => Rollout::Cutoff(parse_count(key, n, 0, 10_000).map_err(|_| {
                        format!("rollout={n}: expected full, auto or a number of plies")
                    })? as u32),
                }
            }
            _ => {
                return Err(format!(
                    "unknown mcts setting '{key}'; mcts takes time, iterations, c, threads, solver, reuse, policy, exact, rollout, rave, widen"
                ))
            }
        }
        Ok(())
    }
}

impl AlphaBetaSpec {
    /// The settings after `alphabeta:`.
    fn from_items(items: &[&str]) -> Result<AlphaBetaSpec, String> {
        let mut a = AlphaBetaSpec::DEFAULT;
        for item in items {
            let (key, value) = key_value(item)?;
            match key {
                "depth" => a.depth = Some(parse_count(key, value, 1, 100)? as u32),
                "time" => a.time = Some(parse_duration(value)?),
                "nodes" => a.nodes = Some(parse_count(key, value, 1, 1_000_000_000_000)?),
                "qsearch" => a.qsearch = parse_bool(key, value)?,
                "exact" => a.exact = parse_bool(key, value)?,
                "lmr" => a.lmr = parse_bool(key, value)?,
                "extend" => a.extend = parse_bool(key, value)?,
                "threads" => a.threads = parse_count(key, value, 0, 256)? as u32,
                _ => {
                    return Err(format!(
                        "unknown alphabeta setting '{key}'; alphabeta takes depth, time, nodes, threads, qsearch, exact, lmr, extend"
                    ))
                }
            }
        }
        Ok(a)
    }
}

impl BestSpec {
    /// The settings after `best:`.
    fn from_items(items: &[&str]) -> Result<BestSpec, String> {
        let mut b = BestSpec {
            time: None,
            threads: 1,
        };
        for item in items {
            let (key, value) = key_value(item)?;
            match key {
                "time" => b.time = Some(parse_duration(value)?),
                "threads" => b.threads = parse_count(key, value, 0, 256)? as u32,
                _ => {
                    return Err(format!(
                        "unknown best setting '{key}'; best takes time, threads"
                    ))
                }
            }
        }
        Ok(b)
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items: Vec<String> = Vec::new();
        let kind = match self {
            BotSpec::Random => "random",
            BotSpec::Level(n) => return write!(f, "level:{n}"),
            BotSpec::Ugi(u) => {
                f.write_str("ugi:")?;
                if let Some(t) = u.time {
                    write!(f, "time={} ", format_duration(t))?;
                }
                return f.write_str(&u.command_line());
            }
            BotSpec::Mcts(m) => {
                let base = if m.plain {
                    items.push("plain".into());
                    MctsSpec::PLAIN
                } else {
                    MctsSpec::DEFAULT
                };
                if let Some(t) = m.time {
                    items.push(format!("time={}", format_duration(t)));
                }
                if let Some(n) = m.iterations {
                    items.push(format!("iterations={n}"));
                }
                if m.c != base.c {
                    items.push(format!("c={}", m.c));
                }
                if m.threads != base.threads {
                    items.push(format!("threads={}", m.threads));
                }
                for (key, value, default) in [
                    ("solver", m.solver, base.solver),
                    ("reuse", m.reuse, base.reuse),
                    ("policy", m.policy, base.policy),
                    ("exact", m.exact, base.exact),
                ] {
                    if value != default {
                        items.push(format!("{key}={value}"));
                    }
                }
                if m.rollout != base.rollout {
                    items.push(match m.rollout {
                        Rollout::Auto => "rollout=auto".into(),
                        Rollout::Full => "rollout=full".into(),
                        Rollout::Cutoff(n) => format!("rollout={n}"),
                    });
                }
                if m.widen != base.widen {
                    items.push(match m.widen {
                        None => "widen=auto".into(),
                        Some(n) => format!("widen={n}"),
                    });
                }
                if m.rave != base.rave {
                    items.push(match m.rave {
                        None => "rave=auto".into(),
                        Some(n) => format!("rave={n}"),
                    });
                }
                "mcts"
            }
            BotSpec::AlphaBeta(a) => {
                let base = AlphaBetaSpec::DEFAULT;
                if let Some(d) = a.depth {
                    items.push(format!("depth={d}"));
                }
                if let Some(t) = a.time {
                    items.push(format!("time={}", format_duration(t)));
                }
                if let Some(n) = a.nodes {
                    items.push(format!("nodes={n}"));
                }
                if a.threads != base.threads {
                    items.push(format!("threads={}", a.threads));
                }
                if a.qsearch != base.qsearch {
                    items.push(format!("qsearch={}", a.qsearch));
                }
                if a.exact != base.exact {
                    items.push(format!("exact={}", a.exact));
                }
                if a.lmr != base.lmr {
                    items.push(format!("lmr={}", a.lmr));
                }
                if a.extend != base.extend {
                    items.push(format!("extend={}", a.extend));
                }
                "alphabeta"
            }
            BotSpec::Best(b) => {
                if let Some(t) = b.time {
                    items.push(format!("time={}", format_duration(t)));
                }
                if b.threads != 1 {
                    items.push(format!("threads={}", b.threads));
                }
                "best"
            }
        };
        f.write_str(kind)?;
        if !items.is_empty() {
            write!(f, ":{}", items.join(","))?;
        }
        Ok(())
    }
}

/// An upper bound on the typical time per move of `level:n` in any game (every game's level
/// table keeps within it on an idle machine).
fn level_time_hint(n: u8) -> Duration {
    Duration::from_millis(match n {
        0..=4 => 100,
        5 => 250,
        6 => 600,
        7 => 100,
        8 => 300,
        9 => 1000,
        _ => 3000,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        let spec: BotSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let shown = spec.to_string();
        assert_eq!(shown.parse::<BotSpec>().unwrap(), spec, "{text} -> {shown}");
        shown
    }

    #[test]
    fn issue_examples_parse_and_round_trip() {
        assert_eq!(round_trip("random"), "random");
        assert_eq!(round_trip("mcts:time=200ms"), "mcts:time=200ms");
        assert_eq!(
            round_trip("mcts:iterations=20000,c=1.4"),
            "mcts:iterations=20000,c=1.4"
        );
        assert_eq!(round_trip("mcts:plain"), "mcts:plain");
        assert_eq!(round_trip("alphabeta:depth=6"), "alphabeta:depth=6");
        for n in 1..=10 {
            assert_eq!(round_trip(&format!("level:{n}")), format!("level:{n}"));
        }
    }

    #[test]
    fn canonical_form_is_lower_case_and_minimal() {
        assert_eq!(round_trip("MCTS:Time=0.2s"), "mcts:time=200ms");
        assert_eq!(round_trip("mcts:plain,time=1.5s"), "mcts:plain,time=1500ms");
        assert_eq!(round_trip("mcts:c=0.7,solver=true"), "mcts");
        assert_eq!(
            round_trip("mcts:plain,solver=true,rollout=10"),
            "mcts:plain,solver=true,rollout=10"
        );
        assert_eq!(
            round_trip("mcts:threads=0,reuse=false,policy=false,exact=no,rollout=full"),
            "mcts:threads=0,reuse=false,policy=false,exact=false,rollout=full"
        );
        assert_eq!(
            round_trip("ab:time=1s,depth=4"),
            "alphabeta:depth=4,time=1s"
        );
        assert_eq!(
            round_trip("alphabeta:lmr=no,lmr=yes,qsearch=off"),
            "alphabeta:qsearch=false"
        );
        assert_eq!(
            round_trip("alphabeta:extend=no,lmr=0"),
            "alphabeta:lmr=false,extend=false"
        );
        assert_eq!(
            round_trip("alphabeta:threads=0,time=3s,threads=2"),
            "alphabeta:time=3s,threads=2"
        );
        assert_eq!(
            round_trip("best:time=200ms,threads=2"),
            "best:time=200ms,threads=2"
        );
        assert_eq!(round_trip("mcts:time=250us"), "mcts:time=250us");
        assert_eq!(round_trip("mcts:rave=300"), "mcts:rave=300");
        assert_eq!(round_trip("mcts:rave=300,widen=8"), "mcts:widen=8,rave=300");
        assert_eq!(round_trip("mcts:rave=off"), "mcts:rave=0");
        assert_eq!(round_trip("mcts:plain,rave=auto"), "mcts:plain,rave=auto");
    }

    #[test]
    fn bad_specs_name_the_problem_and_the_accepted_forms() {
        for (text, needle) in [
            ("", "empty"),
            ("minimax", "unknown bot kind"),
            ("level:0", "1 to 10"),
            ("level:11", "1 to 10"),
            ("level", "level needs one number"),
            ("mcts:time=200", "needs a unit"),
            ("mcts:time=-1s", "more than 0"),
            ("mcts:c=abc", "c=abc"),
            ("mcts:depth=3", "unknown mcts setting"),
            ("mcts:time=1s,plain", "must come first"),
            ("alphabeta:depth=0", "depth=0"),
            ("random:time=1s", "no settings"),
            ("mcts:", "nothing after"),
            ("mcts:solver=maybe", "true or false"),
        ] {
            let e = text.parse::<BotSpec>().unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
            assert!(e.contains("accepted:"), "{text}: {e}");
        }
    }

    #[test]
    fn ugi_specs_keep_the_command_and_round_trip() {
        let spec: BotSpec = "UGI:time=200ms ./My\\ Engine 'two words' --Flag"
            .parse()
            .unwrap();
        let BotSpec::Ugi(u) = &spec else {
            panic!("{spec:?}")
        };
        assert_eq!(u.command, ["./My Engine", "two words", "--Flag"]);
        assert_eq!(u.time, Some(Duration::from_millis(200)));
        assert_eq!(
            round_trip("ugi:time=200ms ./My\\ Engine 'two words' --Flag"),
            "ugi:time=200ms './My Engine' 'two words' --Flag"
        );
        assert_eq!(round_trip("ugi:boardlab ugi"), "ugi:boardlab ugi");
        assert!(spec.time_hint() >= Duration::from_millis(200));
        for (text, needle) in [
            ("ugi", "needs the command"),
            ("ugi:", "needs the command"),
            ("ugi:time=1s", "needs the command"),
            ("ugi:time=1 engine", "needs a unit"),
            ("ugi:'engine", "unfinished quote"),
        ] {
            let e = text.parse::<BotSpec>().unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn time_hints_cover_the_budget() {
        let s: BotSpec = "mcts:time=200ms".parse().unwrap();
        assert!(s.time_hint() >= Duration::from_millis(200));
        assert!(BotSpec::Random.time_hint() < Duration::from_secs(1));
        for n in 1..=MAX_LEVEL {
            assert!(BotSpec::Level(n).time_hint() <= Duration::from_secs(30));
        }
    }
}

//! boardlab as an engine speaking UGI: [`serve`] reads commands from any input and writes
//! answers to any output (`boardlab ugi` wires standard input and output).
//!
//! UGI (the Universal Game Interface) is UCI, the chess engine protocol, for any game, plus
//! `query`. Commands come one per line; answers and search reports go to the output.
//! Searches run on a thread of their own, so `stop`, `isready`, `query` and `quit` are
//! answered while one runs. A command that cannot be carried out is answered with
//! `info string error: …` and changes nothing. `docs/ugi.md` is the reference.

use super::{move_token, score_text, token_notation};
use crate::capabilities::Capabilities;
use crate::spec::BestSpec;
use crate::{Bot, BotSpec};
use boardlab_core::GameInfo;
use boardlab_core::NewGameError;
use boardlab_core::{split_moves, Game, OptionValues, Options, Seat, Wdl};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Time kept back from every move for reading and writing the protocol.
const MOVE_OVERHEAD: Duration = Duration::from_millis(20);

/// Moves still to play assumed by the time management when `movestogo` is not given.
const MOVES_TO_GO: u64 = 25;

/// The longest search: what `go infinite` asks of a bot, ended by `stop`.
const INFINITE: Duration = Duration::from_secs(3600);

/// The largest alpha-beta table, in MiB (the `Hash` option's maximum).
const MAX_HASH_MB: u32 = 64;

const COMMANDS: &str = "ugi, isready, setoption, uginewgame, position, go, stop, query, quit";

/// Why the engine stopped before `quit` or the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The input or the output failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A game could not be set up with its default options.
    #[error(transparent)]
    Game(#[from] NewGameError),
}

type Result<T, E = ServeError> = std::result::Result<T, E>;

/// Runs the engine until `quit` or the end of `input`, answering on `output`. With `fixed`,
/// the engine plays that game only; without it, the option `Game` chooses (the first game
/// of the list by default).
///
/// # Errors
/// The input or output failed.
pub fn serve(
    games: &[&'static dyn UgiGame],
    fixed: Option<&'static dyn UgiGame>,
    input: &mut dyn BufRead,
    output: Box<dyn Write + Send>,
) -> Result<()> {
    let out = Out(Arc::new(Mutex::new(output)));
    let Some(&first) = games.first() else {
        return Ok(());
    };
    let mut kind = fixed.unwrap_or(first);
    let mut settings = Settings::default();
    loop {
        let session = UgiSession {
            games,
            fixed,
            settings: &mut settings,
            input: &mut *input,
            out: &out,
        };
        match kind.session(session)? {
            Next::Quit => return Ok(()),
            Next::Switch(k) => kind = k,
        }
    }
}

/// A game the engine can serve: its facts, and a session with it (made once for every game by
/// `boardlab_ai::dynamic`, [`crate::DynKind::ugi`]).
pub trait UgiGame: Sync {
    /// The game's facts and options.
    fn info(&self) -> &'static GameInfo;
    /// Serves commands with this game until `quit`, the end of the input, or another game.
    ///
    /// # Errors
    /// The input or output failed.
    #[doc(hidden)]
    fn session(&self, session: UgiSession<'_>) -> Result<Next>;
}

/// The game of `games` named `name` (see [`GameInfo::is_named`]).
fn find_game(games: &[&'static dyn UgiGame], name: &str) -> Result<&'static dyn UgiGame, String> {
    games
        .iter()
        .copied()
        .find(|k| k.info().is_named(name))
        .ok_or_else(|| {
            let names: Vec<&str> = games.iter().map(|k| k.info().name).collect();
            format!("unknown game '{name}'; accepted: {}", names.join(", "))
        })
}

/// The output, shared with the search thread: one line at a time.
#[derive(Clone)]
struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Writes one line at once (search threads write too) and flushes it.
    fn say(&self, line: &str) -> std::io::Result<()> {
        let mut out = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        writeln!(out, "{line}")?;
        out.flush()
    }
}

fn error_line(message: &str) -> String {
    format!("info string error: {message}")
}

/// The engine's own options, kept when the game changes.
#[derive(Debug, Clone)]
struct Settings {
    bot: BotSpec,
    threads: u32,
    /// 0: the table size the budget suggests.
    hash_mb: u32,
    seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            bot: BotSpec::Best(BestSpec {
                time: None,
                threads: 1,
            }),
            threads: 1,
            hash_mb: 0,
            seed: 0,
        }
    }
}

/// What to do after a session with one game.
#[doc(hidden)]
#[allow(missing_debug_implementations)]
pub enum Next {
    Quit,
    Switch(&'static dyn UgiGame),
}

/// One session of the engine with one game ([`UgiGame::session`]).
#[doc(hidden)]
#[allow(missing_debug_implementations)]
pub struct UgiSession<'a> {
    games: &'a [&'static dyn UgiGame],
    fixed: Option<&'static dyn UgiGame>,
    settings: &'a mut Settings,
    input: &'a mut dyn BufRead,
    out: &'a Out,
}

impl UgiSession<'_> {
    /// Serves commands with game `G` until `quit`, the end of the input, or another game.
    pub fn run<G: Capabilities>(self) -> Result<Next> {
        let options = G::info().default_options();
        let start = G::new(&options, self.settings.seed)?;
        let mut engine = Engine::<G> {
            games: self.games,
            fixed: self.fixed,
            settings: self.settings,
            options,
            game: start.clone(),
            start,
            line: Vec::new(),
            bot: None,
            running: None,
            out: self.out.clone(),
        };
        let mut text = String::new();
        loop {
            text.clear();
            if self.input.read_line(&mut text)? == 0 {
                engine.finish_search();
                return Ok(Next::Quit);
            }
            match engine.command(text.trim()) {
                Ok(Some(next)) => {
                    engine.finish_search();
                    return Ok(next);
                }
                Ok(None) => {}
                Err(Problem::Say(message)) => self.out.say(&error_line(&message))?,
                Err(Problem::Output(e)) => return Err(ServeError::Io(e)),
            }
        }
    }
}

/// Why a command was not carried out.
enum Problem {
    /// Refused: reported to the other side, nothing changed.
    Say(String),
    /// Standard output failed.
    Output(std::io::Error),
}

impl From<std::io::Error> for Problem {
    fn from(e: std::io::Error) -> Self {
        Problem::Output(e)
    }
}

fn refuse<T>(message: impl Into<String>) -> Result<T, Problem> {
    Err(Problem::Say(message.into()))
}

/// A search in progress: its stop flag and the thread, which hands the bot back.
struct Running<G: Game> {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Box<dyn Bot<G>>>,
    spec: BotSpec,
}

/// The limits of one `go`.
#[derive(Debug, Default, Clone, Copy)]
struct Limits {
    movetime: Option<u64>,
    time: [Option<u64>; 2],
    inc: [Option<u64>; 2],
    movestogo: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
}

struct Engine<'a, G: Capabilities> {
    games: &'a [&'static dyn UgiGame],
    fixed: Option<&'static dyn UgiGame>,
    settings: &'a mut Settings,
    options: Options,
    /// The position given with `position`, and the moves since.
    start: G,
    line: Vec<G::Move>,
    game: G,
    /// The bot of the last search and the spec it was made from, kept while the spec stays
    /// the same (a tree or table carries over to the next move).
    bot: Option<(BotSpec, Box<dyn Bot<G>>)>,
    running: Option<Running<G>>,
    out: Out,
}

impl<G: Capabilities> Engine<'_, G> {
    /// Carries out one command line; `Some` when the session ends.
    fn command(&mut self, line: &str) -> Result<Option<Next>, Problem> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&head, rest)) = words.split_first() else {
            return Ok(None);
        };
        match head.to_ascii_lowercase().as_str() {
            "ugi" => self.introduce()?,
            "isready" => self.out.say("readyok")?,
            "setoption" => return self.set_option(rest),
            "uginewgame" => {
                self.finish_search();
                self.bot = None;
                let start = G::new(&self.options, self.settings.seed)
                    .map_err(|e| Problem::Say(e.to_string()))?;
                self.set_position(start, Vec::new());
            }
            "position" => {
                self.finish_search();
                self.position(rest)?;
            }
            "go" => {
                self.finish_search();
                // Every `go` is answered with a `bestmove`, so that the other side never
                // waits for one: `bestmove none` when there is nothing to search.
                if let Err(problem) = self.go(rest) {
                    if let Problem::Say(message) = &problem {
                        self.out.say(&error_line(message))?;
                        self.out.say("bestmove none")?;
                        return Ok(None);
                    }
                    return Err(problem);
                }
            }
            "stop" => self.finish_search(),
            "query" => self.query(rest)?,
            "quit" => return Ok(Some(Next::Quit)),
            other => refuse(format!("unknown command '{other}'; commands: {COMMANDS}"))?,
        }
        Ok(None)
    }

    fn introduce(&self) -> Result<(), Problem> {
        self.out
            .say(&format!("id name boardlab {}", env!("CARGO_PKG_VERSION")))?;
        self.out.say("id author the boardlab authors")?;
        if self.fixed.is_none() {
            let vars: Vec<String> = self
                .games
                .iter()
                .map(|k| format!("var {}", k.info().name))
                .collect();
            self.out.say(&format!(
                "option name Game type combo default {} {}",
                self.games.first().map_or("", |k| k.info().name),
                vars.join(" ")
            ))?;
        }
        self.out.say(&format!(
            "option name Bot type string default {}",
            Settings::default().bot
        ))?;
        self.out
            .say("option name Threads type spin default 1 min 0 max 256")?;
        self.out.say(&format!(
            "option name Hash type spin default 0 min 0 max {MAX_HASH_MB}"
        ))?;
        self.out.say(&format!(
            "option name Seed type spin default 0 min 0 max {}",
            i64::MAX
        ))?;
        for o in G::info().options {
            let default = if o.default.is_empty() {
                "<empty>"
            } else {
                o.default
            };
            let kind = match o.values {
                OptionValues::Choice { choices } => {
                    let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                    format!("combo default {default} {}", vars.join(" "))
                }
                OptionValues::Bool => format!("check default {default}"),
                OptionValues::Int { min, max } => {
                    format!("spin default {default} min {min} max {max}")
                }
                OptionValues::IntOr { .. } | OptionValues::Text { .. } => {
                    format!("string default {default}")
                }
            };
            self.out
                .say(&format!("option name {} type {kind}", o.name))?;
        }
        self.out.say("ugiok")?;
        Ok(())
    }

    fn set_option(&mut self, words: &[&str]) -> Result<Option<Next>, Problem> {
        let Some(("name", rest)) = words.split_first().map(|(h, r)| (*h, r)) else {
            return refuse("setoption needs 'name NAME value VALUE'");
        };
        let (name, value) = match rest.iter().position(|w| *w == "value") {
            Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
            None => (rest.join(" "), String::new()),
        };
        if name.is_empty() {
            return refuse("setoption needs an option name");
        }
        self.finish_search();
        let number = |min: u64, max: u64| match value.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => refuse(format!(
                "option {name}: '{value}' is not a whole number from {min} to {max}"
            )),
        };
        match name.to_ascii_lowercase().as_str() {
            "game" => {
                let kind = find_game(self.games, &value).map_err(Problem::Say)?;
                match self.fixed {
                    Some(f) if f.info().name != kind.info().name => {
                        let f = f.info().name;
                        return refuse(format!(
                            "this engine plays {f} only (it was started as `boardlab ugi {f}`)"
                        ));
                    }
                    _ if kind.info().name == G::info().name => {}
                    _ => return Ok(Some(Next::Switch(kind))),
                }
            }
            "bot" => {
                let spec: BotSpec = value
                    .parse()
                    .map_err(|e: crate::AiError| Problem::Say(format!("option Bot: {e}")))?;
                crate::resolve_type::<G>(&spec)
                    .map_err(|e| Problem::Say(format!("option Bot: {e}")))?;
                self.settings.bot = spec;
                self.bot = None;
            }
            "threads" => {
                self.settings.threads = number(0, 256)? as u32;
                self.bot = None;
            }
            "hash" => {
                self.settings.hash_mb = number(0, u64::from(MAX_HASH_MB))? as u32;
                self.bot = None;
            }
            "seed" => {
                self.settings.seed = number(0, i64::MAX as u64)?;
                self.bot = None;
            }
            _ => {
                let mut options = self.options.clone();
                let value = if value == "<empty>" { "" } else { &value };
                options.set(&name, value).map_err(|e| {
                    Problem::Say(format!(
                        "{e} (engine options: {}Bot, Threads, Hash, Seed)",
                        if self.fixed.is_none() { "Game, " } else { "" }
                    ))
                })?;
                // New rules: the game starts again.
                let start = G::new(&options, self.settings.seed)
                    .map_err(|e| Problem::Say(e.to_string()))?;
                self.options = options;
                self.bot = None;
                self.set_position(start, Vec::new());
            }
        }
        Ok(None)
    }

    fn set_position(&mut self, start: G, line: Vec<G::Move>) {
        let mut game = start.clone();
        for &m in &line {
            game.play_unchecked(m);
        }
        self.start = start;
        self.line = line;
        self.game = game;
    }

    /// `position startpos|fen TEXT [moves M …]`; nothing changes on an error.
    fn position(&mut self, words: &[&str]) -> Result<(), Problem> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let start = match setup.split_first() {
            Some((&"startpos", [])) => G::new(&self.options, self.settings.seed)
                .map_err(|e| Problem::Say(e.to_string()))?,
            Some((&"startpos", extra)) => {
                return refuse(format!(
                    "unexpected '{}' after startpos; write: position startpos moves …",
                    extra.join(" ")
                ))
            }
            Some((&"fen", [])) => return refuse("position fen needs the position text"),
            Some((&"fen", text)) => G::from_position(&self.options, &text.join(" "))
                .map_err(|e| Problem::Say(e.to_string()))?,
            _ => return refuse("write: position startpos|fen TEXT [moves M …]"),
        };
        let mut game = start.clone();
        let mut line = Vec::new();
        let texts = split_moves(&moves.join(" "), G::info().multi_word_moves);
        for (i, text) in texts.iter().enumerate() {
            let mv = game
                .play_text(&token_notation(text))
                .map_err(|e| Problem::Say(format!("position: move {}: {e}", i + 1)))?;
            line.push(mv);
        }
        self.start = start;
        self.line = line;
        self.game = game;
        Ok(())
    }

    fn parse_go(words: &[&str]) -> Result<Limits, Problem> {
        let mut l = Limits::default();
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            if key == "infinite" {
                l.infinite = true;
                i += 1;
                continue;
            }
            let Some(value) = words.get(i + 1) else {
                return refuse(format!("go: '{key}' needs a number"));
            };
            let n: u64 = value
                .parse()
                .map_err(|_| Problem::Say(format!("go: '{key} {value}' is not a whole number")))?;
            match key {
                "movetime" => l.movetime = Some(n),
                "p1time" => l.time[0] = Some(n),
                "p2time" => l.time[1] = Some(n),
                "p1inc" => l.inc[0] = Some(n),
                "p2inc" => l.inc[1] = Some(n),
                "movestogo" => l.movestogo = Some(n),
                "depth" => match u32::try_from(n) {
                    Ok(d) if (1..=100).contains(&d) => l.depth = Some(d),
                    _ => return refuse("go: depth must be from 1 to 100"),
                },
                "nodes" if n > 0 => l.nodes = Some(n),
                "nodes" => return refuse("go: nodes must be at least 1"),
                _ => {
                    return refuse(format!(
                        "go: unknown limit '{key}'; limits: p1time, p2time, p1inc, p2inc, \
                         movestogo, movetime, depth, nodes, infinite"
                    ))
                }
            }
            i += 2;
        }
        Ok(l)
    }

    /// The bot spec for this search: the `Bot` option with the limits of `go` added (the
    /// first limit reached ends the search) and the `Threads` option.
    fn spec_for(&self, l: &Limits) -> Result<BotSpec, Problem> {
        let time = if l.infinite {
            Some(INFINITE)
        } else {
            think_time(l, self.game.to_move())
        };
        let mut spec = self.settings.bot.clone();
        if let BotSpec::Best(b) = &mut spec {
            b.time = b.time.or(time);
            b.threads = self.settings.threads;
        }
        let mut spec = crate::resolve_type::<G>(&spec)
            .map_err(|e| Problem::Say(format!("option Bot: {e}")))?;
        let cap = |mine: &mut Option<Duration>| {
            *mine = match (*mine, time) {
                _ if l.infinite => time,
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        };
        let fewer = |mine: Option<u64>, theirs: Option<u64>| match (mine, theirs) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match &mut spec {
            BotSpec::Mcts(m) => {
                cap(&mut m.time);
                m.iterations = if l.infinite {
                    None
                } else {
                    fewer(m.iterations, l.nodes)
                };
                m.threads = self.settings.threads;
            }
            BotSpec::AlphaBeta(a) => {
                cap(&mut a.time);
                if l.infinite {
                    (a.depth, a.nodes) = (None, None);
                } else {
                    a.nodes = fewer(a.nodes, l.nodes);
                    a.depth =
                        fewer(a.depth.map(u64::from), l.depth.map(u64::from)).map(|d| d as u32);
                }
                a.threads = self.settings.threads;
            }
            BotSpec::Ugi(u) => cap(&mut u.time),
            BotSpec::Random | BotSpec::Best(_) | BotSpec::Level(_) => {}
        }
        Ok(spec)
    }

    fn go(&mut self, words: &[&str]) -> Result<(), Problem> {
        let limits = Self::parse_go(words)?;
        if let Some(o) = self.game.outcome() {
            return refuse(format!(
                "the game is over ({o}); there is no move to search"
            ));
        }
        let spec = self.spec_for(&limits)?;
        let bot = match self.bot.take() {
            Some((s, bot)) if s == spec => bot,
            _ => {
                let table = (self.settings.hash_mb > 0).then_some(self.settings.hash_mb);
                crate::new_bot_with_table::<G>(&spec, self.settings.seed, table)
                    .map_err(|e| Problem::Say(e.to_string()))?
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let (start, line, game) = (self.start.clone(), self.line.clone(), self.game.clone());
        let infinite = limits.infinite;
        let out = self.out.clone();
        let thread =
            std::thread::spawn(move || search(bot, (&start, &line, &game), &flag, infinite, &out));
        self.running = Some(Running { stop, thread, spec });
        Ok(())
    }

    /// Stops the search in progress, if any, and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            if let Ok(bot) = r.thread.join() {
                self.bot = Some((r.spec, bot));
            }
        }
    }

    fn query(&self, words: &[&str]) -> Result<(), Problem> {
        let answer = match words {
            ["gameover"] => self.game.outcome().is_some().to_string(),
            ["p1turn"] => (self.game.to_move() == Seat::First).to_string(),
            ["result"] => match self.game.outcome().map(|o| o.for_seat(Seat::First)) {
                None => "none",
                Some(Wdl::Win) => "p1win",
                Some(Wdl::Loss) => "p2win",
                Some(Wdl::Draw) => "draw",
            }
            .to_string(),
            _ => return refuse("queries: query gameover | p1turn | result"),
        };
        self.out.say(&format!("response {answer}"))?;
        Ok(())
    }
}

/// The time for this move from `movetime` and the clock of the seat to move: a share of the
/// time left (1/`movestogo`, or 1/25) plus three quarters of the increment, never more than
/// half the time left; the smaller of that and `movetime`; less the protocol's overhead.
fn think_time(l: &Limits, seat: Seat) -> Option<Duration> {
    let from_clock = l.time[seat.index()].map(|left| {
        let inc = l.inc[seat.index()].unwrap_or(0);
        let share = left / l.movestogo.unwrap_or(MOVES_TO_GO).max(1) + inc * 3 / 4;
        share.min(left / 2)
    });
    let ms = match (l.movetime, from_clock) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    let t = Duration::from_millis(ms);
    Some(
        t.saturating_sub(MOVE_OVERHEAD.min(t / 10))
            .max(Duration::from_millis(1)),
    )
}

/// The search thread: searches, waits for `stop` after a `go infinite` (the protocol wants
/// no `bestmove` before it), and reports; hands the bot back.
fn search<G: Game>(
    mut bot: Box<dyn Bot<G>>,
    (start, line, game): (&G, &[G::Move], &G),
    stop: &AtomicBool,
    infinite: bool,
    out: &Out,
) -> Box<dyn Bot<G>> {
    bot.follow(start, line);
    let result = crate::analysis_of(game, bot.as_mut(), stop);
    while infinite && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(5));
    }
    // The output may be gone (the other side quit); the main thread reports that.
    let _ = match result {
        Ok(a) => {
            let pv: Vec<String> = a.pv.iter().map(|m| move_token(m)).collect();
            let ms = a.elapsed.as_millis();
            out.say(&format!(
                "info depth {} score {} nodes {} nps {:.0} time {ms} pv {}",
                a.depth,
                score_text(&a.value, game.to_move()),
                a.nodes,
                a.nodes_per_second(),
                pv.join(" ")
            ))
            .and_then(|()| out.say(&format!("bestmove {}", move_token(&a.best))))
        }
        Err(e) => out
            .say(&error_line(&e.to_string()))
            .and_then(|()| out.say("bestmove none")),
    };
    bot
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_gives_a_share_of_the_time_left_plus_most_of_the_increment() {
        let ms = |n: u64| Some(Duration::from_millis(n));
        let clock = Limits {
            time: [Some(60_000), Some(1_000)],
            inc: [Some(1_000), None],
            ..Limits::default()
        };
        // 60000/25 + 750, less 20 ms.
        assert_eq!(think_time(&clock, Seat::First), ms(3_130));
        // 1000/25 = 40, less a tenth.
        assert_eq!(think_time(&clock, Seat::Second), ms(36));
        let tight = Limits {
            time: [Some(100), None],
            inc: [Some(1_000), None],
            ..Limits::default()
        };
        // Never more than half of what is left.
        assert_eq!(think_time(&tight, Seat::First), ms(45));
        let both = Limits {
            movetime: Some(500),
            movestogo: Some(2),
            ..clock
        };
        assert_eq!(think_time(&both, Seat::First), ms(480));
        assert_eq!(think_time(&Limits::default(), Seat::First), None);
    }
}

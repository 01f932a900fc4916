//! Outside engines as bots, over UGI (the Universal Game Interface: UCI, the chess engine
//! protocol, for any game; `docs/ugi.md` describes it as `boardlab ugi` speaks it).
//!
//! [`UgiBot`] runs an engine as a child process ([`UgiSpec`]: its command line and the time it
//! gets per move) and plays whatever game it is asked about: it starts the program on its first
//! search, introduces itself (`ugi` … `ugiok`), chooses the game and its options with
//! `setoption` where the engine offers them, and then, for every move, sends the game's start
//! position and the moves since (`position fen TEXT moves …`) and `go movetime MS`, and reads
//! `bestmove`. An engine that cannot be started, stops, takes too long or answers a move that
//! is not legal fails the search with an [`EngineError`] naming what happened (and the last
//! lines the program wrote to its standard error). The process is ended when the bot is
//! dropped.
//!
//! The helpers [`move_token`], [`token_notation`], [`score_text`] and [`parse_info`] are the
//! protocol's conventions for the moves and values of boardlab's games, shared by this client
//! and by the engine of `boardlab ugi`.

pub mod engine;

pub use crate::error::EngineError;

use crate::search::{Bot, SearchResult, Value};
use crate::spec::UgiSpec;
use boardlab_core::{Game, Options, Proven, Seat};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use web_time::Instant;

/// How long an engine may take to introduce itself (`ugiok`) or to get ready (`readyok`).
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// How long past its time per move an engine may think before it is told to `stop`, and how
/// long it then has to answer.
pub const GRACE: Duration = Duration::from_secs(1);

/// Lines of an engine's standard error kept for error messages.
const STDERR_LINES: usize = 8;

/// The word that stands for a move in the protocol: its notation with every space written as
/// `_` (Sight Reduction's `swap a1 c3` is `swap_a1_c3`), so that every move is one word.
#[must_use]
pub fn move_token(notation: &str) -> String {
    notation.split_whitespace().collect::<Vec<_>>().join("_")
}

/// The notation a protocol word stands for: `_` read as a space (see [`move_token`]).
#[must_use]
pub fn token_notation(token: &str) -> String {
    token.replace('_', " ")
}

/// A value as the protocol's `score`, for the seat to move `seat`: `mate N` for a proven win
/// in N plies, `mate -N` for a proven loss in N plies, otherwise `cp C`, the expected score s
/// on an Elo-like scale, C = 400·log10(s / (1 − s)), from −9999 to 9999 (a proven draw is
/// `cp 0`, a proven result of unknown length ±10000).
#[must_use]
pub fn score_text(value: &Value, seat: Seat) -> String {
    let v = value.for_seat(seat);
    if let Some(p) = v.proven {
        return match (p.result, p.plies) {
            (boardlab_core::Wdl::Win, Some(n)) => format!("mate {n}"),
            (boardlab_core::Wdl::Loss, Some(n)) => format!("mate -{n}"),
            (boardlab_core::Wdl::Win, None) => "cp 10000".into(),
            (boardlab_core::Wdl::Loss, None) => "cp -10000".into(),
            (boardlab_core::Wdl::Draw, _) => "cp 0".into(),
        };
    }
    let s = v.score;
    let cp = if s >= 1.0 {
        9999.0
    } else if s <= 0.0 {
        -9999.0
    } else {
        (400.0 * (s / (1.0 - s)).log10())
            .round()
            .clamp(-9999.0, 9999.0)
    };
    format!("cp {cp}")
}

/// What one `info` line says; fields it does not carry are `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The value for the seat to move.
    pub value: Option<Value>,
    /// The principal variation as protocol words.
    pub pv: Vec<String>,
}

/// Reads the words after `info` (`depth 5 score cp 31 nodes 1200 pv b2 c3`), for the seat to
/// move `seat`. Unknown fields are skipped; `string` ends the line.
#[must_use]
pub fn parse_info(words: &[&str], seat: Seat) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    while i < words.len() {
        let next = words.get(i + 1).copied().unwrap_or("");
        match words[i] {
            "depth" => info.depth = next.parse().ok(),
            "nodes" => info.nodes = next.parse().ok(),
            "score" => {
                let n: Option<i64> = words.get(i + 2).and_then(|w| w.parse().ok());
                info.value = match (next, n) {
                    ("cp", Some(c)) => {
                        let s = 1.0 / (1.0 + 10f64.powf(-(c as f64) / 400.0));
                        Some(Value::estimate(seat, s))
                    }
                    ("mate", Some(n)) if n > 0 => Some(Value::proven(Proven::win_in(
                        seat,
                        u32::try_from(n).unwrap_or(u32::MAX),
                    ))),
                    ("mate", Some(n)) => Some(Value::proven(Proven::loss_in(
                        seat,
                        u32::try_from(-n).unwrap_or(u32::MAX),
                    ))),
                    _ => info.value,
                };
                i += 1;
            }
            "pv" => {
                info.pv = words[i + 1..].iter().map(|w| (*w).to_string()).collect();
                break;
            }
            "string" => break,
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info
}

/// An option the engine offers (`option name NAME type TYPE … [var V]…`).
#[derive(Clone, Debug)]
struct EngineOption {
    name: String,
    kind: String,
    vars: Vec<String>,
}

impl EngineOption {
    fn parse(rest: &str) -> Option<EngineOption> {
        let rest = rest.strip_prefix("name ")?;
        let (name, rest) = rest.split_once(" type ")?;
        let mut words = rest.split_whitespace();
        let kind = words.next().unwrap_or("").to_ascii_lowercase();
        let rest: Vec<&str> = words.collect();
        let mut vars = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            if rest[i] == "var" {
                let end = rest[i + 1..]
                    .iter()
                    .position(|w| matches!(*w, "var" | "default" | "min" | "max"))
                    .map_or(rest.len(), |p| i + 1 + p);
                vars.push(rest[i + 1..end].join(" "));
                i = end;
            } else {
                i += 1;
            }
        }
        Some(EngineOption {
            name: name.trim().to_string(),
            kind,
            vars,
        })
    }
}

/// A running engine: the child process, its input, and its output lines as they come.
struct Process {
    command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines from its standard output; `None` once it closed it.
    lines: Receiver<Option<String>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    options: Vec<EngineOption>,
}

impl Process {
    /// Starts the program and waits for `ugiok`, noting the options it offers.
    fn start(words: &[String], command: &str) -> Result<Process, EngineError> {
        let start_error = |reason: String| EngineError::Start {
            command: command.to_string(),
            reason,
        };
        let (program, args) = words
            .split_first()
            .ok_or_else(|| start_error("the command is empty".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| start_error(e.to_string()))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        break;
                    }
                    Ok(_) => {
                        if tx.send(Some(line.trim_end().to_string())).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines() {
                let Ok(line) = line else { break };
                let mut tail = tail
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        let mut process = Process {
            command: command.to_string(),
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            options: Vec::new(),
        };
        process.send("ugi")?;
        let mut options = Vec::new();
        process.wait_for("ugi", START_TIMEOUT, |line| {
            if let Some(rest) = line.strip_prefix("option ") {
                options.extend(EngineOption::parse(rest.trim()));
            }
            (line.trim() == "ugiok").then_some(())
        })?;
        process.options = options;
        Ok(process)
    }

    fn option(&self, name: &str) -> Option<&EngineOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let ok = match &mut self.stdin {
            Some(stdin) => writeln!(stdin, "{line}")
                .and_then(|()| stdin.flush())
                .is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.stopped("closed its input"))
        }
    }

    /// Reads lines until `found` accepts one, for at most `timeout`.
    fn wait_for<T>(
        &mut self,
        asked: &str,
        timeout: Duration,
        mut found: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Some(line)) => {
                    if let Some(t) = found(&line) {
                        return Ok(t);
                    }
                }
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.stopped("closed its output"))
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout {
                        command: self.command.clone(),
                        asked: asked.to_string(),
                        waited: crate::spec::format_duration(timeout),
                    })
                }
            }
        }
    }

    /// Sends `isready` and waits for `readyok`; an `info string error: …` line before it
    /// (boardlab's engine reports refused commands so) is returned as the engine's complaint.
    fn sync(&mut self) -> Result<Option<String>, EngineError> {
        self.send("isready")?;
        let mut complaint = None;
        self.wait_for("isready", START_TIMEOUT, |line| {
            if let Some(e) = line.strip_prefix("info string error:") {
                complaint.get_or_insert_with(|| e.trim().to_string());
            }
            (line.trim() == "readyok").then_some(())
        })?;
        Ok(complaint)
    }

    /// The error for an engine that stopped talking: its exit status if it ended (waiting a
    /// moment for it), and what it last wrote to standard error.
    fn stopped(&mut self, fallback: &str) -> EngineError {
        let deadline = Instant::now() + Duration::from_millis(500);
        let what = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break format!("exited ({status})"),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => break fallback.to_string(),
            }
        };
        // Give the reader a moment to collect the last lines.
        std::thread::sleep(Duration::from_millis(20));
        let stderr = self
            .stderr
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .cloned()
            .collect::<Vec<_>>()
            .join(" / ");
        EngineError::Stopped {
            command: self.command.clone(),
            what,
            stderr,
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        let deadline = Instant::now() + Duration::from_millis(100);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An outside engine playing game `G` (see the [module docs](self)).
pub struct UgiBot<G: Game> {
    spec: UgiSpec,
    command: String,
    process: Option<Process>,
    /// The game options the engine was given.
    configured: Option<Options>,
    /// The position text of the start of the game the engine was last told about.
    root: Option<String>,
    /// The line given with [`Bot::follow`].
    line: Option<(G, Vec<G::Move>)>,
    /// The first failure; an engine that failed is not asked again.
    failure: Option<EngineError>,
}

impl<G: Game> std::fmt::Debug for UgiBot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UgiBot")
            .field("command", &self.command)
            .field("running", &self.process.is_some())
            .field("failure", &self.failure)
            .finish_non_exhaustive()
    }
}

impl<G: Game> UgiBot<G> {
    /// A bot for `spec`; the program starts on the first search (or [`UgiBot::prepare`]).
    #[must_use]
    pub fn new(spec: UgiSpec) -> UgiBot<G> {
        UgiBot {
            command: spec.command_line(),
            spec,
            process: None,
            configured: None,
            root: None,
            line: None,
            failure: None,
        }
    }

    /// Starts the engine (if it is not running) and gives it game `G` with `options`.
    ///
    /// # Errors
    /// The engine cannot be started, does not answer, or does not offer the game or an
    /// option whose value differs from the default.
    pub fn prepare(&mut self, options: &Options) -> Result<(), EngineError> {
        if let Some(f) = &self.failure {
            return Err(f.clone());
        }
        let r = self.configure(options);
        if let Err(e) = &r {
            self.fail(e.clone());
        }
        r
    }

    fn fail(&mut self, e: EngineError) {
        self.failure = Some(e);
        self.process = None;
    }

    fn process(&mut self) -> Result<&mut Process, EngineError> {
        if self.process.is_none() {
            self.process = Some(Process::start(&self.spec.command, &self.command)?);
            self.configured = None;
            self.root = None;
        }
        Ok(self.process.as_mut().expect("started above"))
    }

    fn configure(&mut self, options: &Options) -> Result<(), EngineError> {
        self.process()?;
        if self.configured.as_ref() == Some(options) {
            return Ok(());
        }
        let command = self.command.clone();
        let info = G::info();
        let unsupported = |reason: String| EngineError::Unsupported {
            command: command.clone(),
            game: info.name,
            reason,
        };
        let p = self.process.as_mut().expect("started above");
        let mut lines = Vec::new();
        if let Some(o) = p.option("game") {
            if o.kind == "combo" && !o.vars.iter().any(|v| v.eq_ignore_ascii_case(info.name)) {
                return Err(unsupported(format!(
                    "its option {} offers {}",
                    o.name,
                    o.vars.join(", ")
                )));
            }
            lines.push(format!("setoption name {} value {}", o.name, info.name));
        }
        for (name, value) in options.iter() {
            match p.option(name) {
                Some(o) => lines.push(format!("setoption name {} value {value}", o.name)),
                None if options.non_default().any(|(n, _)| n == name) => {
                    return Err(unsupported(format!(
                        "it has no option '{name}' (wanted: {name}={value})"
                    )))
                }
                None => {}
            }
        }
        for line in &lines {
            p.send(line)?;
        }
        if let Some(complaint) = p.sync()? {
            return Err(unsupported(complaint));
        }
        self.configured = Some(options.clone());
        self.root = None;
        Ok(())
    }

    fn ask(&mut self, game: &G, stop: &AtomicBool) -> Result<SearchResult<G::Move>, EngineError> {
        let start = Instant::now();
        self.configure(&game.options())?;
        // The line the caller gave, if it leads to this position; else the position alone.
        let (root, moves) = match &self.line {
            Some((first, moves)) if replay(first, moves) == *game => (first.clone(), moves.clone()),
            _ => (game.clone(), Vec::new()),
        };
        let root_text = root.position_text();
        let mut position = format!("position fen {root_text}");
        if !moves.is_empty() {
            position.push_str(" moves");
            let mut g = root;
            for &m in &moves {
                position.push(' ');
                position.push_str(&move_token(&g.format_move(m)));
                g.play_unchecked(m);
            }
        }
        let new_game = self.root.as_deref() != Some(root_text.as_str());
        let time = self.spec.move_time();
        let command = self.command.clone();
        let p = self.process.as_mut().expect("configured above");
        if new_game {
            p.send("uginewgame")?;
            p.sync()?;
        }
        p.send(&position)?;
        p.send(&format!("go movetime {}", time.as_millis().max(1)))?;
        self.root = Some(root_text);

        let seat = game.to_move();
        let mut last = Info::default();
        let mut deadline = Instant::now() + time + GRACE;
        let mut stopped = false;
        let answer = loop {
            if !stopped && (stop.load(Ordering::Relaxed) || Instant::now() >= deadline) {
                p.send("stop")?;
                stopped = true;
                deadline = Instant::now() + GRACE;
            }
            let now = Instant::now();
            if stopped && now >= deadline {
                return Err(EngineError::Timeout {
                    command,
                    asked: "go".into(),
                    waited: crate::spec::format_duration(time + GRACE + GRACE),
                });
            }
            let wait = deadline
                .saturating_duration_since(now)
                .min(Duration::from_millis(20));
            match p.lines.recv_timeout(wait) {
                Ok(Some(line)) => {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    match words.as_slice() {
                        ["info", rest @ ..] => {
                            let info = parse_info(rest, seat);
                            last.depth = info.depth.or(last.depth);
                            last.nodes = info.nodes.or(last.nodes);
                            last.value = info.value.or(last.value);
                            if !info.pv.is_empty() {
                                last.pv = info.pv;
                            }
                        }
                        ["bestmove", rest @ ..] => break rest.first().map(|w| (*w).to_string()),
                        _ => {}
                    }
                }
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(p.stopped("closed its output"))
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        };
        let bad = |answer: &str, reason: String| EngineError::BadMove {
            command: self.command.clone(),
            answer: answer.to_string(),
            reason,
        };
        let Some(answer) = answer else {
            return Err(bad("", "no move given".into()));
        };
        let best = game
            .parse_move(&token_notation(&answer))
            .map_err(|e| bad(&answer, e.to_string()))?;
        if !game.is_legal(best) {
            return Err(bad(&answer, game.why_illegal(best)));
        }
        Ok(SearchResult {
            best,
            value: last.value.unwrap_or_else(|| Value::estimate(seat, 0.5)),
            pv: principal_variation(game, best, &last.pv),
            nodes: last.nodes.unwrap_or(0),
            elapsed: start.elapsed(),
            depth: last.depth.unwrap_or(0),
        })
    }
}

/// `start` after `moves`.
fn replay<G: Game>(start: &G, moves: &[G::Move]) -> G {
    let mut g = start.clone();
    for &m in moves {
        g.play_unchecked(m);
    }
    g
}

/// The engine's principal variation as far as it is legal and starts with `best`; at least
/// `best`.
fn principal_variation<G: Game>(game: &G, best: G::Move, words: &[String]) -> Vec<G::Move> {
    let mut pv = Vec::new();
    let mut g = game.clone();
    for w in words {
        let Ok(m) = g.parse_move(&token_notation(w)) else {
            break;
        };
        if (pv.is_empty() && m != best) || !g.is_legal(m) {
            break;
        }
        g.play_unchecked(m);
        pv.push(m);
    }
    if pv.is_empty() {
        pv.push(best);
    }
    pv
}

impl<G: Game> Bot<G> for UgiBot<G> {
    /// # Panics
    /// If the engine fails (see [`Bot::try_search`], which reports it instead).
    fn search(&mut self, game: &G, stop: &AtomicBool) -> SearchResult<G::Move> {
        self.try_search(game, stop)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_search(
        &mut self,
        game: &G,
        stop: &AtomicBool,
    ) -> Result<SearchResult<G::Move>, EngineError> {
        assert!(
            game.outcome().is_none(),
            "an outside engine was asked to move in a finished game"
        );
        if let Some(f) = &self.failure {
            return Err(f.clone());
        }
        let r = self.ask(game, stop);
        if let Err(e) = &r {
            self.fail(e.clone());
        }
        r
    }

    fn follow(&mut self, start: &G, moves: &[G::Move]) {
        self.line = Some((start.clone(), moves.to_vec()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_single_words() {
        assert_eq!(move_token("swap a1 c3"), "swap_a1_c3");
        assert_eq!(move_token("b2+c3"), "b2+c3");
        assert_eq!(token_notation("swap_a1_c3"), "swap a1 c3");
    }

    #[test]
    fn scores_read_back() {
        let seat = Seat::First;
        for text in ["cp 0", "cp 120", "cp -431", "mate 7", "mate -12"] {
            let line = format!("score {text}");
            let words: Vec<&str> = line.split_whitespace().collect();
            let info = parse_info(&words, seat);
            assert_eq!(score_text(&info.value.unwrap(), seat), text);
        }
        let v = Value::proven(Proven::win_in(Seat::Second, 3));
        assert_eq!(score_text(&v, Seat::First), "mate -3");
        assert_eq!(score_text(&Value::estimate(seat, 1.0), seat), "cp 9999");
    }

    #[test]
    fn info_lines_are_read() {
        let words: Vec<&str> = "depth 4 seldepth 6 score cp 31 nodes 1200 nps 5 pv b2 swap_a1_c3"
            .split_whitespace()
            .collect();
        let info = parse_info(&words, Seat::Second);
        assert_eq!(info.depth, Some(4));
        assert_eq!(info.nodes, Some(1200));
        assert_eq!(info.pv, ["b2", "swap_a1_c3"]);
        assert_eq!(info.value.unwrap().seat, Seat::Second);
        let info = parse_info(&["string", "depth", "3"], Seat::First);
        assert_eq!(info, Info::default());
    }

    #[test]
    fn option_lines_are_read() {
        let o = EngineOption::parse(
            "name Game type combo default sight-reduction var sight-reduction var obsidio",
        )
        .unwrap();
        assert_eq!(o.name, "Game");
        assert_eq!(o.kind, "combo");
        assert_eq!(o.vars, ["sight-reduction", "obsidio"]);
        let o =
            EngineOption::parse("name Move Overhead type spin default 10 min 0 max 5000").unwrap();
        assert_eq!(o.name, "Move Overhead");
        assert!(o.vars.is_empty());
    }
}

//! `boardlab ugi` as a match runner sees it: a scripted conversation per game (options, bad
//! commands, an illegal move in `position`, searches with every kind of limit, `stop` during
//! `go infinite`, queries of finished games), and outside engines as bots in `boardlab arena`,
//! including engines that misbehave.

use boardlab_ai::ugi::{move_token, token_notation};
use boardlab_core::{Outcome, Seat};
use boardlab_games::{AnyGame, GameKind};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_boardlab");

/// A running `boardlab ugi`: lines go in, answers come out as they are written.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    seen: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(BIN)
            .arg("ugi")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("boardlab runs");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take().unwrap(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line, waiting at most `timeout`.
    fn next(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.seen.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one starting with `last`.
    fn until(&mut self, last: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.next(left).unwrap_or_else(|| {
                panic!(
                    "no line starting with '{last}'; the engine said:\n{}",
                    self.seen.join("\n")
                )
            });
            let done = line.starts_with(last);
            got.push(line);
            if done {
                return got;
            }
        }
    }

    /// Sends `line` and returns the one line it is answered with.
    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.next(Duration::from_secs(30))
            .unwrap_or_else(|| panic!("no answer to '{line}'"))
    }

    /// Sends `line`, which must be refused with an `info string error:` naming `needle`.
    fn refused(&mut self, line: &str, needle: &str) {
        let answer = self.ask(line);
        assert!(
            answer.starts_with("info string error:") && answer.contains(needle),
            "'{line}' was answered '{answer}', expected an error about '{needle}'"
        );
    }

    /// Sends `line` and checks that it is accepted silently: an `isready` after it is
    /// answered with nothing but `readyok`.
    fn accepted(&mut self, line: &str) {
        self.send(line);
        self.send("isready");
        let got = self.until("readyok");
        assert_eq!(got, ["readyok"], "after '{line}'");
    }

    /// Sends `go …` and returns the move of its `bestmove` and the lines before it.
    fn search(&mut self, go: &str) -> (String, Vec<String>) {
        self.send(go);
        let mut got = self.until("bestmove");
        let best = got.pop().unwrap();
        (best["bestmove ".len()..].trim().to_string(), got)
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "quit ended with {status}");
                return;
            }
            assert!(Instant::now() < deadline, "quit did not end the engine");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn new_game(kind: GameKind) -> AnyGame {
    AnyGame::new(kind, &kind.info().default_options(), 0).unwrap()
}

/// Plays moves chosen by a fixed rule (an index stepping through the legal moves) to the
/// end; returns them.
fn finished_line(kind: GameKind) -> (AnyGame, Vec<String>) {
    let mut g = new_game(kind);
    let mut moves = Vec::new();
    let mut k = 7usize;
    while g.outcome().is_none() && moves.len() < 3000 {
        let legal = g.legal_moves();
        k = k.wrapping_mul(31).wrapping_add(17);
        let m = legal[k % legal.len()].clone();
        g.play_text(&m).unwrap();
        moves.push(m);
    }
    assert!(g.outcome().is_some(), "{kind}: no end in 3000 plies");
    (g, moves)
}

fn p1turn(g: &AnyGame) -> String {
    format!("response {}", g.to_move() == Seat::First)
}

fn tokens(moves: &[String]) -> String {
    moves
        .iter()
        .map(|m| move_token(m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The conversation every game goes through.
fn conversation(kind: GameKind) {
    let name = kind.name();
    let mut e = Engine::start(&[name]);

    // Introduction: the engine's options and every option of the game.
    e.send("ugi");
    let intro = e.until("ugiok");
    assert!(intro[0].starts_with("id name boardlab "), "{intro:?}");
    assert!(intro[1].starts_with("id author "), "{intro:?}");
    for option in ["Bot", "Threads", "Hash", "Seed"] {
        let prefix = format!("option name {option} type ");
        assert!(intro.iter().any(|l| l.starts_with(&prefix)), "{option}");
    }
    assert!(
        !intro.iter().any(|l| l.starts_with("option name Game ")),
        "a fixed game offers no Game option: {intro:?}"
    );
    for o in kind.info().options {
        let prefix = format!("option name {} type ", o.name);
        assert!(
            intro.iter().any(|l| l.starts_with(&prefix)),
            "{name}: {o:?}"
        );
    }
    assert_eq!(e.ask("isready"), "readyok");

    // Settings: bad ones are refused and change nothing.
    e.refused("setoption name NoSuchOption value 1", "unknown option");
    e.refused("setoption name Threads value lots", "Threads");
    e.refused("setoption name Bot value minimax", "minimax");
    e.refused("setoption value 3", "name");
    e.refused("setoption name Game value chess", "unknown game");
    e.accepted("setoption name Bot value level:2");
    e.accepted("setoption name Hash value 2");
    e.accepted("uginewgame");

    // Positions: the start, then moves; a bad move or text leaves the position as it was.
    let start = new_game(kind);
    assert_eq!(e.ask("query p1turn"), p1turn(&start));
    assert_eq!(e.ask("query gameover"), "response false");
    assert_eq!(e.ask("query result"), "response none");
    let mut g = start.clone();
    let mut line = Vec::new();
    for _ in 0..2 {
        let m = g.legal_moves()[0].clone();
        g.play_text(&m).unwrap();
        line.push(m);
    }
    e.accepted(&format!("position startpos moves {}", tokens(&line)));
    assert_eq!(e.ask("query p1turn"), p1turn(&g));
    e.refused(
        &format!("position startpos moves {} zz9", tokens(&line[..1])),
        "move 2",
    );
    assert_eq!(
        e.ask("query p1turn"),
        p1turn(&g),
        "a refused position changes nothing"
    );
    e.refused("position fen this-is-not-a-position", "invalid position");
    e.refused("position fen", "position text");
    e.refused("position somewhere", "startpos");
    e.accepted(&format!("position fen {}", g.position_text()));
    assert_eq!(e.ask("query p1turn"), p1turn(&g));

    // Searches: every kind of limit gives a legal move.
    for go in [
        "go movetime 200",
        "go depth 2",
        "go nodes 500",
        "go p1time 3000 p2time 3000 p1inc 20 p2inc 20",
        "go p1time 2000 p2time 2000 movestogo 10",
    ] {
        let (best, before) = e.search(go);
        assert!(
            g.legal_moves().contains(&token_notation(&best)),
            "{go}: {best} is not legal; legal: {:?}",
            g.legal_moves()
        );
        let info = before
            .iter()
            .find(|l| l.starts_with("info depth "))
            .unwrap_or_else(|| panic!("{go}: no info line in {before:?}"));
        for field in [" score ", " nodes ", " nps ", " time ", " pv "] {
            assert!(info.contains(field), "{go}: {info}");
        }
    }
    for (go, needle) in [
        ("go movetime soon", "not a whole number"),
        ("go depth 0", "depth"),
        ("go sideways 3", "unknown limit"),
    ] {
        e.refused(go, needle);
        let answer = e.next(Duration::from_secs(30));
        assert_eq!(answer.as_deref(), Some("bestmove none"), "{go}");
    }
    e.refused("fly away", "unknown command");
    e.refused("query weather", "queries");

    // `go infinite` searches until `stop`, then answers at once.
    e.accepted("setoption name Bot value best");
    e.send("go infinite");
    assert_eq!(
        e.next(Duration::from_millis(400)),
        None,
        "no bestmove before stop"
    );
    assert_eq!(
        e.ask("isready"),
        "readyok",
        "isready is answered while searching"
    );
    let asked = Instant::now();
    e.send("stop");
    let got = e.until("bestmove");
    let waited = asked.elapsed();
    assert!(
        waited < Duration::from_secs(3),
        "bestmove came {waited:?} after stop"
    );
    let best = got.last().unwrap()["bestmove ".len()..].to_string();
    assert!(g.legal_moves().contains(&token_notation(&best)), "{best}");

    // A finished game: the queries say how it ended, and there is no move to search.
    let (end, moves) = finished_line(kind);
    e.accepted(&format!("position startpos moves {}", tokens(&moves)));
    assert_eq!(e.ask("query gameover"), "response true");
    let result = match end.outcome().unwrap() {
        Outcome::Win {
            seat: Seat::First, ..
        } => "p1win",
        Outcome::Win { .. } => "p2win",
        Outcome::Draw { .. } => "draw",
        Outcome::Puzzle { .. } => unreachable!("no puzzles in the default options"),
    };
    assert_eq!(e.ask("query result"), format!("response {result}"));
    let (best, before) = e.search("go movetime 100");
    assert_eq!(best, "none");
    assert!(before.iter().any(|l| l.contains("the game is over")));
    e.quit();
}

#[test]
fn sight_reduction_conversation() {
    conversation(GameKind::named("sight-reduction").unwrap());
}

#[test]
fn obsidio_conversation() {
    conversation(GameKind::named("obsidio").unwrap());
}

#[test]
fn opprimo_conversation() {
    conversation(GameKind::named("opprimo").unwrap());
}

#[test]
fn assideum_conversation() {
    conversation(GameKind::named("assideum").unwrap());
}

/// Multi-word moves (Sight Reduction's `swap a1 c3`) are one word with `_` for each space;
/// in `position … moves` the spaced form is read too.
#[test]
fn multi_word_moves_are_joined_with_underscores() {
    let kind = GameKind::named("sight-reduction").unwrap();
    let options = kind.parse_options("setup=fair").unwrap();
    let mut g = AnyGame::new(kind, &options, 0).unwrap();
    let mut line = Vec::new();
    while line.len() < 3 {
        let m = g.legal_moves()[0].clone();
        g.play_text(&m).unwrap();
        line.push(m);
    }
    assert!(line[0].contains(' '), "{line:?}");
    let mut e = Engine::start(&["sight-reduction"]);
    e.accepted("setoption name setup value fair");
    // One joined, the rest as written.
    let text = format!("{} {} {}", move_token(&line[0]), line[1], line[2]);
    e.accepted(&format!("position startpos moves {text}"));
    assert_eq!(e.ask("query p1turn"), p1turn(&g));
    let (best, _) = e.search("go movetime 100");
    assert!(!best.contains(' '));
    assert!(g.legal_moves().contains(&token_notation(&best)), "{best}");
    e.quit();
}

/// Without a game on the command line the engine offers `Game`; choosing one lists its
/// options and starts its game.
#[test]
fn the_game_option_switches_games() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    let intro = e.until("ugiok");
    let game = intro
        .iter()
        .find(|l| l.starts_with("option name Game type combo"))
        .expect("a Game option");
    for kind in GameKind::all() {
        assert!(game.contains(&format!("var {}", kind.name())), "{game}");
    }
    e.refused("setoption name size value 9", "unknown option");
    e.accepted("setoption name Bot value level:1");
    e.accepted("setoption name Game value obsidio");
    e.send("ugi");
    let intro = e.until("ugiok");
    assert!(intro.iter().any(|l| l.starts_with("option name size ")));
    e.accepted("setoption name size value 7");
    let obsidio = AnyGame::new(
        GameKind::named("obsidio").unwrap(),
        &GameKind::named("obsidio")
            .unwrap()
            .parse_options("size=7")
            .unwrap(),
        0,
    )
    .unwrap();
    let (best, _) = e.search("go nodes 200");
    assert!(
        obsidio.legal_moves().contains(&token_notation(&best)),
        "{best}"
    );
    e.refused("setoption name size value 2", "size");
    // The engine's own settings stay with the new game: Bot is still level:1.
    e.refused("setoption name Bot value level:11", "level");
    e.quit();
}

/// `quit` during a search, and the end of input, end the engine.
#[test]
fn end_of_input_ends_the_engine() {
    let mut e = Engine::start(&["opprimo"]);
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.quit();
    let out = Command::new(BIN)
        .args(["ugi", "assideum"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
}

// ---- outside engines as bots ---------------------------------------------------------------

fn arena(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).arg("arena").args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `boardlab ugi` as an outside engine meets level 3 in every game; Sight Reduction with the
/// fair set-up too (its swaps and choices are several words).
#[test]
fn boardlab_ugi_plays_arena_games_as_an_outside_engine() {
    let engine = format!("ugi:time=50ms {} ugi", shlex_quote(BIN));
    for (game, options) in [
        ("sight-reduction", ""),
        ("sight-reduction", "setup=fair"),
        ("obsidio", ""),
        ("opprimo", ""),
        ("assideum", ""),
    ] {
        let mut args = vec![game, "--bot", &engine, "--bot", "level:3", "--games", "2"];
        args.extend(["--threads", "2"]);
        if !options.is_empty() {
            args.extend(["--option", options]);
        }
        let (ok, out, err) = arena(&args);
        assert!(ok, "{game} {options}: {err}");
        assert!(out.contains("in 2 games"), "{game}: {out}");
        assert!(!out.contains("forfeit"), "{game}: {out}");
    }
}

fn shlex_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Writes an executable shell script that speaks just enough UGI and answers `go` with
/// `on_go`.
#[cfg(unix)]
fn script(dir: &std::path::Path, name: &str, on_go: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let text = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    ugi) echo 'id name {name}'; echo ugiok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_string_lossy().into_owned()
}

/// An engine that answers nonsense, one that dies, and one that never answers each lose
/// every game by forfeit, with the reason printed; the arena itself finishes normally.
#[cfg(unix)]
#[test]
fn misbehaving_engines_lose_by_forfeit() {
    let dir = std::env::temp_dir().join(format!("boardlab-ugi-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, on_go, reason) in [
        ("nonsense", "echo 'bestmove zzz'", "answered `bestmove zzz`"),
        ("nothing", "echo 'bestmove'", "no move given"),
        (
            "dies",
            "echo 'out of cheese' >&2; exit 3",
            "exited (exit status: 3); its last words on standard error: out of cheese",
        ),
        ("silent", ":", "did not answer `go`"),
    ] {
        let path = script(&dir, name, on_go);
        let spec = format!("ugi:time=20ms {path}");
        let started = Instant::now();
        let (ok, out, err) = arena(&[
            "opprimo",
            "--bot",
            &spec,
            "--bot",
            "random",
            "--games",
            "2",
            "--threads",
            "2",
        ]);
        assert!(ok, "{name}: {err}");
        assert!(
            out.contains("A: 0 wins, 0 draws, 2 losses in 2 games"),
            "{name}: {out}"
        );
        assert_eq!(out.matches("loses by forfeit").count(), 2, "{name}: {out}");
        assert!(out.contains(reason), "{name}: {out}");
        assert!(started.elapsed() < Duration::from_secs(20), "{name}");
    }
    // A program that does not exist is refused before the games start.
    let (ok, _, err) = arena(&[
        "opprimo",
        "--bot",
        "ugi:/no/such/engine --fast",
        "--bot",
        "random",
        "--games",
        "2",
    ]);
    assert!(!ok);
    assert!(
        err.contains("cannot start the engine `/no/such/engine --fast`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `boardlab play` with an outside engine that fails: its seat loses, the record says so.
#[cfg(unix)]
#[test]
fn play_against_a_failing_engine_ends_the_game_by_forfeit() {
    let dir = std::env::temp_dir().join(format!("boardlab-ugi-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = script(&dir, "nonsense", "echo 'bestmove zzz'");
    let record = dir.join("game.txt");
    let out = Command::new(BIN)
        .args(["play", "obsidio", "--first", "random", "--second"])
        .arg(format!("ugi:time=20ms {path}"))
        .arg("--record")
        .arg(&record)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("The second seat (ugi:time=20ms"), "{text}");
    assert!(text.contains("wins by forfeit"), "{text}");
    let saved = std::fs::read_to_string(&record).unwrap();
    assert!(saved.contains("[Termination \"forfeit\"]"), "{saved}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plain HTTP/1.1 request to `addr`; returns the status and the JSON body.
fn http(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, serde_json::Value) {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let body = body.unwrap_or("");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, json) = answer.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(json).unwrap_or_default())
}

/// `boardlab ugi` as a computer seat of the server, allowed by the operator with
/// `--ugi-engine`, plays its moves.
#[test]
fn the_server_runs_an_allowed_engine_as_a_computer_seat() {
    let dir = std::env::temp_dir().join(format!("boardlab-ugi-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = format!("{} ugi", shlex_quote(BIN));
    let mut server = Command::new(BIN)
        .args(["serve", "--addr", "127.0.0.1:0", "--ugi-engine", &engine])
        .arg("--database")
        .arg(format!("sqlite://{}", dir.join("db.sqlite").display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in '{first}'"))
        .to_string();
    let seat = format!("computer:ugi:time=50ms {engine}");
    let body = serde_json::json!({
        "game": "opprimo",
        "seats": { "first": seat, "second": "computer:level:1" }
    })
    .to_string();
    let (status, created) = http(&addr, "POST", "/api/games", Some(&body));
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    let state = loop {
        let (_, state) = http(&addr, "GET", &format!("/api/games/{id}"), None);
        if state["version"].as_i64().unwrap_or(0) >= 6 || state["status"] == "finished" {
            break state;
        }
        if Instant::now() > deadline {
            break state;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(status, 201, "{created}");
    assert!(
        state["version"].as_i64().unwrap_or(0) >= 6,
        "the engine did not play: {state}"
    );
    assert_ne!(state["result"]["termination"], "resignation", "{state}");
}

//! `boardlab loadtest`: plays many concurrent same-screen games against a server on this
//! machine and reports acknowledged moves per second and move latency percentiles.
//!
//! The games are created first; then the clock starts, and each game is a task that plays
//! random legal moves (taken from the previous answer) with its version, pacing itself so that
//! all games together aim at `--rate` moves per second (`0`: as fast as the server answers);
//! a finished game is replaced by a new one (those creations are timed separately). A move counts when the server answered 200, which it does only after
//! the move is committed. Latency is measured from sending the request to the end of the
//! answer. Without `--addr` the server runs in this process, on its own threads, with a
//! temporary SQLite database.

use anyhow::{bail, Context, Result};
use boardlab_core::rand::{rngs::SmallRng, Rng, SeedableRng};
use boardlab_server::{ServeArgs, Server};
use serde::Deserialize;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Most games at once.
pub const MAX_GAMES: usize = 10_000;

/// Longest run, in seconds.
pub const MAX_SECONDS: u64 = 600;

/// Settings of a load test.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// Server to load, HOST:PORT on this machine (loopback addresses only). Without it, a
    /// server is started in this process on a temporary SQLite database.
    #[arg(long)]
    pub addr: Option<String>,
    /// Concurrent games (at most 10000).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Duration of the measurement in seconds (at most 600).
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Target moves per second over all games; 0 sends each game's next move as soon as the
    /// previous one is answered.
    #[arg(long, default_value_t = 5000)]
    pub rate: u64,
    /// The game played.
    #[arg(long, default_value = "sight-reduction")]
    pub game: String,
    /// Database of the in-process server (default: a temporary SQLite file); with --abuse,
    /// the `--database` of every server started.
    #[arg(long)]
    pub database: Option<String>,
    /// Run the abuse cases instead of the move-rate test: each case starts a server process,
    /// attacks it from loopback addresses and compares a victim's figures idle and under
    /// attack.
    #[arg(long, conflicts_with = "addr")]
    pub abuse: bool,
    /// With --abuse: a case to run (repeatable; default all): streams, logins, lobby,
    /// analysis, lockout.
    #[arg(long = "case", value_name = "NAME", requires = "abuse")]
    pub cases: Vec<String>,
    /// With --abuse or --overload: the server program, run as `PATH serve --addr
    /// 127.0.0.1:0 --database URL [--server-arg …]` (default: this program).
    #[arg(long = "bin", value_name = "PATH")]
    pub bin: Option<std::path::PathBuf>,
    /// With --abuse or --overload: an argument passed on to the server (repeatable, e.g.
    /// `--server-arg=--logins-per-minute=20`).
    #[arg(long = "server-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub server_args: Vec<String>,
    /// With --abuse: how long the lockout case guesses, in seconds (--seconds does not apply
    /// to the abuse cases).
    #[arg(long, default_value_t = 60)]
    pub lockout_seconds: u64,
    /// Run the overload case: first the ceiling (--games games as fast as the server answers),
    /// then --overload-games games as fast as it answers, each on a server process of its own
    /// (so that client and server each have the open-file limit to themselves); the report
    /// compares what the overloaded server admitted with the ceiling.
    #[arg(long, conflicts_with_all = ["abuse", "addr"])]
    pub overload: bool,
    /// With --overload: the games of the overloaded run (at most 10000).
    #[arg(long, default_value_t = 10_000, requires = "overload")]
    pub overload_games: usize,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            addr: None,
            games: 1000,
            seconds: 10,
            rate: 5000,
            game: "sight-reduction".into(),
            database: None,
            abuse: false,
            cases: Vec::new(),
            bin: None,
            server_args: Vec::new(),
            lockout_seconds: 60,
            overload: false,
            overload_games: 10_000,
        }
    }
}

/// What a load test measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub target: String,
    pub games: usize,
    pub seconds: f64,
    pub rate: u64,
    /// Moves answered 200 (committed).
    pub moves: u64,
    /// Games created during the run (besides the `games` created before it) and finished.
    pub games_created: u64,
    pub games_finished: u64,
    /// Moves and game creations refused with 503 and `Retry-After` (the server at capacity;
    /// sent again after the wait it asked for).
    pub refused: u64,
    /// Answers other than 200/201 and 503, and failed requests.
    pub errors: u64,
    /// Move latency percentiles in milliseconds: p50, p90, p99, p99.9, max.
    pub latency_ms: [f64; 5],
    /// Game creation latency p50 and p99 in milliseconds.
    pub create_ms: [f64; 2],
}

impl Report {
    /// Acknowledged moves per second.
    #[must_use]
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.seconds
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [p50, p90, p99, p999, max] = self.latency_ms;
        writeln!(f, "target:            {}", self.target)?;
        writeln!(
            f,
            "load:              {} concurrent games for {:.1} s, aiming at {}",
            self.games,
            self.seconds,
            if self.rate == 0 {
                "as many moves as possible".to_string()
            } else {
                format!("{} moves/s", self.rate)
            }
        )?;
        writeln!(
            f,
            "acknowledged:      {} moves, {:.0} moves/s",
            self.moves,
            self.moves_per_second()
        )?;
        writeln!(
            f,
            "move latency:      p50 {p50:.2} ms, p90 {p90:.2} ms, p99 {p99:.2} ms, p99.9 {p999:.2} ms, max {max:.2} ms"
        )?;
        writeln!(
            f,
            "games:             {} finished, {} more created meanwhile (p50 {:.2} ms, p99 {:.2} ms)",
            self.games_finished, self.games_created, self.create_ms[0], self.create_ms[1]
        )?;
        writeln!(
            f,
            "refused:           {} (503, sent again after Retry-After)",
            self.refused
        )?;
        write!(f, "errors:            {}", self.errors)
    }
}

#[derive(Deserialize)]
struct Brief {
    version: i64,
    status: String,
    legal_moves: Vec<String>,
}

#[derive(Deserialize)]
struct Created {
    id: String,
    tokens: std::collections::BTreeMap<String, String>,
    state: Brief,
}

#[derive(Default)]
struct Tally {
    moves: Vec<u32>,
    creates: Vec<u32>,
    finished: u64,
    refused: u64,
    errors: u64,
}

/// How the server answered a move.
enum Answer<B> {
    /// 200, with its body.
    Played(Option<B>),
    /// 503 with the wait it asked for.
    Refused(Duration),
    /// Anything else.
    Failed,
}

/// The wait a refusal asks for (`Retry-After` in seconds; one second without it).
fn retry_after(r: &reqwest::Response) -> Duration {
    let seconds = r
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(1);
    Duration::from_secs(seconds.clamp(1, 60))
}

/// `wait` and up to as long again, at random.
fn jittered(wait: Duration, rng: &mut SmallRng) -> Duration {
    wait.mul_f64(1.0 + rng.random::<f64>())
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i.min(sorted.len() - 1)]) / 1000.0
}

/// Resolves `addr` and refuses anything but a loopback address.
///
/// # Errors
/// An address that does not resolve or is not on this machine.
pub fn loopback(addr: &str) -> Result<SocketAddr> {
    let resolved: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .with_context(|| format!("bad address '{addr}'; write HOST:PORT, e.g. 127.0.0.1:8080"))?
        .collect();
    match resolved.iter().find(|a| a.ip().is_loopback()) {
        Some(a) => Ok(*a),
        None => bail!(
            "the load test only runs against this machine; '{addr}' is not a loopback address \
             (use 127.0.0.1:PORT or localhost:PORT)"
        ),
    }
}

/// What every game task shares.
#[derive(Clone)]
struct Shared {
    base: Arc<str>,
    create_body: Arc<str>,
    /// Time between one game's moves (`None`: no pacing).
    interval: Option<Duration>,
    deadline: Instant,
    stop: Arc<AtomicBool>,
}

/// Creates a game; the answer and how long it took (`Played`), a refusal, or a failure.
async fn create_game(client: &reqwest::Client, base: &str, body: &str) -> Answer<(Created, u32)> {
    let t0 = Instant::now();
    let Ok(r) = client
        .post(format!("{base}/api/games"))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
    else {
        return Answer::Failed;
    };
    match r.status().as_u16() {
        201 => Answer::Played(r.json().await.ok().map(|created| {
            (
                created,
                u32::try_from(t0.elapsed().as_micros()).unwrap_or(u32::MAX),
            )
        })),
        503 => Answer::Refused(retry_after(&r)),
        _ => Answer::Failed,
    }
}

/// How the games reach the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Connections {
    /// Each game slot has a client of its own, as each player has: one connection, kept alive
    /// (a slot sends one request at a time). For a server in another process.
    PerGame,
    /// All games share one pool, which opens only as many connections as requests are on
    /// their way at once. For the server in this process, whose sockets count against the
    /// same open-file limit as the games'.
    Pooled,
}

/// A client keeping up to `idle` connections alive.
fn http_client(idle: usize) -> Result<reqwest::Client> {
    reqwest::Client::builder()
        .pool_max_idle_per_host(idle)
        .tcp_nodelay(true)
        .timeout(Duration::from_secs(30))
        .build()
        .context("cannot build the HTTP client")
}

/// One game slot: plays `first` (created before the clock started, with `client`), then new
/// games until the deadline. Its first move is due at `start + start_offset`.
async fn play_game_loop(
    shared: Shared,
    client: reqwest::Client,
    first: Created,
    start: tokio::time::Instant,
    start_offset: Duration,
    seed: u64,
) -> Tally {
    let Shared {
        base,
        create_body,
        interval,
        deadline,
        stop,
    } = shared;
    let mut tally = Tally::default();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut next = start + start_offset;
    let deadline = tokio::time::Instant::from_std(deadline);
    let mut pending = Some(first);
    'games: while tokio::time::Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        let created = match pending.take() {
            Some(c) => c,
            None => match create_game(&client, &base, &create_body).await {
                Answer::Played(Some((c, micros))) => {
                    tally.creates.push(micros);
                    c
                }
                Answer::Refused(wait) => {
                    tally.refused += 1;
                    tokio::time::sleep(jittered(wait, &mut rng)).await;
                    continue;
                }
                Answer::Played(None) | Answer::Failed => {
                    tally.errors += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Some(token) = created.tokens.get("first").cloned() else {
            tally.errors += 1;
            continue;
        };
        let url = format!("{base}/api/games/{}/moves", created.id);
        let mut state = created.state;
        while state.status == "ongoing" && !state.legal_moves.is_empty() {
            if let Some(iv) = interval {
                let now = tokio::time::Instant::now();
                if next > now {
                    tokio::time::sleep_until(next).await;
                }
                next = next.max(now) + iv;
            }
            if tokio::time::Instant::now() >= deadline || stop.load(Ordering::Relaxed) {
                break 'games;
            }
            let mv = &state.legal_moves[rng.random_range(0..state.legal_moves.len())];
            let body = format!(
                "{{\"move\":{},\"token\":\"{token}\",\"version\":{}}}",
                serde_json::to_string(mv).unwrap_or_default(),
                state.version
            );
            let t0 = Instant::now();
            let answer = client
                .post(&url)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await;
            let answer = match answer {
                Ok(r) if r.status().as_u16() == 200 => Answer::Played(r.bytes().await.ok()),
                Ok(r) if r.status().as_u16() == 503 => Answer::Refused(retry_after(&r)),
                _ => Answer::Failed,
            };
            let bytes = match answer {
                Answer::Played(Some(bytes)) => bytes,
                Answer::Refused(wait) => {
                    // As a client should: wait as asked (and a random part more, so that the
                    // clients refused together do not all come back together), then send the
                    // move again.
                    tally.refused += 1;
                    tokio::time::sleep(jittered(wait, &mut rng)).await;
                    continue;
                }
                Answer::Played(None) | Answer::Failed => {
                    tally.errors += 1;
                    continue 'games;
                }
            };
            tally
                .moves
                .push(u32::try_from(t0.elapsed().as_micros()).unwrap_or(u32::MAX));
            match serde_json::from_slice::<Brief>(&bytes) {
                Ok(s) => state = s,
                Err(_) => {
                    tally.errors += 1;
                    continue 'games;
                }
            }
        }
        if state.status == "finished" {
            tally.finished += 1;
        }
    }
    tally
}

/// Runs the load test against `base` (`http://HOST:PORT`).
async fn drive(
    args: &Args,
    base: &str,
    target: String,
    connections: Connections,
) -> Result<Report> {
    let kind: boardlab_games::GameKind = args.game.parse()?;
    let pool = http_client(args.games + 16)?;
    let health = pool
        .get(format!("{base}/api/health"))
        .send()
        .await
        .with_context(|| format!("no boardlab server answers at {base}"))?;
    if !health.status().is_success() {
        bail!(
            "the server at {base} answered {} to /api/health",
            health.status()
        );
    }
    let create_body: Arc<str> = serde_json::json!({
        "game": kind.name(),
        "same_screen": true,
        "seats": { "first": "human", "second": "human" },
    })
    .to_string()
    .into();
    let base: Arc<str> = base.into();
    let interval =
        (args.rate > 0).then(|| Duration::from_secs_f64(args.games as f64 / args.rate as f64));
    let stop = Arc::new(AtomicBool::new(false));
    // Every game exists before the clock starts, each made by the client that plays it (whose
    // connection is so open already), so the measurement is of play alone.
    let client_for_game = || match connections {
        Connections::PerGame => http_client(1),
        Connections::Pooled => Ok(pool.clone()),
    };
    let mut firsts = Vec::with_capacity(args.games);
    let mut creating = tokio::task::JoinSet::new();
    let slots = Arc::new(tokio::sync::Semaphore::new(32));
    for i in 0..args.games {
        let (client, base, body, slots) = (
            client_for_game()?,
            Arc::clone(&base),
            Arc::clone(&create_body),
            Arc::clone(&slots),
        );
        creating.spawn(async move {
            let _permit = slots.acquire_owned().await;
            let created = create_game(&client, &base, &body).await;
            (i, client, created)
        });
    }
    while let Some(done) = creating.join_next().await {
        let (i, client, created) = done.context("a game creation task failed")?;
        let Answer::Played(Some((created, _))) = created else {
            bail!("the server did not create a game before the clock started");
        };
        firsts.push((i, client, created));
    }
    firsts.sort_by_key(|(i, _, _)| *i);
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    let shared = Shared {
        base,
        create_body,
        interval,
        deadline,
        stop,
    };
    let start = tokio::time::Instant::from_std(started);
    let mut tasks = Vec::with_capacity(args.games);
    for (i, client, first) in firsts {
        let offset = interval.map_or(Duration::ZERO, |iv| {
            iv.mul_f64(i as f64 / args.games as f64)
        });
        tasks.push(tokio::spawn(play_game_loop(
            shared.clone(),
            client,
            first,
            start,
            offset,
            i as u64,
        )));
    }
    let mut all = Tally::default();
    for t in tasks {
        let t = t.await.context("a game task failed")?;
        all.moves.extend(t.moves);
        all.creates.extend(t.creates);
        all.finished += t.finished;
        all.refused += t.refused;
        all.errors += t.errors;
    }
    let seconds = started
        .elapsed()
        .as_secs_f64()
        .min(args.seconds as f64)
        .max(1e-9);
    all.moves.sort_unstable();
    all.creates.sort_unstable();
    let m = &all.moves;
    Ok(Report {
        target,
        games: args.games,
        seconds,
        rate: args.rate,
        moves: m.len() as u64,
        games_created: all.creates.len() as u64,
        games_finished: all.finished,
        refused: all.refused,
        errors: all.errors,
        latency_ms: [
            percentile(m, 0.50),
            percentile(m, 0.90),
            percentile(m, 0.99),
            percentile(m, 0.999),
            percentile(m, 1.0),
        ],
        create_ms: [
            percentile(&all.creates, 0.5),
            percentile(&all.creates, 0.99),
        ],
    })
}

/// Checks the settings.
///
/// # Errors
/// Games or seconds out of range, or an unknown game.
pub fn check(args: &Args) -> Result<()> {
    if !(1..=MAX_GAMES).contains(&args.games) {
        bail!(
            "--games {} is out of range; accepted: 1 to {MAX_GAMES}",
            args.games
        );
    }
    if !(1..=MAX_SECONDS).contains(&args.seconds) {
        bail!(
            "--seconds {} is out of range; accepted: 1 to {MAX_SECONDS}",
            args.seconds
        );
    }
    if !(args.abuse || args.overload) && (args.bin.is_some() || !args.server_args.is_empty()) {
        bail!("--bin and --server-arg apply to --abuse and --overload only");
    }
    args.game.parse::<boardlab_games::GameKind>()?;
    Ok(())
}

/// Runs a load test and prints its report (the `loadtest` command).
///
/// # Errors
/// Bad settings, a non-loopback address, or no server answering.
pub fn run(args: &Args) -> Result<()> {
    if args.abuse {
        return super::abuse::run(args);
    }
    if args.overload {
        return run_overload(args).map(|_| ());
    }
    run_blocking(args).map(|_| ())
}

/// The overload case: the ceiling, then the overloaded run; both reports and what the
/// overloaded server kept of its ceiling.
///
/// # Errors
/// As [`run_blocking`].
pub fn run_overload(args: &Args) -> Result<(Report, Report)> {
    if !(1..=MAX_GAMES).contains(&args.overload_games) {
        bail!(
            "--overload-games {} is out of range; accepted: 1 to {MAX_GAMES}",
            args.overload_games
        );
    }
    check(args)?;
    let bin = match &args.bin {
        Some(b) => b.clone(),
        None => std::env::current_exe().context("cannot tell which program this is; pass --bin")?,
    };
    outln!("ceiling:")?;
    let ceiling = run_on_process(
        &bin,
        &Args {
            rate: 0,
            overload: false,
            ..args.clone()
        },
    )?;
    outln!("\noverloaded:")?;
    let overloaded = run_on_process(
        &bin,
        &Args {
            rate: 0,
            games: args.overload_games,
            overload: false,
            ..args.clone()
        },
    )?;
    let kept = overloaded.moves_per_second() / ceiling.moves_per_second().max(1e-9);
    outln!(
        "\nunder overload the server admitted {:.0} moves/s, {:.0}% of its ceiling of {:.0} \
         moves/s, at p99 {:.1} ms; {} moves were refused at once and sent again",
        overloaded.moves_per_second(),
        kept * 100.0,
        ceiling.moves_per_second(),
        overloaded.latency_ms[2],
        overloaded.refused
    )?;
    Ok((ceiling, overloaded))
}

/// Runs a load test against a server process of its own (`BIN serve`, on a temporary SQLite
/// database unless `--database` names one), prints its report and returns it.
fn run_on_process(bin: &std::path::Path, args: &Args) -> Result<Report> {
    let dir = tempdir()?;
    let database = database_in(args, &dir);
    // Every game comes from this one address: no creation or connection limit here.
    let mut server_args: Vec<String> = [
        "--games-per-minute=0",
        "--connections-per-address=0",
        "--max-connections=100000",
    ]
    .map(String::from)
    .to_vec();
    server_args.extend(args.server_args.iter().cloned());
    let server = super::abuse::server::ServerProcess::start(bin, &database, &server_args)?;
    let target = format!(
        "{} (server process {}, {database})",
        server.base, server.pid
    );
    let report =
        client_runtime()?.block_on(drive(args, &server.base, target, Connections::PerGame));
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    let report = report?;
    outln!("{report}")?;
    Ok(report)
}

/// The runtime the games are played from, with as many open files as the system allows.
fn client_runtime() -> Result<tokio::runtime::Runtime> {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .thread_name("loadtest-client")
        .enable_all()
        .build()?)
}

/// Runs a load test, prints its report and returns it.
///
/// # Errors
/// As [`run`].
pub fn run_blocking(args: &Args) -> Result<Report> {
    check(args)?;
    boardlab_server::init_logging("warn");
    let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let client_rt = client_runtime()?;
    let report = if let Some(addr) = &args.addr {
        let addr = loopback(addr)?;
        client_rt.block_on(drive(
            args,
            &format!("http://{addr}"),
            format!("http://{addr}"),
            Connections::PerGame,
        ))?
    } else {
        let dir = tempdir()?;
        let database = database_in(args, &dir);
        let server_rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .thread_name("loadtest-server")
            .enable_all()
            .build()?;
        // Every game comes from this one address: no creation or connection limit here.
        let serve = ServeArgs {
            addr: "127.0.0.1:0".into(),
            database,
            games_per_minute: 0,
            connections_per_address: 0,
            ..ServeArgs::default()
        };
        let server = server_rt.block_on(Server::bind(&serve))?;
        let addr = server.local_addr()?;
        let target = format!(
            "http://{addr} (in-process server, {})",
            server.store_description()
        );
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let running = server_rt.spawn(server.run(async {
            let _ = rx.await;
        }));
        let report = client_rt.block_on(drive(
            args,
            &format!("http://{addr}"),
            target,
            Connections::Pooled,
        ));
        let _ = tx.send(());
        let _ = server_rt.block_on(running);
        let _ = std::fs::remove_dir_all(&dir);
        report?
    };
    outln!("{report}")?;
    Ok(report)
}

/// `--database`, or a temporary SQLite file in `dir`.
fn database_in(args: &Args, dir: &std::path::Path) -> String {
    args.database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("loadtest.db").display()))
}

fn tempdir() -> Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!(
        "boardlab-loadtest-{}-{}",
        std::process::id(),
        boardlab_server::now_ms()
    ));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}

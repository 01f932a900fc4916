//! The boardlab game server: an HTTP + WebSocket API for playing every boardlab game, with
//! each game stored as an append-only move log in SQLite (the default, one file) or
//! PostgreSQL (several servers on one database, kept in step with LISTEN/NOTIFY), and the
//! browser UI served from the binary.
//!
//! - [`Server::bind`] then [`Server::run`] serve until a shutdown signal; [`ServeArgs`] are the
//!   command-line settings shared by `boardlab serve` and the `boardlab-server` binary.
//! - The API is documented in `docs/api.md` and served as OpenAPI at `/api/openapi.json`.

pub mod app;
pub mod bot;
pub mod clock;
pub mod error;
pub mod hashing;
pub mod http;
pub mod limits;
pub mod player;
pub mod ratings;
pub mod scheduler;
pub mod services;
pub mod settings;
pub mod site;
pub mod state;
pub mod store;
pub mod token;
pub mod view;

use anyhow::{Context, Result};
use app::App;
use settings::Settings;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use store::Store;
use tokio::net::TcpListener;

/// The default listening address.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// The default database: `boardlab.db` in the working directory.
pub const DEFAULT_DATABASE: &str = "sqlite://boardlab.db";

/// Locks `m`, going on past a panic of another holder (every value kept under these locks is
/// whole between statements).
pub(crate) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Milliseconds since 1970.
#[must_use]
pub fn now_ms() -> i64 {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// An RFC 3339 time (UTC, milliseconds) from milliseconds since 1970.
#[must_use]
pub fn rfc3339(ms: i64) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let f = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    );
    t.format(&f).unwrap_or_default()
}

/// The command-line settings of the server.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (use 0.0.0.0:PORT to accept connections from other machines).
    #[arg(long, default_value = DEFAULT_ADDR)]
    pub addr: String,
    /// Database: sqlite://FILE (or just a file path), or postgres://USER:PASSWORD@HOST/DB.
    /// For SQLite, ?synchronous=full also makes commits survive power loss (the default
    /// survives any crash of the server process), and ?busy_timeout=MS sets how long a write
    /// waits for a lock held by another process before it fails (default 10000).
    #[arg(long, default_value = DEFAULT_DATABASE)]
    pub database: String,
    /// Pause before each computer move, in milliseconds (for watching computer games).
    #[arg(long, default_value_t = 0)]
    pub computer_delay_ms: u64,
    /// Serve the browser UI from the source tree's web/ folder, and the rules pages from its
    /// docs/rules/, on disk instead of the copies built into the binary (for working on the UI
    /// and the rules pages: edits show on reload).
    #[arg(long)]
    pub dev: bool,
    /// As `--dev`, from this `web/` folder (of another checkout) and the `docs/rules/` beside
    /// it.
    #[arg(long, value_name = "DIR")]
    pub web_dir: Option<std::path::PathBuf>,
    /// Connections served at once (lowered to what the open-file limit allows); further
    /// clients wait until one closes.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,
    /// Seconds a client has to send a request's headers; also the longest a kept-alive
    /// connection may stay idle between requests.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout: u64,
    /// Seconds a client has to send a request's body.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub body_timeout: u64,
    /// Requests served at once, live streams apart [default: 1024 per core]; past it a request
    /// is answered 503 with Retry-After at once, before any work is done for it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_in_flight: Option<u64>,
    /// The latency the server keeps what it admits under (e.g. 40ms): while more than one
    /// request in ten takes longer, fewer requests are served at once (never fewer than 64 per
    /// core) and the rest are refused with 503 and Retry-After.
    #[arg(long, default_value = "40ms", value_parser = parse_duration)]
    pub latency_target: Duration,
    /// Longest time per move a computer seat may ask for (e.g. 10s, 500ms). Games asking for
    /// more are refused; games stored with more (from an earlier setting) think this long.
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    pub computer_max_time: Duration,
    /// Search threads that computer players and hints may use together, and the most one
    /// computer seat may use [default: one per core].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub computer_threads: Option<u64>,
    /// An outside engine computer seats may run (`computer:ugi:COMMAND`): its command line,
    /// program and arguments, split like a shell does (repeatable). Seats name engines
    /// exactly so; no other command is ever run.
    #[arg(long = "ugi-engine", value_name = "COMMAND")]
    pub ugi_engines: Vec<String>,
    /// Games one client address may create per minute (0: no limit); up to this many at once.
    #[arg(long, default_value_t = 60)]
    pub games_per_minute: u32,
    /// Hints one client address may ask for per minute (0: no limit); up to 10 at once.
    #[arg(long, default_value_t = 30)]
    pub hints_per_minute: u32,
    /// The server sits behind a proxy it trusts (nginx, a load balancer): take a client's
    /// address from the last entry of X-Forwarded-For rather than from the connection.
    #[arg(long)]
    pub trust_proxy: bool,
    /// Log-ins and sign-ups one address may try per minute, and failed log-ins an account
    /// may see per minute from devices it does not know (each of its known devices has an
    /// allowance of its own) (0: no limit).
    #[arg(long, default_value_t = 10)]
    pub logins_per_minute: u32,
    /// The server is reached over TLS (a proxy terminates it): session cookies are marked
    /// Secure. Behind --trust-proxy, X-Forwarded-Proto: https does the same per request.
    #[arg(long)]
    pub behind_tls: bool,
    /// Connections one client address may hold open at once (0: no limit); past it a new
    /// connection is answered 429 and closed. Not applied behind --trust-proxy (every
    /// connection then comes from the proxy, which should limit them itself).
    #[arg(long, default_value_t = 256)]
    pub connections_per_address: u32,
    /// Live streams (WebSockets and server-sent events) open at once from all clients
    /// [default: three quarters of --max-connections]: the other connections stay free for
    /// ordinary requests.
    #[arg(long)]
    pub max_streams: Option<u64>,
    /// Live streams one client address may hold open at once (0: no limit).
    #[arg(long, default_value_t = 16)]
    pub streams_per_address: u32,
    /// Seconds a live stream stays open before the server closes it (the client reconnects);
    /// a stream whose peer stops answering is dropped sooner.
    #[arg(long, default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub stream_max_age: u64,
    /// Seconds after its author closed the app's last page that a challenge for a game
    /// played now (real time or untimed) lapses; correspondence challenges stay 24 hours.
    #[arg(long, default_value_t = services::lobby::DEFAULT_LAPSE_SECONDS, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub challenge_lapse: u64,
    /// Search threads the analysis board may hold at once [default: half of
    /// --computer-threads, at least one]. Computer players and hints come first.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub analysis_threads: Option<u64>,
    /// Analysis-board streams one client address may hold open at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub analysis_streams_per_address: u32,
    /// Passwords hashed at once (each takes 19 MiB for a moment) [default: one per core].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub hash_threads: Option<u64>,
    /// Log-ins and sign-ups that may wait for a hashing thread; past it they are answered
    /// 503 with Retry-After.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub hash_queue: u32,
}

fn parse_duration(text: &str) -> Result<Duration, String> {
    let d = boardlab_ai::spec::parse_duration(text)?;
    if d.is_zero() {
        return Err("must be more than zero".into());
    }
    Ok(d)
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs {
            addr: DEFAULT_ADDR.to_string(),
            database: DEFAULT_DATABASE.to_string(),
            computer_delay_ms: 0,
            dev: false,
            web_dir: None,
            max_connections: 10_000,
            header_timeout: 10,
            body_timeout: 10,
            max_in_flight: None,
            latency_target: Duration::from_millis(40),
            computer_max_time: Duration::from_secs(10),
            computer_threads: None,
            ugi_engines: Vec::new(),
            games_per_minute: 60,
            hints_per_minute: 30,
            trust_proxy: false,
            logins_per_minute: 10,
            behind_tls: false,
            connections_per_address: 256,
            max_streams: None,
            streams_per_address: 16,
            stream_max_age: 1800,
            challenge_lapse: services::lobby::DEFAULT_LAPSE_SECONDS,
            analysis_threads: None,
            analysis_streams_per_address: 2,
            hash_threads: None,
            hash_queue: 16,
        }
    }
}

impl ServeArgs {
    /// The connection limits these settings give.
    #[must_use]
    pub fn connection_limits(&self) -> settings::ConnectionLimits {
        settings::ConnectionLimits {
            max_connections: usize::try_from(self.max_connections).unwrap_or(usize::MAX),
            per_address: if self.trust_proxy {
                0
            } else {
                self.connections_per_address
            },
            header_timeout: Duration::from_secs(self.header_timeout),
            body_timeout: Duration::from_secs(self.body_timeout),
            max_in_flight: self.max_in_flight.map_or_else(
                || 1024 * std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
                |n| usize::try_from(n).unwrap_or(usize::MAX),
            ),
            latency_target: self.latency_target,
        }
    }

    /// The commands of the outside engines computer seats may run.
    ///
    /// # Errors
    /// A command with an unfinished quote, or an empty one.
    pub fn engines(&self) -> Result<Vec<Vec<String>>> {
        self.ugi_engines
            .iter()
            .map(|text| match shlex::split(text) {
                Some(words) if !words.is_empty() => Ok(words),
                _ => anyhow::bail!(
                    "--ugi-engine '{text}': write the command line, e.g. --ugi-engine './engine --ugi'"
                ),
            })
            .collect()
    }

    /// The computer-player limits these settings give.
    #[must_use]
    pub fn computer_limits(&self) -> settings::ComputerLimits {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        let threads = self
            .computer_threads
            .map_or(cores, |t| usize::try_from(t).unwrap_or(cores));
        settings::ComputerLimits {
            max_time: self.computer_max_time,
            threads,
            analysis_threads: self
                .analysis_threads
                .map_or((threads / 2).max(1), |t| {
                    usize::try_from(t).unwrap_or(threads)
                })
                .min(threads),
        }
    }

    /// The live-stream and password-hashing budgets these settings give.
    #[must_use]
    pub fn budgets(&self) -> settings::Budgets {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        let max = usize::try_from(self.max_connections).unwrap_or(usize::MAX);
        settings::Budgets {
            max_streams: self
                .max_streams
                .map_or(max / 4 * 3, |n| usize::try_from(n).unwrap_or(usize::MAX))
                .max(1),
            streams_per_address: self.streams_per_address,
            stream_max_age: Duration::from_secs(self.stream_max_age),
            analysis_streams_per_address: self.analysis_streams_per_address,
            hash_threads: self
                .hash_threads
                .map_or(cores, |t| usize::try_from(t).unwrap_or(cores)),
            hash_queue: self.hash_queue as usize,
        }
    }
}

/// A server bound to its address, ready to run.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    app: Arc<App>,
    connections: settings::ConnectionLimits,
    background: Vec<tokio::task::JoinHandle<()>>,
}

impl Server {
    /// Opens the database (running migrations), binds the address and starts the background
    /// tasks (storage writer, computer players, PostgreSQL notifications).
    ///
    /// # Errors
    /// A bad address or database URL, an unreachable database, or an address in use.
    pub async fn bind(args: &ServeArgs) -> Result<Server> {
        let addr: SocketAddr = args.addr.parse().with_context(|| {
            format!(
                "bad address '{}'; write HOST:PORT, e.g. 127.0.0.1:8080",
                args.addr
            )
        })?;
        let engines = args.engines()?;
        let store = Arc::new(
            Store::open(&args.database)
                .await
                .with_context(|| "cannot open the database".to_string())?,
        );
        store.start_writer().await;
        let listener = TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let app = App::new(
            store,
            Settings {
                computer_delay: Duration::from_millis(args.computer_delay_ms),
                web_dir: args
                    .web_dir
                    .clone()
                    .or_else(|| args.dev.then(http::web::source_dir)),
                computer: args.computer_limits(),
                engines,
                games_per_minute: args.games_per_minute,
                hints_per_minute: args.hints_per_minute,
                trust_proxy: args.trust_proxy,
                logins_per_minute: args.logins_per_minute,
                behind_tls: args.behind_tls,
                budgets: args.budgets(),
                challenge_lapse: Duration::from_secs(args.challenge_lapse),
            },
        );
        let mut connections = args.connection_limits();
        if let Some(warning) = connections.fit_to_open_file_limit() {
            tracing::warn!("{warning}");
        }
        let mut background = Vec::new();
        if let Some(pool) = app.store.pg_pool() {
            background.push(tokio::spawn(listen_postgres(
                Arc::clone(&app),
                pool.clone(),
            )));
            let notifier = Arc::clone(&app.notifier);
            background.push(tokio::spawn(async move { notifier.send_notices().await }));
            let notifier = Arc::clone(&app.notifier);
            background.push(tokio::spawn(async move {
                let mut tick = tokio::time::interval(services::notify::PRESENCE_RENEW);
                loop {
                    tick.tick().await;
                    notifier.renew_presence();
                }
            }));
        }
        // Computer games interrupted by a restart continue at once; later sweeps pick up games
        // another server left waiting.
        app.computer.sweep(Duration::ZERO).await;
        // Clocks that ran while no server was up are flagged now; the others get timers.
        app.clocks.sweep_clocks(true).await;
        let sweeper = Arc::clone(&app);
        background.push(tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(10));
            tick.tick().await;
            loop {
                tick.tick().await;
                sweeper.computer.sweep(Duration::from_secs(30)).await;
                sweeper.clocks.sweep_clocks(false).await;
                sweeper.ratings.rate_pending().await;
                let expired = now_ms() - services::lobby::CHALLENGE_HOURS * 60 * 60 * 1000;
                let lapsed = sweeper.lobby.present_since();
                match sweeper.store.purge_challenges(expired, lapsed).await {
                    Ok(0) => {}
                    Ok(_) => sweeper.notifier.lobby_changed().await,
                    Err(e) => tracing::warn!("cannot drop expired challenges: {e}"),
                }
                if let Err(e) = sweeper.store.purge_login_failures(now_ms() - 120_000).await {
                    tracing::warn!("cannot forget old failed log-ins: {e}");
                }
                sweeper.forget_idle_clients();
            }
        }));
        Ok(Server {
            listener,
            app,
            connections,
            background,
        })
    }

    /// The address actually bound (useful with port 0).
    ///
    /// # Errors
    /// The socket has no local address.
    pub fn local_addr(&self) -> Result<SocketAddr> {
        Ok(self.listener.local_addr()?)
    }

    /// The database in use, for messages.
    #[must_use]
    pub fn store_description(&self) -> String {
        self.app.store.description().to_string()
    }

    /// Serves until `shutdown` completes, then stops gracefully: no new connections, requests
    /// in flight finish, live connections close, queued writes commit.
    ///
    /// At most `max_connections` connections are served at once; a client that sends its
    /// headers or body too slowly, or keeps a connection idle too long, is disconnected.
    ///
    /// # Errors
    /// The listener failed.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<()> {
        use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
        use tower::ServiceExt as _;
        let app = Arc::clone(&self.app);
        let limits = self.connections;
        let router = http::router(Arc::clone(&app))
            .layer(axum::middleware::from_fn_with_state(
                http::admission::Admission::new(limits.max_in_flight, limits.latency_target),
                http::admission::admit,
            ))
            .layer(axum::extract::DefaultBodyLimit::max(
                http::extract::BODY_LIMIT,
            ))
            .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
                limits.body_timeout,
            ))
            .layer(tower_http::catch_panic::CatchPanicLayer::custom(
                panic_response,
            ))
            .layer(axum::middleware::map_response(security_headers))
            .layer(
                tower_http::trace::TraceLayer::new_for_http()
                    .make_span_with(tower_http::trace::DefaultMakeSpan::new())
                    .on_response(tower_http::trace::DefaultOnResponse::new())
                    .on_failure(log_failure),
            );
        let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout);
        let builder = builder.http1_only();
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let slots = Arc::new(tokio::sync::Semaphore::new(limits.max_connections));
        let per_address = limits::Gauge::new("connections", usize::MAX, limits.per_address);
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            // A connection is accepted only when there is room for it.
            let permit = tokio::select! {
                p = Arc::clone(&slots).acquire_owned() => p.context("connection slots")?,
                () = &mut shutdown => break,
            };
            let (stream, peer) = tokio::select! {
                r = self.listener.accept() => match r {
                    Ok(c) => c,
                    Err(e) => {
                        // Out of file descriptors or a connection reset before it was
                        // accepted: wait a moment instead of spinning.
                        tracing::warn!("cannot accept a connection: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let _ = stream.set_nodelay(true);
            keep_alive(&stream);
            let held = match per_address.open(peer.ip()) {
                Ok(held) => held,
                Err(refusal) => {
                    refuse(stream, refusal, limits.header_timeout, permit);
                    continue;
                }
            };
            let service = router.clone().map_request(
                move |mut r: axum::http::Request<hyper::body::Incoming>| {
                    r.extensions_mut().insert(axum::extract::ConnectInfo(peer));
                    r
                },
            );
            let conn = builder
                .serve_connection_with_upgrades(
                    TokioIo::new(stream),
                    hyper_util::service::TowerToHyperService::new(service),
                )
                .into_owned();
            let conn = graceful.watch(conn);
            tokio::spawn(async move {
                if let Err(e) = conn.await {
                    tracing::debug!("connection from {peer} ended: {e}");
                }
                drop((held, permit));
            });
        }
        tracing::info!("shutting down");
        drop(self.listener);
        app.begin_shutdown();
        if tokio::time::timeout(Duration::from_secs(10), graceful.shutdown())
            .await
            .is_err()
        {
            tracing::warn!("some connections did not close within 10 s");
        }
        app.computer.wait(Duration::from_secs(5)).await;
        for task in self.background {
            task.abort();
        }
        app.store.close().await;
        tracing::info!("stopped");
        Ok(())
    }
}

/// Logs an answer that failed on the server's side. A 503 is a refusal the server chose (a
/// budget spent, logged at debug level so an attack cannot flood the log) or a storage
/// failure (logged where it happened).
fn log_failure(
    class: tower_http::classify::ServerErrorsFailureClass,
    latency: Duration,
    _: &tracing::Span,
) {
    use tower_http::classify::ServerErrorsFailureClass as Class;
    match class {
        Class::StatusCode(s) if s == axum::http::StatusCode::SERVICE_UNAVAILABLE => {
            tracing::debug!(?latency, "answered 503");
        }
        class => tracing::error!(?latency, "response failed: {class}"),
    }
}

/// Has the operating system probe an idle connection and drop it when the peer is gone
/// (a live stream to a vanished client would otherwise stay open until its maximum age).
fn keep_alive(stream: &tokio::net::TcpStream) {
    let sock = socket2::SockRef::from(stream);
    let probes = socket2::TcpKeepalive::new()
        .with_time(Duration::from_secs(30))
        .with_interval(Duration::from_secs(10))
        .with_retries(3);
    let _ = sock.set_tcp_keepalive(&probes);
    // Data the peer does not acknowledge for a minute (a stream's heartbeats) ends it too.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let _ = sock.set_tcp_user_timeout(Some(Duration::from_secs(60)));
}

/// Answers every request on a connection the server will not serve (its address holds its
/// share of connections) with `refusal`, then closes it.
fn refuse(
    stream: tokio::net::TcpStream,
    refusal: error::ApiError,
    header_timeout: Duration,
    permit: tokio::sync::OwnedSemaphorePermit,
) {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    tokio::spawn(async move {
        let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .keep_alive(false)
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout);
        let service = tower::service_fn(move |_: axum::http::Request<hyper::body::Incoming>| {
            let refusal = refusal.clone();
            async move {
                let mut r = axum::response::IntoResponse::into_response(refusal);
                r.headers_mut().insert(
                    axum::http::header::CONNECTION,
                    axum::http::HeaderValue::from_static("close"),
                );
                Ok::<_, std::convert::Infallible>(r)
            }
        });
        let builder = builder.http1_only();
        let conn = builder.serve_connection(
            TokioIo::new(stream),
            hyper_util::service::TowerToHyperService::new(service),
        );
        let _ = tokio::time::timeout(header_timeout * 2, conn).await;
        drop(permit);
    });
}

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> axum::response::Response {
    tracing::error!("a request handler panicked");
    axum::response::IntoResponse::into_response(error::ApiError::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "internal error",
    ))
}

async fn security_headers(mut r: axum::response::Response) -> axum::response::Response {
    use axum::http::{header, HeaderValue};
    let h = r.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    r
}

/// Follows other servers' changes on PostgreSQL. A lost connection may have dropped
/// notifications, so then every cached game is forgotten.
async fn listen_postgres(app: Arc<App>, pool: sqlx::PgPool) {
    loop {
        let mut listener = match sqlx::postgres::PgListener::connect_with(&pool).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!("cannot listen for changes: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if let Err(e) = listener
            .listen_all([
                store::NOTIFY_CHANNEL,
                store::LOBBY_CHANNEL,
                store::ACCOUNT_CHANNEL,
                store::PRESENCE_CHANNEL,
                store::REVIEW_CHANNEL,
            ])
            .await
        {
            tracing::warn!("cannot listen for changes: {e}");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        app.games.forget_all().await;
        loop {
            match listener.try_recv().await {
                Ok(Some(n)) if n.channel() == store::LOBBY_CHANNEL => {
                    app.notifier.lobby_changed_here()
                }
                Ok(Some(n)) if n.channel() == store::PRESENCE_CHANNEL => {
                    app.notifier.presence_elsewhere(n.payload());
                }
                Ok(Some(n)) if n.channel() == store::REVIEW_CHANNEL => {
                    if let Some((id, text)) = app.notifier.review_elsewhere(n.payload()) {
                        app.reviews.progress_elsewhere(id, text);
                    }
                }
                Ok(Some(n)) if n.channel() == store::ACCOUNT_CHANNEL => {
                    if let Some((account, text)) = n.payload().split_once(' ') {
                        app.notifier.tell_account_here(account, text);
                    }
                }
                Ok(Some(n)) => {
                    let mut parts = n.payload().split(' ');
                    if let (Some(id), Some(Ok(version))) =
                        (parts.next(), parts.next().map(str::parse::<i64>))
                    {
                        let app = Arc::clone(&app);
                        let id = id.to_string();
                        tokio::spawn(
                            async move { app.games.changed_elsewhere(&id, version).await },
                        );
                    }
                }
                Ok(None) => {
                    tracing::warn!("lost the notification connection; reconnecting");
                    app.games.forget_all().await;
                }
                Err(e) => {
                    tracing::warn!("notification connection failed: {e}");
                    break;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// Logs to standard error; `RUST_LOG` chooses what (default: `default`, e.g.
/// `boardlab_server=info,warn`).
pub fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .try_init();
}

/// Runs the server until Ctrl-C or SIGTERM (the `serve` command). Prints the address to open.
///
/// # Errors
/// As [`Server::bind`] and [`Server::run`].
pub fn serve_blocking(args: &ServeArgs) -> Result<()> {
    init_logging("boardlab_server=info,warn");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let server = Server::bind(args).await?;
        let addr = server.local_addr()?;
        let shown = if addr.ip().is_unspecified() {
            SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), addr.port())
        } else {
            addr
        };
        // A closed standard output does not stop the server (a log reader may go away).
        {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(
                out,
                "boardlab server listening on http://{addr} (database: {})",
                server.store_description()
            )
            .and_then(|()| {
                writeln!(
                    out,
                    "open http://{shown}/ in a browser; press Ctrl-C to stop"
                )
            })
            .and_then(|()| out.flush());
        }
        server.run(shutdown_signal()).await
    })
}

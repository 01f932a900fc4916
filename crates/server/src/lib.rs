//! The boardlab game server: an HTTP + WebSocket API for playing every boardlab game, with
//! each game stored as an append-only move log in SQLite (the default, one file) or
//! PostgreSQL (several servers on one database, kept in step with LISTEN/NOTIFY), and the
//! browser UI served from the binary.
//!
//! - [`Server::bind`] then [`Server::run`] serve until a shutdown signal; [`ServeArgs`] are the
//!   command-line settings shared by `boardlab serve` and the `boardlab-server` binary.
//! - [`loadtest`] plays many concurrent games against a server and reports moves/s and
//!   latency percentiles (`boardlab loadtest`).
//! - The API is documented in `docs/api.md` and served as OpenAPI at `/api/openapi.json`.

pub mod api;
pub mod app;
pub mod board;
pub mod bot;
pub mod error;
mod live;
pub mod loadtest;
pub mod player;
pub mod state;
pub mod store;
pub mod token;
pub mod view;
pub mod web;

use anyhow::{Context, Result};
use app::{App, Settings};
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
    /// survives any crash of the server process).
    #[arg(long, default_value = DEFAULT_DATABASE)]
    pub database: String,
    /// Pause before each computer move, in milliseconds (for watching computer games).
    #[arg(long, default_value_t = 0)]
    pub computer_delay_ms: u64,
    /// Serve the browser UI from the source tree's web/ folder on disk instead of the copy
    /// built into the binary (for working on the UI: edits show on reload).
    #[arg(long)]
    pub dev: bool,
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs {
            addr: DEFAULT_ADDR.to_string(),
            database: DEFAULT_DATABASE.to_string(),
            computer_delay_ms: 0,
            dev: false,
        }
    }
}

/// A server bound to its address, ready to run.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    app: Arc<App>,
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
                web_dir: args.dev.then(web::source_dir),
            },
        );
        let mut background = Vec::new();
        if let Some(pool) = app.store.pg_pool() {
            background.push(tokio::spawn(listen_postgres(
                Arc::clone(&app),
                pool.clone(),
            )));
        }
        // Computer games interrupted by a restart continue at once; later sweeps pick up games
        // another server left waiting.
        app.sweep_computer_games(Duration::ZERO).await;
        let sweeper = Arc::clone(&app);
        background.push(tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(10));
            tick.tick().await;
            loop {
                tick.tick().await;
                sweeper.sweep_computer_games(Duration::from_secs(30)).await;
            }
        }));
        Ok(Server {
            listener,
            app,
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
    /// # Errors
    /// The listener failed.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<()> {
        let app = Arc::clone(&self.app);
        let router = api::router(Arc::clone(&app))
            .layer(axum::extract::DefaultBodyLimit::max(api::BODY_LIMIT))
            .layer(tower_http::catch_panic::CatchPanicLayer::custom(
                panic_response,
            ))
            .layer(axum::middleware::map_response(security_headers))
            .layer(
                tower_http::trace::TraceLayer::new_for_http()
                    .make_span_with(tower_http::trace::DefaultMakeSpan::new())
                    .on_response(tower_http::trace::DefaultOnResponse::new()),
            );
        let signal_app = Arc::clone(&app);
        axum::serve(self.listener, router)
            .with_graceful_shutdown(async move {
                shutdown.await;
                tracing::info!("shutting down");
                signal_app.begin_shutdown();
            })
            .await
            .context("the server failed")?;
        app.wait_for_computers(Duration::from_secs(5)).await;
        for task in self.background {
            task.abort();
        }
        app.store.close().await;
        tracing::info!("stopped");
        Ok(())
    }
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
        if let Err(e) = listener.listen(store::NOTIFY_CHANNEL).await {
            tracing::warn!("cannot listen for changes: {e}");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        app.forget_all().await;
        loop {
            match listener.try_recv().await {
                Ok(Some(n)) => {
                    let mut parts = n.payload().split(' ');
                    if let (Some(id), Some(Ok(version))) =
                        (parts.next(), parts.next().map(str::parse::<i64>))
                    {
                        let app = Arc::clone(&app);
                        let id = id.to_string();
                        tokio::spawn(async move { app.changed_elsewhere(&id, version).await });
                    }
                }
                Ok(None) => {
                    tracing::warn!("lost the notification connection; reconnecting");
                    app.forget_all().await;
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
        println!(
            "boardlab server listening on http://{addr} (database: {})",
            server.store_description()
        );
        println!("open http://{shown}/ in a browser; press Ctrl-C to stop");
        server.run(shutdown_signal()).await
    })
}

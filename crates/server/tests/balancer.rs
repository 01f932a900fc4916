//! Several servers, proven: two server processes behind nginx on one PostgreSQL database.
//!
//! Many same-screen games are played through nginx while one server is killed with SIGKILL
//! and later restarted on its port. Clients must keep playing through the other server (only
//! requests in flight at the kill may fail), no acknowledged move may ever disappear (each
//! client reads its game back through nginx after every acknowledged move, whichever server
//! answers), live connections to the killed server are closed and reconnect through nginx to
//! the other one without missing a move, and at the end every game reads the same through
//! nginx and from each server directly.
//!
//! Needs `BOARDLAB_TEST_POSTGRES_URL` and an `nginx` binary. Without them the test is skipped
//! with a notice, except under CI (the `CI` variable set), where it fails instead.

mod common;

use common::{legal, postgres_url, version};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// Clients playing games through nginx at the same time.
const CLIENTS: usize = 12;
/// Games followed over WebSocket connections.
const WATCHED: usize = 3;
/// How long the load runs in each phase (both servers, one server, both again).
const PHASE: Duration = Duration::from_millis(1500);
/// Longest any single request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest to wait for a live update.
const LIVE_TIMEOUT: Duration = Duration::from_secs(5);

/// Called when `what` is missing. Under CI (the `CI` variable set) that is a failure, so the
/// test can never be skipped there silently: it panics naming what is missing. Elsewhere it
/// prints a notice and returns false: the test cannot run.
fn require_or_skip(what: &str) -> bool {
    assert!(
        std::env::var_os("CI").is_none(),
        "the balancer test needs {what}; CI is set, so it may not be skipped"
    );
    eprintln!("SKIPPED: the balancer test needs {what}");
    false
}

/// The nginx binary: on the PATH or in the sbin folders where distributions install it.
fn find_nginx() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/local/sbin", "/usr/local/nginx/sbin"].map(PathBuf::from))
        .map(|d| d.join("nginx"))
        .find(|p| p.is_file())
}

/// A child process, killed when dropped (so a failing test leaves nothing running).
struct Proc {
    child: Child,
}

impl Proc {
    /// SIGKILL, and wait for the process to be gone.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Starts the server binary on `database` at `addr`; returns the process and its address, or
/// `None` when it exits before printing the address (e.g. the port is still taken).
fn spawn_server(database: &str, addr: &str) -> Option<(Proc, SocketAddr)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab-server"))
        .args(["--addr", addr, "--database", database])
        .args(["--trust-proxy", "--games-per-minute", "0"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server binary starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut proc = Proc { child };
    let mut lines = BufReader::new(stdout).lines();
    let Some(Ok(first)) = lines.next() else {
        proc.kill();
        return None;
    };
    let addr: SocketAddr = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in '{first}'"));
    // Keep reading so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Some((proc, addr))
}

/// Starts a server on `port` (0: any free port), retrying for a few seconds while the port
/// is still held by a process that was just killed.
fn start_server(database: &str, port: u16) -> (Proc, SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(started) = spawn_server(database, &format!("127.0.0.1:{port}")) {
            return started;
        }
        assert!(
            Instant::now() < deadline,
            "the server does not start on port {port}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// The nginx configuration: both servers as one upstream, WebSocket upgrades passed through,
/// client addresses in X-Forwarded-For, and each response naming the server that answered it
/// (`X-Upstream`) so the test can see where requests went.
fn nginx_config(dir: &Path, listen: u16, servers: [SocketAddr; 2]) -> String {
    let d = dir.display();
    format!(
        r#"worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {d}/client_body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;

    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      '';
    }}

    upstream boardlab {{
        server {a} max_fails=1 fail_timeout=1s;
        server {b} max_fails=1 fail_timeout=1s;
        keepalive 32;
        keepalive_timeout 5s;
    }}

    server {{
        listen 127.0.0.1:{listen};

        proxy_http_version 1.1;
        proxy_set_header Host $host;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_connect_timeout 1s;
        proxy_next_upstream error timeout http_502 http_503;
        proxy_next_upstream_timeout 10s;
        add_header X-Upstream $upstream_addr always;

        location ~ ^/api/games/[^/]+/(live|events)$ {{
            proxy_pass http://boardlab;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            proxy_buffering off;
        }}

        location / {{
            proxy_pass http://boardlab;
            proxy_read_timeout 60s;
        }}
    }}
}}
"#,
        a = servers[0],
        b = servers[1],
    )
}

/// Starts nginx on `dir/nginx.conf` in the foreground and waits until it answers.
async fn start_nginx(nginx: &Path, dir: &Path, servers: [SocketAddr; 2]) -> (Proc, u16) {
    use std::os::unix::fs::PermissionsExt;
    // Workers may run as an unprivileged user when the test runs as root: let them through.
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    for t in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"] {
        let p = dir.join(t);
        std::fs::create_dir_all(&p).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let log = dir.join("error.log");
    let mut tries = 0;
    loop {
        tries += 1;
        let port = free_port();
        let conf = dir.join("nginx.conf");
        std::fs::write(&conf, nginx_config(dir, port, servers)).unwrap();
        let child = Command::new(nginx)
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(&conf)
            .arg("-e")
            .arg(&log)
            .args(["-g", "daemon off;"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx starts");
        let mut proc = Proc { child };
        let http = http_client();
        let deadline = Instant::now() + Duration::from_secs(5);
        let ready = loop {
            if proc.child.try_wait().ok().flatten().is_some() {
                break false;
            }
            if let Ok(r) = http
                .get(format!("http://127.0.0.1:{port}/api/health"))
                .send()
                .await
            {
                if r.status() == 200 {
                    break true;
                }
            }
            if Instant::now() > deadline {
                break false;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        if ready {
            return (proc, port);
        }
        proc.kill();
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        // Another process may have taken the port between choosing and binding it.
        assert!(
            tries < 3 && text.contains("Address already in use"),
            "nginx did not start; its log:\n{text}"
        );
    }
}

fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(REQUEST_TIMEOUT)
        .connect_timeout(Duration::from_secs(2))
        .build()
        .expect("client")
}

/// An answer: status, the server that gave it (from nginx's `X-Upstream`), JSON body.
struct Answer {
    status: u16,
    upstream: Option<String>,
    body: Value,
}

async fn send(req: reqwest::RequestBuilder) -> Result<Answer, reqwest::Error> {
    let r = req.send().await?;
    let status = r.status().as_u16();
    let upstream = upstream_of(r.headers());
    let text = r.text().await?;
    Ok(Answer {
        status,
        upstream,
        body: serde_json::from_str(&text).unwrap_or(Value::Null),
    })
}

/// The port of the server that answered: the last address nginx tried.
fn upstream_of(headers: &reqwest::header::HeaderMap) -> Option<String> {
    let v = headers.get("x-upstream")?.to_str().ok()?;
    v.rsplit([',', ':'])
        .next()
        .map(|port| port.trim().to_string())
}

fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("a moves list")
        .iter()
        .map(|m| m["move"].as_str().expect("move text").to_string())
        .collect()
}

/// What one client knows of one game.
#[derive(Clone, Default)]
struct Played {
    id: String,
    /// The longest move list the client has been shown (answers and re-reads); it only grows.
    seen: Vec<String>,
    /// Every move answered 200, with its ply.
    acked: Vec<(usize, String)>,
    /// Requests on this game that failed (in flight at the kill).
    failures: usize,
}

/// Shared by the load clients and the test.
struct Load {
    nginx: String,
    http: reqwest::Client,
    /// The ports of server A and server B.
    ports: [String; 2],
    /// 0: both servers up; 1: A killed; 2: A restarted.
    phase: AtomicUsize,
    /// Answers per phase given by A and by B.
    served: [[AtomicU64; 2]; 3],
    /// When server A was killed.
    killed: OnceLock<Instant>,
    /// Requests that failed (nginx 502/503/504 or a transport error).
    failed: AtomicU64,
    /// Requests that failed although nothing was in flight on a dying server: before the
    /// kill, or over a second after it.
    failed_late: Mutex<Vec<String>>,
    /// Reads of a game right after one of its moves was acknowledged.
    readbacks: AtomicU64,
    /// Re-reads of a game after a failure.
    rereads: AtomicU64,
    /// Reads that showed a game without a move already acknowledged.
    vanished: Mutex<Vec<String>>,
    games: Mutex<Vec<Played>>,
    stop: AtomicBool,
}

impl Load {
    /// Counts a failed request; only one in flight when server A was killed may fail.
    fn fail(&self, what: &str) {
        self.failed.fetch_add(1, Ordering::Relaxed);
        let after = self.killed.get().map(Instant::elapsed);
        if after.is_none_or(|t| t > Duration::from_secs(1)) {
            self.failed_late
                .lock()
                .unwrap()
                .push(format!("{what}, {after:?} after the kill"));
        }
    }

    fn count(&self, a: &Answer) {
        let phase = self.phase.load(Ordering::SeqCst);
        if let Some(up) = &a.upstream {
            if let Some(s) = self.ports.iter().position(|p| p == up) {
                self.served[phase][s].fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    async fn post(&self, path: &str, body: &Value) -> Result<Answer, reqwest::Error> {
        let a = send(self.http.post(format!("{}{path}", self.nginx)).json(body)).await?;
        self.count(&a);
        Ok(a)
    }

    async fn get(&self, path: &str) -> Result<Answer, reqwest::Error> {
        let a = send(self.http.get(format!("{}{path}", self.nginx))).await?;
        self.count(&a);
        Ok(a)
    }

    /// Reads the game again after a failed request. The state must hold every move the client
    /// was shown so far; it may hold one more (the request in flight was committed).
    async fn reread(&self, slot: usize) -> Value {
        self.rereads.fetch_add(1, Ordering::Relaxed);
        let (id, seen) = {
            let g = &self.games.lock().unwrap()[slot];
            (g.id.clone(), g.seen.clone())
        };
        for _ in 0..100 {
            match self.get(&format!("/api/games/{id}")).await {
                Ok(a) if a.status == 200 => {
                    let stored = moves_of(&a.body);
                    if stored.starts_with(&seen) {
                        self.games.lock().unwrap()[slot].seen = stored;
                        return a.body;
                    }
                    self.vanished.lock().unwrap().push(format!(
                        "game {id}: version {} shown, then version {} read again from the \
                         server on port {}",
                        seen.len(),
                        stored.len(),
                        a.upstream.as_deref().unwrap_or("?")
                    ));
                }
                Ok(a) if matches!(a.status, 502..=504) => {}
                Ok(a) => panic!("game {id}: reading it gave {}: {}", a.status, a.body),
                Err(_) => {}
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("game {id} cannot be read again");
    }

    /// How long the server on `port` takes to show `version` of a game (for messages).
    async fn catch_up(&self, port: &str, id: &str, version: i64) -> String {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2) {
            let url = format!("http://127.0.0.1:{port}/api/games/{id}");
            if let Ok(a) = send(self.http.get(url)).await {
                if a.body["version"].as_i64().is_some_and(|v| v >= version) {
                    return format!("which showed it {:?} later", start.elapsed());
                }
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        "which did not show it within 2 s".to_string()
    }

    /// Reads a game right after a move was acknowledged with state `acked`; the game must hold
    /// every move of it, whichever server answers.
    async fn read_back(&self, id: &str, acked: &Value) {
        self.readbacks.fetch_add(1, Ordering::Relaxed);
        match self.get(&format!("/api/games/{id}")).await {
            Ok(a) if a.status == 200 => {
                if !moves_of(&a.body).starts_with(&moves_of(acked)) {
                    let port = a.upstream.as_deref().unwrap_or("?");
                    let caught_up = self.catch_up(port, id, version(acked)).await;
                    self.vanished.lock().unwrap().push(format!(
                        "game {id}: version {} acknowledged, then version {} read from the \
                         server on port {port}, {caught_up}",
                        version(acked),
                        version(&a.body),
                    ));
                }
            }
            Ok(a) if matches!(a.status, 502..=504) => self.fail(&format!("reading {id}")),
            Err(e) => self.fail(&format!("reading {id}: {e}")),
            Ok(a) => panic!("game {id}: reading it gave {}: {}", a.status, a.body),
        }
    }
}

/// One client: game after game, each move sent with the version it was chosen on.
async fn client(load: Arc<Load>, n: usize) {
    let mut round = 0u64;
    let mut pick = n;
    while !load.stop.load(Ordering::SeqCst) {
        round += 1;
        let body = json!({
            "game": "sight-reduction",
            "seed": n as u64 * 1000 + round,
            "same_screen": true,
        });
        let created = match load.post("/api/games", &body).await {
            Ok(a) if a.status == 201 => a.body,
            // In flight at the kill: the game may exist or not; nobody was told its id.
            Ok(a) if matches!(a.status, 502..=504) => {
                load.fail(&format!("creating a game: {}", a.status));
                continue;
            }
            Err(e) => {
                load.fail(&format!("creating a game: {e}"));
                continue;
            }
            Ok(a) => panic!("creating a game gave {}: {}", a.status, a.body),
        };
        let id = created["id"].as_str().unwrap().to_string();
        let token = created["tokens"]["first"].as_str().unwrap().to_string();
        let slot = {
            let mut games = load.games.lock().unwrap();
            games.push(Played {
                id: id.clone(),
                ..Played::default()
            });
            games.len() - 1
        };
        let mut state = created["state"].clone();
        for _ in 0..200 {
            if state["status"] != "ongoing" || load.stop.load(Ordering::SeqCst) {
                break;
            }
            let moves = legal(&state);
            let mv = moves[pick % moves.len()].clone();
            pick += 1;
            let ply = moves_of(&state).len();
            let body = json!({ "move": mv, "token": token, "version": version(&state) });
            match load.post(&format!("/api/games/{id}/moves"), &body).await {
                Ok(a) if a.status == 200 => {
                    let shown = moves_of(&a.body);
                    {
                        let mut games = load.games.lock().unwrap();
                        let g = &mut games[slot];
                        assert!(
                            shown.starts_with(&g.seen) && shown.get(ply) == Some(&mv),
                            "game {id}: {mv} acknowledged at ply {ply}, but the answer shows \
                             {shown:?} after {:?}",
                            g.seen
                        );
                        g.acked.push((ply, mv));
                        g.seen = shown;
                    }
                    state = a.body;
                    // The client reads the game back at once, through nginx, which may send
                    // the read to the other server: the move must be there.
                    load.read_back(&id, &state).await;
                }
                // The move in flight at the kill was committed after all, or the state came
                // from a read that had not seen it yet: read again.
                Ok(a) if a.status == 409 && a.body["code"] == "stale_version" => {
                    state = load.reread(slot).await;
                }
                Ok(a) if matches!(a.status, 502..=504) => {
                    load.fail(&format!("game {id}: {mv}: {}", a.status));
                    load.games.lock().unwrap()[slot].failures += 1;
                    state = load.reread(slot).await;
                }
                Err(e) => {
                    load.fail(&format!("game {id}: {mv}: {e}"));
                    load.games.lock().unwrap()[slot].failures += 1;
                    state = load.reread(slot).await;
                }
                Ok(a) => panic!("game {id}: {mv} gave {}: {}", a.status, a.body),
            }
        }
    }
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A live connection to a watched game, and the server (0: A, 1: B) nginx gave it to.
struct Watcher {
    game: usize,
    server: usize,
    ws: Ws,
}

/// Opens a live connection through nginx; returns it with the port of the server behind it.
async fn open_live(nginx_port: u16, id: &str) -> (Ws, String) {
    let url = format!("ws://127.0.0.1:{nginx_port}/api/games/{id}/live");
    let (ws, response) =
        tokio::time::timeout(LIVE_TIMEOUT, tokio_tungstenite::connect_async(url.as_str()))
            .await
            .expect("the live connection opens in time")
            .expect("the live connection opens");
    let up = upstream_of(response.headers()).expect("nginx names the server");
    (ws, up)
}

/// Opens a live connection through nginx to the given server (nginx alternates between the
/// servers, so a few attempts are enough; more while it still counts a restarted server out).
async fn watch_on(load: &Load, nginx_port: u16, game: usize, id: &str, server: usize) -> Watcher {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (ws, up) = open_live(nginx_port, id).await;
        if up == load.ports[server] {
            return Watcher { game, server, ws };
        }
        assert!(
            Instant::now() < deadline,
            "nginx sent no live connection to server {server} in 5 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The next state a live connection sends; `None` when it was closed.
async fn next_live(ws: &mut Ws) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(LIVE_TIMEOUT, ws.next())
            .await
            .expect("a live update in time");
        match msg {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).expect("JSON");
                if v["type"] == "presence" || v["type"] == "review" {
                    continue;
                }
                assert_eq!(v["type"], "state", "{v}");
                return Some(v["state"].clone());
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// Reads live updates until the game's `version`; the state must be exactly `moves`.
async fn expect_live(w: &mut Watcher, version: i64, moves: &[String]) {
    loop {
        let s = next_live(&mut w.ws)
            .await
            .unwrap_or_else(|| panic!("the live connection to server {} closed", w.server));
        let v = s["version"].as_i64().unwrap();
        assert!(
            v <= version,
            "a live update ahead of the game: {v} > {version}"
        );
        if v == version {
            assert_eq!(moves_of(&s), moves, "live state at version {version}");
            return;
        }
    }
}

/// A watched game played by the test itself, one move at a time through nginx.
struct Watched {
    id: String,
    token: String,
    state: Value,
}

async fn play_watched(load: &Load, g: &mut Watched) {
    assert_eq!(g.state["status"], "ongoing", "watched game {} ended", g.id);
    let body = json!({
        "move": legal(&g.state)[0],
        "token": g.token,
        "version": version(&g.state),
    });
    let a = load
        .post(&format!("/api/games/{}/moves", g.id), &body)
        .await
        .expect("a move on a watched game");
    assert_eq!(a.status, 200, "watched game {}: {}", g.id, a.body);
    g.state = a.body;
}

/// Plays `n` moves on every watched game; every watcher must see each game's last state live.
async fn play_and_watch(load: &Load, games: &mut [Watched], watchers: &mut [Watcher], n: usize) {
    for g in games.iter_mut() {
        for _ in 0..n {
            play_watched(load, g).await;
        }
    }
    for w in watchers.iter_mut() {
        let g = &games[w.game];
        expect_live(w, version(&g.state), &moves_of(&g.state)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_behind_nginx_survive_a_kill() {
    let url = postgres_url();
    let nginx = find_nginx();
    let mut missing = Vec::new();
    if url.is_none() {
        missing.push("BOARDLAB_TEST_POSTGRES_URL (a PostgreSQL database)");
    }
    if nginx.is_none() {
        missing.push("nginx (Debian package nginx)");
    }
    let (Some(url), Some(nginx)) = (url, nginx) else {
        if !require_or_skip(&missing.join(" and ")) {
            return;
        }
        unreachable!("a missing requirement either skips or fails");
    };
    let started = Instant::now();
    tokio::time::timeout(Duration::from_secs(50), run(&url, &nginx))
        .await
        .expect("the balancer test finishes within 50 s");
    eprintln!(
        "balancer test: {:.1} s in all",
        started.elapsed().as_secs_f64()
    );
}

#[allow(clippy::too_many_lines)]
async fn run(url: &str, nginx: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let db = url.to_string();
    let (mut server_a, addr_a) = tokio::task::spawn_blocking(move || start_server(&db, 0))
        .await
        .unwrap();
    let db = url.to_string();
    let (server_b, addr_b) = tokio::task::spawn_blocking(move || start_server(&db, 0))
        .await
        .unwrap();
    let (_nginx, nginx_port) = start_nginx(nginx, dir.path(), [addr_a, addr_b]).await;
    let load = Arc::new(Load {
        nginx: format!("http://127.0.0.1:{nginx_port}"),
        http: http_client(),
        ports: [addr_a.port().to_string(), addr_b.port().to_string()],
        phase: AtomicUsize::new(0),
        served: Default::default(),
        killed: OnceLock::new(),
        failed: AtomicU64::new(0),
        failed_late: Mutex::new(Vec::new()),
        readbacks: AtomicU64::new(0),
        rereads: AtomicU64::new(0),
        vanished: Mutex::new(Vec::new()),
        games: Mutex::new(Vec::new()),
        stop: AtomicBool::new(false),
    });

    // Watched games, each with one live connection through nginx to each server.
    let mut watched = Vec::new();
    let mut watchers = Vec::new();
    for g in 0..WATCHED {
        let a = load
            .post(
                "/api/games",
                &json!({ "game": "obsidio", "seed": g, "same_screen": true }),
            )
            .await
            .expect("create a watched game");
        assert_eq!(a.status, 201, "{}", a.body);
        let id = a.body["id"].as_str().unwrap().to_string();
        for server in 0..2 {
            let mut w = watch_on(&load, nginx_port, g, &id, server).await;
            let first = next_live(&mut w.ws).await.expect("the first state");
            assert_eq!(version(&first), 0);
            watchers.push(w);
        }
        watched.push(Watched {
            id,
            token: a.body["tokens"]["first"].as_str().unwrap().to_string(),
            state: a.body["state"].clone(),
        });
    }

    // Both servers up: the load starts, and moves reach watchers on either server.
    let clients: Vec<_> = (0..CLIENTS)
        .map(|n| tokio::spawn(client(Arc::clone(&load), n)))
        .collect();
    play_and_watch(&load, &mut watched, &mut watchers, 2).await;
    tokio::time::sleep(PHASE).await;

    // Server A dies without warning, in the middle of the load.
    let killed_at = Instant::now();
    load.killed.set(killed_at).unwrap();
    server_a.kill();
    load.phase.store(1, Ordering::SeqCst);
    let on_a = watchers.iter().filter(|w| w.server == 0).count();
    let mut kept = Vec::new();
    for mut w in watchers {
        if w.server == 0 {
            // Its connection ends; the client reconnects through nginx, which now gives it to
            // server B, and the first state it gets has every acknowledged move.
            assert!(
                next_live(&mut w.ws).await.is_none(),
                "a live connection to the killed server stayed open"
            );
            let g = &watched[w.game];
            let (mut ws, up) = open_live(nginx_port, &g.id).await;
            assert_eq!(up, load.ports[1], "reconnected to the killed server");
            let first = next_live(&mut ws)
                .await
                .expect("a state after reconnecting");
            assert!(
                version(&first) >= version(&g.state),
                "reconnected at version {}, but {} was acknowledged",
                version(&first),
                version(&g.state)
            );
            assert!(moves_of(&first).starts_with(&moves_of(&g.state)));
            kept.push(Watcher {
                game: w.game,
                server: 1,
                ws,
            });
        } else {
            kept.push(w);
        }
    }
    let mut watchers = kept;
    let reconnected = killed_at.elapsed();
    // Later moves arrive live on every connection, old and reconnected.
    play_and_watch(&load, &mut watched, &mut watchers, 2).await;
    tokio::time::sleep(PHASE).await;

    // Server A comes back on its port, and nginx sends it requests again.
    let db = url.to_string();
    let port = addr_a.port();
    let (server_a, again) = tokio::task::spawn_blocking(move || start_server(&db, port))
        .await
        .unwrap();
    assert_eq!(again, addr_a);
    load.phase.store(2, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(10);
    while load.served[2][0].load(Ordering::Relaxed) == 0 {
        assert!(
            Instant::now() < deadline,
            "nginx sent nothing to the restarted server"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A live connection on the restarted server follows moves made through either server.
    for (g, game) in watched.iter().enumerate() {
        let mut w = watch_on(&load, nginx_port, g, &game.id, 0).await;
        let first = next_live(&mut w.ws).await.expect("the first state");
        assert_eq!(moves_of(&first), moves_of(&game.state));
        watchers.push(w);
    }
    play_and_watch(&load, &mut watched, &mut watchers, 4).await;
    tokio::time::sleep(PHASE).await;

    load.stop.store(true, Ordering::SeqCst);
    for c in clients {
        tokio::time::timeout(Duration::from_secs(15), c)
            .await
            .expect("a client stops in time")
            .expect("a client ran without failing");
    }
    drop(watchers);

    let served: Vec<[u64; 2]> = load
        .served
        .iter()
        .map(|p| [p[0].load(Ordering::Relaxed), p[1].load(Ordering::Relaxed)])
        .collect();
    let failed = load.failed.load(Ordering::Relaxed);
    let games = load.games.lock().unwrap().clone();
    let acked: usize = games.iter().map(|g| g.acked.len()).sum();
    assert!(
        served[0][0] > 0 && served[0][1] > 0,
        "nginx did not use both servers: {served:?}"
    );
    assert!(served[1][1] > 0, "server B served nothing after the kill");
    assert!(served[2][0] > 0, "the restarted server served nothing");
    // Only requests in flight at the kill may fail; the rest go to the other server.
    let late = load.failed_late.lock().unwrap().clone();
    assert!(
        late.is_empty(),
        "requests failed that were not in flight at the kill:\n{}",
        late.join("\n")
    );
    assert!(acked >= 500, "too few moves to test anything: {acked}");

    // Every game reads the same through nginx and from each server directly, and holds every
    // move the clients were shown; one more only where a request failed.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let bases = [
        load.nginx.clone(),
        format!("http://{addr_a}"),
        format!("http://{addr_b}"),
    ];
    let mut extra = 0;
    let http = http_client();
    for g in &games {
        let mut read = Vec::new();
        for base in &bases {
            let a = send(http.get(format!("{base}/api/games/{}", g.id)))
                .await
                .expect("a read");
            assert_eq!(a.status, 200, "game {} from {base}: {}", g.id, a.body);
            read.push(moves_of(&a.body));
        }
        assert!(
            read.iter().all(|r| *r == read[0]),
            "game {}: the servers disagree: {read:?}",
            g.id
        );
        let stored = &read[0];
        assert!(
            stored.starts_with(&g.seen),
            "game {}: shown {:?}, stored {stored:?}",
            g.id,
            g.seen
        );
        for (ply, mv) in &g.acked {
            assert_eq!(stored.get(*ply), Some(mv), "game {}: acknowledged", g.id);
        }
        let more = stored.len() - g.seen.len();
        assert!(
            more == 0 || (more == 1 && g.failures > 0),
            "game {}: {more} moves stored that were never acknowledged nor shown",
            g.id
        );
        extra += more;
    }
    for g in &watched {
        for base in &bases {
            let a = send(http.get(format!("{base}/api/games/{}", g.id)))
                .await
                .expect("a read");
            assert_eq!(a.status, 200);
            assert_eq!(moves_of(&a.body), moves_of(&g.state), "watched {}", g.id);
        }
    }
    eprintln!(
        "{} games, {acked} moves acknowledged through nginx, all kept; answers by A/B before \
         the kill {:?}, after it {:?}, after the restart {:?}; {failed} requests failed at the \
         kill, {} reads back, {} re-reads after a failure, {extra} moves committed but not \
         acknowledged; {on_a} live connections on the killed server reconnected after {:.0} ms",
        games.len(),
        served[0],
        served[1],
        served[2],
        load.readbacks.load(Ordering::Relaxed),
        load.rereads.load(Ordering::Relaxed),
        reconnected.as_secs_f64() * 1000.0
    );
    drop(server_a);
    drop(server_b);
    // Whichever server answers, a game read after a move was acknowledged holds that move.
    let vanished = load.vanished.lock().unwrap().clone();
    assert!(
        vanished.is_empty(),
        "{} of {} reads right after an acknowledged move (or after a failure) showed the game \
         without it; the first ones:\n{}",
        vanished.len(),
        load.readbacks.load(Ordering::Relaxed) + load.rereads.load(Ordering::Relaxed),
        vanished[..vanished.len().min(10)].join("\n")
    );
}

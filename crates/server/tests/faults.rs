//! The server under faults, driven from outside as a real process: clients that hang up while
//! the database is locked, connections that send half a request, and a load of games played
//! while the server is killed, the database locked, and connections delayed and cut. After
//! every fault, every acknowledged move is stored in order and every stored game loads.
//! Regression tests of issue 21.

mod common;

use common::{legal, postgres_url, version, ServerProcess};
use serde_json::{json, Value};
use sqlx::Connection;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

fn client(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder().timeout(timeout).build().unwrap()
}

async fn get(http: &reqwest::Client, url: &str) -> Result<(u16, Value), reqwest::Error> {
    let r = http.get(url).send().await?;
    let c = r.status().as_u16();
    Ok((c, r.json().await.unwrap_or(Value::Null)))
}

async fn post(
    http: &reqwest::Client,
    url: &str,
    body: &Value,
) -> Result<(u16, Value), reqwest::Error> {
    let r = http.post(url).json(body).send().await?;
    let c = r.status().as_u16();
    Ok((c, r.json().await.unwrap_or(Value::Null)))
}

fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_a_client_that_hangs_up_while_the_database_is_locked_leaves_no_trace() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("locked.db");
    // Writes give up after half a second of waiting for the lock (the default is 10 s).
    let db = format!("sqlite://{}?busy_timeout=500", file.display());
    let mut server = ServerProcess::start(&db, None, &[]);
    let http = client(Duration::from_secs(30));
    let (c, created) = post(
        &http,
        &format!("{}/api/games", server.base),
        &json!({ "game": "sight-reduction", "seed": 1, "same_screen": true }),
    )
    .await
    .unwrap();
    assert_eq!(c, 201);
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["tokens"]["first"].as_str().unwrap().to_string();
    let first = legal(&created["state"])[0].clone();
    let game_url = format!("{}/api/games/{id}", server.base);

    // Another process takes the database's write lock and holds it.
    let mut other = sqlx::SqliteConnection::connect(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .unwrap();
    // A client sends a move and hangs up before the answer.
    let impatient = client(Duration::from_millis(300));
    let r = impatient
        .post(format!("{game_url}/moves"))
        .json(&json!({ "move": first, "token": token, "version": 0 }))
        .send()
        .await;
    assert!(r.is_err(), "the answer came before the client gave up");
    // The write fails while the lock is held; nobody is ever shown the move.
    for _ in 0..10 {
        let (c, st) = get(&http, &game_url).await.unwrap();
        assert_eq!(c, 200);
        assert_eq!(version(&st), 0, "an uncommitted move is visible: {st}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    drop(other);

    // The game goes on from version 0, its next event is event 1, and it survives a restart.
    let (c, st) = get(&http, &game_url).await.unwrap();
    assert_eq!((c, version(&st)), (200, 0), "{st}");
    let second = legal(&st)[1].clone();
    let (c, after) = post(
        &http,
        &format!("{game_url}/moves"),
        &json!({ "move": second, "token": token, "version": 0 }),
    )
    .await
    .unwrap();
    assert_eq!((c, version(&after)), (200, 1), "{after}");
    server.kill();
    let server = ServerProcess::start(&db, None, &[]);
    let (c, st) = get(&http, &format!("{}/api/games/{id}", server.base))
        .await
        .unwrap();
    assert_eq!(c, 200, "the game does not load after a restart: {st}");
    assert_eq!(moves_of(&st), vec![second]);
    let mut check = sqlx::SqliteConnection::connect(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    let seqs: Vec<i64> = sqlx::query_scalar("SELECT seq FROM events WHERE game_id = $1")
        .bind(&id)
        .fetch_all(&mut check)
        .await
        .unwrap();
    assert_eq!(seqs, vec![1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_the_database_refuses_a_gap_in_a_log() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gap.db");
    let db = format!("sqlite://{}", file.display());
    let server = ServerProcess::start(&db, None, &[]);
    let http = client(Duration::from_secs(30));
    let (_, created) = post(
        &http,
        &format!("{}/api/games", server.base),
        &json!({ "game": "sight-reduction", "seed": 1, "same_screen": true }),
    )
    .await
    .unwrap();
    let id = created["id"].as_str().unwrap();
    let mut conn = sqlx::SqliteConnection::connect(&db).await.unwrap();
    let insert = |seq: i64| {
        sqlx::query(
            "INSERT INTO events (game_id, seq, seat, action, data, at_ms) \
             VALUES ($1, $2, 'first', 'resign', '', 0)",
        )
        .bind(id.to_string())
        .bind(seq)
    };
    for bad in [2, 0, -1] {
        let e = insert(bad).execute(&mut conn).await.unwrap_err();
        assert!(e.to_string().contains("out of order"), "{bad}: {e}");
    }
    insert(1).execute(&mut conn).await.unwrap();
    insert(2).execute(&mut conn).await.unwrap();
    assert!(insert(4).execute(&mut conn).await.is_err());
}

/// Stores events `seqs` of game `id` in one statement, as the writer stores a batch.
async fn insert_events(
    conn: &mut sqlx::PgConnection,
    id: &str,
    seqs: &[i64],
) -> Result<(), sqlx::Error> {
    let rows: Vec<String> = seqs
        .iter()
        .map(|s| format!("($1, {s}, 'first', 'resign', '', 0)"))
        .collect();
    let sql = format!(
        "INSERT INTO events (game_id, seq, seat, action, data, at_ms) VALUES {}",
        rows.join(", ")
    );
    sqlx::query(&sql).bind(id).execute(conn).await.map(|_| ())
}

/// The same rule on PostgreSQL, where it is checked once per statement: events stored by one
/// statement may follow one another, and one gap anywhere refuses the whole statement.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_refuses_a_gap_in_a_log_on_postgresql() {
    let Some(url) = postgres_url() else {
        return;
    };
    let server = common::TestServer::on(&url).await;
    let (id, _, _) = server
        .create(json!({ "game": "sight-reduction", "seed": 1, "same_screen": true }))
        .await;
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    for bad in [&[2][..], &[0], &[-1], &[1, 3]] {
        let e = insert_events(&mut conn, &id, bad).await.unwrap_err();
        assert!(e.to_string().contains("does not follow"), "{bad:?}: {e}");
    }
    insert_events(&mut conn, &id, &[1, 2]).await.unwrap();
    assert!(insert_events(&mut conn, &id, &[4]).await.is_err());
    assert!(insert_events(&mut conn, &id, &[3, 5]).await.is_err());
    insert_events(&mut conn, &id, &[3]).await.unwrap();
    let seqs: Vec<i64> =
        sqlx::query_scalar("SELECT seq FROM events WHERE game_id = $1 ORDER BY seq")
            .bind(&id)
            .fetch_all(&mut conn)
            .await
            .unwrap();
    assert_eq!(seqs, vec![1, 2, 3]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_half_sent_requests_cannot_exhaust_the_connections() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("slow.db").display());
    // 256 open files, as in the report; 300 clients send half a request and wait.
    let server = ServerProcess::start_with(
        &db,
        None,
        &["--header-timeout", "2", "--body-timeout", "2"],
        Some(256),
    );
    let addr: SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();
    let mut dawdlers = Vec::new();
    for _ in 0..300 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let _ = s
            .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
            .await;
        dawdlers.push(s);
    }
    // Everyone else is still served, within a few header timeouts.
    let started = Instant::now();
    let (c, v) = get(
        &client(Duration::from_secs(20)),
        &format!("{}/api/health", server.base),
    )
    .await
    .expect("the server answers while 300 clients dawdle");
    assert_eq!(c, 200, "{v}");
    assert!(started.elapsed() < Duration::from_secs(15));
    // Every dawdler is disconnected (answered 408 or just closed).
    let deadline = Instant::now() + Duration::from_secs(20);
    for mut s in dawdlers {
        let mut buf = [0u8; 1024];
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, s.read(&mut buf)).await {
                Ok(Ok(0) | Err(_)) => break,
                Ok(Ok(_)) => continue,
                Err(_) => panic!("a half-sent request kept its connection"),
            }
        }
    }
    // A body sent too slowly ends the connection too.
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"ga",
    )
    .await
    .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(8), s.read_to_end(&mut answer))
        .await
        .expect("a slow body is cut off")
        .ok();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    // So does a kept-alive connection left idle.
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(8), s.read_to_end(&mut answer))
        .await
        .expect("an idle connection is closed")
        .ok();
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
}

// ------------------------------------------------------------------ faults under load

/// What the proxy between the clients and the server does.
const PASS: u8 = 0;
const DELAY: u8 = 1;
const CUT: u8 = 2;

/// A TCP proxy in front of the server: passes bytes on, delays them, or cuts connections
/// right after forwarding part of a request.
async fn proxy(listener: TcpListener, upstream: SocketAddr, mode: Arc<AtomicU8>) {
    loop {
        let Ok((client, _)) = listener.accept().await else {
            continue;
        };
        let mode = Arc::clone(&mode);
        tokio::spawn(async move {
            let Ok(server) = TcpStream::connect(upstream).await else {
                return;
            };
            let (cr, cw) = client.into_split();
            let (sr, sw) = server.into_split();
            tokio::select! {
                () = pipe(cr, sw, Arc::clone(&mode), true) => {},
                () = pipe(sr, cw, mode, false) => {},
            }
        });
    }
}

async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mode: Arc<AtomicU8>,
    to_server: bool,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        match mode.load(Ordering::Relaxed) {
            DELAY => tokio::time::sleep(Duration::from_millis(150)).await,
            CUT if to_server && rand::random::<f64>() < 0.3 => {
                let _ = to.write_all(&buf[..n]).await;
                tokio::time::sleep(Duration::from_millis(5)).await;
                return;
            }
            _ => {}
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

/// Per game: its id and the moves the client knows are committed (acknowledged, or shown
/// by the server after a failure).
type Known = Arc<Mutex<Vec<(String, Vec<String>)>>>;

/// One player: plays game after game through `base` until `stop`, retrying through every
/// failure; checks that what the server shows never loses a move it acknowledged.
async fn player(base: String, g: usize, known: Known, stop: Arc<AtomicBool>) {
    let http = client(Duration::from_secs(3));
    let mut round = 0u64;
    while !stop.load(Ordering::Relaxed) {
        round += 1;
        let body = json!({ "game": "sight-reduction", "seed": g as u64 * 10_000 + round, "same_screen": true });
        let Ok((201, created)) = post(&http, &format!("{base}/api/games"), &body).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let id = created["id"].as_str().unwrap().to_string();
        let token = created["tokens"]["first"].as_str().unwrap().to_string();
        let slot = {
            let mut k = known.lock().unwrap();
            k.push((id.clone(), Vec::new()));
            k.len() - 1
        };
        let mut state = created["state"].clone();
        let mut i = g;
        while state["status"] == "ongoing" && !stop.load(Ordering::Relaxed) {
            let moves = legal(&state);
            let mv = moves[i % moves.len()].clone();
            i += 1;
            let body = json!({ "move": mv, "token": token, "version": version(&state) });
            if let Ok((200, next)) =
                post(&http, &format!("{base}/api/games/{id}/moves"), &body).await
            {
                let shown = moves_of(&next);
                let mut k = known.lock().unwrap();
                let before = &k[slot].1;
                assert!(
                    shown.len() == before.len() + 1 && shown[..before.len()] == before[..],
                    "game {id}: knew {before:?}, answered {shown:?}"
                );
                k[slot].1 = shown;
                state = next;
                continue;
            }
            // Refused, failed or cut off: look at the game again and go on from there.
            loop {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                if let Ok((200, fresh)) = get(&http, &format!("{base}/api/games/{id}")).await {
                    let shown = moves_of(&fresh);
                    let mut k = known.lock().unwrap();
                    let before = &k[slot].1;
                    assert!(
                        shown.len() >= before.len() && shown[..before.len()] == before[..],
                        "game {id}: knew {before:?}, the server shows {shown:?}"
                    );
                    k[slot].1 = shown;
                    state = fresh;
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// Every game the players know of loads, with every move they know of, in order.
async fn check_everything_stored(base: &str, known: &Known, fault: &str) -> usize {
    let http = client(Duration::from_secs(30));
    let games = known.lock().unwrap().clone();
    let mut moves = 0;
    for (id, knew) in &games {
        let (c, st) = get(&http, &format!("{base}/api/games/{id}")).await.unwrap();
        assert_eq!(c, 200, "after {fault}: game {id} does not load: {st}");
        let stored = moves_of(&st);
        assert!(
            stored.len() >= knew.len() && stored[..knew.len()] == knew[..],
            "after {fault}: game {id}: known {knew:?}, stored {stored:?}"
        );
        moves += knew.len();
    }
    moves
}

async fn faults_under_load(database: &str, lock: &str) {
    let extra = ["--games-per-minute", "0"];
    let mut server = ServerProcess::start(database, None, &extra);
    let port = server.port;
    let upstream: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mode = Arc::new(AtomicU8::new(PASS));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let front = format!("http://{}", listener.local_addr().unwrap());
    let proxy_task = tokio::spawn(proxy(listener, upstream, Arc::clone(&mode)));
    let known: Known = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = (0..12)
        .map(|g| {
            tokio::spawn(player(
                front.clone(),
                g,
                Arc::clone(&known),
                Arc::clone(&stop),
            ))
        })
        .collect();
    let load = || tokio::time::sleep(Duration::from_millis(1200));
    let mut last = 0;
    let mut progress = |moves: usize, fault: &str| {
        assert!(moves > last, "no move was made around {fault}");
        eprintln!("{fault}: {moves} moves known and stored so far");
        last = moves;
    };
    for round in 0..2 {
        load().await;
        // Killed without warning, and started again where the clients expect it.
        server.kill();
        tokio::time::sleep(Duration::from_millis(300)).await;
        server = ServerProcess::start(database, Some(port), &extra);
        load().await;
        let m = check_everything_stored(&server.base, &known, "a kill").await;
        progress(m, &format!("round {round}: kill"));

        // The database locked by someone else for a while.
        hold_lock(database, lock, Duration::from_millis(1500)).await;
        load().await;
        let m = check_everything_stored(&server.base, &known, "a lock").await;
        progress(m, &format!("round {round}: lock"));

        // Slow connections, then connections cut in the middle of requests.
        mode.store(DELAY, Ordering::Relaxed);
        load().await;
        mode.store(CUT, Ordering::Relaxed);
        load().await;
        mode.store(PASS, Ordering::Relaxed);
        load().await;
        let m = check_everything_stored(&server.base, &known, "delays and cuts").await;
        progress(m, &format!("round {round}: delay and cut"));
    }
    stop.store(true, Ordering::Relaxed);
    for p in players {
        p.await.expect("a player found a lost or reordered move");
    }
    proxy_task.abort();
    check_everything_stored(&server.base, &known, "the end").await;
}

/// Holds the database's write lock from another connection for `how_long`.
async fn hold_lock(database: &str, lock: &str, how_long: Duration) {
    if database.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(database).await.unwrap();
        sqlx::query("BEGIN").execute(&mut c).await.unwrap();
        sqlx::query(lock).execute(&mut c).await.unwrap();
        tokio::time::sleep(how_long).await;
        sqlx::query("ROLLBACK").execute(&mut c).await.unwrap();
    } else {
        let file = database
            .trim_start_matches("sqlite://")
            .split('?')
            .next()
            .unwrap()
            .to_string();
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{file}"))
            .await
            .unwrap();
        sqlx::query(lock).execute(&mut c).await.unwrap();
        tokio::time::sleep(how_long).await;
        sqlx::query("ROLLBACK").execute(&mut c).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_under_load_lose_nothing_acknowledged_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    // A short lock wait, so the lock makes writes fail rather than only wait.
    let db = format!(
        "sqlite://{}?busy_timeout=300",
        dir.path().join("faults.db").display()
    );
    faults_under_load(&db, "BEGIN IMMEDIATE").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_under_load_lose_nothing_acknowledged_on_postgres() {
    let Some(url) = postgres_url() else {
        return;
    };
    faults_under_load(&url, "LOCK TABLE events IN EXCLUSIVE MODE").await;
}

//! Issue 36: no client can take more than its share. Real server processes, attacked from
//! their own loopback addresses as outside clients would: connections and live streams per
//! address, password hashing, the search threads shared fairly, analysis streams per address,
//! and log-ins that strangers' guesses cannot block for the owner (on SQLite, and across two
//! servers on PostgreSQL).

mod common;

use common::{postgres_url, unique, ServerProcess};
use serde_json::{json, Value};
use std::net::IpAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A client whose requests come from `ip` (any address of 127.0.0.0/8 is this machine).
fn client_from(ip: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::from(ip))
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

fn sqlite(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}", dir.path().join("abuse.db").display())
}

async fn post(c: &reqwest::Client, url: &str, body: &Value, cookie: &str) -> reqwest::Response {
    c.post(url)
        .header("content-type", "application/json")
        .header("cookie", cookie)
        .body(body.to_string())
        .send()
        .await
        .unwrap()
}

/// The cookies a response sets, as one `Cookie` header value.
fn cookies(r: &reqwest::Response) -> String {
    r.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .collect::<Vec<_>>()
        .join("; ")
}

fn retry_after(r: &reqwest::Response) -> Option<u64> {
    r.headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_live_streams_are_limited_per_address_and_end_at_their_maximum_age() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::start(
        &sqlite(&dir),
        None,
        &["--streams-per-address", "3", "--stream-max-age", "3"],
    );
    let url = |p: &str| format!("{}{p}", server.base);
    let attacker = client_from([127, 0, 0, 2]);
    let mut held = Vec::new();
    for _ in 0..3 {
        let r = attacker.get(url("/api/lobby/live")).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        held.push(r);
    }
    // Every kind of stream counts: a fourth from the same address is refused, with a wait.
    for path in ["/api/lobby/live", "/api/games/0123456789abcdef/events"] {
        let r = attacker.get(url(path)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 429, "{path}");
        assert!(retry_after(&r).is_some(), "{path}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["code"], "too_many_open", "{v}");
    }
    // Anyone else is served, streams included.
    let other = client_from([127, 0, 0, 3]);
    let r = other.get(url("/api/health")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let r = other.get(url("/api/lobby/live")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    // The server ends a stream at its maximum age; the client may then open another.
    let mut first = held.remove(0);
    let ended = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(_)) = first.chunk().await {}
    })
    .await;
    assert!(ended.is_ok(), "the stream ends at its maximum age");
    drop(first);
    let mut admitted = false;
    for _ in 0..50 {
        let r = attacker.get(url("/api/lobby/live")).send().await.unwrap();
        if r.status().as_u16() == 200 {
            admitted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(admitted, "a stream that ended gives its place back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_streams_leave_connections_for_ordinary_requests() {
    let dir = tempfile::tempdir().unwrap();
    // Eight connections in all, four of them for streams; no per-address limits.
    let server = ServerProcess::start(
        &sqlite(&dir),
        None,
        &[
            "--max-connections",
            "8",
            "--max-streams",
            "4",
            "--streams-per-address",
            "0",
            "--connections-per-address",
            "0",
        ],
    );
    let url = |p: &str| format!("{}{p}", server.base);
    let mut held = Vec::new();
    for i in 0..4u8 {
        // A client of its own for each, so each stream holds a connection of its own.
        let c = client_from([127, 0, 0, 2 + i]);
        let r = c.get(url("/api/lobby/live")).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        held.push((c, r));
    }
    let r = client_from([127, 0, 0, 9])
        .get(url("/api/lobby/live"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status().as_u16(),
        503,
        "the server's streams are all taken"
    );
    assert!(retry_after(&r).is_some());
    drop(r);
    let r = client_from([127, 0, 0, 10])
        .get(url("/api/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status().as_u16(),
        200,
        "ordinary requests still find a connection"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_connections_are_limited_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::start(&sqlite(&dir), None, &["--connections-per-address", "2"]);
    let addr: std::net::SocketAddr = format!("127.0.0.1:{}", server.port).parse().unwrap();
    let connect = |ip: [u8; 4]| async move {
        let s = tokio::net::TcpSocket::new_v4().unwrap();
        s.bind((IpAddr::from(ip), 0).into()).unwrap();
        s.connect(addr).await.unwrap()
    };
    // Two idle connections from one address: its share.
    let _a = connect([127, 0, 0, 2]).await;
    let _b = connect([127, 0, 0, 2]).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut c = connect([127, 0, 0, 2]).await;
    c.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(10), c.read_to_string(&mut answer))
        .await
        .expect("the refusal comes at once")
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after:"),
        "{answer}"
    );
    // Another address is served.
    let r = client_from([127, 0, 0, 3])
        .get(format!("{}/api/health", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_password_hashing_is_bounded_and_refuses_past_its_queue() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::start(
        &sqlite(&dir),
        None,
        &[
            "--hash-threads",
            "1",
            "--hash-queue",
            "1",
            "--logins-per-minute",
            "0",
        ],
    );
    let url = format!("{}/api/account/login", server.base);
    let c = client_from([127, 0, 0, 2]);
    let name = unique("hash");
    let signup = format!("{}/api/account/signup", server.base);
    let r = post(
        &c,
        &signup,
        &json!({ "name": name, "password": "a good password" }),
        "",
    )
    .await;
    assert_eq!(r.status().as_u16(), 201);
    let body = json!({ "name": name, "password": "not the password" });
    let tries = (0..16).map(|_| {
        let (c, url, body) = (c.clone(), url.clone(), body.clone());
        tokio::spawn(async move {
            let r = post(&c, &url, &body, "").await;
            (r.status().as_u16(), retry_after(&r))
        })
    });
    let mut statuses = Vec::new();
    for t in tries.collect::<Vec<_>>() {
        statuses.push(t.await.unwrap());
    }
    assert!(
        statuses.iter().all(|(s, _)| *s == 401 || *s == 503),
        "{statuses:?}"
    );
    assert!(statuses.iter().any(|(s, _)| *s == 401), "{statuses:?}");
    assert!(
        statuses.iter().any(|(s, w)| *s == 503 && w.is_some()),
        "past the queue a log-in is refused with a time to wait: {statuses:?}"
    );
}

/// Signs up `name` from `c`; the cookies the answer set.
async fn sign_up(c: &reqwest::Client, base: &str, name: &str, password: &str) -> String {
    let r = post(
        c,
        &format!("{base}/api/account/signup"),
        &json!({ "name": name, "password": password }),
        "",
    )
    .await;
    assert_eq!(r.status().as_u16(), 201);
    cookies(&r)
}

async fn moves_of(c: &reqwest::Client, base: &str, id: &str) -> i64 {
    let v: Value = c
        .get(format!("{base}/api/games/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    v["moves"].as_array().map_or(0, |m| m.len() as i64)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_lobby_games_use_the_creation_budget_and_computers_take_turns_fairly() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::start(
        &sqlite(&dir),
        None,
        &["--games-per-minute", "6", "--computer-threads", "2"],
    );
    let base = server.base.clone();
    let attacker = client_from([127, 0, 0, 2]);
    let cookie = sign_up(&attacker, &base, &unique("flood"), "a good password").await;
    // The lobby draws on the same allowance as POST /api/games.
    let mut games = Vec::new();
    let challenge =
        json!({ "game": "sight-reduction", "opponent": "computer:level:10", "seat": "second" });
    loop {
        let r = post(&attacker, &format!("{base}/api/lobby"), &challenge, &cookie).await;
        if r.status().as_u16() == 429 {
            assert!(retry_after(&r).is_some());
            break;
        }
        assert_eq!(r.status().as_u16(), 201);
        let v: Value = r.json().await.unwrap();
        games.push(v["game"].as_str().unwrap().to_string());
        assert!(games.len() <= 6, "the allowance holds");
    }
    assert_eq!(games.len(), 6);
    // Another client's level-1 computer moves before the flood's strong computers are
    // through: it does not wait behind them all (about 3 s each).
    let victim = client_from([127, 0, 0, 3]);
    let r = post(
        &victim,
        &format!("{base}/api/games"),
        &json!({ "game": "sight-reduction", "seats": { "first": "computer:level:1", "second": "human" } }),
        "",
    )
    .await;
    assert_eq!(r.status().as_u16(), 201);
    let v: Value = r.json().await.unwrap();
    let id = v["id"].as_str().unwrap().to_string();
    let mut waited = 0;
    while moves_of(&victim, &base, &id).await == 0 {
        waited += 1;
        assert!(waited < 600, "the victim's computer never moved");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut still_waiting = 0;
    for g in &games {
        if moves_of(&attacker, &base, g).await == 0 {
            still_waiting += 1;
        }
    }
    assert!(
        still_waiting >= 3,
        "the victim's computer moved only after {} of the flood's 6 games",
        6 - still_waiting
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_analysis_streams_are_limited_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::start(&sqlite(&dir), None, &[]);
    let c = client_from([127, 0, 0, 2]);
    let created: Value = post(
        &c,
        &format!("{}/api/games", server.base),
        &json!({ "game": "sight-reduction", "seed": 3 }),
        "",
    )
    .await
    .json()
    .await
    .unwrap();
    let position = created["state"]["position"].as_str().unwrap().to_string();
    let url = reqwest::Url::parse_with_params(
        &format!("{}/api/analysis", server.base),
        &[("game", "sight-reduction"), ("position", position.as_str())],
    )
    .unwrap();
    let a = c.get(url.clone()).send().await.unwrap();
    let b = c.get(url.clone()).send().await.unwrap();
    assert_eq!((a.status().as_u16(), b.status().as_u16()), (200, 200));
    let third = c.get(url.clone()).send().await.unwrap();
    assert_eq!(third.status().as_u16(), 429);
    assert!(retry_after(&third).is_some());
    // Another address has its own two.
    let other = client_from([127, 0, 0, 3])
        .get(url.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(other.status().as_u16(), 200);
    drop((a, b, other));
}

/// Wrong guesses for `name` from `guessers` until the account's allowance is spent.
async fn guess_until_refused(base: &str, name: &str, guessers: &[reqwest::Client]) -> usize {
    let url = format!("{base}/api/account/login");
    let wrong = json!({ "name": name, "password": "a wrong guess" });
    for i in 0..100 {
        let r = post(&guessers[i % guessers.len()], &url, &wrong, "").await;
        match r.status().as_u16() {
            401 => {}
            429 => return i,
            s => panic!("a guess answered {s}"),
        }
    }
    panic!("guessing was never limited");
}

async fn log_in(c: &reqwest::Client, base: &str, name: &str, cookie: &str) -> u16 {
    let body = json!({ "name": name, "password": "the owner's password" });
    post(c, &format!("{base}/api/account/login"), &body, cookie)
        .await
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_strangers_guessing_cannot_keep_the_owner_out() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::start(&sqlite(&dir), None, &["--logins-per-minute", "4"]);
    let base = server.base.clone();
    let owner = client_from([127, 0, 0, 10]);
    let name = unique("owner");
    let device = sign_up(&owner, &base, &name, "the owner's password").await;
    assert!(device.contains("boardlab_device="), "{device}");
    // Guesses from many addresses, each within its own allowance, spend the account's.
    let guessers: Vec<_> = (2..6).map(|i| client_from([127, 0, 0, i])).collect();
    let allowed = guess_until_refused(&base, &name, &guessers).await;
    assert_eq!(allowed, 4, "the account allows 4 failed log-ins a minute");
    // The owner's browser is a known device: it gets in, every time.
    for _ in 0..3 {
        assert_eq!(log_in(&owner, &base, &name, &device).await, 200);
    }
    // Without the device cookie, even the right password waits (the guesser cannot tell).
    let elsewhere = client_from([127, 0, 0, 11]);
    assert_eq!(log_in(&elsewhere, &base, &name, "").await, 429);
    // A forged device cookie is no help.
    let forged = "boardlab_device=0123456789abcdef0123456789abcdef";
    assert_eq!(log_in(&elsewhere, &base, &name, forged).await, 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_failed_log_ins_count_across_servers_on_postgres() {
    let Some(pg) = postgres_url() else { return };
    let a = ServerProcess::start(&pg, None, &["--logins-per-minute", "4"]);
    let b = ServerProcess::start(&pg, None, &["--logins-per-minute", "4"]);
    let c = client_from([127, 0, 0, 2]);
    let name = unique("shared");
    sign_up(&c, &a.base, &name, "the owner's password").await;
    // Guesses alternate between the two servers: together they allow the limit once.
    let url = |s: &ServerProcess| format!("{}/api/account/login", s.base);
    let wrong = json!({ "name": name, "password": "a wrong guess" });
    let mut refused = None;
    for i in 0..10 {
        let server = if i % 2 == 0 { &a } else { &b };
        let guesser = client_from([127, 0, 1, u8::try_from(i).unwrap() + 1]);
        let status = post(&guesser, &url(server), &wrong, "")
            .await
            .status()
            .as_u16();
        if status == 429 {
            refused = Some(i);
            break;
        }
        assert_eq!(status, 401);
    }
    assert_eq!(
        refused,
        Some(4),
        "two servers allow 4 guesses together, not 4 each"
    );
}

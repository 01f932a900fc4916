//! A server process killed with SIGKILL in the middle of many concurrent games loses no
//! acknowledged move, and every game continues after a restart.

mod common;

use common::{client, legal, postgres_url, version, ServerProcess};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the clients saw acknowledged, per game: (id, token, acknowledged moves in order).
type Acked = Arc<Mutex<Vec<(String, String, Vec<String>)>>>;

async fn kill_mid_load_and_restart(database: &str) {
    let mut server = ServerProcess::start(database, None, &["--games-per-minute", "0"]);
    let base = server.base.clone();
    let http = client();
    let games = 40;
    let acked: Acked = Arc::new(Mutex::new(Vec::new()));
    // A game against the computer, to see that it continues too.
    let (c, created) = post(
        &http,
        &format!("{base}/api/games"),
        &json!({ "game": "sight-reduction", "seed": 99, "seats": { "second": "computer:random" } }),
    )
    .await;
    assert_eq!(c, 201);
    let vs_computer = created["id"].as_str().unwrap().to_string();
    let vs_token = created["tokens"]["first"].as_str().unwrap().to_string();

    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for g in 0..games {
        let (http, base, acked, stop) = (
            http.clone(),
            base.clone(),
            Arc::clone(&acked),
            Arc::clone(&stop),
        );
        tasks.push(tokio::spawn(async move {
            // Game after game until the server dies: the kill lands in the middle of play.
            let mut round = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let Ok(r) = http
                    .post(format!("{base}/api/games"))
                    .json(&json!({ "game": "sight-reduction", "seed": g as u64 * 1000 + round, "same_screen": true }))
                    .send()
                    .await
                else {
                    return;
                };
                assert_eq!(r.status().as_u16(), 201);
                let Ok(created) = r.json::<Value>().await else {
                    return;
                };
                round += 1;
                let id = created["id"].as_str().unwrap().to_string();
                let token = created["tokens"]["first"].as_str().unwrap().to_string();
                let slot = {
                    let mut a = acked.lock().unwrap();
                    a.push((id.clone(), token.clone(), Vec::new()));
                    a.len() - 1
                };
                let mut state = created["state"].clone();
                let mut i = g;
                while state["status"] == "ongoing" {
                    let moves = legal(&state);
                    let mv = moves[i % moves.len()].clone();
                    i += 1;
                    let body = json!({ "move": mv, "token": token, "version": version(&state) });
                    match http
                        .post(format!("{base}/api/games/{id}/moves"))
                        .json(&body)
                        .send()
                        .await
                    {
                        Ok(r) if r.status().as_u16() == 200 => match r.json::<Value>().await {
                            Ok(next) => {
                                // Acknowledged: it must survive.
                                acked.lock().unwrap()[slot].2.push(mv);
                                state = next;
                            }
                            Err(_) => return,
                        },
                        Ok(r) => panic!("unexpected answer {}", r.status()),
                        // The server died: stop this client.
                        Err(_) => return,
                    }
                }
            }
        }));
    }
    // Let the load run, then kill the server without warning.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.kill();
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        t.await.expect("client task");
    }
    let acked = acked.lock().unwrap().clone();
    let total: usize = acked.iter().map(|g| g.2.len()).sum();
    assert!(
        total >= games,
        "the load made too few moves to test anything: {total}"
    );

    let mut server = ServerProcess::start(database, None, &["--games-per-minute", "0"]);
    let base = server.base.clone();
    let mut in_flight = 0;
    for (id, token, moves) in &acked {
        // On PostgreSQL the killed server's last COMMIT may still land after the restart: the
        // database finishes a transaction whose client died once it has the COMMIT. That is the
        // one move in flight; the new server must then refuse a move on the older version as
        // stale, and the game goes on from the newer one. So look again when that happens.
        let mut attempts = 0;
        loop {
            attempts += 1;
            let (c, state) = get(&http, &format!("{base}/api/games/{id}")).await;
            assert_eq!(c, 200, "game {id} lost: {state}");
            let stored: Vec<&str> = state["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["move"].as_str().unwrap())
                .collect();
            assert!(
                stored.len() >= moves.len() && stored[..moves.len()] == moves[..],
                "game {id}: acknowledged {moves:?}, stored {stored:?}"
            );
            // At most the one move in flight at the kill may be stored unacknowledged.
            assert!(stored.len() <= moves.len() + 1);
            if state["status"] != "ongoing" {
                in_flight += stored.len() - moves.len();
                break;
            }
            // The game continues.
            let mv = legal(&state)[0].clone();
            let (c, next) = post(
                &http,
                &format!("{base}/api/games/{id}/moves"),
                &json!({ "move": mv, "token": token, "version": version(&state) }),
            )
            .await;
            if c == 409 && next["code"] == "stale_version" && attempts < 20 {
                assert_eq!(
                    stored.len(),
                    moves.len(),
                    "game {id}: stale although the move in flight was already stored: {next}"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            assert_eq!(c, 200, "game {id} does not continue: {next}");
            in_flight += stored.len() - moves.len();
            break;
        }
    }
    eprintln!(
        "{} games, {total} acknowledged moves before the kill, all kept; {in_flight} moves \
         committed but not yet acknowledged when it came",
        acked.len()
    );
    // The human plays on against the computer, which answers after the restart.
    let (_, st) = get(&http, &format!("{base}/api/games/{vs_computer}")).await;
    let (c, after) = post(
        &http,
        &format!("{base}/api/games/{vs_computer}/moves"),
        &json!({ "move": legal(&st)[0], "token": vs_token }),
    )
    .await;
    assert_eq!(c, 200, "{after}");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (_, st) = get(&http, &format!("{base}/api/games/{vs_computer}")).await;
        if st["to_move"]["seat"] == "first" || st["status"] == "finished" {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the computer never answered"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.kill();
}

async fn post(http: &reqwest::Client, url: &str, body: &Value) -> (u16, Value) {
    let r = http.post(url).json(body).send().await.expect("request");
    let c = r.status().as_u16();
    (c, r.json().await.unwrap_or(Value::Null))
}

async fn get(http: &reqwest::Client, url: &str) -> (u16, Value) {
    let r = http.get(url).send().await.expect("request");
    let c = r.status().as_u16();
    (c, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_move_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("kill.db").display());
    kill_mid_load_and_restart(&db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_move_on_postgres() {
    let Some(url) = postgres_url() else {
        eprintln!("BOARDLAB_TEST_POSTGRES_URL is not set: PostgreSQL part skipped");
        return;
    };
    kill_mid_load_and_restart(&url).await;
}

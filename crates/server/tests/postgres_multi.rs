//! Several servers on one PostgreSQL database: each sees the others' changes, live updates
//! cross between them, and concurrent moves on one game never both succeed. Runs when
//! `BOARDLAB_TEST_POSTGRES_URL` is set (CI sets it).

mod common;

use common::{
    account_stream, legal, next_event, postgres_url, unique, version, Browser, TestServer,
};
use futures_util::StreamExt;
use serde_json::{json, Value};
use sqlx::Connection;
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

async fn next_state<S>(ws: &mut S) -> Value
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("an update in time")
            .expect("open")
            .expect("no error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            // Presence and review progress come on the same channel.
            if v["type"] != "state" {
                continue;
            }
            return v["state"].clone();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_games_and_live_updates() {
    let Some(url) = postgres_url() else {
        eprintln!("BOARDLAB_TEST_POSTGRES_URL is not set: skipped");
        return;
    };
    let a = TestServer::on(&url).await;
    let b = TestServer::on(&url).await;
    let (id, tokens, st) = a
        .create(json!({ "game": "sight-reduction", "seed": 12 }))
        .await;
    let first = tokens["first"].as_str().unwrap();
    let second = tokens["second"].as_str().unwrap();
    // B serves the game A created, and a spectator on B sees A's moves.
    assert_eq!(b.state(&id).await, st);
    let ws_url = format!("{}/api/games/{id}/live", b.base.replace("http://", "ws://"));
    let (mut ws, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    assert_eq!(next_state(&mut ws).await["version"], 0);
    let (c, after_a) = a.play(&id, &legal(&st)[0], first, Some(0)).await;
    assert_eq!(c, 200);
    assert_eq!(next_state(&mut ws).await, after_a);
    // B has cached the game; it still accepts the next move at the right version.
    let (c, after_b) = b.play(&id, &legal(&after_a)[0], second, Some(1)).await;
    assert_eq!(c, 200, "{after_b}");
    assert_eq!(next_state(&mut ws).await, after_b);
    // A learns of B's move.
    let mut tries = 0;
    while a.state(&id).await != after_b {
        tries += 1;
        assert!(tries < 200, "server A never saw server B's move");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Both servers race for the same version: exactly one wins.
    let (a, b) = (Arc::new(a), Arc::new(b));
    let mv = legal(&after_b);
    let mut tasks = Vec::new();
    for i in 0..8 {
        let s = if i % 2 == 0 {
            Arc::clone(&a)
        } else {
            Arc::clone(&b)
        };
        let (id, tok, m) = (id.clone(), first.to_string(), mv[i % mv.len()].clone());
        tasks.push(tokio::spawn(async move {
            s.play(&id, &m, &tok, Some(2)).await.0
        }));
    }
    let mut codes = Vec::new();
    for t in tasks {
        codes.push(t.await.unwrap());
    }
    assert_eq!(codes.iter().filter(|&&c| c == 200).count(), 1, "{codes:?}");
    assert!(codes.iter().all(|&c| c == 200 || c == 409), "{codes:?}");
    let sa = a.state(&id).await;
    assert_eq!(version(&sa), 3);
    let mut tries = 0;
    while b.state(&id).await != sa {
        tries += 1;
        assert!(tries < 200, "the servers disagree");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Without a version, a move sent to a server with a stale copy is played on the fresh state.
    let (c, v) = b.play(&id, &legal(&sa)[0], second, None).await;
    assert_eq!(c, 200, "{v}");
    assert_eq!(version(&v), 4);
}

/// Waits until both servers show the same state of a game; returns it.
async fn agreed(a: &TestServer, b: &TestServer, id: &str) -> Value {
    for _ in 0..500 {
        let sa = a.state(id).await;
        if b.state(id).await == sa {
            return sa;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the servers never agreed on game {id}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_a_move_whose_client_hung_up_on_the_losing_server_is_never_served() {
    let Some(url) = postgres_url() else {
        return;
    };
    let a = TestServer::on(&url).await;
    let b = TestServer::on(&url).await;
    let (id, tokens, st) = a
        .create(json!({ "game": "sight-reduction", "seed": 21 }))
        .await;
    let first = tokens["first"].as_str().unwrap();
    let second = tokens["second"].as_str().unwrap();
    assert_eq!(b.state(&id).await, st);
    let moves = legal(&st);
    // Another session holds the game's row, so both servers' writes wait for it.
    let mut holder = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::query("BEGIN").execute(&mut holder).await.unwrap();
    sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE")
        .bind(&id)
        .execute(&mut holder)
        .await
        .unwrap();
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(500))
        .build()
        .unwrap();
    let (on_a, ()) = tokio::join!(a.play(&id, &moves[0], first, Some(0)), async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let r = impatient
            .post(b.url(&format!("/api/games/{id}/moves")))
            .json(&json!({ "move": moves[1], "token": first, "version": 0 }))
            .send()
            .await;
        assert!(r.is_err(), "B answered while the row was held");
        sqlx::query("ROLLBACK").execute(&mut holder).await.unwrap();
    });
    assert!(on_a.0 == 200 || on_a.0 == 409, "{on_a:?}");
    // Whichever won, both servers show the one stored move, and a fresh server agrees.
    let now = agreed(&a, &b, &id).await;
    assert_eq!(version(&now), 1, "{now}");
    let c = TestServer::on(&url).await;
    assert_eq!(c.state(&id).await, now);
    // Each server accepts the next move, legal after the stored one, at the version it has.
    let (code, v) = b.play(&id, &legal(&now)[0], second, Some(1)).await;
    assert_eq!(code, 200, "{v}");
    let (code, v) = a.play(&id, &legal(&v)[0], first, Some(2)).await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(agreed(&a, &b, &id).await, v);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_a_version_just_acknowledged_elsewhere_is_never_called_stale() {
    let Some(url) = postgres_url() else {
        return;
    };
    let servers = [TestServer::on(&url).await, TestServer::on(&url).await];
    let mut moves = 0;
    let mut stale = 0;
    let mut seed = 0;
    while moves < 200 {
        seed += 1;
        let (id, tokens, mut st) = servers[0]
            .create(json!({ "game": "sight-reduction", "seed": seed, "same_screen": true }))
            .await;
        let token = tokens["first"].as_str().unwrap();
        // Both servers hold a copy before play starts.
        servers[1].state(&id).await;
        while st["status"] == "ongoing" {
            let s = &servers[moves % 2];
            let (c, v) = s.play(&id, &legal(&st)[0], token, Some(version(&st))).await;
            if c == 409 && v["code"] == "stale_version" {
                stale += 1;
                st = s.state(&id).await;
                continue;
            }
            assert_eq!(c, 200, "{v}");
            st = v;
            moves += 1;
        }
    }
    assert_eq!(stale, 0, "{stale} false stale answers in {moves} moves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_rematches_on_two_servers_make_one_new_game() {
    let Some(url) = postgres_url() else {
        return;
    };
    let a = Arc::new(TestServer::on(&url).await);
    let b = Arc::new(TestServer::on(&url).await);
    let mut db = sqlx::PgConnection::connect(&url).await.unwrap();
    // A position of a random set-up names this test's games in the shared database: a rematch
    // starts from its game's position.
    let (_, _, dealt) = a
        .create(json!({ "game": "sight-reduction", "seed": rand::random::<u32>() }))
        .await;
    let position = dealt["position"].as_str().unwrap().to_string();
    for round in 0..3 {
        let (id, t, _) = a
            .create(json!({ "game": "sight-reduction", "position": position, "same_screen": true }))
            .await;
        let tok = t["first"].as_str().unwrap().to_string();
        a.post(&format!("/api/games/{id}/resign"), &json!({ "token": tok }))
            .await;
        assert_eq!(b.state(&id).await["status"], "finished");
        let mut tasks = Vec::new();
        for i in 0..6 {
            let s = Arc::clone(if i % 2 == 0 { &a } else { &b });
            let (id, tok) = (id.clone(), tok.clone());
            tasks.push(tokio::spawn(async move {
                s.post(
                    &format!("/api/games/{id}/rematch"),
                    &json!({ "token": tok, "action": "offer" }),
                )
                .await
            }));
        }
        let mut agreed = Vec::new();
        for t in tasks {
            let (c, v) = t.await.unwrap();
            assert!(c == 200 || c == 409, "{c}: {v}");
            if c == 200 {
                agreed.push(v["rematch"].as_str().unwrap().to_string());
            }
        }
        agreed.dedup();
        assert_eq!(agreed.len(), 1, "{agreed:?}");
        // Each round stores the game and exactly one rematch.
        let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM games WHERE position = $1")
            .bind(&position)
            .fetch_one(&mut db)
            .await
            .unwrap();
        assert_eq!(stored, 2 * (round + 1));
        assert_eq!(a.state(&id).await["rematch"], agreed[0].as_str());
        assert_eq!(b.state(&agreed[0]).await["status"], "ongoing");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_and_a_players_turns_reach_them_on_any_server() {
    let Some(url) = postgres_url() else {
        return;
    };
    let a = TestServer::on(&url).await;
    let b = TestServer::on(&url).await;
    let (ann_name, ben_name) = (unique("ann"), unique("ben"));
    let mut ann = Browser::new(&a);
    assert_eq!(ann.signup(&ann_name).await.0, 201);
    let mut ben = Browser::new(&a);
    assert_eq!(ben.signup(&ben_name).await.0, 201);
    // Watching the lobby and Ann's games on server B; everything is done on server A.
    let r = b.client.get(b.url("/api/lobby/live")).send().await.unwrap();
    let mut lobby = r;
    let mut lbuf = String::new();
    assert_eq!(next_event(&mut lobby, &mut lbuf).await.0, "hello");
    let (mut ann_live, mut abuf) = account_stream(&b, ann.cookie.as_ref().unwrap()).await;
    let (c, v) = ann
        .post(
            "/api/lobby",
            &json!({ "game": "obsidio", "options": { "size": 7 }, "seat": "second" }),
        )
        .await;
    assert_eq!(c, 201, "{v}");
    let id = v["challenge"].as_str().unwrap();
    assert_eq!(next_event(&mut lobby, &mut lbuf).await.0, "lobby");
    let (c, v) = ben
        .post(&format!("/api/lobby/{id}/accept"), &json!({}))
        .await;
    assert_eq!(c, 201, "{v}");
    let game = v["game"].as_str().unwrap().to_string();
    let started = loop {
        let (event, data) = next_event(&mut ann_live, &mut abuf).await;
        let v: Value = serde_json::from_str(&data).unwrap();
        if event == "games" && v["started"] == true {
            break v;
        }
    };
    assert_eq!(started["game"], game.as_str());
    // Ben moves on server A: Ann hears of it on server B.
    let state = a.state(&game).await;
    let (c, v) = ben
        .post(
            &format!("/api/games/{game}/moves"),
            &json!({ "move": legal(&state)[0] }),
        )
        .await;
    assert_eq!(c, 200, "{v}");
    let (event, data) = next_event(&mut ann_live, &mut abuf).await;
    assert_eq!(event, "games");
    assert_eq!(
        serde_json::from_str::<Value>(&data).unwrap()["game"],
        game.as_str()
    );
    // And she moves on server B by her account.
    let mut ann_b = Browser::new(&b);
    ann_b.cookie.clone_from(&ann.cookie);
    let state = b.state(&game).await;
    let (c, v) = ann_b
        .post(
            &format!("/api/games/{game}/moves"),
            &json!({ "move": legal(&state)[0] }),
        )
        .await;
    assert_eq!(c, 200, "{v}");
    a.stop().await;
    b.stop().await;
}

/// The next message of type `kind` on a game's WebSocket for which `wanted` holds.
async fn next_message<S>(ws: &mut S, kind: &str, wanted: impl Fn(&Value) -> bool) -> Value
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .unwrap_or_else(|_| panic!("no {kind} message in time"))
            .expect("open")
            .expect("no error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == kind && wanted(&v[kind]) {
                return v[kind].clone();
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_and_review_progress_reach_clients_of_other_servers() {
    let Some(url) = postgres_url() else {
        return;
    };
    let a = TestServer::on(&url).await;
    let b = TestServer::on(&url).await;
    let ws = |s: &TestServer, id: &str| {
        format!("{}/api/games/{id}/live", s.base.replace("http://", "ws://"))
    };

    // A spectator on B; the first player comes and goes on A.
    let (id, tokens, _) = a
        .create(json!({ "game": "sight-reduction", "seed": 5 }))
        .await;
    let first = tokens["first"].as_str().unwrap();
    let (mut watch, _) = tokio_tungstenite::connect_async(&ws(&b, &id))
        .await
        .unwrap();
    let p = next_message(&mut watch, "presence", |_| true).await;
    assert_eq!(p, json!({ "first": false, "second": false }));
    let (mut player, _) = tokio_tungstenite::connect_async(&ws(&a, &id))
        .await
        .unwrap();
    let hello = json!({ "type": "hello", "tokens": [first] }).to_string();
    futures_util::SinkExt::send(&mut player, Message::Text(hello.into()))
        .await
        .unwrap();
    let p = next_message(&mut watch, "presence", |p| p["first"] == true).await;
    assert_eq!(p["second"], false, "{p}");
    drop(player);
    next_message(&mut watch, "presence", |p| p["first"] == false).await;

    // A review started on A reports its progress to a spectator on B, and B answers it as
    // running while it runs.
    let (id, t, mut st) = a
        .create(json!({ "game": "sight-reduction", "seed": 4, "same_screen": true }))
        .await;
    let tok = t["first"].as_str().unwrap().to_string();
    while st["status"] == "ongoing" {
        let mv = legal(&st)[0].clone();
        let (c, next) = a.play(&id, &mv, &tok, None).await;
        assert_eq!(c, 200, "{next}");
        st = next;
    }
    let (mut watch, _) = tokio_tungstenite::connect_async(&ws(&b, &id))
        .await
        .unwrap();
    next_message(&mut watch, "state", |_| true).await;
    let (c, v) = a.post(&format!("/api/games/{id}/review"), &json!({})).await;
    assert_eq!((c, v["status"].as_str()), (202, Some("running")), "{v}");
    let running = next_message(&mut watch, "review", |r| r["status"] == "running").await;
    assert!(running["total"].as_u64().unwrap() > 0, "{running}");
    let (c, v) = b.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(c, 200, "{v}");
    assert!(v["status"] == "running" || v["status"] == "done", "{v}");
    let done = next_message(&mut watch, "review", |r| r["status"] != "running").await;
    assert_eq!(done["status"], "done", "{done}");
    let (c, v) = b.get(&format!("/api/games/{id}/review")).await;
    assert_eq!((c, v["status"].as_str()), (200, Some("done")), "{v}");
}

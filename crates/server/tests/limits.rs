//! What one client may ask of the server: JSON bodies only, game creations and hints per
//! address, computer seats within the operator's time and thread limits, hints only where
//! they are offered, and answers that end with the game. Regression tests of issue 21.

mod common;

use boardlab_server::ServeArgs;
use common::{legal, version, TestServer};
use serde_json::{json, Value};
use std::time::Duration;

async fn server_with(edit: impl FnOnce(&mut ServeArgs)) -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut args = ServeArgs {
        addr: "127.0.0.1:0".into(),
        database: format!("sqlite://{}", dir.path().join("limits.db").display()),
        ..ServeArgs::default()
    };
    edit(&mut args);
    (TestServer::with(args).await, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_bodies_must_be_sent_as_json() {
    let s = TestServer::sqlite().await;
    let body = r#"{"game":"sight-reduction"}"#;
    // A page elsewhere can make a visitor's browser send text/plain or a body without a type
    // without asking; neither may create a game.
    for ct in [Some("text/plain"), Some("text/plain;charset=UTF-8"), None] {
        let mut req = s.client.post(s.url("/api/games")).body(body);
        if let Some(ct) = ct {
            req = req.header("content-type", ct);
        }
        let r = req.send().await.unwrap();
        assert_eq!(r.status().as_u16(), 415, "{ct:?}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["code"], "unsupported_media_type");
    }
    let (_, list) = s.get("/api/games").await;
    assert_eq!(list["games"].as_array().unwrap().len(), 0);
    let r = s
        .client
        .post(s.url("/api/games"))
        .header("content-type", "application/json; charset=utf-8")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_notes_beside_the_web_app_are_not_served() {
    let s = TestServer::sqlite().await;
    let r = s
        .client
        .get(s.url("/NEEDS-FROM-SERVER.md"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_offers_and_answers_end_with_the_game() {
    let s = TestServer::sqlite().await;
    let (id, t, mut st) = s
        .create(json!({ "game": "obsidio", "seed": 4, "options": { "size": "7" } }))
        .await;
    let token = |seat: &Value| t[seat.as_str().unwrap()].as_str().unwrap().to_string();
    let draw = format!("/api/games/{id}/draw");
    // The side to move offers a draw before each of its moves (declining the other's offer
    // first), so an offer is pending when the last move ends the game.
    while st["status"] == "ongoing" {
        let mover = token(&st["to_move"]["seat"]);
        if !st["draw_offer"].is_null() {
            let (c, v) = s
                .post(&draw, &json!({ "token": mover, "action": "decline" }))
                .await;
            assert_eq!(c, 200, "{v}");
        }
        let (c, v) = s
            .post(&draw, &json!({ "token": mover, "action": "offer" }))
            .await;
        assert_eq!(c, 200, "{v}");
        let (c, v) = s.play(&id, &legal(&v)[0], &mover, Some(version(&v))).await;
        assert_eq!(c, 200, "{v}");
        st = v;
    }
    assert_eq!(st["draw_offer"], Value::Null, "{st}");
    let finished = version(&st);
    for seat in ["first", "second"] {
        for action in ["decline", "accept"] {
            let (c, v) = s
                .post(&draw, &json!({ "token": t[seat], "action": action }))
                .await;
            assert_eq!((c, v["code"].as_str()), (409, Some("game_over")), "{v}");
        }
        let (c, v) = s
            .post(
                &format!("/api/games/{id}/undo"),
                &json!({ "token": t[seat], "action": "decline" }),
            )
            .await;
        assert_eq!(c, 409, "{v}");
    }
    assert_eq!(version(&s.state(&id).await), finished);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_no_hints_in_a_game_between_two_people() {
    let s = TestServer::sqlite().await;
    let (id, _, _) = s
        .create(json!({ "game": "sight-reduction", "seed": 3 }))
        .await;
    let (c, v) = s.get(&format!("/api/games/{id}/hint")).await;
    assert_eq!((c, v["code"].as_str()), (409, Some("not_allowed")), "{v}");
    for body in [
        json!({ "game": "sight-reduction", "seed": 3, "same_screen": true }),
        json!({ "game": "sight-reduction", "seed": 3, "seats": { "second": "computer:random" } }),
    ] {
        let (id, _, _) = s.create(body).await;
        let (c, v) = s.get(&format!("/api/games/{id}/hint")).await;
        assert_eq!(c, 200, "{v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_computer_seats_ask_for_no_more_than_the_server_allows() {
    let (s, _dir) = server_with(|a| {
        a.computer_max_time = Duration::from_secs(10);
        a.computer_threads = Some(2);
    })
    .await;
    for (spec, names) in [
        ("mcts:time=3600s,threads=256", "--computer-max-time"),
        ("alphabeta:time=11s", "--computer-max-time"),
        ("best:time=60s", "--computer-max-time"),
        ("mcts:time=1s,threads=3", "--computer-threads"),
        ("alphabeta:threads=256", "--computer-threads"),
    ] {
        let (c, v) = s
            .post(
                "/api/games",
                &json!({ "game": "opprimo", "seats": { "second": format!("computer:{spec}") } }),
            )
            .await;
        assert_eq!(c, 400, "{spec}: {v}");
        let msg = v["error"].as_str().unwrap();
        assert!(
            msg.contains("seats.second") && msg.contains(names),
            "{spec}: {msg}"
        );
    }
    // Levels, "every core" and budgets within the limits are accepted.
    for spec in [
        "level:10",
        "best:threads=0",
        "mcts:time=10s,threads=2",
        "alphabeta:nodes=100000000",
    ] {
        let (c, v) = s
            .post(
                "/api/games",
                &json!({ "game": "opprimo", "seats": { "first": "human", "second": format!("computer:{spec}") } }),
            )
            .await;
        assert_eq!(c, 201, "{spec}: {v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_a_stored_game_over_the_limit_thinks_only_as_long_as_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("cap.db").display());
    let args = |max: Duration| ServeArgs {
        addr: "127.0.0.1:0".into(),
        database: db.clone(),
        computer_max_time: max,
        ..ServeArgs::default()
    };
    // Stored under a generous operator: both seats think for an hour a move.
    let generous = TestServer::with(args(Duration::from_secs(7200))).await;
    let spec = "computer:mcts:time=3600s";
    let (id, _, st) = generous
        .create(json!({ "game": "sight-reduction", "seed": 5, "seats": { "first": spec, "second": spec } }))
        .await;
    assert_eq!(version(&st), 0);
    generous.stop().await;
    // The operator lowers the limit: the game goes on at that pace.
    let strict = TestServer::with(args(Duration::from_millis(100))).await;
    let started = std::time::Instant::now();
    let st = strict.wait_for(&id, 30, |s| version(s) >= 4).await;
    assert_eq!(st["seats"]["first"]["player"], spec, "{st}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "four moves took {:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regression_21_game_creation_and_hints_are_limited_per_address() {
    let (s, _dir) = server_with(|a| {
        a.games_per_minute = 3;
        a.hints_per_minute = 2;
    })
    .await;
    let vs_computer =
        json!({ "game": "sight-reduction", "seats": { "second": "computer:random" } });
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(s.create(vs_computer.clone()).await.0);
    }
    let r = s
        .client
        .post(s.url("/api/games"))
        .json(&vs_computer)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    let wait: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["code"], "rate_limited");
    // Playing is not limited.
    let (_, list) = s.get("/api/games").await;
    assert_eq!(list["games"].as_array().unwrap().len(), 3);
    for id in &ids[..2] {
        let (c, v) = s.get(&format!("/api/games/{id}/hint")).await;
        assert_eq!(c, 200, "{v}");
    }
    let (c, v) = s.get(&format!("/api/games/{}/hint", ids[2])).await;
    assert_eq!((c, v["code"].as_str()), (429, Some("rate_limited")), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_39_past_the_requests_in_flight_a_request_is_refused_at_once() {
    let (s, _dir) = server_with(|a| {
        a.max_in_flight = Some(1);
        a.hints_per_minute = 0;
    })
    .await;
    let (id, _, _) = s
        .create(json!({ "game": "obsidio", "same_screen": true }))
        .await;
    // A live stream holds no slot.
    let ws = format!("{}/api/games/{id}/live", s.base.replace("http://", "ws://"));
    let (_live, _) = tokio_tungstenite::connect_async(&ws).await.unwrap();
    // A hint thinks for half a second, holding the one slot; meanwhile another request is
    // refused at once, with the wait to come back after.
    let hint = {
        let (client, url) = (s.client.clone(), s.url(&format!("/api/games/{id}/hint")));
        tokio::spawn(async move { client.get(url).send().await.unwrap().status().as_u16() })
    };
    tokio::time::sleep(Duration::from_millis(150)).await;
    let t0 = std::time::Instant::now();
    let r = s
        .client
        .get(s.url(&format!("/api/games/{id}")))
        .send()
        .await
        .unwrap();
    let waited = t0.elapsed();
    assert_eq!(r.status().as_u16(), 503);
    assert_eq!(r.headers()["retry-after"], "1");
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["code"], "overloaded", "{v}");
    assert!(
        waited < Duration::from_millis(300),
        "refused after {waited:?}"
    );
    assert_eq!(hint.await.unwrap(), 200);
    // With the slot free again, the same request is served.
    let (c, v) = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(c, 200, "{v}");
}

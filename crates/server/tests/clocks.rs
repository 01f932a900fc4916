//! Clocks: kept by the server from commit times, with increments; a player out of time loses,
//! flagged by the server with nobody connected and after a SIGKILL and restart; computer
//! seats think within their clock; bad time controls are refused.

mod common;

use common::{client, legal, unique, Browser, ServerProcess, TestServer};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn ms(state: &Value, seat: &str) -> i64 {
    state["clock"][format!("{seat}_ms")].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_runs_out_and_the_server_flags_it_with_nobody_watching() {
    for s in TestServer::all().await {
        let started = Instant::now();
        let (id, tokens, state) = s
            .create(json!({ "game": "sight-reduction", "seed": 5, "clock": "0.25+0" }))
            .await;
        assert_eq!(state["clock"]["control"], "0.25+0");
        assert_eq!(state["clock"]["kind"], "realtime");
        assert_eq!(state["clock"]["running"], "first");
        assert!(
            ms(&state, "first") > 14_000 && ms(&state, "second") == 15_000,
            "{state}"
        );
        tokio::time::sleep(Duration::from_millis(1200)).await;
        let (c, after) = s
            .play(
                &id,
                &legal(&state)[0],
                tokens["first"].as_str().unwrap(),
                None,
            )
            .await;
        assert_eq!(c, 200, "{after}");
        // The first player's thinking time came off their clock; now the second's runs.
        assert!(ms(&after, "first") <= 13_900, "{after}");
        assert_eq!(after["clock"]["running"], "second");
        assert!(ms(&after, "second") > 14_500, "{after}");
        // The second player answers at once (a side that never moved would abort the game).
        let (c, answered) = s
            .play(
                &id,
                &legal(&after)[0],
                tokens["second"].as_str().unwrap(),
                None,
            )
            .await;
        assert_eq!(c, 200, "{answered}");
        assert_eq!(answered["clock"]["running"], "first");
        // Nobody moves: the server itself flags the first player when their time is up.
        let flagged = s.wait_for(&id, 25, |st| st["status"] == "finished").await;
        assert!(started.elapsed() >= Duration::from_secs(13));
        assert_eq!(flagged["result"]["termination"], "time");
        assert_eq!(flagged["result"]["winner"], "second");
        assert!(flagged["result"]["text"]
            .as_str()
            .unwrap()
            .contains("ran out of time"));
        assert_eq!(flagged["clock"]["running"], Value::Null);
        assert_eq!(ms(&flagged, "first"), 0);
        let (c, e) = s
            .play(
                &id,
                &legal(&answered)[0],
                tokens["first"].as_str().unwrap(),
                None,
            )
            .await;
        assert_eq!(c, 409, "{e}");
        let (_, record) = s.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(record["termination"], "time", "{record}");
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn increments_are_added_and_bad_clocks_refused() {
    let s = TestServer::sqlite().await;
    let (id, tokens, state) = s
        .create(json!({ "game": "obsidio", "options": { "size": 7 }, "same_screen": true, "clock": "1+5" }))
        .await;
    let tok = tokens["first"].as_str().unwrap();
    let (c, after) = s.play(&id, &legal(&state)[0], tok, None).await;
    assert_eq!(c, 200, "{after}");
    assert!(ms(&after, "first") > 60_000, "{after}");
    let (_, cc) = s
        .post("/api/games", &json!({ "game": "opprimo", "clock": "3d" }))
        .await;
    assert_eq!(cc["state"]["clock"]["kind"], "correspondence");
    assert_eq!(ms(&cc["state"], "second"), 3 * 24 * 3_600_000);
    for (body, why) in [
        (json!({ "game": "obsidio", "clock": "fast" }), "bad clock"),
        (json!({ "game": "obsidio", "clock": "0+0" }), "minutes"),
        (json!({ "game": "obsidio", "clock": "20d" }), "days"),
        (
            json!({ "game": "sight-reduction", "options": { "mode": "solitaire" }, "clock": "5+0" }),
            "puzzle",
        ),
    ] {
        let (c, v) = s.post("/api/games", &body).await;
        assert_eq!(c, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{v}");
    }
    // A challenge carries its clock into its game.
    let mut ann = Browser::new(&s);
    ann.signup(&unique("ann")).await;
    let mut ben = Browser::new(&s);
    ben.signup(&unique("ben")).await;
    let (c, v) = ann
        .post("/api/lobby", &json!({ "game": "opprimo", "clock": "10+5" }))
        .await;
    assert_eq!(c, 201, "{v}");
    let cid = v["challenge"].as_str().unwrap().to_string();
    let (_, lobby) = s.get("/api/lobby").await;
    assert_eq!(lobby["challenges"][0]["clock"], "10+5");
    let (_, v) = ben
        .post(&format!("/api/lobby/{cid}/accept"), &json!({}))
        .await;
    let game = v["game"].as_str().unwrap();
    assert_eq!(s.state(game).await["clock"]["control"], "10+5");
    let (c, _) = ann
        .post("/api/lobby", &json!({ "game": "opprimo", "clock": "5" }))
        .await;
    assert_eq!(c, 400);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_ran_out_while_the_server_was_down_is_flagged_at_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("clock.db").display());
    let mut server = ServerProcess::start(&db, None, &[]);
    let http = client();
    let r = http
        .post(format!("{}/api/games", server.base))
        .json(&json!({ "game": "sight-reduction", "seed": 3, "clock": "0.25+0" }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
    let id = r.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let port = server.port;
    server.kill();
    tokio::time::sleep(Duration::from_secs(16)).await;
    let server = ServerProcess::start(&db, Some(port), &[]);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let st: Value = http
            .get(format!("{}/api/games/{id}", server.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if st["status"] == "finished" {
            // Nobody ever moved: the game is aborted, not won (issue 36).
            assert_eq!(st["result"]["termination"], "aborted");
            assert_eq!(st["result"]["winner"], Value::Null);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not flagged after the restart: {st}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_on_a_clock_thinks_within_it() {
    let s = TestServer::sqlite().await;
    // The bot asks for 8 s a move; a 15-second clock gives it under a second.
    let (id, _, _) = s
        .create(json!({
            "game": "obsidio", "options": { "size": 9 }, "clock": "0.25+0",
            "seats": { "first": "computer:mcts:time=8s", "second": "computer:mcts:time=8s" },
        }))
        .await;
    let started = Instant::now();
    let st = s
        .wait_for(&id, 10, |st| {
            st["moves"].as_array().is_some_and(|m| m.len() >= 2)
        })
        .await;
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "two computer moves took {:?}",
        started.elapsed()
    );
    assert!(ms(&st, "first") > 10_000, "{st}");
    s.stop().await;
}

//! Computer seats and live updates.

mod common;

use common::{legal, version, TestServer};
use futures_util::StreamExt;
use serde_json::{json, Value};
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
            if v["type"] == "presence" || v["type"] == "review" {
                continue;
            }
            assert_eq!(v["type"], "state");
            return v["state"].clone();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_answers_a_human_move() {
    for s in TestServer::all().await {
        for bot in ["computer:random", "computer:level:1"] {
            let (id, tokens, st) = s
                .create(json!({ "game": "sight-reduction", "seed": 2, "seats": { "second": bot } }))
                .await;
            assert_eq!(st["seats"]["second"]["kind"], "computer");
            assert_eq!(st["seats"]["second"]["player"], bot);
            let tok = tokens["first"].as_str().unwrap();
            let (c, after) = s.play(&id, &legal(&st)[0], tok, Some(0)).await;
            assert_eq!(c, 200, "{after}");
            let st = s
                .wait_for(&id, 30, |st| {
                    st["status"] == "finished" || st["to_move"]["seat"] == "first"
                })
                .await;
            assert_eq!(version(&st), 2);
            assert_eq!(st["moves"][1]["seat"], "second");
            // A take-back against the computer is immediate and removes its reply too.
            let (c, back) = s
                .post(
                    &format!("/api/games/{id}/undo"),
                    &json!({ "token": tok, "action": "request" }),
                )
                .await;
            assert_eq!(c, 200, "{back}");
            assert_eq!(back["moves"].as_array().unwrap().len(), 0);
            // Draw offers to the computer are refused.
            let (c, v) = s
                .post(
                    &format!("/api/games/{id}/draw"),
                    &json!({ "token": tok, "action": "offer" }),
                )
                .await;
            assert_eq!(c, 409, "{v}");
        }
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_game_plays_out_by_itself() {
    for s in TestServer::all().await {
        for kind in boardlab_games::GameKind::all() {
            let (id, tokens, _) = s
                .create(json!({
                    "game": kind.name(),
                    "seed": 1,
                    "seats": { "first": "computer:random", "second": "computer:random" }
                }))
                .await;
            assert_eq!(tokens, json!({}));
            let st = s.wait_for(&id, 60, |st| st["status"] == "finished").await;
            assert!(st["result"]["tag"].is_string(), "{}", st["result"]);
            assert_eq!(st["result"]["termination"], "rules");
            assert_eq!(version(&st) as usize, st["moves"].as_array().unwrap().len());
        }
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_moves_first_when_it_holds_the_first_seat() {
    let s = TestServer::sqlite().await;
    let (id, tokens, _) = s
        .create(json!({ "game": "sight-reduction", "seats": { "first": "computer" } }))
        .await;
    assert!(tokens.get("first").is_none());
    let st = s.wait_for(&id, 30, |st| version(st) >= 1).await;
    assert_eq!(st["moves"][0]["seat"], "first");
    assert_eq!(st["seats"]["first"]["player"], "computer:level:3");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_receive_every_change_live() {
    for s in TestServer::all().await {
        let (id, tokens, st) = s
            .create(json!({ "game": "sight-reduction", "seed": 8 }))
            .await;
        let ws_url = format!("{}/api/games/{id}/live", s.base.replace("http://", "ws://"));
        let (mut a, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
        let (mut b, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
        assert_eq!(next_state(&mut a).await, st);
        assert_eq!(next_state(&mut b).await, st);
        // Server-sent events carry the same states.
        let sse = s
            .client
            .get(s.url(&format!("/api/games/{id}/events")))
            .send()
            .await
            .unwrap();
        assert_eq!(sse.status().as_u16(), 200);
        let mut sse = sse;
        let mut cur = st;
        let mut expected = vec![cur.clone()];
        for _ in 0..4 {
            let seat = cur["to_move"]["seat"].as_str().unwrap().to_string();
            let (c, next) = s
                .play(&id, &legal(&cur)[0], tokens[&seat].as_str().unwrap(), None)
                .await;
            assert_eq!(c, 200);
            assert_eq!(next_state(&mut a).await, next);
            assert_eq!(next_state(&mut b).await, next);
            expected.push(next.clone());
            cur = next;
        }
        let (c, resigned) = s
            .post(
                &format!("/api/games/{id}/resign"),
                &json!({ "token": tokens["first"] }),
            )
            .await;
        assert_eq!(c, 200);
        assert_eq!(next_state(&mut a).await, resigned);
        expected.push(resigned);
        // Read the event stream until every state has come.
        let mut buf = String::new();
        let mut got: Vec<Value> = Vec::new();
        while got.len() < expected.len() {
            let chunk = tokio::time::timeout(Duration::from_secs(20), sse.chunk())
                .await
                .expect("event in time")
                .unwrap()
                .expect("open");
            buf.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buf.find("\n\n") {
                let event: String = buf[..end].to_string();
                buf.drain(..end + 2);
                if let Some(data) = event.lines().find_map(|l| l.strip_prefix("data: ")) {
                    let v: Value = serde_json::from_str(data).unwrap();
                    if v["type"] == "state" {
                        got.push(v["state"].clone());
                    }
                }
            }
        }
        assert_eq!(got, expected);
        s.stop().await;
    }
}

/// The next presence message: `(first, second)`.
async fn next_presence<S>(ws: &mut S) -> (bool, bool)
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message in time")
            .expect("open")
            .expect("no error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "presence" {
                let p = &v["presence"];
                return (p["first"] == true, p["second"] == true);
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_tells_who_has_the_game_open() {
    use futures_util::SinkExt;
    let s = TestServer::sqlite().await;
    let (id, tokens, _) = s.create(json!({ "game": "opprimo" })).await;
    let ws_url = s
        .url(&format!("/api/games/{id}/live"))
        .replace("http", "ws");
    let (mut watcher, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    assert_eq!(next_presence(&mut watcher).await, (false, false));
    // A wrong token counts for nothing; the second seat's token makes it present.
    let (mut second, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    for t in ["nonsense", tokens["second"].as_str().unwrap()] {
        let hello = json!({ "type": "hello", "tokens": [t] }).to_string();
        second.send(Message::Text(hello.into())).await.unwrap();
    }
    assert_eq!(next_presence(&mut watcher).await, (false, true));
    // It goes away with its connection.
    second.close(None).await.unwrap();
    drop(second);
    assert_eq!(next_presence(&mut watcher).await, (false, false));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_signed_in_is_present_without_a_token() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let s = TestServer::sqlite().await;
    let mut ann = common::Browser::new(&s);
    ann.signup(&common::unique("ann")).await;
    let (id, tokens, _) = s.create(json!({ "game": "opprimo" })).await;
    let (c, _) = ann
        .post(
            &format!("/api/games/{id}/claim"),
            &json!({ "token": tokens["first"] }),
        )
        .await;
    assert_eq!(c, 200);
    let ws_url = s
        .url(&format!("/api/games/{id}/live"))
        .replace("http", "ws");
    let (mut watcher, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    assert_eq!(next_presence(&mut watcher).await, (false, false));
    // Ann opens the game in another browser, by her session alone.
    let mut req = ws_url.as_str().into_client_request().unwrap();
    req.headers_mut().insert(
        "cookie",
        format!("boardlab_session={}", ann.cookie.as_ref().unwrap())
            .parse()
            .unwrap(),
    );
    let (ann_ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    assert_eq!(next_presence(&mut watcher).await, (true, false));
    drop(ann_ws);
    assert_eq!(next_presence(&mut watcher).await, (false, false));
    s.stop().await;
}

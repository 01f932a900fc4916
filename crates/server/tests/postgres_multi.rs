//! Several servers on one PostgreSQL database: each sees the others' changes, live updates
//! cross between them, and concurrent moves on one game never both succeed. Runs when
//! `BOARDLAB_TEST_POSTGRES_URL` is set (CI sets it).

mod common;

use common::{legal, postgres_url, version, TestServer};
use futures_util::StreamExt;
use serde_json::{json, Value};
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

//! The lobby (open and direct challenges, live, accepted once, the computer from the same
//! form) and Glicko-2 ratings (counted once per rated game, shown on player pages and the
//! leaderboard). Run on SQLite and, when configured, PostgreSQL.

mod common;

use common::{account_stream, legal, next_event, unique, Browser, TestServer};
use serde_json::{json, Value};

async fn signed_up<'a>(s: &'a TestServer, prefix: &str) -> (Browser<'a>, String) {
    let name = unique(prefix);
    let mut b = Browser::new(s);
    let (c, v) = b.signup(&name).await;
    assert_eq!(c, 201, "{v}");
    (b, name)
}

/// Opens the lobby's live stream and reads its greeting.
async fn lobby_stream(s: &TestServer) -> (reqwest::Response, String) {
    let r = s.client.get(s.url("/api/lobby/live")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let mut r = r;
    let mut buf = String::new();
    assert_eq!(next_event(&mut r, &mut buf).await.0, "hello");
    (r, buf)
}

fn find<'v>(lobby: &'v Value, id: &str) -> Option<&'v Value> {
    lobby["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_challenge_is_seen_live_accepted_once_and_starts_the_game_for_both() {
    for s in TestServer::all().await {
        let (mut ann, ann_name) = signed_up(&s, "ann").await;
        let (mut ben, ben_name) = signed_up(&s, "ben").await;
        let (mut cid, _) = signed_up(&s, "cid").await;
        let (mut watch, mut wbuf) = lobby_stream(&s).await;
        let (mut ann_live, mut abuf) = account_stream(&s, ann.cookie.as_ref().unwrap()).await;
        let (c, v) = ann
            .post(
                "/api/lobby",
                &json!({ "game": "obsidio", "options": { "size": 7 }, "seat": "first" }),
            )
            .await;
        assert_eq!(c, 201, "{v}");
        let id = v["challenge"].as_str().unwrap().to_string();
        assert_eq!(next_event(&mut watch, &mut wbuf).await.0, "lobby");
        // Anyone sees it, signed in or not; only others may accept it.
        let (_, lobby) = s.get("/api/lobby").await;
        let seen = find(&lobby, &id).expect("listed");
        assert_eq!(seen["by"], ann_name.as_str());
        assert_eq!(seen["title"], "Obsidio");
        assert_eq!(seen["options"], json!({ "size": "7" }));
        assert!(seen["colour"].is_string(), "{seen}");
        assert_eq!(
            (seen["yours"].clone(), seen["acceptable"].clone()),
            (json!(false), json!(false))
        );
        let (_, mine) = ann.get("/api/lobby").await;
        assert_eq!(find(&mine, &id).unwrap()["yours"], true);
        let (_, theirs) = ben.get("/api/lobby").await;
        assert_eq!(find(&theirs, &id).unwrap()["acceptable"], true);
        let (c, _) = ann
            .post(&format!("/api/lobby/{id}/accept"), &json!({}))
            .await;
        assert_eq!(c, 404, "one's own challenge cannot be accepted");
        // Two players accept at once: one game.
        let path = format!("/api/lobby/{id}/accept");
        let empty = json!({});
        let (r1, r2) = tokio::join!(ben.post(&path, &empty), cid.post(&path, &empty));
        let mut codes = [r1.0, r2.0];
        codes.sort_unstable();
        assert_eq!(codes, [201, 404], "{r1:?} {r2:?}");
        let game = if r1.0 == 201 { r1.1 } else { r2.1 };
        let game = game["game"].as_str().unwrap().to_string();
        // The author is told and taken there; the challenge is gone for everyone.
        loop {
            let (event, data) = next_event(&mut ann_live, &mut abuf).await;
            let v: Value = serde_json::from_str(&data).unwrap();
            if event == "games" && v["started"] == true {
                assert_eq!(v["game"], game.as_str());
                break;
            }
        }
        assert_eq!(next_event(&mut watch, &mut wbuf).await.0, "lobby");
        assert!(find(&s.get("/api/lobby").await.1, &id).is_none());
        let state = s.state(&game).await;
        assert_eq!(state["seats"]["first"]["account"], ann_name.as_str());
        assert_eq!(state["rated"], false);
        let acceptor = state["seats"]["second"]["account"]
            .as_str()
            .unwrap()
            .to_string();
        // Both play by account alone: there are no tokens.
        let mv = legal(&state)[0].clone();
        let (c, v) = ann
            .post(&format!("/api/games/{game}/moves"), &json!({ "move": mv }))
            .await;
        assert_eq!(c, 200, "{v}");
        let second = if acceptor == ben_name {
            &mut ben
        } else {
            &mut cid
        };
        let (_, mine) = second.get("/api/account/games").await;
        assert_eq!(mine["games"][0]["id"], game.as_str());
        assert_eq!(mine["games"][0]["your_turn"], true);
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_to_one_player_cancelling_and_bad_challenges() {
    for s in TestServer::all().await {
        let (mut ann, ann_name) = signed_up(&s, "ann").await;
        let (mut ben, ben_name) = signed_up(&s, "ben").await;
        let (mut cid, _) = signed_up(&s, "cid").await;
        let (mut ben_live, mut buf) = account_stream(&s, ben.cookie.as_ref().unwrap()).await;
        let (c, v) = ann
            .post(
                "/api/lobby",
                &json!({ "game": "opprimo", "opponent": ben_name.to_uppercase(), "rated": true }),
            )
            .await;
        assert_eq!(c, 201, "{v}");
        let id = v["challenge"].as_str().unwrap().to_string();
        // Ben is told at once, wherever he is in the app.
        let (event, data) = next_event(&mut ben_live, &mut buf).await;
        assert_eq!(event, "games");
        let news: Value = serde_json::from_str(&data).unwrap();
        assert_eq!(news["challenge"], id.as_str());
        assert_eq!(news["from"], ann_name.as_str());
        assert_eq!(news["title"], "Opprimo");
        // Only the two see it; only Ben may accept.
        assert!(find(&cid.get("/api/lobby").await.1, &id).is_none());
        assert!(find(&s.get("/api/lobby").await.1, &id).is_none());
        let (_, bens) = ben.get("/api/lobby").await;
        assert_eq!(find(&bens, &id).unwrap()["opponent"], ben_name.as_str());
        assert_eq!(find(&bens, &id).unwrap()["rated"], true);
        assert_eq!(
            cid.post(&format!("/api/lobby/{id}/accept"), &json!({}))
                .await
                .0,
            404
        );
        // Others cannot withdraw it; its author can.
        assert_eq!(
            ben.post(&format!("/api/lobby/{id}/cancel"), &json!({}))
                .await
                .0,
            404
        );
        assert_eq!(
            ann.post(&format!("/api/lobby/{id}/cancel"), &json!({}))
                .await
                .0,
            200
        );
        assert_eq!(
            ben.post(&format!("/api/lobby/{id}/accept"), &json!({}))
                .await
                .0,
            404
        );
        for (body, status) in [
            (json!({ "game": "chess" }), 400),
            (json!({ "game": "obsidio", "seat": "left" }), 400),
            (json!({ "game": "obsidio", "options": { "size": 8 } }), 400),
            (json!({ "game": "obsidio", "opponent": ann_name }), 400),
            (json!({ "game": "obsidio", "opponent": "nobody-here" }), 400),
            (
                json!({ "game": "obsidio", "opponent": "computer", "rated": true }),
                400,
            ),
            (
                json!({ "game": "obsidio", "opponent": "computer:nonsense" }),
                400,
            ),
            (
                json!({ "game": "sight-reduction", "options": { "mode": "solitaire" } }),
                400,
            ),
            (json!({ "game": "obsidio", "colour": "red" }), 400),
        ] {
            let (c, v) = ann.post("/api/lobby", &body).await;
            assert_eq!(c, status, "{body}: {v}");
        }
        let (c, _) = Browser::new(&s)
            .post("/api/lobby", &json!({ "game": "obsidio" }))
            .await;
        assert_eq!(c, 401);
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_is_challenged_from_the_same_form() {
    for s in TestServer::all().await {
        let (mut ann, ann_name) = signed_up(&s, "ann").await;
        let (c, v) = ann
            .post(
                "/api/lobby",
                &json!({ "game": "sight-reduction", "opponent": "computer:random", "seat": "second" }),
            )
            .await;
        assert_eq!(c, 201, "{v}");
        let game = v["game"].as_str().unwrap().to_string();
        // The computer has the first move and makes it; then it is Ann's turn.
        let state = s
            .wait_for(&game, 20, |st| {
                st["moves"].as_array().is_some_and(|m| !m.is_empty())
            })
            .await;
        assert_eq!(state["seats"]["second"]["account"], ann_name.as_str());
        assert_eq!(state["seats"]["first"]["player"], "computer:random");
        let (_, mine) = ann.get("/api/account/games").await;
        assert_eq!(mine["games"][0]["id"], game.as_str());
        assert_eq!(mine["games"][0]["opponent_player"], "computer:random");
        s.stop().await;
    }
}

/// Plays a rated game from a challenge to its end: Ben accepts Ann's challenge and the
/// second seat resigns. Returns the game id and who won.
async fn rated_game(
    s: &TestServer,
    ann: &mut Browser<'_>,
    ben: &mut Browser<'_>,
    rated: bool,
) -> (String, String) {
    let (c, v) = ann
        .post(
            "/api/lobby",
            &json!({ "game": "obsidio", "options": { "size": 7 }, "seat": "first", "rated": rated }),
        )
        .await;
    assert_eq!(c, 201, "{v}");
    let id = v["challenge"].as_str().unwrap();
    let (c, v) = ben
        .post(&format!("/api/lobby/{id}/accept"), &json!({}))
        .await;
    assert_eq!(c, 201, "{v}");
    let game = v["game"].as_str().unwrap().to_string();
    assert_eq!(s.state(&game).await["rated"], rated);
    let (c, v) = ben
        .post(&format!("/api/games/{game}/resign"), &json!({}))
        .await;
    assert_eq!(c, 200, "{v}");
    (game, "ann".into())
}

/// Polls a player page until `done` holds.
async fn page_until(s: &TestServer, name: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let (c, page) = s.get(&format!("/api/players/{name}")).await;
        assert_eq!(c, 200, "{page}");
        if done(&page) {
            return page;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("the player page never showed what was expected");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_moves_both_ratings_and_an_unrated_one_does_not() {
    for s in TestServer::all().await {
        let (mut ann, ann_name) = signed_up(&s, "ann").await;
        let (mut ben, ben_name) = signed_up(&s, "ben").await;
        rated_game(&s, &mut ann, &mut ben, false).await;
        rated_game(&s, &mut ann, &mut ben, true).await;
        let page = page_until(&s, &ann_name, |p| {
            p["ratings"].as_array().is_some_and(|r| !r.is_empty())
        })
        .await;
        let r = &page["ratings"][0];
        // From 1500 ± 350 each, one win: 1662 ± 290 and 1338 ± 290.
        assert_eq!(r["rating"]["game"], "obsidio");
        assert_eq!(r["rating"]["rating"], 1662);
        assert_eq!(r["rating"]["deviation"], 290);
        assert_eq!(r["rating"]["provisional"], true);
        assert_eq!(r["rating"]["games"], 1);
        assert_eq!(r["history"].as_array().unwrap().len(), 1);
        let (_, bens) = s.get(&format!("/api/players/{ben_name}")).await;
        assert_eq!(bens["ratings"][0]["rating"]["rating"], 1338);
        assert_eq!(page["record"]["won"], 2);
        // The leaderboard lists both, the winner first.
        let (c, board) = s.get("/api/ratings/obsidio").await;
        assert_eq!(c, 200, "{board}");
        let names: Vec<&str> = board["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .filter(|n| *n == ann_name || *n == ben_name)
            .collect();
        assert_eq!(names, [ann_name.as_str(), ben_name.as_str()]);
        assert_eq!(s.get("/api/ratings/chess").await.0, 404);
        assert_eq!(s.get("/api/ratings/obsidio?limit=0").await.0, 400);
        s.stop().await;
    }
}

/// Account ids are never shown; tests read them from the database.
async fn account_id(database: &str, name: &str) -> String {
    use sqlx::Connection;
    let sql = "SELECT id FROM accounts WHERE name_key = $1";
    if database.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(database).await.unwrap();
        sqlx::query_scalar(sql)
            .bind(name.to_lowercase())
            .fetch_one(&mut c)
            .await
            .unwrap()
    } else {
        let mut c = sqlx::SqliteConnection::connect(database).await.unwrap();
        sqlx::query_scalar(sql)
            .bind(name.to_lowercase())
            .fetch_one(&mut c)
            .await
            .unwrap()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_result_is_counted_once_however_many_servers_count_it() {
    for s in TestServer::all().await {
        let (mut ann, ann_name) = signed_up(&s, "ann").await;
        let (mut ben, ben_name) = signed_up(&s, "ben").await;
        let (game, _) = rated_game(&s, &mut ann, &mut ben, true).await;
        page_until(&s, &ann_name, |p| p["ratings"][0]["rating"]["games"] == 1).await;
        // Two more servers' stores on the same database try to count the same result,
        // eight times each, at once: none of them counts it again.
        let a = std::sync::Arc::new(
            boardlab_server::store::Store::open(&s.database)
                .await
                .unwrap(),
        );
        let b = std::sync::Arc::new(
            boardlab_server::store::Store::open(&s.database)
                .await
                .unwrap(),
        );
        let result = boardlab_server::store::RatedResult {
            game_id: game.clone(),
            game: "obsidio".into(),
            accounts: [
                account_id(&s.database, &ann_name).await,
                account_id(&s.database, &ben_name).await,
            ],
            score_first: Some(1.0),
        };
        let mut tasks = Vec::new();
        for i in 0..16 {
            let store = std::sync::Arc::clone(if i % 2 == 0 { &a } else { &b });
            let r = result.clone();
            tasks.push(tokio::spawn(async move {
                store.rate_game(&r, 0).await.unwrap()
            }));
        }
        for t in tasks {
            assert!(!t.await.unwrap(), "a result was counted twice");
        }
        let (_, page) = s.get(&format!("/api/players/{ann_name}")).await;
        assert_eq!(page["ratings"][0]["rating"]["games"], 1);
        assert_eq!(page["ratings"][0]["rating"]["rating"], 1662);
        // A new result is counted by exactly one of racing stores.
        let (c, v) = ann
            .post(
                "/api/lobby",
                &json!({ "game": "obsidio", "options": { "size": 7 }, "seat": "first", "rated": true }),
            )
            .await;
        assert_eq!(c, 201, "{v}");
        let id = v["challenge"].as_str().unwrap();
        let (_, v) = ben
            .post(&format!("/api/lobby/{id}/accept"), &json!({}))
            .await;
        let game2 = v["game"].as_str().unwrap().to_string();
        let fresh = boardlab_server::store::RatedResult {
            game_id: game2,
            ..result.clone()
        };
        let mut tasks = Vec::new();
        for i in 0..16 {
            let store = std::sync::Arc::clone(if i % 2 == 0 { &a } else { &b });
            let r = fresh.clone();
            tasks.push(tokio::spawn(async move {
                store.rate_game(&r, 0).await.unwrap()
            }));
        }
        let mut counted = 0;
        for t in tasks {
            counted += usize::from(t.await.unwrap());
        }
        assert_eq!(counted, 1);
        let (_, page) = s.get(&format!("/api/players/{ann_name}")).await;
        assert_eq!(page["ratings"][0]["rating"]["games"], 2);
        a.close().await;
        b.close().await;
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_between_accounts_keeps_the_accounts_and_the_rating() {
    for s in TestServer::all().await {
        let (mut ann, ann_name) = signed_up(&s, "ann").await;
        let (mut ben, ben_name) = signed_up(&s, "ben").await;
        let (game, _) = rated_game(&s, &mut ann, &mut ben, true).await;
        // Offered (rated, as a visible choice) and accepted by account alone, no tokens.
        let (c, v) = ann
            .post(
                &format!("/api/games/{game}/rematch"),
                &json!({ "action": "offer", "rated": true }),
            )
            .await;
        assert_eq!(c, 200, "{v}");
        let (mut ben_live, mut buf) = account_stream(&s, ben.cookie.as_ref().unwrap()).await;
        let (c, v) = ben
            .post(
                &format!("/api/games/{game}/rematch"),
                &json!({ "action": "accept" }),
            )
            .await;
        assert_eq!(c, 200, "{v}");
        let rematch = v["rematch"].as_str().unwrap().to_string();
        let state = s.state(&rematch).await;
        assert_eq!(state["seats"]["first"]["account"], ben_name.as_str());
        assert_eq!(state["seats"]["second"]["account"], ann_name.as_str());
        assert_eq!(state["rated"], true);
        // Ben hears of the new game on his channel, and it is his move there.
        loop {
            let (_, data) = next_event(&mut ben_live, &mut buf).await;
            if serde_json::from_str::<Value>(&data).unwrap()["game"] == rematch.as_str() {
                break;
            }
        }
        let (c, v) = ben
            .post(
                &format!("/api/games/{rematch}/moves"),
                &json!({ "move": legal(&state)[0] }),
            )
            .await;
        assert_eq!(c, 200, "{v}");
        s.stop().await;
    }
}

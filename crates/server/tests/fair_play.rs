//! Issue 36: rules that nobody else can bend. A game in which a side never moved is aborted
//! (unrated, no winner); the end of a game between two people is final; a rated rematch is
//! a visible choice; a challenge lapses when its author has gone; and the smaller faults
//! (an echoed name, the Origin's scheme, a review's body, a join whose answer was lost).
//! Run on SQLite and, when configured, PostgreSQL.

mod common;

use boardlab_server::ServeArgs;
use common::{legal, unique, Browser, TestServer};
use serde_json::{json, Value};
use std::time::Duration;

async fn signed_up<'a>(s: &'a TestServer, prefix: &str) -> (Browser<'a>, String) {
    let name = unique(prefix);
    let mut b = Browser::new(s);
    let (c, v) = b.signup(&name).await;
    assert_eq!(c, 201, "{v}");
    (b, name)
}

/// A rated game between two new accounts from a lobby challenge (`clock`, if any); the
/// players as (first, second) and the game's id.
async fn rated_game<'a>(
    s: &'a TestServer,
    clock: Option<&str>,
) -> (Browser<'a>, Browser<'a>, String) {
    let (ann, ben, id, _) = rated_game_named(s, clock).await;
    (ann, ben, id)
}

/// As [`rated_game`], with the players' names.
async fn rated_game_named<'a>(
    s: &'a TestServer,
    clock: Option<&str>,
) -> (Browser<'a>, Browser<'a>, String, [String; 2]) {
    let (mut ann, ann_name) = signed_up(s, "ann").await;
    let (mut ben, ben_name) = signed_up(s, "ben").await;
    let mut challenge = json!({ "game": "sight-reduction", "seat": "first", "rated": true });
    if let Some(c) = clock {
        challenge["clock"] = json!(c);
    }
    let (c, v) = ann.post("/api/lobby", &challenge).await;
    assert_eq!(c, 201, "{v}");
    let cid = v["challenge"].as_str().unwrap().to_string();
    let (c, v) = ben
        .post(&format!("/api/lobby/{cid}/accept"), &json!({}))
        .await;
    assert_eq!(c, 201, "{v}");
    let id = v["game"].as_str().unwrap().to_string();
    (ann, ben, id, [ann_name, ben_name])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_a_rated_game_nobody_started_is_aborted_and_changes_no_rating() {
    for s in TestServer::all().await {
        let (ann, _ben, id, names) = rated_game_named(&s, Some("0.25+0")).await;
        let state = s.state(&id).await;
        assert_eq!(state["rated"], true);
        // The author never comes: their clock runs out before their first move.
        let done = s.wait_for(&id, 30, |st| st["status"] == "finished").await;
        assert_eq!(done["result"]["termination"], "aborted", "{done}");
        assert_eq!(done["result"]["winner"], Value::Null);
        assert!(done["result"]["text"].as_str().unwrap().contains("aborted"));
        // Counted as seen, but nobody's rating moved.
        tokio::time::sleep(Duration::from_millis(500)).await;
        for name in &names {
            let (c, page) = s.get(&format!("/api/players/{name}")).await;
            assert_eq!(c, 200, "{page}");
            assert_eq!(page["ratings"], json!([]), "{name}: {page}");
        }
        let (c, record) = s.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(c, 200);
        assert_eq!(record["termination"], "aborted", "{record}");
        assert_eq!(
            record["result"],
            Value::Null,
            "an aborted game has no result"
        );
        drop(ann);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_a_side_that_never_answered_the_first_move_aborts_too() {
    for s in TestServer::all().await {
        let (mut ann, _ben, id) = rated_game(&s, Some("0.25+0")).await;
        let state = s.state(&id).await;
        let mv = legal(&state)[0].clone();
        let (c, v) = ann
            .post(&format!("/api/games/{id}/moves"), &json!({ "move": mv }))
            .await;
        assert_eq!(c, 200, "{v}");
        let done = s.wait_for(&id, 30, |st| st["status"] == "finished").await;
        assert_eq!(done["result"]["termination"], "aborted", "{done}");
        assert_eq!(done["result"]["winner"], Value::Null);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_a_finished_rated_game_cannot_be_taken_back() {
    for s in TestServer::all().await {
        let (mut ann, mut ben, id) = rated_game(&s, None).await;
        // Play to the end by the rules.
        let mut state = s.state(&id).await;
        while state["status"] == "ongoing" {
            let mover = if state["to_move"]["seat"] == "first" {
                &mut ann
            } else {
                &mut ben
            };
            let mv = legal(&state)[0].clone();
            let (c, v) = mover
                .post(&format!("/api/games/{id}/moves"), &json!({ "move": mv }))
                .await;
            assert_eq!(c, 200, "{v}");
            state = v;
        }
        let winner = state["result"]["winner"].clone();
        for b in [&mut ann, &mut ben] {
            let (c, v) = b
                .post(
                    &format!("/api/games/{id}/undo"),
                    &json!({ "action": "request" }),
                )
                .await;
            assert_eq!(c, 409, "{v}");
            assert_eq!(v["code"], "game_over", "{v}");
        }
        let after = s.state(&id).await;
        assert_eq!(after["status"], "finished");
        assert_eq!(after["result"]["winner"], winner);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_a_practice_game_against_the_computer_may_take_back_its_last_move() {
    let s = TestServer::sqlite().await;
    let (id, tokens, mut state) = s
        .create(json!({ "game": "sight-reduction", "seed": 2, "seats": { "second": "computer:random" } }))
        .await;
    let token = tokens["first"].as_str().unwrap().to_string();
    while state["status"] == "ongoing" {
        if state["to_move"]["seat"] == "first" {
            let (c, v) = s.play(&id, &legal(&state)[0], &token, None).await;
            assert_eq!(c, 200, "{v}");
        }
        state = s
            .wait_for(&id, 10, |st| {
                st["status"] == "finished" || st["to_move"]["seat"] == "first"
            })
            .await;
    }
    if state["result"]["termination"] == "rules" {
        let (c, v) = s
            .post(
                &format!("/api/games/{id}/undo"),
                &json!({ "token": token, "action": "request" }),
            )
            .await;
        assert_eq!(c, 200, "{v}");
        assert_eq!(v["status"], "ongoing");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_a_rematch_is_rated_only_when_the_offer_says_so() {
    for s in TestServer::all().await {
        let (mut ann, mut ben, id) = rated_game(&s, None).await;
        let (c, v) = ann
            .post(&format!("/api/games/{id}/resign"), &json!({}))
            .await;
        assert_eq!(c, 200, "{v}");
        let rematch = format!("/api/games/{id}/rematch");
        // A plain offer: the rematch is not rated, and everyone sees that.
        let (c, v) = ben.post(&rematch, &json!({ "action": "offer" })).await;
        assert_eq!(c, 200, "{v}");
        assert_eq!(v["rematch_rated"], false);
        let (c, v) = ann.post(&rematch, &json!({ "action": "accept" })).await;
        assert_eq!(c, 200, "{v}");
        let next = v["rematch"].as_str().unwrap().to_string();
        assert_eq!(s.state(&next).await["rated"], false);
        // The rematch of that one, offered rated.
        let (c, v) = ann
            .post(&format!("/api/games/{next}/resign"), &json!({}))
            .await;
        assert!(c == 200 || c == 403, "{v}");
        if c == 403 {
            let (c, v) = ben
                .post(&format!("/api/games/{next}/resign"), &json!({}))
                .await;
            assert_eq!(c, 200, "{v}");
        }
        let rematch = format!("/api/games/{next}/rematch");
        let (c, v) = ann
            .post(&rematch, &json!({ "action": "offer", "rated": true }))
            .await;
        assert_eq!(c, 200, "{v}");
        assert_eq!(v["rematch_rated"], true);
        // An acceptance takes the offer's choice; it cannot change it.
        let (c, _) = ben
            .post(&rematch, &json!({ "action": "accept", "rated": true }))
            .await;
        assert_eq!(c, 400);
        let (c, v) = ben.post(&rematch, &json!({ "action": "accept" })).await;
        assert_eq!(c, 200, "{v}");
        let third = v["rematch"].as_str().unwrap().to_string();
        assert_eq!(s.state(&third).await["rated"], true);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_a_rated_rematch_needs_two_accounts() {
    let s = TestServer::sqlite().await;
    let (id, tokens, _) = s
        .create(json!({ "game": "sight-reduction", "seed": 1 }))
        .await;
    let t = |seat: &str| tokens[seat].as_str().unwrap().to_string();
    let (c, _) = s
        .post(
            &format!("/api/games/{id}/resign"),
            &json!({ "token": t("first") }),
        )
        .await;
    assert_eq!(c, 200);
    let (c, v) = s
        .post(
            &format!("/api/games/{id}/rematch"),
            &json!({ "token": t("second"), "action": "offer", "rated": true }),
        )
        .await;
    assert_eq!(c, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("signed in"), "{v}");
}

async fn lapse_server(seconds: u64) -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let args = ServeArgs {
        addr: "127.0.0.1:0".into(),
        database: format!("sqlite://{}", dir.path().join("lapse.db").display()),
        challenge_lapse: seconds,
        ..ServeArgs::default()
    };
    (TestServer::with(args).await, dir)
}

fn listed(lobby: &Value, id: &str) -> bool {
    lobby["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["id"] == id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_a_challenge_lapses_when_its_author_has_gone() {
    let (s, _dir) = lapse_server(2).await;
    let (mut ann, _) = signed_up(&s, "ann").await;
    let (mut ben, _) = signed_up(&s, "ben").await;
    let (mut cid, _) = signed_up(&s, "cid").await;
    let post = |clock: &str| json!({ "game": "sight-reduction", "rated": true, "clock": clock });
    // Ann posts a real-time and a correspondence challenge, then closes the app.
    let (c, v) = ann.post("/api/lobby", &post("5+3")).await;
    assert_eq!(c, 201, "{v}");
    let live = v["challenge"].as_str().unwrap().to_string();
    let (c, v) = ann.post("/api/lobby", &post("3d")).await;
    assert_eq!(c, 201, "{v}");
    let slow = v["challenge"].as_str().unwrap().to_string();
    // Ben posts one and keeps a page of the app open (its account stream).
    let (c, v) = ben.post("/api/lobby", &post("5+3")).await;
    assert_eq!(c, 201, "{v}");
    let stays = v["challenge"].as_str().unwrap().to_string();
    let (_stream, _) = common::account_stream(&s, ben.cookie.as_ref().unwrap()).await;
    tokio::time::sleep(Duration::from_millis(3500)).await;
    let (_, lobby) = cid.get("/api/lobby").await;
    assert!(
        !listed(&lobby, &live),
        "the absent author's game-now challenge lapsed"
    );
    assert!(listed(&lobby, &slow), "a correspondence challenge waits");
    assert!(
        listed(&lobby, &stays),
        "an author with the app open keeps theirs"
    );
    let (c, _) = cid
        .post(&format!("/api/lobby/{live}/accept"), &json!({}))
        .await;
    assert_eq!(c, 404);
    let (c, v) = cid
        .post(&format!("/api/lobby/{stays}/accept"), &json!({}))
        .await;
    assert_eq!(c, 201, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_small_faults_are_closed() {
    let s = TestServer::sqlite().await;
    let (mut ann, _) = signed_up(&s, "ann").await;
    // A long unknown name is not echoed in full.
    let long = "x".repeat(30_000);
    let (c, v) = ann
        .post(
            "/api/lobby",
            &json!({ "game": "sight-reduction", "opponent": long }),
        )
        .await;
    assert_eq!(c, 400);
    assert!(v["error"].as_str().unwrap().len() < 200, "{}", v["error"]);
    // The Origin's scheme counts: an https page is another site to a plain-HTTP server.
    let host = s.base.trim_start_matches("http://").to_string();
    let mut foreign = Browser::new(&s).with("origin", &format!("https://{host}"));
    foreign.cookie = ann.cookie.clone();
    let (c, v) = foreign
        .post("/api/lobby", &json!({ "game": "sight-reduction" }))
        .await;
    assert_eq!(c, 403, "{v}");
    // A review is started only by a JSON request.
    let (id, tokens, state) = s
        .create(json!({ "game": "sight-reduction", "seed": 9 }))
        .await;
    let (c, _) = s
        .play(
            &id,
            &legal(&state)[0],
            tokens["first"].as_str().unwrap(),
            None,
        )
        .await;
    assert_eq!(c, 200);
    let r = s
        .client
        .post(s.url(&format!("/api/games/{id}/review")))
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 415);
    let (c, v) = s.post(&format!("/api/games/{id}/review"), &json!({})).await;
    assert!(c == 200 || c == 202, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_36_a_join_whose_answer_was_lost_can_be_sent_again() {
    for s in TestServer::all().await {
        let (id, tokens, _) = s
            .create(json!({ "game": "sight-reduction", "seed": 4 }))
            .await;
        let link = tokens["second"].as_str().unwrap().to_string();
        let mine = "00112233445566778899aabbccddeeff";
        let join = format!("/api/games/{id}/join");
        let body = json!({ "token": link, "new_token": mine });
        let (c, first) = s.post(&join, &body).await;
        assert_eq!(c, 200, "{first}");
        assert_eq!(first["token"], mine);
        // The answer was lost: the same request again gets the same seat.
        let (c, again) = s.post(&join, &body).await;
        assert_eq!(c, 200, "{again}");
        assert_eq!(
            (again["seat"].clone(), again["token"].clone()),
            (first["seat"].clone(), json!(mine))
        );
        // Someone else with the link gets nothing.
        let (c, v) = s
            .post(
                &join,
                &json!({ "token": link, "new_token": "ffeeddccbbaa99887766554433221100" }),
            )
            .await;
        assert_eq!(c, 409, "{v}");
        assert_eq!(v["code"], "invite_used");
        let (c, v) = s
            .post(&join, &json!({ "token": link, "new_token": "short" }))
            .await;
        assert_eq!(c, 400, "{v}");
    }
}
